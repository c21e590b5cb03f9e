#!/usr/bin/env bash
# --symbolize local (pprof -symbolize=local) on unsymbolized native pprof
# profiles of small C programs built here with gcc -g -O2 (a PIE and a
# -no-pie executable, a static function inlined), written with the
# addresses a profiler records (tests/interop/symbolize_gen.py: nm's
# addresses, mappings placed as the loader places them).
#
# Judged against:
#  - google/pprof's own pprof (binutils: llvm-symbolizer or addr2line, build
#    ids, inline frames) when one is given as $PPROF_STANDALONE or is `pprof`
#    on PATH: -top and -traces, every case;
#  - `go tool pprof` otherwise too: Go's copy symbolizes with Go's own
#    object reader (no inline frames, no build ids), so only -top
#    -noinlines, in the cases without a build id to check;
#  - pcol itself: the binary found by build id, by base name or at a
#    hostile path (-x, a newline) gives the rows the direct path gives;
#    addr2line (llvm-symbolizer off PATH) the rows llvm-symbolizer gives;
#    `pack --symbolize local` stores them; OTLP files of the same profiles
#    (pcol unpack --to otlp) give the same rows; a build id mismatch, a missing
#    binary and a hung tool are warnings (exit 0) and leave the rows as
#    --symbolize none;
#  - the bounds: an answer without end, lines past 1 MiB, a binary of 65000
#    note sections named by 30 mappings (read once, its notes up to 1 MiB:
#    the rows of the binary it was made from, within seconds), the
#    deadline before each mapping and before each file read in the search
#    for one (1000 slow ELF files before the binary); a tool whose lines
#    are padded with white space gives the rows of the real one (and
#    google/pprof's).
set -u
T=t_symbolize PPROF_FLAG=-symbolize
. "$(dirname "$0")/native_env.sh"

native_build
mkdir -p bp/"$bid" bp2 && cp pie bp/"$bid"/pie && cp nopie bp2/renamed && cp nopie ./-x && cp nopie "$tmp/nl
x"
gen direct.pb "[{\"bin\":\"pie\",\"base\":$PIEB,\"name\":\"$tmp/pie\",\"build_id\":\"real\"},{\"bin\":\"nopie\",\"base\":0,\"name\":\"$tmp/nopie\",\"build_id\":\"\"}]"
gen byid.pb "[{\"bin\":\"pie\",\"base\":$PIEB,\"name\":\"/nonexistent/dir/pie\",\"build_id\":\"real\"}]"
gen pieonly.pb "[{\"bin\":\"pie\",\"base\":$PIEB,\"name\":\"$tmp/pie\",\"build_id\":\"real\"}]"
gen byname.pb "[{\"bin\":\"nopie\",\"base\":0,\"name\":\"/nonexistent/dir/renamed\",\"build_id\":\"\"}]"
gen nopieonly.pb "[{\"bin\":\"nopie\",\"base\":0,\"name\":\"$tmp/nopie\",\"build_id\":\"\"}]"
gen mismatch.pb "[{\"bin\":\"pie\",\"base\":$PIEB,\"name\":\"$tmp/pie\",\"build_id\":\"00112233445566778899aabbccddeeff00112233\"}]"
gen missing.pb "[{\"bin\":\"nopie\",\"base\":0,\"name\":\"/nonexistent/gone\",\"build_id\":\"\"}]"
gen dash.pb "[{\"bin\":\"nopie\",\"base\":0,\"name\":\"-x\",\"build_id\":\"\"}]"
gen newline.pb "[{\"bin\":\"nopie\",\"base\":0,\"name\":\"$tmp/nl\\nx\",\"build_id\":\"\"}]"
mkfifo "$tmp/fifo" && gen fifo.pb "[{\"bin\":\"nopie\",\"base\":0,\"name\":\"$tmp/fifo\",\"build_id\":\"\"}]"

cut() { sed -n '/^Showing nodes/,$p'; }
traces() { sed -n '/^-----/,$p'; }
# same WHAT FILE1 FILE2
same() {
  n=$((n + 1))
  if [ ! -s "$2" ]; then bad "$1: empty output"; return; fi
  cmp -s "$2" "$3" || { bad "$1"; diff "$2" "$3" | head -8; }
}
# pc OUT ARGS...: pcol, the view's rows (stderr kept in OUT.err)
pc() { local o=$1; shift; "$PCOL" "$@" 2>"$o.err" >"$o.raw"; echo $? >"$o.rc"; }

# --- pcol against itself: rows that must be the direct path's -----------
pc d.top top direct.pb --symbolize local; cut <d.top.raw >d.top
pc d.tr traces direct.pb --symbolize local; traces <d.tr.raw >d.tr
grep -q 'sq (inline)' d.top || bad "direct: no inline frame of sq in top"
grep -q '\[pie\]\|\[nopie\]' d.top && bad "direct: unsymbolized rows left"
pc p.top top pieonly.pb --symbolize local; cut <p.top.raw >p.top
pc q.top top nopieonly.pb --symbolize local; cut <q.top.raw >q.top
pc i.top top byid.pb --symbolize local --binary-path "/nonexistent:$tmp/bp"; cut <i.top.raw >i.top
same "by build id (--binary-path) = the direct path" p.top i.top
PPROF_BINARY_PATH=$tmp/bp pc i2.top top byid.pb --symbolize local; cut <i2.top.raw >i2.top
same "by build id (PPROF_BINARY_PATH) = the direct path" p.top i2.top
pc b.top top byname.pb --symbolize local --binary-path "$tmp/bp2"; cut <b.top.raw >b.top
same "by base name = the direct path" q.top b.top
pc x.top top dash.pb --symbolize local; cut <x.top.raw >x.top
same "a binary named -x = the direct path" q.top x.top
pc nl.top top newline.pb --symbolize local; cut <nl.top.raw >nl.top
same "a binary whose name holds a newline = the direct path" q.top nl.top
# pack stores the names
"$PCOL" pack --symbolize local direct.pb -o direct.pcol 2>pack.err || bad "pack --symbolize local failed: $(cat pack.err)"
pc k.top top direct.pcol; cut <k.top.raw >k.top
same "pack --symbolize local, then top = top --symbolize local" d.top k.top
pc k.tr traces direct.pcol; traces <k.tr.raw >k.tr
same "pack --symbolize local, then traces" d.tr k.tr
# OTLP (an eBPF profiler's native frames): the same profiles written as
# OTLP by pcol give the same rows, build ids included
"$PCOL" unpack direct.pb --to otlp -o direct.otlp && "$PCOL" unpack byid.pb --to otlp -o byid.otlp &&
  "$PCOL" unpack mismatch.pb --to otlp -o mismatch.otlp || bad "unpack --to otlp failed"
