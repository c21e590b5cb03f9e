# workloads.R — make real Rprof files with R itself, for the interop tests.
#
#   Rscript tests/r/workloads.R OUTDIR
#
# Writes OUTDIR/{plain,memory,line,gc,callframes,nofilter,append,all,names}.out
# and the code they profile, OUTDIR/workload_code.R and OUTDIR/sub/workload_code.R
# (a second file of the same base name: summaryRprof keys lines by base name).
# The runs differ in their options and intervals (R's default 20 ms, 5 ms with
# summaryRprof's 3 decimals, 15 and 50 ms), and the code has names R writes
# oddly: non-ASCII, a backslash, a quote, a blank, <Anonymous>, x[["f"]],
# recursion.
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
  "`na\u00efve` <- function(n) inner(n)",
  "`back\\\\slash` <- function(n) (function(k) inner(k))(n)",
  "`q\"uote` <- function(n) rec(3, n)",
  "rec <- function(d, n) if (d > 0) rec(d - 1, n) else inner(n)",
  "lst <- list(f = function(n) middle(n))",
  "outer <- function(n, k) {",
  "  r <- middle(n)",
  "  r <- r + alloc(k)",
  "  r <- r + tryCatch(identity(`busy loop`(n)), error = function(e) 0)",
  "  r <- r + `na\u00efve`(n %/% 8) + `back\\\\slash`(n %/% 8) + `q\"uote`(n %/% 8)",
  "  r <- r + helper(n %/% 4)",
  "  r + lst[[\"f\"]](n)",
  "}",
  "work <- function(sec = 0.4) {",
  "  t0 <- proc.time()[[1]]",
  "  while (proc.time()[[1]] - t0 < sec) outer(20000, 200)",
  "}"
), code)
dir.create(file.path(out, "sub"), showWarnings = FALSE)
code2 <- file.path(out, "sub", "workload_code.R")
writeLines(c("helper <- function(n) {", "  inner(n)", "}"), code2)
source(code, keep.source = TRUE, encoding = "UTF-8")
source(code2, keep.source = TRUE)

prof <- function(name, ..., sec = 0.4, interval = 0.01) {
  f <- file.path(out, name)
  Rprof(f, interval = interval, ...)
  work(sec)
  Rprof(NULL)
  invisible(f)
}

prof("plain.out", interval = 0.02) # R's default
prof("memory.out", memory.profiling = TRUE)
prof("line.out", line.profiling = TRUE)
prof("gc.out", gc.profiling = TRUE, interval = 0.015)
prof("callframes.out", filter.callframes = TRUE, interval = 0.05)
prof("nofilter.out", filter.callframes = FALSE)
prof("all.out", memory.profiling = TRUE, gc.profiling = TRUE, line.profiling = TRUE)
prof("names.out", line.profiling = TRUE, sec = 0.3, interval = 0.005)
# top-level code with srcrefs (a trailing ref, file "<text>") and a run too
# short for a sample (a file of its header alone)
f <- file.path(out, "toplevel.out")
Rprof(f, interval = 0.01, line.profiling = TRUE, gc.profiling = TRUE)
t0 <- proc.time()[[1]]
eval(parse(text = "while (proc.time()[[1]] - t0 < 0.2) {\n  outer(20000, 200)\n}", keep.source = TRUE))
Rprof(NULL)
Rprof(file.path(out, "empty.out"), interval = 0.01, memory.profiling = TRUE)
Rprof(NULL)

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
