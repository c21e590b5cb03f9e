# `pcol VIEW ... --format json` for the view tests: list(ok, obj, err), obj
# the parsed object (type, unit, total, filters, rows).
cli_view <- function(...) {
  r <- run_pcol(c(...), check = FALSE)
  if (r$status != 0) return(cli_err(r$stderr))
  txt <- rawToChar(r$stdout)
  Encoding(txt) <- "UTF-8"
  txt <- gsub("\\u0000", "\\ufffd", txt, fixed = TRUE) # R strings cannot hold NUL
  list(ok = TRUE, obj = jsonlite::fromJSON(txt, simplifyVector = TRUE))
}

# The divisor R's results use for a unit (seconds, bytes), written out here
# rather than taken from the package: nanoseconds read as seconds.
r_div <- function(unit) {
  if (is.null(unit) || is.na(unit)) return(1)
  switch(unit, nanoseconds = 1e9, microseconds = 1e6, milliseconds = 1e3, 1)
}

# an R call fails where the CLI failed, with the CLI's message (the R one
# may name the file in front)
expect_same_error <- function(expr, cli, path, info = NULL) {
  e <- tryCatch({ force(expr); NULL }, error = function(e) conditionMessage(e))
  expect_true(is.character(e) && any(e == c(cli$err, paste0(path, ": ", cli$err))) ||
                is.character(e) && grepl(cli$err, e, fixed = TRUE),
              info = paste(info, "R:", e, "CLI:", cli$err))
}

# the column of a view that holds flat (self) or cum (total) in R
vcol <- function(df, which) df[[grep(paste0("^", which, "(\\.|$)"), names(df))[1]]]

# files of one test-data folder (as packed()) or all
packed_in <- function(re) Filter(function(x) grepl(re, x[1]), packed())

# the label keys of a file (for by = "label:KEY" and tag filters)
label_keys <- function(path) {
  sl <- pcol_table(path, "sample_labels")
  unique(sl$key[!is.na(sl$key)])
}

# the CLI's error: the last line of its standard error (warnings come first)
cli_err <- function(stderr) {
  l <- strsplit(stderr, "\n", fixed = TRUE)[[1]]
  list(ok = FALSE, err = sub("^pcol [a-z]+: ", "", l[length(l)]))
}

# a name as a literal POSIX extended regular expression
lit_re <- function(x) gsub("([][.*+?^${}()|\\\\])", "\\\\\\1", x, perl = TRUE)
