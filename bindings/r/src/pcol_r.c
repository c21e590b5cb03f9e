/* pcol_r.c — the R package's C code (.Call entry points).
 *
 * A file is an external pointer whose finalizer closes it.  Columns the
 * file stores become ALTREP vectors over the file's memory (altrep = TRUE):
 * their data1 is a small state (pointer, length) whose external pointer
 * protects the file's, so the file stays open while any column lives, and
 * values are converted on access (ids: 0 -> NA; i64: INT64_MIN -> NA,
 * else a double).  A column is copied into an ordinary vector only when R
 * asks for a writable pointer (DATAPTR).  With altrep = FALSE, or for
 * computed columns, ordinary vectors are filled in one pass.  The views come
 * from bindings/common (pcolb.h), shared with the Python package. */
#define R_NO_REMAP
#include <R.h>
#include <Rinternals.h>
#include <R_ext/Rdynload.h>
#include <R_ext/Altrep.h>

#include "pcolb.h"
#include "pcol_r.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- errors */

/* Stops with the library's message, naming the file.  Callers free what
 * they own first: this does not return. */
void NORET pcol_stop(const char *path, const pcol_error *err, int rc) {
  const char *m = err && err->message[0] ? err->message : pcol_strerror(rc);
  if (path && !strstr(m, path)) Rf_errorcall(R_NilValue, "%s: %s", path, m);
  Rf_errorcall(R_NilValue, "%s", m);
}

/* -------------------------------------------------------------- files */

static void file_finalize(SEXP x) {
  pcol_file *f = R_ExternalPtrAddr(x);
  if (f) pcol_close(f);
  R_ClearExternalPtr(x);
}

pcol_file *file_of(SEXP x) {
  if (TYPEOF(x) != EXTPTRSXP) Rf_error("not a pcol file handle");
  pcol_file *f = R_ExternalPtrAddr(x);
  if (!f) Rf_error("the pcol file handle is closed");
  return f;
}

const char *path_of(SEXP x) {
  SEXP t = R_ExternalPtrTag(x);
  return TYPEOF(t) == STRSXP ? Rf_translateCharUTF8(STRING_ELT(t, 0)) : NULL;
}

/* What the inputs' expansion has to say (pcb_inputs_notes: a directory's
 * index not used and why, glob matches skipped), an R warning per line,
 * without a call.  notes is freed first: under options(warn = 2) a warning
 * longjmps. */
void pcolr_warn_notes(char *notes) {
  char *t = NULL;
  if (notes) {
    size_t n = strlen(notes) + 1;
    t = R_alloc(n, 1); /* (an R allocation that fails longjmps: notes would leak) */
    memcpy(t, notes, n);
    free(notes);
  }
  for (const char *m = t, *nl; m && *m; m = nl + 1) {
    if (!(nl = strchr(m, '\n'))) break;
    Rf_warningcall(R_NilValue, "%.*s", (int)(nl - m), m);
  }
}

/* ------------------------------------------------ whole numbers as doubles */

/* R has no 64-bit integer: i64 and u64 cells and the views' sums are
 * doubles, exact up to 2^53; past it a number a double cannot hold is
 * rounded.  pcolr_dbl converts and notes the first such in *l; the caller
 * says it in one warning (pcolr_warn_lost), as read_pcol's ALTREP columns
 * say it of the first value R reads rounded (lost_check). */
static int dbl_inexact(pcol_sum x, double d) {
  if (x <= ((pcol_sum)1 << 53) && x >= -((pcol_sum)1 << 53)) return 0;
  if (d >= 0x1p126 || d <= -0x1p126) return 1; /* (no sum is that large) */
  return (pcol_sum)d != x;
}

double pcolr_dbl(pcol_sum x, pcolr_lost *l) {
  double d = (double)x;
  if (l && !l->n && dbl_inexact(x, d)) {
    l->n = 1;
    l->first = x;
  }
  return d;
}

/* "PATH: WHAT: values past 2^53 are rounded ...: 9007199254740993 is
 * 9007199254740992" into buf */
static void lost_text(char *buf, size_t cap, const char *path, const char *what, pcol_sum x) {
  char a[48];
  pcol_sum_text(x, a, sizeof a);
  snprintf(buf, cap,
           "%s%s%s: values past 2^53 are rounded, as R doubles hold whole numbers exactly only up to it "
           "(the CLI and Python give them exactly): %s is %.0f here",
           path ? path : "", path ? ": " : "", what, a, (double)x);
}

void pcolr_warn_lost(const pcolr_lost *l, const char *path, const char *what) {
  if (!l->n) return;
  char buf[1024];
  lost_text(buf, sizeof buf, path, what, l->first);
  Rf_warningcall(R_NilValue, "%s", buf);
}

/* .Call(C_open, path, mmap): a pcol file, or any format pcol imports, or
 * the union of a directory's or a glob's files (pcb_open: through a
 * directory's index when it stands for them), warning what the expansion
 * notes. */
SEXP C_open(SEXP path, SEXP mmap) {
  if (!Rf_isString(path) || XLENGTH(path) != 1 || STRING_ELT(path, 0) == NA_STRING)
    Rf_error("path must be one file name");
  const char *p = R_ExpandFileName(Rf_translateChar(STRING_ELT(path, 0)));
  pcol_open_options opt = {0};
  opt.no_mmap = !Rf_asLogical(mmap);
  pcol_file *f = NULL;
  pcol_error err = {0};
  char *notes = NULL;
  int rc = pcb_open(p, &opt, &f, &notes, &err);
  if (rc) {
    pcolr_warn_notes(notes); /* what was noted before it failed, then the error */
    pcol_stop(Rf_translateCharUTF8(STRING_ELT(path, 0)), &err, rc);
  }
  SEXP x = PROTECT(R_MakeExternalPtr(f, path, R_NilValue));
  R_RegisterCFinalizerEx(x, file_finalize, TRUE);
  pcolr_warn_notes(notes);
  UNPROTECT(1);
  return x;
}

/* .Call(C_tag_frames, f, root, leaf, unit): f's copy with pprof's
 * -tagroot/-tagleaf frames (pcol_open_tag_frames; root, leaf: NULL or one
 * string of keys; unit: NULL or the numbers' unit, pprof's -unit). */
