#!/usr/bin/env python3
"""pcol top --by file against go tool pprof -top -files on one profile
(tests/interop/t_pprof_semantics.sh).  pprof keys a file node by the file
and the function's start line (and object file), so one file can be several
rows; pcol keeps one row per file.  So: a file pprof shows on one row must
have pprof's flat and cum; a file pprof splits must have the sum of its
rows' flat (their cums overlap and cannot be added).
Usage: pprof_files_cmp.py PCOL PROFILE; exit 1 and the differences."""
import re, subprocess, sys, collections
pcol, f = sys.argv[1], sys.argv[2]
def rows(text):
    out = []
    on = False
    for l in text.splitlines():
        if re.match(r'^\s+flat\s+flat%', l): on = True; continue
        if not on or not l.strip(): continue
        m = re.match(r'^\s*(\S+)\s+\S+\s+\S+\s+(\S+)\s+\S+\s+(.*?)( \((partial-)?inline\))?$', l)
        num = lambda s: float(re.sub(r'[A-Za-z]+$', '', s))
        out.append((m.group(3), num(m.group(1)), num(m.group(2))))
    return out
tsv = subprocess.run([pcol, 'top', f, '--format', 'tsv'], capture_output=True, text=True, errors='replace').stdout.splitlines()
unit = tsv[1].split('\t')[-1] if len(tsv) > 1 else ''
u = {'nanoseconds': ['-unit=ns'], 'bytes': ['-unit=B']}.get(unit, [])
pu = {'nanoseconds': ['--unit', 'ns'], 'bytes': ['--unit', 'B']}.get(unit, [])
go = rows(subprocess.run(['go', 'tool', 'pprof', '-symbolize=none', '-top', '-files', '-nodefraction=0', '-nodecount=100000000'] + u + [f], capture_output=True, text=True, errors='replace').stdout)
pc = rows(subprocess.run([pcol, 'top', f, '--by', 'file', '--node-fraction', '0', '-n', '100000000'] + pu, capture_output=True, text=True, errors='replace').stdout)
g = collections.defaultdict(lambda: [0, 0, 0])
for n, fl, cu in go:
    g[n][0] += fl; g[n][1] = cu; g[n][2] += 1
p = {n: (fl, cu) for n, fl, cu in pc}
bad = []
for n in sorted(set(g) | set(p)):
    if n not in p or n not in g: bad.append(f'{n}: pprof {g.get(n)}, pcol {p.get(n)}'); continue
    fl, cu, c = g[n]
    if abs(fl - p[n][0]) > 1e-6 * max(1, abs(fl)) or (c == 1 and abs(cu - p[n][1]) > 1e-6 * max(1, abs(cu))):
        bad.append(f'{n}: pprof flat {fl} cum {cu} ({c} rows), pcol {p[n]}')
for b in bad[:5]: print(f, b)
sys.exit(1 if bad else 0)
