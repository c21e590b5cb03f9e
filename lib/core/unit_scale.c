/* unit_scale.c — go tool pprof's unit families and conversions
 * (internal/measurement: Scale, sniffUnit): bytes (B kB MB GB TB PB, powers
 * of 1024), time (ns us ms s hrs) and Google compute units; any other unit
 * (count, samples, ...) is left as it is.  pcol's time family also has fs
 * and ps, spelled so (a Perun real amount in ms or us is stored in them,
 * perun_import.c; go tool pprof prints them unscaled, and pcol prints a
 * pprof profile's "picoseconds" unscaled as go does), and a value's unit (`from`) may be a
 * decimal unit "1e-D U" of a family's U (count.c pcol_unit_decimals: U /
 * 10^D, a speedscope time finer than a ns or a Perun amount), which scales
 * as that fraction of U: "1e-9 milliseconds" is ps.  In core because the
 * label filters convert a range's unit ("bytes=1kb:") as pprof does; the
 * text views (query/units.c) print with it. */
#include "pcol.h"
#include "count.h" /* pcol_unit_decimals, pcol_unit_ns */
#include <ctype.h>
#include <math.h>
#include <string.h>

typedef struct unit_def {
  const char *name;       /* canonical, as printed */
  const char *aliases[4]; /* lower case */
  double factor;
} unit_def;

typedef struct unit_family {
  const unit_def *units;
  int n;
  int dflt; /* index of the default unit */
} unit_family;

static const unit_def bytes_u[] = {
    {"B", {"b", "byte"}, 1},
    {"kB", {"kb", "kbyte", "kilobyte"}, 1024.0},
    {"MB", {"mb", "mbyte", "megabyte"}, 1048576.0},
    {"GB", {"gb", "gbyte", "gigabyte"}, 1073741824.0},
    {"TB", {"tb", "tbyte", "terabyte"}, 1099511627776.0},
    {"PB", {"pb", "pbyte", "petabyte"}, 1125899906842624.0},
};
static const unit_def time_u[] = {
    /* (the short names only: a pprof profile's "picoseconds" is no unit go
     * tool pprof knows, and pcol prints it raw as go does) */
    {"fs", {"fs"}, 1e-6},
    {"ps", {"ps"}, 1e-3},
    {"ns", {"ns", "nanosecond"}, 1},
    {"us", {"\xce\xbcs", "us", "microsecond"}, 1e3},
    {"ms", {"ms", "millisecond"}, 1e6},
    {"s", {"s", "sec", "second"}, 1e9},
    {"hrs", {"hour", "hr"}, 3600e9},
};
static const unit_def gcu_u[] = {
    {"n*GCU", {"nanogcu"}, 1e-9}, {"u*GCU", {"microgcu"}, 1e-6}, {"m*GCU", {"milligcu"}, 1e-3},
    {"GCU", {"gcu"}, 1},          {"k*GCU", {"kilogcu"}, 1e3},   {"M*GCU", {"megagcu"}, 1e6},
    {"G*GCU", {"gigagcu"}, 1e9},  {"T*GCU", {"teragcu"}, 1e12},  {"P*GCU", {"petagcu"}, 1e15},
};
static const unit_family families[] = {
    {bytes_u, 6, 0},
    {time_u, 7, 5},
    {gcu_u, 9, 3},
};

/* pprof's sniffUnit: lower case, a plural 's' dropped past two letters. */
static const unit_def *sniff_uncached(const unit_family *fam, const char *u, size_t len);
/* A view labels thousands of numbers in one unit: the last answer per
 * family is kept (per thread), keyed by the unit's bytes. */
static const unit_def *sniff(const unit_family *fam, const char *u, size_t len) {
  static _Thread_local struct {
    char u[32];
    size_t len;
    const unit_def *r;
    int set;
  } last[sizeof families / sizeof *families];
  size_t f = (size_t)(fam - families);
  if (!u || len == 0 || len >= sizeof last[0].u) return NULL;
  if (last[f].set && last[f].len == len && !memcmp(last[f].u, u, len)) return last[f].r;
  const unit_def *r = sniff_uncached(fam, u, len);
  memcpy(last[f].u, u, len);
  last[f].len = len;
  last[f].r = r;
  last[f].set = 1;
  return r;
}

