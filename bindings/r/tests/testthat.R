library(testthat)
library(pcol)
test_check("pcol")
