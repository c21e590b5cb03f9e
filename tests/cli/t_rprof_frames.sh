#!/usr/bin/env bash
# Rprof line profiles by line and by file (review 20 F2).  Only top's table
# by line follows summaryRprof(lines = "show")'s rule (a frame without a
# srcref, <GC> or a builtin, gives its flat to the innermost calling line),
# and says so once in the words of the pprof export's note; the views of
# frames keep every frame, as go tool pprof does on pcol's own pprof copy:
#  - traces --by line|file = go tool pprof -traces -lines|-files of the copy
#    (traces dropped every frame without a srcref: a 6-frame stack printed
#    as one frame, two samples as one trace);
#  - tree --by line|file = go -tree -lines|-files of the copy (36 edges for
#    go's 87), top --by file = go -top -files (summaryRprof has no file
#    table: "<unknown>" for the frames without a file, as go);
#  - peek --by line = go -peek -lines of the copy, graph --by line = go
#    -dot -lines (dot_compare.py): go's views take go's rule (they took
#    top's: .Call lmsrc.R:30 flat 7.20s, go 6.66s and <GC> 0.54s);
#  - top --by line stays summaryRprof(lines = "show")'s by.self per line;
#  - top, diff and list (summaryRprof's rule) and tree, peek and graph
#    (go's) note the rule once by line, traces and --by file not, nor a
#    pprof copy.
set -u
PCOL=${PCOL:-build/bin/pcol}
TD=${PCOL_TESTDATA:-../shared/testdata}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_rprof_frames: $*" >&2; exit 1; }
note='by line, summaryRprof and `pcol top --by line` of Rprof sources give a frame without a line'
go=0
command -v go >/dev/null 2>&1 && go tool pprof -h >/dev/null 2>&1 && go=1
[ $go = 1 ] || echo "t_rprof_frames: go not installed: the go tool pprof comparisons are skipped"

for n in proftools__Rprof-lmfit-new aprof__lotka1_naiveL proftools__Rprof-dg; do
  in=$TD/rprof/$n.out
  [ -f "$in" ] || fail "missing $in"
  $PCOL unpack "$in" --to pprof -o "$tmp/$n.pb.gz" 2>/dev/null || fail "unpack $n --to pprof"
  for v in "traces lines line" "traces files file" "tree lines line" "tree files file" "top files file" \
           "peek lines line" "peek files file"; do
    set -- $v
    re=; [ "$1" = peek ] && re=.
    $PCOL "$1" "$in" $re --by "$3" >"$tmp/p" 2>"$tmp/err" || fail "$1 $n --by $3: $(cat "$tmp/err")"
    if { [ "$1" = tree ] || [ "$1" = peek ]; } && [ "$3" = line ]; then
      [ "$(grep -cF "$note" "$tmp/err")" = 1 ] || fail "$1 $n --by line: no note (once) of the rule: $(cat "$tmp/err")"
    else
      ! grep -qF summaryRprof "$tmp/err" || fail "$1 $n --by $3 notes the by-line rule: $(cat "$tmp/err")"
    fi
    [ $go = 1 ] || continue
    go tool pprof "-$1" $re "-$2" "$tmp/$n.pb.gz" 2>/dev/null | grep -v '^File: ' >"$tmp/g"
    grep -v '^File: ' "$tmp/p" >"$tmp/pp"
    [ -s "$tmp/g" ] && cmp -s "$tmp/g" "$tmp/pp" ||
      fail "$1 $n --by $3 differs from go tool pprof -$1 -$2 of the pprof copy:
$(diff "$tmp/g" "$tmp/pp" | head -20)"
  done
  # graph --by line|file: go -dot -lines|-files of the copy, the note by line
  for v in "lines line" "files file"; do
    set -- $v
    $PCOL graph "$in" --by "$2" --format dot >"$tmp/p.dot" 2>"$tmp/err" || fail "graph $n --by $2: $(cat "$tmp/err")"
    if [ "$2" = line ]; then
      [ "$(grep -cF "$note" "$tmp/err")" = 1 ] || fail "graph $n --by line: no note (once) of the rule: $(cat "$tmp/err")"
    fi
    [ $go = 1 ] || continue
    go tool pprof -dot "-$1" "$tmp/$n.pb.gz" 2>/dev/null >"$tmp/g.dot"
    python3 "$(dirname "$0")/../interop/dot_compare.py" "$tmp/g.dot" "$tmp/p.dot" >"$tmp/cmp" ||
      fail "graph $n --by $2 differs from go tool pprof -dot -$1 of the pprof copy: $(head -14 "$tmp/cmp")"
  done
  # diff and list count by summaryRprof's rule, as top: the note once
  # (once of a file diffed with itself: rd16a N2 said it twice; once an input)
  $PCOL diff "$in" "$in" --by line >/dev/null 2>"$tmp/err" || fail "diff $n --by line: $(cat "$tmp/err")"
  [ "$(grep -cF "$note" "$tmp/err")" = 1 ] || fail "diff $n $n --by line: not the note once: $(cat "$tmp/err")"
  cp "$in" "$tmp/again.out"
  $PCOL diff "$in" "$tmp/again.out" --by line >/dev/null 2>"$tmp/err" || fail "diff $n again --by line: $(cat "$tmp/err")"
  [ "$(grep -cF "$note" "$tmp/err")" = 2 ] && grep -q "note: .*again.out: by line" "$tmp/err" ||
    fail "diff $n again.out --by line: not the note once an input: $(cat "$tmp/err")"
  $PCOL list "$in" . --by file >/dev/null 2>"$tmp/err" || fail "list $n: $(cat "$tmp/err")"
  [ "$(grep -cF "$note" "$tmp/err")" = 1 ] || fail "list $n: no note (once) of the rule: $(cat "$tmp/err")"
  # the report page says the rule in top's words (page.js: by line, which
  # panel takes which; its graph = pcol graph: t_report_compute.sh)
  if [ "$n" = proftools__Rprof-lmfit-new ]; then
    $PCOL report "$in" -o "$tmp/r.html" 2>/dev/null || fail "report $n"
    $PCOL top "$in" --by line 2>&1 >/dev/null | sed -n 's/^pcol top: note: [^:]*: //p' >"$tmp/tn"
    python3 -c 'import json, re, sys
