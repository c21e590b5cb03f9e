/* line_edit.h — the shell's line editor on a terminal (line_edit.c). */
#ifndef PCOL_TOOLS_LINE_EDIT_H
#define PCOL_TOOLS_LINE_EDIT_H

#include <stddef.h>
#include <sys/types.h>

#define LINE_EDIT_HISTORY 1000 /* lines kept for Up/Down; the oldest go first */

typedef struct line_edit {
  int on;           /* standard input and error are a terminal that is not dumb */
  char **hist;      /* the lines entered, oldest first */
  size_t nhist;
} line_edit;

/* Whether lines are edited: go tool pprof's rule (cmd/pprof/readlineui.go):
 * standard input a terminal that can be put in raw mode, TERM set and not
 * "dumb"; the prompt and the echo then go to standard error, as pprof's. */
void line_edit_init(line_edit *e);
/* One line (without its end) into *line (grown as getline grows it), at
 * most max bytes (a key past it rings the bell): its length, or -1 at the
 * end of input (Ctrl-D on an empty line, or a read error).  The terminal
 * is in raw mode only while a line is read. */
ssize_t line_edit_read(line_edit *e, const char *prompt, size_t max, char **line, size_t *cap);
void line_edit_free(line_edit *e);

#endif
