/* filter.c — go tool pprof's sample filters (focus, ignore, hide, show,
 * tagfocus, tagignore; profile/filter.go and driver/driver_focus.go), on
 * pcol's tables.  The regular expressions are Go's, as pprof's are, read
 * by POSIX regex.h after regex_go.c rewrites what the two read apart.
 *
 * Cost model: each regex runs once per function (name and file), once per
 * mapping file and once per label row; then one pass over locations, one
 * over stack nodes (parents come first, so a node's state is its parent's
 * plus its location's) and one over label sets.  A sample is then kept or
 * dropped by two array reads (its stack node and its label set).
 *
 * pprof's rules, in order: a location is "ignored" when it matches ignore,
 * else "focused" when there is no focus or it matches focus; a sample is
 * kept when one of its locations is focused and none is ignored (so a
 * sample without locations is dropped, also when only label filters are
 * given: pprof runs its name filters, none given, all the same).  hide then removes the matching
 * lines of each location (all of them when its mapping file matches), show
 * keeps the matching lines and the lines without a function (all when the
 * mapping matches); a location left without lines is hidden, and a sample
 * whose every location is hidden is dropped.  no_inlines (pprof -noinlines,
 * which pprof applies after these) then hides every line of a location but
 * the outermost one left.  Label filters come after. */
#include "pcol.h"
#include "error.h"    /* PCOL_RETURN_NOT_OK, pcol_oom */
#include "bytes.h"    /* pcol_str_is */
#include "filter.h"   /* pcol_filter, pcol_rx_match, pcol_rx_compile, ... */
#include "columns.h"  /* PCOL_NCOLS, pcol_column_req, pcol_columns */
#include "reader.h"   /* struct pcol_file: late_locs */
#include "select.h"   /* pcol_select_iter_filter */
#include <ctype.h>
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { RX_FOCUS, RX_IGNORE, RX_HIDE, RX_SHOW, RX_SFROM, RX_N };
enum { ST_NONE = 0, ST_FOCUS = 1, ST_IGNORE = 2 };
/* pcol_filter.node_state and .ls_root bits beside ST_*: some location of
 * the stack (the root frame) is visible after hide/show; the stack keeps a
 * frame under show_from (the root frame matches show_from) */
enum { NS_VISIBLE = 4, NS_FROM = 8 };

bool pcol_select_filtered(const pcol_select *sel) {
  return sel && (sel->focus || sel->ignore || sel->hide || sel->show || sel->show_from ||
                 sel->tag || sel->tag_ignore || sel->no_inlines);
}

typedef struct rx_set {
  pcol_rx rx[RX_N];
  int have[RX_N];
  char *buf; /* a NUL-terminated copy of the string being matched */
  size_t cap;
} rx_set;

/* Bits (1 << RX_*) of the regexes that match string id sid of the file. */
static int rx_bits(pcol_file *f, rx_set *x, uint32_t sid, uint8_t *bits, pcol_error *err) {
  pcol_str s;
  PCOL_RETURN_NOT_OK(pcol_string(f, sid, &s, err));
  *bits = 0;
  for (int r = 0; r < RX_N; r++) {
    if (!x->have[r]) continue;
    int m = pcol_rx_match(&x->rx[r], &x->buf, &x->cap, s);
    if (m < 0) return pcol_oom(err);
    if (m) *bits |= (uint8_t)(1u << r);
  }
  return PCOL_OK;
}

int pcol_filter_loc_mapping(const pcol_file *f, const pcol_view *mfile, uint64_t nmap, uint64_t loc,
                            uint32_t m, uint32_t *sid) {
  *sid = 0;
  if (nmap == 0) return !f->late_locs || loc < f->late_locs; /* pprof's fake mapping */
  if (!m || m > nmap) return 0;
  *sid = pcol_view_u32(mfile, m - 1);
  return 1;
}

/* Per function (1-based; 0 = none): the regexes its name or file matches;
 * per mapping likewise for its file (mapping 0: the fake mapping of a file
 * without mappings, pcol_filter_loc_mapping). */
static int name_bits(pcol_file *f, rx_set *x, uint8_t **fnb, uint8_t **mapb, pcol_error *err) {
  uint64_t nfn = pcol_rows(f, PCOL_T_FUNCTIONS), nmap = pcol_rows(f, PCOL_T_MAPPINGS);
  pcol_view fname, ffile, mfile;
  pcol_column_req req[] = {{&fname, PCOL_T_FUNCTIONS, PCOL_C_FN_NAME},
                           {&ffile, PCOL_T_FUNCTIONS, PCOL_C_FN_FILENAME},
                           {&mfile, PCOL_T_MAPPINGS, PCOL_C_MAP_FILENAME}};
  PCOL_RETURN_NOT_OK(pcol_columns(f, req, PCOL_NCOLS(req), err));
  *fnb = calloc(nfn + 1, 1);
  *mapb = calloc(nmap + 1, 1);
  if (!*fnb || !*mapb) return pcol_oom(err);
  for (uint64_t i = 0; i < nfn; i++) {
    uint8_t a, b;
    PCOL_RETURN_NOT_OK(rx_bits(f, x, pcol_view_u32(&fname, i), &a, err));
    PCOL_RETURN_NOT_OK(rx_bits(f, x, pcol_view_u32(&ffile, i), &b, err));
    (*fnb)[i + 1] = a | b;
  }
  for (uint64_t i = 0; i < nmap; i++)
    PCOL_RETURN_NOT_OK(rx_bits(f, x, pcol_view_u32(&mfile, i), &(*mapb)[i + 1], err));
  if (nmap == 0) PCOL_RETURN_NOT_OK(rx_bits(f, x, 0, &(*mapb)[0], err));
  return PCOL_OK;
}

