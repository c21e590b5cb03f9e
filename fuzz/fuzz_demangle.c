/* fuzz_demangle.c — libFuzzer target: pprof's demangling of a name
 * (lib/convert/demangle.c).  The work is in fuzz_demangle.h, which the gcc
 * replay test (tests/test_fuzz_replay.c) shares. */
#include "fuzz_demangle.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return fz_demangle_one(data, size); }
