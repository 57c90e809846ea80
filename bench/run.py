#!/usr/bin/env python3
"""corral's benchmarks: `make bench` runs this.

For each test it prints the median wall time of 5 runs, the number of
candidates given to the model (-candidates true), the executions the model
accepted (Positive + Negative) and the time per execution.  herd7's times on
the same kind of machine, where known, are shown for comparison (from the
speed issue and the corpus MANIFEST).

  bench/run.py ./corral [--quick]
"""
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARED = os.path.join(ROOT, "..", "shared")
MODELS = os.path.join(SHARED, "conformance", "models")

# herd7 7.58, one core of this machine class (seconds)
HERD = {"IRIW-2": 0.04, "IRIW-3": 0.30, "IRIW-4": 6.4,
        "WWC-8": 0.61, "WWC-10": 3.3, "WWC-12": 17.0,
        "CoWR-5": 0.26, "CoWR-6": 1.7, "CoWR-7": 19.3}


def run(binary, args, path):
    t0 = time.perf_counter()
    p = subprocess.run([binary] + args + ["-candidates", "true", path],
                       capture_output=True, text=True, timeout=600)
    dt = time.perf_counter() - t0
    if p.returncode != 0:
        return dt, None, None, p.stderr.strip().splitlines()[:1]
    cand = re.search(r"^Candidates \S+ (\d+)", p.stdout, re.M)
    pn = re.search(r"^Positive: (\d+) Negative: (\d+)", p.stdout, re.M)
    execs = int(pn.group(1)) + int(pn.group(2)) if pn else None
    return dt, int(cand.group(1)) if cand else None, execs, None


def bench(binary, name, args, path, reps=5, out=sys.stdout):
    times = []
    cand = execs = err = None
    for _ in range(reps):
        dt, cand, execs, err = run(binary, args, path)
        if err:
            break
        times.append(dt)
        if dt > 5:  # long runs: fewer repetitions
            break
    if err:
        print(f"{name:28} error: {err[0] if err else '?'}", file=out)
        return None
    med = statistics.median(times)
    per = f"{1e6 * med / execs:10.1f}" if execs else "         -"
    herd = f"{HERD[name]:8.2f}" if name in HERD else "       -"
    print(f"{name:28} {1000 * med:10.1f} {cand if cand is not None else '-':>10} "
          f"{execs if execs is not None else '-':>10} {per} {herd}", file=out)
    return med


def header(title):
    print(f"\n{title}")
    print(f"{'test':28} {'median ms':>10} {'candidates':>10} {'executions':>10} "
          f"{'us/exec':>10} {'herd7 s':>8}")


def main():
    binary = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "corral"))
    quick = "--quick" in sys.argv
    have_shared = os.path.isdir(MODELS)
    tmp = tempfile.mkdtemp(prefix="corral-bench-")

    header("Our examples (corral's own models)")
    for f in sorted(os.listdir(os.path.join(ROOT, "examples"))):
        if f.endswith(".litmus"):
            bench(binary, f[:-7], [], os.path.join(ROOT, "examples", f))

    if not have_shared:
        print("\n../shared is not present: the PPC scaling tests need its ppc.cat; skipped")
        return
    lib = ["-set-libdir", MODELS]

    header("Conformance suite 'article'")
    art = os.path.join(SHARED, "conformance", "suites", "article")
    manifest = {}
    for line in open(os.path.join(SHARED, "conformance", "MANIFEST.tsv")):
        cols = line.rstrip("\n").split("\t")
        if len(cols) >= 3 and cols[0] == "article":
            manifest[os.path.basename(cols[1])] = cols[2].split()
    for f in sorted(manifest):
        bench(binary, f[:-7], lib + manifest[f], os.path.join(art, f))

    families = [("iriw", range(1, 5 if quick else 6)), ("wwc", range(3, 9 if quick else 13)),
                ("cowr", range(3, 6 if quick else 8))]
    for fam, ns in families:
        header(f"PPC {fam.upper()}-N with ppc.cat")
        for n in ns:
            path = os.path.join(tmp, f"{fam}{n}.litmus")
            with open(path, "w") as fh:
                subprocess.run([sys.executable, os.path.join(HERE, "gen.py"), fam, str(n)],
                               stdout=fh, check=True)
            name = {"iriw": "IRIW", "wwc": "WWC", "cowr": "CoWR"}[fam] + f"-{n}"
            med = bench(binary, name, lib + ["-model", "ppc.cat"], path)
            if med is None or med > 60:
                print(f"{'':28} (larger sizes skipped)")
                break


if __name__ == "__main__":
    main()
