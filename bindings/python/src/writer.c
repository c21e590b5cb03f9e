/* writer.c — the streaming writer (pcol_writer, through the glue's
 * pcb_writer) as a C type behind pcol.Writer: open with its options, add
 * a batch of samples given as flat arrays (pcol/__init__.py flattens the
 * Python structures), flush, poll, close.  The published paths are the
 * glue's list. */
#include "_pcol.h"
#include <stdlib.h>
#include <string.h>

typedef struct {
  PyObject_HEAD
  pcb_writer *pw;
  PyObject *path; /* str, for messages */
} WriterObj;

static void writer_dealloc(WriterObj *w) {
  pcb_writer_free(w->pw); /* publishes what is pending, as close would */
  Py_XDECREF(w->path);
  Py_TYPE(w)->tp_free((PyObject *)w);
}

static int need_open(WriterObj *w) {
  if (w->pw && w->pw->w) return 0;
  PyErr_SetString(PyExc_ValueError, "the writer is closed");
  return -1;
}

/* UTF-8 of a str or bytes (NULL for None when may_none); the pointer lives
 * as long as the object.  A NUL inside is refused: the writer takes C
 * strings. */
static int utf8_of(PyObject *o, int may_none, const char **out, const char *what) {
  Py_ssize_t n;
  const char *p;
  if (o == Py_None && may_none) {
    *out = NULL;
    return 0;
  }
  if (PyUnicode_Check(o)) p = PyUnicode_AsUTF8AndSize(o, &n);
  else if (PyBytes_Check(o)) p = PyBytes_AS_STRING(o), n = PyBytes_GET_SIZE(o);
  else {
    PyErr_Format(PyExc_TypeError, "%s must be a str%s, not %.100s", what, may_none ? " or None" : "",
                 Py_TYPE(o)->tp_name);
    return -1;
  }
  if (!p) return -1;
  if ((size_t)n != strlen(p)) {
    PyErr_Format(PyExc_ValueError, "%s contains a NUL character", what);
    return -1;
  }
  *out = p;
  return 0;
}

/* the strings of a list (None allowed when may_none) as a malloc'd array */
static const char **strings_of(PyObject *list, Py_ssize_t n, int may_none, const char *what) {
  if (!PyList_Check(list) || PyList_GET_SIZE(list) != n) {
    PyErr_Format(PyExc_ValueError, "%s: a list of %zd strings expected", what, n);
    return NULL;
  }
  const char **a = malloc((n ? (size_t)n : 1) * sizeof *a);
  if (!a) return (const char **)PyErr_NoMemory();
  for (Py_ssize_t i = 0; i < n; i++)
    if (utf8_of(PyList_GET_ITEM(list, i), may_none, &a[i], what)) {
      free(a);
      return NULL;
    }
  return a;
}

/* a contiguous int64 array of length n (or any length when n < 0); None ->
 * *arr NULL when optional */
static int i64_of(PyObject *o, npy_intp n, int optional, PyArrayObject **arr, const char *what) {
  *arr = NULL;
  if (o == Py_None && optional) return 0;
  *arr = (PyArrayObject *)PyArray_FROMANY(o, NPY_INT64, 1, 1, NPY_ARRAY_IN_ARRAY);
  if (!*arr) return -1;
  if (n >= 0 && PyArray_DIM(*arr, 0) != n) {
    PyErr_Format(PyExc_ValueError, "%s: %zd values, %zd expected", what, (Py_ssize_t)PyArray_DIM(*arr, 0),
                 (Py_ssize_t)n);
    Py_CLEAR(*arr);
    return -1;
  }
  return 0;
}

/* add(frame_off, functions, files, lines, values, nvalues, time_ns, weight,
 *     label_off, label_keys, label_strs, label_nums) -> samples added */
