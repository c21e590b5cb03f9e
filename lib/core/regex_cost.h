/* regex_cost.h — what glibc's regcomp would build for one of pcol's POSIX
 * extended forms of a user's expression, counted before regcomp is asked
 * to build it (regex_cost.c).  Inside libpcol only. */
#ifndef PCOL_REGEX_COST_H
#define PCOL_REGEX_COST_H
#include <stdint.h>

typedef struct rx_cost {
  uint64_t nodes;   /* the automaton's nodes, the copies its anchors make included */
  uint64_t clones;  /* those copies */
  uint64_t closure; /* the entries of its nodes' epsilon closures, summed */
  uint64_t depth;   /* regcomp's deepest recursion through epsilon nodes */
  uint64_t calls, merged, scan; /* regcomp's work: calc_eclosure_iter's calls, the entries they merge, search_duplicated_node's steps */
  uint64_t bytes;   /* regcomp's memory, estimated from them */
} rx_cost;

/* Counts in *c the automaton glibc's regcomp (REG_EXTENDED | REG_NOSUB,
 * the C locale) builds for `ere`, a form pcol_rx_from_go writes: PCOL_OK
 * when it is within pcol's bounds (regex_cost.c), PCOL_EINVAL with *why
 * saying which it passes (the counting stops there: its own time and
 * memory are bounded too), PCOL_ENOMEM. */
int pcol_rx_cost(const char *ere, rx_cost *c, const char **why);

#endif
