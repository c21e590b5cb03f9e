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
  /* many: carried past the limbs' own room */
  memset(&s, 0, sizeof s);
  for (int i = 0; i < 3000000; i++) pcol_dec_sum_add(&s, 999999999999999999LL, -18);
  pcol_dec_sum_text(&s, b, sizeof b);
  cr_assert_str_eq(b, "2999999.999999999997");
}
