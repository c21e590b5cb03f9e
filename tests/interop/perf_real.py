#!/usr/bin/env python3
"""pcol's `perf script` importer against perf report, on real recordings
(run by t_perf_real.sh, which builds the program and checks that perf may
record).

A small C program (hot.c: heavy, medium, light of costs 8:4:1, a recursive
rec, lib_work in a shared library, with_inline whose loop is the inlined
inl_mix; -O1 -g -fno-omit-frame-pointer) is recorded in several ways; each
recording is printed by `perf script` in several field sets, packed by
`pcol pack` and read back with `pcol top` (and `pcol cat` for the dso),
and compared with `perf report --stdio` of the same perf.data, per event:

  self      perf report --no-children --sort sym -F overhead,sample,period,sym
            against pcol top's flat: per symbol the period and the samples
            exactly (pcol top --value EVENT, --value samples), the overhead
            string as perf prints it (100 * flat / total, "%.2f")
  children  perf report --children --sort sym -F overhead_children,sym
            against pcol top's cum: the percentage as perf prints it, the
            same double rounded the same way ("%.2f"); a name that perf
            report splits into several rows (one symbol in two dsos: the
            executable's and ld.so's `_start`) is one function in pcol, its
            rows' rounded shares summed within 0.005 a row
  totals    "Event count (approx.)" = pcol's total of the event, exactly;
            the Samples column summed = pcol's samples
  threads   perf report --sort comm and --sort pid (tid:comm) against
            pcol top --by label:comm / label:tid: period and samples exactly
  dso       perf report --sort comm,dso,sym against the samples' leaf
            frame in `pcol cat` (comm label, mapping basename, function)

Names: perf report names a symbol-less address by the address perf script
prints (`[.] 0x000000000000115b`, the map-relative address in a file, the
kernel's or a JIT map's own), a row per address; so does pcol
(doc/mappings.md §9), and such rows are compared one by one.  Two programs
show them: hot built without -g and stripped (only libhot.so's lib_work and libc keep
their names; its rows are its addresses) and a JIT-like one running code it
copied into an anonymous executable mapping (perf's dso
`/tmp/perf-PID.map`, perf report's `[JIT] tid PID`): each compared by self
(perf report's rows and overhead strings against pcol top's flat), the
totals and the threads.  A third program's perf map names its code by a
Java inline chain `a->b->c` (jit_chain: under -F +srcline perf prints
`[JIT] tid PID[ADDR]` there, never a FILE:LINE; pcol keeps the chain with
no line on any part, with callchains and without).  A script
without the event and period fields (`-F ip,sym`) counts samples; its
numbers are compared with perf report's Samples column, all events together.
Inline frames: perf report's self names the ELF symbol at the sample's
address, pcol top --no-inlines the frame's outermost function (the same
unless perf replaced the frame by its inline chain, whose outermost name
differs from the ELF symbol's: `get_common_indices.constprop.0`, which perf
script never prints; the rows perf report names so, absent from the script
text, must add up to pcol's rows perf report does not have).
Every recording must hold samples of each hot function in perf report's
own answer (else it was too short to say anything).
A script without the event but with the period (`-F tid,period,ip,sym`)
is compared by pcol's `period` type; comm and tid wherever printed.
`--deltatime` must be refused naming the option and the line
(`--show-round-events` too, unless its output is in time order: then it is
compared); the default script cut inside a frame and inside a header must
be refused naming the line ("truncated"), and cut at a line end inside a
callchain too ("cut").  Fields perf prints after the frame (-F +iregs,
+uregs, +phys_addr, +data_page_size, +code_page_size), CLOCK_REALTIME
times, right-aligned comms that look like an address, a comment, a time
or a [cpu] (copies of the program: COMMS; with -F comm,tid,time,period,event
only the samples and periods per comm and tid and the totals), and a
tracepoint of dd (skipped where perf may not record it) are compared the
same way.
"""
import json
import os
import re
import shutil
import subprocess
import sys
from collections import defaultdict

PCOL, WORK, HOT = sys.argv[1], sys.argv[2], sys.argv[3]
fails = []
checked = 0
rows_compared = 0


def run(cmd, **kw):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    if r.returncode != 0:
        raise RuntimeError('%s: exit %d: %s' % (' '.join(cmd), r.returncode, r.stderr.decode(errors='replace')[-400:]))
    return r.stdout.decode(errors='replace')


def fail(case, msg):
    fails.append('%s: %s' % (case, msg))


