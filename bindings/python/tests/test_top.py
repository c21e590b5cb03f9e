"""File.top gives the numbers of `pcol top` (names, flat, cum, shares),
and fails where `pcol top` fails, with the same message."""
import json
import os

import numpy as np
import pytest

import pcol
from conftest import TESTDATA, run_pcol


def values_for(f):
    vals = [None, "weight"]
    vt = f.table("value_types")
    vals += ["%s/%s" % (t, u) for t, u in zip(vt["type"], vt["unit"]) if t is not None and u is not None]
    if any(t == "vsize.small" for t in vt["type"]):
        vals.append("rprof.alloc")
    return vals


def compare(f, path, by, value):
    args = ["top", path, "--by", by, "--format", "json"] + (["--value", value] if value else [])
    r = run_pcol(*args, check=False)
    if r.returncode != 0:
        with pytest.raises(pcol.Error) as e:
            f.top(by=by, value=value)
        # the library's message; the binding names the file when it does not
        cli = r.stderr.decode().strip()[len("pcol top: "):]
        assert str(e.value) in (cli, "%s: %s" % (path, cli)) and path in str(e.value)
        return 0
    want = json.loads(r.stdout)["rows"]  # {"type", "unit", "total", "filters", "rows"}
    t = f.top(by=by, value=value)
    assert [w["name"] for w in want] == t.name.tolist(), (path, by, value)
    assert [w["flat"] for w in want] == t.flat.tolist(), (path, by, value)
    assert [w["cum"] for w in want] == t.cum.tolist(), (path, by, value)
    fp, cp = t.percent(t.flat), t.percent(t.cum)
    sp = fp.cumsum()
    for i, w in enumerate(want):
        assert "%.2f" % w["flat_pct"] == "%.2f" % fp[i]
        assert "%.2f" % w["cum_pct"] == "%.2f" % cp[i]
        assert "%.2f" % w["sum_pct"] == "%.2f" % sp[i]
    return 1


def test_top_equals_pcol_top(representative):
    """every value and key (test_cli_views has the default top of every file)"""
    n = 0
    for _src, path in representative:
        with pcol.open(path) as f:
            for value in values_for(f):
                n += compare(f, path, "function", value)
            for by in ("line", "file"):
                n += compare(f, path, by, None)
    assert n > 3 * len(representative)


def test_top_of_other_formats(packed):
    """pcol.open of an Rprof/pprof file (imported in memory) and `pcol top` of
    the same file agree."""
    n = 0
    for src, _ in packed:
        if "/rprof/" in src or "/pprof/" in src:
            with pcol.open(src) as f:
                n += compare(f, src, "function", None)
    assert n >= 20


def test_top_selection(representative):
    n = 0
    for _src, path in representative:
        with pcol.open(path) as f:
            r = run_pcol("top", path, "--format", "json", "--source", "1", "--from", "0.05", "--to", "0.5",
                         check=False)
            if r.returncode != 0:
                with pytest.raises(pcol.Error):
                    f.top(source=1, from_=0.05, to=0.5)
                continue
            t = f.top(source=1, from_=0.05, to=0.5)
            want = json.loads(r.stdout)["rows"]
            assert [(w["name"], w["flat"], w["cum"]) for w in want] == list(t)
            n += 1
    assert n >= 5


def test_top_bad_arguments(packed):
    with pcol.open(packed[0][1]) as f:
        with pytest.raises(ValueError):
            f.top(by="module")
        with pytest.raises(pcol.Error) as e:
            f.top(value="no-such-value")
        assert packed[0][1] in str(e.value)
        with pytest.raises(ValueError):
            f.top(from_=2.0, to=1.0)


def test_top_value_index(packed):
    """value=N is pprof's -sample_index=N, the CLI's --value N; a value of
    another type is a TypeError naming the parameter"""
    n = 0
    for _, path in packed[:40]:
        with pcol.open(path) as f:
            nvt = len(f.table("value_types")["type"])
            for i in range(min(nvt, 3)):
                want = json.loads(run_pcol("top", path, "--value", str(i), "--format", "json").stdout)
                t = f.top(value=i)
                assert [w["name"] for w in want["rows"]] == t.name.tolist(), (path, i)
                assert [w["flat"] for w in want["rows"]] == t.flat.tolist(), (path, i)
                n += 1
    assert n >= 20
    with pcol.open(packed[0][1]) as f:
        for bad in (1.5, b"cpu", True):
            with pytest.raises(TypeError) as e:
                f.top(value=bad)
            assert str(e.value).startswith("value must be")
        with pytest.raises(ValueError):
            f.top(value=-1)


