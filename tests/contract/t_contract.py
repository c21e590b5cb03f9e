#!/usr/bin/env python3
"""The importer contract (issue 41): one table (importers.tsv), the same
checks on every format pcol reads, so that a format cannot land judged by
its totals only.  For each row's file (made by gen.py, which prints what
must be read from it, or a project fixture):

  detect     detected by content as the row's format
  count      `top --value samples` adds up to the samples written
  period     where the producer states a sampling period (pprof's, Rprof's
             interval, JFR's execution-sample setting): `info` gives it,
             with its type and unit, and the default value's total is
             samples x period (the CPU time the producer's tools report)
             (stated_period: any period the producer states, as go tool
             pprof reads it from the file where it reads the file, pprof's
             legacy heap and contention profiles; `info` gives it, a
             Firefox profile's interval its meta firefox.interval_ms; the
             pprof copy states it as go tool pprof -raw reads that: OTLP,
             Firefox, Tachyon, legacy pprof; Tachyon's wall = samples x it)
  times      each source's first and last sample times are since the
             profile's start (gen.py's first_ns/span_ns), not on the
             producer's clock; `--from 0 --to END` holds every sample
  threads    threads are labels (or sources) named exactly as written:
             blanks, digits and non-ASCII intact, with their sample counts
  names      the frames gen.py names appear in `top`; no name is empty or
             says "undefined" (a fixture row: the truth read from the
             fixture as its producer's tools read it, FIXTURE_TRUTH: a Perun
             kperf profile's samples and names)
  wrapped    the file gzip-, zstd- and lz4-compressed gives the same `top`,
             read from a file and from a pipe (standard input)
  refusal    a damaged copy exits 1 naming the file, and no other format
  exports    every export (`unpack --to T`) reads back, detected as T, with
             the default value's total where T keeps it (pprof, OTLP,
             speedscope, collapsed), and is the same bytes when made again
             from the input packed with zstd (another run, another layout);
             where T keeps when samples ran (TIMES_BACK), its first sample
             is at the original's time since the start, and a range from
             the middle on holds what the original's does (review 21 F1:
             the V8 and Chrome exports laid the samples end to end)
  loses      every export says in one note "not written: ..." exactly the
             label keys and value types of the file's samples that it does
             not write (doc/mappings.md §7, "What each export says it
             loses": HOLDS below), and nothing when it loses none (review
             19 F5: labels and value types were dropped without a word)
  fuzz, doc  the row's fuzz target exists; doc/mappings.md (pcol's: spec.md)
             has its section
  empty      where the format holds a function named "" (EMPTY_FORMATS),
             top, traces, tree, fold and flame name it as go tool pprof
             names it in the file's pprof copy, "<unknown>", and the exports
             that hold "" keep it (check_empty; review 22 F8; the gen:KIND
             rows of EMPTY_FORMATS' kinds too); V8's, a Chrome trace's
             and a Perfetto trace's V8 profiles' "" is "(anonymous
             FILE:LINE)" (EMPTY_NAME), as DevTools and speedscope name it;
             go tool pprof is run in -symbolize=none and in its default
             mode, and both must print pcol's names (GO_MODES)
  nul        where the producer's viewer reads a name holding NUL (JSON's
             \u0000: speedscope and DevTools keep it), gen.py FORMAT OUT nul
             (NUL_KINDS): its frame, thread (a Chrome trace's thread_name,
             a speedscope profile's name), Hermes category and a Chrome
             trace's event names are read whole, and read back whole from
             the format's own export (check_nul; before, each but a V8
             frame's was refused: "a string holds \u0000"); OTLP (JSON
             and protobuf: the label's string_value) and a Perfetto
             trace's V8 profile (its thread's name) too, their protobuf
             exports holding the name's NUL byte (NUL_BINARY)
  stream     a row streamed by tests/bounds/t_stream_json.sh names kinds
             that script runs (its STREAMED list: a big input under a
             memory cap, which an importer reading whole exceeds)
and, once: the table lists exactly the formats `pcol pack --from` takes
(pcol's own among them: a file `pcol pack` wrote, whose refusals and doc,
spec.md, are its own).
and the loss notes of a few shared test files' exports (LOSS_FILES).
and every export of a source listing a value type twice holds the value
the views read (VALUE_FILES), and states the duration the source states
(check_durations).
and every export of a merge of profiles whose defaults sit at other
columns, one in kilobytes, reads back go's default (check_kin_defaults).
Usage: t_contract.py [FORMAT...|loss|values|durations|kin] with PCOL set; exit 0 when all hold."""
import gzip, html, json, os, re, shlex, shutil, subprocess, sys, tempfile
from contract_report import finish

PCOL = os.environ.get("PCOL", "build/bin/pcol")
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
# how each format's messages name it (a refusal must name no other)
SAYS = {"rprof": "Rprof", "pprof": "pprof", "perun": "Perun", "collapsed": "collapsed", "v8": "V8",
        "perf": "perf script", "speedscope": "speedscope", "firefox": "Firefox", "otlp": "OTLP",
        "jfr": "JFR", "chrome": "Chrome trace", "tachyon": "Tachyon", "perfetto": "Perfetto", "pcol": "pcol file"}
# (pcol's own format, the row of a file `pcol pack` wrote: described in
# spec.md, not doc/mappings.md; "pcol" begins every message, so no other
# row's refusal is judged by it)
DOC_FILE = {"pcol": "spec.md"}
# the headings of doc/mappings.md that are each format's section
DOC = {"rprof": "Rprof", "pprof": "pprof", "perun": "Perun", "collapsed": "Collapsed stacks",
       "v8": "V8 .cpuprofile", "perf": "perf script", "speedscope": "speedscope (import)",
       "firefox": "Firefox Profiler", "otlp": "OpenTelemetry profiles", "jfr": "JDK Flight Recorder", "chrome": "Chrome trace",
       "tachyon": "Tachyon", "perfetto": "Perfetto", "pcol": "Header"}
EXPORTS = ["pprof", "collapsed", "speedscope", "firefox", "otlp", "rprof", "perun", "v8", "chrome", "perfetto"]
SAME_TOTAL = {"pprof", "otlp", "speedscope", "collapsed", "perfetto"}
# the exports that keep each sample's time (check_times_back)
TIMES_BACK = {"speedscope", "firefox", "otlp", "perfetto", "v8", "chrome"}
failures = []


def fail(fmt, check, what):
    failures.append("%s: %s: %s" % (fmt, check, what))


