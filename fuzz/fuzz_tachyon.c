/* fuzz_tachyon.c — libFuzzer target: CPython's sampling profiler binary
 * importer (lib/convert/tachyon/tachyon_import.c).  The work is in
 * fuzz_common.h, which the gcc replay test (tests/test_fuzz_replay.c)
 * shares. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return fz_import_one(pcol_import_tachyon, data, size, (size & 2) != 0);
}
