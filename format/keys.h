/* keys.h — reserved names stored inside pcol files: source types, meta keys,
 * value-type names and label keys with a fixed meaning (spec.md §6,
 * doc/mappings.md).  Code names them through these macros only, so that a
 * name is spelled once; a reader of the spec finds each one here. */
#ifndef PCOL_FORMAT_KEYS_H
#define PCOL_FORMAT_KEYS_H

/* ------------------------------------------------------ source types */
#define PCOL_SRC_RPROF "rprof"
#define PCOL_SRC_PPROF "pprof"
#define PCOL_SRC_PERUN "perun"
#define PCOL_SRC_COLLAPSED "collapsed"
#define PCOL_SRC_V8 "v8"
#define PCOL_SRC_CHROME "chrome" /* V8 profiles of a Chrome trace (lib/convert/v8/chrome_trace.c) */
#define PCOL_SRC_TACHYON "tachyon" /* CPython 3.15 sampling profiler binary */
#define PCOL_SRC_PERF "perf"
#define PCOL_SRC_SPEEDSCOPE "speedscope"
#define PCOL_SRC_OTLP "otlp"
#define PCOL_SRC_JFR "jfr"
#define PCOL_SRC_PERFETTO "perfetto" /* Perfetto protobuf traces' stack samples */

/* ---------------------------------------------- core value types */
/* pprof's "samples/count": when a source measured it, it is the number of
 * raw samples a row stands for (lib/core/count.c, doc/mappings.md §0). */
#define PCOL_VT_SAMPLES "samples"
#define PCOL_UNIT_COUNT "count"
/* CPU time, as pprof's Go CPU profiles name it; Rprof sources have it too,
 * derived from their intervals (lib/core/count.c, doc/mappings.md §0). */
#define PCOL_VT_CPU "cpu"
#define PCOL_UNIT_NANOSECONDS "nanoseconds"
/* Wall-clock time (V8 and speedscope imports, as Node's pprof names it). */
#define PCOL_VT_WALL "wall"

/* Label keys that make a sample's thread (THE thread rule,
 * lib/core/lasts.c): a thread is each distinct combination of their
 * values, for the report's timeline tracks and the speedscope and
 * Firefox exports. */
#define PCOL_THREAD_LABEL_KEYS "thread_name", "thread", "thread_id", "tid"
/* perf's command name and process id (perf script's comm and pid): the
 * thread-name rule (lasts.c) names a thread without a string thread label
 * by its comm; the Firefox export gives a thread its pid */
#define PCOL_THREAD_COMM_KEY "comm"
#define PCOL_THREAD_PID_KEY "pid"

/* --------------------------------------------------- core meta keys */
/* Longest duration of the source's samples in ns, decimal digits only
 * (spec.md §7): written by coalescing, used by range queries. */
#define PCOL_META_MAX_DURATION_NS "pcol.max_duration_ns"
/* "1": the source's long samples are intervals of continuous time, not
 * evenly spread ticks (spec.md §7.1, "Interval sources"): a range counts
 * the part of each inside it.  Written by the Chrome trace importer. */
#define PCOL_META_INTERVALS "pcol.intervals"
/* "1": the source's lines of functions without a name are places, as an
 * Rprof source's top-level srcrefs (FILE:LINE by the frame rule, left out
 * of top as summaryRprof leaves them), not frames of their own (pprof's
 * "<unknown>"): written by the speedscope and Firefox importers when pcol's
 * export marked such frames (pcolNameless), or, the speedscope importer,
 * the lines of named functions it made frames (pcolLine: Rprof's line
 * profiling, whose lines are places too).  THE nameless rule,
 * pcol_source_nameless_places (lib/core/frames.c). */
#define PCOL_META_NAMELESS_PLACES "pcol.nameless_places"
/* The source's sampling interval in ns, decimal digits (> 0): what THE
 * interval rule (pcol_source_interval, lib/core/lasts.c) said of the source
 * it was exported from, when the format it came through has no period of
 * its own: the speedscope importer writes it from pcolInterval (pcol's
 * export), so a copy's samples last what the original's did on a timeline
 * (a Tachyon or Firefox source's weight x interval).  Read after the
 * period, a Firefox source's interval and an Rprof source's. */
