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

# The divisor R's results use for a unit (time in seconds, memory in bytes,
# GCU in GCU, a decimal unit "1e-D U" as U / 10^D), written out here rather
# than taken from the package: go tool pprof's unit names (any case, a
# plural 's' dropped past two letters), pcol's fs and ps.
r_div <- function(unit) r_unit_of(unit)$div
# of a text that writes a decimal unit's sums as decimals (pcol fold)
r_div_text <- function(unit) r_unit_of(unit)$div / r_unit_of(unit)$dec
# and the columns' kind: "time" (self.time), "bytes" (self.bytes) or ""
r_kind <- function(unit) r_unit_of(unit)$kind
r_unit_of <- function(unit) {
  if (is.null(unit) || is.na(unit)) return(list(div = 1, kind = "", dec = 1))
  d <- 1
  if (grepl("^1e-[1-9]$|^1e-[1-9] .", unit)) {
    d <- 10^as.integer(substr(unit, 4L, 4L))
    unit <- substring(unit, 6L)
  }
  u <- tolower(unit)
  if (nchar(u) > 2L) u <- sub("s$", "", u)
  ns <- c(fs = 1e-6, ps = 1e-3, ns = 1, nanosecond = 1, "\u03bcs" = 1e3, us = 1e3, microsecond = 1e3, ms = 1e6,
          millisecond = 1e6, s = 1e9, sec = 1e9, second = 1e9, hour = 3600e9, hr = 3600e9)
  b <- c(b = 1, byte = 1, kb = 1024, kbyte = 1024, kilobyte = 1024, mb = 1048576, mbyte = 1048576, megabyte = 1048576,
         gb = 1073741824, gbyte = 1073741824, gigabyte = 1073741824, tb = 1099511627776, tbyte = 1099511627776,
         terabyte = 1099511627776, pb = 1125899906842624, pbyte = 1125899906842624, petabyte = 1125899906842624)
  g <- c(nanogcu = 1e-9, microgcu = 1e-6, milligcu = 1e-3, gcu = 1, kilogcu = 1e3, megagcu = 1e6, gigagcu = 1e9,
         teragcu = 1e12, petagcu = 1e15)
  if (u %in% names(ns)) return(list(div = 1e9 / ns[[u]] * d, kind = "time", dec = d))
  if (u %in% names(b)) return(list(div = 1 / b[[u]] * d, kind = "bytes", dec = d))
  if (u %in% names(g)) return(list(div = 1 / g[[u]] * d, kind = "", dec = d))
  list(div = d, kind = "", dec = d)
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

# The views' comparisons with the CLI (test-top.R, test-query.R,
# test-value-opts.R): each R call against `pcol VIEW ... --format json`, or
# the CLI's error where it fails.

# a mean view's type ("mean_TYPE"; list's stays the value's) is the CLI's
expect_mean_type <- function(t, args, want, info) {
  if (isTRUE(args$mean)) expect_identical(attr(t, "type"), want$obj$type, info = info)
}

# args: R arguments of pcol_top; cli: the same as CLI options
compare_top <- function(path, args = list(), cli = character()) {
  info <- paste(path, paste(cli, collapse = " "))
  want <- cli_view("top", path, "--format", "json", cli)
  if (!want$ok) {
    expect_same_error(do.call(pcol_top, c(list(path), args)), want, path, info)
    return(0L)
  }
  o <- want$obj
  t <- do.call(pcol_top, c(list(path), args))
  expect_mean_type(t, args, want, info)
  div <- r_div(o$unit)
  expect_equal(attr(t, "total"), as.numeric(o$total) / div, info = info)
  expect_identical(attr(t, "raw_unit"), if (is.null(o$unit)) NA_character_ else o$unit, info = info)
  w <- o$rows
  if (length(w) == 0) {
    expect_equal(nrow(t), 0L, info = info)
    return(1L)
  }
  pct <- function(a, b, c) lapply(list(a, b, c), sprintf, fmt = "%.2f")
  expect_identical(list(t$name, vcol(t, "self"), vcol(t, "total"), ifelse(is.na(t$inline), NA_character_, t$inline),
                        pct(t$self.pct, t$sum.pct, t$total.pct)),
                   list(w$name, as.numeric(w$flat) / div, as.numeric(w$cum) / div, as.character(w$inline),
                        pct(w$flat_pct, w$sum_pct, w$cum_pct)), info = info)
  k <- r_kind(o$unit) # self.time, self.bytes, self: by the unit's family, whatever its spelling
  expect_identical(names(t)[c(2L, 5L)], if (nzchar(k)) paste0(c("self.", "total."), k) else c("self", "total"),
                   info = info)
  1L
}

compare_peek <- function(path, regex, args = list(), cli = character()) {
  info <- paste("peek", path, regex, paste(cli, collapse = " "))
  want <- cli_view("peek", path, regex, "--format", "json", cli)
  call <- function() do.call(pcol_peek, c(list(path, regex), args))
  if (!want$ok) return(expect_same_error(call(), want, path, info))
  t <- call()
  expect_mean_type(t, args, want, info)
  expect_tree_rows(t, want, info)
}

# peek's and tree's rows and total against the CLI's JSON
expect_tree_rows <- function(t, want, info) {
  w <- want$obj$rows
  div <- r_div(want$obj$unit)
  expect_equal(attr(t, "total"), as.numeric(want$obj$total) / div, info = info)
  if (!length(w)) return(expect_equal(nrow(t), 0L, info = info))
  p2 <- function(x) ifelse(is.na(x), NA, sprintf("%.2f", x))
  expect_identical(list(t$node, t$relation, t$name, vcol(t, "self"), vcol(t, "total"), t$value, p2(t$pct), t$inline),
                   list(w$node, w$relation, w$name, as.numeric(w$flat) / div, as.numeric(w$cum) / div,
                        as.numeric(w$value) / div, p2(as.numeric(w$pct)), as.logical(w$inline)), info = info)
}

compare_tree <- function(path, args = list(), cli = character()) {
  info <- paste("tree", path, paste(cli, collapse = " "))
  want <- cli_view("tree", path, "--format", "json", cli)
  call <- function() do.call(pcol_tree, c(list(path), args))
  if (!want$ok) return(expect_same_error(call(), want, path, info))
  t <- call()
  expect_mean_type(t, args, want, info)
  expect_tree_rows(t, want, info)
}

compare_traces <- function(path, args = list(), cli = character()) {
  info <- paste("traces", path, paste(cli, collapse = " "))
  want <- cli_view("traces", path, "--format", "json", cli)
  call <- function() do.call(pcol_traces, c(list(path), args))
  if (!want$ok) return(expect_same_error(call(), want, path, info))
  w <- want$obj$rows
  t <- call()
  expect_mean_type(t, args, want, info)
  if (!length(w)) return(expect_equal(nrow(t), 0L, info = info))
  div <- r_div(want$obj$unit)
  expect_identical(list(t$value, t$labels, t$stack), list(as.numeric(w$value) / div, w$labels, w$stack), info = info)
}

compare_list <- function(path, regex, args = list(), cli = character()) {
  info <- paste("list", path, regex, paste(cli, collapse = " "))
  want <- cli_view("list", path, regex, "--format", "json", cli)
  call <- function() do.call(pcol_list, c(list(path, regex), args))
  if (!want$ok) return(expect_same_error(call(), want, path, info))
  w <- want$obj$rows
  t <- call()
  expect_mean_type(t, args, want, info)
  div <- r_div(want$obj$unit)
  expect_equal(attr(t, "total"), as.numeric(want$obj$total) / div, info = info)
  if (!length(w)) return(expect_equal(nrow(t), 0L, info = info))
  expect_identical(list(t$`function`, t$file, t$line, vcol(t, "self"), vcol(t, "total"), t$text),
                   list(as.character(w$`function`), w$file, as.numeric(w$line), as.numeric(w$flat) / div,
                        as.numeric(w$cum) / div, as.character(w$text)), info = info)
}

# the name of a function in the file, escaped as a literal regular expression
top_re <- function(p) {
  t <- tryCatch(pcol_top(p, limit = 1), error = function(e) NULL)
  if (is.null(t) || !nrow(t)) return(NULL)
  lit_re(t$name[1])
}
