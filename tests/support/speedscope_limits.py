#!/usr/bin/env python3
"""speedscope_limits.py DIR — speedscope files of numbers at the limits
(tests/cli/t_json_whole.sh, tests/interop/t_import_judged.sh).

Writes DIR/NAME.json for each case and prints a line per case, tab-separated:
NAME, what pcol reads, the scale of pcol's unit to speedscope's, how
t_import_judged.sh judges it: "-" by judge_compare.py (per function, self
and total), "self" its self weights only (speedscope's call timeline adds
doubles: a call from 2^53 to 2^53 + 1 lasts 0 there), "6" each function's
self weight to six significant digits (THE kept rule, pcol_decimal_kept: a
third held to 9 decimals), "total" the profile's total to a millionth, read
with pcol's one warning of the amounts rounded (1e-7 beside 1e15, 1e-12
beside 1: held as 0, pcol_kept_verdict).  What pcol
reads: `pcol fold`'s lines joined by '|' (each stack's weight in pcol's
unit: a time in ns, a fraction in its decimal unit "1e-D"), which are
speedscope's frame weights (JSON.parse reads each number as a double: 2^53 +
1 is 2^53; an evented profile's times count from startValue, any number) x
the scale; or "refused: WORDS", the error pcol names the file and the place
with (a number speedscope reads too but pcol cannot hold to six significant
digits, or that speedscope itself refuses or reads as NaN).

The numbers are written as JSON text, as they are (exponent form, a trailing
".0", a string "NaN"): a sampled profile's weights, an evented one's at and
startValue; frames main, a, b, stacks main;a and main;b.
"""
import json, os, sys

d = sys.argv[1]
FRAMES = json.dumps([{"name": "main"}, {"name": "a"}, {"name": "b"}])


def doc(p):
    return ('{"$schema":"https://www.speedscope.app/file-format-schema.json","shared":{"frames":%s},'
            '"profiles":[%s]}' % (FRAMES, p))


def sampled(unit, w1, w2):
    return doc('{"type":"sampled","name":"p","unit":"%s","startValue":0,"endValue":10,'
               '"samples":[[0,1],[0,2]],"weights":[%s,%s]}' % (unit, w1, w2))


def evented(unit, sv, a1, a2, a0=None):  # main open at a0 (startValue), a from a1 to a2, both closed at a2
    return doc('{"type":"evented","name":"p","unit":"%s","startValue":%s,"endValue":%s,"events":['
               '{"type":"O","frame":0,"at":%s},{"type":"O","frame":1,"at":%s},'
               '{"type":"C","frame":1,"at":%s},{"type":"C","frame":0,"at":%s}]}' % (unit, sv, a2, sv if a0 is None else a0, a1, a2, a2))


NOT6 = "is not held to six significant digits"
CASES = [
    ("s-2p53", sampled("none", "9007199254740992", "1"), "main;a 9007199254740992|main;b 1", 1),
    ("s-2p53p1", sampled("none", "9007199254740993", "1"), "main;a 9007199254740992|main;b 1", 1),
    ("s-2p53-frac", sampled("none", "9007199254740992.0", "0.5"), "main;a 9007199254740992|main;b 0.5", 1),
    ("s-1e300", sampled("none", "1e300", "1"), "refused: profiles[0].weights[0]: a weight out of range", 1),
    ("s-2p63", sampled("none", "9223372036854775808", "1"), "refused: invalid JSON: too big integer", 1),
    ("s-m0.5", sampled("none", "-0.5", "1"), "refused: profiles[0].weights[0]: not a weight >= 0", 1),
    ("s-1.5", sampled("none", "1.5", "1"), "main;a 1.5|main;b 1", 1),
    ("s-1.5ms", sampled("milliseconds", "1.5", "1"), "main;a 1500000|main;b 1000000", 1000000),
    ("s-exp", sampled("bytes", "1e3", "2.5e-1"), "main;a 1000|main;b 0.25", 1),
    ("s-third", sampled("none", "0.3333333333333333", "0.25"), "main;a 0.333333333|main;b 0.25", 1),
    ("s-nan", sampled("none", '"NaN"', "1"), "refused: profiles[0].weights[0]: not a weight >= 0", 1),
    ("s-tiny", sampled("none", "1e-12", "1e-12"), "refused: profiles[0].weights[0]: the weight 1e-12 " + NOT6, 1),
    ("s-bigsmall", sampled("none", "1e15", "1e-7"), "main;a 1000000000000000", 1),
    ("s-beside1", sampled("none", "1", "1e-12"), "main;a 1", 1),
    ("s-bigsmall-ok", sampled("none", "1e12", "0.3"), "main;a 1000000000000|main;b 0.3", 1),
    ("e-1.5", evented("milliseconds", "0", "1.5", "3.25"), "main 1500000|main;a 1750000", 1000000),
    ("e-2p53", evented("nanoseconds", "0", "9007199254740992", "9007199254740994"), "main 9007199254740992|main;a 2", 1),
    ("e-sv-m0.5", evented("milliseconds", "-0.5", "0.5", "1.5"), "main 1000000|main;a 1000000", 1000000),
    ("e-sv-1e19", evented("nanoseconds", "1e19", "1.0000000000000002048e19", "1.0000000000000004096e19"), "main 2048|main;a 2048", 1),
    ("e-at-1e300", evented("milliseconds", "0", "1", "1e300"), "refused: profiles[0].events[2]: time out of range", 1),
    ("e-sv-nan", evented("milliseconds", '"NaN"', "1", "2", "0"), "refused: profiles[0].startValue: not a number", 1),
    ("e-tiny", evented("seconds", "0", "1e-15", "2e-15"),
     "refused: profiles[0].events[1]: the stretch of 1e-15 seconds " + NOT6, 1),
]
for name, text, want, scale in CASES:
    with open(os.path.join(d, name + ".json"), "w") as f:
        f.write(text)
    judge = ("6" if name == "s-third" else "self" if name.startswith("s-2p53") else
             "total" if name in ("s-bigsmall", "s-beside1") else "-")
    print("%s\t%s\t%s\t%s" % (name, want, scale, judge))
