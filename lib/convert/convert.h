/* convert.h — what lib/convert/detect.c (the dispatcher) needs from the
 * formats beyond include/pcol.h (not installed).  Converters include core's
 * headers (lib/core), this header and their own folder's headers,
 * nothing else. */
#ifndef PCOL_CONVERT_H
#define PCOL_CONVERT_H

#include "pcol.h"
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Perun from JSON text in memory (pcol_import_path maps regular files).
 * mapped: text is a read-only private mapping of a file, whose pages the
 * import hands back as its walks move on (read back from the file when
 * touched again), so that the document is not all resident at once. */
int pcol_import_perun_text(pcol_builder *b, const char *text, size_t len, int mapped, const char *name,
                           pcol_error *err);

/* Names a legacy (pre-protobuf) pprof format, binary or text, from a
 * file's first bytes, or NULL: the formats google/pprof's legacy_profile.go
 * falls back to.  Detection routes them to the pprof importer, which
 * refuses them with this name and the `pprof -proto` command. */
const char *pcol_pprof_legacy_kind(const uint8_t *p, size_t n);

/* 1 when a file's first bytes (uncompressed) are a pprof Profile message:
 * fields of Profile's numbers with their wire types, up to the head's end
 * (pprof_import.c). */
int pcol_pprof_detect(const uint8_t *p, size_t n);

/* 1 when a file's first bytes (uncompressed) are OTLP profiles: JSON
 * lines, length-prefixed frames or one binary message, told from a pprof
 * Profile by field structure (otlp/otlp_wire.c). */
int pcol_otlp_detect(const uint8_t *p, size_t n);
/* 1 when p[0..n) holds a byte that text never does (a control byte other
 * than tab, line feed and carriage return): a binary message's tags and
 * small lengths are such bytes, JSON text has none (otlp/otlp_wire.c;
 * detect.c tells a Perfetto trace from text that starts with a blank line
 * by it). */
int pcol_otlp_binary_byte(const uint8_t *p, size_t n);

/* 1 when a line p[0..n) (without its '\n') is a side-band record that
 * `perf script` prints among the samples (--show-task-events and the like:
 * "comm tid [cpu] time: PERF_RECORD_COMM: ..."), which the perf importer
 * skips (perf/perf_import.c). */
int pcol_perf_sideband(const uint8_t *p, size_t n);
/* 1 when a line is a sample's header with a time or an event name that
 * carries the frame of an event without callchain, as perf prints it
 * ("... cycles:  ip sym (dso) ilen: 5", "... cycles:  addr  ip"). */
int pcol_perf_header_frame(const uint8_t *p, size_t n);
/* What a line holds read as a sample's header: PCOL_PERF_H_TIME,
 * PCOL_PERF_H_CPU, PCOL_PERF_H_EVENT (a "name:" word that is no time),
 * PCOL_PERF_H_LAYOUT (with one of those, a field as perf script's own
 * format prints it: a time of 6 or 9 decimals, a [cpu], a period padded
 * to 10 or an ip to 16 columns), PCOL_PERF_H_IP (none of the first three:
 * a header anchored by the frame it carries, its ip in perf's " %16"
 * field, 17 columns from the field before: `-F comm,tid,ip,sym`; with
 * PCOL_PERF_H_LAYOUT), or 0 when it is no header or a side-band record. */
enum { PCOL_PERF_H_TIME = 1, PCOL_PERF_H_CPU = 2, PCOL_PERF_H_EVENT = 4, PCOL_PERF_H_LAYOUT = 8, PCOL_PERF_H_IP = 16 };
int pcol_perf_header_fields(const uint8_t *p, size_t n);

/* The exporters with options (pcol_export dispatches to them; each public
 * pcol_export_<format> is one of them with the default options).  Each runs
 * under the export budget of its options (stream.h, pcol_budget). */
int pcol_export_rprof_opt(pcol_file *f, const pcol_select *sel, FILE *out,
                          const pcol_export_options *opt, pcol_error *err);
int pcol_export_pprof_opt(pcol_file *f, const pcol_select *sel, FILE *out,
                          const pcol_export_options *opt, pcol_error *err);
int pcol_export_perun_opt(pcol_file *f, const pcol_select *sel, FILE *out,
                          const pcol_export_options *opt, pcol_error *err);
/* pcol_import_collapsed, and when `detected` (the format was not named) a
 * text whose lines are mostly not 'stack count' is refused as not
 * collapsed stacks rather than read as a few stacks of junk
 * (collapsed_import.c) */
int pcol_import_collapsed_as(pcol_builder *b, FILE *in, const char *name, const pcol_import_options *opt,
                             int detected, pcol_error *err);
/* THE count rule of a collapsed-stacks line s[0..n) (its line end and CR
 * taken off), of the importer and of format detection: its count is its
 * last blank-separated token (a space or a tab before it, as
 * flamegraph.pl's `\s+`) when that has a count's syntax ([-+]digits with at
 * most one '.') and something comes before it: the token's start, else 0
 * (not a 'stack count' line). */
size_t pcol_collapsed_count_at(const char *s, size_t n);
int pcol_export_collapsed_opt(pcol_file *f, const pcol_select *sel, FILE *out,
                              const pcol_export_options *opt, pcol_error *err);
int pcol_export_speedscope_opt(pcol_file *f, const pcol_select *sel, FILE *out,
                               const pcol_export_options *opt, pcol_error *err);
int pcol_export_firefox_opt(pcol_file *f, const pcol_select *sel, FILE *out,
                            const pcol_export_options *opt, pcol_error *err);
/* 1 when JSON text starting at p[0..n) (a document's head) is a Firefox
 * Profiler profile (processed or Gecko): its first keys name them. */
int pcol_firefox_sniff(const uint8_t *p, size_t n);
int pcol_export_v8_opt(pcol_file *f, const pcol_select *sel, FILE *out, const pcol_export_options *opt,
                       pcol_error *err);
/* The same samples as Chrome trace events ({"traceEvents": [...]}: a
 * Profile and ProfileChunk events per thread of every selected source,
 * "M" events naming processes and threads; v8_export.c) */
int pcol_export_chrome_opt(pcol_file *f, const pcol_select *sel, FILE *out, const pcol_export_options *opt,
                           pcol_error *err);
int pcol_export_otlp_opt(pcol_file *f, const pcol_select *sel, FILE *out,
                         const pcol_export_options *opt, pcol_error *err);
/* A Perfetto protobuf trace of StackSample packets, a packet sequence per
 * source (perfetto/perfetto_export.c, doc/mappings.md §17.1) */
int pcol_export_perfetto_opt(pcol_file *f, const pcol_select *sel, FILE *out,
                             const pcol_export_options *opt, pcol_error *err);

#endif
