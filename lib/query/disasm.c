/* disasm.c — pcol_disasm_compute: go tool pprof -disasm (report.go
 * PrintAssembly, symbolsFromBinaries, nodesPerSymbol, annotateAssembly;
 * binutils Symbols, Disasm and their parsers in disasm.go).
 *
 * The samples are pcol_top's by address with object names, under
 * -noinlines (pprof's driver forces it for disasm: a location keeps its
 * outermost line).  The binaries are found, read and run by binfile.c, as
 * --symbolize local does: nm -n for the symbols, objdump for a routine's
 * instructions, both read a line at a time as they come, within one
 * deadline, all that is kept of them charged to PCOL_DISASM_MAX_BYTES:
 * the names and instructions, each with its records here and in the
 * result (charge). */
#include "query.h"
#include "binfile.h"
#include "buf.h"
#include "error.h"
#include "filter.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINE ((size_t)1 << 20)

/* a sample: pprof's node of the graph by address */
typedef struct node {
  uint64_t addr;
  pcol_sum flat, cum;
  pcol_str name, file, objfile, pname; /* pname: the printable name */
  int64_t line;
} node;

typedef struct sym {
  size_t names_at, nnames; /* in the job's name list */
  uint64_t start, end;     /* end: the next symbol's address - 1 (pprof) */
  size_t map;              /* its binary */
  size_t n0, n1;           /* its nodes, in the job's list of symbol nodes */
  pcol_sum flat, cum;
} sym;

typedef struct bin {
  char *path;
  uint64_t base;
} bin;

/* a routine shown: its symbol and its instructions in the job's list */
typedef struct blk {
  size_t sym, i0, i1;
} blk;

/* what each thing kept costs besides its text: a name its offset and
 * length here and its pcol_str in the result; a symbol its record, its
 * place in the order, its block here and in the result; a symbol's
 * sample its index (all charged as they come, so a tool that never ends,
 * or an nm whose symbols overlap, stops at the bound) */
#define NAME_COST (2 * sizeof(size_t) + sizeof(pcol_str))
#define SYM_COST (sizeof(sym) + sizeof(size_t) + sizeof(blk) + sizeof(pcol_disasm_block))

typedef struct job {
  pcol_bin_clock clk;
  size_t bytes_left;
  pcol_buf text;     /* names, instructions, functions, files: offsets until done */
  pcol_buf names;    /* size_t offsets + lengths pairs into text */
  pcol_buf warn;
  pcol_rx rx;
  int has_addr;
  uint64_t addr;
  char *rxbuf;
  size_t rxcap;
  int oom, cut;
} job;

static int str_cmp(pcol_str a, pcol_str b) {
  size_t n = a.len < b.len ? a.len : b.len;
  int c = n ? memcmp(a.ptr, b.ptr, n) : 0;
  return c ? c : a.len == b.len ? 0 : a.len < b.len ? -1 : 1;
}

/* filepath.Base of a non-empty path (borrowed) */
static pcol_str go_base(pcol_str f) {
  size_t n = f.len;
  while (n > 1 && f.ptr[n - 1] == '/') n--;
  size_t k = n;
  while (k && f.ptr[k - 1] != '/') k--;
  if (n == 1 && f.ptr[0] == '/') k = 0;
  return (pcol_str){f.ptr + k, n - k};
}

static int str_pcmp(const void *a, const void *b) {
  return str_cmp(*(const pcol_str *)a, *(const pcol_str *)b);
}

static void warnf(job *j, const char *what, const char *name, const char *why) {
  if (j->warn.len) (void)pcol_buf_append(&j->warn, "; ", 2);
  (void)pcol_buf_append(&j->warn, what, strlen(what));
  pcol_bin_put_esc(&j->warn, name, strlen(name));
  (void)pcol_buf_append(&j->warn, ": ", 2);
  pcol_bin_put_esc(&j->warn, why, strlen(why));
}

/* n bytes charged to the bound; -1 (cut) past it */
static int charge(job *j, size_t n) {
  if (n > j->bytes_left) {
    j->cut = 1;
    return -1;
  }
  j->bytes_left -= n;
  return 0;
}

