# peek, tree, list, tags, traces, diff and fold give the rows of `pcol VIEW
# --format json` (fold: its text), in seconds and bytes, on every test
# profile, with filters; and fail where the CLI fails.

compare_tags <- function(path, args = list(), cli = character()) {
  info <- paste("tags", path, paste(cli, collapse = " "))
  want <- cli_view("tags", path, "--format", "json", cli)
  call <- function() do.call(pcol_tags, c(list(path), args))
  if (!want$ok) return(expect_same_error(call(), want, path, info))
  w <- want$obj$rows
  t <- call()
  if (!length(w)) return(expect_equal(nrow(t), 0L, info = info))
  div <- r_div(want$obj$unit)
  expect_identical(list(t$key, t$value, t$amount, sprintf("%.2f", t$pct)),
                   list(w$key, w$value, as.numeric(w$amount) / div, sprintf("%.2f", as.numeric(w$pct))), info = info)
  # one total per key: the CLI's key_total
  first <- !duplicated(w$key)
  expect_equal(attr(t, "total"), structure(as.numeric(w$key_total[first]) / div, names = w$key[first]), info = info)
}

compare_diff <- function(base, new, args = list(), cli = character()) {
  info <- paste("diff", base, new, paste(cli, collapse = " "))
  want <- cli_view("diff", base, new, "--format", "json", cli)
  call <- function() do.call(pcol_diff, c(list(base, new), args))
  if (!want$ok) return(expect_same_error(call(), want, new, info))
  w <- want$obj$rows
  t <- call()
  expect_equal(attr(t, "base_total"), as.numeric(want$obj$base_total) / r_div(want$obj$unit), info = info)
  if (!length(w)) return(expect_equal(nrow(t), 0L, info = info))
  r <- list(t$base.self, t$new.self, t$delta.self, t$base.total, t$new.total, t$delta.total)
  c <- lapply(w[c("base_flat", "new_flat", "d_flat", "base_cum", "new_cum", "d_cum")], as.numeric)
  if (isTRUE(args$absolute)) {
    div <- r_div(want$obj$unit)
    expect_identical(c(list(t$name), r), c(list(w$name), unname(lapply(c, `/`, div))), info = info)
  } else { # shares in percent, printed with 4 decimals
    f4 <- function(x) sprintf("%.4f", x)
    expect_identical(c(list(t$name), lapply(r, f4)), c(list(w$name), unname(lapply(c, f4))), info = info)
  }
}

compare_fold <- function(path, args = list(), cli = character()) {
  info <- paste("fold", path, paste(cli, collapse = " "))
  r <- run_pcol(c("fold", path, cli), check = FALSE)
  call <- function() do.call(pcol_fold, c(list(path), args))
  if (r$status != 0) return(expect_same_error(call(), cli_err(r$stderr), path, info))
  txt <- rawToChar(r$stdout)
  lines <- if (nzchar(txt)) strsplit(txt, "\n", fixed = TRUE, useBytes = TRUE)[[1]] else character()
  t <- call()
  div <- r_div_text(attr(t, "raw_unit"))
  expect_identical(t$value, as.numeric(sub("^.* ", "", lines, useBytes = TRUE)) / div, info = info)
  # stacks: the UTF-8 ones as they are (others are bytes the package reads by its UTF-8 rule, test-strings.R)
  stacks <- sub(" [^ ]*$", "", lines, useBytes = TRUE)
  ok <- validUTF8(stacks)
  expect_identical(t$stack[ok], enc2native(`Encoding<-`(stacks[ok], "UTF-8")), info = info)
  expect_equal(length(t$stack), length(stacks), info = info)
}

test_that("pcol_peek, pcol_tree, pcol_tags, pcol_traces, pcol_fold equal the CLI on every test profile", {
  skip_without_testdata()
  n <- 0L
  for (i in seq_along(packed())) {
    p <- packed()[[i]][2]
    re <- top_re(p)
    if (!is.null(re)) compare_peek(p, re)
    compare_tree(p)
    compare_tags(p)
    compare_traces(p, list(limit = 50), c("-n", "50"))
    compare_fold(p)
    n <- n + 1L
  }
  compare_peek(packed()[[1]][2], "^no-such-function$") # the CLI's "no matches" error
  expect_gt(n, 50L)
})

