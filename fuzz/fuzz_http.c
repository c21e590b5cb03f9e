/* fuzz_http.c — libFuzzer target: the HTTP response reader of the CLI's
 * URL inputs.  The work is in fuzz_http.h, which the gcc replay test
 * (tests/test_fuzz_replay.c) shares. */
#include "fuzz_http.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_http_one(data, size);
  return 0;
}