pc o.top top direct.otlp --symbolize local; cut <o.top.raw >o.top
same "OTLP: top --symbolize local = pprof's" d.top o.top
pc o.tr traces direct.otlp --symbolize local; traces <o.tr.raw >o.tr
same "OTLP: traces --symbolize local = pprof's" d.tr o.tr
pc oi.top top byid.otlp --symbolize local --binary-path "$tmp/bp"; cut <oi.top.raw >oi.top
same "OTLP: by build id = the direct path" p.top oi.top
pc om.top top mismatch.otlp --symbolize local
n=$((n + 1))
grep -q 'build ID mismatch' om.top.err || { bad "OTLP: build id mismatch warning"; cat om.top.err; }
# none (the default) shows the mappings; mismatch and missing leave them so
pc n.top top direct.pb; cut <n.top.raw >n.top
grep -q '\[pie\]' n.top || bad "--symbolize none (default): [pie] rows expected"
pc nn.top top direct.pb --symbolize none; cut <nn.top.raw >nn.top
same "--symbolize none = no option" n.top nn.top
pc m.top top mismatch.pb --symbolize local; cut <m.top.raw >m.top
pc mn.top top mismatch.pb; cut <mn.top.raw >mn.top
same "build id mismatch: rows as --symbolize none" mn.top m.top
n=$((n + 1))
[ "$(cat m.top.rc)" = 0 ] && grep -q 'Local symbolization failed for pie (build ID 00112233445566778899aabbccddeeff00112233): build ID mismatch' m.top.err ||
  { bad "build id mismatch: exit 0 and pprof's warning"; cat m.top.err; }
pc g.top top missing.pb --symbolize local
n=$((n + 1))
[ "$(cat g.top.rc)" = 0 ] && grep -q 'Local symbolization failed for gone: stat /nonexistent/gone: No such file or directory' g.top.err ||
  { bad "missing binary: exit 0 and pprof's warning"; cat g.top.err; }
# a mapping naming a FIFO (open() would wait for a writer forever): a
# warning, the rows as --symbolize none, within the test's time limit
timeout 20 "$PCOL" top fifo.pb --symbolize local 2>fifo.err >/dev/null
rc=$?
n=$((n + 1))
[ $rc = 0 ] && grep -q 'not a regular file' fifo.err || { bad "a FIFO as the binary: exit $rc (124: it hung), a warning"; cat fifo.err; }
# a bad mode is refused
"$PCOL" top direct.pb --symbolize remote >/dev/null 2>&1
rc=$?
n=$((n + 1))
[ $rc = 2 ] || bad "--symbolize remote: usage error expected"
# addr2line when llvm-symbolizer is not on PATH: the same rows
if command -v addr2line >/dev/null; then
  mkdir -p a2l && ln -s "$(command -v addr2line)" a2l/addr2line
  PATH=$tmp/a2l pc a.top top direct.pb --symbolize local; cut <a.top.raw >a.top
  same "addr2line = llvm-symbolizer (top)" d.top a.top
  PATH=$tmp/a2l pc a.tr traces direct.pb --symbolize local; traces <a.tr.raw >a.tr
  same "addr2line = llvm-symbolizer (traces)" d.tr a.tr
fi
# a binary named @x: binutils (and LLVM's tools) read any argument "@FILE"
# as a file of options, also after -e; ./x says --version here (nm would
# take --plugin from it), so the rows are right only when @x stays a path
if command -v addr2line >/dev/null; then
  cp nopie ./@x && printf -- '--version\n' >x
  gen at.pb "[{\"bin\":\"nopie\",\"base\":0,\"name\":\"@x\",\"build_id\":\"\"}]"
  PATH=$tmp/a2l pc at.top top at.pb --symbolize local; cut <at.top.raw >at.top
  same "a binary named @x (addr2line: no file of options) = the direct path" q.top at.top
  pc atl.top top at.pb --symbolize local; cut <atl.top.raw >atl.top
  same "a binary named @x (llvm-symbolizer) = the direct path" q.top atl.top
  rm -f x
fi
# a hung tool is killed at the time limit: a warning, the rows unsymbolized
mkdir -p hang && printf '#!/bin/sh\nexec /bin/sleep 30\n' >hang/llvm-symbolizer && chmod +x hang/llvm-symbolizer
s=$(date +%s)
PATH=$tmp/hang PCOL_SYMBOLIZE_TIMEOUT=1 pc h.top top nopieonly.pb --symbolize local
n=$((n + 1))
[ $(($(date +%s) - s)) -le 10 ] && [ "$(cat h.top.rc)" = 0 ] && grep -q 'took more than 1 s' h.top.err ||
  { bad "hung tool: killed after 1 s with a warning"; cat h.top.err; }
