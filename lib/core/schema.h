/* schema.h — the stored tables' bounds and element widths (schema.c).  Inside
 * libpcol only (not installed). */
#ifndef PCOL_CORE_SCHEMA_H
#define PCOL_CORE_SCHEMA_H

#include "pcol.h"
#include <stddef.h>

/* Bound on schema column ids (every table has fewer): sizes per-table arrays. */
#define PCOL_MAX_COLUMNS 16

size_t pcol_type_width(pcol_type t); /* 1 for BYTES (a byte each), 0 for an unknown type */

#endif
