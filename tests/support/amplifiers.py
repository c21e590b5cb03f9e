#!/usr/bin/env python3
"""Crafted amplifiers: small inputs that ask for much more output, memory or
time than their own bytes (issue 42 O1; tests/bounds/t_bounds.sh,
bench/amplify.sh).  Usage: amplifiers.py KIND OUT [N]
  name     OUT.json.gz: one OTLP/JSON line, a function whose name is N MiB
           (default 31) on a 64-deep stack (31.9 KB of gzip for 31 MiB)
  name-time  the same, its value 10 ms of cpu/nanoseconds (for the exports
           that weigh samples by a time: unpack --to v8, chrome)
  chain    OUT.json: a speedscope evented profile of N (default 100,000)
           nested opens of one frame: N stacks, sum of depths N^2/2
  sources  OUT.json.gz: N (default 120,000) one-sample OTLP/JSON requests,
           one source each (every other one cpu/nanoseconds)"""
import gzip
import sys

kind, out = sys.argv[1], sys.argv[2]
n = int(sys.argv[3]) if len(sys.argv) > 3 else None


def otlp_line(fname, depth, stype="samples", sunit="count", value=1):
    return ('{"dictionary":{"locationTable":[{},{"lines":[{"functionIndex":1}]}],'
            '"functionTable":[{},{"nameStrindex":3}],"stackTable":[{},{"locationIndices":[%s]}],'
            '"stringTable":["","%s","%s","%s"]},"resourceProfiles":[{"scopeProfiles":[{"profiles":'
            '[{"sampleType":{"typeStrindex":1,"unitStrindex":2},"samples":[{"stackIndex":1,'
            '"values":["%d"]}]}]}]}]}\n' % (",".join(["1"] * depth), stype, sunit, fname, value))


if kind == "name":
    with gzip.open(out, "wt", 9) as g:
        g.write(otlp_line("f" * ((n or 31) << 20), 64))
elif kind == "name-time":
    with gzip.open(out, "wt", 9) as g:
        g.write(otlp_line("f" * ((n or 31) << 20), 64, "cpu", "nanoseconds", 10000000))
elif kind == "chain":
    n = n or 100000
    ev = ['{"type":"O","frame":0,"at":%d}' % i for i in range(n)]
    ev += ['{"type":"C","frame":0,"at":%d}' % (n + i) for i in range(n)]
    with open(out, "w") as f:
        f.write('{"$schema":"https://www.speedscope.app/file-format-schema.json",'
                '"shared":{"frames":[{"name":"f"}]},"profiles":[{"type":"evented","name":"chain",'
                '"unit":"none","startValue":0,"endValue":%d,"events":[%s]}]}' % (2 * n, ",".join(ev)))
elif kind == "sources":
    pair = otlp_line("main", 1) + otlp_line("main", 1, "cpu", "nanoseconds")
    with gzip.open(out, "wt", 6) as g:
        for _ in range((n or 120000) // 2):
            g.write(pair)
else:
    sys.exit("amplifiers.py: unknown kind " + kind)
