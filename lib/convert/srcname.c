/* srcname.c — THE name of a process's or a thread's source (srcname.h). */
#include "srcname.h"
#include "keys.h" /* PCOL_META_URI_FILE_LEN */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *pcol_source_name(const char *file, const char *name, size_t nlen, pcol_str pid, pcol_str tid,
                       pcol_str what, size_t *len) {
  char *r = NULL;
  size_t k = 0;
  FILE *o = open_memstream(&r, &k);
  if (!o) return NULL;
  /* every part by its length: a NUL in it kept */
#define PART(s) (fwrite((s).ptr, 1, (s).len, o) != (s).len)
  int p = pid.ptr != NULL, t = tid.ptr != NULL;
  int bad = fputs(file, o) < 0;
  if (name) bad |= fputs(": ", o) < 0 || fwrite(name, 1, nlen, o) != nlen;
  if (name && (p || t)) bad |= fputs(" (", o) < 0;
  else if (p || t) bad |= fputs(": ", o) < 0;
  if (p) bad |= fputs("pid ", o) < 0 || PART(pid) || (t && fputs(", ", o) < 0);
  if (t) bad |= fputs("tid ", o) < 0 || PART(tid);
  if (name && (p || t)) bad |= fputc(')', o) == EOF;
  if (what.len) bad |= fputs(", ", o) < 0 || PART(what);
#undef PART
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
