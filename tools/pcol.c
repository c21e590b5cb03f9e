/* pcol.c — the `pcol` command: dispatch to one file per subcommand. */
#include "cli.h"
#include <errno.h>
#include <malloc.h>
#include <string.h>

static const cli_command commands[] = {
    {"pack", "pcol pack INPUT... -o OUT.pcol [--from FORMAT] [--compress none|lz4[:LEVEL]|zstd[:LEVEL]] [--coalesce]",
     "Convert profiles (Rprof, pprof, Perun, collapsed stacks, V8 .cpuprofile, Chrome trace events, perf script, speedscope, Firefox Profiler, OTLP, CPython 3.15 Tachyon, JDK Flight Recorder, Perfetto traces; detected) to pcol.",
     "Several inputs become several sources of one file.  INPUT may be '-' for\n"
     "standard input.  The output is written to a temporary file and renamed into\n"
     "place, so a failed run leaves no partial file; an output that is one of\n"
     "the inputs replaces it (a warning says so unless a pcol file is rewritten).",
     opts_pack, cmd_pack},
    {"unpack", "pcol unpack FILE... --to FORMAT -o OUT",
     "Convert a profile (pcol, or any format pcol reads) to rprof, pprof, perun, collapsed, speedscope, firefox, otlp, v8, chrome or perfetto.",
     "-o - writes to standard output.  pprof output is gzip-compressed unless\n"
     "--no-gzip is given.  --source, --from and --to select samples, as in every\n"
     "command: here --to names the output format, unless it is a number of seconds\n"
     "(then -t/--format or a second --to names the format; --from-time/--to-time are\n"
     "older spellings).  pprof labels are written as go tool pprof reads them: a\n"
     "number 0 without a unit with its key's unit (a pprof file drops it without\n"
     "one); a string label \"\", which pprof cannot read, is warned of.  A format\n"
     "that cannot hold the selected samples' labels or value types says which it\n"
     "leaves out, in one note: \"not written: labels (N keys: ...) and values\n"
     "TYPE/UNIT, ... (why)\"; pprof and otlp hold them all (doc/mappings.md §7).",
     opts_unpack, cmd_unpack},
    {"info", "pcol info FILE... [--format text|tsv|csv|json|jsonl]",
     "Per source: type, time, period, duration, samples, value types; then version, tables, sections.",
     "Each source first: its type and URI, start time, period (OTLP's period, else pprof's;\n"
     "Rprof's sample.interval), duration (OTLP's duration_nano, else pprof's duration_nanos;\n"
     "\"from A to B\" in seconds when its span starts A after its time 0, pcol.span_start_ns: a trace's\n"
     "later profile, placed as a range --from/--to finds it; the table formats' span_start_ns),\n"
     "number of samples and the span of their times, its value types and the one\n"
     "views add up by default, and its notes (what the importer did not keep:\n"
     "each pcol.note row, joined by \"; \"), and a pprof profile's comments, a line\n"
     "each as stored (go tool pprof -comments prints a repeated one once).  Then the file:\n"
     "version, tables and row counts, sections with sizes and codecs.  The sources\n"
     "take O(sources x log samples): info costs about the same for any file size.\n"
     "--format tsv|csv|json|jsonl prints a row per source (JSON adds the default\n"
     "value type, its unit and the profile's total in it).",
     opts_info, cmd_info},
    {"cat", "pcol cat FILE... --table NAME [--format tsv|csv|json|jsonl] [--limit N]",
     "Print a logical table.",
     "Tables (spec.md §11): meta, sources, samples, sample_values, sample_locations,\n"
     "locations, functions, value_types, source_value_types, sample_labels,\n"
     "location_lines, mappings, stacks, models, text_lines, sample_text, strings.\n"
     "--table all prints every table in this order: TSV/CSV each after a line \"# table NAME\",\n"
     "JSON as one object {\"NAME\": [rows], ...}, JSON lines with a first member\n"
     "\"table\" in every row.  Unknown values print NA (null in JSON).",
     opts_cat, cmd_cat},
    {"validate", "pcol validate FILE... [--full]",
     "Check pcol files: exit 0 when all are valid, otherwise a message for each bad one.",
     "Each FILE is a file, a directory (its files) or a quoted glob, as for every\n"
     "reading command; each file is checked on its own and gets a line, and the exit\n"
     "status is the first failure's (1 invalid, 3 unreadable).\n"
     "Without --full: header, directory and section bounds (O(1) in the data size);\n"
     "the data itself is not read, and the line says so (\"data not checked\"): a\n"
     "changed value or name is seen only by --full's body checksum.  The views\n"
     "(top, fold, flame, ...) check the same as this, and each column's ids and\n"
     "offsets on use: a flipped bit in a section can change their numbers.  The\n"
     "commands that write a profile of a pcol input (pack, merge, unpack, export,\n"
     "index) check its checksums too, and refuse a damaged one.\n"
     "With --full: also every checksum, every offset and id, decoded sizes, order.",
     opts_validate, cmd_validate},
    {"top", "pcol top FILE... [--by function|line|file|address|filefunction|label:KEY] [--value TYPE] [--sort flat|cum|name] [-n N] [--unit U] [--format text|tsv|csv|json|jsonl] [--focus RE ...]",
     "Flat (self) and cumulative weight per function, line or file.",
     "Text is go tool pprof -top's layout: human units (--unit), rows below --node-fraction\n"
     "(0.5 % of the total) hidden with \"Dropped N nodes\", \"(inline)\" marks.  The filters\n"
     "--focus/--ignore/--hide/--show (regular expressions in Go's syntax, as pprof's, on\n"
     "function, file and mapping names), --tag/--tag-ignore (string labels KEY=RE, numeric ranges\n"
     "KEY=1kb: :512 1mb:2mb with units) and --no-inlines (pprof -noinlines) mean what they\n"
     "mean to pprof, here and in fold, flame, diff, tags, traces and unpack; the total\n"
     "stays that of the profile before them, as pprof's does; a filter that matches no\n"
     "sample (a --tag of a key no sample has) is a warning, as pprof's.  An unknown\n"
     "label key in --by label:KEY is an error that lists the keys.  The header has\n"
     "pprof's Time: and Duration: lines; under --from/--to, of the part of each source's\n"
     "span the range covers (spec.md §7 \"Recordings\").\n"
     "--by file is pprof -files, but one row per file (pprof splits a file by function\n"
     "start line); a frame without a file is \"<unknown>\" or \"[binary]\".  Names are\n"
     "shown as stored (pprof -symbolize=none): see doc/cli.md for pprof's C++/Rust shortening.  --from/--to select a time range: a long sample (pack --coalesce)\n"
     "counts its ticks inside it, a Chrome trace's event the part of it inside it (spec.md §7).\n"
     "Seconds (1.5) count from each source's start;\n"
     "a wall-clock time (2026-11-23T10:00:00Z, or @EPOCH) is each source's own range from\n"
     "its recorded start.  In either, a source without sample times (pprof) counts whole\n"
     "when its span (from its span start, as `pcol info` gives it, to that + its duration;\n"
     "in seconds 0 to its duration unless info says \"from A to B\") is inside the range,\n"
     "not at all outside it, and is refused when the range cuts it.  With no duration,\n"
     "its span is its start alone in wall-clock time, and has no known end in seconds:\n"
     "there only a range with no --to and --from at most its span start holds it, and\n"
     "any other is refused.\n"
     "Many inputs (FILE..., a directory, a quoted glob): the view of their union, the\n"
     "numbers of `pcol merge` of them in that order, built in memory (no file written);\n"
     "with a wall-clock range, pcol inputs outside it are left out unread.",
     opts_top, cmd_top},
    {"tags", "pcol tags FILE... [--value TYPE] [--format ...] [--focus RE ...]",
     "Label keys, their values and the weight of each (pprof -tags).", NULL, opts_tags, cmd_tags},
    {"traces", "pcol traces FILE... [--by function|line|file|address|filefunction] [-n N] [--value TYPE] [--format ...] [--focus RE ...]",
     "Every trace with its labels, value and stack (pprof -traces).",
     "As go 1.19's pprof reads a profile, samples with the same stack and labels are\n"
     "one trace (values added, at the place of the first), the frames compared by\n"
     "address, mapping, function and line: a column no view prints (Tachyon's, JFR's\n"
     "bytecode index) splits none.  A trace whose every value is 0 is left out; a\n"
     "location without symbols is \"[mapping file]\" or \"<unknown>\".\n"
     "--by names each frame as top --by names its row (pprof -traces -lines,\n"
     "-addresses, -files, -filefunctions); the traces stay the same.",
     opts_traces,
     cmd_traces},
    {"peek", "pcol peek FILE... REGEX [--by function|line|file|address|filefunction] [--value TYPE] [--sort flat|cum] [--unit U] [--format ...] [--focus RE ...]",
     "Callers and callees of the functions matching REGEX, with flat/cum (pprof -peek).",
     "Text is go tool pprof -peek's: for each matching row (in --sort order), the\n"
     "weight that reaches it from each caller and goes from it to each callee, and\n"
     "that weight's share of the row's cum.  A sample counts once per call however\n"
     "often the call recurs.  REGEX is a regular expression (Go's syntax) matched\n"
     "anywhere in the row's name; nothing is trimmed (pprof -peek keeps every node).",
     opts_peek, cmd_peek},
    {"tree", "pcol tree FILE... [--by function|line|file|address|filefunction] [--value TYPE] [--sort flat|cum] [--node-fraction F] [--edge-fraction F] [-n|--node-count N] [--unit U] [--format ...] [--focus RE ...]",
     "The call graph as text: each node with its callers and callees (pprof -tree).",
     "Text is go tool pprof -tree's: the graph `pcol graph` prunes, but as pprof\n"
     "prunes it for a text report: nodes whose |cum| is below --node-fraction of\n"
     "the total go, then the first --node-count nodes by flat (by cum with --sort\n"
     "cum) stay, and calls below --edge-fraction go; a call through dropped nodes\n"
     "joins the nearest kept ones.  Each node is printed as `pcol peek` prints a\n"
     "match: the weight from each caller and to each callee, and its share of the\n"
     "node's cum.",
     opts_tree, cmd_tree},
    {"graph", "pcol graph FILE... [-o OUT] [--format dot|svg|png|callgrind] [--by function|line|file|address|filefunction] [--value TYPE] [--node-fraction F] [--edge-fraction F] [-n|--node-count N] [--unit U] [--focus RE ...]",
     "The call graph as go tool pprof -dot draws it: DOT text, or SVG/PNG through graphviz.",
     "Nodes are functions (lines, files, addresses with --by) with flat and cum, edges\n"
     "the calls between them with the weight through each; a call is \"(inline)\" when\n"
     "every call went into an inlined line, dotted (\"residual\") when it skipped\n"
     "dropped frames.  Pruned as pprof prunes it: nodes whose |cum| is below\n"
     "--node-fraction of the total go and the graph is rebuilt without them; the\n"
     "first --node-count nodes in pprof's order stay; edges below --edge-fraction\n"
     "go, and dotted edges another path already explains.  --format svg or png\n"
     "runs graphviz's `dot` (an error when it is not installed).  Strings from the\n"
     "file are escaped for DOT.  --format callgrind (or -o *.callgrind,\n"
     "callgrind.out.*) writes go tool pprof -callgrind's file for KCachegrind: every\n"
     "node by address, nothing pruned, names by the text rule (\\xNN).\n"
     "doc/graph.md says what differs from pprof.",
     opts_graph, cmd_graph},
    {"list", "pcol list FILE... REGEX [--by function|file] [--source-path DIR] [--value TYPE] [--unit U] [--format ...] [--focus RE ...]",
     "Source lines annotated with flat/cum (pprof -list; Rprof srcrefs).",
     "Text is go tool pprof -list's: a ROUTINE block per function matching REGEX and\n"
     "source file, lines from the function's start (or 5 before its first line with\n"
     "samples) to 5 after its last.  --by file makes a block per source file whose\n"
     "path matches, every function's lines merged (summaryRprof(lines = \"show\")'s\n"
     "by.line for Rprof line profiles).  Relative source paths are searched in\n"
     "--source-path (default: the current directory) and its parents; a file not\n"
     "found prints \" Error: ...\" (machine formats then give the lines with samples).\n"
     "On Rprof a line's flat is summaryRprof's self rule: a sample counts on its\n"
     "innermost line with a srcref (R's by.line), so a call to a function without\n"
     "srcrefs (rnorm) is flat on the calling line; pprof -list of the pprof export\n"
     "gives that flat to the callee (\"No source information for rnorm\").",
     opts_list, cmd_list},
    {"disasm", "pcol disasm FILE... REGEX [--intel] [--binary-path DIRS] [--value TYPE] [--unit U] [--format ...] [--focus RE ...]",
     "Assembly annotated with flat/cum per instruction (pprof -disasm).",
     "Text is go tool pprof -disasm's: a ROUTINE block per symbol of the profile's\n"
     "binaries that matches REGEX and holds samples, each instruction with the flat\n"
     "and cum of the samples at it (inlined frames counted at their caller's\n"
     "address, as pprof -disasm does) and \";FUNCTION FILE:LINE\" where they change.\n"
     "The binaries are found as --symbolize local finds them (--binary-path,\n"
     "PPROF_BINARY_PATH, build ids); symbols come from nm -n (llvm-nm, else nm),\n"
     "instructions from objdump (llvm-objdump, else GNU objdump), each started\n"
     "without a shell, all within PCOL_SYMBOLIZE_TIMEOUT (60 s).  A binary not\n"
     "found is a warning; no routine matching is an error (exit 1).",
     opts_disasm, cmd_disasm},
    {"fold", "pcol fold FILE... [--value TYPE]", "Print collapsed stacks (root;...;leaf weight).",
     "The numbers are the value the views show (pcol top's Type:), the source's\n"
     "default: a Go CPU or Rprof profile's cpu in nanoseconds.  A collapsed file's\n"
     "readers (flamegraph.pl's \"samples\", speedscope, pcol pack) take them for\n"
     "sample counts: for them, pcol unpack --to collapsed writes a source that\n"
     "counts its samples (a declared samples/count, Rprof ticks) by that count,\n"
     "the numbers fold --value samples prints but for samples the default does\n"
     "not weigh (a JFR recording's allocation samples beside its cpu), and any\n"
     "other source (a heap profile's bytes, a Perun amount) by its default.",
     opts_fold, cmd_fold},
    {"flame", "pcol flame FILE... -o flame.svg [--value TYPE] [--title T] [--diff BASE] [--inverted] [--minwidth PX|N%] [--palette P]",
     "Write an interactive SVG flame graph (zoom, search, icicle).",
     "Hover shows a frame's value in its own unit (\"1.23s\"; a count alone, \"12\", as\n"
     "go tool pprof -http's flame graph) and its share of the sum of |value| (pprof's\n"
     "total, as pcol top); a click zooms into a\n"
     "frame, \"Reset Zoom\" goes back; \"Search\" or Ctrl-F asks for a regular\n"
     "expression (Go's syntax, as --focus), highlights the frames it matches and shows \"Matched: N%\" (the\n"
     "share under them of the same total as the hover's: under --focus or --tag,\n"
     "pcol top's cum% of a matched function); \"Reset Search\" or Escape clears it.",
     opts_flame, cmd_flame},
    {"diff", "pcol diff BASE NEW [--absolute] [--sort flat|cum|name] [--unit U] [--node-fraction F] [--source N] [--from T] [--to T]",
     "Per-function change in flat and cum weight.",
     "BASE and NEW are each a file, or a directory or quoted glob: the union of its files.\n"
     "--from/--to compare the same stretch of both (each side from its own start, or the\n"
     "same wall-clock times); --source N, the filters and --value apply to both sides.\n"
     "Shares of each total (deltas in points), or raw sums with --absolute, whose d_flat\n"
     "and d_cum are go tool pprof -diff_base -top's flat and cum.  Text in pprof's style:\n"
     "human units (--unit), aligned columns, \"(inline)\" marks; rows sorted as\n"
     "-diff_base sorts them (|d_flat|, then name; --sort cum or name).  --node-fraction\n"
     "F (default 0.005 in text, 0 in other formats) drops the rows whose change in cum\n"
     "is small, as -diff_base -nodefraction does: with --absolute pprof's rule, |d_cum|\n"
     "below F x the sum of d_flat (\"Dropped N nodes (cum <= F x the base's total)\");\n"
     "in shares, |d_cum| below 100 x F points.  Without --value, each side's default;\n"
     "when they differ, the one NEW names (pprof's default_sample_type), else the one\n"
     "BASE names, where the other side has it: -diff_base's (its merge of both).",
     opts_diff, cmd_diff},
    {"merge", "pcol merge INPUT... -o OUT.pcol", "Combine profiles, keeping every source's identity.",
     "INPUT may be a file, a directory (its files, by name) or a quoted glob.  Every\n"
     "reading command answers for several inputs as for their merge, without writing it.\n"
     "As go tool pprof's merge, a later run of the same binary or library loaded at\n"
     "another address (ASLR) moves to the first run's addresses (its offsets in the\n"
     "binary unchanged), so `unpack --source N` does not give its own addresses back\n"
     "(doc/mappings.md, \"Merging\").",
     opts_merge, cmd_merge},
    {"index", "pcol index DIR...", "Keep the union of a directory's files beside them, for the commands that read it.",
     "Writes DIR/.pcol-index.pcol, what `pcol merge` writes of DIR's files (all but\n"
     "those changed within the last 2 s, and the files after them by name), and\n"
     "DIR/.pcol-index.list, which files it stands for (name, size, modification and\n"
     "change times, inode).  Every reading command given DIR (as its first input)\n"
     "then reads the index and the files after it, in place of every file: the same\n"
     "answers, as fast as from one merged file.  Run it again as files come: it adds only\n"
     "the new files to the index.  An index that no longer stands for the files (a\n"
     "file changed, renamed or removed, or one added before the last it covers) is\n"
     "not used, and a note says why.  Not used with a wall-clock --from/--to, which\n"
     "leaves out the files outside the range unread, nor by validate, pack, merge\n"
     "or export, which read the files themselves.  A profile in another format is\n"
     "named by its path: an index holding one is used only for DIR spelled as when\n"
     "it was made.  rm DIR/.pcol-index.* removes it.",
     opts_index, cmd_index},
    {"report", "pcol report FILE... -o report.html [--diff BASE] [--source-path DIRS] [--divide-by F] [--title T]",
     "Write one self-contained HTML page: timeline, stack chart, top table, flame graph, call tree, callers/callees, source.",
     "The page works offline in any browser (no network, everything inline) and\n"
     "shows what `pcol info` says, a timeline per source (and per thread of it,\n"
     "named as the speedscope and Firefox exports name it: its thread_name, else\n"
     "perf's comm of its last sample (a thread that renames itself goes by its\n"
     "new name, as in `perf report --sort pid`), and its id, \"app tid 101\";\n"
     "long samples as rectangles of\n"
     "their duration, Rprof memory as a line), a stack chart (each sample as long\n"
     "as the speedscope export's timeline draws it), a top table (every row,\n"
     "sortable, regex filter), a flame graph\n"
     "(click to zoom, search with matched %), a call tree (top-down or inverted;\n"
     "arrow keys open and close), the callers/callees (as pcol peek) and source\n"
     "lines (as pcol list; files found now, by list's rule: --source-path,\n"
     "--allow-any-source) of a function clicked anywhere.  Drag across the\n"
     "timeline to select a time range: every view is recomputed for it, a long\n"
     "sample counted by the part of its duration inside the range (weight x\n"
     "covered / duration, rounded as `pcol top --from A --to B` does).  Value and\n"
     "source selectors and focus/ignore boxes (as --focus/--ignore) choose what is\n"
     "added up.  --diff BASE adds base, new and change columns to the table (as\n"
     "pcol diff --absolute) and colours the flame graph by the change of each\n"
     "frame's share against BASE (red grew, blue shrank).  --divide-by F divides\n"
     "every number the page shows as the views' --divide-by does (pprof -http's\n"
     "divide_by; the shares stay), and the page's \"divide by\" box changes F.\n"
     "Bounds: at most 64 tracks are drawn, the busiest by the page's value (the\n"
     "others listed; a tracks box takes a regex of their names and draws them),\n"
     "the stack chart at most 2,400 rows and the flame graph 1,800 (deeper stacks\n"
     "drawn as their root and leaf frames, the frames cut in one grey box that\n"
     "lists them), so the page's height is bounded.  doc/report.md.",
     opts_report, cmd_report},
    {"shell", "pcol shell INPUT...",
     "go tool pprof's interactive mode: read the inputs once, then answer commands (top10, peek RE, focus=RE, ...).",
     "Each line of standard input is a command run on the inputs as `pcol COMMAND\n"
     "INPUT...` would run it, with the session's settings: pprof's report commands\n"
     "(top[N], peek RE, list RE, tree, traces, tags, text, dot, svg, png, callgrind,\n"
     "proto) and\n"
     "every pcol view with its options (top -n 5 --by line --format json); pprof's\n"
     "arguments (N the node count, -cum, RE focus, -RE ignore, >FILE the output);\n"
     "pprof's settings, kept until changed (focus=RE, ignore=, hide=, show=,\n"
     "show_from=, tagfocus=, tagignore=, tagshow=, taghide=, tagroot=, tagleaf=,\n"
     "sample_index=TYPE, unit=U, nodecount=N, nodefraction=F, edgefraction=F,\n"
     "sort=cum|flat, granularity=functions|lines|files|addresses, noinlines,\n"
     "relative_percentages, mean, drop_negative (top, peek, tree, graphs), divide_by=F\n"
     "(top, peek, tree, traces, list, graphs); the words cum, flat, functions, lines,\n"
     "files, addresses); o lists them, help [COMMAND] explains, quit ends.  Inputs\n"
     "that are not one pcol file are packed once into a temporary pcol file (removed\n"
     "at exit) that every command maps.  The prompt \"(pcol) \" goes to standard\n"
     "output, as pprof's does; a failed command prints its message and the session\n"
     "goes on.  doc/cli.md, \"The interactive shell\".",
     opts_shell, cmd_shell},
    {"export", "pcol export INPUT... --to clickhouse -o DIR [--load CMD] [--cluster NAME]",
     "Write profiles' tables for a columnar database (ClickHouse Native files and schema.sql).",
     "One pcol_TABLE.native file per table (Native column blocks) and schema.sql (local\n"
     "ReplacingMergeTree tables and Distributed tables over --cluster).  Rows are keyed by a\n"
     "source_key derived from each source's content, so loading a profile twice changes no\n"
     "answer.  An INPUT may be a directory or a quoted glob: its files, each its own sources.\n"
     "Every input is validated before anything is written.  --load CMD streams each\n"
     "file into CMD --query 'INSERT INTO pcol_TABLE FORMAT Native', sources last.\n"
     "doc/clickhouse.md gives the schema and the SQL for top, diff and flame graphs.",
     opts_export, cmd_export},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

const cli_command *cli_command_find(const char *name) {
  for (size_t i = 0; i < NCOMMANDS; i++)
    if (!strcmp(name, commands[i].name)) return &commands[i];
  return NULL;
}

static void usage(FILE *out) {
  fprintf(out,
          "pcol %s — columnar, mmap-able profiles (reads format %d.0-%d.%d; writes each file in the\n"
          "lowest version it needs: `pcol info` says which)\n\n"
          "Usage: pcol COMMAND [ARGS] [OPTIONS]   (options may come in any order)\n\n"
          "Commands:\n",
          PCOL_VERSION_STRING, PCOL_FORMAT_MAJOR, PCOL_FORMAT_MAJOR, PCOL_FORMAT_MINOR);
  for (size_t i = 0; i < NCOMMANDS; i++)
    fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].summary);
  fprintf(out,
          "\nThe reading commands (info, cat, top, peek, tree, list, tags, traces, fold, flame,\n"
          "report, unpack; diff's each side) take several inputs, directories and quoted\n"
          "globs, and answer for their union as `pcol merge` of them would (`pcol index\n"
          "DIR` keeps that union beside a directory's files); an input may be an http://\n"
          "URL, or HOST:PORT[/PATH] when no such file exists, fetched first (go tool pprof's\n"
          "http://HOST:6060/debug/pprof/heap, localhost:6060; --seconds N asks for N seconds).\n"
          "--from/--to take seconds since the start or wall-clock times (2026-11-23T10:00:00Z,\n"
          "@EPOCH).\n"
          "\n'pcol COMMAND --help' describes a command.  'pcol --version' prints the version.\n\n"
          "Exit status:\n"
          "  0  success\n"
          "  1  invalid, damaged or unsupported input (or validation failed)\n"
          "  2  usage error (bad command line)\n"
          "  3  I/O error: a file cannot be read or written, or memory ran out\n");
}

