#!/usr/bin/env bash
# Format 1.3 against 1.2 (issue 47): every profile of the shared test data
# packed as format 1.3 (the default: encoded columns, spec.md §4.1), as 1.2
# (--format-version 1.2: the plain layout earlier versions wrote) and with
# zstd and with lz4 must pass validate --full and show the same 17 views (cat
# --table all) and the same top; 1.2 must be 1.0 or 1.2 in its header and 1.3
# use bit 2.  --compress lz4 writes 1.3 (LZ4 over the encoded columns, §4.1),
# or 1.5 when a column's lanes are byte-split, never larger than the default
# file; with --format-version 1.4 1.3 or 1.2 without incompat bit 0 (no
# transform, no split lanes), and with --format-version 1.2 the 1.0 file of
# earlier versions (64-byte entries, no incompat bit).
set -u
P=${PCOL:?PCOL must name the pcol binary}
D=${PCOL_TESTDATA:-$(dirname "$0")/../../../shared/testdata}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail() { echo "t_format_versions: FAIL: $*"; exit 1; }
# the version in a file's header (spec.md §2: version_major and
# version_minor, u16 at bytes 8 and 10; info's format_version line prints them)
ver() { od -An -tu2 --endian=little -j8 -N4 "$1" | awk '{print $1 "." $2}'; }
# issue 43: a zstd file keeps a count-only profile's constant columns (the
# samples' value offsets 0, 2, 4, ..., the values' types and counts) in
# their encoded form, raw, read in place, not as zstd frames that inflate
# to 16 bytes a sample; the views are those of the file without zstd
F=$(dirname "$0")/../fixtures/tachyon/long-wall-zstd.bin
"$P" pack "$F" -o "$T/c.pcol" --compress zstd || fail "zstd pack of $F"
"$P" pack "$F" -o "$T/r.pcol" || fail "pack of $F"
"$P" validate --full "$T/c.pcol" >/dev/null || fail "$F: zstd file invalid"
for sec in 'samples_stored value_offsets' 'values value_type_id' 'values value'; do
  set -- $sec
  got=$("$P" info "$T/c.pcol" | awk -v t="$1" -v c="$2" '$1 == t && $2 == c {print $4}')
  [ "$got" = raw+e ] || fail "$F: zstd file stores $sec as '$got', not raw+e"
done
"$P" cat --table all "$T/r.pcol" >"$T/r.cat" 2>&1
"$P" cat --table all "$T/c.pcol" 2>&1 | cmp -s - "$T/r.cat" || fail "$F: views of the zstd file differ"
for w in '' '--from 1 --to 2'; do
  # shellcheck disable=SC2086
  [ "$("$P" top "$T/c.pcol" $w | tail -n +2)" = "$("$P" top "$T/r.pcol" $w | tail -n +2)" ] ||
    fail "$F: top $w of the zstd file differs"
done
# issue 43, format 1.4: --compress zstd stores samples columns of >= 2 x 32 Ki
# rows in zstd blocks (spec.md §4.2); every view and top, whole and in a time
# range, equals the uncompressed file's, and a time range inflates only some
# blocks (PCOL_DEBUG=inflate counts the bytes zstd inflated); --format-version
# 1.3 keeps one frame a column
python3 "$(dirname "$0")/../support/tachyongen.py" rich "$T/big.bin" --samples 150000 --zstd >/dev/null ||
  fail "tachyongen.py rich"
"$P" pack "$T/big.bin" -o "$T/bz.pcol" --compress zstd || fail "zstd pack of 150000 samples"
"$P" pack "$T/big.bin" -o "$T/b13.pcol" --compress zstd --format-version 1.3 || fail "zstd 1.3 pack"
"$P" pack "$T/big.bin" -o "$T/b14.pcol" --compress zstd --format-version 1.4 || fail "zstd 1.4 pack"
"$P" pack "$T/big.bin" -o "$T/br.pcol" || fail "pack of 150000 samples"
"$P" validate --full "$T/bz.pcol" "$T/b14.pcol" >/dev/null || fail "the 1.5 or 1.4 zstd file is invalid"
# the default: 1.5 when a column's lanes are byte-split (incompat bit 4), else 1.4
if "$P" info "$T/bz.pcol" | grep -q ' zstd+se '; then
  "$P" info "$T/bz.pcol" | grep -q '^format_version: *1\.5$' || fail "byte-split lanes, but not 1.5"
  "$P" info "$T/bz.pcol" | grep -q 'incompat 0x1f,' || fail "a 1.5 zstd file sets incompat bits 0-4"
