#!/usr/bin/env python3
"""Write the functions a sample of the corpus runs, most widely used first.

Usage: bench/link_order.py BIN CORPUS OUT [EVERY]

Runs BIN under callgrind on every EVERY-th test of each suite of the
corpus and lists each function that ran, weighted by how many corpus
tests its runs stand for: functions every test runs come first, then
those of the big suites.  lld lays the program's text out in that order
(the Makefile's --symbol-ordering-file), so that a short run touches a
few contiguous pages of code instead of pages spread over all of it.
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
                                binary, "-j", "1", "-set-libdir", os.path.join(corpus, "models")]
                               + opts.split() + [os.path.join(corpus, test)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                for f in functions(cg):
                    weight[f] += len(tests) / len(sample)
    with open(out, "w") as fh:
        for f, _ in sorted(weight.items(), key=lambda kv: (-kv[1], kv[0])):
            fh.write(f + "\n")

if __name__ == "__main__":
    main()
