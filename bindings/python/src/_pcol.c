/* _pcol.c — the C extension behind the `pcol` Python package.
 *
 * A Handle owns one open pcol_file.  Columns that the file stores are
 * handed out as read-only numpy arrays over the file's memory (the mapping,
 * or the decoded copy of an LZ4 section) whose base is the Handle, so the
 * file stays open while any of them lives; computed columns are numpy
 * arrays that own their malloc'd buffer.  The views themselves come from
 * bindings/common (pcolb.h), shared with the R package. */
#define PCOL_PY_MAIN /* this file imports numpy's C API (import_array) */
#include "_pcol.h"
#include <stdlib.h>
#include <string.h>

static PyObject *PcolError; /* pcol.Error */


/* Raises pcol.Error with the library's message led by `lead`, or when
 * lead is NULL by the file's name (path: a str, os.fsdecode's, which the
 * error's `path` attribute is), unless it names the file already.  The
 * message is made of bytes, the path's as the file system has them
 * (os.fsencode), and decoded by the rule of every other string
 * (pcol_py_str: a byte that is not UTF-8 as U+0080..U+00FF): a file whose
 * name is not UTF-8 is named as its source_uri reads, not with U+FFFD. */
static PyObject *raise_as(PyObject *path, const char *lead, const pcol_error *err, int rc) {
  const char *m = err->message[0] ? err->message : pcol_strerror(rc);
  PyObject *pb = path ? PyUnicode_EncodeFSDefault(path) : NULL;
  if (!pb) PyErr_Clear();
  const char *p = pb ? PyBytes_AS_STRING(pb) : NULL;
  const char *first = p && strstr(m, p) == NULL ? (lead ? lead : p) : NULL;
  size_t fn = first ? strlen(first) : 0, mn = strlen(m);
  char *buf = malloc(fn + 2 + mn + 1);
  if (!buf) {
    Py_XDECREF(pb);
    return PyErr_NoMemory();
  }
  if (first) {
    memcpy(buf, first, fn);
    memcpy(buf + fn, ": ", 2);
    fn += 2;
  }
  memcpy(buf + fn, m, mn);
  PyObject *msg = pcol_py_str(buf, fn + mn);
  free(buf);
  Py_XDECREF(pb);
  if (!msg) return NULL;
  PyObject *e = PyObject_CallOneArg(PcolError, msg);
  Py_DECREF(msg);
  if (!e) return NULL;
  PyObject *code = PyLong_FromLong(rc), *name = PyUnicode_FromString(pcol_strerror(rc));
  if (code) PyObject_SetAttrString(e, "code", code);
  if (name) PyObject_SetAttrString(e, "reason", name);
  if (path) PyObject_SetAttrString(e, "path", path);
  Py_XDECREF(code);
  Py_XDECREF(name);
  PyErr_Clear();
  PyErr_SetObject(PcolError, e);
  Py_DECREF(e);
  return NULL;
}

/* Raises pcol.Error with the library's message, naming the file (raise_as). */
PyObject *pcol_py_raise(PyObject *path, const pcol_error *err, int rc) { return raise_as(path, NULL, err, rc); }

/* ----------------------------------------------------------- strings */

/* A str from stored bytes: valid UTF-8 as is, other bytes as U+0080..U+00FF
 * (pcb_utf8_clean, the rule of `pcol cat --format json`). */
PyObject *pcol_py_str(const char *p, size_t n) {
  if (pcb_utf8_clean_already(p, n)) return PyUnicode_DecodeUTF8(p, (Py_ssize_t)n, "strict");
  if (n > (SIZE_MAX - 1) / 3) return PyErr_NoMemory();
  char *buf = malloc(3 * n + 1);
  if (!buf) return PyErr_NoMemory();
  size_t m = pcb_utf8_clean(p, n, buf, NULL);
  PyObject *s = PyUnicode_DecodeUTF8(buf, (Py_ssize_t)m, "strict");
  free(buf);
  return s;
}

/* New reference to string id `id` (None for 0). */
static PyObject *handle_str(Handle *h, uint32_t id) {
  if (id == 0) Py_RETURN_NONE;
  if (!h->strcache) {
    h->nstrings = pcol_string_count(h->f);
    if (h->nstrings > SIZE_MAX / sizeof(PyObject *)) return PyErr_NoMemory();
    h->strcache = calloc(h->nstrings ? (size_t)h->nstrings : 1, sizeof(PyObject *));
    if (!h->strcache) return PyErr_NoMemory();
  }
  if (id >= h->nstrings) {
    pcol_error err = {0};
    pcol_error_set(&err, PCOL_ECORRUPT, "string id %u is out of range", id);
    return pcol_py_raise(h->path, &err, PCOL_ECORRUPT);
  }
  PyObject *s = h->strcache[id];
  if (!s) {
    pcol_str ps;
    pcol_error err = {0};
    int rc = pcol_string(h->f, id, &ps, &err);
    if (rc) return pcol_py_raise(h->path, &err, rc);
    s = pcol_py_str(ps.ptr, ps.len);
    if (!s) return NULL;
    h->strcache[id] = s;
  }
  Py_INCREF(s);
  return s;
}

