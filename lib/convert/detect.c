/* detect.c — format detection, the import dispatcher and pcol_open_any: the
 * one file of lib/convert that names every format. */
#include "convert.h"
#include "layout.h"   /* PCOL_MAGIC_SIZE, PCOL_MAGIC */
#include "error.h"    /* pcol_oom */
#include "reader.h"   /* struct pcol_file, pcol_open_if_pcol */
#include "validate.h" /* pcol_validate_content */
#include "writer.h"   /* pcol_builder_write_image */
#include "builder.h"  /* pcol_b_add_union */
#include "instream.h" /* pcol_compression, pcol_input_cap, pcol_instream, ... */
#include "stream.h"   /* pcol_replay_stream, pcol_tee_stream */
#include "read_all.h" /* pcol_input, pcol_input_append, pcol_input_free */
#include "ahead.h"    /* pcol_ahead_start, pcol_ahead_take, pcol_ahead_stop */
#include "pb_wire.h"  /* pcol_pb_varint */
#include "loss.h"      /* pcol_export_say */
#include "truncated.h" /* pcol_truncated_total, pcol_truncated_lost */
#include <errno.h>
#include <ctype.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *pcol_format_name(pcol_format f) {
  switch (f) {
  case PCOL_FMT_PCOL: return "pcol";
  case PCOL_FMT_RPROF: return "rprof";
  case PCOL_FMT_PPROF: return "pprof";
  case PCOL_FMT_PERUN: return "perun";
  case PCOL_FMT_COLLAPSED: return "collapsed";
  case PCOL_FMT_SPEEDSCOPE: return "speedscope";
  case PCOL_FMT_CLICKHOUSE: return "clickhouse";
  case PCOL_FMT_FIREFOX: return "firefox";
  case PCOL_FMT_V8: return "v8";
  case PCOL_FMT_PERF: return "perf";
  case PCOL_FMT_OTLP: return "otlp";
  case PCOL_FMT_CHROME: return "chrome";
  case PCOL_FMT_TACHYON: return "tachyon";
  case PCOL_FMT_JFR: return "jfr";
  case PCOL_FMT_PERFETTO: return "perfetto";
  case PCOL_FMT_UNKNOWN: break;
  }
  return "unknown";
}

pcol_format pcol_format_by_name(const char *name) {
  static const pcol_format all[] = {PCOL_FMT_PCOL, PCOL_FMT_RPROF, PCOL_FMT_PPROF,
                                    PCOL_FMT_PERUN, PCOL_FMT_COLLAPSED, PCOL_FMT_SPEEDSCOPE,
                                    PCOL_FMT_CLICKHOUSE, PCOL_FMT_FIREFOX, PCOL_FMT_V8, PCOL_FMT_PERF,
                                    PCOL_FMT_OTLP, PCOL_FMT_CHROME, PCOL_FMT_TACHYON, PCOL_FMT_JFR,
                                    PCOL_FMT_PERFETTO};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    if (strcmp(name, pcol_format_name(all[i])) == 0) return all[i];
  if (strcmp(name, "folded") == 0) return PCOL_FMT_COLLAPSED;
  if (strcmp(name, "cpuprofile") == 0) return PCOL_FMT_V8;
  return PCOL_FMT_UNKNOWN;
}

static int starts(const uint8_t *p, size_t n, const char *s) {
  size_t l = strlen(s);
  return n >= l && memcmp(p, s, l) == 0;
}

/* How many first bytes detection reads (pcol_import_path). */
#define DETECT_HEAD 4096
/* ... and at most, for a JSON document the head leaves undecided (a Chrome
 * trace saved by DevTools: its "metadata" first; an array of events whose
 * first is longer than the head): read on, doubling, up to this. */
#define DETECT_JSON_MAX (16u << 20)

/* p[0..e) (a line without its '\n') ends in a count as the importer reads
 * it: THE count rule of collapsed stacks (pcol_collapsed_count_at: a blank,
 * space or tab, before a [-+]digits[.digits] token after something) */
static int ends_in_count(const uint8_t *p, size_t e) {
  if (e && p[e - 1] == '\r') e--;
  return pcol_collapsed_count_at((const char *)p, e) != 0;
}

/* Text: no NUL and no control byte but tab and CR (UTF-8 is fine).  A
 * protobuf message's first kilobytes always hold small varints. */
static int looks_text_nl(const uint8_t *p, size_t n, int newlines) {
  for (size_t i = 0; i < n; i++)
    if ((p[i] < 0x20 && p[i] != '\t' && p[i] != '\r' && !(newlines && p[i] == '\n')) ||
        p[i] == 0x7f)
      return 0;
  return 1;
}
static int looks_text(const uint8_t *p, size_t n) { return looks_text_nl(p, n, 0); }

/* p[0..len) starts, after whole comment lines ('#', '//') and blank ones,
 * with a line ending in "<blank><count>" (ends_in_count; complete, or the
 * whole text when it is one text line and `whole` says p is all there is
 * to look at). */
static int collapsed_text(const uint8_t *p, size_t len, int whole) {
  size_t at = 0;
  for (;;) {
    size_t e = at;
    while (e < len && p[e] != '\n') e++;
    size_t k = at;
    while (k < e && (p[k] == ' ' || p[k] == '\t' || p[k] == '\r')) k++;
    int comment = k == e || p[k] == '#' || (k + 1 < e && p[k] == '/' && p[k + 1] == '/');
    if (comment && e < len) {
      at = e + 1;
      continue;
    }
    if (comment) return 0;
    int one_line = e == len && whole && looks_text(p + at, len - at);
    return e > at && (e < len || one_line) && ends_in_count(p + at, e - at);
  }
}

/* p[0..n) holds the bytes s (a JSON key, quotes included) */
static int has(const uint8_t *p, size_t n, const char *s) {
  return memmem(p, n, s, strlen(s)) != NULL;
}

/* ------------------------------------------- recognised, not read */
/* Formats pcol recognises by their first bytes and does not read: the
 * refusal names them (and what to do).  The one place for them: an
 * importer for one replaces its line with a PCOL_FMT_ and its detection
 * rule above.  Each test sees the head after leading blanks. */
static int json_with(const uint8_t *p, size_t n, char open, const char *a, const char *b) {
  return n && p[0] == open && has(p, n, a) && (!b || has(p, n, b));
}
/* (read: detect_plain uses this) a JFR chunk's magic "FLR\0" (jfr/jfr_read.c) */
static int is_jfr(const uint8_t *p, size_t n) { return n >= 4 && !memcmp(p, "FLR\0", 4); }
static int is_perf_data(const uint8_t *p, size_t n) { return starts(p, n, "PERFILE2"); }
static int is_simpleperf(const uint8_t *p, size_t n) { return starts(p, n, "SIMPLEPERF"); }
/* (read: detect_plain uses this) CPython's Tachyon: "TACH" as a uint32 in either byte order */
static int is_tachyon(const uint8_t *p, size_t n) { return starts(p, n, "TACH") || starts(p, n, "HCAT"); }
/* (a Chrome trace is read: detect_plain and json_kind use this) */
static int is_chrome_trace(const uint8_t *p, size_t n) {
  size_t i = 1;
  while (n && p[0] == '[' && i < n && isspace(p[i])) i++;
  return json_with(p, n, '{', "\"traceEvents\"", NULL) ||
         (n && p[0] == '[' && (i == n || p[i] == '{' || p[i] == ']') && has(p, n, "\"ph\""));
}
static int is_ghc(const uint8_t *p, size_t n) {
  return has(p, n < 512 ? n : 512, "Time and Allocation Profiling Report") ||
         json_with(p, n, '{', "\"rts_arguments\"", "\"initial_capabilities\"");
}
static int is_stackprof(const uint8_t *p, size_t n) {
  return json_with(p, n, '{', "\"mode\"", NULL) &&
         (has(p, n, "\"missed_samples\"") || has(p, n, "\"gc_samples\"") ||
          has(p, n, "\"raw_timestamp_deltas\""));
}
static int is_dhat(const uint8_t *p, size_t n) { return json_with(p, n, '{', "\"dhatFileVersion\"", NULL); }
/* its keys "label", "duration", "markers" first, then "frames", "memory",
 * "ticks", "allocations", "profile", "systemHost": a recording with
 * markers fills the head with them, whose DevTools fields ("endStack",
 * "isOffMainThread") tell it (speedscope's Firefox/59/firefox.json) */
