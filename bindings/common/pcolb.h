/* pcolb.h — the C glue shared by the R and Python bindings of libpcol.
 *
 * It uses include/pcol.h only (the public API) and gives both bindings:
 *  - the 17 logical views of a file (spec.md §11, what `pcol cat --table`
 *    prints) as whole typed columns: stored columns are borrowed from the
 *    file (zero-copy; valid until pcol_close), the others are filled by
 *    libpcol (pcol_lview_scan) into malloc'd arrays;
 *  - the one rule that turns a stored byte string into valid UTF-8 (every
 *    well-formed UTF-8 sequence kept, every other byte as its Latin-1 code
 *    point, as `pcol cat --format json` writes it);
 *  - a writer that packs such tables (from R data frames or numpy arrays)
 *    back into a pcol file through the builder.
 *
 * Not installed and not part of libpcol: each binding compiles it in. */
#ifndef PCOLB_H
#define PCOLB_H

#include "pcol.h"
#include <stddef.h>
#include <stdint.h>

/* The views themselves are libpcol's (pcol_lview_*, lib/query/views.c, the
 * implementation `pcol cat` prints); these names are the glue's for them. */
typedef pcol_lview_kind pcb_kind; /* what a cell means (spec.md §11.1) */
#define PCB_ID PCOL_LK_ID       /* the row's 1-based id; u32; never null */
#define PCB_REF PCOL_LK_REF     /* u32 id; 0 = null */
#define PCB_STR PCOL_LK_STR     /* u32 string id; 0 = null */
#define PCB_I64 PCOL_LK_I64     /* i64; INT64_MIN = null */
#define PCB_U64 PCOL_LK_U64     /* u64; never null */
#define PCB_F64 PCOL_LK_F64     /* f64; any NaN = null */
#define PCB_BOOL PCOL_LK_BOOL   /* u8, 0 or 1 */
#define PCB_COUNT PCOL_LK_COUNT /* u32 count (a depth); never null */

#define PCB_MAX_COLS PCOL_LVIEW_MAX_COLS
#define PCB_NVIEWS PCOL_LVIEW_COUNT

typedef pcol_lview_info pcb_view_info;

/* The views in the order read_pcol lists them; NULL past the end. */
#define pcb_view_at pcol_lview_at
/* By name; NULL if none. */
#define pcb_view_by_name pcol_lview_by_name

/* One column of a view.  Its values, row r: seq ? r + 1 : data ? data[r] :
 * dflt, with data of element type `type` (PCOL_TYPE_U32 for ID, REF, STR,
 * COUNT; I64; U64; F64; U8 for BOOL). */
typedef struct pcb_col {
  const char *name;
  pcb_kind kind;
  pcol_type type;
  const void *data; /* borrowed from the file (owned == NULL) or `owned` */
  int64_t dflt;     /* bit pattern of every row's value when data and seq are 0 */
  int seq;          /* 1: row r holds r + 1 (ids; the strings view's value) */
  void *owned;      /* malloc'd storage of a computed column, freed by pcb_table_free */
} pcb_col;

typedef struct pcb_table {
  const pcb_view_info *view;
  uint64_t nrows;
  size_t ncols;
  pcb_col cols[PCB_MAX_COLS]; /* only the wanted columns are filled; others have name NULL */
} pcb_table;

/* Which samples the sample views show (all when source_id == 0 and no
 * bound), as `pcol cat --source --from --to` does (spec.md §7). */
typedef struct pcb_select {
  pcol_select sel;
  uint64_t max_rows; /* refuse a view with more rows (0: no limit) */
  /* 1: the columns of a whole stored view are the values as stored
   * (pcol_column_unchecked: O(1), ids not checked against their tables);
   * derived views and selections are checked whatever this says. */
  int unchecked;
} pcb_select;

/* Seconds (as --from/--to take them) into nanoseconds; -1 if not finite or
 * out of range. */
int pcb_seconds(double s, int64_t *ns);

/* One end of sel's time range (is_to: the end, else the start; the start
 * is set first): text as the CLI's --from/--to (pcol_time_parse: seconds
 * since the start, or a wall-clock time, RFC 3339 or @EPOCH, which sets
 * sel->wall), or when text is NULL, secs seconds since the start.  EINVAL,
 * with a message naming the parameter `name`, for a bad value or an end
 * of the other kind than the start. */
int pcb_range_end(pcol_select *sel, int is_to, const char *text, double secs, const char *name,
                  pcol_error *err);

