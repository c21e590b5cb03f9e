/* v8.h — the V8 converters' private header (not installed): what they
 * share with the other readers of V8 profiles is in ../v8_profile.h. */
#ifndef PCOL_V8_H
#define PCOL_V8_H

#include "pcol.h"
#include "convert.h"
#include "keys.h"
#include "json_pull.h"
#include "v8_profile.h"
#include <stdio.h>

#endif