/* Location states (focus/ignore), hidden lines and hidden locations. */
static int name_filters(pcol_file *f, const pcol_select *sel, pcol_filter *out, pcol_error *err) {
  rx_set x;
  memset(&x, 0, sizeof x);
  const char *res[RX_N] = {sel->focus, sel->ignore, sel->hide, sel->show, sel->show_from};
  static const char *const what[RX_N] = {"focus", "ignore", "hide", "show", "show-from"};
  uint8_t *fnb = NULL, *mapb = NULL, *lst = NULL, *lsf = NULL;
  int rc = PCOL_OK;
  for (int r = 0; r < RX_N && !rc; r++)
    if (res[r]) {
      rc = pcol_rx_compile(&x.rx[r], what[r], res[r], err);
      x.have[r] = !rc;
    }
  if (!rc) rc = name_bits(f, &x, &fnb, &mapb, err);
  uint64_t nloc = pcol_rows(f, PCOL_T_LOCATIONS), nlines = pcol_rows(f, PCOL_T_LINES);
  uint64_t ns = pcol_rows(f, PCOL_T_STACKS), nfn = pcol_rows(f, PCOL_T_FUNCTIONS);
  uint64_t nmap = pcol_rows(f, PCOL_T_MAPPINGS);
  pcol_view loff, lmap, lfn, spar, sloc, mfile;
  pcol_column_req req[] = {{&mfile, PCOL_T_MAPPINGS, PCOL_C_MAP_FILENAME},
                           {&loff, PCOL_T_LOCATIONS, PCOL_C_LOC_LINE_OFFSETS},
                           {&lmap, PCOL_T_LOCATIONS, PCOL_C_LOC_MAPPING},
                           {&lfn, PCOL_T_LINES, PCOL_C_LINE_FUNCTION},
                           {&spar, PCOL_T_STACKS, PCOL_C_STACK_PARENT},
                           {&sloc, PCOL_T_STACKS, PCOL_C_STACK_LOCATION}};
  if (!rc) rc = pcol_columns(f, req, PCOL_NCOLS(req), err);
  int sfrom = x.have[RX_SFROM];
  int hiding = x.have[RX_HIDE] || x.have[RX_SHOW] || sel->no_inlines || sfrom;
  if (!rc) {
    lst = calloc(nloc + 1, 1);
    out->loc_bits = calloc(nloc + 1, 1);
    out->node_keep = calloc(ns + 1, 1);
    if (hiding) {
      out->line_hidden = calloc(nlines ? nlines : 1, 1);
      out->loc_hidden = calloc(nloc + 1, 1);
    }
    if (sfrom) {
      lsf = calloc(nloc + 1, 1);
      out->node_cut = calloc(ns + 1, 1);
    }
    if (!lst || !out->loc_bits || !out->node_keep || (hiding && (!out->line_hidden || !out->loc_hidden)) ||
        (sfrom && (!lsf || !out->node_cut)))
      rc = pcol_oom(err);
  }
  for (uint64_t loc = 1; !rc && loc <= nloc; loc++) {
    uint64_t a = pcol_view_u64(&loff, loc - 1), e = pcol_view_u64(&loff, loc);
    if (e > nlines) e = nlines;
    if (a > e) a = e;
    uint32_t m = pcol_view_u32(&lmap, loc - 1), msid;
    uint8_t mb = pcol_filter_loc_mapping(f, &mfile, nmap, loc, m, &msid) ? mapb[nmap ? m : 0] : 0, any = mb;
    for (uint64_t li = a; li < e; li++) {
      uint32_t fn = pcol_view_u32(&lfn, li);
      if (fn && fn <= nfn) any |= fnb[fn];
    }
    if (x.have[RX_IGNORE] && (any & (1u << RX_IGNORE))) {
      lst[loc] = ST_IGNORE;
      out->loc_bits[loc] |= 1u << RX_IGNORE;
    } else if (!x.have[RX_FOCUS] || (any & (1u << RX_FOCUS))) {
      lst[loc] = ST_FOCUS;
      out->loc_bits[loc] |= 1u << RX_FOCUS;
    }
    if (!hiding) continue;
    uint64_t left = e - a;
    if (x.have[RX_HIDE] && (any & (1u << RX_HIDE))) {
      out->loc_bits[loc] |= 1u << RX_HIDE;
      for (uint64_t li = a; li < e; li++) {
        uint32_t fn = pcol_view_u32(&lfn, li);
        int hit = (mb & (1u << RX_HIDE)) || (fn && fn <= nfn && (fnb[fn] & (1u << RX_HIDE)));
        if (hit) {
          out->line_hidden[li] = 1;
          left--;
        }
      }
      if (left == 0) out->loc_hidden[loc] = 1;
    }
    if (x.have[RX_SHOW] && !out->loc_hidden[loc]) {
      if (!(mb & (1u << RX_SHOW)))
        for (uint64_t li = a; li < e; li++) {
          uint32_t fn = pcol_view_u32(&lfn, li);
          if (out->line_hidden[li] || !fn || fn > nfn || (fnb[fn] & (1u << RX_SHOW))) continue;
          out->line_hidden[li] = 1;
          left--;
        }
      if (left == 0) out->loc_hidden[loc] = 1;
      else out->loc_bits[loc] |= 1u << RX_SHOW;
    }
    /* show_from (pprof's ShowFrom, after hide/show): a location whose
     * mapping's file matches keeps its lines; else its outermost line left
     * that matches keeps it and the lines inner to it */
    /* (pprof's ShowFrom still matches a location hide/show emptied by its
     * mapping: a match it warns by, that keeps nothing) */
    if (sfrom && out->loc_hidden[loc] && (mb & (1u << RX_SFROM))) out->loc_bits[loc] |= 1u << RX_SFROM;
    if (sfrom && !out->loc_hidden[loc]) {
      if (mb & (1u << RX_SFROM)) {
        lsf[loc] = 1;
      } else {
        for (uint64_t li = e; li-- > a;) {
          uint32_t fn = pcol_view_u32(&lfn, li);
          if (out->line_hidden[li] || !fn || fn > nfn || !(fnb[fn] & (1u << RX_SFROM))) continue;
          lsf[loc] = 1;
          for (uint64_t o = li + 1; o < e; o++) out->line_hidden[o] = 1;
          break;
        }
      }
      if (lsf[loc]) out->loc_bits[loc] |= 1u << RX_SFROM;
    }
    if (sel->no_inlines && !out->loc_hidden[loc]) { /* the outermost line left stays */
      uint64_t last = e;
      while (last > a && out->line_hidden[last - 1]) last--;
      for (uint64_t li = a; li + 1 < last; li++) out->line_hidden[li] = 1;
    }
  }
  for (uint64_t loc = 1; !rc && loc <= nloc; loc++) out->matched |= out->loc_bits[loc];
  /* stack nodes: parents precede children (checked by pcol_column) */
  if (!rc) {
    uint8_t *st = out->node_state = calloc(ns + 1, 1); /* node 0, no location: no state */
    if (!st) rc = pcol_oom(err);
    for (uint64_t n = 1; !rc && n <= ns; n++) {
      uint32_t p = pcol_view_u32(&spar, n - 1), loc = pcol_view_u32(&sloc, n - 1);
      if (p >= n || loc > nloc) {
        rc = pcol_error_set(err, PCOL_ECORRUPT, "stack node %llu has a bad parent or location",
                            (unsigned long long)n);
        break;
      }
      uint8_t ps = p ? st[p] : 0, ls = lst[loc];
      uint8_t s = (uint8_t)((ps | ls) & 3);
      if (!hiding || (p && (ps & NS_VISIBLE)) || !out->loc_hidden[loc]) s |= NS_VISIBLE;
      st[n] = s;
      out->node_keep[n] = (s & 3) == ST_FOCUS && (s & NS_VISIBLE);
      if (sfrom) { /* kept from the outermost match down; a stack without one goes */
        int kept = (lsf[loc] && !out->loc_hidden[loc]) || (p && !out->node_cut[p]);
        out->node_cut[n] = !kept;
        if (!kept) out->node_keep[n] = 0;
      }
      if (!sfrom || !out->node_cut[n]) st[n] |= NS_FROM;
    }
  }
  for (int r = 0; r < RX_N; r++)
    if (x.have[r]) pcol_rx_free(&x.rx[r]);
  free(x.buf);
  free(fnb);
  free(mapb);
  free(lst);
  free(lsf);
  return rc;
}

