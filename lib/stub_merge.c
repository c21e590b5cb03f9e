/* Placeholder until merging lands (issue 5): delete this file then. */
#include "internal.h"
int pcol_b_add_file(pcol_builder *b, pcol_file *f, pcol_error *err) {
  return pcol_error_set(err, PCOL_EUNSUPPORTED, "adding a pcol file to a builder is not built yet");
}
int pcol_builder_coalesce(pcol_builder *b, pcol_error *err) {
  return pcol_error_set(err, PCOL_EUNSUPPORTED, "coalescing is not built yet");
}
