#!/usr/bin/env bash
# Regular expressions are Go's, as go tool pprof reads them (-focus,
# -ignore, -hide, -show, -tagfocus, -peek): pcol rewrites them for POSIX
# regex.h (lib/core/regex_go.c).  A profile made here has one function per
# test name, ASCII and not (and a label req of the same name on its
# sample); each expression must select the same rows in `pcol top
# --focus/--ignore/--tag` and `pcol peek` as in go tool pprof.  What pcol
# cannot rewrite (^ and $ under (?m)) is refused with a message naming the
# expression, never matched in another way.  Then a differential against Go's regexp itself: thousands of
# generated expressions (a fixed seed) on ASCII, non-ASCII and invalid
# UTF-8 names, with NUL and "\n", each answered by Go's
# regexp.MatchString (tests/go/regexmatch) and by pcol_rx_compile and
# pcol_rx_match, what every filter calls (tests/support/rx_match.c, linked
# with $BUILD/lib/libpcol-internal.a): the answers must agree name by name, an
# expression Go refuses pcol must refuse, and pcol may refuse one Go
# reads only for a reason doc/cli.md names.  Last, the report page
# (tests/report/regex_accepts.mjs) must accept or refuse each of these
# expressions and of the page test's as the options do, but for the
# differences doc/cli.md lists.
# Env: PCOL, BUILD (build).  Exit 0 pass, 1 fail, 77 skip (no Go or protoc).
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
         "std::vector<int>::push_back", "{{closure}}", "fmt.Sprintf", "pkg/path.Func", "a{01}",
         "\u00fc", "f\u00fc", "\u00fc_x", "\u65e5\u672c.Func", "\u212a", "\u017f", "\u00c0\u00ff", "\U0001f600",
         "\ufffd", "\u00dc_x", "\u03a3\u03c3\u03c2", "\u0178"]
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
  'x\.+?y' '[]q]+?' '(?:a|b)+?' 'a{1,2}?b' '(?i)[^a-z]_' '(?i)[^a-z]<' '(?i)FOO' 'a(?i)B' '(?P<n>f)u' '(?i:FOO)' '(?s)x.y' \
  'a{01}' '^*fmt' 'd$+' '\b?lives' '(?i)[^b]' '(?i)[^_]oo' 'x(?)\.y' '(?:a{2}){500}|(a){0}func'; do
  same -top -focus="$re" -- top --focus "$re"
done
for re in 'func\d+' '\Afoo' '{{closure}}' '[\d]'; do
  same -top -ignore="$re" -- top --ignore "$re"
  same -top -tagfocus="req=$re" -- top --tag "req=$re"
  same -peek="$re" -- peek "$re"
done
# non-ASCII names: Go matches code points ("." is one, however many bytes;
# a class of non-ASCII members or ranges is a set of code points; (?i) folds
# k and s to U+212A and U+017F), pcol must read them so too; and anchors or
# \b in a repeated group, which glibc copies without their anchors
for re in '^.$' '^f.$' '^..$' '^[^a-z]$' '^[ü]$' '[à-ÿ]' '^\x{fc}' '^\xfc_' '^\W$' '^\S$' '日本\.' '^.{2}\.' \
  '^[^\x00-\x7f]+$' '[\x{1F000}-\x{1FFFF}]' '(?i)^k$' '(?i)^s$' '(?i)^[k]$' '(?i)^\w$' '(?i)^\W$' '^\x{FFFD}$' \
  '[\x{100}-\x{10FFFF}]' '(^\W){2}' '(?:f\b){2}' '(\W$)+' '^(.\B)+$' 'ü{2}' '(?:ü|x)+_' '^\D\D$' '[[:^alpha:]]x' \
  '^\p{Greek}+$' '(?i)^\p{Lu}\PL' '^[\p{Han}\pP]+$' '(?i)^Ü$' '(?i)^[Ü]_' '(?i)^[À-Þ]' '(?i)ΣΣ' '(?i)^ÿ$' '(?i)^[^ü]$'; do
  same -top -focus="$re" -- top --focus "$re"
done
for re in '^.$' '[^\x00-\x7f]'; do
  same -top -ignore="$re" -- top --ignore "$re"
  same -top -tagfocus="req=$re" -- top --tag "req=$re"
  same -peek="$re" -- peek "$re"
done
# refused, naming the expression (Go reads them, POSIX has no such form; the
# last four, too large for glibc's regcomp: pcol's bounds, regex_cost.c:
# quadratic closures, anchors in a row that regcomp copies (30 \b: 44 MB),
# loops through anchors that it walks again and again (10: 4 s))
for re in '(?m)^a' 'a(?m:$)' '\C' '(a?a?a?a?a?a?a?a?){1000}' '(.?){1000}' \
  "$(printf '\\b%.0s' $(seq 30))" "$(printf '(a|\\b)*%.0s' $(seq 10))"; do
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