/* ---------------------------------------------------------------- labels */
void pcol_label_keys_free(pcol_label_keys *k) {
  free(k->kind);
  free(k->unit);
  memset(k, 0, sizeof *k);
}

int pcol_label_keys_load(pcol_file *f, pcol_label_keys *k, pcol_error *err) {
  memset(k, 0, sizeof *k);
  uint64_t nlabels = pcol_rows(f, PCOL_T_LABELS);
  k->nstr = pcol_rows(f, PCOL_T_STRINGS);
  pcol_view lkey, lstr, lunit;
  pcol_column_req req[] = {{&lkey, PCOL_T_LABELS, PCOL_C_LB_KEY},
                           {&lstr, PCOL_T_LABELS, PCOL_C_LB_STR},
                           {&lunit, PCOL_T_LABELS, PCOL_C_LB_UNIT}};
  PCOL_RETURN_NOT_OK(pcol_columns(f, req, PCOL_NCOLS(req), err));
  k->kind = calloc(k->nstr + 1, 1);
  k->unit = calloc(k->nstr + 1, sizeof *k->unit);
  if (!k->kind || !k->unit) return pcol_oom(err);
  for (uint64_t i = 0; i < nlabels; i++) {
    uint32_t key = pcol_view_u32(&lkey, i);
    if (!key || key > k->nstr) continue;
    if (pcol_view_u32(&lstr, i)) {
      k->kind[key] |= 1;
      continue;
    }
    k->kind[key] |= 2;
    uint32_t u = pcol_view_u32(&lunit, i);
    if (!k->unit[key] && u) {
      pcol_str us;
      PCOL_RETURN_NOT_OK(pcol_string(f, u, &us, err));
      if (us.ptr && us.len) k->unit[key] = u;
    }
  }
  return PCOL_OK;
}

/* Appends n bytes of p to buf (cap) at *len, counting past cap. */
static void put(char *buf, size_t cap, size_t *len, const char *p, size_t n) {
  for (size_t i = 0; i < n; i++, (*len)++)
    if (*len < cap) buf[*len] = p[i];
}

static int str_cmp(pcol_str a, pcol_str b) {
  size_t n = a.len < b.len ? a.len : b.len;
  int c = n ? memcmp(a.ptr, b.ptr, n) : 0;
  return c ? c : (a.len > b.len) - (a.len < b.len);
}

typedef struct key_unit { /* a (numeric key, unit) pair of the labels table */
  pcol_str key, unit;
  uint64_t first; /* the first label row that gives it */
} key_unit;

static int key_unit_cmp(const void *pa, const void *pb) {
  const key_unit *a = pa, *b = pb;
  int c = str_cmp(a->key, b->key);
  if (!c) c = (a->first > b->first) - (a->first < b->first); /* the first given leads */
  return c;
}

static int unit_cmp(const void *pa, const void *pb) {
  return str_cmp(((const key_unit *)pa)->unit, ((const key_unit *)pb)->unit);
}

static int key_unit_row_cmp(const void *pa, const void *pb) {
  const key_unit *a = pa, *b = pb;
  int c = str_cmp(a->key, b->key);
  if (!c) c = str_cmp(a->unit, b->unit);
  if (!c) c = (a->first > b->first) - (a->first < b->first);
  return c;
}

/* pprof's identifyNumLabelUnits: the (key, unit) pairs of the labels
 * table, each once, sorted by key and then by where it is first given;
 * a key with more than one unit is a line. */
size_t pcol_label_unit_warnings(pcol_file *f, char *buf, size_t cap, pcol_error *err) {
  if (!f) return 0;
  uint64_t nlabels = pcol_rows(f, PCOL_T_LABELS);
  pcol_view lkey, lstr, lunit;
  pcol_column_req req[] = {{&lkey, PCOL_T_LABELS, PCOL_C_LB_KEY},
                           {&lstr, PCOL_T_LABELS, PCOL_C_LB_STR},
                           {&lunit, PCOL_T_LABELS, PCOL_C_LB_UNIT}};
  if (pcol_columns(f, req, PCOL_NCOLS(req), err)) return 0;
  key_unit *ku = NULL;
  size_t n = 0, len = 0, have = 0;
  int rc = PCOL_OK;
  for (uint64_t i = 0; i < nlabels && !rc; i++) {
    uint32_t key = pcol_view_u32(&lkey, i), u = pcol_view_u32(&lunit, i);
    if (!key || !u || pcol_view_u32(&lstr, i)) continue;
    pcol_str k, us;
    if ((rc = pcol_string(f, key, &k, err)) || (rc = pcol_string(f, u, &us, err))) break;
    if (!us.ptr || !us.len) continue;
    if (n == have) {
      size_t nh = have ? 2 * have : 8;
      key_unit *g = realloc(ku, nh * sizeof *g);
      if (!g) {
        rc = pcol_oom(err);
        break;
      }
      ku = g, have = nh;
    }
    ku[n++] = (key_unit){k, us, i};
  }
  /* each (key, unit) once, at its first row: sorted by key, unit, row */
  if (!rc && n > 1) qsort(ku, n, sizeof *ku, key_unit_row_cmp);
  size_t m = 0;
  for (size_t i = 0; !rc && i < n; i++)
    if (!m || str_cmp(ku[m - 1].key, ku[i].key) || str_cmp(ku[m - 1].unit, ku[i].unit)) ku[m++] = ku[i];
  n = m;
  if (!rc && n > 1) qsort(ku, n, sizeof *ku, key_unit_cmp);
  for (size_t a = 0; !rc && a < n;) {
    size_t e = a + 1;
    while (e < n && !str_cmp(ku[e].key, ku[a].key)) e++;
    if (e - a > 1) {
      /* the others in Go's sort.Strings order (bytes) */
      qsort(ku + a + 1, e - a - 1, sizeof *ku, unit_cmp);
      put(buf, cap, &len, "For tag ", 8);
      put(buf, cap, &len, ku[a].key.ptr, ku[a].key.len);
      put(buf, cap, &len, " used unit ", 11);
      put(buf, cap, &len, ku[a].unit.ptr, ku[a].unit.len);
      put(buf, cap, &len, ", also encountered unit(s) ", 27);
      for (size_t x = a + 1; x < e; x++) {
        if (x > a + 1) put(buf, cap, &len, ", ", 2);
        put(buf, cap, &len, ku[x].unit.ptr, ku[x].unit.len);
      }
      put(buf, cap, &len, "\n", 1);
    }
    a = e;
  }
  free(ku);
  return rc ? 0 : len;
}

