/* symbolize.c — `go tool pprof -symbolize=local` for an importer
 * (symbolize.h).  The rules are google/pprof's (internal/symbolizer
 * doLocalSymbolize, internal/driver locateBinaries, internal/binutils,
 * internal/elfexec GetBase, as of Go 1.19's copy and upstream):
 *
 *  - a mapping is symbolized when a location uses it, it has no functions,
 *    file names or line numbers yet, it names a file, the file's base name
 *    does not start with "[" or "linux-vdso" (nor is it /dev/dri/..,
 *    //anon, /memfd:..), and, without a build id, it is no http(s) URL;
 *  - its binary is looked for in each directory of the search path
 *    (--binary-path, else $PPROF_BINARY_PATH, else $HOME/pprof/binaries):
 *    with a build id DIR/ID/BASE, every file of DIR/ID (sorted), DIR/FILE/ID,
 *    DIR/ID[:2]/ID[2:].debug; then DIR/BASE, DIR/FILE, DIR/FILE.debug,
 *    DIR/DIRNAME/.debug/BASE.debug, DIR/usr/lib/debug/DIRNAME/BASE.debug;
 *    a candidate with another build id is skipped with a warning; else the
 *    mapping's file itself, refused when its build id differs;
 *  - the ELF base: GetBase with the segment of the first address (no
 *    kernel _stext: symbols are not read);
 *  - the tool: llvm-symbolizer on PATH (--inlining --demangle=false), else
 *    addr2line (-a -i -f -e FILE); the names it gives are the functions'
 *    system names, and their names what pprof's default demangling makes
 *    of them (demangle.c), as are those of the profile's own functions
 *    named by their system names (pcol_sym_demangle).
 *
 * The tool is started with posix_spawn, no shell: the binary's path is one
 * argument (--obj=PATH, -e PATH, so "-x" is no option), the addresses go in
 * through an unlinked temporary file, the output is read through a pipe
 * with poll(), a line at a time, into the builder as it comes.  The tool
 * runs once a binary (the mappings that find one file are asked
 * together), and the runs of an input share its bounds (symbolize.h):
 * a deadline, the addresses, the bytes of new names and frames; past one
 * the tool is killed.  The binary's ELF headers are read with bounds
 * checks. */
#include "symbolize.h"
#include "builder.h" /* string_count: new names charged to the bound */
#include "demangle.h"
#include "spill.h" /* pcol_temp_fd */
#include "error.h"
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------ warnings */

/* a warning: fmt's %s arguments are escaped, %S... no: the format's own
 * text is ours; every %s is a name from the profile or the disk */
/* A warning, "; "-separated from the others.  A bound's warning (a time
 * limit spent, a size bound met, kind PCOL_SYM_BOUND) goes before every
 * other: pcol_sym_warnings keeps only the first warnings that fit in a
 * message, and the user must learn that the output is cut even when many
 * binaries were missing before the bound was met. */
enum { PCOL_SYM_PLAIN = 0, PCOL_SYM_BOUND = 1 };
static void vwarn(pcol_sym *s, int kind, const char *fmt, va_list ap) {
  pcol_buf t = {0};
  for (const char *p = fmt; *p; p++) {
    if (p[0] == '%' && p[1] == 's') {
      const char *a = va_arg(ap, const char *);
      pcol_bin_put_esc(&t, a, strlen(a));
      p++;
    } else {
      (void)pcol_buf_append(&t, p, 1);
    }
  }
  if (!t.len || pcol_buf_append(&t, "; ", 2)) { /* out of memory: the warning is lost, not the import */
    pcol_buf_free(&t);
    return;
  }
  /* the warnings are kept as "w1; w2; ...; " and the last "; " cut when shown */
  size_t at = kind == PCOL_SYM_BOUND ? s->front_len : s->warn.len, cap = sizeof s->warn_at / sizeof *s->warn_at;
  size_t ix = kind == PCOL_SYM_BOUND ? s->nfront : s->nwarn;
  if (pcol_buf_append(&s->warn, t.data, t.len)) {
    pcol_buf_free(&t);
    return;
  }
  memmove(s->warn.data + at + t.len, s->warn.data + at, s->warn.len - t.len - at);
  memcpy(s->warn.data + at, t.data, t.len);
  for (size_t k = ix; k < s->nwarn && k < cap; k++) s->warn_at[k] += t.len;
  if (ix < cap) {
    size_t last = s->nwarn < cap ? s->nwarn : cap - 1;
    memmove(s->warn_at + ix + 1, s->warn_at + ix, (last - ix) * sizeof *s->warn_at);
    s->warn_at[ix] = at;
  }
  s->nwarn++;
  if (kind == PCOL_SYM_BOUND) s->front_len += t.len, s->nfront++;
  pcol_buf_free(&t);
}

