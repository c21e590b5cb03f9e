#!/usr/bin/env bash
# Format 1.3 against 1.2 (issue 47): every profile of the shared test data
# packed as format 1.3 (the default: encoded columns, spec.md §4.1), as 1.2
# (--format-version 1.2: the plain layout earlier versions wrote) and with
# zstd must pass validate --full and show the same 17 views (cat --table all)
# and the same top; 1.2 must be 1.0 or 1.2 in its header and 1.3 use bit 2.
set -u
P=${PCOL:?PCOL must name the pcol binary}
D=${PCOL_TESTDATA:-$(dirname "$0")/../../../shared/testdata}
[ -d "$D" ] || { echo "t_format_versions: skipped (no shared test data at $D)"; exit 0; }
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail() { echo "t_format_versions: FAIL: $*"; exit 1; }
n=0 enc=0
while IFS= read -r f; do
  "$P" pack "$f" -o "$T/a.pcol" --format-version 1.2 2>/dev/null || continue # refused alike below
  "$P" pack "$f" -o "$T/b.pcol" 2>"$T/err" || fail "$f: 1.3 pack refused what 1.2 packs: $(cat "$T/err")"
  "$P" pack "$f" -o "$T/z.pcol" --compress zstd:1 2>"$T/err" || fail "$f: zstd pack: $(cat "$T/err")"
  for x in b z; do
    "$P" validate --full "$T/$x.pcol" >/dev/null 2>"$T/err" || fail "$f ($x): $(cat "$T/err")"
  done
  "$P" info "$T/a.pcol" | grep -q '^format_version: *1\.[02]$' || fail "$f: --format-version 1.2 wrote $("$P" info "$T/a.pcol" | grep format_version)"
  "$P" info "$T/b.pcol" | grep -q '^format_version: *1\.3$' && enc=$((enc + 1))
  "$P" cat --table all "$T/a.pcol" >"$T/a.cat" 2>&1
  for x in b z; do
    "$P" cat --table all "$T/$x.pcol" 2>&1 | cmp -s - "$T/a.cat" || fail "$f: the views of $x differ from 1.2's"
  done
  "$P" top "$T/a.pcol" 2>/dev/null | tail -n +2 >"$T/a.top"
  "$P" top "$T/b.pcol" 2>/dev/null | tail -n +2 | cmp -s - "$T/a.top" || fail "$f: top of 1.3 differs from 1.2's"
  n=$((n + 1))
done < <(find "$D" -type f ! -name '*.md' -size -4M | sort)
[ "$n" -gt 100 ] || fail "only $n profiles packed"
[ "$enc" -gt $((n / 2)) ] || fail "only $enc of $n default files are format 1.3"
echo "t_format_versions: $n profiles: 1.3 (encoded in $enc), zstd and 1.2 files give the same views and top"
