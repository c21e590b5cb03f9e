/* pprof_prune.c — drop_frames and keep_frames, as go tool pprof prunes
 * every profile it reads: THE rule, for each reader of pprof data (the
 * protobuf importer, pprof_import.c; the legacy CPU reader, pprof_legacy.c)
 * (doc/mappings.md §2.1).
 *
 * go tool pprof's driver (internal/driver/fetch.go fetchProfiles) calls
 * profile.RemoveUninteresting (prune.go) on the merged profile after
 * symbolization, for every command, legacy profiles included (whose reader,
 * addLegacyFrameInfo, set drop_frames): with a drop_frames that is not
 * empty, drop = ^(drop_frames)$ and, with a keep_frames that is not empty,
 * keep = ^(keep_frames)$, Go's regular expressions on each function's
 * simplified name (simplify), after demangling:
 *  - each location: its lines from the outermost inwards, the first whose
 *    function has a name that drop matches and keep does not: the
 *    outermost line -> the location is cut at (PCOL_PPROF_CUT_AT, pprof's
 *    prune); an inner one -> the location keeps only the lines outside it,
 *    for every sample (PCOL_PPROF_CUT_BELOW, pruneBeneath);
 *  - each sample's stack from its root: the frames before the first one
 *    of neither kind stay; at the first of either kind after it the stack
 *    is cut, leaving the frames outside it (CUT_AT) or it too (CUT_BELOW).
 *    A stack with no such frame, or of nothing but them, stays whole.
 * An expression Go refuses (RemoveUninteresting's error, which fetch.go
 * ignores) prunes nothing, as in pprof, with a warning; one Go reads but
 * pcol cannot match as Go does (pcol_rx_compile_own) refuses the input.
 *
 * The rule is not idempotent (a location cut on an inner line before a
 * stack's first other frame is such a frame once its lines are cut), so
 * stacks pruned here are never pruned again: a pprof export writes them
 * without drop_frames and keep_frames (pprof_export.c). */
#include "pcol.h"
#include "builder.h" /* pcol_builder's tables */
#include "filter.h"  /* pcol_rx_compile_own, pcol_rx_match */
#include "pprof.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* pprof's simplifyFunc: a leading '.' (PPC ELF v1) and the text from the
 * first '(' that begins neither "(anonymous namespace)" nor "operator()". */
static pcol_str simplify(pcol_str f) {
  static const char an[] = "(anonymous namespace)", op[] = "operator()";
  if (f.len && f.ptr[0] == '.') f.ptr++, f.len--;
  for (size_t i = 0; i < f.len;) {
    if (f.len - i >= sizeof an - 1 && !memcmp(f.ptr + i, an, sizeof an - 1)) i += sizeof an - 1;
    else if (f.len - i >= sizeof op - 1 && !memcmp(f.ptr + i, op, sizeof op - 1)) i += sizeof op - 1;
    else if (f.ptr[i] == '(') f.len = i;
    else i++;
  }
  return f;
}

static int oom(const char *name, pcol_error *err) {
  return pcol_error_set(err, PCOL_ENOMEM, "%s: out of memory", name);
}

/* One of the two ("drop_frames", its text x) compiled into rx: 1 when it
 * is set (not empty), 0 when not or when Go refuses it (pr->go_refused
 * set, pr->why its message), or the failure. */
