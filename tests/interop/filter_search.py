#!/usr/bin/env python3
"""The planner and the judge of tests/interop/t_filter_search.sh: a seeded
random search of `pcol unpack --to pprof` under pprof's filters against
`go tool pprof -proto` under the same ones.

  filter_search.py plan DIR SEED N INPUT...
      draws N option sets per INPUT (random.Random(SEED)): -focus and
      -ignore regexes built from the names the profile holds (functions,
      files, mappings: whole, a part, anchored, alternatives, (?i), a '.'
      for a byte, or a name no frame has), -tagfocus/-tagignore from its
      labels (KEY=VALUE-RE[,RE], a bare RE of "key:value", numeric ranges
      in the label's unit or none), -tagroot/-tagleaf of its keys, -base or
      -diff_base (another INPUT of the same sample and period types; or the
      profile itself), -normalize, -divide_by.  Writes DIR/K.g and DIR/K.p
      (go's arguments and pcol's, each ended by a NUL byte) and prints
      K<TAB>INPUT<TAB>WHAT per comparison.
  filter_search.py judge DIR
      reads DIR/manifest (K<TAB>WHAT): go's -proto at DIR/K.go.pb.gz and
      pcol's export at DIR/K.pc.pb.gz, pcol's exit status in DIR/K.rc and
      its standard error in DIR/K.err, and go tool pprof's views of each
      (DIR/K.SIDE.VIEW, VIEW top, traces, tags, raw: go's reading of both
      files, each in its own session).  A -proto go refused (no output, a
      complaint) must be refused by pcol (exit not 0), and one pcol refused
      must be one go refused (but for pcol's refusal on purpose of a
      numeric range on a label of strings: doc/cli.md); the rest: each view of pcol's file the same
      text as go's of its own (raw: its Samples part; both from their
      header on; -tags may be empty on both sides).  Prints FAIL lines, and
      "COMPARED REFUSED ON-PURPOSE FAILED".
"""
import os
import re
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from pprof_times import pb_fields, pb_load, pb_vars  # noqa: E402
from pprof_session import read as text  # noqa: E402  (tests/interop: a file's bytes, b"" when none)

META = set('\\.+*?()|[]{}^$')


def quote(s):
    """Go's regexp.QuoteMeta"""
    return "".join("\\" + c if c in META else c for c in s)


def facts(path):
    """(names, labels, numlabels, types): the function names, file names
    and mapping files of a pprof file; its string labels {key: {values}};
    numeric ones {key: ({numbers}, {units})}; its sample types and period
    type (for a base of the same kind)"""
    strs, st, pt, funcs, maps, samples = [], [], None, [], [], []
    for f, wt, v in pb_fields(pb_load(path)):
        if f == 6 and wt == 2:
            strs.append(v.decode("utf-8", "surrogateescape"))
        elif f == 1 and wt == 2:
            d = pb_vars(v)
            st.append((d.get(1, 0), d.get(2, 0)))
        elif f == 11 and wt == 2:
            d = pb_vars(v)
            pt = (d.get(1, 0), d.get(2, 0))
        elif f == 5 and wt == 2:
            d = pb_vars(v)
            funcs += [d.get(2, 0), d.get(4, 0)]
        elif f == 3 and wt == 2:
            maps.append(pb_vars(v).get(5, 0))
        elif f == 2 and wt == 2:
            samples.append(v)
    s = lambda i: strs[i] if 0 <= i < len(strs) else ""
    names = sorted({s(i) for i in funcs + maps} - {""})
    labels, nums = {}, {}
    for v in samples:
        for f2, wt2, v2 in pb_fields(v):
            if f2 != 3 or wt2 != 2:
                continue
            d = pb_vars(v2)
            k = s(d.get(1, 0))
            if not k:
                continue
            if d.get(2):
                labels.setdefault(k, set()).add(s(d[2]))
            elif 3 in d or 4 in d:
                n = d.get(3, 0)
                e = nums.setdefault(k, (set(), set()))
                e[0].add(n - (1 << 64) if n >= 1 << 63 else n)
                e[1].add(s(d.get(4, 0)))
    kind = (tuple((s(a), s(b)) for a, b in st), (s(pt[0]), s(pt[1])) if pt else None)
    return names, labels, nums, kind


