/* test_demangle.c — pprof's demangling (lib/convert/demangle.c) on hostile
 * names: each bound of doc/safety.md ("Demangling is bounded") is reached
 * by a name built here, and the name is then kept as it is, quickly; and
 * hundreds of thousands of mutations of real mangled names (C++, Rust v0,
 * legacy Rust) neither crash nor leave the bounds (under ASan in make
 * check).  What the names demangle to is judged against google/pprof and
 * go tool pprof by tests/interop/t_symbolize.sh, not here. */
#include "testutil.h"
#include "demangle.h"
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

typedef struct sb {
  char *p;
  size_t n, cap;
} sb;
static void add(sb *s, const char *t, size_t n) {
  if (s->n + n + 1 > s->cap) {
    s->cap = (s->n + n + 1) * 2;
    s->p = realloc(s->p, s->cap);
    cr_assert(s->p);
  }
  memcpy(s->p + s->n, t, n);
  s->n += n;
  s->p[s->n] = 0;
}
static void adds(sb *s, const char *t) { add(s, t, strlen(t)); }
static void rep(sb *s, const char *t, int k) {
  while (k-- > 0) adds(s, t);
}

/* Rust's base-62 number, as a back reference names a position */
static void b62(sb *s, unsigned n) {
  static const char d[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  char t[16];
  int k = sizeof t;
  t[--k] = '_';
  if (n) {
    n--;
    do {
      t[--k] = d[n % 62];
      n /= 62;
    } while (n);
  }
  add(s, t + k, sizeof t - (size_t)k);
}

/* the name is not demangled (past a bound), shown as it is, in < 2 s */
static void kept(const char *what, const sb *s) {
  static char out[PCOL_DEMANGLE_MAX_OUT];
  double t0 = now();
  int r = pcol_demangle(s->p, s->n, out, sizeof out);
  cr_expect_eq(r, -1, "%s: demangled (%d bytes) past a bound", what, r);
  char *o = malloc(s->n + PCOL_DEMANGLE_MAX_OUT + 1);
  cr_assert(o);
  size_t n = pcol_demangle_pprof(s->p, s->n, o, s->n + PCOL_DEMANGLE_MAX_OUT + 1);
  if (!memchr(s->p, ':', s->n))
    cr_expect(n == s->n && !memcmp(o, s->p, n), "%s: not shown as it is", what);
  free(o);
  cr_expect_lt(now() - t0, 2.0, "%s: took %.2f s", what, now() - t0);
}

Test(demangle, bounds_keep_the_name) {
  sb s = {0};
  /* recursion: templates nested 5000 deep */
  adds(&s, "_Z1f");
  rep(&s, "I", 5000);
  adds(&s, "i");
  rep(&s, "E", 5000);
  kept("nested templates", &s);
  /* the result: 8000 components, 24000 bytes demangled */
  s.n = 0;
  adds(&s, "_ZN");
  rep(&s, "1a", 8000);
  adds(&s, "E");
  kept("a 24 KB result", &s);
  /* the input: a name past 16 KiB */
  s.n = 0;
  adds(&s, "_ZN");
  rep(&s, "3abc", 4200);
  adds(&s, "E");
  kept("a 16 KiB name", &s);
  /* a length past the name and past int */
  s.n = 0;
  adds(&s, "_Z99999999999999999999a");
  kept("a huge length", &s);
  s.n = 0;
  adds(&s, "_Z2000000000a");
  kept("a length past the end", &s);
  /* substitutions that double at each step, in a lambda's printed
   * parameter types (pprof: minutes) */
  s.n = 0;
  adds(&s, "_ZZ1fvENKUlPFvvE");
  for (int i = 0; i < 40; i++) {
    char t[32];
    if (i == 0) snprintf(t, sizeof t, "PFvS_S_E");
    else snprintf(t, sizeof t, "PFvS%X_S%X_E", i - 1, i - 1);
    adds(&s, t);
  }
  adds(&s, "E_clEv");
  kept("doubling substitutions", &s);
  /* Rust: nested tuples, each a back reference to the one inside too, in
   * the printed impl type (pprof: minutes) */
  s.n = 0;
  adds(&s, "_RNvMC1a");
  unsigned start = 6, n = 40;
  rep(&s, "T", (int)n);
  adds(&s, "l");
  for (unsigned k = 1; k <= n; k++) {
    adds(&s, "B");
    b62(&s, start + n - (k - 1));
    adds(&s, "E");
  }
  adds(&s, "1f");
  kept("doubling Rust back references", &s);
  /* Rust: generic arguments nested 3000 deep */
  s.n = 0;
  adds(&s, "_RINvC1a1f");
  rep(&s, "INvC1a1g", 3000);
  rep(&s, "E", 3001);
  kept("nested Rust generics", &s);
  /* Rust: a back reference to itself */
  s.n = 0;
  adds(&s, "_RNvB0_1f");
  kept("a Rust back reference to itself", &s);
  free(s.p);
}

/* the heuristic for demangled C++ is linear: a million groups */
Test(demangle, heuristic_in_one_pass) {
  sb s = {0};
  adds(&s, "a::b");
  rep(&s, "()", 1000000);
  rep(&s, "<", 300000);
  rep(&s, ">", 300000);
  char *o = malloc(s.n + 1);
  cr_assert(o);
  double t0 = now();
  size_t n = pcol_demangle_pprof(s.p, s.n, o, s.n + 1);
  cr_expect_lt(now() - t0, 2.0, "took %.2f s", now() - t0);
  cr_expect(n == 4 && !memcmp(o, "a::b", 4), "%.*s", (int)(n < 40 ? n : 40), o);
  free(o);
  free(s.p);
}

/* mutations of real names: truncated, a byte changed, inserted, deleted,
 * a piece repeated or spliced in from another name */
Test(demangle, mutations) {
  static const char *names[] = {
      "_ZNSt6vectorIiSaIiEE17_M_realloc_insertIJRKiEEEvN9__gnu_cxx17__normal_iteratorIPiS1_EEDpOT_",
      "_ZZ9count_allIJiiiEEiDpT_ENKUliE_clEi",
      "_ZNKSt8_Rb_treeINSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEESt4pairIKS5_iESt10_"
      "Select1stIS8_ESt4lessIS5_ESaIS8_EE10_Auto_node6_M_keyEv",
      "_ZThn8_N1C2fbEi",
      "_ZN5outer5inner3BoxIiLi4EEcvlEv",
      "_ZN5clang12ast_matchers7dynamic8internal25variadicMatcherDescriptorINS0_8internal15Bindable"
      "MatcherINS_4AttrEEENS4_7MatcherIS6_EEXadL_ZNS4_18makeAllOfCompositeIS6_EENS5_IT_EEN4llvm8"
      "ArrayRefIPKNS8_ISB_EEEEEEEENS1_14VariantMatcherENSD_9StringRefENS1_11SourceRangeENSE_INS1_"
      "11ParserValueEEEPNS1_11DiagnosticsE",
      "_ZNSt9_Any_data9_M_accessIPZN13ThreadManager7newTaskIRSt5_BindIFSt7_Mem_fnIM5DiaryFivEEPS5_"
      "EEIEEESt6futureINSt9result_ofIFT_DpT0_EE4typeEEOSF_DpOSG_EUlvE_EERSF_v",
      "_RNvXs_NtCsbLOm6jUzt6I_6memchr6memmemNtB4_8FindIterNtNtNtNtCsgEmfK2I1SDS_4core4iter6traits8"
      "iterator8Iterator4next",
      "_RNCINkXs25_NgCsbmNqQUJIY6D_4core5sliceINyB9_4IterhENuNgNoBb_4iter8iterator8Iterator9rposition"
      "NCNgNpB9_6memchr7memrchrs_0E0Bb_",
      "_RINvNtCs9ltgdHTiPiY_4core3ptr13drop_in_placeDNtNtB4_3any3AnyEL_ECs1a2b3c_4test",
      "_ZN102_$LT$core..iter..adapters..map..Map$LT$I$C$F$GT$$u20$as$u20$core..iter..traits.."
      "iterator..Iterator$GT$4fold17h5ace93f4e4caeb0fE",
      "_ZGr32_java$Sutil$Siso4217$_properties",
      "_GLOBAL__sub_I__ZN1A1fEv",
      "_ZTCN4llvm3foo3BarE0_NS_4BazE",
      "std::vector<int, std::allocator<int> >::push_back(int const&)",
  };
  const size_t nn = sizeof names / sizeof *names;
  static const char alpha[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$.:<>()";
  static char out[PCOL_DEMANGLE_MAX_OUT];
  char m[4096];
  unsigned long x = 88172645463325252UL; /* xorshift */
#define RND() (x ^= x << 13, x ^= x >> 7, x ^= x << 17, x)
  double t0 = now();
  size_t demangled = 0;
  for (int it = 0; it < 300000; it++) {
    const char *a = names[RND() % nn];
    size_t n = strlen(a);
    memcpy(m, a, n);
    for (int k = (int)(RND() % 3) + 1; k > 0 && n > 3; k--) {
      size_t i = 2 + RND() % (n - 2);
      switch (RND() % 6) {
      case 0: n = i; break;
      case 1: m[i] = alpha[RND() % (sizeof alpha - 1)]; break;
      case 2:
        if (n + 1 < sizeof m) {
          memmove(m + i + 1, m + i, n - i);
          m[i] = alpha[RND() % (sizeof alpha - 1)];
          n++;
        }
        break;
      case 3:
        memmove(m + i, m + i + 1, n - i - 1);
        n--;
        break;
      case 4: {
        size_t j = i + RND() % (n - i + 1), l = j - i;
        if (n + l < sizeof m) {
          memmove(m + j + l, m + j, n - j);
          memcpy(m + j, m + i, l);
          n += l;
        }
        break;
      }
      default: {
        const char *b = names[RND() % nn];
        size_t bl = strlen(b), o = RND() % bl, l = 1 + RND() % 30;
        if (o + l > bl) l = bl - o;
        if (n + l < sizeof m) {
          memmove(m + i + l, m + i, n - i);
          memcpy(m + i, b + o, l);
          n += l;
        }
      }
      }
    }
    int r = pcol_demangle(m, n, out, sizeof out);
    if (r >= 0) {
      demangled++;
      cr_assert_lt((size_t)r, sizeof out);
      cr_assert_eq(strlen(out), (size_t)r, "a NUL inside the result of %.*s", (int)n, m);
    }
  }
  cr_expect_gt(demangled, 10000, "only %zu mutations demangled", demangled);
  cr_expect_lt(now() - t0, 60.0, "took %.1f s", now() - t0);
}

/* Rust v0 numbers past int64: Go's int64 arithmetic wraps around (the
 * disambiguator, a lifetime's depth, a binder's count), and so does
 * demangle.c's, without signed overflow (UBSan aborts on one in make
 * check).  The expected names are what Go's demangle package (Go 1.19's
 * copy, with NoParams and NoTemplateParams) gives for these inputs;
 * aZl8N0y58M7 is INT64_MAX in base 62, lYGhA16ahyf UINT64_MAX. */
Test(demangle, rust_numbers_wrap_as_in_go) {
  static const char *cases[][2] = {
      {"_RIC1aLaZl8N0y58M7_E", "_RIC1aLaZl8N0y58M7_E"},
      {"_RCsaZl8N0y58M7_1a", "a"},
      {"_RNCNvC1a1fsaZl8N0y58M7_0", "a::f::{closure#-9223372036854775807}"},
      {"_RNCNvC1a1fsaZl8N0y58M6_0", "a::f::{closure#-9223372036854775808}"},
      {"_RNCNvC1a1fslYGhA16ahyf_0", "a::f::{closure#1}"},
      {"_RNvMC1aRLaZl8N0y58M7_h1f", "<&u8>::f"},
      {"_RNvMC1aFGaZl8N0y58M7_RL1_hEu1f", "_RNvMC1aFGaZl8N0y58M7_RL1_hEu1f"},
      {"_RNvMC1aFGlYGhA16ahyf_Eu1f", "<for<'a> fn()>::f"},
      {"_RNvMC1aFG_FG_RLr_hEuEu1f", "_RNvMC1aFG_FG_RLr_hEuEu1f"},
  };
  static char out[PCOL_DEMANGLE_MAX_OUT];
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    size_t n = pcol_demangle_pprof(cases[i][0], strlen(cases[i][0]), out, sizeof out);
    cr_expect(n == strlen(cases[i][1]) && !memcmp(out, cases[i][1], n), "%s: %.*s, Go: %s",
              cases[i][0], (int)n, out, cases[i][1]);
  }
}

/* pprof's heuristic for demangled C++ looks for "<>[]" in the name, not
 * for a NUL byte: a\0(b) is not simplified, a\0<b> is */
Test(demangle, heuristic_and_nul) {
  char out[64];
  size_t n = pcol_demangle_pprof("a\0(b)", 5, out, sizeof out);
  cr_expect(n == 5 && !memcmp(out, "a\0(b)", 5), "a\\0(b) became %zu bytes", n);
  n = pcol_demangle_pprof("a\0<b>", 5, out, sizeof out);
  cr_expect(n == 2 && !memcmp(out, "a\0", 2), "a\\0<b> became %zu bytes", n);
}