# (?i)'s case folding, as Go's unicode.SimpleFold gives it (Go's
# Unicode version: regenerate the table with a newer Go)
checked=$((checked + 1))
if ! (cd tests/go && go run ./foldtable) >"$tmp/fold.h" 2>"$tmp/fold.log"; then
  bad "go run ./foldtable: $(head -5 "$tmp/fold.log")"
elif ! cmp -s "$tmp/fold.h" lib/core/regex_fold.h; then
  bad "lib/core/regex_fold.h is not Go's case folding: (cd tests/go && go run ./foldtable >../../lib/core/regex_fold.h)"
fi
# \pL, \p{Greek}: Go's unicode tables, and the page's list of Go's scripts
checked=$((checked + 1))
if ! (cd tests/go && go run ./unitable && go run ./unitable -js) >"$tmp/uni.h" 2>"$tmp/uni.log"; then
  bad "go run ./unitable: $(head -5 "$tmp/uni.log")"
elif ! head -n -1 "$tmp/uni.h" | cmp -s - lib/core/regex_unicode.h; then
  bad "lib/core/regex_unicode.h is not Go's Unicode classes: (cd tests/go && go run ./unitable >../../lib/core/regex_unicode.h)"
elif ! grep -qxF "$(tail -1 "$tmp/uni.h")" lib/query/report/regex.js; then
  bad "lib/query/report/regex.js's PCOL_RX_SCRIPTS is not Go's scripts: (cd tests/go && go run ./unitable -js)"
fi

# The differential against Go's regexp.  Refusals pcol may make of what Go
# reads (doc/cli.md): none but these.
BUILD=${BUILD:-build}
if ! (cd tests/go && go build -o "$tmp/regexmatch" ./regexmatch) >"$tmp/gob.log" 2>&1; then
  bad "go build ./regexmatch: $(head -5 "$tmp/gob.log")"
elif ! ${CC:-cc} -std=c11 -D_GNU_SOURCE -Iinclude -Iformat -Ilib/core -o "$tmp/rx_match" tests/support/rx_match.c \
  "$BUILD/lib/libpcol-internal.a" -llz4 -lzstd -lz -lprotobuf-c -ljansson -lpthread -lm >"$tmp/cc.log" 2>&1 &&
  ! ${CC:-cc} -std=c11 -D_GNU_SOURCE -Iinclude -Iformat -Ilib/core -fsanitize=address,undefined -o "$tmp/rx_match" \
    tests/support/rx_match.c "$BUILD/lib/libpcol-internal.a" -llz4 -lzstd -lz -lprotobuf-c -ljansson -lpthread -lm \
    >>"$tmp/cc.log" 2>&1; then # (a sanitizer BUILD)
  bad "building tests/support/rx_match.c against $BUILD/lib/libpcol-internal.a: $(head -5 "$tmp/cc.log")"
else
  python3 - "$tmp/cases" <<'PY'
import random, sys
# names: ASCII, non-ASCII (2-4 byte code points, U+212A and U+017F that
# fold to k and s, case orbits of two, three and four, U+FFFD itself),
# invalid UTF-8 (each bad byte is U+FFFD
# to Go: lone continuation and lead bytes, truncated, overlong, surrogate,
# past U+10FFFF), NUL and "\n" (glibc reads "a$" as matching "a\n")
names = [s.encode() for s in [
    "", "a", "ab", "abc", "k", "K", "s", "S", "_x1", "a b", "x.y", "123", "aa", "b_", "\n", "a\nb", "\nb", "a\n",
    "\n\n", "_\n_", "\u00fc", "f\u00fc", "\u00fca", "a\u00fcb", "\u00dc", "\u00df", "\u65e5\u672c", "a\u65e5",
    "\U0001f600", "\u212a", "\u017f", "\ufffd", "\u00e9a_", "\u00fc \u00fc", "\u00ff", "\u0100", "\u07ff\u0800",
    "\uffff", "\U0010ffff", "k\u212a", "\u00fc\n", "\n\u00fc", "\u0178", "\u03a3\u03c3\u03c2", "\u01c5",
    "\u1e9e", "\u00b5", "\u039c", "\u03bc", "\u00c5\u212b", "a\rb", "\r", "a\u2028b", "\u2029", "a{01}", "a8",
    "\x018", "\x019"]] + [
    b"\xff", b"a\xff", b"\xe4\xb8", b"\xe4\xb8a", b"\xc0\x80", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80",
    b"\xc3\xbc\x80", b"\xc3", b"a\xc3b", b"\xef\xbf", b"\xf0\x9f\x98", b"\xfe\xfe", b"k\xe2\x84", b"a\x00b",
    b"\x00", b"\x00\xc3\xbc", b"\x00\n"]
