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
- a view's sums (top's flat and cum, tree's, diff's, ...): numpy.int64, or,
  when one passes int64 (libpcol adds up in 128 bits), an object array of
  the exact Python ints `pcol VIEW --format json` prints, with a
  UserWarning naming the column;
- u64: numpy.uint64; f64: numpy.float64 (NaN is NA); flags: numpy.bool_;
- strings: object arrays of str (None for NA).  Bytes that are not valid
  UTF-8 become U+0080..U+00FF, as `pcol cat --format json` writes them.

Columns the file stores are read-only views of the file's memory: the
array keeps the file open (mapped) for as long as it lives, even after
File.close(), and so does a Table (its columns are fetched when first
indexed, before or after close()).  Computed columns (row ids, the derived
views) are ordinary arrays.
"""
import os as _os
import datetime as _dt
import warnings as _warnings
import re as _re
import numbers as _numbers
from collections import namedtuple as _namedtuple
from operator import index as _operator_index
from collections.abc import Mapping as _Mapping

import numpy as _np

from . import _pcol

__all__ = ["open", "write", "write_samples", "Writer", "File", "Table", "View", "Top", "Peek", "ListView", "Tags", "Traces", "Diff",
           "Fold", "Error", "NA_I64", "VIEWS", "version"]

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


def open(path, *, mmap=True, tagroot=None, tagleaf=None, tagunit=None, base=None, diff_base=None,
         normalize=False):
    """Open a pcol file (or import any profile format pcol reads into memory),
    or a directory or a glob pattern ("runs/*.pb.gz"): the union of its
    regular files by name (not those starting with '.'), as `pcol merge` of
    them would write it, as the CLI reads a directory or a quoted glob (the
    library's rule): a directory's index (`pcol index DIR`) is read in
    place of the files it stands for, and one that no longer stands for
    them is not used, with a UserWarning saying why in the CLI's words; a
    glob's matches that are not regular files are skipped, a UserWarning
    naming each.  base and diff_base may be a directory or a glob too.

    mmap=False reads the file into memory instead of mapping it (for files
    that another process may truncate: a mapped file that shrinks raises
    SIGBUS on access).  tagroot, tagleaf: label keys (a str "k1,k2" or a
    sequence), pprof's -tagroot/-tagleaf: the file is read into memory
    with a frame per key at the root of each stack (below its leaf), named
    by the sample's values of the key, so every view splits by label and
    the filters see those frames (`pcol top --tagroot`).  tagunit: the
    unit a numeric label's frame names its value in, as pprof's -unit does
    ("kB", "ms", ...; None: pprof's default, the largest unit that keeps
    it at least 1, "1.50kB"; `pcol top --tagroot K --unit U`).  base, diff_base:
    a profile (any format) read with its values subtracted, pprof's -base
    and -diff_base (`pcol top --base/--diff-base`): every view shows the
    change; with diff_base its total is the base's.  With tagroot/tagleaf
    too, as pprof -tagroot K -base BASE: the frames are added to the two
    merged, so a key of either is enough (the other's samples get its
    "<unknown>" frame).  A key no sample has names every frame of it
    "<unknown>", and when no key of tagroot (tagleaf) matches a sample,
    pprof's warning is given as a UserWarning (warnings.warn): "TagRoot
    expression matched no samples" ("TagLeaf ...").  normalize=True (pprof's -normalize,
    `--normalize`): the profile's values scaled first so that each type
    adds up to the base's (needs base or diff_base)."""
    return File(path, mmap=mmap, tagroot=tagroot, tagleaf=tagleaf, tagunit=tagunit, base=base,
                diff_base=diff_base, normalize=normalize, _stacklevel=3)


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


def write_samples(path, data, *, value_type="samples/count", source_type="python", source_uri=None,
                  tables=None, compress=False):
    """Write a profile made of samples to a pcol file at `path` (atomically,
    through the builder as pcol.write).

    data: a mapping of equal-length columns, one row a sample:
      "stack"   each sample's stack, root first (as "root;...;leaf" reads):
                a sequence of function names, or of location ids (ints) into
                tables["locations"] (with tables["functions"]);
      "value"   its value (ints), of type `value_type` ("TYPE/UNIT"), or
      "values"  a mapping "TYPE/UNIT" -> column, several values a sample
                (the first is also the weight column);
      "time_ns" optional times (int64 ns, NA_I64 for none; samples must be
                in time order);
      "labels"  optional: per sample a mapping key -> str or int.
    One source of type `source_type` holds the samples.  `pcol top` of the
    file adds the values up: its total is sum(|value|).  Names are str
    (UTF-8) or bytes (stored as they are); a wrong one raises TypeError or
    ValueError naming it where it was given ("stack[3][1]",
    "labels[0]['k']"), as data holds it."""
    stacks = list(data["stack"])
    n = len(stacks)
    if "values" in data:
        values = {k: _np.asarray(v, dtype=_np.int64) for k, v in data["values"].items()}
    else:
        values = {value_type: _np.asarray(data["value"], dtype=_np.int64)}
    if not values:
        raise ValueError("no values")
    _utf8_name(source_type, "source_type")
    _utf8_name(source_uri, "source_uri")
    for k, v in values.items():
        _utf8_name(k, "value type %r" % (k,) if "values" in data else "value_type")
        if v.ndim != 1 or len(v) != n:
            raise ValueError("value %r: %d values for %d stacks" % (k, len(v), n))
        if "/" not in k:
            raise ValueError("value types are 'TYPE/UNIT', not %r" % (k,))
    out = {k: dict(v) for k, v in (tables or {}).items()}
    fn_names, fn_ids = [], {}
    sl_sample, sl_depth, sl_loc = [], [], []
    by_name = not any(isinstance(fr, (int, _np.integer)) for st in stacks for fr in st)
    known = None  # the location ids tables["locations"] names, when it gives them
    if not by_name and tables and "locations" in tables and "location_id" in tables["locations"]:
        known = {int(x) for x in tables["locations"]["location_id"]}
    for i, st in enumerate(stacks):
        fr = list(st)
        for d, x in enumerate(reversed(fr)):  # depth 1 is the leaf
            if by_name:
                if not isinstance(x, (str, bytes)):
                    raise TypeError("stack[%d][%d]: a frame is a function name or a location id, not %r"
                                    % (i, len(fr) - 1 - d, x))
                lid = fn_ids.get(x)
                if lid is None:
                    _utf8_name(x, "stack[%d][%d]" % (i, len(fr) - 1 - d))
                    fn_names.append(x)
                    lid = fn_ids[x] = len(fn_names)
            else:
                lid = int(x)
                if known is not None and lid not in known:
                    raise ValueError("stack[%d][%d]: location id %d is not in tables['locations']['location_id']"
                                     % (i, len(fr) - 1 - d, lid))
            sl_sample.append(i + 1)
            sl_depth.append(d + 1)
            sl_loc.append(lid)
    if by_name:
        k = len(fn_names)
        ids = _np.arange(1, k + 1, dtype=_np.int64)
        out["functions"] = {"function_id": ids, "name": fn_names}
        out["locations"] = {"location_id": ids, "function_id": ids}
    sid = _np.arange(1, n + 1, dtype=_np.int64)
    first = next(iter(values.values()))
    out["sources"] = {"source_id": _np.array([1]), "source_type": [source_type], "source_uri": [source_uri]}
    types = [k.split("/", 1) for k in values]
    out["value_types"] = {"value_type_id": _np.arange(1, len(types) + 1), "type": [t for t, _ in types],
                          "unit": [u for _, u in types]}
    out["source_value_types"] = {"source_id": _np.ones(len(types), dtype=_np.int64),
                                 "value_type_id": _np.arange(1, len(types) + 1)}
    samples = {"sample_id": sid, "source_id": _np.ones(n, dtype=_np.int64), "weight": first}
    if data.get("time_ns") is not None:
        samples["time_ns"] = _np.asarray(data["time_ns"], dtype=_np.int64)
    out["samples"] = samples
    out["sample_locations"] = {"sample_id": _np.array(sl_sample, dtype=_np.int64),
                               "depth": _np.array(sl_depth, dtype=_np.int64),
                               "location_id": _np.array(sl_loc, dtype=_np.int64)}
    out["sample_values"] = {"sample_id": _np.repeat(sid, len(types)),
                            "type": [t for _ in range(n) for t, _u in types],
                            "unit": [u for _ in range(n) for _t, u in types],
                            "value": _np.column_stack(list(values.values())).reshape(-1)
                            if n else _np.zeros(0, dtype=_np.int64)}
    if data.get("labels") is not None:
        ls, lk, lstr, lnum = [], [], [], []
        for i, lab in enumerate(data["labels"]):
            for key, v in (lab or {}).items():
                where = "labels[%d][%r]" % (i, key)
                if not isinstance(key, (str, bytes)):
                    raise TypeError("labels[%d]: a key is a str or bytes, not %r" % (i, key))
                _utf8_name(key, "labels[%d]: the key %r" % (i, key))
                if isinstance(v, bool) or not isinstance(v, (str, bytes, int, _np.integer)):
                    raise TypeError("%s: a label is a str, bytes or an int, not %r" % (where, v))
                _utf8_name(v, where)
                ls.append(i + 1)
                lk.append(key)
                isnum = isinstance(v, (int, _np.integer)) and not isinstance(v, bool)
                lstr.append(None if isnum else v)
                lnum.append(int(v) if isnum else NA_I64)
        out["sample_labels"] = {"sample_id": _np.array(ls, dtype=_np.int64), "key": lk, "str": lstr,
                                "num": _np.array(lnum, dtype=_np.int64), "unit": [None] * len(ls)}
    write(out, path, compress=compress)

