#!/usr/bin/env python3
"""Compare corral's execution graphs with herd7's, as graphs.

    dotcmp.py --corpus DIR --bin CORRAL [--filter RE] [--keep DIR]
    dotcmp.py --local DIR --models MODELS --bin CORRAL
    dotcmp.py A.dot B.dot          (compare two files)

For every row of DIR/graphs/COMMANDS.tsv (name, graph options, model
options, test), runs

    CORRAL -set-libdir DIR/models MODEL-OPTIONS GRAPH-OPTIONS -o TMP DIR/TEST

and compares TMP's one .dot file with DIR/graphs/NAME.dot by the rules of
DIR/graphs/README.md: the same executions (one digraph each, in any
order), each with the same nodes (their label text) and the same labelled
edges, ends named by their labels; layout aside (positions, colours,
fonts, line order).  An edge written backwards with dir=back is the edge
the other way; taillabel/headlabel count as the label, blanks around a
label are layout.  Each written file must also render with graphviz's
`dot -Tsvg` without a warning (when graphviz is installed).  A row whose test corral refuses with "... tests are not
supported" is reported as skipped, with that reason; it runs as soon as
the architecture is supported; so is a row whose graphs differ while herd
drew NOP events and corral did not (corral makes no NOP events yet), until
it does.  Ends with "N passed, M failed, K skipped".

With --local, the rows are DIR/NAME.litmus (options in NAME.opts, expected
graphs in NAME.dot), run with the library MODELS: our own regression
graphs, which need nothing outside the repository.
Python 3, standard library only.
"""
import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|<[^>]*>|->|[A-Za-z0-9_.#:!+-]+|[{}\[\];,=]')


def unquote(tok):
    if tok.startswith('"'):
        return re.sub(r'\\(["\\])', r'\1', tok[1:-1])
    return tok


def parse_attrs(toks, i):
    """toks[i] == '['; returns (attrs, index after ']')."""
    attrs = {}
    i += 1
    while i < len(toks) and toks[i] != ']':
        if toks[i] in (',', ';'):
            i += 1
            continue
        key = toks[i]
        if i + 2 < len(toks) and toks[i + 1] == '=':
            attrs[key] = unquote(toks[i + 2])
            i += 3
        else:
            attrs[key] = 'true'
            i += 1
    return attrs, i + 1


def parse_graphs(text):
    """A list of graphs, each (nodes: id -> label, edges: [(src, dst, attrs)])."""
    text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
    toks = TOKEN.findall(text)
    graphs = []
    i = 0
    while i < len(toks):
        if toks[i] != 'digraph':
            i += 1
            continue
        while toks[i] != '{':
            i += 1
        i += 1
        depth = 1
        nodes, edges = {}, []
        while i < len(toks) and depth > 0:
            t = toks[i]
            if t == '{':
                depth += 1
                i += 1
            elif t == '}':
                depth -= 1
                i += 1
            elif i + 2 < len(toks) and toks[i + 1] == '->':
                src, dst = unquote(t), unquote(toks[i + 2])
                i += 3
                attrs = {}
                if i < len(toks) and toks[i] == '[':
                    attrs, i = parse_attrs(toks, i)
                edges.append((src, dst, attrs))
            elif i + 1 < len(toks) and toks[i + 1] == '[':
                attrs, i = parse_attrs(toks, i + 1)
                if t not in ('node', 'edge', 'graph'):
                    nodes[unquote(t)] = attrs.get('label', unquote(t))
            else:
                i += 1
        graphs.append((nodes, edges))
    return graphs


def signature(graph):
    """The graph as comparable data: event node labels, labelled edges."""
    nodes, edges = graph
    name = lambda n: nodes.get(n, n)
    events = sorted(lab for n, lab in nodes.items() if n.startswith('eiid'))
    sig_edges = []
    for src, dst, attrs in edges:
        lab = attrs.get('label', attrs.get('taillabel', attrs.get('headlabel', '')))
        if attrs.get('dir') == 'back':
            src, dst = dst, src
        sig_edges.append((name(src), name(dst), lab.strip()))
    return (tuple(events), tuple(sorted(sig_edges)))


def describe(sig):
    ev, ed = sig
    return '    nodes: %s\n    edges: %s' % (
        '; '.join(x.replace('\\l', ' | ') for x in ev),
        '; '.join('%s -%s-> %s' % (a.split('\\l')[0], l, b.split('\\l')[0]) for a, b, l in ed))


def compare(expected_text, actual_text):
    """None if the files draw the same executions, else a message."""
    exp = collections.Counter(signature(g) for g in parse_graphs(expected_text))
    act = collections.Counter(signature(g) for g in parse_graphs(actual_text))
    if exp == act:
        return None
    lines = ['%d executions expected, %d written' % (sum(exp.values()), sum(act.values()))]
    for sig in exp - act:
        lines.append('  missing:\n' + describe(sig))
    for sig in act - exp:
        lines.append('  unexpected:\n' + describe(sig))
    return '\n'.join(lines)


def run_row(args, row, tmp):
    """row: name, graph options, model options, test, expected file."""
    name, gopts, mopts, test, expected_path = row
    out = os.path.join(tmp, name)
    os.makedirs(out, exist_ok=True)
    cmd = [args.bin, '-set-libdir', args.models]
    cmd += mopts.split() + gopts.split() + ['-o', out, test]
    cwd = args.models
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=600)
    err = p.stderr.strip().splitlines()
    if p.returncode != 0 and err and 'tests are not supported' in err[0]:
        return 'skipped', err[0].split('error: ', 1)[-1]
    dots = [f for f in os.listdir(out) if f.endswith('.dot')]
    if p.returncode != 0 or len(dots) != 1:
        return 'failed', 'exit %d, %d dot files; stderr: %s' % (
            p.returncode, len(dots), ' / '.join(err[:3]))
    with open(os.path.join(out, dots[0])) as f:
        actual = f.read()
    with open(expected_path) as f:
        expected = f.read()
    diff = compare(expected, actual)
    if diff is not None:
        return 'failed', diff
    warn = render_warnings(os.path.join(out, dots[0]))
    if warn:
        return 'failed', 'graphviz: ' + warn
    return 'passed', ''


