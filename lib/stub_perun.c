/* Placeholder until the Perun/collapsed/speedscope converters land (issue 6):
 * delete this file then. */
#include "internal.h"
int pcol_import_collapsed(pcol_builder *b, FILE *in, const char *name,
                          const pcol_import_options *opt, pcol_error *err) {
  return pcol_error_set(err, PCOL_EUNSUPPORTED, "%s: collapsed import is not built yet", name);
}
int pcol_export_collapsed(pcol_file *f, const pcol_select *sel, const char *value_type,
                          FILE *out, pcol_error *err) {
  return pcol_error_set(err, PCOL_EUNSUPPORTED, "collapsed export is not built yet");
}
int pcol_export_speedscope(pcol_file *f, const pcol_select *sel, FILE *out, pcol_error *err) {
  return pcol_error_set(err, PCOL_EUNSUPPORTED, "speedscope export is not built yet");
}
