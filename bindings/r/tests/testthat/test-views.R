# Every view of every test profile equals `pcol cat --format json`: the
# row count, and the first LIMIT rows cell by cell (the Python tests compare
# every row; parsing JSON in R is what takes the time here).
LIMIT <- 3000L

check_views <- function(p, path, ...) {
  ref <- cat_views(path, names(p), LIMIT, ...)
  for (view in names(p)) check_view(p[[view]], path, view, ref[[view]])
}

# One expectation per view (testthat's per-expectation cost dominated the
# run): the problems found, or none.
check_view <- function(p, path, view, ref) {
  expect(length(pr <- view_problems(p, view, ref)) == 0L,
         sprintf("%s view %s: %s", path, view, paste(pr, collapse = "; ")))
}

view_problems <- function(p, view, ref) {
  if (nrow(p) != ref$n) return(sprintf("%d rows, pcol cat %d", nrow(p), ref$n))
  want <- parse_json(ref$json)
  if (nrow(p) > LIMIT) p <- p[seq_len(LIMIT), , drop = FALSE]
  if (nrow(p) != (if (is.null(want)) 0L else nrow(want))) return("row count of the JSON differs")
  k <- kinds(view)
  if (!identical(names(p), names(k))) return(paste("columns", paste(names(p), collapse = ",")))
  if (is.null(want)) return(character(0))
  if (!identical(names(want), names(k))) return(paste("pcol cat's columns", paste(names(want), collapse = ",")))
  pr <- character(0)
  for (c in names(k)) {
    got <- p[[c]]
    exp <- json_column(want, c, k[[c]])
    type_ok <- switch(k[[c]], id = , ref = , count = is.integer(got), i64 = , u64 = , f64 = is.double(got),
                      bool = is.logical(got), str = is.character(got))
    if (!type_ok) pr <- c(pr, sprintf("column %s is %s", c, typeof(got)))
    ok <- identical(is.na(got), is.na(exp)) && all(got[!is.na(got)] == exp[!is.na(exp)])
    if (!ok) {
      i <- which(xor(is.na(got), is.na(exp)) | (!is.na(got) & !is.na(exp) & got != exp))[1]
      pr <- c(pr, sprintf("column %s row %d: read_pcol %s, pcol cat %s", c, i, format(got[i]), format(exp[i])))
    }
  }
  pr
}

test_that("every view of every test profile equals pcol cat", {
  skip_without_testdata()
  n <- 0
  for (x in packed()) {
    p <- read_pcol(x[2])
    expect_identical(names(p), pcol_views())
    check_views(p, x[2])
    n <- n + 1
  }
  expect_gt(n, 50)
})

test_that("altrep = FALSE and mmap = FALSE read the same", {
  skip_without_testdata()
  for (x in packed()[seq(1, length(packed()), by = 6)]) {
    a <- read_pcol(x[2])
    expect_identical(read_pcol(x[2], altrep = FALSE), a)
    expect_identical(read_pcol(x[2], mmap = FALSE), a)
  }
})

test_that("a selection of samples equals pcol cat --source --from --to", {
  skip_without_testdata()
  n <- 0
  for (x in representative()) { # a file of each format and feature
    t <- pcol_table(x[2], "samples")$time_ns
    t <- t[!is.na(t)]
    if (length(t) < 4) next
    lo <- unname(quantile(t, 0.25)) / 1e9
    hi <- unname(quantile(t, 0.75)) / 1e9
    p <- read_pcol(x[2], tables = c("samples", "sample_values", "sample_locations", "sample_labels"),
                   source = 1, from = lo, to = hi)
    check_views(p, x[2], "--source", "1", "--from", format(lo, digits = 17), "--to", format(hi, digits = 17))
    n <- n + 1
  }
  expect_gte(n, 4) # the representative files with times (Python's test_views selects on every file)
})

test_that("read_pcol of an Rprof, pprof or Perun file equals its packed file", {
  skip_without_testdata()
  for (x in packed()[1:60]) {
    if (grepl("\\.pcol$", x[1])) next
    expect_identical(read_pcol(x[1]), read_pcol(x[2]), info = x[1])
  }
})
