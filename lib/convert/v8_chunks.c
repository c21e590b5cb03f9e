/* v8_chunks.c — a trace's sampled V8 profiles put back together: THE rule
 * of the "Profile" and "ProfileChunk" events, for Chrome's JSON traces
 * (v8/chrome_trace.c) and Perfetto's protobuf ones (perfetto/, the JSON of
 * their legacy events' "data" annotation); v8_profile.h says how.
 * Each profile's nodes, samples, timeDeltas and lines wait as text in
 * temporary files (a few counters a profile in memory), and are read back
 * as one V8 document by pcol_v8_import_profile (v8_profile.c). */
#include "v8_profile.h"
#include "keys.h"     /* PCOL_SRC_CHROME, V8_KEY_CLOSING_SAMPLE */
#include "error.h"    /* pcol_error_in, pcol_oom */
#include "buf.h"      /* PCOL_GROW */
#include "spill.h"    /* pcol_temp_file: close-on-exec, in $TMPDIR */
#include "srcname.h"  /* pcol_source_name */
#include <errno.h>
#include <inttypes.h>
#include <unistd.h>
#include <sys/resource.h> /* getrlimit: the open files' limit, named on EMFILE */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { P_NODES = PCOL_V8C_NODES, P_SAMPLES = PCOL_V8C_SAMPLES, P_DELTAS = PCOL_V8C_DELTAS, P_LINES = PCOL_V8C_LINES,
       NPARTS = PCOL_V8C_NPARTS };
static const char *const PART_KEY[NPARTS] = {"nodes", "samples", "timeDeltas", "lines"};

/* errno's text, and past the open files' limit what it means here: each
 * profile keeps 3 temporary files open (4 with lines) until the trace is
 * read (review h11 F6) */
static const char *tmp_why(char *b, size_t n) {
  int e = errno;
  struct rlimit rl;
  if (e == EMFILE && !getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur != RLIM_INFINITY)
    snprintf(b, n, "%s: each V8 profile keeps 3 or 4 temporary files open until the trace is read, and `ulimit -n` "
             "allows %llu open files (about %llu profiles): raise it to read more", strerror(e),
             (unsigned long long)rl.rlim_cur, (unsigned long long)rl.rlim_cur / 3);
  else
    snprintf(b, n, "%s", strerror(e));
  return b;
}

static int tmp_failed(pcol_v8c *c) {
  char why[256];
  return pcol_error_set(c->err, PCOL_EIO, "%s: a temporary file: %s", c->name, tmp_why(why, sizeof why));
}

void pcol_v8c_init(pcol_v8c *c, pcol_builder *b, const char *name, const pcol_import_options *opt,
                   size_t thread_size, pcol_error *err) {
  memset(c, 0, sizeof *c);
  c->b = b, c->name = name, c->opt = opt, c->thread_size = thread_size, c->err = err;
}

void pcol_v8c_free(pcol_v8c *c) {
  for (size_t i = 0; i < c->nst; i++) {
    for (int p = 0; p < NPARTS; p++)
      if (c->st[i].part[p]) fclose(c->st[i].part[p]);
    free(c->st[i].id), free(c->st[i].ch), free(c->st[i].thread);
  }
  for (int p = 0; p < NPARTS; p++)
    if (c->cur[p]) fclose(c->cur[p]);
  free(c->st);
  memset(c, 0, sizeof *c);
}

/* JSON text of the current value, re-serialized (strings escaped again:
 * json_pull hands them decoded). */
static int put_str(FILE *o, const char *s, size_t n) {
  putc('"', o);
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)s[i];
    if (ch == '"' || ch == '\\') putc('\\', o), putc(ch, o);
    else if (ch < 0x20) fprintf(o, "\\u%04x", ch);
    else putc(ch, o);
  }
  putc('"', o);
  return 0;
}

