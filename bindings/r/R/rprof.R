# R's own profiling habits over any pcol input: summaryRprof()'s result,
# profvis, and profile-package lists.

# summaryRprof(filename, memory = "none"/"both", lines = "hide"/"show")
# of any input pcol reads: summaryRprof's list read from the Rprof text
# pcol_to_rprof(path, value = value, ...) writes of it (.summary_text), so
# pcol_summaryRprof(f, ...) is summaryRprof(pcol_to_rprof(f, ...)), for
# an Rprof file as for a V8, Go or Tachyon profile or a directory of
# several, but for a quoted name with a space, which summaryRprof splits
# in two and this keeps whole, as profvis does (man page, "Differences").
# summaryRprof's other arguments are its own: memory = "stats"/"tseries"
# and lines = "both" are utils::summaryRprof of that text (with chunksize,
# index, diff and exclude, which only those modes use: with memory =
# "none"/"both" summaryRprof's result does not depend on them, nor on
# chunksize, which this reads at once; review 20 F5: "unused argument").
pcol_summaryRprof <- function(path, memory = c("none", "both", "stats", "tseries"), lines = c("hide", "show", "both"),
                              value = NULL, ..., chunksize = 5000, index = 2, diff = TRUE, exclude = NULL,
                              basenames = 1, mmap = TRUE) {
  memory <- match.arg(memory)
  lines <- match.arg(lines)
  # (the export's loss note, "not written: labels ... and values ...", is
  # of the Rprof file; summaryRprof's result holds neither, so it is not
  # said here: pcol_to_rprof says it)
  quiet <- function(m) {
    if (grepl(": not written: ", conditionMessage(m), fixed = TRUE)) invokeRestart("muffleMessage")
  }
  if (memory %in% c("stats", "tseries") || lines == "both") {
    rp <- withCallingHandlers(pcol_to_rprof(path, tempfile(fileext = ".Rprof"), value = value, ..., mmap = mmap),
                              message = quiet)
    on.exit(unlink(rp))
    # (its refusals in its words, naming the input: "profile does not contain memory information")
    return(tryCatch(utils::summaryRprof(rp, chunksize = chunksize, memory = memory, lines = lines, index = index,
                                        diff = diff, exclude = exclude, basenames = basenames),
                    error = function(e) stop("pcol_summaryRprof: ", path, ": summaryRprof: ", conditionMessage(e),
                                             call. = FALSE)))
  }
  withCallingHandlers(.summary_text(path, memory, lines, basenames, value = value, ..., mmap = mmap),
                      message = quiet)
}

# Writes the selected samples of any input as an Rprof file (pcol unpack
# --to rprof): what profvis, summaryRprof and proftools read.
# value: the time its lines are ticks of (pcol unpack --to rprof --value;
# NULL: each source's default).  What pcol unpack says of the export, in
# the library's words, R says: of sources whose defaults differ, a warning
# when each sample is written as a tick of its source (a JFR recording's
# allocation samples beside a Go CPU profile), naming source = N, else a
# message; of the value written (asked for, or the default when no such
# note is said: a JFR recording's allocation samples beside its cpu), a
# warning for each source without it (it writes no line); and the export's notes, a message each (the tick each
# source was written in, the time written of times rounded to ticks, a
# source whose samples are counted where no time is stated ...).
pcol_to_rprof <- function(path, out = tempfile(fileext = ".Rprof"), value = NULL, ..., mmap = TRUE) {
  q <- .query(...)
  value <- .str1(value, "value")
  nt <- .with_file(path, mmap, q = q, function(f) .Call(C_q_export, f, "rprof", q, out, value))
  if (!is.null(nt$note)) {
    if (nt$warning) warning("pcol_to_rprof: ", path, ": ", nt$note, call. = FALSE)
    else message("pcol_to_rprof: note: ", path, ": ", nt$note)
  }
  for (w in nt$lacking) warning("pcol_to_rprof: ", path, ": ", w, call. = FALSE)
  for (m in nt$notes) message("pcol_to_rprof: note: ", path, ": ", m)
  invisible(out)
}

