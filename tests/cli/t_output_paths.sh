#!/usr/bin/env bash
# CLI: output paths that are links or long names (atomic output, lib/core/out.c).
set -u
PCOL=${PCOL:-build/bin/pcol}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_output_paths: FAIL: $*" >&2; exit 1; }
in=examples/demo.out

# a dangling link as -o: the link's target is created, the link stays a link
ln -s target.pcol "$tmp/dangling"
"$PCOL" pack "$in" -o "$tmp/dangling" || fail "pack to a dangling link"
[ -L "$tmp/dangling" ] || fail "the dangling link was replaced by a regular file"
"$PCOL" validate --full "$tmp/target.pcol" >/dev/null || fail "the link's target was not written"

# a relative link into another directory, and a chain of two links
mkdir "$tmp/sub"
ln -s sub/t.pcol "$tmp/rel"; ln -s rel "$tmp/chain"
"$PCOL" pack "$in" -o "$tmp/chain" || fail "pack through a chain of links"
[ -L "$tmp/chain" ] && [ -L "$tmp/rel" ] && [ -f "$tmp/sub/t.pcol" ] || fail "link chain not followed to sub/t.pcol"

# a link loop: a clear error, nothing written, the links untouched
ln -s loop1 "$tmp/loop2"; ln -s loop2 "$tmp/loop1"
"$PCOL" pack "$in" -o "$tmp/loop1" 2>"$tmp/err"; rc=$?
[ $rc = 3 ] || fail "a link loop: exit $rc, want 3"
grep -q 'loop1: Too many levels of symbolic links' "$tmp/err" || fail "loop message: $(cat "$tmp/err")"
[ -L "$tmp/loop1" ] && [ -L "$tmp/loop2" ] || fail "a link of the loop was replaced"
ls -A "$tmp" | grep -q tmp- && fail "a temporary file was left behind"

# a directory that does not exist, or that cannot be written: the message
# names the output and its directory, not pcol's temporary file (it said
# "cannot create temporary file")
"$PCOL" pack "$in" -o "$tmp/nodir/x.pcol" 2>"$tmp/err"; rc=$?
[ $rc = 3 ] || fail "-o in a missing directory: exit $rc, want 3"
grep -qx "pcol pack: $tmp/nodir/x.pcol: cannot create a file in its directory: No such file or directory" "$tmp/err" ||
  fail "missing directory message: $(cat "$tmp/err")"
if [ "$(id -u)" != 0 ]; then
  mkdir "$tmp/ro" && chmod 555 "$tmp/ro"
  "$PCOL" report "$in" -o "$tmp/ro/r.html" 2>"$tmp/err"
  grep -qx "pcol report: $tmp/ro/r.html: cannot create a file in its directory: Permission denied" "$tmp/err" ||
    fail "read-only directory message: $(cat "$tmp/err")"
  chmod 755 "$tmp/ro"
fi

# a name of 255 bytes (NAME_MAX): the temporary name must fit too
long=$(printf 'n%.0s' $(seq 1 250)).pcol
"$PCOL" pack "$in" -o "$tmp/$long" || fail "pack to a 255-byte file name"
"$PCOL" validate --full "$tmp/$long" >/dev/null || fail "the 255-byte name was not written whole"
ls -A "$tmp" | grep -q tmp- && fail "a temporary file was left behind"

# an output that is one of the inputs (review 10 m6): replaced, with a
# warning naming it after the write succeeded, unless a pcol file is
# rewritten as pcol (meant: `pack run.pcol --compress zstd -o run.pcol`);
# through a symbolic link too (pcol writes to the link's target), not
# through a hard link (another name: the input stays as it was); every
# command that writes an output (review-diff2 F3: report, flame, graph
# replaced it silently)
cp "$in" "$tmp/self.out"
"$PCOL" pack "$tmp/self.out" -o "$tmp/self.out" 2>"$tmp/err" || fail "pack onto its input"
grep -q "warning: $tmp/self.out: the output replaced this input with a pcol file" "$tmp/err" ||
  fail "pack onto a non-pcol input: no warning: $(cat "$tmp/err")"
"$PCOL" validate "$tmp/self.out" >/dev/null || fail "pack onto its input: not a pcol file"
"$PCOL" pack "$tmp/self.out" --compress zstd -o "$tmp/self.out" 2>"$tmp/err" || fail "rewrite in place"
[ ! -s "$tmp/err" ] || fail "a pcol file rewritten in place warned: $(cat "$tmp/err")"
ln -s self.out "$tmp/selflink"
"$PCOL" unpack "$tmp/self.out" --to collapsed -o "$tmp/selflink" 2>"$tmp/err" || fail "unpack onto its input"
grep -q "the output replaced this input with the collapsed export" "$tmp/err" ||
  fail "unpack onto its input (a link to it): no warning: $(cat "$tmp/err")"
for c in "report:the report page" "flame:the flame graph" "graph:the graph"; do
  "$PCOL" pack "$in" -o "$tmp/v.pcol" || fail "pack v.pcol"
  "$PCOL" "${c%%:*}" "$tmp/v.pcol" -o "$tmp/v.pcol" 2>"$tmp/err" || fail "${c%%:*} onto its input"
  grep -q "warning: $tmp/v.pcol: the output replaced this input with ${c#*:}" "$tmp/err" ||
    fail "${c%%:*} -o its input: no warning: $(cat "$tmp/err")"
done
# a run that fails replaces nothing and says nothing of it
printf 'not a profile' > "$tmp/bad.txt"
"$PCOL" pack --from pprof "$tmp/bad.txt" -o "$tmp/bad.txt" 2>"$tmp/err" && fail "pack of junk succeeded"
grep -q "replaced this input" "$tmp/err" && fail "a failed run warned of a replacement: $(cat "$tmp/err")"
[ "$(cat "$tmp/bad.txt")" = "not a profile" ] || fail "a failed run replaced its input"
# a hard link as the output: its name is replaced, the input stays
cp "$in" "$tmp/hard.out" && ln "$tmp/hard.out" "$tmp/hard2.out"
"$PCOL" pack "$tmp/hard.out" -o "$tmp/hard2.out" 2>"$tmp/err" || fail "pack onto a hard link of its input"
[ ! -s "$tmp/err" ] || fail "a hard link's output warned: $(cat "$tmp/err")"
cmp -s "$in" "$tmp/hard.out" || fail "the input behind a hard link was replaced"
"$PCOL" pack "$in" -o "$tmp/other.pcol" 2>"$tmp/err" && [ ! -s "$tmp/err" ] || fail "a plain pack warned: $(cat "$tmp/err")"
exit 0
