/* check_glue.c — the shared glue under AddressSanitizer/UBSan, without R or
 * Python (bindings/test.sh builds it with -fsanitize and runs it).
 *
 *   check_glue FILE...            every view of each file, every cell read;
 *                                 then pcb_write of all views (strings as
 *                                 their exact bytes) and a re-read: every
 *                                 view must be equal cell for cell; and
 *                                 traces' means (pcol_traces_iter_mean):
 *                                 as many traces as without
 *   check_glue --writer DIR SEED  the streaming writer's glue (pcb_writer):
 *                                 random batches rolled into DIR, read back
 *   check_glue --mutate N SEED FILE
 *                                 N random byte changes/truncations of FILE:
 *                                 every view read as stored (unchecked)
 *                                 and checked, or a clean error
 * Exit 0 when all is well; prints one line per problem. */
#include "pcolb.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int problems;

/* the value of cell r as 64 bits, and for strings its bytes */
static uint64_t cell(const pcb_col *c, uint64_t r) {
  if (c->seq) return r + 1;
  if (!c->data) return (uint64_t)c->dflt;
  switch (c->type) {
  case PCOL_TYPE_U8: return ((const uint8_t *)c->data)[r];
  case PCOL_TYPE_U32: return ((const uint32_t *)c->data)[r];
  default: return ((const uint64_t *)c->data)[r];
  }
}

static int read_all(pcol_file *f, pcb_table *t, uint64_t *sink, pcol_error *err) {
  pcb_select sel = {0};
  sel.max_rows = 10000000;
  for (int v = 0; pcb_view_at(v); v++) {
    int rc = pcb_table_get(f, pcb_view_at(v)->name, &sel, UINT32_MAX, &t[v], err);
    if (rc) {
      for (int k = 0; k < v; k++) pcb_table_free(&t[k]);
      return rc;
    }
    for (size_t k = 0; k < t[v].ncols; k++)
      for (uint64_t r = 0; r < t[v].nrows; r++) {
        uint64_t x = cell(&t[v].cols[k], r);
        *sink += x;
        if (t[v].cols[k].kind == PCB_STR) {
          pcol_str s;
          if ((rc = pcol_string(f, (uint32_t)x, &s, err))) return rc;
          char buf[64];
          size_t n = s.len < 21 ? s.len : 21; /* clean a prefix: the rule on real bytes */
          *sink += pcb_utf8_clean(s.ptr ? s.ptr : "", n, buf, NULL);
        }
      }
  }
  return 0;
}

/* Every view with stored columns handed out as stored (sel.unchecked, as
 * Python's table() does), every non-string cell read: in bounds whatever
 * the ids hold.  Errors (from the checked parts) are expected. */
static void read_unchecked(pcol_file *f, uint64_t *sink) {
  pcb_select sel = {0};
  sel.max_rows = 10000000;
  sel.unchecked = 1;
  pcol_error err = {0};
  for (int v = 0; pcb_view_at(v); v++) {
    pcb_table t;
    if (pcb_table_get(f, pcb_view_at(v)->name, &sel, UINT32_MAX, &t, &err)) continue;
    for (size_t k = 0; k < t.ncols; k++)
      if (t.cols[k].kind != PCB_STR)
        for (uint64_t r = 0; r < t.nrows; r++) *sink += cell(&t.cols[k], r);
    pcb_table_free(&t);
  }
}

/* ------------------------------------------------ write and re-read */

typedef struct wsrc {
  pcol_file *f;
  pcb_table *t;
} wsrc;

static int get_str(void *ctx, int view, int col, uint64_t row, const char **p, size_t *len, pcol_error *err) {
  wsrc *w = ctx;
  pcol_str s;
  int rc = pcol_string(w->f, (uint32_t)cell(&w->t[view].cols[col], row), &s, err);
  *p = s.ptr;
  *len = s.len;
  return rc;
}

