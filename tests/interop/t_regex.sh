#!/usr/bin/env bash
# Regular expressions are Go's, as go tool pprof reads them (-focus,
# -ignore, -hide, -show, -tagfocus, -peek): pcol rewrites them for POSIX
# regex.h (lib/core/regex_go.c).  A profile made here has one function per
# test name (and a label req of the same name on its sample); each
# expression must select the same rows in `pcol top --focus/--ignore/--tag`
# and `pcol peek` as in go tool pprof.  What pcol cannot rewrite (\p
# classes, flags past the start, named groups) is refused with a message
# naming the expression, never matched in another way.
# Env: PCOL.  Exit 0 pass, 1 fail, 77 skip (no Go or protoc).
set -u
command -v go >/dev/null 2>&1 || { echo "SKIP: go not installed"; exit 77; }
command -v protoc >/dev/null 2>&1 || { echo "SKIP: protoc not installed"; exit 77; }
PCOL=${PCOL:-build/bin/pcol}
REPO=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp/home PPROF_BINARY_PATH=/nonexistent GOCACHE=${GOCACHE:-$tmp/gocache} GOPROXY=off GOTOOLCHAIN=local
mkdir -p "$HOME"
fail=0 checked=0
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

python3 - "$tmp/p.txt" <<'PY'
import sys
names = ["func12", "funcd", "a{{closure}}", "main.(*T).Method", "x.y", "xzy", "a b", "Foo", "foo",
         "_under", "[bracket]", "a-b", "a^b", "dollar$", "back\\slash", "\u00fcmlaut", "x{2", "a{,2}",
         "aa", "tab.x", "A1_z", "<lt>", "word end", "9lives", "caret^", "dash-", "q]r", "<no>",
         "std::vector<int>::push_back", "{{closure}}", "fmt.Sprintf", "pkg/path.Func", "a{01}"]
st = ["", "samples", "count", "req"] + names
out = ["sample_type { type: 1 unit: 2 }"]
for i, n in enumerate(names):
    out.append("sample { location_id: %d value: %d label { key: 3 str: %d } }" % (i + 1, i + 1, i + 4))
    out.append("location { id: %d line { function_id: %d } }" % (i + 1, i + 1))
    out.append("function { id: %d name: %d }" % (i + 1, i + 4))
q = lambda s: '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'
out.append("string_table: [" + ", ".join(q(s) for s in st) + "]")
open(sys.argv[1], "w", encoding="utf-8").write("\n".join(out) + "\n")
PY
protoc --encode=perftools.profiles.Profile -I "$REPO/format" "$REPO/format/profile.proto" <"$tmp/p.txt" >"$tmp/p.pb" ||
  { echo "FAIL: protoc"; exit 1; }
p=$tmp/p.pb

