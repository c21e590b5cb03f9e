#!/usr/bin/env python3
"""chrome_threads.py PCOL JUDGE BUNDLE DIR -- Chrome traces whose pid and tid
are no plain integers (t_chrome_threads.sh), each judged by speedscope's
importer (speedscope_any_judge.cjs): pcol's sources, in order, are
speedscope's profiles -- the name (URI after "FILE: ", with process_name in
front as speedscope writes it) and per frame the self and total weight
(pcol's wall ns / 1000 = speedscope's us).

speedscope 1.25 fails on a string pid or tid that is no number's text
("Could not find events for key"); chrome://tracing and Perfetto give each
such string a thread of its own.  For those traces speedscope reads a copy
in which each such text is a distinct number (by where the text first
appears, pcol's order of those threads), and its profile names get the
texts back.  Exit 0 pass, 1 fail."""
import json, os, re, subprocess, sys

PCOL, JUDGE, BUNDLE, DIR = sys.argv[1:5]
fails = []


def X(name, pid, tid, ts, dur, **k):
    e = {"ph": "X", "name": name, "ts": ts, "dur": dur}
    if pid is not None: e["pid"] = pid
    if tid is not None: e["tid"] = tid
    e.update(k)
    return e


def M(what, pid, tid, name):
    e = {"ph": "M", "name": what, "args": {"name": name}}
    if pid is not None: e["pid"] = pid
    if tid is not None: e["tid"] = tid
    return e


ABSENT = object()
TRACES = {
    # sbt/zinc and JVM tools write thread names as tids
    "strtid.json": {"traceEvents": [
        X("compile", 1, "main", 0, 1000), X("typer", 1, "pool-1-thread-1", 100, 600),
        X("typer", 1, "pool-1-thread-2", 200, 600), X("parse", 1, "pool-1-thread-1", 150, 100),
        X("render", "app", "main", 0, 100), X("decode", "app", "worker", 10, 50),
        M("thread_name", 1, "pool-1-thread-2", "pool two")]},
    # a tid absent (and a thread_name without one: that thread's, not the process's)
    "notid.json": [X("a", 1, None, 0, 30), X("b", 1, 4, 0, 20), X("c", 1, None, 5, 10),
                   M("process_name", 1, None, "proc"), M("thread_name", 1, None, "no tid"),
                   M("thread_name", 1, 4, "")],
    # JSON reals, past int64, negative, a number's text: JavaScript's numbers
    "numtid.json": '[{"ph":"X","name":"t1work","pid":1,"tid":1.0,"ts":0,"dur":100},'
                   '{"ph":"X","name":"t2work","pid":1.0,"tid":2.0,"ts":10,"dur":50},'
                   '{"ph":"X","name":"big","pid":1,"tid":13835058055282163712,"ts":0,"dur":5},'
                   '{"ph":"X","name":"neg","pid":1,"tid":-5,"ts":0,"dur":7},'
                   '{"ph":"X","name":"neg2","pid":1,"tid":-12,"ts":0,"dur":9},'
                   '{"ph":"X","name":"seven","pid":1,"tid":7,"ts":0,"dur":9},'
                   '{"ph":"X","name":"seventxt","pid":1,"tid":"7","ts":2,"dur":3},'
                   '{"ph":"X","name":"frac","pid":1,"tid":2.5,"ts":0,"dur":4},'
                   '{"ph":"M","name":"thread_name","pid":1,"tid":2.0,"args":{"name":"two"}}]',
    # names: the last one given, an empty one none, no tid not the process
    "names.json": [M("thread_name", 1, 1, "first"), X("a", 1, 1, 0, 5), M("thread_name", 1, 1, "second"),
                   M("process_name", 1, None, "proc"), M("thread_name", 1, None, "notid-thread"),
                   M("thread_name", 1, 2, ""), X("b", 1, 2, 0, 5)],
    # a Profile event with pid and tid as JSON reals, its chunk's integers
    "profreal.json": '{"traceEvents":[{"cat":"disabled-by-default-v8.cpu_profiler","ph":"P","name":"Profile",'
                     '"pid":5.0,"tid":7.0,"ts":100,"id":"0x1","args":{"data":{"startTime":100}}},'
                     '{"ph":"P","name":"ProfileChunk","pid":5,"tid":9,"ts":200,"id":"0x1","args":{"data":'
                     '{"cpuProfile":{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","url":"","scriptId":0,'
                     '"lineNumber":-1,"columnNumber":-1}},{"id":2,"parent":1,"callFrame":{"functionName":"f",'
                     '"url":"a.js","scriptId":1,"lineNumber":0,"columnNumber":0}}],"samples":[2,2,2]},'
                     '"timeDeltas":[10,10,10]}}}]}',
}


def is_num_text(v):
    """a value JavaScript's String() writes as a number's text"""
    if isinstance(v, (int, float)) and not isinstance(v, bool): return True
    if isinstance(v, str):
        try:
            f = float(v)
        except ValueError:
            return False
        return re.fullmatch(r"-?(0|[1-9][0-9]*)", v) is not None and abs(f) < 2 ** 53
    return False