static PyObject *writer_add(WriterObj *w, PyObject *args) {
  PyObject *foff_o, *fn_o, *file_o, *line_o, *val_o, *time_o, *wt_o, *loff_o, *lk_o, *ls_o, *ln_o;
  Py_ssize_t nvalues;
  if (!PyArg_ParseTuple(args, "OOOOOnOOOOOO", &foff_o, &fn_o, &file_o, &line_o, &val_o, &nvalues, &time_o, &wt_o,
                        &loff_o, &lk_o, &ls_o, &ln_o))
    return NULL;
  if (need_open(w)) return NULL;
  PyArrayObject *foff = NULL, *line = NULL, *val = NULL, *tim = NULL, *wt = NULL, *loff = NULL, *lnum = NULL;
  const char **fn = NULL, **file = NULL, **lk = NULL, **ls = NULL;
  size_t *fo = NULL, *lo = NULL;
  PyObject *res = NULL;
  if (i64_of(foff_o, -1, 0, &foff, "frame offsets")) goto done;
  npy_intp n = PyArray_DIM(foff, 0) - 1;
  if (n < 0 || nvalues < 1) {
    PyErr_SetString(PyExc_ValueError, "bad batch");
    goto done;
  }
  const int64_t *f64 = PyArray_DATA(foff);
  npy_intp nf = f64[n];
  for (npy_intp i = 0; i < n; i++)
    if (f64[i] < 0 || f64[i] > f64[i + 1]) {
      PyErr_SetString(PyExc_ValueError, "frame offsets must be increasing");
      goto done;
    }
  if (f64[0] != 0) {
    PyErr_SetString(PyExc_ValueError, "frame offsets must start at 0");
    goto done;
  }
  if (!(fn = strings_of(fn_o, nf, 1, "a frame's function"))) goto done;
  if (file_o != Py_None && !(file = strings_of(file_o, nf, 1, "a frame's file"))) goto done;
  if (i64_of(line_o, nf, 1, &line, "lines") || i64_of(val_o, n * nvalues, 0, &val, "values") ||
      i64_of(time_o, n, 1, &tim, "time_ns") || i64_of(wt_o, n, 1, &wt, "weights") ||
      i64_of(loff_o, n + 1, 1, &loff, "label offsets"))
    goto done;
  if (!(fo = malloc((size_t)(n + 1) * sizeof *fo))) {
    PyErr_NoMemory();
    goto done;
  }
  for (npy_intp i = 0; i <= n; i++) fo[i] = (size_t)f64[i];
  pcb_wbatch b = {0};
  if (loff) {
    const int64_t *l64 = PyArray_DATA(loff);
    npy_intp nl = l64[n];
    if (l64[0] != 0) {
      PyErr_SetString(PyExc_ValueError, "label offsets must start at 0");
      goto done;
    }
    for (npy_intp i = 0; i < n; i++)
      if (l64[i] > l64[i + 1]) {
        PyErr_SetString(PyExc_ValueError, "label offsets must be increasing");
        goto done;
      }
    if (!(lk = strings_of(lk_o, nl, 0, "a label's key")) || !(ls = strings_of(ls_o, nl, 1, "a label's value")) ||
        i64_of(ln_o, nl, 0, &lnum, "label numbers"))
      goto done;
    if (!(lo = malloc((size_t)(n + 1) * sizeof *lo))) {
      PyErr_NoMemory();
      goto done;
    }
    for (npy_intp i = 0; i <= n; i++) lo[i] = (size_t)l64[i];
    b.label_off = lo;
    b.label_key = lk;
    b.label_str = ls;
    b.label_num = PyArray_DATA(lnum);
  }
  b.n = (size_t)n;
  b.frame_off = fo;
  b.function = fn;
  b.file = file;
  b.line = line ? PyArray_DATA(line) : NULL;
  b.values = PyArray_DATA(val);
  b.nvalues = (size_t)nvalues;
  b.time_ns = tim ? PyArray_DATA(tim) : NULL;
  b.weight = wt ? PyArray_DATA(wt) : NULL;
  size_t added = 0;
  pcol_error err = {0};
  int rc = pcb_writer_add(w->pw, &b, &added, &err); /* the GIL stays held: the strings are the objects' */
  if (rc) pcol_py_raise(w->path, &err, rc);
  else res = PyLong_FromSize_t(added);
done:
  Py_XDECREF(foff);
  Py_XDECREF(line);
  Py_XDECREF(val);
  Py_XDECREF(tim);
  Py_XDECREF(wt);
  Py_XDECREF(loff);
  Py_XDECREF(lnum);
  free(fn);
  free(file);
  free(lk);
  free(ls);
  free(fo);
  free(lo);
  return res;
}

static PyObject *writer_call(WriterObj *w, int (*fn)(pcol_writer *, pcol_error *)) {
  if (need_open(w)) return NULL;
  pcol_error err = {0};
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = fn(w->pw->w, &err);
  Py_END_ALLOW_THREADS
  if (rc) return pcol_py_raise(w->path, &err, rc);
  Py_RETURN_NONE;
}
static PyObject *writer_flush(WriterObj *w, PyObject *unused) { return writer_call(w, pcol_writer_flush); }
static PyObject *writer_poll(WriterObj *w, PyObject *unused) { return writer_call(w, pcol_writer_poll); }

static PyObject *writer_close(WriterObj *w, PyObject *unused) {
  if (!w->pw || !w->pw->w) Py_RETURN_NONE;
  pcol_error err = {0};
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = pcb_writer_close(w->pw, &err);
  Py_END_ALLOW_THREADS
  if (rc) return pcol_py_raise(w->path, &err, rc);
  Py_RETURN_NONE;
}

/* files() -> [published paths]; state() -> (open, pending samples) */
static PyObject *writer_files(WriterObj *w, PyObject *unused) {
  PyObject *l = PyList_New(0);
  for (size_t i = 0; l && w->pw && i < w->pw->nfiles; i++) {
    PyObject *s = PyUnicode_DecodeFSDefault(w->pw->files[i]);
    if (!s || PyList_Append(l, s) < 0) Py_CLEAR(l);
    Py_XDECREF(s);
  }
  return l;
}
static PyObject *writer_state(WriterObj *w, PyObject *unused) {
  int open = w->pw && w->pw->w;
  return Py_BuildValue("(OK)", open ? Py_True : Py_False,
                       (unsigned long long)(open ? pcol_writer_pending(w->pw->w) : 0));
}

