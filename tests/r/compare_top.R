# compare_top.R — does `pcol top` agree with R's own summaryRprof()?
#
#   Rscript tests/r/compare_top.R PROFILE FUN.csv LINE.csv [LIST.csv]
#
# LIST.csv (optional): `pcol list PROFILE . --by file --value samples
# --format csv`; its source lines are then what is compared by line.
# FUN.csv / LINE.csv: `pcol top --value samples --format csv` of the packed
# PROFILE, by function and by line (pprof's -lines names, added up per
# basename#line below).  For every function (and every file#line
# location) summaryRprof reports, flat x interval and cum x interval,
# rounded as summaryRprof rounds, must equal self.time and total.time; and
# every function pcol reports must be in summaryRprof's table.
#
# Known differences, where summaryRprof is wrong and pcol is right (each is
# reported by name when it occurs, and checked to be the only difference):
#  split-names   summaryRprof splits on single spaces, so "busy loop" becomes
#                the names "busy and loop" (or a location `NA#loop"` under
#                line profiling).  pcol keeps the name whole.  Functions whose
#                names hold a space, R's fragments of them, and (by line) the
#                self counts of lines holding such names are not compared.
#  empty-lines   with memory profiling, summaryRprof drops samples with an
#                empty stack (a bare ":a:b:c:d:" line); pcol keeps them as
#                samples with no frame.  No function or line is affected.
#  headers       summaryRprof counts the header of every appended segment
#                (append = TRUE) as a sample: as "<no location>" when the first
#                header has line profiling, else as bogus names made of the
#                header's words.  pcol does not: R's "<no location>" count must
#                be pcol's plus the number of appended headers.
#  intervals     summaryRprof applies the first header's interval to every
#                segment.  pcol counts samples, so both sides are compared in
#                samples x the FIRST interval, which is what summaryRprof shows.
#  file-numbers  summaryRprof keeps one path per #File number (the last one
#                read in its chunk of 5000 lines), so after append = TRUE
#                restarted the numbering a line of the first segment is filed
#                under the later segment's file.  pcol keeps each segment's
#                table.  Lines are then not compared.
#  unflagged     in a file whose first header has no "line profiling" a ref
#                is a name to summaryRprof (the self count goes to "1#2") and
#                a #File line a sample (of the names "#File", "1:", ...);
#                pcol reads them as a ref and a #File line.  The names after
#                such refs are not compared, R's count is pcol's + the #File
#                lines.
#
# Besides the rows: sampling.time is the lines summaryRprof counts (pcol's
# samples with a frame, + the appended headers, + memory-only lines when the
# first header has no memory flag, which R reads as a name) x the first
# interval; and where both count the same lines (no appended header, no
# memory-only line, no cut line) every self.pct and total.pct is pcol's
# flat% and cum%, up to 0.01: R divides times (count x interval), whose
# rounding noise moves some ties at the third decimal (177 of the shares
# x/t, t <= 400, at six intervals: 21/224 is 9.37 to R, 9.38 to pcol).
args <- commandArgs(trailingOnly = TRUE)
stopifnot(length(args) %in% c(3, 4))
prof <- args[[1]]
fun <- read.csv(args[[2]], stringsAsFactors = FALSE, check.names = FALSE,
                na.strings = character(0), encoding = "UTF-8")
lin <- read.csv(args[[3]], stringsAsFactors = FALSE, check.names = FALSE,
                na.strings = character(0), encoding = "UTF-8")

lines <- readLines(prof, warn = FALSE, encoding = "bytes")
hdr_re <- "^(memory profiling: )?(GC profiling: )?(line profiling: )?sample\\.interval=[0-9]+$"
mem_re <- "^:[0-9]+:[0-9]+:[0-9]+:[0-9]+:"
interval <- as.numeric(sub(".*sample\\.interval=", "", lines[1])) / 1e6
digits <- if (interval < 0.01) 3L else 2L
line_prof <- grepl("line profiling", lines[1])
first_mem <- grepl("^memory profiling", lines[1])
appended <- sum(grepl(hdr_re, lines[-1]))