# recordings: name -> (perf record options, program arguments)
RECORDS = {
    'fp': (['-e', 'cpu-clock', '-g'], ['1500000']),
    'plain': (['-e', 'cpu-clock'], ['1500000']),
    'dwarf': (['-e', 'cpu-clock', '--call-graph', 'dwarf,8192'], ['1500000']),
    'freq': (['-e', 'cpu-clock', '--call-graph', 'fp', '-F', '997'], ['6000000']),
    'period': (['-e', 'cpu-clock', '-g', '-c', '100000'], ['800000']),
    'threads': (['-e', 'cpu-clock', '-g'], ['1000000', '2']),
    'two': (['-e', 'cpu-clock', '-e', 'task-clock', '-g'], ['1000000', '1']),
    'addr': (['-e', 'cpu-clock', '-d'], ['1500000']),
    'addrg': (['-e', 'cpu-clock', '-d', '-g'], ['1500000']),
    # fields perf prints after the frame (with -g: a line after the callchain)
    'after': (['-e', 'cpu-clock', '-g', '--phys-data', '--data-page-size', '--code-page-size',
               '--intr-regs=sp,ip', '--user-regs=sp,ip'], ['1500000']),
    # perf's clock as seconds since 1970 (10 integer digits)
    'realtime': (['-e', 'cpu-clock', '-k', 'CLOCK_REALTIME'], ['1500000']),
    # comms perf right-aligns that look like a frame's address (hex), a
    # --header comment, a time or a [cpu]: copies of the program (COMMS)
    'comms': (['-e', 'cpu-clock'], None),
    # symbol-less addresses: hot stripped, and code in an anonymous mapping
    'stripped': (['-e', 'cpu-clock', '-g'], ['1500000']),
    'jit': (['-e', 'cpu-clock', '-g'], ['300000000']),
}
# the programs of those recordings (else hot)
PROGS = {'stripped': 'hot-stripped', 'jit': 'jit'}
# what each must hold samples of in perf report's answer: symbols, and
# (dso basename or perf report's dso prefix, the number of address rows)
NEED = {'stripped': (['lib_work'], ('hot-stripped', 3)), 'jit': ([], ('[JIT] tid', 2))}
COMMS = ['cafe', '#w', '1.5:', 'x [001]']
# a tracepoint: events without a frame, then a right-aligned hex comm (dd);
# skipped where tracepoints are refused (permissions)
TRACE = ('dd', ['-e', 'syscalls:sys_enter_write'],
         ['dd', 'if=/dev/zero', 'of=/dev/null', 'bs=1', 'count=300'])
AFTER = '+iregs,+uregs,+phys_addr,+data_page_size,+code_page_size'
FULL = ['-F', 'comm,tid,time,event,period,ip,sym,dso']
# perf script field sets per recording (the default everywhere)
# (headers without a time or an event: -F comm,tid,ip,sym and the like;
# what perf prints between the event and the ip or after the frame: +addr,
# +data_src, +insnlen, +insn, +srccode; inline frames under -F +srcline)
SCRIPTS = {
    'fp': [[], FULL, ['-F', 'ip,sym'], ['-F', '+srcline'], ['--show-task-events'],
           ['-F', 'comm,tid,period,ip,sym,dso'], ['-F', 'tid,period,ip,sym'], ['-F', 'comm,ip,sym,dso'],
           ['-F', '+insnlen'], ['-F', '+insn'], ['-F', '+srccode'], ['--show-round-events']],
    'plain': [[], FULL, ['-F', 'ip,sym'], ['-F', 'ip,sym,dso'], ['-F', '+srcline'],
              ['-F', 'comm,tid,ip,sym,dso'], ['-F', 'comm,ip,sym'], ['-F', 'tid,period,ip,sym'],
              ['-F', 'comm,pid,tid,period,ip,sym,dso'], ['-F', 'comm,period,ip,sym,dso'],
              ['-F', '+insnlen'], ['-F', '+insn,+insnlen'], ['-F', '+srccode']],
    'dwarf': [['--inline'], ['--no-inline'], ['-F', 'ip,sym', '--no-inline'], ['-F', '+srcline', '--inline']],
    'freq': [[]],
    'period': [[], FULL],
    'threads': [[], FULL, ['--show-task-events'], ['-F', 'comm,tid,period,ip,sym,dso']],
    'two': [[], FULL, ['-F', 'ip,sym']],
    'addr': [['-F', '+addr'], ['-F', '+addr,+data_src']],
    'addrg': [['-F', '+addr'], ['-F', '+addr', '--hide-call-graph'], ['-F', '+addr,+data_src', '--hide-call-graph']],
    'after': [['-F', AFTER], ['-F', AFTER, '--hide-call-graph']],
    'realtime': [[]],
    'comms': [[], ['-F', 'comm,tid,time,period,event']],
    'stripped': [[], FULL, ['-F', 'ip,sym'], ['-F', 'ip'], ['-F', 'comm,tid,ip,sym,dso']],
    'jit': [[], FULL, ['-F', 'ip']],
}
# perf script output pcol does not read, refused with a message naming the
# option (or, when the output happens to be in time order, read and compared)
REFUSED = {'--deltatime': True, '--show-round-events': False}
SCRIPTS['fp'].append(['--deltatime'])

HEX_NAME = re.compile(r'^(0x)?[0-9a-f]{8,16}$')


REPORTS = {}


def report(data, args, inline):
    """perf report --stdio sections: {event: {count, rows}}, rows the
    columns split on 2+ blanks (one run per recording and mode)."""
    key = (data, tuple(args), inline)
    if key not in REPORTS:
        REPORTS[key] = report_run(data, args, inline)
    return REPORTS[key]


