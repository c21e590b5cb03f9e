#!/usr/bin/env bash
# CLI: what a view adds up (issue 27, items 1, 4, 7, 8, 9), on profiles made
# here: Rprof text, and pprof profiles encoded by tests/support/gen_pprof_counts.py
# whose samples count 3, 5 and 2 (so rows and samples differ).
#  1. "samples" is each source's own count (pprof's samples/count, Rprof
#     ticks, a heap profile's rows) in a merged file, in top, fold, flame,
#     the collapsed export and the report; a merge of unrelated values says
#     what each source's number is, in one line (issue 41), and the
#     collapsed export of one adds fold's value, not each source's default;
#  4. the range rule: a coalesced file answers every range as its raw twin,
#     adjacent ranges add up, and cat --from/--to shows the cut part;
#  7. Rprof's memory snapshots are levels: summing them is refused;
#  8. an Rprof source's default value is its time (interval x ticks per
#     segment), as summaryRprof shows seconds (checked against R when present);
#  9. info's derived values are per source;
# 10. --mean (pprof -mean): an Rprof source's time over its samples is its
#     interval in every row; a heap profile's total is its bytes over its
#     objects (the first type); --mean with a base, of sources whose first
#     types differ, and --normalize without a base are refused.
# 11. a type whose name holds '/' (perf's PMU events, cpu_atom/cycles/u) is
#     named by itself or with its unit; TYPE/UNIT is not cut at the first '/'.
# 12. a pprof source naming one TYPE/UNIT twice (tests/support/pprofgen.py
#     duptypes: samples/count, cpu/nanoseconds twice): --value cpu and
#     cpu/nanoseconds read the first cpu column, as go's -sample_index=cpu
#     (SampleIndexByName takes the first of that name; checked against go
#     when present); --value 2 reads go's second cpu column (h13; it was
#     refused, and before that the first's numbers under go's index of
#     the second).  Without default_sample_type
#     go's default is the last (second cpu) column, and pcol's (h13: was
#     the first, with the import's warning, review h11 F1); its pprof
#     export writes no default_sample_type either, so go's default of the
#     copy is go's of the original (and pcol's pcol's), as for the file with
#     one (review h11 F1's export).
# 13. the unit rule (go tool pprof's measurement.ScaleProfiles): heap
#     profiles of one heap in bytes, kilobytes and megabytes
#     (tests/support/pprofgen.py units), and cpu-like ones in nanoseconds
#     and milliseconds, read together (top A B, top DIR, a merged file,
#     --value TYPE and TYPE/UNIT, fold, the collapsed export) add up in the
#     finest unit, each coarser value scaled into it: the total is each
#     input's own total in that unit added up, and the view is go tool
#     pprof -top's of the same inputs (when go is here); a unit of another
#     kind (count) is not scaled: the default is samples with its warning,
#     the bare name refused.
# 14. two types of one name in kin units in ONE source (inuse_space in
#     kilobytes, then in bytes): go never merges a profile's own sample
#     types (ScaleProfiles scales across profiles), so the pprof export
#     writes both columns, and --value inuse_space is the first listed
#     (SampleIndexByName), as go -sample_index=inuse_space (rd12a F3:
#     one column, the kilobytes lost; the bytes one's 5010B).
# 15. the unit rule's drop (go's Profile.ScaleN): a sample whose values
#     scaled into a finer kin are all 0 (the megabytes profile's beta: 5 kB
#     is 0 MB) is gone with its other values, inuse_objects too, in the
#     views of the inputs and of their merge, and in the pprof export, as go
#     tool pprof -top of the inputs and -raw of the inputs (rd12a F2: beta
#     counted 10 objects, 15 in go); a source alone scales nothing, drops
#     nothing.
# 16. --diff-base of kin sides: each side's sources merged in the finest
#     unit of their kin (ScaleProfiles, dropping as item 15), then the two
#     lists paired, the coarser scaled into the finer, as go -diff_base of
#     the same files (rd12a F4: top b kb --diff-base mb refused, "6 value
#     types ... 6 != 4"); a refusal of lists that do not pair is a whole
#     sentence in a pcol_error's 512 bytes (was cut inside a character).
# 17. a pprof of 40000 sample types of one name in kin units (a 280 KB
#     hostile file) answers top and the pprof export in well under a second:
#     the union of value columns groups them by hash, each unit parsed once
#     (rd13a F8: 37 s, pairs of types compared).  No timing assertion: the
#     input is large enough that the quadratic run (40 s of CPU at 40000)
#     passes `timeout 20`.
# 18. a kin unit only spelled otherwise ("kB" beside "kilobytes") is not
#     scaled, so the unit rule drops nothing of it: go's ScaleN scales and
#     drops only where the ratio is not 1 (rd13a F4: ub.pb's (3,0) dropped,
#     16 where go says 19; --diff-base 8 where go says 5).
# 19. traces drop what the unit rule drops, as top: kb2.pb's alpha (5, 0 kB
#     beside a bytes profile) is no trace (rd13a F6: a trace "0" printed,
#     and a dropped first sample set the traces' order), as go -traces.
# 20. the collapsed export drops the same samples as fold: kb2 b2's counts
#     are main;beta 11 (rd13a F5: main;alpha 5 written too).
# 21. two files each with two kin types of one name, in another order
#     (one.pb inuse_space in kilobytes then bytes, two.pb bytes then
#     kilobytes): go merges them by position, so --value inuse_space (and
#     --value 0) is each file's FIRST column scaled (3472 B, go's 3.39kB)
#     and the default (and --value 1) each file's last (4108 B, go's
#     4.01kB; --value N was refused), in top, fold, traces and the
#     collapsed export (rd13a F2: 412 B both, one.pb's second column read
#     for the bytes type).  And the unit rule's drop is per column, as go's
#     ScaleN: p1.pb's x/kilobytes twice beside p2.pb's bytes then kilobytes
#     scales p1's FIRST column only, so its sample (0, 5) is dropped (its
#     one scaled value is 0): the pprof export holds 2 samples, go -raw's
#     "2048 2 / 100 1" (rd13a F4b: kept, as the type was scaled somewhere).
#     --diff-base of them adds each side's samples up by column, as go's
#     merge: two --diff-base one --value inuse_space is -2672 B, go's
#     -diff_base (rd13a F3: 1412 B, one.pb's two columns, both written in
#     bytes, added together), and one two --diff-base two is 3 kB; their
#     pprof exports are go -raw's of the inputs.  The perun, firefox and
#     perfetto exports of --value inuse_space (perun's of the default too)
#     read back 3472 (412: the bytes type wherever it stood), and perun's
#     memory style of kb.pb beside b.pb counts kb's kilobytes scaled (0).
#     p1 --diff-base p2, a type scaled in one of its places and not the
#     other, is refused (pcol scales a type alike everywhere; was 9116B,
#     go 1kB).
# 22. the DEFAULT of two --diff-base one (and --base): go's last column,
#     each side's own last type paired by position (the diff's sources list
#     inuse_space/bytes twice): 4084 B in top, fold, the collapsed export
#     and the pprof export read back, and top/traces/tree/peek are go's
#     (before: -2672 B, the first column, exit 0).
# 23. the DEFAULT of files whose own defaults sit at different places
#     (a2.pb names default_sample_type inuse_space, c2.pb names none; both
#     list inuse_space in kilobytes then in bytes): go's merge keeps the
#     first default_sample_type stated (combineHeaders) and reads that
#     name's FIRST column in every file (SampleIndexByName), the kilobytes
#     ones: 14 kB = 14336 B in either order, in top, fold, traces and
#     the pprof export read back (the collapsed export writes the
#     samples/count, the count rule); three files and a
#     megabytes one as go -top (rd15a F1: 24 B, each file's bytes column,
#     exit 0).
# 24. --diff-base of a side whose files list their types in other orders
#     (rA samples, inuse_space/kilobytes; rB inuse_space/bytes, samples):
#     the copy writes a merged sample's values by the side's columns, not
#     its source's order, which the unit rule's drop (count.h
#     pcol_unit_dropped) would misread; each column of the copy is in one
#     unit, so no view of it drops (rd15a's risk).  The diff is each side's
#     own total subtracted, rA's (1, 0 kB) dropped as alone (go refuses to
#     merge rA and rB, so pcol's own views are the reference).
# 25. --normalize of a profile listing a type twice (dd x/bytes twice:
#     alpha 10,20 beta 30,40; its base nb: 100,1000 and 300,1000): go's
#     Normalize scales each column by its own ratio (400/40, 2000/60), so
#     the default (the last column) is alpha -333 B, beta +333 B, 0 of
#     2000 B, and --value 0 is 0 of 400 B; the pprof export holds go -raw's
#     values (rd16a F2: -2000 B and 600 B, both values in the first column,
#     scaled by its ratio, exit 0).
set -u
PCOL=${PCOL:-build/bin/pcol}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_values: FAIL: $*" >&2; exit 1; }
total() { sed -n 's/.* of \([0-9]*\)[a-zA-Z]* total.*/\1/p'; }      # top --unit raw
sum() { awk '{ s += $NF } END { print s + 0 }'; }
gen=tests/support/gen_pprof_counts.py

# ---- profiles
{ echo 'sample.interval=20000'                      # 6 ticks of 20 ms
  for i in 1 2 3; do echo '"g" "f" "main" '; done
  echo '"f" "main" '; echo '"h" "main" '; echo '"h" "main" '; } >"$tmp/r.out"
printf 'memory profiling: sample.interval=20000\n:100:200:300:4:"f" \n:150:200:300:4:"g" "f" \n' >"$tmp/m.out"
cpu_n=$(python3 $gen "$tmp/c.pb" cpu) || fail "gen cpu"     # 10 samples in 3 rows
heap_n=$(python3 $gen "$tmp/h.pb" heap) || fail "gen heap"  # 2 rows, no count
[ "$cpu_n" = 10 ] && [ "$heap_n" = 2 ] || fail "generator: $cpu_n $heap_n"

