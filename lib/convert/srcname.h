/* srcname.h — THE name of a source that is a process's or a thread's, for
 * every importer that names its sources so: a Chrome trace's threads
 * (doc/mappings.md §14), a Perfetto trace's V8 threads (§17), an OTLP
 * file's processes (§12).  One rule, so that `pcol info`, `--source` and
 * the report page's source menu name a process alike whatever it came
 * from. */
#ifndef PCOL_SRCNAME_H
#define PCOL_SRCNAME_H

#include <stddef.h>
#include <string.h>
#include "pcol.h"

/* "FILE: NAME (pid P, tid T)"; without a name "FILE: pid P, tid T";
 * without a tid "FILE: NAME (pid P)" / "FILE: pid P"; without pid and tid
 * "FILE: NAME", or FILE alone; then ", WHAT" when what is given (what the
 * source holds of the process, where one process has several sources).
 * name is name[0..nlen) (NULL: none); pid, tid and what likewise, by
 * their lengths (pid, tid: .ptr NULL for none; what: none when empty):
 * each any bytes, NUL too (an OTLP resource's process.pid and sample types
 * are strings from the input).  The result is malloc'd, NUL-terminated,
 * its length (a NUL of the parts' within it) in *len when len is not NULL;
 * NULL when out of memory. */
char *pcol_source_name(const char *file, const char *name, size_t nlen, pcol_str pid, pcol_str tid,
                       pcol_str what, size_t *len);
/* C string s (NULL: none) as a part of pcol_source_name */
static inline pcol_str pcol_source_part(const char *s) { return (pcol_str){s, s ? strlen(s) : 0}; }

/* For source src of builder b named uri[0..ulen), "FILE: NAME" or FILE,
 * file[0..flen) its FILE (the input's path): where file holds ": " itself, its length as
 * meta PCOL_META_URI_FILE_LEN, so that pcol_source_display_name (reader.c)
 * splits uri where it was joined (rd17a F6); else nothing (the first ": "
 * is the join).  Every importer that names sources "FILE: ..." calls it
 * after pcol_b_source.  PCOL_OK or the builder's error. */
int pcol_source_file_mark(pcol_builder *b, uint32_t src, const char *file, size_t flen, const char *uri,
                          size_t ulen, pcol_error *err);

#endif
