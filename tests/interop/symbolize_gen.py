#!/usr/bin/env python3
"""An unsymbolized native pprof profile of real binaries, as a profiler
that records raw addresses writes one (tests/interop/t_symbolize.sh).

  symbolize_gen.py OUT JSON
  symbolize_gen.py --build-id BIN   prints BIN's GNU build id (hex)
  symbolize_gen.py --slow-elf DIR N writes DIR/s0000... (slow_elf)
  symbolize_gen.py --slow-copy BIN OUT writes BIN slow to read (slow_copy)

JSON: a list of {"bin": PATH, "base": LOAD_BASE, "name": MAPPING_FILE,
"build_id": "real" | "" | HEX[, "funcs": "mangled"]}.  Each binary's
executable PT_LOAD segment becomes a mapping placed as the loader places it
(start = base + its page, offset = its page's file offset); its samples are
stacks leaf first: every 2nd byte of `work` (C: with `sq` inlined), then
`other` 5 bytes in, addresses taken from `nm`.  (Not main: gcc puts it in
.text.startup, where go tool pprof's DWARF reader finds no function.)  With
"funcs": "mangled", instead one sample in the middle of each function whose
symbol is mangled (C++ _Z..., Rust _R... or _ZN...E), weights 1, 2, ...
in nm's order; with "samples": false, the mapping alone."""
import functools
import json
import os
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "support"))
import pprofgen  # noqa: E402


# (each binary read once: a spec names one many times, 300 mappings of a
# forked server)
@functools.lru_cache(maxsize=None)
def elf(path):
    d = open(path, "rb").read()
    assert d[:4] == b"\x7fELF" and d[4] == 2 and d[5] == 1, "64-bit little-endian ELF only"
    phoff, = struct.unpack_from("<Q", d, 32)
    phentsize, phnum = struct.unpack_from("<HH", d, 54)
    text, bid = None, ""
    for i in range(phnum):
        typ, flags, off, vaddr, _, filesz, memsz, align = struct.unpack_from("<IIQQQQQQ", d, phoff + i * phentsize)
        if typ == 1 and flags & 1:
            text = (off, vaddr, memsz)
        if typ == 4:  # PT_NOTE: the GNU build id
            j = off
            while j + 12 <= off + filesz:
                nsz, dsz, nt = struct.unpack_from("<III", d, j)
                name = d[j + 12:j + 12 + nsz]
                dpos = j + 12 + (nsz + 3) // 4 * 4
                if nt == 3 and name == b"GNU\0":
                    bid = d[dpos:dpos + dsz].hex()
                j = dpos + (dsz + 3) // 4 * 4
    return text, bid


@functools.lru_cache(maxsize=None)
def syms(path, code_only=False):
    out = subprocess.run(["nm", "-S", "--defined-only", path], capture_output=True, text=True, check=True).stdout
    s = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4 and (not code_only or f[2] in "TtWw"):
            s[f[3]] = (int(f[0], 16), int(f[1], 16))
    return s


def slow_elf(path):
    """An ELF file that is slow to read and no binary of a mapping: its
    65535 section headers (each read) lie in a hole of the file (a few KB
    of disk), and it is an ET_CORE, whose base pprof cannot tell."""
    shnum, shoff = 65535, 64
    names = shoff + shnum * 64
    h = bytearray(64)
    h[0:7] = b"\x7fELF\x02\x01\x01"
    struct.pack_into("<HHIQQQIHHHHHH", h, 16, 4, 62, 1, 0, 0, shoff, 0, 64, 56, 0, 64, shnum, shnum - 1)
    last = struct.pack("<IIQQQQIIQQ", 1, 3, 0, 0, names, 11, 0, 0, 1, 0)  # .shstrtab
    with open(path, "wb") as f:
        f.write(h)
        f.seek(shoff + (shnum - 1) * 64)
        f.write(last)
        f.write(b"\0.shstrtab\0")


def slow_copy(src, out):
    """BIN, slow to read as slow_elf is: its own section headers, then
    zeros up to 65535 of them, in a hole."""
    d = bytearray(open(src, "rb").read())
    shoff, = struct.unpack_from("<Q", d, 40)
    shentsize, shnum = struct.unpack_from("<HH", d, 58)
    own = bytes(d[shoff:shoff + shentsize * shnum])
    d += b"\0" * (-len(d) % 8)
    struct.pack_into("<Q", d, 40, len(d))
    struct.pack_into("<H", d, 60, 65535)
    with open(out, "wb") as f:
        f.write(d + own)
        f.truncate(len(d) + shentsize * 65535)
    os.chmod(out, 0o755)


def main():
    if sys.argv[1] == "--build-id":
        print(elf(sys.argv[2])[1])
        return
    if sys.argv[1] == "--slow-copy":
        slow_copy(sys.argv[2], sys.argv[3])
        return
    if sys.argv[1] == "--slow-elf":
        os.makedirs(sys.argv[2], exist_ok=True)
        for i in range(int(sys.argv[3])):
            slow_elf(os.path.join(sys.argv[2], "s%04d" % i))
        return
    out, spec = sys.argv[1], json.loads(sys.argv[2])
    maps, samples = [], []
    for b in spec:
        (off, vaddr, memsz), bid = elf(b["bin"])
        base = b["base"]
        page = vaddr & ~0xfff
        start = base + page
        limit = base + ((vaddr + memsz + 0xfff) & ~0xfff)
        m = {"start": start, "limit": limit, "offset": off & ~0xfff, "file": b["name"]}
        if b["build_id"]:
            m["build_id"] = bid if b["build_id"] == "real" else b["build_id"]
        maps.append(m)
        if b.get("samples") is False:
            continue
        if b.get("funcs") == "mangled":
            s = syms(b["bin"], True)
            addrs = sorted({a + sz // 2 for n, (a, sz) in s.items() if n[:2] in ("_Z", "_R") and sz})
            samples += [[[base + a], k + 1] for k, a in enumerate(addrs)]
            continue
        s = syms(b["bin"])
        w, ws = s["work"]
        for k in range(0, ws, 2):
            samples.append([[base + w + k, base + s["other"][0] + 5], k + 1])
    spath = out + ".json"
    json.dump({"mappings": maps, "samples": samples}, open(spath, "w"))
    pprofgen.native(out, spath)


if __name__ == "__main__":  # (tests/support/legacy_cpu_gen.py imports it)
    main()
