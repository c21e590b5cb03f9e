"""pcol.write of the tables read from a file packs back to a file whose
tables are equal (and `pcol cat` prints the same views)."""
import numpy as np
import pytest

import pcol
from conftest import run_pcol


def tables_equal(a, b, where):
    for v in pcol.VIEWS:
        ta, tb = a.table(v), b.table(v)
        assert ta.nrows == tb.nrows, (where, v)
        for c in ta.columns:
            x, y = ta[c], tb[c]
            if ta.kinds[c] == "f64":
                assert np.array_equal(x, y, equal_nan=True), (where, v, c)
            else:
                assert x.tolist() == y.tolist(), (where, v, c)


def test_round_trip_every_profile(packed, tmp_path):
    out = str(tmp_path / "copy.pcol")
    for _src, path in packed:
        with pcol.open(path) as f:
            pcol.write(f.tables(), out)
            with pcol.open(out) as g:
                tables_equal(f, g, path)
                g.validate()
    assert run_pcol("validate", "--full", out).returncode == 0


def has_non_utf8_strings(path):
    """From the CLI's raw TSV output: does some stored string hold bytes
    that are not UTF-8 (which come back as the UTF-8 of U+0080..U+00FF)?"""
    # The CLI's text rule (doc/safety.md) prints such bytes as \\xNN (and
    # C0/DEL/C1 controls too): undo the escapes, then ask whether the bytes
    # are UTF-8.  A C1 control escaped per byte decodes again.
    import re
    raw = run_pcol("cat", path, "--table", "strings").stdout
    raw = re.sub(rb"(?<!\\)\\x([0-9a-f]{2})", lambda m: bytes([int(m.group(1), 16)]), raw)
    try:
        raw.decode("utf-8")
        return False
    except UnicodeDecodeError:
        return True


def test_round_trip_is_byte_identical(packed, tmp_path):
    """A file pcol packed comes back byte for byte (same ids, same string
    order, same layout) unless its strings hold bytes that are not UTF-8."""
    out = str(tmp_path / "copy.pcol")
    n = 0
    for _src, path in packed:
        if path.endswith("--compress.pcol"):
            continue
        with pcol.open(path) as f:
            pcol.write(f.tables(), out)
        same = open(out, "rb").read() == open(path, "rb").read()
        assert same != has_non_utf8_strings(path), path
        n += same
    assert n > 100


def test_pandas_and_dict_input(packed, tmp_path):
    pytest.importorskip("pandas")
    _src, path = packed[0]
    out = str(tmp_path / "p.pcol")
    with pcol.open(path) as f:
        pcol.write({v: f.to_pandas(v) for v in pcol.VIEWS}, out)
        with pcol.open(out) as g:
            tables_equal(f, g, path)
        pcol.write({v: {c: list(f.table(v)[c]) for c in f.table(v).columns} for v in pcol.VIEWS}, out)
        with pcol.open(out) as g:
            tables_equal(f, g, path)


def test_minimal_tables(tmp_path):
    """Only what matters: functions, locations, samples and their stacks."""
    out = str(tmp_path / "m.pcol")
    pcol.write({
        "functions": {"function_id": [10, 20], "name": ["inner", b"outer"]},
        "locations": {"location_id": [5, 6], "function_id": [10, 20]},
        "samples": {"sample_id": [1, 2, 3], "weight": [3, 2, 1]},
        "sample_locations": {"sample_id": [1, 1, 2, 3], "depth": [2, 1, 1, 1], "location_id": [6, 5, 6, 5]},
    }, out)
    with pcol.open(out) as f:
        t = f.top()
        assert list(t) == [("inner", 4, 4), ("outer", 2, 5)]
        assert f.table("sources").nrows == 1


def test_nul_bytes_in_every_string_column(tmp_path):
    """Strings are bytes in the format, NUL included: sources' type and uri
    and meta keys too (the builder takes them by string id)."""
    out = str(tmp_path / "nul.pcol")
    pcol.write({
        "sources": {"source_id": [1], "source_type": [b"ty\0pe"], "source_uri": ["u\0ri"]},
        "meta": {"key": ["k\0ey", "plain"], "value": [b"v\0", None], "source_id": [1, 0]},
        "functions": {"function_id": [1], "name": ["f\0n"]},
    }, out)
    with pcol.open(out) as f:
        s = f.table("sources")
        assert list(s["source_type"]) == ["ty\0pe"] and list(s["source_uri"]) == ["u\0ri"]
        m = f.table("meta")
        assert list(m["key"]) == ["k\0ey", "plain"] and list(m["value"]) == ["v\0", None]
        assert list(f.table("functions")["name"]) == ["f\0n"]
    r = run_pcol("cat", out, "--table", "meta", "--format", "jsonl")
    assert b'"k\\u0000ey"' in r.stdout


def test_bad_tables(tmp_path, packed):
    out = str(tmp_path / "bad.pcol")
    with pytest.raises(pcol.Error, match=r"samples\$stack_id, row 1: refers to id 77"):
        pcol.write({"samples": {"stack_id": [77]}, "stacks": {"stack_id": [1], "location_id": [1]},
                    "locations": {"location_id": [1]}}, out)
    with pytest.raises(pcol.Error, match="must be str, bytes or None"):
        pcol.write({"functions": {"name": [1.5]}}, out)
    with pytest.raises(pcol.Error, match=r"functions\$function_id, row 2: duplicate id"):
        pcol.write({"functions": {"function_id": [3, 3], "name": ["a", "b"]}}, out)
    with pytest.raises(pcol.Error, match="time order"):
        pcol.write({"samples": {"time_ns": [5, 1]}}, out)
    import os
    assert not os.path.exists(out)
