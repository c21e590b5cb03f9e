# compare_time.R — is `pcol top --value cpu` the time R spent, segment by
# segment?  (The time rule, doc/mappings.md §0.)
#
#   Rscript tests/r/compare_time.R PROFILE TIME.csv [PPROF_TOP.txt]
#
# PPROF_TOP.txt (optional): `go tool pprof -top -sample_index=cpu -unit=ns` of PROFILE exported
# with `pcol unpack --to pprof`; its total must be the same time.
# TIME.csv: `pcol top --value cpu --format csv` of PROFILE (nanoseconds).
# This script walks the file as R wrote it: each header line sets the
# interval of the sample lines after it (Rprof(append = TRUE) may change
# it), and a sample line is one tick of that interval.  summaryRprof cannot
# be the judge here: it applies the first header's interval to the whole
# file.  Checked: the total, and self and total time of every function whose
# name is a plain quoted token (the innermost name for self, as summaryRprof
# with lines = "hide"; once per line for total), exactly, in nanoseconds.
# Names holding a quote are skipped (this walk cannot split them).
args <- commandArgs(trailingOnly = TRUE)
stopifnot(length(args) %in% 2:3)
lines <- readLines(args[[1]], warn = FALSE, encoding = "bytes")
top <- read.csv(args[[2]], stringsAsFactors = FALSE, check.names = FALSE,
                na.strings = character(0), encoding = "UTF-8")
hdr_re <- "^(memory profiling: )?(GC profiling: )?(line profiling: )?sample\\.interval=([0-9]+)$"
iv <- NA_real_
total <- 0
empty <- 0
self <- list(); cum <- list()
add <- function(tab, k, v) { tab[[k]] <- (if (is.null(tab[[k]])) 0 else tab[[k]]) + v; tab }
for (ln in lines) {
  if (grepl(hdr_re, ln)) { iv <- as.numeric(sub(hdr_re, "\\4", ln)) * 1000; next }
  if (grepl("^#File [0-9]+: ", ln)) next
  body <- sub("^:[0-9]+:[0-9]+:[0-9]+:[0-9]+:", "", ln)
  total <- total + iv
  toks <- regmatches(body, gregexpr("\"[^\"]*\"|[0-9]+#[0-9]+", body))[[1]]
  if (!length(toks)) { empty <- empty + iv; next } # no frame: in no row of top
  names <- gsub("\"", "", toks[startsWith(toks, "\"")])
  if (!length(names)) next
  self <- add(self, names[1], iv) # a line ref belongs to the function after it
  for (n in unique(names)) cum <- add(cum, n, iv)
}
fail <- 0L
bad <- function(...) { cat("FAIL:", ..., "\n"); fail <<- 1L }
pcol_total <- sum(top$flat) # flat over all rows, incl. <no location>
if (pcol_total != total - empty)
  bad(sprintf("%s: total %.0f ns, R wrote %.0f ns (%.0f of them with no frame)", args[[1]],
              pcol_total, total, empty))
if (length(args) == 3) {
  hdr <- grep(" total$", readLines(args[[3]]), value = TRUE)
  go_total <- as.numeric(sub(".* of ([0-9.e+]+)ns total$", "\\1", hdr[1]))
  if (is.na(go_total) || go_total != total)
    bad(sprintf("%s: go tool pprof on the pprof export says %s, R wrote %.0f ns", args[[1]], hdr[1], total))
}
for (n in names(cum)) {
  if (grepl("[][]", n) && !(n %in% top$name)) next # a name cut at an inner quote
  r <- top[top$name == n, ]
  if (nrow(r) != 1) { bad(sprintf("%s: function %s missing in pcol top", args[[1]], n)); next }
  s <- if (is.null(self[[n]])) 0 else self[[n]]
  if (r$flat != s || r$cum != cum[[n]])
    bad(sprintf("%s: %s self %.0f cum %.0f ns, R wrote %.0f / %.0f", args[[1]], n, r$flat, r$cum, s, cum[[n]]))
}
cat(sprintf("time of %s: %d functions, %.3f s, per segment\n", basename(args[[1]]), length(cum), total / 1e9))
quit(status = fail)
