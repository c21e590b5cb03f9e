#!/usr/bin/env python3
"""run.py — checks a pcol reader against the conformance suite (spec.md §12).

    python3 tests/conformance/run.py [--pcol PATH] [--stages] [--large] [--check-generated]
    python3 tests/conformance/run.py --validate 'CMD {file}' --cat 'CMD {file} {view}'

For every file of files/manifest.tsv the reader's verdict must be the
expected one: the --validate command exits 0 for a valid file and non-zero
for an invalid or unsupported one.  For every valid file, the --cat command
must print each of the 17 views exactly as files/NAME.views has it (JSON
lines, spec.md §11.3).  Defaults: `pcol validate --full -q {file}` and
`pcol cat {file} --table all --format jsonl` (every view in one process,
each row's first member "table" naming its view; --cat-all takes such a
command, and --cat alone runs one command per view), with pcol from --pcol
or $PCOL.

--stages       also check libpcol's stages (spec.md §8): a file refused at
               `open` fails `pcol validate` without --full; one refused on
               first `use` or in `full` validation passes it.
--large        also make the 64 MiB file of rule T1 (gen.py --large) in a
               scratch directory and check its verdict.
--serve CMD    a reader that answers many commands in one process (as
               `specread.py serve`: a request a line of JSON, the arguments;
               an answer "EXIT OUTLEN ERRLEN" and the bytes): the --validate,
               --cat, --cat-all and --cat-range templates are then the
               arguments sent to it, one such process a job.
--count CMD    prints "SUM TOTAL" of {file} {value} (files/NAME.counts, the
               count rule of spec.md §6.11), exit non-zero where the reader
               refuses the value; pcol's own: `pcol top --format json`.
--check-generated  regenerate the suite in a scratch directory and fail if
               it differs from the committed files (gen.py and files agree), or
               if README.md does not name every file and rule of the manifest.
"""
import argparse
import concurrent.futures
import json
import select
import threading
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = os.path.join(HERE, "files")
VIEWS = ["meta", "sources", "value_types", "source_value_types", "functions", "mappings",
         "locations", "location_lines", "stacks", "samples", "sample_values",
         "sample_locations", "sample_labels", "text_lines", "sample_text", "models", "strings"]


# A sanitizer's report (a reader built with ASan/UBSan, as make test builds
# pcol) on standard error: a finding, whatever the exit status (ASan and
# UBSan exit 1 by default, which reads as a refusal of an invalid file).
SANITIZER_REPORT = (b"ERROR: AddressSanitizer", b"ERROR: LeakSanitizer", b"runtime error: ",
                    b"ThreadSanitizer")


def run(template, **subst):
    argv = [a.format(**subst) for a in shlex.split(template)]
    try:
        p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    except subprocess.TimeoutExpired:
        return None, b"", b"timed out"
    if any(r in p.stderr for r in SANITIZER_REPORT):
        raise SanitizerFinding("%s: %s" % (" ".join(argv), p.stderr.decode("utf-8", "replace")[:2000]))
    return p.returncode, p.stdout, p.stderr


class SanitizerFinding(Exception):
    pass


class ReaderDied(Exception):
    pass