static void warn(pcol_sym *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vwarn(s, PCOL_SYM_PLAIN, fmt, ap);
  va_end(ap);
}

static void warn_bound(pcol_sym *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vwarn(s, PCOL_SYM_BOUND, fmt, ap);
  va_end(ap);
}

/* ------------------------------------------------------ reading frames */

typedef struct rd_ctx rd_ctx;

/* One run: the addresses asked, in order (asked[k], of location loc[k]
 * in mapping map[k], 0-based), the reader's place, and where the frames
 * go (the builder's functions, the table's rows). */
struct rd_ctx {
  pcol_sym *s;
  pcol_builder *b;
  pcol_sym_table *d;
  int llvm;
  const uint64_t *asked;
  const uint32_t *loc, *map;
  size_t n, cur, next;
  char *pend;     /* a function line waiting for its file line (owned) */
  pcol_error *err;
  char *why;
  size_t whylen;
};

/* What pprof shows for the system name sys[0..n), the builder's string
 * sys_id (demangle.c), into *v: the string's id + 1, or SHOWN_EMPTY for
 * the empty name.  Each string is demangled once a session (s->shown,
 * at sys_id's index in s->shown_ix, keeps *v, 0: not yet), its work
 * charged to s->demangle_left; once that is spent, the names not yet
 * demangled are kept as they are (*v = sys_id + 1), with one warning.
 * *added: the bytes of a new string.  PCOL_OK, or the builder's error
 * (also out of memory, in err). */
#define SHOWN_EMPTY UINT32_MAX
static int shown(pcol_sym *s, pcol_builder *b, const char *sys, size_t n, uint32_t sys_id,
                 uint32_t *v, size_t *added, pcol_error *err) {
  *added = 0;
  if (s->shown_ix.n >= s->shown_cap) { /* room for a new index first */
    size_t cap = s->shown_cap ? 2 * s->shown_cap : 256;
    uint32_t *t = realloc(s->shown, cap * sizeof *t);
    if (!t) return pcol_error_set(err, PCOL_ENOMEM, "symbolization: out of memory");
    s->shown = t;
    s->shown_cap = cap;
  }
  uint32_t ix;
  int fresh;
  if (pcol_u64map_get(&s->shown_ix, sys_id, &ix, &fresh))
    return pcol_error_set(err, PCOL_ENOMEM, "symbolization: out of memory");
  if (fresh) s->shown[ix] = 0;
  if ((*v = s->shown[ix]) != 0) return PCOL_OK;
  *v = n ? sys_id + 1 : SHOWN_EMPTY;
  if (!n) return PCOL_OK;
  if (!s->demangle_left) {
    if (!s->cut_demangle)
      warn_bound(s, "Demangling stopped at its bound (%s units of work): the names not demangled "
              "by then are kept as they are (mangled)", PCOL_SYM_MAX_DEMANGLE_S);
    s->cut_demangle = true;
    return PCOL_OK;
  }
  char stack[PCOL_DEMANGLE_MAX_OUT], *out = stack;
  size_t cap = n < PCOL_DEMANGLE_MAX_OUT ? PCOL_DEMANGLE_MAX_OUT : n + 1;
  if (cap > sizeof stack && !(out = malloc(cap)))
    return pcol_error_set(err, PCOL_ENOMEM, "symbolization: out of memory");
  uint64_t work = 0;
  size_t len = pcol_demangle_pprof_work(sys, n, out, cap, &work);
  s->demangle_left -= work < s->demangle_left ? work : s->demangle_left;
  int rc = PCOL_OK;
  if (!len) {
    *v = SHOWN_EMPTY;
  } else if (len != n || memcmp(out, sys, n)) {
    uint64_t had = b->string_count;
    uint32_t id;
    if (!(rc = pcol_b_string(b, out, len, &id, err))) {
      *v = id + 1;
      if (b->string_count != had) *added = len;
    }
  }
  if (out != stack) free(out);
  if (!rc) s->shown[ix] = *v;
  return rc;
}

