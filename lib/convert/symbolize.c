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
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* ------------------------------------------------------------ warnings */

/* Appends s[0..n) with control bytes and '\\' escaped (\xNN): names from a
 * profile go into one line of text. */
static void put_esc(pcol_buf *w, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    char t[5];
    if (c < 0x20 || c == 0x7f || c == '\\') {
      snprintf(t, sizeof t, "\\x%02x", c);
      (void)pcol_buf_append(w, t, 4);
    } else {
      (void)pcol_buf_append(w, &s[i], 1);
    }
  }
}

/* a warning: fmt's %s arguments are escaped, %S... no: the format's own
 * text is ours; every %s is a name from the profile or the disk */
static void warn(pcol_sym *s, const char *fmt, ...) {
  if (s->nwarn < sizeof s->warn_at / sizeof *s->warn_at) s->warn_at[s->nwarn] = s->warn.len;
  s->nwarn++;
  if (s->warn.len) (void)pcol_buf_append(&s->warn, "; ", 2);
  va_list ap;
  va_start(ap, fmt);
  for (const char *p = fmt; *p; p++) {
    if (p[0] == '%' && p[1] == 's') {
      const char *a = va_arg(ap, const char *);
      put_esc(&s->warn, a, strlen(a));
      p++;
    } else {
      (void)pcol_buf_append(&s->warn, p, 1);
    }
  }
  va_end(ap);
}

/* ----------------------------------------------------------- ELF files */

typedef struct elf_ph {
  uint32_t type, flags;
  uint64_t off, vaddr, filesz, memsz, align;
} elf_ph;

typedef struct elf_info {
  int type; /* e_type */
  elf_ph *ph;
  size_t nph;
  int text;          /* the PT_LOAD segment holding .text, or -1 */
  char build_id[129]; /* hex, "" when none */
  uint64_t dev, ino;  /* the file read: one tool run a file */
} elf_info;

enum { PT_LOAD_ = 1, PT_NOTE_ = 4, PF_X_ = 1, SHT_NOTE_ = 7, ET_REL_ = 1, ET_EXEC_ = 2, ET_DYN_ = 3 };

typedef struct elf_rd {
  int fd, be, is64;
  uint64_t size;
} elf_rd;

static int rd_at(const elf_rd *r, uint64_t off, void *p, size_t n) {
  if (off > r->size || n > r->size - off) return -1;
  size_t got = 0;
  while (got < n) {
    ssize_t k = pread(r->fd, (char *)p + got, n - got, (off_t)(off + got));
    if (k <= 0) {
      if (k < 0 && errno == EINTR) continue;
      return -1;
    }
    got += (size_t)k;
  }
  return 0;
}

static uint64_t get(const elf_rd *r, const uint8_t *p, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; i++) v |= (uint64_t)p[r->be ? n - 1 - i : i] << (8 * i);
  return v;
}

/* GNU build id notes in b[0..n) (PT_NOTE or SHT_NOTE), align 4 or 8 */
static int find_build_id(const elf_rd *r, const uint8_t *b, size_t n, uint64_t align, char *hex) {
  size_t a = align == 8 ? 8 : 4, i = 0;
  while (n - i >= 12) {
    uint64_t namesz = get(r, b + i, 4), descsz = get(r, b + i + 4, 4), type = get(r, b + i + 8, 4);
    size_t name = i + 12;
    if (namesz > n - name) return 0;
    size_t desc = name + (size_t)namesz;
    desc = (desc + a - 1) / a * a;
    if (desc > n || descsz > n - desc) return 0;
    if (type == 3 && namesz == 4 && !memcmp(b + name, "GNU", 4) && descsz && descsz <= 64) {
      for (size_t k = 0; k < descsz; k++) snprintf(hex + 2 * k, 3, "%02x", b[desc + k]);
      return 1;
    }
    i = desc + (size_t)descsz;
    i = (i + a - 1) / a * a;
    if (i > n) return 0;
  }
  return 0;
}

#define NOTE_CAP ((size_t)1 << 16)
#define SHSTR_CAP ((size_t)1 << 20)

/* Reads path's ELF header, program headers, .text's segment and build id.
 * 0, or -1 with why set (pprof's words where it has them). */
