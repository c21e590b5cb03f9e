#!/usr/bin/env bash
# The report page's regular expressions are Go's, as pcol's options read
# them (t_regex.sh) and as pprof's web UI reads them: the page turns each
# into a JavaScript RegExp (lib/query/report/regex.js pcolGoRegExp).
# tests/report/regex.test.mjs runs it in node on ~2,800 expressions (a
# fixed list and seeded random ones) over 54 names (ASCII, non-ASCII,
# astral, control characters) against Go's regexp package (tests/go/gorx):
# the same answer on every pair, and a throw (the box marked bad) where Go
# refuses the expression.  The forms the page refuses though Go takes them
# are the few doc/cli.md lists ("Regular expressions"); t_regex.sh checks
# that the page and the options accept the same expressions but for those.
# Env: none (no pcol binary needed).  Exit 0 pass, 1 fail, 77 skip (no Go or node).
set -u
command -v go >/dev/null 2>&1 || { echo "SKIP: go not installed"; exit 77; }
command -v node >/dev/null 2>&1 || { echo "SKIP: node not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp/home GOCACHE=${GOCACHE:-$tmp/gocache} GOPROXY=off GOTOOLCHAIN=local GOFLAGS=-mod=readonly
mkdir -p "$HOME"
(cd tests/go && go build -o "$tmp/gorx" ./gorx) || { echo "FAIL: go build tests/go/gorx"; exit 1; }
timeout 300 node tests/report/regex.test.mjs "$tmp/gorx"
