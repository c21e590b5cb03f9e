# workloads.R — make real Rprof files with R itself, for the interop tests.
#
#   Rscript tests/r/workloads.R OUTDIR
#
# Writes OUTDIR/{plain,memory,line,gc,callframes,nofilter,append,all,names}.out
# and the code they profile, OUTDIR/workload_code.R.
# Each workload burns a fraction of a second of CPU in named R functions, so
# every profile has a few dozen samples.  The functions live in a sourced
# file (keep.source = TRUE) so that line profiling has srcrefs and #File lines.
args <- commandArgs(trailingOnly = TRUE)
out <- if (length(args)) args[[1]] else "."
dir.create(out, showWarnings = FALSE, recursive = TRUE)

code <- file.path(out, "workload_code.R")
writeLines(c(
  "inner <- function(n) {",
  "  s <- 0",
  "  for (i in seq_len(n)) s <- s + sqrt(i) * sin(i)",
  "  s",
  "}",
  "middle <- function(n) {",
  "  a <- inner(n)",
  "  b <- inner(n %/% 2)",
  "  a + b",
  "}",
  "alloc <- function(k) {",
  "  x <- list()",
  "  for (i in seq_len(k)) x[[i]] <- rnorm(200)",
  "  y <- lapply(x, function(v) v * 2)",
  "  sum(vapply(y, sum, 0))",
  "}",
  "`busy loop` <- function(n) inner(n)",
  "lst <- list(f = function(n) middle(n))",
  "outer <- function(n, k) {",
  "  r <- middle(n)",
  "  r <- r + alloc(k)",
  "  r <- r + tryCatch(identity(`busy loop`(n)), error = function(e) 0)",
  "  r + lst[[\"f\"]](n)",
  "}",
  "work <- function(sec = 0.4) {",
  "  t0 <- proc.time()[[1]]",
  "  while (proc.time()[[1]] - t0 < sec) outer(20000, 200)",
  "}"
), code)
source(code, keep.source = TRUE)

prof <- function(name, ..., sec = 0.4) {
  f <- file.path(out, name)
  Rprof(f, interval = 0.01, ...)
  work(sec)
  Rprof(NULL)
  invisible(f)
}

prof("plain.out")
prof("memory.out", memory.profiling = TRUE)
prof("line.out", line.profiling = TRUE)
prof("gc.out", gc.profiling = TRUE)
prof("callframes.out", filter.callframes = TRUE)
prof("nofilter.out", filter.callframes = FALSE)
prof("all.out", memory.profiling = TRUE, gc.profiling = TRUE, line.profiling = TRUE)
prof("names.out", line.profiling = TRUE, sec = 0.3)

# append = TRUE: three segments with different flags and intervals; the
# #File numbering restarts in each one
f <- file.path(out, "append.out")
Rprof(f, interval = 0.01, line.profiling = TRUE)
work(0.3)
Rprof(NULL)
Rprof(f, interval = 0.02, append = TRUE)
work(0.3)
Rprof(NULL)
Rprof(f, interval = 0.01, append = TRUE, memory.profiling = TRUE, line.profiling = TRUE)
work(0.3)
Rprof(NULL)
# workload_code.R stays: the line profiles' #File lines name it, and
# `pcol list` / `go tool pprof -list` read it (tests/interop/t_r_rprof.sh)