static int elf_read(const char *path, elf_info *e, char *why, size_t whylen) {
  memset(e, 0, sizeof *e);
  e->text = -1;
  elf_rd r = {-1, 0, 0, 0};
  uint8_t h[64];
  struct stat st;
  if (stat(path, &st)) {
    snprintf(why, whylen, "stat %s: %s", path, strerror(errno));
    return -1;
  }
  /* (a FIFO or a device named by the profile would block open(): refused
   * before it, and O_NONBLOCK closes the race with a file swapped in) */
  if (!S_ISREG(st.st_mode)) {
    snprintf(why, whylen, "error reading magic number from %s: not a regular file", path);
    return -1;
  }
  r.fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (r.fd < 0) {
    snprintf(why, whylen, "error opening %s: %s", path, strerror(errno));
    return -1;
  }
  if (fstat(r.fd, &st) || !S_ISREG(st.st_mode)) {
    snprintf(why, whylen, "error reading magic number from %s: not a regular file", path);
    close(r.fd);
    return -1;
  }
  r.size = (uint64_t)st.st_size;
  e->dev = (uint64_t)st.st_dev;
  e->ino = (uint64_t)st.st_ino;
  const char *bad = NULL;
  uint8_t *buf = NULL;
  if (rd_at(&r, 0, h, 16) || memcmp(h, "\177ELF", 4)) {
    snprintf(why, whylen, "unrecognized binary format: %s", path);
    close(r.fd);
    return -1;
  }
  r.is64 = h[4] == 2;
  r.be = h[5] == 2;
  if ((h[4] != 1 && h[4] != 2) || (h[5] != 1 && h[5] != 2)) bad = "bad ELF class or data encoding";
  else if (rd_at(&r, 0, h, r.is64 ? 64 : 52)) bad = "truncated ELF header";
  uint64_t phoff = 0, shoff = 0, phentsize = 0, phnum = 0, shentsize = 0, shnum = 0, shstrndx = 0;
  if (!bad) {
    e->type = (int)get(&r, h + 16, 2);
    /* e_entry at 24, then e_phoff, e_shoff (each w bytes), e_flags, and
     * e_phentsize 14 bytes past o */
    int w = r.is64 ? 8 : 4, o = r.is64 ? 40 : 28;
    phoff = get(&r, h + 24 + w, w);
    shoff = get(&r, h + 24 + 2 * w, w);
    phentsize = get(&r, h + o + 14, 2);
    phnum = get(&r, h + o + 16, 2);
    shentsize = get(&r, h + o + 18, 2);
    shnum = get(&r, h + o + 20, 2);
    shstrndx = get(&r, h + o + 22, 2);
    if (phnum && phentsize < (uint64_t)(r.is64 ? 56 : 32)) bad = "bad program header size";
    /* a cut file (Go's elf.NewFile, which pprof uses, refuses it too) */
    else if (shnum && (shentsize < (uint64_t)(r.is64 ? 64 : 40) || shoff > r.size ||
                       shentsize * shnum > r.size - shoff))
      bad = "section headers out of the file";
  }
  /* program headers */
  if (!bad && phnum) {
    e->ph = calloc((size_t)phnum, sizeof *e->ph);
    if (!e->ph) bad = "out of memory";
    for (uint64_t i = 0; !bad && i < phnum; i++) {
      uint8_t p[56];
      if (phentsize > UINT64_MAX / phnum || phoff > UINT64_MAX - phentsize * phnum ||
          rd_at(&r, phoff + i * phentsize, p, r.is64 ? 56 : 32)) {
        bad = "program headers out of the file";
        break;
      }
      elf_ph *q = &e->ph[e->nph++];
      q->type = (uint32_t)get(&r, p, 4);
      if (r.is64) {
        q->flags = (uint32_t)get(&r, p + 4, 4);
        q->off = get(&r, p + 8, 8);
        q->vaddr = get(&r, p + 16, 8);
        q->filesz = get(&r, p + 32, 8);
        q->memsz = get(&r, p + 40, 8);
        q->align = get(&r, p + 48, 8);
      } else {
        q->off = get(&r, p + 4, 4);
        q->vaddr = get(&r, p + 8, 4);
        q->filesz = get(&r, p + 16, 4);
        q->memsz = get(&r, p + 20, 4);
        q->flags = (uint32_t)get(&r, p + 24, 4);
        q->align = get(&r, p + 28, 4);
      }
    }
  }
  /* the build id: the PT_NOTE segments, then the SHT_NOTE sections */
  for (size_t i = 0; !bad && !e->build_id[0] && i < e->nph; i++) {
    const elf_ph *q = &e->ph[i];
    if (q->type != PT_NOTE_) continue;
    size_t n = q->filesz < NOTE_CAP ? (size_t)q->filesz : NOTE_CAP;
    uint8_t *nb = malloc(n ? n : 1);
    if (nb && !rd_at(&r, q->off, nb, n)) find_build_id(&r, nb, n, q->align, e->build_id);
    free(nb);
  }
  /* the sections: .text's segment, and notes when no segment had the id */
  size_t shsz = r.is64 ? 64 : 40;
  if (!bad && shnum && shentsize >= shsz && shstrndx < shnum && shentsize <= UINT64_MAX / shnum &&
      shoff <= r.size && shentsize * shnum <= r.size - shoff) {
    uint8_t s[64];
    uint64_t stroff = 0, strsz = 0;
    if (!rd_at(&r, shoff + shstrndx * shentsize, s, shsz)) {
      stroff = get(&r, s + (r.is64 ? 24 : 16), r.is64 ? 8 : 4);
      strsz = get(&r, s + (r.is64 ? 32 : 20), r.is64 ? 8 : 4);
    }
    if (strsz > SHSTR_CAP) strsz = SHSTR_CAP;
    buf = malloc((size_t)strsz + 1);
    if (buf && strsz && !rd_at(&r, stroff, buf, (size_t)strsz)) {
      buf[strsz] = 0;
      for (uint64_t i = 0; i < shnum; i++) {
        if (rd_at(&r, shoff + i * shentsize, s, shsz)) break;
        uint64_t name = get(&r, s, 4), type = get(&r, s + 4, 4);
        int w = r.is64 ? 8 : 4;
        uint64_t addr = get(&r, s + 8 + w, w), off = get(&r, s + 8 + 2 * w, w);
        uint64_t size = get(&r, s + 8 + 3 * w, w), align = get(&r, s + 16 + 4 * w, w);
        if (e->text < 0 && name < strsz && !strcmp((char *)buf + name, ".text")) {
          for (size_t k = 0; k < e->nph; k++) {
            const elf_ph *q = &e->ph[k];
            if (q->type == PT_LOAD_ && (q->flags & PF_X_) && addr >= q->vaddr &&
                addr - q->vaddr < q->memsz) {
              e->text = (int)k;
              break;
            }
          }
        }
        if (type == SHT_NOTE_ && !e->build_id[0]) {
          size_t n = size < NOTE_CAP ? (size_t)size : NOTE_CAP;
          uint8_t *nb = malloc(n ? n : 1);
          if (nb && !rd_at(&r, off, nb, n)) find_build_id(&r, nb, n, align, e->build_id);
          free(nb);
        }
      }
    }
  }
  free(buf);
  close(r.fd);
  if (bad) {
    snprintf(why, whylen, "error reading ELF file %s: %s", path, bad);
    free(e->ph);
    e->ph = NULL;
    return -1;
  }
  return 0;
}

