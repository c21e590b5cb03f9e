/* columns.h — a list of column views loaded at once (columns.c).  Inside
 * libpcol only (not installed). */
#ifndef PCOL_CORE_COLUMNS_H
#define PCOL_CORE_COLUMNS_H

#include "pcol.h"

/* One column to load: *v = column `column` of table `table`. */
typedef struct pcol_column_req {
  pcol_view *v;
  int table, column;
} pcol_column_req;
/* Loads n columns in order (pcol_column each); stops at the first failure
 * and returns its code, with err filled.  columns.c */
int pcol_columns(pcol_file *f, const pcol_column_req *req, size_t n, pcol_error *err);
#define PCOL_NCOLS(req) (sizeof(req) / sizeof((req)[0]))

#endif
