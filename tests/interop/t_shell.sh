#!/usr/bin/env bash
# `pcol shell` is go tool pprof's interactive mode (tools/cmd_shell.c): the
# same session (tests/interop/shell/session.txt: report commands with
# pprof's arguments, settings kept between commands, a bad sample_index
# that must leave the setting as it was, an unknown command) fed to both on
# every pprof profile of the test data go reads gives the same standard
# output, prompts aside.  Not in the session: granularity=files (pcol's
# --by file is a row per file, doc/cli.md) and traces (pcol's header names
# the input, pprof's the binary); and edge-invalid-utf8-nul-strings, whose
# names hold control bytes that pcol prints as \xNN (the text rule,
# doc/safety.md) where pprof prints them raw.
set -u
PCOL=${PCOL:-build/bin/pcol}
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
  go tool pprof -symbolize=none "$f" <"$session" >"$tmp/go.out" 2>/dev/null
  grep -q '^(pprof) ' "$tmp/go.out" || continue # go cannot read it (OTLP, a legacy text)
  n=$((n + 1))
  "$PCOL" shell "$f" <"$session" >"$tmp/pc.out" 2>"$tmp/pc.err" || { cat "$tmp/pc.err"; fail=$((fail + 1)); continue; }
  if cmp -s <(sed 's/(pprof) /(P) /g' "$tmp/go.out") <(sed 's/(pcol) /(P) /g' "$tmp/pc.out"); then
    same=$((same + 1))
  else
    echo "t_shell: FAIL: $(basename "$f"): the session differs from go tool pprof's:"
    diff <(sed 's/(pprof) /(P) /g' "$tmp/go.out") <(sed 's/(pcol) /(P) /g' "$tmp/pc.out") | head -10
    fail=$((fail + 1))
  fi
done
[ "$n" -ge 30 ] || { echo "t_shell: FAIL: only $n profiles read by go"; exit 1; }
echo "t_shell: $same of $n sessions equal to go tool pprof's ($(grep -c . "$session") lines each)"
[ "$fail" = 0 ]