# the time limit's warning comes first, not among "and N more": 40
# binaries not found are warned of before the hung run is killed
specs=""
for k in $(seq 1 40); do
  specs="$specs{\"bin\":\"nopie\",\"base\":$((k * 268435456)),\"name\":\"/nonexistent/dir/gone-binary-number-$k\",\"build_id\":\"\"},"
done
gen many.pb "[$specs{\"bin\":\"nopie\",\"base\":0,\"name\":\"$tmp/nopie\",\"build_id\":\"\"}]"
PATH=$tmp/hang PCOL_SYMBOLIZE_TIMEOUT=1 pc h4.top top many.pb --symbolize local
n=$((n + 1))
[ "$(cat h4.top.rc)" = 0 ] && grep -q 'took more than 1 s' h4.top.err && grep -q 'and [0-9]* more' h4.top.err ||
  { bad "41 mappings, 40 binaries not found, a hung tool: the time limit's warning shown"; cat h4.top.err; }
# one that closes its output and then hangs
printf '#!/bin/sh\nexec >&-\nexec /bin/sleep 30\n' >hang/llvm-symbolizer
s=$(date +%s)
PATH=$tmp/hang PCOL_SYMBOLIZE_TIMEOUT=1 pc h2.top top nopieonly.pb --symbolize local
n=$((n + 1))
[ $(($(date +%s) - s)) -le 10 ] && [ "$(cat h2.top.rc)" = 0 ] && grep -q 'took more than 1 s' h2.top.err ||
  { bad "tool that closes its output and hangs: killed after 1 s with a warning"; cat h2.top.err; }
# the time limit is the whole input's: with the first binary's run
# killed, the second binary is not run at all
printf '#!/bin/sh\nexec /bin/sleep 30\n' >hang/llvm-symbolizer
s=$(date +%s)
PATH=$tmp/hang PCOL_SYMBOLIZE_TIMEOUT=1 pc h3.top top direct.pb --symbolize local
n=$((n + 1))
[ $(($(date +%s) - s)) -le 10 ] && [ "$(cat h3.top.rc)" = 0 ] && grep -q 'took more than 1 s' h3.top.err &&
  grep -q 'not run, the 1 s of PCOL_SYMBOLIZE_TIMEOUT were spent' h3.top.err ||
  { bad "two binaries, a hung tool: one run killed at 1 s, the other not run"; cat h3.top.err; }
# a tool whose answer never ends: stopped when its names and frames pass
# 64 MiB (each name new), or at a line of more than 1 MiB; the address
# being read stays unsymbolized, exit 0 with a warning
mkdir -p flood
cat >flood/llvm-symbolizer <<EOF2
#!/usr/bin/env python3
import sys
o = sys.stdout
o.write(sys.stdin.readline())
line = __import__("os").environ.get("FLOOD")
if line:
    o.write("x" * int(line)); o.flush(); sys.exit(0)
line = __import__("os").environ.get("FLOODNL")
if line: # a whole line, its newline in the same write
    o.write("x" * int(line) + "\n"); o.flush(); sys.exit(0)
pad = "n" * 4000
i = 0
while True:
    o.write("f%d%s\nfile%d.c:1\n" % (i, pad, i)); i += 1
EOF2
chmod +x flood/llvm-symbolizer
PATH=$tmp/flood:$PATH pc fl.top top nopieonly.pb --symbolize local; cut <fl.top.raw >fl.top
n=$((n + 1))
[ "$(cat fl.top.rc)" = 0 ] && grep -q 'its names and frames passed 64 MiB' fl.top.err && grep -q '\[nopie\]' fl.top ||
  { bad "an endless answer: stopped at 64 MiB with a warning, rows unsymbolized"; cat fl.top.err; }
# (the bound is the line's, wherever the window of the output stands: a
# line of 1.5 MiB too, and one of exactly 1 MiB is read)
# line_case VAR LEN OUT WARN WHAT: the flood tool writes LEN bytes (FLOOD:
# no newline; FLOODNL: a whole line, its newline in the same write); WARN
# 1: the line bound's warning wanted, 0: none
line_case() {
  (export "$1=$2" PATH="$tmp/flood:$PATH"; pc "$3" top nopieonly.pb --symbolize local)
  n=$((n + 1))
  local warned=0
  grep -q 'wrote a line longer than 1048576 bytes' "$3.err" && warned=1
  [ "$(cat "$3.rc")" = 0 ] && [ "$warned" = "$4" ] || { bad "$5"; cat "$3.err"; }
}
line_case FLOOD $((3 << 19)) fl2.top 1 "a 1.5 MiB line: a warning"
line_case FLOOD $((1 << 20)) fl3.top 0 "a line of 1 MiB: read, no warning"
# (and a line whose newline comes in the read that brings its end)
line_case FLOODNL $(((1 << 20) + 1)) fl4.top 1 "a whole line of 1 MiB + 1: a warning"
line_case FLOODNL $((1 << 20)) fl5.top 0 "a whole line of 1 MiB: read, no warning"
# a tool whose lines are padded with white space (ASCII, U+0085, U+00A0,
# U+3000; the empty line that ends llvm-symbolizer's answer too): pprof
# reads every line through strings.TrimSpace, and so the rows are the
# direct path's; google/pprof, given the same tool, agrees
mkdir -p pad/l pad/a
for t in llvm-symbolizer addr2line; do
  command -v $t >/dev/null || continue
  # (addr2line's directory alone on PATH: llvm-symbolizer is not found)
  d=pad/l p=$tmp/pad/l:$PATH
  [ $t = addr2line ] && d=pad/a p=$tmp/pad/a
  cat >$d/$t <<EOF2
