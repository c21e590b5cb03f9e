#!/usr/bin/env bash
# Chrome traces whose pid and tid are strings, JSON reals, past int64,
# negative or absent, and their M events' names: pcol's threads are
# speedscope's profiles, per frame the same weights (chrome_threads.py).
# Env: PCOL, BUILD, PCOL_NPM_DIR.  Exit 0 pass, 1 fail, 77 skip (no node/npm).
set -u
PCOL=${PCOL:-build/bin/pcol}
BUILD=${BUILD:-build}
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/speedscope_env.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$HERE/chrome_threads.py" "$PCOL" "$HERE/speedscope_any_judge.cjs" "$BUNDLE" "$tmp"
