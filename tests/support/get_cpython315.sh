#!/usr/bin/env bash
# Fetches CPython 3.15 (Debian sid's python3.15 and the libraries it needs)
# and extracts it under ROOT without installing anything, for recording
# Tachyon fixtures (tests/fixtures/tachyon/record.sh) and t_tachyon.sh's live
# check (PYTHON315=ROOT/usr/bin/python3.15).  Not run by `make test`; needs
# apt-get, dpkg and patchelf, and the network to deb.debian.org.
# Usage: get_cpython315.sh [ROOT]      (default /tmp/py315/root)
# The fixtures were recorded with 3.15.2-1 (python3.15_3.15.2-1_amd64.deb).
set -eu
ROOT=${1:-/tmp/py315/root}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$ROOT" "$work/lists/partial" "$work/debs"
echo "deb http://deb.debian.org/debian sid main" > "$work/sources.list"
apt=(-o Dir::Etc::sourcelist="$work/sources.list" -o Dir::Etc::sourceparts=- -o Dir::State::Lists="$work/lists")
apt-get "${apt[@]}" update
(cd "$work/debs" && apt-get "${apt[@]}" download python3.15 python3.15-minimal libpython3.15-stdlib \
  libpython3.15-minimal libc6 libzstd1 libssl3t64 libffi8 libexpat1 zlib1g liblzma5 libbz2-1.0 libgcc-s1)
for d in "$work"/debs/*.deb; do dpkg -x "$d" "$ROOT"; done
patchelf --set-interpreter "$ROOT/usr/lib64/ld-linux-x86-64.so.2" \
  --set-rpath "$ROOT/usr/lib/x86_64-linux-gnu:$ROOT/lib/x86_64-linux-gnu" "$ROOT/usr/bin/python3.15"
"$ROOT/usr/bin/python3.15" -VV
