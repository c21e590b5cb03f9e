#!/usr/bin/env python3
"""Large Rprof, collapsed, Perun and Chrome trace inputs for the streaming
bound of the importers said to stream (tests/bounds/t_stream_json.sh;
review 24 G4: no test checked it).  Usage: gen_big_text.py KIND OUT MB

Prints "ROWS TOTAL": the sample rows `pcol info` must count
(samples_stored) and what the value `pcol fold --value V` must add up to
(V: samples for rprof, collapsed and chrome; the Perun file's one type).
- rprof: Rprof's text, a sample a line, 64 distinct stacks 32 deep;
- collapsed: folded stacks, a line a stack and its count, the same 64;
- perun: a kperf profile (a resource a stack and its amount), the
  resource_type_map's traces and the resources most of the bytes;
- chrome: a DevTools trace, one Profile and its ProfileChunks (few nodes,
  most of the chunks' bytes samples and timeDeltas) among trace events
  (most of the bytes, as in a real trace: pcol reads and drops them)."""
import random
import sys

kind, out, mb = sys.argv[1], sys.argv[2], int(sys.argv[3])
target = mb << 20
rnd = random.Random(24)
rows = total = 0
with open(out, "w") as f:
    if kind == "rprof":
        # 32 frames a line, as deep R code is (a line ~1 KB: the bytes, not the samples)
        stacks = [" ".join('"pkg_%d::step_%d_of_the_pipeline"' % (k % 5, (i * k) % 97) for k in range(31))
                  + ' "main" \n' for i in range(64)]
        f.write("sample.interval=20000\n")
        size = 0
        while size < target:
            block = "".join(stacks[rnd.randrange(64)] for _ in range(1000))
            f.write(block)
            size += len(block)
            rows += 1000
        total = rows
    elif kind == "collapsed":
        # 64 distinct stacks, 32 frames deep, each line its own count: a
        # line a sample row (identical lines are not merged)
        stacks = [";".join("pkg_%d::step_%d_of_the_pipeline" % (k % 5, (i * k) % 97) for k in range(31))
                  + ";main" for i in range(64)]
        size = 0
        while size < target:
            lines = []
            for _ in range(1000):
                w = rnd.randint(1, 9)
                lines.append("%s %d\n" % (stacks[rnd.randrange(64)], w))
                total += w
            rows += 1000
            block = "".join(lines)
            f.write(block)
            size += len(block)
    elif kind == "perun":
        # a resource a sample: "r<i>#0", its uid one of 64 leaves, its
        # trace 4 frames of a few names, and its amount
        n = max(1, target // 190)
        f.write('{"origin": "f00dfeedf00dfeedf00dfeedf00dfeedf00dfeed",\n'
                '"header": {"type": "time", "units": {"time": "sample"}, "cmd": "./busy", "args": "", '
                '"workload": "1", "exitcode": [0]},\n'
                '"collector_info": {"name": "kperf", "params": {}},\n"postprocessors": [],\n'
                '"resource_type_map": {\n')
        amounts = [rnd.randint(1, 9) for _ in range(n)]
        for i in range(n):
            f.write('%s"r%08d#0": {"uid": "leaf_%d", "trace": [{"func": "main"}, {"func": "mid_%d"}, '
                    '{"func": "run_%d"}], "command": "busy"}' % (",\n" if i else "", i, i % 64, i % 8, i % 16))
        f.write('},\n"resources": {\n')
        for i in range(n):
            f.write('%s"r%08d#0": {"amount": [%d]}' % (",\n" if i else "", i, amounts[i]))
        f.write('},\n"models": []}\n')
        rows, total = n, sum(amounts)
    elif kind == "chrome":
        start, pid, tid = 673345194, 7564, 5906
        nodes = [{"callFrame": {"functionName": "(root)", "scriptId": 0}, "id": 1}]
        nodes_json = ['{"callFrame":{"functionName":"(root)","scriptId":0},"id":1}']
        for i in range(2, 66):
            nodes_json.append('{"callFrame":{"functionName":"fn_%d","scriptId":3,"url":"file:///srv/app.js",'
                              '"lineNumber":%d,"columnNumber":4},"id":%d,"parent":%d}' % (i, i, i, i // 2))
        f.write('{"traceEvents":[{"args":{"name":"CrRendererMain"},"cat":"__metadata","name":"thread_name",'
                '"ph":"M","pid":%d,"tid":%d,"ts":0},\n' % (pid, tid))
        f.write('{"args":{"data":{"startTime":%d}},"cat":"disabled-by-default-v8.cpu_profiler","id":"0x1",'
                '"name":"Profile","ph":"P","pid":%d,"tid":%d,"ts":%d}' % (start, pid, tid, start))
        size, chunk, ts = 0, 0, start
        run = ('{"args":{},"cat":"devtools.timeline","name":"RunTask","ph":"X","pid":%d,"tid":%d,'
               '"ts":%%d,"dur":100,"tdur":90}' % (pid, tid))
        while size < target:
            k = 500
            samples = [rnd.randint(2, 65) for _ in range(k)]
            deltas = [900 + rnd.randrange(300) for _ in range(k)]
            cpu = '{"samples":[%s]' % ",".join(map(str, samples))
            if chunk == 0:
                cpu = '{"nodes":[%s],"samples":[%s]' % (",".join(nodes_json), ",".join(map(str, samples)))
            ev = (',\n{"args":{"data":{"cpuProfile":%s},"timeDeltas":[%s]}},'
                  '"cat":"disabled-by-default-v8.cpu_profiler","id":"0x1","name":"ProfileChunk","ph":"P",'
                  '"pid":%d,"tid":99,"ts":%d}' % (cpu, ",".join(map(str, deltas)), pid, ts))
            other = "".join(",\n" + run % (ts + j) for j in range(2000))
            f.write(ev + other)
            size += len(ev) + len(other)
            ts += sum(deltas)
            rows += k
            chunk += 1
        total = rows
        f.write('],"metadata":{"source":"DevTools"}}\n')
    else:
        sys.exit("gen_big_text.py: unknown kind " + kind)
print(rows, total)
