#!/usr/bin/env python3
"""The OTLP judge of tests/cli/t_otlp.sh: reads what `protoc --decode`
(upstream's .proto files, format/opentelemetry/) prints for an OTLP
ProfilesData message and computes, for each Profile in file order, what the
message itself says: its sample type, the number of observations, the total
(the sum of the values; a timestamp without values counts 1) and the flat
value per innermost function name.  Nothing here comes from pcol.

  otlp_judge.py expect < decoded.txt > expect.json
  otlp_judge.py compare PCOL FILE.pcol expect.json    (one pcol source per Profile)
  otlp_judge.py gen DIR                               (the generated inputs, below)
"""
import json
import re
import subprocess
import sys

TOKEN = re.compile(r'\s*(?:(#[^\n]*)|([A-Za-z_][A-Za-z0-9_]*)|(:)|(\{)|(\})|("(?:[^"\\]|\\.)*")|([-+]?[0-9][0-9a-fA-FxX.eE+-]*))')


def parse_text(text):
    """protobuf text format -> {field: [values]} (messages as dicts)."""
    toks, i = [], 0
    while i < len(text):
        m = TOKEN.match(text, i)
        if not m or m.end() == i:
            if text[i:].strip() == "":
                break
            raise ValueError("cannot parse at %r" % text[i:i + 40])
        i = m.end()
        if m.group(1):
            continue
        toks.append(next(g for g in m.groups()[1:] if g is not None))
    pos = 0

    def unq(s):  # the bytes, as a latin-1 str
        return s[1:-1].encode("latin-1", "backslashreplace").decode("unicode_escape")

    def msg():
        nonlocal pos
        out = {}
        while pos < len(toks) and toks[pos] != "}":
            name = toks[pos]
            pos += 1
            if toks[pos] == ":":
                pos += 1
            if toks[pos] == "{":
                pos += 1
                v = msg()
                pos += 1  # }
            else:
                t = toks[pos]
                pos += 1
                v = unq(t) if t.startswith('"') else int(t, 0) if re.match(r"^[-+]?\d+$", t) else t
            out.setdefault(name, []).append(v)
        return out
    return msg()


def one(m, k, d=0):
    v = m.get(k)
    return v[0] if v else d


def profiles(decoded):
    """Each Profile of the message in file order: its type, unit and
    samples as (names leaf first, value, observations): the names of every
    line of every location of the stack, innermost first ("" when a line
    has no function name); value: the sum of the values, or one per
    timestamp when there are none."""
    d = parse_text(decoded)
    D = one(d, "dictionary", {})
    strs = [x.encode("latin-1").decode("utf-8", "replace") for x in D.get("string_table", [])]
    S = lambda i: strs[i] if 0 < i < len(strs) else ""
    fns = D.get("function_table", [])
    locs = D.get("location_table", [])
    stacks = D.get("stack_table", [])
    out = []
    for rp in d.get("resource_profiles", []):
        for sp in rp.get("scope_profiles", []):
            for p in sp.get("profiles", []):
                st = one(p, "sample_type", {})
                pt = one(p, "period_type", {})
                e = {"type": S(one(st, "type_strindex")), "unit": S(one(st, "unit_strindex")), "samples": [],
                     "period": int(one(p, "period", 0)), "period_unit": S(one(pt, "unit_strindex"))}
                for s in p.get("samples", []):
                    vals, ts = s.get("values", []), s.get("timestamps_unix_nano", [])
                    st_i = one(s, "stack_index")
                    names = []
                    for li in (stacks[st_i].get("location_indices", []) if 0 < st_i < len(stacks) else []):
                        for ln in (locs[li].get("lines", []) if 0 < li < len(locs) else []):
                            fi = one(ln, "function_index")
                            names.append(S(one(fns[fi], "name_strindex")) if 0 < fi < len(fns) else "")
                    e["samples"].append((names, sum(vals) if vals else len(ts),
                                         len(ts) if ts and len(vals) != 1 else 1))
                out.append(e)
    return out


def expect(decoded):
    out = []
    for p in profiles(decoded):
        e = {"type": p["type"], "unit": p["unit"], "total": 0, "observations": 0, "flat": {}}
        for names, v, obs in p["samples"]:
            e["total"] += v
            e["observations"] += obs
            if names and names[0]:
                e["flat"][names[0]] = e["flat"].get(names[0], 0) + v
        out.append(e)
    return out


