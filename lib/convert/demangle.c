/* demangle.c — pprof's default demangling (demangle.h): a port of the
 * part of github.com/ianlancetaylor/demangle that pprof's default mode
 * uses (demangle.go: the parser; ast.go: printing; rust.go: rustToString
 * and oldRustToString), function by function and with the same names, so
 * that the two read side by side.  In this mode the parameters of the
 * function itself are not read (NoParams) and template arguments are
 * read but not printed (NoTemplateParams), so expressions are parsed into
 * nodes that are never printed.  Left out, and then the name is kept as
 * it is where pprof would demangle it: computed noexcept (DO) and throw
 * specifications (Dw), pack expansions and sizeof... inside expressions
 * (sp, sZ), vendor expressions (u), fixed-point types, lambdas with
 * template parameters, clang's block invocations (___Z), enable_if
 * attributes, clone suffixes of _GLOBAL_ names, and printing a literal or
 * an expression where a template parameter stands in printed text.
 *
 * A name is hostile text: it is read only below PCOL_DEMANGLE_MAX_IN
 * bytes, its nodes come from one arena of bounded size (MAX_NODES), the
 * parser's and the printer's recursion are bounded by a depth count, the
 * work of the printer, of the substitution copies and of Rust's back
 * references by a step count, and the result by PCOL_DEMANGLE_MAX_OUT;
 * past any bound the name is kept (pprof has no such bounds).  The work
 * done is counted for the caller's bound on all the names of an input
 * (pcol_demangle_pprof_work). */
#include "demangle.h"
#include <inttypes.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 256          /* parser and printer recursion */
#define MAX_NODES (1 << 16)    /* AST nodes of one name */
#define MAX_STEPS (1L << 20)   /* printer, copy and Rust back-reference visits */

enum {
  K_NAME, K_QUAL, K_TYPED, K_TEMPLATE, K_TPARAM, K_LAMBDA_AUTO, K_TWQ, K_MWQ, K_QUALS,
  K_BUILTIN, K_PTR, K_REF, K_RREF, K_COMPLEX, K_IMAG, K_VENDOR, K_ARRAY, K_FUNC, K_PTRMEM,
  K_VECTOR, K_OPERATOR, K_CTOR, K_DTOR, K_CAST, K_TAGGED, K_ARGPACK, K_LITERAL, K_DEFAULTARG,
  K_CLOSURE, K_UNNAMED, K_SPECIAL, K_SPECIAL2, K_ELABORATED, K_GCDTOR, K_STRUCTBIND,
  K_BINARYFP, K_STRLIT, K_LAMBDAEXPR, K_EXPR /* any expression: parsed, never printed */, K_LITOP
};

typedef struct dn dn;
struct dn {
  unsigned char kind;
  unsigned char flag;  /* Qualified.LocalName, FunctionType.ForLocalName,
                          GlobalCDtor.Ctor, Literal.Neg */
  unsigned short nk;   /* kids */
  int num;             /* an index or number */
  const char *s;       /* a name (NUL-terminated, in the arena or static) */
  const char *s2;      /* Special2's middle; MWQ's ref-qualifier */
  dn *tmpl;            /* TemplateParam's template (not a kid) */
  dn **k;              /* kids; a NULL kid is an absent optional part */
  unsigned mark;       /* the copy or traversal that saw it last */
};

typedef struct arena_blk {
  struct arena_blk *next;
  size_t used, cap;
  max_align_t data[];
} arena_blk;

typedef struct st {
  const char *str; /* the rest of the name (NUL-terminated) */
  jmp_buf *jb;
  arena_blk *blk;
  size_t nodes, bytes; /* (bytes: all the arena gave) */
  int depth;
  long steps;
  unsigned gen;
  dn **subs;
  size_t nsubs, capsubs;
  dn **templates; /* a stack; a NULL entry: a cast's type */
  size_t ntemplates, captemplates;
  int lambda_template_level;
  struct std_subs *std; /* the standard substitutions' nodes */
} st;

/* ------------------------------------------------------------- basics */

static _Noreturn void fail(st *s) { longjmp(*s->jb, 1); }

static void *alloc(st *s, size_t n) {
  n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
  if (!s->blk || s->blk->cap - s->blk->used < n) {
    size_t cap = n > 65536 ? n : 65536;
    arena_blk *b = malloc(sizeof *b + cap);
    if (!b) fail(s);
    b->next = s->blk;
    b->used = 0;
    b->cap = cap;
    s->blk = b;
  }
  void *p = (char *)s->blk->data + s->blk->used;
  s->blk->used += n;
  s->bytes += n;
  return p;
}

static dn *node(st *s, int kind, int nk) {
  if (++s->nodes > MAX_NODES) fail(s);
  dn *d = alloc(s, sizeof *d);
  memset(d, 0, sizeof *d);
  d->kind = (unsigned char)kind;
  d->nk = (unsigned short)nk;
  if (nk) {
    d->k = alloc(s, (size_t)nk * sizeof *d->k);
    memset(d->k, 0, (size_t)nk * sizeof *d->k);
  }
  return d;
}

static dn *n1(st *s, int kind, dn *a) {
  dn *d = node(s, kind, 1);
  d->k[0] = a;
  return d;
}

static dn *n2(st *s, int kind, dn *a, dn *b) {
  dn *d = node(s, kind, 2);
  d->k[0] = a;
  d->k[1] = b;
  return d;
}

static dn *name_n(st *s, const char *p, size_t n) {
  dn *d = node(s, K_NAME, 0);
  char *c = alloc(s, n + 1);
  memcpy(c, p, n);
  c[n] = 0;
  d->s = c;
  return d;
}

static dn *name_s(st *s, int kind, const char *lit) {
  dn *d = node(s, kind, 0);
  d->s = lit;
  return d;
}

/* a node from a list of kids */
typedef struct list {
  dn **v;
  size_t n, cap;
} list;

static void push(st *s, list *l, dn *a) {
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 8;
    dn **v = alloc(s, cap * sizeof *v);
    if (l->n) memcpy(v, l->v, l->n * sizeof *v);
    l->v = v;
    l->cap = cap;
  }
  l->v[l->n++] = a;
}

static dn *from_list(st *s, int kind, int skip, const list *l) {
  if (l->n + (size_t)skip > 60000) fail(s);
  dn *d = node(s, kind, (int)l->n + skip);
  if (l->n) memcpy(d->k + skip, l->v, l->n * sizeof *l->v);
  return d;
}

static void enter(st *s) {
  if (++s->depth > MAX_DEPTH) fail(s);
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }
static int is_upper(char c) { return c >= 'A' && c <= 'Z'; }
static int is_lower(char c) { return c >= 'a' && c <= 'z'; }

static void advance(st *s, size_t n) { s->str += n; }
static void check_char(st *s, char c) {
  if (*s->str != c) fail(s);
  s->str++;
}
static int at(st *s, char c) { return *s->str == c; }

static void grow(st *s, dn ***v, size_t *cap, size_t n) {
  if (n < *cap) return;
  size_t c = *cap ? 2 * *cap : 32;
  dn **w = alloc(s, c * sizeof *w);
  if (n) memcpy(w, *v, n * sizeof *w);
  *v = w;
  *cap = c;
}

static void subs_add(st *s, dn *a) {
  grow(s, &s->subs, &s->capsubs, s->nsubs);
  s->subs[s->nsubs++] = a;
}

static void tmpl_push(st *s, dn *t) {
  grow(s, &s->templates, &s->captemplates, s->ntemplates);
  s->templates[s->ntemplates++] = t;
}

/* -------------------------------------------------- copy and traverse */

typedef dn *(*copy_fn)(st *s, dn *a, void *ctx);
typedef int (*skip_fn)(st *s, dn *a, void *ctx);

/* AST.Copy: a copy with fn's replacements, or NULL when nothing changed */
static dn *copy(st *s, dn *a, copy_fn fn, skip_fn skip, void *ctx) {
  if (++s->steps > MAX_STEPS) fail(s);
  if (skip(s, a, ctx)) return NULL;
  if (a->kind == K_TPARAM) return fn(s, a, ctx); /* not into its template */
  enter(s);
  dn **nk = NULL;
  for (int i = 0; i < a->nk; i++) {
    if (!a->k[i]) continue;
    dn *c = copy(s, a->k[i], fn, skip, ctx);
    if (!c) continue;
    if (!nk) {
      nk = alloc(s, (size_t)a->nk * sizeof *nk);
      memcpy(nk, a->k, (size_t)a->nk * sizeof *nk);
    }
    nk[i] = c;
  }
  s->depth--;
  if (!nk) return fn(s, a, ctx);
  if (++s->nodes > MAX_NODES) fail(s);
  dn *b = alloc(s, sizeof *b);
  *b = *a;
  b->k = nk;
  b->mark = 0;
  dn *r = fn(s, b, ctx);
  return r ? r : b;
}

/* a skip function's "seen" list: a node met a second time is skipped */
static int seen(st *s, dn *a) {
  if (a->mark == s->gen) return 1;
  a->mark = s->gen;
  return 0;
}

/* AST.Traverse */
typedef int (*trav_fn)(st *s, dn *a, void *ctx);
static void traverse(st *s, dn *a, trav_fn fn, void *ctx) {
  if (++s->steps > MAX_STEPS) fail(s);
  if (!fn(s, a, ctx) || a->kind == K_TPARAM) return;
  enter(s);
  for (int i = 0; i < a->nk; i++)
    if (a->k[i]) traverse(s, a->k[i], fn, ctx);
  s->depth--;
}

/* ------------------------------------------------------------ simplify */

static dn *quals_merge(st *s, dn *q1, dn *q2) {
  if (!q1) return q2;
  if (!q2) return q1;
  list l = {0};
  for (int i = 0; i < q1->nk; i++) push(s, &l, q1->k[i]);
  for (int i = 0; i < q2->nk; i++) {
    int dup = 0;
    for (size_t j = 0; j < l.n; j++) dup |= !strcmp(l.v[j]->s, q2->k[i]->s);
    if (!dup) push(s, &l, q2->k[i]);
  }
  return from_list(s, K_QUALS, 0, &l);
}

static dn *mwq(st *s, dn *method, dn *quals, const char *ref) {
  dn *d = n2(s, K_MWQ, method, quals);
  d->s2 = ref;
  return d;
}

static dn *simplify_one(st *s, dn *a, void *ctx) {
  (void)ctx;
  dn *b = a->nk ? a->k[0] : NULL;
  switch (a->kind) {
  case K_TPARAM:
    if (a->tmpl && a->num < a->tmpl->nk - 1) return a->tmpl->k[1 + a->num];
    break;
  case K_MWQ:
    if (b->kind == K_MWQ) {
      const char *ref = a->s2;
      if (!*ref) ref = b->s2;
      else if (*b->s2 && (!strcmp(ref, "&") || !strcmp(b->s2, "&"))) ref = "&";
      return mwq(s, b->k[0], quals_merge(s, a->k[1], b->k[1]), ref);
    }
    if (b->kind == K_TWQ) return mwq(s, b->k[0], quals_merge(s, a->k[1], b->k[1]), a->s2);
    break;
  case K_TWQ:
    if (b->kind == K_FUNC) return mwq(s, b, a->k[1], "");
    if (b->kind == K_TWQ) return n2(s, K_TWQ, b->k[0], quals_merge(s, a->k[1], b->k[1]));
    if (b->kind == K_MWQ) return mwq(s, b->k[0], quals_merge(s, a->k[1], b->k[1]), b->s2);
    break;
  case K_REF:
    if (b->kind == K_REF) return b;
    if (b->kind == K_RREF) return n1(s, K_REF, b->k[0]);
    break;
  case K_RREF:
    if (b->kind == K_RREF || b->kind == K_REF) return b;
    break;
  case K_ARRAY:
    if (a->k[1]->kind == K_TWQ) {
      dn *q = a->k[1];
      return n2(s, K_TWQ, n2(s, K_ARRAY, a->k[0], q->k[0]), q->k[1]);
    }
    break;
  }
  return NULL;
}

static int skip_seen(st *s, dn *a, void *ctx) {
  (void)ctx;
  return seen(s, a);
}

static dn *simplify(st *s, dn *a) {
  s->gen++;
  dn *r = copy(s, a, simplify_one, skip_seen, NULL);
  return r ? r : a;
}

/* -------------------------------------------------------------- parser */

static dn *encoding(st *s, int params, int for_local);
static dn *name(st *s);
static dn *demangle_type(st *s, int is_cast);
static dn *template_args(st *s, list *out);
static dn *template_arg(st *s);
static dn *source_name(st *s);
static dn *substitution(st *s, int for_prefix);
static dn *template_param(st *s);
static dn *expression(st *s);
static dn *unqualified_name(st *s, int *is_cast);

static int has_return_type(dn *a) {
  switch (a->kind) {
  case K_QUAL:
    return a->flag ? has_return_type(a->k[1]) : 0;
  case K_TEMPLATE: {
    dn *n = a->k[0];
    while (n->kind == K_QUAL) n = n->k[1];
    return !(n->kind == K_CTOR || n->kind == K_DTOR || n->kind == K_CAST);
  }
  case K_TWQ:
  case K_MWQ:
    return has_return_type(a->k[0]);
  }
  return 0;
}

