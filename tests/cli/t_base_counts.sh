#!/usr/bin/env bash
# --base/--diff-base of sources whose count IS their weight (collapsed
# stacks, perf script, OTLP/eBPF: no samples/count type) subtract the
# base's samples in every view and every export, as go tool pprof
# -base/-diff_base subtracts the samples/count column of their pprof
# copies (review rd13a F1: the exports added them, 17 where go says -1).
# THE count rule (lib/core/count.h pcol_count_types: PCOL_COUNT_NEG), and
# the time rule's Rprof time and memory (pcol_rtime.base), last below.
#
# Table: pairs (A, B) of such inputs x --base/--diff-base.  The reference
# is go over copies made of each file alone (no base: A and B written as
# collapsed counts, then as pprof, whose samples/count go reads):
#   views:   top, traces (go -top, -traces: equal but the File: line),
#            fold, tree, peek (equal to the same view of the pprof copies)
#   exports: pprof (go -top of it equals go's), collapsed, otlp, firefox
#            (pcol top of the copy: flat and cum of each function equal
#            go's, and its total the difference's: the copies mark the
#            -diff_base's samples, pprof::base, where the format can: a
#            label, an OTLP attribute, Firefox's pcolBase; where it cannot,
#            collapsed lines of a -diff_base, Firefox threads of a -base,
#            a note says the total read back differs); speedscope, perun, rprof,
#            perfetto (a negative count they cannot hold: refused, or
#            warned of and left out, never added: the copy counts no more
#            than A alone).
# The go comparisons are skipped without go; the OTLP pair without the
# test data.
set -u
PCOL=${PCOL:-build/bin/pcol}
TD=${PCOL_TESTDATA:-../shared/testdata}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_base_counts: FAIL: $*" >&2; exit 1; }
GO=1
command -v go >/dev/null || GO=0

printf 'main;f 5\nmain;g 3\n' >"$tmp/fa.folded"
printf 'main;f 2\nmain;h 4\nmain;g 3\n' >"$tmp/fb.folded"
python3 tests/support/gen_perf_script.py "$tmp/pa.txt" /dev/null --samples 60 --seed 3 --events 1 || fail "gen_perf_script a"
python3 tests/support/gen_perf_script.py "$tmp/pb.txt" /dev/null --samples 40 --seed 5 --events 1 || fail "gen_perf_script b"
pairs="fa.folded:fb.folded pa.txt:pb.txt"
EBPF="$TD/ext/pprof/ODD-otlp-ebpf-profile.pb.bin"
if [ -f "$EBPF" ]; then # its two processes, each an OTLP profile alone
  "$PCOL" unpack "$EBPF" --source 1 --to otlp -o "$tmp/oa.otlp" 2>/dev/null || fail "unpack ebpf --source 1"
  "$PCOL" unpack "$EBPF" --source 2 --to otlp -o "$tmp/ob.otlp" 2>/dev/null || fail "unpack ebpf --source 2"
  pairs="$pairs oa.otlp:ob.otlp"
else
  echo "t_base_counts: no $EBPF: the OTLP pair skipped" >&2
fi

# the rows of a top: "flat cum name", sorted (percentages left out; names
# as the collapsed copies spell them: ';' is '_' there, and no "(inline)")
rows() {
  awk 'f && NF >= 6 { n = $6; for (i = 7; i <= NF; i++) n = n " " $i; sub(/ \(inline\)$/, "", n)
                      gsub(/;/, "_", n); print $1, $4, n } /flat%/ { f = 1 }' "$1" | sort
}
# what a top accounts for (the first number of "Showing nodes accounting for X, ...")
shown() { sed -n 's/^Showing nodes accounting for \([^,]*\),.*/\1/p' "$1"; }
# and its total ("... of T total")
of_total() { sed -n 's/^Showing nodes accounting for .* of \(.*\) total$/\1/p' "$1"; }

