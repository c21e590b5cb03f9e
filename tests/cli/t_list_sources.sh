#!/usr/bin/env bash
# CLI: what `pcol list` opens and how much it reads (doc/safety.md, "What
# list opens"; issue 28 findings 2-4).  The profiles are Rprof line profiles
# written here, whose #File lines name the files an attacker would: an
# absolute path, a "../" escape, a link out of the source directory,
# /proc/self/environ, /dev/stdin, /dev/zero, a FIFO; and line numbers of
# 2^24+7 and INT64_MAX.  Each is refused (or read within its bound) without
# blocking, and a file under the source path is still listed.
set -u
PCOL=${PCOL:-build/bin/pcol}
PCOL=$(cd "$(dirname "$PCOL")" && pwd)/$(basename "$PCOL")
here=$(cd "$(dirname "$0")/../support" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_list_sources: FAIL: $*" >&2; exit 1; }

# prof NAME FILE [LINE]: a line profile with 3 samples of f on FILE:LINE (default 2)
prof() {
  printf 'line profiling: sample.interval=20000\n#File 1: %s\n1#%s "f" \n1#%s "f" \n1#%s "f" \n' \
    "$2" "${3:-2}" "${3:-2}" "${3:-2}" >"$tmp/$1.out"
}
mkdir -p "$tmp/proj/src" "$tmp/outside"
printf 'f <- function() {\n  x <- 1\n  g(x)\n}\n' >"$tmp/proj/src/a.R"
echo 'SECRET-OUTSIDE' >"$tmp/outside/secret.R"
ln -s "$tmp/outside/secret.R" "$tmp/proj/src/link.R"
ln -s "$tmp/proj/src/a.R" "$tmp/proj/src/inside-link.R" # a link that stays inside: read
mkfifo "$tmp/proj/src/fifo.R"
cd "$tmp/proj/src" || fail "cd"

# run NAME ARGS...: list under a timeout (a blocked open or read fails it)
run() {
  local n=$1
  shift
  timeout 20 "$PCOL" list "$tmp/$n.out" . --value samples "$@" >"$tmp/$n.txt" 2>"$tmp/$n.err" </dev/null
  local rc=$?
  [ $rc = 124 ] && fail "$n: list blocked (timeout)"
  [ $rc = 0 ] || { cat "$tmp/$n.err" >&2; fail "$n: list exit $rc"; }
}
# refused NAME WHY ARGS...: the block says why and shows no text of the file
refused() {
  local n=$1 why=$2
  shift 2
  run "$n" "$@"
  grep -q "^ Error: .*not read: $why" "$tmp/$n.txt" || { cat "$tmp/$n.txt" >&2; fail "$n: not refused ($why)"; }
  grep -q '^ *\. *\. *1:' "$tmp/$n.txt" && fail "$n: lines of the file printed"
  # a refusal --allow-any-source lifts names it once (user review 5)
  case $why in outside*)
    [ "$(grep -c -- '--allow-any-source opens any file' "$tmp/$n.err")" = 1 ] ||
      { cat "$tmp/$n.err" >&2; fail "$n: the refusal does not name --allow-any-source"; } ;;
  esac
  return 0
}

# a file under the source path (the current directory by default) is listed
prof legit a.R
run legit
[ -s "$tmp/legit.err" ] && fail "legit: a message on stderr: $(cat "$tmp/legit.err")"
grep -qx '         3          3      2:  x <- 1' "$tmp/legit.txt" || fail "legit file not listed"
prof legit_abs "$tmp/proj/src/a.R"
run legit_abs
grep -qx '         3          3      2:  x <- 1' "$tmp/legit_abs.txt" || fail "absolute path under the source path not listed"
prof inlink inside-link.R
run inlink
grep -qx '         3          3      2:  x <- 1' "$tmp/inlink.txt" || fail "link inside the source path not listed"
(cd / && timeout 20 "$PCOL" list "$tmp/legit.out" . --value samples --source-path "$tmp/proj/src") |
  grep -qx '         3          3      2:  x <- 1' || fail "--source-path not listed"