/* The string id of key (0 when no label has it). */
static int key_find(pcol_file *f, const pcol_label_keys *k, pcol_str key, uint32_t *id,
                    pcol_error *err) {
  *id = 0;
  for (uint64_t s = 1; s <= k->nstr; s++) {
    if (!k->kind[s]) continue;
    pcol_str t;
    PCOL_RETURN_NOT_OK(pcol_string(f, (uint32_t)s, &t, err));
    if (t.ptr && t.len == key.len && !memcmp(t.ptr, key.ptr, key.len)) {
      *id = (uint32_t)s;
      break;
    }
  }
  return PCOL_OK;
}

/* Up to max bytes of s into dst (cap bytes, NUL-terminated) for a message
 * on a terminal: control bytes as \xNN. */
static void msg_str(char *dst, size_t cap, const char *p, size_t len, size_t max) {
  size_t o = 0;
  for (size_t i = 0; p && i < len && i < max && o + 5 < cap; i++) {
    unsigned char c = (unsigned char)p[i];
    if (c < 0x20 || c == 0x7f) o += (size_t)snprintf(dst + o, cap - o, "\\x%02x", c);
    else dst[o++] = (char)c;
  }
  dst[o] = 0;
}

/* ENOTFOUND: "WHAT: no label KEY in this file; its label keys: a, b
 * (numeric)" -- an unknown key is an error, not an empty answer. */
static int key_missing(pcol_file *f, const pcol_label_keys *k, const char *what, pcol_str key,
                       pcol_error *err) {
  char list[360]; /* the message holds 512 bytes */
  size_t n = 0;
  int count = 0;
  list[0] = 0;
  for (uint64_t s = 1; s <= k->nstr && n + 8 < sizeof list; s++) {
    if (!k->kind[s]) continue;
    pcol_str t;
    PCOL_RETURN_NOT_OK(pcol_string(f, (uint32_t)s, &t, err));
    char name[256];
    msg_str(name, sizeof name, t.ptr, t.len, 60);
    int w = snprintf(list + n, sizeof list - n, "%s%s%s", count ? ", " : "", name,
                     k->kind[s] == 2 ? " (numeric)" : "");
    if (w < 0 || (size_t)w >= sizeof list - n) {
      snprintf(list + n, sizeof list - n, ", ...");
      break;
    }
    n += (size_t)w;
    count++;
  }
  char kn[512];
  msg_str(kn, sizeof kn, key.ptr, key.len, 100);
  if (!count)
    return pcol_error_set(err, PCOL_ENOTFOUND, "%s: no label '%s': this file has no labels", what,
                          kn);
  return pcol_error_set(err, PCOL_ENOTFOUND, "%s: no label '%s' in this file; its label keys: %s",
                        what, kn, list);
}

int pcol_label_key_check(pcol_file *f, const char *what, const char *key, pcol_error *err) {
  pcol_label_keys k;
  uint32_t id = 0;
  pcol_str ks = {key, strlen(key)};
  int rc = pcol_label_keys_load(f, &k, err);
  if (!rc) rc = key_find(f, &k, ks, &id, err);
  if (!rc && !id) rc = key_missing(f, &k, what, ks, err);
  pcol_label_keys_free(&k);
  return rc;
}

/* pprof's numeric range (driver_focus.go parseTagFilterRange): "32kb"
 * (equal), ":64kb" (at most), "4mb:" (at least), "12kb:64mb" (both
 * included); a number is [+-]digits and an optional unit of letters.  The
 * bounds are in the first number's unit (measurement.Scale), and a label
 * value counts when, converted to that unit from its key's unit, it has
 * that unit's name and lies in the range: a value in another family never
 * matches. */
enum { NR_EQ = 1, NR_GE, NR_LE, NR_IN };
typedef struct num_range {
  int op; /* 0: not a range (a regular expression) */
  double lo, hi;
  char unit[16]; /* the canonical unit the bounds are in ("" for a count) */
} num_range;

/* The next match of ([+-]?[0-9]+)([A-Za-z]+)? in s from *pos. */
static int num_token(const char *s, size_t *pos, size_t *ms, size_t *me, size_t *ue) {
  for (size_t i = *pos; s[i]; i++) {
    size_t j = i;
    if ((s[j] == '+' || s[j] == '-') && isdigit((unsigned char)s[j + 1])) j++;
    if (!isdigit((unsigned char)s[j])) continue;
    while (isdigit((unsigned char)s[j])) j++;
    *ue = j;
    while (isalpha((unsigned char)s[*ue])) (*ue)++;
    *ms = i;
    *me = j;
    *pos = *ue;
    return 1;
  }
  return 0;
}

static int num_parse(const char *s, size_t a, size_t e, int64_t *v, const char *what,
                     pcol_error *err) {
  char b[32];
  if (e - a >= sizeof b) goto range;
  memcpy(b, s + a, e - a);
  b[e - a] = 0;
  errno = 0;
  char *end;
  long long x = strtoll(b, &end, 10);
  if (errno || *end) goto range;
  *v = x;
  return PCOL_OK;
range:
  return pcol_error_set(err, PCOL_EINVAL, "%s: the number '%.*s' is out of range", what,
                        (int)(e - a > 40 ? 40 : e - a), s + a);
}

