/* diffbase.c — pcol_open_diff_base: go tool pprof's -base and -diff_base
 * (driver/fetch.go: the base profile scaled by -1 and merged with the
 * profile; -diff_base also labels the base's samples "pprof::base" =
 * "true").  Every view then shows the change: a function's flat and cum
 * are the profile's minus the base's.  The total is pprof's (report.go
 * computeTotal, weights.c diff_base_total): with -diff_base the base's, so
 * shares are of the base; with -base that of the merged profile's |values|.
 *
 * Cost: a copy of both into memory (pcol_b_add_file_copy): O(both files)
 * time, the copy's size in memory. */
#include "query.h"
#include "builder.h" /* pcol_b_add_file_copy */
#include "reader.h"  /* struct pcol_file: input_bytes */
#include "error.h"   /* pcol_oom */
#include <string.h>

int pcol_open_diff_base(pcol_file *f, pcol_file *base, bool diff, pcol_file **out, pcol_error *err) {
  *out = NULL;
  pcol_builder *b = NULL;
  int rc = pcol_builder_new(&b, err);
  pcol_b_copy cp;
  memset(&cp, 0, sizeof cp);
  cp.negate = 1;
  if (!rc && diff) rc = pcol_b_cstr(b, PCOL_DIFF_BASE_KEY, &cp.label_key, err);
  if (!rc && diff) rc = pcol_b_cstr(b, "true", &cp.label_str, err);
  if (!rc) rc = pcol_b_add_file(b, f, err);
  uint64_t s0 = b ? b->t[PCOL_T_SOURCES].rows : 0; /* the base's sources come after f's */
  if (!rc) rc = pcol_b_add_file_copy(b, base, &cp, err);
  for (uint64_t s = s0 + 1; !rc && s <= b->t[PCOL_T_SOURCES].rows; s++)
    rc = pcol_b_meta(b, (uint32_t)s, diff ? PCOL_META_DIFF_BASE : PCOL_META_BASE, "true", 4, err);
  return pcol_q_open_built(b, rc, f->input_bytes + base->input_bytes, out, err);
}
