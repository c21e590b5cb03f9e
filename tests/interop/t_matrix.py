#!/usr/bin/env python3
"""The conversion matrix (issue 13, "One answer everywhere"); run by t_matrix.sh.

Every profile of the shared test data goes through every export that applies
(`pcol unpack IN --to rprof|pprof|collapsed|speedscope|firefox|otlp|v8`, and perun
for Perun inputs).  Each output is read by its format's reference tool:

  Rprof       R's summaryRprof (tests/r/matrix_summary.R, one R process)
  pprof       go tool pprof -top, per sample type, raw units (one pprof
              process per file, driven through its interactive commands)
  collapsed   flamegraph-style sums: per line the leaf gets the count as flat,
              each distinct frame of the line gets it once as cum
  speedscope  speedscope's own importer (tests/interop/speedscope_judge.cjs,
              one node process), per profile and per frame name
  Perun       the sums of its own amounts (this file)
  firefox     the call tree read from the processed profile's own tables
              (this file: per function name, self and total with a sample
              counted once, weights in the default value's unit; the
              profiler's own code judges in tests/interop/t_firefox.sh)
  V8          the .cpuprofile read here as speedscope's importer reads it
              (v8_readings: each sample lasts until the next), its wall per
              function in the default value's unit, within 1 us a sample (the
              export rounds the running sum to whole us: doc/mappings.md
              §10.1); a source whose default is no time, or a file of several
              sources or a source of several threads, is refused, as
              documented (counted, "v8-refused");
              a default time 0 in every sample is the empty profile, with a
              note (counted, "v8-empty")
  Chrome      the trace's profiles (chrome_docs), each read as the V8 export's
              .cpuprofile and added up, by the V8 rules above (every source,
              every thread a profile of its own: nothing refused for them)
  OTLP        protoc --decode with upstream's .proto files must read it; its
              numbers are judged as pprof's after `pcol unpack X.otlp --to
              pprof` (go tool pprof per sample type)

and its total and per-function flat/cum are compared with the reference tool
of the SOURCE format on the original input: go tool pprof -top with the
matching -sample_index (pprof), summaryRprof (Rprof), the sums of the file's
own amounts/counts (Perun, collapsed; computed here from the original file),
protoc --decode's reading of an OTLP source (tests/cli/otlp_judge.py: the
eBPF profiler's message among the pprof files).
Which value an export carries follows doc/mappings.md §0: collapsed counts
and speedscope's "samples" profile are THE count (a pprof sample's
samples/count, else the row); Rprof lines too, but of a source whose default
value is a time: summaryRprof's seconds are that time (§1.2, rprof_ticks);
each pprof or speedscope value type is that type; speedscope opens on the
source's default type.

`pcol top`, `pcol fold`, `pcol flame` (the SVG's "all" title) and `pcol diff
F F` must give the same total on every file, and that total is the source
reference's for the default value; `pcol top`'s flat/cum per function is
compared too.

Exceptions are only where a judge misreads (or a target format cannot hold
what the source has, as doc/mappings.md documents); each is named in EXC with
its reason, counted, and printed in the summary.  A pcol bug that is not fixed
yet is listed in KNOWN_BUGS (file, export, reason) and printed as "known bug:".
Everything else that differs is a failure.

Usage: t_matrix.py PCOL TESTDATA WORKDIR NPM_DIR BUNDLE SCHEMA REPO
"""
import concurrent.futures as cf
import copy
import gzip
import hashlib
import json
import math
import os
import re
import subprocess
import sys
import threading
from decimal import Decimal

PCOL, TD, W, NPM_DIR, BUNDLE, SCHEMA, REPO = sys.argv[1:8]
JOBS = int(os.environ.get("PCOL_MATRIX_JOBS", "2"))

# ---------------------------------------------------------------------------
# Files pcol refuses on purpose (not profiles in a format pcol reads), with
# the reason; checked to be refused with exit status 1.
REFUSED = {
    "ODD-jfr-dump2-labels.pb.gz": "not pprof (a JFR labels protobuf)",
    "dotnet-73.pb.gz": "function id 0 (go tool pprof rejects it too)",
    "examples__clusterized-profile.perf": "invalid JSON",
    "examples__time-short.perf": "invalid JSON",
    "to_add_profiles__err-prof-1-incomplete.perf": "invalid JSON (cut off)",
}
# (legacy binary CPU profiles, *.cpu and *.legacy, are read: pprof_legacy.c;
# the text ones, *.heap, *.contention, *.thread: pprof_legacy_text.c, but
# jemalloc's, which go tool pprof does not read either)
REFUSED["legacy-jemalloc.heap"] = "jemalloc's heap profile (go tool pprof: unrecognized profile format too)"
REFUSED_DIRS = {"legacy": "legacy (pre-profile.proto) format, named as legacy"}
REFUSED_SUFFIX = {}
READ_SUFFIX = (".cpu", ".heap", ".contention", ".thread")  # in a REFUSED_DIRS directory, read all the same
# pprof's legacy profiles (not profile.proto): binary CPU, text heap,
# contention, thread
LEGACY_BINARY = (".cpu", ".legacy", ".heap", ".contention", ".thread")
# the text kinds: go tool pprof merges a file's identical sample lines on
# reading (its -proto holds the merged Sample messages) and its -proto of
# one (legacy-go-heap-text.heap) holds 7,196,884 of the 7,721,316 inuse bytes
# its -top of the file counts in its total: go's views are read from the
# file itself, the types from go's -proto, and a row (a sample line, pcol's
# count) has no reading in go (EXC legacy-rows)
LEGACY_TEXT = (".heap", ".contention", ".thread")

# Real pcol bugs not fixed on this branch: (file basename, export or "*",
# reason).  Each is printed as "known bug:"; a listed case that passes is
# printed as "known bug fixed?" (then remove it from this list).
KNOWN_BUGS = [
    # (F4, a real Perun file past 64 bits, and F7, Perun's NaN, were here
    # until they were fixed: 128-bit view sums, the NaN-aware Perun JSON)
    # Not bugs of pcol's numbers, limits of this judge (found after the
    # merges of issues 29/30; to be replaced by per-thread / per-name rules):
    ("edge-invalid-utf8-nul-strings.pb.gz", "otlp",
     "OTLP strings are UTF-8: invalid bytes become U+FFFD (doc/mappings.md §12), so names differ "
     "from the source's; t_otlp checks that mapping"),
    ("ODD-otlp-ebpf-profile.pb.bin", "firefox",
     "82 sources with different defaults: each Firefox thread weighs by its own source's default "
     "(off_cpu ns or samples), the file's default is samples; one summed reading cannot judge it"),
]

# Exceptions: where the judge misreads, or the target format cannot hold
# what the source has (doc/mappings.md says so).  key -> reason.
EXC = {
    "legacy-rows": "a legacy text profile's sample lines (pcol's count, what --value samples "
                   "exports) have no reading in go tool pprof, which merges identical lines on "
                   "reading: the row comparisons are not made (its value types are)",
    "go-int64": "go tool pprof adds values in int64: a type whose sum passes 2^63 (a real Perun "
                "file's amounts) wraps in the judge; pcol's 128-bit sums are checked against the "
                "source's own sums instead",
    "r-split": "summaryRprof splits names on spaces (strsplit(line, \" \")): names with a "
               "space and R's fragments of them are not compared",
    "r-cut": "a cut last line (truncated file): summaryRprof counts the cut token as a "
             "name, pcol drops it; the cut token's fragment is not compared",
    "r-empty": "summaryRprof drops memory-only lines (an empty stack); pcol keeps them as "
               "samples without frames: the total is compared with them added",
    "r-rounding": "summaryRprof rounds times to 2 (interval >= 10 ms) or 3 digits: counts "
                  "are compared as R rounds them",
    "go-abs-total": "go tool pprof's total is the sum of |values| when some are negative "
                    "(its percentages' base): its sum of flat is compared",
    "nameless": "a frame without a function name (a function whose name is empty, an "
                "Rprof top-level line ref) is named by each tool its own way (go tool "
                "pprof: [mapping] or <unknown>; frame rule: FILE:LINE or [unknown] outside a "
                "mapping; Rprof export: <Anonymous> or a trailing ref that summaryRprof "
                "drops): such names are not compared, totals are.  An unsymbolized location, "
                "or a nameless function in a mapping, is [mapping] or <unknown> in both, and "
                "compared",
    "ss-negative": "speedscope rejects negative weights: a type with a negative value gets "
                   "no profile (doc/mappings.md §5) and the count profile is opened",
    "rprof-budget": "the Rprof export (one line per count, or per tick of a default time) of "
                    "a profile whose count, or whose export, is above RPROF_MAX_LINES lines is "
                    "not read by R (it would read gigabytes); past 2^28 lines pcol refuses to "
                    "write it (doc/mappings.md §1.2), which is checked (rprof_refused)",
    "go-dup": "go tool pprof prints two nodes with one name (a function with two files, "
              "or inlined and not): flat is added up, cum not compared",
    "json-bytes": "JSON cannot hold bytes that are not UTF-8: pcol writes such a name read "
                  "as Latin-1 (a NUL as a blank; doc/mappings.md §5); names are compared so mapped",
    "collapsed-sep": "collapsed text cannot hold ';', CR, LF or NUL in a name: they are "
                     "'_' there (doc/mappings.md §6); names are compared so mapped",
    "rprof-negative": "Rprof holds no negative count or time: such a sample is 0 lines (doc/mappings.md "
                      "§1.2); an Rprof export of a source with one is not compared",
    "otlp-utf8": "OTLP strings are UTF-8: a byte of no valid sequence is U+FFFD there "
                 "(doc/mappings.md §12.2): names are compared so mapped",
    "perun-negative": "a Perun amount is a count, a time or a size: a negative one (a pprof "
                      "diff, a delta heap profile) is not written, and warned of (doc/mappings.md "
                      "§3.2): the export of a source whose default has one is not compared (it must "
                      "hold no negative amount; tests/cli/t_written_value.sh checks what it leaves out)",
    "empty-stack": "Rprof cannot hold a sample with an empty stack (doc/mappings.md §1.2): "
                   "the Rprof export's total is compared without them",
    "v8-refused": "a V8 .cpuprofile weighs samples by time and holds one thread: a "
                  "source whose default value is no time or is below 0 in a sample, or "
                  "several sources, or one source's several threads, is refused "
                  "(doc/mappings.md §10.1); the Chrome trace export (a V8 profile a thread, "
                  "§14.1) refuses the first two likewise",
    "count-refused": "a pprof source without samples/count whose samples hold a negative value "
                     "(a delta or go's -proto -base, which marks no base sample) has no count: "
                     "--value samples is refused, as go refuses -sample_index=samples (spec.md "
                     "§6.11, doc/mappings.md); its collapsed export, which asks for the count, "
                     "is not compared",
    "v8-empty": "a V8 export of a default time 0 in every sample (or under 1 us in all) is "
                "the empty profile, noted (speedscope refuses deltas all 0 with startTime = "
                "endTime; doc/mappings.md §10.1): the judge's total of that value is below 0.5 us",
    "same-name": "two frames of one name (different files; an Rprof function's lines in speedscope, "
                 "doc/mappings.md §7 Places) are one name to a judge keyed "
                 "by name: flat is added up, cum not compared",
}

# ---------------------------------------------------------------------------
fails = []          # (file, export, message)
known = []          # printed "known bug:" lines
exc_count = {}      # reason key -> number of cases
stats = {"files": 0, "judged": 0, "comparisons": 0, "skipped": [], "not_judged": [],
         "rprof_time": 0, "rprof_rounded": 0, "rprof_count_too": 0}
RPROF_MAX_LINES = 250000


def exc(key, n=1):
    exc_count[key] = exc_count.get(key, 0) + n


def fail(f, what, msg):
    fails.append((f, what, msg))


# Exports pcol refuses on purpose (exit 1, a message): the target cannot
# hold the file's numbers.  (base, format) -> reason.
CANNOT_HOLD = {
    ("degradation_profiles__const4.perf", "firefox"):
        "a tracing-ms weight past 2^63 ns, which no reader holds: refused with a message",
    ("degradation_profiles__const4.perf", "v8"):
        "samples lasting past 2^63 ns in all, which no V8 profile holds: refused with a message",
    ("degradation_profiles__const4.perf", "chrome"):
        "a thread's samples lasting past 2^63 ns in all, which no V8 profile holds: refused with a message",
}


def known_bug(base, what):
    for b, w, why in KNOWN_BUGS:
        if b == base and w in ("*", what):
            return why
    return None