# Walk the file once, as R wrote it, to find the lines summaryRprof misreads
# and the names/locations it misreads them into.
files <- character(0)
paths <- list() # every path each #File number names in the file
n_refs_unflagged <- n_file_unflagged <- 0L
n_split <- n_cut <- n_glued <- n_empty <- 0L
skip_fun <- character(0) # names (without quotes) not compared
skip_loc <- character(0) # basename#line keys not compared
loc_key <- function(ref) {
  f <- as.integer(sub("#.*", "", ref))
  paste0(if (!is.na(f) && f <= length(files)) basename(files[f]) else "NA", "#",
         sub(".*#", "", ref))
}
for (ln in lines) {
  if (grepl(hdr_re, ln)) { files <- character(0); next }
  if (grepl("^#File [0-9]+: ", ln)) {
    if (!line_prof) n_file_unflagged <- n_file_unflagged + 1L
    fno <- as.integer(sub("^#File ([0-9]+): .*", "\\1", ln))
    files[fno] <- sub("^#File [0-9]+: ", "", ln)
    paths[[as.character(fno)]] <- unique(c(paths[[as.character(fno)]], files[fno]))
    next
  }
  if (grepl(paste0(mem_re, "$"), ln)) { n_empty <- n_empty + 1L; next }
  glued <- grepl(mem_re, ln) && !first_mem
  body <- if (first_mem) sub(mem_re, "", ln) else ln
  t <- strsplit(body, " ", fixed = TRUE)[[1]]
  ts <- if (glued) c(sub(mem_re, "", t[1]), t[-1]) else t
  if (any(xor(grepl('^"', ts), grepl('"$', ts))) || any(ts == '"')) {
    n_split <- n_split + 1L
    # the tokens of a name R split ("say "hi" there" is "say, "hi", there")
    # may look whole: none of them is compared
    open <- FALSE
    for (j in seq_along(ts)) {
      tk <- ts[j]
      if (!open && startsWith(tk, '"') && !(nchar(tk) > 1 && endsWith(tk, '"'))) open <- TRUE
      else if (open) {
        if (nchar(tk) > 1 && grepl('^".*"$', tk)) skip_fun <- c(skip_fun, sub('^"(.*)"$', "\\1", tk))
        if (endsWith(tk, '"') && (j == length(ts) || startsWith(ts[j + 1], '"') ||
                                  grepl("^[0-9]+#[0-9]+$", ts[j + 1]))) open <- FALSE
      }
    }
  }
  if (!line_prof && any(grepl("^[0-9]+#[0-9]+$", ts))) {
    n_refs_unflagged <- n_refs_unflagged + 1L
    nx <- ts[which(grepl("^[0-9]+#[0-9]+$", ts)) + 1L]
    skip_fun <- c(skip_fun, sub('^"(.*)"$', "\\1", nx[!is.na(nx)]))
  }
  if (!endsWith(ln, " ")) {
    # cut line: R counts its last, incomplete token; pcol drops it
    n_cut <- n_cut + 1L
    last <- t[length(t)]
    if (grepl("^[0-9]+#[0-9]*$", last)) skip_loc <- c(skip_loc, loc_key(last))
    if (grepl('^".*"$', last)) skip_fun <- c(skip_fun, sub('^"(.*)"$', "\\1", last))
  }
  if (glued) {
    # a memory prefix summaryRprof does not strip (only the first header
    # counts): the innermost frame is glued to it and lost
    n_glued <- n_glued + 1L
    g <- sub(mem_re, "", t[1])
    if (grepl('^".*"$', g)) skip_fun <- c(skip_fun, sub('^"(.*)"$', "\\1", g))
    if (grepl("^[0-9]+#[0-9]+$", g)) skip_loc <- c(skip_loc, loc_key(g))
    # with line profiling the glued token reads as a location and is
    # dropped, so the next name takes the self count
    nxt <- t[-1][grepl('^".*"$', t[-1])]
    if (length(nxt)) skip_fun <- c(skip_fun, sub('^"(.*)"$', "\\1", nxt[1]))
  }
}
known <- character(0)
if (n_split) known <- c(known, sprintf("split-names (%d lines)", n_split))
if (n_cut) known <- c(known, sprintf("cut-lines (%d)", n_cut))
if (n_empty && first_mem) known <- c(known, sprintf("empty-lines (%d)", n_empty))
if (n_glued) known <- c(known, sprintf("memory-prefix-in-appended-segment (%d lines)", n_glued))
if (appended) known <- c(known, sprintf("headers (%d appended)", appended))
if (appended && length(unique(sub(".*=", "", lines[grepl(hdr_re, lines)]))) > 1)
  known <- c(known, "intervals")
