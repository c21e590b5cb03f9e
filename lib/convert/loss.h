/* loss.h — THE loss note of an export (loss.c): one line naming what the
 * selected samples have that the format does not write (labels, value
 * types), for every exporter that drops some.  Inside libpcol only. */
#ifndef PCOL_CONVERT_LOSS_H
#define PCOL_CONVERT_LOSS_H

#include "pcol.h"

/* What an export did beyond its format's table row (loss.c): */
enum {
  PCOL_LOSS_EXACT = 1,       /* perun: one Perun source written back exactly: nothing lost */
  PCOL_LOSS_NO_THREADS = 2,  /* speedscope: no evented timeline, so no thread labels */
};

/* After a successful export of sel in format fmt with options opt: when
 * the selected samples have labels or value types the format does not
 * hold (loss.c's table, doc/mappings.md "What each export says it
 * loses"), calls opt->note once with "not written: labels (N keys: ...)
 * and values T/U, ... (WHY)"; nothing when nothing is lost, or opt or
 * opt->note is NULL.  The value written by a one-value format is
 * opt->value, else the selection's default (THE default rule), else,
 * when wrote is not NULL, wrote[s] for each source s (1..sources: the
 * value type it wrote, 0 its count: the collapsed export's counts).  how:
 * PCOL_LOSS_* bits.  The output is written by then: a failure here (out
 * of memory) says nothing rather than fail it. */
/* THE way an export says a note (pcol_export_options.note, or, where
 * note_kinds is set, pcol_export_notes with its kind, PCOL_EXPORT_LOSS or
 * PCOL_EXPORT_DATA, which the caller states where it makes the text):
 * heard is 1 when someone listens (opt not NULL, a callback set), and
 * say calls it; nothing when none. */
int pcol_export_heard(const pcol_export_options *opt);
void pcol_export_say(const pcol_export_options *opt, pcol_export_note_kind kind, const char *text);

void pcol_export_loss_note(pcol_file *f, const pcol_select *sel, pcol_format fmt, unsigned how,
                           const pcol_export_options *opt, const uint32_t *wrote);

/* THE advice of an export refused for what a difference of profiles
 * holds (pcol_open_diff_base: the base's samples negated, in sources of
 * their own beside the profile's): when sel selects a source of a
 * subtracted base (pcol_base_kinds), the text "; a difference of
 * profiles (--base/--diff-base) cannot be written so: ..." naming what
 * does hold it (a pprof or OTLP copy) and the other way (each profile
 * alone); else "" (the export's own advice stands).  Under a base,
 * --source N takes source N of each side and another --value is as
 * negated, so neither parts the two: the refusals of one source (V8)
 * and of a negative value (V8, Chrome, Perfetto) say this in place of
 * that advice (review 23 F2 left "choose one with --source N"; the
 * exports that leave negative amounts out say so in their notes). */
const char *pcol_export_base_advice(pcol_file *f, const pcol_select *sel);

#endif
