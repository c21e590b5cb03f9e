#!/usr/bin/env bash
# `pcol shell` is go tool pprof's interactive mode (tools/cmd_shell.c): the
# same session (tests/interop/shell/session.txt: report commands with
# pprof's arguments, settings kept between commands, a bad sample_index
# that must leave the setting as it was, an unknown command) fed to both on
# every pprof profile of the test data go reads gives the same standard
# output, prompts aside, and the greeting the same Time and Duration lines.  Not in the session: granularity=files (pcol's
# --by file is a row per file, doc/cli.md) and traces (pcol's header names
# the input, pprof's the binary); and edge-invalid-utf8-nul-strings, whose
# names hold control bytes that pcol prints as \xNN (the text rule,
# doc/safety.md) where pprof prints them raw.
set -u
PCOL=$(cd "$(dirname "${PCOL:-build/bin/pcol}")" && pwd)/$(basename "${PCOL:-build/bin/pcol}")
REPO=$(cd "$(dirname "$0")/../.." && pwd)
command -v go >/dev/null || { echo "t_shell: go not installed: skipped"; exit 77; }
data=$(cd "$REPO/../shared/testdata" 2>/dev/null && pwd) || { echo "t_shell: no ../shared/testdata: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
session=$REPO/tests/interop/shell/session.txt
n=0 same=0 fail=0
for f in "$data"/pprof/*.pb* "$data"/ext/pprof/*; do
  [ -f "$f" ] || continue
  case $f in *edge-invalid-utf8-nul-strings*) continue;; esac
  go tool pprof -symbolize=none "$f" <"$session" >"$tmp/go.out" 2>"$tmp/go.err"
  grep -q '^(pprof) ' "$tmp/go.out" || continue # go cannot read it (OTLP, a legacy text)
  n=$((n + 1))
  "$PCOL" shell "$f" <"$session" >"$tmp/pc.out" 2>"$tmp/pc.err" || { cat "$tmp/pc.err"; fail=$((fail + 1)); continue; }
  # the greeting's Time and Duration lines (stderr) are pprof's too
  if ! cmp -s <(grep -E '^(Time|Duration): ' "$tmp/go.err") <(grep -E '^(Time|Duration): ' "$tmp/pc.err"); then
    echo "t_shell: FAIL: $(basename "$f"): the greeting's Time/Duration differ from go tool pprof's:"
    diff <(grep -E '^(Time|Duration): ' "$tmp/go.err") <(grep -E '^(Time|Duration): ' "$tmp/pc.err") | head -4
    fail=$((fail + 1))
  fi
  if cmp -s <(sed 's/(pprof) /(P) /g' "$tmp/go.out") <(sed 's/(pcol) /(P) /g' "$tmp/pc.out"); then
    same=$((same + 1))
  else
    echo "t_shell: FAIL: $(basename "$f"): the session differs from go tool pprof's:"
    diff <(sed 's/(pprof) /(P) /g' "$tmp/go.out") <(sed 's/(pcol) /(P) /g' "$tmp/pc.out") | head -10
    fail=$((fail + 1))
  fi
done
[ "$n" -ge 30 ] || { echo "t_shell: FAIL: only $n profiles read by go"; exit 1; }
# files written by a session (>FILE), with the settings that pprof ignores
# for callgrind set: the same bytes as go's
files=0
for f in "$data"/pprof/go-cpu-inline-small.pb.gz "$data"/pprof/go-heap-allocs-inline.pb.gz "$data"/pprof/java-cpu-async-profiler.pb.gz; do
  printf '%s\n' granularity=lines nodecount=3 sample_index=0 'callgrind >cg.out' 'dot >g.dot' 'proto >p.pb.gz' \
    'top >t.txt' 'peek main >pk.txt' 'traces >tr.txt' >"$tmp/s"
  (cd "$tmp" && go tool pprof -symbolize=none "$f" <s >/dev/null 2>&1 && mv cg.out go.cg && mv g.dot go.dot && mv p.pb.gz go.pb.gz &&
     for x in t pk tr; do [ ! -e $x.txt ] || mv $x.txt go.$x; done) ||
    { echo "t_shell: FAIL: go's session writing files"; fail=$((fail + 1)); continue; }
  (cd "$tmp" && "$PCOL" shell "$f" <s >/dev/null 2>"$tmp/pc.err") || { cat "$tmp/pc.err"; fail=$((fail + 1)); continue; }
  cmp -s "$tmp/go.cg" "$tmp/cg.out" || { echo "t_shell: FAIL: $(basename "$f"): callgrind >FILE differs"; fail=$((fail + 1)); }
  # DOT: from the first node on (the legend names the input, doc/graph.md)
  cmp -s <(grep '^N' "$tmp/go.dot") <(grep '^N' "$tmp/g.dot") || { echo "t_shell: FAIL: $(basename "$f"): dot >FILE differs"; fail=$((fail + 1)); }
  [ "$(go tool pprof -symbolize=none -raw "$tmp/go.pb.gz" 2>/dev/null | grep -c .)" -gt 0 ] &&
    [ "$("$PCOL" top "$tmp/p.pb.gz" --format tsv)" = "$("$PCOL" top "$tmp/go.pb.gz" --format tsv)" ] ||
    { echo "t_shell: FAIL: $(basename "$f"): proto >FILE differs"; fail=$((fail + 1)); }
  # text views >FILE (pprof writes the report there): the same text from
  # the report's first line on (the header before it names the input; a
  # view that fails, as peek of a name the profile lacks, writes no file)
  for x in t pk tr; do
    [ -e "$tmp/go.$x" ] || [ -e "$tmp/$x.txt" ] || continue
    files=$((files + 1))
    cmp -s <(awk 'f || /^(-|Showing)/ { f = 1; print }' "$tmp/go.$x" 2>/dev/null) \
      <(awk 'f || /^(-|Showing)/ { f = 1; print }' "$tmp/$x.txt" 2>/dev/null) ||
      { echo "t_shell: FAIL: $(basename "$f"): $x >FILE differs from go's"; fail=$((fail + 1)); }
    rm -f "$tmp/go.$x" "$tmp/$x.txt"
  done
  files=$((files + 3))
done
# list after granularity=lines|addresses|files (review 17 F7: pcol list's
# --by refused 'line'): pprof's list sets its own granularity (driver.go
# generateReport), so the session's is ignored; on a profile of our own Go
# program, whose source is in the repository (read from $REPO, the source
# path), the same output as go's; disasm ignores it too (its text is
# objdump's, t_disasm.sh: here only that the setting is not refused)
if mkdir -p "$tmp/gp" && (cd "$REPO/tests/go" && go run . "$tmp/gp" >"$tmp/go_run.log" 2>&1); then
  p=$tmp/gp/go-cpu-labels.pb.gz
  printf '%s\n' granularity=lines 'list main\.spin' granularity=addresses 'list main\.spin' \
    granularity=files 'list main\.' nodecount=2 'list main\.spin' >"$tmp/ls"
  (cd "$REPO" && go tool pprof -symbolize=none "$p" <"$tmp/ls" >"$tmp/go.out" 2>/dev/null)
  (cd "$REPO" && "$PCOL" shell "$p" <"$tmp/ls" >"$tmp/pc.out" 2>"$tmp/pc.err")
  if [ "$(grep -c ROUTINE "$tmp/go.out")" -ge 4 ] &&
     cmp -s <(sed 's/(pprof) /(P) /g' "$tmp/go.out") <(sed 's/(pcol) /(P) /g' "$tmp/pc.out"); then
    echo "t_shell: list after granularity=lines|addresses|files equal to go tool pprof's"
  else
    echo "t_shell: FAIL: list after granularity= differs from go tool pprof's:"
    diff <(sed 's/(pprof) /(P) /g' "$tmp/go.out") <(sed 's/(pcol) /(P) /g' "$tmp/pc.out") | head -10
    head -3 "$tmp/pc.err"
    fail=$((fail + 1))
  fi
  printf '%s\n' granularity=lines 'disasm main\.spin' granularity=addresses 'disasm main\.spin' |
    "$PCOL" shell "$p" >/dev/null 2>"$tmp/pc.err"
  ! grep -q -- '--by' "$tmp/pc.err" || { echo "t_shell: FAIL: disasm after granularity= refused:"; grep -- '--by' "$tmp/pc.err"; fail=$((fail + 1)); }
else
  echo "t_shell: FAIL: go run tests/go:"; cat "$tmp/go_run.log"; fail=$((fail + 1))
fi
echo "t_shell: $same of $n sessions equal to go tool pprof's ($(grep -c . "$session") lines each); $files files written by sessions compared"
[ "$fail" = 0 ]
