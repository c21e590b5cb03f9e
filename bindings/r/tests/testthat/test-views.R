# Every view of every test profile equals `pcol cat --format json`: the
# row count, and the first LIMIT rows cell by cell (the Python tests compare
# every row; parsing JSON in R is what takes the time here).
LIMIT <- 3000L

check_views <- function(p, path, ...) {
  ref <- cat_views(path, names(p), LIMIT, ...)
  for (view in names(p)) check_view(p[[view]], path, view, ref[[view]])
}

check_view <- function(p, path, view, ref) {
  expect_equal(nrow(p), ref$n, info = paste(path, view))
  want <- parse_json(ref$json)
  if (nrow(p) > LIMIT) p <- p[seq_len(LIMIT), , drop = FALSE]
  expect_equal(nrow(p), if (is.null(want)) 0L else nrow(want), info = paste(path, view))
  k <- kinds(view)
  expect_identical(names(p), names(k))
  if (is.null(want)) return(invisible())
  expect_identical(names(want), names(k))
  for (c in names(k)) {
    got <- p[[c]]
    exp <- json_column(want, c, k[[c]])
    if (k[[c]] %in% c("id", "ref", "count")) expect_true(is.integer(got), info = paste(view, c))
    if (k[[c]] %in% c("i64", "u64", "f64")) expect_true(is.double(got), info = paste(view, c))
    if (k[[c]] == "bool") expect_true(is.logical(got), info = paste(view, c))
    if (k[[c]] == "str") expect_true(is.character(got), info = paste(view, c))
    ok <- identical(is.na(got), is.na(exp)) && all(got[!is.na(got)] == exp[!is.na(exp)])
    if (!ok) {
      i <- which(xor(is.na(got), is.na(exp)) | (!is.na(got) & !is.na(exp) & got != exp))[1]
      fail(sprintf("%s view %s column %s row %d: read_pcol %s, pcol cat %s", path, view, c, i,
                   format(got[i]), format(exp[i])))
    }
  }
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
  for (x in packed()) {
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
  expect_gt(n, 10)
})

test_that("read_pcol of an Rprof, pprof or Perun file equals its packed file", {
  skip_without_testdata()
  for (x in packed()[1:60]) {
    if (grepl("\\.pcol$", x[1])) next
    expect_identical(read_pcol(x[1]), read_pcol(x[2]), info = x[1])
  }
})
