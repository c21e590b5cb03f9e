/* writer_r.c — the streaming writer (pcol_writer through the glue's
 * pcb_writer) for R: an external pointer whose finalizer closes it (which
 * publishes what is pending, as close does).  R/writer.R flattens stacks,
 * values, times and labels into the vectors these entry points take. */
#include "pcolb.h"
#include "pcol_r.h"
#include <math.h>
#include <string.h>

static void writer_finalize(SEXP x) {
  pcb_writer_free(R_ExternalPtrAddr(x));
  R_ClearExternalPtr(x);
}

static pcb_writer *writer_of(SEXP x, int need_open) {
  if (TYPEOF(x) != EXTPTRSXP || !Rf_inherits(x, "pcol_writer")) Rf_error("not a pcol writer");
  pcb_writer *pw = R_ExternalPtrAddr(x);
  if (!pw || (need_open && !pw->w)) Rf_error("the pcol writer is closed");
  return pw;
}

/* one string (UTF-8; NULL for NA or NULL), living until the .Call returns */
static const char *str1(SEXP s, const char *what) {
  if (Rf_isNull(s)) return NULL;
  if (!Rf_isString(s) || XLENGTH(s) != 1) Rf_error("%s must be one string", what);
  return STRING_ELT(s, 0) == NA_STRING ? NULL : Rf_translateCharUTF8(STRING_ELT(s, 0));
}

/* a character vector as UTF-8 C strings (NA -> NULL, refused unless may_na) */
static const char **strs(SEXP s, R_xlen_t n, int may_na, const char *what) {
  if (!Rf_isString(s) || XLENGTH(s) != n) Rf_error("%s: %lld strings expected", what, (long long)n);
  const char **a = (const char **)R_alloc((size_t)n + 1, sizeof *a);
  for (R_xlen_t i = 0; i < n; i++) {
    SEXP c = STRING_ELT(s, i);
    if (c == NA_STRING && !may_na) Rf_error("%s: NA at %lld", what, (long long)i + 1);
    a[i] = c == NA_STRING ? NULL : Rf_translateCharUTF8(c);
  }
  return a;
}

/* whole numbers (doubles) as int64; NA -> na (refused when na is 0 and
 * not allowed) */
static int64_t *i64s(SEXP x, R_xlen_t n, int may_na, const char *what) {
  if (TYPEOF(x) == INTSXP || TYPEOF(x) == LGLSXP) x = Rf_coerceVector(x, REALSXP);
  if (TYPEOF(x) != REALSXP || XLENGTH(x) != n) Rf_error("%s: %lld numbers expected", what, (long long)n);
  PROTECT(x);
  int64_t *a = (int64_t *)R_alloc((size_t)n + 1, sizeof *a);
  const double *d = REAL(x);
  for (R_xlen_t i = 0; i < n; i++) {
    if (ISNAN(d[i])) {
      if (!may_na) Rf_error("%s: NA at %lld", what, (long long)i + 1);
      a[i] = PCOL_NA_I64;
    } else if (d[i] != floor(d[i]) || !(fabs(d[i]) < 9.2e18)) {
      Rf_error("%s: %g at %lld is not a whole number in range", what, d[i], (long long)i + 1);
    } else {
      a[i] = (int64_t)d[i];
    }
  }
  UNPROTECT(1);
  return a;
}

static size_t *offsets(SEXP x, R_xlen_t n, const char *what) {
  int64_t *o = i64s(x, n + 1, 0, what);
  size_t *a = (size_t *)R_alloc((size_t)n + 1, sizeof *a);
  for (R_xlen_t i = 0; i <= n; i++) {
    if (o[i] < 0 || (i && o[i] < o[i - 1]) || (i == 0 && o[0] != 0)) Rf_error("%s: bad offsets", what);
    a[i] = (size_t)o[i];
  }
  return a;
}

/* .Call(C_writer_open, path, types, units, source_type, source_uri,
 *       meta_keys, meta_values, period, period_type, period_unit,
 *       roll_samples, roll_ns, compress) */