static dn *find_template(dn *c) {
  switch (c->kind) {
  case K_TEMPLATE:
    return c;
  case K_QUAL:
    if (c->flag || c->k[1]->kind == K_CTOR) return find_template(c->k[1]);
    return NULL;
  case K_MWQ:
    return find_template(c->k[0]);
  case K_CTOR:
    return c->k[1] ? find_template(c->k[1]) : NULL;
  }
  return NULL;
}

static int number(st *s) {
  int neg = 0, v = 0;
  if (at(s, 'n')) {
    neg = 1;
    advance(s, 1);
  }
  if (!is_digit(*s->str)) fail(s);
  while (is_digit(*s->str)) {
    if (v >= 214748354) fail(s);
    v = v * 10 + (*s->str - '0');
    advance(s, 1);
  }
  return neg ? -v : v;
}

static int seq_id(st *s, int eof_ok) {
  if (at(s, '_')) {
    advance(s, 1);
    return 0;
  }
  int id = 0;
  for (;;) {
    char c = *s->str;
    if (!c) {
      if (eof_ok) return id + 1;
      fail(s);
    }
    if (id >= 59652287) fail(s);
    if (c == '_') {
      advance(s, 1);
      return id + 1;
    }
    if (is_digit(c)) id = id * 36 + (c - '0');
    else if (is_upper(c)) id = id * 36 + (c - 'A') + 10;
    else fail(s);
    advance(s, 1);
  }
}

static int compact_number(st *s) {
  if (!*s->str || at(s, 'n')) fail(s);
  if (at(s, '_')) {
    advance(s, 1);
    return 0;
  }
  int n = number(s);
  check_char(s, '_');
  return n + 1;
}

static dn *tagged_name(st *s, dn *a) {
  while (at(s, 'B')) {
    advance(s, 1);
    dn *tag = source_name(s);
    a = n2(s, K_TAGGED, a, tag);
  }
  return a;
}

/* setTemplate: fills the template of a cast's template parameters */
typedef struct set_ctx {
  dn *tmpl;
} set_ctx;

static int set_one(st *s, dn *a, void *ctx) {
  dn *t = ((set_ctx *)ctx)->tmpl;
  switch (a->kind) {
  case K_TPARAM:
    if (a->tmpl) {
      if (t) fail(s);
      return 0;
    }
    if (!t || a->num >= t->nk - 1) fail(s);
    a->tmpl = t;
    return 0;
  case K_CLOSURE:
    return 0;
  }
  return !seen(s, a);
}

static void set_template(st *s, dn *a, dn *t) {
  set_ctx c = {t};
  s->gen++;
  traverse(s, a, set_one, &c);
}

static void clear_template_args(st *s, dn *tmpl) {
  for (int i = 1; i < tmpl->nk; i++) set_template(s, tmpl->k[i], NULL);
}

static dn *discriminator(st *s, dn *a) {
  if (!at(s, '_')) {
    const char *p = s->str;
    while (*p) {
      if (!is_digit(*p)) return a;
      p++;
    }
    s->str = p;
    return a;
  }
  advance(s, 1);
  int trailing = 0;
  if (at(s, '_')) {
    advance(s, 1);
    trailing = 1;
  }
  int d = number(s);
  if (d < 0) fail(s);
  if (trailing && d >= 10) check_char(s, '_');
  return a;
}

static dn *cv_qualifiers(st *s) {
  list q = {0};
  for (;;) {
    const char *n = NULL;
    char c = *s->str;
    if (c == 'r') n = "restrict";
    else if (c == 'V') n = "volatile";
    else if (c == 'K') n = "const";
    else if (c == 'D' && s->str[1] == 'x') n = "transaction_safe";
    else if (c == 'D' && s->str[1] == 'o') n = "noexcept";
    else if (c == 'D' && (s->str[1] == 'O' || s->str[1] == 'w')) fail(s); /* expressions */
    else break;
    advance(s, c == 'D' ? 2 : 1);
    /* prepended: the last letter is printed first */
    push(s, &q, NULL);
    memmove(q.v + 1, q.v, (q.n - 1) * sizeof *q.v);
    q.v[0] = name_s(s, K_NAME, n);
  }
  return q.n ? from_list(s, K_QUALS, 0, &q) : NULL;
}

static const char *ref_qualifier(st *s) {
  if (at(s, 'R')) {
    advance(s, 1);
    return "&";
  }
  if (at(s, 'O')) {
    advance(s, 1);
    return "&&";
  }
  return "";
}

static dn *parmlist(st *s, list *l) {
  for (;;) {
    char c = *s->str;
    if (!c || c == 'E' || c == '.') break;
    if ((c == 'R' || c == 'O') && s->str[1] == 'E') break;
    push(s, l, demangle_type(s, 0));
  }
  if (!l->n) fail(s);
  if (l->n == 1 && l->v[0]->kind == K_BUILTIN && !strcmp(l->v[0]->s, "void")) l->n = 0;
  return NULL;
}

static dn *bare_function_type(st *s, int has_ret) {
  if (at(s, 'J')) {
    has_ret = 1;
    advance(s, 1);
  }
  dn *ret = has_ret ? demangle_type(s, 0) : NULL;
  list l = {0};
  parmlist(s, &l);
  dn *f = from_list(s, K_FUNC, 1, &l);
  f->k[0] = ret;
  return f;
}

static dn *function_type(st *s) {
  check_char(s, 'F');
  if (at(s, 'Y')) advance(s, 1);
  dn *ret = bare_function_type(s, 1);
  const char *r = ref_qualifier(s);
  if (*r) ret = mwq(s, ret, NULL, r);
  check_char(s, 'E');
  return ret;
}

static const char *builtin(char c) {
  switch (c) {
  case 'a': return "signed char";
  case 'b': return "bool";
  case 'c': return "char";
  case 'd': return "double";
  case 'e': return "long double";
  case 'f': return "float";
  case 'g': return "__float128";
  case 'h': return "unsigned char";
  case 'i': return "int";
  case 'j': return "unsigned int";
  case 'l': return "long";
  case 'm': return "unsigned long";
  case 'n': return "__int128";
  case 'o': return "unsigned __int128";
  case 's': return "short";
  case 't': return "unsigned short";
  case 'v': return "void";
  case 'w': return "wchar_t";
  case 'x': return "long long";
  case 'y': return "unsigned long long";
  case 'z': return "...";
  }
  return NULL;
}

/* the standard substitutions: Sa .. Sd, short (subAST) and long
 * (verboseAST) forms; one node each per name, compared by identity */
typedef struct std_subs {
  dn *sh[7], *lg[7];
} std_subs;
static const char std_codes[] = "tabsiod";

static dn *std_q(st *s, const char *n) {
  return n2(s, K_QUAL, name_s(s, K_NAME, "std"), name_s(s, K_NAME, n));
}

static dn *std_t(st *s, const char *n, int traits, int alloc_) {
  list l = {0};
  push(s, &l, name_s(s, K_BUILTIN, "char"));
  dn *ct = n2(s, K_TEMPLATE, std_q(s, "char_traits"), name_s(s, K_BUILTIN, "char"));
  if (traits) push(s, &l, ct);
  if (alloc_) push(s, &l, n2(s, K_TEMPLATE, std_q(s, "allocator"), name_s(s, K_BUILTIN, "char")));
  dn *t = from_list(s, K_TEMPLATE, 1, &l);
  t->k[0] = std_q(s, n);
  return t;
}

static dn *std_sub(st *s, char c, int verbose) {
  if (!s->std) {
    s->std = alloc(s, sizeof *s->std);
    memset(s->std, 0, sizeof *s->std);
  }
  const char *p = strchr(std_codes, c);
  if (!c || !p) return NULL;
  int i = (int)(p - std_codes);
  dn **slot = verbose ? &s->std->lg[i] : &s->std->sh[i];
  if (*slot) return *slot;
  if (c == 't') *slot = name_s(s, K_NAME, "std");
  else if (c == 'a') *slot = std_q(s, "allocator");
  else if (c == 'b') *slot = std_q(s, "basic_string");
  else if (!verbose)
    *slot = std_q(s, c == 's'   ? "string"
                     : c == 'i' ? "istream"
                     : c == 'o' ? "ostream"
                                : "iostream");
  else if (c == 's') *slot = std_t(s, "basic_string", 1, 1);
  else
    *slot = std_t(s, c == 'i' ? "basic_istream" : c == 'o' ? "basic_ostream" : "basic_iostream", 1,
                  0);
  return *slot;
}

/* template_args, or NULL when they do not parse */
static dn *try_template_args(st *s, list *l) {
  jmp_buf jb, *old = s->jb;
  s->jb = &jb;
  if (setjmp(jb)) {
    s->jb = old;
    return NULL;
  }
  dn *r = template_args(s, l);
  s->jb = old;
  return r;
}

static dn *demangle_cast_template_args(st *s, dn *tp, int add_subst) {
  /* on failure, or when no second <template-args> follows, back to
   * before them (the arena, the node and step counts and the marks'
   * generation go on) */
  st save = *s;
  list l = {0};
  dn *args = try_template_args(s, &l);
  if (args && at(s, 'I')) {
    if (add_subst) subs_add(s, tp);
    args->k[0] = tp;
    return args;
  }
  arena_blk *blk = s->blk;
  size_t nodes = s->nodes, bytes = s->bytes;
  long steps = s->steps;
  unsigned gen = s->gen;
  std_subs *std = s->std;
  *s = save;
  s->blk = blk;
  s->nodes = nodes;
  s->bytes = bytes;
  s->steps = steps;
  s->gen = gen;
  s->std = std;
  return tp;
}

static dn *array_type(st *s, int is_cast) {
  check_char(s, 'A');
  dn *dim;
  if (at(s, '_')) {
    dim = name_s(s, K_NAME, "");
  } else if (is_digit(*s->str)) {
    size_t i = 1;
    while (is_digit(s->str[i])) i++;
    dim = name_n(s, s->str, i);
    advance(s, i);
  } else {
    dim = expression(s);
  }
  check_char(s, '_');
  dn *t = demangle_type(s, is_cast);
  if (t->kind == K_TWQ) return n2(s, K_TWQ, n2(s, K_ARRAY, dim, t->k[0]), t->k[1]);
  return n2(s, K_ARRAY, dim, t);
}

static dn *vector_type(st *s, int is_cast) {
  dn *dim;
  if (!*s->str) fail(s);
  if (at(s, '_')) {
    advance(s, 1);
    dim = expression(s);
  } else {
    int num = number(s);
    char b[16];
    snprintf(b, sizeof b, "%d", num);
    dim = name_n(s, b, strlen(b));
  }
  check_char(s, '_');
  dn *t = demangle_type(s, is_cast);
  return n2(s, K_VECTOR, dim, t);
}

static dn *ptr_mem_type(st *s, int is_cast) {
  check_char(s, 'M');
  dn *cl = demangle_type(s, 0);
  dn *mem = demangle_type(s, is_cast);
  return n2(s, K_PTRMEM, cl, mem);
}

static dn *template_param(st *s) {
  check_char(s, 'T');
  int level = 0;
  if (at(s, 'L')) {
    advance(s, 1);
    level = compact_number(s);
  }
  int n = compact_number(s);
  if ((size_t)level >= s->ntemplates) {
    if (s->lambda_template_level > 0 && level == s->lambda_template_level - 1) {
      dn *d = node(s, K_LAMBDA_AUTO, 0);
      d->num = n;
      return d;
    }
    fail(s);
  }
  dn *t = s->templates[level];
  dn *d = node(s, K_TPARAM, 0);
  d->num = n;
  if (!t) return d; /* a cast's: filled in later */
  if (n >= t->nk - 1) {
    if (s->lambda_template_level > 0 && level == s->lambda_template_level - 1) {
      d->kind = K_LAMBDA_AUTO;
      return d;
    }
    fail(s);
  }
  d->tmpl = t;
  return d;
}

/* template_args: a Template node with k[0] to fill in, args in k[1..] */
static dn *template_args(st *s, list *l) {
  if (!at(s, 'I') && !at(s, 'J')) fail(s);
  advance(s, 1);
  while (!at(s, 'E')) {
    if (!*s->str) fail(s);
    push(s, l, template_arg(s));
  }
  advance(s, 1);
  return from_list(s, K_TEMPLATE, 1, l);
}

/* <template-args> after name: Template{name, args} */
static dn *with_args(st *s, dn *name) {
  list l = {0};
  dn *t = template_args(s, &l);
  t->k[0] = name;
  return t;
}


