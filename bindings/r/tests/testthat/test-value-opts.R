# go tool pprof's number-changing options as the CLI has them, each R result
# against `pcol VIEW ... --format json` (helper-query.R's comparisons):
# mean (pprof -mean: top, peek, tree, traces, list), normalize (pprof
# -normalize, with base and diff_base) and drop_negative (pprof
# -drop_negative: top, peek, tree); and their refusals, with the CLI's messages.

# a test profile of ../shared/testdata (FOLDER/NAME), or the test skipped
test_file <- function(name) {
  p <- file.path(TESTDATA, name)
  if (!file.exists(p)) skip(paste(p, "not found"))
  p
}

# the CLI's usage or load error (its first line, "pcol VIEW: " removed) in
# the R package's words: options as R argument names
cli_refusal <- function(...) {
  r <- run_pcol(c(...), check = FALSE)
  expect_true(r$status != 0)
  m <- sub("^pcol [a-z]+: ", "", strsplit(r$stderr, "\n", fixed = TRUE)[[1]][1])
  m <- gsub("--by label:KEY", "by = \"label:KEY\"", m, fixed = TRUE)
  m <- gsub("--diff-base", "diff_base", m, fixed = TRUE)
  gsub("--(base|mean|normalize)", "\\1", m)
}

test_that("mean: top, peek, tree, traces and list as the CLI's --mean", {
  skip_without_testdata()
  f <- test_file("pprof/go-heap-allocs-inline.pb.gz")
  m <- list(mean = TRUE)
  expect_equal(compare_top(f, m, "--mean"), 1L)
  for (v in c("alloc_space", "inuse_space", "alloc_objects", "inuse_objects"))
    compare_top(f, c(m, value = v), c("--mean", "--value", v))
  compare_top(f, c(m, sort = "cum", node_fraction = 0.005, limit = 10),
              c("--mean", "--sort", "cum", "--node-fraction", "0.005", "-n", "10"))
  compare_top(f, c(m, by = "line", limit = 30), c("--mean", "--by", "line", "-n", "30"))
  compare_top(f, c(m, by = "file", sort = "name"), c("--mean", "--by", "file", "--sort", "name"))
  compare_top(f, c(m, focus = "grpc", relative_percentages = TRUE, node_fraction = 0.01),
              c("--mean", "--focus", "grpc", "--relative-percentages", "--node-fraction", "0.01"))
  re <- top_re(f)
  for (x in c(re, "main", "Unmarshal")) {
    compare_peek(f, x, m, "--mean")
    compare_list(f, x, m, "--mean")
  }
  compare_peek(f, "main", c(m, sort = "cum", by = "line"), c("--mean", "--sort", "cum", "--by", "line"))
  compare_peek(f, re, c(m, value = "inuse_space"), c("--mean", "--value", "inuse_space"))
  compare_list(f, re, c(m, value = "inuse_space"), c("--mean", "--value", "inuse_space"))
  compare_tree(f, m, "--mean")
  compare_tree(f, c(m, sort = "cum", node_count = 20, by = "line"),
               c("--mean", "--sort", "cum", "--node-count", "20", "--by", "line"))
  compare_tree(f, c(m, node_fraction = 0, edge_fraction = 0, value = "inuse_space"),
               c("--mean", "--node-fraction", "0", "--edge-fraction", "0", "--value", "inuse_space"))
  compare_traces(f, m, "--mean")
  compare_traces(f, c(m, limit = 7, value = "inuse_space"), c("--mean", "-n", "7", "--value", "inuse_space"))
  compare_traces(f, c(m, focus = "grpc"), c("--mean", "--focus", "grpc"))
  # what it is: bytes per allocation, the type renamed; list keeps its sums
  # and its type, its total the mean one
  t <- pcol_top(f, mean = TRUE)
  s <- pcol_top(f)
  expect_identical(attr(t, "type"), "mean_alloc_space")
  expect_identical(attr(s, "type"), "alloc_space")
  expect_lt(attr(t, "total"), attr(s, "total"))
  expect_identical(attr(pcol_peek(f, re, mean = TRUE), "type"), "mean_alloc_space")
  expect_identical(attr(pcol_tree(f, mean = TRUE), "type"), "mean_alloc_space")
  expect_identical(attr(pcol_traces(f, mean = TRUE, limit = 1), "type"), "mean_alloc_space")
  l <- pcol_list(f, re, mean = TRUE)
  expect_identical(attr(l, "type"), "alloc_space")
  expect_identical(l$self.bytes, pcol_list(f, re)$self.bytes)
  expect_equal(attr(l, "total"), attr(t, "total"))
  expect_identical(pcol_top(f, mean = FALSE), s)
})

