#!/usr/bin/env bash
# pprof -> pcol -> pprof must be invisible to `go tool pprof`.
#
# For every protobuf profile in the shared test data, and for profiles made
# by our own Go program (tests/go/main.go: CPU with labels, heap, mutex,
# goroutine): `pcol pack` then `pcol unpack --to pprof`, and compare
# `go tool pprof -raw`, `-tags` and `-top` for every -sample_index between the
# original and the round-tripped file.  When `pcol top` works, its flat and
# cum per function must equal pprof's (-top -nodecount=1000000
# -nodefraction=0 -edgefraction=0, raw units).
#
# Env: PCOL (pcol binary), PCOL_TESTDATA (default ../shared/testdata).
# Exit 0 pass, 1 fail, 77 skip (no Go).
set -u
if ! command -v go >/dev/null 2>&1; then
  echo "SKIP: go not installed (apt-get install golang-go to run the Go pprof interop test)"
  exit 77
fi
PCOL=${PCOL:-build/bin/pcol}
TD=${PCOL_TESTDATA:-../shared/testdata}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# no network symbolization, no binaries, no ~/pprof, no module downloads
export HOME=$tmp/home PPROF_BINARY_PATH=/nonexistent GOCACHE=$tmp/gocache \
  GOPATH=$tmp/gopath GO111MODULE=on GOFLAGS=-mod=readonly GOPROXY=off GOTOOLCHAIN=local TZ=UTC
mkdir -p "$HOME" "$tmp/in" "$tmp/out"

fail=0 checked=0
pp() { go tool pprof -symbolize=none "$@" 2>&1; }

# go tool pprof -raw of the original being checked
RAW=$tmp/orig.raw

# The sample types of a profile, from the line after "Samples:" in -raw.
sample_types() {
  awk 'f { for (i = 1; i <= NF; i++) { sub(/\[dflt\]$/, "", $i); split($i, a, "/"); print a[1] } exit } /^Samples:/ { f = 1 }' "$RAW"
}

have_top=0
if [ -x "$PCOL" ] && "$PCOL" top --help >/dev/null 2>&1 && ! "$PCOL" top --help 2>&1 | grep -q "not built"; then
  have_top=1
fi

# The unit of a sample type, from the -raw "Samples:" header.
type_unit() {
  awk -v t="$2" 'f { for (i = 1; i <= NF; i++) { sub(/\[dflt\]$/, "", $i); split($i, a, "/"); if (a[1] == t) { print a[2]; exit } } exit } /^Samples:/ { f = 1 }' "$RAW"
}

# pcol top (csv: flat,flat_pct,sum_pct,cum,cum_pct,name) vs pprof -top, per
# function: GO-TOP is pprof's -top -nodecount=1000000 -nodefraction=0
# -edgefraction=0 -sample_index=TYPE -unit=UNIT of the original (from its
# session, below); with a 6th argument "line", pcol top --by line vs pprof
# -top -lines.
check_top() { # check_top LABEL ORIG PCOL-FILE TYPE GO-TOP [line]
  local label=$1 orig=$2 pc=$3 type=$4 unit pby=()
  cp "$5" "$tmp/go_top.raw"
  [ "${6:-}" = line ] && pby=(--by line) label="$label (--by line)"
  unit=$(type_unit "$orig" "$type")
  # TYPE/UNIT names the stored value exactly: a bare "samples" means pcol's
  # weight column, not pprof's samples/count value (which may exceed 1)
  if ! "$PCOL" top "$pc" "${pby[@]}" --value "$type/$unit" --format csv >"$tmp/pcol_top.csv" 2>"$tmp/pcol_top.err"; then
    echo "FAIL: $label: pcol top --value $type/$unit failed: $(cat "$tmp/pcol_top.err")"
    fail=$((fail + 1))
    return
  fi
  checked=$((checked + 1))
  if ! python3 - "$tmp/go_top.raw" "$tmp/pcol_top.csv" <<'PY'
import csv, re, sys
# a pprof -top row; a name may hold newlines, so other lines continue it
num, pct = rb"(-?[0-9.]+(?:e[-+][0-9]+)?)[a-zA-Z]*", rb"-?[0-9.]+(?:e[-+][0-9]+)?%"
row = re.compile(rb"^ *" + num + rb" +" + pct + rb" +" + pct + rb" +" + num + rb" +" + pct + rb"  (.*)$")
rows, started = [], False
for line in open(sys.argv[1], "rb").read().split(b"\n"):
    if not started:
        started = b"flat%" in line
        continue
    m = row.match(line)
    if m:
        rows.append([m.group(3), round(float(m.group(1))), round(float(m.group(2)))])
    elif rows:
        rows[-1][0] += b"\n" + line
# pprof keys nodes by (name, file, line, ...) and may print two nodes with
# one name ("??" as a function and as a file, or in two mappings); such
# rows are added up: flat exactly, cum not compared (the rows of one name
# may overlap)
go, dup = {}, set()
for name, flat, cum in rows:
    if name.endswith(b"\n"):
        name = name[:-1]
    name = re.sub(rb" \((partial-)?inline\)$", b"", name)
    if name in go:
        dup.add(name)
        flat, cum = flat + go[name][0], cum + go[name][1]
    go[name] = (flat, cum)
# (pcol too prints a row per node pprof keeps apart under one name: a
# frame without a function name is its mapping and start line; added up
# the same way)
pc = {}
with open(sys.argv[2], newline="", encoding="latin-1") as f:
    for r in csv.DictReader(f):
        n, flat, cum = r["name"].encode("latin-1"), int(r["flat"]), int(r["cum"])
        if n in pc:
            dup.add(n)
            flat, cum = flat + pc[n][0], cum + pc[n][1]
        pc[n] = (flat, cum)
def same(n):
    g, p = go.get(n), pc.get(n)
    return g == p or (n in dup and g and p and g[0] == p[0])
bad = [(n, go.get(n), pc.get(n)) for n in sorted(set(go) | set(pc)) if not same(n)]
for n, g, p in bad[:12]:
    print("  %r: go (flat, cum) %s, pcol %s" % (n[:70], g, p))
if len(bad) > 12:
    print("  ... %d functions differ" % len(bad))
sys.exit(1 if bad else 0)
PY
  then
    echo "FAIL: $label: pcol top --value $type/$unit differs from go tool pprof -top (above)"
    fail=$((fail + 1))
  fi
}

