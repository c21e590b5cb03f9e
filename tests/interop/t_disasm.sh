#!/usr/bin/env bash
# pcol disasm (pprof -disasm) on native pprof profiles of small C programs
# built here with gcc -g -O2 (a PIE and a -no-pie executable; sq inlined
# into work; work's first instruction a call whose text passes 40
# characters, which pprof prints below its location), written with the
# addresses a profiler records (tests/interop/symbolize_gen.py): samples
# on every second byte of work, so several fall inside one instruction.
#
# Judged against:
#  - google/pprof's own pprof (binutils: llvm-objdump or GNU objdump, nm)
#    when one is given as $PPROF_STANDALONE or is `pprof` on PATH: the
#    text byte for byte and the exit status (zero or not), for each binary,
#    several expressions (routines of several names, every symbol, a name
#    only the samples have, an address, none), llvm-objdump and GNU
#    objdump (a PATH without llvm's), AT&T and Intel syntax, the binary
#    found by build id in --binary-path / PPROF_BINARY_PATH; with two
#    binaries pprof shows only the one holding its first node of a random
#    order (its base rule), so each of its routine blocks must be one of
#    pcol's and the totals equal;
#  - `go tool pprof` otherwise (Go 1.19: Go's own disassembler, Plan 9
#    syntax, routines cut at their ELF symbol's size): the -no-pie
#    binary's total, routine names, and the flat and cum at each address
#    Go shows, the instruction text left out;
#  - pcol itself: pack --symbolize local, then disasm = disasm of the
#    pprof file; a hung objdump is killed at PCOL_SYMBOLIZE_TIMEOUT, the
#    search for a binary stopped at it (1000 slow files before it), a
#    slow binary named by 1000 mappings read once; an endless objdump or
#    nm, or an nm whose symbols' samples pass PCOL_DISASM_MAX_BYTES,
#    stopped at it within 256 MiB of address space, all errors; what a
#    failed nm had read given back.
set -u
if ! command -v objdump >/dev/null && ! command -v llvm-objdump >/dev/null; then
  echo "t_disasm: neither objdump nor llvm-objdump installed: skipped"; exit 77
fi
T=t_disasm PPROF_FLAG=-disasm
. "$(dirname "$0")/native_env.sh"

native_build
mkdir -p bp/"$bid" && cp pie bp/"$bid"/pie
gen pie.pb "[{\"bin\":\"pie\",\"base\":$PIEB,\"name\":\"$tmp/pie\",\"build_id\":\"real\"}]"
gen nopie.pb "[{\"bin\":\"nopie\",\"base\":0,\"name\":\"$tmp/nopie\",\"build_id\":\"\"}]"
gen both.pb "[{\"bin\":\"pie\",\"base\":$PIEB,\"name\":\"$tmp/pie\",\"build_id\":\"real\"},{\"bin\":\"nopie\",\"base\":0,\"name\":\"$tmp/nopie\",\"build_id\":\"\"}]"
gen byid.pb "[{\"bin\":\"pie\",\"base\":$PIEB,\"name\":\"/nonexistent/dir/pie\",\"build_id\":\"real\"}]"
# an address inside work in the -no-pie binary
waddr=$(nm nopie | awk '$3 == "work" { print "0x" $1 }')
waddr=$(printf '0x%x' $((waddr + 6)))

# pc OUT ARGS...: pcol disasm (stderr in OUT.err, status in OUT.rc)
pc() { local o=$1; shift; "$PCOL" disasm "$@" 2>"$o.err" >"$o"; echo $? >"$o.rc"; }
# pp OUT ARGS...: the judge
pp() { local o=$1; shift; "$STANDALONE" "$@" 2>"$o.err" >"$o"; echo $? >"$o.rc"; }
# same WHAT PCOL-OUT PPROF-OUT: the text and whether both failed or not
same() {
  n=$((n + 1))
  local a b
  a=$(cat "$2.rc") b=$(cat "$3.rc")
  if { [ "$a" = 0 ] && [ "$b" != 0 ]; } || { [ "$a" != 0 ] && [ "$b" = 0 ]; }; then
    bad "$1: pcol exit $a, pprof exit $b"; head -3 "$2.err" "$3.err"; return
  fi
  cmp -s "$2" "$3" || { bad "$1"; diff "$2" "$3" | head -8; }
}

# GNU objdump and nm alone (pprof prefers llvm-objdump and llvm-nm)
mkdir -p gnu && for t in objdump nm addr2line; do
  command -v $t >/dev/null && ln -s "$(command -v $t)" gnu/$t
done
paths=("$PATH")
[ -e gnu/objdump ] && [ -e gnu/nm ] && paths+=("$tmp/gnu")

