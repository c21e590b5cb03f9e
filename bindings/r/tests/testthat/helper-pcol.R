# Shared by the tests: the pcol CLI (the reference), the test profiles of
# ../shared/testdata packed once per run.
# Environment: PCOL (the pcol binary; default `pcol` on PATH, else
# <repo>/build/bin/pcol), PCOL_TESTDATA (default <repo>/../shared/testdata),
# PCOL_VIEW_REFS (bindings/test.sh's references of the views, made once for
# both packages' tests; optional).
repo_root <- function() {
  d <- normalizePath(getwd(), mustWork = FALSE)
  while (!file.exists(file.path(d, "include", "pcol.h")) && dirname(d) != d) d <- dirname(d)
  d
}
PCOL <- local({
  p <- Sys.getenv("PCOL")
  if (!nzchar(p)) p <- Sys.which("pcol")
  if (!nzchar(p)) p <- file.path(repo_root(), "build", "bin", "pcol")
  unname(p)
})
TESTDATA <- local({
  d <- Sys.getenv("PCOL_TESTDATA")
  if (!nzchar(d)) d <- file.path(repo_root(), "..", "shared", "testdata")
  normalizePath(d, mustWork = FALSE)
})

run_pcol <- function(..., check = TRUE) {
  args <- c(...)
  out <- tempfile(); err <- tempfile()
  on.exit(unlink(c(out, err)))
  status <- system2(PCOL, shQuote(args), stdout = out, stderr = err)
  res <- list(status = status, stdout = readBin(out, "raw", file.size(out)),
              stderr = paste(readLines(err, warn = FALSE), collapse = "\n"))
  if (check && status != 0) stop(sprintf("pcol %s failed (%d): %s", paste(args, collapse = " "), status, res$stderr))
  res
}

# `pcol cat --format json` as a data frame (null -> NA; \u0000, which R
# strings cannot hold, -> U+FFFD as the package maps it); NULL when empty
cat_json <- function(path, view, ...) {
  txt <- rawToChar(run_pcol("cat", path, "--table", view, "--format", "json", ...)$stdout)
  Encoding(txt) <- "UTF-8"
  txt <- gsub("\\u0000", "\\ufffd", txt, fixed = TRUE)
  d <- jsonlite::fromJSON(txt, simplifyVector = TRUE)
  if (is.data.frame(d)) d else NULL
}

# Every view of `path` as `pcol cat` prints it: for each view its row
# count and its first `limit` rows as a JSON array.  A list by view:
# list(n, json).  From bindings/test.sh's references of a file of the same
# bytes (make_refs), else from one `pcol cat --table all --format jsonl`
# cut into the same files by views-split.awk (a `pcol cat` a view, with a
# wc and a head, cost ~50 processes a file)
cat_views <- function(path, views, limit, ...) {
  ref <- if (length(c(...)) == 0L) .refs[[path]] else NULL
  if (is.null(ref) || !all(file.exists(file.path(ref, c(paste0(views, ".jsonl"), "counts.tsv"))))) {
    ref <- tempfile("cat")
    dir.create(ref)
    on.exit(unlink(ref, recursive = TRUE))
    # the output budget is the whole file's (the default, 128 x the
    # input's size, is one table's)
    script <- sprintf("%s cat %s --table all --format jsonl --max-output 4G %s > %s/all && cd %s && awk -v views=%s -f %s all",
                      shQuote(PCOL), shQuote(path), paste(shQuote(c(...)), collapse = " "), shQuote(ref), shQuote(ref),
                      shQuote(paste(pcol_views(), collapse = " ")), shQuote(normalizePath(test_path("views-split.awk"))))
    if (system(script) != 0) stop("pcol cat failed on ", path)
  }
  counts <- read.delim(file.path(ref, "counts.tsv"), header = FALSE, quote = "", col.names = c("view", "n"))
  out <- lapply(views, function(v) {
    rows <- readLines(file.path(ref, paste0(v, ".jsonl")), n = limit, warn = FALSE)
    list(n = counts$n[match(v, counts$view)], json = paste0("[", paste(rows, collapse = ","), "]"))
  })
  names(out) <- views
  out
}

