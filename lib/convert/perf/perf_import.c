/* perf_import.c — `perf script` text into a builder, one line at a time
 * (memory grows with the distinct frames and stacks, never with the file).
 *
 * An event is a header line followed by its callchain, leaf first, one frame
 * a line, up to a blank line:
 *
 *   comm pid/tid [cpu] secs.usecs: period event:  [ip sym+off (dso)]
 *   \t  ip sym+off (dso)
 *
 * The header's fields depend on -F; every one is optional but the event
 * name: comm (may hold spaces; right-aligned without a callchain), pid/tid
 * or tid, [cpu], time, period.  A frame becomes a location: mapping = the
 * dso, address = ip, one line per function; `sym (inlined)` frames (perf
 * --inline) and Java's `a->b->c` JIT names join the inline chain of the
 * next real frame.  `+0x..` offsets are cut; a `[unknown]` symbol is named
 * `[dso basename]` (stackcollapse-perf's and inferno's rule).  Thread labels
 * comm, pid, tid, cpu; the time in ns; the event (modifiers such as `:ppp`
 * cut) is the value type, valued by the period (1 when absent); weight 1.
 * doc/mappings.md §9. */
#include "perf.h"
#include <errno.h>

#define PERF_MAX_EVENTS 64

typedef struct pimp {
  pcol_builder *b;
  const char *name;
  pcol_error *err;
  uint32_t src;
  uint32_t ev_sid[PERF_MAX_EVENTS], ev_vt[PERF_MAX_EVENTS];
  size_t nev;
  uint32_t k_comm, k_pid, k_tid, k_cpu, u_ns, u_count, k_default;
  /* the event being read */
  int in_event, one_line; /* one_line: the header carried the event's frame */
  uint64_t ev_lineno;
  int64_t last_time; /* the time of the last sample with one (PCOL_NA_I64: none yet) */
  pcol_sample_row s;
  pcol_value_row v;
  uint32_t *locs;          /* leaf first */
  size_t nlocs, caplocs;
  pcol_line_row *inl;      /* pending inlined lines, innermost first */
  size_t ninl, capinl;
} pimp;

static int bad(pimp *p, uint64_t lineno, const char *what) {
  return pcol_error_set(p->err, PCOL_ECORRUPT, "%s:%llu: %s", p->name, (unsigned long long)lineno,
                        what);
}

