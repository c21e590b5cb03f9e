#!/usr/bin/env python3
"""otlp_zero_labels.py OUT [--empty]: an OTLP/JSON profile whose samples
carry numeric labels of the value 0 without a unit, which a pprof file
cannot hold as they are (go tool pprof's postDecode drops a label of num 0
and no num_unit): `pcol unpack --to pprof` must write them so that go tool
pprof reads them (tests/interop/t_tags_unit.sh, tests/cli/t_pprof.sh).

One profile of samples/count, six samples on main>work and main, each of
its own value (1, 2, 4, ... : a sum names its samples) and label set:
  cpu      0, 1, 2 without a unit (pprof names it by the key), one sample
           with two values (0 and 1)
  request  0 and 2048 without a unit (pprof's unit for the key: bytes)
  mem      1536 in bytes, 0 without a unit (the key's unit: bytes)
  name     "x"; with --empty also "" on one sample (a string label "" is
           index 0 of a pprof string table: no label to pprof)
"""
import json
import sys

out = sys.argv[1]
empty = "--empty" in sys.argv[2:]
S = ["", "samples", "count", "main", "work", "cpu", "request", "mem", "bytes", "name", "x"]
ix = {s: i for i, s in enumerate(S)}


def num(k, v, unit=None):
    a = {"keyStrindex": ix[k], "value": {"intValue": str(v)}}
    if unit:
        a["unitStrindex"] = ix[unit]
    return a


attrs = [{},
         num("cpu", 0), num("cpu", 1), num("cpu", 2),               # 1-3
         num("request", 0), num("request", 2048),                   # 4-5
         num("mem", 1536, "bytes"), num("mem", 0),                  # 6-7
         {"keyStrindex": ix["name"], "value": {"stringValue": "x"}},  # 8
         {"keyStrindex": ix["name"], "value": {"stringValue": ""}}]   # 9
labels = [[1, 4, 8], [2, 5, 6], [3, 7], [1, 2], [1, 6], [7, 4]]
if empty:
    labels[2] = labels[2] + [9]
samples = [{"stackIndex": 1 + i % 2, "attributeIndices": a, "values": [str(1 << i)]}
           for i, a in enumerate(labels)]
doc = {
    "dictionary": {
        "mappingTable": [{}],
        "locationTable": [{}, {"lines": [{"functionIndex": 1}]}, {"lines": [{"functionIndex": 2}]}],
        "functionTable": [{}, {"nameStrindex": ix["main"]}, {"nameStrindex": ix["work"]}],
        "stackTable": [{}, {"locationIndices": [2, 1]}, {"locationIndices": [1]}],
        "stringTable": S,
        "attributeTable": attrs,
    },
    "resourceProfiles": [{"scopeProfiles": [{"profiles": [{
        "sampleType": {"typeStrindex": ix["samples"], "unitStrindex": ix["count"]},
        "timeUnixNano": "1700000000000000000",
        "samples": samples}]}]}],
}
with open(out, "w") as f:
    json.dump(doc, f)
    f.write("\n")