test_that("mean of other profiles: delays per contention, Rprof per sample, the CLI's refusals", {
  skip_without_testdata()
  n <- 0L
  for (x in representative()) {
    p <- x[2]
    n <- n + compare_top(p, list(mean = TRUE, limit = 40), c("--mean", "-n", "40"))
    compare_tree(p, list(mean = TRUE, node_count = 30), c("--mean", "--node-count", "30"))
    compare_traces(p, list(mean = TRUE, limit = 30), c("--mean", "-n", "30"))
    re <- top_re(p)
    if (!is.null(re)) compare_peek(p, re, list(mean = TRUE), "--mean")
  }
  expect_gte(n, corpus_min(5L))
  b <- file.path(TESTDATA, "ext/pprof/go-block-net.pb.gz") # pprof -mean_delay
  if (file.exists(b)) {
    compare_top(b, list(mean = TRUE, value = "delay"), c("--mean", "--value", "delay"))
    compare_traces(b, list(mean = TRUE, value = "delay"), c("--mean", "--value", "delay"))
    expect_identical(attr(pcol_top(b, mean = TRUE, value = "delay"), "type"), "mean_delay")
  }
})

test_that("normalize with base and diff_base as the CLI's --normalize", {
  skip_without_testdata()
  a <- test_file("pprof/go-heap-allocs-inline.pb.gz")
  b <- test_file("pprof/go-heap-delta-negative-values.pb.gz")
  c <- test_file("pprof/go-heap-nomappings-nofunctions.pb.gz")
  for (p in list(c(a, b), c(b, a), c(a, c), c(c, b))) {
    x <- p[1]
    y <- p[2]
    expect_equal(compare_top(x, list(normalize = TRUE, base = y), c("--normalize", "--base", y)), 1L)
    compare_top(x, list(normalize = TRUE, diff_base = y), c("--normalize", "--diff-base", y))
    compare_top(x, list(normalize = TRUE, diff_base = y, sort = "cum", value = "alloc_objects"),
                c("--normalize", "--diff-base", y, "--sort", "cum", "--value", "alloc_objects"))
    compare_top(x, list(normalize = TRUE, base = y, value = "inuse_space", by = "line", limit = 25),
                c("--normalize", "--base", y, "--value", "inuse_space", "--by", "line", "-n", "25"))
    compare_traces(x, list(normalize = TRUE, diff_base = y, limit = 40), c("--normalize", "--diff-base", y, "-n", "40"))
    compare_tree(x, list(normalize = TRUE, base = y), c("--normalize", "--base", y))
    re <- top_re(x)
    if (!is.null(re)) {
      compare_peek(x, re, list(normalize = TRUE, diff_base = y), c("--normalize", "--diff-base", y))
      compare_list(x, re, list(normalize = TRUE, base = y), c("--normalize", "--base", y))
    }
    # it changes the numbers: x scaled to y's totals before the subtraction
    expect_false(identical(pcol_top(x, base = y)$self.bytes, pcol_top(x, base = y, normalize = TRUE)$self.bytes))
    expect_identical(pcol_top(x, base = y, normalize = FALSE), pcol_top(x, base = y))
  }
  # a base of other value types: the CLI's error
  cpu <- file.path(TESTDATA, "pprof/go-cpu-inline-small.pb.gz")
  if (file.exists(cpu)) compare_top(a, list(normalize = TRUE, base = cpu), c("--normalize", "--base", cpu))
})

