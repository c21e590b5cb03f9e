"""pcol.write of the tables read from a file packs back to a file whose
tables are equal (and `pcol cat` prints the same views)."""
import numpy as np
import pytest

import pcol
from conftest import COMPRESSED, run_pcol


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
        if path.endswith(COMPRESSED):
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
    # a cell is named as Python reaches it, indexes from 0 (review 19b F7:
    # R's "samples$stack_id, row 1", led by the output's name)
    with pytest.raises(pcol.Error, match=r"^pcol\.write: tables\['samples'\]\['stack_id'\]\[0\]: refers to id 77"):
        pcol.write({"samples": {"stack_id": [77]}, "stacks": {"stack_id": [1], "location_id": [1]},
                    "locations": {"location_id": [1]}}, out)
    with pytest.raises(pcol.Error, match=r"tables\['functions'\]\['name'\]\[1\]: must be str, bytes or None"):
        pcol.write({"functions": {"name": ["a", 1.5]}}, out)
    with pytest.raises(pcol.Error, match=r"tables\['functions'\]\['function_id'\]\[1\]: duplicate id"):
        pcol.write({"functions": {"function_id": [3, 3], "name": ["a", "b"]}}, out)
    with pytest.raises(pcol.Error, match=r"tables\['functions'\]\['name'\]\[2\]: not encodable as UTF-8"):
        pcol.write({"functions": {"name": ["a", "b", "caf\udce9"]}}, out)
    with pytest.raises(pcol.Error, match="time order"):
        pcol.write({"samples": {"time_ns": [5, 1]}}, out)
    import os
    assert not os.path.exists(out)


def test_write_samples_names_its_input(tmp_path):
    """write_samples names a bad name where its caller gave it, stack[i][j]
    (root first, as given) or labels[i][key], not a row of the tables it
    makes (review 19b F7: "PATH: functions$name, row 5: not encodable as
    UTF-8"), and writes nothing."""
    import os
    out = str(tmp_path / "gen.pcol")
    bad = os.fsdecode(b"caf\xe9")  # 'caf\udce9'
    stacks = [["main", "a"], ["main", "b"], ["main", "c"], ["main", bad]]
    with pytest.raises(ValueError, match=r"^stack\[3\]\[1\]: 'caf\\udce9' is not encodable as UTF-8"):
        pcol.write_samples(out, {"stack": stacks, "value": [1, 2, 3, 4]})
    with pytest.raises(ValueError, match=r"^labels\[1\]\['k'\]: 'caf\\udce9' is not encodable"):
        pcol.write_samples(out, {"stack": stacks[:2], "value": [1, 2], "labels": [{"k": "x"}, {"k": bad}]})
    with pytest.raises(TypeError, match=r"^labels\[0\]\['k'\]: a label is a str, bytes or an int, not 1\.5"):
        pcol.write_samples(out, {"stack": stacks[:1], "value": [1], "labels": [{"k": 1.5}]})
    with pytest.raises(TypeError, match=r"^stack\[1\]\[0\]: a frame is a function name or a location id"):
        pcol.write_samples(out, {"stack": [["a"], [None, "b"]], "value": [1, 2]})
    with pytest.raises(ValueError, match=r"^source_uri: "):
        pcol.write_samples(out, {"stack": stacks[:1], "value": [1]}, source_uri=bad)
    with pytest.raises(ValueError, match=r"^stack\[0\]\[0\]: location id 9 is not in tables"):
        pcol.write_samples(out, {"stack": [[9, 1]], "value": [1]},
                           tables={"locations": {"location_id": [1]}, "functions": {"function_id": [1], "name": ["f"]}})
    assert not os.path.exists(out)
    # the bytes themselves are stored as they are
    pcol.write_samples(out, {"stack": [["main", b"caf\xe9"]], "value": [1]})
    with pcol.open(out) as f:
        assert list(f.fold().stack) == ["main;caf\u00e9"]


def test_write_samples_reads_back_in_the_cli(tmp_path):
    """pcol.write_samples of generated samples: `pcol top` and `pcol fold`
    give the totals, flat values and stacks computed here from the input."""
    import json
    from collections import Counter

    rng = np.random.default_rng(7)
    names = ["main", "parse", "eval", "gc", "alloc \u00e9t\u00e9", "io;read"]
    n = 300
    stacks = [["main"] + list(rng.choice(names[1:], size=rng.integers(0, 4))) for _ in range(n)]
    cpu = rng.integers(-5, 10**12, size=n)
    cnt = rng.integers(1, 4, size=n)
    labels = [{"thread": "t%d" % (i % 3), "bytes": int(i)} if i % 2 else {} for i in range(n)]
    out = str(tmp_path / "w.pcol")
    pcol.write_samples(out, {"stack": stacks, "values": {"cpu/nanoseconds": cpu, "samples/count": cnt},
                             "time_ns": np.arange(n) * 1000, "labels": labels})
    top = json.loads(run_pcol("top", out, "--value", "cpu", "--format", "json").stdout)
    assert top["total"] == int(np.abs(cpu).sum())
    flat = Counter()
    for st, v in zip(stacks, cpu):
        flat[st[-1]] += int(v)
    assert {r["name"]: r["flat"] for r in top["rows"] if r["flat"]} == {k: v for k, v in flat.items() if v}
    top = json.loads(run_pcol("top", out, "--value", "samples", "--format", "json").stdout)
    assert top["total"] == int(cnt.sum())
    folded = Counter()
    for st, v in zip(stacks, cnt):
        folded[";".join(s.replace(";", "_") for s in st)] += int(v)
    got = run_pcol("fold", out, "--value", "samples").stdout.decode()
    assert sorted(got.splitlines()) == sorted("%s %d" % kv for kv in folded.items())
    tags = json.loads(run_pcol("tags", out, "--value", "samples", "--format", "json").stdout)["rows"]
    want = Counter()
    for lab, v in zip(labels, cnt):
        if "thread" in lab:
            want[lab["thread"]] += int(v)
    assert {r["value"]: r["amount"] for r in tags if r["key"] == "thread"} == dict(want)
    # location ids into given tables
    out2 = str(tmp_path / "w2.pcol")
    pcol.write_samples(out2, {"stack": [[1, 2], [1], [1, 2, 2]], "value": [4, 5, 6]},
                       tables={"functions": {"function_id": np.array([1, 2]), "name": ["root", "leaf"]},
                               "locations": {"location_id": np.array([1, 2]), "function_id": np.array([1, 2])}})
    got = run_pcol("fold", out2).stdout.decode().splitlines()
    assert sorted(got) == ["root 5", "root;leaf 4", "root;leaf;leaf 6"]
