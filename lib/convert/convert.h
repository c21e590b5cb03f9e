/* convert.h — what lib/convert/detect.c (the dispatcher) needs from the
 * formats beyond include/pcol.h (not installed).  Converters include core's
 * internal.h, this header and their own folder's headers, nothing else. */
#ifndef PCOL_CONVERT_H
#define PCOL_CONVERT_H

#include "internal.h"

/* Perun from JSON text in memory (pcol_import_path maps regular files). */
int pcol_import_perun_text(pcol_builder *b, const char *text, size_t len, const char *name,
                           pcol_error *err);

#endif