static int is_devtools_recording(const uint8_t *p, size_t n) {
  return json_with(p, n, '{', "\"systemHost\"", NULL) ||
         (json_with(p, n, '{', "\"label\"", "\"duration\"") && has(p, n, "\"markers\"") &&
          (has(p, n, "\"ticks\"") || has(p, n, "\"allocations\"") || has(p, n, "\"frames\"") ||
           has(p, n, "\"endStack\"") || has(p, n, "\"isOffMainThread\"")));
}
/* (read by the V8 importer: json_kind uses this) */
static int is_v8_head_tree(const uint8_t *p, size_t n) {
  return json_with(p, n, '{', "\"head\"", NULL) &&
         (has(p, n, "\"callUID\"") || has(p, n, "\"timestamps\""));
}
static int is_heapprofile(const uint8_t *p, size_t n) {
  return json_with(p, n, '{', "\"head\"", "\"selfSize\"");
}
static int is_callgrind(const uint8_t *p, size_t n) { return starts(p, n, "# callgrind format"); }
static int is_xz(const uint8_t *p, size_t n) { return n >= 6 && !memcmp(p, "\xfd" "7zXZ\0", 6); }
/* `lz4 -l`'s legacy frames (the frame format, 04 22 4d 18, is read) */
static int is_lz4_legacy(const uint8_t *p, size_t n) { return n >= 4 && !memcmp(p, "\x02\x21\x4c\x18", 4); }
/* (read: detect_plain uses this) A Perfetto trace (protobuf; Chrome's and
 * Android's trace format): every top-level field in the head is Trace's
 * packet = 1 (a message; the last may be cut by the head), and a packet's
 * fields include one of number 4 or more (timestamp 8, sequence id 10,
 * ...), which neither OTLP's ResourceProfiles (1-3) nor a pprof Profile
 * (whose head has fields 2 on, and ValueType's varints 1-2) has; no
 * packet holds a varint field 1 or 2 (a pprof ValueType).  A field whose
 * bytes run past the head counts by its number (a first packet may open
 * with a trace_config larger than the head).  Told before
 * OTLP: protoc writes a packet's fields by number, so a packet may start
 * with process_tree = 2, as a ResourceProfiles starts with its scopes. */
static int is_perfetto(const uint8_t *p, size_t n) {
  /* (text that starts with a blank line has no control byte but \t \r \n) */
  if (n < 8 || p[0] != 0x0a || !pcol_otlp_binary_byte(p, n < 256 ? n : 256)) return 0;
  size_t i = 0;
  int seen = 0;
  while (i < n) {
    uint64_t tag, len;
    if (pcol_pb_varint(p, n, &i, &tag)) break;
    if (tag != 0x0a) return 0;
    if (pcol_pb_varint(p, n, &i, &len)) break;
    size_t e = len > n - i ? n : i + (size_t)len;
    while (i < e) { /* the packet's fields, as far as the head holds them */
      uint64_t t, v;
      if (pcol_pb_varint(p, e, &i, &t)) break;
      uint64_t f = t >> 3, wt = t & 7;
      if (f == 0 || (f < 3 && wt == 0) || wt > 5 || wt == 3 || wt == 4) return 0;
      if (f >= 4) seen = 1; /* (even when its bytes run past the head) */
      if (wt == 0) {
        if (pcol_pb_varint(p, e, &i, &v)) break;
      } else if (wt == 1 || wt == 5) {
        if (e - i < (wt == 1 ? 8u : 4u)) break;
        i += wt == 1 ? 8 : 4;
      } else {
        if (pcol_pb_varint(p, e, &i, &v)) break;
        if (v > e - i) break;
        i += (size_t)v;
      }
    }
    i = e;
  }
  return seen;
}
static int is_bzip2(const uint8_t *p, size_t n) {
  return n >= 4 && starts(p, n, "BZh") && p[3] >= '1' && p[3] <= '9';
}

typedef struct unread_format {
  int (*is)(const uint8_t *p, size_t n);
  const char *what, *hint;
} unread_format;
static const unread_format unread[] = {
  {is_perf_data, "a perf.data file (perf record's binary output)",
   "read the text of `perf script -i FILE` instead"},
  {is_simpleperf, "a simpleperf report_sample protobuf (Android)",
   "read the text of `simpleperf report-sample` or the Firefox Profiler's export instead"},
  {is_devtools_recording, "a Firefox DevTools performance recording (Firefox 66 or older)",
   "speedscope reads it"},
  {is_heapprofile, "a V8 sampling heap profile (.heapprofile)", "speedscope reads it"},
  {is_stackprof, "a Ruby stackprof JSON profile", "speedscope reads it"},
  {is_dhat, "a DHAT heap profile (valgrind --tool=dhat)", "dh_view.html reads it"},
  {is_ghc, "a GHC cost-centre profile (.prof)", "speedscope reads its -pj JSON form"},
  {is_callgrind, "a Callgrind profile (valgrind --tool=callgrind)", "kcachegrind reads it"},
  {is_xz, "xz-compressed data", "pcol unwraps gzip, zstd and lz4; decompress it first: `xz -dc FILE | pcol pack - -o OUT.pcol`"},
  {is_bzip2, "bzip2-compressed data",
   "pcol unwraps gzip, zstd and lz4; decompress it first: `bzip2 -dc FILE | pcol pack - -o OUT.pcol`"},
  {is_lz4_legacy, "lz4 legacy-format data (`lz4 -l`)",
   "pcol unwraps lz4's frame format; decompress it first: `lz4 -dc FILE | pcol pack -`"},
};

/* The entry of `unread` that names the head p[0..n), or NULL. */
static const unread_format *unread_kind(const uint8_t *p, size_t n) {
  for (size_t k = 0; k < sizeof unread / sizeof unread[0]; k++)
    if (unread[k].is(p, n)) return &unread[k];
  size_t i = 0;
  while (i < n && isspace(p[i])) i++;
  for (size_t k = 0; i && k < sizeof unread / sizeof unread[0]; k++)
    if (unread[k].is(p + i, n - i)) return &unread[k];
  return NULL;
}

/* A JSON document: which one, by the keys its head holds.  A V8 profile
 * starts with its node list, each node with a "callFrame"; speedscope
 * names its schema or has "shared" frames and "profiles"; Perun's has one
 * of its own top-level keys.  Anything else is no format pcol reads. */
static pcol_format json_kind(const uint8_t *p, size_t n) {
  /* a Chrome trace (its profile chunks hold "nodes" and "callFrame" too) */
  if (is_chrome_trace(p, n)) return PCOL_FMT_CHROME;
  /* V8: the node list, or the old shape's head tree (Node 10 and older) */
  if ((has(p, n, "\"callFrame\"") && has(p, n, "\"nodes\"")) || is_v8_head_tree(p, n)) return PCOL_FMT_V8;
  /* ... or one with no node (`"nodes":[]`, review 10 m7): its sample arrays */
  if (json_with(p, n, '{', "\"nodes\"", "\"timeDeltas\"") && has(p, n, "\"samples\"")) return PCOL_FMT_V8;
  if (has(p, n, "speedscope.app/file-format-schema") ||
      (has(p, n, "\"shared\"") && has(p, n, "\"frames\"") && has(p, n, "\"profiles\"")))
    return PCOL_FMT_SPEEDSCOPE;
  if (unread_kind(p, n)) return PCOL_FMT_UNKNOWN; /* before Perun's common key names */
  static const char *const perun[] = {"\"resource_type_map\"", "\"resources\"", "\"snapshots\"",
                                      "\"global\"", "\"header\"", "\"collector_info\"",
                                      "\"origin\"", "\"postprocessors\""};
  for (size_t k = 0; k < sizeof perun / sizeof perun[0]; k++)
    if (has(p, n, perun[k])) return PCOL_FMT_PERUN;
  return PCOL_FMT_UNKNOWN;
}

