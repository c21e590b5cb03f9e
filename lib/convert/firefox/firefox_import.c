/* firefox_import.c — placeholder, replaced below */
#include "firefox.h"
int pcol_firefox_sniff(const uint8_t *p, size_t n) { (void)p; (void)n; return 0; }
int pcol_import_firefox(pcol_builder *b, FILE *in, const char *name, const pcol_import_options *opt,
                        pcol_error *err) {
  (void)b; (void)in; (void)opt;
  return pcol_error_set(err, PCOL_EUNSUPPORTED, "%s: not yet", name);
}
