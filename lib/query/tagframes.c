/* tagframes.c — pcol_open_tag_frames: go tool pprof's -tagroot and -tagleaf
 * (driver/tagroot.go addLabelNodes): every sample gets one more frame per
 * key at the root of its stack (-tagroot) or below its leaf (-tagleaf),
 * named by the sample's values of the key, so that every view (top, peek,
 * tree, graph, flame, fold, traces, the report) splits by label as pprof's
 * do, and the filters see those frames as pprof's (they run after).
 *
 * A frame: a function named by the values joined by ',' (the strings, then
 * the numbers, each in its unit scaled to the output unit (-unit: pprof
 * passes cfg.Unit to addLabelNodes) as pprof's ScaledLabel prints it:
 * "1kB" with a unit, the bare number without one; when the sample has no such
 * label, no name: pprof's frame is named "", which its reports print as
 * "<unknown>" by function and by the key by line, as pcol does), whose
 * file is the key, at a location without mapping or address,
 * line 0 (in a file without mappings too: the name filters see no fake
 * mapping there, pcol_filter_loc_mapping).  Of keys k1,k2 k1 is the outermost (pprof: "the first tag is
 * closest to the root").  A key no sample has is no error: its frames all
 * have no name, and pprof's warning is left in err (tag_warning).
 *
 * Cost: a copy of the file into memory (pcol_b_add_file_copy), each
 * (label set, stack) pair the samples use made once: O(file + pairs x
 * depth) time, the copy's size in memory. */
#include "query.h"
#include "builder.h" /* pcol_b_add_file_copy, pcol_b_frames */
#include "writer.h"  /* pcol_builder_write_image */
#include "reader.h"  /* struct pcol_file: owned, input_bytes */
#include "error.h"   /* pcol_oom, PCOL_RETURN_NOT_OK */
#include "buf.h"     /* pcol_buf */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAGF_MAX_KEYS 64

typedef struct tagf {
  pcol_file *f;
  pcol_q_labelcols lc;
  const char *key[2][TAGF_MAX_KEYS]; /* [0] root, [1] leaf keys, as given */
  size_t klen[2][TAGF_MAX_KEYS], nkey[2];
  uint32_t key_sid[2][TAGF_MAX_KEYS]; /* each key as a builder string */
  uint32_t *ids;                      /* per label set: root then leaf location ids */
  uint8_t *made;                      /* per label set: ids made */
  const char *unit;                   /* the numbers' output unit (pcol_unit_label's to) */
  uint32_t first_loc;                 /* the smallest id of a label frame's location (0: none) */
  int matched[2];                     /* a sample has a value of a root [0] / leaf [1] key */
  pcol_buf name;
} tagf;

/* Splits a comma-separated key list (pprof: empty entries dropped). */
static int split_keys(tagf *t, int w, const char *keys, pcol_error *err) {
  for (const char *p = keys; p && *p;) {
    const char *e = strchr(p, ',');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (n) {
      if (t->nkey[w] == TAGF_MAX_KEYS)
        return pcol_error_set(err, PCOL_EINVAL, "--tag%s: more than %d keys", w ? "leaf" : "root",
                              TAGF_MAX_KEYS);
      t->key[w][t->nkey[w]] = p;
      t->klen[w][t->nkey[w]++] = n;
    }
    p = e ? e + 1 : p + n;
  }
  return PCOL_OK;
}