static int round_trip(const char *path, pcol_file *f, pcb_table *t) {
  pcb_input in;
  memset(&in, 0, sizeof in);
  uint64_t *tmp[PCB_NVIEWS][PCB_MAX_COLS] = {{0}};
  for (int v = 0; v < PCB_NVIEWS; v++) {
    in.t[v].present = 1;
    in.t[v].nrows = t[v].nrows;
    for (size_t k = 0; k < t[v].ncols; k++) {
      pcb_col *c = &t[v].cols[k];
      if (c->kind == PCB_STR) {
        in.t[v].cols[k].type = PCB_IN_STR;
        continue;
      }
      /* every column as u64/i64/f64 values, as a binding would pass them */
      uint64_t *a = tmp[v][k] = malloc((t[v].nrows + 1) * 8);
      if (!a) return 1;
      for (uint64_t r = 0; r < t[v].nrows; r++) a[r] = cell(c, r);
      in.t[v].cols[k].type = c->kind == PCB_F64 ? PCB_IN_F64 : c->kind == PCB_U64 ? PCB_IN_U64 : PCB_IN_I64;
      in.t[v].cols[k].data = a;
    }
  }
  wsrc w = {f, t};
  in.get_str = get_str;
  in.ctx = &w;
  char out[] = "/tmp/check_glue-XXXXXX";
  int fd = mkstemp(out);
  if (fd >= 0) close(fd);
  pcol_error err = {0};
  int rc = pcb_write(&in, out, 0, &err), bad = 0;
  for (int v = 0; v < PCB_NVIEWS; v++)
    for (int k = 0; k < PCB_MAX_COLS; k++) free(tmp[v][k]);
  if (rc) {
    printf("%s: write failed: %s\n", path, err.message);
    unlink(out);
    return 1;
  }
  pcol_file *g;
  if (pcol_open(out, NULL, &g, &err)) {
    printf("%s: re-open failed: %s\n", path, err.message);
    unlink(out);
    return 1;
  }
  pcb_table u[PCB_NVIEWS];
  uint64_t sink = 0;
  if (read_all(g, u, &sink, &err)) {
    printf("%s: re-read failed: %s\n", path, err.message);
    bad = 1;
  }
  for (int v = 0; v < PCB_NVIEWS && !bad; v++) {
    if (u[v].nrows != t[v].nrows) {
      printf("%s: view %s has %llu rows, written back %llu\n", path, pcb_view_at(v)->name,
             (unsigned long long)t[v].nrows, (unsigned long long)u[v].nrows);
      bad = 1;
      break;
    }
    for (size_t k = 0; k < t[v].ncols && !bad; k++)
      for (uint64_t r = 0; r < t[v].nrows && !bad; r++) {
        uint64_t a = cell(&t[v].cols[k], r), b = cell(&u[v].cols[k], r);
        int same = a == b;
        if (t[v].cols[k].kind == PCB_STR) {
          pcol_str x, y;
          if (pcol_string(f, (uint32_t)a, &x, &err) || pcol_string(g, (uint32_t)b, &y, &err))
            same = 0; /* a string id out of range: not the same view */
          else
            same = (!x.ptr) == (!y.ptr) && x.len == y.len && (!x.len || !memcmp(x.ptr, y.ptr, x.len));
        } else if (t[v].cols[k].kind == PCB_F64) {
          double da, db;
          memcpy(&da, &a, 8);
          memcpy(&db, &b, 8);
          same = a == b || (da != da && db != db);
        }
        if (!same) {
          printf("%s: view %s column %s row %llu differs after write\n", path, pcb_view_at(v)->name,
                 t[v].cols[k].name, (unsigned long long)r + 1);
          bad = 1;
        }
      }
  }
  for (int v = 0; v < PCB_NVIEWS; v++) pcb_table_free(&u[v]);
  pcol_close(g);
  unlink(out);
  return bad;
}

/* traces --mean (pcol_traces_iter_mean) under the sanitizers: as many
 * traces as pcol_traces_iter gives (a file whose divisor
 * pcol_mean_divisor refuses is passed over) */
static int count_trace(void *ctx, const pcol_trace *t) {
  (void)t;
  ++*(size_t *)ctx;
  return 0;
}
static int trace_means(const char *path, pcol_file *f) {
  pcol_error err = {0};
  pcol_select sel = {0};
  pcol_value_sel v, div;
  size_t n = 0, nm = 0;
  if (pcol_value_resolve(f, &sel, NULL, &v, &err) || pcol_mean_divisor(f, &sel, &div, &err)) return 0;
  int rc = pcol_traces_iter(f, &sel, &v, count_trace, &n, &err);
  if (!rc) rc = pcol_traces_iter_mean(f, &sel, &v, &div, count_trace, &nm, &err);
  if (rc || n != nm) {
    printf("%s: traces' means: %s (%zu traces, %zu in means)\n", path, rc ? err.message : "", n, nm);
    return 1;
  }
  return 0;
}

/* The view's data warnings (pcb_view_notes) of the default, "samples",
 * "cpu" and a filter that matches nothing under a range past the end,
 * each text a line ending in '\n' that names the file (the filter's: not)
 * (label NULL: mutated files, where only that nothing breaks counts); 1
 * when one is not */
