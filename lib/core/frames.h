/* frames.h — THE rule that names a frame, and a stack's locations (not
 * installed).  Every view and every exporter that prints a frame as text
 * (fold, flame, the collapsed exporter) names it through here, so one frame
 * has one name everywhere (doc/mappings.md §6, "Frame names").  `top` groups
 * by keys (function name, line, file), whose function names are the same:
 *
 *   - a line of a location whose function has a name: the function name;
 *   - a function with NA name (an Rprof top-level srcref): "FILE:LINE", or
 *     "FILE" when the line is unknown, or "[unknown]" without a file;
 *   - a location without lines: "0x<address>" (lower-case hex), or
 *     "[unknown]" for address 0.
 * File names are used whole (no cut).  Formats whose frames are text
 * separated by ';' (collapsed, fold) replace ';', '\n', '\r' and NUL inside a
 * name by '_' (pcol_frame_sanitize). */
#ifndef PCOL_FRAMES_H
#define PCOL_FRAMES_H

#include "pcol.h"
#include "buf.h"      /* pcol_buf */

typedef struct pcol_frames {
  pcol_file *f;
  uint64_t nloc, nlines, nfn;
  pcol_view loc_off, loc_addr, ln_fn, ln_line, fn_name, fn_file;
} pcol_frames;

/* Loads the columns the rule reads (zero-copy views). */
int pcol_frames_init(pcol_frames *fr, pcol_file *f, pcol_error *err);

/* The line rows [*a, *e) of location `loc`, innermost inline frame first;
 * empty for location 0, an id out of range or an address-only location. */
void pcol_frames_lines(const pcol_frames *fr, uint32_t loc, uint64_t *a, uint64_t *e);

/* The function of line row `li` (0 when NA or out of range). */
static inline uint32_t pcol_frames_fn(const pcol_frames *fr, uint64_t li) {
  uint32_t fn = pcol_view_u32(&fr->ln_fn, li);
  return fn <= fr->nfn ? fn : 0;
}

/* Name of line row `li`.  When its function has a name, *out borrows it
 * from the file and *by_function is 1 (the name depends on the function
 * only); otherwise the name is composed in `scratch` (cleared first) and
 * *out points there until scratch changes. */
int pcol_frame_line_name(const pcol_frames *fr, uint64_t li, pcol_buf *scratch, pcol_str *out,
                         int *by_function, pcol_error *err);

/* Name of an address-only location, written to buf (at least
 * PCOL_ADDR_NAME_MAX bytes); *out points into buf. */
#define PCOL_ADDR_NAME_MAX 24
void pcol_frame_addr_name(const pcol_frames *fr, uint32_t loc, char *buf, pcol_str *out);

/* What go tool pprof (and so `pcol top`) names an unsymbolized location:
 * "[<basename of its mapping's file>]", or "<unknown>" without one (file
 * NA or empty).  Appends it to out; PCOL_ENOMEM. */
int pcol_frame_mapping_name(pcol_str file, pcol_buf *out);

/* ';', '\n', '\r' and NUL become '_' (collapsed-stack text). */
void pcol_frame_sanitize(char *p, size_t n);

/* A stack's locations, innermost first, into a growable array (*locs with
 * *cap allocated; *n set).  PCOL_ENOMEM / ECORRUPT with err filled. */
int pcol_stack_locations(pcol_file *f, uint32_t stack_id, uint32_t **locs, size_t *n,
                         size_t *cap, pcol_error *err);

#endif
