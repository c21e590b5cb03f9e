# pcol — build, test, install.  GNU make.
#
#   make                 build build/bin/pcol, build/lib/libpcol.{a,so}
#   make run             pack the shipped example profile and show it
#   make check           the quick loop (~3 min on 2 cores): build, unit, CLI, conformance
#   make test            every test (Criterion, CLI, R/Go interop when present),
#                        built with AddressSanitizer + UBSan in build/test
#   make install PREFIX=/usr/local
#   make fuzz / make fuzz-run SECONDS=N   libFuzzer targets (clang)
#   make bench / make bench-quick
#
# BUILD=dir puts every output under dir (so several builds can run side by side).

BUILD   ?= build
PREFIX  ?= /usr/local
CC      ?= cc
ifeq ($(origin CC),default)
CC      := cc
endif
OPT     ?= -O2
SAN     ?=
CFLAGS  ?= $(OPT) -g
WARN    := -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter
CPPFLAGS_ALL := -std=c11 -D_GNU_SOURCE $(CPPFLAGS)
LDLIBS  := -llz4 -lzstd -lz -lprotobuf-c -ljansson -lpthread -lm
# The CLI links these five statically when their archives are installed
# (Debian's -dev packages ship them): a `pcol` run often lasts a few
# milliseconds, and loading five shared libraries was a quarter of its
# floor (pcol top on a 7 KB file: 1.56 -> 1.19 ms).  The library itself
# (libpcol.so, the bindings) keeps linking them as shared libraries.
STATIC_DEPS := lz4 zstd z protobuf-c jansson
# (An archive built without -fPIC cannot go into the position-independent
# pcol: then shared, as before; see the $(PCOL) rule.)
STATIC_LDLIBS := -Wl,-Bstatic $(addprefix -l,$(STATIC_DEPS)) -Wl,-Bdynamic -lpthread -lm
# Better still, a static position-independent executable (libc too, ASLR
# kept): no dynamic loader at all, pcol top on a 190 KB file 0.96 -> 0.65 ms
# (min of 21).  pcol uses nothing of libc that needs NSS or dlopen.  Not
# with sanitizers (they need the loader).  Each way is tried by linking
# pcol itself, the next one when it fails (an archive built without -fPIC,
# a toolchain without static-pie): a probe program that references none
# of the libraries' symbols could not tell.
STATIC_PIE_LDLIBS := -static-pie $(LDLIBS)

DEBIAN_PKGS := liblz4-dev libzstd-dev zlib1g-dev libprotobuf-c-dev protobuf-c-compiler \
               libcriterion-dev libjansson-dev pkg-config

# The library's version, read from the one public header (lz4's way).
pcol_version_part = $(shell sed -n 's/^\#define PCOL_VERSION_$(1)  *\([0-9][0-9]*\).*/\1/p' include/pcol.h)
VERSION_MAJOR := $(call pcol_version_part,MAJOR)
VERSION_MINOR := $(call pcol_version_part,MINOR)
VERSION_PATCH := $(call pcol_version_part,PATCH)
VERSION       := $(VERSION_MAJOR).$(VERSION_MINOR).$(VERSION_PATCH)

