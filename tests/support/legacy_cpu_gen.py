#!/usr/bin/env python3
"""Writes legacy binary CPU profiles (gperftools' CPUPROFILE format, Java's
"profilez"), as google/pprof's profile/legacy_profile.go parseCPU reads
them, for pcol's reader to be judged against go tool pprof
(tests/interop/t_pprof_views.sh) and for its refusals (tests/cli/t_pprof.sh).

  legacy_cpu_gen.py all DIR     writes DIR/<case>.cpu for every case below
  legacy_cpu_gen.py CASE OUT    one case
  legacy_cpu_gen.py native BIN BASE OUT   a profile of the real binary BIN
                                loaded at BASE (its executable segment mapped
                                as the loader maps it): stacks leaf first of
                                `work` (every 4th byte of its first 40),
                                `other` (not in all) and `main` (return
                                addresses inside them), for --symbolize local
                                (tests/interop/t_symbolize.sh)
  legacy_cpu_gen.py native-drop BIN BASE OUT   the same, some stacks with
                                a leaf in BIN's `__restore` (a frame of the
                                CPU profiler's that pprof prunes once it has
                                named it)

Cases (words of 4 or 8 bytes, little- or big-endian: le64 be64 le32 be32):
  cpp-le64   C++ header (0, 3, 0, period 2500 us, 0); a signal-handler frame
             second in every stack but one (pprof drops it), a leaf written
             twice (the second as leaf + 1: dropped), recursion, zero-count
             records, an address in no mapping (pprof's 0..2^64-1 mapping),
             a leaf at address 0; after the end marker a /proc/self/maps
             text: glog-prefixed rows, non-executable rows, a row split in
             two (merged), "build=..." setting $build for a brief row's build
             id, a main binary at 0x400000 + offset, a library named first
  cpp-be64, cpp-le32, cpp-be32  the same records in the other word forms
  cpp-nomaps-be32  no end marker, no maps: every location in the fake mapping
  java-be64  Java header (third word 1): no -1 on callers, a text symbol
             table after the end marker ("0x<addr> name (file:line)",
             "name (path/lib.so)", "generated stub/JIT", a bare name, an
             address given twice: the last wins), one address unsymbolized
  java-drop-le64  Java names of the CPU profiler's own frames (__restore,
             ProfileData::Add) at the leaf, below a user frame, at the root
             and alone: go prunes them by the drop_frames it sets
  huge-depth  a record whose depth is past the end of the file (refused)
  cut-record  a record cut inside its first two words (refused)
"""
import os
import struct
import sys

FORMS = {"le64": "<Q", "be64": ">Q", "le32": "<I", "be32": ">I"}

HANDLER = 0x4005F0  # the signal handler's return address, second in stacks
MAIN = 0x401000     # addresses in the main binary's text


def words(form, ws):
    f = FORMS[form]
    mask = (1 << (8 * struct.calcsize(f))) - 1
    return b"".join(struct.pack(f, w & mask) for w in ws)


def cpp_records(wide):
    """(count, stack leaf first) records; 32-bit forms keep addresses small"""
    hi = 0x7F0000000000 if wide else 0x30000000
    libc = hi + 0x1000
    nomap = hi + 0x900000  # in no mapping
    recs = []
    for i in range(40):
        leaf = MAIN + 0x100 + 0x10 * (i % 7)
        stack = [leaf, HANDLER + 1, MAIN + 0x801, MAIN + 0x901, MAIN + 0xA01]
        if i % 5 == 0:  # recursion: the same caller twice
            stack = [leaf, HANDLER + 1, MAIN + 0x801, MAIN + 0x801, MAIN + 0x901, MAIN + 0xA01]
        if i % 6 == 1:  # the unwinder's copy of the leaf (leaf = copy - 1 + 1)
            stack = [leaf, HANDLER + 1, leaf, MAIN + 0x901, MAIN + 0xA01]
        if i % 9 == 2:
            stack = [libc + 0x20 * i, HANDLER + 1, libc + 0x501, MAIN + 0x901, MAIN + 0xA01]
        if i == 7:
            stack = [nomap, HANDLER + 1, nomap + 0x41, MAIN + 0xA01]
        if i == 11:
            stack = [0, HANDLER + 1, MAIN + 0xA01]
        recs.append((0 if i % 8 == 3 else 1 + i % 4, stack))
    recs.append((5, [MAIN + 0x100, HANDLER + 1, MAIN + 0x901, MAIN + 0xA01]))
    recs.append((2, [MAIN + 0x200]))  # one frame: all stacks but len/32 have the handler
    return recs, libc


def maps_text(wide, libc):
    hi = 0x7F0000000000 if wide else 0x30000000
    return "\n".join([
        "%08x-%08x r-xp 00001000 08:01 1234   /usr/bin/server" % (0x401000, 0x402000),
        "%08x-%08x rw-p 00002000 08:01 1234   /usr/bin/server" % (0x402000, 0x403000),
        "I1128 11:00:00.000000 1 maps.cc:42] %x-%x r-xp 00000000 08:01 99 /lib/libc.so.6" % (libc, libc + 0x400),
        "%x-%x r-xp 00000400 08:01 99 /lib/libc.so.6" % (libc + 0x400, libc + 0x800),
        "build=0123abcd",
        "0x%x-0x%x /opt/lib/libplug.so (@0) $build" % (hi + 0x200000, hi + 0x210000),
        "%x-%x ---p 00000000 00:00 0" % (hi + 0x300000, hi + 0x301000),
        "this line is no mapping",
        "",
    ]).encode()