def gen(rnd, ascii_only):
    lits = list("abkKsS_1 .-") + ([] if ascii_only else
        ["\u00fc", "\u00e9", "\u00df", "\u65e5", "\u212a", "\u017f", "\ufffd", "\U0001f600", "\u00dc", "\u00ff", "\u0100",
         "\u03c3", "\u01c4", "\u00b5", "\u1e9e", "\u212b"])
    esc = [r"\d", r"\D", r"\s", r"\S", r"\w", r"\W", r"\b", r"\B", r"\A", r"\z", "^", "$", ".", r"\.", r"\n",
           r"\x00", r"\t", r"\Qa.\E", r"\ ", r"\r", r"\018", "(?)", "(?i)", "(?s)", "(?-i)",
           r"\x{2028}", r"\x{2029}", "{01}", "{1,01}",
           r"(?:a{40}){25}", r"(?:b{2}|a{3}){333}", r"(?:a{2}(?:b{30}){0}){500}", r"\pL", r"\p{Greek}", r"\PL",
           r"\p{^Lu}", r"\pN", r"\p{Han}", r"\p{Any}", r"\pC", r"\p{Ll}", r"\P{Latin}"] + ([] if ascii_only else
          [r"\x{fc}", r"\xfc", r"\x{212a}", r"\x{FFFD}", r"\x{10FFFF}", r"\377", r"\x{d800}"])
    items = list("abkKs_1-") + [r"\d", r"\W", r"\s", r"\S", "[:alpha:]", "[:^alpha:]", "a-z", "A-Z", r"\x00-\x7f",
        r"\n", r"\]", "^", r"\pL", r"\p{Lu}", r"\PL", r"\p{Greek}"] + ([] if ascii_only else ["\u00fc", "\u00e9", "\u65e5", r"\x{80}-\x{10FFFF}",
        "\u00e0-\u00ff", "\u0100-\uffff", "\U0001f600-\U0010ffff", r"\x{FFFD}", r"\x{d7ff}-\x{e000}", "\u03b1-\u03c9",
        "\u00c0-\u00de", "\u01c4-\u01c6", r"\x{100}-\x{17f}"])
    def cls():
        s = "[" + ("^" if rnd.random() < 0.4 else "")
        for _ in range(rnd.randint(1, 3)): s += rnd.choice(items)
        return s + "]"
    def atom(d):
        r = rnd.random()
        if r < 0.35: return rnd.choice(lits)
        if r < 0.6:
            if rnd.random() < 0.05: # Go refuses these
                return rnd.choice([r"\18", r"\19", r"\p{Foo}", r"\p{Grek}", r"\p", r"\p{L", r"(?:a{40}){26}", r"(?:b{2}|a{3}){334}", r"((a{10}){10}){11}",
                                   r"(?:a{2}(?:b{30}){0}){501}"])
            return rnd.choice(esc)
        if r < 0.8: return cls()
        if d > 2: return rnd.choice(lits)
        o = rnd.choice(["(", "(?:", "(", "(?:", "(?P<n>", "(?P<n_1>", "(?i:", "(?s:", "(?-i:", "(?is:", "(?U:", "(?m:"])
        if rnd.random() < 0.03: o = rnd.choice(["(?P<>", "(?<n>", "(?-:", "(?P=n", "(?x:"]) # Go refuses these
        return o + alt(d + 1) + ")"
    def rep(a):
        if rnd.random() < 0.7: return a
        q = rnd.choice(["*", "+", "?", "{2}", "{0,1}", "{1,}", "{0}", "{1,2}", "{2,3}", "{01}", "{0,01}"])
        if rnd.random() < 0.03: q = rnd.choice(["**", "{1001}", "+{2}", "{2,1}"]) # Go refuses these
        return a + q + ("?" if rnd.random() < 0.2 else "")
    def cat(d): return "".join(rep(atom(d)) for _ in range(rnd.randint(1, 4)))
    def alt(d):
        s = cat(d)
        while rnd.random() < 0.25: s += "|" + (cat(d) if rnd.random() < 0.9 else "")
        return s
    e = alt(0)
    r = rnd.random()
    return ("(?i)" + e) if r < (0.4 if ascii_only else 0.15) else ("(?s)" + e) if r > 0.9 else e
rnd = random.Random(20261126)
exprs = [gen(rnd, i % 2 == 0) for i in range(4000)]
with open(sys.argv[1], "w") as f:
    f.write("\n".join([str(len(names))] + [n.hex() for n in names] + [e.encode().hex() for e in exprs]) + "\n")
