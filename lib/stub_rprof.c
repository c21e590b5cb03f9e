/* Placeholder until the Rprof converter lands (issue 2/3): delete this file then. */
#include "internal.h"
int pcol_import_rprof(pcol_builder *b, FILE *in, const char *name,
                      const pcol_import_options *opt, pcol_error *err) {
  return pcol_error_set(err, PCOL_EUNSUPPORTED, "%s: Rprof import is not built yet", name);
}
int pcol_export_rprof(pcol_file *f, const pcol_select *sel, FILE *out, pcol_error *err) {
  return pcol_error_set(err, PCOL_EUNSUPPORTED, "Rprof export is not built yet");
}