# Opens a pcol input (or a time range of it: from, to) in profvis, through
# the Rprof file profvis reads (prof_input).  Without profvis installed it
# stops and says so; pcol_profvis_data gives profvis's data shape anyway.
# profvis is looked up by name, not declared in Suggests: with a suggested
# package that is not installed, R CMD check --as-cran asks CRAN's index
# for it, and the offline check (bindings/test.sh, CI) cannot reach it.
pcol_profvis <- function(path, ..., mmap = TRUE) {
  pkg <- "profvis"
  if (!requireNamespace(pkg, quietly = TRUE))
    stop("pcol_profvis: the profvis package is not installed (install.packages(\"profvis\")); ",
         "pcol_profvis_data() gives its data shape without it", call. = FALSE)
  rp <- pcol_to_rprof(path, ..., mmap = mmap)
  getExportedValue(pkg, "profvis")(prof_input = rp)
}

# The Rprof text pcol_to_rprof(path, ...) writes, read back: its first
# line (the header, where profvis and summaryRprof find the interval and
# the kinds of profiling) and the tables of its samples, a sample a line
# (pcol's Rprof reader, which reads the Rprof corpus as R and profvis do).
# pcol_profvis_data and pcol_summaryRprof(lines = "show") are made of it,
# so they are what profvis and summaryRprof read of that text whatever
# the input: the interval, the lines a sample is written as (its count x
# period / interval) and the samples written at all are the C export's
# (one rule), never re-derived here.  Bounded by the export's output
# budget (128 x the input's bytes, at least 32 MiB, plus 4 KiB a line its
# counts write; at most 8 GiB: past it the export fails, saying so), and
# read back in memory, a row a line and frame (as profvis's parser holds
# it; summaryRprof reads it in chunks); the temporary file is removed on
# return.
.rprof_text <- function(path, tables, ..., mmap = TRUE) {
  rp <- pcol_to_rprof(path, tempfile(fileext = ".Rprof"), ..., mmap = mmap)
  on.exit(unlink(rp))
  header <- readLines(rp, n = 1L, warn = FALSE)
  # (altrep = FALSE: nothing refers to the file once it is removed)
  list(header = header, p = read_pcol(rp, tables = tables, mmap = FALSE, altrep = FALSE))
}

