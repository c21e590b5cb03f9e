/* firefox.h — the Firefox Profiler's formats (doc/mappings.md §8): what the
 * exporter and the importer share (not installed). */
#ifndef PCOL_FIREFOX_H
#define PCOL_FIREFOX_H

#include "convert.h"

/* The processed-profile version the export writes.  It is the newest one
 * the profiler deployed at profiler.firefox.com is known to accept
 * (firefox-devtools/profiler PROCESSED_PROFILE_VERSION at df31314e,
 * 2026-08-21; older versions are upgraded on load, a newer one is refused
 * with "the profile's version is newer than the profiler's").  To raise it:
 * read that version's entry in the profiler's
 * docs-developer/CHANGELOG-formats.md, change the writer, run
 * tests/interop/t_firefox.sh against a profiler checkout of that version
 * (doc/mappings.md §8.3). */
#define FIREFOX_PROCESSED_VERSION 70
/* meta.version: the Gecko format version of the same snapshot. */
#define FIREFOX_GECKO_VERSION 36

/* Gecko profiles: the versions whose tables are {schema, data} with the
 * thread's own stringTable and processes nested (Firefox since 2017). */
#define FIREFOX_GECKO_MIN 20

/* The import accepts processed profiles from this version (2021) up to
 * FIREFOX_IMPORT_MAX (samply writes 71 since 2026-09, samply PR #874:
 * JsonSlabs slabs for the frame table's columns, which JSON files do not
 * have; the profiler's own Download writes its newest version: 75 in
 * @firefox-devtools/profiler-cli 0.10.0, 2026-09.  71 and 75 put the
 * frame's and the function's null columns in a `flags` word; 72-74 change
 * markers and native symbols only, which the import does not read). */
#define FIREFOX_IMPORT_MIN 30
/* The export keeps a column of a thread's samples in memory up to this
 * many bytes, then in a temporary file (1 MiB; tests lower it). */
extern size_t pcol_firefox_col_bytes;
#define FIREFOX_IMPORT_MAX 75

/* meta of a Firefox source: the range the Firefox Profiler gives it
 * (getTimeRangeIncludingAllThreads: its profiling range, else its threads'),
 * ms since meta.startTime (doubles, as text; pprof.duration_nanos is its
 * length); the export writes it back as meta.profilingStartTime/EndTime */
#define FIREFOX_META_RANGE_START_MS "firefox.range_start_ms"
#define FIREFOX_META_RANGE_END_MS "firefox.range_end_ms"

#endif