/* The function name of what shown() gave: a name that demangles or
 * simplifies to nothing (`<Anonymous>`, `<lambda>`, `<module>`: pprof's
 * Demangle turns them into "") is no name (NA), which the views name as
 * go tool pprof does, "<unknown>" (or the mapping's "[lib.so]"), not an
 * empty string, which they print as it is (review 20b F2) */
static uint32_t shown_name(uint32_t v) { return v == SHOWN_EMPTY ? 0 : v - 1; }

/* a string of the answer into the builder, its new bytes charged */
static int intern(rd_ctx *r, const char *p, uint32_t *id) {
  uint64_t had = r->b->string_count;
  size_t n = strlen(p);
  if (pcol_b_string(r->b, p, n, id, r->err)) return -2;
  if (r->b->string_count == had) return 0;
  if (n > r->s->bytes_left) return -3;
  r->s->bytes_left -= n;
  return 0;
}

/* one frame's two lines, as pprof's readFrame of each tool reads them;
 * a frame without anything is no frame */
static int frame(rd_ctx *r, char *func, char *fl) {
  int llvm = r->llvm;
  int64_t line = 0;
  if (!strcmp(func, "??")) func = "";
  if (!strcmp(fl, "??:0") || !strcmp(fl, "??:0:0")) {
    fl = "";
  } else if (llvm) { /* file, file:line or file:line:column */
    char *a = strchr(fl, ':'), *b2 = a ? strchr(a + 1, ':') : NULL;
    if (a && (!b2 || !strchr(b2 + 1, ':'))) {
      char *e;
      long long v = strtoll(a + 1, &e, 10);
      if (e != a + 1 && (*e == 0 || e == b2)) line = v;
      *a = 0;
    }
  } else {
    char *a = strrchr(fl, ':');
    if (a) {
      char *d = strstr(fl, " (discriminator");
      if (d && d > fl) *d = 0;
      a = strrchr(fl, ':');
      char *e;
      long long v = a ? strtoll(a + 1, &e, 10) : 0;
      if (a && e != a + 1 && !*e) {
        line = v;
        *a = 0;
      }
    }
  }
  if (!*func && !*fl && !line) return 0;
  pcol_sym_table *d = r->d;
  if (sizeof(pcol_line_row) > r->s->bytes_left) return -3;
  r->s->bytes_left -= sizeof(pcol_line_row);
  /* pprof's Function{Name, SystemName: the tool's name, Filename}, then
   * its Demangle: the name it shows */
  pcol_function_row fr = {0, 0, 0, 0};
  pcol_line_row lr = {0, line, 0};
  int rc;
  if ((rc = intern(r, func, &fr.system_name)) || (rc = intern(r, fl, &fr.filename))) return rc;
  uint32_t v;
  size_t added;
  if (shown(r->s, r->b, func, strlen(func), fr.system_name, &v, &added, r->err)) return -2;
  if (added > r->s->bytes_left) return -3;
  r->s->bytes_left -= added;
  fr.name = shown_name(v);
  if (pcol_b_function(r->b, &fr, &lr.function_id, r->err)) return -2;
  size_t li = r->loc[r->cur];
  if (!d->loc_n[li]) d->loc_first[li] = d->lines.len / sizeof(pcol_line_row);
  if (pcol_buf_append(&d->lines, &lr, sizeof lr)) return -2;
  d->loc_n[li]++;
  d->map_flags[r->map[r->cur]] |= PCOL_MAP_HAS_INLINE_FRAMES | (*func ? PCOL_MAP_HAS_FUNCTIONS : 0) |
                                  (*fl ? PCOL_MAP_HAS_FILENAMES : 0) |
                                  (line ? PCOL_MAP_HAS_LINE_NUMBERS : 0);
  return 0;
}

