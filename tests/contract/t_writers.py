#!/usr/bin/env python3
"""The writer contract (review 24): one table (writers.tsv), the same
escaping and budget checks on every surface pcol writes, so that a writer
cannot fall between hand-written lists.  Each row runs on one pprof profile
whose every function name is hostile (NUL, C0 and C1 controls, DEL, invalid
UTF-8, valid UTF-8 beside it, bidi U+202E, <script>, quotes, '&', ';', LF,
TAB, a 5000-byte name, an empty one), each sample labelled with its leaf's
name under a key holding ESC and markup, and whose value types' names and
units hold ESC, invalid UTF-8 and, one of them, 300 bytes.  For each row:

  valid     the output is valid for its destination (the row's dest): JSON
            parses (JSONL: each line), CSV and TSV rows have the header's
            columns (CSV by RFC 4180, Python's csv), SVG is well-formed XML,
            HTML and SVG hold none of the names' markup raw, DOT is read by
            graphviz's dot (when installed), a terminal's text is valid
            UTF-8 with no control character but LF and TAB, no C1 and no bidi
            control, a fold file one stack a line
  names     machine formats (json, jsonl, csv) carry every name as written
            (bytes that are not UTF-8 read as Latin-1, THE JSON string rule)
            and info's value_types column the value types as `cat --table
            value_types` gives them: whole, escaped for the format (review 24
            F5: by the terminal rule, cut at 127 bytes)
  back      where pcol reads the output back (the row's back rule), it is
            read, and its function names are the profile's under that rule
            (review 24 F1: NUL refused by the speedscope, V8 and Chrome
            importers; F2: a Perun uid's ';' split; F4: a Perun export of a
            unit not UTF-8, "out of memory")
  budget    past --max-output 300: exit 3, and no file (file rows) or at
            most the budget written (stdout rows); a shell row: the
            message, and at most the budget between its prompts; a pcol
            row (pack, merge): --max-output refused (exit 2), no file
A second profile, BASE, holds the same stacks, each value one step more or
less (--base, --diff-base, diff's BASE, --diff BASE), and RE is a regex of
the names' hostile bytes that keeps every sample (--focus RE, the shell's
focus=RE: "Active filters:", the graph's legend, JSON's "filters", `o`).
And, once: the table names every `unpack --to` format, every --format of
top, peek, tree, traces, info, graph, tags, list and diff, and cat's, and
every command of `pcol --help` runs in a row or is in NOT_WRITERS.
Usage: t_writers.py [WRITER...] with PCOL set; exit 0 when all hold."""
import csv, io, json, os, re, shlex, shutil, subprocess, sys, tempfile, zlib
import xml.etree.ElementTree as ET

PCOL = os.environ.get("PCOL", "build/bin/pcol")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "support"))
from pprofgen import field, sample, Strings  # noqa: E402
from contract_report import finish  # noqa: E402

LONG = b"long_" + b"x" * 5000
NAMES = [b"main", b"nul\x00byte", b"ctl\x01\x1b[2J\x7f", b"\xc2\x9bcsi", b"bad\xff\xfeutf8", b"bidi\xe2\x80\xaeevil",
         b"<script>alert('x')</script>", b'q"uo\\te', b"amp&lt;", b"Lcom/example/A;::run", b"Lcom/example/B;::run",
         b"new\nline", b"tab\there", b"mix\xe2\x82\xac\xff", LONG, b""]
# the value types: cpu/nanoseconds (the V8 and Chrome exports' time), one
# whose name and unit hold ESC and bytes that are not UTF-8 (the default:
# the Perun export's unit), one whose unit is 300 bytes
TYPES = [(b"cpu", b"nanoseconds"), (b"work\x1b", b"u\xff\x1b"), (b"alloc", b"y" * 300)]
# a name's markup as it must never be written raw (an SVG or HTML page has
# its own <script> elements: only the name's text is looked for)
MARKUP = ["<script>alert(", "alert('x')</script>", "alert(&#39;x&#39;)</script>"]
failures = []


def fail(row, check, what):
    failures.append("%s: %s: %s" % (row, check, what))


