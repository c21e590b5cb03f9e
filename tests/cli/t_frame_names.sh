#!/usr/bin/env bash
# One frame, one name (doc/mappings.md §6): an unsymbolized location (no
# lines) is named after its mapping, "[libc.so.6]", or "<unknown>" without a
# mapping name, in every view and export, as go tool pprof names it.  The
# profile (tests/support/pprofgen.py unsym) has two locations in one mapping,
# a second path to the same library, a Windows path, a name with ';', a path
# ending in '/' (go's filepath.Base: "[dir]"), a mapping without a file name
# and a location without a mapping, under a named main.  Checked:
#  - go tool pprof -top (when installed) prints the rows `pcol top` prints
#    (its variant "unix": no Windows path, whose name go drops); two paths
#    to one library are two rows of one name in top, as go prints them
#    (graph.go nodeInfo keys them by the mapping's path), and one frame in
#    the frame-named outputs;
#  - fold's and the collapsed export's leaf and cum sums per name are top's
#    rows (';' read as '_', the collapsed rule; a name of two rows: their
#    flats added, its cum at least each row's and at most their sum);
#  - the frames of flame, report, Rprof, speedscope, Perun, Firefox, V8 and
#    the ClickHouse export are top's names, and no output names a frame by
#    its address; speedscope, Firefox and V8 have one frame per name;
#  - top --by address still shows the addresses (pprof -addresses).
set -u
PCOL=${PCOL:-build/bin/pcol}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "t_frame_names: $*" >&2; exit 1; }

python3 "$here/../support/pprofgen.py" unsym "$tmp/u.pb" || fail "pprofgen unsym"
python3 "$here/../support/pprofgen.py" unsym "$tmp/ux.pb" unix || fail "pprofgen unsym unix"
$PCOL pack "$tmp/u.pb" -o "$tmp/u.pcol" || fail "pack"

# --- go tool pprof -top names and numbers (Unix paths: go drops a Windows one)
if command -v go >/dev/null 2>&1 && go tool pprof -h >/dev/null 2>&1; then
  rows() { sed -n '/^ *flat  *flat%/,$p' | awk 'NR > 1 {print}' | sort; }
  g=$(go tool pprof -symbolize=none -top "$tmp/ux.pb" 2>/dev/null | rows)
  p=$($PCOL top "$tmp/ux.pb" | rows)
  [ -n "$g" ] && [ "$g" = "$p" ] || fail "top differs from go tool pprof -top:
go:
$g
pcol:
$p"
else
  echo "t_frame_names: go not installed: the go tool pprof comparison is skipped"
fi

$PCOL top "$tmp/u.pcol" --format json > "$tmp/top.json" || fail "top json"
$PCOL top "$tmp/u.pcol" --format json --value samples > "$tmp/tops.json" || fail "top json samples"
$PCOL fold "$tmp/u.pcol" > "$tmp/fold.txt" || fail "fold"
$PCOL unpack "$tmp/u.pcol" --to collapsed -o "$tmp/c.txt" || fail "collapsed"
$PCOL flame "$tmp/u.pcol" -o "$tmp/f.svg" || fail "flame"
$PCOL report "$tmp/u.pcol" -o "$tmp/r.html" || fail "report"
$PCOL unpack "$tmp/u.pcol" --to rprof -o "$tmp/r.out" || fail "rprof"
$PCOL unpack "$tmp/u.pcol" --to speedscope -o "$tmp/s.json" || fail "speedscope"
$PCOL unpack "$tmp/u.pcol" --to perun -o "$tmp/p.perf" || fail "perun"
$PCOL unpack "$tmp/u.pcol" --to firefox -o "$tmp/ff.json" || fail "firefox"
$PCOL unpack "$tmp/u.pcol" --to v8 -o "$tmp/v8.json" || fail "v8"
$PCOL export "$tmp/u.pcol" --to clickhouse -o "$tmp/ch" > /dev/null || fail "export clickhouse"

