#!/usr/bin/env bash
# The R and Python packages against a plain build of libpcol installed into a
# scratch prefix ($BUILD/bindings/prefix), as a user would: `make install`,
# `R CMD INSTALL bindings/r`, `pip install bindings/python`; then their tests
# (testthat, pytest) against the installed `pcol` CLI and ../shared/testdata.
#
#   bash bindings/test.sh [all|r|python|glue] (make test-bindings / test-r / test-python)
#   bash bindings/test.sh install             build and install only (bench/bindings.sh)
#   bash bindings/test.sh r-asan              the R package under ASan/UBSan (after an install)
#
# A package whose tools are missing is skipped with the reason (exit 0);
# .ci/run installs them (r-base-dev r-cran-testthat r-cran-jsonlite,
# python3-numpy python3-pytest python3-pip python3-dev python3-pandas).
set -u
what=${1:-all}
BUILD=${BUILD:-build}
PY=${PYTHON:-/usr/bin/python3}
W=$BUILD/bindings
prefix=$PWD/$W/prefix
export PCOL_TESTDATA=${PCOL_TESTDATA:-$PWD/../shared/testdata}
fail=0

mkdir -p "$W"
rm -f "$W/times"
# tm NAME CMD...: CMD (a function of this script, run in this shell), its
# wall and CPU time (user+sys with its children) added to $W/times, printed
# at the end (bench/results/test-time.md)
tm() {
  local name=$1 TIMEFORMAT
  shift
  TIMEFORMAT="  $name: %0R s wall, %0U+%0S s CPU"
  { time "$@" 2>&3; } 3>&2 2>>"$W/times"
}
make -s --no-print-directory BUILD="$BUILD" PREFIX="$prefix" install >/dev/null || { echo "bindings: make install failed"; exit 1; }
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
export PCOL=$prefix/bin/pcol
[ -d "$PCOL_TESTDATA" ] || echo "bindings: note: $PCOL_TESTDATA absent; the tests that need test profiles are skipped"

# Both packages are built from a copy of their folder outside the tree (as
# a user's copy or a tarball would be: the C glue comes from the install,
# <prefix>/share/pcol/bindings), which also keeps the source tree clean.
# The R package as a user gets it: its source tarball, made by `R CMD build`
# after bindings/r/bootstrap.sh bundled libpcol's sources, installed with
# `R CMD INSTALL` without any libpcol on the search paths (PKG_CONFIG_PATH
# and PCOL_PREFIX unset).  Then the other way, linking the scratch install
# (PCOL_SYSTEM=1, with CPATH at its include directory, where pkg-config
# leaves out the -I), into $W/rlib-sys, checked by loading it.
install_r() { # -> $W/rlib, $W/rsrc/pcol_*.tar.gz
  local lib=$PWD/$W/rlib src=$PWD/$W/rsrc/pcol
  rm -rf "$lib" "$lib-sys" "$PWD/$W/rsrc" && mkdir -p "$lib" "$lib-sys" "$src" && cp -r bindings/r/. "$src/"
  rm -rf "$src/src/libpcol"
  PCOL_REPO=$PWD PCOL_BUILD=$PWD/$BUILD sh "$src/bootstrap.sh" >"$W/r-install.log" 2>&1 &&
    (cd "$W/rsrc" && R CMD build --no-build-vignettes pcol >>"$PWD/r-install.log" 2>&1) ||
    { cat "$W/r-install.log" "$W/rsrc/r-install.log" 2>/dev/null; echo "FAIL: R CMD build bindings/r"; return 1; }
  # the package's Makevars has no warning flags (R CMD check calls them
  # non-portable): added, with -Werror, to the PCOL_SYSTEM=1 install below,
  # which compiles the package's own C.  The tarball's install (bundled
  # libpcol, which make's build compiles with -Werror) keeps R's flags: its
  # log is R CMD check's (run_r_check, --install=check:LOG), so the bundled
  # library is compiled once.
  printf 'CFLAGS += -Wall -Wextra -Werror -Wno-unused-parameter\n' >"$PWD/$W/Makevars.strict"
  : >"$PWD/$W/Makevars.none"
  (unset PKG_CONFIG_PATH PCOL_PREFIX
   MAKEFLAGS=-j2 R_MAKEVARS_USER=$PWD/$W/Makevars.none \
     R CMD INSTALL --no-multiarch --library="$lib" "$W"/rsrc/pcol_*.tar.gz >"$W/r-install-pkg.log" 2>&1) ||
    { cat "$W/r-install.log" "$W/r-install-pkg.log"; echo "FAIL: R CMD INSTALL of the bindings/r tarball (bundled libpcol)"; return 1; }
  grep -q 'libpcol bundled' "$W/r-install-pkg.log" || { echo "FAIL: the tarball did not build its bundled libpcol"; return 1; }
  rm -rf "$src/src/libpcol"
  (CPATH=$prefix/include R_MAKEVARS_USER=$PWD/$W/Makevars.strict \
     R CMD INSTALL --no-multiarch --configure-vars=PCOL_SYSTEM=1 --library="$lib-sys" "$src" >"$W/r-install-sys.log" 2>&1 &&
   R_LIBS="$lib-sys" Rscript -e 'invisible(pcol::pcol_views())' &&
   ldd "$lib-sys/pcol/libs/pcol.so" | grep -q "$prefix/lib/libpcol") ||
    { cat "$W/r-install-sys.log"; echo "FAIL: R CMD INSTALL bindings/r against the installed libpcol"; return 1; }
  grep -q "libpcol installed: $prefix/lib" "$W/r-install-sys.log" || { echo "FAIL: PCOL_SYSTEM=1 did not link $prefix"; return 1; }
  echo "R package: installed from its tarball (bundled libpcol) and against $prefix (PCOL_SYSTEM=1)"
}