def report_run(data, args, inline):
    cmd = ['perf', 'report', '-i', data, '--stdio', '-g', 'none'] + args
    if not inline:
        cmd.append('--no-inline')
    out = run(cmd)
    sec, ev = {}, None
    for line in out.splitlines():
        m = re.match(r"# Samples: \S+\s+of event '([^']*)'", line)
        if m:
            ev = m.group(1)
            sec[ev] = {'count': None, 'rows': []}
            continue
        m = re.match(r'# Event count \(approx\.\): (\d+)', line)
        if m and ev is not None:
            sec[ev]['count'] = int(m.group(1))
            continue
        if not line.strip() or line.startswith('#') or ev is None:
            continue
        sec[ev]['rows'].append([c.strip() for c in re.split(r'\s{2,}', line.strip())])
    return sec


def sym_name(s, dso=None):
    """perf report's symbol column as pcol names the function (dso None:
    not known; '': not in the script text)."""
    s = re.sub(r'^\[[.kgujH]\] ', '', s).strip()
    s = re.sub(r' \(inlined\)$', '', s)
    if HEX_NAME.match(s):
        return addr_name(s)
    return s


def addr_name(hexip):
    """a symbol-less address as perf report prints it (C's "%#.16llx": 0
    is 16 zeros), and pcol names it"""
    v = int(hexip, 16)
    return '0x%016x' % v if v else '0' * 16


def pcol_top(pc, value, by=None, extra=()):
    cmd = [PCOL, 'top', pc, '--format', 'tsv', '--value', value] + list(extra)
    if by:
        cmd += ['--by', by]
    rows = {}
    for line in run(cmd).splitlines()[1:]:
        f = line.split('\t')
        rows[f[5]] = (int(f[0]), int(f[3]))
    return rows


def script_names(txt):
    """the symbol names perf script printed (frames: 'ip sym+off (dso)'; a
    frame without a symbol, '[unknown]' or none, by its address as perf
    report names it)."""
    names = set()
    for line in txt.splitlines():
        m = re.match(r'^\s*(?:.*:\s+)?([0-9a-f]+)(?: (.*?)(?:\+0x[0-9a-f]+)?(?: \((.*)\))?)?\s*$', line)
        if m:
            sym = (m.group(2) or '').strip()
            names.add(addr_name(m.group(1)) if sym in ('', '[unknown]') and len(m.group(1)) <= 16 else sym)
    return names


HOTFN = ['heavy', 'medium', 'light', 'rec', 'lib_work', 'with_inline']


def compare_self(case, data, pc, events, inline, counted, names_in_script, has_dso, has_period, rec):
    """perf report --no-children --sort dso,sym against pcol top's flat."""
    sec = report(data, ['--no-children', '--sort', 'dso,sym', '-F', 'overhead,sample,period,dso,sym'], inline)
    if set(sec) != set(events):
        fail(case, 'perf report events %s, recorded %s' % (sorted(sec), sorted(events)))
        return
    flags = ['--no-inlines'] if inline else []
    samples = defaultdict(int)
    tot_samples = 0
    for ev in events:
        per = defaultdict(lambda: [0, 0])
        for pct, ns, period, dso, sym in sec[ev]['rows']:
            n = sym_name(sym, os.path.basename(dso) if has_dso else '')
            per[n][0] += int(ns)
            per[n][1] += int(period)
            samples[n] += int(ns)
            tot_samples += int(ns)
        need, (ndso, naddr) = NEED.get(rec, (HOTFN, (None, 0)))
        missing = [f for f in need if not per[f][0]]
        if missing:
            fail(case, '%s: perf report has no samples of %s (the recording is too short?)' % (ev, ' '.join(missing)))
        addrs = {r[4] for r in sec[ev]['rows'] if HEX_NAME.match(sym_name(r[4])) and ndso and
                 (os.path.basename(r[3]) == ndso or r[3].startswith(ndso))}
        if len(addrs) < naddr:
            fail(case, '%s: perf report has %d symbol-less rows of %s, expected %d or more' % (ev, len(addrs), ndso, naddr))
        val = ev
        if counted:
            # -F without event: the period, when printed, is pcol's type
            # `period`, of one event here (perf report's Event count)
            if not has_period or len(events) != 1:
                continue
            val = 'period'
        got = pcol_top(pc, val, extra=flags)
        total = sum(f for f, _ in got.values())
        if total != sec[ev]['count']:
            fail(case, '%s: pcol total %d, perf report Event count %d' % (ev, total, sec[ev]['count']))
        diff_rows(case, '%s self period' % ev, {k: v[1] for k, v in per.items()},
                  {k: f for k, (f, _) in got.items()}, names_in_script if inline else None)
        for pct, ns, period, dso, sym in sec[ev]['rows']:
            n = sym_name(sym, os.path.basename(dso))
            if len([1 for r in sec[ev]['rows'] if sym_name(r[4], os.path.basename(r[3])) == n]) == 1 and n in got:
                mine = '%.2f%%' % (100.0 * got[n][0] / total)
                if mine != pct:
                    fail(case, '%s %s: self %s, perf report %s' % (ev, n, mine, pct))
    got = pcol_top(pc, 'samples', extra=flags)
    diff_rows(case, 'self samples', dict(samples), {k: f for k, (f, _) in got.items()},
              names_in_script if inline else None)
    if sum(f for f, _ in got.values()) != tot_samples:
        fail(case, 'pcol %d samples, perf report %d' % (sum(f for f, _ in got.values()), tot_samples))


