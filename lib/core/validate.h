/* validate.h — the content checks without the checksums (validate.c).  Inside
 * libpcol only (not installed). */
#ifndef PCOL_CORE_VALIDATE_H
#define PCOL_CORE_VALIDATE_H

#include "pcol.h"

/* pcol_validate_full without the checksums and the zero padding: every
 * column decoded and checked, sample order, text and duration rules.  For
 * a pcol input that a reading command only reads (pcol_open_many), which
 * then costs what one file costs at open (header crc, directory) plus these
 * checks; merge and `validate --full` still check the sums (validate.c). */
int pcol_validate_content(pcol_file *f, pcol_error *err);

#endif