#!$(python3 -c "import sys; print(sys.executable)")
import subprocess, sys
p = subprocess.Popen(["$(command -v $t)"] + sys.argv[1:], stdout=subprocess.PIPE)
for k, line in enumerate(p.stdout):
    pad = [" \t", "\u00a0", "\u3000 ", "\u0085", "\v\f"][k % 5]
    sys.stdout.buffer.write((pad + line.decode("utf-8", "surrogateescape").rstrip("\n") + pad[::-1] + "\r\n").encode("utf-8", "surrogateescape"))
    sys.stdout.flush()
sys.exit(p.wait())
EOF2
  chmod +x $d/$t
  PATH=$p pc pad.top top direct.pb --symbolize local; cut <pad.top.raw >pad.top
  same "$t's lines padded with white space = the direct path (top)" d.top pad.top
  PATH=$p pc pad.tr traces direct.pb --symbolize local; traces <pad.tr.raw >pad.tr
  same "$t's lines padded with white space = the direct path (traces)" d.tr pad.tr
  if [ -n "$STANDALONE" ]; then
    PATH=$p PPROF_BINARY_PATH=/nonexistent "$STANDALONE" -symbolize=local -traces direct.pb 2>/dev/null |
      traces >spad.tr
    same "google/pprof -traces, $t's lines padded" spad.tr pad.tr
  fi