def _utf8_name(x, where):
    """A str the writer stores as UTF-8: one that cannot be (surrogates, as
    os.fsdecode makes of bytes that are not UTF-8) raises ValueError naming
    `where` it was given"""
    if isinstance(x, str):
        try:
            x.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("%s: %r is not encodable as UTF-8 (a str with surrogates, such as os.fsdecode "
                             "makes of bytes that are not UTF-8: pass the bytes)" % (where, x)) from None


_DEFAULT_KEY = "pprof.default_sample_type"  # the meta key of a source's default value (libpcol's rule)


def _writer_default(default, vts, meta):
    """Writer's default=: the meta row naming it, checked against the
    value types (vts: (type, unit) pairs) and the meta given"""
    if not isinstance(default, str):
        raise TypeError("default must be a str, 'TYPE' or 'TYPE/UNIT' of one of values")
    t = default.split("/", 1)[0]
    if not any(default in (vt[0], "%s/%s" % vt) for vt in vts):
        raise ValueError("default %r is not one of values (%s)" % (default, ", ".join("%s/%s" % vt for vt in vts)))
    if any(k == _DEFAULT_KEY for k, _ in meta):
        raise ValueError("give default= or meta's %s, not both" % _DEFAULT_KEY)
    return (_DEFAULT_KEY, t)