def test_open_directory_and_glob(packed, tmp_path):
    """pcol.open of a directory or a quoted glob: the union of its regular
    files by name (a subdirectory and a dot file left out), the rows of
    `pcol top DIR` / `pcol top 'GLOB'`"""
    import os
    d = tmp_path / "dir"
    d.mkdir()
    (d / "sub").mkdir()
    for i, (_, path) in enumerate(packed[:3]):
        os.symlink(path, str(d / ("%d.pcol" % i)))
    os.symlink(packed[3][1], str(d / ".hidden.pcol"))
    for arg in (str(d), str(d) + "/", str(d / "*.pcol"), str(d / "[01].pcol")):
        want = json.loads(run_pcol("top", arg, "--format", "json").stdout)["rows"]
        with pcol.open(arg) as f:
            t = f.top()
        assert [w["name"] for w in want] == t.name.tolist(), arg
        assert [w["flat"] for w in want] == t.flat.tolist(), arg
    with pytest.raises(pcol.Error) as e:
        pcol.open(str(d / "sub"))
    assert "holds no file" in str(e.value)
    with pytest.raises(pcol.Error) as e:
        pcol.open(str(d / "*.nothing"))
    assert "no file matches" in str(e.value)


def test_top_wall_clock_range():
    """from_/to as the CLI's --from/--to text: RFC 3339 or @EPOCH (a
    wall-clock range, each source's own), or seconds; the rows, and the
    errors, of `pcol top --from --to`"""
    import os
    from conftest import TESTDATA
    g = os.path.join(TESTDATA, "pprof", "go-cpu-inline-small.pb.gz")  # 2017-09-29T20:57:59.257Z, 2 s
    if not os.path.isfile(g):
        pytest.skip("no %s" % g)
    with pcol.open(g) as f:
        whole = f.top().flat.tolist()
        assert whole
        for fr, to in (("2017-09-29T20:57:00Z", "2017-09-29T22:59:00+02:00"), ("@1506718600", "@1506718700.5"),
                       ("2017-09-29 20:57:00z", None), (None, "@1506718700")):
            args = ["top", g, "--format", "json"] + (["--from", fr] if fr else []) + (["--to", to] if to else [])
            want = json.loads(run_pcol(*args).stdout)["rows"]
            t = f.top(from_=fr, to=to)
            assert [w["flat"] for w in want] == t.flat.tolist() == whole, (fr, to)
        # outside the span: no rows, as the CLI (which warns)
        assert len(f.top(from_="2026-11-29T01:29:10Z")) == 0
        assert len(f.table("samples", from_="2026-11-29T01:29:10Z")["sample_id"]) == 0
        assert len(f.table("samples", from_="@0", to="2100-01-01T00:00:00Z")["sample_id"]) == \
            len(f.table("samples")["sample_id"])
        # a range that cuts a source without sample times: the CLI's error
        r = run_pcol("top", g, "--from", "2017-09-29T20:58:00.5Z", check=False)
        assert r.returncode != 0
        with pytest.raises(pcol.Error) as e:
            f.top(from_="2017-09-29T20:58:00.5Z")
        assert "cuts its span" in str(e.value) and "cuts its span" in r.stderr.decode()
        with pytest.raises(ValueError, match="from_ wants seconds"):
            f.top(from_="yesterday")
        with pytest.raises(ValueError, match="both ends"):
            f.top(from_=1.0, to="@1506718700")
        with pytest.raises(ValueError, match="after"):
            f.top(from_="@1506718700", to="@1506718600")
        with pytest.raises(TypeError, match="from_ must be"):
            f.top(from_=b"@0")