if [ -n "$STANDALONE" ]; then
  for prof in pie nopie; do
    for rx in 'work|other' '.' 'work' 'prog' '^work' "$waddr" 'nomatch'; do
      for path in "${paths[@]}"; do
        for intel in "" 1; do
          PATH=$path pc c.txt "$prof.pb" "$rx" --symbolize local ${intel:+--intel}
          PATH=$path pp p.txt -disasm="$rx" ${intel:+-intel_syntax} "$prof.pb"
          same "$prof.pb '$rx' (PATH=$path${intel:+, Intel})" c.txt p.txt
        done
      done
    done
  done
  # the options other views take: filters, -divide_by
  pc c.txt pie.pb 'work|other' --symbolize local --focus work --hide other
  pp p.txt -disasm='work|other' -focus=work -hide=other pie.pb
  same "--focus --hide" c.txt p.txt
  pc c.txt nopie.pb 'work|other' --symbolize local --divide-by 3
  pp p.txt -disasm='work|other' -divide_by=3 nopie.pb
  same "--divide-by" c.txt p.txt
  # the long instruction printed below its location, as pprof does
  pc c.txt pie.pb work --symbolize local
  n=$((n + 1))
  grep -q "^ \{74\};work prog.c:" c.txt || bad "no location line of its own before a long instruction"
  grep -q 'sq\|prog.c:2' c.txt || bad "the inlined sq's line (prog.c:2) not shown"
  # the binary found by build id
  pc c.txt byid.pb 'work|other' --symbolize local --binary-path "/nonexistent:$tmp/bp"
  PPROF_BINARY_PATH=$tmp/bp pp p.txt -disasm='work|other' byid.pb
  same "by build id (--binary-path)" c.txt p.txt
  PPROF_BINARY_PATH=$tmp/bp pc c2.txt byid.pb 'work|other' --symbolize local
  same "by build id (PPROF_BINARY_PATH)" c2.txt p.txt
  # two binaries: each block pprof shows is one of pcol's
  pc c.txt both.pb 'work|other' --symbolize local
  for k in 1 2 3 4; do
    pp p.txt -disasm='work|other' both.pb
    n=$((n + 1))
    python3 - c.txt p.txt <<'EOF' || bad "two binaries: pprof's blocks (run $k) are not all pcol's"
import sys
def blocks(path):
    t = open(path).read().split("\n")
    out, cur = [], None
    for l in t[1:]:
        if l.startswith("ROUTINE"):
            cur = [l]
            out.append(cur)
        elif cur is not None and l:
            cur.append(l)
    return t[0], ["\n".join(b) for b in out]
ct, cb = blocks(sys.argv[1])
pt, pb = blocks(sys.argv[2])
sys.exit(0 if ct == pt and pb and all(b in cb for b in pb) and len(cb) == 4 else 1)
EOF
  done
fi

if [ -z "$STANDALONE" ]; then
  # Go's copy: the same routines and, at each address it shows, the same
  # flat and cum (Go's own disassembler, so not the instructions; a routine
  # ends where its ELF symbol's size says, where pprof's ends at the next
  # symbol, so pcol shows more addresses); -no-pie only (Go's symbolizer
  # does not place a PIE)
  for rx in 'work|other' 'work'; do
    pc c.txt nopie.pb "$rx" --symbolize local
    go tool pprof -disasm="$rx" nopie.pb 2>/dev/null >g.txt
    n=$((n + 1))
    python3 - c.txt g.txt <<'EOF' || bad "go tool pprof -disasm '$rx': routines, flat/cum per address"
import re, sys
def rows(path):
    r, cur, names, total = {}, None, [], None
    for l in open(path).read().split("\n"):
        if l.startswith("Total:"):
            total = l
        elif l.startswith("ROUTINE"):
            cur = l
            names.append(l)
        m = re.match(r"^ +(\S+) +(\S+) +([0-9a-f]+): ", l)
        if m and cur:
            r[(cur, m.group(3))] = (m.group(1), m.group(2))
    return total, names, r
ct, cn, cr = rows(sys.argv[1])
gt, gn, gr = rows(sys.argv[2])
ok = ct == gt and cn == gn and gr and all(cr.get(k) == v for k, v in gr.items())
sys.exit(0 if ok else 1)
EOF
  done
fi

