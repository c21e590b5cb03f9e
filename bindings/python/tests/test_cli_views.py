"""Every view of the CLI (top, peek, tree, list, tags, traces, diff, fold) with
its options, selection and filters equals `pcol VIEW --format json` (fold:
`pcol fold`'s text) on every test profile: the same rows, names and
numbers (exactly; shares as the CLI prints them), and an error where the
CLI fails."""
import json
import os
import warnings
import re
import subprocess
import sys
from decimal import Decimal

import numpy as np
import pytest

import pcol
from conftest import TESTDATA, run_pcol

# CLI options of each keyword argument
OPT = {"sort": "--sort", "node_fraction": "--node-fraction", "limit": "-n", "value": "--value",
       "source": "--source", "from_": "--from", "to": "--to", "focus": "--focus",
       "ignore": "--ignore", "hide": "--hide", "show": "--show", "tag": "--tag",
       "tag_ignore": "--tag-ignore", "show_from": "--show-from", "tagshow": "--tagshow",
       "taghide": "--taghide", "by": "--by", "edge_fraction": "--edge-fraction",
       "node_count": "--node-count"}


def cli_args(kw):
    out = []
    for k, v in kw.items():
        if k == "no_inlines":
            out += ["--no-inlines"] if v else []
        elif k == "relative_percentages":
            out += ["--relative-percentages"] if v else []
        elif k == "absolute":
            out += ["--absolute"] if v else []
        elif k in ("mean", "drop_negative"):
            out += ["--" + k.replace("_", "-")] if v else []
        elif v is not None:
            out += [OPT[k], str(v)]
    return out


def cli_json(*args):
    r = run_pcol(*args, "--format", "json", check=False)
    if r.returncode != 0:
        return None, r.stderr.decode("utf-8", "replace")
    return json.loads(r.stdout.decode("utf-8"), parse_float=Decimal), None


def same_num(ours, cli, digits=None, decimals=0):
    if cli is None:
        return ours is None
    if digits is not None:
        return "%.*f" % (digits, ours) == "%.*f" % (digits, cli)
    if decimals:
        return Decimal(ours) / (10 ** decimals) == Decimal(cli)
    return ours == cli


def check(view, path, args, got, pct=(), digits=2, decimals=0, strings=()):
    """got: a pcol.View, or the pcol.Error it raised; args: the CLI's."""
    want, err = cli_json(view, *args)
    if want is None:
        if view in ("peek", "list") and "no matches found" in err:
            assert not isinstance(got, Exception), (path, args, got)
            assert len(got) == 0, (path, args)
            return 0
        assert isinstance(got, pcol.Error), "%s %s: pcol fails (%s), the binding gives %r" % (
            view, args, err.strip(), got)
        return 0
    if isinstance(got, Exception):
        raise AssertionError("%s %s: pcol gives rows, the binding raises %r" % (view, args, got))
    rows = want["rows"]
    assert len(got) == len(rows), "%s %s: %d rows, pcol %d" % (view, args, len(got), len(rows))
    assert got.type == want["type"] and got.unit == want["unit"], (view, args)
    if view in ("top", "peek", "tree", "list"):
        assert got.total == want["total"], (view, args, got.total, want["total"])
    if view == "tags":  # one total per key, as the CLI's rows and text give them
        assert want["total"] is None, (view, args, want["total"])
        assert got.total == {r["key"]: r["key_total"] for r in rows}, (view, args, got.total)
    for c in (rows[0].keys() if rows else ()):
        if c == "unit":
            assert all(r["unit"] == got.unit for r in rows)
            continue
        col = got[c]
        for i, r in enumerate(rows):
            ours = pcol._cell(col[i])
            ok = (same_num(ours, r[c], digits) if c in pct and ours is not None else
                  same_num(ours, r[c], decimals=decimals) if decimals and isinstance(ours, int) else
                  ours == r[c])
            if not ok:
                pytest.fail("%s %s column %s row %d: binding %r, pcol %r" % (view, " ".join(args), c, i, ours, r[c]))
    return 1


def attempt(fn, *a, **kw):
    try:
        return fn(*a, **kw)
    except pcol.Error as e:
        return e


def ere(s):
    """s as a POSIX ERE matching itself"""
    return re.sub(r"([][.^$*+?(){}|\\])", r"\\\1", s)


def name_regex(name):
    # ERE-escaped, and short: the first 40 characters (a NUL or newline ends it)
    return ere(re.split(r"[\x00\n\r]", name)[0][:40]) or "."


def probes(f):
    """(a function name, a label "key=value" or None, a label key or None)"""
    t = f.top(limit=3)
    name = t["name"][1] if len(t) > 1 else (t["name"][0] if len(t) else "main")
    tags = f.tags()
    tag = key = None
    if len(tags):
        key = tags["key"][0]
        if key and re.fullmatch(r"[A-Za-z0-9_.-]+", key):
            v = tags["value"][0]
            tag = "%s=%s" % (key, ere(v)) if v and "," not in v else None
        else:
            key = None
    return name, tag, key


TOP_VARIANTS = [
    dict(),
    dict(by="line", sort="cum"),
    dict(by="file", sort="name"),
    dict(by="address", node_fraction=0.005, limit=10),
    dict(by="filefunction", sort="cum"),
    dict(sort="cum", node_fraction=0.01, limit=5),
    dict(value="weight"),
    dict(value="samples", no_inlines=True),
    dict(mean=True, sort="cum"),
    dict(drop_negative=True, node_fraction=0.005, limit=10),
]