/* Fills *out with view `name`'s columns whose bit is set in `want` (bit k =
 * column k; UINT32_MAX for all).  sel may be NULL (every sample).  Errors
 * (an unknown view, a damaged column, too many rows, no memory) return a
 * PCOL_E* code with a message in err. */
int pcb_table_get(pcol_file *f, const char *name, const pcb_select *sel, uint32_t want,
                  pcb_table *out, pcol_error *err);
void pcb_table_free(pcb_table *t);

/* ------------------------------------------------------------ strings */

/* 1 when p[0..n) is well-formed UTF-8 (RFC 3629) without NUL bytes. */
int pcb_utf8_clean_already(const char *p, size_t n);
/* Writes the UTF-8 rendering of p[0..n) into out (room for 3n bytes):
 * well-formed sequences as they are, every other byte b as U+00bb.  A NUL
 * byte becomes `nul` (NULL: kept as the byte 0; R, which cannot hold NUL in
 * a string, passes U+FFFD).  Returns the length written. */
size_t pcb_utf8_clean(const char *p, size_t n, char *out, const char *nul);

/* ------------------------------------------------------------ writing */

/* A table handed to the writer by a binding: for each column of the view
 * (by index into pcb_view_info.cols) either absent or an array of nrows
 * values in one of these representations. */
typedef enum pcb_in_type {
  PCB_IN_ABSENT = 0,
  PCB_IN_I32,  /* int32; INT32_MIN (R's NA_integer_) = null */
  PCB_IN_F64,  /* double; NaN = null; must be a whole number for integer kinds */
  PCB_IN_I64,  /* int64; INT64_MIN = null */
  PCB_IN_U64,  /* uint64 */
  PCB_IN_U32,  /* uint32 */
  PCB_IN_U8,   /* uint8 / bool */
  PCB_IN_STR   /* strings through pcb_input.get_str */
} pcb_in_type;

typedef struct pcb_in_col {
  pcb_in_type type;
  const void *data;
} pcb_in_col;

typedef struct pcb_in_table {
  int present;
  uint64_t nrows;
  pcb_in_col cols[PCB_MAX_COLS];
} pcb_in_table;

typedef struct pcb_input {
  pcb_in_table t[PCB_NVIEWS]; /* indexed like pcb_view_at */
  /* Gets the UTF-8 bytes of a string cell (*p = NULL for NA); returns 0, or
   * a PCOL_E* code after filling err. */
  int (*get_str)(void *ctx, int view, int col, uint64_t row, const char **p, size_t *len,
                 pcol_error *err);
  void *ctx;
  /* How pcb_write's messages name a cell, in the binding's language:
   * PCB_NAMES_R (0) "samples$stack_id, row 1" (rows from 1), PCB_NAMES_PY
   * "tables['samples']['stack_id'][0]" (indexes from 0). */
  int names;
} pcb_input;
#define PCB_NAMES_R 0
#define PCB_NAMES_PY 1

/* Packs the tables into a pcol file at `path` (atomically, as
 * pcol_builder_write does).  Not reentrant (its sorts compare through a
 * static pointer, qsort having no context in C11): the bindings call it
 * from R's one thread, or with Python's GIL held.  Ids in the input are keys: references are
 * resolved through them, and the file gets new ids in input order (equal
 * to the input's when the input came from pcb_table_get).  Rules:
 * doc in bindings/README.md ("Writing"). */
int pcb_write(const pcb_input *in, const char *path, int compress_lz4, pcol_error *err);

/* ------------------------------------------------------------ streaming writer */

/* pcol_writer (pcol.h, "Streaming writer") as both packages give it: the
 * paths of the files it published are kept, and samples come in batches of
 * flat arrays (a binding flattens its lists, then makes one call). */
typedef struct pcb_writer {
  pcol_writer *w;  /* NULL once closed */
  char **files;    /* published files, in order */
  size_t nfiles, cap;
  int oom;         /* a path could not be kept (out of memory) */
} pcb_writer;

/* Opens a writer at `path` with `opt` (its on_file and ctx are the glue's).
 * *out is NULL on failure. */
int pcb_writer_open(pcb_writer **out, const char *path, const pcol_writer_options *opt, pcol_error *err);
/* Publishes the current file and closes the writer (pw->w = NULL); the
 * list of files stays until pcb_writer_free.  Closing twice is a no-op. */
