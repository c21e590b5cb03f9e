/* demangle.h — the names pprof shows for a symbolized function
 * (demangle.c): google/pprof's internal/symbolizer demangleSingleFunction
 * in its default mode (-symbolize=...:demangle=default), which calls
 * github.com/ianlancetaylor/demangle's Filter with NoParams,
 * NoEnclosingParams and NoTemplateParams: Itanium C++ names (_Z...) and
 * legacy Rust names (_ZN...17h<hash>E) are demangled and simplified; a
 * name it cannot demangle is shown as it is, or, when it looks like
 * demangled C++, with its (...) and <...> dropped.  Inside libpcol only. */
#ifndef PCOL_CONVERT_DEMANGLE_H
#define PCOL_CONVERT_DEMANGLE_H

#include <stddef.h>
#include <stdint.h>

/* The longest name demangled (longer ones are kept as they are) and the
 * longest result. */
#define PCOL_DEMANGLE_MAX_IN 16384
#define PCOL_DEMANGLE_MAX_OUT 16384

/* Demangles name[0..n) as pprof's default mode does: the result's length
 * (< cap, NUL-terminated, in out), or -1 when the name is not demangled
 * (not mangled, not understood, or past a bound: pprof then keeps it). */
int pcol_demangle(const char *name, size_t n, char *out, size_t cap);

/* What pprof shows for a function whose name is name[0..n): the demangled
 * name, else the heuristic for demangled C++ (looksLikeDemangledCPlusPlus,
 * removeMatching), else the name.  The result's length, in out (cap >=
 * n + 1 and >= PCOL_DEMANGLE_MAX_OUT), NUL-terminated. */
size_t pcol_demangle_pprof(const char *name, size_t n, char *out, size_t cap);
/* pcol_demangle_pprof, the work it did added to *work, for a caller's
 * bound on all the names of an input: the bytes of the name, the
 * parser's nodes and memory (an eighth of its bytes) and the step count
 * of demangle.c's bounds.  A real C++ name takes a few hundred units,
 * one that reaches a bound a few million at most; a unit is a few ns. */
size_t pcol_demangle_pprof_work(const char *name, size_t n, char *out, size_t cap,
                                uint64_t *work);

#endif