static dn *expr_primary(st *s) {
  check_char(s, 'L');
  if (!*s->str) fail(s);
  dn *ret;
  if (at(s, '_') || at(s, 'Z')) {
    if (at(s, '_')) advance(s, 1);
    check_char(s, 'Z');
    ret = encoding(s, 1, 0);
  } else {
    dn *t = demangle_type(s, 0);
    int neg = 0;
    if (at(s, 'n')) {
      neg = 1;
      advance(s, 1);
    }
    if (at(s, 'E')) {
      if (t->kind == K_BUILTIN && !strcmp(t->s, "decltype(nullptr)")) {
        /* accepted without a value */
      } else if (t->kind == K_CLOSURE) {
        advance(s, 1);
        return n1(s, K_LAMBDAEXPR, t);
      } else if (t->kind == K_ARRAY || (t->kind == K_TWQ && t->k[0]->kind == K_ARRAY)) {
        advance(s, 1);
        return n1(s, K_STRLIT, t);
      } else {
        fail(s);
      }
    }
    size_t i = 0;
    while (s->str[i] && s->str[i] != 'E') i++;
    ret = n1(s, K_LITERAL, t);
    ret->s = name_n(s, s->str, i)->s;
    ret->flag = (unsigned char)neg;
    advance(s, i);
  }
  check_char(s, 'E');
  return ret;
}

static dn *template_arg(st *s) {
  enter(s);
  dn *r;
  switch (*s->str) {
  case 0:
    fail(s);
    return NULL;
  case 'X':
    advance(s, 1);
    r = expression(s);
    check_char(s, 'E');
    break;
  case 'L':
    r = expr_primary(s);
    break;
  case 'I':
  case 'J': {
    list l = {0};
    dn *t = template_args(s, &l);
    r = from_list(s, K_ARGPACK, 0, &l);
    (void)t;
    break;
  }
  default:
    r = demangle_type(s, 0);
  }
  s->depth--;
  return r;
}

static dn *closure_type_name(st *s) {
  check_char(s, 'U');
  check_char(s, 'l');
  int old = s->lambda_template_level;
  s->lambda_template_level = (int)s->ntemplates + 1;
  if (at(s, 'T') && strchr("ynpt", s->str[1]) && s->str[1]) fail(s); /* template params */
  list l = {0};
  parmlist(s, &l);
  s->lambda_template_level = old;
  check_char(s, 'E');
  int num = compact_number(s);
  dn *d = from_list(s, K_CLOSURE, 0, &l);
  d->num = num;
  return d;
}

static dn *unnamed_type_name(st *s) {
  check_char(s, 'U');
  check_char(s, 't');
  int num = compact_number(s);
  dn *d = node(s, K_UNNAMED, 0);
  d->num = num;
  subs_add(s, d);
  return d;
}

static dn *source_name(st *s) {
  int v = number(s);
  if (v <= 0) fail(s);
  if (strnlen(s->str, (size_t)v) < (size_t)v) fail(s);
  const char *id = s->str;
  advance(s, (size_t)v);
  if (v > 10 && !strncmp(id, "_GLOBAL_", 8) && (id[8] == '.' || id[8] == '_' || id[8] == '$') &&
      id[9] == 'N')
    return name_s(s, K_NAME, "(anonymous namespace)");
  return name_n(s, id, (size_t)v);
}

static const char *operator_code(const char *c, int *args) {
  static const struct {
    char code[3];
    char args;
    const char *name;
  } ops[] = {
      {"aN", 2, "&="},  {"aS", 2, "="},  {"aa", 2, "&&"}, {"ad", 1, "&"},  {"an", 2, "&"},
      {"at", 1, "alignof "}, {"aw", 1, "co_await "}, {"az", 1, "alignof "},
      {"cc", 2, "const_cast"}, {"cl", 2, "()"}, {"cp", 2, "()"}, {"cm", 2, ","},
      {"co", 1, "~"},  {"dV", 2, "/="}, {"dX", 3, "[...]="}, {"da", 1, "delete[] "},
      {"dc", 2, "dynamic_cast"}, {"de", 1, "*"}, {"di", 2, "="}, {"dl", 1, "delete "},
      {"ds", 2, ".*"}, {"dt", 2, "."}, {"dv", 2, "/"}, {"dx", 2, "]="}, {"eO", 2, "^="},
      {"eo", 2, "^"},  {"eq", 2, "=="}, {"fl", 2, "..."}, {"fr", 2, "..."}, {"fL", 3, "..."},
      {"fR", 3, "..."}, {"ge", 2, ">="}, {"gs", 1, "::"}, {"gt", 2, ">"}, {"ix", 2, "[]"},
      {"lS", 2, "<<="}, {"le", 2, "<="}, {"li", 1, "operator\"\" "}, {"ls", 2, "<<"},
      {"lt", 2, "<"},  {"mI", 2, "-="}, {"mL", 2, "*="}, {"mi", 2, "-"}, {"ml", 2, "*"},
      {"mm", 1, "--"}, {"na", 3, "new[]"}, {"ne", 2, "!="}, {"ng", 1, "-"}, {"nt", 1, "!"},
      {"nw", 3, "new"}, {"nx", 1, "noexcept"}, {"oR", 2, "|="}, {"oo", 2, "||"},
      {"or", 2, "|"},  {"pL", 2, "+="}, {"pl", 2, "+"},  {"pm", 2, "->*"}, {"pp", 1, "++"},
      {"ps", 1, "+"},  {"pt", 2, "->"}, {"qu", 3, "?"},  {"rM", 2, "%="}, {"rS", 2, ">>="},
      {"rc", 2, "reinterpret_cast"}, {"rm", 2, "%"}, {"rs", 2, ">>"}, {"sP", 1, "sizeof..."},
      {"sZ", 1, "sizeof..."}, {"sc", 2, "static_cast"}, {"ss", 2, "<=>"}, {"st", 1, "sizeof "},
      {"sz", 1, "sizeof "}, {"tr", 0, "throw"}, {"tw", 1, "throw "},
  };
  for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
    if (ops[i].code[0] == c[0] && ops[i].code[1] == c[1]) {
      *args = ops[i].args;
      return ops[i].name;
    }
  return NULL;
}

/* operatorName: an Operator or a Cast; *args: its operand count */
static dn *operator_name(st *s, int in_expr, int *args) {
  if (!s->str[0] || !s->str[1]) fail(s);
  char c0 = s->str[0], c1 = s->str[1];
  advance(s, 2);
  if (c0 == 'v' && is_digit(c1)) {
    *args = c1 - '0';
    return name_s(s, K_OPERATOR, source_name(s)->s);
  }
  if (c0 == 'c' && c1 == 'v') {
    if (!in_expr) tmpl_push(s, NULL);
    dn *t = demangle_type(s, !in_expr);
    if (!in_expr) s->ntemplates--;
    *args = 1;
    return n1(s, K_CAST, t);
  }
  const char *op = operator_code(s->str - 2, args);
  if (!op) fail(s);
  return name_s(s, K_OPERATOR, op);
}

static dn *expression(st *s);

/* an expression's node: its kids, never printed */
static dn *expr_n(st *s, dn *a, dn *b, dn *c) {
  dn *d = node(s, K_EXPR, 3);
  d->k[0] = a;
  d->k[1] = b;
  d->k[2] = c;
  return d;
}

static dn *expr_list(st *s, char stop) {
  list l = {0};
  if (at(s, stop)) {
    advance(s, 1);
    return from_list(s, K_EXPR, 0, &l);
  }
  for (;;) {
    push(s, &l, expression(s));
    if (at(s, stop)) {
      advance(s, 1);
      break;
    }
  }
  return from_list(s, K_EXPR, 0, &l);
}

static dn *base_unresolved_name(st *s) {
  dn *n;
  int args;
  if (!strncmp(s->str, "on", 2)) {
    advance(s, 2);
    n = operator_name(s, 1, &args);
  } else if (!strncmp(s->str, "dn", 2)) {
    advance(s, 2);
    n = n1(s, K_DTOR, is_digit(*s->str) ? source_name(s) : demangle_type(s, 0));
  } else if (is_digit(*s->str)) {
    n = source_name(s);
  } else {
    n = operator_name(s, 1, &args);
  }
  if (at(s, 'I')) {
    n = with_args(s, n);
  }
  return n;
}

static dn *unresolved_name(st *s) {
  if (!strncmp(s->str, "gs", 2)) {
    advance(s, 2);
    return expr_n(s, unresolved_name(s), NULL, NULL);
  }
  if (strncmp(s->str, "sr", 2)) return base_unresolved_name(s);
  advance(s, 2);
  char c = *s->str;
  if (!c) fail(s);
  if (c == 'T' || c == 'D' || c == 'S') {
    dn *t = demangle_type(s, 0);
    dn *n = n2(s, K_QUAL, t, base_unresolved_name(s));
    if (at(s, 'I')) {
      n = with_args(s, n);
      subs_add(s, n);
    }
    return n;
  }
  dn *sc = NULL;
  if (c == 'N') {
    advance(s, 1);
    sc = demangle_type(s, 0);
  }
  while (!at(s, 'E')) {
    if (sc && *s->str && !is_digit(*s->str)) {
      if (sc->kind == K_QUAL) {
        dn *a = sc->k[0];
        if (a->kind == K_TEMPLATE) {
          subs_add(s, a->k[0]);
          subs_add(s, a);
        } else {
          subs_add(s, a);
        }
        return sc;
      }
    }
    dn *n = source_name(s);
    if (at(s, 'I')) {
      subs_add(s, n);
      n = with_args(s, n);
    }
    sc = sc ? n2(s, K_QUAL, sc, n) : n;
    subs_add(s, sc);
  }
  if (!sc) fail(s);
  advance(s, 1);
  return n2(s, K_QUAL, sc, base_unresolved_name(s));
}

static dn *expr_primary(st *s);

/* expression, less so, sp, sZ, sP, mc, il, tl, st and u (vendor) */
static dn *expression(st *s) {
  enter(s);
  dn *r = NULL;
  char c = *s->str, c1 = c ? s->str[1] : 0;
  if (!c) fail(s);
  if (c == 'L') {
    r = expr_primary(s);
  } else if (c == 'T') {
    r = template_param(s);
  } else if (c == 's' && c1 == 'r') {
    r = unresolved_name(s);
  } else if (c == 's' && c1 == 'o') { /* subobject */
    advance(s, 2);
    dn *typ = demangle_type(s, 0);
    dn *e = expression(s);
    if (at(s, 'n') || is_digit(*s->str)) number(s);
    while (at(s, '_')) {
      advance(s, 1);
      if (at(s, 'n') || is_digit(*s->str)) number(s);
    }
    if (at(s, 'p')) advance(s, 1);
    check_char(s, 'E');
    r = expr_n(s, typ, e, NULL);
  } else if (c == 's' && (c1 == 'p' || c1 == 'Z')) {
    fail(s); /* pack expansions and sizeof... of a pack */
  } else if (c == 's' && c1 == 'P') {
    advance(s, 2);
    list l = {0};
    while (!at(s, 'E')) {
      if (!*s->str) fail(s);
      push(s, &l, template_arg(s));
    }
    advance(s, 1);
    r = from_list(s, K_EXPR, 0, &l);
  } else if (c == 'm' && c1 == 'c') {
    advance(s, 2);
    dn *typ = demangle_type(s, 0);
    dn *e = expression(s);
    if (at(s, 'n') || is_digit(*s->str)) number(s);
    check_char(s, 'E');
    r = expr_n(s, typ, e, NULL);
  } else if ((c == 'i' || c == 't') && c1 == 'l') {
    advance(s, 2);
    dn *typ = c == 't' ? demangle_type(s, 0) : NULL;
    r = expr_n(s, typ, expr_list(s, 'E'), NULL);
  } else if (c == 's' && c1 == 't') {
    int args;
    dn *o = operator_name(s, 1, &args);
    r = expr_n(s, o, demangle_type(s, 0), NULL);
  } else if (c == 'u') {
    fail(s); /* vendor expressions */
  } else if (c == 'f' && c1 == 'p') {
    advance(s, 2);
    if (at(s, 'T')) {
      advance(s, 1);
    } else {
      cv_qualifiers(s);
      compact_number(s);
    }
    r = expr_n(s, NULL, NULL, NULL);
  } else if (c == 'f' && c1 == 'L' && is_digit(s->str[2])) {
    advance(s, 2);
    number(s);
    check_char(s, 'p');
    cv_qualifiers(s);
    compact_number(s);
    r = expr_n(s, NULL, NULL, NULL);
  } else if (is_digit(c) || (c == 'o' && c1 == 'n')) {
    if (c == 'o') advance(s, 2);
    int is_cast;
    r = unqualified_name(s, &is_cast);
    if (at(s, 'I')) {
      r = with_args(s, r);
    }
  } else {
    if (!c1) fail(s);
    char code[2] = {c, c1};
    int args;
    dn *o = operator_name(s, 1, &args);
    if (args == 0) {
      r = expr_n(s, o, NULL, NULL);
    } else if (args == 1) {
      if ((code[0] == 'p' && code[1] == 'p') || (code[0] == 'm' && code[1] == 'm'))
        if (at(s, '_')) advance(s, 1);
      dn *operand;
      if (o->kind == K_CAST && at(s, '_')) {
        advance(s, 1);
        operand = expr_list(s, 'E');
      } else {
        operand = expression(s);
      }
      r = expr_n(s, o, operand, NULL);
    } else if (args == 2) {
      dn *left, *right;
      if (strchr("sdcr", code[0]) && code[1] == 'c') {
        left = demangle_type(s, 0);
      } else if (code[0] == 'f') {
        int a2;
        left = operator_name(s, 1, &a2);
        right = expression(s);
        r = expr_n(s, o, left, right);
        s->depth--;
        return r;
      } else if (code[0] == 'd' && code[1] == 'i') {
        int is_cast;
        left = unqualified_name(s, &is_cast);
      } else {
        left = expression(s);
      }
      if (code[0] == 'c' && (code[1] == 'l' || code[1] == 'p')) {
        right = expr_list(s, 'E');
      } else if ((code[0] == 'd' || code[0] == 'p') && code[1] == 't') {
        right = unresolved_name(s);
        if (at(s, 'I')) {
          right = with_args(s, right);
        }
      } else {
        right = expression(s);
      }
      r = expr_n(s, o, left, right);
    } else if (args == 3) {
      if (code[0] == 'n') {
        if (code[1] != 'w' && code[1] != 'a') fail(s);
        dn *place = expr_list(s, '_');
        dn *t = demangle_type(s, 0);
        dn *ini = NULL;
        if (at(s, 'E')) advance(s, 1);
        else if (!strncmp(s->str, "pi", 2)) {
          advance(s, 2);
          ini = expr_list(s, 'E');
        } else if (!strncmp(s->str, "il", 2)) {
          ini = expression(s);
        } else {
          fail(s);
        }
        r = expr_n(s, place->nk ? place : NULL, t, ini);
      } else if (code[0] == 'f') {
        int a2;
        dn *first = operator_name(s, 1, &a2);
        dn *second = expression(s);
        dn *third = expression(s);
        r = expr_n(s, first, second, third);
      } else {
        dn *first = expression(s);
        dn *second = expression(s);
        dn *third = expression(s);
        r = expr_n(s, first, second, third);
      }
    } else {
      fail(s);
    }
  }
  s->depth--;
  return r;
}