/* perf script text: a first line that is no comment or side-band record
 * (--show-task-events: "perf-exec 0 0.000000: PERF_RECORD_COMM: ...",
 * pcol_perf_sideband; a head of those alone is perf's too) and holds an event
 * "name:" token after a number, followed by an indented frame line
 * "hex symbol (dso)", or a first line that carries its one frame itself
 * ("... cycles:  ffffffff81 sym (dso)").  Blanks are spaces or tabs
 * (simpleperf's text); old perf's frame lines are not indented ("java
 * 19983 cycles:" then "ffffffff8103d0ca sym ([kernel.kallsyms])", after a
 * leading blank line). */
static int is_hexword(const uint8_t *p, size_t i, size_t e, size_t *end) {
  size_t a = i;
  while (i < e && isxdigit(p[i])) i++;
  *end = i;
  return i > a && (i == e || p[i] == ' ' || p[i] == '\t');
}
/* A callchain line as perf script prints it: a tab and the ip in a field
 * of 16 ("\t%16" PRIx64: "\tffffffff82256067 clear_page_erms",
 * "\t           2724a"), then a blank or the line's end (p[e]). */
static int perf_chain_frame(const uint8_t *p, size_t i, size_t e) {
  if (e - i < 17 || p[i] != '\t') return 0;
  size_t k = i + 1;
  while (k < i + 17 && p[k] == ' ') k++;
  if (k == i + 17) return 0;
  for (; k < i + 17; k++)
    if (!isxdigit(p[k])) return 0;
  return k == e || p[k] == ' ' || p[k] == '\r';
}
static int looks_perf(const uint8_t *p, size_t n) {
  size_t i = 0, e, side = 0;
  for (;; i = e + 1) { /* perf script --header, blank lines, side-band records */
    if (i >= n) return side > 0;
    e = i;
    while (e < n && p[e] != '\n') e++;
    if (p[i] == '#' || p[i] == '\n') continue;
    if (!looks_text(p + i, e - i) || !pcol_perf_sideband(p + i, e - i)) break;
    side++; /* --show-task-events: PERF_RECORD_COMM, _FORK, ... before the first sample */
  }
  /* a head of side-band records whose last line the head cut */
  if (e >= n && side) return 1;
  if (e >= n || !looks_text(p + i, e - i)) return 0;
  /* -F with ip and none of time, [cpu] and event (comm,tid,ip; tid,ip,sym;
   * ip): with callchains a header of any fields (none: an empty line,
   * skipped above) followed by a frame as perf pads it; without, every
   * line a header carrying its frame, its ip in perf's " %16" field
   * (PCOL_PERF_H_IP: "        stripped  2187  ffffffff81775b9a elf_load") */
  if (perf_chain_frame(p, i, e)) return 1;
  {
    size_t j = e + 1, f = j;
    while (f < n && p[f] != '\n') f++;
    if (j < n && perf_chain_frame(p, j, f)) return 1;
    if (pcol_perf_header_fields(p + i, e - i) & PCOL_PERF_H_IP)
      return j >= n || f >= n || (pcol_perf_header_fields(p + j, f - j) & PCOL_PERF_H_IP);
  }
  /* a header with a [cpu] or an event name (-F cpu,ip,sym: "[000] ";
   * comm,event,ip,sym: "hot cpu-clock:ppp: ") followed by a callchain frame
   * as perf prints it (a tab, a hex address, a blank: no collapsed stack
   * line starts so; -F without sym and dso prints the address alone:
   * "\tffffffff81775b9a", "\t           1ab70"); a header with a time and
   * an event followed by another
   * (tracepoints, whose lines carry no frame: "dd 14080 [000]
   * 81992.415177: syscalls:sys_enter_write: fd: ..."), where a collapsed
   * stack would hold a frame "81992.415177:" */
  int hf = pcol_perf_header_fields(p + i, e - i);
  if (hf & (PCOL_PERF_H_CPU | PCOL_PERF_H_EVENT)) {
    size_t j = e + 1, f = j, k;
    while (f < n && p[f] != '\n') f++;
    if (pcol_perf_header_frame(p + i, e - i)) return 1; /* its frame on the line, as perf pads it */
    size_t h = j + 1;
    while (h < f && p[h] == ' ') h++;
    if (j < n && p[j] == '\t' && is_hexword(p, h, f, &k)) return 1;
    int both = PCOL_PERF_H_TIME | PCOL_PERF_H_EVENT;
    if ((hf & both) == both && j < n && f < n && (pcol_perf_header_fields(p + j, f - j) & both) == both)
      return 1;
  }
  /* a number (tid or time) and a token ending in ':' after it */
  int num = 0, ev = 0;
  for (size_t k = i; k < e; k++) {
    int after = k == i || p[k - 1] == ' ' || p[k - 1] == '\t';
    if (isdigit(p[k]) && (after || p[k - 1] == '/')) num = 1;
    if (num && p[k] == ':' && (k + 1 == e || p[k + 1] == ' ' || p[k + 1] == '\t' || p[k + 1] == ':')) ev = 1;
  }
  if (!ev) return 0;
  if (e > i && p[e - 1] == ')') return 1; /* a frame on the header line */
  /* a frame on the header line as perf pads it, followed by what -F
   * +insnlen prints (" ilen: 5": no collapsed stack), or without a symbol */
  if (pcol_perf_header_frame(p + i, e - i)) return 1;
  size_t j = e + 1, k, f;
  /* the head ends after the first sample's header: perf's when side-band
   * records came first or the header is in perf's own layout (a one-event
   * file cut after its header, which the importer warns of) */
  if (j >= n) return side > 0 || (hf & PCOL_PERF_H_LAYOUT);
  if (p[j] != ' ' && p[j] != '\t') { /* old perf: "hex sym (dso)" unindented */
    f = j;
    while (f < n && p[f] != '\n') f++;
    while (f > j && (p[f - 1] == ' ' || p[f - 1] == '\r')) f--;
    return f < n && is_hexword(p, j, f, &k) && k < f && p[f - 1] == ')' && looks_text(p + j, f - j);
  }
  int tab = p[j] == '\t';
  while (j < n && (p[j] == ' ' || p[j] == '\t')) j++;
  /* a frame, or after a tab its address alone (-F ip without sym and dso) */
  return is_hexword(p, j, n, &k) || (tab && k > j && k < n && p[k] == '\n');
}

/* A header anchored by its ip (PCOL_PERF_H_IP) that ends p[i..t) in a
 * field padded like perf's ip, all decimal digits (a non-PIE program's
 * 401128), is perf's by what comes before that field: nothing (-F ip:
 * "            401128"), or a first blank (the comm's "%16s", at most 15
 * characters: "             hot            401128"; a pid or tid of fewer
 * than 5 digits, a period of fewer than 10), or numbers alone (pid, tid,
 * period: "20074/20074            401128", "20074    1001001    ...").  A
 * collapsed line whose count is padded so ("main;f            1234")
 * begins with its first frame's name. */
static int perf_ip_fields(const uint8_t *p, size_t i, size_t t) {
  while (t > i && p[t - 1] != ' ' && p[t - 1] != '\t') t--; /* the ip's start */
  if (t == i || p[i] == ' ' || p[i] == '\t') return 1;
  for (size_t k = i; k < t; k++)
    if (!isdigit(p[k]) && p[k] != '/' && p[k] != ' ' && p[k] != '\t') return 0;
  return 1;
}

/* Text that reads as perf script's (looks_perf) and is collapsed stacks
 * all the same: every whole line (but comments and blank ones) ends in
 * "<blank><count>" (ends_in_count), and none is a line only perf prints: a
 * callchain frame (blanks, a hex address, a blank and more) or a header
 * with a field in perf's own layout (PCOL_PERF_H_LAYOUT; a count padded
 * like perf's ip, PCOL_PERF_H_IP, only with perf's fields before it:
 * perf_ip_fields).  So a flame-graph line "x 1.5: cpu-clock: 3", whose
 * words read as a header with its ip, stays collapsed; a header perf
 * printed keeps a padded field or its "%06lu" time.  The head's cut last
 * line is judged by the second rule alone. */