def test_range_datetime(tmp_path):
    """from_/to as an aware datetime / pandas Timestamp / numpy datetime64
    (review 19b F1: TypeError): the rows of the same instant as "@EPOCH"
    text, to the microsecond (datetime) or nanosecond (Timestamp,
    datetime64); a naive datetime is refused.  gen_jfr.py's recording
    starts at @1700000000 (2023-11-14T22:13:20Z), one sample a
    microsecond from 1 us to 20 us."""
    import datetime
    import subprocess
    import sys
    import numpy as np
    from conftest import REPO
    gen = os.path.join(REPO, "tests", "support", "gen_jfr.py")
    if not os.path.isfile(gen):
        pytest.skip("no %s" % gen)
    j = str(tmp_path / "g.jfr")
    subprocess.run([sys.executable, gen, j, "--samples", "20", "--exec-only"], check=True)
    utc = datetime.timezone.utc
    n = lambda **kw: len(f.table("samples", **kw)["sample_id"])
    with pcol.open(j) as f:
        assert n(from_="@1700000000.000010") == 11
        t0 = datetime.datetime(2023, 11, 14, 22, 13, 20, 10, tzinfo=utc)  # + 10 us
        assert n(from_=t0) == 11 and f.top(from_=t0).flat.sum() == 11
        # another zone, the same instant
        plus2 = datetime.timezone(datetime.timedelta(hours=2))
        assert n(from_=datetime.datetime(2023, 11, 15, 0, 13, 20, 10, tzinfo=plus2),
                 to=datetime.datetime(2023, 11, 14, 22, 13, 20, 15, tzinfo=utc)) == 5
        assert n(from_=np.datetime64("2023-11-14T22:13:20.000010500")) == 10  # 11..20 us
        assert n(to=np.datetime64(1700000000000005, "us")) == 4
        with pytest.raises(TypeError, match="from_ is a naive datetime"):
            f.top(from_=datetime.datetime(2023, 11, 14, 22, 13, 20))
        with pytest.raises(ValueError, match="to is NaT"):
            f.top(to=np.datetime64("NaT"))
        try:
            import pandas as pd
        except ImportError:
            return
        assert n(from_=pd.Timestamp("2023-11-14T22:13:20.000010500Z")) == 10
        assert n(from_=pd.Timestamp(1700000000000010500, tz="Europe/Paris")) == 10
        with pytest.raises(TypeError, match="to is a naive Timestamp"):
            f.top(to=pd.Timestamp("2023-11-14T22:13:20"))
        with pytest.raises(ValueError, match="from_ is NaT"):
            f.top(from_=pd.NaT)


def test_sum_past_int64_said(tmp_path):
    """a sum past int64 (libpcol adds up in 128 bits): the column keeps the
    exact numbers `pcol top --format json` prints, as Python ints, and the
    change of dtype from int64 is warned of, naming the view and column
    (review 19b F2: silent); a view whose sums fit stays int64, unwarned"""
    import warnings
    p = tmp_path / "over.collapsed"
    p.write_text("main;a 9223372036854775807\nmain;b 1\n")
    want = {r["name"]: r["cum"] for r in json.loads(run_pcol("top", str(p), "--format", "json").stdout)["rows"]}
    assert want["main"] == 2**63
    with pcol.open(str(p)) as f:
        with pytest.warns(UserWarning, match=r"top: column cum holds a number past int64 "
                                             r"\(9223372036854775808\): it is an object array"):
            t = f.top()
        assert t.cum.dtype == object and t.flat.dtype == np.int64
        assert dict(zip(t.name, t.cum)) == want
        with pytest.warns(UserWarning, match=r"tree: column cum holds a number past int64"):
            f.tree()
    q = tmp_path / "fits.collapsed"
    q.write_text("main;a 9223372036854775806\nmain;b 1\n")
    with pcol.open(str(q)) as f, warnings.catch_warnings():
        warnings.simplefilter("error")
        t = f.top()
        assert t.cum.dtype == np.int64 and int(t.cum.max()) == 2**63 - 1


def _far_dirs(tmp_path):
    """two directories of the same profiles (review 16 F1): a Go CPU
    profile of 2022-06-09 18:22:12 UTC with a heap profile of 2022-07-28
    and a JFR recording of 2023-11-14 (tests/support/gen_jfr.py), as they
    are (d1) and packed (d2); a wall-clock range of the hour of the first
    reaches it alone"""
    import os
    import shutil
    import subprocess
    import sys
    from conftest import REPO, TESTDATA
    cpu, heap = (os.path.join(TESTDATA, "pprof", n) for n in ("go-cpu-string-labels.pb.gz", "go-heap-allocs-inline.pb.gz"))
    for s in (cpu, heap):
        if not os.path.isfile(s):
            pytest.skip("no %s" % s)
    d1, d2 = tmp_path / "d1", tmp_path / "d2"
    d1.mkdir()
    d2.mkdir()
    shutil.copy(cpu, str(d1 / "a.pb.gz"))
    shutil.copy(cpu, str(d2 / "a.pb.gz"))
    shutil.copy(heap, str(d1 / "h.pb.gz"))
    subprocess.run([sys.executable, os.path.join(REPO, "tests", "support", "gen_jfr.py"), str(d1 / "j.jfr"),
                    "--chunks", "1", "--samples", "30", "--period", "*:10 ms"], check=True)
    run_pcol("pack", heap, "-o", str(d2 / "h.pcol"))
    run_pcol("pack", str(d1 / "j.jfr"), "-o", str(d2 / "j.pcol"))
    return cpu, str(d1), str(d2)