# ---- 1. samples in a merge = the sum of each source's own count
"$PCOL" merge "$tmp/r.out" "$tmp/c.pb" -o "$tmp/rc.pcol" || fail "merge rprof + pprof cpu"
r_n=$("$PCOL" top "$tmp/r.out" --value samples --unit raw | total)
c_n=$("$PCOL" top "$tmp/c.pb" --value samples --unit raw | total)
[ "$r_n" = 6 ] && [ "$c_n" = "$cpu_n" ] || fail "own counts: rprof $r_n, pprof $c_n (want 6, $cpu_n)"
want=$((r_n + c_n))
got=$("$PCOL" top "$tmp/rc.pcol" --value samples --unit raw | total)
[ "$got" = "$want" ] || fail "merged --value samples total $got, want $r_n + $c_n = $want (pprof rows counted?)"
[ "$("$PCOL" top "$tmp/rc.pcol" --source 2 --value samples --unit raw | total)" = "$c_n" ] || fail "--source 2 --value samples"
[ "$("$PCOL" fold "$tmp/rc.pcol" --value samples | sum)" = "$want" ] || fail "fold --value samples"
[ "$("$PCOL" unpack "$tmp/rc.pcol" --to collapsed --value samples -o - | sum)" = "$want" ] || fail "unpack --to collapsed --value samples"
"$PCOL" flame "$tmp/rc.pcol" --value samples -o - | grep -q "<title>⁨all⁩ ($want, " || fail "flame --value samples total"
"$PCOL" top "$tmp/rc.pcol" --value weight --unit raw | grep -qx 'Type: weight' || fail "--value weight is named weight"
# both sources measure time: the default is cpu, 6 x 20 ms + 100 ms
[ "$("$PCOL" top "$tmp/rc.pcol" --unit raw | total)" = 220000000 ] || fail "merged default (cpu) total"
# the report's "samples" column: each sample's own count (the page adds these up)
"$PCOL" report "$tmp/rc.pcol" -o "$tmp/rc.html" || fail "report"
python3 - "$tmp/rc.html" "$want" <<'P' || fail "report's samples value"
import sys, re, json, base64, struct
h = open(sys.argv[1], encoding="utf-8").read()
m = json.loads(re.search(r'<script id="pcol-meta" type="application/json">(.*?)</script>', h, re.S).group(1))
b = base64.b64decode(re.sub(r"\s+", "", re.search(r'<script id="pcol-bin"[^>]*>(.*?)</script>', h, re.S).group(1)))
import zlib
if "bin_raw" in m:  # deflated (raw)
    b = zlib.decompress(b, -15)
k = [v["cli"] for v in m["values"]].index("samples")
c = m["cols"]["v%d" % k]
if c.get("s") in (2, 3):  # the page's second part (the values the first drawing does not read) or its samples part
    part = "bin%d" % c["s"]
    b = base64.b64decode(re.sub(r"\s+", "", re.search(r'<script id="pcol-%s"[^>]*>(.*?)</script>' % part, h, re.S).group(1)))
    if part + "_raw" in m:
        b = zlib.decompress(b, -15)
fmt = {"u8": "B", "u16": "H", "u32": "I", "i32": "i", "f64": "d"}
def dv(c):  # steps from the value before, zigzag, LEB128 (data.js)
    out, p, prev = [], c["o"], 0
    for _ in range(c["n"]):
        z = sh = 0
        while True:
            x = b[p]; p += 1; z |= (x & 127) << sh; sh += 7
            if x < 128: break
        prev += -((z + 1) >> 1) if z & 1 else z >> 1
        out.append(prev)
    return out
vals = [c.get("v", 0)] * c["n"] if c["e"] == "c" else dv(c) if c["e"] == "dv" else struct.unpack_from("<%d%s" % (c["n"], fmt[c["e"]]), b, c["o"])
assert sum(vals) == int(sys.argv[2]), (sum(vals), sys.argv[2])
assert "weight" not in [v["cli"] for v in m["values"]]
P
# heap + cpu: unrelated values; samples = rows of the heap profile + counts of the cpu one, and the warning says so
"$PCOL" merge "$tmp/h.pb" "$tmp/c.pb" -o "$tmp/hc.pcol" || fail "merge heap + cpu"
"$PCOL" top "$tmp/hc.pcol" --unit raw >"$tmp/out" 2>"$tmp/err" || fail "top of heap + cpu"
[ "$(total <"$tmp/out")" = $((heap_n + cpu_n)) ] || fail "heap + cpu default total $(total <"$tmp/out"), want $((heap_n + cpu_n))"
grep -q '(1 pprof source: rows (weight), default alloc_space/bytes; 1 pprof source: samples/count, default cpu/nanoseconds)' "$tmp/err" ||
  fail "the warning does not say what each source counts: $(cat "$tmp/err")"
"$PCOL" info "$tmp/hc.pcol" | grep -q '^default value:   samples/count' || fail "info of heap + cpu names the default"
"$PCOL" info "$tmp/hc.pcol" | grep -qx '  samples:       10 (3 rows), without times' || fail "info shows the own count"
# issue 41 (item 6): the collapsed export of sources whose defaults differ is
# fold's answer (each source's own count), never nanoseconds plus counts; the
# warning is one line, counting the sources of each kind, however many there
# are; so is the one about the sources without a named value.  A Go CPU
# profile (cpu/nanoseconds, 10 ms samples) four times and a collapsed file
# four times: 8 sources.  (The CPU profile is semantics_pprof.py's, made
# here: the test needs no shared test data.)
mkdir "$tmp/sp" && python3 tests/support/semantics_pprof.py "$tmp/sp" || fail "semantics_pprof.py"
printf 'main;a 3\nmain;b 4\n' >"$tmp/k.folded"
for i in 1 2 3 4; do cp "$tmp/sp/inline-chain.pb.gz" "$tmp/g$i.pb.gz"; cp "$tmp/k.folded" "$tmp/k$i.folded"; done
"$PCOL" merge "$tmp"/g?.pb.gz "$tmp"/k?.folded -o "$tmp/gk.pcol" 2>/dev/null || fail "merge pprof + collapsed"
g_n=$("$PCOL" top "$tmp/g1.pb.gz" --value samples --unit raw | total)
want=$((4 * g_n + 4 * 7))
"$PCOL" fold "$tmp/gk.pcol" 2>"$tmp/err" | sort >"$tmp/fold" || fail "fold of pprof + collapsed"
[ "$(sum <"$tmp/fold")" = $want ] || fail "fold of pprof + collapsed: $(sum <"$tmp/fold"), want $want"
"$PCOL" unpack "$tmp/gk.pcol" --to collapsed -o "$tmp/gk.folded" 2>"$tmp/err2" || fail "unpack pprof + collapsed"
[ "$(sum <"$tmp/gk.folded")" = $want ] || fail "collapsed export of pprof + collapsed: $(sum <"$tmp/gk.folded"), want fold's $want"
sort "$tmp/gk.folded" | diff - "$tmp/fold" >/dev/null || fail "collapsed export differs from fold"
# (the export says it leaves out the pprof sources' cpu: the loss note)
grep -q ': not written: values cpu/nanoseconds (collapsed holds one value and no labels)$' "$tmp/err2" ||
  fail "unpack pprof + collapsed: no loss note of cpu: $(cat "$tmp/err2")"
sed -i '/: not written: /d' "$tmp/err2"
for e in err err2; do
  [ "$(wc -l <"$tmp/$e")" = 1 ] || fail "$e: the mixed-sources warning is not one line: $(cat "$tmp/$e")"
  grep -q '(4 pprof sources: samples/count, default cpu/nanoseconds; 4 collapsed sources: rows (weight), default samples/count); name one with --value TYPE$' "$tmp/$e" ||
    fail "mixed-sources warning: $(cat "$tmp/$e")"
done
"$PCOL" fold "$tmp/gk.pcol" --value cpu 2>"$tmp/err" >/dev/null || fail "fold --value cpu"
[ "$(wc -l <"$tmp/err")" = 1 ] || fail "the missing-value warning is not one line: $(cat "$tmp/err")"
grep -q ': 4 of 8 sources have no value cpu/nanoseconds, their samples count 0 (source 5 (collapsed .*k1.folded), source 6 ' "$tmp/err" ||
  fail "missing-value warning: $(cat "$tmp/err")"

# ---- 8. an Rprof source's default is its time, per segment
"$PCOL" top "$tmp/r.out" | grep -qx 'Type: cpu' || fail "Rprof default type"
[ "$("$PCOL" top "$tmp/r.out" --unit raw | total)" = 120000000 ] || fail "Rprof default total (6 x 20 ms)"
{ cat "$tmp/r.out"; echo 'sample.interval=2000'; echo '"k" "main" '; echo '"k" "main" '; } >"$tmp/two.out"
[ "$("$PCOL" top "$tmp/two.out" --unit raw | total)" = 124000000 ] || fail "two segments: 6 x 20 ms + 2 x 2 ms"
[ "$("$PCOL" top "$tmp/two.out" --value samples --unit raw | total)" = 8 ] || fail "two segments, counted"
if command -v Rscript >/dev/null 2>&1; then # summaryRprof's seconds (one segment: R misreads two)
  r=$(Rscript -e 's <- summaryRprof(commandArgs(TRUE)[1]); cat(sprintf("%.2f %.2f", s$sampling.time, s$by.total["\"f\"", "total.time"]))' "$tmp/r.out") ||
    fail "summaryRprof"
  p=$("$PCOL" top "$tmp/r.out" --format csv | awk -F, '$6=="main"{m=$4} $6=="f"{f=$4} END{printf "%.2f %.2f", m/1e9, f/1e9}')
  [ "$r" = "$p" ] || fail "summaryRprof says '$r' (sampling.time, f's total.time), pcol top '$p'"
fi

