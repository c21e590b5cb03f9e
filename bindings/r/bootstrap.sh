#!/bin/sh
# Copies libpcol's C sources into src/libpcol/ so that the package builds
# without an installed libpcol (as nanoarrow's R package vendors nanoarrow):
# run it in the pcol repository before `R CMD build bindings/r`, and the
# tarball carries them.  `configure` runs it too when the package is built
# from the repository itself (R CMD INSTALL bindings/r).
#   include/pcol.h, format/*.h, lib/{core,query,convert}, bindings/common,
#   and the generated files (protobuf-c code for pprof and OTLP, the report
#   page's assets), made here with `make` (protoc-c is needed at this step
#   only: the tarball needs no code generator).
set -e
here=$(cd "$(dirname "$0")" && pwd)
repo=${PCOL_REPO:-$(cd "$here/../.." && pwd)}
if [ ! -f "$repo/include/pcol.h" ] || [ ! -d "$repo/lib/core" ]; then
  echo "bootstrap.sh: no pcol repository at $repo (set PCOL_REPO)" >&2
  exit 1
fi
build=${PCOL_BUILD:-$repo/build}
gen="$build/gen"
otlp=$(cd "$repo" && ls format/opentelemetry/proto/*/v1*/*.proto format/opentelemetry/proto/*/*/v1*/*.proto 2>/dev/null || true)
targets="$gen/profile.pb-c.c $gen/report_assets.h"
for p in $otlp; do targets="$targets $gen/${p#format/}"; done
targets=$(printf '%s\n' $targets | sed 's/\.proto$/.pb-c.c/')
# the generated files, by the repository's own rules
make -s -C "$repo" BUILD="$build" $targets >/dev/null
dst="$here/src/libpcol"
rm -rf "$dst"
mkdir -p "$dst/include" "$dst/format" "$dst/gen" "$dst/bindings"
cp "$repo/include/pcol.h" "$dst/include/"
cp "$repo"/format/*.h "$dst/format/"
(cd "$repo" && find lib -name '*.c' -o -name '*.h' | grep -v '^lib/query/report/') | while read -r f; do
  mkdir -p "$dst/$(dirname "$f")" && cp "$repo/$f" "$dst/$f"
done
(cd "$gen" && find . -name '*.pb-c.c' -o -name '*.pb-c.h' -o -name 'report_assets.h') | while read -r f; do
  mkdir -p "$dst/gen/$(dirname "$f")" && cp "$gen/$f" "$dst/gen/$f"
done
cp "$repo/bindings/common/pcolb.c" "$repo/bindings/common/pcolb.h" "$dst/bindings/"
v=$(sed -n 's/^#define PCOL_VERSION_STRING "\(.*\)"/\1/p' "$repo/include/pcol.h")
echo "libpcol $v from $repo ($(cd "$repo" && git rev-parse --short HEAD 2>/dev/null || echo unknown))" > "$dst/VERSION"
echo "bootstrap.sh: libpcol $v sources in src/libpcol ($(find "$dst" -name '*.c' | wc -l) C files)"
