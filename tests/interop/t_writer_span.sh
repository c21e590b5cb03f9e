#!/bin/bash
# t_writer_span.sh — the streaming writer's files state the span they cover
# (review 11 F1): examples/record_self records itself for 2 s, rolled every
# 500 ms; go tool pprof's merge of the files' pprof exports (it adds their
# durations) and `pcol top` of the series say the same Duration, the
# recording's 2 s (within 5 %), not 2 s + up to a second a file.
PPROF_WHAT="the streaming writer's durations"
. "$(dirname "$0")/pprof_env.sh"
BUILD=${BUILD:-build}
REC=$BUILD/bin/record_self
[ -x "$REC" ] || { echo "FAIL: $REC not built"; exit 1; }
mkdir -p "$tmp/rs"
"$REC" -o "$tmp/rs/prof.pcol" --seconds 2 --roll-ms 500 >"$tmp/files" || { echo "FAIL: record_self"; exit 1; }
n=$(wc -l <"$tmp/files")
[ "$n" -ge 4 ] || { echo "FAIL: $n files for 2 s rolled every 500 ms"; exit 1; }
set -- "$tmp"/rs/prof-*.pcol
for f; do "$PCOL" unpack "$f" --to pprof -o "${f%.pcol}.pb.gz" || { echo "FAIL: unpack $f"; exit 1; }; done
secs() { # "Duration: 2.01s" / "1.99s" / "998.5ms" -> seconds
  sed -n 's/.*Duration: \([0-9.]*\)\(m\{0,1\}s\),.*/\1 \2/p' | head -1 |
    awk '{ print ($2 == "ms" ? $1 / 1000 : $1) }'
}
p=$("$PCOL" top "$@" | secs)
g=$("$PPROF" -top "$tmp"/rs/prof-*.pb.gz 2>/dev/null | secs)
m=$("$PCOL" merge "$@" -o "$tmp/m.pcol" && "$PCOL" top "$tmp/m.pcol" | secs)
echo "pcol top of $n files: ${p}s, pcol merge: ${m}s, go tool pprof of their exports: ${g}s"
[ -n "$p" ] && [ "$p" = "$g" ] && [ "$p" = "$m" ] || { echo "FAIL: the durations differ"; exit 1; }
awk -v d="$p" 'BEGIN { exit !(d >= 1.9 && d <= 2.1) }' || { echo "FAIL: ${p}s for a 2 s recording"; exit 1; }
echo "PASS t_writer_span"
