# Per-function sums computed in R from read_pcol's tables equal R's own
# summaryRprof on the Rprof test files (self = innermost frame's function,
# total = every function of the stack, once per sample).
#
# Files where summaryRprof is known to misread its input are left out,
# each for a reason tests/r/compare_top.R explains: a function name with a
# space (summaryRprof splits it), a line cut short (it counts the fragment),
# appended segments (it counts their headers), a memory prefix after a
# header without memory profiling.
rprof_ok <- function(f) {
  l <- readLines(f, warn = FALSE, encoding = "bytes")
  hdr <- grepl("^(memory profiling: )?(GC profiling: )?(line profiling: )?sample\\.interval=", l, useBytes = TRUE)
  body <- l[!hdr & !grepl("^#File ", l, useBytes = TRUE)]
  if (sum(hdr) != 1 || !hdr[1]) return(FALSE)
  if (any(!endsWith(body, " ") & nzchar(body) & !grepl("^:[0-9:]+:$", body, useBytes = TRUE))) return(FALSE)
  for (ln in body) { # a quoted name with a space: tokens that open or close a quote alone
    ts <- strsplit(sub("^:[0-9]+:[0-9]+:[0-9]+:[0-9]+:", "", ln, useBytes = TRUE), " ", fixed = TRUE)[[1]]
    if (any(xor(grepl('^"', ts, useBytes = TRUE), grepl('"$', ts, useBytes = TRUE))) || any(ts == '"')) return(FALSE)
  }
  if (!grepl("^memory", l[1]) && any(grepl("^:[0-9]+:", body, useBytes = TRUE))) return(FALSE)
  TRUE
}

per_function <- function(p) {
  s <- p$samples
  sl <- p$sample_locations
  fn_of_loc <- p$functions$name[match(p$locations$function_id, p$functions$function_id)]
  name <- fn_of_loc[match(sl$location_id, p$locations$location_id)]
  w <- s$weight[match(sl$sample_id, s$sample_id)]
  keep <- !is.na(name)
  self <- tapply(w[keep & sl$depth == 1L], name[keep & sl$depth == 1L], sum)
  first <- !duplicated(data.frame(sl$sample_id, name)[keep, ]) # once per sample
  total <- tapply(w[keep][first], name[keep][first], sum)
  list(self = self, total = total)
}

test_that("read_pcol's per-function sums equal summaryRprof", {
  skip_without_testdata()
  files <- Filter(rprof_ok, list.files(file.path(TESTDATA, c("rprof", "ext/rprof")), full.names = TRUE))
  expect_gte(length(files), 8L)
  for (f in files) {
    p <- read_pcol(f)
    interval <- as.numeric(p$meta$value[p$meta$key == "rprof.interval_us"]) / 1e6
    ours <- per_function(p)
    sr <- utils::summaryRprof(f)
    digits <- if (interval < 0.01) 3L else 2L
    r_total <- sr$by.total$total.time
    names(r_total) <- gsub('^"|"$', "", rownames(sr$by.total))
    r_self <- sr$by.self$self.time
    names(r_self) <- gsub('^"|"$', "", rownames(sr$by.self))
    expect_setequal(names(ours$total), names(r_total))
    # by.self leaves out what rounds to 0 (200 us intervals, 3 digits)
    expect_setequal(names(ours$self)[round(ours$self * interval, digits) > 0], names(r_self))
    for (n in names(r_total)) {
      expect_equal(round(unname(ours$total[n]) * interval, digits), unname(r_total[n]), info = paste(f, n))
    }
    for (n in names(r_self)) {
      expect_equal(round(unname(ours$self[n]) * interval, digits), unname(r_self[n]), info = paste(f, n))
    }
  }
})