for p in $pairs; do
  A=${p%%:*} B=${p##*:}
  # the references: each alone, its counts as collapsed lines, then pprof
  for f in "$A" "$B"; do
    "$PCOL" unpack "$tmp/$f" --to collapsed --value samples -o "$tmp/$f.c.folded" 2>/dev/null || fail "unpack $f --to collapsed"
    "$PCOL" unpack "$tmp/$f.c.folded" --to pprof -o "$tmp/$f.pb.gz" 2>/dev/null || fail "unpack $f.c.folded --to pprof"
  done
  "$PCOL" top "$tmp/$A" --value samples >"$tmp/alone.txt" 2>/dev/null || fail "top $A"
  alone=$(shown "$tmp/alone.txt")
  for m in base diff-base; do
    gm=-${m/-/_}
    what="$A --$m $B"
    if [ $GO = 1 ]; then
      go tool pprof -top -nodefraction=0 $gm="$tmp/$B.pb.gz" "$tmp/$A.pb.gz" >"$tmp/go.top" 2>/dev/null || fail "go $gm $what"
      go tool pprof -traces $gm="$tmp/$B.pb.gz" "$tmp/$A.pb.gz" >"$tmp/go.tr" 2>/dev/null || fail "go -traces $gm $what"
      rows "$tmp/go.top" >"$tmp/go.rows"
      [ -s "$tmp/go.rows" ] || fail "go $gm $what: no rows"
    fi
    # views
    "$PCOL" top "$tmp/$A" --$m "$tmp/$B" --value samples --node-fraction 0 >"$tmp/pc.top" 2>"$tmp/err" || fail "top $what: $(head -3 "$tmp/err")"
    "$PCOL" traces "$tmp/$A" --$m "$tmp/$B" --value samples >"$tmp/pc.tr" 2>"$tmp/err" || fail "traces $what: $(head -3 "$tmp/err")"
    if [ $GO = 1 ] && [ "$A" = fa.folded ]; then # (no labels: go's copies are the inputs)
      for v in top tr; do
        grep -v '^File: \|^Duration: \|^Time: \|^Type: ' "$tmp/pc.$v" >"$tmp/a.cmp"
        grep -v '^File: \|^Duration: \|^Time: \|^Type: \|^Main binary filename' "$tmp/go.$v" >"$tmp/b.cmp"
        cmp -s "$tmp/a.cmp" "$tmp/b.cmp" || fail "pcol $v $what is not go's: $(diff "$tmp/a.cmp" "$tmp/b.cmp" | head -8)"
      done
    elif [ $GO = 1 ]; then # (labels, which the copies lose: pprof groups the base's samples by
      # them, so the totals differ; each function's flat and cum are go's, and the traces add up to them)
      rows "$tmp/pc.top" >"$tmp/pc.rows"
      cmp -s "$tmp/pc.rows" "$tmp/go.rows" || fail "pcol top $what is not go's: $(diff "$tmp/pc.rows" "$tmp/go.rows" | head -8)"
      n=$(awk '/^-+\+-+$/ { t = 1; next } t && $1 ~ /^-?[0-9]/ { s += $1; t = 0 } END { print s + 0 }' "$tmp/pc.tr")
      [ "$n" = "$(shown "$tmp/go.top")" ] || fail "pcol traces $what add up to $n, go's top to $(shown "$tmp/go.top")"
    fi
    for c in fold tree peek; do
      arg=; [ $c = peek ] && arg=.
      "$PCOL" $c "$tmp/$A" --$m "$tmp/$B" --value samples $arg >"$tmp/x1" 2>"$tmp/err" || fail "$c $what: $(head -3 "$tmp/err")"
      "$PCOL" $c "$tmp/$A.pb.gz" --$m "$tmp/$B.pb.gz" --value samples $arg >"$tmp/x2" 2>"$tmp/err" || fail "$c of the copies ($what): $(head -3 "$tmp/err")"
      if [ $c = fold ] || [ "$A" = fa.folded ]; then
        grep -v '^File: ' "$tmp/x1" >"$tmp/a.cmp"
        grep -v '^File: ' "$tmp/x2" >"$tmp/b.cmp"
        cmp -s "$tmp/a.cmp" "$tmp/b.cmp" || fail "$c $what is not the pprof copies': $(diff "$tmp/a.cmp" "$tmp/b.cmp" | head -8)"
      elif [ $GO = 1 ]; then # (labels: the totals differ, see top)
        [ "$(shown "$tmp/x1")" = "$(shown "$tmp/go.top")" ] ||
          fail "$c $what accounts for $(shown "$tmp/x1"), go's top for $(shown "$tmp/go.top")"
      fi
    done
    # exports that hold a negative count: read back, the rows are go's
    for fmt in pprof collapsed otlp firefox; do
      out="$tmp/x.$fmt"
      vopt=; [ $fmt = collapsed ] || [ $fmt = firefox ] && vopt="--value samples"
      "$PCOL" unpack "$tmp/$A" --$m "$tmp/$B" --to $fmt $vopt -o "$out" 2>"$tmp/err" || fail "unpack $what --to $fmt: $(head -3 "$tmp/err")"
      [ $GO = 1 ] || continue
      if [ $fmt = pprof ] && go tool pprof -raw "$out" 2>/dev/null | grep -q '^samples/count'; then
        # (the subtracted base's count column, the first: THE count column rule)
        go tool pprof -top -nodefraction=0 -sample_index=samples "$out" >"$tmp/c.top" 2>/dev/null || fail "go -top of $what --to pprof"
        if [ "$A" = fa.folded ]; then
          grep -v '^File: \|^Duration: \|^Time: \|^Type: \|^Main binary filename' "$tmp/c.top" >"$tmp/a.cmp"
          grep -v '^File: \|^Duration: \|^Time: \|^Type: \|^Main binary filename' "$tmp/go.top" >"$tmp/b.cmp"
          cmp -s "$tmp/a.cmp" "$tmp/b.cmp" || fail "go -top of $what --to pprof is not go's of the copies: $(diff "$tmp/a.cmp" "$tmp/b.cmp" | head -8)"
        else # (labels, which go's copies lose: each function's flat and cum; the total pcol top's)
          rows "$tmp/c.top" >"$tmp/c.rows"
          cmp -s "$tmp/c.rows" "$tmp/go.rows" || fail "go -top of $what --to pprof is not go's of the copies: $(diff "$tmp/c.rows" "$tmp/go.rows" | head -8)"
          [ "$(of_total "$tmp/c.top")" = "$(of_total "$tmp/pc.top")" ] ||
            fail "go -top of $what --to pprof totals $(of_total "$tmp/c.top"), pcol top $(of_total "$tmp/pc.top")"
        fi
      fi
      cp "$tmp/err" "$tmp/unpack.err"
      "$PCOL" top "$out" --value samples --node-fraction 0 >"$tmp/c.top" 2>"$tmp/err" || fail "top of $what --to $fmt: $(head -3 "$tmp/err")"
      rows "$tmp/c.top" >"$tmp/c.rows"
      cmp -s "$tmp/c.rows" "$tmp/go.rows" || fail "$what --to $fmt read back is not go's: $(diff "$tmp/c.rows" "$tmp/go.rows" | head -8)"
      # its total: the difference's (go's -diff_base: the base's; -base: per
      # stack and label set), or a note says the copy's differs (collapsed
      # lines do not say which are the base's; Firefox threads keep a
      # -base's apart), never a silent other one (it was every sample's |count|)
      if { [ $fmt = collapsed ] && [ $m = diff-base ]; } || { [ $fmt = firefox ] && [ $m = base ]; }; then
        grep -q 'read back, the total (the shares. 100%) is' "$tmp/unpack.err" ||
          fail "unpack $what --to $fmt: its total read back differs, and no note says so: $(head -3 "$tmp/unpack.err")"
      elif [ $fmt != collapsed ] || [ "$A" = fa.folded ]; then # (collapsed: the labels it loses group -base's sums)
        [ "$(of_total "$tmp/c.top")" = "$(of_total "$tmp/pc.top")" ] ||
          fail "$what --to $fmt read back totals $(of_total "$tmp/c.top"), the difference $(of_total "$tmp/pc.top")"
        ! grep -q 'read back, the total' "$tmp/unpack.err" || fail "unpack $what --to $fmt: a note of a total it keeps"
      fi
    done
    # exports that cannot hold one: refused, or left out with a warning
    for fmt in speedscope perun rprof perfetto; do
      out="$tmp/x.$fmt"
      vopt="--value samples"; [ $fmt = speedscope ] && vopt= # (a profile of each value)
      if ! "$PCOL" unpack "$tmp/$A" --$m "$tmp/$B" --to $fmt $vopt -o "$out" 2>"$tmp/err"; then
        grep -q 'negative' "$tmp/err" || fail "unpack $what --to $fmt refused, not for a negative count: $(head -3 "$tmp/err")"
        continue
      fi
      grep -q 'negative\|below 0' "$tmp/err" || fail "unpack $what --to $fmt: no word of the negative counts left out: $(head -3 "$tmp/err")"
      "$PCOL" top "$out" --value samples >"$tmp/c.top" 2>/dev/null || fail "top of $what --to $fmt"
      n=$(shown "$tmp/c.top")
      [ "${n:-0}" -le "$alone" ] 2>/dev/null ||
        fail "$what --to $fmt counts $n, more than $A alone ($alone): the base added"
    done
  done
done
# Rprof sources (memory profiles): the count (ticks), the time rule's cpu and
# rprof.alloc are made from the samples too, and subtracted as go subtracts
# the columns of their pprof copies: top and the pprof export, line for line
M1="$TD/rprof/r-prof-profile__memory.out" M2=tests/fixtures/rprof/memgc-snapshots.out
if [ $GO = 1 ] && [ -f "$M1" ]; then
  "$PCOL" unpack "$M1" --to pprof -o "$tmp/m1.pb.gz" 2>/dev/null || fail "unpack $M1 --to pprof"
  "$PCOL" unpack "$M2" --to pprof -o "$tmp/m2.pb.gz" 2>/dev/null || fail "unpack $M2 --to pprof"
  for m in base diff-base; do
    gm=-${m/-/_}
    "$PCOL" unpack "$M1" --$m "$M2" --to pprof -o "$tmp/mx.pb.gz" 2>/dev/null || fail "unpack $M1 --$m $M2 --to pprof"
    for v in samples cpu rprof.alloc; do
      what="$(basename "$M1") --$m $(basename "$M2") --value $v"
      go tool pprof -top -nodefraction=0 -sample_index=$v $gm="$tmp/m2.pb.gz" "$tmp/m1.pb.gz" 2>/dev/null |
        grep -v '^File: \|^Duration: \|^Time: \|^Type: \|^Main binary filename' >"$tmp/b.cmp"
      grep -q '^Showing nodes' "$tmp/b.cmp" || fail "go $gm $what: no top"
      "$PCOL" top "$M1" --$m "$M2" --value $v --node-fraction 0 2>"$tmp/err" |
        grep -v '^File: \|^Duration: \|^Time: \|^Type: ' >"$tmp/a.cmp"
      cmp -s "$tmp/a.cmp" "$tmp/b.cmp" || fail "top $what is not go's: $(head -2 "$tmp/err") $(diff "$tmp/a.cmp" "$tmp/b.cmp" | head -6)"
      go tool pprof -top -nodefraction=0 -sample_index=$v "$tmp/mx.pb.gz" 2>/dev/null |
        grep -v '^File: \|^Duration: \|^Time: \|^Type: \|^Main binary filename' >"$tmp/a.cmp"
      cmp -s "$tmp/a.cmp" "$tmp/b.cmp" || fail "go -top of $what --to pprof is not go's of the copies: $(diff "$tmp/a.cmp" "$tmp/b.cmp" | head -6)"
    done
  done
fi
# --normalize (go's -normalize: the profile scaled by the base's sum over its
# own, per sample type of the pprof copies, rounded as ScaleN rounds) of
# sources whose count is their weight (collapsed), whose time is made from
# it (Rprof: samples, cpu, rprof.alloc), that store values and count by the weight
# (perf script) and that store both (V8): pcol on the native files equals go
# -normalize on pcol's pprof copies of each alone (review 20 F1: -234 where
# go says -11, exit 0; then refused outright).  top and traces against go;
# tree, fold, peek and graph against pcol on the copies; both orders, and the profile's
# pprof copy against the native base.  Where go refuses (perf's copy has no
# samples/count: -sample_index=samples), pcol refuses too, naming the
# source, and prints nothing (an export too).  The pprof export of each
# (`unpack --to pprof`): go -top of it equals go's -normalize of the copies.
# Also review 20 F3: two Rprof runs' default value (time) under
# --diff-base/--base, without --normalize.
J1="$TD/ext/collapsed/flamegraph__perf-java-stacks-01-collapsed-all.txt"
J2="$TD/ext/collapsed/flamegraph__perf-vertx-stacks-01-collapsed-all.txt"
R1="$TD/rprof/proftools__Rprof-rec.out"
R2="$TD/rprof/proftools__Rprof-rec1.out"
python3 tests/support/v8gen.py random "$tmp/va.cpuprofile" 11 || fail "v8gen a"
python3 tests/support/v8gen.py random "$tmp/vb.cpuprofile" 12 || fail "v8gen b"
ncmp=0
strip() { grep -v '^File: \|^Duration: \|^Time: \|^Type: \|^Main binary filename'; }
cp "$M1" "$tmp/m1.out" 2>/dev/null
cp "$M2" "$tmp/m2.out"
for f in "$J1" "$J2" "$R1" "$R2"; do [ -f "$f" ] && cp "$f" "$tmp/"; done
for pair in fa.folded:fb.folded:: fa.folded:fb.folded:plain: "$(basename "$J1"):$(basename "$J2")::" \
  "$(basename "$R1"):$(basename "$R2")::" "$(basename "$R1"):$(basename "$R2"):samples:" \
  "$(basename "$R1"):$(basename "$R2"):plain:" m1.out:m2.out:: m1.out:m2.out:samples: m1.out:m2.out:rprof.alloc: \
  pa.txt:pb.txt:: va.cpuprofile:vb.cpuprofile:: va.cpuprofile:vb.cpuprofile:samples:; do
  A=${pair%%:*} rest=${pair#*:}
  B=${rest%%:*} v=${rest#*:}
  v=${v%:}
  [ -f "$tmp/$A" ] && [ -f "$tmp/$B" ] || continue
  norm=--normalize gnorm=-normalize
  [ "$v" = plain ] && v= norm= gnorm= # (F3: no --normalize)
  vopt=() gv=()
  [ -n "$v" ] && vopt=(--value "$v") gv=(-sample_index="$v")
  for f in "$A" "$B"; do
    "$PCOL" unpack "$tmp/$f" --to pprof -o "$tmp/$f.n.pb.gz" 2>/dev/null || fail "unpack $f --to pprof"
  done
  for m in base diff-base; do
    gm=-${m/-/_}
    for order in ab ba pa; do
      case $order in
        ab) X=$tmp/$A Y=$B XP=$tmp/$A.n.pb.gz ;;
        ba) X=$tmp/$B Y=$A XP=$tmp/$B.n.pb.gz ;;
        pa) X=$tmp/$A.n.pb.gz Y=$B XP=$X ;; # (a pprof source and another kind's frames are one
                                             # stack, as go merges the copies: 17 where go said 7)
      esac
      YP=$tmp/$Y.n.pb.gz
      what="$(basename "$X") --$m $Y $norm ${vopt[*]}"
      for view in top traces tree fold peek graph; do
        o=() go=()
        [ $view = top ] || [ $view = tree ] && o=(--node-fraction 0) go=(-nodefraction=0)
        [ $view = peek ] && o=(.)
        "$PCOL" $view "$X" --$m "$tmp/$Y" $norm "${vopt[@]}" "${o[@]}" >"$tmp/out" 2>"$tmp/err"
        rc=$?
        if [ "$A" = pa.txt ] && [ "$v" = samples ]; then # go: sample_index "samples" must be one of: [cycles]
          [ $rc = 1 ] && grep -q -- '--normalize: source 1 (.*) of the profile counts its samples by their weight' "$tmp/err" &&
            [ ! -s "$tmp/out" ] || fail "$view $what: rc $rc, not refused as go refuses: $(head -c 300 "$tmp/out") $(head -2 "$tmp/err")"
          continue
        fi
        [ $rc = 0 ] || fail "$view $what: rc $rc: $(head -2 "$tmp/err")"
        strip <"$tmp/out" >"$tmp/a.cmp"
        case $view in
          top | traces)
            [ $GO = 1 ] || continue
            go tool pprof -$view "${go[@]}" $gnorm "${gv[@]}" $gm="$YP" "$XP" 2>&1 | strip >"$tmp/b.cmp"
            ;;
          tree | fold | peek | graph)
            "$PCOL" $view "$XP" --$m "$YP" $norm "${vopt[@]}" "${o[@]}" 2>&1 | strip | grep -v 'label="File: ' >"$tmp/b.cmp"
            grep -v 'label="File: ' "$tmp/a.cmp" >"$tmp/a2.cmp"
            mv "$tmp/a2.cmp" "$tmp/a.cmp"
            ;;
        esac
        cmp -s "$tmp/a.cmp" "$tmp/b.cmp" || fail "$view $what is not go's on the pprof copies: $(diff "$tmp/a.cmp" "$tmp/b.cmp" | head -8)"
        ncmp=$((ncmp + 1))
      done
      # the pprof export: go reads it as go -normalize reads the copies
      [ $GO = 1 ] && [ "$order" != pa ] || continue
      "$PCOL" unpack "$X" --$m "$tmp/$Y" $norm --to pprof -o "$tmp/x.pb.gz" 2>"$tmp/err" || fail "unpack $what --to pprof: $(head -2 "$tmp/err")"
      if [ "$A" = pa.txt ] && [ "$v" = samples ]; then
        if "$PCOL" unpack "$X" --$m "$tmp/$Y" $norm --to collapsed --value samples -o "$tmp/x.folded" 2>"$tmp/err"; then
          fail "unpack $what --to collapsed: not refused"
        fi
        go tool pprof -raw "$tmp/x.pb.gz" 2>/dev/null | grep -q 'samples/count' &&
          fail "unpack $what --to pprof wrote a samples/count column (the profile's count, not normalized)"
        continue
      fi
      go tool pprof -top -nodefraction=0 "${gv[@]}" "$tmp/x.pb.gz" 2>&1 | strip >"$tmp/a.cmp"
      go tool pprof -top -nodefraction=0 $gnorm "${gv[@]}" $gm="$YP" "$XP" 2>&1 | strip >"$tmp/b.cmp"
      cmp -s "$tmp/a.cmp" "$tmp/b.cmp" || fail "go -top of unpack $what --to pprof is not go's of the copies: $(diff "$tmp/a.cmp" "$tmp/b.cmp" | head -8)"
    done
  done
