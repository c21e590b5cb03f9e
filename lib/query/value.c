/* value.c — which number a view adds up: pcol_value_resolve turns a value
 * name (NULL for the default, "weight", "samples", "rprof.alloc", TYPE or
 * TYPE/UNIT) into a value_types id and its names.  Cost model: a few passes
 * over the small tables (value_types, source_value_types, meta, sources),
 * each O(rows) with one allocation per source at most; no sample is read.
 * The per-source defaults take one pass over meta and one over
 * source_value_types for all selected sources together. */
#include "query.h"
#include "keys.h"     /* PCOL_VALUE_RPROF_ALLOC, PCOL_VT_CPU, PCOL_UNIT_NANOSECONDS, ... */
#include "error.h"    /* PCOL_RETURN_NOT_OK, pcol_oom */
#include "bytes.h"    /* pcol_str_is, pcol_str_same */
#include "count.h"    /* pcol_rtime, pcol_rtime_free, pcol_rtime_has, ... */
#include "wall.h"     /* pcol_wall_init, pcol_wall_run_end: THE recording rule */
#include "xvalues.h"  /* pcol_kin_column: THE union's column of a type of kin */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The value names the query level gives a meaning of its own. */
static const char VALUE_WEIGHT[] = "weight";   /* the weight column, unless a selected source stores "weight" */
static const char VALUE_WEIGHT_COLUMN[] = PCOL_VALUE_WEIGHT_COLUMN; /* always the weight column */
static const char VALUE_SAMPLES[] = PCOL_VT_SAMPLES; /* THE count rule (vt 0) */
static const char UNIT_COUNT[] = PCOL_UNIT_COUNT; /* the unit of both */
static const char UNIT_BYTES[] = "bytes";      /* the unit of PCOL_VALUE_RPROF_ALLOC */

static int vt_names(pcol_file *f, uint32_t vt, pcol_value_sel *out, pcol_error *err) {
  out->vt_id = vt;
  out->column = 0; /* (the type itself; pcol_q_value_of_vt's out may be uninitialised) */
  if (vt == 0 || vt == PCOL_VT_WEIGHT) {
    out->type = vt ? (pcol_str){VALUE_WEIGHT, sizeof VALUE_WEIGHT - 1}
                   : (pcol_str){VALUE_SAMPLES, sizeof VALUE_SAMPLES - 1};
    out->unit = (pcol_str){UNIT_COUNT, sizeof UNIT_COUNT - 1};
    return PCOL_OK;
  }
  if (vt == PCOL_VT_TIME) {
    out->type = (pcol_str){PCOL_VT_CPU, sizeof PCOL_VT_CPU - 1};
    out->unit = (pcol_str){PCOL_UNIT_NANOSECONDS, sizeof PCOL_UNIT_NANOSECONDS - 1};
    return PCOL_OK;
  }
  pcol_view ty, un;
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, &ty, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT, &un, err));
  PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&ty, vt - 1), &out->type, err));
  return pcol_string(f, pcol_view_u32(&un, vt - 1), &out->unit, err);
}

/* THE default value rule of the views: the selection's default, the one
 * rule in core (pcol_selection_default_type). */
static int default_of(pcol_file *f, const pcol_select *sel, uint32_t *chosen, int *differ,
                      pcol_error *err) {
  return pcol_selection_default_type(f, sel, chosen, differ, err);
}

static int resolve_default(pcol_file *f, const pcol_select *sel, pcol_value_sel *out,
                           pcol_error *err) {
  uint32_t chosen;
  PCOL_RETURN_NOT_OK(default_of(f, sel, &chosen, NULL, err));
  if (!chosen) PCOL_RETURN_NOT_OK(pcol_q_count_shown(f, err));
  PCOL_RETURN_NOT_OK(vt_names(f, chosen, out, err));
  return pcol_kin_default_column(f, sel, chosen, &out->column, err);
}

int pcol_value_defaults_differ(pcol_file *f, const pcol_select *sel, bool *differ,
                               pcol_error *err) {
  uint32_t chosen;
  int d = 0, rc = default_of(f, sel, &chosen, &d, err);
  *differ = d != 0;
  return rc;
}

/* ---- the note on a default of sources whose own defaults differ */

typedef struct note_kind { /* sources alike: type, what their count is, own default */
  pcol_str type, dtype, dunit;
  const char *counted;
  uint64_t n;
} note_kind;

enum { NOTE_KINDS = 8, NOTE_TYPES = 12 };

static int nput(pcol_buf *b, const char *s) { return pcol_buf_append(b, s, strlen(s)); }
static int nstr(pcol_buf *b, pcol_str s) { return s.ptr ? pcol_buf_append(b, s.ptr, s.len) : nput(b, "NA"); }
static int nname(pcol_buf *b, pcol_str t, pcol_str u) { /* TYPE/UNIT */
  return nstr(b, t) || nput(b, "/") || nstr(b, u);
}
static int nnum(pcol_buf *b, uint64_t n) {
  char num[24];
  snprintf(num, sizeof num, "%llu", (unsigned long long)n);
  return nput(b, num);
}

/* The samples note: how many sources of each kind (NOTE_KINDS at most,
 * then how many more), one pass over the sources (the count types asked
 * once: asked per source, it made many sources quadratic, issue 42 F9). */
