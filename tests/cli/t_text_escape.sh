#!/usr/bin/env bash
# CLI: no string from a file reaches a terminal raw (issue 28 finding 7).
# A pprof profile whose every string (function, system and file names,
# mapping file and build id, value types and units, period type and unit,
# label keys, values and units, comments) and whose source name (the input's
# path) hold ESC sequences, BEL, \r, a C1 control (U+009B, CSI) and invalid
# UTF-8 goes through every human-readable output: the text views, cat's
# default TSV, info, and the messages on stderr.  Each output must be valid
# UTF-8 with no control character other than \n and \t, and show the
# hostile text (escaped) on stdout, or on stderr for [err] (cli.h,
# cli_put_text: "\xNN" instead), and a bidi control (U+202E) as \x{202e}.  disasm too, on what nm and objdump print
# (fake tools on PATH) and the binary's name.
set -u
PCOL=${PCOL:-build/bin/pcol}
here=$(cd "$(dirname "$0")/../support" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_text_escape: FAIL: $*" >&2; exit 1; }

bad=$'\e]0;owned\a\e[2J\r\xc2\x9b31m\xff\xfe\xe2\x80\xae'
python3 "$here/pprofgen.py" strings "$tmp/p.pb" '\x1b]0;owned\x07\x1b[2J\r\xc2\x9b31m\xff\xfe\xe2\x80\xae' || fail "pprofgen.py"
src="$tmp/src${bad}.pb" # the source's name (its uri) is the input's path
cp "$tmp/p.pb" "$src"
"$PCOL" pack "$src" -o "$tmp/p.pcol" || fail "pack"
"$PCOL" pack "$tmp/p.pb" -o "$tmp/q.pcol" || fail "pack q"

# Each output is saved (NAME.out, NAME.err) and checked at the end by one
# python3: valid UTF-8, no control character but \n and \t, no C1; a
# stdout must show the hostile text (escaped) unless its name says [ids].
mkdir -p "$tmp/o"
n=0
check() { # check NAME ARGS...: stdout and stderr of pcol ARGS
  local name=$1
  shift
  n=$((n + 1))
  printf '%s\n' "$name" >"$tmp/o/$n.name"
  "$PCOL" "$@" >"$tmp/o/$n.out" 2>"$tmp/o/$n.err"
}
# (the input named by a hostile path too: the views' File:, diff's Base:/New:)
for f in "$tmp/p.pcol" "$tmp/p.pb" "$src"; do
  check "top $f" top "$f"
  check "top --by line" top "$f" --by line
  check "top --by file" top "$f" --by file
  check "top --by address" top "$f" --by address
  check "top --by label" top "$f" --by "label:key${bad}"
  check "top --unit raw" top "$f" --unit raw
  check "peek" peek "$f" .
  check "peek --by line" peek "$f" . --by line
  check "tree" tree "$f" --node-count 0
  check "tree --by address" tree "$f" --by address --node-fraction 0
  check "graph --format callgrind" graph "$f" --format callgrind
  check "list" list "$f" .
  check "list --by file" list "$f" . --by file
  check "tags" tags "$f"
  check "traces" traces "$f"
  check "info" info "$f"
  check "diff" diff "$tmp/q.pcol" "$f"
  check "diff --absolute" diff "$tmp/q.pcol" "$f" --absolute
done
for t in meta sources value_types source_value_types samples sample_values sample_locations \
  sample_labels locations location_lines functions mappings stacks models strings; do
  check "cat $t (tsv) [ids]" cat "$tmp/p.pcol" --table "$t"
done
# disasm: the profile's mapping names a binary in the working directory
# (an ELF of one executable segment and no build id, written here), and fake
# llvm-nm and llvm-objdump, in a directory of a hostile name first on PATH,
# print its symbols (one 200 KB long: a routine's other name, shown for an
# address), its function, file and instructions (one 200 KB long), all
# hostile; PCOL_T_FAIL: objdump fails (the message names it)
d=$tmp/d fk="$tmp/d/tools$bad"
mkdir -p "$fk"
python3 - "$d/mapfile$bad" <<'PY' || fail "the ELF"
import struct, sys
eh = b"\x7fELF\x02\x01\x01" + bytes(9) + struct.pack("<HHIQQQIHHHHHH", 2, 62, 1, 0x1000, 64, 0, 0, 64, 56, 1, 64, 0, 0)
ph = struct.pack("<IIQQQQQQ", 1, 5, 0, 0x1000, 0x1000, 0x1000, 0x1000, 0x1000)  # PT_LOAD R+X at 0x1000
open(sys.argv[1], "wb").write((eh + ph).ljust(0x1000, b"\0"))
PY
long=$(head -c 200000 /dev/zero | tr '\0' L)
printf '0000000000001000 T sym%s\n0000000000001000 T aka%s%s\n0000000000001800 T next%s\n' \
  "$bad" "$bad" "$long" "$bad" >"$d/nm.out"
printf '0000000000001000 <sym%s>:\nfn%s():\n/src/file%s.c:12\n    1000:\tinsn%s %%rax\n    1001:\tnop%s%s\n    1003:\tret\n' \
  "$bad" "$bad" "$bad" "$bad" "$bad" "$long" >"$d/od.out"
cat=$(command -v cat)
printf '#!/bin/sh\nexec %s %s/nm.out\n' "$cat" "$d" >"$fk/llvm-nm"
printf '#!/bin/sh\n[ "$1" = --version ] && exec echo LLVM version 17.0.0\n[ -z "$PCOL_T_FAIL" ] || exit 1\nexec %s %s/od.out\n' \
  "$cat" "$d" >"$fk/llvm-objdump"
chmod +x "$fk/llvm-nm" "$fk/llvm-objdump"
PCOL=$(cd "$(dirname "$PCOL")" && pwd)/$(basename "$PCOL") # (run from $d)
cd "$d" || fail "cd"
PATH="$fk:$PATH" check "disasm" disasm "$tmp/p.pb" .
PATH="$fk:$PATH" check "disasm, an address" disasm "$tmp/p.pcol" 0x1001
grep -q 'AKA ====.*LLLL' "$tmp/o/$n.out" || fail "disasm of an address: no AKA line"
PATH="$fk:$PATH" check "disasm --format tsv" disasm "$tmp/p.pb" . --format tsv
PATH="$fk:$PATH" PCOL_T_FAIL=1 check "disasm, objdump fails [err]" disasm "$tmp/p.pb" .
cd - >/dev/null || fail "cd"
PATH="$fk:$PATH" check "disasm, no binary [err]" disasm "$tmp/p.pb" .
# an importer's warning names the input (rd10: a warning printed the name
# raw): a Perun profile without resources, of a hostile name
printf '{"header":{"type":"mixed","units":{}},"resource_type_map":{},"resources":{}}' >"$tmp/pe${bad}.perf"
check "info, a warning naming a hostile file [ids]" info "$tmp/pe${bad}.perf"
grep -q 'no resource with an amount' "$tmp/o/$n.err" || fail "no Perun warning: $(head -c 300 "$tmp/o/$n.err")"
# messages on stderr: an unknown value lists the file's value types
check "top --value nope [ids]" top "$tmp/p.pcol" --value nope
grep -q owned "$tmp/o/$n.err" || fail "--value nope does not list the value types"
# a value that one source lacks: the warning names the source
"$PCOL" merge "$tmp/p.pcol" "$tmp/q.pcol" -o "$tmp/m.pcol" || fail "merge"
check "top --value type2 (merge)" top "$tmp/m.pcol" --value "type2${bad}"
# TSV stays reversible: a backslash is "\\", so "\x1b" text and an ESC differ
printf 'sample.interval=1000\n"a\\x1b" "main" \n' >"$tmp/r.out"
"$PCOL" cat "$tmp/r.out" --table functions | grep -qF 'a\\x1b' || fail "TSV: a backslash is not \\\\"
python3 - "$tmp/o" <<'PY' || exit 1
import os, re, sys
d = sys.argv[1]
bad = 0
for f in sorted(os.listdir(d)):
    if not f.endswith(".name"):
        continue
    k = f[:-5]
    name = open(os.path.join(d, f), errors="replace").read().strip()
    for ext in ("out", "err"):
        b = open(os.path.join(d, k + "." + ext), "rb").read()
        what = "%s (%s)" % (name, "stdout" if ext == "out" else "stderr")
        try:
            t = b.decode("utf-8")
        except UnicodeDecodeError as e:
            print("t_text_escape: FAIL: %s: invalid UTF-8: %r" % (what, b[max(0, e.start - 30):e.start + 20]))
            bad += 1
            continue
        m = re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", t)
        if m:
            print("t_text_escape: FAIL: %s: control character %r in %r" % (what, m.group(), t[max(0, m.start() - 30):m.start() + 30]))
            bad += 1
        # a bidi control (U+202E, RLO: "Trojan Source", review 22 F2) is
        # shown as \x{202e} in text; TSV and callgrind (data) keep it
        if "tsv" not in name and "callgrind" not in name and re.search("[\u202a-\u202e\u2066-\u2069]", t):
            print("t_text_escape: FAIL: %s: a raw bidi control in %r" % (what, t[:200]))
            bad += 1
        shown = "err" if "[err]" in name else "out" if "[ids]" not in name else None
        if ext == shown and "owned" not in t:
            print("t_text_escape: FAIL: %s: the hostile text is not shown" % what)
            bad += 1
sys.exit(1 if bad else 0)
PY
echo "t_text_escape: ok ($n commands)"