def run(*args, ok=True, stdin=None):
    p = subprocess.run([PCOL] + list(args), capture_output=True, input=stdin)
    if ok and p.returncode != 0:
        raise RuntimeError("pcol %s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr.decode(errors="replace")[:300]))
    return p


def js(*args):
    return json.loads(run(*args, "--format", "json").stdout)


def total(path, *extra):
    return js("top", path, "--value", "samples", "--node-fraction", "0", *extra)["total"]


def table():
    rows = []
    for line in open(os.path.join(HERE, "importers.tsv"), encoding="utf-8"):
        if line.strip() and not line.startswith("#"):
            f = line.split()
            rows.append({"format": f[0], "detected": f[1], "file": f[2], "fuzz": f[3], "stream": " ".join(f[4:])})
    return rows


def damaged(fmt, data):
    """copies of the file that are not valid any more (text formats may
    take a truncation for a shorter valid file, so a stray line too)"""
    half = data[: len(data) * 2 // 3]
    lines = data.split(b"\n")
    mid = len(lines) // 2
    def at_mid(line):
        return b"\n".join(lines[:mid] + [line] + lines[mid:])
    return [("truncated", half), ("stray line", at_mid(b"\x01\x02 this \x03 is not a line of any profile")),
            ("stray indented line", at_mid(b"\t    zz not a frame (\x01)")),
            ("count out of range", at_mid(b"main;leaf_a 99999999999999999999999"))]


TIME_UNITS = {"nanoseconds": 1, "ns": 1, "microseconds": 1000, "us": 1000, "milliseconds": 10**6, "ms": 10**6,
              "seconds": 10**9, "s": 10**9}


# what each export writes of labels and value types (doc/mappings.md §7,
# "What each export says it loses"): the label keys it keeps ("all", or a
# set: a thread's keys, as its name and ids), and of the values "all",
# "one" (the default), "one+count" (and the count beside it), "rprof"
# (one+count and R's memory fields); the Perun importer's layout keys
# (perun.*) are not counted
THREAD_KEYS = {"thread_name", "thread", "thread_id", "tid", "comm", "pid"}
HOLDS = {"pprof": ("all", "all"), "otlp": ("all", "all"), "collapsed": (set(), "one"), "rprof": (set(), "rprof"),
         "perun": (set(), "one"), "v8": (set(), "one+count"), "chrome": (THREAD_KEYS | {"process_name"}, "one+count"),
         "speedscope": (THREAD_KEYS, "all"), "firefox": (THREAD_KEYS | {"pprof::base"}, "all"),
         "perfetto": (THREAD_KEYS | {"process_name"}, "all")}
RPROF_MEM = {"vsize.small", "vsize.large", "nodes", "duplications"}


def count_like(src):
    """The value types whose value is every sample's count (its
    samples/count, else its weight: THE count rule): an export that writes
    the count holds them (a Perun profile's time/sample)."""
    weight = {r["sample_id"]: r["weight"] for r in js("cat", src, "--table", "samples")}
    vals = {}
    for r in js("cat", src, "--table", "sample_values"):
        vals.setdefault(r["sample_id"], {})[(r["type"], r["unit"])] = r["value"]
    equal, seen = {}, set()
    for sid, w in weight.items():
        v = vals.get(sid, {})
        n = v.get(("samples", "count"), w)
        for k, x in v.items():
            seen.add(k)
            equal[k] = equal.get(k, True) and x == n
    return {k for k in seen if equal[k]}


def check_loss(fmt, t, src, out, stderr):
    """The loss note of --to t of src (the whole file, its default value):
    one line naming exactly the label keys and value types of src's samples
    that HOLDS says t does not write; none when it loses nothing."""
    said = [l for l in stderr.decode(errors="replace").splitlines() if ": not written: " in l]
    labels = js("cat", src, "--table", "sample_labels")
    keys = {r["key"] for r in labels}
    vals = {(r["type"], r["unit"]) for r in js("cat", src, "--table", "sample_values")}
    rows = [r for r in js("info", src)["rows"] if r["samples"]]
    kept_keys, kept_vals = HOLDS[t]
    if kept_keys != "all" and any(r["key"] == "pprof::base" and r["str"] != "true" for r in labels):
        kept_keys = kept_keys - {"pprof::base"}  # (pcolBase holds go's base, "true" only: rd16a N3)
    if t == "speedscope" and not any(r["first_ns"] is not None for r in js("info", out)["rows"]):
        kept_keys = set()  # no evented timeline (its samples' times): no thread's labels
    # (the Perun importer's layout keys, perun.type_key, ...: no data of the samples')
    lost_keys = set() if kept_keys == "all" else {k for k in keys - kept_keys if not k.startswith("perun.")}
    lost_vals = set()
    if kept_vals != "all":
        defaults = {(r["default_type"], r["default_unit"]) for r in rows}
        if len(defaults) > 1:
            defaults = {("samples", "count")}  # sources that differ: each one's count (THE default rule)
        keep = set(defaults)
        if t == "rprof":
            # Rprof's lines are ticks of a time: a default that is none (a
            # heap profile's space) is written as each sample's count
            keep = {d for d in keep if d[1] in TIME_UNITS}
        if "samples" in {d[0] for d in defaults} or kept_vals != "one":
            keep.add(("samples", "count"))
            keep |= count_like(src)
        if kept_vals == "rprof":
            keep |= {v for v in vals if v[0] in RPROF_MEM}
            if any(v[0] == "vsize.small" for v in vals):
                keep |= {v for v in vals if v[0] == "rprof.alloc"}
        if t == "rprof" and len({(r["default_type"], r["default_unit"]) for r in rows}) > 1:
            # sources that differ: each one of a measured time writes that
            # time as its ticks (rprof_export.c written_types), the others
            # their count (review rd13b F3)
            keep |= {(r["default_type"], r["default_unit"]) for r in rows if r["default_unit"] in TIME_UNITS}
        if any(d[0] == "cpu" for d in defaults):  # Rprof's derived time stands for a stored cpu
            keep |= {v for v in vals if v == ("cpu", "nanoseconds")}
        if t == "collapsed" and len(defaults) == 1:
            # each source's count where it counts its samples (a stored
            # samples/count, an Rprof source's ticks), else its default
            # (doc/mappings.md §4.2: readers take the numbers for counts)
            keep = set()
            for r in rows:
                if "samples/count" in (r["value_types"] or "").split(", ") or r["source_type"] == "rprof":
                    keep.add(("samples", "count"))
                else:
                    keep.add((r["default_type"], r["default_unit"]))
        lost_vals = vals - keep
    if fmt == "perun" and t == "perun":
        lost_keys, lost_vals = set(), set()  # a Perun profile written back exactly
    if not lost_keys and not lost_vals:
        if said:
            fail(fmt, "loses", "--to %s loses nothing, yet says %s" % (t, said[0][:200]))
        return
    if len(said) != 1:
        return fail(fmt, "loses", "--to %s loses %s and %s: %d loss notes" % (t, sorted(lost_keys), sorted(lost_vals), len(said)))
    note = said[0].split(": not written: ", 1)[1]
    m = re.match(r"labels \((\d+) keys?: (.*?)\)(?: and |(?= \())", note)
    got_keys = (int(m.group(1)), m.group(2)) if m else (0, "")
    rest = note[m.end():] if m else note
    if lost_keys and (not m or got_keys[0] != len(lost_keys) or
                      not set(got_keys[1].removesuffix(", ...").split(", ")) <= lost_keys):
        fail(fmt, "loses", "--to %s: the note says [%s], the labels lost are %s" % (t, note[:200], sorted(lost_keys)))
    if not lost_keys and m:
        fail(fmt, "loses", "--to %s: the note names labels it keeps: %s" % (t, note[:200]))
    v = re.match(r"(?:values )?(.*?)(?: and (\d+) more)? \(", rest)
    named = set() if not lost_vals or not v else {tuple(x.split("/", 1)) for x in v.group(1).split(", ")}
    more = int(v.group(2) or 0) if v else 0
    if lost_vals and (not named <= lost_vals or len(named) + more != len(lost_vals)):
        fail(fmt, "loses", "--to %s: the note says [%s], the values lost are %s" % (t, note[:200], sorted(lost_vals)))
    if not lost_vals and "values " in rest.split(" (", 1)[0]:
        fail(fmt, "loses", "--to %s: the note names values it keeps: %s" % (t, note[:200]))


def same_and_read_back(fmt, t, zpacked, out, args):
    """The export `out` (--to t with args) is made alike from the zstd copy
    and reads back as t: False (a failure noted) when it does not read."""
    again = out + ".z"
    run("unpack", zpacked, "--to", t, *args, "-o", again)
    if open(again, "rb").read() != open(out, "rb").read():
        fail(fmt, "exports", "--to %s: the export of the input packed with zstd is not the same bytes" % t)
    i = run("info", out, ok=False)
    if i.returncode or not re.search(r"input_format: *%s\b" % t, i.stdout.decode()):
        fail(fmt, "exports", "--to %s does not read back as %s: %s" % (t, t, i.stderr.decode(errors="replace")[:200]))
        return False
    return True


def check_times_back(fmt, t, src, out, truth, ty, sel=()):
    """The export `out` (--to t; sel: the --tag of its one thread) keeps the
    times of the original's samples: its first one is at the original's
    first's time since the start (to 1 us; of all threads), and from the
    middle of the original's span on it holds the original's amount of
    value type ty (V8 and Chrome: their wall), within one sample's value a
    thread (a sample the middle cuts: a V8 sample lasts, the original's
    may be a point) and 1 us a sample (the V8 deltas' rounding)."""
    inf = [r for r in js("info", src)["rows"] if r["first_ns"] is not None]
    back = [r for r in js("info", out)["rows"] if r["first_ns"] is not None]
    if not inf:
        return
    if not back:
        return fail(fmt, "exports", "--to %s: the samples read back have no times" % t)
    first, got = min(r["first_ns"] for r in inf), min(r["first_ns"] for r in back)
    if not sel and abs(first - got) > 1000:
        fail(fmt, "exports", "--to %s: the first sample read back is at %s ns since the start, the original's at %s"
             % (t, got, first))
    mid = "%.9f" % (max(r["end_ns"] for r in inf) / 2e9)
    rel = ["--relative-percentages"] if sel else []  # (top's total: the thread's)
    want = js("top", src, "--from", mid, "--node-fraction", "0", *sel, *rel, "--value", ty)
    have = js("top", out, "--from", mid, "--node-fraction", "0", "--value", "wall" if t in ("v8", "chrome") else ty)
    scale = TIME_UNITS.get(want["unit"], 1)
    # one sample's value: the largest stored, else (a value made from the
    # weight: Rprof's time) the mean
    vals = [v["value"] for v in json.loads(run("cat", src, "--table", "sample_values", "--format", "json").stdout)
            if v["type"] == ty]
    n = sum(r["samples"] for r in inf)
    one = max(vals) if vals else js("top", src, "--node-fraction", "0", "--value", ty)["total"] / max(n, 1)
    threads = 1 if sel else max([len(inf)] + [len(v) for v in truth.get("threads", {}).values()])
    slack = threads * one * scale + 1000 * n
    if abs(have["total"] * TIME_UNITS.get(have["unit"], 1) - want["total"] * scale) > slack:
        fail(fmt, "exports", "--to %s: from %s s on, %s %s read back, the original has %s %s (its samples' times "
             "are not kept)" % (t, mid, have["total"], have["unit"], want["total"], want["unit"]))


def check_v8(fmt, src, zpacked, out, truth):
    """--to v8 (doc/mappings.md §10.1): one source, one thread, a time value.
    More than one source with samples is refused naming their number, a
    source whose default is no time naming it, a source of several threads
    listing them with the --tag of each; else (the first source, its first
    thread, its default or its first time type) it reads back as v8, the same bytes from the zstd
    copy, with the value's total within 1 us a sample (the deltas are whole
    us of the running sum)."""
    rows = [r for r in js("info", src)["rows"] if r["samples"]]
    if not rows:
        return
    sel = []
    if len(rows) > 1:
        p = run("unpack", src, "--to", "v8", "-o", out, ok=False)
        if p.returncode != 1 or b"%d sources have selected samples" % len(rows) not in p.stderr:
            fail(fmt, "exports", "--to v8 of %d sources: exit %d: %s" % (len(rows), p.returncode, p.stderr[:200]))
        sel = ["--source", str(rows[0]["source_id"])]
    r = rows[0]
    val = []
    if r["default_unit"] not in TIME_UNITS:
        types = [t.split("/", 1) for t in (r["value_types"] or "").split(", ") if "/" in t]
        times = [ty for ty, un in types if un in TIME_UNITS]
        if not times:
            p = run("unpack", src, "--to", "v8", *sel, "-o", out, ok=False)
            if p.returncode != 1 or b"not a time" not in p.stderr:
                fail(fmt, "exports", "--to v8 of a source without a time value: exit %d: %s"
                     % (p.returncode, p.stderr[:200]))
            return
        val = ["--value", times[0]]
    p = run("unpack", src, "--to", "v8", *sel, *val, "-o", out, ok=False)
    # one source of several threads (THE thread rule): refused, each thread
    # listed with the --tag that selects it; then the first one's
    m = re.search(rb"has selected samples of \d+ threads.*?\(--tag ([^)]*)\)", p.stderr, re.S)
    rel = []
    if p.returncode == 1 and m:
        sel += ["--tag", shlex.split(m.group(1).decode())[0]]
        rel = ["--relative-percentages"]  # (top's total: the thread's)
        p = run("unpack", src, "--to", "v8", *sel, *val, "-o", out, ok=False)
    if p.returncode:
        fail(fmt, "exports", "--to v8 %s: exit %d: %s" % (" ".join(sel + val), p.returncode, p.stderr[:200]))
        return
    if not same_and_read_back(fmt, "v8", zpacked, out, sel + val):
        return
    if not sel and not val:
        check_loss(fmt, "v8", src, out, p.stderr)
    want = js("top", src, "--node-fraction", "0", *sel, *rel, *(val or ["--value", r["default_type"]]))
    back = js("top", out, "--node-fraction", "0", "--value", "wall")["total"]
    scale = TIME_UNITS.get(want["unit"], 1)
    if abs(back - want["total"] * scale) > 1000 * r["samples"]:
        fail(fmt, "exports", "--to v8: %s ns read back, the original has %s %s" % (back, want["total"], want["unit"]))
    tags = sel[sel.index("--tag"):sel.index("--tag") + 2] if "--tag" in sel else []
    if "--source" not in sel:  # (one source among several: the others' times are not its)
        check_times_back(fmt, "v8", src, out, truth, val[1] if val else r["default_type"], tags)


def check_chrome(fmt, src, zpacked, out, truth):
    """--to chrome (doc/mappings.md §14.1): every source, every thread, a
    time value (the V8 export's rule).  A source whose default is no time is
    refused naming it; else (the default, or the first source's first time
    type for all) it reads back as chrome, a profile a thread, the same bytes
    from the zstd copy, each source's total of the value within 1 us a
    sample of what the read-back holds."""
    rows = [r for r in js("info", src)["rows"] if r["samples"]]
    if not rows:
        return
    val = []
    if any(r["default_unit"] not in TIME_UNITS for r in rows):
        p = run("unpack", src, "--to", "chrome", "-o", out, ok=False)
        if p.returncode != 1 or b"not a time" not in p.stderr or b"chrome export: source " not in p.stderr:
            fail(fmt, "exports", "--to chrome of a source without a time default: exit %d: %s"
                 % (p.returncode, p.stderr[:200]))
        types = [t.split("/", 1) for t in (rows[0]["value_types"] or "").split(", ") if "/" in t]
        times = [ty for ty, un in types if un in TIME_UNITS]
        if not times or len(rows) > 1:
            return
        val = ["--value", times[0]]
    p = run("unpack", src, "--to", "chrome", *val, "-o", out, ok=False)
    if p.returncode:
        fail(fmt, "exports", "--to chrome %s: exit %d: %s" % (" ".join(val), p.returncode, p.stderr[:200]))
        return
    if not same_and_read_back(fmt, "chrome", zpacked, out, val):
        return
    if not val:
        check_loss(fmt, "chrome", src, out, p.stderr)
    want = 0
    for r in rows:
        t = js("top", src, "--node-fraction", "0", "--source", str(r["source_id"]), *(val or ["--value", r["default_type"]]))
        want += t["total"] * TIME_UNITS.get(t["unit"], 1)
    back = js("top", out, "--node-fraction", "0", "--value", "wall")["total"]
    n = sum(r["samples"] for r in rows)
    if abs(back - want) > 1000 * n:
        fail(fmt, "exports", "--to chrome: %s ns read back, the original has %s ns" % (back, want))
    if val or len({r["default_type"] for r in rows}) == 1:
        check_times_back(fmt, "chrome", src, out, truth, val[1] if val else rows[0]["default_type"])


def go_period(path):
    """[period, type, unit] as go tool pprof -raw reads path; None without
    go or when go does not read it"""
    go = shutil.which("go")
    if not go:
        return None
    out = subprocess.run([go, "tool", "pprof", "-raw", path], capture_output=True, text=True).stdout
    m = re.search(r"^PeriodType: (\S*) (\S*)\s*\nPeriod: (-?\d+)$", out, re.M)
    return [int(m.group(3)), m.group(1), m.group(2)] if m else None


# the formats whose stated interval is no period of `info` but meta (a
# Firefox profile's meta.interval: firefox.interval_ms, doc/mappings.md
# §8.1), stated as the period by the exports (THE interval rule)
INTERVAL_META = {"firefox": ("firefox.interval_ms", 10**6)}


def check_stated_period(fmt, src, inf, n, truth, tmp):
    """The period the producer states (truth stated_period: [period, type,
    unit]): go tool pprof reads it so from the file where it reads the file
    (pprof, its legacy forms: the judge of gen.py's truth), `info` gives it
    (INTERVAL_META: the meta key), the pprof copy states it as go tool pprof
    reads it, and (period_value) that value type totals samples x period."""
    want = truth["stated_period"]
    if fmt == "pprof":
        g = go_period(src)
        if g is not None and g != want:
            fail(fmt, "period", "go tool pprof -raw reads the period %s; gen.py states %s" % (g, want))
    for r in inf:
        if fmt in INTERVAL_META:
            key, scale = INTERVAL_META[fmt]
            meta = {m["key"]: m["value"] for m in js("cat", src, "--table", "meta") if m["source_id"] == r["source_id"]}
            if key not in meta or float(meta[key]) * scale != want[0]:
                fail(fmt, "period", "source %s: %s %s, stated %s ns" % (r["source_id"], key, meta.get(key), want[0]))
        elif [r["period"], r["period_type"], r["period_unit"]] != want:
            fail(fmt, "period", "source %s: info's period %s %s %s, stated %s"
                 % (r["source_id"], r["period"], r["period_type"], r["period_unit"], want))
    pb = os.path.join(tmp, "period-%s.pb.gz" % fmt)
    run("unpack", src, "--to", "pprof", "-o", pb)
    g = go_period(pb)
    if g is None:
        r = js("info", pb)["rows"][0]
        g = [r["period"], r["period_type"], r["period_unit"]]
    if g != want:
        fail(fmt, "period", "its pprof copy states the period %s (go tool pprof -raw), the file %s" % (g, want))
    if truth.get("period_value"):
        t = js("top", src, "--node-fraction", "0", "--value", truth["period_value"])
        if (t["unit"], t["total"]) != (want[2], n * want[0]):
            fail(fmt, "period", "%s total %s %s, not %s samples x %s %s"
                 % (truth["period_value"], t["total"], t["unit"], n, want[0], want[2]))


def perun_truth(path):
    """What a Perun kperf profile (the fixture row) holds, read from its
    JSON as Perun's own views read it: each resource's amount is that many
    samples (header units `sample`), its uid the leaf and its trace's funcs
    the callers (Perun's flame graph: `trace` then `uid`)."""
    d = json.load(open(path, encoding="utf-8"))
    if d["collector_info"]["name"] != "kperf" or d["header"]["units"].get("time") != "sample":
        return {}
    names = set()
    for r in d["resource_type_map"].values():
        names |= {r["uid"]} | {f["func"] for f in r.get("trace", [])}
    return {"samples": sum(r["amount"][0] for r in d["resources"].values()), "names": sorted(names)}


FIXTURE_TRUTH = {"perun": perun_truth}


def check(row, tmp):
    fmt = row["format"]
    src = os.path.join(tmp, "in." + fmt)
    truth = {}
    if row["file"] == "gen" or row["file"].startswith("gen:"):
        # gen:KIND: gen.py's KIND, another form of the row's format
        kind = row["file"][4:] or fmt
        p = subprocess.run([sys.executable, os.path.join(HERE, "gen.py"), kind, src], capture_output=True)
        if p.returncode == 3:  # (a tool the generator needs: protoc, for OTLP's protobuf)
            print("t_contract: protoc not installed: %s skipped" % kind)
            return
        if p.returncode:
            return fail(fmt, "gen", p.stderr.decode()[:300])
        truth = json.loads(p.stdout)
    else:
        shutil.copyfile(os.path.join(ROOT, row["file"].split(":", 1)[1]), src)
        truth = FIXTURE_TRUTH[fmt](src) if fmt in FIXTURE_TRUTH else {}
    data = open(src, "rb").read()

    info = run("info", src).stdout.decode()
    if row["detected"] == "pcol":  # a pcol file: its format version, no input format converted
        if "input_format:" in info or not re.search(r"^format_version: *1\.\d+$", info, re.M):
            fail(fmt, "detect", "not read as a pcol file: %s" % info.splitlines()[:2])
    elif not re.search(r"input_format: *%s\b" % re.escape(row["detected"]), info):
        fail(fmt, "detect", "not detected as %s: %s" % (row["detected"], info.splitlines()[:2]))
    inf = js("info", src)["rows"]

    n = total(src)
    if "samples" in truth and n != truth["samples"]:
        fail(fmt, "count", "%s samples, %d written" % (n, truth["samples"]))

    # the sampling period the producer wrote
    if "period" in truth:
        want = truth["period"]
        for r in inf:
            if [r["period"], r["period_type"], r["period_unit"]] != want:
                fail(fmt, "period", "source %s: period %s %s %s, written %s"
                     % (r["source_id"], r["period"], r["period_type"], r["period_unit"], want))
        tot = js("info", src)
        if (tot["unit"], tot["total"]) != (want[2], n * want[0]):
            fail(fmt, "period", "default total %s %s, not %s samples x %s %s"
                 % (tot["total"], tot["unit"], n, want[0], want[2]))

    if "stated_period" in truth:
        check_stated_period(fmt, src, inf, n, truth, tmp)

    # times since the start
    if truth.get("first_ns") is not None:
        # one pair for every source, or a list of them, source by source
        firsts, spans = truth["first_ns"], truth["span_ns"]
        if not isinstance(firsts, list):
            firsts, spans = [firsts] * len(inf), [spans] * len(inf)
        for r, f0, s0 in zip(inf, firsts, spans):
            if r["first_ns"] is None or abs(r["first_ns"] - f0) > 1000 or abs(r["end_ns"] - s0) > 1000:
                fail(fmt, "times", "source %s spans %s .. %s ns; written %s .. %s ns since the start"
                     % (r["source_id"], r["first_ns"], r["end_ns"], f0, s0))
    ends = [r["end_ns"] for r in inf if r["end_ns"] is not None]
    if ends:
        if min(r["first_ns"] for r in inf if r["first_ns"] is not None) < 0:
            fail(fmt, "times", "a sample before the start")
        end_s = "%.9f" % (max(ends) / 1e9 + 1e-6)
        got = total(src, "--from", "0", "--to", end_s)
        if got != n:
            fail(fmt, "times", "--from 0 --to %s holds %s of %s samples" % (end_s, got, n))

    # threads: labels (or sources) named exactly as written
    for key, want in truth.get("threads", {}).items():
        rows = js("tags", src, "--value", "samples")["rows"]
        got = {r["value"]: r["amount"] for r in rows if r["key"] == key}
        if got != want:
            fail(fmt, "threads", "label %s: %s, written %s" % (key, got, want))
    if "sources" in truth:
        got = {r["source_uri"]: r["samples"] for r in inf}
        # the URI is the path as given, then the thread's profile name
        want = {"%s: %s" % (src, k.split(": ", 1)[1]): v for k, v in truth["sources"].items()}
        if got != want:
            fail(fmt, "threads", "sources %s, written %s" % (got, want))

    # names as the producer's viewer prints them
    plain = js("top", src, "--node-fraction", "0")  # the answer every wrapped copy must give too
    names = [r["name"] for r in plain["rows"]]
    for want in truth.get("names", []):
        if want not in names:
            fail(fmt, "names", "no frame %r in top (%s)" % (want, names[:12]))
    for nm in names:
        if nm == "" or "undefined" in nm:
            fail(fmt, "names", "frame named %r" % nm)

    # compression around it
    for wrap, comp in (("gzip", ["gzip", "-c"]), ("zstd", ["zstd", "-q", "-c"]), ("lz4", ["lz4", "-q", "-c"])):
        if not shutil.which(comp[0]):
            print("t_contract: %s not installed: %s check skipped" % (comp[0], wrap))
            continue
        w = src + "." + wrap
        with open(w, "wb") as o:
            subprocess.run(comp + [src], stdout=o, check=True)
        p = run("top", w, "--node-fraction", "0", "--format", "json", ok=False)
        if p.returncode:
            fail(fmt, "wrapped", "%s: exit %d: %s" % (wrap, p.returncode, p.stderr.decode(errors="replace").strip()[:200]))
            continue
        got = json.loads(p.stdout)
        if got["rows"] != plain["rows"] or got["total"] != plain["total"]:
            fail(fmt, "wrapped", "%s: top differs from the plain file's" % wrap)
        p = run("top", "-", "--node-fraction", "0", "--format", "json", ok=False,
                stdin=open(w, "rb").read())
        if p.returncode:
            fail(fmt, "wrapped", "%s from a pipe: exit %d: %s" % (wrap, p.returncode, p.stderr.decode(errors="replace").strip()[:200]))
            continue
        got = json.loads(p.stdout)
        if got["rows"] != plain["rows"] or got["total"] != plain["total"]:
            fail(fmt, "wrapped", "%s from a pipe: top differs from the plain file's" % wrap)

    # refusals name the file, and never a format the file is not
    others = [v for k, v in SAYS.items() if k not in (fmt, "pcol") and v.lower() not in SAYS[fmt].lower()]
    refused = 0
    for what, bad in damaged(fmt, data):
        d = os.path.join(tmp, "damaged-" + fmt)
        open(d, "wb").write(bad)
        p = run("top", d, ok=False)
        err = p.stderr.decode(errors="replace")
        said = re.sub(r"\(expected [^)]*\)", "", err)  # "unrecognised (expected A, B...)" names none
        if p.returncode not in (0, 1):
            fail(fmt, "refusal", "%s copy: exit %d: %s" % (what, p.returncode, err[:200]))
        if p.returncode == 0 and "samples" in truth:
            # taken as valid: what it dropped may be warned of, but a line
            # that is no event must not become one
            got = total(d)
            if got > truth["samples"]:
                fail(fmt, "refusal", "%s copy: read as %s samples, %d written" % (what, got, truth["samples"]))
        if p.returncode == 1:
            refused += 1
            if "damaged-" + fmt not in err:
                fail(fmt, "refusal", "%s copy: the message does not name the file: %s" % (what, err[:200]))
            named = [o for o in others if re.search(r"\b%s\b" % re.escape(o), said)]
            if named:
                fail(fmt, "refusal", "%s copy: the message names %s: %s" % (what, named, err.strip()[:200]))
    if not refused:
        fail(fmt, "refusal", "no damaged copy was refused")

    # every export reads back, and is made alike from the packed file
    zpacked = os.path.join(tmp, "z-%s.pcol" % fmt)
    run("pack", src, "--compress", "zstd", "-o", zpacked)
    for t in EXPORTS:
        out = os.path.join(tmp, "x-%s.%s" % (fmt, t))
        if t == "v8":
            check_v8(fmt, src, zpacked, out, truth)
            continue
        if t == "chrome":
            check_chrome(fmt, src, zpacked, out, truth)
            continue
        p = run("unpack", src, "--to", t, "-o", out, ok=False)
        if p.returncode:
            fail(fmt, "exports", "--to %s: exit %d: %s" % (t, p.returncode, p.stderr.decode(errors="replace")[:200]))
            continue
        if not same_and_read_back(fmt, t, zpacked, out, []):
            continue
        check_loss(fmt, t, src, out, p.stderr)
        if t in TIMES_BACK:
            check_times_back(fmt, t, src, out, truth, plain["type"])
        if t in SAME_TOTAL:
            # the default value: collapsed keeps it as its one count,
            # speedscope as its first profile (the timeline is another)
            if t == "speedscope":  # its sampled profiles; the evented timeline repeats them
                back = sum(js("top", out, "--node-fraction", "0", "--value", plain["type"], "--source",
                              str(r["source_id"]))["total"]
                           for r in js("info", out)["rows"] if r["default_type"] != "timeline")
            else:
                args = [] if t == "collapsed" else ["--value", plain["type"]]
                back = js("top", out, "--node-fraction", "0", *args)["total"]
            want, what = plain["total"], plain["type"]
            # collapsed: a source that counts its samples is written by its
            # count, which collapsed readers take the numbers for; another
            # default is written with a note (doc/mappings.md §4.2)
            if t == "collapsed" and b"the numbers written are" not in p.stderr:
                want, what = js("top", src, "--node-fraction", "0", "--value", "samples")["total"], "samples"
            if back != want:
                fail(fmt, "exports", "--to %s: %s %s read back, the original has %s"
                     % (t, back, what, want))

    if not os.path.isfile(os.path.join(ROOT, row["fuzz"])):
        fail(fmt, "fuzz", "no fuzz target %s" % row["fuzz"])
    doc = DOC_FILE.get(fmt, "doc/mappings.md")
    heads = [l for l in open(os.path.join(ROOT, doc), encoding="utf-8") if l.startswith("## ")]
    if not any(DOC[fmt].lower() in h.lower() for h in heads):
        fail(fmt, "doc", "%s has no section '%s'" % (doc, DOC[fmt]))
    st = row["stream"]
    if st.startswith("t_stream_json.sh:"):
        # each kind named must be one the bounds test runs (its STREAMED
        # list): there a big input packs under a memory cap that an
        # importer holding its input or its samples whole exceeds
        script = open(os.path.join(ROOT, "tests/bounds/t_stream_json.sh")).read()
        m = re.search(r'^STREAMED="([^"]*)"', script, re.M)
        runs = set(m.group(1).split()) if m else set()
        for kind in st.split(":", 1)[1].split(","):
            if kind not in runs:
                fail(fmt, "stream", "tests/bounds/t_stream_json.sh does not stream %s (STREAMED: %s)"
                     % (kind, " ".join(sorted(runs))))


# files of the shared test data (PCOL_TESTDATA, ../shared/testdata) whose
# every export's loss note is checked too: heap profiles whose count-like
# types (objects/count, alloc_objects) collapsed and Perun do not write,
# since they write the bytes (review rd14a F3: the note stopped naming them)
LOSS_FILES = ["ext/legacy/legacy-cpp-growth.heap", "pprof/go-heap-nomappings-nofunctions.pb.gz"]


def base_false(out):
    """A cpu profile whose sample of alpha is labelled pprof::base=false: no
    base's (go's HasLabel: "true"), a label the Firefox export dropped
    unsaid (rd16a N3), as every export of labels as threads says it does"""
    sys.path.insert(0, os.path.join(ROOT, "tests", "support"))
    from pprofgen import field, varint, Strings
    st = Strings()
    p = field(1, 2, field(1, 0, st.id(b"cpu")) + field(2, 0, st.id(b"nanoseconds")))
    for lid, name in ((1, b"main"), (2, b"alpha"), (3, b"beta")):
        p += field(4, 2, field(1, 0, lid) + field(4, 2, field(1, 0, lid) + field(2, 0, lid)))
        p += field(5, 2, field(1, 0, lid) + field(2, 0, st.id(name)) + field(4, 0, st.id(b"main.go")))
    lab = field(3, 2, field(1, 0, st.id(b"pprof::base")) + field(2, 0, st.id(b"false")))
    p += field(2, 2, field(1, 2, varint(2) + varint(1)) + field(2, 2, varint(10)) + lab)
    p += field(2, 2, field(1, 2, varint(3) + varint(1)) + field(2, 2, varint(5)))
    open(out, "wb").write(p + field(9, 0, 1000000000) + st.table())
    return out


def check_loss_files(tmp):
    td = os.environ.get("PCOL_TESTDATA", os.path.join(ROOT, "..", "shared", "testdata"))
    for name in LOSS_FILES + [base_false(os.path.join(tmp, "base-false.pb"))]:
        src = os.path.join(td, name)
        if not os.path.isfile(src):
            print("t_contract: %s: not found, skipped" % name)
            continue
        before = len(failures)
        for t in EXPORTS:
            out = os.path.join(tmp, "l-%s.%s" % (os.path.basename(name), t))
            p = run("unpack", src, "--to", t, "-o", out, ok=False)
            if p.returncode == 1 and t in ("v8", "chrome") and b"not a time" in p.stderr:
                continue  # (a heap profile is no V8 profile: refused, nothing written)
            if p.returncode:
                fail(name, "exports", "--to %s: exit %d: %s" % (t, p.returncode, p.stderr.decode(errors="replace")[:200]))
                continue
            check_loss(name, t, src, out, p.stderr)
        print("t_contract: %-10s %s" % (name, "ok" if len(failures) == before else "FAILED"))


# the value each export writes of a source that lists one value type twice
# (pprofgen.py: samples/count and cpu twice, its columns apart): read back,
# every export holds the value the views read, by default and with --value
# (go's: the LAST column without default_sample_type, the first with it or
# by name; --value N the N-th), not the first column's (t_values.sh's dupnd:
# speedscope, Firefox, Perfetto and V8 wrote 60ns where top says 508ns)
NS = {"nanoseconds": 1, "microseconds": 1000, "milliseconds": 1000000, "seconds": 1000000000,
      "ns": 1, "us": 1000, "ms": 1000000, "s": 1000000000}
VALUE_FILES = [  # (name, pprofgen.py arguments, the --value variants unpack takes)
    ("dupnd", ["duptypes", "nodefault"], ["1", "2", "cpu"]),
    ("dup", ["duptypes"], ["2"]),
    ("dupms", ["typed", "samples:count,cpu:milliseconds,cpu:milliseconds", "2,1:3,30,1", "3,1:1,10,500", "1:2,20,7"],
     ["1", "2", "cpu", "cpu/milliseconds"]),
]
TAKES_VALUE = {"collapsed", "firefox", "rprof", "perun", "v8", "chrome", "perfetto"}


def flats(path, *extra):
    """{function: flat} of `top`, in ns where the unit is a time"""
    j = js("top", path, "--node-fraction", "0", *extra)
    out = {}
    for r in j["rows"]:
        out[r["name"]] = out.get(r["name"], 0) + r["flat"] * NS.get(r.get("unit") or j.get("unit"), 1)
    return {k: v for k, v in out.items() if v}


def check_value_columns(tmp):
    gen = os.path.join(ROOT, "tests", "support", "pprofgen.py")
    go = shutil.which("go")
    for name, args, values in VALUE_FILES:
        before = len(failures)
        src = os.path.join(tmp, "v-%s.pb" % name)
        subprocess.run([sys.executable, gen, args[0], src] + args[1:], check=True)
        if go:  # go's default is the views' (the last column without default_sample_type)
            g = subprocess.run([go, "tool", "pprof", "-top", "-nodefraction=0", os.path.basename(src)],
                               capture_output=True, text=True, cwd=tmp).stdout
            lead = [l.split()[-1] for l in g.splitlines() if re.match(r"^\s*[0-9.]+\w*\s+[0-9.]+%", l)][:1]
            if lead != [max(flats(src), key=flats(src).get)]:
                fail(name, "values", "go's default leads with %s, pcol top's with %s" % (lead, flats(src)))
        for v in [None] + values:
            va = ["--value", v] if v else []
            want = flats(src, *va)
            for t in EXPORTS:
                if v and t not in TAKES_VALUE:
                    continue
                out = os.path.join(tmp, "v-%s-%s.%s" % (name, (v or "").replace("/", "_"), t))
                p = run("unpack", src, "--to", t, "-o", out, "--no-gzip", *va, ok=False)
                if p.returncode:
                    fail(name, "values", "--to %s %s: exit %d: %s" % (t, " ".join(va), p.returncode, p.stderr.decode()[:200]))
                    continue
                if t == "collapsed":  # its counts (no --value), else the value's numbers in its unit
                    w = flats(src, "--value", "samples") if not v else {
                        k: x // NS[js("top", src, *va)["unit"]] for k, x in want.items()}
                elif name != "dupms" and t in ("v8", "chrome", "rprof"):
                    continue  # (508 ns in all: below the 1 us these count in)
                else:
                    w = want
                got = flats(out)
                if t == "speedscope" and v is None:
                    got = flats(out, "--source", "1")  # (its first source: the sampled profiles)
                if got != w:
                    fail(name, "values", "--to %s %s read back %s, pcol top %s of the source %s"
                         % (t, " ".join(va), got, " ".join(va), w))
        print("t_contract: %-10s %s" % (name + " values", "ok" if len(failures) == before else "FAILED"))


# (pprofgen.py typed: inuse_space in kilobytes then in bytes, with and
# without samples/count; default_sample_type inuse_space (a: its first
# column), none (c: the last), or a name of none of its types (u: the last
# too)): merged, go reads every profile at the column of the first
# default_sample_type stated, else each one's last (rd15a F1), and so do
# the views; read back, every export gives that total, or says why it
# cannot (Rprof, V8, Chrome: a time).  rd16a F5: the Perfetto and Firefox
# copies read each source's own default (u2+a2: 7180B and 12B, go 24B);
# rd16a F4: the speedscope copy wrote kilobytes as a count (3kB read back 3)
# and named c2's default by a name that reads its first column (12B: 7).
KIN_TYPES = {"2": "samples:count,inuse_space:kilobytes,inuse_space:bytes", "3": "inuse_space:kilobytes,inuse_space:bytes"}
KIN_SAMPLES = {"2": ["2,1:1,3,5", "3,1:2,4,7"], "3": ["2,1:3,5", "3,1:4,7"]}
KIN_INPUTS = [["u2", "a2"], ["a2", "u2"], ["a2", "c2"], ["c2", "a2"], ["u3", "a3"], ["a3", "c3"], ["c3", "a3"],
              ["a2"], ["c2"], ["fk"]]
BYTES = {"bytes": 1, "B": 1, "kilobytes": 1024, "kB": 1024}
SAYS_WHY = {"rprof", "v8", "chrome"}  # (a time in each: the copy's default is another value, said)


def in_bytes(j):
    return j["total"] * BYTES[j["unit"]] if j["unit"] in BYTES else None


def check_kin_defaults(tmp):
    before = len(failures)
    gen = os.path.join(ROOT, "tests", "support", "pprofgen.py")
    for n in "23":
        for d, arg in (("u", ["default=zz"]), ("a", ["default=inuse_space"]), ("c", [])):
            subprocess.run([sys.executable, gen, "typed", os.path.join(tmp, "%s%s.pb" % (d, n)), KIN_TYPES[n]]
                           + KIN_SAMPLES[n] + arg, check=True)
    subprocess.run([sys.executable, gen, "typed", os.path.join(tmp, "fk.pb"), "x:kilobytes", "2,1:1", "3,1:2"], check=True)
    go = shutil.which("go")
    for names in KIN_INPUTS:
        ins = [os.path.join(tmp, n + ".pb") for n in names]
        name = "+".join(names)
        want = in_bytes(js("top", *ins))
        if go:  # go's merged default
            g = subprocess.run([go, "tool", "pprof", "-top", "-unit=B"] + [n + ".pb" for n in names],
                               capture_output=True, text=True, cwd=tmp).stdout
            m = re.search(r"of (\d+)B total", g)
            if not m or int(m.group(1)) != want:
                fail(name, "kin defaults", "go tool pprof -top: %s, pcol top %sB" % (m and m.group(0), want))
        counts = "samples:count" in KIN_TYPES.get(names[0][1:], "")
        for t in EXPORTS:
            out = os.path.join(tmp, "k-%s.%s" % (name, t))
            p = run("unpack", *ins, "--to", t, "-o", out, "--no-gzip", ok=False)
            err = p.stderr.decode(errors="replace")
            if t in SAYS_WHY:
                if p.returncode == 0 and "not a time" not in err:
                    fail(name, "kin defaults", "--to %s: a copy of another value, unsaid: %s" % (t, err[:200]))
                continue
            if p.returncode:
                fail(name, "kin defaults", "--to %s: exit %d: %s" % (t, p.returncode, err[:200]))
                continue
            j = js("top", out)
            if t == "collapsed":  # its counts, else the default's numbers in its unit (said)
                w = js("top", *ins, "--value", "samples")["total"] if counts else js("top", *ins)["total"]
                got = j["total"]
            else:
                w, got = want, in_bytes(j)
            if got != w:
                fail(name, "kin defaults", "--to %s read back %s %s, go's default %s" % (t, j["total"], j["unit"], w))
    print("t_contract: %-10s %s" % ("kin defaults", "ok" if len(failures) == before else "FAILED"))


# THE empty-name rule (lib/core/frames.h pcol_frame_fn_empty; review 22 F8):
# the formats whose files hold a function named "" (gen.py FORMAT OUT empty:
# "run loop" written as "").  Every view names that frame as go tool pprof
# names it in the file's pprof copy ("<unknown>": pprof holds "" as no name),
# whatever the input's format; before, top, traces, tree, fold and the report
# printed an empty name for all but pprof's.  The exports whose formats hold
# "" keep it (EMPTY_KEPT; speedscope and the Firefox Profiler show it empty,
# as they show the input), so collapsed -> pcol -> collapsed gives the bytes.
EMPTY_FORMATS = {"collapsed", "speedscope", "firefox", "pprof", "rprof", "otlp", "perfetto", "tachyon", "v8", "chrome",
                 "otlp-bin", "chrome-hermes", "speedscope-evented", "perfetto-v8"}  # (gen:KIND rows: by their kind)
# A V8 function of no name is named as DevTools and speedscope name it,
# "(anonymous FILE:LINE)" (doc/mappings.md §10, §14: the function's name, so
# go tool pprof prints it so in the pprof copy, and every export writes it):
# the name every view must give the frame written "" (gen.py's "run loop",
# app.js line 11), never ""
EMPTY_NAME = {"v8": "(anonymous app.js:11)", "chrome": "(anonymous app.js:11)", "perfetto-v8": "(anonymous app.js:11)"}
# (Perfetto's "" is no name, as trace_processor reads it, doc/mappings.md §17;
# pprof and OTLP hold "" as string 0, no name: go's view of it)
EMPTY_KEPT = ["collapsed", "speedscope", "firefox", "perun", "rprof"]
GO_UNKNOWN = "<unknown>"  # graph.go NameComponents: a node of no name, no file, no mapping
# go tool pprof is run in both its modes: -symbolize=none (pcol's default,
# `pack --symbolize none`) and its default one, whose symbolizer.Symbolize
# ends in Demangle: demangleSingleFunction gives every function of name ""
# its system_name as its name (symbolizer.go; no binary is needed for it).
# A pcol user opens the pprof copy in go's default mode, so the copy must
# not hold a system_name go would show where pcol's views show no name (the
# Hermes import's ":CATEGORY" key did: go printed ":JavaScript").
GO_MODES = (["-symbolize=none"], [])


def go_pprof(args, path):
    """go tool pprof ARGS PATH's output in each mode (GO_MODES); None without
    go.  The two differing is a failure: pcol's views can match only one."""
    go = shutil.which("go")
    if not go:
        return None
    return [subprocess.run([go, "tool", "pprof"] + m + args + [path], capture_output=True, text=True).stdout
            for m in GO_MODES]


def go_top_names(path):
    """The row names go tool pprof -top prints, in each mode; None without go."""
    outs = go_pprof(["-top", "-nodecount=0"], path)
    if outs is None:
        return None
    res = []
    for out in outs:
        rows = out.split("cum%\n", 1)[-1].splitlines()
        res.append({r.split(None, 5)[5] for r in rows if len(r.split(None, 5)) == 6})
    return res


def trace_names(text):
    """The frame names of a -traces text (pcol's or go's): the lines of the
    stacks, their value column cut off."""
    out = set()
    for l in text.splitlines():
        if not l.startswith(" ") or "---" in l:
            continue
        m = re.match(r" {1,10}\S+ {3}(.*)$", l) or re.match(r" {13}(.*)$", l)
        if m:
            out.add(m.group(1))
    return out


def check_empty(fmt, tmp, kind=None):
    """(kind: gen.py's KIND of a gen:KIND row of fmt)"""
    unk = EMPTY_NAME.get(kind or fmt, GO_UNKNOWN)
    src = os.path.join(tmp, "empty." + (kind or fmt))
    p = subprocess.run([sys.executable, os.path.join(HERE, "gen.py"), kind or fmt, src, "empty"], capture_output=True)
    if p.returncode == 3:  # (protoc not installed: the row said so)
        return
    if p.returncode:
        return fail(fmt, "empty", "gen: " + p.stderr.decode()[:300])
    pb = os.path.join(tmp, "empty-%s.pb.gz" % fmt)
    run("unpack", src, "--to", "pprof", "-o", pb)
    # top: the names go prints for the pprof copy, the frame of no name too
    names = {r["name"] for r in js("top", src, "--node-fraction", "0")["rows"]}
    wants = go_top_names(pb) or [{r["name"] for r in js("top", pb, "--node-fraction", "0")["rows"]} | {unk}]
    for m, want in zip(GO_MODES, wants):
        if names != want or unk not in names or "" in names:
            fail(fmt, "empty", "top names %s; go tool pprof %s-top of its pprof copy %s" %
                 (sorted(names), "".join(a + " " for a in m) or "(default mode) ", sorted(want)))
    # traces: each stack's frames as go -traces names them
    got = trace_names(run("traces", src).stdout.decode())
    outs = go_pprof(["-traces"], pb)
    for m, want in zip(GO_MODES, [trace_names(o) for o in outs] if outs else [got - {""} | {unk}]):
        if got != want or "" in got:
            fail(fmt, "empty", "traces frames %s; go tool pprof %s-traces %s" %
                 (sorted(got), "".join(a + " " for a in m) or "(default mode) ", sorted(want)))
    # tree, peek, fold and flame name it so too
    tree = run("tree", src).stdout.decode()
    if not re.search(r"\| %s$" % re.escape(unk), tree, re.M) or re.search(r"\| $|\|   $", tree, re.M):
        fail(fmt, "empty", "tree: no row %s, or an empty one:\n%s" % (unk, tree[:600]))
    fold = run("fold", src).stdout.decode()
    if unk not in fold or re.search(r"(^|;);|; [0-9.]+$|^; ", fold, re.M):
        fail(fmt, "empty", "fold: an empty frame, or none %s:\n%s" % (unk, fold[:400]))
    svg = os.path.join(tmp, "empty-%s.svg" % fmt)
    run("flame", src, "-o", svg)
    titles = re.findall(r"<title>\u2068(.*?)\u2069 \(", open(svg, encoding="utf-8").read())
    if html.escape(unk, quote=False) not in titles or "" in titles:
        fail(fmt, "empty", "flame: frames %s" % sorted(set(titles)))
    # the exports that hold "" keep it: read back, their collapsed text has it
    # (a Perfetto input's "" is read as no name: exported "<unknown>"; its
    # V8 profiles' is V8's, the Chrome trace's)
    for t in EMPTY_KEPT if (kind or fmt) != "perfetto" else []:
        out = os.path.join(tmp, "empty-%s.%s" % (fmt, t))
        p = run("unpack", src, "--to", t, "-o", out, "--no-gzip", ok=False)
        if p.returncode:
            fail(fmt, "empty", "--to %s: exit %d: %s" % (t, p.returncode, p.stderr.decode(errors="replace")[:200]))
            continue
        back = run("unpack", out, "--to", "collapsed", "-o", "-").stdout.decode()
        # (V8's: the name it is given, which every export writes)
        kept = r";%s;compute 2" % re.escape(unk) if (kind or fmt) in EMPTY_NAME else r"^main;;compute 2"
        if not re.search(kept, back, re.M):
            fail(fmt, "empty", "--to %s: the frame named \"\" is not read back:\n%s" % (t, back[:300]))
    if fmt == "collapsed":  # a pcol file holds "" as written, and its views name it so too
        pc = os.path.join(tmp, "empty.pcol")
        run("pack", src, "-o", pc)
        got = {r["name"] for r in js("top", pc, "--node-fraction", "0")["rows"]}
        if got != names:
            fail(fmt, "empty", "top of its pcol file: %s, of the input %s" % (sorted(got), sorted(names)))
    if fmt == "collapsed":  # the round trip gives the producer's lines back
        back = run("unpack", src, "--to", "collapsed", "-o", "-").stdout.decode()
        if sorted(back.splitlines()) != sorted(open(src).read().splitlines()):
            fail(fmt, "empty", "collapsed -> collapsed changed the lines:\n%s" % back[:300])


# the duration each export states of a source whose keys disagree: THE
# span rule (wall.c pcol_wall_span) reads the duration stated
# (pprof.duration_nanos, 5 s), not another key's 0 (otlp.duration_nano, from
# an OTLP profile's attribute); the Perfetto export read the span a range
# was judged by (pcol_wall.dur: 0, none) and ended the trace at the samples
# (Duration: 210ms), the speedscope export stated none; and a trace of two
# profiles 1 s apart (t_chrome_range.sh's).  Every export that states a
# duration states the source's: `top` of the copy says its Duration:.
KEEPS_DURATION = {"pprof", "speedscope", "firefox", "otlp", "v8", "chrome", "perfetto"}


def duration_files(tmp):
    S = ["", "samples", "count", "cpu", "nanoseconds", "main", "pprof.duration_nanos", "otlp.duration_nano"]
    ix = {x: i for i, x in enumerate(S)}
    prof = {"sampleType": {"typeStrindex": ix["cpu"], "unitStrindex": ix["nanoseconds"]},
            "timeUnixNano": "1700000000000000000", "attributeIndices": [1, 2],
            "samples": [{"stackIndex": 1, "values": ["10000000"], "timestampsUnixNano": [str(1700000000000000000 + t)]}
                        for t in (100000000, 200000000)]}
    doc = {"dictionary": {"mappingTable": [{}], "locationTable": [{}, {"lines": [{"functionIndex": 1}]}],
                          "functionTable": [{}, {"nameStrindex": ix["main"]}], "stackTable": [{}, {"locationIndices": [1]}],
                          "stringTable": S,
                          "attributeTable": [{}, {"keyStrindex": ix["pprof.duration_nanos"], "value": {"intValue": "5000000000"}},
                                             {"keyStrindex": ix["otlp.duration_nano"], "value": {"intValue": "0"}}]},
           "resourceProfiles": [{"scopeProfiles": [{"profiles": [prof]}]}]}
    keys = os.path.join(tmp, "d-keys.json")
    json.dump(doc, open(keys, "w"))
    apart = os.path.join(tmp, "d-apart.json")
    subprocess.run([sys.executable, os.path.join(ROOT, "tests", "support", "chrome_range.py"), "gen-apart", apart],
                   check=True)
    # two recordings 100 s apart (window_gen.py's one.json, 4 s, and
    # later.json, 2 s), merged: separate recordings, each counted
    subprocess.run([sys.executable, os.path.join(ROOT, "tests", "support", "window_gen.py"), tmp, str(T0)], check=True)
    merged = os.path.join(tmp, "d-merged.pcol")
    run("merge", os.path.join(tmp, "one.json"), os.path.join(tmp, "later.json"), "-o", merged)
    # the same with a pprof that states no duration: the others keep theirs
    # (the Perfetto copy wrote no window for it, and its import then took
    # none: each source the trace's span, 490896.03hrs for 6s, review rd17a
    # F2)
    sys.path.insert(0, os.path.join(ROOT, "tests", "support"))
    from pprofgen import typed
    nodur = os.path.join(tmp, "nodur.pb")
    typed(nodur, "cpu:nanoseconds", "2,1:1000000", "3,1:2000000")
    mixed = os.path.join(tmp, "d-mixed.pcol")
    run("merge", os.path.join(tmp, "one.json"), os.path.join(tmp, "later.json"), nodur, "-o", mixed)
    return [keys, apart, merged, mixed]


T0 = 1767225600  # 2026-01-01T00:00:00Z
# the sub-ranges each copy is read in too (a range of the copy cuts each
# source's window as one of the source did): of the trace 1 s apart, its
# second profile's part (the Firefox copy read one window of 1 s: 502.10ms
# for 2.10ms); of the merge, wall-clock ranges holding later.json and a
# part of one.json (the Firefox copy: one window from one.json's start), and
# relative ranges, which count from each source's own start (the Firefox
# copy's later.json counted from one.json's start: 1s for 2s)
RANGES = {"d-apart.json": [["--from", "0.5", "--to", "1.5"], ["--from", "0.002", "--to", "1.001"]],
          "d-merged.pcol": [["--from", "2026-01-01T00:00:03Z", "--to", "2026-01-01T00:02:30Z"],
                            ["--from", "2026-01-01T00:00:59Z", "--to", "2026-01-01T00:02:30Z"],
                            ["--from", "0.5", "--to", "1.5"], ["--from", "1.5"]]}
# the Perfetto copy read every sequence as the whole trace's span, one
# recording (the merge: 102s for 6s; a sub-range of the trace 1 s apart:
# 502.10ms for 2.10ms) until it wrote each source's window (a pcol.window
# slice); the Chrome copy of the merge was one recording (4s for 6s) until
# it marked each profile's (pcolRecording).  A V8 profile holds one thread:
# its export of several sources is refused (exit 1, saying so), not a
# number.  The Chrome copy states no wall-clock start: its ranges are the
# relative ones (wall-clock ones are refused there).
ONE_SOURCE = {"v8"}


def said_duration(path, *rng):
    m = re.search(r"^Duration: ([^,]*),", run("top", path, *rng).stdout.decode(), re.M)
    return m.group(1) if m else None


def check_durations(tmp):
    before = len(failures)
    for src in duration_files(tmp):
        name = os.path.basename(src)
        want = said_duration(src)
        for t in sorted(KEEPS_DURATION):
            out = os.path.join(tmp, "%s.%s" % (name, t))
            p = run("unpack", src, "--to", t, "-o", out, ok=False)
            if t in ONE_SOURCE and name != "d-keys.json":
                if p.returncode != 1 or b"holds one" not in p.stderr:
                    fail(name, "durations", "--to %s of %s sources: exit %d, not refused: %s"
                         % (t, name, p.returncode, p.stderr.decode()[:200]))
                continue
            if p.returncode:
                fail(name, "durations", "--to %s: exit %d: %s" % (t, p.returncode, p.stderr.decode()[:200]))
                continue
            got = said_duration(out)
            if got != want:
                fail(name, "durations", "--to %s: the copy's Duration: %s, the source's %s" % (t, got, want))
            for rng in RANGES.get(name, []):
                if t == "pprof" or (t == "chrome" and any("T" in a for a in rng)):
                    continue  # (pprof: no sample times, a range cutting its span refused; Chrome:
                    # no wall clock)
                w, g = said_duration(src, *rng), said_duration(out, *rng)
                if g != w:
                    fail(name, "durations", "--to %s, %s: the copy's Duration: %s, the source's %s"
                         % (t, " ".join(rng), g, w))
    print("t_contract: %-10s %s" % ("durations", "ok" if len(failures) == before else "FAILED"))


# the rows whose names may hold NUL as their producer's viewer reads them
# (speedscope 1.25 keeps it in every one: tests/interop/t_import_judged.sh),
# and the export of each format pcol writes (check_nul)
NUL_KINDS = {"v8": "v8", "chrome": "chrome", "chrome-hermes": "chrome", "chrome-events": "chrome",
             "speedscope": "speedscope", "speedscope-evented": "speedscope",
             "otlp": "otlp", "otlp-bin": "otlp", "perfetto": "perfetto", "perfetto-v8": "perfetto"}
# the exports written in protobuf: a NUL is a NUL byte in a string, not
# JSON's \u0000 (checked by the bytes of the frame's name)
NUL_BINARY = {"otlp", "perfetto"}


def nul_read(fmt, what, path, truth, src_names=None):
    """path's frame names hold truth's, its threads truth's (labels, or
    the sources named by src_names: the URIs read must be those), whole"""
    names = {r["name"] for r in js("top", path, "--node-fraction", "0")["rows"]}
    for want in truth.get("names", []):
        if want not in names:
            fail(fmt, "nul", "%s: no frame %r in top (%s)" % (what, want, sorted(names)[:12]))
    for key, want in truth.get("threads", {}).items():
        rows = js("tags", path, "--value", "samples")["rows"]
        got = {r["value"]: r["amount"] for r in rows if r["key"] == key}
        if got != want:
            fail(fmt, "nul", "%s: label %s: %r, written %r" % (what, key, got, want))
    if src_names is not None:
        got = sorted(r["source_uri"] for r in js("info", path)["rows"])
        if got != sorted(src_names):
            fail(fmt, "nul", "%s: sources %r, not %r" % (what, got, sorted(src_names)))


def check_nul(fmt, tmp, kind):
    src = os.path.join(tmp, "nul." + kind)
    p = subprocess.run([sys.executable, os.path.join(HERE, "gen.py"), kind, src, "nul"], capture_output=True)
    if p.returncode:
        return fail(fmt, "nul", "gen: " + p.stderr.decode()[:300])
    truth = json.loads(p.stdout)
    data = open(src, "rb").read()
    if b"\\u0000" not in data and b"run\0loop" not in data:  # (JSON's escape, or protobuf's byte)
        return fail(fmt, "nul", "gen.py wrote no \\u0000")
    srcs = None
    if "sources" in truth:  # (speedscope: a profile's name is its source's)
        srcs = ["%s: %s" % (src, k.split(": ", 1)[1]) for k in truth["sources"]]
    p = run("top", src, ok=False)
    if p.returncode:
        return fail(fmt, "nul", "refused: %s" % p.stderr.decode(errors="replace")[:300])
    nul_read(fmt, "read", src, truth, srcs)
    # the format's own export: the same names, threads and sources
    t = NUL_KINDS[kind]
    out = os.path.join(tmp, "nul-%s.%s" % (kind, t))
    p = run("unpack", src, "--to", t, "-o", out, "--no-gzip", ok=False)
    if p.returncode:
        return fail(fmt, "nul", "--to %s: exit %d: %s" % (t, p.returncode, p.stderr.decode(errors="replace")[:300]))
    if t in NUL_BINARY:
        if b"run\0loop" not in open(out, "rb").read():
            fail(fmt, "nul", "--to %s: no 'run\\0loop' written" % t)
    elif b"\\u0000" not in open(out, "rb").read():
        fail(fmt, "nul", "--to %s: no \\u0000 written" % t)
    # (the speedscope copy's profiles are named by the sources' names
    # without their directory, as pcol names them: pcol_source_display_name)
    before = sorted(r["source_uri"].replace(tmp + "/", "", 1) for r in js("info", src)["rows"])
    p = run("top", out, ok=False)
    if p.returncode:
        return fail(fmt, "nul", "--to %s read back: %s" % (t, p.stderr.decode(errors="replace")[:300]))
    nul_read(fmt, "--to %s read back" % t, out, truth, before if t == "speedscope" else None)


def main():
    rows = table()
    h = run("pack", "--help").stdout.decode()
    m = re.search(r"--from X +input format: ([a-z0-9, ]+)", h)
    listed = {f.strip() for f in m.group(1).split(",")} if m else set()
    if listed != {r["format"] for r in rows}:
        fail("table", "formats", "pack --from takes %s; importers.tsv lists %s"
             % (sorted(listed), sorted(r["format"] for r in rows)))
    only = set(sys.argv[1:])
    tmp = tempfile.mkdtemp()
    try:
        for row in rows:
            if only and row["format"] not in only:
                continue
            before = len(failures)
            try:
                check(row, tmp)
                if row["format"] in EMPTY_FORMATS and row["file"] == "gen":
                    check_empty(row["format"], tmp)
                elif row["file"][4:] in EMPTY_FORMATS and row["file"].startswith("gen:"):
                    check_empty(row["format"], tmp, row["file"][4:])
                kind = row["file"][4:] or row["format"] if row["file"].startswith("gen") else None
                if kind in NUL_KINDS:
                    check_nul(row["format"], tmp, kind)
            except Exception as e:  # a command that should have worked
                fail(row["format"], "run", str(e))
            print("t_contract: %-10s %s" % (row["format"] + (" (%s)" % row["file"][4:] if row["file"].startswith("gen:") else ""),
                                            "ok" if len(failures) == before else "FAILED"))
        if not only or "loss" in only:
            check_loss_files(tmp)
        if not only or "values" in only:
            check_value_columns(tmp)
        if not only or "durations" in only:
            check_durations(tmp)
        if not only or "kin" in only:
            check_kin_defaults(tmp)
    finally:
        shutil.rmtree(tmp)
    return finish("t_contract", failures)


if __name__ == "__main__":
    sys.exit(main())
