/*
 * pcol.h — the one public header of libpcol.
 *
 * libpcol reads pcol files zero-copy (read-only mmap or a caller's buffer) and
 * writes them through an in-memory builder.  It also converts other profile
 * formats (Rprof, pprof, Perun, collapsed stacks, ...) into a builder and pcol
 * files back out to them.  The on-disk format is specified in spec.md; a
 * reference of every function is doc/api.md (checked against this header by
 * tests/api_doc.py in `make check`).
 *
 * Contents
 *   level 1: core (lib/core)      errors, NA values, schema, reader (open,
 *                                 columns, lanes, views, strings, stacks,
 *                                 meta), builder (pcol_builder_*, pcol_b_*),
 *                                 selection, atomic output, inputs
 *                                 (files, directories, globs, an index),
 *                                 streaming writer
 *   level 2: query (lib/query)    sums, values, stack weights, top, peek,
 *                                 graph, list, source summaries, units,
 *                                 labels and traces, frame tree, diffs,
 *                                 export budget, fold, report, logical views,
 *                                 frame rows
 *   level 3: convert (lib/convert) formats, importers, open_any/open_many,
 *                                 exporters, ClickHouse
 *
 * Conventions (after nanoarrow, LMDB); each is written here once:
 *  - Status: every function that can fail returns a pcol_status: PCOL_OK (0)
 *    or a negative PCOL_E* code, and fills the optional `pcol_error *err`
 *    (may be NULL) with the code and a message.  Status returns are
 *    PCOL_NODISCARD: the compiler warns when a caller drops one.  The only
 *    int returns are pcol_error_set, pcol_error_prefix and
 *    pcol_output_budget_error, which hand back the code they were given.
 *  - Which file: the opening functions' messages name the file (its path,
 *    pcol_open_stream's name, the inputs of pcol_open_any/pcol_open_many;
 *    pcol_open_buffer's have none).  Once f is open, a message says where
 *    in it (a byte range, a section's offset, a table, column and row) but
 *    not which file: pcol_validate_full, a view reading a damaged column
 *    first, an exporter.  A caller with several files open puts the name
 *    in front with pcol_error_prefix (the CLI does, once).
 *  - Warnings: a success may leave a warning in err (code PCOL_OK, message
 *    set; the importers do): pass a cleared err and look at message[0].
 *  - Types: predicates and flags are bool; lengths and counts are size_t
 *    or uint64_t; ids are uint32_t; an int is a status, a table or column
 *    number, or an enum-like mode named where it is declared.
 *  - Ids are 1-based row numbers; 0 means "none" (NA) for every foreign key
 *    and for string ids.
 *  - Ownership: views, strings and names returned by a pcol_file are
 *    borrowed: valid until pcol_close().  A result a function allocates has
 *    a pcol_*_free() beside it, or (arrays) is freed with free() as its
 *    comment says.  What a callback receives is borrowed for the callback
 *    only: copy what you keep.
 *  - Callbacks: the iterators (pcol_stack_walk, pcol_select_iter,
 *    pcol_traces_iter, pcol_traces_iter_mean, pcol_traces_iter_by, pcol_lview_scan,
 *    pcol_frame_rows_scan) call
 *    fn(ctx, ...), which returns 0
 *    to go on, > 0 to stop early (the iterator then returns PCOL_OK), or < 0
 *    (a PCOL_E* code) to fail: the iterator stops and returns that code,
 *    leaving err as fn left it (fn says why it failed, through its ctx).
 *  - No global state a caller sees, but for three process-wide items,
 *    each thread-safe: the table of temporary output files in flight (32
 *    slots, atomics; every pcol_out, so every file the library or the
 *    streaming writer publishes, registers there, for a signal handler's
 *    pcol_out_remove_inflight), the hash key drawn once per process
 *    (pthread_once), and a per-thread cache of the last unit parsed.  All
 *    reads of an open file are thread-safe.
 */
#ifndef PCOL_H
#define PCOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Marks the functions libpcol.so exports; everything else is hidden. */
#if defined(__GNUC__)
#define PCOL_API __attribute__((visibility("default")))
#else
#define PCOL_API
#endif

/* A status: PCOL_OK (0) or a negative PCOL_E* code (the convention above). */
typedef int pcol_status;
/* On status returns: the compiler warns when a caller ignores one.  gcc
 * warns even through a (void) cast; ignore one on purpose with
 * `if (f(...)) { }` and a comment why. */
#if defined(__GNUC__)
#define PCOL_NODISCARD __attribute__((warn_unused_result))
#else
#define PCOL_NODISCARD
#endif

/* The library's version (the Makefile and pcol.pc read it from here).  The
 * major number changes with an incompatible change of this header; it is
 * the SONAME's number (libpcol.so.MAJOR), and a program built against one
 * major version runs only against that one.  Incompatible: a function's
 * parameters or return type, a public struct's size or layout (the option
 * structs carry no size or version field: the library reads a caller's
 * pcol_open_options whole, so a field added to it is incompatible; but
 * for a field in bytes that were padding whose 0 keeps the old behaviour,
 * for callers that initialize the struct whole, as 1.1's
 * pcol_write_options.lz4_level), an
 * enum's or macro's value that a caller passes or compares (a status, a
 * table or column id, a flag, a format_version number), a function
 * removed.  A minor version only adds functions, macros and enum values
 * (its new functions in a version node of their own, lib/libpcol.map, so
 * that a program using one fails to load on an older library instead of
 * failing at its first call); the macros that describe a release
 * (PCOL_VERSION_*, PCOL_FORMAT_*, PCOL_WRITE_FORMAT_DEFAULT, the default
 * levels) follow it.  A patch changes no declaration.  What changed for
 * callers in each release: NEWS.md.  1.0.0 is the first release under this
 * rule: 0.2.0's libpcol.so.0 declared pcol_open_options in 16 bytes and
 * pcol_section_get without its err.  1.1.0 added PCOL_EBUDGET,
 * pcol_value_rprof_note, pcol_value_lacking_notes, pcol_unit_base,
 * pcol_range_note, pcol_top_many_range_note (node PCOL_1.1) and pcol_write_options.lz4_level, in a byte that was the
 * struct's padding ("Since 1.1" at each).  1.2.0 adds pcol_view_notes,
 * pcol_value_diff_default, pcol_source_span_starts, pcol_source_who,
 * pcol_lines_rule_note, pcol_open_readdressed and pcol_diff_mark_inline
 * (node PCOL_1.2); pcol_export_notes and
 * pcol_export_note_kind (PCOL_EXPORT_LOSS, PCOL_EXPORT_DATA), said where
 * pcol_export_options.note_kinds is set; the macro
 * PCOL_VALUE_WEIGHT_COLUMN; and, in bytes that were padding (so for
 * callers that initialize the struct whole: = {0}, designated
 * initializers, memset), pcol_export_options.note_kinds,
 * pcol_open_options.verify_sums and pcol_value_sel.column. */
#define PCOL_VERSION_MAJOR 1
#define PCOL_VERSION_MINOR 2
#define PCOL_VERSION_PATCH 0
#define PCOL_VERSION_NUMBER \
  (PCOL_VERSION_MAJOR * 100 * 100 + PCOL_VERSION_MINOR * 100 + PCOL_VERSION_PATCH)
#define PCOL_VERSION_STRING "1.2.0"
/* The on-disk format this library writes (spec.md). */
#define PCOL_FORMAT_MAJOR 1
#define PCOL_FORMAT_MINOR 5

/* ================================================== level 1: core (lib/core)
 * Read, validate, build and write pcol files; sample selection. */

/* ---------------------------------------------------------------- errors */

enum {
  PCOL_OK = 0,
  PCOL_EINVAL = -1,      /* bad argument or usage */
  PCOL_ENOMEM = -2,      /* allocation failed */
  PCOL_EIO = -3,         /* read/write/fsync/rename failed */
  PCOL_ECORRUPT = -4,    /* the input is damaged or malformed */
  PCOL_EUNSUPPORTED = -5,/* valid but needs a newer reader (version, flag) */
  PCOL_ETOOBIG = -6,     /* a size exceeds a configured or hard limit */
  PCOL_ENOTFOUND = -7,   /* no such table/column/value type */
  PCOL_EFORMAT = -8,     /* input is not in a format we can read */
  /* an output, or the output held in memory to write it, would pass its
   * output budget B (pcol_output_budget, "export budget" below: an export,
   * fold, a view's text): refused, with THE budget message
   * (pcol_output_budget_error).  A limit of the caller's choosing, not bad
   * input: raise max_output_bytes (the CLI exits 3).  What was written to
   * the caller's stream before the refusal stays there: at most B bytes,
   * of a text format as many whole lines as fit, but for a last line that
   * may be unfinished (the CLI's standard output holds that one back).
   * Since 1.1: 1.0 returned PCOL_ETOOBIG for these refusals. */
  PCOL_EBUDGET = -9
};

typedef struct pcol_error {
  int code;
  char message[512];
} pcol_error;

