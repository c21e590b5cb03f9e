/* perfetto_export.c — pcol samples as a Perfetto protobuf trace of
 * StackSample packets (TracePacket field 135), which the Perfetto UI
 * (ui.perfetto.dev) and trace_processor open: the samples on their
 * threads' tracks and in the flame graph; doc/mappings.md §17.1.
 *
 *   Trace { packet* }, each TracePacket written as soon as it is made:
 *   - a ClockSnapshot (BOOTTIME = REALTIME) when every written source has
 *     a wall-clock start: the timestamps are then ns since 1970;
 *   - per source with selected samples, a packet sequence of its own
 *     (trusted_packet_sequence_id 2, 3, ...; trace_processor makes a
 *     profiler session per sequence): its first packet clears the
 *     incremental state and holds the StackSampleDefaults (source: the
 *     source's name, numbered when two are alike; the primary descriptor:
 *     the written value, else the source's default; followers: its other
 *     values), then a TrackDescriptor per process and thread of its
 *     samples (names: process_name / the thread-name rule, else the
 *     source's name), then a packet per sample: its timestamp, its
 *     interned data not yet on the sequence (function names, source
 *     paths, mapping paths, build ids, mappings, frames, the callstack),
 *     and the StackSample (task_context pid/tid, callstack_iid,
 *     primary_weight, follower_weights);
 *   - a last ClockSnapshot at the latest source's end, so that the trace
 *     lasts what the sources say (no range selected); of a source that
 *     states no duration, where its samples' own lengths end.
 *
 * Frames: a located line (its inline chain outermost first) is a Frame of
 * its function's name as pcol prints it (frames.h), its file and line, in
 * its location's mapping at its address (mapping 0: trace_processor's
 * dummy mapping of named frames); an unsymbolized location is a Frame of
 * no name in its mapping.  Iids: a frame's is its line row + 1 (an
 * unsymbolized location's past the lines), a callstack's its pcol stack
 * id, a mapping's its pcol id, a string's its place in the export's table
 * of strings (by content, after the UTF-8 repair): an entry is written on
 * a sequence the first time a sample there needs it (a stamp per entry
 * says which sequence has it).  Memory: the stamps, the strings and one
 * packet; no sample is held.
 */
#include "convert.h"
#include "pb_wire.h"
#include "keys.h"    /* PCOL_VT_SAMPLES, PCOL_UNIT_COUNT, ... */
#include "bytes.h"   /* pcol_utf8_repair, pcol_str_is */
#include "buf.h"     /* pcol_buf */
#include "error.h"   /* pcol_oom */
#include "hash.h"    /* pcol_u64map */
#include "intern.h"  /* pcol_intern: the strings by content, the stream names */
#include "columns.h" /* pcol_column_req, pcol_columns */
#include "frames.h"  /* pcol_frames, pcol_stack_locations, pcol_frame_line_name, pcol_places_lines_note */
#include "select.h"  /* pcol_select_check, pcol_select_count */
#include "stream.h"  /* pcol_budget */
#include "count.h"   /* pcol_rtime, pcol_count_types, pcol_kin_pick_source */
#include "xvalues.h" /* pcol_xvalues, pcol_xvalue, pcol_export_source_default */
#include "lasts.h"   /* pcol_thread_classes, pcol_thread_name_sets, pcol_thread_name, pcol_label_get */
#include "wall.h"    /* pcol_wall: THE start rule */
#include "loss.h"     /* pcol_export_loss_note, pcol_export_say */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* TracePacket's fields */
enum {
  TP_TIMESTAMP = 8, TP_SEQ_ID = 10, TP_INTERNED = 12, TP_FLAGS = 13, TP_CLOCKS = 6, TP_TRACK = 60,
  TP_DEFAULTS = 59, TP_STACK_SAMPLE = 135, TP_FIRST_ON_SEQ = 87, TP_TRACK_EVENT = 11
};
/* InternedData's */
enum { I_FN = 5, I_FRAMES = 6, I_STACKS = 7, I_BUILD_IDS = 16, I_MAP_PATHS = 17, I_SRC_PATHS = 18, I_MAPS = 19 };
#define NS_STR 4 /* string namespaces: function names, source paths, mapping paths, build ids */
static const unsigned ns_field[NS_STR] = {I_FN, I_SRC_PATHS, I_MAP_PATHS, I_BUILD_IDS};
#define CLOCK_REALTIME_ID 1
#define CLOCK_BOOTTIME_ID 6
#define MAX_VALUES 7 /* the primary and 6 followers (the importer reads that many) */

typedef struct pstr {
  uint32_t stamp[NS_STR];       /* the sequence that has it in each namespace */
} pstr;

typedef struct pthr {
  uint32_t cls;  /* its thread class (THE thread rule) */
  uint32_t ls;   /* the label set naming it (THE thread-name rule; class 0: its first) */
  int64_t pid, tid;
  int lost;      /* its tid/thread_id label is no id Perfetto holds: named with it */
  pcol_laid laid; /* its last timed sample as THE placement rule lays it (to_end) */
} pthr;

typedef struct pex {
  pcol_file *f;
  pcol_error *err;
  pcol_budget *bud;
  int rc;
  pcol_frames fr;
  const pcol_nameless_rule *rule; /* THE nameless rule of the selection (fr.rule) */
  pcol_view s_time, s_dur, s_stack, s_ls, src_uri, fn_file, ln_line, map_file, map_bid, map_start, map_limit, map_off;
  pcol_rtime rt;
  pcol_kin_pick pick; /* --value of a type of kin: each source's column (xvalues.h pcol_kin_pick_make) */
  pcol_xvalues xv;
  uint32_t *cvt;
  uint32_t *tcls, ntcls, *named;
  uint32_t seq; /* the sequence at hand */
  uint32_t *st_stack, *st_frame, *st_map;
  uint64_t nstack, nlines, nloc;
  /* strings by content (iid: their id in sset), the stamps of id i at strs[i - 1] */
  pcol_intern sset;
  pstr *strs;
  size_t capstr;
  pcol_buf scratch, name;
  uint32_t *locs;
  size_t nlocs, caplocs;
  /* the packet being made: the interned data, the StackSample, the packet */
  pcol_buf in, ss, pkt, sub;
  /* the source at hand */
  uint32_t src;
  int64_t base; /* ns added to its times */
  /* of a time range (ranged): the trace starts where the range's part of
   * the sources begins (pcol_wall_cut), nothing written before it (floor);
   * relative times are written lead earlier, since that start */
  int ranged;
  int64_t floor, lead;
  int64_t sfloor; /* the source at hand's: not before its time 0 (write_source) */
  uint64_t run_s, run_e; /* the recording run of the source at hand (THE recording rule, pcol_wall_run_end) */
  size_t nv;
  pcol_xtype vals[MAX_VALUES];
  uint8_t neg[MAX_VALUES];
  uint64_t neg_row[MAX_VALUES];
  int64_t neg_v[MAX_VALUES];
  pthr *th;
  size_t nth, capth;
  pcol_u64map th_of; /* class -> index in th (the source at hand's) */
  pcol_u64map tids;  /* the real tids given so far (a tid names one thread trace-wide) */
  pcol_real_ids real; /* THE made-up-id rule's real ids (lasts.h) */
  uint64_t made_tids; /* tids made up so far */
  int absolute;
  int stacked; /* a selected sample has a stack */
  pcol_xskipped skipped; /* the followers not written for a negative amount */
  uint64_t ids_lost;  /* threads whose tid/thread_id label is no id Perfetto holds */
  uint64_t pids_lost; /* threads whose pid label is no id Perfetto holds */
  char lost_pid[41];  /* the first such label (40 bytes at most) */
  uint64_t lacking;   /* sources without the --value asked: their default is the primary */
  uint32_t lacking_src;
  char lost_name[128]; /* the first one's name (the note's example) */
  uint64_t lasting;    /* samples written that state how long they last (not kept) */
  /* a source that states no duration (Rprof, Perun): its span ends where
   * its samples' own lengths end (pcol_lasts_own), not at its last sample */
  pcol_lasts lasts;
  int to_end;          /* the source at hand's end is its samples' (lasts) */
  int64_t end;         /* the latest such end, ns on the trace's clock */
  int64_t cap;         /* of a range, where the source's window ends (trace clock; INT64_MAX open) */
  char lost_default[200]; /* the selection's stated default, not kept (review 18 F3): "T/U" */
} pex;

