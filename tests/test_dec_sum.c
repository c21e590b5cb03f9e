/* test_dec_sum.c — exact decimal sums of a file's numbers (count.c
 * pcol_dec_sum: what THE kept rule's messages print; review h7: "lose
 * 0.00023400000000000008" was the arithmetic's digits). */
#include <criterion/criterion.h>
#include "count.h"
#include <string.h>

static void sum_is(const double *d, size_t n, const char *want) {
  pcol_dec_sum s;
  memset(&s, 0, sizeof s);
  for (size_t i = 0; i < n; i++) pcol_dec_sum_add_double(&s, d[i]);
  char b[64];
  pcol_dec_sum_text(&s, b, sizeof b);
  cr_assert_str_eq(b, want, "the sum of %zu numbers (the first %.17g)", n, d[0]);
}

Test(dec_sum, the_files_decimals) {
  sum_is((double[]){0.1, 0.2}, 2, "0.3"); /* (the doubles' sum: 0.30000000000000004) */
  sum_is((double[]){0.000117, 0.000117}, 2, "0.000234");
  sum_is((double[]){1.1e-7, 1.3e-7}, 2, "2.4e-07");
  sum_is((double[]){1e15, 1e-7}, 2, "1000000000000000.0000001");
  sum_is((double[]){0.3, 1e-12}, 2, "0.300000000001");
  sum_is((double[]){1e16, 1}, 2, "10000000000000001");
  sum_is((double[]){1e17}, 1, "1e+17");
  sum_is((double[]){-2.5, 1}, 2, "-1.5");
  sum_is((double[]){0.1, -0.1}, 2, "0");
  sum_is((double[]){1e300, 1e-300}, 2, "1e+300"); /* (600 digits: rounded to 30) */
  sum_is((double[]){0.5, 4.99999999999999999e-30}, 2, "0.500000000000000000000000000005");
}

Test(dec_sum, whole_numbers_of_a_grid) {
  pcol_dec_sum s;
  memset(&s, 0, sizeof s);
  pcol_dec_sum_add(&s, 123456789, -9);     /* 0.123456789 */
  pcol_dec_sum_add(&s, -999999999999999999LL, -18);
  pcol_dec_sum_add(&s, 1, 0);
  char b[64];
  pcol_dec_sum_text(&s, b, sizeof b);
  cr_assert_str_eq(b, "0.123456789000000001");
  /* many: limbs far past 10^9, carried by the text */
  memset(&s, 0, sizeof s);
  for (int i = 0; i < 3000000; i++) pcol_dec_sum_add(&s, 999999999999999999LL, -18);
  pcol_dec_sum_text(&s, b, sizeof b);
  cr_assert_str_eq(b, "2999999.999999999997");
}

/* pcol_dec_sum_add carries the limbs itself at its 2^30-th addition (each
 * adds under 2 x 10^9 to a limb: 2^30 of them stay under 2^62).  The case
 * above never got there (3,000,000 additions).  2^30 calls take seconds;
 * the same state is made here: 1001 additions, then adds set as the rest
 * would leave it, additions of x and -x in pairs, which give back the
 * limbs they took (checked below on a few) and count 2 each. */
Test(dec_sum, carried_at_the_two_to_the_thirtieth_addition) {
  pcol_dec_sum s, before;
  memset(&s, 0, sizeof s);
  for (int i = 0; i < 1001; i++) pcol_dec_sum_add(&s, 999999999999999999LL, -18);
  before = s;
  for (int i = 0; i < 1000; i++) {
    pcol_dec_sum_add(&s, 123456789012345678LL, -7 - i % 20);
    pcol_dec_sum_add(&s, -123456789012345678LL, -7 - i % 20);
  }
  cr_assert_eq(s.adds, 3001);
  cr_assert(!memcmp(s.l, before.l, sizeof s.l), "a pair of x and -x changed the limbs");
  int over = 0; /* (not carried yet: a limb past 10^9) */
  for (int i = 0; i < PCOL_DEC_LIMBS - 1; i++) over |= s.l[i] >= 1000000000 || s.l[i] < 0;
  cr_assert(over, "no limb to carry: the case shows nothing");
  s.adds = (1u << 30) - 3; /* (1001 + an even number of additions more) */
  pcol_dec_sum_add(&s, 1, -18);
  pcol_dec_sum_add(&s, 5, 0);
  cr_assert_eq(s.adds, (1u << 30) - 1);
  pcol_dec_sum_add(&s, -25, -1); /* the 2^30-th: carried */
  cr_assert_eq(s.adds, 0, "the 2^30-th addition did not carry the limbs");
  for (int i = 0; i < PCOL_DEC_LIMBS - 1; i++)
    cr_assert(s.l[i] >= 0 && s.l[i] < 1000000000, "limb %d is %lld after the carry", i, (long long)s.l[i]);
  char b[64];
  pcol_dec_sum_text(&s, b, sizeof b);
  /* 1001 x 0.999999999999999999 + 1e-18 + 5 - 2.5 */
  cr_assert_str_eq(b, "1003.499999999999999");
}
