"""File.top gives the numbers of `pcol top` (names, flat, cum, shares),
and fails where `pcol top` fails, with the same message."""
import json

import pytest

import pcol
from conftest import run_pcol


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
