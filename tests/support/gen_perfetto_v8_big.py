#!/usr/bin/env python3
"""A large Perfetto trace of Chromium's V8 CPU profile form for the
streaming bound of its importer (tests/bounds/t_stream_json.sh kind
perfetto-v8).  Usage: gen_perfetto_v8_big.py OUT MB [FILL]

The form of tests/contract/gen.py perfetto-v8 (Chromium's `--trace-startup`
with disabled-by-default-v8.cpu_profiler; doc/mappings.md §17): legacy
track events of phase 'P' named "Profile" and "ProfileChunk" (interned
names) on a thread's sequence, args.data's JSON in the debug annotation
"data"; one Profile, then ProfileChunks of 1,000 samples (the nodes, 64,
in the first) each followed by FILL (25) instant "RunTask" events of a 4 KB
annotation (most of the bytes, as other events are in a real trace: pcol
reads and drops them), up to MB MiB.  Encoded by protoc (exit 3 without it):
the packets once each, the filler event's bytes repeated.

Prints "ROWS TOTAL WALL": the sample rows `pcol info` must count, what
`pcol fold --value samples` must add up to (one a sample) and `--value
wall` (ns: each sample's time to the next, the last's 0, so the deltas
after the first, across the chunks)."""
import os
import random
import shutil
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
out, mb = sys.argv[1], int(sys.argv[2])
FILL = int(sys.argv[3]) if len(sys.argv) > 3 else 25
if not shutil.which("protoc"):
    sys.exit(3)
rnd = random.Random(43)


def enc(packets):
    r = subprocess.run(["protoc", "--proto_path=" + os.path.join(ROOT, "format/perfetto"),
                        "--encode=perfetto.protos.Trace", "perfetto_trace.proto"],
                       input="\n".join(packets).encode(), capture_output=True)
    if r.returncode:
        sys.exit("gen_perfetto_v8_big.py: protoc --encode: " + r.stderr.decode(errors="replace")[:300])
    return r.stdout


def ev(ts, iid, data):  # a legacy 'P' event of profile 0x1, its JSON a text-format string
    return ('packet { trusted_packet_sequence_id: 10 timestamp: %d sequence_flags: 2 track_event { '
            'category_iids: 1 name_iid: %d track_uuid: 0 legacy_event { phase: 80 unscoped_id: 1 } '
            'debug_annotations { name_iid: 1 legacy_json_value: "%s" } } }'
            % (ts, iid, data.replace("\\", "\\\\").replace('"', '\\"')))


start, K = 673345194, 1000
nodes = ['{"callFrame":{"functionName":"(root)","scriptId":0},"id":1}']
for i in range(2, 66):
    nodes.append('{"callFrame":{"functionName":"fn_%d","scriptId":3,"url":"file:///srv/app.js",'
                 '"lineNumber":%d,"columnNumber":4},"id":%d,"parent":%d}' % (i, i, i, i // 2))
head = [
    "packet { trusted_packet_sequence_id: 1 timestamp: 1000 clock_snapshot { "
    "clocks { clock_id: 6 timestamp: 1000 } clocks { clock_id: 1 timestamp: 1767225600000000000 } } }",
    "packet { trusted_packet_sequence_id: 2 timestamp: 2000 track_descriptor { uuid: 50 process { "
    "pid: 7564 process_name: \"Renderer\" } } }",
    "packet { trusted_packet_sequence_id: 10 timestamp: 2000 incremental_state_cleared: true "
    "trace_packet_defaults { track_event_defaults { track_uuid: 6906 } } "
    "interned_data { event_names { iid: 1 name: \"Profile\" } event_names { iid: 2 name: \"ProfileChunk\" } "
    "event_names { iid: 3 name: \"RunTask\" } debug_annotation_names { iid: 1 name: \"data\" } } "
    "track_descriptor { uuid: 6906 parent_uuid: 50 thread { pid: 7564 tid: 5906 "
    "thread_name: \"CrRendererMain\" } } }",
    ev(start * 1000, 1, '{"startTime":%d}' % start)]
fill = enc(['packet { trusted_packet_sequence_id: 10 timestamp: %d sequence_flags: 2 track_event { '
            'type: TYPE_INSTANT category_iids: 1 name_iid: 3 debug_annotations { name_iid: 1 string_value: "%s" } } }'
            % ((start + 1) * 1000, "x" * 4000)]) * FILL
# how many chunks: each ~6 KB of its own and the filler's bytes
chunks = max(1, (mb << 20) // (len(fill) + 6 * K))
pk, ts, wall = list(head), start, 0
for c in range(chunks):
    samples = [rnd.randint(2, 65) for _ in range(K)]
    deltas = [900 + rnd.randrange(300) for _ in range(K)]
    cpu = '"samples":[%s]' % ",".join(map(str, samples))
    if c == 0:
        cpu = '"nodes":[%s],%s' % (",".join(nodes), cpu)
    pk.append(ev(ts * 1000, 2, '{"cpuProfile":{%s},"timeDeltas":[%s]}' % (cpu, ",".join(map(str, deltas)))))
    ts += sum(deltas)
    wall += sum(deltas) - (deltas[0] if c == 0 else 0)
# the packets encoded once, each chunk's then written with the filler after it
body = enc(pk)
# (a Trace is its packets one after another: split it back into them)
def packets(b):
    i = 0
    while i < len(b):
        j, n, s = i + 1, 0, 0
        while True:
            n |= (b[j] & 0x7f) << s
            s += 7
            j += 1
            if not b[j - 1] & 0x80:
                break
        yield b[i:j + n]
        i = j + n
ps = list(packets(body))
with open(out, "wb") as w:
    for p in ps[:len(head)]:
        w.write(p)
    for p in ps[len(head):]:
        w.write(p)
        w.write(fill)
print(chunks * K, chunks * K, wall * 1000)