class Writer:
    """A streaming writer (libpcol's pcol_writer): samples added one by one
    or in batches, written to `path` when closed, or rolled into a new file
    every `roll_samples` samples or `roll_seconds` seconds (each file
    complete and valid once it has its name: "prof.pcol" ->
    "prof-20261123T101500.000Z-000001.pcol").

        with pcol.Writer("prof.pcol", values=["cpu/nanoseconds"], roll_samples=10000) as w:
            w.add(["main", "work"], 10_000_000, time_ns=time.time_ns(), labels={"thread": "io"})
            w.add_many(stacks, values, time_ns=times)
        w.files                               # the files written

    values: the value types, "TYPE/UNIT", one value of each per sample.
    A stack is root first (as `pcol fold` prints it): function names, or
    frames (function, file, line) with None for what is unknown.  Times are
    nanoseconds since the epoch and must not decrease within a file.
    Labels: a mapping key -> str or int per sample.  period: (value,
    "TYPE/UNIT"), the sampling period (pprof's).  meta: key -> value rows
    of the source.

    default: the value the files' views add up when none is named (`pcol
    top` without --value, File.top() without value=): "TYPE" or
    "TYPE/UNIT" of one of `values`.  Without it the default is the LAST
    value type (pprof's rule: values=["cpu/nanoseconds", "alloc/bytes"]
    gives files whose `pcol top` shows alloc); it is stored as the meta
    pprof.default_sample_type, which `meta` may give instead."""

    def __init__(self, path, values=("samples/count",), *, source_type="python", source_uri=None,
                 period=None, meta=None, roll_samples=0, roll_seconds=0, compress=False, default=None):
        if isinstance(values, str):
            values = [values]
        vts = []
        for v in values:
            if not isinstance(v, str) or "/" not in v:
                raise ValueError("value types are 'TYPE/UNIT', not %r" % (v,))
            vts.append(tuple(v.split("/", 1)))
        if not vts:
            raise ValueError("at least one value type")
        pv, pt, pu = 0, None, None
        if period is not None:
            pv, ptu = period
            if "/" not in ptu:
                raise ValueError("period is (value, 'TYPE/UNIT'), not %r" % (period,))
            pt, pu = ptu.split("/", 1)
        if roll_samples < 0 or not roll_seconds >= 0:
            raise ValueError("roll_samples and roll_seconds must be >= 0")
        meta = [(str(k), str(v)) for k, v in (meta or {}).items()]
        if default is not None:
            meta.append(_writer_default(default, vts, meta))
        self.path = _os.fspath(path)
        self.nvalues = len(vts)
        self._w = _pcol.writer_open(self.path, vts, source_type, source_uri, meta, int(pv), pt, pu,
                                    int(roll_samples), int(round(roll_seconds * 1e9)), bool(compress))

    def add(self, stack, values, *, time_ns=None, labels=None, weight=None):
        """One sample: its stack (root first), its value (or one per value
        type), time, labels, weight (raw samples it stands for)."""
        vals = [values] if _np.ndim(values) == 0 else list(values)
        return self.add_many([stack], [vals], time_ns=None if time_ns is None else [time_ns],
                             labels=None if labels is None else [labels],
                             weights=None if weight is None else [weight])

    def add_many(self, stacks, values, *, time_ns=None, labels=None, weights=None):
        """n samples: stacks (a sequence of stacks), values (n values, or an
        n x len(values types) array), time_ns, labels, weights (each None or
        one per sample; a time may be NA_I64).  Returns how many were added;
        a refused sample raises pcol.Error naming it (those before it stay)."""
        stacks = list(stacks)
        n = len(stacks)
        v = _np.asarray(values, dtype=_np.int64)
        if v.ndim == 1 and self.nvalues == 1:
            v = v.reshape(-1, 1)
        if v.shape != (n, self.nvalues):
            raise ValueError("values: %s for %d samples of %d value types" % (v.shape, n, self.nvalues))
        off = [0]
        fns, files, lines = [], [], []
        located = False
        for st in stacks:
            if isinstance(st, (str, bytes)):
                raise TypeError("a stack is a sequence of frames, not a string")
            for fr in st:
                if isinstance(fr, tuple):
                    fn, fi, li = (tuple(fr) + (None, None))[:3]
                    located = True
                else:
                    fn, fi, li = fr, None, None
                fns.append(fn)
                files.append(fi)
                lines.append(NA_I64 if li is None else int(li))
            off.append(len(fns))
        loff = lk = ls = ln = None
        if labels is not None:
            labels = list(labels)
            if len(labels) != n:
                raise ValueError("labels: %d for %d samples" % (len(labels), n))
            loff, lk, ls, ln = [0], [], [], []
            for lab in labels:
                for key, x in (lab or {}).items():
                    isnum = isinstance(x, (int, _np.integer)) and not isinstance(x, bool)
                    if not isnum and not isinstance(x, (str, bytes)):
                        raise TypeError("label %r: a str or an int, not %r" % (key, x))
                    lk.append(key)
                    ls.append(None if isnum else x)
                    ln.append(int(x) if isnum else 0)
                loff.append(len(lk))
        return self._w.add(off, fns, files if located else None, lines if located else None, v.reshape(-1),
                           self.nvalues, time_ns, weights, loff, lk, ls, ln)

    def flush(self):
        """Write the current file now (a rolled file: its samples so far)."""
        self._w.flush()

    def poll(self):
        """Roll if roll_seconds have passed (call it while no sample comes)."""
        self._w.poll()

    def close(self):
        """Write the current file and close; returns the files written."""
        self._w.close()
        return self.files

    @property
    def files(self):
        """The files written so far (their final names)."""
        return self._w.files()

    @property
    def pending(self):
        """Samples added to the current file, not yet written."""
        return self._w.state()[1]

    @property
    def closed(self):
        return not self._w.state()[0]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return "<pcol.Writer %r, %d files written, %d samples pending%s>" % (
            self.path, len(self.files), self.pending, ", closed" if self.closed else "")


def _keys(v, what):
    """tagroot/tagleaf: None, or the label keys as the string "k1,k2"."""
    if v is None:
        return None
    if isinstance(v, str):
        return v
    if not isinstance(v, (list, tuple)) or not all(isinstance(k, str) for k in v):
        raise TypeError("%s must be a str or a sequence of str (label keys)" % what)
    if not v or any(not k or "," in k for k in v):
        raise ValueError("%s: each label key a non-empty str without ',' (got %r)" % (what, v))
    return ",".join(v)


def _frames(tagroot, tagleaf, tagunit):
    """(root keys, leaf keys, unit) for the extension, checked; None for no frames"""
    if tagunit is not None and not isinstance(tagunit, str):
        raise TypeError("tagunit must be a str (a unit, e.g. \"kB\" or \"ms\")")
    fr = (_keys(tagroot, "tagroot"), _keys(tagleaf, "tagleaf"), None if tagunit in (None, "auto") else tagunit)
    return None if fr[0] is None and fr[1] is None else fr


