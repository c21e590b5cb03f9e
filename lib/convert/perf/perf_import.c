/* perf_import.c — `perf script` text into a builder, one line at a time
 * (memory grows with the distinct frames and stacks, never with the file).
 *
 * An event is a header line followed by its callchain, leaf first, one frame
 * a line, up to a blank line:
 *
 *   comm pid/tid [cpu] secs.usecs: period event: [addr] [data_src]  [ip sym+off (dso)]
 *   \t  ip sym+off (dso)
 *
 * The header's fields depend on -F; every one is optional: comm, pid/tid
 * or tid, [cpu], time, period, event, then what perf prints before the ip
 * (addr, data_src, tracepoint fields; not kept), in the order of perf's
 * builtin-script.c.  It is read from its fixed fields inward
 * (parse_header), so the comm may hold blanks and digits; perf's widths
 * tell its numbers apart and find the ip (field_width); a header's frame
 * is kept until the next line says no callchain follows (pimp.pend); what
 * perf prints after a frame (-F +iregs, +phys_addr, ...) is cut (cut_tail);
 * a last line without its line end, or a callchain not ended (a cut file),
 * is refused; perf's callchain lines begin with a tab (like_header tells
 * a hex right-aligned comm from a frame); blanks are spaces or tabs
 * (simpleperf); old perf's callchain lines are not indented; with no
 * header field at all (-F ip,sym) perf prints an empty line for the
 * header.  A frame becomes a location: mapping = the dso (if printed),
 * address = ip, one line per function; `sym (inlined)` frames (perf
 * --inline, on by default) join the inline chain of the next frame at the
 * same ip (else are a location of their own), Java's `a->b->c` JIT names
 * the chain of their frame.  `+0x..` offsets are cut; a `[unknown]` or missing symbol
 * is named by its address as perf report names it, `0x000000000000115b`.
 * Thread labels comm, pid, tid, cpu; the time in ns since the first event
 * (perf's clock: meta perf.clock_start_ns); the event (modifiers such as
 * `:ppp` cut) is the value type, valued by the period, or counted (1, unit
 * count) when printed without one; without an event name (`-F` without
 * event) the samples are counted (`samples`) and a period is the type
 * `period`; weight 1.  Side-band records (--show-task-events:
 * "PERF_RECORD_COMM", ...), source lines under a frame (-F +srcline; an
 * inlined frame's "FILE:LINE (inlined)" makes its frame inlined), -F
 * +srccode's "|LINE text" and -F +insnlen, +insn's " ilen: N insn: .."
 * are skipped.  doc/mappings.md §9. */
#include "perf.h"
#include "convert.h"  /* pcol_perf_header_fields, PCOL_PERF_H_* */
#include "keys.h"     /* PCOL_SRC_PERF, PCOL_UNIT_COUNT, PCOL_UNIT_NANOSECONDS, ... */
#include "error.h"    /* PCOL_RETURN_NOT_OK, pcol_error_in, pcol_oom */
#include "buf.h"      /* PCOL_GROW */
#include "instream.h" /* pcol_input_cap */
#include "stream.h"   /* pcol_capped, pcol_capped_stream */
#include "builder.h"  /* pcol_b_stack_memo, pcol_stack_memo, pcol_stack_memo_free */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* event names: a recording of every syscall tracepoint (-e 'syscalls:*')
 * has some 700 */
#define PERF_MAX_EVENTS 2048
#define PERF_EV_SLOTS 4096 /* a power of two, twice PERF_MAX_EVENTS */

typedef struct pimp {
  pcol_builder *b;
  const char *name;
  pcol_error *err;
  uint32_t src;
  uint32_t ev_sid[PERF_MAX_EVENTS], ev_vt[PERF_MAX_EVENTS];
  uint8_t ev_period[PERF_MAX_EVENTS]; /* the event is printed with a period */
  uint8_t ev_time[PERF_MAX_EVENTS];   /* a time event (THE default rule: default_event) */
  uint64_t ev_samples[PERF_MAX_EVENTS];
  uint16_t ev_rank[PERF_MAX_EVENTS];   /* 1 + its place among the "# event :" lines (hdr_evs), 0: none */
  uint16_t ev_slot[PERF_EV_SLOTS];     /* 1 + the index of an event by its string id (open addressing) */
  size_t nev;
  char *hdr_evs;             /* perf script --header's event names, recorded order, each ended by a NUL */
  size_t nhdr_evs, hdr_evs_len;
  uint32_t k_comm, k_pid, k_tid, k_cpu, u_ns, u_count, k_default;
  /* the event being read */
  int in_event, one_line; /* one_line: the header carried the event's frame */
  uint64_t ev_lineno;
  uint64_t lineno;   /* the line being read */
  int64_t last_time; /* the time of the last sample with one (PCOL_NA_I64: none yet) */
  int64_t t0;        /* the first event's time (time_ns 0) */
  int flat;          /* old perf: callchain lines not indented */
  pcol_sample_row s;
  pcol_value_row v[2];     /* the event's value; without an event: samples, period */
  size_t nv;
  uint32_t *locs;          /* leaf first */
  size_t nlocs, caplocs;
  pcol_stack_memo memo; /* the last stack's nodes: pcol_b_stack_memo */
  pcol_line_row *inl;      /* pending inlined lines, innermost first */
  size_t ninl, capinl;
  uint64_t inl_ip;         /* their address */
  uint64_t nheaders, nbare; /* events begun by a header line / by a frame (no header fields) */
  int hdr_ev;              /* the headers name their event: 1, or not: 2 (0: none read yet) */
  int hdr_time;            /* the last header has a time */
  int tab_chain;           /* the event's callchain frames begin with a tab (perf's) */
  int tail;                /* the fields perf prints after a callchain ended the event (cut_tail) */
  uint64_t nblank_ended;   /* events whose callchain a blank line ended */
  int one_line_seen;       /* a header carried its frame, a header followed */
  int rounds;              /* a PERF_RECORD_FINISHED_ROUND line was read (--show-round-events) */
  int64_t read_time;       /* the time of the last event read with one (PCOL_NA_I64: none yet) */
  int64_t first_read;      /* the first event's time as read (--deltatime's is 0) */
  struct held *held;       /* events waiting for their place in time (a ring, time order) */
  size_t hhead, nheld;
  /* the frame last read, kept until the next line says what it is: a
   * header's frame unless a callchain follows (then the header's last
   * hex word was its addr, `-F +addr`), a callchain's frame inlined when
   * `-F +srcline` prints "FILE:LINE (inlined)" under it */
  int pend;                /* 0 none; 1 a callchain's; 2 a header's unless a callchain follows; 3 a header's */
  int pend_inlined, pend_hassym, pend_hasdso;
  uint64_t pend_ip, pend_lineno;
  char *pbuf;              /* its sym, then its dso, then its source file */
  size_t pcap, pend_nsym, pend_ndso, pend_nfile;
  int64_t pend_line;       /* its source line (-F +srcline "FILE:LINE"), PCOL_NA_I64: none */
} pimp;

/* perf script orders events by time through perf's ordered_events, but a
 * system-wide recording (-a) can still print an event a few microseconds
 * before one of another CPU printed above it (seen: 1 in 76,139 events of a
 * tracepoint recording, 13 us back).  The last PERF_REORDER events wait in
 * time order before they are added, so such a step (at most PERF_REORDER_NS)
 * is put back in place; a longer one, or an event older than one already
 * added (two outputs joined, --deltatime, --show-round-events' flush
 * order) is refused. */
#define PERF_REORDER 4096
#define PERF_WALL_MIN_NS 946684800000000000LL /* 2000-01-01T00:00:00Z */
#define PERF_REORDER_NS 1000000 /* and at most 1 ms before the latest event read */
typedef struct held {
  pcol_sample_row s;
  pcol_value_row v[2];
  size_t nv;
  uint64_t lineno;
} held;

static int bad(pimp *p, uint64_t lineno, const char *what) {
  return pcol_error_set(p->err, PCOL_ECORRUPT, "%s:%llu: %s", p->name, (unsigned long long)lineno,
                        what);
}

/* A builder call's status: on failure its reason after the file's name and
 * line, as bad() has it. */
static int b_at(pimp *p, uint64_t lineno, int rc) { return pcol_error_in(p->err, rc, p->name, lineno); }

static int is_blank(char c) { return c == ' ' || c == '\t'; }
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
/* at most 16 hex digits (callers check) */
static uint64_t parse_hex(const char *s, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n && i < 16; i++) {
    int c = s[i];
    v = v * 16 + (uint64_t)(isdigit(c) ? c - '0' : (tolower(c) - 'a' + 10));
  }
  return v;
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

