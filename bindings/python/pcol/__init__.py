"""pcol for Python: the tables of a profile, mapped and zero-copy.

    import pcol
    with pcol.open("run.pcol") as f:        # or any format pcol reads (Rprof, pprof, ...)
        s = f.table("samples")             # a mapping of column name -> numpy array
        df = f.to_pandas("functions")      # when pandas is installed
        t = f.top(by="function", value="cpu")

Views and columns are those of `pcol cat --table NAME` (spec.md, "Logical
views").  Types (see README.md):

- ids and references: numpy.uint32; 0 is "none" (NA) in a reference;
- i64 columns: numpy.int64, with NA_I64 (-2**63) for NA (`masked=True`
  gives numpy.ma arrays with NA masked; to_pandas gives nullable Int64);
- u64: numpy.uint64; f64: numpy.float64 (NaN is NA); flags: numpy.bool_;
- strings: object arrays of str (None for NA).  Bytes that are not valid
  UTF-8 become U+0080..U+00FF, as `pcol cat --format json` writes them.

Columns the file stores are read-only views of the file's memory: the
array keeps the file open (mapped) for as long as it lives, even after
File.close().  Computed columns (row ids, the derived views) are ordinary
arrays.
"""
import os as _os
from collections.abc import Mapping as _Mapping

import numpy as _np

from . import _pcol

__all__ = ["open", "write", "File", "Table", "Top", "Error", "NA_I64", "VIEWS", "version"]

Error = _pcol.Error
NA_I64 = -(2 ** 63)
#: Default cap on the rows of a view that may have more rows than the file
#: stores (sample_locations, sample_labels): what a hostile file could blow up.
DEFAULT_MAX_ROWS = 2 ** 31 - 1

_VIEWS = {name: (cols, sample_view, derived) for name, cols, sample_view, derived in _pcol.views()}
VIEWS = tuple(name for name, *_ in _pcol.views())


def version():
    """libpcol's version string."""
    return _pcol.version()


def open(path, *, mmap=True):
    """Open a pcol file (or import any profile format pcol reads into memory).

    mmap=False reads the file into memory instead of mapping it (for files
    that another process may truncate: a mapped file that shrinks raises
    SIGBUS on access)."""
    return File(path, mmap=mmap)


def _write_column(col, kind):
    """One column for the writer: ("str", sequence) or (type, numpy array)."""
    if kind == "str":
        if hasattr(col, "to_numpy"):  # pandas: NA -> None
            col = [None if x is None or x != x else x for x in col.tolist()]
        return ("str", col)
    na = {"ref": 0, "id": 0, "i64": NA_I64, "f64": _np.nan}.get(kind, 0)
    if hasattr(col, "to_numpy") and getattr(col, "hasnans", False):  # pandas nullable
        col = col.to_numpy(dtype="float64" if kind == "f64" else "int64", na_value=na)
    if isinstance(col, _np.ma.MaskedArray):
        col = col.filled(na)
    a = _np.asarray(col)
    if kind == "f64":
        return ("f64", a.astype(_np.float64, copy=False))
    if a.dtype.kind == "u" and a.dtype.itemsize == 8:
        return ("u64", a)
    if a.dtype.kind == "f":
        return ("f64", a.astype(_np.float64, copy=False))
    return ("i64", a.astype(_np.int64, copy=False))


def write(tables, path, *, compress=False):
    """Pack tables into a pcol file at `path` (written atomically).

    tables: a mapping of view name -> mapping of column name -> column (the
    result of File.tables(), dicts of numpy arrays or lists, or pandas
    DataFrames).  Any subset of the views and of their columns may be given;
    ids are keys, references are resolved through them and the file gets
    new ids in row order (the same ids when the tables came from a pcol
    file).  Strings may be str, bytes (stored as they are) or None (NA)."""
    spec = []
    for name, t in tables.items():
        if name not in _VIEWS:
            continue
        kinds = dict(_VIEWS[name][0])
        cols = {}
        n = None
        for c in (t.columns if hasattr(t, "columns") else t.keys()):
            if c not in kinds:
                continue
            cols[c] = _write_column(t[c], kinds[c])
            m = len(cols[c][1])
            if n is not None and m != n:
                raise ValueError("%s: columns of different lengths" % name)
            n = m
        spec.append((name, n or 0, cols))
    _pcol.write(spec, _os.fspath(path), bool(compress))