def check_file(path, i, variants):
    """every view of one file with the CLI's defaults; with variants, the
    options, filters, sorts and keys too"""
    n = 0
    with pcol.open(path) as f:
        try:
            name, tag, key = probes(f)
        except pcol.Error:
            name, tag, key = "main", None, None
        rx = name_regex(name)
        tops = [dict()]
        if variants:  # every option of top; the filters in turn
            filters = [dict(focus=rx), dict(ignore=rx), dict(hide=rx), dict(show=rx),
                       dict(show_from=rx), dict(ignore=rx, relative_percentages=True)]
            tops = list(TOP_VARIANTS) + [filters[i % len(filters)]]
            if tag:
                tops += [dict(tag=tag), dict(tag_ignore=tag)]
            if key:
                tops.append(dict(by="label:" + key))
        for kw in tops:
            a = dict(kw)
            by = a.pop("by", "function")
            got = attempt(f.top, by, **a)
            n += check("top", path, [path, "--by", by] + cli_args(a), got,
                       pct=("flat_pct", "sum_pct", "cum_pct"))
        # peek and list of the probe's name
        for kw in (dict(), dict(by="line", sort="cum"), dict(mean=True))[:3 if variants else 1]:
            a = dict(kw)
            by = a.pop("by", "function")
            n += check("peek", path, [path, rx, "--by", by] + cli_args(a),
                       attempt(f.peek, rx, by, **a), pct=("pct",))
        n += check("list", path, [path, rx], attempt(f.list, rx))
        # tree (pprof -tree): its defaults; with variants by cum, few nodes, by line, filtered
        trees = [dict()] + ([dict(sort="cum", node_count=7), dict(by="line", node_fraction=0.0, edge_fraction=0.01),
                             dict(focus=rx, relative_percentages=True), dict(mean=True, sort="cum")]
                            if variants else [])
        for kw in trees:
            a = dict(kw)
            by = a.pop("by", "function")
            n += check("tree", path, [path, "--by", by] + cli_args(a), attempt(f.tree, by, **a), pct=("pct",))
        if variants:
            n += check("list", path, [path, ".", "--by", "file"], attempt(f.list, ".", by="file"))
            n += check("list", path, [path, rx, "--mean"], attempt(f.list, rx, mean=True))
            n += check("traces", path, [path, "-n", "40", "--mean"], attempt(f.traces, limit=40, mean=True))
            for by in ("line", "file", "address", "filefunction"):  # pprof -traces -lines, ...
                n += check("traces", path, [path, "-n", "40", "--by", by], attempt(f.traces, by=by, limit=40))
        # tags, traces
        n += check("tags", path, [path], attempt(f.tags), pct=("pct",))
        n += check("traces", path, [path, "-n", "40"], attempt(f.traces, limit=40))
        if tag and variants:
            n += check("tags", path, [path, "--tag", tag], attempt(f.tags, tag=tag), pct=("pct",))
        if key and variants:  # the probe's key hidden, then shown alone
            for kw in (dict(taghide=ere(key)), dict(tagshow="^%s$" % ere(key))):
                n += check("tags", path, [path] + cli_args(kw), attempt(f.tags, **kw), pct=("pct",))
                n += check("traces", path, [path, "-n", "40"] + cli_args(kw),
                           attempt(f.traces, limit=40, **kw))
        # fold: the exact text
        r = run_pcol("fold", path, check=False)
        fo = attempt(f.fold)
        if r.returncode != 0:
            assert isinstance(fo, pcol.Error), path
        else:
            assert fo.data == r.stdout, path
            assert len(fo) == r.stdout.count(b"\n")
            n += 1
    return n


def test_views_equal_pcol(packed):
    """each view once on every test profile, with the CLI's defaults"""
    n = sum(check_file(path, i, False) for i, (_src, path) in enumerate(packed))
    assert n > 4 * len(packed)


def test_view_options_equal_pcol(representative):
    """every option, filter, sort and key, on a file of each format and
    feature (the options run the same code whatever the file)"""
    n = sum(check_file(path, i, True) for i, (_src, path) in enumerate(representative))
    assert len(representative) >= 15 and n > 12 * len(representative)


def test_diff_equals_pcol(packed, representative):
    """diff of each profile against the next one of its folder (and, for
    the representative files, against itself with every option)"""
    n = 0
    rep = {p for _s, p in representative}
    for i, (src, path) in enumerate(packed):
        others = [p for s, p in packed[i + 1:i + 4] if s.rsplit("/", 1)[0] == src.rsplit("/", 1)[0]]
        pairs = [(others[0] if others else path, (dict(),))]
        if path in rep:
            pairs = [(o, (dict(), dict(absolute=True, sort="cum", limit=20), dict(by="line", sort="name")))
                     for o in [path] + others[:1]]
        for other, kws in pairs:
            with pcol.open(path) as f:
                for kw in kws:
                    a = dict(kw)
                    by = a.pop("by", "function")
                    got = attempt(f.diff, other, by, **a)
                    if isinstance(got, pcol.Error) or not a.get("absolute"):
                        n += check("diff", path, [path, other, "--by", by] + cli_args(a), got,
                                   pct=("base_flat", "new_flat", "d_flat", "base_cum", "new_cum",
                                        "d_cum"), digits=4)
                    else:
                        n += check("diff", path, [path, other, "--by", by] + cli_args(a),
                                   got, decimals=got.decimals)
    assert n > len(packed) // 2


def test_diff_by_address_aslr_equals_pcol(tmp_path):
    """Two runs of one PIE program loaded at other addresses (pprofgen.py
    aslr): File.diff by address pairs their rows at the new run's
    addresses, as `pcol diff` does (one library rule,
    pcol_open_readdressed); each side's own addresses paired no row
    before, every row a row of one side"""
    gen = os.path.join(os.path.dirname(__file__), "..", "..", "..", "tests", "support", "pprofgen.py")
    if not os.path.exists(gen):
        pytest.skip("tests/support/pprofgen.py not found")
    a, b = str(tmp_path / "a.pb"), str(tmp_path / "b.pb")
    subprocess.run([sys.executable, gen, "aslr", a, "0x555555554000"], check=True)
    subprocess.run([sys.executable, gen, "aslr", b, "0x5600aa000000", "0x5000", "extra"], check=True)
    with pcol.open(a) as f:
        got = f.diff(b, "address", absolute=True)
        assert [n for n in got["name"] if n.startswith("0000555555")] == [], list(got["name"])
        assert check("diff", a, [a, b, "--by", "address", "--absolute"], got, decimals=got.decimals) > 0
        got = f.diff(b, "address")
        assert check("diff", a, [a, b, "--by", "address"], got,
                     pct=("base_flat", "new_flat", "d_flat", "base_cum", "new_cum", "d_cum"), digits=4) > 0


def cli_diff_marks(base, new, *args):
    """(name, mark) of each row of `pcol diff BASE NEW --node-fraction 0
    ARGS`'s text: its "(inline)" marks, the merged graph's, as go tool
    pprof -diff_base's (tests/interop/t_diff_marks.sh); mark None, "inline"
    or "partial-inline" as File.diff's inline column"""
    lines = run_pcol("diff", base, new, "--node-fraction", "0", *args).stdout.decode("utf-8").splitlines()
    head = next(k for k, line in enumerate(lines) if line.split()[:1] == ["base_flat"])
    rows = []
    for line in lines[head + 1:]:
        name, mark = line.split(None, 6)[6], None
        for m in ("inline", "partial-inline"):
            if name.endswith(" (%s)" % m):
                name, mark = name[:-len(m) - 3], m
        rows.append((name, mark))
    return rows


