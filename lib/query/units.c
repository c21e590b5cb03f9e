/* units.c — human units for the text views, by go tool pprof's rules
 * (internal/measurement: ScaledLabel, Percentage; internal/report:
 * selectOutputUnit), so that `pcol top` prints "1.23s" and "45.60MB" where
 * pprof does, and the same percentages; the unit families and conversions
 * are core's (unit_scale.c: pcol_unit_scale). */
#include "query.h"
#include "count.h"    /* pcol_decimal_text, pcol_unit_decimals */
#include <math.h>
#include <stdio.h>
#include <string.h>

void pcol_q_label_scaled(pcol_sum v, pcol_str from, const char *to, char *buf, size_t n) {
  /* pprof's ScaledLabel knows no "raw": a unit family falls back to its
   * default unit (unit.go convertUnit: "663552B"), no family prints the
   * number and the unit asked ("7raw"); pcol's views read raw as "no
   * scaling" (pcol_unit_label) */
  if (to && !strcmp(to, "raw")) {
    if (pcol_unit_known(from)) {
      pcol_unit_label(v, from, "(the family's default)", buf, n);
    } else {
      char num[48];
      pcol_sum_text(v, num, sizeof num);
      snprintf(buf, n, "%sraw", num);
    }
    return;
  }
  pcol_unit_label(v, from, to ? to : "minimum", buf, n);
}

void pcol_unit_label(pcol_sum v, pcol_str from, const char *to, char *buf, size_t n) {
  /* a decimal unit ("1e-9", "1e-9 B": collapsed decimal counts, Perun real
   * amounts) holds v x 10^9: the value as given is v / 10^9 (the core rule) */
  pcol_str shown;
  int dec = pcol_unit_decimals(from, &shown);
  if (dec && (!strcmp(to, "raw") || !pcol_unit_known(shown))) {
    pcol_decimal_text(buf, n, v, dec);
    return;
  }
  if (!strcmp(to, "raw")) {
    pcol_sum_text(v, buf, n);
    return;
  }
  const char *u;
  if (!dec && !pcol_unit_known(from)) { /* no unit family: the number exactly, as pprof */
    (void)pcol_unit_scale(v, from, to, &u);
    char num[48];
    pcol_sum_text(v, num, sizeof num);
    snprintf(buf, n, "%s%s", num, u);
    return;
  }
  /* a unit to pick ("auto", "minimum"): from the value itself (a decimal
   * unit scales as its fraction of U: pcol_unit_scale), not from v x 10^D */
  int pick = !strcmp(to, "auto") || !strcmp(to, "minimum");
  double x = dec && !pick ? pcol_unit_scale(v, shown, to, &u) / pow(10, dec) : pcol_unit_scale(v, from, to, &u);
  char num[64];
  snprintf(num, sizeof num, "%.2f", x);
  size_t l = strlen(num);
  if (l >= 3 && !strcmp(num + l - 3, ".00")) num[l - 3] = 0;
  if (!strcmp(num, "0") || !strcmp(num, "-0")) {
    snprintf(buf, n, "0");
    return;
  }
  snprintf(buf, n, "%s%s", num, u);
}

/* A unit of no family as the views print it (the file's own text): at most
 * 31 bytes, cut by THE cut rule (pcol_utf8_cut: never inside a character,
 * where the page's pcolUtf8Cut cuts it), and at most n - 1; a broken byte
 * stays, for each output to show as it shows a name's (svg.c '?', the
 * text rule \xNN, the page U+FFFD); a NUL, which a C string cannot hold,
 * is '?', what svg.c shows for a name's. */
static void unit_text(pcol_str u, char *out, size_t n) {
  if (!n) return;
  size_t k = u.ptr ? pcol_utf8_cut(u.ptr, u.len, n - 1 < 31 ? n - 1 : 31) : 0;
  for (size_t i = 0; i < k; i++) out[i] = u.ptr[i] ? u.ptr[i] : '?';
  out[k] = 0;
}

void pcol_unit_label_alone(pcol_sum v, pcol_str from, char *buf, size_t n) {
  pcol_str shown;
  int dec = pcol_unit_decimals(from, &shown);
  if (pcol_unit_known(shown)) {
    pcol_unit_label(v, from, "minimum", buf, n);
    return;
  }
  if (v == 0) { /* ScaledLabel: "0" without a unit */
    snprintf(buf, n, "0");
    return;
  }
  /* selectOutputUnit: no family, so the output unit is the sample's own
   * (unit_text, as pcol_unit_pick); Scale prints it, but count, sample, unit */
  char num[64], to[32];
  const char *u;
  pcol_decimal_text(num, sizeof num, v, dec);
  unit_text(shown, to, sizeof to);
  (void)pcol_unit_scale(v, shown, to, &u);
  snprintf(buf, n, "%s%s", num, u);
}

void pcol_percentage(pcol_sum v, pcol_sum total, char *buf, size_t n) {
  double r = 0;
  if (total != 0) r = fabs((double)v / (double)total) * 100;
  if (r >= 99.95 && r <= 100.05) snprintf(buf, n, "  100%%");
  else if (r >= 1.0) snprintf(buf, n, "%5.2f%%", r);
  else snprintf(buf, n, "%5.2g%%", r);
}

/* report.go selectOutputUnit; whole: for callgrind, whose values are
 * integers, the minimum is not scaled by 100; ratio: -divide_by's
 * (pcol_unit_ratio), applied to the minimum and the total.  No values (no
 * node left): "minimum", pprof's OutputUnit left as it was ("if
 * o.OutputUnit != "minimum" || len(g.Nodes) == 0 { return }"), so each
 * number (the total, "Dropped N nodes (cum <= X)") is scaled on its own;
 * callgrind prints the word. */
static void unit_pick(const pcol_sum *vals, size_t nvals, pcol_sum total, pcol_str from, int whole,
                      double ratio, char *out, size_t n) {
  if (!nvals) {
    snprintf(out, n, "minimum");
    return;
  }
  pcol_sum minv = 0;
  for (size_t i = 0; i < nvals; i++) {
    pcol_sum a = vals[i] < 0 ? -vals[i] : vals[i];
    if (a > 0 && (minv == 0 || a < minv)) minv = a;
  }
  pcol_sum maxv = total;
  if (minv == 0) minv = maxv;
  minv = pcol_unit_ratio(minv, ratio);
  maxv = pcol_unit_ratio(maxv, ratio);
  const char *umin, *umax, *u;
  (void)pcol_unit_scale(minv, from, "minimum", &umin);
  (void)pcol_unit_scale(maxv, from, "minimum", &umax);
  u = umin;
  if (!whole && strcmp(umin, umax) && minv * 100 < maxv)
    (void)pcol_unit_scale(100 * minv, from, "minimum", &u);
  if (!*u) /* no family: the sample's own unit (a count prints as it is) */
    unit_text(from, out, n);
  else
    snprintf(out, n, "%s", u);
}

void pcol_unit_pick(const pcol_sum *vals, size_t nvals, pcol_sum total, pcol_str from, char *out,
                    size_t n) {
  unit_pick(vals, nvals, total, from, 0, 1, out, n);
}

void pcol_unit_pick_whole(const pcol_sum *vals, size_t nvals, pcol_sum total, pcol_str from,
                          char *out, size_t n) {
  unit_pick(vals, nvals, total, from, 1, 1, out, n);
}

void pcol_unit_pick_ratio(const pcol_sum *vals, size_t nvals, pcol_sum total, pcol_str from,
                          bool whole, double ratio, char *out, size_t n) {
  unit_pick(vals, nvals, total, from, whole, ratio, out, n);
}
