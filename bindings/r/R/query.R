# The CLI's views (pcol top, peek, list, tags, traces, diff, fold) as data
# frames, in R's units: time in seconds, memory in bytes.  The numbers are
# libpcol's, computed by the calls tools/cmd_*.c make (src/query_r.c); this
# file converts units and names columns as summaryRprof does.

# The selection and filters every view takes, as `pcol VIEW` takes them:
# --source --from --to (seconds since the source's start, or a wall-clock
# time: "2026-11-23T10:00:00Z", "@EPOCH"), --focus
# --ignore --hide --show --tag --tag-ignore --show-from --tagshow --taghide
# (regular expressions, pprof's semantics), --no-inlines,
# --relative-percentages, --tagroot --tagleaf (--unit: tagunit), --base
# --diff-base and --normalize.
.query <- function(source = NULL, from = NULL, to = NULL, focus = NULL, ignore = NULL,
                   hide = NULL, show = NULL, tag = NULL, tag_ignore = NULL, show_from = NULL,
                   tagshow = NULL, taghide = NULL, no_inlines = FALSE,
                   relative_percentages = FALSE, tagroot = NULL, tagleaf = NULL,
                   tagunit = NULL, base = NULL, diff_base = NULL, normalize = FALSE,
                   divide_by = NULL) {
  # one rule with the CLI's machine formats (tools/cli_view.c)
  if (!is.null(divide_by))
    stop("divide_by: a view's numbers are raw, as those of `pcol VIEW --format json`, which ",
         "refuses --divide-by (pprof's -divide_by is for the text, pcol unpack --to pprof and ",
         "flame); divide the columns instead", call. = FALSE)
  num1 <- function(x, what) {
    if (is.null(x)) return(NULL)
    if (!is.numeric(x) || length(x) != 1L || is.na(x)) stop(what, " must be one number", call. = FALSE)
    as.double(x)
  }
  re1 <- function(x, what) {
    if (is.null(x)) return(NULL)
    if (!is.character(x) || length(x) != 1L || is.na(x)) stop(what, " must be one regular expression", call. = FALSE)
    if (!nzchar(x)) return(NULL) # an empty expression is none, as pprof (and the CLI) read it
    enc2utf8(x)
  }
  q <- list(num1(source, "source"), .time1(from, "from"), .time1(to, "to"), re1(focus, "focus"),
            re1(ignore, "ignore"), re1(hide, "hide"), re1(show, "show"), re1(tag, "tag"),
            re1(tag_ignore, "tag_ignore"), re1(show_from, "show_from"), re1(tagshow, "tagshow"),
            re1(taghide, "taghide"), isTRUE(no_inlines), isTRUE(relative_percentages))
  # pprof's -tagroot/-tagleaf: the file is read with label frames (.with_file)
  keys <- function(x, what) {
    if (is.null(x)) return(NULL)
    if (!is.character(x) || anyNA(x) || !length(x)) stop(what, " must name label keys", call. = FALSE)
    enc2utf8(paste(x, collapse = ","))
  }
  # tagunit: their numbers' unit, pprof's -unit (NULL: its default, minimum)
  if (!is.null(tagunit) && (!is.character(tagunit) || length(tagunit) != 1L || is.na(tagunit)))
    stop("tagunit must be one unit, e.g. \"kB\" or \"ms\"", call. = FALSE)
  attr(q, "frames") <- list(keys(tagroot, "tagroot"), keys(tagleaf, "tagleaf"), tagunit)
  # pprof's -base/-diff_base: the file is read minus that profile (.with_file)
  if (!is.null(base) && !is.null(diff_base)) stop("give base or diff_base, not both", call. = FALSE)
  b <- if (is.null(diff_base)) base else diff_base
  if (!is.null(b) && (!is.character(b) || length(b) != 1L || is.na(b)))
    stop("base must be one file name", call. = FALSE)
  # pprof -normalize: the file first scaled to the base's totals
  if (is.null(b) && isTRUE(normalize))
    stop("normalize scales to a base profile: give base or diff_base (pprof: must have base profile to normalize by)",
         call. = FALSE)
  # source and the range are each side's, taken before the two are
  # compared (the CLI's --source N --from --to with --base: source N of
  # each side); the views then read the union's two sources in that range
  attr(q, "base") <- if (is.null(b)) NULL else list(b, !is.null(diff_base), isTRUE(normalize), q[[1]], q[[2]], q[[3]])
  if (!is.null(b)) q[1] <- list(NULL)
  q
}

