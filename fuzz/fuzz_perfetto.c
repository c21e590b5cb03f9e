/* fuzz_perfetto.c — libFuzzer target: the Perfetto trace importer
 * (lib/convert/perfetto/perfetto_import.c).  The work is in fuzz_common.h,
 * which the gcc replay test (tests/test_fuzz_replay.c) shares.  Seeds: the
 * fixtures of tests/fixtures/perfetto/ encoded by protoc, and gen.py's. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return fz_import_one(pcol_import_perfetto, data, size, (size & 2) != 0);
}
