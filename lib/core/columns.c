/* columns.c — load a list of columns at once (columns.h). */
#include "pcol.h"
#include "error.h"    /* PCOL_RETURN_NOT_OK */
#include "columns.h"  /* pcol_column_req, pcol_columns */

int pcol_columns(pcol_file *f, const pcol_column_req *req, size_t n, pcol_error *err) {
  for (size_t i = 0; i < n; i++)
    PCOL_RETURN_NOT_OK(pcol_column(f, req[i].table, req[i].column, req[i].v, err));
  return PCOL_OK;
}
