/* tagkeys.c — go tool pprof's -tagshow / -taghide (profile/filter.go
 * FilterTagsByName): which label keys the label views show.  A key is kept
 * when tag_show matches it (or there is none) and tag_hide does not.
 * pprof applies them after every sample filter and to every sample, so
 * they select no sample: the label views (tags' keys, traces' labels, the
 * graph's label boxes) leave the other keys out.  Each key's verdict is
 * kept by its string id, so an expression runs once a distinct key. */
#include "query.h"
#include "error.h"  /* pcol_oom */
#include "buf.h"    /* pcol_grow */
#include "filter.h" /* pcol_rx_compile, pcol_rx_match */
#include <stdlib.h>
#include <string.h>

int pcol_q_tagkeys_init(pcol_q_tagkeys *ks, const pcol_select *sel, pcol_error *err) {
  memset(ks, 0, sizeof *ks);
  const char *show = sel ? sel->tag_show : NULL, *hide = sel ? sel->tag_hide : NULL;
  int rc = PCOL_OK;
  if (show && !(rc = pcol_rx_compile(&ks->show, "--tagshow", show, err))) ks->has_show = 1;
  if (!rc && hide && !(rc = pcol_rx_compile(&ks->hide, "--taghide", hide, err))) ks->has_hide = 1;
  if (rc) pcol_q_tagkeys_free(ks);
  return rc;
}

void pcol_q_tagkeys_free(pcol_q_tagkeys *ks) {
  if (ks->has_show) pcol_rx_free(&ks->show);
  if (ks->has_hide) pcol_rx_free(&ks->hide);
  pcol_u64map_free(&ks->memo);
  free(ks->keep);
  free(ks->buf);
  memset(ks, 0, sizeof *ks);
}

int pcol_q_tagkeys_kept(pcol_q_tagkeys *ks, uint32_t sid, pcol_str k, int *keep, pcol_error *err) {
  *keep = 1;
  if (!ks || (!ks->has_show && !ks->has_hide)) return PCOL_OK;
  uint32_t i;
  int added;
  if (pcol_u64map_get(&ks->memo, sid, &i, &added)) return pcol_oom(err);
  if (!added) {
    *keep = ks->keep[i];
    return PCOL_OK;
  }
  if (i >= ks->cap && pcol_grow(&ks->keep, &ks->cap, 1)) return pcol_oom(err);
  int ms = ks->has_show ? pcol_rx_match(&ks->show, &ks->buf, &ks->bcap, k) : 1;
  int mh = ks->has_hide ? pcol_rx_match(&ks->hide, &ks->buf, &ks->bcap, k) : 0;
  if (ms < 0 || mh < 0) return pcol_oom(err);
  ks->keep[i] = (uint8_t)(ms && !mh);
  *keep = ks->keep[i];
  return PCOL_OK;
}