/* ------------------------------------------------------------ the base */

#define PAGE 4096u

/* elfexec.kernelBase without the _stext symbol */
static int kernel_base(const elf_ph *ph, uint64_t start, uint64_t limit, uint64_t offset,
                       uint64_t *base) {
  if (ph->vaddr == start - offset) {
    *base = offset;
    return 1;
  }
  if (start >= ph->vaddr && limit > start &&
      (offset == 0 || offset == 0xc000000000000000u || offset == start)) {
    *base = start - ph->vaddr;
    return 1;
  }
  return 0;
}

/* elfexec.GetBase: what to subtract from a runtime address */
static int get_base(int type, const elf_ph *ph, uint64_t start, uint64_t limit, uint64_t offset,
                    uint64_t *base, char *why, size_t whylen) {
  *base = 0;
  if (start == 0 && offset == 0 && (limit == UINT64_MAX || limit == 0)) return 0;
  switch (type) {
  case ET_EXEC_:
    if (!ph) return 0;
    if (start > 0 && start < 0x8000000000000000u) {
      *base = start - offset + ph->off - ph->vaddr;
      return 0;
    }
    if (kernel_base(ph, start, limit, offset, base)) return 0;
    if (start == 0 && limit != 0) {
      *base = start - ph->vaddr;
      return 0;
    }
    snprintf(why, whylen, "don't know how to handle EXEC segment: start=0x%" PRIx64
             " limit=0x%" PRIx64 " offset=0x%" PRIx64, start, limit, offset);
    return -1;
  case ET_REL_:
    if (offset != 0) {
      snprintf(why, whylen, "don't know how to handle mapping.Offset");
      return -1;
    }
    *base = start;
    return 0;
  case ET_DYN_:
    if (!ph) {
      *base = start - offset;
      return 0;
    }
    if (kernel_base(ph, start, limit, offset, base)) return 0;
    *base = start - offset + ph->off - ph->vaddr;
    return 0;
  }
  snprintf(why, whylen, "don't know how to handle FileHeader.Type %d", type);
  return -1;
}

