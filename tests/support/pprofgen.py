#!/usr/bin/env python3
"""Writes small raw pprof profiles for the hostile-input tests (protobuf by
hand, standard library only).

  pprofgen.py lines OUT N LINE   N functions of file a.R starting on line 1,
                                 each sampled on line LINE (tests/cli/t_list_sources.sh)
  pprofgen.py strings OUT TEXT   every string of the profile holds TEXT (a
                                 Python-escaped string, e.g. '\\x1b]0;x\\x07'):
                                 function names, system names, file names,
                                 mapping file and build id, sample and period
                                 types and units, label keys, values and units,
                                 comments (tests/cli/t_markup.sh, t_text_escape.sh);
                                 a 4th argument "bytes" names the numeric label
                                 "bytes", as Go heap profiles do (its unit still
                                 holds TEXT: tests/cli/t_graph_escape.sh)
  pprofgen.py unit OUT TEXT      a profile of ASCII functions (main, alpha,
                                 beta, gamma on five stacks) whose second value
                                 type "work" (the default) has the unit "unit" +
                                 TEXT (Python-escaped, as for strings): a long
                                 non-ASCII unit of no family
                                 (tests/cli/t_report_compute.sh, t_unit_cut.sh)
  pprofgen.py unsym OUT [MODE]   unsymbolized locations (no lines) in mappings of a
                                 Unix path, a Windows path, a name with ';', an
                                 empty file name, another path to libc.so.6, a
                                 path ending in '/', and without a mapping, under
                                 a named main (tests/cli/t_frame_names.sh); MODE
                                 "unix" writes the Windows path as a Unix one (go
                                 tool pprof drops a Windows path's name) and the
                                 second libc path as libm's (go keeps a row per
                                 path, pcol one per name), "bytes"
                                 puts bytes that are not UTF-8 around the ';' name's
                                 last '/' (tests/interop/t_clickhouse.sh);
                                 "nameless" adds functions without a name (start
                                 lines 40 and 90) in both libc.so.6 mappings, two
                                 of them in one location, one inlined into main
                                 (pprof keeps their nodes apart by mapping path and
                                 start line: t_clickhouse.sh), and functions named
                                 "<unknown>" and "[libc.so.6]" beside a nameless
                                 one of no mapping (other nodes of one name);
                                 "namelessfile" the same with files: the
                                 nameless function of start line 40 in
                                 src/inner.c, that of no mapping in app/top.c
                                 (exports keep them: tests/cli/t_nameless_frames.sh)
  pprofgen.py dupbase OUT         go's -diff_base file whose string table holds
                                 "true" twice, a base sample labelled with each
                                 (tests/cli/t_base_counts.sh)
  pprofgen.py emptybid OUT LIB N  one sample of N in LIB (a.so or b.so, at other
                                 starts), its build id a stored "" (t_base_loaded.sh)
  pprofgen.py mapbomb OUT N [SHIFT]  N mappings of one file at other starts
                                 (one merge key: t_bombs.sh)
  pprofgen.py gperf OUT           a gperftools-style native profile: one function
                                 without a name (file "??", line 0) in locations
                                 of three mappings (libR.so twice, libz.so,
                                 libc.so.6) and of none, under a named main
                                 (tests/cli/t_nameless_frames.sh)
  pprofgen.py comments OUT [C...] a profile of main -> work whose comments
                                 are the arguments C (Python-escaped, as for
                                 strings), in order (tests/interop/t_pprof_header.sh)
  pprofgen.py comments-at OUT NS [C...]  the same starting at time_nanos NS
                                 (not 10^9): profiles apart in wall-clock time
  pprofgen.py emptystack OUT     samples without locations beside main, main>foo
                                 and an unsymbolized one, labelled k=a or k=b:
                                 pprof's filters drop them even when none is
                                 given (-relative_percentages, -tags;
                                 tests/interop/t_pprof_views.sh)
  pprofgen.py emptylabel OUT     labels pprof drops (key k with neither string
                                 nor number nor unit) beside k=a, n=0 with a
                                 unit (kept: a number 0) and n=5 bytes: -tags,
                                 -tagroot, top --by label
  pprofgen.py numunits OUT       numeric labels with units (bytes of 100, 1536
                                 and 3 MiB; a wait in ns, one sample with two
                                 values) and one without (n): -tagroot/-tagleaf
                                 under -unit (tests/interop/t_pprof_views.sh)
  pprofgen.py duptypes OUT       sample types samples/count, cpu/nanoseconds,
                                 cpu/nanoseconds: one TYPE/UNIT twice, its
                                 columns apart (alpha leads the first, beta
                                 the second), default_sample_type cpu: go's
                                 -sample_index=cpu and its default take the
                                 first (tests/interop/t_clickhouse.sh)
  pprofgen.py duptypes OUT nodefault   the same without default_sample_type: go's
                                 default is the last column, and pcol's
                                 (tests/cli/t_values.sh)
  pprofgen.py zerosample OUT     samples on one stack labelled k=a (values 1, 10),
                                 k=z (0, 0: pprof's merge drops it) and k=y (0, 5):
                                 -tags lists no z (tests/interop/t_pprof_views.sh)
  pprofgen.py loaded OUT START RUN  a run of /bin/app loaded at START (0x1000,
                                 0x5000: another run's addresses, which go's Merge
                                 makes one by their offset in the mapping): main
                                 labelled k=c (1 sample, 10 ns) and main>work k=a
                                 (RUN "a": 2, 20 ns; "b": 1, 10 ns), so that -base
                                 of run b cancels k=c (tests/cli/t_base_loaded.sh)
  pprofgen.py multivalue OUT     samples with several values of one key, out of
                                 order (k=b,a and k=a,b on one stack; j=x,w and
                                 k=z,c interleaved; k=9,m,3 numbers among a
                                 string; q=2048,100 bytes): pprof keeps a key's
                                 values in the sample's order (-traces, -tagroot
                                 "b,a"; tests/interop/t_pprof_views.sh)
  pprofgen.py hours OUT          one sample of 4,000,000 cpu hours in 5 ns of
                                 duration: its total in ns is past int64
                                 (tests/cli/t_pprof_semantics.sh)
  pprofgen.py period OUT PERIOD UNIT N [DURATION_NS]  N counted samples
                                 (samples/count 1 each) of main -> alpha|beta,
                                 period_type cpu/UNIT, period PERIOD, and
                                 duration_nanos only when given: an absurd
                                 period of no stated duration
                                 (tests/cli/t_rprof.sh)
  pprofgen.py timed OUT PERIOD N CPU [DURATION_NS]  the same N samples
                                 with a second type cpu/nanoseconds (the
                                 default, the last) of CPU ns each, period
                                 cpu/nanoseconds PERIOD: a hostile period
                                 and times past int64 ns in all
                                 (tests/cli/t_exports.sh)
  pprofgen.py typed OUT T:U,T:U LOCS:VALS...  the sample types given, in order,
                                 and a sample each LOCS:VALS ("2,1:1,5000":
                                 alpha under main, values 1 and 5000;
                                 locations 1 main, 2 alpha, 3 beta): two
                                 types of one name in kin units, a sample
                                 whose scaled values are 0; an argument
                                 default=NAME names default_sample_type
                                 (tests/cli/t_values.sh)
  pprofgen.py threads OUT MODE    cpu samples of threads told apart by labels
                                 (MODE num: tid=10, tid=20; str: thread_name=io,
                                 thread=db; mixed: tid=10, tid=20,
                                 thread_name=io) beside samples of no thread
                                 label (2 ns, and 4 ns labelled other=x): the V8
                                 export's refusal (tests/cli/t_v8_devtools.sh)
  pprofgen.py threads OUT ebpf   cpu samples of four threads all named
                                 thread_name=parca, of pid "4242", told apart
                                 by a string thread_id label as Parca's eBPF
                                 agent writes it: "2764734" (3 ms), "2756170"
                                 (5 ms), "w-3" (7 ms: no number) and
                                 "9007199254740993" (2 ms: past 2^53, what a
                                 JavaScript number holds exactly)
                                 (tests/cli/t_thread_ids.sh,
                                 tests/interop/t_firefox.sh)
  pprofgen.py lossy OUT [plain]  samples/count, alloc/bytes and cpu/nanoseconds
                                 (the default) of one thread (tid=10,
                                 thread_name=main) labelled foo=bar|baz and n=7:
                                 what each export does not write; plain:
                                 cpu/nanoseconds alone, no label
                                 (tests/cli/t_written_value.sh)
  pprofgen.py native OUT SPEC    an unsymbolized native profile (no functions)
                                 from a JSON file: {"mappings": [{"start", "limit",
                                 "offset", "file", "build_id"}...], "samples":
                                 [[[addr, ...], count]...]}, a location per
                                 address (in the mapping that holds it, or
                                 none), leaf first (tests/interop/t_symbolize.sh)
  pprofgen.py names OUT FILE     a symbolized profile: a function per line of
                                 FILE (bytes as they are), sampled once each
                                 (weights 1, 2, ...) in a mapping that has
                                 functions; its system name is the line and its
                                 name the line too, or empty for every 2nd
                                 function (pprof demangles both), or "kept-N"
                                 for every 3rd one (pprof leaves it)
                                 (tests/interop/t_symbolize.sh)
  pprofgen.py retype IN OUT OLD=NEW...  a copy of the real profile IN (gzipped
                                 or not) whose strings OLD are NEW (a sample
                                 type renamed: cpu=samples nanoseconds=count),
                                 without its period type and period (go's Merge
                                 refuses other ones), written uncompressed: a
                                 profile go and pcol diff against a collapsed
                                 base's pprof copy (tests/cli/t_base_counts.sh)
  pprofgen.py random OUT SEED    a small random profile (seeded: the same SEED
                                 writes the same bytes): 1-3 sample types, values
                                 0, negative, tiny and huge, string labels with
                                 several values of a key and numeric ones with and
                                 without units, inline frames, several mappings and
                                 locations of none, functions without names or
                                 files, duplicate locations, period, duration,
                                 time, comments, drop_frames/keep_frames each set
                                 or not (tests/interop/t_pprof_views.sh)
  pprofgen.py random-odd OUT SEED  the same profile with ODD_NAMES and ODD_FILES
                                 for its functions' names and files (unicode,
                                 quotes, blanks, ';', bytes that are not UTF-8;
                                 tests/interop/t_export_search.sh)
  pprofgen.py distinct OUT N DEPTH  N samples, each on its own stack of DEPTH
                                 locations drawn from 4,000 (a fixed LCG), so
                                 stacks share almost no prefix: N x DEPTH stack
                                 nodes; every value 0 but the last sample's
                                 (tests/bounds/t_bounds.sh: memory a node)
  pprofgen.py manylabels OUT N   one sample of main -> work with N string labels
                                 of N keys (k0=v0 ...) and N numeric ones of N
                                 other keys (n0=1 ...) (tests/bounds/t_bounds.sh:
                                 traces' work a label)
  pprofgen.py vtypes OUT N LEN   N value types all named one LEN-byte type
                                 (unit count) and one sample: a list of the
                                 value types is N x LEN bytes from a file of
                                 LEN + ~8N (tests/bounds/t_bounds.sh: info)
  pprofgen.py dropframes OUT DROP [KEEP]  a profile whose drop_frames is
                                 DROP and keep_frames KEEP (as they are; ""
                                 leaves one out) over
                                 allocation-like frames (malloc, malloc_internal,
                                 "operator new(unsigned long)", ".ppc_alloc",
                                 "ns::(anonymous namespace)::alloc(int)",
                                 runtime.*), inlined ones (a match on an inner
                                 line, on the outermost one), a nameless
                                 function, stacks all of such frames, such
                                 frames at the root, labels k=a/b and n (each
                                 sample's own) and two value types (tests/interop/t_pprof_semantics.sh)
  pprofgen.py units OUT SPACE DIV [PERIOD_UNIT [COUNT_UNIT]]  a heap-like
                                 profile: alloc_objects/count,
                                 alloc_space/SPACE, inuse_objects/count,
                                 inuse_space/SPACE (COUNT_UNIT names the
                                 objects' unit instead of count), period_type
                                 space/PERIOD_UNIT (SPACE when not given) of
                                 period 524288 / DIV; main -> alpha|beta of
                                 space 3 MiB, 5 kiB, 1 MiB + 512 B, each / DIV
                                 rounded down (DIV 1024: kilobytes of the same
                                 heap): go tool pprof scales such profiles to
                                 one unit before it merges them
                                 (tests/cli/t_values.sh)
  pprofgen.py aslr OUT START [SIZE [MODE]]  one run of a PIE program: its
                                 binary /opt/app/bin/app (build id "app-1") mapped
                                 at START (SIZE bytes, 0x5000 when not given) and
                                 libfoo.so (build id "foo-1") 0x100000 above it,
                                 address-only locations at offsets that do not
                                 depend on START (main, work, leaf of the binary,
                                 foo and bar of the library); MODE sym: each
                                 location has its function and line; extra: one
                                 more sample (9) at a location of its own
                                 (offset 0x1450 of the binary); procs: a second
                                 process of the program in the same profile,
                                 both mappings 0x40000000 above the first's,
                                 samples 4, 1, 6 there; procs2: procs with the
                                 second process's samples first (its library
                                 reached first: go keeps that row, the binary's
                                 first mapping ahead of all); nofile, emptyfile: the
                                 binary's mapping has no file name and no build
                                 id, its file field left out (string 0) or the
                                 index of a second "" in the table. Two runs at two
                                 STARTs are what go's merge makes one (its
                                 mapping key has no start: tests/interop/t_aslr.sh)
"""
import gzip
import os
import sys