def test_top_wall_clock_range_of_many(tmp_path):
    """a wall-clock range over a directory answers as `pcol merge` of the
    files it reaches, whatever the format of the others: the default value
    is the one file's (cpu 8.73 s, not "samples" 873), in the CLI and
    here, for both directories, with no warning"""
    import warnings
    cpu, d1, d2 = _far_dirs(tmp_path)
    fr, to = "2022-06-09T18:22:00Z", "2022-06-09T18:23:00Z"
    one = json.loads(run_pcol("top", cpu, "--format", "json").stdout)
    assert one["type"] == "cpu" and one["total"] == 8730000000
    for d in (d1, d2):
        r = run_pcol("top", d, "--from", fr, "--to", to, "--format", "json")
        want = json.loads(r.stdout)
        assert r.stderr == b"", r.stderr
        assert (want["type"], want["total"], want["rows"]) == (one["type"], one["total"], one["rows"]), d
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            with pcol.open(d) as f:
                t = f.top(from_=fr, to=to)
        assert (t.type, t.unit, t.total) == ("cpu", "nanoseconds", 8730000000), (d, t.type, t.total)
        assert [x["name"] for x in one["rows"]] == t.name.tolist()
        assert [x["flat"] for x in one["rows"]] == t.flat.tolist()
        assert [x["cum"] for x in one["rows"]] == t.cum.tolist()
        assert not [x for x in w if "measure different values" in str(x.message)]


def _index_dir(tmp_path):
    """a directory of three CPU profiles (two pprof files, one packed),
    older than the 2 s `pcol index` leaves alone, and its index"""
    import os
    import shutil
    import time
    from conftest import TESTDATA
    srcs = [os.path.join(TESTDATA, "pprof", n) for n in ("go-cpu-inline-small.pb.gz", "go-cpu-string-labels.pb.gz")]
    for s in srcs:
        if not os.path.isfile(s):
            pytest.skip("no %s" % s)
    d = tmp_path / "indexed"
    d.mkdir()
    shutil.copy(srcs[0], str(d / "1.pb.gz"))
    shutil.copy(srcs[1], str(d / "2.pb.gz"))
    run_pcol("pack", srcs[0], "-o", str(d / "3.pcol"))
    time.sleep(2.2)
    assert "covers 3 of 3 files" in run_pcol("index", str(d)).stdout.decode()
    return str(d)


def _rows(arg, **env):
    """`pcol top ARG --format json`'s rows and standard error (env: more
    of the environment)"""
    import os
    import subprocess
    from conftest import PCOL
    r = subprocess.run([PCOL, "top", arg, "--format", "json"], capture_output=True,
                       env=dict(os.environ, **env))
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)["rows"], r.stderr.decode()


def _open_top(arg):
    import warnings
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        with pcol.open(arg) as f:
            t = f.top()
    return t, [str(x.message) for x in w]


