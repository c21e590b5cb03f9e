#!/usr/bin/env python3
"""firefox_check.py EXPORT TOP_JSON — the structure of a processed profile
pcol wrote, read with python's json only (no Firefox Profiler needed; the
profiler's own code judges in tests/interop/t_firefox.sh):

- meta: the fields the profiler requires, version 70, a grey first category;
- shared tables: every column as long as its table, every index in range
  (stack -> frame -> func -> string / source), prefixOffset a prefix tree in
  topological order (0 <= offset <= index);
- threads: the required fields, sample columns as long as the table, stacks
  in range, times non-decreasing, a known weightType; long samples in
  samply's encoding (a start row of weight 1 followed by a rest row marked
  pcolDuration 0, CPU delta 0);
- the call tree read from the file: per function name, self and total
  (a sample counted once per name) equal pcol top's flat and cum (TOP_JSON:
  pcol top --format json --node-fraction 0), times the unit factor.
Exit 1 with the first problem."""
import gzip, json, sys

def load(path):
    raw = open(path, "rb").read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return json.loads(raw)

def need(cond, msg):
    if not cond:
        sys.exit("firefox_check: " + msg)

p = load(sys.argv[1])
top = json.load(open(sys.argv[2]))
m = p["meta"]
for k in ("interval", "startTime", "processType", "product", "stackwalk", "version",
          "preprocessedProfileVersion", "markerSchema", "categories"):
    need(k in m, "meta." + k + " missing")
need(m["preprocessedProfileVersion"] == 70, "version %r" % m["preprocessedProfileVersion"])
need(m["categories"] and m["categories"][0]["color"] == "grey", "first category is not grey")
sh = p["shared"]
strings = sh["stringArray"]
def table(name, cols):
    t = sh[name]
    for c in cols:
        need(len(t[c]) == t["length"], "%s.%s has %d entries for length %d" % (name, c, len(t[c]), t["length"]))
    return t
st = table("stackTable", ("frame", "prefixOffset"))
fr = table("frameTable", ("func", "line", "column", "inlineDepth", "address", "lib", "category",
                          "subcategory", "nativeSymbol", "innerWindowID", "originalLocation"))
fn = table("funcTable", ("name", "source", "lineNumber", "columnNumber", "isJS", "relevantForJS",
                         "resource", "originalLocation"))
src = table("sources", ("id", "filename", "startLine", "startColumn", "sourceMapURL", "content"))
for k in ("resourceTable", "nativeSymbols", "sourceLocationTable"):
    need("length" in sh[k], k + " missing")
for i in range(st["length"]):
    o = st["prefixOffset"][i]
    need(isinstance(o, int) and 0 <= o <= i, "stackTable.prefixOffset[%d] = %r" % (i, o))
    need(0 <= st["frame"][i] < fr["length"], "stackTable.frame[%d] out of range" % i)
for i in range(fr["length"]):
    need(0 <= fr["func"][i] < fn["length"], "frameTable.func[%d] out of range" % i)
    need(fr["category"][i] < len(m["categories"]), "frameTable.category[%d]" % i)
for i in range(fn["length"]):
    need(0 <= fn["name"][i] < len(strings), "funcTable.name[%d] out of range" % i)
    s = fn["source"][i]
    need(s is None or 0 <= s < src["length"], "funcTable.source[%d] out of range" % i)
for i in range(src["length"]):
    need(0 <= src["filename"][i] < len(strings), "sources.filename[%d] out of range" % i)

def parent(i):
    o = st["prefixOffset"][i]
    return None if o == 0 else i - o

unit = top.get("unit") or ""
scale = 1.0
if unit.startswith("1e-9"):
    scale, unit = 1e9, unit[4:].strip()
TIME = {"nanoseconds": 1e6, "ns": 1e6, "microseconds": 1e3, "us": 1e3, "milliseconds": 1.0, "ms": 1.0,
        "seconds": 1e-3, "s": 1e-3}
selfw, totw = {}, {}
for ti, t in enumerate(p["threads"]):
    for k in ("processType", "processStartupTime", "processShutdownTime", "registerTime",
              "unregisterTime", "pausedRanges", "name", "isMainThread", "pid", "tid", "samples", "markers"):
        need(k in t, "threads[%d].%s missing" % (ti, k))
    need(isinstance(t["pid"], str), "threads[%d].pid is not a string" % ti)
    s = t["samples"]
    n = s["length"]
    need(s["weightType"] in ("samples", "tracing-ms", "bytes"), "weightType %r" % s["weightType"])
    for c in ("stack", "time", "weight") + tuple(c for c in ("threadCPUDelta", "pcolDuration", "pcolWeight", "pcolCount") if c in s):
        need(len(s[c]) == n, "threads[%d].samples.%s length" % (ti, c))
    need(all(s["time"][i] <= s["time"][i + 1] for i in range(n - 1)), "threads[%d] times decrease" % ti)
    f = scale * (TIME.get(unit, 1.0) if s["weightType"] == "tracing-ms" else 1.0)
    for i in range(n):
        k = s["stack"][i]
        need(k is None or 0 <= k < st["length"], "threads[%d].samples.stack[%d] out of range" % (ti, i))
        if ("pcolDuration" in s and s["pcolDuration"][i] is not None and s["pcolDuration"][i] > 0
                and s["weight"][i] != s["pcolWeight"][i]):  # a long sample of one tick is one row
            need(s["weight"][i] * s["pcolWeight"][i] >= 0, "long sample weight sign")
            rest = [j for j in range(i + 1, n) if s["pcolDuration"][j] == 0 and s["stack"][j] == k]
            need(rest, "threads[%d]: long sample %d has no rest row" % (ti, i))
            j = rest[0]
            need(abs(s["weight"][i] + s["weight"][j] - s["pcolWeight"][i]) < 1e-9,
                 "threads[%d]: long sample %d: %r + %r != %r" % (ti, i, s["weight"][i], s["weight"][j], s["pcolWeight"][i]))
            need(s["time"][j] > s["time"][i], "rest row not after its start")
            if "threadCPUDelta" in s:
                need(s["threadCPUDelta"][j] in (0, None), "rest row's CPU delta %r" % s["threadCPUDelta"][j])
        if k is None:
            continue
        w = s["weight"][i] * f
        names = []
        while k is not None:
            names.append(strings[fn["name"][fr["func"][st["frame"][k]]]])
            k = parent(k)
        selfw[names[0]] = selfw.get(names[0], 0) + w
        for nm in set(names):
            totw[nm] = totw.get(nm, 0) + w
for r in top["rows"]:
    a, b = selfw.get(r["name"], 0), totw.get(r["name"], 0)
    need(abs(a - r["flat"]) <= 1e-6 * max(1, abs(a)), "%s: self %r, pcol flat %r" % (r["name"], a, r["flat"]))
    need(abs(b - r["cum"]) <= 1e-6 * max(1, abs(b)), "%s: total %r, pcol cum %r" % (r["name"], b, r["cum"]))
print("ok %s: %d threads, %d stacks, %d functions" % (sys.argv[1], len(p["threads"]), st["length"], fn["length"]))