static int range_parse(const char *what, const char *v, num_range *r, pcol_error *err) {
  memset(r, 0, sizeof *r);
  size_t pos = 0, m0, n0, u0, m1, n1, u1;
  if (!num_token(v, &pos, &m0, &n0, &u0)) return PCOL_OK;
  int two = num_token(v, &pos, &m1, &n1, &u1);
  size_t len = strlen(v), l0 = u0 - m0;
  int op = 0;
  if (!two) {
    if (m0 == 0 && len == l0) op = NR_EQ;
    else if (m0 == 0 && len == l0 + 1 && v[l0] == ':') op = NR_GE;
    else if (m0 == 1 && v[0] == ':' && len == l0 + 1) op = NR_LE;
  } else if (m0 == 0 && v[u0] == ':' && m1 == u0 + 1 && u1 == len) {
    op = NR_IN;
  }
  if (!op) return PCOL_OK;
  int64_t x, y;
  char u[32] = "";
  PCOL_RETURN_NOT_OK(num_parse(v, m0, n0, &x, what, err));
  if (u0 - n0 >= sizeof u) return PCOL_OK; /* no unit is that long: not one */
  memcpy(u, v + n0, u0 - n0);
  u[u0 - n0] = 0;
  const char *cu;
  r->lo = r->hi = pcol_unit_scale(x, (pcol_str){u, strlen(u)}, u, &cu);
  snprintf(r->unit, sizeof r->unit, "%s", cu);
  if (op == NR_IN) {
    PCOL_RETURN_NOT_OK(num_parse(v, m1, n1, &y, what, err));
    if (u1 - n1 >= sizeof u) return PCOL_OK;
    memcpy(u, v + n1, u1 - n1);
    u[u1 - n1] = 0;
    const char *cu2;
    r->hi = pcol_unit_scale(y, (pcol_str){u, strlen(u)}, r->unit, &cu2);
    if (strcmp(cu2, r->unit)) return PCOL_OK; /* pprof: then not a range */
  }
  r->op = op;
  return PCOL_OK;
}

/* Does a label value (its key's unit ku) fall in r? */
static int range_has(const num_range *r, int64_t v, pcol_str ku) {
  const char *su;
  double x = pcol_unit_scale(v, ku, r->unit, &su);
  if (strcmp(su, r->unit)) return 0;
  switch (r->op) {
  case NR_EQ: return x == r->lo;
  case NR_GE: return x >= r->lo;
  case NR_LE: return x <= r->lo;
  default: return x >= r->lo && x <= r->hi;
  }
}

typedef struct tag_filter {
  pcol_str key; /* {NULL,0}: match "key:value" (or any numeric key) */
  uint32_t key_id;
  int none; /* a key no label of the file has: no label set matches (pprof warns) */
  num_range num; /* num.op: a numeric range instead of the expressions */
  pcol_rx *rx;
  int n;
} tag_filter;

static void tag_free(tag_filter *t) {
  for (int i = 0; i < t->n; i++) pcol_rx_free(&t->rx[i]);
  free(t->rx);
  memset(t, 0, sizeof *t);
}

static int tag_compile(pcol_file *f, const pcol_label_keys *ki, const char *what, const char *spec,
                       tag_filter *t, pcol_error *err) {
  memset(t, 0, sizeof *t);
  const char *eq = strchr(spec, '='), *vals = spec;
  if (eq) {
    t->key.ptr = spec;
    t->key.len = (size_t)(eq - spec);
    vals = eq + 1;
    PCOL_RETURN_NOT_OK(key_find(f, ki, t->key, &t->key_id, err));
    /* a key of no label matches nothing, as in pprof, which then warns
     * "TagFocus expression matched no samples" (pcol_filter_warnings) */
    t->none = !t->key_id;
  }
  PCOL_RETURN_NOT_OK(range_parse(what, vals, &t->num, err));
  if (t->num.op) { /* a range, as pprof reads it ("Interpreted ... as range") */
    if (t->none) return PCOL_OK;
    if (t->key.ptr && !(ki->kind[t->key_id] & 2))
      return pcol_error_set(err, PCOL_EINVAL,
                            "%s: '%s' is a numeric range (as in pprof -tagfocus), but label "
                            "'%.*s' has only strings; to match the string write '%.*s=^%s$'",
                            what, vals, (int)t->key.len, t->key.ptr, (int)t->key.len,
                            t->key.ptr, vals);
    if (!t->key.ptr) {
      int any = 0;
      for (uint64_t s = 1; s <= ki->nstr && !any; s++) any = (ki->kind[s] & 2) != 0;
      if (!any)
        return pcol_error_set(err, PCOL_EINVAL,
                              "%s: '%s' is a numeric range (as in pprof -tagfocus), but this "
                              "file has no numeric labels",
                              what, vals);
    }
    return PCOL_OK;
  }
  int cap = 1;
  for (const char *p = vals; *p; p++) cap += *p == ',';
  t->rx = calloc((size_t)cap, sizeof *t->rx);
  if (!t->rx) return pcol_oom(err);
  const char *p = vals;
  for (;;) {
    const char *c = strchr(p, ',');
    size_t len = c ? (size_t)(c - p) : strlen(p);
    char *one = malloc(len + 1);
    if (!one) return pcol_oom(err);
    memcpy(one, p, len);
    one[len] = 0;
    int rc = pcol_rx_compile(&t->rx[t->n], what, one, err);
    free(one);
    if (rc) return rc;
    t->n++;
    if (!c) break;
    p = c + 1;
  }
  return PCOL_OK;
}

typedef struct tag_cols {
  pcol_view lsoff, lkey, lstr, lnum;
  uint64_t nlabels;
  const pcol_label_keys *ki;
} tag_cols;

int pcol_label_key_unit(pcol_file *f, const pcol_label_keys *ki, uint32_t key, pcol_str *u,
                        pcol_error *err) {
  if (key <= ki->nstr && ki->unit[key]) return pcol_string(f, ki->unit[key], u, err);
  PCOL_RETURN_NOT_OK(pcol_string(f, key, u, err));
  if (pcol_str_is(*u, "alignment") || pcol_str_is(*u, "request")) *u = (pcol_str){"bytes", 5};
  return PCOL_OK;
}

/* Does label set `ls` pass t (pprof's compileTagFilter)? */
static int tag_match(pcol_file *f, const tag_filter *t, const tag_cols *c, uint32_t ls,
                     char **buf, size_t *cap, int *out, pcol_error *err) {
  *out = 0;
  if (t->none) return PCOL_OK;
  uint64_t a = 0, e = 0;
  if (ls) {
    a = pcol_view_u64(&c->lsoff, ls - 1);
    e = pcol_view_u64(&c->lsoff, ls);
    if (e > c->nlabels) e = c->nlabels;
    if (a > e) a = e;
  }
  uint64_t seen = 0; /* key:value mode: which regexes matched (first 64) */
  for (uint64_t i = a; i < e; i++) {
    uint32_t vs = pcol_view_u32(&c->lstr, i), kid = pcol_view_u32(&c->lkey, i);
    if (t->num.op) {
      if (vs || (t->key.ptr && kid != t->key_id)) continue;
      pcol_str ku;
      PCOL_RETURN_NOT_OK(pcol_label_key_unit(f, c->ki, kid, &ku, err));
      if (range_has(&t->num, pcol_view_i64(&c->lnum, i), ku)) {
        *out = 1;
        return PCOL_OK;
      }
      continue;
    }
    if (!vs) continue; /* a numeric label */
    pcol_str k, v;
    PCOL_RETURN_NOT_OK(pcol_string(f, kid, &k, err));
    PCOL_RETURN_NOT_OK(pcol_string(f, vs, &v, err));
    if (t->key.ptr) {
      if (kid != t->key_id) continue;
      for (int r = 0; r < t->n; r++) {
        int m = pcol_rx_match(&t->rx[r], buf, cap, v);
        if (m < 0) return pcol_oom(err);
        if (m) {
          *out = 1;
          return PCOL_OK;
        }
      }
    } else {
      char tmp[1024];
      int n = snprintf(tmp, sizeof tmp, "%.*s:%.*s", (int)pcol_utf8_cut(k.ptr, k.len, 500),
                       k.ptr ? k.ptr : "", (int)pcol_utf8_cut(v.ptr, v.len, 500), v.ptr ? v.ptr : "");
      pcol_str kv = {tmp, (size_t)n};
      for (int r = 0; r < t->n && r < 64; r++) {
        int m = pcol_rx_match(&t->rx[r], buf, cap, kv);
        if (m < 0) return pcol_oom(err);
        if (m) seen |= UINT64_C(1) << r;
      }
    }
  }
  if (!t->key.ptr && !t->num.op) {
    int n = t->n < 64 ? t->n : 64;
    *out = seen == (n == 64 ? UINT64_MAX : (UINT64_C(1) << n) - 1);
  }
  return PCOL_OK;
}