#define PCOL_META_INTERVAL_NS "pcol.interval_ns"
/* What an importer read but did not keep, said in words (one row per
 * note, per source): `pcol info` prints each ("markers ignored: 12"). */
#define PCOL_META_NOTE "pcol.note"
/* N (decimal, > 0): N samples of the source have stacks the recorder cut
 * at its stack depth (JFR's `truncated` stack traces, deeper than the
 * recording's stackdepth): their outer frames are lost, so the views warn
 * that the callers above the cut count less (pcol_view_notes). */
#define PCOL_META_TRUNCATED_STACKS "pcol.truncated_stacks"
/* N (decimal, > 0): the recorder's stack depth, when the recording says it
 * (a JFR recording's FlightRecorderOptions stackdepth): the views' warning
 * of pcol.truncated_stacks names it when the cut stacks are not their
 * source's deepest (when they are, their depth is named: lib/query/notes.c;
 * neither known: JFR's default, 64). */
#define PCOL_META_STACK_DEPTH "pcol.stack_depth"
/* The default value of the profile a source was imported with, when its
 * sources' own defaults differ (a type name; every source of the profile
 * states it): a view of such sources adds it up, not "samples" (THE
 * default rule, lib/core/count.c).  A JFR recording states its execution
 * samples' cpu, as JMC and async-profiler's converter show CPU first. */
#define PCOL_META_DEFAULT_VALUE "pcol.default_value"
/* A value of the source that --normalize (pcol_open_diff_base, go's
 * -normalize: the profile scaled by the base's sum over its own, per value
 * type of its pprof copy) could not scale, which the views then refuse to
 * show: "samples", its count, which is its weight (a perf script source:
 * its pprof copy has no samples/count column, and go refuses
 * -sample_index=samples there).  Written on the profile's sources of the
 * copy --normalize makes (lib/query/diffbase.c), read by the views
 * (lib/query/weights.c diff_base_total). */
#define PCOL_META_NORMALIZE_UNSCALED "pcol.normalize_unscaled"
/* K (decimal, from 1): the source is the K-th of the sources one input
 * file, one recording, made (a JFR recording's event types, an OTLP
 * request's profiles, a Chrome trace's profiles, a speedscope file's
 * profiles); written by the importers that make several sources of one
 * file.  A run of sources numbered K, K + 1, ... is one recording, whose
 * time counts once: THE recording rule of the merged header's duration
 * (lib/core/wall.c, pcol_sources_time), where separate inputs add up. */
#define PCOL_META_RECORDING_PART "pcol.recording_part"
/* Where the source's span starts, ns after its time 0 (decimal digits,
 * >= 0; absent: 0): its window is [start + this, start + this + duration)
 * (spec.md §7).  Written by the V8 importer for a profile of a trace placed
 * on the trace's timeline (time 0 the trace's, or its earliest profile's),
 * whose duration is its own endTime - startTime, as DevTools shows it
 * (doc/mappings.md §14, §17); read by THE range rule of the header
 * (lib/core/wall.c). */
#define PCOL_META_SPAN_START_NS "pcol.span_start_ns"
/* The length in bytes (decimal digits) of the FILE part of a source named
 * "FILE: NAME" whose FILE (the input's path) holds ": " itself, so that
 * the name splits where it was joined (rd17a F6: "x: y/t.json: main"):
 * written by the importers that name sources so (lib/convert/srcname.c
 * pcol_source_file_mark), read by pcol_source_display_name (reader.c);
 * absent: FILE ends at the first ": " (or is the whole uri: reader.c). */
#define PCOL_META_URI_FILE_LEN "pcol.uri_file_len"
/* The value of meta PCOL_META_DIFF_BASE (pcol.h) of a source that holds a
 * -diff_base's base as its samples labelled PCOL_DIFF_BASE_KEY = "true",
 * their values AND weights negated as written (the Firefox importer's, of
 * pcol's export's pcolBase column: its weights are the difference's), where
 * "true" is a base subtracted whole (pcol_open_diff_base: its weights are
 * its raw samples, which THE count rule negates).  The pprof importer's
 * too: a pprof file's base samples (go's -proto -diff_base) get weight -1,
 * the others 1, so that THE count rule counts each by its own sign.  THE
 * base kinds (lib/core/count.c pcol_base_kinds): 4 where "true" is 1; the total is its labelled samples' as the others',
 * but its weights are not negated again. */
