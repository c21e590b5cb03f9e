/* cmd_graph.c — `pcol graph FILE`: the call graph as go tool pprof -dot
 * writes it (report.go printDOT, graph/dotgraph.go ComposeDot), from
 * pcol_graph_compute; --format svg|png pipes the DOT text through
 * graphviz's `dot`.  Every string from the file goes through the text rule
 * (cli_text_buf: control bytes and bad UTF-8 as \xNN) and then DOT's
 * escapes (\ and "), so a name cannot end a DOT string or add a line;
 * so do the values, whose unit may be the file's (fmt_value, dot_value). */
#include "cli.h"
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

const cli_opt opts_graph[] = {
    {"output", 'o', 1, "output file (default: standard output; written to a temporary file and renamed)"},
    {"format", 0, 1, "dot (default: the DOT text of go tool pprof -dot), svg or png (through graphviz's "
                     "`dot`, which must be installed; the default when -o names a *.svg or *.png file); "
                     "callgrind (go tool pprof -callgrind, for "
                     "KCachegrind; the default when -o names a *.callgrind or callgrind.out.* file); "
                     "json, jsonl, tsv or csv: the nodes and edges with "
                     "raw numbers (a row each: kind node or edge, name, from, to, flat, cum, weight, "
                     "inline, residual)"},
    {"by", 0, 1, CLI_BY_HELP ".  A frame without a line (Rprof's <GC>, a builtin) is a node of its own "
                 "with its own flat, as pprof -dot -lines has it (the report page's graph too), where `top "
                 "--by line` gives that flat to the innermost calling line (a note says so)" CLI_NAMELESS_BY_FN_HELP},
    CLI_OPT_VALUE("to add up"),
    CLI_OPTS_PRUNE,
    CLI_OPT_TAGKEYS("label boxes"),
    CLI_OPT_UNIT,
    CLI_OPT_MEAN,
    CLI_OPT_DROP_NEGATIVE,
    CLI_OPT_DIVIDE_BY,
    CLI_OPTS_VIEW_INPUT,
    {NULL, 0, 0, NULL}};
CLI_OPTS_FIT(opts_graph);

/* DOT's escapes in a "..." string: \ and " escaped, a newline as pprof's
 * \l (dotgraph.go escapeForDot). */
static void dot_esc(FILE *fp, const char *p, size_t n) {
  for (size_t i = 0; i < n; i++) {
    char c = p[i];
    if (c == '\\' || c == '"') {
      fputc('\\', fp);
      fputc(c, fp);
    } else if (c == '\n') {
      fputs("\\l", fp);
    } else {
      fputc(c, fp);
    }
  }
}
/* A string from the file in a DOT string: the text rule first (control
 * bytes and bad UTF-8 as \xNN, a newline as the two characters \n), then
 * DOT's escapes; iso: a name in running text, isolated where it needs it
 * (cli.h cli_iso_needed). */
static void dot_text(FILE *fp, const char *p, size_t n, int iso) {
  size_t cap = 4 * n + 1; /* \xNN: at most 4 bytes a byte */
  char *t = n ? malloc(cap) : NULL;
  if (!t) {
    for (size_t i = 0; i < n; i++) fputc('?', fp);
    return;
  }
  size_t m = cli_text_buf(p, n, t, cap);
  iso = iso && cli_iso_needed(t, m);
  if (iso) fputs(CLI_FSI, fp);
  dot_esc(fp, t, m);
  if (iso) fputs(CLI_PDI, fp);
  free(t);
}
static void dot_put(FILE *fp, const char *p, size_t n) { dot_text(fp, p, n, 0); }
static void dot_str(FILE *fp, pcol_str s) { dot_put(fp, s.ptr ? s.ptr : "", s.ptr ? s.len : 0); }
/* A name in a tooltip's running text ("A -> B (5ms)", "A (5ms)"):
 * isolated (cli.h CLI_FSI) where it holds more than ASCII, so its
 * right-to-left letters cannot reorder the arrow, the other name or the
 * value (review 22 F2; go tool pprof does not isolate, and an ASCII name
 * keeps its bytes) */
static void dot_iso(FILE *fp, pcol_str s) { dot_text(fp, s.ptr ? s.ptr : "", s.ptr ? s.len : 0, 1); }