int main(int argc, char **argv) {
  /* The heap grows and shrinks by at least 1 MiB (glibc's M_TOP_PAD): `top`
   * of many small files allocates and frees ~100 KB a file, and glibc gave
   * the top of the heap back and faulted it in again for each: a day of
   * 1,440 files took 12,000 page faults and a third of its CPU
   * (bench/results/query-speed.md).  At most 1 MiB more resident. */
  mallopt(M_TOP_PAD, 1 << 20);
  cli_cleanup_on_signals(); /* a killed command leaves no temporary file */
  if (argc < 2) {
    usage(stderr);
    return EXIT_USAGE;
  }
  const char *c = argv[1];
  if (!strcmp(c, "--help") || !strcmp(c, "-h") || !strcmp(c, "help")) {
    /* `pcol help help`, `pcol help --help`: the general help, as git's and go's */
    if (argc > 2 && strcmp(argv[2], "help") && strcmp(argv[2], "--help") && strcmp(argv[2], "-h")) {
      for (size_t i = 0; i < NCOMMANDS; i++)
        if (!strcmp(argv[2], commands[i].name)) {
          cli_print_help(&commands[i], stdout);
          return EXIT_OK;
        }
      /* a typo (`pcol help flamegraph`) is said, not answered with the
       * general help and exit 0 as if the command had no page (review 17 F2;
       * go help and git help fail so too) */
      fprintf(stderr, "pcol %s: unknown command '%s'\n\n", c, argv[2]);
      usage(stderr);
      return EXIT_USAGE;
    }
    usage(stdout);
    return EXIT_OK;
  }
  if (!strcmp(c, "--version") || !strcmp(c, "-V")) {
    printf("pcol %s (library %s, format %d.%d)\n", PCOL_VERSION_STRING, pcol_version_string(),
           PCOL_FORMAT_MAJOR, PCOL_FORMAT_MINOR);
    return EXIT_OK;
  }
  for (size_t i = 0; i < NCOMMANDS; i++) {
    if (strcmp(c, commands[i].name)) continue;
    cli_args a;
    int rc = cli_parse(&commands[i], argc - 2, argv + 2, &a);
    if (rc < 0) return EXIT_OK; /* --help */
    if (rc) return rc;
    if ((rc = cli_fetch_args(&commands[i], &a))) return rc; /* http:// inputs */
    if ((rc = cli_budget_begin(&commands[i], &a))) return rc;
    rc = cli_budget_end(c, commands[i].run(&commands[i], &a));
    cli_index_hint(c, rc);
    errno = 0;
    if ((fflush(stdout) != 0 || ferror(stdout)) && rc == EXIT_OK) {
      fprintf(stderr, "pcol %s: error writing standard output%s%s\n", c, errno ? ": " : "",
              errno ? strerror(errno) : "");
      return EXIT_IO;
    }
    return rc;
  }
  if (c[0] == '-') /* an option before any command */
    fprintf(stderr, "pcol: unknown option '%s' (options go after a command: pcol COMMAND --help)\n\n", c);
  else
    fprintf(stderr, "pcol: unknown command '%s'\n\n", c);
  usage(stderr);
  return EXIT_USAGE;
}