/* binutils findProgramHeader: the segment of address addr, or NULL */
static int find_ph(const elf_info *e, const pcol_sym_mapping *m, uint64_t addr, const elf_ph **out,
                   char *why, size_t whylen) {
  *out = NULL;
  if (m->start >= m->limit || m->limit >= ((uint64_t)1 << 63)) {
    *out = e->text >= 0 ? &e->ph[e->text] : NULL;
    return 0;
  }
  size_t nload = 0, nmatch = 0;
  const elf_ph *match = NULL;
  uint64_t map_off = m->offset, map_lim = m->offset + (m->limit - m->start);
  uint64_t fo = addr - m->start + m->offset;
  for (int pass = 0; pass < 2; pass++) {
    /* pass 0: the mapping's headers (ProgramHeadersForMapping); pass 1,
     * when there are several: the one holding addr's file offset
     * (HeaderForFileOffset) */
    for (size_t i = 0; i < e->nph; i++) {
      const elf_ph *p = &e->ph[i];
      if (p->type != PT_LOAD_) continue;
      nload += !pass;
      if (p->filesz == 0) continue;
      uint64_t seg_lim = p->off + p->memsz;
      if (!(map_off < seg_lim && p->off < map_lim)) continue;
      uint64_t aligned = p->off > (p->vaddr & (PAGE - 1)) ? p->off - (p->vaddr & (PAGE - 1)) : 0;
      if (map_off < aligned) continue;
      if (map_off > p->off && seg_lim < map_off + PAGE && map_lim >= seg_lim + PAGE) continue;
      if (!pass) {
        nmatch++;
        match = p;
      } else if (fo >= p->off && fo - p->off < p->memsz) {
        if (*out) {
          snprintf(why, whylen, "found a second program header that matches file offset %" PRIx64, fo);
          return -1;
        }
        *out = p;
      }
    }
    if (!pass && !nload) return 0;
    if (!pass && nmatch == 0) {
      snprintf(why, whylen, "no program header matches mapping info");
      return -1;
    }
    if (!pass && nmatch == 1) {
      *out = match;
      return 0;
    }
  }
  if (!*out) {
    snprintf(why, whylen, "no program header matches file offset %" PRIx64, fo);
    return -1;
  }
  return 0;
}

/* ----------------------------------------------------------- the tool */

