# write_pcol of read_pcol's result packs back to a file with equal tables;
# profile v1 lists are written too.
test_that("write_pcol(read_pcol(f)) has equal tables, for every test profile", {
  skip_without_testdata()
  n <- 0L
  for (x in packed()) {
    p <- read_pcol(x[2])
    out <- tempfile(fileext = ".pcol")
    write_pcol(p, out)
    q <- read_pcol(out)
    differ <- names(p)[!mapply(identical, p, q)]
    expect(length(differ) == 0L, paste(x[2], "views differ:", paste(differ, collapse = ", ")))
    expect_true(pcol_validate(out))
    expect(run_pcol("validate", "--full", out, check = FALSE)$status == 0L, paste("pcol validate --full", x[2]))
    unlink(out)
    n <- n + 1L
  }
  expect_gt(n, corpus_min(50L))
})

test_that("write_pcol compresses, and refuses what it cannot store", {
  skip_without_testdata()
  p <- read_pcol(packed()[[1]][2])
  out <- tempfile(fileext = ".pcol")
  write_pcol(p, out, compress = TRUE)
  expect_identical(read_pcol(out), p)
  bad <- p
  bad$samples$stack_id[1] <- 999999L
  expect_error(write_pcol(bad, out), "samples\\$stack_id, row 1: refers to id 999999")
  bad <- p
  bad$samples$weight[1] <- 1.5
  expect_error(write_pcol(bad, out), "not a whole number")
  expect_error(write_pcol(list(samples = 1), out), "must be a data frame")
  expect_identical(read_pcol(out), p) # a failed write leaves the old file
})

# A profile v1 list, as r-prof/profile's read_rprof returns it: samples
# aggregated (value = run of consecutive identical stacks), a list column of
# locations innermost first.
v1_from <- function(p) {
  sl <- p$sample_locations
  stacks <- split(sl$location_id, factor(sl$sample_id, levels = p$samples$sample_id))
  key <- vapply(stacks, paste, character(1), collapse = " ")
  runs <- rle(key)
  starts <- cumsum(c(1L, head(runs$lengths, -1L)))
  list(
    meta = data.frame(key = "version", value = "1.0", stringsAsFactors = FALSE),
    sample_types = data.frame(type = "samples", unit = "count", stringsAsFactors = FALSE),
    samples = structure(list(value = runs$lengths,
                             locations = lapply(stacks[starts], function(l) data.frame(location_id = l))),
                        class = "data.frame", row.names = .set_row_names(length(starts))),
    locations = p$locations[c("location_id", "function_id", "line")],
    functions = p$functions[c("function_id", "name", "system_name", "filename", "start_line")],
    .rprof = TRUE # read_rprof's hidden component: the profile came from Rprof
  )
}

test_that("write_pcol of a profile v1 list gives the same top as the original", {
  skip_without_testdata()
  n <- 0L
  for (x in packed()) {
    if (!grepl("/rprof/", x[1])) next
    p <- read_pcol(x[2])
    if (any(p$samples$weight != 1)) next
    v1 <- v1_from(p)
    out <- tempfile(fileext = ".pcol")
    write_pcol(v1, out)
    q <- read_pcol(out)
    expect_equal(sum(q$samples$weight), nrow(p$samples))
    expect_identical(q$sources$source_type, "rprof")
    a <- pcol_top(x[2], value = "weight")
    b <- pcol_top(out, value = "weight")
    expect_identical(b[c("name", "self", "total")], a[c("name", "self", "total")], info = x[1])
    unlink(out)
    n <- n + 1L
  }
  expect_gte(n, corpus_min(8L))
})

test_that("a hand-written profile v1 list", {
  v1 <- list(
    meta = data.frame(key = "version", value = "1.0"),
    sample_types = data.frame(type = "samples", unit = "count"),
    samples = structure(list(value = c(3L, 2L), locations = list(data.frame(location_id = c(11L, 12L)),
                                                                 data.frame(location_id = 12L))),
                        class = "data.frame", row.names = .set_row_names(2L)),
    locations = data.frame(location_id = c(11L, 12L), function_id = c(7L, 9L), line = c(0L, 3L)),
    functions = data.frame(function_id = c(7L, 9L), name = c("inner", "outer"), system_name = c("inner", "outer"),
                           filename = c("a.R", "b.R"), start_line = c(0L, 0L)))
  out <- tempfile(fileext = ".pcol")
  write_pcol(v1, out)
  t <- pcol_top(out)
  expect_identical(t$name, c("inner", "outer"))
  expect_identical(t$self, c(3, 2))
  expect_identical(t$total, c(3, 5))
  p <- read_pcol(out)
  expect_identical(p$sample_locations$location_id, c(1L, 2L, 2L)) # ids renumbered 1..n
  expect_identical(p$functions$name[p$locations$function_id], c("inner", "outer"))
  expect_identical(p$meta$value[p$meta$key == "version"], "1.0")
  expect_identical(p$sources$source_type, "profile")
})