parse_json <- function(txt) {
  Encoding(txt) <- "UTF-8"
  txt <- gsub("\\u0000", "\\ufffd", txt, fixed = TRUE)
  d <- jsonlite::fromJSON(txt, simplifyVector = TRUE)
  if (is.data.frame(d)) d else NULL
}

# one column of it, as the package types it
json_column <- function(d, name, kind) {
  v <- d[[name]]
  if (kind == "str") return(as.character(v))
  if (kind == "bool") return(as.logical(v))
  if (kind == "f64" && is.character(v))
    return(ifelse(v == "Infinity", Inf, ifelse(v == "-Infinity", -Inf, suppressWarnings(as.numeric(v)))))
  as.numeric(v)
}

skip_without_testdata <- function() {
  if (!dir.exists(TESTDATA)) skip(paste("test data not found at", TESTDATA, "(set PCOL_TESTDATA)"))
  if (!file.exists(PCOL)) skip(paste("pcol CLI not found at", PCOL, "(set PCOL)"))
}

input_files <- function() {
  f <- list.files(TESTDATA, recursive = TRUE, full.names = TRUE)
  f[!grepl("\\.md$", f) & !grepl("expected-go1.19-pprof", f)]
}

# run tests/support/SCRIPT (a generator of test files) with python3 and
# ARGS, each quoted for the shell; the test is skipped where python3 or
# the script is missing. The exit status (0: written)
run_support <- function(script, args, stdout = "") {
  gen <- file.path(repo_root(), "tests", "support", script)
  py <- Sys.which("python3")
  skip_if(!nzchar(py) || !file.exists(gen), paste0("no python3 or tests/support/", script))
  system2(py, shQuote(c(gen, args)), stdout = stdout)
}

# how many test files a corpus-wide test must have seen: n, or 1 when a
# run chose a few files on purpose (PCOL_TESTDATA_FEW=1)
corpus_min <- function(n) if (Sys.getenv("PCOL_TESTDATA_FEW") == "1") if (n > 1L) 1L else 0L else n

# the other layouts a packed file can have, made of every 15th profile:
# LZ4 sections (format 1.3: over encoded columns; and the 1.0 files
# --format-version 1.2 writes for old readers), zstd sections (1.2's
# transforms, 1.3/1.4) and coalesced long samples; named NAME + the suffix
COPIES <- list(list(c("--compress", "lz4"), "--compress.pcol"),
               list(c("--compress", "lz4", "--format-version", "1.2"), "--lz4v10.pcol"),
               list(c("--compress", "zstd"), "--zstd.pcol"), list("--coalesce", "--coalesce.pcol"))

# c(input, pcol file) of a profile whose samples columns `pack --compress
# zstd` stores in zstd blocks (format 1.4, spec.md section 4.2: 65,536
# samples or more), made by tests/support/tachyongen.py; NULL without python3
zstd_blocks_file <- function(d) {
  gen <- file.path(repo_root(), "tests", "support", "tachyongen.py")
  py <- Sys.which("python3")
  if (!nzchar(py) || !file.exists(gen)) return(NULL)
  src <- file.path(d, "tachyon-70000.bin")
  dst <- file.path(d, "tachyon-70000--blocks.pcol")
  stopifnot(system2(py, c(shQuote(gen), "rich", shQuote(src), "--samples", "70000", "--seed", "5"),
                    stdout = FALSE) == 0)
  run_pcol("pack", src, "-o", dst, "--compress", "zstd")
  info <- rawToChar(run_pcol("info", dst)$stdout)
  # 1.4, or 1.5 when a column's lanes are byte-split as well
  stopifnot(grepl("zblk", info, fixed = TRUE), grepl("format_version:  1.[45]", info))
  c(src, dst)
}

