/* writer.h — the writer's check of its options (writer.c).  Inside libpcol
 * only (not installed). */
#ifndef PCOL_CORE_WRITER_H
#define PCOL_CORE_WRITER_H

#include "pcol.h"

/* THE check of write options (a zstd level in 0..22 when zstd is asked),
 * made by every write and by pcol_writer_open before any.  writer.c */
int pcol_write_options_check(const pcol_write_options *opt, pcol_error *err);

#endif
