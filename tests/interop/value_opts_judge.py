#!/usr/bin/env python3
"""The judge of tests/interop/t_value_opts.sh: every comparison it planned,
at once, after go tool pprof's sessions ran (one python3, not a sed, grep
and awk per side of each of a thousand comparisons).

  value_opts_judge.py TMP

TMP/manifest: a line per comparison, J<TAB>RULE<TAB>D<TAB>WHAT: go's text
is TMP/gv/J, pcol's TMP/pv/J; D is 1 for the comparisons of --divide-by,
x for go's view on the command line (TMP/pv/cJ) against the session's
(TMP/gv/J): judged whatever it holds, not counted.
RULE says where the comparison starts (the test's old cut(), then ties()):
  DOT              a DOT graph's legend from "Showing" (line 3) and all
                   after it (lines 4 on)
  showing          from the first line starting "Showing nodes"
  duration         from the first "Duration: " or "Showing nodes" line
  traces           from the first "-----------+" line
  sep              from the first "-----------" line
  total            from the first "Total:" line
  all              the whole output
(each without its " Error: " lines: the sources pcol and go do not read
are each their own words), and in each, a run of call lines
("  W  P% |   NAME") of one |W| and P is put in name order (pprof sorts a
node's calls by |weight| with an unstable sort: +w and -w come in either
order).  A comparison whose go side is empty after the cut is one go
refused: not counted.
  raw              byte for byte, counted even when go's side is empty
A view that ran in a session (TMP/s/I.err, the session's standard error)
stands only if the assignments before it raised no error: the session
marks each view's assignments with two lines no command answers ("#aJx"
before them, "#bJx" before the view), and pprof's complaint about an
assignment (a sample_index the profile has not) lands between them, where
the command line would have refused the whole run; a session that did not
reach its end mark ("#zx") fails.

Prints F<TAB>J per failed comparison (the cut sides in TMP/j/J.go and
TMP/j/J.pc), S<TAB>MESSAGE per broken session, and last
N<TAB>COUNTED<TAB>COUNTED-OF-D.
"""
import os
import re
import sys

tmp = sys.argv[1]
FROM = {
    'showing': re.compile(rb'^Showing nodes'),
    'duration': re.compile(rb'^Duration: |^Showing nodes'),
    'traces': re.compile(rb'^-----------\+'),
    'sep': re.compile(rb'^-----------'),
    'total': re.compile(rb'^Total:'),
    'all': re.compile(rb''),
}
CALL = re.compile(rb'^ +-?[0-9][^ ]* +[0-9.e+-]+% \|   ')


def read(p):
    try:
        with open(p, 'rb') as f:
            return f.read()
    except FileNotFoundError:
        return b''


def lines(b):
    ls = b.split(b'\n')
    if ls and ls[-1] == b'':
        ls.pop()
    return ls


def cut(rule, b):
    ls = lines(b)
    if rule == 'DOT':
        out = []
        if len(ls) >= 3:
            s = ls[2]
            i, j = s.find(b'Showing'), s.find(b'\\l\\lSee')
            if i >= 0:
                out.append(s[i:j] if j > i else b'')
        return out + ls[3:]
    rx = FROM[rule]
    for k, l in enumerate(ls):
        if rx.match(l):
            return [x for x in ls[k:] if not x.startswith(b' Error: ')]
    return []


def ties(ls):
    out, run, key = [], [], None
    for l in ls:
        if CALL.match(l):
            f = l.split()
            k = f[0] + b' ' + f[1]
            if k.startswith(b'-'):
                k = k[1:]
            if run and k != key:
                out += sorted(run)
                run = []
            key = k
            run.append(l)
            continue
        out += sorted(run)
        run = []
        out.append(l)
    return out + sorted(run)


# the views a session refused (an assignment before them failed), and the
# sessions that broke off
refused, broken = set(), []
MARK = re.compile(r'unrecognized command: "#([abz])(\d*)x"')
if os.path.exists(os.path.join(tmp, 's', 'index')):
    for line in open(os.path.join(tmp, 's', 'index')):
        i, rc, views, f = line.rstrip('\n').split('\t')
        inside, end, seen = None, False, 0
        for e in read(os.path.join(tmp, 's', i + '.err')).decode('utf-8', 'replace').split('\n'):
            m = MARK.search(e)
            if m:
                inside = m.group(2) if m.group(1) == 'a' else None
                seen += m.group(1) == 'b'
                end = end or m.group(1) == 'z'
            elif inside is not None and e.strip():
                refused.add(inside)
        if not end and seen == 0 and not re.search(r'unrecognized command: "#a', read(os.path.join(tmp, 's', i + '.err')).decode('utf-8', 'replace')):
            # go cannot read the profile (the session never began): every
            # view refused, as the command line refuses each
            refused.update(re.findall(r'^#b(\d+)x$', read(os.path.join(tmp, 's', i + '.in')).decode(), re.M))
        elif not end or seen != int(views):
            broken.append('session %s (%s, %s views) ended at its view %d' % (i, f, views, seen))

# a refused view's text is none (the command line would have written none):
# gone for the judgements below and the test's DOT comparisons
for j in refused:
    if os.path.exists(os.path.join(tmp, 'gv', j)):
        os.remove(os.path.join(tmp, 'gv', j))
os.makedirs(os.path.join(tmp, 'j'), exist_ok=True)
counted = counted_d = 0
for line in open(os.path.join(tmp, 'manifest'), encoding='utf-8', errors='surrogateescape'):
    j, rule, d, _ = line.rstrip('\n').split('\t', 3)
    # (cJ: go's view J on the command line, held to the session's)
    go = b'' if j.lstrip('c') in refused else read(os.path.join(tmp, 'gv', j.lstrip('c')))
    pc = read(os.path.join(tmp, 'pv', j))
    if rule == 'raw':
        g, p = go, pc
    else:
        g, p = ties(cut(rule, go)), ties(cut(rule, pc))
        if not g and d != 'x':
            continue  # go refuses it
        g, p = b''.join(x + b'\n' for x in g), b''.join(x + b'\n' for x in p)
    if d != 'x':
        counted += 1
        counted_d += d == '1'
    if g != p:
        for side, b in (('go', g), ('pc', p)):
            with open(os.path.join(tmp, 'j', j + '.' + side), 'wb') as f:
                f.write(b)
        print('F\t' + j)
for m in broken:
    print('S\t' + m)
print('N\t%d\t%d' % (counted, counted_d))
