#!/usr/bin/env python3
"""`pcol shell` on a terminal (a pseudo-terminal): the keys of
tools/line_edit.c edit the line before it runs, as in go tool pprof's
readline UI, and TERM=dumb reads lines as they come.

Each session types keys, and after each Enter waits for the next prompt;
the line that ran is told by its answer: each case's keys must give the
answer of the command written out plainly (`pcol top IN -n N` and so on,
run by the caller, whose "Showing" lines are given here).

usage: shell_pty.py PCOL INPUT "SHOWING-LINE-OF top" "SHOWING-LINE-OF top -n 1"
"""
import os
import pty
import select
import sys
import time

PCOL, IN, TOP, TOP1 = sys.argv[1:5]
PROMPT = b"(pcol) "
NEWPROMPT = b"\n(pcol) "  # a prompt on a line of its own; a redraw's is after \r
failures = []


def session(keys, term="xterm"):
    """keys: byte strings, each ended by Enter or an end-of-input key; the
    output after each, and the exit status"""
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["TERM"] = term
        os.execv(PCOL, [PCOL, "shell", IN])
    buf = b""

    def read_until(pred, timeout=30):
        nonlocal buf
        end = time.time() + timeout
        while not pred(buf) and time.time() < end:
            r, _, _ = select.select([fd], [], [], 0.2)
            if r:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                buf += chunk
        return pred(buf)

    answers = []
    if not read_until(lambda b: PROMPT in b):
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        return None, None
    for k in keys:
        start = len(buf)
        n = buf.count(NEWPROMPT)
        os.write(fd, k)
        if k.endswith(b"\r") or k.endswith(b"\n"):
            read_until(lambda b: b.count(NEWPROMPT) > n)
        else:  # an end of input
            read_until(lambda b: False, timeout=1)
        answers.append(buf[start:].decode("utf-8", "replace"))
    end = time.time() + 20
    status = None
    while time.time() < end:
        p, st = os.waitpid(pid, os.WNOHANG)
        if p:
            status = os.waitstatus_to_exitcode(st)
            break
        try:
            r, _, _ = select.select([fd], [], [], 0.2)
            if r:
                os.read(fd, 65536)
        except OSError:
            pass
    if status is None:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    os.close(fd)
    return answers, status


def expect(name, keys, wants, end=b"\x04", term="xterm", status=0):
    """wants[i]: a string answer i must hold (None: no check), or ("not", s)"""
    answers, st = session(keys + ([end] if end else []), term)
    if answers is None:
        failures.append("%s: no prompt" % name)
        return
    for i, w in enumerate(wants):
        if w is None:
            continue
        if isinstance(w, tuple):
            if w[1] in answers[i]:
                failures.append("%s: key %d's answer holds %r:\n%s" % (name, i, w[1], answers[i]))
        elif w not in answers[i]:
            failures.append("%s: key %d's answer lacks %r:\n%s" % (name, i, w, answers[i]))
    if st != status:
        failures.append("%s: exit %r, want %r" % (name, st, status))


# Backspace; Up runs the line before again; Ctrl-A then a character
expect("backspace, Up, Ctrl-A", [b"toq\x7fp\r", b"\x1b[A\r", b"op\x01t\r"], [TOP, TOP, TOP])
# Ctrl-U drops what is before the cursor, Ctrl-W the word before
expect("Ctrl-U, Ctrl-W", [b"garbage\x15top\r", b"top zzz\x17\r"], [TOP, TOP])
# Left over a code point of two bytes, Backspace deletes it whole
expect("UTF-8", [b"t\xce\xbbp\x1b[D\x7fo\r"], [TOP])
# Home, Right, End (two encodings); Ctrl-E; Delete; Ctrl-K
expect("Home/End/Delete/Ctrl-K",
       [b"tp\x1b[H\x1b[Co\x1b[F\r", b"tp\x1bOH\x06o\x1bOF\r", b"xtop\x01\x1b[3~\x05\r", b"top -n 1 junk\x1b[D\x1b[D\x1b[D\x1b[D\x1b[D\x0b\r"],
       [TOP, TOP, TOP, TOP1])
# a word left (Ctrl-Left, Alt-Left, Alt-B), then text at the line's start
expect("word moves", [b"-n 1\x1b[1;5D\x1b[1;3Dtop \r", b"n 1\x1bb\x1bbtop -\r"], [TOP1, TOP1])
# Down comes back to the line being written; Ctrl-P/Ctrl-N as Up/Down
expect("Down, Ctrl-P/N", [b"top -n 1\r", b"to\x1b[A\x1b[Bp\r", b"\x10\x10\x0e\r"], [TOP1, TOP, TOP])
# Ctrl-C ends the session as go tool pprof's (x/term's ReadLine: EOF)
expect("Ctrl-C", [b"top -n 1"], [], end=b"\x03")
# Ctrl-D on a line with text deletes at the cursor, and ends it when empty
expect("Ctrl-D", [b"topx\x1b[D\x04\r"], [TOP])
# TERM=dumb: no editing, the escape is part of the line (an unknown command)
expect("TERM=dumb", [b"\x1b[A\r", b"top\r"], [("not", TOP), TOP], term="dumb")
if failures:
    print("\n".join(failures))
    sys.exit(1)
print("shell_pty: 9 sessions of edited lines: ok")