def good(n):
    """a name a regex can be built from: UTF-8, no control bytes (a
    session line holds it; pcol and go read argv alike)"""
    try:
        n.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return n and all(ord(c) >= 32 for c in n)


def part(r, n):
    i = r.randrange(len(n))
    return n[i:r.randint(i + 1, len(n))]


def regex(r, names):
    names = [n for n in names if good(n)]
    c = r.random()
    if not names or c < 0.05:
        return "zz_no_such_frame"
    n = r.choice(names)
    if c < 0.3:
        return quote(n)
    if c < 0.55:
        return quote(part(r, n))
    if c < 0.65:
        return "^" + quote(n[:r.randint(1, len(n))])
    if c < 0.75:
        return quote(n[r.randrange(len(n)):]) + "$"
    if c < 0.85:
        return quote(part(r, n)) + "|" + quote(part(r, r.choice(names)))
    if c < 0.92:
        return "(?i)" + quote(part(r, n).upper())
    p = part(r, n)
    i = r.randrange(len(p))
    return quote(p[:i]) + "." + quote(p[i + 1:])


UNITS = {"bytes": ["", "b", "kb", "mb"], "nanoseconds": ["", "ns", "us", "ms"], "kilobytes": ["", "kb", "b"]}


def tag(r, labels, nums):
    """a -tagfocus/-tagignore value, or None when the profile has no label"""
    ks = sorted(k for k in labels if good(k))  # (sorted: a set's order is the process's hash seed's)
    nk = sorted(k for k in nums if good(k))
    if not ks and not nk:
        return None
    if ks and (not nk or r.random() < 0.6):
        k = r.choice(ks)
        vs = sorted(v for v in labels[k] if good(v)) or ["zz"]
        c = r.random()
        if c < 0.5:
            return k + "=" + ",".join(quote(r.choice(vs)) for _ in range(r.choice((1, 1, 2))))
        if c < 0.7:
            return k + "=" + quote(part(r, r.choice(vs)))
        if c < 0.85:
            return quote(k) + ":" + quote(r.choice(vs))  # a bare RE of "key:value"
        return quote(part(r, r.choice(vs)))
    k = r.choice(nk)
    ns, units = nums[k]
    u = r.choice(UNITS.get(sorted(units)[0] if len(units) == 1 else "", [""]))
    lo, hi = sorted(r.choice(sorted(ns)) for _ in range(2))
    c = r.random()
    if u in ("kb", "us") and lo % 1024:
        u = ""  # (a range that is not a whole number of the unit: the raw one)
    scale = {"kb": 1024, "mb": 1 << 20, "us": 1000, "ms": 10 ** 6}.get(u, 1)
    if u == "kb" and sorted(units)[0] == "kilobytes":
        scale = 1
    lo, hi = lo // scale, hi // scale
    rng = ("%d%s:%d%s" % (lo, u, hi, u) if c < 0.4 else "%d%s:" % (lo, u) if c < 0.6 else
           ":%d%s" % (hi, u) if c < 0.8 else "%d%s" % (lo, u))
    return (k + "=" + rng) if r.random() < 0.8 else rng


def plan(d, seed, n, inputs):
    r = random.Random(seed)
    info = {f: facts(f) for f in inputs}
    k = 0
    for f in inputs:
        names, labels, nums, kind = info[f]
        same = [g for g in inputs if g != f and info[g][3] == kind]
        for _ in range(n):
            g, p, what = [], [], []

            def opt(go, pc, val):
                g.append("-%s=%s" % (go, val) if val is not None else "-" + go)
                p.extend(["--" + pc] + ([val] if val is not None else []))
                what.append(g[-1])
            c = r.random()
            if c < 0.55:
                opt("focus", "focus", regex(r, names))
            if r.random() < 0.3:
                opt("ignore", "ignore", regex(r, names))
            for go, pc, pr in (("tagfocus", "tag", 0.35), ("tagignore", "tag-ignore", 0.2)):
                t = tag(r, labels, nums) if r.random() < pr else None
                if t is not None:
                    opt(go, pc, t)
            keys = sorted(x for x in set(labels) | set(nums) if good(x) and "," not in x)
            for go in ("tagroot", "tagleaf"):
                if keys and r.random() < 0.12:
                    opt(go, go, ",".join(r.sample(keys, r.randint(1, min(2, len(keys))))))
            if r.random() < 0.15:
                opt("divide_by", "divide-by", r.choice(("3", "0.5", "7", "2.5", "1e9")))
            if r.random() < 0.22:
                b = r.choice(same) if same and r.random() < 0.8 else f
                opt(r.choice(("base", "diff_base")), "", b)
                p[-2] = "--" + g[-1][1:g[-1].index("=")].replace("_", "-")
                what[-1] = g[-1].split("=")[0] + "=" + os.path.basename(b)
                if r.random() < 0.3:
                    opt("normalize", "normalize", None)
            if not any(a.startswith(("-focus=", "-ignore=", "-tagfocus=", "-tagignore=")) for a in g):
                # (a sample filter in every set: without one pcol's export is a
                # conversion, which keeps the samples without locations that
                # go's -proto drops: t_export_search.sh judges those)
                opt("focus", "focus", regex(r, names))
            with open(os.path.join(d, "%d.g" % k), "wb") as o:
                o.write(b"".join(a.encode("utf-8", "surrogateescape") + b"\0" for a in g))
            with open(os.path.join(d, "%d.p" % k), "wb") as o:
                o.write(b"".join(a.encode("utf-8", "surrogateescape") + b"\0" for a in p))
            print("%d\t%s\t%s %s" % (k, f, os.path.basename(f), " ".join(what)))
            k += 1


