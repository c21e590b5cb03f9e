/* binfile.c — a profile's binaries and the tools run on them (binfile.h).
 * The rules are google/pprof's (internal/driver locateBinaries,
 * internal/binutils, internal/elfexec GetBase, as of Go 1.19's copy and
 * upstream).  A tool is started with posix_spawn, no shell: the binary's
 * path is one argument, its output is read through a pipe with poll(), a
 * line at a time, within the job's deadline; past it the tool is killed. */
#include "binfile.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* ------------------------------------------------------------- escaping */

/* Appends s[0..n) with control bytes and '\\' escaped (\xNN): names from a
 * profile go into one line of text. */
void pcol_bin_put_esc(pcol_buf *w, const char *s, size_t n) {
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

/* the bytes of the white space (Go's unicode.IsSpace, UTF-8) that s[0..n)
 * starts with (end 0) or ends with (end 1), 0 when none */
static size_t go_space(const unsigned char *s, size_t n, int end) {
  if (!n) return 0;
  unsigned char c = end ? s[n - 1] : s[0];
  if (c == ' ' || (c >= '\t' && c <= '\r')) return 1;
  const unsigned char *p = end && n >= 2 ? s + n - 2 : s;
  if (n >= 2 && p[0] == 0xC2 && (p[1] == 0x85 || p[1] == 0xA0)) return 2;
  p = end && n >= 3 ? s + n - 3 : s;
  if (n < 3 || (p[0] & 0xF0) != 0xE0 || (p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80) return 0;
  unsigned u = (unsigned)(p[0] & 0x0F) << 12 | (unsigned)(p[1] & 0x3F) << 6 | (p[2] & 0x3F);
  return u == 0x1680 || (u >= 0x2000 && u <= 0x200A) || u == 0x2028 || u == 0x2029 ||
                 u == 0x202F || u == 0x205F || u == 0x3000
             ? 3
             : 0;
}

char *pcol_bin_trim_space(char *s) {
  size_t n = strlen(s), k;
  while ((k = go_space((unsigned char *)s, n, 0))) s += k, n -= k;
  while ((k = go_space((unsigned char *)s, n, 1))) n -= k;
  s[n] = 0;
  return s;
}

/* ----------------------------------------------------------- ELF files */


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

#define SHSTR_CAP ((size_t)1 << 20)

/* The build id in the n bytes of notes at off, of which at most *left are
 * read (what is left of PCOL_ELF_NOTES_MAX, the file's notes together:
 * past it the build id is no longer looked for) */
static void read_notes(const elf_rd *r, uint64_t off, uint64_t n, uint64_t align, size_t *left,
                       char *hex) {
  size_t k = n < *left ? (size_t)n : *left;
  if (!k) return;
  *left -= k;
  uint8_t *nb = malloc(k);
  if (nb && !rd_at(r, off, nb, k)) find_build_id(r, nb, k, align, hex);
  free(nb);
}

/* ------------------------------------------------------ the files read */

/* the file of st in c: its info copied into *e (1), not there (0), or
 * out of memory (-1) */
static int cache_get(const pcol_elf_cache *c, const struct stat *st, pcol_elf_info *e) {
  for (size_t i = 0; c && i < c->n; i++) {
    const pcol_elf_cached *k = &c->v[i];
    if (k->e.dev != (uint64_t)st->st_dev || k->e.ino != (uint64_t)st->st_ino ||
        k->size != (uint64_t)st->st_size || k->mtime_s != (int64_t)st->st_mtim.tv_sec ||
        k->mtime_ns != (int64_t)st->st_mtim.tv_nsec || k->ctime_s != (int64_t)st->st_ctim.tv_sec ||
        k->ctime_ns != (int64_t)st->st_ctim.tv_nsec)
      continue;
    *e = k->e;
    e->ph = k->e.nph ? malloc(k->e.nph * sizeof *e->ph) : NULL;
    if (k->e.nph && !e->ph) return -1;
    if (e->ph) memcpy(e->ph, k->e.ph, k->e.nph * sizeof *e->ph);
    return 1;
  }
  return 0;
}

/* e, read from the file of st, into c (nothing when it is full or out of
 * memory: the file is read again when asked again) */
static void cache_put(pcol_elf_cache *c, const struct stat *st, const pcol_elf_info *e) {
  if (!c || e->nph > PCOL_ELF_CACHE_PH - c->nph) return;
  if (c->n == c->cap) {
    size_t cap = c->cap ? 2 * c->cap : 8;
    pcol_elf_cached *v = realloc(c->v, cap * sizeof *v);
    if (!v) return;
    c->v = v;
    c->cap = cap;
  }
  pcol_elf_cached *k = &c->v[c->n];
  k->e = *e;
  k->e.ph = e->nph ? malloc(e->nph * sizeof *e->ph) : NULL;
  if (e->nph && !k->e.ph) return;
  if (e->nph) memcpy(k->e.ph, e->ph, e->nph * sizeof *e->ph);
  k->size = (uint64_t)st->st_size;
  k->mtime_s = (int64_t)st->st_mtim.tv_sec;
  k->mtime_ns = (int64_t)st->st_mtim.tv_nsec;
  k->ctime_s = (int64_t)st->st_ctim.tv_sec;
  k->ctime_ns = (int64_t)st->st_ctim.tv_nsec;
  c->nph += e->nph;
  c->n++;
}

void pcol_elf_cache_free(pcol_elf_cache *c) {
  for (size_t i = 0; i < c->n; i++) free(c->v[i].e.ph);
  free(c->v);
  memset(c, 0, sizeof *c);
}

/* pcol_elf_read, the file read once in c (NULL: no cache) */
static int elf_read(const char *path, pcol_elf_cache *c, pcol_elf_info *e, char *why,
                    size_t whylen) {
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
  int hit = cache_get(c, &st, e);
  if (hit) {
    close(r.fd);
    if (hit > 0) return 0;
    memset(e, 0, sizeof *e);
    snprintf(why, whylen, "error reading ELF file %s: out of memory", path);
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
      pcol_elf_ph *q = &e->ph[e->nph++];
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
  size_t notes_left = PCOL_ELF_NOTES_MAX;
  for (size_t i = 0; !bad && !e->build_id[0] && notes_left && i < e->nph; i++)
    if (e->ph[i].type == PT_NOTE_)
      read_notes(&r, e->ph[i].off, e->ph[i].filesz, e->ph[i].align, &notes_left, e->build_id);
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
            const pcol_elf_ph *q = &e->ph[k];
            if (q->type == PT_LOAD_ && (q->flags & PF_X_) && addr >= q->vaddr &&
                addr - q->vaddr < q->memsz) {
              e->text = (int)k;
              break;
            }
          }
        }
        if (type == SHT_NOTE_ && !e->build_id[0])
          read_notes(&r, off, size, align, &notes_left, e->build_id);
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
  cache_put(c, &st, e);
  return 0;
}

int pcol_elf_read(const char *path, pcol_elf_info *e, char *why, size_t whylen) {
  return elf_read(path, NULL, e, why, whylen);
}

/* ------------------------------------------------------------ the base */

#define PAGE 4096u

/* elfexec.kernelBase without the _stext symbol */
static int kernel_base(const pcol_elf_ph *ph, uint64_t start, uint64_t limit, uint64_t offset,
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
int pcol_elf_base(int type, const pcol_elf_ph *ph, uint64_t start, uint64_t limit, uint64_t offset,
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
int pcol_elf_find_ph(const pcol_elf_info *e, const pcol_bin_map *m, uint64_t addr, const pcol_elf_ph **out,
                   char *why, size_t whylen) {
  *out = NULL;
  if (m->start >= m->limit || m->limit >= ((uint64_t)1 << 63)) {
    *out = e->text >= 0 ? &e->ph[e->text] : NULL;
    return 0;
  }
  size_t nload = 0, nmatch = 0;
  const pcol_elf_ph *match = NULL;
  uint64_t map_off = m->offset, map_lim = m->offset + (m->limit - m->start);
  uint64_t fo = addr - m->start + m->offset;
  for (int pass = 0; pass < 2; pass++) {
    /* pass 0: the mapping's headers (ProgramHeadersForMapping); pass 1,
     * when there are several: the one holding addr's file offset
     * (HeaderForFileOffset) */
    for (size_t i = 0; i < e->nph; i++) {
      const pcol_elf_ph *p = &e->ph[i];
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
static int candidates(names *l, const char *dir, const pcol_bin_map *m) {
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
static int open_ok(const char *path, pcol_elf_cache *c, const pcol_bin_map *m, pcol_elf_info *e,
                   char *why, size_t whylen) {
  if (elf_read(path, c, e, why, whylen)) return -1;
  uint64_t base;
  char w2[256];
  if (pcol_elf_base(e->type, e->text >= 0 ? &e->ph[e->text] : NULL, m->start, m->limit, m->offset,
               &base, w2, sizeof w2)) {
    snprintf(why, whylen, "error reading ELF file %s: could not identify base for %s: %s", path,
             path, w2);
    free(e->ph);
    e->ph = NULL;
    return -1;
  }
  return 0;
}

char *pcol_bin_search_path(const char *bp) {
  if (!bp) bp = getenv("PPROF_BINARY_PATH");
  if (bp && *bp) return strdup(bp);
  const char *home = getenv("HOME");
  return join(home ? home : "", "pprof/binaries", "");
}

void pcol_elf_free(pcol_elf_info *e) {
  free(e->ph);
  e->ph = NULL;
  e->nph = 0;
}

int pcol_elf_addr_base(const pcol_elf_info *e, const pcol_bin_map *m, uint64_t addr,
                       uint64_t *base, char *why, size_t whylen) {
  const pcol_elf_ph *ph = NULL;
  *base = 0;
  if (addr < m->start || addr >= m->limit) {
    snprintf(why, whylen, "address %" PRIx64 " is outside the mapping", addr);
    return -1;
  }
  if (pcol_elf_find_ph(e, m, addr, &ph, why, whylen)) return -1;
  return pcol_elf_base(e->type, ph, m->start, m->limit, m->offset, base, why, whylen);
}

/* the deadline of clk (NULL: none) passed: timed_out set, why says so */
static int past(pcol_bin_clock *clk, char *why, size_t whylen) {
  return clk && pcol_bin_clock_passed(clk, "looking for its binary", why, whylen);
}

int pcol_bin_locate(const char *search, pcol_elf_cache *cache, pcol_bin_clock *clk,
                    const pcol_bin_map *m, pcol_elf_info *e, char **found_out,
                    void (*ignored)(void *, const char *, const char *, const char *), void *ctx,
                    char *why, size_t whylen) {
  *found_out = NULL;
  /* (cut at the NUL, the name would be another file's) */
  if (strlen(m->file) != m->file_len) {
    snprintf(why, whylen, "the file name holds a NUL byte");
    return -1;
  }
  names l = {0};
  int found = 0, rc = 0, late = 0;
  for (const char *p = search; !found && !rc && !late;) {
    const char *c = strchr(p, ':');
    size_t n = c ? (size_t)(c - p) : strlen(p);
    char *dir = strndup(p, n);
    l.n = 0;
    rc = !dir || candidates(&l, dir, m);
    for (size_t i = 0; !rc && !found && !late && i < l.n; i++) {
      if ((late = past(clk, why, whylen)) || open_ok(l.v[i], cache, m, e, why, whylen)) continue;
      if (*m->build_id && strcmp(m->build_id, e->build_id)) {
        if (ignored) ignored(ctx, l.v[i], m->build_id, e->build_id);
        pcol_elf_free(e);
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
  if (late || past(clk, why, whylen) || open_ok(m->file, cache, m, e, why, whylen)) return -1;
  if (*m->build_id && e->build_id[0] && strcmp(m->build_id, e->build_id)) {
    snprintf(why, whylen, "build ID mismatch");
    pcol_elf_free(e);
    return -1;
  }
  *found_out = strdup(m->file);
  return *found_out ? 0 : -2;
}

/* ----------------------------------------------------------- the tool */

/* path of NAME in $PATH's directories, or NULL (malloc) */
char *pcol_bin_on_path(const char *name) {
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

char *pcol_bin_arg_path(const char *path) {
  size_t n = strlen(path) + 3;
  char *a = malloc(n);
  if (a) snprintf(a, n, "%s%s", *path == '/' ? "" : "./", path);
  return a;
}

double pcol_bin_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

void pcol_bin_clock_start(pcol_bin_clock *c) {
  c->secs = PCOL_BIN_TIMEOUT_S;
  const char *t = getenv("PCOL_SYMBOLIZE_TIMEOUT");
  if (t && *t && atof(t) > 0) c->secs = atof(t);
  c->deadline = pcol_bin_now() + c->secs;
  c->timed_out = false;
}

bool pcol_bin_clock_passed(pcol_bin_clock *c, const char *what, char *why, size_t whylen) {
  if (!c->timed_out && pcol_bin_now() < c->deadline) return false;
  snprintf(why, whylen, "%s took more than %g s (PCOL_SYMBOLIZE_TIMEOUT, for all runs)", what,
           c->secs);
  c->timed_out = true;
  return true;
}

int pcol_bin_run(pcol_bin_clock *s, char *const *argv, int in, size_t max_line,
                 int (*line)(void *, char *), void (*abort_fn)(void *), void *ctx, char *why,
                 size_t whylen) {
  int pfd[2];
  if (pipe(pfd)) {
    snprintf(why, whylen, "pipe: %s", strerror(errno));
    return -1;
  }
  (void)fcntl(pfd[0], F_SETFD, FD_CLOEXEC);
  (void)fcntl(pfd[1], F_SETFD, FD_CLOEXEC);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (in >= 0) posix_spawn_file_actions_adddup2(&fa, in, 0);
  else posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
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
    if (pcol_bin_clock_passed(s, argv[0], why, whylen)) {
      rc = -1;
      break;
    }
    double left = s->deadline - pcol_bin_now();
    if (left < 0) left = 0;
    struct pollfd p = {pfd[0], POLLIN, 0};
    int k = poll(&p, 1, left > 1000 ? 1000000 : (int)(left * 1000) + 1);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) continue;
    if (n == c) { /* (n <= max_line: the window grows to 2 * max_line at most) */
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
        rc = line(ctx, b);
      }
      break;
    }
    size_t from = 0, end = n + (size_t)r;
    for (size_t i = n; i < end && !rc; i++) {
      if (b[i] != '\n') continue;
      if (i - from > max_line) { /* a whole line of this read too long */
        snprintf(why, whylen, "%s wrote a line longer than %zu bytes", argv[0], max_line);
        rc = -1;
        break;
      }
      b[i] = 0;
      rc = line(ctx, b + from);
      from = i + 1;
    }
    memmove(b, b + from, end - from);
    n = end - from;
    if (!rc && n > max_line) { /* a line not ended yet is already too long */
      snprintf(why, whylen, "%s wrote a line longer than %zu bytes", argv[0], max_line);
      rc = -1;
    }
  }
  if (rc == -2 && !*why) snprintf(why, whylen, "out of memory");
  if (rc && abort_fn) abort_fn(ctx); /* stopped before its end */
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
    } else if (pcol_bin_clock_passed(s, argv[0], why, whylen)) {
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