def diff_rows(case, what, ref, got, names_in_script):
    """ref and got per name (rows of 0 left out); with names_in_script (the
    inline chains): perf's rows whose name perf script never printed must
    add up to pcol's rows perf has not."""
    ref = {k: v for k, v in ref.items() if v}
    got = {k: v for k, v in got.items() if v}
    if names_in_script is not None:
        lone_ref = {k: v for k, v in ref.items() if k not in got and k not in names_in_script}
        lone_got = {k: v for k, v in got.items() if k not in ref}
        if sum(lone_ref.values()) == sum(lone_got.values()):
            for k in lone_ref:
                del ref[k]
            for k in lone_got:
                del got[k]
    global rows_compared
    rows_compared += len(ref)
    if ref != got:
        bad = ['%s: perf %s, pcol %s' % (k, ref.get(k), got.get(k))
               for k in sorted(set(ref) | set(got)) if ref.get(k) != got.get(k)]
        fail(case, '%s differs: %s' % (what, '; '.join(bad[:8])))


def compare_children(case, data, pc, events, inline, counted, names_in_script):
    sec = report(data, ['--children', '--sort', 'sym', '-F', 'overhead_children,overhead,sym'], inline)
    if counted:
        return  # the shares of samples: perf's are of periods
    for ev in events:
        if any(r[0] == 'N/A' for r in sec[ev]['rows']):
            return  # no callchains: perf report has no children
        got = pcol_top(pc, ev)
        total = sum(f for f, _ in got.values())
        ref = defaultdict(list)
        for pct, self_pct, sym in sec[ev]['rows']:
            n = sym_name(sym)
            if HEX_NAME.match(n):
                continue  # a symbol-less address: pcol's [dso] merges them (self compares them)
            if inline and n not in names_in_script:
                # the ELF symbol of a frame perf printed as its inline
                # chain (see above): perf report counts it from the
                # sample's own symbol, never from the callchain, so its
                # children are its self (compared under self)
                if pct != self_pct:
                    fail(case, '%s %s: not in the script, children %s, self %s' % (ev, n, pct, self_pct))
                continue
            ref[n].append(float(pct.rstrip('%')))
        for n, pcts in ref.items():
            cum = got.get(n, (0, 0))[1]
            mine = 100.0 * cum / total
            if len(pcts) == 1:
                if '%.2f' % mine != '%.2f' % pcts[0]:
                    fail(case, '%s %s: children %.2f%%, pcol cum %.2f%% (%d of %d)' % (ev, n, pcts[0], mine, cum, total))
            elif abs(sum(pcts) - mine) > 0.005 * len(pcts) + 1e-9:
                fail(case, '%s %s: children %s%% (%d rows), pcol cum %.4f%%' % (ev, n, sum(pcts), len(pcts), mine))
        for n, (f, c) in got.items():
            if c and n not in ref and not n.startswith('[') and not HEX_NAME.match(n):
                fail(case, '%s %s: pcol cum %d, no perf report row' % (ev, n, c))


SRCLINE = re.compile(r'^(.+):(\d+)$')


def compare_srcline(case, data, pc, events, inline):
    """-F +srcline: perf report --no-children --sort srcline (the source
    line of each sample's address) against pcol top --by line's flat per
    FILE:LINE (a frame named 'function FILE:LINE'); lines perf knows none
    of ('??:0', 'sym+off') are no row of either."""
    global rows_compared
    sec = report(data, ['--no-children', '--sort', 'srcline', '-F', 'overhead,sample,srcline'], inline)
    ev = events[0] if events else next(iter(sec))
    ref = {}
    for r in sec[ev]['rows']:
        m = SRCLINE.match(r[-1])
        if m and not r[-1].startswith('??') and int(m.group(2)) > 0:
            ref[r[-1]] = ref.get(r[-1], 0) + int(r[1])
    got = {}
    for name, (flat, _) in pcol_top(pc, 'samples', 'line', ['--no-inlines'] if not inline else []).items():
        m = re.search(r' (\S+:\d+)$', name)
        if m and flat:
            got[m.group(1)] = got.get(m.group(1), 0) + flat
    if not ref:
        fail(case, 'perf report --sort srcline names no FILE:LINE')
    rows_compared += len(ref)
    if ref != got:
        keys = sorted(set(ref) | set(got), key=lambda k: -max(ref.get(k, 0), got.get(k, 0)))
        fail(case, 'samples per source line, perf report / pcol top --by line: ' +
             ', '.join('%s %s/%s' % (k, ref.get(k, '-'), got.get(k, '-')) for k in keys if ref.get(k) != got.get(k))[:600])


def compare_threads(case, data, pc, events, counted, labels, has_period):
    for key, label in (('comm', 'comm'), ('pid', 'tid')):
        if label not in labels:
            continue  # -F without it
        sec = report(data, ['--no-children', '--sort', key, '-F', 'sample,period,' + key], True)
        samples = defaultdict(int)
        for ev in events:
            per = {}
            for ns, period, name in sec[ev]['rows']:
                if key == 'pid':
                    name = name.split(':', 1)[0]
                per[name] = int(period)
                samples[name] += int(ns)
            if not counted or (has_period and len(events) == 1):
                got = pcol_top(pc, 'period' if counted else ev, by='label:' + label)
                diff_rows(case, '%s period by %s' % (ev, label), per, {k: f for k, (f, _) in got.items()}, None)
        got = pcol_top(pc, 'samples', by='label:' + label)
        diff_rows(case, 'samples by %s' % label, dict(samples), {k: f for k, (f, _) in got.items()}, None)