/* text kept, charged to the bound: its offset, or SIZE_MAX past it */
static size_t keep(job *j, const char *p, size_t n) {
  if (charge(j, n)) return SIZE_MAX;
  size_t at = j->text.len;
  if (pcol_buf_append(&j->text, p, n)) {
    j->oom = 1;
    return SIZE_MAX;
  }
  return at;
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == '\v'; }
static int is_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
/* strconv.ParseUint(s[0..n), 16, 64) */
static int parse_hex(const char *s, size_t n, uint64_t *v) {
  *v = 0;
  if (!n) return -1;
  for (size_t i = 0; i < n; i++) {
    if (*v >> 60) return -1;
    char c = s[i];
    *v = *v * 16 + (uint64_t)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
  }
  return 0;
}

/* ------------------------------------------------------------- nm -n */

typedef struct nm_ctx {
  job *j;
  size_t map;
  pcol_buf *syms;        /* sym */
  pcol_buf group;        /* the current group's names: offsets, lengths into gtext */
  pcol_buf gtext;
  uint64_t start;
  int any;
} nm_ctx;

/* the group read so far dropped: what nm_line charged for it given back
 * (here only: at each flush and after the run, whether nm ended or failed) */
static void nm_drop(nm_ctx *c) {
  c->j->bytes_left += c->gtext.len + c->group.len;
  c->group.len = c->gtext.len = 0;
}

/* matchSymbol: the names to keep of the group [start, end], or none */
static int nm_flush(nm_ctx *c, uint64_t end) {
  job *j = c->j;
  size_t n = c->group.len / (2 * sizeof(size_t));
  const size_t *g = (const size_t *)(const void *)c->group.data;
  /* the group's text stays in its buffers until the next line: the kept
   * names are charged instead */
  nm_drop(c);
  if (!n) return 0;
  size_t from = 0, to = 0; /* the names kept: [from, to) */
  if (j->has_addr && j->addr && j->addr >= c->start && j->addr <= end) {
    to = n;
  } else {
    for (size_t i = 0; i < n && to == 0; i++) {
      pcol_str s = {(const char *)c->gtext.data + g[2 * i], g[2 * i + 1]};
      int m = pcol_rx_match(&j->rx, &j->rxbuf, &j->rxcap, s);
      if (m < 0) return -2;
      if (m > 0) from = i, to = i + 1;
    }
  }
  if (to > from) {
    sym s = {j->names.len / (2 * sizeof(size_t)), to - from, c->start, end, c->map, 0, 0, 0, 0};
    if (charge(j, SYM_COST)) return -3;
    for (size_t i = from; i < to; i++) {
      if (charge(j, NAME_COST)) return -3;
      size_t at = keep(j, (const char *)c->gtext.data + g[2 * i], g[2 * i + 1]);
      if (at == SIZE_MAX) return j->oom ? -2 : -3;
      size_t pr[2] = {at, g[2 * i + 1]};
      if (pcol_buf_append(&j->names, pr, sizeof pr)) return -2;
    }
    if (pcol_buf_append(c->syms, &s, sizeof s)) return -2;
  }
  return 0;
}

/* nextSymbol: `^\s*([[:xdigit:]]+)\s+(.)\s+(.*)` on the line trimmed as
 * pprof's binutils trims every line (strings.TrimSpace) */
static int nm_line(void *ctx, char *line) {
  nm_ctx *c = ctx;
  char *s = pcol_bin_trim_space(line);
  size_t h = 0;
  while (is_hex(s[h])) h++;
  size_t p = h;
  if (!h || !is_space(s[p])) return 0;
  while (is_space(s[p])) p++;
  if (!s[p]) return 0;
  /* (.) is one character (a UTF-8 sequence: nm writes ASCII here) */
  p++;
  if (!is_space(s[p])) return 0;
  while (is_space(s[p])) p++;
  uint64_t a;
  if (parse_hex(s, h, &a)) return 0;
  size_t nl = strlen(s + p);
  if (c->any && a == c->start) {
  } else {
    if (c->any) {
      int rc = nm_flush(c, a - 1);
      if (rc) return rc;
    }
    c->any = 1;
    c->start = a;
  }
  /* the group's names, charged while it lasts (nm_flush gives them back) */
  size_t pr[2] = {c->gtext.len, nl};
  if (charge(c->j, nl + sizeof pr)) return -3;
  if (pcol_buf_append(&c->gtext, s + p, nl) || pcol_buf_append(&c->group, pr, sizeof pr)) return -2;
  return 0;
}