# One go tool pprof process per file gives all of its views, through the
# interactive commands (each parse of a large profile costs a second or
# more, a view little; tests/interop/t_pprof_views.sh checks that a
# session's views are the command line's): session FILE DIR CMD...
# writes DIR/0 (the header: File, Type, Time, Duration) and DIR/K, the text
# of command K (options set alone print nothing).
session() {
  local f=$1 d=$2
  shift 2
  rm -rf "$d" && mkdir -p "$d"
  printf '%s\n' "$@" quit | go tool pprof -symbolize=none "$f" 2>&1 |
    perl -0777 -e '$_ = <STDIN>; my @s = split /\(pprof\) /, $_, -1; my ($d, $n) = @ARGV;
      for my $k (0 .. $n) { open(my $o, ">", "$d/$k") or die; print $o ($k < @s ? $s[$k] : ""); close $o }' "$d" "$#"
}

round_trip() {
  local orig=$1 b
  b=$(basename "$orig")
  if ! "$PCOL" pack "$orig" -o "$tmp/out/$b.pcol" || ! "$PCOL" validate "$tmp/out/$b.pcol" >/dev/null ||
    ! "$PCOL" unpack "$tmp/out/$b.pcol" --to pprof -o "$tmp/out/$b.back.pb.gz"; then
    echo "FAIL: $b: pack/validate/unpack failed"
    fail=$((fail + 1))
    return
  fi
  local back=$tmp/out/$b.back.pb.gz before=$fail t
  pp -raw "$orig" >"$RAW" # the original's sample types and units
  # the same views of both files: raw, tags, top, top of every sample type;
  # then (the original only) top with every node in raw units per type, and
  # by line for the default type (go tool pprof's last)
  local cmds=(raw tags top) tops=() k
  for t in $(sample_types "$orig"); do cmds+=("sample_index=$t" top); done
  local nsame=${#cmds[@]}
  if [ $have_top = 1 ]; then
    cmds+=(nodecount=1000000 nodefraction=0 edgefraction=0)
    for t in $(sample_types "$orig"); do
      cmds+=("sample_index=$t" "unit=$(type_unit "$orig" "$t")" top)
      tops+=("$t:${#cmds[@]}")
    done
    [ -n "${t:-}" ] && cmds+=(granularity=lines top) && tops+=("$t:${#cmds[@]}:line")
  fi
  session "$orig" "$tmp/so" "${cmds[@]}"
  session "$back" "$tmp/sb" "${cmds[@]:0:$nsame}"
  # (a session that printed nothing would pass every comparison)
  if ! grep -q '^Samples:' "$tmp/so/1" || ! grep -q '^Samples:' "$tmp/sb/1"; then
    echo "FAIL: $b: go tool pprof's session printed no raw profile:"
    head -5 "$tmp/so/1" "$tmp/sb/1"
    fail=$((fail + 1))
    return
  fi
  for k in $(seq 0 "$nsame"); do
    [ $k = 0 ] || [ -n "$(cat "$tmp/so/$k")$(cat "$tmp/sb/$k")" ] || continue # options print nothing
    checked=$((checked + 1))
    if ! cmp -s "$tmp/so/$k" "$tmp/sb/$k"; then
      echo "FAIL: $b: go tool pprof's ${cmds[$((k - 1))]:-header} after ${cmds[*]:0:$((k > 1 ? k - 1 : 0))} differs (original vs round trip):" | cut -c1-300
      diff "$tmp/so/$k" "$tmp/sb/$k" | head -20
      fail=$((fail + 1))
    fi
  done
  local x
  for x in "${tops[@]}"; do
    IFS=: read -r t k line <<<"$x"
    check_top "$b" "$orig" "$tmp/out/$b.pcol" "$t" "$tmp/so/$k" $line
  done
  [ $fail = "$before" ] && echo "ok: $b"
}

files=()
if [ -d "$TD/pprof" ]; then
  for f in "$TD"/pprof/*.pb "$TD"/pprof/*.pb.gz "$TD"/pprof-from-r/*.pb.gz; do
    [ -f "$f" ] && files+=("$f")
  done
else
  echo "note: no shared test data at $TD; only the Go-made profiles are checked"
fi

# our own Go program's profiles (stdlib only; go.mod has no requirements)
if (cd "$REPO/tests/go" && go run . "$tmp/in" >"$tmp/go_run.log" 2>&1); then
  for f in "$tmp"/in/*.pb.gz; do files+=("$f"); done
else
  echo "FAIL: go run tests/go/main.go:"
  cat "$tmp/go_run.log"
  fail=$((fail + 1))
fi

# Rprof -> pcol -> pprof: go tool pprof reads R names, files and lines,
# samples/count and cpu/nanoseconds (the default) from the interval
rprof_to_pprof() {
  local demo=$REPO/examples/demo.out
  [ -f "$demo" ] || return 0
  if ! "$PCOL" pack "$demo" -o "$tmp/out/demo.pcol" ||
    ! "$PCOL" unpack "$tmp/out/demo.pcol" --to pprof -o "$tmp/in/rprof-demo.pb.gz"; then
    echo "FAIL: Rprof demo: pack/unpack failed"
    fail=$((fail + 1))
    return
  fi
  local n interval
  n=$(grep -v -e '^#File' -e 'sample.interval=' "$demo" | grep -c .)
  interval=$(head -1 "$demo" | sed 's/.*sample.interval=\([0-9]*\).*/\1/')
  pp -raw "$tmp/in/rprof-demo.pb.gz" >"$tmp/rdemo.raw"
  checked=$((checked + 1))
  local want_cpu=$((n * interval * 1000)) got_n got_cpu
  got_n=$(awk '/^Samples:/ { f = 1; next } f && /:/ { split($0, a, ":"); split(a[1], v, " "); s += v[1] } /^Locations/ { exit } END { print s + 0 }' "$tmp/rdemo.raw")
  got_cpu=$(awk '/^Samples:/ { f = 1; next } f && /:/ { split($0, a, ":"); split(a[1], v, " "); s += v[2] } /^Locations/ { exit } END { printf "%.0f\n", s }' "$tmp/rdemo.raw")
  # the time is the default, as pcol shows an Rprof file (doc/mappings.md §0):
  # no default_sample_type, so pprof takes the last type, cpu/nanoseconds
  if ! grep -q '^samples/count cpu/nanoseconds$' "$tmp/rdemo.raw" ||
    ! grep -q "^PeriodType: cpu nanoseconds" "$tmp/rdemo.raw" ||
    ! grep -q "^Period: $((interval * 1000))$" "$tmp/rdemo.raw" ||
    ! grep -q ' smooth demo_code.R:3 ' "$tmp/rdemo.raw" ||
    [ "$got_n" != "$n" ] || [ "$got_cpu" != "$want_cpu" ]; then
    echo "FAIL: Rprof demo as pprof: want $n samples, $want_cpu ns, R names/files/lines; got $got_n, $got_cpu:"
    head -12 "$tmp/rdemo.raw"
    fail=$((fail + 1))
    return
  fi
  echo "ok: Rprof demo -> pprof ($n samples, $want_cpu ns)"
  files+=("$tmp/in/rprof-demo.pb.gz")
}
rprof_to_pprof

