"""pcol.Writer (the streaming writer): the files it writes read back with
exactly the samples added (stacks, values, times, labels), one by one and
in batches; a roll gives several valid files whose union is everything
added; `pcol top` of them adds up what was added."""
import json
import os
import random

import numpy as np
import pytest

import pcol
from conftest import run_pcol

FNS = ["main", "parse", "eval", "alloc", "gc", "io\u00e9"]


def generate(n, seed):
    """n samples: stacks root first, two values, increasing times, labels"""
    rnd = random.Random(seed)
    stacks, values, times, labels = [], [], [], []
    t = 1_700_000_000_000_000_000
    for i in range(n):
        stacks.append(["main"] + [rnd.choice(FNS[1:]) for _ in range(rnd.randrange(0, 4))])
        values.append([rnd.randrange(1, 10) * 10_000_000, rnd.randrange(0, 4096)])
        t += rnd.randrange(0, 3) * 1_000_000
        times.append(t)
        lab = {}
        if i % 3:
            lab["thread"] = rnd.choice(["io", "cpu"])
        if i % 5 == 0:
            lab["bytes"] = rnd.randrange(0, 100)
        labels.append(lab)
    return stacks, values, times, labels


def read_back(paths):
    """the samples of the files, in order: (stack root first, values, time, labels)"""
    out = []
    for p in paths:
        with pcol.open(p) as f:
            fn = dict(zip(f.table("functions")["function_id"].tolist(), f.table("functions")["name"]))
            loc = dict(zip(f.table("locations")["location_id"].tolist(), f.table("locations")["function_id"].tolist()))
            s = f.table("samples")
            sl = f.table("sample_locations")
            sv = f.table("sample_values")
            lb = f.table("sample_labels")
            stacks = {int(i): [] for i in s["sample_id"]}
            for sid, d, lid in sorted(zip(sl["sample_id"].tolist(), sl["depth"].tolist(), sl["location_id"].tolist()),
                                      key=lambda r: (r[0], -r[1])):
                stacks[sid].append(fn[loc[lid]])  # deepest depth (root) first
            vals = {int(i): [] for i in s["sample_id"]}
            for sid, v in zip(sv["sample_id"].tolist(), sv["value"].tolist()):
                vals[sid].append(v)
            labs = {int(i): {} for i in s["sample_id"]}
            for sid, k, st, num in zip(lb["sample_id"].tolist(), lb["key"], lb["str"], lb["num"].tolist()):
                labs[sid][k] = st if st is not None else num
            # times are stored from the source's start (spec.md: meta pprof.time_nanos)
            m = f.table("meta")
            start = {sid: int(v) for k, v, sid in zip(m["key"], m["value"], m["source_id"].tolist())
                     if k == "pprof.time_nanos"}
            for sid, src, t in zip(s["sample_id"].tolist(), s["source_id"].tolist(), s["time_ns"].tolist()):
                out.append((stacks[sid], vals[sid], t + start[src], labs[sid]))
    return out


def test_writer_one_by_one_and_batches(tmp_path):
    stacks, values, times, labels = generate(300, 1)
    path = str(tmp_path / "w.pcol")
    with pcol.Writer(path, ["cpu/nanoseconds", "alloc/bytes"], period=(10_000_000, "cpu/nanoseconds"),
                     meta={"who": "test"}) as w:
        for i in range(100):
            w.add(stacks[i], values[i], time_ns=times[i], labels=labels[i])
        assert w.pending == 100 and w.files == []
        assert w.add_many(stacks[100:], np.array(values[100:]), time_ns=times[100:], labels=labels[100:]) == 200
    assert w.closed and w.files == [path]
    got = read_back([path])
    assert got == [(list(s), v, t, l) for s, v, t, l in zip(stacks, values, times, labels)]
    assert run_pcol("validate", "--full", path).returncode == 0
    # pcol top: the total and each function's flat are sums of what was added
    top = json.loads(run_pcol("top", path, "--value", "cpu", "--format", "json").stdout)
    assert int(top["total"]) == sum(v[0] for v in values)
    for r in top["rows"]:
        assert int(r["flat"]) == sum(v[0] for s, v in zip(stacks, values) if s[-1] == r["name"])


def test_writer_frames_with_files_and_lines(tmp_path):
    path = str(tmp_path / "lines.pcol")
    w = pcol.Writer(path, "samples/count", source_type="test")
    w.add([("main", "m.py", 3), ("work", "w.py", 10)], 2)
    w.add([("main", "m.py", 3), ("work", "w.py", 11), "leaf"], 1, weight=1)
    w.close()
    out = json.loads(run_pcol("list", path, "work", "--format", "json").stdout)
    assert sorted((r["line"], int(r["flat"])) for r in out["rows"] if int(r["flat"] or 0)) == [(10, 2)]
    fold = run_pcol("fold", path).stdout.decode()
    assert sorted(fold.splitlines()) == ["main;work 2", "main;work;leaf 1"]