def hostile(path, base=False, native=None):
    """the profile: a sample a name, each under main (base: the same
    stacks, other values, some grown and some shrunk: --base, --diff-base,
    diff's and the report's and flame's --diff BASE; native: (binary,
    mapping start, limit, offset, the addresses of its `work`'s
    instructions): a location an instruction of work, in that binary's
    mapping: pcol disasm)"""
    st = Strings()
    p = b"".join(field(1, 2, field(1, 0, st.id(t)) + field(2, 0, st.id(u))) for t, u in TYPES)
    if native:
        b, start, limit, off, _ = native
        p += field(3, 2, field(1, 0, 1) + field(2, 0, start) + field(3, 0, limit) + field(4, 0, off)
                   + field(5, 0, st.id(b.encode())))
    for i, n in enumerate(NAMES, 1):
        at = field(2, 0, 1) + field(3, 0, native[4][i]) if native else b""  # (an instruction a location)
        p += field(4, 2, field(1, 0, i) + at + field(4, 2, field(1, 0, i) + field(2, 0, i)))
        p += field(5, 2, field(1, 0, i) + field(2, 0, st.id(n)) + field(4, 0, st.id(b"f" + n[:20] + b".go")))
    key = st.id(b"k\x1b<&>")  # each sample's label: its leaf's name (tags)
    for i in range(2, len(NAMES) + 1):
        d = (1 if i % 2 else -1) if base else 0  # (base: each value one step more or less)
        p += sample([i, 1], [i * 1000000 + d * 500000, i + d, i * 10 + d * 5],
                    field(3, 2, field(1, 0, key) + field(2, 0, st.id(NAMES[i - 1]))))
    p += field(14, 0, st.id(TYPES[1][0]))  # default_sample_type
    with open(path, "wb") as f:
        f.write(p + st.table())


def native_binary(tmp):
    """a C program built here (gcc -O0 -no-pie: its `work` has room for a
    location a name), as hostile's native wants it; None without gcc, nm
    or objdump (the NATIVE rows are skipped)"""
    if not all(shutil.which(t) for t in ("gcc", "nm", "objdump")):
        return None
    c, b = os.path.join(tmp, "prog.c"), os.path.join(tmp, "prog")
    with open(c, "w") as f:
        f.write("__attribute__((noinline)) int work(int n) { int s = 0;\n"
                "  for (int i = 0; i < n; i++) s += (i * i) ^ (s >> 3) ^ (s << 2) ^ (n - i) ^ (s % 7);\n"
                "  return s * 3 + n; }\nint main(int c, char **v) { (void)v; return work(c * 1000) & 1; }\n")
    if subprocess.run(["gcc", "-O0", "-no-pie", "-o", b, c], capture_output=True).returncode:
        return None
    sys.path.insert(0, os.path.join(os.path.dirname(HERE), "interop"))
    from symbolize_gen import elf, syms  # noqa: E402
    (off, vaddr, memsz), _ = elf(b)
    w, size = syms(b)["work"]
    d = subprocess.run(["objdump", "-d", "--start-address=%d" % w, "--stop-address=%d" % (w + size), b],
                       capture_output=True, text=True).stdout
    insts = [int(m, 16) for m in re.findall(r"^ +([0-9a-f]+):", d, re.M)]
    if len(insts) < len(NAMES) + 1:
        return None
    return b, vaddr & ~0xfff, (vaddr + memsz + 0xfff) & ~0xfff, off & ~0xfff, insts


def utf8_or_latin1(b):
    """bytes as pcol's JSON writes them: valid UTF-8 as it is, any other
    byte as Latin-1 (lib/core/jstr.c)"""
    out, i = [], 0
    while i < len(b):
        for n in (1, 2, 3, 4):
            try:
                out.append(b[i:i + n].decode("utf-8"))
                i += n
                break
            except UnicodeDecodeError:
                continue
        else:
            out.append(chr(b[i]))
            i += 1
    return "".join(out)


RULES = {"exact": lambda b: utf8_or_latin1(b),
         "fffd": lambda b: b.decode("utf-8", "replace"),
         "collapsed": lambda b: utf8_or_latin1(re.sub(rb"[;\n\r\x00]", b"_", b)),
         "rprof": lambda b: utf8_or_latin1(b.replace(b"\n", b" ")) if b else "<Anonymous>",
         "perun": lambda b: utf8_or_latin1(b.replace(b"\x00", b" "))}


def expected_names(rule):
    return sorted(RULES[rule](n) if n else ("<unknown>" if rule != "rprof" else "<Anonymous>") for n in NAMES)


def table():
    rows = []
    for line in open(os.path.join(HERE, "writers.tsv"), encoding="utf-8"):
        if line.strip() and not line.startswith("#"):
            f = line.split()
            rows.append({"writer": f[0], "dest": f[1], "back": f[2], "where": f[3], "args": f[4:]})
    return rows


def pcol(args, **kw):
    return subprocess.run([PCOL] + args, capture_output=True, **kw)