class File:
    """An open pcol file.  Use as a context manager, or call close()."""

    def __init__(self, path, *, mmap=True, tagroot=None, tagleaf=None, tagunit=None, base=None,
                 diff_base=None, normalize=False, _stacklevel=2):
        self.path = _os.fsdecode(_os.fspath(path))
        if base is not None and diff_base is not None:
            raise ValueError("give base or diff_base, not both")
        if normalize and base is None and diff_base is None:
            raise ValueError("normalize needs a base (base or diff_base), as pprof's -normalize")
        b = diff_base if diff_base is not None else base
        # how it was opened: a diff against a path opens this side again,
        # the frames added to both sides at once (_pcol.open_pair)
        self._mmap = bool(mmap)
        self._frames = _frames(tagroot, tagleaf, tagunit)
        self._base = (None if b is None else _os.fsdecode(_os.fspath(b)),
                      (1 if diff_base is not None else 0) | (2 if normalize else 0))
        fr = self._frames or (None, None, None)
        # the frames' warning (a key no sample has) as from the caller's line
        self._h = _pcol.open(self.path, bool(mmap), fr[0], fr[1], self._base[0], self._base[1], fr[2],
                             _stacklevel)
        # with a base, table()'s copies of each side's source and range
        # taken first, by (source, from_, to)
        self._selected = {}

    # -- lifetime
    def close(self):
        """Close the file.  Arrays and Tables obtained before keep their
        memory (and the mapping) alive until they are freed, and a Table's
        columns can still be indexed; new reads of the File raise
        ValueError."""
        self._h = None
        self._selected = {}

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
        """The view `name` as a read-only mapping of column name -> numpy array
        (a Table; it holds the open file, so it reads after close() too).

        source, from_, to (seconds since the source's start, or a wall-clock
        time: text "2026-11-29T01:29:10Z", "@EPOCH", an aware datetime or
        pandas Timestamp, a numpy datetime64 as UTC; a naive datetime is
        refused, see _selection) select samples
        for the sample views, as `pcol cat --source --from --to`.  Stored
        columns are fetched on first access (zero-copy); the views that are
        derived (sample_values, sample_locations, sample_labels, locations,
        location_lines, mappings) are computed at once.

        Opened with base/diff_base, source, from_ and to are each side's,
        taken before the two are compared, as the views (top(source=...))
        and `pcol top --base/--diff-base --source N --from --to` take them:
        source N of the profile and source N of the base, each cut to the
        range (normalize's ratio of the range), the view then of that
        difference (its two sources, in the range).  Its ids are those of
        that difference: give the same source, from_ and to to each view
        read with it (they share one copy, made on the first such call).

        A stored view's id and reference columns are the file's values as
        they are, handed out in O(1) without a pass over them: in a damaged
        file they may refer to rows that do not exist (numpy's indexing
        raises IndexError then; nothing reads out of bounds).  checked=True
        first runs libpcol's check of each column (every id in range, O(n),
        once per open file), raising pcol.Error on a damaged one; derived
        views, selections, top() and validate() always check."""
        sel = (source, _time_end(from_, "from_"), _time_end(to, "to"))
        first, sel = self._base_select(sel)
        h = self._handle()
        if first:  # with a base: each side's source and range first (_base_select)
            h = self._selected.get(first)
            if h is None:
                h = self._selected[first] = self._opened(first, 3)
        return Table(h, name, sel + (max_rows, bool(checked)), masked)

    def tables(self, **kw):
        """Every view, as {name: Table}."""
        return {v: self.table(v, **kw) for v in VIEWS}

    def to_pandas(self, name, **kw):
        """The view as a pandas DataFrame (see Table.to_pandas)."""
        return self.table(name, **kw).to_pandas()

    # -- the CLI's views (pcol top, peek, list, tags, traces, diff, fold)
    def _mean(self, mean):
        return bool(mean)  # with a base too: pprof -mean -base divides the differences

    def _base_select(self, sel):
        # (the source and range this side is opened again with, or (); the
        # selection its views then take): with a base, a source or range
        # is each side's, taken before the two are compared, so the views
        # read the union in the range, of no one source (_view_notes, diff)
        if self._base[0] is not None and any(x is not None for x in sel[:3]):
            return tuple(sel[:3]), (None,) + tuple(sel[1:])
        return (), sel

    def _opened(self, first, level):
        # this File's handle, or with `first` (_base_select's) this
        # profile minus its base opened again, each side's source and
        # range taken first (its warnings as from stacklevel `level` of the
        # open call here); a closed File refuses, as _handle()
        h = self._handle()
        if not first:
            return h
        fr = self._frames or (None, None, None)
        return _pcol.open(self.path, self._mmap, fr[0], fr[1], self._base[0], self._base[1], fr[2], level,
                          *first)

    def _view_notes(self, value, sel, by=None):
        # the data warnings `pcol VIEW` prints (the library's rule and
        # words, pcol_view_notes: a label key in several units; a filter
        # that matched no sample; the sources measure different values, so
        # the default is samples; a source without the value counts 0; a
        # relative range took a window of each recording; a range selects
        # no sample), a UserWarning each, as from the caller of the view;
        # by: the view's (by "label:KEY", its filters see KEY's frames);
        # returns the handle, value and selection for the view: with a
        # base, a source or range is each side's, taken before the two
        # are compared (`pcol top --base B --source N --from --to`: source
        # N of each side, --normalize's ratio of the range), so that the
        # handle is this profile minus its base opened again with them,
        # and the view reads its union in the range, of no one source
        first, sel = self._base_select(sel)
        h = self._opened(first, 4)
        for note in h.view_notes(value, sel, by):
            _warnings.warn(note, UserWarning, stacklevel=3)
        return h, value, sel

    def top(self, by="function", value=None, *, sort="flat", node_fraction=0.0, limit=None,
            mean=False, drop_negative=False, **select):
        """Flat and cumulative value per function: the rows of `pcol top
        --format json` (a Top; see `pcol top --help`).

        by: "function", "line", "file", "address", "filefunction" or "label:KEY"; value:
        None (the file's default), "weight" (a type named weight a selected
        source stores, as Perfetto's UI and pprof -sample_index=weight name
        it, else the weight column), "pcol.weight" (the weight column always;
        the type "pcol.weight" where a stored weight type exists), "samples",
        "TYPE", "TYPE/UNIT", "rprof.alloc"; sort: "flat", "cum" or "name"; node_fraction: drop
        the rows whose |cum| is below this fraction of the total (pprof
        -nodefraction; the CLI's text view uses 0.005, its other formats 0);
        limit: the first N rows.  select: source, from_, to and the filters
        focus, ignore, hide, show, tag, tag_ignore, show_from, no_inlines,
        relative_percentages (see Selection).  mean=True (pprof -mean, `top
        --mean`): each row divided by its count, the first value type (or
        the samples of sources without one); the type is "mean_TYPE".
        drop_negative=True (pprof -drop_negative): rows below 0 left out."""
        by, sort = _text(by, "by"), _text(sort, "sort")
        h, value, sel = self._view_notes(_value(value), _selection(select), by)
        rows, total, meta, dropped = h.top(
            by, value, sort, float(node_fraction), _limit(limit), sel,
            self._mean(mean), bool(drop_negative))
        names, flat, cum, inl = rows
        return Top(names, flat, cum, inl, total, meta, dropped=dropped)

    def peek(self, regex, by="function", value=None, *, sort="flat", mean=False, drop_negative=False,
             **select):
        """The callers and callees of the rows whose name matches `regex`
        (Go's regexp syntax, as pprof): the rows of `pcol peek --format json`, one per matched
        node (relation "node": flat, cum) and one per caller/callee (value,
        pct of the node's cum, inline).  No match: no rows.  mean=True (pprof
        -mean): the nodes' flat and cum divided by their counts, the calls
        still sums (as pprof prints them).  drop_negative=True (pprof
        -drop_negative): nodes whose flat is below 0 (or 0 with cum below 0)
        not listed; the calls into and out of them still are."""
        regex, by, sort = _text(regex, "regex"), _text(by, "by"), _text(sort, "sort")
        h, value, sel = self._view_notes(_value(value), _selection(select))
        cols, total, meta = h.peek(regex, by, value, sort, sel, self._mean(mean),
                                                bool(drop_negative))
        node, rel, name, flat, cum, val, pct, inl = cols
        return Peek({"node": _strs(node), "relation": _strs(rel), "name": _strs(name),
                     "flat": _ints(flat), "cum": _ints(cum), "value": _ints(val),
                     "pct": _floats(pct), "inline": _np.array(inl, dtype=object)}, total, meta)

    def tree(self, by="function", value=None, *, sort="flat", node_fraction=0.005, edge_fraction=0.001,
             node_count=80, mean=False, drop_negative=False, **select):
        """pprof -tree: every node of the graph pprof keeps for a text report
        (nodes below node_fraction of the total dropped, the first
        node_count by flat, or by cum with sort="cum", calls below
        edge_fraction dropped), with its callers and callees: the rows of
        `pcol tree --format json`, as peek's; mean and drop_negative as
        peek's (the negative nodes leave the graph before its cuts)."""
        if node_count is None or int(node_count) < 0:
            raise ValueError("node_count must be 0 (all) or more")
        by, sort = _text(by, "by"), _text(sort, "sort")
        h, value, sel = self._view_notes(_value(value), _selection(select))
        cols, total, meta = h.tree(by, value, sort,
                                                float(node_fraction), float(edge_fraction),
                                                int(node_count), sel, self._mean(mean),
                                                bool(drop_negative))
        node, rel, name, flat, cum, val, pct, inl = cols
        return Tree({"node": _strs(node), "relation": _strs(rel), "name": _strs(name),
                     "flat": _ints(flat), "cum": _ints(cum), "value": _ints(val),
                     "pct": _floats(pct), "inline": _np.array(inl, dtype=object)}, total, meta)

    def list(self, regex, by="function", value=None, *, source_path=None, allow_any_source=False,
             mean=False, drop_negative=False, **select):
        """Source lines annotated with flat and cum: the rows of `pcol list
        --format json` (pprof -list).  by "function": a block per function
        matching `regex`; "file": a block per source file matching it.  The
        source text is read from source_path (':'-separated directories,
        default: the current directory) under pcol's rules (doc/safety.md);
        `errors` of the result says why a block has no text.  mean=True
        (pprof -mean -list): the lines stay sums, the total is the mean's.
        drop_negative=True (pprof -drop_negative -list): lines below 0 left
        out, of the lines and of their block's sums."""
        regex, by = _text(regex, "regex"), _text(by, "by")
        h, value, sel = self._view_notes(_value(value), _selection(select))
        cols, total, meta, errors = h.list(
            regex, by, value,
            None if source_path is None else _os.fsdecode(source_path), bool(allow_any_source),
            sel, self._mean(mean), bool(drop_negative))
        fn, fl, line, flat, cum, text = cols
        r = ListView({"function": _strs(fn), "file": _strs(fl), "line": _ints(line), "flat": _ints(flat),
                      "cum": _ints(cum), "text": _strs(text)}, total, meta)
        r.errors = errors
        return r

    def tags(self, value=None, **select):
        """Label keys, their values and the value of the samples carrying
        each: the rows of `pcol tags --format json` (pprof -tags); pct is
        the share of the key's total, key_total that total (the CLI's
        "KEY: Total X"); .total is a dict of the keys' totals.  tagshow,
        taghide (pprof's -tagshow/-taghide): only the keys matching tagshow,
        none matching taghide."""
        h, value, sel = self._view_notes(_value(value), _selection(select))
        cols, meta = h.tags(value, sel)
        key, val, amount, pct, key_total = cols
        keys, totals = _strs(key), _ints(key_total)
        return Tags({"key": keys, "value": _strs(val), "amount": _ints(amount),
                     "pct": _floats(pct), "key_total": totals},
                    dict(zip(keys.tolist(), totals.tolist())), meta)

    def traces(self, value=None, *, by="function", limit=None, mean=False, **select):
        """Every trace (samples with the same stack and labels merged, as
        pprof reads a profile): the rows of `pcol traces --format json`,
        with `frames` (a tuple, root first, names exact) beside `stack`
        (names joined by ';', a ';' inside a name made '_', as fold makes
        it, so the string splits back into the frames).  by: how each
        frame is named, "function", "line", "file", "address" or
        "filefunction" (`pcol traces --by`, pprof -traces -lines, -files,
        -addresses, -filefunctions).  tagshow, taghide: only the labels
        whose key matches tagshow, none whose key matches taghide (the
        traces stay as they are).  mean=True (pprof -mean): each trace's
        value divided by its count."""
        by, limit = _text(by, "by"), _limit(limit)
        h, value, sel = self._view_notes(_value(value), _selection(select))
        cols, meta = h.traces(value, by, limit, sel, self._mean(mean))
        val, labels, stack, frames = cols
        fr = _np.empty(len(frames), dtype=object)
        fr[:] = frames
        return Traces({"value": _ints(val), "labels": _strs(labels), "stack": _strs(stack),
                       "frames": fr}, None, meta)

    def diff(self, new, by="function", value=None, *, absolute=False, sort="flat", limit=None,
             tagroot=None, tagleaf=None, tagunit=None, **select):
        """This profile as the base, `new` (a File or a path) as the new one:
        the rows of `pcol diff BASE NEW --format json`.  Shares of each
        profile's total in percent and changes in points (float64), or with
        absolute=True the raw sums and new - base (int64, in the value's
        stored unit: see `decimals`).  select: the filters (both sides);
        source, from_, to: of each side, and with base/diff_base this side's
        taken of the profile and of its base before they are compared, as
        top(source=...) takes them; the other side: the source and range of
        `new`, and of a `new` File opened with base/diff_base its profile
        and its base taken first (each side as its own top(source=...)
        reads it, and as R's pcol_diff with diff_base reads both).
        Without value, each side's default; when they differ, the one `new`
        names (pprof's default_sample_type), else the one this profile names,
        where the other side has it, as `pcol diff` and go's -diff_base.
        The inline column: the "(inline)" marks of the rows returned, as
        `pcol diff -n LIMIT --node-fraction 0` prints them, of the graph of
        both sides merged, the base negated (go's -diff_base); where go
        refuses to merge the two (other period or value types), each
        side's marks joined.

        Label frames (pprof's -tagroot/-tagleaf, as `pcol diff BASE NEW
        --tagroot K`): a path is read with this File's frames, or with those
        of tagroot/tagleaf/tagunit given here to a File opened without any,
        added to both sides at once, so a key need be on one side only (the
        other's frames are "<unknown>", as pprof's, which merges the two
        first); a key on neither side names every frame "<unknown>" with
        pprof's warning (a UserWarning, as open's).  This side is this File
        as it was opened (with base/diff_base: minus its base, then the
        frames); the path is read as it is, without base.  A File as `new`
        is taken as it was opened (then give no frames here)."""
        own = not isinstance(new, File)
        frames = _frames(tagroot, tagleaf, tagunit)
        if frames and self._frames:
            raise ValueError("this File has label frames (tagroot/tagleaf at open): give them there or here, not both")
        if frames and not own:
            raise ValueError("tagroot/tagleaf here read a path as `new`; a File is as it was opened")
        frames = frames or self._frames
        args = (_text(by, "by"), _value(value), bool(absolute), _text(sort, "sort"), _limit(limit),
                _selection(select))
        # with a base, this side's source and range are taken first, as
        # the other views take them (_base_select): `new` alone gets them then
        first, bsel = self._base_select(args[5])
        self._handle()
        if own and frames:
            # `pcol diff BASE NEW --tagroot K`: both sides with the frames,
            # a key on one side enough (pprof -diff_base merges them first)
            hb, hn = _pcol.open_pair(self.path, _os.fsdecode(_os.fspath(new)), self._mmap, *frames,
                                     *self._base, 2, *first)
            self._diff_notes(hb, hn, args, bsel)
            cols, base_total, new_total, meta = hb.diff(hn, *args, bsel)
        else:
            nf = File(new, _stacklevel=3) if own else new
            try:
                hb = self._opened(first, 3)
                # `new` a File opened with base/diff_base: its source and
                # range taken first of its profile and of its base too, as
                # its own top(source=...) takes them (a path: as it is)
                nfirst, nsel = nf._base_select(args[5])
                hn = nf._opened(nfirst, 3)
                nargs = args[:5] + (nsel,)
                self._diff_notes(hb, hn, nargs, bsel)
                cols, base_total, new_total, meta = hb.diff(hn, *nargs, bsel)
            finally:
                if own:
                    nf.close()
        name = cols[0]
        conv = _ints if absolute else _floats
        d = {"base_flat": conv(cols[1]), "new_flat": conv(cols[2]), "d_flat": conv(cols[3]),
             "base_cum": conv(cols[4]), "new_cum": conv(cols[5]), "d_cum": conv(cols[6]),
             "name": _strs(name), "inline": _np.array(cols[7], dtype=object)}
        r = Diff(d, new_total, meta)
        r.base_total, r.new_total, r.absolute = base_total, new_total, bool(absolute)
        return r

    @staticmethod
    def _diff_notes(hb, hn, args, bsel):
        # the two sides' data warnings, as `pcol diff` prints them: each
        # side's, and a filter's once, of both (pcol_view_notes of the pair:
        # a filter that matches no sample of either side, as pprof's of a
        # profile and its base merged); bsel: the base side's selection
        for note in hb.view_notes(args[1], args[5], args[0], hn, bsel):
            _warnings.warn(note, UserWarning, stacklevel=3)

    def fold(self, value=None, *, max_output=0, **select):
        """Collapsed stacks, as `pcol fold` writes them: a Fold with the
        columns stack ("root;...;leaf") and value (int64; float64 for a
        value in a decimal unit); .data, the bytes `pcol fold` writes (for
        flamegraph.pl: names that are not UTF-8 as their own bytes), and
        .text, those bytes decoded by the rule of `pcol cat --format json`
        (a byte that is not UTF-8 as U+0080..U+00FF: the same text only
        when every name is UTF-8)."""
        max_output = int(max_output)
        h, value, sel = self._view_notes(_value(value), _selection(select))
        raw, meta = h.fold(value, max_output, sel)
        return Fold.from_text(raw, meta)

    def sources(self):
        """What `pcol info` says of each source, as {column: list}, a row
        per source: source_id, source_type, source_uri, samples (rows),
        count (raw samples: pprof's samples/count, else the weight),
        first_ns, end_ns (the latest time + duration), duration_ns, period,
        period_type, period_unit (None where pcol writes NA).  O(sources)
        in a file of format 1.3, which stores a summary of each source
        (spec.md §6.10); a pass over the samples in older files."""
        names = ("source_id", "source_type", "source_uri", "samples", "count", "first_ns", "end_ns",
                 "duration_ns", "period", "period_type", "period_unit")
        return dict(zip(names, self._handle().sources()))

    def validate(self):
        """Full validation (every checksum, offset and id); raises pcol.Error."""
        self._handle().validate()


