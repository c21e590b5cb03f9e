# pcol_top gives the numbers of `pcol top --format json` (time in seconds,
# memory in bytes), with its keys, sorts, node fraction, limit, selection
# and filters, and fails where it fails.
values_for <- function(path) {
  vt <- pcol_table(path, "value_types")
  v <- c(list(NULL, "weight"), as.list(paste(vt$type, vt$unit, sep = "/")[!is.na(vt$type) & !is.na(vt$unit)]))
  if ("vsize.small" %in% vt$type) v <- c(v, list("rprof.alloc"))
  v
}

test_that("pcol_top equals pcol top on every test profile", {
  skip_without_testdata()
  n <- 0L
  for (x in packed()) n <- n + compare_top(x[2])
  expect_gt(n, 50L)
})

# The options on a file of each format and feature (helper-pcol.R): they
# run the same code whatever the file.
test_that("pcol_top equals pcol top for every value and key", {
  skip_without_testdata()
  n <- 0L
  for (x in representative()) {
    for (v in values_for(x[2])) n <- n + compare_top(x[2], list(value = v), if (!is.null(v)) c("--value", v))
    for (by in c("line", "file", "address")) n <- n + compare_top(x[2], list(by = by), c("--by", by))
  }
  expect_gt(n, 5L * length(representative()))
})

test_that("pcol_top: by label, sort, node fraction, limit", {
  skip_without_testdata()
  n <- 0L
  for (i in seq_along(representative())) {
    p <- representative()[[i]][2]
    for (k in head(label_keys(p), 2)) n <- n + compare_top(p, list(by = paste0("label:", k)), c("--by", paste0("label:", k)))
    n <- n + compare_top(p, list(sort = "cum"), c("--sort", "cum"))
    n <- n + compare_top(p, list(sort = "name", by = "line"), c("--sort", "name", "--by", "line"))
    n <- n + compare_top(p, list(node_fraction = 0.05, limit = 3), c("--node-fraction", "0.05", "-n", "3"))
  }
  expect_gte(n, length(representative()))
})

test_that("pcol_top: filters and time ranges as the CLI's", {
  skip_without_testdata()
  n <- 0L
  for (x in representative()) {
    p <- x[2]
    t <- pcol_top(p, limit = 2)
    if (!nrow(t)) next
    re <- lit_re(t$name[1]) # the top function, as a literal
    n <- n + compare_top(p, list(focus = re), c("--focus", re))
    n <- n + compare_top(p, list(ignore = re), c("--ignore", re))
    n <- n + compare_top(p, list(ignore = re, relative_percentages = TRUE, node_fraction = 0.01),
                         c("--ignore", re, "--relative-percentages", "--node-fraction", "0.01"))
    n <- n + compare_top(p, list(hide = re, by = "line"), c("--hide", re, "--by", "line"))
    n <- n + compare_top(p, list(show = re), c("--show", re))
    n <- n + compare_top(p, list(show_from = re), c("--show-from", re))
    n <- n + compare_top(p, list(no_inlines = TRUE, by = "line"), c("--no-inlines", "--by", "line"))
    n <- n + compare_top(p, list(source = 1, from = 0.05, to = 0.5), c("--source", "1", "--from", "0.05", "--to", "0.5"))
    for (k in head(label_keys(p), 1)) {
      n <- n + compare_top(p, list(tag = paste0(k, "=.")), c("--tag", paste0(k, "=.")))
      n <- n + compare_top(p, list(tag_ignore = paste0(k, "=.")), c("--tag-ignore", paste0(k, "=.")))
    }
  }
  expect_gt(n, 30L)
})

test_that("pcol_top reads Rprof and pprof files directly", {
  skip_without_testdata()
  n <- 0L
  for (x in packed()) if (grepl("/(rprof|pprof)/", x[1])) n <- n + compare_top(x[1])
  expect_gte(n, 20L)
})

