/* fuzz_regex.c — libFuzzer target: a user's regular expression (Go's
 * syntax) through lib/core/regex_go.c's translation, regcomp and regexec.
 * The work is in fuzz_regex.h, which the gcc replay test
 * (tests/test_fuzz_replay.c) shares. */
#include "fuzz_regex.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return fz_regex_one(data, size); }