done
[ $ncmp -ge 100 ] || fail "--normalize: only $ncmp comparisons"
# A pprof profile without samples/count whose samples hold negative values
# (a delta heap profile, real; go's -proto -base of count-less profiles,
# below) is a difference whose rows are no raw samples: go refuses
# -sample_index=samples there, and so does pcol (count.h
# pcol_count_unmarked_diff; it counted 4942 rows, exit 0); its report
# offers no samples; a heap profile without negatives still counts its rows.
DELTA="$TD/pprof/go-heap-delta-negative-values.pb.gz"
if [ -f "$DELTA" ]; then
  "$PCOL" top "$DELTA" --value samples >"$tmp/p.out" 2>"$tmp/err" &&
    fail "top --value samples of a delta heap profile: exit 0, $(grep -m1 Total "$tmp/p.out")"
  grep -q 'without samples/count whose samples hold negative values' "$tmp/err" || fail "delta --value samples: $(head -2 "$tmp/err")"
  # "samples" glossed in --help's words (it said "each source's count of raw samples")
  gloss=$("$PCOL" top --help | grep -o "samples (each source[^)]*)")
  grep -qF "the value $gloss: source" "$tmp/err" || fail "delta --value samples: not --help's gloss ($gloss): $(head -2 "$tmp/err")"
  "$PCOL" top "$DELTA" --value inuse_space >/dev/null 2>"$tmp/err" || fail "top --value inuse_space of the delta profile: $(head -2 "$tmp/err")"
  "$PCOL" report "$DELTA" -o "$tmp/delta.html" 2>"$tmp/err" || fail "report of the delta profile: $(head -2 "$tmp/err")"
  grep -q '"cli":"samples"' "$tmp/delta.html" && fail "the report of the delta profile offers samples"
  grep -q '"cli":"inuse_space/bytes"' "$tmp/delta.html" || fail "the report of the delta profile offers no inuse_space"
  "$PCOL" top "$TD/pprof/go-heap-allocs-inline.pb.gz" --value samples >/dev/null 2>"$tmp/err" ||
    fail "top --value samples of a heap profile (its rows): $(head -2 "$tmp/err")"