static int oom(pex *x) { return x->rc = pcol_oom(x->err); }

/* ------------------------------------------------------------ protobuf */
/* (the fields are written by pb_wire.h's writers) */
/* p[0..n) as valid UTF-8 (THE repair rule, bytes.h) in x->scratch: its
 * length; SIZE_MAX out of memory */
static size_t repaired(pex *x, const char *p, size_t n) {
  if (n > SIZE_MAX / 3 - 1 || pcol_buf_reserve(&x->scratch, 3 * n + 1)) return SIZE_MAX;
  return n ? pcol_utf8_repair((const uint8_t *)p, n, (char *)x->scratch.data) : 0;
}
/* a string from the input, repaired */
static int pb_str(pex *x, pcol_buf *b, unsigned field, const char *p, size_t n) {
  return (n = repaired(x, p, n)) == SIZE_MAX || pcol_pb_w_bytes(b, field, x->scratch.data, n);
}

/* The packet in x->pkt as a Trace's packet, to the output. */
static int put_packet(pex *x) {
  uint8_t h[20];
  size_t n = pcol_pb_put_head(h, 1, PCOL_PB_LEN, x->pkt.len);
  FILE *fp = x->bud->fp;
  if (fwrite(h, 1, n, fp) != n || (x->pkt.len && fwrite(x->pkt.data, 1, x->pkt.len, fp) != x->pkt.len))
    return x->rc = pcol_write_error(x->err, errno, "perfetto export");
  x->pkt.len = 0;
  return PCOL_OK;
}

/* ------------------------------------------------------------ interning */
/* The iid of string p[0..n) in namespace ns (a name or path repaired as
 * UTF-8; a build id's raw bytes as they are), written into x->in when the
 * sequence does not have it yet; 0 for "" (no name). */
static uint64_t str_iid(pex *x, int ns, const char *p, size_t n) {
  if (!n || x->rc) return 0;
  if (ns == 3 && !pcol_buf_reserve(&x->scratch, n)) memcpy(x->scratch.data, p, n);
  else if (ns == 3 || (n = repaired(x, p, n)) == SIZE_MAX) return oom(x), 0;
  const char *q = (const char *)x->scratch.data; /* the bytes written */
  uint64_t h;
  uint32_t id = pcol_intern_find(&x->sset, q, n, &h);
  if (!id) {
    int rc = PCOL_GROW(x->strs, x->sset.n, x->capstr);
    if (rc || (rc = pcol_intern_add(&x->sset, q, n, h, &id)) != PCOL_OK)
      return x->rc = rc == PCOL_ETOOBIG ? pcol_error_set(x->err, rc, "perfetto export: too many strings") : oom(x), 0;
    memset(&x->strs[id - 1], 0, sizeof x->strs[id - 1]);
    /* its bytes, and 48 for its offset (8), stamps (16) and hash slots */
    if ((x->rc = pcol_budget_hold(x->bud, n + 48, x->err))) return 0;
  }
  pstr *s = &x->strs[id - 1];
  if (s->stamp[ns] != x->seq) {
    s->stamp[ns] = x->seq;
    /* InternedString { iid = 1, str = 2 } */
    size_t len;
    const void *str = pcol_intern_at(&x->sset, id, &len);
    x->sub.len = 0;
    if (pcol_pb_w_uint(&x->sub, 1, id) || pcol_pb_w_bytes(&x->sub, 2, str, len) ||
        pcol_pb_w_bytes(&x->in, ns_field[ns], x->sub.data, x->sub.len))
      return oom(x), 0;
  }
  return id;
}
static uint64_t str_sid(pex *x, int ns, uint32_t sid) {
  pcol_str s = {0};
  if (!sid || x->rc) return 0;
  if ((x->rc = pcol_string(x->f, sid, &s, x->err))) return 0;
  return s.ptr ? str_iid(x, ns, s.ptr, s.len) : 0;
}

