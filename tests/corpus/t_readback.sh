#!/usr/bin/env bash
# Every export reads back (issue 27): for every regular file of the shared
# test data that pcol packs, and every export format that pcol also reads
# (rprof, pprof, perun, collapsed, speedscope, firefox, otlp, chrome, perfetto), `pcol unpack`
# either writes a file that `pcol pack` reads, or refuses with exit 1 (exit
# 3 for an output past its budget), a message and no file.  An export that exits 0 with a file pack refuses is a
# failure.  An empty export (no stack has a value: a collapsed file with no
# line) is read with the format named (`pack --from`), as pack's message says.
# Env: PCOL, BUILD, PCOL_TESTDATA, PCOL_READBACK_JOBS (default 2).
# Exit 0 pass, 1 fail, 77 skip (no test data).
set -u
PCOL=${PCOL:-build/bin/pcol}
BUILD=${BUILD:-build}
TD=${PCOL_TESTDATA:-../shared/testdata}
[ -d "$TD" ] || { echo "SKIP: no shared test data at $TD"; exit 77; }
W=$(mktemp -d "${TMPDIR:-/tmp}/pcol-readback.XXXXXX")
trap 'rm -rf "$W"' EXIT
export PCOL W TD

one() { # one input file: pack it, then every export and its read back
  f=$1
  b=$(printf '%s' "${f#$TD/}" | tr '/' '_')
  d=$W/$b
  mkdir -p "$d"
  "$PCOL" pack "$f" -o "$d/in.pcol" >/dev/null 2>&1 || { rm -rf "$d"; echo "refused-input $b"; return 0; }
  for fmt in rprof pprof perun collapsed speedscope firefox otlp chrome perfetto; do
    out=$d/out.$fmt
    "$PCOL" unpack "$d/in.pcol" --to $fmt -o "$out" >/dev/null 2>"$d/err"; rc=$?
    if [ $rc != 0 ]; then
      # (exit 3: an output past its budget, a limit, not bad input: doc/cli.md)
      if { [ $rc != 1 ] && ! { [ $rc = 3 ] && grep -q 'the output budget of' "$d/err"; }; } ||
         [ ! -s "$d/err" ] || [ -e "$out" ]; then
        echo "FAIL $b -> $fmt: exit $rc, message '$(head -c 300 "$d/err")'$([ -e "$out" ] && echo ', left a file')"
      else
        echo "refused $b -> $fmt: $(head -c 160 "$d/err")"
      fi
      continue
    fi
    from=
    [ -s "$out" ] || from="--from $fmt"
    "$PCOL" pack $from "$out" -o "$out.pcol" >/dev/null 2>"$d/err2" ||
      echo "FAIL $b -> $fmt: pcol pack of the export: $(head -c 300 "$d/err2")"
    rm -f "$out" "$out.pcol"
  done
  rm -rf "$d"
}
export -f one
find "$TD" -type f ! -name '*.md' | sort |
  xargs -d '\n' -P "${PCOL_READBACK_JOBS:-2}" -n 1 bash -c 'one "$1"' _ >"$W/log" 2>&1
n=$(find "$TD" -type f ! -name '*.md' | wc -l)
grep '^refused ' "$W/log" | cut -c1-240 | sed 's/^/  /'
if grep -q '^FAIL' "$W/log"; then
  grep '^FAIL' "$W/log"
  echo "t_readback: $(grep -c '^FAIL' "$W/log") exports do not read back ($n files)"
  exit 1
fi
echo "t_readback: every export of $n files reads back or is refused with a message ($(grep -c '^refused-input' "$W/log") inputs pcol refuses, $(grep -c '^refused ' "$W/log") exports refused)"
exit 0
