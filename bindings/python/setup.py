"""Build the pcol extension: libpcol's C sources compiled in (the default),
or linked to an installed libpcol.

Bundled (default): libpcol's sources come from _vendor/ beside this file
(bundle.py puts them there: a source package carries them), or, inside the
pcol repository, from the repository itself (bundle.py is run then).  No
libpcol needs to be installed; its dependencies do (liblz4, libzstd, zlib,
libprotobuf-c, libjansson: Debian's -dev packages).

Installed: PCOL_LINK=installed links the libpcol that pkg-config finds
(PKG_CONFIG_PATH may point at a scratch prefix), or the one under
$PCOL_PREFIX, else /usr/local; the extension records the library's
directory as its run path.  The bindings' C glue (pcolb.c) then comes from
<prefix>/share/pcol/bindings, where `make install` puts it.

Version: the package's is libpcol's, PCOL_VERSION_MAJOR/MINOR/PATCH of the
pcol.h the extension is built with (the bundled or the installed one): the
library, the CLI and the package say one version, set in one place.

numpy: the extension is compiled against the numpy of the build.  A build
that fetched numpy itself (pip's isolated build) declares numpy as a
dependency; a build against the numpy already installed on the machine
(--no-build-isolation) does not, so that `pip install --target DIR` or
--no-index does not try to download a second numpy.  PCOL_DECLARE_NUMPY=1
or 0 overrides.
"""
import glob
import os
import re
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
VENDOR = os.path.join(HERE, "_vendor")
WARN = ["-std=c11", "-D_GNU_SOURCE", "-Wall", "-Wextra", "-Wno-unused-parameter",
        "-Wno-missing-field-initializers"]
DEPS = ["lz4", "zstd", "z", "protobuf-c", "jansson", "pthread", "m"]


def pkg_config(*args):
    return subprocess.run(["pkg-config", *args, "pcol"], check=True, capture_output=True,
                          text=True).stdout.strip()


def installed():
    """(include dirs, library dirs, glue dir) of an installed libpcol"""
    prefix = os.environ.get("PCOL_PREFIX")
    if prefix:
        return ([os.path.join(prefix, "include")], [os.path.join(prefix, "lib")],
                os.path.join(prefix, "share", "pcol", "bindings"))
    try:
        cflags = pkg_config("--cflags-only-I")
        libdir = pkg_config("--variable=libdir")
        inc = [f[2:] for f in shlex.split(cflags)] or [pkg_config("--variable=includedir")]
        glue = pkg_config("--variable=bindingsdir") or os.path.join(
            pkg_config("--variable=prefix"), "share", "pcol", "bindings")
        return inc, [libdir], glue
    except (OSError, subprocess.CalledProcessError):
        return ["/usr/local/include"], ["/usr/local/lib"], "/usr/local/share/pcol/bindings"


def vendor():
    """The folder of libpcol's sources (bundle.py's layout), made if need be."""
    repo = os.path.normpath(os.path.join(HERE, "..", ".."))
    in_repo = os.path.isfile(os.path.join(repo, "include", "pcol.h")) and \
        os.path.isfile(os.path.join(HERE, "bundle.py"))
    if in_repo:  # always fresh from the repository's sources
        sys.path.insert(0, HERE)
        import bundle
        bundle.bundle(VENDOR, os.environ.get("PCOL_BUNDLE_BUILD"))
    if not os.path.isfile(os.path.join(VENDOR, "include", "pcol.h")):
        return None
    return VENDOR


def rel(p):  # setuptools wants sources relative to setup.py
    return os.path.relpath(p, HERE)


def bundled_extension(v):
    lib = os.path.join(v, "lib")
    srcs = sorted(glob.glob(os.path.join(lib, "core", "*.c")) + glob.glob(os.path.join(lib, "query", "*.c")) +
                  glob.glob(os.path.join(lib, "convert", "*.c")) +
                  glob.glob(os.path.join(lib, "convert", "*", "*.c")) +
                  glob.glob(os.path.join(v, "gen", "**", "*.c"), recursive=True))
    convert_dirs = sorted(d for d in glob.glob(os.path.join(lib, "convert", "*")) if os.path.isdir(d))
    inc = [os.path.join(v, "common"), os.path.join(v, "include"), os.path.join(v, "format"),
           os.path.join(lib, "core"), os.path.join(lib, "query"), os.path.join(lib, "convert"),
           os.path.join(v, "gen")] + convert_dirs
    return Extension(
        "pcol._pcol",
        sources=["src/_pcol.c", "src/views.c", "src/writer.c", "src/pcolb_impl.c"] + [rel(s) for s in srcs],
        depends=["src/_pcol.h"],
        include_dirs=[numpy.get_include()] + [rel(d) for d in inc],
        libraries=DEPS,
        # no debug information for libpcol's 60 files: a third less build time
        extra_compile_args=WARN + ["-g0"],
    )