# The library in levels (lib/README.md): core needs nothing above it, query
# needs core, each converter core and its own folder; the tools see
# include/pcol.h only.  `make check-layers` checks the objects.
CORE_SRC    := $(sort $(wildcard lib/core/*.c))
QUERY_SRC   := $(sort $(wildcard lib/query/*.c))
CONVERT_SRC := $(sort $(wildcard lib/convert/*.c lib/convert/*/*.c))
LIB_SRC   := $(CORE_SRC) $(QUERY_SRC) $(CONVERT_SRC)
TOOL_SRC  := $(sort $(wildcard tools/*.c))
TEST_SRC  := $(sort $(wildcard tests/test_*.c))
GEN_C     := $(BUILD)/gen/profile.pb-c.c
GEN_H     := $(BUILD)/gen/profile.pb-c.h
# OpenTelemetry's profiles signal (format/opentelemetry/, upstream .proto
# files under their own paths, so that their imports resolve).
OTLP_PROTO := $(addprefix format/opentelemetry/proto/,common/v1/common.proto \
                resource/v1/resource.proto profiles/v1development/profiles.proto \
                collector/profiles/v1development/profiles_service.proto)
OTLP_GEN_C := $(OTLP_PROTO:format/%.proto=$(BUILD)/gen/%.pb-c.c)
OTLP_GEN_H := $(OTLP_PROTO:format/%.proto=$(BUILD)/gen/%.pb-c.h)

LIB_OBJ   := $(LIB_SRC:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/gen/profile.pb-c.o \
             $(OTLP_GEN_C:$(BUILD)/gen/%.c=$(BUILD)/obj/gen/%.o)
TOOL_OBJ  := $(TOOL_SRC:%.c=$(BUILD)/obj/%.o)
TEST_BIN  := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)

PCOL      := $(BUILD)/bin/pcol
LIBA      := $(BUILD)/lib/libpcol.a
SONAME    := libpcol.so.$(VERSION_MAJOR)
LIBSO     := $(BUILD)/lib/libpcol.so
LIBSO_REAL := $(BUILD)/lib/$(SONAME)

# Include paths per level: what a file may include is what its level may use.
$(BUILD)/obj/lib/core/%.o:    LAYER_CPPFLAGS = -Iinclude -Iformat -Ilib/core
$(BUILD)/obj/lib/query/%.o:   LAYER_CPPFLAGS = -Iinclude -Iformat -Ilib/core -Ilib/query
$(BUILD)/obj/lib/convert/%.o: LAYER_CPPFLAGS = -Iinclude -Iformat -Ilib/core -Ilib/convert -I$(<D)
$(BUILD)/obj/lib/convert/pprof/%.o: EXTRA_CPPFLAGS = -I$(BUILD)/gen
$(BUILD)/obj/lib/convert/otlp/%.o: EXTRA_CPPFLAGS = -I$(BUILD)/gen
$(BUILD)/obj/tools/%.o:       LAYER_CPPFLAGS = -Iinclude
# White-box tests and fuzz targets may include core's and a format's internals.
TEST_CPPFLAGS := -Iinclude -Iformat -Ilib/core -Ilib/convert -Ilib/convert/perun -I$(BUILD)/gen -Itests -Ifuzz
LIB_CFLAGS := -fPIC -fvisibility=hidden

.PHONY: all deps run check test test-unit test-cli test-conformance test-interop test-clang install clean \
        fuzz fuzz-run bench bench-quick examples check-layers test-install test-bounds test-corpus
.DEFAULT_GOAL := all

all: deps $(PCOL) $(LIBA) $(LIBSO) $(BUILD)/bin/read_top $(BUILD)/bin/record_self

# python3 for the tests.  They start python3 some 400 times (generators,
# judges, the conformance runner).  Where python3 on PATH is a version
# manager's shim (pyenv's is a bash script that runs `pyenv exec`: ~0.6 s of
# CPU a start, the interpreter itself 0.06-0.13 s; some 200 s of make test's
# CPU), make check and make test put $(PYBIN)/python3 first on PATH: a
# two-line script that execs the interpreter the shim resolved to (the same
# Python, started directly; a script, not a link, so that a venv's
# interpreter still finds its pyvenv.cfg).  PYBIN is exported so that the
# sub-makes' other BUILD keeps the one directory.
export PYBIN ?= $(CURDIR)/$(BUILD)/.pybin
ifneq ($(filter test check test-% check-%,$(MAKECMDGOALS)),)
export PATH := $(PYBIN):$(PATH)
endif
.PHONY: pybin
pybin:
	@mkdir -p $(PYBIN); rm -f $(PYBIN)/python3; \
	py=$$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null); \
	if [ -n "$$py" ] && [ -x "$$py" ]; then printf '#!/bin/sh\nexec %s "$$@"\n' "'$$py'" >$(PYBIN)/python3 && chmod +x $(PYBIN)/python3; fi

# Install missing Debian packages (as root), once per build directory.
deps: $(BUILD)/.deps-ok
$(BUILD)/.deps-ok:
	@missing=""; for p in $(DEBIAN_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "pcol: installing missing packages:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then \
	    (apt-get install -y --no-install-recommends $$missing || \
	     (apt-get update && apt-get install -y --no-install-recommends $$missing)) || exit 1; \
	  else \
	    echo "pcol: run as root, or: sudo apt-get install$$missing" >&2; exit 1; \
	  fi; \
	fi
	@mkdir -p $(BUILD) && touch $@

$(GEN_C) $(GEN_H) &: format/profile.proto | $(BUILD)/.deps-ok
	@mkdir -p $(BUILD)/gen
	protoc-c --proto_path=format --c_out=$(BUILD)/gen format/profile.proto

$(BUILD)/obj/gen/profile.pb-c.o: $(GEN_C)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) -I$(BUILD)/gen $(CFLAGS) $(SAN) $(LIB_CFLAGS) -w -c $< -o $@

$(OTLP_GEN_C) $(OTLP_GEN_H) &: $(OTLP_PROTO) | $(BUILD)/.deps-ok
	@mkdir -p $(BUILD)/gen
	protoc-c --proto_path=format --c_out=$(BUILD)/gen $(OTLP_PROTO)

$(BUILD)/obj/gen/opentelemetry/%.pb-c.o: $(BUILD)/gen/opentelemetry/%.pb-c.c $(OTLP_GEN_H)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) -I$(BUILD)/gen $(CFLAGS) $(SAN) $(LIB_CFLAGS) -w -c $< -o $@

# The report page's template and script (lib/query/report/), compiled into
# the library as byte arrays (od from coreutils: no other tool needed).  The
# script is the modules below joined in this order inside one function:
# the computing ones first (no DOM; tests/report/ runs them in node), then
# the views.  No network, no npm at build time.
REPORT_JS_COMPUTE := data.js range.js top.js tree.js graph.js graphtags.js hide.js diff.js units.js
REPORT_JS_VIEWS := head.js table.js flame.js timeline.js stackchart.js treeview.js source.js graphview.js refine.js page.js
REPORT_JS := $(addprefix lib/query/report/,$(REPORT_JS_COMPUTE) $(REPORT_JS_VIEWS))
$(BUILD)/gen/report.js: $(REPORT_JS)
	@mkdir -p $(dir $@)
	@{ echo "/* pcol report's script: $(notdir $(REPORT_JS)) of lib/query/report/, joined by the Makefile */"; \
	  echo "(function () {"; echo "'use strict';"; cat $(REPORT_JS); echo "})();"; } > $@.tmp && mv $@.tmp $@
REPORT_ASSETS := lib/query/report/report.html $(BUILD)/gen/report.js
$(BUILD)/gen/report_assets.h: $(REPORT_ASSETS)
	@mkdir -p $(dir $@)
	@{ echo '/* generated from $(REPORT_ASSETS) by the Makefile */'; \
	  for f in $(REPORT_ASSETS); do n=$$(basename $$f | tr . _); \
	    echo "static const unsigned char pcol_$$n[] = {"; \
	    od -An -v -tu1 $$f | sed -e 's/  */,/g' -e 's/^,//' -e 's/$$/,/'; \
	    echo "0};"; echo "static const size_t pcol_$${n}_len = sizeof pcol_$$n - 1;"; \
	  done; } > $@.tmp && mv $@.tmp $@
$(BUILD)/obj/lib/query/report.o: $(BUILD)/gen/report_assets.h
$(BUILD)/obj/lib/query/report.o: EXTRA_CPPFLAGS = -I$(BUILD)/gen

$(BUILD)/obj/lib/%.o: lib/%.c $(GEN_H) $(OTLP_GEN_H) | $(BUILD)/.deps-ok
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) $(LAYER_CPPFLAGS) $(EXTRA_CPPFLAGS) $(CFLAGS) $(WARN) $(SAN) $(LIB_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/obj/tools/%.o: tools/%.c | $(BUILD)/.deps-ok
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) $(LAYER_CPPFLAGS) $(CFLAGS) $(WARN) $(SAN) -fPIE -MMD -MP -c $< -o $@

-include $(LIB_OBJ:.o=.d) $(TOOL_OBJ:.o=.d)

$(LIBA): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(LIBSO_REAL): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) -shared $(SAN) -Wl,-soname,$(SONAME) -o $@ $^ $(LDLIBS)

