/* views.c — the CLI's views for Python: top, peek, list, tags, traces,
 * diff and fold, computed by the same libpcol calls in the same order as
 * tools/cmd_<view>.c, so that every number equals `pcol <view> --format
 * json`.  Each returns plain Python lists or numpy arrays; pcol/__init__.py
 * wraps them into result objects. */
#include "_pcol.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* sel: (source, from_, to, focus, ignore, hide, show, tag, tag_ignore,
 * show_from, tagshow, taghide, no_inlines, relative_percentages): the CLI's
 * --source --from --to and filters (cli_select).
 * The filter strings are borrowed from the tuple's str objects. */
static int get_sel(PyObject *t, pcb_select *s) {
  if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 14) {
    PyErr_SetString(PyExc_TypeError, "selection must be a tuple of 14");
    return -1;
  }
  if (pcol_py_parse_select(PyTuple_GET_ITEM(t, 0), PyTuple_GET_ITEM(t, 1), PyTuple_GET_ITEM(t, 2), NULL, s))
    return -1;
  const char **dst[9] = {&s->sel.focus,     &s->sel.ignore,   &s->sel.hide,
                         &s->sel.show,      &s->sel.tag,      &s->sel.tag_ignore,
                         &s->sel.show_from, &s->sel.tag_show, &s->sel.tag_hide};
  static const char *const names[9] = {"focus", "ignore",     "hide",      "show",   "tag",
                                       "tag_ignore", "show_from", "tagshow", "taghide"};
  for (int i = 0; i < 9; i++) {
    PyObject *o = PyTuple_GET_ITEM(t, 3 + i);
    if (o == Py_None) continue;
    if (!PyUnicode_Check(o)) {
      PyErr_Format(PyExc_TypeError, "%s must be a str (a regular expression), not %s", names[i],
                   Py_TYPE(o)->tp_name);
      return -1;
    }
    Py_ssize_t n;
    const char *p = PyUnicode_AsUTF8AndSize(o, &n);
    if (!p) return -1;
    if ((size_t)n != strlen(p)) {
      PyErr_Format(PyExc_ValueError, "%s contains a NUL character", names[i]);
      return -1;
    }
    *dst[i] = p;
  }
  int ni = PyObject_IsTrue(PyTuple_GET_ITEM(t, 12)), rel = PyObject_IsTrue(PyTuple_GET_ITEM(t, 13));
  if (ni < 0 || rel < 0) return -1;
  s->sel.no_inlines = ni;
  s->sel.relative = rel;
  return 0;
}

/* --by of top, peek and diff (cli_report_options) */
static int get_by(const char *s, pcol_by *by) {
  if (pcol_by_parse(s, by) != PCOL_OK) {
    PyErr_Format(PyExc_ValueError, "by must be 'function', 'line', 'file', 'address' or 'filefunction', not '%s'", s);
    return -1;
  }
  return 0;
}

/* --sort (cli_sort_option) */
static int get_sort(const char *s, pcol_sort *o) {
  if (!strcmp(s, "flat")) *o = PCOL_SORT_FLAT;
  else if (!strcmp(s, "cum")) *o = PCOL_SORT_CUM;
  else if (!strcmp(s, "name")) *o = PCOL_SORT_NAME;
  else {
    PyErr_Format(PyExc_ValueError, "sort must be 'flat', 'cum' or 'name', not '%s'", s);
    return -1;
  }
  return 0;
}

static const char *inline_name(int inl) {
  return inl == PCOL_INLINE_ONLY ? "inline" : inl == PCOL_INLINE_PARTIAL ? "partial-inline" : NULL;
}

static PyObject *cstr_or_none(const char *s) {
  if (!s) Py_RETURN_NONE;
  return PyUnicode_FromString(s);
}

/* appends o to list l, stealing the reference; -1 on failure */
static int put(PyObject *l, PyObject *o) {
  if (!o) return -1;
  int rc = PyList_Append(l, o);
  Py_DECREF(o);
  return rc;
}

/* the value's type, unit and decimals (pcol_value_decimals) as a dict of
 * what every result carries */
static PyObject *value_meta(const pcol_value_sel *v) {
  return Py_BuildValue("{s:N,s:N,s:i}", "type", pcol_py_pstr(v->type), "unit", pcol_py_pstr(v->unit),
                       "decimals", pcol_value_decimals(v, NULL));
}

/* a top result's rows as (names, flat, cum, inline) */
static PyObject *top_rows(const pcol_top *t, size_t n) {
  PyObject *names = PyList_New(0), *inl = PyList_New(0), *flat = NULL, *cum = NULL;
  pcol_sum *fv = malloc((n + 1) * sizeof *fv), *cv = malloc((n + 1) * sizeof *cv);
  PyObject *res = NULL;
  if (!fv || !cv) {
    PyErr_NoMemory();
    goto out;
  }
  if (!names || !inl) goto out;
  for (size_t i = 0; i < n; i++) {
    const pcol_top_row *r = &t->rows[i];
    if (put(names, pcol_py_str(r->name.ptr ? r->name.ptr : "", r->name.len)) ||
        put(inl, cstr_or_none(inline_name(r->inl))))
      goto out;
    fv[i] = r->flat;
    cv[i] = r->cum;
  }
  if (!(flat = pcol_py_sums(fv, n)) || !(cum = pcol_py_sums(cv, n))) goto out;
  res = Py_BuildValue("(OOOO)", names, flat, cum, inl);
out:
  free(fv);
  free(cv);
  Py_XDECREF(names);
  Py_XDECREF(inl);
  Py_XDECREF(flat);
  Py_XDECREF(cum);
  return res;
}

