/* cli_table.c — the machine output of the views and of `pcol cat`: TSV,
 * CSV, JSON (one array, or an object around the rows) and JSON lines. */
#include "cli.h"
#include <math.h>
#include <string.h>

int cli_out_format(const char *s, out_format *f) {
  if (!s || !strcmp(s, "tsv")) *f = OUT_TSV;
  else if (!strcmp(s, "csv")) *f = OUT_CSV;
  else if (!strcmp(s, "json")) *f = OUT_JSON;
  else if (!strcmp(s, "jsonl")) *f = OUT_JSONL;
  else if (!strcmp(s, "text")) *f = OUT_TEXT;
  else return -1;
  return 0;
}

/* Table output runs on one thread, so it uses the unlocked stdio calls:
 * `pcol cat --table sample_locations` spent ~45% of its time in locked
 * fputc/fwrite (bench/results/latest.md). */
static void sep(cli_table *t) {
  if (t->fmt == OUT_JSON || t->fmt == OUT_JSONL) {
    if (t->col == 0) {
      if (t->fmt == OUT_JSON) fputs_unlocked(t->rows ? ",\n{" : "\n{", t->fp);
      else putc_unlocked('{', t->fp);
      if (t->fmt == OUT_JSONL && t->tag) {
        fputs_unlocked("\"table\":\"", t->fp);
        fputs_unlocked(t->tag, t->fp); /* a view's name: [a-z_] */
        fputs_unlocked("\",", t->fp);
      }
    } else {
      putc_unlocked(',', t->fp);
    }
    putc_unlocked('"', t->fp);
    fputs_unlocked(t->names[t->col], t->fp);
    fputs_unlocked("\":", t->fp);
  } else if (t->col > 0) {
    putc_unlocked(t->fmt == OUT_CSV ? ',' : '\t', t->fp);
  }
  t->col++;
}

void tbl_begin(cli_table *t, FILE *fp, out_format fmt, int ncols, const char *const *names) {
  t->fp = fp;
  t->fmt = fmt == OUT_TEXT ? OUT_TSV : fmt;
  t->ncols = ncols;
  t->names = names;
  t->object = 0;
  t->col = 0;
  t->rows = 0;
  if (t->fmt == OUT_JSON) {
    putc_unlocked('[', fp);
  } else if (t->fmt == OUT_TSV || t->fmt == OUT_CSV) {
    for (int i = 0; i < ncols; i++) {
      if (i) putc_unlocked(t->fmt == OUT_CSV ? ',' : '\t', fp);
      fputs_unlocked(names[i], fp);
    }
    putc_unlocked('\n', fp);
  }
}

/* A byte string as a JSON string (spec.md §11.3): `"` and `\` escaped
 * with a backslash, bytes 00-1f and 7f as \u00xx, well-formed UTF-8
 * copied, and every other byte as \u00xx (its Latin-1 code point). */
static void json_str(FILE *fp, const unsigned char *p, size_t n) {
  putc_unlocked('"', fp);
  for (size_t i = 0; i < n; i++) {
    unsigned c = p[i];
    if (c == '"' || c == '\\') {
      putc_unlocked('\\', fp);
      putc_unlocked((int)c, fp);
    } else if (c < 0x20 || c == 0x7f) {
      fprintf(fp, "\\u%04x", c);
    } else if (c < 0x80) {
      putc_unlocked((int)c, fp);
    } else {
      size_t len = pcol_utf8_len((const char *)p + i, n - i);
      if (len) {
        fwrite_unlocked(p + i, 1, len, fp);
        i += len - 1;
      } else {
        fprintf(fp, "\\u%04x", c);
      }
    }
  }
  putc_unlocked('"', fp);
}

