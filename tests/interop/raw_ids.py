#!/usr/bin/env python3
"""go tool pprof -raw's text with its location ids put out of the way, for
tests/interop/t_pprof_views.sh's comparison of a legacy CPU profile's -raw
with the -raw of pcol's pprof export of it:

  raw_ids.py RAW

Prints RAW with each sample's location ids replaced by the locations' text
(address, mapping, lines: what -raw prints after "N: "), and the Locations
section as those texts, sorted.  The ids are numbers each writer gives as
it meets the locations (go's legacy reader in its records' order, pcol's
export in its stacks' once pruned by drop_frames): they name nothing.  All
else is printed as it is, so that every sample (values, stack, labels, in
order), location and mapping is still compared."""
import re
import sys

text = open(sys.argv[1], encoding="utf-8", errors="surrogateescape").read().split("\n")
sec, locs, cur = "", {}, None
for ln in text:  # the locations first: a sample names them by id
    if ln in ("Samples:", "Locations", "Mappings"):
        sec = ln
        continue
    if sec == "Locations":
        m = re.match(r"^\s*([0-9]+): (.*)$", ln)
        if m:
            cur = m.group(1)
            locs[cur] = [m.group(2).rstrip()]
        elif cur is not None and ln.strip():
            locs[cur].append(ln.strip())
name = {k: " / ".join(v) for k, v in locs.items()}
sec = ""
out = []
for ln in text:
    if ln in ("Samples:", "Locations", "Mappings"):
        sec = ln
        out.append(ln)
        if ln == "Locations":
            out += sorted(name.values())
        continue
    if sec == "Locations":
        continue
    m = re.match(r"^(\s*-?[0-9][-0-9 ]*): ([0-9 ]*)$", ln) if sec == "Samples:" else None
    if m:
        ids = m.group(2).split()
        out.append(m.group(1) + ": " + " <- ".join(name.get(i, "?" + i) for i in ids))
    else:
        out.append(ln)
print("\n".join(out))
