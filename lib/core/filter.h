/* filter.h — a selection's name and label filters, and regular expressions
 * (filter.c).  Inside libpcol only (not installed). */
#ifndef PCOL_CORE_FILTER_H
#define PCOL_CORE_FILTER_H

#include "pcol.h"
#include "buf.h" /* pcol_buf */
#include <regex.h>
#include <stddef.h>
#include <stdint.h>

/* The name and label filters of a selection (filter.c), built once per
 * view: which stack nodes and label sets keep a sample, and which lines and
 * locations hide/show removed from the stacks (NULL when neither is given),
 * and the stack nodes show_from cuts away (the frames above a stack's
 * outermost match: node_cut[n] = 1, the node's frames are not in its
 * stacks; NULL without show_from).  `matched` has bit 0 when focus matched
 * a location, 1 ignore, 2 hide, 3 show, 4 show_from (pprof warns "...
 * expression matched no samples" otherwise); loc_bits those bits of each
 * location (pcol_filter_warnings: of the locations pprof's merge keeps). */
typedef struct pcol_filter {
  int active;
  unsigned matched;
  uint8_t *node_keep;   /* [stacks + 1], NULL without name filters */
  uint8_t *line_hidden; /* [lines], NULL without hide/show */
  uint8_t *loc_hidden;  /* [locations + 1], NULL without hide/show */
  uint8_t *node_cut;    /* [stacks + 1], NULL without show_from */
  uint8_t *ls_keep;     /* [labelsets + 1], NULL without label filters (bit 0 kept) */
  uint8_t *loc_bits;    /* [locations + 1] with name filters: the regexes each matched */
  uint8_t *node_state;  /* [stacks + 1] focus/ignore/visible/show_from bits, with node_keep */
  uint8_t *ls_root;     /* [labelsets + 1] the root frame's bits (pcol_filter_root), or NULL */
  int rooted;           /* pcol_filter_root ran: every sample has a frame (its root's) */
  pcol_view s_stack, s_labelset;
  uint64_t nstacks, nlabelsets;
} pcol_filter;
/* pcol_filter_warnings with each file's own selection: sels NULL, or
 * sels[i] (NULL: sel) f[i]'s, its filters sel's, its source and range its
 * own (pcol_view_notes' sels: a side opened with its source and range
 * taken first).  filter.c */
size_t pcol_filter_warnings_sides(pcol_file *const *f, size_t n, const pcol_select *sel,
                                  const pcol_select *const *sels, char *buf, size_t cap, pcol_error *err);
/* Builds the filter of sel (inactive when sel has none).  EINVAL for a bad
 * regular expression. */
int pcol_filter_build(pcol_file *f, const pcol_select *sel, pcol_filter *out, pcol_error *err);
/* 1 when sample `row` passes the filter (always for an inactive one). */
int pcol_filter_keep(const pcol_filter *x, uint64_t row);
/* go tool pprof -tagroot=KEY (pcol top --by label:KEY): each sample gets
 * one more frame at its root, a function named by its label set's values of
 * KEY (names[ls_name[ls]]; "" for a set without KEY) in file `file` (KEY),
 * and the name filters see it as any other location (driver/tagroot.go,
 * then applyFocus): a sample without locations then has one, so it is
 * kept unless a filter drops it; ignore matching the frame drops the sample;
 * hide or show can hide the frame, leaving the sample its own stack.
 * ls_name has nlabelsets + 1 entries.  Without a name filter only marks
 * the filter `rooted` (a sample without locations is kept: it has the
 * frame). */
int pcol_filter_root(pcol_filter *x, const pcol_select *sel, const pcol_str *names,
                     uint64_t nnames, const uint32_t *ls_name, pcol_str file, pcol_error *err);
/* 1 when sample `row`'s root frame (pcol_filter_root) is left after hide,
 * show and show_from: the sample counts for its label's row. */
int pcol_filter_root_shown(const pcol_filter *x, uint64_t row);
/* PCOL_OK when some label of f has key `key`, else ENOTFOUND naming `what`
 * and listing the file's label keys (an unknown key is an error, never an
 * empty answer). */