static int hexval(char c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Mapping m's (1..) address range [*start, *limit) and file offset: 0 when
 * it states no range (a perf script's, a Perfetto copy's) */
static int map_range(const pex *x, uint32_t m, uint64_t *start, uint64_t *limit, uint64_t *off) {
  *start = pcol_view_u64(&x->map_start, m - 1), *limit = pcol_view_u64(&x->map_limit, m - 1);
  *off = pcol_view_u64(&x->map_off, m - 1);
  return *limit > *start;
}

/* Mapping m (1..): written when the sequence does not have it; its iid. */
static uint64_t mapping_iid(pex *x, uint32_t m) {
  if (!m || x->rc) return 0;
  if (x->st_map[m] == x->seq) return m;
  x->st_map[m] = x->seq;
  uint64_t path = str_sid(x, 2, pcol_view_u32(&x->map_file, m - 1)), bid = 0;
  pcol_str b = {0};
  if (!x->rc && (x->rc = pcol_string(x->f, pcol_view_u32(&x->map_bid, m - 1), &b, x->err))) return 0;
  if (b.ptr && b.len) {
    /* pcol keeps a build id as hex; Perfetto's are the raw bytes (the
     * importer writes them as hex again); another string as it is */
    uint8_t raw[256];
    size_t k = 0;
    int hex = b.len % 2 == 0 && b.len / 2 <= sizeof raw;
    for (size_t i = 0; hex && i < b.len; i += 2) {
      int hi = hexval(b.ptr[i]), lo = hexval(b.ptr[i + 1]);
      if (hi < 0 || lo < 0) hex = 0;
      else raw[k++] = (uint8_t)(hi << 4 | lo);
    }
    bid = hex ? str_iid(x, 3, (const char *)raw, k) : str_iid(x, 3, b.ptr, b.len);
  }
  if (x->rc) return 0;
  /* Mapping { iid = 1, build_id = 2, start_offset = 3, start = 4, end = 5,
   * path_string_ids = 7, exact_offset = 8 }: a range (pprof's memory_start,
   * memory_limit, file_offset) as trace_processor's VirtualMemoryMapping
   * takes it, the frames' rel_pc relative to it (frame_iid); start_offset,
   * the library's first mapping's offset, unknown: 0, as the proto says of
   * a shared library; load_bias (libunwindstack's) none */
  uint64_t start, limit, off;
  int ranged = map_range(x, m, &start, &limit, &off);
  x->sub.len = 0;
  if (pcol_pb_w_uint(&x->sub, 1, m) || (bid && pcol_pb_w_uint(&x->sub, 2, bid)) ||
      (ranged && (pcol_pb_w_uint(&x->sub, 4, start) || pcol_pb_w_uint(&x->sub, 5, limit))) || (path && pcol_pb_w_uint(&x->sub, 7, path)) ||
      (ranged && off && pcol_pb_w_uint(&x->sub, 8, off)) || pcol_pb_w_bytes(&x->in, I_MAPS, x->sub.data, x->sub.len))
    return oom(x), 0;
  return m;
}

/* The frame of line row li (symbolized) or of unsymbolized location loc
 * (li == UINT64_MAX); its iid. */
static uint64_t frame_iid(pex *x, uint32_t loc, uint64_t li) {
  uint64_t iid = li == UINT64_MAX ? 1 + x->nlines + loc : 1 + li;
  if (x->st_frame[iid] == x->seq || x->rc) return iid;
  x->st_frame[iid] = x->seq;
  uint32_t m = pcol_frames_mapping(&x->fr, loc);
  uint64_t fn = 0, path = 0, map = mapping_iid(x, m);
  int64_t line = 0;
  if (li != UINT64_MAX) {
    pcol_str name;
    int by_fn;
    if ((x->rc = pcol_frame_line_name(&x->fr, li, &x->name, &name, &by_fn, x->err))) return 0;
    fn = str_iid(x, 0, name.ptr, name.ptr ? name.len : 0);
    uint32_t f = pcol_frames_fn(&x->fr, li);
    if (f) path = str_sid(x, 1, pcol_view_u32(&x->fn_file, f - 1));
    line = pcol_view_i64(&x->ln_line, li);
  }
  if (x->rc) return 0;
  /* Frame { iid = 1, function_name_id = 2, mapping_id = 3, rel_pc = 4,
   * source_path_iid = 5, line_number = 6 } */
  /* rel_pc: the pc relative to its mapping, as trace_processor reads it
   * (VirtualMemoryMapping::ToRelativePc: pc - start + exact_offset; its
   * symbolizer looks that offset up in the build id's ELF): a pprof
   * location's absolute address in a mapping of a range, its offset in the
   * file (rd11 F4: the absolute 0x7f5e53...  was written); an address
   * outside its mapping's range, or in one of no range, as it is (a
   * Perfetto copy's addresses are rel_pcs already) */
  uint64_t addr = pcol_view_u64(&x->fr.loc_addr, loc - 1), start, limit, off;
  if (m && map_range(x, m, &start, &limit, &off) && addr >= start && addr < limit) addr = addr - start + off;
  x->sub.len = 0;
  if (pcol_pb_w_uint(&x->sub, 1, iid) || (fn && pcol_pb_w_uint(&x->sub, 2, fn)) || (map && pcol_pb_w_uint(&x->sub, 3, map)) ||
      (addr && pcol_pb_w_uint(&x->sub, 4, addr)) || (path && pcol_pb_w_uint(&x->sub, 5, path)) ||
      (line > 0 && line <= UINT32_MAX && pcol_pb_w_uint(&x->sub, 6, (uint64_t)line)) ||
      pcol_pb_w_bytes(&x->in, I_FRAMES, x->sub.data, x->sub.len))
    return oom(x), 0;
  return iid;
}

/* Stack sid's callstack (frames outermost first); its iid, 0 when it has
 * no frame. */
static uint64_t stack_iid(pex *x, uint32_t sid) {
  if (!sid || x->rc) return 0;
  if (sid > x->nstack) return x->rc = pcol_error_set(x->err, PCOL_ECORRUPT, "stack id %u is out of range", sid), 0;
  if (x->st_stack[sid] == x->seq) return sid;
  if ((x->rc = pcol_stack_locations(x->f, sid, &x->locs, &x->nlocs, &x->caplocs, x->err))) return 0;
  pcol_buf ids = {0}; /* the frames' iids */
  for (size_t i = x->nlocs; i-- > 0 && !x->rc;) {
    uint32_t loc = x->locs[i];
    if (!loc || loc > x->nloc) continue;
    uint64_t lo, hi;
    pcol_frames_lines(&x->fr, loc, &lo, &hi);
    if (lo == hi) {
      uint64_t id = frame_iid(x, loc, UINT64_MAX);
      if (!x->rc && PCOL_BUF_PUSH(&ids, uint64_t, id)) oom(x);
    }
    for (uint64_t l = hi; l-- > lo && !x->rc;) {
      uint64_t id = frame_iid(x, loc, l);
      if (!x->rc && PCOL_BUF_PUSH(&ids, uint64_t, id)) oom(x);
    }
  }
  size_t n = ids.len / sizeof(uint64_t);
  if (!x->rc && n) {
    /* Callstack { iid = 1, frame_ids = 2 (unpacked, as declared) } */
    pcol_buf cs = {0};
    const uint64_t *v = (const uint64_t *)(const void *)ids.data;
    int bad = pcol_pb_w_uint(&cs, 1, sid);
    for (size_t i = 0; i < n && !bad; i++) bad = pcol_pb_w_uint(&cs, 2, v[i]);
    if (bad || pcol_pb_w_bytes(&x->in, I_STACKS, cs.data, cs.len)) oom(x);
    pcol_buf_free(&cs);
    x->st_stack[sid] = x->seq;
  }
  pcol_buf_free(&ids);
  return x->rc || !n ? 0 : sid;
}

/* ------------------------------------------------------------ values */
/* Perfetto's unit of a pcol unit: StackSample.Unit, else 0 (unit_str) */
static unsigned unit_enum(pcol_str u) {
  static const struct { const char *s; unsigned e; } m[] = {
      {"nanoseconds", 1}, {"cycles", 2}, {"instructions", 3}, {"bytes", 4}, {"page_faults", 5},
      {"cache_misses", 6}, {"cache_references", 7}, {"branch_misses", 8}, {"count", 9}};
  for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
    if (pcol_str_is(u, m[i].s)) return m[i].e;
  return 0;
}
/* CounterDescriptor { name = 2, unit = 3 | unit_str = 4 } into b */
static int descriptor(pex *x, pcol_buf *b, unsigned field, const pcol_xtype *t) {
  pcol_buf d = {0};
  unsigned e = unit_enum(t->unit);
  int bad = pb_str(x, &d, 2, t->type.ptr ? t->type.ptr : "", t->type.ptr ? t->type.len : 0) ||
            (e ? pcol_pb_w_uint(&d, 3, e) : t->unit.ptr && t->unit.len && pb_str(x, &d, 4, t->unit.ptr, t->unit.len)) ||
            pcol_pb_w_bytes(b, field, d.data, d.len);
  pcol_buf_free(&d);
  return bad ? oom(x) : PCOL_OK;
}

/* The source's values written: the primary (opt's value when the source
 * has it, else its default: THE default rule), then the others (levels,
 * which a sample does not add up, left out; at most MAX_VALUES). */
static int plan(pex *x, uint32_t s, const pcol_export_options *opt) {
  pcol_xtype all[64 + PCOL_XV_MAX];
  size_t n = 0;
  int derived = 0;
  if ((x->rc = pcol_xvalues_source(&x->xv, s, all, sizeof all / sizeof all[0], &n, &derived, x->err))) return x->rc;
  uint32_t dflt = 0;
  if ((x->rc = pcol_export_source_default(x->f, &x->pick, s, &dflt, x->err))) return x->rc; /* (rd16a F5) */
  if (!dflt) dflt = pcol_count_vt(x->cvt[s]); /* the count is pprof's samples/count */
  uint32_t want = opt && opt->value ? opt->value->vt_id : dflt;
  if (opt && opt->value && !want) want = pcol_count_vt(x->cvt[s]);
  /* a derived source's time is PCOL_VT_TIME among its values, but its
   * default, or the value asked, is the file's stored cpu/nanoseconds when
   * another source stores one (THE time rule's cpu_vt): an Rprof source
   * merged with a pprof or JFR one was written with its count as the
   * primary weight (review 19 F4) */
  if (derived && x->rt.cpu_vt) {
    if (dflt == x->rt.cpu_vt) dflt = PCOL_VT_TIME;
    if (want == x->rt.cpu_vt) want = PCOL_VT_TIME;
  }
  size_t p = SIZE_MAX;
  uint32_t nth = 0; /* a type of kin: the source's in its column (rd13a F2), written as stored */
  (void)pcol_kin_pick_source(&x->pick, s, &want, &nth); /* go's merged column, whatever s's own default (rd16a F5) */
  for (size_t k = 0; k < n && p == SIZE_MAX; k++)
    if (!all[k].level && all[k].vt == want && !nth--) p = k;
  if (p == SIZE_MAX && opt && opt->value && !x->lacking++) x->lacking_src = s; /* (said: rd11 F5) */
  for (size_t k = 0; k < n && p == SIZE_MAX; k++)
    if (!all[k].level && all[k].vt == dflt) p = k;
  for (size_t k = 0; k < n && p == SIZE_MAX; k++)
    if (!all[k].level) p = k;
  x->nv = 0;
  if (p != SIZE_MAX) x->vals[x->nv++] = all[p];
  for (size_t k = 0; k < n && x->nv < MAX_VALUES; k++)
    if (k != p && !all[k].level) x->vals[x->nv++] = all[k];
  if (!x->nv) /* no value type: the count */
    x->vals[x->nv++] = (pcol_xtype){0, 0, {PCOL_VT_SAMPLES, sizeof PCOL_VT_SAMPLES - 1},
                                    {PCOL_UNIT_COUNT, sizeof PCOL_UNIT_COUNT - 1}, 0};
  return PCOL_OK;
}

static int value_of(pex *x, uint64_t row, size_t k, int64_t num, int64_t den, int64_t *v) {
  *v = 0;
  if ((x->rc = pcol_xvalue_nth(&x->xv, x->cvt, row, x->vals[k].vt, x->vals[k].nth, v, x->err))) return x->rc;
  *v = pcol_scale(*v, num, den);
  return PCOL_OK;
}

/* ------------------------------------------------------------ threads */
static int ls_class(pex *x, uint32_t ls) {
  return ls <= pcol_rows(x->f, PCOL_T_LABELSETS) ? (int)x->tcls[ls] : 0;
}

/* First pass over a source's rows: its threads, and which values have a
 * negative amount. */
static int scan_row(void *ctx, uint64_t row, int64_t num, int64_t den) {
  pex *x = ctx;
  for (size_t k = 0; k < x->nv; k++) {
    int64_t v;
    if (value_of(x, row, k, num, den, &v)) return x->rc;
    if (v < 0 && !x->neg[k]) x->neg[k] = 1, x->neg_row[k] = row, x->neg_v[k] = v;
  }
  uint32_t ls = pcol_view_u32(&x->s_ls, row), cls = (uint32_t)ls_class(x, ls), idx;
  int added;
  if (pcol_u64map_get(&x->th_of, cls, &idx, &added)) return oom(x);
  if (!added) return PCOL_OK;
  if (PCOL_GROW(x->th, x->nth, x->capth)) return oom(x);
  pthr *t = &x->th[x->nth++];
  memset(t, 0, sizeof *t);
  t->cls = cls;
  t->ls = cls && x->named[cls] ? x->named[cls] : ls;
  t->laid = pcol_laid_none();
  return x->rc = pcol_budget_hold(x->bud, sizeof *t + 16, x->err);
}

/* Each thread's pid and tid by THE thread-id rule (pcol_label_id,
 * pcol_thread_id) within Perfetto's int32: its pid label, else the
 * source's made-up pid; its tid (else thread_id) label unless another
 * thread took it, else a made-up tid (so a tid names one thread, as the
 * importer and trace_processor name threads by it).  Made up by THE
 * made-up-id rule (pcol_made_up_id): no process's or thread's real id in
 * the file, so no thread is put in another's process or track. */
static int thread_ids(pex *x) {
  for (size_t k = 0; k < x->nth && !x->rc; k++) {
    pthr *t = &x->th[k];
    int pid_other = 0;
    if (t->ls && (x->rc = pcol_label_id(x->f, t->ls, PCOL_THREAD_PID_KEY, &t->pid, &pid_other, x->err))) break;
    if (!t->ls) t->pid = PCOL_NA_I64;
    if (t->pid != PCOL_NA_I64 && (t->pid < 0 || t->pid > INT32_MAX)) pid_other = 1, t->pid = PCOL_NA_I64;
    if (pid_other && !x->pids_lost++ &&
        (x->rc = pcol_label_text(x->f, t->ls, PCOL_THREAD_PID_KEY, x->lost_pid, sizeof x->lost_pid, x->err)))
      break;
    /* THE thread-id rule (pcol_thread_id: tid, else thread_id, a number or
     * a string of digits), within Perfetto's int32; a label that is no
     * such id names the thread instead (rd11 F3, as the Firefox and Chrome
     * exports do) */
    int64_t v = PCOL_NA_I64;
    if (!x->rc && t->ls) x->rc = pcol_thread_id(x->f, t->ls, &v, &t->lost, x->err);
    if (x->rc) break;
    if (v != PCOL_NA_I64 && (v < 0 || v > INT32_MAX)) t->lost = 1, v = PCOL_NA_I64;
    t->tid = v == PCOL_NA_I64 ? -1 : v;
    x->ids_lost += t->lost != 0;
    if (t->pid == PCOL_NA_I64) t->pid = pcol_made_up_id(&x->real, PCOL_ID_PID, 1, x->src - 1);
    uint32_t idx;
    int added = 0;
    if (t->tid >= 0 && pcol_u64map_get(&x->tids, (uint64_t)t->tid, &idx, &added)) return oom(x);
    /* (made up from 1 on, never from the largest given: a real 2^31 - 1
     * made the next one 2^31, whose track uuid is another thread's; rd11 F11) */
    if (!added) t->tid = pcol_made_up_id(&x->real, PCOL_ID_TID, 1, x->made_tids++);
    /* (pid, tid < 2^31: the track uuids rely on it; a file of 2^31
     * sources or threads is none pcol writes) */
    if (t->pid > INT32_MAX || t->tid > INT32_MAX)
      return x->rc = pcol_error_set(x->err, PCOL_ETOOBIG, "perfetto export: source %u needs a made-up id past "
                                    "2^31 - 1, which Perfetto's pid and tid cannot hold", x->src);
  }
  return x->rc;
}

/* The TrackDescriptors of the source's processes (once each) and threads. */
static int tracks(pex *x, int64_t ts) {
  pcol_u64map procs = {0};
  pcol_buf d = {0}, e = {0};
  pcol_str uri = {0};
  int rc = pcol_string(x->f, pcol_view_u32(&x->src_uri, x->src - 1), &uri, x->err);
  if (rc) return x->rc = rc;
  if (!uri.ptr) uri = (pcol_str){"pcol", 4};
  for (size_t k = 0; k < x->nth && !x->rc; k++) {
    const pthr *t = &x->th[k];
    uint32_t idx, sv = 0;
    int added;
    int64_t nv;
    if (pcol_u64map_get(&procs, (uint64_t)t->pid, &idx, &added)) {
      oom(x);
      break;
    }
    for (int thread = added ? 0 : 1; thread < 2 && !x->rc; thread++) {
      pcol_str name = uri;
      x->name.len = 0;
      if (!thread) {
        if (!(x->rc = pcol_label_get(x->f, t->ls, "process_name", &sv, &nv, x->err)) && sv)
          x->rc = pcol_string(x->f, sv, &name, x->err);
      } else if (t->cls) {
        if (!(x->rc = pcol_thread_name(x->f, t->ls, t->lost, &x->name, x->err)))
          name = (pcol_str){(const char *)x->name.data, x->name.len};
        if (!x->rc && t->lost && !x->lost_name[0])
          snprintf(x->lost_name, sizeof x->lost_name, "%.*s",
                   (int)pcol_utf8_cut((const char *)x->name.data, x->name.len, 100),
                   x->name.data ? (const char *)x->name.data : "");
      }
      if (x->rc) break;
      /* TrackDescriptor { uuid = 1, parent_uuid = 5, process = 3 {pid = 1,
       * process_name = 6}, thread = 4 {pid = 1, tid = 2, thread_name = 5} } */
      /* (pid, tid < 2^31: a thread's uuid is below 2^62, a process's has bit 62) */
      uint64_t puuid = 1ull << 62 | (uint64_t)t->pid, tuuid = ((uint64_t)t->pid << 31 | (uint64_t)t->tid) + 1;
      d.len = e.len = x->pkt.len = 0;
      if (pcol_pb_w_uint(&e, 1, (uint64_t)t->pid) || (thread && pcol_pb_w_uint(&e, 2, (uint64_t)t->tid)) ||
          pb_str(x, &e, thread ? 5 : 6, name.ptr ? name.ptr : "", name.ptr ? name.len : 0) ||
          pcol_pb_w_uint(&d, 1, thread ? tuuid : puuid) || (thread && pcol_pb_w_uint(&d, 5, puuid)) ||
          pcol_pb_w_bytes(&d, thread ? 4 : 3, e.data, e.len) || pcol_pb_w_uint(&x->pkt, TP_TIMESTAMP, (uint64_t)ts) ||
          pcol_pb_w_uint(&x->pkt, TP_SEQ_ID, x->seq + 1) || pcol_pb_w_bytes(&x->pkt, TP_TRACK, d.data, d.len)) {
        oom(x);
        break;
      }
      put_packet(x);
    }
  }
  pcol_u64map_free(&procs);
  pcol_buf_free(&d);
  pcol_buf_free(&e);
  return x->rc;
}

/* ------------------------------------------------------------ samples */
static int sample_row(void *ctx, uint64_t row, int64_t num, int64_t den) {
  pex *x = ctx;
  x->in.len = x->ss.len = x->pkt.len = 0;
  int64_t t = pcol_view_i64(&x->s_time, row), ts, dur = pcol_view_i64(&x->s_dur, row);
  int timed = t != PCOL_NA_I64;
  if (!timed) t = 0; /* untimed: at the source's start */
  if (dur != PCOL_NA_I64 && dur > 0) x->lasting++; /* a StackSample is an instant (review 18 F4) */
  /* (which check failed names the time: a sum past INT64_MAX wraps to a
   * negative ts, which is no time before 1970; rd11 F8) */
  int over = __builtin_add_overflow(t, x->base, &ts);
  if (!over && x->ranged && ts < x->sfloor) ts = x->sfloor; /* (a sample the range's start cuts) */
  if (over || ts < 0)
    return x->rc = pcol_error_set(x->err, PCOL_ETOOBIG, "perfetto export: sample %" PRIu64 " (source %u) is at %s "
                                  "that Perfetto's timestamps cannot hold", row + 1, x->src,
                                  over ? "a time past 2262-04-11 (2^63 ns since 1970)"
                                       : x->absolute ? "a time before 1970" : "a time before the trace's 0");
  uint64_t cs = stack_iid(x, pcol_view_u32(&x->s_stack, row));
  uint32_t cls = (uint32_t)ls_class(x, pcol_view_u32(&x->s_ls, row)), idx;
  int added;
  if (x->rc) return x->rc;
  if (pcol_u64map_get(&x->th_of, cls, &idx, &added) || added) return oom(x); /* (the scan saw it) */
  pthr *th = &x->th[idx];
  if (x->to_end && timed) { /* its span's end: the last interval or time it counted */
    /* laid by THE span and placement rules (lasts.h), as the speedscope
     * export's timeline: samples of one thread at one time (a Perun
     * snapshot's 26) lie end to end, not each from that time (the
     * largest one's 48 ms for their 114 ms, 236%); an untimed sample
     * (at 0 here) says no time, and the span it would give was one
     * sample's cpu (5.42 s of a pprof profile without times: review
     * rd13b F2) */
    int64_t own = pcol_lasts_own(&x->lasts, &x->xv.sc, &x->rt, row), e;
    int64_t span = pcol_lasts_span(&x->lasts, dur, own, ts, 0, 0);
    int64_t at = pcol_lasts_start(&x->lasts, dur, own, ts, 0, th->laid);
    if (span > 0 && !__builtin_add_overflow(at, span, &e)) {
      th->laid = (pcol_laid){at, e};
      /* of a range, the part of it the range counts (THE range rule,
       * select.c: num of its den ticks), from where it is written: a
       * sample the range counts whole lasts its whole length, past the
       * range's end when it starts before it (an Rprof tick at 0.28 s of
       * 20 ms in 0.1-0.29 s: the copy said 190 ms of 200 ms of samples,
       * 105%, where top of the range counts 200 ms); of a long sample the
       * range cuts, the part inside it */
      if (num != den && !__builtin_add_overflow(at, pcol_scale(span, num, den), &e) && e > x->cap) e = x->cap;
      if (e > x->end) x->end = e;
    }
  }
  /* StackSample { task_context = 1 {pid = 2, tid = 3}, callstack_iid = 6,
   * primary_weight = 11, follower_weights = 14 (packed) } */
  uint8_t tc[24];
  size_t tn = pcol_pb_put_head(tc, 2, PCOL_PB_VARINT, (uint64_t)th->pid);
  tn += pcol_pb_put_head(tc + tn, 3, PCOL_PB_VARINT, (uint64_t)th->tid);
  if (pcol_pb_w_bytes(&x->ss, 1, tc, tn) || (cs && pcol_pb_w_uint(&x->ss, 6, cs))) return oom(x);
  uint64_t fw[MAX_VALUES];
  size_t nf = 0, flen = 0;
  for (size_t k = 0; k < x->nv; k++) {
    int64_t v;
    if (k && x->neg[k]) continue; /* not written (the note says which) */
    if (value_of(x, row, k, num, den, &v)) return x->rc;
    if (v < 0) v = 0; /* (a primary's negative amount was refused) */
    if (!k && pcol_pb_w_uint(&x->ss, 11, (uint64_t)v)) return oom(x);
    if (k) fw[nf++] = (uint64_t)v, flen += pcol_pb_varint_len((uint64_t)v);
  }
  if (nf) {
    if (pcol_pb_w_head(&x->ss, 14, PCOL_PB_LEN, flen)) return oom(x);
    for (size_t k = 0; k < nf; k++)
      if (pcol_pb_w_varint(&x->ss, fw[k])) return oom(x);
  }
  if (pcol_pb_w_uint(&x->pkt, TP_TIMESTAMP, (uint64_t)ts) || pcol_pb_w_uint(&x->pkt, TP_SEQ_ID, x->seq + 1) ||
      (x->in.len && pcol_pb_w_bytes(&x->pkt, TP_INTERNED, x->in.data, x->in.len)) ||
      pcol_pb_w_uint(&x->pkt, TP_FLAGS, 2 /* SEQ_NEEDS_INCREMENTAL_STATE */) ||
      pcol_pb_w_bytes(&x->pkt, TP_STACK_SAMPLE, x->ss.data, x->ss.len))
    return oom(x);
  if (pcol_budget_exceeded(x->bud, x->pkt.len + 12)) return x->rc = pcol_budget_refuse(x->bud, x->err);
  return put_packet(x);
}

/* A ClockSnapshot at ts: BOOTTIME (the trace clock) and, of absolute
 * times, REALTIME at the same value (the timestamps are ns since 1970). */
static int clocks(pex *x, int64_t ts) {
  pcol_buf c = {0}, s = {0};
  x->pkt.len = 0;
  int bad = 0;
  for (int k = 0; k < 1 + x->absolute && !bad; k++) {
    c.len = 0;
    bad = pcol_pb_w_uint(&c, 1, k ? CLOCK_REALTIME_ID : CLOCK_BOOTTIME_ID) || pcol_pb_w_uint(&c, 2, (uint64_t)ts) ||
          pcol_pb_w_bytes(&s, 1, c.data, c.len);
  }
  bad = bad || pcol_pb_w_uint(&s, 2, CLOCK_BOOTTIME_ID) || pcol_pb_w_uint(&x->pkt, TP_TIMESTAMP, (uint64_t)ts) ||
        pcol_pb_w_bytes(&x->pkt, TP_CLOCKS, s.data, s.len);
  pcol_buf_free(&c);
  pcol_buf_free(&s);
  return bad ? oom(x) : put_packet(x);
}

/* The stream names given so far (a name is written once): given, every
 * name written; bases, the URIs met, with next[id - 1] the number to try
 * next of URI id, so n sources of one URI cost O(n), not O(n^2) probes
 * (rd11 F2: 2,000 of them took 17.7 s). */
typedef struct stream_names {
  pcol_intern given, bases;
  unsigned *next;
  size_t cap;
} stream_names;

static void stream_names_free(stream_names *t) {
  pcol_intern_free(&t->given);
  pcol_intern_free(&t->bases);
  free(t->next);
}

/* The name of the source's stream (StackSampleDefaults.source): its URI,
 * numbered (" #2", " #3", ...) when an earlier source's name was the same
 * (the importer makes one source of the sequences of one stream and
 * descriptors). */
static int stream_name(pex *x, stream_names *t, pcol_buf *out) {
  pcol_str uri = {0};
  if ((x->rc = pcol_string(x->f, pcol_view_u32(&x->src_uri, x->src - 1), &uri, x->err))) return x->rc;
  const char *u = uri.ptr ? uri.ptr : "pcol";
  size_t ul = uri.ptr ? uri.len : 4;
  out->len = 0;
  if (pcol_buf_append(out, u, ul)) return oom(x);
  uint64_t h;
  uint32_t id, b = pcol_intern_find(&t->bases, u, ul, &h);
  if (!b) {
    if (PCOL_GROW(t->next, t->bases.n, t->cap) || pcol_intern_add(&t->bases, u, ul, h, &b)) return oom(x);
    t->next[b - 1] = 2;
  }
  for (unsigned n = t->next[b - 1]; pcol_intern_find(&t->given, out->data, out->len, &h); n++) {
    char num[24];
    int k = snprintf(num, sizeof num, " #%u", n);
    out->len = ul;
    if (pcol_buf_append(out, num, (size_t)k)) return oom(x);
    t->next[b - 1] = n + 1;
  }
  if (pcol_intern_add(&t->given, out->data, out->len, h, &id)) return oom(x);
  return PCOL_OK;
}

/* Source s's window (doc/mappings.md §17.1): a track of its own, named
 * after its stream (uuid 2^63 + its sequence: a process's has bit 62 and
 * a thread's is below 2^62), and on it a slice of category pcol.window
 * from lo to hi on the trace clock (TrackEvent TYPE_SLICE_BEGIN and
 * TYPE_SLICE_END: the Perfetto UI draws it), its debug annotations
 * pcol.span_start_ns (span: where the window starts after the source's
 * time 0) and pcol.recording (rec: the first source of its recording run),
 * which pcol's importer reads back as the source's window, time 0 and
 * recording. */
static int window(pex *x, const pcol_buf *name, int64_t lo, int64_t hi, int64_t span, uint64_t rec) {
  pcol_buf d = {0}, e = {0}, a = {0};
  uint64_t uuid = 1ull << 63 | (x->seq + 1);
  x->pkt.len = 0;
  int bad = pcol_pb_w_uint(&d, 1, uuid) || pb_str(x, &d, 2, (const char *)name->data, name->len) ||
            pcol_pb_w_uint(&x->pkt, TP_TIMESTAMP, (uint64_t)lo) || pcol_pb_w_uint(&x->pkt, TP_SEQ_ID, x->seq + 1) ||
            pcol_pb_w_bytes(&x->pkt, TP_TRACK, d.data, d.len);
  if (!bad) bad = put_packet(x) != PCOL_OK;
  /* TrackEvent { debug_annotations = 4 {name = 10, int_value = 4 | uint_value = 3}, type = 9,
   * track_uuid = 11, categories = 22, name = 23 } */
  for (int end = 0; end < 2 && !bad; end++) {
    e.len = x->pkt.len = 0;
    if (!end) {
      a.len = 0;
      bad = pcol_pb_w_bytes(&a, 10, PERFETTO_WINDOW_SPAN_START, strlen(PERFETTO_WINDOW_SPAN_START)) ||
            pcol_pb_w_uint(&a, 4, (uint64_t)span) ||
            pcol_pb_w_bytes(&e, 4, a.data, a.len);
      a.len = 0;
      bad = bad || pcol_pb_w_bytes(&a, 10, PERFETTO_WINDOW_RECORDING, strlen(PERFETTO_WINDOW_RECORDING)) ||
            pcol_pb_w_uint(&a, 3, rec) || pcol_pb_w_bytes(&e, 4, a.data, a.len);
    }
    bad = bad || pcol_pb_w_uint(&e, 9, end ? 2 : 1) || pcol_pb_w_uint(&e, 11, uuid) ||
          (!end && (pcol_pb_w_bytes(&e, 22, PERFETTO_WINDOW_CATEGORY, strlen(PERFETTO_WINDOW_CATEGORY)) ||
                    pcol_pb_w_bytes(&e, 23, "window", 6))) ||
          pcol_pb_w_uint(&x->pkt, TP_TIMESTAMP, (uint64_t)(end ? hi : lo)) || pcol_pb_w_uint(&x->pkt, TP_SEQ_ID, x->seq + 1) ||
          pcol_pb_w_bytes(&x->pkt, TP_TRACK_EVENT, e.data, e.len);
    if (!bad) bad = put_packet(x) != PCOL_OK;
  }
  pcol_buf_free(&d);
  pcol_buf_free(&e);
  pcol_buf_free(&a);
  return bad && !x->rc ? oom(x) : x->rc;
}

/* Source s's sequence: defaults, tracks, its window, samples. */
static int write_source(pex *x, const pcol_select *sel, uint32_t s, const pcol_export_options *opt,
                        const pcol_wall *w, stream_names *names) {
  pcol_select one = sel ? *sel : (pcol_select){0};
  one.source_id = s;
  x->src = s;
  x->base = (x->absolute ? w->start[s] : 0) - x->lead;
  int64_t pbase = x->ranged && x->base < x->floor ? x->floor : x->base;
  x->nth = 0;
  pcol_u64map_free(&x->th_of);
  memset(x->neg, 0, sizeof x->neg);
  if (plan(x, s, opt)) return x->rc;
  int rc = pcol_select_iter(x->f, &one, scan_row, x, x->err);
  if (rc && !x->rc) x->rc = rc;
  if (x->rc) return x->rc;
  if (!x->nth) return PCOL_OK; /* no selected sample */
  if (x->neg[0]) {
    const pcol_xtype *t = &x->vals[0];
    return x->rc = pcol_error_set(x->err, PCOL_EUNSUPPORTED,
                                  "perfetto export: sample %" PRIu64 " (source %u) has a negative %.*s/%.*s (%" PRId64
                                  "), and a StackSample's weights are unsigned%s",
                                  x->neg_row[0] + 1, s, (int)pcol_utf8_cut(t->type.ptr, t->type.len, 80),
                                  t->type.ptr ? t->type.ptr : "", (int)pcol_utf8_cut(t->unit.ptr, t->unit.len, 40),
                                  t->unit.ptr ? t->unit.ptr : "", x->neg_v[0],
                                  *pcol_export_base_advice(x->f, sel) ? pcol_export_base_advice(x->f, sel)
                                                                       : ": choose another value with --value");
  }
  for (size_t k = 1; k < x->nv; k++)
    if (x->neg[k]) pcol_xskipped_add(&x->skipped, &x->vals[k], s); /* (THE note: xvalues.h) */
  if (thread_ids(x)) return x->rc;
  x->seq++;
  /* the first packet: the state cleared, the defaults */
  pcol_buf def = {0}, ssd = {0}, src = {0};
  int bad = stream_name(x, names, &src);
  if (!bad) {
    bad = pb_str(x, &ssd, 1, (const char *)src.data, src.len) || descriptor(x, &ssd, 2, &x->vals[0]);
    for (size_t k = 1; k < x->nv && !bad; k++)
      if (!x->neg[k]) bad = descriptor(x, &ssd, 3, &x->vals[k]);
    x->pkt.len = 0;
    bad = bad || pcol_pb_w_bytes(&def, 100, ssd.data, ssd.len) || pcol_pb_w_uint(&x->pkt, TP_TIMESTAMP, (uint64_t)pbase) ||
          pcol_pb_w_uint(&x->pkt, TP_SEQ_ID, x->seq + 1) || pcol_pb_w_uint(&x->pkt, TP_FLAGS, 1 /* SEQ_INCREMENTAL_STATE_CLEARED */) ||
          pcol_pb_w_bytes(&x->pkt, TP_DEFAULTS, def.data, def.len) || pcol_pb_w_uint(&x->pkt, TP_FIRST_ON_SEQ, 1);
    if (bad && !x->rc) oom(x);
  }
  pcol_buf_free(&def);
  pcol_buf_free(&ssd);
  if (x->rc || put_packet(x) || tracks(x, pbase)) return pcol_buf_free(&src), x->rc;
  /* its window (THE span rule, of a range the window it cuts: THE range
   * rule of the header, pcol_wall_cut), so that read back each source
   * keeps its own, its time 0 (where a range in seconds counts from: the
   * start it states, moved with its cut; of sources without a wall-clock
   * start, only as far as the range starts, pcol_wall_cut_keep_span, so
   * that the sources of one trace keep their common time 0) and its
   * recording (each source the whole trace's span before: a merge of
   * recordings 100 s apart read 102s for 6s) */
  pcol_wall_window cw;
  x->sfloor = x->floor;
  while (s >= x->run_e) x->run_s = x->run_e, x->run_e = pcol_wall_run_end(w, x->run_s);
  if (pcol_wall_cut(w, sel, s, &cw) && cw.stated > 0) {
    if (!x->absolute) pcol_wall_cut_keep_span(w, s, &cw);
    int64_t zero = x->base, lo, hi;
    if (!__builtin_add_overflow(x->base, cw.span, &lo) && !__builtin_add_overflow(lo, cw.stated, &hi) && lo >= 0 &&
        window(x, &src, lo, hi, cw.span - cw.shift, x->run_s))
      return pcol_buf_free(&src), x->rc;
    if (x->ranged && !__builtin_add_overflow(x->base, cw.shift, &zero) && zero > x->sfloor) x->sfloor = zero;
  }
  pcol_buf_free(&src);
  /* a source that states no duration ends with its samples' own
   * lengths (an Rprof profile of 13 ticks of 20 ms lasts 260 ms, not the
   * 240 ms from its first to its last tick: review 19 F4); of a range, at
   * most where its window ends (THE range rule, pcol_wall_cut: an Rprof
   * range 0.1-0.3 s lasts 200 ms, not the 180 ms to its last tick, one R
   * thread at 111%: review rd13b F4) */
  int64_t span_lo, span_d; /* THE span rule (wall.c pcol_wall_span): its stated duration, 0 none */
  (void)pcol_wall_span(w, NULL, s, &span_lo, &span_d);
  x->to_end = span_d <= 0;
  x->cap = INT64_MAX;
  pcol_wall_window win;
  if (x->to_end && x->ranged && pcol_wall_cut(w, sel, s, &win) && win.to != INT64_MAX &&
      __builtin_add_overflow(win.to, x->base, &x->cap))
    x->cap = win.to > 0 ? INT64_MAX : INT64_MIN;
  if (x->to_end && (rc = pcol_lasts_init(&x->lasts, x->f, s, x->err))) return x->rc = rc;
  rc = pcol_select_iter(x->f, &one, sample_row, x, x->err);
  x->to_end = 0;
  if (rc && !x->rc) x->rc = rc;
  return x->rc;
}

/* stops the pass at the first selected row with a stack */
static int stacked_row(void *ctx, uint64_t row, int64_t num, int64_t den) {
  pex *x = ctx;
  (void)num, (void)den;
  return (x->stacked = pcol_view_u32(&x->s_stack, row) != 0); /* (> 0 ends the pass: PCOL_OK) */
}

static int body(pex *x, const pcol_select *sel, const pcol_export_options *opt) {
  pcol_file *f = x->f;
  pcol_column_req cols[] = {
      {&x->s_time, PCOL_T_SAMPLES, PCOL_C_S_TIME},        {&x->s_stack, PCOL_T_SAMPLES, PCOL_C_S_STACK},
      {&x->s_dur, PCOL_T_SAMPLES, PCOL_C_S_DURATION},
      {&x->s_ls, PCOL_T_SAMPLES, PCOL_C_S_LABELSET},      {&x->src_uri, PCOL_T_SOURCES, PCOL_C_SOURCES_URI},
      {&x->fn_file, PCOL_T_FUNCTIONS, PCOL_C_FN_FILENAME}, {&x->ln_line, PCOL_T_LINES, PCOL_C_LINE_LINE},
      {&x->map_file, PCOL_T_MAPPINGS, PCOL_C_MAP_FILENAME}, {&x->map_bid, PCOL_T_MAPPINGS, PCOL_C_MAP_BUILD_ID},
      {&x->map_start, PCOL_T_MAPPINGS, PCOL_C_MAP_START},   {&x->map_limit, PCOL_T_MAPPINGS, PCOL_C_MAP_LIMIT},
      {&x->map_off, PCOL_T_MAPPINGS, PCOL_C_MAP_OFFSET}};
  if ((x->rc = pcol_columns(f, cols, PCOL_NCOLS(cols), x->err)) || (x->rc = pcol_frames_init(&x->fr, f, x->err)) ||
      (x->rc = pcol_select_check(f, sel, x->err)) || (x->rc = pcol_count_types(f, &x->cvt, x->err)) ||
      (x->rc = pcol_rtime_init(&x->rt, f, x->err)) || (x->rc = pcol_xvalues_init(&x->xv, f, &x->rt, x->err)) ||
      (x->rc = pcol_export_pick_make(&x->rt, f, sel, opt && opt->value, opt && opt->value ? opt->value->vt_id : 0,
                                     opt && opt->value ? opt->value->column : 0, &x->pick, x->err)) ||
      (x->rc = pcol_thread_classes(f, &x->tcls, &x->ntcls, x->err)) ||
      (x->rc = pcol_thread_name_sets(f, x->tcls, x->ntcls, &x->named, x->err)))
    return x->rc;
  x->fr.rule = x->rule;
  /* The selection's default (THE default rule) when its sources' own
   * defaults differ and their stated one (pcol.default_value: a JFR
   * recording's cpu) reconciles them: a Perfetto trace states a primary
   * weight per sequence and nothing for the trace, so that default is not
   * kept (read back, the sources' own differ: samples); said, with the
   * --value that gives it (review 18 F3) */
  uint32_t chosen = 0;
  int differ = 0;
  if (!(opt && opt->value) && (x->rc = pcol_selection_default_type(f, sel, &chosen, &differ, x->err))) return x->rc;
  if (differ == 2 && chosen >= 1 && chosen <= pcol_rows(f, PCOL_T_VALUE_TYPES)) {
    pcol_view vty, vun;
    pcol_str ty = {0}, un = {0};
    if ((x->rc = pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, &vty, x->err)) ||
        (x->rc = pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT, &vun, x->err)) ||
        (x->rc = pcol_string(f, pcol_view_u32(&vty, chosen - 1), &ty, x->err)) ||
        (x->rc = pcol_string(f, pcol_view_u32(&vun, chosen - 1), &un, x->err)))
      return x->rc;
    snprintf(x->lost_default, sizeof x->lost_default, "%.*s/%.*s", (int)pcol_utf8_cut(ty.ptr, ty.len, 80),
             ty.ptr ? ty.ptr : "", (int)pcol_utf8_cut(un.ptr, un.len, 40), un.ptr ? un.ptr : "");
  }
  /* every process's and thread's id, which a made-up one must not take */
  if ((x->rc = pcol_real_ids_init(f, x->tcls, x->ntcls, &x->real, x->err))) return x->rc;
  x->nstack = pcol_rows(f, PCOL_T_STACKS);
  x->nlines = x->fr.nlines;
  x->nloc = x->fr.nloc;
  uint64_t held = (x->nstack + 1 + x->nlines + x->nloc + 2 + x->fr.nmap + 1) * sizeof(uint32_t);
  if ((x->rc = pcol_budget_hold(x->bud, held, x->err))) return x->rc;
  if (!(x->st_stack = calloc(x->nstack + 1, sizeof *x->st_stack)) ||
      !(x->st_frame = calloc(x->nlines + x->nloc + 2, sizeof *x->st_frame)) ||
      !(x->st_map = calloc(x->fr.nmap + 1, sizeof *x->st_map)))
    return oom(x);
  /* the sources with selected samples, and whether all have a wall-clock
   * start (THE start rule, wall.c): then absolute times */
  uint64_t ns = pcol_rows(f, PCOL_T_SOURCES);
  pcol_wall w;
  if ((x->rc = pcol_wall_init(f, &w, x->err))) return x->rc;
  uint8_t *has = calloc(ns + 1, 1);
  int64_t t0 = INT64_MAX, tend = 0;
  uint64_t nrows = 0;
  int any = 0;
  x->absolute = 1;
  for (uint32_t s = 1; s <= ns && has && !x->rc; s++) {
    if (sel && sel->source_id && sel->source_id != s) continue;
    pcol_select o = sel ? *sel : (pcol_select){0};
    uint64_t c = 0;
    o.source_id = s;
    if ((x->rc = pcol_select_count(f, &o, &c, x->err))) break;
    if (!c) continue;
    has[s] = 1, any = 1;
    nrows = nrows > UINT64_MAX - c ? UINT64_MAX : nrows + c;
    if (w.start[s] == PCOL_NA_I64 || w.start[s] <= 0) x->absolute = 0;
  }
  if (!has) oom(x);
  if (!any) x->absolute = 0;
  /* each sample's packet takes at least 16 bytes (its times, sequence,
   * flags, task and weight): refused before anything is written */
  if (!x->rc && pcol_budget_exceeded(x->bud, nrows > UINT64_MAX / 16 ? UINT64_MAX : 16 * nrows))
    x->rc = pcol_budget_refuse(x->bud, x->err);
  /* no selected sample with a stack: refused, as a trace of no callstack
   * is no CPU profile to pcol's importer (§17) or trace_processor's
   * flame graph */
  if (!x->rc && !(x->rc = pcol_select_iter(f, sel, stacked_row, x, x->err)) && !x->stacked)
    x->rc = pcol_error_set(x->err, PCOL_EUNSUPPORTED, "perfetto export: no selected sample has a stack (or none is "
                           "selected), and a Perfetto trace of StackSamples without a callstack holds no CPU "
                           "sample to its readers (nothing written)");
  /* the trace's span: the sources' (of a range, their windows as it cuts
   * them, THE range rule of the header, pcol_wall_cut, as the pprof and
   * OTLP exports state them: read back, the copy's Duration: is the
   * range's, not the time before it; relative times then count from where
   * the range's part begins) */
  int ranged = x->ranged = sel && (sel->has_from || sel->has_to);
  for (uint32_t s = 1; s <= ns && has && !x->rc; s++) {
    if (!has[s]) continue;
    /* THE span rule (wall.c pcol_wall_span: the duration the source
     * states, as the views' Duration: has it, not another key's; a span
     * that starts after the source's time 0, spec.md §7 "Span start": a
     * trace's later profile, ends that much later: rd12b F5) */
    int64_t st = x->absolute ? w.start[s] : 0, lo, d, e;
    (void)pcol_wall_span(&w, NULL, s, &lo, &d);
    if (!ranged && lo > 0 && __builtin_add_overflow(d, lo, &d)) d = INT64_MAX;
    pcol_wall_window win;
    if (ranged && pcol_wall_cut(&w, sel, s, &win) && win.cut) {
      if (__builtin_add_overflow(st, win.shift, &st)) st = INT64_MAX;
      d = win.stated > 0 ? win.stated : 0;
    }
    if (st < t0) t0 = st;
    if (!__builtin_add_overflow(st, d, &e) && e > tend) tend = e;
  }
  if (t0 == INT64_MAX) t0 = 0;
  if (ranged && x->absolute) x->floor = t0;
  if (ranged && !x->absolute) /* relative times since t0, the trace's 0 */
    x->lead = t0, tend = tend > t0 ? tend - t0 : 0, t0 = 0;
  stream_names names = {0};
  x->run_s = 0, x->run_e = 1;
  if (!x->rc) clocks(x, t0);
  for (uint32_t s = 1; s <= ns && !x->rc; s++)
    if (has[s]) write_source(x, sel, s, opt, &w, &names);
  /* the trace's end: the latest source's (of a range, its window's; of a
   * source that states none, its samples' end) */
  if (x->end > tend) tend = x->end;
  if (!x->rc && any && tend > t0) clocks(x, tend);
  stream_names_free(&names);
  free(has);
  pcol_wall_free(&w);
  return x->rc;
}