# RE: a regular expression (--focus, the shell's focus=) that keeps every
# sample and holds what a name may (ESC, U+202E, markup, quotes, '&', ';'):
# the views list it under "Active filters:", the graph in its legend, the
# JSON formats in "filters", the shell's `o` among its settings
RE = "\x1b\\[2J|\u202e|<script>alert('x')</script>|\"&;|."


def args_of(row, src, out, budget=False, words=None):
    """the row's command: IN, OUT, BASE, RE (alone or after '='; >OUT)
    replaced, and BUDGET by --max-output 300 (budget; else left out; where
    a row has none, budget appends it)"""
    words = words if words is not None else row["args"]
    sub = {"IN": src, "OUT": out, "BASE": src[:-3] + ".base.pb", "RE": RE, "NATIVE": src[:-3] + ".native.pb"}
    args = []
    for a in words:
        if a == "BUDGET":
            args += ["--max-output", "300"] if budget else []
        elif a in sub:
            args.append(sub[a])
        elif a.endswith("=RE"):
            args.append(a[:-2] + RE)
        elif a == ">OUT":
            args.append(">" + out)
        else:
            args.append(a)
    if budget and "BUDGET" not in row["args"]:
        args += ["--max-output", "300"]
    return args


def run_row(row, src, out, budget=False):
    """pcol with the row's arguments; a shell's standard input after <<<,
    its lines separated by ;; (budget: only its settings, NAME=VALUE, and
    the lines with BUDGET)"""
    if "<<<" not in row["args"]:
        return pcol(args_of(row, src, out, budget))
    k = row["args"].index("<<<")
    lines = [ln.split() for ln in " ".join(row["args"][k + 1:]).split(";;")]
    if budget:
        lines = [ln for ln in lines if "BUDGET" in ln or any("=" in w for w in ln)]
    text = "".join(" ".join(args_of(row, src, out, budget, ln)) + "\n" for ln in lines)
    return pcol(args_of(row, src, out, False, row["args"][:k]), input=text.encode())


def read_out(path):
    """a file's bytes (a directory's files, concatenated), gunzipped"""
    if os.path.isdir(path):
        return b"".join(open(os.path.join(path, n), "rb").read() for n in sorted(os.listdir(path)))
    data = open(path, "rb").read()
    if data[:2] == b"\x1f\x8b":
        data = zlib.decompress(data, 31)
    return data


BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")


def strings_of(v):
    if isinstance(v, str):
        yield v
    elif isinstance(v, dict):
        for k, x in v.items():
            yield k
            yield from strings_of(x)
    elif isinstance(v, list):
        for x in v:
            yield from strings_of(x)


def check_names_in(row, texts, raw):
    """every name (but "") is one of the output's strings, or in one (a
    stack's text), as written: JSON's, bytes that are not UTF-8 as Latin-1;
    CSV's, the bytes themselves (raw: texts decoded with surrogateescape)"""
    blob = "\x00".join(texts)
    for n in NAMES:
        if not n or (n == b"main" and row["writer"].startswith("tags")):  # (main: no sample's label)
            continue
        if row["writer"].startswith("traces"):
            n = re.sub(rb"[;\n\r\x00]", b"_", n)  # (traces' stacks: as fold writes a name)
        if row["writer"].startswith("disasm"):  # (its names are the symbols': the profile's files, as pprof their base)
            n = (b"f" + n[:20] + b".go").rsplit(b"/", 1)[-1]
        want = n.decode("utf-8", "surrogateescape") if raw else utf8_or_latin1(n)
        if want not in blob:
            fail(row["writer"], "names", "%r is not in the output" % want[:60])


def check_value_types(row, src, records):
    """info: value_types is `type/unit, ...` of cat's value_types table in
    the same format, whole"""
    fmt = {"info-json": "json", "info-jsonl": "jsonl", "info-csv": "csv", "info-tsv": "tsv"}[row["writer"]]
    p = pcol(["cat", src, "--table", "value_types", "--format", fmt])
    if p.returncode:
        return fail(row["writer"], "names", "cat --table value_types: exit %d" % p.returncode)
    vts = parse_rows(fmt, p.stdout)
    want = ", ".join("%s/%s" % (r["type"], r["unit"]) for r in vts)
    got = [r.get("value_types") for r in records]
    if got != [want]:
        fail(row["writer"], "names", "value_types %r, not %r (the value types as cat gives them)"
             % ([g[:80] if isinstance(g, str) else g for g in got], want[:80]))