static int is_w(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_up(char c) { return c >= 'A' && c <= 'Z'; }
static int is_lo(char c) { return c >= 'a' && c <= 'z'; }
static size_t word_run(const char *p, size_t i, size_t n, int dollar) {
  while (i < n && (is_w(p[i]) || (dollar && p[i] == '$'))) i++;
  return i;
}

/* graph.go javaRegExp, `^(?:[a-z]\w*\.)*([A-Z][\w\$]*\.(?:<init>|[a-z][\w\$]*(?:\$\d+)?))(?:(?:\()|$)`:
 * lower-case package segments, then Class.method (followed by "(" or the
 * end) is kept: "os.ReadDir.func1" -> "ReadDir.func1".  The segments end at
 * dots, so the first segment that starts upper-case is the class. */
static int java_rule(const char *p, size_t n, size_t *a, size_t *e) {
  size_t i = 0;
  while (i < n && is_lo(p[i])) { /* [a-z]\w*\. */
    size_t j = word_run(p, i + 1, n, 0);
    if (j >= n || p[j] != '.') return 0;
    i = j + 1;
  }
  if (i >= n || !is_up(p[i])) return 0;
  size_t j = word_run(p, i + 1, n, 1);
  if (j >= n || p[j] != '.') return 0;
  j++;
  if (n - j >= 6 && !memcmp(p + j, "<init>", 6)) j += 6;
  else if (j < n && is_lo(p[j])) j = word_run(p, j + 1, n, 1);
  else return 0;
  if (j < n && p[j] != '(') return 0;
  *a = i, *e = j;
  return 1;
}

/* graph.go cppRegExp, `^(?:[_a-zA-Z]\w*::)+(_*[A-Z]\w*::~?[_a-zA-Z]\w*(?:<.*>)?)`:
 * after one or more namespace segments, Class::method (and a template's
 * <...> up to the last '>') is kept: the most segments that leave a match
 * (the regexp's greedy choice). */
static int cpp_rule(const char *p, size_t n, size_t *a, size_t *e) {
  size_t seg[64], ns = 0, i = 0;
  while (ns < 64 && i < n && (p[i] == '_' || is_up(p[i]) || is_lo(p[i]))) { /* [_a-zA-Z]\w*:: */
    size_t j = word_run(p, i + 1, n, 0);
    if (j + 1 >= n || p[j] != ':' || p[j + 1] != ':') break;
    seg[ns++] = i = j + 2;
  }
  for (size_t k = ns; k > 0; k--) {
    size_t c = seg[k - 1], j = c;
    while (j < n && p[j] == '_') j++;
    if (j >= n || !is_up(p[j])) continue;
    j = word_run(p, j + 1, n, 0);
    if (j + 1 >= n || p[j] != ':' || p[j + 1] != ':') continue;
    j += 2;
    if (j < n && p[j] == '~') j++;
    if (j >= n || !(p[j] == '_' || is_up(p[j]) || is_lo(p[j]))) continue;
    j = word_run(p, j + 1, n, 0);
    if (j < n && p[j] == '<') { /* <.*>: to the last '>' before a newline */
      const char *nl = memchr(p + j, '\n', n - j);
      size_t lim = nl ? (size_t)(nl - p) : n, last = 0;
      for (size_t x = j + 1; x < lim; x++)
        if (p[x] == '>') last = x + 1;
      if (last) j = last;
    }
    *a = c, *e = j;
    return 1;
  }
  return 0;
}

/* graph.go ShortenFunctionName: C++'s "(anonymous namespace)::" prefix and
 * Go's module versions (goVerRegExp) go, then the first of goRegExp,
 * javaRegExp and cppRegExp that matches keeps its part: the node's label
 * only (its tooltip keeps the whole name).  Writes into out (cap bytes). */
static size_t shorten(const char *p, size_t n, char *out, size_t cap) {
  static const char anon[] = "(anonymous namespace)::";
  if (n >= sizeof anon - 1 && !memcmp(p, anon, sizeof anon - 1)) {
    p += sizeof anon - 1;
    n -= sizeof anon - 1;
  }
  if (n >= cap) n = cap - 1;
  size_t m = 0;
  /* `^(.*?)/v(?:[2-9]|[1-9][0-9]+)([./].*)$`: the first "/vN" before . or / goes */
  size_t cut = n, cut_len = 0;
  for (size_t i = 0; i + 2 < n && cut == n; i++) {
    if (p[i] != '/' || p[i + 1] != 'v' || p[i + 2] < '1' || p[i + 2] > '9') continue;
    size_t j = i + 3;
    while (j < n && p[j] >= '0' && p[j] <= '9') j++;
    if (j - (i + 2) == 1 && p[i + 2] == '1') continue; /* v1 is no version suffix */
    if (j < n && (p[j] == '.' || p[j] == '/')) {
      cut = i;
      cut_len = j - i;
    }
  }
  for (size_t i = 0; i < n; i++) {
    if (i == cut) i += cut_len;
    if (i < n) out[m++] = p[i];
  }
  /* `^(?:[\w\-\.]+\/)+([^.]+\..+)`: the longest prefix of such segments
   * after which "X.Y" (X without a dot) remains */
  size_t best = 0;
  for (size_t i = 0; i < m; i++) {
    char c = out[i];
    if (c == '/') {
      if (i == 0 || out[i - 1] == '/') break; /* a segment is not empty */
      size_t r = i + 1;                        /* the rest: [^.]+\..+ */
      if (r < m && out[r] != '.') {
        const char *d = memchr(out + r, '.', m - r);
        if (d && (size_t)(d - out) + 1 < m) best = r;
      }
    } else if (!is_w(c) && c != '-' && c != '.') {
      break;
    }
  }
  size_t a = 0, e = 0; /* the part kept: out[a .. e) */
  if (best) {
    a = best, e = m;
  } else if (!java_rule(out, m, &a, &e) && !cpp_rule(out, m, &a, &e)) {
    a = 0, e = m;
  }
  memmove(out, out + a, e - a);
  m = e - a;
  out[m] = 0;
  return m;
}

/* dotgraph.go multilinePrintableName: the short name, a line per "::" and
 * per ".", "[...]" as "[…]" */
static void dot_label_name(FILE *fp, pcol_str name) {
  char *s = malloc(name.len + 1), *t = malloc(name.len + 1);
  if (!s || !t) {
    free(s);
    free(t);
    dot_str(fp, name);
    return;
  }
  size_t n = shorten(name.ptr ? name.ptr : "", name.ptr ? name.len : 0, s, name.len + 1);
  size_t m = 0;
  for (size_t i = 0; i < n;) {
    if (i + 1 < n && s[i] == ':' && s[i + 1] == ':') {
      dot_put(fp, t, m);
      m = 0;
      fputs("\\n", fp);
      i += 2;
    } else if (i + 4 < n && !memcmp(s + i, "[...]", 5)) {
      dot_put(fp, t, m);
      m = 0;
      fputs("[\xe2\x80\xa6]", fp);
      i += 5;
    } else if (s[i] == '.') {
      dot_put(fp, t, m);
      m = 0;
      fputs("\\n", fp);
      i++;
    } else {
      t[m++] = s[i++];
    }
  }
  dot_put(fp, t, m);
  fputs("\\n", fp);
  free(s);
  free(t);
}

static const char *base_name(const char *p, size_t n) {
  const char *b = p;
  for (size_t i = 0; i < n; i++)
    if (p[i] == '/') b = p + i + 1;
  return b;
}

/* dotgraph.go multilinePrintableName over graph.go NameComponents, from
 * the node's name as pcol_top composes it: --by address's "%016x " first;
 * an unsymbolized location's "[binary]" as it is; --by file the file's base
 * name; --by line the function (dot_label_name), then the file's base name
 * and ":LINE" (the name's last " FILE:LINE"); each a line. */
static void dot_label(FILE *fp, const pcol_top *t, uint32_t key, pcol_str name, pcol_by by) {
  const char *p = name.ptr ? name.ptr : "";
  size_t n = name.ptr ? name.len : 0, h = 0, off, fl;
  /* by line or address, the parts as top composed them (a name with
   * blanks, a line 0 without ":LINE"): the address, the function, the
   * file's base name and ":LINE" */
  if ((by == PCOL_BY_LINE || by == PCOL_BY_ADDRESS || by == PCOL_BY_FILE_FUNCTION) &&
      pcol_top_name_function(t, key, &off, &fl) &&
      off <= n && fl <= n - off) {
    if (off >= 16) {
      dot_put(fp, p, 16);
      fputs("\\n", fp);
    }
    if (fl) dot_label_name(fp, (pcol_str){p + off, fl});
    const char *r = p + off + fl, *e = p + n;
    if (r < e && *r == ' ') r++;
    if (r < e) {
      const char *b = base_name(r, (size_t)(e - r));
      dot_put(fp, b, (size_t)(e - b));
      fputs("\\n", fp);
    }
    return;
  }
  /* a function's name, though it looks like a frame named after its
   * mapping ("[libx.so]": pprof splits it at its dots as any name) */
  if (by == PCOL_BY_FUNCTION && pcol_top_name_function(t, key, &off, &fl)) {
    dot_label_name(fp, name);
    return;
  }
  while (h < n && h < 16 && isxdigit((unsigned char)p[h])) h++;
  if (by == PCOL_BY_ADDRESS && h == 16 && n > 17 && p[16] == ' ') {
    dot_put(fp, p, 16);
    fputs("\\n", fp);
    p += 17, n -= 17, by = PCOL_BY_LINE;
  }
  if (n >= 2 && p[0] == '[' && p[n - 1] == ']') {
    dot_put(fp, p, n);
    fputs("\\n", fp);
    return;
  }
  if (by == PCOL_BY_FILE) {
    const char *b = base_name(p, n);
    dot_put(fp, b, n - (size_t)(b - p));
    fputs("\\n", fp);
    return;
  }
  size_t c = n;
  while (c > 0 && p[c - 1] >= '0' && p[c - 1] <= '9') c--;
  if (by == PCOL_BY_LINE && c < n && c > 0 && p[c - 1] == ':') {
    const char *sp = NULL;
    for (size_t i = 0; i + 1 < c; i++)
      if (p[i] == ' ') sp = p + i;
    if (sp) {
      pcol_str fn = {p, (size_t)(sp - p)};
      dot_label_name(fp, fn);
      const char *f0 = sp + 1, *b = base_name(f0, (size_t)(p + n - f0));
      dot_put(fp, b, (size_t)(p + n - b));
      fputs("\\n", fp);
      return;
    }
  }
  pcol_str all = {p, n};
  dot_label_name(fp, all);
}

/* Go's uint8(x) of a float64 on amd64 (x in [0, 255], or NaN: 0) */
static unsigned go_u8(double x) { return isnan(x) ? 0u : (unsigned)(uint8_t)(int64_t)x; }

/* dotgraph.go dotColor.  A score of 0/0 (a --mean graph whose mean total
 * is 0: its nodes are there for their divisor) is NaN, which Go's
 * math.Min and math.Max keep (C's fmin and fmax drop it): its channel
 * that NaN reaches is Go's uint8(NaN), 0 on amd64. */
static void dot_color(FILE *fp, double score, int bg) {
  const double shift = 0.7;
  double sat = bg ? 0.1 : 1.0, val = bg ? 0.93 : 0.7;
  if (!isnan(score)) score = fmax(-1.0, fmin(1.0, score));
  if (fabs(score) < 0.2) sat *= fabs(score) / 0.2;
  if (score > 0.0) score = pow(score, 1.0 - shift);
  if (score < 0.0) score = -pow(-score, 1.0 - shift);
  double r, g, b;
  if (score < 0.0) {
    g = val;
    r = val * (1 + sat * score);
  } else {
    r = val;
    g = val * (1 - sat * score);
  }
  b = val * (1 - sat);
  fprintf(fp, "#%02x%02x%02x", go_u8(r * 255.0), go_u8(g * 255.0), go_u8(b * 255.0));
}

typedef struct dot_ctx {
  const pcol_graph *g;
  pcol_str vunit;
  const char *unit;
  pcol_by by;
} dot_ctx;

/* A value in the view's unit, as text: for a unit of no family the unit is
 * the file's own (cli_view_unit: by the text rule, but with its " and \ as
 * they are).  Inside a DOT string it goes through dot_value, never raw: a
 * unit of  s" URL="javascript:..."  would add an attribute to every node
 * and edge (issue 42 F1). */
static void fmt_value(const dot_ctx *c, pcol_sum v, char *b, size_t cap) {
  cli_value_label(v, c->vunit, c->unit, b, cap);
}
static void dot_value(FILE *fp, const char *formatted) { dot_esc(fp, formatted, strlen(formatted)); }
static const char *pct(pcol_sum v, pcol_sum total, char *b, size_t cap) {
  pcol_percentage(v, total, b, cap);
  const char *p = b;
  while (*p == ' ') p++;
  return p;
}
static pcol_sum mag(pcol_sum v) { return v < 0 ? -v : v; }

static void write_node(FILE *fp, const dot_ctx *c, size_t i, double max_flat) {
  const pcol_top_row *n = &c->g->nodes[i];
  char fv[64], cv[64], pb[PCOL_PERCENT_MAX];
  fprintf(fp, "N%zu [label=\"", i + 1);
  dot_label(fp, &c->g->top, n->key, n->name, c->by);
  fmt_value(c, n->flat, fv, sizeof fv);
  if (n->flat != 0) {
    dot_value(fp, fv);
    fprintf(fp, " (%s)", pct(n->flat, c->g->total, pb, sizeof pb));
  } else {
    fputc('0', fp);
  }
  memcpy(cv, fv, sizeof cv);
  if (n->cum != n->flat) {
    fputs(n->flat != 0 ? "\\n" : " ", fp);
    fmt_value(c, n->cum, cv, sizeof cv);
    fputs("of ", fp);
    dot_value(fp, cv);
    fprintf(fp, " (%s)", pct(n->cum, c->g->total, pb, sizeof pb));
  }
  int fs = 8;
  double af = (double)mag(n->flat);
  if (max_flat != 0 && n->flat != 0 && af <= max_flat) fs += (int)ceil(16.0 * sqrt(af / max_flat));
  fprintf(fp, "\" id=\"node%zu\" fontsize=%d shape=box tooltip=\"", i + 1, fs);
  dot_iso(fp, n->name);
  fputs(" (", fp);
  dot_value(fp, cv);
  fputs(")\" color=\"", fp);
  double tot = (double)mag(c->g->total);
  dot_color(fp, (double)n->cum / tot, 0);
  fputs("\" fillcolor=\"", fp);
  dot_color(fp, (double)n->cum / tot, 1);
  fputs("\"]\n", fp);
}

/* dotgraph.go addNodelets / numericNodelets: node i's label boxes (a
 * string tag N<i>_<k>, its numbers NN<i>_<k>_<j>, the node's own numbers
 * NN<i>_<j>), each with its edge from what it hangs on.  The text of a box
 * is the file's (keys, values, the unit of a number): each line by dot_put,
 * the lines joined by DOT's \n as pprof's joinLabels. */
static size_t write_tags(FILE *fp, const dot_ctx *c, size_t i, size_t t0) {
  const pcol_graph *g = c->g;
  size_t t = t0;
  for (; t < g->ntags && g->tags[t].node == i; t++) {
    const pcol_graph_tag *x = &g->tags[t];
    char src[48], id[64], w[64];
    if (!x->parent) snprintf(src, sizeof src, "N%zu", i + 1);
    else snprintf(src, sizeof src, "N%zu_%u", i + 1, g->tags[x->parent - 1].index);
    snprintf(id, sizeof id, "%s%s_%u", x->numeric ? "N" : "", src, x->index);
    fmt_value(c, x->weight, w, sizeof w);
    fprintf(fp, "%s [label = \"", id);
    for (size_t l = 0; l < x->nlines; l++) {
      if (l) fputs("\\n", fp);
      dot_str(fp, x->lines[l]);
    }
    fprintf(fp, "\" id=\"%s\" fontsize=8 shape=box3d tooltip=\"", id);
    dot_value(fp, w);
    fprintf(fp, "\"]\n%s -> %s [label=\" ", src, id);
    dot_value(fp, w);
    fputs("\" weight=100 tooltip=\"", fp);
    dot_value(fp, w);
    fputs("\" labeltooltip=\"", fp);
    dot_value(fp, w);
    fprintf(fp, "\"%s]\n", x->dotted ? " style=\"dotted\"" : "");
  }
  return t;
}

static void write_edge(FILE *fp, const dot_ctx *c, const pcol_graph_edge *e, const uint8_t *boxes) {
  char w[64];
  fmt_value(c, e->weight, w, sizeof w);
  /* a call into a phantom (pcol_graph.nphantom): pprof's nodeIDMap has no
   * id for it, so its DOT says N0 */
  fprintf(fp, "N%u -> N%u [label=\" ", e->from + 1, e->to < c->g->nnodes ? e->to + 1 : 0);
  dot_value(fp, w);
  fprintf(fp, "%s\"", e->inl ? "\\n (inline)" : "");
  pcol_sum total = c->g->total;
  if (total != 0) {
    pcol_sum at = mag(total), x = mag(e->weight * 100 / total), y = mag(e->weight * 5 / total);
    int weight = 1 + (int)(x < 100 ? x : 100), width = 1 + (int)(y < 5 ? y : 5);
    if (weight > 1) fprintf(fp, " weight=%d", weight);
    if (width > 1) fprintf(fp, " penwidth=%d", width);
    fputs(" color=\"", fp);
    dot_color(fp, (double)e->weight / (double)at, 0);
    fputc('"', fp);
  }
  for (int k = 0; k < 2; k++) {
    fputs(k ? " labeltooltip=\"" : " tooltip=\"", fp);
    dot_iso(fp, c->g->nodes[e->from].name);
    fputs(e->residual ? " ... " : " -> ", fp);
    dot_iso(fp, c->g->nodes[e->to].name);
    fputs(" (", fp);
    dot_value(fp, w);
    fputs(")\"", fp);
  }
  if (e->residual) fputs(" style=\"dotted\"", fp);
  if (boxes && boxes[e->from]) fputs(" minlen=2", fp); /* pprof: room for the caller's boxes */
  fputs("]\n", fp);
}

/* The legend (dotgraph.go addLegend): its first line names the box, its
 * lines are left-justified (\l).  The text is pcol's, its strings from the
 * file already escaped by the text rule. */
static void write_legend(FILE *fp, const char *legend, size_t len) {
  fputs("subgraph cluster_L { \"", fp);
  const char *nl = memchr(legend, '\n', len);
  dot_esc(fp, legend, nl ? (size_t)(nl - legend) : len);
  fputs("\" [shape=box fontsize=16 label=\"", fp);
  dot_esc(fp, legend, len);
  fputs("\\l\"] }\n", fp);
}

/* A failed write of the graph to dest (a path): PCOL_EIO, with errno's
 * reason when there is one. */
static int graph_write_error(pcol_error *err, const char *dest) {
  int e = errno;
  return pcol_error_set(err, PCOL_EIO, "%s: cannot write the graph%s%s", dest, e ? ": " : "",
                        e ? strerror(e) : "");
}

/* The DOT text to fp, which writes to dest (a path, for messages). */
static int write_dot(FILE *fp, const char *dest, pcol_file *f, const char *path, const pcol_top *t,
                     const pcol_graph *g, const pcol_select *sel, const char *unit,
                     const pcol_graph_opts *o, pcol_by by, pcol_error *err) {
  dot_ctx c = {g, t->value.unit, unit, by};
  /* the legend: the text views' head (pcol's, escaped by the text rule),
   * with the graph's nodes as the rows shown, then pprof's lines */
  char *legend = NULL;
  size_t llen = 0;
  FILE *lf = open_memstream(&legend, &llen);
  if (!lf) return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  pcol_top shown = *t;
  shown.rows = g->nodes;
  shown.nrows = g->nnodes;
  shown.total = g->total; /* (--mean: the divided total) */
  /* the legend has the full header also in the shell: pprof's -dot asks
   * reportLabels for fullHeaders, whatever compact_labels says */
  bool compact = cli_compact_labels;
  cli_compact_labels = false;
  cli_print_view_header(lf, f, path, &shown, g->nnodes, sel, unit, NULL);
  cli_compact_labels = compact;
  cli_graph_labels(lf, g, o, unit, true);
  fputs("\nSee https://git.io/JfYMW for how to read the graph", lf);
  if (fclose(lf)) {
    free(legend);
    return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  }
  fputs("digraph \"unnamed\" {\nnode [style=filled fillcolor=\"#f8f8f8\"]\n", fp);
  write_legend(fp, legend, llen);
  free(legend);
  double max_flat = 0;
  for (size_t i = 0; i < g->nnodes; i++)
    if ((double)mag(g->nodes[i].flat) > max_flat) max_flat = (double)mag(g->nodes[i].flat);
  uint8_t *boxes = g->ntags ? calloc(g->nnodes + 1, 1) : NULL; /* nodes with label boxes */
  if (g->ntags && !boxes) return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  for (size_t i = 0; i < g->ntags && boxes; i++) boxes[g->tags[i].node] = 1;
  for (size_t i = 0, tg = 0; i < g->nnodes && !cli_budget_over(); i++) {
    write_node(fp, &c, i, max_flat);
    tg = write_tags(fp, &c, i, tg);
  }
  /* the nodes' calls (pprof's: of its nodes' Out, none out of a phantom) */
  for (size_t i = 0; i < g->nedges && !cli_budget_over(); i++)
    if (g->edges[i].from < g->nnodes) write_edge(fp, &c, &g->edges[i], boxes);
  free(boxes);
  fputs("}\n", fp);
  return ferror(fp) ? graph_write_error(err, dest) : PCOL_OK;
}

/* The graph as a table (json, jsonl, tsv, csv): a row per node (in the
 * DOT's order, N1 first) and per edge (from and to: the nodes' names), the
 * numbers raw.  The report page's graph (graph.js) is tested against it. */
static void write_rows(FILE *fp, out_format fmt, const pcol_graph *g, const cli_view_meta *m) {
  static const char *const names[] = {"kind", "name", "from", "to", "flat", "cum", "weight", "inline", "residual"};
  cli_table tb;
  tbl_begin_view(&tb, fp, fmt, 9, names, m);
  for (size_t i = 0; i < g->nnodes && !cli_budget_over(); i++) {
    const pcol_top_row *r = &g->nodes[i];
    tbl_cstr(&tb, "node");
    tbl_str(&tb, r->name.ptr, r->name.len);
    tbl_na(&tb);
    tbl_na(&tb);
    tbl_sum(&tb, r->flat);
    tbl_sum(&tb, r->cum);
    tbl_na(&tb);
    tbl_cstr(&tb, r->inl == PCOL_INLINE_ONLY ? "inline" : r->inl == PCOL_INLINE_PARTIAL ? "partial-inline" : "");
    tbl_na(&tb);
    tbl_end_row(&tb);
  }
  for (size_t i = 0; i < g->nedges && !cli_budget_over(); i++) {
    const pcol_graph_edge *e = &g->edges[i];
    if (e->from >= g->nnodes || e->to >= g->nnodes) continue; /* (a phantom's: no node row names it) */
    pcol_str a = g->nodes[e->from].name, b = g->nodes[e->to].name;
    tbl_cstr(&tb, "edge");
    tbl_na(&tb);
    tbl_str(&tb, a.ptr, a.len);
    tbl_str(&tb, b.ptr, b.len);
    tbl_na(&tb);
    tbl_na(&tb);
    tbl_sum(&tb, e->weight);
    tbl_bool(&tb, e->inl);
    tbl_bool(&tb, e->residual);
    tbl_end_row(&tb);
  }
  tbl_finish(&tb);
}

static bool str_eq(pcol_str a, pcol_str b) { return a.len == b.len && (!a.len || !memcmp(a.ptr, b.ptr, a.len)); }

/* ------------------------------------------------------------ callgrind */

/* A table of keys to ids 1..n in order of first sight (report.go's maps of
 * callgrindName and getDisambiguatedNames).  No key is copied: a string
 * key is a place in the file's strings plus a short suffix (" [i/n]"), a
 * node key is a node whose parts (pt) are compared, so the table costs a
 * few words an entry however long the names (a copy of each key, and of a
 * node's joined parts, held a 31 MiB name four times: review 24). */
typedef struct cg_ent {
  const char *p; /* a string key: p[0..n) then sfx[0..sl) */
  size_t n;
  uint64_t h;
  uint32_t id, node, sl;
  char sfx[28];
} cg_ent;
typedef struct cg_tab {
  cg_ent *e;
  size_t cap, n;
  const pcol_top_parts *pt; /* node keys: their parts */
  int parts;                /* 0: string keys; 1: (file, function); 2: and (objfile, start_line) */
} cg_tab;

static uint64_t cg_hash(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p; /* FNV-1a, h = 1469598103934665603 to start */
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211u;
  return h;
}
#define CG_H0 1469598103934665603u

/* The byte at i of a string key (i < its length). */
static char cg_at(const cg_ent *k, size_t i) { return i < k->n ? k->p[i] : k->sfx[i - k->n]; }

static int cg_eq(const cg_tab *t, const cg_ent *a, const cg_ent *b) {
  if (t->parts) {
    const pcol_top_parts *x = &t->pt[a->node], *y = &t->pt[b->node];
    return str_eq(x->file, y->file) && str_eq(x->function, y->function) &&
           (t->parts < 2 || (str_eq(x->objfile, y->objfile) && x->start_line == y->start_line));
  }
  size_t len = a->n + a->sl;
  if (len != b->n + b->sl) return 0;
  if (a->n == b->n) return (!a->n || !memcmp(a->p, b->p, a->n)) && !memcmp(a->sfx, b->sfx, a->sl);
  for (size_t i = 0; i < len; i++)
    if (cg_at(a, i) != cg_at(b, i)) return 0;
  return 1;
}

/* *id of the key q (its h set), added (*added = 1) at first sight.
 * -1: out of memory. */
static int cg_id(cg_tab *t, const cg_ent *q, uint32_t *id, int *added) {
  *added = 0;
  if ((t->n + 1) * 2 > t->cap) {
    size_t nc = t->cap ? t->cap * 2 : 256;
    cg_ent *ne = calloc(nc, sizeof *ne);
    if (!ne) return -1;
    for (size_t i = 0; i < t->cap; i++) {
      if (!t->e[i].id) continue;
      size_t j = t->e[i].h & (nc - 1);
      while (ne[j].id) j = (j + 1) & (nc - 1);
      ne[j] = t->e[i];
    }
    free(t->e);
    t->e = ne;
    t->cap = nc;
  }
  size_t j = q->h & (t->cap - 1);
  for (; t->e[j].id; j = (j + 1) & (t->cap - 1))
    if (t->e[j].h == q->h && cg_eq(t, &t->e[j], q)) {
      *id = t->e[j].id;
      return 0;
    }
  t->e[j] = *q;
  t->e[j].id = *id = (uint32_t)++t->n;
  *added = 1;
  return 0;
}

static void cg_tab_free(cg_tab *t) { free(t->e); }

/* The id of node i's (file, function), or with (objfile, start_line). */
static int cg_node_id(cg_tab *t, uint32_t i, uint32_t *id, int *added) {
  const pcol_top_parts *x = &t->pt[i];
  cg_ent q = {0};
  q.node = i;
  q.h = cg_hash(cg_hash(CG_H0, x->file.ptr, x->file.len), "\0", 1);
  q.h = cg_hash(q.h, x->function.ptr, x->function.len);
  if (t->parts > 1) {
    q.h = cg_hash(cg_hash(q.h, "\0", 1), x->objfile.ptr, x->objfile.len);
    q.h = cg_hash(q.h, &x->start_line, sizeof x->start_line);
  }
  return cg_id(t, &q, id, added);
}

/* report.go callgrindName: "(N) name" at a name's first sight, "(N)"
 * after, nothing for "".  The name is p[0..n) then sfx (a disambiguating
 * " [i/n]", or ""); written by the text rule (cli_put_text) from show (the
 * two joined, or p when sfx is ""), so that no string from the file adds a
 * line to the line-based format; the ids are of the names as the file has
 * them.  -1: out of memory. */
static int cg_name(FILE *fp, cg_tab *t, const char *p, size_t n, const char *sfx, const char *show) {
  cg_ent q = {0};
  q.p = p, q.n = n, q.sl = (uint32_t)strlen(sfx);
  if (!n && !q.sl) return 0;
  if (q.sl >= sizeof q.sfx) q.sl = sizeof q.sfx - 1; /* " [i/n]": at most 24 */
  memcpy(q.sfx, sfx, q.sl);
  q.h = cg_hash(cg_hash(CG_H0, p, n), sfx, q.sl);
  uint32_t id;
  int added;
  if (cg_id(t, &q, &id, &added)) return -1;
  fprintf(fp, "(%u)", id);
  if (added) {
    fputc(' ', fp);
    cli_put_text(fp, q.sl ? show : p, n + q.sl, 0);
  }
  return 0;
}

/* report.go callgrindAddress: Go's %#x (0 is "0x0"), "*" for the previous
 * node's address, "%+d" from it when shorter. */
static const char *cg_addr(const pcol_top_parts *prev, uint64_t a, char *b, size_t cap) {
  char rel[32];
  snprintf(b, cap, "0x%llx", (unsigned long long)a);
  if (!prev) return b;
  if (prev->address == a) return "*";
  snprintf(rel, sizeof rel, "%+lld", (long long)(int64_t)(a - prev->address));
  if (strlen(rel) < strlen(b)) snprintf(b, cap, "%s", rel);
  return b;
}

/* int64(x) of a scaled value as Go computes it on amd64: out of int64's
 * range (or NaN) it is MinInt64, where a C cast would be undefined. */
static int64_t cg_int64(double x) {
  return x >= -0x1p63 && x < 0x1p63 ? (int64_t)x : INT64_MIN;
}

/* go tool pprof -callgrind (report.go printCallgrind) of g, a graph by
 * address out of visual mode with nothing trimmed, as driver.go asks for
 * it: "positions: instr line", "events: TYPE(UNIT)", then per node
 * (FlatNameOrder) its ob=/fl=/fn= when they change, "ADDR LINE FLAT", and
 * each callee's cfl=, cfn=, "calls=0 ADDR LINE", "* * WEIGHT"; values in
 * unit, truncated to integers as Go's int64().  A callee's cfn= is
 * getDisambiguatedNames': " [i/n]" after the name when n functions (name,
 * file, mapping file, start line) share its file and name. */
static int write_callgrind(FILE *fp, const char *dest, const pcol_graph *g, const char *unit,
                           pcol_error *err) {
  const pcol_top *t = &g->top;
  /* the phantoms (pcol_graph.nphantom) are callees only: pprof names the
   * graph's nodes (getDisambiguatedNames), and a phantom's cfn= is empty */
  size_t nn = g->nnodes, nall = nn + g->nphantom;
  pcol_top_parts *pt = calloc(nall + 1, sizeof *pt);
  uint32_t *grp = calloc(nall + 1, sizeof *grp), *fidx = calloc(nall + 1, sizeof *fidx);
  uint32_t *gcount = calloc(nn + 2, sizeof *gcount), *fn_of = calloc(nn + 2, sizeof *fn_of);
  char *dn = NULL;
  cg_tab groups = {0}, fns = {0}, obs = {0}, files = {0}, names = {0};
  groups.pt = fns.pt = pt;
  groups.parts = 1, fns.parts = 2;
  int rc = pt && grp && fidx && gcount && fn_of ? PCOL_OK : pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  for (size_t i = 0; !rc && i < nall; i++) {
    rc = pcol_top_key_parts(t, g->nodes[i].key, &pt[i], err);
    if (rc) break;
    if (i >= nn) { /* a phantom */
      pt[i].function = (pcol_str){NULL, 0};
      continue;
    }
    /* getDisambiguatedNames: per (file, name), the functions in node order */
    uint32_t gid, fid;
    int added;
    if (cg_node_id(&groups, (uint32_t)i, &gid, &added) || cg_node_id(&fns, (uint32_t)i, &fid, &added)) {
      rc = pcol_error_set(err, PCOL_ENOMEM, "out of memory");
      break;
    }
    if (added) fn_of[fid] = gcount[gid]++;
    grp[i] = gid;
    fidx[i] = fn_of[fid];
  }
  /* pprof's units: the file's own unit when a value is not scaled (--unit
   * raw, no unit family, a decimal unit: the stored integers) */
  pcol_str vu = t->value.unit;
  bool scaled = strcmp(unit, "raw") && pcol_unit_known(vu) && !pcol_value_decimals(&t->value, NULL);
  if (!rc) {
    fputs("positions: instr line\nevents: ", fp);
    cli_print_name(fp, t->value.type);
    fputc('(', fp);
    if (scaled || !nn) fputs(unit, fp); /* no nodes: pprof's "minimum" (or --unit) */
    else cli_print_name(fp, vu);
    fputs(")\n", fp);
  }
  size_t dcap = 0;
  const char *su;
  const pcol_top_parts *prev = NULL;
  for (size_t i = 0; !rc && i < nn && !cli_budget_over(); i++) {
    const pcol_top_parts *p = &pt[i];
    char ab[32];
    if (!prev || !str_eq(p->objfile, prev->objfile) || !str_eq(p->file, prev->file) ||
        !str_eq(p->function, prev->function)) {
      fputs("\nob=", fp);
      rc |= cg_name(fp, &obs, p->objfile.ptr, p->objfile.len, "", NULL);
      fputs("\nfl=", fp);
      rc |= cg_name(fp, &files, p->file.ptr, p->file.len, "", NULL);
      fputs("\nfn=", fp);
      rc |= cg_name(fp, &names, p->function.ptr, p->function.len, "", NULL);
      fputc('\n', fp);
    }
    pcol_sum flat = g->nodes[i].flat;
    fprintf(fp, "%s %lld %lld\n", cg_addr(prev, p->address, ab, sizeof ab), (long long)p->line,
            (long long)(scaled ? cg_int64(pcol_unit_scale(flat, vu, unit, &su)) : flat));
    for (size_t k = g->out_off[i]; !rc && k < g->out_off[i + 1]; k++) {
      const pcol_graph_edge *e = &g->edges[g->out_edge[k]];
      const pcol_top_parts *c = &pt[e->to];
      size_t dl = c->function.len;
      if (e->to < nn && gcount[grp[e->to]] > 1) { /* the name and " [i/n]" */
        if (dl + 48 > dcap) {
          char *nd = realloc(dn, dl + 48);
          if (!nd) {
            rc = -1;
            break;
          }
          dn = nd, dcap = dl + 48;
        }
        if (dl) memcpy(dn, c->function.ptr, dl);
        dl += (size_t)snprintf(dn + dl, 48, " [%u/%u]", fidx[e->to] + 1, gcount[grp[e->to]]);
      }
      fputs("cfl=", fp);
      rc |= cg_name(fp, &files, c->file.ptr, c->file.len, "", NULL);
      fputs("\ncfn=", fp);
      rc |= cg_name(fp, &names, c->function.ptr, c->function.len, dl > c->function.len ? dn + c->function.len : "", dn);
      fprintf(fp, "\ncalls=0 %s %lld\n* * %lld\n", cg_addr(prev, c->address, ab, sizeof ab),
              (long long)c->line,
              (long long)(scaled ? cg_int64(pcol_unit_scale(e->weight, vu, unit, &su)) : e->weight));
    }
    prev = p;
  }
  if (rc == -1) rc = pcol_error_set(err, PCOL_ENOMEM, "out of memory");
  free(pt);
  free(grp);
  free(fidx);
  free(gcount);
  free(fn_of);
  free(dn);
  cg_tab_free(&groups);
  cg_tab_free(&fns);
  cg_tab_free(&obs);
  cg_tab_free(&files);
  cg_tab_free(&names);
  if (!rc && ferror(fp)) rc = graph_write_error(err, dest);
  return rc;
}

/* Runs `dot -T<fmt>` on the DOT text in dot_path and copies what it
 * writes to out (which writes to dest, a path).  PCOL_OK, or an error in err. */
static int run_graphviz(const char *fmt, const char *dot_path, FILE *out, const char *dest,
                        pcol_error *err) {
  int pfd[2];
  if (pipe(pfd)) return pcol_error_set(err, PCOL_EIO, "cannot make a pipe: %s", strerror(errno));
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, dot_path, O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, pfd[1], 1);
  posix_spawn_file_actions_addclose(&fa, pfd[0]);
  posix_spawn_file_actions_addclose(&fa, pfd[1]);
  char targ[16];
  snprintf(targ, sizeof targ, "-T%s", fmt);
  char *argv[] = {"dot", targ, NULL};
  pid_t pid;
  int sr = posix_spawnp(&pid, "dot", &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(pfd[1]);
  if (sr) {
    close(pfd[0]);
    if (sr == ENOENT)
      return pcol_error_set(err, PCOL_EUNSUPPORTED,
                            "--format %s needs graphviz's `dot`, which is not installed (apt-get "
                            "install graphviz); --format dot writes the DOT text",
                            fmt);
    return pcol_error_set(err, PCOL_EIO, "cannot run graphviz's dot: %s", strerror(sr));
  }
  char buf[65536];
  ssize_t r;
  int rc = PCOL_OK;
  while ((r = read(pfd[0], buf, sizeof buf)) != 0) {
    if (r < 0) {
      if (errno == EINTR) continue;
      rc = pcol_error_set(err, PCOL_EIO, "reading graphviz's output: %s", strerror(errno));
      break;
    }
    if (rc == PCOL_OK && fwrite(buf, 1, (size_t)r, out) != (size_t)r) rc = graph_write_error(err, dest);
    /* past the budget: keep reading so that dot ends */
  }
  close(pfd[0]);
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  if (!rc && !(WIFEXITED(st) && WEXITSTATUS(st) == 0))
    rc = pcol_error_set(err, PCOL_EIO, "graphviz's dot failed (%s %d)",
                        WIFEXITED(st) ? "exit status" : "signal",
                        WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
  return rc;
}

/* The format -o's name asks for when --format is not given: callgrind for
 * KCachegrind's *.callgrind or valgrind's callgrind.out.<pid> (the name
 * KCachegrind's file dialog looks for), svg or png for an image's name (a
 * browser or viewer cannot show DOT text under it), else dot. */
static const char *format_of_name(const char *out) {
  const char *b = strrchr(out, '/');
  b = b ? b + 1 : out;
  size_t n = strlen(b);
  if (!strncmp(b, "callgrind.out", 13) || (n > 10 && !strcmp(b + n - 10, ".callgrind"))) return "callgrind";
  if (n > 4 && !strcasecmp(b + n - 4, ".svg")) return "svg";
  if (n > 4 && !strcasecmp(b + n - 4, ".png")) return "png";
  return "dot";
}

int cmd_graph(const cli_command *cmd, cli_args *a) {
  if (a->npos < 1) return cli_usage_error(cmd->name, "expected a FILE");
  const char *out = cli_get(cmd, a, "output");
  if (!out) out = "-";
  const char *fmt = cli_get(cmd, a, "format");
  if (!fmt) fmt = format_of_name(out);
  bool cg = !strcmp(fmt, "callgrind");
  pcol_by by = cg ? PCOL_BY_ADDRESS : PCOL_BY_FUNCTION;
  const char *bys = cli_get(cmd, a, "by");
  if (bys) {
    if (pcol_by_parse(bys, &by))
      return cli_usage_error(cmd->name, "--by wants function, line, file, address or filefunction, not '%s'", bys);
  }
  out_format tfmt = OUT_TEXT; /* OUT_TEXT: a drawing (dot, svg, png) or callgrind */
  if (strcmp(fmt, "dot") && strcmp(fmt, "svg") && strcmp(fmt, "png") && !cg &&
      (cli_out_format(fmt, &tfmt) || tfmt == OUT_TEXT))
    return cli_usage_error(cmd->name,
                           "--format wants dot, svg, png, callgrind, json, jsonl, tsv or csv, not '%s'", fmt);
  if (cli_divide_by(cmd, a, tfmt == OUT_TEXT)) return EXIT_USAGE;
  /* driver.go: callgrind is by address with inlined frames, nothing
   * trimmed, whatever -lines, -noinlines or -nodecount say; pcol refuses
   * what it would ignore */
  if (cg && (by != PCOL_BY_ADDRESS || cli_flag(cmd, a, "no-inlines") || cli_get(cmd, a, "node-fraction") ||
             cli_get(cmd, a, "edge-fraction") || cli_get(cmd, a, "node-count")))
    return cli_usage_error(cmd->name, "--format callgrind is by address with every node, edge and "
                                      "inlined frame (go tool pprof -callgrind): no --by, "
                                      "--no-inlines, --node-fraction, --edge-fraction nor --node-count");
  pcol_graph_opts o = pcol_graph_opts_default();
  if (cli_fraction_option(cmd, a, "node-fraction", &o.node_fraction) ||
      cli_fraction_option(cmd, a, "edge-fraction", &o.edge_fraction))
    return EXIT_USAGE;
  uint64_t nc;
  if (cli_get_u64(cmd, a, "node-count", 80, &nc)) return EXIT_USAGE;
  o.node_count = nc > SIZE_MAX ? SIZE_MAX : (size_t)nc;
  if (cli_max_output(cmd, a, &o.max_output_bytes)) return EXIT_USAGE;
  if (cg) { /* report.go printCallgrind: the text reports' graph, untrimmed */
    o.node_fraction = o.edge_fraction = 0;
    o.node_count = 0;
    o.text = o.no_tags = o.obj_names = true;
  }
  pcol_select sel;
  if (cli_select(cmd, a, &sel)) return EXIT_USAGE;
  int mean = cli_flag(cmd, a, "mean");
  o.drop_negative = cli_flag(cmd, a, "drop-negative");

  pcol_error err = {0};
  pcol_file *f = NULL;
  pcol_value_sel v;
  pcol_graph g = {0};
  int bad_unit = 0, quiet = 0;
  const char *path = NULL;
  int rc = cli_load(cmd, a, a->pos, a->npos, &sel, &f, &v, &path, &err);
  if (rc) return cli_fail(cmd->name, &err, rc);
  /* --mean: the nodes, the drawing's calls and label boxes in means; the
   * callgrind calls stay sums (report.go printCallgrind prints Weight) */
  pcol_value_sel div;
  char mean_type[PCOL_MEAN_TYPE_MAX];
  if (mean && !(rc = pcol_mean_divisor(f, &sel, &div, &err))) o.mean_div = &div;
  if (!rc) rc = pcol_graph_compute(f, &sel, &v, by, &o, &g, &err);
  if (!rc && mean) cli_mean_type(&g.top.value.type, mean_type);
  if (!rc) cli_note_lines_rule(cmd, f, &sel, by, path);
  const pcol_top *t = &g.top;
  char unit[32];
  if (!rc && (rc = cli_graph_unit(cmd, a, &g, cg, unit, &err)) < 0) rc = 0, bad_unit = 1;
  if (!rc && !bad_unit) {
    char dot_path[] = "/tmp/pcol-graph-XXXXXX";
    int dfd = -1;
    FILE *dotf = NULL;
    if (strcmp(fmt, "dot") && !cg && tfmt == OUT_TEXT) { /* the DOT text for graphviz, in a file of our own */
      dfd = mkostemp(dot_path, O_CLOEXEC); /* (dot gets it as its stdin only) */
      dotf = dfd >= 0 ? fdopen(dfd, "w") : NULL;
      if (!dotf) {
        rc = pcol_error_set(&err, PCOL_EIO, "cannot make a temporary file: %s", strerror(errno));
        if (dfd >= 0) close(dfd), unlink(dot_path);
      } else {
        errno = 0;
        rc = write_dot(dotf, dot_path, f, path, t, &g, &sel, unit, &o, by, &err);
        if (fclose(dotf) && !rc) rc = graph_write_error(&err, dot_path);
        if (rc) (void)pcol_error_prefix(&err, "cannot write the DOT text for graphviz");
      }
    }
    pcol_out po;
    int replaces = out && cli_output_is_input(out, (char *const *)a->pos, (size_t)a->npos, 0);
    if (!rc) rc = pcol_out_open(&po, out, &err);
    if (!rc) {
      errno = 0;
      FILE *fp = cli_budget_wrap(po.fp); /* the output budget (outbudget.c) */
      if (!fp) rc = pcol_error_set(&err, PCOL_ENOMEM, "out of memory");
      else if (tfmt != OUT_TEXT) {
        cli_view_meta m = {"graph", path, t->value.type, t->value.unit, t->total, &sel, NULL, 0, NULL, 0};
        write_rows(fp, tfmt, &g, &m);
        rc = ferror(fp) ? graph_write_error(&err, out) : PCOL_OK;
      } else if (cg) rc = write_callgrind(fp, out, &g, unit, &err);
      else if (!strcmp(fmt, "dot")) rc = write_dot(fp, out, f, path, t, &g, &sel, unit, &o, by, &err);
      else rc = run_graphviz(fmt, dot_path, fp, out, &err);
      /* standard output is the budget's counting stream: what it holds is
       * counted when flushed, before the budget is asked (else commit's
       * flush was refused: "write failed: Success"; review 22 F4) */
      if (fp == po.fp) fflush(po.fp);
      else if (fp && fclose(fp) && !rc) rc = graph_write_error(&err, out);
      if (cli_budget_over()) { /* cli_budget_end says so: exit 3 */
        pcol_out_abort(&po);
        quiet = rc = PCOL_EBUDGET;
      } else if (rc) {
        pcol_out_abort(&po);
      } else {
        rc = pcol_out_commit(&po, &err);
        if (!rc && replaces) cli_warn_replaced(cmd, out, "the graph");
      }
    }
    if (dotf) unlink(dot_path);
  }
  pcol_graph_free(&g);
  pcol_close(f);
  if (bad_unit) return EXIT_USAGE;
  if (quiet) return EXIT_DATA;
  return rc ? cli_fail_in(cmd->name, path, &err, rc) : EXIT_OK;
}
