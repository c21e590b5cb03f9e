# Stored columns are ALTREP vectors over the mapped file: they keep it
# mapped while they live, copy themselves when written to, and the file is
# unmapped when the last one is gone.
inspect <- function(x) paste(utils::capture.output(.Internal(inspect(x))), collapse = "\n")

biggest <- function() {
  best <- NULL
  for (x in packed()) {
    if (grepl("--(compress|zstd|blocks)\\.pcol$", x[2])) next
    s <- read_pcol(x[2], tables = "samples", altrep = FALSE)$samples
    if (length(unique(s$time_ns)) > 1 && (is.null(best) || nrow(s) > best[[1]])) best <- list(nrow(s), x[2])
  }
  # its plain copy (format 1.2): format 1.3's encoded columns are
  # materialised vectors, not ALTREP over the mapping
  plain <- paste0(best[[2]], ".plain.pcol")
  system2(PCOL, c("pack", best[[2]], "-o", plain, "--format-version", "1.2"))
  plain
}

test_that("stored numeric columns are ALTREP over the mapping; computed ones are not", {
  skip_without_testdata()
  f <- biggest()
  s <- pcol_table(f, "samples")
  expect_match(inspect(s$time_ns), "pcol i64 column over the file's memory")
  expect_match(inspect(s$stack_id), "pcol ref column over the file's memory")
  expect_false(grepl("pcol", inspect(pcol_table(f, "sample_locations")$depth)))
  expect_false(grepl("pcol", inspect(pcol_table(f, "samples", altrep = FALSE)$time_ns)))
  expect_identical(s, pcol_table(f, "samples", altrep = FALSE))
})

test_that("columns keep the file mapped; the last one gone unmaps it", {
  skip_without_testdata()
  f <- biggest()
  gc()
  expect_length(mapped(f), 0L)
  t <- pcol_table(f, "samples")$time_ns
  gc()
  expect_gt(length(mapped(f)), 0L) # only the column refers to the file now
  expect_identical(t, pcol_table(f, "samples", altrep = FALSE)$time_ns)
  rm(t)
  gc()
  expect_length(mapped(f), 0L)
  x <- pcol_top(f)
  p <- read_pcol(f, altrep = FALSE)
  expect_length(mapped(f), 0L) # closed at once, without waiting for the GC
  p <- read_pcol(f, mmap = FALSE)
  expect_length(mapped(f), 0L)
})

test_that("writing to a column copies it; the file is unchanged", {
  skip_without_testdata()
  f <- biggest()
  before <- unname(tools::md5sum(f))
  s <- pcol_table(f, "samples")
  t <- s$time_ns
  t[1] <- -1
  expect_identical(t[1], -1)
  expect_match(inspect(t), "pcol i64 column over the file's memory.*copied|REALSXP", all = FALSE)
  expect_false(identical(t[1], s$time_ns[1]))
  id <- s$stack_id
  id[2] <- 0L
  expect_identical(id[2], 0L)
  expect_identical(unname(tools::md5sum(f)), before)
  r <- tempfile(fileext = ".rds")
  saveRDS(s, r)
  expect_identical(readRDS(r), pcol_table(f, "samples", altrep = FALSE))
})

test_that("max_rows and unknown views", {
  skip_without_testdata()
  f <- biggest()
  n <- nrow(pcol_table(f, "sample_locations"))
  expect_error(pcol_table(f, "sample_locations", max_rows = n - 1), "max_rows")
  expect_equal(nrow(pcol_table(f, "sample_locations", max_rows = n)), n)
  expect_error(read_pcol(f, tables = "sample"), "no view named 'sample'")
})

test_that("columns the file does not store are ALTREP constants", {
  skip_without_testdata()
  n <- 0L
  for (x in packed()[seq(1, length(packed()), by = 5)]) {
    s <- pcol_table(x[2], "samples")
    e <- pcol_table(x[2], "samples", altrep = FALSE)
    for (c in names(s)) {
      if (!grepl("of one value", inspect(s[[c]]))) next
      expect_identical(s[[c]], e[[c]])
      expect_length(unique(e[[c]]), 1L)
      v <- s[[c]]
      v[1] <- if (is.integer(v)) 42L else 42
      expect_identical(v[1:2], c(if (is.integer(v)) 42L else 42, e[[c]][2]))
      n <- n + 1L
    }
  }
  expect_gt(n, 5L)
})

# R has no 64-bit integer: a whole number past 2^53 that a double cannot
# hold is rounded, and R says so, once (review 19b F3: silent, documented
# only); one a double holds (2^60, 2^53 + 2) says nothing.
big_collapsed <- function(n, m = "1") {
  f <- tempfile(fileext = ".collapsed")
  writeLines(c(paste("main;a", n), paste("main;b", m)), f)
  f
}

test_that("a value past 2^53 is rounded with one warning, when R reads it", {
  f <- big_collapsed("9007199254740993")
  p <- tempfile(fileext = ".pcol")
  on.exit(unlink(c(f, p)))
  run_pcol("pack", f, "-o", p, "--format-version", "1.2") # its weight column stored as it is
  rounded <- "values past 2\\^53 are rounded.*: 9007199254740993 is 9007199254740992 here"
  s <- expect_silent(pcol_table(p, "samples")) # nothing read yet
  expect_match(inspect(s$weight), "pcol i64 column over the file's memory")
  expect_warning(w <- s$weight[1:2], paste0("^", p, ": samples\\$weight: ", rounded))
  expect_identical(w, c(9007199254740992, 1))
  expect_silent(sum(s$weight)) # once per column
  expect_warning(pcol_table(p, "samples", altrep = FALSE), paste0("samples\\$weight: ", rounded))
  # a selection's columns are computed: said when the view is made
  expect_warning(v <- pcol_table(f, "samples", source = 1)$weight, paste0("samples\\$weight: ", rounded))
  expect_identical(v, c(9007199254740992, 1))
  # the views' sums: one warning a call, naming it
  expect_warning(t <- pcol_top(f), paste0("^", f, ": pcol_top: ", rounded))
  expect_identical(t$self[t$name != "main"], c(9007199254740992, 1))
  expect_warning(pcol_fold(f), paste0("pcol_fold: ", rounded))
  expect_warning(pcol_tree(f), paste0("pcol_tree: ", rounded))
  expect_warning(pcol_traces(f), paste0("pcol_traces: ", rounded))
  g <- big_collapsed("1")
  expect_warning(pcol_diff(g, f, absolute = TRUE), paste0("pcol_diff: ", rounded))
  unlink(g)
  for (n in c("1152921504606846976", "9007199254740994")) { # 2^60, 2^53 + 2, and their sums: exact
    g <- big_collapsed(n, n)
    expect_silent(t <- pcol_top(g))
    expect_identical(t$self[1], as.numeric(n))
    expect_identical(sprintf("%.0f", t$self[1]), n)
    expect_silent(sum(pcol_table(g, "samples")$weight))
    expect_silent(pcol_table(g, "sample_values", altrep = FALSE))
    unlink(g)
  }
})