python3 - "$tmp" <<'PY' || fail "names differ (above)"
import json, os, re, sys
d = sys.argv[1]
bad = []
top = json.load(open(os.path.join(d, "top.json")))
tops = json.load(open(os.path.join(d, "tops.json")))
rows = {}
for r in top["rows"]:
    rows.setdefault(r["name"], []).append((r["flat"], r["cum"]))
names = set(rows)
want = {"main", "[libc.so.6]", "[ntdll.dll]", "[odd;name.so]", "<unknown>", "[dir]"}
if names != want:
    bad.append("top names %s, want %s" % (sorted(names), sorted(want)))
if len(rows.get("[libc.so.6]", [])) != 2:
    bad.append("top: the two paths to libc.so.6 are not two rows: %s" % rows.get("[libc.so.6]"))
sane = lambda n: n.replace(";", "_")

def sums(path):  # collapsed text -> {name: (flat, cum)}
    out = {}
    for line in open(os.path.join(d, path)):
        st, _, v = line.rstrip("\n").rpartition(" ")
        fr = st.split(";") if st else []
        for i, n in enumerate(fr):
            f, c = out.get(n, (0, 0))
            out[n] = (f + (int(v) if i == len(fr) - 1 else 0), c + (int(v) if n not in fr[:i] else 0))
    return out

# the collapsed export writes counts (a pprof source's samples/count:
# doc/mappings.md §4.2), fold the default value, as top
srows = {}
for r in tops["rows"]:
    srows.setdefault(r["name"], []).append((r["flat"], r["cum"]))
for p, rows in (("fold.txt", rows), ("c.txt", srows)):
    got = sums(p)
    ok = set(got) == {sane(n) for n in rows}
    for n, rs in rows.items():
        f, c = got.get(sane(n), (None, None))
        cums = [x[1] for x in rs]
        ok = ok and f == sum(x[0] for x in rs) and c is not None and max(cums) <= c <= sum(cums)
    if not ok:
        bad.append("%s: %s, top: %s" % (p, got, rows))
addr = re.compile(r"0x[0-9a-f]{3,}")
for p in ("fold.txt", "c.txt", "f.svg", "r.out", "s.json", "p.perf", "ff.json", "v8.json"):
    t = open(os.path.join(d, p), encoding="utf-8", errors="replace").read()
    if p.endswith(".svg"):  # its frames, not its script (regex.js's 0x212a)
        t = re.sub(r"<script.*?</script>", "", t, flags=re.S)
    if addr.search(t):
        bad.append("%s names a frame by its address: %s" % (p, addr.search(t).group(0)))
svg = open(os.path.join(d, "f.svg"), encoding="utf-8").read()
for n in names:
    esc = n.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    if esc not in svg:
        bad.append("flame: no frame %r" % n)
html = open(os.path.join(d, "r.html"), encoding="utf-8").read()
for n in names - {"main"}:
    if json.dumps(n)[1:-1] not in html and n.replace("<", "\\u003c").replace(">", "\\u003e") not in html:
        bad.append("report: no frame %r" % n)
# Rprof: each line a sample, its frames quoted, leaf first; leaf counts = top --value samples
rp = {}
for line in open(os.path.join(d, "r.out")):
    fr = re.findall(r'"([^"]*)"', line)
    if fr:
        rp[fr[0]] = rp.get(fr[0], 0) + 1
want_rp = {}
for r in tops["rows"]:
    if r["flat"]:
        want_rp[r["name"]] = want_rp.get(r["name"], 0) + r["flat"]
if rp != want_rp:
    bad.append("rprof leaves %s, top --value samples %s" % (rp, want_rp))
ss = json.load(open(os.path.join(d, "s.json")))
sf = [f["name"] for f in ss["shared"]["frames"]]
if sorted(sf) != sorted(names):
    bad.append("speedscope frames %s (one per name: %s)" % (sf, sorted(names)))