def test_diff_marks_equal_pcol():
    """File.diff's inline column: the marks of the graph of both sides
    merged, the base negated, of the rows returned, as `pcol diff -n LIMIT
    --node-fraction 0` prints them (one library rule, pcol_diff_mark_inline;
    pcol diff's are go tool pprof -diff_base's).  It joined each side's own
    marks before: math.Abs, inlined in go-cpu-inline-small alone, was
    "inline" where pcol diff and go mark nothing (rd21 F5).  A pair go
    refuses to merge (a CPU against a heap profile, by samples) keeps each
    side's marks joined, as pcol diff."""
    P = os.path.join(TESTDATA, "pprof")
    if not os.path.exists(os.path.join(P, "go-cpu-large.pb.gz")):
        pytest.skip("test data not found at " + TESTDATA)
    pairs = [("go-cpu-inline-small", "go-cpu-large", ()), ("go-cpu-large", "go-cpu-inline-small", ()),
             ("go-cpu-inline-small", "go-cpu-string-labels", ()),
             ("go-heap-allocs-inline", "go-heap-delta-negative-values", ()),
             ("go-heap-allocs-inline", "go-cpu-inline-small", ("samples",))]
    n = marks = 0
    for a, b, value in pairs:
        A, B = os.path.join(P, a + ".pb.gz"), os.path.join(P, b + ".pb.gz")
        with pcol.open(A) as f:
            for absolute in (False, True):
                for limit in (None, 20):
                    for by in ("function", "line"):
                        args = ["--by", by] + (["--absolute"] if absolute else []) + \
                            (["-n", str(limit)] if limit else []) + (["--value", value[0]] if value else [])
                        want = cli_diff_marks(A, B, *args)
                        got = f.diff(B, by, value[0] if value else None, absolute=absolute, limit=limit)
                        assert list(zip(got["name"], got["inline"])) == want, (a, b, args)
                        n += 1
                        marks += sum(m is not None for _name, m in want)
    assert n == 40 and marks > 0
    # rd21 F5: the joined marks said math.Abs "inline"; the merged graph not
    with pcol.open(os.path.join(P, "go-cpu-inline-small.pb.gz")) as f:
        got = f.diff(os.path.join(P, "go-cpu-large.pb.gz"), absolute=True)
        assert dict(zip(got["name"], got["inline"]))["math.Abs"] is None


def test_diff_defaults_differ_equal_pcol():
    """Two heap profiles whose defaults differ (go-heap-allocs-inline names
    alloc_space in pprof's default_sample_type, go-heap-delta-negative-values
    none, so inuse_space): go tool pprof -diff_base shows alloc_space either
    way round (the one the new profile names, else the base's), and so do
    `pcol diff` and File.diff without a value, one library rule
    (pcol_value_diff_default); both refused the pair before, as of
    incompatible value types"""
    a = os.path.join(TESTDATA, "pprof", "go-heap-allocs-inline.pb.gz")
    b = os.path.join(TESTDATA, "pprof", "go-heap-delta-negative-values.pb.gz")
    if not (os.path.exists(a) and os.path.exists(b)):
        pytest.skip("test data not found at " + TESTDATA)
    n = 0
    for base, new in ((a, b), (b, a)):
        with pcol.open(base) as f:
            got = attempt(f.diff, new)
            assert not isinstance(got, Exception), (base, new, got)
            assert (got.type, got.unit) == ("alloc_space", "bytes"), (base, new, got.type)
            n += check("diff", base, [base, new], got,
                       pct=("base_flat", "new_flat", "d_flat", "base_cum", "new_cum", "d_cum"), digits=4)
            got = f.diff(new, absolute=True)
            assert got.type == "alloc_space"
            n += check("diff", base, [base, new, "--absolute"], got, decimals=got.decimals)
            # a value named is that value on both sides, as before
            got = f.diff(new, value="inuse_space", limit=5)
            assert got.type == "inuse_space"
            n += check("diff", base, [base, new, "--value", "inuse_space", "-n", "5"], got,
                       pct=("base_flat", "new_flat", "d_flat", "base_cum", "new_cum", "d_cum"), digits=4)
    assert n >= 6


def test_selection_and_other_formats(packed):
    """source/from_/to, and pcol.open of a profile that is not a pcol file"""
    n = 0
    for src, path in packed[::4]:
        for p in (path, src):
            with pcol.open(p) as f:
                t = f.table("samples")["time_ns"]
                known = t[t != pcol.NA_I64]
                if len(known) < 4:
                    continue
                lo, hi = float(np.quantile(known, 0.25)) / 1e9, float(np.quantile(known, 0.75)) / 1e9
                sel = dict(source=1, from_=repr(lo), to=repr(hi))
                kw = dict(source=1, from_=lo, to=hi)
                n += check("top", p, [p] + cli_args(sel), attempt(f.top, **kw),
                           pct=("flat_pct", "sum_pct", "cum_pct"))
                n += check("traces", p, [p] + cli_args(sel), attempt(f.traces, **kw))
                n += check("tags", p, [p] + cli_args(sel), attempt(f.tags, **kw), pct=("pct",))
    assert n >= 20


def test_results_behave(packed):
    """rows as Python scalars, slices as results, pandas, notebook output;
    filters as keywords; bad arguments raise before any work"""
    _src, path = next((s, p) for s, p in packed if "go-cpu" in s)
    with pcol.open(path) as f:
        t = f.top(focus="main")
        assert len(t) > 2
        head = t[:2]
        assert isinstance(head, pcol.Top) and len(head) == 2 and head.total == t.total
        assert list(head["name"]) == list(t["name"][:2])
        row = t[0]
        assert type(row.flat) is int and type(row.name) is str and row == tuple(t)[0]
        assert t[-1] == list(t)[-1]
        assert len(t[t["flat"] > 0]) == int((t["flat"] > 0).sum())
        assert "<table>" in t._repr_html_() and t["name"][0] in repr(t)
        with pytest.raises(TypeError):
            f.top(focuss="main")
        with pytest.raises(ValueError):
            f.top(sort="size")
        with pytest.raises(ValueError):
            f.top(node_fraction=2)
        with pytest.raises(pcol.Error):
            f.top(focus="(")  # a bad regular expression: the library's message
        pd = pytest.importorskip("pandas")
        df = f.peek(".").to_pandas()
        assert str(df["flat"].dtype) == "Int64" and df["flat"].isna().any()
        assert isinstance(f.fold().to_pandas(), pd.DataFrame)


def test_tags_total_per_key():
    """Tags.total is one total per key (pprof -tags' "KEY: Total X"), each
    the sum of its key's amounts, and the header says them; not the sum over
    keys, which counts a sample once per label key it carries."""
    path = os.path.join(TESTDATA, "pprof", "go-cpu-string-labels.pb.gz")
    if not os.path.isfile(path):
        pytest.skip("no " + path)
    with pcol.open(path) as f:
        t = f.tags()
    want = {}
    for k, a in zip(t["key"].tolist(), t["amount"].tolist()):
        want[k] = want.get(k, 0) + a
    assert len(want) > 1 and t.total == want, t.total
    head = repr(t).splitlines()[0]
    assert "total per key: " + ", ".join("%s %d" % kv for kv in want.items()) in head, head
    assert str(sum(want.values())) not in head, head