test_that("pcol_top: Rprof time in seconds, as summaryRprof", {
  skip_without_testdata()
  f <- file.path(TESTDATA, "rprof", "r-prof-profile__1.out")
  t <- pcol_top(f)
  expect_identical(attr(t, "unit"), "seconds")
  expect_true(all(t$total.time <= attr(t, "total")))
  expect_lt(max(t$total.time), 1e3) # seconds, not nanoseconds
})

# THE unit rule (lib/core/unit_scale.c) names and scales R's columns, not a
# list of spellings (review 13 m8): a Perun time profile (unit "ns") in
# seconds as a pprof's "nanoseconds", a collapsed file's decimal counts
# (unit "1e-9") as the counts they hold, as pcol top prints them, and pcol
# fold's decimals the same numbers.
test_that("pcol_top: any spelling of a time unit in seconds, decimal units as their numbers", {
  perun <- file.path(repo_root(), "tests", "fixtures", "perun", "time.perf")
  dec <- file.path(repo_root(), "tests", "fixtures", "collapsed", "decimal.folded")
  skip_if_not(file.exists(perun) && file.exists(dec))
  t <- pcol_top(perun)
  expect_identical(attr(t, "raw_unit"), "ns")
  expect_identical(attr(t, "unit"), "seconds")
  expect_identical(names(t)[c(2L, 5L)], c("self.time", "total.time"))
  w <- jsonlite::fromJSON(rawToChar(run_pcol("top", perun, "--format", "json")$stdout))
  expect_identical(t$self.time, as.numeric(w$rows$flat) / 1e9)
  expect_equal(attr(t, "total"), 2.203861) # pcol top: 2.20s
  expect_equal(sum(t$self.time), attr(t, "total"))
  compare_top(perun)
  d <- pcol_top(dec)
  expect_identical(attr(d, "raw_unit"), "1e-9")
  expect_identical(attr(d, "unit"), "count")
  expect_identical(names(d)[c(2L, 5L)], c("self", "total"))
  txt <- rawToChar(run_pcol("top", dec)$stdout) # the CLI's text: "d 7" (counts, not 7e9)
  expect_match(txt, "\\b7 +[0-9.]+% +[0-9.]+% +7 +[0-9.]+% +d\\b")
  expect_equal(d$self[d$name == "d"], 7)
  compare_top(dec)
  fo <- pcol_fold(dec) # fold's text writes the decimals: the same numbers
  fl <- strsplit(rawToChar(run_pcol("fold", dec)$stdout), "\n", fixed = TRUE)[[1]]
  expect_identical(fo$value, as.numeric(sub("^.* ", "", fl)))
  expect_equal(attr(fo, "total"), attr(d, "total"))
})

test_that("pcol_top: tagunit names label frames in a unit, as --tagroot with --unit", {
  p <- tempfile(fileext = ".pb")
  on.exit(unlink(p))
  expect_equal(run_support("pprofgen.py", c("numunits", p)), 0L)
  # numeric labels with units (bytes, a wait in ns) and one without (n)
  for (u in list(NULL, "kB", "MB")) {
    compare_top(p, list(tagroot = c("bytes", "n"), tagunit = u), c("--tagroot", "bytes,n", if (!is.null(u)) c("--unit", u)))
  }
  compare_top(p, list(value = "delay", tagleaf = "wait", tagunit = "ms"), c("--value", "delay", "--tagleaf", "wait", "--unit", "ms"))
  t <- pcol_top(p, tagroot = c("bytes", "n"), tagunit = "kB")
  expect_true(all(c("3072kB", "1.50kB", "0.10kB", "3") %in% t$name))
  t <- pcol_top(p, value = "delay", tagleaf = "wait", tagunit = "ms")
  expect_true(all(c("1.50ms", "0,4000ms") %in% t$name))
  expect_error(pcol_top(p, tagroot = "bytes", tagunit = 3), "tagunit")
})