static const char *str1_or_null(SEXP x) {
  return Rf_isString(x) && XLENGTH(x) == 1 && STRING_ELT(x, 0) != NA_STRING
             ? Rf_translateCharUTF8(STRING_ELT(x, 0))
             : NULL;
}

/* The library's warning in err (a success's: pcol_open_tag_frames' "TagRoot
 * expression matched no samples"), an R warning per line, without a call
 * (a longjmp under options(warn = 2): called when nothing is left to free). */
static void warn_lines(const pcol_error *err) {
  for (const char *m = err->message, *nl; *m; m = nl ? nl + 1 : m + strlen(m)) {
    nl = strchr(m, '\n');
    Rf_warningcall(R_NilValue, "%.*s", (int)(nl ? (size_t)(nl - m) : strlen(m)), m);
  }
}

SEXP C_tag_frames(SEXP x, SEXP root, SEXP leaf, SEXP unit) {
  pcol_file *f = file_of(x), *t = NULL;
  const char *r = str1_or_null(root), *l = str1_or_null(leaf), *u = str1_or_null(unit);
  /* the handle first (an R allocation that fails longjmps: nothing to leak) */
  SEXP y = PROTECT(R_MakeExternalPtr(NULL, R_ExternalPtrTag(x), R_NilValue));
  R_RegisterCFinalizerEx(y, file_finalize, TRUE);
  pcol_error err = {0};
  int rc = pcol_open_tag_frames(f, r, l, u && strcmp(u, "auto") ? u : NULL, &t, &err);
  if (rc) pcol_stop(path_of(x), &err, rc);
  R_SetExternalPtrAddr(y, t);
  warn_lines(&err); /* pprof's: a key no sample has */
  UNPROTECT(1);
  return y;
}

/* .Call(C_tag_frames_pair, f, g, root, leaf, unit): the copies of both
 * sides of a comparison with the frames (pcol_open_tag_frames_pair: a key
 * need be on one side only), as a list of two handles. */
SEXP C_tag_frames_pair(SEXP x, SEXP xg, SEXP root, SEXP leaf, SEXP unit) {
  pcol_file *f = file_of(x), *g = file_of(xg), *tf = NULL, *tg = NULL;
  const char *r = str1_or_null(root), *l = str1_or_null(leaf), *u = str1_or_null(unit);
  SEXP out = PROTECT(Rf_allocVector(VECSXP, 2));
  SEXP y = R_MakeExternalPtr(NULL, R_ExternalPtrTag(x), R_NilValue);
  SET_VECTOR_ELT(out, 0, y);
  R_RegisterCFinalizerEx(y, file_finalize, TRUE);
  SEXP yg = R_MakeExternalPtr(NULL, R_ExternalPtrTag(xg), R_NilValue);
  SET_VECTOR_ELT(out, 1, yg);
  R_RegisterCFinalizerEx(yg, file_finalize, TRUE);
  pcol_error err = {0};
  int side = 0; /* whose error: the message names that file */
  int rc = pcol_open_tag_frames_pair(f, g, r, l, u && strcmp(u, "auto") ? u : NULL, &tf, &tg, &side, &err);
  if (rc) pcol_stop(path_of(side ? xg : x), &err, rc);
  R_SetExternalPtrAddr(y, tf);
  R_SetExternalPtrAddr(yg, tg);
  warn_lines(&err); /* pprof's: keys no sample of either side has */
  UNPROTECT(1);
  return out;
}

/* .Call(C_diff_base, f, base, diff, normalize, source, from, to): f minus
 * the profile at path `base` (pcol_open_diff_base_select: pprof -base, or
 * -diff_base when diff is TRUE; normalize TRUE: f first scaled to the
 * base's totals, pprof -normalize), each side's selection made first, as
 * the CLI's --base/--diff-base: source N (NULL: all) is source N of f and
 * of the base, from/to (query.R's, NULL: unset) the range of each (the
 * views then take the same range of the union, and no source). */
SEXP C_diff_base(SEXP x, SEXP base, SEXP diff, SEXP normalize, SEXP source, SEXP from, SEXP to) {
  pcol_file *f = file_of(x), *bf = NULL, *u = NULL;
  if (!Rf_isString(base) || XLENGTH(base) != 1 || STRING_ELT(base, 0) == NA_STRING)
    Rf_error("base must be one file name");
  pcol_select sel;
  memset(&sel, 0, sizeof sel);
  if (source != R_NilValue) {
    double d = Rf_asReal(source);
    if (!(d >= 1 && d <= UINT32_MAX) || d != (double)(uint32_t)d) Rf_error("source must be a source_id (1 or more)");
    sel.source_id = (uint32_t)d;
  }
  pcol_r_range(from, to, &sel);
  const char *p = R_ExpandFileName(Rf_translateChar(STRING_ELT(base, 0)));
  SEXP y = PROTECT(R_MakeExternalPtr(NULL, R_ExternalPtrTag(x), R_NilValue));
  R_RegisterCFinalizerEx(y, file_finalize, TRUE);
  pcol_open_options opt = {0};
  pcol_error err = {0};
  char *notes = NULL;
  int rc = pcb_open(p, &opt, &bf, &notes, &err); /* a directory or a glob too, as the CLI's --base */
  if (rc) pcolr_warn_notes(notes);
  if (rc) pcol_stop(Rf_translateCharUTF8(STRING_ELT(base, 0)), &err, rc);
  unsigned flags = (Rf_asLogical(diff) == TRUE ? PCOL_BASE_DIFF : 0) |
                   (Rf_asLogical(normalize) == TRUE ? PCOL_BASE_NORMALIZE : 0);
  int side = 1; /* whose error, as the CLI names it: the profile's selection (0) or the base's */
  rc = pcol_open_diff_base_select(f, bf, &sel, flags, &u, &side, &err);
  pcol_close(bf);
  if (rc) free(notes);
  if (rc) pcol_stop(side ? Rf_translateCharUTF8(STRING_ELT(base, 0)) : path_of(x), &err, rc);
  R_SetExternalPtrAddr(y, u);
  pcolr_warn_notes(notes); /* (u is y's now) */
  UNPROTECT(1);
  return y;
}