.packed <- new.env()
# list of c(src, pcol) for every test profile `pcol pack` accepts, plus an
# LZ4-compressed, a zstd and a coalesced copy of a few and a file with
# zstd blocks
packed <- function() {
  if (!is.null(.packed$v)) return(.packed$v)
  d <- file.path(tempdir(), "packed")
  dir.create(d, showWarnings = FALSE)
  out <- list()
  files <- input_files() # once (a listing of the test data a file cost 1.3 s of CPU a run)
  for (i in seq_along(files)) {
    src <- files[i]
    dst <- file.path(d, sprintf("%03d-%s.pcol", i, basename(src)))
    if (run_pcol("pack", src, "-o", dst, check = FALSE)$status == 0) out[[length(out) + 1]] <- c(src, dst)
  }
  # the whole corpus, unless a run chose a few files on purpose
  # (PCOL_TESTDATA_FEW=1: bindings/test.sh's ASan/UBSan run)
  stopifnot(length(out) > 50 || Sys.getenv("PCOL_TESTDATA_FEW") == "1")
  extra <- list()
  for (k in seq(1, length(out), by = 15)) {
    src <- out[[k]][1]
    for (cp in COPIES) {
      dst <- file.path(d, paste0(basename(src), cp[[2]]))
      run_pcol("pack", src, "-o", dst, cp[[1]])
      extra[[length(extra) + 1]] <- c(src, dst)
    }
  }
  blocks <- zstd_blocks_file(d)
  .packed$v <- c(out, extra, if (!is.null(blocks)) list(blocks))
  note_refs(out)
  .packed$v
}

# bindings/test.sh's references (its make_refs): .refs[[pcol file packed
# here]] is the reference directory of a file packed into the same bytes
.refs <- new.env()
note_refs <- function(pairs) {
  refs <- Sys.getenv("PCOL_VIEW_REFS")
  index <- file.path(refs, "index.tsv")
  if (!nzchar(refs) || !file.exists(index)) return(invisible())
  ix <- read.delim(index, header = FALSE, quote = "", colClasses = "character", col.names = c("n", "src"),
                   encoding = "UTF-8")
  same_bytes <- function(a, b) {
    identical(file.size(a), file.size(b)) && identical(readBin(a, "raw", file.size(a)), readBin(b, "raw", file.size(b)))
  }
  for (x in pairs) {
    k <- match(normalizePath(x[1]), ix$src)
    if (!is.na(k) && same_bytes(x[2], file.path(refs, paste0(ix$n[k], ".pcol"))))
      assign(x[2], file.path(refs, ix$n[k]), envir = .refs)
  }
}

kinds <- function(view) .Call(pcol:::C_view_columns, view)

# /proc/self/maps lines that map `path`
mapped <- function(path) {
  m <- readLines("/proc/self/maps")
  m[endsWith(m, normalizePath(path))]
}

.rep <- new.env()
# A subset of packed() for the tests of variants (options, filters, sorts,
# keys, values): the first file of each format (test-data folder), the first
# LZ4, zstd and coalesced copies, the zstd-blocks file, and the first two
# files with each feature (labels,
# inline frames, memory values, several sources, weighted samples).  Every
# file still gets each view once, with the defaults.
representative <- function() {
  if (!is.null(.rep$v)) return(.rep$v)
  out <- list(); seen <- character(); feat <- list()
  for (x in packed()) {
    copy <- regmatches(x[2], regexpr("--(compress|zstd|coalesce|blocks)\\.pcol$", x[2]))
    key <- if (length(copy)) copy else dirname(x[1])
    take <- !(key %in% seen)
    seen <- c(seen, key)
    p <- read_pcol(x[2], tables = c("sources", "sample_labels", "locations", "location_lines", "value_types", "samples"))
    fs <- c(if (nrow(p$sources) > 1) "multi-source", if (nrow(p$sample_labels)) "labels",
            if (nrow(p$location_lines) > nrow(p$locations)) "inline", if (any(p$value_types$unit %in% "bytes")) "memory",
            if (any(p$samples$weight > 1)) "weighted")
    for (f in fs) if (is.null(feat[[f]]) || feat[[f]] < 2) { feat[[f]] <- if (is.null(feat[[f]])) 1 else feat[[f]] + 1; take <- TRUE }
    if (take) out[[length(out) + 1L]] <- x
  }
  .rep$v <- out
  out
}
# representative files of one test-data folder (as packed_in)
representative_in <- function(re) Filter(function(x) grepl(re, x[1]), representative())
