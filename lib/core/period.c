/* period.c — THE period rule: a source's period type is the one of its
 * otlp.period_type.* meta when either key is there (an OTLP Profile's
 * period_type, lib/convert/otlp), else of its pprof.period_type.* meta (a
 * pprof Profile's); its period is meta otlp.period when that is a number,
 * else pprof.period.  OTLP's first, as the start and duration rules
 * (wall.c): an OTLP export of a pprof source carries both, alike.  Every
 * reader of a period (pcol info, the pprof/OTLP/Firefox/Rprof exports,
 * --base's period type check) asks here. */
#include "pcol.h"
#include "keys.h"   /* OTLP_META_PERIOD, PPROF_META_PERIOD, ... */
#include "bytes.h"  /* pcol_str_i64 */
#include "period.h" /* pcol_period, pcol_source_period */
#include "reader.h" /* pcol_meta_probe */
#include <string.h>

int pcol_source_period(pcol_file *f, uint32_t s, pcol_period *p, pcol_error *err) {
  memset(p, 0, sizeof *p);
  static const char *const keys[2][3] = {
      {OTLP_META_PERIOD_TYPE_TYPE, OTLP_META_PERIOD_TYPE_UNIT, OTLP_META_PERIOD},
      {PPROF_META_PERIOD_TYPE_TYPE, PPROF_META_PERIOD_TYPE_UNIT, PPROF_META_PERIOD}};
  for (int k = 0; k < 2 && !p->has_type && !p->has_unit; k++) {
    /* (a probe: 1 there, 0 not, err as it was; a negative code) */
    if ((p->has_type = pcol_meta_probe(f, s, keys[k][0], &p->type, err)) < 0) return p->has_type;
    if ((p->has_unit = pcol_meta_probe(f, s, keys[k][1], &p->unit, err)) < 0) return p->has_unit;
  }
  for (int k = 0; k < 2 && !p->has_period; k++) {
    pcol_str v;
    int h = pcol_meta_probe(f, s, keys[k][2], &v, err);
    if (h < 0) return h;
    p->has_period = h && !pcol_str_i64(v, &p->period);
  }
  if (!p->has_period) p->period = 0;
  return PCOL_OK;
}