/* Handle.top(by, value, sort, node_fraction, limit, sel, mean, drop_negative)
 * -> ((names, flat, cum, inline), total, meta, dropped): cmd_top.c's calls
 * (pprof -mean: pcol_top_mean; -drop_negative: pcol_top_drop_negative) */
PyObject *pcol_py_top(Handle *h, PyObject *args) {
  const char *bys, *value, *sorts;
  double fraction;
  long long limit;
  PyObject *selo;
  int mean = 0, drop_neg = 0;
  if (!PyArg_ParseTuple(args, "szsdLO|pp", &bys, &value, &sorts, &fraction, &limit, &selo, &mean, &drop_neg))
    return NULL;
  pcol_by by = PCOL_BY_FUNCTION;
  const char *label = !strncmp(bys, "label:", 6) ? bys + 6 : NULL;
  if (label && !*label) return PyErr_Format(PyExc_ValueError, "by='label:KEY' wants a key");
  if (!label && get_by(bys, &by)) return NULL;
  if (mean && label)
    return PyErr_Format(PyExc_ValueError, "mean divides a function's value by its count: not with by='label:KEY'");
  pcol_sort sort;
  if (get_sort(sorts, &sort)) return NULL;
  if (!(fraction >= 0 && fraction <= 1))
    return PyErr_Format(PyExc_ValueError, "node_fraction must be from 0 to 1");
  pcb_select sel;
  if (get_sel(selo, &sel)) return NULL;
  pcol_error err = {0};
  pcol_value_sel v;
  pcol_top t = {0};
  size_t dropped = 0;
  pcol_sum cutoff = 0;
  char mean_type[PCOL_MEAN_TYPE_MAX];
  size_t shown = limit >= 0 ? (size_t)limit : SIZE_MAX;
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = pcol_value_resolve(h->f, &sel.sel, value, &v, &err);
  if (!rc && label) {
    rc = pcol_top_by_label(h->f, &sel.sel, &v, label, &t, &err);
    if (!rc && drop_neg) rc = pcol_top_drop_negative(&t, fraction, SIZE_MAX, &dropped, &cutoff, &err);
    else if (!rc) dropped = pcol_top_cutoff(&t, fraction, &cutoff);
    if (!rc) pcol_top_sort(&t, sort);
    if (!rc) {
      size_t n = limit >= 0 && (unsigned long long)limit < t.nrows ? (size_t)limit : t.nrows, all = t.nrows;
      if (dropped || n < all) { /* pprof's marks come from the graph of the rows it shows */
        t.nrows = n;
        rc = pcol_top_mark_inline(&t, &err);
        t.nrows = all;
      }
    }
  } else if (!rc && drop_neg) {
    /* pprof drops the negative nodes first, then cuts by the sum of the
     * others' flat, then marks the shown ones (report.go newTrimmedGraph) */
    rc = pcol_top_compute_shown(h->f, &sel.sel, &v, by, 0, sort, SIZE_MAX, &t, NULL, NULL, &err);
    if (!rc) rc = pcol_top_drop_negative(&t, fraction, shown, &dropped, &cutoff, &err);
  } else if (!rc) { /* the marks of the rows shown, made once */
    rc = pcol_top_compute_shown(h->f, &sel.sel, &v, by, fraction, sort, shown, &t, &dropped, &cutoff, &err);
  }
  if (!rc && mean) {
    pcol_value_sel div;
    rc = pcol_mean_divisor(h->f, &sel.sel, &div, &err);
    if (!rc) rc = pcol_top_mean(h->f, &sel.sel, &div, &t, fraction, &cutoff, &err);
    if (!rc) t.value.type = pcol_mean_type(t.value.type, mean_type);
  }
  Py_END_ALLOW_THREADS
  if (rc) {
    pcol_top_free(&t);
    return pcol_py_raise(h->path, &err, rc);
  }
  size_t n = limit >= 0 && (unsigned long long)limit < t.nrows ? (size_t)limit : t.nrows;
  PyObject *rows = top_rows(&t, n);
  PyObject *res = rows ? Py_BuildValue("(NNNn)", rows, pcol_py_sum(t.total), value_meta(&t.value),
                                       (Py_ssize_t)dropped)
                       : NULL;
  pcol_top_free(&t);
  return res;
}

/* one edge row of peek, as cmd_peek.c's table_edge */
/* a caller/callee row of peek and tree (cli_tree.c's rows) */
static int tree_edge(PyObject **cols, pcol_str node, const char *rel, pcol_sum weight, bool inl,
                     pcol_str name, pcol_sum cum) {
  double pct = cum ? 100.0 * (double)weight / (double)cum : 0.0;
  if (put(cols[0], pcol_py_pstr(node)) || put(cols[1], PyUnicode_FromString(rel)) ||
      put(cols[2], pcol_py_pstr(name)) || put(cols[3], Py_NewRef(Py_None)) ||
      put(cols[4], Py_NewRef(Py_None)) || put(cols[5], pcol_py_sum(weight)) ||
      put(cols[6], PyFloat_FromDouble(pct)) || put(cols[7], PyBool_FromLong(inl)))
    return -1;
  return 0;
}