static int view_notes(const char *label, pcol_file *f) {
  static const char *const names[] = {NULL, "samples", "cpu", NULL};
  static const char nomatch[] = "Focus expression matched no samples\n";
  int bad = 0;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    pcol_select sel = {0};
    pcol_value_sel v;
    pcol_error err = {0};
    if (i == 2) sel.has_from = 1, sel.has_to = 1, sel.from_ns = 0, sel.to_ns = 100000000; /* the range's note too */
    if (i == 3) sel.focus = "^pcol_glue_no_such_frame$", sel.has_from = 1, sel.from_ns = INT64_MAX / 2;
    if (pcol_value_resolve(f, &sel, names[i], &v, &err)) continue;
    char *n = pcb_view_notes(&f, 1, NULL, &sel, NULL, &v, names[i] != NULL, &label, NULL, (int)(i & 1));
    for (const char *l = n, *nl; label && l && *l && !bad; l = nl + 1) {
      const char *t = i & 1 ? l + (strncmp(l, "note: ", 6) ? 9 : 6) : l; /* after "warning: "/"note: " */
      nl = strchr(l, '\n');
      if (!nl || (strncmp(t, label, strlen(label)) && strncmp(t, nomatch, sizeof nomatch - 1))) {
        printf("%s: view notes are not lines naming it: %s\n", label, n);
        bad = 1;
        break;
      }
    }
    for (const char *c = n; c && *c && !bad; c++)
      if ((unsigned char)*c < 0x20 && *c != '\n') {
        printf("%s: a view note holds a control byte: %s\n", label ? label : "(mutated)", n);
        bad = 1;
      }
    free(n);
  }
  /* a name of control bytes (a path, a URI) reaches the notes escaped, as
   * the CLI prints them (rd11 F10): the range past the end names the file */
  static const char hostile[] = "in\x1b]0;owned\x07\x1b[2J.pcol";
  const char *hl = hostile;
  pcol_select sel = {0};
  pcol_value_sel v;
  pcol_error err = {0};
  sel.has_from = 1, sel.from_ns = INT64_MAX / 2;
  if (label && !pcol_value_resolve(f, &sel, NULL, &v, &err)) {
    char *n = pcb_view_notes(&f, 1, NULL, &sel, NULL, &v, 0, &hl, NULL, 1);
    if (n && (strchr(n, '\x1b') || strchr(n, '\x07'))) {
      printf("%s: a view note holds the label's control bytes raw: %s\n", label, n);
      bad = 1;
    }
    free(n);
  }
  return bad;
}

static void check_file(const char *path) {
  pcol_file *f;
  pcol_error err = {0};
  if (pcol_open_any(path, NULL, &f, &err)) {
    printf("%s: %s\n", path, err.message);
    problems++;
    return;
  }
  pcb_table t[PCB_NVIEWS];
  uint64_t sink = 0;
  if (read_all(f, t, &sink, &err)) {
    printf("%s: %s\n", path, err.message);
    problems++;
  } else {
    problems += round_trip(path, f, t);
    for (int v = 0; v < PCB_NVIEWS; v++) pcb_table_free(&t[v]);
  }
  problems += trace_means(path, f);
  problems += view_notes(path, f);
  pcol_close(f);
}