def parse_rows(fmt, data):
    """the records of a machine format's output (raises on invalid output)"""
    text = data.decode("utf-8", "surrogateescape" if fmt in ("csv", "tsv") else "strict")
    if fmt == "json":
        d = json.loads(text)
        return d["rows"] if isinstance(d, dict) and "rows" in d else d if isinstance(d, list) else [d]
    if fmt == "jsonl":
        return [json.loads(line) for line in text.split("\n") if line]
    if fmt == "csv":
        rs = list(csv.reader(io.StringIO(text, newline="")))
    else:
        rs = [line.split("\t") for line in text.split("\n") if line]
    head, body = rs[0], rs[1:]
    for r in body:
        if len(r) != len(head):
            raise ValueError("a row of %d columns under a header of %d: %r" % (len(r), len(head), r[:4]))
    return [dict(zip(head, r)) for r in body]


def check_valid(row, src, data, out):
    w, dest = row["writer"], row["dest"]
    try:
        if dest in ("json", "jsonl", "csv", "tsv"):
            if dest == "json" and row["back"] != "-":  # an export: the document parses
                json.loads(data.decode("utf-8"))
                return
            recs = parse_rows(dest, data)
            texts = list(strings_of(recs)) if dest.startswith("json") else [v for r in recs for v in r.values()]
            if dest != "tsv" and not w.startswith("info"):  # (TSV escapes a TAB or LF in a field)
                check_names_in(row, texts, dest == "csv")
            if w.startswith("info-"):
                check_value_types(row, src, recs)
        elif dest == "text":
            t = data.decode("utf-8")
            bad = re.search("[\x00-\x08\x0b-\x1f\x7f\x80-\x9f]", t) or BIDI.search(t)
            if bad:
                fail(w, "valid", "a raw control character %r at %d" % (bad.group(0), bad.start()))
        elif dest == "fold":  # (the bytes of the names, but for ';' LF CR NUL: doc/mappings.md §4.2)
            t = data.decode("utf-8", "surrogateescape")
            for line in t.split("\n"):
                if line and not re.fullmatch(r"[^\n]+ -?\d+", line):
                    fail(w, "valid", "not a folded stack: %r" % line[:80])
        elif dest in ("svg", "html"):
            t = data.decode("utf-8")
            if dest == "svg":
                ET.fromstring(data)
            for m in MARKUP:
                if m in t:
                    fail(w, "valid", "the names' markup %r is in the %s raw" % (m, dest))
        elif dest == "dot":
            data.decode("utf-8")
            if shutil.which("dot"):
                p = subprocess.run(["dot", "-Tcanon"], input=data, capture_output=True)
                if p.returncode:
                    fail(w, "valid", "dot refuses it: %s" % p.stderr.decode(errors="replace")[:200])
    except (ValueError, ET.ParseError, UnicodeDecodeError) as e:  # (json's errors are ValueErrors)
        fail(w, "valid", "not valid %s: %s" % (dest, e))


def check_back(row, out, tmp):
    """the output read back: its names, under the row's rule"""
    w = row["writer"]
    p = pcol(["top", out, "--format", "json", "--value", "samples", "--node-fraction", "0"])
    if p.returncode:
        return fail(w, "back", "top of the output: exit %d: %s" % (p.returncode, p.stderr.decode(errors="replace")[:300]))
    got = sorted(r["name"] for r in json.loads(p.stdout)["rows"])
    want = expected_names(row["back"])
    if got != want:
        fail(w, "back", "names read back differ (rule %s): %r" % (
            row["back"], sorted(set(got) ^ set(want)) if len(got) == len(want) else
            "%d names for %d: %r" % (len(got), len(want), sorted(set(got) ^ set(want)))))


def check_budget(row, src, tmp):
    w = row["writer"]
    out = os.path.join(tmp, w + ".cut")
    p = run_row(row, src, out, budget=True)
    if "<<<" in row["args"]:  # (the shell: the session goes on, its status 0; its prompts aside)
        if b"the output budget of 300 bytes" not in p.stderr:
            fail(w, "budget", "past --max-output 300, no word of it: %s" % p.stderr.decode(errors="replace")[:200])
        p = subprocess.CompletedProcess(p.args, 3, p.stdout.replace(b"(pcol) ", b""), p.stderr)
    if row["where"] == "pcol":  # (no --max-output: a usage error, and no file)
        if p.returncode != 2 or os.path.exists(out):
            fail(w, "budget", "--max-output: exit %d, not 2 (pcol's own format takes none)" % p.returncode)
        return
    if p.returncode != 3:
        fail(w, "budget", "past --max-output 300: exit %d, not 3: %s" % (p.returncode, p.stderr.decode(errors="replace")[:200]))
    if row["where"] == "file" and os.path.exists(out) and (not os.path.isdir(out) or os.listdir(out)):
        fail(w, "budget", "past --max-output 300: %s left" % os.path.basename(out))
    if row["where"] == "stdout" and len(p.stdout) > 300:
        fail(w, "budget", "past --max-output 300: %d bytes written" % len(p.stdout))


