/* srcname.c — THE name of a process's or a thread's source (srcname.h). */
#include "srcname.h"
#include "keys.h" /* PCOL_META_URI_FILE_LEN */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *pcol_source_name(const char *file, const char *name, size_t nlen, const char *pid,
                       const char *tid, const char *what) {
  if (nlen > (size_t)0x7fffffff) nlen = 0x7fffffff; /* (a name's length as printf's precision) */
  int n = (int)nlen, k;
  const char *w = what && what[0] ? ", " : "", *wt = what && what[0] ? what : "";
  char *r = NULL;
  if (name && pid && tid) k = asprintf(&r, "%s: %.*s (pid %s, tid %s)%s%s", file, n, name, pid, tid, w, wt);
  else if (name && pid) k = asprintf(&r, "%s: %.*s (pid %s)%s%s", file, n, name, pid, w, wt);
  else if (name && tid) k = asprintf(&r, "%s: %.*s (tid %s)%s%s", file, n, name, tid, w, wt);
  else if (name) k = asprintf(&r, "%s: %.*s%s%s", file, n, name, w, wt);
  else if (pid && tid) k = asprintf(&r, "%s: pid %s, tid %s%s%s", file, pid, tid, w, wt);
  else if (pid) k = asprintf(&r, "%s: pid %s%s%s", file, pid, w, wt);
  else if (tid) k = asprintf(&r, "%s: tid %s%s%s", file, tid, w, wt);
  else k = asprintf(&r, "%s%s%s", file, w, wt);
  return k < 0 ? NULL : r;
}

int pcol_source_file_mark(pcol_builder *b, uint32_t src, const char *file, size_t flen, const char *uri,
                          size_t ulen, pcol_error *err) {
  if (!file || !uri || flen < 2 || flen > ulen || !memmem(file, flen, ": ", 2) || memcmp(uri, file, flen) ||
      (ulen > flen && (ulen - flen < 2 || memcmp(uri + flen, ": ", 2))))
    return PCOL_OK;
  char v[24];
  snprintf(v, sizeof v, "%zu", flen);
  return pcol_b_meta_str(b, src, PCOL_META_URI_FILE_LEN, v, err);
}