$(LIBSO): $(LIBSO_REAL)
	ln -sf $(SONAME) $@

$(PCOL): $(TOOL_OBJ) $(LIBA)
	@mkdir -p $(dir $@)
	$(if $(SAN),,$(CC) -o $@ $(TOOL_OBJ) $(LIBA) $(STATIC_PIE_LDLIBS) 2>/dev/null || )\
	$(CC) $(SAN) $(SANLINK) -o $@ $(TOOL_OBJ) $(LIBA) $(STATIC_LDLIBS) 2>/dev/null || \
	$(CC) $(SAN) $(SANLINK) -o $@ $(TOOL_OBJ) $(LIBA) $(LDLIBS)

$(BUILD)/bin/read_top: examples/read_top.c $(LIBA)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) -Iinclude $(CFLAGS) $(WARN) $(SAN) $(SANLINK) -o $@ $< $(LIBA) $(LDLIBS)

# -rdynamic: the sampler names its external functions through dladdr (the
# others from its .symtab, examples/record_self.c).
$(BUILD)/bin/record_self: examples/record_self.c $(LIBA)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) -Iinclude $(CFLAGS) $(WARN) $(SAN) $(SANLINK) -rdynamic -o $@ $< $(LIBA) $(LDLIBS)

examples: $(BUILD)/bin/read_top $(BUILD)/bin/record_self

