#!/bin/sh
# deps.sh PKG... — install the Debian packages of the list that are missing
# (as root: apt-get, with an apt-get update when the first try fails);
# otherwise say which to install and fail.  `make deps` runs it once per
# build directory.
missing=""
for p in "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "pcol: installing missing packages:$missing"
if [ "$(id -u)" = 0 ]; then
  # shellcheck disable=SC2086 # one word per package
  apt-get install -y --no-install-recommends $missing ||
    { apt-get update && apt-get install -y --no-install-recommends $missing; } || exit 1
else
  echo "pcol: run as root, or: sudo apt-get install$missing" >&2
  exit 1
fi