/* a run stopped before its end: the address being read may miss frames
 * (the rest of its chain), so it stays unsymbolized */
static void rd_abort(void *ctx) {
  rd_ctx *r = ctx;
  if (r->cur == SIZE_MAX) return;
  size_t li = r->loc[r->cur];
  if (r->d->loc_n[li]) r->d->lines.len = r->d->loc_first[li] * sizeof(pcol_line_row);
  r->d->loc_n[li] = 0;
}

/* The tool's output: per address, its "0x..." line, then (function,
 * file:line) pairs; llvm-symbolizer ends each with an empty line.  Each
 * line is read as pprof's binutils reads it: strings.TrimSpace first.
 * 0; -2 out of memory (err set); -2 too with why for the bytes' bound.
 *
 * An address's answer starts at the line that echoes it, the next one
 * asked, so a function named like that address ("0x401000") is taken as
 * its echo and the frames after it go to that address.  pprof writes a
 * sentinel address (0xffffffffffffffff) after each address to addr2line
 * and ends an answer at any function line starting with "0x" (a function
 * named so cuts its chain there); its llvm-symbolizer path ends one at an
 * empty line, as pcol does (upstream now reads llvm-symbolizer's JSON
 * output, one line an address, its strings escaped).  pcol does not write
 * a sentinel: a binary's names may hold newlines (addr2line and
 * llvm-symbolizer print them as they are), so any line-based delimiter, a
 * sentinel's three lines too, can be written by a function name, and what
 * is misread stays within one binary's answer (a run asks one file),
 * whose names its author chooses anyway: an address gets frames of that
 * binary meant for another of its addresses, nothing from elsewhere, and
 * the addresses are still read in order, each once, within the run's
 * bounds. */
static int rd_line(void *ctx, char *line) {
  rd_ctx *r = ctx;
  line = pcol_bin_trim_space(line);
  if (!r->pend && r->next < r->n && line[0] == '0' && line[1] == 'x') {
    char *x;
    errno = 0;
    unsigned long long v = strtoull(line + 2, &x, 16);
    if (!*x && !errno && v == r->asked[r->next]) {
      r->cur = r->next++;
      return 0;
    }
  }
  if (r->cur == SIZE_MAX) return 0;
  if (!r->pend) {
    if (r->llvm && !*line) return 0; /* the end of a record */
    if (!(r->pend = strdup(line))) return -2;
    return 0;
  }
  int rc = frame(r, r->pend, line);
  free(r->pend);
  r->pend = NULL;
  if (rc == -3) {
    r->s->cut_bytes = true;
    snprintf(r->why, r->whylen, "its names and frames passed %zu MiB (the rest unsymbolized)",
             PCOL_SYM_MAX_BYTES >> 20);
    return -1;
  }
  return rc;
}

/* ------------------------------------------------------ finding binaries */

static void ignored(void *ctx, const char *path, const char *want, const char *got) {
  warn(ctx, "Ignoring local file %s: build-id mismatch (%s != %s)", path, want, got);
}

/* pcol_bin_locate, its failures as warnings: 0, -1 after a warning, -2
 * out of memory */
static int locate(pcol_sym *s, const pcol_sym_mapping *sm, const char *shown, pcol_elf_info *e,
                  char **found) {
  char why[1024];
  pcol_bin_map m = {sm->start, sm->limit, sm->offset, sm->file, sm->build_id, sm->file_len};
  int rc = pcol_bin_locate(s->search, &s->elfs, &s->clk, &m, e, found, ignored, s, why,
                           sizeof why);
  if (rc == -1) {
    (s->clk.timed_out ? warn_bound : warn)(s, "Local symbolization failed for %s: %s", shown, why);
    if (!s->clk.timed_out && strcmp(why, "build ID mismatch")) s->missing = true;
  }
  return rc;
}

/* -------------------------------------------------------------- the API */

