# R's own profiling habits over any pcol input: summaryRprof()'s result,
# profvis, and profile-package lists.

# summaryRprof(filename, memory = "none"/"both", lines = "hide") from any
# input pcol reads: the same list (by.self, by.total, sample.interval,
# sampling.time) with the same rounding and order, its numbers from
# pcol top (value "cpu": interval x ticks on Rprof; memory: "rprof.alloc").
pcol_summaryRprof <- function(path, memory = c("none", "both"), lines = c("hide", "show"), value = "cpu", ...,
                              basenames = 1, mmap = TRUE) {
  memory <- match.arg(memory)
  lines <- match.arg(lines)
  if (lines == "show") return(.summary_lines(path, memory, basenames, ..., mmap = mmap))
  t <- pcol_top(path, by = "function", value = value, ..., mmap = mmap)
  ru <- attr(t, "unit")
  if (!identical(ru, "seconds")) stop("pcol_summaryRprof: value ", value, " is not a time", call. = FALSE)
  src <- pcol_sources(path, mmap = mmap)
  # the interval of the first source that has one in a time unit (Rprof: its header's)
  per <- src[!is.na(src$period_unit) & src$period_unit %in% c("nanoseconds", "microseconds", "milliseconds", "seconds"), ]
  interval <- if (nrow(per)) per$period[1] / .r_unit(per$period_unit[1])$div else NA_real_
  fnames <- paste0('"', t$name, '"') # summaryRprof's rownames are the file's quoted names
  self <- t$self.time
  total <- t$total.time
  # summaryRprof: rows sorted by name, then ordered by -self, -total (by.self)
  # and -total, -self (by.total), stable
  o <- order(fnames, method = "radix")
  fnames <- fnames[o]; self <- self[o]; total <- total[o]
  sum_self <- attr(t, "total")
  digits <- if (!is.na(interval) && interval < 0.01) 3L else 2L
  rval <- data.frame(self.time = round(self, digits), self.pct = round(100 * self / sum_self, 2),
                     total.time = round(total, digits), total.pct = round(100 * total / sum_self, 2))
  rownames(rval) <- fnames
  if (memory == "both") {
    m <- pcol_top(path, by = "function", value = "rprof.alloc", ..., mmap = mmap)
    mem <- m$total.bytes[match(fnames, paste0('"', m$name, '"'))]
    mem[is.na(mem)] <- 0
    # a one-column matrix named by function, as summaryRprof's rowsum() leaves it
    rval$mem.total <- matrix(round(mem / 1048576, 1), ncol = 1L, dimnames = list(fnames, NULL))
  }
  index1 <- order(-self, -total)
  index2 <- order(-total, -self)
  by.self <- rval[index1, ]
  by.self <- by.self[by.self[, 1L] > 0, ]
  by.total <- rval[index2, c(3L, 4L, if (memory == "both") 5L, 1L, 2L)]
  list(by.self = by.self, by.total = by.total, sample.interval = interval, sampling.time = sum_self)
}