test_that("pcol_top and pcol_diff: values in units of one kind are scaled into the finest, as go's ScaleProfiles", {
  # THE unit rule, the library's (tests/cli/t_values.sh item 13): a heap in
  # bytes, megabytes and kilobytes adds up in bytes, each file's own total
  # scaled; pcol_diff compares bytes and kilobytes (it refused them)
  d <- tempfile("heaps")
  dir.create(d)
  on.exit(unlink(d, recursive = TRUE))
  spec <- list(c("1", "bytes", "1"), c("2", "megabytes", "1048576"), c("3", "kilobytes", "1024"))
  want <- 0
  for (s in spec) {
    f <- file.path(d, paste0(s[1], ".pb"))
    expect_equal(run_support("pprofgen.py", c("units", f, s[2], s[3])), 0L)
    want <- want + attr(pcol_top(f), "total") # (R's memory unit: bytes)
  }
  t <- pcol_top(d)
  expect_identical(attr(t, "unit"), "bytes")
  expect_equal(attr(t, "total"), want)
  compare_top(d)
  a <- pcol_diff(file.path(d, "3.pb"), file.path(d, "1.pb"), absolute = TRUE)
  expect_equal(a$delta.self[a$name == "main"], 512) # 1 MiB + 512 B less 1024 kB, in bytes
})

test_that("pcol_top: bad arguments", {
  skip_without_testdata()
  path <- packed()[[1]][2]
  expect_error(pcol_top(path, by = "module"), "by must be")
  expect_error(pcol_top(path, value = "no-such-value"), path, fixed = TRUE)
  expect_error(pcol_top(path, from = 2, to = 1), "after")
  expect_error(pcol_top(path, sort = "size"))
  expect_error(pcol_top(path, node_fraction = 2), "node_fraction")
  expect_error(pcol_top(path, focus = "("), path, fixed = TRUE)
  expect_error(pcol_top(path, focus = c("a", "b")), "one regular expression")
  expect_error(pcol_top(path, nonsense = 1), "unused argument")
})

test_that("pcol_top and pcol_table of a directory or a glob: the union of its regular files, as the CLI's", {
  skip_without_testdata()
  p <- packed()
  d <- file.path(tempfile("pcoldir"), "in")
  dir.create(file.path(d, "sub"), recursive = TRUE)
  on.exit(unlink(dirname(d), recursive = TRUE), add = TRUE)
  for (i in 1:3) file.symlink(p[[i]][2], file.path(d, sprintf("%d.pcol", i - 1L)))
  file.symlink(p[[4]][2], file.path(d, ".hidden.pcol"))
  for (arg in c(d, paste0(d, "/"), file.path(d, "*.pcol"), file.path(d, "[01].pcol")))
    expect_equal(compare_top(arg), 1L)
  n <- sum(vapply(1:3, function(i) nrow(pcol_table(p[[i]][2], "sources")), 1L))
  expect_equal(nrow(pcol_table(d, "sources")), n)
  expect_error(pcol_top(file.path(d, "sub")), "holds no file")
  expect_error(pcol_top(file.path(d, "*.nothing")), "no file matches")
})

