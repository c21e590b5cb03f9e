# bench.mk — benchmark harness (issue 7), included by the Makefile.
#
#   make bench         full run (sizes 10k..10M, every comparison), writes
#                      bench/results/latest.md and bench/results/latest.svg
#   make bench-quick   small sizes only (under 2 minutes); `make test` runs it
#                      so the harness never rots.  Missing R/Go are noted, not fatal.
#   make bench-codecs  format 1.2 size goals (zstd vs .pb.gz, raw vs protobuf,
#                      Rprof), under a few minutes; `make bench` appends them
#   make bench-many    many files as one (issue 32): a day of 1,440 one-minute
#                      profiles; top of the day vs top of its merged file
#   make bench-scale   pack, unpack --to pprof, merge, top at 1M/10M samples
#                      with peak RSS, top against go tool pprof -top on the real
#                      pprof files > 100 KB, and issue 32's goals met/missed;
#                      SCALE_BIG=100000000 adds 100M.  `make bench` appends it
#   make bench-info    `pcol info` time and RSS from format 1.3's summary
#                      against the pass over the samples (1M, 10M samples)
#   make bench-report  `pcol report` page size and time to interactive (100k, 1M)
#   make bench-flood   hash flooding (issue 20): crafted vs random keys for each
#                      hash table keyed by input, 12.5k..100k keys; fails when a
#                      crafted input costs more than 3x its random twin.  Writes
#                      $(BUILD)/bench-flood.md; FLOOD_OLD=path/to/old/pcol also
#                      measures a pcol from before the keyed hash (bench/README.md).
#
# What is measured is an -O2 build without sanitizers of libpcol and pcol in
# $(BUILD)/bench-build, whatever BUILD's own flags are.  That build drops
# -Werror (warnings are the normal build's job; a benchmark should not stop
# on one) but keeps it for the bench/ programs themselves.

BENCH_BUILD := $(BUILD)/bench-build
BENCH_TOOLS := gen_profile gen_day gen_flood bench_open bench_scan bench_pb_decode bench_writer timecmd svgplot read_floor page_cost
BENCH_WARN  := -Wall -Wextra -Werror -Wshadow
BENCH_MAKE  := $(MAKE) --no-print-directory BUILD=$(BENCH_BUILD) OPT=-O2 SAN= \
               CFLAGS="-O2 -g" WARN="-Wall -Wextra -Wno-unused-parameter"

.PHONY: bench bench-quick bench-flood bench-tools bench-codecs bench-report

bench-tools: deps
	@$(BENCH_MAKE) $(BENCH_BUILD)/bin/pcol $(BENCH_BUILD)/lib/libpcol-internal.a
	@$(BENCH_MAKE) $(BENCH_TOOLS:%=$(BENCH_BUILD)/bench/%)

$(BUILD)/bench/%: bench/%.c $(LIBA_INT) $(GEN_H)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) -Iinclude -I$(BUILD)/gen $(CFLAGS) $(BENCH_WARN) -o $@ $< $(LIBA_INT) $(LDLIBS)

bench: bench-tools
	@BUILD=$(BUILD) BENCH_BUILD=$(BENCH_BUILD) CC="$(CC)" bash bench/run.sh full

bench-quick: bench-tools
	@BUILD=$(BUILD) BENCH_BUILD=$(BENCH_BUILD) CC="$(CC)" bash bench/run.sh quick

# The size goals of formats 1.1 and 1.2 (issue 17) alone: writes $(BUILD)/bench-codecs.md.
bench-codecs: bench-tools
	@PCOL=$(BENCH_BUILD)/bin/pcol T=$(BENCH_BUILD)/bench DATA=$(BUILD)/bench-data \
	  bash bench/codecs.sh >$(BUILD)/bench-codecs.md && cat $(BUILD)/bench-codecs.md