def run(args, out=None, stdin=None, timeout=600):
    """Runs a command; returns (rc, stdout bytes, stderr text)."""
    p = subprocess.run(args, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=timeout)
    if out is not None:
        with open(out, "wb") as fh:
            fh.write(p.stdout)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


# ---------------------------------------------------------------------------
# A reading: what one judge says about one file for one value.
class Reading:
    def __init__(self, judge, total=0, flat=None, cum=None, nocum=None, abs_tol=0.0,
                 rel_tol=0.0):
        self.judge = judge
        self.total = total
        self.flat = flat if flat is not None else {}
        self.cum = cum if cum is not None else {}
        self.nocum = nocum if nocum is not None else set()  # names whose cum is not comparable
        self.abs_tol, self.rel_tol = abs_tol, rel_tol
        self.skip = set()        # names this judge misreads (not compared)
        self.skip_why = {}
        self.rnd = None          # R: (interval, digits): compare as R rounds
        self.negative = False    # a value below 0
        self.abs_total = False   # the total printed is the sum of |values|
        self.none = False
        self.frames = False      # names by the frame rule (doc/mappings.md §6)
        self.empty = 0           # abs_total: the net weight of samples without a frame

    def add(self, names_leaf_first, v, distinct=None):
        """One sample: flat to the leaf, cum once to each distinct name
        (distinct: set(names_leaf_first), when the caller has it already)."""
        self.total += v
        if v < 0:
            self.negative = True
        if names_leaf_first:
            leaf = names_leaf_first[0]
            flat, cum = self.flat, self.cum
            flat[leaf] = flat.get(leaf, 0) + v
            for n in set(names_leaf_first) if distinct is None else distinct:
                cum[n] = cum.get(n, 0) + v


def close(a, b, ra, rb, extra=0):
    """extra: a further tolerance, in the readings' unit (compare's tol_fn)."""
    a, b = float(a), float(b)
    if a == b and not ra.rnd and not rb.rnd:  # what the rule below gives for equal numbers
        return True
    tol = max(ra.abs_tol, rb.abs_tol, max(ra.rel_tol, rb.rel_tol) * max(abs(a), abs(b))) + extra
    for r, x, y in ((ra, b, a), (rb, a, b)):
        if r.rnd:  # y is R's rounded time / interval; x the other side's count
            # R's time is x * iv rounded to dg digits: within half a unit of
            # it (a tie may round either way: 150 x 0.00137 s is 0.2055,
            # R 0.206, Python's round 0.205)
            iv, dg = r.rnd
            return abs(x * iv - y * iv) <= 0.5 * 10 ** -dg + 1e-9 + extra * iv
    return abs(a - b) <= tol + 1e-9 * max(1.0, abs(a), abs(b)) * (tol > 0)


def compare(f, what, src, out, name_map=None, total_adjust=0, skip_fn=None, total_tol=None,
            tol_fn=None):
    """Compares an output's reading with the source's; records failures.
    name_map: maps a source name to the name the output shows; skip_fn(name)
    -> an EXC key when that name is not compared.  total_tol: the totals
    must be within it (the readings' unit), instead of close()'s rule;
    tol_fn(name, "flat" or "cum"): a further tolerance for that number."""
    if getattr(src, "unjudged", None):  # no reading of the source's (EXC src.unjudged)
        exc(src.unjudged)
        return
    stats["comparisons"] += 1
    om = getattr(src, "out_map", None)
    if om:  # the source's names are already as collapsed text shows them
        o2 = copy.copy(out)
        o2.flat, o2.cum = {}, {}
        for a, b in ((out.flat, o2.flat), (out.cum, o2.cum)):
            for k, v in a.items():
                b[om(k)] = b.get(om(k), 0) + v
        o2.nocum, o2.skip = {om(k) for k in out.nocum}, {om(k) for k in out.skip}
        out = o2
    bad = []
    st, ot = src.total + total_adjust, out.total
    if src.negative or out.negative:
        # go tool pprof (and pcol top, which follows it) print the sum of
        # |values| as the total: their net total is their sum of flat
        for r in (src, out):
            if r.abs_total:
                exc("go-abs-total")
                if r is src:
                    st = sum(r.flat.values()) + r.empty + total_adjust
                else:
                    ot = sum(r.flat.values()) + r.empty
    if not (close(st, ot, src, out) if total_tol is None else abs(float(st) - float(ot)) <= total_tol):
        bad.append("total: source %s (%s) %s, output %s (%s) %s" % (
            src.judge, "adjusted %+g" % total_adjust if total_adjust else "", fmt(st),
            out.judge, "", fmt(out.total)))
    def mapped(d):
        r = {}
        for k, v in d.items():
            k2 = name_map(k) if name_map else k
            r[k2] = r.get(k2, 0) + v
        return r
    sf, sc = mapped(src.flat), mapped(src.cum)
    snocum = {name_map(k) if name_map else k for k in src.nocum}
    sskip = {name_map(k) if name_map else k for k in src.skip}
    if name_map:  # two source names that map to one: cum not comparable
        seen = {}
        for k in src.cum:
            seen.setdefault(name_map(k), set()).add(k)
        for k2, ks in seen.items():
            if len(ks) > 1:
                snocum.add(k2)
                exc("same-name")
    skip = sskip | out.skip
    for n in sorted(set(sf) | set(sc) | set(out.flat) | set(out.cum), key=repr):
        if n in skip:
            continue
        why = skip_fn(n) if skip_fn else None
        if why:
            exc(why)
            continue
        a, b = sf.get(n, 0), out.flat.get(n, 0)
        if not close(a, b, src, out, tol_fn(n, "flat") if tol_fn else 0):
            bad.append("%s flat: source %s, output %s" % (short(n), fmt(a), fmt(b)))
        if n in snocum or n in out.nocum:
            continue
        a, b = sc.get(n, 0), out.cum.get(n, 0)
        if not close(a, b, src, out, tol_fn(n, "cum") if tol_fn else 0):
            bad.append("%s cum: source %s, output %s" % (short(n), fmt(a), fmt(b)))
    if bad:
        more = " ... and %d more" % (len(bad) - 8) if len(bad) > 8 else ""
        fail(f, what, "%s vs %s: %s%s" % (src.judge, out.judge, "; ".join(bad[:8]), more))
    return not bad


def otlp_name(name):
    """A name as an OTLP export holds it: each byte that is not part of a
    valid UTF-8 sequence (read here as a surrogate escape) is U+FFFD."""
    if not any(0xdc80 <= ord(c) <= 0xdcff for c in name):
        return name
    exc("otlp-utf8")
    return "".join("\ufffd" if 0xdc80 <= ord(c) <= 0xdcff else c for c in name)


def fmt(v):
    if isinstance(v, float) and v.is_integer() and abs(v) < 2 ** 63:
        return str(int(v))
    return str(v)


def short(n):
    s = n if isinstance(n, str) else repr(n)
    return repr(s[:80] + ("..." if len(s) > 80 else ""))


# ---------------------------------------------------------------------------
# Judges computed here: collapsed and Perun sums.
SEP = re.compile(r"[;\r\n\x00]")


def collapsed_sep(name):
    return SEP.sub("_", name)


def json_name(name):
    """A name as pcol's JSON exporters write it (doc/mappings.md §5): bytes
    that are not UTF-8 are read as Latin-1, and then a NUL is a blank."""
    b = name.encode("utf-8", "surrogateescape")
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        exc("json-bytes")
        return "".join(" " if c == 0 else chr(c) for c in b)


def ff_name(name):
    """A name as the Firefox export writes it (doc/mappings.md §8.2): valid
    UTF-8 as it is, each other byte read as Latin-1."""
    t = name.encode("utf-8", "surrogateescape").decode("utf-8", "surrogateescape")
    return "".join(chr(ord(c) - 0xDC00) if 0xDC80 <= ord(c) <= 0xDCFF else c for c in t)


FF_TIME = {"nanoseconds": 1e6, "ns": 1e6, "microseconds": 1e3, "us": 1e3, "milliseconds": 1, "ms": 1,
           "seconds": 1e-3, "s": 1e-3}


def read_firefox(path, unit):
    """The call tree of a processed profile, from its own tables: per
    function name, self and total (a sample once per name), in pcol's unit."""
    p = json.load(open(path, encoding="utf-8"))
    sh = p["shared"]
    st, fr, fn, strs = sh["stackTable"], sh["frameTable"], sh["funcTable"], sh["stringArray"]
    m = re.match(r"^1e-(\d) ?(.*)$", unit or "")
    dec, u = (int(m.group(1)), m.group(2)) if m else (0, unit)
    r = Reading("Firefox call tree (export)", rel_tol=1e-9)
    for t in p["threads"]:
        s = t["samples"]
        f = 10 ** dec * (FF_TIME.get(u, 1) if s["weightType"] == "tracing-ms" else 1)
        # the weight per stack first (samples share stacks), then each stack
        # walked once; a negative sample is noted as add() would
        per = {}
        for k, w in zip(s["stack"], s["weight"]):
            per[k] = per.get(k, 0) + w
            if w < 0:
                r.negative = True
        for k, w in per.items():
            names = []
            while k is not None:
                names.append(strs[fn["name"][fr["func"][st["frame"][k]]]])
                o = st["prefixOffset"][k]
                k = None if o == 0 else k - o
            r.add(names, w * f)
    return r


COUNT = re.compile(r"[-+]?[0-9.]+")


def read_collapsed(path, judge="collapsed sums", rounded=False, source=False):
    """flamegraph.pl-style: the last blank-separated token is the count; the
    rest split on ';' is the stack, root first.  rounded: each line counts
    round-half-away(count) (the count rule for a collapsed source's rows).
    source: an input file, read as speedscope and flamegraph.pl read one:
    UTF-16 with a BOM decoded, lines that are not "stack count" skipped
    (an export or fold output must have none)."""
    r = Reading(judge)
    with open(path, "rb") as fh:
        data = fh.read()
    if source and data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        data = data.decode("utf-16").encode("utf-8")
    for raw in data.split(b"\n"):
        line = raw.rstrip(b"\r").decode("utf-8", "surrogateescape")
        if not line.strip():
            continue
        # flamegraph.pl: /^(.*)\s+?(\d+(?:\.\d*)?)$/, the stack is greedy: in
        # "a;  3" the leaf is " " (one blank).  Here ^(.*)[ \t]([-+]?[0-9.]+)$:
        # the count has no blank, so the split is at the last blank or tab
        i = max(line.rfind(" "), line.rfind("\t"))
        num = line[i + 1:]
        if i < 0 or not COUNT.fullmatch(num):
            if source:
                continue
            raise ValueError("%s: not a collapsed line: %r" % (path, line[:80]))
        if num.isdigit():  # most counts: an integer, exactly as Decimal(num)
            c = int(num)
        else:
            c = Decimal(num)
            if rounded:
                c = int(c.to_integral_value(rounding="ROUND_HALF_UP")) if c >= 0 else \
                    -int((-c).to_integral_value(rounding="ROUND_HALF_UP"))
        frames = line[:i].split(";") if i > 0 else []
        frames.reverse()
        r.add(frames, c)
    return r


def perun_events(d):
    if "resource_type_map" in d or isinstance(d.get("resources"), dict):
        rtm = d.get("resource_type_map") or {}
        for k, cols in (d.get("resources") or {}).items():
            base = rtm.get(k, {})
            n = min((len(v) for v in cols.values()), default=0) if cols else 0
            for i in range(n):
                ev = dict(base)
                ev.update({c: v[i] for c, v in cols.items()})
                yield ev
    elif isinstance(d.get("snapshots"), list):
        for s in d["snapshots"]:
            for ev in s.get("resources", []):
                yield ev
    elif isinstance(d.get("global"), dict):
        for ev in d["global"].get("resources", []):
            yield ev


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


SS_TIME_NS = {"nanoseconds": 1, "microseconds": 10**3, "milliseconds": 10**6, "seconds": 10**9}
PCOL_TIME_NS = {"fs": Decimal("1e-6"), "ps": Decimal("1e-3"), "ns": 1, "nanoseconds": 1, "us": 10**3,
                "microseconds": 10**3, "ms": 10**6, "milliseconds": 10**6, "s": 10**9, "seconds": 10**9}


def ss_units(path):
    """A speedscope export's unit of each profile, by its type's name."""
    try:
        d = json.load(open(path, encoding="utf-8"))
        return {p["name"].rsplit(": ", 1)[-1]: p.get("unit") for p in d.get("profiles", [])}
    except (OSError, ValueError, KeyError, AttributeError):
        return {}


