# compare_mem.R — does `pcol top --value rprof.alloc` agree with
# summaryRprof(memory = "both")$by.total$mem.total?
#
#   Rscript tests/r/compare_mem.R PROFILE ALLOC.csv [LIST.csv]
#
# ALLOC.csv: `pcol top --value rprof.alloc --format csv` of the packed PROFILE.
# LIST.csv (optional, a line profile): `pcol list PROFILE . --by file --value
# rprof.alloc --format csv`, whose cum per source line must be
# summaryRprof(lines = "show", memory = "both")$by.line's mem.total of that
# line, rounded the same way (a line pcol does not list has 0).
# summaryRprof keys a line by its file's basename (doc/mappings.md §1.3): a
# basename#line that two paths give an amount is not compared (their
# samples' union is not the sum of their cums).
# mem.total(f) is the sum, over the lines on which f occurs, of the increase
# 8*max(0, d small) + 8*max(0, d big) + max(0, d nodes) against the previous
# line, in MB rounded to 0.1 (spec.md §7.1, "Derived value rprof.alloc"):
# pcol's cum of rprof.alloc / 2^20, rounded the same way, must be equal for
# every function.  Only single-segment memory profiles of fewer than 5000
# lines are compared (summaryRprof zeroes the increase at each 5000-line chunk
# boundary) and names holding a space are skipped (summaryRprof splits them).
args <- commandArgs(trailingOnly = TRUE)
stopifnot(length(args) %in% 2:3)
lines <- readLines(args[[1]], warn = FALSE)
hdr_re <- "^(memory profiling: )?(GC profiling: )?(line profiling: )?sample\\.interval=[0-9]+$"
if (!grepl("^memory profiling", lines[1]) || sum(grepl(hdr_re, lines)) != 1 ||
    length(lines) >= 5000) {
  cat("mem.total: not comparable (not a single-segment memory profile under 5000 lines)\n")
  quit(status = 0)
}
s <- summaryRprof(args[[1]], memory = "both")$by.total
r_names <- gsub('^"|"$', "", rownames(s))
pc <- read.csv(args[[2]], stringsAsFactors = FALSE, check.names = FALSE,
               na.strings = character(0))
bad <- 0L; n <- 0L
for (i in seq_along(r_names)) {
  nm <- r_names[i]
  # fragments of split names ("test or space") are not whole quoted names
  if (!grepl('^".*"$', rownames(s)[i]) || grepl(" ", nm) || nm == "<no location>") next
  k <- match(nm, pc$name)
  got <- if (is.na(k)) 0 else round(pc$cum[k] / 2^20, 1)
  n <- n + 1L
  if (!isTRUE(all.equal(got, s$mem.total[i]))) {
    cat(sprintf("mem.total differs for %s: R %.1f MB, pcol %.1f MB\n", nm, s$mem.total[i], got))
    bad <- bad + 1L
  }
}
cat(sprintf("mem.total: %d functions compared, %d differ\n", n, bad))
if (length(args) == 3) {
  bl <- suppressWarnings(summaryRprof(args[[1]], memory = "both", lines = "show"))$by.line
  li <- read.csv(args[[3]], stringsAsFactors = FALSE, check.names = FALSE,
                 na.strings = character(0))
  key <- paste0(basename(li$file), "#", li$line)
  cum <- tapply(li$cum, key, sum)
  npaths <- tapply(li$cum > 0, key, sum) # paths of one basename with an amount on that line
  nl <- 0L
  for (k in rownames(bl)) {
    if (!grepl("^.+#[0-9]+$", k) || (!is.na(npaths[k]) && npaths[k] > 1)) next
    got <- if (is.na(cum[k])) 0 else round(unname(cum[k]) / 2^20, 1)
    want <- as.numeric(bl$mem.total)[match(k, rownames(bl))] # (a one-column matrix: rowsum's)
    nl <- nl + 1L
    if (!isTRUE(all.equal(got, want))) {
      cat(sprintf("by.line mem.total differs for %s: R %.1f MB, pcol list %.1f MB\n", k, want, got))
      bad <- bad + 1L
    }
  }
  cat(sprintf("by.line mem.total: %d lines compared\n", nl))
  if (nl == 0L && nrow(bl) > 0L && any(grepl("^.+#[0-9]+$", rownames(bl)))) bad <- bad + 1L
}
quit(status = if (bad == 0L && (n > 0L || nrow(s) == 0L)) 0L else 1L) # a run without a sample has no row
