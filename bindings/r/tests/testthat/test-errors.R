# Bad input: an R error naming the file and the reason (the library's
# message, as the CLI prints it); never a crash.
cli_message <- function(cmd, path) {
  r <- run_pcol(cmd, path, check = FALSE)
  expect_true(r$status != 0)
  sub(paste0("^pcol ", cmd, ": "), "", r$stderr)
}

test_that("missing, empty, junk and truncated files", {
  skip_without_testdata()
  d <- tempfile("bad")
  dir.create(d)
  missing <- file.path(d, "nope.pcol")
  expect_error(read_pcol(missing), paste0(missing, ": No such file"), fixed = TRUE)
  junk <- file.path(d, "junk.bin")
  writeBin(as.raw(rep(0:255, 8)), junk)
  expect_error(read_pcol(junk), cli_message("top", junk), fixed = TRUE)
  empty <- file.path(d, "empty.pcol")
  file.create(empty)
  expect_error(read_pcol(empty), empty, fixed = TRUE)
  expect_error(read_pcol(d), d, fixed = TRUE)
  good <- readBin(packed()[[1]][2], "raw", 1e8)
  for (cut in c(10L, 64L, length(good) %/% 2L, length(good) - 1L)) {
    f <- file.path(d, sprintf("cut%d.pcol", cut))
    writeBin(good[seq_len(cut)], f)
    expect_error(read_pcol(f), cli_message("info", f), fixed = TRUE)
  }
  hdr <- good
  hdr[21] <- xor(hdr[21], as.raw(1))
  f <- file.path(d, "hdr.pcol")
  writeBin(hdr, f)
  expect_error(read_pcol(f), "header checksum", fixed = TRUE)
  expect_error(pcol_top(f), f, fixed = TRUE)
})

test_that("inputs pcol refuses give the CLI's message", {
  skip_without_testdata()
  srcs <- vapply(packed(), `[`, "", 1)
  n <- 0L
  for (f in input_files()) {
    if (f %in% srcs) next
    expect_error(read_pcol(f), cli_message("top", f), fixed = TRUE)
    n <- n + 1L
  }
  expect_gte(n, corpus_min(5L))
})

# (offset, count) of a raw section, from the directory as spec.md §3 lays it out
section <- function(b, table, column) {
  u64 <- function(o) sum(as.numeric(b[o + 1:8]) * 256^(0:7))
  u16 <- function(o) sum(as.numeric(b[o + 1:2]) * 256^(0:1))
  dir <- u64(40)
  n <- sum(as.numeric(b[48 + 1:4]) * 256^(0:3))
  for (i in seq_len(n) - 1) {
    e <- dir + 64 * i
    if (u16(e) == table && u16(e + 2) == column && as.integer(b[e + 6]) == 0) return(c(u64(e + 8), u64(e + 32)))
  }
  NULL
}

test_that("a damaged column fails on first use, naming the file", {
  skip_without_testdata()
  for (x in packed()) {
    b <- readBin(x[2], "raw", 1e8)
    s <- section(b, 11, 6) # samples.stack_id
    if (!is.null(s) && s[2] > 2) break
  }
  at <- s[1] + 4 * (s[2] %/% 2)
  b[at + 1:4] <- as.raw(c(0xf0, 0xff, 0xff, 0xff))
  f <- tempfile(fileext = ".pcol")
  writeBin(b, f)
  expect_silent(pcol_table(f, "functions"))
  expect_error(read_pcol(f), paste0(f, ": table samples_stored, column stack_id: id 4294967280 at row"),
               fixed = TRUE)
  expect_error(pcol_top(f), f, fixed = TRUE)
  expect_error(pcol_validate(f), f, fixed = TRUE)
})

test_that("mutated files never crash R", {
  skip_without_testdata()
  files <- Filter(function(p) file.size(p) < 200000, vapply(packed(), `[`, "", 2))
  files <- files[seq(1, length(files), by = 9)]
  # one child R for all files (an Rscript and library(pcol) per file cost
  # more than the mutations): each file's seed is its index, as when a
  # child ran per file; it names each file before its mutations, so a crash
  # names the file it happened on
  script <- tempfile(fileext = ".R")
  writeLines(c(
    sprintf('library(pcol, lib.loc = %s)', deparse(dirname(find.package("pcol")))),
    'a <- commandArgs(TRUE); out <- a[1]; n <- as.integer(a[2]); files <- a[-(1:2)]',
    'for (k in seq_along(files)) {',
    '  cat("file", files[k], "\\n"); flush(stdout())',
    '  data <- readBin(files[k], "raw", 1e8); set.seed(k)',
    '  ok <- 0L; err <- 0L',
    '  for (i in seq_len(n)) {',
    '    b <- data',
    '    for (j in seq_len(sample(c(1, 2, 8), 1))) { pos <- sample(65:length(b), 1); b[pos] <- as.raw(sample(0:255, 1)) }',
    '    if (runif(1) < 0.1) b <- b[seq_len(sample(length(b), 1))]',
    '    writeBin(b, out)',
    '    r <- tryCatch({ p <- read_pcol(out, mmap = runif(1) < 0.7, max_rows = 1e7); invisible(lapply(p, function(d) lapply(d, function(x) if (is.character(x)) nchar(x) else sum(x))));',
    '                    pcol_top(out); pcol_top(out, by = "line"); "ok" }, error = function(e) {',
    '                    if (!startsWith(conditionMessage(e), out)) stop("message without the file: ", conditionMessage(e)); "error" })',
    '    if (r == "ok") ok <- ok + 1L else err <- err + 1L',
    '  }',
    '  cat("counts", ok, err, "\\n")',
    '}'), script)
  out <- system2(file.path(R.home("bin"), "Rscript"), c(script, tempfile(), 40, shQuote(files)), stdout = TRUE, stderr = TRUE)
  status <- attr(out, "status")
  last <- tail(grep("^file ", out, value = TRUE), 1)
  expect_true(is.null(status), info = paste("crash on mutations of", sub("^file ", "", last), paste(tail(out, 20), collapse = "\n")))
  counts <- do.call(rbind, lapply(strsplit(trimws(grep("^counts ", out, value = TRUE)), " "), function(x) as.numeric(x[2:3])))
  expect_equal(nrow(counts), length(files))
  total <- colSums(counts)
  expect_gt(total[2], 0)
  expect_equal(sum(total), 40 * length(files))
})