static int tag_filters(pcol_file *f, const pcol_select *sel, pcol_filter *out, pcol_error *err) {
  tag_filter tf = {0}, ti = {0};
  pcol_label_keys ki;
  char *buf = NULL;
  size_t cap = 0;
  uint64_t nls = pcol_rows(f, PCOL_T_LABELSETS);
  tag_cols c = {.nlabels = pcol_rows(f, PCOL_T_LABELS), .ki = &ki};
  pcol_column_req req[] = {{&c.lsoff, PCOL_T_LABELSETS, PCOL_C_LS_OFFSETS},
                           {&c.lkey, PCOL_T_LABELS, PCOL_C_LB_KEY},
                           {&c.lstr, PCOL_T_LABELS, PCOL_C_LB_STR},
                           {&c.lnum, PCOL_T_LABELS, PCOL_C_LB_NUM}};
  int rc = pcol_label_keys_load(f, &ki, err);
  if (!rc) rc = pcol_columns(f, req, PCOL_NCOLS(req), err);
  if (!rc && sel->tag) rc = tag_compile(f, &ki, "tag", sel->tag, &tf, err);
  if (!rc && sel->tag_ignore) rc = tag_compile(f, &ki, "tag-ignore", sel->tag_ignore, &ti, err);
  if (!rc && !(out->ls_keep = calloc(nls + 1, 1))) rc = pcol_oom(err);
  for (uint64_t ls = 0; !rc && ls <= nls; ls++) {
    int keep = 1, ign = 0;
    if (sel->tag) rc = tag_match(f, &tf, &c, (uint32_t)ls, &buf, &cap, &keep, err);
    if (!rc && sel->tag_ignore) rc = tag_match(f, &ti, &c, (uint32_t)ls, &buf, &cap, &ign, err);
    /* bit 0: kept; 1: tag matched; 2: tag-ignore matched (pcol_filter_warnings) */
    out->ls_keep[ls] = (uint8_t)((keep && !ign) | (sel->tag && keep) << 1 | ign << 2);
  }
  tag_free(&tf);
  tag_free(&ti);
  pcol_label_keys_free(&ki);
  free(buf);
  return rc;
}

int pcol_filter_build(pcol_file *f, const pcol_select *sel, pcol_filter *out, pcol_error *err) {
  memset(out, 0, sizeof *out);
  if (!pcol_select_filtered(sel)) return PCOL_OK;
  int rc = pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_STACK, &out->s_stack, err);
  if (!rc) rc = pcol_column(f, PCOL_T_SAMPLES, PCOL_C_S_LABELSET, &out->s_labelset, err);
  out->nstacks = pcol_rows(f, PCOL_T_STACKS);
  out->nlabelsets = pcol_rows(f, PCOL_T_LABELSETS);
  if (!rc && (sel->focus || sel->ignore || sel->hide || sel->show || sel->show_from ||
              sel->no_inlines))
    rc = name_filters(f, sel, out, err);
  if (!rc && (sel->tag || sel->tag_ignore)) rc = tag_filters(f, sel, out, err);
  if (rc) {
    pcol_filter_free(out);
    return rc;
  }
  out->active = 1;
  return PCOL_OK;
}

int pcol_filter_keep(const pcol_filter *x, uint64_t row) {
  if (!x || !x->active) return 1;
  if (x->ls_root) { /* the stack's frames and the label set's root frame together */
    uint32_t s = pcol_view_u32(&x->s_stack, row), ls = pcol_view_u32(&x->s_labelset, row);
    if (s > x->nstacks || ls > x->nlabelsets) return 0;
    uint8_t a = x->node_state[s], b = x->ls_root[ls], ab = a | b;
    if ((ab & 3) != ST_FOCUS || !(ab & NS_VISIBLE)) return 0;
    if (x->node_cut && !(ab & NS_FROM)) return 0;
  } else if (x->node_keep) {
    uint32_t s = pcol_view_u32(&x->s_stack, row);
    if (s > x->nstacks || !x->node_keep[s]) return 0;
  } else if (!x->rooted && !pcol_view_u32(&x->s_stack, row)) {
    /* label filters alone: pprof's name filters run all the same (applyFocus,
     * before the label filters) and keep no sample without locations (the
     * root frame of pcol_filter_root gives it one) */
    return 0;
  }
  if (x->ls_keep) {
    uint32_t ls = pcol_view_u32(&x->s_labelset, row);
    if (ls > x->nlabelsets || !(x->ls_keep[ls] & 1)) return 0;
  }
  return 1;
}