/* Sets err (if non-NULL) and returns code.  printf-style. */
PCOL_API int pcol_error_set(pcol_error *err, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
PCOL_API const char *pcol_strerror(int code);
/* Puts "prefix: " before err's message (a file name, a command), keeping
 * its code; does nothing when err is NULL.  Returns err->code (or 0). */
PCOL_API int pcol_error_prefix(pcol_error *err, const char *prefix);

/* The library's version as PCOL_VERSION_NUMBER and as a string. */
PCOL_API unsigned pcol_version(void);
PCOL_API const char *pcol_version_string(void);

/* ------------------------------------------------------------ NA values */

#define PCOL_NA_I64 INT64_MIN /* "unknown" in i64 columns that allow NA */

/* --------------------------------------------------------------- schema */

/* Physical element types of a column section. */
typedef enum pcol_type {
  PCOL_TYPE_U8 = 1,
  PCOL_TYPE_U32 = 2, /* also ids and string ids */
  PCOL_TYPE_I64 = 3,
  PCOL_TYPE_U64 = 4, /* also offsets */
  PCOL_TYPE_F64 = 5,
  PCOL_TYPE_BYTES = 6 /* opaque bytes (string data) */
} pcol_type;

/* Stored tables.  Numbers are the on-disk table ids (spec.md §5). */
typedef enum pcol_table {
  PCOL_T_STRINGS = 1,
  PCOL_T_META = 2,
  PCOL_T_SOURCES = 3,
  PCOL_T_VALUE_TYPES = 4,
  PCOL_T_SOURCE_VALUE_TYPES = 5,
  PCOL_T_FUNCTIONS = 6,
  PCOL_T_MAPPINGS = 7,
  PCOL_T_LOCATIONS = 8,
  PCOL_T_LINES = 9,
  PCOL_T_STACKS = 10,
  PCOL_T_SAMPLES = 11,
  PCOL_T_VALUES = 12,
  PCOL_T_LABELSETS = 13,
  PCOL_T_LABELS = 14,
  PCOL_T_TEXT_LINES = 15,
  PCOL_T_SAMPLE_TEXT = 16,
  PCOL_T_MODELS = 17,
  PCOL_T_SOURCE_SUMMARY = 18, /* format 1.3: what the samples of each source add up to */
  PCOL_T_COUNT_ = 19 /* one past the last table id */
} pcol_table;

/* Column ids, per table (on-disk column ids; 0 is the table's row-count entry). */
enum {
  PCOL_C_STRINGS_OFFSETS = 1, PCOL_C_STRINGS_BYTES = 2,

  PCOL_C_META_KEY = 1, PCOL_C_META_VALUE = 2, PCOL_C_META_SOURCE = 3,

  PCOL_C_SOURCES_TYPE = 1, PCOL_C_SOURCES_URI = 2, PCOL_C_SOURCES_TIMESTAMP = 3,

  PCOL_C_VT_TYPE = 1, PCOL_C_VT_UNIT = 2,

  PCOL_C_SVT_SOURCE = 1, PCOL_C_SVT_VALUE_TYPE = 2,
  PCOL_C_SVT_TOTAL = 3, PCOL_C_SVT_ROWS = 4, /* format 1.3, with source_summary */

  PCOL_C_FN_NAME = 1, PCOL_C_FN_SYSTEM_NAME = 2, PCOL_C_FN_FILENAME = 3,
  PCOL_C_FN_START_LINE = 4,

  PCOL_C_MAP_START = 1, PCOL_C_MAP_LIMIT = 2, PCOL_C_MAP_OFFSET = 3,
  PCOL_C_MAP_FILENAME = 4, PCOL_C_MAP_BUILD_ID = 5, PCOL_C_MAP_FLAGS = 6,

  PCOL_C_LOC_MAPPING = 1, PCOL_C_LOC_ADDRESS = 2, PCOL_C_LOC_FLAGS = 3,
  PCOL_C_LOC_LINE_OFFSETS = 4,

  PCOL_C_LINE_FUNCTION = 1, PCOL_C_LINE_LINE = 2, PCOL_C_LINE_COLUMN = 3,

  PCOL_C_STACK_PARENT = 1, PCOL_C_STACK_LOCATION = 2,

  PCOL_C_S_SOURCE = 1, PCOL_C_S_TIME = 2, PCOL_C_S_DURATION = 3,
  PCOL_C_S_WEIGHT = 4, PCOL_C_S_CPU_DELTA = 5, PCOL_C_S_STACK = 6,
  PCOL_C_S_LABELSET = 7, PCOL_C_S_VALUE_OFFSETS = 8,

  PCOL_C_V_TYPE = 1, PCOL_C_V_VALUE = 2,

  PCOL_C_LS_OFFSETS = 1,

  PCOL_C_LB_KEY = 1, PCOL_C_LB_STR = 2, PCOL_C_LB_NUM = 3, PCOL_C_LB_UNIT = 4,

  PCOL_C_TL_SOURCE = 1, PCOL_C_TL_BEFORE = 2, PCOL_C_TL_TEXT = 3,

  PCOL_C_ST_SAMPLE = 1, PCOL_C_ST_TEXT = 2,

  PCOL_C_MOD_SOURCE = 1, PCOL_C_MOD_UID = 2, PCOL_C_MOD_MODEL = 3,
  PCOL_C_MOD_METHOD = 4, PCOL_C_MOD_R_SQUARE = 5, PCOL_C_MOD_X_START = 6,
  PCOL_C_MOD_X_END = 7, PCOL_C_MOD_COEFFS = 8,
  /* source_summary (format 1.3, spec.md §6.10): row s - 1 is source s */
  PCOL_C_SUM_ROWS = 1, PCOL_C_SUM_WEIGHT = 2, PCOL_C_SUM_TIME_FIRST = 3,
  PCOL_C_SUM_TIME_LAST = 4, PCOL_C_SUM_TIME_END = 5, PCOL_C_SUM_UNTIMED = 6
};

/* Mapping flag bits (mappings.flags). */
enum {
  PCOL_MAP_HAS_FUNCTIONS = 1,
  PCOL_MAP_HAS_FILENAMES = 2,
  PCOL_MAP_HAS_LINE_NUMBERS = 4,
  PCOL_MAP_HAS_INLINE_FRAMES = 8
};
/* Location flag bits (locations.flags). */
enum { PCOL_LOC_IS_FOLDED = 1 };

/* Describes one column of the schema (static data; see lib/schema.c). */
typedef struct pcol_column_info {
  uint16_t id;
  const char *name;
  pcol_type type;
  bool is_offsets;   /* 1: rows+1 entries; element i..i+1 bounds row i's children */
  bool is_string;    /* 1: u32 string ids */
  int ref_table;    /* table whose 1-based ids this column holds, 0 if none */
  int64_t dflt;     /* value of every row when the column is absent (bit pattern) */
} pcol_column_info;

typedef struct pcol_table_info {
  uint16_t id;
  const char *name;
  size_t ncolumns;
  const pcol_column_info *columns; /* columns[k].id == k+1 */
  int child_table; /* table addressed by this table's offsets column, 0 if none */
} pcol_table_info;

/* NULL if the id is unknown. */
PCOL_API const pcol_table_info *pcol_table_info_get(int table);
/* Look up a stored table by its spec.md §5 name ("samples") or the name
 * `pcol info` prints ("samples_stored"); NULL if none. */
PCOL_API const pcol_table_info *pcol_table_info_by_name(const char *name);
PCOL_API const pcol_column_info *pcol_column_info_get(int table, int column);

/* ---------------------------------------------------------------- reader */

typedef struct pcol_file pcol_file;

/* go tool pprof -symbolize=local|none for inputs in other formats (the
 * pprof and OTLP importers): with PCOL_SYMBOLIZE_LOCAL the addresses of every mapping
 * that has no function names yet (not [vdso]-like, not a URL) are looked
 * up in its binary on this machine with llvm-symbolizer, else addr2line
 * (the first on PATH, started without a shell), and their functions, files,
 * lines and inline chains replace the location's lines in the import.  The
 * binary is looked for as pprof looks for it: in each directory of
 * binary_path (':'-separated; NULL: $PPROF_BINARY_PATH, else
 * $HOME/pprof/binaries) by build id, then by name, then at the mapping's
 * own path; a binary whose build id differs is not used.  What could not be
 * symbolized is a warning (the warning rule), as pprof's "Local
 * symbolization failed for ...".  Then every function whose name is empty
 * or its system name is named as pprof's default demangling names it (C++,
 * Rust; doc/cli.md), its system name kept.  The tool runs once a binary
 * (all the mappings that find it together).  Bounds, for an input's runs together
 * (doc/safety.md): 4 Mi addresses, 64 MiB of new names and frames, lines of
 * 1 MiB, 60 s (PCOL_SYMBOLIZE_TIMEOUT). */
enum { PCOL_SYMBOLIZE_NONE = 0, PCOL_SYMBOLIZE_LOCAL = 1 };
typedef struct pcol_symbolize_options {
  int mode; /* PCOL_SYMBOLIZE_NONE (0: never a subprocess) or _LOCAL */
  const char *binary_path;
} pcol_symbolize_options;

typedef struct pcol_open_options {
  bool no_mmap;                 /* 1: read the file into memory instead of mmap */
  /* 1: a pcol file's checksums (body, sections, padding) are verified at
   * open, O(size), as pcol_validate_full and `pcol merge` verify them; by
   * pcol_open*, and pcol_open_any/pcol_open_many for each pcol input.  For
   * a command that writes a profile of what it reads (`pcol unpack`): a
   * view reads without this pass (each column checked on first use), so a
   * flipped bit in a section can change its numbers (doc/safety.md).  (In
   * bytes that were padding: the struct's size and layout are 1.0's.) */
  bool verify_sums;
  uint64_t max_decoded_bytes;  /* cap on any one decoded (LZ4) section; 0 = 4 GiB */
  /* The row budget: the rows of all known tables together, checked at
   * open (PCOL_ETOOBIG past it; a resource limit, not a rule of the
   * format).  0 = max(PCOL_ROW_BUDGET_MIN, PCOL_ROW_BUDGET_PER_BYTE x the
   * file's size): a zstd file can declare 32768 rows a byte, and work is
   * linear in rows (doc/safety.md, "Resource bounds"). */
  uint64_t max_rows;
  /* pcol_open_any, pcol_open_many: an input in another format (or a
   * union) is laid out in memory as pcol_builder_write writes it by
   * default (`pcol pack`, `pcol merge`: what `pcol info` describes), not
   * with plain columns for one reading (the default under 16 MiB: faster
   * to make, as fast to read) */
  bool as_written;
  /* pcol_open_many, pcol_top_many: when not 0, the bytes the inputs stand
   * for, the union's pcol_input_bytes (the base of its budgets) in place of
   * their sizes on disk: a directory's index (`pcol index`) stands for the
   * files it covers, so a view gets the budgets it would get of them */
  uint64_t given_bytes;
  /* pcol_open_many: the first input is a union written before (a
   * directory's index) and the others come after its files: its rows are
   * taken as they are (its mapping rows are not matched with each other, as
   * each importer keeps a profile's own), so the union is the one of its
   * files and the others, id for id */
  bool first_is_union;
  /* pcol_open_any (names[0]), pcol_open_many (names[i] for paths[i]): an
   * input's name in its source and in messages, where it is not its path
   * (NULL, or a NULL entry: the path): the CLI names a profile it fetched
   * over HTTP by its URL, not by the temporary file that holds it */
  const char *const *names;
  /* pcol_open_any, pcol_open_many: an input in another format is imported
   * with it (pcol_import_options.symbolize) */
  pcol_symbolize_options symbolize;
} pcol_open_options;
/* Real profiles hold at most ~5 rows a byte packed with zstd:19 (a million
 * samples of one stack: ~570); 16 Mi rows take well under a second. */
#define PCOL_ROW_BUDGET_PER_BYTE 1024
#define PCOL_ROW_BUDGET_MIN ((uint64_t)1 << 24)

/* Opens a pcol file read-only.  Checks the header, the directory and every
 * section's bounds, alignment and size (cost: O(number of sections)). */
PCOL_API PCOL_NODISCARD pcol_status pcol_open(const char *path, const pcol_open_options *opt,
                                              pcol_file **out, pcol_error *err);
/* Same checks on caller-owned memory, which must outlive the pcol_file. */
PCOL_API PCOL_NODISCARD pcol_status pcol_open_buffer(const void *data, size_t len,
                                                     const pcol_open_options *opt, pcol_file **out,
                                                     pcol_error *err);
/* Reads a whole stream (a pipe, standard input) into memory and opens that;
 * the file owns the copy (freed by pcol_close).  `name` is used in messages.
 * pcol_open(path "-") does this for standard input. */
PCOL_API PCOL_NODISCARD pcol_status pcol_open_stream(FILE *in, const char *name,
                                                     const pcol_open_options *opt, pcol_file **out,
                                                     pcol_error *err);
PCOL_API void pcol_close(pcol_file *f);

/* Full validation: checksums, every offset monotonic and in range, every id in
 * range, stack parents before children, exact decoded sizes, sample order.
 * Its message says where, not which file (the convention "Which file"). */
PCOL_API PCOL_NODISCARD pcol_status pcol_validate_full(pcol_file *f, pcol_error *err);

typedef struct pcol_header_info {
  uint16_t major, minor;
  uint64_t incompat_flags, compat_flags;
  uint64_t file_size, dir_offset;
  uint32_t dir_count;
  uint32_t body_crc, header_crc;
} pcol_header_info;
PCOL_API void pcol_file_header(const pcol_file *f, pcol_header_info *out);
/* The size f counts as, the base of every budget (doc/safety.md,
 * "Resource bounds"); not always the file's size on disk.  A pcol file:
 * its size as read, but a format-1.3 file (whose constant and delta
 * columns are stored in a few bytes) counts as the size its columns would
 * have stored plain, at most 64 times its own size (an 862 KB 1.3 file may
 * count as 2.5 MB).  A profile converted in memory by
 * pcol_open_any/pcol_open_many: the size of its input file(s) as they are
 * on disk, or the plain size of the pcol image it became when that is
 * larger, at most 8 times the size on disk (a .pb.gz counts about as its
 * inflated protobuf, as its .pcol does); an input whose size is unknown
 * (standard input, a pipe) counts as that image's size.  For the file's
 * own size use pcol_file_header's file_size. */
PCOL_API uint64_t pcol_input_bytes(const pcol_file *f);

/* One directory entry, as stored (a compact 1.2 entry, spec.md §3.1:
 * offset and decoded_size computed, crc 0). */
typedef struct pcol_section_info {
  uint16_t table, column;
  uint8_t type, codec;  /* codec: 0 raw, 1 LZ4, 2 zstd (format 1.1), 3 zstd blocks (1.4) */
  uint16_t transform;   /* transform bits: 1 delta, 2 byte-stream split (1.1), 4 row-relative (1.2),
                         * 8 encoded (1.3); 8 | 2 (1.5): encoded, each lane's codes byte-split
                         * inside the codec's output (spec.md §4.1), not the section split */
  uint64_t offset, stored_size, decoded_size, count;
  uint32_t crc;
} pcol_section_info;
PCOL_API uint32_t pcol_section_count(const pcol_file *f);
PCOL_API PCOL_NODISCARD pcol_status pcol_section_get(const pcol_file *f, uint32_t index,
                                                     pcol_section_info *out, pcol_error *err);

/* Rows of a stored table (0 if the table is absent). */
PCOL_API uint64_t pcol_rows(const pcol_file *f, int table);

/* One lane of an encoded column (format 1.3, spec.md §4.1): its row r
 * holds base + r x step + code[r] (modulo 2^64), where code[r] is an
 * unsigned integer of `width` bytes (0: every code is 0); a code of all
 * one bits is patched by the lane's exception for row r when it has one. */
typedef struct pcol_lane {
  uint64_t base, step;
  const void *codes;      /* rows x width bytes, in the file (NULL for width 0) */
  uint32_t width;         /* 0, 1, 2, 4 or 8 */
  uint32_t nexc;          /* exceptions, rows strictly increasing */
  const uint64_t *exc;    /* nexc pairs (row, value), in the file */
  /* (made at first use, not stored) exc_first[b]: the first exception of a
   * row >= b x 2^PCOL_EXC_BLOCK_BITS, for b = 0 .. (rows >> bits) + 1: a
   * patched code is found among its block's exceptions, not all of them */
  const uint32_t *exc_first;
} pcol_lane;

/* A borrowed, typed view of one column.  Read it with pcol_view_u32 and
 * its siblings, which know every form below. */
typedef struct pcol_view {
  const void *data;   /* plain column: the elements; NULL when absent (every
                       * row is `dflt`) or encoded (nlanes > 0) */
  uint64_t count;     /* number of elements (rows, or rows+1 for offsets) */
  pcol_type type;
  int64_t dflt;       /* default for an absent column (bit pattern) */
  /* format 1.3 encoded column: element i is in lane i mod nlanes at row
   * i / nlanes (spec.md §4.1); owned by the file, valid until close */
  uint32_t nlanes;
  const pcol_lane *lanes;
} pcol_view;

/* Gets a column (decoding a compressed section once, on first use).  An absent
 * column gives data == NULL and count == expected count. */
PCOL_API PCOL_NODISCARD pcol_status pcol_column(pcol_file *f, int table, int column, pcol_view *out,
                                                pcol_error *err);
/* The same view, but of the values as the file stores them, without the
 * first-use value checks (spec.md §8.2: ids in range, flags, positions): for
 * a stored, uncompressed value column this costs O(1) whatever its size, and
 * data[0 .. count) is in bounds (open checked the section, rule D13).  The
 * ids in it may be out of range or 0 in a damaged file, so never index a
 * table with them; pcol_column (checked) is for that.  An absent, offsets,
 * LZ4 or unaligned column is returned as pcol_column returns it (checked).
 * For programs that hand a column on (the language bindings); doc/safety.md. */
PCOL_API PCOL_NODISCARD pcol_status pcol_column_unchecked(pcol_file *f, int table, int column,
                                                          pcol_view *out, pcol_error *err);

#define PCOL_EXC_BLOCK_BITS 6
/* Element i of an encoded view as a 64-bit pattern (spec.md §4.1). */
PCOL_API uint64_t pcol_lane_patch(const pcol_lane *l, uint64_t row, uint64_t value);
/* Row r of a lane (r < its rows: no bounds check). */
static inline uint64_t pcol_lane_get(const pcol_lane *l, uint64_t r) {
  uint64_t c, all;
  switch (l->width) {
  case 0: return l->base + r * l->step;
  case 1: c = ((const uint8_t *)l->codes)[r], all = 0xff; break;
  case 2: c = ((const uint16_t *)l->codes)[r], all = 0xffff; break;
  case 4: c = ((const uint32_t *)l->codes)[r], all = 0xffffffffu; break;
  default: c = ((const uint64_t *)l->codes)[r], all = UINT64_MAX; break;
  }
  uint64_t x = l->base + r * l->step + c;
  return c == all && l->nexc ? pcol_lane_patch(l, r, x) : x;
}
static inline uint64_t pcol_view_encoded_(const pcol_view *v, uint64_t i) {
  if (v->nlanes == 1) return pcol_lane_get(v->lanes, i);
  return pcol_lane_get(v->lanes + i % v->nlanes, i / v->nlanes);
}
/* 1 when the column is stored (plain or encoded), 0 when absent. */
static inline int pcol_view_stored(const pcol_view *v) { return v->data || v->nlanes; }

/* Element accessors for views (no bounds check: i < v->count is the caller's). */
static inline uint32_t pcol_view_u32(const pcol_view *v, uint64_t i) {
  if (v->data) return ((const uint32_t *)v->data)[i];
  return v->nlanes ? (uint32_t)pcol_view_encoded_(v, i) : (uint32_t)v->dflt;
}
static inline int64_t pcol_view_i64(const pcol_view *v, uint64_t i) {
  if (v->data) return ((const int64_t *)v->data)[i];
  return v->nlanes ? (int64_t)pcol_view_encoded_(v, i) : v->dflt;
}
static inline uint64_t pcol_view_u64(const pcol_view *v, uint64_t i) {
  if (v->data) return ((const uint64_t *)v->data)[i];
  return v->nlanes ? pcol_view_encoded_(v, i) : (uint64_t)v->dflt;
}
static inline uint8_t pcol_view_u8(const pcol_view *v, uint64_t i) {
  return v->data ? ((const uint8_t *)v->data)[i] : (uint8_t)v->dflt;
}
static inline double pcol_view_f64(const pcol_view *v, uint64_t i) {
  double d;
  if (v->data) return ((const double *)v->data)[i];
  int64_t b = v->dflt;
  __builtin_memcpy(&d, &b, sizeof d);
  return d;
}
/* Elements [from, from + n) of a view as an array: the file's own elements
 * when the column is plain, else read into buf (n elements).  For loops
 * that take a column a block at a time, whatever its form. */
static inline const uint32_t *pcol_view_span_u32(const pcol_view *v, uint64_t from, size_t n,
                                                 uint32_t *buf);
static inline const int64_t *pcol_view_span_i64(const pcol_view *v, uint64_t from, size_t n,
                                                int64_t *buf);
/* 1 and *value when every element of v is the same (absent, or one lane of
 * constant value): loops may then skip reading it. */
static inline int pcol_view_const(const pcol_view *v, uint64_t *value) {
  if (v->data) return 0;
  if (!v->nlanes) return *value = (uint64_t)v->dflt, 1;
  if (v->nlanes != 1 || v->lanes->width || (v->lanes->step && v->count > 1)) return 0;
  return *value = v->lanes->base, 1;
}
/* Elements [from, from + n) of a u32 or u64/i64 view into out (plain,
 * absent or encoded alike): for loops over a whole column, a lane at a
 * time instead of an element at a time.  No bounds check. */
PCOL_API void pcol_view_read_u32(const pcol_view *v, uint64_t from, size_t n, uint32_t *out);
PCOL_API void pcol_view_read_u64(const pcol_view *v, uint64_t from, size_t n, uint64_t *out);
static inline const uint32_t *pcol_view_span_u32(const pcol_view *v, uint64_t from, size_t n,
                                                 uint32_t *buf) {
  if (v->data) return (const uint32_t *)v->data + from;
  pcol_view_read_u32(v, from, n, buf);
  return buf;
}
static inline const int64_t *pcol_view_span_i64(const pcol_view *v, uint64_t from, size_t n,
                                                int64_t *buf) {
  if (v->data) return (const int64_t *)v->data + from;
  pcol_view_read_u64(v, from, n, (uint64_t *)buf);
  return buf;
}

/* A borrowed byte string. */
typedef struct pcol_str {
  const char *ptr; /* not NUL-terminated; NULL for NA */
  size_t len;
} pcol_str;

/* String by id (id 0 = NA: ptr NULL).  Out-of-range ids are ECORRUPT. */
PCOL_API PCOL_NODISCARD pcol_status pcol_string(pcol_file *f, uint32_t id, pcol_str *out,
                                                pcol_error *err);
/* The name titles and export names give a source or an input: the last
 * component of its path or URI ("/home/u/runs/cpu.pb.gz" -> "cpu.pb.gz",
 * "a/b/" -> "a/b/", NA stays NA), so that a directory typed on the command
 * line does not end up in a page or a file one shares.  Borrowed from s. */
PCOL_API pcol_str pcol_display_name(pcol_str s);
PCOL_API uint64_t pcol_string_count(const pcol_file *f); /* number of ids, including 0 */

/* Convenience: a stack's location chain.  Calls fn for depth 1 (innermost)
 * outward (the callback rule, at the top).  stack_id 0 = empty. */
PCOL_API PCOL_NODISCARD pcol_status pcol_stack_walk(pcol_file *f, uint32_t stack_id,
                                                    int (*fn)(void *ctx, uint32_t depth,
                                                              uint32_t location_id),
                                                    void *ctx, pcol_error *err);

/* Meta value lookup: first row with this key and source_id (0 = file-level);
 * ENOTFOUND if absent. */
PCOL_API PCOL_NODISCARD pcol_status pcol_meta_get(pcol_file *f, uint32_t source_id, const char *key,
                                                  pcol_str *out, pcol_error *err);
/* The same value as a decimal integer ([-]digits, within int64): ENOTFOUND
 * if absent, EFORMAT (with a message naming key and value) if it is not
 * such a number. */
PCOL_API PCOL_NODISCARD pcol_status pcol_meta_get_i64(pcol_file *f, uint32_t source_id,
                                                      const char *key, int64_t *out,
                                                      pcol_error *err);
/* pcol_meta_each's source_id for the rows of every source (not the
 * file-level ones) */
#define PCOL_EVERY_SOURCE UINT32_MAX
/* Every meta value of a key for a source (0 = file-level;
 * PCOL_EVERY_SOURCE: every source's), in file order: fn is called with
 * each (borrowed until close); a key may repeat (pprof's comments,
 * "pprof.comment").  A non-zero return of fn stops the scan and is
 * returned; no row is not an error (PCOL_OK, fn never called), another
 * source_id past the file's sources is PCOL_ENOTFOUND. */
PCOL_API PCOL_NODISCARD pcol_status pcol_meta_each(pcol_file *f, uint32_t source_id,
                                                   const char *key,
                                                   int (*fn)(void *ctx, pcol_str value),
                                                   void *ctx, pcol_error *err);

/* ---------------------------------------------------------------- builder */

typedef struct pcol_builder pcol_builder;

PCOL_API PCOL_NODISCARD pcol_status pcol_builder_new(pcol_builder **out, pcol_error *err);
PCOL_API void pcol_builder_free(pcol_builder *b);

/* Interns a byte string; returns its id (>= 1) in *id.  NULL ptr = NA (id 0). */
PCOL_API PCOL_NODISCARD pcol_status pcol_b_string(pcol_builder *b, const void *ptr, size_t len,
                                                  uint32_t *id, pcol_error *err);
PCOL_API PCOL_NODISCARD pcol_status pcol_b_cstr(pcol_builder *b, const char *s, uint32_t *id,
                                                pcol_error *err); /* NULL -> 0 */
/* The bytes of an interned string (borrowed until the builder changes). */
PCOL_API pcol_str pcol_b_string_get(const pcol_builder *b, uint32_t id);

PCOL_API PCOL_NODISCARD pcol_status pcol_b_source(pcol_builder *b, const char *type,
                                                  const char *uri, int64_t timestamp,
                                                  uint32_t *source_id, pcol_error *err);
PCOL_API PCOL_NODISCARD pcol_status pcol_b_meta(pcol_builder *b, uint32_t source_id,
                                                const char *key, const void *value,
                                                size_t value_len, pcol_error *err);
PCOL_API PCOL_NODISCARD pcol_status pcol_b_meta_str(pcol_builder *b, uint32_t source_id,
                                                    const char *key, const char *value,
                                                    pcol_error *err);
/* The same two by string ids (from pcol_b_string, so any bytes, NUL
 * included; 0 = NA); an id the builder has not given out is PCOL_EINVAL. */
PCOL_API PCOL_NODISCARD pcol_status pcol_b_source_sid(pcol_builder *b, uint32_t type_sid,
                                                      uint32_t uri_sid, int64_t timestamp,
                                                      uint32_t *source_id, pcol_error *err);
PCOL_API PCOL_NODISCARD pcol_status pcol_b_meta_sid(pcol_builder *b, uint32_t source_id,
                                                    uint32_t key_sid, uint32_t value_sid,
                                                    pcol_error *err);
/* Deduplicated (type, unit) pair, by string ids. */
PCOL_API PCOL_NODISCARD pcol_status pcol_b_value_type(pcol_builder *b, uint32_t type_sid,
                                                      uint32_t unit_sid, uint32_t *vt_id,
                                                      pcol_error *err);
/* Declares that source measures value type vt (in declaration order). */
PCOL_API PCOL_NODISCARD pcol_status pcol_b_source_value_type(pcol_builder *b, uint32_t source_id,
                                                             uint32_t vt_id, pcol_error *err);

typedef struct pcol_function_row {
  uint32_t name, system_name, filename; /* string ids */
  int64_t start_line;                   /* PCOL_NA_I64 if unknown */
} pcol_function_row;
PCOL_API PCOL_NODISCARD pcol_status pcol_b_function(pcol_builder *b, const pcol_function_row *fn,
                                                    uint32_t *id, pcol_error *err);

typedef struct pcol_mapping_row {
  uint64_t memory_start, memory_limit, file_offset;
  uint32_t filename, build_id; /* string ids */
  uint8_t flags;               /* PCOL_MAP_* */
} pcol_mapping_row;
/* dedup = 0 always appends a new row (keeps a source's mapping list as is). */
PCOL_API PCOL_NODISCARD pcol_status pcol_b_mapping(pcol_builder *b, const pcol_mapping_row *m,
                                                   bool dedup, uint32_t *id, pcol_error *err);

typedef struct pcol_line_row {
  uint32_t function_id;
  int64_t line;   /* PCOL_NA_I64 if unknown */
  int64_t column; /* PCOL_NA_I64 if unknown */
} pcol_line_row;
/* A location: mapping (0 = none), address, flags, and its inline chain,
 * lines[0] innermost.  Deduplicated on all fields. */
PCOL_API PCOL_NODISCARD pcol_status pcol_b_location(pcol_builder *b, uint32_t mapping_id,
                                                    uint64_t address, uint8_t flags,
                                                    const pcol_line_row *lines, size_t nlines,
                                                    uint32_t *id, pcol_error *err);

/* Prefix-tree stack node (parent = caller node, 0 for the outermost frame).
 * Deduplicated. */
PCOL_API PCOL_NODISCARD pcol_status pcol_b_stack_node(pcol_builder *b, uint32_t parent,
                                                      uint32_t location_id, uint32_t *stack_id,
                                                      pcol_error *err);
/* Convenience: builds the node chain of a stack given innermost first. */
PCOL_API PCOL_NODISCARD pcol_status pcol_b_stack(pcol_builder *b,
                                                 const uint32_t *locations_leaf_first, size_t n,
                                                 uint32_t *stack_id, pcol_error *err);

typedef struct pcol_label_row {
  uint32_t key, str; /* string ids; str 0 = no string value */
  int64_t num;
  uint32_t num_unit; /* string id */
} pcol_label_row;
/* Deduplicated label set, stored in canonical order (by key, as bytes; a
 * key's strings before its numbers, a key's values in the order given), so
 * the same set with its keys in another order gets the same id, and a key's
 * values in another order another (pprof's Label[k] is a list). n == 0
 * gives id 0. */
PCOL_API PCOL_NODISCARD pcol_status pcol_b_labelset(pcol_builder *b, const pcol_label_row *labels,
                                                    size_t n, uint32_t *id, pcol_error *err);

typedef struct pcol_sample_row {
  uint32_t source_id;
  int64_t time_ns;      /* PCOL_NA_I64 if unknown */
  int64_t duration_ns;  /* 0 for a point sample */
  int64_t weight;       /* raw samples this row stands for (1) */
  int64_t cpu_delta_ns; /* PCOL_NA_I64 if unknown */
  uint32_t stack_id;    /* 0 = empty stack */
  uint32_t labelset_id; /* 0 = no labels */
} pcol_sample_row;
typedef struct pcol_value_row {
  uint32_t value_type_id;
  int64_t value;
} pcol_value_row;
/* Appends a sample; *sample_id (may be NULL) gets its 1-based id. */
PCOL_API PCOL_NODISCARD pcol_status pcol_b_sample(pcol_builder *b, const pcol_sample_row *s,
                                                  const pcol_value_row *values, size_t nvalues,
                                                  uint32_t *sample_id, pcol_error *err);
/* Number of samples so far. */
PCOL_API uint64_t pcol_b_sample_count(const pcol_builder *b);

/* Verbatim text line of a source, placed before sample `before_sample`
 * (1-based; count+1 = after the last one).  Used for exact round trips. */
PCOL_API PCOL_NODISCARD pcol_status pcol_b_text_line(pcol_builder *b, uint32_t source_id,
                                                     uint64_t before_sample, const void *text,
                                                     size_t len, pcol_error *err);
/* Verbatim text of a sample whose canonical rendering differs. */
PCOL_API PCOL_NODISCARD pcol_status pcol_b_sample_text(pcol_builder *b, uint32_t sample_id,
                                                       const void *text, size_t len,
                                                       pcol_error *err);

typedef struct pcol_model_row {
  uint32_t source_id;
  uint32_t uid, model, method, coeffs; /* string ids; coeffs is JSON text */
  double r_square, x_start, x_end;
} pcol_model_row;
PCOL_API PCOL_NODISCARD pcol_status pcol_b_model(pcol_builder *b, const pcol_model_row *m,
                                                 pcol_error *err);

/* Copies every table of an open pcol file into the builder with new ids
 * (sources appended; strings, functions, locations, value types deduplicated). */
PCOL_API PCOL_NODISCARD pcol_status pcol_b_add_file(pcol_builder *b, pcol_file *f, pcol_error *err);

/* Merges each run of consecutive samples of one source that have the same
 * stack, labels and values and are evenly spaced in time into one long
 * sample (weight = run length, duration = run length x spacing); keeps
 * sample_text ids and text_lines positions in step.  spec.md §7. */
PCOL_API PCOL_NODISCARD pcol_status pcol_builder_coalesce(pcol_builder *b, pcol_error *err);

typedef struct pcol_write_options {
  /* 1: LZ4 each section that shrinks: with format_version 3 or 4 (the
   * default) a compact file whose u32/i64/u64 columns are encoded (spec.md
   * §4.1) when that is smaller, then LZ4 over the encoded or plain form,
   * whichever is smallest (format 1.3); with 2, the plain 1.0 file */
  bool compress_lz4;
  /* 1: zstd each section that shrinks, after the column transforms that
   * shrink it most, in a file with the compact directory (format 1.2,
   * spec.md §3.1, §4; the file then needs a 1.2 reader).  Takes precedence
   * over compress_lz4. */
  bool compress_zstd;
  /* 1..22 for every section; 0 = auto: PCOL_ZSTD_SMALL_LEVEL for sections
   * of at most PCOL_ZSTD_SMALL_BYTES, PCOL_ZSTD_DEFAULT_LEVEL above */
  int zstd_level;
  /* 1: before publishing, read the file back and run pcol_validate_full
   * on it (what `pcol merge` does: its inputs may be any valid files, so a
   * writer's slip shows here rather than in a file its own validator
   * refuses); a file that fails is not published: PCOL_ECORRUPT, the path
   * untouched.  Costs a second pass over the file (and, for path "-", the
   * whole file in memory first). */
  bool validate;
  /* compress_lz4's level, as the lz4 command's: 1-2 LZ4's fast coder,
   * 3-12 LZ4HC at that level (smaller, slower to write; reading is as
   * fast); 0 = auto: PCOL_LZ4_DEFAULT_LEVEL for format 1.3, 1 for
   * format_version 2 (the 1.0 files earlier writers made, byte for byte).
   * Other values: PCOL_EINVAL.  Read only when LZ4 is the codec
   * (compress_lz4 without compress_zstd).  Since 1.1, in the byte that was
   * padding between validate and format_version in 1.0: the struct's size
   * (12 bytes) and its other fields' offsets are 1.0's.  A 1.0 program that
   * left that byte uninitialized (fields assigned one by one, no initializer
   * or memset) may pass any level here when it asks for LZ4: initialize the
   * struct whole (= {0}, designated initializers). */
  uint8_t lz4_level;
  /* The format minor version to write: 3: columns
   * encoded in their narrowest form read in place (format 1.3, spec.md
   * §4.1), in a compact directory, with the per-source summary (§6.10:
   * table source_summary, source_value_types' totals) that makes `pcol
   * info` O(1); 2: the files of format 1.0-1.2 byte for byte as earlier
   * writers made them, for older readers (`--format-version 1.2`); 4: 3,
   * and with compress_zstd the large columns of samples in zstd blocks
   * (format 1.4, spec.md §4.2), so that a time range inflates only its
   * blocks; 3 keeps them one zstd frame (`--format-version 1.3`); 5 (also
   * 0, the default): 4, and under compress_zstd or compress_lz4 an encoded
   * column's lanes byte-split when the codec then shrinks them more (format
   * 1.5, spec.md §4.1), and under compress_lz4 the transforms of spec.md §4
   * too (before 1.5, zstd's only): a 1M-sample memory-profiled Rprof file
   * under LZ4 0.69x the bytes of format_version 4's.
   * Other values: PCOL_EINVAL. */
  uint16_t format_version;
} pcol_write_options;
#define PCOL_WRITE_FORMAT_DEFAULT 5
#define PCOL_ZSTD_DEFAULT_LEVEL 9 /* go-cpu-large: 0.65x the .pb.gz in 1.2 s; 19 gives 0.60x in 8x the time */
#define PCOL_ZSTD_SMALL_LEVEL 19  /* a section of 1 MiB takes ~0.1-0.3 s at 19 */
#define PCOL_ZSTD_SMALL_BYTES ((uint64_t)1 << 20)
/* LZ4HC 4: 10M Rprof samples 0.92x the bytes of the fast coder (0.99x their
 * .pb.gz) for 1.12x its CPU; 9 saves 0.4% more for 1.8x (bench/results/lz4-1.3.md).
 * Since 1.1. */
#define PCOL_LZ4_DEFAULT_LEVEL 4

/* Writes a pcol file atomically: temp file in the target directory, fsync,
 * rename.  On failure no partial file exists and `path` is untouched.
 * path "-" writes to standard output.  The builder may be written again
 * (or added to) after; writing may change how it holds its data, so one
 * builder is written by one thread at a time. */
PCOL_API PCOL_NODISCARD pcol_status pcol_builder_write(pcol_builder *b, const char *path,
                                                       const pcol_write_options *opt,
                                                       pcol_error *err);
/* Writes into a malloc'd buffer (*out, *len; free() it). */
PCOL_API PCOL_NODISCARD pcol_status pcol_builder_write_mem(pcol_builder *b,
                                                           const pcol_write_options *opt,
                                                           void **out, size_t *len,
                                                           pcol_error *err);

/* ------------------------------------------------------ selection */

/* Sample selection shared by every command that reads samples. */
typedef struct pcol_select {
  uint32_t source_id; /* 0 = all sources */
  bool has_from, has_to;
  int64_t from_ns, to_ns; /* [from, to) relative to the source's start */
  /* go tool pprof's filters (NULL = none), with its semantics
   * (profile/filter.go), as POSIX extended regular expressions (regex.h)
   * that match anywhere in a function's name or file name, or in the file
   * of a location's mapping (in a file without mappings every location has
   * one of file "", as go tool pprof gives such a profile a fake mapping:
   * an expression that matches "" matches every location there):
   *   focus  keep samples with a matching location;
   *   ignore drop samples with a matching location (before focus);
   *   hide   remove matching frames from the stacks (a sample left
   *          without any frame is dropped);
   *   show   keep only matching frames (and frames without a function).
   * Any of them drops samples with an empty stack, as pprof does. */
  const char *focus, *ignore, *hide, *show;
  /* pprof -show_from (after hide/show, before no_inlines): each stack loses
   * its frames above (rootward of) the outermost location that matches,
   * and a matching location its inline lines outer to the outermost
   * matching line (all kept when its mapping's file matches); a sample
   * without a matching location is dropped. */
  const char *show_from;
  /* pprof -tagfocus / -tagignore on string labels: "KEY=RE[,RE...]" (the
   * sample has label KEY with a value matching one RE) or "RE[,RE...]" (each
   * RE matches some "key:value" of the sample).  tag keeps, tag_ignore drops. */
  const char *tag, *tag_ignore;
  /* pprof -tagshow / -taghide (profile/filter.go FilterTagsByName): the
   * label views show only the labels whose key matches tag_show (NULL: all)
   * and none whose key matches tag_hide (NULL: none): tags' keys, traces'
   * labels, the graph's label boxes (which then count as nodes).  pprof
   * applies them after every sample filter: they select no samples. */
  const char *tag_show, *tag_hide;
  /* pprof -unit in the label views: the numeric label values of tags (and
   * top --by label's rows and filters) named in this output unit, as
   * measurement.ScaledLabel(v, unit, -unit) names them ("3072kB"); NULL (or
   * "minimum"): each scaled in its own unit ("3MB").  A unit of another
   * family leaves a value as it is; "raw", which pprof does not know, names
   * it in its family's default unit ("3145728B"), as pprof does. */
  const char *label_unit;
  /* pprof -relative_percentages: a view's total (its shares, "of X total",
   * node and edge cutoffs) is that of the samples the filters above keep;
   * without it, as pprof, that of the selection before them. */
  bool relative;
  /* pprof -noinlines: each location keeps only its outermost line left
   * after hide/show, so an inlined call's weight is its caller's, at the
   * caller's line (focus and ignore still see the inlined functions, as
   * pprof filters before it aggregates). */
  bool no_inlines;
  /* 1: from_ns and to_ns are wall-clock times, ns since the Unix epoch, for
   * every source at once: each source's are taken relative to its start
   * (pcol_source_wall_start); a source whose samples have no times counts
   * whole when its span lies inside the range, not at all outside it, and
   * is an error when the range cuts it (lib/core/wall.c). */
  bool wall;
} pcol_select;
/* The text of one end of a time range (pcol_select's from_ns/to_ns; the
 * CLI's --from/--to, the bindings' from/to) into *ns: seconds since the
 * profile's start ("1.5": returns 0, a relative range; a decimal number,
 * [+-]digits[.digits][e[+-]digits], not hex, "inf" or space before it), or a number and a
 * time unit ("250ms", "2s", "1.5 min": ns, us or µs, ms, s, min, h, hrs
 * and the long names --unit knows, as pcol prints durations; in any case,
 * as pprof's units: "1H", "1MS"), or a
 * wall-clock time, ns since the Unix epoch (returns 1: sel->wall): "@SECONDS" since
 * the epoch (a fraction allowed, as GNU date's +@%s.%N) or RFC 3339
 * "YYYY-MM-DDTHH:MM:SS[.frac]" with "Z" or "+HH:MM"/"-HH:MM" (a space or
 * 't' for the T; a zone is required).  -1 (*ns untouched) for anything
 * else, or a time out of int64 nanoseconds.  Both ends of one range must
 * be of one kind. */
PCOL_API int pcol_time_parse(const char *s, int64_t *ns);
/* A source's wall-clock start, ns since the Unix epoch (meta
 * otlp.time_unix_nano, else pprof.time_nanos, else source_timestamp x 1e9),
 * PCOL_NA_I64 when it has none. */
PCOL_API PCOL_NODISCARD pcol_status pcol_source_wall_start(pcol_file *f, uint32_t source_id,
                                                           int64_t *ns, pcol_error *err);
/* THE span start (spec.md §7 "Span start"): ns[i], i < n, gets where
 * source i + 1's span starts after its time 0, meta pcol.span_start_ns
 * (the first row that is a whole number; 0 when it is <= 0, or absent):
 * a Chrome trace's V8 profile on the trace's timeline, whose samples
 * count from the trace's time 0 and whose duration is its own.  Its span
 * is [ns[i], ns[i] + its duration) of the times its samples have, where
 * the views' ranges place it (pcol top --source N --from A --to B);
 * `pcol info` says it.  Sources past the file's get 0.  One pass over the
 * meta table for all.  Since 1.2. */
PCOL_API PCOL_NODISCARD pcol_status pcol_source_span_starts(pcol_file *f, int64_t *ns, size_t n,
                                                            pcol_error *err);
/* How a message names source source_id of f, in buf (n bytes, NUL-ended,
 * cut to fit; returned): "source N", its own number; in the union of a
 * profile and its subtracted base (pcol_open_diff_base), whose base's
 * sources follow the profile's so that their numbers there are no
 * input's, a base's source as "the base's source K", K its number among
 * the base's sources; in pcol_open_diff_base_select's union of one source
 * N of each side, that N (the profile's "source N", the base's "the base's
 * source N").  The words the library's own notes name sources with
 * (pcol_value_lacking_notes); the CLI's pprof export names the sources
 * pcol_export_options.lacking gives it so.  Since 1.2. */
PCOL_API const char *pcol_source_who(pcol_file *f, uint32_t source_id, char *buf, size_t n);
/* The time and duration go's merge of the sources gives (merge.go
 * combineHeaders), of the sources sel speaks of: sel->source_id's, else
 * every one (sel NULL: every one); of a wall-clock range (sel->wall),
 * those it can reach, as a query of many inputs leaves out the others.
 * *time_ns: the first nonzero start (THE start rule, as
 * pcol_source_wall_start) replaced by any earlier one, a source without
 * one counting as 0 as in Go; *duration_ns: the sources' durations as they
 * state them (meta otlp.duration_nano, else pprof.duration_nanos; 0 when
 * neither) added, wrapping as Go's int64, but the sources of one recording
 * (a run numbered by meta pcol.recording_part: the event types of one JFR
 * recording, the profiles of one Chrome trace) counted once, as their span
 * (spec.md §7 "Recordings").  Of a selection with a time range
 * (sel->has_from/has_to), each source's window [start, start + duration)
 * is first cut by the range in the range's clock (a relative range counts
 * from each source's own start, as it selects samples; a wall-clock one
 * is one instant for all): its start becomes the later of the range's
 * start and its own, its duration the cut window's length (0 when it
 * states none), and a source whose window the range misses counts for
 * nothing (nor its comments, pcol_sources_comments); the rule above then
 * combines the cut windows.  (go tool pprof merges more than
 * 64 inputs 64 at a time and then the merges: a 0 start after the 64th
 * input can come out otherwise there.)  What the pprof export writes as
 * time_nanos/duration_nanos and the text views' "Time:" and "Duration:"
 * lines say; the speedscope, Firefox and OTLP exports of a time range
 * state each source's cut window, so that their copies read back say
 * the same. */
PCOL_API PCOL_NODISCARD pcol_status pcol_sources_time(pcol_file *f, const pcol_select *sel,
                                                      int64_t *time_ns, int64_t *duration_ns,
                                                      pcol_error *err);
/* THE note of a relative time range (sel->has_from/has_to in seconds, not
 * sel->wall) over several recordings: a window is taken of each from its
 * own start, so that "--from 0 --to 1" of three files a writer rolled is
 * three seconds at 0, 1000 and 2000 s of the run, their durations added
 * (pcol_sources_time).  *note = NULL (nothing to say: no relative range,
 * or it reaches the sources of one recording at most: spec.md §7
 * "Recordings", the event types of one JFR recording counting once), else
 * one line, no line end, malloc'd (free() it): "a relative time range
 * counts from each source's own start: it took a window of each of the N
 * recordings it reaches, and their durations add up; a wall-clock range
 * ... takes one window of them all".  The CLI's views and exports print
 * it as a note.
 * Since 1.1. */
PCOL_API PCOL_NODISCARD pcol_status pcol_range_note(pcol_file *f, const pcol_select *sel, char **note,
                                                    pcol_error *err);
/* The comments go's merge of the same sources gives (profile.Merge: the
 * sources' comments in order, each once, its first occurrence kept): the
 * meta pprof.comment values of the sources pcol_sources_time speaks of
 * (the same rule decides: sel->source_id's, else every one; of a
 * wall-clock range, those it can reach), source by source in meta order,
 * a repeat of earlier bytes left out (NA and "" alike).  fn(ctx, value)
 * is called for each (borrowed until close); a non-zero return stops it
 * and is returned.  Those beginning with '#' too: the text views leave
 * them out, the pprof export keeps them. */
PCOL_API PCOL_NODISCARD pcol_status pcol_sources_comments(pcol_file *f, const pcol_select *sel,
                                                          int (*fn)(void *ctx, pcol_str value),
                                                          void *ctx, pcol_error *err);
/* *overlaps = false when sel is a wall-clock range (sel->wall) that no
 * selected source of f can reach: each source's span (start + its
 * duration meta and first/last sample times, found by binary search; no
 * other sample is read) lies outside it; else true (also when a source's
 * start is unknown: the query says so). */
PCOL_API PCOL_NODISCARD pcol_status pcol_wall_overlaps(pcol_file *f, const pcol_select *sel,
                                                       bool *overlaps, pcol_error *err);
/* sel with a wall-clock range made relative (out->wall = 0) for code that
 * takes one range for every source (the exporters): EINVAL when the
 * selected sources start at different times, ENOTFOUND when one has no
 * start.  A relative sel is copied as it is. */
PCOL_API PCOL_NODISCARD pcol_status pcol_select_relative(pcol_file *f, const pcol_select *sel,
                                                         pcol_select *out, pcol_error *err);
/* true when sel has a name or label filter (focus ... tag_ignore, no_inlines). */
PCOL_API bool pcol_select_filtered(const pcol_select *sel);
/* go tool pprof's warnings after its filters (driver_focus.go applyFocus,
 * warnNoMatches): for each of sel's focus, ignore, hide, show, show_from,
 * tag, tag_ignore, tag_show and tag_hide that matched nothing in any of
 * the n files (a profile and its base, which pprof filters merged), the
 * line "Focus expression matched no samples" (Ignore, Hide, Show,
 * ShowFrom, TagFocus, TagIgnore, TagShow, TagHide), in that order.
 * Matched is pprof's: focus, ignore, hide and show_from a location of the
 * file, show a location left with a line; tag and tag_ignore a label set of
 * a selected sample the name filters keep (a key no label has matches
 * nothing); tag_show and tag_hide a label key of a sample every filter
 * keeps.  Lines end in '\n'; writes min(length, cap) bytes to buf (no NUL)
 * and returns the whole length (0: no warning), so a call with cap 0 sizes
 * the buffer.  *err on a bad expression or a damaged file (then returns 0). */
PCOL_API size_t pcol_filter_warnings(pcol_file *const *f, size_t n, const pcol_select *sel,
                                     char *buf, size_t cap, pcol_error *err);

/* Walks the selected samples in row order.  For each, fn gets the row index
 * (0-based) and the selected fraction num/den of the sample (1/1 when the
 * sample lies wholly inside the range; a long sample cut by a bound gets
 * its ticks inside the range / its ticks, spec.md §7.1: of max(weight, 1)
 * ticks, or, in a source marked as intervals (a Chrome trace's), the
 * overlap in ns / its duration).  Uses the time index (binary search) per
 * source.  fn NULL: visits no row, only says what sel refuses (a source the
 * file has not; a range that cuts a source whose samples have no time, or
 * a wall-clock range on a source with no start), in O(sources x log rows),
 * so that a command can refuse before it prints anything. */
PCOL_API PCOL_NODISCARD pcol_status pcol_select_iter(pcol_file *f, const pcol_select *sel,
                                                     int (*fn)(void *ctx, uint64_t row, int64_t num,
                                                               int64_t den),
                                                     void *ctx, pcol_error *err);
/* The one rounding rule for scaled amounts: v * num / den rounded to the
 * nearest integer, halves away from zero, computed without overflow. */
PCOL_API int64_t pcol_scale(int64_t v, int64_t num, int64_t den);

/* ------------------------------------------------------- atomic output */

/* An output file published by rename (or stdout for "-"). */
typedef struct pcol_out {
  FILE *fp;
  char *path;     /* destination */
  char *tmp_path; /* NULL for stdout */
  int inflight_;  /* private: its place among the outputs in flight (pcol_out_remove_inflight) */
} pcol_out;
PCOL_API PCOL_NODISCARD pcol_status pcol_out_open(pcol_out *o, const char *path, pcol_error *err);
/* Flushes, fsyncs, renames into place and closes. */
PCOL_API PCOL_NODISCARD pcol_status pcol_out_commit(pcol_out *o, pcol_error *err);
/* Removes the temporary file; the destination is untouched. */
PCOL_API void pcol_out_abort(pcol_out *o);
/* Unlinks the temporary file of every pcol_out (and so of every file the
 * library writes) neither committed nor aborted yet: for a signal handler
 * (async-signal-safe: atomic loads and unlink), so that a command killed
 * by SIGINT or SIGTERM leaves no ".NAME.tmp-XXXXXX" behind.  Up to 32
 * outputs at once (and paths below 4096 bytes) are known; a signal between
 * the file's creation and its registration leaves it. */
PCOL_API void pcol_out_remove_inflight(void);

/* ------------------------------------------------------------ inputs */
/* THE rule for the files that command-line-style arguments name (the
 * CLI's inputs, the bindings' paths; lib/core/inputs.c).  An argument is
 * a directory (its regular files, a link counting as what it names, not
 * those whose name starts with '.', sorted by name with strcmp: the order
 * a union's sources get), a glob pattern that names no file (its matches
 * that are regular files, in glob's order; each other match skipped and
 * named), "-" (standard input, at most once) or a file (whose open says
 * what is wrong with it).  Nothing is opened to find them (a FIFO would
 * block the open): stat, or a directory entry's type.
 *
 * A directory given first may have an index, `pcol index DIR`: two dot
 * files, PCOL_INDEX_FILE (what `pcol merge` writes of DIR's first k files)
 * and PCOL_INDEX_LIST (which files those are: name, size, modification and
 * change times in ns, inode; and the index's own).  When the index still
 * stands for DIR's first k files (k >= 2), it replaces them as paths[0],
 * read through a descriptor checked against the list ("/dev/fd/N", open
 * until pcol_inputs_free; an index renamed over it meanwhile is not the
 * one read); else they are read, and
 * index_note says why.  The union of the index and the files after it is
 * the union of all of them, id for id (pcol_open_options.first_is_union). */
#define PCOL_INDEX_FILE ".pcol-index.pcol"
#define PCOL_INDEX_LIST ".pcol-index.list"
typedef struct pcol_inputs_options {
  /* 1: a directory given first is read through its index where it may:
   * not when sel (may be NULL) has a wall-clock range of every source
   * (pcol_open_many and pcol_top_many then leave out the inputs it cannot
   * reach unread, which an index cannot), nor when the environment sets
   * PCOL_NO_INDEX (to anything but "" or "0") */
  bool index;
  const pcol_select *sel;
} pcol_inputs_options;
typedef struct pcol_inputs {
  char **paths;          /* the files, in order (each malloc'd) */
  size_t n;
  bool many;             /* an argument was a directory or a glob */
  /* paths[0] is a directory's index: pass as pcol_open_options'
   * first_is_union, and given_bytes as its given_bytes (the bytes of the
   * files it stands for and of the others, 0 when one's size is unknown) */
  bool first_is_union;
  uint64_t given_bytes;
  size_t covered;        /* files the index stands for (0: none read) */
  /* the directory whose index was looked at (spelled without trailing
   * '/'), or NULL when the first argument had none; index_name: its index
   * "DIR/.pcol-index.pcol" (for messages: paths[0] names a descriptor) */
  char *index_dir, *index_name;
  /* NULL, or text people read, paths escaped (pcol_text_char): why the
   * index of index_dir is not used, one line without '\n'; each glob
   * match skipped, a line each ending in '\n' ("skipped 'M' (matched by
   * 'GLOB'): not a regular file"), nskipped of them */
  char *index_note, *skipped;
  size_t nskipped;
  /* private: 1 + the descriptor of the index read (0: none; a zeroed
   * pcol_inputs is empty), closed by pcol_inputs_free; paths' room */
  int fd_;
  size_t cap_;
} pcol_inputs;
/* *out (pcol_inputs_free it, also after a failure: then it has no paths,
 * but what was noted before, index_note and skipped, to be said) of
 * args[0..nargs) by the rule above; opt may be NULL (no index).  EINVAL:
 * no argument, "-" twice, a directory with no file, a glob with no match;
 * ENOTFOUND: a glob with no regular file; EIO: a directory that cannot be
 * read, a glob that cannot be expanded; each message names the argument. */
PCOL_API PCOL_NODISCARD pcol_status pcol_inputs_expand(const char *const *args, size_t nargs,
                                                       const pcol_inputs_options *opt,
                                                       pcol_inputs *out, pcol_error *err);
PCOL_API void pcol_inputs_free(pcol_inputs *in);
/* After the open of in failed with err: when err is PCOL_EFORMAT and says
 * that one of the files a directory or a glob among in's arguments gave is
 * no profile (an unrecognised format, a format pcol does not read, an
 * empty file: a README beside the profiles), its message says so and how to name the
 * profiles instead (a quoted glob of the directory's files with the
 * suffix most of its other files have, such as .pb.gz, or the files
 * themselves); otherwise err is left as it is.  The refusal stays: a
 * directory gives every regular file (doc/cli.md, "Many files as one"). */
PCOL_API void pcol_inputs_explain(const pcol_inputs *in, pcol_error *err);
/* "DIR/NAME" (one '/' between them, DIR's trailing ones dropped: "d//"
 * names its files as "d" does), malloc'd: how a directory's files are
 * named (NULL: out of memory). */
PCOL_API char *pcol_path_join(const char *dir, const char *name);
/* A file as the index's list records it (size, times in ns, inode). */
typedef struct pcol_file_ident {
  uint64_t size, mtime_ns, ctime_ns, ino;
} pcol_file_ident;
/* true and *id of the regular file at path (a link: what it names),
 * false for anything else. */
PCOL_API bool pcol_file_ident_of(const char *path, pcol_file_ident *id);
/* How many of paths[0..n) (DIR's files, as pcol_inputs_expand lists
 * them) the index of dir stands for: 0 when it has none (*why NULL) or
 * none that can be used (*why says why, static text).  Otherwise *fd is
 * the index, open (the caller's to close), *bytes the files' sizes and
 * *spelled whether its sources name their files by DIR's spelling (then
 * it stands for them only for DIR spelled so).  The list is read up to
 * 1 KiB a file of DIR. */
PCOL_API size_t pcol_dir_index_covers(const char *dir, char *const *paths, size_t n,
                                      uint64_t *bytes, const char **why, int *fd, bool *spelled);
/* Writes DIR's PCOL_INDEX_LIST (a temporary file renamed into place): the
 * index written (ident ix), whether its sources are named by DIR's
 * spelling, and its k files paths[0..k) with their idents as they were
 * when they were read.  EIO or ENOMEM, with a message naming DIR. */
PCOL_API PCOL_NODISCARD pcol_status pcol_dir_index_write_list(const char *dir,
                                                              const pcol_file_ident *ix,
                                                              bool spelled, char *const *paths,
                                                              const pcol_file_ident *ids, size_t k,
                                                              pcol_error *err);

/* ------------------------------------------------------ streaming writer */

/* A writer for profilers and agents: open, add samples one at a time (a
 * stack, its values, optionally a time, a duration and labels), close.
 * Optionally it rolls: it publishes the file and starts a new one every N
 * samples or every N nanoseconds, so a long-running agent leaves a series
 * of complete files (lib/core/stream_writer.c; example: examples/record_self.c).
 *
 * Files.  Each file is written by pcol_builder_write (the one layout and
 * the one atomic publication: a temporary ".NAME.tmp-XXXXXX" in the same
 * directory, fsync, rename), so a file under its final name is always
 * complete and valid; a crash (kill -9) loses at most the file being
 * filled (its samples are in memory; a temporary file may remain).
 * Without rolling the output is `path` (an existing file is replaced).
 * With rolling, file k is `path` with "-YYYYMMDDTHHMMSS.mmmZ-NNNNNN" (its
 * start in UTC to the millisecond, NNNNNN a sequence number from 1)
 * inserted before a ".pcol" suffix, or, without one, appended with
 * ".pcol": "prof.pcol" -> "prof-20261123T101500.000Z-000001.pcol",
 * "prof.data" -> "prof.data-20261123T101500.000Z-000001.pcol".  A rolled
 * file never replaces a file: it is published by link() (renameat2's
 * RENAME_NOREPLACE where the filesystem has no hard links), and when the
 * name is taken, e.g. by another writer on the same path (a worker per
 * process, a restarted agent, containers sharing a volume) that started a
 * file in the same millisecond, the next sequence numbers are tried; the
 * writer's later files go on from the number used, and on_file gets the
 * name used.  So several writers may share a path, and every sample of
 * each is in one of the files.  A rolled file with no sample is not
 * written; without rolling, close writes the file even when empty.
 *
 * Time.  A file with timed samples states its span as pprof's time_nanos
 * (its start, which its samples' times count from, spec.md §7) and
 * duration_nanos: from its first sample's time to the latest end of its
 * samples, a long sample ending at time + duration_ns and a point sample
 * one period later when the period's unit is a time unit (any that
 * go tool pprof reads: "nanoseconds", "microseconds", "us", "ms",
 * "seconds", ...; a sampling profiler's tick; go's runtime/pprof's
 * duration covers it too).  The first sample's time of a file begun by an
 * untimed sample is the wall clock's reading (CLOCK_REALTIME, to the ns)
 * when that sample is added, or its first timed sample's time when that is
 * earlier (a sample taken before, added after): the span counts from the
 * earliest instant the file holds, not from a whole second.  A rolled
 * file after the first starts at the previous file's end instead, earlier
 * or later than its first sample (samples closer together than the
 * period: its first ones then lie before its start, time_ns < 0), so a
 * series covers its time without gaps or overlaps and its durations add
 * up (pcol's views and go tool pprof add the durations of merged
 * profiles) to the span of the same samples in one file: 1000 samples of
 * 10 ms every 10 ms are "Duration: 10s" at 100 %, in one file or in ten.
 * A file after an idle spell (no file was written for it) covers that
 * spell too.  The source's timestamp is the start's second.
 *
 * Memory.  Each file is one builder held until it is published: its
 * samples (about 16 bytes + 8 per value, the columns that keep their
 * default cost nothing; past 16 MiB of them they go to unlinked temporary
 * files in $TMPDIR, ~1 MiB staying in memory, as in every builder) and its
 * own deduplicated strings, functions, locations, stacks and label sets,
 * which stay in memory: the bound on those is the roll size.  Writing a
 * file adds, for a moment, its compressed sections.  After each rolled file the writer gives its freed
 * memory back to the system (malloc_trim(0) on glibc, whose heap would
 * otherwise keep it: 209-222 MB below instead of 81-90).  Measured peak
 * RSS for 1M samples (2 values, 10 frames, a label; make bench-writer,
 * default glibc malloc): 1,000 distinct stacks: 22 MB in one file, 9.6 MB
 * rolled every 100k samples, 5.6 MB every 10k; every stack distinct
 * (worst case): 503 MB, 81-90 MB (the same at 3M samples), 8.4 MB.
 * Without rolling the memory grows with the distinct stacks: set
 * roll_samples to bound it.  The functions and
 * locations added by pcol_writer_function/pcol_writer_location live for
 * the writer's life (a dictionary, each entry copied into a file on its
 * first use there).
 *
 * Order.  Samples of a file must come in time order (NA time counts as
 * the smallest, as spec.md §7 F5 orders them): a sample older than the
 * previous one is PCOL_EINVAL; an untimed sample after a timed one of the
 * file is PCOL_EINVAL too (untimed samples come first).  Across rolled files the order is not checked: a file's first sample may
 * be older than the previous file's (the file then starts at it, and the
 * two files' spans overlap); the sequence numbers give the order of
 * publication, the names' times the files' starts.  So an agent whose
 * clock steps back (CLOCK_REALTIME set by NTP) calls pcol_writer_flush on
 * PCOL_EINVAL and adds the sample again, into a new file, rather than
 * losing samples until the clock passes the last one.
 * One writer is used by one thread at a time.
 *
 * Cost.  pcol_writer_add costs microseconds, except the call that
 * publishes a file (roll_samples reached, roll_ns passed), which encodes,
 * compresses, fsyncs and renames it in the caller's thread: tens to
 * hundreds of milliseconds for a large file (100k samples of distinct
 * stacks: 50-110 ms plain, 150-310 ms with compress_zstd, on the
 * development machine).  An agent that drains a ring filled by a signal
 * handler (examples/record_self.c) sizes the ring for that pause, or
 * calls the writer from a thread of its own.
 *
 * Errors.  Every function returns PCOL_OK or a PCOL_E* code and fills err.
 * A refused sample (bad argument) changes nothing: the writer goes on.  A
 * failed write (disk full) loses that file's samples, the writer goes on
 * with a new file and the call returns the error. */
typedef struct pcol_writer pcol_writer;

typedef struct pcol_writer_value_type {
  const char *type, *unit; /* e.g. "cpu", "nanoseconds"; both required */
} pcol_writer_value_type;

typedef struct pcol_writer_options {
  const char *source_type; /* NULL = "pprof" (samples shaped as pprof's) */
  const char *source_uri;  /* NULL = none */
  /* Meta rows of the source: key, value pairs (meta[2i], meta[2i+1]).  The
   * keys the writer writes itself (pprof.period, pprof.period_type.type/.unit,
   * pprof.time_nanos, pprof.duration_nanos, pcol.max_duration_ns) and those
   * readers prefer over them (otlp.period, otlp.period_type.type/.unit,
   * otlp.time_unix_nano, otlp.duration_nano) are PCOL_EINVAL: use the
   * period options and the samples' times instead. */
  const char *const *meta;
  size_t nmeta; /* number of pairs */
  /* What every sample measures, in order (at least one; a (type, unit)
   * given twice is PCOL_EINVAL). */
  const pcol_writer_value_type *value_types;
  size_t nvalue_types;
  /* The sampling period (pprof's period, e.g. 10000000 "cpu"
   * "nanoseconds", or 10000 "cpu" "microseconds"), stored as the
   * pprof.period* meta; 0 = none.  In a time unit (any go tool pprof
   * reads) it is also how long a point sample lasts (Time, above). */
  int64_t period;
  const char *period_type, *period_unit;
  /* Rolling: publish and start a new file after this many samples (0 =
   * never) or once the file has been open this long, counted from its
   * first sample (monotonic clock, checked on each sample and by
   * pcol_writer_poll; 0 = never; an idle spell writes no file). */
  uint64_t roll_samples;
  uint64_t roll_ns;
  pcol_write_options write; /* compression, validate */
  /* Called after each file is published (its final path), e.g. to ship it. */
  void (*on_file)(void *ctx, const char *path);
  void *ctx;
} pcol_writer_options;

/* One frame given by name (a function name, its file, a line, an address:
 * each may be unknown: NULL, PCOL_NA_I64 or 0).  A frame with neither
 * function nor file is an unsymbolised address (a location without lines). */
typedef struct pcol_writer_frame {
  const char *function;
  const char *file;
  int64_t line; /* PCOL_NA_I64 (or 0) if unknown */
  uint64_t address;
} pcol_writer_frame;

typedef struct pcol_writer_label {
  const char *key; /* required */
  const char *str; /* NULL = no string value */
  int64_t num;
  const char *num_unit; /* NULL = none */
} pcol_writer_label;

typedef struct pcol_writer_sample {
  /* The stack, innermost first: frames by name, or the ids of locations
   * added with pcol_writer_location (one of the two, or neither for an
   * empty stack). */
  const pcol_writer_frame *frames;
  size_t nframes;
  const uint32_t *locations;
  size_t nlocations;
  const int64_t *values; /* one per value type, in order */
  size_t nvalues;
  /* 1: time_unix_ns is the sample's time; 0: untimed (NA), allowed only
   * before the file's first timed sample; a file begun by one starts at
   * the wall clock's reading (to the ns) when it is added ("Time" above) */
  bool has_time;
  int64_t time_unix_ns; /* nanoseconds since the Unix epoch */
  int64_t duration_ns;  /* 0: a point sample; > 0: a long sample (spec.md §7) */
  /* Raw samples the row stands for; 0 = 1.  It is the row's count ("samples",
   * pcol info's count) only when no value type is samples/count (THE count
   * rule, doc/mappings.md §0): with one, that value is the count and weight
   * changes no view.  A pprof export of a file whose only type is, say,
   * cpu writes each row's values, not its weight (go tool pprof counts
   * one sample per row): for counts that must survive every export, give
   * a samples/count value type rather than a weight. */
  int64_t weight;
  const pcol_writer_label *labels;
  size_t nlabels;
} pcol_writer_sample;

/* Opens a writer.  Checks the options (the write options' zstd level
 * too), that path's directory exists and is writable, that path is not a
 * directory and that every name the writer will publish (path's file name,
 * or a rolled name with the longest sequence number) fits the directory's
 * NAME_MAX, so that no option fails at the first publication; writes
 * nothing yet, but removes what a killed writer of the same path left: the
 * temporary files (".NAME.tmp-XXXXXX" beside path, or beside the file a
 * path that is a symbolic link names, or beside its rolled names; NAME
 * matched whole, or its first bytes where it was cut to fit NAME_MAX;
 * XXXXXX 6 of [A-Za-z0-9]) of this user that begin with the pcol magic
 * (a .pcol output's temporary file does from its first write: a user's
 * own file of such a name is left, as are an empty one and pcol 1.1's,
 * zeros first), unchanged for 10 minutes, whose lock no process holds
 * (every temporary file libpcol makes is locked, flock, while it is
 * open).  *out is NULL on failure. */
PCOL_API PCOL_NODISCARD pcol_status pcol_writer_open(pcol_writer **out, const char *path,
                                                     const pcol_writer_options *opt,
                                                     pcol_error *err);
/* A function for pcol_writer_location (deduplicated); *id >= 1, valid for
 * the writer's life, in every file it writes.  start_line PCOL_NA_I64 if
 * unknown. */
PCOL_API PCOL_NODISCARD pcol_status pcol_writer_function(pcol_writer *w, const char *name,
                                                         const char *system_name, const char *file,
                                                         int64_t start_line, uint32_t *id,
                                                         pcol_error *err);
/* A location: an address (0 = none) and its inline chain, innermost first,
 * as (function id from pcol_writer_function, line) pairs; deduplicated. */
PCOL_API PCOL_NODISCARD pcol_status pcol_writer_location(pcol_writer *w, uint64_t address,
                                                         const uint32_t *functions,
                                                         const int64_t *lines, size_t nlines,
                                                         uint32_t *id, pcol_error *err);
/* Adds one sample (and first publishes the current file if roll_ns has
 * passed; after it, if roll_samples is reached).  When that first
 * publication fails, the call returns its error without keeping the sample
 * given: adding it again is correct. */
PCOL_API PCOL_NODISCARD pcol_status pcol_writer_add(pcol_writer *w, const pcol_writer_sample *s,
                                                    pcol_error *err);
/* Publishes the current file now if roll_ns has passed (call it from an
 * idle loop so that files roll while no sample comes). */
PCOL_API PCOL_NODISCARD pcol_status pcol_writer_poll(pcol_writer *w, pcol_error *err);
/* Publishes the current file now (if it has samples, or without rolling). */
PCOL_API PCOL_NODISCARD pcol_status pcol_writer_flush(pcol_writer *w, pcol_error *err);
/* Samples in the current (unpublished) file, and files published so far. */
PCOL_API uint64_t pcol_writer_pending(const pcol_writer *w);
PCOL_API uint64_t pcol_writer_files(const pcol_writer *w);
/* Publishes the current file (pcol_writer_flush) and frees the writer,
 * also when that fails; w may be NULL. */
PCOL_API PCOL_NODISCARD pcol_status pcol_writer_close(pcol_writer *w, pcol_error *err);

/* ================================================ level 2: query (lib/query)
 * Analyses of an open file: flat/cum aggregation, frame trees, collapsed
 * stacks, diffs.  They read columns through zero-copy views and touch each
 * selected sample once and each distinct stack node once. */

/* --------------------------------------------------------- sums and values */

/* A sum a view adds up: 128 bits, so that no sum of 64-bit values can
 * overflow (a real Perun file's amounts, stored x 1e9, sum past 2^63;
 * interop review F4).  gcc and clang on 64-bit targets.  pcol_sum_text
 * writes one in decimal; a binding converts with it or to double. */
__extension__ typedef __int128 pcol_sum; /* __extension__: -pedantic accepts it */
/* v in decimal into buf (NUL-terminated, truncated to cap); the length. */
PCOL_API size_t pcol_sum_text(pcol_sum v, char *buf, size_t cap);

/* Which number a view adds up. */
typedef struct pcol_value_sel {
  uint32_t vt_id;      /* value_types id; 0 = "samples" (THE count rule, below);
                        * an id past the file's value types: EINVAL */
  uint32_t column;     /* 0: each source's value of type vt_id (or of a coarser
                        * unit of its family, scaled); k > 0: each source's k-th
                        * type of vt_id's name in a unit of its family (vt_id
                        * itself where listed twice), scaled
                        * into vt_id's unit: the column go tool pprof's merge
                        * pairs by position, where a source lists two such
                        * types (inuse_space in kilobytes and in bytes).  Set
                        * by pcol_value_resolve.  Since 1.2, in bytes that
                        * were 1.1's padding: a selection made by hand must
                        * be initialized whole (= {0}, designated
                        * initializers, memset), as a 1.1 program that
                        * assigns the fields one by one leaves it undefined;
                        * a column past every source's such types is EINVAL
                        * ("value column K ...") where a view or export reads
                        * it; ignored for vt_id 0, PCOL_VT_WEIGHT, PCOL_VT_TIME
                        * and PCOL_VT_RPROF_ALLOC (no stored type to pair) */
  pcol_str type, unit; /* borrowed names ("samples"/"count" for vt_id 0) */
} pcol_value_sel;

/* Resolves a value name: "samples", "weight", "rprof.alloc", "TYPE" or
 * "TYPE/UNIT" ("cpu" also on Rprof sources, PCOL_VT_TIME).  NULL = the
 * default of the selected sources (doc/mappings.md §0): meta
 * "pprof.default_sample_type", else the last value type a pprof-like source
 * declares; an Rprof source's time (interval x ticks per segment, "cpu");
 * else "samples"; sources whose defaults disagree give "samples".
 * "samples" (vt_id 0) is each source's own count of raw samples: pprof's
 * samples/count when the source measured it, else the weight column
 * (Rprof ticks, collapsed counts; the rows of a pprof profile without a
 * count, such as a heap profile).  "weight" is the value type a selected
 * source stores with that name (a Perfetto StackSample's primary weight
 * without a descriptor's name, weight/count; a pprof sample type "weight"),
 * as Perfetto's UI and go tool pprof -sample_index=weight name it, else the
 * weight column (PCOL_VT_WEIGHT); "pcol.weight" (PCOL_VALUE_WEIGHT_COLUMN)
 * is always the weight column, out->type "pcol.weight" where a selected
 * source stores a type "weight" (so that a header tells the two apart),
 * else "weight".  A number N that names no type is pprof's -sample_index=N:
 * the N-th value type (from 0) each selected source declared, in its order
 * (ENOTFOUND past the last, EINVAL when the sources' N-th types differ,
 * unless they are of one name in kin units: then as a bare TYPE, by column).
 * Under a wall-clock range (sel->wall, no sel->source_id) the selected
 * sources, and the types a name is looked for among, are those of the
 * recordings the range reaches (the rule of pcol_value_defaults_differ),
 * as a union of many inputs holds the files it reaches alone: a type only
 * the others have is ENOTFOUND, its message listing the types there are.
 * A bare TYPE of several units of one family (the unit rule: inuse_space
 * in bytes and in kilobytes, whose views add up every source's value
 * scaled into the finest unit, as go tool pprof's ScaleProfiles) is the
 * type in the finest unit; where a source lists two of them, out->column
 * says which of each source's it reads, as go's merge pairs them by
 * position: a bare TYPE each one's first; the default as go's merge
 * reads it, the first default_sample_type the selected sources state (in
 * their order) named for them all, at each one's first place of that
 * name, else (none stated) each one's last place; so
 * too where a source lists one TYPE/UNIT twice (a --diff-base of such
 * files lists inuse_space/bytes twice).
 * ENOTFOUND if no type has that name, EINVAL if a bare TYPE
 * matches several units not of one family or names a level snapshot (Rprof's vsize.small,
 * vsize.large, nodes: views cannot add levels up; rprof.alloc is their
 * increase). */
PCOL_API PCOL_NODISCARD pcol_status pcol_value_resolve(pcol_file *f, const pcol_select *sel,
                                                       const char *name, pcol_value_sel *out,
                                                       pcol_error *err);
/* Derived value "rprof.alloc" (bytes): per Rprof memory sample,
 * max(0, d vsize.small) + max(0, d vsize.large) + max(0, d nodes) against
 * the previous sample of the source (0 for its first), which is what
 * summaryRprof(memory = "both") sums into mem.total (spec.md §7.1). */
#define PCOL_VT_RPROF_ALLOC UINT32_MAX
/* Derived value "cpu" (nanoseconds) of a selection none of whose sources
 * stores cpu/nanoseconds: the time of Rprof samples, interval x ticks per
 * segment (doc/mappings.md §0, the time rule).  When a stored cpu/nanoseconds
 * type exists, "cpu" resolves to it and Rprof sources fill in this time. */
#define PCOL_VT_TIME (UINT32_MAX - 1)
/* "pcol.weight" (and "weight" where no selected source stores a type of
 * that name): the weight column of every sample, whatever the source
 * measured (pcol_value_resolve). */
#define PCOL_VT_WEIGHT (UINT32_MAX - 2)
/* The name of PCOL_VT_WEIGHT that pcol_value_resolve reads back as it in
 * any file, whatever its sources store ("weight" is a stored type of that
 * name where one exists); also the type name of a resolved PCOL_VT_WEIGHT
 * where a selected source stores a type named "weight" (else "weight"). */
#define PCOL_VALUE_WEIGHT_COLUMN "pcol.weight"
/* What the value "samples" is, in the words of pcol_value_resolve's
 * ENOTFOUND message ("samples (" PCOL_VALUE_SAMPLES_GLOSS ")" before the
 * stored types) and of the CLI's --help: one text, so that the two agree. */
#define PCOL_VALUE_SAMPLES_GLOSS "each source's own count: pprof's samples/count, Rprof ticks"
/* *differ = true when the selected sources' own default values disagree (a
 * merge of unrelated profiles, a JFR recording's CPU and allocation
 * sources; the selected sources: sel's source, else every one, of a
 * wall-clock range the recordings it reaches): the default is then the
 * one they agree on with each source that states its profile's default
 * (meta pcol.default_value: a JFR recording's cpu) counted as that type,
 * else "samples", each source's own count (doc/mappings.md §0, THE
 * default rule).  For the CLI's warnings; pcol_value_default_note says
 * which. */
PCOL_API PCOL_NODISCARD pcol_status pcol_value_defaults_differ(pcol_file *f, const pcol_select *sel,
                                                               bool *differ, pcol_error *err);
/* The one-line note on the default of sources whose own defaults differ
 * (*note = NULL when they agree; else a malloc'd NUL-terminated text, its
 * names as the file has them; free() it): "the sources measure different
 * values, so WHAT (each kind of source: its type, count and own default);
 * ADVICE" when the default is samples or WHAT is given (an export that
 * counts samples whatever the default; NULL: the views' words), else "the default is TYPE/UNIT, the sources' own stated default
 * (pcol.default_value); N of M sources lack it: their samples count 0;
 * other values: ... (ADVICE, or when NULL: name one with --value TYPE)".  The CLI prints it on
 * standard error, the report page (pcol report) above its views.  Of a
 * stated default, *note = NULL too when it tells nothing: every selected
 * source without that value is a part of a recording (meta
 * pcol.recording_part, spec.md §7 "Recordings") of which a source has it
 * (a JFR recording's allocation samples beside its execution samples'
 * cpu); a source without it that is no such part (a lone source, or a
 * recording none of whose parts has it) gets the note. */
PCOL_API PCOL_NODISCARD pcol_status pcol_value_default_note(pcol_file *f, const pcol_select *sel,
                                                            const char *what, const char *advice,
                                                            char **note, pcol_error *err);

/* The note an Rprof export (of each source's default: no --value) of sources
 * whose own defaults differ gives (*note = NULL when they agree or the note
 * tells nothing, pcol_value_default_note's cases; else malloc'd, free() it):
 * when they state no default together, *warning = true and "the sources
 * measure different values, so Rprof's lines count each sample as one tick
 * of its source's interval (its period, else 10 ms), or, for a source of
 * a measured time that is not its count x an interval of its own (V8's
 * wall; a period that does not divide its times), its time in ticks of the
 * shared sample.interval (...), not as these values (...); write one with
 * SELECT"; when
 * they state one (a JFR recording's cpu), *warning = false and the stated
 * default's note, "... (write another source with SELECT)".  SELECT: how
 * the caller's user selects a source ("--source N" for the CLI, "source =
 * N" for R).  The CLI's unpack --to rprof and R's pcol_to_rprof say it.
 * Since 1.1. */
PCOL_API PCOL_NODISCARD pcol_status pcol_value_rprof_note(pcol_file *f, const pcol_select *sel,
                                                          const char *select, char **note,
                                                          bool *warning, pcol_error *err);

/* How the numbers of value v read (doc/mappings.md §0, decimal units): a
 * unit "1e-9" or "1e-9 U" stores the value x 10^9 (collapsed decimal
 * counts, Perun real amounts), so views print value / 10^9.  Returns the
 * decimals (9, else 0); *unit (may be NULL) = the unit of the printed
 * number: U, "" for a bare "1e-9", else v's unit ("count" for samples). */
PCOL_API unsigned pcol_value_decimals(const pcol_value_sel *v, pcol_str *unit);
/* x, a sum of value v, as the text views print: exact, without trailing
 * zeros ("1500000000" of count/1e-9 is "1.5").  NUL-terminated in buf
 * (40 bytes hold any value); returns the length. */
PCOL_API size_t pcol_value_text(const pcol_value_sel *v, pcol_sum x, char *buf, size_t cap);

/* Which sources have the value v: (*has)[s] = 1 for source s (1..sources;
 * a calloc'd array of sources + 1 entries, free() it).  A selected source
 * without it counts 0 in every view; the CLI warns, naming it. */
PCOL_API PCOL_NODISCARD pcol_status pcol_value_sources(pcol_file *f, const pcol_value_sel *v,
                                                       uint8_t **has, pcol_error *err);
/* THE warning of the selected sources without value v (a value named with
 * --value, or the value an export of one value writes, named or the
 * default: collapsed, rprof, perun; pcol_value_sources): note(ctx, line) once for each, "source N
 * (TYPE URI) has no value T/U; its samples count 0", or, when more than 3
 * lack it, once: "K of M sources have no value T/U, their samples count 0
 * (source N (TYPE URI), ... the first 3, ...)"; not called when every
 * selected source has it.  Each text is one line, no line end, its names as
 * the file has them.  The CLI's views warn of it after --value, its
 * exports of one value (and R's pcol_to_rprof) of the value they write.
 * Since 1.1. */
PCOL_API PCOL_NODISCARD pcol_status pcol_value_lacking_notes(pcol_file *f, const pcol_select *sel,
                                                             const pcol_value_sel *v,
                                                             void (*note)(void *ctx, const char *text),
                                                             void *ctx, pcol_error *err);
/* THE data warnings of a view's value, v as pcol_value_resolve gave it
 * (asked: the caller named it, the CLI's --value), in the CLI's words:
 * when it was not named and the selected sources' own defaults differ,
 * pcol_value_default_note's line (advice: how the caller's user names a
 * value, NULL: "name one with --value TYPE"), warning = true when the
 * default fell back to samples, false for a stated default's note; when
 * it was named "samples" and those defaults differ among sources of which
 * one is a recording's part (meta pcol.recording_part), one warning that the
 * sum is of counts of different things (a JFR recording's execution and
 * allocation samples); otherwise pcol_value_lacking_notes' lines, each a
 * warning, less those of a recording's parts (meta pcol.recording_part)
 * of which another selected part has v: they count 0 as the recording
 * means (an export of one value, which leaves them out, still says so).  note(ctx,
 * text, warning) once a line (no line end, names as the file has them).
 * Every view of the CLI says them after its inputs are opened; the R and
 * Python packages and DuckDB's pcol_top relay them.  Since 1.1. */
PCOL_API PCOL_NODISCARD pcol_status pcol_value_notes(pcol_file *f, const pcol_select *sel,
                                                     const pcol_value_sel *v, bool asked,
                                                     const char *advice,
                                                     void (*note)(void *ctx, const char *text,
                                                                  bool warning),
                                                     void *ctx, pcol_error *err);
/* THE data warnings and notes a view says after opening its n inputs f
 * (one, or a profile and the one it is compared with: pcol diff), which,
 * in which order and in which words, the CLI's; v[i]: f[i]'s value as
 * pcol_value_resolve gave it (asked, advice: as pcol_value_notes').
 * note(ctx, input, text, warning) once a line (no line end, names as the
 * file has them); input: the f[i] the line is about (the CLI prints its
 * name first, "PATH: TEXT"), n for a line about none.  In order: of each
 * input, pcol_label_unit_warnings' lines (warnings); then
 * pcol_filter_warnings' of the n inputs together, once ("Focus expression
 * matched no samples": of a diff, a filter that matches no sample of
 * either side, as pprof's of a profile and its base merged; warnings,
 * input n), as the view's filters see the inputs (by_label: the KEY of
 * top --by label:KEY, pcol_top_by_label, whose filters see KEY's -tagroot
 * frames, named in sel->label_unit, so that a filter matching a frame
 * matched; else NULL); then of each input, pcol_value_notes' lines,
 * pcol_range_note's (a note), and
 * when sel's range (--from/--to) reaches no selected source's samples,
 * the warning "the range --from A --to B selects no sample: the samples
 * are at X .. Y" (seconds since each source's start, or wall-clock times
 * of a wall-clock range), then the warning "N samples have stacks the
 * recorder truncated at its stack depth ..." when selected sources have
 * meta pcol.truncated_stacks (a JFR recording's truncated stack traces:
 * the callers above the cut count less), N of the samples the view counts
 * (of sources with its value v, in its range, kept by its tag filters;
 * its name filters aside, whose misses it explains): a cut stack has the
 * recorder's stackdepth frames, the most of its source, so when that many
 * samples are of the source's greatest depth they are the ones counted;
 * else a view of part of the source's samples says "up to N").  Each part is said whatever
 * another's fails;
 * returns the first part's error (a damaged table, a bad filter: the view
 * says it too).  sels: NULL, or sels[i] (NULL: sel) the selection input
 * i is read with where the inputs' differ, of sel's filters and its own
 * source and range (Python's File(base=B).diff(NEW, source=N): B's side
 * opened with source N of each taken first reads that union with no
 * source, NEW with source N); each part of input i is said of it, the
 * filters' of each input's.  The CLI's views print them; the R and Python packages'
 * views and DuckDB's pcol_top relay them.  Since 1.2. */
PCOL_API PCOL_NODISCARD pcol_status pcol_view_notes(pcol_file *const *f, size_t n,
                                                    const char *by_label,
                                                    const pcol_select *sel,
                                                    const pcol_select *const *sels,
                                                    const pcol_value_sel *v, bool asked,
                                                    const char *advice,
                                                    void (*note)(void *ctx, size_t input,
                                                                 const char *text, bool warning),
                                                    void *ctx, pcol_error *err);

/* Sums the chosen value of the selected samples per stack node: *w_out gets
 * a calloc'd array of pcol_rows(f, PCOL_T_STACKS) + 1 entries (index 0 =
 * empty stack; free() it).  Long samples cut by the range are scaled with
 * pcol_scale per sample.  *total_abs (may be NULL) = the pprof total: the
 * sum of |value| per sample, where pprof merges the samples of one stack
 * and label set first when that matters (a value below 0, or a base: the
 * sum of |their sum| per such group). */
PCOL_API PCOL_NODISCARD pcol_status pcol_stack_weights(pcol_file *f, const pcol_select *sel,
                                                       const pcol_value_sel *v, pcol_sum **w_out,
                                                       pcol_sum *total_abs, pcol_error *err);

/* --------------------------------------------------------------------- top */

/* SOURCE_LINE: "FILE:LINE", the lines of every function merged (pcol list
 * --by file; summaryRprof(lines = "show")'s by.line, with the full path). */
typedef enum {
  PCOL_BY_FUNCTION = 0,
  PCOL_BY_LINE = 1,
  PCOL_BY_FILE = 2,
  PCOL_BY_SOURCE_LINE = 3,
  PCOL_BY_ADDRESS = 4, /* go tool pprof -addresses: "%016x" address, then the LINE name */
  /* go tool pprof -filefunctions: a function and its file, "FUNCTION FILE"
   * (the LINE name without ":LINE"): functions of one name in two files
   * are two rows */
  PCOL_BY_FILE_FUNCTION = 5
} pcol_by;

/* The granularity called `name`: "function", "line", "file", "address" or
 * "filefunction" (pprof's -functions, -lines, -files, -addresses,
 * -filefunctions; the CLI's and bindings' --by/by=).  EINVAL (no message)
 * for any other name. */
PCOL_API PCOL_NODISCARD pcol_status pcol_by_parse(const char *name, pcol_by *out);
/* THE note of a view by line whose flat follows summaryRprof's rule (top,
 * diff, list, the report page's top table and their bindings' kin; review
 * 20 F2): when by is PCOL_BY_LINE, a source the selection takes is Rprof's
 * (or pcol's own speedscope or Firefox export of one) and the profile has
 * frames with a line and frames without (<GC>, a builtin), *note = one
 * line, no line end, malloc'd (free() it), in the words of the pprof
 * export's note: "by line, summaryRprof and `pcol top --by line` of Rprof
 * sources give a frame without a line (<GC>, a builtin) to the innermost
 * calling line; `pcol tree`, `traces`, `peek`, `graph` and go tool pprof
 * -lines keep it as a frame of its own".  Else *note = NULL.  By file
 * every view keeps such a frame, named "<unknown>" as go tool pprof -files
 * names it.  The CLI's top, diff and list (summaryRprof's rule) and tree,
 * peek and graph (go's, pcol_top_compute_frames) print it as a note.
 * Since 1.2. */
PCOL_API PCOL_NODISCARD pcol_status pcol_lines_rule_note(pcol_file *f, const pcol_select *sel,
                                                         pcol_by by, char **note, pcol_error *err);

typedef struct pcol_top_row {
  pcol_str name;   /* function name, "file#line" or file name */
  pcol_sum flat;   /* samples whose innermost frame is this key */
  pcol_sum cum;    /* samples with this key anywhere, once per sample */
  int inl;         /* PCOL_INLINE_* : how the key's frames were called */
  uint32_t key;    /* the row's key, 1..N and one per row within this result
                    * only (not comparable between results: pcol_diff joins
                    * rows by name, and by what keeps a name's nodes apart).  pcol_top_mark_inline and pcol_peek_compute
                    * find rows by it, so keep it when rows are moved or
                    * filtered.  Two rows may print one name where pprof's
                    * nodes differ (a function named "<unknown>" and a frame
                    * without a function name, or two such frames of two
                    * mapping files); they sort by key. */
} pcol_top_row;
/* pprof's "(inline)" marker: a key every caller reached through an inlined
 * frame (PCOL_INLINE_ONLY), through both (PCOL_INLINE_PARTIAL), or never. */
enum { PCOL_INLINE_NONE = 0, PCOL_INLINE_ONLY = 1, PCOL_INLINE_PARTIAL = 3 };

typedef struct pcol_top {
  pcol_top_row *rows; /* pcol_top_compute: |flat| desc, name, |cum| desc, key */
  size_t nrows;
  pcol_sum total;     /* sum of |value| over the selected samples (pprof's:
                       * pcol_stack_weights' total_abs) */
  pcol_value_sel value;
  void *priv_;
} pcol_top;

/* Flat/cum per function NAME (functions with one name merge, like pprof
 * and summaryRprof), per line or per file.  BY_LINE names a frame as
 * `go tool pprof -lines` does: "FUNCTION FILE:LINE" with the file's full
 * path (pprof's cleaning: /proc/self/cwd/ trimmed, filepath.Clean), "FILE:LINE"
 * for a function with NA name (an Rprof top-level ref); frames without a
 * line are "FUNCTION" (pprof), or not counted when every selected source is
 * Rprof (summaryRprof(lines = "show") counts locations only).  Frames of a
 * function with NA name count only for BY_LINE/BY_FILE; a non-empty stack
 * with no key at all counts as "<no location>".  A function named "" is
 * named as go tool pprof names a function of none, "[<mapping's base>]" or
 * "<unknown>", a row of its own (1.2: it was a row named ""). */
PCOL_API PCOL_NODISCARD pcol_status pcol_top_compute(pcol_file *f, const pcol_select *sel,
                                                     const pcol_value_sel *v, pcol_by by,
                                                     pcol_top *out, pcol_error *err);
/* pcol_top_compute with the keys of go's views of frames (peek, the graph,
 * tree, traces): by line, a frame without a line of an Rprof source (<GC>,
 * a builtin) is a key of its own, named by its function, with its own
 * flat, as go tool pprof -peek/-dot -lines names it on pcol's pprof copy,
 * where pcol_top_compute gives its flat to the innermost calling line
 * (summaryRprof's rule: pcol_lines_rule_note).  Every other granularity
 * and source: pcol_top_compute's keys.  pcol_peek_compute of it is `pcol
 * peek`'s.  Free with pcol_top_free.
 * Since 1.2. */
PCOL_API PCOL_NODISCARD pcol_status pcol_top_compute_frames(pcol_file *f, const pcol_select *sel,
                                                            const pcol_value_sel *v, pcol_by by,
                                                            pcol_top *out, pcol_error *err);
PCOL_API void pcol_top_free(pcol_top *t);
/* pcol top --by label:KEY: a row per value of label KEY (string or numeric,
 * named as pcol_tags_compute names them) with flat = cum = the value of the
 * selected samples that carry it (a sample with two values of KEY counts
 * for both, as pprof -tags); samples without KEY make no row.  total is the
 * selection's, as in pcol_top_compute.  sel's name filters see each
 * sample's -tagroot frame (named by its values of KEY, in file KEY), as
 * pprof makes it before they run: a sample without locations counts, focus
 * and ignore may match the frame, hide/show/show_from may hide it (the
 * sample then makes no row).  sel's tag_show/tag_hide do not apply.  Free
 * with pcol_top_free. */
PCOL_API PCOL_NODISCARD pcol_status pcol_top_by_label(pcol_file *f, const pcol_select *sel,
                                                      const pcol_value_sel *v, const char *key,
                                                      pcol_top *out, pcol_error *err);

/* By line or address (pprof -lines, -addresses): where in row key k's name
 * its function's name is (name.ptr + *off, *len bytes; *len 0: the line
 * has no function name), the rest being the address before it and
 * " FILE:LINE" (" FILE" at line 0) after it; true then.  By function: true
 * with the whole name for a function's key, false for a frame without a
 * function name (named after its mapping, "[binary]" or "<unknown>", which
 * a function may be named too).  false when the name has no such parts (by
 * file, an unsymbolized frame's "[binary]"): the whole name is one.  For
 * pprof -dot's labels, which put each part on a line of its own. */
PCOL_API bool pcol_top_name_function(const pcol_top *t, uint32_t k, size_t *off, size_t *len);
/* By line or address: the parts of row key k as pprof's graph node has
 * them (graph.go nodeInfo with ObjNames, as -callgrind asks): the address
 * (by address; 0: none), the function's name, the file (cleaned as in the
 * name), the line (0: none), and of the first location with the key its
 * mapping's file (Objfile) and its function's start line (0: none); an
 * unsymbolized location has no function, file nor line.  Strings are ""
 * when missing, borrowed from t and the file.  pprof's node identity then
 * also holds Objfile and the start line, pcol's key by address only for a
 * function without a name: a key with the same address, function, file and
 * line in two mappings is one node (rare; pprof makes two), unless
 * pcol_graph_opts.obj_names made the graph's top.
 * EINVAL for any other top or key. */
typedef struct pcol_top_parts {
  uint64_t address;
  pcol_str function, file, objfile;
  int64_t line, start_line;
} pcol_top_parts;
PCOL_API PCOL_NODISCARD pcol_status pcol_top_key_parts(const pcol_top *t, uint32_t k,
                                                       pcol_top_parts *out, pcol_error *err);

/* Row orders of go tool pprof (graph.go Nodes.Sort): FLAT = |flat| desc,
 * name, |cum| desc (the order pcol_top_compute returns); CUM = |cum| desc,
 * name, |flat| desc (pprof -top -cum, summaryRprof by.total); NAME = name. */
typedef enum { PCOL_SORT_FLAT = 0, PCOL_SORT_CUM = 1, PCOL_SORT_NAME = 2 } pcol_sort;
PCOL_API void pcol_top_sort(pcol_top *t, pcol_sort order);
/* pprof -drop_negative on t, a result of pcol_top_compute_shown with
 * fraction 0 and every row shown (report.go newTrimmedGraph with
 * graph.go isNegative): removes the rows whose flat is below 0, or 0 with
 * a cum below 0, keeping the others' order; then, as pprof's cuts are of
 * the nodes left, pcol_top_cutoff(fraction) by the sum of their flat
 * (*dropped, *label_cutoff: its results; may be NULL) and the "(inline)"
 * marks again with the edge cutoff of that sum: of the first `shown` rows
 * when rows were cut or more remain, else of every key (the negative ones'
 * calls still count, as in pprof's graph). */
PCOL_API PCOL_NODISCARD pcol_status pcol_top_drop_negative(pcol_top *t, double fraction,
                                                           size_t shown, size_t *dropped,
                                                           pcol_sum *label_cutoff,
                                                           pcol_error *err);
/* pprof's node fraction: drops the rows whose |cum| is below
 * |(int64)(sum of flat x fraction)| (the order of the others is kept);
 * returns how many were dropped.  *label_cutoff (may be NULL) gets what
 * pprof prints in "Dropped N nodes (cum <= X)": |(int64)(total x fraction)|. */
PCOL_API size_t pcol_top_cutoff(pcol_top *t, double fraction, pcol_sum *label_cutoff);
/* pcol_top_compute, pcol_top_cutoff(fraction) and pcol_top_sort(order) in
 * one call, with the same rows, but the rows the cut drops are never named
 * nor sorted: what `pcol top` prints, at the cost of the rows it prints
 * (a line-level profile has 10-100x more rows than it shows).  *dropped
 * and *label_cutoff (either may be NULL) are pcol_top_cutoff's. */
PCOL_API PCOL_NODISCARD pcol_status pcol_top_compute_cut(pcol_file *f, const pcol_select *sel,
                                                         const pcol_value_sel *v, pcol_by by,
                                                         double fraction, pcol_sort order,
                                                         pcol_top *out, size_t *dropped,
                                                         pcol_sum *label_cutoff, pcol_error *err);
/* Redoes the "(inline)" marks for the rows left in t (after pcol_top_cutoff
 * or a row limit set in t->nrows), as pprof does when it rebuilds its graph
 * from the nodes it keeps: a call then comes from the nearest kept frame. */
PCOL_API PCOL_NODISCARD pcol_status pcol_top_mark_inline(pcol_top *t, pcol_error *err);
/* What `pcol top -n SHOWN` prints: pcol_top_compute_cut and, when rows are
 * dropped or more than `shown` remain, pcol_top_mark_inline of the first
 * `shown` rows (then the rows after them have no marks), with the marks
 * made once: pcol_top_compute_cut's of every key are not made when they
 * would be redone (a fifth of `pcol top` on a profile with inlined lines). */
PCOL_API PCOL_NODISCARD pcol_status pcol_top_compute_shown(pcol_file *f, const pcol_select *sel,
                                                           const pcol_value_sel *v, pcol_by by,
                                                           double fraction, pcol_sort order,
                                                           size_t shown, pcol_top *out,
                                                           size_t *dropped, pcol_sum *label_cutoff,
                                                           pcol_error *err);
/* pprof -mean's divisor (driver.go sampleFormat): the selection's first
 * value type, its count (alloc_objects of a Go heap profile, contentions of
 * a block profile); of sources that declare none (Rprof, collapsed) or
 * whose first is a level (Rprof's vsize.small), their samples.  EINVAL when
 * some selected sources have a first type and others do not, or theirs
 * differ (pprof refuses to merge them). */
PCOL_API PCOL_NODISCARD pcol_status pcol_mean_divisor(pcol_file *f, const pcol_select *sel,
                                                      pcol_value_sel *div, pcol_error *err);
/* The name of a mean view's value type, as pprof's Type: line says it:
 * "mean_" + type (an NA type: "mean_NA"), kept in buf, at least
 * PCOL_MEAN_TYPE_MAX bytes (a longer type is cut, pcol_utf8_cut). */
#define PCOL_MEAN_TYPE_MAX 256
PCOL_API pcol_str pcol_mean_type(pcol_str type, char *buf);
/* pprof -mean's total of a view that keeps its sums (-list prints its lines'
 * sums beside the mean total): *total, a view's total of value v over sel,
 * divided by the signed sum of value div over the same samples (the kept
 * ones under sel->relative; under pcol_open_diff_base's PCOL_BASE_DIFF,
 * when the total is the base's, the base's samples alone, so the divisor
 * is the base's count below 0, as pprof's computeTotal; Go's integer
 * division, a sum of 0 leaves it). */
PCOL_API PCOL_NODISCARD pcol_status pcol_mean_total(pcol_file *f, const pcol_select *sel,
                                                    const pcol_value_sel *v,
                                                    const pcol_value_sel *div, pcol_sum *total,
                                                    pcol_error *err);
/* go tool pprof -mean: t (a result of pcol_top_compute, _cut or _shown
 * of f, sel and some granularity) in means per `div`, pprof's first value
 * type (pcol_value_resolve(f, sel, "0", ...)): each row's flat and cum
 * divided by div's flat and cum of the same key (Go's integer division,
 * toward 0; a divisor of 0 leaves the number as it is), t->total (sum of
 * |value|) by div's signed sum over the same samples, and *label_cutoff
 * (may be NULL) what pprof's "Dropped N nodes (cum <= X)" then says,
 * |(int64)(mean total x fraction)|.  The rows, their order and the cut
 * stay those of the sums, as pprof sorts and cuts its nodes by them.
 * Call it once on a result (a second call divides again).  Cost: a second
 * top (of div) and a pass over the selected samples. */
PCOL_API PCOL_NODISCARD pcol_status pcol_top_mean(pcol_file *f, const pcol_select *sel,
                                                  const pcol_value_sel *div, pcol_top *t,
                                                  double fraction, pcol_sum *label_cutoff,
                                                  pcol_error *err);
/* pcol_top_mean with the divisor's top already at hand: dtop, a
 * pcol_top_compute of div over the same f, sel and granularity (peek
 * --mean needs it for its calls too, pcol_peek_compute_mean), instead of
 * a second top of div; NULL: pcol_top_mean.  A dtop of another
 * granularity is PCOL_EINVAL. */
PCOL_API PCOL_NODISCARD pcol_status pcol_top_mean_with(pcol_file *f, const pcol_select *sel,
                                                       const pcol_value_sel *div,
                                                       const pcol_top *dtop, pcol_top *t,
                                                       double fraction, pcol_sum *label_cutoff,
                                                       pcol_error *err);
/* `pcol top` of many inputs without their union (pcol_open_many): each pcol
 * file's rows computed on its own and added up by name, which is exact by
 * function and by file (a key is a name there, and each file's samples are
 * its own), with pprof's "(inline)" marks from the files' call edges added
 * up the same way.  The result is what pcol_open_many(paths, opt, sel),
 * pcol_value_resolve(value), pcol_top_compute_cut(by, fraction, order) and,
 * when rows are dropped or more than `shown` remain, pcol_top_mark_inline
 * of the first `shown` rows give, byte for byte.
 * Answers only where that holds; else info->answered = 0 and PCOL_OK with
 * nothing else set (open the union: it also reports what is wrong with an
 * input): fewer than two paths, one not a pcol file (or "-"), by line or
 * address, a source id in sel, opt->max_rows, files whose value resolves
 * differently (kind, type, unit) or whose rule for functions without a
 * name differs (Rprof), a source without the value or sources whose
 * defaults differ (the union warns, naming its sources), no source at
 * all, any error.  Threads: the files after the first are shared among up
 * to 8 threads, one a 64 files up to the CPUs the process may run on
 * (sched_getaffinity), or PCOL_THREADS of them if set (1: none); each adds
 * up its own names, and the sums are added by name at the end, so the
 * result does not depend on the count.  Memory: one file and its top at a
 * time a thread, and once some file has inlined lines, the files and tops
 * of up to 64 MiB of files in all (their call edges make the marks; the
 * others are read again for them). */
typedef struct pcol_many_top {
  bool answered;
  size_t used;          /* the inputs read (a wall-clock range leaves out those it cannot reach) */
  uint64_t input_bytes; /* their size on disk: the union's pcol_input_bytes */
  pcol_file *file;      /* the union has one source: its file (pcol_close it) */
  size_t threads;       /* the threads that read them (1: this one alone) */
  /* the header's "Time:" and "Duration:" of the inputs read, as
   * pcol_sources_time of their union gives them, and the comments
   * pcol_sources_comments of their union gives (the same sources, in input
   * order, each once; valid until pcol_top_free of the result) */
  int64_t time_ns, duration_ns;
  const pcol_str *comments;
  size_t ncomments;
} pcol_many_top;
PCOL_API PCOL_NODISCARD pcol_status pcol_top_many(
    const char *const *paths, size_t n, const pcol_open_options *opt, const pcol_select *sel,
    const char *value, pcol_by by, double fraction, pcol_sort order, size_t shown, pcol_top *out,
    size_t *dropped, pcol_sum *label_cutoff, pcol_many_top *info, pcol_error *err);
/* pcol_range_note of the union of the inputs a pcol_top_many result t
 * answered (sel: the selection it was given): the same words, *note NULL
 * when there is nothing to say (or t is not such a result).  Since 1.1. */
PCOL_API PCOL_NODISCARD pcol_status pcol_top_many_range_note(const pcol_top *t, const pcol_select *sel,
                                                             char **note, pcol_error *err);

/* -------------------------------------------------------------------- peek */

/* go tool pprof -peek: the rows of t (in t's order; every row of the
 * profile when t was not cut) whose name matches the POSIX extended regular
 * expression `regex`, each with its callers (in) and callees (out) and the
 * weight through each call: a sample counts once per call however often the
 * call recurs in its stack, a key calling itself is no call, and a call is
 * inline when every sample's first such call goes into an inlined line.
 * Lists are sorted by |value| desc, caller, callee.  Borrows from t: free
 * the result before t.  EINVAL for a bad expression. */
typedef struct pcol_peek_edge {
  pcol_str caller, callee;
  pcol_sum value;
  bool inl; /* true: every call was inlined */
} pcol_peek_edge;
typedef struct pcol_peek_node {
  const pcol_top_row *row;
  pcol_peek_edge *in, *out;
  size_t nin, nout;
} pcol_peek_node;
typedef struct pcol_peek {
  pcol_peek_node *nodes;
  size_t nnodes;
  pcol_peek_edge *edges_;
} pcol_peek;
PCOL_API PCOL_NODISCARD pcol_status pcol_peek_compute(const pcol_top *t, const char *regex,
                                                      pcol_peek *out, pcol_error *err);
/* pprof -mean's peek: t divided by pcol_top_mean, div a pcol_top_compute of
 * the divisor (the same file, selection and granularity).  The calls stay
 * sums (pprof prints Edge.Weight beside the nodes' means), and the calls of
 * samples whose value is 0 but whose divisor is not are listed at 0, as
 * pprof's graph keeps them. */
PCOL_API PCOL_NODISCARD pcol_status pcol_peek_compute_mean(const pcol_top *t, const pcol_top *div,
                                                           const char *regex, pcol_peek *out,
                                                           pcol_error *err);
PCOL_API void pcol_peek_free(pcol_peek *p);

/* ------------------------------------------------------------------- graph */

/* go tool pprof's call graph (-dot, -svg, -png; report.go newTrimmedGraph,
 * graph.go newGraph): nodes are the keys of pcol_top_compute (functions,
 * lines, files, addresses), edges the calls between them.  Pruned as
 * pprof does: nodes whose |cum| is below node_fraction of the sum of flat
 * go; then the graph is rebuilt from the kept nodes (a call skipping
 * dropped frames becomes a "residual" edge from the nearest kept caller, and
 * a sample whose innermost frame was dropped adds to no flat); the nodes are
 * sorted in pprof's entropy order and the first node_count kept (0: all;
 * each node's label tags, up to 4, count as nodes there, as pprof's do),
 * the graph rebuilt again; edges below edge_fraction go, and residual edges
 * another path already connects.  Node i of the result is pprof's N(i+1).
 * Each node's label tags, pprof's box3d "nodelets" (dotgraph.go
 * addNodelets), are in tags: see pcol_graph_tag.
 * Defaults (pcol_graph_opts_default): 0.005, 0.001, 80, -dot's graph. */
typedef struct pcol_graph_opts {
  double node_fraction, edge_fraction;
  size_t node_count;
  bool no_tags; /* 1: no label boxes (tags stays empty; they still count as nodes) */
  /* 1: the graph of pprof's text reports (-tree; report.go newTrimmedGraph
   * out of visual mode): nodes by |flat| desc, or by |cum| desc with
   * cum_sort, then name (graph.go FlatNameOrder, CumNameOrder); the first
   * node_count kept, label tags not counted and not made; residual edges
   * that another path explains are kept (pprof removes them only to draw) */
  bool text, cum_sort;
  /* the output budget (doc/safety.md, pcol_output_budget: 0 = by the input's
   * bytes) of the label boxes' text made while they are computed, every
   * label set's "key:value" lines: past it PCOL_EBUDGET (a set of many
   * labels naming one long string holds labels x its length) */
  uint64_t max_output_bytes;
  /* 1 (by address): nodes also apart by their location's mapping file and
   * their function's start line, as pprof's are when it keeps the binary's
   * name (graph.go nodeInfo with ObjNames: -callgrind, -raw): a function
   * merged from two builds is two nodes of one name.  An unsymbolized
   * location's node stays one per address and mapping base name. */
  bool obj_names;
  /* pprof -mean: each node's flat and cum divided by the same sums of
   * this value over the same graph (pprof's first value type; Go's integer
   * division, a divisor of 0 leaves the sum), the total by its signed sum;
   * the nodes, their order and the cuts stay the sums'.  The text graph's
   * calls stay sums (report.go printTree prints Edge.Weight); the drawn
   * graph's calls and label boxes are divided too (dotgraph.go prints
   * WeightValue, and a box's FlatValue/CumValue; a bucket of "bytes"
   * values divides its summed values by its summed divisors).  NULL: no
   * division. */
  const pcol_value_sel *mean_div;
  /* pprof -drop_negative: a node whose flat is below 0 (or 0 with cum
   * below 0) is left out of the nodes before the cuts (their sum of flat is
   * of the others); its calls stay, as a phantom's, unless a cut rebuilds
   * the graph without it (graph.go selectNodesForGraph). */
  bool drop_negative;
} pcol_graph_opts;
PCOL_API pcol_graph_opts pcol_graph_opts_default(void);
typedef struct pcol_graph_edge {
  uint32_t from, to; /* indexes into pcol_graph.nodes */
  pcol_sum weight;   /* the samples through the call, once per sample */
  bool inl;          /* true: every call went into an inlined line ("(inline)") */
  bool residual;      /* 1: some calls skipped dropped frames (pprof's dotted edge) */
} pcol_graph_edge;
/* A label box of a node, as go tool pprof -dot draws them (dotgraph.go
 * addNodelets, graph.go addSample/joinLabels/TrimLowFrequencyTags): the
 * samples through a node make one tag per set of string labels ("key:value"
 * sorted, pprof::base left out) and one per value of the numeric label
 * "bytes" (in its unit, as pcol_unit_label with "minimum": "64B"), under
 * the string tag of its sample when it has string labels; a tag whose
 * |flat| and |cum| are both below the node cutoff goes.  A node with
 * callees in the graph shows its tags' flat, a leaf their cum.  At most 4
 * string tags a node (by |cum| desc for a leaf, then |flat| desc, then
 * name), each followed by its numeric tags; then the node's numeric tags
 * without string labels.  More than 4 numeric tags under one box are put
 * into 4 buckets (the 4 heaviest, each other value to the nearest of them)
 * shown as "min..max".  A box of weight 0 is not drawn (its index is
 * skipped). */
typedef struct pcol_graph_tag {
  uint32_t node;      /* the node it hangs from (index into pcol_graph.nodes) */
  uint32_t parent;    /* 0: from the node; i + 1: from tags[i], its string labels' box */
  uint32_t index;     /* its place under its parent: pprof's ids N<n>_<index> for a
                         string tag, NN<n>_<index> or NN<n>_<p>_<index> for a number */
  bool numeric;        /* 1: a "bytes" value or range */
  const pcol_str *lines; /* its text, a line each: the "key:value"s, or the number */
  size_t nlines;
  pcol_sum weight;    /* flat or cum, as above */
  bool dotted;         /* a leaf's numeric box whose cum differs from its flat */
} pcol_graph_tag;
typedef struct pcol_graph {
  pcol_top_row *nodes; /* pprof's node order; flat as the pruned graph has it */
  size_t nnodes;
  /* After the nnodes nodes, nphantom "phantom" ones, keys whose flat and
   * cum are 0 that a call joins to the graph (pprof's graph keeps such a
   * node for its calls and leaves it out of its nodes: -tree prints the
   * calls, never the node; -dot counts them in the nodes' entropy and draws
   * a node's call into one to "N0", none out of one).  An edge's from or to
   * may be one; a call into one is never cut by edge_fraction nor removed
   * as redundant (pprof trims each node's incoming calls).  They come from
   * values below 0 that cancel, and from --mean's divisor (calls of value
   * 0). */
  size_t nphantom;
  pcol_graph_edge *edges; /* pprof's order: |weight| desc, caller name, callee name */
  size_t nedges;
  /* each node's edges in that order: edges[in_edge[k]] for k in
   * [in_off[i], in_off[i + 1]) go into node i, edges[out_edge[k]] for k in
   * [out_off[i], out_off[i + 1]) out of it */
  size_t *in_off, *out_off;
  uint32_t *in_edge, *out_edge;
  pcol_sum total;         /* top.total: what percentages are of */
  pcol_sum shown;         /* sum of the nodes' flat ("Showing nodes accounting for") */
  size_t dropped_nodes;   /* below the node fraction ("Dropped N nodes (cum <= X)") */
  size_t dropped_edges;   /* below the edge fraction, in the last pass ("Dropped N edges") */
  size_t orig_count;      /* nodes before node_count ("Showing top N nodes out of M") */
  pcol_sum node_cutoff, edge_cutoff; /* |(int64)(total x fraction)|, as the labels print them */
  pcol_top top;           /* every row of the profile (pcol_top_compute); owns the names */
  pcol_graph_tag *tags;   /* the label boxes, in pprof's order (node by node) */
  size_t ntags;
  void *tag_mem_;         /* the boxes' text */
} pcol_graph;
/* The graph of the selected samples' value v by function (line, file,
 * address: pcol_top_compute's keys and names).  o NULL = the defaults.
 * Free with pcol_graph_free. */
PCOL_API PCOL_NODISCARD pcol_status pcol_graph_compute(pcol_file *f, const pcol_select *sel,
                                                       const pcol_value_sel *v, pcol_by by,
                                                       const pcol_graph_opts *o, pcol_graph *out,
                                                       pcol_error *err);
PCOL_API void pcol_graph_free(pcol_graph *g);

/* -------------------------------------------------------------------- list */

/* go tool pprof -list: source lines annotated with flat and cum.  by =
 * PCOL_BY_LINE: a block per function whose name matches `regex` and file
 * (pprof's ROUTINE), sorted by name and file; PCOL_BY_SOURCE_LINE: a block
 * per file whose (cleaned) path matches, the lines of all its functions
 * merged (summaryRprof(lines = "show")'s by.line).  A block spans pprof's
 * window: from the function's start line (else 5 lines before its first
 * line with samples) to 5 lines after its last, read from the source file
 * found as pprof finds it (an absolute path as is; a relative one under each
 * directory of `opt->source_path` (':'-separated; NULL = the current
 * directory) and their parents).  Unless `opt->allow_any_source`, a file is
 * opened only when it lies under a directory of the source path, both as
 * written and with symbolic links resolved (so "/etc/passwd", "../x" or a
 * link out of the directory are not read); in every mode only a regular
 * file is read, never blocking, and only up to the window's last line
 * (doc/safety.md, "What list opens").  opt NULL: the defaults.  When the
 * file cannot be read (or is not allowed), `error` says why and
 * the lines are only those with samples, with NA text.  A function none of
 * whose lines has a file gives a block with NA file and no lines (pprof's
 * "No source information").  EINVAL for a bad expression. */
typedef struct pcol_list_line {
  int64_t line;
  pcol_sum flat, cum;
  pcol_str text; /* NA when the source was not read */
} pcol_list_line;
typedef struct pcol_list_block {
  pcol_str name;   /* function; NA by file */
  pcol_str file;   /* pprof's cleaned path */
  pcol_sum flat, cum; /* sums over the block's lines, as pprof prints them; by
                       * file, cum is the file's (pcol top --by file's: a
                       * sample with frames in it counts once) */
  pcol_list_line *lines;
  size_t nlines;
  const char *error;
  /* the path as the profile names it (top --by line's FILE in "FUNCTION
   * FILE:LINE"): `file` is it cleaned and trimmed by the source path as
   * pprof prints it, this matches the samples' lines.  Borrowed from the file. */
  pcol_str profile_file;
  /* 1 when error is a refusal that allow_any_source lifts (a file outside
   * source_path), not a file missing or not regular */
  bool refused;
} pcol_list_block;
typedef struct pcol_list {
  pcol_list_block *blocks;
  size_t nblocks;
  pcol_sum total;
  pcol_value_sel value;
  void *priv_;
} pcol_list;
typedef struct pcol_list_options {
  const char *source_path; /* ':'-separated directories; NULL = the current directory */
  bool allow_any_source;    /* 1: open any file the profile names, as pprof does */
  /* pprof -drop_negative: the lines whose flat is below 0 (or 0 with cum
   * below 0) are left out, of the lines and of their block's sums; a block
   * with no line left is not made (source.go printSource over graph.go
   * selectNodesForGraph: its nodes are the lines) */
  bool drop_negative;
} pcol_list_options;
PCOL_API PCOL_NODISCARD pcol_status pcol_list_compute(pcol_file *f, const pcol_select *sel,
                                                      const pcol_value_sel *v, pcol_by by,
                                                      const char *regex,
                                                      const pcol_list_options *opt, pcol_list *out,
                                                      pcol_error *err);
PCOL_API void pcol_list_free(pcol_list *l);

/* ------------------------------------------------------------------ disasm */

/* go tool pprof -disasm (report.go PrintAssembly): the routines of the
 * profile's binaries whose symbol matches `regex`, disassembled, each
 * instruction with the flat and cum of the samples at it.  As pprof: the
 * samples are keyed by address with each location's outermost line only
 * (-noinlines); the binaries are the mappings whose file has a sample
 * whose address-level name ("%016x NAME FILE:LINE", top --by address)
 * matches, found as --symbolize local finds them (`opt->binary_path`,
 * PPROF_BINARY_PATH, build ids; doc/safety.md "What --symbolize local
 * runs"); their symbols are nm -n's (llvm-nm, else nm), grouped by
 * address, a group matching when one of its names does (or, when regex
 * reads as a number, when it covers that address: then all its names);
 * a routine is [its address, the next symbol's) and is shown when a
 * sample falls in it; its instructions are objdump's (llvm-objdump,
 * else GNU objdump; --disassemble --demangle --no-show-raw-insn
 * --line-numbers, `opt->intel`: Intel syntax).  A sample between two
 * instructions counts for the first.  Blocks in pprof's order: by first
 * name, then address.  Unlike pprof, each binary's base is had from its
 * own first sample (pprof takes the first of all, in random order, and
 * shows nothing of a binary that sample is not in), and a binary whose
 * build id differs from its mapping's is not read.  Every tool runs
 * without a shell, within PCOL_SYMBOLIZE_TIMEOUT's deadline for all (60
 * s), its output read as it comes with PCOL_DISASM_MAX_BYTES for the
 * names and instructions kept, their records counted with their text;
 * past a bound the command fails.  A binary
 * that cannot be found or read is a warning (`warnings`).  EINVAL for a
 * bad expression; PCOL_ENOTFOUND when no routine matches (pprof's "no
 * matches found for regexp"); PCOL_EIO when a tool fails. */
#define PCOL_DISASM_MAX_BYTES ((size_t)64 << 20)
typedef struct pcol_disasm_inst {
  uint64_t address;          /* the binary's own */
  pcol_str text;             /* objdump's instruction */
  pcol_str function, file;   /* objdump's (file: its base name), else the samples'; NA: none */
  int64_t line;              /* 0: none */
  pcol_sum flat, cum;
} pcol_disasm_inst;
typedef struct pcol_disasm_block {
  pcol_str *names;           /* the routine's name, then its other names (pprof's AKA) */
  size_t nnames;
  pcol_str binary;           /* the file read */
  uint64_t start, end;       /* the routine's addresses in the binary, [start, end) */
  pcol_sum flat, cum;        /* sums over its samples */
  pcol_disasm_inst *insts;
  size_t ninsts;
} pcol_disasm_block;
typedef struct pcol_disasm {
  pcol_disasm_block *blocks;
  size_t nblocks;
  pcol_sum total;
  pcol_value_sel value;
  const char *warnings;      /* NULL, or "; "-separated, names escaped (\xNN) */
  void *priv_;
} pcol_disasm;
typedef struct pcol_disasm_options {
  const char *binary_path;   /* ':'-separated; NULL: $PPROF_BINARY_PATH, else $HOME/pprof/binaries */
  bool intel;                /* pprof -intel_syntax */
} pcol_disasm_options;
PCOL_API PCOL_NODISCARD pcol_status pcol_disasm_compute(pcol_file *f, const pcol_select *sel,
                                                        const pcol_value_sel *v,
                                                        const char *regex,
                                                        const pcol_disasm_options *opt,
                                                        pcol_disasm *out, pcol_error *err);
PCOL_API void pcol_disasm_free(pcol_disasm *d);

/* -------------------------------------------------------- source summaries */

/* What `pcol info` says of each source, in O(sources x log samples):
 * type and URI, its start in whole seconds (THE start rule: otlp.time_unix_nano,
 * else pprof.time_nanos, else the sources column's timestamp; NA), its samples (rows) and the
 * span of their times (first time_ns, end of the last sample; NA without
 * times), the period (period_type/unit: OTLP's, else pprof's, spec.md
 * §7) or Rprof's interval (as "sample.interval"/"nanoseconds"), its duration in ns (meta
 * otlp.duration_nano, else pprof.duration_nanos: spec.md §7; NA otherwise), the
 * value types it declares (value_types ids) and the value the views add up
 * by default (pcol_value_resolve with this source alone).  Strings are
 * borrowed from the file. */
typedef struct pcol_source_summary {
  uint32_t id;
  pcol_str type, uri;
  int64_t timestamp_s;
  uint64_t samples;   /* rows */
  pcol_sum count;     /* raw samples: "samples" (THE count rule) of this source */
  int64_t first_ns, end_ns;
  int64_t period;
  pcol_str period_type, period_unit;
  int64_t duration_ns;
  uint32_t *value_types;
  size_t nvalue_types;
  pcol_value_sel default_value;
  /* derived values this source answers: "cpu" by the time rule (Rprof:
   * interval x ticks, PCOL_VT_TIME; 0 when the source stores its own cpu)
   * and "rprof.alloc" (a source with Rprof's three memory snapshots) */
  bool derived_cpu, derived_alloc;
  /* what the importer read but did not keep (meta pcol.note; several
   * joined by "; " in file order), or NA */
  pcol_str note;
  /* an Rprof source whose segments (Rprof(append = TRUE)) have different
   * intervals: the smallest and the largest, in period_unit (period is the
   * first segment's); PCOL_NA_I64 otherwise */
  int64_t period_min, period_max;
} pcol_source_summary;
PCOL_API PCOL_NODISCARD pcol_status pcol_source_summaries(pcol_file *f, pcol_source_summary **out,
                                                          size_t *n, pcol_error *err);
PCOL_API void pcol_source_summaries_free(pcol_source_summary *s, size_t n);

/* --------------------------------------------------------- units */
/* go tool pprof's measurement rules (internal/measurement), for text views.
 * pcol_unit_scale: v in unit `from` expressed in `to` ("auto"/"minimum" =
 * the largest unit of the family that keeps the value >= 1), *out_unit the
 * unit's printed name ("" for a count).  Families: bytes (B kB MB GB TB PB,
 * x1024), time (fs ps ns us ms s hrs; pprof's has no fs and ps, which it
 * prints unscaled: pcol knows them only so spelled, as the Perun importer
 * stores them, and leaves "picoseconds" unscaled as pprof does), GCU; `from` may be a decimal unit "1e-D U" of such a
 * U, which scales as U / 10^D ("1e-9 ms" is a ps); other units are left as
 * they are.  A v below 0 scales as -v does, but INT64_MIN, which Go cannot
 * negate, into the family's default unit, as pprof's measurement.Scale. */
PCOL_API double pcol_unit_scale(pcol_sum v, pcol_str from, const char *to, const char **out_unit);
/* true when `from` belongs to a family (bytes, time, GCU), a decimal
 * unit of one's unit too. */
PCOL_API bool pcol_unit_known(pcol_str from);
/* THE unit rule of the bindings' numbers (R's views: time in seconds,
 * memory in bytes): the base unit of from's family, *base "s" (time), "B"
 * (bytes) or "GCU", and how many `from` make one of it, the divisor of a
 * sum in `from` (1e9 for "nanoseconds" and "ns", 1/1024 for "kB", 1e12 for
 * the decimal unit "1e-9 ms"); a unit of no family is its own base (the U
 * of a decimal unit "1e-D U", "count" for a bare "1e-D": a collapsed
 * file's decimal counts; "picoseconds", which pprof leaves unscaled, as
 * it is), divided by 10^D.  *base points into from or a static string;
 * *decimals (NULL: not asked) gets D, 0 for a unit that is no decimal
 * one (a text that writes such sums as decimals, pcol fold's, is in U:
 * divide it by the divisor / 10^D).  Since 1.1. */
PCOL_API double pcol_unit_base(pcol_str from, pcol_str *base, int *decimals);
/* true when `to` is "auto", "minimum", "raw" or a unit of from's family. */
PCOL_API bool pcol_unit_valid_target(pcol_str from, const char *to);
/* pprof's ScaledLabel: "%.2f" without ".00", then the unit ("1.23s",
 * "45.60MB", "0"); to = "raw" prints the integer as it is. */
PCOL_API void pcol_unit_label(pcol_sum v, pcol_str from, const char *to, char *buf, size_t n);
/* A number shown alone, each in its own unit (a flame graph's hover, pcol
 * flame and the report page's): a unit of a family in the largest unit
 * that keeps it >= 1 (pcol_unit_label with "minimum": "1.23s"); a unit of
 * none as go tool pprof -http's flame graph labels it (report.go
 * selectOutputUnit keeps such a unit, measurement.ScaledLabel prints it
 * after the number): "12objects", the number alone for count, sample and
 * unit ("12"), "0" for 0; a decimal unit ("1e-9 objects") as given, "1.5objects". */
PCOL_API void pcol_unit_label_alone(pcol_sum v, pcol_str from, char *buf, size_t n);
/* pprof's Percentage: "  100%", "%5.2f%%" from 1 %, "%5.2g%%" below.  A
 * share can be far past 100 % (a mean view's calls are sums, its cum a
 * mean; a base's changes): a buffer of PCOL_PERCENT_MAX bytes holds any. */
#define PCOL_PERCENT_MAX 64
PCOL_API void pcol_percentage(pcol_sum v, pcol_sum total, char *buf, size_t n);
/* pprof's choice of one unit for a table (report.go selectOutputUnit): from
 * the smallest non-zero |value| of vals and the total; "minimum" (each
 * number in its own unit) for no values, as pprof when no node is left;
 * out gets the unit to pass to pcol_unit_label (at least 32 bytes). */
PCOL_API void pcol_unit_pick(const pcol_sum *vals, size_t nvals, pcol_sum total, pcol_str from,
                             char *out, size_t n);
/* pcol_unit_pick for outputs of whole numbers (pprof -callgrind): the
 * unit of the smallest value, never of 100 times it, so that no value
 * scales below 1. */
PCOL_API void pcol_unit_pick_whole(const pcol_sum *vals, size_t nvals, pcol_sum total,
                                   pcol_str from, char *out, size_t n);
/* go tool pprof's -divide_by F (ratio = 1/F): v as a report shows it,
 * int64(v x ratio) truncated toward 0 (out of int64's range or NaN:
 * INT64_MIN, Go's int64() on amd64); v itself when ratio <= 0 (pprof
 * ignores a negative F), NaN or 1.  Percentages stay those of the
 * unscaled values; -tags and -callgrind's numbers are not scaled
 * (lib/core/unit_scale.c lists what pprof scales). */
PCOL_API pcol_sum pcol_unit_ratio(pcol_sum v, double ratio);
/* pcol_unit_pick (whole: pcol_unit_pick_whole) under -divide_by: the
 * smallest value and the total scaled by pcol_unit_ratio before the unit
 * is chosen, as report.go selectOutputUnit does. */
PCOL_API void pcol_unit_pick_ratio(const pcol_sum *vals, size_t nvals, pcol_sum total,
                                   pcol_str from, bool whole, double ratio, char *out, size_t n);
/* Length of the well-formed UTF-8 sequence at p[0..n) (RFC 3629: no
 * overlong forms, no surrogates, nothing above U+10FFFF), 0 if none (an
 * ASCII byte, NUL too, is 1). */
PCOL_API size_t pcol_utf8_len(const char *p, size_t n);
/* THE cut rule, where a string from a file is shortened to a fixed number
 * of bytes (a unit of no family to 31 in pcol_unit_label_alone and
 * pcol_unit_pick, a value type in a message): the length of the longest
 * start of p[0..n) of at most max bytes that does not end inside a
 * well-formed UTF-8 character (RFC 3629); a byte of none is one of its own.
 * n when n <= max. */
PCOL_API size_t pcol_utf8_cut(const char *p, size_t n, size_t max);
/* THE text rule for a string people read (the CLI's text views, TSV and
 * messages; the notes of pcol_inputs_expand): the character of p[0..n) at
 * p[*i] as its text into out (room for 9 bytes), *i moved past what it
 * used; returns the text's length.  Well-formed UTF-8 as it is, but C1
 * controls (U+0080..U+009F); '\n' and '\r' as \n and \r; other control
 * bytes but tab, DEL and each byte of no character as \xNN; tsv: also tab,
 * '\\' and NUL as \t, \\ and \0; not tsv: a bidi formatting character
 * (Unicode's Bidi_Control: U+061C, U+200E, U+200F, U+202A..U+202E,
 * U+2066..U+2069, which reorder the text around them unseen: "Trojan
 * Source") as \x{202e}, Go's regex escape of it (since 1.2.0). */
PCOL_API size_t pcol_text_char(const char *p, size_t n, size_t *i, bool tsv, char *out);

/* ---------------------------------------------------------- labels */
/* go tool pprof -tags: for each label key (sorted by name), the value of
 * the selected samples that carry each of its values (sorted by |value|
 * desc, then name; a numeric label's value is printed in its key's unit,
 * as pcol_unit_label does with "minimum": pprof's NumLabelUnits, the first
 * unit a label of the key gives, else "bytes" for alignment and request,
 * else the key's name, whatever unit the label itself gives).  A sample with two values of a key
 * counts for both.  Only the keys sel's tag_show/tag_hide let through.  A
 * sample without locations is not counted (pprof's filters, which run
 * before -tags even when none is given, drop it).  A value whose samples
 * add up to 0 is listed, unless every value type of each of its samples
 * adds up to 0 with the others of one stack and label set (pprof's merge
 * drops them: a base, pcol_open_diff_base, that cancels them; one stack as
 * pprof's merge keys it, by each location's offset in its mapping, so two
 * runs loaded at other addresses share it). */
typedef struct pcol_tag_value {
  pcol_str name;
  int64_t value;
  uint64_t value_abs;
} pcol_tag_value;
typedef struct pcol_tag_key {
  pcol_str key;
  int64_t total; /* sum over the key's values */
  pcol_tag_value *values;
  size_t nvalues;
} pcol_tag_key;
typedef struct pcol_tags {
  pcol_tag_key *keys;
  size_t nkeys;
  pcol_value_sel value;
  void *priv_;
} pcol_tags;
PCOL_API PCOL_NODISCARD pcol_status pcol_tags_compute(pcol_file *f, const pcol_select *sel,
                                                      const pcol_value_sel *v, pcol_tags *out,
                                                      pcol_error *err);
PCOL_API void pcol_tags_free(pcol_tags *t);

/* go tool pprof -traces: the selected samples that have a frame, as go's pprof
 * 1.19 reads a profile (profile.Merge): samples with the same stack (as pprof
 * keys it: each location by its offset in its mapping, its mapping, its
 * folded flag and its lines' function and line -- a line's column, which
 * no view prints, splits none) and label set are one trace at the place of
 * the first (row), their values added;
 * a trace whose every value type adds up to 0 is left out.  With its
 * frames (innermost first, named as pcol_top_compute names its rows, as
 * go tool pprof -traces names them: a location without lines "[mapping
 * file]" or "<unknown>", a function without a name "<unknown>" or its
 * mapping's name, an Rprof top-level srcref's too, as pprof names it on
 * pcol's pprof copy, where fold and pcol_ftree_build name its place
 * FILE:LINE; inlined[i] = 1 for a frame inlined into the next) and
 * its labels (str.ptr NULL for a numeric label, num its number and unit
 * its key's unit as pcol_tags_compute names it, pprof's NumLabelUnits;
 * only those whose key sel's tag_show/tag_hide let through: the traces are
 * the same either way).  fn
 * and what t points to follow the callback rule (at the top). */
typedef struct pcol_label_kv {
  pcol_str key, str;
  int64_t num;
  pcol_str unit;
} pcol_label_kv;
typedef struct pcol_trace {
  uint64_t row;
  int64_t value;
  size_t nframes;
  const pcol_str *frames;
  const uint8_t *inlined;
  size_t nlabels;
  const pcol_label_kv *labels;
} pcol_trace;
PCOL_API PCOL_NODISCARD pcol_status pcol_traces_iter(pcol_file *f, const pcol_select *sel,
                                                     const pcol_value_sel *v,
                                                     int (*fn)(void *ctx, const pcol_trace *t),
                                                     void *ctx, pcol_error *err);
/* pprof -mean -traces: pcol_traces_iter with each trace's value divided by
 * the sum of value div over the same samples (Go's integer division; 0
 * leaves it): one more pass over the selected samples' values. */
PCOL_API PCOL_NODISCARD pcol_status pcol_traces_iter_mean(pcol_file *f, const pcol_select *sel,
                                                          const pcol_value_sel *v,
                                                          const pcol_value_sel *div,
                                                          int (*fn)(void *ctx, const pcol_trace *t),
                                                          void *ctx, pcol_error *err);
/* pprof -traces at a granularity (-lines, -files, -addresses,
 * -filefunctions): pcol_traces_iter with each frame named as
 * pcol_top_compute names its row at granularity `by` (the same traces and
 * inline marks; a line the granularity names nothing, as an Rprof line
 * without a number by line, is no frame); PCOL_BY_FUNCTION gives
 * pcol_traces_iter's names.  div non-NULL: each value over its sum of div,
 * as pcol_traces_iter_mean. */
PCOL_API PCOL_NODISCARD pcol_status pcol_traces_iter_by(pcol_file *f, const pcol_select *sel,
                                                        const pcol_value_sel *v,
                                                        const pcol_value_sel *div, pcol_by by,
                                                        int (*fn)(void *ctx, const pcol_trace *t),
                                                        void *ctx, pcol_error *err);
/* A trace's stack as one line of text, root first, its names joined by ';'
 * with ';', '\n', '\r' and NUL inside a name made '_' (the rule of pcol fold
 * and collapsed stacks, so the line splits back into the trace's frames).
 * Writes min(length, cap) bytes to buf (no NUL) and returns the whole
 * length, so a call with cap 0 sizes the buffer. */
PCOL_API size_t pcol_trace_stack_text(const pcol_trace *t, char *buf, size_t cap);

/* go tool pprof's warning about a numeric label key given in several
 * units (driver.go identifyNumLabelUnits, profile.go NumLabelUnits): for
 * each such key, sorted by name, the line "For tag KEY used unit U, also
 * encountered unit(s) V, W" -- U the unit its views name it in (the first
 * one a label of the key gives), V, W the others, sorted (labels without
 * a unit are not counted).  Lines end in '\n'; writes min(length, cap)
 * bytes to buf (no NUL) and returns the whole length (0: no such key), so
 * a call with cap 0 sizes the buffer.  *err only on a damaged file (then
 * returns 0). */
PCOL_API size_t pcol_label_unit_warnings(pcol_file *f, char *buf, size_t cap, pcol_error *err);

/* -------------------------------------------------------------- frame tree */

/* Frame tree: the stacks with every frame named (inline frames expanded,
 * outermost first) and merged by name path.  Node 0 is the root. */
typedef struct pcol_ftree {
  uint32_t n;       /* nodes, including the root */
  uint32_t *parent; /* parent[i] < i for i > 0 */
  uint32_t *depth;  /* root 0 */
  pcol_str *name;   /* frame name of node i (root: empty) */
  pcol_sum *self;   /* value of samples whose innermost frame is node i */
  pcol_sum *total;  /* self plus all descendants */
  pcol_sum total_abs;
  pcol_value_sel value;
  void *priv_;
} pcol_ftree;

/* Frame names: the function name; for a function with NA name (Rprof
 * top-level refs) "file:line" (or the file, or "[unknown]"); a location
 * without lines (unsymbolized) its mapping's, as go tool pprof and
 * pcol_top_compute name it: "[<basename of the mapping's file>]", or
 * "<unknown>" without one; so is a function named "" (1.2: it was "", a
 * name go tool pprof prints as none; doc/mappings.md §6). */
PCOL_API PCOL_NODISCARD pcol_status pcol_ftree_build(pcol_file *f, const pcol_select *sel,
                                                     const pcol_value_sel *v, pcol_ftree *out,
                                                     pcol_error *err);
/* Child of `parent` named name[0..len), 0 if none. */
PCOL_API uint32_t pcol_ftree_child(const pcol_ftree *t, uint32_t parent, const char *name,
                                   size_t len);
PCOL_API void pcol_ftree_free(pcol_ftree *t);

/* ----------------------------------------------------------- diffs */

/* The one definition of a share, used by every diff: 100 x v / total, with
 * total the sum of |value| of a profile (pcol_top.total, pcol_ftree.total_abs);
 * 0 when total is 0. */
PCOL_API double pcol_share(pcol_sum v, pcol_sum total);

/* PCOL_OK when two profiles' chosen values measure the same thing (same
 * type name, and the same unit or units of one family go tool pprof scales
 * into one: bytes and kilobytes, ns and ms; the unit rule, doc/cli.md "What
 * a view adds up"), else PCOL_EINVAL with both named: a diff of bytes
 * against nanoseconds means nothing (go tool pprof -diff_base refuses too).
 * pcol_diff_compute's absolute sums are then in nw's unit. */
PCOL_API PCOL_NODISCARD pcol_status pcol_value_compatible(const pcol_value_sel *base,
                                                          const pcol_value_sel *nw,
                                                          pcol_error *err);
/* The values a diff of base against nw compares when its caller named
 * none (pcol diff without --value, R's and Python's pcol_diff without
 * value): *vb and *vn are each side's default, as pcol_value_resolve with
 * no name gave it on base with sel and on nw with nsel (NULL: sel; its own
 * where the sides' selections differ: Python's File(base=B).diff(NEW,
 * source=N), whose side of B was opened with source N of each taken
 * first, pcol_open_diff_base_select, and reads that union with no source,
 * NEW with source N; each side's "selected sources" below are its
 * selection's).  When they differ
 * (pcol_value_compatible), each side's sources agree on theirs
 * (pcol_value_defaults_differ: false) and one names it in meta
 * "pprof.default_sample_type", nw's first, else base's, the other side's
 * value becomes that type and unit when every selected source of it
 * measures it: go tool pprof -diff_base's, which merges the profile and
 * its base and shows the default the first of them names (profile.go
 * combineHeaders).  Else both stay as they are, and pcol_value_compatible
 * refuses them.  base or nw NULL: nothing done.  Since 1.2. */
PCOL_API PCOL_NODISCARD pcol_status pcol_value_diff_default(pcol_file *base, pcol_file *nw,
                                                            const pcol_select *sel,
                                                            const pcol_select *nsel,
                                                            pcol_value_sel *vb, pcol_value_sel *vn,
                                                            pcol_error *err);

typedef struct pcol_diff_row {
  pcol_str name;                 /* borrowed from the two pcol_top results */
  pcol_sum base_flat, base_cum, new_flat, new_cum;
  double d_flat, d_cum;          /* change: share points, or raw (absolute) */
  pcol_sum abs_flat, abs_cum;    /* absolute: new - base, exact */
  int inl;                       /* PCOL_INLINE_*: both sides' marks combined
                                  * (pcol_diff_mark_inline: the merged graph's) */
} pcol_diff_row;

typedef struct pcol_diff {
  pcol_diff_row *rows; /* sorted as pprof -diff_base -top: |d_flat| desc, name, |d_cum| desc */
  size_t nrows;
  pcol_sum base_total, new_total;
  bool absolute;
} pcol_diff;

/* Joins two top results by name (rows of one name that are pprof's nodes
 * apart, frames of no function name of two start lines or mapping files,
 * each with the other side's node of its start line and mapping file, as
 * go's -diff_base merges them).  absolute = 0: changes in share points
 * (pcol_share of each side's total), a row per name of either side; 1: raw
 * differences, exact, and as pprof -diff_base's graph without the names
 * whose flat and cum both change by 0.  Valid while both tops live. */
PCOL_API PCOL_NODISCARD pcol_status pcol_diff_compute(const pcol_top *base, const pcol_top *nw,
                                                      bool absolute, pcol_diff *out,
                                                      pcol_error *err);
PCOL_API void pcol_diff_free(pcol_diff *d);
/* Sorts the rows as pprof sorts a -diff_base report: by flat (|d_flat|
 * desc, name, |d_cum| desc), by cum (|d_cum| desc, name, |d_flat| desc) or
 * by name. */
PCOL_API void pcol_diff_sort(pcol_diff *d, pcol_sort order);
/* pprof's node fraction on a diff (-diff_base with -nodefraction), the
 * order of the rows kept.  Absolute: pprof's rule exactly (report.go
 * newTrimmedGraph on the merged graph, where the base counts negative):
 * drops the rows whose |abs_cum| is below |(int64)(sum of abs_flat x
 * fraction)|, and *label_cutoff (may be NULL) gets pprof's "Dropped N nodes
 * (cum <= X)": |(int64)(base_total x fraction)|.  Shares: each side is a
 * whole of 100%, so the rows whose |d_cum| is below 100 x fraction points go
 * (*label_cutoff is 0).  Returns how many were dropped. */
PCOL_API size_t pcol_diff_cutoff(pcol_diff *d, double fraction, pcol_sum *label_cutoff);
/* The "(inline)" marks of a diff's rows as go tool pprof -diff_base and
 * `pcol top NW --diff-base BASE` make them: of the graph of both sides
 * merged, base's values negated (pcol_open_diff_base_select of nw and base
 * with sel, PCOL_BASE_DIFF; its union read with no source; nsel, NULL:
 * sel, of which only source_id is read, nw's source where the sides'
 * differ, as pcol_value_diff_default's: then each side's source is taken
 * alone first, sel's of base and nsel's of nw; the range and the filters
 * are sel's for both), where a call is
 * an inlined one when every call of it is, and the calls below pprof's edge
 * fraction of that graph go (pcol_top_mark_inline of the first `shown` rows
 * of d alone, the ones a caller shows after pcol_diff_sort, pcol_diff_cutoff
 * and a row limit; the rows after them get no mark).  Rows are found by
 * name, as pcol_diff_compute joins them; a name the merged graph has no
 * node of gets no mark.  So a function inlined in the base alone, whose
 * calls cancel out or fall below the fraction, is not marked, where each
 * side's marks joined (pcol_diff_compute's) mark it.  base, nw, sel, nsel,
 * v (the new side's value, pcol_diff's nw top's) and by: those d was computed of
 * (base at nw's addresses by address, pcol_open_readdressed).  Sides that
 * go's -diff_base refuses to merge (pcol_open_diff_base_select's
 * PCOL_ENOTFOUND: other period types, other value types; or a value their
 * union does not hold), and sides whose merge fails on what the diff does
 * not read (a damaged table of labels), keep pcol_diff_compute's joined
 * marks, PCOL_OK, err untouched; *merged (may be NULL) says whether the
 * marks are the merged graph's.  PCOL_ENOMEM and PCOL_EIO are returned
 * (d's marks then undefined).  Cost: the
 * union of both in memory, and its top; none when no row is shown (shown
 * or d->nrows 0: d untouched, *merged false).  Since 1.2. */
PCOL_API PCOL_NODISCARD pcol_status pcol_diff_mark_inline(pcol_file *base, pcol_file *nw,
                                                          const pcol_select *sel,
                                                          const pcol_select *nsel,
                                                          const pcol_value_sel *v, pcol_by by,
                                                          pcol_diff *d, size_t shown, bool *merged,
                                                          pcol_error *err);

/* For each node of `nw`, the share of the same name path in `base`
 * (*base_share) and the change of share (*delta), both malloc'd arrays of
 * nw->n entries (free() them). */
PCOL_API PCOL_NODISCARD pcol_status pcol_ftree_diff(const pcol_ftree *nw, const pcol_ftree *base,
                                                    double **base_share, double **delta,
                                                    pcol_error *err);

/* ----------------------------------------------------------- export budget */

/* The export budget (doc/safety.md, "Resource bounds"): an exporter writes
 * at most B bytes, and holds at most B bytes of output in memory at once
 * (rendered text, JSON trees, id lists), where B is max_output_bytes or by
 * default max(PCOL_EXPORT_BUDGET_MIN, PCOL_EXPORT_BUDGET_PER_BYTE x the
 * input's bytes, pcol_input_bytes: its bytes as given, or its data's plain
 * size in pcol when larger, at most 8 x, so a converted gzip counts about
 * as inflated); Rprof, which writes a sample once per unit of weight, may
 * also write PCOL_EXPORT_BUDGET_PER_LINE bytes per line; the default is at
 * most PCOL_INPUT_CAP_MAX (what an import reads by default: every default
 * export reads back).  Past it the export fails with PCOL_EBUDGET. */
#define PCOL_EXPORT_BUDGET_MIN ((uint64_t)32 << 20) /* 32 MiB: with the process, under 64 MB */
#define PCOL_EXPORT_BUDGET_PER_BYTE 128 /* x pcol_input_bytes: a real 774 KB .pb.gz (3 MB plain) prints 146 MB of traces -lines */
#define PCOL_EXPORT_BUDGET_PER_LINE 4096
/* THE budget rule, for exporters and for every command that writes (the
 * CLI's views use it for their standard output and -o files):
 * max_output_bytes if not 0, else max(PCOL_EXPORT_BUDGET_MIN,
 * PCOL_EXPORT_BUDGET_PER_BYTE x input_bytes). */
PCOL_API uint64_t pcol_output_budget(uint64_t input_bytes, uint64_t max_output_bytes);
/* THE message past it: "WHAT: DOING the output budget of B bytes (how it
 * was set); raise it with --max-output BYTES (...)"; custom: B was given
 * explicitly.  Returns PCOL_EBUDGET. */
PCOL_API int pcol_output_budget_error(pcol_error *err, const char *what, const char *doing,
                                      uint64_t budget, uint64_t input_bytes, int custom);
/* The kind of an export's note (pcol_export_notes, since 1.2): a loss is
 * what the format has no place for, whatever the format (THE loss note
 * "not written: ...", the mark of truncated stacks, made-up pids and tids,
 * the by-line rule of Rprof sources); PCOL_EXPORT_DATA is any other note:
 * of values changed or left out (rounded ticks, negative amounts, a time 0
 * in every sample, labels go tool pprof reads as none, ...). */
typedef enum pcol_export_note_kind { PCOL_EXPORT_LOSS = 1, PCOL_EXPORT_DATA = 2 } pcol_export_note_kind;
/* Since 1.2: where pcol_export_options.note_kinds is set, note_ctx points
 * to one of these, and each note is said to note(ctx, kind, text) with its
 * kind, which the library states where it makes the note (the text is
 * prose for people: its words may change). */
typedef struct pcol_export_notes {
  void (*note)(void *ctx, pcol_export_note_kind kind, const char *text);
  void *ctx;
} pcol_export_notes;

typedef struct pcol_export_options {
  uint64_t max_output_bytes;   /* B; 0 = the default above */
  bool no_gzip;                 /* pprof: raw protobuf instead of gzip; firefox, v8: JSON text */
  /* Since 1.2, in bytes that were the struct's padding (0 for a caller
   * that initializes the struct whole: the old behaviour): true: note_ctx
   * is a const pcol_export_notes *, whose note is called, with each
   * note's kind, instead of note (which is then not read) */
  bool note_kinds;
  const pcol_value_sel *value; /* collapsed: as pcol_export_collapsed's value; v8: the
                                * time each sample lasts (NULL: the source's default);
                                * perun: the one value written (NULL: the selection's
                                * default), bytes in the memory style, else kperf's;
                                * perfetto: the StackSamples' primary weight where a
                                * source has it (NULL: each source's default) */
  int timeline;                /* speedscope: the evented timeline; 1 always, -1 never,
                                * 0 when it has at most PCOL_SPEEDSCOPE_TIMELINE_EVENTS */
  /* pprof (one Profile whose sample types are the union of the selected
   * sources'): called, once the export has succeeded, for each selected
   * source with samples that lacks one of those types, whose samples carry
   * 0 there (type and unit as written); NULL: not called.  The CLI warns.
   * (The exports of one value, collapsed, rprof and perun, leave out the
   * samples of a source without it: pcol_value_lacking_notes says which.) */
  void (*lacking)(void *ctx, uint32_t source_id, pcol_str type, pcol_str unit);
  void *lacking_ctx;
  /* pprof: go tool pprof -proto -divide_by=F, ratio = 1/F: every value of
   * every sample written as pcol_unit_ratio(v, ratio); 0 (or 1): as they
   * are.  Other formats ignore it (the CLI refuses it there). */
  double ratio;
  /* rprof: called, once the export has succeeded, with a note (one line,
   * no line end) for each selected source whose time values could not be
   * written as whole ticks of one interval within the output's lines and
   * were rounded (doc/mappings.md §1.2); pprof: once, when labels of the
   * written samples are no label to go tool pprof (a string value "":
   * doc/mappings.md §2.2), naming how many; v8 and chrome: once, when the
   * written time is 0 in every selected sample (or less than 1 us in all)
   * and the profile was written empty, and once, when the samples laid end
   * to end last longer than their source's stated span, which the profile
   * then states (doc/mappings.md §10.1; chrome: also made-up ids, §14.1);
   * speedscope: once,
   * when a value type has a negative amount and its profile is not written
   * (doc/mappings.md §5); perun: once, when negative amounts were left out
   * (doc/mappings.md §3.2), naming how many samples; perfetto: once, naming
   * the follower values not written for a negative amount (doc/mappings.md
   * §17.1); and every export but pprof and otlp: once, when the selected
   * samples have labels or value types the format does not write, a line
   * starting "not written: " that names them (THE loss note,
   * doc/mappings.md §7 "What each export says it loses"; since 1.2);
   * rprof, perun, collapsed, v8, chrome and perfetto: once, when selected
   * sources have stacks the recorder truncated (meta
   * pcol.truncated_stacks), which the format has no place to mark (pprof,
   * speedscope, Firefox and OTLP carry it); NULL: not called.  Which of
   * these is a loss (what the format cannot hold) and which is of the data
   * is no matter of their words: set note_kinds for each note's kind
   * (pcol_export_notes).  The CLI prints the losses as notes, whatever
   * the format; the others of pprof, speedscope, perun, perfetto, v8 and
   * chrome as warnings. */
  void (*note)(void *ctx, const char *text);
  void *note_ctx;
} pcol_export_options;
/* speedscope: the default budget of the evented timeline, in events (an
 * open or a close, about 35 bytes each; doc/mappings.md §5). */
#define PCOL_SPEEDSCOPE_TIMELINE_EVENTS 100000

/* -------------------------------------------------------------------- fold */

/* Writes collapsed stacks ("root;...;leaf value\n", sorted bytewise, one
 * line per distinct name path with a non-zero value).  Inside a frame name
 * ';', '\n', '\r' and NUL become '_' (doc/mappings.md §6).  v: the value
 * to add up (pcol_value_resolve). */
PCOL_API PCOL_NODISCARD pcol_status pcol_fold_write(pcol_file *f, const pcol_select *sel,
                                                    const pcol_value_sel *v,
                                                    const pcol_export_options *opt, FILE *out,
                                                    pcol_error *err);
/* (fold sorts its lines before writing the first, so it holds them: they,
 * and the bytes written, count against the budget of opt, as an export's.) */

/* ---------------------------------------------------------- report */

/* The report page (`pcol report`): one self-contained HTML file (no network,
 * everything inline) with what `pcol info` says, a timeline (long samples as
 * rectangles, Rprof memory as a line), a top table and a flame graph that
 * the page recomputes for a brushed time range by the rule of spec.md §7
 * (a long sample counts its ticks inside the range, pcol_scale's rounding),
 * and with `base` a differential flame graph and table; a call tree, the
 * callers/callees of a function and its source lines (`pcol list`'s, whole
 * profile).  The profile's data is
 * embedded as base64 binary columns.  Writes to `out` (the caller owns
 * atomic publication, see pcol_out_open). */
typedef struct pcol_report_options {
  const char *title;     /* page title; NULL = path */
  const char *path;      /* the profile's name as shown; may be NULL */
  pcol_file *base;       /* NULL, or the base of a differential flame graph */
  const char *base_path; /* its name as shown */
  /* the source pane: files found as pcol_list_compute finds them (its
   * options' meaning), embedded within PCOL_REPORT_SOURCE_MAX bytes */
  const char *source_path;
  bool allow_any_source;
  /* pprof's -divide_by F: every number the page shows is the CLI's
   * int64(v x 1/F) (pcol_unit_ratio; the page's units.js pcolUnitRatio),
   * the shares those of the undivided values; the page's "divide by" box
   * starts at F.  0: none; a negative or not finite F is PCOL_EINVAL. */
  double divide_by;
} pcol_report_options;
/* the most bytes of source text a report embeds (8 MiB) */
#define PCOL_REPORT_SOURCE_MAX ((size_t)8 << 20)
PCOL_API PCOL_NODISCARD pcol_status pcol_report_write(pcol_file *f, const pcol_report_options *opt,
                                                      FILE *out, pcol_error *err);

/* ------------------------------------------------ logical views (views.c)
 * The 17 views of spec.md §11 (what `pcol cat --table NAME` prints and what
 * the R and Python packages return), one implementation.  A view is read
 * into caller-owned column arrays, batch by batch (nanoarrow-like): the
 * library allocates nothing for the rows; pcol_lview_rows documents its one
 * temporary array.  Every column is read through pcol_column (checked). */

/* What a cell of a view's column means (spec.md §11.1). */
typedef enum pcol_lview_kind {
  PCOL_LK_ID = 1, /* the row's 1-based id; u32; never null */
  PCOL_LK_REF,    /* u32 id; 0 = null */
  PCOL_LK_STR,    /* u32 string id (pcol_string); 0 = null */
  PCOL_LK_I64,    /* i64; PCOL_NA_I64 = null */
  PCOL_LK_U64,    /* u64; never null */
  PCOL_LK_F64,    /* f64; NaN = null */
  PCOL_LK_BOOL,   /* u8, 0 or 1 */
  PCOL_LK_COUNT   /* u32 count (a depth, from 1); never null */
} pcol_lview_kind;

#define PCOL_LVIEW_MAX_COLS 10
#define PCOL_LVIEW_COUNT 17

typedef struct pcol_lview_col {
  const char *name;
  pcol_lview_kind kind;
  pcol_type type; /* element type of its arrays: U32 (ID, REF, STR, COUNT), I64, U64, F64, U8 (BOOL) */
  /* When the whole view is read (no selection), row r of this column is
   * r + 1 (seq), or stored column `column` (> 0) of table `table` as is, row
   * for row; else (both 0) it is computed.  Lets a caller borrow columns
   * zero-copy (pcol_column) and compute only the rest. */
  int seq;
  int table, column;
} pcol_lview_col;

typedef struct pcol_lview_info {
  const char *name;
  int index; /* 0 .. PCOL_LVIEW_COUNT - 1 */
  size_t ncols;
  pcol_lview_col cols[PCOL_LVIEW_MAX_COLS];
  bool sample_view; /* 1: rows follow the samples; a selection applies */
  bool derived;     /* 1: some columns are computed (neither seq nor stored) */
} pcol_lview_info;

/* The views in spec order (meta, sources, samples, sample_values,
 * sample_locations, locations, functions, ...); NULL past the end. */
PCOL_API const pcol_lview_info *pcol_lview_at(int i);
/* By name; NULL if there is none. */
PCOL_API const pcol_lview_info *pcol_lview_by_name(const char *name);

/* Caller-owned output: cols[k] is an array of cap elements of the view's
 * cols[k].type, or NULL when column k is not wanted.  cap >= 1. */
typedef struct pcol_lview_batch {
  void *cols[PCOL_LVIEW_MAX_COLS];
  size_t cap;
} pcol_lview_batch;

/* Number of rows of view v for the samples sel selects (sel NULL or
 * zeroed: every sample; sel applies to sample views only and is ignored
 * for the others, as `pcol cat` ignores --focus there).  O(1) for a whole stored view; else one pass over the selected
 * samples (sample_locations: plus a temporary array of 4 bytes per stack
 * node, freed before return). */
PCOL_API PCOL_NODISCARD pcol_status pcol_lview_rows(pcol_file *f, const pcol_lview_info *v,
                                                    const pcol_select *sel, uint64_t *out,
                                                    pcol_error *err);
/* Reads view v in row order.  First fn(ctx, 0), once the columns the view
 * reads are fetched and checked (a caller may print a header then: errors
 * before it mean the view cannot be read at all); then it fills b's arrays
 * with up to b->cap rows and calls fn(ctx, n) with the n rows filled
 * (n >= 1), again and again until the view ends; the arrays are
 * overwritten after fn returns (the callback rule, at the top).
 * Allocates nothing (a filtered sel: what pcol_select_iter allocates). */
PCOL_API PCOL_NODISCARD pcol_status pcol_lview_scan(pcol_file *f, const pcol_lview_info *v,
                                                    const pcol_select *sel,
                                                    const pcol_lview_batch *b,
                                                    int (*fn)(void *ctx, size_t n), void *ctx,
                                                    pcol_error *err);

/* ------------------------------------------- frame rows (frame_rows.c)
 * One row per (selected sample, frame), each frame named as `pcol top`
 * names it (pcol_top_compute's keys for granularity `by`: an unsymbolized
 * location after its mapping "[base]" or "<unknown>", a line whose function
 * has no name likewise except on Rprof sources, ...), so that a GROUP BY
 * over the rows gives top's table: flat = the sum of value over rows with
 * self, cum = over rows with first.  The rows of a sample are its frames
 * as top counts them, innermost first: every line of each location of its
 * stack (inline frames expanded), a location without lines once; frames
 * top does not count are not rows (at function granularity a function
 * with NA name in an Rprof source, a top-level srcref: its sample's self
 * goes to the nearest caller that has a name, as top gives it).  A sample
 * none of whose frames counts has one row "<no location>".  A sample
 * whose value is 0 (after the range's cut), or whose stack is empty, has
 * no rows: top adds nothing for it.  Samples come in row order. */
typedef struct pcol_frame_rows {
  size_t cap; /* rows each array below holds (>= 1) */
  /* caller-owned arrays of cap elements; NULL = the column is not wanted */
  uint64_t *sample_id;   /* the sample's id (its 1-based row) */
  uint32_t *source_id;
  int64_t *time_ns;      /* the sample's time as stored; PCOL_NA_I64 = none */
  uint32_t *depth;       /* 1 = the innermost row of the sample, 2 its caller, ...
                          * (sample_locations' and location_lines' convention) */
  uint32_t *location_id; /* 0 for "<no location>" */
  pcol_str *name;        /* top's row name; valid until pcol_frame_rows_scan returns */
  pcol_str *file;        /* the function's file as stored ({NULL, 0}: none); borrowed */
  int64_t *line;         /* the line as stored; PCOL_NA_I64 = none */
  uint8_t *self;         /* 1 on the row top adds the sample's flat to (depth 1) */
  uint8_t *first;        /* 1 on the outermost row of each name in the sample: a
                          * recursive name counts once for cum, as in top */
  uint8_t *inlined;      /* 1: an inlined line, called from the next row's line of
                          * the same location (pprof's "(inline)") */
  int64_t *value;        /* the sample's value v, a long sample cut by the range
                          * scaled by pcol_scale as top scales it */
} pcol_frame_rows;
/* Fills b's arrays with up to b->cap rows and calls fn(ctx, n) with the n
 * rows filled (n >= 1), again and again to the end (a sample's rows may
 * span two calls); the arrays are overwritten after fn returns.  Before
 * the first rows, fn(ctx, 0) once the keys are made.  fn follows the
 * callback rule (at the top).
 * sel: source, time range (also wall-clock); a name or label filter
 * (pcol_select_filtered) is PCOL_EINVAL (filter the rows instead).  v from
 * pcol_value_resolve.  by: PCOL_BY_FUNCTION, LINE, FILE or ADDRESS.
 * Allocates the keys of top (names of every key, per location) and an
 * array of the rows of one sample. */
PCOL_API PCOL_NODISCARD pcol_status pcol_frame_rows_scan(pcol_file *f, const pcol_select *sel,
                                                         const pcol_value_sel *v, pcol_by by,
                                                         const pcol_frame_rows *b,
                                                         int (*fn)(void *ctx, size_t n), void *ctx,
                                                         pcol_error *err);

/* ========================================== level 3: convert (lib/convert)
 * Other profile formats into a builder, and pcol files back out to them. */

/* ------------------------------------------------------- conversions */

typedef enum pcol_format {
  PCOL_FMT_UNKNOWN = 0,
  PCOL_FMT_PCOL,
  PCOL_FMT_RPROF,
  PCOL_FMT_PPROF,
  PCOL_FMT_PERUN,
  PCOL_FMT_COLLAPSED,
  PCOL_FMT_SPEEDSCOPE,
  PCOL_FMT_CLICKHOUSE, /* export only: one stream per table (pcol_export_clickhouse) */
  PCOL_FMT_V8,         /* V8 .cpuprofile (node --cpu-prof, Chrome DevTools) */
  PCOL_FMT_PERF,       /* import only: `perf script` text */
  PCOL_FMT_FIREFOX,    /* the Firefox Profiler's processed profiles (and Gecko profiles in) */
  PCOL_FMT_OTLP,       /* OpenTelemetry profiles (OTLP protobuf or JSON lines) */
  PCOL_FMT_CHROME,     /* Chrome trace events (their V8 CPU profiles); written by pcol_export */
  PCOL_FMT_TACHYON,    /* import only: CPython 3.15's sampling profiler binary ("TACH") */
  PCOL_FMT_JFR,        /* import only: JDK Flight Recorder recordings (.jfr) */
  PCOL_FMT_PERFETTO    /* Perfetto protobuf traces (their stack samples); written by pcol_export */
} pcol_format;

/* Guesses the format from the first bytes of a file. */
PCOL_API pcol_format pcol_detect_format(const void *head, size_t len);
/* The format of the file at path as pcol_import_path detects it (reading
 * on past the first 4 KiB, up to 16 MiB, when they hold the start of a
 * JSON document of no format yet: doc/formats.md); PCOL_FMT_UNKNOWN when
 * it cannot be read. */
PCOL_API pcol_format pcol_detect_path(const char *path);
PCOL_API const char *pcol_format_name(pcol_format f);
PCOL_API pcol_format pcol_format_by_name(const char *name);

typedef struct pcol_import_options {
  /* cap on an input's bytes after decompression; 0 = the default: a gzip
   * input may inflate to PCOL_INPUT_CAP_PER_BYTE x the compressed bytes read
   * so far, at least PCOL_INPUT_CAP_MIN and at most PCOL_INPUT_CAP_MAX
   * (checked while inflating); anything else PCOL_INPUT_CAP_MAX */
  uint64_t max_input_bytes;
  bool no_mmap;                 /* pcol and Perun inputs: read, not mmap */
  /* pcol_import_paths: the first input is a pcol file written as a union
   * before (a directory's index), taken row for row into the empty builder
   * (pcol_open_options.first_is_union): `pcol index` renews one so */
  bool first_is_union;
  /* pcol_import_path (names[0]), pcol_import_paths (names[i]): as
   * pcol_open_options.names */
  const char *const *names;
  pcol_symbolize_options symbolize; /* pprof, OTLP inputs: -symbolize=local (above) */
} pcol_import_options;
#define PCOL_INPUT_CAP_MIN ((uint64_t)32 << 20)   /* 32 MiB: with the process, under 64 MB */
#define PCOL_INPUT_CAP_PER_BYTE 64
#define PCOL_INPUT_CAP_MAX ((uint64_t)8 << 30)    /* 8 GiB */

/* Each importer appends one source (or more) read from `in` to the builder.
 * A success may leave a warning in err (the warning rule, at the top), e.g.
 * the collapsed importer's count of lines it skipped.
 * `name` is used in messages and as the source_uri.  Importers only append:
 * none changes samples already in the builder.  For long samples, call
 * pcol_builder_coalesce once after importing every input, as
 * `pcol pack --coalesce` does.  pcol_import_pprof reads a message of more
 * than 16 MiB (inflated) twice from where `in` stands when `in` can seek back
 * there (a file), which keeps no copy of the input; otherwise (a pipe) it
 * keeps what the second reading needs of each Sample as it reads it (a
 * stack met before as its number, through zstd: a small part of the
 * .pb.gz), past 4 MiB in an unlinked temporary file in $TMPDIR whose disk
 * is freed as it is read back.  A smaller message is held whole (at most
 * 16 MiB) and read once. */
PCOL_API PCOL_NODISCARD pcol_status pcol_import_rprof(pcol_builder *b, FILE *in, const char *name,
                                                      const pcol_import_options *opt,
                                                      pcol_error *err);
PCOL_API PCOL_NODISCARD pcol_status pcol_import_pprof(pcol_builder *b, FILE *in, const char *name,
                                                      const pcol_import_options *opt,
                                                      pcol_error *err);
PCOL_API PCOL_NODISCARD pcol_status pcol_import_perun(pcol_builder *b, FILE *in, const char *name,
                                                      const pcol_import_options *opt,
                                                      pcol_error *err);
PCOL_API PCOL_NODISCARD pcol_status pcol_import_collapsed(pcol_builder *b, FILE *in,
                                                          const char *name,
                                                          const pcol_import_options *opt,
                                                          pcol_error *err);
/* A Firefox Profiler profile: processed (what samply and the profiler's
 * upload/download write), gzip or not, or a Gecko profile from Firefox. */
PCOL_API PCOL_NODISCARD pcol_status pcol_import_firefox(pcol_builder *b, FILE *in, const char *name,
                                                        const pcol_import_options *opt,
                                                        pcol_error *err);
/* A V8 CPU profile (.cpuprofile JSON): one source. */
PCOL_API PCOL_NODISCARD pcol_status pcol_import_v8(pcol_builder *b, FILE *in, const char *name,
                                                   const pcol_import_options *opt, pcol_error *err);
/* Chrome's trace-event JSON (DevTools' Performance panel, chrome://tracing):
 * one source per V8 CPU profile it holds (Profile/ProfileChunk or
 * CpuProfile events), labelled with its thread (doc/mappings.md §14). */
PCOL_API PCOL_NODISCARD pcol_status pcol_import_chrome(pcol_builder *b, FILE *in, const char *name,
                                                       const pcol_import_options *opt,
                                                       pcol_error *err);
/* CPython 3.15's sampling profiler (Tachyon) binary file, zstd or not: one
 * source, threads and status bits as labels (doc/mappings.md §15).  When
 * `in` is a regular file it is read in place from its current position
 * (its tables first, then the records), else it is read whole first (past
 * 64 MiB into a temporary file); samples are sorted through temporary
 * files past 8 MiB ($TMPDIR, else /tmp). */
PCOL_API PCOL_NODISCARD pcol_status pcol_import_tachyon(pcol_builder *b, FILE *in, const char *name,
                                                        const pcol_import_options *opt,
                                                        pcol_error *err);
/* `perf script` text, read a line at a time: one source. */
PCOL_API PCOL_NODISCARD pcol_status pcol_import_perf(pcol_builder *b, FILE *in, const char *name,
                                                     const pcol_import_options *opt,
                                                     pcol_error *err);
/* A speedscope JSON file: one source per profile. */
PCOL_API PCOL_NODISCARD pcol_status pcol_import_speedscope(pcol_builder *b, FILE *in,
                                                           const char *name,
                                                           const pcol_import_options *opt,
                                                           pcol_error *err);
/* A JDK Flight Recorder recording (.jfr, every chunk; gzip, zstd or not):
 * one source per sampled event type it holds (doc/mappings.md §16).  Read
 * front to back a chunk at a time (each chunk in memory while it is read);
 * samples are sorted through temporary files past 8 MiB ($TMPDIR, else
 * /tmp). */
PCOL_API PCOL_NODISCARD pcol_status pcol_import_jfr(pcol_builder *b, FILE *in, const char *name,
                                                    const pcol_import_options *opt,
                                                    pcol_error *err);
/* A Perfetto protobuf trace (Chrome's and Android's trace format; gzip,
 * zstd or not): its CPU stack samples, StackSample, traced_perf's
 * PerfSample and Chrome's StreamingProfilePacket, one source per sampling
 * stream, threads as labels (doc/mappings.md §17).  Read whole (past
 * 64 MiB into a mapped temporary file); samples are sorted through
 * temporary files past 8 MiB ($TMPDIR, else /tmp). */
PCOL_API PCOL_NODISCARD pcol_status pcol_import_perfetto(pcol_builder *b, FILE *in, const char *name,
                                                         const pcol_import_options *opt,
                                                         pcol_error *err);
/* OpenTelemetry profiles (v1development, proto v1.10.0 and later): binary
 * ProfilesData or ExportProfilesServiceRequest, length-prefixed frames of
 * them (the Collector's file exporter) or OTLP/JSON lines, gzip or not
 * (doc/mappings.md §12). */
PCOL_API PCOL_NODISCARD pcol_status pcol_import_otlp(pcol_builder *b, FILE *in, const char *name,
                                                     const pcol_import_options *opt,
                                                     pcol_error *err);
/* Detects the format and dispatches (pcol files are added with
 * pcol_b_add_file).  path "-" reads standard input. */
PCOL_API PCOL_NODISCARD pcol_status pcol_import_path(pcol_builder *b, const char *path,
                                                     pcol_format fmt,
                                                     const pcol_import_options *opt,
                                                     pcol_error *err);
/* Imports inputs paths[0..n) into b in order, each as pcol_import_path
 * does (fmt: the format of every one, or PCOL_FMT_UNKNOWN to detect each),
 * while a thread reads and inflates the compressed ones after the input
 * being imported (regular gzip files of at most 1 MiB, at most 8 inputs
 * and 16 MiB ahead; none with PCOL_THREADS=1): the same bytes are
 * imported, and an input the thread could not inflate whole is imported
 * from its file.  after (may be NULL) is called when input i is done, with
 * its result rc and err (rc 0: err may hold the import's warning); its
 * return is the input's result.  Stops at the first non-zero result and
 * returns it. */
typedef int (*pcol_import_after)(void *ctx, size_t i, int rc, pcol_error *err);
PCOL_API PCOL_NODISCARD pcol_status pcol_import_paths(pcol_builder *b, const char *const *paths,
                                                      size_t n, pcol_format fmt,
                                                      const pcol_import_options *opt,
                                                      pcol_import_after after, void *ctx,
                                                      pcol_error *err);
/* Opens a pcol file, or imports any other profile format (path "-": standard
 * input) into memory and opens that; the file owns the copy (pcol_close
 * frees it). */
PCOL_API PCOL_NODISCARD pcol_status pcol_open_any(const char *path, const pcol_open_options *opt,
                                                  pcol_file **out, pcol_error *err);
/* Opens the union of n inputs of any formats as `pcol merge` of them, in
 * that order, would write it (each input through pcol_import_path into one
 * builder), built in memory: no file is written; n = 1 is pcol_open_any.
 * Memory: the union's tables twice (the builder, then the file it writes,
 * until the builder is freed) plus one input's import.  sel (may be NULL):
 * with a wall-clock range (sel->wall, no source_id), an input whose
 * sources the range cannot reach (pcol_wall_overlaps) is left out: a pcol
 * one after reading its sources and meta, another format after its import
 * (on its own, to learn its span): the union is then that of the inputs
 * that overlap the range; when none does, of every input (as a range
 * that reaches no source of one file keeps every one: its views answer 0
 * and pcol_view_notes says where the samples are; before 1.2, ENOTFOUND).
 * *used (may be NULL):
 * the number of inputs read into the union.  Errors name the input. */
PCOL_API PCOL_NODISCARD pcol_status pcol_open_many(const char *const *paths, size_t n,
                                                   const pcol_open_options *opt,
                                                   const pcol_select *sel, pcol_file **out,
                                                   size_t *used, pcol_error *err);

/* go tool pprof -tagroot/-tagleaf: *out (pcol_close frees it) is a copy of
 * f in memory whose every sample's stack has one more frame per key of
 * root_keys at its root and one per key of leaf_keys below its leaf (each
 * a comma-separated list, NULL or "" for none; of keys k1,k2 k1 is the
 * outermost), so every view splits by label as pprof's do and the filters
 * see the frames.  A frame is a function named by the sample's values of
 * the key joined by ',' (strings, then numbers in their unit scaled to
 * `unit` as pprof's ScaledLabel under -unit: "1kB"; the bare number
 * when no number of the key in the sample has a unit; unit: pcol_unit_label's `to`, e.g. "kB", "ms", "raw",
 * NULL for "minimum", pprof's default; no name (NA)
 * when the sample has none: pprof's "", printed "<unknown>"), whose file is the key, at a location without mapping
 * or address, line 0.  A key no sample has a value of is no error: every
 * frame of it has no name, and when no key of root_keys (of leaf_keys)
 * matches a sample, the success leaves pprof's warning in err (the
 * warning rule), one line each: "TagRoot expression matched no samples",
 * "TagLeaf expression matched no samples" (so too for a list of no keys,
 * ",": no frames).  EINVAL for more than 64 keys or a key of 256 bytes or
 * more; ETOOBIG when
 * the frames would make more stack nodes than f's row budget allows
 * (PCOL_ROW_BUDGET_PER_BYTE x its input bytes).  Memory: the copy, and
 * each (label set, stack) pair the samples use made once. */
PCOL_API PCOL_NODISCARD pcol_status pcol_open_tag_frames(pcol_file *f, const char *root_keys,
                                                         const char *leaf_keys, const char *unit,
                                                         pcol_file **out, pcol_error *err);

/* pcol_open_tag_frames of the two sides of a comparison (pcol diff, a
 * differential flame graph): *fout of f, *gout of g, the same keys.  One
 * side without a key gets that key's no-name frame ("<unknown>") on every
 * sample, and the warning is left only when the keys match no sample of
 * either side, as go tool pprof -diff_base, which merges both before it
 * adds the frames.  On failure both outputs are NULL and *side (may be
 * NULL) says whose error it is, for the caller to name that file: 0 f's,
 * 1 g's. */
PCOL_API PCOL_NODISCARD pcol_status pcol_open_tag_frames_pair(pcol_file *f, pcol_file *g,
                                                              const char *root_keys,
                                                              const char *leaf_keys,
                                                              const char *unit, pcol_file **fout,
                                                              pcol_file **gout, int *side,
                                                              pcol_error *err);

/* go tool pprof -base / -diff_base: *out (pcol_close frees it) is f and
 * `base` together in memory, base's values times -1 (INT64_MIN becomes
 * INT64_MAX), so every view shows f minus base.  diff (-diff_base): base's
 * samples also get the label PCOL_DIFF_BASE_KEY = "true" and its sources
 * the meta PCOL_META_DIFF_BASE = "true", and the views' total is then the
 * base's (sum of its samples' |values|: shares are of the base, pprof's
 * computeTotal, per stack and label set as pprof merges them; when that
 * is 0, every sample's).  !diff (-base): base's sources get the meta PCOL_META_BASE
 * and the total is pprof's of the merged profile: the sum over (stack,
 * label set) groups of |their sum|, so what the base cancels adds nothing.
 * As pprof's merge: ENOTFOUND when the two measure other value types
 * ("incompatible types": each one's list is that of its pprof export, all
 * its sources' value types together, paired by position with the other's)
 * or name period types of two names or of units of
 * no one family ("period type: incompatible types"); a value type in
 * another unit of its family (cpu in nanoseconds, the base's in
 * microseconds) is taken into the finer unit, each value rounded
 * (pprof's measurement.ScaleProfiles, after each one's samples of one
 * stack and label set are merged); with PCOL_BASE_NORMALIZE the units must
 * be the same (pprof's Normalize).  A source naming no default type takes the first
 * one named (f's before base's).  A view of a value that comes from the
 * samples' weight (no stored type) is then refused (ENOTFOUND): a weight
 * cannot be negative.  A pprof file with samples labelled
 * PCOL_DIFF_BASE_KEY = "true" (such a union exported) reads back with the
 * same total, and so do its OTLP and Firefox copies (pcolBase).  Memory: the copy of both.
 * flags: PCOL_BASE_DIFF (or true) is -diff_base, 0 (false) -base;
 * PCOL_BASE_NORMALIZE adds pprof's -normalize (profile.Normalize): before
 * the subtraction f's values are scaled by (the base's sum of that value
 * type over all its samples) / (f's sum) (0 where f's sum is 0), so that
 * each type's total of f is the base's.  As pprof scales f after merging
 * it, the samples of one stack and label set are added up first and the
 * sum rounded once (half away from zero) onto the first of them; the
 * others, all-zero samples and groups whose scaled values are all 0 are
 * dropped (kept at 0, its values 0, in a file with text rows: Rprof,
 * Perun).  The values are those of each one's pprof copy, paired by
 * position: a value a source makes from its samples (its count where it is
 * its weight: collapsed stacks, Rprof; Rprof's time of ticks x interval and
 * rprof.alloc) is written into the copy as a stored value (samples/count,
 * cpu/nanoseconds, rprof.alloc/bytes: of the base too, unscaled) and scaled
 * as its column.  The weight column stays as it is.  A source of f whose
 * count is its weight and no column of its copy (perf script: stored
 * values) gets the meta "pcol.normalize_unscaled" = "samples": the value
 * samples of the copy is then refused (ENOTFOUND, naming the source), as
 * go refuses -sample_index=samples there.  Other flag bits: EINVAL. */
#define PCOL_DIFF_BASE_KEY "pprof::base"
#define PCOL_META_DIFF_BASE "pprof.diff_base"
#define PCOL_META_BASE "pprof.base"
enum { PCOL_BASE_DIFF = 1, PCOL_BASE_NORMALIZE = 2 };
PCOL_API PCOL_NODISCARD pcol_status pcol_open_diff_base(pcol_file *f, pcol_file *base,
                                                        unsigned flags, pcol_file **out,
                                                        pcol_error *err);
/* pcol_open_diff_base of a selection of each side, made first (go's
 * -base/-diff_base of the two selections' exports: `pcol unpack --source
 * N --from A --to B` of each): sel->source_id N (0: all) takes source N
 * of f and source N of base, each alone (ENOTFOUND "no source N (the
 * profile has K)", or "the base has K", when one has fewer; the union then
 * has their two sources, and its views select no source); sel's time range
 * (has_from/has_to, wall) is the range of each side: the union keeps the
 * samples' times, for the views to take the same range of it, but the
 * samples that are merged before they are scaled (PCOL_BASE_NORMALIZE's
 * ratio, each side's sums, and its samples of one stack and label set; a
 * unit's scaling) are the range's part only, each sample's amounts the
 * part of it the range selects (pcol_select_iter), and such a merged
 * sample is a point sample at its first selected sample's first tick in
 * the range (the views' range takes it whole).  sel's other fields are
 * the views'.  sel NULL: pcol_open_diff_base.  On failure *side (may be
 * NULL) says whose error it is, for the caller to name that file: 0 f's
 * (its --source N, its range), 1 the base's or the pair's.  Memory: with a source N of
 * a side of several sources, one copy of that source more.  Since 1.2. */
PCOL_API PCOL_NODISCARD pcol_status pcol_open_diff_base_select(pcol_file *f, pcol_file *base,
                                                               const pcol_select *sel,
                                                               unsigned flags, pcol_file **out,
                                                               int *side, pcol_error *err);

/* f's copy (*out, which pcol_close frees) at the addresses of like: each
 * mapping of f of one of like's merge keys (go's profile.Merge key: its
 * size rounded up to 4 KiB, file offset, build id else file name) is that
 * mapping of like, and f's addresses in it move by the difference of the
 * starts, as go tool pprof's merge of like and then f moves them (-base,
 * -diff_base: the profile before its base).  So an address of a program
 * loaded elsewhere in f (ASLR) is like's: pcol diff --by address pairs the
 * rows of two runs.  like's mappings are rows of the copy too (used by no
 * sample where f has none of their key); nothing else of like is.
 * Since 1.2. */
PCOL_API PCOL_NODISCARD pcol_status pcol_open_readdressed(pcol_file *f, pcol_file *like, pcol_file **out,
                                                          pcol_error *err);

/* Writes f (the selected samples) to `out` in format fmt (rprof, pprof,
 * perun, collapsed, speedscope, firefox, otlp, v8, chrome: Chrome trace
 * events, a V8 profile per thread of every source, doc/mappings.md §14.1;
 * or perfetto: a Perfetto trace of StackSample packets, a sequence per
 * source, doc/mappings.md §17.1)
 * under the budget of opt (NULL: defaults).  An export keeps each sample's
 * stack whole: a selection with hide, show, show_from or no_inlines (which
 * change stacks) is refused, EINVAL, nothing written ("--hide, --show,
 * --show-from and --no-inlines change stacks, which an export keeps whole;
 * ..."; focus, ignore and the tag filters select samples and are taken); so
 * are they by each pcol_export_<format> below.  pcol_fold_write writes cut
 * stacks. */
PCOL_API PCOL_NODISCARD pcol_status pcol_export(pcol_file *f, pcol_format fmt,
                                                const pcol_select *sel, FILE *out,
                                                const pcol_export_options *opt, pcol_error *err);

/* The exporters one by one, with the default options (the caller owns
 * atomic publication of `out`). */
PCOL_API PCOL_NODISCARD pcol_status pcol_export_rprof(pcol_file *f, const pcol_select *sel,
                                                      FILE *out, pcol_error *err);
PCOL_API PCOL_NODISCARD pcol_status pcol_export_pprof(pcol_file *f, const pcol_select *sel,
                                                      FILE *out, int gzip, pcol_error *err);
PCOL_API PCOL_NODISCARD pcol_status pcol_export_perun(pcol_file *f, const pcol_select *sel,
                                                      FILE *out, pcol_error *err);
/* value: the value to weigh stacks by (pcol_value_resolve; not rprof.alloc),
 * NULL for the source's own counts (exact round trip of collapsed input). */
PCOL_API PCOL_NODISCARD pcol_status pcol_export_collapsed(pcol_file *f, const pcol_select *sel,
                                                          const pcol_value_sel *value, FILE *out,
                                                          pcol_error *err);
PCOL_API PCOL_NODISCARD pcol_status pcol_export_speedscope(pcol_file *f, const pcol_select *sel,
                                                           FILE *out, pcol_error *err);
/* A processed profile for profiler.firefox.com (doc/mappings.md §8),
 * gzip-compressed (pcol_export with no_gzip writes the JSON text). */
PCOL_API PCOL_NODISCARD pcol_status pcol_export_firefox(pcol_file *f, const pcol_select *sel,
                                                        FILE *out, pcol_error *err);
/* A V8 CPU profile (.cpuprofile, the inspector protocol's Profiler.Profile;
 * doc/mappings.md §10): the one source with selected samples, each lasting
 * its value of the source's default type, or opt's value (pcol_export),
 * which must be a time; JSON text (pcol_export without no_gzip: gzip). */
PCOL_API PCOL_NODISCARD pcol_status pcol_export_v8(pcol_file *f, const pcol_select *sel,
                                                   FILE *out, pcol_error *err);
/* One binary OTLP ProfilesData message (doc/mappings.md §12.2). */
PCOL_API PCOL_NODISCARD pcol_status pcol_export_otlp(pcol_file *f, const pcol_select *sel,
                                                     FILE *out, pcol_error *err);

/* ClickHouse (doc/clickhouse.md): the profile model's tables as Native-format
 * column blocks, one stream per table (outs[t] receives table t, named
 * pcol_clickhouse_table(t); tables come in load order, `sources` last), every
 * row keyed by a 16-byte source_key derived from the content of its source
 * (the same on every machine; a profile exported twice gives the same rows).
 * Every source of f is written; *nsources (may be NULL) says how many.  The
 * bytes of all tables count against opt's export budget. */
#define PCOL_CH_NTABLES 11
PCOL_API const char *pcol_clickhouse_table(unsigned table); /* NULL past the last */
PCOL_API PCOL_NODISCARD pcol_status pcol_export_clickhouse(pcol_file *f,
                                                           FILE *const outs[PCOL_CH_NTABLES],
                                                           const pcol_export_options *opt,
                                                           uint64_t *nsources, pcol_error *err);
/* The CREATE TABLE statements (local ReplacingMergeTree tables and a
 * Distributed table over cluster `cluster`, default "pcol", for each table). */
PCOL_API PCOL_NODISCARD pcol_status pcol_clickhouse_schema(FILE *out, const char *cluster,
                                                           pcol_error *err);

#ifdef __cplusplus
}
#endif
#endif /* PCOL_H */
