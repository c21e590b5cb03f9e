/* perfetto_v8.c — the V8 CPU profiles of a Perfetto trace (perfetto_v8.h;
 * doc/mappings.md §17): a TrackEvent whose legacy_event has phase 'P'
 * (TRACE_EVENT_SAMPLE_WITH_ID), named "Profile" or "ProfileChunk" (its
 * name_iid's EventName, its name, or the legacy event's name_iid), whose
 * debug annotation "data" holds a legacy_json_value: that JSON is a Chrome
 * JSON trace's args.data of the same event, and is read by the same code
 * (../v8_chunks.c: pcol_v8c_read_data, pcol_v8c_add).  The profile's id is
 * the legacy event's unscoped_id as Chrome's JSON writes it ("0x1"); its
 * thread the legacy event's pid_override/tid_override, else the event's
 * track (track_uuid, else its sequence's TrackEventDefaults) when that is a
 * thread's TrackDescriptor, else its sequence's thread (the last
 * ThreadDescriptor, or thread TrackDescriptor, written on the sequence), as
 * trace_processor places a legacy event and Chrome's JSON export writes
 * its pid and tid.  The chunks of a profile are taken in the order of the
 * trace, as trace_processor takes them (V8 writes a profile's chunks from
 * one thread: one sequence, in time order).  Times: a profile's startTime
 * and deltas are Chrome's TimeTicks (µs), on its Profile event's clock
 * (perfetto_import.c chrome_ticks: CLOCK_MONOTONIC when unstated); when the
 * importer's clock rule (h->ticks) places every profile's startTime on the
 * trace clock, the profiles are on the trace's timeline, with its time 0
 * and wall-clock start (pf_v8_place, pf_v8_finish), else on their own, as
 * a JSON trace's. */
#include "perfetto_v8.h"
#include "error.h"   /* pcol_oom, pcol_error_in */
#include "keys.h"    /* PCOL_META_NOTE, PCOL_META_RECORDING_PART */
#include "pb_wire.h" /* pcol_pb_next */
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { /* field numbers (format/perfetto/perfetto_trace.proto) */
  TE_DEBUG_ANNOTATIONS = 4,
  TE_LEGACY_EVENT = 6,
  TE_NAME_IID = 10,
  TE_TRACK_UUID = 11,
  TE_NAME = 23,
  LE_NAME_IID = 1,
  LE_PHASE = 2,
  LE_UNSCOPED_ID = 6,
  LE_PID_OVERRIDE = 18,
  LE_TID_OVERRIDE = 19,
  DA_NAME_IID = 1,
  DA_LEGACY_JSON = 9,
  DA_NAME = 10,
  TD_UUID = 1,
  TD_THREAD = 4,
  THR_PID = 1,
  THR_TID = 2,
  DEF_TRACK_EVENT = 11,  /* TracePacketDefaults.track_event_defaults */
  TED_TRACK_UUID = 11,   /* TrackEventDefaults.track_uuid */
  I_EVENT_NAMES = 2,     /* InternedData */
  I_DEBUG_ANNOTATION_NAMES = 3,
};