test_that("pcol_top and pcol_table: from/to as wall-clock times, as the CLI's --from/--to", {
  skip_without_testdata()
  g <- file.path(TESTDATA, "pprof", "go-cpu-inline-small.pb.gz") # 2017-09-29T20:57:59.257Z, 2 s
  skip_if_not(file.exists(g))
  whole <- pcol_top(g)
  expect_gt(nrow(whole), 0L)
  for (r in list(c("2017-09-29T20:57:00Z", "2017-09-29T22:59:00+02:00"), c("@1506718600", "@1506718700.5"))) {
    expect_equal(compare_top(g, list(from = r[1], to = r[2]), c("--from", r[1], "--to", r[2])), 1L)
    expect_identical(pcol_top(g, from = r[1], to = r[2])$self, whole$self)
  }
  expect_equal(nrow(pcol_top(g, from = "2026-11-29T01:29:10Z")), 0L)
  expect_equal(nrow(pcol_table(g, "samples", from = "2026-11-29T01:29:10Z")), 0L)
  expect_equal(nrow(pcol_table(g, "samples", from = "@0", to = "2100-01-01T00:00:00Z")), nrow(pcol_table(g, "samples")))
  expect_error(pcol_top(g, from = "2017-09-29T20:58:00.5Z"), "cuts its span")
  expect_error(pcol_top(g, from = "yesterday"), "from wants seconds")
  expect_error(pcol_top(g, from = 1, to = "@1506718700"), "both ends")
  expect_error(pcol_top(g, from = "@1506718700", to = "@1506718600"), "after")
  expect_error(pcol_top(g, from = c("@0", "@1")), "from must be one number")
  # in seconds, by the same rule (review 20 F4: every range in seconds was
  # refused): the span 0 .. 2.002 s held whole is the whole profile, one
  # that misses it counts nothing, one that cuts it is refused
  for (r in list(c(0, 3), c(-1, 100))) {
    expect_silent(t <- pcol_top(g, from = r[1], to = r[2]))
    expect_identical(t$self, whole$self)
    expect_equal(nrow(pcol_table(g, "samples", from = r[1], to = r[2])), nrow(pcol_table(g, "samples")))
  }
  expect_warning(expect_equal(nrow(pcol_top(g, from = 3)), 0L), "the range --from 3s selects no sample: the samples are at 0 .. 2")
  expect_error(pcol_top(g, from = 0.5), "the range cuts its span (0s to 2.00201295s since its start)", fixed = TRUE)
})

test_that("from/to as a POSIXct or POSIXlt: its instant, to the microsecond (review 19b F1: refused)", {
  # gen_jfr.py's recording starts at @1700000000 (2023-11-14T22:13:20Z),
  # one sample a microsecond from 1 us to 20 us
  j <- tempfile(fileext = ".jfr")
  on.exit(unlink(j))
  stopifnot(run_support("gen_jfr.py", c(j, "--samples", "20", "--exec-only"), stdout = FALSE) == 0)
  n <- function(...) nrow(pcol_table(j, "samples", ...))
  expect_equal(n(from = "@1700000000.000010"), 11L)
  t0 <- as.POSIXct(1700000000, origin = "1970-01-01", tz = "UTC") + 10.4e-6 # 10 us, as R prints it
  expect_equal(n(from = t0), 11L)
  expect_equal(sum(suppressWarnings(pcol_top(j, from = t0, value = "samples"))$self), 11)
  # its tzone does not move the instant; a POSIXlt is the same time
  tokyo <- t0
  attr(tokyo, "tzone") <- "Asia/Tokyo"
  expect_equal(n(from = tokyo, to = t0 + 5e-6), 5L)
  expect_equal(n(from = as.POSIXlt(t0, tz = "America/New_York")), 11L)
  expect_error(pcol_top(j, from = as.POSIXct(NA)), "from must be one time")
  expect_error(pcol_top(j, to = c(t0, t0)), "to must be one time")
})

test_that("pcol_top of a directory with a wall-clock range: the merge of the files it reaches (review 16 F1)", {
  # a Go CPU profile of 2022-06-09 18:22:12 UTC with a heap profile of
  # 2022-07-28 and a JFR recording of 2023-11-14 (tests/support/gen_jfr.py),
  # as they are (d1) and packed (d2): the range of the first's hour answers
  # as that file alone (cpu 8.73 s, not "samples" 873), as the CLI does
  skip_without_testdata()
  cpu <- file.path(TESTDATA, "pprof", "go-cpu-string-labels.pb.gz")
  heap <- file.path(TESTDATA, "pprof", "go-heap-allocs-inline.pb.gz")
  skip_if_not(file.exists(cpu) && file.exists(heap))
  d1 <- file.path(tempfile("far"), "d1"); d2 <- file.path(dirname(d1), "d2")
  on.exit(unlink(dirname(d1), recursive = TRUE))
  dir.create(d1, recursive = TRUE); dir.create(d2)
  file.copy(cpu, file.path(d1, "a.pb.gz")); file.copy(cpu, file.path(d2, "a.pb.gz")); file.copy(heap, file.path(d1, "h.pb.gz"))
  expect_equal(run_support("gen_jfr.py", c(file.path(d1, "j.jfr"), "--chunks", "1", "--samples", "30", "--period", "*:10 ms")), 0L)
  run_pcol("pack", heap, "-o", file.path(d2, "h.pcol"))
  run_pcol("pack", file.path(d1, "j.jfr"), "-o", file.path(d2, "j.pcol"))
  r <- c("2022-06-09T18:22:00Z", "2022-06-09T18:23:00Z")
  one <- pcol_top(cpu)
  for (d in c(d1, d2)) {
    expect_equal(compare_top(d, list(from = r[1], to = r[2]), c("--from", r[1], "--to", r[2])), 1L)
    w <- character()
    t <- withCallingHandlers(pcol_top(d, from = r[1], to = r[2]),
                             warning = function(c) { w <<- c(w, conditionMessage(c)); invokeRestart("muffleWarning") })
    expect_identical(attr(t, "type"), "cpu", info = d)
    expect_equal(attr(t, "total"), 8.73, info = d)
    expect_identical(t$name, one$name, info = d)
    expect_identical(t$self.time, one$self.time, info = d)
    expect_false(any(grepl("measure different values", w)), info = d)
  }
})