/* path of NAME in $PATH's directories, or NULL (malloc) */
static char *on_path(const char *name) {
  const char *path = getenv("PATH");
  if (!path) path = "/usr/bin:/bin";
  for (const char *p = path;;) {
    const char *e = strchr(p, ':');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    char *c = malloc(n + strlen(name) + 3);
    if (!c) return NULL;
    snprintf(c, n + strlen(name) + 3, "%.*s/%s", (int)n, n ? p : ".", name);
    struct stat st;
    if (!stat(c, &st) && S_ISREG(st.st_mode) && !access(c, X_OK)) return c;
    free(c);
    if (!e) return NULL;
    p = e + 1;
  }
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* A run's reader of the tool's output, a line at a time (rd_line). */
typedef struct rd_ctx rd_ctx;
static int rd_line(rd_ctx *r, char *line);
static void rd_abort(rd_ctx *r);

/* Runs argv with stdin from fd in and hands its stdout to rd_line a line
 * at a time (NUL-terminated, writable), as it comes, until the session's
 * deadline; a line longer than PCOL_SYM_MAX_LINE, or rd_line's -2 (a
 * bound, why set), stops the tool.  0; -1 with why (a warning); -2: out
 * of memory. */
static int run_tool(pcol_sym *s, char *const *argv, int in, rd_ctx *rc_, char *why, size_t whylen) {
  int pfd[2];
  if (pipe(pfd)) {
    snprintf(why, whylen, "pipe: %s", strerror(errno));
    return -1;
  }
  (void)fcntl(pfd[0], F_SETFD, FD_CLOEXEC);
  (void)fcntl(pfd[1], F_SETFD, FD_CLOEXEC);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in, 0);
  posix_spawn_file_actions_adddup2(&fa, pfd[1], 1);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid;
  int sr = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(pfd[1]);
  if (sr) {
    close(pfd[0]);
    snprintf(why, whylen, "cannot start %s: %s", argv[0], strerror(sr));
    return -1;
  }
  /* a window of the output: lines are handed over from its start, the
   * rest moved down; it grows to hold one line of at most the cap */
  size_t n = 0, c = 1 << 16;
  char *b = malloc(c + 1);
  int rc = b ? 0 : -2;
  while (!rc) {
    double left = s->deadline - now_s();
    if (left <= 0) {
      snprintf(why, whylen, "%s took more than %.0f s (PCOL_SYMBOLIZE_TIMEOUT, for all runs)",
               argv[0], s->secs);
      s->timed_out = true;
      rc = -1;
      break;
    }
    struct pollfd p = {pfd[0], POLLIN, 0};
    int k = poll(&p, 1, left > 1000 ? 1000000 : (int)(left * 1000) + 1);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) continue;
    if (n == c) {
      if (c > PCOL_SYM_MAX_LINE) {
        snprintf(why, whylen, "%s wrote a line longer than %zu bytes", argv[0], PCOL_SYM_MAX_LINE);
        rc = -1;
        break;
      }
      char *nb = realloc(b, 2 * c + 1);
      if (!nb) {
        rc = -2;
        break;
      }
      b = nb;
      c *= 2;
    }
    ssize_t r = read(pfd[0], b + n, c - n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) {
      if (n) { /* a last line without its newline */
        b[n] = 0;
        rc = rd_line(rc_, b);
      }
      break;
    }
    size_t from = 0, end = n + (size_t)r;
    for (size_t i = n; i < end && !rc; i++) {
      if (b[i] != '\n') continue;
      b[i] = 0;
      rc = rd_line(rc_, b + from);
      from = i + 1;
    }
    memmove(b, b + from, end - from);
    n = end - from;
  }
  if (rc == -2 && !*why) snprintf(why, whylen, "out of memory");
  if (rc) rd_abort(rc_); /* stopped before its end */
  close(pfd[0]);
  free(b);
  /* its end, within what is left of the time (a tool may close its output
   * and still hang) */
  int status = 0;
  while (!rc) {
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) {
      snprintf(why, whylen, "waitpid: %s", strerror(errno));
      rc = -1;
    } else if (now_s() >= s->deadline) {
      snprintf(why, whylen, "%s took more than %.0f s (PCOL_SYMBOLIZE_TIMEOUT, for all runs)",
               argv[0], s->secs);
      s->timed_out = true;
      rc = -1;
    } else {
      struct timespec ts = {0, 10 * 1000 * 1000};
      nanosleep(&ts, NULL);
    }
  }
  if (rc) {
    kill(pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    return rc;
  }
  if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
    snprintf(why, whylen, "%s failed (%s %d)", argv[0], WIFEXITED(status) ? "exit" : "signal",
             WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    return -1;
  }
  return 0;
}

/* ------------------------------------------------------ reading frames */

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

/* what pprof shows for the system name sys[0..n) (demangle.c), NUL-
 * terminated: in stack (PCOL_DEMANGLE_MAX_OUT bytes) or in *heap (to
 * free); NULL when out of memory */
static const char *shown(const char *sys, size_t n, char *stack, char **heap, size_t *len) {
  size_t cap = n < PCOL_DEMANGLE_MAX_OUT ? PCOL_DEMANGLE_MAX_OUT : n + 1;
  char *out = cap == PCOL_DEMANGLE_MAX_OUT ? stack : (*heap = malloc(cap));
  if (out) *len = pcol_demangle_pprof(sys, n, out, cap);
  return out;
}

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
  fr.name = fr.system_name;
  char stack[PCOL_DEMANGLE_MAX_OUT], *heap = NULL;
  size_t fn_ = strlen(func), n_;
  const char *nm_ = shown(func, fn_, stack, &heap, &n_);
  if (!nm_) return -2;
  if (n_ != fn_ || memcmp(nm_, func, fn_)) rc = intern(r, nm_, &fr.name);
  free(heap);
  if (rc) return rc;
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
static void rd_abort(rd_ctx *r) {
  if (r->cur == SIZE_MAX) return;
  size_t li = r->loc[r->cur];
  if (r->d->loc_n[li]) r->d->lines.len = r->d->loc_first[li] * sizeof(pcol_line_row);
  r->d->loc_n[li] = 0;
}

