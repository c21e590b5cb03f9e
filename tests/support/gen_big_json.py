#!/usr/bin/env python3
"""A large V8 .cpuprofile, speedscope, Firefox profile or OTLP/JSON lines
file for the streaming-import bound (tests/bounds/t_stream_json.sh).
Usage: gen_big_json.py v8|speedscope|firefox|otlp|otlp-line OUT MB

Prints "samples WEIGHT_TOTAL" (what `pcol fold` must add up to).
- v8: most of the bytes are the nodes' positionTicks (DevTools writes them;
  pcol skips them), then samples and timeDeltas;
- speedscope: "profiles" before "shared" (py-spy's key order), most of the
  bytes a sampled profile's stacks (few distinct ones) and weights;
- firefox: a processed profile (version 70) with its keys in the order that
  makes a reader wait: threads first, then shared (the tables the samples
  index), then meta (the version); most of the bytes are the threads'
  markers (as in profiles from Firefox), which pcol counts, not keeps;
- otlp: OTLP/JSON lines, one ProfilesData a line (the Collector's file
  exporter), each with a large dictionary (the same on every line) and 3
  samples;
- otlp-line: one OTLP/JSON line whose bytes are most one Profile's samples.
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
    elif kind == 'firefox':
        n_funcs, n_stacks, n_threads, per_thread = 2000, 5000, 2, 150000
        f.write('{"threads":[')
        marker = '{"type":"Text","name":"%s"}' % ("a marker's text, as long as a real one is " * 3)
        n_markers = max(1, int(target * 0.96) // n_threads // (len(marker) + 1))
        total = 0
        for t in range(n_threads):
            stacks = [rnd.randrange(n_stacks) for _ in range(per_thread)]
            weights = [rnd.randint(1, 3) for _ in range(per_thread)]
            total += sum(weights)
            f.write('%s{"name":"T%d","tid":%d,"pid":"7","samples":{"length":%d,"stack":[%s],"time":[%s],'
                    '"weight":[%s],"weightType":"samples"},"markers":{"length":%d,"name":[%s],"data":['
                    % ("," if t else "", t, t + 1, per_thread, ",".join(map(str, stacks)),
                       ",".join("%.3f" % (i * 0.25) for i in range(per_thread)), ",".join(map(str, weights)),
                       n_markers, ",".join(["0"] * n_markers)))
            for k in range(0, n_markers, 10000):
                f.write(("," if k else "") + ",".join([marker] * min(10000, n_markers - k)))
            f.write(']}}')
        # stack s: frame s % n_funcs under stack s // 2 (a tree), prefixOffset = s - parent
        offs = [0] + [s - s // 2 for s in range(1, n_stacks)]
        f.write('],"shared":{"stringArray":[%s],"stackTable":{"length":%d,"frame":[%s],"prefixOffset":[%s]},'
                '"frameTable":{"length":%d,"func":[%s],"line":[%s],"column":[%s],"category":[%s]},'
                '"funcTable":{"length":%d,"name":[%s],"source":[%s],"lineNumber":[%s]},'
                '"sources":{"length":1,"filename":[%d]}},'
                % (",".join('"fn_%d"' % i for i in range(n_funcs)) + ',"app.js"', n_stacks,
                   ",".join(str(s % n_funcs) for s in range(n_stacks)), ",".join(map(str, offs)),
                   n_funcs, ",".join(map(str, range(n_funcs))), ",".join(["3"] * n_funcs),
                   ",".join(["null"] * n_funcs), ",".join(["0"] * n_funcs),
                   n_funcs, ",".join(map(str, range(n_funcs))), ",".join(["0"] * n_funcs),
                   ",".join(["1"] * n_funcs), n_funcs))
        f.write('"meta":{"preprocessedProfileVersion":70,"version":24,"interval":1,"startTime":1700000000000,'
                '"categories":[{"name":"Other","color":"grey","subcategories":["Other"]}]},"libs":[]}')
        print(n_threads * per_thread, total)
    elif kind == 'otlp':
        # one ProfilesData a line, as the Collector's file exporter writes
        # them: each with the whole dictionary of the program (most of the
        # bytes; the same on every line) and 3 samples, values 1..3
        n_funcs = 1500
        strs = ",".join(['""', '"samples"', '"count"', '"app.c"'] + ['"ns::Class::method_%d"' % i for i in range(n_funcs)])
        funcs = ",".join(['{}'] + ['{"nameStrindex":%d,"filenameStrindex":3,"startLine":"%d"}' % (4 + i, i)
                                   for i in range(n_funcs)])
        locs = ",".join(['{}'] + ['{"address":"%d","lines":[{"functionIndex":%d,"line":"%d"}]}' % (4096 + 16 * i, 1 + i, i)
                                  for i in range(n_funcs)])
        stacks = '{},{"locationIndices":[3,2,1]},{"locationIndices":[2,1]},{"locationIndices":[1]}'
        n = total = 0
        while f.tell() < target:
            t = 1700000000000000000 + n * 1000000
            smp = ",".join('{"stackIndex":%d,"values":["%d"],"timestampsUnixNano":["%d"]}' % (k, k, t + k)
                           for k in (1, 2, 3))
            f.write('{"resourceProfiles":[{"resource":{"attributes":[{"key":"service.name","value":'
                    '{"stringValue":"app"}}]},"scopeProfiles":[{"scope":{"name":"gen"},"profiles":[{"sampleType":'
                    '{"typeStrindex":1,"unitStrindex":2},"timeUnixNano":"%d","durationNano":"1000000",'
                    '"samples":[%s]}]}]}],"dictionary":{"mappingTable":[{}],"locationTable":[%s],'
                    '"functionTable":[%s],"stackTable":[%s],"stringTable":[%s],"attributeTable":[{}],'
                    '"linkTable":[{}]}}\n' % (t, smp, locs, funcs, stacks, strs))
            n += 3
            total += 6
        print(n, total)
    elif kind == 'otlp-line':
        # one ProfilesData on one line, most of its bytes one Profile's
        # samples (each a stack of 2,000, a value 1..3, a timestamp)
        nf = 500
        strs = ",".join(['""', '"samples"', '"count"', '"app.c"'] + ['"fn_%d"' % i for i in range(nf)])
        funcs = ",".join(['{}'] + ['{"nameStrindex":%d,"filenameStrindex":3,"startLine":"%d"}' % (4 + i, i)
                                   for i in range(nf)])
        locs = ",".join(['{}'] + ['{"address":"%d","lines":[{"functionIndex":%d,"line":"%d"}]}'
                                  % (4096 + 16 * i, 1 + i, i) for i in range(nf)])
        stacks = ",".join(['{}'] + ['{"locationIndices":[%s]}' % ",".join(str(rnd.randrange(1, nf + 1))
                                                                        for _ in range(rnd.randint(3, 20)))
                                    for _ in range(2000)])
        t0 = 1700000000000000000
        f.write('{"resourceProfiles":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":'
                '"app"}}]},"scopeProfiles":[{"scope":{"name":"gen"},"profiles":[{"sampleType":{"typeStrindex":1,'
                '"unitStrindex":2},"timeUnixNano":"%d","durationNano":"1000000000","samples":[' % t0)
        n = total = 0
        while f.tell() < target:
            f.write(",".join('{"stackIndex":%d,"values":["%d"],"timestampsUnixNano":["%d"]}'
                             % (rnd.randrange(1, 2001), 1 + (n + k) % 3, t0 + (n + k) * 100)
                             for k in range(10000)) + ",")
            total += sum(1 + (n + k) % 3 for k in range(10000))
            n += 10000
        f.seek(f.tell() - 1)  # the last comma
        f.write(']}]}]}],"dictionary":{"mappingTable":[{}],"locationTable":[%s],"functionTable":[%s],'
                '"stackTable":[%s],"stringTable":[%s],"attributeTable":[{}],"linkTable":[{}]}}\n'
                % (locs, funcs, stacks, strs))
        print(n, total)
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