# pprof -mean (the CLI's --mean): TRUE or FALSE (with a base too, as pprof
# -mean -base: the differences over the counts' differences)
.mean <- function(mean, ...) isTRUE(mean)

.str1 <- function(x, what, null_ok = TRUE) {
  if (is.null(x) && null_ok) return(NULL)
  if (!is.character(x) || length(x) != 1L || is.na(x)) stop(what, " must be one string", call. = FALSE)
  enc2utf8(x)
}

# How a unit reads in R: time in seconds, memory in bytes, any other unit
# as the number it holds (a decimal unit "1e-D U", a collapsed file's
# decimal counts or a Perun amount, divided by 10^D), by THE unit rule
# (pcol_unit_base, lib/core/unit_scale.c, through C_unit_base): "ns" and
# "nanoseconds" alike.  list(divisor, unit, kind, decimals): kind "time",
# "bytes" or "" names the columns (self.time as summaryRprof; self.bytes;
# self); decimals, D of a decimal unit (a text that writes its sums as
# decimals, pcol fold's, is divided by div / 10^D).
.r_unit <- function(unit) {
  if (is.na(unit)) return(list(div = 1, unit = unit, kind = "", decimals = 0L))
  b <- .Call(C_unit_base, unit)
  kind <- if (b$base == "s") "time" else if (b$base == "B") "bytes" else ""
  list(div = b$div, unit = switch(kind, time = "seconds", bytes = "bytes", b$base), kind = kind, decimals = b$decimals)
}
.vname <- function(base, ru) if (nzchar(ru$kind)) paste(base, ru$kind, sep = ".") else base
.pct <- function(v, total) if (total != 0) 100 * v / total else rep(0, length(v))

.df <- function(cols) {
  n <- if (length(cols)) length(cols[[1L]]) else 0L
  class(cols) <- "data.frame"
  attr(cols, "row.names") <- .set_row_names(n)
  cols
}

.with_file <- function(path, mmap, fn, q = NULL) {
  f <- .open(path, mmap)
  on.exit(.Call(C_close, f))
  bs <- attr(q, "base")
  if (!is.null(bs)) { # base/diff_base: the copy minus that profile
    g <- .Call(C_diff_base, f, bs[[1]], bs[[2]], bs[[3]], bs[[4]], bs[[5]], bs[[6]])
    on.exit(.Call(C_close, g), add = TRUE)
    f <- g
  }
  fr <- attr(q, "frames")
  if (!is.null(fr[[1]]) || !is.null(fr[[2]])) { # tagroot/tagleaf: the copy with label frames
    g <- .Call(C_tag_frames, f, fr[[1]], fr[[2]], fr[[3]])
    on.exit(.Call(C_close, g), add = TRUE)
    f <- g
  }
  fn(f)
}

.attrs <- function(df, r, ru, view) {
  attr(df, "view") <- view
  attr(df, "type") <- r$type
  attr(df, "unit") <- ru$unit
  attr(df, "raw_unit") <- r$unit
  attr(df, "total") <- r$total / ru$div
  df
}

pcol_top <- function(path, by = "function", value = NULL, sort = c("flat", "cum", "name"),
                     node_fraction = 0, limit = NULL, mean = FALSE, drop_negative = FALSE, ..., mmap = TRUE) {
  by <- .str1(by, "by", FALSE)
  if (!(by %in% c("function", "line", "file", "address", "filefunction") || startsWith(by, "label:")))
    stop("by must be \"function\", \"line\", \"file\", \"address\" or \"label:KEY\"", call. = FALSE)
  sort <- match.arg(sort)
  if (!is.numeric(node_fraction) || length(node_fraction) != 1L || is.na(node_fraction))
    stop("node_fraction must be a number from 0 to 1", call. = FALSE)
  lim <- if (is.null(limit)) NA_real_ else as.double(limit)
  if (isTRUE(mean) && startsWith(by, "label:"))
    stop("mean divides a function's value by its count: not with by = \"label:KEY\"", call. = FALSE)
  mean <- .mean(mean, ...)
  q <- .query(...)
  value <- .str1(value, "value")
  r <- .with_file(path, mmap, q = q, function(f) {
    .Call(C_q_top, f, by, value, q, as.double(node_fraction), sort, lim, mean, isTRUE(drop_negative))
  })
  ru <- .r_unit(r$unit)
  n <- length(r$name)
  if (!is.na(lim) && lim < n) n <- as.integer(lim)
  k <- seq_len(n)
  fp <- .pct(r$flat[k], r$total)
  cols <- list(name = r$name[k], r$flat[k] / ru$div, self.pct = fp, sum.pct = r$sum_pct[k],
               r$cum[k] / ru$div, total.pct = .pct(r$cum[k], r$total), inline = r$inline[k])
  names(cols)[c(2L, 5L)] <- c(.vname("self", ru), .vname("total", ru))
  df <- .attrs(.df(cols), r, ru, "top")
  attr(df, "dropped") <- r$dropped
  df
}

