# compare_export.R — is summaryRprof() of `pcol unpack --to rprof` of a
# profile what `pcol top` (go tool pprof -top) says of the profile itself?
#
#   Rscript tests/r/compare_export.R EXPORT TOP.tsv SAMPLES.tsv ROUNDED
#
# TOP.tsv: `pcol top INPUT --format tsv` (the source's default value, a
# time: ns, us, ms or s); SAMPLES.tsv: `pcol top INPUT --value samples
# --format tsv` (how many samples hold each function).  The export writes a
# sample as its time in ticks of the header's interval (doc/mappings.md
# §1.2): summaryRprof's sampling.time must be the total, and every
# function's self.time and total.time (by.self, by.total) its flat and
# cum, up to summaryRprof's own rounding (2 decimals of a second, 3 below
# 10 ms a tick); when the export said it rounded (ROUNDED = 1), up to half
# a tick for the total and a tick a sample holding the function (the
# carried rounding puts each sample within a tick).  Every function of
# either side must be on the other (but a function rounded to no line;
# names without blanks: summaryRprof
# splits names on spaces, doc/mappings.md §1.3).
a <- commandArgs(TRUE)
stopifnot(length(a) == 4)
s <- summaryRprof(a[[1]])
top <- read.delim(a[[2]], quote = "", stringsAsFactors = FALSE, na.strings = "NA")
cnt <- read.delim(a[[3]], quote = "", stringsAsFactors = FALSE, na.strings = "NA")
rounded <- a[[4]] == "1"
iv <- as.numeric(sub("^.*sample.interval=", "", readLines(a[[1]], n = 1L))) / 1e6
per <- c(nanoseconds = 1e-9, microseconds = 1e-6, milliseconds = 1e-3, seconds = 1)
u <- per[[top$unit[1]]]
res <- if (iv < 0.01) 0.5e-3 else 0.5e-2  # summaryRprof's round(, digits)
total <- sum(top$flat) * u
bad <- 0
say <- function(...) { cat(sprintf(...), "\n", sep = ""); bad <<- bad + 1 }
tol_total <- 1e-9 + if (rounded) iv / 2 else 0
if (abs(s$sampling.time - total) > tol_total)
  say("sampling.time %.9g s, pcol top %.9g s (interval %g s)", s$sampling.time, total, iv)
blank <- grepl(" ", top$name)
names_r <- gsub('^"|"$', "", rownames(s$by.total))
for (i in which(!blank)) {
  k <- match(top$name[i], names_r)
  n <- cnt$cum[match(top$name[i], cnt$name)]
  tol <- res + 1e-9 + if (rounded) iv * n else 0
  if (is.na(k)) { # rounded to no line at all
    if (top$cum[i] * u > tol) say("%s: not in summaryRprof's by.total", top$name[i])
    next
  }
  rt <- s$by.total$total.time[k]; rs <- s$by.total$self.time[k]
  if (abs(rt - top$cum[i] * u) > tol) say("%s: total.time %.6g s, pcol cum %.6g s", top$name[i], rt, top$cum[i] * u)
  if (abs(rs - top$flat[i] * u) > tol) say("%s: self.time %.6g s, pcol flat %.6g s", top$name[i], rs, top$flat[i] * u)
  ks <- match(rownames(s$by.total)[k], rownames(s$by.self))
  if (top$flat[i] > 0 && rs > 0 && (is.na(ks) || abs(s$by.self$self.time[ks] - rs) > 1e-12))
    say("%s: by.self disagrees with by.total", top$name[i])
}
extra <- setdiff(names_r, top$name)
extra <- extra[!vapply(extra, function(x) any(grepl(x, top$name[blank], fixed = TRUE)), TRUE)]
if (length(extra)) say("in summaryRprof, not in pcol top: %s", paste(head(extra, 5), collapse = ", "))
cat(sprintf("summaryRprof of the export: %.6g s (pcol top %.6g s), %d functions, interval %g s%s\n",
            s$sampling.time, total, nrow(s$by.total), iv, if (rounded) ", rounded" else ""))
quit(status = if (bad) 1 else 0)