# same PPROF-ARGS -- PCOL-ARGS: the rows (sorted) of top, or peek's lines
rows() { sed -n '/flat%/,$p' | LC_ALL=C sort; }
same() {
  local pp=() pc=()
  while [ "$1" != -- ]; do pp+=("$1"); shift; done
  shift
  pc=("$@")
  checked=$((checked + 1))
  go tool pprof -symbolize=none -nodefraction=0 "${pp[@]}" "$p" 2>&1 | rows >"$tmp/go.txt"
  local nf=(--node-fraction 0)
  [ "${pc[0]}" = peek ] && nf=() # (peek keeps every node, as pprof -peek)
  "$PCOL" "${pc[0]}" "$p" "${pc[@]:1}" "${nf[@]}" 2>&1 | rows >"$tmp/pc.txt"
  if ! cmp -s "$tmp/go.txt" "$tmp/pc.txt"; then
    bad "go tool pprof ${pp[*]} vs pcol ${pc[*]} (< pprof, > pcol):"
    diff -a "$tmp/go.txt" "$tmp/pc.txt" | head -6
  fi
}
# each expression: one row or several in Go's reading, and where glibc's
# own reading differs (\d is "d", "\<" a word start, "{{" an error,
# backslashes in [...] themselves, (?i) an error, "x+?" is "(x+)?", a
# negated class not folded under (?i)) pcol must read Go's
for re in 'func\d+' '\Afunc' 'y\z' '{{closure}}' '^{{closure}}$' '\(\*T\)' '(?i)^foo$' '[\d]lives' '[\w]' \
  '\s' '\Qa{,2}\E' 'a{,2}' 'x{2' 'a{2}' '[]q]' '[\^]' '[a\-]b' '\<lt\>' '[^a-z]' 'b\b' '\x41' '\x{41}1' \
  '(?:ab|a)a' 'caret\^' '[-^]' '[[:upper:]]' '[[:^alpha:]]' '\D\d' 'dash-$' 'x\.y' '\\' 'std::vector<int>' \
  '\.Sprintf$' 'pkg/path\.' '[\]\[]' '\141a' 'a\tb' '\W' '\S+ \S+' '[\s]' '[^\W]' 'm[^\x00-\x7f]*l' '[^\x00-\x7f]' \
  'x\.+?y' '[]q]+?' '(?:a|b)+?' 'a{1,2}?b' '(?i)[^a-z]_' '(?i)[^a-z]<' '(?i)FOO' \
  'a{01}' '^*fmt' 'd$+' '\b?lives' '(?i)[^b]' '(?i)[^_]oo' 'x(?)\.y' '(?:a{2}){500}|(a){0}func'; do
  same -top -focus="$re" -- top --focus "$re"
done
for re in 'func\d+' '\Afoo' '{{closure}}' '[\d]'; do
  same -top -ignore="$re" -- top --ignore "$re"
  same -top -tagfocus="req=$re" -- top --tag "req=$re"
  same -peek="$re" -- peek "$re"
done
# refused, naming the expression (Go reads them, POSIX has no such form; the
# last two, too large for glibc's regcomp: pcol's bound, regex_go.c)
for re in '\pL' '\p{Greek}' 'a(?i)b' '(?P<n>a)' '\C' '(a?a?a?a?a?a?a?a?){1000}' \
  "$(printf '(a|b)%.0s' $(seq 2100))"; do
  checked=$((checked + 1))
  if "$PCOL" top "$p" --focus "$re" >"$tmp/o" 2>"$tmp/e"; then
    bad "--focus '${re:0:40}' was not refused: $(head -3 "$tmp/o")"
  elif ! grep -qF "bad regular expression '${re:0:200}'" "$tmp/e"; then
    bad "--focus '${re:0:40}': the message does not name it: $(cut -c1-300 "$tmp/e")"
  fi
done
# refused by both (Go: invalid repeat count, invalid nested repetition
# operator, missing argument, unexpected ), missing ), nesting too deep)
for re in 'a**' 'a{2}{3}' 'a+*' '*a' '(|*a)' 'a{1001}' 'a{3,2}' '(a{2}){501}' '((a{10}){10}){11}' \
  '(a' 'a)' 'a\' "$(printf '(%.0s' $(seq 1001))a$(printf ')%.0s' $(seq 1001))"; do
  checked=$((checked + 1))
  if go tool pprof -symbolize=none -top -focus="$re" "$p" >/dev/null 2>&1; then
    bad "go tool pprof -focus='${re:0:40}' was not refused"
  fi
  if "$PCOL" top "$p" --focus "$re" >"$tmp/o" 2>"$tmp/e"; then
    bad "--focus '${re:0:40}' was not refused: $(head -3 "$tmp/o")"
  elif ! grep -qF "bad regular expression '${re:0:200}'" "$tmp/e"; then
    bad "--focus '${re:0:40}': the message does not name it: $(cut -c1-300 "$tmp/e")"
  fi
done
echo "t_regex: $checked comparisons, $fail failed"
[ $fail = 0 ]
