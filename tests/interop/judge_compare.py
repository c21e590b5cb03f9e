#!/usr/bin/env python3
"""judge_compare.py — per-function self and total weights of `pcol fold`
output against speedscope's (speedscope_any_judge.cjs), for
tests/interop/t_import_judged.sh.

  judge_compare.py FOLDED JUDGE_RECORD SCALE [--skip NAME]... [--self-only NAME]... [--terms N]
  judge_compare.py --batch FILE   (a line each: NAME, then those arguments, tab-separated)

FOLDED: `pcol fold` lines (root;...;leaf value).  A name's self weight is the
sum of the lines it ends, its total the sum of the lines it appears in (once
per line).  The pcol values divided by SCALE must equal speedscope's summed
over all its profiles: its frames' self weights, and the time a frame of the
name is on speedscope's call timeline, each rounded to a thousandth of pcol's
unit (speedscope adds doubles: 0.4 + 1000.6 is 1000.9999999999999; pcol's
values are whole ns or counts, so that rounding hides no difference of one).  --skip: a frame
speedscope does not show (V8's (idle), (root)).  --self-only: compare only the
self weight of frames speedscope moves in the tree (V8's (garbage collector)
and (program) go on top of the previous sample's stack) and skip the totals
of every frame (they include what it moved).  --terms N: speedscope added at
most N doubles into a weight, so past 2^53 it is off by up to N halves of a
unit in the last place (a Perun file's 5.6e17 ms, 1e16 ps): weights agree
within N x 2^-53 of speedscope's, relatively, as well.  Exit 1 with the
differences.
"""
import json, sys
from fractions import Fraction

def compare(argv):
    """argv as the command line's: (exit status, what to print)"""
    folded, rec, scale = argv[0], argv[1], Fraction(argv[2])
    skip, self_only, terms = set(), set(), 0
    a = argv[3:]
    for i in range(0, len(a), 2):
        if a[i] == '--terms':
            terms = int(a[i + 1])
        else:
            (skip if a[i] == '--skip' else self_only).add(a[i + 1])
    mine = {}
    for line in open(folded, encoding='utf-8', errors='replace'):
        line = line.rstrip('\n')
        if not line:
            continue
        stack, _, v = line.rpartition(' ')
        v = Fraction(v) / scale
        frames = stack.split(';') if stack else []
        frames = [f for f in frames if f not in skip]
        for f in set(frames):
            mine.setdefault(f, [0, 0])[1] += v
        if frames:
            mine.setdefault(frames[-1], [0, 0])[0] += v
    r = json.loads(open(rec).read())
    if 'error' in r:
        return 1, 'speedscope: ' + r['error']
    theirs = {}
    # a frame named "" (collapsed `a;;b`): speedscope shows it empty, pcol's
    # views name it as go tool pprof does, "<unknown>" (THE empty-name rule,
    # lib/core/frames.h; doc/mappings.md §6)
    for p in r['profiles']:
        for name, (s, t) in p['frames'].items():
            e = theirs.setdefault(name or '<unknown>', [0, 0])
            e[0] += Fraction(s)
        for name, t in p['names'].items():
            theirs.setdefault(name or '<unknown>', [0, 0])[1] += Fraction(t)
    grain = 1 / (1000 * scale)
    for e in theirs.values():
        e[0], e[1] = round(e[0] / grain) * grain, round(e[1] / grain) * grain
    rel = Fraction(terms, 2 ** 53)
    def differ(m, t):
        return m != t and abs(m - t) > rel * abs(t)
    bad = []
    for name in sorted(set(mine) | set(theirs)):
        if name in skip:
            continue
        m, t = mine.get(name, [0, 0]), theirs.get(name, [0, 0])
        if differ(m[0], t[0]):
            bad.append('%s: self pcol %s speedscope %s' % (name, float(m[0]), float(t[0])))
        if not self_only and differ(m[1], t[1]):
            bad.append('%s: total pcol %s speedscope %s' % (name, float(m[1]), float(t[1])))
    if bad:
        return 1, '\n'.join(bad[:20])
    return 0, '%d frames agree' % len(set(mine) | set(theirs))


def main():
    if sys.argv[1] != '--batch':
        rc, text = compare(sys.argv[1:])
        print(text)
        sys.exit(rc)
    # --batch FILE: one comparison a line, NAME then the arguments, tab-separated
    # (one python for many: its start is the cost); a line per failure, exit 1 if any
    rc = 0
    for line in open(sys.argv[2], encoding='utf-8'):
        name, *argv = line.rstrip('\n').split('\t')
        r, text = compare(argv)
        if r:
            print('FAIL %s: %s' % (name, text[:1500]))
            rc = 1
    sys.exit(rc)

main()