# (profile.proto's encoding: amplifier.py, semantics_pprof.py and
# gen_pprof_counts.py import varint and field from here)
def varint(n):
    if n < 0:
        n += 1 << 64
    out = bytearray()
    while True:
        b = n & 0x7f
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field(num, wt, payload):
    if wt == 0:
        return varint(num << 3) + varint(payload)
    return varint(num << 3 | 2) + varint(len(payload)) + payload


def ints(xs):
    """A packed repeated integer field's payload."""
    return b"".join(varint(x) for x in xs)


def sample(locs, vals, labels=b""):
    """A Sample (Profile field 2): its location ids, leaf first (none: the
    field left out), its values and its labels (encoded Label fields)."""
    return field(2, 2, (field(1, 2, ints(locs)) if locs else b"") + field(2, 2, ints(vals)) + labels)


class Strings:
    def __init__(self):
        self.s = [b""]

    def id(self, b):
        if b not in self.s:
            self.s.append(b)
        return self.s.index(b)

    def table(self):
        return b"".join(field(6, 2, x) for x in self.s)


def lines(out, n, line):
    st = Strings()
    p = field(1, 2, field(1, 0, st.id(b"samples")) + field(2, 0, st.id(b"count")))
    for i in range(1, n + 1):
        p += sample([i], [1])
        p += field(4, 2, field(1, 0, i) + field(4, 2, field(1, 0, i) + field(2, 0, line)))
        p += field(5, 2, field(1, 0, i) + field(2, 0, st.id(b"f%d" % i)) +
                   field(4, 0, st.id(b"a.R")) + field(5, 0, 1))
    open(out, "wb").write(p + st.table())


def strings(out, text, numkey=None):
    t = text.encode("latin-1")  # each \xNN one byte: invalid UTF-8 stays invalid
    st = Strings()
    s = lambda tag: st.id(tag + t)
    num = st.id(numkey.encode()) if numkey else s(b"num")
    p = field(1, 2, field(1, 0, s(b"type")) + field(2, 0, s(b"unit")))
    p += field(1, 2, field(1, 0, s(b"type2")) + field(2, 0, st.id(b"nanoseconds")))
    # two samples on a stack of two functions, with string and numeric labels
    for k in range(2):
        lab = field(3, 2, field(1, 0, s(b"key")) + field(2, 0, s(b"value%d" % k)))
        lab += field(3, 2, field(1, 0, num) + field(3, 0, 7 + k) + field(4, 0, s(b"nunit")))
        p += sample([1, 2], [3 + k, 5], lab)
    p += field(3, 2, field(1, 0, 1) + field(2, 0, 0x1000) + field(3, 0, 0x2000) +
               field(5, 0, s(b"mapfile")) + field(6, 0, s(b"buildid")) + field(7, 0, 1))
    for i in (1, 2):
        p += field(4, 2, field(1, 0, i) + field(2, 0, 1) + field(3, 0, 0x1000 + i) +
                   field(4, 2, field(1, 0, i) + field(2, 0, 3)))
        p += field(5, 2, field(1, 0, i) + field(2, 0, s(b"fn%d" % i)) + field(3, 0, s(b"sys%d" % i)) +
                   field(4, 0, s(b"file%d" % i)) + field(5, 0, 1))
    p += field(9, 0, 1_000_000_000)                                   # time_nanos
    p += field(11, 2, field(1, 0, s(b"ptype")) + field(2, 0, s(b"punit")))
    p += field(12, 0, 10)                                            # period
    p += field(13, 0, s(b"comment"))
    p += field(14, 0, s(b"type"))                                    # default_sample_type
    open(out, "wb").write(p + st.table())


def unit(out, text):
    t = text.encode("latin-1")  # each \xNN one byte, as strings
    st = Strings()
    p = field(1, 2, field(1, 0, st.id(b"samples")) + field(2, 0, st.id(b"count")))
    p += field(1, 2, field(1, 0, st.id(b"work")) + field(2, 0, st.id(b"unit" + t)))
    for i, name in enumerate((b"main", b"alpha", b"beta", b"gamma"), 1):
        p += field(5, 2, field(1, 0, i) + field(2, 0, st.id(name)) + field(4, 0, st.id(b"a.go")) +
                   field(5, 0, 10 * i))
        p += field(4, 2, field(1, 0, i) + field(4, 2, field(1, 0, i) + field(2, 0, 10 * i + 1)))
    # stacks leaf first, values (samples, work)
    for locs, vals in (((2, 1), (1, 5)), ((3, 2, 1), (2, 30)), ((4, 2, 1), (1, 7)), ((4, 1), (3, 100)),
                       ((3, 1), (1, 2))):
        p += sample(locs, vals)
    p += field(14, 0, st.id(b"work"))
    open(out, "wb").write(p + st.table())