def test_sources_equal_info(packed):
    """File.sources() says what `pcol info --format json` says of each
    source (from format 1.3's summary in these files), and its count of raw
    samples is what `pcol top --value samples` adds up"""
    keys = ("source_id", "samples", "first_ns", "end_ns", "duration_ns", "period")
    n = 0
    for i, (_src, path) in enumerate(packed):
        info, err = cli_json("info", path)
        assert err is None, err
        with pcol.open(path) as f:
            got = f.sources()
        for k in keys:
            assert got[k] == [r[k] for r in info["rows"]], (path, k)
        if i % 8 == 0:
            top, err = cli_json("top", path, "--value", "samples", "--unit", "raw")
            assert err is None and int(top["total"]) == sum(got["count"]), (path, top and top["total"], got["count"])
        n += len(got["source_id"])
    assert n >= len(packed)


def test_tag_frames_equal_pcol():
    """pcol.open(path, tagroot=..., tagleaf=...) reads the file with pprof's
    label frames: every view equals the CLI's with --tagroot/--tagleaf (the
    frames' rows among the functions; filters that match them)"""
    path = os.path.join(TESTDATA, "pprof", "go-cpu-string-labels.pb.gz")
    if not os.path.isfile(path):
        pytest.skip("no " + path)
    n = 0
    for root, leaf in (("function", None), (["function", "foo"], "profile_id"), (None, "foo")):
        cli = (["--tagroot", root if isinstance(root, str) else ",".join(root)] if root else []) + \
              (["--tagleaf", leaf] if leaf else [])
        with pcol.open(path, tagroot=root, tagleaf=leaf) as f:
            pct = ("flat_pct", "sum_pct", "cum_pct")
            n += check("top", path, [path] + cli, attempt(f.top), pct=pct)
            n += check("top", path, [path] + cli + ["--focus", "slow"], attempt(f.top, focus="slow"), pct=pct)
            n += check("tree", path, [path] + cli, attempt(f.tree), pct=("pct",))
            n += check("traces", path, [path] + cli, attempt(f.traces))
            names = set(f.top()["name"].tolist())
        want = {"slow", "fast", "<unknown>"} if root == "function" or leaf == "foo" else {"slow", "fast"}
        assert want <= names or leaf == "foo" and "bar" in names, (root, leaf, sorted(names)[:8])
    assert n == 12
    # a key no sample has: every frame of it "<unknown>" and pprof's warning
    # (go tool pprof's, tests/interop/t_pprof_semantics.sh), as the CLI's
    for root, leaf, warned in (("nokey", None, ["TagRoot"]), (None, "nokey", ["TagLeaf"]),
                               ("nokey", "nokey", ["TagRoot", "TagLeaf"]), ("function,nokey", None, []),
                               ("function", "nokey", ["TagLeaf"])):
        cli = (["--tagroot", root] if root else []) + (["--tagleaf", leaf] if leaf else [])
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            f = pcol.open(path, tagroot=root, tagleaf=leaf)
        assert [str(x.message) for x in w] == [k + " expression matched no samples" for k in warned], w
        assert all(x.category is UserWarning and x.filename == __file__ for x in w), w
        with f:
            n += check("top", path, [path] + cli, attempt(f.top), pct=("flat_pct", "sum_pct", "cum_pct"))
            n += check("traces", path, [path] + cli, attempt(f.traces))
            assert "<unknown>" in f.top(node_fraction=0)["name"].tolist()
        r = run_pcol("top", path, *cli)
        assert [ln for ln in r.stderr.decode().splitlines() if "matched no samples" in ln] == \
            ["pcol top: warning: %s expression matched no samples" % k for k in warned], r.stderr
    assert n == 22
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning raised: no File
        with pytest.raises(UserWarning, match="TagRoot expression matched no samples"):
            pcol.open(path, tagroot="nokey")
    with pytest.raises(TypeError):
        pcol.open(path, tagleaf=3)


def test_diff_tag_frames_equal_pcol():
    """File(a, tagroot=K).diff(b): b read with the same frames, a key of
    one side enough, as `pcol diff a b --tagroot K` (pprof -diff_base)"""
    a = os.path.join(TESTDATA, "pprof", "go-cpu-string-labels.pb.gz")
    b = os.path.join(TESTDATA, "pprof", "go-cpu-inline-small.pb.gz")
    if not (os.path.isfile(a) and os.path.isfile(b)):
        pytest.skip("no " + a + " or " + b)
    n = 0
    pct = ("base_flat", "new_flat", "d_flat", "base_cum", "new_cum", "d_cum")
    for base, new in ((a, b), (b, a)):
        # the File with the frames (its own file must have the key: pcol.open
        # checks it), or without, the frames given to diff (either side's key)
        for at_open in (True, False):
            if at_open and base == b:
                continue
            with pcol.open(base, **(dict(tagroot="function") if at_open else {})) as f:
                got = attempt(f.diff, new, value="samples", **({} if at_open else dict(tagroot="function")))
                assert not isinstance(got, pcol.Error), got
                n += check("diff", base, [base, new, "--tagroot", "function", "--value", "samples"], got,
                           pct=pct, digits=4)
                assert "<unknown>" in set(got["name"].tolist())
    assert n == 3
    with pcol.open(a, tagroot="function") as f, pcol.open(b) as g:
        with pytest.raises(ValueError, match="not both"):
            f.diff(b, tagroot="function")
        with pytest.raises(ValueError, match="a File is as it was opened"):
            g.diff(f, tagroot="function")
    with pcol.open(a) as f:  # a key of neither side: pprof's warning, frames "<unknown>"
        with pytest.warns(UserWarning, match="^TagRoot expression matched no samples$") as w:
            got = attempt(f.diff, b, value="samples", tagroot="nokey")
        assert not isinstance(got, pcol.Error) and "<unknown>" in got["name"].tolist(), got
        assert len(w) == 1 and w[0].filename == __file__, [str(x.message) for x in w]
        check("diff", a, [a, b, "--tagroot", "nokey", "--value", "samples"], got, pct=pct, digits=4)


