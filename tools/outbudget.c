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
 * exit 3 with the message (a limit, not bad input: review 14 F3), never a
 * truncated file renamed into place, and never an out-of-memory exit.
 *
 * Standard output cannot take back what it was given: the counting stream
 * passes on whole lines only, holding the unfinished last one (at most
 * HOLD_MAX bytes; a longer line passes on as it comes, but for its last
 * byte), so that a refused output ends at the end of its last whole line
 * within B, the rest of that line left out (a longer line is ended there,
 * its held byte's place taken by the newline), and standard error says
 * so.  That holds for every command in the list below, whichever budget
 * refused (fold's is the exporters': cli_budget_cut), and for unpack's
 * text formats to standard output (cli_budget_lines: the exporter's budget
 * alone counts there). */
#include "cli.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct {
  int active, over;
  int cut;           /* an exporter's budget refused (cli_budget_cut) */
  int cut_stdout;    /* standard output was cut (bytes left out) */
  uint64_t max;      /* --max-output; 0 = by the inputs */
  uint64_t inputs;   /* bytes of the pcol files opened so far */
  uint64_t written;  /* through every counted stream */
  const char *path;  /* the first input, for the message */
  FILE *real;        /* standard output as it was */
} ob;

static uint64_t limit(void) { return pcol_output_budget(ob.inputs, ob.max); }

#define HOLD_MAX ((size_t)64 << 10)
typedef struct counter {
  FILE *out;
  char *held; /* the unfinished last line, not passed on yet */
  size_t nheld, cap;
  int at_line_end; /* the last byte passed on was a newline (or none was) */
  int passed;      /* a byte was passed on */
} counter;

static int pass(counter *k, const char *p, size_t n) {
  if (!n) return 0;
  if (fwrite(p, 1, n, k->out) != n) return -1;
  k->at_line_end = p[n - 1] == '\n', k->passed = 1;
  return 0;
}

/* the held line's room, HOLD_MAX bytes, made on first need */
static int hold_room(counter *k) {
  if (k->cap) return 0;
  if (!(k->held = malloc(HOLD_MAX))) return -1;
  k->cap = HOLD_MAX;
  return 0;
}

static ssize_t counted_write(void *c, const char *buf, size_t size) {
  counter *k = c;
  uint64_t room = limit() - (ob.written < limit() ? ob.written : limit());
  if (ob.over || size > room) {
    /* the whole lines that fit pass on, with the line held before them */
    const char *end = ob.over || !room ? NULL : memrchr(buf, '\n', (size_t)room);
    if (end && !pass(k, k->held, k->nheld) && !pass(k, buf, (size_t)(end + 1 - buf))) {
      k->nheld = 0;
      ob.written += (size_t)(end + 1 - buf);
    }
    ob.over = 1;
    return 0; /* the stream's error flag is set: later writes fail too */
  }
  const char *nl = size ? memrchr(buf, '\n', size) : NULL;
  size_t whole = nl ? (size_t)(nl + 1 - buf) : 0, rest = size - whole;
  if (whole) { /* the held line ends here */
    if (pass(k, k->held, k->nheld) || pass(k, buf, whole)) return 0;
    k->nheld = 0;
  }
  if (rest && hold_room(k)) return 0;
  if (k->nheld + rest > HOLD_MAX) {
    /* a long line passes on as it comes but for its last byte, held: a
     * refusal later ends the line with a newline in that byte's place
     * (counted_close), so what passed on stays within what was taken, at
     * most B (rest >= 1 here: nheld <= HOLD_MAX) */
    if (pass(k, k->held, k->nheld) || pass(k, buf + whole, rest - 1)) return 0;
    k->held[0] = buf[size - 1], k->nheld = 1;
  } else if (rest) {
    memcpy(k->held + k->nheld, buf + whole, rest);
    k->nheld += rest;
  }
  ob.written += size;
  return (ssize_t)size;
}

/* Closing: the held line passes on, unless the output was refused (then a
 * line cut short is ended, and the cut noted). */
