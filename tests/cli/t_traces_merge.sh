#!/usr/bin/env bash
# pcol traces: samples with the same stack and labels are one trace, their
# values added, the stacks compared as go 1.19's Merge keys locations:
# address, mapping, folded flag and lines' (function, line), no column
# (profile/merge.go Location.key; review 21 F5).  Tachyon's locations carry
# the instruction's column (JFR's the bytecodeIndex), which no view prints:
# grouped by stored stack node, threads-wall-zstd.bin printed 219 traces of
# 33 texts (fib's one trace as 5, 1, 2, 1, 9, ... where go 1.19 says 26).
# At --by function two lines of f stay two traces, as go prints them
# (t_base_counts.sh: Rprof).  Checks, for --by function and --by line,
# text/tsv/json: no two traces print the same (labels, stack); and the text
# traces equal go tool pprof -traces (-lines) of pcol's pprof copy, values
# included.  Then signed values merged to 0 (a made pprof).  The go part is
# skipped without go.  (The key is made per location and stack node, not
# per sample: t_bombs.sh's chain still stops at once at the budget.)
set -u
PCOL=${PCOL:-build/bin/pcol}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_traces_merge: FAIL: $*" >&2; exit 1; }
T=tests/fixtures/tachyon/threads-wall-zstd.bin
[ -f "$T" ] || fail "no $T"
cat >"$tmp/parse.py" <<'PY'
import sys, collections
def blocks(path):
    lines = open(path).read().split('\n')
    sep = [k for k, l in enumerate(lines) if l.startswith('-----------+')]
    out = []
    for a, b in zip(sep, sep[1:]):
        blk = [l for l in lines[a + 1:b] if l.strip()]
        # labels are "%10s:  %s"; the first frame line has the value in 0..10
        j = next(k for k, l in enumerate(blk) if l[10:13] != ':  ')
        out.append(('\n'.join(blk[:j] + [blk[j][10:]] + blk[j + 1:]), blk[j][:10].strip()))
    return out
def tsv(path):
    rows = [l.split('\t') for l in open(path).read().split('\n')[1:] if l]
    return [('\t'.join(r[2:]), r[0]) for r in rows]
mode, a = sys.argv[1], sys.argv[2]
got = blocks(a) if mode == 'text' else tsv(a)
dup = [k for k, n in collections.Counter(k for k, _ in got).items() if n > 1]
if dup:
    sys.exit('%s: %d traces, %d texts printed more than once, e.g.\n%s' % (a, len(got), len(dup), dup[0]))
if len(sys.argv) > 3:
    want = blocks(sys.argv[3])
    if sorted(got) != sorted(want):
        sys.exit('%s: traces differ from go\'s %s: %s' % (a, sys.argv[3],
                 sorted(set(got) ^ set(want))[:4]))
PY
"$PCOL" unpack "$T" --to pprof -o "$tmp/tw.pb.gz" 2>/dev/null || fail "unpack --to pprof"
GO=1
command -v go >/dev/null || { GO=0; echo "t_traces_merge: no go: the comparison with go skipped" >&2; }
for by in function line; do
  "$PCOL" traces "$T" --by $by >"$tmp/t.txt" || fail "traces --by $by"
  "$PCOL" traces "$T" --by $by --format tsv >"$tmp/t.tsv" || fail "traces --by $by --format tsv"
  n=$(grep -c -- '-----------+' "$tmp/t.txt")
  [ "$n" -gt 10 ] || fail "traces --by $by: $n separators"
  [ "$(wc -l <"$tmp/t.tsv")" -eq "$n" ] || fail "--by $by: tsv has not the text's $((n - 1)) traces"
  "$PCOL" traces "$T" --by $by --format json >"$tmp/t.json" || fail "traces --by $by --format json"
  python3 - "$tmp/t.json" "$((n - 1))" <<'PY' || fail "--by $by: json"
import json, sys
rows = json.load(open(sys.argv[1]))['rows']
keys = [(r['labels'], json.dumps(r.get('stack'))) for r in rows]
assert len(rows) == int(sys.argv[2]), (len(rows), sys.argv[2])
assert len(set(keys)) == len(keys), 'a json trace printed twice'
PY
  python3 "$tmp/parse.py" tsv "$tmp/t.tsv" || fail "--by $by --format tsv"
  if [ $GO = 1 ]; then
    gl=; [ $by = line ] && gl=-lines
    go tool pprof -traces $gl "$tmp/tw.pb.gz" >"$tmp/g.txt" 2>/dev/null || fail "go tool pprof -traces $gl"
    python3 "$tmp/parse.py" text "$tmp/t.txt" "$tmp/g.txt" || fail "--by $by"
  else
    python3 "$tmp/parse.py" text "$tmp/t.txt" || fail "--by $by"
  fi
done
# Signed values: two samples, +5 and -5, whose stacks differ only by the
# column of f's line: one trace adding up to 0, left out (go 1.19 merges
# them and drops the sample whose values are all 0), not a trace "0".
for extra in 0 2; do
python3 - "$tmp/col.pb" $extra <<'PY' || fail "writing col.pb"
import sys
sys.path.insert(0, 'tests/support')
from pprofgen import varint, field, Strings
st = Strings()
p = field(1, 2, field(1, 0, st.id(b"samples")) + field(2, 0, st.id(b"count")))
p += field(2, 2, field(1, 2, varint(2) + varint(1)) + field(2, 2, varint(5)))
p += field(2, 2, field(1, 2, varint(3) + varint(1)) + field(2, 2, varint(-5)))
if sys.argv[2] != "0":
    p += field(2, 2, field(1, 2, varint(3) + varint(1)) + field(2, 2, varint(int(sys.argv[2]))))
for loc, fn, line, col in ((1, 1, 1, 0), (2, 2, 3, 5), (3, 2, 3, 9)):
    p += field(4, 2, field(1, 0, loc) + field(4, 2, field(1, 0, fn) + field(2, 0, line) + field(3, 0, col)))
for fn, name in ((1, b"main"), (2, b"f")):
    p += field(5, 2, field(1, 0, fn) + field(2, 0, st.id(name)) + field(4, 0, st.id(b"a.go")))
open(sys.argv[1], "wb").write(p + st.table())
PY
"$PCOL" traces "$tmp/col.pb" --format tsv >"$tmp/col.tsv" 2>/dev/null || fail "traces col.pb"
want=; [ $extra = 0 ] || want=$(printf '%s\tmain;f' $extra)
[ "$(cut -f1,4 "$tmp/col.tsv" | tail -n +2)" = "$want" ] ||
  fail "col.pb: not the one trace of +5 -5 +$extra ('$want'): $(cat "$tmp/col.tsv")"
if [ $GO = 1 ]; then
  go tool pprof -traces "$tmp/col.pb" 2>/dev/null | grep -E '^ +[-0-9]' | awk '{print $1}' >"$tmp/g.v"
  [ "$(cat "$tmp/g.v")" = "${want%%$'\t'*}" ] || fail "go -traces of col.pb (+$extra): $(cat "$tmp/g.v")"
fi
done
echo "t_traces_merge: ok"
