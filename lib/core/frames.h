/* frames.h — THE rule that names a frame, and a stack's locations (not
 * installed).  Every view and every exporter that prints a frame as text
 * (fold, flame, the collapsed exporter) names it through here, so one frame
 * has one name everywhere (doc/mappings.md §6, "Frame names").  `top` groups
 * by keys (function name, line, file), whose function names are the same:
 *
 *   - a line of a location whose function has a name: the function name
 *     (in the views, a name "" as go's of none: pcol_frame_fn_empty);
 *   - a function with NA name in a location of a mapping (pprof's native
 *     frames, gperftools' "??"), or at line 0 (pprof's "no line": a
 *     function named "", a -tagroot frame of a sample without the label):
 *     the location's name as if it had no lines (below), "[libR.so]", or
 *     "<unknown>" without a mapping, as go tool pprof's graph and top name
 *     it (pcol_frame_line_unsym);
 *   - a function with NA name (an Rprof top-level srcref): "FILE:LINE", or
 *     "FILE" when the line is unknown, or "[unknown]" without a file,
 *     where the source's nameless lines are places (THE nameless rule,
 *     pcol_frames.rule); where they are frames (pprof's), "<unknown>", as
 *     go tool pprof names a function of no name and no mapping;
 *   - a location without lines (unsymbolized): go tool pprof's name,
 *     "[<basename of its mapping's file>]" (Go's filepath.Base, '\\' a
 *     separator too), or "<unknown>" when it has no mapping or the mapping
 *     no file (the address is not part of the name: `top --by address`
 *     shows it, as pprof -addresses does).
 * File names are used whole (no cut).  Formats whose frames are text
 * separated by ';' (collapsed, fold) replace ';', '\n', '\r' and NUL inside a
 * name by '_' (pcol_frame_sanitize). */
#ifndef PCOL_FRAMES_H
#define PCOL_FRAMES_H

#include "pcol.h"
#include "buf.h"      /* pcol_buf */
#include "hash.h"     /* pcol_u64map */

typedef struct pcol_frames {
  pcol_file *f;
  uint64_t nloc, nlines, nfn, nmap;
  pcol_view loc_off, loc_addr, loc_map, ln_fn, ln_line, fn_name, fn_file, map_file;
  /* THE nameless rule of the selection (pcol_nameless_rule_make, below;
   * the caller owns it): a line of a function without a name, at a line
   * other than 0 and in no mapping, is a place ("FILE:LINE") where the
   * rule says places, and "<unknown>" where it says frames (a pprof
   * source's: go tool pprof -top/-traces name it so).  NULL (set by
   * pcol_frames_init): places. */
  const struct pcol_nameless_rule *rule;
  /* 1: the views' names (the query level sets it, pcol_q_fctx_init), by
   * THE empty-name rule (pcol_frame_fn_empty): a function named "" is shown
   * as go tool pprof shows a function without a name.  0 (pcol_frames_init,
   * the exports): the bytes, "" where the format holds an empty name. */
  int views;
} pcol_frames;

/* Loads the columns the rule reads (zero-copy views). */
int pcol_frames_init(pcol_frames *fr, pcol_file *f, pcol_error *err);

/* THE empty-name rule (review 22 F8): 1 when function fn (1-based) has a
 * name and it is the empty string (not NA: string 0).  pprof cannot tell ""
 * from no name (string_table[0] is "" and every unset field), and go tool
 * pprof prints either as a frame of its own named after its location's
 * mapping, "[libc.so.6]", or "<unknown>" without one (graph.go
 * NameComponents), keyed by that mapping and the function's start line.
 * So every view shows a function named "" so, whatever the source's format
 * (collapsed `a;;b`, speedscope, Firefox, an Rprof `""`, a pcol file): the
 * frame tree (fold, flame, the report page) through pcol_frame_line_name
 * with fr->views set, top and the views of its keys (tree, peek, traces,
 * graph, tags, diff, the report's tables) in lib/query/top.c.  It is never
 * a place (the FILE:LINE of an Rprof function with NA name, which only a
 * source of places has).  The exports keep "" where their format holds
 * one (collapsed, speedscope, Firefox, V8, Perun, Rprof, ClickHouse's
 * pcol_functions), so collapsed -> pcol -> collapsed gives the bytes back;
 * pprof's and OTLP's string 0 and Perfetto's name iid 0 (no name) are the
 * go view of it, and ClickHouse's frames column and views name it as the
 * views do (a key of its own, clickhouse_export.c). */