test_that("the views with values, filters and time ranges", {
  skip_without_testdata()
  for (x in representative()) { # a file of each format and feature: the loop above had them all
    p <- x[2]
    vt <- pcol_table(p, "value_types")
    v <- if (nrow(vt)) paste(vt$type[nrow(vt)], vt$unit[nrow(vt)], sep = "/") else "weight"
    re <- top_re(p)
    compare_tags(p, list(value = v), c("--value", v))
    compare_traces(p, list(value = v, limit = 20, from = 0, to = 1), c("--value", v, "-n", "20", "--from", "0", "--to", "1"))
    for (b in c("line", "file", "address", "filefunction")) # pprof -traces -lines, -files, ...
      compare_traces(p, list(by = b, limit = 20), c("--by", b, "-n", "20"))
    compare_fold(p, list(value = v), c("--value", v))
    if (!is.null(re)) {
      compare_fold(p, list(hide = re), c("--hide", re))
      compare_traces(p, list(focus = re, limit = 20), c("--focus", re, "-n", "20"))
      compare_peek(p, re, list(value = v, no_inlines = TRUE), c("--value", v, "--no-inlines"))
      compare_peek(p, re, list(by = "line", sort = "cum"), c("--by", "line", "--sort", "cum"))
      compare_peek(p, re, list(by = "filefunction"), c("--by", "filefunction"))
      compare_tree(p, list(by = "line", sort = "cum", node_count = 9, focus = re),
                   c("--by", "line", "--sort", "cum", "--node-count", "9", "--focus", re))
    }
    for (k in head(label_keys(p), 1)) {
      compare_tags(p, list(tag_ignore = paste0(k, "=^$")), c("--tag-ignore", paste0(k, "=^$")))
      compare_fold(p, list(tag = paste0(k, "=.")), c("--tag", paste0(k, "=.")))
      # pprof -taghide / -tagshow: the key left out, then alone (a key of
      # plain characters, its dots bracketed: an ERE matching just it)
      if (grepl("^[A-Za-z0-9_.-]+$", k)) {
        kr <- paste0("^", gsub(".", "[.]", k, fixed = TRUE), "$")
        compare_tags(p, list(taghide = kr), c("--taghide", kr))
        compare_tags(p, list(tagshow = kr), c("--tagshow", kr))
        compare_traces(p, list(taghide = kr, limit = 20), c("--taghide", kr, "-n", "20"))
      }
      # pprof -tagroot/-tagleaf: the file read with label frames
      compare_tree(p, list(tagroot = k), c("--tagroot", k))
      compare_fold(p, list(tagleaf = k, hide = "."), c("--tagleaf", k, "--hide", "."))
      compare_traces(p, list(tagroot = c(k, k), limit = 20), c("--tagroot", paste0(k, ",", k), "-n", "20"))
    }
  }
  succeed()
})