done
# a binary of 65000 note sections, each the same 64 KiB of notes without a
# build id (a 4.2 MB file; 4 GB of notes for a reader without a bound),
# named by 30 mappings: its notes are read up to 1 MiB, the file once, and
# the rows are those of the binary it was made from
gcc -g -O2 -fPIE -pie -Wl,--build-id=none -o pienb prog.c || bad "gcc: no binary without a build id"
python3 - pienb notes 65000 <<'EOF2' || bad "cannot write the binary of many notes"
import struct, sys
src, out, total = sys.argv[1], sys.argv[2], int(sys.argv[3])
d = bytearray(open(src, "rb").read())
shoff, = struct.unpack_from("<Q", d, 40)
shentsize, shnum = struct.unpack_from("<HH", d, 58)
old = bytes(d[shoff:shoff + shentsize * shnum])
note = struct.pack("<III", 4, 4, 1) + b"XYZ\0" + b"\0" * 4  # no GNU build id
blob = note * ((1 << 16) // len(note))
d += b"\0" * (-len(d) % 8)
boff = len(d)
d += blob + b"\0" * (-len(blob) % 8)
noff = len(d)
d += old  # the binary's own sections, then the notes
for i in range(total - shnum):
    d += struct.pack("<IIQQQQIIQQ", 0, 7, 0, 0, boff, len(blob), 0, 0, 4, 0)
struct.pack_into("<Q", d, 40, noff)
struct.pack_into("<H", d, 60, total)
open(out, "wb").write(d)
EOF2
for f in notes pienb; do
  spec=$(python3 -c "import json; print(json.dumps([{'bin':'pienb','base':$PIEB+i*(1<<24),'name':'$tmp/$f','build_id':''} for i in range(30)]))")
  gen "$f.pb" "$spec"
done
s=$(date +%s)
PCOL_SYMBOLIZE_TIMEOUT=5 timeout 60 "$PCOL" top notes.pb --symbolize local 2>notes.err >notes.raw
rc=$? took=$(($(date +%s) - s))
cut <notes.raw >notes.top
"$PCOL" top pienb.pb --symbolize local 2>/dev/null | cut >pienb.top
n=$((n + 1))
[ $rc = 0 ] && [ $took -le 10 ] && [ ! -s notes.err ] ||
  { bad "65000 note sections, 30 mappings: exit $rc after ${took}s (124: killed at 60 s)"; cat notes.err; }
same "65000 note sections, 30 mappings = the binary without them" pienb.top notes.top
# the deadline is looked at before each mapping's binary is looked for:
# past it, no file is read and no tool run, with one warning
PCOL_SYMBOLIZE_TIMEOUT=0.000001 pc late.top top pienb.pb --symbolize local
n=$((n + 1))
[ "$(cat late.top.rc)" = 0 ] && grep -q '30 mappings not symbolized: their binaries not looked for' late.top.err &&
  ! grep -q 'took more than' late.top.err ||
  { bad "past the deadline: the binaries not looked for"; cat late.top.err; }
# and before each file read while one mapping's binary is looked for:
# past it, the other files of its search (up to 4096 a directory) are not
# read, the mapping is left as it was, with a warning
slow_dir slow
s=$(date +%s)
PCOL_SYMBOLIZE_TIMEOUT=1 timeout 60 "$PCOL" top byid.pb --symbolize local --binary-path "$tmp/slow" 2>slow.err >slow.raw
rc=$? took=$(($(date +%s) - s))
cut <slow.raw >slow.top
"$PCOL" top byid.pb | cut >slown.top
n=$((n + 1))
[ $rc = 0 ] && [ $took -le 10 ] &&
  grep -q "Local symbolization failed for pie (build ID $bid): looking for its binary took more than 1 s" slow.err ||
  { bad "1000 slow files before the binary: exit $rc after ${took}s (124: killed at 60 s), a warning"; cat slow.err; }
same "1000 slow files before the binary: the rows as --symbolize none" slown.top slow.top
# a mapping whose file name holds a NUL byte names no file (a C path would
# be cut at it): a warning
gen nul.pb "[{\"bin\":\"nopie\",\"base\":0,\"name\":\"$tmp/nopie\\u0000x\",\"build_id\":\"\"}]"
pc nul.top top nul.pb --symbolize local
n=$((n + 1))
[ "$(cat nul.top.rc)" = 0 ] && grep -q 'Local symbolization failed for .*: the file name holds a NUL byte' nul.top.err ||
  { bad "a file name holding a NUL: a warning"; cat nul.top.err; }
# one tool run a binary, not a mapping: 300 mappings of one PIE (a server
# forked 300 times) run it once and give what 300 runs gave
if command -v llvm-symbolizer >/dev/null; then
  mkdir -p count
  printf '#!/bin/sh\necho run >>%s/runs\nexec %s "$@"\n' "$tmp" "$(command -v llvm-symbolizer)" >count/llvm-symbolizer
  chmod +x count/llvm-symbolizer
  spec=$(python3 -c "import json,sys; print(json.dumps([{'bin':'pie','base':$PIEB+i*(1<<24),'name':'$tmp/pie','build_id':'real'} for i in range(300)]))")
  gen many.pb "$spec"
  : >runs
  PATH=$tmp/count:$PATH pc mm.top top many.pb --symbolize local; cut <mm.top.raw >mm.top
  n=$((n + 1))
  [ "$(wc -l <runs)" = 1 ] && [ "$(cat mm.top.rc)" = 0 ] && [ ! -s mm.top.err ] && ! grep -q '\[pie\]' mm.top ||
    { bad "300 mappings of one binary: $(wc -l <runs) runs (1 expected)"; cat mm.top.err; }
  # the same rows as one mapping's, each 300 times (pprof: the same names)
  "$PCOL" top many.pb --symbolize local -n 1000 2>/dev/null | cut | awk '{print $NF}' | sort >mm.names
  "$PCOL" top pieonly.pb --symbolize local -n 1000 2>/dev/null | cut | awk '{print $NF}' | sort >p.names
  same "300 mappings of one binary: the names of one mapping's" p.names mm.names
  if [ -n "$STANDALONE" ]; then
    PPROF_BINARY_PATH=/nonexistent "$STANDALONE" -symbolize=local -top many.pb 2>/dev/null | cut >smm.top
    same "google/pprof -top, 300 mappings of one binary" smm.top mm.top
  fi
fi

# --- google/pprof (binutils) -------------------------------------------
if [ -n "$STANDALONE" ]; then
  sp() { # sp OUT ENV... -- PPROF-ARGS
    local o=$1; shift
    local e=()
    while [ "$1" != -- ]; do e+=("$1"); shift; done
    shift
    env "${e[@]}" "$STANDALONE" "$@" 2>"$o.err" >"$o.raw"
  }
  for c in "direct.pb d -" "byid.pb i PPROF_BINARY_PATH=/nonexistent:$tmp/bp" "byname.pb b PPROF_BINARY_PATH=$tmp/bp2" \
           "mismatch.pb m -" "missing.pb g -" "dash.pb x -"; do
    set -- $c
    f=$1 k=$2 ev=$3
    [ "$ev" = - ] && ev=PPROF_BINARY_PATH=/nonexistent
    sp "s$k.top" "$ev" -- -symbolize=local -top "$f"; cut <"s$k.top.raw" >"s$k.top"
    env "$ev" "$PCOL" top "$f" --symbolize local 2>/dev/null | cut >"c$k.top"
    same "google/pprof -top, $f" "s$k.top" "c$k.top"
    sp "s$k.tr" "$ev" -- -symbolize=local -traces "$f"; traces <"s$k.tr.raw" >"s$k.tr"
    env "$ev" "$PCOL" traces "$f" --symbolize local 2>/dev/null | traces >"c$k.tr"
    same "google/pprof -traces, $f" "s$k.tr" "c$k.tr"
  done
  # lines: -top -lines names each frame's file and line
  sp sl.top PPROF_BINARY_PATH=/nonexistent -- -symbolize=local -top -lines direct.pb; cut <sl.top.raw >sl.top
  "$PCOL" top direct.pb --symbolize local --by line 2>/dev/null | cut >cl.top
  same "google/pprof -top -lines" sl.top cl.top
  grep -q 'build ID mismatch' sm.top.err || bad "google/pprof no longer says 'build ID mismatch'"
else
  echo "t_symbolize: no google/pprof (PPROF_STANDALONE or pprof on PATH): compared with go tool pprof only"
fi

# --- go tool pprof: Go's object reader, names of the outer frames --------
if [ $HAVE_GO = 1 ]; then
  for c in "nopieonly.pb /nonexistent" "pieonly.pb /nonexistent" "byname.pb $tmp/bp2" "missing.pb /nonexistent" "dash.pb /nonexistent"; do
    set -- $c
    PPROF_BINARY_PATH=$2 go tool pprof -symbolize=local -top -noinlines "$1" 2>/dev/null | cut >go.top
    PPROF_BINARY_PATH=$2 "$PCOL" top "$1" --symbolize local --no-inlines 2>/dev/null | cut >pc.top
    same "go tool pprof -top -noinlines, $1" go.top pc.top
  done
  # a gperftools CPU profile (pprof's legacy binary format) of the PIE
  python3 "$REPO/tests/support/legacy_cpu_gen.py" native pie $PIEB legacy.prof || bad "legacy_cpu_gen.py native"
  PPROF_BINARY_PATH=/nonexistent go tool pprof -symbolize=local -traces -noinlines legacy.prof 2>/dev/null | traces >go.tr
  PPROF_BINARY_PATH=/nonexistent "$PCOL" traces legacy.prof --symbolize local --no-inlines 2>/dev/null | traces >pc.tr
  grep -q work go.tr || bad "go tool pprof did not symbolize legacy.prof"
  same "go tool pprof -traces -noinlines, legacy.prof (gperftools)" go.tr pc.tr
  # the profiler's own frames (drop_frames of a legacy profile) named by the
  # binary: go prunes them once it has named them, pcol after it has too
  cat >drop.c <<'C'
volatile int sink;
__attribute__((noinline)) int __restore(int x) { for (int i = 0; i < x; i++) sink += i * x; return sink; }
__attribute__((noinline)) int work(int x) { int r = 0; for (int i = 0; i < x; i++) { sink = i; r += __restore(i) * 7 + sink; } return r; }
__attribute__((noinline)) int other(int x) { for (int i = 0; i < 3; i++) sink += work(x + i); return sink; }
int main(int argc, char **argv) { (void)argv; return other(argc); }
C
  gcc -g -O2 -fPIE -pie -o dropbin drop.c || bad "gcc drop.c"
  python3 "$REPO/tests/support/legacy_cpu_gen.py" native-drop dropbin $PIEB legacy-drop.prof || bad "legacy_cpu_gen.py native-drop"
  # (-top: -traces would list a stack pruned into another's apart, as pprof
  # merges before it prunes, doc/mappings.md §2.1)
  PPROF_BINARY_PATH=/nonexistent go tool pprof -symbolize=local -top -noinlines legacy-drop.prof 2>/dev/null | cut >go.top
  PPROF_BINARY_PATH=/nonexistent "$PCOL" top legacy-drop.prof --symbolize local --no-inlines 2>/dev/null | cut >pc.top
  grep -q work go.top && "$PCOL" top legacy-drop.prof --symbolize none | grep -q dropbin ||
    bad "legacy-drop.prof: go tool pprof did not name its frames, or pcol did without --symbolize local"
  grep -q __restore go.top && bad "go tool pprof no longer prunes __restore from a legacy profile"
  same "go tool pprof -top -noinlines, legacy-drop.prof (gperftools, __restore pruned)" go.top pc.top
fi
# --- demangling: C++ and Rust names as pprof shows them ------------------
# pprof demangles every function whose name is empty or its system name,
# symbolized or not, after -symbolize=local (demangle.NoParams,
# NoEnclosingParams, NoTemplateParams; else its heuristic for demangled
# C++).  Programs built here (C++ with g++ and clang++ at -O0 and -O2, Rust
# with rustc: its default names, v0, and legacy ones) give unsymbolized
# profiles with a sample in each function whose symbol is mangled; their
# symbols, their c++filt forms, libstdc++'s and a few other names give a
# symbolized one (pprofgen.py names).  Judges: google/pprof on all; go tool
# pprof (1.19's copy of the demangler) on the symbolized one, less what
# that older copy prints otherwise (Rust v0 generic arguments: no _R names;
# the parameters of a local name's function: no row with ")::" either side).
cat >prog.cc <<'EOF'
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>
#define NI __attribute__((noinline))
namespace outer { namespace inner {
template <typename T, int N> struct Box {
  T v[N];
  NI Box() { for (int i = 0; i < N; i++) v[i] = T(i); }
  NI ~Box() { std::printf("%d\n", (int)v[0]); }
  NI T sum() const { T s = T(); for (int i = 0; i < N; i++) s += v[i]; return s; }
  NI bool operator<(const Box &o) const { return sum() < o.sum(); }
  NI T operator()(int k) const { return v[k % N]; }
  NI explicit operator long() const { return (long)sum(); }
  template <typename F> NI T apply(F f) const { T s = T(); for (auto &x : v) s += f(x); return s; }
};
} }
namespace {
NI int hidden(int x) { return x * 3 + 1; }
struct Local { NI virtual int f(int x) { return hidden(x); } virtual ~Local() {} };
}
struct A { virtual NI int fa(int x) { return x + 1; } virtual ~A() {} };
struct B { virtual NI int fb(int x) { return x + 2; } virtual ~B() {} };
struct C : A, B { NI int fb(int x) override { return x * 5; } };
NI std::string name_of(int x) { return std::string(x % 7 + 1, 'x'); }
NI unsigned long long operator""_k(unsigned long long v) { return v * 1000; }
template <typename... Ts> NI int count_all(Ts... ts) {
  auto l = [&](int base) { return base + (int)sizeof...(ts); };
  return l((int)(ts + ...));
}
inline NI int inl(int x) { return x ^ 0x55; }
struct S { int a; NI S &operator+=(const S &o) { a += o.a; return *this; } };
int main(int argc, char **) {
  outer::inner::Box<int, 4> b;
  outer::inner::Box<double, 3> d;
  std::vector<int> v;
  std::map<std::string, int> m;
  for (int i = 0; i < argc * 1000; i++) {
    v.push_back(i);
    m[name_of(i)] += i;
  }
  auto lam = [&](int x) { return x + (int)v.size(); };
  std::function<int(int)> fn = lam;
  auto up = std::make_unique<Local>();
  C c;
  B *pb = &c;
  S s{1}, t{2};
  s += t;
  long total = b.sum() + (long)d.sum() + (b < b) + b(3) + (long)b + fn(2) + up->f(3) + pb->fb(4) +
               c.fa(1) + count_all(1, 2, 3) + inl(argc) + (long)123_k + s.a +
               b.apply([](int x) { return x * 2; });
  std::printf("%ld %zu\n", total, m.size());
  return 0;
}
EOF
cat >prog.rs <<'EOF'
use std::collections::HashMap;
struct S<T> { v: Vec<T> }
impl<T: Clone> S<T> { #[inline(never)] fn get(&self, i: usize) -> T { self.v[i].clone() } }
trait Shape { fn area(&self) -> f64; }
struct Sq(f64);
impl Shape for Sq { #[inline(never)] fn area(&self) -> f64 { self.0 * self.0 } }
#[inline(never)] fn work(n: u64) -> u64 {
  let mut h = HashMap::new();
  for i in 0..n { *h.entry(i % 7).or_insert(0u64) += i; }
  let c = |x: u64| x * 3;
  h.values().map(|v| c(*v)).sum()
}
fn main() {
  let s = S { v: vec![1u32, 2, 3] };
  let b: Box<dyn Shape> = Box::new(Sq(2.0));
  println!("{} {} {}", s.get(1), work(std::env::args().count() as u64 * 1000), b.area());
}
EOF
dm_bins=()
for cc in g++ clang++; do
  if ! command -v $cc >/dev/null; then echo "t_symbolize: $cc not installed: its C++ programs skipped"; continue; fi
  for o in 0 2; do
    if $cc -std=c++17 -g -O$o -fPIE -pie -Wl,--build-id -o "cxx-$cc-O$o" prog.cc 2>cc.err; then
      dm_bins+=("cxx-$cc-O$o")
    else
      echo "t_symbolize: $cc -O$o cannot build the C++ program: skipped"; head -3 cc.err
    fi
  done
done
if command -v rustc >/dev/null; then
  for m in default v0 legacy; do
    f=()
    [ $m = default ] || f=(-C "symbol-mangling-version=$m")
    [ $m = legacy ] && f=(-Z unstable-options "${f[@]}")
    if RUSTC_BOOTSTRAP=1 rustc -g "${f[@]}" -o "rs-$m" prog.rs 2>rs.err; then
      dm_bins+=("rs-$m")
    else
      echo "t_symbolize: rustc cannot make $m names: skipped"; head -3 rs.err
    fi
  done
else
  echo "t_symbolize: rustc not installed: Rust names skipped"
fi
: >names.txt
for b in ${dm_bins[@]+"${dm_bins[@]}"}; do
  gen "dm-$b.pb" "[{\"bin\":\"$b\",\"base\":$PIEB,\"name\":\"$tmp/$b\",\"build_id\":\"real\",\"funcs\":\"mangled\"}]"
  nm "$b" | awk '{print $NF}' | grep '^_[ZR]' >>names.txt
done
if [ -s names.txt ]; then
  command -v c++filt >/dev/null && grep '^_Z' names.txt | c++filt >>names.txt
  so=$(g++ -print-file-name=libstdc++.so.6 2>/dev/null)
  [ -f "$so" ] && nm -D "$so" | awk '{print $NF}' | grep '^_Z' | sed 's/@.*//' >>names.txt
  printf '%s\n' 'main.(*T[...]).M' 'java.util.HashMap.<init>' 'main.F[...]' 'a<b>(c)::d' 'x::y(' \
    'operator<' 'f<(int)>' 'a)b(::c' >>names.txt
  sort -u names.txt -o names.txt
  grep -v '^_R' names.txt >names-go.txt
  python3 "$REPO/tests/support/pprofgen.py" names names.pb names.txt &&
    python3 "$REPO/tests/support/pprofgen.py" names names-go.pb names-go.txt || bad "pprofgen.py names failed"
  echo "t_symbolize: demangling: ${#dm_bins[@]} programs, $(wc -l <names.txt) names"
  "$PCOL" traces names.pb --symbolize local 2>/dev/null | traces >c-names.tr
  n=$((n + 1))
  [ -s c-names.tr ] && grep -q '::' c-names.tr || bad "demangling: no demangled name in traces"
  # none: the profile's own names, as pprof -symbolize=none shows them
  "$PCOL" traces names.pb 2>/dev/null | traces >c-names-none.tr
  n=$((n + 1))
  cmp -s c-names.tr c-names-none.tr && bad "demangling: --symbolize none demangled too"
  # OTLP: the same functions, the same names
  "$PCOL" unpack names.pb --to otlp -o names.otlp || bad "unpack names.pb --to otlp failed"
  "$PCOL" traces names.otlp --symbolize local 2>/dev/null | traces >c-names-otlp.tr
  same "demangling: OTLP = pprof's profile" c-names.tr c-names-otlp.tr
  if [ -n "$STANDALONE" ]; then
    "$STANDALONE" -symbolize=local -traces names.pb 2>/dev/null | traces >s-names.tr
    same "demangling: google/pprof -traces, symbolized functions" s-names.tr c-names.tr
    "$STANDALONE" -symbolize=none -traces names.pb 2>/dev/null | traces >s-names-none.tr
    same "demangling: google/pprof -symbolize=none -traces" s-names-none.tr c-names-none.tr
    for b in ${dm_bins[@]+"${dm_bins[@]}"}; do
      PPROF_BINARY_PATH=/nonexistent "$STANDALONE" -symbolize=local -traces "dm-$b.pb" 2>/dev/null | traces >"s-$b.tr"
      PPROF_BINARY_PATH=/nonexistent "$PCOL" traces "dm-$b.pb" --symbolize local 2>/dev/null | traces >"c-$b.tr"
      same "demangling: google/pprof -traces, $b" "s-$b.tr" "c-$b.tr"
      PPROF_BINARY_PATH=/nonexistent "$STANDALONE" -symbolize=local -top "dm-$b.pb" 2>/dev/null | cut >"s-$b.top"
      PPROF_BINARY_PATH=/nonexistent "$PCOL" top "dm-$b.pb" --symbolize local 2>/dev/null | cut >"c-$b.top"
      same "demangling: google/pprof -top, $b" "s-$b.top" "c-$b.top"
      if [ -d a2l ]; then
        PATH=$tmp/a2l PPROF_BINARY_PATH=/nonexistent "$STANDALONE" -symbolize=local -traces "dm-$b.pb" 2>/dev/null |
          traces >"sa-$b.tr"
        PATH=$tmp/a2l PPROF_BINARY_PATH=/nonexistent "$PCOL" traces "dm-$b.pb" --symbolize local 2>/dev/null |
          traces >"ca-$b.tr"
        same "demangling: google/pprof -traces with addr2line, $b" "sa-$b.tr" "ca-$b.tr"
      fi
    done
  fi
  if [ $HAVE_GO = 1 ]; then
    go tool pprof -symbolize=local -traces names-go.pb 2>/dev/null | traces | grep -vF ')::' >g-names.tr
    "$PCOL" traces names-go.pb --symbolize local 2>/dev/null | traces | grep -vF ')::' >c-names-go.tr
    same "demangling: go tool pprof -traces, symbolized functions (no _R, no local names)" g-names.tr c-names-go.tr
  fi
else
  echo "t_symbolize: no C++ compiler nor rustc: demangling skipped"
fi

# --- demangling is bounded (symbolize.h: PCOL_SYM_MAX_DEMANGLE) ----------
# castnames D NAME...: a line per NAME, a C++ name whose conversion
# operators nest D deep (each level parsed twice by
# demangleCastTemplateArgs: D = 12 about half a million units of work,
# D = 13 a million, demangle.h), innermost NAME (one python3 for all)
castnames() { python3 -c 'import sys
for x in sys.argv[2:]:
    for k in range(int(sys.argv[1])): x = "N1acvT_I" + x + "EE"
    print("_Z1fI" + x + "Ev")' "$@"; }
# pc2 WHAT FILE: pcol's traces of FILE (stderr in FILE.err) and the
# reference's, into FILE.c and FILE.s
pc2() {
  "$PCOL" traces "$2" --symbolize local 2>"$2.err" >"$2.raw"
  echo $? >"$2.rc"
  traces <"$2.raw" >"$2.c"
  if [ -n "$STANDALONE" ]; then
    "$STANDALONE" -symbolize=local -traces "$2" 2>/dev/null | traces >"$2.s"
  else
    go tool pprof -symbolize=local -traces "$2" 2>/dev/null | traces >"$2.s"
  fi
}
if [ -n "$STANDALONE" ] || [ $HAVE_GO = 1 ]; then
  # 3000 functions of one such name (a third named by it, a third unnamed,
  # a third named otherwise): demangled once, as pprof shows them, and no
  # warning (one demangling per function would pass the bound)
  cn=$(castnames 12 3n01)
  for i in $(seq 3000); do echo "$cn"; done >cast3k.txt
  python3 "$REPO/tests/support/pprofgen.py" names cast3k.pb cast3k.txt || bad "pprofgen.py names failed"
  pc2 "3000 functions of one name" cast3k.pb
  same "demangling: 3000 functions of one nested-cast name = pprof" cast3k.pb.s cast3k.pb.c
  n=$((n + 1))
  [ ! -s cast3k.pb.err ] || bad "demangling: 3000 functions of one name: a warning: $(cat cast3k.pb.err)"
  n=$((n + 1))
  [ "$(awk '$NF == "f"' cast3k.pb.c | wc -l)" = 2000 ] || bad "demangling: 3000 functions of one name: not 2000 rows f"
  "$PCOL" unpack cast3k.pb --to otlp -o cast3k.otlp || bad "unpack cast3k.pb --to otlp failed"
  "$PCOL" traces cast3k.otlp --symbolize local 2>cast3k.otlp.err | traces >cast3k.otlp.c
  same "demangling: 3000 functions of one name, OTLP = pprof's profile" cast3k.pb.c cast3k.otlp.c
  # 600 functions of distinct names, 400 to demangle, a million units each,
  # pass the bound: the first ones as pprof shows them, the others kept
  # mangled, one warning naming the input, exit 0
  castnames 13 $(seq -f '4n%g' 100 699) >cast600.txt
  python3 "$REPO/tests/support/pprofgen.py" names cast600.pb cast600.txt || bad "pprofgen.py names failed"
  pc2 "600 names" cast600.pb
  n=$((n + 1))
  [ "$(cat cast600.pb.rc)" = 0 ] || bad "demangling: 600 names past the bound: exit $(cat cast600.pb.rc)"
  n=$((n + 1))
  grep -q 'warning: cast600\.pb: Demangling stopped at its bound' cast600.pb.err &&
    [ "$(grep -c 'Demangling stopped' cast600.pb.err)" = 1 ] ||
    bad "demangling: 600 names past the bound: no warning naming the input: $(cat cast600.pb.err)"
  n=$((n + 1))
  paste -d '\n' cast600.pb.s cast600.pb.c | python3 -c '
import sys
l = sys.stdin.read().split("\n")[:-1]
s, c = l[0::2], l[1::2]
ok = len(s) == len(c) and all(a == b or (b.split() or [""])[-1].startswith("_Z1fI") for a, b in zip(s, c))
dm = sum(1 for a, b in zip(s, c) if a == b and (b.split() or [""])[-1] == "f")
kept = sum(1 for a, b in zip(s, c) if a != b)
sys.exit(0 if ok and dm >= 100 and kept >= 20 else 1)' ||
    bad "demangling: 600 names past the bound: rows neither pprof's nor the mangled names (or none of either)"
fi

echo "t_symbolize: $n comparisons, $fail failed"
[ $fail = 0 ]