/* ----------------------------------------------------------- objdump */

typedef struct inst {
  uint64_t addr;
  size_t text, ntext, fn, nfn, file, nfile; /* offsets into the job's text; SIZE_MAX none */
  int64_t line;
} inst;

typedef struct od_ctx {
  job *j;
  pcol_buf *insts;
  pcol_buf function, file; /* the current ones */
  int64_t line;
  size_t fn_at, file_at;   /* kept copies of the current ones, SIZE_MAX: not yet */
} od_ctx;

static void od_set(pcol_buf *b, const char *p, size_t n, size_t *at) {
  b->len = 0;
  (void)pcol_buf_append(b, p, n);
  *at = SIZE_MAX;
}

/* the last "()" + ":" at or after p+1, the group (\S.*) from p */
static long fn_end(const char *s, size_t p) {
  if (!s[p] || is_space(s[p])) return -1;
  const char *last = NULL;
  for (const char *q = s + p + 1; (q = strstr(q, "():")); q++) last = q;
  return last ? (long)(last - s) : -1;
}

/* disassemble: the parser of pprof's disasm.go, its regular expressions
 * as Go's leftmost-first matching reads them */
static int od_line(void *ctx, char *line) {
  od_ctx *c = ctx;
  job *j = c->j;
  char *s = pcol_bin_trim_space(line);
  size_t n = strlen(s);
  /* objdumpAsmOutputRE `^\s*([[:xdigit:]]+):\s+(.*)` */
  size_t h = 0;
  while (is_hex(s[h])) h++;
  uint64_t a;
  if (h && s[h] == ':' && is_space(s[h + 1]) && !parse_hex(s, h, &a)) {
    size_t p = h + 1;
    while (is_space(s[p])) p++;
    inst in = {a, 0, n - p, SIZE_MAX, 0, SIZE_MAX, 0, c->line};
    if (charge(j, sizeof in + sizeof(pcol_disasm_inst))) return -3;
    if ((in.text = keep(j, s + p, n - p)) == SIZE_MAX) return j->oom ? -2 : -3;
    if (c->function.len && c->fn_at == SIZE_MAX &&
        (c->fn_at = keep(j, (const char *)c->function.data, c->function.len)) == SIZE_MAX)
      return j->oom ? -2 : -3;
    if (c->file.len && c->file_at == SIZE_MAX &&
        (c->file_at = keep(j, (const char *)c->file.data, c->file.len)) == SIZE_MAX)
      return j->oom ? -2 : -3;
    if (c->function.len) in.fn = c->fn_at, in.nfn = c->function.len;
    if (c->file.len) in.file = c->file_at, in.nfile = c->file.len;
    return pcol_buf_append(c->insts, &in, sizeof in) ? -2 : 0;
  }
  size_t p = 0;
  if (s[p] == ';') p++;
  if (is_space(s[p])) p++;
  /* objdumpOutputFileLine `^;?\s?(.*):([0-9]+)`: the last ':' followed by
   * a digit; the line set when its digits read as a uint32 */
  long colon = -1;
  for (size_t i = p; i < n; i++)
    if (s[i] == ':' && s[i + 1] >= '0' && s[i + 1] <= '9') colon = (long)i;
  if (colon >= 0) {
    uint64_t v = 0;
    int ok = 1;
    for (size_t i = (size_t)colon + 1; s[i] >= '0' && s[i] <= '9'; i++) {
      v = v * 10 + (uint64_t)(s[i] - '0');
      if (v > UINT32_MAX) ok = 0;
      if (v > UINT32_MAX) break;
    }
    if (ok) {
      od_set(&c->file, s + p, (size_t)colon - p, &c->file_at);
      c->line = (int64_t)v;
    }
    return 0;
  }
  /* objdumpOutputFunction `^;?\s?(\S.*)\(\):` (its options in Go's order
   * of preference) */
  size_t starts[3];
  size_t ns = 0;
  if (s[0] == ';') {
    if (is_space(s[1])) starts[ns++] = 2;
    starts[ns++] = 1;
  }
  starts[ns++] = 0;
  for (size_t k = 0; k < ns; k++) {
    long e = fn_end(s, starts[k]);
    if (e >= 0) {
      od_set(&c->function, s + starts[k], (size_t)e - starts[k], &c->fn_at);
      return 0;
    }
  }
  /* objdumpOutputFunctionLLVM `^([[:xdigit:]]+)?\s?(.*):` */
  char *lc = strrchr(s, ':');
  if (lc) {
    size_t q = h;
    if (is_space(s[q])) q++;
    if (s + q <= lc) {
      od_set(&c->function, s + q, (size_t)(lc - (s + q)), &c->fn_at);
      return 0;
    }
  }
  c->function.len = c->file.len = 0; /* reset on lines it does not know */
  c->fn_at = c->file_at = SIZE_MAX;
  c->line = 0;
  return 0;
}

