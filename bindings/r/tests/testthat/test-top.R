# pcol_top gives the numbers of `pcol top`, and fails where it fails.
values_for <- function(path) {
  vt <- pcol_table(path, "value_types")
  v <- c(list(NULL, "weight"), as.list(paste(vt$type, vt$unit, sep = "/")[!is.na(vt$type) & !is.na(vt$unit)]))
  if ("vsize.small" %in% vt$type) v <- c(v, list("rprof.alloc"))
  v
}

compare_top <- function(path, by, value) {
  args <- c("top", path, "--by", by, "--format", "json", if (!is.null(value)) c("--value", value))
  r <- run_pcol(args, check = FALSE)
  if (r$status != 0) {
    cli <- sub("^pcol top: ", "", r$stderr)
    e <- tryCatch(pcol_top(path, by = by, value = value), error = function(e) conditionMessage(e))
    expect_true(is.character(e) && e %in% c(cli, paste0(path, ": ", cli)), info = paste(path, by, value, e))
    return(0L)
  }
  txt <- rawToChar(r$stdout)
  Encoding(txt) <- "UTF-8"
  txt <- gsub("\\u0000", "\\ufffd", txt, fixed = TRUE) # R strings cannot hold NUL
  want <- jsonlite::fromJSON(txt, simplifyVector = TRUE)$rows # with type, unit, total, filters
  t <- pcol_top(path, by = by, value = value)
  if (length(want) == 0) {
    expect_equal(nrow(t), 0L)
    return(1L)
  }
  pct <- function(d) lapply(d[c("flat_pct", "sum_pct", "cum_pct")], sprintf, fmt = "%.2f")
  expect_identical(list(t$name, t$flat, t$cum, pct(t)),
                   list(want$name, as.numeric(want$flat), as.numeric(want$cum), pct(want)),
                   info = paste(path, by, value))
  1L
}

test_that("pcol_top equals pcol top for every value and key", {
  skip_without_testdata()
  n <- 0L
  for (x in packed()) {
    for (v in values_for(x[2])) n <- n + compare_top(x[2], "function", v)
    for (by in c("line", "file")) n <- n + compare_top(x[2], by, NULL)
  }
  expect_gt(n, 3L * length(packed()))
})

test_that("pcol_top reads Rprof and pprof files directly", {
  skip_without_testdata()
  n <- 0L
  for (x in packed()) if (grepl("/(rprof|pprof)/", x[1])) n <- n + compare_top(x[1], "function", NULL)
  expect_gte(n, 20L)
})

test_that("pcol_top: a time range and bad arguments", {
  skip_without_testdata()
  path <- packed()[[1]][2]
  r <- run_pcol("top", path, "--format", "json", "--source", "1", "--from", "0.05", "--to", "0.5", check = FALSE)
  if (r$status == 0) {
    want <- jsonlite::fromJSON(rawToChar(r$stdout))$rows
    t <- pcol_top(path, source = 1, from = 0.05, to = 0.5)
    if (length(want)) expect_identical(t$flat, as.numeric(want$flat))
  }
  expect_error(pcol_top(path, by = "module"))
  expect_error(pcol_top(path, value = "no-such-value"), path, fixed = TRUE)
  expect_error(pcol_top(path, from = 2, to = 1), "after")
})
