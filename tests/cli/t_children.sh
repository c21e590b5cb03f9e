#!/usr/bin/env bash
# No process pcol starts inherits pcol's own files (doc/safety.md): the
# three children pcol can start — graphviz's dot (`graph --format svg`),
# the loader of `export --to clickhouse --load CMD`, llvm-symbolizer
# (`--symbolize local`) — are replaced here by scripts that list their own
# open descriptors; every one but 0, 1 and 2 (and the shell's own script)
# is a file pcol left open for them: the input, an output's temporary
# file, a spill or the DOT text.
set -u
PCOL=${PCOL:-build/bin/pcol}
PCOL=$(cd "$(dirname "$PCOL")" && pwd)/$(basename "$PCOL")
REPO=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "t_children: FAIL: $*"; fail=1; }
# a child (python, which holds no file of its own when its code runs) that
# lists its descriptors above 2 but the listing's own, and reads its input
mkdir -p "$tmp/bin"
spy() { # spy NAME: $tmp/bin/NAME appends "N -> target" lines to $tmp/NAME.fds
  cat >"$tmp/bin/$1" <<EOF2
#!/usr/bin/env python3
import os, sys
out = []
for n in os.listdir("/proc/self/fd"):
    try:
        t = os.readlink("/proc/self/fd/" + n)
    except OSError:
        continue
    if int(n) > 2 and not t.startswith("/proc/"):
        out.append("%s -> %s\\n" % (n, t))
sys.stdin.buffer.read()
open("$tmp/$1.fds", "a").write("".join(out))
open("$tmp/$1.ran", "w").write("ran\\n")
EOF2
  chmod +x "$tmp/bin/$1"
  rm -f "$tmp/$1.fds" "$tmp/$1.ran"
  touch "$tmp/$1.fds"
}
# what any child of this shell holds without pcol (the harness's own)
spy base
"$tmp/bin/base" </dev/null
sort -u "$tmp/base.fds" >"$tmp/base.set"
check() { # check NAME WHAT: the child ran and held nothing of pcol's
  [ -f "$tmp/$1.ran" ] || { bad "$2: the child did not run: $(cat "$tmp/$1.err")"; return; }
  sort -u "$tmp/$1.fds" | { grep -v -x -F -f "$tmp/base.set" || true; } >"$tmp/$1.extra"
  [ -s "$tmp/$1.extra" ] && bad "$2: the child inherited: $(tr '\n' ' ' <"$tmp/$1.extra")"
}
python3 "$REPO/tests/support/pprofgen.py" numunits "$tmp/in.pb" >/dev/null || { echo "t_children: pprofgen failed"; exit 1; }

# dot
spy dot
PATH=$tmp/bin:$PATH "$PCOL" graph "$tmp/in.pb" --format svg -o "$tmp/g.svg" 2>"$tmp/dot.err"
check dot "graph --format svg"

# the ClickHouse loader (run once a table, as CMD --query '...')
spy load
"$PCOL" export "$tmp/in.pb" --to clickhouse --load "$tmp/bin/load" 2>"$tmp/load.err"
check load "export --to clickhouse --load"

# the symbolizer, on a profile whose mapping names a real ELF file
if command -v python3 >/dev/null && [ -f "$REPO/tests/interop/symbolize_gen.py" ] && command -v gcc >/dev/null && command -v nm >/dev/null; then
  printf 'int work(int n){int s=0;for(int i=0;i<n;i++)s+=i*i;return s;}\nint other(int n){return work(n)+1;}\nint main(int c,char**v){(void)v;return other(c);}\n' >"$tmp/p.c"
  if gcc -g -O0 -no-pie -o "$tmp/p" "$tmp/p.c" 2>/dev/null; then
    python3 "$REPO/tests/interop/symbolize_gen.py" "$tmp/sym.pb" "[{\"bin\":\"$tmp/p\",\"base\":0,\"name\":\"$tmp/p\",\"build_id\":\"\"}]" ||
      bad "symbolize_gen failed"
    spy llvm-symbolizer
    PATH=$tmp/bin:$PATH "$PCOL" pack "$tmp/sym.pb" --symbolize local -o "$tmp/sym.pcol" 2>"$tmp/llvm-symbolizer.err"
    check llvm-symbolizer "pack --symbolize local"
  fi
fi
[ $fail = 0 ] && echo "t_children: ok"
exit $fail