int pcol_export_perfetto_opt(pcol_file *f, const pcol_select *sel, FILE *out, const pcol_export_options *opt,
                             pcol_error *err) {
  if (!f || !out) return pcol_error_set(err, PCOL_EINVAL, "pcol_export: NULL argument");
  if (pcol_select_whole_stacks(sel, err)) return PCOL_EINVAL; /* (THE rule: select.h) */
  pcol_budget bud;
  int rc = pcol_budget_open(&bud, f, opt, "perfetto export", out, err);
  if (rc) return rc;
  bud.hold_floor = PCOL_EXPORT_HOLD_MIN;
  pex x;
  memset(&x, 0, sizeof x);
  x.f = f;
  x.err = err;
  x.bud = &bud;
  /* a pprof source's nameless line is "<unknown>", an Rprof one's a place
   * (frames.h; x.fr is made by body, which reads the rule through it) */
  pcol_nameless_rule rule = {0};
  rc = pcol_nameless_rule_make(f, sel, &rule, err);
  x.rule = &rule;
  if (!rc) rc = body(&x, sel, opt);
  pcol_nameless_rule_free(&rule);
  if (!rc && fflush(bud.fp)) rc = pcol_write_error(err, errno, "perfetto export");
  rc = pcol_budget_close(&bud, rc, err);
  if (!rc) pcol_export_loss_note(f, sel, PCOL_FMT_PERFETTO, 0, opt, NULL); /* the labels it cannot hold */
  if (!rc && x.skipped.n && pcol_export_heard(opt)) {
    char text[sizeof x.skipped.list + 160];
    pcol_xskipped_text(&x.skipped, "a Perfetto trace cannot hold (a StackSample's weights are unsigned)", text,
                       sizeof text);
    pcol_export_say(opt, PCOL_EXPORT_DATA, text);
  }
  if (!rc && x.lacking && pcol_export_heard(opt) && opt->value) {
    char text[400];
    const pcol_value_sel *v = opt->value;
    char more[64] = "";
    if (x.lacking > 1) snprintf(more, sizeof more, " (and %llu more sources)", (unsigned long long)(x.lacking - 1));
    snprintf(text, sizeof text, "source %u%s has no value %.*s/%.*s: its default is the primary weight of its "
             "samples instead (the other values followers)",
             x.lacking_src, more, (int)pcol_utf8_cut(v->type.ptr, v->type.len, 80), v->type.ptr ? v->type.ptr : "",
             (int)pcol_utf8_cut(v->unit.ptr, v->unit.len, 40), v->unit.ptr ? v->unit.ptr : "");
    pcol_export_say(opt, PCOL_EXPORT_DATA, text);
  }
  if (!rc && x.lost_default[0] && pcol_export_heard(opt)) {
    char text[2 * sizeof x.lost_default + 320];
    snprintf(text, sizeof text, "the profile's default value %s (its sources' stated default, pcol.default_value) "
             "is not kept: a Perfetto trace states a primary weight per source, its own default in a source without it, "
             "so read back the default is samples (the sources' own differ); ask --value %s there",
             x.lost_default, x.lost_default);
    pcol_export_say(opt, PCOL_EXPORT_DATA, text);
  }
  if (!rc && x.lasting && pcol_export_heard(opt)) {
    char text[400];
    snprintf(text, sizeof text, "%llu sample%s how long %s (a long sample, a V8 profile's interval): a "
             "StackSample is an instant, so read back each is at its start alone, and a --from/--to range "
             "counts it whole by its start rather than its part inside",
             (unsigned long long)x.lasting, x.lasting > 1 ? "s state" : " states", x.lasting > 1 ? "they last" : "it lasts");
    pcol_export_say(opt, PCOL_EXPORT_DATA, text);
  }
  if (!rc && x.pids_lost && pcol_export_heard(opt)) {
    char text[400];
    pcol_made_up_note(text, sizeof text, PCOL_ID_PID, x.pids_lost, "from 0 to 2^31 - 1 (Perfetto's pid)", x.lost_pid,
                      strlen(x.lost_pid), NULL);
    pcol_export_say(opt, PCOL_EXPORT_LOSS, text);
  }
  if (!rc && pcol_export_heard(opt)) { /* (a trace has no place to say Rprof's rule: review 19 F6) */
    char text[400];
    int said;
    rc = pcol_places_lines_note(f, sel, "a Perfetto trace cannot say so, and `pcol top --by line` of this "
                                "copy gives it to the frame itself, as go tool pprof -lines does", text,
                                sizeof text, &said, err);
    if (!rc && said) pcol_export_say(opt, PCOL_EXPORT_LOSS, text);
  }
  if (!rc && x.ids_lost && pcol_export_heard(opt)) {
    char text[400];
    pcol_made_up_note(text, sizeof text, PCOL_ID_TID, x.ids_lost, "from 0 to 2^31 - 1 (Perfetto's tid)", x.lost_name,
                      strlen(x.lost_name), "name");
    pcol_export_say(opt, PCOL_EXPORT_LOSS, text);
  }
  pcol_rtime_free(&x.rt);
  free(x.pick.src);
  free(x.cvt);
  free(x.tcls);
  free(x.named);
  free(x.st_stack);
  free(x.st_frame);
  free(x.st_map);
  free(x.strs);
  free(x.locs);
  free(x.th);
  pcol_intern_free(&x.sset);
  pcol_u64map_free(&x.th_of);
  pcol_u64map_free(&x.tids);
  pcol_real_ids_free(&x.real);
  pcol_buf_free(&x.scratch);
  pcol_buf_free(&x.name);
  pcol_buf_free(&x.in);
  pcol_buf_free(&x.ss);
  pcol_buf_free(&x.pkt);
  pcol_buf_free(&x.sub);
  return rc;
}