fi
# go's own file of a difference: `go tool pprof -proto -diff_base=B A`
# marks the base's samples pprof::base = true, values negated, in ONE
# profile.  Of profiles without samples/count (go refuses -sample_index=
# samples there) pcol counts each row, a base's -1: it counted every row of
# the file -1 (a source with pprof::base samples was a base whole), -4
# where the diff counts 0.  The reference: go over the same profiles with a
# samples/count of 1 a row (each stack once a side: go merges none), whose
# -top -sample_index=samples is pcol's --value samples of the other; the
# default value go's -top of the file itself; the views (traces, tree,
# peek, fold) the same view of the counted file.  Then profiles WITH
# samples/count (stacks twice: go merges them), -diff_base and -base: each
# value and view of go's file is go's of it.
if [ $GO = 1 ]; then
  G=tests/support/pprofgen.py
  gen() { python3 "$G" typed "$tmp/$1" "$2" "${@:3}" || fail "pprofgen typed $1"; }
  strip() { grep -v '^File: \|^Duration: \|^Time: \|^Type: \|^Main binary filename' "$1"; }
  gen ga.pb cpu:nanoseconds 2,1:5000 3,1:3000 1:7000
  gen gb.pb cpu:nanoseconds 2,1:2000 3:4000
  gen gca.pb samples:count,cpu:nanoseconds 2,1:1,5000 3,1:1,3000 1:1,7000
  gen gcb.pb samples:count,cpu:nanoseconds 2,1:1,2000 3:1,4000
  gen gma.pb samples:count,cpu:nanoseconds 2,1:3,5000 3,1:1,3000 2,1:2,7000 1:4,1000
  gen gmb.pb samples:count,cpu:nanoseconds 2,1:2,2000 3:1,4000 3:5,6000 2,1:1,1000
  for m in diff_base base; do
    for pr in ga:gb:gca:gcb gma:gmb:gma:gmb; do
      IFS=: read -r A B CA CB <<<"$pr"
      what="go -proto -$m=$B $A"
      go tool pprof -proto -$m="$tmp/$B.pb" "$tmp/$A.pb" >"$tmp/d.pb.gz" 2>/dev/null || fail "$what"
      if [ $m = base ] && [ $A = ga ]; then
        # -base of count-less profiles marks nothing (rows merged across
        # sides, the base's negated): go refuses -sample_index=samples, and
        # so must pcol (it counted every row +1, the base's too: 4 where
        # pcol's own --base counts 1, exit 0); the default is go's
        go tool pprof -top -sample_index=samples "$tmp/d.pb.gz" >/dev/null 2>"$tmp/gerr" &&
          fail "go -top -sample_index=samples of $what: go no longer refuses it"
        grep -q 'sample_index "samples" must be one of' "$tmp/gerr" || fail "go's refusal of $what: $(head -2 "$tmp/gerr")"
        for c in top traces fold tree; do
          "$PCOL" $c "$tmp/d.pb.gz" --value samples >"$tmp/p.out" 2>"$tmp/err" &&
            fail "$c --value samples of $what (go refuses -sample_index=samples): exit 0, $(grep -m1 'Total\|Showing' "$tmp/p.out")"
          grep -q 'without samples/count whose samples hold negative values.*go tool pprof refuses -sample_index=samples' "$tmp/err" ||
            fail "$c --value samples of $what: not the count's refusal: $(head -2 "$tmp/err")"
        done
        "$PCOL" top "$tmp/ga.pb" --base "$tmp/gb.pb" --value samples --node-fraction 0 >"$tmp/p.top" 2>"$tmp/err" ||
          fail "top ga.pb --base gb.pb --value samples: $(head -2 "$tmp/err")"
        [ "$(shown "$tmp/p.top")" = 1 ] || fail "top ga.pb --base gb.pb --value samples: $(shown "$tmp/p.top"), not 3 - 2"
        go tool pprof -top -nodefraction=0 "$tmp/d.pb.gz" >"$tmp/g.top" 2>/dev/null || fail "go -top of $what"
        "$PCOL" top "$tmp/d.pb.gz" --node-fraction 0 >"$tmp/p.top" 2>"$tmp/err" || fail "top of $what: $(head -2 "$tmp/err")"
        strip "$tmp/g.top" >"$tmp/b.cmp"; strip "$tmp/p.top" >"$tmp/a.cmp"
        cmp -s "$tmp/a.cmp" "$tmp/b.cmp" || fail "top of $what (its default) is not go's: $(diff "$tmp/a.cmp" "$tmp/b.cmp" | head -8)"
        continue
      fi
      go tool pprof -proto -$m="$tmp/$CB.pb" "$tmp/$CA.pb" >"$tmp/dc.pb.gz" 2>/dev/null || fail "$what (counted)"
      # the default value: go's own
      go tool pprof -top -nodefraction=0 "$tmp/d.pb.gz" >"$tmp/g.top" 2>/dev/null || fail "go -top of $what"
      "$PCOL" top "$tmp/d.pb.gz" --node-fraction 0 >"$tmp/p.top" 2>"$tmp/err" || fail "top of $what: $(head -2 "$tmp/err")"
      strip "$tmp/g.top" >"$tmp/b.cmp"; strip "$tmp/p.top" >"$tmp/a.cmp"
      cmp -s "$tmp/a.cmp" "$tmp/b.cmp" || fail "top of $what (its default) is not go's: $(diff "$tmp/a.cmp" "$tmp/b.cmp" | head -8)"
      # the count: go's of the counted file
      go tool pprof -top -nodefraction=0 -sample_index=samples "$tmp/dc.pb.gz" >"$tmp/g.top" 2>/dev/null || fail "go -top -sample_index=samples of $what (counted)"
      go tool pprof -traces -sample_index=samples "$tmp/dc.pb.gz" >"$tmp/g.tr" 2>/dev/null || fail "go -traces of $what (counted)"
      "$PCOL" top "$tmp/d.pb.gz" --value samples --node-fraction 0 >"$tmp/p.top" 2>"$tmp/err" || fail "top --value samples of $what: $(head -2 "$tmp/err")"
      "$PCOL" traces "$tmp/d.pb.gz" --value samples >"$tmp/p.tr" 2>"$tmp/err" || fail "traces --value samples of $what: $(head -2 "$tmp/err")"
      for v in top tr; do
        strip "$tmp/g.$v" >"$tmp/b.cmp"; strip "$tmp/p.$v" >"$tmp/a.cmp"
        cmp -s "$tmp/a.cmp" "$tmp/b.cmp" || fail "$v --value samples of $what is not go's -sample_index=samples: $(diff "$tmp/a.cmp" "$tmp/b.cmp" | head -8)"
      done
      for c in fold tree peek; do
        arg=; [ $c = peek ] && arg=.
        "$PCOL" $c "$tmp/d.pb.gz" --value samples $arg 2>"$tmp/err" | grep -v '^File: ' >"$tmp/a.cmp" || fail "$c of $what: $(head -2 "$tmp/err")"
        "$PCOL" $c "$tmp/dc.pb.gz" --value samples $arg 2>/dev/null | grep -v '^File: ' >"$tmp/b.cmp"
        [ -s "$tmp/b.cmp" ] || fail "$c of $what (counted): nothing"
        cmp -s "$tmp/a.cmp" "$tmp/b.cmp" || fail "$c --value samples of $what is not that of the counted file: $(diff "$tmp/a.cmp" "$tmp/b.cmp" | head -8)"
      done
      # and its pprof copy: go reads there what pcol read (default and count)
      "$PCOL" unpack "$tmp/d.pb.gz" --to pprof -o "$tmp/dx.pb.gz" 2>/dev/null || fail "unpack $what --to pprof"
      go tool pprof -top -nodefraction=0 "$tmp/d.pb.gz" 2>/dev/null | strip /dev/stdin >"$tmp/b.cmp"
      go tool pprof -top -nodefraction=0 "$tmp/dx.pb.gz" 2>/dev/null | strip /dev/stdin >"$tmp/a.cmp"
      cmp -s "$tmp/a.cmp" "$tmp/b.cmp" || fail "go -top of $what --to pprof (its default) is not go's: $(diff "$tmp/a.cmp" "$tmp/b.cmp" | head -8)"
      go tool pprof -top -nodefraction=0 -sample_index=samples "$tmp/dc.pb.gz" 2>/dev/null | strip /dev/stdin >"$tmp/b.cmp"
      go tool pprof -top -nodefraction=0 -sample_index=samples "$tmp/dx.pb.gz" 2>/dev/null | strip /dev/stdin >"$tmp/a.cmp"
      cmp -s "$tmp/a.cmp" "$tmp/b.cmp" || fail "go -top -sample_index=samples of $what --to pprof is not go's of the counted file: $(diff "$tmp/a.cmp" "$tmp/b.cmp" | head -8)"
      # its OTLP and Firefox copies count as it does (pprof::base read back)
      "$PCOL" top "$tmp/d.pb.gz" --value samples --node-fraction 0 2>/dev/null | strip /dev/stdin >"$tmp/b.cmp"
      for fmt in otlp firefox; do
        "$PCOL" unpack "$tmp/d.pb.gz" --to $fmt -o "$tmp/dx.$fmt" 2>/dev/null || fail "unpack $what --to $fmt"
        "$PCOL" top "$tmp/dx.$fmt" --value samples --node-fraction 0 2>/dev/null | strip /dev/stdin >"$tmp/a.cmp"
        cmp -s "$tmp/a.cmp" "$tmp/b.cmp" || fail "top --value samples of $what --to $fmt is not the file's: $(diff "$tmp/a.cmp" "$tmp/b.cmp" | head -8)"
      done
    done
  done