static const unit_def *sniff_uncached(const unit_family *fam, const char *u, size_t len) {
  char b[32];
  if (!u || len == 0 || len >= sizeof b) return NULL;
  for (size_t i = 0; i < len; i++) b[i] = (char)tolower((unsigned char)u[i]);
  if (len > 2 && b[len - 1] == 's') len--;
  b[len] = 0;
  for (int i = 0; i < fam->n; i++)
    for (int k = 0; k < 4 && fam->units[i].aliases[k]; k++)
      if (!strcmp(b, fam->units[i].aliases[k])) return &fam->units[i];
  return NULL;
}

/* The unit of family fam that a value's unit `from` names, and what one of
 * it is in that unit (*frac: 10^-D for a decimal unit "1e-D U", else 1). */
static const unit_def *sniff_from(const unit_family *fam, pcol_str from, double *frac) {
  pcol_str shown;
  int dec = pcol_unit_decimals(from, &shown);
  static const double tenths[] = {1, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9}; /* (as units.js) */
  *frac = tenths[dec];
  return sniff(fam, shown.ptr, shown.len);
}

static int is_auto(const char *to) {
  return !strcmp(to, "minimum") || !strcmp(to, "auto");
}

double pcol_unit_scale(pcol_sum v, pcol_str from, const char *to, const char **out_unit) {
  /* measurement.Scale negates a value below 0 when -value > 0, which
   * int64's MinInt64 is not: it scales as it is, into the family's default
   * unit (what -divide_by's int64() of an overflow gives, pcol_unit_ratio) */
  if (v < 0 && v != INT64_MIN) {
    double r = pcol_unit_scale(-v, from, to, out_unit);
    return -r;
  }
  for (size_t f = 0; f < sizeof families / sizeof *families; f++) {
    const unit_family *fam = &families[f];
    double frac;
    const unit_def *fu = sniff_from(fam, from, &frac);
    if (!fu) continue;
    double x = (double)v * fu->factor * frac;
    if (is_auto(to)) {
      double best = 0;
      const char *name = NULL;
      for (int i = 0; i < fam->n; i++)
        if (fam->units[i].factor >= best && x / fam->units[i].factor >= 1.0) {
          best = fam->units[i].factor;
          name = fam->units[i].name;
        }
      if (name) {
        *out_unit = name;
        return x / best;
      }
      *out_unit = fam->units[fam->dflt].name;
      return x / fam->units[fam->dflt].factor;
    }
    const unit_def *tu = sniff(fam, to, strlen(to));
    if (!tu) tu = &fam->units[fam->dflt];
    *out_unit = tu->name;
    return x / tu->factor;
  }
  if (!strcmp(to, "count") || !strcmp(to, "sample") || !strcmp(to, "unit") || is_auto(to))
    *out_unit = "";
  else
    *out_unit = to;
  return (double)v;
}

bool pcol_unit_known(pcol_str unit) {
  double frac;
  for (size_t f = 0; f < sizeof families / sizeof *families; f++)
    if (sniff_from(&families[f], unit, &frac)) return true;
  return false;
}

int64_t pcol_unit_ns(pcol_str u) {
  if (!u.ptr || !u.len || pcol_unit_decimals(u, NULL)) return 0; /* (not a decimal unit's fraction) */
  double frac;
  const unit_def *d = sniff_from(&families[1], u, &frac); /* (the time family) */
  return d && d->factor >= 1 && d->factor < 1e15 ? (int64_t)llround(d->factor) : 0;
}

double pcol_unit_base(pcol_str from, pcol_str *base, int *decimals) {
  static const double p10[] = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
  pcol_str shown;
  int dec = pcol_unit_decimals(from, &shown);
  if (decimals) *decimals = dec;
  for (size_t f = 0; f < sizeof families / sizeof *families; f++) {
    const unit_def *fu = sniff(&families[f], shown.ptr, shown.len);
    if (!fu) continue;
    const unit_def *bu = &families[f].units[families[f].dflt];
    *base = (pcol_str){bu->name, strlen(bu->name)};
    /* (the base's factor over the unit's, exact for ns, us, ms, s, B and
     * kB...PB: a sum in ns / 1e9, as a division by the literal) */
    return bu->factor / fu->factor * p10[dec];
  }
  *base = dec && !shown.len ? (pcol_str){"count", 5} : shown;
  return p10[dec];
}