int pcol_q_tagframe_name(pcol_file *f, const pcol_q_labelcols *lc, uint64_t ls, const char *k,
                         size_t kn, const char *unit, pcol_buf *out, int *any, pcol_error *err) {
  out->len = 0;
  if (any) *any = 0;
  if (!ls) return PCOL_OK;
  uint64_t lo = pcol_view_u64(&lc->off, ls - 1), hi = pcol_view_u64(&lc->off, ls);
  if (hi > lc->nlabels) hi = lc->nlabels;
  int have = 0, units = 0; /* units: a number of the key has one (pprof's NumUnit[k] is set) */
  for (int pass = 0; pass < 3; pass++) /* pprof: the strings, then the numbers */
    for (uint64_t i = lo; i < hi; i++) {
      pcol_str ks, s, u = {0};
      PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&lc->key, i), &ks, err));
      if ((ks.ptr ? ks.len : 0) != kn || (kn && memcmp(ks.ptr, k, kn))) continue;
      uint32_t sid = pcol_view_u32(&lc->str, i);
      if ((sid == 0) != (pass > 0)) continue;
      if (!sid) PCOL_RETURN_NOT_OK(pcol_string(f, pcol_view_u32(&lc->unit, i), &u, err));
      if (pass == 1) {
        units |= u.ptr && u.len;
        continue;
      }
      char num[96];
      if (sid) {
        PCOL_RETURN_NOT_OK(pcol_string(f, sid, &s, err));
      } else { /* measurement.ScaledLabel(v, unit, cfg.Unit), or (v, "", "") when
                  no number of the key has a unit (one without beside one
                  with: ScaledLabel(v, "", cfg.Unit), "7kB" under -unit=kB) */
        if (!units) pcol_unit_label(pcol_view_i64(&lc->num, i), u, "", num, sizeof num);
        else pcol_q_label_scaled(pcol_view_i64(&lc->num, i), u, unit, num, sizeof num);
        s.ptr = num;
        s.len = strlen(num);
      }
      if ((have && pcol_buf_append(out, ",", 1)) || (s.ptr && s.len && pcol_buf_append(out, s.ptr, s.len)))
        return pcol_oom(err);
      have = 1;
    }
  if (any) *any = have;
  return PCOL_OK;
}

static int of_labelset(void *ctx, pcol_builder *b, uint32_t ls, const uint32_t **root, size_t *nroot,
                       const uint32_t **leaf, size_t *nleaf, pcol_error *err) {
  tagf *t = ctx;
  size_t per = t->nkey[0] + t->nkey[1];
  uint32_t *ids = t->ids + (size_t)ls * per;
  for (int w = 0; w < 2 && !t->made[ls]; w++)
    for (size_t i = 0; i < t->nkey[w]; i++) {
      int any;
      PCOL_RETURN_NOT_OK(
          pcol_q_tagframe_name(t->f, &t->lc, ls, t->key[w][i], t->klen[w][i], t->unit, &t->name, &any, err));
      t->matched[w] |= any;
      /* no value: pprof's frame has the name "", which its reports print
       * by the rest of the location ("<unknown>" by function, the key by
       * line: graph.go NameComponents): NA, which pcol names the same way */
      uint32_t nsid = 0, fn;
      if (t->name.len) PCOL_RETURN_NOT_OK(pcol_b_string(b, t->name.data, t->name.len, &nsid, err));
      pcol_function_row fr = {nsid, 0, t->key_sid[w][i], PCOL_NA_I64};
      PCOL_RETURN_NOT_OK(pcol_b_function(b, &fr, &fn, err));
      pcol_line_row line = {fn, 0, PCOL_NA_I64};
      uint32_t *id = &ids[w ? t->nkey[0] + i : i];
      PCOL_RETURN_NOT_OK(pcol_b_location(b, 0, 0, 0, &line, 1, id, err));
      if (!t->first_loc || *id < t->first_loc) t->first_loc = *id;
    }
  t->made[ls] = 1;
  /* pprof's order: of keys k1,k2, k1 is the outermost of each group */
  *root = ids;
  *nroot = t->nkey[0];
  *leaf = ids + t->nkey[0];
  *nleaf = t->nkey[1];
  return PCOL_OK;
}

