# matrix_summary.R — R's summaryRprof reads many Rprof files in one process
# (tests/interop/t_matrix.sh).
#
#   Rscript tests/r/matrix_summary.R LIST OUTDIR
#
# LIST: one Rprof file a line.  For the file on line N, OUTDIR/N.tsv gets
# summaryRprof's answer as is: "interval\t<sample.interval>",
# "sampling\t<sampling.time>", then "self\t<self.time>\t<rowname>" for each
# by.self row and "total\t<total.time>\t<rowname>" for each by.total row
# (row names as R gives them, quotes included); or "error\t<message>".
# The comparison, and the rules for what summaryRprof misreads, are in
# t_matrix.py.
args <- commandArgs(trailingOnly = TRUE)
stopifnot(length(args) == 2)
files <- readLines(args[[1]])
for (i in seq_along(files)) {
  out <- file(file.path(args[[2]], paste0(i, ".tsv")), "wb")
  s <- tryCatch(suppressWarnings(summaryRprof(files[[i]])), error = function(e) e)
  if (inherits(s, "error")) {
    writeLines(paste0("error\t", gsub("[\t\n]", " ", conditionMessage(s))), out, useBytes = TRUE)
  } else {
    fmt <- function(x) formatC(x, digits = 15, format = "g")
    writeLines(c(paste0("interval\t", fmt(s$sample.interval)),
                 paste0("sampling\t", fmt(s$sampling.time)),
                 if (nrow(s$by.self)) paste0("self\t", fmt(s$by.self$self.time), "\t", rownames(s$by.self)),
                 if (nrow(s$by.total)) paste0("total\t", fmt(s$by.total$total.time), "\t", rownames(s$by.total))),
               out, useBytes = TRUE)
  }
  close(out)
}
