#!/usr/bin/env python3
"""gen.py FORMAT OUT — a small profile of FORMAT made by the project, in the
shape its producer writes, and, as JSON on standard output, what every
importer must read from it (tests/contract/t_contract.py, issue 41's
contract).  The truth is computed here from what this script wrote:

  samples    the number of samples (events) written
  threads    {label key: {thread name: samples}} where the format has threads
             (names with blanks, digits and non-ASCII: "FS Broker 5906",
             "Wörker ✓ 7", as Firefox and Java name threads)
  first_ns   the first sample's time since the profile's start, and
  span_ns    the last one's (null: the format has no per-sample times)
  names      frame names the format's own viewer prints for what was written
             (every one must appear in `pcol top`)
  stated_period  [period, type, unit]: the period the file states (OTLP's
             periodType and period, a Firefox profile's meta.interval as the
             pprof export states it, Tachyon's interval, pprof's legacy heap
             sampling rate and contention sampling period), and
  period_value  a value type that is samples x that period (Tachyon's wall)

Other forms of a format (importers.tsv's gen:KIND): otlp-bin (the OTLP
message in protobuf, encoded by protoc; exit 3 without protoc),
chrome-hermes (Hermes' samples/stackFrames form), chrome-events (a trace of
duration events, ph B and E, without a CPU profile), speedscope-evented
(evented profiles), pprof-legacy*, perfetto-v8 (the chrome profiles as
Chromium writes them into a Perfetto trace; exit 3 without protoc); and pcol (the OTLP message packed by
`pcol pack`, PCOL: pcol's own format).

gen.py FORMAT OUT empty: the same profile with "run loop" named "" (an
empty function name, which the format holds: `a;;b` in collapsed text,
`""` in Rprof, a string "" in the tables of the others); truth "empty": the
frame's own name as written is "" (t_contract.py's check_empty).

gen.py FORMAT OUT nul: the same profile with a NUL (JSON's \u0000) in its
names: the frame "run\0loop", the thread "FS\0Broker 5906" (a Chrome
trace's thread_name, a speedscope profile's name), a Hermes frame's
category "Java\0Script"; a chrome-events trace's event names are its
frames' (t_contract.py's check_nul: each read whole, and back from the
format's own export).

The producer's clock does not start at 0 (perf: seconds since boot; V8: µs
on the process's monotonic clock; Firefox and OTLP: wall-clock), so an
importer that keeps it as `time_ns` fails `first_ns`/`span_ns`."""
import json, os, random, re, sys

fmt, out = sys.argv[1], sys.argv[2]
empty = sys.argv[3:] == ["empty"]
nul = sys.argv[3:] == ["nul"]
rnd = random.Random(41)
T1, T2 = "FS\0Broker 5906" if nul else "FS Broker 5906", "Wörker ✓ 7"
N = 60
# each sample: (thread, stack root first, gap to the next sample in µs)
FR = ["main", "" if empty else "run\0loop" if nul else "run loop", "compute 2", "leaf_a", "leaf_b"]
STACKS = [[0, 1, 2, 3], [0, 1, 4], [0, 2, 3], [0, 1, 2, 4]]
plan = [(T1 if i % 3 else T2, STACKS[rnd.randrange(len(STACKS))], 900 + rnd.randrange(300)) for i in range(N)]
truth = {"samples": N, "threads": {}, "first_ns": None, "span_ns": None,
         "names": ["main", "leaf_a", "leaf_b"]}


def per_thread():
    c = {}
    for t, _, _ in plan:
        c[t] = c.get(t, 0) + 1
    return c


def times_us(first):
    """sample times (µs since the start) with the first at `first`"""
    ts, t = [], first
    for _, _, gap in plan:
        ts.append(t)
        t += gap
    return ts


ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OTLP_PROTO = "opentelemetry/proto/profiles/v1development/profiles.proto"
# OTLP JSON's keys that hold text (every other string is a 64-bit number)
OTLP_TEXT = {"stringTable", "stringValue", "key", "name"}


def otlp_text(obj):
    """an OTLP JSON message in protobuf's text form (the proto's field
    names: JSON's lowerCamelCase in snake_case)"""
    out = []
    for k, v in obj.items():
        name = re.sub(r"([A-Z])", r"_\1", k).lower()
        for x in v if isinstance(v, list) else [v]:
            if isinstance(x, dict):
                out.append("%s { %s }" % (name, otlp_text(x)))
            elif isinstance(x, str) and k in OTLP_TEXT:
                out.append('%s: "%s"' % (name, "".join(chr(b) if 32 <= b < 127 and b not in (34, 92) else "\\%03o" % b
                                                        for b in x.encode())))
            else:
                out.append("%s: %s" % (name, x))
    return " ".join(out)


