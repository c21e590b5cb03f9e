/* binfile.h — a profile's binaries on this machine, as google/pprof finds
 * and reads them (binfile.c): where a mapping's binary is (its driver's
 * locateBinaries: the search path, build ids), its ELF headers (read with
 * bounds checks), the ELF base rule (elfexec.GetBase: runtime address ->
 * the binary's address), and a tool (addr2line, nm, objdump, ...) run on
 * it without a shell, its output read as it comes, a line at a time,
 * within a deadline.  --symbolize local (lib/convert/symbolize.c) and
 * `pcol disasm` (lib/query/disasm.c) use it.  Inside libpcol only. */
#ifndef PCOL_CORE_BINFILE_H
#define PCOL_CORE_BINFILE_H

#include "buf.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The seconds the runs of one job (an input's symbolization, a disasm)
 * may take together; PCOL_SYMBOLIZE_TIMEOUT=S changes it. */
#define PCOL_BIN_TIMEOUT_S 60

/* ------------------------------------------------------------ ELF files */
typedef struct pcol_elf_ph {
  uint32_t type, flags;
  uint64_t off, vaddr, filesz, memsz, align;
} pcol_elf_ph;

typedef struct pcol_elf_info {
  int type; /* e_type */
  pcol_elf_ph *ph;
  size_t nph;
  int text;           /* the PT_LOAD segment holding .text, or -1 */
  char build_id[129]; /* hex, "" when none */
  uint64_t dev, ino;  /* the file read */
} pcol_elf_info;

/* A mapping of the profile: its addresses, file (file_len bytes: a NUL
 * among them is refused) and build id ("" none). */
typedef struct pcol_bin_map {
  uint64_t start, limit, offset;
  const char *file, *build_id;
  size_t file_len;
} pcol_bin_map;

/* The bytes of notes read from one file for its build id (PT_NOTE
 * segments, then SHT_NOTE sections): past them the file has none. */
#define PCOL_ELF_NOTES_MAX ((size_t)1 << 20)
/* The ELF files a job has read, each once: by device, inode, size and
 * mtime and ctime; at most PCOL_ELF_CACHE_PH program headers in all kept
 * (a file past it is read again when asked again).  Zeroed to start. */
typedef struct pcol_elf_cached {
  pcol_elf_info e;
  uint64_t size;
  int64_t mtime_s, mtime_ns;
  int64_t ctime_s, ctime_ns; /* a rewrite that puts size and mtime back changes ctime */
} pcol_elf_cached;
typedef struct pcol_elf_cache {
  pcol_elf_cached *v;
  size_t n, cap, nph;
} pcol_elf_cache;
#define PCOL_ELF_CACHE_PH ((size_t)1 << 20)
void pcol_elf_cache_free(pcol_elf_cache *c);

/* path's ELF header, program headers, .text's segment and build id (e->ph
 * malloc'd: pcol_elf_free).  0, or -1 with why set (pprof's words). */
int pcol_elf_read(const char *path, pcol_elf_info *e, char *why, size_t whylen);
void pcol_elf_free(pcol_elf_info *e);
/* elfexec.GetBase (no kernel _stext): what to subtract from a runtime
 * address of the mapping whose segment is ph (NULL: none).  0, or -1 with
 * why. */
int pcol_elf_base(int type, const pcol_elf_ph *ph, uint64_t start, uint64_t limit,
                  uint64_t offset, uint64_t *base, char *why, size_t whylen);
/* binutils findProgramHeader: the segment of runtime address addr of m
 * (*out NULL: none).  0, or -1 with why. */
int pcol_elf_find_ph(const pcol_elf_info *e, const pcol_bin_map *m, uint64_t addr,
                     const pcol_elf_ph **out, char *why, size_t whylen);
/* The base of m's binary e from its address addr: find_ph, then base. */
int pcol_elf_addr_base(const pcol_elf_info *e, const pcol_bin_map *m, uint64_t addr,
                       uint64_t *base, char *why, size_t whylen);

/* CLOCK_MONOTONIC seconds */
double pcol_bin_now(void);
/* A job's clock: its deadline, now + secs (PCOL_SYMBOLIZE_TIMEOUT, else
 * PCOL_BIN_TIMEOUT_S), and whether a run or a search passed it. */
typedef struct pcol_bin_clock {
  double deadline, secs;
  bool timed_out;
} pcol_bin_clock;
void pcol_bin_clock_start(pcol_bin_clock *c);
/* Whether c's deadline has passed (or timed_out was set); then timed_out
 * is set and why says "WHAT took more than SECS s (PCOL_SYMBOLIZE_TIMEOUT,
 * for all runs)", the one wording of the time limit. */
bool pcol_bin_clock_passed(pcol_bin_clock *c, const char *what, char *why, size_t whylen);

/* ------------------------------------------------------ finding binaries */
/* The binary search path: bp, else $PPROF_BINARY_PATH, else
 * $HOME/pprof/binaries (malloc; NULL: out of memory). */
char *pcol_bin_search_path(const char *bp);
/* pprof's locateBinaries, then the mapping's own file: the binary to read
 * in *found (malloc) and its headers in *e, the files read through cache
 * (NULL: none).  A candidate of the search path with another build id is
 * skipped, after ignored(ctx, path, want, got) (may be NULL).  The clock
 * (NULL: none) is looked at before each file is read: past its deadline
 * no other is, and clk->timed_out is set.  0; -1 with why (a file name
 * holding a NUL, not found, the mapping's own file has another build id,
 * or the deadline passed); -2 out of memory. */
int pcol_bin_locate(const char *search, pcol_elf_cache *cache, pcol_bin_clock *clk,
                    const pcol_bin_map *m, pcol_elf_info *e, char **found,
                    void (*ignored)(void *, const char *, const char *, const char *), void *ctx,
                    char *why, size_t whylen);

/* ------------------------------------------------------------- the tools */
/* path of NAME in $PATH's directories, or NULL (malloc) */
char *pcol_bin_on_path(const char *name);
/* path as one argument of a tool (malloc): "./" before every path that does
 * not start with '/', so no tool reads it as an option ("-x") or, binutils'
 * and LLVM's rule for any argument starting with '@', as a file of options
 * ("@x": nm --plugin would run code from it) */
char *pcol_bin_arg_path(const char *path);
/* Runs argv (argv[0] a path: no shell, no PATH search) with stdin from fd
 * in (-1: /dev/null), stderr to /dev/null, no other file inherited, and
 * hands its stdout to line(ctx, LINE) a line at a time (NUL-terminated,
 * writable), as it comes, until the clock's deadline; a line longer than
 * max_line, or line's non-zero answer, stops the tool (then, and after a
 * failure while reading, abort(ctx) when not NULL).  line's -2 means out
 * of memory, another non-zero a bound (why set by line).  0; -1 with why
 * (the tool failed or was stopped); -2: out of memory. */
int pcol_bin_run(pcol_bin_clock *c, char *const *argv, int in, size_t max_line,
                 int (*line)(void *, char *), void (*abort_fn)(void *), void *ctx, char *why,
                 size_t whylen);
/* Go's strings.TrimSpace of s (Unicode white space, UTF-8), as pprof's
 * binutils reads each line of a tool's output: s cut at its end, its
 * start past the leading white space returned. */
char *pcol_bin_trim_space(char *s);
/* Appends s[0..n) with control bytes and '\\' escaped (\xNN): a name from
 * a profile or a disk in one line of text. */
void pcol_bin_put_esc(pcol_buf *w, const char *s, size_t n);

#endif
