/* v8.h — the V8 .cpuprofile importer's private header (not installed). */
#ifndef PCOL_V8_H
#define PCOL_V8_H

#include "internal.h"
#include "convert.h"
#include "keys.h"
#include "json_pull.h"
#include <stdio.h>

#endif