static dn *unqualified_name(st *s, int *is_cast) {
  dn *a = NULL;
  *is_cast = 0;
  char c = *s->str;
  if (is_digit(c)) {
    a = source_name(s);
  } else if (is_lower(c)) {
    int args;
    a = operator_name(s, 0, &args);
    if (a->kind == K_CAST) *is_cast = 1;
    if (a->kind == K_OPERATOR && !strcmp(a->s, "operator\"\" ")) a = n1(s, K_LITOP, source_name(s));
  } else if (c == 'D' && s->str[1] == 'C') {
    advance(s, 2);
    list l = {0};
    for (;;) {
      push(s, &l, source_name(s));
      if (at(s, 'E')) {
        advance(s, 1);
        break;
      }
    }
    a = from_list(s, K_STRUCTBIND, 0, &l);
  } else if (c == 'L') {
    advance(s, 1);
    a = discriminator(s, source_name(s));
  } else if (c == 'U') {
    char c2 = s->str[1];
    if (c2 == 'b') {
      advance(s, 2);
      compact_number(s);
      a = name_s(s, K_NAME, "'block-literal'");
    } else if (c2 == 'l') {
      a = closure_type_name(s);
    } else if (c2 == 't') {
      a = unnamed_type_name(s);
    } else {
      fail(s);
    }
  } else {
    fail(s);
  }
  if (at(s, 'B')) a = tagged_name(s, a);
  return a;
}

static dn *get_last(dn *a) {
  for (;;) {
    if (a->kind == K_TEMPLATE) a = a->k[0];
    else if (a->kind == K_QUAL) a = a->k[1];
    else if (a->kind == K_TAGGED) a = a->k[0];
    else return a;
  }
}

static dn *prefix(st *s) {
  dn *a = NULL, *last = NULL, *cast = NULL;
  for (;;) {
    char c = *s->str;
    dn *next = NULL;
    if (!c) fail(s);
    if (is_digit(c) || is_lower(c) || c == 'U' || c == 'L' || (c == 'D' && s->str[1] == 'C')) {
      int is_un_cast;
      dn *un = unqualified_name(s, &is_un_cast);
      next = un;
      if (is_un_cast) {
        if (un->kind == K_TAGGED) un = un->k[0];
        cast = un;
      }
    } else {
      switch (c) {
      case 'C': {
        int inheriting = 0;
        advance(s, 1);
        if (at(s, 'I')) {
          inheriting = 1;
          advance(s, 1);
        }
        if (!*s->str || !last) fail(s);
        advance(s, 1);
        dn *base = inheriting ? demangle_type(s, 0) : NULL;
        next = n2(s, K_CTOR, get_last(last), base);
        if (at(s, 'B')) next = tagged_name(s, next);
        break;
      }
      case 'D':
        if (s->str[1] == 'T' || s->str[1] == 't') {
          next = demangle_type(s, 0);
          break;
        }
        if (!s->str[1] || !last) fail(s);
        advance(s, 2);
        next = n1(s, K_DTOR, get_last(last));
        if (at(s, 'B')) next = tagged_name(s, next);
        break;
      case 'S':
        next = substitution(s, 1);
        break;
      case 'I':
      case 'J': {
        if (!a) fail(s);
        list l = {0};
        dn *tmpl;
        if (c == 'I') {
          tmpl = template_args(s, &l);
        } else {
          /* clang's J without I: the J is read as an argument pack */
          while (!at(s, 'E')) {
            if (!*s->str) fail(s);
            push(s, &l, template_arg(s));
          }
          advance(s, 1);
          tmpl = from_list(s, K_TEMPLATE, 1, &l);
        }
        tmpl->k[0] = a;
        if (cast) {
          set_template(s, cast, tmpl);
          clear_template_args(s, tmpl);
          cast = NULL;
        }
        a = NULL;
        next = tmpl;
        break;
      }
      case 'T':
        next = template_param(s);
        break;
      case 'E':
        if (!a) fail(s);
        if (cast) set_template(s, cast, cast->k[0]->kind == K_TEMPLATE ? cast->k[0] : NULL);
        return a;
      case 'M':
        if (!a) fail(s);
        advance(s, 1);
        continue;
      default:
        fail(s);
      }
    }
    last = next;
    if (!a) a = next;
    else a = n2(s, K_QUAL, a, next);
    if (c != 'S' && !at(s, 'E')) subs_add(s, a);
  }
}

static dn *nested_name(st *s) {
  check_char(s, 'N');
  dn *q = cv_qualifiers(s);
  const char *r = ref_qualifier(s);
  dn *a = prefix(s);
  if (q || *r) a = mwq(s, a, q, r);
  check_char(s, 'E');
  return a;
}

static dn *local_name(st *s) {
  check_char(s, 'Z');
  dn *fn = encoding(s, 1, 1);
  check_char(s, 'E');
  dn *n;
  if (at(s, 's')) {
    advance(s, 1);
    n = discriminator(s, name_s(s, K_NAME, "string literal"));
  } else {
    int num = -1;
    if (at(s, 'd')) {
      advance(s, 1);
      num = compact_number(s);
    }
    n = discriminator(s, name(s));
    if (num >= 0) {
      n = n1(s, K_DEFAULTARG, n);
      n->num = num;
    }
  }
  dn *q = n2(s, K_QUAL, fn, n);
  q->flag = 1;
  return q;
}

/* an <unscoped-template-name>'s <template-args>, if any (a candidate when
 * add), and a cast operator's template parameters filled in */
static dn *name_args(st *s, dn *a, int add, int is_cast) {
  if (at(s, 'I')) {
    if (add) subs_add(s, a);
    dn *tmpl = with_args(s, a);
    if (is_cast) {
      set_template(s, a, tmpl);
      clear_template_args(s, tmpl);
      is_cast = 0;
    }
    a = tmpl;
  }
  if (is_cast) set_template(s, a, NULL);
  return a;
}

static dn *name(st *s) {
  enter(s);
  dn *a;
  int is_cast = 0;
  switch (*s->str) {
  case 0:
    fail(s);
    return NULL;
  case 'N':
    a = nested_name(s);
    break;
  case 'Z':
    a = local_name(s);
    break;
  case 'U':
    a = unqualified_name(s, &is_cast);
    if (is_cast) set_template(s, a, NULL);
    break;
  case 'S': {
    int subst = 0;
    if (!s->str[1]) fail(s);
    if (s->str[1] == 't') {
      advance(s, 2);
      a = unqualified_name(s, &is_cast);
      a = n2(s, K_QUAL, name_s(s, K_NAME, "std"), a);
    } else {
      a = substitution(s, 0);
      subst = 1;
    }
    a = name_args(s, a, !subst, is_cast);
    break;
  }
  default:
    a = unqualified_name(s, &is_cast);
    a = name_args(s, a, 1, is_cast);
  }
  s->depth--;
  return a;
}

/* substitution's copy: template parameters re-bound to the template now
 * active */
typedef struct sub_ctx {
  dn **copy_templates;
  size_t n, cap;
  int *old_level;
  size_t nold, capold;
  dn *ret;
} sub_ctx;

static dn *sub_copy(st *s, dn *a, void *vc) {
  sub_ctx *c = vc;
  int index;
  switch (a->kind) {
  case K_TYPED:
    if (a->k[0]->kind == K_TEMPLATE) { /* popTemplate */
      c->n--;
      s->lambda_template_level = c->old_level[--c->nold];
    }
    return NULL;
  case K_CLOSURE:
    s->lambda_template_level = c->old_level[--c->nold];
    return NULL;
  case K_TPARAM:
  case K_LAMBDA_AUTO:
    index = a->num;
    break;
  default:
    return NULL;
  }
  if (s->lambda_template_level > 0) {
    if (a->kind == K_LAMBDA_AUTO) return NULL;
    dn *d = node(s, K_LAMBDA_AUTO, 0);
    d->num = index;
    return d;
  }
  dn *t;
  if (c->n) t = c->copy_templates[c->n - 1];
  else if (c->ret->kind == K_TEMPLATE) t = c->ret;
  else fail(s);
  dn *d = node(s, K_TPARAM, 0);
  d->num = index;
  if (!t) return d;
  if (index >= t->nk - 1) fail(s);
  d->tmpl = t;
  return d;
}

static void push_old(st *s, sub_ctx *c) {
  if (c->nold == c->capold) {
    size_t cap = c->capold ? 2 * c->capold : 16;
    int *v = alloc(s, cap * sizeof *v);
    if (c->nold) memcpy(v, c->old_level, c->nold * sizeof *v);
    c->old_level = v;
    c->capold = cap;
  }
  c->old_level[c->nold++] = s->lambda_template_level;
}

static int sub_skip(st *s, dn *a, void *vc) {
  sub_ctx *c = vc;
  switch (a->kind) {
  case K_TYPED:
    if (a->k[0]->kind == K_TEMPLATE) { /* pushTemplate */
      grow(s, &c->copy_templates, &c->cap, c->n);
      c->copy_templates[c->n++] = a->k[0];
      push_old(s, c);
      s->lambda_template_level = 0;
    }
    return 0;
  case K_CLOSURE:
    push_old(s, c);
    s->lambda_template_level = (int)c->n + 1;
    return 0;
  case K_TPARAM:
  case K_LAMBDA_AUTO:
    return 0;
  }
  return seen(s, a);
}

static dn *substitution(st *s, int for_prefix) {
  check_char(s, 'S');
  char c = *s->str;
  if (!c) fail(s);
  if (c == '_' || is_digit(c) || is_upper(c)) {
    int id = seq_id(s, 0);
    if ((size_t)id >= s->nsubs) fail(s);
    dn *ret = s->subs[id];
    sub_ctx cx = {0};
    cx.ret = ret;
    /* copyTemplates starts as the templates now active */
    for (size_t i = 0; i < s->ntemplates; i++) {
      grow(s, &cx.copy_templates, &cx.cap, cx.n);
      cx.copy_templates[cx.n++] = s->templates[i];
    }
    s->gen++;
    dn *r = copy(s, ret, sub_copy, sub_skip, &cx);
    return r ? r : ret;
  }
  advance(s, 1);
  int verbose = for_prefix && (at(s, 'C') || at(s, 'D'));
  dn *a = std_sub(s, c, verbose);
  if (!a) fail(s);
  if (at(s, 'B')) {
    a = tagged_name(s, a);
    subs_add(s, a);
  }
  return a;
}