/* a node row of peek and tree */
static int tree_node(PyObject **cols, const pcol_top_row *r) {
  return put(cols[0], pcol_py_pstr(r->name)) || put(cols[1], PyUnicode_FromString("node")) ||
                 put(cols[2], pcol_py_pstr(r->name)) || put(cols[3], pcol_py_sum(r->flat)) ||
                 put(cols[4], pcol_py_sum(r->cum)) || put(cols[5], Py_NewRef(Py_None)) ||
                 put(cols[6], Py_NewRef(Py_None)) || put(cols[7], Py_NewRef(Py_None))
             ? -1
             : 0;
}

#define NCOLS_MAX 10
static int new_cols(PyObject **cols, int n) {
  for (int i = 0; i < n; i++) cols[i] = NULL;
  for (int i = 0; i < n; i++)
    if (!(cols[i] = PyList_New(0))) return -1;
  return 0;
}
static void free_cols(PyObject **cols, int n) {
  for (int i = 0; i < n; i++) Py_XDECREF(cols[i]);
}
static PyObject *cols_tuple(PyObject **cols, int n) {
  PyObject *t = PyTuple_New(n);
  if (!t) return NULL;
  for (int i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, Py_NewRef(cols[i]));
  return t;
}

/* Handle.peek(regex, by, value, sort, sel, mean, drop_negative) -> (cols,
 * total, meta): cmd_peek.c's calls; cols node, relation, name, flat, cum,
 * value, pct, inline (None where the CLI writes NA) */
PyObject *pcol_py_peek(Handle *h, PyObject *args) {
  const char *regex, *bys, *value, *sorts;
  PyObject *selo;
  int mean = 0, drop_neg = 0;
  if (!PyArg_ParseTuple(args, "sszsO|pp", &regex, &bys, &value, &sorts, &selo, &mean, &drop_neg))
    return NULL;
  pcol_by by;
  pcol_sort sort;
  pcb_select sel;
  if (get_by(bys, &by) || get_sort(sorts, &sort) || get_sel(selo, &sel)) return NULL;
  pcol_error err = {0};
  pcol_value_sel v;
  pcol_top t = {0}, dt = {0};
  pcol_peek pk = {0};
  char mean_type[PCOL_MEAN_TYPE_MAX];
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = pcol_value_resolve(h->f, &sel.sel, value, &v, &err);
  if (!rc) rc = pcol_top_compute_frames(h->f, &sel.sel, &v, by, &t, &err); /* pprof -peek trims nothing */
  if (!rc) pcol_top_sort(&t, sort);
  if (!rc && drop_neg) rc = pcol_top_drop_negative(&t, 0, SIZE_MAX, NULL, NULL, &err); /* by sums */
  if (!rc && mean) { /* the nodes in means, the calls in sums (cmd_peek.c) */
    pcol_value_sel div;
    rc = pcol_mean_divisor(h->f, &sel.sel, &div, &err);
    if (!rc) rc = pcol_top_compute_frames(h->f, &sel.sel, &div, by, &dt, &err); /* once: cmd_peek.c */
    if (!rc) rc = pcol_top_mean_with(h->f, &sel.sel, &div, &dt, &t, 0, NULL, &err);
    if (!rc) t.value.type = pcol_mean_type(t.value.type, mean_type);
  }
  if (!rc) rc = mean ? pcol_peek_compute_mean(&t, &dt, regex, &pk, &err) : pcol_peek_compute(&t, regex, &pk, &err);
  Py_END_ALLOW_THREADS
  PyObject *cols[NCOLS_MAX], *res = NULL;
  if (rc) {
    pcol_py_raise(h->path, &err, rc);
    goto out0;
  }
  if (new_cols(cols, 8)) goto out;
  for (size_t i = 0; i < pk.nnodes; i++) {
    const pcol_peek_node *nd = &pk.nodes[i];
    const pcol_top_row *r = nd->row;
    for (size_t j = 0; j < nd->nin; j++)
      if (tree_edge(cols, r->name, "caller", nd->in[j].value, nd->in[j].inl, nd->in[j].caller, r->cum)) goto out;
    if (tree_node(cols, r)) goto out;
    for (size_t j = 0; j < nd->nout; j++)
      if (tree_edge(cols, r->name, "callee", nd->out[j].value, nd->out[j].inl, nd->out[j].callee, r->cum)) goto out;
  }
  res = Py_BuildValue("(NNN)", cols_tuple(cols, 8), pcol_py_sum(t.total), value_meta(&t.value));
out:
  free_cols(cols, 8);
out0:
  pcol_peek_free(&pk);
  pcol_top_free(&dt);
  pcol_top_free(&t);
  return res;
}

/* Handle.tree(by, value, sort, node_fraction, edge_fraction, node_count,
 * sel, mean, drop_negative) -> (cols, total, meta): cmd_tree.c's calls (pprof -tree's graph,
 * pcol_graph_compute in text mode); cols as peek's, for every node kept */