void tbl_str(cli_table *t, const char *p, size_t n) {
  sep(t);
  if (!p) {
    fputs_unlocked(t->fmt == OUT_JSON || t->fmt == OUT_JSONL ? "null" : "NA", t->fp);
    return;
  }
  const unsigned char *s = (const unsigned char *)p;
  switch (t->fmt) {
  case OUT_JSON:
  case OUT_JSONL: json_str(t->fp, s, n); break;
  case OUT_CSV: {
    int quote = n == 0 || (n == 2 && !memcmp(p, "NA", 2));
    for (size_t i = 0; i < n && !quote; i++)
      quote = s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r';
    if (!quote) {
      fwrite_unlocked(p, 1, n, t->fp);
      break;
    }
    putc_unlocked('"', t->fp);
    for (size_t i = 0; i < n; i++) {
      if (s[i] == '"') putc_unlocked('"', t->fp);
      putc_unlocked(s[i], t->fp);
    }
    putc_unlocked('"', t->fp);
    break;
  }
  default: /* TSV: the text rule, with the row's own escapes (\\t \\\\ \\0) */
    cli_put_text(t->fp, p, n, 1);
  }
}

void tbl_cstr(cli_table *t, const char *s) { tbl_str(t, s, s ? strlen(s) : 0); }

void tbl_na(cli_table *t) { tbl_str(t, NULL, 0); }

void tbl_sum(cli_table *t, pcol_sum v) {
  char b[48];
  pcol_sum_text(v, b, sizeof b);
  tbl_num(t, b);
}

void tbl_i64(cli_table *t, int64_t v) {
  if (v == PCOL_NA_I64) {
    tbl_na(t);
    return;
  }
  sep(t);
  char b[24];
  int n = snprintf(b, sizeof b, "%lld", (long long)v);
  fwrite_unlocked(b, 1, (size_t)n, t->fp);
}