def encode_otlp(doc, path):
    """the message in protobuf, as protoc encodes it (exit 3 without protoc:
    the row is skipped, saying so)"""
    import shutil, subprocess
    if not shutil.which("protoc"):
        sys.exit(3)
    p = subprocess.run(["protoc", "--proto_path=" + os.path.join(ROOT, "format"),
                        "--encode=opentelemetry.proto.profiles.v1development.ProfilesData", OTLP_PROTO],
                       input=otlp_text(doc).encode(), capture_output=True)
    if p.returncode:
        sys.exit("gen.py: protoc --encode: " + p.stderr.decode(errors="replace")[:300])
    open(path, "wb").write(p.stdout)


def pack_pcol(path):
    """pcol's own format: the file at path packed by `pcol pack` (PCOL)"""
    import subprocess
    os.rename(path, path + ".json")
    subprocess.run([os.environ.get("PCOL", os.path.join(ROOT, "build/bin/pcol")), "pack", path + ".json", "-o", path],
                   check=True)
    os.unlink(path + ".json")


w = open(out, "w", encoding="utf-8", newline="\n")
if fmt == "perf":
    boot = 2574592948428  # µs since boot of the first event (Firefox's test.perf)
    ts = times_us(0)
    for (t, st, _), tu in zip(plan, ts):
        tid = 5906 if t == T1 else 7
        w.write("%s  7564/%d  %d.%06d:     1000000 cpu-clock:u: \n" % (t, tid, (boot + tu) // 10**6, (boot + tu) % 10**6))
        for k, f in enumerate(reversed(st)):
            w.write("\t    %x %s+0x%x (/usr/bin/app)\n" % (0x401000 + 16 * f, FR[f].replace(" ", "_"), k))
        w.write("\t    7f1e2215d058  (/lib/x86_64-linux-gnu/libc-2.15.so)\n\n")
    truth["threads"] = {"comm": per_thread()}
    truth["first_ns"], truth["span_ns"] = 0, ts[-1] * 1000
    truth["names"] = ["main", "leaf_a", "leaf_b", "0x00007f1e2215d058"]  # perf report's name of a symbol-less address
elif fmt == "v8":
    start = 1043530000  # µs, the process's monotonic clock
    nodes = [{"id": 1, "callFrame": {"functionName": "(root)", "scriptId": "0", "url": "", "lineNumber": -1,
                                     "columnNumber": -1}, "hitCount": 0, "children": []}]
    ids = {}
    def node(path):
        if path in ids:
            return ids[path]
        parent = node(path[:-1]) if len(path) > 1 else 1
        i = len(nodes) + 1
        f = path[-1]
        # the first frame is an anonymous function V8 knows no line of
        cf = {"functionName": "" if f == 0 else FR[f], "scriptId": "3", "url": "file:///srv/app.js",
              "lineNumber": -1 if f == 0 else 10 * f, "columnNumber": -1 if f == 0 else 4}
        nodes.append({"id": i, "callFrame": cf, "hitCount": 0, "children": []})
        nodes[parent - 1]["children"].append(i)
        ids[path] = i
        return i
    samples = [node(tuple(st)) for _, st, _ in plan]
    deltas = [1500] + [g for _, _, g in plan[:-1]]
    end = start + sum(deltas) + plan[-1][2]
    json.dump({"nodes": nodes, "startTime": start, "endTime": end, "samples": samples, "timeDeltas": deltas}, w)
    truth["first_ns"], truth["span_ns"] = 1500 * 1000, sum(deltas) * 1000
    truth["names"] = [FR[1], "leaf_a", "leaf_b"]
elif fmt in ("chrome", "perfetto-v8"):
    # a DevTools trace: per thread a Profile event (startTime on the trace's
    # clock, µs) and ProfileChunks of nodes (parent form), samples and
    # timeDeltas, sent from the sampler's thread; thread names in "M" events
    start = 673345194
    ev = [{"args": {"name": "Renderer"}, "cat": "__metadata", "name": "process_name", "ph": "M", "pid": 7564,
           "tid": 0, "ts": 0}]
    ts = times_us(1500)
    for k, name in enumerate((T1, T2)):
        tid, pid_id = (5906, "0x1") if k == 0 else (7, "0x2")
        ev.append({"args": {"name": name}, "cat": "__metadata", "name": "thread_name", "ph": "M", "pid": 7564,
                   "tid": tid, "ts": 0})
        ev.append({"args": {"data": {"startTime": start}}, "cat": "disabled-by-default-v8.cpu_profiler",
                   "id": pid_id, "name": "Profile", "ph": "P", "pid": 7564, "tid": tid, "ts": start})
        idx = [i for i, (t, _, _) in enumerate(plan) if t == name]
        ids, nodes = {(): 1}, [{"callFrame": {"functionName": "(root)", "scriptId": 0}, "id": 1}]
        samples, deltas, prev = [], [], 0
        for i in idx:
            st = tuple(plan[i][1])
            for d in range(1, len(st) + 1):
                if st[:d] not in ids:
                    ids[st[:d]] = len(nodes) + 1
                    f = st[d - 1]
                    nodes.append({"callFrame": {"functionName": FR[f], "scriptId": 3, "url": "file:///srv/app.js",
                                                "lineNumber": 10 * f, "columnNumber": 4},
                                  "id": ids[st[:d]], "parent": ids[st[:d - 1]]})
            samples.append(ids[st])
            deltas.append(ts[i] - prev)
            prev = ts[i]
        # two chunks: the second adds the nodes it needs after the first's
        half = len(samples) // 2
        for a, b, na, nb in ((0, half, 0, len(nodes) // 2), (half, len(samples), len(nodes) // 2, len(nodes))):
            ev.append({"args": {"data": {"cpuProfile": {"nodes": nodes[na:nb], "samples": samples[a:b]},
                                         "timeDeltas": deltas[a:b]}},
                       "cat": "disabled-by-default-v8.cpu_profiler", "id": pid_id, "name": "ProfileChunk",
                       "ph": "P", "pid": 7564, "tid": 99, "ts": start + 10 + b})
        ev.append({"args": {}, "cat": "devtools.timeline", "name": "RunTask", "ph": "X", "pid": 7564, "tid": tid,
                   "ts": start + 5, "dur": 100})
    if fmt == "chrome":
        json.dump({"traceEvents": ev, "metadata": {"source": "DevTools"}}, w, ensure_ascii=False)
    else:
        # the same events in a Perfetto trace, as Chromium writes them
        # (`--trace-startup` with disabled-by-default-v8.cpu_profiler;
        # doc/mappings.md §17): legacy track events of phase 'P' on each
        # thread's sequence (TrackEventDefaults' thread track), their names
        # interned, args.data's JSON in the debug annotation "data"; the
        # process and thread names in track descriptors.  A clock snapshot
        # of BOOTTIME and REALTIME only: nothing places V8's TimeTicks on
        # the trace's clock, so each profile keeps its own timeline, as in
        # the JSON trace.  Encoded by protoc (exit 3 without it).
        def q(x):
            return '"%s"' % "".join(chr(b) if 32 <= b < 127 and b not in (34, 92) else "\\%03o" % b
                                    for b in x.encode())
        pk = ["packet { trusted_packet_sequence_id: 1 timestamp: 1000 clock_snapshot { "
              "clocks { clock_id: 6 timestamp: 1000 } clocks { clock_id: 1 timestamp: 1767225600000000000 } } }",
              "packet { trusted_packet_sequence_id: 2 timestamp: 2000 track_descriptor { uuid: 50 process { "
              "pid: 7564 process_name: %s } } }" % q("Renderer")]
        seqs = {}  # tid -> its sequence id
        for e in ev:
            if e["ph"] == "M" and e["name"] == "thread_name" or e["ph"] == "P":
                if e["tid"] not in seqs:
                    sq = seqs[e["tid"]] = 10 + len(seqs)
                    pk.append("packet { trusted_packet_sequence_id: %d timestamp: 2000 incremental_state_cleared: true "
                              "trace_packet_defaults { track_event_defaults { track_uuid: %d } } "
                              "interned_data { event_names { iid: 1 name: \"Profile\" } event_names { iid: 2 name: "
                              "\"ProfileChunk\" } debug_annotation_names { iid: 1 name: \"data\" } } "
                              "track_descriptor { uuid: %d parent_uuid: 50 thread { pid: 7564 tid: %d%s } } }"
                              % (sq, 1000 + e["tid"], 1000 + e["tid"], e["tid"],
                                 " thread_name: " + q(e["args"]["name"]) if e["ph"] == "M" else ""))
            if e["ph"] == "P":
                pk.append("packet { trusted_packet_sequence_id: %d timestamp: %d sequence_flags: 2 track_event { "
                          "category_iids: 1 name_iid: %d track_uuid: 0 legacy_event { phase: 80 unscoped_id: %d } "
                          "debug_annotations { name_iid: 1 legacy_json_value: %s } } }"
                          % (seqs[e["tid"]], e["ts"] * 1000, 1 if e["name"] == "Profile" else 2, int(e["id"], 16),
                             q(json.dumps(e["args"]["data"], ensure_ascii=False))))
        import shutil, subprocess
        if not shutil.which("protoc"):
            sys.exit(3)
        pr = subprocess.run(["protoc", "--proto_path=" + os.path.join(ROOT, "format/perfetto"),
                             "--encode=perfetto.protos.Trace", "perfetto_trace.proto"],
                            input="\n".join(pk).encode(), capture_output=True)
        if pr.returncode:
            sys.exit("gen.py: protoc --encode: " + pr.stderr.decode(errors="replace")[:300])
        w.close()
        open(out, "wb").write(pr.stdout)
    truth["threads"] = {"thread_name": per_thread()}
    # each thread's profile starts at startTime; its first sample is at
    # its own first delta
    firsts = [ts[[i for i, (t, _, _) in enumerate(plan) if t == n][0]] for n in (T1, T2)]
    lasts = [ts[[i for i, (t, _, _) in enumerate(plan) if t == n][-1]] for n in (T1, T2)]
    truth["first_ns"] = [f * 1000 for f in firsts]
    truth["span_ns"] = [l * 1000 for l in lasts]
elif fmt == "chrome-hermes":
    # the samples form Hermes (React Native's sampling profiler) writes:
    # traceEvents (here the threads' names), samples (pid, tid, ts in us on
    # its clock as a string, sf the leaf's stack frame) and stackFrames
    # (id -> name, category, parent); speedscope's importer reads it
    # (sampleListToProfileGroup): a profile a thread, times since the
    # trace's first sample
    start = 673345194
    ts = times_us(0)
    tids = {T1: 5906, T2: 7}
    ev = [{"name": "process_name", "ph": "M", "cat": "__metadata", "pid": 7564, "tid": 0, "ts": 0,
           "args": {"name": "hermes"}}]
    ev += [{"name": "thread_name", "ph": "M", "cat": "__metadata", "pid": 7564, "tid": tid, "ts": 0,
            "args": {"name": name}} for name, tid in tids.items()]
    frames, ids = {}, {}
    for _, st, _ in plan:
        for d in range(1, len(st) + 1):
            if tuple(st[:d]) not in ids:
                ids[tuple(st[:d])] = k = str(len(ids) + 1)
                frames[k] = {"name": FR[st[d - 1]], "category": "Java\0Script" if nul else "JavaScript"}
                if d > 1:
                    frames[k]["parent"] = int(ids[tuple(st[:d - 1])])
    smp = [{"cpu": "-1", "name": "", "ts": str(start + tu), "pid": 7564, "tid": str(tids[t]), "weight": "1",
            "sf": int(ids[tuple(st)])} for (t, st, _), tu in zip(plan, ts)]
    json.dump({"traceEvents": ev, "samples": smp, "stackFrames": frames}, w, ensure_ascii=False)
    truth["threads"] = {"thread_name": per_thread()}
    # each thread's first and last sample, since the trace's first; the
    # sources in speedscope's order of its profiles (by pid, then tid)
    order = sorted(tids, key=tids.get)
    firsts = [ts[[i for i, (t, _, _) in enumerate(plan) if t == n][0]] for n in order]
    lasts = [ts[[i for i, (t, _, _) in enumerate(plan) if t == n][-1]] for n in order]
    truth["first_ns"] = [f * 1000 for f in firsts]
    truth["span_ns"] = [l * 1000 for l in lasts]
    truth["names"] = FR[:]
elif fmt == "chrome-events":
    # a trace of duration events only (chrome://tracing, `node
    # --trace-events`, Perfetto's JSON export): per thread, each sample's
    # frames opened root first (ph B) at its time and closed leaf first (ph
    # E) 100 us before the next one; the thread names in "M" events.
    # speedscope's trace-event importer makes each stretch of time between
    # two changes of the stack a sample (times since the trace's first ts)
    start = 673345194
    ts = times_us(0)
    tids = {T1: 5906, T2: 7}
    ev = [{"name": "thread_name", "ph": "M", "cat": "__metadata", "pid": 7564, "tid": tid, "ts": 0,
           "args": {"name": name}} for name, tid in tids.items()]
    for (t, st, gap), tu in zip(plan, ts):
        ev += [{"name": FR[f], "cat": "app", "ph": "B", "pid": 7564, "tid": tids[t], "ts": start + tu} for f in st]
        ev += [{"name": FR[f], "cat": "app", "ph": "E", "pid": 7564, "tid": tids[t], "ts": start + tu + gap - 100}
               for f in reversed(st)]
    json.dump({"traceEvents": ev, "displayTimeUnit": "ms"}, w, ensure_ascii=False)
    truth["threads"] = {"thread_name": per_thread()}
    order = sorted(tids, key=tids.get)  # (speedscope's order of its profiles: by pid, then tid)
    firsts = [[i for i, (t, _, _) in enumerate(plan) if t == n][0] for n in order]
    lasts = [[i for i, (t, _, _) in enumerate(plan) if t == n][-1] for n in order]
    truth["first_ns"] = [ts[i] * 1000 for i in firsts]
    truth["span_ns"] = [(ts[i] + plan[i][2] - 100) * 1000 for i in lasts]  # (its end: a sample lasts)
    truth["names"] = FR[:]
elif fmt == "tachyon":
    # CPython 3.15's sampling profiler binary (tests/support/tachyongen.py
    # writes it as CPython's writer does): threads are numeric ids (labels
    # `tid`), times are per-thread µs deltas from the header's start
    sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/support")
    from tachyongen import Writer
    ts = times_us(1800)
    tw = Writer(start_us=1700000000123456, interval_us=1000)
    tids = {T1: 5906, T2: 7}
    for (t, st, _), tu in zip(plan, ts):
        tw.sample(tids[t], 0, tu, 3, [("/srv/app.py", FR[f], 10 * f + 1, 4) for f in reversed(st)])
    w.close()
    open(out, "wb").write(tw.finish())
    truth["threads"] = {"tid": {str(tids[k]): v for k, v in per_thread().items()}}
    truth["first_ns"], truth["span_ns"] = ts[0] * 1000, ts[-1] * 1000
    truth["names"] = FR[:]
    # the header's interval, 1000 us: each sample's wall (CPython's own
    # report: samples x interval)
    truth["stated_period"] = [1000000, "wall", "nanoseconds"]
    truth["period_value"] = "wall"
elif fmt == "jfr":
    # a JDK Flight Recorder recording without a JVM (tests/support/gen_jfr.py;
    # tests/interop/t_jfr.sh judges real JVM recordings against `jfr print`):
    # N execution samples of the threads "main" and "wörker" in turn, sample
    # i at 25 ms x (N - i) of the chunk's 1 GHz clock after its start: each
    # thread's 20 ms samples 50 ms apart, as a JVM's with gaps between them
    # (an export that lays them end to end moves them: review 21 F1)
    import subprocess
    w.close()
    n, gap = 60, 25000000
    subprocess.run([sys.executable, __file__.rsplit("/", 2)[0] + "/support/gen_jfr.py", out, "--exec-only",
                    "--samples", str(n), "--period", "*:20 ms", "--spacing", str(gap)], check=True)
    truth["period"] = [20000000, "cpu", "nanoseconds"]  # its jdk.ActiveSetting: 20 ms a sample
    truth["samples"] = n
    truth["threads"] = {"thread_name": {"main": (n + 1) // 2, "wörker": n // 2}}
    truth["first_ns"], truth["span_ns"] = gap, gap * n
    truth["names"] = ["pkg.Main.main", "pkg.Work.run"]
elif fmt == "firefox":
    start_ms = 1700000000000.0  # wall clock, ms
    ts = times_us(2000)
    funcs = FR
    threads = []
    for k, name in enumerate((T1, T2)):
        idx = [i for i, (t, _, _) in enumerate(plan) if t == name]
        threads.append({"name": name, "processName": "app", "pid": "7564", "tid": 5906 if k == 0 else 7,
                        "samples": {"length": len(idx), "stack": [STACKS.index(plan[i][1]) * 4 + len(plan[i][1]) - 1
                                                                   for i in idx],
                                    "time": [ts[i] / 1000.0 for i in idx], "weightType": "samples"},
                        "markers": {"length": 0, "name": [], "data": [], "startTime": [], "endTime": [],
                                    "phase": [], "category": []}})
    # stack table: for each STACKS entry s, 4 rows (prefix chain), unused rows point at the root
    frame, prefix = [], []
    for s, st in enumerate(STACKS):
        for d in range(4):
            f = st[min(d, len(st) - 1)]
            frame.append(f)
            prefix.append(None if d == 0 else s * 4 + d - 1)
    doc = {"meta": {"preprocessedProfileVersion": 70, "version": 24, "interval": 1, "startTime": start_ms,
                    "categories": [{"name": "Other", "color": "grey", "subcategories": ["Other"]}],
                    "product": "contract", "processType": 0},
           "libs": [], "threads": threads,
           "shared": {"stringArray": funcs + ["app.js"],
                      "stackTable": {"length": len(frame), "frame": frame,
                                     "prefixOffset": [0 if p is None else i - p for i, p in enumerate(prefix)], "category": [0] * len(frame), "subcategory": [0] * len(frame)},
                      "frameTable": {"length": len(FR), "func": list(range(len(FR))), "line": [None] * len(FR),
                                     "column": [None] * len(FR), "category": [0] * len(FR),
                                     "subcategory": [0] * len(FR), "address": [-1] * len(FR),
                                     "inlineDepth": [0] * len(FR), "nativeSymbol": [None] * len(FR),
                                     "innerWindowID": [0] * len(FR)},
                      "funcTable": {"length": len(FR), "name": list(range(len(FR))), "source": [0] * len(FR),
                                    "lineNumber": [None] * len(FR), "columnNumber": [None] * len(FR),
                                    "isJS": [False] * len(FR), "relevantForJS": [False] * len(FR),
                                    "resource": [-1] * len(FR)},
                      "sources": {"length": 1, "filename": [len(FR)], "uuid": [None]}}}
    json.dump(doc, w, ensure_ascii=False)
    truth["threads"] = {"thread_name": per_thread()}
    truth["first_ns"], truth["span_ns"] = 2000 * 1000, ts[-1] * 1000
    truth["names"] = FR[1:3] + ["leaf_a", "leaf_b"]
    # meta.interval, 1 ms: the period of the source's time (no value of a
    # time here: cpu/nanoseconds), as the pprof export states it
    truth["stated_period"] = [1000000, "cpu", "nanoseconds"]
elif fmt in ("otlp", "otlp-bin", "pcol"):
    # otlp-bin: the same message in protobuf, encoded by protoc from its
    # text form (the upstream .proto files, format/opentelemetry); pcol:
    # the OTLP JSON packed by `pcol pack` (PCOL) into pcol's own format
    t0 = 1700000000000000000  # ns, wall clock
    ts = times_us(3000)
    # (the stated period: 10 ms of cpu, each sample's count its value)
    strs = ["", "samples", "count", "thread.name", T1, T2, "app.c"] + FR + ["cpu", "nanoseconds"]
    funcs = [{}] + [{"nameStrindex": 7 + i, "filenameStrindex": 6} for i in range(len(FR))]
    locs = [{}] + [{"address": str(4096 + 16 * i), "lines": [{"functionIndex": 1 + i, "line": str(i + 1)}]}
                   for i in range(len(FR))]
    stacks = [{}] + [{"locationIndices": [1 + f for f in reversed(st)]} for st in STACKS]
    attrs = [{}, {"keyStrindex": 3, "value": {"stringValue": T1}}, {"keyStrindex": 3, "value": {"stringValue": T2}}]
    smp = [{"stackIndex": 1 + STACKS.index(st), "values": ["1"], "attributeIndices": [1 if t == T1 else 2],
            "timestampsUnixNano": [str(t0 + tu * 1000)]} for (t, st, _), tu in zip(plan, ts)]
    doc = {"resourceProfiles": [{"resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "app"}}]},
                                 "scopeProfiles": [{"scope": {"name": "contract"}, "profiles": [
                                     {"sampleType": {"typeStrindex": 1, "unitStrindex": 2}, "timeUnixNano": str(t0),
                                      "durationNano": str((ts[-1] + 1000) * 1000), "samples": smp,
                                      "periodType": {"typeStrindex": len(strs) - 2, "unitStrindex": len(strs) - 1},
                                      "period": "10000000"}]}]}],
           "dictionary": {"mappingTable": [{}], "locationTable": locs, "functionTable": funcs, "stackTable": stacks,
                          "stringTable": strs, "attributeTable": attrs, "linkTable": [{}]}}
    json.dump(doc, w, ensure_ascii=False)
    w.close()
    if fmt == "otlp-bin":
        encode_otlp(doc, out)
    elif fmt == "pcol":
        pack_pcol(out)
    truth["threads"] = {"thread.name": per_thread()}
    truth["first_ns"], truth["span_ns"] = 3000 * 1000, ts[-1] * 1000
    truth["stated_period"] = [10000000, "cpu", "nanoseconds"]  # the message's periodType and period
elif fmt == "speedscope":
    # py-spy's shape: one sampled profile per thread, named after it; and an
    # evented profile (rbspy, Chrome's) whose clock starts at startValue
    frames = [{"name": f, "file": "app.py", "line": 10 * i + 1} for i, f in enumerate(FR)]
    profs = []
    for name in (T1, T2):
        idx = [i for i, (t, _, _) in enumerate(plan) if t == name]
        profs.append({"type": "sampled", "name": name, "unit": "none", "startValue": 0, "endValue": len(idx),
                      "samples": [plan[i][1] for i in idx], "weights": [1] * len(idx)})
    json.dump({"$schema": "https://www.speedscope.app/file-format-schema.json", "shared": {"frames": frames},
               "profiles": profs, "activeProfileIndex": 0, "exporter": "contract"}, w, ensure_ascii=False)
    truth["sources"] = {"%s: %s" % (out.rsplit("/", 1)[-1], t): c for t, c in per_thread().items()}
elif fmt == "speedscope-evented":
    # evented profiles (rbspy's, speedscope's own Chrome import): a profile
    # a thread, in microseconds on a clock that starts at startValue, each
    # sample a stretch: its frames opened root first, closed leaf first
    # before the next one (an idle gap between: a stretch a sample)
    frames = [{"name": f, "file": "app.rb", "line": 10 * i + 1} for i, f in enumerate(FR)]
    sv = 98765
    ts = times_us(sv + 1500)
    profs, firsts, lasts = [], [], []
    for name in (T1, T2):
        idx = [i for i, (t, _, _) in enumerate(plan) if t == name]
        evs = []
        for i in idx:
            st, at = plan[i][1], ts[i]
            evs += [{"type": "O", "frame": f, "at": at} for f in st]
            evs += [{"type": "C", "frame": f, "at": at + plan[i][2] - 100} for f in reversed(st)]
        profs.append({"type": "evented", "name": name, "unit": "microseconds", "startValue": sv,
                      "endValue": evs[-1]["at"] + 50, "events": evs})
        firsts.append((ts[idx[0]] - sv) * 1000)
        lasts.append((ts[idx[-1]] + plan[idx[-1]][2] - 100 - sv) * 1000)  # (its end: a sample lasts)
    json.dump({"$schema": "https://www.speedscope.app/file-format-schema.json", "shared": {"frames": frames},
               "profiles": profs, "name": "contract", "activeProfileIndex": 0, "exporter": "contract"}, w,
              ensure_ascii=False)
    truth["sources"] = {"%s: %s" % (out.rsplit("/", 1)[-1], t): c for t, c in per_thread().items()}
    truth["first_ns"], truth["span_ns"] = firsts, lasts
    truth["names"] = FR[:]
elif fmt == "collapsed":
    agg = {}
    for _, st, _ in plan:
        k = ";".join(FR[f] for f in st)
        agg[k] = agg.get(k, 0) + 1
    for k, c in sorted(agg.items()):
        w.write("%s %d\n" % (k, c))
elif fmt == "rprof":
    w.write("sample.interval=20000\n")
    for _, st, _ in plan:
        w.write(" ".join('"%s"' % FR[f] for f in reversed(st)) + " \n")
    truth["first_ns"], truth["span_ns"] = None, None  # Rprof's times: k x interval (checked as any format's)
    truth["period"] = [20000000, "sample.interval", "nanoseconds"]
elif fmt == "pprof":
    sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/support")
    from pprofgen import varint  # the project's protobuf writer
    def fld(n, wt, b):
        return varint(n << 3 | wt) + (varint(b) if wt == 0 else varint(len(b)) + b)
    strs = ["", "samples", "count", "cpu", "nanoseconds", "thread", T1, T2] + FR
    sid = {s: i for i, s in enumerate(strs)}
    msg = fld(1, 2, fld(1, 0, 1) + fld(2, 0, 2)) + fld(1, 2, fld(1, 0, 3) + fld(2, 0, 4))
    agg = {}
    for t, st, _ in plan:
        agg[(t, tuple(st))] = agg.get((t, tuple(st)), 0) + 1
    for (t, st), c in sorted(agg.items()):
        locs = b"".join(varint(1 + f) for f in reversed(st))
        msg += fld(2, 2, fld(1, 2, locs) + fld(2, 2, varint(c) + varint(c * 10000000)) +
                   fld(3, 2, fld(1, 0, sid["thread"]) + fld(2, 0, sid[t])))
    for f in range(len(FR)):
        msg += fld(4, 2, fld(1, 0, 1 + f) + fld(3, 0, 0x1000 + 16 * f) + fld(4, 2, fld(1, 0, 1 + f) + fld(2, 0, 3)))
        msg += fld(5, 2, fld(1, 0, 1 + f) + fld(2, 0, sid[FR[f]]))
    for s in strs:
        msg += fld(6, 2, s.encode())
    msg += fld(11, 2, fld(1, 0, 3) + fld(2, 0, 4)) + fld(12, 0, 10000000)
    w.close()
    open(out, "wb").write(msg)
    truth["threads"] = {"thread": per_thread()}
    truth["period"] = [10000000, "cpu", "nanoseconds"]
elif fmt == "pprof-legacy":
    # gperftools' CPUPROFILE (64-bit little-endian words): header (0, 3, 0,
    # period 10000 us, 0), a record (count 1, depth, addresses leaf first,
    # callers' return addresses) per sample, the end marker (0, 1, 0), then
    # /proc/self/maps; no byte 0x0a before the maps (the contract's stray
    # lines land in the text, where pprof ignores them)
    import struct
    ws = [0, 3, 0, 10000, 0]
    def addr(f, leaf):
        base = 0x7F1E22100000 if f == 4 else 0x401000  # leaf_b in libc
        return base + 0x20 * f + (4 if leaf else 5)
    for _, st, _ in plan:
        ws += [1, len(st)] + [addr(f, k == 0) for k, f in enumerate(reversed(st))]
    ws += [0, 1, 0]
    maps = ("00400000-00402000 r-xp 00000000 08:01 1234 /usr/bin/app\n"
            "00602000-00603000 rw-p 00002000 08:01 1234 /usr/bin/app\n"
            "7f1e22100000-7f1e22200000 r-xp 00000000 08:01 99 /lib/libc.so.6\n")
    w.close()
    open(out, "wb").write(struct.pack("<%dQ" % len(ws), *ws) + maps.encode())
    truth["period"] = [10000000, "cpu", "nanoseconds"]
    truth["names"] = ["[app]", "[libc.so.6]"]  # go tool pprof -symbolize=none's
elif fmt in ("pprof-legacy-heap", "pprof-legacy-contention", "pprof-legacy-thread"):
    # pprof's legacy text profiles (profile/legacy_profile.go): a tcmalloc
    # heap profile ("@ heap_v2/RATE", unsampled), a C++ contention profile
    # (cycles/second, sampling period), a threadz profile (a thread a
    # sample); each stack's addresses leaf first, every one a return address
    # (+ 1) but the threadz leaf's, then the memory map
    def addr(f, leaf):
        base = 0x7F1E22100000 if f == 4 else 0x401000  # leaf_b in libc
        return base + 0x20 * f + (4 if leaf and fmt.endswith("thread") else 5)
    def stk(st):
        return " ".join("0x%x" % addr(f, k == 0) for k, f in enumerate(reversed(st)))
    maps = ("00400000-00402000 r-xp 00000000 08:01 1234 /usr/bin/app\n"
            "00602000-00603000 rw-p 00002000 08:01 1234 /usr/bin/app\n"
            "7f1e22100000-7f1e22200000 r-xp 00000000 08:01 99 /lib/libc.so.6\n")
    if fmt.endswith("heap"):
        w.write("heap profile: %d: %d [%d: %d] @ heap_v2/524288\n" % (N, N * 1024, N, N * 1024))
        for _, st, _ in plan:
            w.write("     1:     1024 [     1:     1024] @ %s\n" % stk(st))
        w.write("\nMAPPED_LIBRARIES:\n" + maps)
        truth["stated_period"] = [524288, "space", "bytes"]  # heap_v2/524288: the sampling rate
    elif fmt.endswith("contention"):
        w.write("--- contentionz 1 ---\ncycles/second = 2000000000\nsampling period = 100\n"
                "ms since reset = 60000\ndiscarded samples = 0\n")
        for _, st, gap in plan:
            w.write("%10d %6d @ %s\n" % (gap * 2000, 1, stk(st)))
        w.write("--- Memory map: ---\n" + maps)
        truth["stated_period"] = [100, "contentions", "count"]  # "sampling period = 100"
    else:
        w.write("--- threadz 1 ---\n\n")
        for i, (_, st, _) in enumerate(plan):
            w.write("--- Thread %x (name: worker/%d) stack: ---\n" % (0x7f0000001000 + i, 100 + i))
            for k, f in enumerate(reversed(st)):
                w.write("  %s0x%08x: frame\n" % ("PC: " if k == 0 else "", addr(f, k == 0)))
        w.write("--- Memory map: ---\n" + maps)
    truth["names"] = ["[app]", "[libc.so.6]"]  # go tool pprof -symbolize=none's
elif fmt == "perfetto":
    # a Perfetto trace as Chrome's and traced's writers lay it out (protozero:
    # fields in the order written, the sequence id first): a clock snapshot,
    # the threads' names in a process_tree, then one sequence of StackSample
    # packets (StackSampleDefaults: source, primary descriptor in ns; frames,
    # function names and callstacks interned) whose timestamps are on the
    # trace clock (BOOTTIME, ns since boot: not 0)
    sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/support")
    from pprofgen import varint as vi  # the project's protobuf writer
    def fv(n, v):
        return vi(n << 3) + vi(v)
    def fl(n, b):
        return vi(n << 3 | 2) + vi(len(b)) + b
    boot = 3_600_000_000_000  # ns since boot of the trace's first packet
    tids = {T1: 5906, T2: 7}
    out_b = fl(1, fv(10, 1) + fv(8, boot) + fl(6, fl(1, fv(1, 6) + fv(2, boot)) + fl(1, fv(1, 1) + fv(2, 1764403200000000000 + boot))))
    tree = b"".join(fl(2, fv(1, tid) + fv(3, 300) + fl(2, t.encode())) for t, tid in tids.items())
    out_b += fl(1, fv(10, 1) + fv(8, boot + 10) + fl(2, fl(1, fv(1, 300) + fl(3, b"app")) + tree))
    dflt = fl(100, fl(1, b"gen.cpu") + fl(2, fl(2, b"cpu-time") + fv(3, 1)))
    interned = b"".join(fl(5, fv(1, 1 + k) + fl(2, FR[k].encode())) + fl(6, fv(1, 1 + k) + fv(2, 1 + k))
                        for k in range(len(FR)))
    interned += b"".join(fl(7, fv(1, 1 + k) + b"".join(fv(2, 1 + f) for f in st)) for k, st in enumerate(STACKS))
    out_b += fl(1, fv(10, 2) + fv(41, 1) + fv(8, boot + 20) + fl(59, dflt) + fl(12, interned))
    ts, t = [], boot + 500_000
    for th, st, gap in plan:
        smp = fl(1, fv(2, 300) + fv(3, tids[th])) + fv(6, 1 + STACKS.index(st)) + fv(11, gap * 1000)
        out_b += fl(1, fv(10, 2) + fv(13, 2) + fv(8, t) + vi(135 << 3 | 2) + vi(len(smp)) + smp)
        ts.append(t - boot)
        t += gap * 1000
    w.close()
    open(out, "wb").write(out_b)
    truth["threads"] = {"thread_name": per_thread()}
    truth["first_ns"], truth["span_ns"] = ts[0], ts[-1]
else:
    sys.exit("gen.py: no generator for %s" % fmt)
w.close()
if empty:
    truth["empty"] = True
    truth["names"] = [n for n in truth["names"] if n not in ("run loop", "")]
json.dump(truth, sys.stdout, ensure_ascii=False)
