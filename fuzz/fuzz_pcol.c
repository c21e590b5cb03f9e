/* fuzz_pcol.c — libFuzzer target: a pcol file: open (small decode cap), walk, validate_full, walk, copy
 * (one valid file in four copied twice into one builder: fz_pcol_check).
 * The work is in fuzz_common.h, which the gcc replay test
 * (tests/test_fuzz_replay.c) shares. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return fz_pcol_one(data, size);
}