/* ------------------------------------------------------------- tools */

typedef struct ver_ctx {
  int llvm, gnu;
} ver_ctx;

/* isLLVMObjdump (Linux: LLVM 8 or later, or a trunk build), isBuObjdump */
static int ver_line(void *ctx, char *line) {
  ver_ctx *v = ctx;
  const char *p = strstr(line, "LLVM version ");
  if (p) {
    p += 13;
    if (strstr(p, "trunk")) v->llvm = 1;
    else if (atoi(p) >= 8) v->llvm = 1;
  }
  if (strstr(line, "GNU objdump")) v->gnu = 1;
  return 0;
}

static char *find_objdump(job *j, int *llvm) {
  static const char *const names[] = {"llvm-objdump", "objdump"};
  for (int i = 0; i < 2; i++) {
    char *p = pcol_bin_on_path(names[i]);
    if (!p) continue;
    ver_ctx v = {0, 0};
    char *argv[] = {p, "--version", NULL};
    char why[256];
    if (!pcol_bin_run(&j->clk, argv, -1, MAX_LINE, ver_line, NULL, &v, why, sizeof why) &&
        (v.llvm || v.gnu)) {
      *llvm = v.llvm;
      return p;
    }
    free(p);
  }
  return NULL;
}


/* ------------------------------------------------------------- the job */

static int node_addr_cmp(const void *pa, const void *pb) {
  const node *a = pa, *b = pb;
  if (a->addr != b->addr) return a->addr < b->addr ? -1 : 1;
  return str_cmp(a->pname, b->pname);
}

typedef struct sort_ctx {
  const sym *s;
  const char *text;
  const size_t *names;
} sort_ctx;

static int sym_cmp(const void *pa, const void *pb, void *ctx) {
  const sort_ctx *c = ctx;
  const sym *a = &c->s[*(const size_t *)pa], *b = &c->s[*(const size_t *)pb];
  pcol_str na = {c->text + c->names[2 * a->names_at], c->names[2 * a->names_at + 1]};
  pcol_str nb = {c->text + c->names[2 * b->names_at], c->names[2 * b->names_at + 1]};
  int r = str_cmp(na, nb);
  if (r) return r;
  return a->start < b->start ? -1 : a->start > b->start;
}

typedef struct disasm_priv {
  pcol_buf text;
  pcol_top top;
  pcol_buf warn;
  pcol_str *names;
  pcol_disasm_inst *insts;
  bin *paths;
  size_t npaths;
} disasm_priv;

static int tool_fail(pcol_error *err, job *j, const char *what, const char *why) {
  if (j->oom) return pcol_oom(err);
  if (j->cut)
    return pcol_error_set(err, PCOL_EIO, "disasm: %s: the names and instructions passed %zu bytes",
                          what, PCOL_DISASM_MAX_BYTES);
  return pcol_error_set(err, PCOL_EIO, "disasm: %s: %s", what, why);
}