int pcol_filter_root(pcol_filter *x, const pcol_select *sel, const pcol_str *names,
                     uint64_t nnames, const uint32_t *ls_name, pcol_str file, pcol_error *err) {
  if (x->active) x->rooted = 1;
  if (!x->active || !x->node_state) return PCOL_OK; /* no name filter: the frame only gives a stack */
  rx_set r;
  memset(&r, 0, sizeof r);
  const char *res[RX_N] = {sel->focus, sel->ignore, sel->hide, sel->show, sel->show_from};
  uint8_t *nb = calloc(nnames ? nnames : 1, 1);
  int rc = nb ? PCOL_OK : pcol_oom(err);
  if (!rc && !(x->ls_root = calloc(x->nlabelsets + 1, 1))) rc = pcol_oom(err);
  for (int i = 0; i < RX_N && !rc; i++)
    if (res[i]) {
      rc = pcol_rx_compile(&r.rx[i], "filter", res[i], err);
      r.have[i] = !rc;
    }
  uint8_t fb = 0; /* the regexes the frame's file (the key) matches */
  for (int i = 0; i < RX_N && !rc; i++) {
    int m = r.have[i] ? pcol_rx_match(&r.rx[i], &r.buf, &r.cap, file) : 0;
    if (m < 0) rc = pcol_oom(err);
    if (m > 0) fb |= (uint8_t)(1u << i);
  }
  for (uint64_t k = 0; k < nnames && !rc; k++) {
    uint8_t m = fb, st = 0;
    for (int i = 0; i < RX_N && !rc; i++) {
      int hit = r.have[i] ? pcol_rx_match(&r.rx[i], &r.buf, &r.cap, names[k]) : 0;
      if (hit < 0) rc = pcol_oom(err);
      if (hit > 0) m |= (uint8_t)(1u << i);
    }
    /* the rules name_filters applies to a location of one line */
    if (r.have[RX_IGNORE] && (m & (1u << RX_IGNORE))) st = ST_IGNORE;
    else if (!r.have[RX_FOCUS] || (m & (1u << RX_FOCUS))) st = ST_FOCUS;
    int vis = !(r.have[RX_HIDE] && (m & (1u << RX_HIDE))) && !(r.have[RX_SHOW] && !(m & (1u << RX_SHOW)));
    if (vis) st |= NS_VISIBLE;
    if (vis && r.have[RX_SFROM] && (m & (1u << RX_SFROM))) st |= NS_FROM;
    nb[k] = st;
  }
  for (uint64_t ls = 0; ls <= x->nlabelsets && !rc; ls++) {
    uint32_t k = ls_name[ls];
    if (k >= nnames) {
      rc = pcol_error_set(err, PCOL_EINVAL, "label set %llu has no root frame name", (unsigned long long)ls);
      break;
    }
    x->ls_root[ls] = nb[k];
    if ((nb[k] & 3) == ST_IGNORE) x->matched |= 1u << RX_IGNORE;
    if ((nb[k] & 3) == ST_FOCUS) x->matched |= 1u << RX_FOCUS;
    if (r.have[RX_HIDE] && !(nb[k] & NS_VISIBLE)) x->matched |= 1u << RX_HIDE;
    if (r.have[RX_SHOW] && (nb[k] & NS_VISIBLE)) x->matched |= 1u << RX_SHOW;
    if (nb[k] & NS_FROM) x->matched |= 1u << RX_SFROM;
  }
  for (int i = 0; i < RX_N; i++)
    if (r.have[i]) pcol_rx_free(&r.rx[i]);
  free(r.buf);
  free(nb);
  if (rc) {
    free(x->ls_root);
    x->ls_root = NULL;
  }
  return rc;
}

int pcol_filter_root_shown(const pcol_filter *x, uint64_t row) {
  if (!x || !x->active || !x->ls_root) return 1;
  uint32_t ls = pcol_view_u32(&x->s_labelset, row);
  if (ls > x->nlabelsets) return 0;
  uint8_t b = x->ls_root[ls];
  return (b & NS_VISIBLE) && (!x->node_cut || (b & NS_FROM));
}

void pcol_filter_free(pcol_filter *x) {
  free(x->node_keep);
  free(x->node_state);
  free(x->ls_root);
  free(x->line_hidden);
  free(x->loc_hidden);
  free(x->node_cut);
  free(x->ls_keep);
  free(x->loc_bits);
  memset(x, 0, sizeof *x);
}

/* pcol_filter_warnings: pprof's "matched" flags (applyFocus' fm, im, hm,
 * hnm, sfm, tfm, tim, tns, tnh) as bits 1 << RX_* and these */
enum { W_TFOCUS = RX_N, W_TIGNORE, W_TSHOW, W_THIDE, W_N };

typedef struct warn_ctx {
  pcol_view lsv, sv, wv, voff, vval; /* voff, vval: when the file has values */
  uint64_t nvalues;
  const pcol_filter *x;   /* the name filters (its ls_keep NULL) */
  const uint8_t *ls_keep; /* the label filters' bits (filter.c tag_filters), or NULL */
  uint8_t *node_used;     /* [stacks + 1] with name filters: a sample pprof keeps ends there */
  uint8_t *used;          /* [labelsets + 1]: a sample every filter keeps has it */
  uint64_t nls;
  unsigned bits;
} warn_ctx;

/* a sample the name filters keep */
static int warn_row(void *ctx, uint64_t row, int64_t num, int64_t den) {
  (void)num;
  (void)den;
  warn_ctx *w = ctx;
  uint32_t ls = pcol_view_u32(&w->lsv, row);
  if (ls > w->nls) return 0;
  /* pprof's name filters keep no sample without locations, given or not */
  if (!pcol_view_u32(&w->sv, row)) return 0;
  /* a sample whose every value is 0 is none to pprof (its merge drops it;
   * that samples of one stack and labels cancel is not looked at) */
  int nz = 0;
  uint64_t a = w->nvalues ? pcol_view_u64(&w->voff, row) : 0, e = w->nvalues ? pcol_view_u64(&w->voff, row + 1) : 0;
  if (e > w->nvalues) e = w->nvalues;
  for (uint64_t i = a; i < e && !nz; i++) nz = pcol_view_i64(&w->vval, i) != 0;
  if (a >= e) nz = pcol_view_i64(&w->wv, row) != 0; /* no stored values (not pprof's): the weight */
  if (!nz) return 0;
  if (w->node_used) w->node_used[pcol_view_u32(&w->sv, row)] = 1; /* (checked by pcol_column) */
  if (!pcol_filter_keep(w->x, row)) return 0;
  uint8_t b = w->ls_keep ? w->ls_keep[ls] : 1;
  if (b & 2) w->bits |= 1u << W_TFOCUS;
  if (b & 4) w->bits |= 1u << W_TIGNORE;
  if (b & 1) w->used[ls] = 1;
  return 0;
}

