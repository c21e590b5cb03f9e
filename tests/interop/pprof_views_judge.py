#!/usr/bin/env python3
"""The judge of tests/interop/t_pprof_views.sh: every comparison of pcol's
output with go tool pprof's text, in one process, after go tool pprof's
sessions ran (tests/interop/pprof_session.sh wrote each view into its file).

  pprof_views_judge.py DIR TAGS-AWK

DIR/manifest: a line per comparison, J<TAB>RULE<TAB>GO-TEXT<TAB>MESSAGE;
pcol's output is DIR/pc/J, GO-TEXT the file of go's text.  Both are cut by
RULE and must be equal, byte for byte: showing (from the first line starting
"Showing nodes" on), traces (from the first line starting "-----------+"
on), all, or tags (TAGS-AWK, an awk program, writes FILE.t of each FILE:
its lines, compared sorted).  head+showing and head+traces: the header
before that line too (which lines appear: comments, Type, Time, Duration,
"Active filters:" and each filter), less the lines of pcol's own choice:
File: (pcol names the inputs, pprof the main binary; Build ID: too).
The Type: line is compared as it is: pprof's "Type: cpu", the unit
pcol's used to add ("Type: cpu (nanoseconds)", review 17 F4b) would fail.

Prints "N<TAB>number judged" (each once: the test checks that all were),
then "J<TAB>J" per failed comparison (its two cut texts in DIR/j/J.go,
J.pc).
"""
import os
import subprocess
import sys

from pprof_session import after, keep_failed, read

d, tags_of = sys.argv[1:3]
FROM = {'showing': b'Showing nodes', 'traces': b'-----------+'}


def head(lines, start, pcol):
    """The header's lines before the first line starting with start, less
    File:/Build ID:"""
    out = []
    for l in lines:
        if l.startswith(start):
            break
        if l.startswith((b'File: ', b'Build ID: ')):
            continue
        out.append(l)
    return out


def cut(rule, p, pcol):
    t = read(p)
    h = rule.startswith('head+')
    rule = rule[5:] if h else rule
    if rule not in FROM:
        return t
    ls = t.split(b'\n')
    body = b'\n'.join(after(ls, lambda l: l.startswith(FROM[rule])))
    return b'\n'.join(head(ls, FROM[rule], pcol) + [body]) if h else body


def before_total(p):
    """the lines before the first key's "KEY: Total ..." line"""
    ls = read(p).split(b'\n')
    return ls[:next((k for k, l in enumerate(ls) if b': Total ' in l), len(ls))]


def sorted_lines(p):
    ls = read(p).split(b'\n')
    return b''.join(sorted([l + b'\n' for l in ls[:-1]] + ([ls[-1]] if ls[-1] else [])))


man = [l.split('\t', 3) for l in read(os.path.join(d, 'manifest')).decode('utf-8', 'surrogateescape').splitlines()]
tags = [p for j, rule, go, _ in man if rule == 'tags' for p in (go, os.path.join(d, 'pc', j))]
if tags:
    for p in tags:
        if os.path.exists(p + '.t'):
            os.unlink(p + '.t')  # (awk writes none for an empty text)
    subprocess.run(['awk', tags_of] + tags, check=True)
os.makedirs(os.path.join(d, 'j'), exist_ok=True)
judged, bad = 0, []
for j, rule, go, _ in man:
    pc = os.path.join(d, 'pc', j)
    if rule == 'tags':  # (and no header: pprof's -tags prints none, filters or not)
        a, b = sorted_lines(go + '.t'), sorted_lines(pc + '.t')
        a, b = [a] + before_total(go), [b] + before_total(pc)
    else:
        a, b = cut(rule, go, False), cut(rule, pc, True)
    judged += 1
    if a != b:
        keep_failed(d, j, a, b)
        bad.append(j)
print('N\t%d' % judged)
for j in bad:
    print('J\t' + j)
