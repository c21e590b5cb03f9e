/* firefox_gecko.h — the function a Gecko profile's frame location string
 * stands for, as the Firefox Profiler's process-profile.ts derives it
 * (firefox_gecko.c). */
#ifndef PCOL_FIREFOX_GECKO_H
#define PCOL_FIREFOX_GECKO_H

#include "convert.h"
#include "buf.h"      /* pcol_buf */

/* The function name, its file (empty when none) and start line (NA when
 * none) of location string s[0..n).  PCOL_OK or PCOL_ENOMEM. */
int pcol_gecko_name(const char *s, size_t n, pcol_buf *name, pcol_buf *file, int64_t *line);

#endif