static int frames_rx(pcol_pprof_prune *pr, const char *what, pcol_str x, pcol_rx *rx, const char *name,
                     pcol_error *err) {
  if (!x.len) return 0;
  if (memchr(x.ptr, 0, x.len))
    return pcol_error_set(err, PCOL_EUNSUPPORTED,
                          "the profile's %s holds a NUL byte: pcol cannot match it as Go does (go tool "
                          "pprof prunes the stacks by it)", what);
  char *re = malloc(x.len + 5);
  if (!re) return oom(name, err);
  memcpy(re, "^(", 2);
  memcpy(re + 2, x.ptr, x.len);
  memcpy(re + 2 + x.len, ")$", 3);
  char label[64];
  snprintf(label, sizeof label, "the profile's %s", what);
  pcol_error e = {0};
  int own = 0, rc = pcol_rx_compile_own(rx, label, re, &own, &e);
  free(re);
  if (rc == PCOL_EINVAL && !own) { /* as pprof: nothing pruned (a warning at the end) */
    pr->go_refused = 1;
    snprintf(pr->why, sizeof pr->why, "%s", e.message);
    return 0;
  }
  if (rc == PCOL_EINVAL)
    return pcol_error_set(err, PCOL_EUNSUPPORTED, "%s (go tool pprof prunes the stacks by it; pcol "
                          "cannot match it as Go does)", e.message);
  if (rc) return pcol_error_set(err, rc, "%s", e.message);
  return 1;
}

int pcol_pprof_prune_init(pcol_pprof_prune *pr, pcol_str drop, pcol_str keep, size_t nloc, const char *name,
                          pcol_error *err) {
  memset(pr, 0, sizeof *pr);
  int rc = frames_rx(pr, "drop_frames", drop, &pr->drop, name, err);
  if (rc <= 0) return rc;
  if ((rc = frames_rx(pr, "keep_frames", keep, &pr->keep, name, err)) < 0 || pr->go_refused) {
    pcol_rx_free(&pr->drop);
    return rc < 0 ? rc : 0;
  }
  pr->has_keep = rc;
  pr->on = 1;
  if (!(pr->cut = calloc(nloc + 1, 1))) {
    pcol_pprof_prune_free(pr);
    return oom(name, err);
  }
  return PCOL_OK;
}

void pcol_pprof_prune_free(pcol_pprof_prune *pr) {
  if (!pr->on) return;
  pcol_rx_free(&pr->drop);
  if (pr->has_keep) pcol_rx_free(&pr->keep);
  free(pr->cut);
  free(pr->rxbuf);
  memset(pr, 0, sizeof *pr);
}

int pcol_pprof_prune_location(pcol_pprof_prune *pr, const pcol_builder *b, size_t i, const pcol_line_row *ln,
                              size_t *n) {
  const pcol_buf *names = &b->t[PCOL_T_FUNCTIONS].cols[PCOL_C_FN_NAME - 1];
  for (size_t j = *n; j-- > 0;) {
    if (!ln[j].function_id) continue;
    pcol_str f = pcol_b_string_get(b, pcol_buf_get32(names, ln[j].function_id - 1));
    if (!f.len) continue;
    f = simplify(f);
    int m = pcol_rx_match(&pr->drop, &pr->rxbuf, &pr->rxcap, f);
    if (m == 1 && pr->has_keep) {
      int k = pcol_rx_match(&pr->keep, &pr->rxbuf, &pr->rxcap, f);
      m = k < 0 ? -1 : !k;
    }
    if (m < 0) return PCOL_ENOMEM;
    if (m) {
      pr->cut[i] = j + 1 == *n ? PCOL_PPROF_CUT_AT : PCOL_PPROF_CUT_BELOW;
      if (j + 1 < *n) *n -= j + 1;
      return PCOL_OK;
    }
  }
  return PCOL_OK;
}

size_t pcol_pprof_prune_stack(const pcol_pprof_prune *pr, const uint32_t *ix, size_t n) {
  int user = 0;
  for (size_t j = n; j-- > 0;) {
    uint8_t k = pr->cut[ix[j]];
    if (k == PCOL_PPROF_CUT_NONE) user = 1;
    else if (user) return k == PCOL_PPROF_CUT_AT ? j + 1 : j;
  }
  return 0;
}

void pcol_pprof_prune_warn(const pcol_pprof_prune *pr, const char *name, pcol_error *err) {
  if (pr->go_refused && err) /* (after a warning already there, kept before it) */
    pcol_error_set(err, PCOL_OK, "%s%s%s: %s, which Go refuses too: no frames dropped, as go tool pprof drops none",
                   err->message, err->message[0] ? "; " : "", name, pr->why);
}