class Served:
    """A --serve reader: one process for each thread (job) that uses it,
    started on its first request; run() with a template of arguments for it."""
    def __init__(self, cmd):
        self.cmd, self.local, self.all, self.lock = shlex.split(cmd), threading.local(), [], threading.Lock()

    def proc(self):
        p = getattr(self.local, "p", None)
        if p is None or p.poll() is not None:
            p = self.local.p = subprocess.Popen(self.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            with self.lock:
                self.all.append(p)
        return p

    def run(self, template, **subst):
        argv = [a.format(**subst) for a in shlex.split(template)]
        p = self.proc()
        p.stdin.write(json.dumps(argv).encode() + b"\n")
        p.stdin.flush()
        if not select.select([p.stdout], [], [], 120)[0]:
            p.kill(); p.wait()
            return None, b"", b"timed out"
        head = p.stdout.readline().split()
        if len(head) != 3:  # not a refusal: a failure of the check
            p.kill(); p.wait()
            raise ReaderDied("%s: the served reader (%s) died" % (" ".join(argv), " ".join(self.cmd)))
        rc, no, ne = map(int, head)
        out = p.stdout.read(no)
        return rc, out, p.stdout.read(ne)

    def close(self):
        for p in self.all:
            p.stdin.close()
            p.wait()


def read_manifest():
    rows = []
    with open(os.path.join(FILES, "manifest.tsv"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            name, verdict, rule, stage, what = line.rstrip("\n").split("\t")
            rows.append((name, verdict, rule, stage, what))
    return rows


def read_views(path):
    views, cur = {}, None
    with open(path, encoding="utf-8", newline="\n") as f:
        for line in f.read().split("\n")[:-1]:
            if line.startswith("# view ") or line.startswith("# range "):
                cur = line[7:] if line.startswith("# view ") else line[2:]
                views[cur] = []
            else:
                views[cur].append(line)
    return views


def split_all(result):
    """The output of a --cat-all command as {view: (rc, out, err)}, each out
    as --cat prints it: a row's leading "table" member names its view and
    is taken away."""
    rc, out, err = result
    outs = {v: [] for v in VIEWS}
    bad = []
    for line in out.split(b"\n")[:-1] if rc == 0 else []:
        pre = b'{"table":"'
        end = line.find(b'",', len(pre))
        view = line[len(pre):end].decode("utf-8", "replace") if line.startswith(pre) and end > 0 else None
        if view not in outs:
            bad.append(line[:80])
            continue
        outs[view].append(b"{" + line[end + 2:] + b"\n")
    if rc == 0 and out and not out.endswith(b"\n"):
        bad.append(b"(no newline at the end)")
    if rc != 0 or bad:
        why = err if rc != 0 else b"rows without a known \"table\" member: " + b"; ".join(bad)
        return {v: (rc if rc else 1, b"", why) for v in VIEWS}
    return {v: (0, b"".join(rows), b"") for v, rows in outs.items()}


def check_generated():
    tmp = tempfile.mkdtemp(prefix="pcol-conformance-")
    try:
        subprocess.run([sys.executable, os.path.join(HERE, "gen.py"), tmp], check=True)
        a, b = sorted(os.listdir(tmp)), sorted(os.listdir(FILES))
        if a != b:
            return ["generated file names differ from files/: %s" %
                    sorted(set(a).symmetric_difference(b))]
        bad = []
        for n in a:
            with open(os.path.join(tmp, n), "rb") as x, open(os.path.join(FILES, n), "rb") as y:
                if x.read() != y.read():
                    bad.append("files/%s differs from what gen.py writes (run gen.py)" % n)
        with open(os.path.join(HERE, "README.md"), encoding="utf-8") as f:
            readme = f.read()
        for name, verdict, rule, stage, what in read_manifest():
            if "`%s`" % name not in readme:
                bad.append("README.md does not name %s" % name)
            if rule != "-" and "\n| %s | " % rule not in readme:
                bad.append("README.md has no row for rule %s" % rule)
        return bad
    finally:
        shutil.rmtree(tmp)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("--pcol", default=os.environ.get("PCOL", "pcol"))
    ap.add_argument("--validate")
    ap.add_argument("--cat")
    ap.add_argument("--cat-all", help="prints every view: {file}, as `pcol cat --table all "
                    "--format jsonl` (rows tagged with a first member \"table\")")
    ap.add_argument("--cat-range", help="prints a view of a time range: {file} {view} {from} "
                    "{to} (seconds); default: pcol cat --from --to")
    ap.add_argument("--count", help="prints `SUM TOTAL` of a value of a file with a subtracted "
                    "base: {file} {value} (spec.md §6.11), exit non-zero when it refuses it; "
                    "default (pcol): pcol top --format json; another reader's files.counts are "
                    "checked only with it")
    ap.add_argument("--serve")
    ap.add_argument("--stages", action="store_true")
    ap.add_argument("--large", action="store_true")
    ap.add_argument("--check-generated", action="store_true")
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("JOBS", "1")),
                    help="files checked at a time (default $JOBS or 1)")
    ap.add_argument("names", nargs="*", help="only these files")
    a = ap.parse_args()
    pcol = shlex.quote(a.pcol)
    validate = a.validate or pcol + " validate --full -q {file}"
    cat = a.cat or pcol + " cat {file} --table {view} --format jsonl"
    cat_all = a.cat_all or (None if a.cat else pcol + " cat {file} --table all --format jsonl")
    cat_range = a.cat_range or pcol + " cat {file} --table {view} --from {from_} --to {to} --format jsonl"
    # the counts (NAME.counts): pcol's top, or the reader's --count
    count = a.count or (None if (a.validate or a.cat or a.cat_all or a.serve) else
                        pcol + " top {file} --value {value} --format json -n 0 --node-fraction 0")
    if a.serve and not (a.validate and (a.cat or a.cat_all) and a.cat_range):
        ap.error("--serve takes the reader's --validate, --cat or --cat-all, and --cat-range")
    served = Served(a.serve) if a.serve else None
    # the reader's commands: to its --serve process, or each a process of its own
    read = served.run if served else run
    failures, checked = [], 0
    # Each check is a few pcol processes, a.jobs at a time; results are taken
    # in manifest order, so the report is the same at any number of jobs.
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs))
    generated = pool.submit(check_generated) if a.check_generated else None
    large_dir = None
    if a.large:
        large_dir = tempfile.mkdtemp(prefix="pcol-conformance-large-")
        subprocess.run([sys.executable, os.path.join(HERE, "gen.py"), "--large", large_dir],
                       check=True)

    def check(row):  # one file's checks; returns its failures (run two at a time)
        name, verdict, rule, stage, what = row
        fails = []
        path = os.path.join(FILES, name + ".pcol")
        if not os.path.exists(path):
            if not large_dir:
                return None
            path = os.path.join(large_dir, name + ".pcol")
        label = "%s (%s%s)" % (name, verdict, "" if rule == "-" else " " + rule)
        rc, out, err = read(validate, file=path)
        if rc is None:
            return fails + ["%s: the validate command timed out" % label]
        if (rc == 0) != (verdict == "valid"):
            return fails + ["%s: validate exited %d: %s" %
                            (label, rc, err.decode("utf-8", "replace").strip())]
        if a.stages and verdict != "valid":
            rc2, _, err2 = run(pcol + " validate -q {file}", file=path)
            if (rc2 != 0) != (stage == "open"):
                fails.append("%s: stage %s, but `pcol validate` without --full exited "
                             "%d %s" % (label, stage, rc2,
                                        err2.decode("utf-8", "replace").strip()))
        vpath = os.path.join(FILES, name + ".views")
        if verdict != "valid" or not os.path.exists(vpath):
            return fails
        want = read_views(vpath)
        outs = split_all(read(cat_all, file=path)) if cat_all else None
        for view in VIEWS:
            rc, out, err = outs[view] if outs else read(cat, file=path, view=view)
            if rc != 0:
                fails.append("%s: view %s: exit %s: %s" %
                             (label, view, rc, err.decode("utf-8", "replace").strip()))
                continue
            try:
                got = out.decode("utf-8").split("\n")
            except UnicodeDecodeError as e:
                fails.append("%s: view %s is not UTF-8 (%s)" % (label, view, e))
                continue
            if got and got[-1] == "":
                got.pop()
            else:
                fails.append("%s: view %s does not end with a newline" % (label, view))
            if got != want[view]:
                k = next((i for i, (x, y) in enumerate(zip(got, want[view])) if x != y),
                         min(len(got), len(want[view])))
                fails.append("%s: view %s, line %d:\n    want %s\n    got  %s" % (
                    label, view, k + 1, want[view][k] if k < len(want[view]) else "(end)",
                    got[k] if k < len(got) else "(end)"))
        cpath = os.path.join(FILES, name + ".counts")  # the count rule, spec.md §6.11
        if count and os.path.exists(cpath):
            with open(cpath, encoding="utf-8") as fh:
                lines = fh.read().splitlines()
            for line in lines:
                value, want = line.split(" ", 1)
                rc, out, err = (read if a.count else run)(count, file=path, value=value)
                got = "refused"
                if rc == 0 and a.count:
                    got = out.decode("utf-8", "replace").strip()
                elif rc == 0:  # pcol top's JSON: the rows' flat add up to the sum
                    try:
                        d = json.loads(out)
                        got = "%d %d" % (sum(r["flat"] for r in d["rows"]), d["total"])
                    except (ValueError, KeyError, TypeError) as e:
                        got = "unreadable (%s)" % e
                if got != want:
                    fails.append("%s: counts of %s: want %s, got %s%s" % (
                        label, value, want, got, "" if rc == 0 else ": " +
                        err.decode("utf-8", "replace").strip()[:300]))
        rpath = os.path.join(FILES, name + ".ranges")  # the range rule, spec.md §7.1
        if os.path.exists(rpath):
            for key, want_rows in read_views(rpath).items():
                view, lo, hi = key.split()[1:]
                secs = lambda ns: "%d.%09d" % divmod(int(ns), 10 ** 9)
                rc, out, err = read(cat_range, file=path, view=view, from_=secs(lo), to=secs(hi))
                got = out.decode("utf-8", "replace").split("\n")[:-1] if rc == 0 else None
                if got != want_rows:
                    fails.append("%s: %s: exit %s, want %s, got %s" % (
                        label, key, rc, want_rows, got if got is not None else
                        err.decode("utf-8", "replace").strip()))
        return fails

    try:
        rows = [r for r in read_manifest() if not a.names or r[0] in a.names]
        def checked_row(row):
            try:
                return check(row)
            except SanitizerFinding as e:
                return ["%s: a sanitizer report: %s" % (row[0], e)]
            except ReaderDied as e:
                return ["%s: %s" % (row[0], e)]
        for fails in pool.map(checked_row, rows):
            if fails is not None:
                checked += 1
                failures += fails
        if generated:
            failures = generated.result() + failures
    finally:
        pool.shutdown()
        if served:
            served.close()
        if large_dir:
            shutil.rmtree(large_dir)
    for f in failures:
        print("FAIL " + f)
    print("conformance: %d files checked, %d failures" % (checked, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