SEXP C_writer_open(SEXP path, SEXP types, SEXP units, SEXP source_type, SEXP source_uri, SEXP mk, SEXP mv,
                   SEXP period, SEXP period_type, SEXP period_unit, SEXP roll_samples, SEXP roll_ns,
                   SEXP compress) {
  if (!Rf_isString(path) || XLENGTH(path) != 1 || STRING_ELT(path, 0) == NA_STRING)
    Rf_error("path must be one file name");
  R_xlen_t nvt = XLENGTH(types), nm = XLENGTH(mk);
  const char **t = strs(types, nvt, 0, "value types"), **u = strs(units, nvt, 0, "value units");
  const char **k = strs(mk, nm, 0, "meta keys"), **v = strs(mv, nm, 0, "meta values");
  pcol_writer_value_type *vt = (pcol_writer_value_type *)R_alloc((size_t)nvt + 1, sizeof *vt);
  const char **meta = (const char **)R_alloc(2 * (size_t)nm + 1, sizeof *meta);
  for (R_xlen_t i = 0; i < nvt; i++) vt[i] = (pcol_writer_value_type){t[i], u[i]};
  for (R_xlen_t i = 0; i < nm; i++) meta[2 * i] = k[i], meta[2 * i + 1] = v[i];
  pcol_writer_options o;
  memset(&o, 0, sizeof o);
  o.source_type = str1(source_type, "source_type");
  o.source_uri = str1(source_uri, "source_uri");
  o.meta = meta;
  o.nmeta = (size_t)nm;
  o.value_types = vt;
  o.nvalue_types = (size_t)nvt;
  o.period = *i64s(period, 1, 0, "period");
  o.period_type = str1(period_type, "period type");
  o.period_unit = str1(period_unit, "period unit");
  int64_t rs = *i64s(roll_samples, 1, 0, "roll_samples"), rn = *i64s(roll_ns, 1, 0, "roll_seconds");
  if (rs < 0 || rn < 0) Rf_error("roll_samples and roll_seconds must be >= 0");
  o.roll_samples = (uint64_t)rs;
  o.roll_ns = (uint64_t)rn;
  o.write.compress_lz4 = Rf_asLogical(compress) == TRUE;
  const char *p = R_ExpandFileName(Rf_translateChar(STRING_ELT(path, 0)));
  pcb_writer *pw = NULL;
  pcol_error err = {0};
  int rc = pcb_writer_open(&pw, p, &o, &err);
  if (rc) pcol_stop(Rf_translateCharUTF8(STRING_ELT(path, 0)), &err, rc);
  SEXP x = PROTECT(R_MakeExternalPtr(pw, path, R_NilValue));
  R_RegisterCFinalizerEx(x, writer_finalize, TRUE);
  Rf_setAttrib(x, R_ClassSymbol, Rf_mkString("pcol_writer"));
  UNPROTECT(1);
  return x;
}

/* .Call(C_writer_add, w, frame_off, function, file, line, values, nvalues,
 *       time_ns, weight, label_off, label_key, label_str, label_num):
 * the number of samples added; an error names the refused sample. */
SEXP C_writer_add(SEXP w, SEXP foff, SEXP fn, SEXP file, SEXP line, SEXP values, SEXP nvalues, SEXP time_ns,
                  SEXP weight, SEXP loff, SEXP lkey, SEXP lstr, SEXP lnum) {
  pcb_writer *pw = writer_of(w, 1);
  R_xlen_t n = XLENGTH(foff) - 1, k = Rf_asInteger(nvalues);
  if (n < 0 || k < 1) Rf_error("bad batch");
  pcb_wbatch b;
  memset(&b, 0, sizeof b);
  b.n = (size_t)n;
  b.frame_off = offsets(foff, n, "frames");
  R_xlen_t nf = (R_xlen_t)b.frame_off[n];
  b.function = strs(fn, nf, 1, "functions");
  if (!Rf_isNull(file)) b.file = strs(file, nf, 1, "files");
  if (!Rf_isNull(line)) b.line = i64s(line, nf, 1, "lines");
  b.values = i64s(values, n * k, 0, "values");
  b.nvalues = (size_t)k;
  if (!Rf_isNull(time_ns)) b.time_ns = i64s(time_ns, n, 1, "times");
  if (!Rf_isNull(weight)) b.weight = i64s(weight, n, 0, "weights");
  if (!Rf_isNull(loff)) {
    b.label_off = offsets(loff, n, "labels");
    R_xlen_t nl = (R_xlen_t)b.label_off[n];
    b.label_key = strs(lkey, nl, 0, "label keys");
    b.label_str = strs(lstr, nl, 1, "label values");
    b.label_num = i64s(lnum, nl, 1, "label numbers");
  }
  size_t done = 0;
  pcol_error err = {0};
  int rc = pcb_writer_add(pw, &b, &done, &err);
  if (rc) pcol_stop(path_of(w), &err, rc);
  return Rf_ScalarReal((double)done);
}

/* .Call(C_writer_op, w, op): "flush", "poll", "close", "files", "pending" */
SEXP C_writer_op(SEXP w, SEXP op) {
  const char *o = str1(op, "op");
  if (!o) Rf_error("op");
  pcb_writer *pw = writer_of(w, !strcmp(o, "flush") || !strcmp(o, "poll"));
  pcol_error err = {0};
  int rc = PCOL_OK;
  if (!strcmp(o, "flush")) rc = pcol_writer_flush(pw->w, &err);
  else if (!strcmp(o, "poll")) rc = pcol_writer_poll(pw->w, &err);
  else if (!strcmp(o, "close")) rc = pcb_writer_close(pw, &err);
  else if (!strcmp(o, "pending")) return Rf_ScalarReal(pw->w ? (double)pcol_writer_pending(pw->w) : 0);
  else if (!strcmp(o, "open")) return Rf_ScalarLogical(pw->w != NULL);
  else if (strcmp(o, "files")) Rf_error("no writer operation '%s'", o);
  if (rc) pcol_stop(path_of(w), &err, rc);
  SEXP f = PROTECT(Rf_allocVector(STRSXP, (R_xlen_t)pw->nfiles));
  for (size_t i = 0; i < pw->nfiles; i++) SET_STRING_ELT(f, (R_xlen_t)i, Rf_mkChar(pw->files[i]));
  UNPROTECT(1);
  return f;
}
