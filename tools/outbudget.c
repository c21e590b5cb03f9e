/* outbudget.c — the output budget of the commands that write views (cat,
 * top, peek, tags, traces, list, diff, info, flame, graph, report): the rule and
 * the message of the exporters' budget (pcol_output_budget,
 * pcol_output_budget_error), over everything the command writes.
 *
 * Standard output is replaced, before the command runs, by a stream that
 * counts what passes to the real one and refuses the write that would pass
 * the budget; a -o file is wrapped the same way (cli_budget_wrap).  The
 * budget follows the inputs opened so far (cli_budget_input), so it is
 * known before the first byte of a view.  A command's loop stops at the
 * first refused write (cli_budget_over), and a view that can size its
 * output first refuses before the work (cli_budget_need).  The result is
 * exit 1 with the message, never a truncated file renamed into place, and
 * never an out-of-memory exit. */
#include "cli.h"
#include <string.h>

static struct {
  int active, over;
  uint64_t max;      /* --max-output; 0 = by the inputs */
  uint64_t inputs;   /* bytes of the pcol files opened so far */
  uint64_t written;  /* through every counted stream */
  const char *path;  /* the first input, for the message */
  FILE *real;        /* standard output as it was */
} ob;

static uint64_t limit(void) { return pcol_output_budget(ob.inputs, ob.max); }

static ssize_t counted_write(void *c, const char *buf, size_t size) {
  if (ob.over || size > limit() - (ob.written < limit() ? ob.written : limit())) {
    ob.over = 1;
    return 0; /* the stream's error flag is set: later writes fail too */
  }
  if (size && fwrite(buf, 1, size, (FILE *)c) != size) return 0;
  ob.written += size;
  return (ssize_t)size;
}

static FILE *counted(FILE *out) {
  cookie_io_functions_t io = {NULL, counted_write, NULL, NULL};
  return fopencookie(out, "w", io);
}

static const char *const budgeted[] = {"cat",   "top",  "peek",  "tree",  "tags",   "traces",
                                       "list",  "diff", "info", "flame", "graph", "report", "disasm", NULL};

static uint64_t max_rows; /* --max-rows, for cli_open and cli_load */
uint64_t cli_max_rows(void) { return max_rows; }

int cli_max_output(const cli_command *cmd, const cli_args *a, uint64_t *bytes) {
  if (cli_get_u64(cmd, a, "max-output", 0, bytes)) return EXIT_USAGE;
  if (cli_get(cmd, a, "max-output") && !*bytes)
    return cli_usage_error(cmd->name, "--max-output must be at least 1 byte");
  return 0;
}

int cli_budget_begin(const cli_command *cmd, const cli_args *a) {
  if (cli_get_u64(cmd, a, "max-rows", 0, &max_rows)) return EXIT_USAGE;
  if (cli_get(cmd, a, "max-rows") && !max_rows)
    return cli_usage_error(cmd->name, "--max-rows must be at least 1");
  int on = 0;
  for (int i = 0; budgeted[i]; i++) on |= !strcmp(cmd->name, budgeted[i]);
  if (!on) return 0;
  /* a command's own budget (the shell runs many in one process) */
  ob.over = 0, ob.written = ob.inputs = 0, ob.path = NULL;
  if (cli_max_output(cmd, a, &ob.max)) return EXIT_USAGE;
  FILE *fp = counted(stdout);
  if (!fp) return EXIT_IO;
  ob.real = stdout;
  stdout = fp; /* glibc: stdout is an assignable variable */
  ob.active = 1;
  return 0;
}

void cli_budget_bytes(const char *path, uint64_t n) {
  ob.inputs = n > UINT64_MAX - ob.inputs ? UINT64_MAX : ob.inputs + n;
  if (!ob.path) ob.path = path;
}

void cli_budget_input(const char *path, pcol_file *f) {
  if (f) cli_budget_bytes(path, pcol_input_bytes(f)); /* a converted gzip: its compressed bytes */
}

/* standard output is counted already (pcol_out_open("-") writes to it) */
FILE *cli_budget_wrap(FILE *out) { return ob.active && out != stdout ? counted(out) : out; }

int cli_budget_over(void) { return ob.over; }

int cli_budget_need(uint64_t bytes) {
  if (!ob.active) return 0;
  uint64_t w = ob.written < limit() ? ob.written : limit();
  if (bytes > limit() - w) ob.over = 1;
  return ob.over;
}

int cli_budget_end(const char *cmd, int rc) {
  if (!ob.active) return rc;
  ob.active = 0;
  int bad = fflush(stdout) != 0;
  fclose(stdout); /* the counting stream; the real one stays open */
  stdout = ob.real;
  if (ob.over) {
    pcol_error err = {0};
    pcol_output_budget_error(&err, ob.path ? ob.path : "the output", "the output would be larger than",
                             limit(), ob.inputs, ob.max != 0);
    return cli_fail(cmd, &err, PCOL_ETOOBIG);
  }
  if (bad && rc == EXIT_OK) {
    fprintf(stderr, "pcol %s: error writing standard output\n", cmd);
    return EXIT_IO;
  }
  return rc;
}