$(BUILD)/tests/%: tests/%.c tests/testutil.h $(LIBA)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) $(TEST_CPPFLAGS) $(CFLAGS) $(WARN) $(SAN) $(SANLINK) -o $@ $< $(LIBA) $(LDLIBS) -lcriterion

# Fails when an object calls into a level it may not use (see lib/README.md).
check-layers: $(LIB_OBJ) $(TOOL_OBJ)
	@bash tests/check_layers.sh $(BUILD)/obj

# ------------------------------------------------------------------ run
run: all
	$(PCOL) pack examples/demo.out -o $(BUILD)/demo.pcol
	$(PCOL) info $(BUILD)/demo.pcol
	$(PCOL) cat $(BUILD)/demo.pcol --table samples --limit 10

# ----------------------------------------------------------------- test
# Tests run on a sanitizer build in $(BUILD)/test.
TEST_BUILD := $(BUILD)/test
SANFLAGS   := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
# Executables of the sanitizer build link gcc's sanitizer runtimes statically:
# an ASan process then starts in ~60 ms of CPU instead of ~75 (no lookup of
# the interceptors through the dynamic linker), and the CLI and conformance
# stages start some ten thousand of them.  (gcc only; the .so keeps $(SAN).)
# And they are not position-independent (-no-pie): an instrumented PIE
# spends most of its start applying relocations to its 14 MB and copying
# the pages they write (perf: _dl_relocate_object and the kernel's page
# copies, ~60% of a start); without them `pcol --version` takes 25 ms of
# CPU, not 62, and 900 page faults, not 1,580.
SANLINK_GCC := -static-libasan -static-libubsan
SANLINK_TEST = -no-pie $(if $(shell $(CC) --version 2>/dev/null | grep -qi 'free software foundation' && echo gcc),$(SANLINK_GCC))