# Profiles made from R data frames (profile v2 tables; a v1 list), read back
# by the CLI: its totals and per-function sums are the ones computed here
# from the data frames themselves.
test_that("data frames written with write_pcol read back in the CLI with the same totals", {
  skip_if_not(file.exists(PCOL), "pcol CLI not found")
  set.seed(33)
  n <- 500L
  fns <- c("main", "parse", "eval", "alloc")
  depth <- sample(1:4, n, replace = TRUE)
  sl <- data.frame(sample_id = rep(seq_len(n), depth), depth = sequence(depth))
  sl$location_id <- depth[sl$sample_id] - sl$depth + 1L # outermost (depth k) is main
  cpu <- sample(1:9, n, replace = TRUE) * 1e7 # nanoseconds
  mem <- sample(0:4096, n, replace = TRUE)
  v2 <- list(
    sources = data.frame(source_id = 1L, source_type = "r-made", source_uri = NA_character_),
    value_types = data.frame(value_type_id = 1:2, type = c("cpu", "alloc"), unit = c("nanoseconds", "bytes")),
    functions = data.frame(function_id = 1:4, name = fns, filename = "x.R"),
    locations = data.frame(location_id = 1:4, function_id = 1:4, line = 10L * (1:4)),
    source_value_types = data.frame(source_id = 1L, value_type_id = 1:2),
    samples = data.frame(sample_id = seq_len(n), source_id = 1L, time_ns = seq_len(n) * 1e7, weight = 1L),
    sample_locations = sl,
    sample_values = data.frame(sample_id = rep(seq_len(n), 2), type = rep(c("cpu", "alloc"), each = n),
                               unit = rep(c("nanoseconds", "bytes"), each = n), value = c(cpu, mem)))
  out <- tempfile(fileext = ".pcol")
  write_pcol(v2, out)
  leaf <- fns[depth] # the innermost frame of each sample
  for (v in list(c("cpu", "nanoseconds"), c("alloc", "bytes"))) {
    x <- if (v[1] == "cpu") cpu else mem
    j <- jsonlite::fromJSON(rawToChar(run_pcol("top", out, "--value", v[1], "--format", "json")$stdout))
    expect_identical(c(j$type, j$unit), v)
    expect_equal(as.numeric(j$total), sum(x))
    flat <- tapply(x, leaf, sum)
    expect_equal(as.numeric(j$rows$flat), unname(as.numeric(flat[j$rows$name])))
    cum <- sapply(j$rows$name, function(f) sum(x[depth >= match(f, fns)]))
    expect_equal(as.numeric(j$rows$cum), unname(cum))
  }
  # the package's own view of it: seconds and bytes
  t <- pcol_top(out, value = "cpu")
  expect_equal(attr(t, "total"), sum(cpu) / 1e9)
  expect_equal(sum(t$self.time), sum(cpu) / 1e9)
  # a time range: samples 101..200 (times 1.01 s .. 2.00 s)
  j <- jsonlite::fromJSON(rawToChar(run_pcol("top", out, "--value", "cpu", "--from", "1.005", "--to", "2.005", "--format", "json")$stdout))
  expect_equal(as.numeric(j$total), sum(cpu[101:200]))

  # profile v1: aggregated samples with a list column of locations
  v1 <- list(
    meta = data.frame(key = "version", value = "1.0"),
    sample_types = data.frame(type = "cpu", unit = "nanoseconds"),
    samples = structure(list(value = cpu[1:50], locations = lapply(depth[1:50], function(d) data.frame(location_id = rev(seq_len(d))))),
                        class = "data.frame", row.names = .set_row_names(50L)),
    locations = data.frame(location_id = 1:4, function_id = 1:4, line = 0L),
    functions = data.frame(function_id = 1:4, name = fns, system_name = fns, filename = "x.R", start_line = 0L))
  out1 <- tempfile(fileext = ".pcol")
  write_pcol(v1, out1)
  j <- jsonlite::fromJSON(rawToChar(run_pcol("top", out1, "--value", "cpu", "--format", "json")$stdout))
  expect_equal(as.numeric(j$total), sum(cpu[1:50]))
  expect_equal(as.numeric(j$rows$flat), unname(as.numeric(tapply(cpu[1:50], leaf[1:50], sum)[j$rows$name])))
})
