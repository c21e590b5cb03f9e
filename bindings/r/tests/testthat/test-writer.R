# pcol_writer (the streaming writer): files read back with exactly the
# samples added (stacks, values, times, labels), one by one and in batches;
# a roll gives several valid files holding everything added; pcol top of
# them adds up what was added.

gen_samples <- function(n, seed) {
  set.seed(seed)
  fns <- c("parse", "eval", "alloc", "gc", "io\u00e9")
  stacks <- lapply(seq_len(n), function(i) c("main", sample(fns, sample(0:3, 1), replace = TRUE)))
  values <- cbind(sample(1:9, n, replace = TRUE) * 1e7, sample(0:4096, n, replace = TRUE))
  # whole milliseconds from a whole second: exact in seconds as doubles
  times <- 1700000000 + cumsum(sample(0:2, n, replace = TRUE)) / 1000
  labels <- lapply(seq_len(n), function(i) {
    l <- list()
    if (i %% 3) l$thread <- sample(c("io", "cpu"), 1)
    if (i %% 5 == 0) l$bytes <- sample(0:99, 1)
    l
  })
  list(stacks = stacks, values = values, times = times, labels = labels)
}

sort_labels <- function(l) if (length(l)) l[order(names(l))] else list()

# the samples of the files in order: list(stack root first, values, time (s), labels)
read_back <- function(files) {
  out <- list()
  for (f in files) {
    p <- read_pcol(f)
    fn <- p$functions$name[match(p$locations$function_id[match(p$sample_locations$location_id, p$locations$location_id)],
                                 p$functions$function_id)]
    sl <- p$sample_locations
    m <- p$meta
    start <- as.numeric(m$value[m$key == "pprof.time_nanos"]) # the source's start (spec.md §7)
    for (k in seq_len(nrow(p$samples))) {
      id <- p$samples$sample_id[k]
      j <- which(sl$sample_id == id)
      st <- fn[j][order(-sl$depth[j])] # root (deepest) first
      v <- p$sample_values$value[p$sample_values$sample_id == id]
      lb <- p$sample_labels[p$sample_labels$sample_id == id, ]
      labs <- list()
      for (r in seq_len(nrow(lb))) labs[[lb$key[r]]] <- if (is.na(lb$str[r])) lb$num[r] else lb$str[r]
      out[[length(out) + 1L]] <- list(st, v, (start + p$samples$time_ns[k]) / 1e9, sort_labels(labs))
    }
  }
  out
}

expected <- function(g, idx = seq_along(g$stacks))
  lapply(idx, function(i) {
    l <- g$labels[[i]] # a label set: keys in order
    list(g$stacks[[i]], g$values[i, ], g$times[i], sort_labels(l))
  })

test_that("pcol_writer: samples one by one and in batches read back as added", {
  g <- gen_samples(300, 1)
  f <- tempfile(fileext = ".pcol")
  w <- pcol_writer(f, c("cpu/nanoseconds", "alloc/bytes"), period = list(1e7, "cpu/nanoseconds"), meta = list(who = "test"))
  for (i in 1:100) pcol_writer_add(w, g$stacks[[i]], g$values[i, ], time = g$times[i], labels = g$labels[[i]])
  expect_equal(pcol_writer_pending(w), 100)
  expect_equal(pcol_writer_add(w, g$stacks[101:300], g$values[101:300, ], time = g$times[101:300],
                               labels = g$labels[101:300]), 200)
  expect_identical(pcol_writer_close(w), f)
  expect_identical(pcol_writer_files(w), f)
  expect_error(pcol_writer_add(w, "main", c(1, 2)), "closed")
  expect_equal(read_back(f), expected(g))
  expect_true(pcol_validate(f))
  skip_if_not(file.exists(PCOL))
  j <- jsonlite::fromJSON(rawToChar(run_pcol("top", f, "--value", "cpu", "--format", "json")$stdout))
  expect_equal(as.numeric(j$total), sum(g$values[, 1]))
  leaf <- vapply(g$stacks, function(s) s[length(s)], "")
  expect_equal(as.numeric(j$rows$flat), unname(as.numeric(tapply(g$values[, 1], leaf, sum)[j$rows$name])))
})

