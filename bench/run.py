#!/usr/bin/env python3
"""corral's benchmarks: `make bench` runs this.

For each generated scaling test (bench/gen.py) it prints the median wall
time of 5 to 21 runs of corral alone with -j 1 and with -j 2, alternating, the
candidates given to the model (rf and final-write choices), the coherence
candidates visited (leaves of the with-search) and probes, the executions
the model accepted (Positive + Negative), the time per execution, and the
peak memory.  herd7 7.58's times on this machine class, where known, are
shown for comparison.  Finally, when ../shared is present, the total time
on the public corpus, run once per test (through conform, and spawned
directly next to a do-nothing program) and as campaigns (one corral
process per option set).  The LKMM edge tests of ../shared/bench/lkmm
get a row each (bench/lkmm.py).

  bench/run.py ./corral [--quick]
"""
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

import lkmm

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARED = os.path.join(ROOT, "..", "shared")
MODELS = os.path.join(SHARED, "conformance", "models")

# herd7 7.58, one core of this machine class (seconds), from the speed issue
HERD = {"IRIW-2": 0.04, "IRIW-3": 0.30, "IRIW-4": 6.4,
        "WWC-8": 0.61, "WWC-10": 3.3, "WWC-12": 17.0,
        "CoWR-5": 0.26, "CoWR-6": 1.7, "CoWR-7": 19.3,
        "RCU-10": 4.7, "RCU-12": 26.0, "RCU-14": 151.0}

BUDGET = 30.0  # seconds: larger sizes of a family are skipped past this


def run_once(binary, args, path, jobs, wrap):
    """One run of corral. With wrap, under GNU time for the peak memory and
    CPU of corral itself (a forked driver's rusage would count the driver's
    pages too); without, for the wall time of corral alone, as GNU time's own
    exec costs a few ms, which matters for a 20 ms test's -j2 ratio."""
    env = dict(os.environ, CORRAL_STATS="1")
    out_f, err_f = tempfile.TemporaryFile("w+"), tempfile.TemporaryFile("w+")
    argv = [binary, "-j", str(jobs)] + args + ["-candidates", "true", path]
    if wrap and os.access("/usr/bin/time", os.X_OK):
        argv = ["/usr/bin/time", "-f", "@@maxrss %M cpu %U %S faults %R"] + argv
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=out_f, stderr=err_f, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    dt = time.perf_counter() - t0
    out_f.seek(0)
    err_f.seek(0)
    stdout, stderr = out_f.read(), err_f.read()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        lines = stderr.strip().splitlines()
        return None, (lines[0] if lines else f"exit {code}")
    m = re.search(r"@@maxrss (\d+)", stderr)
    info = {"time": dt, "rss_mb": int(m.group(1)) / 1024.0 if m else usage.ru_maxrss / 1024.0}
    m = re.search(r"^Candidates \S+ (\d+)", stdout, re.M)
    info["cand"] = int(m.group(1)) if m else None
    m = re.search(r"^Positive: (\d+) Negative: (\d+)", stdout, re.M)
    info["execs"] = int(m.group(1)) + int(m.group(2)) if m else None
    m = re.search(r"forks (\d+) probes (\d+)", stderr)
    info["forks"], info["probes"] = (int(m.group(1)), int(m.group(2))) if m else (None, None)
    # CPU seconds (user+sys) of the whole process, and per worker busy time
    m = re.search(r"@@maxrss \d+ cpu ([\d.]+) ([\d.]+)", stderr)
    info["cpu"] = float(m.group(1)) + float(m.group(2)) if m else None
    m = re.search(r"@@maxrss .* faults (\d+)", stderr)
    info["faults"] = int(m.group(1)) if m else None
    m = re.search(r"stats: workers \d+ busy ([\d. ]+) s", stderr)
    info["busy"] = [float(x) for x in m.group(1).split()] if m else None
    return info, None


def measure(binary, args, path):
    """-j1 and -j2: one wrapped run each for memory and CPU, then timed runs
    alternating -j1 and -j2 so that a noisy spell of the machine falls on
    both; the median of as many as fit in about a second, 5 to 21 each (a
    20 ms test's median of 5 moved by 10% from one make bench to the
    next), or the wrapped run itself when a run takes over 3 s, where GNU
    time's ms are noise."""
    res = {}
    for jobs in (1, 2):
        info, err = run_once(binary, args, path, jobs, True)
        if err:
            return None, None, err
        info["times"] = []
        res[jobs] = info
    longest = max(res[1]["time"], res[2]["time"])
    reps = 0 if longest > 3 else max(5, min(21, int(0.5 / max(longest, 1e-3))))
    for _ in range(reps):
        for jobs in (1, 2):
            info, err = run_once(binary, args, path, jobs, False)
            if err:
                return None, None, err
            res[jobs]["times"].append(info["time"])
    for info in res.values():
        info["times"] = info["times"] or [info["time"]]
        info["median"] = statistics.median(info["times"])
        info["reps"] = len(info["times"])
    return res[1], res[2], None


