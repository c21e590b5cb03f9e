/* perf.h — the `perf script` importer's private header (not installed). */
#ifndef PCOL_PERF_H
#define PCOL_PERF_H

#include "pcol.h"
#include "keys.h"
#include <ctype.h>
#include <stdio.h>

#endif