static int copy_value(pcol_jpull *j, FILE *o) {
  int rc;
  switch (j->tok) {
  case PCOL_JT_OBJ:
  case PCOL_JT_ARR: {
    pcol_jtok end = j->tok == PCOL_JT_OBJ ? PCOL_JT_OBJ_END : PCOL_JT_ARR_END;
    putc(j->tok == PCOL_JT_OBJ ? '{' : '[', o);
    for (int first = 1;; first = 0) {
      if ((rc = pcol_jp_next(j))) return rc;
      if (j->tok == end) break;
      if (!first) putc(',', o);
      if (j->tok == PCOL_JT_KEY) {
        put_str(o, j->str, j->len);
        putc(':', o);
        if ((rc = pcol_jp_next(j))) return rc;
      }
      if ((rc = copy_value(j, o))) return rc;
    }
    putc(end == PCOL_JT_OBJ_END ? '}' : ']', o);
    return 0;
  }
  case PCOL_JT_STR: return put_str(o, j->str, j->len);
  case PCOL_JT_INT: fprintf(o, "%" PRId64, j->i); return 0;
  /* (a real's text as the file has it: a time is read from its digits to
   * 1e-18 ns, pcol_v8_time_us; "%.17g" of -1.0015 is -1.0015000000000001) */
  case PCOL_JT_REAL: fwrite(j->str, 1, j->len, o); return 0;
  case PCOL_JT_TRUE: fputs("true", o); return 0;
  case PCOL_JT_FALSE: fputs("false", o); return 0;
  case PCOL_JT_NULL: fputs("null", o); return 0;
  default: return 0;
  }
}

/* The elements of the array that starts now, appended to the current
 * event's part p. */
static int copy_elements(pcol_v8c *c, pcol_jpull *j, int p) {
  int rc;
  if (j->tok != PCOL_JT_ARR) return pcol_jp_skip(j);
  if (!c->cur[p] && !(c->cur[p] = pcol_temp_file("pcol-chrome"))) return tmp_failed(c);
  while (!(rc = pcol_jp_next(j)) && j->tok != PCOL_JT_ARR_END) {
    if (c->ccount[p]++) putc(',', c->cur[p]);
    if ((rc = copy_value(j, c->cur[p]))) return rc;
  }
  return rc;
}

/* What the value at j's current token is, in messages: a number's text, else its kind */
static void token_text(const pcol_jpull *j, char *out, size_t n) {
  if (j->tok == PCOL_JT_INT || j->tok == PCOL_JT_REAL) snprintf(out, n, "%.32s", j->str);
  else snprintf(out, n, "%s", j->tok == PCOL_JT_STR ? "a string" : j->tok == PCOL_JT_OBJ ? "an object"
                : j->tok == PCOL_JT_ARR ? "an array" : j->tok == PCOL_JT_NULL ? "null" : "a boolean");
}

static int number(pcol_jpull *j, vnum *v) {
  if (!pcol_v8_time_us(j, 9e18, &v->v, &v->frac, NULL, NULL)) v->present = 1, v->bad = 0;
  else if (j->tok != PCOL_JT_NULL) return v->bad = 1, pcol_jp_skip(j);
  return 0;
}

/* Empties the current event's part p, when it holds anything: most events
 * hold no profile, and three syscalls each would cost more than reading them. */
static int tmp_reset(pcol_v8c *c, int p) {
  if (!c->ccount[p]) return 0;
  c->ccount[p] = 0;
  rewind(c->cur[p]);
  if (ftruncate(fileno(c->cur[p]), 0)) return tmp_failed(c);
  return 0;
}

int pcol_v8c_begin(pcol_v8c *c) {
  int rc;
  for (int p = 0; p < NPARTS; p++)
    if ((rc = tmp_reset(c, p))) return rc;
  c->cstart = (vnum){0}, c->cend = (vnum){0};
  c->cmark = 0;
  c->crec = 0;
  c->cspan = (vnum){0};
  c->deltas_from = 0;
  return 0;
}