SEXP C_close(SEXP x) {
  if (TYPEOF(x) == EXTPTRSXP) file_finalize(x);
  return R_NilValue;
}

/* ------------------------------------------------------------- ALTREP */

typedef struct colstate {
  const void *p; /* the column in the file's memory */
  R_xlen_t n;
  int ival;      /* constant columns (absent from the file): the value */
  double dval;
  char *what;    /* i64, u64: "PATH: view$column" for lost_check (malloc'd), or NULL */
  int warned;    /* lost_check said it */
} colstate;

static R_altrep_class_t cls_ref, cls_i64, cls_u64, cls_f64, cls_lgl, cls_cint, cls_creal, cls_clgl;

static void state_finalize(SEXP x) {
  colstate *s = R_ExternalPtrAddr(x);
  if (s) free(s->what);
  free(s);
  R_ClearExternalPtr(x);
}

static colstate *st(SEXP x) { return R_ExternalPtrAddr(R_altrep_data1(x)); }

static R_xlen_t alt_length(SEXP x) { return st(x)->n; }

/* element conversions */
static inline int ref_at(const colstate *s, R_xlen_t i) {
  uint32_t v = ((const uint32_t *)s->p)[i];
  return v ? (int)v : NA_INTEGER; /* ids fit: checked when the vector is made */
}
static inline double i64_at(const colstate *s, R_xlen_t i) {
  int64_t v = ((const int64_t *)s->p)[i];
  return v == PCOL_NA_I64 ? NA_REAL : (double)v;
}
static inline double u64_at(const colstate *s, R_xlen_t i) { return (double)((const uint64_t *)s->p)[i]; }
static inline double f64_at(const colstate *s, R_xlen_t i) { return ((const double *)s->p)[i]; }
static inline int lgl_at(const colstate *s, R_xlen_t i) { return ((const uint8_t *)s->p)[i] != 0; }
static inline int cint_at(const colstate *s, R_xlen_t i) { return s->ival; }
static inline double creal_at(const colstate *s, R_xlen_t i) { return s->dval; }
static inline int clgl_at(const colstate *s, R_xlen_t i) { return s->ival; }

/* i64, u64 columns: the first value of rows [i, i + n) that R gets rounded
 * (past 2^53: pcolr_dbl's rule), said in a warning once per column, when R
 * reads it (nothing is read before) */
static void lost_check(SEXP x, R_xlen_t i, R_xlen_t n, int u) {
  colstate *s = st(x);
  if (s->warned || !s->what || !s->p) return;
  pcolr_lost l = {0};
  for (R_xlen_t k = i; k < i + n && !l.n; k++) {
    pcol_sum v = u ? (pcol_sum)((const uint64_t *)s->p)[k] : (pcol_sum)((const int64_t *)s->p)[k];
    if (u || v != PCOL_NA_I64) pcolr_dbl(v, &l);
  }
  if (!l.n) return;
  s->warned = 1;
  pcolr_warn_lost(&l, NULL, s->what);
}
static void i64_check(SEXP x, R_xlen_t i, R_xlen_t n) { lost_check(x, i, n, 0); }
static void u64_check(SEXP x, R_xlen_t i, R_xlen_t n) { lost_check(x, i, n, 1); }
#define none_check(x, i, n) ((void)0)
#define ref_check none_check
#define f64_check none_check
#define lgl_check none_check
#define cint_check none_check
#define creal_check none_check
#define clgl_check none_check

#define ALT_COMMON(NAME, SEXPTYPE, CTYPE, ACCESS, AT)                                              \
  static void NAME##_fill(const colstate *s, R_xlen_t i, R_xlen_t n, CTYPE *buf) {                 \
    for (R_xlen_t k = 0; k < n; k++) buf[k] = AT(s, i + k);                                        \
  }                                                                                                \
  static SEXP NAME##_plain(SEXP x) { /* an ordinary copy */                                        \
    const colstate *s = st(x);                                                                     \
    SEXP v = PROTECT(Rf_allocVector(SEXPTYPE, s->n));                                              \
    NAME##_fill(s, 0, s->n, ACCESS(v));                                                            \
    NAME##_check(x, 0, s->n);                                                                      \
    UNPROTECT(1);                                                                                  \
    return v;                                                                                      \
  }                                                                                                \
  static void *NAME##_dataptr(SEXP x, Rboolean writeable) {                                        \
    SEXP d = R_altrep_data2(x);                                                                    \
    if (d == R_NilValue) {                                                                         \
      d = NAME##_plain(x);                                                                         \
      R_set_altrep_data2(x, d);                                                                    \
    }                                                                                              \
    return ACCESS(d);                                                                              \
  }                                                                                                \
  static R_xlen_t NAME##_region(SEXP x, R_xlen_t i, R_xlen_t n, CTYPE *buf) {                      \
    const colstate *s = st(x);                                                                     \
    R_xlen_t m = i >= s->n ? 0 : (n < s->n - i ? n : s->n - i);                                    \
    SEXP d = R_altrep_data2(x);                                                                    \
    if (d != R_NilValue) memcpy(buf, ACCESS(d) + i, (size_t)m * sizeof(CTYPE));                    \
    else {                                                                                         \
      NAME##_fill(s, i, m, buf);                                                                   \
      NAME##_check(x, i, m);                                                                       \
    }                                                                                              \
    return m;                                                                                      \
  }                                                                                                \
  static SEXP NAME##_duplicate(SEXP x, Rboolean deep) {                                            \
    SEXP d = R_altrep_data2(x);                                                                    \
    return d != R_NilValue ? Rf_duplicate(d) : NAME##_plain(x);                                    \
  }                                                                                                \
  static Rboolean NAME##_inspect(SEXP x, int pre, int deep, int pvec,                              \
                                 void (*inspect_subtree)(SEXP, int, int, int)) {                  \
    Rprintf(" pcol %s column %s (%lld rows%s)\n", #NAME,                                           \
            st(x)->p ? "over the file's memory" : "of one value (absent from the file)",           \
            (long long)st(x)->n, R_altrep_data2(x) == R_NilValue ? "" : ", copied");               \
    return TRUE;                                                                                   \
  }

