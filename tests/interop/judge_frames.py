#!/usr/bin/env python3
"""judge_frames.py PCOL INPUT JUDGE_RECORD SCALE — speedscope's frames, one
per key in each profile (speedscope_any_judge.cjs's "keys"), against pcol's
functions of the same input, for tests/interop/t_import_judged.sh: the
sources (in order) and speedscope's profiles (in order) pair up (the pid and
tid in a source's URI are those in the profile's name), and in each, every
function's system_name is a key speedscope has there, with its name, its
self weight (the samples it ends) and total (the samples it is on, once a
sample) divided by SCALE equal to that frame's; a function speedscope has
not, or a second of one key, only with weight 0 (a sample speedscope does
not keep).  Exit 1 with the differences."""
import json, re, subprocess, sys
from fractions import Fraction

def table(pcol, inp, name):
    p = subprocess.run([pcol, "cat", inp, "--table", name, "--format", "jsonl"], capture_output=True)
    if p.returncode:
        sys.exit("pcol cat --table %s: %s" % (name, p.stderr.decode(errors="replace").strip()))
    out = p.stdout.decode()
    return [json.loads(l) for l in out.splitlines() if l.strip()]

def pid_tid(name):
    return re.findall(r"\b(pid|tid) ([^,)]*)", name)

def main():
    pcol, inp, rec, scale = sys.argv[1], sys.argv[2], sys.argv[3], Fraction(sys.argv[4])
    r = json.loads(open(rec).read())
    if "error" in r:
        sys.exit("speedscope: " + r["error"])
    fn = {f["function_id"]: (f["name"], f["system_name"]) for f in table(pcol, inp, "functions")}
    loc = {l["location_id"]: fn[l["function_id"]] for l in table(pcol, inp, "locations")}
    src = {s["sample_id"]: s["source_id"] for s in table(pcol, inp, "samples")}
    val = {v["sample_id"]: Fraction(v["value"]) / scale for v in table(pcol, inp, "sample_values")}
    stacks = {}
    for sl in table(pcol, inp, "sample_locations"):
        stacks.setdefault(sl["sample_id"], []).append((sl["depth"], loc[sl["location_id"]]))
    mine = {}  # source -> (name, key) -> [self, total]
    for sid, fr in stacks.items():
        fr.sort()
        w, per = val.get(sid, 0), mine.setdefault(src[sid], {})
        for f in set(f for _, f in fr):
            per.setdefault(f, [0, 0])[1] += w
        per.setdefault(fr[0][1], [0, 0])[0] += w
    sources = sorted((s["source_id"], s["source_uri"]) for s in table(pcol, inp, "sources"))
    bad = []
    if len(sources) != len(r["profiles"]):
        bad.append("pcol has %d sources, speedscope %d profiles" % (len(sources), len(r["profiles"])))
    n = 0
    for (sid, uri), p in zip(sources, r["profiles"]):
        if pid_tid(uri) != pid_tid(p["name"]):
            bad.append("source %d %r is not speedscope's profile %r" % (sid, uri, p["name"]))
        theirs, seen = p["keys"], set()
        for (name, key), (s, t) in sorted(mine.get(sid, {}).items()):
            if not s and not t and (key not in theirs or theirs[key][0] != name):
                continue  # (of samples that weigh 0 only)
            e = theirs.get(key)
            if key in seen or not e or e[0] != name or Fraction(e[1]) != s or Fraction(e[2]) != t:
                bad.append("%s: %r (%r): pcol self %s total %s, speedscope %s" % (p["name"], name, key, float(s), float(t), e))
            seen.add(key)
            n += 1
        for key, e in theirs.items():
            if key not in seen:
                bad.append("%s: %r (%r): speedscope %s, pcol none" % (p["name"], e[0], key, e))
    if bad:
        print("\n".join(bad[:20]))
        sys.exit(1)
    print("%d frames agree" % n)

main()