def for_speedscope(doc):
    """the copy speedscope reads, and the texts its numbers stand for"""
    ev = doc["traceEvents"] if isinstance(doc, dict) else doc
    seen, back = [{}, {}], [{}, {}]
    for e in ev:
        for i, k in enumerate(("pid", "tid")):
            v = e.get(k, ABSENT)
            if v is not ABSENT and is_num_text(v): continue
            t = "undefined" if v is ABSENT else v
            if t not in seen[i]:
                n = 1000 + len(seen[i])  # (above every number used here)
                seen[i][t] = n
                back[i][str(n)] = t
            e[k] = seen[i][t]
    return doc, back


def speedscope(path):
    with open(os.path.join(DIR, "list"), "w") as f: f.write(path + "\n")
    out = os.path.join(DIR, "rec")
    subprocess.run(["node", JUDGE, BUNDLE, os.path.join(DIR, "list"), out], check=True, capture_output=True)
    return json.loads(open(out).read())


def pcol_sources(path):
    r = subprocess.run([PCOL, "info", path], capture_output=True, text=True)
    if r.returncode: return None, r.stderr.strip()
    uris = [l.split(path + ": ", 1)[1] for l in r.stdout.splitlines() if re.match(r"source \d+:", l)]
    out = []
    for i, uri in enumerate(uris, 1):
        t = subprocess.run([PCOL, "top", path, "--source", str(i), "--format", "tsv", "-n", "1000", "--value", "wall"],
                           capture_output=True, text=True, check=True)
        frames = {}
        for l in t.stdout.splitlines()[1:]:
            c = l.split("\t")
            frames[c[5]] = [float(c[0]) / 1000, float(c[3]) / 1000]
        g = subprocess.run([PCOL, "tags", path, "--source", str(i), "--tagshow", "process_name"],
                           capture_output=True, text=True, check=True)
        pn = [l.split("): ", 1)[1] for l in g.stdout.splitlines() if "): " in l]
        out.append((uri, pn[0] if pn else None, frames))
    return out, None


def named(uri, pname):
    """speedscope's profile name of a pcol source (lf in its trace importer)"""
    if pname is None: return uri
    m = re.fullmatch(r"(.*) \(pid (.*), tid (.*)\)", uri)
    if m: return "%s (pid %s), %s (tid %s)" % (pname, m.group(2), m.group(1), m.group(3))
    m = re.fullmatch(r"pid (.*), tid (.*)", uri)
    if not m: return uri
    return "%s (pid %s, tid %s)" % (pname, m.group(1), m.group(2))


for name, doc in TRACES.items():
    path = os.path.join(DIR, name)
    text = doc if isinstance(doc, str) else json.dumps(doc)
    open(path, "w").write(text)
    ss_doc, back = for_speedscope(json.loads(text))
    ss_path = os.path.join(DIR, "ss-" + name)
    open(ss_path, "w").write(json.dumps(ss_doc))
    rec = speedscope(ss_path)
    if "error" in rec:
        fails.append("%s: speedscope: %s" % (name, rec["error"])); continue
    want = []
    for p in rec["profiles"]:
        nm = p["name"]
        if nm == "ss-" + name: nm = None  # (a CPU profile: speedscope names it by the file)
        else:
            nm = re.sub(r"\(pid (\w+)", lambda m: "(pid " + str(back[0].get(m.group(1), m.group(1))), nm)
            nm = re.sub(r"^pid (\w+)", lambda m: "pid " + str(back[0].get(m.group(1), m.group(1))), nm)
            nm = re.sub(r"tid (-?\w+)\)?$", lambda m: m.group(0).replace(m.group(1), str(back[1].get(m.group(1), m.group(1)))), nm)
        want.append((nm, {k: [v[0], v[1]] for k, v in p["frames"].items()}))
    got, err = pcol_sources(path)
    if err:
        fails.append("%s: pcol: %s" % (name, err)); continue
    if len(got) != len(want):
        fails.append("%s: pcol has %d sources %r, speedscope %d profiles %r" %
                     (name, len(got), [g[0] for g in got], len(want), [w[0] for w in want])); continue
    for i, ((uri, pname, gf), (wn, wf)) in enumerate(zip(got, want), 1):
        if wn is not None and named(uri, pname) != wn:
            fails.append("%s: source %d is %r, speedscope's profile %r" % (name, i, named(uri, pname), wn))
        wf = {k: v for k, v in wf.items() if v[1]}
        if set(gf) != set(wf) or any(abs(gf[k][j] - wf[k][j]) > 1e-6 for k in gf for j in (0, 1)):
            fails.append("%s: source %d (%s) frames %r, speedscope %r" % (name, i, uri, gf, wf))
for f in fails: print("FAIL " + f)
print("chrome_threads: %d traces, %d failures" % (len(TRACES), len(fails)))
sys.exit(1 if fails else 0)