def check(row, src, tmp):
    w = row["writer"]
    out = os.path.join(tmp, w + ".out")
    p = run_row(row, src, out)
    if p.returncode or ("<<<" in row["args"] and re.search(rb"^pcol [a-z]+: (?!warning)", p.stderr, re.M)):
        return fail(w, "run", "exit %d: %s" % (p.returncode, p.stderr.decode(errors="replace")[:300]))
    if row["where"] == "stdout":
        with open(out, "wb") as f:
            f.write(p.stdout)
    check_valid(row, src, read_out(out), out)
    if row["back"] != "-":
        check_back(row, out, tmp)
    check_budget(row, src, tmp)


def check_table(rows):
    """every unpack --to format and every listed view's --format has a row"""
    names = {r["writer"] for r in rows}
    h = pcol(["unpack", "--help"]).stdout.decode()
    m = re.search(r"--to X +output format: ([a-z0-9, ]+?);", h)
    tos = {t.strip() for t in m.group(1).replace(" or ", ", ").split(",")} if m else set()
    if not tos:
        fail("table", "writers", "unpack --help names no --to format")
    for t in tos - names:
        fail("table", "writers", "unpack --to %s has no row in writers.tsv" % t)
    for view in ("top", "peek", "tree", "traces", "info", "graph", "tags", "list", "diff", "disasm"):
        h = pcol([view, "--help"]).stdout.decode()
        m = re.search(r"--format X +(.*)", h)
        fmts = set(re.findall(r"\b(tsv|csv|jsonl|json|dot|svg|png|callgrind)\b", m.group(1))) if m else set()
        if m and re.search(r"\btext \(default", m.group(1)):
            fmts.add("text")
        for f in fmts:
            want = view if f == "text" else "%s-%s" % (view, f)
            if want not in names:
                fail("table", "writers", "%s --format %s has no row (%s) in writers.tsv" % (view, f, want))
    for w in ("clickhouse", "flame", "report", "fold", "cat", "cat-csv", "cat-json", "cat-jsonl", "shell",
              "top-focus", "top-base", "top-diff-base", "diff-base", "flame-diff", "report-diff"):
        if w not in names:
            fail("table", "writers", "%s has no row in writers.tsv" % w)
    # every command of `pcol --help` runs in a row, or writes nothing of a
    # profile's names (NOT_WRITERS)
    h = pcol(["--help"]).stdout.decode()
    cmds = re.findall(r"^  ([a-z]+) {2,}", h.split("Commands:", 1)[-1].split("\n\n", 1)[0], re.M)
    ran = {r["args"][0] for r in rows}
    if not cmds:
        fail("table", "writers", "pcol --help names no command")
    for c in cmds:
        if c not in ran and c not in NOT_WRITERS:
            fail("table", "writers", "pcol %s has no row in writers.tsv" % c)


# the commands with no row, and why
NOT_WRITERS = {"validate": "its lines name files, not a profile's names",
               "index": "pcol merge's file, in a directory (the merge row)"}


def main():
    rows = table()
    check_table(rows)
    only = set(sys.argv[1:])
    tmp = tempfile.mkdtemp()
    try:
        src = os.path.join(tmp, "hostile.pb")
        hostile(src)
        hostile(src[:-3] + ".base.pb", base=True)
        native = native_binary(tmp)
        if native:
            hostile(src[:-3] + ".native.pb", native=native)
        for row in rows:
            if only and row["writer"] not in only:
                continue
            if row["dest"] in ("dot", "svg") and row["writer"].startswith("graph-") and not shutil.which("dot") \
                    and "--format dot" not in " ".join(row["args"]):
                print("t_writers: %-16s skipped (no graphviz)" % row["writer"])
                continue
            if row["writer"] == "graph-png" and not shutil.which("dot"):
                continue
            if "NATIVE" in row["args"] and not os.path.exists(src[:-3] + ".native.pb"):
                print("t_writers: %-16s skipped (no gcc, nm or objdump)" % row["writer"])
                continue
            before = len(failures)
            try:
                check(row, src, tmp)
            except Exception as e:  # a check that could not run
                fail(row["writer"], "run", repr(e))
            print("t_writers: %-16s %s" % (row["writer"], "ok" if len(failures) == before else "FAILED"))
    finally:
        shutil.rmtree(tmp)
    return finish("t_writers", failures)


if __name__ == "__main__":
    sys.exit(main())