int pcol_frame_fn_empty(const pcol_frames *fr, uint32_t fn);

/* The system_name string the pprof and OTLP exports write for a function
 * of name string `name` and system_name `system_name`: none (0) when the
 * name is "" (THE empty-name rule, above), else system_name.  Those
 * formats write "" as string 0, no name, and go tool pprof's default mode
 * names a function of no name by its system_name (symbolizer.Demangle,
 * demangleSingleFunction): a Hermes frame of no name, whose system_name is
 * its speedscope key ":CATEGORY", was ":JavaScript" there where every view
 * says <unknown>.  A name that is NA (pprof's string 0) keeps its
 * system_name: a pprof source's copy shows in go what the source does. */
uint32_t pcol_frame_export_system_name(pcol_file *f, uint32_t name, uint32_t system_name);

/* The line rows [*a, *e) of location `loc`, innermost inline frame first;
 * empty for location 0, an id out of range or an address-only location. */
void pcol_frames_lines(const pcol_frames *fr, uint32_t loc, uint64_t *a, uint64_t *e);

/* The location whose lines hold line row li (0: none; a binary search). */
uint32_t pcol_frames_line_location(const pcol_frames *fr, uint64_t li);

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

/* 1 when line row li is named as an unsymbolized location of mapping *m
 * (0: none, "<unknown>"), by the rule above: its function has no name and
 * its location has a mapping, or its line is pprof's 0; else 0.  Exports
 * whose frames have identities (V8, Rprof) take such a line as that
 * unsymbolized frame (pcol_unsym_id), so two libraries' are two frames. */
int pcol_frame_line_unsym(const pcol_frames *fr, uint64_t li, uint32_t *m);

/* THE rule of a nameless frame's file (rd15a F5): *file = the file of line
 * row li's function when it has no name but a file and the line is a
 * number (not pprof's 0, "no line", nor NA), else {NULL, 0}.  The exports
 * whose frames hold a file beside the name (speedscope's frame "file",
 * Firefox's funcTable fileName, V8's url) write it there for a frame
 * named after its mapping ("<unknown>", "[libc.so.6]"), so the viewer
 * shows it and pcol's import reads it back as that function's file. */
int pcol_frame_nameless_file(const pcol_frames *fr, uint64_t li, pcol_str *file, pcol_error *err);

/* THE nameless rule: *places = 1 when the lines of source s's functions
 * without a name are places (an Rprof source's top-level srcrefs, or a
 * source pcol read from its own speedscope or Firefox export of them,
 * meta pcol.nameless_places: named FILE:LINE by the frame rule, left out
 * of top as summaryRprof leaves them), 0 when they are frames of their own
 * (pprof's "<unknown>" or [mapping]).  The views and exports take each
 * location's by pcol_nameless_rule_make, below. */
int pcol_source_nameless_places(pcol_file *f, uint32_t s, int *places, pcol_error *err);

/* THE nameless rule where the selected sources disagree (a merge, or `pcol
 * top a.out b.pb`, of an Rprof profile and a pprof one): each source keeps
 * its own, location by location.  frames / places: some selected source's
 * nameless lines are frames / places.  When both, loc_places[loc] (1 ..
 * nloc) = 1 for a location only the samples of sources of places reach
 * (one a source of frames reaches too takes pprof's rule); else NULL.
 * Free with pcol_nameless_rule_free.  PCOL_ENOMEM with err filled. */
typedef struct pcol_nameless_rule {
  int frames, places;
  uint8_t *loc_places;
  uint64_t nloc;
} pcol_nameless_rule;
int pcol_nameless_rule_make(pcol_file *f, const pcol_select *sel, pcol_nameless_rule *r, pcol_error *err);
void pcol_nameless_rule_free(pcol_nameless_rule *r);
/* The kinds alone of pcol_nameless_rule_make (1 some selected source's
 * nameless lines are places, 2 frames, 3 both), from the sources table
 * and meta, without the pass over the samples (top_many's alike). */
