/* Placeholder until the Perun/collapsed/speedscope converters land (issue 6):
 * delete this file then. */
#include "internal.h"
int pcol_export_speedscope(pcol_file *f, const pcol_select *sel, FILE *out, pcol_error *err) {
  return pcol_error_set(err, PCOL_EUNSUPPORTED, "speedscope export is not built yet");
}