test_that("drop_negative as the CLI's top --drop-negative", {
  skip_without_testdata()
  d <- test_file("pprof/go-heap-delta-negative-values.pb.gz")
  dn <- list(drop_negative = TRUE)
  for (v in list(NULL, "alloc_objects", "alloc_space", "inuse_objects", "inuse_space")) {
    va <- if (is.null(v)) list() else list(value = v)
    vc <- if (is.null(v)) character() else c("--value", v)
    expect_equal(compare_top(d, c(dn, va), c("--drop-negative", vc)), 1L)
    compare_top(d, c(dn, va, node_fraction = 0.005), c("--drop-negative", vc, "--node-fraction", "0.005"))
    compare_top(d, c(dn, va, node_fraction = 0.005, limit = 10, sort = "cum"),
                c("--drop-negative", vc, "--node-fraction", "0.005", "-n", "10", "--sort", "cum"))
    compare_top(d, c(dn, va, by = "line", limit = 30), c("--drop-negative", vc, "--by", "line", "-n", "30"))
    t <- do.call(pcol_top, c(list(d), dn, va))
    s <- do.call(pcol_top, c(list(d), va))
    expect_true(all(t[[2]] > 0 | (t[[2]] == 0 & t[[5]] >= 0)))
    expect_lte(nrow(t), nrow(s))
  }
  for (k in head(label_keys(d), 2))
    compare_top(d, c(dn, by = paste0("label:", k)), c("--drop-negative", "--by", paste0("label:", k)))
  compare_top(d, c(dn, mean = TRUE), c("--drop-negative", "--mean"))
  # peek and tree: the negative nodes unlisted, their calls kept; list: the
  # negative lines left out
  for (v in c("alloc_space", "inuse_space")) {
    compare_list(d, "parquet", c(dn, value = v), c("--drop-negative", "--value", v))
    compare_peek(d, ".", c(dn, value = v), c("--drop-negative", "--value", v))
    compare_peek(d, "parquet", c(dn, value = v, sort = "cum", mean = TRUE),
                 c("--drop-negative", "--value", v, "--sort", "cum", "--mean"))
    compare_tree(d, c(dn, value = v), c("--drop-negative", "--value", v))
    compare_tree(d, c(dn, value = v, node_count = 8, edge_fraction = 0),
                 c("--drop-negative", "--value", v, "--node-count", "8", "--edge-fraction", "0"))
    p <- pcol_peek(d, ".", value = v, drop_negative = TRUE)
    n <- p[p$relation == "node", ]
    expect_true(all(vcol(n, "self") > 0 | (vcol(n, "self") == 0 & vcol(n, "total") >= 0)))
    all_nodes <- sum(pcol_peek(d, ".", value = v)$relation == "node")
    if (v == "inuse_space") expect_lt(nrow(n), all_nodes) else expect_lte(nrow(n), all_nodes) # (no alloc_space node is below 0)
  }
  # what shrank under a base
  a <- test_file("pprof/go-heap-allocs-inline.pb.gz")
  compare_top(a, c(dn, diff_base = d), c("--drop-negative", "--diff-base", d))
  # mean with a base (pprof -mean -base): the differences over the counts'
  compare_top(a, list(mean = TRUE, diff_base = d), c("--mean", "--diff-base", d))
  compare_top(a, list(mean = TRUE, base = d, value = "inuse_space"), c("--mean", "--base", d, "--value", "inuse_space"))
  compare_top(a, c(dn, base = d, normalize = TRUE, node_fraction = 0.01),
              c("--drop-negative", "--base", d, "--normalize", "--node-fraction", "0.01"))
  compare_top(d, c(dn, base = a, by = "label:bytes", limit = 5),
              c("--drop-negative", "--base", a, "--by", "label:bytes", "-n", "5"))
})

test_that("refusals: mean by label, normalize without a base", {
  skip_without_testdata()
  f <- test_file("pprof/go-heap-allocs-inline.pb.gz")
  b <- test_file("pprof/go-heap-delta-negative-values.pb.gz")
  expect_error(pcol_top(f, mean = TRUE, by = "label:bytes"),
               cli_refusal("top", f, "--mean", "--by", "label:bytes"), fixed = TRUE)
  # before the file is read, as the CLI's usage errors
  expect_error(pcol_top(file.path(tempdir(), "nope.pb"), mean = TRUE, by = "label:bytes"), "not with by", fixed = TRUE)
  expect_error(pcol_top(f, mean = TRUE, base = b, by = "label:bytes"), "not with by", fixed = TRUE)
  views <- list(top = function(...) pcol_top(f, ...), peek = function(...) pcol_peek(f, "main", ...),
                tree = function(...) pcol_tree(f, ...), traces = function(...) pcol_traces(f, ...),
                list = function(...) pcol_list(f, "main", ...))
  for (v in names(views)) {
    pos <- if (v %in% c("peek", "list")) c(f, "main") else f
    expect_error(views[[v]](normalize = TRUE), cli_refusal(v, pos, "--normalize"), fixed = TRUE, info = v)
    expect_error(views[[v]](normalize = TRUE, mean = TRUE), cli_refusal(v, pos, "--normalize", "--mean"),
                 fixed = TRUE, info = v)
  }
  for (call in list(quote(pcol_tags(f, normalize = TRUE)), quote(pcol_fold(f, normalize = TRUE)),
                    quote(pcol_diff(f, f, normalize = TRUE))))
    expect_error(eval(call), "pprof: must have base profile to normalize by", fixed = TRUE)
  expect_error(pcol_top(f, normalize = TRUE, base = b, diff_base = b), "not both")
})