# As a user gets it: a source package with libpcol's C sources bundled
# (bundle.py, as an sdist carries them) built into a wheel where no libpcol
# is needed, installed with --target (numpy must not be fetched: no index
# here, and no --no-deps) and into a venv; the option of linking the
# installed libpcol (PCOL_LINK=installed) is built too.
install_python() { # -> $W/py
  local src=$PWD/$W/pysrc target=$PWD/$W/py wheel=$PWD/$W/wheel log=$PWD/$W/py-install.log venv=$PWD/$W/venv
  rm -rf "$src" "$target" "$wheel" "$venv" && mkdir -p "$src" && cp -r bindings/python/. "$src/"
  rm -rf "$src/build" "$src"/*.egg-info "$src/_vendor" "$src"/pcol/*.so
  { "$PY" bindings/python/bundle.py --build "$BUILD" "$src/_vendor" &&
    (cd "$src" && PKG_CONFIG_PATH= "$PY" -m pip wheel --no-build-isolation --no-index --no-deps -w "$wheel" .) &&
    "$PY" -m pip install --no-index --target "$target" "$wheel"/pcol-*.whl; } >"$log" 2>&1 ||
    { cat "$log"; echo "FAIL: pip wheel / pip install --target of bindings/python (libpcol bundled)"; return 1; }
  # one version: the package's is libpcol's (include/pcol.h), as the CLI's
  local v; v=$(sed -n 's/^#define PCOL_VERSION_STRING "\(.*\)"/\1/p' include/pcol.h)
  [ -f "$(echo "$wheel"/pcol-"$v"-*.whl)" ] && "$prefix/bin/pcol" --version | grep -q "library $v" ||
    { echo "FAIL: the wheel ($(cd "$wheel" && echo pcol-*.whl)) and pcol --version are not libpcol's $v"; return 1; }
  if "$PY" -m venv --system-site-packages "$venv" >>"$log" 2>&1; then
    "$venv/bin/python" -m pip install --no-index "$wheel"/pcol-*.whl >>"$log" 2>&1 &&
      (cd / && "$venv/bin/python" -c "import pcol, sys; sys.exit(not (pcol.version() and pcol.__file__.startswith('$venv')))") ||
      { tail -20 "$log"; echo "FAIL: pip install of the wheel in a venv"; return 1; }
  else
    echo "note: python3 -m venv unavailable (python3-venv): the venv install is not checked"
  fi
  rm -rf "$src/_vendor" "$src/build"
  (cd "$src" && PCOL_LINK=installed "$PY" -m pip wheel --no-build-isolation --no-index --no-deps \
     -w "$PWD/$W/wheel-installed" .) >>"$log" 2>&1 ||
    { tail -20 "$log"; echo "FAIL: pip wheel of bindings/python with PCOL_LINK=installed"; return 1; }
  [ -f "$(echo "$src/$W/wheel-installed"/pcol-"$v"-*.whl)" ] ||
    { echo "FAIL: the PCOL_LINK=installed wheel is not version $v: $(ls "$src/$W/wheel-installed")"; return 1; }
}

# The shared C glue alone, under ASan/UBSan, against the static libpcol:
# every view of every test profile, an exact write/re-read round trip (strings
# as bytes), mutated files, and the streaming writer's batches
# (bindings/common/check_glue.c).
run_glue() {
  local g=$W/glue cc=${CC:-cc}
  rm -rf "$g" && mkdir -p "$g/in"
  if ! $cc -std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined \
       -fno-omit-frame-pointer -Wall -Wextra -Werror -Wshadow -Iinclude -Ibindings/common \
       bindings/common/check_glue.c bindings/common/pcolb.c "$BUILD/lib/libpcol.a" \
       -llz4 -lzstd -lz -lprotobuf-c -ljansson -lpthread -lm -o "$g/check_glue" 2>"$g/cc.log"; then
    cat "$g/cc.log"; echo "FAIL: building bindings/common/check_glue.c"; fail=1; return; fi
  if [ ! -d "$PCOL_TESTDATA" ]; then echo "SKIP: glue checks: no test data"; return 0; fi
  local i=0 f
  while IFS= read -r f; do
    i=$((i + 1))
    "$PCOL" pack "$f" -o "$g/in/$i.pcol" 2>/dev/null || rm -f "$g/in/$i.pcol"
  done < <(find "$PCOL_TESTDATA" -type f ! -name '*.md' ! -path '*expected-go*' | sort)
  echo "glue (ASan/UBSan):"
  if ASAN_OPTIONS=detect_leaks=1 "$g/check_glue" "$g"/in/*.pcol >"$g/out.log" 2>&1; then tail -1 "$g/out.log"
  else tail -20 "$g/out.log"; echo "FAIL: glue checks"; fail=1; fi
  local n=0 bad=0
  for f in $(ls "$g"/in/*.pcol | awk 'NR % 4 == 1'); do
    n=$((n + 1))
    "$g/check_glue" --mutate 200 "$n" "$f" >/dev/null || { echo "FAIL: glue on mutations of $f"; bad=1; }
  done
  echo "glue: $((n * 200)) mutations of $n files read or refused cleanly$([ $bad = 1 ] && echo ': NO')"
  [ $bad = 0 ] || fail=1
  # the streaming writer's glue (pcb_writer_*, what R's and Python's writers call)
  for seed in 1 2 3; do
    rm -rf "$g/w$seed" && mkdir -p "$g/w$seed"
    ASAN_OPTIONS=detect_leaks=1 "$g/check_glue" --writer "$g/w$seed" "$seed" || { echo "FAIL: glue writer (seed $seed)"; fail=1; }
  done
}

run_r() {
  if ! command -v Rscript >/dev/null 2>&1; then echo "SKIP: R package tests: R not installed"; return 0; fi
  if [ ! -f "$(R RHOME 2>/dev/null)/include/R.h" ] && [ ! -f /usr/share/R/include/R.h ]; then
    echo "SKIP: R package tests: R headers missing (install r-base-dev)"; return 0; fi
  for p in testthat jsonlite; do
    Rscript -e "if (!requireNamespace('$p', quietly = TRUE)) quit(status = 1)" >/dev/null 2>&1 ||
      { echo "SKIP: R package tests: R package $p missing (install r-cran-$p)"; return 0; }
  done
  tm r-install install_r || { fail=1; return; }
  [ -n "${1:-}" ] && { ( tm r-check "$1"; exit $fail ) >"$W/lane-rcheck.out" 2>&1 & rbg=$!; } # beside the tests
  tm r-tests run_testthat || { echo "FAIL: R package tests"; fail=1; }
}

# the R package's tests against its install ($W/rlib); the slowest named
run_testthat() {
  local lib=$PWD/$W/rlib
  (cd bindings/r/tests && PCOL_TEST_FILTER= R_LIBS="$lib" Rscript -e '
    library(testthat); library(pcol)
    r <- as.data.frame(test_dir("testthat", reporter = "check", stop_on_failure = FALSE))
    cat(sprintf("R package (pcol %s, libpcol %s): %d tests, %d expectations, %d failed, %d errors, %d skipped\n",
                packageVersion("pcol"), pcol_version(), nrow(r), sum(r$nb), sum(r$failed), sum(r$error), sum(r$skipped)))
    if (any(r$skipped)) cat("skipped:", paste(r$test[r$skipped], collapse = "; "), "\n")
    s <- head(r[order(-r$real), ], 8); s <- s[s$real >= 5, ]
    if (nrow(s)) cat(sprintf("  %5.1f s  %s: %s\n", s$real, s$file, s$test), sep = "")
    quit(status = if (sum(r$failed) + sum(r$error) > 0) 1 else 0)')
}

# The package's own C (pcol_r.c, query_r.c, writer_r.c, the glue) under
# ASan/UBSan: built against the scratch install (PCOL_SYSTEM=1: four files,
# seconds) with the sanitizers, and the tests that drive its C hardest
# without the corpus (strings, ALTREP columns and their lifetime, writing
# and the streaming writer, refused tables, damaged and mutated files; the
# views' mean, normalize and drop_negative on the profiles there are) on
# a few test profiles run with libasan preloaded into R (R is not
# instrumented; its own leaks are not ours: detect_leaks=0).
run_r_asan() {
  command -v Rscript >/dev/null 2>&1 && [ -d "$PWD/$W/rlib/pcol" ] || return 0
  local src=$PWD/$W/r-asan-src lib=$PWD/$W/r-asan cc=${CC:-cc}
  local libs; libs="$($cc -print-file-name=libasan.so) $($cc -print-file-name=libubsan.so)"
  rm -rf "$src" "$lib" && mkdir -p "$lib" && cp -r bindings/r "$src" && rm -rf "$src/src/libpcol"
  printf 'CFLAGS = -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -Wall -Wextra -Werror -Wno-unused-parameter\nLDFLAGS = -fsanitize=address,undefined\n' >"$PWD/$W/Makevars.asan"
  if ! (R_MAKEVARS_USER=$PWD/$W/Makevars.asan MAKEFLAGS=-j2 \
          R CMD INSTALL --no-multiarch --no-test-load --configure-vars=PCOL_SYSTEM=1 --library="$lib" "$src" >"$W/r-asan.log" 2>&1) ||
     ! grep -q fsanitize=address "$W/r-asan.log"; then
    tail -20 "$W/r-asan.log"; echo "FAIL: building the R package with ASan/UBSan"; fail=1; return
  fi
  # a few test profiles: the first two of each format folder, and every
  # file the tests run here name ("pprof", "edge-...pb.gz" in file.path or
  # "pprof/go-...pb.gz"), which the first two missed: 8 tests skipped
  local few=$PWD/$W/r-asan-data d
  rm -rf "$few" && mkdir -p "$few"
  if [ -d "$PCOL_TESTDATA" ]; then
    for d in $(find "$PCOL_TESTDATA" -type f ! -name '*.md' ! -path '*expected-go*' -printf '%h\n' | sort -u); do
      find "$d" -maxdepth 1 -type f ! -name '*.md' | sort | head -2 | while IFS= read -r f; do
        mkdir -p "$few/${d#"$PCOL_TESTDATA"}" && ln -s "$f" "$few/${d#"$PCOL_TESTDATA"}/"; done
    done
    local named
    named=$(cat bindings/r/tests/testthat/test-{strings,altrep,write,errors,value-opts}*.R 2>/dev/null |
      grep -oE '"[a-z][a-z-]*(", *"|/)[A-Za-z0-9_.+-]+\.[A-Za-z0-9.]+"' | tr -d '" ' | tr ',' '/' | sort -u)
    for f in $named; do
      [ -f "$PCOL_TESTDATA/$f" ] && [ ! -e "$few/$f" ] &&
        mkdir -p "$few/$(dirname "$f")" && ln -s "$PCOL_TESTDATA/$f" "$few/$f"
    done
  fi
  (cd bindings/r/tests && LD_PRELOAD="$libs" ASAN_OPTIONS=detect_leaks=0 PCOL_TESTDATA="$few" PCOL_TESTDATA_FEW=1 R_LIBS="$lib" \
     Rscript -e '
    library(testthat); library(pcol)
    r <- as.data.frame(test_dir("testthat", filter = "strings|altrep|write|errors|value-opts", reporter = "check", stop_on_failure = FALSE))
    cat(sprintf("R package under ASan/UBSan: %d tests, %d expectations, %d failed, %d errors\n",
                nrow(r), sum(r$nb), sum(r$failed), sum(r$error)))
    quit(status = if (sum(r$failed) + sum(r$error) > 0) 1 else 0)' 2>&1 | tail -20; exit "${PIPESTATUS[0]}") ||
    { echo "FAIL: R package tests under ASan/UBSan"; fail=1; }
}

# R CMD check --as-cran of the package's tarball (install_r's, libpcol
# bundled, and its install: --install=check:LOG, so the bundled library is
# not compiled again): code, documentation, examples, compiled code, and
# a few tests (PCOL_TEST_FILTER, tests/testthat.R: the full suite ran in
# run_r against the installed package, and would run a second time here).
# --no-manual: the PDF manual needs LaTeX.  Errors and warnings fail;
# notes are printed.
run_r_check() {
  command -v Rscript >/dev/null 2>&1 && [ -d "$PWD/$W/rlib/pcol" ] || return 0
  local d=$PWD/$W/rcheck lib=$PWD/$W/rlib log=$PWD/$W/r-install-pkg.log
  rm -rf "$d" && mkdir -p "$d" && cp "$W"/rsrc/pcol_*.tar.gz "$d/"
  # --as-cran without the network: the incoming checks that ask CRAN and
  # other servers are turned off (_R_CHECK_CRAN_INCOMING_*), and no libpcol
  # is on the search paths (the tarball builds its bundled copy)
  # (--as-cran runs checkbashisms on configure and cleanup: .ci/run installs
  # it with Debian's devscripts; without it the check warns and fails here)
  (cd "$d" && unset PKG_CONFIG_PATH PCOL_PREFIX && PCOL_TESTDATA=$d/no-testdata PCOL_TEST_FILTER="strings|views" \
     _R_CHECK_CRAN_INCOMING_=FALSE _R_CHECK_CRAN_INCOMING_REMOTE_=FALSE _R_CHECK_FORCE_SUGGESTS_=FALSE \
     timeout 900 R CMD check --as-cran --no-manual --no-build-vignettes \
       --install="check:$log" --library="$lib" \
       pcol_*.tar.gz >check.log 2>&1)
  local st; st=$(grep '^Status:' "$d/check.log")
  if [ -z "$st" ] || grep -qE 'ERROR|WARNING' <<<"$st"; then
    tail -40 "$d/check.log"; echo "FAIL: R CMD check --as-cran bindings/r (${st:-no status: timed out?})"; fail=1; return
  fi
  echo "R CMD check --as-cran (--no-manual, no network): $st"
  grep -B1 -A4 '\.\.\. NOTE' "$d/check.log" | sed 's/^/  /'
  return 0
}

run_pytest() {
  (cd bindings/python/tests && PCOL_EXPECT_INSTALLED="$1" PYTHONPATH="$1" "$PY" -m pytest -q -p no:cacheprovider -rs \
     --durations=8 --durations-min=5 .)
}

run_python() {
  if [ ! -x "$PY" ]; then echo "SKIP: Python package tests: $PY not found"; return 0; fi
  for m in numpy pytest pip setuptools; do
    "$PY" -c "import $m" >/dev/null 2>&1 || { echo "SKIP: Python package tests: $PY has no $m (install python3-$m)"; return 0; }
  done
  "$PY" -c "import sysconfig, os, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()['include'], 'Python.h')))" ||
    { echo "SKIP: Python package tests: Python.h missing (install python3-dev)"; return 0; }
  local target=$PWD/$W/py
  tm python-install install_python || { fail=1; return; }
  "$PY" -c "import pandas" >/dev/null 2>&1 || echo "note: pandas not installed: the to_pandas tests are skipped"
  # the tests import the installed package (PYTHONPATH), never the source folder
  (cd / && PYTHONPATH="$target" "$PY" -c "import pcol; assert pcol.__file__.startswith('$target'), pcol.__file__") ||
    { echo "FAIL: the installed package is not the one imported"; fail=1; return; }
  echo "Python package tests (pytest, $("$PY" --version), numpy $("$PY" -c "import numpy; print(numpy.__version__)")):"
  tm pytest run_pytest "$target" || { echo "FAIL: Python package tests"; fail=1; }
  # the extension's own C (the writer's flattening, writer.c) under
  # ASan/UBSan: built against the scratch install (PCOL_LINK=installed: a
  # few files) with the sanitizers, the writer's tests run with libasan
  # preloaded (the interpreter is not instrumented; its leaks are not ours)
  local asan=$PWD/$W/py-asan cc=${CC:-cc}
  local libs; libs="$($cc -print-file-name=libasan.so) $($cc -print-file-name=libubsan.so)"
  rm -rf "$asan" && mkdir -p "$asan" && cp -r bindings/python/. "$asan/" && rm -rf "$asan/_vendor" "$asan/build"
  if (cd "$asan" && CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -O1" \
        LDFLAGS="-fsanitize=address,undefined" PCOL_LINK=installed PCOL_PREFIX=$prefix \
        "$PY" setup.py -q build_ext --inplace) >"$W/py-asan.log" 2>&1; then
    (cd bindings/python/tests && LD_PRELOAD="$libs" ASAN_OPTIONS=detect_leaks=0 PYTHONPATH="$asan" \
       "$PY" -m pytest -q -p no:cacheprovider test_writer.py 2>&1 | tail -1 | sed 's/^/Python writer under ASan\/UBSan: /'
     exit "${PIPESTATUS[0]}") || { echo "FAIL: Python writer tests under ASan/UBSan"; fail=1; }
  else
    tail -5 "$W/py-asan.log"; echo "FAIL: building the Python extension with ASan/UBSan"; fail=1
  fi
}

# The references of the R package's view tests, made once (make test runs
# the two suites side by side; the R one ran three processes a view of
# every test profile).  $W/refs/index.tsv lists "N<TAB>SOURCE" (SOURCE's
# real path), $W/refs/N.pcol is `pcol pack SOURCE` and $W/refs/N/VIEW.jsonl
# is `pcol cat $W/refs/N.pcol --table VIEW --format jsonl` (its line count
# in $W/refs/N/counts.tsv: VIEW<TAB>LINES), cut out of one `pcol cat
# --table all --format jsonl` a file by views-split.awk (as the suite
# itself does without them; a process a view was ~40 of make_refs' ~50 s
# of CPU).  The suite takes a view's reference from here only for a file it
# packed itself into the same bytes as N.pcol (checked), and runs pcol for
# all else; without PCOL_VIEW_REFS (a suite run alone) it runs pcol every
# time.  (The Python suite runs its own `pcol cat --table all --format
# json` a file, as cheap as reading these.)
make_refs() {
  local r=$PWD/$W/refs views
  rm -rf "$r" && mkdir -p "$r"
  [ -d "$PCOL_TESTDATA" ] || return 0
  # the tables `pcol cat --help` lists ("Tables (spec.md §11): a, b, ...")
  views=$("$PCOL" cat --help | awk '/^Tables/ { on = 1; sub(/^[^:]*:/, "") } on { print; if (/\.$/) exit }' | tr ',.' '  ')
  [ -n "$views" ] || { echo "bindings: no table list in pcol cat --help"; return 1; }
  { find "$PCOL_TESTDATA" -type f ! -name '*.md' ! -path '*expected-go1.19-pprof*'; find tests/fixtures -type f ! -name '*.md'; } |
    sort | xargs -r -d '\n' realpath | awk '{ print NR "\t" $0 }' >"$r/all.tsv"
  # each line "N<TAB>SOURCE" is one bash's $1 (no env and awk per file:
  # a process costs ~12 ms of CPU here, 22 a file before); the budget of
  # output is the whole file's (the default is 128 x the input's size)
  R="$r" VIEWS="$views" PCOL="$PCOL" TAB=$'\t' SPLIT=$PWD/bindings/r/tests/testthat/views-split.awk xargs -P 2 -d '\n' -n 1 <"$r/all.tsv" bash -c '
    n=${1%%"$TAB"*}; src=${1#*"$TAB"}
    "$PCOL" pack "$src" -o "$R/$n.pcol" 2>/dev/null || { rm -f "$R/$n.pcol"; exit 0; }
    mkdir -p "$R/$n" && cd "$R/$n" &&
      "$PCOL" cat "$R/$n.pcol" --table all --format jsonl --max-output 4G 2>/dev/null | awk -v views="$VIEWS" -f "$SPLIT" &&
      [ "${PIPESTATUS[0]}" = 0 ] || rm -rf "$R/$n"' _
  awk -F'\t' -v r="$r" '{ if ((getline x < (r "/" $1 ".pcol")) >= 0) print; close(r "/" $1 ".pcol") }' "$r/all.tsv" >"$r/index.tsv"
  export PCOL_VIEW_REFS=$r
}

# all: two lanes at once (the machine's two cores; each lane is mostly
# one process at a time: pytest, testthat, R CMD check), their output
# printed lane by lane when both are done
run_all() {
  tm refs make_refs || fail=1
  ( tm glue run_glue; tm python run_python; exit $fail ) >"$W/lane-python.out" 2>&1 &
  local py=$!
  # R CMD check (one process, ~1.5 min) starts beside testthat once the
  # package is installed: the R lane was the tail's longest
  : >"$W/lane-rcheck.out"
  ( rbg=; run_r run_r_check; tm r-asan run_r_asan; [ -z "$rbg" ] || wait "$rbg" || fail=1; exit $fail ) >"$W/lane-r.out" 2>&1
  local rr=$? pr=0
  wait "$py" || pr=$?
  cat "$W/lane-python.out" "$W/lane-r.out" "$W/lane-rcheck.out"
  [ "$pr" = 0 ] && [ "$rr" = 0 ] || fail=1
}

case $what in
  r) run_r; run_r_asan; run_r_check ;;
  r-asan) run_r_asan ;; # after an install (r or all): the R package under ASan/UBSan alone
  python) run_python ;;
  all) run_all ;;
  glue) run_glue ;;
  install) install_python || fail=1; install_r || fail=1 ;;
  *) echo "usage: bindings/test.sh [all|r|python]"; exit 2 ;;
esac
[ -s "$W/times" ] && { echo "bindings times:"; cat "$W/times"; }
exit $fail