renumbered <- any(lengths(paths) > 1)
if (renumbered) known <- c(known, "file-numbers")
if (n_refs_unflagged + n_file_unflagged)
  known <- c(known, sprintf("unflagged (%d refs, %d #File lines)", n_refs_unflagged, n_file_unflagged))
exact_lines <- n_split == 0 && n_cut == 0 && n_glued == 0

fails <- character(0)
fail <- function(...) fails <<- c(fails, sprintf(...))
same <- function(count, time) isTRUE(all.equal(round(count * interval, digits), time))

# a function named "" is shown as go shows one of none, <unknown> (review 22 F8,
# frames.h pcol_frame_fn_empty): summaryRprof's "" is pcol's <unknown>
shown <- function(k) ifelse(k == "", "<unknown>", k)
compare <- function(r, p, what, skip_r, skip_p, self_ok) {
  nm <- rownames(r)
  n_cmp <- 0L
  for (i in seq_along(nm)) {
    if (skip_r(nm[i])) next
    key <- nm[i]
    if (what == "function") key <- shown(sub('^"(.*)"$', "\\1", key))
    row <- p[p$name == key, , drop = FALSE]
    if (nrow(row) != 1) {
      fail("%s %s: in summaryRprof (self %.3f, total %.3f) but %d rows in pcol top",
           what, nm[i], r$self.time[i], r$total.time[i], nrow(row))
      next
    }
    n_cmp <- n_cmp + 1L
    if (self_ok(key) && !same(row$flat, r$self.time[i]))
      fail("%s %s: flat %d x %g != self.time %.3f", what, key, row$flat, interval,
           r$self.time[i])
    if ((is.null(row$one) || row$one) && !same(row$cum, r$total.time[i]))
      fail("%s %s: cum %d x %g != total.time %.3f", what, key, row$cum, interval,
           r$total.time[i])
  }
  rkeys <- if (what == "function") shown(sub('^"(.*)"$', "\\1", nm)) else nm
  for (k in p$name) {
    if (skip_p(k) || k %in% rkeys) next
    row <- p[p$name == k, ]
    if (row$flat != 0 || row$cum != 0)
      fail("%s %s: in pcol top (flat %d, cum %d) but not in summaryRprof", what, k,
           row$flat, row$cum)
  }
  n_cmp
}

# functions
s <- suppressWarnings(summaryRprof(prof))
r <- s$by.total
has_space <- function(k) grepl(" ", k, fixed = TRUE)
fragment <- function(k) nchar(k) < 2 || xor(grepl('^"', k), grepl('"$', k))
n_fun <- compare(r, fun, "function",
                 skip_r = function(k) fragment(k) || k == "<no location>" ||
                   !grepl('^"', k) || sub('^"(.*)"$', "\\1", k) %in% skip_fun,
                 skip_p = function(k) has_space(k) || k %in% skip_fun,
                 self_ok = function(k) TRUE)

# lines
# the totals and the percentages
n_pcol <- sum(fun$flat) # samples with a frame: each is one row's flat
n_r <- n_pcol + appended + n_file_unflagged + if (first_mem) 0L else n_empty
if (n_cut == 0 && !isTRUE(all.equal(n_r * interval, s$sampling.time)))
  fail("sampling.time %.3f, pcol %d samples with a frame + %d appended headers and #File lines R reads as samples%s (x %g)",
       s$sampling.time, n_pcol, appended + n_file_unflagged,
       if (first_mem) "" else sprintf(" + %d memory-only lines", n_empty), interval)
