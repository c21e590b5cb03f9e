/* cmd_info.c — `pcol info`: header, tables and sections.  Reads only the
 * header and directory, the small sources/meta tables and, in a file of
 * format 1.3, each source's summary (spec.md §6.10), so it costs the same
 * for any file size; a file without one costs a pass over its samples
 * (pcol_source_summaries), and so does --format json's total. */
#include "cli.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>

const cli_opt opts_info[] = {
    {"format", 0, 1, "text (default: each source, then the file's header, tables and sections), "
                     "or tsv, csv, json, jsonl: a row per source (JSON: with the default value "
                     "type, its unit and the profile's total in it)"},
    CLI_OPT_NO_MMAP,
    CLI_OPT_MAX_OUTPUT,
    CLI_OPT_MAX_ROWS,
    {NULL, 0, 0, NULL}};
CLI_OPTS_FIT(opts_info);

/* the type and unit of value type id (1-based), "NA" when unknown */
static void vt_strs(pcol_file *f, uint32_t id, pcol_str *ts, pcol_str *us) {
  pcol_view t, u;
  *ts = *us = (pcol_str){NULL, 0};
  if (id && id <= pcol_rows(f, PCOL_T_VALUE_TYPES) &&
      !pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, &t, NULL) &&
      !pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT, &u, NULL)) {
    if (pcol_string(f, pcol_view_u32(&t, id - 1), ts, NULL)) ts->ptr = NULL;
    if (pcol_string(f, pcol_view_u32(&u, id - 1), us, NULL)) us->ptr = NULL;
  }
  if (!ts->ptr) *ts = (pcol_str){"NA", 2};
  if (!us->ptr) *us = (pcol_str){"NA", 2};
}

/* "type/unit, ..." for the text view (by the text rule) */
static void value_list(pcol_file *f, const pcol_source_summary *x, char *b, size_t n) {
  size_t at = 0;
  b[0] = 0;
  for (size_t k = 0; k < x->nvalue_types && at + 1 < n; k++) {
    pcol_str ts, us;
    char tx[128], ux[128];
    vt_strs(f, x->value_types[k], &ts, &us);
    cli_text_buf(ts.ptr, ts.len, tx, sizeof tx);
    cli_text_buf(us.ptr, us.len, ux, sizeof ux);
    at += (size_t)snprintf(b + at, n - at, "%s%s/%s", k ? ", " : "", tx, ux);
  }
}

/* the same list for the machine formats: the bytes as stored, whole (the
 * table escapes them for its format, as every other column); *out
 * malloc'd.  0; -1 when out of memory; 1 when the list alone would pass
 * what the output budget has left (cli_budget_need: the budget refuses,
 * exit 3): a list is its value types' names, which many value types may
 * share (2,000 of one 1 MB name: 2 GB held from a 1 MB file, rd19b) */
static int value_list_raw(pcol_file *f, const pcol_source_summary *x, char **out, size_t *len) {
  uint64_t n = 1;
  pcol_str ts, us;
  *out = NULL;
  for (size_t k = 0; k < x->nvalue_types; k++) {
    vt_strs(f, x->value_types[k], &ts, &us);
    n += ts.len + us.len + 3;
    if (cli_budget_need(n)) return 1;
  }
  char *b = n <= SIZE_MAX ? malloc((size_t)n) : NULL;
  if (!b) return -1;
  size_t at = 0;
  for (size_t k = 0; k < x->nvalue_types; k++) {
    vt_strs(f, x->value_types[k], &ts, &us);
    if (k) memcpy(b + at, ", ", 2), at += 2;
    memcpy(b + at, ts.ptr, ts.len), at += ts.len;
    b[at++] = '/';
    memcpy(b + at, us.ptr, us.len), at += us.len;
  }
  *out = b;
  *len = at;
  return 0;
}

static const pcol_str NS = {"nanoseconds", 11};

/* ns >= 0 as seconds to the ns, no trailing zeros ("1s", "1.001s",
 * "0.3s"): the ends of a span a unit label would round alike */
