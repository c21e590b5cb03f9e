#!/bin/sh
# stage.sh NAME CMD...: runs one stage of make test and says how long it
# took (wall, and CPU of it and its children when /usr/bin/time is there),
# so a CI log shows where make test's time goes (bench/results/test-time.md).
# Exits with the command's status.
name=$1
shift
s=$(date +%s)
if [ -x /usr/bin/time ]; then
  t=$(mktemp)
  /usr/bin/time -f %U+%S -o "$t" "$@"
  rc=$?
  cpu=$(tail -1 "$t" | awk -F+ '$1 ~ /^[0-9.]+$/ {printf ", cpu %.0f s", $1 + $2}')
  rm -f "$t"
else
  "$@"
  rc=$?
  cpu=
fi
echo "make test: stage $name: $(( $(date +%s) - s )) s$cpu (exit $rc)"
exit $rc