fi
# A pprof profile whose frames are in a mapping of nothing (no file, no
# build id, 0 bytes at 0) with has_functions set (async-profiler's JFR
# pprof, Parca's) or of 0 to 2^64 - 1 (Pyroscope's), against its own
# collapsed copy (and the reverse): go keys that mapping as the fake one its
# driver gives the collapsed copy's pprof (no mappings), and the stacks of
# only such frames cancel; pcol kept them apart (9560000000 total where go
# says 8860000000, exit 0).  Real profiles, their sample type renamed
# samples/count (pprofgen.py retype: go pairs types by name) and top by
# function and by line (a line 0 of one is the other's none).
if [ $GO = 1 ]; then
  for f in ext/pprof/jfr-kafka-cpu.pb.gz:cpu=samples:nanoseconds=count \
    ext/pprof/parca-two-stacks.pb.gz:cpu=samples:nanoseconds=count ext/pprof/python-cpu-pyroscope.pb.gz; do
    IFS=: read -r -a fa <<<"$f"
    [ -f "$TD/${fa[0]}" ] || { echo "t_base_counts: no $TD/${fa[0]}: skipped" >&2; continue; }
    python3 tests/support/pprofgen.py retype "$TD/${fa[0]}" "$tmp/m.pb" "${fa[@]:1}" || fail "retype ${fa[0]}"
    "$PCOL" unpack "$tmp/m.pb" --to collapsed -o "$tmp/m.folded" 2>/dev/null || fail "unpack ${fa[0]} --to collapsed"
    "$PCOL" unpack "$tmp/m.folded" --to pprof -o "$tmp/mf.pb.gz" 2>/dev/null || fail "unpack its collapsed copy --to pprof"
    for m in base diff-base; do
      for by in function line; do
        gl=; [ $by = line ] && gl=-lines
        for o in "m.pb m.folded" "m.folded m.pb"; do
          read -r X Y <<<"$o"
          if [ "$X" = m.pb ]; then XP=$tmp/m.pb YP=$tmp/mf.pb.gz; else XP=$tmp/mf.pb.gz YP=$tmp/m.pb; fi
          what="$(basename "${fa[0]}") ($X --$m $Y --by $by)"
          go tool pprof -top $gl -nodefraction=0 -${m/-/_}="$YP" "$XP" 2>/dev/null | strip /dev/stdin >"$tmp/b.cmp"
          grep -q '^Showing nodes' "$tmp/b.cmp" || fail "go of $what: no top"
          "$PCOL" top "$tmp/$X" --$m "$tmp/$Y" --by $by --node-fraction 0 2>"$tmp/err" | strip /dev/stdin >"$tmp/a.cmp"
          cmp -s "$tmp/a.cmp" "$tmp/b.cmp" || fail "top $what is not go's: $(head -2 "$tmp/err") $(diff "$tmp/a.cmp" "$tmp/b.cmp" | head -6)"
        done
      done
    done
  done