class Table(_Mapping):
    """One logical view: a read-only mapping of column name -> numpy array
    (all of the same length, `nrows`).  dict(table) gives a plain dict.
    A stored column is fetched when first indexed, from the open file the
    Table holds: the file stays open (mapped) while the Table lives, even
    after File.close(), as it does for an array."""

    def __init__(self, h, name, sel, masked=False):
        if name not in _VIEWS:
            raise ValueError("no view named %r (views: %s)" % (name, ", ".join(VIEWS)))
        cols, sample_view, derived = _VIEWS[name]
        self.name = name
        self.columns = tuple(c for c, _ in cols)
        self.kinds = dict(cols)
        self._h = h  # the open file itself (File.table's handle): File.close() leaves it to us
        self._sel = sel
        self._masked = masked
        self._cols = {}
        selected = sample_view and any(x is not None for x in sel[:3])
        if derived or selected:
            self.nrows, cols_ = self._h.table(name, None, *sel)
            self._cols.update(cols_)
        else:
            self.nrows, _ = self._h.table(name, (), *sel)

    def __getitem__(self, key):
        a = self._cols.get(key)
        if a is None:
            if key not in self.kinds:
                raise KeyError(key)
            _, d = self._h.table(self.name, (key,), *self._sel)
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


# ------------------------------------------------------------- views

