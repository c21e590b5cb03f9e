# pcol for R: profile tables from pcol files (and every format pcol reads).
# The C side (src/pcol_r.c) hands out ALTREP vectors over the mapped file;
# see README.md for types, lifetimes and measurements.

#' The names of the logical views (spec.md "Logical views"), in the order
#' read_pcol returns them.
pcol_views <- function() .Call(C_views)

pcol_version <- function() .Call(C_version)

.open <- function(path, mmap = TRUE) {
  if (!is.character(path) || length(path) != 1L || is.na(path))
    stop("path must be one file name", call. = FALSE)
  .Call(C_open, path, isTRUE(mmap))
}

.sel <- function(source, from, to, max_rows) {
  num1 <- function(x, what) {
    if (is.null(x)) return(NULL)
    if (!is.numeric(x) || length(x) != 1L || is.na(x)) stop(what, " must be one number", call. = FALSE)
    as.double(x)
  }
  list(num1(source, "source"), .time1(from, "from"), .time1(to, "to"), num1(max_rows, "max_rows"))
}

# from, to: seconds since the source's start (one number, or a string with
# a unit: "250ms", "2s"), or a wall-clock
# time as the CLI's --from/--to take it (one string: RFC 3339 with a zone,
# "2026-11-23T10:00:00Z", or "@EPOCH_SECONDS"; the C side parses it with
# libpcol's pcol_time_parse), or one POSIXct/POSIXlt: its instant (seconds
# since the epoch, UTC-based whatever its tzone) as "@SECONDS.UUUUUU", to the
# microsecond R prints it to (digits.secs at most 6; review 19b F1: refused)
.time1 <- function(x, what) {
  if (is.null(x)) return(NULL)
  if (inherits(x, "POSIXt")) {
    x <- as.numeric(as.POSIXct(x))
    if (length(x) != 1L || !is.finite(x))
      stop(what, " must be one time: a POSIXct of length 1, not NA", call. = FALSE)
    return(sprintf("@%.6f", x))
  }
  if (is.character(x) && length(x) == 1L && !is.na(x)) return(enc2utf8(x))
  if (!is.numeric(x) || length(x) != 1L || is.na(x))
    stop(what, " must be one number (seconds since the start) or one time (\"2026-11-23T10:00:00Z\", \"@EPOCH\", a POSIXct)",
         call. = FALSE)
  as.double(x)
}

# a list(nrows, columns) from C into a data frame; NULL columns are row ids
.as_df <- function(e) {
  n <- e[[1L]]
  cols <- e[[2L]]
  for (k in seq_along(cols)) if (is.null(cols[[k]])) cols[[k]] <- seq_len(n)
  class(cols) <- "data.frame"
  attr(cols, "row.names") <- .set_row_names(n)
  cols
}

read_pcol <- function(path, tables = NULL, mmap = TRUE, altrep = TRUE,
                      source = NULL, from = NULL, to = NULL, max_rows = 2^31 - 1) {
  f <- .open(path, mmap)
  # without ALTREP no vector refers to the file: close it now, not at the next GC
  if (!isTRUE(altrep)) on.exit(.Call(C_close, f))
  views <- if (is.null(tables)) pcol_views() else as.character(tables)
  res <- .Call(C_tables, f, views, isTRUE(altrep), .sel(source, from, to, max_rows))
  out <- lapply(res, .as_df)
  names(out) <- views
  out
}

pcol_table <- function(path, table, ...) {
  if (!is.character(table) || length(table) != 1L) stop("table must be one view name", call. = FALSE)
  read_pcol(path, tables = table, ...)[[1L]]
}

pcol_validate <- function(path, mmap = TRUE) {
  f <- .open(path, mmap)
  on.exit(.Call(C_close, f))
  .Call(C_validate, f)
  invisible(TRUE)
}

# ---------------------------------------------------------------- writing

.is_profile_v1 <- function(p) {
  all(c("meta", "sample_types", "samples", "locations", "functions") %in% names(p)) &&
    is.list(p$samples$locations) && !("sample_locations" %in% names(p))
}

# profile v1 (r-prof/profile: samples aggregated, a list column of
# locations) into the v2 tables: one sample row per v1 row, its value as
# the weight (samples/count) or as a sample value of the one sample type.
# The source type comes from the hidden component read_rprof (.rprof) or
# read_pprof (.msg) leaves, as the profile package's v2 plan infers it.
.from_profile_v1 <- function(p) {
  st <- p$sample_types
  if (NROW(st) != 1L) stop("write_pcol: a profile v1 list must have one sample type", call. = FALSE)
  s <- p$samples
  n <- NROW(s)
  locs <- s$locations
  nl <- vapply(locs, NROW, integer(1))
  lid <- unlist(lapply(locs, function(x) x$location_id), use.names = FALSE)
  value <- s$value
  counts <- identical(as.character(st$type), "samples") && identical(as.character(st$unit), "count")
  samples <- data.frame(sample_id = seq_len(n), source_id = rep(1L, n),
                        weight = if (counts) value else rep(1L, n))
  out <- list(
    meta = data.frame(key = as.character(p$meta$key), value = as.character(p$meta$value),
                      source_id = rep(NA_integer_, NROW(p$meta)), stringsAsFactors = FALSE),
    sources = data.frame(source_id = 1L,
                         source_type = if (!is.null(p$.rprof)) "rprof" else if (!is.null(p$.msg)) "pprof" else "profile",
                         source_uri = NA_character_,
                         source_timestamp = NA_real_, stringsAsFactors = FALSE),
    samples = samples,
    sample_locations = data.frame(sample_id = rep(seq_len(n), nl), depth = sequence(nl),
                                  location_id = if (is.null(lid)) integer(0) else lid),
    locations = as.data.frame(p$locations)[c("location_id", "function_id", "line")],
    functions = as.data.frame(p$functions)[c("function_id", "name", "system_name", "filename", "start_line")]
  )
  if (!counts)
    out$sample_values <- data.frame(sample_id = seq_len(n), type = rep(as.character(st$type), n),
                                    unit = rep(as.character(st$unit), n), value = value,
                                    stringsAsFactors = FALSE)
  out
}

write_pcol <- function(p, path, compress = FALSE) {
  if (!is.list(p) || is.null(names(p)))
    stop("write_pcol: p must be a named list of data frames", call. = FALSE)
  if (!is.character(path) || length(path) != 1L || is.na(path))
    stop("write_pcol: path must be one file name", call. = FALSE)
  if (.is_profile_v1(p)) p <- .from_profile_v1(p)
  tabs <- list()
  for (nm in intersect(names(p), pcol_views())) {
    df <- p[[nm]]
    if (!is.data.frame(df)) stop(sprintf("write_pcol: p$%s must be a data frame", nm), call. = FALSE)
    cols <- lapply(as.list(df), function(x) {
      if (inherits(x, "integer64")) stop(sprintf("write_pcol: p$%s: integer64 columns are not supported; use as.numeric", nm), call. = FALSE)
      if (is.factor(x)) x <- as.character(x)
      if (is.character(x)) x <- enc2utf8(x)
      x
    })
    attr(cols, "pcol.nrows") <- nrow(df)
    tabs[[nm]] <- cols
  }
  .Call(C_write, tabs, path, isTRUE(compress))
  invisible(path)
}