def cpp(form, maps=True, marker=True):
    wide = form.endswith("64")
    recs, libc = cpp_records(wide)
    ws = [0, 3, 0, 2500, 0]
    for count, stack in recs:
        ws += [count, len(stack)] + stack
    if marker:
        ws += [0, 1, 0]
    return words(form, ws) + (maps_text(wide, libc) if maps and marker else b"")


def java_file(form, recs, syms):
    """A Java profile: the header, records (count, stack leaf first), the end
    marker and the symbol table's lines."""
    ws = [0, 3, 1, 10000, 0]
    for count, stack in recs:
        ws += [count, len(stack)] + stack
    ws += [0, 1, 0]
    return words(form, ws) + "\n".join(syms + [""]).encode()


def java(form):
    recs = [(3, [0x10, 0x11, 0x12]), (1, [0x13, 0x11, 0x12]), (2, [0x14, 0x12]),
            (0, [0x15, 0x12]), (4, [0x16, 0x17, 0x11, 0x12]), (1, [0x18, 0x12]),
            (2, [0x12, 0x12, 0x12])]
    return java_file(form, recs, [
        "  0x00000010 com.example.Leaf.spin (Leaf.java:42)",
        "0x11 com.example.Mid.call (Mid.java:7)",
        "0x12 com.example.Main.main (Main.java:3)",
        "0x13 Interpreter",
        "0x14 libjvm_thing (/usr/lib/jvm/lib/server/libjvm.so)",
        "0x15 some generated stub/JIT code",
        "0x16 com.example.Leaf.spin (Leaf.java:43)",
        "0x16 com.example.Leaf.other (Leaf.java:44)",
        "0x99 com.example.Unused.never (Unused.java:1)",
        "not a symbol line",
    ])


def java_drop(form):
    """Java names of the CPU profiler's own frames (pprof's drop_frames of a
    legacy profile, cpuProfilerRxStr): go prunes the stacks by them once it
    has the names (fetch.go RemoveUninteresting)."""
    recs = [(5, [0x20, 0x21, 0x22, 0x23]),  # leaf side cut: Work.run <- Main.main
            (2, [0x22, 0x20, 0x23]),        # cut below Main.main: Work.run goes too
            (1, [0x21, 0x20]),              # nothing but profiler frames: whole
            (3, [0x22, 0x23, 0x20]),        # a profiler frame at the root: whole
            (4, [0x24, 0x22, 0x23])]        # a name drop_frames does not match in full
    return java_file(form, recs, [
        "0x20 __restore",
        "0x21 ProfileData::Add (profiledata.cc:10)",
        "0x22 com.example.Work.run (Work.java:5)",
        "0x23 com.example.Main.main (Main.java:3)",
        "0x24 ProfileData::Addx (profiledata.cc:11)",
    ])


def case(name):
    if name.startswith("cpp-") and name[4:] in FORMS:
        return cpp(name[4:])
    if name == "cpp-nomaps-be32":
        return cpp("be32", maps=False, marker=False)
    if name == "java-be64":
        return java("be64")
    if name == "java-drop-le64":
        return java_drop("le64")
    if name == "huge-depth":
        return words("le64", [0, 3, 0, 10000, 0, 1, 2, MAIN, MAIN, 1, 1 << 40, MAIN])
    if name == "cut-record":
        return words("le32", [0, 3, 0, 10000, 0, 1, 1, MAIN]) + b"\x01\x00"
    raise SystemExit("legacy_cpu_gen.py: no case " + name)


CASES = ["cpp-le64", "cpp-be64", "cpp-le32", "cpp-be32", "cpp-nomaps-be32", "java-be64", "java-drop-le64"]

def native(binary, base, out, drop=False):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "interop"))
    import symbolize_gen  # the project's ELF and nm readers
    (off, vaddr, memsz), _ = symbolize_gen.elf(binary)
    sy = symbolize_gen.syms(binary)
    page = vaddr & ~0xFFF
    ws = [0, 3, 0, 10000, 0]
    for k in range(0, 40, 4):
        # work alone in some: no second frame shared by all, which pprof would
        # drop.  No frame in main: go tool pprof 1.19 leaves every address of
        # gcc -O2's main, the first function of .text in the PIE, unnamed
        # ("[pie]", where addr2line and pcol say main), also in a protobuf
        st = [base + sy["work"][0] + k] + ([] if k % 12 == 0 else [base + sy["other"][0] + 5])
        if drop and k % 8 == 0:  # a leaf in __restore, which pprof prunes once named
            st = [base + sy["__restore"][0] + k % 16, base + sy["work"][0] + 5] + st[1:]
        ws += [1 + k // 4, len(st)] + st
    ws += [0, 1, 0]
    maps = "%x-%x r-xp %08x 08:01 1 %s\n" % (base + page, base + vaddr + memsz, off & ~0xFFF, os.path.abspath(binary))
    with open(out, "wb") as o:
        o.write(words("le64", ws) + maps.encode())


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] in ("native", "native-drop"):
        native(sys.argv[2], int(sys.argv[3], 0), sys.argv[4], sys.argv[1] == "native-drop")
    elif len(sys.argv) == 3 and sys.argv[1] == "all":
        for c in CASES:
            with open(os.path.join(sys.argv[2], c + ".cpu"), "wb") as o:
                o.write(case(c))
    elif len(sys.argv) == 3:
        with open(sys.argv[2], "wb") as o:
            o.write(case(sys.argv[1]))
    else:
        raise SystemExit(__doc__)