int pcol_sym_init(pcol_sym *s, const pcol_symbolize_options *opt) {
  memset(s, 0, sizeof *s);
  if (!opt || opt->mode != PCOL_SYMBOLIZE_LOCAL) return 0;
  s->on = true;
  s->search = pcol_bin_search_path(opt->binary_path);
  pcol_bin_clock_start(&s->clk);
  s->addrs_left = PCOL_SYM_MAX_ADDRS;
  s->bytes_left = PCOL_SYM_MAX_BYTES;
  s->demangle_left = PCOL_SYM_MAX_DEMANGLE;
  return s->search ? 0 : PCOL_ENOMEM;
}

/* pprof's rule: m (with locations) is to be symbolized when it is not
 * symbolized yet, names a file, is not [vdso]-like and is no URL */
static int wanted(pcol_sym *s, const pcol_sym_mapping *m) {
  if (m->symbolized) return 0;
  if (!*m->file) {
    if (m->first) warn(s, "Main binary filename not available.");
    else s->missing = true;
    return 0;
  }
  const char *sl = strrchr(m->file, '/');
  const char *base = sl && sl[1] ? sl + 1 : m->file;
  if (*base == '[' || !strncmp(base, "linux-vdso", 10) || !strncmp(m->file, "/dev/dri/", 9) ||
      !strcmp(m->file, "//anon") || !strncmp(m->file, "/memfd:", 7))
    return 0;
  if (!*m->build_id && (!strncmp(m->file, "http://", 7) || !strncmp(m->file, "https://", 8)))
    return 0;
  return 1;
}

/* One tool run: a binary (one file, by device and inode) and the
 * addresses asked of it by every mapping that found it, each already
 * turned into the binary's own address by its mapping's base. */
typedef struct group {
  char *path, *shown; /* the file; pprof's name of its first mapping */
  uint64_t dev, ino;
  pcol_buf asked;     /* uint64_t */
  pcol_buf loc, map;  /* uint32_t: the location (0-based), its mapping */
} group;

typedef struct groups {
  group *v;
  size_t n, cap;
} groups;

static void groups_free(groups *g) {
  for (size_t i = 0; i < g->n; i++) {
    free(g->v[i].path);
    free(g->v[i].shown);
    pcol_buf_free(&g->v[i].asked);
    pcol_buf_free(&g->v[i].loc);
    pcol_buf_free(&g->v[i].map);
  }
  free(g->v);
}

/* Mapping mi (0-based) with the locations order[a..z): its binary found,
 * its base had from its first location (pprof's rule), and its addresses
 * added to its binary's group.  0 (a failure is a warning), or -2: out of
 * memory. */
static int add_mapping(pcol_sym *s, groups *gs, pcol_builder *b, const pcol_sym_mapping *m,
                       uint32_t mi, const size_t *order, size_t a, size_t z,
                       const uint64_t *loc_addr, pcol_sym_table *d, pcol_error *err) {
  /* pprof's name for the mapping: its base name and build id */
  const char *sl = strrchr(m->file, '/');
  const char *bn = sl && sl[1] ? sl + 1 : m->file;
  size_t sn = strlen(bn) + strlen(m->build_id) + 16;
  char *shown = malloc(sn), *found = NULL, why[1024];
  if (!shown) return -2;
  snprintf(shown, sn, *m->build_id ? "%s (build ID %s)" : "%s", bn, m->build_id);
  pcol_elf_info e = {0};
  int rc = locate(s, m, shown, &e, &found);
  if (rc) {
    free(shown);
    return rc == -2 ? -2 : 0;
  }
  /* pprof's locateBinaries names the mapping by the binary it found */
  if (strcmp(found, m->file) && pcol_b_string(b, found, strlen(found), &d->map_file[mi], err))
    rc = -2;
  uint64_t first = loc_addr[order[a]], base = 0;
  pcol_bin_map bm = {m->start, m->limit, m->offset, m->file, m->build_id, m->file_len};
  if (!rc && pcol_elf_addr_base(&e, &bm, first, &base, why, sizeof why)) rc = -1;
  pcol_elf_free(&e);
  if (rc) {
    if (rc == -1) warn(s, "Local symbolization failed for %s: %s", shown, why);
    free(shown);
    free(found);
    return rc == -1 ? 0 : rc;
  }
  group *g = NULL;
  for (size_t i = 0; i < gs->n && !g; i++)
    if (gs->v[i].dev == e.dev && gs->v[i].ino == e.ino) g = &gs->v[i];
  if (!g) {
    if (gs->n == gs->cap) {
      size_t c = gs->cap ? 2 * gs->cap : 8;
      group *v = realloc(gs->v, c * sizeof *v);
      if (!v) {
        free(shown);
        free(found);
        return -2;
      }
      gs->v = v;
      gs->cap = c;
    }
    g = &gs->v[gs->n++];
    memset(g, 0, sizeof *g);
    g->path = found;
    g->shown = shown;
    g->dev = e.dev;
    g->ino = e.ino;
    found = shown = NULL;
  }
  free(shown);
  free(found);
  size_t k = z - a < s->addrs_left ? z - a : s->addrs_left;
  if (k < z - a && !s->cut_addrs) {
    warn_bound(s, "only the first 4194304 addresses of the input were symbolized");
    s->cut_addrs = true;
  }
  s->addrs_left -= k;
  for (size_t j = a; j < a + k; j++) {
    uint64_t ad = loc_addr[order[j]] - base;
    uint32_t li = (uint32_t)order[j];
    if (pcol_buf_append(&g->asked, &ad, sizeof ad) || pcol_buf_append(&g->loc, &li, sizeof li) ||
        pcol_buf_append(&g->map, &mi, sizeof mi))
      return -2;
  }
  return 0;
}