/* ----------------------------------------------------------- columns */

static int npy_type(pcol_type t) {
  switch (t) {
  case PCOL_TYPE_U8: return NPY_BOOL; /* BOOL columns hold 0 or 1 */
  case PCOL_TYPE_U32: return NPY_UINT32;
  case PCOL_TYPE_I64: return NPY_INT64;
  case PCOL_TYPE_U64: return NPY_UINT64;
  case PCOL_TYPE_F64: return NPY_FLOAT64;
  default: return NPY_VOID;
  }
}

static void capsule_free(PyObject *cap) { free(PyCapsule_GetPointer(cap, "pcol.buffer")); }

/* A read-only 1-d array over `data` (n elements) whose base is `base`
 * (a reference is taken).  stride 0 repeats one element. */
static PyObject *array_over(int typenum, npy_intp n, void *data, npy_intp stride, PyObject *base) {
  PyArray_Descr *d = PyArray_DescrFromType(typenum);
  if (!d) return NULL;
  npy_intp strides[1] = {stride};
  PyObject *a = PyArray_NewFromDescr(&PyArray_Type, d, 1, &n, strides, data,
                                     NPY_ARRAY_ALIGNED | (stride ? NPY_ARRAY_C_CONTIGUOUS : 0), NULL);
  if (!a) return NULL;
  Py_INCREF(base);
  if (PyArray_SetBaseObject((PyArrayObject *)a, base) < 0) {
    Py_DECREF(a);
    return NULL;
  }
  return a;
}

/* The numpy array of one column (takes over c->owned). */
static PyObject *column_array(Handle *h, pcb_col *c, uint64_t nrows) {
  npy_intp n = (npy_intp)nrows;
  if (c->kind == PCB_STR) { /* object array of str / None */
    PyObject *a = PyArray_SimpleNew(1, &n, NPY_OBJECT);
    if (!a) return NULL;
    PyObject **o = PyArray_DATA((PyArrayObject *)a);
    memset(o, 0, (size_t)n * sizeof *o); /* not initialised; NULL items are released with XDECREF */
    const uint32_t *ids = c->data;
    for (npy_intp i = 0; i < n; i++) {
      uint32_t id = c->seq ? (uint32_t)(i + 1) : ids ? ids[i] : (uint32_t)c->dflt;
      PyObject *s = handle_str(h, id);
      if (!s) {
        Py_DECREF(a);
        return NULL;
      }
      o[i] = s;
    }
    PyArray_CLEARFLAGS((PyArrayObject *)a, NPY_ARRAY_WRITEABLE);
    return a;
  }
  int t = npy_type(c->type);
  if (c->seq) { /* row ids 1..n, computed */
    PyObject *a = PyArray_SimpleNew(1, &n, NPY_UINT32);
    if (!a) return NULL;
    uint32_t *o = PyArray_DATA((PyArrayObject *)a);
    for (npy_intp i = 0; i < n; i++) o[i] = (uint32_t)(i + 1);
    PyArray_CLEARFLAGS((PyArrayObject *)a, NPY_ARRAY_WRITEABLE);
    return a;
  }
  if (!c->data) { /* an absent column: its default, repeated (stride 0) */
    npy_intp one = 1;
    PyObject *v = PyArray_SimpleNew(1, &one, t);
    if (!v) return NULL;
    void *p = PyArray_DATA((PyArrayObject *)v);
    switch (c->type) {
    case PCOL_TYPE_U8: *(uint8_t *)p = (uint8_t)c->dflt; break;
    case PCOL_TYPE_U32: *(uint32_t *)p = (uint32_t)c->dflt; break;
    default: memcpy(p, &c->dflt, 8); break;
    }
    PyObject *a = array_over(t, n, p, 0, v);
    Py_DECREF(v);
    return a;
  }
  npy_intp es = c->type == PCOL_TYPE_U8 ? 1 : c->type == PCOL_TYPE_U32 ? 4 : 8;
  if (c->owned) { /* computed: the array owns the buffer */
    PyObject *cap = PyCapsule_New(c->owned, "pcol.buffer", capsule_free);
    if (!cap) return NULL;
    c->owned = NULL;
    PyObject *a = array_over(t, n, (void *)c->data, es, cap);
    Py_DECREF(cap);
    return a;
  }
  /* stored: a view of the file, which the array keeps open */
  return array_over(t, n, (void *)c->data, es, (PyObject *)h);
}

/* ----------------------------------------------------------- Handle */

