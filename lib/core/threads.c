/* threads.c — THE rule for how many threads libpcol may use: `pcol top
 * DIR` (top_many.c) and the union's read-ahead (lib/convert/ahead.c). */
#include "threads.h"

#include <sched.h>
#include <stdlib.h>

size_t pcol_thread_limit(int *from_env) {
  const char *e = getenv("PCOL_THREADS");
  if (e && *e) {
    char *end;
    unsigned long v = strtoul(e, &end, 10);
    *from_env = 1;
    return *end || v < 1 ? 1 : (size_t)v;
  }
  *from_env = 0;
  cpu_set_t cs;
  int cpus = sched_getaffinity(0, sizeof cs, &cs) == 0 ? CPU_COUNT(&cs) : 1;
  return cpus > 1 ? (size_t)cpus : 1;
}