def test_open_directory_index(tmp_path):
    """pcol.open of a directory with a current index (`pcol index`) reads
    the index in place of its files, as the CLI does: the rows of `pcol top
    DIR` (which reads it too) and of its files read one by one
    (PCOL_NO_INDEX=1); a damaged index with a list made to match is refused
    as the CLI refuses it, and read past with PCOL_NO_INDEX=1, so it is the
    index that was read; a
    stale index is not used, and the warning says why in the CLI's words"""
    import os
    d = _index_dir(tmp_path)
    want, err = _rows(d)
    assert err == ""
    nofiles, _ = _rows(d, PCOL_NO_INDEX="1")
    assert want == nofiles
    t, warned = _open_top(d)
    assert warned == []
    assert [w["name"] for w in want] == t.name.tolist()
    assert [w["flat"] for w in want] == t.flat.tolist()
    assert [w["cum"] for w in want] == t.cum.tolist()
    # a file after the index: the index and it
    run_pcol("pack", os.path.join(d, "1.pb.gz"), "-o", os.path.join(d, "4.pcol"))
    want4, _ = _rows(d)
    t, warned = _open_top(d)
    assert warned == [] and [w["flat"] for w in want4] == t.flat.tolist()
    assert want4 != want
    os.remove(os.path.join(d, "4.pcol"))
    # the index damaged, its list made to name it as it is now: read, refused
    import subprocess
    import sys
    from conftest import REPO
    subprocess.run([sys.executable, os.path.join(REPO, "tests", "support", "damage_index.py"), d], check=True)
    r = run_pcol("top", d, check=False)
    assert r.returncode == 1 and b".pcol-index.pcol" in r.stderr
    with pytest.raises(pcol.Error):
        with pcol.open(d) as f:  # (a column is checked on first use)
            f.top()
    os.environ["PCOL_NO_INDEX"] = "1"  # the files, as the CLI's PCOL_NO_INDEX=1
    try:
        t, warned = _open_top(d)
    finally:
        del os.environ["PCOL_NO_INDEX"]
    assert [w["flat"] for w in want] == t.flat.tolist()
    # stale: a file it covers touched; the files are read, and the note is the CLI's
    assert "covers 3 of 3 files" in run_pcol("index", d).stdout.decode()  # (made again)
    assert _open_top(d)[1] == []
    os.utime(os.path.join(d, "2.pb.gz"))
    stale, err = _rows(d)
    assert stale == want
    note = [ln[len("pcol: note: "):] for ln in err.splitlines() if ln.startswith("pcol: note: ")]
    assert len(note) == 1 and "a file it covers changed since" in note[0], err
    t, warned = _open_top(d)
    assert warned == note
    assert [w["flat"] for w in want] == t.flat.tolist()


def test_open_glob_skipped_matches(packed, tmp_path):
    """a glob's matches that are not regular files (a directory, a FIFO) are
    skipped and named, a UserWarning each in the CLI's words; the rows are
    those of `pcol top 'GLOB'`"""
    import os
    d = tmp_path / "odd"
    d.mkdir()
    (d / "sub.pcol").mkdir()
    os.mkfifo(str(d / "fifo.pcol"))
    for i, (_, path) in enumerate(packed[:2]):
        os.symlink(path, str(d / ("%d.pcol" % i)))
    arg = str(d / "*.pcol")
    want, err = _rows(arg)
    said = [ln[len("pcol: warning: "):] for ln in err.splitlines() if ln.startswith("pcol: warning: skipped")]
    assert len(said) == 2, err
    t, warned = _open_top(arg)
    assert warned == said
    assert [w["name"] for w in want] == t.name.tolist()
    assert [w["flat"] for w in want] == t.flat.tolist()


def test_top_units_as_stored():
    """The Python views keep the stored unit (as `--format json`): no copy
    of the unit rule to disagree with libpcol's (review 13 m8, R's copy).  A
    Perun time profile's "ns" and a collapsed file's decimal counts ("1e-9",
    .decimals 9) are the CLI's raw numbers, and the decimals give what
    `pcol top` prints."""
    import os
    from conftest import REPO
    perun = os.path.join(REPO, "tests", "fixtures", "perun", "time.perf")
    dec = os.path.join(REPO, "tests", "fixtures", "collapsed", "decimal.folded")
    with pcol.open(perun) as f:
        compare(f, perun, "function", None)
        t = f.top()
        assert (t.unit, t.decimals) == ("ns", 0)
        assert t.total == 2203861000  # pcol top: 2.20s
    with pcol.open(dec) as f:
        compare(f, dec, "function", None)
        t = f.top()
        assert (t.unit, t.decimals) == ("1e-9", 9)
        row = t.name.tolist().index("d")
        assert t.flat[row] / 10 ** t.decimals == 7  # pcol top: d 7


# the mixed directory of user review 16 (F3): two Go CPU profiles, an Rprof
# file and a collapsed file cut short, read in place (symbolic links)
MIX = ("pprof/go-cpu-inline-small.pb.gz", "pprof/go-cpu-string-labels.pb.gz",
       "rprof/r-prof-profile__1.out", "ext/collapsed/speedscope__simple.txt")
