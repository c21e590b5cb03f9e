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
            most the budget written (stdout rows)
and, once: the table names every `unpack --to` format, every --format of
top, peek, tree, traces, info, graph, tags, list and diff, and cat's.
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


def hostile(path):
    """the profile: a sample a name, each under main"""
    st = Strings()
    p = b"".join(field(1, 2, field(1, 0, st.id(t)) + field(2, 0, st.id(u))) for t, u in TYPES)
    for i, n in enumerate(NAMES, 1):
        p += field(4, 2, field(1, 0, i) + field(4, 2, field(1, 0, i) + field(2, 0, i)))
        p += field(5, 2, field(1, 0, i) + field(2, 0, st.id(n)) + field(4, 0, st.id(b"f" + n[:20] + b".go")))
    key = st.id(b"k\x1b<&>")  # each sample's label: its leaf's name (tags)
    for i in range(2, len(NAMES) + 1):
        p += sample([i, 1], [i * 1000000, i, i * 10], field(3, 2, field(1, 0, key) + field(2, 0, st.id(NAMES[i - 1]))))
    p += field(14, 0, st.id(TYPES[1][0]))  # default_sample_type
    with open(path, "wb") as f:
        f.write(p + st.table())


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


def args_of(row, src, out):
    return [src if a == "IN" else out if a == "OUT" else a for a in row["args"]]


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
    p = pcol(args_of(row, src, out) + ["--max-output", "300"])
    if p.returncode != 3:
        fail(w, "budget", "past --max-output 300: exit %d, not 3: %s" % (p.returncode, p.stderr.decode(errors="replace")[:200]))
    if row["where"] == "file" and os.path.exists(out) and (not os.path.isdir(out) or os.listdir(out)):
        fail(w, "budget", "past --max-output 300: %s left" % os.path.basename(out))
    if row["where"] == "stdout" and len(p.stdout) > 300:
        fail(w, "budget", "past --max-output 300: %d bytes written" % len(p.stdout))


def check(row, src, tmp):
    w = row["writer"]
    out = os.path.join(tmp, w + ".out")
    p = pcol(args_of(row, src, out))
    if p.returncode:
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
    for view in ("top", "peek", "tree", "traces", "info", "graph", "tags", "list", "diff"):
        h = pcol([view, "--help"]).stdout.decode()
        m = re.search(r"--format X +(.*)", h)
        fmts = set(re.findall(r"\b(tsv|csv|jsonl|json|dot|svg|png|callgrind)\b", m.group(1))) if m else set()
        if m and re.search(r"\btext \(default", m.group(1)):
            fmts.add("text")
        for f in fmts:
            want = view if f == "text" else "%s-%s" % (view, f)
            if want not in names:
                fail("table", "writers", "%s --format %s has no row (%s) in writers.tsv" % (view, f, want))
    for w in ("clickhouse", "flame", "report", "fold", "cat", "cat-csv", "cat-json", "cat-jsonl"):
        if w not in names:
            fail("table", "writers", "%s has no row in writers.tsv" % w)


def main():
    rows = table()
    check_table(rows)
    only = set(sys.argv[1:])
    tmp = tempfile.mkdtemp()
    try:
        src = os.path.join(tmp, "hostile.pb")
        hostile(src)
        for row in rows:
            if only and row["writer"] not in only:
                continue
            if row["dest"] in ("dot", "svg") and row["writer"].startswith("graph-") and not shutil.which("dot") \
                    and "--format dot" not in " ".join(row["args"]):
                print("t_writers: %-16s skipped (no graphviz)" % row["writer"])
                continue
            if row["writer"] == "graph-png" and not shutil.which("dot"):
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