def test_diff_tag_frames_error_names_its_side(tmp_path):
    """diff(path) with frames: the side whose frames fail is the one named,
    as the CLI's (a labelset_id only the frames read, past its table)"""
    src = os.path.join(TESTDATA, "pprof", "go-cpu-string-labels.pb.gz")
    if not os.path.isfile(src):
        pytest.skip("no " + src)
    good, bad = str(tmp_path / "good.pcol"), str(tmp_path / "bad.pcol")
    run_pcol("pack", src, "-o", good, "--format-version", "1.2")  # plain ids, patched in place
    info = run_pcol("info", good).stdout.decode().splitlines()
    off = [int(ln.split()[4]) for ln in info if ln.split()[:2] == ["samples_stored", "labelset_id"]][0]
    data = bytearray(open(good, "rb").read())
    data[off:off + 4] = b"\xff\xff\xff\x7f"
    open(bad, "wb").write(data)
    want = "table samples_stored, column labelset_id: id 2147483647 at row 0 is out of range"
    # the File's frames or diff's; the damaged file second or first
    for base, at_open, new in ((good, True, bad), (good, False, bad), (bad, False, good)):
        fr = dict(tagroot="function")
        with pcol.open(base, **(fr if at_open else {})) as f:
            with pytest.raises(pcol.Error, match=re.escape(want)) as e:
                f.diff(new, **({} if at_open else fr))
        assert e.value.path == bad, (base, new, e.value.path)
        cli = run_pcol("diff", base, new, "--tagroot", "function", check=False)
        assert cli.returncode == 1 and ("pcol diff: %s: %s" % (bad, want)).encode() in cli.stderr, cli.stderr


def _pprof_env(tmp_path):
    """go tool pprof's environment (as tests/interop/t_pprof_semantics.sh's),
    or None without go"""
    import shutil
    if not shutil.which("go"):
        return None
    env = dict(os.environ, HOME=str(tmp_path / "home"), PPROF_BINARY_PATH="/nonexistent", GOPROXY="off",
               GOTOOLCHAIN="local", TZ="UTC")
    os.makedirs(env["HOME"], exist_ok=True)
    return env


def _pprof_top(env, *args):
    """go tool pprof -top's rows as [(name, flat, cum)], and its stderr"""
    r = subprocess.run(["go", "tool", "pprof", "-symbolize=none", "-top", "-nodefraction=0", *args],
                       capture_output=True, env=env)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.decode().splitlines()
    head = [i for i, ln in enumerate(lines) if ln.split()[:2] == ["flat", "flat%"]]
    rows = [ln.split(None, 5) for ln in lines[head[0] + 1:]] if head else []
    return [(x[5], int(x[0]), int(x[3])) for x in rows], r.stderr.decode()


def _key_profiles(tmp_path):
    """Three pprof profiles (pcol unpack of write_samples) whose label keys
    differ: "new" has `worker` and `both`, "old" `other` and `both`, "third"
    `both` only."""
    out = {}
    for name, (v1, v2), l1, l2 in (("new", (5, 7), {"worker": "a", "both": "x"}, {}),
                                   ("old", (8, 2), {"other": "a"}, {"both": "y"}),
                                   ("third", (3, 9), {"both": "x"}, {"both": "z"})):
        p = str(tmp_path / (name + ".pcol"))
        pcol.write_samples(p, {"stack": [["main", "work"], ["main", "idle"]], "value": [v1, v2],
                               "labels": [l1, l2]}, value_type="samples/count")
        out[name] = str(tmp_path / (name + ".pb"))
        run_pcol("unpack", p, "--to", "pprof", "-o", out[name])
    return out


def test_base_tag_frames_equal_pprof(tmp_path):
    """pcol.open(NEW, base=/diff_base=BASE, tagroot=K) = go tool pprof
    -tagroot K -base/-diff_base BASE NEW (and the CLI's top): the two merged
    before the frames, so a key on one side is enough, the other side's
    frames "<unknown>"; a key of neither side: every frame "<unknown>" and
    pprof's warning, as the CLI's."""
    p = _key_profiles(tmp_path)
    env = _pprof_env(tmp_path)
    n = 0
    pct = ("flat_pct", "sum_pct", "cum_pct")
    for key in ("worker", "other", "both", "nokey"):  # on the new only, the base only, both, neither
        for opt in ("base", "diff_base"):
            def top():
                with pcol.open(p["new"], tagroot=key, **{opt: p["old"]}) as f:
                    return f.top(node_fraction=0)
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                got = attempt(top)
            ours_w = [str(x.message) for x in w]
            cli = [p["new"], "--" + opt.replace("_", "-"), p["old"], "--tagroot", key, "--node-fraction", "0"]
            n += check("top", p["new"], cli, got, pct=pct)
            if env is None:
                continue
            want, err = _pprof_top(env, "-tagroot=" + key, "-" + opt, p["old"], p["new"])
            assert ours_w == [ln for ln in err.splitlines() if "matched no samples" in ln], (key, opt, ours_w, err)
            assert not isinstance(got, pcol.Error), (key, opt, got)
            ours = list(zip(got["name"].tolist(), got["flat"].tolist(), got["cum"].tolist()))
            assert ours == want, (key, opt, ours, want)
            assert "<unknown>" in got["name"].tolist() or key == "both", (key, opt, ours)
            n += 1
    assert n == (16 if env else 8), n


def test_base_tag_frames_diff_equal_pprof(tmp_path):
    """File(NEW, base=/diff_base=BASE, tagroot=K).diff(PATH): PATH read with
    the same frames, added to both sides at once (this side: NEW minus BASE,
    then the frames), as `pcol diff MERGED PATH --tagroot K` and go tool
    pprof -diff_base MERGED -tagroot K PATH, MERGED being `pcol unpack NEW
    --base/--diff-base BASE`'s profile."""
    p = _key_profiles(tmp_path)
    env = _pprof_env(tmp_path)
    n = 0
    pct = ("base_flat", "new_flat", "d_flat", "base_cum", "new_cum", "d_cum")
    for opt in ("base", "diff_base"):
        merged = str(tmp_path / (opt + ".pb"))
        run_pcol("unpack", p["new"], "--" + opt.replace("_", "-"), p["old"], "--to", "pprof", "-o", merged)
        for key in ("worker", "other", "both", "nokey"):
            for absolute in (False, True):
                with warnings.catch_warnings(record=True) as w:
                    warnings.simplefilter("always")
                    with pcol.open(p["new"], tagroot=key, **{opt: p["old"]}) as f:
                        got = attempt(f.diff, p["third"], absolute=absolute)
                # pprof's warning of a key no sample has: at open (NEW minus
                # BASE), and again for the two sides of the diff
                assert [str(x.message) for x in w] == ["TagRoot expression matched no samples"] * 2 * (key == "nokey"), w
                cli = [merged, p["third"], "--tagroot", key] + (["--absolute"] if absolute else [])
                n += check("diff", merged, cli, got, pct=() if absolute else pct, digits=4)
                assert not isinstance(got, pcol.Error), got
                if env is None or not absolute:
                    continue
                want, err = _pprof_top(env, "-tagroot=" + key, "-diff_base", merged, p["third"])
                assert ("TagRoot expression matched no samples" in err) == (key == "nokey"), err
                ours = {(nm, fl, cu) for nm, fl, cu in zip(got["name"].tolist(), got["d_flat"].tolist(),
                                                           got["d_cum"].tolist()) if fl or cu}
                assert ours == set(want), (opt, key, sorted(ours), want)
                n += 1
    assert n == (24 if env else 16), n