/* A frame's text `ip [sym[+0xoff]] [(dso)]`: sym and dso (dso without its
 * parentheses; NULL when not printed: -F ip,sym); 0 if s is not one, -1
 * if its address has more than 16 hex digits (64 bits).  The
 * sym may hold spaces and parentheses (C++), so the dso is the last
 * parenthesised group, after a blank as perf prints it (" (%s)"): "f(int)"
 * is a sym. */
static int frame_parts(const char *s, size_t n, uint64_t *ip, const char **sym, size_t *nsym,
                       const char **dso, size_t *ndso) {
  size_t i = 0;
  while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
  size_t a = i;
  while (i < n && s[i] != ' ' && s[i] != '\t') i++;
  if (!is_hex(s + a, i - a)) return 0;
  if (i - a > 16) return -1; /* no 64-bit address */
  *ip = parse_hex(s + a, i - a);
  while (n > i && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
  if (n <= i) { /* an address alone: perf -F ip without sym/dso */
    *sym = NULL, *nsym = 0, *dso = NULL, *ndso = 0;
    return 1;
  }
  while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
  /* the matching '(' of the last group */
  size_t k = n - 1;
  int depth = 0;
  for (; s[n - 1] == ')'; k--) {
    if (s[k] == ')') depth++;
    else if (s[k] == '(' && --depth == 0) break;
    if (k == i) break;
  }
  if (s[n - 1] != ')' || depth || (k > i && !is_blank(s[k - 1]))) { /* no dso */
    *sym = s + i, *nsym = n - i, *dso = NULL, *ndso = 0;
    return 1;
  }
  *dso = s + k + 1, *ndso = n - 1 - (k + 1);
  size_t e = k;
  while (e > i && (s[e - 1] == ' ' || s[e - 1] == '\t')) e--;
  while (i < e && (s[i] == ' ' || s[i] == '\t')) i++;
  *sym = s + i, *nsym = e - i;
  return 1;
}

/* A line of function fn: in source file `file` at `line` when `perf script
 * -F +srcline` printed them (nfile 0, line PCOL_NA_I64: not), as pprof
 * keeps a frame's file on its function and its line on the location's
 * line (perf_to_profile does the same from the debug information). */
static int add_line(pimp *p, const char *fn, size_t nfn, const char *file, size_t nfile, int64_t line,
                    pcol_line_row *out) {
  pcol_function_row f = {0, 0, 0, PCOL_NA_I64};
  out->line = line, out->column = PCOL_NA_I64;
  int rc = pcol_b_string(p->b, fn, nfn, &f.name, p->err);
  if (!rc && nfile) rc = pcol_b_string(p->b, file, nfile, &f.filename, p->err);
  if (!rc) rc = pcol_b_function(p->b, &f, &out->function_id, p->err);
  return b_at(p, p->lineno, rc);
}

/* The inlined frames pending at p->inl_ip as a location of their own,
 * when no real frame at their address follows: perf names the outermost
 * function of an address's inline chain from the debug information, and
 * where that name is not the ELF symbol's (`__libc_start_main_impl` at
 * `__libc_start_main@@GLIBC_2.34`) it prints the whole chain as inlined
 * frames and no real frame for the address.  The dso is not printed. */
static int flush_inlines(pimp *p) {
  uint32_t loc;
  PCOL_RETURN_NOT_OK(b_at(p, p->lineno, pcol_b_location(p->b, 0, p->inl_ip, 0, p->inl, p->ninl, &loc, p->err)));
  if (PCOL_GROW(p->locs, p->nlocs, p->caplocs)) return pcol_oom(p->err);
  p->locs[p->nlocs++] = loc;
  p->ninl = 0;
  return PCOL_OK;
}

/* One callchain frame.  perf prints an address's inline chain (--inline,
 * on by default in perf 6.1, where the debug information has one) as
 * frames `ip sym (inlined)`, innermost first, before the real frame of the
 * same ip: they become that frame's location's lines. */
static int on_frame(pimp *p, uint64_t ip, const char *sym, size_t nsym, const char *dso,
                    size_t ndso, const char *file, size_t nfile, int64_t line) {
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
  int rc;
  if (p->ninl && ip != p->inl_ip && (rc = flush_inlines(p))) return rc;
  p->inl_ip = ip;
  char buf[512];
  if (!sym || !nsym || (nsym == 9 && memcmp(sym, "[unknown]", 9) == 0)) {
    /* no symbol (`[unknown]`, or none: "7f1e2215d058  (/lib/libc-2.15.so)",
     * -F ip): named by its address as perf report names such a row,
     * "%#.16llx" of the address perf script printed (0 as 16 zeros; the map-relative
     * address in a file, `[.] 0x000000000000115b`; the kernel's and a JIT
     * map's own), so each address is a row of its own as in perf report
     * (a `[dso]` name folded every address of a stripped binary into one);
     * an inlined frame without a name stays [unknown] */
    if (inlined) {
      sym = "[unknown]", nsym = 9;
    } else {
      nsym = (size_t)snprintf(buf, sizeof buf, "%#.16llx", (unsigned long long)ip);
      sym = buf;
    }
  }
  if (inlined) {
    if (PCOL_GROW(p->inl, p->ninl, p->capinl)) return pcol_oom(p->err);
    if ((rc = add_line(p, sym, nsym, file, nfile, line, &p->inl[p->ninl]))) return rc;
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
    if ((rc = add_line(p, sym + k, end - k, NULL, 0, PCOL_NA_I64, &p->inl[p->ninl]))) return rc;
    p->ninl++;
    end = k - 2;
    k--;
  }
  if (PCOL_GROW(p->inl, p->ninl, p->capinl)) return pcol_oom(p->err);
  if ((rc = add_line(p, sym, end, file, nfile, line, &p->inl[p->ninl]))) return rc;
  p->ninl++;
  uint32_t map = 0;
  if (dso && ndso) {
    pcol_mapping_row m = {0, 0, 0, 0, 0, PCOL_MAP_HAS_FUNCTIONS};
    if (p->ninl > 1) m.flags |= PCOL_MAP_HAS_INLINE_FRAMES;
    rc = pcol_b_string(p->b, dso, ndso, &m.filename, p->err);
    if (!rc) rc = pcol_b_mapping(p->b, &m, 1, &map, p->err);
    PCOL_RETURN_NOT_OK(b_at(p, p->lineno, rc));
  }
  uint32_t loc;
  PCOL_RETURN_NOT_OK(b_at(p, p->lineno, pcol_b_location(p->b, map, ip, 0, p->inl, p->ninl, &loc, p->err)));
  if (PCOL_GROW(p->locs, p->nlocs, p->caplocs)) return pcol_oom(p->err);
  p->locs[p->nlocs++] = loc;
  p->ninl = 0;
  return PCOL_OK;
}

/* A header's words (blank- or tab-separated: simpleperf writes tabs). */
#define HDR_WORDS 40
typedef struct hword {
  size_t a, n; /* s + a, n bytes */
} hword;

static int w_time(const char *w, size_t n) { /* "secs.frac:" (checked later) */
  return n >= 2 && w[n - 1] == ':' && isdigit((unsigned char)w[0]) && memchr(w, '.', n);
}
static int w_cpu(const char *w, size_t n) { return n >= 3 && w[0] == '[' && w[n - 1] == ']' && is_digits(w + 1, n - 2); }
static int w_tid(const char *w, size_t n, size_t *slash) { /* "tid" or "pid/tid" */
  const char *sl = memchr(w, '/', n);
  *slash = sl ? (size_t)(sl - w) : n;
  return sl ? is_digits(w, *slash) && is_digits(sl + 1, n - *slash - 1) : is_digits(w, n);
}

/* A callchain line that old perf printed without indentation ("java 19983
 * cycles:" then "ffffffff8103d0ca native_write_msr_safe ([kernel.kallsyms])",
 * FlameGraph's perf-java-stacks-02.txt; stackcollapse-perf.pl reads it): an
 * address, a symbol and "(dso)" at the end, the word after the address no
 * tid or pid/tid (a header "cc1 4242 ...": a comm may be hex).  Only inside
 * an event, where a header never comes before the blank line that ends it
 * (but after a one-line event). */
static int flat_frame(const char *s, size_t n) {
  size_t i = 0, a;
  while (n && is_blank(s[n - 1])) n--;
  if (!n || s[n - 1] != ')') return 0;
  while (i < n && !is_blank(s[i])) i++;
  if (!is_hex(s, i)) return 0;
  while (i < n && is_blank(s[i])) i++;
  a = i;
  while (i < n && !is_blank(s[i])) i++;
  size_t sl;
  return !w_tid(s + a, i - a, &sl);
}

/* A source line as `perf script -F +srcline` prints it under a frame
 * (t: the line without its indentation): "FILE:LINE" ("??:0" when perf
 * knows none; ":0" with no file name either), or, when the dso has no line table, perf's "DSO[ADDR]"
 * (`libpython3.11.so.1.0[fa5e0]`, `[kernel.kallsyms][ffffffff815eddc6]`:
 * the dso's short name, the address in hex; a perf map's is "[JIT] tid
 * PID", so under its frames perf prints `[JIT] tid 16150[7fc3d0010006]`,
 * never a FILE:LINE: perf 6.1, tests/interop/perf_real.py jit_chain).
 * Under a header that carries its frame (no callchains; perf right-aligns
 * the comm, so a header may be indented too) it must also be one word (a
 * header has blanks), or that JIT form, whose last word, PID[ADDR], no
 * header ends with (perf prints a blank before a [cpu]). */
static int jit_srcline(const char *t, size_t n) { /* "[JIT] tid PID[ADDR]" */
  static const char pre[] = "[JIT] tid ";
  size_t i = sizeof pre - 1, d;
  if (n < i || memcmp(t, pre, i)) return 0;
  for (d = i; d < n && isdigit((unsigned char)t[d]); d++) {}
  if (d == i || d >= n || t[d] != '[' || t[n - 1] != ']' || n - d < 3) return 0;
  return is_hex(t + d + 1, n - d - 2);
}
static int srcline(const char *t, size_t n, int one_word) {
  while (n && is_blank(t[n - 1])) n--;
  if (one_word && (memchr(t, ' ', n) || memchr(t, '\t', n)) && !jit_srcline(t, n)) return 0;
  size_t d = n;
  while (d > 0 && isdigit((unsigned char)t[d - 1])) d--;
  if (d < n && d >= 1 && t[d - 1] == ':') return 1; /* ":0": perf knows no file either */
  if (n < 4 || t[n - 1] != ']') return 0;
  size_t x = n - 1;
  while (x > 0 && isxdigit((unsigned char)t[x - 1])) x--;
  return x < n - 1 && x >= 2 && t[x - 1] == '[';
}

/* A source line "FILE:LINE" (srcline's) under the kept frame (a
 * callchain's, or the one a header carries),
 * for its function's file and its line (t, n: without indentation or
 * " (inlined)"); perf's "??:0", ":0" (it knows none) and "DSO[ADDR]" (no
 * line table) say nothing.  Kept once: the first under a frame. */
static int keep_srcline(pimp *p, const char *t, size_t n) {
  while (n && is_blank(t[n - 1])) n--;
  if (!p->pend || p->pend_line != PCOL_NA_I64 || !n || !isdigit((unsigned char)t[n - 1])) return PCOL_OK;
  size_t d = n;
  int64_t line = 0;
  while (d > 0 && isdigit((unsigned char)t[d - 1])) d--;
  if (d < 2 || t[d - 1] != ':' || n - d > 9) return PCOL_OK; /* a file name, and a line below 10^9 */
  for (size_t i = d; i < n; i++) line = line * 10 + (t[i] - '0');
  size_t nfile = d - 1;
  if (line <= 0 || (nfile == 2 && !memcmp(t, "??", 2))) return PCOL_OK;
  size_t at = p->pend_nsym + p->pend_ndso, need = at + nfile;
  if (need > p->pcap) {
    char *nb = realloc(p->pbuf, need);
    if (!nb) return pcol_oom(p->err);
    p->pbuf = nb, p->pcap = need;
  }
  memcpy(p->pbuf + at, t, nfile);
  p->pend_nfile = nfile, p->pend_line = line;
  return PCOL_OK;
}

/* Keep a frame until the next line (pimp.pend). */
static int pend_frame(pimp *p, int kind, uint64_t ip, const char *sym, size_t nsym, const char *dso,
                      size_t ndso) {
  size_t need = nsym + ndso + 1;
  if (need > p->pcap) {
    char *nb = realloc(p->pbuf, need);
    if (!nb) return pcol_oom(p->err);
    p->pbuf = nb, p->pcap = need;
  }
  if (nsym) memcpy(p->pbuf, sym, nsym);
  if (ndso) memcpy(p->pbuf + nsym, dso, ndso);
  p->pend = kind, p->pend_ip = ip, p->pend_lineno = p->lineno, p->pend_inlined = 0;
  p->pend_hassym = sym != NULL, p->pend_hasdso = dso != NULL;
  p->pend_nsym = nsym, p->pend_ndso = ndso, p->pend_nfile = 0, p->pend_line = PCOL_NA_I64;
  return PCOL_OK;
}

/* The kept frame into the event's stack. */
static int flush_pend(pimp *p) {
  if (!p->pend) return PCOL_OK;
  p->pend = 0;
  uint64_t at = p->lineno;
  p->lineno = p->pend_lineno;
  const char *sym = p->pend_hassym ? p->pbuf : NULL, *dso = p->pend_hasdso ? p->pbuf + p->pend_nsym : NULL;
  size_t ndso = p->pend_ndso;
  if (p->pend_inlined) dso = "inlined", ndso = 7;
  int rc = on_frame(p, p->pend_ip, sym, p->pend_nsym, dso, ndso, p->pbuf + p->pend_nsym + p->pend_ndso,
                    p->pend_nfile, p->pend_line);
  p->lineno = at;
  return rc;
}

/* A word of -F +iregs, +uregs: "ABI:2", "SP:0x7ffe84443f78" ("%5s:0x%" PRIx64). */
static int w_reg(const char *w, size_t n) {
  const char *c = memchr(w, ':', n);
  if (!c || c == w) return 0;
  size_t k = (size_t)(c - w);
  for (size_t i = 0; i < k; i++)
    if (!isalnum((unsigned char)w[i])) return 0;
  if (k == 3 && !memcmp(w, "ABI", 3)) return is_digits(c + 1, n - k - 1);
  return n - k > 3 && c[1] == '0' && c[2] == 'x' && is_hex(c + 3, n - k - 3);
}
/* A page size of -F +data_page_size, +code_page_size: "N/A", "4K", "2M". */
static int w_page(const char *w, size_t n) {
  if (n == 3 && !memcmp(w, "N/A", 3)) return 1;
  return n >= 2 && strchr("KMGTPE", w[n - 1]) && is_digits(w, n - 1);
}

/* What perf prints after a frame (builtin-script.c's process_event, in
 * this order after the ip, its symbol and dso: -F +iregs, +uregs
 * (" ABI:2    SP:0x7ffe84443f78 "), +brstack, +brstacksym, +brstackoff,
 * +insnlen, +insn (" ilen: 5", " insn: 81 ee bd 00"), +phys_addr
 * ("%16" PRIx64 right after the dso, or after the registers' blank), +data_page_size, +code_page_size
 * (" %s": "N/A", "4K")): n without them.  With callchains they are a line
 * of their own after the last frame (where the blank line would be); a
 * line that is only these is cut to 0.  *why names the fields pcol does
 * not read (branch stacks), else NULL. */
static size_t cut_tail(const char *s, size_t n, const char **why) {
  *why = NULL;
  for (;;) {
    while (n && is_blank(s[n - 1])) n--;
    size_t e = n;
    while (e >= 3 && isxdigit((unsigned char)s[e - 1]) && isxdigit((unsigned char)s[e - 2]) && is_blank(s[e - 3])) e -= 3;
    if (e >= 5 && !memcmp(s + e - 5, "insn:", 5) && (e == 5 || is_blank(s[e - 6]))) {
      n = e - 5;
      continue;
    }
    e = n;
    while (e && isdigit((unsigned char)s[e - 1])) e--;
    if (e < n && e >= 6 && !memcmp(s + e - 6, "ilen: ", 6) && (e == 6 || is_blank(s[e - 7]))) {
      n = e - 6;
      continue;
    }
    /* the last word, after blanks that follow the word before (or the start) */
    size_t a = n, b;
    while (a && !is_blank(s[a - 1])) a--;
    for (b = a; b && is_blank(s[b - 1]); b--) {}
    if (a == n || a == b) return n; /* one word alone, or none */
    /* the phys_addr: at most 14 hex digits (56 bits, the widest physical
     * address of Linux's architectures, RISC-V's), so its "%16" field holds
     * two pad blanks or more, which perf's one blank between words never
     * makes: a hex symbol after its ip ("ffffffff81000000 abcdef012345678",
     * 16 columns) is no phys_addr */
    if (w_reg(s + a, n - a) || w_page(s + a, n - a) || (n - a <= 14 && is_hex(s + a, n - a) && (n - b == 16 || n - b == 17))) {
      n = a; /* a register, a page size, or the phys_addr "%16" PRIx64 */
      continue;
    }
    size_t sl = 0;
    for (size_t i = a; i < n; i++) sl += s[i] == '/';
    if (sl >= 5 && !memchr(s + a, '(', n - a))
      *why = "perf script -F +brstack, +brstacksym or +brstackoff (branch stacks), which pcol does not read";
    return n;
  }
}

static int backwards(pimp *p, uint64_t lineno) {
  return bad(p, lineno,
             p->rounds ? "time goes backwards after PERF_RECORD_FINISHED_ROUND records: perf script "
                         "--show-round-events prints the events as they were flushed, not in time "
                         "order, which pcol does not read: print without --show-round-events"
                       : "time goes backwards (perf script prints events in time order, up to a "
                         "millisecond's disorder between CPUs: were two outputs joined, or printed "
                         "with --show-round-events, whose first PERF_RECORD_FINISHED_ROUND can come "
                         "after events out of order?)");
}

/* The oldest waiting event into the builder (see PERF_REORDER). */
static int add_held(pimp *p) {
  held *h = &p->held[p->hhead];
  p->hhead = (p->hhead + 1) % PERF_REORDER;
  p->nheld--;
  int64_t t = h->s.time_ns; /* on perf's clock */
  if (t != PCOL_NA_I64 && p->last_time != PCOL_NA_I64 && t < p->last_time) return backwards(p, h->lineno);
  /* time_ns counts from the first event (spec.md §7: since the source's
   * start, as the Firefox Profiler's timeline starts); perf's clock (the
   * kernel's perf_clock, not the wall clock) is kept as meta */
  if (t != PCOL_NA_I64 && p->last_time == PCOL_NA_I64) {
    char num[24];
    snprintf(num, sizeof num, "%lld", (long long)t);
    PCOL_RETURN_NOT_OK(b_at(p, h->lineno, pcol_b_meta_str(p->b, p->src, "perf.clock_start_ns", num, p->err)));
    /* a time past 2000-01-01 on perf's clock is no uptime (perf_clock,
     * CLOCK_MONOTONIC and CLOCK_BOOTTIME count from the boot): `perf
     * record -k CLOCK_REALTIME` (or -k CLOCK_TAI, 37 s ahead), recorded to
     * line samples up with logs, so the source's start is that wall-clock
     * time (THE start rule's pprof.time_nanos: wall-clock --from/--to, the
     * Time: line, the exports' start) */
    if (t >= PERF_WALL_MIN_NS)
      PCOL_RETURN_NOT_OK(b_at(p, h->lineno, pcol_b_meta_str(p->b, p->src, PPROF_META_TIME_NANOS, num, p->err)));
    p->t0 = t;
  }
  pcol_sample_row s = h->s;
  if (t != PCOL_NA_I64) s.time_ns = t - p->t0;
  PCOL_RETURN_NOT_OK(b_at(p, h->lineno, pcol_b_sample(p->b, &s, h->v, h->nv, NULL, p->err)));
  if (t != PCOL_NA_I64) p->last_time = t;
  return PCOL_OK;
}

static int end_event(pimp *p) {
  if (!p->in_event) return PCOL_OK;
  PCOL_RETURN_NOT_OK(flush_pend(p));
  p->in_event = 0;
  if (p->ninl) /* inlined frames with no frame after them: a location of their own */
    PCOL_RETURN_NOT_OK(flush_inlines(p));
  int64_t t = p->s.time_ns; /* on perf's clock */
  if (t == PCOL_NA_I64 && p->read_time != PCOL_NA_I64)
    return bad(p, p->ev_lineno, "an event without a time after events with one");
  if (t != PCOL_NA_I64 && p->read_time == PCOL_NA_I64) p->first_read = t;
  if (t != PCOL_NA_I64 && p->read_time != PCOL_NA_I64 && t < p->read_time && p->first_read == 0)
    return bad(p, p->ev_lineno, "time goes backwards from a first time of 0.000000: perf script "
                                "--deltatime's times (each since the event before), which pcol does not "
                                "read: print perf's times (without --deltatime)");
  if (t != PCOL_NA_I64 && p->read_time != PCOL_NA_I64 && t < p->read_time - PERF_REORDER_NS)
    return backwards(p, p->ev_lineno);
  if (t != PCOL_NA_I64 && (p->read_time == PCOL_NA_I64 || t > p->read_time)) p->read_time = t;
  PCOL_RETURN_NOT_OK(b_at(p, p->ev_lineno, pcol_b_stack_memo(p->b, &p->memo, p->locs, p->nlocs, &p->s.stack_id, p->err)));
  p->nlocs = 0;
  if (!p->held && !(p->held = malloc(PERF_REORDER * sizeof *p->held))) return pcol_oom(p->err);
  if (p->nheld == PERF_REORDER) PCOL_RETURN_NOT_OK(add_held(p));
  /* into the ring in time order: after every event of its time or before
   * (arrival order among equal times), usually at the end */
  size_t k = p->nheld;
  held *r = p->held;
  while (k && t != PCOL_NA_I64 && r[(p->hhead + k - 1) % PERF_REORDER].s.time_ns > t) {
    r[(p->hhead + k) % PERF_REORDER] = r[(p->hhead + k - 1) % PERF_REORDER];
    k--;
  }
  held *h = &r[(p->hhead + k) % PERF_REORDER];
  h->s = p->s;
  memcpy(h->v, p->v, sizeof h->v);
  h->nv = p->nv;
  h->lineno = p->ev_lineno;
  p->nheld++;
  return PCOL_OK;
}

/* The value type of an event name (modifiers such as `:ppp` cut).  An
 * event printed with a period is valued by it (cpu-clock and task-clock
 * count nanoseconds, with terms too, `cpu-clock/period=500000/u`; other
 * events events); one printed without (old perf,
 * `-F` without period, simpleperf) counts its samples: unit `count`, value
 * 1, as the Firefox Profiler weighs every perf sample 1 (a period of 1 ns
 * would state a wrong time).  An event name with and without periods is
 * refused. */
static size_t event_base(const char *e, size_t n) {
  const char *c = memchr(e, ':', n);
  if (c) {
    size_t k = (size_t)(c - e) + 1;
    int mods = k < n;
    for (size_t i = k; i < n; i++)
      if (!strchr("ukhIGHpPSDeWb", e[i])) mods = 0;
    if (mods || k == n) n = k - 1;
  }
  return n;
}

static int event_vt(pimp *p, const char *e, size_t n, int has_period, uint64_t lineno, uint32_t *vt) {
  n = event_base(e, n);
  uint32_t sid;
  PCOL_RETURN_NOT_OK(b_at(p, lineno, pcol_b_string(p->b, e, n, &sid, p->err)));
  size_t slot = (sid * 2654435761u) & (PERF_EV_SLOTS - 1);
  for (; p->ev_slot[slot]; slot = (slot + 1) & (PERF_EV_SLOTS - 1)) {
    size_t i = p->ev_slot[slot] - 1u;
    if (p->ev_sid[i] == sid) {
      if (p->ev_period[i] != has_period)
        return bad(p, lineno, has_period ? "a period on an event printed without one before"
                                         : "no period on an event printed with one before");
      p->ev_samples[i]++;
      return *vt = p->ev_vt[i], PCOL_OK;
    }
  }
  if (p->nev == PERF_MAX_EVENTS) return bad(p, lineno, "more than 2048 event names");
  /* the clock's name alone, also with terms (cpu-clock/period=500000/u) */
  const char *sl = memchr(e, '/', n);
  size_t bn = sl ? (size_t)(sl - e) : n;
  int ns = has_period && ((bn == 9 && !memcmp(e, "cpu-clock", 9)) || (bn == 10 && !memcmp(e, "task-clock", 10)));
  int rc = pcol_b_value_type(p->b, sid, ns ? p->u_ns : p->u_count, vt, p->err);
  if (!rc) rc = pcol_b_source_value_type(p->b, p->src, *vt, p->err);
  PCOL_RETURN_NOT_OK(b_at(p, lineno, rc));
  p->ev_time[p->nev] = (uint8_t)(ns || (bn == 6 && !memcmp(e, "cycles", 6)) ||
                                  (bn == 10 && !memcmp(e, "cpu-cycles", 10)));
  p->ev_samples[p->nev] = 1;
  p->ev_rank[p->nev] = 0;
  const char *h = p->hdr_evs;
  for (size_t i = 0; i < p->nhdr_evs; i++, h += strlen(h) + 1)
    if (strlen(h) == n && !memcmp(h, e, n)) {
      p->ev_rank[p->nev] = (uint16_t)(i + 1);
      break;
    }
  p->ev_period[p->nev] = (uint8_t)has_period;
  p->ev_slot[slot] = (uint16_t)(p->nev + 1);
  p->ev_sid[p->nev] = sid, p->ev_vt[p->nev++] = *vt;
  return PCOL_OK;
}

/* A header's fields, as parse_header reads them (offsets into the line). */
typedef struct perf_hdr {
  size_t comm_a, comm_n;   /* the comm (comm_n 0: not printed) */
  int64_t pid, tid, cpu;   /* -1: not printed */
  int64_t time_ns;         /* on perf's clock; PCOL_NA_I64: not printed */
  int64_t period;          /* -1: not printed */
  const char *ev;          /* the event name without its ':' (NULL: -F without event) */
  size_t nev;
  size_t rest;             /* where what follows the fields starts (addr, tracepoint fields, a frame) */
  size_t frame;            /* where the line's frame starts (SIZE_MAX: none) */
  int frame_sure;          /* 1: that is a frame whatever follows; 0: unless a callchain follows */
  int sideband;            /* a side-band record, not a sample (w_sideband) */
} perf_hdr;

/* A side-band record's word: perf script --show-task-events, --show-mmap-
 * events, --show-switch-events, --show-round-events, ... print "comm tid
 * [cpu] time: PERF_RECORD_COMM: ...", "PERF_RECORD_FORK(22118:22118):
 * (22061:22061)", "PERF_RECORD_FINISHED_ROUND" and the like where a sample
 * has its period and event. */
static int w_sideband(const char *w, size_t n) { return n >= 12 && memcmp(w, "PERF_RECORD_", 12) == 0; }
/* An event name ("cycles:", "sched:sched_switch:") or a side-band record's word. */
static int w_event(const char *w, size_t n) { return w[n - 1] == ':' || w_sideband(w, n); }

/* perf script's widths tell a header's numbers apart where their words
 * alone cannot (tools/perf/builtin-script.c, perf_sample__fprintf_start and
 * process_event): it ends every field with one blank and prints a tid
 * "%5d" ("%7d" since perf 6.x), the period "%10" PRIu64, the comm "%16s"
 * without callchains, the addr "%16" PRIx64 and, before the ip of a line
 * without callchain, a blank and "%16" PRIx64.  A word's field runs from
 * the blank after the word before it (or the line's start) to its end.  So
 * a number before the event (or before the ip, or at the end of a header
 * with neither a time nor an event) is its period when its field is 10
 * characters or wider, else the tid (old perf's "java 19983 cycles:",
 * `-F comm,tid,event`); in a header without a time, a [cpu] or an event
 * (`-F comm,tid,ip,sym`) the ip is the first hex word whose field is 17
 * characters or wider (no comm, tid or period is); after the fixed fields
 * of a header without an event (`-F time,period,ip,sym`, `-F ip,sym`) a
 * number whose field is 17 wide is the ip, an all-digit address, and no
 * period; and after the event the ip is the last hex word whose field is 16
 * or wider (the addr, `-F +addr`, and data_src, `-F +data_src`, come before
 * it; a symbol is one blank after its ip). */
enum { PERIOD_MIN_WIDTH = 10, ADDR_WIDTH = 16, IP_WIDTH = 17 };
static size_t field_width(const char *s, size_t a, size_t n) {
  size_t e = a;
  while (e > 0 && is_blank(s[e - 1])) e--;
  return a + n - (e ? e + 1 : 0);
}
/* a hex word of at most 16 digits (a 64-bit address) */
static int w_addr(const char *w, size_t n) { return n <= 16 && is_hex(w, n); }

/* A header line, read from its fixed fields inward: the time (the first
 * "secs.frac:" word) or else the [cpu], or else the event (or the number
 * before it that is its period), or else the ip (or the number before it
 * that is its period), or else the line's end anchors it; the word before
 * the anchor's fields is pid/tid or tid, and everything before that is the
 * comm, which may hold blanks and digits (Firefox's thread "FS Broker
 * 5906"); after the time: the period, then the event, then what perf
 * prints before the ip (addr, data_src, tracepoint fields), then the ip's
 * frame when the event has no callchain.  NULL, or what is wrong with it.
 * Only reads the line: the importer (on_header) and detection
 * (pcol_perf_sideband, pcol_perf_header_frame) share it. */
static const char *parse_header(const char *s, size_t n, perf_hdr *h) {
  memset(h, 0, sizeof *h);
  h->pid = h->tid = h->cpu = h->period = -1;
  h->time_ns = PCOL_NA_I64;
  h->frame = SIZE_MAX;
  hword w[HDR_WORDS];
  size_t nw = 0, i = 0;
  long T = -1, C = -1, E = -1, X = -1; /* time, [cpu], event word, ip word */
  while (nw < HDR_WORDS) {
    while (i < n && is_blank(s[i])) i++;
    if (i >= n) break;
    size_t a = i;
    while (i < n && !is_blank(s[i])) i++;
    w[nw].a = a, w[nw].n = i - a;
    if (X < 0 && w_addr(s + a, i - a) && field_width(s, a, i - a) >= IP_WIDTH) X = (long)nw;
    nw++;
  }
  /* perf's order is fixed (comm tid [cpu] time: period event: ...), and a
   * comm may look like a time ("1.5:") or a [cpu] ("x [001]"): the time is
   * the last "secs.frac:" word before the event (the first "name:" word
   * that is no time) or else before the ip, or the line's end; the [cpu]
   * the word right before it, or without a time the last [cpu] before
   * those */
  {
    long lim = X >= 0 ? X : (long)nw;
    for (long k = 0; k < lim; k++)
      if (w_event(s + w[k].a, w[k].n) && !w_time(s + w[k].a, w[k].n)) {
        lim = k;
        break;
      }
    for (long k = 0; k < lim; k++)
      if (w_time(s + w[k].a, w[k].n)) T = k;
    if (T > 0 && w_cpu(s + w[T - 1].a, w[T - 1].n)) C = T - 1;
    for (long k = 0; T < 0 && k < lim; k++)
      if (w_cpu(s + w[k].a, w[k].n)) C = k;
  }
  if (nw && w_sideband(s + w[0].a, w[0].n)) { /* --show-round-events: "PERF_RECORD_FINISHED_ROUND" */
    h->sideband = 1;
    return NULL;
  }
  /* the fixed fields start at the [cpu], else the time */
  long F = C >= 0 ? C : T;
  size_t sl;
  if (F < 0) {
    /* neither: the event is the first "name:" word (before the ip) after a
     * tid or a period (old perf: "java 19983 cycles:"), else the first
     * "name:" word; else the ip anchors the header, else its end (-F
     * comm,tid,period with callchains); the number before the anchor is
     * its period when perf's widths say so (field_width) */
    long lim = X >= 0 ? X : (long)nw;
    for (long k = 1; k < lim && E < 0; k++)
      if (w_event(s + w[k].a, w[k].n) && w_tid(s + w[k - 1].a, w[k - 1].n, &sl)) E = k;
    for (long k = 0; k < lim && E < 0; k++)
      if (w_event(s + w[k].a, w[k].n)) E = k;
    F = E >= 0 ? E : lim;
    if (F > 0 && is_digits(s + w[F - 1].a, w[F - 1].n) && field_width(s, w[F - 1].a, w[F - 1].n) >= PERIOD_MIN_WIDTH) F--;
    if (E < 0 && X >= 0) h->frame_sure = 1; /* no field after the ip but the frame's */
  }
  size_t rest = n; /* the offset of what follows the comm and tid */
  {
    long cs = 0, ce = F; /* comm: words [cs, ce) */
    if (F > 0 && w_tid(s + w[F - 1].a, w[F - 1].n, &sl)) {
      const char *t = s + w[F - 1].a;
      size_t tn = w[F - 1].n;
      if (sl < tn) {
        if ((h->pid = parse_dec(t, sl)) < 0) return "pid out of range";
        t += sl + 1, tn -= sl + 1;
      }
      if ((h->tid = parse_dec(t, tn)) < 0) return "tid out of range";
      ce = F - 1;
    }
    if (ce > cs) h->comm_a = w[cs].a, h->comm_n = w[ce - 1].a + w[ce - 1].n - w[cs].a;
    if (F < (long)nw) rest = w[F].a;
  }
  /* the rest: [cpu] time: period event: */
  i = rest;
  while (i < n && !h->ev) {
    while (i < n && is_blank(s[i])) i++;
    size_t a = i;
    while (i < n && !is_blank(s[i])) i++;
    const char *wd = s + a;
    size_t wn = i - a;
    if (!wn) break;
    if (w_cpu(wd, wn)) {
      /* one [cpu] a header */
      if (h->cpu >= 0 || (h->cpu = parse_dec(wd + 1, wn - 2)) < 0) return "bad [cpu] field";
    } else if (w_time(wd, wn) && h->time_ns == PCOL_NA_I64) {
      const char *dot = memchr(wd, '.', wn);
      size_t ni = (size_t)(dot - wd), nf = wn - 1 - ni - 1;
      if (!is_digits(wd, ni) || !is_digits(dot + 1, nf) || nf > 9)
        return "time is not seconds.fraction";
      /* perf record -k CLOCK_REALTIME: seconds since 1970 ("1795781422.572052") */
      int64_t sec = parse_dec(wd, ni), f = parse_dec(dot + 1, nf);
      if (sec < 0 || sec > (INT64_MAX - 999999999) / 1000000000LL) return "time out of range (more than 2^63 ns)";
      int64_t ns = sec * 1000000000LL;
      if (i + 1 < n && s[i] == '\t' && s[i + 1] == '\t') {
        /* simpleperf's report_sample.py before it wrote "%d.%06d": its
         * "comm\ttid [cpu] %d.%d:\t\tperiod event:" prints the
         * microseconds unpadded ("115540.8374:" is 115540.008374 s) */
        if (nf > 6) return "time is not seconds.microseconds";
        f *= 1000;
      } else {
        for (size_t k = nf; k < 9; k++) f *= 10;
      }
      h->time_ns = ns + f;
    } else if (is_digits(wd, wn) && h->period < 0 && field_width(s, a, wn) < IP_WIDTH) {
      if ((h->period = parse_dec(wd, wn)) < 0) return "period out of range";
    } else if (w_sideband(wd, wn)) {
      /* a side-band record where the event would be: no sample, and its
       * time (perf-exec's is 0.000000) is none of a sample's */
      h->sideband = 1;
      break;
    } else if (wd[wn - 1] == ':') {
      h->ev = wd, h->nev = wn - 1;
    } else {
      /* -F without event: what follows the fixed fields */
      i = a;
      break;
    }
  }
  while (i < n && is_blank(s[i])) i++;
  h->rest = i;
  if (h->frame_sure) {
    h->frame = w[X].a;
    if (h->frame < h->rest) return "the ip before the header's fields";
  } else {
    /* the ip: the last hex word at least 16 wide (perf's "%16" PRIx64
     * after a blank) after the fields, else a hex word right after them
     * (text not padded as perf pads it) */
    size_t last = SIZE_MAX;
    for (size_t k = i; k < n;) {
      while (k < n && is_blank(s[k])) k++;
      size_t a = k;
      while (k < n && !is_blank(s[k])) k++;
      if (k > a && w_addr(s + a, k - a) && field_width(s, a, k - a) >= ADDR_WIDTH) {
        /* not the phys_addr among the fields after the frame (cut_tail):
         * the ip is followed by its symbol or dso, or by nothing */
        const char *why;
        last = a;
        if (cut_tail(s + a, n - a, &why) > k - a) h->frame = a;
      }
    }
    if (h->frame == SIZE_MAX) h->frame = last;
    if (h->frame == SIZE_MAX && i < n) {
      size_t k = i;
      while (k < n && !is_blank(s[k])) k++;
      if (is_hex(s + i, k - i)) h->frame = i;
    }
  }
  return NULL;
}

/* 1 when a line is a side-band record that perf script prints among the
 * samples (--show-task-events, ...): detection skips it as the importer
 * does. */
int pcol_perf_sideband(const uint8_t *p, size_t n) {
  perf_hdr h;
  return !memchr(p, 0, n) && !parse_header((const char *)p, n, &h) && h.sideband;
}

/* 1 when a line is a sample's header with a time or an event and the frame
 * of an event without callchain (`-F +addr`, `-F ...,ip` without sym,
 * `-F +insnlen`): detection takes it for perf's. */
int pcol_perf_header_frame(const uint8_t *p, size_t n) {
  perf_hdr h;
  return !memchr(p, 0, n) && !parse_header((const char *)p, n, &h) && !h.sideband &&
         (h.ev || h.time_ns != PCOL_NA_I64 || h.cpu >= 0) && h.frame != SIZE_MAX && !h.frame_sure;
}

int pcol_perf_header_fields(const uint8_t *p, size_t n) {
  perf_hdr h;
  const char *s = (const char *)p;
  if (memchr(p, 0, n) || parse_header(s, n, &h) || h.sideband) return 0;
  int f = (h.time_ns != PCOL_NA_I64 ? PCOL_PERF_H_TIME : 0) | (h.cpu >= 0 ? PCOL_PERF_H_CPU : 0) |
          (h.ev ? PCOL_PERF_H_EVENT : 0);
  /* none of those, and the frame of an event without callchain as perf
   * prints its ip after the fields: a blank and "%16" PRIx64, a field
   * exactly IP_WIDTH wide (`-F comm,tid,ip,sym`: "        stripped  2187
   * ffffffff81775b9a elf_load"; `-F ip`: " ffffffff81775b9a"), after
   * pid/tid's "%5d/%-5d " the tid's pad blanks too */
  if (!f && h.frame_sure && h.frame != SIZE_MAX) {
    size_t k = h.frame, b = h.frame, pad = 0;
    while (k < n && !is_blank(s[k])) k++;
    while (b > 0 && is_blank(s[b - 1])) b--;
    for (size_t t = b; t > 0 && !is_blank(s[t - 1]); t--)
      if (s[t - 1] == '/') {
        pad = b - t < 5 ? 5 - (b - t) : 0;
        break;
      }
    if (field_width(s, h.frame, k - h.frame) == IP_WIDTH + pad) f = PCOL_PERF_H_IP;
  }
  /* perf's own layout (perf_sample__fprintf_start: "%5lu.%06lu:", --ns
   * "%09lu", "[%03d]"; the widths above) */
  for (size_t i = 0; f && i < n && !(f & PCOL_PERF_H_LAYOUT);) {
    while (i < n && is_blank(s[i])) i++;
    size_t a = i;
    while (i < n && !is_blank(s[i])) i++;
    const char *w = s + a, *dot;
    size_t wn = i - a;
    if (!wn) break;
    if ((w_time(w, wn) && (dot = memchr(w, '.', wn)) && (w + wn - dot - 2 == 6 || w + wn - dot - 2 == 9)) ||
        w_cpu(w, wn) || (w_addr(w, wn) && field_width(s, a, wn) >= IP_WIDTH) ||
        (is_digits(w, wn) && field_width(s, a, wn) >= PERIOD_MIN_WIDTH))
      f |= PCOL_PERF_H_LAYOUT;
  }
  return f;
}

/* A header line: the sample's labels, time and values (its event's period,
 * or 1 when printed without one; without the event (`-F` without `event`)
 * the value type `samples`, 1 a sample, and the period, if printed, as the
 * type `period`).  A side-band record is skipped. */
static int on_header(pimp *p, const char *s, size_t n, uint64_t lineno) {
  perf_hdr h;
  const char *why = parse_header(s, n, &h);
  if (why) return bad(p, lineno, why);
  if (h.sideband) {
    if (n >= 26 && memmem(s, n, "PERF_RECORD_FINISHED_ROUND", 26)) p->rounds = 1;
    return PCOL_OK;
  }
  /* perf script prints the same fields for every event (-F): a header
   * without its event name among headers with one is a cut line (or two
   * outputs joined), whose numbers would be misread */
  int hev = h.ev ? 1 : 2;
  if (p->hdr_ev && p->hdr_ev != hev)
    return bad(p, lineno, h.ev ? "a header with an event name after headers without one (were two outputs joined?)"
                               : "a header without an event name after headers with one (a cut line, or "
                                 "two outputs joined?)");
  p->hdr_ev = hev;
  p->hdr_time = h.time_ns != PCOL_NA_I64;
  pcol_label_row lab[4];
  size_t nl = 0;
  memset(lab, 0, sizeof lab);
  if (h.pid >= 0) lab[nl].key = p->k_pid, lab[nl++].num = h.pid;
  if (h.tid >= 0) lab[nl].key = p->k_tid, lab[nl++].num = h.tid;
  if (h.comm_n) {
    lab[nl].key = p->k_comm;
    PCOL_RETURN_NOT_OK(b_at(p, lineno, pcol_b_string(p->b, s + h.comm_a, h.comm_n, &lab[nl].str, p->err)));
    nl++;
  }
  if (h.cpu >= 0) lab[nl].key = p->k_cpu, lab[nl++].num = h.cpu;
  p->s.time_ns = h.time_ns;
  int rc;
  if (h.ev) {
    rc = event_vt(p, h.ev, h.nev, h.period >= 0, lineno, &p->v[0].value_type_id);
    p->v[0].value = h.period < 0 ? 1 : h.period;
    p->nv = 1;
  } else {
    /* perf script -F without `event`: the samples counted (perf report's
     * "Samples"), and the period, whose unit the unnamed event would give,
     * as a count of its own (perf report's "Event count") */
    rc = event_vt(p, "samples", 7, 0, lineno, &p->v[0].value_type_id);
    p->v[0].value = 1;
    p->nv = 1;
    if (!rc && h.period >= 0) {
      rc = event_vt(p, "period", 6, 1, lineno, &p->v[1].value_type_id);
      p->v[1].value = h.period;
      p->nv = 2;
    }
  }
  if (rc) return rc;
  p->s.weight = 1;
  p->s.duration_ns = 0;
  p->s.cpu_delta_ns = PCOL_NA_I64;
  p->s.source_id = p->src;
  PCOL_RETURN_NOT_OK(b_at(p, lineno, pcol_b_labelset(p->b, lab, nl, &p->s.labelset_id, p->err)));
  p->in_event = 1;
  p->ev_lineno = lineno;
  p->nlocs = p->ninl = 0;
  p->one_line = p->tab_chain = p->tail = 0;
  /* a one-frame stack on the header line itself (no callchain), kept
   * until the next line says whether a callchain follows: then the hex
   * word taken for its ip was the addr (-F +addr) */
  if (h.frame != SIZE_MAX) {
    uint64_t ip;
    const char *sym, *dso;
    size_t nsym, ndso;
    const char *tail;
    size_t fn = cut_tail(s + h.frame, n - h.frame, &tail);
    if (tail) return bad(p, lineno, tail);
    if (frame_parts(s + h.frame, fn, &ip, &sym, &nsym, &dso, &ndso) == 1)
      return pend_frame(p, h.frame_sure ? 3 : 2, ip, sym, nsym, dso, ndso);
  }
  /* anything else after the event name (tracepoint fields) is not a frame */
  return PCOL_OK;
}

/* 1 when a line inside an event that has no frame yet (a tracepoint's, or
 * -F without ip) and not begun with a tab (perf begins a callchain's frames
 * with one; simpleperf with spaces) is a header as the event's was, with
 * its time and its event name: then a hex word where the line starts is a
 * right-aligned comm ("              dd 14080 [000] 81992.415177: ..."),
 * not a callchain frame's address. */
static int like_header(const pimp *p, const char *s, size_t n) {
  perf_hdr h;
  if (parse_header(s, n, &h) || h.sideband) return 0;
  int t = h.time_ns != PCOL_NA_I64, e = h.ev != NULL;
  return (p->hdr_time || p->hdr_ev == 1) && t == p->hdr_time && e == (p->hdr_ev == 1);
}

/* perf script --header lists the recording's events in perf.data's order
 * ("# event : name = page-faults, , id = { 1902 }, type = 1, ..."; perf
 * writes the name, then ", "): the names, modifiers cut as event_vt cuts
 * them, are kept for default_event; past PERF_HDR_EVS bytes no more (a
 * real list of 700 tracepoints takes some 30 KB). */
#define PERF_HDR_EVS 65536
static int keep_hdr_event(pimp *p, const char *s, size_t n) {
  static const char tag[] = "# event : name = ";
  size_t t = sizeof tag - 1;
  if (n < t || memcmp(s, tag, t)) return PCOL_OK;
  s += t, n -= t;
  for (size_t i = 0; i + 1 < n; i++)
    if (s[i] == ',' && s[i + 1] == ' ') {
      n = i;
      break;
    }
  n = event_base(s, n);
  if (!n || p->hdr_evs_len + n + 1 > PERF_HDR_EVS) return PCOL_OK;
  if (!p->hdr_evs && !(p->hdr_evs = malloc(PERF_HDR_EVS))) return pcol_oom(p->err);
  memcpy(p->hdr_evs + p->hdr_evs_len, s, n);
  p->hdr_evs[p->hdr_evs_len + n] = 0;
  p->hdr_evs_len += n + 1, p->nhdr_evs++;
  return PCOL_OK;
}

/* THE default rule of a perf script of several events: the views show
 * one event, never a sum (mixing cycles and page-faults would mislead).
 * perf report leads with the first event of perf.data's header (the first
 * -e) that has samples: perf script --header lists them in that order
 * (keep_hdr_event), and then the first listed with samples is the default.
 * Without the list the text does not tell the order (its first sample is
 * often another event's: an execve page fault before the first cpu-clock
 * tick, whichever -e came first; review 18 F7): the first time event
 * printed (cpu-clock, task-clock, cycles: what perf record samples without
 * -e, and what a profile is read for), else the event with the most
 * samples (the first printed of those). */
static int default_event(pimp *p) {
  size_t best = 0, ranked = 0;
  for (size_t i = 0; i < p->nev; i++)
    if (p->ev_rank[i] && (!ranked || p->ev_rank[i] < p->ev_rank[best])) best = i, ranked = 1;
  for (size_t i = 0; !ranked && i < p->nev; i++) {
    if (p->ev_time[i]) {
      best = i;
      break;
    }
    if (p->ev_samples[i] > p->ev_samples[best]) best = i;
  }
  return p->nev ? pcol_b_meta_sid(p->b, p->src, p->k_default, p->ev_sid[best], p->err) : PCOL_OK;
}

int pcol_import_perf(pcol_builder *b, FILE *in, const char *name, const pcol_import_options *opt,
                     pcol_error *err) {
  pimp p = {0};
  p.b = b, p.name = name, p.err = err, p.last_time = PCOL_NA_I64, p.read_time = PCOL_NA_I64;
  int rc = pcol_b_source(b, PCOL_SRC_PERF, name, PCOL_NA_I64, &p.src, err);
  const struct { const char *s; uint32_t *id; } keys[] = {
      {PCOL_THREAD_COMM_KEY, &p.k_comm}, {PCOL_THREAD_PID_KEY, &p.k_pid}, {"tid", &p.k_tid}, {"cpu", &p.k_cpu},
      {PCOL_UNIT_NANOSECONDS, &p.u_ns}, {PCOL_UNIT_COUNT, &p.u_count},
      {PPROF_META_DEFAULT_SAMPLE_TYPE, &p.k_default}};
  for (size_t i = 0; !rc && i < sizeof keys / sizeof *keys; i++) rc = pcol_b_cstr(b, keys[i].s, keys[i].id, err);
  PCOL_RETURN_NOT_OK(b_at(&p, 0, rc));
  uint64_t cap = pcol_input_cap(opt);
  pcol_capped capped;
  FILE *cin = pcol_capped_stream(&capped, in, cap);
  if (!cin) return pcol_oom(err);
  char *line = NULL;
  size_t lcap = 0;
  ssize_t got;
  uint64_t lineno = 0;
  int prev_blank = 0; /* the line before was blank */
  errno = 0;
  while ((got = getline(&line, &lcap, cin)) >= 0) {
    p.lineno = ++lineno;
    if (capped.over) break;
    size_t n = (size_t)got;
    if (!n || line[n - 1] != '\n') {
      /* perf script ends every line with a line end: a last line without
       * one was cut (a frame "start_thread+0x305 (/usr/lib/libc.so" or a
       * header), and its numbers cannot be trusted */
      rc = bad(&p, lineno, "the last line has no line end: the file is truncated (perf script ends every line with one)");
      break;
    }
    n--;
    if (n && line[n - 1] == '\r') n--;
    if (memchr(line, 0, n)) {
      rc = bad(&p, lineno, "NUL byte in a line");
      break;
    }
    size_t k = 0;
    while (k < n && (line[k] == ' ' || line[k] == '\t')) k++;
    int after_blank = prev_blank;
    prev_blank = k == n;
    if (k == n) { /* blank: the event ends */
      if (p.in_event && !p.one_line) {
        /* a blank line right after a header is an empty callchain
         * (--max-stack=0): the header's hex words were its addr
         * (-F +addr) and data_src, no ip */
        if (p.pend == 2 && p.pend_lineno == p.ev_lineno && !p.one_line_seen) p.pend = 0;
        p.nblank_ended++;
      }
      if ((rc = end_event(&p))) break;
      continue;
    }
    if (line[0] == '#') { /* perf script --header comments (a right-aligned comm may start with '#') */
      if ((rc = keep_hdr_event(&p, line, n))) break;
      continue;
    }
    if (k == 0 && line[0] == '|' && n > 1 && isdigit((unsigned char)line[1]))
      continue; /* -F +srccode: "|LINE  source text" */
    if (p.tail && k > 0) {
      rc = bad(&p, lineno, "an indented line after the fields perf prints after a callchain (-F +iregs, +phys_addr, ...)");
      break;
    }
    const char *why = NULL;
    if (p.in_event && p.tab_chain && line[0] == ' ' && !p.one_line && (!cut_tail(line, n, &why) || why)) {
      /* the fields perf prints after a callchain: the event ends */
      if (why) {
        rc = bad(&p, lineno, why);
        break;
      }
      p.tail = 1;
      continue;
    }
    uint64_t ip;
    const char *sym, *dso;
    size_t nsym, ndso;
    int cc = p.in_event && (k > 0 || flat_frame(line, n)) ? frame_parts(line, n, &ip, &sym, &nsym, &dso, &ndso) : 0;
    if (cc && line[0] != '\t' && !p.pend && !p.nlocs && !p.ninl && like_header(&p, line, n))
      cc = 0; /* a header whose right-aligned comm is hex ("dd", "cafe") after an event without frame */
    if (cc < 0) {
      rc = bad(&p, lineno, "a callchain address longer than 16 hex digits (64 bits)");
      break;
    }
    if (p.pend >= 2) {
      /* the header's frame, unless a callchain follows (perf prints its
       * frames after a tab, "%16" PRIx64; a comm right-aligned "%16s"
       * may be hex, "dd"): then its hex word was the addr */
      size_t e = k;
      while (e < n && !is_blank(line[e])) e++;
      if (p.pend == 2 && cc && k > 0 && (line[0] == '\t' || field_width(line, k, e - k) >= IP_WIDTH)) {
        p.pend = 0;
      } else {
        p.one_line = p.one_line_seen = 1;
        /* `-F +srcline` under a header that carries its frame: its line */
        if (k > 0 && p.in_event && srcline(line + k, n - k, 1) && (rc = keep_srcline(&p, line + k, n - k))) break;
        if ((rc = flush_pend(&p))) break;
      }
    }
    if (cc && !p.one_line) {
      /* an indented frame of the current callchain (a header starts with
       * spaces only when perf right-aligns the comm, without callchains:
       * then the header carries its one frame and no frame lines follow) */
      if ((rc = flush_pend(&p)) || (rc = pend_frame(&p, 1, ip, sym, nsym, dso, ndso))) break;
      if (line[0] == '\t' && p.nlocs + p.ninl == 0) p.tab_chain = 1;
      continue;
    }
    if (k > 0 && p.in_event && p.one_line && (srcline(line + k, n - k, 1) || !cut_tail(line + k, n - k, &why)))
      continue; /* `-F +srcline` under a header that carries its frame */
    if (k > 0 && p.in_event && !p.one_line && p.nlocs + p.ninl + (p.pend != 0) > 0) {
      /* inside a callchain an indented line is never a header (perf ends a
       * callchain with a blank line): `-F +srcline` prints "  FILE:LINE"
       * (or "  DSO[ADDR]") under a frame (not kept: a frame's function
       * names it), and "  FILE:LINE (inlined)" under an inlined frame,
       * which it prints without a dso (so the frame is an inline frame
       * of the next one at its address); -F +insnlen, +insn print
       * " ilen: N insn: XX ..." after a callchain; anything else is an
       * error, never the start of a bogus event */
      size_t m = n;
      while (m > k && is_blank(line[m - 1])) m--;
      int inl = m - k > 10 && !memcmp(line + m - 10, " (inlined)", 10);
      if (inl && p.pend == 1 && !p.pend_hasdso && srcline(line + k, m - 10 - k, 0)) {
        p.pend_inlined = 1;
        if ((rc = keep_srcline(&p, line + k, m - 10 - k))) break;
        continue;
      }
      if (!inl && srcline(line + k, n - k, 0)) {
        if ((rc = keep_srcline(&p, line + k, n - k))) break;
        continue;
      }
      if (!inl && !cut_tail(line + k, n - k, &why)) continue;
      rc = bad(&p, lineno, "expected a callchain frame 'address symbol (dso)' or a source line "
                           "'FILE:LINE' or 'DSO[ADDR]' (-F +srcline)");
      break;
    }
    if ((rc = flush_pend(&p))) break;
    if (!p.in_event && after_blank && !p.nheaders && frame_parts(line, n, &ip, &sym, &nsym, &dso, &ndso) == 1) {
      /* a callchain after an empty header: perf script -F with no header
       * field (-F ip,sym) prints an empty line where the header goes, so
       * its events are callchains after blank lines (without callchains
       * such a line is a header that holds its frame, "  ip sym", and no
       * line is blank; after events with a header a frame after a blank
       * line is an error) */
      p.nbare++;
      if ((rc = on_header(&p, "", 0, lineno)) || (rc = pend_frame(&p, 1, ip, sym, nsym, dso, ndso))) break;
      continue;
    }
    if (k > 0 && line[0] == '\t') {
      rc = bad(&p, lineno, p.in_event ? "expected a callchain frame 'address symbol (dso)'"
                                      : "callchain frame outside an event (after a blank line)");
      break;
    }
    if ((rc = end_event(&p))) break;
    if (p.nbare) {
      rc = bad(&p, lineno, "a header line after events without one (callchains between blank lines)");
      break;
    }
    p.nheaders++;
    if ((rc = on_header(&p, line, n, lineno))) break;
  }
  if (!rc && capped.over)
    rc = pcol_error_set(err, PCOL_ETOOBIG, "%s: input is larger than the limit of %llu bytes", name,
                        (unsigned long long)cap);
  if (!rc && ferror(cin)) rc = pcol_error_set(err, PCOL_EIO, "%s: read error", name);
  /* perf ends every callchain with a blank line (or the fields it prints
   * after one): a last event without may be cut (`perf script | head`), or
   * only its blank line taken away (`x=$(perf script)`, an editor): it is
   * read, with a warning that its stack may lack outer frames */
  int cut = p.in_event && !p.one_line && !p.tail && !p.one_line_seen &&
            (p.nblank_ended || p.nlocs + p.ninl + (p.pend == 1) > 0);
  /* the file's one event, its header alone: perf script prints so an event
   * of a recording with callchains cut right after its header, or one of
   * -F without ip (no other event tells which): read as an event without a
   * stack, with a warning */
  int bare = p.in_event && !p.one_line && !p.tail && !p.one_line_seen && !p.nblank_ended &&
             p.nheaders == 1 && !p.nbare && p.nlocs + p.ninl == 0 && !p.pend;
  uint64_t ev_line = p.ev_lineno;
  if (!rc) rc = end_event(&p);
  while (!rc && p.nheld) rc = add_held(&p);
  if (!rc) rc = default_event(&p);
  /* the Duration: the samples' span, first to last, as perf report's
   * header gives it ("sample duration"), THE duration key of the start
   * rule (wall.c) */
  if (!rc && p.last_time != PCOL_NA_I64) {
    char num[24];
    snprintf(num, sizeof num, "%lld", (long long)(p.last_time - p.t0));
    rc = pcol_b_meta_str(p.b, p.src, PPROF_META_DURATION_NANOS, num, err);
  }
  if (!rc && cut)
    pcol_error_set(err, PCOL_OK, "%s:%llu: no blank line after the last event (perf script ends every "
                   "callchain with one): read as it is, but if the file was cut (perf script | head) "
                   "that event's stack may lack its outer frames", name, (unsigned long long)lineno);
  if (!rc && bare)
    pcol_error_set(err, PCOL_OK, "%s:%llu: the file's one event is its header line alone, with no "
                   "callchain and no blank line after it: read as an event without a stack (perf "
                   "script -F without ip prints such events), but if the file was cut (perf script "
                   "| head) its callchain is lost", name, (unsigned long long)ev_line);
  free(line);
  free(p.locs);
  pcol_stack_memo_free(&p.memo);
  free(p.inl);
  free(p.pbuf);
  free(p.held);
  free(p.hdr_evs);
  fclose(cin);
  return rc;
}