def numunits(out):
    st = Strings()
    p = field(1, 2, field(1, 0, st.id(b"alloc_space")) + field(2, 0, st.id(b"bytes")))
    p += field(1, 2, field(1, 0, st.id(b"delay")) + field(2, 0, st.id(b"nanoseconds")))
    for lid, name in ((1, b"main"), (2, b"alloc"), (3, b"wait")):
        p += field(4, 2, field(1, 0, lid) + field(4, 2, field(1, 0, lid) + field(2, 0, lid)))
        p += field(5, 2, field(1, 0, lid) + field(2, 0, st.id(name)) + field(4, 0, st.id(b"main.go")))
    num = lambda k, v, u: field(3, 2, field(1, 0, st.id(k)) + field(3, 0, v) + (field(4, 0, st.id(u)) if u else b""))
    for locs, vals, labs in (([2, 1], (100, 0), [num(b"bytes", 100, b"bytes"), num(b"n", 3, None)]),
                             ([2, 1], (1536, 0), [num(b"bytes", 1536, b"bytes")]),
                             ([2], (3 << 20, 0), [num(b"bytes", 3 << 20, b"bytes"), num(b"n", 7, None)]),
                             ([3, 1], (0, 1500000), [num(b"wait", 1500000, b"nanoseconds")]),
                             ([3, 1], (0, 2500), [num(b"wait", 2500, b"nanoseconds"),
                                                  num(b"wait", 4000000000, b"nanoseconds")])):
        p += sample(locs, vals, b"".join(labs))
    p += field(14, 0, st.id(b"alloc_space"))                         # default_sample_type
    open(out, "wb").write(p + st.table())


def zerosample(out):
    st = Strings()
    p = field(1, 2, field(1, 0, st.id(b"samples")) + field(2, 0, st.id(b"count")))
    p += field(1, 2, field(1, 0, st.id(b"cpu")) + field(2, 0, st.id(b"nanoseconds")))
    p += field(4, 2, field(1, 0, 1) + field(4, 2, field(1, 0, 1) + field(2, 0, 3)))
    p += field(5, 2, field(1, 0, 1) + field(2, 0, st.id(b"main")))
    for vals, v in (((1, 10), b"a"), ((0, 0), b"z"), ((0, 5), b"y")):
        lab = field(3, 2, field(1, 0, st.id(b"k")) + field(2, 0, st.id(v)))
        p += sample([1], vals, lab)
    open(out, "wb").write(p + st.table())


def loaded(out, start, run):
    st = Strings()
    p = field(1, 2, field(1, 0, st.id(b"samples")) + field(2, 0, st.id(b"count")))
    p += field(1, 2, field(1, 0, st.id(b"cpu")) + field(2, 0, st.id(b"nanoseconds")))
    p += field(3, 2, field(1, 0, 1) + field(2, 0, start) + field(3, 0, start + 0xfff) + field(5, 0, st.id(b"/bin/app")))
    for lid, fid, line in ((1, 1, 3), (2, 2, 7)):
        p += field(4, 2, field(1, 0, lid) + field(2, 0, 1) + field(3, 0, start + 0x10 * lid) +
                   field(4, 2, field(1, 0, fid) + field(2, 0, line)))
    for fid, nm in ((1, b"main"), (2, b"work")):
        p += field(5, 2, field(1, 0, fid) + field(2, 0, st.id(nm)) + field(4, 0, st.id(b"app.go")))
    n = 2 if run == "a" else 1
    for locs, vals, v in (([1], (1, 10), b"c"), ([2, 1], (n, n * 10), b"a")):
        lab = field(3, 2, field(1, 0, st.id(b"k")) + field(2, 0, st.id(v)))
        p += sample(locs, vals, lab)
    open(out, "wb").write(p + st.table())


def multivalue(out):
    st = Strings()
    p = field(1, 2, field(1, 0, st.id(b"samples")) + field(2, 0, st.id(b"count")))
    for lid, name in ((1, b"main"), (2, b"work"), (3, b"idle")):
        p += field(4, 2, field(1, 0, lid) + field(4, 2, field(1, 0, lid) + field(2, 0, lid)))
        p += field(5, 2, field(1, 0, lid) + field(2, 0, st.id(name)) + field(4, 0, st.id(b"main.go")))
    s = lambda k, v: field(3, 2, field(1, 0, st.id(k)) + field(2, 0, st.id(v)))
    n = lambda k, v, u=None: field(3, 2, field(1, 0, st.id(k)) + field(3, 0, v) + (field(4, 0, st.id(u)) if u else b""))
    for locs, v, labs in (([2, 1], 10, [s(b"k", b"b"), s(b"k", b"a")]),
                          ([2, 1], 20, [s(b"k", b"a"), s(b"k", b"b")]),
                          ([3, 1], 5, [s(b"j", b"x"), s(b"k", b"z"), s(b"j", b"w"), s(b"k", b"c")]),
                          ([3, 1], 7, [n(b"k", 9), s(b"k", b"m"), n(b"k", 3)]),
                          ([2, 1], 3, [n(b"q", 2048, b"bytes"), n(b"q", 100, b"bytes")]),
                          ([2], 4, [s(b"j", b"w"), s(b"j", b"x")]),
                          ([1], 2, [s(b"k", b"b")])):
        p += sample(locs, [v], b"".join(labs))
    open(out, "wb").write(p + st.table())


def duptypes(out, nodefault=False):
    # samples/count, then cpu/nanoseconds twice (values 10x apart), on three
    # stacks of main -> {alpha, beta}: the second cpu column weighs beta most
    st = Strings()
    p = field(1, 2, field(1, 0, st.id(b"samples")) + field(2, 0, st.id(b"count")))
    p += field(1, 2, field(1, 0, st.id(b"cpu")) + field(2, 0, st.id(b"nanoseconds")))
    p += field(1, 2, field(1, 0, st.id(b"cpu")) + field(2, 0, st.id(b"nanoseconds")))
    for lid, name in ((1, b"main"), (2, b"alpha"), (3, b"beta")):
        p += field(4, 2, field(1, 0, lid) + field(4, 2, field(1, 0, lid) + field(2, 0, lid)))
        p += field(5, 2, field(1, 0, lid) + field(2, 0, st.id(name)) + field(4, 0, st.id(b"main.go")))
    for locs, vals in (([2, 1], (3, 30, 1)), ([3, 1], (1, 10, 500)), ([1], (2, 20, 7))):
        p += sample(locs, vals)
    p += field(9, 0, 1_000_000_000)                                   # time_nanos
    p += field(10, 0, 2_000_000_000)                                  # duration_nanos
    if not nodefault:
        p += field(14, 0, st.id(b"cpu"))                             # default_sample_type
    open(out, "wb").write(p + st.table())


def hours(out):
    st = Strings()
    p = field(1, 2, field(1, 0, st.id(b"cpu")) + field(2, 0, st.id(b"hours")))
    p += sample([1], [4_000_000])
    p += field(4, 2, field(1, 0, 1) + field(4, 2, field(1, 0, 1) + field(2, 0, 3)))
    p += field(5, 2, field(1, 0, 1) + field(2, 0, st.id(b"main")))
    p += field(9, 0, 1_000_000_000)                                  # time_nanos
    p += field(10, 0, 5)                                             # duration_nanos
    open(out, "wb").write(p + st.table())


def period(out, per, unit, n, duration=None, cpu=None):
    # n counted samples (samples/count, one each) of main -> {alpha, beta},
    # period_type cpu/UNIT, period PER, duration_nanos only when given;
    # with cpu, a second type cpu/nanoseconds (the default) of cpu each
    st = Strings()
    p = field(1, 2, field(1, 0, st.id(b"samples")) + field(2, 0, st.id(b"count")))
    if cpu is not None:
        p += field(1, 2, field(1, 0, st.id(b"cpu")) + field(2, 0, st.id(b"nanoseconds")))
    for lid, name in ((1, b"main"), (2, b"alpha"), (3, b"beta")):
        p += field(4, 2, field(1, 0, lid) + field(4, 2, field(1, 0, lid) + field(2, 0, lid)))
        p += field(5, 2, field(1, 0, lid) + field(2, 0, st.id(name)) + field(4, 0, st.id(b"main.go")))
    vals = [1] + ([cpu] if cpu is not None else [])
    for i in range(n):
        p += sample([2 + i % 2, 1], vals)
    p += field(9, 0, 1_000_000_000)                                   # time_nanos
    if duration is not None:
        p += field(10, 0, duration)                                   # duration_nanos
    p += field(11, 2, field(1, 0, st.id(b"cpu")) + field(2, 0, st.id(unit.encode())))
    p += field(12, 0, per)                                           # period
    open(out, "wb").write(p + st.table())