static void handle_dealloc(Handle *h) {
  if (h->strcache) {
    for (uint64_t i = 0; i < h->nstrings; i++) Py_XDECREF(h->strcache[i]);
    free(h->strcache);
  }
  if (h->f) pcol_close(h->f);
  Py_XDECREF(h->path);
  Py_TYPE(h)->tp_free((PyObject *)h);
}

int pcol_py_parse_select(PyObject *source, PyObject *from, PyObject *to, PyObject *max_rows,
                        pcb_select *s) {
  memset(s, 0, sizeof *s);
  if (source != Py_None) {
    unsigned long long v = PyLong_AsUnsignedLongLong(source);
    if (PyErr_Occurred()) return -1;
    if (v == 0 || v > UINT32_MAX) {
      PyErr_SetString(PyExc_ValueError, "source must be a source_id (1 or more)");
      return -1;
    }
    s->sel.source_id = (uint32_t)v;
  }
  PyObject *ends[2] = {from, to};
  for (int k = 0; k < 2; k++) { /* seconds, or the CLI's text (pcb_range_end) */
    const char *name = k ? "to" : "from_", *text = NULL;
    double d = 0;
    if (ends[k] == Py_None) continue;
    if (PyUnicode_Check(ends[k])) {
      if (!(text = PyUnicode_AsUTF8(ends[k]))) return -1;
    } else if (PyNumber_Check(ends[k]) && !PyBool_Check(ends[k]) && !PyComplex_Check(ends[k])) {
      d = PyFloat_AsDouble(ends[k]);
      if (PyErr_Occurred()) return -1;
    } else {
      PyErr_Format(PyExc_TypeError, "%s must be seconds (a number) or a time (str), not %s", name,
                   Py_TYPE(ends[k])->tp_name);
      return -1;
    }
    pcol_error err = {0};
    if (pcb_range_end(&s->sel, k, text, d, name, &err)) {
      PyErr_SetString(PyExc_ValueError, err.message);
      return -1;
    }
  }
  if (s->sel.has_from && s->sel.has_to && s->sel.from_ns > s->sel.to_ns) {
    PyErr_SetString(PyExc_ValueError, "from_ is after to");
    return -1;
  }
  if (max_rows && max_rows != Py_None) {
    s->max_rows = PyLong_AsUnsignedLongLong(max_rows);
    if (PyErr_Occurred()) return -1;
  }
  return 0;
}

/* Handle.table(view, columns, source, from_, to, max_rows, checked) -> (nrows, {name: array})
 * columns: a tuple of names, or None for all.  checked = 0: a whole stored
 * view's columns as stored (pcol_column_unchecked, O(1)). */
static PyObject *handle_table(Handle *h, PyObject *args) {
  const char *view;
  PyObject *cols, *source, *from, *to, *max_rows;
  int checked = 1;
  if (!PyArg_ParseTuple(args, "sOOOOO|p", &view, &cols, &source, &from, &to, &max_rows, &checked))
    return NULL;
  const pcb_view_info *vi = pcb_view_by_name(view);
  if (!vi) return PyErr_Format(PyExc_ValueError, "no view named '%s'", view);
  uint32_t want = 0;
  if (cols == Py_None) {
    want = UINT32_MAX;
  } else {
    PyObject *seq = PySequence_Fast(cols, "columns must be a sequence of names");
    if (!seq) return NULL;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
      const char *c = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(seq, i));
      if (!c) {
        Py_DECREF(seq);
        return NULL;
      }
      size_t k = 0;
      while (k < vi->ncols && strcmp(vi->cols[k].name, c)) k++;
      if (k == vi->ncols) {
        Py_DECREF(seq);
        return PyErr_Format(PyExc_KeyError, "%s", c);
      }
      want |= 1u << k;
    }
    Py_DECREF(seq);
  }
  pcb_select sel;
  if (pcol_py_parse_select(source, from, to, max_rows, &sel)) return NULL;
  sel.unchecked = !checked;
  pcb_table t;
  pcol_error err = {0};
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = pcb_table_get(h->f, view, &sel, want, &t, &err);
  Py_END_ALLOW_THREADS
  if (rc) return pcol_py_raise(h->path, &err, rc);
  if (t.nrows > (uint64_t)PY_SSIZE_T_MAX) {
    pcb_table_free(&t);
    return PyErr_NoMemory();
  }
  PyObject *d = PyDict_New();
  if (!d) goto fail;
  for (size_t k = 0; k < vi->ncols; k++) {
    if (!t.cols[k].name) continue;
    PyObject *a = column_array(h, &t.cols[k], t.nrows);
    if (!a || PyDict_SetItemString(d, t.cols[k].name, a) < 0) {
      Py_XDECREF(a);
      goto fail;
    }
    Py_DECREF(a);
  }
  pcb_table_free(&t);
  return Py_BuildValue("(KN)", (unsigned long long)t.nrows, d);
fail:
  Py_XDECREF(d);
  pcb_table_free(&t);
  return NULL;
}

