/* srcname.c — THE name of a process's or a thread's source (srcname.h). */
#include "srcname.h"
#include <stdio.h>
#include <stdlib.h>

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
