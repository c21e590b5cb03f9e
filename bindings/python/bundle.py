"""Copy libpcol's C sources into _vendor/ so that this folder builds alone.

    python3 bindings/python/bundle.py [--build BUILD] [DEST]

DEST defaults to the _vendor folder beside this script.  What a source
package (`python3 -m build --sdist`, or a copy of this folder) needs to
build the extension on a machine without libpcol (as nanoarrow's R and
Python packages bundle nanoarrow): include/pcol.h, format/*.h, lib/core,
lib/query, lib/convert, the bindings' shared glue (bindings/common) and the
files the Makefile generates (protobuf-c code from format/*.proto, the
report page's assets), made with `make` in a scratch build directory.
setup.py runs it itself when it builds inside the repository.
"""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))


def generated(build):
    """The generated sources: (relative path under gen/, absolute path)."""
    gen = os.path.join(build, "gen")
    return [(os.path.relpath(os.path.join(d, f), gen), os.path.join(d, f))
            for d, _, fs in os.walk(gen) for f in fs if f.endswith((".c", ".h"))]


def make_generated(build):
    """Runs the Makefile's rules for the generated sources into `build`."""
    targets = subprocess.run(
        ["make", "-s", "--no-print-directory", "-C", REPO, "BUILD=" + build, "-p", "-n", "nothing-at-all"],
        capture_output=True, text=True).stdout
    want = sorted({ln.split(":")[0] for ln in targets.splitlines()
                   if ln.startswith(build + "/gen/") and ln.split(":")[0].endswith((".c", ".h"))})
    subprocess.run(["make", "-s", "--no-print-directory", "-C", REPO, "BUILD=" + build] + want, check=True)


def bundle(dest, build=None):
    if not os.path.isfile(os.path.join(REPO, "include", "pcol.h")):
        raise SystemExit("bundle.py: not inside the pcol repository (no %s/include/pcol.h)" % REPO)
    tmp = None
    if build is None:
        tmp = build = tempfile.mkdtemp(prefix="pcol-bundle-")
    build = os.path.abspath(build)
    try:
        if not os.path.isfile(os.path.join(build, "gen", "profile.pb-c.c")) or \
           not os.path.isfile(os.path.join(build, "gen", "report_assets.h")):
            make_generated(build)
        new = dest + ".tmp"
        shutil.rmtree(new, ignore_errors=True)
        keep = shutil.ignore_patterns("*.o", "*.md", "*.in", "report")
        shutil.copytree(os.path.join(REPO, "lib"), os.path.join(new, "lib"), ignore=keep)
        os.makedirs(os.path.join(new, "include"))
        shutil.copy(os.path.join(REPO, "include", "pcol.h"), os.path.join(new, "include"))
        os.makedirs(os.path.join(new, "format"))
        for f in os.listdir(os.path.join(REPO, "format")):
            if f.endswith(".h"):
                shutil.copy(os.path.join(REPO, "format", f), os.path.join(new, "format"))
        os.makedirs(os.path.join(new, "common"))
        for f in ("pcolb.c", "pcolb.h"):
            shutil.copy(os.path.join(REPO, "bindings", "common", f), os.path.join(new, "common"))
        for rel, src in generated(build):
            d = os.path.join(new, "gen", os.path.dirname(rel))
            os.makedirs(d, exist_ok=True)
            shutil.copy(src, d)
        for f in ("LICENSE", "COPYING"):
            if os.path.isfile(os.path.join(REPO, f)):
                shutil.copy(os.path.join(REPO, f), new)
        shutil.rmtree(dest, ignore_errors=True)
        os.rename(new, dest)
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    return dest


if __name__ == "__main__":
    args = sys.argv[1:]
    build = None
    if args[:1] == ["--build"]:
        build, args = args[1], args[2:]
    print(bundle(os.path.abspath(args[0]) if args else os.path.join(HERE, "_vendor"), build))