def test_tag_frames_unit_equal_pcol(tmp_path):
    """pcol.open(path, tagroot=..., tagunit=U): a numeric label's frame is
    named in unit U, as the CLI's --tagroot with --unit U (pprof's -unit)"""
    path = str(tmp_path / "nu.pb")
    gen = os.path.join(os.path.dirname(__file__), "..", "..", "..", "tests", "support", "pprofgen.py")
    subprocess.run([sys.executable, gen, "numunits", path], check=True)
    n = 0
    for unit in (None, "kB", "MB"):
        cli = ["--tagroot", "bytes,n"] + (["--unit", unit] if unit else [])
        with pcol.open(path, tagroot="bytes,n", tagunit=unit) as f:
            n += check("top", path, [path] + cli, attempt(f.top), pct=("flat_pct", "sum_pct", "cum_pct"))
            names = set(f.top(node_fraction=0)["name"].tolist())
        want = {None: {"3MB", "1.50kB", "100B", "3", "7"}, "kB": {"3072kB", "1.50kB", "0.10kB", "3"},
                "MB": {"3MB", "0", "7"}}[unit]
        assert want <= names, (unit, sorted(names))
    with pcol.open(path, tagleaf="wait", tagunit="ms") as f:
        n += check("top", path, [path, "--tagleaf", "wait", "--unit", "ms", "--value", "delay"],
                   attempt(f.top, value="delay"), pct=("flat_pct", "sum_pct", "cum_pct"))
        assert {"1.50ms", "0,4000ms"} <= set(f.top(value="delay", node_fraction=0)["name"].tolist())
    assert n == 4
    with pytest.raises(TypeError):
        pcol.open(path, tagroot="bytes", tagunit=3)


def test_base_equal_pcol():
    """pcol.open(path, base=...) / diff_base=...: pprof's -base/-diff_base,
    every view equals the CLI's with --base/--diff-base"""
    a = os.path.join(TESTDATA, "pprof", "go-cpu-string-labels.pb.gz")
    b = os.path.join(TESTDATA, "ext", "pprof", "go-cpu-span-id-labels.pb.gz")
    if not (os.path.isfile(a) and os.path.isfile(b)):
        pytest.skip("no test profiles")
    n = 0
    pct = ("flat_pct", "sum_pct", "cum_pct")
    for kw, opt in ((dict(base=a), "--base"), (dict(diff_base=a), "--diff-base")):
        with pcol.open(b, **kw) as f:
            n += check("top", b, [b, opt, a], attempt(f.top), pct=pct)
            n += check("tree", b, [b, opt, a], attempt(f.tree), pct=("pct",))
            n += check("traces", b, [b, opt, a], attempt(f.traces))
            n += check("tags", b, [b, opt, a], attempt(f.tags), pct=("pct",))
        with pcol.open(a, **kw) as f, pcol.open(a) as g:  # a minus a: nothing; -diff_base's total: a's
            t = f.top()
            assert all(x == 0 for x in t["flat"].tolist())
            assert t.total == (0 if "base" in kw else g.top().total), (kw, t.total)
    assert n == 8
    with pytest.raises(ValueError):
        pcol.open(a, base=a, diff_base=a)


def _rprof_runs(tmp_path):
    """proftools' Rprof runs: (new, old, old0, nm, om), nm = old + new merged
    and om = old0 + old (two sources each); skips without them"""
    r = os.path.join(TESTDATA, "rprof")
    new, old, old0 = (os.path.join(r, "proftools__Rprof-%s.out" % k) for k in ("rec1", "rec", "rec0"))
    if not all(os.path.isfile(x) for x in (new, old, old0)):
        pytest.skip("no proftools Rprof runs")
    nm, om = str(tmp_path / "new.pcol"), str(tmp_path / "old.pcol")
    run_pcol("merge", old, new, "-o", nm)
    run_pcol("merge", old0, old, "-o", om)
    return new, old, old0, nm, om


def test_base_select_equal_pcol(tmp_path):
    """base/diff_base with source, from_/to: each side's selection made
    before the two are compared, as the CLI's --base/--diff-base with
    --source N --from --to (review 23): F1, normalize with a range scales by
    the range's ratio, each stack's part in the range; F2, source N is
    source N of the profile and of the base, not of their union's sources
    numbered as one list; a side with fewer sources is the CLI's error"""
    new, old, old0, nm, om = _rprof_runs(tmp_path)
    n = 0
    pct = ("flat_pct", "sum_pct", "cum_pct")
    for o in ("base", "diff_base"):
        opt = "--" + o.replace("_", "-")
        for a, b in ((0.5, 2), (1, 3.5), (2.2, 7)):
            cli = [new, opt, old, "--normalize", "--from", str(a), "--to", str(b)]
            with pcol.open(new, normalize=True, **{o: old}) as f:
                n += check("top", new, cli + ["--node-fraction", "0"],
                           attempt(f.top, from_=a, to=b, node_fraction=0), pct=pct)
                n += check("traces", new, cli, attempt(f.traces, from_=a, to=b))
        for s in (1, 2):
            for norm in (False, True):
                extra = ["--normalize"] if norm else []
                with pcol.open(nm, normalize=norm, **{o: om}) as f:
                    n += check("top", nm, [nm, "--source", str(s), opt, om, "--node-fraction", "0"] + extra,
                               attempt(f.top, source=s, node_fraction=0), pct=pct)
                    n += check("top", nm, [nm, "--source", str(s), opt, om, "--from", "0.5", "--to", "3",
                                           "--node-fraction", "0"] + extra,
                               attempt(f.top, source=s, from_=0.5, to=3, node_fraction=0), pct=pct)
                    n += check("tree", nm, [nm, "--source", str(s), opt, om] + extra,
                               attempt(f.tree, source=s), pct=("pct",))
                    # diff (rd17c F1): this side as top's, source s of the
                    # profile and of its base first; `new` alone with them;
                    # with label frames too (open_pair)
                    for rng in ([], ["--from", "1", "--to", "3.5"]):
                        kw = dict(from_=1, to=3.5) if rng else {}
                        for fr in ([], ["--tagroot", "k"]):
                            with warnings.catch_warnings():
                                warnings.simplefilter("ignore")
                                d = f.diff(nm, source=s, absolute=True, tagroot="k" if fr else None, **kw)
                            n += same_sides(d, [nm, "--source", str(s), opt, om] + extra + rng + fr,
                                            [nm, "--source", str(s)] + rng + fr)
    assert n == 36 + 32