static int collapsed_not_perf(const uint8_t *p, size_t n) {
  size_t whole = 0;
  for (size_t i = 0, e; i < n; i = e + 1) {
    e = i;
    while (e < n && p[e] != '\n') e++;
    size_t k = i, t = e;
    while (k < e && (p[k] == ' ' || p[k] == '\t')) k++;
    if (t > i && p[t - 1] == '\r') t--;
    if (k == t || p[k] == '#' || (k + 1 < t && p[k] == '/' && p[k + 1] == '/')) continue;
    size_t h;
    if ((k > i && is_hexword(p, k, t, &h) && h < t) || perf_chain_frame(p, i, t)) return 0;
    int hf = pcol_perf_header_fields(p + i, t - i);
    if ((hf & PCOL_PERF_H_LAYOUT) && (!(hf & PCOL_PERF_H_IP) || perf_ip_fields(p, i, t))) return 0;
    if (e < n && !ends_in_count(p + i, e - i)) return 0;
    whole += e < n;
  }
  return whole > 0;
}

/* The format of uncompressed bytes (pcol_import_path has unwrapped them). */
static int utf8_bom(const uint8_t *p, size_t n) { return n >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf; }
static int utf16_bom(const uint8_t *p, size_t n) {
  return n >= 2 && ((p[0] == 0xff && p[1] == 0xfe) || (p[0] == 0xfe && p[1] == 0xff));
}

static pcol_format detect_plain(const uint8_t *p, size_t len) {
  if (starts(p, len, PCOL_MAGIC)) return PCOL_FMT_PCOL;
  if (utf8_bom(p, len)) p += 3, len -= 3; /* (a JSON document's: import_stream skips it) */
  if (is_tachyon(p, len)) return PCOL_FMT_TACHYON;
  /* Perfetto, then OTLP by their field structure (gzip inflated), before
   * pprof and Perun */
  if (is_perfetto(p, len)) return PCOL_FMT_PERFETTO;
  if (pcol_otlp_detect(p, len)) return PCOL_FMT_OTLP;
  if (is_jfr(p, len)) return PCOL_FMT_JFR;
  if (starts(p, len, "memory profiling: ") || starts(p, len, "GC profiling: ") ||
      starts(p, len, "line profiling: ") || starts(p, len, "sample.interval="))
    return PCOL_FMT_RPROF;
  size_t i = 0;
  while (i < len && isspace(p[i])) i++;
  if (i < len && p[i] == '{')
    return pcol_firefox_sniff(p + i, len - i) ? PCOL_FMT_FIREFOX : json_kind(p + i, len - i);
  /* a JSON array of Chrome's trace events */
  if (i < len && p[i] == '[' && is_chrome_trace(p + i, len - i)) return PCOL_FMT_CHROME;
  /* a format pcol recognises and does not read (text or binary): refused
   * with its name (import_stream) */
  if (unread_kind(p, len)) return PCOL_FMT_UNKNOWN;
  if (looks_perf(p, len) && !collapsed_not_perf(p, len)) return PCOL_FMT_PERF;
  /* legacy (pre-protobuf) pprof, binary or text: the pprof importer
   * rejects it with a message that names the format (before collapsed:
   * "threadcreate profile: total 7" ends in a count) */
  if (pcol_pprof_legacy_kind(p, len)) return PCOL_FMT_PPROF;
  /* collapsed stacks: a text line ending in "<blank><count>" (ends_in_count;
   * the head's first line, or the whole head when it is text without a
   * line end), after comment lines ('#', '//') and blank ones, which the
   * importer skips as speedscope and flamegraph.pl do; text in UTF-16 with a BOM is read as
   * its UTF-8 (collapsed_import.c), so its ASCII is looked at here */
  if (utf16_bom(p, len)) {
    uint8_t a[DETECT_HEAD / 2];
    size_t n = 0;
    for (size_t k = 2; k + 1 < len && n < sizeof a; k += 2) {
      uint8_t lo = p[k + (p[0] == 0xfe)], hi = p[k + (p[0] == 0xff)];
      a[n++] = hi ? 'x' : lo;
    }
    return collapsed_text(a, n, 0) ? PCOL_FMT_COLLAPSED : PCOL_FMT_UNKNOWN;
  }
  if (collapsed_text(p, len, 1)) return PCOL_FMT_COLLAPSED;
  size_t e = 0;
  while (e < len && p[e] != '\n') e++;
  int one_line = e == len && looks_text(p, len);
  /* text without a line end in the whole head is never protobuf: a first
   * line longer than the head is a collapsed line with long frame names */
  if (one_line && len) return len >= DETECT_HEAD ? PCOL_FMT_COLLAPSED : PCOL_FMT_UNKNOWN;
  /* text (lines of printable bytes) is never a Profile: its fields carry
   * lengths and varints, bytes below 0x20, within the first few bytes */
  if (looks_text_nl(p, len, 1)) return PCOL_FMT_UNKNOWN;
  /* protobuf: Profile's fields with their wire types */
  if (len >= 2 && pcol_pprof_detect(p, len)) return PCOL_FMT_PPROF;
  return PCOL_FMT_UNKNOWN;
}

/* Any input is detected by its content: a compressed one (gzip, zstd, lz4) by
 * the first bytes it decompresses to (every importer reads it so, through
 * pcol_import_path). */
pcol_format pcol_detect_format(const void *head, size_t len) {
  if (!pcol_compression(head, len)) return detect_plain(head, len);
  uint8_t in[DETECT_HEAD];
  return detect_plain(in, pcol_unwrap_head(head, len, in, sizeof in));
}

/* ------------------------------------------------------ import a path */

/* An opened input and its first bytes (read to detect the format). */
typedef struct input {
  FILE *in;                /* the bytes the importer reads (decompressed) */
  const char *path, *name; /* name: for messages ("<stdin>" for "-") */
  int is_stdin;
  int is_pipe; /* read once (standard input, a FIFO, `<(cmd)`): never opened again */
  uint8_t head[DETECT_HEAD];
  size_t n;
  uint8_t *big; /* a JSON document's head read on (json_head): big[0..nbig) replaces head */
  size_t nbig;
  /* a compressed input: the file, and `in` decompressing it */
  FILE *raw, *replay;
  pcol_instream *o;
  /* a compressed pipe: the bytes of it the head took, kept (rec), so that
   * pprof can read the input again from its first byte (import_pprof_pipe) */
  pcol_input rec;
  pcol_tee rec_tee;
  FILE *teed;
} input;

/* A compressed input (gzip, zstd, lz4: lib/core/instream.c) is read through a
 * stream that decompresses it, under the inflate cap: head[] is then its
 * first decompressed bytes, and every format reads it so. */
static int unwrap_input(input *x, const pcol_import_options *opt, pcol_error *err) {
  if (!pcol_compression(x->head, x->n)) return PCOL_OK;
  x->raw = x->in;
  FILE *rest = x->raw;
  struct stat st;
  if (fstat(fileno(x->raw), &st) != 0 || !S_ISREG(st.st_mode)) { /* a pipe */
    x->rec_tee = (pcol_tee){&x->rec, x->name, 0, 0, {0}};
    int rc = pcol_input_append(&x->rec, x->head, x->n, x->name, err);
    if (rc) return rc;
    if (!(rest = x->teed = pcol_tee_stream(x->raw, &x->rec_tee))) return pcol_oom(err);
  }
  if (!(x->replay = pcol_replay_stream(x->head, x->n, rest))) return pcol_oom(err);
  int rc = pcol_instream_open(&x->o, x->replay, x->name, opt, &x->in, err);
  if (rc) return rc;
  x->n = fread(x->head, 1, sizeof x->head, x->in);
  x->rec_tee.off = 1; /* the format is told from head[] alone */
  return x->rec_tee.rc ? (*err = x->rec_tee.err, x->rec_tee.rc) : PCOL_OK;
}

