/* pprof_common.h — names shared by the pprof importer and exporter.
 *
 * The meta keys below record every profile-level field of a pprof Profile
 * (spec.md §10.2), so export can write the same fields back. */
#ifndef PCOL_PPROF_COMMON_H
#define PCOL_PPROF_COMMON_H

#define PPROF_SOURCE_TYPE "pprof"

#define PPROF_META_DROP_FRAMES "pprof.drop_frames"
#define PPROF_META_KEEP_FRAMES "pprof.keep_frames"
#define PPROF_META_TIME_NANOS "pprof.time_nanos"
#define PPROF_META_DURATION_NANOS "pprof.duration_nanos"
#define PPROF_META_PERIOD_TYPE_TYPE "pprof.period_type.type"
#define PPROF_META_PERIOD_TYPE_UNIT "pprof.period_type.unit"
#define PPROF_META_PERIOD "pprof.period"
#define PPROF_META_COMMENT "pprof.comment"
#define PPROF_META_DEFAULT_SAMPLE_TYPE "pprof.default_sample_type"
#define PPROF_META_DOC_URL "pprof.doc_url"

/* Written by the Rprof importer: sampling interval in microseconds. */
#define RPROF_META_INTERVAL_US "rprof.interval_us"

#endif
