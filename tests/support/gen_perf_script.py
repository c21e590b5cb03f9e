#!/usr/bin/env python3
"""gen_perf_script.py — `perf script` text with known answers, for
tests/cli/t_perf_v8_speedscope.sh and the fuzz seeds.

  gen_perf_script.py OUT.txt TRUTH.folded [--style default|pidtid|oneline|noperiod|flat|notime|noevent|task|srcline|onesrc] [--samples N]
                     [--seed S] [--events 1] [--count-truth COUNTS.folded]

Writes N events as `perf script` prints them (the header line in the chosen
-F style, the callchain leaf first with tabs, `+0x` offsets, kernel frames,
`[unknown]` symbols in known and unknown dsos, `(inlined)` frames, a perf
map's Java `a->b` names, comments from --header), several processes and
threads (one named with a blank and a number, as Firefox names its threads:
"FS Broker 5906"), and TRUTH: the collapsed stacks (root first, no comm) with the sum
of the first event's periods (COUNTS: the number of its samples), named by the rules perf users know from
stackcollapse-perf/inferno: `+0x..` cut; `[unknown]` named by its address
as perf report names it (`0x00007f89e278d702`).  --events 1: one event (cycles) only.  The styles past flat are
perf 6.1's layouts that earlier pcol misread: notime (`-F
comm,tid,period,event,...`: "comm   tid     period event:"), noevent (`-F
comm,tid,time,period,...`: one event, its samples counted in TRUTH),
task (--show-task-events: PERF_RECORD_COMM/FORK/EXIT side-band lines among
the events, perf-exec's at time 0 first), srcline and onesrc (`-F
+srcline` with and without callchains: "  FILE:LINE", "  ??:0", "  :0",
"  DSO[ADDR]" under each frame; under a perf map's frame perf's
"  [JIT] tid PID[ADDR]").  Streaming use: N large and OUT "-" (stdout), TRUTH "/dev/null".
"""
import random, sys

