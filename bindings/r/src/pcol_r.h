/* pcol_r.h — what the R package's C files share (pcol_r.c: files, errors,
 * strings, the views; query_r.c: the CLI's views top, peek, list, tags,
 * traces, diff, fold). */
#ifndef PCOL_R_H
#define PCOL_R_H
#define R_NO_REMAP
#include <R.h>
#include <Rinternals.h>
#include "pcol.h"

/* Stops with the library's message, naming the file (does not return). */
void NORET pcol_stop(const char *path, const pcol_error *err, int rc);
/* The open file of a handle from C_open (an R error if closed). */
pcol_file *file_of(SEXP x);
/* The file name a handle was opened with (UTF-8), or NULL. */
const char *path_of(SEXP x);
/* Notes (pcb_inputs_notes, pcb_view_notes: a line each, ending in '\n';
 * malloc'd), an R warning per line, without a call; frees notes first
 * (under options(warn = 2) a warning longjmps). */
void pcolr_warn_notes(char *notes);
/* R has no 64-bit integer: a whole number becomes a double, exact up to
 * 2^53.  pcolr_dbl converts x and notes in *l (NULL: not noted) the first
 * number rounded; pcolr_warn_lost says it, if any, in one warning without a
 * call ("PATH: WHAT: values past 2^53 are rounded ...: X is Y here"; path
 * may be NULL) -- a longjmp under options(warn = 2): call it when nothing
 * is left to free. */
typedef struct pcolr_lost {
  int n;           /* 1 once a number was rounded */
  pcol_sum first;  /* that number */
} pcolr_lost;
double pcolr_dbl(pcol_sum x, pcolr_lost *l);
void pcolr_warn_lost(const pcolr_lost *l, const char *path, const char *what);
/* A CHARSXP of stored bytes by the bindings' UTF-8 rule; NA for NULL. */
SEXP pcolr_mkchar(const char *p, size_t n);

SEXP C_q_top(SEXP file, SEXP by, SEXP value, SEXP q, SEXP fraction, SEXP sort, SEXP limit, SEXP mean,
             SEXP drop_negative);
SEXP C_q_peek(SEXP file, SEXP by, SEXP value, SEXP q, SEXP regex, SEXP sort, SEXP mean,
              SEXP drop_negative);
SEXP C_q_tree(SEXP file, SEXP by, SEXP value, SEXP q, SEXP sort, SEXP nf, SEXP ef, SEXP nc, SEXP mean,
              SEXP drop_negative);
SEXP C_q_list(SEXP file, SEXP by, SEXP value, SEXP q, SEXP regex, SEXP source_path, SEXP any, SEXP mean,
              SEXP drop_negative);
SEXP C_q_tags(SEXP file, SEXP value, SEXP q);
SEXP C_q_traces(SEXP file, SEXP value, SEXP q, SEXP limit, SEXP mean, SEXP by_);
SEXP C_q_diff(SEXP base, SEXP nw, SEXP by, SEXP value, SEXP q, SEXP absolute, SEXP sort);
SEXP C_q_fold(SEXP file, SEXP value, SEXP q, SEXP max_output);
SEXP C_q_summaries(SEXP file);
SEXP C_q_export(SEXP file, SEXP format, SEXP q, SEXP out, SEXP value);
SEXP C_unit_base(SEXP unit);
/* the streaming writer (writer_r.c) */
SEXP C_writer_open(SEXP path, SEXP types, SEXP units, SEXP source_type, SEXP source_uri, SEXP mk, SEXP mv,
                   SEXP period, SEXP period_type, SEXP period_unit, SEXP roll_samples, SEXP roll_ns,
                   SEXP compress);
SEXP C_writer_add(SEXP w, SEXP foff, SEXP fn, SEXP file, SEXP line, SEXP values, SEXP nvalues, SEXP time_ns,
                  SEXP weight, SEXP loff, SEXP lkey, SEXP lstr, SEXP lnum);
SEXP C_writer_op(SEXP w, SEXP op);
/* from, to of a selection (NULL, seconds, or the CLI's time text) into
 * s's range, or an R error (pcol_r.c) */
void pcol_r_range(SEXP from, SEXP to, pcol_select *s);

#endif
