#!/usr/bin/env python3
"""Judges pcol's reading of a real CPython 3.15 Tachyon recording against
what CPython's own reader printed for it (tests/fixtures/tachyon/record.sh):

  tachyon_replay_check.py PCOL BASE     (BASE.bin, .cmd, .collapsed, .pstats)

- the sample count: the writer's "written to ... (N samples)" (BASE.cmd);
- per function (pcol's name: the frame's function name, CPython's qualified
  name such as Thread.run) self and total: the sums of `replay --collapsed`
  (each line `tid:N;FILE:FUNC:LINE;...;FILE:FUNC:LINE COUNT`, root first,
  FILE the basename; a special frame is FUNC alone), a function counted once
  per sample however often it recurs;
- per thread: the collapsed counts per `tid:N` against pcol's label tid;
- per (file, line, function): `replay` pstats text's direct/cumulative
  samples (`D/C ... FILE:LINE(FUNC)`, FILE the basename) against `pcol top
  --by line` (`FUNC /full/path:LINE`; CPython's line 0 is pcol's missing line).
Prints the differences and exits 1 if there are any."""
import collections, json, os, re, subprocess, sys

pcol, base = sys.argv[1], sys.argv[2]
bad = []


def run(*a):
    r = subprocess.run([pcol, *a], capture_output=True, text=True)
    if r.returncode:
        sys.exit("%s: pcol %s: exit %d: %s" % (base, " ".join(a), r.returncode, r.stderr))
    return json.loads(r.stdout)


def frame_name(part):
    f = part.rsplit(":", 2)  # FILE:FUNC:LINE; a FILE may hold ':', a FUNC does not
    return f[1] if len(f) == 3 and f[2].isdigit() else part


written = int(re.search(r"written to \S+ \((\d+) samples\)", open(base + ".cmd").read()).group(1))
self_, total, tids, n = collections.Counter(), collections.Counter(), collections.Counter(), 0
for line in open(base + ".collapsed", encoding="utf-8", errors="surrogateescape"):
    stack, count = line.rstrip("\n").rsplit(" ", 1)
    parts = stack.split(";")
    assert parts[0].startswith("tid:"), line
    names = [frame_name(p) for p in parts[1:]]
    c = int(count)
    n += c
    tids[parts[0][4:]] += c
    self_[names[-1]] += c
    for nm in set(names):
        total[nm] += c

top = run("top", base + ".bin", "--node-fraction", "0", "--format", "json")
if top["total"] != written:
    bad.append("pcol has %d samples, CPython wrote %d" % (top["total"], written))
if n != written:  # CPython's views drop samples left without a frame
    focus = run("top", base + ".bin", "--focus", ".", "--node-fraction", "0", "--format", "json")
    if sum(r["flat"] for r in focus["rows"]) != n:
        bad.append("samples with a frame: pcol %d, collapsed %d" % (sum(r["flat"] for r in focus["rows"]), n))
got_self = collections.Counter({r["name"]: r["flat"] for r in top["rows"] if r["flat"]})
got_total = collections.Counter({r["name"]: r["cum"] for r in top["rows"]})
for what, got, want in (("self", got_self, self_), ("total", got_total, total)):
    for k in sorted(set(got) | set(want)):
        if got[k] != want[k]:
            bad.append("%s of %r: pcol %d, CPython's collapsed %d" % (what, k, got[k], want[k]))

tags = run("tags", base + ".bin", "--focus", ".", "--format", "json")["rows"]
got_tid = collections.Counter({r["value"]: r["amount"] for r in tags if r["key"] == "tid"})
if got_tid != tids:
    bad.append("per thread: pcol %s, CPython's collapsed %s" % (dict(got_tid), dict(tids)))

# pstats text: "D/C  sample%  tottime  cumul%  cumtime  FILE:LINE(FUNC)"; it
# strips directories (pstats.Stats.strip_dirs) and adds up the rows that then
# coincide (two packages' __init__.py:8(<module>)), so pcol's rows are too
want_lines = {}
row = re.compile(r"^\s*(\d+)/(\d+)\s+\S+\s+\S+\s+\S+\s+\S+\s+(.*):(\d+)\((.*)\)$")
for line in open(base + ".pstats", encoding="utf-8", errors="surrogateescape"):
    m = row.match(line)
    if m:
        k = (m.group(3), int(m.group(4)), m.group(5))
        if k in want_lines:
            bad.append("pstats has two rows %s" % (k,))
        want_lines[k] = (int(m.group(1)), int(m.group(2)))
if not want_lines:
    bad.append("no pstats rows in %s.pstats" % base)
got_lines = collections.defaultdict(lambda: (0, 0))
for r in run("top", base + ".bin", "--by", "line", "--node-fraction", "0", "--format", "json")["rows"]:
    m = re.match(r"^(\S+) (.*?)(?::(\d+))?$", r["name"])  # FUNC /full/path:LINE (a FUNC has no blank)
    k = (os.path.basename(m.group(2)), int(m.group(3) or 0), m.group(1))
    got_lines[k] = (got_lines[k][0] + r["flat"], got_lines[k][1] + r["cum"])
for k in sorted(set(got_lines) | set(want_lines), key=str):
    if got_lines.get(k) != want_lines.get(k):
        bad.append("by line %s:%d(%s) direct/cumulative: pcol %s, CPython's pstats %s" %
                   (k[0], k[1], k[2], got_lines.get(k), want_lines.get(k)))
for b in bad:
    print("%s: %s" % (base, b), file=sys.stderr)
print("%s: %d samples, %d functions, %d threads, %d pstats rows: %s" %
      (os.path.basename(base), written, len(total), len(tids), len(want_lines), "differ" if bad else "equal"))
sys.exit(1 if bad else 0)