static dn *demangle_type(st *s, int is_cast) {
  if (!*s->str) fail(s);
  enter(s);
  int add_subst = 1;
  dn *q = cv_qualifiers(s);
  if (q) {
    if (!*s->str) fail(s);
    if (at(s, 'F')) add_subst = 0;
  }
  dn *ret = NULL;
  char c = *s->str;
  const char *bt = builtin(c);
  if (bt) {
    ret = name_s(s, K_BUILTIN, bt);
    advance(s, 1);
    if (q) {
      ret = n2(s, K_TWQ, ret, q);
      subs_add(s, ret);
    }
    s->depth--;
    return ret;
  }
  switch (c) {
  case 'u':
    advance(s, 1);
    ret = source_name(s);
    break;
  case 'F':
    ret = function_type(s);
    break;
  case 'N':
  case 'Z':
  case '0': case '1': case '2': case '3': case '4':
  case '5': case '6': case '7': case '8': case '9':
    ret = name(s);
    break;
  case 'A':
    ret = array_type(s, is_cast);
    break;
  case 'M':
    ret = ptr_mem_type(s, is_cast);
    break;
  case 'T':
    if (s->str[1] == 's' || s->str[1] == 'u' || s->str[1] == 'e') {
      char k = s->str[1];
      advance(s, 2);
      ret = n1(s, K_ELABORATED, name(s));
      ret->s = k == 's' ? "struct" : k == 'u' ? "union" : "enum";
      break;
    }
    ret = template_param(s);
    if (at(s, 'I')) {
      if (!is_cast) {
        subs_add(s, ret);
        ret = with_args(s, ret);
      } else {
        ret = demangle_cast_template_args(s, ret, 1);
      }
    }
    break;
  case 'S': {
    char c2 = s->str[1];
    if (is_digit(c2) || c2 == '_' || is_upper(c2)) {
      ret = substitution(s, 0);
      if (!at(s, 'I')) {
        add_subst = 0;
      } else if (ret->kind != K_TPARAM || !is_cast) {
        ret = with_args(s, ret);
      } else {
        dn *next = demangle_cast_template_args(s, ret, 0);
        if (next == ret) add_subst = 0;
        ret = next;
      }
    } else {
      ret = name(s);
      if (s->std && c2) {
        const char *p = strchr(std_codes, c2);
        if (p && (ret == s->std->sh[p - std_codes] || ret == s->std->lg[p - std_codes]))
          add_subst = 0;
      }
    }
    break;
  }
  case 'O':
  case 'P':
  case 'R':
  case 'C':
  case 'G': {
    advance(s, 1);
    dn *t = demangle_type(s, is_cast);
    int k = c == 'O' ? K_RREF : c == 'P' ? K_PTR : c == 'R' ? K_REF : c == 'C' ? K_COMPLEX : K_IMAG;
    ret = n1(s, k, t);
    break;
  }
  case 'U':
    if (!s->str[1]) fail(s);
    if (s->str[1] == 'l') {
      ret = closure_type_name(s);
      add_subst = 0;
    } else if (s->str[1] == 't') {
      ret = unnamed_type_name(s);
      add_subst = 0;
    } else {
      advance(s, 1);
      dn *n = source_name(s);
      if (at(s, 'I')) {
        n = with_args(s, n);
      }
      dn *t = demangle_type(s, is_cast);
      ret = n2(s, K_VENDOR, n, t);
    }
    break;
  case 'D': {
    advance(s, 1);
    if (!*s->str) fail(s);
    add_subst = 0;
    char c2 = *s->str;
    advance(s, 1);
    switch (c2) {
    case 'a': ret = name_s(s, K_NAME, "auto"); break;
    case 'c': ret = name_s(s, K_NAME, "decltype(auto)"); break;
    case 'f': ret = name_s(s, K_BUILTIN, "decimal32"); break;
    case 'd': ret = name_s(s, K_BUILTIN, "decimal64"); break;
    case 'e': ret = name_s(s, K_BUILTIN, "decimal128"); break;
    case 'h': ret = name_s(s, K_BUILTIN, "half"); break;
    case 'u': ret = name_s(s, K_BUILTIN, "char8_t"); break;
    case 's': ret = name_s(s, K_BUILTIN, "char16_t"); break;
    case 'i': ret = name_s(s, K_BUILTIN, "char32_t"); break;
    case 'n': ret = name_s(s, K_BUILTIN, "decltype(nullptr)"); break;
    case 'F': {
      /* _FloatN only; fixed-point types are left out */
      if (!is_digit(*s->str)) fail(s);
      int bits = number(s);
      if (!at(s, '_') || !bits) fail(s);
      advance(s, 1);
      ret = node(s, K_BINARYFP, 0);
      ret->num = bits;
      break;
    }
    case 'v':
      ret = vector_type(s, is_cast);
      add_subst = 1;
      break;
    case 'p': /* a pack expansion: never printed here */
      ret = n1(s, K_EXPR, demangle_type(s, is_cast));
      add_subst = 1;
      break;
    case 'T':
    case 't': /* decltype(expression): never printed here */
      ret = n1(s, K_EXPR, expression(s));
      check_char(s, 'E');
      add_subst = 1;
      break;
    default: /* decltype, pack expansions, ... */
      fail(s);
    }
    break;
  }
  default:
    fail(s);
  }
  if (add_subst) subs_add(s, ret);
  if (q) {
    if (ret->kind == K_FUNC) {
      ret = mwq(s, ret, q, "");
    } else if (ret->kind == K_MWQ) {
      ret = mwq(s, ret->k[0], quals_merge(s, q, ret->k[1]), ret->s2);
    } else {
      if (ret->kind == K_TWQ) {
        q = quals_merge(s, q, ret->k[1]);
        ret = ret->k[0];
      }
      ret = n2(s, K_TWQ, ret, q);
    }
    subs_add(s, ret);
  }
  s->depth--;
  return ret;
}

static void call_offset(st *s, char c) {
  if (!c) {
    c = *s->str;
    if (!c) fail(s);
    advance(s, 1);
  }
  if (c == 'h') {
    number(s);
  } else if (c == 'v') {
    number(s);
    check_char(s, '_');
    number(s);
  } else {
    fail(s);
  }
  check_char(s, '_');
}

static dn *special(st *s, const char *prefix, dn *v) {
  dn *d = n1(s, K_SPECIAL, v);
  d->s = prefix;
  return d;
}

static dn *special_name(st *s) {
  char c0 = *s->str;
  advance(s, 1);
  char c = *s->str;
  if (!c) fail(s);
  advance(s, 1);
  if (c0 == 'T') {
    switch (c) {
    case 'V': return special(s, "vtable for ", demangle_type(s, 0));
    case 'T': return special(s, "VTT for ", demangle_type(s, 0));
    case 'I': return special(s, "typeinfo for ", demangle_type(s, 0));
    case 'S': return special(s, "typeinfo name for ", demangle_type(s, 0));
    case 'A': return special(s, "template parameter object for ", template_arg(s));
    case 'h':
      call_offset(s, 'h');
      return special(s, "non-virtual thunk to ", encoding(s, 1, 0));
    case 'v':
      call_offset(s, 'v');
      return special(s, "virtual thunk to ", encoding(s, 1, 0));
    case 'c':
      call_offset(s, 0);
      call_offset(s, 0);
      return special(s, "covariant return thunk to ", encoding(s, 1, 0));
    case 'C': {
      dn *derived = demangle_type(s, 0);
      if (number(s) < 0) fail(s);
      check_char(s, '_');
      dn *base = demangle_type(s, 0);
      dn *d = n2(s, K_SPECIAL2, base, derived);
      d->s = "construction vtable for ";
      d->s2 = "-in-";
      return d;
    }
    case 'F': return special(s, "typeinfo fn for ", demangle_type(s, 0));
    case 'J': return special(s, "java Class for ", demangle_type(s, 0));
    case 'H': return special(s, "TLS init function for ", name(s));
    case 'W': return special(s, "TLS wrapper function for ", name(s));
    }
    fail(s);
  }
  switch (c) {
  case 'V': return special(s, "guard variable for ", name(s));
  case 'R': {
    dn *n = name(s);
    seq_id(s, 1);
    return special(s, "reference temporary for ", n);
  }
  case 'A': return special(s, "hidden alias for ", encoding(s, 1, 0));
  case 'T': {
    char c2 = *s->str;
    if (!c2) fail(s);
    advance(s, 1);
    dn *v = encoding(s, 1, 0);
    return special(s, c2 == 'n' ? "non-transaction clone for " : "transaction clone for ", v);
  }
  case 'r': { /* javaResource */
    int ln = number(s);
    if (ln <= 1) fail(s);
    check_char(s, '_');
    ln--;
    if (strnlen(s->str, (size_t)ln) < (size_t)ln) fail(s);
    const char *str = s->str;
    advance(s, (size_t)ln);
    char *o = alloc(s, (size_t)ln + 1);
    size_t k = 0;
    for (int i = 0; i < ln; i++) {
      if (str[i] != '$') {
        o[k++] = str[i];
        continue;
      }
      if (++i >= ln) fail(s);
      if (str[i] == 'S') o[k++] = '/';
      else if (str[i] == '_') o[k++] = '.';
      else if (str[i] == '$') o[k++] = '$';
      else fail(s);
    }
    o[k] = 0;
    dn *v = name_s(s, K_NAME, o);
    return special(s, "java resource ", v);
  }
  }
  fail(s); /* unknown codes */
  return NULL;
}

static dn *encoding(st *s, int params, int for_local) {
  if (!*s->str) fail(s);
  if (at(s, 'G') || at(s, 'T')) return special_name(s);
  enter(s);
  dn *a = simplify(s, name(s));
  if (!params) {
    if (a->kind == K_MWQ) a = a->k[0];
    if (a->kind == K_QUAL && a->flag) {
      dn **p = &a->k[1];
      if ((*p)->kind == K_DEFAULTARG) p = &(*p)->k[0];
      if ((*p)->kind == K_MWQ) *p = (*p)->k[0];
    }
    s->depth--;
    return a;
  }
  if (!*s->str || at(s, 'E')) {
    s->depth--;
    return a;
  }
  dn *m = a->kind == K_MWQ ? a : NULL;
  dn *t = find_template(a);
  int old_level = 0;
  if (t) {
    tmpl_push(s, t);
    old_level = s->lambda_template_level;
    s->lambda_template_level = 0;
  }
  if (!strncmp(s->str, "Ua9enable_ifI", 13)) fail(s); /* [enable_if:...] */
  dn *ft = bare_function_type(s, has_return_type(a));
  if (t) {
    s->ntemplates--;
    s->lambda_template_level = old_level;
  }
  ft = simplify(s, ft);
  if (for_local && ft->kind == K_FUNC) ft->flag = 1;
  if (m) {
    a = m->k[0];
    m->k[0] = ft;
    ft = m;
  }
  if (a->kind == K_QUAL && a->flag) {
    dn **p = &a->k[1];
    if ((*p)->kind == K_DEFAULTARG) p = &(*p)->k[0];
    if ((*p)->kind == K_MWQ) {
      dn *mm = *p;
      *p = mm->k[0];
      mm->k[0] = ft;
      ft = mm;
    }
  }
  s->depth--;
  return n2(s, K_TYPED, a, ft);
}

/* ------------------------------------------------------------- printer */

typedef struct ps {
  st *s;
  char *buf;
  size_t len, cap;
  char last;
  dn **inner;
  size_t ninner, capinner;
  dn **printing;
  size_t nprinting, capprinting;
} ps;

static void wb(ps *p, char c) {
  if (p->len + 1 >= p->cap) fail(p->s);
  p->buf[p->len++] = c;
  p->last = c;
}

static void ws(ps *p, const char *t) {
  size_t n = strlen(t);
  if (!n) return;
  if (p->len + n >= p->cap) fail(p->s);
  memcpy(p->buf + p->len, t, n);
  p->len += n;
  p->last = t[n - 1];
}

static void wsn(ps *p, const char *t, size_t n) {
  if (!n) return;
  if (p->len + n >= p->cap) fail(p->s);
  memcpy(p->buf + p->len, t, n);
  p->len += n;
  p->last = t[n - 1];
}

static void wnum(ps *p, int v) {
  char b[16];
  snprintf(b, sizeof b, "%d", v);
  ws(p, b);
}

static void print(ps *p, dn *a);

static void inner_push(ps *p, dn *a) {
  grow(p->s, &p->inner, &p->capinner, p->ninner);
  p->inner[p->ninner++] = a;
}

static int has_print_inner(dn *a) {
  switch (a->kind) {
  case K_TYPED: case K_TWQ: case K_MWQ: case K_PTR: case K_REF: case K_RREF: case K_COMPLEX:
  case K_IMAG: case K_VENDOR: case K_ARRAY: case K_FUNC: case K_PTRMEM: case K_VECTOR:
    return 1;
  }
  return 0;
}

static void print_inner_of(ps *p, dn *a);

static void print_one_inner(ps *p, list *save) {
  dn *a = p->inner[--p->ninner];
  if (save && a->kind == K_MWQ) {
    push(p->s, save, a);
    return;
  }
  if (has_print_inner(a)) print_inner_of(p, a);
  else print(p, a);
}

static void print_inner(ps *p, list *save) {
  while (p->ninner) print_one_inner(p, save);
}

static int is_empty(dn *a) {
  if (a->kind == K_ARGPACK) {
    for (int i = 0; i < a->nk; i++)
      if (!is_empty(a->k[i])) return 0;
    return 1;
  }
  return 0;
}