/* a 128-bit sum as a Python int (exact) */
PyObject *pcol_py_sum(pcol_sum v) {
  char b[48];
  pcol_sum_text(v, b, sizeof b);
  return PyLong_FromString(b, NULL, 10);
}

PyObject *pcol_py_pstr(pcol_str s) {
  if (!s.ptr) Py_RETURN_NONE;
  return pcol_py_str(s.ptr, s.len);
}

PyObject *pcol_py_sums(const pcol_sum *v, size_t n) {
  npy_intp m = (npy_intp)n;
  int wide = 0; /* libpcol's sums are 128-bit: object arrays only when one does not fit */
  for (size_t i = 0; i < n && !wide; i++) wide = v[i] != (int64_t)v[i];
  PyObject *a = PyArray_SimpleNew(1, &m, wide ? NPY_OBJECT : NPY_INT64);
  if (!a) return NULL;
  if (!wide) {
    int64_t *o = PyArray_DATA((PyArrayObject *)a);
    for (size_t i = 0; i < n; i++) o[i] = (int64_t)v[i];
    return a;
  }
  PyObject **o = PyArray_DATA((PyArrayObject *)a);
  memset(o, 0, n * sizeof *o);
  for (size_t i = 0; i < n; i++)
    if (!(o[i] = pcol_py_sum(v[i]))) {
      Py_DECREF(a);
      return NULL;
    }
  return a;
}

static PyObject *handle_validate(Handle *h, PyObject *unused) {
  pcol_error err = {0};
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = pcol_validate_full(h->f, &err);
  Py_END_ALLOW_THREADS
  if (rc) return pcol_py_raise(h->path, &err, rc);
  Py_RETURN_NONE;
}

static PyObject *handle_rows(Handle *h, PyObject *args) {
  const char *name;
  if (!PyArg_ParseTuple(args, "s", &name)) return NULL;
  const pcol_table_info *ti = pcol_table_info_by_name(name);
  if (!ti) return PyErr_Format(PyExc_ValueError, "no stored table named '%s'", name);
  return PyLong_FromUnsignedLongLong(pcol_rows(h->f, ti->id));
}

static PyMethodDef handle_methods[] = {
    {"table", (PyCFunction)handle_table, METH_VARARGS, "table(view, columns, source, from_, to, max_rows[, checked])"},
    {"top", (PyCFunction)pcol_py_top, METH_VARARGS, "the numbers of pcol top"},
    {"peek", (PyCFunction)pcol_py_peek, METH_VARARGS, "the numbers of pcol peek"},
    {"tree", (PyCFunction)pcol_py_tree, METH_VARARGS, "the numbers of pcol tree"},
    {"list", (PyCFunction)pcol_py_list, METH_VARARGS, "the numbers of pcol list"},
    {"tags", (PyCFunction)pcol_py_tags, METH_VARARGS, "the numbers of pcol tags"},
    {"traces", (PyCFunction)pcol_py_traces, METH_VARARGS, "the traces of pcol traces"},
    {"diff", (PyCFunction)pcol_py_diff, METH_VARARGS, "the numbers of pcol diff"},
    {"fold", (PyCFunction)pcol_py_fold, METH_VARARGS, "the text of pcol fold"},
    {"sources", (PyCFunction)pcol_py_sources, METH_NOARGS, "what pcol info says of each source"},
    {"view_notes", (PyCFunction)pcol_py_view_notes, METH_VARARGS,
     "the CLI's data warnings about a view's value (value, sel) -> [str]"},
    {"validate", (PyCFunction)handle_validate, METH_NOARGS, "full validation (checksums and all)"},
    {"rows", (PyCFunction)handle_rows, METH_VARARGS, "rows of a stored table"},
    {NULL, NULL, 0, NULL}};

PyTypeObject pcol_py_HandleType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pcol._pcol.Handle",
    .tp_basicsize = sizeof(Handle),
    .tp_dealloc = (destructor)handle_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "An open pcol file (owned by pcol.File and by the arrays that view it).",
    .tp_methods = handle_methods,
};

/* ----------------------------------------------------------- module */

/* A Handle owning f (closed on failure); path: a new reference, taken. */
static PyObject *handle_new(pcol_file *f, PyObject *path) {
  Handle *h = PyObject_New(Handle, &pcol_py_HandleType);
  if (!h) {
    pcol_close(f);
    Py_DECREF(path);
    return NULL;
  }
  h->f = f;
  h->path = path;
  h->strcache = NULL;
  h->nstrings = 0;
  return (PyObject *)h;
}

/* more's lines after *all's (both malloc'd notes, pcb_inputs_notes; more
 * is freed): all the notes of one call, said after it */
static void notes_cat(char **all, char *more) {
  if (!more) return;
  if (!*all) {
    *all = more;
    return;
  }
  size_t a = strlen(*all), b = strlen(more);
  char *s = realloc(*all, a + b + 1);
  if (s) {
    memcpy(s + a, more, b + 1);
    *all = s;
  }
  free(more);
}