static int note_samples(pcol_file *f, const pcol_select *sel, const char *what,
                        const char *advice, pcol_buf *b, pcol_error *err) {
  note_kind k[NOTE_KINDS];
  size_t nk = 0;
  uint64_t more = 0, n = pcol_rows(f, PCOL_T_SOURCES);
  pcol_view ty;
  pcol_value_sel c = {0};
  pcol_error q = {0};
  uint8_t *hc = NULL, *keep = NULL;
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE, &ty, err));
  PCOL_RETURN_NOT_OK(pcol_selection_sources(f, sel, &keep, err));
  if (pcol_value_resolve(f, NULL, PCOL_VT_SAMPLES "/" PCOL_UNIT_COUNT, &c, &q) ||
      pcol_value_sources(f, &c, &hc, &q)) {
    free(hc);
    hc = NULL;
  }
  for (uint64_t s = 1; s <= n; s++) {
    if (!keep[s]) continue;
    pcol_select one = {0};
    pcol_value_sel d;
    one.source_id = (uint32_t)s;
    note_kind x = {{0}, {0}, {0}, NULL, 1};
    if (pcol_string(f, pcol_view_u32(&ty, s - 1), &x.type, &q)) {
      /* damaged: the name stays empty (pcol_string clears it); it only names a source */
    }
    if (pcol_value_resolve(f, &one, NULL, &d, &q)) d = c;
    x.dtype = d.type, x.dunit = d.unit;
    x.counted = hc && hc[s] ? PCOL_VT_SAMPLES "/" PCOL_UNIT_COUNT
                : pcol_str_is(x.type, PCOL_SRC_RPROF) ? "ticks" : "rows (weight)";
    size_t i = 0;
    while (i < nk && !(pcol_str_same(k[i].type, x.type) && k[i].counted == x.counted &&
                       pcol_str_same(k[i].dtype, x.dtype) && pcol_str_same(k[i].dunit, x.dunit)))
      i++;
    if (i < nk) k[i].n++;
    else if (nk < NOTE_KINDS) k[nk++] = x;
    else more++;
  }
  free(hc);
  free(keep);
  int rc = nput(b, "the sources measure different values, so ") || nput(b, what) || nput(b, " (");
  for (size_t i = 0; !rc && i < nk; i++)
    rc = (i && nput(b, "; ")) || nnum(b, k[i].n) || nput(b, " ") || nstr(b, k[i].type) ||
         nput(b, k[i].n == 1 ? " source: " : " sources: ") || nput(b, k[i].counted) ||
         nput(b, ", default ") || nname(b, k[i].dtype, k[i].dunit);
  if (!rc && more) rc = nput(b, "; ") || nnum(b, more) || nput(b, " more of other kinds");
  if (!rc) rc = nput(b, "); ") || nput(b, advice);
  return rc ? pcol_oom(err) : PCOL_OK;
}

/* THE rule of the stated-default note: whether it tells the user
 * anything.  A selected source that lacks the stated default (has[s] = 0)
 * counts 0, as the recording meant, when it is a part of a recording
 * (THE recording rule, pcol_wall_run_end: meta pcol.recording_part) of
 * which a source has that default: a JFR recording's allocation and
 * native-method samples beside its execution samples' cpu, the normal
 * case, noted on every view, drowned the warnings.  *told = 1 when some
 * selected source lacking it is not: a lone source, or a recording none
 * of whose parts has it (a recording's allocation samples exported alone
 * and merged with another recording); only then is there a note. */
static int note_tells(pcol_file *f, const uint8_t *keep, const uint8_t *has, int *told, pcol_error *err) {
  pcol_wall w;
  *told = 0;
  PCOL_RETURN_NOT_OK(pcol_wall_init(f, &w, err));
  for (uint64_t s = 1, e; s <= w.n && !*told; s = e) {
    e = pcol_wall_run_end(&w, s);
    int any = 0, lacks = 0;
    for (uint64_t i = s; i < e; i++) {
      any |= has[i];
      lacks |= !has[i] && keep[i];
    }
    *told = lacks && !any;
  }
  pcol_wall_free(&w);
  return PCOL_OK;
}

/* The stated-default note: the value chosen, how many selected sources
 * lack it (their samples count 0), and the other values of the selected
 * sources (NOTE_TYPES at most), to name with --value; nothing when it
 * tells nothing (note_tells). */
static int note_stated(pcol_file *f, const pcol_select *sel, uint32_t chosen, const char *advice, pcol_buf *b,
                       pcol_error *err) {
  pcol_value_sel v;
  uint8_t *has = NULL, *keep = NULL;
  pcol_view ss, sv;
  PCOL_RETURN_NOT_OK(vt_names(f, chosen, &v, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_SOURCE, &ss, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_VALUE_TYPE, &sv, err));
  PCOL_RETURN_NOT_OK(pcol_value_sources(f, &v, &has, err));
  int told = 0, rc = pcol_selection_sources(f, sel, &keep, err);
  uint64_t n = pcol_rows(f, PCOL_T_SOURCES), nsel = 0, lack = 0;
  for (uint64_t s = 1; !rc && s <= n; s++) {
    if (!keep[s]) continue;
    nsel++;
    lack += !has[s];
  }
  if (!rc) rc = note_tells(f, keep, has, &told, err);
  free(has);
  if (rc || !told) {
    free(keep);
    return rc;
  }
  /* the other value types of the selected sources, in their first order */
  uint32_t other[NOTE_TYPES];
  size_t no = 0;
  uint64_t more = 0;
  for (uint64_t r = 0; r < pcol_rows(f, PCOL_T_SOURCE_VALUE_TYPES); r++) {
    uint32_t s = pcol_view_u32(&ss, r), t = pcol_view_u32(&sv, r);
    if (s < 1 || s > n || !keep[s] || t == chosen || !t) continue;
    size_t i = 0;
    while (i < no && other[i] != t) i++;
    if (i < no) continue;
    if (no < NOTE_TYPES) other[no++] = t;
    else more = 1; /* a type past the list: "..." */
  }
  free(keep);
  rc = nput(b, "the default is ") || nname(b, v.type, v.unit) ||
           nput(b, ", the sources' own stated default (" PCOL_META_DEFAULT_VALUE ")");
  if (!rc && lack)
    rc = nput(b, "; ") || nnum(b, lack) || nput(b, " of ") || nnum(b, nsel) ||
         nput(b, " sources lack it: their samples count 0");
  if (!rc && no) {
    rc = nput(b, "; other values: ");
    for (size_t i = 0; !rc && i < no; i++) {
      pcol_value_sel o;
      if ((rc = vt_names(f, other[i], &o, err))) return rc;
      rc = (i && nput(b, ", ")) || nname(b, o.type, o.unit);
    }
    if (!rc && more) rc = nput(b, ", ...");
    if (!rc) rc = nput(b, " (") || nput(b, advice ? advice : "name one with --value TYPE") || nput(b, ")");
  }
  return rc ? pcol_oom(err) : PCOL_OK;
}

int pcol_value_default_note(pcol_file *f, const pcol_select *sel, const char *what,
                            const char *advice, char **note, pcol_error *err) {
  uint32_t chosen;
  int d = 0;
  *note = NULL;
  PCOL_RETURN_NOT_OK(default_of(f, sel, &chosen, &d, err));
  if (!d) return PCOL_OK;
  pcol_buf b = {0};
  int rc = d == 1 || what ? note_samples(f, sel, what ? what : "the default is samples: each source's own count",
                                 advice ? advice : "name one with --value TYPE", &b, err)
                  : note_stated(f, sel, chosen, advice, &b, err);
  if (!rc && b.len && pcol_buf_append(&b, "", 1)) rc = pcol_oom(err);
  if (rc || !b.len) { /* (nothing written: a note that tells nothing) */
    pcol_buf_free(&b);
    return rc;
  }
  *note = (char *)b.data;
  return PCOL_OK;
}

