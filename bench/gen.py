#!/usr/bin/env python3
"""Generate the scaling litmus tests of corral's benchmarks.

  gen.py iriw N      PPC IRIW, each writer storing N increasing values
  gen.py wwc N       PPC WWC+lwsyncs chain over N threads
  gen.py cowr N      PPC: N threads each store once to x, one reader reads twice
  gen.py rcu PAT     C (LKMM) RCU chain: one thread per letter of PAT,
                     R = read-side critical section, G = grace period

The families follow the scalability experiments of the herd7 papers; the
code here is ours.
"""
import sys


def table(columns):
    """Lay out per-thread instruction lists as a litmus code table."""
    rows = max(len(c) for c in columns)
    head = " | ".join(f"P{i}" for i in range(len(columns))) + " ;"
    lines = [head]
    for r in range(rows):
        cells = [c[r] if r < len(c) else "" for c in columns]
        lines.append(" | ".join(cells) + " ;")
    return "\n".join(lines)


def iriw(n, fence="sync"):
    writer = lambda base: [x for k in range(n) for x in
                           ([f"stw r1,0({base})"] + (["addi r1,r1,1"] if k < n - 1 else []))]
    cols = [writer("r2"), writer("r4"),
            ["lwz r3,0(r2)", fence, "lwz r5,0(r4)"],
            ["lwz r3,0(r4)", fence, "lwz r5,0(r2)"]]
    init = "0:r1=1; 0:r2=x;\n1:r1=1; 1:r4=y;\n2:r2=x; 2:r4=y;\n3:r2=x; 3:r4=y;"
    return (f"PPC IRIW-{n}\n\"\"\n{{\n{init}\n}}\n{table(cols)}\n"
            "exists (2:r3=1 /\\ 2:r5=0 /\\ 3:r3=1 /\\ 3:r5=0)\n")


def wwc(n):
    locs = ["x"] + [f"v{i}" for i in range(1, n - 1)] + ["x"]
    init = ["0:r2=x;"] + [f"{i}:r2={locs[i-1]}; {i}:r4={locs[i]};" for i in range(1, n)]
    cols = [["li r1,2", "stw r1,0(r2)"]] + \
           [["lwz r1,0(r2)", "lwsync", "li r3,1", "stw r3,0(r4)"] for _ in range(1, n)]
    cond = " /\\ ".join(["x=2"] + [f"{i}:r1={2 if i == 1 else 1}" for i in range(1, n)])
    return (f"PPC WWC-{n}\n\"\"\n{{\n" + "\n".join(init) + f"\n}}\n{table(cols)}\n"
            f"exists ({cond})\n")


def cowr(n):
    init = [f"{i}:r1={i+1}; {i}:r2=x;" for i in range(n)] + [f"{n}:r2=x;"]
    cols = [["stw r1,0(r2)"] for _ in range(n)] + [["lwz r3,0(r2)", "lwz r4,0(r2)"]]
    return (f"PPC CoWR-{n}\n\"\"\n{{\n" + "\n".join(init) + f"\n}}\n{table(cols)}\n"
            f"exists (x=1 /\\ {n}:r3={n} /\\ {n}:r4=1)\n")


def rcu(pat):
    n = len(pat)
    out = [f"C RCU-{pat}", "", "{", "}", ""]
    for i, k in enumerate(pat.upper()):
        a, b = f"x{i}", f"x{(i + 1) % n}"
        out.append(f"P{i}(intptr_t *{a}, intptr_t *{b})")
        out.append("{")
        if k == "R":
            out += ["\trcu_read_lock();", f"\tintptr_t r1 = READ_ONCE(*{a});",
                    f"\tWRITE_ONCE(*{b}, 1);", "\trcu_read_unlock();"]
        else:
            out += [f"\tintptr_t r1 = READ_ONCE(*{a});", "\tsynchronize_rcu();",
                    f"\tWRITE_ONCE(*{b}, 1);"]
        out += ["}", ""]
    out.append("exists (" + " /\\ ".join(f"{i}:r1=1" for i in range(n)) + ")")
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    kind, arg = sys.argv[1], sys.argv[2]
    gens = {"iriw": lambda: iriw(int(arg)), "wwc": lambda: wwc(int(arg)),
            "cowr": lambda: cowr(int(arg)), "rcu": lambda: rcu(arg)}
    if kind not in gens:
        sys.exit(__doc__)
    sys.stdout.write(gens[kind]())


if __name__ == "__main__":
    main()