int pcol_label_key_check(pcol_file *f, const char *what, const char *key, pcol_error *err);
void pcol_filter_free(pcol_filter *x);
/* The mapping file the name filters match for location loc of f, whose
 * mapping id is m (mfile: the mappings' filename column, nmap rows): 1 and
 * *sid its string id, or 0 when the location has none.  In a file without
 * any mapping every location read from the profile has one whose file is
 * "" (*sid 0): go tool pprof gives a profile without mappings that fake
 * mapping (driver/fetch.go), so an expression that matches "" (^$, .*)
 * matches every such location.  The locations made after (f->late_locs:
 * -tagroot/-tagleaf's label frames, which tagroot.go makes without a
 * Mapping) have none: filter.go tests a mapping only when there is one. */
int pcol_filter_loc_mapping(const pcol_file *f, const pcol_view *mfile, uint64_t nmap, uint64_t loc,
                            uint32_t m, uint32_t *sid);
/* The file's label keys: which string ids are label keys (kind: bit 1
 * with a string value, bit 2 with a number), and each numeric key's unit
 * by pprof's NumLabelUnits (profile.go), the one rule of pcol for it:
 * -tagfocus/-tagignore ranges, -tags and -traces name a key's numbers in
 * it, whatever unit each label gives (pcol_label_key_unit). */
typedef struct pcol_label_keys {
  uint64_t nstr;
  uint8_t *kind;  /* per string id */
  uint32_t *unit; /* per string id: the first non-empty unit, 0 none */
} pcol_label_keys;
int pcol_label_keys_load(pcol_file *f, pcol_label_keys *k, pcol_error *err);
void pcol_label_keys_free(pcol_label_keys *k);
/* Numeric key `key`'s (string id) unit: the first unit a label of it
 * gives, else "bytes" for "alignment" and "request", else the key's own
 * name. */
int pcol_label_key_unit(pcol_file *f, const pcol_label_keys *k, uint32_t key, pcol_str *u,
                        pcol_error *err);
/* A user's regular expression (Go's syntax, pprof's) compiled for POSIX
 * regexec (regex_go.c): `a` reads a name that has none of the bytes
 * `route` names, `u` any other name, made valid UTF-8 first. */
enum { PCOL_RX_HIGH = 1, PCOL_RX_NL = 2, PCOL_RX_NUL = 4 }; /* >= 0x80, "\n", NUL */
typedef struct pcol_rx {
  regex_t a, u;
  int route;
} pcol_rx;
/* The one way pcol compiles a user's regular expression (regex_go.c):
 * EINVAL naming `what` and the expression when it is bad or has what pcol
 * cannot match as Go does.  pcol_rx_free after success only. */
int pcol_rx_compile(pcol_rx *rx, const char *what, const char *re, pcol_error *err);
/* pcol_rx_compile, and on EINVAL *own says whose refusal it is: 0 Go's
 * regexp.Compile refuses re too, 1 Go reads it but pcol cannot match it as
 * Go does (its bounds, ^ $ under (?m), what regcomp refuses): a caller that
 * does what Go does with an expression Go refuses (a pprof profile's
 * drop_frames: nothing) tells them apart. */
int pcol_rx_compile_own(pcol_rx *rx, const char *what, const char *re, int *own, pcol_error *err);
void pcol_rx_free(pcol_rx *rx);
/* Go's regular expression re (RE2 syntax, pprof's) as the POSIX extended
 * ones of pcol_rx, NUL-terminated in a and u (each at most 256 KiB and
 * 512 bytes), and its route.  PCOL_EINVAL with *why for what has no such
 * form, what Go refuses, and what regcomp would build too much of (regex_cost.c),
 * PCOL_ENOMEM. */
int pcol_rx_from_go(const char *re, pcol_buf *a, pcol_buf *u, int *route, const char **why);
/* Whether rx matches byte string s (NA = "") as Go's regexp.MatchString
 * does, through a NUL-terminated copy kept in *buf (*cap bytes, grown as
 * needed): 1 match, 0 not, -1 out of memory. */
int pcol_rx_match(const pcol_rx *rx, char **buf, size_t *cap, pcol_str s);

#endif
