#!/usr/bin/env python3
"""The answers of the go tool pprof sessions tests/interop/pprof_session.sh
ran (its ps_run): each view's standard error, its refusals, the views asked
once for two, the sessions that broke off and the views held to the
command line's.

  pprof_session.py DIR

DIR/index: a line per session, I<TAB>VIEWS (DIR/I.in its input, DIR/I.err
its standard error, DIR/I.rc its exit status); DIR/views: K<TAB>I<TAB>OUT
per view (K its marks' number, OUT the file its command wrote); DIR/alias: OUT<TAB>OUT2 (OUT2 is
the same view as OUT: a copy); DIR/held: OUT<TAB>WHAT (OUT.cli and
OUT.cli.err the command line's answer).

Writes OUT.err per view (the session's standard error after the view's
"#bKx" mark, less "Generating report in OUT"); a refused view's OUT is
empty (an assignment before it complained: between its "#aKx" and "#bKx"
marks, where the command line would have refused the run; or go could not
read the profile: the session answered no mark and exited other than 0
saying "failed to fetch any source profiles") and its OUT.err holds the
complaint.  Prints "FAIL: ..." per session that did not reach its end mark
("#zx"), exited other than 0, or answered no mark without go's refusal (a
pprof killed at its start), and per held view whose answer or standard
error differs from the command line's (the lines of standard error in any
order).  The index
is read whole at each run: a session is
judged once (DIR/done lists them).

Also the module of the helpers the judges of the views share (read, lines,
write, after, go_refused, keep_failed): semantics_judge.py, value_opts_judge.py and
pprof_views_judge.py import it.
"""
import os
import re
import shutil
import sys

MARK = re.compile(r'unrecognized command: "#([abz])(\d*)x"')


def read(p):
    """FILE's bytes; b'' when there is no such file"""
    try:
        with open(p, 'rb') as f:
            return f.read()
    except FileNotFoundError:
        return b''


def lines(b):
    """the lines of a text, without their newlines (and no empty last one
    after a final newline)"""
    ls = b.split(b'\n')
    if ls and ls[-1] == b'':
        ls.pop()
    return ls


def write(p, b):
    with open(p, 'wb') as f:
        f.write(b)


def after(ls, test):
    """the lines from the first one TEST holds of on ([] when none)"""
    for k, l in enumerate(ls):
        if test(l):
            return ls[k:]
    return []


def go_refused(out):
    """whether go refused the view OUT: it wrote nothing there and
    complained (OUT.err not empty; a view that is empty, said nothing)"""
    return not read(out) and bool(read(out + '.err').strip())


def keep_failed(tmp, j, go, pc):
    """a failed comparison's two sides (bytes, or lists of lines) in
    TMP/j/J.go and TMP/j/J.pc"""
    for side, b in (('go', go), ('pc', pc)):
        write(os.path.join(tmp, 'j', j + '.' + side), b if isinstance(b, bytes) else b''.join(x + b'\n' for x in b))


def main(d):
    done = set(read(os.path.join(d, 'done')).decode().split())
    views = {}
    for line in read(os.path.join(d, 'views')).decode('utf-8', 'surrogateescape').splitlines():
        k, i, out = line.split('\t', 2)
        views[k] = (i, out)
    fails = []
    new = []
    for line in read(os.path.join(d, 'index')).decode().splitlines():
        i, nv = line.split('\t')
        if i in done:
            continue
        new.append(i)
        err = read(os.path.join(d, i + '.err')).decode('utf-8', 'surrogateescape').split('\n')
        if err and err[-1] == '':
            err.pop()
        mine = [k for k, v in views.items() if v[0] == i]
        rc = read(os.path.join(d, i + '.rc')).decode().strip() or 'not recorded'
        said = 'exit %s, %s' % (rc, err[-1][:200] if err else 'no message')
        what = 'go tool pprof session %s (%s, %s views)' % (
            i, read(os.path.join(d, i + '.args')).decode('utf-8', 'surrogateescape').replace('\n', ' ').strip(), nv)
        if not any(MARK.search(e) for e in err):
            # go cannot read the profile: the session never began, every view
            # refused with its complaint, as the command line refuses each (and
            # any other session that answered nothing fails)
            if rc in ('0', 'not recorded') or not any('failed to fetch any source profiles' in e for e in err):
                fails.append('FAIL: %s never began (%s)' % (what, said))
            for k in mine:
                out = views[k][1]
                write(out, b'')
                write(out + '.err', '\n'.join(err).encode('utf-8', 'surrogateescape') + (b'\n' if err else b''))
            continue
        state, cur, end, seen, refused, texts = None, None, False, 0, set(), {}
        for e in err:
            m = MARK.search(e)
            if m:
                kind, k = m.group(1), m.group(2)
                if kind == 'a':
                    state, cur = 'a', k
                    texts[k] = []
                elif kind == 'b':
                    state = 'b'
                    seen += 1
                else:
                    end, state, cur = True, None, None
                continue
            if cur is None:
                continue  # the greeting, before the first view
            if state == 'a' and e.strip():
                refused.add(cur)
            if state == 'b' and e == 'Generating report in ' + views[cur][1]:
                continue
            texts[cur].append(e)
        if not end or seen != int(nv) or rc != '0':
            fails.append('FAIL: %s ended at its view %d (%s)' % (what, seen, said))
        for k in mine:
            out = views[k][1]
            if k in refused or not os.path.exists(out):
                write(out, b'')
            t = texts.get(k, [])
            write(out + '.err', ''.join(x + '\n' for x in t).encode('utf-8', 'surrogateescape'))
    for line in read(os.path.join(d, 'alias')).decode('utf-8', 'surrogateescape').splitlines():
        a, b = line.split('\t', 1)
        if os.path.exists(a) and not os.path.exists(b + '.err'):
            shutil.copyfile(a, b)
            shutil.copyfile(a + '.err', b + '.err')
    for line in read(os.path.join(d, 'held')).decode('utf-8', 'surrogateescape').splitlines():
        out, what = line.split('\t', 1)
        if not os.path.exists(out + '.err') or os.path.exists(out + '.held'):
            continue  # (not run yet, or judged)
        write(out + '.held', b'')
        if read(out) != read(out + '.cli'):
            fails.append('FAIL: %s: its answer in a session differs from the command line\'s' % what)
        elif sorted(read(out + '.err').split(b'\n')) != sorted(read(out + '.cli.err').split(b'\n')):
            # (its lines in any order: pprof warns of label units in its map's)
            fails.append('FAIL: %s: its standard error in a session differs from the command line\'s (%r, %r)' %
                         (what, read(out + '.err')[:200], read(out + '.cli.err')[:200]))
    with open(os.path.join(d, 'done'), 'a') as f:
        for i in new:
            f.write(i + '\n')
    for m in fails:
        print(m)


if __name__ == '__main__':
    main(sys.argv[1])