_SELECT = ("source", "from_", "to", "focus", "ignore", "hide", "show", "tag", "tag_ignore",
           "show_from", "tagshow", "taghide", "no_inlines", "relative_percentages")


def _selection(kw):
    """The CLI's selection and filters (cli_select) as the tuple the
    extension takes: source, from_, to (seconds, or a wall-clock time as
    the CLI's --from/--to text: "2026-11-29T01:29:10Z", "@EPOCH"; or as a
    timezone-aware datetime.datetime / pandas.Timestamp, exact to its
    microsecond / nanosecond, or a numpy.datetime64, taken as UTC as numpy
    and DuckDB take a time without zone; a naive datetime or Timestamp is
    refused (TypeError): Python reads one as local time, pandas as UTC, and
    a guess would select another hour without a word), focus, ignore, hide, show,
    tag, tag_ignore, show_from (Go's regexp syntax, pprof's -focus ... -tagignore,
    -show_from), tagshow, taghide (pprof's: the label keys tags and traces
    show), no_inlines and relative_percentages (pprof's: shares of the
    total the filters keep)."""
    if "divide_by" in kw:  # one rule with the CLI's machine formats (tools/cli_view.c)
        raise ValueError("divide_by: a view's numbers are raw, as those of `pcol VIEW --format "
                         "json`, which refuses --divide-by (pprof's -divide_by is for the text, "
                         "pcol unpack --to pprof and flame); divide the columns instead")
    bad = [k for k in kw if k not in _SELECT]
    if bad:
        raise TypeError("unexpected keyword argument%s %s (the selection takes %s)" % (
            "s" if len(bad) > 1 else "", ", ".join(map(repr, bad)), ", ".join(_SELECT)))
    kw = dict(kw)
    for k in ("from_", "to"):
        if k in kw:
            kw[k] = _time_end(kw[k], k)
    # an empty expression is none, as pprof (and the CLI) read it
    return tuple(kw.get(k, False) if k in ("no_inlines", "relative_percentages") else
                 (kw.get(k) if kw.get(k) != "" or k in ("source", "from_", "to") else None) for k in _SELECT)


_EPOCH = _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)


