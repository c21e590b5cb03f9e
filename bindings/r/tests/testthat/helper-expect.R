# testthat's expect_identical, expect_equal, expect_true and expect_false
# with their passing case first: the third edition (DESCRIPTION) compares
# every call's values with waldo::compare, after setting its reproducible
# output options, even where they are identical (expect_true's message is
# made before it is known to be needed): ~10 ms a call here, most of the
# suite's own CPU (some 14,000 expectations; Rprof of test-query.R:
# waldo_compare and local_reproducible_output under half of it).  Values
# that are identical() pass here as one expectation each, as they pass
# there (identical values are equal to waldo, with or without a tolerance;
# expect_true passes exactly the identical TRUE); all others go to
# testthat's own function, which passes or fails them as before, with its
# report of the differences and the caller's expressions as labels.
expect_identical <- function(object, expected, info = NULL, label = NULL, expected.label = NULL, ...) {
  if (identical(object, expected)) { succeed(); return(invisible(object)) }
  testthat::expect_identical(object, expected, info = info, label = if (is.null(label)) deparse1(substitute(object)) else label,
                             expected.label = if (is.null(expected.label)) deparse1(substitute(expected)) else expected.label, ...)
}

expect_equal <- function(object, expected, ..., info = NULL, label = NULL, expected.label = NULL) {
  if (identical(object, expected)) { succeed(); return(invisible(object)) }
  testthat::expect_equal(object, expected, ..., info = info, label = if (is.null(label)) deparse1(substitute(object)) else label,
                         expected.label = if (is.null(expected.label)) deparse1(substitute(expected)) else expected.label)
}

expect_true <- function(object, info = NULL, label = NULL) {
  if (identical(object, TRUE)) { succeed(); return(invisible(object)) }
  testthat::expect_true(object, info = info, label = if (is.null(label)) deparse1(substitute(object)) else label)
}

expect_false <- function(object, info = NULL, label = NULL) {
  if (identical(object, FALSE)) { succeed(); return(invisible(object)) }
  testthat::expect_false(object, info = info, label = if (is.null(label)) deparse1(substitute(object)) else label)
}