# absolute paths, "../", a link out, /proc, /dev: refused
prof passwd /etc/passwd
refused passwd 'outside the source path'
grep -q 'root:' "$tmp/passwd.txt" && fail "/etc/passwd printed"
prof dotdot ../../outside/secret.R
refused dotdot 'outside the source path'
prof link link.R
refused link 'outside the source path once links are resolved'
prof environ /proc/self/environ
PCOL_T_SECRET=leaked refused environ 'outside the source path'
grep -q 'PCOL_T_SECRET' "$tmp/environ.txt" && fail "environment printed"
prof cwdproc /proc/self/cwd/../../outside/secret.R
refused cwdproc 'outside the source path'
prof stdin /dev/stdin
# standard input: a pipe that stays open and never says anything
mkfifo "$tmp/pipe"
exec 3<>"$tmp/pipe"
timeout 20 "$PCOL" list "$tmp/stdin.out" . >"$tmp/stdin.txt" 2>&1 <&3
[ $? = 124 ] && fail "/dev/stdin blocked"
grep -q 'not read' "$tmp/stdin.txt" || fail "/dev/stdin not refused"
grep -rq 'SECRET-OUTSIDE' "$tmp"/*.txt && fail "a file outside the source path was printed"

# --allow-any-source: pprof's rule (any path), but only regular files, never blocking
run passwd --allow-any-source
grep -q '^ *\. *\. *1:root:' "$tmp/passwd.txt" || fail "--allow-any-source does not read /etc/passwd"
prof fifo fifo.R
refused fifo 'not a regular file'
refused fifo 'not a regular file' --allow-any-source
prof zero /dev/zero
refused zero 'not a regular file' --allow-any-source
prof devstdin /dev/stdin
timeout 20 "$PCOL" list "$tmp/devstdin.out" . --allow-any-source >"$tmp/devstdin.txt" 2>&1 <&3
[ $? = 124 ] && fail "/dev/stdin blocked with --allow-any-source"
grep -q 'not read: not a regular file' "$tmp/devstdin.txt" || fail "/dev/stdin read with --allow-any-source"

# line numbers: 2^24+7 (a window far past the file's end) and INT64_MAX
# (line + 5 overflowed: UBSan under the sanitizer build)
prof far a.R 16777223
run far
grep -q '^ROUTINE' "$tmp/far.txt" || fail "line 2^24+7: no block"
prof max a.R 9223372036854775807
run max
run max --allow-any-source
# window entries are sized by the text read, not by the line numbers: 200
# functions that start on line 1 and are sampled on line 2^24+7 of a 4-line
# file (a window of 2^24+12 lines each) fit in 256 MB of address space
# (before: 2^24 entries reserved per block, "out of memory").  Sanitizer
# builds reserve terabytes and cannot run under an address-space limit.
python3 "$here/pprofgen.py" lines "$tmp/many.pb" 200 16777223 || fail "pprofgen.py"
probe=$( (prlimit --as=268435456 "$PCOL" --version >/dev/null 2>&1; echo $?) 2>/dev/null)
if [ "$probe" = 0 ]; then
  prlimit --as=268435456 timeout 20 "$PCOL" list "$tmp/many.pb" . >"$tmp/many.txt" 2>"$tmp/many.err" ||
    { cat "$tmp/many.err" >&2; fail "200 blocks at line 2^24+7 under a 256 MB limit"; }
  [ "$(grep -c '^ROUTINE' "$tmp/many.txt")" = 200 ] || fail "200 blocks expected"
  grep -q '^ *\. *\. *4:}$' "$tmp/many.txt" || fail "the file's lines from the function's start"
fi
exec 3>&-
echo "t_list_sources: ok"