#define PCOL_BASE_SIGNED "signed"
/* The value of meta PCOL_META_DIFF_BASE and PCOL_META_BASE (pcol.h) of a
 * source that is a base subtracted whole (pcol_open_diff_base: its values
 * negated, its weights its raw samples).  A value of either key other than
 * these two marks nothing (spec.md §6.11, lib/core/count.c pcol_base_kinds) */
#define PCOL_BASE_TRUE "true"
/* A V8 profile's startTime, whole us on V8's monotonic clock (a Chrome
 * trace's profiles share it): where a profile of a Chrome trace lies among
 * the others of its recording, which have no wall-clock start */
#define V8_META_START_TIME_US "v8.start_time_us"
/* A trace's profile's time 0 (whole us on V8's clock): its trace's origin
 * (the trace's start, or its earliest profile's), since which its
 * samples' times count (v8_profile.c); the V8 export's and
 * pcol_wall_meta_cut's */
#define V8_META_TIME_ORIGIN_US "v8.time_origin_us"
/* The key (true) by which pcol's V8 and Chrome exports mark their closing
 * sample, a last sample of the root at endTime that only ends the one
 * before (doc/mappings.md §10.1): at the top of a .cpuprofile, in the last
 * ProfileChunk's args.data of a trace.  V8 writes no such key, DevTools
 * and speedscope ignore it; the importer drops that sample only so marked
 * (or in an older export's shape), never a foreign file's own. */
#define V8_KEY_CLOSING_SAMPLE "pcolClosingSample"
/* The key (true) by which pcol's V8 and Chrome exports mark their idle
 * node, "(idle)" under a thread's root, whose samples fill the gaps of
 * its timeline (THE gap rule, doc/mappings.md §10.1): a node's, beside its
 * callFrame.  DevTools and speedscope show such a sample as idle (as V8's
 * own "(idle)" samples) and ignore the key; the importer reads a marked
 * node's samples as no samples (each only ends the one before), a foreign
 * file's "(idle)" samples as samples. */
#define V8_KEY_IDLE_GAP "pcolIdleGap"
/* The key (a number from 1) by which pcol's Chrome trace export marks the
 * recording of each profile when its profiles are of several (a merge of
 * recordings apart in time: THE recording rule's runs, lib/core/wall.c),
 * in the Profile event's args.data: the profiles of one value are one
 * recording, on one timeline since its earliest startTime, separate
 * recordings each counted (chrome_trace.c).  DevTools and speedscope
 * ignore it; without it a trace is one recording. */
#define V8_KEY_RECORDING "pcolRecording"
/* args.data of a Chrome trace's Profile event (pcol's Chrome export):
 * where the profile's startTime lies after its source's time 0, in µs
 * (V8's unit, to the ns), when that time 0 is not its recording's
 * earliest startTime (the parts of a speedscope recording, each timed
 * from its own start: a range in seconds counts from each one's, as of the
 * source).  The import then takes the source's time 0 there (as the
 * Perfetto import reads pcol.span_start_ns).  A number from 0 to 2^51 µs;
 * any other value: none. */
#define V8_KEY_SPAN_START "pcolSpanStart"

/* meta of a Firefox source: meta.interval, ms (a double, as text); THE
 * interval rule (lib/core/lasts.c) reads it, and the Firefox export
 * writes it back as meta.interval */
#define FIREFOX_META_INTERVAL_MS "firefox.interval_ms"

/* ----------------------------------------- Rprof (doc/mappings.md) */
#define RPROF_META_INTERVAL_US "rprof.interval_us" /* sampling interval, µs */
/* The last segment's interval, when `Rprof(append = TRUE)` made several */
#define RPROF_META_INTERVAL_LAST_US "rprof.interval_last_us"
/* The smallest and largest interval of the segments, when they differ */
#define RPROF_META_INTERVAL_MIN_US "rprof.interval_min_us"
#define RPROF_META_INTERVAL_MAX_US "rprof.interval_max_us"
#define RPROF_META_HEADER "rprof.header"
#define RPROF_META_FLAGS "rprof.flags"
#define RPROF_META_SEGMENTS "rprof.segments"
/* The time_ns of the first sample of each segment after the first (one
 * row each): rprof.alloc counts 0 there (spec.md §7.1) */