def ss_time_scale(ss_unit, pcol_unit):
    """What a value of speedscope's time unit ss_unit is in pcol's unit
    pcol_unit ("U" or "1e-D U"), or None when either is no time."""
    m = re.match(r"^1e-(\d+) ?(.*)$", pcol_unit or "")
    dec, u = (int(m.group(1)), m.group(2)) if m else (0, pcol_unit)
    if ss_unit not in SS_TIME_NS or u not in PCOL_TIME_NS:
        return None
    return Decimal(SS_TIME_NS[ss_unit]) / (Decimal(PCOL_TIME_NS[u]) / Decimal(10) ** dec)


def read_perun(path, synthetic=False):
    """Perun's own sums: per event its trace's frames (leaf first; kperf:
    root first without the leaf, which is the uid after its last ';'; no
    trace: the uid split on ';', root first), the count (1, or a kperf
    event's amount) and the amount (scaled by 1e9, rounded, when any amount
    in the file is a real, as the amount's unit says)."""
    d = json.load(open(path, encoding="utf-8"))
    kperf = (d.get("collector_info") or {}).get("name") == "kperf"
    synthetic = synthetic and kperf
    # kperf's amounts count samples in its unit "sample"; pcol's export of a
    # default value that is no count (a time: "ns") writes that unit
    units = (d.get("header") or {}).get("units")
    tu = units.get("time") if isinstance(units, dict) else None
    counts = kperf and tu in (None, "sample")
    evs = list(perun_events(d))
    real = any(isinstance(e.get("amount"), float) for e in evs)
    cnt, amt = Reading("Perun count sums"), Reading("Perun amount sums")
    amt.none = not any(is_num(e.get("amount")) for e in evs)  # no value type then
    # pcol stores real amounts x 10^K: K = 9, or the largest K that keeps the
    # largest amount within 64 bits (doc/mappings.md §3.1)
    K = 9
    if real:
        big = max([abs(e["amount"]) for e in evs if is_num(e.get("amount")) and math.isfinite(e["amount"])] or [0])
        while K > 0 and big * 10 ** K >= 9.2e18:
            K -= 1
        amt.rel_tol = 1e-12
        amt.abs_tol = 0.5 * max(1, len(evs))
    amt.k = K if real else 0  # exports that print values as given (unit "1e-K U") divide by 10^K
    # kperf's integer amounts in "sample" are counts: pcol reads them as
    # samples/count, its default the count (doc/mappings.md §3.1)
    cnt.kperf_counts = counts and not real
    for e in evs:
        tr, uid = e.get("trace"), e.get("uid")
        def fname(fr):
            if isinstance(fr, dict):
                for k in ("function", "func", "name"):
                    if isinstance(fr.get(k), str):
                        return fr[k]
            return None
        if kperf and isinstance(tr, list):
            names = [fname(x) for x in tr][::-1]
            if synthetic and isinstance(uid, str) and (uid != "[unknown]" or names):
                names = [uid] + names  # pcol's: the leaf's name, whole
            elif isinstance(uid, str) and not synthetic:
                names = [uid.rsplit(";", 1)[-1]] + names
            # pcol's kperf export writes an empty stack as uid "[unknown]"
            # without a trace (doc/mappings.md §3.2): no frame
        elif isinstance(tr, list):
            names = [fname(x) for x in tr]
        elif tr is None and isinstance(uid, str):
            names = uid.split(";")[::-1]
        else:
            names = []
        names = [n if n is not None else "[unknown]" for n in names]
        a = e.get("amount")
        w = 1
        if counts and isinstance(a, int) and not isinstance(a, bool) and a >= 0:
            w = a
        elif synthetic and counts and isinstance(a, int) and a < 0:
            cnt.negative = True  # (a failure: left out, doc/mappings.md §3.2)
        cnt.add(names, w)
        if is_num(a) and math.isfinite(a):
            amt.add(names, round(a * 10 ** K) if real else a)
        else:
            amt.add(names, 0)
    return cnt, amt


# ---------------------------------------------------------------------------
# go tool pprof
# (profile.proto read here: tests/support/pprof_times.py)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from pprof_times import pb_fields, pb_ints, pb_load, pb_vars  # noqa: E402

GOENV = dict(os.environ, HOME=os.path.join(W, "home"), PPROF_BINARY_PATH="/nonexistent",
             GOFLAGS="-mod=readonly", GOPROXY="off", GOTOOLCHAIN="local", TZ="UTC")


def pprof_types(path):
    """The sample types (type, unit) and default_sample_type of a pprof file:
    only to choose the -sample_index commands; the numbers come from go."""
    st, strs, dflt = [], [], 0
    for f, wt, v in pb_fields(pb_load(path)):
        if f == 1 and wt == 2:
            d = pb_vars(v)
            st.append((d.get(1, 0), d.get(2, 0)))
        elif f == 6 and wt == 2:
            strs.append(v.decode("utf-8", "surrogateescape"))
        elif f == 14 and wt == 0:
            dflt = v
    types = [(strs[t], strs[u]) for t, u in st]
    return types, strs[dflt] if dflt else ""


def pprof_value_facts(path, ntypes):
    """Per sample type: the sum of the values of samples without locations
    (go tool pprof's -top counts them in its total, no row shows them) and
    whether any sample's value is below 0 (a sum of flat can hide it)."""
    empty, neg = [0] * ntypes, [False] * ntypes
    for f, wt, v in pb_fields(pb_load(path)):
        if f != 2 or wt != 2:
            continue
        has_loc, vals = False, []
        for f2, wt2, v2 in pb_fields(v):
            if f2 == 1:
                has_loc = has_loc or bool(pb_ints(wt2, v2))
            elif f2 == 2:
                vals += [x - (1 << 64) if x >= 1 << 63 else x for x in pb_ints(wt2, v2)]
        for i, x in enumerate(vals[:ntypes]):
            neg[i] = neg[i] or x < 0
            if not has_loc:
                empty[i] += x
    return empty, neg


ROW = re.compile(r"^ *(-?[0-9.]+(?:e[-+][0-9]+)?)[^ ]* +-?[0-9.]+(?:e[-+]?[0-9]+)?% +-?[0-9.]+"
                 r"(?:e[-+]?[0-9]+)?% +(-?[0-9.]+(?:e[-+][0-9]+)?)[^ ]* +-?[0-9.]+(?:e[-+]?[0-9]+)?%  (.*)$")
TOTAL = re.compile(r"Showing nodes accounting for .* of (-?[0-9.e+]+)[^ ]* total")


def pprof_argv():
    """The command of go tool pprof: the binary `go tool pprof` execs
    ($(go env GOTOOLDIR)/pprof), run directly, which spares a go process
    (its own start and its fork of the tool) per session; `go tool pprof`
    when GOTOOLDIR has no pprof."""
    try:
        d = subprocess.run(["go", "env", "GOTOOLDIR"], capture_output=True, text=True,
                           env=GOENV, timeout=60).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        d = ""
    exe = os.path.join(d, "pprof") if d else ""
    return [exe] if exe and os.access(exe, os.X_OK) else ["go", "tool", "pprof"]


PPROF = pprof_argv()
# go tool pprof's answer per distinct file content: the same bytes read by
# the same tool give the same tables, so a file whose bytes were read
# already (an OTLP export converted back to pprof is, most of the time, the
# pprof export byte for byte) is not read again; its comparisons are all
# still made, with that one reading.  sha256 -> Future of go_session's answer.
GO_READ = {}
GO_LOCK = threading.Lock()
go_stats = {"sessions": 0, "reused": 0}


def go_reading(path, read=None):
    """go_session(path, read), once per distinct content; the readings are shared
    (compare() does not change them).  Counts the go-dup exceptions of the
    reading at each use, as a fresh session would."""
    with open(read or path, "rb") as fh:
        key = hashlib.sha256(fh.read()).hexdigest()
    with GO_LOCK:
        fut = GO_READ.get(key)
        mine = fut is None
        if mine:
            fut = GO_READ[key] = cf.Future()
            go_stats["sessions"] += 1
        else:
            go_stats["reused"] += 1
    if mine:
        try:
            fut.set_result(go_session(path, read))
        except Exception as ex:  # noqa: BLE001 - raised again to each caller
            fut.set_exception(ex)
    types, dflt, readings, ndup = fut.result()
    exc("go-dup", ndup)
    return types, dflt, readings


def go_session(path, read=None):
    """One go tool pprof process on read (default: path, a profile.proto
    whose types it reads): -top for every sample type (raw units:
    unit = the type's own unit), through its interactive commands
    (sample_index=N, unit=U, top).  Returns (types, default type,
    {type: Reading}, number of go-dup names)."""
    types, dflt = pprof_types(path)
    cmds = ["nodecount=1000000", "nodefraction=0", "edgefraction=0"]
    for i, (t, u) in enumerate(types):
        cmds += ["sample_index=%d" % i, "unit=%s" % (u or "count"), "top"]
    cmds.append("quit")
    p = subprocess.run(PPROF + ["-symbolize=none", read or path],
                       input=("\n".join(cmds) + "\n").encode(), stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, env=GOENV, timeout=600)
    text = p.stdout.decode("utf-8", "surrogateescape")
    parts = re.split(r"\(pprof\) ", text)
    tables = [part for part in parts if "Showing nodes accounting for" in part]
    if any(x in text for x in ("outside the range", "unrecognized", "failed to")):
        raise RuntimeError("go tool pprof: %s" % text[:300])
    if len(tables) != len(types):
        raise RuntimeError("go tool pprof gave %d tables for %d types: %s" % (
            len(tables), len(types), text[:300]))
    readings, ndup = {}, 0
    empties, negs = pprof_value_facts(path, len(types))
    for (t, u), tab in zip(types, tables):
        r = Reading("go tool pprof -top -sample_index=%s" % t, rel_tol=1e-15)
        rows, started = [], False
        for line in tab.split("\n"):
            if not started:
                mt = TOTAL.search(line)
                if mt:
                    r.total = float(mt.group(1))
                started = started or "flat%" in line
                continue
            mr = ROW.match(line)
            if mr:
                rows.append([mr.group(3), float(mr.group(1)), float(mr.group(2))])
            elif rows and line:
                rows[-1][0] += "\n" + line
        for name, fl, cu in rows:
            name = re.sub(r" \((partial-)?inline\)$", "", name)
            if name in r.flat:
                r.nocum.add(name)
                ndup += 1  # EXC go-dup, counted by go_reading at each use
            r.flat[name] = r.flat.get(name, 0) + fl
            r.cum[name] = r.cum.get(name, 0) + cu
        r.abs_total = True  # see compare() and EXC go-abs-total
        r.negative = any(x < 0 for x in r.flat.values()) or negs[len(readings)]
        r.empty = empties[len(readings)]
        readings[t] = r
    return types, dflt or (types[-1][0] if types else ""), readings, ndup


ROWS_TYPE = "pcol.judge.rows"  # the sample type go_pruned_rows adds: 1 a Sample message


def pb_field_bytes(f, wt, v):
    """One field as protobuf writes it (v as pb_fields gives it)."""
    key = pb_varint_bytes(f << 3 | wt)
    if wt == 0:
        return key + pb_varint_bytes(v)
    return key + (pb_varint_bytes(len(v)) if wt == 2 else b"") + bytes(v)


def go_pruned_rows(path, d):
    """The Sample messages of a pprof source that sets drop_frames as go tool
    pprof prunes them (profile/prune.go, on reading; pcol prunes them so
    too, doc/mappings.md §2.1): a copy of the source with a last sample type
    ROWS_TYPE, 1 in every Sample message, read by go tool pprof -proto, whose
    Sample messages are go's pruned stacks (its merge of one stack and label
    set adds their rows up; no sample is all zero, so none is dropped), and
    the Sample messages without locations, which go drops on reading and no
    pruning changes.  The file written and that count, for
    pb_rows(weight=ROWS_TYPE, empty=...)."""
    fields = list(pb_fields(pb_load(path)))
    nstr = sum(1 for f, wt, _v in fields if f == 6)
    empty = sum(1 for f, wt, v in fields if f == 2 and wt == 2 and all(f2 != 1 for f2, _w, _v in pb_fields(v)))
    b = bytearray()
    for f, wt, v in fields:
        b += pb_field_bytes(f, wt, bytes(v) + b"\x10\x01" if f == 2 and wt == 2 else v)
    b += pb_field_bytes(1, 2, pb_field_bytes(1, 0, nstr) + pb_field_bytes(2, 0, nstr + 1))
    b += pb_field_bytes(6, 2, ROWS_TYPE.encode()) + pb_field_bytes(6, 2, b"count")
    rows = os.path.join(d, "src-rows.pb")
    with open(rows, "wb") as fh:
        fh.write(b)
    rc, out, err = run(PPROF + ["-symbolize=none", "-proto", rows])
    if rc:
        raise RuntimeError("go tool pprof -proto of the source with its rows: " + err[:300])
    with open(rows + ".go.pb.gz", "wb") as fh:
        fh.write(out)
    return rows + ".go.pb.gz", empty