m = re.search(r"\"lines_note\":(\"(?:[^\"\\]|\\.)*\")", open(sys.argv[1], encoding="utf-8").read())
print(json.loads(m.group(1)) if m else "")' "$tmp/r.html" >"$tmp/rn"
    [ -s "$tmp/tn" ] && cmp -s "$tmp/tn" "$tmp/rn" || fail "the report page's by-line note: $(cat "$tmp/rn"), top's: $(cat "$tmp/tn")"
    grep -q "the call graph go tool pprof -dot -lines" "$tmp/r.html" || fail "the report page does not say its graph's rule"
  fi
  # the copy is read as go reads it, and says nothing of the rule
  $PCOL top "$tmp/$n.pb.gz" --by line >/dev/null 2>"$tmp/err" || fail "top of the copy"
  ! grep -qF summaryRprof "$tmp/err" || fail "top --by line of the pprof copy notes: $(cat "$tmp/err")"
  # top --by line: summaryRprof's by.self, per FILE:LINE (pcol's rows are
  # FUNCTION FILE:LINE), and the note once
  $PCOL top "$in" --by line --node-fraction 0 --format tsv >"$tmp/t" 2>"$tmp/err" || fail "top $n --by line"
  [ "$(grep -cF "$note" "$tmp/err")" = 1 ] || fail "top $n --by line: no note (once) of the rule: $(cat "$tmp/err")"
  if command -v Rscript >/dev/null 2>&1; then
    Rscript -e 's <- summaryRprof(commandArgs(TRUE)[1], lines = "show")$by.self
      s <- s[rownames(s) != "<no location>", , drop = FALSE]
      r <- sub("#", ":", basename(rownames(s)))
      cat(sprintf("%s %.2f\n", r, s$self.time), sep = "")' "$in" | sort >"$tmp/r" ||
      fail "Rscript summaryRprof $n"
    awk -F'\t' 'NR > 1 && $6 != "<no location>" { n = split($6, w, " "); p = w[n]; sub(/.*\//, "", p); s[p] += $1 }
      END { for (p in s) if (s[p] != 0) printf "%s %.2f\n", p, s[p] / 1e9 }' "$tmp/t" | sort >"$tmp/q"
    [ -s "$tmp/r" ] && cmp -s "$tmp/r" "$tmp/q" || fail "top $n --by line differs from summaryRprof(lines = \"show\")'s by.self:
$(diff "$tmp/r" "$tmp/q" | head -20)"
  fi
done

# by function (review rd15a F5): a nameless top-level frame (a trailing
# srcref: `"dbWriteTable" 5#5 "eval"`) is `<unknown>` in every view of
# frames, as go tool pprof names the copy's function without a name:
# traces = go -traces (it printed the place, ~/git/R/gprofiler/test.R:5,
# where tree said <unknown>), tree = go -tree, peek = go -peek, graph = go
# -dot; top's table leaves it out (summaryRprof's rule), fold names the
# place (the frame rule, doc/mappings.md §6)
for n in r-prof-profile__incomplete.out proftools__Rprof-rec0.out profvis__test-parse.prof; do
  in=$TD/rprof/$n
  [ -f "$in" ] || fail "missing $in"
  $PCOL traces "$in" 2>/dev/null | grep -qx ' *<unknown>' || fail "traces $n: no <unknown> frame"
  [ $go = 1 ] || continue
  $PCOL unpack "$in" --to pprof -o "$tmp/fn.pb.gz" 2>/dev/null || fail "unpack $n --to pprof"
  for v in traces tree peek; do
    re=; [ "$v" = peek ] && re=.
    $PCOL "$v" "$in" $re 2>"$tmp/err" | grep -v '^File: ' >"$tmp/pp" || fail "$v $n: $(cat "$tmp/err")"
    go tool pprof "-$v" $re "$tmp/fn.pb.gz" 2>/dev/null | grep -v '^File: ' >"$tmp/g"
    [ -s "$tmp/g" ] && cmp -s "$tmp/g" "$tmp/pp" ||
      fail "$v $n (by function) differs from go tool pprof -$v of the pprof copy:
$(diff "$tmp/g" "$tmp/pp" | head -20)"
  done
  $PCOL graph "$in" --format dot >"$tmp/p.dot" 2>"$tmp/err" || fail "graph $n: $(cat "$tmp/err")"
  go tool pprof -dot "$tmp/fn.pb.gz" 2>/dev/null >"$tmp/g.dot"
  python3 "$(dirname "$0")/../interop/dot_compare.py" "$tmp/g.dot" "$tmp/p.dot" >"$tmp/cmp" ||
    fail "graph $n differs from go tool pprof -dot of the pprof copy: $(head -14 "$tmp/cmp")"
done

# the help says the rule where it is followed and where not
for c in top tree traces peek graph diff; do
  $PCOL "$c" --help 2>&1 | tr -s ' \n' '  ' | grep -q 'innermost calling line' ||
    fail "$c --help does not say the by-line rule of Rprof sources"
done
echo "t_rprof_frames: ok"
