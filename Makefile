# corral — a herd7-compatible memory-model simulator.
#
#   make              build ./corral and build/libcorral.a
#   make test         unit tests, our regression litmus tests, and the
#                     public conformance corpus and herd7's graphs when
#                     ../shared is present
#   make check-asan   the same under AddressSanitizer + UBSan
#   make check-asan-quick  unit and regression tests alone under them
#   make check-tsan   unit and regression tests under ThreadSanitizer
#   make check-valgrind  regression tests and the article suite under
#                     valgrind memcheck (slow: not part of make test)
#   make test-models  our models/ against the corpus (not in make test)
#   make bench        benchmarks (bench/), printing figures
#   make bench-lkmm   its rows of the LKMM edge tests alone
#   make install      corral, models/ and the manual page under PREFIX
#                     (default /usr/local)
#   make install-herd7  also the name herd7 (a link to corral), for
#                     scripts that run herd7 by name
#   make CC=clang     any C17 compiler with gcc-style flags

CC      ?= cc
OPT     ?= -O2
CFLAGS  ?= $(OPT) -g
WARN     = -std=c17 -Wall -Wextra -Werror -Wno-unused-parameter \
           -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CPPFLAGS = -D_GNU_SOURCE -Iinclude -Isrc
LDLIBS   = -l:libnettle.a -lpthread -lm
BUILD   ?= build
BIN     ?= corral