/* args.data, or args.data.cpuProfile (inner = 1) */
static int read_data(pcol_v8c *c, pcol_jpull *j, int inner) {
  int rc;
  if (j->tok != PCOL_JT_OBJ) return pcol_jp_skip(j);
  while (!(rc = pcol_jp_next(j)) && j->tok == PCOL_JT_KEY) {
    int part = -1;
    for (int p = 0; p < NPARTS; p++)
      if (pcol_jp_key_is(j, PART_KEY[p])) part = p;
    int is_start = pcol_jp_key_is(j, "startTime"), is_end = pcol_jp_key_is(j, "endTime");
    int is_mark = !inner && pcol_jp_key_is(j, V8_KEY_CLOSING_SAMPLE);
    int is_rec = !inner && pcol_jp_key_is(j, V8_KEY_RECORDING);
    int is_span = !inner && pcol_jp_key_is(j, V8_KEY_SPAN_START);
    int is_prof = !inner && pcol_jp_key_is(j, "cpuProfile");
    if ((rc = pcol_jp_next(j))) return rc;
    /* timeDeltas: args.data's, else cpuProfile's (a chunk may hold both,
     * the same deltas twice: the Firefox Profiler's rule) */
    if (part == P_DELTAS && !inner && c->deltas_from == 2 && (rc = tmp_reset(c, P_DELTAS))) return rc;
    if (part == P_DELTAS && inner && c->deltas_from == 1) rc = pcol_jp_skip(j);
    else if (part == P_LINES) rc = inner ? pcol_jp_skip(j) : copy_elements(c, j, part); /* args.data's, as V8 writes them */
    else if (part == P_DELTAS || (inner && part >= 0)) rc = copy_elements(c, j, part);
    else if (is_start) {
      token_text(j, c->cstart_text, sizeof c->cstart_text);
      rc = number(j, &c->cstart);
      c->cstart_byte = pcol_jp_offset(j);
    }
    else if (is_end) rc = number(j, &c->cend);
    else if (is_mark) c->cmark = j->tok == PCOL_JT_TRUE;
    else if (is_rec) { /* (a whole number from 1; any other value: none) */
      vnum r = {0};
      if ((rc = number(j, &r))) return rc;
      c->crec = r.present && !r.bad && !r.frac && r.v > 0 ? (uint64_t)r.v : 0;
    }
    else if (is_span) {
      token_text(j, c->cspan_text, sizeof c->cspan_text);
      rc = number(j, &c->cspan);
      c->cspan_byte = pcol_jp_offset(j);
    }
    else if (is_prof) rc = read_data(c, j, 1);
    else rc = pcol_jp_skip(j);
    if (rc) return rc;
    if (part == P_DELTAS && !(inner && c->deltas_from == 1)) c->deltas_from = inner ? 2 : 1;
  }
  return rc;
}

int pcol_v8c_read_data(pcol_v8c *c, pcol_jpull *j) { return read_data(c, j, 0); }

/* Appends f's first n bytes to o (both temporary files). */
static int append_file(pcol_v8c *c, FILE *o, FILE *f) {
  char buf[1 << 14];
  size_t k;
  if (fflush(f) || fseeko(f, 0, SEEK_SET)) return tmp_failed(c);
  while ((k = fread(buf, 1, sizeof buf, f)) > 0)
    if (fwrite(buf, 1, k, o) != k) return tmp_failed(c);
  if (ferror(f)) return tmp_failed(c);
  return 0;
}

static pcol_v8c_stream *stream_for(pcol_v8c *c, uint64_t pid, const char *id) {
  for (size_t i = 0; i < c->nst; i++)
    if (c->st[i].pid == pid && strcmp(c->st[i].id, id) == 0) return &c->st[i];
  if (c->nst >= PCOL_V8C_MAX_PROFILES) return NULL;
  if (c->nst == c->capst) {
    size_t cap = c->capst ? 2 * c->capst : 8;
    pcol_v8c_stream *n = realloc(c->st, cap * sizeof *n);
    if (!n) return NULL;
    c->st = n, c->capst = cap;
  }
  pcol_v8c_stream *s = &c->st[c->nst];
  memset(s, 0, sizeof *s);
  s->pid = pid;
  if (!(s->id = strdup(id)) || !(s->thread = calloc(1, c->thread_size ? c->thread_size : 1))) {
    free(s->id), free(s->thread);
    return NULL;
  }
  for (int p = 0; p < P_LINES; p++) /* (lines: at the first chunk that has them) */
    if (!(s->part[p] = pcol_temp_file("pcol-chrome"))) {
      for (int q = 0; q < p; q++) fclose(s->part[q]);
      free(s->id), free(s->thread);
      return NULL;
    }
  c->nst++;
  return s;
}