def compare(pcol, path, exp):
    info = json.loads(subprocess.run([pcol, "info", path, "--format", "json"], check=True,
                                     capture_output=True, text=True).stdout)
    srcs = info["rows"]
    # a source holds the next Profiles, one per value type (OTLP splits a
    # profile's value types into Profiles; pcol joins them)
    k = 0
    pairs = []
    for i, row in enumerate(srcs, 1):
        for vt in (row["value_types"] or "").split(", "):
            if k >= len(exp):
                sys.exit("compare: source %d has more value types than the file has Profiles" % i)
            if vt != "%s/%s" % (exp[k]["type"], exp[k]["unit"]):
                sys.exit("compare: source %d value type %s, the file's Profile %d has %s/%s" % (
                    i, vt, k + 1, exp[k]["type"], exp[k]["unit"]))
            pairs.append((i, exp[k]))
            k += 1
    if k != len(exp):
        sys.exit("compare: %d value types in pcol, %d Profiles in the file" % (k, len(exp)))
    for i, e in pairs:
        r = subprocess.run([pcol, "top", path, "--source", str(i), "--value", e["type"],
                            "--node-fraction", "0", "-n", "100000000", "--format", "json"],
                           check=True, capture_output=True, text=True)
        t = json.loads(r.stdout)
        if t["total"] != e["total"] or t["unit"] != e["unit"]:
            sys.exit("source %d (%s/%s): total %s %s, the file says %s %s" % (
                i, e["type"], e["unit"], t["total"], t["unit"], e["total"], e["unit"]))
        flat = {}
        for row in t["rows"]:
            if row["flat"]:
                flat[row["name"]] = flat.get(row["name"], 0) + row["flat"]
        for name, v in e["flat"].items():
            if flat.get(name) != v:
                sys.exit("source %d: flat of %r is %s, the file says %s" % (i, name, flat.get(name), v))
    print("compare: %d Profiles in %d sources agree (totals and flat per function)" % (len(exp), len(srcs)))


# ------------------------------------------------------------ generated inputs
# A message like the eBPF profiler's (timestamps only, thread attributes, a
# trace link, build ids on mappings), a value-per-timestamp Profile, and two
# Profiles of one pprof-like profile (the same samples, two value types),
# in text format for `protoc --encode`; the same as OTLP/JSON.
GEN = {
    "strings": ["", "samples", "count", "cpu", "nanoseconds", "alloc_space", "bytes",
                "main", "work", "leaf", "/bin/app", "thread.name", "worker-1", "worker-2",
                "process.executable.build_id.gnu", "abcdef0123", "app.c", "wall"],
    "functions": [(7, 16, 1), (8, 16, 10), (9, 16, 20)],           # name, file, start
    "locations": [(1, 0x1000, [(1, 3)]), (1, 0x2000, [(2, 12)]), (1, 0x3000, [(3, 22), (2, 14)])],
    "stacks": [[3, 2, 1], [2, 1], [1]],
    "attrs": [(11, "worker-1"), (11, "worker-2"), (14, "abcdef0123")],
}
T0 = 1700000000000000000


