/* json_doc.c — one JSON document read whole under the input cap, for the
 * importers of JSON formats that jansson parses as a tree (V8, speedscope):
 * the one place that says how an oversized or malformed document is
 * refused. */
#include <jansson.h>

#include "convert.h"

int pcol_json_doc_load(FILE *in, const char *name, const pcol_import_options *opt, json_t **root,
                       pcol_error *err) {
  uint64_t cap = pcol_input_cap(opt);
  pcol_capped capped;
  *root = NULL;
  FILE *cin = pcol_capped_stream(&capped, in, cap);
  if (!cin) return pcol_oom(err);
  json_error_t je;
  json_t *doc = json_loadf(cin, JSON_REJECT_DUPLICATES, &je);
  int rc = PCOL_OK;
  /* past the cap the stream ends early: whatever jansson made of it, the
   * size is the reason */
  if (capped.over)
    rc = pcol_error_set(err, PCOL_ETOOBIG, "%s: input is larger than the limit of %llu bytes", name,
                        (unsigned long long)cap);
  else if (!doc)
    rc = pcol_error_set(err, PCOL_ECORRUPT, "%s:%d:%d (byte %d): invalid JSON: %s", name, je.line,
                        je.column, je.position, je.text);
  fclose(cin);
  if (rc) json_decref(doc);
  else *root = doc;
  return rc;
}
