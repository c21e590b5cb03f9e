#!/usr/bin/env python3
"""firefox_compare.py JUDGE_JSONL TOP_JSON[@import]... — compares what the Firefox
Profiler's own code computed (firefox_judge.ts: a line per file) with
`pcol top --format json --node-fraction 0` of the same profile (one file per
judged line, in order).  Per function name: the profiler's self (summed over
every thread and every function of that name) must equal pcol's flat, and
its total must equal pcol's cum when the name is one function of one thread
(the profiler counts a sample once per function index; two functions of one
name would count it twice).  Weights are converted from the profiler's unit
(ms for tracing-ms) to pcol's.  Names the profiler has and pcol top does not
must be frames without a function (0x<address>, [unknown], FILE:LINE,
V8's (root) node without self time, which pcol leaves out;
a judge that does not give a function's file, firefox_cli_judge.cjs: any
name ending in :LINE), which pcol top does not key.  Prints one line per file and a summary line
"N passed, N failed"; exit 1 on a failure.  The profiler must not have
upgraded pcol's exports from another version than pcol writes
(FIREFOX_WRITTEN_VERSION); a file
marked @import (a profile pcol imported) may be of an older version.
Threads of another weight type than pcol top's value count 0 in pcol's
numbers (they have no such value) and are left out here."""
import json, os, re, sys

TIME = {"nanoseconds": 1e6, "ns": 1e6, "microseconds": 1e3, "us": 1e3, "µs": 1e3,
        "milliseconds": 1.0, "ms": 1.0, "seconds": 1e-3, "s": 1e-3}

def factor(unit, wtype):
    """pcol's number for 1 of the profiler's weight."""
    f = 1.0
    m = re.match(r"^1e-(\d) ?(.*)$", unit or "")
    if m:
        f, unit = 10.0 ** int(m.group(1)), m.group(2)
    if wtype == "tracing-ms":
        f *= TIME.get(unit, 1.0)
    return f

def close(a, b):
    return abs(a - b) <= 1e-6 * max(1.0, abs(a), abs(b))

def wtype_of(unit):
    """the profiler's weightType that pcol's unit is written as"""
    m = re.match(r"^1e-(\d) ?(.*)$", unit or "")
    unit = m.group(2) if m else unit
    return "tracing-ms" if unit in TIME else "bytes" if unit in ("bytes", "B") else "samples"

def upgraded(j):
    """whether the profiler upgraded a profile pcol wrote from another version
    than the one pcol writes (FIREFOX_WRITTEN_VERSION: a profiler newer than
    that version upgrades every file pcol writes, as profiler.firefox.com
    does; firefox_cli_judge.cjs says {from, to})"""
    u = j.get("upgradeInfo")
    if not u:
        return False
    w = os.environ.get("FIREFOX_WRITTEN_VERSION")
    return not (w and set(u) == {"from", "to"} and str(u["from"]) == w)

def compare(j, top, imported):
    if "error" in j:
        return "the profiler failed: " + j["error"]
    bad = [w for w in j.get("warnings", []) if not w.startswith("log: ")]
    if bad:
        return "the profiler warned: " + "; ".join(bad)[:500]
    if upgraded(j) and not imported:
        return "the profiler upgraded the file: " + json.dumps(j["upgradeInfo"])[:300]
    # pcol top's rows of one name (a nameless function's [mapping] in two
    # binaries or at two start lines, as go tool pprof's -top keys them,
    # doc/mappings.md §6) are one function name here: flat added, cum not
    rows, nrows = {}, {}
    for r in top["rows"]:
        n = r["name"]
        nrows[n] = nrows.get(n, 0) + 1
        rows[n] = dict(r, flat=rows[n]["flat"] + r["flat"]) if n in rows else r
    self_, total, owners, unkeyed = {}, {}, {}, {}
    # threads of another weight type have no value of pcol's (they count 0)
    wt = wtype_of(top.get("unit"))
    f = factor(top.get("unit"), wt)
    for ti, t in enumerate(j["threads"]):
        if t["weightType"] != wt:
            continue
        for fn in t["funcs"]:
            name, _file, s, tot = fn[:4]
            # firefox_cli_judge.cjs: the list's LIB!NAME beside the part after
            # its first '!': the one pcol has (a name may hold a '!')
            if len(fn) > 4 and fn[4] in rows:
                name = fn[4]
            self_[name] = self_.get(name, 0.0) + s * f
            total[name] = total.get(name, 0.0) + tot * f
            owners[name] = owners.get(name, 0) + 1
            unkeyed[name] = (_file, s, tot)
    errs = []
    for name, r in rows.items():
        if name == "<no location>":
            continue
        if not close(self_.get(name, 0.0), r["flat"]):
            errs.append("%s: self %r, pcol flat %r" % (name, self_.get(name, 0.0), r["flat"]))
        if owners.get(name, 0) <= 1 and nrows[name] == 1 and not close(total.get(name, 0.0), r["cum"]):
            errs.append("%s: total %r, pcol cum %r" % (name, total.get(name, 0.0), r["cum"]))
    for name, (file, s, tot) in unkeyed.items():
        if name not in rows and (s or tot) and not (
                re.match(r"^0x[0-9a-f]+$", name) or name == "[unknown]" or (file and name.startswith(file))
                or (name == "(root)" and not s)
                or (file is None and re.match(r"^.+:\d+$", name, re.S))):
            errs.append("%s: a function the profiler shows and pcol top does not" % name)
    return "; ".join(errs[:8]) if errs else None

def main():
    lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
    tops = sys.argv[2:]
    if len(lines) != len(tops):
        sys.exit("judge gave %d results for %d files" % (len(lines), len(tops)))
    ok = bad = 0
    for j, tp in zip(lines, tops):
        imported = tp.endswith("@import")
        why = compare(j, json.load(open(tp[:-7] if imported else tp)), imported)
        nf = sum(len(t["funcs"]) for t in j.get("threads", []))
        if why:
            bad += 1
            print("FAIL %s: %s" % (j["file"], why))
        else:
            ok += 1
            print("ok   %s: %d threads, %d functions agree (v%s)" % (j["file"], len(j["threads"]), nf, j["version"]))
    print("%d passed, %d failed" % (ok, bad))
    sys.exit(1 if bad else 0)

main()