LIB_SRC := $(sort $(wildcard src/util/*.c src/rel/*.c src/litmus/*.c \
                             src/exec/*.c src/cat/*.c src/report/*.c src/core/*.c \
                             src/isa/*.c))
CLI_SRC := $(sort $(wildcard src/cli/*.c))
# corral-serve (src/serve), the program `corral serve` runs: the one that
# links libmicrohttpd.  The page and examples/ are embedded by a
# generated C file.
SERVE_SRC := $(sort $(wildcard src/serve/*.c))
SERVE_ASSETS := $(sort $(wildcard src/serve/page/*)) $(sort $(wildcard examples/*.litmus))
SERVE_LIBS = -lmicrohttpd
# corral itself is linked statically: herd7-style scripts start it once
# per test, and the corpus run that way took 16-18% less time than with
# dynamic loading (docs/DESIGN.md, "Start-up"; ASan and valgrind builds
# set STATIC= ).
STATIC  ?= -static
UNIT_SRC := $(sort $(wildcard tests/unit/*.c))

LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
# (logs.c reads JSON logs with the server's reader)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/%.o) $(BUILD)/src/serve/json.o
SERVE_OBJ := $(SERVE_SRC:%.c=$(BUILD)/%.o) $(BUILD)/serve_assets.o $(BUILD)/src/cli/exe.o
SERVE_BIN := $(dir $(BIN))corral-serve
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
LIB      := $(BUILD)/libcorral.a

SHARED  ?= ../shared
# The suites corral passes today; the others join as their issues land.
CONFORM_SUITES ?= --suite article --suite x86 --suite ppc --suite linux --suite c11 --suite c11-partialsc --suite aarch64 --suite sc --suite riscv \
                  --suite cat-herding-cats --suite cat-aarch64-pick --suite gen-c --suite gen-x86 \
                  --suite gen-aarch64 --suite gen-arm --suite gen-ppc --suite gen-riscv \
                  --suite cat-bpf --suite cat-tutorial --suite cat-aarch64-down-one-leg \
                  --suite cat-aarch64-ifetch --suite cat-aarch64-mixed --suite cat-aarch64-ets2 --suite cat-aarch64-mte \
                  --suite cat-aarch64-vmsa
CONFORM  = $(SHARED)/tools/conform
# The GPU verdict corpus (../shared/gpu): the suites corral passes in full,
# under the corpus's (Dartagnan's) models and under ours.
GPU_SUITES ?= --suite ptx-v6.0 --suite ptx-v7.5 --suite vulkan-nochains
VERDICTS = $(SHARED)/tools/verdicts
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: all test unit regress conform kernel graphs gpu natives install-herd7 check-asan check-asan-quick check-tsan check-valgrind bench bench-lkmm fuzz clean test-models install

all: $(BIN) $(SERVE_BIN) $(BUILD)/corral.1

# The manual page, made from -help (one option table for both).
$(BUILD)/corral.1: $(BIN) docs/man.sh
	@mkdir -p $(dir $@)
	sh docs/man.sh ./$(BIN) > $@.tmp && mv $@.tmp $@

$(BIN): $(CLI_OBJ) $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) $(STATIC) -o $@ $(CLI_OBJ) $(LIB) $(LDLIBS)

$(SERVE_BIN): $(SERVE_OBJ) $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(SERVE_OBJ) $(LIB) $(LDLIBS) $(SERVE_LIBS)

$(BUILD)/embed: src/serve/gen/embed.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(LDFLAGS) -o $@ $<

$(BUILD)/serve_assets.c: $(BUILD)/embed $(SERVE_ASSETS)
	$(BUILD)/embed $(SERVE_ASSETS) > $@.tmp && mv $@.tmp $@

$(BUILD)/serve_assets.o: $(BUILD)/serve_assets.c
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) -o $@ $< $(LIB) $(LDLIBS)

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(SERVE_OBJ:.o=.d)

test: unit regress graphs conform kernel gpu natives

unit: $(UNIT_BIN) $(BIN)
	@set -e; for t in $(UNIT_BIN); do echo "== $$t"; $$t; done

regress: $(BIN)
	@tests/run-regress.sh ./$(BIN)
	@tests/bad-table.sh --check README.md
	@tests/layers.sh
	@tests/options-table.sh ./$(BIN) --check README.md

# The public corpus: run only when ../shared is there (CI has it).
conform: $(BIN)
	@if [ -x "$(CONFORM)" ]; then \
	  $(CONFORM) --corpus $(SHARED)/conformance --bin ./$(BIN) --jobs $(JOBS) \
	    $(CONFORM_SUITES) $(CONFORM_ARGS); \
	else echo "conform: $(SHARED) not present, skipped"; fi

# PTX and Vulkan tests: Dartagnan's verdicts, with its models and ours.
gpu: $(BIN)
	@if [ -x "$(VERDICTS)" ] && [ -d "$(SHARED)/gpu" ]; then \
	  $(VERDICTS) --corpus $(SHARED)/gpu --bin ./$(BIN) --jobs $(JOBS) --quiet $(GPU_SUITES) && \
	  $(VERDICTS) --corpus $(SHARED)/gpu --bin ./$(BIN) --jobs $(JOBS) --quiet --models models $(GPU_SUITES); \
	else echo "gpu: $(SHARED)/gpu not present, skipped"; fi

# The functions run natively (cat/analyse.c) against their cat
# definitions (-natives false) on the corpus suites that use them.
natives: $(BIN)
	@SHARED=$(SHARED) tests/natives.sh ./$(BIN)

# corral as the Linux kernel's tools/memory-model runs herd7: from a folder
# holding only the kernel's model files, every linux test; then the
# corpus's models on corral's library files (models/ standing for herd7's
# library: cross.cat, cos-opt.cat, fences.cat, ppo.cat, ...).
KERNEL_LIB_SUITES ?= --suite linux --suite c11-partialsc --suite sc --suite aarch64 \
                     --suite riscv --suite article --suite x86 --suite cat-aarch64-pick
kernel: $(BIN)
	@tests/kernel/cwd.sh ./$(BIN) $(SHARED)
	@tests/kernel/library.sh ./$(BIN) $(SHARED) --jobs $(JOBS) $(KERNEL_LIB_SUITES)
	@tests/kernel/library.sh ./$(BIN) $(SHARED) --jobs $(JOBS) --suite ppc \
	  --filter '/(MP|SB|IRIW|WRC|ISA2|LB|R|S|2\+2W)\+'

# corral's own models (models/) against herd7's outputs with its library
# models: one line per suite; then the graphs they draw against those the
# library models draw, on every corpus test.  Not part of `make test`.
MODEL_SUITES ?= --suite x86 --suite article --suite ppc --suite riscv \
                --suite linux --suite c11 --suite c11-partialsc --suite aarch64 --suite sc \
                --suite cat-aarch64-mte --suite cat-aarch64-mixed
test-models: $(BIN)
	@if [ -x "$(CONFORM)" ]; then \
	  $(CONFORM) --corpus $(SHARED)/conformance --bin ./$(BIN) --models models \
	    --jobs $(JOBS) --quiet $(MODEL_SUITES) $(MODELS_ARGS) && \
	  python3 tests/graphs/modelcmp.py --corpus $(SHARED)/conformance --bin ./$(BIN) \
	    --models models --jobs $(JOBS) $(MODEL_SUITES); \
	else echo "test-models: $(SHARED) not present, skipped"; fi

# corral and its model library; the binary finds the models in
# ../share/corral/models next to itself.
PREFIX  ?= /usr/local
install: $(BIN) $(SERVE_BIN) $(BUILD)/corral.1
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/corral/models \
	  $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/corral
	install -m 755 $(SERVE_BIN) $(DESTDIR)$(PREFIX)/bin/corral-serve
	install -m 644 $(wildcard models/*) $(DESTDIR)$(PREFIX)/share/corral/models
	install -m 644 $(BUILD)/corral.1 $(DESTDIR)$(PREFIX)/share/man/man1/corral.1

# Opt-in: herd7 as a link to corral (corral finds its models from its own
# location, whatever name it is run by), and its manual page.
install-herd7: install
	ln -sf corral $(DESTDIR)$(PREFIX)/bin/herd7
	ln -sf corral.1 $(DESTDIR)$(PREFIX)/share/man/man1/herd7.1

# Execution graphs compared as graphs by tests/graphs/dotcmp.py: ours
# (tests/graphs/local, our models), then, when ../shared is there,
# herd7's own (../shared/conformance/graphs) and those our models draw
# against those of herd7's models (one corpus test in 5; every test in
# make test-models).
graphs: $(BIN)
	@python3 tests/graphs/dotcmp.py --local tests/graphs/local --models models --bin ./$(BIN)
	@if [ -f "$(SHARED)/conformance/graphs/COMMANDS.tsv" ]; then \
	  python3 tests/graphs/dotcmp.py --corpus $(SHARED)/conformance --bin ./$(BIN) && \
	  python3 tests/graphs/modelcmp.py --corpus $(SHARED)/conformance --bin ./$(BIN) \
	    --models models --jobs $(JOBS) --sample 5 $(MODEL_SUITES); \
	else echo "graphs: $(SHARED) not present, skipped"; fi

ASAN_MAKE = $(MAKE) BUILD=build-asan BIN=build-asan/corral \
	  CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	  LDFLAGS="-fsanitize=address,undefined" STATIC=

check-asan:
	$(ASAN_MAKE) test

# the unit and regression tests alone under ASan+UBSan (minutes, not the
# whole suite): what to run before landing a change to the semantics
check-asan-quick:
	$(ASAN_MAKE) unit regress

# ThreadSanitizer on the unit and regression tests: campaigns at -j N,
# one test's search and state lines at -j 2 and 3 (a report stops the
# run; gcc's longjmp-clobber warning misfires at -O1 with it)
check-tsan:
	TSAN_OPTIONS="halt_on_error=1" $(MAKE) BUILD=build-tsan BIN=build-tsan/corral \
	  CFLAGS="-O1 -g -fsanitize=thread -Wno-clobbered" LDFLAGS="-fsanitize=thread" STATIC= unit regress

# memcheck on our regression tests and VALGRIND_SUITES of the corpus
# (a dynamic build: memcheck replaces malloc through the dynamic loader)
check-valgrind:
	@$(MAKE) --no-print-directory BUILD=build-vg BIN=build-vg/corral STATIC= build-vg/corral
	@tests/valgrind.sh ./build-vg/corral

# libFuzzer harnesses (clang), FUZZ_SECONDS each (default 60)
fuzz:
	@tests/fuzz/run-fuzz.sh

# corral serve in headless Chromium (playwright-core from npm) and a load
# test; needs chromium, node and npm (see .ci/run).
test-serve: $(BIN) $(SERVE_BIN)
	@tests/serve/run.sh ./$(BIN)

bench: corral
	@bench/run.sh ./corral

# the LKMM edge tests of make bench alone (issue 33)
bench-lkmm: corral
	@python3 bench/lkmm.py ./corral

clean:
	rm -rf build build-asan build-tsan build-fuzz build-vg corral corral-serve