/* n lines of none ("0"), for chunk k of s (its place in the lines part). */
static int no_lines(pcol_v8c *c, pcol_v8c_stream *s, pcol_v8c_chunk *k, uint64_t n) {
  FILE *o = s->part[P_LINES];
  if (!n) return 0;
  if (s->count[P_LINES]) putc(',', o);
  k->at[2] = ftello(o);
  for (uint64_t i = 0; i < n; i++) fputs(i ? ",0" : "0", o);
  k->len[2] = ftello(o) - k->at[2];
  s->count[P_LINES] += n;
  return ferror(o) ? tmp_failed(c) : 0;
}

int pcol_v8c_add(pcol_v8c *c, uint64_t pid, const char *id, int chunk, const void *thread, int has_ts, double ts,
                 const char *where) {
  int rc;
  errno = 0;
  pcol_v8c_stream *s = stream_for(c, pid, id);
  if (!s && c->nst >= PCOL_V8C_MAX_PROFILES)
    return pcol_error_set(c->err, PCOL_ECORRUPT, "%s: %s: more than %d profiles", c->name, where,
                          PCOL_V8C_MAX_PROFILES);
  char why[256];
  if (!s && errno && errno != ENOMEM) /* pcol_temp_file: e.g. EMFILE, 3 open files a profile (4 with lines) */
    return pcol_error_set(c->err, PCOL_EIO, "%s: %s: a temporary file for profile %zu: %s", c->name, where,
                          c->nst + 1, tmp_why(why, sizeof why));
  if (!s) return pcol_oom(c->err);
  /* the profiled thread: the Profile event's (chunks may come from the
   * sampler's thread) */
  if (!chunk || !s->has_tid) memcpy(s->thread, thread, c->thread_size), s->has_tid = 1;
  pcol_v8c_chunk k = {ts, {0, 0, 0}, {0, 0, 0}, c->ccount[P_SAMPLES]};
  /* lines: one a sample, as DevTools' SamplesHandler pads a chunk without
   * them with 0s (V8 writes none when all are 0); a chunk whose lines are
   * not as many as its samples has none either */
  int lines = c->ccount[P_LINES] && c->ccount[P_LINES] == k.nsamp;
  if (lines && !s->part[P_LINES]) {
    if (!(s->part[P_LINES] = pcol_temp_file("pcol-chrome"))) return tmp_failed(c);
    for (size_t i = 0; i < s->nch; i++)
      if ((rc = no_lines(c, s, &s->ch[i], s->ch[i].nsamp))) return rc;
  }
  if (s->part[P_LINES] && !lines && (rc = no_lines(c, s, &k, k.nsamp))) return rc;
  for (int p = 0; p < NPARTS; p++) {
    if (p == P_LINES && !lines) continue;
    if (!c->ccount[p]) continue;
    if (s->count[p]) putc(',', s->part[p]);
    off_t at = p ? ftello(s->part[p]) : 0;
    if ((rc = append_file(c, s->part[p], c->cur[p]))) return rc;
    if (p) k.at[p - 1] = at, k.len[p - 1] = ftello(s->part[p]) - at;
    s->count[p] += c->ccount[p];
  }
  if (!has_ts) s->no_ts = 1;
  else if (s->nch && ts < s->ch[s->nch - 1].ts) s->unordered = 1;
  if (PCOL_GROW(s->ch, s->nch, s->capch)) return pcol_oom(c->err);
  s->ch[s->nch++] = k;
  if (c->cstart.present || c->cstart.bad) {
    s->start = c->cstart;
    snprintf(s->start_at, sizeof s->start_at, "%s, its args.data.startTime (ending at byte %" PRIu64 ")", where,
             c->cstart_byte);
    memcpy(s->start_text, c->cstart_text, sizeof s->start_text);
  }
  if (c->cend.present) s->end = c->cend;
  if (c->cmark) s->closing_mark = 1;
  if (c->crec) s->rec = c->crec;
  if (c->cspan.present || c->cspan.bad) {
    s->span_start = c->cspan;
    snprintf(s->span_at, sizeof s->span_at, "%s, its args.data." V8_KEY_SPAN_START " (ending at byte %" PRIu64 ")", where,
             c->cspan_byte);
    memcpy(s->span_text, c->cspan_text, sizeof s->span_text);
  }
  return 0;
}