/* The value type NAME is among several (*found the first): go scales
 * profiles into one unit across profiles (ScaleProfiles), but inside one
 * its sample types never merge and SampleIndexByName takes the first of
 * the name, so each source's first type of the name (in the order its
 * profile lists them) is its value, and of those, kin (the unit rule,
 * pcol_value_kin), the finest, as CommonValueType (rd12a F3); *found 0
 * when they are not kin.  A type no source lists counts as a source's. */
static int kin_named(pcol_file *f, const uint8_t *kept, const pcol_view *ty, const char *name, size_t nl,
                     uint32_t *found, pcol_error *err) {
  uint64_t n = pcol_rows(f, PCOL_T_VALUE_TYPES), nsrc = pcol_rows(f, PCOL_T_SOURCES);
  uint32_t *kn = NULL, first = *found;
  double *kf = NULL;
  pcol_view ss, sv;
  uint8_t *seen = calloc(nsrc + 1, 1), *listed = calloc(n + 1, 1);
  int rc = seen && listed ? pcol_value_kin(f, &kn, &kf, err) : pcol_oom(err);
  if (!rc) rc = pcol_column(f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_SOURCE, &ss, err);
  if (!rc) rc = pcol_column(f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_VALUE_TYPE, &sv, err);
  int apart = 0; /* two of them not kin */
  *found = 0;
  for (uint64_t r = 0; !rc && !apart && r < pcol_rows(f, PCOL_T_SOURCE_VALUE_TYPES); r++) {
    uint32_t s = pcol_view_u32(&ss, r), vt = pcol_view_u32(&sv, r);
    pcol_str t;
    if (!vt || vt > n || (kept && !kept[vt])) continue;
    listed[vt] = 1;
    if (!s || s > nsrc || seen[s] || (rc = pcol_string(f, pcol_view_u32(ty, vt - 1), &t, err))) continue;
    if (!t.ptr || t.len != nl || memcmp(t.ptr, name, nl)) continue;
    seen[s] = 1;
    apart = !(*found = *found ? pcol_kin_finer(kn, kf, *found, vt) : vt);
  }
  for (uint64_t i = first; !rc && !apart && i <= n; i++) { /* (first: the first of the name) */
    pcol_str t;
    if (listed[i] || (kept && !kept[i]) || (rc = pcol_string(f, pcol_view_u32(ty, i - 1), &t, err))) continue;
    if (t.ptr && t.len == nl && !memcmp(t.ptr, name, nl))
      apart = !(*found = *found ? pcol_kin_finer(kn, kf, *found, (uint32_t)i) : (uint32_t)i);
  }
  if (apart) *found = 0;
  free(kn);
  free(kf);
  free(seen);
  free(listed);
  return rc;
}

static int resolve_named(pcol_file *f, const uint8_t *kept, const char *name, pcol_value_sel *out,
                         pcol_error *err);

int pcol_q_value_of_vt(pcol_file *f, uint32_t vt, pcol_value_sel *out, pcol_error *err) {
  return vt_names(f, vt, out, err);
}

/* TYPE or TYPE/UNIT: the one stored value type with that name. */
int pcol_q_value_named(pcol_file *f, const char *name, pcol_value_sel *out, pcol_error *err) {
  int rc = resolve_named(f, NULL, name, out, err);
  out->column = 0; /* (the type itself) */
  return rc;
}

int pcol_q_value_check(pcol_file *f, const pcol_value_sel *v, pcol_error *err) {
  uint32_t vt = v ? v->vt_id : 0;
  uint64_t n = pcol_rows(f, PCOL_T_VALUE_TYPES);
  if (vt == 0 || vt == PCOL_VT_WEIGHT || vt == PCOL_VT_TIME || vt == PCOL_VT_RPROF_ALLOC || vt <= n)
    return PCOL_OK;
  return pcol_error_set(err, PCOL_EINVAL, "value type id %" PRIu32 ": the file has %" PRIu64
                        " value types (a pcol_value_sel made by hand, or resolved on another file?)", vt, n);
}

int pcol_q_value_is_level(pcol_file *f, uint32_t vt, pcol_error *err) {
  pcol_view ty, ss, sv, st;
  if (vt == 0 || vt > pcol_rows(f, PCOL_T_VALUE_TYPES)) return 0;
  if (pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, &ty, err) ||
      pcol_column(f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_SOURCE, &ss, err) ||
      pcol_column(f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_VALUE_TYPE, &sv, err) ||
      pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE, &st, err))
    return 0;
  pcol_str t;
  if (pcol_string(f, pcol_view_u32(&ty, vt - 1), &t, err)) return 0;
  int snap = 0;
  for (int a = 0; a < PCOL_Q_RPROF_ALLOC_NTYPES; a++) snap |= pcol_str_is(t, pcol_q_rprof_alloc_types[a]);
  if (!snap) return 0;
  for (uint64_t r = 0; r < pcol_rows(f, PCOL_T_SOURCE_VALUE_TYPES); r++) {
    uint32_t s = pcol_view_u32(&ss, r);
    pcol_str k;
    if (pcol_view_u32(&sv, r) != vt || s < 1 || s > pcol_rows(f, PCOL_T_SOURCES)) continue;
    if (pcol_string(f, pcol_view_u32(&st, s - 1), &k, err) == PCOL_OK && pcol_str_is(k, PCOL_SRC_RPROF))
      return 1;
  }
  return 0;
}

/* How NAME names a stored type T with unit U: 2 when NAME is T (pprof's
 * -sample_index compares the type alone), 1 when it is "T/U", else 0.  A
 * type may hold '/' itself (perf's PMU events: cpu_atom/cycles/u), so
 * "T/U" is not cut at the first '/'. */
static int names_type(const char *name, size_t nl, pcol_str t, pcol_str u) {
  if (!t.ptr) return 0;
  if (t.len == nl && !memcmp(t.ptr, name, nl)) return 2;
  return u.ptr && t.len + 1 + u.len == nl && !memcmp(t.ptr, name, t.len) && name[t.len] == '/' &&
         !memcmp(u.ptr, name + t.len + 1, u.len);
}

/* THE value types a name is looked for among: under a wall-clock range
 * (and no sel->source_id), those of the sources it keeps
 * (pcol_selection_sources), as the union of many inputs is made of the
 * files the range reaches alone (pcol_open_many), so that a merged file,
 * a directory read whole (the bindings) and the CLI's union of the files
 * in range know the same values.  (*kept)[vt] = 1 for such a type (1..
 * value types); *kept = NULL: every type (no such range, or it keeps
 * every source).  With --source a name of another source's type is still
 * that type: the view warns that the source counts 0. */