/* Opens path ("-": standard input) and reads its head. */
/* name: what the source and messages call it (NULL: the path) */
static int open_input(input *x, const char *path, const char *name, pcol_error *err) {
  x->is_stdin = strcmp(path, "-") == 0;
  x->path = path;
  x->name = name ? name : x->is_stdin ? "<stdin>" : path;
  x->in = x->is_stdin ? stdin : fopen(path, "rbe");
  if (!x->in) return pcol_error_set(err, PCOL_EIO, "%s: %s", path, strerror(errno));
  struct stat st;
  x->is_pipe = x->is_stdin || fstat(fileno(x->in), &st) != 0 || !S_ISREG(st.st_mode);
  errno = 0;
  x->n = fread(x->head, 1, sizeof x->head, x->in);
  if (ferror(x->in)) { /* a directory opens, then fails to read: say so */
    int e = errno;
    if (!x->is_stdin) fclose(x->in);
    return pcol_error_set(err, PCOL_EIO, "%s: %s", x->name, e ? strerror(e) : "read error");
  }
  return PCOL_OK;
}

/* Closes the input; its stream's own error (corrupt or truncated data,
 * the cap) wins over the importer's result rc (read on to find it when
 * `drain`: the importer stopped early, maybe at that error). */
static int close_input(input *x, int rc, int drain, pcol_error *err) {
  if (x->o) {
    int orc = drain >= 0 ? pcol_instream_finish(x->o, drain ? rc : 0, err) : 0;
    if (orc) rc = orc;
    pcol_instream_free(x->o);
  }
  if (x->replay) fclose(x->replay);
  if (x->teed) fclose(x->teed);
  free(x->big), x->big = NULL;
  pcol_input_free(&x->rec);
  FILE *f = x->raw ? x->raw : x->in;
  if (f && !x->is_stdin) fclose(f);
  return rc;
}

/* An open pcol file, validated (in full, or but for the checksums when
 * the union is only read: sums = 0), copied into the builder (as_union: a
 * union written before, row for row into the empty builder:
 * pcol_b_add_union). */
static int add_open_pcol(pcol_builder *b, pcol_file *f, int sums, int as_union,
                         pcol_error *err) {
  int rc = sums ? pcol_validate_full(f, err) : pcol_validate_content(f, err);
  return rc ? rc : as_union ? pcol_b_add_union(b, f, err) : pcol_b_add_file(b, f, err);
}

/* A pcol file: opened (validated in full) and copied into the builder. */
static int import_pcol(pcol_builder *b, input *x, const pcol_import_options *opt,
                       pcol_error *err) {
  pcol_file *f = NULL;
  pcol_open_options oo = {0};
  oo.no_mmap = opt && opt->no_mmap;
  int rc;
  if (x->is_pipe || x->o) {
    /* a pcol file needs random access: read it whole, head first */
    FILE *s = pcol_replay_stream(x->head, x->n, x->in);
    rc = s ? pcol_open_stream(s, x->name, &oo, &f, err) : pcol_oom(err);
    if (s) fclose(s);
  } else {
    rc = pcol_open(x->path, &oo, &f, err);
  }
  if (!rc) rc = add_open_pcol(b, f, 1, 0, err);
  pcol_close(f);
  /* a refusal names the input, as every importer's does: the file's checks
   * (pcol_validate_full) name the table, opening by path names the path,
   * which is not the input's name for a profile fetched into a temporary
   * file (pcol_open_any does the same) */
  if (rc && err && !strstr(err->message, x->name)) pcol_error_prefix(err, x->name);
  return rc;
}

/* Perun is walked in place: a regular file is mapped instead of read.
 * NOT_MAPPED when it cannot be (not a regular file, empty, mmap failed):
 * the caller reads it as a stream then. */
enum { NOT_MAPPED = 1 };
static int import_perun_mapped(pcol_builder *b, input *x, const pcol_import_options *opt,
                               pcol_error *err) {
  struct stat st;
  uint64_t cap = pcol_input_cap(opt);
  if (fstat(fileno(x->in), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0)
    return NOT_MAPPED;
  if ((uint64_t)st.st_size > cap || (uint64_t)st.st_size > SIZE_MAX)
    return pcol_error_set(err, PCOL_ETOOBIG, "%s: input is larger than the limit of %llu bytes",
                          x->name, (unsigned long long)cap);
  void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fileno(x->in), 0);
  if (m == MAP_FAILED) return NOT_MAPPED;
  int rc = pcol_import_perun_text(b, m, (size_t)st.st_size, 1, x->name, err);
  munmap(m, (size_t)st.st_size);
  return rc;
}

/* 1 when the input is a regular file, not compressed, put back where its
 * head began: an importer that seeks (Tachyon: its tables are at the end)
 * or maps (binary OTLP) reads it in place instead of through the replay
 * stream. */
static int rewound(input *x) {
  struct stat st;
  off_t pos;
  if (x->o || fstat(fileno(x->in), &st) != 0 || !S_ISREG(st.st_mode) || (pos = ftello(x->in)) < (off_t)x->n)
    return 0;
  return fseeko(x->in, pos - (off_t)x->n, SEEK_SET) == 0;
}

/* Any other format: the importer reads a stream that replays the head and
 * then the rest of the input (so pipes work too). */
static int import_stream(pcol_builder *b, input *x, pcol_format fmt, int detected,
                         const pcol_import_options *opt, pcol_error *err) {
  if (fmt == PCOL_FMT_TACHYON && rewound(x)) return pcol_import_tachyon(b, x->in, x->name, opt, err);
  if (fmt == PCOL_FMT_OTLP && rewound(x)) return pcol_import_otlp(b, x->in, x->name, opt, err); /* (mapped) */
  if (fmt == PCOL_FMT_PERFETTO && rewound(x)) return pcol_import_perfetto(b, x->in, x->name, opt, err); /* (mapped) */
  /* a JSON format's UTF-8 byte-order mark is left out (as a browser's
   * TextDecoder does before JSON.parse) */
  const uint8_t *h = x->big ? x->big : x->head;
  size_t hn = x->big ? x->nbig : x->n, bom = utf8_bom(h, hn) && fmt != PCOL_FMT_COLLAPSED ? 3 : 0;
  FILE *s = pcol_replay_stream(h + bom, hn - bom, x->in);
  if (!s) return pcol_oom(err);
  int rc;
  switch (fmt) {
  case PCOL_FMT_RPROF: rc = pcol_import_rprof(b, s, x->name, opt, err); break;
  case PCOL_FMT_PPROF: rc = pcol_import_pprof(b, s, x->name, opt, err); break;
  case PCOL_FMT_PERUN: rc = pcol_import_perun(b, s, x->name, opt, err); break;
  case PCOL_FMT_COLLAPSED: rc = pcol_import_collapsed_as(b, s, x->name, opt, detected, err); break;
  case PCOL_FMT_OTLP: rc = pcol_import_otlp(b, s, x->name, opt, err); break;
  case PCOL_FMT_JFR: rc = pcol_import_jfr(b, s, x->name, opt, err); break;
  case PCOL_FMT_PERFETTO: rc = pcol_import_perfetto(b, s, x->name, opt, err); break;
  case PCOL_FMT_V8: rc = pcol_import_v8(b, s, x->name, opt, err); break;
  case PCOL_FMT_CHROME: rc = pcol_import_chrome(b, s, x->name, opt, err); break;
  case PCOL_FMT_TACHYON: rc = pcol_import_tachyon(b, s, x->name, opt, err); break;
  case PCOL_FMT_PERF: rc = pcol_import_perf(b, s, x->name, opt, err); break;
  case PCOL_FMT_SPEEDSCOPE: rc = pcol_import_speedscope(b, s, x->name, opt, err); break;
  case PCOL_FMT_FIREFOX: rc = pcol_import_firefox(b, s, x->name, opt, err); break;
  default: {
    /* the hint names an option that exists in every command's world: pack's
     * --from (top's --from is seconds; reading commands detect only) */
    size_t i = 0;
    const unread_format *u;
    /* what detection read: the head, or a JSON document's read on (json_head) */
    const uint8_t *seen = x->big ? x->big : x->head;
    size_t nseen = x->big ? x->nbig : x->n;
    while (i < x->n && isspace(x->head[i])) i++;
    if (i == x->n && x->n < sizeof x->head)
      rc = pcol_error_set(err, PCOL_EFORMAT,
                          "%s: empty input, no profile in it (an empty collapsed-stacks file, which "
                          "`pcol unpack --to collapsed` writes when no stack has a value, reads with "
                          "`pcol pack --from collapsed`)", x->name);
    else if ((u = unread_kind(seen, nseen)))
      rc = pcol_error_set(err, PCOL_EFORMAT, "%s: %s: pcol does not read this format (%s)",
                          x->name, u->what, u->hint);
    else if (utf16_bom(x->head, x->n))
      rc = pcol_error_set(err, PCOL_EFORMAT, "%s: UTF-16 text (it starts with a UTF-16 byte-order mark): UTF-16 is "
                          "not supported but for collapsed stacks, convert it to UTF-8 (`iconv -f UTF-16 -t UTF-8 "
                          "FILE > OUT`)", x->name);
    else
      rc = pcol_error_set(err, PCOL_EFORMAT,
                          "%s: unrecognised input format (expected Rprof, pprof, Perun, "
                          "collapsed stacks, V8 .cpuprofile, perf script, speedscope, Firefox Profiler, OTLP, Chrome trace, Tachyon, JFR, Perfetto or pcol; name the format with `pcol pack --from FORMAT "
                          "FILE -o OUT.pcol`)", x->name);
  }
  }
  fclose(s);
  return rc;
}