PY
  "$tmp/regexmatch" <"$tmp/cases" >"$tmp/go.ans" || bad "regexmatch failed"
  "$tmp/rx_match" <"$tmp/cases" >"$tmp/pc.ans" || bad "rx_match failed"
  python3 - "$tmp/cases" "$tmp/go.ans" "$tmp/pc.ans" >"$tmp/judge" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
n = int(lines[0])
names = [bytes.fromhex(x) for x in lines[1:1 + n]]
exprs = [bytes.fromhex(x).decode() for x in lines[1 + n:] if x]
go = open(sys.argv[2], "rb").read().split(b"\n")
pc = open(sys.argv[3], "rb").read().split(b"\n")
allowed = [b"under (?m)", b"pcol's bound"]
bad = agree = refused = go_refused = matched = 0
if len(go) < len(exprs) or len(pc) < len(exprs):
    print("FAIL: answers missing (Go %d, pcol %d lines, %d expressions)" % (len(go), len(pc), len(exprs)))
    sys.exit(0)
for e, g, p in zip(exprs, go, pc):
    if g.startswith(b"E"):
        go_refused += 1
        if not p.startswith(b"R"):
            bad += 1
            if bad <= 10: print("FAIL: Go refuses %r (%s), pcol reads it" % (e, g[2:].decode(errors="replace")))
    elif p.startswith(b"R"):
        refused += 1
        if not any(a in p for a in allowed):
            bad += 1
            if bad <= 10: print("FAIL: pcol refuses %r, which Go reads: %s" % (e, p.decode(errors="replace")))
    elif g != p:
        bad += 1
        if bad <= 10:
            print("FAIL: %r: Go and pcol differ on %r" % (e, [names[i] for i in range(n) if g[i:i + 1] != p[i:i + 1]][:6]))
    else:
        agree += 1
        matched += g.count(b"1")
print("differential: %d expressions x %d names agree (%d matches), %d refused by both, %d refused by pcol only, "
      "%d differ" % (agree, n, matched, go_refused, refused, bad))
if agree < 3000 or matched < 10000 or go_refused < 50:
    print("FAIL: the generated cases test too little")
PY
  cat "$tmp/judge"
  checked=$((checked + 1))
  grep -q '^FAIL' "$tmp/judge" && fail=$((fail + 1))
  # The report page (lib/query/report/regex.js) must accept what the options
  # accept: these expressions and the page test's (tests/report/regex_cases.mjs),
  # each accepted by both or refused by both, but for the differences doc/cli.md
  # lists ("Regular expressions").
  if command -v node >/dev/null 2>&1; then
    checked=$((checked + 1))
    { n=$(head -1 "$tmp/cases"); tail -n +$((n + 2)) "$tmp/cases"; node tests/report/regex_accepts.mjs --cases; } |
      grep . >"$tmp/all.hex"
    { echo 1; echo 61; cat "$tmp/all.hex"; } | "$tmp/rx_match" >"$tmp/pc_all.ans" || bad "rx_match failed"
    node tests/report/regex_accepts.mjs <"$tmp/all.hex" >"$tmp/page_all.ans" || bad "regex_accepts.mjs failed"
    python3 - "$tmp/all.hex" "$tmp/pc_all.ans" "$tmp/page_all.ans" >"$tmp/judge2" <<'PY'
import re, sys
exprs = [bytes.fromhex(x).decode() for x in open(sys.argv[1]).read().split()]
pc = open(sys.argv[2], "rb").read().decode(errors="replace").split("\n")
page = open(sys.argv[3]).read().split("\n")
# the documented differences (doc/cli.md): what one surface refuses and the other reads, by its refusal
only_pcol_refuses = re.compile(r"under \(\?m\)|pcol's bound")
only_page_refuses = re.compile(r"^R (\(\?i\) past the start|\\[bB] with \(\?i\)|\\P inside brackets with \(\?i\)|\\P\{C\} inside brackets)")
bad = both = 0
for e, p, q in zip(exprs, pc, page):
    pr, qr = p.startswith("R"), q.startswith("R")
    if pr == qr:
        both += 1
    elif (pr and not only_pcol_refuses.search(p)) or (qr and not only_page_refuses.search(q)):
        bad += 1
        if bad <= 10: print("FAIL: %r: pcol %s, the page %s" % (e, p[:120] or "?", q[:120] or "?"))
print("surfaces: %d of %d expressions accepted or refused alike, %d differ outside doc/cli.md's list" % (both, len(exprs), bad))
if len(pc) < len(exprs) or len(page) < len(exprs): print("FAIL: answers missing")
PY
    cat "$tmp/judge2"
    grep -q '^FAIL' "$tmp/judge2" && fail=$((fail + 1))
  fi
fi
echo "t_regex: $checked comparisons, $fail failed"
[ $fail = 0 ]
