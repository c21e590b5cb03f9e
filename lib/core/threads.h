/* threads.h — how many threads a call of libpcol may start (threads.c).
 * Inside libpcol only (not installed). */
#ifndef PCOL_CORE_THREADS_H
#define PCOL_CORE_THREADS_H

#include <stddef.h>

/* PCOL_THREADS when it is set (1 = no thread besides the caller's; a value
 * that is not a positive number counts as 1), else the CPUs this process
 * may run on (sched_getaffinity; 1 when unknown).  *from_env: whether the
 * variable said it (then it is taken as given, not as a most). */
size_t pcol_thread_limit(int *from_env);

#endif
