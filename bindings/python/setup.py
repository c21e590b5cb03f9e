"""Build the pcol extension against an installed libpcol.

libpcol is found with pkg-config (PKG_CONFIG_PATH may point at a scratch
prefix), or under $PCOL_PREFIX, else /usr/local.  The extension records the
library's directory as its run path, so no ldconfig or LD_LIBRARY_PATH is
needed after `make install`.  The C glue shared with the R package (pcolb.c,
pcolb.h: bindings/common in the repository) is compiled in from where `make
install` put it beside libpcol, <prefix>/share/pcol/bindings (pkg-config
--variable=bindingsdir pcol), so any copy of this folder builds.
"""
import os
import shlex
import subprocess

import numpy
from setuptools import Extension, setup


def pkg_config(*args):
    return subprocess.run(["pkg-config", *args, "pcol"], check=True, capture_output=True,
                          text=True).stdout.strip()


def libpcol():
    """(include dirs, library dirs, glue dir)"""
    prefix = os.environ.get("PCOL_PREFIX")
    if prefix:
        return ([os.path.join(prefix, "include")], [os.path.join(prefix, "lib")],
                os.path.join(prefix, "share", "pcol", "bindings"))
    try:
        cflags = pkg_config("--cflags-only-I")
        libdir = pkg_config("--variable=libdir")
        glue = pkg_config("--variable=bindingsdir") or os.path.join(
            pkg_config("--variable=prefix"), "share", "pcol", "bindings")
        return [f[2:] for f in shlex.split(cflags)], [libdir], glue
    except (OSError, subprocess.CalledProcessError):
        return ["/usr/local/include"], ["/usr/local/lib"], "/usr/local/share/pcol/bindings"


inc, libdirs, GLUE = libpcol()
if not any(os.path.isfile(os.path.join(d, "pcol.h")) for d in inc + ["/usr/include"]):
    raise SystemExit("pcol: pcol.h not found in %s; run `make install` (or set PCOL_PREFIX / "
                     "PKG_CONFIG_PATH)" % inc)
if not all(os.path.isfile(os.path.join(GLUE, f)) for f in ("pcolb.c", "pcolb.h")):
    raise SystemExit("pcol: the bindings' C glue is not in %s; run `make install` in the pcol "
                     "repository (it installs share/pcol/bindings beside libpcol)" % GLUE)

ext = Extension(
    "pcol._pcol",
    sources=["src/_pcol.c", "src/pcolb_impl.c"],
    depends=[os.path.join(GLUE, "pcolb.c"), os.path.join(GLUE, "pcolb.h")],
    include_dirs=[GLUE, numpy.get_include()] + inc,
    library_dirs=libdirs,
    runtime_library_dirs=libdirs,
    libraries=["pcol"],
    extra_compile_args=["-std=c11", "-Wall", "-Wextra", "-Werror", "-Wno-unused-parameter",
                        "-Wno-missing-field-initializers"],
)

setup(ext_modules=[ext])
