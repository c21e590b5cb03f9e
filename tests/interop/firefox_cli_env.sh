# firefox_cli_env.sh — sourced by the tests that judge with the Firefox
# Profiler's own code from npm (t_firefox.sh without FIREFOX_PROFILER_SRC,
# t_export_search.sh): firefox_cli_install DIR installs
# @firefox-devtools/profiler-cli (FIREFOX_CLI_VERSION, from the npm registry
# only) into DIR and sets FF_CLI to its script; returns 1 when it cannot.
# The interop tests run two at a time: the install is made under a lock of
# DIR and is done when its marker is there (written after npm succeeds), as
# speedscope_env.sh's, so no test runs npm beside another's into the same
# node_modules or reads a package still being written.
FIREFOX_CLI_VERSION=0.10.0
firefox_cli_install() {
  local dir=$1 mark
  mkdir -p "$dir" && dir=$(cd "$dir" && pwd) || return 1
  FF_CLI=$dir/node_modules/@firefox-devtools/profiler-cli/dist/profiler-cli.js
  mark=$dir/.installed-profiler-cli-$FIREFOX_CLI_VERSION
  [ -f "$mark" ] && return 0
  command -v npm >/dev/null 2>&1 || return 1
  (
    exec 9>"$dir/.install.lock"
    command -v flock >/dev/null 2>&1 && flock -w 600 9
    [ -f "$mark" ] && exit 0
    (cd "$dir" && timeout 300 npm install --no-audit --no-fund --loglevel=error \
      "@firefox-devtools/profiler-cli@$FIREFOX_CLI_VERSION" >/dev/null 2>&1) && [ -f "$FF_CLI" ] || exit 1
    : >"$mark"
  )
}
