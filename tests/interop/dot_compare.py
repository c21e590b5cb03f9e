#!/usr/bin/env python3
"""Compares two call graphs in DOT text as go tool pprof -dot writes them
(dotgraph.go ComposeDot): the nodes (their names, from the tooltips, in
pprof's N1..Nn order; the shortened name, flat and cum as their labels
print them), the edges between them (weight as labelled, "(inline)",
dotted = residual, minlen), the legend's "Showing"/"Dropped" lines, and the
label boxes (pprof's nodelets, addNodelets: N1_0, NN1_0, NN1_0_0): each
box's id under its node, its text and weight, and the edge to it (its
label, dotted).  Exit 0 same, 1 different (printed)."""
import re
import sys

ATTR = re.compile(r'(\w+) ?= ?("(?:[^"\\]|\\.)*"|[^\s"\]]+)')
NODE = re.compile(r'^N(\d+) \[(.*)\]$')
EDGE = re.compile(r'^N(\d+) -> N(\d+) \[(.*)\]$')
BOX = re.compile(r'^(N+)(\d+)((?:_\d+)+) \[(.*)\]$')
BOXEDGE = re.compile(r'^(N+\d+(?:_\d+)*) -> (N+\d+(?:_\d+)+) \[(.*)\]$')
NAMES = 0  # 1: the labels' names are not compared
BOXID = re.compile(r'^(N+)(\d+)((?:_\d+)*)$')


def attrs(s):
    return {k: (v[1:-1] if v.startswith('"') else v) for k, v in ATTR.findall(s)}


def values(label):
    """(the name's lines, flat, cum) of a node's label"""
    parts = label.split('\\n')
    last = parts[-1]
    if last.startswith('of '):
        return '\\n'.join(parts[:-2]), parts[-2], last
    if last.startswith('0 of '):
        return '\\n'.join(parts[:-1]), '0', last[2:]
    return '\\n'.join(parts[:-1]), last, None


def parse(path):
    nodes, edges, legend, boxes, boxedges = {}, set(), [], {}, set()
    with open(path, encoding='utf-8', errors='surrogateescape') as fh:
        for line in fh:
            line = line.rstrip('\n')
            if line.startswith('subgraph cluster_L'):
                m = re.search(r' label="((?:[^"\\]|\\.)*)"', line)
                legend = [l for l in m.group(1).split('\\l')
                          if l.startswith(('Showing', 'Dropped', 'Active filters:', '   '))]
                continue
            m = NODE.match(line)
            if m:
                a = attrs(m.group(2))
                # pcol isolates the name (FSI...PDI, review 22 F2), pprof does not
                name = re.sub(r'^\u2068(.*)\u2069$', r'\1', re.sub(r' \([^()]*\)$', '', a['tooltip']))
                nodes[int(m.group(1))] = (name,) + values(a['label'])
                continue
            m = EDGE.match(line)
            if m:
                a = attrs(m.group(3))
                edges.add((int(m.group(1)), int(m.group(2)), a['label'],
                           a.get('style') == 'dotted', a.get('minlen')))
                continue
            m = BOX.match(line)
            if m:
                a = attrs(m.group(4))
                boxes[(m.group(1), int(m.group(2)), m.group(3))] = (
                    a.get('label'), a.get('tooltip'), a.get('shape'))
                continue
            m = BOXEDGE.match(line)
            if m:
                a = attrs(m.group(3))
                boxedges.add((m.group(1), m.group(2), a.get('label'), a.get('style') == 'dotted'))
    named = set()
    for f, t, lab, dotted, minlen in edges:
        named.add((nodes[f][0], nodes[t][0], lab, dotted, minlen))

    def by_name(bid):  # N3_0 -> N<name of N3>_0
        m = BOXID.match(bid)
        n = int(m.group(2))
        return '%s<%s>%s' % (m.group(1), nodes[n][0] if n in nodes else '?%d' % n, m.group(3))
    nboxes = {by_name(p + str(n) + s): v for (p, n, s), v in boxes.items()}
    nboxedges = {(by_name(f), by_name(t), lab, dotted) for f, t, lab, dotted in boxedges}
    order = [nodes[i][0] for i in sorted(nodes)]
    return order, {v[0]: v[1:] for v in nodes.values()}, named, legend, nboxes, nboxedges


def compare(gopath, pcpath):
    go, pc = parse(gopath), parse(pcpath)
    bad = []
    if set(go[0]) != set(pc[0]):
        bad.append('nodes only in pprof: %s' % sorted(set(go[0]) - set(pc[0]))[:8])
        bad.append('nodes only in pcol: %s' % sorted(set(pc[0]) - set(go[0]))[:8])
    elif go[0] != pc[0]:
        bad.append('node order differs: first at N%d (pprof %r, pcol %r)' % next(
            (i + 1, a, b) for i, (a, b) in enumerate(zip(go[0], pc[0])) if a != b))
    for n in sorted(set(go[1]) & set(pc[1])):
        if go[1][n][NAMES:] != pc[1][n][NAMES:]:
            bad.append('node %r: pprof %s, pcol %s' % (n, go[1][n], pc[1][n]))
    if go[2] != pc[2]:
        for e in sorted(go[2] - pc[2])[:8]:
            bad.append('edge only in pprof: %r' % (e,))
        for e in sorted(pc[2] - go[2])[:8]:
            bad.append('edge only in pcol: %r' % (e,))
    if go[3] != pc[3]:
        bad.append('legend: pprof %s, pcol %s' % (go[3], pc[3]))
    if go[4] != pc[4]:
        for b in sorted(set(go[4]) | set(pc[4])):
            if go[4].get(b) != pc[4].get(b):
                bad.append('label box %s: pprof %s, pcol %s' % (b, go[4].get(b), pc[4].get(b)))
    if go[5] != pc[5]:
        for e in sorted(go[5] - pc[5])[:8]:
            bad.append('label box edge only in pprof: %r' % (e,))
        for e in sorted(pc[5] - go[5])[:8]:
            bad.append('label box edge only in pcol: %r' % (e,))
    return bad


def main():
    """dot_compare.py PPROF.dot PCOL.dot, or dot_compare.py --list FILE whose
    lines are "PPROF.dot<TAB>PCOL.dot<TAB>what" (one process for a whole
    test: Python's start is most of a comparison's time)."""
    if sys.argv[1] == '--list':
        with open(sys.argv[2]) as fh:
            cases = [l.rstrip('\n').split('\t') for l in fh if l.strip()]
    else:
        cases = [(sys.argv[1], sys.argv[2], '')]
    failed = 0
    for gopath, pcpath, what in cases:
        bad = compare(gopath, pcpath)
        if bad:
            failed += 1
            print('FAIL: ' + what if what else 'FAIL:')
            for b in bad[:12]:
                print('  ' + b)
    if len(cases) > 1:
        print('%d comparisons, %d failed' % (len(cases), failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