/* One run of the tool over a group's addresses: 0 (a failure is a
 * warning), or -2: out of memory (err set). */
static int run_group(pcol_sym *s, const group *g, pcol_builder *b, pcol_sym_table *d,
                     pcol_error *err) {
  size_t n = g->asked.len / sizeof(uint64_t);
  if (!n) return 0;
  char why[1024] = "";
  if (s->clk.timed_out) {
    char secs[32];
    snprintf(secs, sizeof secs, "%g", s->clk.secs);
    warn_bound(s, "Local symbolization failed for %s: not run, the %s s of PCOL_SYMBOLIZE_TIMEOUT were spent",
         g->shown, secs);
    return 0;
  }
  if (s->cut_bytes) {
    warn_bound(s, "Local symbolization failed for %s: not run, the names and frames had passed the bound",
         g->shown);
    return 0;
  }
  if (!s->looked) {
    s->looked = 1;
    s->llvm = 1;
    if (!(s->tool = pcol_bin_on_path("llvm-symbolizer"))) {
      s->llvm = 0;
      s->tool = pcol_bin_on_path("addr2line");
    }
  }
  if (!s->tool) {
    warn(s, "Local symbolization failed for %s: neither llvm-symbolizer nor addr2line is on PATH",
         g->shown);
    return 0;
  }
  const uint64_t *asked = (const uint64_t *)(const void *)g->asked.data;
  /* (the addresses written through a close-on-exec copy of fd, closed
   * by fclose; fd, rewound, is the tool's stdin) */
  int fd = pcol_temp_fd("pcol-sym");
  int wfd = fd >= 0 ? fcntl(fd, F_DUPFD_CLOEXEC, 3) /* never stdin, stdout or stderr */ : -1;
  FILE *tf = wfd >= 0 ? fdopen(wfd, "w") : NULL;
  if (!tf) {
    warn(s, "Local symbolization failed for %s: cannot make a temporary file", g->shown);
    if (wfd >= 0) close(wfd);
    if (fd >= 0) close(fd);
    return 0;
  }
  for (size_t i = 0; i < n; i++) fprintf(tf, "0x%" PRIx64 "\n", asked[i]);
  if (fclose(tf) || lseek(fd, 0, SEEK_SET) != 0) {
    warn(s, "Local symbolization failed for %s: cannot write a temporary file", g->shown);
    close(fd);
    return 0;
  }
  /* (the path as one argument no tool reads as options: "@x" is a file of
   * options to addr2line even after -e) */
  char *ap = pcol_bin_arg_path(g->path);
  size_t ol = ap ? strlen(ap) + 8 : 0;
  char *obj = ap ? malloc(ol) : NULL;
  if (!obj) {
    free(ap);
    close(fd);
    return pcol_error_set(err, PCOL_ENOMEM, "symbolization: out of memory"), -2;
  }
  snprintf(obj, ol, "--obj=%s", ap);
  char *llvm_argv[] = {s->tool, "--inlining", "-demangle=false", "--addresses", obj, NULL};
  char *a2l_argv[] = {s->tool, "-a", "-i", "-f", "-e", ap, NULL};
  rd_ctx r = {s, b, d, s->llvm, asked, (const uint32_t *)(const void *)g->loc.data,
              (const uint32_t *)(const void *)g->map.data, n, SIZE_MAX, 0, NULL, err,
              why, sizeof why};
  int rc = pcol_bin_run(&s->clk, s->llvm ? llvm_argv : a2l_argv, fd, PCOL_SYM_MAX_LINE, rd_line,
                        rd_abort, &r, why, sizeof why);
  free(r.pend);
  free(obj);
  free(ap);
  close(fd);
  if (rc == -1) (s->clk.timed_out ? warn_bound : warn)(s, "Local symbolization failed for %s: %s", g->shown, why);
  if (rc == -2 && err->code == PCOL_OK) pcol_error_set(err, PCOL_ENOMEM, "symbolization: out of memory");
  return rc == -2 ? -2 : 0;
}