# profvis's data (profvis:::parse_rprof: prof, a row per sample and frame
# with time (the sample's number), depth (1 = outermost), label, filenum,
# linenum, memalloc (MB, the sample's), meminc (MB, change from the previous
# row), filename; interval in ms; files) from the selected samples of any
# input, as profvis reads the Rprof text pcol_to_rprof writes of them: that
# text, written to a temporary file and read back (.rprof_text), so a
# pprof sample of count n is the n x period / interval lines the export
# writes, a V8 profile's interval its time per sample, and samples the
# export leaves out (a JFR recording's allocation samples, which take no
# CPU time) are not there.  The arguments in ... are pcol_to_rprof's.
#
# Line profiling (Rprof's "FILE#LINE" refs): profvis gives each ref to the
# label before it in the line (the frame whose call it is), a ref that
# opens the line (or follows a leading "<GC>") to a row of its own with no
# label (the line being run), shown as the source text of that line; it
# keeps filenum/linenum/filename only for files whose contents it finds
# (the path as written, relative to the working directory: read as bytes),
# drops the unlabelled rows of the others, trims the working directory and
# ".../pkg/R/" prefixes off the names, and cuts profvis's own frames
# ("force" "doTryCatch" ... "profvis"/"<Anonymous>") off the stacks.  The
# same here, from the frames pcol reads of the text (a frame = a ref, the
# line inside the function named after it, then that name).  Not
# reproduced: sources profvis finds only in loaded packages' srcrefs
# (packages installed with keep.source), and Rprof text with appended
# segments (an Rprof input written with Rprof(append = TRUE), which the
# export keeps: profvis reads their headers as samples, pcol as headers).
pcol_profvis_data <- function(path, ..., mmap = TRUE) {
  rt <- .rprof_text(path, c("samples", "sample_locations", "locations", "functions", "sample_values", "text_lines"),
                    ..., mmap = mmap)
  p <- rt$p
  # profvis: the header's last "KEY=VALUE", sample.interval in us, in ms
  opts <- strsplit(rt$header, ": ", fixed = TRUE)[[1L]]
  interval_ms <- as.numeric(strsplit(opts[length(opts)], "=", fixed = TRUE)[[1L]][2L]) / 1000
  s <- p$samples
  # nothing to show: said, as profvis's parser says it of an empty file
  # (a data frame of no rows made the columns below fail obscurely)
  if (!nrow(s)) stop("pcol_profvis_data: no samples in the profile or the range (profvis has nothing to show)",
                     call. = FALSE)
  # memory (Rprof memory profiles): vsize.small + vsize.large (bytes), in
  # MB, as profvis's parser counts it (not the nodes, which summaryRprof adds)
  sv <- p$sample_values
  mem <- rep(0, nrow(s))
  mv <- sv[sv$type %in% c("vsize.small", "vsize.large"), ]
  if (nrow(mv)) {
    m <- tapply(mv$value, factor(mv$sample_id, levels = s$sample_id), sum)
    mem <- as.numeric(ifelse(is.na(m), 0, m)) / 1024^2
  }
  # frames in Rprof's order: by sample, innermost first
  sl <- p$sample_locations
  sl <- sl[order(match(sl$sample_id, s$sample_id), sl$depth), ]
  loc <- match(sl$location_id, p$locations$location_id)
  fi <- match(p$locations$function_id[loc], p$functions$function_id)
  name <- p$functions$name[fi]
  file <- p$functions$filename[fi]
  line <- p$locations$line[loc]
  has_ref <- !is.na(line) & !is.na(file)
  # #File numbers: the text's #File lines (profvis takes the N-th of them
  # for number N)
  tl <- p$text_lines$text
  fl <- if (is.null(tl)) character(0) else tl[grepl("^#File [0-9]+: ", tl)]
  fnum <- as.integer(sub("^#File ([0-9]+): .*", "\\1", fl))
  fpath <- sub("^#File [0-9]+: ", "", fl)
  refnum <- fnum[match(file, fpath)]
  refpath <- fpath[refnum]
  # the line's tokens: per frame its ref (if any), then its name (if any)
  k <- seq_len(nrow(sl))
  tref <- c(has_ref, !is.na(name))
  tok <- data.frame(si = rep(match(sl$sample_id, s$sample_id), 2L), ord = c(2L * k - 1L, 2L * k),
                    isref = rep(c(TRUE, FALSE), each = nrow(sl)), name = c(rep(NA_character_, nrow(sl)), name),
                    num = c(refnum, rep(NA_integer_, nrow(sl))), line = c(line, rep(NA_integer_, nrow(sl))),
                    path = c(refpath, rep(NA_character_, nrow(sl))), stringsAsFactors = FALSE)[tref, ]
  tok <- tok[order(tok$ord), ]
  pos <- sequence(rle(tok$si)$lengths)
  # profvis's own frames: from the last "force" (with no ref after it)
  # followed by "doTryCatch", when a "profvis" or "<Anonymous>" follows
  isname <- !tok$isref
  force <- isname & tok$name %in% "force"
  lastforce <- force
  lastforce[force] <- !duplicated(tok$si[force], fromLast = TRUE)
  nxt <- c(tok$name[-1L], NA) %in% "doTryCatch" & c(isname[-1L], FALSE) & c(tok$si[-1L], -1L) == tok$si
  anchor <- isname & tok$name %in% c("profvis", "profvis::profvis", "<Anonymous>")
  lastanchor <- tapply(ifelse(anchor, pos, 0L), tok$si, max)[as.character(tok$si)]
  cut <- lastforce & nxt & lastanchor > pos + 1L
  cutpos <- rep(.Machine$integer.max, nrow(s))
  cutpos[tok$si[cut]] <- pos[cut]
  keep <- pos < cutpos[tok$si]
  tok <- tok[keep, ]; pos <- pos[keep]; isname <- isname[keep]
  # rows: the names, and an unlabelled row for a ref that opens the line
  # (or follows a leading "<GC>"); every other ref belongs to the row
  # before it (the last one wins)
  first_gc <- pos == 1L & isname & tok$name %in% "<GC>"
  prev_gc <- c(FALSE, first_gc[-length(first_gc)])
  bare <- tok$isref & (pos == 1L | (pos == 2L & prev_gc))
  islab <- isname | bare
  lab <- cumsum(islab)
  rows <- which(islab)
  refs <- which(tok$isref)
  lastref <- refs[!duplicated(lab[refs], fromLast = TRUE)]
  r_of <- match(lab[lastref], lab[rows])
  rnum <- rline <- rep(NA_integer_, length(rows)); rpath <- rep(NA_character_, length(rows))
  rnum[r_of] <- tok$num[lastref]; rline[r_of] <- as.integer(tok$line[lastref]); rpath[r_of] <- tok$path[lastref]
  rsi <- tok$si[rows]
  nrow_s <- tabulate(rsi, nrow(s))
  rdepth <- nrow_s[rsi] - sequence(nrow_s[nrow_s > 0]) + 1L
  # a sample (a line of the text) is a time, its rows outermost last
  idx <- order(rsi, -rdepth)
  time <- rsi[idx]
  prof <- data.frame(time = as.integer(time), depth = as.integer(rdepth[idx]), label = tok$name[rows][idx],
                     filenum = rnum[idx], linenum = rline[idx], memalloc = mem[rsi][idx], stringsAsFactors = FALSE)
  prof$meminc <- append(0, diff(prof$memalloc))
  prof$filename <- rpath[idx]
  # the files' contents (profvis's get_file_contents: each path as written,
  # read as bytes if it exists; "<expr>" first)
  fns <- unique(prof$filename)
  fns <- fns[!is.na(fns) & fns != ""]
  contents <- lapply(fns, function(f) {
    if (!file.exists(f) || dir.exists(f)) return(NULL)
    h <- tryCatch(file(f, "rb"), error = function(e) NULL, warning = function(e) NULL)
    if (is.null(h)) return(NULL)
    on.exit(close(h))
    readChar(f, file.info(f)$size, useBytes = TRUE)
  })
  names(contents) <- fns
  if ("<expr>" %in% fns) contents <- c(contents[fns == "<expr>"], contents[fns != "<expr>"])
  contents <- contents[!vapply(contents, is.null, logical(1))]
  normpaths <- normalizePath(names(contents), winslash = "/", mustWork = FALSE)
  trim <- function(x) {
    x <- sub(getwd(), "", x, fixed = TRUE)
    sub("^.*?([^/]+/(R|inst)/.*\\.R$)", "\\1", x, ignore.case = TRUE)
  }
  prof$filename <- trim(prof$filename)
  names(contents) <- trim(names(contents))
  nofile <- !(prof$filename %in% names(contents))
  prof$filename[nofile] <- NA
  prof$filenum[nofile] <- NA
  prof$linenum[nofile] <- NA
  prof <- prof[!(is.na(prof$label) & nofile), ]
  # an unlabelled row shows its source line, leading blanks cut
  src_lines <- lapply(contents, function(x) {
    l <- strsplit(x, "\n", fixed = TRUE)[[1L]]
    if (!length(l) || endsWith(x, "\n")) l <- c(l, "") # stringr's split keeps the last, empty piece
    sub("^ +", "", l)
  })
  at <- !is.na(prof$filename) & is.na(prof$label)
  prof$label[at] <- unlist(mapply(function(f, n) if (f == "") "" else src_lines[[f]][n],
                                  prof$filename[at], prof$linenum[at], SIMPLIFY = FALSE), use.names = FALSE)
  files <- mapply(function(f, x, np) list(filename = f, content = x, normpath = np),
                  names(contents), contents, normpaths, SIMPLIFY = FALSE, USE.NAMES = FALSE)
  list(prof = prof, interval = interval_ms, files = if (is.null(files)) list() else files, prof_output = path)
}