else
  "$P" info "$T/bz.pcol" | grep -q '^format_version: *1\.4$' || fail "--compress zstd did not write 1.4"
fi
"$P" info "$T/b14.pcol" | grep -q '^format_version: *1\.4$' || fail "--format-version 1.4 zstd is not 1.4"
"$P" info "$T/b14.pcol" | grep -q 'incompat 0xf,' || fail "a 1.4 zstd file sets incompat bits 0-3"
"$P" info "$T/b14.pcol" | grep -q '+se ' && fail "--format-version 1.4 wrote byte-split lanes"
for x in bz b14; do
  for sec in time_ns stack_id; do
    got=$("$P" info "$T/$x.pcol" | awk -v c="$sec" '$1 == "samples_stored" && $2 == c {print $4}')
    case $got in zblk*) ;; *) fail "$x: samples_stored.$sec stored as '$got', not in zstd blocks" ;; esac
  done
done
"$P" info "$T/b13.pcol" | grep -q '^format_version: *1\.3$' || fail "--format-version 1.3 zstd is not 1.3"
"$P" info "$T/b13.pcol" | grep -q zblk && fail "--format-version 1.3 wrote zstd blocks"
"$P" cat --table all "$T/br.pcol" >"$T/br.cat" 2>&1
for x in bz b13 b14; do
  "$P" cat --table all "$T/$x.pcol" 2>&1 | cmp -s - "$T/br.cat" || fail "views of $x differ from the uncompressed file's"
done
k=0
for w in '' '--from 20 --to 21' '--from 0 --to 0.5' '--from 61'; do
  k=$((k + 1))
  # shellcheck disable=SC2086
  "$P" top "$T/br.pcol" -n 20 $w | tail -n +2 >"$T/r.top"
  # shellcheck disable=SC2086
  PCOL_DEBUG=inflate "$P" top "$T/bz.pcol" -n 20 $w 2>"$T/inf" | tail -n +2 | cmp -s - "$T/r.top" ||
    fail "top $w of the zstd-blocks file differs"
  grep -q 'zstd inflated' "$T/inf" || fail "PCOL_DEBUG=inflate said nothing"
  eval "inf_$k=\$(awk '/zstd inflated/ {print \$5}' \"\$T/inf\")"
  # shellcheck disable=SC2086
  "$P" cat --table samples "$T/bz.pcol" $w | cmp -s - <("$P" cat --table samples "$T/br.pcol" $w) ||
    fail "cat --table samples $w of the zstd-blocks file differs"
