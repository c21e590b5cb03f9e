/* _pcol.h — what the extension's C files share (not installed): the
 * Handle of an open file, pcol.Error, and the conversions of strings and
 * sums into Python objects. */
#ifndef PY_PCOL_H
#define PY_PCOL_H
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#ifndef PCOL_PY_MAIN
#define NO_IMPORT_ARRAY
/* The streaming writer (writer.c): its type and pcol._pcol.writer_open. */
extern PyTypeObject pcol_py_WriterType;
PyObject *pcol_py_writer_open(PyObject *self, PyObject *args);

#endif
#define PY_ARRAY_UNIQUE_SYMBOL pcol_py_ARRAY_API
#include <numpy/arrayobject.h>

#include "pcolb.h"

typedef struct {
  PyObject_HEAD
  pcol_file *f;
  PyObject *path;      /* str, for messages */
  PyObject **strcache; /* decoded strings by id, filled on first use */
  uint64_t nstrings;
} Handle;

extern PyTypeObject pcol_py_HandleType;

/* Raises pcol.Error with the library's message, naming the file; NULL. */
PyObject *pcol_py_raise(PyObject *path, const pcol_error *err, int rc);
/* A str from stored bytes by the rule of `pcol cat --format json`. */
PyObject *pcol_py_str(const char *p, size_t n);
/* pcol_py_str of a pcol_str; None when NA (ptr NULL). */
PyObject *pcol_py_pstr(pcol_str s);
/* an exact Python int of a 128-bit sum */
PyObject *pcol_py_sum(pcol_sum v);
/* A 1-d array of n sums: int64 when every one fits, else object (ints). */
PyObject *pcol_py_sums(const pcol_sum *v, size_t n);
/* --source/--from/--to into sel (max_rows may be NULL). */
int pcol_py_parse_select(PyObject *source, PyObject *from, PyObject *to, PyObject *max_rows,
                         pcb_select *s);

/* The views of the CLI (views.c): Handle methods. */
PyObject *pcol_py_top(Handle *h, PyObject *args);
PyObject *pcol_py_peek(Handle *h, PyObject *args);
PyObject *pcol_py_tree(Handle *h, PyObject *args);
PyObject *pcol_py_list(Handle *h, PyObject *args);
PyObject *pcol_py_tags(Handle *h, PyObject *args);
PyObject *pcol_py_traces(Handle *h, PyObject *args);
PyObject *pcol_py_diff(Handle *h, PyObject *args);
PyObject *pcol_py_fold(Handle *h, PyObject *args);
PyObject *pcol_py_sources(Handle *h, PyObject *unused);
PyObject *pcol_py_view_notes(Handle *h, PyObject *args);

/* The streaming writer (writer.c): its type and pcol._pcol.writer_open. */
extern PyTypeObject pcol_py_WriterType;
PyObject *pcol_py_writer_open(PyObject *self, PyObject *args);

#endif
