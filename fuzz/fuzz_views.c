/* fuzz_views.c — libFuzzer target: the analyses of lib/query (value
 * resolution, weights, top by function/line/file, frame tree, fold, diff) on
 * a pcol file with correct checksums.  The work is in fuzz_views.h, which
 * the gcc replay test (tests/test_fuzz_replay.c) shares. */
#include "fuzz_views.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return fz_views_one(data, size); }
