/* fuzz_collapsed.c — libFuzzer target: the collapsed-stacks importer.
 * The work is in fuzz_common.h, which the gcc replay test
 * (tests/test_fuzz_replay.c) shares. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return fz_collapsed_one(data, size);
}