/* *f: path, minus base_path's profile when that is not NULL (pprof's
 * -base/-diff_base: pcol_open_diff_base_select with flags, sel's source N
 * and range of each side taken first, as the CLI's --base; sel NULL: all
 * of each); each a file, a directory or a glob (pcb_open); *notes: what
 * their expansions have to say (notes_cat); *base_failed: set when the
 * error is the base's (the message then names the base, as the CLI's).
 * Called without the GIL. */
static int open_minus_base(const char *path, const char *base_path, unsigned flags, const pcol_select *sel,
                           const pcol_open_options *opt, pcol_file **f, int *base_failed,
                           char **notes, pcol_error *err) {
  *base_failed = 0;
  char *more = NULL;
  int rc = pcb_open(path, opt, f, notes, err);
  if (!rc && base_path) {
    pcol_file *bf = NULL, *u = NULL;
    int side = 1; /* whose error: the profile's selection (0) or the base's */
    rc = pcb_open(base_path, opt, &bf, &more, err);
    notes_cat(notes, more);
    if (!rc) rc = pcol_open_diff_base_select(*f, bf, sel, flags, &u, &side, err);
    *base_failed = rc != 0 && side;
    pcol_close(bf);
    pcol_close(*f);
    *f = u;
  }
  return rc;
}

/* text's lines, a UserWarning each, as warnings.warn(line,
 * stacklevel=level) from the caller.  -1 when a warning raised (a filter
 * "error"). */
static int warn_text(const char *text, int level) {
  for (const char *m = text, *nl; m && *m; m = nl ? nl + 1 : m + strlen(m)) {
    nl = strchr(m, '\n');
    PyObject *line = pcol_py_str(m, nl ? (size_t)(nl - m) : strlen(m)); /* (paths as pcol_py_raise's) */
    if (!line) return -1;
    const char *u = PyUnicode_AsUTF8(line);
    int rc = u ? PyErr_WarnEx(PyExc_UserWarning, u, level) : -1;
    Py_DECREF(line);
    if (rc) return -1;
  }
  return 0;
}
/* The library's warning in err (a success's: pcol_open_tag_frames' "TagRoot
 * expression matched no samples"), as warn_text. */
static int warn_lines(const pcol_error *err, int level) { return warn_text(err->message, level); }

/* The notes of the inputs' expansions (pcb_inputs_notes: a directory's
 * index not used and why, glob matches skipped), a UserWarning each as
 * warn_text; frees them.  -1 when a warning raised. */
static int warn_notes(char *notes, int level) {
  int rc = warn_text(notes, level);
  free(notes);
  return rc;
}

/* open(path, mmap[, tagroot, tagleaf, base, diff, tagunit, stacklevel,
 * source, from_, to]) -> Handle: a pcol file, or any format pcol imports;
 * the frames' warning given as from stacklevel (warn_lines); with base,
 * source/from_/to (a view's selection: pcol_py_parse_select) are each
 * side's, taken before the two are compared (open_minus_base). */
static PyObject *mod_open(PyObject *self, PyObject *args) {
  PyObject *pathobj, *bytes = NULL;
  int mmap = 1;
  const char *root = NULL, *leaf = NULL; /* pprof's -tagroot/-tagleaf keys */
  const char *unit = NULL;               /* their numbers' unit (pprof -unit) */
  PyObject *baseobj = NULL, *basebytes = NULL; /* pprof's -base/-diff_base profile */
  int diff = 0; /* pcol_open_diff_base's flags: PCOL_BASE_DIFF, PCOL_BASE_NORMALIZE */
  int level = 1;
  PyObject *src = Py_None, *from = Py_None, *to = Py_None;
  if (!PyArg_ParseTuple(args, "O&p|zzOiziOOO", PyUnicode_FSDecoder, &pathobj, &mmap, &root, &leaf, &baseobj, &diff,
                        &unit, &level, &src, &from, &to))
    return NULL;
  pcb_select bsel;
  if (pcol_py_parse_select(src, from, to, NULL, &bsel)) {
    Py_DECREF(pathobj);
    return NULL;
  }
  if (baseobj == Py_None) baseobj = NULL;
  if (baseobj && !PyUnicode_FSConverter(baseobj, &basebytes)) {
    Py_DECREF(pathobj);
    return NULL;
  }
  if (!PyUnicode_FSConverter(pathobj, &bytes)) {
    Py_DECREF(pathobj);
    Py_XDECREF(basebytes);
    return NULL;
  }
  pcol_open_options opt = {0};
  opt.no_mmap = !mmap;
  pcol_file *f = NULL;
  pcol_error err = {0};
  const char *p = PyBytes_AS_STRING(bytes), *bp = basebytes ? PyBytes_AS_STRING(basebytes) : NULL;
  int rc, base_failed = 0;
  char *notes = NULL;
  Py_BEGIN_ALLOW_THREADS
  rc = open_minus_base(p, bp, (unsigned)diff, &bsel.sel, &opt, &f, &base_failed, &notes, &err);
  if (!rc && (root || leaf)) { /* the copy with label frames (pcol_open_tag_frames) */
    pcol_file *t = NULL;
    memset(&err, 0, sizeof err); /* its warning alone */
    rc = pcol_open_tag_frames(f, root, leaf, unit, &t, &err);
    pcol_close(f);
    f = t;
  }
  Py_END_ALLOW_THREADS
  Py_DECREF(bytes);
  Py_XDECREF(basebytes);
  if (rc) { /* what was noted before it failed (skipped glob matches), then the error */
    if (!warn_notes(notes, level)) pcol_py_raise(base_failed ? baseobj : pathobj, &err, rc);
    Py_DECREF(pathobj);
    return NULL;
  }
  PyObject *h = handle_new(f, pathobj);
  if (warn_notes(notes, level)) Py_CLEAR(h);
  if (h && (root || leaf) && warn_lines(&err, level)) Py_CLEAR(h);
  return h;
}

