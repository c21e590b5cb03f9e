/* cli.h — what the pcol commands share, one file per concern:
 *   cli.c        exit codes, messages, option parsing and --help
 *   cli_text.c   the text rule for strings from a file (terminal, TSV)
 *   cli_time.c   --source/--from/--to and the filters (cli_select)
 *   inputs.c     opening the inputs (files, directories, globs; --no-mmap)
 *   cli_value.c  --value's warnings after the inputs are open
 *   outbudget.c  --max-output and --max-rows (the output budget)
 *   cli_table.c  machine output: tsv, csv, json, jsonl
 *   cli_view.c   the text views' options and pprof's header lines
 *   pack.c       pack and merge
 * and the shared option rows below (CLI_OPT_*), written once.  Calls run
 * one way: cli.c and cli_text.c call no other of these files, and
 * outbudget.c calls only cli.c (`nm` on the objects shows it). */
#ifndef PCOL_CLI_H
#define PCOL_CLI_H

#include "pcol.h"
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>


/* --------------------------------------------------------------- cli.c */
/* Exit codes (documented in `pcol --help` and doc/cli.md). */
enum {
  EXIT_OK = 0,
  EXIT_DATA = 1,  /* invalid, corrupt or unsupported input; validation failed */
  EXIT_USAGE = 2, /* bad command line */
  EXIT_IO = 3,    /* file cannot be read or written, out of memory */
};

/* Maps a library error code to an exit code. */
int cli_exit_code(int pcol_rc);
/* Prints "pcol CMD: message" to stderr and returns the exit code. */
int cli_fail(const char *cmd, const pcol_error *err, int rc);
/* cli_fail for an error met while reading `path`: the message names it. */
int cli_fail_in(const char *cmd, const char *path, pcol_error *err, int rc);
/* How messages name an input path: "-" is "<stdin>", as the importers say;
 * a file fetched over HTTP, its URL. */
const char *cli_input_name(const char *path);
int cli_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* ---------------------------------------------------- HTTP inputs */
/* fetch.c: each positional argument, and each value of --base, --diff-base
 * and --diff, that is an http:// URL, or a HOST:PORT[/PATH] that is no file
 * (go tool pprof's source without a scheme), is fetched into a temporary
 * file (removed at exit) that then stands for it in a; --seconds N sets
 * each one's seconds=N.  0, or the exit status after a message. */
struct cli_command;
struct cli_args;
int cli_fetch_args(const struct cli_command *cmd, struct cli_args *a);
int cli_is_url(const char *s);
/* The URL (or name) the temporary file `path` stands for, or NULL. */
const char *cli_fetched_url(const char *path);
/* SIGINT, SIGTERM, SIGHUP and SIGPIPE remove the temporary inputs
 * (cli_temp_file) and the outputs not yet renamed into place
 * (pcol_out_remove_inflight), then end the process as the signal would;
 * main installs it before a command runs. */
void cli_cleanup_on_signals(void);
/* A new temporary file "$TMPDIR/pcol-WHAT-XXXXXX" (mkstemp; *fd open for
 * writing) that stands for an input called `name` (cli_input_name, the
 * names of cli_fetched_names), removed at exit and on SIGINT, SIGTERM and
 * SIGHUP.  *path lives until exit. */
int cli_temp_file(const char *what, const char *name, char **path, int *fd, pcol_error *err);
/* pcol_open_options.names / pcol_import_options.names for paths[0..n): the
 * URLs of the fetched ones, NULL for the others; NULL when nothing was
 * fetched.  Valid until the next call. */
const char *const *cli_fetched_names(const char *const *paths, size_t n);

/* ---------------------------------------------------------- options */
typedef struct cli_opt {
  const char *name;  /* long name without "--" */
  char short_name;   /* 0 if none */
  int takes_arg;
  const char *help;
} cli_opt;

#define CLI_MAX_OPTS 40
/* After each command's option table (terminator included): a table of more
 * than CLI_MAX_OPTS options does not compile (cli_args' arrays hold that
 * many: an option past them was written beyond them); cli_parse says so
 * too, of a table this was not put after. */