def compare_dso(case, data, pc, events, inline):
    """perf report --sort comm,dso,sym (self) against the leaf frame's
    mapping and function in pcol's tables."""
    sec = report(data, ['--no-children', '--sort', 'comm,dso,sym', '-F', 'sample,period,comm,dso,sym'], inline)
    tabs, cur = {}, None
    for line in run([PCOL, 'cat', pc, '--table', 'all']).splitlines():
        if line.startswith('# table '):
            cur = line[8:]
            tabs[cur] = []
        else:
            tabs[cur].append(line.split('\t'))

    def table(name):
        hdr = tabs[name][0]
        return [dict(zip(hdr, r)) for r in tabs[name][1:]]
    funcs = {r['function_id']: r['name'] for r in table('functions')}
    maps = {r['mapping_id']: os.path.basename(r['filename']) for r in table('mappings')}
    # the outermost line of a location (perf report's self names the symbol)
    loc_fn = {}
    for r in table('location_lines'):
        d = int(r['depth'])
        if r['location_id'] not in loc_fn or d > loc_fn[r['location_id']][0]:
            loc_fn[r['location_id']] = (d, funcs[r['function_id']])
    loc_map = {r['location_id']: maps.get(r['mapping_id'], '') for r in table('locations')}
    leaf = {r['sample_id']: r['location_id'] for r in table('sample_locations') if r['depth'] == '1'}
    comm = {r['sample_id']: r['str'] for r in table('sample_labels') if r['key'] == 'comm'}
    vals = defaultdict(dict)
    for r in table('sample_values'):
        vals[r['sample_id']][r['type']] = int(r['value'])
    got = {ev: defaultdict(lambda: [0, 0]) for ev in events}
    for s in table('samples'):
        sid = s['sample_id']
        loc = leaf.get(sid)
        key = (comm.get(sid, ''), loc_map.get(loc, '[unknown]') if loc else '',
               loc_fn[loc][1] if loc else '')
        for ev, v in vals[sid].items():
            got[ev][key][0] += 1
            got[ev][key][1] += v
    for ev in events:
        ref = defaultdict(lambda: [0, 0])
        for ns, period, c, dso, sym in sec[ev]['rows']:
            k = (c, dso, sym_name(sym, dso))
            ref[k][0] += int(ns)
            ref[k][1] += int(period)
        r2 = {'\t'.join(k): tuple(v) for k, v in ref.items()}
        g2 = {'\t'.join(k): tuple(v) for k, v in got[ev].items()}
        if inline:
            # the frames perf replaced by an inline chain: named as in self
            lone_r = [k for k in r2 if k not in g2]
            lone_g = [k for k in g2 if k not in r2]
            if len(lone_r) == len(lone_g) and sum(r2[k][1] for k in lone_r) == sum(g2[k][1] for k in lone_g):
                for k in lone_r:
                    del r2[k]
                for k in lone_g:
                    del g2[k]
        diff_rows(case, '%s (comm, dso, sym) samples/period' % ev, r2, g2, None)