def pb_rows(path, rows=True, weight=None, empty=0):
    """THE count of a pprof source without samples/count is the row: one per
    Sample message (doc/mappings.md §0).  go tool pprof cannot show it (it
    merges identical samples when it reads a file), so the rows are counted
    here from the protobuf: flat to the leaf frame, cum once per distinct
    frame, a location's inline lines innermost first.  Returns (Reading, the
    set of non-empty function names: names not in it are frames without a
    function name, which each tool names its own way, see EXC nameless).
    rows=False: the names only (the Reading is None), for a file whose count
    go tool pprof shows (samples/count).  weight: the name of a sample type
    whose value a Sample message weighs (go_pruned_rows), else 1; empty:
    rows without locations besides (go_pruned_rows)."""
    samples, locs, funcs, maps, strs, types, weights = [], {}, {}, {}, [], [], []
    for f, wt, v in pb_fields(pb_load(path)):
        if f == 2 and not rows:
            continue
        if f == 2 and wt == 2:
            ids, vals = [], []
            for f2, wt2, v2 in pb_fields(v):
                if f2 == 1:
                    ids += pb_ints(wt2, v2)
                elif f2 == 2:
                    vals += pb_ints(wt2, v2)
            samples.append(ids)
            weights.append(vals)
        elif f == 1 and wt == 2:
            types.append(pb_vars(v).get(1, 0))
        elif f == 4 and wt == 2:
            lines = []
            for f2, wt2, v2 in pb_fields(v):
                if f2 == 4 and wt2 == 2:
                    d = pb_vars(v2)
                    ln = d.get(2, 0)
                    lines.append((d.get(1, 0), ln - (1 << 64) if ln >= 1 << 63 else ln))
            d = pb_vars(v)
            locs[d.get(1, 0)] = (d.get(2, 0), lines)
        elif f == 3 and wt == 2:
            d = pb_vars(v)
            maps[d.get(1, 0)] = d.get(5, 0)
        elif f == 5 and wt == 2:
            d = pb_vars(v)
            funcs[d.get(1, 0)] = (d.get(2, 0), d.get(4, 0))
        elif f == 6 and wt == 2:
            strs.append(v.decode("utf-8", "surrogateescape"))
    fname = {k: strs[v[0]] for k, v in funcs.items()}
    ffile = {k: strs[v[1]] for k, v in funcs.items()}

    def frame(fid, ln, mid):  # the frame rule, doc/mappings.md §6
        if fname.get(fid):
            return fname[fid]
        if mid or not ln:  # in a mapping, or at pprof's "no line": as go names it
            return unsymbolized(mid)
        if ffile.get(fid):
            return "%s:%d" % (ffile[fid], ln)
        return "[unknown]"
    def unsymbolized(mid):  # go tool pprof's name (graph.go NameComponents)
        fn = strs[maps[mid]] if maps.get(mid) else ""
        return "[%s]" % re.split(r"[/\\]", fn)[-1] if fn else "<unknown>"
    loc_names = {}  # location id -> its frames' names (locations recur in samples)
    for lid, (mid, lines) in locs.items():
        loc_names[lid] = [frame(fid, ln, mid) for fid, ln in lines] if lines else [unsymbolized(mid)]
    # the names compared: functions', and an unsymbolized location's (which
    # go and the frame rule both name after its mapping, doc/mappings.md §6)
    # unless a function without a name could share it in go's view
    named = {n for n in fname.values() if n}
    if all(fname.get(fid) for _mid, lines in locs.values() for fid, _ln in lines):
        named |= {unsymbolized(mid) for mid, lines in locs.values() if not lines}
    if not rows:
        return None, named
    r = Reading("pprof rows (Sample messages)")
    r.frames = True  # named by the frame rule, as fold and the exporters
    k = [strs[t] for t in types].index(weight) if weight else None
    for ids, vals in zip(samples, weights):
        names = []
        for lid in ids:
            names += loc_names.get(lid) or ["[unknown]"]
        r.add(names, 1 if k is None else vals[k])
    for _ in range(empty):
        r.add([], 1)
    return r, named


# ---------------------------------------------------------------------------
# summaryRprof
# R prints a byte that is not UTF-8 in a row name as <ff>; the file has the
# byte (read here as Python's surrogateescape does)
R_BYTE = re.compile(r"<([89a-f][0-9a-f])>")


def read_r(tsv, judge="summaryRprof"):
    r = Reading(judge)
    iv = None
    for line in open(tsv, encoding="utf-8", errors="surrogateescape").read().split("\n"):
        if not line:
            continue
        k, _, rest = line.partition("\t")
        if k == "error":
            raise RuntimeError("summaryRprof: " + rest)
        if k == "interval":
            iv = float(rest)
        elif k == "sampling":
            r.total = float(rest) / iv
        elif k in ("self", "total"):
            v, _, name = rest.partition("\t")
            if not (len(name) >= 2 and name.startswith('"') and name.endswith('"')):
                r.skip.add(name)  # a fragment of a name R split (r-split)
                exc("r-split")
                continue
            name = R_BYTE.sub(lambda m: chr(0xdc00 + int(m.group(1), 16)), name[1:-1])
            (r.flat if k == "self" else r.cum)[name] = float(v) / iv
    r.rnd = (iv, 3 if iv < 0.01 else 2)
    exc("r-rounding")
    return r


def r_skip_spaces(src_or_out, other):
    """Names with a space (R splits them): not compared."""
    sp = {n for n in set(other.flat) | set(other.cum) if isinstance(n, str) and " " in n}
    if sp:
        exc("r-split", len(sp))
    src_or_out.skip |= sp


def rprof_alloc(path):
    """The memory each line of an Rprof memory profile allocated, by
    summaryRprof(memory = "both")'s rule, read from the text itself: the
    positive increases of small x 8, large x 8 and nodes against the line
    before (0 for the first), flat to the innermost name, cum once to each
    name.  None for a file without memory profiling."""
    lines = open(path, "rb").read().decode("utf-8", "surrogateescape").split("\n")
    if "memory profiling" not in lines[0]:
        return None
    r = Reading("the Rprof text (summaryRprof's mem.total rule)")
    prev = None
    for ln in lines[1:]:
        m = re.match(r"^:([0-9]+):([0-9]+):([0-9]+):([0-9]+):(.*)$", ln.rstrip("\r"))
        if not m:
            continue
        cur = (int(m.group(1)) * 8, int(m.group(2)) * 8, int(m.group(3)))
        a = sum(max(0, c - q) for c, q in zip(cur, prev)) if prev else 0
        prev = cur
        r.add(re.findall(r'"(.*?)"(?= |$)', m.group(5)), a)
    return r


def rprof_walk(path):
    """What summaryRprof misreads in an Rprof SOURCE: memory-only lines it
    drops, and cut names (a last line cut off)."""
    empty = 0
    lines = open(path, "rb").read().split(b"\n")
    first = lines[0]
    mem = first.startswith(b"memory profiling")
    for ln in lines[1:]:
        ln = ln.rstrip(b"\r")
        if mem and re.match(rb"^:[0-9]+:[0-9]+:[0-9]+:[0-9]+:$", ln):
            empty += 1
    cut = bool(lines[-1]) and not lines[-1].endswith(b" ")
    return empty, cut


# ---------------------------------------------------------------------------
# pcol views
def svg_total(path, decimals=0):
    """The root frame's value: its data-v attribute (raw; the title shows
    human units, 1.76s), in the value's own unit (÷ 10^D for a "1e-D" unit)."""
    t = open(path, encoding="utf-8", errors="replace").read()
    m = re.search(r'data-v="(-?[0-9.]+)"><title>\u2068all\u2069 ', t)
    return Decimal(m.group(1)) / (Decimal(10) ** decimals) if m else None


def read_top_csv(path, judge="pcol top"):
    import csv
    r = Reading(judge)
    with open(path, newline="", encoding="utf-8", errors="surrogateescape") as fh:
        for row in csv.DictReader(fh):
            fl, cu = Decimal(row["flat"]), Decimal(row["cum"])
            r.flat[row["name"]] = r.flat.get(row["name"], 0) + fl
            r.cum[row["name"]] = r.cum.get(row["name"], 0) + cu
            r.total += fl
    return r


# ---------------------------------------------------------------------------
def discover():
    groups = [("rprof", "rprof"), ("ext/rprof", "rprof"), ("pprof", "pprof"),
              ("pprof-from-r", "pprof"), ("ext/pprof", "pprof"), ("ext/legacy-proto", "pprof"),
              ("perun", "perun"), ("ext/perun", "perun"), ("ext/collapsed", "collapsed"),
              ("ext/legacy", "legacy")]
    out = []
    for d, kind in groups:
        p = os.path.join(TD, d)
        if not os.path.isdir(p):
            continue
        for b in sorted(os.listdir(p)):
            f = os.path.join(p, b)
            if os.path.isfile(f) and not b.endswith(".md"):
                # an OTLP message among the pprof files (the eBPF profiler's)
                if kind == "legacy":  # pprof's (jemalloc's refused: REFUSED)
                    kind_b = "pprof" if b.endswith(READ_SUFFIX) else None
                else:
                    kind_b = kind
                out.append((f, "otlp" if b.startswith("ODD-otlp") else kind_b))
    return out


def generated():
    """Inputs of the formats the shared test data has none of, made by
    t_matrix.sh in W/gen: perf script text from tests/support/
    gen_perf_script.py (its collapsed answers beside it: *.truth, the first
    event's periods, and *.count, the sample counts), Tachyon .bin files
    from tests/support/tachyongen.py (*.count and *.wall beside them), .cpuprofile files from
    node --cpu-prof, a Chrome trace holding such a profile cut into
    Profile/ProfileChunk events (*.trace; its reference: the .cpuprofile it
    was cut from), a speedscope file from pcol's own export of a collapsed
    fixture (its reference: that fixture's counts), a JFR recording of
    execution samples from tests/support/gen_jfr.py (its reference: `jfr
    print --json` of it, *.jfr.json)."""
    g = os.path.join(W, "gen")
    out = []
    if os.path.isdir(g):
        for b in sorted(os.listdir(g)):
            if b.endswith(".jfr.json"):  # a JFR input's reference (jfr print --json), not an input
                continue
            kind = {".txt": "perf", ".cpuprofile": "v8", ".json": "speedscope",
                    ".trace": "chrome", ".bin": "tachyon",
                    ".jfr": "jfr"}.get(os.path.splitext(b)[1])
            if kind:
                out.append((os.path.join(g, b), kind))
    return out


def chrome_docs(path):
    """The V8 profiles of a Chrome trace (pcol's --to chrome, §14.1): per
    Profile event's id, its chunks' nodes (parent form, made children
    lists), samples and timeDeltas in file order, as a .cpuprofile's."""
    docs = {}
    for ev in json.load(open(path))["traceEvents"]:
        if ev.get("name") == "Profile":
            docs[ev["id"]] = {"nodes": [], "samples": [], "timeDeltas": []}
        elif ev.get("name") == "ProfileChunk":
            d, data = docs[ev["id"]], ev["args"]["data"]
            d["nodes"] += [dict(n, children=[]) for n in data["cpuProfile"].get("nodes", [])]
            d["samples"] += data["cpuProfile"].get("samples", [])
            d["timeDeltas"] += data.get("timeDeltas", [])
    for d in docs.values():
        byid = {n["id"]: n for n in d["nodes"]}
        for n in d["nodes"]:
            if "parent" in n:
                byid[n["parent"]]["children"].append(n["id"])
    return list(docs.values())


def v8_readings(path, docs=None):
    """A .cpuprofile's own counts and wall times per function (the names
    speedscope gives: functionName, else "(anonymous FILE:LINE)", and
    "(anonymous FILE)" without a line, as DevTools shows it; (root)
    left out; a sample's wall time is the time to the next sample, time
    never going back; doc/mappings.md §9); docs: several such documents
    (a Chrome trace's profiles, chrome_docs) added up instead."""
    cnt, wall = Reading("cpuprofile counts"), Reading("cpuprofile wall (ns)")
    for d in docs if docs is not None else [json.load(open(path))]:
        v8_doc_readings(d, cnt, wall)
    cnt.frames = wall.frames = True
    return cnt, wall