int pcol_q_open_built(pcol_builder *b, int rc, uint64_t input_bytes, pcol_file **out,
                      pcol_error *err) {
  void *mem = NULL;
  size_t len = 0;
  /* laid out for one reading, as detect.c's copies of other formats
   * (plain columns under 16 MiB: faster to make, as fast to read) */
  if (!rc) rc = pcol_builder_write_image(b, &mem, &len, err);
  pcol_builder_free(b);
  pcol_open_options opt = {0};
  if (!rc) rc = pcol_open_buffer(mem, len, &opt, out, err);
  if (rc) {
    free(mem);
    return rc;
  }
  (*out)->owned = 1; /* pcol_close frees the copy */
  (*out)->input_bytes = input_bytes;
  return PCOL_OK;
}

/* The keys of root_keys and leaf_keys, checked: more than 64 keys or one
 * of 256 bytes or more is EINVAL.  None at all is no frames (pprof drops
 * the empty keys of "," and adds nothing); a key no sample has is no
 * error (pprof's frames are then all "", and it warns: tag_warning). */
static int keys_check(tagf *t, const char *root_keys, const char *leaf_keys, pcol_error *err) {
  int rc = split_keys(t, 0, root_keys, err);
  if (!rc) rc = split_keys(t, 1, leaf_keys, err);
  for (int w = 0; w < 2 && !rc; w++)
    for (size_t i = 0; i < t->nkey[w] && !rc; i++)
      if (t->klen[w][i] >= 256)
        rc = pcol_error_set(err, PCOL_EINVAL, "--%s: a key of %zu bytes", w ? "tagleaf" : "tagroot", t->klen[w][i]);
  return rc;
}

/* pprof's warnings (driver.go generateTagRootsLeaves, warnNoMatches): an
 * option given (not "") whose keys no sample has a value of, of f or of
 * either side (matched[w]: some sample has one).  One line each. */
static void tag_warning(const char *root_keys, const char *leaf_keys, const int *matched,
                        pcol_error *err) {
  int root = root_keys && *root_keys && !matched[0], leaf = leaf_keys && *leaf_keys && !matched[1];
  if (root || leaf)
    pcol_error_set(err, PCOL_OK, "%s%s%s", root ? "TagRoot expression matched no samples" : "",
                   root && leaf ? "\n" : "", leaf ? "TagLeaf expression matched no samples" : "");
}

int pcol_q_has_frames(const pcol_file *f, const char *key) {
  for (const char *k = f ? f->frame_keys : NULL; k && *k; k += strlen(k) + 1)
    if (!strcmp(k, key)) return 1;
  return 0;
}

/* out's frame_keys: f's and t's keys (pcol_q_has_frames) */
static int frame_keys(const tagf *t, const pcol_file *f, pcol_file *out, pcol_error *err) {
  size_t len = 1, own = 0;
  for (const char *k = f->frame_keys; k && *k; k += strlen(k) + 1) own += strlen(k) + 1;
  len += own;
  for (int w = 0; w < 2; w++)
    for (size_t i = 0; i < t->nkey[w]; i++) len += t->klen[w][i] + 1;
  char *s = malloc(len), *p = s;
  if (!s) return pcol_oom(err);
  if (own) memcpy(p, f->frame_keys, own), p += own;
  for (int w = 0; w < 2; w++)
    for (size_t i = 0; i < t->nkey[w]; i++) {
      memcpy(p, t->key[w][i], t->klen[w][i]);
      p += t->klen[w][i];
      *p++ = 0;
    }
  *p = 0;
  out->frame_keys = s;
  return PCOL_OK;
}

/* PCOL_DEBUG=inputs: a copy with frames made (t_pprof_semantics: an input
 * read with a key's frames is not framed again for the filters' warnings) */
static void debug_frames(const tagf *t) {
  const char *dbg = getenv("PCOL_DEBUG");
  if (!dbg || !strstr(dbg, "inputs")) return;
  for (int w = 0; w < 2; w++) {
    fprintf(stderr, w ? "' --tagleaf '" : "pcol: debug: label frames of --tagroot '");
    for (size_t i = 0; i < t->nkey[w]; i++) fprintf(stderr, "%s%.*s", i ? "," : "", (int)t->klen[w][i], t->key[w][i]);
  }
  fprintf(stderr, "'\n");
}

