/* srcname.h — THE name of a source that is a process's or a thread's, for
 * every importer that names its sources so: a Chrome trace's threads
 * (doc/mappings.md §14), a Perfetto trace's V8 threads (§17), an OTLP
 * file's processes (§12).  One rule, so that `pcol info`, `--source` and
 * the report page's source menu name a process alike whatever it came
 * from. */
#ifndef PCOL_SRCNAME_H
#define PCOL_SRCNAME_H

#include <stddef.h>

/* "FILE: NAME (pid P, tid T)"; without a name "FILE: pid P, tid T";
 * without a tid "FILE: NAME (pid P)" / "FILE: pid P"; without pid and tid
 * "FILE: NAME", or FILE alone; then ", WHAT" when what is given (what the
 * source holds of the process, where one process has several sources).
 * name is name[0..nlen) (it may hold any bytes but NUL; NULL: none); pid,
 * tid and what are C strings or NULL.  The result is malloc'd; NULL when
 * out of memory. */
char *pcol_source_name(const char *file, const char *name, size_t nlen, const char *pid,
                       const char *tid, const char *what);

#endif