int pcol_v8c_has_profile(const pcol_v8c_stream *s) { return s->count[P_SAMPLES] || s->count[P_NODES]; }

const vnum *pcol_v8c_origin(const pcol_v8c *c) { return pcol_v8c_origin_of(c, UINT64_MAX); }
const vnum *pcol_v8c_origin_of(const pcol_v8c *c, uint64_t rec) {
  const vnum *origin = NULL;
  for (size_t i = 0; i < c->nst; i++) {
    const vnum *st = &c->st[i].start;
    if (pcol_v8c_has_profile(&c->st[i]) && st->present && !st->bad && (rec == UINT64_MAX || c->st[i].rec == rec) &&
        (!origin || st->v < origin->v || (st->v == origin->v && st->frac < origin->frac)))
      origin = st;
  }
  return origin;
}

/* Chunks by ts (ties in the order read), as DevTools and speedscope order
 * a trace's events: a chunk's first delta counts from the sample before it
 * in that order. */
static int chunk_cmp(const void *a, const void *b) {
  const pcol_v8c_chunk *x = *(const pcol_v8c_chunk *const *)a, *y = *(const pcol_v8c_chunk *const *)b;
  if (x->ts != y->ts) return x->ts < y->ts ? -1 : 1;
  return x < y ? -1 : x > y;
}

/* Part p (samples or deltas) of s into o, its chunks in ts order. */
static int append_sorted(pcol_v8c *c, FILE *o, pcol_v8c_stream *s, int p) {
  const pcol_v8c_chunk **ord = malloc((s->nch ? s->nch : 1) * sizeof *ord);
  if (!ord) return pcol_oom(c->err);
  for (size_t i = 0; i < s->nch; i++) ord[i] = &s->ch[i];
  qsort(ord, s->nch, sizeof *ord, chunk_cmp);
  FILE *f = s->part[p];
  char buf[1 << 14];
  int first = 1, bad = fflush(f) != 0;
  for (size_t i = 0; i < s->nch && !bad; i++) {
    off_t left = ord[i]->len[p - 1];
    if (!left) continue;
    if (!first && putc(',', o) == EOF) bad = 1;
    first = 0;
    if (fseeko(f, ord[i]->at[p - 1], SEEK_SET)) bad = 1;
    while (!bad && left > 0) {
      size_t want = left < (off_t)sizeof buf ? (size_t)left : sizeof buf, k = fread(buf, 1, want, f);
      if (k != want || fwrite(buf, 1, k, o) != k) bad = 1;
      left -= (off_t)k;
    }
  }
  free(ord);
  return bad ? tmp_failed(c) : 0;
}

int pcol_v8c_check(pcol_v8c *c, const pcol_v8c_stream *s, const char *pid) {
  if (s->start.bad) /* (1e300: no time; it was said to be missing) */
    return pcol_error_set(c->err, PCOL_ECORRUPT, "%s: %s: profile %s of pid %s: startTime is %s, not a time "
                          "(microseconds: a number within +-9e18)", c->name, s->start_at, s->id, pid, s->start_text);
  if (!s->start.present)
    return pcol_error_set(c->err, PCOL_ECORRUPT, "%s: profile %s of pid %s: no Profile event with its "
                          "startTime", c->name, s->id, pid);
  return 0;
}