# Many files as one (issue 32): a day of one-minute profiles (bench/many.sh);
# writes $(BUILD)/bench-many.md.  DAY_FILES=120 for a quick look.
.PHONY: bench-many
bench-many: bench-tools
	@PCOL=$(BENCH_BUILD)/bin/pcol T=$(BENCH_BUILD)/bench DATA=$(BUILD)/bench-data \
	  bash bench/many.sh >$(BUILD)/bench-many.md && \
	  PCOL=$(BENCH_BUILD)/bin/pcol T=$(BENCH_BUILD)/bench bash bench/many_names.sh >>$(BUILD)/bench-many.md && \
	  PCOL=$(BENCH_BUILD)/bin/pcol T=$(BENCH_BUILD)/bench bash bench/demangle_many.sh >>$(BUILD)/bench-many.md && \
	  cat $(BUILD)/bench-many.md

bench-flood: bench-tools
	@BUILD=$(BUILD) BENCH_BUILD=$(BENCH_BUILD) bash bench/flood.sh

# `pcol report` pages of 100k and 1M generated samples: size against the pcol
# file (fails past 4x) and time to interactive in Chromium; writes
# bench/results/report.md (bench/report_page.sh).
bench-report: bench-tools
	@BUILD=$(BUILD) BENCH_BUILD=$(BENCH_BUILD) bash bench/report_page.sh
# pcol export --to clickhouse of a 1M-sample profile: MB/s of Native output
# (goal >= 100 MB/s; doc/clickhouse.md "Scale on paper").
.PHONY: bench-clickhouse
bench-clickhouse: bench-tools
	@BENCH_BUILD=$(BENCH_BUILD) bash bench/clickhouse.sh

# Any size (issue 32): pack, unpack --to pprof, merge and top of generated
# pprof profiles at 1M and 10M samples, with peak RSS (bench/scale.sh);
# SCALE_BIG=100000000 adds the 100M-sample pack (~5 min to generate, ~2 min
# of CPU to pack, 2 GB of RAM).  Writes $(BUILD)/bench-scale.md.
# pcol info at any size (issue 47): format 1.3's summary against the pass
# over the samples, at 1M and 10M samples (INFO_SIZES; PCOL_OLD=path/to/old
# pcol adds the build before it); writes $(BUILD)/bench-info.md.
.PHONY: bench-info
bench-info: bench-tools
	@PCOL=$(BENCH_BUILD)/bin/pcol T=$(BENCH_BUILD)/bench DATA=$(BUILD)/bench-data \
	  bash bench/info_summary.sh >$(BUILD)/bench-info.md && cat $(BUILD)/bench-info.md

.PHONY: bench-scale
bench-scale: bench-tools
	@PCOL=$(BENCH_BUILD)/bin/pcol T=$(BENCH_BUILD)/bench DATA=$(BUILD)/bench-data \
	  bash bench/scale.sh >$(BUILD)/bench-scale.md && cat $(BUILD)/bench-scale.md

# The streaming writer (include/pcol.h): peak RSS and time of 1M samples,
# one file and rolled every 100k / 10k, 1,000 distinct stacks and all
# distinct; doc/library.md's "Streaming writer" numbers.
.PHONY: bench-writer
bench-writer: bench-tools
	@d=$$(mktemp -d); for dist in 1000 0; do for roll in 0 100000 10000; do \
	  rm -f $$d/*; /usr/bin/time -f "distinct $$dist roll $$roll: %e s, %U s user, peak %M KB" \
	    $(BENCH_BUILD)/bench/bench_writer $$d/p.pcol 1000000 $$roll $$dist || exit 1; \
	done; done; rm -rf $$d

# The DuckDB extension (issue 46): read_pcol vs Parquet vs folded text over
# 10M samples; writes bench/results/duckdb.md (bench/duckdb.sh).
.PHONY: bench-duckdb
bench-duckdb: all duckdb
	@BUILD=$(BUILD) bash bench/duckdb.sh

# One profile, every format (anchors-2026-11 goal 12): the largest real
# profile of each producer in ../shared/testdata written in every format
# pcol writes, bytes and `pcol top` CPU of each (bench/formats.sh); writes
# $(BUILD)/bench-formats.md.  `make bench` appends it to results/latest.md.
.PHONY: bench-formats
bench-formats: bench-tools
	@PCOL=$(BENCH_BUILD)/bin/pcol T=$(BENCH_BUILD)/bench \
	  bash bench/formats.sh >$(BUILD)/bench-formats.md && cat $(BUILD)/bench-formats.md