/* f's copy with the frames of t's keys (checked) */
static int tag_frames(tagf *t, pcol_file *f, pcol_file **out, pcol_error *err) {
  debug_frames(t);
  pcol_builder *b = NULL;
  int rc = PCOL_OK;
  uint64_t nls = pcol_rows(f, PCOL_T_LABELSETS);
  size_t per = t->nkey[0] + t->nkey[1];
  if (!rc) rc = pcol_q_labelcols_open(f, &t->lc, err);
  if (!rc && (nls >= SIZE_MAX / (TAGF_MAX_KEYS * 2 * sizeof *t->ids) ||
              !(t->ids = calloc((size_t)nls + 1, (per ? per : 1) * sizeof *t->ids)) || !(t->made = calloc((size_t)nls + 1, 1))))
    rc = pcol_oom(err);
  if (!rc) rc = pcol_builder_new(&b, err);
  for (int w = 0; w < 2 && !rc; w++)
    for (size_t i = 0; i < t->nkey[w] && !rc; i++)
      rc = pcol_b_string(b, t->key[w][i], t->klen[w][i], &t->key_sid[w][i], err);
  pcol_b_copy cp = {.frames = {t, of_labelset}};
  if (!rc) rc = pcol_b_add_file_copy(b, f, &cp, err);
  rc = pcol_q_open_built(b, rc, f->input_bytes, out, err);
  /* the label frames take no fake mapping (pprof's fetch gave it to the
   * locations it read; tagroot.go makes these without a Mapping), nor do
   * those made late in f (pcol_filter_loc_mapping) */
  if (!rc) (*out)->late_locs = f->late_locs ? f->late_locs : t->first_loc;
  if (!rc) (*out)->side_source = f->side_source; /* (the same sources) */
  if (!rc && (rc = frame_keys(t, f, *out, err))) {
    pcol_close(*out);
    *out = NULL;
  }
  free(t->ids);
  free(t->made);
  pcol_buf_free(&t->name);
  return rc;
}

int pcol_open_tag_frames(pcol_file *f, const char *root_keys, const char *leaf_keys, const char *unit,
                         pcol_file **out, pcol_error *err) {
  *out = NULL;
  tagf t;
  memset(&t, 0, sizeof t);
  t.f = f;
  t.unit = unit;
  int rc = keys_check(&t, root_keys, leaf_keys, err);
  if (!rc) rc = tag_frames(&t, f, out, err);
  if (!rc) tag_warning(root_keys, leaf_keys, t.matched, err);
  return rc;
}

int pcol_open_tag_frames_pair(pcol_file *f, pcol_file *g, const char *root_keys,
                              const char *leaf_keys, const char *unit, pcol_file **fout,
                              pcol_file **gout, int *side, pcol_error *err) {
  *fout = *gout = NULL;
  if (side) *side = 0;
  tagf t, u; /* f's, g's own tables; the same keys */
  memset(&t, 0, sizeof t);
  memset(&u, 0, sizeof u);
  t.f = f;
  u.f = g;
  t.unit = u.unit = unit;
  int rc = keys_check(&t, root_keys, leaf_keys, err);
  if (!rc) rc = keys_check(&u, root_keys, leaf_keys, err);
  if (!rc) rc = tag_frames(&t, f, fout, err);
  if (!rc && (rc = tag_frames(&u, g, gout, err)) && side) *side = 1;
  if (rc) {
    pcol_close(*fout);
    *fout = NULL;
    return rc;
  }
  /* pprof -diff_base merges the two first: a key of one side is a match */
  int matched[2] = {t.matched[0] | u.matched[0], t.matched[1] | u.matched[1]};
  tag_warning(root_keys, leaf_keys, matched, err);
  return PCOL_OK;
}