# The sanitizer build runs the tests of pcol's own behaviour (unit, CLI with
# its hostile inputs, conformance, threads); the interop tests, which judge
# answers against R, Go, node, Chromium and ClickHouse on outside files, run
# on the plain build two at a time (under ASan they took most of the 20
# minutes; the fuzz replay and CLI tests keep the hostile paths under ASan).
#
# Time (2 cores): every build is compiled two files at a time (test-build),
# and the stages that use one core (the clang build, install, bounds, the
# corpus read-back, bench-quick, the R and Python packages) run beside each
# other in two lanes (test-tail).
test: deps pybin
	@$(MAKE) -j2 --no-print-directory BUILD=$(TEST_BUILD) SAN="$(SANFLAGS)" SANLINK="$(SANLINK_TEST)" OPT=-O1 test-build
	@$(MAKE) -k --no-print-directory BUILD=$(TEST_BUILD) SAN="$(SANFLAGS)" SANLINK="$(SANLINK_TEST)" OPT=-O1 JOBS=2 LEAKS=errors check-layers test-unit test-cli test-conformance test-tsan
	@$(MAKE) -j2 --no-print-directory all
	@$(MAKE) --no-print-directory JOBS=2 test-interop
	@$(MAKE) --no-print-directory test-tail

# The library, the CLI and the unit test binaries (make -j2 test-build).
.PHONY: test-build test-tail
test-build: all $(TEST_BIN)

# Two lanes of one-core stages; each lane's output is printed when it ends
# (so the two do not interleave), and the target fails if either lane does.
# Lane a: the R and Python packages (sub-lanes of their own: Python; R's
# tests beside R CMD check).  Lane b beside it: the clang build, install,
# bounds, the whole-corpus read-back (two files at a time) and bench-quick (which
# checks that the benchmark harness runs: its numbers, taken beside other
# work, are not measurements; `make bench` is).
test-tail: all
	@d=$$(mktemp -d); \
	( $(MAKE) --no-print-directory test-bindings >$$d/a 2>&1; echo $$? >$$d/a.rc ) & \
	( $(MAKE) -k --no-print-directory BENCH_BUILD=$(BUILD) \
	    test-clang test-install test-bounds test-corpus bench-quick >$$d/b 2>&1; echo $$? >$$d/b.rc ) & \
	wait; cat $$d/b $$d/a; rc=$$(cat $$d/a.rc $$d/b.rc | sort -n | tail -1); rm -rf $$d; \
	[ "$$rc" = 0 ] || { echo "test-tail: a lane failed (exit $$rc)"; exit 1; }

# The tree must also build warning-free (-Werror) with clang.  Its warnings
# come from its front end, so each layer's sources are checked with
# -fsyntax-only and that layer's include path (one clang per layer, ~60% of
# an -O0 build's CPU); the generated headers come from a clang BUILD of
# their own.  make test's bench-quick measures the plain -O2 build itself
# (BENCH_BUILD=$(BUILD)), as it is the same code as bench-build.
CLANG_SYNTAX = clang -fsyntax-only $(CPPFLAGS_ALL) -O0 $(WARN)
test-clang:
	@if command -v clang >/dev/null 2>&1; then \
	  $(MAKE) --no-print-directory BUILD=$(BUILD)/clang CC=clang DUCKDB_INC=$(CURDIR)/$(BUILD)/duckdb/include clang-syntax >/dev/null && \
	  echo "clang -Wall -Wextra -Werror: ok ($(words $(LIB_SRC) $(TOOL_SRC)) sources and the examples)"; \
	else echo "clang not installed: clang build skipped"; fi