def _time_end(x, what):
    """from_/to as the extension takes it: None, seconds since the start (a
    number) or the CLI's text; a point in time as the exact "@SECONDS.NNNNNNNNN"
    of the CLI's --from/--to (review 19b F1: they were refused):
    an aware datetime.datetime or pandas.Timestamp (its zone applied, to the
    microsecond / nanosecond), a numpy.datetime64 as UTC (numpy's datetime64
    has no zone; DuckDB reads a TIMESTAMP so too).  A naive datetime or
    Timestamp is refused: Python's own datetime.timestamp() reads it as
    local time, pandas' as UTC, so neither reading is safe to guess."""
    if isinstance(x, _np.datetime64):
        if _np.isnat(x):
            raise ValueError("%s is NaT (not a time)" % what)
        return _epoch_text(int(x.astype("datetime64[ns]").astype(_np.int64)))
    if isinstance(x, _dt.datetime):
        if x != x:  # pandas.NaT (a datetime subclass)
            raise ValueError("%s is NaT (not a time)" % what)
        if x.tzinfo is None or x.utcoffset() is None:
            raise TypeError("%s is a naive %s (no time zone): give it one, e.g. "
                            "datetime.timezone.utc or Timestamp.tz_localize('UTC')"
                            % (what, type(x).__name__))
        if hasattr(x, "nanosecond") and isinstance(getattr(x, "value", None), int):
            return _epoch_text(x.value)  # pandas.Timestamp: ns since the epoch, UTC
        d = x - _EPOCH
        return _epoch_text((d.days * 86400 + d.seconds) * 10**9 + d.microseconds * 1000)
    return x


def _epoch_text(ns):
    return "@%s%d.%09d" % ("-" if ns < 0 else "", abs(ns) // 10**9, abs(ns) % 10**9)


def _text(v, what):
    if not isinstance(v, str):
        raise TypeError("%s must be a str, not %s" % (what, type(v).__name__))
    return v


def _value(v):
    """value=: None (the file's default), a name ("cpu", "TYPE/UNIT",
    "samples", ...), or an int N: the N-th value type, pprof's
    -sample_index=N (the CLI's --value N; the library reads the text "N")."""
    if v is None or isinstance(v, str):
        return v
    if isinstance(v, bool) or not isinstance(v, _numbers.Integral):
        raise TypeError("value must be a str, an int (pprof's -sample_index) or None, not %s"
                        % type(v).__name__)
    if v < 0:
        raise ValueError("value must be 0 or more (the index of a value type), not %d" % v)
    return str(int(v))


def _limit(n):
    if n is None:
        return -1
    n = int(n)
    if n < 0:
        raise ValueError("limit must be 0 or more")
    return n


def _strs(x):
    a = _np.empty(len(x), dtype=object)
    a[:] = x
    return a


def _ints(x):
    """int64 with NA_I64 for None; object (Python ints) when one does not fit"""
    if isinstance(x, _np.ndarray):
        return x
    y = [NA_I64 if v is None else v for v in x]
    try:
        return _np.array(y, dtype=_np.int64)
    except OverflowError:
        return _strs(y)


def _wide_warning(title, cols):
    """Sums are libpcol's 128-bit pcol_sum: a view's flat, cum, value, ...
    is numpy.int64, or, when one of its numbers passes int64 (a sum over
    2**63 - 1: only of values near the limit), an object array of the
    exact Python ints the CLI prints (DuckDB: HUGEINT).  Saturating would be
    a wrong number, float64 or uint64 would lose bits or the sign, and
    refusing would withhold the CLI's answer; so the column keeps the exact
    values, and its change of dtype is said (review 19b F2: it was silent,
    and code written for int64, .astype or Arrow, broke only on the rare
    huge file)."""
    for k, c in cols.items():
        if isinstance(c, _np.ndarray) and c.dtype == object and len(c) and type(c[0]) is int:
            big = max((v for v in c if type(v) is int and v != NA_I64), key=abs, default=NA_I64)
            _warnings.warn("%s: column %s holds a number past int64 (%d): it is an object array "
                           "of exact Python ints, not numpy.int64" % (title, k, big),
                           stacklevel=_caller_level())


def _caller_level():
    """warnings.warn's stacklevel of the first frame outside this module
    (the user's call), from _wide_warning's caller"""
    import sys
    f, n = sys._getframe(2), 2
    while f is not None and f.f_code.co_filename == __file__:
        f, n = f.f_back, n + 1
    return n


def _floats(x):
    return _np.array([_np.nan if v is None else v for v in x], dtype=_np.float64)


def _decode(raw):
    """bytes -> str by the rule of `pcol cat --format json`: valid UTF-8 as
    it is, every other byte as U+0080..U+00FF."""
    return "".join(chr(ord(c) - 0xDC00) if "\udc80" <= c <= "\udcff" else c
                   for c in raw.decode("utf-8", "surrogateescape")) if _has_bad(raw) else raw.decode("utf-8")


def _has_bad(raw):
    try:
        raw.decode("utf-8")
        return False
    except UnicodeDecodeError:
        return True


def _cell(v):
    """A numpy cell as a plain Python scalar (None for NA)."""
    if isinstance(v, _np.generic):
        v = v.item()
    if isinstance(v, float) and v != v:
        return None
    if isinstance(v, int) and v == NA_I64:
        return None
    return v


class View:
    """A view's rows, as `pcol VIEW --format json` gives them: numpy
    columns (`cols`, also as attributes and `view["name"]`), `total`,
    `type`, `unit` and `decimals` of the value added up.

    len(view) rows; view[i] is row i with plain Python scalars (a named
    tuple; NA is None); view[i:j], a boolean mask or an index array gives
    a View of those rows; iteration gives rows.  to_pandas() gives a
    DataFrame (int64 NA as pandas' nullable Int64), to_dict() the columns.
    Columns stated in `_int_na` hold NA_I64 where the CLI writes null."""

    _row_fields = None  # the fields of a row (default: every column)
    _title = "view"

    def __init__(self, cols, total, meta, **extra):
        self.cols = dict(cols)
        self.total = total
        self.type = meta.get("type")
        self.unit = meta.get("unit")
        self.decimals = meta.get("decimals", 0)
        self._meta = meta
        self.__dict__.update(extra)
        fields = self._row_fields or tuple(self.cols)
        self._Row = _namedtuple(type(self).__name__ + "Row", fields)
        _wide_warning(self._title, self.cols)

    @property
    def columns(self):
        return tuple(self.cols)

    def __getattr__(self, name):
        cols = self.__dict__.get("cols")
        if cols is not None and name in cols:
            return cols[name]
        raise AttributeError(name)

    def __len__(self):
        return len(next(iter(self.cols.values()))) if self.cols else 0

    def _subset(self, idx):
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.cols = {k: v[idx] for k, v in self.cols.items()}
        return new

    def __getitem__(self, i):
        if isinstance(i, str):
            return self.cols[i]
        if isinstance(i, (slice, _np.ndarray, list)):
            return self._subset(i)
        i = _operator_index(i)
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("row %d of %d" % (i, n))
        return self._Row(*(_cell(self.cols[f][i]) for f in self._Row._fields))

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    def to_dict(self):
        return dict(self.cols)

    def to_pandas(self):
        """A DataFrame of the columns: int64 columns with NA as nullable
        Int64, strings as object (None for NA)."""
        import pandas as pd

        data = {}
        for c, a in self.cols.items():
            if a.dtype == _np.int64 and (a == NA_I64).any():
                data[c] = pd.arrays.IntegerArray(a.copy(), a == NA_I64)
            else:
                data[c] = a
        return pd.DataFrame(data, columns=list(self.cols))

    def _total_text(self):
        return ", total %s" % self.total if self.total is not None else ""

    def _head(self):
        return "%s: %d rows%s%s" % (
            self._title, len(self),
            ", %s (%s)" % (self.type, self.unit) if self.type is not None else "",
            self._total_text())

    def _table(self, n):
        cols = list(self.cols)
        rows = [[_fmt(_cell(self.cols[c][i])) for c in cols] for i in range(min(n, len(self)))]
        return cols, rows

    def __repr__(self, n=20):
        cols, rows = self._table(n)
        w = [max([len(c)] + [len(r[k]) for r in rows]) for k, c in enumerate(cols)]
        out = ["<pcol.%s %s>" % (type(self).__name__, self._head())]
        out.append("  ".join(c.rjust(w[k]) for k, c in enumerate(cols)))
        out += ["  ".join(x.rjust(w[k]) for k, x in enumerate(r)) for r in rows]
        if len(self) > n:
            out.append("... %d more rows" % (len(self) - n))
        return "\n".join(out)

    def _repr_html_(self, n=50):
        import html

        cols, rows = self._table(n)
        h = ["<div><p><b>pcol.%s</b> %s</p><table><thead><tr>" % (
            type(self).__name__, html.escape(self._head()))]
        h += ["<th>%s</th>" % html.escape(c) for c in cols]
        h.append("</tr></thead><tbody>")
        for r in rows:
            h.append("<tr>" + "".join("<td>%s</td>" % html.escape(x) for x in r) + "</tr>")
        h.append("</tbody></table>")
        if len(self) > n:
            h.append("<p>... %d more rows</p>" % (len(self) - n))
        return "".join(h) + "</div>"


_CONTROL = _re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f]")