def fmt(x, width, spec="d"):
    return f"{x:{width}{spec}}" if x is not None else f"{'-':>{width}}"


def header(title):
    print(f"\n{title}")
    print(f"{'test':14} {'-j1 ms':>10} {'n':>2} {'-j2 ms':>10} {'n':>2} {'x':>5} {'cand':>8} "
          f"{'co seen':>9} {'probes':>9} {'execs':>9} {'us/exec':>8} {'MB':>6} {'faults':>6} {'herd7 s':>8} "
          f"{'cpu1 s':>8} {'cpu2 s':>8} {'bal':>5} {'exp x':>5}")


def expected(one, two):
    """2-core speedup the CPU figures predict: T1 / (serial + slowest worker),
    serial = the -j 2 process's CPU time not spent in any worker's items."""
    if not one.get("cpu") or not two.get("cpu") or not two.get("busy"):
        return None, None
    busy = two["busy"]
    serial = max(two["cpu"] - sum(busy), 0.0)
    bal = max(busy) * len(busy) / sum(busy) if sum(busy) > 0 else None
    return bal, one["cpu"] / max(serial + max(busy), 1e-9)


def bench(binary, name, args, path):
    one, two, err = measure(binary, args, path)
    if err:
        print(f"{name:14} error: {err}")
        return None
    t1, t2 = one["median"], two["median"]
    per = 1e6 * t1 / one["execs"] if one["execs"] else None
    speed = t1 / t2 if t2 > 0 else None
    herd = HERD.get(name)
    bal, exp = expected(one, two)
    print(f"{name:14} {1000 * t1:10.1f} {one['reps']:2d} {1000 * t2:10.1f} {two['reps']:2d} "
          f"{fmt(speed, 5, '.2f')} {fmt(one['cand'], 8)} {fmt(one['forks'], 9)} "
          f"{fmt(one['probes'], 9)} {fmt(one['execs'], 9)} {fmt(per, 8, '.2f')} "
          f"{one['rss_mb']:6.1f} {fmt(one['faults'], 6)} {fmt(herd, 8, '.2f')} {fmt(one.get('cpu'), 8, '.2f')} "
          f"{fmt(two.get('cpu'), 8, '.2f')} {fmt(bal, 5, '.2f')} {fmt(exp, 5, '.2f')}")
    return t1


def generate(tmp, fam, arg):
    path = os.path.join(tmp, f"{fam}-{arg}.litmus")
    with open(path, "w") as fh:
        subprocess.run([sys.executable, os.path.join(HERE, "gen.py"), fam, str(arg)],
                       stdout=fh, check=True)
    return path


def rcu_pattern(n):
    """As many G as R, R first: RRGG..., one thread per letter."""
    r = n // 2
    return "R" * r + "G" * (n - r)


def corpus_total(binary):
    conform = os.path.join(SHARED, "tools", "conform")
    p = subprocess.run([sys.executable, conform, "--corpus", os.path.join(SHARED, "conformance"),
                        "--bin", binary, "--jobs", "1", "--quiet"],
                       capture_output=True, text=True)
    for line in p.stdout.splitlines():
        if line.startswith("total"):
            cols = line.split()
            print(f"\nPublic corpus (conform --jobs 1): {cols[1]} tests, {cols[2]} passed, "
                  f"corral {cols[5]} s vs herd7 {cols[6]} s: "
                  f"{float(cols[6]) / max(float(cols[5]), 1e-9):.1f}x faster")
            return
    print("\nPublic corpus: conform printed no total")


def manifest():
    """The corpus MANIFEST's rows: (suite, test path, options, herd7 ms)."""
    corpus = os.path.join(SHARED, "conformance")
    rows = []
    with open(os.path.join(corpus, "MANIFEST.tsv")) as fh:
        next(fh)
        for line in fh:
            cols = line.rstrip("\n").split("\t")
            if len(cols) >= 5:
                rows.append((cols[0], os.path.join(corpus, cols[1]), cols[2], int(cols[3])))
    return rows


def spawn_corpus(binaries, rows):
    """Each test as its own process of each binary in turn (so that a
    change in the machine's speed hits them alike), timed from posix_spawn
    to waitpid: the MANIFEST's herd7_ms is likewise process start to exit.
    No pipes, no output parsing: what is timed is the process alone."""
    null = os.open(os.devnull, os.O_WRONLY)
    acts = [(os.POSIX_SPAWN_DUP2, null, 1), (os.POSIX_SPAWN_DUP2, null, 2)]
    totals = [0.0] * len(binaries)
    for opts, test in rows:
        for i, binary in enumerate(binaries):
            argv = [binary, "-set-libdir", MODELS] + opts.split() + [test]
            t0 = time.perf_counter()
            pid = os.posix_spawn(binary, argv, os.environ, file_actions=acts)
            os.waitpid(pid, 0)
            totals[i] += time.perf_counter() - t0
    os.close(null)
    return totals