# pcol's refusal of a numeric range on a label that has only strings, where
# go matches no sample (doc/cli.md, lib/core/filter.c)
ON_PURPOSE = b"is a numeric range (as in pprof -tagfocus), but label"


def less_count(pv, gv):
    """pcol's -raw less the samples/count column its export adds, the
    first, for a subtracted base's count (THE count column rule,
    lib/core/xvalues.h), which go's -proto of a -base/-diff_base has no
    column for"""
    lines = pv.split(b"\n")
    k = next((i for i, l in enumerate(lines) if l.startswith(b"samples/count ")), None)
    if k is None or gv.split(b"\n")[k : k + 1] == lines[k : k + 1]:
        return pv
    lines[k] = lines[k][len(b"samples/count ") :]
    for i in range(k + 1, len(lines)):
        m = re.match(rb"^ +-?[0-9]+( +-?[0-9]+.*)$", lines[i])
        if m:
            lines[i] = m.group(1)
        elif lines[i] and not lines[i].startswith(b" "):
            break
    return b"\n".join(lines)


def view(p, name):
    """a view's text from its header on (File: or, -raw, its Samples)"""
    t = text(p)
    if name == "raw":
        i = t.find(b"\nSamples:")
        j = t.find(b"\nLocations")
        return t[i:j] if i >= 0 else t
    return t


def judge(d):
    compared = refused = failed = purpose = 0
    for line in text(os.path.join(d, "manifest")).decode("utf-8", "surrogateescape").splitlines():
        k, what = line.split("\t", 1)
        b = os.path.join(d, k)
        go_out, go_err = text(b + ".go.pb.gz"), text(b + ".go.pb.gz.err")
        rc = text(b + ".rc").strip()
        if not go_out:
            if rc == b"0":
                failed += 1
                print("FAIL: %s: go refused the -proto (%s), pcol wrote it" % (what, go_err.strip()[:300].decode(errors="replace")))
            else:
                refused += 1
            continue
        if rc != b"0" and ON_PURPOSE in text(b + ".err"):
            purpose += 1  # (doc/cli.md: a range on a label of strings is refused)
            continue
        if rc != b"0":
            failed += 1
            print("FAIL: %s: pcol refused (%s), go wrote its -proto" % (what, text(b + ".err").strip()[:300].decode(errors="replace")))
            continue
        compared += 1
        bad = []
        for v in ("top", "traces", "tags", "raw"):
            gv, pv = view(b + ".go." + v, v), view(b + ".pc." + v, v)
            if v == "raw" and gv != pv:
                pv = less_count(pv, gv)
            if gv != pv or (v != "tags" and not text(b + ".go." + v)):
                bad.append(v)
        if bad:
            failed += 1
            print("FAIL: %s: go's %s of pcol's export differ from go's of its -proto (%s.{go,pc}.VIEW)" % (what, ", ".join(bad), b))
    print("%d %d %d %d" % (compared, refused, purpose, failed))


if __name__ == "__main__":
    if sys.argv[1] == "plan":
        plan(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5:])
    else:
        judge(sys.argv[2])
