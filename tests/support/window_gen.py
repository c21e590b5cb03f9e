#!/usr/bin/env python3
"""window_gen.py OUT_DIR T0 — writes speedscope files whose profiles state
their wall-clock window (pcolStart, pcolDuration) and are sampled all
through it, for the header of a time range (spec.md §7 "Recordings";
tests/cli/t_range_header.sh, tests/interop/t_pprof_header.sh).  Each
profile is evented, main;a and main;b by turns, 10 ms each (wall time in
ns: a range's total is the length of it the profile covers).  T0 is in
seconds since the epoch:
  one.json    one profile, [T0, T0+4 s)
  later.json  one profile, [T0+100 s, T0+102 s)
  rec.json    one recording of two parts (pcolRecordingPart 1, 2):
              [T0, T0+2 s) and [T0+1 s, T0+4 s)
  short.json  one profile, [T0, T0+1 s)
  sparse.json one profile, [T0+200 s, T0+204 s), sampled in its first 1 s only
  overrun.json one profile stating [T0+50 s, T0+51 s), sampled for 3 s: rows
              past the duration it states"""
import json, sys

S = 10**9


def prof(name, start, dur, part=None, step=10**7):
    ev, t, i = [{"type": "O", "frame": 0, "at": 0}], 0, 0
    while t < dur:
        f = 1 + i % 2
        ev += [{"type": "O", "frame": f, "at": t}, {"type": "C", "frame": f, "at": t + step}]
        t, i = t + step, i + 1
    ev.append({"type": "C", "frame": 0, "at": dur})
    p = {"type": "evented", "name": name, "unit": "nanoseconds", "startValue": 0, "endValue": dur,
         "events": ev, "pcolStart": start, "pcolDuration": dur}
    if part:
        p["pcolRecordingPart"] = part
    return p


def write(path, profiles):
    with open(path, "w") as f:
        json.dump({"$schema": "https://www.speedscope.app/file-format-schema.json",
                   "shared": {"frames": [{"name": "main"}, {"name": "a"}, {"name": "b"}]},
                   "profiles": profiles}, f)


def main():
    out, t0 = sys.argv[1], int(sys.argv[2]) * S
    write(out + "/one.json", [prof("one", t0, 4 * S)])
    write(out + "/later.json", [prof("later", t0 + 100 * S, 2 * S)])
    write(out + "/rec.json", [prof("p1", t0, 2 * S, 1), prof("p2", t0 + S, 3 * S, 2)])
    write(out + "/short.json", [prof("short", t0, 1 * S)])
    sparse = prof("sparse", t0 + 200 * S, 1 * S)
    sparse["pcolDuration"] = sparse["endValue"] = 4 * S
    write(out + "/sparse.json", [sparse])
    overrun = prof("overrun", t0 + 50 * S, 3 * S)
    overrun["pcolDuration"] = 1 * S
    write(out + "/overrun.json", [overrun])


if __name__ == "__main__":
    main()
