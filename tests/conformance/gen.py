#!/usr/bin/env python3
"""gen.py — writes the pcol conformance suite (spec.md §12) from spec.md's rules.

    python3 tests/conformance/gen.py [DIR]          the committed files (default: files/)
    python3 tests/conformance/gen.py --large DIR    the file of 64 MiB of rule T1, made
                                                    at test time, never committed

Every file is built by pcolgen.py (a writer written from spec.md alone, no
libpcol); expected views come from the same logical tables through spec.md
§11.  Each invalid file is a valid one with one change, named by the rule
of spec.md §8 it breaks.  Output is deterministic.
"""
import json
import os
import struct
import sys
import zlib

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pcolgen import (  # noqa: E402
    BLOCKS_1_4, SPLIT_LANES_1_5, BYTES, CODECS_1_1, COMPACT_1_2, DELTA, ENCODED, ENCODED_1_3, F64, I64, NA, NAN, ROWREL, SIGNED, SPLIT, TABLE_ID, U8, U32,
    U64, WIDTH, Entry, Lane, Profile, column, enc_lanes, enc_layout, encoded, f64, find, in_place,
    lz4_compress, lz4_decode, lz4_sequences, pack, put, rowcount, blocks_layout, transformed,
    serialize, serialize_compact, split_bytes, views, views_text, zstd_compress, zstd_frame, zstd_block,
    ZSTD_MAGIC)

CASES = []  # (name, verdict, rule, stage, description, bytes, views or None)


def case(name, verdict, rule, stage, desc, data, views=None):
    assert all(c[0] != name for c in CASES), name
    if verdict == "valid":
        assert views is not None and rule == "-" and stage == "-"
    CASES.append((name, verdict, rule, stage, desc, data, views))


# ------------------------------------------------------------- profiles
def rich():
    """Every table and column, NA and 0 references, flags, odd bytes."""
    p = Profile()
    S = p.s
    a = p.add("sources", source_type=S("rprof"), source_uri=S("a.out"), source_timestamp=1700000000)
    b = p.add("sources", source_type=S("pprof"))
    p.add("meta", key=S("k1"), value=S("v1"), source_id=a)
    p.add("meta", key=S("bin"), value=S(b"a\x00b"))  # file-level: source_id 0 shows null
    p.add("meta", key=S("pcol.max_duration_ns"), value=S("30"), source_id=a)
    p.add("meta", key=S("pcol.max_duration_ns"), value=S("5"), source_id=a)  # ignored: not first
    p.add("meta", key=S("pcol.max_duration_ns"), value=S("x"))  # ignored: file-level
    p.add("meta", value=S(""))
    cpu = p.add("value_types", type=S("cpu"), unit=S("nanoseconds"))
    alloc = p.add("value_types", type=S("alloc"), unit=S("bytes"))
    anon = p.add("value_types")
    p.add("source_value_types", source_id=a, value_type_id=cpu)
    p.add("source_value_types", source_id=a, value_type_id=alloc)
    p.add("source_value_types", source_id=b, value_type_id=anon)
    p.add("source_value_types")
    main = p.add("functions", name=S("main"), system_name=S("_main"), filename=S("main.c"),
                 start_line=10)
    leaf = p.add("functions", name=S("caf\xc3\xa9".encode("latin-1")))  # UTF-8 é
    odd = p.add("functions", name=S(b"\xe9t\xe9"), filename=S(b"tab\there\nnl"), start_line=-5)
    p.add("functions", name=S('quote"back\\slash'), system_name=S(b"nul\x00\x7f\x1f"),
          start_line=NA + 1)
    m1 = p.add("mappings", memory_start=0x400000, memory_limit=0x500000, file_offset=0x1000,
               filename=S("/bin/x"), build_id=S("abc123"), flags=1 | 8)
    m2 = p.add("mappings", memory_start=2 ** 64 - 1, flags=15, build_id=S(b"\xf0\x9f\x98\x80"))
    p.add("mappings", filename=S(b"\xed\xa0\x80 \xf4\x90\x80\x80 \xe0\x80\x80 \xc0\xaf"))
    l1 = p.add("locations", mapping_id=m1, address=0x401000,
               lines=[dict(function_id=main, line=12, column=3)])
    l2 = p.add("locations", mapping_id=m1, address=0x401100, flags=1,
               lines=[dict(function_id=leaf, line=5), dict(function_id=main, line=13, column=1)])
    l3 = p.add("locations", address=2 ** 63)
    l4 = p.add("locations", mapping_id=m2, lines=[dict(), dict(function_id=odd, line=NA + 1)])
    s1 = p.add("stacks", location_id=l1)
    s2 = p.add("stacks", parent_id=s1, location_id=l2)
    s3 = p.add("stacks", parent_id=s2, location_id=l3)
    s4 = p.add("stacks", location_id=l4)
    p.add("stacks", parent_id=s4, location_id=l4)
    t, k = S("thread"), S("key")
    ls1 = p.add("labelsets", labels=[
        dict(key=t, str=S("t1")),  # a string label: num 0 shows null
        dict(key=S("bytes"), num=-7, num_unit=S("bytes")),
        dict(key=k, str=S("")),  # the empty string is not NA: num still null
        dict(key=k, str=S("s"), num=7),
        dict(key=k),  # no string: num 0 shows 0
        dict(key=k, str=S("s"), num=NA),
        dict(str=S(b"\xc3\x28 \xe2\x82"), num=2 ** 63 - 1)])
    ls2 = p.add("labelsets")  # an empty label set
    ls3 = p.add("labelsets", labels=[dict(key=t, str=S("t2"))])
    p.add("samples", source_id=a, time_ns=0, stack_id=s3, labelset_id=ls1,
          values=[dict(value_type_id=cpu, value=2 ** 63 - 1), dict(value_type_id=alloc, value=NA + 1)])
    p.add("samples", source_id=a, time_ns=10, duration_ns=30, weight=3, cpu_delta_ns=5,
          values=[dict(value_type_id=cpu, value=6)])
    p.add("samples", source_id=a, time_ns=10, weight=NA, cpu_delta_ns=0, stack_id=s1,
          labelset_id=ls3, values=[dict(value_type_id=alloc, value=NA), dict(value_type_id=anon)])
    p.add("samples", source_id=b, stack_id=s4, labelset_id=ls2, duration_ns=NA)
    p.add("samples", source_id=b, time_ns=-5, weight=0, stack_id=5)
    p.add("samples", source_id=b, time_ns=100, weight=-2, labelset_id=ls3)
    p.add("text_lines", source_id=a, before_sample=1, text=S("sample.interval=10000"))
    p.add("text_lines", source_id=a, before_sample=3, text=S("#File 1: x.R"))
    p.add("text_lines", source_id=b, before_sample=7, text=S(b"trailing \xff"))
    p.add("text_lines", before_sample=4)
    p.add("sample_text", sample_id=1, text=S("raw line"))
    p.add("sample_text", sample_id=6, text=S(b"\xff\xfe"))
    p.add("models", source_id=a, uid=S("f"), model=S("linear"), method=S("full"),
          r_square=f64(0.5), x_start=f64(-0.0), x_end=f64(float("inf")),
          coeffs=S('[{"name": "b0", "value": 1.5}]'))
    p.add("models", x_start=0x7FF0000000000001, x_end=f64(float("-inf")))  # NaN payload: null
    p.add("models", source_id=b, r_square=f64(0.1), x_start=f64(1e300), x_end=f64(5e-324))
    p.add("models", r_square=f64(1e16), x_start=f64(123456789.125), x_end=f64(-1e-7))
    return p


def small():
    """The base of most invalid files: a little of everything."""
    p = Profile()
    S = p.s
    src = p.add("sources", source_type=S("rprof"), source_uri=S("a.out"))
    vt = p.add("value_types", type=S("mem"), unit=S("bytes"))
    fn = p.add("functions", name=S("f"), filename=S("f.R"))
    mp = p.add("mappings", memory_start=4096, flags=1)
    loc = p.add("locations", mapping_id=mp, address=4100, lines=[dict(function_id=fn, line=3)])
    p.add("locations", flags=1, lines=[dict(function_id=fn, line=4)])
    st = p.add("stacks", location_id=loc)
    p.add("stacks", parent_id=st, location_id=2)
    ls = p.add("labelsets", labels=[dict(key=S("thread"), str=S("main"))])
    p.add("samples", source_id=src, time_ns=0, stack_id=2, labelset_id=ls,
          values=[dict(value_type_id=vt, value=100)])
    p.add("samples", source_id=src, time_ns=20, duration_ns=20, weight=2, stack_id=1,
          values=[dict(value_type_id=vt, value=40)])
    p.add("meta", key=S("pcol.max_duration_ns"), value=S("20"), source_id=src)
    p.add("text_lines", source_id=src, before_sample=1, text=S("header"))
    p.add("sample_text", sample_id=2, text=S("raw"))
    p.add("models", source_id=src, uid=S("u"), r_square=f64(0.25))
    return p


def tiny():
    """The base of the header, directory and whole-file cases: one source, one
    function, two samples (the second long), a declared longest duration."""
    p = Profile()
    S = p.s
    src = p.add("sources", source_type=S("rprof"))
    p.add("meta", key=S("pcol.max_duration_ns"), value=S("20"), source_id=src)
    p.add("functions", name=S("f"))
    p.add("samples", source_id=src, time_ns=0)
    p.add("samples", source_id=src, time_ns=20, duration_ns=20, weight=2)
    return p


def tiny_entries(**kw):
    p = tiny()
    return p, pack(p.materialize(), **kw)


def valid(name, desc, p, data=None, **kw):
    M = p.materialize()
    if data is None:
        data = serialize(pack(M, **kw))
    case(name, "valid", "-", "-", desc, data, views_text(M, p.strings))


RANGES = {}  # name -> text of NAME.ranges: views of `cat --from A --to B` (spec.md §7.1)