def gen_text():
    g = GEN
    o = ["dictionary {"]
    o.append('  mapping_table {}')
    o.append('  mapping_table { memory_start: 4096 memory_limit: 65536 filename_strindex: 10 attribute_indices: 3 }')
    o.append('  location_table {}')
    for m, a, lines in g["locations"]:
        o.append("  location_table { mapping_index: %d address: %d %s }" % (m, a, " ".join(
            "lines { function_index: %d line: %d }" % l for l in lines)))
    o.append("  function_table {}")
    for n, f, s in g["functions"]:
        o.append("  function_table { name_strindex: %d filename_strindex: %d start_line: %d }" % (n, f, s))
    o.append("  link_table {}")
    o.append('  link_table { trace_id: "%s" span_id: "%s" }' % (
        "".join("\\%03o" % b for b in range(1, 17)), "".join("\\%03o" % b for b in range(17, 25))))
    for s in g["strings"]:
        o.append('  string_table: "%s"' % s)
    o.append("  attribute_table {}")
    for k, v in g["attrs"]:
        o.append('  attribute_table { key_strindex: %d value { string_value: "%s" } }' % (k, v))
    o.append("  stack_table {}")
    for s in g["stacks"]:
        o.append("  stack_table { %s }" % " ".join("location_indices: %d" % l for l in s))
    o.append("}")
    o.append('resource_profiles { resource { attributes { key: "service.name" value { string_value: "app" } } }')
    o.append('  scope_profiles { scope { name: "gen" version: "1" }')
    # eBPF-like: timestamps only, thread attributes, a link on one sample
    o.append("    profiles { sample_type { type_strindex: 1 unit_strindex: 2 } time_unix_nano: %d duration_nano: 5000000000"
             " period_type { type_strindex: 3 unit_strindex: 4 } period: 50000000" % T0)
    o.append("      samples { stack_index: 1 attribute_indices: 1 link_index: 1 timestamps_unix_nano: %d timestamps_unix_nano: %d }" % (T0 + 30, T0 + 10))
    o.append("      samples { stack_index: 2 attribute_indices: 2 timestamps_unix_nano: %d }" % (T0 + 20))
    o.append("      samples { stack_index: 3 attribute_indices: 1 timestamps_unix_nano: %d timestamps_unix_nano: %d timestamps_unix_nano: %d }" % (T0 + 5, T0 + 40, T0 + 41))
    o.append("    }")
    # value per timestamp
    o.append("    profiles { sample_type { type_strindex: 17 unit_strindex: 4 } time_unix_nano: %d" % T0)
    o.append("      samples { stack_index: 1 values: 100 values: 250 timestamps_unix_nano: %d timestamps_unix_nano: %d }" % (T0 + 1, T0 + 2))
    o.append("      samples { stack_index: 3 values: 70 timestamps_unix_nano: %d }" % (T0 + 3))
    o.append("    }")
    # two Profiles of one profile: the same samples, no timestamps
    for t, u, vals in ((1, 2, (3, 1, 2)), (5, 6, (4096, 512, 1 << 40))):
        o.append("    profiles { sample_type { type_strindex: %d unit_strindex: %d } time_unix_nano: %d" % (t, u, T0 + 7))
        for st, v in zip((1, 2, 3), vals):
            o.append("      samples { stack_index: %d attribute_indices: 2 values: %d }" % (st, v))
        o.append("    }")
    o.append("  }")
    o.append("}")
    return "\n".join(o) + "\n"


def camel(k):
    p = k.split("_")
    return p[0] + "".join(x[:1].upper() + x[1:] for x in p[1:])


INT64 = {"memory_start", "memory_limit", "file_offset", "address", "line", "column", "start_line",
         "values", "timestamps_unix_nano", "time_unix_nano", "duration_nano", "period", "int_value"}


def to_json(m):
    """text-format dict -> OTLP/JSON (lowerCamelCase, 64-bit integers as
    strings, trace and span ids in hex)"""
    out = {}
    for k, vs in m.items():
        conv = []
        for v in vs:
            if isinstance(v, dict):
                conv.append(to_json(v))
            elif k in ("trace_id", "span_id", "profile_id"):
                conv.append(v.encode("latin-1").hex())
            elif isinstance(v, str):
                conv.append(v.encode("latin-1").decode("utf-8"))
            else:
                conv.append(str(v) if k in INT64 else v)
        repeated = k in ("resource_profiles", "scope_profiles", "profiles", "samples", "values",
                         "timestamps_unix_nano", "attribute_indices", "location_indices", "lines",
                         "attributes") or k.endswith("_table")
        out[camel(k)] = conv if repeated else conv[0]
    return out


if __name__ == "__main__":
    if sys.argv[1] == "expect":
        json.dump(expect(sys.stdin.read()), sys.stdout)
    elif sys.argv[1] == "compare":
        compare(sys.argv[2], sys.argv[3], json.load(open(sys.argv[4])))
    elif sys.argv[1] == "gen":
        sys.stdout.write(gen_text())
    elif sys.argv[1] == "json":  # text format on stdin -> one OTLP/JSON line
        sys.stdout.write(json.dumps(to_json(parse_text(sys.stdin.read())), separators=(",", ":")) + "\n")
