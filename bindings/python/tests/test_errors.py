"""Bad input raises pcol.Error naming the file and the reason (the
library's message, as the CLI prints it); it never crashes."""
import os
import random
import struct
import subprocess
import sys
import zlib

import pytest

import pcol
from conftest import TESTDATA, run_pcol


def cli_message(cmd, path):
    r = run_pcol(cmd, path, check=False)
    assert r.returncode != 0
    return r.stderr.decode().strip().split(": ", 1)[1]


def test_missing_file(tmp_path):
    p = str(tmp_path / "nope.pcol")
    with pytest.raises(pcol.Error) as e:
        pcol.open(p)
    assert p in str(e.value) and "No such file" in str(e.value)
    assert e.value.path == p and e.value.code == -3


def test_a_path_that_is_not_utf8_is_named_as_strings_are(tmp_path):
    """A file name with a byte that is not UTF-8 (os.fsdecode's str, with a
    surrogate) is named in the message by the rule of every other string
    (U+0080..U+00FF, as its source_uri reads), not with U+FFFD (review 19b
    F5); e.path is the str given, which round-trips to the bytes."""
    d = os.fsencode(str(tmp_path))
    missing = os.fsdecode(d + b"/nonex\xe9")
    with pytest.raises(pcol.Error) as e:
        pcol.open(missing)
    assert str(e.value).startswith(os.fsdecode(d) + "/nonex\u00e9: ") and "\ufffd" not in str(e.value)
    assert "No such file" in str(e.value)
    assert e.value.path == missing and os.fsencode(e.value.path) == d + b"/nonex\xe9"
    # a file that exists under such a name: a damaged one, and one that reads
    bad = d + b"/caf\xe9.collapsed"
    with open(bad, "wb") as f:
        f.write(b"main;a 1\n")
    with pcol.open(os.fsdecode(bad)) as f:
        uri = f.table("sources")["source_uri"][0]
    assert uri.endswith("/caf\u00e9.collapsed")
    junk = d + b"/j\xe9nk.pcol"
    with open(junk, "wb") as f:
        f.write(b"PCOL" + bytes(200))
    with pytest.raises(pcol.Error) as e:
        pcol.open(os.fsdecode(junk))
    assert os.fsdecode(d) + "/j\u00e9nk.pcol" in str(e.value) and "\ufffd" not in str(e.value)


def test_not_a_profile(tmp_path):
    p = tmp_path / "junk.bin"
    p.write_bytes(bytes(range(256)) * 8)
    with pytest.raises(pcol.Error) as e:
        pcol.open(str(p))
    assert str(p) in str(e.value)
    assert str(e.value) == cli_message("top", str(p))


def test_empty_file_and_directory(tmp_path):
    p = tmp_path / "empty.pcol"
    p.write_bytes(b"")
    with pytest.raises(pcol.Error) as e:
        pcol.open(str(p))
    assert str(p) in str(e.value)
    with pytest.raises(pcol.Error) as e:
        pcol.open(str(tmp_path))
    assert str(tmp_path) in str(e.value)


def test_inputs_pcol_refuses(packed):
    """Inputs `pcol pack` refuses (legacy pprof, broken JSON) raise the
    CLI's message."""
    packed_src = {s for s, _ in packed}
    n = 0
    for root, _dirs, files in os.walk(TESTDATA):
        if "expected-go" in root:
            continue
        for f in files:
            src = os.path.join(root, f)
            if f.endswith(".md") or src in packed_src:
                continue
            with pytest.raises(pcol.Error) as e:
                pcol.open(src)
            assert str(e.value) == cli_message("top", src)
            n += 1
    assert n >= 5


