"""Build the pcol extension against an installed libpcol.

libpcol is found with pkg-config (PKG_CONFIG_PATH may point at a scratch
prefix), or under $PCOL_PREFIX, else /usr/local.  The extension records the
library's directory as its run path, so no ldconfig or LD_LIBRARY_PATH is
needed after `make install`.  Build from the repository tree: the C glue
shared with the R package is in ../common (or $PCOL_COMMON, for a build from
a copy of this folder).
"""
import os
import shlex
import subprocess

import numpy
from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))
COMMON = os.environ.get("PCOL_COMMON") or os.path.normpath(os.path.join(HERE, "..", "common"))
if not os.path.isfile(os.path.join(COMMON, "pcolb.c")):
    raise SystemExit("pcol: bindings/common/pcolb.c not found; build from the pcol repository tree")


def libpcol():
    prefix = os.environ.get("PCOL_PREFIX")
    if prefix:
        return [os.path.join(prefix, "include")], [os.path.join(prefix, "lib")]
    try:
        cflags = subprocess.run(["pkg-config", "--cflags-only-I", "pcol"], check=True,
                                capture_output=True, text=True).stdout
        libdir = subprocess.run(["pkg-config", "--variable=libdir", "pcol"], check=True,
                                capture_output=True, text=True).stdout.strip()
        return [f[2:] for f in shlex.split(cflags)], [libdir]
    except (OSError, subprocess.CalledProcessError):
        return ["/usr/local/include"], ["/usr/local/lib"]


inc, libdirs = libpcol()
if not any(os.path.isfile(os.path.join(d, "pcol.h")) for d in inc):
    raise SystemExit("pcol: pcol.h not found in %s; run `make install` (or set PCOL_PREFIX / "
                     "PKG_CONFIG_PATH)" % inc)

ext = Extension(
    "pcol._pcol",
    sources=["src/_pcol.c", "src/pcolb_impl.c"],
    depends=[os.path.join(COMMON, "pcolb.c"), os.path.join(COMMON, "pcolb.h")],
    include_dirs=[COMMON, numpy.get_include()] + inc,
    library_dirs=libdirs,
    runtime_library_dirs=libdirs,
    libraries=["pcol"],
    extra_compile_args=["-std=c11", "-Wall", "-Wextra", "-Werror", "-Wno-unused-parameter",
                        "-Wno-missing-field-initializers"],
)

setup(ext_modules=[ext])
