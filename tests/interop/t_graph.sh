#!/usr/bin/env bash
# `pcol graph` against `go tool pprof -dot` on every pprof profile of the
# shared test data (the files t_pprof_views.sh compares top and peek on):
# the same nodes (names, in pprof's N1..Nn order), the same flat and cum as
# the labels print them, the same edges with the same weights, "(inline)"
# and dotted (residual) marks, and the same "Showing"/"Dropped" legend
# lines (tests/interop/dot_compare.py), with pprof's default pruning and with
# other -nodefraction/-edgefraction/-nodecount (labelled profiles: the tags
# pprof counts as nodes), filters, -lines and -noinlines; the names in the
# node labels (pprof's shortening); and pprof's label boxes (string labels,
# "bytes" values and their buckets, -tagshow/-taghide).
#
# Env: PCOL (pcol binary), PCOL_TESTDATA (default ../shared/testdata).
# Exit 0 pass, 1 fail, 77 skip (no Go).
set -u
PPROF_WHAT="pcol graph with go tool pprof -dot"
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/pprof_env.sh"
i=0 fail=0

# case FILE PPROF-ARGS -- PCOL-ARGS: both DOT texts, compared below
case_() {
  local f=$1
  shift
  local pp=() pc=()
  while [ "$1" != -- ]; do pp+=("$1"); shift; done
  shift
  pc=("$@")
  i=$((i + 1))
  "$PPROF" -symbolize=none -dot "${pp[@]}" "$f" >"$tmp/$i.go" 2>/dev/null
  if ! "$PCOL" graph "$f" "${pc[@]}" >"$tmp/$i.pc" 2>"$tmp/$i.err"; then
    echo "FAIL: pcol graph $(basename "$f") ${pc[*]}: $(head -c 300 "$tmp/$i.err")"
    fail=$((fail + 1))
    return
  fi
  printf '%s\t%s\t%s\n' "$tmp/$i.go" "$tmp/$i.pc" \
    "$(basename "$f"): go tool pprof -dot ${pp[*]} vs pcol graph ${pc[*]}" >>"$tmp/list"
}

n=0
: >"$tmp/list"
mapfile -t inputs < <(pprof_inputs)
for f in "${inputs[@]}"; do
  n=$((n + 1))
  case_ "$f" --
  case_ "$f" -nodefraction=0 -edgefraction=0 -nodecount=30 -- --node-fraction 0 --edge-fraction 0 --node-count 30
done
[ $n -gt 0 ] || { echo "SKIP: no pprof profiles under $TD"; exit 77; }

g=$TD/pprof/go-cpu-inline-small.pb.gz
if [ -f "$g" ]; then
  case_ "$g" -lines -- --by line
  case_ "$g" -nodecount=5 -- --node-count 5
  case_ "$g" -nodefraction=0.2 -edgefraction=0.1 -- --node-fraction 0.2 --edge-fraction 0.1
  case_ "$g" -focus=mapassign -hide='runtime\.main' -- --focus mapassign --hide 'runtime\.main'
  case_ "$g" -relative_percentages -focus=mapassign -nodefraction=0.1 -- --relative-percentages --focus mapassign --node-fraction 0.1
  case_ "$g" -noinlines -- --no-inlines
  case_ "$g" -addresses -- --by address
  case_ "$g" -files -- --by file
fi
l=$TD/pprof/go-cpu-large.pb.gz
if [ -f "$l" ]; then
  case_ "$l" -nodecount=200 -- --node-count 200
  case_ "$l" -lines -- --by line
fi
# label boxes (pprof's nodelets): string labels with -tagshow/-taghide,
# "bytes" values bucketed into 4 ranges per node, every sample index
e=$TD/pprof/native-ebpf-kernel-buildid-thread-labels.pb.gz
if [ -f "$e" ]; then
  case_ "$e" -tagshow=name -- --tagshow name
  case_ "$e" -taghide='^thread_n' -- --taghide '^thread_n'
  case_ "$e" -tagshow=thread -taghide=id -nodecount=20 -- --tagshow thread --taghide id --node-count 20
  # the legend cuts a filter's "key=value" at 80 bytes ("…"); an empty
  # expression is no filter
  long="$(printf 'x%.0s' {1..90})|name"
  case_ "$e" -tagshow="$long" -taghide= -focus="$long" -- --tagshow "$long" --taghide '' --focus "$long"
fi
s=$TD/ext/pprof/go-cpu-span-id-labels.pb.gz
[ -f "$s" ] && case_ "$s" -taghide='span|qwe' -nodefraction=0 -- --taghide 'span|qwe' --node-fraction 0
# -tagroot/-tagleaf frames (line 0: by line a node "value\nKEY"; no value,
# or a key no sample has: "KEY" alone) and -diff_base (negative values, the base's total)
t=$TD/pprof/go-cpu-string-labels.pb.gz
if [ -f "$t" ]; then
  case_ "$t" -lines -tagroot=function -- --by line --tagroot function
  case_ "$t" -addresses -tagleaf=function,foo -- --by address --tagleaf function,foo
  case_ "$t" -tagroot=foo -- --tagroot foo
  # a key no sample has: pprof warns and names every frame of it "" (a node "KEY")
  case_ "$t" -tagroot=nokey -tagleaf=function -- --tagroot nokey --tagleaf function
  case_ "$t" -lines -tagleaf=nokey -- --by line --tagleaf nokey
  [ -f "$s" ] && case_ "$s" -diff_base="$t" -- --diff-base "$t"
fi
h=$TD/pprof/go-heap-allocs-inline.pb.gz
if [ -f "$h" ]; then
  for si in alloc_objects alloc_space inuse_objects; do
    case_ "$h" -sample_index=$si -- --value $si
  done
  case_ "$h" -sample_index=alloc_space -nodefraction=0 -edgefraction=0 -nodecount=0 -- \
    --value alloc_space --node-fraction 0 --edge-fraction 0 --node-count 0
  case_ "$h" -taghide=bytes -- --taghide bytes
fi
# pprof's name shortening in the node labels (graph.go ShortenFunctionName:
# Go module versions and paths, Java's package.Class.method, C++'s
# namespace::Class::method and "(anonymous namespace)::"), on names made
# here, written as pprof by pcol unpack
cat >"$tmp/names.txt" <<'EOF'
main;java.lang.Thread.run;com.foo.Bar$Baz.<init> 5
main;com.x.Y.method$1(Y.java:3) 4
main;foo::Bar::baz 6
main;ns::Outer::method<int, std::vector<int>>;(anonymous namespace)::Foo::bar 7
main;std::vector::push_back 3
main;github.com/x/y/v2.Func.func1;os.ReadDir.func1 8
main;a.b.C.d(int);_::__Xy::~Z 2
main;lib::x::Y::z<a>b>c 9
EOF
if "$PCOL" pack "$tmp/names.txt" -o "$tmp/names.pcol" >/dev/null 2>&1 &&
  "$PCOL" unpack "$tmp/names.pcol" --to pprof -o "$tmp/names.pb.gz" >/dev/null 2>&1; then
  case_ "$tmp/names.pb.gz" -nodefraction=0 -edgefraction=0 -- --node-fraction 0 --edge-fraction 0
else
  echo "FAIL: pack/unpack of the names profile"
  fail=$((fail + 1))
fi
python3 "$HERE/dot_compare.py" --list "$tmp/list" || fail=$((fail + 1))
echo "t_graph: $i cases, $fail failed"
[ $fail -eq 0 ]
