#!/usr/bin/env python3
"""A large V8 .cpuprofile or speedscope file for the streaming-import bound
(tests/bounds/t_stream_json.sh).  Usage: gen_big_json.py v8|speedscope OUT MB

Prints "samples WEIGHT_TOTAL" (what `pcol fold` must add up to).
- v8: most of the bytes are the nodes' positionTicks (DevTools writes them;
  pcol skips them), then samples and timeDeltas;
- speedscope: "profiles" before "shared" (py-spy's key order), most of the
  bytes a sampled profile's stacks (few distinct ones) and weights.
"""
import random
import sys

kind, out, mb = sys.argv[1], sys.argv[2], int(sys.argv[3])
target = mb << 20
rnd = random.Random(29)
with open(out, 'w') as f:
    if kind == 'v8':
        n_nodes, n_samples = 4000, 300000
        ticks = ",".join('{"line":%d,"ticks":%d}' % (l, l % 97 + 1) for l in range(40))
        per_node = target // n_nodes
        reps = max(1, per_node // (len(ticks) + 1))
        big = ",".join([ticks] * reps)
        f.write('{"nodes":[')
        for i in range(1, n_nodes + 1):
            kids = [c for c in (2 * i, 2 * i + 1) if c <= n_nodes]
            f.write('%s{"id":%d,"callFrame":{"functionName":"%s","scriptId":"1","url":"file:///app/m%d.js",'
                    '"lineNumber":%d,"columnNumber":4},"hitCount":0,"children":%s,"positionTicks":[%s]}'
                    % ("," if i > 1 else "", i, "(root)" if i == 1 else "fn_%d" % i, i % 7, i, kids, big))
        samples = [rnd.randint(2, n_nodes) for _ in range(n_samples)]
        f.write('],"startTime":1000,"endTime":999999999,"samples":[%s],"timeDeltas":[%s]}'
                % (",".join(map(str, samples)), ",".join(str(rnd.randint(90, 1100)) for _ in samples)))
        print(n_samples, n_samples)
    else:
        n_frames = 2000
        stacks = ['[' + ','.join(str(rnd.randrange(n_frames)) for _ in range(rnd.randint(5, 40))) + ']'
                  for _ in range(5000)]
        f.write('{"$schema":"https://www.speedscope.app/file-format-schema.json","profiles":[{"type":"sampled",'
                '"name":"big","unit":"none","startValue":0,"endValue":1,"samples":[')
        n = 0
        while f.tell() < target * 0.95:
            f.write(("," if n else "") + ",".join(rnd.choice(stacks) for _ in range(10000)))
            n += 10000
        f.write('],"weights":[' + ",".join(["3"] * n) + ']}],"shared":{"frames":[')
        f.write(",".join('{"name":"f%d","file":"x%d.py","line":%d}' % (i, i % 9, i) for i in range(n_frames)))
        f.write(']},"activeProfileIndex":0,"exporter":"gen_big_json.py"}')
        print(n, 3 * n)
