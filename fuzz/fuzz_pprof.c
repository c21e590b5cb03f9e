/* fuzz_pprof.c — libFuzzer target: the pprof importer (gzip and raw protobuf).
 * The work is in fuzz_common.h, which the gcc replay test
 * (tests/test_fuzz_replay.c) shares.  Two inputs in three go through a
 * window of 1-11 bytes (pprof_import.c: read twice, fields split across
 * reads), the others through the default (read once). */
#include "fuzz_common.h"
#include "pprof/pprof.h" /* pcol_pprof_window */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  pcol_pprof_window = size % 3 ? 1 + size % 11 : (size_t)1 << 20;
  return fz_import_one(pcol_import_pprof, data, size, (size & 2) != 0);
}
