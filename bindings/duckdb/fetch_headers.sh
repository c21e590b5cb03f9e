#!/bin/sh
# fetch_headers.sh DIR VERSION SHA512 — DuckDB's two C extension headers
# (duckdb.h, duckdb_extension.h) into DIR/include, from the npm package
# `duckdb` at VERSION (DuckDB's sources): `npm pack`, or curl from the
# registry when npm is not installed.  Either way the tarball must have the
# pinned sha512 (the registry's dist.integrity for that version).  Nothing of
# DuckDB is in the repository; `make duckdb` runs this (doc/duckdb.md).
dir=$1 version=$2 sha512=$3
mkdir -p "$dir/include"
tgz=$dir/duckdb-$version.tgz
rm -f "$tgz"
if command -v npm >/dev/null; then
  echo "npm pack duckdb@$version (DuckDB's C headers)"
  (cd "$dir" && npm pack --silent "duckdb@$version" >/dev/null)
else
  echo "curl registry.npmjs.org duckdb-$version.tgz (DuckDB's C headers; npm not installed)"
  curl -fsSL -o "$tgz" "https://registry.npmjs.org/duckdb/-/duckdb-$version.tgz"
fi
[ -s "$tgz" ] || { echo "make duckdb: could not fetch duckdb@$version from the npm registry" >&2; exit 1; }
[ "$(openssl dgst -sha512 -binary "$tgz" | base64 -w0)" = "$sha512" ] ||
  { echo "make duckdb: $tgz does not have the pinned sha512" >&2; rm -f "$tgz"; exit 1; }
tar xzf "$tgz" -C "$dir/include" --strip-components=5 \
  package/src/duckdb/src/include/duckdb.h package/src/duckdb/src/include/duckdb_extension.h &&
  rm -f "$tgz"