test_that("pcol_writer: frames with files and lines; weights", {
  f <- tempfile(fileext = ".pcol")
  w <- pcol_writer(f, "samples/count")
  pcol_writer_add(w, data.frame(`function` = c("main", "work"), file = c("m.R", "w.R"), line = c(3, 10),
                                check.names = FALSE), 2)
  pcol_writer_add(w, list(data.frame(`function` = c("main", "work", "leaf"), line = c(3, 11, NA),
                                     check.names = FALSE)), 1, weight = 4)
  pcol_writer_close(w)
  expect_setequal(pcol_fold(f)$stack, c("main;work", "main;work;leaf"))
  l <- pcol_list(f, "^work$", by = "function")
  expect_identical(l$line[!is.na(l$self) & l$self > 0], 10)
  expect_identical(read_pcol(f)$samples$weight, c(1, 4))
})

test_that("pcol_writer: a roll gives several valid files holding every sample", {
  g <- gen_samples(1000, 2)
  d <- tempfile("roll")
  dir.create(d)
  f <- file.path(d, "roll.pcol")
  w <- pcol_writer(f, c("cpu/nanoseconds", "alloc/bytes"), roll_samples = 300)
  for (k in seq(1, 1000, by = 70)) {
    i <- k:min(k + 69, 1000)
    pcol_writer_add(w, g$stacks[i], g$values[i, , drop = FALSE], time = g$times[i], labels = g$labels[i])
    expect_lt(pcol_writer_pending(w), 300)
  }
  files <- pcol_writer_close(w)
  expect_length(files, 4L)
  expect_identical(sort(list.files(d, all.files = TRUE, no.. = TRUE)), basename(files)) # no temporary left
  expect_true(all(grepl("^roll-[0-9]{8}T[0-9]{6}\\.[0-9]{3}Z-00000[1-4]\\.pcol$", basename(files))))
  for (x in files) expect_true(pcol_validate(x))
  expect_equal(read_back(files), expected(g))
  skip_if_not(file.exists(PCOL))
  for (x in files) expect_equal(run_pcol("validate", "--full", x, check = FALSE)$status, 0L)
  j <- jsonlite::fromJSON(rawToChar(run_pcol(c("top", files, "--value", "alloc", "--format", "json"))$stdout))
  expect_equal(as.numeric(j$total), sum(g$values[, 2]))
})

test_that("pcol_writer refuses bad input and names the sample", {
  f <- tempfile(fileext = ".pcol")
  expect_error(pcol_writer(f, "cpu"), "TYPE/UNIT")
  expect_error(pcol_writer(file.path(tempfile(), "x.pcol")))
  w <- pcol_writer(f, "samples/count")
  expect_error(pcol_writer_add(w, "main", c(1, 2)), "values")
  expect_error(pcol_writer_add(w, "main", 1.5), "whole number")
  pcol_writer_add(w, "main", 5, time = 2)
  expect_error(pcol_writer_add(w, list("a", "b", "c"), c(1, 2, 3), time = c(3, 1, 4)), "sample 2")
  expect_equal(pcol_writer_pending(w), 2)
  pcol_writer_close(w)
  expect_setequal(paste(pcol_fold(f)$stack, pcol_fold(f)$value), c("main 5", "a 1"))
})

test_that("pcol_writer: the default value is the last value type (pprof's rule), or default (review 16 m2)", {
  top_type <- function(...) {
    f <- tempfile(fileext = ".pcol")
    on.exit(unlink(f))
    w <- pcol_writer(f, c("cpu/nanoseconds", "alloc/bytes"), ...)
    pcol_writer_add(w, c("main", "work"), c(1e7, 512))
    pcol_writer_close(w)
    ty <- attr(pcol_top(f), "type")
    if (file.exists(PCOL))
      expect_identical(jsonlite::fromJSON(rawToChar(run_pcol("top", f, "--format", "json")$stdout))$type, ty)
    ty
  }
  expect_identical(top_type(), "alloc")
  expect_identical(top_type(default = "cpu"), "cpu")
  expect_identical(top_type(default = "cpu/nanoseconds"), "cpu")
  expect_identical(top_type(default = "alloc"), "alloc")
  expect_identical(top_type(meta = list(pprof.default_sample_type = "cpu")), "cpu")
  expect_error(pcol_writer(tempfile(), "cpu/nanoseconds", default = "wall"), "one of values")
  expect_error(pcol_writer(tempfile(), "cpu/nanoseconds", default = "cpu", meta = list(pprof.default_sample_type = "cpu")),
               "not both")
})