PyObject *pcol_py_tree(Handle *h, PyObject *args) {
  const char *bys, *value, *sorts;
  double nf, ef;
  unsigned long long nc;
  PyObject *selo;
  int mean = 0, drop_neg = 0;
  if (!PyArg_ParseTuple(args, "szsddKO|pp", &bys, &value, &sorts, &nf, &ef, &nc, &selo, &mean, &drop_neg))
    return NULL;
  pcol_by by;
  pcol_sort sort;
  pcb_select sel;
  if (get_by(bys, &by) || get_sort(sorts, &sort) || get_sel(selo, &sel)) return NULL;
  if (sort == PCOL_SORT_NAME) {
    PyErr_SetString(PyExc_ValueError, "sort must be 'flat' or 'cum', not 'name'");
    return NULL;
  }
  if (!(nf >= 0 && nf <= 1) || !(ef >= 0 && ef <= 1)) {
    PyErr_SetString(PyExc_ValueError, "node_fraction and edge_fraction must be from 0 to 1");
    return NULL;
  }
  pcol_graph_opts o = pcol_graph_opts_default();
  o.text = o.no_tags = true;
  o.cum_sort = sort == PCOL_SORT_CUM;
  o.node_fraction = nf;
  o.edge_fraction = ef;
  o.node_count = nc > SIZE_MAX ? SIZE_MAX : (size_t)nc;
  o.drop_negative = drop_neg;
  pcol_error err = {0};
  pcol_value_sel v;
  pcol_graph g = {0};
  pcol_value_sel div;
  char mean_type[PCOL_MEAN_TYPE_MAX];
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = pcol_value_resolve(h->f, &sel.sel, value, &v, &err);
  if (!rc && mean && !(rc = pcol_mean_divisor(h->f, &sel.sel, &div, &err))) o.mean_div = &div;
  if (!rc) rc = pcol_graph_compute(h->f, &sel.sel, &v, by, &o, &g, &err);
  if (!rc && mean) g.top.value.type = pcol_mean_type(g.top.value.type, mean_type);
  Py_END_ALLOW_THREADS
  PyObject *cols[NCOLS_MAX], *res = NULL;
  if (rc) {
    pcol_py_raise(h->path, &err, rc);
    goto out0;
  }
  if (new_cols(cols, 8)) goto out;
  /* each node's edges in the edges' order (pprof's), as cmd_tree.c prints them */
  for (size_t i = 0; i < g.nnodes; i++) {
    const pcol_top_row *r = &g.nodes[i];
    for (size_t k = g.in_off[i]; k < g.in_off[i + 1]; k++) {
      const pcol_graph_edge *e = &g.edges[g.in_edge[k]];
      if (tree_edge(cols, r->name, "caller", e->weight, e->inl, g.nodes[e->from].name, r->cum)) goto out;
    }
    if (tree_node(cols, r)) goto out;
    for (size_t k = g.out_off[i]; k < g.out_off[i + 1]; k++) {
      const pcol_graph_edge *e = &g.edges[g.out_edge[k]];
      if (tree_edge(cols, r->name, "callee", e->weight, e->inl, g.nodes[e->to].name, r->cum)) goto out;
    }
  }
  res = Py_BuildValue("(NNN)", cols_tuple(cols, 8), pcol_py_sum(g.total), value_meta(&g.top.value));
out:
  free_cols(cols, 8);
out0:
  pcol_graph_free(&g);
  return res;
}

/* Handle.list(regex, by, value, source_path, allow_any_source, sel, mean,
 * drop_negative) ->
 * (cols, total, meta): cmd_list.c's calls; cols function, file, line,
 * flat, cum, text (a row per line, as --format json), and the blocks'
 * errors (function, file, error) */
PyObject *pcol_py_list(Handle *h, PyObject *args) {
  const char *regex, *bys, *value, *spath;
  int any, mean = 0, drop_neg = 0;
  PyObject *selo;
  if (!PyArg_ParseTuple(args, "sszzpO|pp", &regex, &bys, &value, &spath, &any, &selo, &mean, &drop_neg))
    return NULL;
  pcol_by by;
  if (!strcmp(bys, "function")) by = PCOL_BY_LINE;
  else if (!strcmp(bys, "file")) by = PCOL_BY_SOURCE_LINE;
  else return PyErr_Format(PyExc_ValueError, "by must be 'function' or 'file', not '%s'", bys);
  pcb_select sel;
  if (get_sel(selo, &sel)) return NULL;
  pcol_error err = {0};
  pcol_value_sel v;
  pcol_list l = {0};
  pcol_list_options lo = {spath, any, drop_neg};
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = pcol_value_resolve(h->f, &sel.sel, value, &v, &err);
  if (!rc) rc = pcol_list_compute(h->f, &sel.sel, &v, by, regex, &lo, &l, &err);
  if (!rc && mean) { /* pprof -mean -list: the lines' sums, the mean total (cmd_list.c) */
    pcol_value_sel div;
    rc = pcol_mean_divisor(h->f, &sel.sel, &div, &err);
    if (!rc) rc = pcol_mean_total(h->f, &sel.sel, &l.value, &div, &l.total, &err);
  }
  Py_END_ALLOW_THREADS
  PyObject *cols[NCOLS_MAX], *res = NULL, *errs = NULL;
  if (rc) {
    pcol_py_raise(h->path, &err, rc);
    goto out0;
  }
  if (new_cols(cols, 6) || !(errs = PyList_New(0))) goto out;
  for (size_t i = 0; i < l.nblocks; i++) {
    const pcol_list_block *k = &l.blocks[i];
    if (k->error && put(errs, Py_BuildValue("(NNN)", pcol_py_pstr(k->name), pcol_py_pstr(k->file),
                                            pcol_py_str(k->error, strlen(k->error)))))
      goto out;
    for (size_t j = 0; j < k->nlines; j++) {
      const pcol_list_line *ln = &k->lines[j];
      if (put(cols[0], pcol_py_pstr(k->name)) || put(cols[1], pcol_py_pstr(k->file)) ||
          put(cols[2], PyLong_FromLongLong(ln->line)) || put(cols[3], pcol_py_sum(ln->flat)) ||
          put(cols[4], pcol_py_sum(ln->cum)) || put(cols[5], pcol_py_pstr(ln->text)))
        goto out;
    }
  }
  res = Py_BuildValue("(NNNO)", cols_tuple(cols, 6), pcol_py_sum(l.total), value_meta(&l.value), errs);
out:
  free_cols(cols, 6);
  Py_XDECREF(errs);
out0:
  pcol_list_free(&l);
  return res;
}