def units(out, space, div, punit=None, cunit="count"):
    # main -> alpha | beta; values as a heap profile's in bytes / div
    st = Strings()
    for t, u in ((b"alloc_objects", cunit), (b"alloc_space", space),
                 (b"inuse_objects", cunit), (b"inuse_space", space)):
        p_ = field(1, 0, st.id(t)) + field(2, 0, st.id(u.encode()))
        p = (p if t != b"alloc_objects" else b"") + field(1, 2, p_)
    for lid, name in ((1, b"main"), (2, b"alpha"), (3, b"beta")):
        p += field(4, 2, field(1, 0, lid) + field(4, 2, field(1, 0, lid) + field(2, 0, lid)))
        p += field(5, 2, field(1, 0, lid) + field(2, 0, st.id(name)) + field(4, 0, st.id(b"main.go")))
    for locs, objs, space_b in (([2, 1], 3, 3 << 20), ([3, 1], 5, 5 << 10), ([1], 2, (1 << 20) + 512)):
        vals = (objs * 2, space_b * 2 // div, objs, space_b // div)
        p += sample(locs, vals)
    p += field(9, 0, 1_000_000_000)                                   # time_nanos
    p += field(11, 2, field(1, 0, st.id(b"space")) + field(2, 0, st.id((punit or space).encode())))
    p += field(12, 0, 524288 // div)                                  # period
    open(out, "wb").write(p + st.table())


def typed(out, types, *samples):
    # main -> alpha | beta; types "T:U,T:U", each sample "LOC,LOC:V,V"
    # (locations leaf first: 1 main, 2 alpha, 3 beta)
    st, p = Strings(), b""
    for tu in types.split(","):
        t, u = tu.split(":")
        p += field(1, 2, field(1, 0, st.id(t.encode())) + field(2, 0, st.id(u.encode())))
    for lid, name in ((1, b"main"), (2, b"alpha"), (3, b"beta")):
        p += field(4, 2, field(1, 0, lid) + field(4, 2, field(1, 0, lid) + field(2, 0, lid)))
        p += field(5, 2, field(1, 0, lid) + field(2, 0, st.id(name)) + field(4, 0, st.id(b"main.go")))
    dflt = b""
    for smp in samples:
        if smp.startswith("default="):  # default_sample_type
            dflt = field(14, 0, st.id(smp[8:].encode()))
            continue
        locs, vals = (list(map(int, x.split(","))) for x in smp.split(":"))
        p += sample(locs, vals)
    open(out, "wb").write(p + dflt + field(9, 0, 1_000_000_000) + st.table())


def threads(out, mode):
    # cpu/nanoseconds samples of main -> {alpha, beta} on threads told apart
    # by their labels, and samples of no thread label (2 ms unlabelled,
    # 4 ms labelled other=x only): MODE "num" tid=10 (3 ms) and tid=20
    # (5 ms); "str" thread_name=io (7 ms) and thread=db (5 ms); "mixed"
    # tid=10, tid=20 and thread_name=io
    st = Strings()
    p = field(1, 2, field(1, 0, st.id(b"cpu")) + field(2, 0, st.id(b"nanoseconds")))
    for lid, name in ((1, b"main"), (2, b"alpha"), (3, b"beta")):
        p += field(4, 2, field(1, 0, lid) + field(4, 2, field(1, 0, lid) + field(2, 0, lid)))
        p += field(5, 2, field(1, 0, lid) + field(2, 0, st.id(name)) + field(4, 0, st.id(b"main.go")))
    num = lambda k, v: field(3, 2, field(1, 0, st.id(k)) + field(3, 0, v))
    s = lambda k, v: field(3, 2, field(1, 0, st.id(k)) + field(2, 0, st.id(v)))
    rows = [([2, 1], 2, []), ([3, 1], 4, [s(b"other", b"x")])]
    if mode in ("num", "mixed"):
        rows += [([2, 1], 3, [num(b"tid", 10)]), ([3, 1], 5, [num(b"tid", 20)])]
    if mode == "str":
        rows += [([3, 1], 7, [s(b"thread_name", b"io")]), ([2, 1], 5, [s(b"thread", b"db")])]
    if mode == "mixed":
        rows += [([3, 1], 7, [s(b"thread_name", b"io")])]
    if mode == "ebpf":
        rows = [(locs, v, [s(b"thread_name", b"parca"), s(b"thread_id", t), s(b"pid", b"4242")])
                for locs, v, t in (([2, 1], 3, b"2764734"), ([3, 1], 5, b"2756170"), ([2, 1], 7, b"w-3"),
                                   ([3, 1], 2, b"9007199254740993"))]
    for locs, v, labs in rows:
        p += sample(locs, [v * 1_000_000], b"".join(labs))
    p += field(9, 0, 1_000_000_000)                                   # time_nanos
    open(out, "wb").write(p + st.table())


def lossy(out, plain=False):
    # what most formats cannot hold: three sample types (samples/count,
    # alloc/bytes, cpu/nanoseconds: the default, the last), one thread
    # (tid=10, thread_name=main: the labels a thread is written with) and
    # the labels foo=bar|baz and n=7 (numeric) beside them
    # (tests/cli/t_written_value.sh, the loss note of every export);
    # plain: cpu/nanoseconds alone, no labels (nothing to lose)
    st = Strings()
    types = ((b"cpu", b"nanoseconds"),) if plain else ((b"samples", b"count"), (b"alloc", b"bytes"), (b"cpu", b"nanoseconds"))
    p = b""
    for t, u in types:
        p += field(1, 2, field(1, 0, st.id(t)) + field(2, 0, st.id(u)))
    for lid, name in ((1, b"main"), (2, b"work")):
        p += field(4, 2, field(1, 0, lid) + field(4, 2, field(1, 0, lid) + field(2, 0, lid)))
        p += field(5, 2, field(1, 0, lid) + field(2, 0, st.id(name)) + field(4, 0, st.id(b"main.go")))
    s = lambda k, v: field(3, 2, field(1, 0, st.id(k)) + field(2, 0, st.id(v)))
    n = lambda k, v: field(3, 2, field(1, 0, st.id(k)) + field(3, 0, v))
    for locs, vals, labs in (((2, 1), (3, 4096, 30_000_000), [s(b"foo", b"bar"), n(b"n", 7)]),
                             ((1,), (1, 512, 10_000_000), [s(b"foo", b"baz")])):
        labs = [] if plain else [n(b"tid", 10), s(b"thread_name", b"main")] + labs
        vals = vals[-1:] if plain else vals
        p += sample(locs, vals, b"".join(labs))
    p += field(9, 0, 1_000_000_000)                                   # time_nanos
    open(out, "wb").write(p + st.table())


def comments(out, texts, time_nanos=1_000_000_000):
    st = Strings()
    p = field(1, 2, field(1, 0, st.id(b"cpu")) + field(2, 0, st.id(b"nanoseconds")))
    for lid, name in ((1, b"main"), (2, b"work")):
        p += field(4, 2, field(1, 0, lid) + field(4, 2, field(1, 0, lid) + field(2, 0, lid)))
        p += field(5, 2, field(1, 0, lid) + field(2, 0, st.id(name)) + field(4, 0, st.id(b"main.go")))
    for locs, v in (((2, 1), 30), ((1,), 10)):
        p += sample(locs, [v])
    p += field(9, 0, time_nanos)                                      # time_nanos
    p += field(10, 0, 2_000_000_000)                                  # duration_nanos
    for t in texts:  # string 0 is "": an empty comment is index 0, as Go writes it
        p += field(13, 0, st.id(t) if t else 0)
    open(out, "wb").write(p + st.table())


def emptystack(out):
    st = Strings()
    p = field(1, 2, field(1, 0, st.id(b"samples")) + field(2, 0, st.id(b"count")))
    p += field(1, 2, field(1, 0, st.id(b"cpu")) + field(2, 0, st.id(b"nanoseconds")))
    p += field(3, 2, field(1, 0, 1) + field(2, 0, 0x1000) + field(3, 0, 0x9000) + field(5, 0, st.id(b"/bin/app")))
    for lid, fid in ((1, 1), (2, 2), (3, 0)):  # main, foo, an address without lines
        p += field(4, 2, field(1, 0, lid) + field(2, 0, 1) + field(3, 0, 0x1000 + 0x10 * lid) +
                   (field(4, 2, field(1, 0, fid) + field(2, 0, 10 + lid)) if fid else b""))
    for fid, name in ((1, b"main"), (2, b"foo")):
        p += field(5, 2, field(1, 0, fid) + field(2, 0, st.id(name)) + field(4, 0, st.id(b"main.go")))
    for locs, n, v in (([1], 10, b"a"), ([], 5, b"b"), ([2, 1], 3, b"a"), ([3], 7, b"b"), ([], 2, b"a")):
        lab = field(3, 2, field(1, 0, st.id(b"k")) + field(2, 0, st.id(v)))
        p += sample(locs, [1, n], lab)
    p += field(11, 2, field(1, 0, st.id(b"cpu")) + field(2, 0, st.id(b"nanoseconds")))
    p += field(12, 0, 1)                                             # period
    open(out, "wb").write(p + st.table())


def emptylabel(out):
    st = Strings()
    p = field(1, 2, field(1, 0, st.id(b"samples")) + field(2, 0, st.id(b"count")))
    p += field(1, 2, field(1, 0, st.id(b"cpu")) + field(2, 0, st.id(b"nanoseconds")))
    p += field(4, 2, field(1, 0, 1) + field(4, 2, field(1, 0, 1) + field(2, 0, 3)))
    p += field(5, 2, field(1, 0, 1) + field(2, 0, st.id(b"main")) + field(4, 0, st.id(b"main.go")))
    k, n, a, u = st.id(b"k"), st.id(b"n"), st.id(b"a"), st.id(b"bytes")
    for lab, v in (([field(1, 0, k)], 3),                                       # k: dropped
                   ([field(1, 0, k) + field(2, 0, a)], 5),                      # k=a
                   ([field(1, 0, n) + field(4, 0, u)], 7),                      # n=0 bytes: kept
                   ([field(1, 0, n) + field(3, 0, 5) + field(4, 0, u)], 11)):   # n=5 bytes
        p += sample([1], [1, v], b"".join(field(3, 2, x) for x in lab))
    p += field(11, 2, field(1, 0, st.id(b"cpu")) + field(2, 0, st.id(b"nanoseconds")))
    p += field(12, 0, 1)
    open(out, "wb").write(p + st.table())


def unsym(out, mode=""):
    st = Strings()
    p = field(1, 2, field(1, 0, st.id(b"samples")) + field(2, 0, st.id(b"count")))
    p += field(1, 2, field(1, 0, st.id(b"cpu")) + field(2, 0, st.id(b"nanoseconds")))
    maps = [b"/usr/lib/x86_64-linux-gnu/libc.so.6", b"C:\\Windows\\System32\\ntdll.dll",
            b"/opt/app/odd;name.so", b"", b"/lib/x86_64-linux-gnu/libc.so.6", b"/opt/plugins/dir/"]
    if mode == "unix":  # and the second libc another library: go keeps a row per path
        maps[1] = b"/c/Windows/System32/ntdll.dll"
        maps[4] = b"/lib/x86_64-linux-gnu/libm.so.6"
    if mode == "bytes":
        maps[2] = b"/x/\xe9\xff/odd;\xe9.so"
    for i, m in enumerate(maps, 1):
        p += field(3, 2, field(1, 0, i) + field(2, 0, 0x1000 * i) + field(3, 0, 0x1000 * i + 0xfff) +
                   (field(5, 0, st.id(m)) if m else b""))
    # location id -> mapping id (0: none); two locations share mapping 1
    locmap = {1: 1, 2: 1, 3: 2, 4: 3, 5: 4, 6: 0, 8: 5, 9: 6}
    for lid, mid in locmap.items():
        p += field(4, 2, field(1, 0, lid) + (field(2, 0, mid) if mid else b"") +
                   field(3, 0, 0x1000 * max(mid, 1) + 0x10 * lid))
    p += field(4, 2, field(1, 0, 7) + field(4, 2, field(1, 0, 1) + field(2, 0, 3)))
    p += field(5, 2, field(1, 0, 1) + field(2, 0, st.id(b"main")) + field(4, 0, st.id(b"main.c")))
    stacks = [([1, 7], 10), ([2, 7], 20), ([3, 7], 5), ([4, 1, 7], 7), ([5, 6, 7], 3), ([6, 3, 7], 2),
              ([8, 7], 4), ([9, 8, 7], 6)]
    if mode in ("nameless", "namelessfile"):  # functions 2, 3 have no name (string 0), only a start line
        files = {2: b"src/inner.c", 6: b"app/top.c"} if mode == "namelessfile" else {}
        ff = lambda fid: field(4, 0, st.id(files[fid])) if fid in files else b""
        for fid, sl in ((2, 40), (3, 90)):
            p += field(5, 2, field(1, 0, fid) + ff(fid) + field(5, 0, sl))
        ln = lambda fid, line: field(4, 2, field(1, 0, fid) + field(2, 0, line))
        # location -> (mapping, lines innermost first)
        for lid, mid, lns in ((10, 1, [ln(2, 41)]), (11, 5, [ln(2, 42)]), (12, 1, [ln(2, 43), ln(3, 91)]),
                              (13, 5, [ln(3, 92), ln(1, 4)]), (14, 5, [ln(3, 93)])):
            p += field(4, 2, field(1, 0, lid) + field(2, 0, mid) + field(3, 0, 0x1000 * mid + 0x10 * lid) +
                       b"".join(lns))
        # functions named "<unknown>" (4) and "[libc.so.6]" (5), and one without
        # a name nor start line (6), in locations of no mapping: pprof's node of
        # 6 is that of the locations without lines in no mapping or one of an
        # empty file name (Name "", no Objfile), not 4's (Name "<unknown>")
        for fid, nm in ((4, b"<unknown>"), (5, b"[libc.so.6]"), (6, b"")):
            p += field(5, 2, field(1, 0, fid) + (field(2, 0, st.id(nm)) if nm else b"") + ff(fid))
        for lid, fid in ((15, 4), (16, 5), (17, 6)):
            p += field(4, 2, field(1, 0, lid) + field(3, 0, 0x100 * lid) + ln(fid, 7))
        stacks += [([10, 7], 8), ([11, 7], 9), ([12, 7], 11), ([13], 12), ([14, 10, 7], 13), ([10, 11, 7], 1),
                   ([15, 7], 14), ([16, 7], 15), ([17, 7], 16), ([17, 15, 7], 2)]
    for locs, n in stacks:
        p += sample(locs, [n, n * 10_000_000])
    p += field(9, 0, 1_000_000_000)                                  # time_nanos
    p += field(11, 2, field(1, 0, st.id(b"cpu")) + field(2, 0, st.id(b"nanoseconds")))
    p += field(12, 0, 10_000_000)                                    # period
    open(out, "wb").write(p + st.table())


def gperf(out):
    # pprof of R by gperftools (pprof-from-r/r-prof-profile__1.out.prof):
    # its unsymbolized PCs are one function "" of file "??" at line 0, in
    # whichever mapping holds the PC; go tool pprof names each after it
    st = Strings()
    p = field(1, 2, field(1, 0, st.id(b"samples")) + field(2, 0, st.id(b"count")))
    p += field(1, 2, field(1, 0, st.id(b"cpu")) + field(2, 0, st.id(b"nanoseconds")))
    maps = [b"/usr/lib/R/lib/libR.so", b"/lib/x86_64-linux-gnu/libz.so.1", b"/lib/libc.so.6"]
    for i, m in enumerate(maps, 1):
        p += field(3, 2, field(1, 0, i) + field(2, 0, 0x100000 * i) + field(3, 0, 0x100000 * i + 0xfffff) +
                   field(5, 0, st.id(m)))
    p += field(5, 2, field(1, 0, 1) + field(2, 0, st.id(b"main")) + field(4, 0, st.id(b"main.c")))
    p += field(5, 2, field(1, 0, 2) + field(4, 0, st.id(b"??")))  # no name
    ln = lambda fid, line: field(4, 2, field(1, 0, fid) + field(2, 0, line))
    # location -> (mapping, function, line); 5 has no mapping
    for lid, mid, fid, line in ((1, 1, 1, 3), (2, 1, 2, 0), (3, 1, 2, 0), (4, 2, 2, 0), (5, 0, 2, 0),
                                (6, 3, 2, 0)):
        p += field(4, 2, field(1, 0, lid) + (field(2, 0, mid) if mid else b"") +
                   field(3, 0, 0x100000 * max(mid, 1) + 0x10 * lid) + ln(fid, line))
    stacks = [([2, 1], 54), ([3, 2, 1], 6), ([4, 2, 1], 2), ([6, 4, 1], 3), ([5, 1], 1), ([1], 4)]
    for locs, n in stacks:
        p += sample(locs, [n, n * 10_000_000])
    p += field(11, 2, field(1, 0, st.id(b"cpu")) + field(2, 0, st.id(b"nanoseconds")))
    p += field(12, 0, 10_000_000)
    open(out, "wb").write(p + st.table())


def native(out, spec):
    import json
    sp = json.load(open(spec))
    st = Strings()
    p = field(1, 2, field(1, 0, st.id(b"samples")) + field(2, 0, st.id(b"count")))
    maps = sp["mappings"]
    for i, m in enumerate(maps, 1):
        p += field(3, 2, field(1, 0, i) + field(2, 0, m["start"]) + field(3, 0, m["limit"]) +
                   field(4, 0, m.get("offset", 0)) +
                   field(5, 0, st.id(m["file"].encode("utf-8", "surrogateescape"))) +
                   (field(6, 0, st.id(m["build_id"].encode())) if m.get("build_id") else b""))
    locs = {}
    for addrs, _ in sp["samples"]:
        for a in addrs:
            if a not in locs:
                locs[a] = len(locs) + 1
                mid = next((i for i, m in enumerate(maps, 1) if m["start"] <= a < m["limit"]), 0)
                p += field(4, 2, field(1, 0, locs[a]) + (field(2, 0, mid) if mid else b"") + field(3, 0, a))
    for addrs, n in sp["samples"]:
        p += sample([locs[a] for a in addrs], [n])
    open(out, "wb").write(p + st.table())


def names(out, path):
    lines = [l for l in open(path, "rb").read().split(b"\n") if l]
    st = Strings()
    p = field(1, 2, field(1, 0, st.id(b"samples")) + field(2, 0, st.id(b"count")))
    p += field(3, 2, field(1, 0, 1) + field(2, 0, 0x1000) + field(3, 0, 0x1000 + 16 * len(lines) + 16) +
               field(5, 0, st.id(b"/nonexistent/lib.so")) + field(7, 0, 1))
    for i, l in enumerate(lines, 1):
        name = b"kept-%d" % i if i % 3 == 0 else b"" if i % 3 == 2 else l
        p += field(5, 2, field(1, 0, i) + (field(2, 0, st.id(name)) if name else b"") +
                   field(3, 0, st.id(l)))
        p += field(4, 2, field(1, 0, i) + field(2, 0, 1) + field(3, 0, 0x1000 + 16 * i) +
                   field(4, 2, field(1, 0, i)))
        p += sample([i], [i])
    open(out, "wb").write(p + st.table())


def selfnamed(out):
    """Functions whose name is their system name (as the Go runtime and R's
    pprof writers store them), under main: `<Anonymous>`, `<lambda>`,
    `<module>`, `<init>`, ... which pprof's demangling simplifies to ""
    (review 20b F2), and `x<y>` (to "x"); a line each, no file, no mapping."""
    names = [b"main", b"<Anonymous>", b"<Foo>", b"<lambda>", b"x<y>", b"<init>", b"<top (required)>",
             b"<module>"]
    st = Strings()
    p = field(1, 2, field(1, 0, st.id(b"samples")) + field(2, 0, st.id(b"count")))
    for i, n in enumerate(names, 1):
        p += field(5, 2, field(1, 0, i) + field(2, 0, st.id(n)) + field(3, 0, st.id(n)))
        p += field(4, 2, field(1, 0, i) + field(4, 2, field(1, 0, i) + field(2, 0, i)))
    for i in range(2, len(names) + 1):
        p += sample([i, 1], [10 + i])
    open(out, "wb").write(p + st.table())


def alike(out):
    """Names that read alike in collapsed text, where ';', CR, LF and NUL
    become '_' (frames.h): "semi;colon" and "semi_colon" under main, "a;b"
    and "a_b" each above a "c", "cr\\rx", "cr_x" and "cr\\nx"; and "x" apart
    (review 20b F3: pcol fold printed one key on two lines)."""
    st = Strings()
    p = field(1, 2, field(1, 0, st.id(b"samples")) + field(2, 0, st.id(b"count")))
    names = [b"main", b"semi;colon", b"semi_colon", b"a;b", b"a_b", b"c", b"cr\rx", b"cr_x", b"cr\nx", b"x"]
    for i, n in enumerate(names, 1):
        p += field(5, 2, field(1, 0, i) + field(2, 0, st.id(n)))
        p += field(4, 2, field(1, 0, i) + field(4, 2, field(1, 0, i)))
    # stacks leaf first: [location ids], count
    for locs, n in [([2, 1], 113), ([3, 1], 114), ([6, 4, 1], 7), ([6, 5, 1], 8), ([4, 1], 1),
                    ([7, 1], 5), ([8, 1], 6), ([9, 1], 4), ([10, 1], 3)]:
        p += sample(locs, [n])
    open(out, "wb").write(p + st.table())


# names a writer must carry (tests/interop/t_export_search.sh: `random-odd`):
# UTF-8 beyond ASCII, quotes, blanks, a tab, ';' and '\\', markup, bytes
# that are not UTF-8, a name of one blank, names that look like other names
ODD_NAMES = ["main", "caf\u00e9.\u00fcber", "\u65e5\u672c.\u95a2\u6570", "say \"hi\"", "it's",
             "a b  c", "tab\there", "semi;colon", "back\\slash", "<T&U>::f", "emoji\U0001F600",
             " ", "x\xff\xfey", "(anonymous)", "[vdso]", "main"]
ODD_FILES = ["main.go", "/src/d\u00e9j\u00e0 vu/t.go", "C:\\src\\w.go", "", "a;b.go", "q\"uote.go"]


def random_profile(out, seed, odd=False):
    import random
    r = random.Random(seed)
    st = Strings()
    sid = lambda b: st.id(b)
    types = [(b"samples", b"count"), (b"cpu", b"nanoseconds"), (b"alloc_space", b"bytes"),
             (b"delay", b"nanoseconds"), (b"inuse_objects", b"count"), (b"wall", b"microseconds")]
    r.shuffle(types)
    nt = r.randint(1, 3)
    p = b"".join(field(1, 2, field(1, 0, sid(t)) + field(2, 0, sid(u))) for t, u in types[:nt])
    # mappings: 1..3 (mapping 0: none, for some locations)
    nm = r.randint(1, 3)
    mfiles = [b"/bin/app", b"/lib/libc.so.6", b"", b"/opt/x/plugin.so"]
    for m in range(1, nm + 1):
        p += field(3, 2, field(1, 0, m) + field(2, 0, 0x100000 * m) + field(3, 0, 0x100000 * m + 0xfffff) +
                   (field(5, 0, sid(mfiles[m - 1])) if mfiles[m - 1] else b"") +
                   (field(7, 0, 1) + field(8, 0, 1) + field(9, 0, 1) if r.random() < 0.7 else b""))
    names = [b"main", b"main.work", b"runtime.mallocgc", b"pkg.(*T).Run", b"fmt.Sprintf", b"", b"alpha",
             b"beta.gamma", b"x.y.z", b"runtime.main"]
    files = [b"main.go", b"/src/pkg/t.go", b"", b"runtime/malloc.go", b"/src/x/y.go"]
    if odd:
        names = [n.encode("utf-8", "surrogateescape") if "\xff" not in n else n.encode("latin-1")
                 for n in ODD_NAMES] + [b""]
        files = [f.encode("utf-8") for f in ODD_FILES]
    nf = r.randint(3, 8)
    for fid in range(1, nf + 1):
        nm_ = r.choice(names)
        fl = r.choice(files)
        p += field(5, 2, field(1, 0, fid) + (field(2, 0, sid(nm_)) if nm_ else b"") +
                   (field(3, 0, sid(nm_ + b"_sys")) if nm_ and r.random() < 0.3 else b"") +
                   (field(4, 0, sid(fl)) if fl else b"") + field(5, 0, r.randint(0, 50)))
    # locations: 1..12, some inline (2-3 lines), some without lines, some
    # duplicates (the same mapping, address and lines as another)
    nl = r.randint(3, 12)
    locs = {}
    for lid in range(1, nl + 1):
        if lid > 1 and r.random() < 0.15:
            mid, addr, lns = locs[r.randint(1, lid - 1)]
        else:
            mid = r.randint(0, nm) if r.random() < 0.3 else r.randint(1, nm)
            addr = (0x100000 * max(mid, 1)) + r.randint(0, 0xffff) if r.random() < 0.9 else 0
            k = r.choice((0, 1, 1, 1, 1, 2, 3)) if addr else r.choice((1, 1, 2))
            lns = [(r.randint(1, nf), r.choice((0, r.randint(1, 200)))) for _ in range(k)]
        locs[lid] = (mid, addr, lns)
        p += field(4, 2, field(1, 0, lid) + (field(2, 0, mid) if mid else b"") +
                   (field(3, 0, addr) if addr else b"") +
                   b"".join(field(4, 2, field(1, 0, f) + (field(2, 0, ln) if ln else b"")) for f, ln in lns))
    keys = [b"k", b"worker", b"span"]
    nkeys = [(b"bytes", b"bytes"), (b"n", None), (b"wait", b"nanoseconds"), (b"sz", b"kilobytes")]
    vals = [b"a", b"b", b"c", b"10", b"x y"]

    def value():
        c = r.random()
        if c < 0.15:
            return 0
        if c < 0.25:
            return -r.randint(1, 1000)
        if c < 0.32:
            return r.randint(10 ** 12, 10 ** 15)
        if c < 0.4:
            return 1
        return r.randint(2, 5000)

    for _ in range(r.randint(2, 14)):
        stack = [r.randint(1, nl) for _ in range(r.randint(0, 6) if r.random() < 0.95 else 0)]
        labs = b""
        for k in keys:
            if r.random() < 0.4:
                for _ in range(r.choice((1, 1, 1, 2))):
                    labs += field(3, 2, field(1, 0, sid(k)) + field(2, 0, sid(r.choice(vals))))
        for k, u in nkeys:
            if r.random() < 0.25:
                for _ in range(r.choice((1, 1, 2))):
                    labs += field(3, 2, field(1, 0, sid(k)) + field(3, 0, r.choice((0, 1, 100, 1536, 3 << 20, 7))) +
                                  (field(4, 0, sid(u)) if u else b""))
        p += sample(stack, [value() for _ in range(nt)], labs)
    if r.random() < 0.2:
        p += field(7, 0, sid(r.choice((b"fmt\\..*", b"runtime\\.mallocgc", b"alpha"))))   # drop_frames
        if r.random() < 0.5:
            p += field(8, 0, sid(b"runtime\\.main"))                                      # keep_frames
    if r.random() < 0.7:
        p += field(9, 0, r.choice((1_000_000_000, 1_700_000_000_123_456_789)))          # time_nanos
    if r.random() < 0.6:
        p += field(10, 0, r.choice((5, 2_000_000_000, 90 * 60 * 10 ** 9)))              # duration_nanos
    if r.random() < 0.6:
        pt = r.choice(types[:nt] + [(b"cpu", b"nanoseconds")])
        p += field(11, 2, field(1, 0, sid(pt[0])) + field(2, 0, sid(pt[1])))
        p += field(12, 0, r.choice((1, 10_000_000, 524288)))                           # period
    for _ in range(r.choice((0, 0, 1, 2))):
        p += field(13, 0, sid(r.choice((b"a comment", b"another one", b"# hash"))))
    if nt > 1 and r.random() < 0.5:
        p += field(14, 0, sid(types[r.randint(0, nt - 1)][0]))                         # default_sample_type
    open(out, "wb").write(p + st.table())


def distinct(out, n, depth):
    st = Strings()
    p = field(1, 2, field(1, 0, st.id(b"samples")) + field(2, 0, st.id(b"count")))
    p += field(3, 2, field(1, 0, 1) + field(2, 0, 0x400000) + field(3, 0, 0x800000) + field(5, 0, st.id(b"/app")))
    nloc = 4000
    p += b"".join(field(4, 2, field(1, 0, k) + field(2, 0, 1) + field(3, 0, 0x400000 + 16 * k)) for k in range(1, nloc + 2))
    ids = [varint(k) for k in range(nloc + 2)]
    x, parts = 12345, [p]
    for i in range(n):
        locs = bytearray()
        for _ in range(depth):
            x = (x * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
            locs += ids[2 + (x >> 33) % nloc]
        locs += ids[1]
        parts.append(field(2, 2, field(1, 2, bytes(locs)) + field(2, 2, varint(1 if i == n - 1 else 0))))
    open(out, "wb").write(b"".join(parts) + st.table())


def vtypes(out, n, length):
    st = Strings()
    t, u = st.id(b"t" * length), st.id(b"count")
    p = b"".join(field(1, 2, field(1, 0, t) + field(2, 0, u)) for _ in range(n))
    p += field(4, 2, field(1, 0, 1) + field(4, 2, field(1, 0, 1)))
    p += field(5, 2, field(1, 0, 1) + field(2, 0, st.id(b"main")))
    p += sample([1], [1] * n)
    with gzip.open(out, "wb", 9) if out.endswith(".gz") else open(out, "wb") as f:
        f.write(p + st.table())


def dropframes(out, drop, keep):
    st = Strings()
    p = field(1, 2, field(1, 0, st.id(b"samples")) + field(2, 0, st.id(b"count")))
    p += field(1, 2, field(1, 0, st.id(b"alloc_space")) + field(2, 0, st.id(b"bytes")))
    p += field(3, 2, field(1, 0, 1) + field(2, 0, 0x1000) + field(3, 0, 0x90000) + field(5, 0, st.id(b"/bin/app")) +
               field(7, 0, 1) + field(8, 0, 1) + field(9, 0, 1) + field(10, 0, 1))
    names = [b"main", b"app.work", b"app.helper", b"malloc", b"malloc_internal", b"operator new(unsigned long)",
             b".ppc_alloc", b"ns::(anonymous namespace)::alloc(int)", b"runtime.main", b"runtime.mallocgc",
             b"", b"app.alloc_wrapper", b"app.inl", b"runtime.goexit", b"Foo::operator()(int)"]
    fid = {}
    for i, nm in enumerate(names, 1):
        fid[nm] = i
        p += field(5, 2, field(1, 0, i) + (field(2, 0, st.id(nm)) if nm else b"") +
                   field(4, 0, st.id(b"app.cc")) + field(5, 0, 10 * i))
    # locations: a list of function names, innermost first (inline chains)
    locs = [[b"main"], [b"app.work"], [b"app.helper"], [b"malloc"], [b"malloc_internal"],
            [b"operator new(unsigned long)"], [b".ppc_alloc"], [b"ns::(anonymous namespace)::alloc(int)"],
            [b"runtime.main"], [b"runtime.mallocgc"], [b""],
            [b"malloc_internal", b"app.alloc_wrapper"],          # 12: a match on the inner line
            [b"app.inl", b"malloc", b"app.work"],                # 13: on the middle line
            [b"app.helper", b"malloc"],                          # 14: on the outermost line
            [b"runtime.goexit"], [b"Foo::operator()(int)"], [b"app.inl", b"app.helper"]]
    for lid, fl in enumerate(locs, 1):
        p += field(4, 2, field(1, 0, lid) + field(2, 0, 1) + field(3, 0, 0x1000 + 0x10 * lid) +
                   b"".join(field(4, 2, field(1, 0, fid[f]) + field(2, 0, 100 + lid)) for f in fl))
    L = {tuple(fl): lid for lid, fl in enumerate(locs, 1)}

    def at(*fl):
        return L[fl]
    samples = [  # leaf first, count, bytes, k
        ([at(b"malloc_internal"), at(b"malloc"), at(b"app.work"), at(b"main")], 3, 300, b"a"),
        ([at(b"malloc_internal", b"app.alloc_wrapper"), at(b"app.work"), at(b"main")], 5, 500, b"a"),
        ([at(b"malloc_internal"), at(b"malloc")], 7, 700, b"b"),                        # all dropped frames
        ([at(b"malloc"), at(b"app.work"), at(b"main"), at(b"malloc")], 11, 1100, b"b"),    # one at the root
        ([at(b"app.helper"), at(b"operator new(unsigned long)"), at(b"app.work"), at(b"main")], 13, 1300, b"a"),
        ([at(b".ppc_alloc"), at(b"app.helper"), at(b"main")], 17, 1700, b"b"),
        ([at(b"ns::(anonymous namespace)::alloc(int)"), at(b"app.work"), at(b"main")], 19, 1900, b"a"),
        ([at(b"runtime.mallocgc"), at(b"app.work"), at(b"main"), at(b"runtime.main"), at(b"runtime.goexit")],
         23, 2300, b"a"),
        ([at(b"app.helper"), at(b""), at(b"malloc"), at(b"app.helper"), at(b"main")], 29, 2900, b"b"),
        ([at(b"app.inl", b"malloc", b"app.work"), at(b"main")], 31, 3100, b"a"),
        ([at(b"app.helper"), at(b"app.helper", b"malloc"), at(b"main")], 37, 3700, b"b"),
        ([at(b"app.work"), at(b"malloc_internal", b"app.alloc_wrapper")], 41, 4100, b"a"),  # its root cut below
        ([at(b"app.work"), at(b"app.inl", b"malloc", b"app.work")], 43, 4300, b"b"),
        ([at(b"Foo::operator()(int)"), at(b"app.work"), at(b"main")], 47, 4700, b"a"),
        ([at(b"app.inl", b"app.helper"), at(b"malloc"), at(b"app.work"), at(b"main")], 53, 5300, b"b"),
        ([at(b"runtime.mallocgc"), at(b"runtime.goexit")], 59, 5900, b"a"),
        ([], 61, 6100, b"b"),
        # a root cut below, then one cut at before the first frame of neither:
        # pprof's own -proto output read again prunes it further
        ([at(b"malloc"), at(b"app.work"), at(b"malloc"), at(b"malloc_internal", b"app.alloc_wrapper")], 67, 6700,
         b"a"),
    ]
    # (a label n apart per sample: pprof merges samples of one stack and
    # labels before it prunes, never after, and pcol's traces merge those
    # the pruning made one: doc/mappings.md §2.1)
    for i, (locs_, n, v, k) in enumerate(samples):
        p += sample(locs_, [n, v],
                    field(3, 2, field(1, 0, st.id(b"k")) + field(2, 0, st.id(k))) +
                    field(3, 2, field(1, 0, st.id(b"n")) + field(2, 0, st.id(b"%02d" % i))))
    if drop:
        p += field(7, 0, st.id(drop))
    if keep:
        p += field(8, 0, st.id(keep))
    p += field(11, 2, field(1, 0, st.id(b"space")) + field(2, 0, st.id(b"bytes")))
    p += field(12, 0, 524288)
    open(out, "wb").write(p + st.table())


def retype(src, out, *renames):
    from pprof_times import pb_fields  # (the tests' one protobuf reader)
    data = open(src, "rb").read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    ren = dict(a.encode().split(b"=", 1) for a in renames)
    o = bytearray()
    for num, wt, v in pb_fields(data):
        if num in (11, 12):  # period_type, period
            continue
        if num == 6:  # string_table
            v = ren.get(v, v)
        o += field(num, wt, v) if wt in (0, 2) else varint(num << 3 | wt) + v
    open(out, "wb").write(bytes(o))


def dupbase(out):
    # go's -diff_base file (cpu/nanoseconds alone): f 30, and two base
    # samples of -10 labelled pprof::base with two copies of "true" in the
    # string table (go reads strings, not their indices: both are base)
    st = Strings()
    p = field(1, 2, field(1, 0, st.id(b"cpu")) + field(2, 0, st.id(b"nanoseconds")))
    p += field(5, 2, field(1, 0, 1) + field(2, 0, st.id(b"main")))
    p += field(5, 2, field(1, 0, 2) + field(2, 0, st.id(b"f")))
    p += field(4, 2, field(1, 0, 1) + field(3, 0, 0x100) + field(4, 2, field(1, 0, 1)))
    p += field(4, 2, field(1, 0, 2) + field(3, 0, 0x200) + field(4, 2, field(1, 0, 2)))
    key, t1 = st.id(b"pprof::base"), st.id(b"true")
    st.s.append(b"true")
    t2 = len(st.s) - 1
    p += sample([2, 1], [30])
    for t in (t1, t2):
        p += sample([2, 1], [-10], field(3, 2, field(1, 0, key) + field(2, 0, t)))
    open(out, "wb").write(p + st.table())


def aslr(out, start, size=0x5000, mode=""):
    sym = mode == "sym"
    st = Strings()
    p = field(1, 2, field(1, 0, st.id(b"samples")) + field(2, 0, st.id(b"count")))
    p += field(1, 2, field(1, 0, st.id(b"cpu")) + field(2, 0, st.id(b"nanoseconds")))
    maps = [(start, size, b"/opt/app/bin/app", b"app-1"),
            (start + 0x100000, 0x3000, b"/opt/app/lib/libfoo.so", b"foo-1")]
    procs = mode in ("procs", "procs2")
    if procs:  # a second process of the program, 0x40000000 above
        maps += [(s0 + 0x40000000, sz, f, bid) for s0, sz, f, bid in maps]
    for i, (s0, sz, f, bid) in enumerate(maps, 1):
        if mode in ("nofile", "emptyfile") and i == 1:
            # no file, no build id: field 5 left out (string 0), or the
            # index of a second "" in the table
            name = field(5, 0, len(st.s)) if mode == "emptyfile" else b""
            if mode == "emptyfile":
                st.s.append(b"")
        else:
            name = field(5, 0, st.id(f)) + field(6, 0, st.id(bid))
        p += field(3, 2, field(1, 0, i) + field(2, 0, s0) + field(3, 0, s0 + sz) + field(4, 0, 0) + name +
                   (field(7, 0, 1) + field(9, 0, 1) if sym else b""))
    # location id -> (mapping, offset in it, function name, line)
    locs = {1: (1, 0x1100, b"main", 10), 2: (1, 0x1230, b"work", 20), 3: (1, 0x1340, b"leaf", 30),
            4: (2, 0x2010, b"foo", 40), 5: (2, 0x2120, b"bar", 50)}
    if mode == "extra":
        locs[6] = (1, 0x1450, b"more", 60)
    if procs:  # the second process's locations: 10 + the first's
        locs.update({lid + 10: (mid + 2, off, name, line) for lid, (mid, off, name, line) in list(locs.items())})
    for lid, (mid, off, name, line) in locs.items():
        if sym:
            p += field(5, 2, field(1, 0, lid) + field(2, 0, st.id(name)) + field(4, 0, st.id(name + b".c")))
        p += field(4, 2, field(1, 0, lid) + field(2, 0, mid) + field(3, 0, maps[mid - 1][0] + off) +
                   (field(4, 2, field(1, 0, lid) + field(2, 0, line)) if sym else b""))
    stacks = [([3, 2, 1], 5), ([2, 1], 3), ([5, 4, 2, 1], 2), ([4, 1], 7)] + ([([6, 1], 9)] if mode == "extra" else [])
    if procs:
        second = [([15, 14, 12, 11], 4), ([13, 12, 11], 1), ([14, 11], 6)]
        stacks = second + stacks if mode == "procs2" else stacks + second
    for locs_, n in stacks:
        p += sample(locs_, [n, n * 10_000_000])
    p += field(11, 2, field(1, 0, st.id(b"cpu")) + field(2, 0, st.id(b"nanoseconds")))
    p += field(12, 0, 10_000_000)
    open(out, "wb").write(p + st.table())


def emptybid(out, lib, n):
    # one library mapped at another address than the other run's (a.so,
    # b.so: the same size and offset), its build id the table's SECOND ""
    # (a stored empty string, not none): go keys it by its file
    # (`BuildID != ""`), so a.so and b.so stay two (rd16b F1)
    lib = lib.encode()
    strs = [b"", b"samples", b"count", b"", lib, b"main"]
    p = field(1, 2, field(1, 0, 1) + field(2, 0, 2))
    start = 0x7f0000000000 if b"a.so" in lib else 0x7f1000000000
    p += field(3, 2, field(1, 0, 1) + field(2, 0, start) + field(3, 0, start + 0x5000) + field(4, 0, 0) +
               field(5, 0, 4) + field(6, 0, 3))
    p += field(4, 2, field(1, 0, 1) + field(2, 0, 1) + field(3, 0, start + 0x1234))
    p += sample([1], [n])
    open(out, "wb").write(p + b"".join(field(6, 2, x) for x in strs))


def mapbomb(out, n, shift=0):
    # n mappings of one file, size and offset at other starts: all of one
    # merge key (t_bombs.sh: a lookup walked every earlier one, rd16b F2)
    st = Strings()
    parts = [field(1, 2, field(1, 0, st.id(b"samples")) + field(2, 0, st.id(b"count")))]
    f = st.id(b"/a")
    for i in range(1, n + 1):
        s0 = shift + i * 0x10000
        parts.append(field(3, 2, field(1, 0, i) + field(2, 0, s0) + field(3, 0, s0 + 0x1000) + field(5, 0, f)))
    parts.append(field(4, 2, field(1, 0, 1) + field(2, 0, 1) + field(3, 0, shift + 0x10010)))
    parts.append(sample([1], [3]))
    open(out, "wb").write(b"".join(parts) + st.table())


def manylabels(out, n):
    # one sample of main -> work with n string labels of n distinct keys
    # and n numeric labels of n other keys (pcol traces gathered each key's
    # values by scanning every label: quadratic in a sample's labels)
    strs = [b"", b"samples", b"count", b"main", b"work"]
    p = field(1, 2, field(1, 0, 1) + field(2, 0, 2))
    for i in (1, 2):
        p += field(4, 2, field(1, 0, i) + field(4, 2, field(1, 0, i)))
        p += field(5, 2, field(1, 0, i) + field(2, 0, 2 + i))
    lab = bytearray()
    for k in range(n):
        strs += [b"k%d" % k, b"v%d" % k, b"n%d" % k]
        lab += field(3, 2, field(1, 0, len(strs) - 3) + field(2, 0, len(strs) - 2))
        lab += field(3, 2, field(1, 0, len(strs) - 1) + field(3, 0, k + 1))  # (0 and no string: no label, as pprof)
    p += sample([2, 1], [1], bytes(lab))
    with gzip.open(out, "wb", 9) if out.endswith(".gz") else open(out, "wb") as f:
        f.write(p + b"".join(field(6, 2, x) for x in strs))


if __name__ == "__main__":
    if sys.argv[1] == "lines":
        lines(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif sys.argv[1] == "strings":
        strings(sys.argv[2], sys.argv[3].encode("latin-1").decode("unicode_escape"),
                sys.argv[4] if len(sys.argv) > 4 else None)
    elif sys.argv[1] == "unit":
        unit(sys.argv[2], sys.argv[3].encode("latin-1").decode("unicode_escape"))
    elif sys.argv[1] == "unsym":
        unsym(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "")
    elif sys.argv[1] == "gperf":
        gperf(sys.argv[2])
    elif sys.argv[1] == "native":
        native(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "comments":
        comments(sys.argv[2], [a.encode("latin-1").decode("unicode_escape").encode("latin-1")
                               for a in sys.argv[3:]])
    elif sys.argv[1] == "comments-at":
        comments(sys.argv[2], [a.encode("latin-1").decode("unicode_escape").encode("latin-1")
                               for a in sys.argv[4:]], int(sys.argv[3]))
    elif sys.argv[1] == "emptystack":
        emptystack(sys.argv[2])
    elif sys.argv[1] == "emptylabel":
        emptylabel(sys.argv[2])
    elif sys.argv[1] == "numunits":
        numunits(sys.argv[2])
    elif sys.argv[1] == "zerosample":
        zerosample(sys.argv[2])
    elif sys.argv[1] == "loaded":
        loaded(sys.argv[2], int(sys.argv[3], 0), sys.argv[4])
    elif sys.argv[1] == "multivalue":
        multivalue(sys.argv[2])
    elif sys.argv[1] == "duptypes":
        duptypes(sys.argv[2], len(sys.argv) > 3 and sys.argv[3] == "nodefault")
    elif sys.argv[1] == "period":
        period(sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5]),
               int(sys.argv[6]) if len(sys.argv) > 6 else None)
    elif sys.argv[1] == "timed":
        period(sys.argv[2], int(sys.argv[3]), "nanoseconds", int(sys.argv[4]),
               int(sys.argv[6]) if len(sys.argv) > 6 else None, int(sys.argv[5]))
    elif sys.argv[1] == "units":
        units(sys.argv[2], sys.argv[3], int(sys.argv[4]), *sys.argv[5:7])
    elif sys.argv[1] == "lossy":
        lossy(sys.argv[2], len(sys.argv) > 3 and sys.argv[3] == "plain")
    elif sys.argv[1] == "typed":
        typed(*sys.argv[2:])
    elif sys.argv[1] == "threads":
        threads(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "hours":
        hours(sys.argv[2])
    elif sys.argv[1] == "random":
        random_profile(sys.argv[2], int(sys.argv[3]))
    elif sys.argv[1] == "random-odd":
        random_profile(sys.argv[2], int(sys.argv[3]), odd=True)
    elif sys.argv[1] == "dropframes":
        dropframes(sys.argv[2], *[os.fsencode(a) for a in (sys.argv[3:5] + [""])[:2]])
    elif sys.argv[1] == "names":
        names(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "selfnamed":
        selfnamed(sys.argv[2])
    elif sys.argv[1] == "aslr":
        aslr(sys.argv[2], int(sys.argv[3], 0), int(sys.argv[4], 0) if len(sys.argv) > 4 else 0x5000,
             sys.argv[5] if len(sys.argv) > 5 else "")
    elif sys.argv[1] == "alike":
        alike(sys.argv[2])
    elif sys.argv[1] == "retype":
        retype(*sys.argv[2:])
    elif sys.argv[1] == "dupbase":
        dupbase(sys.argv[2])
    elif sys.argv[1] == "emptybid":
        emptybid(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    elif sys.argv[1] == "distinct":
        distinct(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif sys.argv[1] == "manylabels":
        manylabels(sys.argv[2], int(sys.argv[3]))
    elif sys.argv[1] == "vtypes":
        vtypes(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif sys.argv[1] == "mapbomb":
        mapbomb(sys.argv[2], int(sys.argv[3]), int(sys.argv[4], 0) if len(sys.argv) > 4 else 0)
    else:
        sys.exit(__doc__)