def _table_flat(f, **sel):
    """{function: flat count} of the leaf frames of f.table's samples of
    selection sel, each sample's weight (its count, Rprof's ticks), negated
    in a source of a subtracted base (meta pprof.diff_base / pprof.base
    "true", as THE count rule reads them): pprof -sample_index=samples's flat"""
    s, st, lo, fn, m = (f.table(v, **sel) for v in ("samples", "stacks", "locations", "functions", "meta"))
    neg = {so for k, v, so in zip(m["key"].tolist(), m["value"].tolist(), m["source_id"].tolist())
           if k in ("pprof.diff_base", "pprof.base") and v == "true"}
    out = {}
    for w, so, stk in zip(s["weight"].tolist(), s["source_id"].tolist(), s["stack_id"].tolist()):
        name = fn["name"][lo["function_id"][st["location_id"][stk - 1] - 1] - 1]
        out[name] = out.get(name, 0) + (-w if so in neg else w)
    return {k: v for k, v in out.items() if v}


def test_base_select_table_equal_pprof(tmp_path):
    """File(NEW, base=/diff_base=BASE).table(VIEW, source=N, from_=A, to=B):
    each side's source and range taken first, then compared, as top(source=)
    and `pcol top NEW --base/--diff-base BASE --source N --from A --to B`
    take them, judged by go tool pprof -base/-diff_base of each side's
    selection as `pcol unpack --source N --from A --to B --to pprof` writes
    it: the flat per function of the tables' samples (their leaf frames)
    is pprof's and the CLI's.  Before, table() selected from the union of
    the profile and its base, its sources one list: source 2 was the
    profile's second source with nothing subtracted, source 1 its first."""
    new, old, old0, nm, om = _rprof_runs(tmp_path)
    env = _pprof_env(tmp_path)
    n = 0
    for o in ("base", "diff_base"):
        opt = "--" + o.replace("_", "-")
        for s in (1, 2):
            for rng in ((), (0.5, 3), (2.2, 7)):
                kw = dict(source=s, **(dict(from_=rng[0], to=rng[1]) if rng else {}))
                cut = ["--source", str(s)] + (["--from", str(rng[0]), "--to", str(rng[1])] if rng else [])
                with pcol.open(nm, **{o: om}) as f:
                    got = _table_flat(f, **kw)
                    assert _table_flat(f) != got  # (the whole union is another answer)
                want, err = cli_json("top", nm, opt, om, "--value", "samples", "--node-fraction", "0", *cut)
                assert want is not None, err
                assert got == {x["name"]: int(x["flat"]) for x in want["rows"] if int(x["flat"])}, (o, s, rng)
                assert got, (o, s, rng)
                n += 1
                if env is None:
                    continue
                sides = []
                for side, path in (("n", nm), ("o", om)):
                    sides.append(str(tmp_path / (side + ".pb.gz")))
                    run_pcol("unpack", path, *cut, "--to", "pprof", "-o", sides[-1])
                rows, _ = _pprof_top(env, "-sample_index=samples", "-" + o + "=" + sides[1], sides[0])
                assert got == {name: fl for name, fl, _ in rows if fl}, (o, s, rng, rows)
                n += 1
    assert n == (24 if env else 12), n


def test_base_select_diff_default_notes_equal_pcol(tmp_path):
    """File(X, diff_base=Y).diff(NEW, source=1): the value default and the
    data warnings of each side are of its selected sources, as `pcol diff
    M NEW --source 1` of M, `pcol unpack X --diff-base Y --source 1`'s
    pprof copy (this side, source 1 of each taken first), says them:
    NEW's source 1 alone (a heap profile naming no default: inuse_space),
    not all of NEW's sources (a heap and a CPU profile, which measure
    different values).  Before, both read NEW with this side's selection
    (no source): without a value the pair was refused as incompatible
    (alloc_space against inuse_space; go's rule, pcol_value_diff_default,
    takes the one X names, alloc_space, when NEW's selected sources agree),
    and with value="alloc_space" a warning named NEW's source 2, which
    the diff does not read."""
    t = os.path.join(TESTDATA, "pprof")
    heap_a, heap_b, cpu = (os.path.join(t, x) for x in (
        "go-heap-allocs-inline.pb.gz", "go-heap-delta-negative-values.pb.gz", "go-cpu-string-labels.pb.gz"))
    if not all(os.path.isfile(x) for x in (heap_a, heap_b, cpu)):
        pytest.skip("test data not found at " + TESTDATA)
    x, y, m = (str(tmp_path / k) for k in ("x.pcol", "y.pcol", "m.pb.gz"))
    run_pcol("merge", heap_a, cpu, "-o", x)
    run_pcol("merge", heap_b, cpu, "-o", y)
    run_pcol("unpack", x, "--diff-base", y, "--source", "1", "--to", "pprof", "-o", m)
    n = 0
    pct = ("base_flat", "new_flat", "d_flat", "base_cum", "new_cum", "d_cum")
    for value in (None, "alloc_space"):
        for absolute in (False, True):
            args = [m, y, "--source", "1"] + (["--value", value] if value else []) + (["--absolute"] if absolute else [])
            r = run_pcol("diff", *args, "--format", "json", check=False)
            cli_w = [ln for ln in r.stderr.decode().splitlines() if ": warning: " in ln]
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                with pcol.open(x, diff_base=y) as f:
                    got = attempt(f.diff, y, value=value, source=1, absolute=absolute)
            assert not isinstance(got, Exception), (value, got)
            assert (got.type, got.unit) == ("alloc_space", "bytes"), (value, got.type)
            assert [str(x.message) for x in w] == cli_w == [], (value, [str(x.message) for x in w], cli_w)
            n += check("diff", m, args, got, pct=() if absolute else pct, digits=4,
                       decimals=got.decimals if absolute else 0)
    assert n == 4