#define CLI_OPTS_FIT(t)                                                      \
  _Static_assert(sizeof(t) / sizeof *(t) <= CLI_MAX_OPTS + 1,                \
                 #t ": more options than CLI_MAX_OPTS (tools/cli.h): raise it")
typedef struct cli_args {
  const char *val[CLI_MAX_OPTS]; /* last value (or "1" for flags), NULL if unset */
  /* the value before the last, of an option given more than once (unpack's
   * --to: a format and a range's end), NULL if given at most once */
  const char *prev[CLI_MAX_OPTS];
  unsigned char times[CLI_MAX_OPTS]; /* how often given (at most 255 counted) */
  int npos;
  /* the positional arguments, in order, gathered at the front of argv (no
   * limit: a day of one-minute profiles is 1,440 inputs) */
  const char **pos;
} cli_args;

typedef struct cli_command {
  const char *name;
  const char *synopsis; /* "pcol top FILE [options]" */
  const char *summary;  /* one line */
  const char *details;  /* paragraph printed by --help, may be NULL */
  const cli_opt *opts;  /* terminated by {NULL} */
  int (*run)(const struct cli_command *cmd, cli_args *a);
} cli_command;

/* Parses options in any order.  Returns -1 when --help was printed, 0 on
 * success, EXIT_USAGE after printing an error. */
int cli_parse(const cli_command *cmd, int argc, char **argv, cli_args *a);
/* The option of cmd that pprof's flag NAME (n bytes: "nodecount",
 * "sample_index", "cum") becomes, written into buf ("-n/--limit",
 * "--value", "--sort cum"): 1, or 0 when cmd has none.  The table is the
 * shell's (cmd_shell.c), so that both speak pprof the same way. */
int cli_pprof_flag_hint(const cli_command *cmd, const char *name, size_t n, char *buf, size_t cap);
const char *cli_get(const cli_command *cmd, const cli_args *a, const char *name);
/* 1 when the command has the option --name */
int cli_has_opt(const cli_command *cmd, const char *name);
int cli_flag(const cli_command *cmd, const cli_args *a, const char *name);
void cli_print_help(const cli_command *cmd, FILE *out);
/* Parses an unsigned/signed integer option; prints a usage error on failure. */
int cli_get_u64(const cli_command *cmd, const cli_args *a, const char *name,
                uint64_t dflt, uint64_t *out);
/* -n/--limit, with 0 (and no option) as every row */
int cli_get_limit(const cli_command *cmd, const cli_args *a, uint64_t *out);

/* Common option rows: each shared option's text is written here once, and
 * every command that has the option takes its row from here (a command
 * adds at most a verb or a scope). */
/* --value: the rule is pcol_value_resolve's (cli_load resolves it). */
#define CLI_VALUE_HELP(verb)                                                    \
  "value " verb ": samples (" PCOL_VALUE_SAMPLES_GLOSS "), "                                \
  "weight (a type a selected source stores as weight, as Perfetto's UI and pprof name it, else the weight column), pcol.weight (the weight column always), TYPE or TYPE/UNIT, or N (pprof -sample_index=N: the N-th type, from 0); cpu works on Rprof too (interval x ticks "    \
  "per segment), rprof.alloc on Rprof memory profiles (vsize.small, vsize.large, nodes are "    \
  "levels and are refused). Default: the source's (pprof's default type; an Rprof source's "    \
  "time, cpu); when the sources' defaults differ, the one they agree on with each stated default counted (a JFR "  \
  "recording's cpu), else, of pprof sources with one list of value types, the first one names (go tool pprof's merge), "  \
  "else samples"
#define CLI_OPT_VALUE(verb) {"value", 0, 1, CLI_VALUE_HELP(verb)}
/* --seconds N: pprof's -seconds, for the inputs fetched over HTTP (fetch.c);
 * at most CLI_SECONDS_MAX, the most a URL's seconds= counts for */
#define CLI_SECONDS_MAX 999999
#define CLI_STR_(x) #x
#define CLI_STR(x) CLI_STR_(x)
#define CLI_OPT_SECONDS                                                         \
  {"seconds", 0, 1, "N (1 to " CLI_STR(CLI_SECONDS_MAX) "), pprof's -seconds: each input fetched " \
                    "over HTTP is asked for N seconds (seconds=N in its query, set or replaced, on " \
                    "any path) and may take 1.5 N + 5 s; files ignore it"}
/* --no-mmap: pcol files and Perun text are mapped unless it is given; other
 * formats are read (pcol_open_any, pcol_import_path); and the rows of every
 * command that reads inputs: --symbolize, --binary-path, --seconds */
#define CLI_OPT_NO_MMAP                                                         \
  {"no-mmap", 0, 0, "read pcol and Perun inputs into memory instead of mapping them"},          \
  CLI_OPT_SECONDS,                                                              \
  {"symbolize", 0, 1, "local or none (the default): pprof's -symbolize=local: names, files, "   \
                      "lines and inline frames of a pprof or OTLP input's unsymbolized mappings from "  \
                      "their binaries on this machine (llvm-symbolizer, else addr2line), and C++ " \
                      "and Rust names demangled as pprof shows them"},                           \
  {"binary-path", 0, 1, "DIRS (':'-separated) where --symbolize local looks for binaries, by "  \
                        "build id then by name, before the mapping's own path; default: "       \
                        "$PPROF_BINARY_PATH, else $HOME/pprof/binaries"}
/* --source, --from, --to (cli_select); _BASE: of a command with --base
 * and --diff-base (CLI_OPT_BASE), whose help says what N is under them */
#define CLI_OPT_SOURCE                                                          \
  {"source", 0, 1, "only samples of this source_id (see `pcol cat --table sources`)"}
#define CLI_OPT_SOURCE_BASE                                                     \
  {"source", 0, 1, "only samples of this source_id (see `pcol cat --table sources`; with --base/--diff-base, source N of each side)"}
#define CLI_OPT_FROM                                                            \
  {"from", 0, 1, "only the part from this time on: seconds after the profile's start (1.5; or with a " \
                 "unit, as pcol prints durations, in any case: ns, us, ms, s, min, h, hrs: 250ms, 2s), or a " \
                 "wall-clock time (2026-11-23T10:00:00Z, +HH:MM zones, or @EPOCH_SECONDS; each " \
                 "source from its own start; many inputs: only those that reach the range are read, every one when none does " \
                 "or with --source N, whose N is of their merge)"}
#define CLI_OPT_TO {"to", 0, 1, "only the part before this time (as --from)"}
#define CLI_OPT_SELECT CLI_OPT_SOURCE, CLI_OPT_FROM, CLI_OPT_TO
#define CLI_OPT_SELECT_BASE CLI_OPT_SOURCE_BASE, CLI_OPT_FROM, CLI_OPT_TO
/* --by of the views that name rows by function, line, file or address */
#define CLI_BY_HELP                                                             \
  "function (default), line (\"FUNCTION /full/path:LINE\", as go tool pprof -lines), file, " \
  "address (as pprof -addresses) or filefunction (\"FUNCTION /full/path\", as pprof -filefunctions)"
/* --by of the views of frames (tree, traces, peek, graph): by function, a
 * nameless frame is go's (review rd15a F5; the rule: lib/query/top.c) */
#define CLI_NAMELESS_BY_FN_HELP                                                  \
  ".  By function, a frame of no function (an Rprof top-level srcref, FILE#LINE) is \"<unknown>\", " \
  "as go tool pprof names it on pcol's pprof copy; top's table leaves it out, as summaryRprof does"
/* --format of the text views; `more` says what the machine rows hold */
#define CLI_OPT_VIEW_FORMAT(more) {"format", 0, 1, "text (default), tsv, csv, json or jsonl" more}
/* go tool pprof's sample filters, shared by every command that reads
 * samples (the rules are in lib/core/filter.c). */
#define CLI_OPT_FILTER                                                          \
  CLI_OPT_FILTER_WITH("remove frames matching REGEX from the stacks (pprof -hide)",                   \
                      "keep only frames matching REGEX, and frames without a function (pprof -show)", \
                      "drop the frames above (callers of) a stack's outermost frame matching REGEX, and the stacks without one (pprof -show_from)", \
                      "attribute inlined frames to their caller, at the caller's line (pprof -noinlines)")
/* The filters with the help of the four that change stacks given: a
 * command that refuses them (unpack: an export keeps stacks whole) says
 * so in its help rather than offering them. */
#define CLI_OPT_FILTER_WITH(HIDE, SHOW, SHOW_FROM, NO_INLINES)                  \
  {"focus", 0, 1, "only samples with a frame matching REGEX (Go's regexp syntax, as pprof; anywhere in a function, file or mapping name; pprof -focus)"}, \
  {"ignore", 0, 1, "drop samples with a frame matching REGEX (pprof -ignore)"}, \
  {"hide", 0, 1, HIDE}, \
  {"show", 0, 1, SHOW}, \
  {"show-from", 0, 1, SHOW_FROM}, \
  {"tag", 0, 1, "only samples with a label KEY=RE[,RE...] or KEY=RANGE (numbers: 32kb, :64kb, 4mb:, 12kb:64mb), or whose \"key:value\" labels match each RE (pprof -tagfocus)"}, \
  {"tag-ignore", 0, 1, "drop samples with such a label (pprof -tagignore)"}, \
  {"no-inlines", 0, 0, NO_INLINES}, \
  CLI_OPT_TAGFRAMES
/* pprof's -base/-diff_base: the inputs read with a base profile
 * subtracted (pcol_open_diff_base, in cli_open_args) */
#define CLI_OPT_BASE                                                            \
  {"diff-base", 0, 1, "FILE: show the change from this profile: its values subtracted, shares of its total (pprof -diff_base)"}, \
  {"base", 0, 1, "FILE: subtract this profile's values, shares of the result (pprof -base)"}, \
  {"normalize", 0, 0, "with --base/--diff-base: first scale the inputs' values so that each value type adds up to the base's (pprof -normalize; the values of each side's pprof copy, counts and Rprof times made from the samples too)"}
/* pprof's -tagroot/-tagleaf: the inputs read with label frames
 * (pcol_open_tag_frames, in cli_open_args) */
#define CLI_OPT_TAGFRAMES                                                       \
  {"tagroot", 0, 1, "KEY[,KEY...]: a frame per key at each stack's root, named by the sample's values of it, before the filters (pprof -tagroot)"}, \
  {"tagleaf", 0, 1, "KEY[,KEY...]: the same frames below each stack's leaf (pprof -tagleaf)"}
/* The inputs, selection, filters and budgets of the views whose shares
 * --relative-percentages changes (top, peek, tree, list, graph) */
#define CLI_OPTS_VIEW_INPUT                                                     \
  CLI_OPT_NO_MMAP, CLI_OPT_SELECT_BASE, CLI_OPT_FILTER, CLI_OPT_BASE, CLI_OPT_RELATIVE, CLI_OPT_MAX_OUTPUT, CLI_OPT_MAX_ROWS
/* --relative-percentages (pprof's): pcol_select.relative, read by cli_select */
#define CLI_OPT_RELATIVE                                                        \
  {"relative-percentages", 0, 0, "shares (and cutoffs) of the total the filters keep, not of the " \
                                 "whole selection (pprof -relative_percentages)"}
/* --mean (pprof's -mean): numbers per count (pcol_top_mean); cli_mean
 * makes them (with --base/--diff-base too, as pprof: differences over
 * counts that may cancel, a count of 0 leaving the sum) */
#define CLI_OPT_MEAN                                                            \
  {"mean", 0, 0, "each number divided by its count, pprof's first value type (allocated bytes per " \
                 "allocation, delay per contention; of sources without one, as Rprof, the samples): " \
                 "pprof -mean; with --value delay, -mean_delay"}
/* pprof's -mean and -relative_percentages where pprof takes them and they
 * change nothing (-tags prints sums and shares of each key's total, -proto
 * writes the profile, -traces prints no share): accepted and ignored, as
 * pprof does (review 20 F6; the command clears pcol_select.relative) */
#define CLI_OPT_MEAN_IGNORED(as)                                                \
  {"mean", 0, 0, "accepted and ignored, as pprof " as " ignores -mean"}
#define CLI_OPT_RELATIVE_IGNORED(as, why)                                       \
  {"relative-percentages", 0, 0, "accepted and ignored, as pprof " as " ignores " \
                                 "-relative_percentages (" why ")"}
/* --drop-negative (pprof's -drop_negative): top's, peek's, tree's and graph's */
#define CLI_OPT_DROP_NEGATIVE                                                   \
  {"drop-negative", 0, 0, "leave out the rows whose flat is below 0 (or 0 with cum below 0): what " \
                          "shrank under --diff-base/--base (pprof -drop_negative)"}
/* --divide-by F (pprof's -divide_by): the text views' numbers shown at 1/F
 * (cli_divide_by reads it, cli_value_label prints them; the rule is
 * lib/core/unit_scale.c's pcol_unit_ratio); flame and unpack say it their
 * way (CLI_OPT_DIVIDE_BY_AS) */
#define CLI_OPT_DIVIDE_BY_AS(what) {"divide-by", 0, 1, what}
#define CLI_OPT_DIVIDE_BY                                                       \
  {"divide-by", 0, 1, "F: text: each number shown divided by F (a decimal, e.g. the number of "    \
                      "CPUs or jobs), truncated to an integer of the value's unit, the unit "   \
                      "chosen from the divided numbers, the shares those of the undivided ones " \
                      "(pprof -divide_by; callgrind: its unit alone, as pprof's).  0 is "       \
                      "refused, as by pprof, and so is a negative F, which pprof ignores "      \
                      "silently (its numbers would stay undivided unsaid); tsv, csv and json "  \
                      "keep the raw numbers and refuse it"}
/* t in means (pcol_top_mean: its rows, total and *cutoff); its type renamed
 * "mean_TYPE" in type_buf (PCOL_MEAN_TYPE_MAX bytes), as pprof's Type: line.  dtop: NULL,
 * or the divisor's top when the caller has it (peek: pcol_top_mean_with, no second
 * top).  PCOL_OK or an error in err. */
int cli_mean(pcol_file *f, const pcol_select *sel, const pcol_top *dtop, pcol_top *t,
             double fraction, pcol_sum *cutoff, char *type_buf, pcol_error *err);
/* *type renamed "mean_TYPE", kept in type_buf (PCOL_MEAN_TYPE_MAX bytes: pcol_mean_type) */
void cli_mean_type(pcol_str *type, char *type_buf);
/* --tagshow and --taghide (pprof's): which label keys a label view shows
 * (pcol_select.tag_show/tag_hide, read by cli_select); WHAT names the view's
 * labels in the help. */
#define CLI_OPT_TAGKEYS(WHAT)                                                   \
  {"tagshow", 0, 1, WHAT " only of the label keys that match REGEX (pprof -tagshow)"}, \
  {"taghide", 0, 1, "no " WHAT " of the label keys that match REGEX (pprof -taghide)"}
/* the same options on the views that print no labels (top, peek, tree):
 * accepted as pprof accepts them there, listed under "Active filters:",
 * nothing else changed */
#define CLI_OPT_TAGKEYS_LISTED                                                  \
  {"tagshow", 0, 1, "REGEX: listed under \"Active filters:\" as pprof -tagshow is; this view " \
                    "shows no labels (tags, traces and graph do)"},                 \
  {"taghide", 0, 1, "REGEX: listed under \"Active filters:\" as pprof -taghide is; this view " \
                    "shows no labels (tags, traces and graph do)"}
/* --source-path and --allow-any-source: where list and report may read
 * source files (pcol_list_options, pcol_report_options; lib/query/srcfile.c). */
#define CLI_OPTS_SOURCE_FILES                                                   \
  {"source-path", 0, 1, "directories (':'-separated) to find relative source files in, and " \
                        "their parents (pprof -source_path; default: the current directory); " \
                        "only files under them are read unless --allow-any-source"},            \
  {"allow-any-source", 0, 0, "open any file the profile names, as pprof does (default: only " \
                             "regular files under the source path, links resolved)"}
/* pack and merge: what they write */
#define CLI_OPT_FORMAT_VERSION                                                  \
  {"format-version", 0, 1, "the newest format the file may need; it says the lowest that reads it " \
                           "(pcol info: format_version).  1.5 (default): columns stored in their " \
                           "narrowest form, read in place (1.3), with --compress zstd large " \
                           "samples columns in zstd blocks that a time range reads alone (1.4), and " \
                           "with --compress lz4 or zstd a column's codes byte-split where that " \
                           "compresses better, and LZ4 with the transforms zstd uses (1.5); 1.4: neither " \
                           "(an LZ4 file then needs no incompat bit 0); 1.3: also one zstd " \
                           "frame a column, never blocks; 1.2: the layout of earlier versions, " \
                           "for older readers (spec.md §9)"}
#define CLI_OPT_COALESCE                                                        \
  {"coalesce", 0, 0, "merge runs of identical consecutive samples into long samples"}
/* --unit of the text views in pprof's layout (cli_view_unit). */
#define CLI_OPT_UNIT                                                            \
  {"unit", 0, 1, "text: minimum (the default: pprof's choice, one unit for the table, e.g. 1.23s, " \
                 "45.60MB, as pprof with no -unit), auto (each number in its own unit, as pprof's " \
                 "-unit=auto), raw (the exact number in the value's own unit: 2180208886994B, " \
                 "240290000000ns, as pprof's -unit=B, -unit=ns), or a unit " \
                 "(ns us ms s hrs, also ps fs; B kB MB GB TB)"}
/* --max-output: `of` names what it bounds when that is not the view
 * (export, unpack: the exporters' budget, pcol_output_budget). */
#define CLI_MAX_OUTPUT_HELP(of)                                                 \
  "output budget in bytes" of ", K/M/G/T = x1024 (default: 128 x the input's size: its bytes, or uncompressed if more but at most 8 x " \
  "its bytes; at least 32 MiB, at most 8 GiB; past it: a message and exit 3)"
#define CLI_OPT_MAX_OUTPUT {"max-output", 0, 1, CLI_MAX_OUTPUT_HELP("")}
#define CLI_OPT_MAX_ROWS                                                        \
  {"max-rows", 0, 1, "row budget: the rows of all tables of a pcol input together (default: 1024 x " \
                     "its size, at least 16 Mi rows; past it: a message and exit 1)"}

/* ---------------------------------------------------------- cli_text.c */
/* THE text rule for every string from a file that people read (the text
 * views, TSV, messages on stderr): valid UTF-8 as it is, tab kept; \n and
 * \r as "\n" and "\r"; every other control character (C0, DEL, the C1
 * controls U+0080..U+009F) and every byte that is not part of a valid
 * UTF-8 sequence as \xNN, so a file cannot move the cursor, change the
 * title, clear the screen or forge a line.  tsv: also \t, \\ and NUL as
 * "\t", "\\" and "\0" (TSV's own escapes, which keep a row one line). */
void cli_put_text(FILE *fp, const char *p, size_t n, int tsv);
/* The same rule into out (cap bytes, NUL-terminated; cut between escapes);
 * returns the length written. */
size_t cli_text_buf(const char *p, size_t n, char *out, size_t cap);
/* A name in a text view by that rule (NA prints nothing). */
void cli_print_name(FILE *fp, pcol_str name);
/* THE isolation rule for a name in running text that a viewer lays out
 * (the flame SVG's title and hover "name (value, share)", the DOT
 * tooltips "A -> B (5ms)"; the report page's is units.js pcolIso): the
 * name, shown by the text rule, between CLI_FSI and CLI_PDI (U+2068 FIRST
 * STRONG ISOLATE, U+2069 POP DIRECTIONAL ISOLATE), so right-to-left
 * letters in it cannot reorder the text around it (review 22 F2).  The
 * text views, which a terminal lays out, do not isolate.  The DOT text,
 * go tool pprof -dot's byte for byte, isolates only a name that needs it
 * (cli_iso_needed): a name shown in ASCII alone has no right-to-left
 * letter and no bidi control (the text rule writes one as \x{202e}). */
#define CLI_FSI "\xe2\x81\xa8"
#define CLI_PDI "\xe2\x81\xa9"
static inline bool cli_iso_needed(const char *shown, size_t n) {
  for (size_t i = 0; i < n; i++)
    if ((unsigned char)shown[i] >= 0x80) return true;
  return false;
}
/* The same, NA as "NA". */
void cli_print_str(FILE *fp, pcol_str s);
void cli_print_cstr(FILE *fp, const char *s);

/* ---------------------------------------------------------- cli_time.c */
/* The selection's regular expressions, in pprof's order (driver.go's
 * filter list): the option, the key of the JSON "filters" object, pprof's
 * name under "Active filters:", and the field of pcol_select (cli_time.c). */
#define CLI_NFILTERS 9
typedef struct cli_filter_name {
  const char *opt, *key, *pprof;
  size_t field; /* offsetof(pcol_select, ...): a const char * */
} cli_filter_name;
extern const cli_filter_name cli_filters[CLI_NFILTERS];
/* What cli_open_args read the inputs with, beside the selection (NULL:
 * not given): --tagroot, --tagleaf, --base, --diff-base, as the machine
 * formats' "filters" name them (tbl_begin_view). */
typedef struct cli_loaded_opts {
  const char *tagroot, *tagleaf, *base, *diff_base;
  int normalize; /* --normalize */
} cli_loaded_opts;
extern cli_loaded_opts cli_loaded;
/* sel's expression i of cli_filters (NULL: none) */
static inline const char *cli_filter_value(const pcol_select *sel, int i) {
  const char *v;
  memcpy(&v, (const char *)sel + cli_filters[i].field, sizeof v);
  return v;
}
/* Fills sel from --source/--from/--to and the filters (CLI_OPT_FILTER; cli_time.c).
 * Returns 0 or EXIT_USAGE. */
int cli_select(const cli_command *cmd, const cli_args *a, pcol_select *sel);
/* The refusals of sel's time range (a range that cuts a source without
 * sample times, a wall-clock range of a source without a start: the
 * library's, pcol_select_iter), asked before a view that streams its rows
 * (traces, cat) prints any of them: the error then comes alone, with no
 * header or first rows before it.  PCOL_OK without a range. */
int cli_range_check(pcol_file *f, const pcol_select *sel, pcol_error *err);
/* 1 when s reads as a --from/--to time: seconds since the start (a bare
 * number, or one with a time unit: 2s), or a wall-clock time (RFC 3339
 * with a zone, or @EPOCH). */
int cli_is_time(const char *s);

/* ------------------------------------------------------------ inputs.c */
/* A usage error when standard input ("-") is named more than once among
 * the n paths (it can be read only once).  Returns 0 or EXIT_USAGE. */
int cli_stdin_once(const cli_command *cmd, const char *const *paths, int n);
/* Prints a library warning (a success whose err holds a message: an
 * importer's, e.g. collapsed lines skipped; --tagroot's key no sample has)
 * as "pcol CMD: warning: ...", a line each, and clears it. */
void cli_import_warning(const char *cmd, pcol_error *err);
/* Opens the inputs of a reading command (inputs.c): args[0..nargs), each
 * a file, a directory (its regular files, sorted by name, dot files left
 * out) or a glob pattern that the shell left as it is (quoted), "-" at
 * most once.  One input opens as cli_open does; many open as their union
 * (pcol_open_many: what `pcol merge` would write of them, in memory; a
 * wall-clock --from/--to without --source N leaves out the pcol inputs it
 * cannot reach).
 * *label: what views print as the file (static storage, set even on
 * failure).  Returns a PCOL_E* code (not printed), errors naming the input. */
/* --source N given with --base/--diff-base (cli_select): the source of
 * each side cli_open_args takes (pcol_open_diff_base_select); 0: none */
extern uint32_t cli_base_source;
int cli_open_args(const cli_command *cmd, const cli_args *a, const char *const *args, int nargs,
                  const pcol_select *sel, pcol_file **f, const char **label, pcol_error *err);
/* The same expansion alone (pack, merge, validate, export, index:
 * pcol_inputs_expand without an index, its notes said): *paths
 * (cli_expand_free it). */
int cli_expand_args(const char *const *args, int nargs, char ***paths, size_t *n,
                    pcol_error *err);
void cli_expand_free(char **paths, size_t n);
/* After reading the paths[0..n) of the last cli_expand_args failed with
 * err: pcol_inputs_explain's words when a directory or glob among its
 * arguments gave a file that is no profile (a README beside them), as the
 * views say it. */
void cli_expand_explain(char **paths, size_t n, pcol_error *err);
/* Whether writing OUT replaces one of the inputs in[0..nin) (the same file
 * once links are resolved; a pcol input of a pcol output (to_pcol) is
 * meant, and does not count): asked before the write, and when so,
 * cli_warn_replaced after it succeeded, what naming what replaced it. */
int cli_output_is_input(const char *out, char *const *in, size_t nin, int to_pcol);
void cli_warn_replaced(const cli_command *cmd, const char *out, const char *what);
/* The time, duration and comments of inputs that were read one by one,
 * with no file of their union (pcol_many_top's: cmd_top). */
typedef struct cli_header_time {
  int64_t time_ns, duration_ns;
  const pcol_str *comments; /* their pprof comments, in order, each once */
  size_t ncomments;
} cli_header_time;
/* `top` of many pcol inputs without their union (pcol_top_many), with
 * cli_open_args' expansion, label, budget and PCOL_DEBUG=inputs line.
 * *answered = 0 (nothing printed, err clear): open the union instead.
 * *f: NULL, or the file of the union's one source (for the header);
 * *ht (when not NULL): the inputs' time, duration and comments for the header. */
int cli_top_many(const cli_command *cmd, const cli_args *a, const char *const *args, int nargs,
                 const pcol_select *sel, pcol_by by, double fraction, pcol_sort order,
                 uint64_t limit, pcol_top *t, size_t *dropped, pcol_sum *cutoff,
                 pcol_file **f, const char **label, int *answered, cli_header_time *ht,
                 pcol_error *err);

/* ---------------------------------------------------------- dirindex.c */
/* After a command: when it failed on its data (rc EXIT_DATA) and read a
 * directory's index, a note naming the index (inputs.c). */
void cli_index_hint(const char *cmd, int rc);

/* How a reading command opens its inputs (inputs.c): --no-mmap, and
 * --max-rows (read by cli_budget_begin). */
pcol_open_options cli_open_options(const cli_command *cmd, const cli_args *a);
/* --symbolize and --binary-path (inputs.c), for pack, merge and index */
pcol_symbolize_options cli_symbolize_options(const cli_command *cmd, const cli_args *a);
/* Opens any profile (inputs.c; pcol_open_any: a pcol file is mapped, another
 * format converted in memory; "-" = stdin, read into memory); honours --no-mmap.
 * Prints the error and returns the exit code on failure. */
int cli_open(const cli_command *cmd, const cli_args *a, const char *path, pcol_file **f);
/* The format of a file by its first bytes (PCOL_FMT_UNKNOWN for "-"). */
pcol_format cli_input_format(const char *path);
/* Opens any profile (inputs.c; pcol_open_any; --no-mmap) and resolves --value for the
 * selection: what the commands that compute views do first.  Errors name
 * the path; returns a PCOL_E* code (not printed). */
int cli_load(const cli_command *cmd, const cli_args *a, const char *const *args, int nargs,
             const pcol_select *sel, pcol_file **f, pcol_value_sel *v, const char **label,
             pcol_error *err);
/* Set while cli_load reads inputs the command read already (pcol diff's
 * side of many pcol files, read again as their union for its default
 * rule): their bytes are not counted twice in the output budget, nor
 * their notes said twice. */
extern int cli_load_again;
/* The two sides of a comparison opened one by one (cli_load, cli_top_many
 * of each: diff, flame --diff without label frames), between
 * cli_pair_begin and cli_pair_end: their data warnings are said by
 * cli_pair_end (say: the sides opened, still open), as pcol_view_notes says
 * them of two inputs: a filter's once, of both (pprof's of a profile and
 * its base merged), as the R and Python packages' diff says them. */
void cli_pair_begin(void);
void cli_pair_end(const cli_command *cmd, const cli_args *a, const pcol_select *sel, int say);
/* cli_load of the two sides of a comparison (diff, flame --diff): the
 * union of args0 (f[0]) and the one input `other` (f[1]; f, v, label: two
 * each), --tagroot/--tagleaf's frames added to both at once: a key need be
 * on one side only, as pprof -diff_base merges them before it adds the
 * frames.  On failure both are closed (NULL). */
int cli_load_pair(const cli_command *cmd, const cli_args *a, const char *const *args0, int n0,
                  const char *other, const pcol_select *sel, pcol_file **f, pcol_value_sel *v,
                  const char **label, pcol_error *err);

/* pcol_range_note's note (taken, freed; NULL: nothing) as the views print it */
void cli_range_note_print(const cli_command *cmd, const char *path, char *note);

/* --------------------------------------------------------- cli_value.c */
/* Warns on stderr (cli_value.c), naming each selected source that lacks the value v
 * (pcol_value_sources): its samples count 0 in the view; and, when the
 * value was not named (asked 0: no --value), merged sources whose own
 * defaults differ, so that the view falls back to samples. */
void cli_warn_value(const cli_command *cmd, pcol_file *f, const pcol_select *sel,
                    const pcol_value_sel *v, bool asked, const char *path);
/* The warnings of an export that writes one value (collapsed, rprof,
 * perun): v, named with --value (asked) or the selection's default.  Not
 * asked, the note on a default of sources whose own defaults differ (rprof:
 * its own words, pcol_value_rprof_note: Rprof's text has one interval and
 * makes every sample a tick of it); when no such note is said, each
 * selected source without v, whose samples the output does not hold
 * (pcol_value_lacking_notes), named or not: also a part of a recording
 * that states the default (a JFR recording's allocation samples beside its
 * cpu), which the views leave unsaid (review 16 F6). */
void cli_warn_written(const cli_command *cmd, pcol_file *f, const pcol_select *sel,
                      const pcol_value_sel *v, bool asked, bool rprof, const char *path);
void cli_note_v8_lines(const cli_command *cmd, pcol_file *f, const pcol_select *sel, const char *path);
/* The views by line of Rprof sources: pcol_lines_rule_note's note, said by
 * those on summaryRprof's rule (top, diff, list) and go's (tree, peek, graph) */
void cli_note_lines_rule(const cli_command *cmd, pcol_file *f, const pcol_select *sel, pcol_by by,
                         const char *path);
/* The pprof export's sources that lack one of its sample types (their
 * samples carry 0 there: pcol_export_options.lacking): a warning each, the
 * first few, then how many more (cli_lacking_done). */
typedef struct cli_lacking {
  const cli_command *cmd;
  pcol_file *f;
  const char *path;
  uint64_t n;
} cli_lacking;
void cli_lacking_note(void *ctx, uint32_t source_id, pcol_str type, pcol_str unit);
void cli_lacking_done(const cli_lacking *l);
/* An export's note (pcol_export_notes.note, with its kind): "pcol CMD: note: PATH: TEXT". */
typedef struct cli_note {
  const cli_command *cmd;
  const char *path;
  const char *word; /* "note" (rprof's roundings), "warning" (pprof's lost labels) */
} cli_note;
void cli_export_note(void *ctx, pcol_export_note_kind kind, const char *text);

/* --------------------------------------------------------- outbudget.c */
/* The output budget (outbudget.c, doc/safety.md "Resource bounds"): for the
 * view commands (cat, top, peek, tree, tags, traces, list, diff, info, flame,
 * graph, report) standard output becomes a counting stream that refuses the write
 * that would pass pcol_output_budget of the inputs' size (128 x, at least
 * 32 MiB, at most 8 GiB) or --max-output.
 * begin: before the command (0 or EXIT_USAGE); input: each pcol file opened
 * (cli_open, cli_load do it); wrap: a -o file's stream (fclose it before
 * committing, and abort the file when cli_budget_over()); over: a write
 * was refused (stop the work); need: refuses now when `bytes` more would
 * pass it (returns 1); end: after the command: its exit code, or 3 with
 * the budget's message (standard output ends at a whole line: outbudget.c). */
int cli_budget_begin(const cli_command *cmd, const cli_args *a);
/* --max-output in bytes (K/M/G/T), 0 when absent; 0 given is a usage error.
 * Returns 0 or EXIT_USAGE.  The exporters take it too (export, unpack, fold). */
int cli_max_output(const cli_command *cmd, const cli_args *a, uint64_t *bytes);
void cli_budget_input(const char *path, pcol_file *f);
/* the same for inputs of n bytes not opened as one file (cli_top_many) */
void cli_budget_bytes(const char *path, uint64_t n);
FILE *cli_budget_wrap(FILE *out);
int cli_budget_over(void);
/* The command's exporter refused its output past the exporters' budget
 * (PCOL_EBUDGET: fold's pcol_fold_write, unpack -o -'s export): its
 * standard output is cut as the view budget's is, and the exit is 3. */
void cli_budget_cut(void);
/* unpack -o - of a text format: standard output passes whole lines only,
 * as a view's does (not counted: the exporter's budget refuses, then
 * cli_budget_cut), so a refused export ends there at a whole line within
 * B.  Before the output is opened; 0 or EXIT_IO. */
int cli_budget_lines(void);
int cli_budget_need(uint64_t bytes);
int cli_budget_end(const char *cmd, int rc);
/* --max-rows of the command (read by cli_budget_begin), 0 = the default. */
uint64_t cli_max_rows(void);

/* --------------------------------------------------------- cli_table.c */
typedef enum { OUT_TSV, OUT_CSV, OUT_JSON, OUT_JSONL, OUT_TEXT } out_format;
int cli_out_format(const char *s, out_format *f); /* 0 ok, -1 unknown */

typedef struct cli_table {
  FILE *fp;
  out_format fmt;
  int ncols, col, rows;
  const char *const *names;
  int object; /* JSON: rows sit in {"...": ..., "rows": [...]} */
  const char *tag; /* JSON lines: each row's first member is "table": tag */
} cli_table;

/* What a view's machine output says about itself: JSON puts it in an object
 * around the rows ({"command", "file", "type", "unit", "total", "filters",
 * "rows"}); other formats print the rows only. */
typedef struct cli_view_meta {
  const char *command, *path;
  pcol_str type, unit;
  pcol_sum total;
  const pcol_select *sel;
  const char *base_path; /* diff: the base profile and its total ("base", "base_total") */
  pcol_sum base_total;
  const char *numbers;   /* what the rows' numbers are ("shares" ...), NULL: amounts in unit */
  int no_total;          /* "total": null (tags: a total per key, in the rows' key_total) */
} cli_view_meta;
void tbl_begin_view(cli_table *t, FILE *fp, out_format fmt, int ncols, const char *const *names,
                    const cli_view_meta *m);
void tbl_begin(cli_table *t, FILE *fp, out_format fmt, int ncols, const char *const *names);
void tbl_str(cli_table *t, const char *p, size_t n); /* p NULL = NA */
void tbl_cstr(cli_table *t, const char *s);
void tbl_i64(cli_table *t, int64_t v); /* PCOL_NA_I64 = NA */
void tbl_sum(cli_table *t, pcol_sum v); /* a view's 128-bit sum, in decimal */
void tbl_u64(cli_table *t, uint64_t v);
void tbl_id(cli_table *t, uint64_t id); /* 0 = NA */
void tbl_f64(cli_table *t, double v);   /* NaN = NA */
void tbl_num(cli_table *t, const char *text); /* a pre-formatted number, written as is */
void tbl_bool(cli_table *t, int v);
void tbl_na(cli_table *t);
void tbl_end_row(cli_table *t);
void tbl_finish(cli_table *t);

/* ---------------------------------------------------------- cli_view.c */
/* The --format of a view (text, tsv, csv, json, jsonl; default text), and
 * its --divide-by (cli_divide_by).  Returns 0 or EXIT_USAGE. */
int cli_view_format(const cli_command *cmd, const cli_args *a, out_format *fmt);
/* The opening of a view of the inputs a->pos[0..nfiles): its --format
 * (cli_view_format), the selection (cli_select), the inputs loaded and
 * --value resolved (cli_load).  0, or the exit code after the message
 * (nothing left open). */
typedef struct cli_view_in {
  out_format fmt;
  pcol_select sel;
  pcol_file *f;
  pcol_value_sel v;
  const char *path; /* the inputs' label */
} cli_view_in;
int cli_view_open(const cli_command *cmd, const cli_args *a, int nfiles, cli_view_in *in);
/* --divide-by of a view (pprof's -divide_by, CLI_OPT_DIVIDE_BY): F > 0 and
 * finite, and text true (the view's output is text; graph's dot, svg, png,
 * callgrind), or EXIT_USAGE after a message; the ratio 1/F is then the one cli_value_label
 * and cli_view_unit apply (1 when the command has no --divide-by or it is
 * absent).  cli_view_format calls it; so does graph, whose formats are its
 * own.  0 or EXIT_USAGE. */
int cli_divide_by(const cli_command *cmd, const cli_args *a, bool text);
/* Its rule for the text F: NULL and *ratio = 1/F, or what is wrong ("wants
 * a decimal number" ...); the shell's divide_by= checks it when set. */
const char *cli_divide_by_parse(const char *s, double *ratio);
/* v as the text views print it: divided by --divide-by (pcol_unit_ratio),
 * then pcol_unit_label in `unit` (from cli_view_unit). */
void cli_value_label(pcol_sum v, pcol_str vunit, const char *unit, char *buf, size_t n);
/* pprof's valueOrDot (-list, -disasm): "." for 0 (before --divide-by),
 * else cli_value_label's text in buf. */
const char *cli_value_or_dot(pcol_sum v, pcol_str vunit, const char *unit, char *buf, size_t n);
/* The opening of a listing (list, disasm: FILE... REGEX): cli_view_open
 * of the FILEs, then its --unit: "minimum" (or none, or "auto": each
 * number in its own unit, as pprof -list and -disasm print them), else
 * cli_view_unit's; unit gets it (32 bytes).  0, or the exit code after
 * the message (nothing left open). */
int cli_listing_open(const cli_command *cmd, const cli_args *a, cli_view_in *in, char *unit);
/* The ratio 1/F that cli_divide_by set (1: none), for what applies
 * pcol_unit_ratio itself (flame's SVG, unpack's pprof export). */
double cli_divide_ratio(void);
/* The --unit of a text view: "auto" or "minimum" (default, pprof's choice per table,
 * from the numbers divided by --divide-by), "raw" or a unit of the value's
 * family; *to is what pcol_unit_label takes (a buffer of 32 bytes).  vals:
 * the numbers printed, for "auto". */
int cli_view_unit(const cli_command *cmd, const cli_args *a, pcol_str unit, const pcol_sum *vals,
                  size_t nvals, pcol_sum total, char *to);
/* --unit's value u other than "auto" checked against the value's unit: 0,
 * or the exit code after the usage message. */
int cli_unit_check(const cli_command *cmd, pcol_str unit, const char *u);
/* What --unit accepts for values of unit: the text of its refusal. */
void cli_unit_wants(pcol_str unit, char *buf, size_t n);
/* The same, whole = 1 for outputs of whole numbers (callgrind:
 * pcol_unit_pick_whole). */
int cli_view_unit_as(const cli_command *cmd, const cli_args *a, pcol_str unit, const pcol_sum *vals,
                     size_t nvals, pcol_sum total, int whole, char *to);
/* Prints the unfiltered/filtered header lines of text views: "Active
 * filters:" as pprof does, and a warning on stderr for a filter that matched
 * nothing is left to the library's caller. */
void cli_print_filters(FILE *fp, const pcol_select *sel);
/* --by, --format (text/tsv/csv/json) and --limit of the report commands
 * (top, diff).  Returns 0 or EXIT_USAGE after printing the error. */
int cli_report_options(const cli_command *cmd, const cli_args *a, pcol_by *by, out_format *fmt,
                       uint64_t *limit);
/* pprof's comment lines (after File:): go's merge's comments of the
 * sources the header speaks of (pcol_sources_comments, or ht's), but those
 * beginning with '#' (report.go ProfileLabels). */
void cli_print_comments(FILE *fp, pcol_file *f, const pcol_select *sel,
                        const struct cli_header_time *ht);
/* pprof's "Time:" and "Duration: D, Total samples = T (P%)" lines
 * (report.go ProfileLabels) of the selected source, or of every source as
 * go's merge combines them (pcol_sources_time), or ht's when not NULL;
 * none for a time or duration of 0, as Go.  T is total_of's (asked only
 * for the Duration line), in unit, of values in vunit. */
void cli_print_time_lines(FILE *fp, pcol_file *f, const pcol_select *sel, pcol_str vunit,
                          const char *unit, int (*total_of)(void *ctx, pcol_sum *total),
                          void *ctx, const cli_header_time *ht);
/* pprof's "Type: T" line of a view's header (the name alone, as pprof's). */
void cli_print_type(FILE *fp, const pcol_value_sel *v);
/* pprof's ProfileLabels (report.go), the head of -traces and of the
 * interactive mode's greeting: "File:", the comments, "Type: T" and
 * the time lines above (in unit; total_of asked only for the Duration line). */
void cli_print_profile_labels(FILE *fp, pcol_file *f, const char *path, const pcol_select *sel,
                              const pcol_value_sel *v, const char *unit,
                              int (*total_of)(void *ctx, pcol_sum *total), void *ctx);
/* pprof's compact_labels, on in the shell (cmd_shell.c) as in pprof's
 * interactive mode: the views' headers start at their filters (no File,
 * Type, Time, Duration lines). */
extern bool cli_compact_labels;
/* The head of pprof's text views (top, peek): "File:", "Type:", pprof's
 * "Time:" and "Duration: D, Total samples = T (P%)" (cli_print_time_lines,
 * ht as there), the active filters and "Showing nodes accounting for X, P%
 * of T total" over the first n rows of t, in unit (as pcol_unit_label
 * takes it). */
void cli_print_view_header(FILE *fp, pcol_file *f, const char *path, const pcol_top *t, size_t n,
                           const pcol_select *sel, const char *unit, const cli_header_time *ht);
/* ------------------------------------------------------------ cli_tree.c */
/* pprof's printTree layout (report.go), printed by peek and tree: the
 * separator line and the column legend; the separator; an edge line (the
 * weight through a call, its share of the node's cum, the other end's name,
 * " (inline)"); a node line (flat, flat%, sum% with *flat_sum grown by its
 * flat, cum, cum%, name). */
void cli_tree_legend(FILE *fp);
void cli_tree_sep(FILE *fp);
void cli_tree_edge(FILE *fp, pcol_sum weight, pcol_sum cum, pcol_str name, bool inl, pcol_str vunit,
                   const char *unit);
void cli_tree_node(FILE *fp, const pcol_top_row *r, pcol_sum *flat_sum, pcol_sum total, pcol_str vunit,
                   const char *unit);
/* their rows for --format tsv/csv/json/jsonl: a row per node (relation
 * "node": flat, cum) and per caller/callee (value, pct of the node's cum,
 * inline) */
#define CLI_TREE_NCOLS 9
extern const char *const cli_tree_cols[CLI_TREE_NCOLS];
void cli_tree_row_edge(cli_table *tb, pcol_str node, const char *rel, pcol_str name, pcol_sum weight,
                       pcol_sum cum, bool inl, pcol_str unit);
void cli_tree_row_node(cli_table *tb, const pcol_top_row *r, pcol_str unit);
/* pprof's labels after a graph's "Showing nodes" line (report.go
 * reportLabels): "Dropped N nodes (cum <= X)", with edges "Dropped N edges
 * (freq <= X)" (-dot's; -tree passes none), "Showing top N nodes out of M" */
void cli_graph_labels(FILE *fp, const pcol_graph *g, const pcol_graph_opts *o, const char *unit,
                      bool edges);
/* pprof's unit for a graph's text (report.go selectOutputUnit: each node's
 * flat, else its cum; whole: callgrind's, cli_view_unit_as), or --unit:
 * into unit (32 bytes).  0; -1 after a usage error was printed; PCOL_ENOMEM
 * with err set. */
int cli_graph_unit(const cli_command *cmd, const cli_args *a, const pcol_graph *g, int whole,
                   char *unit, pcol_error *err);
/* --node-fraction, --edge-fraction, --node-count of graph and tree */
#define CLI_OPTS_PRUNE                                                          \
  {"node-fraction", 0, 1, "drop nodes whose |cum| is below this fraction of the total (pprof " \
                          "-nodefraction, default 0.005)"},                      \
  {"edge-fraction", 0, 1, "drop edges below this fraction of the total (pprof -edgefraction, default 0.001)"}, \
  {"node-count", 'n', 1, "keep at most this many nodes, 0 = all (pprof -nodecount, default 80; -n as top's)"}

/* --sort flat|cum|name of the views in pprof's orders (top, peek).
 * Returns 0 or EXIT_USAGE. */
int cli_sort_option(const cli_command *cmd, const cli_args *a, pcol_sort *sort);
/* --NAME F, a fraction from 0 to 1 (pprof's -nodefraction, -edgefraction):
 * *out is left as it is when the option is absent.  0 or EXIT_USAGE. */
int cli_fraction_option(const cli_command *cmd, const cli_args *a, const char *name, double *out);

/* -------------------------------------------------------------- pack.c */
/* pack/merge: imports every positional input into one builder and writes
 * -o atomically (--compress, --coalesce, --no-mmap); fmt UNKNOWN = detect. */
int cli_pack_inputs(const cli_command *cmd, cli_args *a, pcol_format fmt);

/* The commands. */
int cmd_pack(const cli_command *, cli_args *);
int cmd_info(const cli_command *, cli_args *);
int cmd_cat(const cli_command *, cli_args *);
int cmd_validate(const cli_command *, cli_args *);
int cmd_unpack(const cli_command *, cli_args *);
int cmd_top(const cli_command *, cli_args *);
int cmd_fold(const cli_command *, cli_args *);
int cmd_flame(const cli_command *, cli_args *);
int cmd_diff(const cli_command *, cli_args *);
int cmd_merge(const cli_command *, cli_args *);
int cmd_index(const cli_command *, cli_args *);
extern const cli_opt opts_index[];
int cmd_report(const cli_command *, cli_args *);
extern const cli_opt opts_report[];
int cmd_export(const cli_command *, cli_args *);
int cmd_tags(const cli_command *, cli_args *);
int cmd_traces(const cli_command *, cli_args *);
int cmd_peek(const cli_command *, cli_args *);
int cmd_tree(const cli_command *, cli_args *);
int cmd_graph(const cli_command *, cli_args *);
int cmd_list(const cli_command *, cli_args *);
int cmd_disasm(const cli_command *, cli_args *);
int cmd_shell(const cli_command *, cli_args *);
/* The command called name (pcol.c's table), or NULL. */
const cli_command *cli_command_find(const char *name);
extern const cli_opt opts_list[];
extern const cli_opt opts_disasm[];
extern const cli_opt opts_shell[];
extern const cli_opt opts_peek[];
extern const cli_opt opts_tree[];
extern const cli_opt opts_graph[];

extern const cli_opt opts_pack[], opts_info[], opts_cat[], opts_validate[], opts_unpack[],
    opts_top[], opts_fold[], opts_flame[], opts_diff[], opts_merge[];
extern const cli_opt opts_export[];
extern const cli_opt opts_tags[], opts_traces[];

#endif
