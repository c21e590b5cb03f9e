/* symbolize.h — local symbolization of a profile's addresses, as
 * `go tool pprof -symbolize=local` does (symbolize.c): which mappings are
 * symbolized, where their binaries are found (PPROF_BINARY_PATH's rules),
 * the ELF base rule (runtime address -> the binary's address) and the
 * driver of llvm-symbolizer or addr2line, started without a shell.  An
 * importer (pprof, OTLP: pcol_sym_locations) asks it, mapping by mapping, for the inline
 * chain of each address, innermost first.  Inside libpcol only. */
#ifndef PCOL_CONVERT_SYMBOLIZE_H
#define PCOL_CONVERT_SYMBOLIZE_H

#include "buf.h"
#include "pcol.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bounds of one tool run (one mapping): the addresses asked (the others
 * of the mapping stay unsymbolized, with a warning), the bytes of output
 * read (PCOL_SYM_OUT_PER_ADDR a address, plus 1 MiB), and the seconds it
 * may take (PCOL_SYMBOLIZE_TIMEOUT=S changes it) before it is killed. */
#define PCOL_SYM_MAX_ADDRS ((size_t)1 << 22)
#define PCOL_SYM_OUT_PER_ADDR 4096
#define PCOL_SYM_TIMEOUT_S 60

/* A mapping as the profile gives it (strings: NUL-terminated copies; len:
 * their bytes, to refuse a name holding a NUL). */
typedef struct pcol_sym_mapping {
  uint64_t start, limit, offset;
  const char *file, *build_id;
  size_t file_len;
  bool symbolized; /* has functions, file names or line numbers already */
  bool first;      /* the profile's first mapping (pprof: the main binary) */
} pcol_sym_mapping;

/* One frame of an address's inline chain (borrowed until the next run). */
typedef struct pcol_sym_frame {
  const char *func, *file; /* "" when the tool did not know */
  int64_t line;            /* 0 when unknown */
} pcol_sym_frame;

typedef struct pcol_sym {
  char *search;     /* the binary search path, ':'-separated */
  pcol_buf warn;    /* the warnings, "; "-separated */
  size_t warn_at[64], nwarn; /* where each of the first 64 starts; how many */
  bool missing;     /* a binary could not be found */
  /* the last run's answer: address i's frames are frames[first[i] ..
   * first[i] + count[i]); found: the binary it read */
  char *out;
  pcol_sym_frame *frames;
  size_t nframes, capframes, *first, *count, cap;
  char *found;
} pcol_sym;

/* opt NULL or mode none: nothing to do (0 returned, s unused). */
int pcol_sym_init(pcol_sym *s, const pcol_symbolize_options *opt);
/* 1 when mapping m (with locations) is to be symbolized: pprof's rule
 * (not symbolized yet, a file name, not [vdso]-like, not a URL). */
int pcol_sym_wanted(pcol_sym *s, const pcol_sym_mapping *m);
/* Symbolizes addrs[0..n) of m (n >= 1; addrs[0] decides the ELF segment,
 * as pprof's first location does): s->first/count/frames then hold each
 * address's chain (count 0: unknown).  A mapping that cannot be
 * symbolized is a warning (s->warn) and count 0 everywhere; the status is
 * PCOL_ENOMEM only. */
int pcol_sym_run(pcol_sym *s, const pcol_sym_mapping *m, const uint64_t *addrs, size_t n,
                 pcol_error *err);
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
 * its own name).  Warnings into err (PCOL_OK). */
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
int pcol_sym_locations(pcol_builder *b, const pcol_symbolize_options *opt, const char *name,
                       pcol_sym_input *in, pcol_sym_table *t, pcol_error *err);
void pcol_sym_table_free(pcol_sym_table *t);

#endif