static int kept_types(pcol_file *f, const pcol_select *sel, uint8_t **kept, pcol_error *err) {
  *kept = NULL;
  if (!sel || sel->source_id || !sel->wall || !(sel->has_from || sel->has_to)) return PCOL_OK;
  uint8_t *keep;
  PCOL_RETURN_NOT_OK(pcol_selection_sources(f, sel, &keep, err));
  uint64_t ns = pcol_rows(f, PCOL_T_SOURCES), nt = pcol_rows(f, PCOL_T_VALUE_TYPES), s = 1;
  while (s <= ns && keep[s]) s++;
  pcol_view ss, sv;
  uint8_t *t = NULL;
  int rc = s > ns ? PCOL_OK : pcol_column(f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_SOURCE, &ss, err);
  if (!rc && s <= ns) rc = pcol_column(f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_VALUE_TYPE, &sv, err);
  if (!rc && s <= ns && !(t = calloc(nt + 1, 1))) rc = pcol_oom(err);
  for (uint64_t r = 0; t && r < pcol_rows(f, PCOL_T_SOURCE_VALUE_TYPES); r++) {
    uint32_t src = pcol_view_u32(&ss, r), vt = pcol_view_u32(&sv, r);
    if (src >= 1 && src <= ns && keep[src] && vt >= 1 && vt <= nt) t[vt] = 1;
  }
  free(keep);
  *kept = t;
  return rc;
}

static int resolve_named(pcol_file *f, const uint8_t *kept, const char *name, pcol_value_sel *out,
                         pcol_error *err) {
  size_t nl = strlen(name);
  pcol_view ty, un;
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_TYPE, &ty, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_VALUE_TYPES, PCOL_C_VT_UNIT, &un, err));
  uint64_t n = pcol_rows(f, PCOL_T_VALUE_TYPES);
  /* the types NAME is (best: 2), else those it is with their unit (1) */
  uint32_t found = 0, count = 0;
  int best = 0;
  for (uint64_t i = 0; i < n; i++) {
    pcol_str t, u;
    if (kept && !kept[i + 1]) continue;
    PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&ty, i), &t, err));
    PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&un, i), &u, err));
    int m = names_type(name, nl, t, u);
    if (!m || m < best) continue;
    if (m > best) best = m, found = 0, count = 0;
    if (!found) found = (uint32_t)(i + 1);
    count++;
  }
  if (!found) {
    char list[340];
    size_t k = 0;
    int alloc_parts = 0; /* the stored types rprof.alloc is derived from */
    list[0] = 0;
    for (uint64_t i = 0; i < n && k + 2 < sizeof list; i++) {
      pcol_str t, u;
      if (kept && !kept[i + 1]) continue;
      PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&ty, i), &t, err));
      PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&un, i), &u, err));
      int w = snprintf(list + k, sizeof list - k, ", %.*s/%.*s", (int)(t.ptr ? t.len : 2),
                       t.ptr ? t.ptr : "NA", (int)(u.ptr ? u.len : 2), u.ptr ? u.ptr : "NA");
      if (w < 0) break;
      if (k + (size_t)w >= sizeof list) { /* full: it ends at a whole character (pcol_utf8_cut) */
        list[k = pcol_utf8_cut(list, sizeof list - 1, sizeof list - 2)] = 0;
        break;
      }
      k += (size_t)w;
      for (int a = 0; a < PCOL_Q_RPROF_ALLOC_NTYPES; a++)
        alloc_parts += t.ptr && pcol_str_is(t, pcol_q_rprof_alloc_types[a]);
    }
    if (alloc_parts == PCOL_Q_RPROF_ALLOC_NTYPES && k + 40 < sizeof list) /* derived, as in --help */
      snprintf(list + k, sizeof list - k, ", " PCOL_VALUE_RPROF_ALLOC "/%s (derived)", UNIT_BYTES);
    /* "samples" is every source's own count, not a stored type: said so
     * (in --help's words), beside a stored samples/count */
    return pcol_error_set(err, PCOL_ENOTFOUND,
                          "no value type '%s' (the file has: %s (" PCOL_VALUE_SAMPLES_GLOSS ")%s)", name,
                          VALUE_SAMPLES, list);
  }
  if (count > 1 && best == 2) { /* units of one family are one value (the unit rule): the finest */
    int rc = kin_named(f, kept, &ty, name, nl, &found, err);
    if (rc) return rc;
    if (!found)
      return pcol_error_set(err, PCOL_EINVAL,
                            "value type '%s' exists with several units not of one kind (bytes, time); "
                            "name one as TYPE/UNIT", name);
  }
  else if (count > 1) /* type "a" of unit "b/c" and type "a/b" of unit "c" */
    return pcol_error_set(err, PCOL_EINVAL, "'%s' names several value types as TYPE/UNIT; name one "
                          "by its number (--value N)", name);
  out->column = 0;
  PCOL_RETURN_NOT_OK(vt_names(f, found, out, err));
  /* a bare TYPE of kin is each source's first of them (SampleIndexByName):
   * its column (pcol_value_resolve asks pcol_kin_column) */
  if (count > 1 && best == 2) out->column = 1;
  return PCOL_OK;
}

/* "cpu" and "cpu/nanoseconds": names the time rule answers for Rprof */
static int is_time_name(const char *name) {
  return !strcmp(name, PCOL_VT_CPU) || !strcmp(name, PCOL_VT_CPU "/" PCOL_UNIT_NANOSECONDS);
}

/* *any = 1 when a selected source (pcol_selection_sources) derives its
 * time (lib/core/count.c) */
static int any_time_source(pcol_file *f, const pcol_select *sel, int *any, pcol_error *err) {
  pcol_rtime rt;
  uint8_t *keep;
  *any = 0;
  PCOL_RETURN_NOT_OK(pcol_selection_sources(f, sel, &keep, err));
  int rc = pcol_rtime_init(&rt, f, err);
  for (uint64_t s = 1; !rc && s <= rt.nsources && s <= pcol_rows(f, PCOL_T_SOURCES) && !*any; s++)
    if (keep[s]) *any = pcol_rtime_has(&rt, (uint32_t)s);
  if (!rc) pcol_rtime_free(&rt);
  free(keep);
  return rc;
}

/* PCOL_VALUE_RPROF_ALLOC, derived per sample by pcol_stack_weights: needs
 * the three level snapshots of Rprof memory profiling (a source without
 * them counts 0; the CLI warns, pcol_value_sources). */