def truncated(case, stem, txt):
    """The text cut inside a frame and inside a header (perf script ends
    every line with a line end): refused naming the file and its last
    line, never read as a shorter name or a made-up event."""
    lines = txt.split('\n')
    for what, want in (('a frame', lambda l: l.rstrip().endswith(')')), ('a header', lambda l: ':' in l and not l.startswith('\t'))):
        k = next(i for i in range(len(lines) // 2, len(lines)) if want(lines[i]))
        cut = '\n'.join(lines[:k]) + '\n' + lines[k][:len(lines[k]) * 2 // 3]
        path = '%s-cut.txt' % stem
        with open(path, 'w') as f:
            f.write(cut)
        r = subprocess.run([PCOL, 'pack', '--from', 'perf', path, '-o', path + '.pcol'],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        msg = r.stderr.decode(errors='replace')
        if r.returncode == 0 or ('%s:%d:' % (path, k + 1)) not in msg or 'truncated' not in msg:
            fail(case, 'cut inside %s (line %d): exit %d, %s' % (what, k + 1, r.returncode, msg.strip()))


def cut_callchain(case, stem, txt):
    """The text cut at a line end inside a callchain (`perf script | head
    -n N`): perf ends every callchain with a blank line, so the last event
    is read with a warning that it may be cut, naming the file and its
    last line."""
    lines = txt.split('\n')
    k = next(i for i in range(len(lines) // 2, len(lines)) if lines[i].startswith('\t') and lines[i + 1].startswith('\t'))
    path = '%s-cutcc.txt' % stem
    with open(path, 'w') as f:
        f.write('\n'.join(lines[:k + 1]) + '\n')
    r = subprocess.run([PCOL, 'pack', '--from', 'perf', path, '-o', path + '.pcol'],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    msg = r.stderr.decode(errors='replace')
    if r.returncode != 0 or ('%s:%d: no blank line after the last event' % (path, k + 1)) not in msg or 'was cut' not in msg:
        fail(case, 'cut after a frame (line %d): exit %d, %s' % (k + 1, r.returncode, msg.strip()))


def compare_total(case, data, pc, events):
    """perf report's Event count and Samples against pcol's totals."""
    global rows_compared
    sec = report(data, ['--no-children', '--sort', 'comm', '-F', 'sample,period,comm'], True)
    for ev in events:
        got = sum(f for f, _ in pcol_top(pc, ev, by='label:comm').values())
        if got != sec[ev]['count']:
            fail(case, '%s: pcol total %d, perf report Event count %d' % (ev, got, sec[ev]['count']))
        rows_compared += 1


def tracepoint():
    """A tracepoint recording (no frame on its lines) of dd, whose comm
    perf right-aligns and which is all hex: as many samples per comm and
    tid as perf report counts; skipped if perf may not record it."""
    global checked
    stem, opts, prog = TRACE
    data = stem + '.data'
    r = subprocess.run(['perf', 'record', '-q', '-o', data] + opts + ['--'] + prog,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode != 0 or not os.path.exists(data):
        print('perf: tracepoint %s not recorded here (skipped): %s' % (opts[1], r.stderr.decode(errors='replace').strip()[:200]))
        return
    case = '%s [perf record %s -- %s; perf script]' % (stem, ' '.join(opts), ' '.join(prog))
    try:
        txt = run(['perf', 'script', '-i', data])
        with open(stem + '.txt', 'w') as f:
            f.write(txt)
        run([PCOL, 'pack', stem + '.txt', '-o', stem + '.pcol'])  # detected too
        events = [opts[1]]
        compare_threads(case, data, stem + '.pcol', events, False, {'comm', 'tid'}, False)
        compare_total(case, data, stem + '.pcol', events)
    except (RuntimeError, ValueError, KeyError) as e:
        fail(case, str(e))
    checked += 1


JIT_CHAIN = ['Lcom/Foo;::outer', 'Lcom/Foo;::mid', 'Lcom/Foo;::inner']  # jit.c's perf map


def jit_chain():
    """A perf map's Java inline chain `a->b->c` (perf-map-agent's unfolded
    inlines) under -F +srcline, with callchains (-g) and without: `jit N
    map` (t_perf_real.sh) runs a loop it copied into an anonymous executable
    mapping that its /tmp/perf-PID.map names `outer->mid->inner`, another
    named `plain`, and a C loop (cwork, -g).  perf prints no FILE:LINE
    under a perf map's frame (it has no line table: `[JIT] tid PID[ADDR]`,
    its DSO[ADDR] form, also under a header that carries its frame, which
    pcol read as a header) and perf report --sort srcline names its rows
    `sym+OFF`; so pcol reads the chain c, b, a with no line on any part
    (doc/mappings.md §9), its samples per FILE:LINE are perf report's
    (cwork's), and the chain's samples are the outermost's flat
    (--no-inlines) and, as a share, each part's cum."""
    global checked
    for stem, opts in (('jitmap', ['-g']), ('jitmap1', [])):
        data = stem + '.data'
        case = '%s [perf record -e cpu-clock %s; perf script -F +srcline]' % (stem, ' '.join(opts))
        maps = []
        try:
            run(['perf', 'record', '-q', '-o', data, '-e', 'cpu-clock'] + opts + ['--', os.path.join(WORK, 'jit'), '300000000', 'map'])
            txt = run(['perf', 'script', '-i', data, '-F', '+srcline'])
            with open(stem + '.txt', 'w') as f:
                f.write(txt)
            lines = txt.splitlines()
            njit = 0
            for i, line in enumerate(lines):
                m = re.search(r' \((/tmp/perf-\d+\.map)\)$', line)
                if not m:
                    continue
                maps.append(m.group(1))
                njit += '->'.join(JIT_CHAIN) in line
                under = lines[i + 1].strip() if i + 1 < len(lines) else ''
                if SRCLINE.match(under) and not under.startswith('??') and not under.endswith(':0'):
                    fail(case, 'perf script printed a FILE:LINE under a perf map frame: %r, %r' % (line, under))
                elif not re.match(r'^\[JIT\] tid \d+\[[0-9a-f]+\]$', under):
                    fail(case, 'under a perf map frame: %r, not perf 6.1\'s [JIT] tid PID[ADDR]' % under)
            if njit < 10:
                fail(case, 'perf script has %d frames of the chain (the recording is too short?)' % njit)
            pc = stem + '.pcol'
            run([PCOL, 'pack', stem + '.txt', '-o', pc])
            # the chain: one location whose lines are inner, mid, outer, no line
            tabs, cur = {}, None
            for line in run([PCOL, 'cat', pc, '--table', 'all', '--format', 'tsv']).splitlines():
                if line.startswith('# table '):
                    cur = line[8:].split()[0]
                    tabs[cur] = []
                elif cur:
                    tabs[cur].append(line.split('\t'))
            hdr = {t: r[0] for t, r in tabs.items() if r}
            col = lambda t, c: hdr[t].index(c)
            fname = {r[col('functions', 'function_id')]: r[col('functions', 'name')] for r in tabs['functions'][1:]}
            chains = defaultdict(list)
            for r in tabs['location_lines'][1:]:
                chains[r[col('location_lines', 'location_id')]].append(
                    (fname.get(r[col('location_lines', 'function_id')]), r[col('location_lines', 'line')]))
            want = [(n, 'NA') for n in reversed(JIT_CHAIN)]
            if want not in list(chains.values()):
                fail(case, 'no location with the chain %s: %s' % (want, [c for c in chains.values() if len(c) > 1][:4]))
            for r in tabs['functions'][1:]:
                if r[col('functions', 'name')].startswith('Lcom/Foo;') and r[col('functions', 'filename')] != 'NA':
                    fail(case, 'the JIT function %s has a file: %s' % (r[col('functions', 'name')], r[col('functions', 'filename')]))
            compare_srcline(case, data, pc, ['cpu-clock'], True)
            # perf report's rows of the chain (one symbol `a->b->c`) and plain
            sec = report(data, ['--no-children', '--sort', 'sym', '-F', 'sample,sym'], True)
            ref = {}
            for ns, sym in sec['cpu-clock']['rows']:
                ref[sym_name(sym)] = ref.get(sym_name(sym), 0) + int(ns)
            flat = pcol_top(pc, 'samples', extra=['--no-inlines'])
            for name, mine in (('->'.join(JIT_CHAIN), flat.get(JIT_CHAIN[0], (0, 0))[0]),
                               ('Lcom/Foo;::plain', flat.get('Lcom/Foo;::plain', (0, 0))[0])):
                if not ref.get(name) or ref[name] != mine:
                    fail(case, '%s: perf report %s samples, pcol %s' % (name, ref.get(name), mine))
            if not ref.get('cwork'):
                fail(case, 'perf report has no samples of cwork')
            if opts:
                # each part's cum is the chain's children share (perf report
                # prints no counts there, as compare_children)
                cum = pcol_top(pc, 'samples')
                kids = report(data, ['--children', '--sort', 'sym', '-F', 'overhead_children,overhead,sym'], True)
                pct = [r[0] for r in kids['cpu-clock']['rows'] if sym_name(r[2]) == '->'.join(JIT_CHAIN)]
                total = sum(f for f, _ in cum.values())
                for n in JIT_CHAIN:
                    mine = '%.2f%%' % (100.0 * cum.get(n, (0, 0))[1] / total) if total else '-'
                    if pct != [mine]:
                        fail(case, '%s: pcol cum %s, perf report children of the chain %s' % (n, mine, pct))
        except (RuntimeError, ValueError, KeyError) as e:
            fail(case, str(e))
        for m in set(maps):
            try:
                os.remove(m)
            except OSError:
                pass
        checked += 1


HDR_FIELDS = ['comm', 'pid', 'tid', 'time', 'event', 'period']


def detect_sweep(rec, data, events):
    """Every -F set of header fields (any of comm, pid, tid, time, event,
    period) with ip, and with ip,sym,dso: perf script's text of the
    recording (with callchains or without) is detected as perf's (`pcol
    info`, no --from), with as many samples as perf report counts."""
    global checked, rows_compared
    sec = report(data, ['--no-children', '--sort', 'comm', '-F', 'sample,comm'], True)
    want = sum(int(r[0]) for ev in events for r in sec[ev]['rows'])
    bad = []
    for m in range(1 << len(HDR_FIELDS)):
        hs = [f for b, f in enumerate(HDR_FIELDS) if m >> b & 1]
        for tail in (['ip'], ['ip', 'sym', 'dso']):
            fields = ','.join(hs + tail)
            path = '%s-detect.txt' % rec
            with open(path, 'w') as f:
                f.write(run(['perf', 'script', '-i', data, '-F', fields]))
            r = subprocess.run([PCOL, 'info', path], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            out = r.stdout.decode(errors='replace')
            fmt = re.search(r'^input_format:\s*(\S+)', out, re.M)
            n = re.search(r'^\s*samples:\s*(\d+)', out, re.M)
            rows_compared += 1
            if r.returncode or not fmt or fmt.group(1) != 'perf' or not n or int(n.group(1)) != want:
                bad.append('-F %s: %s' % (fields, (out + r.stderr.decode(errors='replace')).strip().splitlines()[:2]))
    for b in bad[:8]:
        fail('%s [perf script -F ..., detected]' % rec, '%s (perf report: %d samples)' % (b, want))
    if len(bad) > 8:
        fail('%s [perf script -F ..., detected]' % rec, '%d more' % (len(bad) - 8))
    checked += 1


def main_binary(case, stem):
    """The pprof export names the recorded program as pprof's main binary:
    go tool pprof prints its first mapping as `File:` (perf's first dso is
    often the loader or libc, the first code a sample hit)."""
    global rows_compared
    if not shutil.which('go'):
        return
    run([PCOL, 'unpack', stem + '.pcol', '-t', 'pprof', '-o', stem + '.pb.gz'])
    head = run(['go', 'tool', 'pprof', '-top', stem + '.pb.gz']).splitlines()
    want = 'File: ' + os.path.basename(HOT)
    if want not in head[:3]:
        fail(case, 'go tool pprof of the pprof export: %r, expected %r' % (head[:1], want))
    rows_compared += 1


def compare_duration(case, data, pc):
    """the source's Duration (pcol info's duration_ns) against perf report's
    header "sample duration : X ms" (first to last sample; 1 us printed)"""
    global rows_compared
    hdr = run(['perf', 'report', '--header-only', '-i', data])
    m = re.search(r'sample duration\s*:\s*([0-9.]+) ms', hdr)
    if not m:
        fail(case, 'perf report --header-only gives no sample duration')
        return
    rows = json.loads(run([PCOL, 'info', pc, '--format', 'json']))['rows']
    got = rows[0]['duration_ns'] if rows else None
    # pcol's span is of perf script's times, each cut to the us (the span
    # within 1 us of the true one); perf report prints the true span to the
    # us: up to 1.5 us apart (a CI run: 33383000 against "33.382 ms", 1 us
    # apart, failed a bound of 1 us by the float error of 33.382 * 1e6)
    want = round(float(m.group(1)) * 1e6)
    if got is None or abs(got - want) > 1500:
        fail(case, 'Duration %s ns, perf report\'s sample duration %.0f ns' % (got, want))
    rows_compared += 1


def main():
    global checked
    os.chdir(WORK)
    for c in COMMS:
        shutil.copy(HOT, os.path.join(WORK, c))
    with open('comms.sh', 'w') as f:
        f.write(''.join('"./%s" 400000\n' % c for c in COMMS))
    only = os.environ.get('PERF_REAL_ONLY', '').split(',')  # a few recordings (a quicker run)
    for rec, (opts, args) in RECORDS.items():
        if only != [''] and rec not in only:
            continue
        data = rec + '.data'
        exe = os.path.join(WORK, PROGS[rec]) if rec in PROGS else HOT
        prog = [exe] + args if args else ['sh', 'comms.sh']
        run(['perf', 'record', '-q', '-o', data] + opts + ['--'] + prog)
        events = [e for i, e in enumerate(opts) if i and opts[i - 1] == '-e']
        if rec in ('fp', 'plain'):
            try:
                detect_sweep(rec, data, events)
            except (RuntimeError, ValueError, KeyError) as e:
                fail(rec + ' [detection]', str(e))
        for k, sargs in enumerate(SCRIPTS[rec]):
            case = '%s [perf record %s; perf script %s]' % (rec, ' '.join(opts), ' '.join(sargs) or '(default)')
            txt = run(['perf', 'script', '-i', data] + sargs)
            stem = '%s-%d' % (rec, k)
            with open(stem + '.txt', 'w') as f:
                f.write(txt)
            inline = '--no-inline' not in sargs
            fields = sargs[sargs.index('-F') + 1] if '-F' in sargs else '+'
            fl = fields.split(',')
            has_dso = fields.startswith('+') or 'dso' in fl
            counted = not fields.startswith('+') and 'event' not in fl
            has_period = fields.startswith('+') or 'period' in fl
            labels = {l for l in ('comm', 'tid') if fields.startswith('+') or l in fl}
            refuse = [o for o in REFUSED if o in sargs]
            try:
                if refuse:
                    r = subprocess.run([PCOL, 'pack', '--from', 'perf', stem + '.txt', '-o', stem + '.pcol'],
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                    msg = r.stderr.decode(errors='replace')
                    if r.returncode == 0 and REFUSED[refuse[0]]:
                        fail(case, 'read with exit 0, expected a refusal naming %s' % refuse[0])
                    if r.returncode != 0:
                        if refuse[0] not in msg or (stem + '.txt:') not in msg:
                            fail(case, 'refused without naming %s and the line: %s' % (refuse[0], msg.strip()))
                        checked += 1
                        continue
                else:
                    run([PCOL, 'pack', '--from', 'perf', stem + '.txt', '-o', stem + '.pcol'])
                if not fields.startswith('+') and 'ip' not in fl:
                    # no frames: the samples and periods per comm and tid,
                    # and the event's total
                    compare_threads(case, data, stem + '.pcol', events, counted, labels, has_period)
                    compare_total(case, data, stem + '.pcol', events)
                    checked += 1
                    continue
                names = script_names(txt)
                compare_self(case, data, stem + '.pcol', events, inline, counted, names, has_dso, has_period, rec)
                if '--hide-call-graph' not in sargs:
                    compare_children(case, data, stem + '.pcol', events, inline, counted, names)
                compare_threads(case, data, stem + '.pcol', events, counted, labels, has_period)
                if '+srcline' in fl:
                    compare_srcline(case, data, stem + '.pcol', events, inline)
                if not counted and rec != 'jit':  # (perf report's dso "[JIT] tid N" is perf script's /tmp/perf-N.map)
                    compare_dso(case, data, stem + '.pcol', events, inline)
                if fields.startswith('+') or 'time' in fl:
                    compare_duration(case, data, stem + '.pcol')
                if k == 0 and rec in ('fp', 'plain'):
                    truncated(case, stem, txt)
                if k == 0 and rec == 'fp':
                    cut_callchain(case, stem, txt)
                    main_binary(case, stem)
            except (RuntimeError, ValueError, KeyError) as e:
                fail(case, str(e))
            checked += 1
    if only == ['']:
        tracepoint()
    if only == [''] or 'jitmap' in only:
        jit_chain()
    for f in fails:
        print('FAIL ' + f)
    print('perf: %d perf script outputs compared with perf report (%d rows), %d failures' % (checked, rows_compared, len(fails)))
    return 1 if fails else 0


sys.exit(main())