def v8_doc_readings(d, cnt, wall):
    nodes = {n["id"]: n for n in d["nodes"]}
    parent = {}
    for n in d["nodes"]:
        for c in n.get("children", []):
            parent[c] = n["id"]

    def name(n):
        cf = n["callFrame"]
        if cf.get("functionName"):
            return cf["functionName"]
        url, ln = cf.get("url", ""), cf.get("lineNumber", -1)
        if not url:
            return "(anonymous)"
        if ln < 0:  # V8's -1, no line: DevTools shows none (doc/mappings.md §10.1;
            return "(anonymous %s)" % url.split("/")[-1]  # speedscope prints ":0")
        return "(anonymous %s:%s)" % (url.split("/")[-1], ln + 1)

    def stack(i):
        out = []
        while i is not None:
            n = nodes[i]
            if not (i not in parent and n["callFrame"].get("functionName") == "(root)"):
                out.append(name(n))
            i = parent.get(i)
        return out  # leaf first

    t, last, times = 0, None, []
    for dt in d["timeDeltas"]:
        t += dt
        last = t if last is None or t > last else last
        times.append(last)
    for i, sid in enumerate(d["samples"]):
        st = stack(sid)
        cnt.add(st, 1)
        wall.add(st, (times[i + 1] - times[i]) * 1000 if i + 1 < len(times) else 0)


def exports_for(kind):
    e = ["rprof", "pprof", "collapsed", "speedscope", "firefox", "otlp", "v8", "chrome"]
    # PCOL_MATRIX_PERUN_ALL=1: the Perun export of every input, not only of Perun's
    return e + ["perun"] if kind == "perun" or os.environ.get("PCOL_MATRIX_PERUN_ALL") == "1" else e


def job(i, f, kind):
    """Runs everything for one input (in a worker thread)."""
    b = os.path.basename(f)
    d = os.path.join(W, "f%03d" % i)
    os.makedirs(d, exist_ok=True)
    res = {"i": i, "f": f, "b": b, "kind": kind, "d": d, "out": {}, "err": {}}
    reason = REFUSED.get(b) or (None if b.endswith(READ_SUFFIX) else REFUSED_DIRS.get(os.path.basename(os.path.dirname(f))))
    for suf, why in REFUSED_SUFFIX.items():
        if b.endswith(suf):
            reason = why
    # pcol top's table is the first reading: a file pcol refuses stops here
    v = {}
    rc, _, err = run([PCOL, "top", f, "--format", "csv"], out=os.path.join(d, "top.csv"))
    if rc != 0:
        res["refused"] = (rc, err.strip(), reason)
        return res
    v["top"] = os.path.join(d, "top.csv")
    if reason:
        res["refused_not"] = reason
    ext = {"rprof": ".out", "pprof": ".pb.gz", "collapsed": ".folded", "speedscope": ".json",
           "perun": ".perf", "firefox": ".firefox.json", "otlp": ".otlp", "v8": ".cpuprofile",
           "chrome": ".trace.json"}
    for e in sorted(exports_for(kind), key=lambda e: e != "collapsed"):
        o = os.path.join(d, "x" + ext[e])
        if e == "rprof" and "collapsed" in res["out"]:
            # Rprof writes one line per count: keep R's reading affordable
            # (the reading is the judge's of that export: kept for judge_one)
            rd = res["collapsed_reading"] = read_collapsed(res["out"]["collapsed"],
                                                           judge="collapsed sums (export)")
            n = rd.total
            if n > RPROF_MAX_LINES:
                res["rprof_skipped"] = n
                continue
        # a collapsed export carries the source's default value, as fold (§0);
        # the judge here is the count, so another format's source asks for it
        # (fold and the default are compared in views())
        extra = ["--value", "samples"] if e == "collapsed" and kind != "collapsed" else []
        rc, _, err = run([PCOL, "unpack", f, "--to", e, "-o", o] + extra)
        if rc == 0:
            res["out"][e] = o
            if e == "rprof":  # its note of times rounded to ticks (rprof_ticks)
                res["rprof_note"] = err
                with open(o, "rb") as fh:
                    n = sum(chunk.count(b"\n") for chunk in iter(lambda: fh.read(1 << 20), b""))
                if n > RPROF_MAX_LINES:  # a time in ticks: more lines than the count
                    res["rprof_skipped"] = n
                    del res["out"][e]
        elif e == "collapsed" and extra and rc == 1 and "without samples/count whose samples hold negative" in err:
            exc("count-refused")
        elif e == "rprof" and rc == 1 and RPROF_TOOBIG.search(err):
            res["rprof_toobig"] = err.strip()  # judged by rprof_refused
        elif e in ("v8", "chrome") and rc == 1 and ("not a time" in err or "sources have selected samples" in err
                                        or "threads, and a V8 profile holds one thread" in err
                                        or "cannot be negative" in err):
            exc("v8-refused")  # doc/mappings.md §10.1
        else:
            res["err"][e] = err.strip()
    rc, out, err = run([PCOL, "top", f, "-n", "1", "--format", "json"])  # raw, as the csv rows
    try:
        v["top_total"] = Decimal(json.loads(out.decode("utf-8", "replace"))["total"]) if rc == 0 else None
        v["top_unit"] = json.loads(out.decode("utf-8", "replace"))["unit"] if rc == 0 else None
    except ValueError:
        v["top_total"] = None
    rc, fold, err = run([PCOL, "fold", f])
    v["fold"] = fold if rc == 0 else "error: " + err
    if rc == 0:
        with open(os.path.join(d, "fold.txt"), "wb") as fh:
            fh.write(fold)
    rc, _, err = run([PCOL, "flame", f, "-o", os.path.join(d, "flame.svg")])
    v["flame"] = os.path.join(d, "flame.svg") if rc == 0 else "error: " + err
    rc, out, err = run([PCOL, "diff", f, f, "--absolute", "--format", "json"])
    v["diff"] = out.decode("utf-8", "replace") if rc == 0 else "error: " + err
    res["views"] = v
    # go tool pprof on the source and on the pprof export
    try:
        if kind == "pprof":
            pbf = f
            if b.endswith(LEGACY_BINARY):
                # pprof's legacy formats (pprof_legacy.c, pprof_legacy_text.c):
                # the Sample messages of go's own reading of it (-proto)
                pbf = os.path.join(d, "src-go.pb.gz")
                rc, out, err = run(["go", "tool", "pprof", "-symbolize=none", "-proto", f])
                if rc:
                    raise RuntimeError("go tool pprof -proto of the legacy file: " + err[:300])
                with open(pbf, "wb") as fh:
                    fh.write(out)
            res["go_src"] = go_reading(pbf, f if b.endswith(LEGACY_TEXT) else None)
            # the rows are THE count only without samples/count (source_readings);
            # of a source that sets drop_frames, its Sample messages as go
            # prunes them (go_pruned_rows)
            rows = ("samples", "count") not in res["go_src"][0]
            # the Rprof export's tolerance of times rounded to ticks is a
            # tick a Sample message (rprof_ticks): their count is wanted then
            want = rows or bool(rprof_rounded(res.get("rprof_note", "")))
            if want and pb_vars(pb_load(pbf)).get(7):
                pruned, empty = go_pruned_rows(pbf, d)
                rr = pb_rows(pruned, weight=ROWS_TYPE, empty=empty)
            else:
                rr = pb_rows(pbf, rows=want)
            res["pb"] = rr if rows else (None, rr[1])
            res["pb_rows"] = rr[0]
    except Exception as ex:  # noqa: BLE001 - reported as a failure
        res["go_src_err"] = str(ex)
    try:
        if "pprof" in res["out"]:
            res["go_out"] = go_reading(res["out"]["pprof"])
    except Exception as ex:  # noqa: BLE001
        res["go_out_err"] = str(ex)
    # OTLP: the source read by protoc (the judge of tests/cli/otlp_judge.py);
    # an OTLP export read back through pcol's pprof export by go tool pprof
    try:
        if kind == "otlp":
            res["otlp_src"] = otlp_profiles(f)
        if "otlp" in res["out"]:
            # (that protoc reads it is checked for all exports at once:
            # otlp_check_all, whose verdict replaces this one's)
            pb = os.path.join(d, "x_otlp.pb.gz")
            rc, _, err = run([PCOL, "unpack", res["out"]["otlp"], "--to", "pprof", "-o", pb])
            if rc:
                raise RuntimeError("OTLP -> pprof: " + err[:300])
            res["go_otlp"] = go_reading(pb)
    except Exception as ex:  # noqa: BLE001
        res["go_otlp_err"] = str(ex)
    return res


def otlp_decode(path):
    """protoc --decode with upstream's .proto files (format/opentelemetry/)."""
    p = subprocess.run(["protoc", "--proto_path=" + os.path.join(REPO, "format"),
                        "--decode=opentelemetry.proto.profiles.v1development.ProfilesData",
                        "opentelemetry/proto/profiles/v1development/profiles.proto"],
                       stdin=open(path, "rb"), capture_output=True)
    if p.returncode or p.stderr:
        raise RuntimeError("protoc --decode %s: %s" % (path, p.stderr.decode("utf-8", "replace")[:300]))
    return p.stdout.decode("latin-1")


def pb_varint_bytes(n):
    out = bytearray()
    while True:
        out.append((n & 0x7F) | (0x80 if n > 0x7F else 0))
        n >>= 7
        if not n:
            return bytes(out)


