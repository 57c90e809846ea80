#!/usr/bin/env python3
"""Check that corral's own models draw the graphs the reference models draw.

    modelcmp.py --corpus DIR --bin CORRAL [--models MODELS] [--sample K]
                [--filter RE] [--jobs N] [--graph-opts "OPTS"]

For every test of DIR/MANIFEST.tsv (every K-th with --sample), runs

    CORRAL -set-libdir LIB OPTIONS GRAPH-OPTS -o TMP TEST

once with LIB = DIR/models (herd7's model files) and once with LIB =
MODELS (default: the models/ folder next to tests/), OPTIONS being the
test's own from the MANIFEST (-model ppc.cat, -conf linux-kernel.cfg ...),
and compares the two .dot files as graphs (dotcmp.compare: the same
executions, nodes and labelled edges, layout aside).  corral's graphs with
the reference models are herd7's (make graphs checks that on herd7's own
files), so a difference is a relation our models show, or fail to show,
unlike herd7's: a `show` missing from models/ or a picture key missing
from a .cfg.  Results are unaffected by `show`; make test-models checks
those.  Ends with "N same, M different, K errors".
Python 3, standard library only.
"""
import argparse
import collections
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

import dotcmp

HERE = os.path.dirname(os.path.abspath(__file__))


def draw(binary, lib, opts, test, out):
    """The .dot text corral writes for test with the library lib, or an
    error message starting with 'error: '."""
    os.makedirs(out)
    p = subprocess.run([binary, '-set-libdir', lib] + opts + ['-o', out, test], cwd=lib,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=600)
    dots = [f for f in os.listdir(out) if f.endswith('.dot')]
    if p.returncode != 0 or len(dots) != 1:
        return 'error: exit %d, %d dot files: %s' % (p.returncode, len(dots),
                                                     p.stderr.strip()[:200])
    with open(os.path.join(out, dots[0])) as f:
        return f.read()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--corpus', required=True)
    ap.add_argument('--bin', required=True)
    ap.add_argument('--models', default=os.path.join(HERE, '..', '..', 'models'))
    ap.add_argument('--sample', type=int, default=1, help='every K-th test of each suite')
    ap.add_argument('--filter', help='only tests whose path matches RE')
    ap.add_argument('--suite', action='append', default=[],
                    help='only this suite (repeatable; default: every suite)')
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 1)
    ap.add_argument('--graph-opts', default='-graph cluster -show all -nshow 4',
                    help='picture options given to both runs')
    args = ap.parse_args()
    corpus = os.path.abspath(args.corpus)
    binary = os.path.abspath(args.bin)
    ours = os.path.abspath(args.models)
    theirs = os.path.join(corpus, 'models')
    with open(os.path.join(corpus, 'MANIFEST.tsv')) as f:
        rows = [l.rstrip('\n').split('\t') for l in f][1:]
    by_suite = collections.defaultdict(list)
    for r in rows:
        if len(r) >= 3 and (not args.filter or re.search(args.filter, r[1])) \
                and (not args.suite or r[0] in args.suite):
            by_suite[r[0]].append(r)
    rows = [r for suite in by_suite.values() for r in suite[::max(args.sample, 1)]]
    gopts = args.graph_opts.split()

    def one(row):
        suite, test, opts = row[0], os.path.join(corpus, row[1]), row[2].split() + gopts
        with tempfile.TemporaryDirectory(prefix='modelcmp.') as tmp:
            want = draw(binary, theirs, opts, test, os.path.join(tmp, 'ref'))
            got = draw(binary, ours, opts, test, os.path.join(tmp, 'ours'))
        if want.startswith('error: ') or got.startswith('error: '):
            return row, 'error', 'reference models: %s\n  ours: %s' % (want[:200], got[:200])
        diff = dotcmp.compare(want, got)
        return row, 'same' if diff is None else 'different', diff

    counts = collections.Counter()
    with concurrent.futures.ThreadPoolExecutor(max(args.jobs, 1)) as pool:
        for row, status, why in pool.map(one, rows):
            counts[status] += 1
            if status != 'same':
                print('%s: %s (%s)' % (status, row[1], row[2]))
                print('  ' + why.replace('\n', '\n  '))
    print('model-graphs: %d same, %d different, %d errors' % (
        counts['same'], counts['different'], counts['error']))
    return 0 if counts['same'] == len(rows) else 1


if __name__ == '__main__':
    sys.exit(main())
