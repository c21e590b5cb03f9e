/* error.h — the error helpers every file of libpcol uses (error.c).  Inside
 * libpcol only (not installed). */
#ifndef PCOL_CORE_ERROR_H
#define PCOL_CORE_ERROR_H

#include "pcol.h"
#include <stdint.h>

/* Returns from the enclosing function with the code of a failed call. */
#define PCOL_RETURN_NOT_OK(expr)                                              \
  do {                                                                        \
    int rc_ = (expr);                                                         \
    if (rc_) return rc_;                                                      \
  } while (0)
/* Same for a callee that takes no pcol_error (pcol_buf):
 * fills err with the code's name so that every failure has a message. */
#define PCOL_RETURN_NOT_OK_WITH_ERROR(expr, err)                              \
  do {                                                                        \
    int rc_ = (expr);                                                         \
    if (rc_) return pcol_error_set((err), rc_, "%s", pcol_strerror(rc_));     \
  } while (0)
static inline int pcol_oom(pcol_error *err) {
  return pcol_error_set(err, PCOL_ENOMEM, "out of memory");
}
/* A failed call's status rc passed on as it is, its message (already in err:
 * a pcol_b_* refusal names the call and its reason) after "name: ", or
 * "name:line: " when line > 0.  rc 0 leaves err alone.  How an importer
 * passes the builder's reason on with the place in its input. */
int pcol_error_in(pcol_error *err, int rc, const char *name, uint64_t line);

/* A warning (code PCOL_OK) after those err holds: THE rule of joining
 * warnings (an import's several profiles, each with its own; a view's
 * after an import's).  err holding a warning: the new one after it, "; "
 * between, one said already (a file read twice) not said again, and one
 * that does not fit in the message whole counted instead, "; and N more
 * warnings" at its end (never one warning put in the place of another).
 * err holding no warning (none, or an error): the warning set.  Returns
 * PCOL_OK. */
int pcol_warn_add(pcol_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A failed write: "WHAT: write error: No space left on device" (errnum, or
 * errno when 0; what may be NULL).  PCOL_EIO.  The one wording of every
 * exporter's and view's write failure. */
int pcol_write_error(pcol_error *err, int errnum, const char *what);
/* Fills err with PCOL_ECORRUPT and fmt, whose two %llu take a and b (the
 * reader, the codecs, the encodings, validation).  Returns PCOL_ECORRUPT. */
int pcol_corrupt(pcol_error *err, const char *fmt, uint64_t a, uint64_t b);

#endif
