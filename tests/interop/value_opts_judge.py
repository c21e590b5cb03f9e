#!/usr/bin/env python3
"""The judge of tests/interop/t_value_opts.sh: every comparison it planned,
at once, after go tool pprof's sessions ran and tests/interop/
pprof_session.py wrote their views (one python3, not a sed, grep and awk
per side of each of a thousand comparisons).

  value_opts_judge.py TMP

TMP/manifest: a line per comparison, J<TAB>RULE<TAB>D<TAB>WHAT: go's text
is TMP/gv/J (its standard error TMP/gv/J.err), pcol's TMP/pv/J and its
exit status TMP/e/J.rc; D is 1 for the comparisons of --divide-by.
A view go refused (TMP/gv/J empty, a complaint in TMP/gv/J.err:
pprof_session.go_refused) passes only when pcol's exit status is not 0;
it is not counted, but in REFUSED.  Anywhere else pcol's exit status must
be 0.  A view go left empty and said nothing of (-tags of a profile without
labels) is compared as any other (pcol's must be empty too), not counted,
but in EMPTY; one whose go side is empty after the cut fails.
RULE says where the comparison starts (the test's old cut(), then ties()):
  DOT              a DOT graph's legend from "Showing" (line 3) and all
                   after it (lines 4 on); pcol's without the isolates
                   (U+2068, U+2069) around the names of its tooltips
                   (review 22 F2; a name's own shows as \\x{2068})
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
order).
  raw              byte for byte
Prints F<TAB>J[<TAB>WHY] per failed comparison (the cut sides in
TMP/j/J.go and TMP/j/J.pc), and last
N<TAB>COUNTED<TAB>COUNTED-OF-D<TAB>REFUSED<TAB>EMPTY.
"""
import os
import re
import sys

from pprof_session import after, go_refused, keep_failed, lines, read

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
    return [x for x in after(ls, FROM[rule].match) if not x.startswith(b' Error: ')]


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


os.makedirs(os.path.join(tmp, 'j'), exist_ok=True)
counted = counted_d = refused = empty = 0
for line in open(os.path.join(tmp, 'manifest'), encoding='utf-8', errors='surrogateescape'):
    j, rule, d, _ = line.rstrip('\n').split('\t', 3)
    go = read(os.path.join(tmp, 'gv', j))
    pc = read(os.path.join(tmp, 'pv', j))
    rc = read(os.path.join(tmp, 'e', j + '.rc')).decode().strip() or 'not recorded'
    if go_refused(os.path.join(tmp, 'gv', j)):
        # pcol must refuse it too
        refused += 1
        if rc in ('0', 'not recorded'):
            keep_failed(tmp, j, read(os.path.join(tmp, 'gv', j + '.err')), pc)
            print('F\t%s\tgo refused, pcol exit %s' % (j, rc))
        continue
    if rule == 'raw':
        g, p = go, pc
    else:
        if rule == 'DOT':
            pc = pc.replace(b'\xe2\x81\xa8', b'').replace(b'\xe2\x81\xa9', b'')
        g, p = ties(cut(rule, go)), ties(cut(rule, pc))
        g, p = b''.join(x + b'\n' for x in g), b''.join(x + b'\n' for x in p)
    why = 'pcol exit %s beside go\'s %sview' % (rc, '' if go else 'empty ') if rc != '0' else ''
    if not go:
        empty += 1  # an empty view (-tags of no labels): pcol's must be
    elif not g:
        why = why or 'go\'s view has no line where the comparison starts'
    else:
        counted += 1
        counted_d += d == '1'
    if g != p or why:
        keep_failed(tmp, j, g, p)
        print('F\t' + j + ('\t' + why if why else ''))
print('N\t%d\t%d\t%d\t%d' % (counted, counted_d, refused, empty))