ADVICE_CLI, ADVICE_PY = "name one with --value TYPE", "name one with value='TYPE'"


def _mix_dir(tmp_path):
    import os
    from conftest import TESTDATA
    d = tmp_path / "mix"
    d.mkdir()
    for rel in MIX:
        src = os.path.join(TESTDATA, rel)
        if not os.path.isfile(src):
            pytest.skip("no %s" % src)
        os.symlink(src, str(d / os.path.basename(rel)))
    return str(d)


def _said(*args):
    """the total of `pcol top ARGS` and the warnings it prints (without
    "pcol top: warning: ")"""
    r = run_pcol("top", *args, "--format", "json")
    p = "pcol top: warning: "
    return json.loads(r.stdout)["total"], [ln[len(p):] for ln in r.stderr.decode().splitlines() if ln.startswith(p)]


def _warned(fn):
    import warnings
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = fn()
    assert all(x.category is UserWarning and x.filename == __file__ for x in w), \
        [(x.category, x.filename) for x in w]
    return r, [str(x.message) for x in w]


def test_data_warnings_of_a_mixed_directory(tmp_path):
    """The data warnings `pcol top` prints reach Python as UserWarnings in
    the CLI's words, from the caller's line (user review 16 F3): a
    collapsed file cut short (when opened), the fall-back to samples of
    sources measuring different values (the advice in Python's terms), each
    source without the value asked for (as the view is called); the numbers
    are the CLI's"""
    d = _mix_dir(tmp_path)
    total, cli = _said(d)
    assert len(cli) == 2, cli
    cut, fallback = cli
    assert cut.startswith(d + "/speedscope__simple.txt: line 5, the last, has no line end"), cut
    assert fallback.startswith(d + ": the sources measure different values, so the default is samples"), fallback
    assert fallback.endswith(ADVICE_CLI)
    fallback = fallback[:-len(ADVICE_CLI)] + ADVICE_PY
    f, w = _warned(lambda: pcol.open(d))
    assert w == [cut]
    with f:
        t, w = _warned(lambda: f.top())
        assert w == [fallback]
        assert (t.type, t.total) == ("samples", total)
        total, cli = _said(d, "--value", "cpu")
        assert len(cli) == 2 and cli[0] == cut, cli
        lacking = cli[1:]
        assert lacking == [d + ": source 4 (collapsed %s/speedscope__simple.txt) has no value "
                               "cpu/nanoseconds; its samples count 0" % d], cli
        t, w = _warned(lambda: f.top(value="cpu"))
        assert w == lacking
        assert (t.type, t.total) == ("cpu", total)
        # every view says them, as every view of the CLI does
        for view in (lambda: f.peek("main"), lambda: f.tree(), lambda: f.tags(),
                     lambda: f.traces(limit=1), lambda: f.fold(), lambda: f.list("nomatch")):
            assert _warned(view)[1] == [fallback]
        assert _warned(lambda: f.diff(f, value="cpu"))[1] == lacking * 2
        # a value every source has: nothing to say
        assert _warned(lambda: f.top(value="samples"))[1] == []


def test_range_note_of_several_recordings(tmp_path):
    """A relative range over several recordings (two Rprof files read in
    place): `pcol top`'s note that it took a window of each (review 16 F7)
    is a UserWarning in its words"""
    import os
    from conftest import TESTDATA
    d = tmp_path / "rprof"
    d.mkdir()
    for name in ("r-prof-profile__1.out", "r-prof-profile__memory.out"):
        src = os.path.join(TESTDATA, "rprof", name)
        if not os.path.isfile(src):
            pytest.skip("no %s" % src)
        os.symlink(src, str(d / name))
    d = str(d)
    r = run_pcol("top", d, "--from", "0", "--to", "0.1", "--format", "json")
    p = "pcol top: note: "
    said = [ln[len(p):] for ln in r.stderr.decode().splitlines() if ln.startswith(p)]
    assert len(said) == 1 and said[0].startswith(d + ": a relative time range counts from each source's own start"), said
    with pcol.open(d) as f:
        t, w = _warned(lambda: f.top(from_=0, to=0.1))
        assert w == said
        assert t.total == json.loads(r.stdout)["total"]
        assert _warned(lambda: f.top())[1] == []  # no range: nothing to say


