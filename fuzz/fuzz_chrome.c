/* fuzz_chrome.c — libFuzzer target: the Chrome trace-event importer
 * (lib/convert/v8/chrome_trace.c, and through it the V8 importer).
 * The work is in fuzz_common.h, which the gcc replay test
 * (tests/test_fuzz_replay.c) shares. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return fz_import_one(pcol_import_chrome, data, size, (size & 2) != 0);
}