/* pprof reads an input past its window twice (pprof_import.c): a regular
 * file of more than 1 MiB is handed over as it is, from its first byte,
 * compressed or not, so the importer can seek back to it.  NOT_MAPPED
 * otherwise: the stream then (standard input, a pipe: the importer copies it
 * as it reads it; a small file's message is read once, in its window, and
 * inflating it again from its start would cost more than the stream's head
 * did: top DIR of 200 small .pb.gz files, 62 -> 85 ms). */
#define PPROF_REREAD_BYTES ((off_t)1 << 20)

/* A compressed pipe: pprof reads it from its first byte, the bytes the head
 * took (rec) and then the rest of the pipe, and so keeps its copy for the
 * second pass compressed (pprof_import.c), not the message inflated.  The
 * head's own inflating stream is left unread (close_input's drain -1). */
static int import_pprof_pipe(pcol_builder *b, input *x, const pcol_import_options *opt,
                             pcol_error *err) {
  FILE *again = pcol_replay_stream(x->rec.buf.data, x->rec.buf.len, x->raw);
  if (!again) return pcol_oom(err);
  int rc = pcol_import_pprof(b, again, x->name, opt, err);
  fclose(again);
  return rc;
}
static int import_pprof_file(pcol_builder *b, input *x, const pcol_import_options *opt,
                             pcol_error *err) {
  FILE *f = x->raw ? x->raw : x->in;
  struct stat st;
  if (x->is_stdin || fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) ||
      st.st_size <= PPROF_REREAD_BYTES || fseeko(f, 0, SEEK_SET) != 0)
    return NOT_MAPPED;
  return pcol_import_pprof(b, f, x->name, opt, err);
}

/* The import of input x, opened (and unwrapped): pcol_import_path's and
 * import_inflated's one rule. */
/* A JSON document ('{' or '[' first, after blanks and a UTF-8 BOM) whose
 * format the head leaves undecided (unknown, or an array whose first line
 * is longer than the head: collapsed by the head alone): read on, the
 * bytes kept in x->big, doubling up to DETECT_JSON_MAX, until detection
 * decides.  Other inputs are not read further. */
static pcol_format json_head(input *x, pcol_format fmt) {
  size_t i = utf8_bom(x->head, x->n) ? 3 : 0;
  while (i < x->n && isspace(x->head[i])) i++;
  if (x->n < sizeof x->head || i >= x->n || (x->head[i] != '{' && x->head[i] != '[') ||
      !(fmt == PCOL_FMT_UNKNOWN || (fmt == PCOL_FMT_COLLAPSED && !memchr(x->head, '\n', x->n))))
    return fmt;
  size_t cap = 2 * sizeof x->head;
  if (!(x->big = malloc(cap))) return fmt; /* (undecided: as without) */
  memcpy(x->big, x->head, x->n);
  x->nbig = x->n;
  for (;;) {
    x->nbig += fread(x->big + x->nbig, 1, cap - x->nbig, x->in);
    pcol_format f = detect_plain(x->big, x->nbig);
    /* collapsed by a whole line (a first frame "[unknown]"): decided, not
     * read on to the bound */
    if (f == PCOL_FMT_COLLAPSED && memchr(x->big, '\n', x->nbig)) return f;
    if ((f != PCOL_FMT_UNKNOWN && f != PCOL_FMT_COLLAPSED) || x->nbig < cap || cap >= DETECT_JSON_MAX)
      return f == PCOL_FMT_UNKNOWN || f == PCOL_FMT_COLLAPSED ? fmt : f;
    uint8_t *n = realloc(x->big, cap * 2);
    if (!n) return fmt;
    x->big = n, cap *= 2;
  }
}

static int import_input(pcol_builder *b, input *x, pcol_format fmt, const pcol_import_options *opt,
                        pcol_error *err) {
  int rc, detected = fmt == PCOL_FMT_UNKNOWN;
  if (detected) fmt = json_head(x, detect_plain(x->head, x->n));
  if (fmt == PCOL_FMT_PCOL) {
    rc = import_pcol(b, x, opt, err);
  } else {
    rc = NOT_MAPPED;
    if (fmt == PCOL_FMT_PERUN && !x->is_pipe && !x->o && !(opt && opt->no_mmap) && !x->big &&
        !utf8_bom(x->head, x->n))
      rc = import_perun_mapped(b, x, opt, err);
    if (fmt == PCOL_FMT_PPROF && x->teed && !x->rec.spill)
      return close_input(x, import_pprof_pipe(b, x, opt, err), -1, err);
    if (fmt == PCOL_FMT_PPROF && (rc = import_pprof_file(b, x, opt, err)) != NOT_MAPPED)
      return close_input(x, rc, 0, err); /* its own stream read the file, and any error */
    if (rc == NOT_MAPPED) rc = import_stream(b, x, fmt, detected, opt, err);
  }
  return close_input(x, rc, fmt != PCOL_FMT_UNKNOWN, err);
}

pcol_format pcol_detect_path(const char *path) {
  input x = {0};
  pcol_error e;
  pcol_format f = PCOL_FMT_UNKNOWN;
  memset(&e, 0, sizeof e);
  if (open_input(&x, path, NULL, &e)) return f;
  if (!unwrap_input(&x, NULL, &e)) f = json_head(&x, detect_plain(x.head, x.n));
  close_input(&x, 0, -1, &e);
  return f;
}

/* pcol_import_path of input path under its name (NULL: the path). */
static int import_named(pcol_builder *b, const char *path, const char *name, pcol_format fmt,
                        const pcol_import_options *opt, pcol_error *err) {
  input x = {0};
  int rc = open_input(&x, path, name, err);
  if (rc) return rc;
  rc = unwrap_input(&x, opt, err);
  if (rc) return close_input(&x, rc, 0, err);
  return import_input(b, &x, fmt, opt, err);
}

int pcol_import_path(pcol_builder *b, const char *path, pcol_format fmt,
                     const pcol_import_options *opt, pcol_error *err) {
  return import_named(b, path, opt && opt->names ? opt->names[0] : NULL, fmt, opt, err);
}

/* Whether input bytes p[0..n), inflated ahead (ahead.c), import from memory
 * as their file would (fmt: the format asked, or PCOL_FMT_UNKNOWN): not
 * compressed again (the file's import unwraps once) and not a pcol file
 * (read by its path). */
static int inflated_usable(const uint8_t *p, size_t n, pcol_format fmt) {
  if (fmt == PCOL_FMT_UNKNOWN) fmt = detect_plain(p, n < DETECT_HEAD ? n : DETECT_HEAD);
  return p && !pcol_compression(p, n) && fmt != PCOL_FMT_PCOL;
}

/* Input path imported from its bytes inflated ahead, buf[0..len): what
 * pcol_import_path makes of the file once unwrap_input has inflated it
 * (the same stream past the head: an importer sees no difference, and the
 * stream's errors were ruled out when it was inflated). */
