#!/usr/bin/env python3
"""damage_index.py DIR: DIR's index (`pcol index`: .pcol-index.pcol) damaged
inside (4 bytes at offset 100 overwritten) and its list made to name it as
it is now, so that the index still stands for the files and it is the
reader that has to refuse it.  For t_index.sh, t_duckdb.sh and the
bindings' tests (an index read where its files would have been)."""
import os
import sys

d = sys.argv[1]
ix = os.path.join(d, ".pcol-index.pcol")
with open(ix, "r+b") as fp:
    fp.seek(100)
    fp.write(b"XXXX")
st = os.stat(ix)
lst = os.path.join(d, ".pcol-index.list")
with open(lst, "rb") as fp:
    lines = fp.read().split(b"\n")
lines[1] = b"index %d %d %d %d" % (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
with open(lst, "wb") as fp:
    fp.write(b"\n".join(lines))