def test_writer_rolls_into_valid_files(tmp_path):
    stacks, values, times, labels = generate(1000, 2)
    path = str(tmp_path / "roll.pcol")
    w = pcol.Writer(path, ["cpu/nanoseconds", "alloc/bytes"], roll_samples=300)
    for k in range(0, 1000, 70):
        w.add_many(stacks[k:k + 70], values[k:k + 70], time_ns=times[k:k + 70], labels=labels[k:k + 70])
        assert w.pending < 300
    files = w.close()
    assert len(files) == 4 and files == sorted(files) and all(os.path.isfile(f) for f in files)
    assert all(f.startswith(str(tmp_path / "roll-")) and f.endswith(".pcol") for f in files)
    assert [x for x in os.listdir(tmp_path) if not x.startswith("roll-")] == []  # no temporary left
    for f in files:
        assert run_pcol("validate", "--full", f).returncode == 0, f
    assert read_back(files) == [(list(s), v, t, l) for s, v, t, l in zip(stacks, values, times, labels)]
    # the CLI over the rolled files: their union
    top = json.loads(run_pcol("top", *files, "--value", "alloc", "--format", "json").stdout)
    assert int(top["total"]) == sum(v[1] for v in values)


def test_writer_refuses(tmp_path):
    path = str(tmp_path / "bad.pcol")
    with pytest.raises(ValueError):
        pcol.Writer(path, ["cpu"])
    with pytest.raises(pcol.Error):
        pcol.Writer(str(tmp_path / "no-such-dir" / "x.pcol"))
    w = pcol.Writer(path, ["cpu/nanoseconds"])
    with pytest.raises(ValueError):
        w.add(["main"], [1, 2])  # two values for one type
    with pytest.raises(TypeError):
        w.add("main", 1)  # a string is not a stack
    with pytest.raises(ValueError):
        w.add(["ma\0in"], 1)
    w.add(["main"], 5, time_ns=2_000)
    with pytest.raises(pcol.Error, match="sample 2"):  # time goes back: sample 1 added, 2 refused
        w.add_many([["a"], ["b"], ["c"]], [1, 2, 3], time_ns=[3_000, 1_000, 4_000])
    assert w.pending == 2
    w.close()
    with pytest.raises(ValueError):
        w.add(["main"], 1)
    assert sorted(run_pcol("fold", path).stdout.decode().splitlines()) == ["a 1", "main 5"]


def _span(path):
    """(pprof.time_nanos, pprof.duration_nanos or None) of a file's source 1"""
    with pcol.open(path) as f:
        m = f.table("meta")
        kv = {k: int(v) for k, v in zip(m["key"], m["value"]) if k in ("pprof.time_nanos", "pprof.duration_nanos")}
    return kv.get("pprof.time_nanos"), kv.get("pprof.duration_nanos")


@pytest.mark.parametrize("unit,per", [("nanoseconds", 10_000_000), ("ns", 10_000_000), ("microseconds", 10_000),
                                      ("us", 10_000), ("milliseconds", 10), ("ms", 10)])
def test_writer_point_sample_lasts_a_period_in_any_time_unit(tmp_path, unit, per):
    """review 14 F1: with the period in any time unit (not only
    nanoseconds), 10 samples of 10 ms, 10 ms apart, span 100 ms at 100 %,
    and one sample its 10 ms"""
    t0 = 1_795_860_000_900_000_000
    for n, want in ((10, "Duration: 100ms, Total samples = 100ms (  100%)"),
                    (1, "Duration: 10ms, Total samples = 10ms (  100%)")):
        p = str(tmp_path / ("%s_%d.pcol" % (unit, n)))
        with pcol.Writer(p, ["cpu/" + unit], period=(per, "cpu/" + unit)) as w:
            for i in range(n):
                w.add(["main", "f"], per, time_ns=t0 + i * 10_000_000)
        assert _span(p) == (t0, n * 10_000_000)
        assert want in run_pcol("top", p).stdout.decode()


def test_writer_untimed_first_sample_starts_at_its_clock(tmp_path):
    """review 14 F2: a file begun by an untimed sample starts at that
    sample's clock reading (not its whole second): a timed sample 200 ms
    later makes it about 200 ms long, wherever in its second it began"""
    import time
    p = str(tmp_path / "ut.pcol")
    with pcol.Writer(p, ["samples/count"]) as w:
        before = time.time_ns()
        w.add(["untimed"], 1)
        after = time.time_ns()
        time.sleep(0.2)
        t = time.time_ns()
        w.add(["timed"], 1, time_ns=t)
    start, dur = _span(p)
    assert before <= start <= after
    assert start + dur == t
    assert 200_000_000 <= dur <= t - before


def test_writer_default_value(tmp_path):
    """The files' default value is the last value type (pprof's rule), or
    default= (review 16 m2): `pcol top` and File.top() add it up"""
    def top_type(**kw):
        p = str(tmp_path / ("%s.pcol" % len(os.listdir(str(tmp_path)))))
        with pcol.Writer(p, ["cpu/nanoseconds", "alloc/bytes"], **kw) as w:
            w.add(["main", "work"], [10_000_000, 512])
        cli = json.loads(run_pcol("top", p, "--format", "json").stdout)["type"]
        with pcol.open(p) as f:
            assert f.top().type == cli
        return cli
    assert top_type() == "alloc"
    assert top_type(default="cpu") == "cpu"
    assert top_type(default="cpu/nanoseconds") == "cpu"
    assert top_type(default="alloc") == "alloc"
    assert top_type(meta={"pprof.default_sample_type": "cpu"}) == "cpu"
    with pytest.raises(ValueError, match="not one of values"):
        pcol.Writer(str(tmp_path / "x.pcol"), ["cpu/nanoseconds"], default="wall")
    with pytest.raises(ValueError, match="not both"):
        pcol.Writer(str(tmp_path / "x.pcol"), ["cpu/nanoseconds"], default="cpu",
                    meta={"pprof.default_sample_type": "cpu"})