int pcb_writer_close(pcb_writer *pw, pcol_error *err);
/* Closes (errors dropped) and frees; pw may be NULL. */
void pcb_writer_free(pcb_writer *pw);

/* n samples.  Sample i's stack is frames [frame_off[i], frame_off[i + 1]),
 * ROOT FIRST (as `pcol fold` prints a stack; the glue reverses it into the
 * writer's innermost-first order); its labels are [label_off[i],
 * label_off[i + 1]).  Optional arrays are NULL. */
typedef struct pcb_wbatch {
  size_t n;
  const size_t *frame_off;       /* n + 1 */
  const char *const *function;   /* per frame; NULL = unknown */
  const char *const *file;       /* optional, per frame; NULL = unknown */
  const int64_t *line;           /* optional, per frame; PCOL_NA_I64 or 0 = unknown */
  const int64_t *values;         /* n x nvalues, sample after sample */
  size_t nvalues;
  const int64_t *time_ns;        /* optional, per sample: ns since the epoch; PCOL_NA_I64 = none */
  const int64_t *weight;         /* optional, per sample; 0 = 1 */
  const size_t *label_off;       /* optional, n + 1 */
  const char *const *label_key;  /* per label */
  const char *const *label_str;  /* per label; NULL = a number label */
  const int64_t *label_num;      /* per label (with label_str NULL) */
} pcb_wbatch;

/* Adds the samples in order; *done = how many were added (all on success).
 * A refused sample stops the batch with its index in the message; the
 * samples before it stay added. */
int pcb_writer_add(pcb_writer *pw, const pcb_wbatch *b, size_t *done, pcol_error *err);

/* ------------------------------------------------------------ inputs */

/* The files a path names are the library's rule (pcol_inputs_expand, the
 * CLI's: a directory's regular files by name, read through its index,
 * `pcol index`, when it stands for them; a glob's regular files, each
 * other match skipped and named).  These open them as the CLI does. */

/* What an expansion has to say, for the binding to warn with: why a
 * directory's index is not used, each glob match skipped; a line each,
 * ending in '\n', paths escaped; malloc'd, NULL when none. */
char *pcb_inputs_notes(const pcol_inputs *in);

/* The inputs opened: one file (not a directory's or a glob's) by
 * pcol_open_any, else their union by pcol_open_many (sel: its wall-clock
 * range leaves out the inputs it cannot reach), with an index as the
 * first (first_is_union, given_bytes, and named as the index in messages,
 * not by its descriptor). */
int pcb_open_inputs(const pcol_inputs *in, const pcol_open_options *opt, const pcol_select *sel,
                    pcol_file **out, pcol_error *err);

/* pcol.open / pcol_open of the R and Python bindings: path expanded
 * (pcol_inputs_expand, with a directory's index) and opened
 * (pcb_open_inputs); *notes: pcb_inputs_notes (free it; set on failure
 * too), then on success the importers' warning (err's message of a
 * success: a collapsed file cut short, ...; err's message is cleared),
 * for the binding to warn with, as the CLI does after opening. */
int pcb_open(const char *path, const pcol_open_options *opt, pcol_file **out, char **notes,
             pcol_error *err);

/* The data warnings a view of the CLI prints after opening its n inputs
 * (one; a diff's two, whose filters' lines are said once, of both), which
 * and in its words (pcol_view_notes, the library's rule: a label key in
 * several units, a filter that matched no sample, the value's, a relative
 * range over several recordings, a range that selects no sample); by: the
 * view's --by ("label:KEY": its filters see KEY's frames), or NULL; a line each, "LABEL: TEXT\n" with the label of
 * the input it is about (label NULL, or a filter's line: "TEXT\n");
 * malloc'd (free it), NULL when none.  v: of each input, as
 * pcol_value_resolve gave it; asked: the user named the value; advice:
 * how the binding's user names one ("name one with value='TYPE'"; NULL:
 * the CLI's); kinds: each line begins "warning: " or "note: ", as the CLI
 * says it (a binding whose warnings are one kind passes 0); sels: NULL,
 * or each input's own selection where the inputs' differ (pcol_view_notes'
 * sels).  A damaged table says nothing here: the view will say so. */
char *pcb_view_notes(pcol_file *const *f, size_t n, const char *by, const pcol_select *sel,
                     const pcol_select *const *sels, const pcol_value_sel *v, int asked, const char *const *label, const char *advice,
                     int kinds);

#endif