test_that("pcol_diff equals pcol diff (shares and absolute, filters, sorts)", {
  skip_without_testdata()
  ps <- packed_in("/pprof/")
  expect_gte(length(ps), 5L)
  rep <- vapply(representative(), `[`, "", 2L)
  for (i in seq_along(ps)) {
    a <- ps[[i]][2]
    b <- ps[[if (i < length(ps)) i + 1L else 1L]][2]
    compare_diff(a, b) # different values: the CLI's refusal, or a diff
    if (!(a %in% rep)) next # the options on a file of each format and feature
    compare_diff(a, a)
    compare_diff(a, b, list(value = "samples"), c("--value", "samples"))
    compare_diff(a, b, list(value = "samples", absolute = TRUE, sort = "cum"), c("--value", "samples", "--absolute", "--sort", "cum"))
    compare_diff(a, a, list(absolute = TRUE, by = "line"), c("--absolute", "--by", "line"))
    re <- top_re(a)
    if (!is.null(re)) compare_diff(a, b, list(value = "samples", hide = re), c("--value", "samples", "--hide", re))
    for (k in head(label_keys(a), 1)) # both sides read with label frames (an unknown key: the CLI's error)
      compare_diff(a, b, list(value = "samples", tagroot = k), c("--value", "samples", "--tagroot", k))
    # pprof -base/-diff_base: the views of a minus b
    compare_tree(a, list(value = "samples", diff_base = b), c("--value", "samples", "--diff-base", b))
    compare_fold(a, list(value = "samples", base = b), c("--value", "samples", "--base", b))
    compare_traces(a, list(value = "samples", base = b, limit = 20), c("--value", "samples", "--base", b, "-n", "20"))
  }
  r <- packed_in("/rprof/")
  compare_diff(r[[1]][2], r[[2]][2])
  compare_diff(r[[1]][2], r[[2]][2], list(absolute = TRUE, sort = "name"), c("--absolute", "--sort", "name"))
})

test_that("pcol_diff by address pairs two runs of a PIE program at the new run's addresses, as pcol diff", {
  # tests/support/pprofgen.py aslr: one program loaded elsewhere in each
  # run; pcol diff and pcol_diff move the base to the new run's addresses
  # (one library rule, pcol_open_readdressed), where each side's own
  # addresses paired no row
  d <- tempfile("aslr")
  dir.create(d)
  on.exit(unlink(d, recursive = TRUE))
  a <- file.path(d, "a.pb")
  b <- file.path(d, "b.pb")
  expect_identical(run_support("pprofgen.py", c("aslr", a, "0x555555554000")), 0L)
  expect_identical(run_support("pprofgen.py", c("aslr", b, "0x5600aa000000", "0x5000", "extra")), 0L)
  t <- pcol_diff(a, b, by = "address", absolute = TRUE)
  expect_false(any(startsWith(t$name, "0000555555")))
  compare_diff(a, b, list(by = "address", absolute = TRUE), c("--by", "address", "--absolute"))
  compare_diff(a, b, list(by = "address"), c("--by", "address"))
})

test_that("pcol_diff of heap profiles whose defaults differ: go -diff_base's value, as pcol diff", {
  # go-heap-allocs-inline names alloc_space (pprof's default_sample_type),
  # go-heap-delta-negative-values none (its default: inuse_space): go tool
  # pprof -diff_base shows alloc_space either way round (the one the new
  # profile names, else the base's), and so do pcol diff and pcol_diff
  # without a value, one library rule (pcol_value_diff_default); both
  # refused the pair before, as of incompatible value types
  skip_without_testdata()
  a <- file.path(TESTDATA, "pprof", "go-heap-allocs-inline.pb.gz")
  b <- file.path(TESTDATA, "pprof", "go-heap-delta-negative-values.pb.gz")
  for (p in list(c(a, b), c(b, a))) {
    want <- cli_view("diff", p[1], p[2], "--format", "json")
    expect_true(want$ok, info = paste(p, collapse = " "))
    expect_identical(want$obj$type, "alloc_space")
    d <- pcol_diff(p[1], p[2])
    expect_identical(attr(d, "type"), "alloc_space")
    expect_identical(attr(pcol_diff(p[1], p[2], absolute = TRUE), "type"), "alloc_space")
    compare_diff(p[1], p[2])
    compare_diff(p[1], p[2], list(absolute = TRUE), "--absolute")
    # a value named is that value on both sides, as before
    expect_identical(attr(pcol_diff(p[1], p[2], value = "inuse_space"), "type"), "inuse_space")
    compare_diff(p[1], p[2], list(value = "inuse_space"), c("--value", "inuse_space"))
  }
})

