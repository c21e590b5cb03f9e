/* plain_test.h — a minimal stand-in for the few Criterion macros that
 * tests/test_threads.c uses, so that test can run under ThreadSanitizer:
 * Criterion's runner maps a shared "inheritable arena" that collides with
 * TSan's shadow memory ("Could not initialize inheritable arena").
 * Tests register themselves with a constructor; main() runs them in order
 * and any failed assertion aborts with a message. */
#ifndef PCOL_PLAIN_TEST_H
#define PCOL_PLAIN_TEST_H
#include "pcol.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct plain_test {
  const char *name;
  void (*fn)(void);
} plain_test;
static plain_test plain_tests[64];
static int plain_ntests;

#define Test(suite, name, ...)                                                    \
  static void suite##_##name(void);                                               \
  __attribute__((constructor)) static void reg_##suite##_##name(void) {          \
    if (plain_ntests < 64) plain_tests[plain_ntests++] = (plain_test){#suite "::" #name, suite##_##name}; \
  }                                                                               \
  static void suite##_##name(void)

#define cr_assert(cond, ...)                                                      \
  do {                                                                            \
    if (!(cond)) {                                                                \
      fprintf(stderr, "%s:%d: assertion failed: %s\n", __FILE__, __LINE__, #cond); \
      abort();                                                                    \
    }                                                                             \
  } while (0)
#define cr_assert_eq(a, b, ...) cr_assert((a) == (b))
#define cr_assert_gt(a, b, ...) cr_assert((a) > (b))
#define cr_assert_geq(a, b, ...) cr_assert((a) >= (b))
#define cr_assert_neq(a, b, ...) cr_assert((a) != (b))

int main(void) {
  for (int i = 0; i < plain_ntests; i++) {
    printf("[RUN ] %s\n", plain_tests[i].name);
    fflush(stdout);
    plain_tests[i].fn();
    printf("[ OK ] %s\n", plain_tests[i].name);
  }
  printf("%d tests passed\n", plain_ntests);
  return 0;
}
#endif
