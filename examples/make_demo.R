# make_demo.R — regenerates examples/demo.out, the small Rprof profile that
# `make run` packs.  Run from the repository root:
#
#   Rscript examples/make_demo.R
#
# Line profiling of a sourced file, so the profile has a header with flags,
# a "#File 1: demo_code.R" line and FILE#LINE srcrefs for a few functions.
code <- "demo_code.R"
writeLines(c(
  "fib <- function(n) if (n < 2) n else fib(n - 1) + fib(n - 2)",
  "smooth <- function(x) {",
  "  y <- stats::filter(x, rep(1 / 5, 5))",
  "  sum(y, na.rm = TRUE)",
  "}",
  "step <- function(i) {",
  "  a <- fib(14)",
  "  b <- smooth(rnorm(20000))",
  "  a + b",
  "}",
  "main <- function(sec) {",
  "  t0 <- proc.time()[[1]]",
  "  while (proc.time()[[1]] - t0 < sec) step(1)",
  "}"
), code)
invisible(compiler::enableJIT(0)) # keep the byte compiler out of the profile
source(code, keep.source = TRUE)
Rprof("examples/demo.out", interval = 0.01, line.profiling = TRUE)
main(0.3)
Rprof(NULL)
unlink(code)