# pcol_top(x) and the R warnings it gave (a character vector)
top_warned <- function(...) {
  w <- character()
  t <- withCallingHandlers(pcol_top(...), warning = function(c) {
    w <<- c(w, conditionMessage(c))
    invokeRestart("muffleWarning")
  })
  list(t = t, warned = w)
}
# the lines of the CLI's standard error after PREFIX
said <- function(err, prefix) {
  l <- strsplit(err, "\n", fixed = TRUE)[[1]]
  substring(l[startsWith(l, prefix)], nchar(prefix) + 1L)
}

test_that("a directory with an index (pcol index) reads it, as the CLI's; a stale one is not used and a warning says why", {
  skip_without_testdata()
  src <- file.path(TESTDATA, "pprof", c("go-cpu-inline-small.pb.gz", "go-cpu-string-labels.pb.gz"))
  skip_if_not(all(file.exists(src)))
  d <- file.path(tempfile("pcolidx"), "indexed")
  dir.create(d, recursive = TRUE)
  on.exit(unlink(dirname(d), recursive = TRUE), add = TRUE)
  file.copy(src[1], file.path(d, "1.pb.gz"))
  file.copy(src[2], file.path(d, "2.pb.gz"))
  run_pcol("pack", src[1], "-o", file.path(d, "3.pcol"))
  Sys.sleep(2.2) # (pcol index leaves out files changed within 2 s)
  expect_match(rawToChar(run_pcol("index", d)$stdout), "covers 3 of 3 files")
  # the index read: the CLI's rows (it reads the index too), and no warning
  r <- top_warned(d)
  expect_identical(r$warned, character())
  expect_equal(compare_top(d), 1L)
  # a damaged index whose list names it as it is now: refused as the CLI
  # refuses it, and read past with PCOL_NO_INDEX=1 (so it was the index)
  stopifnot(run_support("damage_index.py", d) == 0)
  expect_equal(run_pcol("top", d, check = FALSE)$status, 1L)
  expect_error(pcol_top(d))
  Sys.setenv(PCOL_NO_INDEX = "1")
  r <- tryCatch(top_warned(d), finally = Sys.unsetenv("PCOL_NO_INDEX"))
  expect_identical(vcol(r$t, "self"), vcol(pcol_top(file.path(d, "*")), "self"))
  expect_gt(length(vcol(r$t, "self")), 0L)
  # made again, then stale: a file it covers touched
  expect_match(rawToChar(run_pcol("index", d)$stdout), "covers 3 of 3 files")
  Sys.setFileTime(file.path(d, "2.pb.gz"), Sys.time())
  cli <- run_pcol("top", d)
  note <- said(cli$stderr, "pcol: note: ")
  expect_length(note, 1L)
  expect_match(note, "a file it covers changed since", fixed = TRUE)
  r <- top_warned(d)
  expect_identical(r$warned, note)
  expect_equal(suppressWarnings(compare_top(d)), 1L)
})