static uint64_t rng;
static uint64_t rnd(void) {
  uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static int mutate(int n, uint64_t seed, const char *path) {
  FILE *fp = fopen(path, "rb");
  if (!fp) return 2;
  fseek(fp, 0, SEEK_END);
  long size = ftell(fp);
  fseek(fp, 0, SEEK_SET);
  unsigned char *data = malloc((size_t)size + 1), *b = malloc((size_t)size + 1);
  if (!data || !b || fread(data, 1, (size_t)size, fp) != (size_t)size) return 2;
  fclose(fp);
  rng = seed;
  int ok = 0, errors = 0;
  for (int i = 0; i < n; i++) {
    memcpy(b, data, (size_t)size);
    size_t len = (size_t)size;
    int changes = (int)(rnd() % 3 == 0 ? 8 : 1 + rnd() % 2);
    for (int c = 0; c < changes && len > 64; c++) b[64 + rnd() % (len - 64)] ^= (unsigned char)(1 + rnd() % 255);
    if (rnd() % 10 == 0) len = (size_t)(rnd() % (len + 1));
    pcol_file *f;
    pcol_error err = {0};
    if (pcol_open_buffer(b, len, NULL, &f, &err)) {
      errors++;
      continue;
    }
    pcb_table t[PCB_NVIEWS];
    uint64_t sink = 0;
    read_unchecked(f, &sink);
    view_notes(NULL, f);
    if (read_all(f, t, &sink, &err)) errors++;
    else {
      ok++;
      for (int v = 0; v < PCB_NVIEWS; v++) pcb_table_free(&t[v]);
    }
    pcol_close(f);
  }
  free(data);
  free(b);
  printf("%s: %d mutations read, %d refused\n", path, ok, errors);
  return 0;
}

/* The glue's streaming writer (pcb_writer_*): random batches (frames with
 * and without files and lines, labels of both kinds, times, weights, some
 * samples refused for a time going back) rolled every 97 samples into DIR;
 * every file published must open and hold, together, every sample the
 * glue said it added. */
static int writer_check(const char *dir, uint64_t seed) {
  static const char *fns[] = {"main", "parse", "eval", "alloc", "gc\xc3\xa9"}, *files[] = {NULL, "a.c", "b.py"};
  static const char *keys[] = {"thread", "bytes"}, *strs[] = {"io", "cpu", NULL};
  char path[4096];
  snprintf(path, sizeof path, "%s/w.pcol", dir);
  pcol_writer_value_type vt[2] = {{"cpu", "nanoseconds"}, {"alloc", "bytes"}};
  pcol_writer_options o = {0};
  o.value_types = vt;
  o.nvalue_types = 2;
  o.roll_samples = 97;
  pcb_writer *pw;
  pcol_error err = {0};
  if (pcb_writer_open(&pw, path, &o, &err)) {
    printf("writer: %s\n", err.message);
    return 1;
  }
  rng = seed;
  uint64_t added = 0, refused = 0;
  int64_t t = 1700000000000000000;
  for (int batch = 0; batch < 40; batch++) {
    enum { N = 32 };
    size_t foff[N + 1], loff[N + 1], nf = 0, nl = 0;
    const char *fn[N * 6], *fi[N * 6], *lk[N * 2], *ls[N * 2];
    int64_t line[N * 6], val[N * 2], tm[N], wt[N], ln[N * 2];
    size_t n = 1 + rnd() % N;
    foff[0] = loff[0] = 0;
    for (size_t i = 0; i < n; i++) {
      for (size_t k = 0, d = rnd() % 6; k < d; k++, nf++) {
        fn[nf] = rnd() % 9 ? fns[rnd() % 5] : NULL;
        fi[nf] = files[rnd() % 3];
        line[nf] = rnd() % 3 ? (int64_t)(rnd() % 100) : PCOL_NA_I64;
      }
      foff[i + 1] = nf;
      for (size_t k = 0, d = rnd() % 3; k < d; k++, nl++) {
        lk[nl] = keys[k % 2];
        ls[nl] = strs[rnd() % 3];
        ln[nl] = (int64_t)(rnd() % 1000);
      }
      loff[i + 1] = nl;
      val[2 * i] = (int64_t)(rnd() % 100000);
      val[2 * i + 1] = (int64_t)(rnd() % 4096);
      t += rnd() % 400 == 0 ? -5000000 : (int64_t)(rnd() % 3000000);
      tm[i] = t;
      wt[i] = (int64_t)(rnd() % 3);
    }
    pcb_wbatch b = {n, foff, fn, rnd() % 2 ? fi : NULL, rnd() % 2 ? line : NULL, val, 2, tm, wt,
                    loff, lk, ls, ln};
    size_t done = 0;
    if (pcb_writer_add(pw, &b, &done, &err)) refused++;
    added += done;
  }
  int bad = pcb_writer_close(pw, &err) != 0;
  if (bad) printf("writer: close: %s\n", err.message);
  uint64_t rows = 0;
  for (size_t i = 0; i < pw->nfiles; i++) {
    pcol_file *f;
    if (pcol_open_any(pw->files[i], NULL, &f, &err)) {
      printf("writer: %s: %s\n", pw->files[i], err.message);
      bad = 1;
      continue;
    }
    if (pcol_validate_full(f, &err)) {
      printf("writer: %s does not validate: %s\n", pw->files[i], err.message);
      bad = 1;
    }
    rows += pcol_rows(f, PCOL_T_SAMPLES);
    pcol_close(f);
  }
  if (rows != added) {
    printf("writer: %llu samples in the files, %llu added\n", (unsigned long long)rows, (unsigned long long)added);
    bad = 1;
  }
  printf("writer: %llu samples in %zu files (%llu batches stopped at a refused sample)%s\n", (unsigned long long)added,
         pw->nfiles, (unsigned long long)refused, bad ? ": PROBLEMS" : "");
  pcb_writer_free(pw);
  return bad;
}

int main(int argc, char **argv) {
  if (argc >= 5 && !strcmp(argv[1], "--mutate")) return mutate(atoi(argv[2]), strtoull(argv[3], NULL, 10), argv[4]);
  if (argc >= 4 && !strcmp(argv[1], "--writer")) return writer_check(argv[2], strtoull(argv[3], NULL, 10));
  for (int i = 1; i < argc; i++) check_file(argv[i]);
  printf("check_glue: %d files, %d problems\n", argc - 1, problems);
  return problems != 0;
}
