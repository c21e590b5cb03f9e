/* svgplot.c — log-log line plots as a standalone SVG (no plotting library).
 *
 *   svgplot TITLE < points.tsv > plot.svg
 *
 * Input lines: PANEL <TAB> SERIES <TAB> X <TAB> Y   (X = samples, Y = seconds)
 * One panel per distinct PANEL (in order of first appearance), one polyline
 * per SERIES inside it; the same series name gets the same colour in every
 * panel.  Axes are decades; y tick labels in s/ms/µs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXP 8
#define MAXS 16
#define MAXPTS 4096

typedef struct {
  int panel, series;
  double x, y;
} pt;

static char panels[MAXP][64], series[MAXS][96];
static int npanels, nseries;
static pt pts[MAXPTS];
static int npts;

static int intern(char names[][96], int *n, int max, const char *s, size_t w) {
  for (int i = 0; i < *n; i++)
    if (!strcmp(names[i], s)) return i;
  if (*n >= max) return -1;
  snprintf(names[*n], w, "%s", s);
  return (*n)++;
}

static const char *colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
                                "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

static void xml(const char *s) {
  for (; *s; s++) {
    if (*s == '<') fputs("&lt;", stdout);
    else if (*s == '>') fputs("&gt;", stdout);
    else if (*s == '&') fputs("&amp;", stdout);
    else putchar(*s);
  }
}

static void fmt_time(double s, char *buf, size_t n) {
  if (s >= 1) snprintf(buf, n, "%gs", s);
  else if (s >= 1e-3) snprintf(buf, n, "%gms", s * 1e3);
  else snprintf(buf, n, "%gµs", s * 1e6);
}
static void fmt_count(double x, char *buf, size_t n) {
  if (x >= 1e6) snprintf(buf, n, "%gM", x / 1e6);
  else if (x >= 1e3) snprintf(buf, n, "%gk", x / 1e3);
  else snprintf(buf, n, "%g", x);
}

int main(int argc, char **argv) {
  const char *title = argc > 1 ? argv[1] : "pcol benchmarks";
  char line[512];
  while (fgets(line, sizeof line, stdin) && npts < MAXPTS) {
    char *f[4], *save = NULL, *p = line;
    int k = 0;
    line[strcspn(line, "\n")] = 0;
    for (char *tok; k < 4 && (tok = strtok_r(p, "\t", &save)); p = NULL) f[k++] = tok;
    if (k < 4) continue;
    double x = atof(f[2]), y = atof(f[3]);
    if (!(x > 0) || !(y > 0)) continue;
    int pi = -1;
    for (int i = 0; i < npanels; i++)
      if (!strcmp(panels[i], f[0])) pi = i;
    if (pi < 0 && npanels < MAXP) {
      snprintf(panels[npanels], sizeof panels[0], "%s", f[0]);
      pi = npanels++;
    }
    int si = intern(series, &nseries, MAXS, f[1], sizeof series[0]);
    if (pi < 0 || si < 0) continue;
    pts[npts++] = (pt){pi, si, x, y};
  }
  const double PW = 360, PH = 300, ML = 70, MR = 20, MT = 50, MB = 60, LEG = 16;
  int cols = npanels ? npanels : 1;
  double W = cols * (PW + ML + MR), H = MT + PH + MB + LEG * (nseries + 1) + 20;
  printf("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  printf("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
         "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n",
         W, H, W, H);
  printf("<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
  printf("<text x=\"%.0f\" y=\"20\" font-size=\"15\" text-anchor=\"middle\">", W / 2);
  xml(title);
  printf("</text>\n");
  for (int p = 0; p < npanels; p++) {
    double x0 = p * (PW + ML + MR) + ML, y0 = MT;
    double lx0 = 1e300, lx1 = -1e300, ly0 = 1e300, ly1 = -1e300;
    for (int i = 0; i < npts; i++) {
      if (pts[i].panel != p) continue;
      double lx = log10(pts[i].x), ly = log10(pts[i].y);
      lx0 = fmin(lx0, lx), lx1 = fmax(lx1, lx), ly0 = fmin(ly0, ly), ly1 = fmax(ly1, ly);
    }
    lx0 = floor(lx0), lx1 = ceil(lx1), ly0 = floor(ly0), ly1 = ceil(ly1);
    if (lx1 <= lx0) lx1 = lx0 + 1;
    if (ly1 <= ly0) ly1 = ly0 + 1;
#define SX(v) (x0 + (log10(v) - lx0) / (lx1 - lx0) * PW)
#define SY(v) (y0 + PH - (log10(v) - ly0) / (ly1 - ly0) * PH)
    printf("<g>\n<text x=\"%.1f\" y=\"%.1f\" font-size=\"14\" text-anchor=\"middle\">", x0 + PW / 2,
           y0 - 12);
    xml(panels[p]);
    printf("</text>\n<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#333\"/>\n",
           x0, y0, PW, PH);
    char buf[32];
    for (double d = lx0; d <= lx1 + 1e-9; d++) {
      double sx = x0 + (d - lx0) / (lx1 - lx0) * PW;
      fmt_count(pow(10, d), buf, sizeof buf);
      printf("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
             "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
             sx, y0, sx, y0 + PH, sx, y0 + PH + 16, buf);
    }
    for (double d = ly0; d <= ly1 + 1e-9; d++) {
      double sy = y0 + PH - (d - ly0) / (ly1 - ly0) * PH;
      fmt_time(pow(10, d), buf, sizeof buf);
      printf("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
             "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
             x0, sy, x0 + PW, sy, x0 - 6, sy + 4, buf);
    }
    printf("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">samples in the profile</text>\n", x0 + PW / 2,
           y0 + PH + 36);
    printf("<text transform=\"translate(%.1f,%.1f) rotate(-90)\" text-anchor=\"middle\">time (log)</text>\n",
           x0 - 52, y0 + PH / 2);
    for (int s = 0; s < nseries; s++) {
      int any = 0;
      /* points of this series, sorted by x (input order is by size already,
       * but sort anyway: a simple insertion pass over a few points) */
      pt sel[64];
      int ns = 0;
      for (int i = 0; i < npts && ns < 64; i++)
        if (pts[i].panel == p && pts[i].series == s) sel[ns++] = pts[i];
      for (int i = 1; i < ns; i++)
        for (int j = i; j > 0 && sel[j].x < sel[j - 1].x; j--) {
          pt t = sel[j];
          sel[j] = sel[j - 1];
          sel[j - 1] = t;
        }
      const char *c = colours[s % 10];
      if (ns > 1) {
        printf("<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", c);
        for (int i = 0; i < ns; i++) printf("%.1f,%.1f ", SX(sel[i].x), SY(sel[i].y));
        printf("\"/>\n");
      }
      for (int i = 0; i < ns; i++, any = 1)
        printf("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>%g samples: %g s</title></circle>\n",
               SX(sel[i].x), SY(sel[i].y), c, sel[i].x, sel[i].y);
      (void)any;
    }
    printf("</g>\n");
#undef SX
#undef SY
  }
  for (int s = 0; s < nseries; s++) {
    double ly = MT + PH + MB + LEG * s + 10;
    printf("<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"3\"/>"
           "<text x=\"%.0f\" y=\"%.1f\">",
           ML, ly, ML + 24, ly, colours[s % 10], ML + 30, ly + 4);
    xml(series[s]);
    printf("</text>\n");
  }
  printf("</svg>\n");
  return 0;
}