int pcol_disasm_compute(pcol_file *f, const pcol_select *sel, const pcol_value_sel *v,
                        const char *regex, const pcol_disasm_options *opt, pcol_disasm *out,
                        pcol_error *err) {
  memset(out, 0, sizeof *out);
  pcol_disasm_options o = {0};
  if (opt) o = *opt;
  if (!regex) regex = "";
  job j;
  memset(&j, 0, sizeof j);
  PCOL_RETURN_NOT_OK(pcol_rx_compile(&j.rx, "disasm", regex, err));
  /* pprof reads the expression as an address too (ParseUint base 0) */
  {
    char *e;
    const char *r = regex;
    int base = 10;
    if (r[0] == '0' && (r[1] == 'x' || r[1] == 'X')) base = 16, r += 2;
    else if (r[0] == '0' && (r[1] == 'b' || r[1] == 'B')) base = 2, r += 2;
    else if (r[0] == '0' && (r[1] == 'o' || r[1] == 'O')) base = 8, r += 2;
    else if (r[0] == '0' && r[1]) base = 8, r += 1;
    if (*r && *r != '-' && *r != '+' && *r != ' ') {
      errno = 0;
      unsigned long long x = strtoull(r, &e, base);
      if (!*e && errno == 0) j.has_addr = 1, j.addr = x;
    }
  }
  pcol_bin_clock_start(&j.clk);
  j.bytes_left = PCOL_DISASM_MAX_BYTES;
  disasm_priv *pv = calloc(1, sizeof *pv);
  node *nodes = NULL;
  size_t nn = 0;
  bin *bins = NULL;
  size_t nbins = 0;
  pcol_buf syms = {0}, snodes = {0}, insts = {0};
  pcol_elf_cache ec = {0}; /* the files read, each once */
  char *search = NULL, *objdump = NULL, *nm = NULL;
  int rc = pv ? PCOL_OK : pcol_oom(err);
  pcol_select s2 = *sel;
  s2.no_inlines = true;
  if (!rc) rc = pcol_q_top_compute_obj(f, &s2, v, PCOL_BY_ADDRESS, 1, &pv->top, err);
  if (!rc && !(nodes = calloc(pv->top.nrows + 1, sizeof *nodes))) rc = pcol_oom(err);
  for (size_t i = 0; !rc && i < pv->top.nrows; i++) {
    const pcol_top_row *r = &pv->top.rows[i];
    pcol_top_parts pt;
    if ((rc = pcol_top_key_parts(&pv->top, r->key, &pt, err))) break;
    node *x = &nodes[nn++];
    x->addr = pt.address;
    x->flat = r->flat;
    x->cum = r->cum;
    x->name = pt.function;
    x->file = pt.file;
    x->objfile = pt.objfile;
    x->line = pt.line;
    x->pname = r->name;
  }
  /* the binaries of the nodes that match (symbolsFromBinaries): their
   * files, sorted */
  pcol_str *mfiles = NULL;
  size_t nmf = 0;
  if (!rc && !(mfiles = calloc(nn + 1, sizeof *mfiles))) rc = pcol_oom(err);
  for (size_t i = 0; !rc && i < nn; i++) {
    if (!nodes[i].objfile.len) continue;
    int m = pcol_rx_match(&j.rx, &j.rxbuf, &j.rxcap, nodes[i].pname);
    if (m < 0) rc = pcol_oom(err);
    if (m > 0) mfiles[nmf++] = nodes[i].objfile;
  }
  if (!rc && nmf) qsort(mfiles, nmf, sizeof *mfiles, str_pcmp);
  uint64_t nmap = pcol_rows(f, PCOL_T_MAPPINGS);
  pcol_view mc[5];
  for (int k = 0; !rc && k < 5; k++) rc = pcol_column(f, PCOL_T_MAPPINGS, PCOL_C_MAP_START + k, &mc[k], err);
  if (!rc && !(bins = calloc(nmap + 1, sizeof *bins))) rc = pcol_oom(err);
  if (!rc) search = pcol_bin_search_path(o.binary_path);
  if (!rc && !search) rc = pcol_oom(err);
  for (uint64_t mi = 0; !rc && mi < nmap; mi++) {
    pcol_str file, bid;
    if ((rc = pcol_string(f, pcol_view_u32(&mc[3], mi), &file, err)) ||
        (rc = pcol_string(f, pcol_view_u32(&mc[4], mi), &bid, err)))
      break;
    uint64_t start = pcol_view_u64(&mc[0], mi), limit = pcol_view_u64(&mc[1], mi);
    int want = file.len && bsearch(&file, mfiles, nmf, sizeof *mfiles, str_pcmp) != NULL;
    if (!want && j.has_addr && start <= j.addr && j.addr <= limit) want = 1;
    if (rc || !want) continue;
    char *fz = strndup(file.ptr ? file.ptr : "", file.len), *bz = strndup(bid.ptr ? bid.ptr : "", bid.len);
    if (!fz || !bz) {
      free(fz);
      free(bz);
      rc = pcol_oom(err);
      break;
    }
    char why[1024] = "";
    pcol_bin_map bm = {start, limit, pcol_view_u64(&mc[2], mi), fz, bz, file.len};
    pcol_elf_info e = {0};
    char *found = NULL;
    /* each file is read once (ec), but many are many: the deadline is
     * looked at before each */
    int lr = pcol_bin_locate(search, &ec, &j.clk, &bm, &e, &found, NULL, NULL, why, sizeof why);
    if (j.clk.timed_out) { /* the job's words for it (the search's name the file) */
      pcol_bin_clock_passed(&j.clk, "looking for the binaries", why, sizeof why);
      free(fz);
      free(bz);
      rc = pcol_error_set(err, PCOL_EIO, "disasm: %s", why);
      break;
    }
    /* the base, from the binary's first sample (pprof's ObjAddr: the
     * first node of its graph, wherever it is) */
    uint64_t base = 0;
    if (!lr) {
      size_t first = SIZE_MAX;
      for (size_t i = 0; i < nn; i++)
        if (nodes[i].addr >= start && nodes[i].addr < limit && (first == SIZE_MAX || nodes[i].addr < nodes[first].addr)) first = i;
      if (first == SIZE_MAX) {
        snprintf(why, sizeof why, "no sample in the mapping");
        lr = -1;
      } else if (pcol_elf_addr_base(&e, &bm, nodes[first].addr, &base, why, sizeof why)) {
        lr = -1;
      }
    }
    pcol_elf_free(&e);
    if (lr == -2) rc = pcol_oom(err);
    else if (lr) warnf(&j, "cannot read the binary of ", fz, why);
    free(fz);
    free(bz);
    if (rc || lr) {
      free(found);
      continue;
    }
    bins[nbins].path = found;
    bins[nbins].base = base;
    /* its symbols: nm -n (llvm-nm, else nm) */
    if (!nm && !(nm = pcol_bin_on_path("llvm-nm")) && !(nm = pcol_bin_on_path("nm"))) {
      nbins++;
      rc = pcol_error_set(err, PCOL_EIO, "disasm: neither llvm-nm nor nm is on PATH");
      break;
    }
    char *ap = pcol_bin_arg_path(found);
    if (!ap) {
      nbins++;
      rc = pcol_oom(err);
      break;
    }
    char *argv[] = {nm, "-n", ap, NULL};
    nm_ctx c = {&j, nbins, &syms, {0}, {0}, 0, 0};
    int tr = pcol_bin_run(&j.clk, argv, -1, MAX_LINE, nm_line, NULL, &c, why, sizeof why);
    if (!tr && c.any) tr = nm_flush(&c, (uint64_t)0 - 1); /* the last group: up to 0 - 1 */
    if (tr == -3 && !j.cut) j.cut = 1;
    nm_drop(&c); /* a group not flushed: nm failed or was stopped */
    pcol_buf_free(&c.group);
    pcol_buf_free(&c.gtext);
    free(ap);
    nbins++;
    if (tr == -2 || j.oom) rc = pcol_oom(err);
    else if (j.cut || j.clk.timed_out) rc = tool_fail(err, &j, nm, why);
    else if (tr) warnf(&j, "cannot read the symbols of ", found, why); /* pprof: skipped */
  }
  /* each symbol's nodes (nodesPerSymbol): the nodes by address, and those
   * whose address less the binary's base falls in the symbol */
  size_t nsym = syms.len / sizeof(sym);
  sym *sv = (sym *)(void *)syms.data;
  if (!rc && nn) qsort(nodes, nn, sizeof *nodes, node_addr_cmp);
  for (size_t k = 0; !rc && k < nsym; k++) {
    sym *y = &sv[k];
    uint64_t base = bins[y->map].base;
    y->n0 = snodes.len / sizeof(size_t);
    uint64_t lo = y->start + base, hi = y->end + base;
    size_t i0 = 0;
    int sorted = lo >= y->start && hi >= y->end && lo <= hi;
    if (sorted) { /* no wrap: from the first node at lo to hi */
      size_t a = 0, b = nn;
      while (a < b) {
        size_t m = a + (b - a) / 2;
        if (nodes[m].addr < lo) a = m + 1;
        else b = m;
      }
      i0 = a;
    }
    for (size_t i = i0; i < nn; i++) {
      uint64_t oa = nodes[i].addr - base;
      if (sorted && nodes[i].addr >= hi) break;
      if (oa >= y->start && oa < y->end) {
        if (charge(&j, sizeof i)) {
          rc = tool_fail(err, &j, nm, "");
          break;
        }
        if (pcol_buf_append(&snodes, &i, sizeof i)) {
          rc = pcol_oom(err);
          break;
        }
        y->flat += nodes[i].flat;
        y->cum += nodes[i].cum;
      }
    }
    y->n1 = snodes.len / sizeof(size_t);
  }
  /* the symbols with samples, by first name and address */
  size_t *ord = NULL, nord = 0;
  if (!rc && !(ord = malloc((nsym + 1) * sizeof *ord))) rc = pcol_oom(err);
  for (size_t k = 0; !rc && k < nsym; k++)
    if (sv[k].n1 > sv[k].n0) ord[nord++] = k;
  if (!rc && nord) {
    sort_ctx sc = {sv, (const char *)j.text.data, (const size_t *)(const void *)j.names.data};
    qsort_r(ord, nord, sizeof *ord, sym_cmp, &sc);
  }
  if (!rc && !nord) {
    if (!j.has_addr) rc = pcol_error_set(err, PCOL_ENOTFOUND, "no matches found for regexp %s", regex);
    else if (!nsym) rc = pcol_error_set(err, PCOL_ENOTFOUND, "no matches found for address 0x%" PRIx64, j.addr);
    else
      rc = pcol_error_set(err, PCOL_ENOTFOUND,
                          "address 0x%" PRIx64 " found in binary, but the corresponding symbols do not have samples in the profile",
                          j.addr);
  }
  int llvm = 0;
  if (!rc && !(objdump = find_objdump(&j, &llvm)))
    rc = pcol_error_set(err, PCOL_EIO, "disasm: cannot disasm: no objdump tool available");
  /* each routine's instructions; the blocks keep offsets until the end */
  blk *bl = NULL;
  if (!rc && !(bl = calloc(nord, sizeof *bl))) rc = pcol_oom(err);
  for (size_t b = 0; !rc && b < nord; b++) {
    const sym *y = &sv[ord[b]];
    char sa[40], ea[40], why[1024] = "";
    snprintf(sa, sizeof sa, "--start-address=%#" PRIx64, y->start);
    snprintf(ea, sizeof ea, "--stop-address=%#" PRIx64, y->end);
    if (!y->start) snprintf(sa, sizeof sa, "--start-address=0x0"); /* Go's %#x */
    if (!y->end) snprintf(ea, sizeof ea, "--stop-address=0x0");
    char *ap = pcol_bin_arg_path(bins[y->map].path);
    if (!ap) {
      rc = pcol_oom(err);
      break;
    }
    char *argv[12] = {objdump, "--disassemble", "--demangle", "--no-show-raw-insn", "--line-numbers", sa, ea};
    int k = 7;
    if (o.intel && llvm) argv[k++] = "--x86-asm-syntax=intel";
    else if (o.intel) argv[k++] = "-M", argv[k++] = "intel";
    argv[k++] = ap;
    argv[k] = NULL;
    od_ctx c = {&j, &insts, {0}, {0}, 0, SIZE_MAX, SIZE_MAX};
    bl[b].sym = ord[b];
    bl[b].i0 = insts.len / sizeof(inst);
    int tr = pcol_bin_run(&j.clk, argv, -1, MAX_LINE, od_line, NULL, &c, why, sizeof why);
    bl[b].i1 = insts.len / sizeof(inst);
    pcol_buf_free(&c.function);
    pcol_buf_free(&c.file);
    free(ap);
    if (tr == -2 || j.oom) rc = pcol_oom(err);
    else if (tr) rc = tool_fail(err, &j, objdump, why);
  }
  /* the result: strings from the job's text, the values annotated */
  size_t ntot = 0, nnames = j.names.len / (2 * sizeof(size_t));
  for (size_t b = 0; !rc && b < nord; b++) ntot += bl[b].i1 - bl[b].i0;
  if (!rc && (!(out->blocks = calloc(nord + 1, sizeof *out->blocks)) ||
              !(pv->insts = calloc(ntot + 1, sizeof *pv->insts)) ||
              !(pv->names = calloc(nnames + 1, sizeof *pv->names))))
    rc = pcol_oom(err);
  const char *tx = (const char *)j.text.data;
  const size_t *nmv = (const size_t *)(const void *)j.names.data;
  for (size_t i = 0; !rc && i < nnames; i++) pv->names[i] = (pcol_str){tx + nmv[2 * i], nmv[2 * i + 1]};
  const inst *iv = (const inst *)(const void *)insts.data;
  const size_t *sn = (const size_t *)(const void *)snodes.data;
  size_t at = 0;
  for (size_t b = 0; !rc && b < nord; b++) {
    const sym *y = &sv[bl[b].sym];
    pcol_disasm_block *ob = &out->blocks[out->nblocks++];
    ob->names = pv->names + y->names_at;
    ob->nnames = y->nnames;
    ob->binary = (pcol_str){bins[y->map].path, strlen(bins[y->map].path)};
    ob->start = y->start;
    ob->end = y->end;
    ob->flat = y->flat;
    ob->cum = y->cum;
    ob->insts = pv->insts + at;
    uint64_t base = bins[y->map].base;
    size_t s = y->n0;
    for (size_t i = bl[b].i0; i < bl[b].i1; i++) {
      const inst *in = &iv[i];
      pcol_disasm_inst *d = &pv->insts[at++];
      ob->ninsts++;
      d->address = in->addr;
      d->text = (pcol_str){tx + in->text, in->ntext};
      if (in->fn != SIZE_MAX) d->function = (pcol_str){tx + in->fn, in->nfn};
      if (in->file != SIZE_MAX) {
        d->file = go_base((pcol_str){tx + in->file, in->nfile});
      }
      d->line = in->line;
      uint64_t next = i + 1 < bl[b].i1 ? iv[i + 1].addr : UINT64_MAX;
      for (; s < y->n1; s++) {
        const node *x = &nodes[sn[s]];
        if (x->addr - base >= next) break;
        d->flat += x->flat;
        d->cum += x->cum;
        if (x->file.len && !d->file.len) d->file = go_base(x->file);
        if (x->line && !d->line) d->line = x->line;
        if (x->name.len && !d->function.len) d->function = x->name;
      }
    }
  }
  out->total = pv ? pv->top.total : 0;
  out->value = *v;
  if (j.warn.len && !pcol_buf_append(&j.warn, "", 1)) out->warnings = (const char *)j.warn.data;
  if (pv) {
    pv->text = j.text;
    pv->warn = j.warn;
    j.text = (pcol_buf){0};
    j.warn = (pcol_buf){0};
  }
  out->priv_ = pv;
  free(bl);
  free(ord);
  free(nodes);
  /* the binaries' paths stay with the result (the blocks name them) */
  if (pv) {
    pv->paths = bins;
    pv->npaths = nbins;
    bins = NULL;
  } else {
    for (size_t i = 0; i < nbins; i++) free(bins[i].path);
  }
  free(bins);
  free(mfiles);
  pcol_buf_free(&syms);
  pcol_buf_free(&snodes);
  pcol_buf_free(&insts);
  pcol_buf_free(&j.text);
  pcol_buf_free(&j.names);
  pcol_buf_free(&j.warn);
  pcol_rx_free(&j.rx);
  free(j.rxbuf);
  free(search);
  pcol_elf_cache_free(&ec);
  free(objdump);
  free(nm);
  if (rc) { /* the warnings stay: they may say why nothing matched */
    pcol_buf w = {0};
    if (pv && pv->warn.len) {
      w = pv->warn;
      pv->warn = (pcol_buf){0};
    }
    pcol_disasm_free(out);
    disasm_priv *k = w.len ? calloc(1, sizeof *k) : NULL;
    if (k) {
      k->warn = w;
      out->priv_ = k;
      out->warnings = (const char *)w.data;
    } else {
      pcol_buf_free(&w);
    }
  }
  return rc;
}

void pcol_disasm_free(pcol_disasm *d) {
  if (!d) return;
  disasm_priv *pv = d->priv_;
  if (pv) {
    pcol_buf_free(&pv->text);
    pcol_buf_free(&pv->warn);
    pcol_top_free(&pv->top);
    free(pv->names);
    free(pv->insts);
    for (size_t i = 0; i < pv->npaths; i++) free(pv->paths[i].path);
    free(pv->paths);
    free(pv);
  }
  free(d->blocks);
  memset(d, 0, sizeof *d);
}
