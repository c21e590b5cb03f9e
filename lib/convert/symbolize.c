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
 *    addr2line (-a -i -f -e FILE); names are kept mangled, as the tools
 *    give them (pprof demangles them afterwards: pcol does not).
 *
 * The tool is started with posix_spawn, no shell: the binary's path is one
 * argument (--obj=PATH, -e PATH, so "-x" is no option), the addresses go in
 * through an unlinked temporary file, the output is read through a pipe
 * with poll() under a deadline and a byte cap; past either the tool is
 * killed.  The binary's ELF headers are read with bounds checks. */
#include "symbolize.h"
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

/* Runs argv with stdin from fd in and reads its stdout whole into *out
 * (NUL-terminated), at most cap bytes, within secs.  0, or -1 with why. */
static int run_tool(char *const *argv, int in, size_t cap, double secs, char **out, size_t *len,
                    char *why, size_t whylen) {
  *out = NULL;
  *len = 0;
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
  size_t n = 0, c = 1 << 16;
  char *b = malloc(c + 1);
  int rc = b ? 0 : -1;
  if (!b) snprintf(why, whylen, "out of memory");
  double end = now_s() + secs;
  while (!rc) {
    double left = end - now_s();
    if (left <= 0) {
      snprintf(why, whylen, "%s took more than %.0f s (PCOL_SYMBOLIZE_TIMEOUT)", argv[0], secs);
      rc = -1;
      break;
    }
    struct pollfd p = {pfd[0], POLLIN, 0};
    int k = poll(&p, 1, left > 1000 ? 1000000 : (int)(left * 1000) + 1);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) continue;
    if (n == c) {
      if (c >= cap) {
        snprintf(why, whylen, "%s wrote more than %zu bytes", argv[0], cap);
        rc = -1;
        break;
      }
      size_t nc = c * 2 < cap ? c * 2 : cap;
      char *nb = realloc(b, nc + 1);
      if (!nb) {
        snprintf(why, whylen, "out of memory");
        rc = -1;
        break;
      }
      b = nb;
      c = nc;
    }
    ssize_t r = read(pfd[0], b + n, c - n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    n += (size_t)r;
  }
  close(pfd[0]);
  /* its end, within what is left of the time (a tool may close its output
   * and still hang) */
  int status = 0;
  while (!rc) {
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) {
      snprintf(why, whylen, "waitpid: %s", strerror(errno));
      rc = -1;
    } else if (now_s() >= end) {
      snprintf(why, whylen, "%s took more than %.0f s (PCOL_SYMBOLIZE_TIMEOUT)", argv[0], secs);
      rc = -1;
    } else {
      struct timespec ts = {0, 10 * 1000 * 1000};
      nanosleep(&ts, NULL);
    }
  }
  if (rc) {
    kill(pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  }
  if (!rc && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
    snprintf(why, whylen, "%s failed (%s %d)", argv[0], WIFEXITED(status) ? "exit" : "signal",
             WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    rc = -1;
  }
  if (rc) {
    free(b);
    return -1;
  }
  b[n] = 0;
  *out = b;
  *len = n;
  return 0;
}

/* ------------------------------------------------------ parsing frames */

static int add_frame(pcol_sym *s, const char *func, const char *file, int64_t line) {
  if (s->nframes == s->capframes) {
    size_t c = s->capframes ? 2 * s->capframes : 64;
    pcol_sym_frame *f = realloc(s->frames, c * sizeof *f);
    if (!f) return -1;
    s->frames = f;
    s->capframes = c;
  }
  s->frames[s->nframes++] = (pcol_sym_frame){func, file, line};
  return 0;
}

/* one frame's two lines, as pprof's readFrame of each tool reads them;
 * a frame without anything is no frame */
static int frame(pcol_sym *s, int llvm, char *func, char *fl) {
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
  return add_frame(s, func, fl, line);
}

/* The tool's output: per address, its "0x..." line, then (function,
 * file:line) pairs; llvm-symbolizer ends each with an empty line. */
static int parse(pcol_sym *s, int llvm, char *out, const uint64_t *asked, size_t n) {
  size_t cur = SIZE_MAX, next = 0;
  char *pend = NULL; /* a function line waiting for its file line */
  for (char *p = out; *p;) {
    char *e = strchr(p, '\n');
    if (e) *e = 0;
    char *line = p;
    p = e ? e + 1 : p + strlen(p);
    if (!pend && next < n && line[0] == '0' && line[1] == 'x') {
      char *x;
      errno = 0;
      unsigned long long v = strtoull(line + 2, &x, 16);
      if (!*x && !errno && v == asked[next]) {
        cur = next++;
        s->first[cur] = s->nframes;
        continue;
      }
    }
    if (cur == SIZE_MAX) continue;
    if (!pend) {
      if (llvm && !*line) continue; /* the end of a record */
      pend = line;
      continue;
    }
    if (frame(s, llvm, pend, line)) return -1;
    pend = NULL;
    s->count[cur] = s->nframes - s->first[cur];
  }
  return 0;
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
 * s->found, and its headers in *e; -1 after a warning */
static int locate(pcol_sym *s, const pcol_sym_mapping *m, const char *shown, elf_info *e) {
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
      s->found = l.v[i];
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
  s->found = strdup(m->file);
  return s->found ? 0 : -2;
}

/* -------------------------------------------------------------- the API */

int pcol_sym_init(pcol_sym *s, const pcol_symbolize_options *opt) {
  memset(s, 0, sizeof *s);
  if (!opt || opt->mode != PCOL_SYMBOLIZE_LOCAL) return 0;
  const char *bp = opt->binary_path;
  if (!bp) bp = getenv("PPROF_BINARY_PATH");
  if (bp && *bp) {
    s->search = strdup(bp);
  } else {
    const char *home = getenv("HOME");
    s->search = join(home ? home : "", "pprof/binaries", "");
  }
  return s->search ? 0 : PCOL_ENOMEM;
}

int pcol_sym_wanted(pcol_sym *s, const pcol_sym_mapping *m) {
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

int pcol_sym_run(pcol_sym *s, const pcol_sym_mapping *m, const uint64_t *addrs, size_t n,
                 pcol_error *err) {
  free(s->out);
  free(s->found);
  s->out = s->found = NULL;
  s->nframes = 0;
  if (n > s->cap) {
    free(s->first);
    free(s->count);
    s->first = malloc(n * sizeof *s->first);
    s->count = malloc(n * sizeof *s->count);
    s->cap = s->first && s->count ? n : 0;
    if (!s->cap) return pcol_error_set(err, PCOL_ENOMEM, "symbolization: out of memory");
  }
  memset(s->count, 0, n * sizeof *s->count);
  /* pprof's name for the mapping: its base name and build id */
  const char *sl = strrchr(m->file, '/');
  const char *bn = sl && sl[1] ? sl + 1 : m->file;
  size_t sn = strlen(bn) + strlen(m->build_id) + 16;
  char *shown = malloc(sn);
  if (!shown) return pcol_error_set(err, PCOL_ENOMEM, "symbolization: out of memory");
  snprintf(shown, sn, *m->build_id ? "%s (build ID %s)" : "%s", bn, m->build_id);
  if (strlen(m->file) != m->file_len) {
    warn(s, "Local symbolization failed for %s: the file name holds a NUL byte", shown);
    free(shown);
    return 0;
  }
  elf_info e = {0};
  int lr = locate(s, m, shown, &e);
  if (lr) {
    free(shown);
    return lr == -2 ? pcol_error_set(err, PCOL_ENOMEM, "symbolization: out of memory") : 0;
  }
  char why[1024];
  const elf_ph *ph = NULL;
  uint64_t base = 0;
  int rc = 0, fd = -1;
  char *tool = NULL, *out = NULL, *obj = NULL;
  size_t len = 0;
  if (addrs[0] < m->start || addrs[0] >= m->limit) {
    snprintf(why, sizeof why, "address %" PRIx64 " is outside the mapping", addrs[0]);
    goto fail;
  }
  if (find_ph(&e, m, addrs[0], &ph, why, sizeof why) ||
      get_base(e.type, ph, m->start, m->limit, m->offset, &base, why, sizeof why))
    goto fail;
  int llvm = 1;
  if (!(tool = on_path("llvm-symbolizer"))) {
    llvm = 0;
    if (!(tool = on_path("addr2line"))) {
      snprintf(why, sizeof why, "neither llvm-symbolizer nor addr2line is on PATH");
      goto fail;
    }
  }
  size_t k = n < PCOL_SYM_MAX_ADDRS ? n : PCOL_SYM_MAX_ADDRS;
  if (k < n)
    warn(s, "%s: only the first 4194304 addresses were symbolized", shown);
  fd = pcol_temp_fd("pcol-sym");
  FILE *tf = fd >= 0 ? fdopen(dup(fd), "w") : NULL;
  if (!tf) {
    snprintf(why, sizeof why, "cannot make a temporary file: %s", strerror(errno));
    goto fail;
  }
  for (size_t i = 0; i < k; i++) fprintf(tf, "0x%" PRIx64 "\n", addrs[i] - base);
  if (fclose(tf) || lseek(fd, 0, SEEK_SET) != 0) {
    snprintf(why, sizeof why, "cannot write a temporary file");
    goto fail;
  }
  uint64_t *asked = malloc(k * sizeof *asked);
  if (!asked) {
    rc = pcol_error_set(err, PCOL_ENOMEM, "symbolization: out of memory");
    goto done;
  }
  for (size_t i = 0; i < k; i++) asked[i] = addrs[i] - base;
  obj = malloc(strlen(s->found) + 8);
  if (obj) snprintf(obj, strlen(s->found) + 8, "--obj=%s", s->found);
  char *llvm_argv[] = {tool, "--inlining", "-demangle=false", "--addresses",
                       obj, NULL};
  char *a2l_argv[] = {tool, "-a", "-i", "-f", "-e", s->found, NULL};
  double secs = PCOL_SYM_TIMEOUT_S;
  const char *t = getenv("PCOL_SYMBOLIZE_TIMEOUT");
  if (t && *t && atof(t) > 0) secs = atof(t);
  size_t cap = k > ((size_t)1 << 40) / PCOL_SYM_OUT_PER_ADDR ? (size_t)1 << 40
                                                              : k * PCOL_SYM_OUT_PER_ADDR + (1u << 20);
  if (!obj) {
    free(asked);
    rc = pcol_error_set(err, PCOL_ENOMEM, "symbolization: out of memory");
    goto done;
  }
  if (run_tool(llvm ? llvm_argv : a2l_argv, fd, cap, secs, &out, &len, why, sizeof why)) {
    free(asked);
    goto fail;
  }
  s->out = out;
  if (parse(s, llvm, out, asked, k)) rc = pcol_error_set(err, PCOL_ENOMEM, "symbolization: out of memory");
  free(asked);
  goto done;
fail:
  warn(s, "Local symbolization failed for %s: %s", shown, why);
done:
  if (fd >= 0) close(fd);
  free(obj);
  free(tool);
  free(e.ph);
  free(shown);
  return rc;
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

/* each mapping's locations, in the profile's order, symbolized as pprof's
 * doLocalSymbolize does (its first location decides the ELF segment) */
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

static int locations(pcol_builder *b, const pcol_symbolize_options *opt, const char *name,
                     const pcol_sym_input *in, pcol_sym_table *d, pcol_error *err);

int pcol_sym_locations(pcol_builder *b, const pcol_symbolize_options *opt, const char *name,
                       pcol_sym_input *in, pcol_sym_table *d, pcol_error *err) {
  memset(d, 0, sizeof *d);
  int rc = PCOL_OK;
  for (size_t i = 0; i < in->nm && !rc; i++)
    if (!in->maps[i].file || !in->maps[i].build_id) rc = oom(err);
  if (!rc) rc = locations(b, opt, name, in, d, err);
  input_free(in);
  return rc;
}

static int locations(pcol_builder *b, const pcol_symbolize_options *opt, const char *name,
                     const pcol_sym_input *in, pcol_sym_table *d, pcol_error *err) {
  const pcol_sym_mapping *maps = in->maps;
  const uint32_t *loc_map = in->loc_map;
  const uint64_t *loc_addr = in->loc_addr;
  size_t nm = in->nm, nl = in->nl;
  pcol_sym s;
  if (pcol_sym_init(&s, opt)) return oom(err);
  d->loc_first = calloc(nl + 1, sizeof *d->loc_first);
  d->loc_n = calloc(nl + 1, sizeof *d->loc_n);
  d->map_flags = calloc(nm + 1, sizeof *d->map_flags);
  d->map_file = calloc(nm + 1, sizeof *d->map_file);
  /* the locations of each mapping (1-based; 0: none), a counting sort */
  size_t *start = calloc(nm + 2, sizeof *start), *order = malloc((nl + 1) * sizeof *order);
  uint64_t *addrs = malloc((nl + 1) * sizeof *addrs);
  int rc = d->loc_first && d->loc_n && d->map_flags && d->map_file && start && order && addrs
               ? PCOL_OK
               : oom(err);
  for (size_t i = 0; !rc && i < nl; i++) start[loc_map[i] <= nm ? loc_map[i] : 0]++;
  for (size_t i = 1; !rc && i <= nm + 1; i++) start[i] += start[i - 1];
  for (size_t i = nl; !rc && i-- > 0;) order[--start[loc_map[i] <= nm ? loc_map[i] : 0]] = i;
  for (size_t mi = 1; !rc && mi <= nm; mi++) {
    size_t a = start[mi], z = start[mi + 1];
    if (a == z) continue; /* no location uses it */
    const pcol_sym_mapping *m = &maps[mi - 1];
    if (!pcol_sym_wanted(&s, m)) continue;
    for (size_t k = a; k < z; k++) addrs[k - a] = loc_addr[order[k]];
    rc = pcol_sym_run(&s, m, addrs, z - a, err);
    uint8_t fl = 0;
    for (size_t k = a; !rc && k < z; k++) {
      size_t n = s.count[k - a], li = order[k];
      if (!n) continue;
      d->loc_first[li] = d->lines.len / sizeof(pcol_line_row);
      d->loc_n[li] = n;
      fl |= PCOL_MAP_HAS_INLINE_FRAMES;
      for (size_t j = 0; !rc && j < n; j++) {
        const pcol_sym_frame *f = &s.frames[s.first[k - a] + j];
        pcol_function_row fr = {0, 0, 0, 0};
        pcol_line_row lr = {0, f->line, 0};
        fl |= (*f->func ? PCOL_MAP_HAS_FUNCTIONS : 0) | (*f->file ? PCOL_MAP_HAS_FILENAMES : 0) |
              (f->line ? PCOL_MAP_HAS_LINE_NUMBERS : 0);
        /* pprof's Function{Name, SystemName: the tool's name, Filename} */
        if (!(rc = pcol_b_string(b, f->func, strlen(f->func), &fr.name, err)) &&
            !(rc = pcol_b_string(b, f->file, strlen(f->file), &fr.filename, err))) {
          fr.system_name = fr.name;
          rc = pcol_b_function(b, &fr, &lr.function_id, err);
        }
        if (!rc && pcol_buf_append(&d->lines, &lr, sizeof lr)) rc = oom(err);
      }
    }
    d->map_flags[mi - 1] = fl;
    /* pprof's locateBinaries names the mapping by the binary it found */
    if (!rc && s.found && strcmp(s.found, m->file))
      rc = pcol_b_string(b, s.found, strlen(s.found), &d->map_file[mi - 1], err);
  }
  if (!rc) pcol_sym_warnings(&s, name, err);
  pcol_sym_free(&s);
  free(start);
  free(order);
  free(addrs);
  return rc;
}

void pcol_sym_free(pcol_sym *s) {
  free(s->search);
  pcol_buf_free(&s->warn);
  free(s->out);
  free(s->frames);
  free(s->first);
  free(s->count);
  free(s->found);
  memset(s, 0, sizeof *s);
}