static int is_hex(const char *s, size_t n) {
  if (!n) return 0;
  for (size_t i = 0; i < n; i++)
    if (!isxdigit((unsigned char)s[i])) return 0;
  return 1;
}
static int is_digits(const char *s, size_t n) {
  if (!n) return 0;
  for (size_t i = 0; i < n; i++)
    if (!isdigit((unsigned char)s[i])) return 0;
  return 1;
}
static uint64_t parse_hex(const char *s, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n && i < 16; i++) {
    int c = s[i];
    v = v * 16 + (uint64_t)(isdigit(c) ? c - '0' : (tolower(c) - 'a' + 10));
  }
  return n > 16 ? UINT64_MAX : v;
}
/* digits within int64, else -1 */
static int64_t parse_dec(const char *s, size_t n) {
  int64_t v = 0;
  for (size_t i = 0; i < n; i++) {
    if (v > (INT64_MAX - 9) / 10) return -1;
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

/* A frame's text `ip [sym[+0xoff]] (dso)`: sym and dso (dso without its
 * parentheses); 0 if s is not one.  The sym may hold spaces and parentheses
 * (C++), so the dso is the last parenthesised group. */
static int frame_parts(const char *s, size_t n, uint64_t *ip, const char **sym, size_t *nsym,
                       const char **dso, size_t *ndso) {
  size_t i = 0;
  while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
  size_t a = i;
  while (i < n && s[i] != ' ' && s[i] != '\t') i++;
  if (!is_hex(s + a, i - a)) return 0;
  *ip = parse_hex(s + a, i - a);
  while (n > i && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
  if (n <= i) { /* an address alone: perf -F ip without sym/dso */
    *sym = NULL, *nsym = 0, *dso = NULL, *ndso = 0;
    return 1;
  }
  if (s[n - 1] != ')') return 0;
  /* the matching '(' of the last group */
  size_t k = n - 1;
  int depth = 0;
  for (;;) {
    if (s[k] == ')') depth++;
    else if (s[k] == '(' && --depth == 0) break;
    if (k == i) return 0;
    k--;
  }
  *dso = s + k + 1, *ndso = n - 1 - (k + 1);
  size_t e = k;
  while (e > i && (s[e - 1] == ' ' || s[e - 1] == '\t')) e--;
  while (i < e && (s[i] == ' ' || s[i] == '\t')) i++;
  *sym = s + i, *nsym = e - i;
  return 1;
}

static int add_line(pimp *p, const char *fn, size_t nfn, pcol_line_row *out) {
  pcol_function_row f = {0, 0, 0, PCOL_NA_I64};
  out->line = PCOL_NA_I64, out->column = PCOL_NA_I64;
  if (pcol_b_string(p->b, fn, nfn, &f.name) || pcol_b_function(p->b, &f, &out->function_id))
    return pcol_oom(p->err);
  return PCOL_OK;
}

/* One callchain frame. */
static int on_frame(pimp *p, uint64_t ip, const char *sym, size_t nsym, const char *dso,
                    size_t ndso) {
  /* cut a symbol offset: +0x<hex> at the end */
  for (size_t k = nsym; k >= 3 && sym; k--) {
    if (sym[k - 1] == 'x' && sym[k - 2] == '0' && k >= 3 && sym[k - 3] == '+' &&
        is_hex(sym + k, nsym - k)) {
      nsym = k - 3;
      break;
    }
    if (!isxdigit((unsigned char)sym[k - 1])) break;
  }
  int inlined = dso && ndso == 7 && memcmp(dso, "inlined", 7) == 0;
  char buf[512];
  if (!sym || (nsym == 9 && memcmp(sym, "[unknown]", 9) == 0)) {
    /* `[dso basename]`, or [unknown] */
    if (dso && ndso && !(ndso == 9 && memcmp(dso, "[unknown]", 9) == 0) && !inlined) {
      size_t b = ndso;
      while (b > 0 && dso[b - 1] != '/') b--;
      size_t l = ndso - b < sizeof buf - 2 ? ndso - b : sizeof buf - 2;
      buf[0] = '[';
      memcpy(buf + 1, dso + b, l);
      buf[l + 1] = ']';
      sym = buf, nsym = l + 2;
    } else {
      sym = "[unknown]", nsym = 9;
    }
  }
  int rc;
  if (inlined) {
    if (PCOL_GROW(p->inl, p->ninl, p->capinl)) return pcol_oom(p->err);
    if ((rc = add_line(p, sym, nsym, &p->inl[p->ninl]))) return rc;
    p->ninl++;
    return PCOL_OK;
  }
  /* Java JIT names `outer->...->inner` in a perf map (perf-map-agent's
   * unfolded inlines): innermost last in the text, first in the chain */
  int jit = dso && ndso > 5 && memcmp(dso + ndso - 4, ".map", 4) == 0;
  size_t end = nsym;
  for (size_t k = end; jit && k >= 2; k--) {
    if (sym[k - 2] != '-' || sym[k - 1] != '>') continue;
    if (PCOL_GROW(p->inl, p->ninl, p->capinl)) return pcol_oom(p->err);
    if ((rc = add_line(p, sym + k, end - k, &p->inl[p->ninl]))) return rc;
    p->ninl++;
    end = k - 2;
    k--;
  }
  if (PCOL_GROW(p->inl, p->ninl, p->capinl)) return pcol_oom(p->err);
  if ((rc = add_line(p, sym, end, &p->inl[p->ninl]))) return rc;
  p->ninl++;
  uint32_t map = 0;
  if (dso && ndso) {
    pcol_mapping_row m = {0, 0, 0, 0, 0, PCOL_MAP_HAS_FUNCTIONS};
    if (p->ninl > 1) m.flags |= PCOL_MAP_HAS_INLINE_FRAMES;
    if (pcol_b_string(p->b, dso, ndso, &m.filename) || pcol_b_mapping(p->b, &m, 1, &map))
      return pcol_oom(p->err);
  }
  uint32_t loc;
  if (pcol_b_location(p->b, map, ip, 0, p->inl, p->ninl, &loc) ||
      PCOL_GROW(p->locs, p->nlocs, p->caplocs))
    return pcol_oom(p->err);
  p->locs[p->nlocs++] = loc;
  p->ninl = 0;
  return PCOL_OK;
}

/* "FILE:LINE" as `perf script -F +srcline` prints it under a frame
 * ("??:0" when perf knows none): a colon followed by digits to the end. */
static int srcline(const char *t, size_t n) {
  size_t d = n;
  while (d > 0 && isdigit((unsigned char)t[d - 1])) d--;
  return d < n && d >= 2 && t[d - 1] == ':';
}

static int end_event(pimp *p) {
  if (!p->in_event) return PCOL_OK;
  p->in_event = 0;
  if (p->ninl) /* inlined frames with no frame after them: a location of their own */
    return bad(p, p->ev_lineno, "callchain ends in an inlined frame");
  /* perf script prints events in time order; a sample before the last one
   * (two outputs joined, or --no-ordered) is refused as such, not as the
   * builder's refusal of an unordered source */
  if (p->s.time_ns != PCOL_NA_I64 && p->last_time != PCOL_NA_I64 && p->s.time_ns < p->last_time)
    return bad(p, p->ev_lineno,
               "time goes backwards (perf script prints events in time order: "
               "were two outputs joined?)");
  if (pcol_b_stack(p->b, p->locs, p->nlocs, &p->s.stack_id) ||
      pcol_b_sample(p->b, &p->s, &p->v, 1, NULL))
    return pcol_oom(p->err);
  if (p->s.time_ns != PCOL_NA_I64) p->last_time = p->s.time_ns;
  p->nlocs = 0;
  return PCOL_OK;
}

/* The value type of an event name (modifiers such as `:ppp` cut). */
static int event_vt(pimp *p, const char *e, size_t n, uint64_t lineno, uint32_t *vt) {
  const char *c = memchr(e, ':', n);
  if (c) {
    size_t k = (size_t)(c - e) + 1;
    int mods = k < n;
    for (size_t i = k; i < n; i++)
      if (!strchr("ukhIGHpPSDeWb", e[i])) mods = 0;
    if (mods || k == n) n = k - 1;
  }
  uint32_t sid;
  if (pcol_b_string(p->b, e, n, &sid)) return pcol_oom(p->err);
  for (size_t i = 0; i < p->nev; i++)
    if (p->ev_sid[i] == sid) return *vt = p->ev_vt[i], PCOL_OK;
  if (p->nev == PERF_MAX_EVENTS) return bad(p, lineno, "more than 64 event names");
  /* cpu-clock and task-clock count nanoseconds; other events count events */
  int ns = (n == 9 && (!memcmp(e, "cpu-clock", 9) || !memcmp(e, "task-clock", 9)));
  if (pcol_b_value_type(p->b, sid, ns ? p->u_ns : p->u_count, vt) ||
      pcol_b_source_value_type(p->b, p->src, *vt))
    return pcol_oom(p->err);
  /* the views show the first event by default, as inferno and speedscope
   * do (mixing cycles and instructions would mislead) */
  if (!p->nev && pcol_b_meta_sid(p->b, p->src, p->k_default, sid)) return pcol_oom(p->err);
  p->ev_sid[p->nev] = sid, p->ev_vt[p->nev++] = *vt;
  return PCOL_OK;
}

/* A header line. */
static int on_header(pimp *p, const char *s, size_t n, uint64_t lineno) {
  pcol_label_row lab[4];
  size_t nl = 0;
  memset(lab, 0, sizeof lab);
  /* comm: everything before the first all-digit word (pid or pid/tid) */
  size_t i = 0, comm_end = 0, ws = 0;
  int found = 0;
  const char *pid = NULL, *tid = NULL;
  size_t npid = 0, ntid = 0;
  while (i < n) {
    while (i < n && s[i] == ' ') i++;
    ws = i;
    while (i < n && s[i] != ' ') i++;
    const char *w = s + ws;
    size_t wn = i - ws;
    const char *slash = memchr(w, '/', wn);
    if (slash && is_digits(w, (size_t)(slash - w)) && is_digits(slash + 1, wn - (size_t)(slash - w) - 1)) {
      pid = w, npid = (size_t)(slash - w), tid = slash + 1, ntid = wn - npid - 1;
      found = 1;
    } else if (is_digits(w, wn) && (i >= n || s[i] == ' ') &&
               /* not a time "12.3:" nor a period after the time */ 1) {
      tid = w, ntid = wn;
      found = 1;
    }
    if (found) break;
    comm_end = i;
  }
  if (!found) i = 0, comm_end = 0; /* no comm/tid fields */
  size_t cs = 0;
  while (cs < comm_end && s[cs] == ' ') cs++;
  if (comm_end > cs) {
    lab[nl].key = p->k_comm;
    if (pcol_b_string(p->b, s + cs, comm_end - cs, &lab[nl].str)) return pcol_oom(p->err);
    nl++;
  }
  if (pid) {
    int64_t v = parse_dec(pid, npid);
    if (v < 0) return bad(p, lineno, "pid out of range");
    lab[nl].key = p->k_pid, lab[nl++].num = v;
  }
  if (tid) {
    int64_t v = parse_dec(tid, ntid);
    if (v < 0) return bad(p, lineno, "tid out of range");
    lab[nl].key = p->k_tid, lab[nl++].num = v;
  }
  /* the rest: [cpu] time: period event: [frame] */
  p->s.time_ns = PCOL_NA_I64;
  int64_t period = -1;
  int have_cpu = 0;
  const char *ev = NULL;
  size_t nev = 0;
  while (i < n && !ev) {
    while (i < n && s[i] == ' ') i++;
    size_t a = i;
    while (i < n && s[i] != ' ') i++;
    const char *w = s + a;
    size_t wn = i - a;
    if (!wn) break;
    if (wn >= 3 && w[0] == '[' && w[wn - 1] == ']' && is_digits(w + 1, wn - 2)) {
      /* one [cpu] a header (the label array holds comm, pid, tid, cpu) */
      if (have_cpu++ || (lab[nl].num = parse_dec(w + 1, wn - 2)) < 0) return bad(p, lineno, "bad [cpu] field");
      lab[nl++].key = p->k_cpu;
    } else if (w[wn - 1] == ':' && memchr(w, '.', wn) && isdigit((unsigned char)w[0])) {
      const char *dot = memchr(w, '.', wn);
      size_t ni = (size_t)(dot - w), nf = wn - 1 - ni - 1;
      if (!is_digits(w, ni) || !is_digits(dot + 1, nf) || nf > 9 || ni > 9)
        return bad(p, lineno, "time is not seconds.fraction");
      int64_t ns = parse_dec(w, ni) * 1000000000LL, f = parse_dec(dot + 1, nf);
      for (size_t k = nf; k < 9; k++) f *= 10;
      p->s.time_ns = ns + f;
    } else if (is_digits(w, wn) && period < 0) {
      period = parse_dec(w, wn);
      if (period < 0) return bad(p, lineno, "period out of range");
    } else if (w[wn - 1] == ':') {
      ev = w, nev = wn - 1;
    } else {
      /* -F without event: a frame right after the time */
      i = a;
      break;
    }
  }
  if (!ev) ev = "samples", nev = 7; /* perf script -F without `event` */
  int rc = event_vt(p, ev, nev, lineno, &p->v.value_type_id);
  if (rc) return rc;
  p->v.value = period < 0 ? 1 : period;
  p->s.weight = 1;
  p->s.duration_ns = 0;
  p->s.cpu_delta_ns = PCOL_NA_I64;
  p->s.source_id = p->src;
  if (pcol_b_labelset(p->b, lab, nl, &p->s.labelset_id)) return pcol_oom(p->err);
  p->in_event = 1;
  p->ev_lineno = lineno;
  p->nlocs = p->ninl = 0;
  p->one_line = 0;
  /* a one-frame stack on the header line itself (no callchain) */
  while (i < n && s[i] == ' ') i++;
  if (i < n) {
    uint64_t ip;
    const char *sym, *dso;
    size_t nsym, ndso;
    if (frame_parts(s + i, n - i, &ip, &sym, &nsym, &dso, &ndso)) {
      if ((rc = on_frame(p, ip, sym, nsym, dso, ndso))) return rc;
      p->one_line = 1;
    }
    /* anything else after the event name (tracepoint fields) is not a frame */
  }
  return PCOL_OK;
}

int pcol_import_perf(pcol_builder *b, FILE *in, const char *name, const pcol_import_options *opt,
                     pcol_error *err) {
  pimp p = {0};
  p.b = b, p.name = name, p.err = err, p.last_time = PCOL_NA_I64;
  if (pcol_b_source(b, PCOL_SRC_PERF, name, PCOL_NA_I64, &p.src) ||
      pcol_b_cstr(b, "comm", &p.k_comm) || pcol_b_cstr(b, "pid", &p.k_pid) ||
      pcol_b_cstr(b, "tid", &p.k_tid) || pcol_b_cstr(b, "cpu", &p.k_cpu) ||
      pcol_b_cstr(b, PCOL_UNIT_NANOSECONDS, &p.u_ns) || pcol_b_cstr(b, PCOL_UNIT_COUNT, &p.u_count) ||
      pcol_b_cstr(b, PPROF_META_DEFAULT_SAMPLE_TYPE, &p.k_default))
    return pcol_oom(err);
  uint64_t cap = pcol_input_cap(opt);
  pcol_capped capped;
  FILE *cin = pcol_capped_stream(&capped, in, cap);
  if (!cin) return pcol_oom(err);
  char *line = NULL;
  size_t lcap = 0;
  ssize_t got;
  uint64_t lineno = 0;
  int rc = PCOL_OK;
  errno = 0;
  while ((got = getline(&line, &lcap, cin)) >= 0) {
    lineno++;
    if (capped.over) break;
    size_t n = (size_t)got;
    if (n && line[n - 1] == '\n') n--;
    if (n && line[n - 1] == '\r') n--;
    if (memchr(line, 0, n)) {
      rc = bad(&p, lineno, "NUL byte in a line");
      break;
    }
    size_t k = 0;
    while (k < n && (line[k] == ' ' || line[k] == '\t')) k++;
    if (k == n) { /* blank: the event ends */
      if ((rc = end_event(&p))) break;
      continue;
    }
    if (line[k] == '#') continue; /* perf script --header comments */
    uint64_t ip;
    const char *sym, *dso;
    size_t nsym, ndso;
    if (k > 0 && p.in_event && !p.one_line && frame_parts(line, n, &ip, &sym, &nsym, &dso, &ndso)) {
      /* an indented frame of the current callchain (a header starts with
       * spaces only when perf right-aligns the comm, without callchains:
       * then the header carries its one frame and no frame lines follow) */
      if ((rc = on_frame(&p, ip, sym, nsym, dso, ndso))) break;
      continue;
    }
    if (k > 0 && p.in_event && !p.one_line && p.nlocs + p.ninl > 0) {
      /* inside a callchain an indented line is never a header (perf ends a
       * callchain with a blank line): `-F +srcline` prints "  FILE:LINE"
       * under a frame (not kept: a frame's function names it), anything
       * else is an error, never the start of a bogus event */
      if (srcline(line + k, n - k)) continue;
      rc = bad(&p, lineno, "expected a callchain frame 'address symbol (dso)' or a source line "
                           "'FILE:LINE' (-F +srcline)");
      break;
    }
    if (k > 0 && line[0] == '\t') {
      rc = bad(&p, lineno, p.in_event ? "expected a callchain frame 'address symbol (dso)'"
                                      : "callchain frame outside an event (after a blank line)");
      break;
    }
    if ((rc = end_event(&p))) break;
    if ((rc = on_header(&p, line, n, lineno))) break;
  }
  if (!rc && capped.over)
    rc = pcol_error_set(err, PCOL_ETOOBIG, "%s: input is larger than the limit of %llu bytes", name,
                        (unsigned long long)cap);
  if (!rc && ferror(cin)) rc = pcol_error_set(err, PCOL_EIO, "%s: read error", name);
  if (!rc) rc = end_event(&p);
  free(line);
  free(p.locs);
  free(p.inl);
  fclose(cin);
  return rc;
}