class File:
    """An open pcol file.  Use as a context manager, or call close()."""

    def __init__(self, path, *, mmap=True):
        self.path = _os.fsdecode(_os.fspath(path))
        self._h = _pcol.open(self.path, bool(mmap))

    # -- lifetime
    def close(self):
        """Close the file.  Arrays obtained before keep their memory (and the
        mapping) alive until they are freed; new reads raise ValueError."""
        self._h = None

    @property
    def closed(self):
        return self._h is None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return "<pcol.File %r%s>" % (self.path, " closed" if self.closed else "")

    def _handle(self):
        if self._h is None:
            raise ValueError("pcol file %r is closed" % self.path)
        return self._h

    # -- reading
    @property
    def views(self):
        return VIEWS

    def rows(self, table):
        """Rows of a stored table (0 when absent), by its spec.md §5 name
        ("samples") or as `pcol info` names it ("samples_stored")."""
        return self._handle().rows(table)

    def table(self, name, *, source=None, from_=None, to=None, max_rows=DEFAULT_MAX_ROWS,
              masked=False, checked=False):
        """The view `name` as a read-only mapping of column name -> numpy array.

        source, from_, to (seconds since the source's start) select samples
        for the sample views, as `pcol cat --source --from --to`.  Stored
        columns are fetched on first access (zero-copy); the views that are
        derived (sample_values, sample_locations, sample_labels, locations,
        location_lines, mappings) are computed at once.

        A stored view's id and reference columns are the file's values as
        they are, handed out in O(1) without a pass over them: in a damaged
        file they may refer to rows that do not exist (numpy's indexing
        raises IndexError then; nothing reads out of bounds).  checked=True
        first runs libpcol's check of each column (every id in range, O(n),
        once per open file), raising pcol.Error on a damaged one; derived
        views, selections, top() and validate() always check."""
        return Table(self, name, (source, from_, to, max_rows, bool(checked)), masked)

    def tables(self, **kw):
        """Every view, as {name: Table}."""
        return {v: self.table(v, **kw) for v in VIEWS}

    def to_pandas(self, name, **kw):
        """The view as a pandas DataFrame (see Table.to_pandas)."""
        return self.table(name, **kw).to_pandas()

    def top(self, by="function", value=None, *, source=None, from_=None, to=None):
        """Flat and cumulative value per function (or "line", "file"): the
        numbers of `pcol top`.  value: None (the file's default), "weight",
        "samples", "TYPE" or "TYPE/UNIT", "rprof.alloc"."""
        if by not in ("function", "line", "file"):
            raise ValueError("by must be 'function', 'line' or 'file', not %r" % (by,))
        r = self._handle().top(by, value, source, from_, to)
        return Top(*r)

    def validate(self):
        """Full validation (every checksum, offset and id); raises pcol.Error."""
        self._handle().validate()


class Table(_Mapping):
    """One logical view: a read-only mapping of column name -> numpy array
    (all of the same length, `nrows`).  dict(table) gives a plain dict."""

    def __init__(self, file, name, sel, masked=False):
        if name not in _VIEWS:
            raise ValueError("no view named %r (views: %s)" % (name, ", ".join(VIEWS)))
        cols, sample_view, derived = _VIEWS[name]
        self.name = name
        self.columns = tuple(c for c, _ in cols)
        self.kinds = dict(cols)
        self._file = file
        self._sel = sel
        self._masked = masked
        self._cols = {}
        selected = sample_view and any(x is not None for x in sel[:3])
        if derived or selected:
            self.nrows, cols_ = file._handle().table(name, None, *sel)
            self._cols.update(cols_)
        else:
            self.nrows, _ = file._handle().table(name, (), *sel)

    def __getitem__(self, key):
        a = self._cols.get(key)
        if a is None:
            if key not in self.kinds:
                raise KeyError(key)
            _, d = self._file._handle().table(self.name, (key,), *self._sel)
            a = self._cols[key] = d[key]
        if self._masked and self.kinds[key] == "i64":
            return _np.ma.masked_equal(a, NA_I64, copy=False)
        return a

    def __iter__(self):
        return iter(self.columns)

    def __len__(self):
        return len(self.columns)

    def __repr__(self):
        return "<pcol.Table %s: %d rows, columns %s>" % (self.name, self.nrows, ", ".join(self.columns))

    def to_pandas(self):
        """A pandas DataFrame: ids uint32; references nullable UInt32 (0 is
        NA); i64 nullable Int64 (NA_I64 is NA); u64 uint64; f64 float64;
        flags bool; strings object (None is NA)."""
        import pandas as pd

        data = {}
        for c in self.columns:
            a = _np.asarray(self._raw(c))
            k = self.kinds[c]
            if k == "ref":
                data[c] = pd.arrays.IntegerArray(_np.array(a, dtype=_np.uint32), a == 0)
            elif k == "i64":
                data[c] = pd.arrays.IntegerArray(_np.array(a, dtype=_np.int64), a == NA_I64)
            else:
                data[c] = a
        return pd.DataFrame(data, columns=list(self.columns))

    def _raw(self, key):
        m = self._masked
        self._masked = False
        try:
            return self[key]
        finally:
            self._masked = m


class Top:
    """The result of File.top: rows sorted as `pcol top` prints them.

    name (list of str), flat and cum (int64 arrays), total (sum of |value|
    over the selected samples), type and unit (of the value added up)."""

    def __init__(self, name, flat, cum, total, type, unit):
        self.name, self.flat, self.cum = name, flat, cum
        self.total, self.type, self.unit = total, type, unit

    def __len__(self):
        return len(self.name)

    def __iter__(self):
        return iter(zip(self.name, self.flat.tolist(), self.cum.tolist()))

    def __getitem__(self, i):
        return (self.name[i], int(self.flat[i]), int(self.cum[i]))

    def __repr__(self):
        return "<pcol.Top %d rows of %s/%s, total %d>" % (len(self), self.type, self.unit, self.total)

    def percent(self, v):
        """100 * v / total (0 when total is 0), as `pcol top` computes shares."""
        v = _np.asarray(v, dtype=_np.float64)
        return 100.0 * v / self.total if self.total else _np.zeros_like(v)

    def to_pandas(self):
        """name, flat, flat_pct, sum_pct, cum, cum_pct: the columns of
        `pcol top --format tsv` (percentages not rounded)."""
        import pandas as pd

        fp = self.percent(self.flat)
        return pd.DataFrame({"name": self.name, "flat": self.flat, "flat_pct": fp,
                             "sum_pct": _np.cumsum(fp), "cum": self.cum,
                             "cum_pct": self.percent(self.cum)})