static void secs_text(int64_t ns, char *b, size_t n) {
  int k = snprintf(b, n, "%lld.%09lld", (long long)(ns / 1000000000), (long long)(ns % 1000000000));
  while (k > 0 && (size_t)k < n && b[k - 1] == '0') b[--k] = 0;
  if (k > 0 && (size_t)k < n && b[k - 1] == '.') b[--k] = 0;
  if ((size_t)k + 1 < n) b[k] = 's', b[k + 1] = 0;
}

static int print_comment(void *ctx, pcol_str c) {
  (void)ctx;
  printf("  comment:       "); /* bytes from a file: escaped for the terminal */
  cli_print_str(stdout, c);
  putchar('\n');
  return 0;
}

/* What each source is (pcol_source_summaries), before the file's layout. */
static void print_sources_text(pcol_file *f, const pcol_source_summary *s, size_t n, const int64_t *span) {
  char b1[64], b2[64], vl[2048];
  for (size_t i = 0; i < n; i++) {
    const pcol_source_summary *x = &s[i];
    printf("source %u:%*s", x->id, x->id < 10 ? 8 : x->id < 100 ? 7 : 1, "");
    cli_print_str(stdout, x->type);
    putchar(' ');
    cli_print_str(stdout, x->uri);
    putchar('\n');
    if (x->timestamp_s != PCOL_NA_I64) {
      time_t t = (time_t)x->timestamp_s;
      struct tm tm;
      if (gmtime_r(&t, &tm) && strftime(b1, sizeof b1, "%Y-%m-%d %H:%M:%S UTC", &tm))
        printf("  time:          %s\n", b1);
    }
    if (x->period != PCOL_NA_I64) {
      pcol_unit_label(x->period, x->period_unit, "minimum", b1, sizeof b1);
      if (x->period_min != PCOL_NA_I64) { /* Rprof segments of other intervals */
        char lo[64], hi[64];
        pcol_unit_label(x->period_min, x->period_unit, "minimum", lo, sizeof lo);
        pcol_unit_label(x->period_max, x->period_unit, "minimum", hi, sizeof hi);
        printf("  period:        varies from %s to %s, %s in the first segment (", lo, hi, b1);
      } else {
        printf("  period:        %s (", b1);
      }
      cli_print_str(stdout, x->period_type);
      puts(")");
    }
    /* where its span starts after its time 0 (THE span start,
     * pcol_source_span_starts: a trace's later profile), on the clock of
     * its samples' times below, as the views' ranges place it */
    int64_t off = span ? span[i] : 0, end;
    if (x->duration_ns != PCOL_NA_I64) {
      pcol_unit_label(x->duration_ns, NS, "minimum", b1, sizeof b1);
      printf("  duration:      %s", b1);
      if (off > 0 && !__builtin_add_overflow(off, x->duration_ns, &end)) {
        secs_text(off, b1, sizeof b1);
        secs_text(end, b2, sizeof b2);
        printf(", from %s to %s", b1, b2);
      }
      putchar('\n');
    } else if (off > 0) {
      secs_text(off, b1, sizeof b1);
      printf("  span:          from %s\n", b1);
    }
    char cnt[48];
    pcol_sum_text(x->count, cnt, sizeof cnt);
    if (x->count != (pcol_sum)x->samples) /* pprof's samples/count, or coalesced ticks */
      printf("  samples:       %s (%llu rows)", cnt, (unsigned long long)x->samples);
    else
      printf("  samples:       %llu", (unsigned long long)x->samples);
    if (x->first_ns != PCOL_NA_I64) {
      pcol_unit_label(x->first_ns, NS, "minimum", b1, sizeof b1);
      pcol_unit_label(x->end_ns, NS, "minimum", b2, sizeof b2);
      printf(", at %s .. %s", b1, b2);
    } else if (x->samples) {
      printf(", without times");
    }
    value_list(f, x, vl, sizeof vl);
    printf("\n  values:        %s (default: ", x->nvalue_types ? vl : "none");
    cli_print_str(stdout, x->default_value.type);
    putchar('/');
    cli_print_str(stdout, x->default_value.unit);
    puts(")");
    if (x->note.ptr) { /* bytes from a file: escaped for the terminal */
      printf("  note:          ");
      cli_print_str(stdout, x->note);
      printf("\n");
    }
    /* pprof's comments (go tool pprof -comments), every one as stored */
    if (pcol_meta_each(f, x->id, "pprof.comment", print_comment, NULL, NULL)) {
      /* (a damaged meta table: the listing goes on, as for the note) */
    }
    if (x->derived_cpu || x->derived_alloc)
      printf("  derived:       %s%s%s\n", x->derived_cpu ? "cpu/nanoseconds (interval x ticks)" : "",
             x->derived_cpu && x->derived_alloc ? ", " : "",
             x->derived_alloc ? "rprof.alloc/bytes (memory allocated, as summaryRprof's mem.total)" : "");
  }
}

