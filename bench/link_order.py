#!/usr/bin/env python3
"""Write the functions a sample of the corpus runs, most widely used first.

Usage: bench/link_order.py BIN CORPUS OUT [EVERY]

Runs BIN under callgrind on every EVERY-th test of each suite of the
corpus and lists each function that ran, weighted by how many corpus
tests its runs stand for: functions every test runs come first, then
those of the big suites.  lld lays the program's text out in that order
(the Makefile's --symbol-ordering-file), so that a short run touches a
few contiguous pages of code instead of pages spread over all of it.

callgrind sees the program on valgrind's own CPU, so three kinds of code
it does not name are added from BIN's symbol table: the C library's
string and memory routines in the variants other CPUs select at startup
(valgrind's CPU has no AVX-512, ours and CI's may), the resolvers that
select them (every static program runs them all before main), and the
startup code callgrind counts before its first named function.
"""
import collections, os, re, subprocess, sys, tempfile

def functions(cg_out):
    """Names of the functions that ran, from a callgrind output file."""
    names, ran = {}, set()
    for line in open(cg_out, errors="replace"):
        m = re.match(r"(c?fn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
        if not m:
            continue
        kind, ident, name = m.groups()
        if name:
            # "f'2" is callgrind's name for a recursive call of f
            names[ident] = re.sub(r"'\d+$", "", name.strip())
        if kind == "fn" or kind == "cfn":
            ran.add(ident)
    return {names[i] for i in ran if i in names and re.fullmatch(r"[\w.$@]+", names[i])
            and not names[i].startswith("0x")}

# Run before main by every static program; callgrind names none of them.
STARTUP = ["_start", "_dl_relocate_static_pie", "__libc_start_main", "__libc_start_main_impl",
           "__libc_start_call_main", "apply_irel", "frame_dummy",
           "register_tm_clones", "deregister_tm_clones", "__do_global_dtors_aux", "_init", "_fini",
           # the vDSO's symbols looked up (valgrind gives its programs no vDSO)
           "_dl_new_object", "_dl_add_to_namespace_list", "_dl_setup_hash", "_dl_lookup_symbol_x",
           "do_lookup_x", "check_match", "strcmp", "_dl_call_libc_early_init",
           # calls the heap's set-up makes only on glibc's own allocator (src/cli/heap.c)
           "madvise", "__getrlimit", "getrlimit"]
# The variants of a string routine: __memmove_avx_unaligned_erms is selected
# on an AVX2 machine, __memmove_avx512_unaligned_erms on an AVX-512 one,
# __strlen_avx2 / __strlen_evex likewise.
VARIANT = re.compile(r"__(\w+?)_(sse2|ssse3|sse4_1|sse4_2|avx|avx2|evex|avx512)(_\w*)?$")
SELECTED = ("avx", "avx2", "evex", "avx512")

def symbols(binary):
    """Names of BIN's functions, and of its indirect functions (whose
    address is their resolver's)."""
    out = subprocess.run(["nm", binary], capture_output=True, text=True).stdout
    rows = [w for w in (l.split() for l in out.splitlines()) if len(w) == 3]
    return ({w[2] for w in rows if w[1] in "tTiWw"}, sorted({w[2] for w in rows if w[1] == "i"}))

def with_unnamed(order, syms, ifuncs):
    """order with the startup code and every resolver first and, after each
    string routine, its variants other CPUs select."""
    out, seen = [], set()
    def add(name):
        if name not in seen:
            seen.add(name)
            out.append(name)
    for n in STARTUP:
        if n in syms:
            add(n)
    for n in ifuncs + sorted(n for n in syms if n.endswith("_ifunc")):
        add(n)
    for n in order:
        add(n)
        m = VARIANT.match(n)
        if m:
            base, _, rest = m.groups()
            for v in SELECTED:
                sib = f"__{base}_{v}{rest or ''}"
                if sib in syms:
                    add(sib)
    return out

def main():
    binary, corpus, out = sys.argv[1:4]
    every = int(sys.argv[4]) if len(sys.argv) > 4 else 50
    rows = [l.rstrip("\n").split("\t") for l in open(os.path.join(corpus, "MANIFEST.tsv"))][1:]
    by_suite = collections.defaultdict(list)
    for r in rows:
        by_suite[r[0]].append(r)
    weight = collections.Counter()
    with tempfile.TemporaryDirectory() as tmp:
        cg = os.path.join(tmp, "cg.out")
        for suite, tests in sorted(by_suite.items()):
            sample = tests[::every]
            for _, test, opts, *_ in sample:
                subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + cg,
                                binary, "-set-libdir", os.path.join(corpus, "models")]
                               + opts.split() + [os.path.join(corpus, test)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                for f in functions(cg):
                    weight[f] += len(tests) / len(sample)
    order = [f for f, _ in sorted(weight.items(), key=lambda kv: (-kv[1], kv[0]))]
    with open(out, "w") as fh:
        for f in with_unnamed(order, *symbols(binary)):
            fh.write(f + "\n")

if __name__ == "__main__":
    main()