static int import_inflated(pcol_builder *b, const char *path, const char *name, uint8_t *buf,
                           size_t len, pcol_format fmt, const pcol_import_options *opt,
                           pcol_error *err) {
  input x = {0};
  x.path = path;
  x.name = name ? name : path;
  if (!(x.in = fmemopen(buf, len, "rb"))) return pcol_oom(err);
  x.n = fread(x.head, 1, sizeof x.head, x.in);
  return import_input(b, &x, fmt, opt, err);
}

/* Input i's bytes inflated ahead, if its import can take them
 * (inflated_usable; fmt: the format asked), else NULL: read from its file. */
static uint8_t *take_inflated(pcol_ahead *a, size_t i, pcol_format fmt, size_t *len) {
  uint8_t *buf = NULL;
  if (pcol_ahead_take(a, i, &buf, len) && !inflated_usable(buf, *len, fmt)) {
    free(buf);
    buf = NULL;
  }
  return buf;
}

/* Stops the read-ahead; PCOL_DEBUG=inputs: how many of n inputs it gave. */
static void ahead_end(pcol_ahead *a, size_t inflated, size_t n) {
  const char *dbg = a ? getenv("PCOL_DEBUG") : NULL;
  pcol_ahead_stop(a);
  if (dbg && strstr(dbg, "inputs"))
    fprintf(stderr, "pcol: debug: %zu of %zu inputs inflated ahead, on a thread\n", inflated, n);
}

/* The first input of pcol_import_paths when it is a union written before
 * (pcol_import_options.first_is_union): validated in full, then its rows
 * as they are (pcol_b_add_union). */
static int import_union(pcol_builder *b, const char *path, const pcol_import_options *opt,
                        pcol_error *err) {
  pcol_file *f = NULL;
  pcol_open_options oo = {0};
  oo.no_mmap = opt->no_mmap;
  int rc = pcol_open(path, &oo, &f, err);
  if (!rc) rc = add_open_pcol(b, f, 1, 1, err);
  pcol_close(f);
  return rc;
}

int pcol_import_paths(pcol_builder *b, const char *const *paths, size_t n, pcol_format fmt,
                      const pcol_import_options *opt, pcol_import_after after, void *ctx,
                      pcol_error *err) {
  pcol_ahead *ahead = pcol_ahead_start(paths, n, opt);
  size_t inflated = 0;
  int rc = PCOL_OK;
  for (size_t i = 0; !rc && i < n; i++) {
    size_t len = 0;
    uint8_t *buf = take_inflated(ahead, i, fmt, &len);
    inflated += buf != NULL;
    const char *name = opt && opt->names ? opt->names[i] : NULL;
    rc = i == 0 && opt && opt->first_is_union ? import_union(b, paths[0], opt, err)
         : buf ? import_inflated(b, paths[i], name, buf, len, fmt, opt, err)
               : import_named(b, paths[i], name, fmt, opt, err);
    free(buf);
    if (after) rc = after(ctx, i, rc, err);
  }
  ahead_end(ahead, inflated, n);
  return rc;
}

/* ------------------------------------------------------ any input */
/* The size of input PATH as it is on disk (0: unknown: standard input, a
 * pipe), the base of the converted file's budgets (pcol_input_bytes). */