# pack --symbolize local keeps what disasm needs
"$PCOL" pack --symbolize local pie.pb -o pie.pcol 2>pack.err || bad "pack --symbolize local failed: $(cat pack.err)"
pc c.txt pie.pb 'work|other' --symbolize local
pc k.txt pie.pcol 'work|other'
n=$((n + 1))
[ -s c.txt ] && cmp -s c.txt k.txt || { bad "pack --symbolize local, then disasm"; diff c.txt k.txt | head -5; }
# pcol shell's disasm (pprof's interactive command) = the command's text
printf 'disasm work|other\n' | "$PCOL" shell pie.pcol 2>/dev/null | sed 's/^(pcol) //' | grep -v '^(pcol)' >s.txt
n=$((n + 1))
[ -s c.txt ] && cmp -s c.txt s.txt || { bad "pcol shell: disasm"; diff c.txt s.txt | head -5; }
# machine rows: one per instruction, the text's numbers
pc w.txt pie.pcol work
pc j.txt pie.pcol work --format tsv
n=$((n + 1))
rows=$(grep -v '^#' j.txt | tail -n +2 | wc -l)
insts=$(grep -c '^ *[^ ;]\+ \+[^ ]\+ \+[0-9a-f]\+: ' w.txt)
[ "$(cat j.txt.rc)" = 0 ] && [ "$rows" -gt 0 ] && [ "$rows" = "$insts" ] || bad "--format tsv: $rows rows for $insts instructions"

# a hung objdump is killed at the time limit: an error, within bounds
mkdir -p hang && for t in nm llvm-symbolizer addr2line; do
  command -v $t >/dev/null && ln -s "$(command -v $t)" hang/$t
done
printf '#!/bin/sh\ncase "$1" in --version) echo "GNU objdump (fake)";; *) exec /bin/sleep 30;; esac\n' >hang/objdump
chmod +x hang/objdump
s=$(date +%s)
PATH=$tmp/hang PCOL_SYMBOLIZE_TIMEOUT=1 pc h.txt pie.pcol work
n=$((n + 1))
[ $(($(date +%s) - s)) -le 10 ] && [ "$(cat h.txt.rc)" != 0 ] && grep -q 'took more than 1 s' h.txt.err ||
  { bad "hung objdump: killed after 1 s, an error"; cat h.txt.err; }
# the time limit holds while the binaries are looked for too (each one's
# ELF headers and notes read), not only while a tool runs
PCOL_SYMBOLIZE_TIMEOUT=0.000001 pc hl.txt pie.pcol work
n=$((n + 1))
[ "$(cat hl.txt.rc)" != 0 ] && grep -q 'looking for the binaries took more than 1e-06 s' hl.txt.err ||
  { bad "a time limit spent before a binary is found: an error"; cat hl.txt.err; }
# and between the files read while one binary is looked for: 1000 slow
# files of DIR/BUILDID before it, not all read
slow_dir slow
s=$(date +%s)
PCOL_SYMBOLIZE_TIMEOUT=1 timeout 60 "$PCOL" disasm pie.pcol work --binary-path "$tmp/slow" 2>hs.txt.err >hs.txt
rc=$? took=$(($(date +%s) - s))
n=$((n + 1))
[ $rc != 0 ] && [ $rc != 124 ] && [ $took -le 10 ] && grep -q 'looking for the binaries took more than 1 s' hs.txt.err ||
  { bad "1000 slow files before the binary: exit $rc after ${took}s (124: killed at 60 s), an error"; cat hs.txt.err; }
# each file read once: 1000 mappings of one binary slow to read (a server
# forked 1000 times, its samples in the first; its 65535 section headers
# read, 1000 reads took 30 s or more) show what the binary shows, within
# 15 s (it was 2 s, which a loaded machine misses: its one read and the
# disassembly took 5 s beside six other builds on two cores; 1000 reads
# would take minutes there)
python3 "$REPO/tests/interop/symbolize_gen.py" --slow-copy pie slowpie || bad "cannot write the slow binary"
gen once.pb "$(python3 -c "import json; print(json.dumps([{'bin':'pie','base':$PIEB+i*(1<<24),'name':'$tmp/slowpie','build_id':'real','samples':i == 0} for i in range(1000)]))")"
"$PCOL" pack --symbolize local once.pb -o once.pcol 2>/dev/null || bad "pack --symbolize local of 1000 mappings failed"
pc c.txt pie.pcol work
PCOL_SYMBOLIZE_TIMEOUT=15 pc once.txt once.pcol work
n=$((n + 1))
[ "$(cat once.txt.rc)" = 0 ] && [ -s c.txt ] && cmp -s c.txt once.txt ||
  { bad "1000 mappings of one slow binary: its disasm within 15 s"; cut -c1-300 once.txt.err; diff c.txt once.txt | head -5; }
# an endless objdump or nm is stopped at the bound (what is kept charged
# with its records: an instruction's 3 bytes of text cost 160 more), an
# error naming the tool, within 256 MiB of address space (ulimit -v: it
# reached 1.4 GB before; a sanitizer's build cannot start under it)
cap=262144
{ (ulimit -v $cap && exec "$PCOL" --version) >/dev/null 2>&1; } 2>/dev/null ||
  { echo "t_disasm: $PCOL does not start under ulimit -v $cap: memory left unchecked"; cap=unlimited; }