/* open_pair(path, other, mmap, tagroot, tagleaf, tagunit[, base, flags,
 * stacklevel, source, from_, to]) -> (Handle, Handle): the two sides of a
 * diff with -tagroot/-tagleaf's frames added to both at once
 * (pcol_open_tag_frames_pair: a key on one side will do, as the CLI's diff
 * and pprof -diff_base; the warning of a key of neither as open's); with
 * base, path's side is path minus base (open's base and flags, and open's
 * source/from_/to: each side's, taken first) before the frames. */
static PyObject *mod_open_pair(PyObject *self, PyObject *args) {
  PyObject *po[2] = {NULL, NULL}, *pb[2] = {NULL, NULL}, *baseobj = NULL, *basebytes = NULL;
  int mmap = 1, flags = 0, level = 1;
  const char *root = NULL, *leaf = NULL, *unit = NULL;
  PyObject *src = Py_None, *from = Py_None, *to = Py_None;
  if (!PyArg_ParseTuple(args, "O&O&p|zzzOiiOOO", PyUnicode_FSDecoder, &po[0], PyUnicode_FSDecoder, &po[1],
                        &mmap, &root, &leaf, &unit, &baseobj, &flags, &level, &src, &from, &to))
    return NULL;
  PyObject *ret = NULL;
  pcb_select bsel;
  if (pcol_py_parse_select(src, from, to, NULL, &bsel)) goto done;
  if (baseobj == Py_None) baseobj = NULL;
  if (baseobj && !PyUnicode_FSConverter(baseobj, &basebytes)) goto done;
  for (int i = 0; i < 2; i++)
    if (!PyUnicode_FSConverter(po[i], &pb[i])) goto done;
  pcol_open_options opt = {0};
  opt.no_mmap = !mmap;
  pcol_file *f[2] = {NULL, NULL}, *t[2] = {NULL, NULL};
  pcol_error err = {0};
  const char *bp = basebytes ? PyBytes_AS_STRING(basebytes) : NULL;
  int rc, failed = 0, base_failed = 0; /* failed: the side whose error it is */
  char *notes = NULL, *more = NULL;
  Py_BEGIN_ALLOW_THREADS
  rc = open_minus_base(PyBytes_AS_STRING(pb[0]), bp, (unsigned)flags, &bsel.sel, &opt, &f[0], &base_failed, &notes, &err);
  if (!rc) {
    failed = 1;
    rc = pcb_open(PyBytes_AS_STRING(pb[1]), &opt, &f[1], &more, &err);
    notes_cat(&notes, more);
  }
  if (!rc) memset(&err, 0, sizeof err); /* the frames' warning alone */
  if (!rc) /* failed: the side whose error it is */
    rc = pcol_open_tag_frames_pair(f[0], f[1], root, leaf, unit, &t[0], &t[1], &failed, &err);
  pcol_close(f[0]);
  pcol_close(f[1]);
  Py_END_ALLOW_THREADS
  if (rc) {
    if (!warn_notes(notes, level)) pcol_py_raise(base_failed ? baseobj : po[failed], &err, rc);
    goto done;
  }
  if (warn_notes(notes, level)) {
    pcol_close(t[0]);
    pcol_close(t[1]);
    goto done;
  }
  Py_INCREF(po[0]);
  PyObject *h0 = handle_new(t[0], po[0]);
  if (!h0) {
    pcol_close(t[1]);
    goto done;
  }
  Py_INCREF(po[1]);
  PyObject *h1 = handle_new(t[1], po[1]);
  if (!h1) {
    Py_DECREF(h0);
    goto done;
  }
  if (!warn_lines(&err, level)) ret = PyTuple_Pack(2, h0, h1);
  Py_DECREF(h0);
  Py_DECREF(h1);
done:
  for (int i = 0; i < 2; i++) {
    Py_XDECREF(po[i]);
    Py_XDECREF(pb[i]);
  }
  Py_XDECREF(basebytes);
  return ret;
}