/* Handle.tags(value, sel) -> (cols, meta): cmd_tags.c's calls; cols key,
 * value, amount, pct, key_total (each row's key's total, as the CLI's; a
 * sum over keys would mean nothing) */
PyObject *pcol_py_tags(Handle *h, PyObject *args) {
  const char *value;
  PyObject *selo;
  if (!PyArg_ParseTuple(args, "zO", &value, &selo)) return NULL;
  pcb_select sel;
  if (get_sel(selo, &sel)) return NULL;
  pcol_error err = {0};
  pcol_value_sel v;
  pcol_tags t = {0};
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = pcol_value_resolve(h->f, &sel.sel, value, &v, &err);
  if (!rc) rc = pcol_tags_compute(h->f, &sel.sel, &v, &t, &err);
  Py_END_ALLOW_THREADS
  PyObject *cols[NCOLS_MAX], *res = NULL;
  if (rc) {
    pcol_py_raise(h->path, &err, rc);
    goto out0;
  }
  if (new_cols(cols, 5)) goto out;
  for (size_t k = 0; k < t.nkeys; k++) {
    const pcol_tag_key *tk = &t.keys[k];
    for (size_t i = 0; i < tk->nvalues; i++) {
      const pcol_tag_value *tv = &tk->values[i];
      double pct = tk->total ? 100.0 * (double)tv->value / (double)tk->total : 0.0;
      if (put(cols[0], pcol_py_pstr(tk->key)) || put(cols[1], pcol_py_pstr(tv->name)) ||
          put(cols[2], PyLong_FromLongLong(tv->value)) || put(cols[3], PyFloat_FromDouble(pct)) ||
          put(cols[4], PyLong_FromLongLong(tk->total)))
        goto out;
    }
  }
  res = Py_BuildValue("(NN)", cols_tuple(cols, 5), value_meta(&v));
out:
  free_cols(cols, 5);
out0:
  pcol_tags_free(&t);
  return res;
}

/* ---------------------------------------------------------- traces */

typedef struct tr_ctx {
  PyObject *cols[4]; /* value, labels, stack, frames */
  uint64_t left;
  char *buf;
  size_t len, cap;
  int failed; /* a Python error is set */
} tr_ctx;

static int tr_append(tr_ctx *c, const char *p, size_t n) {
  if (c->len + n + 1 > c->cap) {
    size_t cap = (c->len + n + 1) * 2;
    char *b = realloc(c->buf, cap);
    if (!b) return -1;
    c->buf = b;
    c->cap = cap;
  }
  if (n) memcpy(c->buf + c->len, p, n);
  c->len += n;
  c->buf[c->len] = 0;
  return 0;
}

/* a trace as cmd_traces.c writes its machine row: labels "k=v,..." (a
 * numeric label in its unit, else the key as unit, as pprof), the stack
 * root;...;leaf */