static PyMethodDef writer_methods[] = {
    {"add", (PyCFunction)writer_add, METH_VARARGS, "add a batch of samples (flat arrays)"},
    {"flush", (PyCFunction)writer_flush, METH_NOARGS, "publish the current file now"},
    {"poll", (PyCFunction)writer_poll, METH_NOARGS, "publish the current file if roll_ns has passed"},
    {"close", (PyCFunction)writer_close, METH_NOARGS, "publish the current file and close"},
    {"files", (PyCFunction)writer_files, METH_NOARGS, "the files published so far"},
    {"state", (PyCFunction)writer_state, METH_NOARGS, "(open, pending samples)"},
    {NULL, NULL, 0, NULL}};

PyTypeObject pcol_py_WriterType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pcol._pcol.WriterHandle",
    .tp_basicsize = sizeof(WriterObj),
    .tp_dealloc = (destructor)writer_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A streaming writer (owned by pcol.Writer).",
    .tp_methods = writer_methods,
};

/* writer_open(path, [(type, unit)], source_type, source_uri, [(key, value)],
 *             period, period_type, period_unit, roll_samples, roll_ns, compress) */
PyObject *pcol_py_writer_open(PyObject *self, PyObject *args) {
  PyObject *pathobj, *vts, *st, *su, *meta, *pt, *pu, *bytes = NULL, *res = NULL;
  long long period;
  unsigned long long roll_samples, roll_ns;
  int compress;
  if (!PyArg_ParseTuple(args, "O&OOOOLOOKKp", PyUnicode_FSDecoder, &pathobj, &vts, &st, &su, &meta, &period, &pt,
                        &pu, &roll_samples, &roll_ns, &compress))
    return NULL;
  pcol_writer_value_type *vt = NULL;
  const char **mt = NULL;
  if (!PyUnicode_FSConverter(pathobj, &bytes)) goto done;
  if (!PyList_Check(vts) || !PyList_Check(meta)) {
    PyErr_SetString(PyExc_TypeError, "value types and meta must be lists");
    goto done;
  }
  Py_ssize_t nvt = PyList_GET_SIZE(vts), nm = PyList_GET_SIZE(meta);
  vt = calloc((size_t)nvt + 1, sizeof *vt);
  mt = calloc(2 * (size_t)nm + 1, sizeof *mt);
  if (!vt || !mt) {
    PyErr_NoMemory();
    goto done;
  }
  for (Py_ssize_t i = 0; i < nvt; i++) {
    PyObject *t = PyList_GET_ITEM(vts, i);
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 2 || utf8_of(PyTuple_GET_ITEM(t, 0), 0, &vt[i].type, "a value type") ||
        utf8_of(PyTuple_GET_ITEM(t, 1), 0, &vt[i].unit, "a value unit")) {
      if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "value types are (type, unit) pairs");
      goto done;
    }
  }
  for (Py_ssize_t i = 0; i < nm; i++) {
    PyObject *t = PyList_GET_ITEM(meta, i);
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 2 || utf8_of(PyTuple_GET_ITEM(t, 0), 0, &mt[2 * i], "a meta key") ||
        utf8_of(PyTuple_GET_ITEM(t, 1), 0, &mt[2 * i + 1], "a meta value")) {
      if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "meta is (key, value) pairs");
      goto done;
    }
  }
  pcol_writer_options o = {0};
  if (utf8_of(st, 1, &o.source_type, "source_type") || utf8_of(su, 1, &o.source_uri, "source_uri") ||
      utf8_of(pt, 1, &o.period_type, "period type") || utf8_of(pu, 1, &o.period_unit, "period unit"))
    goto done;
  o.meta = mt;
  o.nmeta = (size_t)nm;
  o.value_types = vt;
  o.nvalue_types = (size_t)nvt;
  o.period = period;
  o.roll_samples = roll_samples;
  o.roll_ns = roll_ns;
  o.write.compress_lz4 = compress;
  pcb_writer *pw = NULL;
  pcol_error err = {0};
  int rc = pcb_writer_open(&pw, PyBytes_AS_STRING(bytes), &o, &err);
  if (rc) {
    pcol_py_raise(pathobj, &err, rc);
    goto done;
  }
  WriterObj *w = PyObject_New(WriterObj, &pcol_py_WriterType);
  if (!w) {
    pcb_writer_free(pw);
    goto done;
  }
  w->pw = pw;
  w->path = Py_NewRef(pathobj);
  res = (PyObject *)w;
done:
  free(vt);
  free(mt);
  Py_XDECREF(bytes);
  Py_DECREF(pathobj);
  return res;
}
