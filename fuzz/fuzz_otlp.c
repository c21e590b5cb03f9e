/* fuzz_otlp.c — libFuzzer target: the OTLP profiles importer (binary
 * ProfilesData, length-prefixed frames, OTLP/JSON lines, gzip).  The work
 * is in fuzz_common.h, which the gcc replay test (tests/test_fuzz_replay.c)
 * shares. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return fz_import_one(pcol_import_otlp, data, size, (size & 2) != 0);
}
