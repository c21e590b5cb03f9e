/* Placeholder until the pprof converter lands (issue 4): delete this file then. */
#include "internal.h"
int pcol_import_pprof(pcol_builder *b, FILE *in, const char *name,
                      const pcol_import_options *opt, pcol_error *err) {
  return pcol_error_set(err, PCOL_EUNSUPPORTED, "%s: pprof import is not built yet", name);
}
int pcol_export_pprof(pcol_file *f, const pcol_select *sel, FILE *out, int gzip,
                      pcol_error *err) {
  return pcol_error_set(err, PCOL_EUNSUPPORTED, "pprof export is not built yet");
}