static int trace_row(tr_ctx *c, const pcol_trace *t) {
  if (c->left == 0) return 1;
  c->left--;
  c->len = 0;
  if (tr_append(c, "", 0)) return PCOL_ENOMEM;
  for (size_t i = 0; i < t->nlabels; i++) {
    const pcol_label_kv *l = &t->labels[i];
    char b[64];
    if ((i && tr_append(c, ",", 1)) || tr_append(c, l->key.ptr ? l->key.ptr : "", l->key.len) ||
        tr_append(c, "=", 1))
      return PCOL_ENOMEM;
    if (l->str.ptr) {
      if (tr_append(c, l->str.ptr, l->str.len)) return PCOL_ENOMEM;
    } else {
      pcol_str u = l->unit.ptr && l->unit.len ? l->unit : l->key;
      pcol_unit_label(l->num, u, "auto", b, sizeof b);
      if (tr_append(c, b, strlen(b))) return PCOL_ENOMEM;
    }
  }
  PyObject *o[4] = {PyLong_FromLongLong(t->value), pcol_py_str(c->buf, c->len), NULL, NULL};
  size_t sn = pcol_trace_stack_text(t, NULL, 0); /* the line's length, then the line */
  c->len = 0;
  if (tr_append(c, "", 0)) goto nomem;
  if (sn + 1 > c->cap) {
    char *b = realloc(c->buf, sn + 1);
    if (!b) goto nomem;
    c->buf = b;
    c->cap = sn + 1;
  }
  c->len = pcol_trace_stack_text(t, c->buf, sn);
  c->buf[c->len] = 0;
  o[2] = pcol_py_str(c->buf, c->len);
  o[3] = PyTuple_New((Py_ssize_t)t->nframes);
  for (size_t i = 0; o[3] && i < t->nframes; i++) { /* root first, as the stack reads */
    PyObject *s = pcol_py_pstr(t->frames[t->nframes - 1 - i]);
    if (!s) Py_CLEAR(o[3]);
    else PyTuple_SET_ITEM(o[3], (Py_ssize_t)i, s);
  }
  int bad = 0;
  for (int q = 0; q < 4; q++) bad |= !o[q] || PyList_Append(c->cols[q], o[q]) < 0;
  for (int q = 0; q < 4; q++) Py_XDECREF(o[q]);
  if (bad) {
    c->failed = 1;
    return PCOL_ENOMEM;
  }
  return 0;
nomem:
  for (int q = 0; q < 4; q++) Py_XDECREF(o[q]);
  return PCOL_ENOMEM;
}

/* The iterator's callback: a row, or a Python error set where it failed
 * (MemoryError when no buffer could grow). */
static int on_trace(void *ctx, const pcol_trace *t) {
  tr_ctx *c = ctx;
  int rc = trace_row(c, t);
  if (rc < 0 && !c->failed) {
    PyErr_NoMemory();
    c->failed = 1;
  }
  return rc;
}

/* Handle.traces(value, by, limit, sel, mean) -> (cols, meta): cmd_traces.c's
 * calls; cols value, labels, stack, frames (a tuple, root first), each
 * frame named at granularity by.  The GIL stays held: each trace becomes
 * Python objects as it comes. */
PyObject *pcol_py_traces(Handle *h, PyObject *args) {
  const char *value, *bys;
  long long limit;
  PyObject *selo;
  int mean = 0;
  if (!PyArg_ParseTuple(args, "zsLO|p", &value, &bys, &limit, &selo, &mean)) return NULL;
  pcol_by by;
  pcb_select sel;
  if (get_by(bys, &by) || get_sel(selo, &sel)) return NULL;
  pcol_error err = {0};
  pcol_value_sel v;
  tr_ctx c;
  memset(&c, 0, sizeof c);
  c.left = limit < 0 ? UINT64_MAX : (uint64_t)limit;
  PyObject *res = NULL;
  pcol_value_sel div;
  char mean_type[PCOL_MEAN_TYPE_MAX];
  int rc = pcol_value_resolve(h->f, &sel.sel, value, &v, &err);
  if (!rc && mean) rc = pcol_mean_divisor(h->f, &sel.sel, &div, &err);
  if (rc) {
    pcol_py_raise(h->path, &err, rc);
    goto out;
  }
  if (new_cols(c.cols, 4)) goto out;
  rc = pcol_traces_iter_by(h->f, &sel.sel, &v, mean ? &div : NULL, by, on_trace, &c, &err);
  if (mean) v.type = pcol_mean_type(v.type, mean_type);
  if (c.failed) goto out;
  if (rc) {
    pcol_py_raise(h->path, &err, rc);
    goto out;
  }
  res = Py_BuildValue("(NN)", cols_tuple(c.cols, 4), value_meta(&v));
out:
  free_cols(c.cols, 4);
  free(c.buf);
  return res;
}

/* ------------------------------------------------------------ diff */

/* Handle.diff(new, by, value, absolute, sort, limit, sel[, base_sel]) ->
 * (cols, base_total, new_total, meta): cmd_diff.c's calls with self as the
 * base; base_sel (default sel): self's selection, when self was opened
 * with its source and range taken first (File._base_select: sel's source
 * is then new's alone; the value defaults' rule, pcol_value_diff_default,
 * reads each side with its own: self with base_sel, new with sel);
 * cols name, base_flat, new_flat, d_flat, base_cum, new_cum, d_cum
 * (shares and points as floats, or with absolute exact sums), inline (the
 * marks of the rows returned, pcol_diff_mark_inline: pcol diff -n LIMIT
 * --node-fraction 0's) */