done
# whole: every block of stack_id (no time is read); --from 20 --to 21: the
# time blocks its binary search probes and the stack block of its rows, less
# than the two columns whole
both=$("$P" info "$T/bz.pcol" | awk '$1 == "samples_stored" && ($2 == "time_ns" || $2 == "stack_id") {s += $7} END {print s}')
stack=$("$P" info "$T/bz.pcol" | awk '$1 == "samples_stored" && $2 == "stack_id" {print $7}')
[ "$inf_1" -ge "$stack" ] || fail "top inflated $inf_1 bytes, less than its stack column ($stack)"
[ "$inf_2" -lt "$both" ] || fail "top --from 20 --to 21 inflated $inf_2 bytes, not less than time and stack whole ($both)"
# the first half second: the search lands in the first block from the
# times at the two ends (select.c narrow_to_block), so at most two blocks
# of time (32768 rows of 8 bytes), one of stacks and one of label sets
# (4 bytes a row), and the small tables' frames
most=$((2 * 262144 + 2 * 131072 + 65536))
[ "$inf_3" -le "$most" ] || fail "top --from 0 --to 0.5 inflated $inf_3 bytes, more than $most"
# the label views read the samples columns of the selected rows only
# (pcol_q_values_iter_need): the same blocks as top, at most; and equal
# the uncompressed file's answers
for v in traces tags graph tree "peek ." "top --by label:tid"; do
  c=${v%% *} a=${v#"$c"}
  # shellcheck disable=SC2086
  PCOL_DEBUG=inflate "$P" $c "$T/bz.pcol" $a --from 0 --to 0.5 2>"$T/inf" >"$T/v.z" || fail "$v --from 0 --to 0.5 of the zstd-blocks file failed"
  # shellcheck disable=SC2086
  "$P" $c "$T/br.pcol" $a --from 0 --to 0.5 2>&1 | sed "s|$T/br.pcol|$T/bz.pcol|g" | cmp -s - "$T/v.z" ||
    fail "$v --from 0 --to 0.5 of the zstd-blocks file differs from the uncompressed file's"
  [ -s "$T/v.z" ] || fail "$v --from 0 --to 0.5 printed nothing"
  got=$(awk '/zstd inflated/ {print $5}' "$T/inf")
  [ "${got:-0}" -le "$most" ] || fail "$v --from 0 --to 0.5 inflated $got bytes, more than $most"
done
# every writer reads the zstd-blocks file as the uncompressed one: the same
# bytes out, whole and of a range (which inflates only some blocks)
for to in rprof pprof perun collapsed speedscope firefox otlp; do
  for w in '' '--from 0 --to 0.5'; do
    # shellcheck disable=SC2086
    "$P" unpack "$T/bz.pcol" -t $to $w -o "$T/x.z" 2>/dev/null || fail "unpack -t $to $w of the zstd-blocks file failed"
    # shellcheck disable=SC2086
    "$P" unpack "$T/br.pcol" -t $to $w -o "$T/x.r" 2>/dev/null || fail "unpack -t $to $w failed"
    cmp -s "$T/x.z" "$T/x.r" || fail "unpack -t $to $w of the zstd-blocks file differs from the uncompressed file's"
  done
done
rm -rf "$T/chz" "$T/chr"
"$P" export "$T/bz.pcol" --to clickhouse -o "$T/chz" 2>/dev/null || fail "export --to clickhouse of the zstd-blocks file"
"$P" export "$T/br.pcol" --to clickhouse -o "$T/chr" 2>/dev/null || fail "export --to clickhouse"
diff -r "$T/chz" "$T/chr" >/dev/null || fail "the ClickHouse export of the zstd-blocks file differs from the uncompressed file's"
# and the report page: the same page but for the file's own format and size
# (both made as the same name in the same folder: the page names the file
# and the folder it looked for sources in)
mkdir -p "$T/rp"
PA=$(cd "$(dirname "$P")" && pwd)/$(basename "$P")
for x in bz br; do
  cp "$T/$x.pcol" "$T/rp/f.pcol"
  (cd "$T/rp" && "$PA" report f.pcol -o f.html 2>/dev/null) || fail "report of $x"
  sed 's/"format":"1\.[0-9]","file_size":[0-9]*,//' "$T/rp/f.html" >"$T/$x.page"
  [ $x = bz ] && { grep -q "\"format\":\"$(ver "$T/bz.pcol")\"" "$T/rp/f.html" ||
    fail "the report of the zstd-blocks file does not say format $(ver "$T/bz.pcol")"; }
done
cmp -s "$T/bz.page" "$T/br.page" || fail "the report of the zstd-blocks file differs from the uncompressed file's"
[ -d "$D" ] || { echo "t_format_versions: skipped (no shared test data at $D)"; exit 0; }
n=0 enc=0 lanes=0
while IFS= read -r f; do
  "$P" pack "$f" -o "$T/a.pcol" --format-version 1.2 2>/dev/null || continue # refused alike below
  "$P" pack "$f" -o "$T/b.pcol" 2>"$T/err" || fail "$f: 1.3 pack refused what 1.2 packs: $(cat "$T/err")"
  "$P" pack "$f" -o "$T/z.pcol" --compress zstd:1 2>"$T/err" || fail "$f: zstd pack: $(cat "$T/err")"
  "$P" pack "$f" -o "$T/l.pcol" --compress lz4 2>"$T/err" || fail "$f: lz4 pack: $(cat "$T/err")"
  "$P" pack "$f" -o "$T/l12.pcol" --compress lz4 --format-version 1.2 2>"$T/err" || fail "$f: lz4 1.2 pack: $(cat "$T/err")"
  "$P" pack "$f" -o "$T/l14.pcol" --compress lz4 --format-version 1.4 2>"$T/err" || fail "$f: lz4 1.4 pack: $(cat "$T/err")"
  # (b, z, l and l12 in one validate: its exit is the failure's, each file named)
  "$P" validate --full "$T/b.pcol" "$T/z.pcol" "$T/l.pcol" "$T/l12.pcol" "$T/l14.pcol" >/dev/null 2>"$T/err" ||
    fail "$f (b, z, l, l12, l14): $(cat "$T/err")"
  case $(ver "$T/a.pcol") in 1.0|1.2) ;; *) fail "$f: --format-version 1.2 wrote $(ver "$T/a.pcol")" ;; esac
  # lz4 + 1.2: format 1.0, incompat 0 (the u64 at byte 16), as earlier versions wrote
  [ "$(ver "$T/l12.pcol")" = 1.0 ] && [ "$(od -An -tu8 -j16 -N8 "$T/l12.pcol" | tr -d ' ')" = 0 ] ||
    fail "$f: --compress lz4 --format-version 1.2 wrote $(ver "$T/l12.pcol"), not 1.0"
  # lz4: 1.5 with byte-split lanes (incompat bit 4, and bit 0: a split),
  # else 1.2 or 1.3; with --format-version 1.4 never bit 0 (no transform)
  case $(ver "$T/l.pcol") in 1.2|1.3) ;; 1.5) lanes=$((lanes + 1)) ;; *) fail "$f: --compress lz4 wrote $(ver "$T/l.pcol")" ;; esac
  case $(ver "$T/l14.pcol") in 1.2|1.3) ;; *) fail "$f: --compress lz4 --format-version 1.4 wrote $(ver "$T/l14.pcol")" ;; esac
  [ $(( $(od -An -tu8 -j16 -N8 "$T/l14.pcol" | tr -d ' ') & 17 )) = 0 ] ||
    fail "$f: --compress lz4 --format-version 1.4 set incompat bit 0 or 4"
  [ "$(stat -c %s "$T/l.pcol")" -le "$(stat -c %s "$T/b.pcol")" ] ||
    fail "$f: the lz4 file ($(stat -c %s "$T/l.pcol") bytes) is larger than the default ($(stat -c %s "$T/b.pcol"))"
  [ "$(ver "$T/b.pcol")" = 1.3 ] && enc=$((enc + 1))
  # (stdout and stderr apart: stdout is buffered, their order in one stream is not the views')
  "$P" cat --table all "$T/a.pcol" >"$T/a.cat" 2>"$T/a.err"
  for x in b z l l12 l14; do
    "$P" cat --table all "$T/$x.pcol" >"$T/x.cat" 2>"$T/x.err"
    cmp -s "$T/x.cat" "$T/a.cat" && cmp -s "$T/x.err" "$T/a.err" || fail "$f: the views of $x differ from 1.2's"
  done
  "$P" top "$T/a.pcol" 2>/dev/null | tail -n +2 >"$T/a.top"
  for x in b l; do
    "$P" top "$T/$x.pcol" 2>/dev/null | tail -n +2 | cmp -s - "$T/a.top" || fail "$f: top of $x differs from 1.2's"
  done
  # the input read as it is: its image in memory, columns plain under 16 MiB
  # (pcol_builder_write_image), shows what the files show
  "$P" cat --table all "$f" 2>/dev/null | cmp -s - "$T/a.cat" ||
    fail "$f: the views of its image in memory differ from 1.2's"
  "$P" top "$f" 2>/dev/null | tail -n +2 | cmp -s - "$T/a.top" || fail "$f: top of its image in memory differs from 1.2's"
  n=$((n + 1))