static int resolve_rprof_alloc(pcol_file *f, const uint8_t *kept, pcol_value_sel *out, pcol_error *err) {
  for (int k = 0; k < PCOL_Q_RPROF_ALLOC_NTYPES; k++) {
    pcol_value_sel tmp;
    int rc = resolve_named(f, kept, pcol_q_rprof_alloc_types[k], &tmp, err);
    /* an export of an Rprof memory profile (pprof, OTLP) stores it as the
     * type rprof.alloc/bytes (lib/core/xvalues.c) */
    if (rc && resolve_named(f, kept, PCOL_VALUE_RPROF_ALLOC, out, NULL) == PCOL_OK) return PCOL_OK;
    if (rc)
      return pcol_error_set(err, rc, "value '%s' needs Rprof memory profiling (%s)",
                            PCOL_VALUE_RPROF_ALLOC,
                            err ? err->message : pcol_q_rprof_alloc_types[k]);
  }
  out->vt_id = PCOL_VT_RPROF_ALLOC;
  out->type = (pcol_str){PCOL_VALUE_RPROF_ALLOC, sizeof PCOL_VALUE_RPROF_ALLOC - 1};
  out->unit = (pcol_str){UNIT_BYTES, sizeof UNIT_BYTES - 1};
  return PCOL_OK;
}

/* pprof's -sample_index=N (profile.go SampleIndexByName): the N-th value
 * type of each selected source (pcol_selection_sources: sel's source, of a
 * wall-clock range those it keeps, as the CLI's union of the files in
 * range holds them alone), in the order its profile named them
 * (source_value_types' rows); every selected source must name the same. */
static int resolve_index(pcol_file *f, const pcol_select *sel, const char *name,
                         pcol_value_sel *out, pcol_error *err) {
  uint64_t want = strtoull(name, NULL, 10);
  pcol_view ss, sv;
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_SOURCE, &ss, err));
  PCOL_RETURN_NOT_OK(pcol_column(f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_VALUE_TYPE, &sv, err));
  uint64_t nsrc = pcol_rows(f, PCOL_T_SOURCES), rows = pcol_rows(f, PCOL_T_SOURCE_VALUE_TYPES);
  /* one pass over the rows: each source's count so far and its N-th type */
  uint64_t *seen = calloc(nsrc + 1, sizeof *seen);
  uint32_t *nth = calloc(nsrc + 1, sizeof *nth);
  if (!seen || !nth) {
    free(seen);
    free(nth);
    return pcol_oom(err);
  }
  for (uint64_t r = 0; r < rows; r++) {
    uint32_t s = pcol_view_u32(&ss, r);
    if (s >= 1 && s <= nsrc && seen[s]++ == want) nth[s] = pcol_view_u32(&sv, r);
  }
  /* a source that names its N-th type earlier too (two pprof sample types
   * of one type and unit): read in its N-th place as go's -sample_index=N
   * (pcol_kin_column below), refused where the sources' places of it do
   * not agree, not answered in another column.  at[s]: the first index of
   * that type (UINT64_MAX: none before N) */
  uint64_t *at = calloc(nsrc + 1, sizeof *at), *k = calloc(nsrc + 1, sizeof *k);
  if (!at || !k) {
    free(seen), free(nth), free(at), free(k);
    return pcol_oom(err);
  }
  for (uint64_t s = 0; s <= nsrc; s++) at[s] = UINT64_MAX;
  for (uint64_t r = 0; r < rows; r++) {
    uint32_t s = pcol_view_u32(&ss, r);
    if (s < 1 || s > nsrc) continue;
    uint64_t i = k[s]++;
    if (i < want && nth[s] && at[s] == UINT64_MAX && pcol_view_u32(&sv, r) == nth[s]) at[s] = i;
  }
  free(k);
  uint32_t vt = 0, col = 0;
  uint8_t *keep = NULL; /* THE selected sources: sel's, of a wall-clock range those it keeps */
  int rc = pcol_selection_sources(f, sel, &keep, err);
  /* N-th types of one name in kin units (one.pb's inuse_space/kilobytes,
   * two.pb's inuse_space/bytes: go pairs them by position), or one type
   * a source lists twice: the finest, read by its column (pcol_kin_column)
   * at place N, when each is at one occurrence of its source's types of
   * the kin (rd13a F2) */
  uint32_t *kn = NULL;
  double *kf = NULL;
  uint64_t *place = NULL;
  if (!rc) rc = pcol_value_kin(f, &kn, &kf, err);
  if (!rc && !(place = malloc((nsrc + 1) * sizeof *place))) rc = pcol_oom(err);
  for (uint64_t s = 0; !rc && s <= nsrc; s++) place[s] = want;
  for (uint64_t s = 1; s <= nsrc && !rc; s++) {
    if (!keep[s] || !nth[s] || nth[s] > pcol_rows(f, PCOL_T_VALUE_TYPES)) continue;
    if (!(vt = vt ? pcol_kin_finer(kn, kf, vt, nth[s]) : nth[s])) { /* (refused below) */
      vt = 0;
      break;
    }
  }
  if (!rc && vt) rc = pcol_kin_column(f, sel, vt, nth, place, &col, err);
  free(place);
  free(kn);
  free(kf);
  if (!col) vt = 0;
  for (uint64_t s = 1; s <= nsrc && !rc && !col; s++) {
    if (!keep[s]) continue;
    if (!nth[s])
      rc = pcol_error_set(err, PCOL_ENOTFOUND, "sample index %s is out of range: source %llu has %llu value types",
                          name, (unsigned long long)s, (unsigned long long)seen[s]);
    else if (at[s] != UINT64_MAX)
      rc = pcol_error_set(err, PCOL_EINVAL, "sample index %s: source %llu names its type at index %llu "
                          "too, and pcol reads a type's first column (--value %llu); go's "
                          "-sample_index=%s reads this one", name, (unsigned long long)s,
                          (unsigned long long)at[s], (unsigned long long)at[s], name);
    else if (vt && nth[s] != vt)
      rc = pcol_error_set(err, PCOL_EINVAL, "sample index %s names different value types in the "
                          "sources: name the type (--value TYPE)", name);
    vt = nth[s];
  }
  free(seen);
  free(nth);
  free(at);
  free(keep);
  if (rc) return rc;
  if (!vt) return pcol_error_set(err, PCOL_ENOTFOUND, "sample index %s: no source", name);
  PCOL_RETURN_NOT_OK(vt_names(f, vt, out, err));
  out->column = col;
  return PCOL_OK;
}