int pcol_v8c_import(pcol_v8c *c, pcol_v8c_stream *s, const char *uri, size_t ulen, uint32_t labelset, const char *pid,
                    const char *tid, const vnum *origin, uint32_t *src) {
  int rc;
  char *ename = NULL;
  FILE *doc = NULL;
  if ((rc = pcol_v8c_check(c, s, pid))) return rc;
  if (!(ename = pcol_v8c_name(c, s, pid, tid))) return pcol_oom(c->err);
  if (!(doc = pcol_temp_file("pcol-chrome"))) {
    rc = tmp_failed(c);
    goto out;
  }
  fputc('{', doc);
  char us[40];
  if (s->start.present) pcol_v8_time_text(us, s->start.v, s->start.frac), fprintf(doc, "\"startTime\":%s,", us);
  if (s->end.present) pcol_v8_time_text(us, s->end.v, s->end.frac), fprintf(doc, "\"endTime\":%s,", us);
  if (s->closing_mark) fputs("\"" V8_KEY_CLOSING_SAMPLE "\":true,", doc); /* (its last chunk's) */
  for (int p = 0; p < NPARTS; p++) {
    if (!s->part[p]) continue; /* (lines: none in any chunk) */
    fprintf(doc, "%s\"%s\":[", p ? "," : "", PART_KEY[p]);
    if ((rc = p && s->unordered && !s->no_ts ? append_sorted(c, doc, s, p) : append_file(c, doc, s->part[p])))
      goto out;
    fputc(']', doc);
  }
  fputc('}', doc);
  if (fflush(doc) || fseeko(doc, 0, SEEK_SET)) {
    rc = tmp_failed(c);
    goto out;
  }
  uint64_t lost[3] = {0, 0, 0};
  if ((rc = pcol_v8_import_profile(c->b, doc, ename, PCOL_SRC_CHROME, uri, ulen, labelset,
                                   PCOL_V8_ORPHANS_AT_ROOT | PCOL_V8_SAMPLE_LINES | PCOL_V8_END_AT_LAST_SAMPLE | c->flags,
                                   origin,
                                   c->opt, src, lost, c->err)))
    goto out;
  char num[32];
  rc = pcol_b_meta_str(c->b, *src, "chrome.profile_id", s->id, c->err);
  if (!rc) rc = pcol_source_file_mark(c->b, *src, c->name, strlen(c->name), uri, ulen, c->err);
  static const char *const LOST_KEY[3] = {"chrome.lost_parents", "chrome.lost_samples", "chrome.lost_children"};
  for (int l = 0; l < 3; l++) { /* what lost nodes left (pcol info's meta) */
    c->lost[l] += lost[l];
    snprintf(num, sizeof num, "%" PRIu64, lost[l]);
    if (!rc && lost[l]) rc = pcol_b_meta_str(c->b, *src, LOST_KEY[l], num, c->err);
  }
  rc = pcol_error_in(c->err, rc, ename, 0);
out:
  if (doc) fclose(doc);
  free(ename);
  return rc;
}

char *pcol_v8c_name(const pcol_v8c *c, const pcol_v8c_stream *s, const char *pid, const char *tid) {
  char *p, *n; /* "FILE: profile ID (pid P, tid T)": THE rule of srcname.h */
  if (asprintf(&p, "profile %s", s->id) < 0) return NULL;
  n = pcol_source_name(c->name, p, strlen(p), pcol_source_part(pid), pcol_source_part(tid), pcol_source_part(NULL),
                       NULL);
  free(p);
  return n;
}

void pcol_v8c_lost_warning(const pcol_v8c *c, pcol_error *err) {
  static const char *const WHAT[3] = {
      " profile node%s whose parent is in no chunk, read as called from the root (as speedscope reads them)",
      " sample%s of a node in no chunk, kept with no stack (speedscope skips them)",
      " child id%s of no node, left out (as speedscope does)"};
  char m[512], part[160];
  size_t n = 0;
  for (int l = 0; l < 3; l++) {
    if (!c->lost[l]) continue;
    int k = snprintf(part, sizeof part, WHAT[l], c->lost[l] == 1 ? "" : "s");
    if (k < 0) continue;
    n += (size_t)snprintf(m + n, sizeof m - n, "%s%" PRIu64 "%s", n ? "; " : "", c->lost[l], part);
    if (n >= sizeof m) n = sizeof m - 1;
  }
  if (n) pcol_warn_add(err, "%s: nodes lost from the trace: %s", c->name, m); /* (after the profiles') */
}