PyObject *pcol_py_diff(Handle *h, PyObject *args) {
  Handle *hn;
  const char *bys, *value, *sorts;
  int absolute;
  long long limit;
  PyObject *selo, *bselo = NULL;
  if (!PyArg_ParseTuple(args, "O!szpsLO|O", &pcol_py_HandleType, &hn, &bys, &value, &absolute, &sorts,
                        &limit, &selo, &bselo))
    return NULL;
  pcol_by by;
  pcol_sort sort;
  pcb_select sel, bsel;
  if (get_by(bys, &by) || get_sort(sorts, &sort) || get_sel(selo, &sel) || get_sel(bselo ? bselo : selo, &bsel))
    return NULL;
  pcol_error err = {0};
  pcol_value_sel vb, vn;
  pcol_top tb = {0}, tn = {0};
  pcol_diff d = {0};
  pcol_file *g = NULL; /* by address: the base at the new side's addresses (pcol diff's rule) */
  PyObject *errpath = h->path;
  int rc;
  size_t n = 0; /* the rows returned */
  Py_BEGIN_ALLOW_THREADS
  rc = pcol_value_resolve(h->f, &bsel.sel, value, &vb, &err);
  if (!rc) {
    errpath = hn->path;
    rc = pcol_value_resolve(hn->f, &sel.sel, value, &vn, &err);
  }
  /* no value named: the two defaults as pcol diff takes them (go's
   * -diff_base: the one the new side names, else the base's) */
  if (!rc && !value) {
    errpath = NULL;
    rc = pcol_value_diff_default(h->f, hn->f, &bsel.sel, &sel.sel, &vb, &vn, &err);
  }
  if (!rc) errpath = h->path;
  if (!rc && by == PCOL_BY_ADDRESS) rc = pcol_open_readdressed(h->f, hn->f, &g, &err);
  if (!rc) rc = pcol_top_compute(g ? g : h->f, &bsel.sel, &vb, by, &tb, &err);
  if (!rc) {
    errpath = hn->path;
    rc = pcol_top_compute(hn->f, &sel.sel, &vn, by, &tn, &err);
  }
  if (!rc) errpath = NULL;
  if (!rc) rc = pcol_value_compatible(&tb.value, &tn.value, &err);
  if (!rc) rc = pcol_diff_compute(&tb, &tn, absolute, &d, &err);
  if (!rc) pcol_diff_sort(&d, sort);
  n = limit >= 0 && (unsigned long long)limit < d.nrows ? (size_t)limit : d.nrows;
  /* the rows' marks: of both sides merged, as pcol diff's and go's
   * -diff_base (each side's joined where go refuses to merge them) */
  if (!rc) rc = pcol_diff_mark_inline(g ? g : h->f, hn->f, &bsel.sel, &sel.sel, &tn.value, by, &d, n, NULL, &err);
  Py_END_ALLOW_THREADS
  PyObject *cols[NCOLS_MAX], *res = NULL;
  if (rc) {
    pcol_py_raise(errpath, &err, rc);
    goto out0;
  }
  if (new_cols(cols, 8)) goto out;
  for (size_t k = 0; k < n; k++) {
    const pcol_diff_row *r = &d.rows[k];
    if (put(cols[0], pcol_py_str(r->name.ptr ? r->name.ptr : "", r->name.len))) goto out;
    if (absolute) {
      pcol_sum x[6] = {r->base_flat, r->new_flat, r->abs_flat, r->base_cum, r->new_cum, r->abs_cum};
      for (int q = 0; q < 6; q++)
        if (put(cols[1 + q], pcol_py_sum(x[q]))) goto out;
    } else {
      double x[6] = {pcol_share(r->base_flat, tb.total), pcol_share(r->new_flat, tn.total), r->d_flat,
                     pcol_share(r->base_cum, tb.total), pcol_share(r->new_cum, tn.total), r->d_cum};
      for (int q = 0; q < 6; q++)
        if (put(cols[1 + q], PyFloat_FromDouble(x[q]))) goto out;
    }
    if (put(cols[7], cstr_or_none(inline_name(r->inl)))) goto out;
  }
  res = Py_BuildValue("(NNNN)", cols_tuple(cols, 8), pcol_py_sum(tb.total), pcol_py_sum(tn.total),
                      value_meta(&tn.value));
out:
  free_cols(cols, 8);
out0:
  pcol_diff_free(&d);
  pcol_top_free(&tb);
  pcol_top_free(&tn);
  if (g) pcol_close(g);
  return res;
}

/* ------------------------------------------------------------ fold */

/* Handle.fold(value, max_output, sel) -> (bytes, meta): cmd_fold.c's call,
 * the collapsed text as pcol_fold_write writes it (into memory). */
PyObject *pcol_py_fold(Handle *h, PyObject *args) {
  const char *value;
  unsigned long long max_output;
  PyObject *selo;
  if (!PyArg_ParseTuple(args, "zKO", &value, &max_output, &selo)) return NULL;
  pcb_select sel;
  if (get_sel(selo, &sel)) return NULL;
  pcol_error err = {0};
  pcol_value_sel v;
  pcol_export_options eo = {.max_output_bytes = max_output};
  char *buf = NULL;
  size_t len = 0;
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = pcol_value_resolve(h->f, &sel.sel, value, &v, &err);
  if (!rc) {
    FILE *fp = open_memstream(&buf, &len);
    if (!fp) rc = pcol_error_set(&err, PCOL_ENOMEM, "out of memory");
    else {
      rc = pcol_fold_write(h->f, &sel.sel, &v, &eo, fp, &err);
      if (fclose(fp) && !rc) rc = pcol_error_set(&err, PCOL_ENOMEM, "out of memory");
    }
  }
  Py_END_ALLOW_THREADS
  PyObject *res = NULL;
  if (rc) pcol_py_raise(h->path, &err, rc);
  else res = Py_BuildValue("(y#N)", buf ? buf : "", (Py_ssize_t)len, value_meta(&v));
  free(buf);
  return res;
}