# The memory increase of each sample of an Rprof text read back
# (.rprof_text's tables samples and sample_values): the sum of the rises
# of vsize.small, vsize.large and nodes, in bytes, against the previous
# line, 0 for the first (rprof.alloc, spec.md 7.1, as summaryRprof(memory
# = "both") reads the lines).  So of a time range, the first sample of the
# range rises from nothing, as in summaryRprof(pcol_to_rprof(path, from =)),
# where `pcol top --value rprof.alloc --from` (and lines = "hide") measures
# it from the sample before it in the file.
.rprof_alloc <- function(p) {
  s <- p$samples
  sv <- p$sample_values
  types <- c("vsize.small", "vsize.large", "nodes")
  n <- nrow(s)
  row <- match(sv$sample_id, s$sample_id)
  alloc <- numeric(n)
  for (ty in types) {
    v <- numeric(n)
    k <- sv$type == ty
    v[row[k]] <- sv$value[k]
    d <- c(0, diff(v))
    alloc <- alloc + ifelse(d > 0, d, 0)
  }
  alloc
}

# summaryRprof(memory =, lines =) of the Rprof text pcol_to_rprof(path,
# ...) writes (.rprof_text: its header's interval and kinds of profiling, a
# sample a line, each line a tick of the header's interval, as summaryRprof
# counts them): each line's tokens, innermost first, are its functions'
# quoted names (lines = "hide"; with line profiling, a line of source
# lines only is "<no location>") or the source lines of its frames
# ("FILE#LINE"; "<no location>" when none has one; lines = "show"); self
# is the first, total each distinct one once; by.line (lines = "show")
# orders the rows by file and line.  A line without frames (an Rprof
# memory-profiling line without a call) is no sample, as summaryRprof
# drops it.  With memory = "both", mem.total adds each sample's memory
# increase (.rprof_alloc) to each distinct token of it (MB, 0.1).
# Computed from the sample tables (as summaryRprof from the file's lines),
# with R's own sort and order.  One function for both: the numbers of
# lines = "hide" and "show" are of the same text.
.summary_text <- function(path, memory, lines, basenames, ..., mmap = TRUE) {
  rt <- .rprof_text(path, c("samples", "sample_locations", "locations", "functions",
                            if (memory == "both") "sample_values"), ..., mmap = mmap)
  p <- rt$p
  # summaryRprof's header rules, in its order
  hdr <- rt$header
  if (!length(hdr)) stop("pcol_summaryRprof: pcol_to_rprof wrote no lines of ", path, call. = FALSE)
  interval <- as.numeric(strsplit(hdr, "=", fixed = TRUE)[[1L]][2L]) / 1e6
  if (memory != "none" && !startsWith(hdr, "memory"))
    stop("pcol_summaryRprof: the Rprof text of ", path, " has no memory profiling (summaryRprof: ",
         "\"profile does not contain memory information\")", call. = FALSE)
  line_profiling <- grepl("line profiling", hdr, fixed = TRUE)
  if (lines == "show" && !line_profiling)
    stop("pcol_summaryRprof: the Rprof text of ", path, " was written without line profiling (summaryRprof: ",
         "\"profile does not contain line information\")", call. = FALSE)
  s <- p$samples
  alloc <- if (memory == "both") .rprof_alloc(p)
  sl <- p$sample_locations
  # a sample without frames (an Rprof memory-only line) is not counted:
  # summaryRprof drops the lines that are empty once the memory is cut off
  keep <- s$sample_id %in% sl$sample_id
  s <- s[keep, ]
  alloc <- alloc[keep]
  if (!nrow(s)) stop("pcol_summaryRprof: the Rprof text of ", path, " has no samples (summaryRprof: ",
                     "\"no events were recorded\")", call. = FALSE)
  li <- match(sl$location_id, p$locations$location_id)
  fi <- match(p$locations$function_id[li], p$functions$function_id)
  if (lines == "show") {
    line <- p$locations$line[li]
    file <- p$functions$filename[fi]
    has <- !is.na(line) & line > 0 & !is.na(file)
    if (basenames) { # the last `basenames` components of each name, as summaryRprof keeps them
      fu <- unique(file[has])
      dirnames <- dirname(fu)
      short <- basename(fu)
      for (i in seq_len(basenames - 1)) {
        tail <- basename(dirnames)
        short <- ifelse(tail == ".", short, paste0(tail, "/", short))
        parent <- dirname(dirnames)
        dirnames <- ifelse(dirnames == parent, ".", parent)
      }
      file[has] <- short[match(file[has], fu)]
    }
    tok <- paste0(file[has], "#", line[has])
  } else { # the names (a frame of a source line alone has none)
    name <- p$functions$name[fi]
    has <- !is.na(name)
    tok <- paste0('"', name[has], '"') # summaryRprof's rownames are the text's quoted names
  }
  sid <- sl$sample_id[has]
  o <- order(sid, sl$depth[has]) # innermost first within a sample
  tok <- tok[o]; sid <- sid[o]
  si <- match(sid, s$sample_id)
  # a line of the text is a tick; one with no token is "<no location>"
  # (line profiling; without it every frame has a name)
  none <- setdiff(seq_len(nrow(s)), si)
  fnames <- sort(unique(c(tok, if (length(none)) "<no location>")))
  tid <- match(tok, fnames)
  nl <- match("<no location>", fnames)
  first_tid <- rep(nl, nrow(s))
  lead <- !duplicated(si)
  first_tid[si[lead]] <- tid[lead]
  u <- !duplicated((si - 1) * length(fnames) + tid) # each distinct token once per sample
  uid <- c(tid[u], rep(nl, length(none)))
  usi <- c(si[u], none)
  fcounts <- tabulate(first_tid, length(fnames))
  ucounts <- tabulate(uid, length(fnames))
  if (memory == "both") {
    umem <- vapply(split(alloc[usi], factor(uid, levels = seq_along(fnames))), sum, numeric(1))
  }
  firstnum <- fcounts * interval
  uniquenum <- ucounts * interval
  index1 <- order(-firstnum, -uniquenum)
  index2 <- order(-uniquenum, -firstnum)
  digits <- if (interval < 0.01) 3L else 2L
  rval <- data.frame(self.time = round(firstnum, digits), self.pct = round(100 * firstnum / sum(firstnum), 2),
                     total.time = round(uniquenum, digits), total.pct = round(100 * uniquenum / sum(firstnum), 2))
  rownames(rval) <- fnames
  if (memory == "both") # a one-column matrix named by token, as summaryRprof's rowsum() leaves it
    rval$mem.total <- matrix(round(unname(umem) / 1048576, 1), ncol = 1L, dimnames = list(fnames, NULL))
  by.self <- rval[index1, ]
  by.self <- by.self[by.self[, 1L] > 0, ]
  by.total <- rval[index2, c(3L, 4L, if (memory == "both") 5L, 1L, 2L)]
  if (lines == "hide")
    return(list(by.self = by.self, by.total = by.total, sample.interval = interval,
                sampling.time = sum(fcounts) * interval))
  filename <- sub("#.*$", "", fnames)
  linenum <- rep.int(0, length(filename))
  hasline <- filename != fnames
  linenum[hasline] <- as.numeric(sub("^.*#", "", fnames[hasline]))
  index3 <- order(filename, linenum)
  list(by.self = by.self, by.total = by.total, by.line = rval[index3, ],
       sample.interval = interval, sampling.time = sum(fcounts) * interval)
}
