#!/usr/bin/env python3
"""inferno_compare.py — `pcol fold` of a `perf script` file against the
collapsed result inferno (github.com/jonhoo/inferno) publishes beside it
(tests/data/collapse-perf/results/*-collapsed.txt, default options).

  inferno_compare.py PCOL_FOLD_OUTPUT INFERNO_EXPECTED

Modulo inferno's presentation rules, applied to pcol's frame names (pcol
keeps perf's names as perf prints them): the comm as a root frame (dropped
from inferno's lines: pcol keeps it as a `comm` label), the `_[i]` mark of
Java's unfolded inline frames and the `_[k]`/`_[j]` of --kernel/--jit
(dropped), inferno's fix of half-demangled Rust names, tidy_java (a leading
'L' cut when the comm starts with "java"), stackcollapse's tidy_generic (an
argument list cut, ';' -> ':') and its skipping of frames that start with
'('.  Line order does not matter; equal stacks are summed.  Exit 1 on a
difference.
"""
import re, sys
from collections import Counter

RUST = [('$LT$', '<'), ('$GT$', '>'), ('$u7b$', '{'), ('$u7d$', '}'), ('$RF$', '&'),
        ('$BP$', '*'), ('$C$', ','), ('$u20$', ' '), ('$u27$', "'"), ('$u5b$', '['), ('$u5d$', ']'),
        ('$u7e$', '~'), ('..', '::')]

def rust_fix(f):
    # inferno's fix_partially_demangled_rust_symbol: $LT$-escapes and the
    # ::h<16 hex> hash of a legacy-mangled name perf left half demangled
    if not re.search(r'::h[0-9a-f]{16}$', f) or '$' not in f:
        return f
    f = f[:-19]
    for a, b in RUST:
        f = f.replace(a, b)
    return f

def tidy(f):
    # pcol's fold writes a ';' inside a name as '_' (Java's "LFoo;::bar"),
    # inferno's tidy as ':'
    f = rust_fix(f).replace('_::', ':::')
    depth, last_dot = 0, None
    for i, c in enumerate(f):
        if c in '<{[':
            depth += 1
        elif c in '>}])':
            depth -= 1
        elif c == '(':
            if depth == 0 and last_dot != i and not f[i:].startswith('(anonymous namespace)'):
                f = f[:i]
                break
            depth += 1
        elif c == '.':
            last_dot = i + 1
    return f

def read(path, mine, java=False):
    c = Counter()
    for line in open(path, encoding='utf-8', errors='replace'):
        line = line.rstrip('\n')
        if not line:
            continue
        stack, _, v = line.rpartition(' ')
        fr = stack.split(';') if stack else []
        if mine:
            fr = [tidy(f) for f in fr if not f.startswith('(')]
            if java:  # tidy_java, for a comm starting with "java"
                fr = [f[1:] if f.startswith('L') and '/' in f else f for f in fr]
        else:
            fr = [re.sub(r'_\[[ikj]\]$', '', f) for f in fr[1:]]
        c[';'.join(fr)] += int(v)
    return c

java = open(sys.argv[2], encoding='utf-8', errors='replace').read(4).startswith('java')
a, b = read(sys.argv[1], True, java), read(sys.argv[2], False)
if a != b:
    for k in sorted(set(a) | set(b)):
        if a[k] != b[k]:
            print('pcol %d inferno %d  %s' % (a[k], b[k], k[:300]))
    sys.exit(1)
print('%d stacks agree' % len(a))