/* THE weight name rule: "weight" is a type a selected source stores with
 * that name (a Perfetto StackSample's primary weight without a
 * descriptor's name, weight/count; a pprof profile's sample type
 * "weight"), as the format's own tools name it (Perfetto's UI, go tool
 * pprof -sample_index=weight), else the weight column; "pcol.weight"
 * (column) is the weight column always, its type named "pcol.weight" where
 * "weight" would name a stored type (a header's "Type: weight" would not
 * say which of the two it adds up, review rd14a F6), else "weight" (pprof's
 * header).  The selected sources: sel's (pcol_selection_sources), so that
 * --source N of a source without it weighs its rows, not 0. */
static int resolve_weight(pcol_file *f, const pcol_select *sel, int column, pcol_value_sel *out,
                          pcol_error *err) {
  uint8_t *keep, *t = NULL;
  PCOL_RETURN_NOT_OK(pcol_selection_sources(f, sel, &keep, err));
  uint64_t ns = pcol_rows(f, PCOL_T_SOURCES), nt = pcol_rows(f, PCOL_T_VALUE_TYPES);
  pcol_view ss, sv;
  int rc = pcol_column(f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_SOURCE, &ss, err);
  if (!rc) rc = pcol_column(f, PCOL_T_SOURCE_VALUE_TYPES, PCOL_C_SVT_VALUE_TYPE, &sv, err);
  if (!rc && !(t = calloc(nt + 1, 1))) rc = pcol_oom(err);
  for (uint64_t r = 0; !rc && r < pcol_rows(f, PCOL_T_SOURCE_VALUE_TYPES); r++) {
    uint32_t src = pcol_view_u32(&ss, r), vt = pcol_view_u32(&sv, r);
    if (src >= 1 && src <= ns && keep[src] && vt >= 1 && vt <= nt) t[vt] = 1;
  }
  free(keep);
  pcol_error quiet = {0};
  if (!rc) {
    rc = resolve_named(f, t, VALUE_WEIGHT, out, &quiet);
    if (column) { /* stored or not (ENOTFOUND), or several (EINVAL): the column */
      int stored = rc != PCOL_ENOTFOUND;
      rc = vt_names(f, PCOL_VT_WEIGHT, out, err);
      if (!rc && stored) out->type = (pcol_str){VALUE_WEIGHT_COLUMN, sizeof VALUE_WEIGHT_COLUMN - 1};
    } else if (rc == PCOL_ENOTFOUND) rc = vt_names(f, PCOL_VT_WEIGHT, out, err); /* none stored: the column */
    else if (rc && err) *err = quiet;
  }
  free(t);
  return rc;
}

int pcol_value_resolve(pcol_file *f, const pcol_select *sel, const char *name,
                       pcol_value_sel *out, pcol_error *err) {
  memset(out, 0, sizeof *out);
  if (!name) return resolve_default(f, sel, out, err);
  if (!strcmp(name, VALUE_WEIGHT_COLUMN)) return resolve_weight(f, sel, 1, out, err);
  if (!strcmp(name, VALUE_WEIGHT)) return resolve_weight(f, sel, 0, out, err);
  /* each source's own count: pprof's samples/count, else its weight */
  if (!strcmp(name, VALUE_SAMPLES)) {
    PCOL_RETURN_NOT_OK(pcol_q_count_shown(f, err));
    return vt_names(f, 0, out, err);
  }
  /* TYPE or TYPE/UNIT, as the list of a file's values names it */
  uint8_t *kept; /* the types of the sources a wall-clock range keeps */
  PCOL_RETURN_NOT_OK(kept_types(f, sel, &kept, err));
  int rc = !strcmp(name, PCOL_VALUE_RPROF_ALLOC) || !strcmp(name, PCOL_VALUE_RPROF_ALLOC "/bytes")
               ? resolve_rprof_alloc(f, kept, out, err)
               : resolve_named(f, kept, name, out, err);
  /* pprof's legacy names (SampleIndexByName trims "inuse_"): inuse_space
   * and inuse_objects of a profile whose types are space and objects (a
   * legacy heap profile's conversion).  go takes the first type that is
   * either name, so of a profile with both, the one listed first. */
  if ((rc == PCOL_ENOTFOUND || rc == PCOL_OK) && !strncmp(name, "inuse_", 6) && name[6]) {
    pcol_error quiet = {0};
    pcol_value_sel alt;
    memset(&alt, 0, sizeof alt);
    if (resolve_named(f, kept, name + 6, &alt, &quiet) == PCOL_OK &&
        (rc == PCOL_ENOTFOUND || alt.vt_id < out->vt_id)) {
      *out = alt;
      rc = PCOL_OK;
      if (err) err->message[0] = 0, err->code = PCOL_OK;
    }
  }
  free(kept);
  if (rc == PCOL_OK && out->column) rc = pcol_kin_column(f, sel, out->vt_id, NULL, NULL, &out->column, err);
  if (!strcmp(name, PCOL_VALUE_RPROF_ALLOC) || !strcmp(name, PCOL_VALUE_RPROF_ALLOC "/bytes")) return rc;
  if (rc == PCOL_ENOTFOUND && name[0] && strlen(name) < 10 && strspn(name, "0123456789") == strlen(name)) {
    if (err) err->message[0] = 0, err->code = PCOL_OK;
    rc = resolve_index(f, sel, name, out, err); /* pprof's -sample_index=N */
  }
  if (rc == PCOL_OK && pcol_q_value_is_level(f, out->vt_id, err)) {
    memset(out, 0, sizeof *out);
    return pcol_error_set(err, PCOL_EINVAL,
                          "value '%s' is a level (Rprof's memory in use at each sample), not an "
                          "amount: adding it up means nothing; use --value %s (the memory "
                          "allocated, summaryRprof's mem.total)",
                          name, PCOL_VALUE_RPROF_ALLOC);
  }
  if (rc == PCOL_ENOTFOUND) {
    int any = 0;
    pcol_error e2;
    PCOL_RETURN_NOT_OK(any_time_source(f, sel, &any, &e2));
    if (any && !is_time_name(name) && err) { /* name what the time rule adds */
      size_t l = strlen(err->message);
      if (l > 0 && l + 40 < sizeof err->message && err->message[l - 1] == ')')
        snprintf(err->message + l - 1, sizeof err->message - l + 1, ", %s/%s)", PCOL_VT_CPU,
                 PCOL_UNIT_NANOSECONDS);
    }
    if (any && is_time_name(name)) {
      if (err) err->message[0] = 0, err->code = PCOL_OK;
      return vt_names(f, PCOL_VT_TIME, out, err);
    }
  }
  return rc;
}

