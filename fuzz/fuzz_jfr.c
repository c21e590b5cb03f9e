/* fuzz_jfr.c — libFuzzer target: the JDK Flight Recorder importer.
 * The work is in fuzz_common.h, which the gcc replay test
 * (tests/test_fuzz_replay.c) shares.  Seeds: tests/support/gen_jfr.py. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return fz_import_one(pcol_import_jfr, data, size, (size & 2) != 0);
}