/* ------------------------------------------------------------ write */

typedef struct pywrite {
  PyObject *str_cols[PCB_NVIEWS][PCB_MAX_COLS]; /* sequences of str / bytes / None */
  PyObject *last;                               /* the item whose bytes were handed out last */
} pywrite;

static int py_get_str(void *ctx, int view, int col, uint64_t row, const char **p, size_t *len,
                      pcol_error *err) {
  pywrite *w = ctx;
  Py_CLEAR(w->last); /* its bytes have been copied by now */
  PyObject *o = PySequence_GetItem(w->str_cols[view][col], (Py_ssize_t)row);
  if (!o) {
    PyErr_Clear();
    return pcol_error_set(err, PCOL_EINVAL, "tables['%s']['%s'][%llu]: cannot be read", pcb_view_at(view)->name,
                          pcb_view_at(view)->cols[col].name, (unsigned long long)row);
  }
  w->last = o;
  *p = NULL;
  *len = 0;
  if (o == Py_None) return 0;
  Py_ssize_t n = 0;
  if (PyUnicode_Check(o)) {
    *p = PyUnicode_AsUTF8AndSize(o, &n); /* cached in the str, which `last` keeps alive */
  } else if (PyBytes_Check(o)) {
    char *b;
    if (PyBytes_AsStringAndSize(o, &b, &n) == 0) *p = b;
  } else {
    return pcol_error_set(err, PCOL_EINVAL, "tables['%s']['%s'][%llu]: must be str, bytes or None",
                          pcb_view_at(view)->name, pcb_view_at(view)->cols[col].name, (unsigned long long)row);
  }
  if (!*p) {
    PyErr_Clear();
    return pcol_error_set(err, PCOL_EINVAL,
                          "tables['%s']['%s'][%llu]: not encodable as UTF-8 (a str with surrogates, such as "
                          "os.fsdecode makes of bytes that are not UTF-8: pass the bytes)",
                          pcb_view_at(view)->name, pcb_view_at(view)->cols[col].name, (unsigned long long)row);
  }
  *len = (size_t)n;
  return 0;
}

/* write([(view, nrows, {column: (type, data)})], path, compress)
 * type: "i64", "u64", "f64" (C-contiguous numpy arrays of that type) or
 * "str" (a sequence of str / bytes / None). */
static PyObject *mod_write(PyObject *self, PyObject *args) {
  PyObject *tables, *pathobj, *bytes = NULL;
  int compress = 0;
  if (!PyArg_ParseTuple(args, "OO&p", &tables, PyUnicode_FSConverter, &bytes, &compress)) return NULL;
  pathobj = bytes;
  pcb_input in;
  memset(&in, 0, sizeof in);
  pywrite w;
  memset(&w, 0, sizeof w);
  PyObject *keep = PyList_New(0); /* buffers held for the call */
  PyObject *res = NULL;
  PyObject *seq = keep ? PySequence_Fast(tables, "tables must be a list") : NULL;
  if (!seq) goto out;
  for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
    const char *vname;
    unsigned long long nrows;
    PyObject *cols;
    if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "sKO!", &vname, &nrows, &PyDict_Type, &cols)) goto out;
    int v = 0;
    while (pcb_view_at(v) && strcmp(pcb_view_at(v)->name, vname)) v++;
    const pcb_view_info *vi = pcb_view_at(v);
    if (!vi) {
      PyErr_Format(PyExc_ValueError, "no view named '%s'", vname);
      goto out;
    }
    in.t[v].present = 1;
    in.t[v].nrows = nrows;
    PyObject *key, *val;
    Py_ssize_t pos = 0;
    while (PyDict_Next(cols, &pos, &key, &val)) {
      const char *cname = PyUnicode_AsUTF8(key), *type;
      PyObject *data;
      if (!cname || !PyArg_ParseTuple(val, "sO", &type, &data)) goto out;
      size_t k = 0;
      while (k < vi->ncols && strcmp(vi->cols[k].name, cname)) k++;
      if (k == vi->ncols) continue; /* not a column of the view: ignored */
      pcb_in_col *c = &in.t[v].cols[k];
      if (!strcmp(type, "str")) {
        if (PySequence_Size(data) != (Py_ssize_t)nrows) {
          PyErr_Format(PyExc_ValueError, "tables['%s']['%s'] has the wrong length", vname, cname);
          goto out;
        }
        c->type = PCB_IN_STR;
        w.str_cols[v][k] = data;
        continue;
      }
      int npt = !strcmp(type, "i64") ? NPY_INT64 : !strcmp(type, "u64") ? NPY_UINT64 : NPY_FLOAT64;
      PyObject *a = PyArray_FROMANY(data, npt, 1, 1, NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED);
      if (!a || PyList_Append(keep, a) < 0) {
        Py_XDECREF(a);
        goto out;
      }
      Py_DECREF(a);
      if (PyArray_SIZE((PyArrayObject *)a) != (npy_intp)nrows) {
        PyErr_Format(PyExc_ValueError, "tables['%s']['%s'] has the wrong length", vname, cname);
        goto out;
      }
      c->type = npt == NPY_INT64 ? PCB_IN_I64 : npt == NPY_UINT64 ? PCB_IN_U64 : PCB_IN_F64;
      c->data = PyArray_DATA((PyArrayObject *)a);
    }
  }
  in.get_str = py_get_str;
  in.ctx = &w;
  in.names = PCB_NAMES_PY; /* "tables['samples']['stack_id'][0]" */
  pcol_error err = {0};
  /* the GIL stays held: strings are read from Python objects */
  int rc = pcb_write(&in, PyBytes_AS_STRING(pathobj), compress, &err);
  Py_CLEAR(w.last);
  if (rc) { /* "pcol.write: tables['functions']['name'][4]: ...", the output named where it is at fault */
    PyObject *po = PyUnicode_DecodeFSDefault(PyBytes_AS_STRING(pathobj));
    if (po) raise_as(po, "pcol.write", &err, rc);
    Py_XDECREF(po);
    goto out;
  }
  res = Py_NewRef(Py_None);
