/* v8_import.c — a V8 CPU profile (`node --cpu-prof`, Chrome DevTools'
 * "Save profile") into a builder: the document is read by the V8 reader
 * that every converter reading V8 profiles shares (../v8_profile.c;
 * doc/mappings.md §10). */
#include "v8.h"
#include <string.h>

int pcol_import_v8(pcol_builder *b, FILE *in, const char *name, const pcol_import_options *opt,
                   pcol_error *err) {
  return pcol_v8_import_profile(b, in, name, PCOL_SRC_V8, name, strlen(name), 0, 0, NULL, opt, NULL, NULL, err);
}