pcol_peek <- function(path, regex, by = c("function", "line", "file", "address", "filefunction"), value = NULL,
                      sort = c("flat", "cum", "name"), mean = FALSE, drop_negative = FALSE, ...,
                      mmap = TRUE) {
  by <- match.arg(by)
  sort <- match.arg(sort)
  regex <- .str1(regex, "regex", FALSE)
  mean <- .mean(mean, ...)
  q <- .query(...)
  value <- .str1(value, "value")
  r <- .with_file(path, mmap, q = q, function(f) .Call(C_q_peek, f, by, value, q, regex, sort, mean,
                                                          isTRUE(drop_negative)))
  .tree_rows(r, "peek")
}

# pprof -tree: every node the text graph keeps (pcol tree), as peek's rows
pcol_tree <- function(path, by = c("function", "line", "file", "address", "filefunction"), value = NULL,
                      sort = c("flat", "cum"), node_fraction = 0.005, edge_fraction = 0.001,
                      node_count = 80, mean = FALSE, drop_negative = FALSE, ..., mmap = TRUE) {
  by <- match.arg(by)
  sort <- match.arg(sort)
  mean <- .mean(mean, ...)
  q <- .query(...)
  value <- .str1(value, "value")
  num <- function(x, what) {
    if (!is.numeric(x) || length(x) != 1L || is.na(x)) stop(what, " must be one number", call. = FALSE)
    as.double(x)
  }
  nf <- num(node_fraction, "node_fraction")
  ef <- num(edge_fraction, "edge_fraction")
  nc <- num(node_count, "node_count")
  r <- .with_file(path, mmap, q = q, function(f) .Call(C_q_tree, f, by, value, q, sort, nf, ef, nc, mean,
                                                          isTRUE(drop_negative)))
  .tree_rows(r, "tree")
}

# peek's and tree's rows in R's units, pct of each edge's node's cum
.tree_rows <- function(r, view) {
  ru <- .r_unit(r$unit)
  # an edge's share of its node's cum, as pprof's calls% (node rows: NA)
  node_cum <- r$cum[r$relation == "node"][match(r$node, r$node[r$relation == "node"])]
  pct <- ifelse(r$relation == "node", NA_real_, ifelse(node_cum != 0, 100 * r$value / node_cum, 0))
  cols <- list(node = r$node, relation = r$relation, name = r$name, r$flat / ru$div,
               r$cum / ru$div, value = r$value / ru$div, pct = pct, inline = r$inline)
  names(cols)[4:5] <- c(.vname("self", ru), .vname("total", ru))
  .attrs(.df(cols), r, ru, view)
}

pcol_list <- function(path, regex, by = c("function", "file"), value = NULL, source_path = NULL,
                      allow_any_source = FALSE, mean = FALSE, drop_negative = FALSE, ..., mmap = TRUE) {
  by <- match.arg(by)
  regex <- .str1(regex, "regex", FALSE)
  mean <- .mean(mean, ...)
  q <- .query(...)
  value <- .str1(value, "value")
  sp <- .str1(source_path, "source_path")
  r <- .with_file(path, mmap, q = q, function(f) {
    .Call(C_q_list, f, by, value, q, regex, sp, isTRUE(allow_any_source), mean, isTRUE(drop_negative))
  })
  ru <- .r_unit(r$unit)
  cols <- list(`function` = r$`function`, file = r$file, line = r$line, r$flat / ru$div,
               r$cum / ru$div, text = r$text)
  names(cols)[4:5] <- c(.vname("self", ru), .vname("total", ru))
  .attrs(.df(cols), r, ru, "list")
}