# ---- 7. level snapshots are not summed
"$PCOL" top "$tmp/m.out" --value vsize.small >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc = 2 ] || fail "--value vsize.small exited $rc, want 2 (a usage error)"
grep -q "is a level.*use --value rprof.alloc" "$tmp/err" || fail "the refusal points at rprof.alloc: $(cat "$tmp/err")"
"$PCOL" fold "$tmp/m.out" --value nodes >/dev/null 2>&1 && fail "fold --value nodes"
"$PCOL" top "$tmp/m.out" --value rprof.alloc >"$tmp/ra" || fail "rprof.alloc still works"
# TYPE/UNIT, the name the refusal of an unknown value lists it by
"$PCOL" top "$tmp/m.out" --value rprof.alloc/bytes >"$tmp/rab" && cmp -s "$tmp/ra" "$tmp/rab" ||
  fail "--value rprof.alloc/bytes is not --value rprof.alloc"
"$PCOL" report "$tmp/m.out" -o "$tmp/m.html" || fail "report of a memory profile"
python3 - "$tmp/m.html" <<'P' || fail "report's value menu offers a level as a sum"
import sys, re, json
h = open(sys.argv[1], encoding="utf-8").read()
m = json.loads(re.search(r'<script id="pcol-meta" type="application/json">(.*?)</script>', h, re.S).group(1))
lv = {v["type"] for v in m["values"] if v.get("level")}
assert lv == {"vsize.small", "vsize.large", "nodes"}, lv
assert m["values"][m["value"]]["type"] == "cpu", m["values"][m["value"]]  # its default: time
P
# an increase past int64 (8.8e18 small + 5e17 large bytes in one tick) is
# refused, with the same words, by top and by every export that writes
# rprof.alloc (speedscope's counted it as 0 and exited 0)
printf 'memory profiling: sample.interval=20000\n:0:0:0:0:"main" \n:1100000000000000000:500000000000000000:0:0:"main" \n' >"$tmp/big.out"
"$PCOL" pack "$tmp/big.out" -o "$tmp/big.pcol" || fail "pack a memory profile with huge increases"
for c in "top --value rprof.alloc" "unpack --to speedscope -o $tmp/x" "unpack --to pprof -o $tmp/x" \
         "unpack --to firefox -o $tmp/x" "unpack --to otlp -o $tmp/x"; do
  # shellcheck disable=SC2086
  "$PCOL" $c "$tmp/big.pcol" >/dev/null 2>"$tmp/err"; rc=$?
  [ $rc = 1 ] && grep -q "memory increase overflows at sample 2" "$tmp/err" ||
    fail "$c of an overflowing rprof.alloc: exit $rc, $(cat "$tmp/err")"
done

# ---- 9. info's derived values, per source
"$PCOL" merge "$tmp/r.out" "$tmp/m.out" "$tmp/c.pb" -o "$tmp/three.pcol" || fail "merge of three"
"$PCOL" info "$tmp/three.pcol" >"$tmp/info.txt" || fail "info"
awk '/^source /{s=$2} /^  derived:/{print s, $0}' "$tmp/info.txt" >"$tmp/derived.txt"
grep -qx '1:   derived:       cpu/nanoseconds (interval x ticks)' "$tmp/derived.txt" || fail "source 1 (Rprof, no memory): $(cat "$tmp/derived.txt")"
grep -q '^2:   derived:       cpu/nanoseconds (interval x ticks), rprof.alloc/bytes' "$tmp/derived.txt" || fail "source 2 (Rprof memory): $(cat "$tmp/derived.txt")"
grep -q '^3:' "$tmp/derived.txt" && fail "source 3 (pprof) claims derived values: $(cat "$tmp/derived.txt")"

# ---- 4. the range rule: coalesced = raw for every range; adjacent ranges add up
{ echo 'sample.interval=1000'                        # runs of 7, 3, 5 ticks of 1 ms
  for i in 1 2 3 4 5 6 7; do echo '"a" "main" '; done
  for i in 1 2 3; do echo '"b" "main" '; done
  for i in 1 2 3 4 5; do echo '"a" "main" '; done; } >"$tmp/t.out"