static void print_quals(ps *p, dn *q) {
  for (int i = 0; i < q->nk; i++) {
    if (i) wb(p, ' ');
    ws(p, q->k[i]->s);
  }
}

static void print_args(ps *p, dn *ft) {
  int paren = 0, space = 0;
  for (size_t i = p->ninner; i-- > 0;) {
    switch (p->inner[i]->kind) {
    case K_PTR: case K_REF: case K_RREF:
      paren = 1;
      break;
    case K_TWQ: case K_COMPLEX: case K_IMAG: case K_PTRMEM:
      space = paren = 1;
      break;
    }
    if (paren) break;
  }
  if (paren) {
    if (!space && p->last != '(' && p->last != '*') space = 1;
    if (space && p->last != ' ') wb(p, ' ');
    wb(p, '(');
  }
  list save = {0};
  print_inner(p, &save);
  if (paren) wb(p, ')');
  wb(p, '(');
  if (!ft->flag) { /* ForLocalName: enclosingParams is off */
    int first = 1;
    for (int i = 1; i < ft->nk; i++) {
      if (is_empty(ft->k[i])) continue;
      if (!first) ws(p, ", ");
      print(p, ft->k[i]);
      first = 0;
    }
  }
  wb(p, ')');
  p->ninner = 0;
  for (size_t i = 0; i < save.n; i++) inner_push(p, save.v[i]);
  print_inner(p, NULL);
}

static void print_dimension(ps *p, dn *at_) {
  const char *space = " ";
  while (p->ninner) {
    dn *in = p->inner[p->ninner - 1];
    if (in->kind == K_TWQ) in = in->k[0];
    if (in->kind == K_ARRAY) {
      if (in == p->inner[p->ninner - 1]) space = "";
      print_one_inner(p, NULL);
    } else {
      ws(p, " (");
      print_inner(p, NULL);
      wb(p, ')');
    }
  }
  ws(p, space);
  wb(p, '[');
  print(p, at_->k[0]);
  wb(p, ']');
}

static void print_inner_of(ps *p, dn *a) {
  switch (a->kind) {
  case K_TYPED: print(p, a->k[0]); break;
  case K_TWQ:
    wb(p, ' ');
    print_quals(p, a->k[1]);
    break;
  case K_MWQ:
    if (a->k[1]) {
      wb(p, ' ');
      print_quals(p, a->k[1]);
    }
    if (*a->s2) {
      wb(p, ' ');
      ws(p, a->s2);
    }
    break;
  case K_PTR: ws(p, "*"); break;
  case K_REF: ws(p, "&"); break;
  case K_RREF: ws(p, "&&"); break;
  case K_COMPLEX: ws(p, " _Complex"); break;
  case K_IMAG: ws(p, " _Imaginary"); break;
  case K_VENDOR:
    wb(p, ' ');
    print(p, a->k[0]);
    break;
  case K_ARRAY: print_dimension(p, a); break;
  case K_FUNC: print_args(p, a); break;
  case K_PTRMEM:
    if (p->last != '(') wb(p, ' ');
    print(p, a->k[0]);
    ws(p, "::*");
    break;
  case K_VECTOR:
    ws(p, " __vector(");
    print(p, a->k[0]);
    wb(p, ')');
    break;
  }
}

/* printBase: a pointer, a reference, ... around its base */
static void print_base(ps *p, dn *qual, dn *base) {
  inner_push(p, qual);
  print(p, base);
  if (p->ninner) {
    print_inner_of(p, qual);
    p->ninner--;
  }
}

static void print_node(ps *p, dn *a);

/* the inner types set aside (holdInner), and back */
typedef struct inner_held {
  dn **v;
  size_t n, cap;
} inner_held;
static inner_held inner_hold(ps *p) {
  inner_held h = {p->inner, p->ninner, p->capinner};
  p->inner = NULL;
  p->ninner = p->capinner = 0;
  return h;
}
static void inner_restore(ps *p, inner_held h) {
  p->inner = h.v;
  p->ninner = h.n;
  p->capinner = h.cap;
}

/* the kids, ", "-separated (direct: a.print(ps) rather than ps.print(a)) */
static void print_kids(ps *p, dn *a, int direct) {
  for (int i = 0; i < a->nk; i++) {
    if (i) ws(p, ", ");
    if (direct) print_node(p, a->k[i]);
    else print(p, a->k[i]);
  }
}

static void print_node(ps *p, dn *a) {
  switch (a->kind) {
  case K_NAME:
  case K_BUILTIN:
    ws(p, a->s);
    break;
  case K_TYPED: {
    inner_held h = inner_hold(p);
    inner_push(p, a);
    print(p, a->k[1]);
    if (p->ninner) {
      wb(p, ' ');
      print(p, a->k[0]);
    }
    inner_restore(p, h);
    break;
  }
  case K_QUAL:
    print(p, a->k[0]);
    ws(p, "::");
    print(p, a->k[1]);
    break;
  case K_TEMPLATE: {
    /* NoTemplateParams: the name alone, inner types held back */
    inner_held h = inner_hold(p);
    print(p, a->k[0]);
    inner_restore(p, h);
    break;
  }
  case K_TPARAM:
    if (!a->tmpl || a->num >= a->tmpl->nk - 1) fail(p->s); /* pprof would panic */
    print(p, a->tmpl->k[1 + a->num]);
    break;
  case K_LAMBDA_AUTO:
    ws(p, "auto:");
    wnum(p, a->num + 1);
    break;
  case K_TWQ:
    inner_push(p, a);
    print(p, a->k[0]);
    if (p->ninner) {
      wb(p, ' ');
      print_quals(p, a->k[1]);
      p->ninner--;
    }
    break;
  case K_MWQ:
    inner_push(p, a);
    print(p, a->k[0]);
    if (p->ninner) {
      print_inner_of(p, a);
      p->ninner--;
    }
    break;
  case K_QUALS:
    print_quals(p, a);
    break;
  case K_PTR: case K_REF: case K_RREF: case K_COMPLEX: case K_IMAG:
    print_base(p, a, a->k[0]);
    break;
  case K_VENDOR:
    inner_push(p, a);
    print(p, a->k[1]);
    if (p->ninner) print_one_inner(p, NULL);
    break;
  case K_ARRAY:
    inner_push(p, a);
    print(p, a->k[1]);
    if (p->ninner) {
      p->ninner--;
      print_dimension(p, a);
    }
    break;
  case K_FUNC: {
    dn *ret = a->flag ? NULL : a->k[0];
    if (ret) {
      inner_push(p, a);
      print(p, ret);
      if (!p->ninner) break;
      p->ninner--;
      wb(p, ' ');
    }
    print_args(p, a);
    break;
  }
  case K_PTRMEM:
  case K_VECTOR:
    inner_push(p, a);
    print(p, a->kind == K_PTRMEM ? a->k[1] : a->k[1]);
    if (p->ninner) print_one_inner(p, NULL);
    break;
  case K_OPERATOR: {
    ws(p, "operator");
    if (is_lower(a->s[0])) wb(p, ' ');
    size_t n = strlen(a->s);
    wsn(p, a->s, n && a->s[n - 1] == ' ' ? n - 1 : n);
    break;
  }
  case K_CTOR:
    print(p, a->k[0]);
    break;
  case K_DTOR:
    wb(p, '~');
    print(p, a->k[0]);
    break;
  case K_LITOP: /* Unary{operator"" , name} */
    ws(p, "operator\"\" ");
    print(p, a->k[0]);
    break;
  case K_CAST:
    ws(p, "operator ");
    print(p, a->k[0]);
    break;
  case K_TAGGED:
    print(p, a->k[0]);
    ws(p, "[abi:");
    print(p, a->k[1]);
    wb(p, ']');
    break;
  case K_ARGPACK:
    print_kids(p, a, 0);
    break;
  case K_DEFAULTARG:
    ws(p, "{default arg#");
    wnum(p, a->num + 1);
    ws(p, "}::");
    print(p, a->k[0]);
    break;
  case K_CLOSURE:
    ws(p, "{lambda(");
    print_kids(p, a, 0);
    ws(p, ")#");
    wnum(p, a->num + 1);
    wb(p, '}');
    break;
  case K_UNNAMED:
    ws(p, "{unnamed type#");
    wnum(p, a->num + 1);
    wb(p, '}');
    break;
  case K_SPECIAL:
    ws(p, a->s);
    print(p, a->k[0]);
    break;
  case K_SPECIAL2:
    ws(p, a->s);
    print(p, a->k[0]);
    ws(p, a->s2);
    print(p, a->k[1]);
    break;
  case K_ELABORATED:
    ws(p, a->s);
    ws(p, " ");
    print_node(p, a->k[0]);
    break;
  case K_GCDTOR:
    ws(p, a->flag ? "global constructors keyed to " : "global destructors keyed to ");
    print(p, a->k[0]);
    break;
  case K_STRUCTBIND:
    wb(p, '[');
    print_kids(p, a, 1);
    wb(p, ']');
    break;
  case K_BINARYFP:
    ws(p, "_Float");
    wnum(p, a->num);
    break;
  default: /* literals: only in template arguments, not printed here */
    fail(p->s);
  }
}

static void print(ps *p, dn *a) {
  st *s = p->s;
  if (++s->steps > MAX_STEPS) fail(s);
  int c = 0;
  for (size_t i = 0; i < p->nprinting; i++)
    if (p->printing[i] == a && ++c > 1) return;
  grow(s, &p->printing, &p->capprinting, p->nprinting);
  p->printing[p->nprinting++] = a;
  enter(s);
  print_node(p, a);
  s->depth--;
  p->nprinting--;
}


/* ------------------------------------------------------------- Rust v0 */

/* rustToString with NoTemplateParams (rust.go): printed as parsed */
typedef struct rs {
  const char *orig, *str; /* the name after _R (to its first '.'), the rest */
  size_t origlen, len;    /* their lengths */
  char *buf;
  size_t n, cap;
  int skip, depth;
  long steps;
  int64_t lifetimes;
  char last;
  jmp_buf *jb;
} rs;

static _Noreturn void rfail(rs *r) { longjmp(*r->jb, 1); }
static void radv(rs *r, size_t n) {
  r->str += n;
  r->len -= n;
}
static char rpeek(rs *r) { return r->len ? r->str[0] : 0; }
static void rcheck(rs *r, char c) {
  if (rpeek(r) != c || !r->len) rfail(r);
  radv(r, 1);
}
static void rwb(rs *r, char c) {
  if (r->skip) return;
  if (r->n + 1 >= r->cap) rfail(r);
  r->buf[r->n++] = c;
  r->last = c;
}
static void rwsn(rs *r, const char *s, size_t n) {
  if (r->skip || !n) return;
  if (r->n + n >= r->cap) rfail(r);
  memcpy(r->buf + r->n, s, n);
  r->n += n;
  r->last = s[n - 1];
}
static void rws(rs *r, const char *s) { rwsn(r, s, strlen(s)); }
static void rwnum(rs *r, const char *fmt, uint64_t v) {
  char b[32];
  snprintf(b, sizeof b, fmt, v);
  rws(r, b);
}
static void renter(rs *r) {
  if (++r->depth > MAX_DEPTH || ++r->steps > MAX_STEPS) rfail(r);
}

/* Go's int64 arithmetic wraps around: it is done on uint64 here and
 * brought back to int64 by i64 (no signed overflow, no implementation-
 * defined conversion) */
static int64_t i64(uint64_t v) {
  return v <= INT64_MAX ? (int64_t)v : (int64_t)(v - (uint64_t)INT64_MAX - 1) + INT64_MIN;
}
static int64_t add64(int64_t a, int64_t b) { return i64((uint64_t)a + (uint64_t)b); }

static int64_t base62(rs *r) {
  if (rpeek(r) == '_' && r->len) {
    radv(r, 1);
    return 0;
  }
  uint64_t v = 0;
  while (r->len) {
    char c = r->str[0];
    radv(r, 1);
    if (c == '_') return i64(v + 1);
    v *= 62;
    if (is_digit(c)) v += (uint64_t)(c - '0');
    else if (is_lower(c)) v += (uint64_t)(c - 'a' + 10);
    else if (is_upper(c)) v += (uint64_t)(c - 'A' + 36);
    else rfail(r);
  }
  rfail(r);
  return 0;
}

static int decimal(rs *r) {
  if (!r->len) rfail(r);
  int v = 0;
  while (r->len && is_digit(r->str[0])) {
    int add = r->str[0] - '0';
    if (v >= 2147483647 / 10 - add) rfail(r);
    v = v * 10 + add;
    radv(r, 1);
  }
  return v;
}

static int64_t disambiguator(rs *r) {
  if (rpeek(r) != 's' || !r->len) return 0;
  radv(r, 1);
  return add64(base62(r), 1);
}