/* -------------------------------------------------------- view notes */

/* Handle.view_notes(value, sel, by[, other]) -> [str]: the data warnings
 * every view of the CLI prints after opening its inputs (pcb_view_notes,
 * the library's rule and words: a label key in several units, a filter
 * that matched no sample, the fall-back to samples of sources measuring
 * different values, each selected source without the value, a relative
 * range over several recordings, a range that selects no sample), "PATH:
 * TEXT" each (a filter's: "TEXT"), for File's views to give as
 * UserWarnings; by: the view's ("label:KEY": its filters see KEY's
 * frames), or None; with other, of the two sides of a diff (this one the
 * base), as `pcol diff` says them (a filter's once, of both), and
 * base_sel (default sel) this side's selection as Handle.diff's: each
 * side's notes are then said of its own selection (pcol_view_notes' sels:
 * this side's base_sel, other's sel, whose source is new's alone).  A value that does not resolve:
 * none (the view raises). */
PyObject *pcol_py_view_notes(Handle *h, PyObject *args) {
  const char *value, *by;
  PyObject *selo;
  Handle *other = NULL;
  PyObject *bselo = NULL;
  if (!PyArg_ParseTuple(args, "zOz|O!O", &value, &selo, &by, &pcol_py_HandleType, &other, &bselo)) return NULL;
  pcb_select sel, osel; /* this side's, and other's */
  if (get_sel(bselo ? bselo : selo, &sel) || (other && get_sel(selo, &osel))) return NULL;
  const pcol_select *sels[2] = {&sel.sel, &osel.sel};
  size_t n = other ? 2 : 1;
  PyObject *label[2] = {PyUnicode_EncodeFSDefault(h->path), other ? PyUnicode_EncodeFSDefault(other->path) : NULL};
  PyObject *res = PyList_New(0);
  if (!label[0] || (other && !label[1]) || !res) {
    Py_XDECREF(label[0]);
    Py_XDECREF(label[1]);
    Py_XDECREF(res);
    return NULL;
  }
  const char *l[2] = {PyBytes_AS_STRING(label[0]), other ? PyBytes_AS_STRING(label[1]) : NULL};
  pcol_file *f[2] = {h->f, other ? other->f : NULL};
  pcol_value_sel v[2];
  pcol_error err = {0};
  char *notes = NULL;
  Py_BEGIN_ALLOW_THREADS
  int rc = pcol_value_resolve(f[0], &sel.sel, value, &v[0], &err);
  if (!rc && other) rc = pcol_value_resolve(f[1], &osel.sel, value, &v[1], &err);
  if (!rc)
    notes = pcb_view_notes(f, n, by, &sel.sel, other ? sels : NULL, v, value != NULL, l, "name one with value='TYPE'", 0);
  Py_END_ALLOW_THREADS
  Py_DECREF(label[0]);
  Py_XDECREF(label[1]);
  for (const char *m = notes, *nl; m && *m; m = nl + 1) {
    if (!(nl = strchr(m, '\n'))) break;
    if (put(res, pcol_py_str(m, (size_t)(nl - m)))) { /* (paths as pcol_py_raise's) */
      Py_CLEAR(res);
      break;
    }
  }
  free(notes);
  return res;
}

/* ---------------------------------------------------------- sources */

static PyObject *i64_or_none(int64_t v) {
  if (v == PCOL_NA_I64) Py_RETURN_NONE;
  return PyLong_FromLongLong(v);
}

/* Handle.sources() -> cols: pcol_source_summaries (what `pcol info` says of
 * each source; O(sources) in a file with format 1.3's summary): source_id,
 * source_type, source_uri, samples (rows), count (raw samples, THE count
 * rule), first_ns, end_ns, duration_ns, period, period_type, period_unit
 * (None where the CLI writes NA) */
PyObject *pcol_py_sources(Handle *h, PyObject *unused) {
  pcol_source_summary *s = NULL;
  size_t n = 0;
  pcol_error err = {0};
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = pcol_source_summaries(h->f, &s, &n, &err);
  Py_END_ALLOW_THREADS
  if (rc) return pcol_py_raise(h->path, &err, rc);
  enum { NC = 11 };
  PyObject *cols[NCOLS_MAX + 1], *res = NULL;
  if (new_cols(cols, NC)) goto out;
  for (size_t i = 0; i < n; i++) {
    const pcol_source_summary *x = &s[i];
    if (put(cols[0], PyLong_FromUnsignedLong(x->id)) || put(cols[1], pcol_py_pstr(x->type)) ||
        put(cols[2], pcol_py_pstr(x->uri)) || put(cols[3], PyLong_FromUnsignedLongLong(x->samples)) ||
        put(cols[4], pcol_py_sum(x->count)) || put(cols[5], i64_or_none(x->first_ns)) ||
        put(cols[6], i64_or_none(x->end_ns)) || put(cols[7], i64_or_none(x->duration_ns)) ||
        put(cols[8], i64_or_none(x->period)) || put(cols[9], pcol_py_pstr(x->period_type)) ||
        put(cols[10], pcol_py_pstr(x->period_unit)))
      goto out;
  }
  res = cols_tuple(cols, NC);
out:
  free_cols(cols, NC);
  pcol_source_summaries_free(s, n);
  return res;
}