def test_truncated_and_bad_header(packed, tmp_path):
    data = open(packed[0][1], "rb").read()
    for cut in (0, 10, 63, 64, len(data) // 2, len(data) - 1):
        p = tmp_path / ("cut%d.pcol" % cut)
        p.write_bytes(data[:cut])
        with pytest.raises(pcol.Error) as e:
            pcol.open(str(p))
        assert str(p) in str(e.value)
    p = tmp_path / "hdr.pcol"
    p.write_bytes(data[:20] + bytes([data[20] ^ 1]) + data[21:])
    with pytest.raises(pcol.Error) as e:
        pcol.open(str(p))
    assert "header checksum" in str(e.value) and str(p) in str(e.value)
    assert str(e.value) == cli_message("info", str(p))


def section(data, table, column):
    """(offset, count) of a raw section, read from the directory as spec.md §3 lays it out."""
    dir_off, = struct.unpack_from("<Q", data, 40)
    count, = struct.unpack_from("<I", data, 48)
    for i in range(count):
        e = dir_off + 64 * i
        t, c, _ty, codec = struct.unpack_from("<HHBB", data, e)
        off, = struct.unpack_from("<Q", data, e + 8)
        n, = struct.unpack_from("<Q", data, e + 32)
        if (t, c) == (table, column) and codec == 0:
            return off, n
    return None


def test_damaged_column(packed, tmp_path):
    """A stack id out of range in samples.stack_id (header intact): opening
    works; table() hands the column out as stored (O(1), the bad id in it,
    numpy's indexing refuses it); checked=True, every view that indexes
    with it, top() and validate() raise, naming the file."""
    for src, _path in packed:
        # the plain layout of 1.2 (64-byte entries, plain ids) to damage in place
        path = str(tmp_path / "plain.pcol")
        run_pcol("pack", src, "-o", path, "--format-version", "1.2")
        data = bytearray(open(path, "rb").read())
        s = section(data, 11, 6)  # samples.stack_id
        if s and s[1] > 2:
            break
    else:
        pytest.skip("no file with a stored stack_id column")
    struct.pack_into("<I", data, s[0] + 4 * (s[1] // 2), 0xFFFFFFF0)
    p = tmp_path / "badstack.pcol"
    p.write_bytes(bytes(data))
    with pcol.open(str(p)) as f:
        f.table("samples", checked=True)["time_ns"]  # other columns still read
        ids = f.table("samples")["stack_id"]  # as stored
        assert ids[s[1] // 2] == 0xFFFFFFF0 and not ids.flags.owndata
        stacks = f.table("stacks")["location_id"]
        with pytest.raises(IndexError):
            stacks[ids - 1]
        with pytest.raises(pcol.Error) as e:
            f.table("samples", checked=True)["stack_id"]
        assert str(p) in str(e.value) and "out of range" in str(e.value) and e.value.reason
        assert f.table("samples")["stack_id"][s[1] // 2] == 0xFFFFFFF0  # still as stored
        for view in ("sample_locations",):
            with pytest.raises(pcol.Error):
                f.table(view)
        with pytest.raises(pcol.Error):
            f.top()
        with pytest.raises(pcol.Error):
            f.validate()
    r = run_pcol("cat", str(p), "--table", "sample_locations", check=False)
    assert r.returncode == 1


MUTATE = r"""
import random, sys
import pcol
out, n = sys.argv[1], int(sys.argv[2])
for k, path in enumerate(sys.argv[3:]):
    print("file", path, flush=True)
    data = open(path, "rb").read()
    rng = random.Random(k)
    errors = ok = 0
    for i in range(n):
        b = bytearray(data)
        for _ in range(rng.choice((1, 2, 8))):
            pos = rng.randrange(64, len(b)) if rng.random() < 0.9 else rng.randrange(len(b))
            b[pos] = rng.randrange(256) if rng.random() < 0.5 else b[pos] ^ (1 << rng.randrange(8))
        if rng.random() < 0.1:
            b = b[: rng.randrange(len(b))]
        open(out, "wb").write(b)
        try:
            with pcol.open(out, mmap=rng.random() < 0.7) as f:
                for v in pcol.VIEWS:
                    for checked in (False, True):
                        t = f.table(v, max_rows=10**7, checked=checked)
                        for c in t.columns:
                            t[c].sum() if t[c].dtype != object else len(t[c])
                f.top()
                f.top(by="line")
            ok += 1
        except pcol.Error as e:
            assert str(e).startswith(out), str(e)
            errors += 1
    print("counts", ok, errors, flush=True)
"""


def test_mutated_files_never_crash(packed, tmp_path):
    """Random byte changes and truncations of real files: every read either
    works or raises pcol.Error naming the file (run in a child process, so
    that a crash is reported as one: one child for all the files, each
    file's seed its index as when a child ran per file, and named before
    its mutations, so that a crash names its file)."""
    files = [p for _s, p in packed if os.path.getsize(p) < 200000][::7]
    r = subprocess.run([sys.executable, "-c", MUTATE, str(tmp_path / "m.pcol"), "60", *files],
                       capture_output=True, text=True, env=dict(os.environ))
    lines = r.stdout.splitlines()
    last = ([ln[5:] for ln in lines if ln.startswith("file ")] or ["(none)"])[-1]
    assert r.returncode == 0, "crash (%d) on mutations of %s:\n%s" % (r.returncode, last, r.stderr[-2000:])
    counts = [tuple(map(int, ln.split()[1:])) for ln in lines if ln.startswith("counts ")]
    assert len(counts) == len(files), (len(counts), len(files))
    total = [sum(c[0] for c in counts), sum(c[1] for c in counts)]
    assert total[1] > 0 and total[0] + total[1] == 60 * len(files)


def test_output_budget_has_its_own_code(tmp_path):
    """fold past its output budget: pcol.Error with PCOL_EBUDGET (-9), the
    library's budget message as the CLI prints it (which exits 3 on it)"""
    src = tmp_path / "s.folded"
    src.write_text("main;a;b 5\nmain;c 2\n")
    p = str(tmp_path / "s.pcol")
    run_pcol("pack", "--from", "collapsed", str(src), "-o", p)
    with pytest.raises(pcol.Error) as e:
        pcol.open(p).fold(max_output=8)
    assert e.value.code == -9 and e.value.reason == "output budget exceeded"
    assert "output budget of 8 bytes" in str(e.value)
    r = run_pcol("fold", p, "--max-output", "8", check=False)
    assert r.returncode == 3 and "output budget of 8 bytes" in r.stderr.decode()