def ticks_before(t, d, n, x):
    """R(x) of spec.md §7.1, "Time ranges": the ticks of a long sample before x."""
    if x <= t:
        return 0
    a = (x - t) * n
    return min(n, -(-a // d))


def scale(v, num, den):
    """pcol_scale: v x num / den, nearest, halves away from zero."""
    p = v * num
    q, r = abs(p) // den, abs(p) % den
    if 2 * r >= den:
        q += 1
    return q if p >= 0 else -q


def interval_sources(q):
    """The sources marked as intervals (spec.md §7.1, "Interval sources"): the
    first meta row with key pcol.intervals of a source s >= 1, value "1"."""
    first = {}
    for row in q.t[TABLE_ID["meta"]]:
        s = row.get("source_id", 0)
        if s and q.strings[row.get("key", 0)] == b"pcol.intervals" and s not in first:
            first[s] = q.strings[row.get("value", 0)] == b"1"
    return {s for s, m in first.items() if m}


def ranged(name, desc, build, cuts):
    """A valid file and, for each range (A, B) in ns, the samples and
    sample_values views that `pcol cat --from A --to B` shows: the file's
    selected rows (their ids as stored) with every long sample cut by the
    range rule of spec.md §7.1 (ticks; intervals in marked sources)."""
    p = build()
    valid(name, desc, p)
    out = []
    for a, b in cuts:
        q = build()
        marked, left = interval_sources(q), set()
        for i, row in enumerate(q.t[TABLE_ID["samples"]]):
            t, d, w = row.get("time_ns", NA), row.get("duration_ns", 0), row.get("weight", 1)
            if t == NA:
                left.add(i + 1)
                continue
            if d == NA or d <= 0:
                if not a <= t < b:
                    left.add(i + 1)
                continue
            n = d if row.get("source_id", 1) in marked and w <= 1 else max(w, 1)
            k0, k1 = ticks_before(t, d, n, a), ticks_before(t, d, n, b)
            k = k1 - k0
            if k <= 0:
                left.add(i + 1)
                continue
            row["time_ns"] = t + k0 * d // n
            row["duration_ns"] = k1 * d // n - k0 * d // n
            row["weight"] = scale(w, k, n)
            if k0 and row.get("cpu_delta_ns", NA) != NA:
                row["cpu_delta_ns"] = 0
            for v in row.get("values", []):
                if v.get("value", 0) != NA:
                    v["value"] = scale(v.get("value", 0), k, n)
        v = views(q.materialize(), q.strings)
        for view in ("samples", "sample_values"):
            out.append("# range %s %d %d" % (view, a, b))
            out.extend(x for x in v[view] if json.loads(x)["sample_id"] not in left)
    RANGES[name] = "\n".join(out) + "\n"


COUNTS = {}  # name -> text of NAME.counts: each value's sum and total (spec.md §6.11)


def base_marks(q):
    """The marks of spec.md §6.11: source -> set of "true" (pprof.diff_base
    true), "signed" (pprof.diff_base signed), "base" (pprof.base true), from
    every meta row of a source s >= 1; other values and file-level rows mark
    nothing."""
    marks = {}
    for row in q.t[TABLE_ID["meta"]]:
        s = row.get("source_id", 0)
        k, v = q.strings[row.get("key", 0)], q.strings[row.get("value", 0)]
        m = {(b"pprof.diff_base", b"true"): "true", (b"pprof.diff_base", b"signed"): "signed",
             (b"pprof.base", b"true"): "base"}.get((k, v))
        if s and m:
            marks.setdefault(s, set()).add(m)
    return marks


def amounts(q, value):
    """spec.md §6.4 and §6.11: each sample's (stack, label set, amount) for
    `value` ("samples", "weight" or a type name), or the reason a reader
    refuses to show it."""
    S, marks = q.strings, base_marks(q)
    vtype = {i + 1: (S[r.get("type", 0)], S[r.get("unit", 0)])
             for i, r in enumerate(q.t[TABLE_ID["value_types"]])}
    counted = {r.get("source_id", 0) for r in q.t[TABLE_ID["source_value_types"]]
               if vtype.get(r.get("value_type_id", 0)) == (b"samples", b"count")}
    whole = {s for s, m in marks.items() if m & {"true", "base"}}
    stypes = [S[r.get("source_type", 0)] for r in q.t[TABLE_ID["sources"]]]
    rows = q.t[TABLE_ID["samples"]]
    if value == "weight" and whole:
        return "refused"  # a whole base's weights are raw samples, never negative
    if value == "samples":
        for r in rows:  # a pprof difference that marks no base: no count
            s = r.get("source_id", 0)
            if (stypes[s - 1] == b"pprof" and s not in counted and s not in marks and
                    any(v.get("value", 0) < 0 for v in r.get("values", []))):
                return "refused"
    out = []
    for r in rows:
        s, w = r.get("source_id", 0), r.get("weight", 1)
        if value == "weight":
            a = w
        elif value == "samples":
            firsts = [v.get("value", 0) for v in r.get("values", [])
                      if vtype[v.get("value_type_id", 0)] == (b"samples", b"count")]
            if s in counted:
                a = firsts[0] if firsts else w
            else:
                a = -w if s in whole else w
        else:
            firsts = [v.get("value", 0) for v in r.get("values", [])
                      if vtype[v.get("value_type_id", 0)][0] == value.encode()]
            if not firsts:
                continue
            a = firsts[0]
        out.append((s, r.get("stack_id", 0), r.get("labelset_id", 0), a))
    return out


def grouped(rows):
    """pprof's total: the samples merged by (stack, label set), |sum| each."""
    g = {}
    for _, st, ls, a in rows:
        g[(st, ls)] = g.get((st, ls), 0) + a
    return sum(abs(x) for x in g.values())


def count_line(q, value):
    """`VALUE SUM TOTAL` (or `VALUE refused`) of spec.md §6.11: the sum of
    the amounts of the samples with a stack (top's rows), and the total
    shares are of (of every sample)."""
    rows = amounts(q, value)
    if rows == "refused":
        return "%s refused" % value
    marks = base_marks(q)
    kinds = set().union(*marks.values()) if marks else set()
    total = None
    if "base" in kinds:
        total = grouped(rows)
    elif kinds & {"true", "signed"}:
        S = q.strings
        lsets = q.t[TABLE_ID["labelsets"]]
        based = {i + 1 for i, ls in enumerate(lsets)
                 if any(S[l.get("key", 0)] == b"pprof::base" and l.get("str", 0) and
                        S[l["str"]] == b"true" for l in ls.get("labels", []))}
        tb = grouped([r for r in rows if marks.get(r[0], set()) & {"true", "signed"} and r[2] in based])
        total = tb if tb > 0 else None
    if total is None:
        total = grouped(rows) if any(r[3] < 0 for r in rows) else sum(r[3] for r in rows)
    return "%s %d %d" % (value, sum(r[3] for r in rows if r[1]), total)


def counted(name, desc, build, values):
    """A valid file and NAME.counts: for each value, what `pcol top --value
    VALUE` adds up and the total of its shares (spec.md §6.11)."""
    valid(name, desc, build())
    COUNTS[name] = "".join(count_line(build(), v) + "\n" for v in values)


def small_entries(**kw):
    p = small()
    return p, pack(p.materialize(), **kw)


def bad(name, rule, stage, desc, entries=None, verdict="invalid", **ser):
    if entries is None:
        entries = tiny_entries()[1]
    case(name, verdict, rule, stage, desc, serialize(entries, **ser))


def hook_at(at, fmt, value):
    def h(buf, layout):
        put(buf, at, fmt, value)
    return h


def sort(entries):
    return sorted(entries, key=lambda e: e.key())


# ----------------------------------------------------------- valid files
def valid_cases():
    case("valid-empty", "valid", "-", "-", "64 bytes: a header and no tables",
         serialize([]), views_text(Profile().materialize(), [b""]))
    valid("valid-rich", "every table and column: NA, 0 references, flags, odd bytes, "
          "label num rules, NaN payloads, infinities, file-level meta", rich())
    valid("valid-rich-lz4", "valid-rich with every section LZ4-coded, also where LZ4 is "
          "larger than raw", rich(), codec=lambda t, c, ty: 1)
    valid("valid-rich-stored-defaults", "valid-rich storing every column, all-default ones "
          "too (a reader treats both alike)", rich(), store_all=True)
    valid("valid-small", "the base of the first-use cases", small())
    valid("valid-tiny", "the base of the header, directory and whole-file cases", tiny())

    # the range rule (§7.1): a long sample of 4 ticks at 1, 2, 3, 4 ms, values 4 x 10 and
    # 4 x 7 + 1 (not a multiple: rounded), cut by ranges between ticks; a point sample
    def ticks():
        p = Profile()
        S = p.s
        src = p.add("sources", source_type=S("rprof"))
        c = p.add("value_types", type=S("cpu"), unit=S("nanoseconds"))
        m = p.add("value_types", type=S("m"), unit=S("count"))
        p.add("functions", name=S("f"))
        p.add("samples", source_id=src, time_ns=1000000, duration_ns=4000000, weight=4,
              cpu_delta_ns=9, values=[dict(value_type_id=c, value=4000000),
                                      dict(value_type_id=m, value=29)])
        p.add("samples", source_id=src, time_ns=3000000, values=[dict(value_type_id=c, value=1)])
        return p
    ranged("valid-range-ticks", "a long sample of 4 ticks and a point sample; NAME.ranges: "
           "`cat --from --to` cuts it by the range rule (ticks inside the range)", ticks,
           [(2500000, 3500000), (0, 3000001), (2000001, 6000000), (1000000, 5000000)])

    # subtracted bases (§6.11): the count of a row and the total of shares
    def based(kind):
        def build():
            p = Profile()
            S = p.s
            cpu = p.add("value_types", type=S("cpu"), unit=S("nanoseconds"))
            cnt = p.add("value_types", type=S("samples"), unit=S("count"))
            f0 = p.add("functions", name=S("main"))
            fs = {n: p.add("functions", name=S(n)) for n in ("f", "g", "h")}
            root = p.add("stacks", location_id=p.add("locations", lines=[dict(function_id=f0)]))
            st = {n: p.add("stacks", parent_id=root,
                           location_id=p.add("locations", lines=[dict(function_id=i)]))
                  for n, i in fs.items()}
            base = p.add("labelsets", labels=[dict(key=S("pprof::base"), str=S("true"))])
            near = p.add("labelsets", labels=[dict(key=S("pprof::base"), str=S("TRUE"))])

            def src(ty, types, marks):
                s = p.add("sources", source_type=S(ty))
                for t in types:
                    p.add("source_value_types", source_id=s, value_type_id=t)
                for k, v in marks:
                    p.add("meta", key=S(k), value=S(v), source_id=s)
                return s

            def smp(s, n, w=1, ls=0, **vals):
                p.add("samples", source_id=s, stack_id=st[n], weight=w, labelset_id=ls,
                      values=[dict(value_type_id={"cpu": cpu, "cnt": cnt}[k], value=v)
                              for k, v in vals.items()])
            D = ("pprof.diff_base", kind)
            if kind == "true":  # pcol_open_diff_base's: the base's sources whole
                a = src("pprof", [cpu], [])  # the profile, no samples/count: its weights
                smp(a, "f", cpu=10), smp(a, "g", cpu=20), smp(a, "f", cpu=5)
                b = src("pprof", [cpu], [D])  # its base: -weight, values negated
                smp(b, "f", ls=base, cpu=-4), smp(b, "h", w=2, ls=base, cpu=-6)
                smp(b, "g", cpu=-3)  # no label: counted, not in the total
                c = src("pprof", [cnt, cpu], [])  # a profile with samples/count
                smp(c, "f", w=1, cnt=2, cpu=7)
                d = src("pprof", [cnt, cpu], [D])  # its base: the stored count
                smp(d, "f", ls=base, cnt=-1, cpu=-2)
                smp(d, "g", ls=base, cpu=-1)  # no samples/count of its own: its weight
                e = src("collapsed", [], [("pprof.diff_base", "yes")])  # an unknown value: nothing
                smp(e, "f", w=3, ls=base)
                g = src("pprof", [cpu], [("pprof.diff_base", "signed"), D])  # true wins
                smp(g, "f", ls=base, cpu=-5)
                p.add("meta", key=S("pprof.diff_base"), value=S("true"))  # file-level: nothing
            else:  # go tool pprof -proto -diff_base read by pcol: weights signed
                a = src("pprof", [cpu], [D])
                smp(a, "f", cpu=10), smp(a, "g", cpu=20)
                smp(a, "f", w=-1, ls=base, cpu=-4), smp(a, "h", w=-1, ls=base, cpu=-6)
                smp(a, "g", w=-1, ls=near, cpu=-3)  # "TRUE": not the base's
                p.add("samples", source_id=a, weight=-1, labelset_id=base,  # no stack: in the total
                      values=[dict(value_type_id=cpu, value=-8)])
                b = src("pprof", [cnt, cpu], [D])
                smp(b, "f", cnt=2, cpu=7), smp(b, "f", w=-1, ls=base, cnt=-1, cpu=-2)
                c = src("pprof", [cpu], [("pprof.base", "signed")])  # -base knows no "signed"
                smp(c, "g", ls=base, cpu=1)
            return p
        return build
    counted("valid-diff-base-true", "subtracted bases (meta pprof.diff_base true, spec.md §6.11): "
            "a count-less base counts -weight, a counted one its samples/count; the total of the "
            "shares is the base's labelled samples'; unknown and file-level marks are nothing; "
            "NAME.counts: `top --value`'s sum and total", based("true"),
            ["samples", "cpu", "weight"])
    counted("valid-diff-base-signed", "a -diff_base's base among the samples (meta pprof.diff_base "
            "signed, spec.md §6.11): each row counts its weight as stored; NAME.counts", based("signed"),
            ["samples", "cpu", "weight"])

    def unmarked():  # go tool pprof -proto -base of count-less profiles: no mark, negative rows
        p = Profile()
        S = p.s
        cpu = p.add("value_types", type=S("cpu"), unit=S("nanoseconds"))
        f = p.add("functions", name=S("f"))
        g = p.add("functions", name=S("g"))
        sf = p.add("stacks", location_id=p.add("locations", lines=[dict(function_id=f)]))
        sg = p.add("stacks", location_id=p.add("locations", lines=[dict(function_id=g)]))
        s = p.add("sources", source_type=S("pprof"))
        p.add("source_value_types", source_id=s, value_type_id=cpu)
        for stack, v in ((sf, 30), (sg, -10), (sf, -5)):
            p.add("samples", source_id=s, stack_id=stack, values=[dict(value_type_id=cpu, value=v)])
        return p
    counted("valid-diff-unmarked", "a pprof source without samples/count whose samples hold a "
            "negative value and no base mark (go tool pprof -proto -base): no count (spec.md "
            "§6.11); NAME.counts", unmarked, ["samples", "cpu", "weight"])

    # interval sources (§7.1): a marked source's long samples of weight <= 1 are
    # cut by their nanoseconds, its coalesced run (weight 4) and an unmarked twin
    # by ticks; values that are multiples of the duration (wall) and not (m)
    def intervals(mark=True):
        def build():
            p = Profile()
            S = p.s
            wall = p.add("value_types", type=S("wall"), unit=S("nanoseconds"))
            m = p.add("value_types", type=S("m"), unit=S("count"))
            p.add("functions", name=S("f"))
            for src, marked in ((1, mark), (2, False)):
                p.add("sources", source_type=S("chrome"))
                if marked:
                    p.add("meta", key=S("pcol.intervals"), value=S("1"), source_id=src)
                    p.add("meta", key=S("pcol.max_duration_ns"), value=S("3000"), source_id=src)
                for t, d, w, x in ((0, 1000, 1, 7), (1000, 3000, 1, 5), (2000, 0, 1, 1), (2500, 1000, 4, 8),
                                   (2600, 700, 0, 3)):
                    p.add("samples", source_id=src, time_ns=t, duration_ns=d, weight=w, cpu_delta_ns=11,
                          values=[dict(value_type_id=wall, value=d), dict(value_type_id=m, value=x)])
            return p
        return build
    ranged("valid-range-intervals", "a source marked as intervals (meta pcol.intervals 1): its long "
           "samples of weight <= 1 counted by the part inside a range, a coalesced run (weight 4) by "
           "ticks; an unmarked twin source by ticks; NAME.ranges: `cat --from --to`", intervals(),
           [(500, 2600), (2600, 4000), (0, 1), (1, 3999), (999, 1001), (0, 10000), (3000, 3300), (1700, 2400)])
    # hostile marks and durations: "yes" first (later "1" ignored), "1" then "0"
    # (marked), " 1", a file-level "1" and a near-miss key (nothing), a marked source of negative, NA
    # and zero durations (point samples), one whose t + d passes int64
    def hostile():
        p = Profile()
        S = p.s
        wall = p.add("value_types", type=S("wall"), unit=S("nanoseconds"))
        p.add("functions", name=S("f"))
        for _ in range(5):
            p.add("sources", source_type=S("chrome"))
        for src, vals in ((1, ("yes", "1")), (2, ("1", "0")), (3, (" 1",)), (4, ("1",)), (5, ("1",))):
            for x in vals:
                p.add("meta", key=S("pcol.intervals"), value=S(x), source_id=src)
        p.add("meta", key=S("pcol.intervals"), value=S("1"))
        p.add("meta", key=S("pcol.intervals"), value=S("1"), source_id=3)
        p.t[TABLE_ID["meta"]][-1]["key"] = S("pcol.intervals ")  # not the key
        for src in (1, 2, 3):
            p.add("samples", source_id=src, time_ns=100, duration_ns=1000, weight=1,
                  values=[dict(value_type_id=wall, value=1000)])
        for t, d in ((100, -5), (200, NA), (300, 0), (400, 10)):
            p.add("samples", source_id=4, time_ns=t, duration_ns=d, weight=1, values=[dict(value_type_id=wall, value=7)])
        big = 9 * 10 ** 18
        for t, d in ((100, -7), (200, NA), (big, big)):
            p.add("samples", source_id=5, time_ns=t, duration_ns=d, weight=1,
                  values=[dict(value_type_id=wall, value=d if d != NA else 0)])
        return p
    ranged("valid-range-intervals-hostile", "pcol.intervals \"yes\" then \"1\" (not marked), \"1\" then "
           "\"0\" (marked), \" 1\", file-level \"1\", a near-miss key (none marks); a marked source of negative, NA and 0 durations (point "
           "samples), one whose time + duration passes int64 (the overlap exact)", hostile,
           [(150, 350), (0, 600), (400, 401), (9100000000000000000, 9200000000000000000),
            (100, 9190000000000000000)])
    # a marked source without durations (no duration column): point samples
    def points():
        p = Profile()
        S = p.s
        p.add("sources", source_type=S("chrome"))
        p.add("meta", key=S("pcol.intervals"), value=S("1"), source_id=1)
        p.add("functions", name=S("f"))
        for t in (0, 5, 10):
            p.add("samples", source_id=1, time_ns=t, weight=2)
        return p
    ranged("valid-range-intervals-points", "a source marked as intervals whose samples have no "
           "duration column: point samples, read as in any source", points, [(0, 5), (5, 11), (1, 2)])

    # defaults: absent columns (§3); samples may store nothing at all
    p = Profile()
    p.add("sources")
    p.add("functions")
    for _ in range(3):
        p.add("samples")
    valid("valid-defaults", "absent columns read as their defaults: samples store no column "
          "(source 1, NA times, weight 1), the all-default sources and functions keep their "
          "first column", p)
    valid("valid-defaults-stored", "valid-defaults with every default column stored", p,
          store_all=True)

    # the unknown: newer minors, compat flags, unknown tables and columns
    p, e = small_entries()
    e += [rowcount(300, 3), column(300, 1, U32, [1, 2, 3]),
          Entry(300, 2, BYTES, b"hello", 5),
          column(300, 3, U64, [0, 1, 2, 3], codec=1),
          Entry(300, 4, I64, b"\x1f" + bytes(23), 3, codec=1),  # LZ4 garbage: never decoded
          column(11, 9, I64, [5, 6]), column(13, 2, U64, [0, 9]), column(8, 5, U8, [0xff, 0xff]),
          rowcount(65535, 0), Entry(65535, 1, U32, b"", 0), Entry(65535, 65535, BYTES, b"", 0),
          rowcount(5, 0)]
    valid("valid-unknown-entries", "unknown tables and columns (rows, rows + 1 or bytes; LZ4 "
          "whose block is never decoded) are checked and ignored; a known table with a "
          "row-count entry of 0", p, data=serialize(sort(e)))
    valid("valid-minor-compat", "version 1.7 with every compat flag set: read as 1.0", small(),
          data=serialize(pack(small().materialize()), minor=7, compat=2 ** 64 - 1))
    p, e = small_entries()
    for x in e:
        x.gap = 64 * (1 + x.column % 3) if x.column else 0
    valid("valid-gaps", "zero gaps longer than the alignment needs between sections and "
          "before the directory", p, data=serialize(e, dir_gap=192))
    p, e = small_entries()
    size = len(serialize(e + [rowcount(400, 0)]))
    e.append(rowcount(400, 64 * (size + 17) - 1))
    valid("valid-rows-bound", "an unknown table with the most rows D5 allows "
          "(64 x (file_size + 17) - 1) and no column", p, data=serialize(e))

    # strings (§6.1)
    p = Profile()
    p.add("functions", name=p.s(""))
    e = pack(p.materialize())
    e.remove(find(e, 1, 1))  # all offsets are 0: absent
    e.insert(1, Entry(1, 2, BYTES, b"", 0))  # the strings table pays for its rows in bytes
    valid("valid-strings-empty", "the empty string as id 1: strings with 2 rows store only an "
          "empty bytes column (offsets absent, all 0)", p, data=serialize(e))
    e = pack(p.materialize())
    e.remove(find(e, 1, 1))
    e.insert(1, Entry(1, 2, BYTES, b"\x00", 0, codec=1, decoded=0))
    valid("valid-lz4-empty-block", "valid-strings-empty with its 0 bytes as the LZ4 block "
          "00 (one token, no literals)", p, data=serialize(e))
    p = Profile()
    p.add("functions", start_line=1)
    e = [rowcount(1, 1), column(1, 1, U64, [0, 0])] + pack(p.materialize())
    valid("valid-strings-one-row", "a strings table of 1 row (id 0 only) with its offsets "
          "stored", p, data=serialize(e))
    e = [rowcount(1, 0)] + pack(p.materialize())
    valid("valid-strings-zero-rows", "a strings row count of 0: only id 0, as without a "
          "strings table", p, data=serialize(e))

    # pcol.max_duration_ns (§7.2)
    p = small()
    S = p.s
    p.t[2] = [dict(key=S("pcol.max_duration_ns"), value=S("000000000000000020"), source_id=1),
              dict(key=S("pcol.max_duration_ns"), value=S("junk"), source_id=1),
              dict(key=S("pcol.max_duration_ns"), value=S("-1"), source_id=0)]
    p.add("sources", source_type=S("empty"))
    p.add("meta", key=S("pcol.max_duration_ns"), value=S("0"), source_id=2)
    p.add("sources")
    p.add("meta", key=S("pcol.max_duration_ns"), value=S("999999999999999999"), source_id=3)
    valid("valid-max-duration", "18 digits with leading zeros; later rows and file-level rows "
          "ignored; sources without samples", p)

    # text_lines.before_sample in a merged file (§6.8)
    p = Profile()
    S = p.s
    for uri in ("a.out", "empty.out", "c.out"):
        p.add("sources", source_type=S("rprof"), source_uri=S(uri))
    for src, t in ((1, 0), (1, 20), (3, 0)):
        p.add("samples", source_id=src, time_ns=t)
    p.add("text_lines", source_id=1, before_sample=1, text=S("sample.interval=20000"))
    p.add("text_lines", source_id=1, before_sample=3, text=S("#File 9: trailing.R"))
    p.add("text_lines", source_id=2, before_sample=3, text=S("sample.interval=20000"))
    p.add("text_lines", source_id=3, before_sample=3, text=S("sample.interval=20000"))
    p.add("text_lines", source_id=3, before_sample=4, text=S("#File 1: last.R"))
    valid("valid-merged-text-lines", "a merge of a.out, an empty file and c.out: the empty "
          "source's lines and a.out's trailing line carry c.out's first sample id (3)", p)

    # LZ4 at the edges of §4 (on functions.start_line, where any bytes are values)
    for name, desc, seqs in LZ4_VALID:
        block = lz4_sequences(seqs)
        raw = lz4_decode(block, LZ4_SIZE[name])
        assert raw is not None, name
        valid(name, desc, *lz4_profile(raw, block))


LZ4_SIZE = {}
LZ4_VALID = []


def lz4_case(name, desc, size, seqs, ok=True):
    LZ4_SIZE[name] = size
    (LZ4_VALID if ok else LZ4_BAD).append((name, desc, seqs))


LZ4_BAD = []
A = bytes(range(65, 65 + 52))  # 52 distinct bytes
lz4_case("valid-lz4-edges", "literal lengths 15, 285 (length bytes 255, 15) and 81; match "
         "lengths 4, 19 and 7; an offset equal to all bytes decoded so far; the last match "
         "starting at D-12 and ending at D-5", 416, [
             ("lit", A[:15]), ("match", 15, 4),  # offset = everything decoded so far
             ("lit", bytes(i * 7 % 256 for i in range(285))), ("match", 1, 19),
             ("lit", bytes(i * 3 % 256 for i in range(81))),  # up to D - 12 = 404
             ("match", 4, 7),  # 404 .. 411 = D - 5
             ("lit", A[:5])])
lz4_case("valid-lz4-overlap", "offset 1 repeating one byte 300 times (length bytes 255 and "
         "26)", 320, [("lit", b"\x07" * 8), ("match", 1, 300), ("lit", A[:12])])


def lz4_profile(raw, block):
    p = Profile()
    for k in range(len(raw) // 8):
        p.add("functions", start_line=struct.unpack_from("<q", raw, 8 * k)[0])
    e = pack(p.materialize())
    x = find(e, 6, 4)
    x.codec, x.data, x.decoded = 1, block, len(raw)
    return p, serialize(e)


# LZ4 blocks that break §4 (rule U1).  D is the declared decoded size.
lz4_case("u1-lz4-offset-0", "a match with offset 0", 64,
         [("lit", A[:16]), ("match", 0, 8), ("lit", A[:40])], ok=False)
lz4_case("u1-lz4-offset-too-far", "a match reaching before the start of the output", 64,
         [("lit", A[:16]), ("match", 17, 8), ("lit", A[:40])], ok=False)
lz4_case("u1-lz4-match-starts-late", "a match starting at D-11 (the last 12 bytes may hold "
         "no match start)", 64, [("lit", A[:53]), ("match", 4, 4), ("lit", A[:7])], ok=False)
lz4_case("u1-lz4-match-ends-late", "a match ending at D-4 (the last 5 bytes must be "
         "literals)", 64, [("lit", A[:52]), ("match", 4, 8), ("lit", A[:4])], ok=False)
lz4_case("u1-lz4-ends-with-match", "the block ends right after a match", 64,
         [("lit", A[:32]), ("match", 32, 32)], ok=False)
lz4_case("u1-lz4-short", "a valid block of 56 bytes where 64 are declared", 64,
         [("lit", A[:40]), ("match", 8, 8), ("lit", A[:8])], ok=False)
lz4_case("u1-lz4-long", "literals running past the declared 64 bytes", 64,
         [("lit", bytes(72))], ok=False)


def lz4_bad_cases():
    for name, desc, seqs in LZ4_BAD:
        raw_len = LZ4_SIZE[name]
        block = lz4_sequences(seqs)
        assert lz4_decode(block, raw_len) is None, name
        p = Profile()
        for k in range(raw_len // 8):
            p.add("functions", start_line=k + 1)
        e = pack(p.materialize())
        x = find(e, 6, 4)
        x.codec, x.data, x.decoded = 1, block, raw_len
        bad(name, "U1", "use", desc, e)
    # byte-level damage
    good = lz4_compress(bytes(range(64)))
    for name, desc, block in (
            ("u1-lz4-trailing-byte", "one byte after the last literals", good + b"\x00"),
            ("u1-lz4-cut", "the block cut inside its literals", good[:-3]),
            ("u1-lz4-length-past-end", "a literal length whose 255 bytes run off the end",
             b"\xf0\xff\xff"),
            ("u1-lz4-empty", "stored_size 0 for 8 decoded bytes", b"")):
        p = Profile()
        n = 8 if name == "u1-lz4-empty" else 64
        for k in range(n // 8):
            p.add("functions", start_line=k + 1)
        e = pack(p.materialize())
        x = find(e, 6, 4)
        x.codec, x.data, x.decoded = 1, block, n
        bad(name, "U1", "use", desc, e)
    p = Profile()
    p.add("functions", name=p.s(""))
    e = pack(p.materialize())
    e.remove(find(e, 1, 1))
    e.insert(1, Entry(1, 2, BYTES, b"", 0, codec=1, decoded=0))
    bad("u1-lz4-empty-zero", "U1", "use", "an LZ4 section of 0 decoded bytes stored in 0 bytes "
        "(a block has at least its token)", e)


# ------------------------------------------------------------ header: H
def header_cases():
    ok = serialize(tiny_entries()[1])
    case("h1-empty-file", "invalid", "H1", "open", "0 bytes", b"")
    case("h1-63-bytes", "invalid", "H1", "open", "valid-empty cut to 63 bytes",
         serialize([])[:63])
    bad("h2-magic", "H2", "open", "magic byte 1 is Q",
        hooks=[lambda b, l: b.__setitem__(1, ord("Q"))])
    bad("h3-major-2", "H3", "open", "version 2.0", verdict="unsupported", major=2)
    bad("h3-major-0", "H3", "open", "version 0.9", verdict="unsupported", major=0, minor=9)
    bad("h4-header-crc", "H4", "open", "header_crc off by one",
        hooks=[lambda b, l: put(b, 60, "<I", 0)], fix=("sections", "body"))
    bad("h5-header-size", "H5", "open", "header_size 128", hooks=[hook_at(12, "<I", 128)])
    bad("h6-incompat-bit-5", "H6", "open", "incompat flag 0x20 (unassigned; bits 0-4 are "
        "1.1's, 1.2's, 1.3's, 1.4's and 1.5's)", verdict="unsupported", incompat=32)
    bad("h6-incompat-bit-63", "H6", "open", "incompat flag 0x8000000000000000",
        verdict="unsupported", incompat=2 ** 63)
    case("h7-extended", "invalid", "H7", "open", "64 zero bytes appended (file_size is the "
         "old size)", ok + bytes(64))
    case("h7-truncated", "invalid", "H7", "open", "the last directory entry cut off (the "
         "header still gives the old size and count)", ok[:-64])
    bad("h8-dir-entry-size", "H8", "open", "dir_entry_size 32", hooks=[hook_at(52, "<I", 32)])
    bad("h9-dir-misaligned", "H9", "open", "the directory at a multiple of 64 plus 8",
        dir_shift=8)
    bad("h9-dir-count", "H9", "open", "dir_count one more than the entries",
        hooks=[lambda b, l: put(b, 48, "<I", len(l["entries"]) + 1)])
    case("h9-dir-offset-0", "invalid", "H9", "open", "dir_offset 0 with dir_count 1 in a 64-byte "
         "file", serialize([], hooks=[hook_at(40, "<Q", 0), hook_at(48, "<I", 1)]))
    case("h9-dir-past-end", "invalid", "H9", "open", "dir_offset past the end of the file",
         serialize([], hooks=[hook_at(40, "<Q", 128)]))


# --------------------------------------------------------- directory: D
def dir_cases():
    p, e = tiny_entries()
    i = e.index(find(e, 11, 2))
    e[i], e[i + 1] = e[i + 1], e[i]
    bad("d1-order", "D1", "open", "samples columns 2 and 3 swapped (sections follow the "
        "directory order)", e)
    p, e = tiny_entries()
    x = find(e, 6, 1)
    e.insert(e.index(x) + 1, column(6, 1, U32, p.materialize()[6][1]))
    bad("d1-duplicate-column", "D1", "open", "functions.name listed twice", e)
    p, e = tiny_entries()
    e.insert(e.index(find(e, 6, 0)), rowcount(6, 1))
    bad("d1-duplicate-rowcount", "D1", "open", "functions' row count listed twice", e)
    p, e = tiny_entries()
    bad("d2-table-0-rowcount", "D2", "open", "an empty row-count entry of table 0",
        [rowcount(0, 0)] + e)
    bad("d2-table-0-column", "D2", "open", "table 0 with a row and a u32 column",
        [rowcount(0, 1), column(0, 1, U32, [7])] + e)
    for name, what, col, fld in (("d3-flags", "flags 1 on samples.time_ns", 2, "flags"),
                                 ("d3-flags-rowcount", "flags 0x8000 on samples' row count", 0,
                                  "flags"),
                                 ("d3-reserved", "reserved byte 63 of samples.time_ns is 1", 2,
                                  "reserved")):
        p, e = tiny_entries()
        x = find(e, 11, col)
        if fld == "flags":
            x.flags = 1 if col else 0x8000
        else:
            x.reserved = bytes(19) + b"\x01"
        bad(name, "D3", "open", what, e)
    for name, fld, v in (("d4-rowcount-offset", "offset", 64), ("d4-rowcount-type", "type", 2),
                         ("d4-rowcount-codec", "codec", 1), ("d4-rowcount-stored", "stored", 8),
                         ("d4-rowcount-decoded", "decoded", 8)):
        p, e = tiny_entries()
        find(e, 6, 0).fields[fld] = v
        bad(name, "D4", "open", "functions' row-count entry has %s %d" % (fld, v), e)
    p, e = tiny_entries()
    find(e, 6, 0).crc = 1
    bad("d4-rowcount-crc", "D4", "open", "functions' row-count entry has crc 1", e)
    for name, t in (("d5-rows-samples", 11), ("d5-rows-unknown", 400)):
        p, e = tiny_entries()
        if t == 11:  # samples with no columns (only samples may store none)
            e = [x for x in e if x.table != 11 or x.column == 0]
            e = [x for x in e if x.table != 2]  # no meta: nothing declares a duration
        else:
            e.append(rowcount(400, 0))
        size = len(serialize(e))
        find(e, t, 0).count = 64 * (size + 17)
        bad(name, "D5", "open", "%s: one row more than D5 allows" %
            ("samples (no columns)" if t == 11 else "unknown table 400"), e)

    def col_entries(mod, t=11, c=2, base=tiny_entries):
        p, e = base()
        mod(find(e, t, c), e)
        return e
    bad("d6-codec-2", "D6", "open", "samples.time_ns with codec 2",
        col_entries(lambda x, e: setattr(x, "codec", 2)))
    e = tiny_entries()[1] + [rowcount(300, 1), Entry(300, 1, BYTES, b"x", 1, codec=255)]
    bad("d6-codec-255-unknown", "D6", "open", "an unknown column with codec 255", e)
    bad("d7-misaligned", "D7", "open", "samples.time_ns at a multiple of 64 plus 8",
        col_entries(lambda x, e: setattr(x, "gap", 8)))

    p, e = tiny_entries(keep=[(11, 5)])
    find(e, 11, 5).data = bytes(16)  # cpu_delta_ns 0, 0
    e = [x for x in e if (x.table, x.column) != (11, 3)]
    # durations 0: zeros too, at their place in key order (D1 holds)
    e.insert(next(i for i, x in enumerate(e) if (x.table, x.column) > (11, 3)), column(11, 3, I64, [0, 0]))
    e = [x for x in e if x.table != 2]  # and no declared duration

    def overlap(buf, layout):
        put(buf, find(e, 11, 5)._dir + 8, "<Q", find(e, 11, 3)._off)
    bad("d7-overlap", "D7", "open", "samples.cpu_delta_ns at the offset of "
        "samples.duration_ns (both all zero)", e, hooks=[overlap])
    e = tiny_entries()[1] + [rowcount(300, 64), Entry(300, 1, BYTES, bytes(64), 64)]
    e[-1].offset = 0
    bad("d7-before-first", "D7", "open", "an unknown bytes column at offset 0 (over the header)",
        e)

    def into_dir(buf, layout):
        x = layout["entries"][-1]
        over = layout["dir"] - x._off + 8
        for f, at in (("stored", 16), ("decoded", 24), ("count", 32)):
            put(buf, x._dir + at, "<Q", over)
    e = tiny_entries()[1] + [rowcount(300, 8), Entry(300, 1, BYTES, bytes(8), 8)]
    bad("d7-into-directory", "D7", "open", "an unknown bytes column running 8 bytes into the "
        "directory", e, hooks=[into_dir])

    def past_dir(buf, layout):
        put(buf, layout["entries"][-1]._dir + 8, "<Q", layout["dir"] + 64)
    e = tiny_entries()[1] + [rowcount(300, 0), Entry(300, 1, BYTES, b"", 0)]
    bad("d7-offset-past-directory", "D7", "open", "an empty unknown column whose offset is past "
        "the directory", e, hooks=[past_dir])
    e = tiny_entries()[1] + [rowcount(300, 1), Entry(300, 1, BYTES, b"ab", 3, decoded=3)]
    bad("d8-raw-size", "D8", "open", "a raw unknown bytes column: stored_size 2, decoded_size "
        "and count 3", e)
    e = tiny_entries()[1] + [rowcount(300, 1), Entry(300, 1, 0, b"\x00", 1)]
    bad("d9-type-0-unknown", "D9", "open", "an unknown column of type 0", e)
    e = tiny_entries()[1] + [rowcount(300, 1), Entry(300, 1, 7, b"\x00", 1)]
    bad("d9-type-7-unknown", "D9", "open", "an unknown column of type 7", e)
    p, e = small_entries()
    e.remove(find(e, 16, 0))
    bad("d10-no-rowcount", "D10", "open", "sample_text's columns without its row-count entry", e)
    e = tiny_entries()[1] + [column(300, 1, U32, [1, 2])]
    bad("d10-no-rowcount-unknown", "D10", "open", "an unknown table's column without a "
        "row-count entry", e)
    p, e = small_entries()
    x = find(e, 12, 2)
    e.remove(find(e, 13, 0))
    e.remove(find(e, 13, 1))
    for t in (14,):
        for y in [y for y in e if y.table == t]:
            e.remove(y)
    x.table = 13
    find(e, 11, 7).data = bytes(8)
    bad("d10-values-renamed", "D10", "open", "values.value (12, 2) renamed (13, 2) in a file "
        "without labelsets: without D10 every value would read 0", sort(e))
    bad("d11-count-width", "D11", "open", "samples.time_ns: 2 elements in 24 bytes",
        col_entries(lambda x, e: setattr(x, "data", x.data + bytes(8)) or setattr(x, "decoded", 24)))
    e = tiny_entries()[1] + [rowcount(300, 2), Entry(300, 1, U32, bytes(12), 2)]
    bad("d11-count-width-unknown", "D11", "open", "an unknown u32 column: 2 elements in 12 "
        "bytes", e)
    e = tiny_entries()[1] + [rowcount(300, 2), Entry(300, 1, I64, bytes(16), 2)]
    e[-1].fields.update(count=2 ** 61, decoded=16)
    bad("d11-overflow-unknown", "D11", "open", "an unknown i64 column of 2^61 elements "
        "(count x 8 overflows)", e)
    e = tiny_entries()[1] + [rowcount(300, 1020), Entry(300, 1, BYTES, b"\x00\x00", 1020,
                                                         codec=1, decoded=1020)]
    bad("d12-lz4-ratio-unknown", "D12", "open", "an unknown LZ4 column claiming 1020 bytes "
        "from 2 (more than 255:1)", e)
    p = Profile()
    p.add("functions", name=p.s("a" * 1020))
    e = pack(p.materialize())
    x = find(e, 1, 2)
    x.codec, x.data = 1, b"\xf0\xff"  # 2 stored bytes for the 1020 the offsets need
    bad("d12-lz4-ratio", "D12", "open", "strings.bytes in LZ4 claiming 1020 bytes from 2", e)
    e = tiny_entries()[1] + [rowcount(300, 1), Entry(300, 1, BYTES, bytes(64), 1, codec=1)]
    e[-1].fields.update(decoded=2 ** 31, count=2 ** 31)
    bad("d12-lz4-2g-unknown", "D12", "open", "an unknown LZ4 column of 2^31 decoded bytes", e)
    bad("d13-type", "D13", "open", "samples.weight stored as u64 (same width)",
        col_entries(lambda x, e: setattr(x, "type", U64), c=4))
    bad("d13-type-strings", "D13", "open", "strings.bytes stored as u8",
        col_entries(lambda x, e: setattr(x, "type", U8), t=1, c=2))
    bad("d13-count", "D13", "open", "samples.time_ns with 3 elements for 2 rows",
        col_entries(lambda x, e: (setattr(x, "data", x.data + bytes(8)), setattr(x, "decoded", 24),
                                  setattr(x, "count", 3))))
    bad("d13-offsets-count", "D13", "open", "samples.value_offsets with 2 elements for 2 rows",
        col_entries(lambda x, e: (setattr(x, "data", x.data[:16]), setattr(x, "decoded", 16),
                                  setattr(x, "count", 2)), c=8, base=small_entries))
    e = sort(tiny_entries()[1] + [column(11, 9, U32, [1, 2, 3, 4])])
    bad("d13-unknown-count", "D13", "open", "an unknown samples column with rows + 2 elements",
        e)


def table_cases():
    p = Profile()
    p.add("functions")
    e = pack(p.materialize(), omit=[(6, 1)])
    bad("t2-functions", "T2", "open", "functions with a row and no column", e)
    e = pack(p.materialize(), omit=[(6, 1)]) + [column(6, 9, U32, [0])]
    bad("t2-unknown-column-only", "T2", "open", "functions with a row and only an unknown "
        "column", sort(e))
    bad("t2-strings", "T2", "open", "strings with 2 rows and no column", [rowcount(1, 2)])


# ------------------------------------------------------- first use: U
def use_cases():
    lz4_bad_cases()

    def mod(name, rule, desc, t, c, values, type=None, base=small, **kw):
        p = base()
        e = pack(p.materialize(), **kw)
        x = find(e, t, c)
        y = column(t, c, type or x.type, values)
        x.data, x.decoded, x.count = y.data, y.decoded, y.count
        bad(name, rule, "use", desc, e)
    mod("u2-offsets-start", "U2", "samples.value_offsets starting at 1", 11, 8, [1, 1, 2])
    mod("u2-offsets-decrease", "U2", "locations.line_offsets decreasing", 8, 4, [0, 2, 1])
    mod("u2-offsets-end", "U2", "labelsets.label_offsets ending before the last label", 13, 1,
        [0, 0])
    p = small()
    strings = p.strings
    total = sum(len(s) for s in strings)
    mod("u2-strings-end", "U2", "strings.offsets ending 1 byte before the end of bytes", 1, 1,
        [0] + [sum(len(s) for s in strings[:k + 1]) for k in range(len(strings) - 1)] +
        [total - 1])
    p, e = small_entries()
    e.remove(find(e, 8, 4))
    bad("u2-absent-offsets", "U2", "use", "locations.line_offsets absent (all 0) while lines "
        "has rows", e)
    p, e = small_entries()
    x = find(e, 1, 2)
    x.data, x.decoded, x.count = b"", 0, 0
    e.remove(x)
    e.remove(find(e, 1, 1))
    e.insert(1, Entry(1, 2, BYTES, b"", 0))
    p2 = Profile()
    p2.add("functions", name=p2.s("f"))
    e = pack(p2.materialize())
    y = find(e, 1, 2)
    y.data, y.decoded, y.count = b"xf", 2, 2
    e.remove(find(e, 1, 1))
    bad("u2-strings-absent-offsets", "U2", "use", "strings.offsets absent (all 0) while bytes "
        "holds 2 bytes", e)
    p2 = Profile()
    p2.add("functions", name=p2.s("f"))
    e = pack(p2.materialize())
    find(e, 1, 1).data = struct.pack("<3Q", 0, 1, 1)
    bad("u3-string-0", "U3", "use", "string id 0 is 1 byte long", e)
    p = small()
    mod("u4-string-id", "U4", "functions.name = the number of strings", 6, 1,
        [len(p.strings)])
    mod("u5-ref-range", "U5", "stacks.location_id = locations + 1", 10, 2, [1, 3])
    mod("u5-samples-source-0", "U5", "samples.source_id 0", 11, 1, [1, 0], keep=[(11, 1)])
    mod("u5-stacks-location-0", "U5", "stacks.location_id 0", 10, 2, [1, 0])
    mod("u5-values-type-0", "U5", "values.value_type_id 0", 12, 1, [1, 0])
    mod("u5-sample-text-0", "U5", "sample_text.sample_id 0", 16, 1, [0])
    mod("u5-parent-self", "U5", "stack 2 is its own parent", 10, 1, [0, 2])
    mod("u5-parent-forward", "U5", "stack 1's parent is stack 2", 10, 1, [2, 1])
    mod("u5-meta-source", "U5", "meta.source_id = sources + 1", 2, 3, [2])
    mod("u6-mapping-flags", "U6", "mappings.flags 0x10", 7, 6, [0x10])
    mod("u6-location-flags", "U6", "locations.flags 0x02", 8, 3, [0, 2])
    mod("u7-before-0", "U7", "text_lines.before_sample 0", 15, 2, [0])
    mod("u7-before-past-end", "U7", "text_lines.before_sample = samples + 2", 15, 2, [4])
    p = Profile()
    for _ in range(2):
        p.add("samples")
    bad("u8-samples-no-source", "U8", "use", "samples store no source_id (default 1) and there "
        "is no source", pack(p.materialize()))
    for name, t, c, what in (("u8-stacks-location-absent", 10, 2, "stacks.location_id"),
                             ("u8-values-type-absent", 12, 1, "values.value_type_id"),
                             ("u8-sample-text-absent", 16, 1, "sample_text.sample_id"),
                             ("u8-before-absent", 15, 2, "text_lines.before_sample")):
        p, e = small_entries()
        e.remove(find(e, t, c))
        bad(name, "U8", "use", "%s absent (its default 0 is not valid)" % what, e)


# -------------------------------------------------------- full validation: F
def full_cases():
    bad("f1-body-crc", "F1", "full", "body_crc 0", hooks=[lambda b, l: put(b, 56, "<I", 0)],
        fix=("sections", "header"))
    p, e = tiny_entries()
    find(e, 6, 1).crc = 0
    bad("f2-section-crc", "F2", "full", "functions.name's crc 0", e)
    e = tiny_entries()[1] + [rowcount(300, 1), Entry(300, 1, U32, b"\x01\x00\x00\x00", 1)]
    e[-1].crc = 0
    bad("f2-section-crc-unknown", "F2", "full", "an unknown column's crc 0", e)

    def pad_after_header(buf, layout):
        buf[0x40 + 60] = 1  # sections start at 128 here: see the gap below
    p, e = tiny_entries()
    e[1].gap = 64
    bad("f3-padding-gap", "F3", "full", "a 1 in a 64-byte gap before the first section", e,
        hooks=[pad_after_header])

    def pad_before_dir(buf, layout):
        buf[layout["dir"] - 1] = 0x80
    p, e = tiny_entries()
    bad("f3-padding-before-directory", "F3", "full", "the last padding byte before the "
        "directory is 0x80", e, dir_gap=64, hooks=[pad_before_dir])

    def pad_between(buf, layout):
        x = find(layout["entries"], 6, 1)
        buf[x._off + len(x.data)] = 0xff
    bad("f3-padding-between", "F3", "full", "the byte after functions.name is 0xff",
        hooks=[pad_between])

    def reorder(name, desc, rows):
        p = tiny()
        for r, (src, t) in zip(p.t[11], rows):
            r["source_id"], r["time_ns"] = src, t
        bad(name, "F5", "full", desc, pack(p.materialize()))
    p = tiny()
    p.add("sources")
    e = pack(p.materialize(), keep=[(11, 1)])
    x = find(e, 11, 1)
    y = column(11, 1, U32, [2, 1])
    x.data = y.data
    bad("f5-source-order", "F5", "full", "sample 1 of source 2 before sample 2 of source 1", e)
    reorder("f5-time-order", "times 20 then 0 in one source", [(1, 20), (1, 0)])
    reorder("f5-na-after-time", "an NA time after time 0 (NA is the smallest)", [(1, 0), (1, NA)])
    for name, value, desc in (("f6-space", " 20", "leading blank"), ("f6-plus", "+20", "a sign"),
                              ("f6-minus-zero", "-0", "a sign"), ("f6-empty", "", "empty"),
                              ("f6-trailing-newline", "20\n", "a trailing newline"),
                              ("f6-hex", "0x20", "hex"), ("f6-decimal-point", "20.0", "a point"),
                              ("f6-19-digits", "0000000000000000020", "19 digits"),
                              ("f6-fullwidth", "\uff12\uff10", "full-width digits")):
        p = tiny()
        p.t[2][0]["value"] = p.s(value)
        bad(name, "F6", "full", "pcol.max_duration_ns %r: %s" % (value, desc), pack(p.materialize()))
    p = tiny()
    p.t[2][0]["value"] = p.s("19")
    bad("f6-smaller", "F6", "full", "pcol.max_duration_ns 19 below a duration of 20",
        pack(p.materialize()))
    p = tiny()
    p.t[2].insert(0, dict(key=p.s("pcol.max_duration_ns"), value=p.s("5"), source_id=1))
    bad("f6-first-counts", "F6", "full", "rows 5 then 20: the first counts, and 5 < 20",
        pack(p.materialize()))
    p = tiny()
    src = p.add("sources")
    p.add("meta", key=p.s("pcol.max_duration_ns"), value=p.s("abc"), source_id=src)
    bad("f6-no-samples", "F6", "full", "'abc' for a source without samples",
        pack(p.materialize()))
    p = tiny()
    p.t[11][1]["duration_ns"] = 0
    p.t[2][0]["value"] = p.s("abc")
    bad("f6-no-durations", "F6", "full", "'abc' in a file without a duration_ns column",
        pack(p.materialize()))


# ------------------------------------------ format 1.3: the source summary
def summarize(p):
    """Fill in the summary of format 1.3 (spec.md §6.10) from p's samples:
    source_summary's rows and source_value_types' total and rows."""
    top = 2 ** 63 - 1

    def stored(x):  # a sum outside [-2^63 + 1, 2^63 - 1] is stored as NA
        return x if -top <= x <= top else NA

    samples = p.t[TABLE_ID["samples"]]
    rows = []
    for s in range(1, len(p.t[TABLE_ID["sources"]]) + 1):
        S = [r for r in samples if r.get("source_id", 1) == s]
        timed = [r for r in S if r.get("time_ns", NA) != NA]
        row = dict(rows=len(S), weight=stored(sum(r.get("weight", 1) for r in S)),
                   untimed=len(S) - len(timed))
        if timed:
            ends = []
            for r in timed:
                t, d = r["time_ns"], r.get("duration_ns", 0)
                ends.append(min(t + d, top) if d > 0 else t)
            row.update(time_first=min(r["time_ns"] for r in timed),
                       time_last=max(r["time_ns"] for r in timed), time_end=max(ends))
        rows.append(row)
    p.t[TABLE_ID["source_summary"]] = rows
    for r in p.t[TABLE_ID["source_value_types"]]:
        s, t = r.get("source_id", 0), r.get("value_type_id", 0)
        firsts = []
        for smp in samples:
            if s and smp.get("source_id", 1) == s:
                of_t = [v.get("value", 0) for v in smp.get("values", []) if v.get("value_type_id", 0) == t]
                if of_t:
                    firsts.append(of_t[0])  # the first value of the type counts
        r["total"], r["rows"] = stored(sum(firsts)), len(firsts)
    return p


def summarized():
    """Three sources: one with NA times, a long sample that ends after the
    last one starts, a type listed twice, a sample with a type twice and one
    without it; one without samples; one whose sums leave int64 (stored NA)
    and whose end is capped at 2^63 - 1."""
    p = Profile()
    S = p.s
    a = p.add("sources", source_type=S("pprof"), source_uri=S("a.pb"))
    b = p.add("sources", source_type=S("rprof"))
    c = p.add("sources", source_type=S("collapsed"))
    cnt = p.add("value_types", type=S("samples"), unit=S("count"))
    cpu = p.add("value_types", type=S("cpu"), unit=S("nanoseconds"))
    other = p.add("value_types", type=S("other"), unit=S("bytes"))
    p.add("source_value_types", source_id=a, value_type_id=cnt)
    p.add("source_value_types", source_id=a, value_type_id=cpu)
    p.add("source_value_types", source_id=a, value_type_id=cpu)  # listed twice
    p.add("source_value_types", source_id=b, value_type_id=cpu)  # no samples
    p.add("source_value_types", source_id=c, value_type_id=cpu)
    p.add("source_value_types", value_type_id=cnt)  # source 0
    f = p.add("functions", name=S("main"))
    loc = p.add("locations", lines=[dict(function_id=f, line=1)])
    st = p.add("stacks", location_id=loc)
    p.add("samples", source_id=a, stack_id=st, values=[dict(value_type_id=cnt, value=1)])
    p.add("samples", source_id=a, time_ns=0, stack_id=st,
          values=[dict(value_type_id=cnt, value=2), dict(value_type_id=cpu, value=10),
                  dict(value_type_id=cpu, value=1000)])  # the second cpu is in no total
    p.add("samples", source_id=a, time_ns=10, duration_ns=30, weight=3, stack_id=st,
          values=[dict(value_type_id=cnt, value=3), dict(value_type_id=cpu, value=30)])
    p.add("samples", source_id=a, time_ns=20, duration_ns=NA, weight=0,
          values=[dict(value_type_id=cpu, value=-5)])  # no samples/count; ends at 20 < 40
    p.add("samples", source_id=a, time_ns=25, duration_ns=-7, weight=-2,
          values=[dict(value_type_id=cnt, value=4), dict(value_type_id=other, value=99)])
    p.add("samples", source_id=c, time_ns=-(2 ** 62), weight=2 ** 62,
          values=[dict(value_type_id=cpu, value=2 ** 63 - 1)])
    p.add("samples", source_id=c, time_ns=2 ** 63 - 10, duration_ns=100, weight=2 ** 62,
          values=[dict(value_type_id=cpu, value=1)])
    return summarize(p)


def summary_cases():
    v13 = "(format 1.3, spec.md §6.10) "
    valid("valid-summary", v13 + "the per-source summary: NA times first, an end after the "
          "last start, a type listed twice or missing, a sum past int64 stored NA, an end "
          "capped at 2^63 - 1, a source without samples, a row of source 0", summarized())
    p = small()
    p.t[TABLE_ID["source_value_types"]] = [dict(source_id=1, value_type_id=1, total=12345, rows=9)]
    valid("valid-summary-columns-alone", v13 + "source_value_types' total and rows in a file "
          "without source_summary mean nothing: not checked", p)
    p = summarized()
    p.t[TABLE_ID["source_summary"]].append(dict(rows=0))
    e = pack(p.materialize())
    bad("u12-summary-rows", "U12", "use", v13 + "source_summary with 4 rows for 3 sources", e)

    def lie(name, desc, change):
        q = summarized()
        change(q.t[TABLE_ID["source_summary"]], q.t[TABLE_ID["source_value_types"]])
        bad(name, "F7", "full", v13 + desc, pack(q.materialize()))

    def setf(table, i, key, v):
        return lambda ss, svt: (ss, svt)[table][i].__setitem__(key, v)

    lie("f7-summary-weight", "source 1's weight 5 for its samples' 3", setf(0, 0, "weight", 5))
    lie("f7-summary-rows", "rows 4 and 3 for 5 and 2 (the same sum)",
        lambda ss, svt: (ss[0].__setitem__("rows", 4), ss[2].__setitem__("rows", 3)))
    lie("f7-summary-untimed", "untimed 0 for 1", setf(0, 0, "untimed", 0))
    lie("f7-summary-time-first", "time_first 10 for 0", setf(0, 0, "time_first", 10))
    lie("f7-summary-time-end-last", "time_end 25 (the last sample's end) for 40 (the "
        "latest end)", setf(0, 0, "time_end", 25))
    lie("f7-summary-weight-saturated", "source 3's weight 2^63 stored as 2^63 - 1 instead "
        "of NA", setf(0, 2, "weight", 2 ** 63 - 1))
    lie("f7-summary-total-all", "cpu total 1035 (every value) for 35 (the first of each "
        "sample)", setf(1, 1, "total", 1035))
    lie("f7-summary-total-source-0", "source 0's row with total 1 (no samples: 0)",
        setf(1, 5, "total", 1))
    lie("f7-summary-value-rows", "samples/count rows 5 for 4 (a sample without one)",
        setf(1, 0, "rows", 5))

# ------------------------------------------- format 1.1: zstd, transforms
V11 = dict(minor=1, incompat=1)  # header of a file that uses them (§9)


def every_transform(t, c, ty):
    """zstd, with delta and split wherever §4 allows them (delta dropped
    where a difference does not fit, as a writer does)."""
    if ty in (U32, I64, U64):
        return (2, DELTA | SPLIT)
    return (2, SPLIT) if ty == F64 else 2


def v11_valid(name, desc, p, **kw):
    M = p.materialize()
    case(name, "valid", "-", "-", desc, serialize(pack(M, **kw), **V11), views_text(M, p.strings))


def v11_entries(p, t, c, mod):
    """p packed raw, column (t, c) changed by mod(entry), as a 1.1 file."""
    e = pack(p.materialize())
    mod(find(e, t, c))
    return e


def starts(values):
    """A profile whose functions.start_line (i64, any value allowed) holds values."""
    p = Profile()
    for v in values:
        p.add("functions", start_line=v)
    return p


def v11_cases():
    # valid files
    v11_valid("valid-rich-zstd", "valid-rich with every section one zstd frame (raw "
              "blocks; version 1.1, incompat bit 0)", rich(), codec=lambda t, c, ty: 2)
    v11_valid("valid-rich-zstd-transforms", "valid-rich in zstd with delta and byte-stream "
              "split on every column they apply to (delta left out where a difference does "
              "not fit)", rich(), codec=every_transform)
    v11_valid("valid-small-transforms-raw", "valid-small with delta and split on raw "
              "sections (codec 0: a transform alone)", small(),
              codec=lambda t, c, ty: (0, DELTA | SPLIT) if ty in (U32, I64, U64) else 0)
    v11_valid("valid-small-delta-lz4", "valid-small with delta only, in LZ4 (1.1: any codec "
              "takes a transform)", small(),
              codec=lambda t, c, ty: (1, DELTA) if ty in (U32, I64, U64) else 1)
    v11_valid("valid-small-split-zstd", "valid-small with split only (u32, i64, u64, f64), "
              "in zstd", small(),
              codec=lambda t, c, ty: (2, SPLIT) if ty in (U32, I64, U64, F64) else 2)
    p = small()
    case("valid-incompat-bit-0-unused", "valid", "-", "-", "version 1.1 with incompat bit 0 "
         "set and only raw sections: a 1.1 reader reads it",
         serialize(pack(p.materialize()), **V11), views_text(p.materialize(), p.strings))
    # delta at the edges of the types' ranges
    p = starts([NA, -1, 2 ** 63 - 2, 2 ** 63 - 1, 2 ** 63 - 1, NA + 1])
    v11_valid("valid-delta-i64-edges", "delta on functions.start_line (i64) through "
              "INT64_MIN, INT64_MAX and back: deltas -2^63, 2^63 - 1, 1, 0, -(2^64 - 2)... "
              "all within a signed i64", p,
              codec=lambda t, c, ty: (2, DELTA) if (t, c) == (6, 4) else 0)
    p = Profile()
    for lo in (2 ** 62, 2 ** 63 + 2 ** 62 - 1, 2 ** 64 - 1, 2 ** 63 - 1):
        p.add("mappings", memory_start=lo)
    v11_valid("valid-delta-u64-edges", "delta on mappings.memory_start (u64): 2^62, "
              "2^63 + 2^62 - 1, 2^64 - 1, 2^63 - 1 (deltas up to 2^63 - 1 and down to -2^63)",
              p, codec=lambda t, c, ty: (0, DELTA) if (t, c) == (7, 1) else 0)
    # a frame of several blocks: raw, RLE, raw
    vals = [0x0101010101010101] * 64 + list(range(64))
    p = starts(vals)
    e = pack(p.materialize())
    x = find(e, 6, 4)
    raw = x.data
    x.codec, x.data = 2, zstd_frame([(0, raw[:8]), (1, raw[8:9], 504), (0, raw[512:])],
                                    len(raw), single=False)
    case("valid-zstd-blocks", "valid", "-", "-", "functions.start_line as one zstd frame of "
         "a raw, an RLE and a raw block, with a window descriptor (not single-segment) and "
         "a 2-byte content size", serialize(e, **V11), views_text(p.materialize(), p.strings))

    # the header flag (D6, D3, D4)
    p = small()
    bad("d6-zstd-without-flag", "D6", "open", "a zstd section in a file whose incompat bit 0 "
        "is clear (version 1.1 all the same)",
        pack(p.materialize(), codec=lambda t, c, ty: 2 if (t, c) == (6, 1) else 0), minor=1)
    bad("d6-codec-3", "D6", "open", "codec 3 in a 1.1 file",
        v11_entries(small(), 11, 2, lambda x: setattr(x, "codec", 3)), **V11)
    bad("d3-transform-without-flag", "D3", "open", "delta on samples.time_ns (flags 1) in a "
        "file whose incompat bit 0 is clear",
        pack(small().materialize(), codec=lambda t, c, ty: (0, DELTA) if (t, c) == (11, 2) else 0))
    bad("d3-transform-bit-2", "D3", "open", "flags 4 (row-relative, format 1.2) on "
        "samples.time_ns in a 1.1 file: incompat bit 1 is clear",
        v11_entries(small(), 11, 2, lambda x: setattr(x, "flags", 4)), **V11)
    e = pack(small().materialize())
    find(e, 11, 0).flags = 1
    bad("d4-rowcount-transform", "D4", "open", "flags 1 on samples' row-count entry in a 1.1 "
        "file", e, **V11)
    # D14: transforms by type
    p = small()
    bad("d14-delta-f64", "D14", "open", "delta on models.r_square (f64)",
        v11_entries(p, 17, 5, lambda x: setattr(x, "flags", DELTA)), **V11)
    bad("d14-split-bytes", "D14", "open", "split on strings.bytes",
        v11_entries(p, 1, 2, lambda x: setattr(x, "flags", SPLIT)), **V11)
    bad("d14-split-u8", "D14", "open", "split on mappings.flags (u8)",
        v11_entries(p, 7, 6, lambda x: setattr(x, "flags", SPLIT)), **V11)
    e = pack(p.materialize()) + [rowcount(300, 2), Entry(300, 1, BYTES, b"ab", 2)]
    e[-1].flags = DELTA
    bad("d14-delta-unknown-bytes", "D14", "open", "delta on an unknown bytes column (never "
        "decoded, still checked)", e, **V11)
    # D15: decoder bombs, refused before anything is decoded
    def bomb(x):
        x.codec, x.data = 2, zstd_frame([(1, b"\x00", 1 << 17)], 1 << 17)
        x.fields.update(decoded=1 << 30, count=1 << 30)
    e = tiny_entries()[1] + [rowcount(300, 1), Entry(300, 1, BYTES, b"", 0)]
    bomb(e[-1])
    bad("d15-zstd-bomb-unknown", "D15", "open", "an unknown bytes column of 2^30 decoded bytes "
        "from a 13-byte zstd frame (over 32768:1)", e, **V11)
    p = Profile()
    p.add("functions", name=p.s("a" * 65536))
    e = pack(p.materialize())
    x = find(e, 1, 2)
    x.codec, x.data = 2, b"\x28"  # 65536 bytes from 1: over 32768:1
    bad("d15-zstd-ratio", "D15", "open", "strings.bytes in zstd claiming 65536 bytes from 1",
        e, **V11)

    # U9: zstd frames that break §4 (on functions.start_line: 8 rows, 64 bytes)
    raw = b"".join(struct.pack("<q", k + 1) for k in range(8))
    good = zstd_compress(raw)
    skippable = struct.pack("<II", 0x184D2A50, 4) + bytes(4)
    for name, desc, frame in (
            ("u9-zstd-magic", "frame magic 28 B5 2F FE", good[:3] + b"\xfe" + good[4:]),
            ("u9-zstd-content-size", "Frame_Content_Size 56 for the 64 decoded bytes (the "
             "frame decodes to 56)", zstd_frame([(0, raw[:56])], 56)),
            ("u9-zstd-no-content-size", "a frame without Frame_Content_Size",
             zstd_frame([(0, raw)], None)),
            ("u9-zstd-trailing-byte", "one byte after the frame", good + b"\x00"),
            ("u9-zstd-two-frames", "the 64 bytes as two frames of 32",
             zstd_frame([(0, raw[:32])], 32)
             + zstd_frame([(0, raw[32:])], 32)),
            ("u9-zstd-skippable", "a skippable frame before the frame", skippable + good),
            ("u9-zstd-dictionary", "a frame naming dictionary 7",
             zstd_frame([(0, raw)], 64, dict_id=7)),
            ("u9-zstd-short", "content size 64, blocks of 56 bytes",
             zstd_frame([(0, raw[:56])], 64)),
            ("u9-zstd-long", "content size 64, blocks of 72 bytes",
             zstd_frame([(0, raw + raw[:8])], 64)),
            ("u9-zstd-cut", "the frame cut inside its last block", good[:-3]),
            ("u9-zstd-no-last-block", "no block has the Last_Block bit",
             good[:6] + bytes([good[6] & 0xFE]) + good[7:]),
            ("u9-zstd-reserved-block", "a block of the reserved type 3",
             zstd_frame([(3, raw)], 64)),
            ("u9-zstd-empty", "stored_size 0", b"")):
        p = starts(range(1, 9))
        e = pack(p.materialize())
        x = find(e, 6, 4)
        x.codec, x.data = 2, frame
        bad(name, "U9", "use", desc, e, **V11)

    # U10: deltas that leave the column's type (known columns: decoded on use)
    def delta_bad(name, desc, t, c, ty, deltas, base, rule="U10"):
        e = pack(base.materialize())
        x = find(e, t, c)
        fmt = {U32: "<i", I64: "<q", U64: "<q"}[ty]
        x.data = b"".join(struct.pack(fmt, d) for d in deltas)
        x.flags = DELTA
        bad(name, rule, "use", desc, e, **V11)
    delta_bad("u10-delta-u32-negative", "stacks.parent_id deltas 0, -1: the second value "
              "would be -1", 10, 1, U32, [0, -1], small())
    delta_bad("u10-delta-u32-over", "stacks.parent_id deltas 2^31 - 1 twice, then 2: "
              "2^32 (one past the u32 range)", 10, 1, U32, [2 ** 31 - 1, 2 ** 31 - 1, 2],
              starts_stacks(3))
    delta_bad("u10-delta-i64-over", "functions.start_line deltas 2^63 - 1, 1: 2^63 does not "
              "fit an i64", 6, 4, I64, [2 ** 63 - 1, 1], starts([1, 2]))
    delta_bad("u10-delta-i64-under", "functions.start_line deltas -2^63, -1", 6, 4, I64,
              [-2 ** 63, -1], starts([1, 2]))
    p = Profile()
    for lo in (1, 2):
        p.add("mappings", memory_start=lo)
    delta_bad("u10-delta-u64-negative", "mappings.memory_start deltas 1, -2: -1", 7, 1, U64,
              [1, -2], p)
    delta_bad("u10-delta-u64-over", "mappings.memory_start deltas 2^63 - 1 three times: "
              "past 2^64 - 1", 7, 1, U64, [2 ** 63 - 1] * 3, mappings(3))
    # the decoded column still meets §8.2: a parent delta that decodes in range but
    # to a parent that is not smaller than its child
    delta_bad("u5-delta-parent", "stacks.parent_id deltas 0, 2: stack 2's parent is 2 "
              "(U5, checked on the decoded values)", 10, 1, U32, [0, 2], small(), rule="U5")
    p = small()
    e = pack(p.materialize(), codec=lambda t, c, ty: (0, SPLIT) if (t, c) == (10, 2) else 0)
    x = find(e, 10, 2)
    x.data = split_bytes(struct.pack("<II", 1, 3), 4)
    bad("u5-split-location", "U5", "use", "stacks.location_id byte-split, decoding to "
        "location 3 of 2 (U5, checked on the decoded values)", e, **V11)


def starts_stacks(n):
    """n stacks in a chain on one location (stacks.parent_id: 0, 1, ..., n - 1)."""
    p = Profile()
    p.add("functions", name=p.s("f"))
    loc = p.add("locations", lines=[dict(function_id=1, line=1)])
    prev = 0
    for _ in range(n):
        prev = p.add("stacks", parent_id=prev, location_id=loc)
    return p


def mappings(n):
    p = Profile()
    for k in range(n):
        p.add("mappings", memory_start=k + 1)
    return p


# ------------------------------ format 1.2: compact directory, row-relative
def c_valid(name, desc, p, entries=None, codec=None, **ser):
    """A valid compact file (§3.1) of profile p, packed as pack() does (with
    codec) unless entries are given."""
    M = p.materialize()
    e = pack(M, codec=codec) if entries is None else entries
    case(name, "valid", "-", "-", desc, serialize_compact(e, **ser), views_text(M, p.strings))


def c_bad(name, rule, stage, desc, entries=None, verdict="invalid", **ser):
    """An invalid compact file: valid-tiny-compact (or entries) with one change."""
    if entries is None:
        entries = tiny_entries()[1]
    case(name, verdict, rule, stage, desc, serialize_compact(entries, **ser))


def set_flags(x, flags):
    """x's flags changed, its section left where the valid file has it (a
    section read in place is aligned to 8, others are not)."""
    x.align = 8 if in_place(x) else 1
    x.flags = flags


COMBOS = [0, SPLIT, DELTA, DELTA | SPLIT, ROWREL, ROWREL | SPLIT]


def compact_transforms(t, c, ty):
    """zstd, with each combination of transforms that §4 allows on some
    integer column (row-relative where the writer's purpose is, on
    stacks.parent_id), split on f64."""
    if (t, c) == (10, 1):
        return (2, ROWREL)
    if ty in (U32, I64, U64):
        return (2, COMBOS[(t + c) % len(COMBOS)])
    return (2, SPLIT) if ty == F64 else 2


def rows_at_bound(e, t, ratio, ser, over=0):
    """Table t's row count set to the most D5 allows, ratio x (file_size + 17)
    - 1, plus `over`.  In a compact file the count's varint is part of the
    file size: repeat until the two agree."""
    x = find(e, t, 0)
    while True:
        want = ratio * (len(ser(e)) + 17) - 1 + over
        if x.count == want:
            return e
        x.count = want


def v12_valid_cases():
    case("valid-compact-empty", "valid", "-", "-", "64 bytes, incompat bit 1 (1.2): a compact "
         "directory of 0 entries at dir_offset 64 = file_size",
         serialize_compact([]), views_text(Profile().materialize(), [b""]))
    c_valid("valid-tiny-compact", "valid-tiny with a compact directory and raw sections "
            "(incompat 0x2 only): the base of the compact cases", tiny())
    p = small()
    e = pack(p.materialize())
    data = serialize_compact(e)
    assert all(x._off % 8 == 0 for x in e if x.column)
    assert any(x._off > y._off + len(y.data) for x, y in zip(e[1:], e) if x.column and y.column)
    case("valid-compact-raw", "valid", "-", "-", "valid-small compact with only raw sections "
         "(incompat 0x2 only, version 1.2): each at the next multiple of 8, some after zero "
         "padding; the directory right after the last section, at any offset", data,
         views_text(p.materialize(), p.strings))

    def mixed(t, c, ty):  # no zstd, delta or split: bit 1 alone allows all of this
        if ty in (U32, U64):
            return (0, ROWREL)
        return 1 if ty in (U8, BYTES) else 0
    p = small()
    e = pack(p.materialize(), codec=mixed)
    data = serialize_compact(e)
    assert any(x._off % 8 for x in e if x.column and not in_place(x))
    assert all(x._off % 8 == 0 for x in e if x.column and in_place(x))
    case("valid-compact-unaligned", "valid", "-", "-", "valid-small compact, incompat 0x2 only: "
         "row-relative u32 and u64 columns (raw) and LZ4 u8 and bytes columns right after the "
         "previous section at odd offsets, raw i64 and f64 ones at multiples of 8", data,
         views_text(p.materialize(), p.strings))
    p = small()
    e = pack(p.materialize(), codec=mixed)
    find(e, 11, 2).gap = 136  # read in place: still a multiple of 8; a 2-byte varint
    find(e, 10, 1).gap = 3  # row-relative: anywhere
    find(e, 7, 6).gap = 200  # LZ4
    c_valid("valid-compact-gaps", "valid-compact-unaligned with zero gaps: 136 bytes before "
            "samples.time_ns (raw i64, at a multiple of 8 still), 3 before stacks.parent_id "
            "(row-relative), 200 before mappings.flags (LZ4), 5 before the directory", p, e,
            dir_gap=5)
    c_valid("valid-rich-compact-zstd", "valid-rich compact, every section zstd (incompat "
            "0x3): none, split, delta, delta+split, row-relative and row-relative+split each "
            "on some integer column (row-relative dropped where a value is too far from its "
            "row, as for INT64_MIN), split on f64", rich(), codec=compact_transforms)
    e = pack(rich().materialize(), codec=compact_transforms)
    used = {x.flags for x in e if x.column and x.type in (U32, I64, U64)}
    assert used >= set(COMBOS), used
    c_valid("valid-rich-compact-lz4-rowrel", "valid-rich compact with LZ4 everywhere and "
            "row-relative on every u32, i64 and u64 column where it fits: incompat 0x2 only "
            "(row-relative needs bit 1, not bit 0)", rich(),
            codec=lambda t, c, ty: (1, ROWREL) if ty in (U32, I64, U64) else 1)
    p, e = small_entries()
    x = Entry(300, 5, U32, struct.pack("<3i", 1, 1, 1), 3)
    x.flags = ROWREL  # would decode to -1: an unknown column is never decoded
    e += [rowcount(300, 3), column(300, 1, U32, [1, 2, 3]), Entry(300, 2, BYTES, b"hello", 5),
          Entry(300, 4, I64, b"\x1f" + bytes(23), 3, codec=1), x, column(11, 9, I64, [5, 6]),
          rowcount(65535, 0), Entry(65535, 1, U32, b"", 0), Entry(65535, 65535, BYTES, b"", 0),
          rowcount(5, 0)]
    c_valid("valid-compact-unknown-entries", "unknown tables and columns in a compact "
            "directory: the largest key, 2^32 - 1 (table 65535, column 65535), LZ4 garbage and "
            "a row-relative u32 column that would decode out of range, never decoded", p,
            sort(e))

    # row-relative at the edges of the types (v[i] = i - d[i])
    p = Profile()
    p.add("functions", name=p.s("f"))
    for k in range(3):
        p.add("locations", lines=[dict(function_id=1, line=k + 1)])
    for parent, loc in ((0, 1), (0, 2), (2, 3), (0, 3), (4, 1), (5, 2), (0, 1)):
        p.add("stacks", parent_id=parent, location_id=loc)
    for name, tf, codec, how in (("valid-rowrel-u32-edges", ROWREL, 0, "raw"),
                                 ("valid-rowrel-u32-edges-split", ROWREL | SPLIT, 1,
                                  "LZ4, split")):
        e = pack(p.materialize(),
                 codec=lambda t, c, ty: (codec, tf) if t == 10 else 0)
        assert find(e, 10, 1).flags == tf and find(e, 10, 2).flags == tf
        c_valid(name, "row-relative u32 (%s): stacks.parent_id 0 at row 6 (d = 6, the "
                "largest d of a value in range), a chain (d = 0), stacks.location_id above "
                "the row (d = -1: signed)" % how, p, e)
    vals = [2 ** 63 - 1, NA + 2, 2 ** 63 - 1, -1, 4]
    for name, tf, codec, how in (("valid-rowrel-i64-edges", ROWREL, 0, "raw"),
                                 ("valid-rowrel-i64-edges-split", ROWREL | SPLIT, 2,
                                  "zstd, split")):
        p = starts(vals)
        e = pack(p.materialize(), codec=lambda t, c, ty: (codec, tf) if (t, c) == (6, 4) else 0)
        assert find(e, 6, 4).flags == tf
        c_valid(name, "row-relative i64 (%s) on functions.start_line: INT64_MAX at rows 0 and "
                "2 (d = -(2^63 - 1), 2 - (2^63 - 1)), INT64_MIN + 2 at row 1 (d = 2^63 - 1); "
                "INT64_MIN itself (NA) is out of reach at every row" % how, p, e)
    vals = [0, 2 ** 63 + 1, 0, 2 ** 63 + 3, 4]
    for name, tf, how in (("valid-rowrel-u64-edges", ROWREL, "raw"),
                          ("valid-rowrel-u64-edges-split", ROWREL | SPLIT, "raw, split")):
        p = Profile()
        for v in vals:
            p.add("mappings", memory_start=v)
        e = pack(p.materialize(), codec=lambda t, c, ty: (0, tf) if (t, c) == (7, 1) else 0)
        assert find(e, 7, 1).flags == tf
        c_valid(name, "row-relative u64 (%s) on mappings.memory_start: 0 at rows 0 and 2 "
                "(d = 0, 2), i + 2^63 at rows 1 and 3 (d = -2^63, the largest value a row "
                "reaches)" % how, p, e)

    # D5 relaxed: 32768 rows a byte once incompat bit 0 or 1 is set
    p, e = small_entries()
    e.append(rowcount(400, 0))
    c_valid("valid-rows-bound-compact", "valid-small compact (incompat 0x2) with an unknown "
            "table of the most rows D5 allows there, 32768 x (file_size + 17) - 1, beyond the "
            "64 x bound of a 1.0 file", p, rows_at_bound(e, 400, 32768, serialize_compact))
    p, e = small_entries()
    e.append(rowcount(400, 0))
    rows_at_bound(e, 400, 32768, lambda e: serialize(e, **V11))
    case("valid-rows-bound-1-1", "valid", "-", "-", "valid-small as 1.1 (incompat 0x1, 64-byte "
         "entries) with an unknown table of 32768 x (file_size + 17) - 1 rows",
         serialize(e, **V11), views_text(p.materialize(), p.strings))


def v12_header_dir_cases():
    bad("h8-entry-size-0-without-bit-1", "H8", "open", "valid-tiny with dir_entry_size 0 "
        "(the compact size) but incompat bit 1 clear", hooks=[hook_at(52, "<I", 0)])
    c_bad("h8-compact-entry-size-64", "H8", "open", "valid-tiny-compact with dir_entry_size 64",
          hooks=[hook_at(52, "<I", 64)])

    def count_too_big(buf, layout):
        put(buf, 48, "<I", (len(buf) - layout["dir"]) // 2 + 1)
    c_bad("h9-compact-count-too-big", "H9", "open", "dir_count one more than "
          "(file_size - dir_offset) / 2 (an entry takes at least 2 bytes)", hooks=[count_too_big])
    c_bad("h9-compact-count-huge", "H9", "open", "dir_count 2^32 - 1 (a reader checks it "
          "against the directory's bytes before it allocates for the entries)",
          hooks=[hook_at(48, "<I", 2 ** 32 - 1)])
    c_bad("h9-compact-dir-past-end", "H9", "open", "dir_offset file_size + 1",
          hooks=[lambda b, l: put(b, 40, "<Q", len(b) + 1)])
    c_bad("h9-compact-dir-below-64", "H9", "open", "dir_offset 63 (inside the header)",
          hooks=[hook_at(40, "<Q", 63)])

    # D16: the varints and the directory's extent
    def fld(t, c, name, value=None, enc=None, base=tiny_entries):
        e = base()[1]
        x = find(e, t, c)
        if enc is not None:
            x.enc[name] = enc
        else:
            x.fields[name] = value
        return e
    for name, enc, desc in (
            ("d16-varint-not-minimal", b"\x82\x00", "82 00"),
            ("d16-varint-10-bytes-zero", b"\x82" + b"\x80" * 8 + b"\x00",
             "82, eight 80, 00 (10 bytes, the 10th 0, but not minimal)"),
            ("d16-varint-over-2-64", b"\x82" + b"\x80" * 8 + b"\x02",
             "82, eight 80, 02: 2 + 2^64 (a 10th byte above 1)"),
            ("d16-varint-11-bytes", b"\x82" + b"\x80" * 9 + b"\x00",
             "82, nine 80, 00 (11 bytes)")):
        c_bad(name, "D16", "open", "samples' row count 2 written %s" % desc,
              fld(11, 0, "count", enc=enc))
    c_bad("d16-varint-not-minimal-flags", "D16", "open", "functions.name's flags 0 written 80 00",
          fld(6, 1, "flags", enc=b"\x80\x00"))
    c_bad("d16-flags-65536", "D16", "open", "functions.name's flags 65536 (0 in 16 bits)",
          fld(6, 1, "flags", 65536))
    c_bad("d16-key-2-32", "D16", "open", "the first entry's key_delta 2^32 + 65536 (strings' "
          "row count, key 65536, in 32 bits)", fld(1, 0, "key_delta", 2 ** 32 + 65536))
    c_bad("d16-key-sum-2-32", "D16", "open", "a last row-count entry whose key_delta (below "
          "2^32) brings the key to 2^32 (table 65536)", tiny_entries()[1] + [rowcount(65536, 0)])
    c_bad("d16-offset-overflow", "D16", "open", "strings.offsets' gap 2^64 - 1 (a 10-byte "
          "varint ending 01): 64 + gap overflows", fld(1, 1, "gap", 2 ** 64 - 1))
    c_bad("d16-trailing-byte", "D16", "open", "a 00 byte after the last entry (file_size "
          "counts it)", tail=b"\x00")
    c_bad("d16-count-one-less", "D16", "open", "valid-tiny-compact with an unknown table of 0 "
          "rows last and dir_count one less: that entry is left over after the directory (and "
          "nothing else tells)", tiny_entries()[1] + [rowcount(400, 0)],
          hooks=[lambda b, l: put(b, 48, "<I", len(l["entries"]) - 1)])
    c_bad("d16-count-one-more", "D16", "open", "dir_count one more than the entries: the "
          "directory ends inside the missing one",
          hooks=[lambda b, l: put(b, 48, "<I", len(l["entries"]) + 1)])
    c_bad("d16-cut-varint", "D16", "open", "the last entry's count 2 written 82: the file "
          "ends inside the varint", fld(11, 4, "count", enc=b"\x82"))
    c_bad("d16-cut-entry", "D16", "open", "the last entry without its count (the file one "
          "byte shorter)", cut=1)
    e = tiny_entries()[1]
    serialize_compact(e)
    x = e[-1]
    c_bad("d16-cut-before-type", "D16", "open", "the last entry cut after its key_delta, "
          "before its type and codec", e, cut=len(serialize_compact(e)) - x._at["type"])

    # D1-D15 in compact form
    c_bad("d1-compact-key-delta-0", "D1", "open", "samples.duration_ns's key_delta 0: the key "
          "of samples.time_ns again", fld(11, 3, "key_delta", 0))
    c_bad("d2-compact-table-0", "D2", "open", "a first entry of key_delta 0 (table 0, a row "
          "count of 0)", [rowcount(0, 0)] + tiny_entries()[1])
    p, e = tiny_entries()
    set_flags(find(e, 6, 1), 8)
    c_bad("d3-compact-flags-bit-3", "D3", "open", "functions.name's flags 8 (encoded, 1.3) in a "
          "compact file without incompat bit 2", e, incompat=2)
    e = pack(tiny().materialize(), codec=lambda t, c, ty: (0, SPLIT) if (t, c) == (11, 2) else 0)
    c_bad("d3-split-compact-without-bit-0", "D3", "open", "split on samples.time_ns in a compact "
          "file whose incompat bit 0 is clear (0x2: bits 0 and 1 are independent)", e,
          incompat=2)
    e = pack(tiny().materialize(), codec=lambda t, c, ty: (0, ROWREL) if (t, c) == (11, 2) else 0)
    bad("d3-rowrel-without-bit-1", "D3", "open", "row-relative (flags 4) on samples.time_ns in "
        "a file of 64-byte entries marked 1.2 with incompat 0x1: the flag, not the minor, "
        "allows it", e, minor=2, incompat=1)
    e = pack(tiny().materialize(), codec=lambda t, c, ty: 2 if (t, c) == (6, 1) else 0)
    c_bad("d6-zstd-compact-without-bit-0", "D6", "open", "functions.name in zstd in a compact "
          "file whose incompat bit 0 is clear", e, incompat=2)
    # T2: rows no byte pays for (samples without a stored column) keep the
    # 1.0 bound of 64 a byte, though D5 allows 32768 in this file
    e = [x for x in tiny_entries()[1] if x.table != 11 or x.column == 0]
    if not any(x.table == 11 for x in e):
        e.append(rowcount(11, 0))
        e.sort(key=lambda x: x.key())
    rows_at_bound(e, 11, 64, serialize_compact, over=1)
    case("t2-samples-free-rows-compact", "invalid", "T2", "open", "valid-tiny-compact without "
         "samples columns and 64 x (file_size + 17) samples: within D5's 32768 a byte, but rows "
         "no column pays for stay under 64 a byte", serialize_compact(e))
    for name, t, rule, desc in (("d5-rows-compact", 2, "D5", "incompat 0x2"),
                                ("d5-rows-1-1", 1, "D5", "incompat 0x1, 64-byte entries")):
        e = tiny_entries()[1] + [rowcount(400, 0)]
        ser = serialize_compact if t == 2 else (lambda e: serialize(e, **V11))
        rows_at_bound(e, 400, 32768, ser, over=1)
        case(name, "invalid", rule, "open", "%s: an unknown table of 32768 x (file_size + 17) "
             "rows, one more than D5 allows" % desc, ser(e))
    p, e = tiny_entries()
    find(e, 6, 1).gap = 4
    c_bad("d7-compact-raw-misaligned", "D7", "open", "functions.name (raw u32, no transform: "
          "read in place) at a multiple of 8 plus 4", e)
    c_bad("d7-compact-gap-past-end", "D7", "open", "strings.offsets' gap 2^64 - 1 - 64: offset "
          "2^64 - 1 (no overflow) is past dir_offset", fld(1, 1, "gap", 2 ** 64 - 1 - 64))
    e = tiny_entries()[1] + [rowcount(300, 8), Entry(300, 1, BYTES, bytes(8), 8)]
    e[-1].fields.update(stored=16, count=16)
    c_bad("d7-compact-into-directory", "D7", "open", "an unknown bytes column of 8 bytes "
          "claiming 16: it runs 8 bytes into the directory", e)
    e = tiny_entries()[1] + [rowcount(300, 1), Entry(300, 1, 7, b"\x00", 1)]
    c_bad("d9-compact-type-7-unknown", "D9", "open", "an unknown column of type 7 in a compact "
          "file (no width: no decoded size)", e)
    e = tiny_entries()[1] + [rowcount(300, 2), Entry(300, 1, I64, bytes(16), 2, codec=1)]
    e[-1].fields.update(count=2 ** 61)
    c_bad("d11-compact-overflow-unknown", "D11", "open", "an unknown LZ4 i64 column of 2^61 "
          "elements: its decoded size, count x 8, overflows", e)
    e = pack(tiny().materialize(), codec=lambda t, c, ty: (0, DELTA) if (t, c) == (11, 2) else 0)
    set_flags(find(e, 11, 2), DELTA | ROWREL)
    c_bad("d14-rowrel-delta", "D14", "open", "samples.time_ns with delta and row-relative "
          "(flags 5; incompat 0x3)", e)
    for name, t, c, what in (("d14-rowrel-f64", 17, 5, "models.r_square (f64)"),
                             ("d14-rowrel-u8", 7, 6, "mappings.flags (u8)"),
                             ("d14-rowrel-bytes", 1, 2, "strings.bytes")):
        p, e = small_entries()
        set_flags(find(e, t, c), ROWREL)
        c_bad(name, "D14", "open", "row-relative on %s" % what, e)


def v12_use_full_cases():
    # U10: row-relative values out of their type (decoded on use)
    def rowrel_bad(name, desc, t, c, ty, ds, base, tf=ROWREL, rule="U10"):
        e = pack(base.materialize(), codec=lambda tt, cc, yy: (0, tf) if (tt, cc) == (t, c) else 0)
        x = find(e, t, c)
        x.data = b"".join(struct.pack(SIGNED[ty], d) for d in ds)
        if tf & SPLIT:
            x.data = split_bytes(x.data, WIDTH[ty])
        x.flags = tf
        c_bad(name, rule, "use", desc, e)
    rowrel_bad("u10-rowrel-u32-negative", "stacks.parent_id d = 0, 2: the second value would be "
               "1 - 2 = -1", 10, 1, U32, [0, 2], small())
    rowrel_bad("u10-rowrel-i64-over", "functions.start_line d = 0, -(2^63 - 1): 1 + 2^63 - 1 "
               "= 2^63 does not fit an i64", 6, 4, I64, [0, -(2 ** 63 - 1)], starts([1, 2]))
    rowrel_bad("u10-rowrel-i64-min", "functions.start_line d = -2^63 at row 0: 2^63", 6, 4, I64,
               [-2 ** 63, 0], starts([1, 2]))
    rowrel_bad("u10-rowrel-u64-negative", "mappings.memory_start d = 0, 0, 3: 2 - 3 = -1",
               7, 1, U64, [0, 0, 3], mappings(3))
    rowrel_bad("u10-rowrel-u64-negative-split", "u10-rowrel-u64-negative with byte-stream "
               "split (undone first; incompat 0x3)", 7, 1, U64, [0, 0, 3], mappings(3),
               tf=ROWREL | SPLIT)
    rowrel_bad("u5-rowrel-parent", "stacks.parent_id d = 0, -1: stack 2's parent is 2 (U5, "
               "checked on the decoded values)", 10, 1, U32, [0, -1], small(), rule="U5")

    # F: a compact entry has no crc; body_crc covers the sections
    p, e = tiny_entries()

    def change_section(buf, layout):
        put(buf, 56, "<I", zlib.crc32(bytes(buf[64:])))  # the valid file's body_crc
        x = find(layout["entries"], 1, 2)
        at = x._off + bytes(x.data).index(b"rprof")
        buf[at] = ord("R")
    c_bad("f1-compact-section-byte", "F1", "full", "valid-tiny-compact with the string rprof "
          "changed to Rprof after body_crc was computed (no section crc to catch it)", e,
          hooks=[change_section], fix=("header",))
    p, e = tiny_entries()
    find(e, 6, 1).gap = 16

    def gap_byte(buf, layout):
        x = find(layout["entries"], 6, 1)
        buf[x._off - 1] = 1
    c_bad("f3-compact-gap", "F3", "full", "a 1 in a 16-byte gap before functions.name", e,
          hooks=[gap_byte])
    c_bad("f3-compact-before-directory", "F3", "full", "a 3-byte gap before the compact "
          "directory, its middle byte 0x80", dir_gap=3,
          hooks=[lambda b, l: b.__setitem__(l["dir"] - 2, 0x80)])


def v12_cases():
    v12_valid_cases()
    v12_header_dir_cases()
    v12_use_full_cases()
    gap_cases()


# ------------------------------------------ format 1.3: encoded columns (§4.1)
V13 = dict(minor=3, incompat=ENCODED_1_3)  # 64-byte entries, encoded columns (§9)


def enc_profile(n=6):
    """The base of the encoded cases: n samples of two values each (cpu,
    alloc), times on a line of slope 100, weight 7 throughout, three stacks."""
    p = Profile()
    S = p.s
    src = p.add("sources", source_type=S("rprof"))
    cpu = p.add("value_types", type=S("cpu"), unit=S("nanoseconds"))
    alloc = p.add("value_types", type=S("alloc"), unit=S("bytes"))
    for k in range(3):
        f = p.add("functions", name=S("f%d" % k), start_line=10 * k + 1)
        p.add("locations", lines=[dict(function_id=f, line=k + 1)])
    for parent in range(3):
        p.add("stacks", parent_id=parent, location_id=parent + 1)
    for i in range(n):
        p.add("samples", source_id=src, time_ns=1000 + 100 * i + i % 3, weight=7,
              stack_id=(3, 1, 2)[i % 3],
              values=[dict(value_type_id=cpu, value=10000 + 37 * i),
                      dict(value_type_id=alloc, value=-i * i)])
    return p


# how valid-enc-small encodes enc_profile's columns: (table, column) -> enc_lanes' plan
ENC_PLANS = {(1, 1): {}, (3, 1): {}, (4, 1): {}, (4, 2): {}, (6, 1): {}, (6, 4): dict(steps=[10]),
             (8, 4): dict(steps=[1]), (9, 1): {}, (9, 2): {}, (10, 1): {}, (10, 2): {},
             (11, 2): dict(steps=[100]), (11, 4): {}, (11, 6): {}, (11, 8): dict(steps=[2]),
             (12, 1): dict(k=2), (12, 2): dict(k=2)}


def enc_pack(M, plans, **kw):
    """pack(M, **kw) with the columns of `plans` encoded (§4.1) by their
    plan (enc_lanes' arguments, and codec)."""
    e = pack(M, **kw)
    for (t, c), plan in plans.items():
        plan = dict(plan)
        i = e.index(find(e, t, c))
        e[i] = encoded(t, c, e[i].type, M[t][c], **plan)
    return e


def e_valid(name, desc, p, plans, ser=serialize_compact, **kw):
    M = p.materialize()
    e = enc_pack(M, plans, **kw)
    case(name, "valid", "-", "-", desc, ser(e), views_text(M, p.strings))
    return e


def e_base(t, c, p=None, plans=ENC_PLANS):
    """valid-enc-small's entries (or p's with `plans`), its values of (t, c)."""
    p = p or enc_profile()
    M = p.materialize()
    return enc_pack(M, plans), M[t][c]


def e_set(e, t, c, data):
    """Column (t, c) of e encoded as the raw section `data`."""
    x = find(e, t, c)
    x.data, x.flags, x.decoded, x.codec = data, ENCODED, len(data), 0
    return e


def e_bad(name, rule, desc, t, c, plan=None, mod=None, raw=None, vals=None, stage="use", **lay):
    """valid-enc-small with column (t, c) (or `vals` instead of its values)
    encoded by `plan` (default: its plan there), its lanes changed by
    mod(lanes), laid out by enc_layout(**lay) and the bytes changed by
    raw(bytes)."""
    e, v = e_base(t, c)
    vals = v if vals is None else vals
    lanes = enc_lanes(vals, **(ENC_PLANS.get((t, c), {}) if plan is None else plan))
    if mod:
        mod(lanes)
    data = enc_layout(lanes, **lay)
    if raw:
        data = raw(data)
    c_bad(name, rule, stage, desc, e_set(e, t, c, data))


def many_functions(n):
    p = Profile()
    for k in range(n):
        p.add("functions", name=p.s("fn%03d" % k))
    return p


def v13_valid_cases():
    e = e_valid("valid-enc-small", "enc_profile (6 samples of 2 values) compact 1.3 (incompat "
                "0x6) with every u32, i64 and u64 column encoded: the base of the encoded cases",
                enc_profile(), ENC_PLANS)
    assert {x.flags for x in e if x.column and x.type in (U32, I64, U64)} == {ENCODED}
    p = enc_profile()
    e = e_valid("valid-enc-constant", "samples.weight (i64, 7 in every row) and samples."
                "source_id (u32, 1, stored) as one lane of width 0 and step 0: 32 bytes each",
                p, {(11, 4): {}, (11, 1): {}}, keep=[(11, 1)])
    assert all(len(find(e, 11, c).data) == 32 for c in (1, 4))
    e = e_valid("valid-enc-offsets-affine", "samples.value_offsets (u64: 0, 2, ..., 12) as one "
                "lane of width 0 and step 2 (every sample has two values)",
                enc_profile(), {(11, 8): dict(steps=[2])})
    assert enc_lanes(enc_profile().materialize()[11][8], steps=[2])[0].width == 0
    p = enc_profile(5)
    e = e_valid("valid-enc-values-lanes", "5 samples of 2 values: values.value_type_id and "
                "values.value in k = 2 lanes (one a value type: type ids of width 0; values of "
                "width 1 after 5 codes, padded to 4 for the width-4 lane: 3 zero bytes), and "
                "samples.stack_id in k = 3 lanes of 2, 2 and 1 rows", p,
                {(12, 1): dict(k=2), (12, 2): dict(k=2, widths=[1, 4]),
                 (11, 6): dict(k=3), (11, 8): dict(steps=[2])})
    assert len(enc_lanes(p.materialize()[11][6], k=3)[2].codes) == 1
    p = many_functions(300)
    for k in range(1, 9):
        p.add("stacks", parent_id=k - 1, location_id=(k * 5) % 7 + 1)
        p.add("locations", lines=[dict(function_id=k * 37, line=k)])
    e = e_valid("valid-enc-narrow-ids", "300 functions: functions.name (string ids 1-300) in "
                "one lane of step 0 and width 2; stacks.location_id and stacks.parent_id "
                "(8 rows) of width 1; locations' line_offsets affine (step 1)", p,
                {(6, 1): dict(steps=[0]), (10, 1): {}, (10, 2): {}, (8, 4): dict(steps=[1]),
                 (9, 1): {}})
    assert find(e, 6, 1).data[24] == 2 and find(e, 10, 2).data[24] == 1
    p = enc_profile()
    for k, (lo, hi) in enumerate(((0x400000, 0x500000), (0x7f0000000000, 0x7f0000001000),
                                  (2 ** 64 - 4096, 2 ** 64 - 1))):
        p.add("mappings", memory_start=lo, memory_limit=hi, file_offset=k * 70000)
    for r in p.t[TABLE_ID["samples"]]:
        r["time_ns"] = r["time_ns"] * 1000
    e = e_valid("valid-enc-width-4-8", "mappings.memory_start and memory_limit (u64, "
                "spread over 2^32) of width 8, mappings.file_offset (0, 70000, 140000) and "
                "samples.time_ns (spread 5 x 10^5) of width 4", p,
                {(7, 1): {}, (7, 2): {}, (7, 3): {}, (11, 2): {}})
    assert [find(e, t, c).data[24] for t, c in ((7, 1), (7, 2), (7, 3), (11, 2))] == [8, 8, 4, 4]
    p = starts([1000, 990, 979, 970, 960, 955])
    e = e_valid("valid-enc-negative-step", "functions.start_line (i64: 1000, 990, 979, 970, "
                "960, 955) as one lane of step -10 (stored 2^64 - 10) and width 1 from base "
                "999 (codes 1, 1, 0, 1, 1, 6)", p, {(6, 4): dict(steps=[-10])})
    assert find(e, 6, 4).data[16:24] == struct.pack("<q", -10)
    p = starts([25, 10, -5, -20, -35])
    e_valid("valid-enc-negative-crossing", "functions.start_line (i64: 25, 10, -5, -20, -35) "
            "as one lane of base 25, step -15, width 0: values below 0 read as two's "
            "complement", p, {(6, 4): dict(steps=[-15])})
    p = rich()
    M = p.materialize()
    plans = {(x.table, x.column): dict(codec=2 if (x.table + x.column) % 3 == 0 else 0)
             for x in pack(M) if x.column and x.type in (U32, I64, U64)}
    e = e_valid("valid-enc-rich", "valid-rich with every u32, i64 and u64 column encoded (one "
                "lane, step 0, the narrowest width: 1, 2, 4 or 8), a third of them under zstd: "
                "every view reads encoded columns", p, plans)
    assert {x.data[24] for x in e if x.flags == ENCODED and x.codec == 0} >= {1, 2, 8}
    p = Profile()
    for v in (3, 7, 100, 4):
        p.add("mappings", memory_start=v)
    lanes = [Lane(4, 0, 8, [2 ** 64 - 1, 3, 2 ** 64 - 1, 0], exc=[(2, 100)])]
    e_valid("valid-enc-width-8-all-ones", "mappings.memory_start (u64: 3, 7, 100, 4) in one "
            "lane of base 4 and width 8: row 0's code 2^64 - 1 without an exception (4 + "
            "2^64 - 1 wraps to 3), row 2's with one (100)", p, {(7, 1): dict(lanes=lanes)})
    p = enc_profile()
    lanes = [Lane(1, 0, 4, [2, 0, 2 ** 32 - 1, 2, 0, 1], exc=[(2, 2)])]
    e_valid("valid-enc-u32-patched-all-ones", "samples.stack_id (u32: 3, 1, 2, 3, 1, 2) in one "
            "lane of base 1, width 4, row 2's code 2^32 - 1 patched to 2: the formula's 2^32 is "
            "not a value of the column (U11 looks at the patched value)", p,
            {(11, 6): dict(lanes=lanes)})
    p = enc_profile()
    lanes = [Lane(-3, 1, 1, [6, 3, 255, 3, 0, 0], exc=[(2, 2)])]
    e_valid("valid-enc-u32-step-patched", "samples.stack_id (u32: 3, 1, 2, 3, 1, 2 of 3 "
            "stacks) in one lane of base -3 (stored 2^64 - 3), step 1, width 1: row 2's code "
            "255 patched to 2 (its formula's -3 + 2 + 255 = 254 is no value of the column, "
            "U5 looks at the patched value)", p, {(11, 6): dict(lanes=lanes)})
    p = starts([2 ** 63 - 2, 2 ** 63 - 1, NA + 1, NA + 2])
    e_valid("valid-enc-i64-wrap", "functions.start_line (i64: 2^63 - 2, 2^63 - 1, "
            "INT64_MIN + 1, INT64_MIN + 2) as base 2^63 - 2, width 1, codes 0, 1, 3, 4: "
            "base + code passes 2^63 and reads as two's complement", p,
            {(6, 4): dict(bases=[2 ** 63 - 2], widths=[1])})
    p = starts([1, 5, 100, 2, 5, 1000, 3, 5])
    e = e_valid("valid-enc-width-0-between", "functions.start_line in k = 3 lanes of widths "
                "1, 0 and 2: lane 0's 3 codes end at byte 83, lane 1 (width 0, 5 throughout) "
                "stores nothing and skips nothing, lane 2's codes start at 84 after one zero "
                "byte", p, {(6, 4): dict(k=3)})
    assert list(find(e, 6, 4).data[24:96:24]) == [1, 0, 2]
    p = enc_profile()
    for r, s in zip(p.t[TABLE_ID["samples"]], (3, 3, 2, 2, 1, 1)):
        r["stack_id"] = s
    e_valid("valid-enc-u32-negative-step", "samples.stack_id (u32: 3, 3, 2, 2, 1, 1) in k = 2 "
            "lanes of base 3, step -1 (stored 2^64 - 1), width 0: base + r x step wraps modulo "
            "2^64 to values below 2^32", p, {(11, 6): dict(k=2, steps=[-1, -1])})
    p = Profile()
    starts_ = [2 ** 64 - 8, 2 ** 64 - 4, 0, 4, 8]
    limits = [2 ** 64 - 1, 1, 3, 5, 7]
    for a, b in zip(starts_, limits):
        p.add("mappings", memory_start=a, memory_limit=b)
    e_valid("valid-enc-u64-wrap", "mappings.memory_start (u64) base 2^64 - 8, step 4, width 0: "
            "2^64 - 8, 2^64 - 4, then base + r x step wraps to 0, 4, 8; memory_limit base "
            "2^64 - 2, step 0, width 1, codes 1, 3, 5, 7, 9: base + code wraps to 1, 3, 5, 7",
            p, {(7, 1): dict(steps=[4], bases=[2 ** 64 - 8], widths=[0]),
                (7, 2): dict(bases=[2 ** 64 - 2], widths=[1])})
    p = enc_profile()
    vals = p.t[TABLE_ID["samples"]]
    vals[0]["time_ns"] = NA
    alloc = [0, 5, 255, 100000, 3, NA]
    cpu = [10000, 2 ** 63 - 1, 10002, 10003, 9000, 10005]
    for r, a, b in zip(vals, cpu, alloc):
        r["values"][0]["value"], r["values"][1]["value"] = a, b
    plans = {(11, 2): dict(steps=[100], bases=[1000], widths=[1]),
             (12, 2): dict(k=2, bases=[9000, 0], widths=[2, 1])}
    e = e_valid("valid-enc-exceptions", "patched codes: samples.time_ns (width 1, step 100) "
                "with NA at row 0 as an exception; values.value in 2 lanes, cpu of width 2 "
                "with INT64_MAX an exception, alloc of width 1 with 100000 and NA exceptions "
                "and 255 an all-ones code without one (an ordinary code: base + 255)", p, plans)
    lanes = enc_lanes(p.materialize()[12][2], **plans[(12, 2)])
    assert [len(l.exc) for l in lanes] == [1, 2] and lanes[1].codes[2] == 255
    p = enc_profile()
    plans = {(11, 2): dict(steps=[100], codec=2), (12, 2): dict(k=2, codec=1),
             (11, 4): dict(codec=2), (11, 6): {}}
    e = e_valid("valid-enc-zstd-compact", "valid-enc-small's samples.time_ns and weight "
                "encoded under zstd, values.value under LZ4 (incompat 0x7), each followed by "
                "its decoded size (the layout's bytes) in the compact entry, right after the "
                "previous section; samples.stack_id encoded raw at a multiple of 8", p, plans)
    assert any(x._off % 8 for x in e if x.column and x.codec)
    assert find(e, 11, 6)._off % 8 == 0
    p = enc_profile()
    M = p.materialize()
    e = enc_pack(M, {(11, 4): {}}) + [rowcount(300, 0), encoded(300, 1, U32, [])]
    e.insert(e.index(find(e, 6, 0)), encoded(5, 1, U32, []))
    e.insert(e.index(find(e, 5, 1)), rowcount(5, 0))
    assert find(e, 5, 1).data == bytes([1]) + bytes(31)
    case("valid-enc-zero-rows", "valid", "-", "-", "valid-enc-small's profile with "
         "source_value_types of 0 rows storing source_id encoded: count 0, k = 1, one lane of "
         "0 rows (32 bytes); likewise an unknown u32 column of 0 rows", serialize_compact(e),
         views_text(M, p.strings))
    p = enc_profile()
    plans = dict(ENC_PLANS)
    plans[(12, 2)] = dict(k=2, codec=1)
    e_valid("valid-enc-64-byte-entries", "valid-enc-small with 64-byte entries, incompat 0x4 "
            "alone (bit 2 without bit 1), version 1.3; values.value under LZ4 (its entry's "
            "decoded_size, the layout's bytes)", p, plans, ser=lambda e: serialize(e, **V13))


def v13_open_cases():
    e, _ = e_base(11, 4)
    c_bad("d3-enc-without-bit-2", "D3", "open", "valid-enc-small with incompat 0x2: flags bit 3 "
          "(encoded) without incompat bit 2 (the minor, 3, does not allow it)", e, incompat=2,
          minor=3)
    e, _ = e_base(11, 4)
    set_flags(find(e, 11, 4), ENCODED | 16)
    c_bad("d3-flags-bit-4", "D3", "open", "valid-enc-small with samples.weight's flags 0x18: "
          "bit 4 is unassigned in 1.3", e)
    e, _ = e_base(11, 4)
    find(e, 11, 4).gap = 4
    c_bad("d7-enc-misaligned", "D7", "open", "valid-enc-small with samples.weight (encoded, "
          "codec 0: read in place) at a multiple of 8 plus 4", e)
    e, _ = e_base(11, 4)
    e_set(e, 11, 4, find(e, 11, 4).data[:24])
    c_bad("d11-enc-decoded-24", "D11", "open", "valid-enc-small with samples.weight's section "
          "cut to its first 24 bytes (k, the reserved word, base, step): decoded_size 24 < 32",
          e)
    e = enc_pack(enc_profile().materialize(), {(11, 4): dict(codec=2)})
    find(e, 11, 4).enc["decoded"] = bytes([0xA0, 0x80, 0x00])
    c_bad("d16-enc-decoded-not-minimal", "D16", "open", "samples.weight encoded under zstd, its "
          "compact entry's decoded size 32 written a0 80 00", e)
    # D14: bit 3 with another transform bit, or on a type it does not fit.  Each
    # column's count x width equals its decoded size, so D11 holds either way
    p = Profile()
    for _ in range(8):
        p.add("functions", name=p.s("f"))
    for bit, what in ((SPLIT, "split"), (ROWREL, "row-relative"), (DELTA, "delta")):
        e = enc_pack(p.materialize(), {(6, 1): {}})
        assert len(find(e, 6, 1).data) == 8 * 4
        set_flags(find(e, 6, 1), ENCODED | bit)
        # (1.5: split with encoded is byte-split lanes, which need incompat
        # bit 4 (D3, before D14) and a codec (D14))
        rule = "D3" if bit == SPLIT else "D14"
        c_bad("%s-enc-%s" % (rule.lower(), what.replace("row-relative", "rowrel")), rule, "open",
              "8 functions named f: functions.name encoded (32 bytes, = 8 x 4) with %s too (flags "
              "0x%x; incompat 0x7%s)" % (what, ENCODED | bit, ": byte-split lanes (1.5) without "
                                         "incompat bit 4, and raw" if bit == SPLIT else ""),
              e, incompat=7)
    for name, t, c, n, what in (("d14-enc-u8", 7, 6, 32, "mappings.flags (u8, 32 rows)"),
                                ("d14-enc-f64", 17, 5, 4, "models.r_square (f64, 4 rows)")):
        p = Profile()
        for _ in range(n):
            if t == 7:
                p.add("mappings", flags=1)
            else:
                p.add("models", r_square=f64(0.5))
        e = pack(p.materialize())
        x = find(e, t, c)
        x.data = enc_layout(enc_lanes([1] * n))
        assert len(x.data) == x.decoded
        set_flags(x, ENCODED)
        c_bad(name, "D14", "open", "encoded on %s: a 32-byte section of one constant lane "
              "(count x width = 32 too)" % what, e, incompat=6, minor=3)
    p = many_functions(12)
    e = pack(p.materialize())
    assert find(e, 1, 2).decoded >= 32
    set_flags(find(e, 1, 2), ENCODED)
    c_bad("d14-enc-bytes", "D14", "open", "strings.bytes (60 bytes) with flags 8 in a 1.3 "
          "file (incompat 0x6)", e, incompat=6, minor=3)
    # unknown columns: never decoded, but D11 and D14 hold for them too
    def unknown(x):
        e, _ = e_base(11, 4)
        return e + [rowcount(300, 4), x]
    x = Entry(300, 1, U32, bytes(24), 4)
    x.flags = ENCODED
    c_bad("d11-enc-unknown-24", "D11", "open", "valid-enc-small with an unknown encoded u32 "
          "column (4 rows) of 24 bytes: decoded_size < 32, though nothing decodes it",
          unknown(x))
    x = Entry(300, 1, F64, enc_layout(enc_lanes([1] * 4)), 4)
    x.flags = ENCODED
    c_bad("d14-enc-unknown-f64", "D14", "open", "valid-enc-small with an unknown f64 column "
          "(4 rows, 32 bytes) encoded", unknown(x))
    e, _ = e_base(11, 4)
    x = encoded(11, 4, I64, [7] * 6, codec=2)
    x.fields["decoded"] = 16
    e[e.index(find(e, 11, 4))] = x
    c_bad("d11-enc-zstd-decoded-16", "D11", "open", "valid-enc-small with samples.weight "
          "(a 32-byte constant lane) under zstd, its entry's decoded size 16", e)
    # D5: a constant lane holds any number of rows in 32 bytes
    p = enc_profile()
    M = p.materialize()
    e = [x for x in enc_pack(M, {(11, 4): {}}) if x.table != 11 or x.column in (0, 4)]
    e = [x for x in e if x.table not in (2, 12)]
    rc, w = find(e, 11, 0), find(e, 11, 4)
    while True:
        want = 32768 * (len(serialize_compact(e)) + 17)
        if rc.count == want:
            break
        rc.count = w.count = want
    case("d5-enc-constant-rows", "invalid", "D5", "open", "samples whose only column is "
         "weight, a constant lane of 32 bytes, and 32768 x (file_size + 17) rows (count too): "
         "one more than D5 allows", serialize_compact(e))
    while True:  # incompat bit 2 alone (64-byte entries) keeps the 1.0 bound, 64 a byte
        want = 64 * (len(serialize(e, **V13)) + 17)
        if rc.count == want:
            break
        rc.count = w.count = want
    case("d5-enc-rows-bit-2-alone", "invalid", "D5", "open", "the same with 64-byte entries "
         "and incompat 0x4 alone: 64 x (file_size + 17) rows, one more than D5 allows without "
         "incompat bit 0 or 1", serialize(e, **V13))


def v13_valid_unknown():
    p = enc_profile()
    M = p.materialize()
    e = enc_pack(M, ENC_PLANS)
    x = Entry(300, 1, U32, bytes([0xFF]) * 40, 6)
    x.flags = ENCODED
    e += [rowcount(300, 6), x, encoded(300, 2, U64, [2 ** 64 - 1] * 6, codec=1)]
    case("valid-enc-unknown-entries", "valid", "-", "-", "valid-enc-small with an unknown "
         "table: an encoded u32 column of 40 bytes 0xff (k = 2^32 - 1: never decoded, so never "
         "checked) and an encoded u64 column under LZ4", serialize_compact(e),
         views_text(M, p.strings))


def v13_use_cases():
    def setb(at, v):
        def f(d):
            d = bytearray(d)
            d[at] = v
            return bytes(d)
        return f
    # samples.stack_id: one lane of width 1, 6 rows (3, 1, 2, 3, 1, 2): 40 bytes
    for w in (3, 16):
        e_bad("u11-width-%d" % w, "U11", "samples.stack_id's lane of width 1 (6 codes, 2 zero "
              "bytes) claims width %d" % w, 11, 6, raw=setb(24, w))
    e_bad("u11-width-past-end", "U11", "samples.stack_id's lane of width 1 claims width 8: "
          "its 6 codes would run 40 bytes past the section", 11, 6, raw=setb(24, 8))
    e_bad("u11-lanes-0", "U11", "samples.stack_id with k = 0 (the lane still laid out)",
          11, 6, k=0)
    e_bad("u11-lanes-over-count", "U11", "samples.stack_id (6 elements) in 7 lanes, the 7th "
          "of 0 rows", 11, 6, plan=dict(k=6), mod=lambda L: L.append(Lane(0, 0, 0, [])))
    e_bad("u11-reserved-header", "U11", "samples.stack_id with the reserved word 1",
          11, 6, reserved=1)

    def lane_res(L):
        L[0].reserved = b"\x00\x01\x00"
    e_bad("u11-reserved-lane", "U11", "samples.stack_id's lane with reserved byte 26 = 1",
          11, 6, mod=lane_res)

    def w0_exc(L):
        L[0].exc = [(0, 7)]
    e_bad("u11-width-0-exception", "U11", "samples.weight (a constant lane, width 0) with one "
          "exception (row 0, 7) laid out", 11, 4, mod=w0_exc)

    # exceptions: values.value's alloc lane (k = 2, lane 1: 0, -1, -4, -9, -16, -25) at
    # width 1 from base -12, so that -16 and -25 are patched (rows 4 and 5)
    plan = dict(k=2, bases=[10000, -12], widths=[1, 1])
    L = enc_lanes(enc_profile().materialize()[12][2], **plan)
    assert [r for r, v in L[1].exc] == [4, 5] and L[1].codes[3] == 3, L[1].codes

    def more_exc(L):
        L[1].codes = [255] * 6
        L[1].exc = [(r, 0) for r in range(6)] + [(6, 0)]
    e_bad("u11-exceptions-over-rows", "U11", "values.value's alloc lane (6 rows) with 7 "
          "exceptions", 12, 2, plan=plan, mod=more_exc)

    def order(L):
        L[1].exc.reverse()
    e_bad("u11-exception-rows-order", "U11", "values.value's alloc lane with its exceptions "
          "at rows 5 then 4", 12, 2, plan=plan, mod=order)

    def equal(L):
        L[1].exc[0] = (5, L[1].exc[0][1])
    e_bad("u11-exception-rows-equal", "U11", "values.value's alloc lane with two exceptions "
          "at row 5", 12, 2, plan=plan, mod=equal)

    def past(L):
        L[1].exc[1] = (6, L[1].exc[1][1])
    e_bad("u11-exception-row-past", "U11", "values.value's alloc lane (6 rows) with an "
          "exception at row 6", 12, 2, plan=plan, mod=past)

    def not_ones(L):
        L[1].exc.insert(0, (3, 2 ** 64 - 9))
    e_bad("u11-exception-not-all-ones", "U11", "values.value's alloc lane with an exception "
          "at row 3, whose code is 3 (not 255)", 12, 2, plan=plan, mod=not_ones)
    e_bad("u11-padding-exceptions", "U11", "values.value in 2 lanes of width 1 (12 codes "
          "from byte 56): the 4 bytes before the exceptions are 01", 12, 2, plan=plan,
          pad=b"\x01")
    e_bad("u11-padding-codes", "U11", "values.value in 2 lanes of widths 1 and 4: the 2 "
          "bytes between lane 0's 6 codes (from 56) and lane 1's (at 64) are 01", 12, 2,
          plan=dict(k=2, widths=[1, 4], bases=[10000, -25]), pad=b"\x01")
    e_bad("u11-trailing-bytes", "U11", "samples.stack_id's layout followed by 8 zero bytes "
          "(decoded_size counts them)", 11, 6, tail=bytes(8))
    e_bad("u11-no-final-padding", "U11", "samples.stack_id's 6 codes (width 1, no exceptions) "
          "ending at byte 38 without the 2 zero bytes to a multiple of 8 (decoded_size 38)",
          11, 6, raw=lambda d: d[:38])
    e_bad("u11-cut-exception", "U11", "values.value's alloc lane with its last exception cut "
          "to 8 bytes (the layout ends past decoded_size)", 12, 2, plan=plan,
          raw=lambda d: d[:-8])

    # k = 4097 needs 4097 elements: functions.start_line of 4097 rows, one lane a row
    p = starts([5] * 4097)
    M = p.materialize()
    e = pack(M)
    lanes = enc_lanes(M[6][4], k=4097)
    assert lanes[0].codes == [0] and len(lanes) == 4097
    data = enc_layout(lanes)
    seqs = [("lit", data[:32])]
    pos = 32
    while pos < len(data) - 12:  # identical descriptors: matches at distance 24
        m = min(1000, len(data) - 12 - pos)
        seqs += [("match", 24, m), ("lit", b"")]
        pos += m
    seqs[-1] = ("lit", data[pos:])
    block = lz4_sequences(seqs)
    assert lz4_decode(block, len(data)) == data and len(data) // 255 <= len(block) + 1
    x = find(e, 6, 4)
    x.data, x.flags, x.decoded, x.codec = block, ENCODED, len(data), 1
    c_bad("u11-lanes-4097", "U11", "use", "functions.start_line (4097 rows, all 5) in 4097 "
          "lanes of one row (the limit is 4096), under LZ4 (98 KB of lanes in %d bytes)" % len(block), e)

    # U11: a u32 value of 2^32 or more (its low 32 bits a valid id)
    def over(L):
        L[0].base += 2 ** 32
    e_bad("u11-u32-over", "U11", "samples.stack_id's lane with base 1 + 2^32: every value is "
          "2^32 more than a valid stack id", 11, 6, mod=over)

    def over_exc(L):
        L[0].codes[2] = 255
        L[0].exc = [(2, 2 ** 32 + 2)]
    e_bad("u11-u32-exception-over", "U11", "samples.stack_id with row 2 patched to 2^32 + 2",
          11, 6, mod=over_exc)
    e_bad("u11-descriptors-past-end", "U11", "samples.weight (6 rows, a 32-byte constant "
          "lane) with k = 2: the second lane's descriptor would run past the section", 11, 4,
          k=2)
    # §8.2 on the decoded values
    e_bad("u4-enc-string-id", "U4", "functions.name (string ids 6, 7, 8 of 9) with its base "
          "4 more: ids 10, 11, 12", 6, 1, mod=lambda L: setattr(L[0], "base", L[0].base + 4))
    e_bad("u5-enc-stack-id", "U5", "samples.stack_id (3 stacks) with base 1 + 1: ids up to 4",
          11, 6, mod=lambda L: setattr(L[0], "base", L[0].base + 1))
    e_bad("u5-enc-parent", "U5", "stacks.parent_id (0, 1, 2) with step 1: 0, 2, 4 (stack 2's "
          "parent is 2)", 10, 1, mod=lambda L: setattr(L[0], "step", 1))
    # U5 with a step: ids from base + r x step + code (a reader that bounds
    # the lane by its codes' range and the step must see each of these)
    e_bad("u5-enc-stack-id-step", "U5", "samples.stack_id (3, 1, 2, 3, 1, 2 of 3 stacks) "
          "with step 1: 3, 2, 4, 6, 5, 7", 11, 6, mod=lambda L: setattr(L[0], "step", 1))

    def step_exc(L):
        L[0].codes[2] = 255
        L[0].exc = [(2, 4)]
    e_bad("u5-enc-stack-id-step-exception", "U5", "samples.stack_id (3, 1, 2, 3, 1, 2) as "
          "base -3, step 1, width 1 (codes 6, 3, 3, 3, 0, 0) with row 2's code 255 patched to "
          "stack 4 of 3", 11, 6, plan=dict(steps=[1], widths=[1]), mod=step_exc)

    def step_all_ones(L):
        L[0].codes[5] = 255
    e_bad("u5-enc-stack-id-step-all-ones", "U5", "the same with row 5's code 255 and no "
          "exception (an ordinary code: -3 + 5 + 255 = 257 of 3 stacks) besides row 2's, "
          "patched to 2", 11, 6, plan=dict(steps=[1], widths=[1]),
          mod=lambda L: (step_exc(L), L[0].exc.__setitem__(0, (2, 2)), step_all_ones(L)))
    e_bad("u5-enc-stack-id-lane-1", "U5", "samples.stack_id (3, 1, 2, 3, 1, 2 of 3 stacks) "
          "in k = 3 lanes, lane 1's base 3 more: elements 1 and 4 are stack 4", 11, 6,
          plan=dict(k=3), mod=lambda L: setattr(L[1], "base", L[1].base + 3))
    e_bad("u4-enc-string-id-step-down", "U4", "functions.name (string ids 6, 7, 8 of 9; "
          "codes 0, 1, 2) with base 13 and step -3: ids 13, 11, 9",
          6, 1, mod=lambda L: (setattr(L[0], "step", -3), setattr(L[0], "base", L[0].base + 7)))
    e, v = e_base(1, 1)
    e_bad("u3-enc-string-0", "U3", "strings.offsets (encoded) with element 1 = 1: string 0 "
          "is not empty (U2 still holds)", 1, 1, vals=[0, 1] + v[2:])
    assert v[2] >= 1
    e_bad("f5-enc-time-order", "F5", "samples.time_ns (encoded, step 100) 1000, 1101, 1202, "
          "1300, 1250, 1502: time goes back within a source", 11, 2,
          vals=[1000, 1101, 1202, 1300, 1250, 1502], stage="full")
    e_bad("u2-enc-offsets-end", "U2", "samples.value_offsets with step 3 (0, 3, ..., 18): "
          "the last is not values' 12 rows", 11, 8,
          mod=lambda L: setattr(L[0], "step", 3))
    e_bad("u2-enc-offsets-decrease", "U2", "samples.value_offsets 0, 2, 4, 6, 10, 8, 12 (step "
          "2, width 1): element 5 is below element 4", 11, 8, vals=[0, 2, 4, 6, 10, 8, 12])


def v13_lz4_cases():
    """LZ4 over encoded columns, as `pcol pack --compress lz4` writes them
    (format 1.3): the block inflates to the layout of §4.1, whose size is
    the compact entry's decoded size; hostile ones lie in that size, in the
    layout inside the block, or in both."""
    p = enc_profile()
    plans = {k: dict(v, codec=1) for k, v in ENC_PLANS.items()}
    e = e_valid("valid-enc-lz4-compact", "valid-enc-small with every encoded column under "
                "LZ4 (incompat 0x6: LZ4 needs no bit 0), each compact entry followed by its "
                "decoded size (the layout's bytes), sections at any offset: the form `pcol pack "
                "--compress lz4` writes", p, plans)
    assert all(x.codec == 1 for x in e if x.column and x.flags & ENCODED)
    assert any(x._off % 8 for x in e if x.column and x.codec)

    def lz4_values(decoded=None, mod=None, raw=None, plan=dict(k=2, codec=1)):
        """valid-enc-small with values.value (2 lanes) under LZ4: the lanes
        changed by mod, the layout by raw, the entry's decoded size forced."""
        e, v = e_base(12, 2)
        lanes = enc_lanes(v, **{k: x for k, x in plan.items() if k != "codec"})
        if mod:
            mod(lanes)
        data = enc_layout(lanes)
        if raw:
            data = raw(data)
        x = find(e, 12, 2)
        x.data, x.flags, x.decoded, x.codec = lz4_compress(data), ENCODED, len(data), 1
        if decoded is not None:
            x.fields["decoded"] = decoded(len(data), len(x.data))
        return e, len(data)
    # a decoded size that lies: over or under what the block inflates to (U1),
    # under one lane's 32 bytes (D11), over LZ4's 255:1 (D12)
    e, n = lz4_values(decoded=lambda d, s: d + 8)
    c_bad("u1-enc-lz4-decoded-over", "U1", "use", "values.value (2 lanes, %d bytes) under "
          "LZ4, its compact entry's decoded size %d: the block inflates to 8 bytes fewer"
          % (n, n + 8), e)
    e, n = lz4_values(decoded=lambda d, s: d - 8)
    c_bad("u1-enc-lz4-decoded-under", "U1", "use", "values.value (2 lanes, %d bytes) under "
          "LZ4, its compact entry's decoded size %d (a multiple of 8, over 32): the block "
          "runs past it" % (n, n - 8), e)
    c_bad("d11-enc-lz4-decoded-24", "D11", "open", "values.value under LZ4, its compact "
          "entry's decoded size 24 (< 32, one lane's descriptor)",
          lz4_values(decoded=lambda d, s: 24)[0])
    c_bad("d12-enc-lz4-ratio", "D12", "open", "values.value under LZ4 (a block of s bytes), "
          "its compact entry's decoded size 255 x (s + 2): more than LZ4 can expand to",
          lz4_values(decoded=lambda d, s: 255 * (s + 2))[0])
    # the block is right, the layout inside it wrong (U11, after inflating)
    plan = dict(k=2, bases=[10000, -12], widths=[1, 1], codec=1)
    c_bad("u11-enc-lz4-cut-exception", "U11", "use", "values.value's alloc lane (2 "
          "exceptions) under LZ4, the layout's last exception cut to 8 bytes before "
          "compressing: the block inflates to exactly its decoded size, 8 bytes fewer than "
          "the lanes' header lays out", lz4_values(plan=plan, raw=lambda d: d[:-8])[0])

    def width(w):
        def f(d):
            d = bytearray(d)
            d[48] = w  # lane 1's width (24 + 24 x 1)
            return bytes(d)
        return f
    c_bad("u11-enc-lz4-width-3", "U11", "use", "values.value (2 lanes of width 1) under LZ4, "
          "lane 1's width 3 inside the block", lz4_values(plan=plan, raw=width(3))[0])
    c_bad("u11-enc-lz4-width-past-end", "U11", "use", "values.value (2 lanes of width 1) "
          "under LZ4, lane 1's width 8 inside the block: its 6 codes run past the inflated "
          "layout", lz4_values(plan=plan, raw=width(8))[0])


def v13_cases():
    v13_valid_cases()
    v13_valid_unknown()
    v13_open_cases()
    v13_use_cases()
    v13_lz4_cases()



# ------------------------------- format 1.5: byte-split lanes (§4.1)
# valid-enc-small's plans, the lanes of its wider columns forced wider so
# that the split moves bytes: values.value in 2 lanes of width 2 and 4, the
# times of width 8, the stacks' ids of width 2; every column under `codec`
def split_plans(codec):
    plans = {k: dict(v, codec=codec, split=True) for k, v in ENC_PLANS.items()}
    plans[(12, 2)] = dict(k=2, widths=[2, 4], codec=codec, split=True)
    plans[(11, 2)] = dict(steps=[100], widths=[8], codec=codec, split=True)
    plans[(11, 6)] = dict(widths=[2], codec=codec, split=True)
    plans[(6, 1)] = dict(widths=[2], codec=codec, split=True)
    return plans


def lane_spans(layout, count):
    """[(start, width, rows)] of each lane's codes in a §4.1 layout."""
    k = struct.unpack_from("<I", layout, 0)[0]
    p, out = 8 + 24 * k, []
    for j in range(k):
        w = layout[8 + 24 * j + 16]
        rows = (count - j - 1) // k + 1 if count > j else 0
        if w:
            p = -(-p // w) * w
        out.append((p, w, rows))
        p += w * rows
    return out


def v15_cases():
    for codec, cname in ((1, "lz4"), (2, "zstd")):
        e = e_valid("valid-enc-split-%s" % cname, "valid-enc-small with every encoded column under "
                    "%s with its lanes byte-split (flags 0xa; incompat 0x17%s, version 1.5): "
                    "values.value in 2 lanes of width 2 and 4, samples.time_ns of width 8, "
                    "samples.stack_id and stacks.parent_id of width 2, the rest of width 0 or 1 "
                    "(stored as in 1.3)" % (cname.upper() if codec == 1 else cname,
                                            "" if codec == 1 else ", zstd's bit 0 set anyway"),
                    enc_profile(), split_plans(codec))
        assert all(x.flags == ENCODED | SPLIT for x in e if x.column and x.flags & ENCODED)
    # exceptions: their codes are all ones only once the lane is joined
    plans = split_plans(1)
    plans[(12, 2)] = dict(k=2, bases=[10000, -12], widths=[2, 2], codec=1, split=True)
    e = e_valid("valid-enc-split-exceptions", "values.value in 2 lanes of width 2 under LZ4, "
                "byte-split; the alloc lane's base -12 leaves -16 and -25 as exceptions (code "
                "0xffff once joined)", enc_profile(), plans)
    # the header bits (D3) and the codec (D14)
    def split_entries(codec=1):
        M = enc_profile().materialize()
        return enc_pack(M, split_plans(codec))
    c_bad("d3-enc-split-without-bit-4", "D3", "open", "valid-enc-split-lz4 with incompat 0x7 "
          "(version 1.5 all the same): flags 0xa need bit 4", split_entries(),
          incompat=CODECS_1_1 | COMPACT_1_2 | ENCODED_1_3, minor=5)
    c_bad("d3-enc-split-without-bit-0", "D3", "open", "valid-enc-split-lz4 with incompat 0x16: "
          "split (flags bit 1) needs bit 0 in any entry", split_entries(),
          incompat=COMPACT_1_2 | ENCODED_1_3 | SPLIT_LANES_1_5, minor=5)
    e = split_entries()
    x = find(e, 11, 4)  # samples.weight, one constant lane: 32 bytes raw
    x.data, x.codec, x.flags, x.decoded = enc_layout(enc_lanes([7] * 6)), 0, ENCODED | SPLIT, 32
    c_bad("d14-enc-split-raw", "D14", "open", "valid-enc-split-lz4 with samples.weight encoded "
          "raw (codec 0) and flags 0xa: byte-split lanes only under codec 1 or 2", e)
    e = split_entries()
    find(e, 11, 2).flags = ENCODED | SPLIT | DELTA
    c_bad("d14-enc-split-delta", "D14", "open", "valid-enc-split-lz4 with samples.time_ns's "
          "flags 0xb (encoded, split and delta)", e)
    # the layout inside the block (U11), lanes found from their descriptors
    M = enc_profile().materialize()
    vals = M[12][2]
    lanes = enc_lanes(vals, k=2, bases=[10000, -12], widths=[2, 2])

    def split_values(raw, desc, name):
        e = enc_pack(M, split_plans(1))
        data = raw(enc_layout(lanes, split=True))
        x = find(e, 12, 2)
        x.data, x.flags, x.decoded, x.codec = lz4_compress(data), ENCODED | SPLIT, len(data), 1
        c_bad(name, "U11", "use", desc, e)

    def exc_high_byte(d):  # the high byte of lane 1's row 4 (an exception) set to 0
        start, w, rows = lane_spans(d, len(vals))[1]
        d = bytearray(d)
        d[start + rows + 4] = 0
        return bytes(d)
    split_values(exc_high_byte, "valid-enc-split-exceptions's values.value with the high byte of "
                 "the alloc lane's row 4 (an exception) 0: joined, its code is 0x00ff, not all "
                 "ones",
                 "u11-enc-split-exception-code")

    def width8(d):
        d = bytearray(d)
        d[8 + 24 + 16] = 8  # lane 1's width
        return bytes(d)
    split_values(width8, "values.value's 2 split lanes under LZ4, lane 1's width 8 inside the "
                 "block: its 6 codes (48 bytes) run past the inflated layout before a byte is "
                 "joined", "u11-enc-split-width-past-end")

# ----------------------------- issue 28: the gaps an independent reader found
def window_frame(raw, window_log):
    """raw as one raw block in a frame that is not single-segment, with a
    Window_Descriptor of 2^window_log bytes (exponent window_log - 10,
    mantissa 0) and Frame_Content_Size len(raw) (RFC 8878 3.1.1.1)."""
    assert 256 <= len(raw) < 65536 + 256
    fhd = (1 << 6)  # FCS_Field_Size 2 bytes, not single-segment, no dictionary
    return (ZSTD_MAGIC + bytes([fhd, (window_log - 10) << 3]) + struct.pack("<H", len(raw) - 256)
            + zstd_block(0, raw, True))


def gap_cases():
    # §4: Window_Size at most 2^31 (libzstd's limit on 64-bit systems)
    p = starts(range(1, 41))  # functions.start_line: 40 rows, 320 bytes
    raw = b"".join(struct.pack("<q", k) for k in range(1, 41))
    for log, ok in ((31, True), (32, False)):
        e = pack(p.materialize())
        x = find(e, 6, 4)
        x.codec, x.data = 2, window_frame(raw, log)
        if ok:
            c = e
            case("valid-zstd-window-2g", "valid", "-", "-", "functions.start_line as a zstd "
                 "frame whose Window_Size is 2^31, the largest §4 allows (64-byte entries, 1.1)",
                 serialize(c, **V11), views_text(p.materialize(), p.strings))
        else:
            bad("u9-zstd-window-4g", "U9", "use", "functions.start_line as a zstd frame whose "
                "Window_Size is 2^32 (over §4's 2^31)", e, **V11)
    # T2: strings rows are paid for by the offsets column only (a 0-byte
    # strings.bytes pays for none), here in a file without zstd (bit 1 alone)
    e = [rowcount(1, 0), Entry(1, 2, BYTES, b"", 0)]
    rows_at_bound(e, 1, 32768, serialize_compact)
    case("t2-strings-bytes-only", "invalid", "T2", "open", "a compact file (incompat 0x2 alone: "
         "no zstd) whose strings table has as many rows as D5 allows (32768 a byte) and stores "
         "only a 0-byte strings.bytes, no offsets: rows no column pays for stay under 64 a byte",
         serialize_compact(e))
    e = [rowcount(1, 0), Entry(1, 2, BYTES, b"", 0)]
    rows_at_bound(e, 1, 64, serialize_compact, over=1)
    case("t2-strings-free-rows", "invalid", "T2", "open", "the same with 64 x (file_size + 17) "
         "rows, one more than T2 allows without strings.offsets", serialize_compact(e))
    # D7: a 0-byte section read in place is aligned like any other
    e = tiny_entries()[1] + [rowcount(300, 0), Entry(300, 1, U32, b"", 0)]
    e[-1].gap = 4
    c_bad("d7-compact-empty-misaligned", "D7", "open", "an unknown u32 column of 0 bytes (raw, "
          "no transform: read in place) at a multiple of 8 plus 4", e)
    e = tiny_entries()[1] + [rowcount(300, 0), Entry(300, 1, U32, b"", 0)]
    e[-1].gap = 8
    p = tiny()
    case("valid-compact-empty-aligned", "valid", "-", "-", "valid-tiny-compact with an unknown "
         "u32 column of 0 bytes at a multiple of 8 after 8 zero bytes", serialize_compact(e),
         views_text(p.materialize(), p.strings))
    e = tiny_entries()[1] + [rowcount(300, 0), Entry(300, 1, U32, b"", 0)]
    e[-1].offset = None
    e[-1].gap = 32
    bad("d7-empty-misaligned", "D7", "open", "an unknown u32 column of 0 bytes at a multiple of "
        "64 plus 32 (64-byte entries)", e)


# ----------------------------------------- format 1.4: zstd blocks (§4.2)
def blocks_profile():
    """Seven samples of one source over three stacks and two threads, each
    with one value, times 0, 10, ... 60 (a long sample among them)."""
    p = Profile()
    S = p.s
    src = p.add("sources", source_type=S("pprof"))
    vt = p.add("value_types", type=S("cpu"), unit=S("nanoseconds"))
    fn = p.add("functions", name=S("f"))
    loc = p.add("locations", lines=[dict(function_id=fn, line=1)])
    a = p.add("stacks", location_id=loc)
    b = p.add("stacks", parent_id=a, location_id=loc)
    c = p.add("stacks", parent_id=b, location_id=loc)
    l1 = p.add("labelsets", labels=[dict(key=S("thread"), str=S("main"))])
    l2 = p.add("labelsets", labels=[dict(key=S("thread"), str=S("io"))])
    for k, (st, ls) in enumerate([(a, l1), (b, l1), (c, l2), (a, l2), (b, l1), (c, l1), (a, l2)]):
        extra = dict(duration_ns=10, weight=2) if k == 3 else {}
        p.add("samples", source_id=src, time_ns=10 * k, stack_id=st, labelset_id=ls,
              values=[dict(value_type_id=vt, value=1000 * (k + 1))], **extra)
    return p


def blocked(rows, tf=True):
    """codec(): every samples column but value_offsets in zstd blocks of rows
    (with delta and split where §4 allows them, tf)."""
    def codec(t, c, ty):
        if t != 11 or c == 8:
            return 0
        bits = (DELTA | SPLIT if ty in (U32, I64, U64) else SPLIT if ty == F64 else 0) if tf else 0
        return (3, bits, rows)
    return codec


def b_entries(rows=2, tf=True):
    p = blocks_profile()
    return p, pack(p.materialize(), codec=blocked(rows, tf))


def b_set(e, t, c, **kw):
    """Entry (t, c)'s codec-3 bytes rebuilt: frames (list of bytes), block_rows,
    nblocks (forced), or data itself."""
    x = find(e, t, c)
    if "data" in kw:
        x.data = kw["data"]
        return x
    x.data = blocks_layout(kw["frames"], kw["rows"], kw.get("nblocks"))
    return x


def block_frames(x, rows):
    """The frames of a codec-3 entry as laid out (block_rows rows)."""
    n = struct.unpack_from("<I", x.data)[0]
    ends = [struct.unpack_from("<Q", x.data, 8 + 8 * b)[0] for b in range(n)]
    starts = [8 + 8 * n] + ends[:-1]
    return [x.data[a:b] for a, b in zip(starts, ends)]


def v14_cases():
    p, e = b_entries()
    c_valid("valid-blocked", "every samples column but its value offsets in zstd blocks "
            "of 2 rows (codec 3, incompat bit 3, version 1.4; 4 blocks, the last of 1 row), "
            "with delta and split where they apply, each block transformed alone", p, e)
    p, e = b_entries(rows=1000, tf=False)
    c_valid("valid-blocked-one", "samples columns in zstd blocks of 1000 rows: one block "
            "of 7, shorter than block_rows; no transform (incompat 0xa)", p, e)
    p, e = b_entries(rows=1)
    c_valid("valid-blocked-rows-1", "samples columns in zstd blocks of 1 row each (7 "
            "blocks)", p, e)
    # the header bit (D6)
    p, e = b_entries()
    c_bad("d6-codec-3-without-bit-3", "D6", "open", "valid-blocked with incompat 0x3 "
          "(version 1.4 all the same): codec 3 needs bit 3", e, incompat=COMPACT_1_2 | CODECS_1_1,
          minor=4)
    # the block table (D17), on samples.time_ns: 7 rows in 4 blocks of 2
    def tbad(name, desc, **kw):
        p, e = b_entries()
        x = find(e, 11, 2)
        frames = block_frames(x, 2)
        if "mod" in kw:
            kw["mod"](x, frames)
        c_bad(name, "D17", "open", desc, e)
    tbad("d17-blocks-order", "samples.time_ns's block ends 0 and 1 swapped (not increasing)",
         mod=lambda x, f: setattr(x, "data", x.data[:8] + x.data[16:24] + x.data[8:16] + x.data[24:]))
    tbad("d17-blocks-count-overflow", "samples.time_ns with nblocks 2^32 - 1 (a table of 32 GiB "
         "past its section; the rows need 4)",
         mod=lambda x, f: setattr(x, "data", struct.pack("<I", 2 ** 32 - 1) + x.data[4:]))
    tbad("d17-blocks-count-short", "samples.time_ns with nblocks 3 for 7 rows in blocks of 2 "
         "(the table then ends 8 bytes early)",
         mod=lambda x, f: setattr(x, "data", struct.pack("<I", 3) + x.data[4:]))
    tbad("d17-blocks-rows-zero", "samples.time_ns with block_rows 0",
         mod=lambda x, f: setattr(x, "data", x.data[:4] + struct.pack("<I", 0) + x.data[8:]))
    tbad("d17-blocks-past-end", "samples.time_ns whose last block ends 1 byte past the section",
         mod=lambda x, f: setattr(x, "data", x.data[:32] + struct.pack("<Q", len(x.data) + 1)
                                  + x.data[40:]))
    tbad("d17-blocks-trailing", "samples.time_ns with a byte after its last block (the last "
         "end is not stored_size)", mod=lambda x, f: setattr(x, "data", x.data + b"\x00"))
    tbad("d17-blocks-empty-block", "samples.time_ns whose block 1 ends where it starts (0 "
         "bytes)", mod=lambda x, f: setattr(x, "data", x.data[:16] + x.data[8:16] + x.data[24:]))
    tbad("d17-blocks-header-cut", "samples.time_ns of 7 bytes: shorter than nblocks and "
         "block_rows", mod=lambda x, f: setattr(x, "data", x.data[:7]))
    p, e = b_entries()
    x = find(e, 1, 2)
    x.codec, x.data = 3, blocks_layout([zstd_compress(x.data)], len(x.data))
    c_bad("d17-blocks-bytes", "D17", "open", "strings.bytes (type bytes) in zstd blocks", e)
    p, e = b_entries()
    x = find(e, 11, 7)
    x.flags, x.decoded = ENCODED, 40  # an encoded column's decoded size: its lanes' (D11)
    c_bad("d17-blocks-encoded", "D17", "open", "samples.labelset_id in zstd blocks with flags "
          "bit 3 (encoded; decoded_size 40)", e, incompat=COMPACT_1_2 | CODECS_1_1 | ENCODED_1_3 | BLOCKS_1_4)
    # a block that claims more than zstd can expand to: an unknown u8 column
    # of 2^20 rows in one block of a 13-byte frame
    p, e = b_entries()
    x = Entry(300, 1, U8, blocks_layout([zstd_frame([(1, b"\x00", 1 << 17)], 1 << 17)], 1 << 20),
              1 << 20)
    x.codec, x.decoded = 3, 1 << 20
    e += [rowcount(300, 1 << 20), x]
    c_bad("d17-blocks-bomb", "D17", "open", "an unknown u8 column of 2^20 rows in one zstd "
          "block of 13 bytes (over 32768:1)", e)
    # blocks that break U13 (found when the block is decoded: use)
    def ubad(name, rule, desc, col, mod):
        p, e = b_entries()
        x = find(e, 11, col)
        frames = block_frames(x, 2)
        mod(frames)
        x.data = blocks_layout(frames, 2)
        c_bad(name, rule, "use", desc, e)
    raw = b"".join(struct.pack("<q", v) for v in (20, 10))  # block 1 of time_ns: deltas from 0
    ubad("u13-block-short", "U13", "samples.time_ns's block 1 a frame of 8 bytes (one i64, "
         "its Frame_Content_Size 8) for its 2 rows", 2,
         lambda f: f.__setitem__(1, zstd_compress(raw[:8])))
    ubad("u13-block-long", "U13", "samples.time_ns's block 1 a frame of 24 bytes for its 2 "
         "rows", 2, lambda f: f.__setitem__(1, zstd_compress(raw + raw[:8])))
    ubad("u13-block-not-zstd", "U13", "samples.time_ns's block 3 not a zstd frame (its magic "
         "28 B5 2F FE)", 2, lambda f: f.__setitem__(3, f[3][:3] + b"\xfe" + f[3][4:]))
    # stack_id (u32, delta and split) of block 2, rows 4 and 5: -5 then +1
    neg = transformed([2 ** 32 - 5, 0], U32, 0)[0]  # deltas -5 and 5: the value -5 first
    ubad("u13-block-delta-below-0", "U13", "samples.stack_id's block 2 with deltas -5, 5 (from "
         "0 at the block's start: a u32 below 0)", 6,
         lambda f: f.__setitem__(2, zstd_compress(split_bytes(
             struct.pack("<iI", -5, 5), 4))))
    del neg
    ubad("u5-blocks-stack-id", "U5", "samples.stack_id's last block (row 7) names stack 4 of 3",
         6, lambda f: f.__setitem__(3, zstd_compress(split_bytes(struct.pack("<I", 4), 4))))


# -------------------------------------------------------------- T1: 64 MiB
def large_cases():
    """Rule T1 alone needs more than 2^32 / 64 bytes (D5 comes first): samples
    with 2^32 - 1 rows and no column.  (The valid twin, 2^32 - 2 rows, is in
    tests/test_conformance.c: a full check of 4 billion rows takes seconds.)"""
    e = [rowcount(3, 1), column(3, 3, I64, [0]), rowcount(11, 2 ** 32 - 1)]
    return [("t1-samples-rows", serialize(e, dir_gap=2 ** 26))]


def main():
    args = sys.argv[1:]
    if args and args[0] == "--large":
        os.makedirs(args[1], exist_ok=True)
        for name, data in large_cases():
            with open(os.path.join(args[1], name + ".pcol"), "wb") as f:
                f.write(data)
        return
    out = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "files")
    valid_cases()
    header_cases()
    dir_cases()
    table_cases()
    use_cases()
    full_cases()
    summary_cases()
    v11_cases()
    v12_cases()
    v13_cases()
    v14_cases()
    v15_cases()
    os.makedirs(out, exist_ok=True)
    for old in os.listdir(out):
        if old.endswith((".pcol", ".views", ".ranges", ".counts")):
            os.remove(os.path.join(out, old))
    lines = ["# file\tverdict\trule\tstage\twhat (generated by gen.py; see README.md)"]
    for name, verdict, rule, stage, desc, data, views in CASES:
        with open(os.path.join(out, name + ".pcol"), "wb") as f:
            f.write(data)
        if views is not None:
            with open(os.path.join(out, name + ".views"), "w", encoding="utf-8", newline="\n") as f:
                f.write(views)
        if name in COUNTS:
            with open(os.path.join(out, name + ".counts"), "w", encoding="utf-8", newline="\n") as f:
                f.write(COUNTS[name])
        if name in RANGES:
            with open(os.path.join(out, name + ".ranges"), "w", encoding="utf-8", newline="\n") as f:
                f.write(RANGES[name])
        lines.append("\t".join((name, verdict, rule, stage, desc)))
    lines.append("t1-samples-rows\tinvalid\tT1\topen\tsamples with 2^32 - 1 rows (64 MiB; made "
                 "by gen.py --large at test time)")
    with open(os.path.join(out, "manifest.tsv"), "w", newline="\n") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
