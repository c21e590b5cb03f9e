/* speedscope.h — what the speedscope importer needs (not installed). */
#ifndef PCOL_SPEEDSCOPE_H
#define PCOL_SPEEDSCOPE_H

#include "pcol.h"
#include "convert.h"
#include "keys.h"
#include "json_pull.h"
#include <stdio.h>

#endif