def test_base_select_diff_new_based_equal_pcol(tmp_path):
    """File(P).diff(File(N, base=/diff_base=B), source=s, from_, to): the
    `new` File's side is N's source s minus B's source s, each cut to the
    range first (normalize's ratio of the range), as its own top(source=s)
    and `pcol top N --source s --base/--diff-base B --from --to` take it,
    with P as the base, or P minus B too (R's pcol_diff with diff_base
    gives these numbers); its warnings are the CLI's of that side (the
    base's source s, which the range does not reach).  Before (review
    rd18a F1), the new side selected from the union of N and its base,
    its sources one list: source 1 was N's source 1 with nothing
    subtracted, and a range under normalize was cut after scaling by the
    whole profiles' ratio; no word of the base's empty source."""
    r = os.path.join(TESTDATA, "rprof")
    rec = [os.path.join(r, "proftools__Rprof-%s.out" % k) for k in ("rec", "rec0", "rec1")]
    if not all(os.path.isfile(x) for x in rec):
        pytest.skip("no proftools Rprof runs")
    p, nw, b = (str(tmp_path / (k + ".pcol")) for k in ("p", "n", "b"))
    for path, order in ((p, (0, 1, 2)), (nw, (1, 2, 0)), (b, (2, 0, 1))):
        run_pcol("merge", *[rec[i] for i in order], "-o", path)
    n = 0
    for o in ("base", "diff_base"):
        opt = "--" + o.replace("_", "-")
        for norm in (False, True):
            extra = [opt, b] + (["--normalize"] if norm else [])
            for s in (None, 1, 3):
                src = ["--source", str(s)] if s else []
                for rng in ([], ["--from", "1", "--to", "3.5"]):
                    kw = dict(from_=1, to=3.5) if rng else {}
                    for based in (False, True):
                        with pcol.open(nw, normalize=norm, **{o: b}) as nf, \
                                pcol.open(p, **(dict(normalize=norm, **{o: b}) if based else {})) as f:
                            with warnings.catch_warnings():
                                warnings.simplefilter("ignore")
                                d = f.diff(nf, source=s, absolute=True, **kw)
                        n += same_sides(d, [p] + src + (extra if based else []) + rng, [nw] + src + extra + rng)
    assert n == 48
    # the warnings: N's source 1 reaches 7 s, B's source 1 (rec1) ends at 6.94 s
    for o in ("base", "diff_base"):
        opt = "--" + o.replace("_", "-")
        cli_w = []
        for args in ([p, "--source", "1", "--from", "7"], [nw, "--source", "1", opt, b, "--from", "7"]):
            res = run_pcol("top", *args, check=False)
            cli_w += [ln.split(": warning: ", 1)[1] for ln in res.stderr.decode().splitlines() if ": warning: " in ln]
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            with pcol.open(nw, **{o: b}) as nf, pcol.open(p) as f:
                f.diff(nf, source=1, from_=7, absolute=True)
        assert [str(x.message) for x in w] == cli_w and len(cli_w) == 1, (o, [str(x.message) for x in w], cli_w)


def same_sides(d, base_args, new_args):
    """a diff (absolute) of the rows of `pcol top BASE_ARGS` and `pcol top
    NEW_ARGS`: each row's base_flat and new_flat theirs, and a name it
    leaves out one whose flat is the same on both sides"""
    flat = []
    for args in (base_args, new_args):
        want, err = cli_json("top", *args, "--node-fraction", "0")
        assert want is not None, (args, err)
        flat.append({r["name"]: int(r["flat"]) for r in want["rows"]})
    got = {k: (int(b), int(v)) for k, b, v in zip(d.name, d.base_flat, d.new_flat)}
    for k in set(flat[0]) | set(flat[1]):
        want = (flat[0].get(k, 0), flat[1].get(k, 0))
        assert got.get(k, want) == want and (k in got or want[0] == want[1]), (base_args, k, got.get(k), want)
    assert set(got) <= set(flat[0]) | set(flat[1]), (base_args, got)
    return 1


def test_normalize_mean_drop_negative_equal_pcol():
    """normalize=True (pprof -normalize) with base/diff_base, also with
    mean; normalize without a base refused, as the CLI refuses it"""
    a = os.path.join(TESTDATA, "pprof", "go-heap-allocs-inline.pb.gz")
    b = os.path.join(TESTDATA, "pprof", "go-heap-delta-negative-values.pb.gz")
    if not (os.path.isfile(a) and os.path.isfile(b)):
        pytest.skip("no test profiles")
    n = 0
    pct = ("flat_pct", "sum_pct", "cum_pct")
    for kw, opt in ((dict(base=b), "--base"), (dict(diff_base=b), "--diff-base")):
        with pcol.open(a, normalize=True, **kw) as f:
            n += check("top", a, [a, opt, b, "--normalize"], attempt(f.top), pct=pct)
            n += check("top", a, [a, opt, b, "--normalize", "--drop-negative", "-n", "20"],
                       attempt(f.top, drop_negative=True, limit=20), pct=pct)
            n += check("traces", a, [a, opt, b, "--normalize", "-n", "50"], attempt(f.traces, limit=50))
            n += check("top", a, [a, opt, b, "--normalize", "--mean"], attempt(f.top, mean=True), pct=pct)
    with pcol.open(b) as f:  # values below 0: -drop_negative leaves them out
        for v in ("inuse_space", "alloc_space"):
            n += check("top", b, [b, "--value", v, "--drop-negative"],
                       attempt(f.top, value=v, drop_negative=True), pct=pct)
            n += check("top", b, [b, "--value", v, "--mean"], attempt(f.top, value=v, mean=True), pct=pct)
            n += check("peek", b, [b, "scrape", "--value", v, "--mean"], attempt(f.peek, "scrape", value=v, mean=True),
                       pct=("pct",))
            n += check("tree", b, [b, "--value", v, "--mean"], attempt(f.tree, value=v, mean=True), pct=("pct",))
            n += check("peek", b, [b, ".", "--value", v, "--drop-negative"],
                       attempt(f.peek, ".", value=v, drop_negative=True), pct=("pct",))
            n += check("tree", b, [b, "--value", v, "--drop-negative", "--mean"],
                       attempt(f.tree, value=v, drop_negative=True, mean=True), pct=("pct",))
            n += check("list", b, [b, "parquet", "--value", v, "--drop-negative"],
                       attempt(f.list, "parquet", value=v, drop_negative=True))
    assert n == 22
    with pytest.raises(ValueError):
        pcol.open(a, normalize=True)
    with pcol.open(a) as f, pytest.raises(ValueError):
        f.top(by="label:bytes", mean=True)


def test_divide_by_refused_as_the_cli_json():
    """divide_by (pprof -divide_by, the CLI's --divide-by): a view's
    numbers are those of `pcol VIEW --format json`, which refuses it (exit
    2); the binding refuses it too, never returns numbers undivided"""
    a = os.path.join(TESTDATA, "pprof", "go-cpu-inline-small.pb.gz")
    if not os.path.isfile(a):
        pytest.skip("no test profile")
    views = {"top": ([], lambda f, **k: f.top(**k)), "peek": (["main"], lambda f, **k: f.peek("main", **k)),
             "tree": ([], lambda f, **k: f.tree(**k)), "list": (["main"], lambda f, **k: f.list("main", **k)),
             "traces": ([], lambda f, **k: f.traces(**k)), "diff": ([a], lambda f, **k: f.diff(f, **k))}
    with pcol.open(a) as f:
        for view, (extra, call) in views.items():
            r = run_pcol(view, a, *extra, "--divide-by", "3", "--format", "json", check=False)
            assert r.returncode == 2 and b"--divide-by" in r.stderr, (view, r.stderr)
            with pytest.raises(ValueError, match="divide_by"):
                call(f, divide_by=3)
            assert len(call(f)) > 0, view  # the same view without it works
