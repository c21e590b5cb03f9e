#!/bin/sh
# append_metadata.sh FILE PLATFORM CAPI_VERSION EXTENSION_VERSION
# Appends the footer DuckDB reads before it loads an extension (DuckDB's
# src/main/extension/extension_load.cpp, ParseExtensionMetaData; its
# include/duckdb/main/extension.hpp, ParsedExtensionMetaData): 512 bytes,
# eight fields of 32 bytes (NUL-padded) read last to first -- the magic
# value "4", the platform ("linux_amd64"), the C API version ("v1.2.0"),
# the extension's version, the ABI type "C_STRUCT", three unused -- then a
# 256-byte signature, here zeros: the file is unsigned, so DuckDB loads it
# only with allow_unsigned_extensions.
set -eu
[ $# = 4 ] || { echo "usage: $0 FILE PLATFORM CAPI_VERSION EXTENSION_VERSION" >&2; exit 2; }
file=$1
field() { # a field: the text, then NULs up to 32 bytes
  [ ${#1} -le 32 ] || { echo "$0: '$1' is longer than 32 bytes" >&2; exit 2; }
  printf '%s' "$1"
  head -c $((32 - ${#1})) /dev/zero
}
{
  field ""; field ""; field ""
  field C_STRUCT
  field "$4"
  field "$3"
  field "$2"
  field 4
  head -c 256 /dev/zero
} >>"$file"