/* The tool's output: per address, its "0x..." line, then (function,
 * file:line) pairs; llvm-symbolizer ends each with an empty line.
 * 0; -2 out of memory (err set); -2 too with why for the bytes' bound. */
static int rd_line(rd_ctx *r, char *line) {
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

static char *join(const char *a, const char *b, const char *c) {
  size_t n = strlen(a) + strlen(b) + strlen(c) + 3;
  char *p = malloc(n);
  if (!p) return NULL;
  const char *sep1 = *a && a[strlen(a) - 1] != '/' && *b != '/' ? "/" : "";
  const char *sep2 = *c && *b && b[strlen(b) - 1] != '/' && *c != '/' ? "/" : "";
  snprintf(p, n, "%s%s%s%s%s", a, sep1, b, sep2, c);
  return p;
}

typedef struct names {
  char **v;
  size_t n, cap;
} names;

static int name_add(names *l, char *p) {
  if (!p) return -1;
  if (l->n == l->cap) {
    size_t c = l->cap ? 2 * l->cap : 16;
    char **v = realloc(l->v, c * sizeof *v);
    if (!v) {
      free(p);
      return -1;
    }
    l->v = v;
    l->cap = c;
  }
  l->v[l->n++] = p;
  return 0;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the files of DIR/ID, sorted (Go's filepath.Glob: dot files too) */
static int dir_entries(names *l, const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  size_t first = l->n;
  struct dirent *e;
  int rc = 0;
  while (!rc && (e = readdir(d)) && l->n - first < 4096)
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
      rc = name_add(l, join(dir, e->d_name, ""));
  closedir(d);
  qsort(l->v + first, l->n - first, sizeof *l->v, by_name);
  return rc;
}

/* the candidates of one search directory, in pprof's order */
static int candidates(names *l, const char *dir, const pcol_sym_mapping *m) {
  const char *file = m->file, *id = m->build_id;
  const char *slash = strrchr(file, '/');
  const char *base = slash ? slash + 1 : file;
  char *dname = *file ? strdup(file) : NULL;
  if (*file && !dname) return -1;
  if (dname) { /* filepath.Dir */
    char *s2 = strrchr(dname, '/');
    if (!s2) strcpy(dname, ".");
    else if (s2 == dname) dname[1] = 0;
    else *s2 = 0;
  }
  int rc = 0;
  if (*id) {
    char *d = join(dir, id, "");
    rc = name_add(l, join(dir, id, base)) || !d || dir_entries(l, d) || name_add(l, join(dir, file, id));
    free(d);
    if (!rc && strlen(id) >= 2) {
      char two[3] = {id[0], id[1], 0};
      char *rest = malloc(strlen(id) + 5);
      if (rest) snprintf(rest, strlen(id) + 5, "%s.debug", id + 2);
      rc = !rest || name_add(l, join(dir, two, rest));
      free(rest);
    }
  }
  if (!rc && *file) {
    char *dbg = malloc(strlen(base) + 7);
    char *fdbg = malloc(strlen(file) + 7);
    if (dbg) snprintf(dbg, strlen(base) + 7, "%s.debug", base);
    if (fdbg) snprintf(fdbg, strlen(file) + 7, "%s.debug", file);
    char *dd = dname ? join(dname, ".debug", "") : NULL;
    char *ud = dname ? join("usr/lib/debug", dname, "") : NULL;
    rc = !dbg || !fdbg || !dd || !ud || name_add(l, join(dir, base, "")) ||
         name_add(l, join(dir, file, "")) || name_add(l, join(dir, fdbg, "")) ||
         name_add(l, join(dir, dd, dbg)) || name_add(l, join(dir, ud, dbg));
    free(dbg);
    free(fdbg);
    free(dd);
    free(ud);
  }
  free(dname);
  return rc;
}

/* pprof's Open: the file exists, is ELF and a base can be had for m */
static int open_ok(const char *path, const pcol_sym_mapping *m, elf_info *e, char *why,
                   size_t whylen) {
  if (elf_read(path, e, why, whylen)) return -1;
  uint64_t base;
  char w2[256];
  if (get_base(e->type, e->text >= 0 ? &e->ph[e->text] : NULL, m->start, m->limit, m->offset,
               &base, w2, sizeof w2)) {
    snprintf(why, whylen, "error reading ELF file %s: could not identify base for %s: %s", path,
             path, w2);
    free(e->ph);
    e->ph = NULL;
    return -1;
  }
  return 0;
}

/* locateBinaries, then the mapping's own file: the binary to read, in
 * *found (malloc), and its headers in *e; -1 after a warning, -2 out of
 * memory */
static int locate(pcol_sym *s, const pcol_sym_mapping *m, const char *shown, elf_info *e,
                  char **found_out) {
  *found_out = NULL;
  char why[1024];
  names l = {0};
  int found = 0, rc = 0;
  for (const char *p = s->search; !found && !rc;) {
    const char *c = strchr(p, ':');
    size_t n = c ? (size_t)(c - p) : strlen(p);
    char *dir = strndup(p, n);
    l.n = 0;
    rc = !dir || candidates(&l, dir, m);
    for (size_t i = 0; !rc && !found && i < l.n; i++) {
      if (open_ok(l.v[i], m, e, why, sizeof why)) continue;
      if (*m->build_id && strcmp(m->build_id, e->build_id)) {
        warn(s, "Ignoring local file %s: build-id mismatch (%s != %s)", l.v[i], m->build_id,
             e->build_id);
        free(e->ph);
        e->ph = NULL;
        continue;
      }
      found = 1;
      *found_out = l.v[i];
      l.v[i] = NULL;
    }
    for (size_t i = 0; i < l.n; i++) free(l.v[i]);
    free(dir);
    if (!c) break;
    p = c + 1;
  }
  free(l.v);
  if (rc) return -2;
  if (found) return 0;
  if (open_ok(m->file, m, e, why, sizeof why)) {
    warn(s, "Local symbolization failed for %s: %s", shown, why);
    s->missing = true;
    return -1;
  }
  if (*m->build_id && e->build_id[0] && strcmp(m->build_id, e->build_id)) {
    warn(s, "Local symbolization failed for %s: build ID mismatch", shown);
    free(e->ph);
    e->ph = NULL;
    return -1;
  }
  *found_out = strdup(m->file);
  return *found_out ? 0 : -2;
}

/* -------------------------------------------------------------- the API */

int pcol_sym_init(pcol_sym *s, const pcol_symbolize_options *opt) {
  memset(s, 0, sizeof *s);
  if (!opt || opt->mode != PCOL_SYMBOLIZE_LOCAL) return 0;
  s->on = true;
  const char *bp = opt->binary_path;
  if (!bp) bp = getenv("PPROF_BINARY_PATH");
  if (bp && *bp) {
    s->search = strdup(bp);
  } else {
    const char *home = getenv("HOME");
    s->search = join(home ? home : "", "pprof/binaries", "");
  }
  s->secs = PCOL_SYM_TIMEOUT_S;
  const char *t = getenv("PCOL_SYMBOLIZE_TIMEOUT");
  if (t && *t && atof(t) > 0) s->secs = atof(t);
  s->deadline = now_s() + s->secs;
  s->addrs_left = PCOL_SYM_MAX_ADDRS;
  s->bytes_left = PCOL_SYM_MAX_BYTES;
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
  if (strlen(m->file) != m->file_len) {
    warn(s, "Local symbolization failed for %s: the file name holds a NUL byte", shown);
    free(shown);
    return 0;
  }
  elf_info e = {0};
  int rc = locate(s, m, shown, &e, &found);
  if (rc) {
    free(shown);
    return rc == -2 ? -2 : 0;
  }
  /* pprof's locateBinaries names the mapping by the binary it found */
  if (strcmp(found, m->file) && pcol_b_string(b, found, strlen(found), &d->map_file[mi], err))
    rc = -2;
  uint64_t first = loc_addr[order[a]], base = 0;
  const elf_ph *ph = NULL;
  if (rc) {
  } else if (first < m->start || first >= m->limit) {
    snprintf(why, sizeof why, "address %" PRIx64 " is outside the mapping", first);
    rc = -1;
  } else if (find_ph(&e, m, first, &ph, why, sizeof why) ||
             get_base(e.type, ph, m->start, m->limit, m->offset, &base, why, sizeof why)) {
    rc = -1;
  }
  free(e.ph);
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
    warn(s, "only the first 4194304 addresses of the input were symbolized");
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
  if (s->timed_out) {
    char secs[32];
    snprintf(secs, sizeof secs, "%.0f", s->secs);
    warn(s, "Local symbolization failed for %s: not run, the %s s of PCOL_SYMBOLIZE_TIMEOUT were spent",
         g->shown, secs);
    return 0;
  }
  if (s->cut_bytes) {
    warn(s, "Local symbolization failed for %s: not run, the names and frames had passed the bound",
         g->shown);
    return 0;
  }
  if (!s->looked) {
    s->looked = 1;
    s->llvm = 1;
    if (!(s->tool = on_path("llvm-symbolizer"))) {
      s->llvm = 0;
      s->tool = on_path("addr2line");
    }
  }
  if (!s->tool) {
    warn(s, "Local symbolization failed for %s: neither llvm-symbolizer nor addr2line is on PATH",
         g->shown);
    return 0;
  }
  const uint64_t *asked = (const uint64_t *)(const void *)g->asked.data;
  int fd = pcol_temp_fd("pcol-sym");
  FILE *tf = fd >= 0 ? fdopen(dup(fd), "w") : NULL;
  if (!tf) {
    warn(s, "Local symbolization failed for %s: cannot make a temporary file", g->shown);
    if (fd >= 0) close(fd);
    return 0;
  }
  for (size_t i = 0; i < n; i++) fprintf(tf, "0x%" PRIx64 "\n", asked[i]);
  if (fclose(tf) || lseek(fd, 0, SEEK_SET) != 0) {
    warn(s, "Local symbolization failed for %s: cannot write a temporary file", g->shown);
    close(fd);
    return 0;
  }
  size_t ol = strlen(g->path) + 8;
  char *obj = malloc(ol);
  if (!obj) {
    close(fd);
    return pcol_error_set(err, PCOL_ENOMEM, "symbolization: out of memory"), -2;
  }
  snprintf(obj, ol, "--obj=%s", g->path);
  char *llvm_argv[] = {s->tool, "--inlining", "-demangle=false", "--addresses", obj, NULL};
  char *a2l_argv[] = {s->tool, "-a", "-i", "-f", "-e", g->path, NULL};
  rd_ctx r = {s, b, d, s->llvm, asked, (const uint32_t *)(const void *)g->loc.data,
              (const uint32_t *)(const void *)g->map.data, n, SIZE_MAX, 0, NULL, err,
              why, sizeof why};
  int rc = run_tool(s, s->llvm ? llvm_argv : a2l_argv, fd, &r, why, sizeof why);
  free(r.pend);
  free(obj);
  close(fd);
  if (rc == -1) warn(s, "Local symbolization failed for %s: %s", g->shown, why);
  if (rc == -2 && err->code == PCOL_OK) pcol_error_set(err, PCOL_ENOMEM, "symbolization: out of memory");
  return rc == -2 ? -2 : 0;
}

void pcol_sym_warnings(pcol_sym *s, const char *name, pcol_error *err) {
  if (s->missing)
    warn(s, "Some binary filenames not available. Symbolization may be incomplete. Try "
            "--binary-path DIRS or PPROF_BINARY_PATH, the search path for local binaries.");
  if (!s->warn.len || pcol_buf_append(&s->warn, "", 1)) return;
  /* the first k warnings that fit in a message, and how many did not (the
   * first k end where warning k + 1 starts, warn_at[k]) */
  size_t room = sizeof err->message - strlen(name) - 48, k = s->nwarn;
  size_t cap = sizeof s->warn_at / sizeof *s->warn_at;
  if (s->warn.len > room && s->nwarn > 1) {
    k = 1;
    while (k + 1 < s->nwarn && k + 1 < cap && s->warn_at[k + 1] <= room) k++;
    s->warn.data[s->warn_at[k]] = 0;
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

int pcol_sym_demangle(pcol_builder *b, const char *name, size_t nlen, const char *sys, size_t slen,
                      uint32_t *name_id, pcol_error *err) {
  if (nlen && (nlen != slen || memcmp(name, sys, slen))) return PCOL_OK; /* demangled already */
  char stack[PCOL_DEMANGLE_MAX_OUT], *heap = NULL;
  size_t n;
  const char *out = shown(sys, slen, stack, &heap, &n);
  if (!out) return oom(err);
  int rc = PCOL_OK;
  if (n != nlen || memcmp(out, name, n)) rc = pcol_b_string(b, out, n, name_id, err);
  free(heap);
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
  for (size_t mi = 1; !rc && mi <= nm; mi++) {
    size_t a = start[mi], z = start[mi + 1];
    if (a == z || !wanted(s, &in->maps[mi - 1])) continue; /* no location uses it */
    rc = add_mapping(s, &gs, b, &in->maps[mi - 1], (uint32_t)(mi - 1), order, a, z, in->loc_addr,
                     d, err);
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
  free(s->search);
  free(s->tool);
  pcol_buf_free(&s->warn);
  memset(s, 0, sizeof *s);
}
