/* gen_day.c — a "day" of continuous profiling (issue 32): one pprof CPU
 * profile (.pb.gz) a minute of one service, as a Go agent (Pyroscope,
 * Parca, Datadog, the Cloud Profiler) writes them.
 *
 *   gen_day --out DIR [--files N] [--samples S] [--start EPOCH] [--seed X]
 *
 * N files (default 1440: a day), DIR/cpu-YYYYmmddTHHMMZ.pb.gz, each with
 * time_nanos = start + i minutes, duration_nanos one minute, period 10 ms,
 * sample types samples/count and cpu/nanoseconds, and about S ticks
 * (default 600: 6 s of CPU a minute) aggregated by stack, as pprof does.
 * The service is one program: a pool of 400 functions in 40 files and
 * 1,500 stacks that share prefixes; each minute draws its ticks from a
 * skewed choice of stacks whose hot set drifts over the day.  Each file is
 * self-contained (its own string table, functions and locations, with ids
 * as the Go runtime numbers them: in order of first use), so a union of
 * the files must match functions by content.  Deterministic for a seed. */
#include "profile.pb-c.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#define NFN 400
#define NFILE 40
#define NSTACK 1500
#define MAXDEPTH 48
#define PERIOD_NS 10000000LL

static void die(const char *m) {
  fprintf(stderr, "gen_day: %s\n", m);
  exit(1);
}
static void *xcalloc(size_t n, size_t s) {
  void *p = calloc(n ? n : 1, s);
  if (!p) die("out of memory");
  return p;
}
static uint64_t rs;
static uint64_t rnd(void) { /* splitmix64 */
  uint64_t z = (rs += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

typedef struct {
  int fn[MAXDEPTH]; /* root first */
  int line[MAXDEPTH];
  int n;
} stack;

static char fname[NFN][64], ffile[NFILE][80];
static stack stacks[NSTACK];

static void make_program(void) {
  static const char *pk[] = {"main", "net/http", "runtime", "encoding/json", "database/sql",
                             "github.com/acme/svc/api", "github.com/acme/svc/store",
                             "sync", "compress/gzip", "bufio"};
  for (int f = 0; f < NFILE; f++)
    snprintf(ffile[f], sizeof ffile[f], "/src/%s/file%02d.go", pk[f % 10], f);
  for (int i = 0; i < NFN; i++)
    snprintf(fname[i], sizeof fname[i], "%s.fn%03d", pk[(i / 4) % 10], i);
  /* each stack extends a cut of an earlier one, as call trees grow */
  for (int s = 0; s < NSTACK; s++) {
    stack *k = &stacks[s];
    if (s == 0) {
      k->n = 1;
      k->fn[0] = 0;
      k->line[0] = 10;
    } else {
      const stack *p = &stacks[rnd() % (uint64_t)s];
      int keep = 1 + (int)(rnd() % (uint64_t)p->n);
      *k = *p;
      k->n = keep;
      int add = 1 + (int)(rnd() % 6);
      for (int j = 0; j < add && k->n < MAXDEPTH; j++, k->n++) {
        k->fn[k->n] = (int)(rnd() % NFN);
        k->line[k->n] = 10 + (int)(rnd() % 200);
      }
    }
  }
}

/* the per-file tables: ids in order of first use */
typedef struct {
  ProtobufCBinaryData *str;
  size_t nstr, capstr;
  int fid[NFN];     /* function id in this file, 0 = not yet */
  int sid_fn[NFN];  /* its name's string index */
  int sid_file[NFILE];
  uint64_t *loc_key; /* fn * 1000 + line of location id k + 1 */
  size_t nloc, caploc;
} tabs;

static int64_t str_add(tabs *t, const char *s) {
  if (t->nstr == t->capstr) {
    t->capstr = t->capstr ? 2 * t->capstr : 256;
    t->str = realloc(t->str, t->capstr * sizeof *t->str);
    if (!t->str) die("out of memory");
  }
  t->str[t->nstr].data = (uint8_t *)strdup(s);
  t->str[t->nstr].len = strlen(s);
  return (int64_t)t->nstr++;
}

static uint64_t loc_id(tabs *t, int fn, int line) {
  uint64_t key = (uint64_t)fn * 1000 + (uint64_t)line;
  for (size_t i = 0; i < t->nloc; i++) /* few hundred a file */
    if (t->loc_key[i] == key) return i + 1;
  if (t->nloc == t->caploc) {
    t->caploc = t->caploc ? 2 * t->caploc : 256;
    t->loc_key = realloc(t->loc_key, t->caploc * sizeof *t->loc_key);
    if (!t->loc_key) die("out of memory");
  }
  t->loc_key[t->nloc++] = key;
  if (!t->fid[fn]) {
    int f = fn % NFILE;
    if (!t->sid_file[f]) t->sid_file[f] = (int)str_add(t, ffile[f]);
    t->sid_fn[fn] = (int)str_add(t, fname[fn]);
    t->fid[fn] = 1;
  }
  return t->nloc;
}

static void write_minute(const char *dir, int64_t t0, int minute, int nfiles, int ticks) {
  char path[4096], stamp[32];
  time_t ts = (time_t)(t0 + 60LL * minute);
  struct tm tm;
  gmtime_r(&ts, &tm);
  strftime(stamp, sizeof stamp, "%Y%m%dT%H%MZ", &tm);
  snprintf(path, sizeof path, "%s/cpu-%s.pb.gz", dir, stamp);
  tabs t;
  memset(&t, 0, sizeof t);
  str_add(&t, "");
  int64_t s_samples = str_add(&t, "samples"), s_count = str_add(&t, "count");
  int64_t s_cpu = str_add(&t, "cpu"), s_ns = str_add(&t, "nanoseconds");
  /* this minute's ticks: a skewed choice (a hot set of ~30 stacks that
   * drifts over the day, and a long tail) */
  static int64_t count[NSTACK];
  memset(count, 0, sizeof count);
  int hot0 = (int)((int64_t)minute * (NSTACK - 30) / (nfiles > 1 ? nfiles - 1 : 1));
  int n = ticks / 2 + (int)(rnd() % (uint64_t)(ticks + 1)); /* load varies */
  for (int i = 0; i < n; i++) {
    uint64_t r = rnd();
    int s = (r & 3) ? hot0 + (int)((r >> 8) % 30) : (int)((r >> 8) % NSTACK);
    count[s]++;
  }
  /* samples, leaf first */
  size_t nsm = 0;
  for (int s = 0; s < NSTACK; s++) nsm += count[s] != 0;
  Perftools__Profiles__Sample *sm = xcalloc(nsm, sizeof *sm);
  Perftools__Profiles__Sample **smp = xcalloc(nsm, sizeof *smp);
  uint64_t *ids = xcalloc(nsm * MAXDEPTH, sizeof *ids);
  int64_t *vals = xcalloc(nsm * 2, sizeof *vals);
  size_t k = 0;
  for (int s = 0; s < NSTACK; s++) {
    if (!count[s]) continue;
    const stack *st = &stacks[s];
    perftools__profiles__sample__init(&sm[k]);
    for (int j = 0; j < st->n; j++)
      ids[k * MAXDEPTH + j] = loc_id(&t, st->fn[st->n - 1 - j], st->line[st->n - 1 - j]);
    sm[k].n_location_id = (size_t)st->n;
    sm[k].location_id = ids + k * MAXDEPTH;
    vals[2 * k] = count[s];
    vals[2 * k + 1] = count[s] * PERIOD_NS;
    sm[k].n_value = 2;
    sm[k].value = vals + 2 * k;
    smp[k] = &sm[k];
    k++;
  }
  /* functions in order of first use, locations with one line each */
  Perftools__Profiles__Function *fn = xcalloc(NFN, sizeof *fn);
  Perftools__Profiles__Function **fnp = xcalloc(NFN, sizeof *fnp);
  int nfn = 0, fid[NFN] = {0};
  Perftools__Profiles__Location *loc = xcalloc(t.nloc, sizeof *loc);
  Perftools__Profiles__Location **locp = xcalloc(t.nloc, sizeof *locp);
  Perftools__Profiles__Line *ln = xcalloc(t.nloc, sizeof *ln);
  Perftools__Profiles__Line **lnp = xcalloc(t.nloc, sizeof *lnp);
  for (size_t i = 0; i < t.nloc; i++) {
    int f = (int)(t.loc_key[i] / 1000), line = (int)(t.loc_key[i] % 1000);
    if (!fid[f]) {
      fid[f] = ++nfn;
      perftools__profiles__function__init(&fn[nfn - 1]);
      fn[nfn - 1].id = (uint64_t)nfn;
      fn[nfn - 1].name = fn[nfn - 1].system_name = t.sid_fn[f];
      fn[nfn - 1].filename = t.sid_file[f % NFILE];
      fn[nfn - 1].start_line = 1 + f % 7;
      fnp[nfn - 1] = &fn[nfn - 1];
    }
    perftools__profiles__line__init(&ln[i]);
    ln[i].function_id = (uint64_t)fid[f];
    ln[i].line = line;
    lnp[i] = &ln[i];
    perftools__profiles__location__init(&loc[i]);
    loc[i].id = i + 1;
    loc[i].address = 0x401000 + 16 * t.loc_key[i];
    loc[i].n_line = 1;
    loc[i].line = &lnp[i];
    locp[i] = &loc[i];
  }
  Perftools__Profiles__ValueType vt[2], pt;
  Perftools__Profiles__ValueType *vtp[2] = {&vt[0], &vt[1]};
  perftools__profiles__value_type__init(&vt[0]);
  perftools__profiles__value_type__init(&vt[1]);
  perftools__profiles__value_type__init(&pt);
  vt[0].type = s_samples;
  vt[0].unit = s_count;
  vt[1].type = pt.type = s_cpu;
  vt[1].unit = pt.unit = s_ns;
  Perftools__Profiles__Profile p = PERFTOOLS__PROFILES__PROFILE__INIT;
  p.n_sample_type = 2;
  p.sample_type = vtp;
  p.n_sample = nsm;
  p.sample = smp;
  p.n_location = t.nloc;
  p.location = locp;
  p.n_function = (size_t)nfn;
  p.function = fnp;
  p.n_string_table = t.nstr;
  p.string_table = t.str;
  p.time_nanos = (int64_t)ts * 1000000000LL;
  p.duration_nanos = 60000000000LL;
  p.period_type = &pt;
  p.period = PERIOD_NS;
  size_t len = perftools__profiles__profile__get_packed_size(&p);
  uint8_t *buf = xcalloc(len, 1);
  perftools__profiles__profile__pack(&p, buf);
  gzFile z = gzopen(path, "wb6");
  if (!z || gzwrite(z, buf, (unsigned)len) != (int)len || gzclose(z) != Z_OK) die("write error");
  free(buf);
  for (size_t i = 0; i < t.nstr; i++) free(t.str[i].data);
  free(t.str);
  free(t.loc_key);
  free(sm);
  free(smp);
  free(ids);
  free(vals);
  free(fn);
  free(fnp);
  free(loc);
  free(locp);
  free(ln);
  free(lnp);
}

int main(int argc, char **argv) {
  const char *out = NULL;
  int files = 1440, ticks = 600;
  int64_t start = 1795392000; /* 2026-11-23T00:00:00Z */
  uint64_t seed = 32;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!v) die("an option without its value");
    if (!strcmp(a, "--out")) out = v;
    else if (!strcmp(a, "--files")) files = atoi(v);
    else if (!strcmp(a, "--samples")) ticks = atoi(v);
    else if (!strcmp(a, "--start")) start = atoll(v);
    else if (!strcmp(a, "--seed")) seed = strtoull(v, NULL, 10);
    else die("usage: gen_day --out DIR [--files N] [--samples S] [--start EPOCH] [--seed X]");
    i++;
  }
  if (!out || files < 1 || ticks < 1) die("usage: gen_day --out DIR [--files N] [--samples S]");
  rs = seed;
  make_program();
  for (int m = 0; m < files; m++) write_minute(out, start, m, files, ticks);
  return 0;
}
