#!/usr/bin/env bash
# A nameless function of a file at a line (rd15a F5), in the speedscope and
# V8 exports, judged by speedscope's own importer (npm speedscope,
# speedscope_any_judge.cjs "files": the Frame.file the app shows beside a
# frame's name): the frame named after its mapping ("<unknown>" without
# one, "[libc.so.6]") shows the function's file (app/top.c, src/inner.c),
# where the exports wrote none (speedscope: the name alone; V8: the url
# of one without a mapping only).  The Firefox copy's funcTable source and
# pcol's read-back of every copy: tests/cli/t_nameless_frames.sh.
# Env: PCOL, BUILD, PCOL_NPM_DIR.  Exit 0 pass, 1 fail, 77 skip (no node/npm).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/speedscope_env.sh"
fail=0
python3 "$HERE/../support/pprofgen.py" unsym "$tmp/nf.pb" namelessfile || { echo "FAIL pprofgen"; exit 1; }
$PCOL unpack "$tmp/nf.pb" --to speedscope -o "$tmp/nf.speedscope.json" 2>/dev/null || { echo "FAIL unpack --to speedscope"; exit 1; }
$PCOL unpack "$tmp/nf.pb" --to v8 -o "$tmp/nf.cpuprofile" 2>/dev/null || { echo "FAIL unpack --to v8"; exit 1; }
printf '%s\n' "$tmp/nf.speedscope.json" "$tmp/nf.cpuprofile" >"$tmp/list"
speedscope_import "$tmp/list" "$tmp/rec" >/dev/null || { echo "FAIL speedscope judge did not run"; exit 1; }
python3 - "$tmp/rec" <<'PY' || fail=1
import json, sys
bad = 0
for line in open(sys.argv[1]):
    r = json.loads(line)
    if "error" in r:
        print("FAIL %s: speedscope: %s" % (r["file"], r["error"])); bad = 1; continue
    for p in r["profiles"]:
        files = p.get("files", {})
        for name, want in (("<unknown>", "app/top.c"), ("[libc.so.6]", "src/inner.c")):
            if want not in files.get(name, []):
                print("FAIL %s (%s): speedscope shows frame %s with files %s, not %s"
                      % (r["file"].rsplit("/", 1)[-1], p["name"], name, files.get(name), want))
                bad = 1
sys.exit(bad)
PY
[ $fail = 0 ] && echo "t_nameless_files: ok"
exit $fail