int pcol_unit_family(pcol_str u, double *factor) {
  *factor = 0;
  if (!u.ptr || !u.len || pcol_unit_decimals(u, NULL)) return 0; /* (pprof has no decimal unit) */
  for (size_t f = 0; f < sizeof families / sizeof *families; f++) {
    const unit_def *d = sniff(&families[f], u.ptr, u.len);
    if (!d) continue;
    if (&families[f] == &families[1] && d->factor < 1) return 0; /* pcol's fs, ps: no unit of go's */
    *factor = d->factor;
    return (int)f + 1;
  }
  return 0;
}

int pcol_unit_common(pcol_str a, pcol_str b, double *b_in_a) {
  *b_in_a = 1;
  if (a.len == b.len && (!a.len || !memcmp(a.ptr, b.ptr, a.len))) return 1;
  double fa, fb;
  int ka = pcol_unit_family(a, &fa), kb = pcol_unit_family(b, &fb);
  if (!ka || ka != kb) return 0;
  *b_in_a = 1 * fb / fa; /* (measurement.Scale(1, b, a): float64(1) x from's factor / to's) */
  return 1;
}

int64_t pcol_unit_fill(int64_t v, double ratio) {
  double x = round((double)v * ratio);
  return x >= -0x1p63 && x < 0x1p63 ? (int64_t)x : INT64_MIN;
}

bool pcol_unit_valid_target(pcol_str from, const char *to) {
  if (is_auto(to) || !strcmp(to, "raw")) return true;
  double frac;
  for (size_t f = 0; f < sizeof families / sizeof *families; f++)
    if (sniff_from(&families[f], from, &frac)) return sniff(&families[f], to, strlen(to)) != NULL;
  return false;
}


/* pprof's -divide_by F, the one rule of pcol's views (their --divide-by,
 * the shell's divide_by=) and of the pprof export (pcol_export_options
 * ratio: unpack --divide-by), as go tool pprof applies it (in core so that
 * lib/convert/pprof applies the same rule):
 *   driver.go reportOptions: F = 0 is an error ("zero divisor specified");
 *     report.Options.Ratio = 1/F;
 *   report.go New (format): each number a report prints through
 *     rpt.formatValue is int64(float64(v) * Ratio), truncated toward 0,
 *     when Ratio > 0 and Ratio != 1 (a negative F is silently ignored);
 *   report.go selectOutputUnit: the smallest |flat| (else |cum|) and the
 *     total are scaled the same way before the unit is chosen
 *     (pcol_unit_pick_ratio);
 *   printProto (-proto) writes every value of every sample scaled
 *     (-raw and -topproto print them unscaled).
 * Through formatValue go: top's rows, peek's and tree's nodes and calls,
 * traces' values, list's lines, blocks and "Total:", dot's nodes, calls and
 * label boxes' weights, and the headers' "Total samples = X" (Duration
 * line), "Showing nodes accounting for X, P% of T total" and "Dropped N
 * nodes (cum <= X)" / "edges (freq <= X)" (X = int64(total x fraction),
 * then scaled).  Not scaled: every percentage (of the unscaled values and
 * total), the Duration line's share, -tags (printTags prints
 * measurement.Scale of the sums: -divide_by changes nothing there) and
 * -callgrind's numbers (measurement.Scale of the unscaled values, in the
 * unit chosen from the scaled ones).  Go's int64() of a float out of
 * int64's range (or NaN) is MinInt64 on amd64: the same here. */
pcol_sum pcol_unit_ratio(pcol_sum v, double ratio) {
  if (!(ratio > 0) || ratio == 1) return v;
  double x = (double)v * ratio;
  return x >= -0x1p63 && x < 0x1p63 ? (pcol_sum)(int64_t)x : (pcol_sum)INT64_MIN;
}
