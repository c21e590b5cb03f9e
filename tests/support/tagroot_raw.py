#!/usr/bin/env python3
"""tagroot_raw.py KEY INDEX [--sum] RAW PCOL.json

Reads `go tool pprof -raw -tagroot=KEY [filters]` output (the profile as
pprof holds it after -tagroot made its frames and the filters ran) and
prints, as TSV, what `pcol top --by label:KEY --relative-percentages` must
show: a line "total<TAB>T" (T = sum of |value| over the kept samples, the
relative total), then "NAME<TAB>V" for each -tagroot frame (a location whose
function's file is KEY, named by the label's values) with the summed value
of the samples that have it, sorted by name (not the frame named "" of the
samples without KEY: pcol makes no row for them).  INDEX: the sample value's
position (0-based), or "dflt": pprof's default, the type -raw marks
"[dflt]", else the last.  --sum: "rows<TAB>S" (the rows' sum) in place of
the rows, for numeric labels, whose frames pprof names by the raw number
where pcol names its rows as -tags does ("1kB").  PCOL.json: `pcol top
--by label:KEY --relative-percentages --format json` of the same profile
and filters, printed the same way; exit 0 when the two agree, else 1 with
both (tests/interop/t_pprof_views.sh).
"""
import json
import re
import sys


def pprof_side(raw, key, index, only_sum):
    lines = raw.split("\n")
    samples, frames = [], {}
    i, section = 0, None
    while i < len(lines):
        ln = lines[i]
        if ln in ("Samples:", "Locations", "Mappings"):
            section = ln
            if ln == "Samples:":  # then its line of types
                types = lines[i + 1].split()
                if index == "dflt":
                    index = next((j for j, t in enumerate(types) if t.endswith("[dflt]")), -1)
                index = int(index)
            i += 2 if ln == "Samples:" else 1
            continue
        if section == "Samples:":
            m = re.match(r"^\s+(-?\d+(?:\s+-?\d+)*): ?([\d ]*)$", ln)
            if m:
                vals = [int(x) for x in m.group(1).split()]
                locs = [int(x) for x in m.group(2).split()]
                samples.append((vals[index], locs))
        elif section == "Locations":
            # "     4: 0x0 NAME KEY:0 s=0()": a -tagroot frame (no mapping)
            m = re.match(r"^\s*(\d+): 0x0 (.*) (\S*):0 s=0(?:\(\))?$", ln)
            if m and m.group(3) == key:
                frames[int(m.group(1))] = m.group(2)
        i += 1
    total, sums = 0, {}
    for v, locs in samples:
        total += abs(v)
        for name in {frames[x] for x in locs if x in frames}:
            sums[name] = sums.get(name, 0) + v
    sums.pop("", None)  # samples without KEY: pcol makes no row for them
    return lines_of(total, sums, only_sum)


def lines_of(total, sums, only_sum):
    out = ["total\t%d" % total]
    if only_sum:
        return out + ["rows\t%d" % sum(sums.values())]
    return out + ["%s\t%d" % (k, sums[k]) for k in sorted(sums)]


def main():
    key, index = sys.argv[1], sys.argv[2]
    only_sum = "--sum" in sys.argv[3:]
    raw, pc = [a for a in sys.argv[3:] if a != "--sum"]
    with open(raw, encoding="utf-8", errors="surrogateescape") as fh:
        raw_text = fh.read()
    go = pprof_side(raw_text, key, index, only_sum)
    try:
        with open(pc, encoding="utf-8", errors="surrogateescape") as fh:
            d = json.load(fh)
        mine = lines_of(d["total"], {r["name"]: r["cum"] for r in d["rows"]}, only_sum)
    except (ValueError, KeyError) as e:
        mine = ["no JSON from pcol: %s" % e]
    if "Samples:" not in raw_text.split("\n"):
        go = ["no profile from pprof -raw"]
    if go == mine:
        return 0
    print("  pprof -raw -tagroot: " + " | ".join(go[:12]))
    print("  pcol top --by label: " + " | ".join(mine[:12]))
    return 1


if __name__ == "__main__":
    sys.exit(main())