def corpus_per_process(binary):
    """The corpus one process per test, and a static do-nothing program
    run the same way: its total is what process creation and exit alone
    cost on this machine, the bound on any per-process ratio."""
    entries = manifest()
    rows = [(opts, test) for _, test, opts, _ in entries]
    herd = sum(ms for *_, ms in entries)
    with tempfile.TemporaryDirectory() as tmp:
        src, nop = os.path.join(tmp, "nop.c"), os.path.join(tmp, "nop")
        with open(src, "w") as fh:
            fh.write("int main(void) { return 0; }\n")
        built = subprocess.run([os.environ.get("CC", "cc"), "-O2", "-static", "-o", nop, src],
                               capture_output=True).returncode == 0
        totals = spawn_corpus([os.path.abspath(binary)] + ([nop] if built else []), rows)
    t = totals[0]
    line = (f"Public corpus, one process per test (posix_spawn to waitpid): corral {t:.2f} s "
            f"vs herd7 {herd / 1000:.2f} s: {herd / 1000 / max(t, 1e-9):.1f}x faster")
    if built:
        line += (f"; a static do-nothing program, run alternately with it: {totals[1]:.2f} s "
                 f"({herd / 1000 / max(totals[1], 1e-9):.1f}x, the bound)")
    print(line)


def test_name(path):
    with open(path, errors="replace") as fh:
        for line in fh:
            words = line.split()
            if words:
                return words[1] if len(words) > 1 else words[0]
    return path


def strip_time(text):
    return "".join(l for l in text.splitlines(True) if not l.startswith("Time "))


def corpus_campaign(binary):
    """The corpus as a campaign: one corral process per set of options (as
    a kernel hacker runs a family of tests), -j 1, each list's output
    compared with the concatenation of the tests' .expected files."""
    groups = {}
    for _, test, opts, ms in manifest():
        # a name seen twice in one list is skipped, as herd7 does:
        # such a test goes to the next list of the same options
        name, k = test_name(test), 0
        while (opts, k) in groups and name in groups[(opts, k)][1]:
            k += 1
        g = groups.setdefault((opts, k), ([], set(), [0]))
        g[0].append(test)
        g[1].add(name)
        g[2][0] += ms
    total, herd, ntests, same = 0.0, 0, 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, ((opts, _), (paths, _, herd_ms)) in enumerate(groups.items()):
            lst = os.path.join(tmp, f"list{i}")
            with open(lst, "w") as fh:
                fh.write("".join(p + "\n" for p in paths))
            expected = ""
            for p in paths:
                with open(p[:-len(".litmus")] + ".expected", errors="replace") as fh:
                    expected += strip_time(fh.read()).rstrip("\n") + "\n\n"
            t0 = time.perf_counter()
            p = subprocess.run([os.path.abspath(binary), "-j", "1", "-set-libdir", MODELS] + opts.split() +
                               ["@" + lst], capture_output=True, text=True, cwd=MODELS)
            total += time.perf_counter() - t0
            herd += herd_ms[0]
            ntests += len(paths)
            if p.returncode == 0 and strip_time(p.stdout) == expected:
                same += len(paths)
    print(f"Public corpus as {len(groups)} campaigns (corral -j 1 OPTIONS @list, one per option "
          f"set): {ntests} tests, output identical for {same}, corral {total:.2f} s vs herd7 "
          f"{herd / 1000:.2f} s: {herd / 1000 / max(total, 1e-9):.1f}x faster")


def campaigns(binary, reps=5):
    """Whole suites as campaigns, -j 1 against -j 2 (issue 9): the runs
    alternate, so that a change in the machine's load hits both."""
    print("\nCampaigns: a suite's tests in one list, corral -j N OPTIONS @list "
          f"(median of {reps} alternating runs)")
    print(f"{'suite':14} {'tests':>6} {'-j1 s':>8} {'-j2 s':>8} {'x':>5}  all -j1 / -j2 runs")
    with tempfile.TemporaryDirectory() as tmp:
        for suite, opts in (("ppc", "-model ppc.cat"), ("riscv", "-model riscv.cat")):
            paths = [test for s, test, o, _ in manifest() if s == suite and o == opts]
            lst = os.path.join(tmp, suite + ".list")
            with open(lst, "w") as fh:
                fh.write("".join(p + "\n" for p in paths))
            times = {1: [], 2: []}
            for _ in range(reps):
                for j in (1, 2):
                    t0 = time.perf_counter()
                    subprocess.run([binary, "-j", str(j), "-set-libdir", MODELS] + opts.split() +
                                   ["@" + lst], stdout=subprocess.DEVNULL, cwd=MODELS)
                    times[j].append(time.perf_counter() - t0)
            t1, t2 = statistics.median(times[1]), statistics.median(times[2])
            runs = " ".join(f"{a:.2f}/{b:.2f}" for a, b in zip(times[1], times[2]))
            print(f"{suite:14} {len(paths):6d} {t1:8.2f} {t2:8.2f} {t1 / t2:5.2f}  {runs}")