test_that("a glob's matches that are not regular files are skipped, each named in a warning as the CLI names it", {
  skip_without_testdata()
  p <- packed()
  d <- file.path(tempfile("pcolodd"), "odd")
  dir.create(file.path(d, "sub.pcol"), recursive = TRUE)
  on.exit(unlink(dirname(d), recursive = TRUE), add = TRUE)
  stopifnot(system2("mkfifo", shQuote(file.path(d, "fifo.pcol"))) == 0)
  for (i in 1:2) file.symlink(p[[i]][2], file.path(d, sprintf("%d.pcol", i)))
  arg <- file.path(d, "*.pcol")
  cli <- run_pcol("top", arg)
  skipped <- said(cli$stderr, "pcol: warning: ")
  skipped <- skipped[startsWith(skipped, "skipped")]
  expect_length(skipped, 2L)
  r <- top_warned(arg)
  expect_identical(r$warned, skipped)
  expect_equal(suppressWarnings(compare_top(arg)), 1L)
})

# a directory NAME in a new temporary directory, of symbolic links to src
# (test profiles read in place); the caller unlinks dirname() of it
linked_dir <- function(src, name) {
  d <- file.path(tempfile("pcol"), name)
  dir.create(d, recursive = TRUE)
  stopifnot(all(file.symlink(src, file.path(d, basename(src)))))
  d
}

# (user review 16, F3) the data warnings of pcol top, in its words: a
# mixed directory of test profiles read in place (symbolic links): two Go
# CPU profiles, an Rprof file and a collapsed file cut short
test_that("the data warnings of pcol top on a mixed directory are R warnings in the CLI's words", {
  skip_without_testdata()
  src <- file.path(TESTDATA, c("pprof/go-cpu-inline-small.pb.gz", "pprof/go-cpu-string-labels.pb.gz",
                               "rprof/r-prof-profile__1.out", "ext/collapsed/speedscope__simple.txt"))
  skip_if_not(all(file.exists(src)))
  d <- linked_dir(src, "mix")
  on.exit(unlink(dirname(d), recursive = TRUE), add = TRUE)
  cli_said <- function(...) {
    r <- run_pcol("top", d, "--format", "json", ...)
    list(total = jsonlite::fromJSON(rawToChar(r$stdout))$total, warned = said(r$stderr, "pcol top: warning: "))
  }
  advice_cli <- "name one with --value TYPE"
  advice_r <- "name one with value = \"TYPE\""
  # the default: the cut file's warning (at the open), the fall-back to samples
  cli <- cli_said()
  expect_length(cli$warned, 2L)
  expect_true(startsWith(cli$warned[1], paste0(d, "/speedscope__simple.txt: line 5, the last, has no line end")))
  expect_true(startsWith(cli$warned[2], paste0(d, ": the sources measure different values, so the default is samples")))
  expect_true(endsWith(cli$warned[2], advice_cli))
  want <- c(cli$warned[1], paste0(substr(cli$warned[2], 1L, nchar(cli$warned[2]) - nchar(advice_cli)), advice_r))
  r <- top_warned(d, node_fraction = 0)
  expect_identical(r$warned, want)
  expect_identical(attr(r$t, "type"), "samples")
  expect_equal(attr(r$t, "total"), cli$total)
  # value = "cpu": the collapsed source has none, and counts 0
  cpu <- cli_said("--value", "cpu")
  expect_identical(cpu$warned[1], cli$warned[1])
  expect_identical(cpu$warned[-1], paste0(d, ": source 4 (collapsed ", d, "/speedscope__simple.txt) has no value ",
                                          "cpu/nanoseconds; its samples count 0"))
  r <- top_warned(d, value = "cpu")
  expect_identical(r$warned, cpu$warned)
  expect_equal(attr(r$t, "total") * 1e9, cpu$total)
  # every view says them, as every view of the CLI
  warned <- function(expr) {
    w <- character()
    withCallingHandlers(expr, warning = function(c) {
      w <<- c(w, conditionMessage(c))
      invokeRestart("muffleWarning")
    })
    w
  }
  expect_identical(warned(pcol_peek(d, "main")), want)
  expect_identical(warned(pcol_tags(d)), want)
  expect_identical(warned(pcol_fold(d)), want)
  expect_identical(warned(pcol_diff(d, d, value = "cpu")), rep(cpu$warned, each = 2L))
  # a value every source has: the cut file's warning only
  expect_identical(warned(pcol_top(d, value = "samples")), cli$warned[1])
})