def test_filter_and_empty_range_warnings(tmp_path):
    """The warnings of a filter that matches no sample (pprof's "Hide
    expression matched no samples") and of a range that selects none (a
    relative one past the span of examples/demo.out, a wall-clock one of
    another day on a JFR recording) are `pcol top`'s and `pcol fold`'s,
    UserWarnings in their words (before: the CLI's alone)"""
    import os
    import subprocess
    import sys
    from conftest import REPO
    demo = os.path.join(REPO, "examples", "demo.out")
    jfr = str(tmp_path / "j.jfr")
    subprocess.run([sys.executable, os.path.join(REPO, "tests", "support", "gen_jfr.py"), jfr,
                    "--chunks", "1", "--samples", "30", "--period", "*:10 ms"], check=True)
    day = ("2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z")
    cases = ((demo, ["--from", "2", "--hide", "nomatch_zz", "--tag-ignore", "nokey=x"],
              dict(from_=2, hide="nomatch_zz", tag_ignore="nokey=x"), 3),
             (jfr, ["--from", day[0], "--to", day[1], "--focus", "nomatch_zz"],
              dict(from_=day[0], to=day[1], focus="nomatch_zz"), 2))
    for path, args, kw, n in cases:
        for view in ("top", "fold"):
            r = run_pcol(view, path, *args, *(["--format", "json"] if view == "top" else []))
            p = "pcol %s: warning: " % view
            cli = [ln[len(p):] for ln in r.stderr.decode().splitlines() if ln.startswith(p)]
            assert len(cli) == n and " selects no sample: the " in cli[-1], cli
            assert cli[-1].startswith(path + ": the range --from "), cli
            assert all(x.endswith("expression matched no samples") for x in cli[:-1]), cli
            with pcol.open(path) as f:
                t, w = _warned(lambda: getattr(f, view)(**kw))
            assert w == cli, (view, path)
            if view == "top":
                assert t.total == json.loads(r.stdout)["total"] == 0
    # a range that reaches the samples, a filter that matches: nothing said
    with pcol.open(demo) as f:
        assert _warned(lambda: f.top(from_=0.36, to=5, focus="."))[1] == []


def _cli_warned(view, *args):
    """the exit code, JSON total and warnings of `pcol VIEW ARGS` (without
    "pcol VIEW: warning: ")"""
    r = run_pcol(view, *args, *(["--format", "json"] if view != "flame" else ["-o", os.devnull]), check=False)
    p = "pcol %s: warning: " % view
    total = json.loads(r.stdout)["total"] if r.returncode == 0 and view != "flame" else None
    return r.returncode, total, [ln[len(p):] for ln in r.stderr.decode().splitlines() if ln.startswith(p)]


def test_one_rule_for_the_cli_and_python(tmp_path):
    """Three questions the CLI and Python answered apart, one rule each in
    libpcol now: top by label:KEY's filters' warnings see KEY's frames (a
    focus on a label value matched; before, Python warned that it matched
    nothing); diff's filter warning is said once, of both sides (before,
    once a side, in both); a wall-clock range that reaches no file of a
    directory answers 0 with one file's warning (before, the CLI failed
    "none of the 2 inputs reaches the time range")"""
    lab = os.path.join(TESTDATA, "pprof", "go-cpu-string-labels.pb.gz")
    small = os.path.join(TESTDATA, "pprof", "go-cpu-inline-small.pb.gz")
    for src in (lab, small):
        if not os.path.isfile(src):
            pytest.skip("no %s" % src)
    # 1. foo's values are bar (every sample has it); "^foo$" matches the
    # frames' file; nomatch_zz matches nothing, frames or functions
    with pcol.open(lab) as f:
        for kw, said in ((dict(focus="bar"), []), (dict(hide="^foo$"), []),
                         (dict(focus="nomatch_zz"), ["Focus expression matched no samples"])):
            rc, total, cli = _cli_warned("top", lab, "--by", "label:foo", *[x for k, v in kw.items() for x in ("--" + k, v)])
            assert rc == 0 and cli == said, (kw, cli)
            t, w = _warned(lambda: f.top(by="label:foo", **kw))
            assert w == cli and t.total == total, (kw, w)
    # 2. a focus no function of either side matches: one warning; one that
    # only the second side's functions match: none (pprof's, of the two merged)
    with pcol.open(lab) as f:
        for focus, said in (("nomatch_zz", ["Focus expression matched no samples"]), ("bar", [])):
            rc, _, cli = _cli_warned("diff", lab, small, "--focus", focus)
            assert rc == 0 and cli == said, (focus, cli)
            assert _warned(lambda: f.diff(small, focus=focus))[1] == cli, focus
            assert _cli_warned("flame", small, "--diff", lab, "--focus", focus)[2] == said, focus
    # 3. two pcol files of 2017 and 2022, a day of 2030
    d = tmp_path / "far"
    d.mkdir()
    for name, src in (("1.pcol", small), ("2.pcol", lab)):
        run_pcol("pack", src, "-o", str(d / name))
    d = str(d)
    day = ["--from", "2030-01-01T00:00:00Z", "--to", "2030-01-02T00:00:00Z"]
    rc, total, cli = _cli_warned("top", d, *day)
    assert rc == 0 and total == 0 and len(cli) == 1, (rc, cli)
    assert cli[0].startswith(d + ": the range --from 2030-01-01T00:00:00.000Z --to 2030-01-02T00:00:00.000Z "
                             "selects no sample: the sources' samples are at 2017-09-29T"), cli
    with pcol.open(d) as f:
        t, w = _warned(lambda: f.top(from_=day[1], to=day[3]))
    assert w == cli and t.total == 0 and len(t) == 0, w