endless() { # endless WHAT TOOL: pcol disasm, PATH=$tmp/hang, the fake TOOL endless
  n=$((n + 1))
  local s=$(date +%s)
  (ulimit -v $cap && PATH=$tmp/hang exec "$PCOL" disasm pie.pcol work) >e.txt 2>e.txt.err
  local rc=$?
  [ $(($(date +%s) - s)) -le 60 ] && [ $rc != 0 ] && grep -q "hang/$2: the names and instructions passed 67108864 bytes" e.txt.err ||
    { bad "$1: stopped at the bound, an error (exit $rc)"; cat e.txt.err; }
}
printf '#!/bin/sh\ncase "$1" in --version) echo "GNU objdump (fake)";; *) exec %s "  1170:  nop";; esac\n' "$(command -v yes)" >hang/objdump
endless "endless objdump" objdump
rm -f hang/nm # (a link to the real one)
fake_nm() { printf '#!/bin/sh\nexec %s\n' "$1" >hang/nm && chmod +x hang/nm; }
fake_nm "$(command -v yes) '0000000000001180 T work'" # one symbol's names
endless "endless nm, one address" nm
fake_nm "$(command -v awk) 'BEGIN { for (i = 4096;; i++) printf \"%016x T work%d\\n\", i, i }'"
endless "endless nm, symbols" nm
# symbols that overlap, each holding every sample: endless, the symbols
# pass the bound; 200000 of them, 45 MB, then their samples (~35 a
# symbol, 8 bytes each) pass it
fake_nm "$(command -v awk) 'BEGIN { for (;;) print \"0000000000001000 T work\\n0000000000002000 T work2\" }'"
endless "endless nm, overlapping symbols" nm
fake_nm "$(command -v awk) 'BEGIN { for (i = 0; i < 200000; i++) print \"0000000000001000 T work\" i \"\\n0000000000002000 T x\" }'"
endless "nm of 200000 overlapping symbols, each holding every sample" nm
ln -sf "$(command -v nm)" hang/nm
# what an nm that fails had read is given back: two mappings whose nm
# prints one address of 40 MB of names, then fails (warnings), then one
# whose nm works: its routine shown (the 80 MB kept charged passed the
# bound before)
cp pie pie2 && mkdir -p fails
gen three.pb "[{\"bin\":\"pie\",\"base\":$PIEB,\"name\":\"$tmp/pie\",\"build_id\":\"\"},{\"bin\":\"pie\",\"base\":$((PIEB + (1 << 24))),\"name\":\"$tmp/pie2\",\"build_id\":\"\"},{\"bin\":\"nopie\",\"base\":0,\"name\":\"$tmp/nopie\",\"build_id\":\"\"}]"
printf '#!/bin/sh
case "$2" in */nopie) exec %s "$@";; esac
exec %s %s
' "$(command -v nm)" "$(command -v awk)" \
  "'BEGIN { s = sprintf(\"%1000s\", \"\"); gsub(/ /, \"a\", s); for (i = 0; i < 40000; i++) print \"0000000000001000 T \" s; exit 1 }'" >fails/llvm-nm
chmod +x fails/llvm-nm
PATH=$tmp/fails:$PATH pc f.txt three.pb work --symbolize local
n=$((n + 1))
[ "$(cat f.txt.rc)" = 0 ] && grep -q '^ROUTINE =* work$' f.txt && ! grep -q 'passed 67108864' f.txt.err &&
  [ "$(grep -o 'cannot read the symbols of [^:]*' f.txt.err)" = "cannot read the symbols of $tmp/pie
cannot read the symbols of $tmp/pie2" ] || { bad "two nm runs that fail, then one that works: its routine"; cut -c1-300 f.txt.err; }
# no objdump at all
rm hang/objdump
PATH=$tmp/hang pc o.txt pie.pcol work
n=$((n + 1))
[ "$(cat o.txt.rc)" != 0 ] && grep -q 'no objdump tool available' o.txt.err || { bad "no objdump: an error"; cat o.txt.err; }
# a binary gone after pack: a warning naming it, then pprof's no match
mkdir -p gone && cp nopie gone/nopie
gen gone.pb "[{\"bin\":\"nopie\",\"base\":0,\"name\":\"$tmp/gone/nopie\",\"build_id\":\"\"}]"
"$PCOL" pack --symbolize local gone.pb -o gone.pcol 2>/dev/null && rm -r gone
pc g.txt gone.pcol work
n=$((n + 1))
[ "$(cat g.txt.rc)" = 1 ] && grep -q "warning: cannot read the binary of $tmp/gone/nopie" g.txt.err &&
  grep -q 'no matches found for regexp work' g.txt.err || { bad "a binary gone: a warning, no match"; cat g.txt.err; }

echo "t_disasm: $n comparisons, $fail failed"
[ $fail = 0 ]