pf = json.load(open(os.path.join(d, "p.perf")))
pn = {f.get("func", f.get("function")) for r in pf["resource_type_map"].values() for f in r["trace"]}
pn |= {r["uid"] for r in pf["resource_type_map"].values()}
if pn != names:
    bad.append("perun frames %s, top %s" % (sorted(pn), sorted(names)))
ff = json.load(open(os.path.join(d, "ff.json")))
sa = ff["shared"]["stringArray"]
fn = [sa[i] for i in ff["shared"]["funcTable"]["name"]]
if sorted(fn) != sorted(names):
    bad.append("firefox functions %s (one per name: %s)" % (fn, sorted(names)))
# V8: a node per path of frames, one frame per name (no node has two
# children of one callFrame: the two paths to libc.so.6 are one node)
v8 = json.load(open(os.path.join(d, "v8.json")))
vn = {n["callFrame"]["functionName"] for n in v8["nodes"]} - {"(root)"}
if vn != names:
    bad.append("v8 frames %s, top %s" % (sorted(vn), sorted(names)))
byid = {n["id"]: n for n in v8["nodes"]}
for n in v8["nodes"]:
    kids = [json.dumps(byid[c]["callFrame"], sort_keys=True) for c in n["children"]]
    if len(kids) != len(set(kids)):
        bad.append("v8: node %d has two children of one frame: %s" % (n["id"], kids))
# ClickHouse: locations.frames holds the names (Native strings are plain bytes)
ch = open(os.path.join(d, "ch", "pcol_locations.native"), "rb").read()
for n in names:
    if n.encode() not in ch:
        bad.append("clickhouse locations: no frame %r" % n)
if addr.search(ch.decode("latin-1")):
    bad.append("clickhouse locations name a frame by its address")
for b in bad:
    print("t_frame_names:", b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY

# --- top --by address keeps the addresses (pprof -addresses)
$PCOL top "$tmp/u.pcol" --by address | grep -q '0000000000001010 \[libc.so.6\]' ||
  fail "top --by address lost the address"
# --- a name that demangles to nothing is no name (review 20b F2): pprof's
# demangling (go's default, --symbolize local) simplifies `<lambda>`,
# `<module>`, `<Anonymous>`, `<init>` (name = system name) to "", which go
# prints "<unknown>"; pcol printed an empty row name and fold an empty frame
python3 "$here/../support/pprofgen.py" selfnamed "$tmp/sn.pb" || fail "pprofgen selfnamed"
$PCOL top "$tmp/sn.pb" --symbolize local --format tsv >"$tmp/sn.tsv" || fail "top --symbolize local"
awk -F'\t' 'NR > 1 && $6 == "" {bad = 1} END {exit !bad}' "$tmp/sn.tsv" &&
  fail "top --symbolize local: an empty name: $(cat "$tmp/sn.tsv")"
grep -q '^90	.*	<unknown>	' "$tmp/sn.tsv" || fail "top --symbolize local: no <unknown> row: $(cat "$tmp/sn.tsv")"
$PCOL fold "$tmp/sn.pb" --symbolize local >"$tmp/sn.fold" || fail "fold --symbolize local"
grep -qE '(^|;)( |;)|; [0-9]+$' "$tmp/sn.fold" && fail "fold --symbolize local: an empty frame: $(cat "$tmp/sn.fold")"
$PCOL top "$tmp/sn.pb" --format tsv | grep -q '	<lambda>	' || fail "top without --symbolize: not the names as stored"
if command -v go >/dev/null 2>&1 && go tool pprof -h >/dev/null 2>&1; then
  rows() { sed -n '/^ *flat  *flat%/,$p' | awk 'NR > 1 {print}' | sort; }
  g=$(go tool pprof -top "$tmp/sn.pb" 2>/dev/null | rows)
  p=$($PCOL top "$tmp/sn.pb" --symbolize local | rows)
  [ -n "$g" ] && [ "$g" = "$p" ] || fail "top --symbolize local differs from go tool pprof -top:
go:
$g
pcol:
$p"
fi

echo "t_frame_names: ok"
