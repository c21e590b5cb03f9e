#!/usr/bin/env python3
"""The judge of tests/interop/t_pprof_semantics.sh: every comparison of
pcol's text with go tool pprof's it planned, at once, after the go tool
pprof sessions ran (tests/interop/pprof_session.sh): one python3, not a sed
or grep per side of each.

  semantics_judge.py TMP

TMP/manifest: a line per comparison, J<TAB>RULE<TAB>GO<TAB>FLAGS<TAB>WHAT:
pcol's text is TMP/pv/J (what the test sent there of pcol's output and
standard error), go's the file GO, its standard error GO.err.  Both sides
are cut by RULE (the test's sed, grep and sort of each side, as they were)
and must be equal:
  /^TEXT/      from the first line starting with TEXT on (a sed address:
               TEXT is literal but for "\\[", an escaped "[")
  N            from line N on
  grep:RE      the lines RE matches (grep -aE '^...': RE anchored)
  grepo:RE     each match of RE in a line (grep -aoE), go's standard error
               then its output (the command line's 2>&1: pprof's "no
               matches found" on the one, the report on the other)
  fortag       go's standard error's lines "For tag ...", sorted; pcol's
               warnings "pcol VIEW: warning: ...: For tag ...", from "For
               tag" on, sorted
  matched:V    go's standard error's lines ending "expression matched no
               samples" or "' as range, not regexp" (its tag filters'
               ranges); pcol's warnings "pcol V: warning: (...)" of them
FLAGS (- none) w: pcol's warnings "pcol VIEW: warning: ...: For tag ..."
are dropped from its side first (the test judges them on their own:
fortag); n: go's side must not be empty; r: go refuses the view.
pcol's exit status is TMP/pv/J.rc.  A view go refused (GO empty, a
complaint in GO.err: pprof_session.go_refused) passes only with r, pcol's
exit status not 0 and the cuts equal; a view go answered fails with r, or
with pcol's exit status not 0.

Prints F<TAB>J<TAB>WHY per failed comparison (the cut sides in TMP/j/J.go
and TMP/j/J.pc), and last N<TAB>JUDGED.
"""
import os
import re
import sys

from pprof_session import after, go_refused, keep_failed, lines, read

tmp = sys.argv[1]
FORTAG = re.compile(rb'^pcol [a-z]*: warning: .*: (For tag .*)$')


def cut(rule, ls):
    if rule.isdigit():
        return ls[int(rule) - 1:]
    m = re.fullmatch(r'/\^((?:[^\\.*\[$^]|\\\[)+)/', rule)
    if not m:
        raise SystemExit('semantics_judge.py: a rule it cannot read: %r' % rule)
    prefix = m.group(1).replace('\\[', '[').encode()
    return after(ls, lambda l: l.startswith(prefix))


def judge(rule, go, pc, flags):
    g, p = read(go), read(pc)
    if 'w' in flags:
        p = b''.join(l + b'\n' for l in lines(p) if not FORTAG.match(l))
    if rule.startswith('grep:'):
        rx = re.compile(b'^(?:' + rule[5:].encode() + b')')
        return [l for l in lines(g) if rx.search(l)], [l for l in lines(p) if rx.search(l)]
    if rule.startswith('grepo:'):
        rx = re.compile(rule[6:].encode())
        g = read(go + '.err') + g
        return ([m.group(0) for l in lines(g) for m in rx.finditer(l) if m.group(0)],
                [m.group(0) for l in lines(p) for m in rx.finditer(l) if m.group(0)])
    if rule == 'fortag':
        return (sorted(l for l in lines(read(go + '.err')) if l.startswith(b'For tag ')),
                sorted(m.group(1) for m in map(FORTAG.match, lines(p)) if m))
    if rule.startswith('matched:'):
        said = rb"(?:expression matched no samples|' as range, not regexp)$"
        rx = re.compile(rb'^pcol ' + re.escape(rule[8:].encode()) + rb': warning: (.*' + said + rb')')
        return ([l for l in lines(read(go + '.err')) if re.search(said, l)],
                [m.group(1) for m in map(rx.match, lines(p)) if m])
    return cut(rule, lines(g)), cut(rule, lines(p))


os.makedirs(os.path.join(tmp, 'j'), exist_ok=True)
judged = 0
for line in open(os.path.join(tmp, 'manifest'), encoding='utf-8', errors='surrogateescape'):
    j, rule, go, flags, _ = line.rstrip('\n').split('\t', 4)
    pv = os.path.join(tmp, 'pv', j)
    rc = read(pv + '.rc').decode().strip() or 'not recorded'
    judged += 1
    g, p = judge(rule, go, pv, flags)
    if go_refused(go):
        # go refused the view (it wrote none): a pass only where the test
        # expects it (r) and pcol refused it too, their cuts equal (a rule
        # that reads go's standard error compares their complaints)
        why = ('go refused (no view), pcol exit %s: not a refusal the test expects' % rc if 'r' not in flags else
               'go refused, pcol exit %s' % rc if rc in ('0', 'not recorded') else
               'both refused, the two differ' if g != p else '')
    else:
        why = ('go answered a view the test expects it to refuse' if 'r' in flags else
               'pcol exit %s beside go\'s view' % rc if rc != '0' else
               'go\'s side empty' if 'n' in flags and not g else
               'the two differ' if g != p else '')
    if why:
        keep_failed(tmp, j, g, p)
        print('F\t%s\t%s' % (j, why))
print('N\t%d' % judged)
