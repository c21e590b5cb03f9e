#!/usr/bin/env bash
# Chrome traces whose pid and tid are strings, JSON reals, past int64,
# negative or absent, and their M events' names: pcol's threads are
# speedscope's profiles, per frame the same weights (chrome_threads.py).
# Env: PCOL, BUILD, PCOL_NPM_DIR.  Exit 0 pass, 1 fail, 77 skip (no node/npm).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/speedscope_env.sh"
python3 "$HERE/chrome_threads.py" "$PCOL" "$SPEEDSCOPE_IMPORT" "$BUNDLE" "$tmp"