/* a UTF-8 encoding of rune c into b: its length */
static size_t utf8_put(char *b, uint32_t c) {
  if (c < 0x80) {
    b[0] = (char)c;
    return 1;
  }
  if (c < 0x800) {
    b[0] = (char)(0xc0 | c >> 6);
    b[1] = (char)(0x80 | (c & 0x3f));
    return 2;
  }
  if (c < 0x10000) {
    b[0] = (char)(0xe0 | c >> 12);
    b[1] = (char)(0x80 | ((c >> 6) & 0x3f));
    b[2] = (char)(0x80 | (c & 0x3f));
    return 3;
  }
  b[0] = (char)(0xf0 | c >> 18);
  b[1] = (char)(0x80 | ((c >> 12) & 0x3f));
  b[2] = (char)(0x80 | ((c >> 6) & 0x3f));
  b[3] = (char)(0x80 | (c & 0x3f));
  return 4;
}

/* expandPunycode (RFC 3492 6.2) of id[0..n), written out */
static void punycode(rs *r, const char *id, size_t n) {
  enum { BASE = 36, TMIN = 1, TMAX = 26, SKEW = 38, DAMP = 700 };
  uint32_t out[256];
  size_t nout = 0;
  const char *enc = id;
  size_t nenc = n;
  for (size_t k = n; k-- > 0;)
    if (id[k] == '_') {
      if (k > sizeof out / sizeof *out) rfail(r);
      for (size_t j = 0; j < k; j++) out[nout++] = (unsigned char)id[j];
      enc = id + k + 1;
      nenc = n - k - 1;
      break;
    }
  long i = 0, nn = 128, bias = 72;
  size_t pos = 0;
  while (pos < nenc) {
    long old_i = i, w = 1;
    for (long k = BASE;; k += BASE) {
      if (pos == nenc) rfail(r);
      char d = enc[pos++];
      long digit;
      if (d >= '0' && d <= '9') digit = d - '0' + 26;
      else if (d >= 'A' && d <= 'Z') digit = d - 'A';
      else if (d >= 'a' && d <= 'z') digit = d - 'a';
      else rfail(r);
      if (digit > 0 && w > (INT32_MAX - i) / digit) rfail(r); /* Go: int overflow */
      i += digit * w;
      long tt = k <= bias ? TMIN : k > bias + TMAX ? TMAX : k - bias;
      if (digit < tt) break;
      if (w >= 2147483647 / BASE) rfail(r);
      w *= BASE - tt;
    }
    long delta = i - old_i, points = (long)nout + 1;
    delta = old_i == 0 ? delta / DAMP : delta / 2;
    delta += delta / points;
    long k = 0;
    while (delta > ((BASE - TMIN) * TMAX) / 2) {
      delta /= BASE - TMIN;
      k += BASE;
    }
    bias = k + ((BASE - TMIN + 1) * delta) / (delta + SKEW);
    nn += i / points;
    if (nn > 0x10ffff || (nn >= 0xd800 && nn <= 0xdfff)) rfail(r);
    i %= points;
    if (nout == sizeof out / sizeof *out) rfail(r);
    memmove(out + i + 1, out + i, (nout - (size_t)i) * sizeof *out);
    out[i] = (uint32_t)nn;
    nout++;
    i++;
  }
  for (size_t k = 0; k < nout; k++) {
    char b[4];
    rwsn(r, b, utf8_put(b, out[k]));
  }
}

/* undisambiguatedIdentifier: written out unless just asked for */
static void ident(rs *r, const char **idp, size_t *np, int *puny) {
  int p = 0;
  if (rpeek(r) == 'u' && r->len) {
    radv(r, 1);
    p = 1;
  }
  int v = decimal(r);
  if (rpeek(r) == '_' && r->len) radv(r, 1);
  if (r->len < (size_t)v) rfail(r);
  const char *id = r->str;
  radv(r, (size_t)v);
  for (int i = 0; i < v; i++)
    if (!is_digit(id[i]) && !is_upper(id[i]) && !is_lower(id[i]) && id[i] != '_') rfail(r);
  *idp = id;
  *np = (size_t)v;
  *puny = p;
}

static void write_ident(rs *r, const char *id, size_t n, int puny) {
  if (puny) punycode(r, id, n);
  else rwsn(r, id, n);
}

static void rpath(rs *r, int sep);
static void rtype(rs *r);
static void rconst(rs *r);

typedef void (*rfn)(rs *r, int arg);
static void backref(rs *r, rfn fn, int arg) {
  size_t backoff = (size_t)(r->str - r->orig);
  rcheck(r, 'B');
  int64_t idx = base62(r);
  if (r->skip) return;
  if (idx < 0 || (uint64_t)idx >= backoff) rfail(r);
  const char *hs = r->str;
  size_t hl = r->len;
  r->str = r->orig + idx;
  r->len = backoff - (size_t)idx;
  fn(r, arg);
  r->str = hs;
  r->len = hl;
}

static void rpath_fn(rs *r, int sep) { rpath(r, sep); }
static void rtype_fn(rs *r, int arg) { rtype(r); }
static void rconst_fn(rs *r, int arg) { rconst(r); }

static void impl_path(rs *r) {
  int hold = r->skip;
  r->skip = 1;
  disambiguator(r);
  rpath(r, 0);
  r->skip = hold;
}

static void write_lifetime(rs *r, int64_t lt) {
  rwb(r, '\'');
  if (lt == 0) {
    rwb(r, '_');
    return;
  }
  int64_t depth = i64((uint64_t)r->lifetimes - (uint64_t)lt);
  if (depth < 0) rfail(r);
  if (depth < 26) {
    rwb(r, (char)('a' + depth));
  } else {
    rwb(r, 'z');
    rwnum(r, "%" PRIu64, (uint64_t)(depth - 26 + 1));
  }
}

/* items up to the next 'E', sep-separated: how many */
static int rlist(rs *r, const char *sep, void (*item)(rs *)) {
  int k = 0;
  while (r->len && r->str[0] != 'E') {
    if (k) rws(r, sep);
    k++;
    item(r);
  }
  return k;
}

static void generic_arg(rs *r) {
  char c = r->str[0];
  if (c == 'L') {
    radv(r, 1);
    write_lifetime(r, base62(r));
  } else if (c == 'K') {
    radv(r, 1);
    rconst(r);
  } else {
    rtype(r);
  }
}

static void generic_args(rs *r) {
  int hold = r->skip;
  r->skip = 1; /* NoTemplateParams */
  rlist(r, ", ", generic_arg);
  r->skip = hold;
}

static void rpath(rs *r, int sep) {
  renter(r);
  char c = rpeek(r);
  if (!r->len) rfail(r);
  const char *id;
  size_t n;
  int puny;
  switch (c) {
  case 'C':
    radv(r, 1);
    disambiguator(r);
    ident(r, &id, &n, &puny);
    write_ident(r, id, n, puny);
    break;
  case 'M':
  case 'X':
    radv(r, 1);
    impl_path(r);
    rwb(r, '<');
    rtype(r);
    if (c == 'X') {
      rws(r, " as ");
      rpath(r, 0);
    }
    rwb(r, '>');
    break;
  case 'Y':
    radv(r, 1);
    rwb(r, '<');
    rtype(r);
    rws(r, " as ");
    rpath(r, 0);
    rwb(r, '>');
    break;
  case 'N': {
    radv(r, 1);
    char ns = rpeek(r);
    if (!r->len || !(is_lower(ns) || is_upper(ns))) rfail(r);
    radv(r, 1);
    rpath(r, sep);
    int64_t dis = disambiguator(r);
    ident(r, &id, &n, &puny);
    if (is_upper(ns)) {
      rws(r, "::{");
      if (ns == 'C') rws(r, "closure");
      else if (ns == 'S') rws(r, "shim");
      else rwb(r, ns);
      if (n) { /* (a punycode identifier counts by its bytes) */
        rwb(r, ':');
        write_ident(r, id, n, puny);
      }
      char b[32];
      snprintf(b, sizeof b, "#%" PRId64 "}", dis);
      rws(r, b);
    } else {
      rws(r, "::");
      write_ident(r, id, n, puny);
    }
    break;
  }
  case 'I':
    radv(r, 1);
    rpath(r, sep);
    if (sep) rws(r, "::");
    rwb(r, '<');
    generic_args(r);
    rwb(r, '>');
    rcheck(r, 'E');
    break;
  case 'B':
    backref(r, rpath_fn, sep);
    break;
  default:
    rfail(r);
  }
  r->depth--;
}

static void binder(rs *r) {
  if (rpeek(r) != 'G' || !r->len) return;
  radv(r, 1);
  int64_t n = add64(base62(r), 1);
  if (n >= (int64_t)r->len - r->lifetimes) rfail(r);
  rws(r, "for<");
  for (int64_t i = 0; i < n; i++) {
    if (i) rws(r, ", ");
    r->lifetimes++;
    write_lifetime(r, 1);
  }
  rws(r, "> ");
}

static int path_start_generics(rs *r);

static void fn_sig(rs *r) {
  binder(r);
  if (rpeek(r) == 'U' && r->len) {
    radv(r, 1);
    rws(r, "unsafe ");
  }
  if (rpeek(r) == 'K' && r->len) {
    radv(r, 1);
    if (rpeek(r) == 'C' && r->len) {
      radv(r, 1);
      rws(r, "extern \"C\" ");
    } else {
      rws(r, "extern \"");
      const char *id;
      size_t n;
      int puny;
      ident(r, &id, &n, &puny);
      if (puny) rfail(r);
      for (size_t i = 0; i < n; i++) rwb(r, id[i] == '_' ? '-' : id[i]);
      rws(r, "\" ");
    }
  }
  rws(r, "fn(");
  rlist(r, ", ", rtype);
  rcheck(r, 'E');
  rwb(r, ')');
  if (rpeek(r) == 'u' && r->len) {
    radv(r, 1);
  } else {
    rws(r, " -> ");
    rtype(r);
  }
}

static void dyn_trait(rs *r) {
  int started = path_start_generics(r);
  while (rpeek(r) == 'p' && r->len) {
    radv(r, 1);
    if (started) rws(r, ", ");
    else {
      rwb(r, '<');
      started = 1;
    }
    const char *id;
    size_t n;
    int puny;
    ident(r, &id, &n, &puny);
    write_ident(r, id, n, puny);
    rws(r, " = ");
    rtype(r);
  }
  if (started) rwb(r, '>');
}

static void dyn_bounds(rs *r) {
  rws(r, "dyn ");
  binder(r);
  rlist(r, " + ", dyn_trait);
  rcheck(r, 'E');
}

static const char *rust_basic(char c) {
  switch (c) {
  case 'a': return "i8";
  case 'b': return "bool";
  case 'c': return "char";
  case 'd': return "f64";
  case 'e': return "str";
  case 'f': return "f32";
  case 'h': return "u8";
  case 'i': return "isize";
  case 'j': return "usize";
  case 'l': return "i32";
  case 'm': return "u32";
  case 'n': return "i128";
  case 'o': return "u128";
  case 'p': return "_";
  case 's': return "i16";
  case 't': return "u16";
  case 'u': return "()";
  case 'v': return "...";
  case 'x': return "i64";
  case 'y': return "u64";
  case 'z': return "!";
  }
  return NULL;
}

static void rtype(rs *r) {
  renter(r);
  if (!r->len) rfail(r);
  char c = r->str[0];
  if (is_lower(c)) {
    const char *b = rust_basic(c);
    if (!b) rfail(r);
    radv(r, 1);
    rws(r, b);
    r->depth--;
    return;
  }
  switch (c) {
  case 'C': case 'M': case 'X': case 'Y': case 'N': case 'I':
    rpath(r, 0);
    break;
  case 'A':
  case 'S':
    radv(r, 1);
    rwb(r, '[');
    rtype(r);
    if (c == 'A') {
      rws(r, "; ");
      rconst(r);
    }
    rwb(r, ']');
    break;
  case 'T': {
    radv(r, 1);
    rwb(r, '(');
    if (rlist(r, ", ", rtype) == 1) rwb(r, ',');
    rwb(r, ')');
    rcheck(r, 'E');
    break;
  }
  case 'R':
  case 'Q':
    radv(r, 1);
    rwb(r, '&');
    if (rpeek(r) == 'L' && r->len) {
      radv(r, 1);
      int64_t lt = base62(r);
      if (lt > 0) {
        write_lifetime(r, lt);
        rwb(r, ' ');
      }
    }
    if (c == 'Q') rws(r, "mut ");
    rtype(r);
    break;
  case 'P':
    radv(r, 1);
    rws(r, "*const ");
    rtype(r);
    break;
  case 'O':
    radv(r, 1);
    rws(r, "*mut ");
    rtype(r);
    break;
  case 'F': {
    radv(r, 1);
    int64_t hold = r->lifetimes;
    fn_sig(r);
    r->lifetimes = hold;
    break;
  }
  case 'D': {
    radv(r, 1);
    int64_t hold = r->lifetimes;
    dyn_bounds(r);
    r->lifetimes = hold;
    rcheck(r, 'L');
    int64_t lt = base62(r);
    if (lt > 0) {
      if (r->last != ' ') rwb(r, ' ');
      rws(r, "+ ");
      write_lifetime(r, lt);
    }
    break;
  }
  case 'B':
    backref(r, rtype_fn, 0);
    break;
  default:
    rfail(r);
  }
  r->depth--;
}