"$PCOL" pack "$tmp/t.out" -o "$tmp/raw.pcol" && "$PCOL" pack --coalesce "$tmp/t.out" -o "$tmp/co.pcol" || fail pack
[ "$("$PCOL" cat "$tmp/co.pcol" --table samples --format csv | tail -n +2 | wc -l)" = 3 ] || fail "coalesced rows"
tops() { "$PCOL" top "$1" --from "$2" --to "$3" --value "$4" --unit raw --format csv --node-fraction 0 | tail -n +2 | sort; }
cut=(0 0.0031 0.0065 0.0071 0.0101 0.0123 0.016)
for v in samples cpu; do
  for ((i = 0; i < ${#cut[@]}; i++)); do
    for ((j = i + 1; j < ${#cut[@]}; j++)); do
      a=${cut[$i]} b=${cut[$j]}
      cmp -s <(tops "$tmp/raw.pcol" $a $b $v) <(tops "$tmp/co.pcol" $a $b $v) ||
        fail "--value $v --from $a --to $b: coalesced differs from raw ($(tops "$tmp/co.pcol" $a $b $v | tr '\n' ' ') vs $(tops "$tmp/raw.pcol" $a $b $v | tr '\n' ' '))"
    done
  done
done
whole=$("$PCOL" top "$tmp/co.pcol" --value samples --unit raw | total)
for m in 0.0004 0.0031 0.0065 0.0099 0.0123; do
  l=$("$PCOL" top "$tmp/co.pcol" --to $m --value samples --unit raw | total)
  r=$("$PCOL" top "$tmp/co.pcol" --from $m --value samples --unit raw | total)
  [ $((l + r)) = "$whole" ] || fail "--to $m ($l) + --from $m ($r) != $whole"
done
# cat returns the cut part: weights add up to top's count, times are the ticks'
"$PCOL" cat "$tmp/co.pcol" --table samples --from 0.0031 --to 0.0123 --format csv >"$tmp/cat.csv" || fail "cat --from --to"
cat >"$tmp/want.csv" <<'X'
sample_id,source_id,time_ns,duration_ns,weight,cpu_delta_ns,stack_id,labelset_id
1,1,4000000,3000000,3,NA,2,NA
2,1,7000000,3000000,3,NA,3,NA
3,1,10000000,3000000,3,NA,2,NA
X
diff -u "$tmp/want.csv" "$tmp/cat.csv" || fail "cat --table samples of a cut range (ticks 4..12 ms)"
[ "$("$PCOL" top "$tmp/co.pcol" --from 0.0031 --to 0.0123 --value samples --unit raw | total)" = 9 ] || fail "top of the cut range"

# ---- 10. --mean and --normalize
"$PCOL" top "$tmp/r.out" --mean --format tsv >"$tmp/mean.tsv" || fail "top --mean of Rprof"
awk -F'\t' 'NR > 1 && (($1 != 20000000 && $1 != 0) || $4 != 20000000) { bad = 1 } END { exit bad || NR < 4 }' "$tmp/mean.tsv" ||
  { cat "$tmp/mean.tsv"; fail "Rprof --mean: every row's cum (and flat, where not 0) is the 20 ms interval"; }
"$PCOL" top "$tmp/r.out" --mean | grep -qx 'Type: mean_cpu' || fail "--mean's Type line"
whole=$("$PCOL" top "$tmp/h.pb" --unit raw --node-fraction 0 | total)
objs=$("$PCOL" top "$tmp/h.pb" --value 0 --unit raw --node-fraction 0 | total)
mean=$("$PCOL" top "$tmp/h.pb" --mean --unit raw --node-fraction 0 | total)
[ "$objs" -gt 1 ] && [ "$mean" = $((whole / objs)) ] || fail "heap --mean total $mean, want $whole bytes / $objs objects"
# --mean with --base is pprof's -mean -base (t_pprof_semantics.sh compares
# it with go): a profile less itself leaves no mean
"$PCOL" top "$tmp/c.pb" --mean --base "$tmp/c.pb" --unit raw >"$tmp/out" 2>"$tmp/err" &&
  [ "$(total <"$tmp/out")" = 0 ] || fail "--mean with --base of itself: $(cat "$tmp/err" "$tmp/out")"
# sources whose first types differ have no common divisor: refused, not mixed
"$PCOL" top "$tmp/c.pb" "$tmp/h.pb" --value samples --mean 2>"$tmp/err" && fail "--mean of a cpu and a heap profile: exit 0"
grep -q 'no first value type in common' "$tmp/err" || fail "--mean of mixed sources: the message"
"$PCOL" top "$tmp/c.pb" --normalize 2>"$tmp/err"
[ $? = 2 ] && grep -q 'must have base profile' "$tmp/err" || fail "--normalize without a base: exit 2"
# a profile normalized to itself is itself: its diff with itself is empty
"$PCOL" top "$tmp/c.pb" --normalize --diff-base "$tmp/c.pb" --unit raw | grep -q 'accounting for 0, ' ||
  fail "--normalize --diff-base of a profile and itself"
# ---- 11. perf's PMU event names hold '/': --value TYPE and TYPE/UNIT
{ t=1; for e in cpu_core/cycles/u cpu_atom/cycles/u cpu_core/cycles/u; do t=$((t + 1))
    printf 'prog 7 100.00%s:     250000 %s: \n\t  1000 f+0x1 (/bin/prog)\n\t  2000 main+0x2 (/bin/prog)\n\n' \
      "$t" "$e"; done; } >"$tmp/pmu.txt"
"$PCOL" pack --from perf "$tmp/pmu.txt" -o "$tmp/pmu.pcol" || fail "pack a perf script of PMU events"
for v in cpu_core/cycles/u cpu_core/cycles/u/count; do
  [ "$("$PCOL" top "$tmp/pmu.pcol" --value "$v" --unit raw | total)" = 500000 ] ||
    fail "--value $v: not the two cpu_core samples' 500000"
done
[ "$("$PCOL" top "$tmp/pmu.pcol" --value cpu_atom/cycles/u --unit raw | total)" = 250000 ] ||
  fail "--value cpu_atom/cycles/u"
"$PCOL" top "$tmp/pmu.pcol" --value cpu_core/cycles >/dev/null 2>"$tmp/err"
[ $? = 1 ] && grep -q "no value type 'cpu_core/cycles'" "$tmp/err" || fail "a part of a PMU name is no type"

# ---- 11b. perf script of several events: the default is the first time
# event printed (cpu-clock, task-clock, cycles), else the event with the
# most samples, not whichever event's sample comes first (review 18 F7: an
# execve page fault before the first cpu-clock tick opened 933 CPU samples
# on 8 page faults; perf report leads with cpu-clock, the first -e)
two_events() { # OUT EVENT1 PERIOD1 EVENT2 PERIOD2: one sample of EVENT1, then 3 of EVENT2
  { printf 'prog 7 100.000001: %10d %s: \n\t  1000 g+0x1 (/bin/prog)\n\n' "$3" "$2"
    for t in 2 3 4; do
      printf 'prog 7 100.00%s: %10d %s: \n\t  1000 f+0x1 (/bin/prog)\n\t  2000 main+0x2 (/bin/prog)\n\n' "$t" "$5" "$4"
    done; } >"$1"
}
default_is() { # FILE TYPE TOTAL
  "$PCOL" top "$1" --unit raw >"$tmp/top" || fail "top of $1"
  grep -q "^Type: $2\$" "$tmp/top" && [ "$(total <"$tmp/top")" = "$3" ] ||
    fail "$1: the default is not $2 ($3): $(head -4 "$tmp/top")"
}
two_events "$tmp/pf.txt" page-faults 1 cpu-clock 250000
default_is "$tmp/pf.txt" cpu-clock 750000
[ "$("$PCOL" top "$tmp/pf.txt" --value page-faults --unit raw | total)" = 1 ] || fail "--value page-faults"
# no time event: the one with the most samples
two_events "$tmp/pc.txt" instructions 100 branch-misses 7
default_is "$tmp/pc.txt" branch-misses 21

# ---- 12. one TYPE/UNIT named twice
python3 tests/support/pprofgen.py duptypes "$tmp/dup.pb" || fail "pprofgen.py duptypes"
rows() { awk '/flat%/ {on = 1; next} on {print $1, $NF}'; } # flat and name
want=$(printf '30ns alpha\n20ns main\n10ns beta')
for v in cpu cpu/nanoseconds 1; do
  [ "$("$PCOL" top "$tmp/dup.pb" --value $v | rows)" = "$want" ] || fail "--value $v of two cpu columns: not the first's"
done
"$PCOL" top "$tmp/dup.pb" --value 2 2>"$tmp/err" | rows | head -1 | grep -qx '500ns beta' && [ ! -s "$tmp/err" ] ||
  fail "--value 2 of the second cpu column: not go's -sample_index=2 $(cat "$tmp/err")"
if command -v go >/dev/null 2>&1; then
  (cd "$tmp" && go tool pprof -sample_index=cpu -top dup.pb 2>/dev/null) | rows >"$tmp/go.txt"
  [ "$(cat "$tmp/go.txt")" = "$want" ] || fail "go -sample_index=cpu: $(cat "$tmp/go.txt")"
  (cd "$tmp" && go tool pprof -sample_index=2 -top dup.pb 2>/dev/null) | rows | head -1 | grep -qx '500ns beta' ||
    fail "go -sample_index=2 does not read the second cpu column"
fi
"$PCOL" top "$tmp/dup.pb" >/dev/null 2>"$tmp/err" && [ ! -s "$tmp/err" ] ||
  fail "duptypes with default_sample_type cpu: $(cat "$tmp/err")"
python3 tests/support/pprofgen.py duptypes "$tmp/dupnd.pb" nodefault || fail "pprofgen.py duptypes nodefault"
"$PCOL" top "$tmp/dupnd.pb" >"$tmp/out" 2>"$tmp/err" || fail "top of duptypes nodefault: $(cat "$tmp/err")"
wantnd=$(printf '500ns beta\n7ns main') # (alpha's 1ns dropped: go's cum <= 2ns)
[ "$(rows <"$tmp/out")" = "$wantnd" ] || fail "duptypes nodefault: not the last cpu column (go's): $(cat "$tmp/out")"
[ ! -s "$tmp/err" ] || fail "duptypes nodefault: a warning: $(cat "$tmp/err")"
if command -v go >/dev/null 2>&1; then
  (cd "$tmp" && go tool pprof -top dupnd.pb 2>/dev/null) | rows | head -1 | grep -qx '500ns beta' ||
    fail "go's default of duptypes nodefault is not the last column"
fi
# their pprof exports (also of the packed file): go's default of the copy is
# go's of the original (the last column without default_sample_type: the
# export wrote `cpu`, and go read alpha 30ns 50% of the copy for beta 500ns
# of the original), pcol's is pcol's, with its warning
for f in dup dupnd; do
  for from in pb pcol; do
    [ -f "$tmp/$f.$from" ] || "$PCOL" pack "$tmp/$f.pb" -o "$tmp/$f.pcol" 2>/dev/null || fail "pack $f"
    "$PCOL" unpack "$tmp/$f.$from" --to pprof -o "$tmp/$f.$from.pb.gz" 2>/dev/null || fail "$f.$from: pprof export"
    w=$want; [ $f = dup ] || w=$wantnd
    [ "$("$PCOL" top "$tmp/$f.$from.pb.gz" 2>"$tmp/err" | rows)" = "$w" ] || fail "$f.$from: pcol top of its pprof copy"
    if command -v go >/dev/null 2>&1; then
      g=$( (cd "$tmp" && go tool pprof -top $f.pb 2>/dev/null) | rows | head -1)
      c=$( (cd "$tmp" && go tool pprof -top $f.$from.pb.gz 2>/dev/null) | rows | head -1)
      [ "$c" = "$g" ] || fail "$f.$from: go's default of the pprof copy '$c', of the original '$g'"
    fi
  done
done

# ---- 13. the unit rule
for spec in b:bytes:1 k:kilobytes:1024 m:megabytes:1048576 ns:nanoseconds:1 ms:milliseconds:1000000 \
  c:count:1; do
  IFS=: read -r name unit div <<<"$spec"
  python3 tests/support/pprofgen.py units "$tmp/u-$name.pb" "$unit" "$div" || fail "pprofgen.py units $spec"
done
own() { # own FILE UNIT_DIV: FILE's inuse_space total in the finest unit
  echo $(($("$PCOL" top "$tmp/u-$1.pb" --unit raw | total) * $2))
}
shown() { sed -n '/^Showing nodes/,$p'; }
mkdir "$tmp/udir"
cp "$tmp/u-b.pb" "$tmp/udir/1.pb" && cp "$tmp/u-m.pb" "$tmp/udir/2.pb" && cp "$tmp/u-k.pb" "$tmp/udir/3.pb"
for set in "b k" "k b" "b m k" "m k" "ns ms" "ms ns"; do
  files=() want=0
  for n in $set; do
    files+=("$tmp/u-$n.pb")
    case $n in k) r=1024 ;; m) r=1048576 ;; ms) r=1000000 ;; *) r=1 ;; esac
    [ "$set" = "m k" ] && r=$((r / 1024)) # (kilobytes the finest)
    want=$((want + $(own $n $r)))
  done
  "$PCOL" top "${files[@]}" >"$tmp/out" 2>"$tmp/err" || fail "top $set: $(cat "$tmp/err")"
  [ ! -s "$tmp/err" ] && grep -q '^Type: inuse_space$' "$tmp/out" ||
    fail "top $set: not inuse_space without a word: $(cat "$tmp/err" "$tmp/out")"
  for v in "" inuse_space; do
    got=$("$PCOL" top "${files[@]}" ${v:+--value $v} --unit raw 2>"$tmp/err" | total)
    [ "$got" = "$want" ] && [ ! -s "$tmp/err" ] ||
      fail "top $set ${v:+--value $v}: total $got, the inputs' own totals in the finest unit add up to $want $(cat "$tmp/err")"
  done
  "$PCOL" merge "${files[@]}" -o "$tmp/u.pcol" 2>/dev/null || fail "merge $set"
  [ "$("$PCOL" top "$tmp/u.pcol" | shown)" = "$(shown <"$tmp/out")" ] || fail "top of merge $set: not top $set"
  # its pprof export: one sample type of the kin, in the finest unit (each
  # value scaled into it, as go merges the inputs), read back the same
  "$PCOL" unpack "$tmp/u.pcol" --to pprof -o "$tmp/u.pb.gz" 2>"$tmp/err" || fail "pprof export of merge $set: $(cat "$tmp/err")"
  [ ! -s "$tmp/err" ] && [ "$("$PCOL" top "$tmp/u.pb.gz" | shown)" = "$(shown <"$tmp/out")" ] ||
    fail "pprof export of merge $set: its top is not the merge's $(cat "$tmp/err")"
  if command -v go >/dev/null 2>&1; then
    (cd "$tmp" && go tool pprof -raw u.pb.gz 2>/dev/null) | sed -n 's/^PeriodType.*//; /^Samples:/,/^Locations/p' | sed -n 2p >"$tmp/types"
    [ -s "$tmp/types" ] && [ "$(tr ' ' '\n' <"$tmp/types" | grep . | sed 's,/.*,,' | sort | uniq -d)" = "" ] ||
      fail "pprof export of merge $set: sample types $(cat "$tmp/types") (a type twice: one column of the kin wanted)"
    [ "$((cd "$tmp" && go tool pprof -top u.pb.gz 2>/dev/null) | shown)" = "$(shown <"$tmp/out")" ] ||
      fail "pprof export of merge $set: go tool pprof -top of it is not top $set"
    # its period type and period scaled too, as go's merge of the inputs (rd12a F6)
    [ "$((cd "$tmp" && go tool pprof -raw u.pb.gz 2>/dev/null) | sed -n '/^Period/p')" = \
      "$((cd "$tmp" && go tool pprof -raw "${files[@]}" 2>/dev/null) | sed -n '/^Period/p')" ] ||
      fail "pprof export of merge $set: its period is not go's merge's"
  fi
  for how in "fold" "unpack --to collapsed -o -"; do
    got=$("$PCOL" $how "$tmp/u.pcol" 2>"$tmp/err" | sum)
    sed -i '/: not written: values /d' "$tmp/err" # (the export's loss note: the other value types)
    # (the export's one note: its numbers are bytes, not sample counts, §4.2)
    sed -i '/the numbers written are inuse_space in /d' "$tmp/err"
    [ "$got" = "$want" ] && [ ! -s "$tmp/err" ] || fail "$how of merge $set: stacks add up to $got, not $want $(cat "$tmp/err")"
  done
  if command -v go >/dev/null 2>&1; then
    (cd "$tmp" && go tool pprof -top "${files[@]}" 2>/dev/null) | shown >"$tmp/go.txt"
    [ -s "$tmp/go.txt" ] && [ "$(shown <"$tmp/out")" = "$(cat "$tmp/go.txt")" ] ||
      fail "top $set: not go tool pprof -top's:$(diff "$tmp/go.txt" <(shown <"$tmp/out"))"
    (cd "$tmp" && go tool pprof -sample_index=alloc_space -top "${files[@]}" 2>/dev/null) | shown >"$tmp/go.txt"
    [ "$("$PCOL" top "${files[@]}" --value alloc_space | shown)" = "$(cat "$tmp/go.txt")" ] ||
      fail "top $set --value alloc_space: not go's -sample_index=alloc_space"
  fi
done
# a directory; TYPE/UNIT of the finest unit
[ "$("$PCOL" top "$tmp/udir" | shown)" = "$("$PCOL" top "$tmp/u-b.pb" "$tmp/u-m.pb" "$tmp/u-k.pb" | shown)" ] ||
  fail "top DIR of bytes, megabytes and kilobytes: not top of the files"
got=$("$PCOL" top "$tmp/u-b.pb" "$tmp/u-k.pb" --value inuse_space/bytes --unit raw 2>"$tmp/err" | total)
[ "$got" = $(($(own b 1) + $(own k 1024))) ] && [ ! -s "$tmp/err" ] ||
  fail "--value inuse_space/bytes of bytes and kilobytes: $got $(cat "$tmp/err")"
# pcol diff: the two are one value (no refusal); --absolute in the new one's unit
"$PCOL" diff "$tmp/u-b.pb" "$tmp/u-k.pb" >/dev/null 2>"$tmp/err" || fail "diff bytes kilobytes: $(cat "$tmp/err")"
d=$("$PCOL" diff --absolute "$tmp/u-k.pb" "$tmp/u-b.pb" --format tsv | awk -F'\t' '$7 == "main" { print $3 }')
[ "$d" = 512 ] || fail "diff --absolute kilobytes bytes: main's change $d, not 512 (bytes)"
# a base in the finer unit: its sums would be rounded into the coarser one
# (bytes against megabytes: no row at all, where go shows -5120B): refused
for nw in k m; do
  "$PCOL" diff --absolute "$tmp/u-b.pb" "$tmp/u-$nw.pb" --value inuse_space >"$tmp/out" 2>"$tmp/err"
  [ $? = 2 ] && grep -q 'would be rounded to it' "$tmp/err" && [ ! -s "$tmp/out" ] ||
    fail "diff --absolute bytes $nw: not refused $(cat "$tmp/err" "$tmp/out")"
done
# a hostile value past 2^63 once scaled into the finer kin: the pprof
# export refuses it (before: written as INT64_MIN, a wrapped sum, exit 0)
for spec in "kb bytes 1000 24" "km megabytes 9000000000000 5"; do
  set -- $spec
  python3 - "$tmp/$1.pb" "$2" "$3" "$4" <<'PY' || fail "big $spec"
import sys
sys.path.insert(0, "tests/support")
from pprofgen import Strings, field, varint
st = Strings()
p = field(1, 2, field(1, 0, st.id(b"inuse_space")) + field(2, 0, st.id(sys.argv[2].encode())))
for lid, name in ((1, b"main"), (2, b"alpha")):
    p += field(4, 2, field(1, 0, lid) + field(4, 2, field(1, 0, lid) + field(2, 0, lid)))
    p += field(5, 2, field(1, 0, lid) + field(2, 0, st.id(name)) + field(4, 0, st.id(b"main.go")))
for locs, v in (([2, 1], int(sys.argv[3])), ([1], int(sys.argv[4]))):
    p += field(2, 2, field(1, 2, b"".join(varint(x) for x in locs)) + field(2, 2, varint(v)))
open(sys.argv[1], "wb").write(p + field(9, 0, 1000000000) + st.table())
PY
done
"$PCOL" merge "$tmp/kb.pb" "$tmp/km.pb" -o "$tmp/kbm.pcol" || fail "merge of the big kin"
"$PCOL" unpack "$tmp/kbm.pcol" --to pprof -o "$tmp/kbm.pb.gz" 2>"$tmp/err"
[ $? = 1 ] && grep -q 'passes 2^63' "$tmp/err" && [ ! -e "$tmp/kbm.pb.gz" ] ||
  fail "pprof export of a kin value past 2^63: not refused $(cat "$tmp/err")"
# the diff default rule (go -diff_base: the default NEW names) finds it in
# a kin unit of the base (rd12a F5: refused, "incompatible value types")
for spec in "dk kilobytes 0" "db bytes 1"; do
  set -- $spec
  python3 - "$tmp/$1.pb" "$2" "$3" <<'PY' || fail "default $spec"
import sys
sys.path.insert(0, "tests/support")
from pprofgen import Strings, field, varint
st, p, u = Strings(), b"", sys.argv[2].encode()
for t in (b"alloc_space", b"inuse_space"):
    p += field(1, 2, field(1, 0, st.id(t)) + field(2, 0, st.id(u)))
for lid, name in ((1, b"main"), (2, b"alpha"), (3, b"beta")):
    p += field(4, 2, field(1, 0, lid) + field(4, 2, field(1, 0, lid) + field(2, 0, lid)))
    p += field(5, 2, field(1, 0, lid) + field(2, 0, st.id(name)) + field(4, 0, st.id(b"main.go")))
for locs, v in (([2, 1], [5, 30]), ([3, 1], [7, 5])):
    p += field(2, 2, field(1, 2, b"".join(varint(x) for x in locs)) + field(2, 2, b"".join(varint(x) for x in v)))
if sys.argv[3] == "1":  # names alloc_space its default
    p += field(14, 0, st.id(b"alloc_space"))
open(sys.argv[1], "wb").write(p + field(9, 0, 1000000000) + st.table())
PY
done
"$PCOL" diff "$tmp/dk.pb" "$tmp/db.pb" --absolute --format tsv >"$tmp/out" 2>"$tmp/err" ||
  fail "diff of a kilobytes base and a bytes profile naming alloc_space: $(cat "$tmp/err")"
[ "$(awk -F'\t' '$7 == "beta" { print $3 }' "$tmp/out")" = -7161 ] ||
  fail "diff default of kin: beta's change is not 7 B - 7 kB: $(cat "$tmp/out")"
if command -v go >/dev/null 2>&1; then
  (cd "$tmp" && go tool pprof -top -unit=B -diff_base dk.pb db.pb 2>/dev/null) | grep -q '^Type: alloc_space$' ||
    fail "go's -diff_base of the pair is not alloc_space"
fi
# another kind (inuse_space in count): not scaled, and said so
"$PCOL" top "$tmp/u-b.pb" "$tmp/u-c.pb" >"$tmp/out" 2>"$tmp/err" || fail "top bytes count"
grep -q '^Type: samples$' "$tmp/out" && grep -q "the sources measure different values" "$tmp/err" ||
  fail "top of inuse_space in bytes and in count: not samples with the warning"
"$PCOL" top "$tmp/u-b.pb" "$tmp/u-c.pb" --value inuse_space >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "several units not of one kind" "$tmp/err" || fail "--value inuse_space of bytes and count: $(cat "$tmp/err")"

# ---- 14. kin types of one source stay apart
python3 tests/support/pprofgen.py typed "$tmp/two.pb" inuse_space:kilobytes,inuse_space:bytes 2,1:1,5000 3,1:2,10 ||
  fail "pprofgen.py typed"
got=$("$PCOL" top "$tmp/two.pb" --value inuse_space --unit B 2>"$tmp/err" | sed -n 's/.* of \([0-9]*\)B total.*/\1/p')
[ "$got" = 3072 ] && [ ! -s "$tmp/err" ] || fail "--value inuse_space of kilobytes then bytes in one source: $got, not the first's 3072B $(cat "$tmp/err")"
"$PCOL" unpack "$tmp/two.pb" --to pprof -o "$tmp/two.out.pb" 2>"$tmp/err" || fail "pprof export of two kin types: $(cat "$tmp/err")"
for v in inuse_space/kilobytes:3 inuse_space/bytes:5010; do
  got=$("$PCOL" top "$tmp/two.out.pb" --value "${v%:*}" --unit raw 2>&1 | total)
  [ "$got" = "${v#*:}" ] || fail "pprof export of two kin types: ${v%:*} adds up to $got, not ${v#*:}"
done
if command -v go >/dev/null 2>&1; then
  [ "$((cd "$tmp" && go tool pprof -top -unit=B -sample_index=inuse_space two.pb 2>/dev/null) | shown)" = \
    "$("$PCOL" top "$tmp/two.pb" --value inuse_space --unit B | shown)" ] || fail "--value inuse_space of two kin types: not go's"
  [ "$((cd "$tmp" && go tool pprof -raw two.out.pb 2>/dev/null) | sed -n '/^Samples:/,/^Locations/p')" = \
    "$((cd "$tmp" && go tool pprof -raw two.pb 2>/dev/null) | sed -n '/^Samples:/,/^Locations/p')" ] ||
    fail "pprof export of two kin types: go -raw of it is not of the input"
fi

# ---- 15. the unit rule's drop
"$PCOL" merge "$tmp/u-k.pb" "$tmp/u-m.pb" -o "$tmp/km.pcol" 2>/dev/null || fail "merge k m"
for in in "$tmp/u-k.pb $tmp/u-m.pb" "$tmp/km.pcol"; do
  got=$("$PCOL" top $in --value inuse_objects --unit raw 2>"$tmp/err" | total)
  [ "$got" = 15 ] && [ ! -s "$tmp/err" ] ||
    fail "top ${in//$tmp\//} --value inuse_objects: $got, not 15 (the megabytes beta's 5 dropped, as go) $(cat "$tmp/err")"
  got=$("$PCOL" fold $in --value inuse_objects | sum)
  [ "$got" = 15 ] || fail "fold ${in//$tmp\//} --value inuse_objects: $got, not 15"
done
got=$("$PCOL" top "$tmp/km.pcol" --source 2 --value inuse_objects --unit raw 2>/dev/null | total)
[ "$got" = 10 ] || fail "top --source 2 (the megabytes alone) --value inuse_objects: $got, not its 10"
"$PCOL" unpack "$tmp/u-k.pb" "$tmp/u-b.pb" "$tmp/u-m.pb" --to pprof -o "$tmp/kbm.out.pb.gz" 2>"$tmp/err" ||
  fail "pprof export of k b m: $(cat "$tmp/err")"
got=$("$PCOL" top "$tmp/kbm.out.pb.gz" --value inuse_objects --unit raw | total)
[ "$got" = 25 ] || fail "pprof export of k b m: inuse_objects $got, not 25 (the kilobytes' 10, the bytes' 10, the megabytes' 5)"
if command -v go >/dev/null 2>&1; then
  [ "$((cd "$tmp" && go tool pprof -top -sample_index=inuse_objects u-k.pb u-m.pb 2>/dev/null) | shown)" = \
    "$("$PCOL" top "$tmp/u-k.pb" "$tmp/u-m.pb" --value inuse_objects | shown)" ] ||
    fail "top k m --value inuse_objects: not go's -sample_index=inuse_objects"
  for set in "u-k.pb u-b.pb u-m.pb" "u-ns.pb u-ms.pb"; do
    "$PCOL" unpack $(printf "$tmp/%s " $set) --to pprof -o "$tmp/set.pb.gz" 2>/dev/null || fail "pprof export of $set"
    [ "$((cd "$tmp" && go tool pprof -raw set.pb.gz 2>/dev/null) | sed -n '/^Samples:/,/^Locations/p')" = \
      "$((cd "$tmp" && go tool pprof -raw $set 2>/dev/null) | sed -n '/^Samples:/,/^Locations/p')" ] ||
      fail "pprof export of $set: go -raw of it is not go -raw of the inputs"
  done
fi

# ---- 16. --diff-base of kin sides
for spec in "b k:m:inuse_space" "k m:b:inuse_space" "k m:b:inuse_objects" "b k m:k m:alloc_objects" "ns ms:ms:inuse_objects"; do
  IFS=: read -r new base v <<<"$spec"
  args=() gargs=()
  for n in $base; do gargs+=(-diff_base "u-$n.pb"); done # (go's answer depends on the bases' order)
  for n in $new; do args+=("$tmp/u-$n.pb"); gargs+=("u-$n.pb"); done
  for n in $base; do args+=(--diff-base "$tmp/u-$n.pb"); done
  "$PCOL" top "${args[@]}" --value "$v" >"$tmp/out" 2>"$tmp/err" || fail "top $new --diff-base $base --value $v: $(cat "$tmp/err")"
  if command -v go >/dev/null 2>&1; then
    [ "$((cd "$tmp" && go tool pprof -top -sample_index="$v" "${gargs[@]}" 2>/dev/null) | shown)" = "$(shown <"$tmp/out")" ] ||
      fail "top $new --diff-base $base --value $v: not go's -diff_base"
  fi
done
L=$(python3 -c 'print(",".join("t%d_%s:bytes" % (i, "\u00e9" * 40) for i in range(6)))')
python3 tests/support/pprofgen.py typed "$tmp/six.pb" "$L" 2,1:1,2,3,4,5,6 || fail "pprofgen.py typed six"
python3 tests/support/pprofgen.py typed "$tmp/four.pb" "$(echo "$L" | cut -d, -f1-4)" 2,1:1,2,3,4 || fail "pprofgen.py typed four"
"$PCOL" top "$tmp/four.pb" --diff-base "$tmp/six.pb" >/dev/null 2>"$tmp/err"
[ $? = 1 ] && grep -q 'inconsistent samples type count: 4 != 6.*`pcol diff BASE PROFILE`$' "$tmp/err" &&
  python3 -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' "$tmp/err" ||
  fail "--diff-base of 4 and 6 long types: not a whole sentence $(cat "$tmp/err")"
# ---- 17. many kin types of one name: near-linear
python3 -c 'import sys; sys.path.insert(0, "tests/support"); import pprofgen; n = 40000
pprofgen.typed(sys.argv[1], ",".join("inuse_space:%s" % ("bytes" if i % 2 else "kilobytes") for i in range(n)),
               "2,1:" + ",".join(str(i + 1) for i in range(n)))' "$tmp/m40k.pb" || fail "pprofgen many types"
for v in inuse_space/kilobytes:1 inuse_space/bytes:2; do
  got=$(timeout 20 "$PCOL" top "$tmp/m40k.pb" --value "${v%:*}" --unit raw 2>/dev/null | total)
  [ "$got" = "${v#*:}" ] || fail "top of 40000 kin types --value ${v%:*}: '$got', not ${v#*:} (quadratic: past timeout 20?)"
done
timeout 20 "$PCOL" unpack "$tmp/m40k.pb" --to pprof -o "$tmp/m40k.out.pb.gz" 2>/dev/null || fail "pprof export of 40000 kin types"
got=$(timeout 20 "$PCOL" top "$tmp/m40k.out.pb.gz" --value inuse_space/bytes --unit raw 2>/dev/null | total)
[ "$got" = 2 ] || fail "pprof export of 40000 kin types: inuse_space/bytes '$got', not 2"
# ---- 18. a unit spelled otherwise is not scaled
python3 tests/support/pprofgen.py typed "$tmp/ua.pb" samples:count,inuse_space:kilobytes 2,1:5,0 3,1:7,2 || fail "gen ua"
python3 tests/support/pprofgen.py typed "$tmp/ub.pb" samples:count,inuse_space:kB 2,1:3,0 3,1:4,1 || fail "gen ub"
got=$("$PCOL" top "$tmp/ua.pb" "$tmp/ub.pb" --value samples --unit raw 2>/dev/null | total)
[ "$got" = 19 ] || fail "top kilobytes kB --value samples: $got, not 19 (kB is not scaled: nothing dropped)"
got=$("$PCOL" top "$tmp/ua.pb" --diff-base "$tmp/ub.pb" --value samples --unit raw 2>/dev/null | sed -n 's/.*accounting for \([0-9-]*\),.*/\1/p')
[ "$got" = 5 ] || fail "top kilobytes --diff-base kB --value samples: $got, not 5"
"$PCOL" unpack "$tmp/ua.pb" "$tmp/ub.pb" --to pprof -o "$tmp/uab.pb.gz" 2>/dev/null || fail "pprof export ua ub"
got=$("$PCOL" top "$tmp/uab.pb.gz" --value samples --unit raw 2>/dev/null | total)
[ "$got" = 19 ] || fail "pprof export of kilobytes kB: samples $got, not 19"
if command -v go >/dev/null 2>&1; then
  [ "$((cd "$tmp" && go tool pprof -top -sample_index=samples ua.pb ub.pb 2>/dev/null) | shown)" = \
    "$("$PCOL" top "$tmp/ua.pb" "$tmp/ub.pb" --value samples | shown)" ] || fail "top kilobytes kB --value samples: not go's"
fi
# ---- 19. traces drop what the unit rule drops
g() { python3 tests/support/pprofgen.py typed "$tmp/$1" "$2" "${@:3}" || fail "gen $1"; }
g kb2.pb samples:count,inuse_space:kilobytes 2,1:5,0 3,1:7,2
g b2.pb samples:count,inuse_space:bytes 3,1:4,0
g kb3.pb samples:count,inuse_space:kilobytes 2,1:5,0 3,1:7,2 1:1,1
g b3.pb samples:count,inuse_space:bytes 2,1:3,100 3,1:4,0
trs() { "$PCOL" traces "$@" --value samples 2>/dev/null | awk '/^ *-?[0-9]+ /{ printf "%s %s;", $1, $2 }'; }
got=$(trs "$tmp/kb2.pb" "$tmp/b2.pb")
[ "$got" = "11 beta;" ] || fail "traces kb2 b2: '$got', not '11 beta;' (alpha dropped by the unit rule)"
got=$(trs "$tmp/kb3.pb" "$tmp/b3.pb")
[ "$got" = "11 beta;1 main;3 alpha;" ] || fail "traces kb3 b3: '$got', not go's order '11 beta;1 main;3 alpha;'"
if command -v go >/dev/null 2>&1; then
  [ "$((cd "$tmp" && go tool pprof -traces -sample_index=samples kb3.pb b3.pb 2>/dev/null) | sed -n '/^---/,$p')" = \
    "$("$PCOL" traces "$tmp/kb3.pb" "$tmp/b3.pb" --value samples 2>/dev/null | sed -n '/^---/,$p')" ] ||
    fail "traces kb3 b3: not go -traces"
fi
# ---- 20. the collapsed export drops what the unit rule drops
got=$("$PCOL" unpack "$tmp/kb2.pb" "$tmp/b2.pb" --to collapsed -o - 2>/dev/null | tr '\n' '|')
[ "$got" = "main;beta 11|" ] || fail "collapsed export of kb2 b2: '$got', not 'main;beta 11|' (fold's)"
[ "$got" = "$("$PCOL" fold "$tmp/kb2.pb" "$tmp/b2.pb" --value samples | tr '\n' '|')" ] ||
  fail "collapsed export of kb2 b2: not fold --value samples"
# ---- 21. kin columns paired by position across files
g one.pb inuse_space:kilobytes,inuse_space:bytes 2,1:1,5 3,1:2,7
g two.pb inuse_space:bytes,inuse_space:kilobytes 2,1:100,1 3,1:300,3
for v in inuse_space:3472 "":4108 0:3472 1:4108; do
  va=(); [ -n "${v%:*}" ] && va=(--value "${v%:*}")
  got=$("$PCOL" top "$tmp/one.pb" "$tmp/two.pb" "${va[@]}" --unit raw 2>/dev/null | total)
  [ "$got" = "${v#*:}" ] || fail "top one two ${va[*]}: $got, not ${v#*:} (go's merge by position)"
  got=$("$PCOL" fold "$tmp/one.pb" "$tmp/two.pb" "${va[@]}" | sum)
  [ "$got" = "${v#*:}" ] || fail "fold one two ${va[*]}: $got, not ${v#*:}"
  got=$("$PCOL" unpack "$tmp/one.pb" "$tmp/two.pb" "${va[@]}" --to collapsed -o - 2>/dev/null | sum)
  [ "$got" = "${v#*:}" ] || fail "collapsed export of one two ${va[*]}: $got, not ${v#*:}"
  got=$("$PCOL" traces "$tmp/one.pb" "$tmp/two.pb" "${va[@]}" --unit raw 2>/dev/null | awk '/^ *-?[0-9]+[A-Za-z]* /{ n += $1 + 0 } END { print n }')
  [ "$got" = "${v#*:}" ] || fail "traces one two ${va[*]}: $got, not ${v#*:}"
done
# the exports that write the value asked (perun, firefox, perfetto) write
# each source's column, read back as the views add it up, by default too
# (the Firefox copy weighed two.pb by its own kilobytes: rd16a F5); perun's memory
# style reads a coarser kin scaled (kb.pb's kilobytes were 0 bytes)
for x in perun:json: firefox:json: perfetto:pftrace: perun:json:inuse_space firefox:json:inuse_space perfetto:pftrace:inuse_space; do
  IFS=: read -r fmt ext v <<<"$x"
  va=(); want=4108; [ -n "$v" ] && va=(--value "$v") && want=3472
  "$PCOL" unpack "$tmp/one.pb" "$tmp/two.pb" "${va[@]}" --to "$fmt" -o "$tmp/x.$ext" 2>/dev/null || fail "$fmt export of one two ${va[*]}"
  rb=(--value inuse_space); [ "$fmt" = perun ] && rb=() # (perun's memory/B)
  got=$("$PCOL" top "$tmp/x.$ext" "${rb[@]}" --unit raw 2>/dev/null | total)
  [ "$got" = "$want" ] || fail "$fmt export of one two ${va[*]}: read back $got, not $want"
done
g kb.pb inuse_space:kilobytes 2,1:1 3,1:2
g b.pb inuse_space:bytes 2,1:100 3,1:300
"$PCOL" unpack "$tmp/kb.pb" "$tmp/b.pb" --to perun -o "$tmp/kbb.json" 2>/dev/null || fail "perun export of kb b"
got=$("$PCOL" top "$tmp/kbb.json" --unit raw 2>/dev/null | total)
[ "$got" = 3472 ] || fail "perun export of kb b: read back $got, not 3472 (kb's 3 kB scaled)"
g p1.pb x:kilobytes,x:kilobytes 2,1:0,5 3,1:2,2
g p2.pb x:bytes,x:kilobytes 2,1:100,1
"$PCOL" unpack "$tmp/p1.pb" "$tmp/p2.pb" --to pprof -o "$tmp/p12.pb.gz" 2>/dev/null || fail "pprof export p1 p2"
got=$("$PCOL" top "$tmp/p12.pb.gz" --value 1 --unit raw 2>/dev/null | total)
[ "$got" = 3 ] || fail "pprof export of p1 p2: its second column adds up to $got, not 3 (p1's (0, 5) dropped, as go)"
# p1 --diff-base p2 scales p1's x/kilobytes in its first place and not its
# second, which pcol's copy (a scale per type) cannot: refused (was 9116B,
# go -diff_base 1kB)
"$PCOL" top "$tmp/p1.pb" --diff-base "$tmp/p2.pb" >/dev/null 2>"$tmp/err"
[ $? = 1 ] && grep -q "x/kilobytes of the profile's source 1 is in two of its value types' places" "$tmp/err" ||
  fail "p1 --diff-base p2: not refused: $(cat "$tmp/err")"
for spec in "two:one:-2672" "one two:two:3072"; do
  IFS=: read -r new base want <<<"$spec"
  args=(); for n in $new; do args+=("$tmp/$n.pb"); done
  got=$("$PCOL" top "${args[@]}" --diff-base "$tmp/$base.pb" --value inuse_space --unit raw 2>/dev/null |
        sed -n 's/.*accounting for \([0-9-]*\)B,.*/\1/p')
  [ "$got" = "$want" ] || fail "top $new --diff-base $base --value inuse_space: $got, not $want (go's -diff_base)"
  if command -v go >/dev/null 2>&1; then
    "$PCOL" unpack "${args[@]}" --diff-base "$tmp/$base.pb" --to pprof -o "$tmp/d.pb.gz" 2>/dev/null ||
      fail "pprof export of $new --diff-base $base"
    gargs=(-diff_base "$base.pb"); for n in $new; do gargs+=("$n.pb"); done
    # (less the samples/count column the export adds, the first, for the
    # subtracted base's count: THE count column rule, xvalues.h; go's
    # -diff_base has no count, and go -sample_index=samples of the export
    # is pcol's --value samples of the diff)
    [ "$((cd "$tmp" && go tool pprof -raw d.pb.gz 2>/dev/null) | sed -n '/^Samples:/,/^Locations/p' |
         awk 'NR == 2 && sub(/^samples\/count /, "") { c = 1 } c && /^ +-?[0-9]+ / { sub(/^ +-?[0-9]+/, "") } { print }')" = \
      "$((cd "$tmp" && go tool pprof -raw "${gargs[@]}" 2>/dev/null) | sed -n '/^Samples:/,/^Locations/p')" ] ||
      fail "pprof export of $new --diff-base $base: go -raw of it is not go -raw -diff_base"
    [ "$((cd "$tmp" && go tool pprof -top -sample_index=samples d.pb.gz 2>/dev/null) | shown)" = \
      "$("$PCOL" top "${args[@]}" --diff-base "$tmp/$base.pb" --value samples | shown)" ] ||
      fail "pprof export of $new --diff-base $base: go -sample_index=samples of it is not pcol's --value samples"
    [ "$((cd "$tmp" && go tool pprof -top -sample_index=inuse_space "${gargs[@]}" 2>/dev/null) | shown)" = \
      "$("$PCOL" top "${args[@]}" --diff-base "$tmp/$base.pb" --value inuse_space | shown)" ] ||
      fail "top $new --diff-base $base --value inuse_space: not go's -diff_base"
  fi
done
if command -v go >/dev/null 2>&1; then
  for si in -sample_index=inuse_space "" -sample_index=0 -sample_index=1; do
    v=inuse_space; [ -z "$si" ] && v=; [ "$si" = -sample_index=0 ] && v=0; [ "$si" = -sample_index=1 ] && v=1
    va=(); [ -n "$v" ] && va=(--value "$v")
    "$PCOL" top "$tmp/one.pb" "$tmp/two.pb" "${va[@]}" >"$tmp/out" 2>/dev/null || fail "top one two ${va[*]}"
    [ "$((cd "$tmp" && go tool pprof -top $si one.pb two.pb 2>/dev/null) | shown)" = "$(shown <"$tmp/out")" ] ||
      fail "top one two ${va[*]}: not go -top $si"
  done
  [ "$((cd "$tmp" && go tool pprof -traces -sample_index=inuse_space one.pb two.pb 2>/dev/null) | sed -n '/^---/,$p')" = \
    "$("$PCOL" traces "$tmp/one.pb" "$tmp/two.pb" --value inuse_space 2>/dev/null | sed -n '/^---/,$p')" ] ||
    fail "traces one two --value inuse_space: not go -traces"
  [ "$((cd "$tmp" && go tool pprof -raw p12.pb.gz 2>/dev/null) | sed -n '/^Samples:/,/^Locations/p')" = \
    "$((cd "$tmp" && go tool pprof -raw p1.pb p2.pb 2>/dev/null) | sed -n '/^Samples:/,/^Locations/p')" ] ||
    fail "pprof export of p1 p2: go -raw of it is not go -raw of the inputs"
fi
# ---- 22. the default of a --diff-base of kin sides: go's last column
# (the diff's sources list inuse_space/bytes twice; each side's own
# default, its last type, paired by position)
for b in "" diff-; do
  got=$("$PCOL" top "$tmp/two.pb" --${b}base "$tmp/one.pb" --unit raw 2>/dev/null |
        sed -n 's/.*accounting for \([0-9-]*\)B,.*/\1/p')
  [ "$got" = 4084 ] || fail "top two --${b}base one (default): $got, not 4084 (go's last column; -2672: the first)"
done
got=$("$PCOL" fold "$tmp/two.pb" --diff-base "$tmp/one.pb" | sum)
[ "$got" = 4084 ] || fail "fold two --diff-base one: $got, not 4084"
got=$("$PCOL" unpack "$tmp/two.pb" --diff-base "$tmp/one.pb" --to collapsed -o - 2>/dev/null | sum)
[ "$got" = 4084 ] || fail "collapsed export of two --diff-base one: $got, not 4084"
"$PCOL" unpack "$tmp/two.pb" --diff-base "$tmp/one.pb" --to pprof -o "$tmp/d21.pb.gz" 2>/dev/null || fail "pprof export of two --diff-base one"
got=$("$PCOL" top "$tmp/d21.pb.gz" --unit raw 2>/dev/null | sed -n 's/.*accounting for \([0-9-]*\)B,.*/\1/p')
[ "$got" = 4084 ] || fail "the pprof export of two --diff-base one read back: $got, not 4084"
# its count: the subtracted base's column (the first, THE count column rule)
# reads back as the diff counts (before, no column where the default's type
# is in two: read back, every row of the labelled source was negated, -4)
for b in "" diff-; do
  "$PCOL" unpack "$tmp/two.pb" --${b}base "$tmp/one.pb" --to pprof -o "$tmp/c21.pb.gz" 2>/dev/null || fail "pprof export of two --${b}base one"
  for u in "$tmp/c21.pb.gz" "$tmp/two.pb --${b}base $tmp/one.pb"; do
    got=$("$PCOL" top $u --value samples --unit raw 2>/dev/null | sed -n 's/.*accounting for \([0-9-]*\),.*/\1/p')
    [ "$got" = 0 ] || fail "top $u --value samples: $got, not 0 (two rows less two)"
  done
  got=$("$PCOL" top "$tmp/c21.pb.gz" --unit raw 2>/dev/null | sed -n 's/.*accounting for \([0-9-]*\)B,.*/\1/p')
  [ "$got" = 4084 ] || fail "the pprof export of two --${b}base one read back: $got, not 4084"
done
if command -v go >/dev/null 2>&1; then
  for v in top traces tree; do
    for b in diff_base base; do
      [ "$((cd "$tmp" && go tool pprof -$v -$b one.pb two.pb 2>/dev/null) | sed -n '/^Showing\|^---/,$p')" = \
        "$("$PCOL" $v "$tmp/two.pb" --${b/_/-} "$tmp/one.pb" 2>/dev/null | sed -n '/^Showing\|^---/,$p')" ] ||
        fail "$v two --${b/_/-} one: not go -$v -$b"
    done
  done
  [ "$((cd "$tmp" && go tool pprof -peek 'alpha|beta' -diff_base one.pb two.pb 2>/dev/null) | sed -n '/flat/,$p')" = \
    "$("$PCOL" peek "$tmp/two.pb" 'alpha|beta' --diff-base "$tmp/one.pb" 2>/dev/null | sed -n '/flat/,$p')" ] ||
    fail "peek two --diff-base one: not go -peek -diff_base"
  [ "$((cd "$tmp" && go tool pprof -top d21.pb.gz 2>/dev/null) | sed -n '/^Showing/,$p')" = \
    "$("$PCOL" top "$tmp/d21.pb.gz" 2>/dev/null | sed -n '/^Showing/,$p')" ] ||
    fail "top of the pprof export of two --diff-base one: not go -top of it"
fi
# ---- 23. the merged default where one file names default_sample_type
T3=samples:count,inuse_space:kilobytes,inuse_space:bytes
g a2.pb $T3 default=inuse_space 2,1:1,3,5 3,1:2,4,7
g c2.pb $T3 2,1:1,3,5 3,1:2,4,7
g a3.pb $T3 default=inuse_space 2,1:1,1,5 3,1:2,2,7
g c3.pb $T3 2,1:1,1,5 3,1:2,2,7
g h3.pb $T3 default=samples 2,1:3,1,5 3,1:4,2,9
g k3.pb samples:count,inuse_space:megabytes,inuse_space:bytes 2,1:1,1,5 3,1:2,0,7
for o in "a2 c2" "c2 a2"; do
  args=(); for n in $o; do args+=("$tmp/$n.pb"); done
  got=$("$PCOL" top "${args[@]}" --unit raw 2>/dev/null | total)
  [ "$got" = 14336 ] || fail "top $o (default): $got, not 14336 (go: a2's inuse_space, the kilobytes column)"
  got=$("$PCOL" fold "${args[@]}" | sum)
  [ "$got" = 14336 ] || fail "fold $o: $got, not 14336"
  got=$("$PCOL" traces "${args[@]}" --unit raw 2>/dev/null | awk '/^ *-?[0-9]+[A-Za-z]* /{ n += $1 + 0 } END { print n }')
  [ "$got" = 14336 ] || fail "traces $o: $got, not 14336"
  "$PCOL" unpack "${args[@]}" --to pprof -o "$tmp/ac.pb.gz" 2>/dev/null || fail "pprof export of $o"
  got=$("$PCOL" top "$tmp/ac.pb.gz" --unit B 2>/dev/null | total)
  [ "$got" = 14336 ] || fail "the pprof export of $o read back: $got, not 14336"
done
if command -v go >/dev/null 2>&1; then
  for o in "a2 c2" "c2 a2" "a3 c3 h3" "h3 c3 a3" "c3 a3 h3" "a3 k3" "k3 a3" "c3 k3"; do
    args=(); gargs=(); for n in $o; do args+=("$tmp/$n.pb"); gargs+=("$n.pb"); done
    # (go's "Dropped N nodes (cum <= X)" too: X is go's cut in its merged
    # unit, a3 k3's 5kB, not 0.005 of the total read in bytes, 5258B)
    for v in top traces tree top:B tree:B top:kB; do
      u=${v#*:} v=${v%%:*}; [ "$u" = "$v" ] && u=
      [ -n "$u" ] && [[ "$o" = *h3* ]] && continue # (samples: pcol refuses a unit of bytes, go prints 13B)
      [ "$((cd "$tmp" && go tool pprof -$v ${u:+-unit=$u} "${gargs[@]}" 2>/dev/null) | sed -n '/^Showing\|^---/,$p')" = \
        "$("$PCOL" $v "${args[@]}" ${u:+--unit $u} 2>/dev/null | sed -n '/^Showing\|^---/,$p')" ] || fail "$v $u $o: not go -$v"
    done
  done
  [ "$((cd "$tmp" && go tool pprof -top ac.pb.gz 2>/dev/null) | sed -n '/^Showing/,$p')" = \
    "$("$PCOL" top "$tmp/c2.pb" "$tmp/a2.pb" 2>/dev/null | sed -n '/^Showing/,$p')" ] ||
    fail "go -top of the pprof export of c2 a2: not pcol top c2 a2"
fi
# ---- 24. a side listing its types in other orders, diffed
g rA.pb samples:count,inuse_space:kilobytes 2,1:1,0 3,1:2,3
g rB.pb inuse_space:bytes,samples:count 2,1:500,4 3,1:0,8
g rC.pb samples:count,inuse_space:kilobytes 2,1:1,1
for v in samples:13:raw inuse_space:2548:B; do
  IFS=: read -r v want u <<<"$v"
  new=$("$PCOL" top "$tmp/rA.pb" "$tmp/rB.pb" --value "$v" --unit "$u" 2>/dev/null | total)
  old=$("$PCOL" top "$tmp/rC.pb" --value "$v" --unit "$u" 2>/dev/null | total)
  got=$("$PCOL" top "$tmp/rA.pb" "$tmp/rB.pb" --diff-base "$tmp/rC.pb" --value "$v" --unit "$u" 2>/dev/null |
        sed -n 's/.*accounting for \([0-9-]*\)B*,.*/\1/p')
  [ "$got" = "$((new - old))" ] && [ "$got" = "$want" ] ||
    fail "top rA rB --diff-base rC --value $v: $got, not $new - $old = $want"
done
# ---- 25. --normalize scales each column by its own ratio, as go
g dd.pb x:bytes,x:bytes 2,1:10,20 3,1:30,40
g nb.pb x:bytes,x:bytes 2,1:100,1000 3,1:300,1000
# (-base: the total is that of the |values|, 666 B; --value 0: every row 0)
for spec in "diff-::0 2000:-333 alpha;333 beta;" "::0 666:-333 alpha;333 beta;" "diff-:0:0 400:" ":0:0 0:"; do
  IFS=: read -r b vv want rows <<<"$spec"
  va=(); [ -n "$vv" ] && va=(--value "$vv")
  "$PCOL" top "$tmp/dd.pb" --${b}base "$tmp/nb.pb" --normalize "${va[@]}" --unit raw >"$tmp/out" 2>/dev/null ||
    fail "top dd --${b}base nb --normalize ${va[*]}"
  got=$(sed -n 's/.*accounting for \([0-9-]*\)B*, .* of \([0-9]*\)B* total.*/\1 \2/p' "$tmp/out")
  [ "$got" = "$want" ] || fail "top dd --${b}base nb --normalize ${va[*]}: '$got', not '$want' (go -normalize)"
  got=$(awk '$NF == "alpha" || $NF == "beta" { sub(/B$/, "", $1); printf "%s %s;", $1, $NF }' "$tmp/out")
  [ "$got" = "$rows" ] || fail "top dd --${b}base nb --normalize ${va[*]}: rows '$got', not '$rows' (go -normalize)"
done
if command -v go >/dev/null 2>&1; then
  for si in "" -sample_index=0; do
    va=(); [ -n "$si" ] && va=(--value 0)
    [ "$((cd "$tmp" && go tool pprof -top -unit=B $si -normalize -diff_base nb.pb dd.pb 2>/dev/null) | shown)" = \
      "$("$PCOL" top "$tmp/dd.pb" --diff-base "$tmp/nb.pb" --normalize "${va[@]}" --unit B 2>/dev/null | shown)" ] ||
      fail "top dd --diff-base nb --normalize ${va[*]}: not go -top $si -normalize"
  done
  "$PCOL" unpack "$tmp/dd.pb" --diff-base "$tmp/nb.pb" --normalize --to pprof -o "$tmp/ddn.pb.gz" 2>/dev/null ||
    fail "pprof export of dd --diff-base nb --normalize"
  [ "$((cd "$tmp" && go tool pprof -raw ddn.pb.gz 2>/dev/null) | sed -n '/^Samples:/,/^Locations/p')" = \
    "$((cd "$tmp" && go tool pprof -raw -normalize -diff_base nb.pb dd.pb 2>/dev/null) | sed -n '/^Samples:/,/^Locations/p')" ] ||
    fail "pprof export of dd --diff-base nb --normalize: go -raw of it is not go -raw -normalize -diff_base"
fi
exit 0