static int refuse(const pf_v8_host *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int refuse(const pf_v8_host *h, const char *fmt, ...) {
  char m[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(m, sizeof m, fmt, ap);
  va_end(ap);
  return h->bad(h->x, m);
}

/* The next field of message (p, n) at *i: 1, 0 at its end, or a refusal
 * naming the message (what). */
static int next(const pf_v8_host *h, const uint8_t *p, size_t n, size_t *i, pcol_pb_field *f, const char *what) {
  if (*i >= n) return 0;
  int r = pcol_pb_next(p, n, i, f);
  if (r == -3) return refuse(h, "%s: field %" PRIu64 " has the unknown wire type %u", what, f->field, f->wt);
  if (r) return refuse(h, "%s: a field is cut off or its varint is longer than 10 bytes", what);
  if (f->field == 0) return refuse(h, "%s: field number 0", what);
  return 1;
}

void pf_v8_free(pf_v8 *v) {
  if (v->on) pcol_v8c_free(&v->v);
  pcol_u64map_free(&v->track_ix);
  pcol_u64map_free(&v->seq_ix);
  free(v->tracks), free(v->seqs), free(v->at);
  memset(v, 0, sizeof *v);
}

/* A ThreadDescriptor's pid and tid into *t. */
static int read_thread(const pf_v8_host *h, const uint8_t *p, size_t n, pf_v8_thread *t) {
  pcol_pb_field f;
  size_t i = 0;
  int r;
  while ((r = next(h, p, n, &i, &f, "thread descriptor")) == 1) {
    if (f.wt != 0) continue;
    if (f.field == THR_PID) t->pid = (int32_t)f.v, t->has_pid = 1;
    if (f.field == THR_TID) t->tid = (int32_t)f.v, t->has_tid = 1;
  }
  return r;
}

/* The entry of key k in map m over the array *a of n elements of size sz
 * (a new one zeroed). */
static int entry(const pf_v8_host *h, pcol_u64map *m, void **a, size_t *n, size_t *cap, size_t sz, uint64_t k,
                 void **out) {
  uint32_t ix;
  int added, rc = pcol_u64map_get(m, k, &ix, &added);
  if (rc == PCOL_ENOMEM) return pcol_oom(h->err);
  if (rc) return pcol_error_set(h->err, rc, "%s: Perfetto trace: more than 2^32 tracks or sequences", h->name);
  if (added) {
    if (*n == *cap) {
      size_t c = *cap ? 2 * *cap : 16;
      void *q = realloc(*a, c * sz);
      if (!q) return pcol_oom(h->err);
      *a = q, *cap = c;
    }
    memset((char *)*a + *n * sz, 0, sz);
    (*n)++;
  }
  *out = (char *)*a + (size_t)ix * sz;
  return 0;
}

int pf_v8_track(pf_v8 *v, const pf_v8_host *h, const uint8_t *p, size_t n) {
  pcol_pb_field f;
  size_t i = 0;
  uint64_t uuid = 0;
  const uint8_t *tp = NULL;
  size_t tn = 0;
  int r;
  while ((r = next(h, p, n, &i, &f, "track_descriptor")) == 1) {
    if (f.field == TD_UUID && f.wt == 0) uuid = f.v;
    if (f.field == TD_THREAD && f.wt == 2) tp = p + f.b, tn = f.e - f.b;
  }
  if (r || !tp || !uuid || uuid == UINT64_MAX) return r;
  pf_v8_thread t = {0}, *e;
  if ((r = read_thread(h, tp, tn, &t))) return r;
  if ((r = entry(h, &v->track_ix, (void **)&v->tracks, &v->ntracks, &v->captracks, sizeof *v->tracks, uuid,
                 (void **)&e)))
    return r;
  *e = t; /* (the last one given) */
  return 0;
}

static int seq_of(pf_v8 *v, const pf_v8_host *h, uint32_t seq, pf_v8_seq **s) {
  return entry(h, &v->seq_ix, (void **)&v->seqs, &v->nseqs, &v->capseqs, sizeof **s, seq, (void **)s);
}

int pf_v8_seq_thread(pf_v8 *v, const pf_v8_host *h, uint32_t seq, const uint8_t *td, size_t tdn, const uint8_t *trk,
                     size_t trkn) {
  pf_v8_thread t = {0};
  int r = 0;
  if (tdn) r = read_thread(h, td, tdn, &t);
  if (!r && trkn) {
    pcol_pb_field f;
    size_t i = 0;
    while ((r = next(h, trk, trkn, &i, &f, "track_descriptor")) == 1)
      if (f.field == TD_THREAD && f.wt == 2 && (r = read_thread(h, trk + f.b, f.e - f.b, &t))) return r;
  }
  if (r || !(t.has_pid || t.has_tid)) return r;
  pf_v8_seq *s;
  if ((r = seq_of(v, h, seq, &s))) return r;
  s->t = t;
  return 0;
}

/* an interned name (or 0 when the sequence has none) */
static int name_of(const pf_v8_host *h, const void *seqctx, unsigned kind, uint64_t iid, const uint8_t **p,
                   size_t *n) {
  return iid ? h->interned_name(h->x, seqctx, kind, iid, p, n) : 0;
}

static int is(const uint8_t *p, size_t n, const char *lit) { return p && n == strlen(lit) && !memcmp(p, lit, n); }

int pf_v8_track_event(pf_v8 *v, const pf_v8_host *h, const void *seqctx, uint32_t seq, uint32_t clock,
                      const uint8_t *defaults, size_t dn, const uint8_t *p, size_t n) {
  pcol_pb_field f, g;
  size_t i = 0, k;
  int r;
  const uint8_t *leg = NULL, *nm = NULL;
  size_t legn = 0, nmn = 0;
  uint64_t name_iid = 0, track = 0;
  int has_track = 0;
  /* (the fast way out: most track events are no legacy sample event) */
  while ((r = next(h, p, n, &i, &f, "track_event")) == 1) {
    if (f.field == TE_LEGACY_EVENT && f.wt == 2) leg = p + f.b, legn = f.e - f.b;
    else if (f.field == TE_NAME_IID && f.wt == 0) name_iid = f.v;
    else if (f.field == TE_NAME && f.wt == 2) nm = p + f.b, nmn = f.e - f.b;
    else if (f.field == TE_TRACK_UUID && f.wt == 0) track = f.v, has_track = 1;
  }
  if (r || !leg) return r;
  uint64_t phase = 0, id = 0, leg_name = 0;
  int has_id = 0;
  pf_v8_thread over = {0};
  k = 0;
  while ((r = next(h, leg, legn, &k, &g, "track_event.legacy_event")) == 1) {
    if (g.wt != 0) continue;
    if (g.field == LE_PHASE) phase = g.v;
    if (g.field == LE_UNSCOPED_ID) id = g.v, has_id = 1;
    if (g.field == LE_NAME_IID) leg_name = g.v;
    if (g.field == LE_PID_OVERRIDE) over.pid = (int32_t)g.v, over.has_pid = 1;
    if (g.field == LE_TID_OVERRIDE) over.tid = (int32_t)g.v, over.has_tid = 1;
  }
  if (r || phase != 'P') return r;
  /* its name: name_iid's, else name, else the legacy event's name_iid's */
  if (name_iid || !nm) {
    nm = NULL, nmn = 0;
    if ((r = name_of(h, seqctx, I_EVENT_NAMES, name_iid ? name_iid : leg_name, &nm, &nmn)) < 0) return r;
    if (!r) return v->n_no_name++, 0;
  }
  int chunk = is(nm, nmn, "ProfileChunk");
  if (!chunk && !is(nm, nmn, "Profile")) return 0;
  /* its "data" annotation's JSON */
  const uint8_t *js = NULL;
  size_t jn = 0;
  i = 0;
  while (!js && (r = next(h, p, n, &i, &f, "track_event")) == 1) {
    if (f.field != TE_DEBUG_ANNOTATIONS || f.wt != 2) continue;
    const uint8_t *a = p + f.b, *an = NULL, *aj = NULL;
    size_t al = f.e - f.b, ann = 0, ajn = 0;
    uint64_t aiid = 0;
    k = 0;
    while ((r = next(h, a, al, &k, &g, "track_event.debug_annotations")) == 1) {
      if (g.field == DA_NAME_IID && g.wt == 0) aiid = g.v;
      if (g.field == DA_NAME && g.wt == 2) an = a + g.b, ann = g.e - g.b;
      if (g.field == DA_LEGACY_JSON && g.wt == 2) aj = a + g.b, ajn = g.e - g.b;
    }
    if (r) return r;
    if (aiid && (r = name_of(h, seqctx, I_DEBUG_ANNOTATION_NAMES, aiid, &an, &ann)) < 0) return r;
    if (aj && is(an, ann, "data")) js = aj, jn = ajn;
  }
  if (r < 0) return r;
  if (!js) return v->n_no_json++, 0;
  if (!has_id)
    return refuse(h, "a V8 %s event (a legacy event of phase 'P') without an unscoped_id",
                  chunk ? "ProfileChunk" : "Profile");
  if (jn > PF_V8_MAX_JSON)
    return refuse(h, "a V8 %s event's data (legacy_json_value) of %zu bytes: pcol reads at most %u MiB of it "
                  "(doc/safety.md)", chunk ? "ProfileChunk" : "Profile", jn, PF_V8_MAX_JSON >> 20);
  /* its thread: the overrides, else a thread track's, else the sequence's */
  pf_v8_seq *s;
  if ((r = seq_of(v, h, seq, &s))) return r;
  if (!has_track && dn && (s->dp != defaults || s->dn != dn)) { /* (read once per defaults) */
    s->dp = defaults, s->dn = dn, s->dtrack = 0;
    i = 0;
    while ((r = next(h, defaults, dn, &i, &f, "trace_packet_defaults")) == 1) {
      if (f.field != DEF_TRACK_EVENT || f.wt != 2) continue;
      k = 0;
      while ((r = next(h, defaults + f.b, f.e - f.b, &k, &g, "track_event_defaults")) == 1)
        if (g.field == TED_TRACK_UUID && g.wt == 0) s->dtrack = g.v;
      if (r) return r;
    }
    if (r) return r;
  }
  if (!has_track) track = dn ? s->dtrack : 0;
  pf_v8_thread t = s->t;
  if (track && track != UINT64_MAX) {
    pf_v8_thread *e;
    if ((r = entry(h, &v->track_ix, (void **)&v->tracks, &v->ntracks, &v->captracks, sizeof *v->tracks, track,
                   (void **)&e)))
      return r;
    if (e->has_pid || e->has_tid) t = *e;
  }
  if (over.has_pid) t.pid = over.pid, t.has_pid = 1;
  if (over.has_tid) t.tid = over.tid, t.has_tid = 1;
  /* the JSON, read as a JSON trace's args.data */
  if (!v->on) pcol_v8c_init(&v->v, h->b, h->name, h->opt, sizeof(pf_v8_event), h->err), v->on = 1;
  char pk[160], where[256], idt[24], *jname = NULL;
  h->where(h->x, pk, sizeof pk);
  snprintf(where, sizeof where, "Perfetto trace: %s: the %s event's data (legacy_json_value)", pk,
           chunk ? "ProfileChunk" : "Profile");
  if (asprintf(&jname, "%s: %s", h->name, where) < 0) return pcol_oom(h->err);
  FILE *in = jn ? fmemopen((void *)(uintptr_t)js, jn, "r") : NULL;
  pcol_jpull j;
  if (!jn) r = refuse(h, "the %s event's data (legacy_json_value) is empty, no JSON", chunk ? "ProfileChunk" : "Profile");
  else if (!in) r = pcol_oom(h->err);
  else if (!(r = pcol_v8c_begin(&v->v)) && !(r = pcol_jp_open(&j, in, jname, h->opt, PCOL_JP_BIG_INTS | PCOL_JP_ALLOW_NUL, h->err))) {
    /* (\u0000 in a name is read whole, as a JSON trace's args.data) */
    if (!(r = pcol_jp_next(&j)) && !(r = pcol_v8c_read_data(&v->v, &j))) r = pcol_jp_finish(&j);
    pcol_jp_close(&j);
  }
  if (in) fclose(in);
  free(jname);
  if (r) return r;
  snprintf(idt, sizeof idt, "0x%" PRIx64, id); /* (as Chrome's JSON writes it) */
  uint64_t key = t.has_pid ? (uint64_t)(uint32_t)t.pid : (uint64_t)1 << 40;
  v->n_events++;
  pf_v8_event ev = {t, clock};
  return pcol_v8c_add(&v->v, key, idt, chunk, &ev, 0, 0, where);
}

static const char *num_text(char out[24], int has, int64_t n) {
  if (has) snprintf(out, 24, "%" PRId64, n);
  else snprintf(out, 24, "?");
  return out;
}

static int note(pcol_builder *b, uint32_t src, uint64_t n, const char *what, pcol_error *err) {
  char m[256];
  if (!n) return 0;
  snprintf(m, sizeof m, "%s: %" PRIu64, what, n);
  return pcol_b_meta_str(b, src, PCOL_META_NOTE, m, err);
}

size_t pf_v8_profiles(const pf_v8 *v) {
  size_t n = 0;
  for (size_t i = 0; v->on && i < v->v.nst; i++) n += pcol_v8c_has_profile(&v->v.st[i]) != 0;
  return n;
}

/* a V8 time (whole µs and ns more, of its sign) in ns: 1, 0 past 64 bits */
static int vnum_ns(const vnum *t, int64_t *ns) {
  return !__builtin_mul_overflow(t->v, (int64_t)1000, ns) && !__builtin_add_overflow(*ns, (int64_t)t->frac, ns);
}

int pf_v8_place(pf_v8 *v, const pf_v8_host *h, int *placed, int64_t *lo, int64_t *hi) {
  *placed = 0, *lo = *hi = 0;
  if (!v->on || !v->v.nst) return 0;
  free(v->at);
  if (!(v->at = malloc(v->v.nst * sizeof *v->at))) return pcol_oom(h->err);
  int any = 0;
  for (size_t i = 0; i < v->v.nst; i++) {
    const pcol_v8c_stream *s = &v->v.st[i];
    int64_t ns;
    v->at[i] = 0;
    if (!pcol_v8c_has_profile(s)) continue;
    const pf_v8_event *ev = s->thread;
    if (!s->start.present || s->start.bad || !vnum_ns(&s->start, &ns) || !h->ticks(h->x, ev->clock, ns, &v->at[i]))
      return 0;
    if (!any || v->at[i] < *lo) *lo = v->at[i];
    if (!any || v->at[i] > *hi) *hi = v->at[i];
    any = 1;
  }
  *placed = v->placed = any;
  return 0;
}

int pf_v8_finish(pf_v8 *v, const pf_v8_host *h, int64_t part, int64_t zero, int64_t wall, size_t *made,
                 uint32_t *first) {
  int rc = 0;
  *made = 0, *first = 0;
  if (!v->on) return 0;
  const vnum *origin = pcol_v8c_origin(&v->v);
  /* placed: each profile's time 0 is the trace's, on V8's clock: its
   * startTime less its place after the trace's first timestamp (so its
   * samples are at their instants on the trace's timeline); its span is
   * its own, placed there (THE span rule of a trace's profile,
   * pcol_v8_import_profile: pcol.span_start_ns), as a JSON trace's */
  vnum own;
  for (size_t i = 0; !rc && i < v->v.nst; i++) {
    pcol_v8c_stream *s = &v->v.st[i];
    if (!pcol_v8c_has_profile(s)) continue;
    const pf_v8_thread *t = &((const pf_v8_event *)s->thread)->t;
    char pm[24], tm[24], *uri = NULL, *ename = NULL, num[32];
    uint32_t ls = 0, src = 0;
    num_text(pm, t->has_pid, t->pid), num_text(tm, t->has_tid, t->tid);
    if ((rc = pcol_v8c_check(&v->v, s, pm))) break;
    if (v->placed) {
      int64_t ns, after, o;
      if (!vnum_ns(&s->start, &ns) || __builtin_sub_overflow(v->at[i], zero, &after) || after < 0 ||
          __builtin_sub_overflow(ns, after, &o))
        return pcol_error_set(h->err, PCOL_ECORRUPT, "%s: profile %s of pid %s: its startTime on the trace's "
                              "clock is past 64 bits from the trace's start", h->name, s->id, pm);
      own = (vnum){.present = 1, .v = o / 1000, .frac = (int)(o % 1000)};
      origin = &own;
    }
    if (!(ename = pcol_v8c_name(&v->v, s, pm, tm))) return pcol_oom(h->err);
    size_t ulen = 0;
    if ((rc = h->thread(h->x, t, &uri, &ulen, &ls))) {
      rc = pcol_error_in(h->err, rc, ename, 0);
    } else if (!(rc = pcol_v8c_import(&v->v, s, uri, ulen, ls, pm, tm, origin, &src))) { /* (its errors named) */
      if (v->placed && wall != PCOL_NA_I64 && wall > 0) /* (the trace's wall-clock start, as its other sources') */
        snprintf(num, sizeof num, "%" PRId64, wall), rc = pcol_b_meta_str(h->b, src, PPROF_META_TIME_NANOS, num, h->err);
      snprintf(num, sizeof num, "%" PRId64, part + (int64_t)*made);
      if (!rc && part > 0) rc = pcol_b_meta_str(h->b, src, PCOL_META_RECORDING_PART, num, h->err);
      if (!rc && !(rc = note(h->b, src, v->n_no_name, "V8 profile events (legacy phase 'P') whose name is in no "
                             "interned data, not read", h->err)))
        rc = note(h->b, src, v->n_no_json, "V8 Profile/ProfileChunk events without a \"data\" annotation of "
                  "legacy JSON, not read", h->err);
      rc = pcol_error_in(h->err, rc, ename, 0);
      if (!(*made)++) *first = src;
    }
    free(uri), free(ename);
  }
  if (!rc && *made) pcol_v8c_lost_warning(&v->v, h->err);
  return rc;
}
