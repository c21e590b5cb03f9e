"""Every view of every test profile equals `pcol cat --format json`."""
import math
import os

import numpy as np
import pytest

import pcol
from conftest import cat_views

NA = {"ref": 0, "i64": pcol.NA_I64}


def cell(kind, v):
    """One cell of a binding's column as the JSON reference writes it."""
    if kind == "str":
        return v  # str or None
    if kind in ("ref",) and v == 0:
        return None
    if kind == "i64" and v == pcol.NA_I64:
        return None
    if kind == "f64":
        v = float(v)
        if math.isnan(v):
            return None
        if math.isinf(v):
            return "Infinity" if v > 0 else "-Infinity"
        return v
    if kind == "bool":
        return bool(v)
    return int(v)


def cells(kind, a):
    """cell() of every value of a column (the common kinds without a call
    per value: the every-view test compares ~20M cells)."""
    v = a.tolist()
    if kind == "str":
        return v
    if kind == "ref":
        return [None if x == 0 else x for x in v]
    if kind == "i64":
        na = pcol.NA_I64
        return [None if x == na else x for x in v]
    if kind not in ("f64", "bool") and a.dtype.kind in "iu":
        return v
    return [cell(kind, x) for x in v]


def check_view(f, path, view, want, **sel):
    """view `view` of File f (with the selection sel) equals want, its rows
    as `pcol cat` gives them (cat_views)"""
    t = f.table(view, **sel)
    assert t.nrows == len(want), "%s %s: %d rows, pcol cat %d" % (path, view, t.nrows, len(want))
    if want:
        assert list(want[0].keys()) == list(t.columns)
    for c in t.columns:
        a = t[c]
        assert len(a) == t.nrows
        got = cells(t.kinds[c], a)
        exp = [row[c] for row in want]
        if got != exp:
            i = next(i for i, (g, e) in enumerate(zip(got, exp)) if g != e)
            pytest.fail("%s view %s column %s row %d: binding %r, pcol cat %r" % (path, view, c, i, got[i], exp[i]))


def test_every_view_equals_pcol_cat(packed):
    n = 0
    for _src, path in packed:
        want = cat_views(path, pcol.VIEWS)
        with pcol.open(path) as f:
            for view in pcol.VIEWS:
                check_view(f, path, view, want=want[view])
                n += 1
    assert n == len(packed) * 17


def test_no_mmap_and_checked_read_the_same(packed):
    """mmap=False, and checked=True (libpcol's checks before a stored column
    is handed out), give what the default gives."""
    for _src, path in packed[::10]:
        with pcol.open(path) as a, pcol.open(path, mmap=False) as b:
            for view in pcol.VIEWS:
                ta, tb = a.table(view), b.table(view, checked=True)
                for c in ta.columns:
                    assert np.array_equal(ta[c], tb[c]) or ta.kinds[c] == "f64"


def test_selection_equals_pcol_cat(packed):
    """source/from_/to select samples as `pcol cat --source --from --to`."""
    checked = 0
    for _src, path in packed:
        with pcol.open(path) as f:
            t = f.table("samples")["time_ns"]
            known = t[t != pcol.NA_I64]
            if len(known) < 4:
                continue
            lo = float(np.quantile(known, 0.25)) / 1e9
            hi = float(np.quantile(known, 0.75)) / 1e9
            views = ("samples", "sample_values", "sample_locations", "sample_labels")
            want = cat_views(path, views, "--source", "1", "--from", repr(lo), "--to", repr(hi))
            for view in views:
                check_view(f, path, view, want=want[view], source=1, from_=lo, to=hi)
            checked += 1
    assert checked >= 10


def test_any_input_format_reads_like_its_packed_file(packed):
    """pcol.open of an Rprof/pprof/Perun/collapsed file equals the packed file."""
    for src, path in packed[:60]:
        if src.endswith(".pcol"):
            continue
        with pcol.open(src) as a, pcol.open(path) as b:
            for view in pcol.VIEWS:
                ta, tb = a.table(view), b.table(view)
                assert ta.nrows == tb.nrows, (src, view)
                for c in ta.columns:
                    x, y = ta[c], tb[c]
                    if ta.kinds[c] == "f64":
                        assert np.array_equal(x, y, equal_nan=True), (src, view, c)
                    else:
                        assert list(x) == list(y), (src, view, c)


def test_types(packed):
    _src, path = packed[0]
    with pcol.open(path) as f:
        s = f.table("samples")
        assert s["sample_id"].dtype == np.uint32
        assert s["source_id"].dtype == np.uint32 and s["stack_id"].dtype == np.uint32
        assert s["time_ns"].dtype == np.int64 and s["weight"].dtype == np.int64
        assert f.table("locations")["address"].dtype == np.uint64
        assert f.table("locations")["is_folded"].dtype == np.bool_
        assert f.table("models")["r_square"].dtype == np.float64
        assert f.table("functions")["name"].dtype == object
        assert f.table("sample_locations")["depth"].dtype == np.uint32
        assert f.rows("samples") == f.rows("samples_stored") == s.nrows
        assert f.rows("stacks") == f.table("stacks").nrows
        with pytest.raises(ValueError):
            f.rows("sample_values")  # a view, not a stored table
        for v in pcol.VIEWS:  # every column is 1-d, read-only and of the view's length
            t = f.table(v)
            for c in t.columns:
                assert t[c].ndim == 1 and len(t[c]) == t.nrows
                assert not t[c].flags.writeable