def render_warnings(path):
    """What graphviz says rendering the file as SVG ('' if nothing, or
    if graphviz is not installed)."""
    try:
        p = subprocess.run(['dot', '-Tsvg', '-o', os.devnull, path], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
    except FileNotFoundError:
        return ''
    if p.returncode != 0:
        return 'exit %d: %s' % (p.returncode, p.stderr.strip())
    return p.stderr.strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--corpus')
    ap.add_argument('--bin')
    ap.add_argument('--filter')
    ap.add_argument('--keep', help='keep the written graphs in this directory')
    ap.add_argument('--local', help='our own tests: DIR/NAME.litmus, .opts, .dot')
    ap.add_argument('--models', help='the model library (default: CORPUS/models)')
    ap.add_argument('files', nargs='*')
    args = ap.parse_args()
    if args.files:
        if len(args.files) != 2:
            ap.error('give two dot files')
        texts = [open(f).read() for f in args.files]
        diff = compare(texts[0], texts[1])
        print(diff or 'same graphs')
        return 0 if diff is None else 1
    if not (args.corpus or args.local) or not args.bin:
        ap.error('--corpus or --local, and --bin, are needed')
    args.bin = os.path.abspath(args.bin)
    if args.local:
        if not args.models:
            ap.error('--local needs --models')
        here = os.path.abspath(args.local)
        args.models = os.path.abspath(args.models)
        rows = []
        for f in sorted(os.listdir(here)):
            if f.endswith('.litmus'):
                base = os.path.join(here, f[:-len('.litmus')])
                opts = open(base + '.opts').read().strip() if os.path.exists(base + '.opts') else ''
                rows.append((os.path.basename(base), opts, '', base + '.litmus', base + '.dot'))
    else:
        args.corpus = os.path.abspath(args.corpus)
        args.models = os.path.abspath(args.models or os.path.join(args.corpus, 'models'))
        with open(os.path.join(args.corpus, 'graphs', 'COMMANDS.tsv')) as f:
            rows = [l.rstrip('\n').split('\t') for l in f][1:]
        rows = [(r[0], r[1], r[2], os.path.join(args.corpus, r[3]),
                 os.path.join(args.corpus, 'graphs', r[0] + '.dot')) for r in rows if len(r) == 4]
    if args.filter:
        rows = [r for r in rows if re.search(args.filter, r[0])]
    counts = collections.Counter()
    tmp = args.keep or tempfile.mkdtemp(prefix='dotcmp.')
    for row in rows:
        status, why = run_row(args, row, tmp)
        counts[status] += 1
        print('%s %s%s' % (status + ':', row[0], (': ' + why) if status == 'skipped' else ''))
        if status == 'failed':
            print('  ' + why.replace('\n', '\n  '))
    if not args.keep:
        subprocess.run(['rm', '-rf', tmp])
    print('%s: %d passed, %d failed, %d skipped' % (
        'graphs' if args.local else 'herd-graphs', counts['passed'], counts['failed'],
        counts['skipped']))
    return 1 if counts['failed'] else 0


if __name__ == '__main__':
    sys.exit(main())