void pcol_sym_warnings(pcol_sym *s, const char *name, pcol_error *err) {
  if (s->missing)
    warn(s, "Some binary filenames not available. Symbolization may be incomplete. Try "
            "--binary-path DIRS or PPROF_BINARY_PATH, the search path for local binaries.");
  if (s->warn.len < 2) return;
  s->warn.len -= 2; /* the last "; " */
  if (pcol_buf_append(&s->warn, "", 1)) return;
  /* the first k warnings that fit in a message (the bounds' first), and how
   * many did not (the first k end before the "; " where warning k + 1
   * starts, at warn_at[k]) */
  size_t room = sizeof err->message - strlen(name) - 48, k = s->nwarn;
  size_t cap = sizeof s->warn_at / sizeof *s->warn_at;
  if (s->warn.len > room && s->nwarn > 1) {
    k = 1;
    while (k + 1 < s->nwarn && k + 1 < cap && s->warn_at[k + 1] - 2 <= room) k++;
    s->warn.data[s->warn_at[k] - 2] = 0;
  }
  /* success with a warning (pcol.h, the warning rule) */
  if (k < s->nwarn)
    pcol_error_set(err, PCOL_OK, "%s: %s; and %zu more", name, (const char *)s->warn.data,
                   s->nwarn - k);
  else
    pcol_error_set(err, PCOL_OK, "%s: %s", name, (const char *)s->warn.data);
}

void pcol_sym_table_free(pcol_sym_table *t) {
  pcol_buf_free(&t->lines);
  free(t->loc_first);
  free(t->loc_n);
  free(t->map_flags);
  free(t->map_file);
  memset(t, 0, sizeof *t);
}

static int oom(pcol_error *err) {
  return pcol_error_set(err, PCOL_ENOMEM, "symbolization: out of memory");
}

int pcol_sym_demangle(pcol_sym *s, pcol_builder *b, const char *name, size_t nlen, const char *sys,
                      size_t slen, uint32_t sys_id, uint32_t *name_id, pcol_error *err) {
  if (nlen && (nlen != slen || memcmp(name, sys, slen))) return PCOL_OK; /* demangled already */
  uint32_t v;
  size_t added;
  int rc = shown(s, b, sys, slen, sys_id, &v, &added, err);
  if (!rc) *name_id = shown_name(v);
  return rc;
}

pcol_sym_input *pcol_sym_input_new(size_t nm, size_t nl) {
  pcol_sym_input *in = calloc(1, sizeof *in);
  if (!in) return NULL;
  in->maps = calloc(nm + 1, sizeof *in->maps);
  in->loc_map = calloc(nl + 1, sizeof *in->loc_map);
  in->loc_addr = calloc(nl + 1, sizeof *in->loc_addr);
  in->nm = nm;
  in->nl = nl;
  if (in->maps && in->loc_map && in->loc_addr) return in;
  free(in->maps);
  free(in->loc_map);
  free(in->loc_addr);
  free(in);
  return NULL;
}