/* tag_show and tag_hide against the keys of the label sets w->used marks */
static int warn_keys(pcol_file *f, const pcol_select *sel, warn_ctx *w, pcol_error *err) {
  pcol_label_keys ki;
  pcol_view lsoff, lkey;
  pcol_rx rx[2];
  int have[2] = {0, 0};
  const char *re[2] = {sel->tag_show, sel->tag_hide};
  char *buf = NULL;
  size_t cap = 0;
  uint8_t *hit = NULL;
  uint64_t nlab = pcol_rows(f, PCOL_T_LABELS);
  pcol_column_req req[] = {{&lsoff, PCOL_T_LABELSETS, PCOL_C_LS_OFFSETS}, {&lkey, PCOL_T_LABELS, PCOL_C_LB_KEY}};
  int rc = pcol_label_keys_load(f, &ki, err);
  if (rc) return rc;
  if (!(rc = pcol_columns(f, req, PCOL_NCOLS(req), err)) && !(hit = calloc(ki.nstr + 1, 1))) rc = pcol_oom(err);
  for (uint64_t ls = 1; !rc && ls <= w->nls; ls++) {
    if (!w->used[ls]) continue;
    uint64_t a = pcol_view_u64(&lsoff, ls - 1), e = pcol_view_u64(&lsoff, ls);
    if (e > nlab) e = nlab;
    for (uint64_t i = a; i < e; i++) {
      uint32_t k = pcol_view_u32(&lkey, i);
      if (k <= ki.nstr) hit[k] = 1;
    }
  }
  for (int j = 0; j < 2 && !rc; j++)
    if (re[j]) have[j] = !(rc = pcol_rx_compile(&rx[j], j ? "taghide" : "tagshow", re[j], err));
  for (uint64_t k = 1; !rc && k <= ki.nstr; k++) {
    if (!hit[k]) continue;
    pcol_str name;
    if ((rc = pcol_string(f, (uint32_t)k, &name, err))) break;
    for (int j = 0; j < 2 && !rc; j++) {
      int m = have[j] ? pcol_rx_match(&rx[j], &buf, &cap, name) : 0;
      if (m < 0) rc = pcol_oom(err);
      if (m > 0) w->bits |= 1u << (j ? W_THIDE : W_TSHOW);
    }
  }
  for (int j = 0; j < 2; j++)
    if (have[j]) pcol_rx_free(&rx[j]);
  free(buf);
  free(hit);
  pcol_label_keys_free(&ki);
  return rc;
}

/* the flags of one file */
static int warn_bits(pcol_file *f, const pcol_select *sel, unsigned *bits, pcol_error *err) {
  pcol_filter x;
  PCOL_RETURN_NOT_OK(pcol_filter_build(f, sel, &x, err));
  warn_ctx w = {.ls_keep = x.ls_keep, .nls = pcol_rows(f, PCOL_T_LABELSETS)};
  x.ls_keep = NULL; /* the name filters alone: pprof's tag filters see their survivors */
  w.nvalues = pcol_rows(f, PCOL_T_VALUES);
  pcol_column_req req[] = {{&w.lsv, PCOL_T_SAMPLES, PCOL_C_S_LABELSET}, {&w.wv, PCOL_T_SAMPLES, PCOL_C_S_WEIGHT},
                           {&w.sv, PCOL_T_SAMPLES, PCOL_C_S_STACK}, {&w.voff, PCOL_T_SAMPLES, PCOL_C_S_VALUE_OFFSETS}, {&w.vval, PCOL_T_VALUES, PCOL_C_V_VALUE}};
  int rc = pcol_columns(f, req, w.nvalues ? 5 : 3, err);
  if (!rc && !(w.used = calloc(w.nls + 1, 1))) rc = pcol_oom(err);
  uint64_t ns = pcol_rows(f, PCOL_T_STACKS);
  w.x = &x;
  if (!rc && x.loc_bits && !(w.node_used = calloc(ns + 1, 1))) rc = pcol_oom(err);
  if (!rc) rc = pcol_select_iter_filter(f, sel, NULL, warn_row, &w, err);
  if (!rc && (sel->tag_show || sel->tag_hide)) rc = warn_keys(f, sel, &w, err);
  if (!rc && x.loc_bits) { /* pprof's: of the locations of the samples its merge keeps */
    pcol_view spar, sloc;
    uint64_t nloc = pcol_rows(f, PCOL_T_LOCATIONS);
    pcol_column_req sreq[] = {{&spar, PCOL_T_STACKS, PCOL_C_STACK_PARENT}, {&sloc, PCOL_T_STACKS, PCOL_C_STACK_LOCATION}};
    rc = pcol_columns(f, sreq, PCOL_NCOLS(sreq), err);
    for (uint64_t n = ns; !rc && n >= 1; n--) {
      if (!w.node_used[n]) continue;
      uint32_t p = pcol_view_u32(&spar, n - 1), loc = pcol_view_u32(&sloc, n - 1);
      if (p < n) w.node_used[p] = 1; /* (parents precede children: name_filters checked) */
      if (loc <= nloc) w.bits |= x.loc_bits[loc];
    }
  }
  *bits |= w.bits;
  x.ls_keep = (uint8_t *)w.ls_keep;
  pcol_filter_free(&x);
  free(w.used);
  free(w.node_used);
  return rc;
}

size_t pcol_filter_warnings(pcol_file *const *f, size_t n, const pcol_select *sel, char *buf,
                            size_t cap, pcol_error *err) {
  return pcol_filter_warnings_sides(f, n, sel, NULL, buf, cap, err);
}

size_t pcol_filter_warnings_sides(pcol_file *const *f, size_t n, const pcol_select *sel,
                                  const pcol_select *const *sels, char *buf, size_t cap, pcol_error *err) {
  static const char *const what[W_N] = {"Focus", "Ignore", "Hide", "Show", "ShowFrom",
                                        "TagFocus", "TagIgnore", "TagShow", "TagHide"};
  if (!sel) return 0;
  const char *given[W_N] = {sel->focus, sel->ignore, sel->hide, sel->show, sel->show_from,
                            sel->tag, sel->tag_ignore, sel->tag_show, sel->tag_hide};
  int any = 0;
  for (int i = 0; i < W_N; i++) any |= given[i] != NULL;
  if (!any) return 0;
  unsigned bits = 0;
  for (size_t i = 0; i < n; i++)
    if (warn_bits(f[i], sels && sels[i] ? sels[i] : sel, &bits, err)) return 0;
  size_t len = 0;
  /* first what pprof's compileTagFilter says as it reads a range */
  for (int i = W_TFOCUS; i <= W_TIGNORE; i++) {
    const char *v = given[i], *eq = v ? strchr(v, '=') : NULL, *name = i == W_TFOCUS ? "tagfocus" : "tagignore";
    num_range r;
    pcol_error ignored = {0};
    if (!v || range_parse(name, eq ? eq + 1 : v, &r, &ignored) || !r.op) continue;
    v = eq ? eq + 1 : v;
    put(buf, cap, &len, name, strlen(name));
    put(buf, cap, &len, ":Interpreted '", 14);
    put(buf, cap, &len, v, strlen(v));
    put(buf, cap, &len, "' as range, not regexp\n", 23);
  }
  for (int i = 0; i < W_N; i++) {
    if (!given[i] || (bits & (1u << i))) continue;
    put(buf, cap, &len, what[i], strlen(what[i]));
    put(buf, cap, &len, " expression matched no samples\n", 31);
  }
  return len;
}