# Writes the selected samples of any input as an Rprof file (pcol unpack
# --to rprof): what profvis, summaryRprof and proftools read.
pcol_to_rprof <- function(path, out = tempfile(fileext = ".Rprof"), ..., mmap = TRUE) {
  q <- .query(...)
  .with_file(path, mmap, function(f) .Call(C_q_export, f, "rprof", q, out))
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

# profvis's data (profvis:::parse_rprof: prof, a row per sample and frame
# with time (the sample's number), depth (1 = outermost), label, filenum,
# linenum, memalloc (MB, the sample's), meminc (MB, change from the previous
# sample), filename; interval in ms; files) from the selected samples of
# any input.  A sample of weight w (w ticks of Rprof) is w consecutive
# times, as profvis reads Rprof's repeated lines.
pcol_profvis_data <- function(path, ..., mmap = TRUE) {
  q <- list(...)
  sel <- q[intersect(names(q), c("source", "from", "to"))]
  if (length(setdiff(names(q), c("source", "from", "to"))))
    stop("pcol_profvis_data: only source, from and to select samples here", call. = FALSE)
  p <- do.call(read_pcol, c(list(path, tables = c("samples", "sample_locations", "locations", "functions",
                                                 "location_lines", "sample_values"), mmap = mmap), sel))
  src <- pcol_sources(path, mmap = mmap)
  interval_ms <- if (nrow(src) && !is.na(src$period[1]) && src$period_unit[1] %in% "nanoseconds") src$period[1] / 1e6 else 10
  s <- p$samples
  w <- pmax(1, s$weight)
  # memory (Rprof memory profiles): vsize.small + vsize.large (bytes), in
  # MB, as profvis's parser counts it (not the nodes, which summaryRprof adds)
  sv <- p$sample_values
  mem <- rep(0, nrow(s))
  mv <- sv[sv$type %in% c("vsize.small", "vsize.large"), ]
  if (nrow(mv)) {
    m <- tapply(mv$value, factor(mv$sample_id, levels = s$sample_id), sum)
    mem <- as.numeric(ifelse(is.na(m), 0, m)) / 1024^2
  }
  sl <- p$sample_locations
  loc <- match(sl$location_id, p$locations$location_id)
  fid <- p$locations$function_id[loc]
  fi <- match(fid, p$functions$function_id)
  label <- p$functions$name[fi]
  fname <- p$functions$filename[fi]
  lines <- p$locations$line[loc]
  # frames outermost first: depth = number of frames - sample_locations depth + 1
  nfr <- tabulate(match(sl$sample_id, s$sample_id), nrow(s))
  si <- match(sl$sample_id, s$sample_id)
  depth <- nfr[si] - sl$depth + 1L
  # one sample of weight w is w times
  times <- cumsum(c(0, w))[seq_len(nrow(s))]
  rep_n <- w[si]
  idx <- rep(seq_along(si), rep_n)
  k <- sequence(rep_n)
  time <- times[si][idx] + k
  files <- unique(fname[!is.na(fname)])
  memalloc <- rep(mem, w)
  prof <- data.frame(time = as.integer(time), depth = as.integer(depth[idx]),
                     label = ifelse(is.na(label[idx]), "??", label[idx]),
                     filenum = match(fname[idx], files), linenum = as.integer(lines[idx]),
                     memalloc = memalloc[time], stringsAsFactors = FALSE)
  # profvis's rows: a sample's frames innermost first (depth down to 1), and
  # meminc the change from the row before
  prof <- prof[order(prof$time, -prof$depth), ]
  prof$meminc <- c(0, diff(prof$memalloc))
  prof$filename <- fname[idx][as.integer(rownames(prof))]
  rownames(prof) <- NULL
  list(prof = prof, interval = interval_ms,
       files = lapply(files, function(f) list(filename = f, content = NA_character_, normpath = f)),
       prof_output = path)
}

# The memory increase of each sample (rprof.alloc, spec.md 7.1: the sum of
# the rises of vsize.small, vsize.large and nodes, in bytes, against the
# previous sample of the same source in the file, 0 for its first), for
# the samples sample_ids.  summaryRprof(memory = "both") adds this up into
# mem.total; computed over the whole file, so a selection's first sample
# rises from the sample before it, as `pcol top --value rprof.alloc --from`.
.rprof_alloc <- function(path, sample_ids, mmap) {
  p <- read_pcol(path, tables = c("samples", "sample_values"), mmap = mmap)
  s <- p$samples
  sv <- p$sample_values
  types <- c("vsize.small", "vsize.large", "nodes")
  if (!any(sv$type %in% types))
    stop("pcol_summaryRprof: ", path, " has no Rprof memory values (summaryRprof: ",
         "\"profile does not contain memory information\")", call. = FALSE)
  n <- nrow(s)
  same <- c(FALSE, s$source_id[-1L] == s$source_id[-n])[seq_len(n)]
  row <- match(sv$sample_id, s$sample_id)
  alloc <- numeric(n)
  for (ty in types) {
    v <- numeric(n)
    k <- sv$type == ty
    v[row[k]] <- sv$value[k]
    d <- c(0, diff(v))
    alloc <- alloc + ifelse(same & d > 0, d, 0)
  }
  alloc[match(sample_ids, s$sample_id)]
}

# summaryRprof(lines = "show"): each sample's stack is the source lines of
# its frames ("FILE#LINE", innermost first; "<no location>" when none has
# one); self is the first, total each distinct one once; by.line orders
# the rows by file and line.  With memory = "both", mem.total adds each
# sample's memory increase to each distinct line of it (MB, 0.1).
# Computed from the sample tables (as summaryRprof from the file's lines),
# with R's own sort and order.
.summary_lines <- function(path, memory, basenames, ..., mmap = TRUE) {
  sel <- list(...)
  if (length(setdiff(names(sel), c("source", "from", "to"))))
    stop("pcol_summaryRprof: with lines = \"show\", only source, from and to select samples", call. = FALSE)
  p <- do.call(read_pcol, c(list(path, tables = c("samples", "sample_locations", "locations", "functions"), mmap = mmap), sel))
  src <- pcol_sources(path, mmap = mmap)
  per <- src[!is.na(src$period_unit) & src$period_unit %in% c("nanoseconds", "microseconds", "milliseconds", "seconds"), ]
  if (!nrow(per)) stop("pcol_summaryRprof: ", path, " has no sampling interval", call. = FALSE)
  interval <- per$period[1] / .r_unit(per$period_unit[1])$div
  sl <- p$sample_locations
  s <- p$samples
  # a sample without frames (an Rprof memory-only line) is not counted:
  # summaryRprof drops the lines that are empty once the memory is cut off
  s <- s[s$sample_id %in% sl$sample_id, ]
  li <- match(sl$location_id, p$locations$location_id)
  line <- p$locations$line[li]
  file <- p$functions$filename[match(p$locations$function_id[li], p$functions$function_id)]
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
  sid <- sl$sample_id[has]
  o <- order(sid, sl$depth[has]) # innermost first within a sample
  tok <- tok[o]; sid <- sid[o]
  w <- s$weight
  first_tok <- rep("<no location>", nrow(s))
  si <- match(sid, s$sample_id)
  lead <- !duplicated(si)
  first_tok[si[lead]] <- tok[lead]
  u <- !duplicated(data.frame(si, tok)) # each distinct line once per sample
  none <- setdiff(seq_len(nrow(s)), si)
  utok <- c(tok[u], rep("<no location>", length(none)))
  uw <- c(w[si[u]], w[none])
  fnames <- sort(unique(utok))
  if (memory == "both") {
    alloc <- .rprof_alloc(path, s$sample_id, mmap)
    umem <- as.vector(tapply(c(alloc[si[u]], alloc[none]), factor(utok, levels = fnames), sum))
    umem[is.na(umem)] <- 0
  }
  fcounts <- as.vector(tapply(w, factor(first_tok, levels = fnames), sum)); fcounts[is.na(fcounts)] <- 0
  ucounts <- as.vector(tapply(uw, factor(utok, levels = fnames), sum)); ucounts[is.na(ucounts)] <- 0
  firstnum <- fcounts * interval
  uniquenum <- ucounts * interval
  index1 <- order(-firstnum, -uniquenum)
  index2 <- order(-uniquenum, -firstnum)
  filename <- sub("#.*$", "", fnames)
  linenum <- rep.int(0, length(filename))
  hasline <- filename != fnames
  linenum[hasline] <- as.numeric(sub("^.*#", "", fnames[hasline]))
  index3 <- order(filename, linenum)
  digits <- if (interval < 0.01) 3L else 2L
  rval <- data.frame(self.time = round(firstnum, digits), self.pct = round(100 * firstnum / sum(firstnum), 2),
                     total.time = round(uniquenum, digits), total.pct = round(100 * uniquenum / sum(firstnum), 2))
  rownames(rval) <- fnames
  if (memory == "both") # a one-column matrix named by line, as summaryRprof's rowsum() leaves it
    rval$mem.total <- matrix(round(umem / 1048576, 1), ncol = 1L, dimnames = list(fnames, NULL))
  by.self <- rval[index1, ]
  by.self <- by.self[by.self[, 1L] > 0, ]
  list(by.self = by.self, by.total = rval[index2, c(3L, 4L, if (memory == "both") 5L, 1L, 2L)], by.line = rval[index3, ],
       sample.interval = interval, sampling.time = sum(fcounts) * interval)
}