#define RPROF_META_SEGMENT_START_NS "rprof.segment_start_ns"
#define RPROF_META_EOL "rprof.eol"
#define RPROF_META_FINAL_NEWLINE "rprof.final_newline"
#define RPROF_META_TRUNCATED "rprof.truncated_lines"
/* The memory fields ":small:big:nodes:dups:" as value types (type names;
 * units and factors in lib/convert/rprof). */
#define RPROF_VT_SMALL "vsize.small"
#define RPROF_VT_LARGE "vsize.large"
#define RPROF_VT_NODES "nodes"
#define RPROF_VT_DUPS "duplications"
/* The derived value of summaryRprof(memory = "both") (lib/query). */
#define PCOL_VALUE_RPROF_ALLOC "rprof.alloc"

/* ----------------------------------------- pprof (doc/mappings.md) */
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

/* ----------------------------------------- Perun (doc/mappings.md) */
#define PERUN_META_PREFIX "perun."
#define PERUN_META_KEYS "perun.keys"
#define PERUN_META_LAYOUT "perun.layout"
#define PERUN_META_AMOUNT_SCALE "perun.amount_scale"
#define PERUN_META_COLLECTOR_INFO "perun.collector_info"
#define PERUN_META_EMPTY_TYPES "perun.empty_types"
#define PERUN_META_GLOBAL "perun.global"
#define PERUN_META_SNAPSHOTS "perun.snapshots"
#define PERUN_META_MODELS "perun.models"
/* label keys */
#define PERUN_LABEL_TYPE_KEY "perun.type_key"   /* layout 3: "<uid>#<n>" of the event */
#define PERUN_LABEL_COLUMNS "perun.columns"     /* layout 3: JSON array of collectable keys */
#define PERUN_LABEL_SNAPSHOT "perun.snapshot_index" /* layout 2: index into snapshots[] */
#define PERUN_LABEL_INDEX "perun.index"         /* position in its group, when sorting moved it */
#define PERUN_LABEL_TRACE "perun.trace"         /* verbatim trace, or num_unit "absent" */
#define PERUN_LABEL_AMOUNT "perun.amount"       /* verbatim amount when the value cannot hold it */
/* label units */
#define PERUN_UNIT_JSON "json"                  /* label str is JSON text */
#define PERUN_UNIT_ABSENT "absent"

/* ------------------------------------- collapsed (doc/mappings.md) */
#define COLLAPSED_VT_COUNT "count"
#define COLLAPSED_VT_BEFORE "count_before"
#define COLLAPSED_VT_AFTER "count_after"
#define COLLAPSED_UNIT_COUNT "count"
#define COLLAPSED_UNIT_NANO "1e-9"

/* ------------------------------------------ OTLP (doc/mappings.md §8) */
/* a Profile's fields that no other meta key holds */
#define OTLP_META_TIME_UNIX_NANO "otlp.time_unix_nano"
#define OTLP_META_DURATION_NANO "otlp.duration_nano"
#define OTLP_META_PERIOD_TYPE_TYPE "otlp.period_type.type"
#define OTLP_META_PERIOD_TYPE_UNIT "otlp.period_type.unit"
#define OTLP_META_PERIOD "otlp.period"
#define OTLP_META_PROFILE_ID "otlp.profile_id"           /* hex */
#define OTLP_META_DROPPED_ATTRIBUTES "otlp.dropped_attributes_count"
#define OTLP_META_PAYLOAD_FORMAT "otlp.original_payload_format"
#define OTLP_META_PAYLOAD "otlp.original_payload"        /* the bytes */
#define OTLP_META_SAMPLE_LAYOUT "otlp.sample_layout"     /* "v1.9": read in the layout before v1.10.0 */
#define OTLP_META_PREFIX "otlp."
/* resource and scope: "otel.resource.<key>", "otel.scope.<key>" */
#define OTLP_META_RESOURCE "otel.resource."
#define OTLP_META_RESOURCE_SCHEMA "otel.resource_schema_url"
#define OTLP_META_SCOPE "otel.scope."
#define OTLP_META_SCOPE_NAME "otel.scope_name"
#define OTLP_META_SCOPE_VERSION "otel.scope_version"
#define OTLP_META_SCOPE_SCHEMA "otel.scope_schema_url"
#define OTLP_META_OTEL_PREFIX "otel."
/* a sample's Link, as labels (hex) */
#define OTLP_LABEL_TRACE_ID "otel.trace_id"
#define OTLP_LABEL_SPAN_ID "otel.span_id"
/* Profile attributes that carry a pcol source's type and name */
#define OTLP_ATTR_SOURCE_TYPE "pcol.source_type"
#define OTLP_ATTR_SOURCE_URI "pcol.source_uri"
/* a Profile attribute: its time_unix_nano is 0 and its timestamps are the
 * ns since the source's start (a source without a wall-clock start) */