def _fmt(v):
    """A cell for repr(): control characters as \\xNN (the CLI's text
    rule: a name cannot move the cursor or forge a line), cut at 60."""
    if v is None:
        return "NA"
    if isinstance(v, float):
        return "%.2f" % v
    s = _CONTROL.sub(lambda m: "\\x%02x" % ord(m.group()), str(v))
    return s if len(s) <= 60 else s[:57] + "..."


class Top(View):
    """The rows of `pcol top --format json`: name, flat, cum, flat_pct,
    sum_pct, cum_pct (not rounded: the CLI prints them with 2 decimals),
    inline ("inline", "partial-inline" or None).  A row (t[i], iteration)
    is (name, flat, cum).  dropped: the rows node_fraction dropped.
    flat and cum are numpy.int64, or object arrays of exact Python ints
    when a sum passes int64 (as the CLI prints it), with a UserWarning
    naming the column (_wide_warning)."""

    _row_fields = ("name", "flat", "cum")
    _title = "top"

    def __init__(self, name, flat, cum, inline, total, meta, dropped=0):
        fp = _share(flat, total)
        super().__init__({"name": _strs(name), "flat": flat, "flat_pct": fp, "sum_pct": _np.cumsum(fp),
                          "cum": cum, "cum_pct": _share(cum, total), "inline": _strs(inline)},
                         total, meta, dropped=dropped)

    def percent(self, v):
        """100 * v / total (0 when total is 0), as `pcol top` computes shares."""
        return _share(v, self.total)

    def to_pandas(self):
        """name, flat, flat_pct, sum_pct, cum, cum_pct, inline: the columns
        of `pcol top --format tsv` (percentages not rounded)."""
        import pandas as pd

        return pd.DataFrame({k: self.cols[k] for k in ("name", "flat", "flat_pct", "sum_pct", "cum",
                                                       "cum_pct", "inline")})


def _share(v, total):
    """100 * v / total as the CLI computes it (0 when total is 0)."""
    v = _np.asarray(v, dtype=_np.float64)
    return 100.0 * v / float(total) if total else _np.zeros_like(v)


class Peek(View):
    """The rows of `pcol peek --format json`: node, relation ("caller",
    "node", "callee"), name, flat and cum (node rows; NA_I64 elsewhere),
    value and pct (caller/callee rows; NA_I64, NaN elsewhere), inline."""
    _title = "peek"


class Tree(Peek):
    """The rows of `pcol tree --format json` (pprof -tree), as Peek's."""
    _title = "tree"


class ListView(View):
    """The rows of `pcol list --format json`: function, file, line, flat,
    cum, text (None when the source was not read; see .errors)."""
    _title = "list"


class Tags(View):
    """The rows of `pcol tags --format json`: key, value, amount, pct,
    key_total.  total: {key: its total}, one per key as the CLI prints
    them (a sum over keys would count a sample once per key)."""
    _title = "tags"

    def _total_text(self):
        t = ", ".join("%s %s" % (k, v) for k, v in self.total.items())
        return ", total per key: " + t if t else ""


class Traces(View):
    """The rows of `pcol traces --format json`: value, labels
    ("key=value,..."), stack ("root;...;leaf"), frames (a tuple)."""
    _title = "traces"


class Diff(View):
    """The rows of `pcol diff --format json`: base_flat, new_flat,
    d_flat, base_cum, new_cum, d_cum, name, inline; base_total,
    new_total, absolute."""
    _title = "diff"


class Fold(View):
    """`pcol fold`: a row per distinct stack (stack, value); .data is the
    collapsed text exactly, as bytes (`pcol fold`'s output, for
    flamegraph.pl), .text those bytes decoded by the rule of pcol cat
    --format json (a byte that is not UTF-8 as U+0080..U+00FF, so written
    out as UTF-8 it differs from .data where a name is not UTF-8)."""
    _title = "fold"

    @classmethod
    def from_text(cls, raw, meta):
        text = _decode(raw)
        stacks, values = [], []
        for line in text.split("\n")[:-1]:  # names may hold other line breaks (\x0b ...)
            st, _, v = line.rpartition(" ")
            stacks.append(st)
            values.append(v)
        dec = meta.get("decimals", 0)
        vals = _np.array([float(v) for v in values], dtype=_np.float64) if dec else \
            _np.array([int(v) for v in values], dtype=_np.int64)
        r = cls({"stack": _strs(stacks), "value": vals}, None, meta)
        r.text, r.data = text, raw
        return r