for f in "${files[@]}"; do round_trip "$f"; done

# pprof -> Firefox -> pprof keeps the count: a profile with samples/count
# whose default is another value (a Go CPU profile's cpu) goes to Firefox
# weighed by that value, each row's count in pcolCount, which the import
# keeps as its weight and as samples/count; the pprof export of the copy
# writes it back (review 12 F6: dropped, go -sample_index=samples refused the
# copy; then still when every count was 1, R's pprof of an Rprof file): go's
# total of it is the original's, and its default (-top) total too.  And the
# copy's period is the Firefox file's meta.interval (THE interval rule) as
# the original's period type says it (go printed Period 0 and an empty
# PeriodType); none when pcol's export made the interval up
# (meta.pcolIntervalStated false)
nff=0 nheld=0 nper=0
period_ns() { # period_ns RAW: "TYPE NS" of go's PeriodType and Period lines
  awk '/^PeriodType:/ { t = $2; u = $3 } /^Period:/ { p = $2 }
       END { m = u ~ /^nanoseconds?$/ ? 1 : u ~ /^microseconds?$/ ? 1000 : u ~ /^milliseconds?$/ ? 1000000 : u ~ /^seconds?$/ ? 1000000000 : 0
             printf "%s %.0f\n", t, p * m }' "$1"
}
for f in "${files[@]}"; do
  RAW=$tmp/ff.raw
  pp -raw "$f" >"$RAW" || continue
  b=$(basename "$f")
  "$PCOL" unpack "$f" --to firefox -o "$tmp/ff.json.gz" 2>/dev/null && "$PCOL" unpack "$tmp/ff.json.gz" --to pprof -o "$tmp/ff.pb.gz" ||
    { echo "FAIL: $b: pprof -> firefox -> pprof"; fail=$((fail + 1)); continue; }
  pp -raw "$tmp/ff.pb.gz" >"$tmp/ffc.raw"
  stated=$(python3 -c 'import gzip, json, sys
print(int(json.loads(gzip.open(sys.argv[1]).read())["meta"].get("pcolIntervalStated", True)))' "$tmp/ff.json.gz")
  po=$(period_ns "$RAW") pc=$(period_ns "$tmp/ffc.raw")
  if [ "$stated" = 1 ] && [ "${po#* }" != 0 ]; then
    nper=$((nper + 1))
    # (its name: the time the copy holds; a period type of another name
    # than the copy's values, dotnet's cpu beside its lock_time, is not in
    # the Firefox file)
    RAW=$tmp/ffc.raw
    sample_types | grep -qx "${po%% *}" || po="${pc%% *} ${po#* }"
    RAW=$tmp/ff.raw
    [ "$pc" = "$po" ] || { echo "FAIL: $b via firefox: period '$pc' (go -raw), the original '$po'"; fail=$((fail + 1)); }
  elif [ "$stated" = 0 ] && [ "$pc" != " 0" ]; then
    echo "FAIL: $b via firefox: period '$pc' of an interval pcol made up"; fail=$((fail + 1))
  fi
  sample_types | grep -qx samples || continue
  [ "$(sample_types | head -1)" = samples ] && [ "$(sample_types | wc -l)" = 1 ] && continue
  # whether the Firefox file holds counts other than 1 (a row's pcolCount,
  # or a samples weight)
  held=$(python3 -c 'import gzip, json, sys
d = json.loads(gzip.open(sys.argv[1]).read())
print(int(any(c not in (1, None) for t in d["threads"] for c in t["samples"].get("pcolCount") or
              (t["samples"]["weight"] if t["samples"].get("weightType") == "samples" else []))))' "$tmp/ff.json.gz")
  checked=$((checked + 1)) nff=$((nff + 1))
  for si in "" samples; do
    a=$(pp -top ${si:+-sample_index=$si} "$f" | grep -o '% of .* total$')
    z=$(pp -top ${si:+-sample_index=$si} "$tmp/ff.pb.gz" | grep -o '% of .* total$')
    [ -n "$a" ] && [ "$a" = "$z" ] ||
      { echo "FAIL: $b via firefox: go -top ${si:+-sample_index=$si }'$z', the original '$a'"; fail=$((fail + 1)); }
  done
  nheld=$((nheld + held))
done
[ $nheld -ge 4 ] && [ $nff -gt $nheld ] ||
  { echo "FAIL: $nff profiles with counts beside another value through firefox, $nheld of counts other than 1"; fail=$((fail + 1)); }
[ $nper -ge 4 ] || { echo "FAIL: only $nper profiles with a period through firefox"; fail=$((fail + 1)); }
echo "pprof -> firefox -> pprof: $nff profiles keep go's default and samples totals ($nheld of counts other than 1), $nper go's period"

[ $have_top = 0 ] && echo "note: pcol top is not available yet; its comparison with go tool pprof -top was skipped"
echo "go pprof round trip: ${#files[@]} profiles, $checked comparisons, $fail failures"
[ $fail = 0 ]