n_pct <- 0L
if (appended == 0 && n_file_unflagged == 0 && n_empty == 0 && n_cut == 0) {
  pct_ok <- function(a, b) abs(a - b) < 0.01 + 1e-9
  nm <- rownames(r)
  for (i in seq_along(nm)) {
    key <- shown(sub('^"(.*)"$', "\\1", nm[i]))
    if (fragment(nm[i]) || !grepl('^"', nm[i]) || key %in% skip_fun) next
    row <- fun[fun$name == key, , drop = FALSE]
    if (nrow(row) != 1) next # reported above
    n_pct <- n_pct + 1L
    if (!pct_ok(row$flat_pct, r$self.pct[i]) || !pct_ok(row$cum_pct, r$total.pct[i]))
      fail("function %s: flat%% %.2f cum%% %.2f, summaryRprof self.pct %.2f total.pct %.2f",
           key, row$flat_pct, row$cum_pct, r$self.pct[i], r$total.pct[i])
  }
}

n_lin <- 0L
if (line_prof && !renumbered) {
  # pcol's --by line is pprof's -lines: "FUNCTION PATH:LINE" (a top-level
  # ref without a function: "PATH:LINE").  summaryRprof keys by
  # "basename#line" alone, so pcol's rows are added up per basename#line:
  # flat exactly (each sample's innermost location is one row), cum only
  # where one pcol row makes the key (a sample can hold one line under
  # several functions, which summaryRprof counts once).
  m <- regmatches(lin$name, regexec("^(.* )?([^ ]*):([0-9]+)$", lin$name))
  key <- vapply(seq_along(m), function(i) if (length(m[[i]]) == 4)
    paste0(basename(m[[i]][3]), "#", m[[i]][4]) else lin$name[i], "")
  nrows <- table(key)
  lin <- data.frame(name = names(nrows), flat = as.vector(tapply(lin$flat, key, sum)[names(nrows)]),
                    cum = as.vector(tapply(lin$cum, key, sum)[names(nrows)]),
                    one = as.vector(nrows) == 1, stringsAsFactors = FALSE)
  p_nl <- if ("<no location>" %in% lin$name) lin$flat[lin$name == "<no location>"] else 0
  if (length(args) == 4) {
    # LIST.csv: `pcol list PROFILE . --by file`, a row per source line with
    # every function's samples merged, so cum is exact (once per sample) and
    # is compared on every line, not only where one function makes the key
    ls <- read.csv(args[[4]], stringsAsFactors = FALSE, check.names = FALSE,
                   na.strings = character(0), encoding = "UTF-8")
    ls <- ls[ls$flat != 0 | ls$cum != 0, , drop = FALSE]
    key <- paste0(basename(ls$file), "#", ls$line)
    nrows <- table(key)
    lin <- data.frame(name = names(nrows), flat = as.vector(tapply(ls$flat, key, sum)[names(nrows)]),
                      cum = as.vector(tapply(ls$cum, key, sum)[names(nrows)]),
                      one = as.vector(nrows) == 1, stringsAsFactors = FALSE)
  }
  sl <- suppressWarnings(summaryRprof(prof, lines = "show"))
  rl <- sl$by.total
  bogus <- function(k) grepl('"', k, fixed = TRUE) || grepl("^NA#", k)
  n_lin <- compare(rl, lin, "line",
                   skip_r = function(k) bogus(k) || k == "<no location>" || k %in% skip_loc,
                   skip_p = function(k) bogus(k) || k == "<no location>" || k %in% skip_loc,
                   self_ok = function(k) exact_lines)
  # R's "<no location>" = pcol's + the appended headers (+ lines R could not
  # attribute because of a split name, which it files under a bogus location)
  r_nl <- if ("<no location>" %in% rownames(rl)) rl["<no location>", "self.time"] else 0
  if (exact_lines && !same(p_nl + appended, r_nl))
    fail("line <no location>: pcol %d + %d appended headers, summaryRprof %.3f", p_nl,
         appended, r_nl)
}

cat(sprintf("%s: %d functions, %d lines, %d percentages compared%s\n", basename(prof), n_fun, n_lin, n_pct,
            if (length(known)) paste0("; known differences: ", paste(known, collapse = ", "))
            else ""))
if (length(fails)) {
  cat(paste0("  MISMATCH ", fails, "\n"), sep = "")
  quit(status = 1)
}
