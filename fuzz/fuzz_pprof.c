/* fuzz_pprof.c — libFuzzer target: the pprof importer (gzip and raw protobuf).
 * The work is in fuzz_common.h, which the gcc replay test
 * (tests/test_fuzz_replay.c) shares.  Two inputs in three go through a
 * window of 1-11 bytes (pprof_import.c: read twice, fields split across
 * reads), the others through the default (read once); one in four comes
 * as a stream that cannot seek back (a pipe: its Samples kept by pass 1,
 * pprof_spill.c), then with few stacks numbered one in two.  An input
 * holding FZ_NEXT is two profiles imported into one builder (fz_import_one:
 * the second's mappings at other starts shifted to the first's, ASLR). */
#include "fuzz_common.h"
#include "pprof/pprof.h"       /* pcol_pprof_window */
#include "pprof/pprof_spill.h" /* pcol_pprof_spill_memo_bytes */

typedef struct fz_pipe {
  const uint8_t *p;
  size_t n, pos;
} fz_pipe;
static ssize_t fz_pipe_read(void *c, char *buf, size_t size) {
  fz_pipe *m = c;
  size_t k = m->n - m->pos < size ? m->n - m->pos : size;
  if (k) memcpy(buf, m->p + m->pos, k);
  m->pos += k;
  return (ssize_t)k;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  pcol_pprof_window = size % 3 ? 1 + size % 11 : (size_t)1 << 20;
  /* held whole up to 0-4 windows (0: the window's size), then sliding */
  pcol_pprof_whole = size % 3 ? (size % 5) * pcol_pprof_window : (size_t)16 << 20;
  if (size % 4 != 1 || fz_next_at(data, size)) return fz_import_one(pcol_import_pprof, data, size, (size & 2) != 0);
  fz_pipe m = {data, size, 0};
  cookie_io_functions_t io = {fz_pipe_read, NULL, NULL, NULL};
  FILE *in = fopencookie(&m, "r", io);
  if (!in) return 0;
  size_t keep = pcol_pprof_spill_memo_bytes;
  pcol_pprof_spill_memo_bytes = size & 8 ? 64 : keep;
  int r = fz_import_stream(pcol_import_pprof, in, size, (size & 2) != 0);
  pcol_pprof_spill_memo_bytes = keep;
  return r;
}