def otlp_check_all(results):
    """protoc --decode with upstream's .proto files must read every OTLP
    export.  One protoc reads them all, each a length-delimited field of
    tests/interop/otlp_batch.proto's OtlpBatch (parsed within its own bounds
    as upstream's ProfilesData); when that run is not clean (an exit status,
    a message), each file is decoded alone (otlp_decode), and a file protoc
    cannot read is reported as before: res["go_otlp_err"].  Returns the
    number of protoc processes."""
    outs = [res for res in results if "otlp" in res.get("out", {})]
    if not outs:
        return 0
    batch = bytearray()
    for res in outs:
        with open(res["out"]["otlp"], "rb") as fh:
            b = fh.read()
        batch += b"\x0a" + pb_varint_bytes(len(b)) + b
    p = subprocess.run(["protoc", "--proto_path=" + os.path.join(REPO, "format"),
                        "--proto_path=" + os.path.join(REPO, "tests", "interop"),
                        "--decode=pcol.test.OtlpBatch", "otlp_batch.proto"],
                       input=bytes(batch), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if p.returncode == 0 and not p.stderr:
        return 1
    for res in outs:
        try:
            otlp_decode(res["out"]["otlp"])
        except RuntimeError as ex:
            res["go_otlp_err"] = str(ex)
    return 1 + len(outs)


def otlp_profiles(path):
    sys.path.insert(0, os.path.join(REPO, "tests", "cli"))
    import otlp_judge  # noqa: E402
    return otlp_judge.profiles(otlp_decode(path))


# ---------------------------------------------------------------------------
def source_readings(res, rsum):
    """The source's reference: {"count": Reading, "types": {name: Reading},
    "default": name or "count", "adjust": {...}}."""
    f, kind = res["f"], res["kind"]
    s = {"types": {}, "default": "count"}
    if kind == "pprof":
        types, dflt, readings = res["go_src"]
        s["types"] = readings
        s["default"] = dflt
        s["type_list"] = [t for t, _ in types]
        rows, real = res["pb"]
        s["real_names"] = real
        if ("samples", "count") in types:
            s["count"] = readings["samples"]
        elif f.endswith(LEGACY_TEXT):
            s["count"] = Reading("pcol's sample lines: no judge")
            s["count"].unjudged = "legacy-rows"
        else:
            # no samples/count: the count is the row (doc/mappings.md §0), which
            # go tool pprof cannot show (it merges identical samples on reading)
            s["count"] = rows
    elif kind == "rprof":
        r = rsum[("src", res["i"])]
        empty, cut = rprof_walk(f)
        s["count"] = r
        s["r_empty"] = empty
        # every name the file holds (a quoted token); other names in an
        # output are frames without a function (EXC nameless)
        s["real_names"] = set(re.findall(r'"(.*?)"(?= |$)', open(f, encoding="utf-8",
                                         errors="surrogateescape").read(), re.M))
        if cut:
            exc("r-cut")
        iv_ns = round(r.rnd[0] * 1e9)
        t = Reading("summaryRprof x interval (ns)", total=r.total * iv_ns,
                    flat={k: v * iv_ns for k, v in r.flat.items()},
                    cum={k: v * iv_ns for k, v in r.cum.items()})
        t.skip = set(r.skip)
        t.rnd = None
        t.abs_tol = 0.6 * 10 ** -r.rnd[1] * 1e9
        s["types"] = {"samples": r, "cpu": t}
        alloc = rprof_alloc(f)
        if alloc is not None:  # the memory allocated (doc/mappings.md §0, export values)
            s["types"]["rprof.alloc"] = alloc
        s["default"] = "cpu"  # an Rprof source shows its time (doc/mappings.md §0)
    elif kind == "perun":
        cnt, amt = read_perun(f)
        s["count"] = cnt
        if not amt.none:
            s["types"] = {"__amount__": amt}
            s["default"] = "count" if getattr(cnt, "kperf_counts", False) else "__amount__"
    elif kind == "collapsed":
        s["count"] = read_collapsed(f, rounded=True, source=True)
        s["types"] = {}
    elif kind == "perf":
        base = os.path.splitext(f)[0]
        s["count"] = read_collapsed(base + ".count", judge="perf generator counts")
        s["types"] = {"cycles": read_collapsed(base + ".truth", judge="perf generator periods")}
        s["default"] = "cycles"
        for r in (s["count"], s["types"]["cycles"]):
            r.frames, r.out_map = True, collapsed_sep  # the generator writes collapsed text
    elif kind == "tachyon":
        # the generator's answers: samples per stack, and the interval each
        base = os.path.splitext(f)[0]
        s["count"] = read_collapsed(base + ".count", judge="Tachyon generator counts")
        s["types"] = {"samples": s["count"], "wall": read_collapsed(base + ".wall", judge="Tachyon generator wall")}
        s["default"] = "samples"
        for r in s["types"].values():
            r.frames, r.out_map = True, collapsed_sep  # the generator writes collapsed text
    elif kind in ("v8", "chrome"):
        cnt, wall = v8_readings(f if kind == "v8" else os.path.splitext(f)[0] + ".cpuprofile")
        s["count"], s["types"], s["default"] = cnt, {"samples": cnt, "wall": wall}, "wall"
    elif kind == "speedscope":
        s["count"] = read_collapsed(os.path.splitext(f)[0] + ".folded", rounded=True)
    elif kind == "jfr":
        # the JDK's reading: each execution sample's frames as `jfr print`
        # names them (pkg.Class.method), one count each (doc/mappings.md §13)
        cnt = Reading("jfr print --json")
        for ev in json.load(open(f + ".json"))["recording"]["events"]:
            fr = (ev["values"].get("stackTrace") or {}).get("frames") or []
            cnt.add([(m["type"]["name"].replace("/", ".") + "." if m.get("type") else "") + m["name"]
                     for m in (x["method"] for x in fr)], 1)
        s["count"], s["types"], s["default"] = cnt, {"samples": cnt}, "samples"
    elif kind == "otlp":
        # protoc's reading: a reading per sample type over every Profile;
        # the count: samples/count where a Profile has it, else one per
        # observation (doc/mappings.md §0, §12.1; one Profile per source here)
        cnt = Reading("OTLP counts (protoc --decode)")
        s["types"] = {}
        s["real_names"] = set()
        for p in res["otlp_src"]:
            t = s["types"].setdefault(p["type"], Reading("OTLP %s (protoc --decode)" % p["type"]))
            is_count = (p["type"], p["unit"]) == ("samples", "count")
            for names, v, obs in p["samples"]:
                t.add(names, v)
                cnt.add(names, v if is_count else obs)
                s["real_names"].update(n for n in names if n)
        s["count"] = cnt
        # a Profile without samples/count beside others: the pprof export's
        # samples/count column holds every source's count (THE count rule:
        # the observations of a Profile without it; doc/mappings.md §2.2)
        s["samples_is_count"] = any((p["type"], p["unit"]) != ("samples", "count") for p in res["otlp_src"])
        s["rprof_count"] = rprof_lines(res["otlp_src"])
        # top shows a type every source measures, else the count; speedscope
        # opens on the first source's default (its last type: one here)
        ts = {p["type"] for p in res["otlp_src"]}
        s["default"] = ts.pop() if len(ts) == 1 else "count"
        s["ss_default"] = res["otlp_src"][0]["type"] if res["otlp_src"] else "count"
    return s


def skipper(src, out_is_r=False, src_is_r=False, frames_both=False):
    """The names a comparison leaves out (a function name -> an EXC key or
    None): names with a blank when summaryRprof reads either side, and when
    the source lists its function names, every other name (a frame without
    a function name, named by each tool its own way)."""
    real = src.get("real_names")
    seps = {collapsed_sep(x) for x in real} | {json_name(x) for x in real} if real is not None else None
    def fn(n):
        if (out_is_r or src_is_r) and isinstance(n, str) and " " in n:
            return "r-split"
        if real is not None and not frames_both and n not in real and n not in seps:
            return "nameless"
        return None
    return fn


def judge_one(res, rsum, ss):
    f, b, kind = res["f"], res["b"], res["kind"]
    src = source_readings(res, rsum)
    n_judged = 0
    r_empty = src.get("r_empty", 0)
    src_is_r = kind == "rprof"

    def type_reading(t):
        if t in src["types"]:
            return src["types"][t]
        if kind == "perun" and "__amount__" in src["types"] and t != "samples":
            return src["types"]["__amount__"]
        if t == "samples" and kind in ("collapsed", "perun", "speedscope", "perf"):
            return src["count"]
        return None

    if "rprof_skipped" in res:
        exc("rprof-budget")
        stats["not_judged"].append("%s --to rprof (%s lines)" % (b, res["rprof_skipped"]))
    if "rprof_toobig" in res:
        rprof_refused(b, res, src)
    for e, o in res["out"].items():
        what = "--to " + e
        kb = known_bug(b, e)
        nfail = len(fails)
        if e == "rprof":
            out = rsum.get(("out", res["i"]))
            if out is None:
                continue
            sk = skipper(src, out_is_r=True, src_is_r=src_is_r)
            if kind == "rprof":
                # the Rprof export of an Rprof source is the source, byte for byte
                if open(o, "rb").read() != open(f, "rb").read():
                    fail(b, what, "not byte-identical to the source")
                compare(b, what, src["count"], out, skip_fn=sk)
            elif not rprof_ticks(b, what, res, src, out, sk):
                # several intervals: one header, each source's ticks x its interval (§1.2)
                rc_ = src.get("rprof_count", src["count"])
                if rc_.negative:  # written as 0 lines (§1.2): R's total is not the net one
                    exc("rprof-negative")
                    continue
                t_ = getattr(rc_, "tol", None)  # carried times (rprof_lines): within a tick a sample
                compare(b, what, rc_, out, total_adjust=-empty_stacks(src, rc_), skip_fn=sk,
                        total_tol=None if t_ is None else rc_.total_tol + t_.total - sum(t_.flat.values()) + 1e-6,
                        tol_fn=None if t_ is None else
                        lambda n, which, t_=t_: (t_.flat if which == "flat" else t_.cum).get(n, 0))
        elif e in ("pprof", "otlp"):
            if e == "otlp" and "go_otlp_err" in res:
                fail(b, what, res["go_otlp_err"])
                continue
            if e == "pprof" and "go_out_err" in res:
                fail(b, what, res["go_out_err"])
                continue
            types, dflt, readings = res["go_out" if e == "pprof" else "go_otlp"]
            for t, _u in types:
                sr = src["count"] if t == "samples" and src.get("samples_is_count") else type_reading(t)
                if sr is None:
                    fail(b, what, "type %s is not one the source measured" % t)
                    continue
                if sr.total is not None and abs(sr.total) >= 2 ** 63:
                    exc("go-int64")  # go tool pprof sums in int64: it cannot judge this
                    continue
                adj = 0
                if kind == "rprof" and r_empty and t != "rprof.alloc":  # read from the text, not R
                    exc("r-empty")
                    adj = r_empty * (1 if t == "samples" else round(src["count"].rnd[0] * 1e9))
                # OTLP strings are UTF-8: each byte of no valid sequence is
                # U+FFFD there (doc/mappings.md §12.2, EXC otlp-utf8)
                compare(b, what + " (-sample_index=%s)" % t, sr, readings[t], total_adjust=adj,
                        name_map=otlp_name if e == "otlp" else None,
                        skip_fn=skipper(src, src_is_r=src_is_r))
            if kind == "pprof" and [t for t, _ in types] != src["type_list"]:
                fail(b, what, "sample types %s, source %s" % (types, src["type_list"]))
            if kind == "pprof" and dflt != src["default"]:
                fail(b, what, "go tool pprof opens on %s, on the source on %s" % (dflt, src["default"]))
        elif e == "collapsed":
            out = res.get("collapsed_reading") or read_collapsed(o, judge="collapsed sums (export)")
            compare(b, what, src["count"], out, name_map=collapsed_sep,
                    total_adjust=r_empty, skip_fn=skipper(src, src_is_r=src_is_r,
                                                         frames_both=src["count"].frames))
        elif e == "speedscope":
            rec = ss.get(o)
            if rec is None or "error" in rec:
                fail(b, what, "speedscope: %s" % (rec or {}).get("error", "not loaded"))
                continue
            profs = rec["profiles"]
            want = src.get("ss_default", src["default"])
            dr = src["count"] if want == "count" else src["types"].get(want)
            if profs:
                act = profs[rec["active"]]["name"].rsplit(": ", 1)[-1]
                if want == "count":
                    ok = act == "samples"
                elif dr is not None and dr.negative:
                    exc("ss-negative")
                    # the count profile; when it has a negative value too
                    # (pprof's samples/count), the first (§5)
                    ok = act == ("samples" if not src["count"].negative else
                                 profs[0]["name"].rsplit(": ", 1)[-1])
                elif want == "__amount__":
                    ok = act not in ("samples", "timeline")
                else:
                    ok = act == want
                if not ok:
                    fail(b, what, "speedscope opens on '%s', the source's default is '%s'" % (act, want))
            # a file of several sources (an OTLP message: one per Profile)
            # has a speedscope profile per source and type: each sample is
            # in one of them, so their sums per type are the file's
            by_type = {}
            for p in profs:
                if p["type"] != "evented":
                    by_type.setdefault(p["name"].rsplit(": ", 1)[-1], []).append(p)
            for t, ps in by_type.items():
                sr = src["count"] if t == "samples" else type_reading(t)
                if sr is None:
                    fail(b, what, "profile %r is no type of the source" % ps[0]["name"])
                    continue
                # a value of a "1e-K U" unit (K < 9: Perun amounts too large for
                # 1e9) is written as given; the judge's sums are x 10^K
                sc = 10 ** sr.k if 0 < getattr(sr, "k", 0) < 9 else 1
                # a time is written in speedscope's time unit (§5: pcol's ps and
                # fs, a Perun ms or us amount with a fraction, as nanoseconds
                # with decimals; "1e-K ms" as milliseconds): the judge's sums
                # are in pcol's unit of the type (the default's, top_unit)
                tsc = ss_time_scale(ss_units(o).get(t), res["views"].get("top_unit")) \
                    if type_reading(t) is type_reading(src["default"]) else None
                if tsc is not None:
                    sc = int(tsc) if tsc == int(tsc) else float(tsc)
                out = Reading("speedscope", total=sum(p["total"] for p in ps) * sc, rel_tol=1e-12)
                for p in ps:
                    for n, (sw, tw, k) in p["frames"].items():
                        out.flat[n] = out.flat.get(n, 0) + sw * sc
                        out.cum[n] = out.cum.get(n, 0) + tw * sc
                        if k > 1:
                            out.nocum.add(n)
                            exc("same-name")
                adj = r_empty if t != "rprof.alloc" else 0  # rprof.alloc is read from the text, not R
                if kind == "rprof" and r_empty and t not in ("samples", "rprof.alloc"):  # the time of those lines
                    adj = r_empty * round(src["count"].rnd[0] * 1e9)
                # a pprof function without a name is one speedscope frame
                # named by its file (§5), not by each line (EXC nameless)
                compare(b, what + " (%s)" % t, sr, out, total_adjust=adj, name_map=json_name,
                        skip_fn=skipper(src, src_is_r=src_is_r,
                                        frames_both=sr.frames and kind != "pprof"))
        elif e == "firefox":
            # the thread weight is the source's default value (§8.2)
            want = src["default"]
            sr = src["count"] if want == "count" else type_reading(want)
            if sr is None:
                fail(b, what, "no reading of the default value %r" % want)
                continue
            out = read_firefox(o, res["views"].get("top_unit"))
            adj = r_empty
            if kind == "rprof" and r_empty and want not in ("count", "samples"):  # their time
                adj = r_empty * round(src["count"].rnd[0] * 1e9)
            compare(b, what + " (%s)" % want, sr, out, total_adjust=adj, name_map=ff_name,
                    skip_fn=skipper(src, src_is_r=src_is_r, frames_both=sr.frames))
        elif e in ("v8", "chrome"):
            # each sample lasts its value of the default type (a time), in
            # whole us of the running sum: within 1 us a sample (chrome: a
            # profile a thread, the same rule, §14.1: their sum)
            want = src["default"]
            docs = chrome_docs(o) if e == "chrome" else [json.load(open(o))]
            n = sum(len(d["samples"]) for d in docs)
            if not n:  # no sample (an empty Perun file): nothing to weigh, no value checked
                sr = type_reading(want)
                tu = (res["views"].get("top_unit") or "nanoseconds").lower()
                ns = {"us": 1000, "microseconds": 1000, "ms": 10**6, "milliseconds": 10**6,
                      "s": 10**9, "seconds": 10**9}.get(tu, 1)
                if src["count"].total and sr is not None and abs(sr.total) * ns < 500 and \
                        all(abs(v) * ns < 500 for v in sr.flat.values()):
                    exc("v8-empty")  # the default time is 0 (or < 1 us) in all (§10.1)
                elif src["count"].total:
                    fail(b, what, "no sample written, the source has %s" % src["count"].total)
                n_judged += 1
                continue
            sr = type_reading(want)
            if sr is None:
                fail(b, what, "no reading of the default value %r" % want)
                continue
            _, out = v8_readings(o, docs)
            unit = (res["views"].get("top_unit") or "nanoseconds").lower()
            sc = {"ns": 1, "nanoseconds": 1, "us": 1000, "microseconds": 1000, "ms": 10**6,
                  "milliseconds": 10**6, "s": 10**9, "seconds": 10**9}.get(unit, 1)
            out.judge = "cpuprofile wall (export)"
            out.total = out.total / sc
            out.flat = {k: v / sc for k, v in out.flat.items()}
            out.cum = {k: v / sc for k, v in out.cum.items()}
            out.abs_tol = 1000.0 * n / sc
            adj = r_empty
            if kind == "rprof" and r_empty:  # their time
                adj = r_empty * round(src["count"].rnd[0] * 1e9)
            compare(b, what + " (%s)" % want, sr, out, total_adjust=adj, name_map=json_name,
                    skip_fn=skipper(src, src_is_r=src_is_r, frames_both=sr.frames))
        elif e == "perun":
            c2, a2 = read_perun(o, synthetic=kind != "perun")
            c2.judge, a2.judge = "Perun count sums (export)", "Perun amount sums (export)"
            if kind != "perun" and (c2.negative or a2.negative):
                fail(b, what, "a negative amount written (doc/mappings.md §3.2: left out)")
                continue
            if kind != "perun":
                hdr = json.load(open(o))["header"]
                synth_memory = hdr.get("type") == "memory"
                # one value, the source's default (§3.2, as the Firefox and
                # collapsed exports weigh): the memory style (an event per
                # sample) when it is bytes, else the kperf style, in
                # kperf's "sample" when that is a count of samples
                want = src["default"]
                dr = src["count"] if want == "count" else type_reading(want)
                if dr is None:
                    fail(b, what, "no reading of the default value %r" % want)
                    continue
                if dr.negative:  # EXC perun-negative: left out of the export
                    exc("perun-negative")
                    n_judged += 1
                    continue
                if synth_memory:
                    if (dr is src["count"]) or hdr["units"].get("memory") != "B":
                        fail(b, what, "the memory style (units %r) for the default value %r" % (hdr["units"], want))
                else:
                    tu = hdr["units"]["time"]
                    if (dr is src["count"]) != (tu == "sample"):
                        fail(b, what, "units.time %r for the default value %r" % (tu, want))
                adj = r_empty
                if kind == "rprof" and r_empty and want not in ("count", "samples"):  # their time
                    adj = r_empty * round(src["count"].rnd[0] * 1e9)
                compare(b, what + " (amount: %s)" % want, dr, a2, total_adjust=adj, name_map=json_name,
                        skip_fn=skipper(src, src_is_r=src_is_r, frames_both=dr.frames))
                n_judged += 1
                continue
            compare(b, what + " (count)", src["count"], c2)  # a Perun file written back
            if "__amount__" in src["types"]:
                compare(b, what + " (amount)", src["types"]["__amount__"], a2)
        n_judged += 1
        if kb and len(fails) > nfail:
            del fails[nfail:]
            known.append("%s %s: %s" % (b, what, kb))
    for e, err in res["err"].items():
        kb = known_bug(b, e)
        if (b, e) in CANNOT_HOLD:
            known.append("%s --to %s: refused: %s" % (b, e, CANNOT_HOLD[(b, e)]))
        elif kb:
            known.append("%s --to %s: %s" % (b, e, kb))
        else:
            fail(b, "--to " + e, "pcol unpack failed: %s" % err[:300])
    views(res, src)
    return n_judged


# A default value in one of these units is a time the Rprof export writes
# in ticks (doc/mappings.md §1.2): the time units go tool pprof reads (at
# least 1 ns a unit: not speedscope's ps and fs)
RPROF_TIME_NS = {u: int(n) for u, n in PCOL_TIME_NS.items() if n >= 1}
# `pcol unpack --to rprof`'s note that it rounded a source's times to ticks
ROUNDED_NOTE = re.compile(r"source ([0-9]+): [^\n]*rounded to ticks of sample\.interval=([0-9]+) \(us\)")


def rprof_rounded(note):
    """{source: its tick in us} of the sources whose times the Rprof export
    noted it rounded to ticks."""
    return {int(s): int(iv) for s, iv in ROUNDED_NOTE.findall(note)}


def rprof_ticks(b, what, res, src, out, sk):
    """The Rprof export of a source whose default value is a time (pcol
    top's unit is one; doc/mappings.md §1.2): Rprof says only "this stack
    for one interval", so a sample is its time in ticks, and summaryRprof's
    seconds (sampling.time, by.self, by.total) must be the source's default
    time as its reference tool reads it (go tool pprof -top of that type,
    the Perun or V8 file's own sums), not one line a Sample message (which
    read a C++ profile of 7.12 s as 0.52 s, a JFR one of 4.78 s as 359 s):
    the total exactly (to the tick), every function up to summaryRprof's
    rounding of its times; where the export noted that it rounded a
    source's times to its ticks, the total within half a tick of each such
    source (the running total is rounded) and a function within a tick per
    Sample message that holds it (each sample is within a tick).  Where the
    time is count x interval (Go's cpu, the samples/count x period), the
    lines are also the count, compared as for a default of no time.
    Returns False when the default value is no time (the count rule)."""
    unit = res["views"].get("top_unit")
    if unit not in RPROF_TIME_NS or src["default"] == "count":
        return False
    sr = src["types"].get(src["default"])
    if sr is None:
        fail(b, what, "no reading of the default value %r, a time in %s" % (src["default"], unit))
        return True
    if sr.negative:  # written as 0 lines (§1.2): R's total is not the net one
        exc("rprof-negative")
        return True
    u_ns = RPROF_TIME_NS[unit]
    iv_s, dg = out.rnd
    line = iv_s * 1e9 / u_ns  # a line of the export, in the source's unit
    t = copy.copy(out)
    t.judge = "summaryRprof (export) seconds"
    t.total = out.total * line
    t.flat = {k: v * line for k, v in out.flat.items()}
    t.cum = {k: v * line for k, v in out.cum.items()}
    t.rnd = (u_ns * 1e-9, dg)  # R's times in seconds, rounded to dg digits
    rounded = rprof_rounded(res.get("rprof_note", ""))
    stats["rprof_time"] += 1
    stats["rprof_rounded"] += bool(rounded)
    empty_t = empty_stacks(src, sr)  # samples without a frame: Rprof has no empty line
    tol_fn = None
    if rounded:
        rows = res.get("pb_rows") or src["count"]  # the Sample messages (pprof), else the count
        tick = max(rounded.values()) * 1000 / u_ns
        # an empty-stack sample dropped: its lines are its time, within a tick
        empty_rows = rows.total - sum(rows.flat.values())
        total_tol = sum(iv * 1000 / u_ns / 2 for iv in rounded.values()) + tick * empty_rows
        tol_fn = lambda n, which: tick * (rows.flat if which == "flat" else rows.cum).get(n, 0)  # noqa: E731
    else:
        total_tol = 1e-6 * line + 1e-12 * abs(float(sr.total))
    compare(b, what + " (%s, seconds)" % src["default"], sr, t, total_adjust=-empty_t, skip_fn=sk,
            total_tol=total_tol, tol_fn=tol_fn)
    # time = count x interval: the lines are the count too (the rule the
    # export kept for these, one line a count at the period)
    rc_ = src.get("rprof_count", src["count"])
    def same(x, y):
        return abs(float(x) - float(y) * line) <= 1e-9 * max(1.0, abs(float(x)))
    if not rc_.negative and not getattr(rc_, "unjudged", None) and same(sr.total, rc_.total) and all(
            same(a.get(n, 0), c.get(n, 0)) for a, c in ((sr.flat, rc_.flat), (sr.cum, rc_.cum))
            for n in set(a) | set(c)):
        stats["rprof_count_too"] += 1
        compare(b, what, rc_, out, total_adjust=-empty_stacks(src, rc_), skip_fn=sk)
    return True


RPROF_TOOBIG = re.compile(r"rprof export: the selected samples make more than ([0-9]+) lines")
RPROF_LIMIT = 1 << 28  # the lines past which pcol refuses an Rprof export (doc/mappings.md §1.2)


def pb_period_ns(path):
    """A pprof file's period in ns when its period type's unit is
    nanoseconds (the interval the Rprof export writes), else None."""
    strs, unit, period = [], None, 0
    for f, wt, v in pb_fields(pb_load(path)):
        if f == 6 and wt == 2:
            strs.append(v.decode("utf-8", "surrogateescape"))
        elif f == 11 and wt == 2:
            unit = pb_vars(v).get(2, 0)
        elif f == 12 and wt == 0:
            period = v
    return period if period > 0 and unit is not None and strs[unit] == "nanoseconds" else None


def pb_positive_sum(path, index):
    """The sum of the values above 0 of sample type `index` (what an export
    of that time writes: a value below 0 is no line)."""
    t = 0
    for f, wt, v in pb_fields(pb_load(path)):
        if f == 2 and wt == 2:
            vals = []
            for f2, wt2, v2 in pb_fields(v):
                if f2 == 2:
                    vals += [x - (1 << 64) if x >= 1 << 63 else x for x in pb_ints(wt2, v2)]
            if index < len(vals) and vals[index] > 0:
                t += vals[index]
    return t


def rprof_refused(b, res, src):
    """pcol refuses an Rprof export of more than 2^28 lines (doc/mappings.md
    §1.2): right when the count passes it, or, for a pprof source whose
    default value is a time, its ticks of its period (the interval the
    export writes it in when no exact tick keeps the lines few: values of
    any size, pprofgen's past 2^48) do; else a failure."""
    what = "--to rprof"
    need, why = src["count"].total, "samples"
    unit = res["views"].get("top_unit")
    if res["kind"] == "pprof" and unit in RPROF_TIME_NS and "go_src" in res and not b.endswith(LEGACY_BINARY):
        types = [t for t, _ in res["go_src"][0]]
        per = pb_period_ns(res["f"])
        if per and src["default"] in types:
            tick = max(1, (per + 500) // 1000) * 1000
            ticks = pb_positive_sum(res["f"], types.index(src["default"])) * RPROF_TIME_NS[unit] / tick
            if ticks > need:
                need, why = ticks, "ticks of %d us" % (tick // 1000)
    if need > RPROF_LIMIT:
        exc("rprof-budget")
        stats["not_judged"].append("%s --to rprof (%.4g %s: refused, as documented)" % (b, need, why))
    else:
        fail(b, what, "refused as more than 2^28 lines, yet its %s are %s: %s" % (
            why, fmt(need), res["rprof_toobig"][:300]))


def rprof_lines(profs):
    """What summaryRprof reads in the Rprof export of several OTLP Profiles
    (doc/mappings.md §1.2): one header of the greatest common divisor G of
    the intervals of the Profiles that have a line (period / 1000 µs when
    its unit is nanoseconds, at least 1, else 10000), and a sample of a
    Profile of interval I counted count x I / G times -- but a "free"
    Profile, of a time (an off-CPU Profile's nanoseconds) and no interval of
    its own, or one that is not its time's tick (it does not divide every
    sample's time, or the time is not the count x it: review diff6 F1),
    beside others that have lines: its time in ticks of G, the others' gcd
    (its own interval left out), each sample carried (within a tick; its
    total within half a tick: the Reading's total_tol and tol_fn), unless
    those lines pass 2^28 (RPROF_MAX_LINES) and 10 ms a sample would be
    fewer lines (review diff5 F1; before review diff6 F3, past 64x the
    samples' lines)."""
    def iv(p):
        if p["period"] > 0 and p["period_unit"] == "nanoseconds":
            return 1 if p["period"] < 1000 else (p["period"] + 500) // 1000
        return 10000
    def count(p, v, obs):
        return v if (p["type"], p["unit"]) == ("samples", "count") else obs
    used = [p for p in profs if any(names and count(p, v, obs) > 0 for names, v, obs in p["samples"])]
    def own_tick(p):  # rprof_export.c own_tick: its interval divides every time, the time is count x it
        if not (p["period"] > 0 and p["period_unit"] == "nanoseconds"):
            return False
        t, ns = RPROF_TIME_NS[p["unit"]], iv(p) * 1000
        if any(v > 0 and v * t % ns for _, v, _ in p["samples"]):
            return False
        return sum(v * t for _, v, _ in p["samples"] if v > 0) == ns * sum(count(p, v, obs) for _, v, obs in p["samples"] if count(p, v, obs) > 0)
    def free(p):
        return (p["unit"] in RPROF_TIME_NS and not own_tick(p)
                and sum(max(v, 0) for _, v, _ in p["samples"]) > 0)
    fixed = [p for p in used if not free(p)]
    g = 0
    for p in fixed:
        g = math.gcd(g, iv(p))
    carried = len(used) > 1 and len(fixed) < len(used) and g > 0
    if carried:  # the lines on the others' grid, and the 10 ms fallback's
        tick_ns = g * 1000
        lines = sum(count(p, v, obs) * (iv(p) // g) for p in fixed for _, v, obs in p["samples"])
        lines += sum(max(v, 0) * RPROF_TIME_NS[p["unit"]] for p in used if free(p) for _, v, _ in p["samples"]) / tick_ns
        g2 = math.gcd(g, 10000)
        fell = sum(count(p, v, obs) * (iv(p) // g2) for p in used for _, v, obs in p["samples"])
        carried = not (lines > (1 << 28) and fell < lines)
    if not carried:
        g = 0
        for p in used:
            g = math.gcd(g, iv(p))
    r = Reading("OTLP counts x interval / %s us (protoc --decode)" % g)
    r.total_tol, r.tol = None, None
    if carried:
        r.judge = "OTLP counts x interval, times of a Profile of no interval carried, / %s us (protoc --decode)" % g
        r.tol = Reading("samples of the carried Profiles")
        r.total_tol = 0.0
    for p in profs:
        m = iv(p) // g if len(used) > 1 else 1
        if carried and p in used and free(p):
            r.total_tol += 0.5
            for names, v, obs in p["samples"]:
                r.add(names, max(v, 0) * RPROF_TIME_NS[p["unit"]] / (g * 1000))
                r.tol.add(names, max(obs, 1))  # a row (a tick's room) per observation
            continue
        for names, v, obs in p["samples"]:
            r.add(names, count(p, v, obs) * m)
    return r


def empty_stacks(src, c=None):
    """Samples with an empty stack (Rprof cannot hold them): the count
    reading's total minus its flat (every other sample has a leaf)."""
    c = c or src["count"]
    n = c.total - sum(c.flat.values())
    if n:
        exc("empty-stack")
    return n


def views(res, src):
    b, d = res["b"], res["d"]
    v = res["views"]
    for k in ("top", "fold", "flame", "diff"):
        x = v[k]
        if isinstance(x, str) and x.startswith("error: "):
            fail(b, "pcol " + k, x[7:300])
            return
    top = read_top_csv(v["top"])
    top.abs_total = True
    top.negative = any(x < 0 for x in top.flat.values())
    net = top.total
    dsr = src["count"] if src["default"] == "count" else src["types"].get(src["default"])
    top.empty = getattr(dsr, "empty", 0)  # samples without a frame: in fold's total, in no row
    net += top.empty
    top_raw = v["top_total"]
    fold = read_collapsed(os.path.join(d, "fold.txt"), judge="pcol fold")

    def as_given(x):
        """A raw number (top's JSON, the SVG's data-v) is x 10^D for a
        decimal unit ("1e-D": collapsed 1.5, large Perun amounts); fold and
        diff print the value as given."""
        if x is not None and fold.total is not None and x != fold.total:
            for dd in range(1, 10):
                if x / (Decimal(10) ** dd) == fold.total:
                    return fold.total
        return x
    top.total = as_given(top_raw)
    fl = as_given(svg_total(v["flame"]))
    # diff's totals from its JSON (raw, as top's): the text prints human units
    try:
        dj = json.loads(v["diff"])
        dbase, dnew = as_given(Decimal(str(dj["base_total"]))), as_given(Decimal(str(dj["total"])))
    except (ValueError, KeyError, TypeError):
        dbase = dnew = None
    totals = {"top": top.total, "fold": fold.total, "flame": fl, "diff base": dbase, "diff new": dnew}
    if fl is None and (not top.total or net <= 0) and "<svg" in open(v["flame"], errors="replace").read():
        # nothing to draw (no weight, or none above 0): the SVG has no "all" frame
        totals["flame"] = top.total if not top.total else net
    stats["comparisons"] += 1
    if top.negative or (src["default"] != "count" and src["types"].get(src["default"]) is not None
                        and src["types"][src["default"]].negative):
        # top and diff print go tool pprof's total, the sum of |values|
        # (EXC go-abs-total): fold and flame are compared with top's net sum
        exc("go-abs-total")
        top.negative = True
        vals = {totals["top"], totals["diff base"], totals["diff new"]}
        vals2 = {net, totals["fold"], totals["flame"]}
        if len(vals) != 1 or len(vals2) != 1 or None in vals | vals2:
            fail(b, "views", "totals differ: %s, top's net %s" % (
                ", ".join("%s %s" % kv for kv in totals.items()), net))
    else:
        vals = set(totals.values())
        if len(vals) != 1 or None in vals:
            fail(b, "views", "totals differ: %s" % ", ".join("%s %s" % kv for kv in totals.items()))
    # and the default value's reference on the source
    dt = src["default"]
    sr = src["count"] if dt == "count" else src["types"].get(dt)
    top.total = top_raw  # raw, as the csv's flat and cum
    adj0 = src.get("r_empty", 0)
    if res["kind"] == "rprof" and dt not in ("count", "samples") and adj0:  # those lines' time
        adj0 = adj0 * round(src["count"].rnd[0] * 1e9)
    if sr is not None:
        compare(b, "pcol top (default value)", sr, top, total_adjust=adj0,
                skip_fn=skipper(dict(src, real_names=None) if res["kind"] == "pprof" else src,
                                src_is_r=res["kind"] == "rprof"))


# ---------------------------------------------------------------------------
def main():
    os.makedirs(os.path.join(W, "home"), exist_ok=True)
    inputs = discover() + generated()
    only = os.environ.get("PCOL_MATRIX_ONLY")  # a regex on the path, to run a part
    if only:
        inputs = [x for x in inputs if re.search(only, x[0])]
    results = []
    with cf.ThreadPoolExecutor(JOBS) as ex:
        futs = [ex.submit(job, i, f, k) for i, (f, k) in enumerate(inputs)]
        for fu in futs:
            results.append(fu.result())
    n_protoc = otlp_check_all(results)
    # summaryRprof on every Rprof source and export, in one R process, once
    # per distinct content (an Rprof source's export is the source, byte for
    # byte: the same bytes get R's one answer)
    rlist, keys, rnum = [], [], {}
    for res in results:
        if "refused" in res:
            continue
        for k, path in ((("src", res["i"]), res["f"] if res["kind"] == "rprof" else None),
                        (("out", res["i"]), res["out"].get("rprof"))):
            if path is None:
                continue
            with open(path, "rb") as fh:
                h = hashlib.sha256(fh.read()).hexdigest()
            if h not in rnum:
                rlist.append(path)
                rnum[h] = len(rlist)
            keys.append((k, rnum[h]))
    rdir = os.path.join(W, "r")
    os.makedirs(rdir, exist_ok=True)
    with open(os.path.join(W, "r.list"), "w") as fh:
        fh.write("".join(os.path.abspath(x) + "\n" for x in rlist))
    p = subprocess.run(["Rscript", os.path.join(REPO, "tests/r/matrix_summary.R"),
                        os.path.join(W, "r.list"), rdir], capture_output=True, text=True)
    if p.returncode != 0:
        print("FAIL: Rscript matrix_summary.R: " + p.stderr[:2000])
        return 1
    rsum = {}
    for k, n in keys:
        try:
            rsum[k] = read_r(os.path.join(rdir, "%d.tsv" % n),
                             "summaryRprof" + (" (export)" if k[0] == "out" else ""))
        except Exception as ex:  # noqa: BLE001
            res = results[k[1]]
            fail(res["b"], "summaryRprof of the " + ("source" if k[0] == "src" else "Rprof export"), str(ex))
    # speedscope's importer on every speedscope export, in one node process
    slist = [res["out"]["speedscope"] for res in results if "speedscope" in res.get("out", {})]
    with open(os.path.join(W, "s.list"), "w") as fh:
        fh.write("".join(x + "\n" for x in slist))
    p = subprocess.run(["node", os.path.join(REPO, "tests/interop/speedscope_judge.cjs"), NPM_DIR,
                        BUNDLE, SCHEMA, os.path.join(W, "s.list"), os.path.join(W, "s.jsonl")],
                       capture_output=True, text=True)
    if p.returncode != 0:
        print("FAIL: node speedscope_judge.cjs: " + p.stderr[:2000])
        return 1
    ss = {}
    for line in open(os.path.join(W, "s.jsonl"), encoding="utf-8"):
        rec = json.loads(line)
        ss[rec["file"]] = rec
    # judge
    for res in results:
        b = res["b"]
        if "refused" in res:
            rc, err, reason = res["refused"]
            kb = known_bug(b, "*")
            if reason and rc == 1:
                stats["skipped"].append("%s (%s)" % (b, reason))
            elif kb:
                known.append("%s: %s [pcol: %s]" % (b, kb, err[:120]))
            else:
                fail(b, "pcol top", "refused (exit %d): %s" % (rc, err[:300]))
            continue
        if "refused_not" in res:
            fail(b, "input", "listed as refused (%s) but pcol reads it" % res["refused_not"])
        if "go_src_err" in res:
            fail(b, "go tool pprof on the source", res["go_src_err"])
            continue
        stats["files"] += 1
        try:
            stats["judged"] += judge_one(res, rsum, ss)
        except Exception as ex:  # noqa: BLE001
            import traceback
            fail(b, "judge", "%s: %s" % (ex, traceback.format_exc()[-600:]))
        kb = known_bug(b, "*")
        if kb and not any(k.startswith(b) for k in known):
            print("known bug fixed? %s: %s (no failure seen: remove it from KNOWN_BUGS)" % (b, kb))
    # report
    for f, what, msg in fails:
        print("FAIL: %s: %s: %s" % (f, what, msg))
    for k in known:
        print("known bug: " + k)
    print("t_matrix: %d files x exports judged (%d input files, %d refused on purpose), "
          "%d comparisons, %d failures, %d known bugs" % (
              stats["judged"], stats["files"], len(stats["skipped"]), stats["comparisons"],
              len(fails), len(known)))
    print("reference tool runs: go tool pprof %d sessions for %d readings (identical bytes read "
          "once), summaryRprof %d files for %d readings (one R), protoc %d for %d OTLP exports" % (
              go_stats["sessions"], go_stats["sessions"] + go_stats["reused"], len(rlist), len(keys),
              n_protoc, sum(1 for res in results if "otlp" in res.get("out", {}))))
    print("Rprof exports of a default time judged in seconds: %d (%d rounded to ticks, as noted; "
          "%d whose time is count x interval, their lines judged as the count too)" % (
              stats["rprof_time"], stats["rprof_rounded"], stats["rprof_count_too"]))
    print("refused on purpose: " + "; ".join(stats["skipped"]))
    if stats["not_judged"]:
        print("not made (RPROF_MAX_LINES %d): %s" % (RPROF_MAX_LINES, "; ".join(stats["not_judged"])))
    for k, n in sorted(exc_count.items()):
        if n:
            print("exception %-14s %5d  %s" % (k, n, EXC[k]))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