static void input_free(pcol_sym_input *in) {
  for (size_t i = 0; i < in->nm; i++) {
    free((char *)in->maps[i].file);
    free((char *)in->maps[i].build_id);
  }
  free(in->maps);
  free(in->loc_map);
  free(in->loc_addr);
  free(in);
}

/* each mapping's locations, in the profile's order (its first location
 * decides the ELF segment, as in pprof's doLocalSymbolize), then one run
 * a binary */
static int locations(pcol_sym *s, pcol_builder *b, const pcol_sym_input *in, pcol_sym_table *d,
                     pcol_error *err) {
  size_t nm = in->nm, nl = in->nl;
  d->loc_first = calloc(nl + 1, sizeof *d->loc_first);
  d->loc_n = calloc(nl + 1, sizeof *d->loc_n);
  d->map_flags = calloc(nm + 1, sizeof *d->map_flags);
  d->map_file = calloc(nm + 1, sizeof *d->map_file);
  /* the locations of each mapping (1-based; 0: none), a counting sort */
  size_t *start = calloc(nm + 2, sizeof *start), *order = malloc((nl + 1) * sizeof *order);
  int rc = d->loc_first && d->loc_n && d->map_flags && d->map_file && start && order ? 0 : -2;
  const uint32_t *loc_map = in->loc_map;
  for (size_t i = 0; !rc && i < nl; i++) start[loc_map[i] <= nm ? loc_map[i] : 0]++;
  for (size_t i = 1; !rc && i <= nm + 1; i++) start[i] += start[i - 1];
  for (size_t i = nl; !rc && i-- > 0;) order[--start[loc_map[i] <= nm ? loc_map[i] : 0]] = i;
  groups gs = {0};
  size_t late = 0; /* mappings not looked at: the deadline had passed */
  for (size_t mi = 1; !rc && mi <= nm; mi++) {
    size_t a = start[mi], z = start[mi + 1];
    if (a == z || !wanted(s, &in->maps[mi - 1])) continue; /* no location uses it */
    if (!s->clk.timed_out && pcol_bin_now() >= s->clk.deadline) s->clk.timed_out = true;
    if (s->clk.timed_out) {
      late++;
      continue;
    }
    rc = add_mapping(s, &gs, b, &in->maps[mi - 1], (uint32_t)(mi - 1), order, a, z, in->loc_addr,
                     d, err);
  }
  if (late) {
    char nmaps[32], secs[32];
    snprintf(nmaps, sizeof nmaps, "%zu", late);
    snprintf(secs, sizeof secs, "%g", s->clk.secs);
    warn_bound(s, "%s mappings not symbolized: their binaries not looked for, the %s s of "
            "PCOL_SYMBOLIZE_TIMEOUT were spent", nmaps, secs);
  }
  for (size_t i = 0; !rc && i < gs.n; i++) rc = run_group(s, &gs.v[i], b, d, err);
  groups_free(&gs);
  free(start);
  free(order);
  return rc == -2 ? (err->code != PCOL_OK ? err->code : oom(err)) : PCOL_OK;
}

int pcol_sym_locations(pcol_sym *s, pcol_builder *b, pcol_sym_input *in, pcol_sym_table *d,
                       pcol_error *err) {
  memset(d, 0, sizeof *d);
  int rc = PCOL_OK;
  for (size_t i = 0; i < in->nm && !rc; i++)
    if (!in->maps[i].file || !in->maps[i].build_id) rc = oom(err);
  if (!rc && s->on) rc = locations(s, b, in, d, err);
  input_free(in);
  return rc;
}

void pcol_sym_free(pcol_sym *s) {
  pcol_elf_cache_free(&s->elfs);
  free(s->search);
  free(s->tool);
  pcol_buf_free(&s->warn);
  pcol_u64map_free(&s->shown_ix);
  free(s->shown);
  memset(s, 0, sizeof *s);
}