test_that("pcol_list equals pcol list, with the sources it reads", {
  skip_without_testdata()
  n <- 0L
  rep <- vapply(representative(), `[`, "", 2L)
  for (x in packed_in("/(pprof|rprof)/")) {
    re <- top_re(x[2])
    if (is.null(re)) next
    compare_list(x[2], re)
    if (x[2] %in% rep) compare_list(x[2], ".", list(by = "file"), c("--by", "file"))
    n <- n + 1L
  }
  expect_gt(n, 10L)
  # a source file the profile names: an Rprof profile made here, with its lines
  d <- tempfile("src")
  dir.create(d)
  src <- file.path(d, "work.R")
  writeLines(c("work <- function(n) {", "  x <- 0", "  for (i in seq_len(n)) x <- x + sqrt(i)", "  x", "}"), src)
  prof <- file.path(d, "lines.out")
  writeLines(c("line profiling: sample.interval=10000", paste0("#File 1: ", src),
               rep('"sqrt" 1#3 "work" ', 3), rep('1#3 "work" ', 2), '"work" '), prof)
  compare_list(prof, "work", list(source_path = d), c("--source-path", d))
  compare_list(prof, "work.R", list(by = "file", source_path = d), c("--by", "file", "--source-path", d))
  l <- pcol_list(prof, "work", source_path = d)
  expect_identical(l$text[l$line == 3], "  for (i in seq_len(n)) x <- x + sqrt(i)")
  expect_equal(attr(l, "total"), 0.06) # 6 ticks of 10 ms, in seconds
})

test_that("pcol_sources equals pcol info's rows on every test profile (NA where the CLI says null)", {
  skip_without_testdata()
  n <- 0L
  for (x in packed()) {
    p <- x[2]
    want <- cli_view("info", p, "--format", "json")
    if (!want$ok) next
    w <- want$obj$rows # jsonlite: a null is NA
    got <- pcol_sources(p)
    info <- paste("sources", p)
    expect_equal(nrow(got), nrow(w), info = info)
    expect_identical(got$source_id, as.integer(w$source_id), info = info)
    expect_identical(got$type, as.character(w$source_type), info = info)
    expect_identical(got$uri, as.character(w$source_uri), info = info)
    expect_identical(got$samples, as.numeric(w$samples), info = info)
    # a source without a period: NA (the CLI's null), never the int64 NA sentinel as a number
    expect_identical(got$period, as.numeric(w$period), info = info)
    expect_identical(got$period_unit, as.character(w$period_unit), info = info)
    expect_identical(got$duration, as.numeric(w$duration_ns) / 1e9, info = info)
    n <- n + 1L
  }
  expect_gt(n, 50L)
})

test_that("base/diff_base with source and from/to: each side's selection first, as the CLI's (review 23 F1, F2)", {
  # F1: normalize with a range scaled by the ratio of the range, not of
  # the whole profiles; F2: source N is source N of the profile and of the
  # base, not of their union's sources numbered as one list
  skip_without_testdata()
  R <- file.path(TESTDATA, "rprof")
  new <- file.path(R, "proftools__Rprof-rec1.out")
  old <- file.path(R, "proftools__Rprof-rec.out")
  old0 <- file.path(R, "proftools__Rprof-rec0.out")
  skip_if(!all(file.exists(c(new, old, old0))), "no proftools Rprof runs")
  d <- tempfile("bsel")
  dir.create(d)
  on.exit(unlink(d, recursive = TRUE))
  nm <- file.path(d, "new.pcol")
  om <- file.path(d, "old.pcol")
  run_pcol("merge", old, new, "-o", nm)
  run_pcol("merge", old0, old, "-o", om)
  n <- 0L
  for (o in c("base", "diff_base")) {
    opt <- paste0("--", sub("_", "-", o))
    for (rg in list(c(0.5, 2), c(1, 3.5), c(2.2, 7))) {
      a <- list(from = rg[1], to = rg[2], normalize = TRUE, node_fraction = 0)
      a[[o]] <- old
      cli <- c(opt, old, "--normalize", "--from", rg[1], "--to", rg[2], "--node-fraction", "0")
      n <- n + compare_top(new, a, cli)
      a$node_fraction <- NULL
      compare_traces(new, a, cli[seq_len(length(cli) - 2L)])
    }
    for (s in 1:2) {
      a <- list(source = s, node_fraction = 0)
      a[[o]] <- om
      n <- n + compare_top(nm, a, c("--source", s, opt, om, "--node-fraction", "0"))
      a$normalize <- TRUE
      n <- n + compare_top(nm, a, c("--source", s, opt, om, "--normalize", "--node-fraction", "0"))
      a$from <- 0.5
      a$to <- 3
      n <- n + compare_top(nm, a, c("--source", s, opt, om, "--normalize", "--from", "0.5", "--to", "3",
                                    "--node-fraction", "0"))
    }
    # source 2 of a profile of one source: the CLI's error, naming the side
    a <- list(source = 2)
    a[[o]] <- om
    expect_equal(compare_top(new, a, c("--source", "2", opt, om)), 0L)
    a[[o]] <- old
    expect_equal(compare_top(nm, a, c("--source", "2", opt, old)), 0L)
  }
  expect_equal(n, 18L)
})