static void rconst(rs *r) {
  renter(r);
  if (!r->len) rfail(r);
  char t = r->str[0];
  if (t == 'B') {
    backref(r, rconst_fn, 0);
    r->depth--;
    return;
  }
  if (t == 'p') {
    radv(r, 1);
    rwb(r, '_');
    r->depth--;
    return;
  }
  int kind; /* 1 signed, 2 unsigned, 3 bool, 4 char */
  if (strchr("aslxni", t)) kind = 1;
  else if (strchr("htmyoj", t)) kind = 2;
  else if (t == 'b') kind = 3;
  else if (t == 'c') kind = 4;
  else rfail(r);
  radv(r, 1);
  if (kind == 1 && rpeek(r) == 'n' && r->len) {
    radv(r, 1);
    rwb(r, '-');
  }
  const char *start = r->str;
  int digits = 0;
  uint64_t val = 0;
  while (r->len) {
    char c = r->str[0];
    uint64_t d;
    if (is_digit(c)) d = (uint64_t)(c - '0');
    else if (c >= 'a' && c <= 'f') d = (uint64_t)(c - 'a' + 10);
    else if (c == '_') {
      radv(r, 1);
      break;
    } else rfail(r);
    radv(r, 1);
    if (val == 0 && d == 0 && (!r->len || r->str[0] != '_')) rfail(r);
    val = val * 16 + d;
    digits++;
  }
  if (!digits) rfail(r);
  if (kind <= 2) {
    if (digits > 16) {
      rws(r, "0x");
      rwsn(r, start, (size_t)digits);
    } else {
      rwnum(r, "%" PRIu64, val);
    }
  } else if (kind == 3) {
    if (digits > 1 || val > 1) rfail(r);
    rws(r, val ? "true" : "false");
  } else {
    if (digits > 6) rfail(r);
    rwb(r, '\'');
    if (val == '\t') rws(r, "\\t");
    else if (val == '\r') rws(r, "\\r");
    else if (val == '\n') rws(r, "\\n");
    else if (val == '\\') rws(r, "\\\\");
    else if (val == '\'') rws(r, "\\'");
    else if (val >= ' ' && val <= '~') rwb(r, (char)val);
    else rwnum(r, "\\u{%" PRIx64 "}", val);
    rwb(r, '\'');
  }
  r->depth--;
}

static int path_start_generics(rs *r) {
  if (!r->len) rfail(r);
  char c = r->str[0];
  if (c == 'I') {
    radv(r, 1);
    rpath(r, 0);
    rwb(r, '<');
    generic_args(r);
    rcheck(r, 'E');
    return 1;
  }
  if (c == 'B') {
    /* backref(func() { started = pathStartGenerics() }) */
    size_t backoff = (size_t)(r->str - r->orig);
    rcheck(r, 'B');
    int64_t idx = base62(r);
    if (r->skip) return 0;
    if (idx < 0 || (uint64_t)idx >= backoff) rfail(r);
    const char *hs = r->str;
    size_t hl = r->len;
    r->str = r->orig + idx;
    r->len = backoff - (size_t)idx;
    renter(r);
    int started = path_start_generics(r);
    r->depth--;
    r->str = hs;
    r->len = hl;
    return started;
  }
  rpath(r, 0);
  return 0;
}

static int rust_run(rs *r) {
  jmp_buf jb;
  r->jb = &jb;
  if (setjmp(jb)) return -1;
  if (!r->len || is_digit(r->str[0])) rfail(r);
  rpath(r, 1);
  if (r->len) {
    r->skip = 1;
    rpath(r, 0);
  }
  if (r->len) rfail(r);
  return 0;
}

/* rustToString: name is _R..., an optional ".suffix" dropped */
static int rust_v0(const char *name, size_t n, char *out, size_t cap, uint64_t *work) {
  const char *dot = memchr(name, '.', n);
  if (dot) n = (size_t)(dot - name);
  rs r;
  memset(&r, 0, sizeof r);
  r.orig = r.str = name + 2;
  r.origlen = r.len = n - 2;
  r.buf = out;
  r.cap = cap;
  int rc = rust_run(&r);
  *work += (uint64_t)r.steps;
  if (rc) return -1;
  out[r.n] = 0;
  return (int)r.n;
}

/* ----------------------------------------------------------------- API */

static void arena_free(st *s) {
  while (s->blk) {
    arena_blk *n = s->blk->next;
    free(s->blk);
    s->blk = n;
  }
}

/* ToAST for _Z names and _GLOBAL_ ctors/dtors, then ASTToString, in
 * pprof's default mode; the text into out, or -1 */
static int cxx(st *s, const char *name, char *out, size_t cap) {
  dn *a = NULL;
  if (!strncmp(name, "_Z", 2)) {
    s->str = name + 2;
    a = encoding(s, 0, 0);
    /* NoParams: no clone suffixes, the rest is not read */
  } else if (!strncmp(name, "_GLOBAL_", 8)) {
    /* globalCDtorName: the standard demangler ignores NoParams here */
    const char *g = name + 8;
    if (strlen(g) < 4 || !strchr("._$", g[0]) || (g[1] != 'I' && g[1] != 'D') || g[2] != '_' ||
        !g[0])
      return -1;
    dn *d = node(s, K_GCDTOR, 1);
    d->flag = g[1] == 'I';
    if (strncmp(g + 3, "_Z", 2)) {
      d->k[0] = name_n(s, g, strlen(g));
    } else {
      s->str = g + 5;
      d->k[0] = encoding(s, 1, 0);
      while (s->str[0] == '.' && (is_lower(s->str[1]) || s->str[1] == '_' || is_digit(s->str[1]))) {
        /* clone suffixes: kept, as Clone nodes would print them */
        fail(s);
      }
      if (*s->str) fail(s);
    }
    a = d;
  } else {
    return -1;
  }
  ps p = {0};
  p.s = s;
  p.buf = out;
  p.cap = cap;
  print(&p, a);
  out[p.len] = 0;
  return (int)p.len;
}

static int hexd(char c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* oldRustToString: name is _ZN...17h<16 hex>E */
static int old_rust(const char *name, size_t n, char *out, size_t cap) {
  name += 3;
  n -= 3;
  unsigned seen16 = 0;
  for (size_t i = n - 17; i < n - 1; i++) {
    int d = hexd(name[i]);
    if (d < 0) return -1;
    seen16 |= 1u << d;
  }
  int distinct = 0;
  for (int i = 0; i < 16; i++) distinct += (seen16 >> i) & 1;
  if (distinct < 5) return -1;
  n -= 20;
  size_t len = 0;
#define PUT(c)                                                                                     \
  do {                                                                                             \
    if (len + 1 >= cap) return -1;                                                                 \
    out[len++] = (c);                                                                              \
  } while (0)
  while (n) {
    if (!is_digit(*name)) return -1;
    long v = 0;
    while (n && is_digit(*name)) {
      int add = *name - '0';
      if (v >= 2147483647 / 10 - add) return -1;
      v = v * 10 + add;
      name++;
      n--;
    }
    if (n && *name == '_') {
      name++;
      n--;
      v--;
    }
    if (v < 0 || (size_t)v > n) return -1;
    const char *id = name;
    size_t idn = (size_t)v;
    name += idn;
    n -= idn;
    if (len) {
      PUT(':');
      PUT(':');
    }
    if (idn >= 2 && id[0] == '_' && id[1] == '$') {
      id++;
      idn--;
    }
    while (idn) {
      char c = *id;
      if (c == '$') {
        int valid = 1;
        char r = 0;
        size_t adv = 0;
        if (idn > 2 && id[1] == 'C' && id[2] == '$') {
          r = ',';
          adv = 3;
        } else if (idn > 4 && id[1] == 'u' && id[4] == '$') {
          int d1 = hexd(id[2]), d2 = hexd(id[3]);
          int val = d1 * 16 + d2;
          if (d1 < 0 || d2 < 0 || d1 > 7 || val < ' ') valid = 0;
          else {
            r = (char)val;
            adv = 5;
          }
        } else if (idn > 3 && id[3] == '$') {
          static const char codes[][3] = {"SP", "BP", "RF", "LT", "GT", "LP", "RP"};
          static const char to[] = "@*&<>()";
          valid = 0;
          for (int i = 0; i < 7; i++)
            if (id[1] == codes[i][0] && id[2] == codes[i][1]) {
              r = to[i];
              valid = 1;
              adv = 4;
            }
        } else {
          valid = 0;
        }
        if (!valid) {
          while (idn) {
            PUT(*id);
            id++;
            idn--;
          }
          break;
        }
        PUT(r);
        id += adv;
        idn -= adv;
      } else if (c == '.' && idn >= 2 && id[1] == '.') {
        PUT(':');
        PUT(':');
        id += 2;
        idn -= 2;
      } else {
        PUT(c);
        id++;
        idn--;
      }
    }
  }
#undef PUT
  out[len] = 0;
  return (int)len;
}

static int demangle_z(const char *z, size_t n, char *out, size_t cap, uint64_t *work);

static int run(st *s, const char *z, char *out, size_t cap) {
  jmp_buf jb;
  s->jb = &jb;
  if (setjmp(jb)) return -1;
  return cxx(s, z, out, cap);
}

/* pcol_demangle, its work added to *work */
static int demangle_w(const char *name, size_t n, char *out, size_t cap, uint64_t *work) {
  *work += n;
  if (n > PCOL_DEMANGLE_MAX_IN || cap < 2 || memchr(name, 0, n)) return -1;
  if (cap > PCOL_DEMANGLE_MAX_OUT) cap = PCOL_DEMANGLE_MAX_OUT;
  char *z = malloc(n + 1);
  if (!z) return -1;
  memcpy(z, name, n);
  z[n] = 0;
  int r = demangle_z(z, n, out, cap, work);
  free(z);
  return r;
}

int pcol_demangle(const char *name, size_t n, char *out, size_t cap) {
  uint64_t work = 0;
  return demangle_w(name, n, out, cap, &work);
}

/* pcol_demangle on a NUL-terminated copy */
static int demangle_z(const char *z, size_t n, char *out, size_t cap, uint64_t *work) {
  if (n >= 2 && z[0] == '_' && z[1] == 'R') return rust_v0(z, n, out, cap, work);
  if (n >= 3 && !strncmp(z, "_ZN", 3)) {
    /* an old-style Rust name: ...17h<16 hex>E, an optional ".suffix" */
    size_t rn = n;
    const char *e = NULL;
    for (const char *q = strstr(z, "E."); q; q = strstr(q + 1, "E.")) e = q;
    if (e && e > z) rn = (size_t)(e - z) + 1;
    if (z[rn - 1] == 'E' && rn > 23 && !strncmp(z + rn - 20, "17h", 3)) {
      int r = old_rust(z, rn, out, cap);
      if (r >= 0) return r;
    }
  }
  st s;
  memset(&s, 0, sizeof s);
  int r = run(&s, z, out, cap);
  *work += (uint64_t)s.steps + s.nodes + s.bytes / 8;
  arena_free(&s);
  return r;
}

/* looksLikeDemangledCPlusPlus */
static int looks_demangled(const char *s, size_t n) {
  int any = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '.' && i + 1 < n && s[i + 1] == '<') return 0;
    if (s[i] == ']' && i + 2 < n && s[i + 1] == ')' && s[i + 2] == '.') return 0;
    if (memchr("<>[]", s[i], 4) || (s[i] == ':' && i + 1 < n && s[i + 1] == ':')) any = 1;
  }
  return any;
}

/* removeMatching over s[0..*n), in place and in one pass (Go's removes
 * each group as it closes and goes on after it: the same text) */
static void remove_matching(char *s, size_t *n, char open, char close) {
  int nesting = 0;
  size_t first = 0, o = 0;
  for (size_t cur = 0; cur < *n; cur++) {
    char c = s[cur];
    if (c == open) {
      if (++nesting == 1) first = o;
    } else if (c == close) {
      if (--nesting < 0) { /* a mismatch: the name as it is now */
        memmove(s + o, s + cur, *n - cur);
        *n = o + (*n - cur);
        return;
      }
      if (nesting == 0) {
        o = first;
        continue;
      }
    }
    s[o++] = c;
  }
  *n = o;
}

size_t pcol_demangle_pprof_work(const char *name, size_t n, char *out, size_t cap,
                                uint64_t *work) {
  int r = demangle_w(name, n, out, cap, work);
  if (r >= 0 && ((size_t)r != n || memcmp(out, name, n))) return (size_t)r;
  if (n >= cap) n = cap - 1;
  memcpy(out, name, n);
  out[n] = 0;
  if (looks_demangled(out, n)) {
    remove_matching(out, &n, '(', ')');
    remove_matching(out, &n, '<', '>');
    out[n] = 0;
  }
  return n;
}

size_t pcol_demangle_pprof(const char *name, size_t n, char *out, size_t cap) {
  uint64_t work = 0;
  return pcol_demangle_pprof_work(name, n, out, cap, &work);
}
