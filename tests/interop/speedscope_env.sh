# speedscope_env.sh — sourced by the tests that judge with speedscope's own
# importer (t_speedscope.sh, t_matrix.sh, t_import_judged.sh, t_v8_export.sh,
# t_chrome_threads.sh): installs the speedscope npm package (and ajv) into
# $PCOL_NPM_DIR (default $BUILD/npm-speedscope; from the npm registry only)
# and sets PCOL and BUILD (their defaults), tmp (a directory of the test's
# own, removed at exit), NPM_DIR, BUNDLE (the release bundle, whose importer
# speedscope_judge.cjs and speedscope_any_judge.cjs run) and SCHEMA.
# speedscope_import LIST OUT: speedscope's importer reads each file LIST
# names (speedscope_any_judge.cjs: a JSON record a file into OUT).
# Exits 77 (skip) without node/npm or registry access.
SPEEDSCOPE_VERSION=1.25.0
PCOL=${PCOL:-build/bin/pcol}
BUILD=${BUILD:-build}
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "SKIP: node/npm not installed (apt-get install nodejs npm to run the speedscope interop tests)"
  exit 77
fi
NPM_DIR=${PCOL_NPM_DIR:-$BUILD/npm-speedscope}
mkdir -p "$NPM_DIR"
NPM_DIR=$(cd "$NPM_DIR" && pwd)
# Five tests source this, two at a time (run_all.sh): the install is done
# under a lock of NPM_DIR, and is done when its marker is there (written
# after npm succeeds), so a test never runs npm beside another one's into
# the same node_modules, nor reads a package still being written.
done_mark=$NPM_DIR/.installed-speedscope-$SPEEDSCOPE_VERSION
if [ ! -f "$done_mark" ]; then
  exec 9>"$NPM_DIR/.install.lock"
  command -v flock >/dev/null 2>&1 && flock -w 600 9
  if [ ! -f "$done_mark" ] && [ -f "$NPM_DIR/node_modules/speedscope/package.json" ] &&
    [ -d "$NPM_DIR/node_modules/ajv" ] && ls "$NPM_DIR"/node_modules/speedscope/dist/release/speedscope-*.js >/dev/null 2>&1; then
    : >"$done_mark" # an install made before the marker
  fi
  if [ ! -f "$done_mark" ]; then
    if ! (cd "$NPM_DIR" && timeout 300 npm install --no-audit --no-fund --loglevel=error \
          "speedscope@$SPEEDSCOPE_VERSION" ajv@8 >/dev/null 2>&1); then
      echo "SKIP: could not npm install speedscope@$SPEEDSCOPE_VERSION and ajv@8 (no registry access?)"
      exit 77
    fi
    : >"$done_mark"
  fi
  exec 9>&-
fi
REL=$NPM_DIR/node_modules/speedscope/dist/release
BUNDLE=$(ls "$REL"/speedscope-*.js 2>/dev/null | head -1)
SCHEMA=$REL/file-format-schema.json
[ -f "$BUNDLE" ] && [ -f "$SCHEMA" ] || { echo "speedscope package lacks its bundle or schema" >&2; exit 1; }
SPEEDSCOPE_IMPORT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/speedscope_any_judge.cjs
speedscope_import() { node "$SPEEDSCOPE_IMPORT" "$BUNDLE" "$@"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
