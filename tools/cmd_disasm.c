/* cmd_disasm.c — `pcol disasm FILE... REGEX`: the profile's routines
 * matching REGEX disassembled, each instruction with flat and cum, printed
 * like `go tool pprof -disasm` (report.go PrintAssembly); the blocks come
 * from pcol_disasm_compute. */
#include "cli.h"
#include <stdlib.h>
#include <string.h>

const cli_opt opts_disasm[] = {
    {"intel", 0, 0, "Intel assembly syntax (pprof -intel_syntax)"},
    CLI_OPT_VALUE("to add up"),
    CLI_OPT_DIVIDE_BY,
    {"unit", 0, 1, "text: minimum (default: each number in its own unit, as pprof -disasm), raw, "
                   "or a unit (ns us ms s hrs, also ps fs; B kB MB GB TB)"},
    CLI_OPT_VIEW_FORMAT(": a row per instruction"),
    CLI_OPTS_VIEW_INPUT,
    {NULL, 0, 0, NULL}};
CLI_OPTS_FIT(opts_disasm);

static int str_differ(pcol_str a, pcol_str b) {
  return a.len != b.len || (a.len && memcmp(a.ptr, b.ptr, a.len));
}

/* Go's %-40s: padded by runes, of the text as printed (the text rule's
 * escapes count); s: less than 40 bytes, at most 4 printed for each */
static size_t runes(pcol_str s) {
  char t[4 * 40 + 1];
  size_t m = cli_text_buf(s.ptr, s.len, t, sizeof t), n = 0;
  for (size_t i = 0; i < m; i++) n += ((unsigned char)t[i] & 0xc0) != 0x80;
  return n;
}

static void print_text(FILE *fp, const pcol_disasm *d, const char *unit) {
  char b1[64], b2[64], p[PCOL_PERCENT_MAX];
  const pcol_str vu = d->value.unit;
  cli_value_label(d->total, vu, unit, b1, sizeof b1);
  fprintf(fp, "Total: %s\n", b1);
  for (size_t i = 0; i < d->nblocks; i++) {
    const pcol_disasm_block *k = &d->blocks[i];
    fputs("ROUTINE ======================== ", fp);
    cli_print_name(fp, k->names[0]);
    fputc('\n', fp);
    for (size_t a = 1; a < k->nnames; a++) {
      fputs("    AKA ======================== ", fp);
      cli_print_name(fp, k->names[a]);
      fputc('\n', fp);
    }
    cli_value_label(k->flat, vu, unit, b1, sizeof b1);
    cli_value_label(k->cum, vu, unit, b2, sizeof b2);
    pcol_percentage(k->cum, d->total, p, sizeof p);
    fprintf(fp, "%10s %10s (flat, cum) %s of Total\n", b1, b2, p);
    /* the location is printed when it differs from the instruction
     * before's: "FUNCTION FILE:LINE" */
    pcol_str fn = {NULL, 0}, file = {NULL, 0};
    int64_t line = 0;
    for (size_t j = 0; j < k->ninsts; j++) {
      const pcol_disasm_inst *in = &k->insts[j];
      int loc = 0;
      if (str_differ(in->function, fn) || str_differ(in->file, file) || in->line != line) {
        fn = in->function;
        file = in->file;
        line = in->line;
        loc = fn.len || file.len;
      }
      char addr[24];
      snprintf(addr, sizeof addr, "%10llx", (unsigned long long)in->address);
      const char *fl = cli_value_or_dot(in->flat, vu, unit, b1, sizeof b1);
      const char *cu = cli_value_or_dot(in->cum, vu, unit, b2, sizeof b2);
      if (loc && in->text.len >= 40) {
        fprintf(fp, "%74s;", "");
        goto where;
      }
      fprintf(fp, "%10s %10s %s: ", fl, cu, addr);
      cli_print_name(fp, in->text);
      if (!loc) {
        fputc('\n', fp);
        continue;
      }
      for (size_t r = runes(in->text); r < 40; r++) fputc(' ', fp);
      fputc(';', fp);
    where:
      if (fn.len) {
        cli_print_name(fp, fn);
        fputc(' ', fp);
      }
      if (file.len) {
        cli_print_name(fp, file);
        if (line) fprintf(fp, ":%lld", (long long)line);
      }
      fputc('\n', fp);
      if (in->text.len >= 40) {
        fprintf(fp, "%10s %10s %s: ", fl, cu, addr);
        cli_print_name(fp, in->text);
        fputc('\n', fp);
      }
    }
  }
}

static void print_table(FILE *fp, out_format fmt, const pcol_disasm *d, const cli_view_meta *m) {
  static const char *const names[] = {"routine", "binary", "address", "instruction", "function",
                                      "file", "line", "flat", "cum", "unit"};
  cli_table tb;
  tbl_begin_view(&tb, fp, fmt, 10, names, m);
  for (size_t i = 0; i < d->nblocks; i++) {
    const pcol_disasm_block *k = &d->blocks[i];
    for (size_t j = 0; j < k->ninsts; j++) {
      const pcol_disasm_inst *in = &k->insts[j];
      tbl_str(&tb, k->names[0].ptr, k->names[0].len);
      tbl_str(&tb, k->binary.ptr, k->binary.len);
      tbl_u64(&tb, in->address);
      tbl_str(&tb, in->text.ptr, in->text.len);
      tbl_str(&tb, in->function.ptr, in->function.len);
      tbl_str(&tb, in->file.ptr, in->file.len);
      tbl_i64(&tb, in->line);
      tbl_sum(&tb, in->flat);
      tbl_sum(&tb, in->cum);
      tbl_str(&tb, d->value.unit.ptr, d->value.unit.len);
      tbl_end_row(&tb);
    }
  }
  tbl_finish(&tb);
}

int cmd_disasm(const cli_command *cmd, cli_args *a) {
  if (a->npos < 2) return cli_usage_error(cmd->name, "expected FILE and REGEX");
  cli_view_in in;
  char unit[32];
  int rc = cli_listing_open(cmd, a, &in, unit);
  if (rc) return rc;
  pcol_error err = {0};
  pcol_disasm d = {0};
  pcol_disasm_options o = {cli_get(cmd, a, "binary-path"), cli_flag(cmd, a, "intel")};
  rc = pcol_disasm_compute(in.f, &in.sel, &in.v, a->pos[a->npos - 1], &o, &d, &err);
  if (d.warnings) {
    fprintf(stderr, "pcol %s: warning: ", cmd->name);
    cli_print_cstr(stderr, d.warnings);
    fputc('\n', stderr);
  }
  if (!rc) {
    if (in.fmt == OUT_TEXT) {
      print_text(stdout, &d, unit);
    } else {
      cli_view_meta m = {"disasm", in.path, in.v.type, in.v.unit, d.total, &in.sel, NULL, 0, NULL, 0};
      print_table(stdout, in.fmt, &d, &m);
    }
  }
  pcol_disasm_free(&d);
  pcol_close(in.f);
  if (rc == PCOL_ENOTFOUND) { /* pprof: an error, and no report */
    fprintf(stderr, "pcol %s: ", cmd->name);
    cli_print_cstr(stderr, err.message);
    fputc('\n', stderr);
    return EXIT_DATA;
  }
  return rc ? cli_fail_in(cmd->name, in.path, &err, rc) : EXIT_OK;
}
