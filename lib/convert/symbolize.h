/* symbolize.h — local symbolization of a profile's addresses, as
 * `go tool pprof -symbolize=local` does (symbolize.c): which mappings are
 * symbolized, where their binaries are found (PPROF_BINARY_PATH's rules),
 * the ELF base rule (runtime address -> the binary's address) and the
 * driver of llvm-symbolizer or addr2line, started without a shell.  An
 * importer (pprof, OTLP: pcol_sym_locations) asks it for the inline chain
 * of each location's address, innermost first; the tool runs once a
 * binary, not once a mapping.  Inside libpcol only. */
#ifndef PCOL_CONVERT_SYMBOLIZE_H
#define PCOL_CONVERT_SYMBOLIZE_H

#include "binfile.h"
#include "buf.h"
#include "hash.h"
#include "pcol.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bounds of one import's symbolization (a session, pcol_sym): the
 * addresses asked in all (the others stay unsymbolized, with a warning),
 * the bytes its answers may hold (each new name's bytes and each frame's
 * row: PCOL_SYM_MAX_BYTES; past it the tool is stopped), the longest line
 * of the tool's output, and the seconds the finding of binaries and all
 * runs may take together (PCOL_SYMBOLIZE_TIMEOUT=S changes it) before the
 * running tool is killed and no other binary is looked for or run. */
#define PCOL_SYM_MAX_ADDRS ((size_t)1 << 22)
#define PCOL_SYM_MAX_BYTES ((size_t)64 << 20)
#define PCOL_SYM_MAX_LINE ((size_t)1 << 20)
/* The work of demangling the names of an input (demangle.h's units,
 * pcol_demangle_pprof_work: a second or a few): each distinct system name
 * is demangled once, and past this bound the names not demangled yet are
 * kept as they are, with a warning. */
#define PCOL_SYM_MAX_DEMANGLE ((uint64_t)1 << 28)
#define PCOL_SYM_MAX_DEMANGLE_S "2^28"
/* A mapping as the profile gives it (strings: NUL-terminated copies; len:
 * their bytes, to refuse a name holding a NUL). */
typedef struct pcol_sym_mapping {
  uint64_t start, limit, offset;
  const char *file, *build_id;
  size_t file_len;
  bool symbolized; /* has functions, file names or line numbers already */
  bool first;      /* the profile's first mapping (pprof: the main binary) */
} pcol_sym_mapping;
/* One import's state: its search path, clock, what is left of its bounds
 * and its warnings.  Several profiles of one input (OTLP's messages)
 * share it, so the bounds are the input's. */
typedef struct pcol_sym {
  bool on;          /* mode local */
  char *search;     /* the binary search path, ':'-separated */
  char *tool;       /* llvm-symbolizer or addr2line, found once */
  int llvm, looked;
  pcol_bin_clock clk; /* the deadline of all runs */
  bool cut_addrs, cut_bytes;
  size_t addrs_left, bytes_left;
  pcol_buf warn;    /* the warnings, each followed by "; ", the bounds' first */
  size_t warn_at[64], nwarn; /* where each of the first 64 starts; how many */
  size_t front_len, nfront;  /* the bounds' warnings: their bytes, how many */
  bool missing;     /* a binary could not be found */
  pcol_elf_cache elfs; /* the binaries read, each once */
  uint64_t demangle_left; /* of PCOL_SYM_MAX_DEMANGLE */
  bool cut_demangle;
  /* what pprof shows for each system name met (symbolize.c): its builder
   * string id -> a dense index into shown, so an input's cost follows its
   * own names, not the strings a merge's shared builder holds */
  pcol_u64map shown_ix;
  uint32_t *shown;
  size_t shown_cap;
} pcol_sym;
/* opt NULL or mode none: s->on false, nothing to do.  Starts the clock. */
int pcol_sym_init(pcol_sym *s, const pcol_symbolize_options *opt);
/* The warnings, prefixed with the input's name, into err (code PCOL_OK). */
void pcol_sym_warnings(pcol_sym *s, const char *name, pcol_error *err);
void pcol_sym_free(pcol_sym *s);
/* An importer's whole use of it: pcol_sym_input_new(nm, nl) (NULL: out
 * of memory) gives room for the mappings maps[0..nm) (file and build_id
 * malloc'd copies, freed with it; a NULL one is out of memory) and the
 * locations: location i in mapping loc_map[i] (1-based, 0: none) at
 * loc_addr[i].  pcol_sym_locations frees in, and puts the symbolized
 * locations' chains into t (their functions into b): location i's lines
 * are lines[loc_first[i] ..+ loc_n[i]) (loc_n 0: its own), mapping i gets
 * the flags map_flags[i] added and is named map_file[i] (a string id; 0:
 * its own name).  Warnings into s (pcol_sym_warnings); the status is
 * PCOL_ENOMEM only: a mapping that cannot be symbolized is a warning. */
typedef struct pcol_sym_input {
  pcol_sym_mapping *maps;
  uint32_t *loc_map;
  uint64_t *loc_addr;
  size_t nm, nl;
} pcol_sym_input;
typedef struct pcol_sym_table {
  pcol_buf lines; /* pcol_line_row */
  size_t *loc_first, *loc_n;
  uint8_t *map_flags;
  uint32_t *map_file;
} pcol_sym_table;
pcol_sym_input *pcol_sym_input_new(size_t nm, size_t nl);
int pcol_sym_locations(pcol_sym *s, pcol_builder *b, pcol_sym_input *in, pcol_sym_table *t,
                       pcol_error *err);
void pcol_sym_table_free(pcol_sym_table *t);
/* pprof's Demangle (internal/symbolizer), which follows every local
 * symbolization, for one function of the profile, symbolized or not: when
 * its name (name[0..nlen)) is empty or its system name (sys[0..slen),
 * the builder's string sys_id), *name_id becomes the string of what pprof
 * shows for the system name (demangle.h), or 0, no name, when that is
 * empty (`<lambda>`: the views' "<unknown>"); otherwise it is left alone.
 * Each string is demangled once a session, within its bound. */
int pcol_sym_demangle(pcol_sym *s, pcol_builder *b, const char *name, size_t nlen, const char *sys,
                      size_t slen, uint32_t sys_id, uint32_t *name_id, pcol_error *err);

#endif
