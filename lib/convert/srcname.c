/* srcname.c — THE name of a process's or a thread's source (srcname.h). */
#include "srcname.h"
#include "keys.h" /* PCOL_META_URI_FILE_LEN */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *pcol_source_name(const char *file, const char *name, size_t nlen, const char *pid,
                       const char *tid, const char *what, size_t *len) {
  char *r = NULL;
  size_t k = 0;
  FILE *o = open_memstream(&r, &k);
  if (!o) return NULL;
  int bad = fputs(file, o) < 0;
  if (name) bad |= fputs(": ", o) < 0 || fwrite(name, 1, nlen, o) != nlen; /* (by length: a NUL kept) */
  if (name && (pid || tid)) bad |= fputs(" (", o) < 0;
  else if (pid || tid) bad |= fputs(": ", o) < 0;
  if (pid) bad |= fprintf(o, "pid %s%s", pid, tid ? ", " : "") < 0;
  if (tid) bad |= fprintf(o, "tid %s", tid) < 0;
  if (name && (pid || tid)) bad |= fputc(')', o) == EOF;
  if (what && what[0]) bad |= fprintf(o, ", %s", what) < 0;
  if (fclose(o) || bad) return free(r), NULL;
  if (len) *len = k;
  return r;
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
