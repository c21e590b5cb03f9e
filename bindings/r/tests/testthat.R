library(testthat)
library(pcol)
# PCOL_TEST_FILTER: a regular expression choosing test files (bindings/test.sh
# runs a few under R CMD check, after the full suite ran on the installed
# package); unset or empty: all of them
filter <- Sys.getenv("PCOL_TEST_FILTER")
test_check("pcol", filter = if (nzchar(filter)) filter)