int pcol_nameless_rule_kinds(pcol_file *f, const pcol_select *sel, int *kinds, pcol_error *err);
/* 1 when location loc's nameless lines are frames (pprof's rule), 0 when
 * places (Rprof's: a line-less frame gives its time to the calling line) */
static inline int pcol_nameless_frames_at(const pcol_nameless_rule *r, uint32_t loc) {
  if (!r->loc_places) return r->frames;
  return !(loc && loc <= r->nloc && r->loc_places[loc]);
}

/* THE note of an export whose format cannot say that its sources' nameless
 * lines are places (pprof, Perfetto; review 19 F6): when a selected source
 * is Rprof's (pcol_source_nameless_places) and the profile has both lines
 * with a number and lines without, *said = 1 and text (n bytes) says that
 * by line, summaryRprof's rule gives a line-less frame's time to the
 * calling line, then `there` (the copy's rule: go tool pprof -lines gives
 * it to the frame itself).  Otherwise *said = 0. */
int pcol_places_lines_note(pcol_file *f, const pcol_select *sel, const char *there, char *text,
                           size_t n, int *said, pcol_error *err);

/* The mapping of location `loc` (0: none, or loc or its mapping id out of
 * range).  Unsymbolized locations of one mapping share one name. */
static inline uint32_t pcol_frames_mapping(const pcol_frames *fr, uint32_t loc) {
  uint32_t m = loc && loc <= fr->nloc ? pcol_view_u32(&fr->loc_map, loc - 1) : 0;
  return m <= fr->nmap ? m : 0;
}

/* The name of an unsymbolized location of mapping `m` (pcol_frames_mapping;
 * 0 for none): appended to out.  PCOL_ENOMEM / ECORRUPT with err filled. */
int pcol_frame_unsymbolized_name(const pcol_frames *fr, uint32_t m, pcol_buf *out,
                                 pcol_error *err);

/* Dense ids of the frames of unsymbolized locations, one per name they are
 * printed with (two mappings of /usr/lib/libc.so.6 and /lib/libc.so.6 are
 * one "[libc.so.6]", as in top), for exports whose frames have identities
 * (speedscope, Firefox): zeroed, then pcol_unsym_id per use, then Reset.
 * A mapping's name is made once per distinct file string, so the work is
 * bounded by the file's string bytes, however many mappings share one. */
typedef struct pcol_unsym_ids {
  uint32_t *by_mapping; /* mapping id (0: none) -> id + 1 */
  pcol_u64map by_sid;   /* a mapping's file string id -> its slot in sid_id */
  pcol_buf sid_id;      /* u32: that slot -> id + 1 */
  pcol_hset names;      /* ids + 1, by name */
  pcol_buf name_end;    /* size_t per id: the end of its name in name_bytes */
  pcol_buf name_bytes;  /* the names, one after another */
} pcol_unsym_ids;
/* The id of mapping m's (pcol_frames_mapping) unsymbolized frame, in order
 * of first sight from 0; *added = 1 the first time an id is given.
 * PCOL_ENOMEM / ECORRUPT with err filled. */
int pcol_unsym_id(pcol_unsym_ids *u, const pcol_frames *fr, uint32_t m, uint32_t *id, int *added,
                  pcol_error *err);
void pcol_unsym_ids_reset(pcol_unsym_ids *u);


/* ';', '\n', '\r' and NUL become '_' (collapsed-stack text); how many
 * bytes it changed (two names may then read the same: "a;b" and "a_b"). */
size_t pcol_frame_sanitize(char *p, size_t n);

/* A stack's locations, innermost first, into a growable array (*locs with
 * *cap allocated; *n set).  PCOL_ENOMEM / ECORRUPT with err filled. */
int pcol_stack_locations(pcol_file *f, uint32_t stack_id, uint32_t **locs, size_t *n,
                         size_t *cap, pcol_error *err);

#endif