static int print_sources_table(pcol_file *f, const char *path, out_format fmt,
                               const pcol_source_summary *s, size_t n, const int64_t *span,
                               pcol_error *err) {
  static const char *const names[] = {"source_id", "source_type", "source_uri", "timestamp",
                                      "samples", "first_ns", "end_ns", "duration_ns", "period",
                                      "period_type", "period_unit", "value_types",
                                      "default_type", "default_unit", "derived_values", "period_min",
                                      "period_max", "span_start_ns"};
  cli_view_meta m = {"info", path, {NULL, 0}, {NULL, 0}, 0, NULL, NULL, 0, NULL, 0};
  if (fmt == OUT_JSON) { /* the file's default value and its total */
    pcol_value_sel v;
    pcol_sum *w = NULL;
    int rc = pcol_value_resolve(f, NULL, NULL, &v, err);
    if (!rc) rc = pcol_stack_weights(f, NULL, &v, &w, &m.total, err);
    free(w);
    if (rc) return rc;
    m.type = v.type;
    m.unit = v.unit;
  }
  cli_table tb;
  tbl_begin_view(&tb, stdout, fmt, 18, names, &m);
  for (size_t i = 0; i < n; i++) {
    const pcol_source_summary *x = &s[i];
    tbl_u64(&tb, x->id);
    tbl_str(&tb, x->type.ptr, x->type.len);
    tbl_str(&tb, x->uri.ptr, x->uri.len);
    tbl_i64(&tb, x->timestamp_s);
    tbl_u64(&tb, x->samples);
    tbl_i64(&tb, x->first_ns);
    tbl_i64(&tb, x->end_ns);
    tbl_i64(&tb, x->duration_ns);
    tbl_i64(&tb, x->period);
    tbl_str(&tb, x->period_type.ptr, x->period_type.len);
    tbl_str(&tb, x->period_unit.ptr, x->period_unit.len);
    size_t vlen;
    char *vl;
    int vr = value_list_raw(f, x, &vl, &vlen);
    if (vr) { /* (1: the budget refused: its message, exit 3) */
      tbl_finish(&tb);
      return vr < 0 ? pcol_error_set(err, PCOL_ENOMEM, "out of memory") : PCOL_OK;
    }
    tbl_str(&tb, vl, vlen);
    free(vl);
    tbl_str(&tb, x->default_value.type.ptr, x->default_value.type.len);
    tbl_str(&tb, x->default_value.unit.ptr, x->default_value.unit.len);
    if (x->derived_cpu || x->derived_alloc)
      tbl_cstr(&tb, x->derived_cpu && x->derived_alloc ? "cpu/nanoseconds, rprof.alloc/bytes"
                    : x->derived_cpu ? "cpu/nanoseconds" : "rprof.alloc/bytes");
    else
      tbl_na(&tb);
    tbl_i64(&tb, x->period_min);
    tbl_i64(&tb, x->period_max);
    tbl_i64(&tb, span ? span[i] : 0);
    tbl_end_row(&tb);
  }
  tbl_finish(&tb);
  return PCOL_OK;
}