static uint64_t size_on_disk(const char *path) {
  struct stat st;
  if (!strcmp(path, "-") || stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return 0;
  return st.st_size > 0 ? (uint64_t)st.st_size : 1;
}

/* Writes what b holds to memory, frees b (also on failure) and opens the
 * copy as *out, which pcol_close frees: how an input that is not one pcol
 * file is queried without writing it anywhere.  given: the bytes of the
 * inputs on disk, 0 when one is of unknown size (standard input, a pipe):
 * the budgets then count the copy's bytes (pcol_input_bytes), so the copy
 * is laid out as a file would be (encoded), not plain
 * (pcol_builder_write_image), which would raise them; so it is when
 * opt->as_written asks (pcol info). */

/* open_built's two halves: the copy written (b kept), and opened. */
static int write_built(pcol_builder *b, int rc, uint64_t given, const pcol_open_options *opt,
                       void **mem, size_t *len, pcol_error *err) {
  *mem = NULL, *len = 0;
  if (!rc) rc = given && !(opt && opt->as_written) ? pcol_builder_write_image(b, mem, len, err)
                                                  : pcol_builder_write_mem(b, NULL, mem, len, err);
  return rc;
}
static int open_written(void *mem, size_t len, int rc, const pcol_open_options *opt,
                        pcol_file **out, pcol_error *err) {
  if (!rc) rc = pcol_open_buffer(mem, len, opt, out, err);
  if (rc) {
    free(mem);
    return rc;
  }
  (*out)->owned = 1; /* pcol_close frees the copy */
  return PCOL_OK;
}

static int open_built(pcol_builder *b, int rc, uint64_t given, const pcol_open_options *opt,
                      pcol_file **out, pcol_error *err) {
  void *mem;
  size_t len;
  rc = write_built(b, rc, given, opt, &mem, &len, err);
  pcol_builder_free(b);
  return open_written(mem, len, rc, opt, out, err);
}

int pcol_open_any(const char *path, const pcol_open_options *opt, pcol_file **out,
                  pcol_error *err) {
  *out = NULL;
  struct stat st;
  /* a pipe (a FIFO, `<(cmd)`) is read once, by the import: no look first */
  if (strcmp(path, "-") != 0 && (stat(path, &st) != 0 || S_ISREG(st.st_mode))) {
    FILE *fp = fopen(path, "rbe");
    if (!fp) return pcol_error_set(err, PCOL_EIO, "%s: %s", path, strerror(errno));
    char head[PCOL_MAGIC_SIZE];
    size_t n = fread(head, 1, sizeof head, fp);
    fclose(fp);
    if (n == PCOL_MAGIC_SIZE && memcmp(head, PCOL_MAGIC, PCOL_MAGIC_SIZE) == 0) {
      int rc = pcol_open(path, opt, out, err); /* its messages name the path */
      if (rc && opt && opt->names && opt->names[0]) pcol_error_prefix(err, opt->names[0]);
      return rc;
    }
  }
  /* another format (or standard input): import into memory */
  pcol_builder *b = NULL;
  pcol_import_options io = {0};
  io.no_mmap = opt && opt->no_mmap; /* a Perun file is mapped unless told not to */
  io.names = opt ? opt->names : NULL;
  if (opt) io.symbolize = opt->symbolize;
  uint64_t given = size_on_disk(path); /* the bytes given, not the image (0: unknown) */
  int rc = pcol_builder_new(&b, err);
  if (!rc) rc = pcol_import_path(b, path, PCOL_FMT_UNKNOWN, &io, err);
  rc = open_built(b, rc, given, opt, out, err);
  if (!rc) (*out)->input_bytes = given;
  return rc;
}

/* ------------------------------------------------------ many inputs */
/* The union of many inputs is what `pcol merge` writes of them (the same
 * import of each, in order, into one builder: one rule), kept in memory
 * and opened there.  A wall-clock range leaves out the inputs it cannot
 * reach, judged from their sources and meta (pcol_wall_overlaps): a pcol
 * file's samples are then never read; another format is imported to learn
 * its span.  A range that reaches none keeps every one, as it keeps every
 * source of one file (pcol_selection_sources): the view of the union
 * answers 0 with the warning that says where the samples are
 * (pcol_view_notes), as of one file (before: an error here, and an empty
 * answer from the R and Python packages, which read the inputs whole). */

/* One input of a union.  A pcol file is opened once (pcol_open_if_pcol),
 * also when a wall-clock range will leave it out.  Any other format (or
 * standard input) goes through pcol_import_path; of a wall-clock range,
 * into a builder of its own, *scratch (made the first time, emptied after
 * each input with its memory kept: pcol_builder_reset), opened, and left
 * out as a pcol file is when the range cannot reach it.  *added = 0 when
 * the range left it out. */
static int add_one_of_many(pcol_builder *b, pcol_builder **scratch, const char *path,
                           const char *name, const pcol_select *sel, int skip, int as_union,
                           uint8_t *inflated, size_t len, const pcol_open_options *opt,
                           int *added, pcol_error *err) {
  *added = 1;
  pcol_import_options io = {0};
  io.no_mmap = 1;
  if (opt) io.symbolize = opt->symbolize;
  int is_pcol = 0;
  pcol_file *f = NULL;
  int rc = inflated ? PCOL_OK : pcol_open_if_pcol(path, &is_pcol, &f, err);
  if (!rc && !is_pcol) {
    /* another format (a compressed file: never a pcol one, inflated_usable) */
    pcol_builder *one = b;
    if (skip && !*scratch && (rc = pcol_builder_new(scratch, err))) return rc;
    if (skip) one = *scratch;
    rc = inflated ? import_inflated(one, path, name, inflated, len, PCOL_FMT_UNKNOWN, &io, err)
                  : import_named(one, path, name, PCOL_FMT_UNKNOWN, &io, err);
    if (!skip) return rc;
    /* of a wall-clock range: imported on its own to learn its span, then
     * added as a pcol file is when the range reaches it (the same union:
     * the union of unions is that of their inputs), else left out */
    void *mem;
    size_t n;
    rc = write_built(one, rc, 1, NULL, &mem, &n, err); /* (1: a plain image, not encoded) */
    pcol_error quiet = {0};
    if (pcol_builder_reset(scratch, &quiet)) { /* (no memory kept: a new one the next time) */
      pcol_builder_free(*scratch);
      *scratch = NULL;
    }
    if ((rc = open_written(mem, n, rc, NULL, &f, err))) return rc;
  }
  bool overlaps = true;
  if (!rc && skip) rc = pcol_wall_overlaps(f, sel, &overlaps, err);
  if (!rc && overlaps) /* read only: no checksum pass, unless asked (a command that writes) */
    rc = add_open_pcol(b, f, is_pcol && opt && opt->verify_sums, as_union, err);
  *added = overlaps;
  pcol_close(f);
  return rc;
}

/* The inputs into a new builder *b (skip: a wall-clock range leaves out
 * those it cannot reach); *k: how many were added */
static int many_into(const char *const *paths, size_t n, const pcol_open_options *opt,
                     const pcol_select *sel, int skip, pcol_builder **b, size_t *k, pcol_error *err) {
  pcol_builder *scratch = NULL;
  *k = 0;
  int rc = pcol_builder_new(b, err);
  /* the compressed inputs after the one imported are inflated on a thread
   * (ahead.c): the same import, in the same order, of the same bytes */
  pcol_import_options io = {0};
  io.no_mmap = 1;
  pcol_ahead *ahead = rc ? NULL : pcol_ahead_start(paths, n, &io);
  size_t from_ahead = 0;
  for (size_t i = 0; !rc && i < n; i++) {
    int added = 0;
    size_t len = 0;
    uint8_t *buf = take_inflated(ahead, i, PCOL_FMT_UNKNOWN, &len);
    from_ahead += buf != NULL;
    const char *name = opt && opt->names && opt->names[i] ? opt->names[i] : paths[i];
    rc = add_one_of_many(*b, &scratch, paths[i], name, sel, skip,
                         i == 0 && opt && opt->first_is_union, buf, len, opt, &added, err);
    free(buf);
    if (rc && !strstr(err->message, name)) pcol_error_prefix(err, name);
    *k += added;
  }
  ahead_end(ahead, from_ahead, n);
  pcol_builder_free(scratch);
  return rc;
}

int pcol_open_many(const char *const *paths, size_t n, const pcol_open_options *opt,
                   const pcol_select *sel, pcol_file **out, size_t *used, pcol_error *err) {
  *out = NULL;
  if (used) *used = 0;
  if (n == 0) return pcol_error_set(err, PCOL_EINVAL, "pcol_open_many: no input");
  if (n == 1) {
    int rc = pcol_open_any(paths[0], opt, out, err);
    if (!rc && opt && opt->given_bytes) (*out)->input_bytes = opt->given_bytes;
    if (!rc && used) *used = 1;
    return rc;
  }
  int skip = sel && sel->wall && (sel->has_from || sel->has_to) && !sel->source_id;
  pcol_builder *b = NULL;
  size_t k = 0;
  int rc = many_into(paths, n, opt, sel, skip, &b, &k, err);
  if (!rc && k == 0) { /* a range that reaches none: every input (above) */
    pcol_builder_free(b);
    b = NULL;
    rc = many_into(paths, n, opt, sel, 0, &b, &k, err);
  }
  /* the union's budgets: the inputs' bytes on disk (all known), not the image */
  uint64_t given = 0;
  for (size_t i = 0; !rc && i < n && given != UINT64_MAX; i++) {
    uint64_t z = size_on_disk(paths[i]);
    given = !z ? UINT64_MAX : given + z; /* one unknown: the image's size */
  }
  if (opt && opt->given_bytes) given = opt->given_bytes; /* an index's files (pcol.h) */
  rc = open_built(b, rc, given == UINT64_MAX ? 0 : given, opt, out, err);
  if (!rc && given != UINT64_MAX) (*out)->input_bytes = given;
  if (!rc && used) *used = k;
  return rc;
}

/* ------------------------------------------------------------ export */
static int export_fmt(pcol_file *f, pcol_format fmt, const pcol_select *sel, FILE *out,
                      const pcol_export_options *opt, pcol_error *err) {
  switch (fmt) {
  case PCOL_FMT_RPROF: return pcol_export_rprof_opt(f, sel, out, opt, err);
  case PCOL_FMT_PPROF: return pcol_export_pprof_opt(f, sel, out, opt, err);
  case PCOL_FMT_PERUN: return pcol_export_perun_opt(f, sel, out, opt, err);
  case PCOL_FMT_COLLAPSED: return pcol_export_collapsed_opt(f, sel, out, opt, err);
  case PCOL_FMT_SPEEDSCOPE: return pcol_export_speedscope_opt(f, sel, out, opt, err);
  case PCOL_FMT_FIREFOX: return pcol_export_firefox_opt(f, sel, out, opt, err);
  case PCOL_FMT_OTLP: return pcol_export_otlp_opt(f, sel, out, opt, err);
  case PCOL_FMT_V8: return pcol_export_v8_opt(f, sel, out, opt, err);
  case PCOL_FMT_CHROME: return pcol_export_chrome_opt(f, sel, out, opt, err);
  case PCOL_FMT_PERFETTO: return pcol_export_perfetto_opt(f, sel, out, opt, err);
  case PCOL_FMT_CLICKHOUSE:
    return pcol_error_set(err, PCOL_EINVAL, "clickhouse writes one stream per table: "
                          "use pcol_export_clickhouse");
  default: break;
  }
  return pcol_error_set(err, PCOL_EINVAL, "cannot write format '%s'", pcol_format_name(fmt));
}

int pcol_export(pcol_file *f, pcol_format fmt, const pcol_select *sel, FILE *out,
                const pcol_export_options *opt, pcol_error *err) {
  if (!f || !out) return pcol_error_set(err, PCOL_EINVAL, "pcol_export: NULL argument");
  int rc = export_fmt(f, fmt, sel, out, opt, err);
  /* stacks the recorder truncated (pcol.truncated_stacks, THE rule:
   * truncated.c): pprof, speedscope, Firefox and OTLP carry the mark, and
   * a view of their copy warns as one of the original; the others have no
   * place for it, which the note says (nothing when it cannot be read) */
  int lost = fmt == PCOL_FMT_RPROF || fmt == PCOL_FMT_PERUN || fmt == PCOL_FMT_COLLAPSED || fmt == PCOL_FMT_V8 ||
             fmt == PCOL_FMT_CHROME || fmt == PCOL_FMT_PERFETTO;
  uint64_t n = 0;
  pcol_error e = {0};
  if (!rc && lost && pcol_export_heard(opt) && !pcol_truncated_total(f, sel, &n, NULL, &e) && n) {
    char t[300];
    pcol_truncated_lost(t, sizeof t, pcol_format_name(fmt), n);
    pcol_export_say(opt, PCOL_EXPORT_LOSS, t);
  }
  return rc;
}