class ParallelBuildExt(build_ext):
    """build_ext compiling an extension's sources `parallel` at a time
    (setup.cfg, or build_ext -j N): setuptools' own parallel option builds
    several extensions side by side, and this package has one, of 105 C
    files with libpcol bundled, which it compiled one at a time."""

    def build_extension(self, ext):
        jobs = int(self.parallel or 1)
        serial = self.compiler.compile
        if jobs < 2 or len(ext.sources) < 2:
            return super().build_extension(ext)

        def compile(sources, output_dir=None, **kw):
            # the objects' folders first (distutils' mkpath is not safe to race)
            for o in self.compiler.object_filenames(sources, output_dir=output_dir):
                os.makedirs(os.path.dirname(o) or ".", exist_ok=True)
            with ThreadPoolExecutor(jobs) as pool:
                parts = list(pool.map(lambda s: serial([s], output_dir=output_dir, **kw), sources))
            return [o for p in parts for o in p]

        self.compiler.compile = compile
        try:
            return super().build_extension(ext)
        finally:
            del self.compiler.compile


def installed_extension():
    inc, libdirs, glue = installed()
    if not any(os.path.isfile(os.path.join(d, "pcol.h")) for d in inc + ["/usr/include"]):
        raise SystemExit("pcol: pcol.h not found in %s; run `make install` (or set PCOL_PREFIX / "
                         "PKG_CONFIG_PATH), or build with libpcol's sources bundled" % inc)
    if not all(os.path.isfile(os.path.join(glue, f)) for f in ("pcolb.c", "pcolb.h")):
        raise SystemExit("pcol: the bindings' C glue is not in %s; run `make install` in the pcol "
                         "repository (it installs share/pcol/bindings beside libpcol)" % glue)
    return Extension(
        "pcol._pcol",
        sources=["src/_pcol.c", "src/views.c", "src/writer.c", "src/pcolb_impl.c"],
        depends=["src/_pcol.h", os.path.join(glue, "pcolb.c"), os.path.join(glue, "pcolb.h")],
        include_dirs=[glue, numpy.get_include()] + inc,
        library_dirs=libdirs,
        runtime_library_dirs=libdirs,
        libraries=["pcol"],
        extra_compile_args=WARN + ["-Werror"],
    )


def header_version(dirs):
    """MAJOR.MINOR.PATCH of the first pcol.h in dirs (the Makefile's rule)"""
    for d in dirs:
        h = os.path.join(d, "pcol.h")
        if os.path.isfile(h):
            with open(h, encoding="utf-8") as fp:
                parts = dict(re.findall(r"^#define PCOL_VERSION_(MAJOR|MINOR|PATCH) +([0-9]+)", fp.read(), re.M))
            if len(parts) == 3:
                return "%s.%s.%s" % (parts["MAJOR"], parts["MINOR"], parts["PATCH"])
            raise SystemExit("pcol: no PCOL_VERSION_MAJOR/MINOR/PATCH in " + h)
    raise SystemExit("pcol: pcol.h not found in %s" % dirs)


def declare_numpy():
    d = os.environ.get("PCOL_DECLARE_NUMPY")
    if d in ("0", "1"):
        return d == "1"
    return "pip-build-env" in numpy.__file__  # numpy fetched for an isolated build


link = os.environ.get("PCOL_LINK", "bundled")
if link not in ("bundled", "installed"):
    raise SystemExit("pcol: PCOL_LINK must be 'bundled' (default) or 'installed', not %r" % link)
v = vendor() if link == "bundled" else None
if link == "bundled" and v is None:
    print("pcol: libpcol's sources are not bundled (no _vendor/): linking an installed libpcol",
          file=sys.stderr)
ext = bundled_extension(v) if v else installed_extension()
version = header_version([os.path.join(HERE, d) for d in ext.include_dirs] + ["/usr/include"])

setup(version=version, ext_modules=[ext], cmdclass={"build_ext": ParallelBuildExt}, install_requires=["numpy"] if declare_numpy() else [])