static const char *type_name(int t) {
  static const char *n[] = {"-", "u8", "u32", "i64", "u64", "f64", "bytes"};
  return t >= 0 && t <= 6 ? n[t] : "?";
}

int cmd_info(const cli_command *cmd, cli_args *a) {
  if (a->npos < 1) return cli_usage_error(cmd->name, "expected a FILE");
  out_format fmt;
  if (cli_view_format(cmd, a, &fmt)) return EXIT_USAGE;
  pcol_file *f;
  const char *path;
  pcol_error oerr = {0};
  int rc = cli_open_args(cmd, a, a->pos, a->npos, NULL, &f, &path, &oerr);
  if (rc) return cli_fail(cmd->name, &oerr, rc);
  struct stat sb; /* a directory or a glob: many inputs, as many files */
  int many = a->npos > 1 || (strcmp(a->pos[0], "-") &&
                             (stat(a->pos[0], &sb) || S_ISDIR(sb.st_mode)));
  pcol_source_summary *sum = NULL;
  size_t nsum = 0;
  pcol_error serr = {0};
  rc = pcol_source_summaries(f, &sum, &nsum, &serr);
  int64_t *span = !rc && nsum ? malloc(nsum * sizeof *span) : NULL;
  pcol_error perr = {0};
  if (span && pcol_source_span_starts(f, span, nsum, &perr)) { /* (a damaged meta table: none said) */
    free(span);
    span = NULL;
  }
  if (!rc && fmt != OUT_TEXT) rc = print_sources_table(f, path, fmt, sum, nsum, span, &serr);
  if (rc || fmt != OUT_TEXT) {
    pcol_source_summaries_free(sum, nsum);
    free(span);
    pcol_close(f);
    return rc ? cli_fail_in(cmd->name, path, &serr, rc) : EXIT_OK;
  }
  pcol_header_info h;
  pcol_file_header(f, &h);
  printf("file:            ");
  cli_print_cstr(stdout, path);
  putchar('\n');
  pcol_format in = many ? PCOL_FMT_UNKNOWN : cli_input_format(a->pos[0]);
  if (many)
    printf("input_format:    the union of the inputs (as `pcol merge` writes it, built in memory)\n");
  if (in != PCOL_FMT_PCOL && in != PCOL_FMT_UNKNOWN) /* the lines below describe the conversion */
    printf("input_format:    %s (converted in memory; `pcol pack` writes this file)\n",
           pcol_format_name(in));
  print_sources_text(f, sum, nsum, span);
  pcol_source_summaries_free(sum, nsum);
  free(span);
  char *note = NULL;
  pcol_error derr = {0};
  bool differ = false;
  pcol_value_sel dv;
  if (!pcol_value_default_note(f, NULL, NULL, NULL, &note, &derr) && note) {
    if (!strncmp(note, "the sources measure", 19)) /* a merge of unrelated profiles */
      printf("default value:   samples/count, each source's own count of samples (the sources' "
             "defaults differ; name one with --value)\n");
    else { /* the sources' stated default (a JFR recording's cpu) */
      printf("default value:   ");
      cli_print_cstr(stdout, note + (!strncmp(note, "the default is ", 15) ? 15 : 0));
      putchar('\n');
    }
    free(note);
  } else if (!pcol_value_defaults_differ(f, NULL, &differ, &derr) && differ &&
             !pcol_value_resolve(f, NULL, NULL, &dv, &derr)) {
    /* no note: the sources without it are parts of a recording that has it */
    printf("default value:   ");
    cli_print_name(stdout, dv.type);
    putchar('/');
    cli_print_name(stdout, dv.unit);
    printf(", the sources' own stated default (pcol.default_value); the parts of its recordings "
           "without it count 0\n");
  }
  printf("format_version:  %u.%u\n", h.major, h.minor);
  printf("file_size:       %llu bytes\n", (unsigned long long)h.file_size);
  printf("sections:        %u (directory at offset %llu)\n", h.dir_count,
         (unsigned long long)h.dir_offset);
  printf("flags:           incompat 0x%llx, compat 0x%llx\n", (unsigned long long)h.incompat_flags,
         (unsigned long long)h.compat_flags);
  printf("checksums:       header crc32 %08x, body crc32 %08x\n", h.header_crc, h.body_crc);

  pcol_error err = {0};
  /* sources (small table) */
  uint64_t ns = pcol_rows(f, PCOL_T_SOURCES);
  pcol_view st, su;
  if (pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE, &st, &err) ||
      pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_URI, &su, &err)) {
    pcol_close(f);
    return cli_fail(cmd->name, &err, err.code ? err.code : PCOL_ECORRUPT);
  }
  printf("sources:         %llu\n", (unsigned long long)ns);
  for (uint64_t i = 0; i < ns && i < 20; i++) {
    pcol_str t, u;
    if (pcol_string(f, pcol_view_u32(&st, i), &t, &err) ||
        pcol_string(f, pcol_view_u32(&su, i), &u, &err)) {
      /* damage met: say so and exit non-zero instead of a silent stop */
      pcol_close(f);
      return cli_fail(cmd->name, &err, err.code ? err.code : PCOL_ECORRUPT);
    }
    printf("  %llu: ", (unsigned long long)i + 1);
    cli_print_str(stdout, t);
    putchar(' ');
    cli_print_str(stdout, u);
    putchar('\n');
  }

  printf("\ntables:\n  %-20s %12s\n", "table", "rows");
  for (int t = 1; t < PCOL_T_COUNT_; t++) {
    const pcol_table_info *ti = pcol_table_info_get(t);
    printf("  %-20s %12llu\n", ti->name, (unsigned long long)pcol_rows(f, t));
  }

  printf("\nsections:\n  %-20s %-15s %-5s %-7s %12s %12s %12s %10s\n", "table", "column", "type",
         "codec", "offset", "stored", "decoded", "elements");
  uint64_t stored = 0, decoded = 0;
  for (uint32_t i = 0; i < pcol_section_count(f); i++) {
    pcol_section_info s;
    if (pcol_section_get(f, i, &s, &err)) {
      pcol_close(f);
      return cli_fail(cmd->name, &err, err.code);
    }
    if (s.column == 0) continue;
    const pcol_table_info *ti = pcol_table_info_get(s.table);
    const pcol_column_info *ci = pcol_column_info_get(s.table, s.column);
    char tb[32], cb[32];
    snprintf(tb, sizeof tb, "%s", ti ? ti->name : "?");
    if (!ti) snprintf(tb, sizeof tb, "unknown(%u)", s.table);
    snprintf(cb, sizeof cb, "%s", ci ? ci->name : "?");
    if (!ci) snprintf(cb, sizeof cb, "unknown(%u)", s.column);
    /* codec, then the transforms: +d delta, +s byte-stream split (1.1), +r
     * row-relative (1.2), +e encoded (1.3: read in place, its lanes' bytes
     * as "decoded") */
    char codec[16];
    snprintf(codec, sizeof codec, "%s%s%s%s%s%s", s.codec == 3 ? "zblk" : s.codec == 2 ? "zstd" : s.codec == 1 ? "lz4" : "raw",
             s.transform ? "+" : "", s.transform & 1 ? "d" : "", s.transform & 4 ? "r" : "",
             s.transform & 2 ? "s" : "", s.transform & 8 ? "e" : "");
    printf("  %-20s %-15s %-5s %-7s %12llu %12llu %12llu %10llu\n", tb, cb, type_name(s.type),
           codec, (unsigned long long)s.offset,
           (unsigned long long)s.stored_size, (unsigned long long)s.decoded_size,
           (unsigned long long)s.count);
    stored += s.stored_size;
    decoded += s.decoded_size;
  }
  printf("\ndata: %llu bytes stored, %llu decoded", (unsigned long long)stored,
         (unsigned long long)decoded);
  if (decoded) printf(" (%.1f%%)", 100.0 * (double)stored / (double)decoded);
  printf("\n");
  pcol_close(f);
  return EXIT_OK;
}