ALT_COMMON(ref, INTSXP, int, INTEGER, ref_at)
ALT_COMMON(i64, REALSXP, double, REAL, i64_at)
ALT_COMMON(u64, REALSXP, double, REAL, u64_at)
ALT_COMMON(f64, REALSXP, double, REAL, f64_at)
ALT_COMMON(lgl, LGLSXP, int, LOGICAL, lgl_at)
ALT_COMMON(cint, INTSXP, int, INTEGER, cint_at)
ALT_COMMON(creal, REALSXP, double, REAL, creal_at)
ALT_COMMON(clgl, LGLSXP, int, LOGICAL, clgl_at)

static int ref_elt(SEXP x, R_xlen_t i) {
  SEXP d = R_altrep_data2(x);
  return d != R_NilValue ? INTEGER(d)[i] : ref_at(st(x), i);
}
#define INT_ELT_FN(NAME, ACCESS, AT)                                                              \
  static int NAME##_elt(SEXP x, R_xlen_t i) {                                                      \
    SEXP d = R_altrep_data2(x);                                                                    \
    return d != R_NilValue ? ACCESS(d)[i] : AT(st(x), i);                                          \
  }
INT_ELT_FN(cint, INTEGER, cint_at)
INT_ELT_FN(clgl, LOGICAL, clgl_at)
static int lgl_elt(SEXP x, R_xlen_t i) {
  SEXP d = R_altrep_data2(x);
  return d != R_NilValue ? LOGICAL(d)[i] : lgl_at(st(x), i);
}
#define REAL_ELT_FN(NAME, AT)                                                                      \
  static double NAME##_elt(SEXP x, R_xlen_t i) {                                                   \
    SEXP d = R_altrep_data2(x);                                                                    \
    if (d != R_NilValue) return REAL(d)[i];                                                        \
    NAME##_check(x, i, 1);                                                                         \
    return AT(st(x), i);                                                                           \
  }
REAL_ELT_FN(i64, i64_at)
REAL_ELT_FN(u64, u64_at)
REAL_ELT_FN(f64, f64_at)
REAL_ELT_FN(creal, creal_at)

/* f64 columns need no conversion: R may read the file's memory directly */
static const void *f64_dataptr_or_null(SEXP x) {
  SEXP d = R_altrep_data2(x);
  return d != R_NilValue ? (const void *)REAL(d) : st(x)->p;
}
static const void *copy_or_null(SEXP x) {
  SEXP d = R_altrep_data2(x);
  return d != R_NilValue ? DATAPTR_RO(d) : NULL;
}