int pcol_value_sources(pcol_file *f, const pcol_value_sel *v, uint8_t **has_out,
                       pcol_error *err) {
  *has_out = NULL;
  PCOL_RETURN_NOT_OK(pcol_q_value_check(f, v, err));
  uint64_t nsrc = pcol_rows(f, PCOL_T_SOURCES);
  uint8_t *has = calloc(nsrc + 1, 1);
  if (!has) return pcol_oom(err);
  *has_out = has;
  uint32_t vt = v ? v->vt_id : 0;
  if (vt == 0 || vt == PCOL_VT_WEIGHT) { /* every source counts its samples */
    memset(has + 1, 1, nsrc);
    return PCOL_OK;
  }
  int rc = PCOL_OK;
  uint32_t want[PCOL_Q_RPROF_ALLOC_NTYPES] = {vt};
  int nwant = 1;
  if (vt == PCOL_VT_RPROF_ALLOC) { /* all three snapshot types */
    nwant = PCOL_Q_RPROF_ALLOC_NTYPES;
    for (int k = 0; !rc && k < nwant; k++) {
      pcol_value_sel t;
      rc = resolve_named(f, NULL, pcol_q_rprof_alloc_types[k], &t, err);
      want[k] = t.vt_id;
    }
  }
  if (!rc) rc = pcol_sources_having(f, vt, want, nwant, has, err);
  if (rc) {
    free(has);
    *has_out = NULL;
  }
  return rc;
}

/* text of n bytes (a name: "NA" when it has none, na) onto b, NUL kept after it */
static int put(pcol_buf *b, const char *text, size_t n) {
  if (pcol_buf_reserve(b, n + 1)) return PCOL_ENOMEM;
  memcpy(b->data + b->len, text, n);
  b->len += n;
  b->data[b->len] = 0;
  return PCOL_OK;
}
static int put_str(pcol_buf *b, pcol_str s, int na) {
  return s.ptr ? put(b, s.ptr, s.len) : na ? put(b, "NA", 2) : PCOL_OK;
}
static int put_c(pcol_buf *b, const char *text) { return put(b, text, strlen(text)); }

/* "source N (TYPE URI)" of source s */
static int put_source(pcol_buf *b, pcol_file *f, const pcol_view *ty, const pcol_view *uri, uint64_t s) {
  pcol_str t = {0}, u = {0};
  char n[48];
  /* damaged: a name stays empty (pcol_string clears it); it only names a source */
  if (pcol_string(f, pcol_view_u32(ty, s - 1), &t, NULL)) t = (pcol_str){0};
  if (pcol_string(f, pcol_view_u32(uri, s - 1), &u, NULL)) u = (pcol_str){0};
  pcol_source_who(f, (uint32_t)s, n, sizeof n - 2);
  strcat(n, " (");
  return put_c(b, n) || put_str(b, t, 1) || put_c(b, " ") || put_str(b, u, 1) || put_c(b, ")") ? PCOL_ENOMEM
                                                                                             : PCOL_OK;
}

/* pcol_value_lacking_notes' lines; parts: not of the parts of a recording
 * of which a selected part has v (a view's --value: they count 0 as the
 * recording means; an export of one value leaves them out, and says so) */
static int lacking_lines(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v, int parts,
                         void (*note)(void *ctx, const char *text), void *ctx, pcol_error *err) {
  enum { SHOWN = 3 }; /* sources named one a line; past it, one line */
  uint8_t *has = NULL, *keep = NULL;
  pcol_view ty, uri;
  pcol_wall w;
  PCOL_RETURN_NOT_OK(pcol_value_sources(f, v, &has, err));
  int rc = pcol_selection_sources(f, sel, &keep, err);
  if (!rc) rc = pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_TYPE, &ty, err);
  if (!rc) rc = pcol_column(f, PCOL_T_SOURCES, PCOL_C_SOURCES_URI, &uri, err);
  int wok = !rc && parts && pcol_wall_init(f, &w, err) == PCOL_OK;
  if (!rc && parts && !wok) rc = err ? err->code : PCOL_ENOMEM;
  uint64_t n = pcol_rows(f, PCOL_T_SOURCES), missing = 0, shown = 0, nsel = 0;
  /* the parts of a recording of which a selected part has the value count
   * 0 as the recording means: no note (THE rule, pcol_wall_part_covered;
   * review 21 F6: every JFR recording's --value of one part's type warned) */
  for (uint64_t s = 1; !rc && s <= n; s++) {
    if (wok && keep[s] && !has[s] && pcol_wall_part_covered(&w, s, has, keep)) keep[s] = 0;
    missing += !has[s] && keep[s], nsel += keep[s];
  }
  pcol_buf b = {0};
  pcol_str vt = v ? v->type : (pcol_str){0}, vu = v ? v->unit : (pcol_str){0};
  if (!rc && missing > SHOWN) {
    char h[96];
    snprintf(h, sizeof h, "%llu of %llu sources have no value ", (unsigned long long)missing,
             (unsigned long long)nsel);
    if (put_c(&b, h) || put_str(&b, vt, 0) || put_c(&b, "/") || put_str(&b, vu, 0) ||
        put_c(&b, ", their samples count 0 ("))
      rc = pcol_oom(err);
  }
  for (uint64_t s = 1; !rc && s <= n && shown < SHOWN; s++) {
    if (has[s] || !keep[s]) continue;
    if (missing <= SHOWN) b.len = 0;
    if ((shown && missing > SHOWN && put_c(&b, ", ")) || put_source(&b, f, &ty, &uri, s) ||
        (missing <= SHOWN && (put_c(&b, " has no value ") || put_str(&b, vt, 0) || put_c(&b, "/") ||
                              put_str(&b, vu, 0) || put_c(&b, "; its samples count 0")))) {
      rc = pcol_oom(err);
      break;
    }
    shown++;
    if (missing <= SHOWN) note(ctx, (const char *)b.data);
  }
  if (!rc && missing > SHOWN) {
    if (put_c(&b, ", ...)")) rc = pcol_oom(err);
    else note(ctx, (const char *)b.data);
  }
  pcol_buf_free(&b);
  if (wok) pcol_wall_free(&w);
  free(has);
  free(keep);
  return rc;
}

int pcol_value_lacking_notes(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v,
                             void (*note)(void *ctx, const char *text), void *ctx, pcol_error *err) {
  return lacking_lines(f, sel, v, 0, note, ctx, err);
}

/* a line of pcol_value_lacking_notes, as pcol_value_notes' warning */
typedef struct notes_ctx {
  void (*note)(void *ctx, const char *text, bool warning);
  void *ctx;
} notes_ctx;
static void lacking_line(void *ctx, const char *text) {
  const notes_ctx *n = ctx;
  n->note(n->ctx, text, true);
}

/* *any = 1 when a selected source is a part of a recording (meta
 * pcol.recording_part: THE recording rule, wall.c) */
