#!/usr/bin/env python3
"""chrome_lines_judge.py — what `pcol top --by line --value samples` must
say of a Chrome trace whose ProfileChunk events carry V8's per-sample
lines, computed from the JSON alone (tests/interop/t_chrome_lines.sh).

  chrome_lines_judge.py TRACE.json TOP.tsv [MIN_MOVED]

TOP.tsv is `pcol top TRACE --by line --value samples --format tsv -n 0`.
The rules, as Chrome writes the trace and DevTools reads it:
- a profile is the ProfileChunk events of one (pid, id); its nodes are
  every chunk's cpuProfile.nodes, and each chunk's args.data.lines[i] is
  V8's line (1-based, 0 none) of its cpuProfile.samples[i] (a chunk
  without lines: 0 for each sample, as DevTools' SamplesHandler pads them);
- a sample's line is that line when it is a whole number from 1 to 9e15
  (pcol's bound of a JSON integer) and its node is a script's
  (a url, or a scriptId whose Number() is not 0: DevTools'
  LineLevelProfile), else its function's (callFrame.lineNumber + 1);
- a frame is named as `go tool pprof -lines` names it: "NAME FILE:LINE",
  the file cleaned as Go's filepath.Clean does; a function without a name
  is "(anonymous BASENAME:LINE)" with its own line (doc/mappings.md §10).
Per key with a file and a line, the flat must be the JSON's; the rest
(frames without url or line: (idle), (program), natives) is compared as
one sum.  MIN_MOVED: at least that many samples must be at a line other
than their function's, or the trace tests nothing (default 1).
Prints a summary; exit 1 on any difference."""
import json, posixpath, re, sys
from collections import Counter


def num(x):  # JavaScript's Number() for what a scriptId is in traces
    if isinstance(x, bool):
        return 1.0 if x else 0.0
    if isinstance(x, (int, float)):
        return float(x)
    if isinstance(x, str):
        try:
            return float(x.strip() or 0)
        except ValueError:
            return float("nan")
    return 0.0


def data_of(e):
    a = e.get("args")
    d = a.get("data") if isinstance(a, dict) else None
    return d if isinstance(d, dict) else {}


def main():
    trace, tsv = sys.argv[1], sys.argv[2]
    min_moved = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    d = json.load(open(trace))
    ev = d["traceEvents"] if isinstance(d, dict) else d
    nodes = {}
    for e in ev:
        if e.get("name") == "ProfileChunk":
            for n in data_of(e).get("cpuProfile", {}).get("nodes", []) or []:
                nodes[(e["pid"], e.get("id"), n["id"])] = n
    want, moved, total = Counter(), 0, 0
    for e in ev:
        if e.get("name") != "ProfileChunk":
            continue
        data = data_of(e)
        samples = data.get("cpuProfile", {}).get("samples", []) or []
        lines = data.get("lines")
        if not isinstance(lines, list) or len(lines) != len(samples):
            lines = [0] * len(samples)
        for s, ln in zip(samples, lines):
            total += 1
            n = nodes.get((e["pid"], e.get("id"), s))
            if n is None:  # a node in no chunk (a chunk the trace lost): pcol keeps no stack, so no row
                continue
            cf = n["callFrame"]
            url = cf.get("url") or ""
            own = cf.get("lineNumber", -1)
            own = own + 1 if isinstance(own, int) and own >= 0 else None
            script = bool(url) or (lambda v: v == v and v != 0)(num(cf.get("scriptId", 0)))
            whole = isinstance(ln, (int, float)) and not isinstance(ln, bool) and 0 < ln <= 9e15 and ln == int(ln)
            line = int(ln) if whole and script else own
            if line is not None and own is not None and line != own:
                moved += 1
            name = cf.get("functionName") or ""
            if not name:
                base = url.rsplit("/", 1)[-1]
                name = ("(anonymous %s:%d)" % (base, own) if own is not None else "(anonymous %s)" % base) if url else "(anonymous)"
            if url and line is not None:
                want["%s %s:%d" % (name, posixpath.normpath(url), line)] += 1
            else:
                want[None] += 1
    files = {posixpath.normpath(cf["callFrame"].get("url")) for cf in nodes.values() if cf["callFrame"].get("url")}
    got = Counter()
    rows = open(tsv).read().splitlines()
    head = rows[0].split("\t")
    fi, ni = head.index("flat"), head.index("name")
    for r in rows[1:]:
        c = r.split("\t")
        m = re.match(r"^(.*) (\S+):(\d+)$", c[ni])
        key = c[ni] if m and m.group(2) in files else None
        got[key] += int(c[fi])
    bad = sorted((k or "(the rest)", want.get(k, 0), got.get(k, 0)) for k in set(want) | set(got)
                 if want.get(k, 0) != got.get(k, 0))
    for k, w, g in bad[:20]:
        print("  %s: the trace says %d, pcol %d" % (k, w, g))
    print("%d samples, %d keys with a line, %d samples at a line not their function's; %d keys differ"
          % (total, len([k for k in want if k]), moved, len(bad)))
    if moved < min_moved:
        print("too few samples at their own line (%d < %d): the trace tests nothing" % (moved, min_moved))
        return 1
    return 1 if bad else 0


sys.exit(main())