done < <(find "$D" -type f ! -name '*.md' -size -4M | sort)
[ "$n" -gt 100 ] || fail "only $n profiles packed"
[ "$lanes" -gt 0 ] || fail "no lz4 file of the $n profiles has byte-split lanes (1.5)"
# info of an input in another format describes the file pack writes of it
# (opened as_written: the other views read it with plain columns), also of
# standard input; and info of a union, the file merge writes
G=$D/pprof/go-cpu-large.pb.gz H=$D/pprof/go-cpu-inline-small.pb.gz
"$P" pack "$G" -o "$T/g.pcol" || fail "pack of $G"
# --compress lz4 stores some columns encoded under LZ4 (lz4+e), smaller than the default file
"$P" pack "$G" -o "$T/gl.pcol" --compress lz4 || fail "lz4 pack of $G"
"$P" info "$T/gl.pcol" | grep -q ' lz4+e ' || fail "$G: no column encoded under LZ4 in its lz4 file"
[ "$(stat -c %s "$T/gl.pcol")" -lt "$(stat -c %s "$T/g.pcol")" ] || fail "$G: the lz4 file is not smaller than the default"
# lz4:LEVEL, the lz4 command's levels: 1 the fast coder, 3-12 LZ4HC (the
# default 4): smaller as the level rises, every one the same tables; 1.2's
# default is the fast coder, so its files stay those earlier writers made
"$P" pack "$G" -o "$T/gl1.pcol" --compress lz4:1 && "$P" pack "$G" -o "$T/gl12.pcol" --compress lz4:12 ||
  fail "lz4:1 or lz4:12 pack of $G"
