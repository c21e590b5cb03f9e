# v8_inputs.sh — sourced by the tests of the V8 writers (t_v8_export.sh,
# t_chrome_export.sh): v8_inputs DIR writes there node.cpuprofile (`node
# --cpu-prof` of tests/support/node_cpu.js) and perf.txt (a perf script of
# six threads, gen_perf_script.py's, its cpu-clock periods in whole
# microseconds and no ';' in names, which fold writes as '_': a comparison
# in whole us is exact).  Returns 1 when one could not be made.
v8_inputs() {
  local here
  here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
  (cd "$1" && timeout 60 node --cpu-prof --cpu-prof-name=node.cpuprofile "$here/../support/node_cpu.js") || return 1
  python3 "$here/../support/gen_perf_script.py" "$1/perf0.txt" "$1/perf.truth" --style pidtid --samples 300 --seed 5 \
    >/dev/null || return 1
  sed 's/10101010 cpu-clock/10101000 cpu-clock/; s/Foo;/Foo./g' "$1/perf0.txt" > "$1/perf.txt"
}
# v8_hostile FILE COMM: a perf script of four samples whose function and file
# names hold quotes, backslashes, control bytes, invalid UTF-8 and U+2028,
# of the thread COMM (bytes; a perf script's comm holds no control byte);
# V8_HOSTILE_WANT: the function names as JSON writes them (jstr.c: an
# invalid byte read as Latin-1).
V8_HOSTILE_WANT='["q\"uo\\te", "ctl\u0001\u001b[2J\u007f", "bad\u00ff\u00feutf8", "ls\u2028ps", "main"]'
v8_hostile() {
  python3 - "$1" "$2" <<'PY'
import os, sys
names = [b'q"uo\\te', b'ctl\x01\x1b[2J\x7f', b'bad\xff\xfeutf8', b'ls\xe2\x80\xa8ps', b'main']
comm = os.fsencode(sys.argv[2])
out = b''
for i in range(4):
    out += comm + b' 1/1 [000] %d.000000:    1000000 cpu-clock: \n' % (10 + i)
    for k, n in enumerate(names[i:]):
        out += b'\t%x %s+0x1 (/bin/a"\\\x02\xff\xe2\x80\xa8)\n' % (0x400000 + k, n)
    out += b'\n'
open(sys.argv[1], 'wb').write(out)
PY
}
# v8_hostile_judged FILE DIR: speedscope's importer (speedscope_env.sh's
# speedscope_import) reads the export FILE of v8_hostile's file with the
# names V8_HOSTILE_WANT; 1 and what it read otherwise (DIR: scratch).
v8_hostile_judged() {
  echo "$1" > "$2/hl"
  speedscope_import "$2/hl" "$2/hrec" >/dev/null &&
    python3 - "$2/hrec" "$V8_HOSTILE_WANT" <<'PY' || { head -c 800 "$2/hrec"; return 1; }
import json, sys
r = json.load(open(sys.argv[1]))
if "error" in r: sys.exit(r["error"])
got, want = sorted(r["profiles"][0]["frames"]), sorted(json.loads(sys.argv[2]))
if got != want: sys.exit("%r, want %r" % (got, want))
PY
}