def gpu_slowest(binary, count=10, limit=20.0):
    """The GPU verdict corpus (../shared/gpu): every test run once under
    its corpus model, then the `count` slowest benchmarked; tests over
    `limit` seconds are listed as such, not benchmarked."""
    corpus = os.path.join(SHARED, "gpu")
    lib = os.path.join(corpus, "models")
    timed, over = [], []
    with open(os.path.join(corpus, "MANIFEST.tsv")) as fh:
        rows = [line.rstrip("\n").split("\t") for line in fh][1:]
    for row in rows:
        suite, test, model = row[0], row[1], row[2]
        args = ["-set-libdir", lib, "-model", model]
        t0 = time.perf_counter()
        try:
            subprocess.run([binary] + args + [os.path.join(corpus, test)],
                           capture_output=True, timeout=limit)
        except subprocess.TimeoutExpired:
            over.append(f"{suite}/{os.path.basename(test)}")
            continue
        timed.append((time.perf_counter() - t0, suite, test, args))
    timed.sort(reverse=True)
    header(f"GPU: the {count} slowest of {len(rows)} tests (../shared/gpu, corpus models)")
    for _, suite, test, args in timed[:count]:
        bench(binary, test_name(os.path.join(corpus, test))[:14], args, os.path.join(corpus, test))
    for name in over:
        print(f"{'':14} over {limit:g} s: {name}")


def legend():
    print("""
Columns: -j1/-j2 ms = median wall time of n runs of corral alone, -j1 and
-j2 alternating (5 to 21, as many as fit in about a second; 1, under GNU
time, when a run takes over 3 s);
x = -j1/-j2 wall; cand = candidates given to the model; co seen = coherence
candidates visited; execs = Positive+Negative; us/exec = -j1 time per
execution; MB = peak RSS at -j1; faults = its page faults (about 10 us
each on this VM: see src/cli/heap.c); cpu1/cpu2 = user+sys CPU seconds at
-j1/-j2 (equal = no extra work); bal = max/mean worker busy CPU at -j2;
exp x = 2-core speedup the CPU figures predict, cpu1 / (serial + slowest
worker), for a loaded machine where wall times mean little.""")


def main():
    binary = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "corral"))
    quick = "--quick" in sys.argv
    tmp = tempfile.mkdtemp(prefix="corral-bench-")
    legend()

    header("Our examples (corral's own models)")
    for f in sorted(os.listdir(os.path.join(ROOT, "examples"))):
        if f.endswith(".litmus"):
            opts = os.path.join(ROOT, "examples", f[:-7] + ".opts")
            args = open(opts).read().split() if os.path.exists(opts) else []
            bench(binary, f[:-7], args, os.path.join(ROOT, "examples", f))

    if not os.path.isdir(MODELS):
        print("\n../shared is not present: the scaling tests need its ppc.cat; skipped")
        return
    lib = ["-set-libdir", MODELS]

    families = [("iriw", "IRIW", range(1, 6 if quick else 8)),
                ("wwc", "WWC", range(3, 13 if quick else 19)),
                ("cowr", "CoWR", range(3, 7 if quick else 10))]
    for fam, label, ns in families:
        header(f"PPC {label}-N, ppc.cat")
        for n in ns:
            t = bench(binary, f"{label}-{n}", lib + ["-model", "ppc.cat"], generate(tmp, fam, n))
            if t is None or t > BUDGET:
                print(f"{'':14} (larger sizes skipped)")
                break

    header("LKMM RCU chains, -conf linux-kernel.cfg (pattern R^(n/2) G^(n-n/2))")
    # every size up to 19 threads is run: the 19-thread chain is a target
    for n in range(8, 13 if quick else 20):
        pat = rcu_pattern(n)
        t = bench(binary, f"RCU-{n}", lib + ["-conf", "linux-kernel.cfg"], generate(tmp, "rcu", pat))
        if t is None:
            break

    lkmm.main_rows(binary, 10.0 if quick else 30.0)

    if os.path.isdir(os.path.join(SHARED, "gpu")):
        gpu_slowest(binary, limit=5.0 if quick else 20.0)

    if not quick:
        campaigns(binary)
        corpus_total(binary)
        corpus_per_process(binary)
        corpus_campaign(binary)


if __name__ == "__main__":
    main()