#define OTLP_ATTR_TIME_BASE "pcol.time_base"
#define OTLP_TIME_BASE_START "source_start"
/* Mapping attributes for what pcol's mappings hold and OTLP's do not */
#define OTLP_ATTR_BUILD_ID "pprof.mapping.build_id"
#define OTLP_ATTR_MAP_FLAGS "pprof.mapping.flags"

/* ------------------------------ JDK Flight Recorder (doc/mappings.md §13) */
#define JFR_META_PREFIX "jfr."
#define JFR_META_VERSION "jfr.version"   /* the first chunk's major.minor */
#define JFR_META_CHUNKS "jfr.chunks"     /* chunks in the file */
#define JFR_META_EVENT "jfr.event"       /* the event type of a source */
#define JFR_META_SETTING "jfr.setting."  /* + a setting of the source's event type */

/* ----------------------------------------- Perfetto (doc/mappings.md §17) */
/* the packets a source's samples come from: stack_sample, perf_sample,
 * streaming_profile_packet */
#define PERFETTO_META_KIND "perfetto.kind"
/* a StackSample stream's StackSampleDefaults.source ("linux.perf",
 * "python.wall"), a PerfSample stream's timebase name ("cpu-clock") */
#define PERFETTO_META_STREAM "perfetto.stream"
/* a PerfSample timebase's frequency (Hz), when it states one */
#define PERFETTO_META_FREQUENCY "perfetto.timebase_frequency_hz"
/* A source's window in a Perfetto trace pcol writes (doc/mappings.md §17,
 * §17.1): a slice (TrackEvent TYPE_SLICE_BEGIN .. TYPE_SLICE_END) of this
 * category on the source's sequence, from the window's start to its end;
 * the begin's debug annotations: where the window starts after the
 * source's time 0 (ns, int_value) and its recording (uint_value, the
 * first source of its recording run: the sources of one are its parts) */
#define PERFETTO_WINDOW_CATEGORY "pcol.window"
#define PERFETTO_WINDOW_SPAN_START "pcol.span_start_ns"
#define PERFETTO_WINDOW_RECORDING "pcol.recording"
/* jdk.ObjectAllocationSample's `weight` (pcol's own `weight` is the column) */
#define JFR_VT_ALLOC_WEIGHT "allocation_weight"
/* jdk.CPUTimeSample's samplingPeriod (JDK 25's CPU-time sampler, JEP 509):
 * a second measure of the execution samples' CPU time, so not named cpu
 * (no view adds the two; the JDK's views are cpu-time-hot-methods and
 * hot-methods) */
#define JFR_VT_CPU_TIME "cpu-time"
#define JFR_LABEL_STATE "thread_state"   /* an execution sample's thread state */
#define JFR_LABEL_CLASS "object_class"   /* an allocation's class */
#define JFR_LABEL_MONITOR "monitor_class" /* jdk.JavaMonitorEnter's monitorClass */
#define JFR_LABEL_PARKED "parked_class"   /* jdk.ThreadPark's parkedClass */
/* lock and park events (jdk.JavaMonitorEnter, jdk.ThreadPark): each one
 * contention, its duration the delay, as Pyroscope's JFR converter names
 * the values of its mutex and block profiles */
#define JFR_VT_CONTENTIONS "contentions"
#define JFR_VT_DELAY "delay"

#endif