static int parts_selected(pcol_file *f, const pcol_select *sel, int *any, pcol_error *err) {
  pcol_wall w;
  uint8_t *keep = NULL;
  *any = 0;
  PCOL_RETURN_NOT_OK(pcol_wall_init(f, &w, err));
  int rc = pcol_selection_sources(f, sel, &keep, err);
  for (uint64_t s = 1; !rc && s <= w.n && !*any; s++)
    if (keep[s] && w.part[s]) *any = 1;
  free(keep);
  pcol_wall_free(&w);
  return rc;
}

int pcol_value_notes(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v, bool asked,
                     const char *advice, void (*note)(void *ctx, const char *text, bool warning),
                     void *ctx, pcol_error *err) {
  /* the default of sources whose own defaults differ: the default note
   * speaks for the sources without it (it counts them), or its silence
   * (the parts of a recording that states it: note_tells); "samples"
   * every source has */
  if (!asked) {
    uint32_t chosen;
    int d = 0;
    PCOL_RETURN_NOT_OK(default_of(f, sel, &chosen, &d, err));
    if (d) {
      char *n = NULL;
      PCOL_RETURN_NOT_OK(pcol_value_default_note(f, sel, NULL, advice, &n, err));
      if (n) note(ctx, n, d == 1);
      free(n);
      return PCOL_OK;
    }
  }
  /* samples asked of the parts of one recording whose own defaults differ
   * (a JFR recording's execution and allocation samples): each part's
   * count is of another thing, and their sum is no count of any (review
   * 21 F3: 298 "samples" where jfr counts 80 execution samples).  Separate
   * profiles (a directory of CPU profiles, collapsed stacks and Rprof runs)
   * each count their samples, which "samples" adds as go's merge does: no
   * note (the bindings' mixed-directory tests) */
  if (asked && v && v->vt_id == 0) {
    uint32_t chosen;
    int d = 0;
    PCOL_RETURN_NOT_OK(default_of(f, sel, &chosen, &d, err));
    if (d) PCOL_RETURN_NOT_OK(parts_selected(f, sel, &d, err));
    if (d) {
      pcol_buf b = {0};
      int rc = note_samples(f, sel, "--value samples adds up counts of different things", "name one with --source N", &b, err);
      if (!rc && pcol_buf_append(&b, "", 1)) rc = pcol_oom(err);
      if (!rc) note(ctx, (const char *)b.data, true);
      pcol_buf_free(&b);
      return rc;
    }
  }
  /* each selected source without the value, or (past 3) one line */
  notes_ctx n = {note, ctx};
  return lacking_lines(f, sel, v, 1, lacking_line, &n, err);
}

unsigned pcol_value_decimals(const pcol_value_sel *v, pcol_str *unit) {
  if (!v || v->vt_id == 0 || v->vt_id == PCOL_VT_WEIGHT) {
    if (unit) *unit = (pcol_str){UNIT_COUNT, sizeof UNIT_COUNT - 1};
    return 0;
  }
  return (unsigned)pcol_unit_decimals(v->unit, unit); /* the core rule */
}

size_t pcol_value_text(const pcol_value_sel *v, pcol_sum x, char *buf, size_t cap) {
  return (size_t)pcol_decimal_text(buf, cap, x, (int)pcol_value_decimals(v, NULL));
}

int pcol_value_rprof_note(pcol_file *f, const pcol_select *sel, const char *select, char **note,
                          bool *warning, pcol_error *err) {
  *note = NULL;
  *warning = false;
  bool differ = false;
  PCOL_RETURN_NOT_OK(pcol_value_defaults_differ(f, sel, &differ, err));
  if (!differ) return PCOL_OK;
  /* a default the sources state together (a JFR recording's cpu) is
   * written as top counts it (rprof_export.c lack_stated): its note; else each sample is
   * one tick of its source (choose_ticks) */
  char *n = NULL;
  PCOL_RETURN_NOT_OK(pcol_value_default_note(f, sel, NULL, NULL, &n, err));
  if (!n) return PCOL_OK;
  bool ticks = strncmp(n, "the sources measure", 19) == 0;
  free(n);
  char advice[96];
  snprintf(advice, sizeof advice, "%s %s", ticks ? "write one with" : "write another source with",
           select ? select : "--source N");
  *warning = ticks;
  return pcol_value_default_note(f, sel,
                                 ticks ? "Rprof's lines count each sample as one tick of its source's interval "
                                         "(its period, else 10 ms), or, for a source of a measured time that is not "
                                         "its count x an interval of its own (V8's wall; a period that does not "
                                         "divide its times), its time in ticks of the shared sample.interval (a "
                                         "note after the export names each source's tick), not as these values"
                                       : NULL,
                                 advice, note, err);
}

/* go tool pprof scales the profiles it merges into the finest unit of the
 * types it pairs (measurement.ScaleProfiles, CommonValueType), and
 * computes its cutoffs in that unit (pcol_q_frac_cut).  pcol reads a
 * column in vt's unit, which may be finer than all of them (a3 k3 of
 * t_values: kilobytes and megabytes, read in bytes): the grain is then
 * the finest of the selected sources' types of the column, in vt's unit. */
int pcol_q_value_grain(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v, pcol_sum *grain,
                       pcol_error *err) {
  *grain = 1;
  if (!v || !v->column || !v->vt_id || v->vt_id == PCOL_VT_WEIGHT || v->vt_id == PCOL_VT_TIME ||
      v->vt_id == PCOL_VT_RPROF_ALLOC || v->vt_id > pcol_rows(f, PCOL_T_VALUE_TYPES))
    return PCOL_OK;
  pcol_rtime rt;
  memset(&rt, 0, sizeof rt);
  uint8_t *keep = NULL;
  int rc = pcol_rtime_init(&rt, f, err);
  if (!rc) rc = pcol_rtime_pick_init(&rt, f, v->vt_id, v->column, err);
  if (!rc) rc = pcol_selection_sources(f, sel, &keep, err);
  double finest = 0;
  for (uint64_t s = 1; !rc && s <= rt.pick.nsrc; s++) {
    const struct pcol_kin_src *k = &rt.pick.src[s - 1];
    if (!k->vt || (keep && !keep[s])) continue;
    if (!finest || k->ratio < finest) finest = k->ratio;
  }
  /* (a ratio of go's units is whole: 1024, 1000, 60...; below 2, or past
   * any sum, the value's unit) */
  if (!rc && finest >= 2 && finest < 9e18) *grain = (pcol_sum)(finest + 0.5);
  free(keep);
  pcol_rtime_free(&rt);
  return rc;
}