def test_value_of_files_out_of_a_wall_clock_range(tmp_path):
    """A directory read whole with a wall-clock range knows the values of
    the files the range keeps, as `pcol top DIR --from --to` (the union of
    those files) does: a value only the files out of the range have
    (alloc_space of the heap profile, beside the CPU profile of the range's
    hour) is refused with the CLI's message, not counted 0; an index N
    counts among the kept files' values (pcol_selection_sources)"""
    cpu, d1, d2 = _far_dirs(tmp_path)
    fr, to = "2022-06-09T18:22:00Z", "2022-06-09T18:23:00Z"
    for d in (d1, d2):
        with pcol.open(d) as f:
            for value in ("alloc_space", "1", "2", "cpu"):
                r = run_pcol("top", d, "--from", fr, "--to", to, "--value", value, "--format", "json", check=False)
                if r.returncode != 0:
                    with pytest.raises(pcol.Error) as e:
                        f.top(value=value, from_=fr, to=to)
                    cli = r.stderr.decode().strip()[len("pcol top: "):]
                    assert str(e.value) == cli, (d, value)
                    assert value != "cpu"
                else:
                    t = f.top(value=value, from_=fr, to=to)
                    want = json.loads(r.stdout)
                    assert (t.type, t.total) == (want["type"], want["total"]) == ("cpu", 8730000000), (d, value)


def test_units_of_one_kind_scaled(tmp_path):
    """THE unit rule (go tool pprof's ScaleProfiles), the library's for the
    CLI and Python alike: a directory of one heap in bytes, megabytes and
    kilobytes is inuse_space in bytes, each file's own total scaled and
    added up, as `pcol top DIR --format json`; pcol_diff of bytes against
    kilobytes compares them (it refused them as incompatible) and with
    absolute=True in the new one's unit (tests/cli/t_values.sh item 13)."""
    import os
    import subprocess
    import sys
    from conftest import REPO
    gen = os.path.join(REPO, "tests", "support", "pprofgen.py")
    d = tmp_path / "heaps"
    d.mkdir()
    for name, unit, div in (("1", "bytes", 1), ("2", "megabytes", 1 << 20), ("3", "kilobytes", 1 << 10)):
        subprocess.run([sys.executable, gen, "units", str(d / (name + ".pb")), unit, str(div)], check=True)
    want = 0
    for name, ratio in (("1", 1), ("2", 1 << 20), ("3", 1 << 10)):
        with pcol.open(str(d / (name + ".pb"))) as f:
            want += f.top().total * ratio
    with pcol.open(str(d)) as f:
        t = f.top()
        assert (t.type, t.unit, t.total) == ("inuse_space", "bytes", want)
        cli = json.loads(run_pcol("top", str(d), "--format", "json").stdout)
        assert (cli["type"], cli["unit"], cli["total"]) == ("inuse_space", "bytes", want)
    with pcol.open(str(d / "3.pb")) as f:
        r = f.diff(str(d / "1.pb"), absolute=True)
        row = r.name.tolist().index("main")
        assert r.d_flat[row] == 512  # 1 MiB + 512 B in bytes, less 1024 kB