test_that("a relative range over several recordings: pcol top's note is an R warning in its words", {
  skip_without_testdata()
  src <- file.path(TESTDATA, "rprof", c("r-prof-profile__1.out", "r-prof-profile__memory.out"))
  skip_if_not(all(file.exists(src)))
  d <- linked_dir(src, "rprof")
  on.exit(unlink(dirname(d), recursive = TRUE), add = TRUE)
  note <- said(run_pcol("top", d, "--from", "0", "--to", "0.1")$stderr, "pcol top: note: ")
  expect_length(note, 1L)
  expect_true(startsWith(note, paste0(d, ": a relative time range counts from each source's own start")))
  expect_identical(top_warned(d, from = 0, to = 0.1)$warned, note)
  expect_identical(top_warned(d)$warned, character())
})

test_that("a filter that matches no sample and a range that selects none: pcol top's and pcol fold's warnings, in their words", {
  # before, the CLI's alone: a relative range past examples/demo.out's span,
  # a wall-clock one of another day on a JFR recording (tests/support/gen_jfr.py)
  demo <- file.path(repo_root(), "examples", "demo.out")
  jfr <- tempfile(fileext = ".jfr")
  on.exit(unlink(jfr))
  expect_equal(run_support("gen_jfr.py", c(jfr, "--chunks", "1", "--samples", "30", "--period", "*:10 ms")), 0L)
  day <- c("2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z")
  cases <- list(list(path = demo, args = c("--from", "2", "--hide", "nomatch_zz", "--tag-ignore", "nokey=x"),
                     sel = list(from = 2, hide = "nomatch_zz", tag_ignore = "nokey=x"), n = 3L),
                list(path = jfr, args = c("--from", day[1], "--to", day[2], "--focus", "nomatch_zz"),
                     sel = list(from = day[1], to = day[2], focus = "nomatch_zz"), n = 2L))
  warned <- function(expr) {
    w <- character()
    withCallingHandlers(expr, warning = function(c) {
      w <<- c(w, conditionMessage(c))
      invokeRestart("muffleWarning")
    })
    w
  }
  for (k in cases) {
    for (view in c("top", "fold")) {
      cli <- said(run_pcol(view, k$path, k$args)$stderr, sprintf("pcol %s: warning: ", view))
      expect_length(cli, k$n)
      expect_true(startsWith(cli[k$n], paste0(k$path, ": the range --from ")))
      expect_true(grepl(" selects no sample: the ", cli[k$n], fixed = TRUE))
      fn <- if (view == "top") pcol_top else pcol_fold
      expect_identical(warned(do.call(fn, c(list(k$path), k$sel))), cli, info = paste(view, k$path))
    }
  }
  # a range that reaches the samples, a filter that matches: nothing said
  expect_identical(warned(pcol_top(demo, from = 0.36, to = 5, focus = ".")), character())
})