void tbl_u64(cli_table *t, uint64_t v) {
  sep(t);
  char b[24], *e = b + sizeof b, *p = e;
  do {
    *--p = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  /* ids are short: putc_unlocked writes straight into the stdio buffer,
   * cheaper than an fwrite call per number (bench: cat sample_locations) */
  while (p < e) putc_unlocked(*p++, t->fp);
}

void tbl_id(cli_table *t, uint64_t id) {
  if (id == 0) tbl_na(t);
  else tbl_u64(t, id);
}

void tbl_f64(cli_table *t, double v) {
  if (isnan(v)) {
    tbl_na(t);
    return;
  }
  sep(t);
  if (isinf(v) && (t->fmt == OUT_JSON || t->fmt == OUT_JSONL)) {
    /* JSON has no infinity: a string that JavaScript's Number() and
     * Python's float() read back (never the bare `inf` of printf) */
    fputs(v > 0 ? "\"Infinity\"" : "\"-Infinity\"", t->fp);
    return;
  }
  fprintf(t->fp, "%.17g", v);
}

void tbl_num(cli_table *t, const char *text) {
  sep(t);
  fputs_unlocked(text, t->fp);
}

void tbl_bool(cli_table *t, int v) {
  sep(t);
  if (t->fmt == OUT_JSON || t->fmt == OUT_JSONL) fputs_unlocked(v ? "true" : "false", t->fp);
  else fputs_unlocked(v ? "1" : "0", t->fp);
}

void tbl_end_row(cli_table *t) {
  if (t->fmt == OUT_JSON || t->fmt == OUT_JSONL) putc_unlocked('}', t->fp);
  if (t->fmt != OUT_JSON) putc_unlocked('\n', t->fp);
  t->col = 0;
  t->rows++;
}

void tbl_finish(cli_table *t) {
  if (t->fmt == OUT_JSON) fputs_unlocked(t->rows ? "\n]" : "]", t->fp);
  if (t->fmt == OUT_JSON) fputs_unlocked(t->object ? "}\n" : "\n", t->fp);
}

static void json_kv(FILE *fp, int *first, const char *k, const char *v) {
  fprintf(fp, "%s\"%s\":", *first ? "" : ",", k);
  json_str(fp, (const unsigned char *)v, strlen(v));
  *first = 0;
}

/* a range bound in JSON: seconds since the start (%.9g, as always), or a
 * wall-clock time as exact seconds since the epoch */
static void wall_or_seconds(char *b, size_t n, int wall, int64_t ns) {
  if (!wall) {
    snprintf(b, n, "%.9g", (double)ns / 1e9);
    return;
  }
  int64_t sec = ns / 1000000000, frac = ns % 1000000000;
  if (frac < 0) {
    frac += 1000000000;
    sec--;
  }
  if (frac) snprintf(b, n, "%lld.%09lld", (long long)sec, (long long)frac);
  else snprintf(b, n, "%lld", (long long)sec);
}

void tbl_begin_view(cli_table *t, FILE *fp, out_format fmt, int ncols, const char *const *names,
                    const cli_view_meta *m) {
  t->tag = NULL; /* (only `cat --table all` tags its rows; a view's table is on the stack, not zeroed) */
  if (fmt != OUT_JSON) {
    tbl_begin(t, fp, fmt, ncols, names);
    return;
  }
  fputs("{\"command\":", fp);
  json_str(fp, (const unsigned char *)m->command, strlen(m->command));
  fputs(",\"file\":", fp);
  json_str(fp, (const unsigned char *)m->path, strlen(m->path));
  fputs(",\"type\":", fp);
  if (m->type.ptr) json_str(fp, (const unsigned char *)m->type.ptr, m->type.len);
  else fputs("null", fp);
  fputs(",\"unit\":", fp);
  if (m->unit.ptr) json_str(fp, (const unsigned char *)m->unit.ptr, m->unit.len);
  else fputs("null", fp);
  char tot[48];
  pcol_sum_text(m->total, tot, sizeof tot);
  fprintf(fp, ",\"total\":%s,", m->no_total ? "null" : tot);
  if (m->base_path) {
    fputs("\"base\":", fp);
    json_str(fp, (const unsigned char *)m->base_path, strlen(m->base_path));
    pcol_sum_text(m->base_total, tot, sizeof tot);
    fprintf(fp, ",\"base_total\":%s,", tot);
  }
  if (m->numbers) {
    fputs("\"numbers\":", fp);
    json_str(fp, (const unsigned char *)m->numbers, strlen(m->numbers));
    fputc(',', fp);
  }
  fputs("\"filters\":{", fp);
  const pcol_select *s = m->sel;
  int first = 1;
  if (s) {
    char b[64];
    /* (under a base, cli_select moved --source N to cli_base_source: source N
     * of each side, rd18a F10) */
    uint32_t src = s->source_id ? s->source_id : cli_loaded.base || cli_loaded.diff_base ? cli_base_source : 0;
    if (src) {
      fprintf(fp, "\"source\":%u", src);
      first = 0;
    }
    if (s->has_from) {
      wall_or_seconds(b, sizeof b, s->wall, s->from_ns);
      fprintf(fp, "%s\"from\":%s", first ? "" : ",", b);
      first = 0;
    }
    if (s->has_to) {
      wall_or_seconds(b, sizeof b, s->wall, s->to_ns);
      fprintf(fp, "%s\"to\":%s", first ? "" : ",", b);
      first = 0;
    }
    if (s->wall && (s->has_from || s->has_to)) { /* from/to: seconds since the epoch */
      fprintf(fp, "%s\"wall_clock\":true", first ? "" : ",");
      first = 0;
    }
    for (int i = 0; i < CLI_NFILTERS; i++)
      if (cli_filter_value(s, i)) json_kv(fp, &first, cli_filters[i].key, cli_filter_value(s, i));
    if (s->relative) {
      fprintf(fp, "%s\"relative_percentages\":true", first ? "" : ",");
      first = 0;
    }
  }
  /* how the inputs were read: label frames, a base subtracted */
  const char *lk[] = {"tagroot", "tagleaf", "base", "diff_base"};
  const char *lv[] = {cli_loaded.tagroot, cli_loaded.tagleaf, cli_loaded.base, cli_loaded.diff_base};
  for (int i = 0; i < 4; i++)
    if (lv[i]) json_kv(fp, &first, lk[i], lv[i]);
  if (cli_loaded.normalize) {
    fprintf(fp, "%s\"normalize\":true", first ? "" : ",");
    first = 0;
  }
  fputs("},\"rows\":", fp);
  tbl_begin(t, fp, fmt, ncols, names); /* the '[' */
  t->object = 1;
}