static int counted_close(void *c) {
  counter *k = c;
  int rc = 0;
  if (ob.over || ob.cut) {
    /* (the shell's >FILE points stdout at a temporary file, aborted on a
     * refusal: nothing cut reaches anyone, so nothing to say) */
    if (k->passed || k->nheld) ob.cut_stdout |= k->out == ob.real && fileno(ob.real) == STDOUT_FILENO;
    if (!k->at_line_end && fputc('\n', k->out) == EOF) rc = -1;
  } else if (pass(k, k->held, k->nheld)) {
    rc = -1;
  }
  free(k->held);
  free(k);
  return rc;
}

static FILE *counted(FILE *out) {
  counter *k = calloc(1, sizeof *k);
  if (!k) return NULL;
  k->out = out;
  k->at_line_end = 1;
  cookie_io_functions_t io = {NULL, counted_write, NULL, counted_close};
  FILE *f = fopencookie(k, "w", io);
  if (!f) free(k);
  return f;
}

static const char *const budgeted[] = {"cat",   "top",  "peek",  "tree",  "tags",   "traces", "list",
                                       "diff",  "info", "flame", "graph", "report", "disasm", "fold", NULL};

static uint64_t max_rows; /* --max-rows, for cli_open and cli_load */
uint64_t cli_max_rows(void) { return max_rows; }

int cli_max_output(const cli_command *cmd, const cli_args *a, uint64_t *bytes) {
  if (cli_get_u64(cmd, a, "max-output", 0, bytes)) return EXIT_USAGE;
  if (cli_get(cmd, a, "max-output") && !*bytes)
    return cli_usage_error(cmd->name, "--max-output must be at least 1 byte");
  return 0;
}

/* standard output becomes the counting stream (cli_budget_end undoes it) */
static int count_stdout(void) {
  ob.real = stdout;
  FILE *fp = counted(stdout);
  if (!fp) return EXIT_IO;
  stdout = fp; /* glibc: stdout is an assignable variable */
  ob.active = 1;
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
  ob.over = ob.cut = ob.cut_stdout = 0, ob.written = ob.inputs = 0, ob.path = NULL;
  if (cli_max_output(cmd, a, &ob.max)) return EXIT_USAGE;
  return count_stdout();
}

int cli_budget_lines(void) {
  if (ob.active) return 0;
  ob.over = ob.cut = ob.cut_stdout = 0, ob.written = 0;
  ob.max = UINT64_MAX; /* never refused here: the exporter's budget refuses */
  return count_stdout();
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

void cli_budget_cut(void) { ob.cut = ob.active; }

int cli_budget_need(uint64_t bytes) {
  if (!ob.active) return 0;
  uint64_t w = ob.written < limit() ? ob.written : limit();
  if (bytes > limit() - w) ob.over = 1;
  return ob.over;
}

int cli_budget_end(const char *cmd, int rc) {
  if (!ob.active) return rc;
  ob.active = 0;
  errno = 0;
  int bad = fflush(stdout) != 0;
  int werr = bad ? errno : 0; /* (said as pcol.c says it: "No space left on device") */
  fclose(stdout); /* the counting stream; the real one stays open */
  stdout = ob.real;
  if (ob.over && !ob.cut) {
    pcol_error err = {0};
    rc = cli_fail(cmd, &err,
                  pcol_output_budget_error(&err, ob.path ? ob.path : "the output",
                                           "the output would be larger than", limit(), ob.inputs, ob.max != 0));
  }
  if (ob.cut_stdout)
    fprintf(stderr, "pcol %s: standard output is cut short: it ends at the last whole line within the "
            "budget\n", cmd);
  if (ob.over || ob.cut) return EXIT_IO;
  if (bad && rc == EXIT_OK) {
    fprintf(stderr, "pcol %s: error writing standard output%s%s\n", cmd, werr ? ": " : "", werr ? strerror(werr) : "");
    return EXIT_IO;
  }
  return rc;
}