test_that("top by label:KEY's filter warnings, diff's, and a range past a directory: one rule for the CLI and R", {
  # each answered apart before: R warned that a focus on a label value
  # matched nothing (the CLI's filters see KEY's frames); diff warned once a
  # side, in both; pcol top DIR failed where R answered 0
  skip_without_testdata()
  lab <- file.path(TESTDATA, "pprof", "go-cpu-string-labels.pb.gz")
  small <- file.path(TESTDATA, "pprof", "go-cpu-inline-small.pb.gz")
  skip_if_not(all(file.exists(c(lab, small))))
  warned <- function(expr) {
    w <- character()
    withCallingHandlers(expr, warning = function(c) {
      w <<- c(w, conditionMessage(c))
      invokeRestart("muffleWarning")
    })
    w
  }
  none <- "Focus expression matched no samples"
  # foo's value is bar on every sample; "^foo$" matches the frames' file
  for (k in list(list(sel = list(focus = "bar"), want = character()),
                 list(sel = list(hide = "^foo$"), want = character()),
                 list(sel = list(focus = "nomatch_zz"), want = none))) {
    r <- run_pcol("top", lab, "--by", "label:foo", paste0("--", names(k$sel)), unlist(k$sel))
    cli <- said(r$stderr, "pcol top: warning: ")
    expect_identical(cli, k$want)
    expect_identical(warned(do.call(pcol_top, c(list(lab, by = "label:foo"), k$sel))), cli)
  }
  # a focus no function of either side matches warns once; one the second
  # side's match does not (pprof's, of the two merged)
  for (k in list(list(focus = "nomatch_zz", want = none), list(focus = "bar", want = character()))) {
    cli <- said(run_pcol("diff", lab, small, "--focus", k$focus)$stderr, "pcol diff: warning: ")
    expect_identical(cli, k$want)
    expect_identical(warned(pcol_diff(lab, small, focus = k$focus)), cli)
  }
  # a day of 2030 past two pcol files of 2017 and 2022
  d <- file.path(tempfile("pcol"), "far")
  dir.create(d, recursive = TRUE)
  on.exit(unlink(dirname(d), recursive = TRUE), add = TRUE)
  run_pcol("pack", small, "-o", file.path(d, "1.pcol"))
  run_pcol("pack", lab, "-o", file.path(d, "2.pcol"))
  day <- c("2030-01-01T00:00:00Z", "2030-01-02T00:00:00Z")
  r <- run_pcol("top", d, "--from", day[1], "--to", day[2], check = FALSE)
  expect_equal(r$status, 0)
  cli <- said(r$stderr, "pcol top: warning: ")
  expect_length(cli, 1L)
  expect_true(startsWith(cli, paste0(d, ": the range --from 2030-01-01T00:00:00.000Z --to 2030-01-02T00:00:00.000Z selects no sample")))
  t <- top_warned(d, from = day[1], to = day[2])
  expect_identical(t$warned, cli)
  expect_identical(nrow(t$t), 0L)
  expect_equal(attr(t$t, "total"), 0)
})

test_that("a value only files out of a wall-clock range have is refused, as pcol top DIR refuses it", {
  # the directory read whole knows the values of the files the range keeps
  # (pcol_selection_sources), as the CLI's union of those files: the heap
  # profile's alloc_space beside the CPU profile of the range's hour is
  # refused in the CLI's words (before: counted 0); an index N counts among
  # the kept files' values
  skip_without_testdata()
  cpu <- file.path(TESTDATA, "pprof", "go-cpu-string-labels.pb.gz")
  heap <- file.path(TESTDATA, "pprof", "go-heap-allocs-inline.pb.gz")
  skip_if_not(file.exists(cpu) && file.exists(heap))
  d <- linked_dir(c(cpu, heap), "far")
  on.exit(unlink(dirname(d), recursive = TRUE), add = TRUE)
  r <- c("2022-06-09T18:22:00Z", "2022-06-09T18:23:00Z")
  for (value in c("alloc_space", "1", "2", "cpu")) {
    cli <- run_pcol("top", d, "--from", r[1], "--to", r[2], "--value", value, "--format", "json", check = FALSE)
    if (cli$status != 0) {
      expect_false(value == "cpu")
      msg <- sub("^pcol top: ", "", cli$stderr)
      expect_error(pcol_top(d, value = value, from = r[1], to = r[2]), msg, fixed = TRUE, info = value)
    } else {
      t <- pcol_top(d, value = value, from = r[1], to = r[2])
      want <- jsonlite::fromJSON(rawToChar(cli$stdout))
      expect_identical(c(attr(t, "type"), want$type), c("cpu", "cpu"), info = value)
      expect_equal(attr(t, "total") * 1e9, want$total, info = value)
    }
  }
})
