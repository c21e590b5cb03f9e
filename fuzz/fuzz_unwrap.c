/* fuzz_unwrap.c — libFuzzer target: pcol_import_path, which unwraps gzip,
 * zstd and lz4 frames (skippable frames too) as it reads them, detects the
 * format and imports it.  The work is in fuzz_unwrap.h, which the gcc
 * replay test (tests/test_fuzz_replay.c) shares. */
#include "fuzz_unwrap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_unwrap_one(data, size);
  return 0;
}