.PHONY: clang-syntax
clang-syntax: $(GEN_H) $(OTLP_GEN_H) $(BUILD)/gen/report_assets.h | $(BUILD)/.deps-ok
	$(CLANG_SYNTAX) -Iinclude -Iformat -Ilib/core $(CORE_SRC)
	$(CLANG_SYNTAX) -Iinclude -Iformat -Ilib/core -Ilib/query -I$(BUILD)/gen $(QUERY_SRC)
	$(CLANG_SYNTAX) -Iinclude -Iformat -Ilib/core -Ilib/convert -I$(BUILD)/gen $(CONVERT_SRC)
	$(CLANG_SYNTAX) -Iinclude $(TOOL_SRC) examples/read_top.c examples/record_self.c
	@# the DuckDB extension, when make duckdb has fetched DuckDB's headers
	@if [ -n "$(DUCKDB_INC)" ] && [ -f "$(DUCKDB_INC)/duckdb_extension.h" ]; then \
	  $(CLANG_SYNTAX) -Iinclude -Ibindings/common -isystem $(DUCKDB_INC) bindings/duckdb/pcol_duckdb.c bindings/common/pcolb.c; fi

# JOBS=2: two binaries at a time (a binary of a few long tests, such as the
# fuzz replay, keeps one core busy), each printed whole when it ends.
test-unit: all $(TEST_BIN)
	@d=$$(mktemp -d); printf '%s\n' $(TEST_BIN) | xargs -P $(JOBS) -I{} sh -c \
	  't={}; n=$$(basename $$t); if PCOL_BUILD=$(BUILD) $$t --jobs 2 >"$$0/$$n.log" 2>&1; then echo ok >"$$0/$$n.rc"; \
	   else echo FAILED >"$$0/$$n.rc"; fi; echo "== $$t"; cat "$$0/$$n.log"; \
	   [ "$$(cat "$$0/$$n.rc")" = ok ] || echo "FAILED: $$t"' "$$d"; \
	pass=$$(grep -l '^ok' "$$d"/*.rc | wc -l); fail=$$(grep -L '^ok' "$$d"/*.rc | wc -l); rm -rf "$$d"; \
	echo "unit test binaries: $$pass passed, $$fail failed"; [ $$fail = 0 ] && [ $$pass = $(words $(TEST_BIN)) ]

# Packaging (a plain build): install into a scratch prefix, build a program
# with pkg-config against it, check exports and SONAME.
test-install: all
	@BUILD=$(BUILD) bash tests/install/t_install.sh

# Resource bounds (doc/safety.md): peak memory of every command on hostile
# inputs, under prlimit, on the plain build (sanitizers reserve terabytes).
test-bounds: all
	@PCOL=$(PCOL) bash tests/bounds/t_bounds.sh
	@PCOL=$(PCOL) bash tests/bounds/t_stream_json.sh

# Whole-corpus checks (every test-data file x every export read back) on
# the plain build: under the sanitizers they take more than 8 minutes.
test-corpus: all
	@PCOL=$(PCOL) BUILD=$(BUILD) bash tests/corpus/t_readback.sh; rc=$$?; \
	  if [ $$rc = 77 ]; then echo "corpus tests skipped (no shared test data)"; else [ $$rc = 0 ] && echo "corpus: t_readback ok"; fi

test-cli: all
	@PCOL=$(PCOL) BUILD=$(BUILD) JOBS=$(JOBS) LEAKS=$(LEAKS) bash tests/cli/run_all.sh

# The quick loop (README): the plain build, the layer check, unit tests,
# CLI tests two at a time and the conformance suite; about 3 minutes on 2
# cores.  `make test` runs all of this and more under the sanitizers.
JOBS ?= 1
# LEAKS=errors: LeakSanitizer only where tests/cli/run_all.sh says (make test).
LEAKS ?= all
check: deps pybin
	@$(MAKE) -j2 --no-print-directory test-build
	@$(MAKE) --no-print-directory check-layers
	@$(MAKE) --no-print-directory JOBS=2 test-unit
	@$(MAKE) --no-print-directory JOBS=2 test-cli
	@$(MAKE) --no-print-directory test-conformance
	@echo "make check: passed"

test-interop: all
	@PCOL=$(PCOL) BUILD=$(BUILD) JOBS=$(JOBS) bash tests/interop/run_all.sh

# The conformance suite (spec.md §12): every file's verdict and libpcol's
# stage, the views of the valid files through `pcol cat`, the two 64 MiB
# files of rule T1, and the committed files against what gen.py writes.
test-conformance: all
	@if command -v python3 >/dev/null 2>&1; then \
	  $(if $(filter errors,$(LEAKS)),ASAN_OPTIONS=detect_leaks=0) python3 tests/conformance/run.py --pcol $(PCOL) --jobs 2 --stages --large --check-generated; \
	else echo "python3 not installed: conformance suite skipped"; fi

# The R and Python packages (bindings/), built against this (plain) build
# installed into a scratch prefix, and their tests; each is skipped with the
# reason when R or /usr/bin/python3 with numpy is missing.
.PHONY: test-bindings test-r test-python bench-bindings
test-bindings: all
	@BUILD=$(BUILD) bash bindings/test.sh all

test-r: all
	@BUILD=$(BUILD) bash bindings/test.sh r

test-python: all
	@BUILD=$(BUILD) bash bindings/test.sh python

# The bindings' benchmark rows (bench/bindings.sh): writes bench/results/bindings.md.
bench-bindings: all bench-tools
	@BUILD=$(BUILD) BENCH_BUILD=$(BUILD)/bench-build bash bench/bindings.sh

# The DuckDB extension (bindings/duckdb/, doc/duckdb.md): read_pcol() and
# pcol_top() for DuckDB >= 1.2, built against DuckDB's stable C extension API.
# Its two headers come from the npm package `duckdb` (DuckDB's sources) at the
# pinned version, fetched into $(BUILD)/duckdb with `npm pack` (nothing of
# DuckDB is in the repository); the file gets DuckDB's metadata footer
# (append_metadata.sh): unsigned, it loads with allow_unsigned_extensions.
DUCKDB_NPM_VERSION := 1.4.4
DUCKDB_CAPI_VERSION := v1.2.0
DUCKDB_ARCH := $(shell uname -m | sed -e 's/x86_64/amd64/' -e 's/aarch64/arm64/')
DUCKDB_PLATFORM ?= linux_$(DUCKDB_ARCH)
DUCKDB_DIR := $(BUILD)/duckdb
DUCKDB_EXT := $(DUCKDB_DIR)/pcol.duckdb_extension
DUCKDB_HDR := $(DUCKDB_DIR)/include/duckdb_extension.h
.PHONY: duckdb
duckdb: $(DUCKDB_EXT)
# The tarball's sha512 (the registry's dist.integrity for that version) is
# checked whichever way it came: npm pack, or curl from the registry when
# npm is not installed.
DUCKDB_NPM_SHA512 := hEJJ5hyVF0VLj3dmOLpsWrQR0b3d4Ykqtygm6iUXjHJDDnSqg/USKxcb5qvNrOhFYPgktayU6dXCtgPqcmmpog==
$(DUCKDB_HDR):
	@mkdir -p $(DUCKDB_DIR)/include
	@tgz=$(DUCKDB_DIR)/duckdb-$(DUCKDB_NPM_VERSION).tgz; rm -f $$tgz; \
	if command -v npm >/dev/null; then \
	  echo "npm pack duckdb@$(DUCKDB_NPM_VERSION) (DuckDB's C headers)"; \
	  (cd $(DUCKDB_DIR) && npm pack --silent duckdb@$(DUCKDB_NPM_VERSION) >/dev/null); \
	else \
	  echo "curl registry.npmjs.org duckdb-$(DUCKDB_NPM_VERSION).tgz (DuckDB's C headers; npm not installed)"; \
	  curl -fsSL -o $$tgz https://registry.npmjs.org/duckdb/-/duckdb-$(DUCKDB_NPM_VERSION).tgz; \
	fi; \
	[ -s $$tgz ] || { echo "make duckdb: could not fetch duckdb@$(DUCKDB_NPM_VERSION) from the npm registry" >&2; exit 1; }; \
	[ "$$(openssl dgst -sha512 -binary $$tgz | base64 -w0)" = "$(DUCKDB_NPM_SHA512)" ] || \
	  { echo "make duckdb: $$tgz does not have the pinned sha512" >&2; rm -f $$tgz; exit 1; }; \
	tar xzf $$tgz -C $(DUCKDB_DIR)/include --strip-components=5 \
	  package/src/duckdb/src/include/duckdb.h package/src/duckdb/src/include/duckdb_extension.h && \
	rm -f $$tgz && touch $@
# -isystem: DuckDB's headers are not ours to hold to -Werror.  Only the entry
# point is exported (--exclude-libs: libpcol's symbols stay inside).
$(DUCKDB_EXT): bindings/duckdb/pcol_duckdb.c bindings/common/pcolb.c bindings/common/pcolb.h \
               bindings/duckdb/append_metadata.sh $(DUCKDB_HDR) $(LIBA)
	$(CC) $(CPPFLAGS_ALL) -Iinclude -Ibindings/common -isystem $(DUCKDB_DIR)/include $(CFLAGS) $(WARN) $(SAN) \
	  -fPIC -fvisibility=hidden -shared -o $@.tmp bindings/duckdb/pcol_duckdb.c bindings/common/pcolb.c \
	  $(LIBA) $(LDLIBS) -Wl,--exclude-libs,ALL
	sh bindings/duckdb/append_metadata.sh $@.tmp $(DUCKDB_PLATFORM) $(DUCKDB_CAPI_VERSION) v$(VERSION)
	mv $@.tmp $@
# The extension on the sanitizer build of make test ($(TEST_BUILD)), with the
# headers already fetched: t_duckdb.sh loads it into node under ASan/UBSan.
.PHONY: duckdb-san
duckdb-san: $(DUCKDB_HDR)
	@mkdir -p $(TEST_BUILD)/duckdb/include && cp -p $(DUCKDB_DIR)/include/*.h $(TEST_BUILD)/duckdb/include/
	@$(MAKE) --no-print-directory BUILD=$(TEST_BUILD) SAN="$(SANFLAGS)" OPT=-O1 duckdb
# ... and on make test's ThreadSanitizer build of the library (test-tsan's).
.PHONY: duckdb-tsan
duckdb-tsan: $(DUCKDB_HDR)
	@mkdir -p $(TEST_BUILD)/tsan/duckdb/include && cp -p $(DUCKDB_DIR)/include/*.h $(TEST_BUILD)/tsan/duckdb/include/
	@$(MAKE) --no-print-directory BUILD=$(TEST_BUILD)/tsan SAN="-fsanitize=thread" OPT=-O1 duckdb

# -------------------------------------------------------------- install
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include \
	           $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 755 $(PCOL) $(DESTDIR)$(PREFIX)/bin/pcol
	install -m 644 $(LIBA) $(DESTDIR)$(PREFIX)/lib/libpcol.a
	install -m 755 $(LIBSO_REAL) $(DESTDIR)$(PREFIX)/lib/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(PREFIX)/lib/libpcol.so
	install -m 644 include/pcol.h $(DESTDIR)$(PREFIX)/include/pcol.h
	# the C glue the R and Python packages compile in (bindings/README.md)
	install -d $(DESTDIR)$(PREFIX)/share/pcol/bindings
	install -m 644 bindings/common/pcolb.c bindings/common/pcolb.h $(DESTDIR)$(PREFIX)/share/pcol/bindings/
	# pcol.pc links libpcol.so, pcol-static.pc libpcol.a (lib/README.md)
	for pc in pcol pcol-static; do \
	  sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' -e 's|@LIBS@|$(LDLIBS)|g' \
	    lib/$$pc.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/$$pc.pc || exit 1; \
	done

# ----------------------------------------------------------------- fuzz
-include fuzz/fuzz.mk

# ---------------------------------------------------------------- bench
-include bench/bench.mk

clean:
	rm -rf $(BUILD)