def main():
    out, truth = sys.argv[1], sys.argv[2]
    style, n, seed, one_event, count_truth = 'default', 200, 1, False, None
    a = sys.argv[3:]
    for i in range(0, len(a), 2):
        if a[i] == '--style': style = a[i + 1]
        elif a[i] == '--samples': n = int(a[i + 1])
        elif a[i] == '--seed': seed = int(a[i + 1])
        elif a[i] == '--events': one_event = a[i + 1] == '1'
        elif a[i] == '--count-truth': count_truth = a[i + 1]
    r = random.Random(seed)
    threads = [('app', 100, 100), ('app', 100, 101), ('V8 Worker', 100, 102), ('kworker/0:1', 7, 7),
               ('dd', 200, 200), ('FS Broker 5906', 100, 103)]
    kernel = [('ffffffff8103ce3b', 'native_safe_halt', '[kernel.kallsyms]'),
              ('ffffffff8101c6a3', 'do_syscall_64', '[kernel.kallsyms]'),
              ('ffffffff81aebbfe', 'entry_SYSCALL_64', '[kernel.kallsyms]')]
    user = [('401b97', 'main', '/usr/bin/app'), ('401c00', 'compute(int, char const*)', '/usr/bin/app'),
            ('7f89e341d84f', '__GI___libc_write', '/usr/lib/libc-2.28.so'),
            ('7f89e278d702', '[unknown]', '/usr/lib/jvm/lib/server/libjvm.so'),
            ('5966605dd52f8e00', '[unknown]', '[unknown]'),
            ('7f1000', 'Ljava/io/Foo;::bar->Ljava/io/Foo;::baz', '/tmp/perf-100.map')]
    # flat: old perf (FlameGraph's perf-java-stacks-02.txt): "comm tid event:"
    # without time or period, callchain lines not indented
    events = ['cycles:u', 'cpu-clock'] if style not in ('noperiod', 'flat', 'noevent') and not one_event else ['cycles']
    counted = style in ('noperiod', 'flat', 'noevent')  # TRUTH counts samples
    def srcline(ip, dso, d):  # what perf prints under a frame (-F +srcline)
        if dso.startswith('/tmp/perf-') and dso.endswith('.map'):
            # a perf map has no line table: perf 6.1 prints its dso's short
            # name and the address, never a FILE:LINE (perf_real.py jit_chain)
            return '[JIT] tid %s[%s]' % (dso[10:-4], ip.lstrip('0') or '0')
        c = d % 4
        if c == 0: return 'file_%d.c:%d' % (d % 3, 10 + d)
        if c == 1: return '??:0' if d % 8 == 1 else ':0'
        return '%s[%s]' % (dso.rsplit('/', 1)[-1], ip.lstrip('0') or '0')
    counts = {}
    fout = sys.stdout if out == '-' else open(out, 'w')
    w = fout.write
    if style == 'task':
        w('perf-exec     0     0.000000: PERF_RECORD_COMM: perf-exec:100/100\n')
    if style == 'default':
        w('# ========\n# captured on    : Mon Nov 23 06:00:00 2026\n# ========\n#\n')
    folded = {}
    t = 1000.0
    for k in range(n):
        comm, pid, tid = r.choice(threads)
        ev = events[-1] if k % 5 == 1 else events[0]
        period = r.choice([250000, 1000000, 10101010])
        t += r.randint(1, 5000) / 1e6
        # the stack, root first: (ip, sym, dso, offset, inlined-into-next)
        depth = r.randint(1, 6)
        frames = [('7f00' + '%x' % d, 'start_%d' % d, '/usr/lib/libc-2.28.so', d, None) for d in range(r.randint(0, 1))]
        for d in range(depth):
            ip, sym, dso = r.choice(user)
            frames.append((ip, sym, dso, r.randint(0, 0x200), None))
        if r.random() < 0.3:
            frames.append(('401d00', 'outer_fn', '/usr/bin/app', 0x10, 'inner_inlined'))
        if r.random() < 0.4:
            for kf in kernel[r.randint(0, 2):][::-1]:
                frames.append(kf + (0x1f, None))
        # header
        tstr = '%.6f' % t
        if style == 'pidtid':
            hdr = '%s %d/%d [%03d] %s: %10d %s: ' % (comm, pid, tid, r.randint(0, 7), tstr, period, ev)
        elif style == 'noperiod':
            hdr = '%s %5d %s: %s: ' % (comm, tid, tstr, ev)
        elif style == 'flat':
            hdr = '%s %d %s:' % (comm, tid, ev)
        elif style == 'notime':
            hdr = '%s %5d %10d %s: ' % (comm, tid, period, ev)
        elif style == 'noevent':
            hdr = '%s %5d %s: %10d ' % (comm, tid, tstr, period)
        else:
            hdr = '%s %5d [%03d] %s: %10d %s: ' % (comm, tid, r.randint(0, 7), tstr, period, ev)
        if style == 'task' and r.random() < 0.3:
            # side-band records, no blank line after them, times among the events'
            w(r.choice(['%s %5d %s: PERF_RECORD_COMM exec: %s:%d/%d\n' % (comm, tid, tstr, comm, pid, tid),
                        '%s %5d %s: PERF_RECORD_FORK(%d:%d):(%d:%d)\n' % (comm, tid, tstr, pid, tid + 1, pid, tid),
                        '%s %5d %s: PERF_RECORD_EXIT(%d:%d):(%d:%d)\n' % (comm, tid, tstr, pid, tid, pid, tid)]))
        if style in ('oneline', 'onesrc'):
            ip, sym, dso, off, _ = frames[-1]
            symtxt = sym if sym == '[unknown]' else '%s+0x%x' % (sym, off)
            w('%16s %d [%03d] %s: %10d %s:  %s %s (%s)\n' % (comm, tid, 0, tstr, period, ev, ip, symtxt, dso))
            if style == 'onesrc':
                w('  %s\n' % srcline(ip, dso, k))
            frames = [(ip, sym, dso, off, None)]
        else:
            w(hdr + '\n')
            ind = '%s' if style == 'flat' else '\t%16s'
            for ip, sym, dso, off, inl in reversed(frames):
                if inl:
                    w(ind % ip + ' %s (inlined)\n' % inl)
                symtxt = sym if sym == '[unknown]' else '%s+0x%x' % (sym, off)
                w(ind % ip + ' %s (%s)\n' % (symtxt, dso))
                if style == 'srcline':
                    w('  %s\n' % srcline(ip, dso, k + len(ip)))
            w('\n')
        if ev != events[0] and not counted:
            continue
        names = []
        for ip, sym, dso, off, inl in frames:
            if sym == '[unknown]':
                v = int(ip, 16)  # perf report's name of the address (C's "%#.16llx")
                names.append('0x%016x' % v if v else '0' * 16)
            elif dso.endswith('.map') and '->' in sym:
                names.extend(sym.split('->'))
            else:
                names.append(sym)
            if inl:
                names.append(inl)
        # a ';' inside a name is '_' in collapsed text (doc/mappings.md §6)
        key = ';'.join(x.replace(';', '_') for x in names)
        folded[key] = folded.get(key, 0) + (1 if counted else period)
        counts[key] = counts.get(key, 0) + 1
    if fout is not sys.stdout:
        fout.close()
    for path, d in ((truth, folded), (count_truth, counts)):
        if path:
            with open(path, 'w') as f:
                for k, v in sorted(d.items()):
                    f.write('%s %d\n' % (k, v))

main()
