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
# A name holding `" "` or `" 1#2 ` cannot be told from several (Rprof has no
# escaping); such names are skipped.
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
# keyed by "=" NAME: R's lists cannot hold the name "" (a frame R may write)
add <- function(tab, k, v) { k <- paste0("=", k); tab[[k]] <- (if (is.null(tab[[k]])) 0 else tab[[k]]) + v; tab }
for (ln in lines) {
  if (grepl(hdr_re, ln)) { iv <- as.numeric(sub(hdr_re, "\\4", ln)) * 1000; next }
  if (grepl("^#File [0-9]+: ", ln)) next
  body <- sub("^:[0-9]+:[0-9]+:[0-9]+:[0-9]+:", "", ln)
  total <- total + iv
  # a name ends at a `" ` before a name, a ref or the end of the line (it may
  # hold blanks and quotes: "q"uote", "lst[["f"]]"), doc/mappings.md §1.1
  toks <- regmatches(body, gregexpr('".*?"(?: (?="|[0-9]+#[0-9]+ |$)|$)|[0-9]+#[0-9]+', body, perl = TRUE))[[1]]
  toks <- sub(" $", "", toks)
  if (!length(toks)) { empty <- empty + iv; next } # no frame: in no row of top
  names <- sub('^"(.*)"$', "\\1", toks[startsWith(toks, '"')])
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
  go_total <- as.numeric(sub(".* of ([0-9.e+]+)(ns)? total$", "\\1", hdr[1])) # "of 0 total": none
  if (is.na(go_total) || go_total != total)
    bad(sprintf("%s: go tool pprof on the pprof export says %s, R wrote %.0f ns", args[[1]], hdr[1], total))
}
for (k in names(cum)) {
  n <- substring(k, 2)
  if (n == "") n <- "<unknown>" # a function named "": pcol's views show <unknown> (review 22 F8)
  r <- top[top$name == n, ]
  if (nrow(r) != 1) { bad(sprintf("%s: function %s missing in pcol top", args[[1]], n)); next }
  s <- if (is.null(self[[k]])) 0 else self[[k]]
  if (r$flat != s || r$cum != cum[[k]])
    bad(sprintf("%s: %s self %.0f cum %.0f ns, R wrote %.0f / %.0f", args[[1]], n, r$flat, r$cum, s, cum[[k]]))
}
cat(sprintf("time of %s: %d functions, %.3f s, per segment\n", basename(args[[1]]), length(cum), total / 1e9))
quit(status = fail)
