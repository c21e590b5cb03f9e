"""Shared fixtures: the pcol CLI (the reference), the test profiles of
../shared/testdata packed into pcol files once per session.

Environment: PCOL (the pcol binary; default: `pcol` on PATH, else
build/bin/pcol), PCOL_TESTDATA (default: <repo>/../shared/testdata).
"""
import json
import os
import shutil
import subprocess
import sys

import pytest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def _pcol_bin():
    p = os.environ.get("PCOL") or shutil.which("pcol") or os.path.join(REPO, "build", "bin", "pcol")
    if not os.path.isfile(p):
        pytest.exit("pcol CLI not found (set PCOL=path/to/pcol)", returncode=2)
    return p


PCOL = _pcol_bin()

# bindings/test.sh: the package under test is the installed one
if os.environ.get("PCOL_EXPECT_INSTALLED"):
    import pcol as _pcol

    assert os.path.abspath(_pcol.__file__).startswith(os.environ["PCOL_EXPECT_INSTALLED"]), _pcol.__file__
TESTDATA = os.environ.get("PCOL_TESTDATA") or os.path.join(REPO, "..", "shared", "testdata")


def run_pcol(*args, check=True):
    r = subprocess.run([PCOL, *args], capture_output=True)
    if check and r.returncode != 0:
        raise AssertionError("pcol %s failed (%d): %s" % (" ".join(args), r.returncode, r.stderr.decode()))
    return r


def cat_views(path, views, *extra):
    """`pcol cat --table all --format json` (the reference): {view: [rows]}
    of `views`.  One process a file: a `pcol cat` per view cost most of the
    every-view test's time (17 processes a file, ~10 ms of CPU each), and
    one JSON object parses faster than JSON lines joined into arrays.  The
    output budget is the whole file's (the default, 128 x the input's size,
    is one table's: a small zstd file's tables together pass it)."""
    out = run_pcol("cat", path, "--table", "all", "--format", "json", "--max-output", "4G", *extra).stdout
    # the CLI writes valid UTF-8 for valid UTF-8 and \\u00XX for other bytes
    d = json.loads(out.decode("utf-8", "surrogateescape"))
    missing = [v for v in views if v not in d]
    assert not missing, "pcol cat %s --table all: no %s" % (path, missing)
    return {v: d[v] for v in views}


def input_files():
    """Every profile in the test data (not the notes, not go's expected
    outputs), then the repository's tests/fixtures (as tests/corpus finds them)."""
    if not os.path.isdir(TESTDATA):
        return []
    out = []
    for top in (TESTDATA, os.path.join(REPO, "tests", "fixtures")):
        found = []
        for root, _dirs, files in os.walk(top):
            if "expected-go1.19-pprof" in root:
                continue
            found += [os.path.join(root, f) for f in files if not f.endswith(".md")]
        out += sorted(found)
    return out


# the other layouts a packed file can have, made of every 15th profile:
# LZ4 sections (format 1.3: over encoded columns; and the 1.0 files
# --format-version 1.2 writes for old readers), zstd sections (1.2's
# transforms, 1.3/1.4), and coalesced long samples; named NAME + suffix
COPIES = ((["--compress", "lz4"], "--compress.pcol"), (["--compress", "lz4", "--format-version", "1.2"], "--lz4v10.pcol"),
          (["--compress", "zstd"], "--zstd.pcol"), (["--coalesce"], "--coalesce.pcol"))
# the packed files whose sections are compressed (their columns are decoded
# copies, and a file written again from them is not the same bytes)
COMPRESSED = ("--compress.pcol", "--lz4v10.pcol", "--zstd.pcol", "--blocks.pcol")


def zstd_blocks_file(d):
    """(input, pcol file) of a profile whose samples columns `pack --compress
    zstd` stores in zstd blocks (format 1.4, spec.md section 4.2: 65,536
    samples or more), made by tests/support/tachyongen.py (standard library
    only: run by this interpreter); None without it."""
    gen = os.path.join(REPO, "tests", "support", "tachyongen.py")
    if not os.path.isfile(gen):
        return None
    py = sys.executable
    src, dst = str(d / "tachyon-70000.bin"), str(d / "tachyon-70000--blocks.pcol")
    subprocess.run([py, gen, "rich", src, "--samples", "70000", "--seed", "5"], check=True,
                   stdout=subprocess.DEVNULL)
    run_pcol("pack", src, "-o", dst, "--compress", "zstd")
    info = run_pcol("info", dst).stdout.decode()
    # 1.4, or 1.5 when a column's lanes are byte-split as well
    assert "zblk" in info and ("format_version:  1.4" in info or "format_version:  1.5" in info), \
        "no zstd blocks in " + dst
    return src, dst


@pytest.fixture(scope="session")
def packed(tmp_path_factory):
    """[(input, pcol file)] for every test profile `pcol pack` accepts, plus
    an LZ4-compressed, a zstd and a coalesced copy of a few (other code
    paths: decoded sections, long samples) and a file with zstd blocks."""
    if not os.path.isdir(TESTDATA):
        pytest.skip("test data not found at %s (set PCOL_TESTDATA)" % TESTDATA)
    d = tmp_path_factory.mktemp("packed")
    out = []
    for i, src in enumerate(input_files()):
        dst = str(d / ("%03d-%s.pcol" % (i, os.path.basename(src))))
        if run_pcol("pack", src, "-o", dst, check=False).returncode == 0:
            out.append((src, dst))
    assert len(out) > 50, "too few test profiles could be packed"
    extra = []
    for src, _ in out[::15]:
        for opts, suffix in COPIES:
            dst = str(d / (os.path.basename(src) + suffix))
            run_pcol("pack", src, "-o", dst, *opts)
            extra.append((src, dst))
    blocks = zstd_blocks_file(d)
    return out + extra + ([blocks] if blocks else [])


@pytest.fixture(scope="session")
def rprof_packed(packed):
    return [(s, p) for s, p in packed if "/rprof/" in s]


def _features(path):
    """the features of a packed file that take their own code paths"""
    import pcol
    out = set()
    with pcol.open(path) as f:
        if f.table("sources").nrows > 1:
            out.add("multi-source")
        if f.table("sample_labels").nrows:
            out.add("labels")
        if f.table("location_lines").nrows > f.table("locations").nrows:
            out.add("inline")
        if any(u == "bytes" for u in f.table("value_types")["unit"]):
            out.add("memory")
        if f.table("samples").nrows and (f.table("samples")["weight"] > 1).any():
            out.add("weighted")
    return out


@pytest.fixture(scope="session")
def representative(packed):
    """A subset of `packed` for the tests of variants (options, filters,
    sorts, keys): the first file of each format (test-data folder), the
    first LZ4, zstd and coalesced copies, the zstd-blocks file, and the
    first two files with each feature (labels, inline frames, memory
    values, several sources, weighted samples).  Every file still gets each view once (the default options)."""
    out, seen, feat = [], set(), {}
    for src, path in packed:
        key = os.path.dirname(os.path.relpath(src, TESTDATA))
        copy = next((c for _o, c in COPIES + ((None, "--blocks.pcol"),) if path.endswith(c)), None)
        take = (copy or key) not in seen
        seen.add(copy or key)
        for ft in _features(path):
            if feat.get(ft, 0) < 2:
                feat[ft] = feat.get(ft, 0) + 1
                take = True
        if take:
            out.append((src, path))
    return out