#define REGISTER(CLS, NAME, MAKE, TYPE, DLL)                                                       \
  CLS = MAKE(#NAME "_pcol", "pcol", DLL);                                                          \
  R_set_altrep_Length_method(CLS, alt_length);                                                     \
  R_set_altrep_Inspect_method(CLS, NAME##_inspect);                                                \
  R_set_altrep_Duplicate_method(CLS, NAME##_duplicate);                                            \
  R_set_altvec_Dataptr_method(CLS, NAME##_dataptr);                                                \
  R_set_alt##TYPE##_Elt_method(CLS, NAME##_elt);                                                   \
  R_set_alt##TYPE##_Get_region_method(CLS, NAME##_region);

static void register_altrep(DllInfo *dll) {
  REGISTER(cls_ref, ref, R_make_altinteger_class, integer, dll);
  REGISTER(cls_i64, i64, R_make_altreal_class, real, dll);
  REGISTER(cls_u64, u64, R_make_altreal_class, real, dll);
  REGISTER(cls_f64, f64, R_make_altreal_class, real, dll);
  REGISTER(cls_lgl, lgl, R_make_altlogical_class, logical, dll);
  REGISTER(cls_cint, cint, R_make_altinteger_class, integer, dll);
  REGISTER(cls_creal, creal, R_make_altreal_class, real, dll);
  REGISTER(cls_clgl, clgl, R_make_altlogical_class, logical, dll);
  R_set_altvec_Dataptr_or_null_method(cls_cint, copy_or_null);
  R_set_altvec_Dataptr_or_null_method(cls_creal, copy_or_null);
  R_set_altvec_Dataptr_or_null_method(cls_clgl, copy_or_null);
  R_set_altvec_Dataptr_or_null_method(cls_ref, copy_or_null);
  R_set_altvec_Dataptr_or_null_method(cls_i64, copy_or_null);
  R_set_altvec_Dataptr_or_null_method(cls_u64, copy_or_null);
  R_set_altvec_Dataptr_or_null_method(cls_f64, f64_dataptr_or_null);
  R_set_altvec_Dataptr_or_null_method(cls_lgl, copy_or_null);
}

/* what: "PATH: view$column" of an i64 or u64 column (lost_check's), else NULL */
static SEXP altrep_over(R_altrep_class_t cls, const void *p, R_xlen_t n, SEXP file, const char *what) {
  colstate *s = calloc(1, sizeof *s);
  if (!s) Rf_error("out of memory");
  s->p = p;
  s->n = n;
  SEXP sx = PROTECT(R_MakeExternalPtr(s, R_NilValue, file)); /* protects the file */
  R_RegisterCFinalizerEx(sx, state_finalize, TRUE);
  if (what && !(s->what = strdup(what))) Rf_error("out of memory"); /* (s is sx's) */
  SEXP v = R_new_altrep(cls, sx, R_NilValue);
  UNPROTECT(1);
  return v;
}

/* ------------------------------------------------------------ columns */

/* A computed table owned by an external pointer, so that an R error (which
 * unwinds past us) cannot leak it: the finalizer frees it. */
static void table_finalize(SEXP x) {
  pcb_table *t = R_ExternalPtrAddr(x);
  if (t) {
    pcb_table_free(t);
    free(t);
  }
  R_ClearExternalPtr(x);
}

/* Strings by id, decoded once per call: CHARSXPs in a list. */
typedef struct strcache {
  SEXP list; /* VECSXP of CHARSXP (or NULL) by string id; protected by the caller */
  uint64_t n;
  char *buf;
  size_t cap;
} strcache;

static const char *cache_buf(strcache *c, size_t need) {
  if (need > c->cap) {
    char *b = R_alloc(need, 1); /* freed at the end of .Call */
    c->buf = b;
    c->cap = need;
  }
  return c->buf;
}

/* A CHARSXP from stored bytes: valid UTF-8 kept, other bytes as
 * U+0080..U+00FF, NUL (which R strings cannot hold) as U+FFFD. */
static SEXP mkchar_bytes(strcache *c, const char *p, size_t n) {
  if (n > INT_MAX / 3) Rf_error("a string of %llu bytes is too long for R", (unsigned long long)n);
  if (pcb_utf8_clean_already(p, n)) return Rf_mkCharLenCE(p, (int)n, CE_UTF8);
  char *b = (char *)cache_buf(c, 3 * n + 1);
  size_t m = pcb_utf8_clean(p, n, b, "\xEF\xBF\xBD");
  return Rf_mkCharLenCE(b, (int)m, CE_UTF8);
}

/* For the other .Call files (query_r.c): a CHARSXP of stored bytes, by the
 * same rule; NA for a NULL pointer. */
SEXP pcolr_mkchar(const char *p, size_t n) {
  if (!p) return NA_STRING;
  strcache c = {0};
  return mkchar_bytes(&c, p, n);
}

static SEXP string_id(pcol_file *f, const char *path, strcache *c, uint32_t id) {
  if (id == 0) return NA_STRING;
  if (id >= c->n) {
    pcol_error err = {0};
    pcol_error_set(&err, PCOL_ECORRUPT, "string id %u is out of range", id);
    pcol_stop(path, &err, PCOL_ECORRUPT);
  }
  SEXP s = VECTOR_ELT(c->list, id);
  if (s == R_NilValue) {
    pcol_str ps;
    pcol_error err = {0};
    int rc = pcol_string(f, id, &ps, &err);
    if (rc) pcol_stop(path, &err, rc);
    s = mkchar_bytes(c, ps.ptr, ps.len);
    SET_VECTOR_ELT(c->list, id, s);
  }
  return s;
}

/* The R vector of one column (NULL for a row-id column: R makes it with
 * seq_len, a compact sequence).  what: "PATH: view$column"; an i64 or u64
 * value rounded (past 2^53) is noted in *lost when the column is filled,
 * else said by an ALTREP column when R reads it (lost_check). */
static SEXP column_vector(pcol_file *f, SEXP file, const char *path, strcache *sc, pcb_col *c,
                          R_xlen_t n, int altrep, const char *what, pcolr_lost *lost) {
  if (c->kind == PCB_ID && c->seq) return R_NilValue;
  if (c->kind == PCB_STR) {
    SEXP v = PROTECT(Rf_allocVector(STRSXP, n));
    const uint32_t *ids = c->data;
    for (R_xlen_t i = 0; i < n; i++) {
      uint32_t id = c->seq ? (uint32_t)(i + 1) : ids ? ids[i] : (uint32_t)c->dflt;
      SET_STRING_ELT(v, i, string_id(f, path, sc, id));
    }
    UNPROTECT(1);
    return v;
  }
  if (!c->data && altrep && n > 0) { /* absent from the file: one value, repeated */
    SEXP v;
    colstate *cs;
    switch (c->kind) {
    case PCB_REF:
    case PCB_COUNT:
      v = PROTECT(altrep_over(cls_cint, NULL, n, R_NilValue, NULL));
      cs = st(v);
      cs->ival = c->dflt && c->kind == PCB_REF ? (int)(uint32_t)c->dflt : c->kind == PCB_REF ? NA_INTEGER : (int)c->dflt;
      UNPROTECT(1);
      return v;
    case PCB_BOOL:
      v = PROTECT(altrep_over(cls_clgl, NULL, n, R_NilValue, NULL));
      st(v)->ival = c->dflt != 0;
      UNPROTECT(1);
      return v;
    case PCB_I64:
    case PCB_U64:
    case PCB_F64: {
      v = PROTECT(altrep_over(cls_creal, NULL, n, R_NilValue, NULL));
      int64_t dv = c->dflt;
      double x;
      if (c->kind == PCB_F64) memcpy(&x, &dv, sizeof x);
      else if (c->kind == PCB_U64) x = pcolr_dbl((pcol_sum)(uint64_t)dv, lost);
      else x = dv == PCOL_NA_I64 ? NA_REAL : pcolr_dbl(dv, lost);
      st(v)->dval = x;
      UNPROTECT(1);
      return v;
    }
    default: break;
    }
  }
  if (c->data && !c->owned && altrep && n > 0) {
    switch (c->kind) {
    case PCB_REF: return altrep_over(cls_ref, c->data, n, file, NULL);
    case PCB_I64: return altrep_over(cls_i64, c->data, n, file, what);
    case PCB_U64: return altrep_over(cls_u64, c->data, n, file, what);
    case PCB_F64: return altrep_over(cls_f64, c->data, n, file, NULL);
    case PCB_BOOL: return altrep_over(cls_lgl, c->data, n, file, NULL);
    default: break;
    }
  }
  /* an ordinary vector, filled in one pass */
  colstate s = {c->data, n, 0, 0, NULL, 0};
  SEXP v;
  switch (c->kind) {
  case PCB_ID: /* a selection's sample ids */
  case PCB_REF:
  case PCB_COUNT: {
    v = PROTECT(Rf_allocVector(INTSXP, n));
    int *o = INTEGER(v);
    const uint32_t *d = c->data;
    uint32_t k = (uint32_t)c->dflt;
    if (c->kind == PCB_REF)
      for (R_xlen_t i = 0; i < n; i++) {
        uint32_t x = d ? d[i] : k;
        o[i] = x ? (int)x : NA_INTEGER;
      }
    else
      for (R_xlen_t i = 0; i < n; i++) o[i] = (int)(d ? d[i] : k);
    break;
  }
  case PCB_BOOL:
    v = PROTECT(Rf_allocVector(LGLSXP, n));
    if (c->data) lgl_fill(&s, 0, n, LOGICAL(v));
    else
      for (R_xlen_t i = 0; i < n; i++) LOGICAL(v)[i] = c->dflt != 0;
    break;
  default: {
    v = PROTECT(Rf_allocVector(REALSXP, n));
    double *o = REAL(v);
    if (c->data) {
      if (c->kind == PCB_I64) i64_fill(&s, 0, n, o);
      else if (c->kind == PCB_U64) u64_fill(&s, 0, n, o);
      else memcpy(o, c->data, (size_t)n * sizeof(double)); /* f64: one memcpy */
      for (R_xlen_t i = 0; i < n && !lost->n && c->kind != PCB_F64; i++) {
        pcol_sum x = c->kind == PCB_U64 ? (pcol_sum)((const uint64_t *)c->data)[i] : ((const int64_t *)c->data)[i];
        if (c->kind == PCB_U64 || x != PCOL_NA_I64) pcolr_dbl(x, lost);
      }
    } else {
      int64_t dv = c->dflt;
      double x;
      if (c->kind == PCB_F64) memcpy(&x, &dv, sizeof x);
      else if (c->kind == PCB_U64) x = n ? pcolr_dbl((pcol_sum)(uint64_t)dv, lost) : 0;
      else x = dv == PCOL_NA_I64 ? NA_REAL : n ? pcolr_dbl(dv, lost) : 0;
      for (R_xlen_t i = 0; i < n; i++) o[i] = x;
    }
  }
  }
  UNPROTECT(1);
  return v;
}

/* from, to (NULL: unset; one number, seconds since the start, or one
 * string, the CLI's --from/--to text: pcb_range_end) into s's range */
void pcol_r_range(SEXP from, SEXP to, pcol_select *s) {
  SEXP ends[2] = {from, to};
  for (int k = 0; k < 2; k++) {
    if (ends[k] == R_NilValue) continue;
    const char *text = Rf_isString(ends[k]) && XLENGTH(ends[k]) == 1 && STRING_ELT(ends[k], 0) != NA_STRING
                           ? Rf_translateCharUTF8(STRING_ELT(ends[k], 0)) : NULL;
    pcol_error err = {0};
    if (pcb_range_end(s, k, text, text ? 0 : Rf_asReal(ends[k]), k ? "to" : "from", &err))
      Rf_error("%s", err.message);
  }
  if (s->has_from && s->has_to && s->from_ns > s->to_ns) Rf_error("from is after to");
}

static int parse_select(SEXP sel, pcb_select *s) {
  memset(s, 0, sizeof *s);
  /* sel: list(source, from, to, max_rows), NULL entries unset */
  SEXP src = VECTOR_ELT(sel, 0), from = VECTOR_ELT(sel, 1), to = VECTOR_ELT(sel, 2), mr = VECTOR_ELT(sel, 3);
  if (src != R_NilValue) {
    double d = Rf_asReal(src);
    if (!(d >= 1 && d <= UINT32_MAX) || d != (double)(uint32_t)d) Rf_error("source must be a source_id (1 or more)");
    s->sel.source_id = (uint32_t)d;
  }
  pcol_r_range(from, to, &s->sel);
  if (mr != R_NilValue) {
    double d = Rf_asReal(mr);
    if (!(d >= 0)) Rf_error("max_rows must be a number >= 0");
    s->max_rows = d >= 1.8e19 ? 0 : (uint64_t)d;
  }
  return 0;
}

/* .Call(C_tables, file, views, altrep, sel) -> list of list(nrows, columns) */
SEXP C_tables(SEXP file, SEXP views, SEXP altrep, SEXP sel) {
  pcol_file *f = file_of(file);
  const char *path = path_of(file);
  int alt = Rf_asLogical(altrep) == TRUE;
  pcb_select s;
  parse_select(sel, &s);
  if (!Rf_isString(views)) Rf_error("views must be names");
  R_xlen_t nv = XLENGTH(views);
  for (R_xlen_t i = 0; i < nv; i++)
    if (!pcb_view_by_name(Rf_translateCharUTF8(STRING_ELT(views, i))))
      Rf_errorcall(R_NilValue, "no view named '%s' (see pcol_views())", Rf_translateCharUTF8(STRING_ELT(views, i)));
  /* every id an R integer column can show is at most a stored table's row
   * count (references are checked against it) */
  for (int tb = 1; tb < PCOL_T_COUNT_; tb++)
    if (tb != PCOL_T_STRINGS && tb != PCOL_T_VALUES && tb != PCOL_T_LINES && tb != PCOL_T_LABELS &&
        pcol_rows(f, tb) > INT_MAX)
      Rf_errorcall(R_NilValue, "%s: table %s has %llu rows; R integers cannot hold its ids", path ? path : "",
                   pcol_table_info_get(tb)->name, (unsigned long long)pcol_rows(f, tb));
  strcache sc = {0};
  sc.n = pcol_string_count(f);
  if (sc.n > (uint64_t)R_XLEN_T_MAX) Rf_error("too many strings");
  SEXP out = PROTECT(Rf_allocVector(VECSXP, nv));
  sc.list = PROTECT(Rf_allocVector(VECSXP, (R_xlen_t)sc.n));
  pcolr_lost lost = {0}; /* the first value rounded of the columns filled here, and its column */
  const char *lost_what = NULL;
  for (R_xlen_t i = 0; i < nv; i++) {
    const char *view = Rf_translateCharUTF8(STRING_ELT(views, i));
    pcb_table *t = calloc(1, sizeof *t);
    if (!t) Rf_error("out of memory");
    SEXP tx = PROTECT(R_MakeExternalPtr(t, R_NilValue, R_NilValue));
    R_RegisterCFinalizerEx(tx, table_finalize, TRUE);
    pcol_error err = {0};
    int rc = pcb_table_get(f, view, &s, UINT32_MAX, t, &err);
    if (rc) pcol_stop(path, &err, rc); /* tx's finalizer frees t */
    if (t->nrows > INT_MAX)
      Rf_errorcall(R_NilValue, "%s: view %s has %llu rows, more than an R data frame holds", path ? path : "",
                   view, (unsigned long long)t->nrows);
    R_xlen_t n = (R_xlen_t)t->nrows;
    SEXP cols = PROTECT(Rf_allocVector(VECSXP, t->ncols)), names = PROTECT(Rf_allocVector(STRSXP, t->ncols));
    for (size_t k = 0; k < t->ncols; k++) {
      SET_STRING_ELT(names, k, Rf_mkChar(t->cols[k].name));
      /* "PATH: view$column", as a rounded value's warning names it */
      size_t wn = (path ? strlen(path) + 2 : 0) + strlen(view) + strlen(t->cols[k].name) + 2;
      char *what = R_alloc(wn, 1);
      snprintf(what, wn, "%s%s%s$%s", path ? path : "", path ? ": " : "", view, t->cols[k].name);
      pcolr_lost cl = {0};
      SET_VECTOR_ELT(cols, k, column_vector(f, file, path, &sc, &t->cols[k], n, alt, what, &cl));
      if (cl.n && !lost.n) lost = cl, lost_what = what;
    }
    Rf_setAttrib(cols, R_NamesSymbol, names);
    SEXP e = PROTECT(Rf_allocVector(VECSXP, 2));
    SET_VECTOR_ELT(e, 0, Rf_ScalarInteger((int)n));
    SET_VECTOR_ELT(e, 1, cols);
    SET_VECTOR_ELT(out, i, e);
    table_finalize(tx); /* computed columns were copied into R vectors */
    UNPROTECT(4);
  }
  if (lost.n) pcolr_warn_lost(&lost, NULL, lost_what); /* one warning (ALTREP columns say theirs when read) */
  UNPROTECT(2);
  return out;
}

static void top_finalize(SEXP x) {
  pcol_top *t = R_ExternalPtrAddr(x);
  if (t) {
    pcol_top_free(t);
    free(t);
  }
  R_ClearExternalPtr(x);
}

/* .Call(C_top, file, by, value, sel) -> list(name, flat, cum, total, type, unit) */
SEXP C_top(SEXP file, SEXP by_, SEXP value, SEXP sel) {
  pcol_file *f = file_of(file);
  const char *path = path_of(file);
  const char *bys = Rf_translateCharUTF8(STRING_ELT(by_, 0));
  pcol_by by;
  if (!strcmp(bys, "function")) by = PCOL_BY_FUNCTION;
  else if (!strcmp(bys, "line")) by = PCOL_BY_LINE;
  else if (!strcmp(bys, "file")) by = PCOL_BY_FILE;
  else Rf_error("by must be \"function\", \"line\" or \"file\", not \"%s\"", bys);
  const char *vname = value == R_NilValue ? NULL : Rf_translateCharUTF8(STRING_ELT(value, 0));
  pcb_select s;
  parse_select(sel, &s);
  pcol_error err = {0};
  pcol_value_sel v;
  pcol_top *t = calloc(1, sizeof *t);
  if (!t) Rf_error("out of memory");
  /* owned by an external pointer: an R error below cannot leak it */
  SEXP tx = PROTECT(R_MakeExternalPtr(t, R_NilValue, R_NilValue));
  R_RegisterCFinalizerEx(tx, top_finalize, TRUE);
  int rc = pcol_value_resolve(f, &s.sel, vname, &v, &err);
  if (!rc) rc = pcol_top_compute(f, &s.sel, &v, by, t, &err);
  if (rc) pcol_stop(path, &err, rc);
  R_xlen_t n = (R_xlen_t)t->nrows;
  strcache sc = {0};
  SEXP out = PROTECT(Rf_allocVector(VECSXP, 6));
  SEXP names = PROTECT(Rf_allocVector(STRSXP, n));
  SEXP flat = PROTECT(Rf_allocVector(REALSXP, n)), cum = PROTECT(Rf_allocVector(REALSXP, n));
  pcolr_lost lost = {0};
  for (R_xlen_t i = 0; i < n; i++) {
    const pcol_top_row *r = &t->rows[i];
    SET_STRING_ELT(names, i, mkchar_bytes(&sc, r->name.ptr ? r->name.ptr : "", r->name.len));
    REAL(flat)[i] = pcolr_dbl(r->flat, &lost);
    REAL(cum)[i] = pcolr_dbl(r->cum, &lost);
  }
  SEXP ty = PROTECT(t->value.type.ptr ? Rf_ScalarString(mkchar_bytes(&sc, t->value.type.ptr, t->value.type.len))
                                      : Rf_ScalarString(NA_STRING));
  SEXP un = PROTECT(t->value.unit.ptr ? Rf_ScalarString(mkchar_bytes(&sc, t->value.unit.ptr, t->value.unit.len))
                                      : Rf_ScalarString(NA_STRING));
  SET_VECTOR_ELT(out, 3, Rf_ScalarReal(pcolr_dbl(t->total, &lost)));
  top_finalize(tx);
  SET_VECTOR_ELT(out, 0, names);
  SET_VECTOR_ELT(out, 1, flat);
  SET_VECTOR_ELT(out, 2, cum);
  SET_VECTOR_ELT(out, 4, ty);
  SET_VECTOR_ELT(out, 5, un);
  pcolr_warn_lost(&lost, path, "top");
  UNPROTECT(7);
  return out;
}

SEXP C_validate(SEXP file) {
  pcol_file *f = file_of(file);
  pcol_error err = {0};
  int rc = pcol_validate_full(f, &err);
  if (rc) pcol_stop(path_of(file), &err, rc);
  return Rf_ScalarLogical(TRUE);
}

SEXP C_views(void) {
  int n = 0;
  while (pcb_view_at(n)) n++;
  SEXP out = PROTECT(Rf_allocVector(STRSXP, n));
  for (int i = 0; i < n; i++) SET_STRING_ELT(out, i, Rf_mkChar(pcb_view_at(i)->name));
  UNPROTECT(1);
  return out;
}

SEXP C_view_columns(SEXP view) {
  const pcb_view_info *vi = pcb_view_by_name(Rf_translateCharUTF8(STRING_ELT(view, 0)));
  if (!vi) Rf_error("no view named '%s'", Rf_translateCharUTF8(STRING_ELT(view, 0)));
  static const char *kinds[] = {"", "id", "ref", "str", "i64", "u64", "f64", "bool", "count"};
  SEXP out = PROTECT(Rf_allocVector(STRSXP, vi->ncols)), nm = PROTECT(Rf_allocVector(STRSXP, vi->ncols));
  for (size_t k = 0; k < vi->ncols; k++) {
    SET_STRING_ELT(out, k, Rf_mkChar(kinds[vi->cols[k].kind]));
    SET_STRING_ELT(nm, k, Rf_mkChar(vi->cols[k].name));
  }
  Rf_setAttrib(out, R_NamesSymbol, nm);
  UNPROTECT(2);
  return out;
}

SEXP C_version(void) { return Rf_mkString(pcol_version_string()); }

/* -------------------------------------------------------------- write */

/* The input of pcb_write from a named list of data frames (the R code has
 * turned factors into character vectors and checked the shapes). */
typedef struct rin {
  SEXP cols[PCB_NVIEWS][PCB_MAX_COLS];
} rin;

static int r_get_str(void *ctx, int view, int col, uint64_t row, const char **p, size_t *len, pcol_error *err) {
  rin *in = ctx;
  SEXP s = STRING_ELT(in->cols[view][col], (R_xlen_t)row);
  if (s == NA_STRING) {
    *p = NULL;
    *len = 0;
    return 0;
  }
  /* translateCharUTF8 allocates with R_alloc (freed at the end of .Call);
   * an encoding error would unwind past pcb_write and leak the builder,
   * so the R code converted every string to UTF-8 with enc2utf8 first */
  cetype_t ce = Rf_getCharCE(s);
  *p = ce == CE_UTF8 || ce == CE_BYTES ? CHAR(s) : Rf_translateCharUTF8(s);
  *len = strlen(*p);
  return 0;
}

/* .Call(C_write, tables, path, compress) */
SEXP C_write(SEXP tables, SEXP path, SEXP compress) {
  if (!Rf_isString(path) || XLENGTH(path) != 1 || STRING_ELT(path, 0) == NA_STRING)
    Rf_error("path must be one file name");
  pcb_input in;
  memset(&in, 0, sizeof in);
  rin r;
  memset(&r, 0, sizeof r);
  SEXP tn = Rf_getAttrib(tables, R_NamesSymbol);
  for (R_xlen_t i = 0; i < XLENGTH(tables); i++) {
    const char *vname = Rf_translateCharUTF8(STRING_ELT(tn, i));
    int v = 0;
    while (pcb_view_at(v) && strcmp(pcb_view_at(v)->name, vname)) v++;
    const pcb_view_info *vi = pcb_view_at(v);
    if (!vi) continue; /* not a view: ignored */
    SEXP df = VECTOR_ELT(tables, i), cn = Rf_getAttrib(df, R_NamesSymbol);
    in.t[v].present = 1;
    in.t[v].nrows = (uint64_t)Rf_asInteger(Rf_getAttrib(df, Rf_install("pcol.nrows")));
    for (R_xlen_t j = 0; j < XLENGTH(df); j++) {
      const char *cname = Rf_translateCharUTF8(STRING_ELT(cn, j));
      size_t k = 0;
      while (k < vi->ncols && strcmp(vi->cols[k].name, cname)) k++;
      if (k == vi->ncols) continue; /* other columns are ignored */
      SEXP x = VECTOR_ELT(df, j);
      if ((uint64_t)XLENGTH(x) != in.t[v].nrows) Rf_error("%s$%s has the wrong length", vname, cname);
      pcb_in_col *c = &in.t[v].cols[k];
      r.cols[v][k] = x;
      switch (TYPEOF(x)) {
      case INTSXP:
      case LGLSXP: c->type = PCB_IN_I32; c->data = DATAPTR_RO(x); break;
      case REALSXP: c->type = PCB_IN_F64; c->data = DATAPTR_RO(x); break;
      case STRSXP: c->type = PCB_IN_STR; break;
      default: Rf_error("%s$%s must be numbers, logicals or strings", vname, cname);
      }
    }
  }
  in.get_str = r_get_str;
  in.ctx = &r;
  pcol_error err = {0};
  const char *p = R_ExpandFileName(Rf_translateChar(STRING_ELT(path, 0)));
  int rc = pcb_write(&in, p, Rf_asLogical(compress) == TRUE, &err);
  if (rc) {
    const char *m = err.message[0] ? err.message : pcol_strerror(rc);
    Rf_errorcall(R_NilValue, "write_pcol: %s", m);
  }
  return R_NilValue;
}

/* ------------------------------------------------------------ register */

/* through void (*)(void), the one cast -Wcast-function-type allows */
#define FN(f) ((DL_FUNC)(void (*)(void))(f))
static const R_CallMethodDef call_methods[] = {
    {"C_open", FN(C_open), 2},          {"C_close", FN(C_close), 1},
    {"C_tag_frames", FN(C_tag_frames), 4}, {"C_tag_frames_pair", FN(C_tag_frames_pair), 5}, {"C_diff_base", FN(C_diff_base), 7},
    {"C_tables", FN(C_tables), 4},      {"C_top", FN(C_top), 4},
    {"C_validate", FN(C_validate), 1},  {"C_views", FN(C_views), 0},
    {"C_view_columns", FN(C_view_columns), 1},
    {"C_version", FN(C_version), 0},    {"C_write", FN(C_write), 3},
    {"C_q_top", FN(C_q_top), 9},        {"C_q_peek", FN(C_q_peek), 8}, {"C_q_tree", FN(C_q_tree), 10},
    {"C_q_list", FN(C_q_list), 9},      {"C_q_tags", FN(C_q_tags), 3},
    {"C_q_traces", FN(C_q_traces), 6},  {"C_q_diff", FN(C_q_diff), 7},
    {"C_q_fold", FN(C_q_fold), 4},      {"C_q_summaries", FN(C_q_summaries), 1},
    {"C_q_export", FN(C_q_export), 5},    {"C_unit_base", FN(C_unit_base), 1},
    {"C_writer_open", FN(C_writer_open), 13}, {"C_writer_add", FN(C_writer_add), 13},
    {"C_writer_op", FN(C_writer_op), 2},
    {NULL, NULL, 0}};

void R_init_pcol(DllInfo *dll) {
  R_registerRoutines(dll, NULL, call_methods, NULL, NULL);
  R_useDynamicSymbols(dll, FALSE);
  register_altrep(dll);
}
