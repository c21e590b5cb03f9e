/* cmd_info.c — `pcol info`: header, tables and sections.  Reads only the
 * header and directory (and the small sources/meta tables), so it costs the
 * same for any file size. */
#include "cli.h"
#include <stdlib.h>
#include <string.h>

const cli_opt opts_info[] = {
    {"no-mmap", 0, 0, "read the file into memory instead of mapping it"},
    {NULL, 0, 0, NULL}};

static const char *type_name(int t) {
  static const char *n[] = {"-", "u8", "u32", "i64", "u64", "f64", "bytes"};
  return t >= 0 && t <= 6 ? n[t] : "?";
}

int cmd_info(const cli_command *cmd, cli_args *a) {
  if (a->npos != 1) return cli_usage_error(cmd->name, "expected one FILE");
  pcol_file *f;
  int rc = cli_open(cmd, a, a->pos[0], &f);
  if (rc) return rc;
  pcol_header_info h;
  pcol_file_header(f, &h);
  printf("file:            %s\n", a->pos[0]);
  pcol_format in = cli_input_format(a->pos[0]);
  if (in != PCOL_FMT_PCOL && in != PCOL_FMT_UNKNOWN) /* the lines below describe the conversion */
    printf("input_format:    %s (converted in memory; `pcol pack` writes this file)\n",
           pcol_format_name(in));
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
    printf("  %llu: %.*s %.*s\n", (unsigned long long)i + 1, (int)t.len, t.ptr ? t.ptr : "NA",
           (int)u.len, u.ptr ? u.ptr : "NA");
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
    pcol_section_get(f, i, &s);
    if (s.column == 0) continue;
    const pcol_table_info *ti = pcol_table_info_get(s.table);
    const pcol_column_info *ci = pcol_column_info_get(s.table, s.column);
    char tb[32], cb[32];
    snprintf(tb, sizeof tb, "%s", ti ? ti->name : "?");
    if (!ti) snprintf(tb, sizeof tb, "unknown(%u)", s.table);
    snprintf(cb, sizeof cb, "%s", ci ? ci->name : "?");
    if (!ci) snprintf(cb, sizeof cb, "unknown(%u)", s.column);
    /* codec, then the format 1.1 transforms: +d delta, +s byte-stream split */
    char codec[16];
    snprintf(codec, sizeof codec, "%s%s%s%s", s.codec == 2 ? "zstd" : s.codec == 1 ? "lz4" : "raw",
             s.transform ? "+" : "", s.transform & 1 ? "d" : "", s.transform & 2 ? "s" : "");
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
