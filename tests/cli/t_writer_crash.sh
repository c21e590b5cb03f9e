#!/usr/bin/env bash
# The streaming writer under kill -9 (include/pcol.h "streaming writer"):
# examples/record_self samples itself and rolls a file every few samples
# (so a kill often lands inside a write); killed at several moments, every
# file under a final name is complete and passes `pcol validate --full`,
# every path it reported as published is there, the sequence numbers have
# no gap (no published file lost), and at most one temporary file (the one
# being written) remains.  Then a clean run: close publishes the last file
# and leaves no temporary file.
set -u
PCOL=${PCOL:-build/bin/pcol}
BUILD=${BUILD:-build}
REC=$BUILD/bin/record_self
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_writer_crash: $*" >&2; exit 1; }
[ -x "$REC" ] || fail "$REC not built (make all builds it)"

check_dir() { # dir, the published list, killed (1) or closed (0)
  local d=$1 list=$2 killed=$3 n=0 s
  while read -r p; do [ -f "$p" ] || fail "reported $p is missing"; done <"$list"
  for f in "$d"/prof-*.pcol; do
    [ -e "$f" ] || continue
    n=$((n + 1))
    $PCOL validate --full "$f" >/dev/null || fail "$f does not validate"
    s=${f##*-}; s=${s%.pcol}
    [ "$((10#$s))" = "$n" ] || fail "file $n is numbered $s: a published file is missing"
  done
  local reported temps
  reported=$(wc -l <"$list")
  [ "$n" -ge "$reported" ] && [ "$n" -le $((reported + 1)) ] ||
    fail "$n files for $reported reported (a rename may precede its report by one)"
  temps=$(find "$d" -name '.prof-*.tmp-*' | wc -l)
  if [ "$killed" = 1 ]; then
    [ "$temps" -le 1 ] || fail "$temps temporary files left (at most the one being written)"
  else
    [ "$temps" = 0 ] || fail "a clean close left $temps temporary files"
  fi
  echo "$n"
}

total=0 midwrite=0
# The sampler's clock is its own CPU time, so on a loaded machine (or under
# ASan) a fixed sleep may see no file yet: each run first waits (at most
# 20 s) for two published files, then kills after a delay that differs per
# run, so the kill lands at different moments of a roll.
for delay in 0 0.07 0.19; do
  d=$tmp/run$delay
  mkdir -p "$d"
  : >"$d/published"
  "$REC" -o "$d/prof.pcol" --seconds 30 --hz 1000 --roll-samples 5 --roll-ms 50 \
    >"$d/published" 2>"$d/err" &
  pid=$!
  for _ in $(seq 400); do
    [ "$(wc -l <"$d/published")" -ge 2 ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  sleep "$delay"
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  n=$(check_dir "$d" "$d/published" 1) || exit 1
  [ "$n" -ge 2 ] || fail "only $n files before the kill (+${delay}s): the sampler made too few to test"
  total=$((total + n))
  midwrite=$((midwrite + $(find "$d" -name '.prof-*.tmp-*' | wc -l)))
done

# a clean run: the files of a closed writer add up to what it sampled
d=$tmp/clean
mkdir -p "$d"
# (also every 8 samples: SIGPROF counts CPU time, and on a busy machine one
# chunk of work can outlast the 0.6 s, so the 150 ms alone may roll nothing)
# what killed writers left (review 16 m3): opening the writer removes this
# user's temporary files of its rolled names, unchanged for 10 minutes and
# unlocked (out.c locks a temporary file while it is open), and no other
# (rd8 M1: a prefix match took `pcol merge ... -o prof-all.pcol`'s live one).
# A temporary file as writer.c leaves it when killed before its header: the
# magic, the header's other bytes 0, then its tables (here a published
# file's).  Every planted file is one (so a name is kept for its name),
# but a user's own file of a leftover's very name (".NAME.tmp-backup": 6 of
# out.c's letters) whose bytes are not pcol's, and pcol 1.1's leftover
# (zeros first): neither proves pcol wrote it, so both stay.
pub=$(ls "$tmp"/run0/prof-*.pcol | head -1)
leftover() { printf '\211PCOL\r\n\032'; head -c 56 /dev/zero; tail -c +65 "$pub"; }
old=.prof-20260101T000000.000Z-000001.pcol.tmp-AbC123 fresh=.prof-20260101T000001.000Z-000002.pcol.tmp-DeF456
live=.prof-20260101T000002.000Z-000003.pcol.tmp-LiV789
users=.prof-20260101T000000.000Z-000001.pcol.tmp-backup v11=.prof-20260101T000000.000Z-000001.pcol.tmp-Zer0s1
keep="$fresh $live .other-20260101T000000.000Z-000001.pcol.tmp-GhI789 .prof-20260101T000000.000Z-000001.pcol.tmp-toolong
  .prof-all.pcol.tmp-Ab12Cd .prof-backup.tmp-Zz99Yy .prof-20260101T000000.000Z-00001.pcol.tmp-Short1
  .prof-20260101T000000.000Z-000001.pcol.tmp-bk.up1 $users $v11"
for f in $old $keep; do leftover >"$d/$f"; done
echo "my own backup" >"$d/$users"
{ head -c 64 /dev/zero; tail -c +65 "$pub"; } >"$d/$v11"
for f in $old $keep; do [ "$f" = "$fresh" ] || touch -d '-20 minutes' "$d/$f"; done
# a live maker: another process holds the file's lock (as out.c's maker does)
python3 -c 'import fcntl, sys, time; f = open(sys.argv[1], "rb"); fcntl.flock(f, fcntl.LOCK_EX); print(flush=True); time.sleep(60)' \
  "$d/$live" >"$d/locked" &
lockpid=$!
for _ in $(seq 100); do [ -s "$d/locked" ] && break; sleep 0.05; done
touch -d '-20 minutes' "$d/$live"
"$REC" -o "$d/prof.pcol" --seconds 0.6 --hz 500 --roll-ms 150 --roll-samples 8 >"$d/published" 2>"$d/err" ||
  fail "record_self: $(cat "$d/err")"
kill "$lockpid" 2>/dev/null
wait "$lockpid" 2>/dev/null
[ -e "$d/$old" ] && fail "a killed writer's temporary file of 20 minutes ago is left"
for f in $keep; do
  [ -e "$d/$f" ] || fail "$f was removed (a fresh one, a locked one, another output's, not a rolled name's, not 6 of out.c's letters, or not pcol's bytes)"
  rm -f "$d/$f"
done
n=$(check_dir "$d" "$d/published" 0) || exit 1
[ "$n" -ge 2 ] || fail "a 0.6 s run rolled every 150 ms or 8 samples made $n files"
$PCOL merge "$d"/prof-*.pcol -o "$tmp/all.pcol" || fail "merge of the rolled files"
$PCOL top --value samples "$tmp/all.pcol" | grep -q 'work_\|do_chunk' ||
  fail "the sampler's own functions are not in its profile"
# every frame named: by dladdr, the object's .symtab, else "[libm.so.6]" (a
# stripped library's code); no "<unknown>" and no bare address
$PCOL fold "$tmp/all.pcol" >"$tmp/all.fold" && ! grep -q '<unknown>\|;0x[0-9a-f]*[; ]\|^0x' "$tmp/all.fold" ||
  fail "record_self left frames unnamed: $(grep -o '<unknown>\|0x[0-9a-f]*' "$tmp/all.fold" | sort | uniq -c | head -5)"
# a real leftover: `pcol pack` (writer.c, as every .pcol output) killed
# inside its temporary file, by SIGXFSZ past `ulimit -f 1` (1 KiB): it
# begins with the magic, and the next writer of that path removes it once
# it is 10 minutes old (pcol 1.1's began with zeros)
d=$tmp/killed
mkdir -p "$d"
{ (ulimit -f 1; exec "$PCOL" pack "$tmp/all.pcol" -o "$d/out.pcol"); } 2>/dev/null && fail "pack past ulimit -f 1 was not stopped"
left=("$d"/.out.pcol.tmp-*)
[ -s "${left[0]}" ] && [ ${#left[@]} = 1 ] || fail "pack killed past its file size limit left no temporary file: $(ls -A "$d")"
[ "$(head -c 8 "${left[0]}" | od -An -tx1 | tr -d ' \n')" = 8950434f4c0d0a1a ] ||
  fail "a killed writer's temporary file does not begin with the magic: $(head -c 8 "${left[0]}" | od -An -c)"
touch -d '-20 minutes' "${left[0]}"
"$REC" -o "$d/out.pcol" --seconds 0.05 --hz 500 --roll-ms 0 --roll-samples 0 >/dev/null 2>"$d/err" ||
  fail "record_self -o out.pcol: $(cat "$d/err")"
[ -e "${left[0]}" ] && fail "a killed pcol pack's temporary file of 20 minutes ago is left"
# what killed writers left where the name was cut to fit NAME_MAX (out.c:
# ".NAME.tmp-XXXXXX" keeps NAME's first NAME_MAX - 12 bytes) and beside a
# symbolic link's target (out.c writes through a link): both were left
# forever.  A plain writer of a 250-byte name, a rolled writer whose stem
# makes a 13-digit sequence number's name cut, and a plain writer of a
# link: their stale temporary files go, look-alikes stay.
nm=$(getconf NAME_MAX "$tmp" 2>/dev/null || echo 255)
keepb=$((nm - 12))
d=$tmp/cut
mkdir -p "$d"
long=$(printf 'p%.0s' $(seq 250))
cutname=${long:0:$keepb}
stem=$(printf 's%.0s' $(seq $((nm - 47))))
rtail=-20260101T000000.000Z-1234567890123456789
rcut=$stem$rtail
rcut=${rcut:0:$keepb}
old2=".$cutname.tmp-AbC123 .$rcut.tmp-AbC123"
keep2=".${cutname:0:$((keepb - 1))}.tmp-AbC123 .${cutname:0:$((keepb - 1))}q.tmp-AbC123 .${rcut:0:$((keepb - 1))}x.tmp-AbC123"
mkdir -p "$d/real"
ln -s real/target.pcol "$d/link.pcol"
for f in $old2 $keep2; do leftover >"$d/$f"; done
leftover >"$d/real/.target.pcol.tmp-AbC123"
leftover >"$d/.link.pcol.tmp-AbC123"
touch -d '-20 minutes' "$d"/.[ps]* "$d/real/.target.pcol.tmp-AbC123" "$d/.link.pcol.tmp-AbC123"
"$REC" -o "$d/$long" --seconds 0.1 --hz 500 --roll-ms 0 --roll-samples 0 >/dev/null 2>"$d/err" ||
  fail "record_self -o (a $nm-byte name): $(cat "$d/err")"
"$REC" -o "$d/$stem.pcol" --seconds 0.1 --hz 500 --roll-ms 50 >/dev/null 2>"$d/err" ||
  fail "record_self -o (a rolled stem of $((nm - 47)) bytes): $(cat "$d/err")"
"$REC" -o "$d/link.pcol" --seconds 0.1 --hz 500 --roll-ms 0 --roll-samples 0 >/dev/null 2>"$d/err" ||
  fail "record_self -o link.pcol: $(cat "$d/err")"
[ -L "$d/link.pcol" ] && [ -f "$d/real/target.pcol" ] || fail "the link's target was not written through the link"
for f in $old2; do
  [ -e "$d/$f" ] && fail "a killed writer's temporary file of a name cut to NAME_MAX is left: ${f:0:40}... (${#f} bytes)"
done
[ -e "$d/real/.target.pcol.tmp-AbC123" ] && fail "a killed writer's temporary file beside the link's target is left"
for f in $keep2; do
  [ -e "$d/$f" ] || fail "${f:0:40}... (${#f} bytes, not a cut name of the writers') was removed"
done
[ -e "$d/.link.pcol.tmp-AbC123" ] || fail ".link.pcol.tmp-AbC123 (beside the link, where out.c writes nothing) was removed"
echo "t_writer_crash: ok ($total files over 3 kills, $midwrite of them inside a write; $n in a clean run)"