pcol_tags <- function(path, value = NULL, ..., mmap = TRUE) {
  q <- .query(...)
  value <- .str1(value, "value")
  r <- .with_file(path, mmap, q = q, function(f) .Call(C_q_tags, f, value, q))
  ru <- .r_unit(r$unit)
  pct <- ifelse(r$key_total != 0, 100 * r$amount / ifelse(r$key_total != 0, r$key_total, 1), 0)
  df <- .attrs(.df(list(key = r$key, value = r$value, amount = r$amount / ru$div, pct = pct)), r, ru, "tags")
  # one total per key, as the CLI's "KEY: Total X" (a sum over keys counts a
  # sample once per key it carries)
  first <- !duplicated(r$key)
  attr(df, "total") <- structure(r$key_total[first] / ru$div, names = r$key[first])
  df
}

pcol_traces <- function(path, value = NULL, limit = NULL, mean = FALSE,
                        by = c("function", "line", "file", "address", "filefunction"), ..., mmap = TRUE) {
  mean <- .mean(mean, ...)
  by <- match.arg(by)
  q <- .query(...)
  value <- .str1(value, "value")
  lim <- if (is.null(limit)) NA_real_ else as.double(limit)
  r <- .with_file(path, mmap, q = q, function(f) .Call(C_q_traces, f, value, q, lim, mean, by))
  ru <- .r_unit(r$unit)
  .attrs(.df(list(value = r$value / ru$div, labels = r$labels, stack = r$stack)), r, ru, "traces")
}

pcol_diff <- function(base, new, by = c("function", "line", "file", "address", "filefunction"), value = NULL,
                      absolute = FALSE, sort = c("flat", "cum", "name"), ..., mmap = TRUE) {
  by <- match.arg(by)
  sort <- match.arg(sort)
  q <- .query(...)
  value <- .str1(value, "value")
  fr <- attr(q, "frames")
  if (!is.null(fr[[1]]) || !is.null(fr[[2]])) { # the frames of both at once: a key on one side will do
    q1 <- q
    attr(q1, "frames") <- NULL
    r <- .with_file(base, mmap, q = q1, function(fb) {
      .with_file(new, mmap, q = q1, function(fn) {
        p <- .Call(C_tag_frames_pair, fb, fn, fr[[1]], fr[[2]], fr[[3]])
        on.exit({ .Call(C_close, p[[1]]); .Call(C_close, p[[2]]) })
        .Call(C_q_diff, p[[1]], p[[2]], by, value, q, isTRUE(absolute), sort)
      })
    })
  } else {
    r <- .with_file(base, mmap, q = q, function(fb) {
      .with_file(new, mmap, q = q, function(fn) .Call(C_q_diff, fb, fn, by, value, q, isTRUE(absolute), sort))
    })
  }
  ru <- .r_unit(r$unit)
  if (isTRUE(absolute)) {
    d <- ru$div
    cols <- list(r$base_flat / d, r$new_flat / d, r$d_flat / d, r$base_cum / d, r$new_cum / d, r$d_cum / d)
  } else { # shares of each side's total, in percent; changes in points
    cols <- list(.pct(r$base_flat, r$base_total), .pct(r$new_flat, r$new_total), r$d_flat,
                 .pct(r$base_cum, r$base_total), .pct(r$new_cum, r$new_total), r$d_cum)
  }
  names(cols) <- c("base.self", "new.self", "delta.self", "base.total", "new.total", "delta.total")
  df <- .df(c(list(name = r$name), cols, list(inline = r$inline)))
  df <- .attrs(df, r, ru, "diff")
  attr(df, "total") <- r$new_total / ru$div
  attr(df, "base_total") <- r$base_total / ru$div
  attr(df, "absolute") <- isTRUE(absolute)
  df
}

pcol_fold <- function(path, value = NULL, max_output = NULL, ..., mmap = TRUE) {
  q <- .query(...)
  value <- .str1(value, "value")
  mo <- if (is.null(max_output)) NA_real_ else as.double(max_output)
  r <- .with_file(path, mmap, q = q, function(f) .Call(C_q_fold, f, value, q, mo))
  ru <- .r_unit(r$unit)
  ru$div <- ru$div / 10^ru$decimals # the text's numbers (and total): a decimal unit's as the decimals it holds
  .attrs(.df(list(stack = r$stack, value = r$value / ru$div)), r, ru, "fold")
}

pcol_sources <- function(path, mmap = TRUE) {
  r <- .with_file(path, mmap, function(f) .Call(C_q_summaries, f))
  .df(list(source_id = as.integer(r$source_id), type = r$type, uri = r$uri, samples = r$samples,
           count = r$count, period = r$period, period_type = r$period_type, period_unit = r$period_unit,
           start = r$first_ns / 1e9, end = r$end_ns / 1e9, duration = r$duration_ns / 1e9))
}