test_that("divide_by: refused, as the CLI's --format json refuses --divide-by", {
  skip_without_testdata()
  f <- test_file("pprof/go-cpu-inline-small.pb.gz")
  views <- list(top = function(...) pcol_top(f, ...), peek = function(...) pcol_peek(f, "main", ...),
                tree = function(...) pcol_tree(f, ...), traces = function(...) pcol_traces(f, ...),
                list = function(...) pcol_list(f, "main", ...), diff = function(...) pcol_diff(f, f, ...))
  for (v in names(views)) {
    pos <- if (v %in% c("peek", "list")) c(f, "main") else if (v == "diff") c(f, f) else f
    r <- run_pcol(c(v, pos, "--divide-by", "3", "--format", "json"), check = FALSE)
    expect_equal(r$status, 2L, info = v)
    expect_true(grepl("--divide-by", r$stderr, fixed = TRUE), info = v)
    expect_error(views[[v]](divide_by = 3), "divide_by: a view's numbers are raw", fixed = TRUE, info = v)
    expect_true(nrow(views[[v]]()) > 0, info = v)
  }
})

test_that("base/diff_base with tagroot: a label key of either side, as pprof -tagroot -base", {
  # pprof merges the profile and its base before it adds the frames (and
  # pcol_diff's sides are framed at once): the side without the key gets
  # its "<unknown>" frame; a key of neither side names every frame
  # "<unknown>" with pprof's warning, as the CLI
  a <- test_file("pprof/go-cpu-string-labels.pb.gz") # label "function"
  b <- test_file("pprof/go-cpu-inline-small.pb.gz")  # no labels
  for (o in c("base", "diff_base")) {
    for (p in list(c(a, b), c(b, a))) {
      args <- list(tagroot = "function", node_fraction = 0)
      args[[o]] <- p[2]
      cli <- c("--tagroot", "function", "--node-fraction", "0", paste0("--", sub("_", "-", o)), p[2])
      compare_top(p[1], args, cli)
      expect_true("<unknown>" %in% do.call(pcol_top, c(list(p[1]), args))$name)
    }
    args <- list(tagroot = "nokey", node_fraction = 0)
    args[[o]] <- b
    expect_warning(t <- do.call(pcol_top, c(list(a), args)), "^TagRoot expression matched no samples$")
    expect_true("<unknown>" %in% t$name)
    r <- run_pcol("top", a, "--tagroot", "nokey", paste0("--", sub("_", "-", o)), b)
    expect_identical(r$stderr, "pcol top: warning: TagRoot expression matched no samples")
    suppressWarnings(compare_top(a, args, c("--tagroot", "nokey", "--node-fraction", "0", paste0("--", sub("_", "-", o)), b)))
  }
  w <- character()
  d <- withCallingHandlers(pcol_diff(a, b, tagroot = "nokey", tagleaf = "function"),
                           warning = function(e) { w <<- c(w, conditionMessage(e)); invokeRestart("muffleWarning") })
  expect_identical(w, "TagRoot expression matched no samples") # the key of one side: no TagLeaf warning
  expect_true("<unknown>" %in% d$name)
  w <- character()
  withCallingHandlers(pcol_top(a, tagroot = "nokey", tagleaf = "nokey"),
                      warning = function(e) { w <<- c(w, conditionMessage(e)); invokeRestart("muffleWarning") })
  expect_identical(w, c("TagRoot expression matched no samples", "TagLeaf expression matched no samples"))
})

test_that("pcol_diff with tagroot: the side whose frames fail is the one named, as the CLI's", {
  a <- test_file("pprof/go-cpu-string-labels.pb.gz")
  good <- tempfile(fileext = ".pcol"); bad <- tempfile(fileext = ".pcol")
  on.exit(unlink(c(good, bad)))
  run_pcol("pack", a, "-o", good, "--format-version", "1.2") # plain ids, patched in place
  info <- strsplit(trimws(strsplit(rawToChar(run_pcol("info", good)$stdout), "\n")[[1]]), " +")
  off <- as.numeric(Filter(function(x) length(x) >= 5 && x[1] == "samples_stored" && x[2] == "labelset_id", info)[[1]][5])
  b <- readBin(good, "raw", file.size(good))
  b[off + 1:4] <- as.raw(c(0xff, 0xff, 0xff, 0x7f)) # a labelset_id only the frames read, past its table
  writeBin(b, bad)
  want <- "table samples_stored, column labelset_id: id 2147483647 at row 0 is out of range"
  for (p in list(c(good, bad), c(bad, good))) {
    e <- tryCatch(pcol_diff(p[1], p[2], tagroot = "function"), error = function(e) conditionMessage(e))
    expect_true(grepl(paste0(bad, ": ", want), e, fixed = TRUE), info = e)
    r <- run_pcol("diff", p[1], p[2], "--tagroot", "function", check = FALSE)
    expect_true(grepl(paste0("pcol diff: ", bad, ": ", want), r$stderr, fixed = TRUE), info = r$stderr)
  }
})
