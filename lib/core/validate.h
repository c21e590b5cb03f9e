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

/* THE checksum rule (spec.md §8.3 F1-F3): the body's crc, each section's
 * and the zero padding, in one pass over the file (O(size), ~1 GB/s).  What
 * pcol_validate_full adds to the content checks; merge, pack and export
 * check their pcol inputs with it (pcol_validate_full), and so does every
 * open with pcol_open_options.verify_sums (unpack's: a command that writes
 * a profile of its inputs does not launder damage into a file with good
 * checksums of its own).  Its message says where, not which file. */
int pcol_check_sums(pcol_file *f, pcol_error *err);

#endif