"$P" validate --full "$T/gl1.pcol" "$T/gl12.pcol" >/dev/null || fail "$G: lz4:1 or lz4:12 file invalid"
s1=$(stat -c %s "$T/gl1.pcol") s4=$(stat -c %s "$T/gl.pcol") s12=$(stat -c %s "$T/gl12.pcol")
[ "$s12" -le "$s4" ] && [ "$s4" -lt "$s1" ] || fail "$G: lz4 sizes not smaller with the level: 1: $s1, 4: $s4, 12: $s12"
"$P" cat --table all "$T/gl.pcol" >"$T/gl.cat" 2>&1
for x in gl1 gl12; do
  "$P" cat --table all "$T/$x.pcol" 2>&1 | cmp -s - "$T/gl.cat" || fail "$G: the tables of $x differ from lz4's"
done
"$P" pack "$G" -o "$T/o12.pcol" --compress lz4 --format-version 1.2 &&
  "$P" pack "$G" -o "$T/o12f.pcol" --compress lz4:1 --format-version 1.2 || fail "lz4 1.2 pack of $G"
cmp -s "$T/o12.pcol" "$T/o12f.pcol" || fail "$G: --compress lz4 --format-version 1.2 is not the fast coder's file"
for bad in lz4:0 lz4:13 lz4:x lz4: lz4x; do
  rc=0; "$P" pack "$G" -o "$T/bad.pcol" --compress $bad 2>"$T/err" || rc=$?
  [ $rc = 2 ] && grep -q "lz4\|compression" "$T/err" && [ ! -e "$T/bad.pcol" ] ||
    fail "--compress $bad: exit $rc, $(cat "$T/err")"
done
"$P" merge "$G" "$H" -o "$T/gh.pcol" || fail "merge of $G and $H"
layout() { grep -E '^(format_version|file_size|sections|flags):'; }
want=$("$P" info "$T/g.pcol" | layout)
[ -n "$want" ] || fail "info of a packed file has no layout lines"
[ "$("$P" info "$G" | layout)" = "$want" ] || fail "info of $G does not describe the file pack writes"
# (standard input: its source is named <stdin>, a few bytes apart)
[ "$("$P" info - <"$G" | grep -E '^(format_version|flags):')" = "$(grep -E '^(format_version|flags):' <<<"$want")" ] ||
  fail "info of standard input does not describe the file pack writes"
[ "$("$P" info "$G" "$H" | layout)" = "$("$P" info "$T/gh.pcol" | layout)" ] || fail "info of a union does not describe the file merge writes"
# so does the report page's header (its format and size)
"$P" report "$G" -o "$T/g.html" && "$P" report "$T/g.pcol" -o "$T/gp.html" || fail "report of $G"
hdr() { grep -o '"format":"[0-9.]*","file_size":[0-9]*' "$1" | head -1; }
[ -n "$(hdr "$T/gp.html")" ] && [ "$(hdr "$T/g.html")" = "$(hdr "$T/gp.html")" ] ||
  fail "the report of $G does not describe the file pack writes: $(hdr "$T/g.html") / $(hdr "$T/gp.html")"
[ "$enc" -gt $((n / 2)) ] || fail "only $enc of $n default files are format 1.3"
echo "t_format_versions: $n profiles: 1.3 (encoded in $enc), zstd, lz4 (1.5 with byte-split lanes in $lanes, else 1.3; 1.3 with --format-version 1.4, 1.0 with 1.2) and 1.2 files and the images in memory give the same views and top"