fi
# a base sample labelled with another copy of "true" in the string table
# is a base sample too, as go reads strings (rd16a F3: the importer
# compared the index of the first "true", and counted it +1): --value
# samples +1 -1 -1, the base trace -2; the default value go's
python3 tests/support/pprofgen.py dupbase "$tmp/dup.pb" || fail "pprofgen dupbase"
"$PCOL" top "$tmp/dup.pb" --value samples >"$tmp/p.top" 2>"$tmp/err" || fail "top dup.pb --value samples: $(cat "$tmp/err")"
grep -q 'accounting for -1, 50.00% of 2 total' "$tmp/p.top" || fail "top dup.pb --value samples: $(grep accounting "$tmp/p.top")"
got=$("$PCOL" traces "$tmp/dup.pb" --value samples 2>/dev/null | awk '/^-+\+/ { b = 0 } /^pprof::base: +true/ { b = 1 } b && /^ +-?[0-9]+ / { print $1 }')
[ "$got" = -2 ] || fail "traces dup.pb --value samples: the base trace counts '$got', not -2"
if [ $GO = 1 ]; then
  for v in top traces; do
    go tool pprof -$v "$tmp/dup.pb" 2>/dev/null | strip /dev/stdin >"$tmp/b.cmp"
    "$PCOL" $v "$tmp/dup.pb" 2>/dev/null | strip /dev/stdin >"$tmp/a.cmp"
    cmp -s "$tmp/a.cmp" "$tmp/b.cmp" || fail "$v dup.pb is not go's: $(diff "$tmp/a.cmp" "$tmp/b.cmp" | head -8)"
  done
fi
exit 0
