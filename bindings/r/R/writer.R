# The streaming writer (libpcol's pcol_writer): samples added one by one or
# in batches, written at close, or rolled into a new complete file every
# roll_samples samples or roll_seconds seconds.  Stacks are root first (as
# pcol_fold prints them).  The C side (src/writer_r.c) takes flat vectors:
# this file flattens R's lists into them.

# default: the value the files' views add up when none is named ("TYPE" or
# "TYPE/UNIT" of one of values); without it the last value type (pprof's
# rule), stored as the meta pprof.default_sample_type (libpcol's rule)
pcol_writer <- function(path, values = "samples/count", source_type = "r", source_uri = NULL,
                        period = NULL, meta = NULL, roll_samples = 0, roll_seconds = 0, compress = FALSE,
                        default = NULL) {
  if (!is.character(values) || !length(values) || any(!grepl("/", values, fixed = TRUE)))
    stop("values are value types \"TYPE/UNIT\", e.g. \"cpu/nanoseconds\"", call. = FALSE)
  vt <- regmatches(values, regexpr("/", values, fixed = TRUE), invert = TRUE)
  pv <- 0; pt <- NULL; pu <- NULL
  if (!is.null(period)) { # c(10000000, "cpu/nanoseconds") or list(10000000, "cpu/nanoseconds")
    if (length(period) != 2L || !grepl("/", period[[2]], fixed = TRUE))
      stop("period is list(VALUE, \"TYPE/UNIT\")", call. = FALSE)
    pv <- as.numeric(period[[1]])
    ptu <- strsplit(as.character(period[[2]]), "/", fixed = TRUE)[[1]]
    pt <- ptu[1]; pu <- paste(ptu[-1], collapse = "/")
  }
  if (!(is.numeric(roll_seconds) && length(roll_seconds) == 1L && roll_seconds >= 0))
    stop("roll_seconds must be a number >= 0", call. = FALSE)
  meta <- unlist(meta)
  if (!is.null(default)) {
    key <- "pprof.default_sample_type"
    if (!is.character(default) || length(default) != 1L || is.na(default) ||
        !(default %in% c(vapply(vt, `[`, "", 1L), values)))
      stop("default must be \"TYPE\" or \"TYPE/UNIT\" of one of values (", paste(values, collapse = ", "), ")",
           call. = FALSE)
    if (key %in% names(meta)) stop("give default or meta's ", key, ", not both", call. = FALSE)
    meta <- c(meta, structure(strsplit(default, "/", fixed = TRUE)[[1]][1], names = key))
  }
  w <- .Call(C_writer_open, path, vapply(vt, `[`, "", 1L), vapply(vt, `[`, "", 2L), source_type, source_uri,
             as.character(names(meta)), as.character(unname(meta)), pv, pt, pu, as.numeric(roll_samples),
             round(roll_seconds * 1e9), compress)
  attr(w, "nvalues") <- length(values)
  w
}

# stack: root first, a character vector of function names or a data frame
# with columns `function` and optionally `file`, `line` (one sample); or a
# list of these (a batch).  values: one per value type (one sample), or a
# matrix with a row per sample (a vector when there is one value type).
# time: POSIXct or seconds since the epoch, one per sample (NA: none).
# labels: a named list (key = string or number) per sample.
pcol_writer_add <- function(w, stack, values, time = NULL, labels = NULL, weight = NULL) {
  k <- attr(w, "nvalues")
  one <- !is.list(stack) || is.data.frame(stack)
  if (one) {
    stack <- list(stack)
    if (!is.null(labels)) labels <- list(labels)
    values <- matrix(values, nrow = 1L)
  } else if (is.null(dim(values))) {
    values <- matrix(values, ncol = k)
  }
  n <- length(stack)
  if (!is.numeric(values) || nrow(values) != n || ncol(values) != k)
    stop(sprintf("values: %d samples of %d values expected", n, k), call. = FALSE)
  frames <- lapply(stack, function(s) {
    if (is.data.frame(s)) s else data.frame(`function` = as.character(s), check.names = FALSE)
  })
  nf <- vapply(frames, nrow, 1L)
  fn <- unlist(lapply(frames, function(f) as.character(f[["function"]])), use.names = FALSE)
  located <- any(vapply(frames, function(f) !is.null(f$file) || !is.null(f$line), TRUE))
  col <- function(name, na) unlist(lapply(frames, function(f) if (is.null(f[[name]])) rep(na, nrow(f)) else f[[name]]),
                                   use.names = FALSE)
  file <- if (located) as.character(col("file", NA_character_)) else NULL
  line <- if (located) as.numeric(col("line", NA_real_)) else NULL
  tns <- NULL
  if (!is.null(time)) {
    if (length(time) != n) stop(sprintf("time: %d for %d samples", length(time), n), call. = FALSE)
    tns <- round(as.numeric(time) * 1e9)
  }
  if (!is.null(weight) && length(weight) != n) stop(sprintf("weight: %d for %d samples", length(weight), n), call. = FALSE)
  loff <- lkey <- lstr <- lnum <- NULL
  if (!is.null(labels)) {
    if (length(labels) != n) stop(sprintf("labels: %d for %d samples", length(labels), n), call. = FALSE)
    nl <- vapply(labels, length, 1L)
    loff <- c(0, cumsum(nl))
    lab <- unlist(lapply(labels, as.list), recursive = FALSE, use.names = TRUE)
    lkey <- as.character(names(lab) %||% character())
    if (length(lab) && (any(is.na(lkey)) || any(!nzchar(lkey)))) stop("labels must be named", call. = FALSE)
    isnum <- vapply(lab, is.numeric, TRUE)
    lstr <- rep(NA_character_, length(lab))
    lnum <- rep(0, length(lab))
    lstr[!isnum] <- vapply(lab[!isnum], function(x) as.character(x)[1], "")
    lnum[isnum] <- vapply(lab[isnum], function(x) as.numeric(x)[1], 0)
  }
  invisible(.Call(C_writer_add, w, c(0, cumsum(nf)), fn, file, line, as.numeric(t(values)), k, tns,
                  if (is.null(weight)) NULL else as.numeric(weight), loff, lkey, lstr, lnum))
}

`%||%` <- function(a, b) if (is.null(a)) b else a

# Writes the current file now / rolls it if roll_seconds have passed.
pcol_writer_flush <- function(w) invisible(.Call(C_writer_op, w, "flush"))
pcol_writer_poll <- function(w) invisible(.Call(C_writer_op, w, "poll"))
# Writes the current file and closes the writer: the files written.
pcol_writer_close <- function(w) .Call(C_writer_op, w, "close")
# The files written so far (their final names); samples not yet written.
pcol_writer_files <- function(w) .Call(C_writer_op, w, "files")
pcol_writer_pending <- function(w) .Call(C_writer_op, w, "pending")

print.pcol_writer <- function(x, ...) {
  open <- .Call(C_writer_op, x, "open")
  cat(sprintf("<pcol writer: %d files written, %d samples pending%s>\n", length(pcol_writer_files(x)),
              as.integer(pcol_writer_pending(x)), if (open) "" else ", closed"))
  invisible(x)
}