out:
  Py_XDECREF(seq);
  Py_XDECREF(keep);
  Py_XDECREF(bytes);
  return res;
}

static const char *kind_name(pcb_kind k) {
  switch (k) {
  case PCB_ID: return "id";
  case PCB_REF: return "ref";
  case PCB_STR: return "str";
  case PCB_I64: return "i64";
  case PCB_U64: return "u64";
  case PCB_F64: return "f64";
  case PCB_BOOL: return "bool";
  case PCB_COUNT: return "count";
  }
  return "?";
}

/* views() -> [(name, ((column, kind), ...), sample_view, derived)] */
static PyObject *mod_views(PyObject *self, PyObject *unused) {
  PyObject *l = PyList_New(0);
  for (int i = 0; l && pcb_view_at(i); i++) {
    const pcb_view_info *v = pcb_view_at(i);
    PyObject *cols = PyTuple_New(v->ncols);
    if (!cols) goto fail;
    for (size_t k = 0; k < v->ncols; k++)
      PyTuple_SET_ITEM(cols, k, Py_BuildValue("(ss)", v->cols[k].name, kind_name(v->cols[k].kind)));
    PyObject *e = Py_BuildValue("(sNOO)", v->name, cols, v->sample_view ? Py_True : Py_False,
                                v->derived ? Py_True : Py_False);
    if (!e || PyList_Append(l, e) < 0) {
      Py_XDECREF(e);
      goto fail;
    }
    Py_DECREF(e);
  }
  return l;
fail:
  Py_XDECREF(l);
  return NULL;
}

static PyObject *mod_version(PyObject *self, PyObject *unused) {
  return PyUnicode_FromString(pcol_version_string());
}

static PyMethodDef mod_methods[] = {
    {"open", mod_open, METH_VARARGS, "open(path, mmap[, tagroot, tagleaf, base, diff, tagunit, stacklevel]) -> Handle"},
    {"open_pair", mod_open_pair, METH_VARARGS,
     "open_pair(path, other, mmap[, tagroot, tagleaf, tagunit, base, flags, stacklevel, source, from_, to]) -> (Handle, Handle)"},
    {"views", mod_views, METH_NOARGS, "the logical views and their columns"},
    {"version", mod_version, METH_NOARGS, "libpcol's version"},
    {"write", mod_write, METH_VARARGS, "write(tables, path, compress)"},
    {"writer_open", pcol_py_writer_open, METH_VARARGS, "a streaming writer (pcol.Writer)"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moddef = {PyModuleDef_HEAD_INIT, "pcol._pcol", "libpcol for Python", -1,
                                    mod_methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__pcol(void) {
  import_array();
  if (PyType_Ready(&pcol_py_HandleType) < 0 || PyType_Ready(&pcol_py_WriterType) < 0) return NULL;
  PyObject *m = PyModule_Create(&moddef);
  if (!m) return NULL;
  PcolError = PyErr_NewExceptionWithDoc(
      "pcol.Error", "A pcol file (or another profile) is damaged, unreadable or not understood.\n"
                    "Attributes: path, code (the PCOL_E* number), reason (its name).",
      NULL, NULL);
  if (!PcolError || PyModule_AddObject(m, "Error", Py_NewRef(PcolError)) < 0 ||
      PyModule_AddObject(m, "Handle", Py_NewRef((PyObject *)&pcol_py_HandleType)) < 0) {
    Py_DECREF(m);
    return NULL;
  }
  return m;
}