test_that("pcol_diff's inline marks are pcol diff's: of the graph of both sides merged", {
  # pcol diff's "(inline)" marks are those of the graph of both sides
  # merged, the base negated, as go tool pprof -diff_base's
  # (tests/interop/t_diff_marks.sh); pcol_diff's, every row's, are the same
  # (one library rule, pcol_diff_mark_inline): `pcol diff --node-fraction 0`.
  # It joined each side's own marks before: math.Abs, inlined in
  # go-cpu-inline-small alone, was "inline" where pcol diff and go mark
  # nothing (rd21 F5).  A pair go refuses to merge (a CPU against a heap
  # profile, by samples) keeps each side's marks joined, as pcol diff.
  skip_without_testdata()
  P <- file.path(TESTDATA, "pprof")
  cli_marks <- function(a, b, args) {
    out <- strsplit(rawToChar(run_pcol("diff", a, b, "--node-fraction", "0", args)$stdout), "\n")[[1]]
    rows <- out[-seq_len(grep("^ *base_flat ", out)[1])]
    name <- sub("^ *([^ ]+ +){6} ", "", rows)
    mark <- ifelse(grepl(" \\((partial-)?inline\\)$", name), sub("^.* \\((.*)\\)$", "\\1", name), NA_character_)
    list(name = sub(" \\((partial-)?inline\\)$", "", name), inline = mark)
  }
  pairs <- list(c("go-cpu-inline-small", "go-cpu-large"), c("go-cpu-large", "go-cpu-inline-small"),
                c("go-cpu-inline-small", "go-cpu-string-labels"),
                c("go-heap-allocs-inline", "go-heap-delta-negative-values"),
                c("go-heap-allocs-inline", "go-cpu-inline-small", "samples"))
  n <- 0L
  marks <- 0L
  for (p in pairs) {
    a <- file.path(P, paste0(p[1], ".pb.gz"))
    b <- file.path(P, paste0(p[2], ".pb.gz"))
    value <- if (length(p) > 2) p[3] else NULL
    for (absolute in c(FALSE, TRUE)) for (by in c("function", "line")) {
      args <- c("--by", by, if (absolute) "--absolute", if (!is.null(value)) c("--value", value))
      want <- cli_marks(a, b, args)
      d <- pcol_diff(a, b, by = by, value = value, absolute = absolute)
      expect_identical(list(name = d$name, inline = d$inline), want, info = paste(p[1], p[2], paste(args, collapse = " ")))
      n <- n + 1L
      marks <- marks + sum(!is.na(want$inline))
    }
  }
  expect_identical(n, 20L)
  expect_gt(marks, 0L)
  d <- pcol_diff(file.path(P, "go-cpu-inline-small.pb.gz"), file.path(P, "go-cpu-large.pb.gz"), absolute = TRUE)
  expect_true(is.na(d$inline[d$name == "math.Abs"]))
})
