# pcol — build, test, install.  GNU make.
#
#   make                 build build/bin/pcol, build/lib/libpcol.{a,so}
#   make run             pack the shipped example profile and show it
#   make check           the quick loop (~3 min on 2 cores): build, unit, CLI, conformance
#   make test            every test (Criterion, CLI, R/Go interop when present),
#                        built with AddressSanitizer + UBSan in build/test
#   make install PREFIX=/usr/local   (make install-strip: without debug information)
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
CC_IS_GCC := $(shell $(CC) --version 2>/dev/null | grep -qi 'free software foundation' && echo gcc)
CPPFLAGS_ALL := -std=c11 -D_GNU_SOURCE $(CPPFLAGS)
LDLIBS  := -llz4 -lzstd -lz -lprotobuf-c -ljansson -lpthread -lm
# The CLI is linked as a static PIE (no dynamic loader: a `pcol` run lasts
# milliseconds), else with these five archives, else shared; the $(PCOL) rule
# tries each in turn (bench/results/test-time.md says why and how much).
STATIC_DEPS := lz4 zstd z protobuf-c jansson
STATIC_LDLIBS := -Wl,-Bstatic $(addprefix -l,$(STATIC_DEPS)) -Wl,-Bdynamic -lpthread -lm
STATIC_PIE_LDLIBS := -static-pie $(LDLIBS)

DEBIAN_PKGS := liblz4-dev libzstd-dev zlib1g-dev libprotobuf-c-dev protobuf-c-compiler \
               libcriterion-dev libjansson-dev pkg-config

# The library's version, read from the one public header (lz4's way).
pcol_version_part = $(shell sed -n 's/^\#define PCOL_VERSION_$(1)  *\([0-9][0-9]*\).*/\1/p' include/pcol.h)
VERSION_MAJOR := $(call pcol_version_part,MAJOR)
VERSION_MINOR := $(call pcol_version_part,MINOR)
VERSION_PATCH := $(call pcol_version_part,PATCH)
VERSION       := $(VERSION_MAJOR).$(VERSION_MINOR).$(VERSION_PATCH)

# The library in levels (lib/README.md): core, query, convert/<format>; the
# tools see include/pcol.h only.  `make check-layers` checks the objects.
CORE_SRC    := $(sort $(wildcard lib/core/*.c))
QUERY_SRC   := $(sort $(wildcard lib/query/*.c))
CONVERT_SRC := $(sort $(wildcard lib/convert/*.c lib/convert/*/*.c))
LIB_SRC   := $(CORE_SRC) $(QUERY_SRC) $(CONVERT_SRC)
TOOL_SRC  := $(sort $(wildcard tools/*.c))
TEST_SRC  := $(sort $(wildcard tests/test_*.c))
GEN_C     := $(BUILD)/gen/profile.pb-c.c
GEN_H     := $(BUILD)/gen/profile.pb-c.h
# OTLP's upstream .proto files, under their own paths so that imports resolve.
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
# libpcol.a, the archive installed, exports the header's pcol_ functions
# only (one relocatable object whose hidden symbols are made local: an
# embedder's own protobuf-c code or a jfr_/perun_ function cannot meet the
# library's); libpcol-internal.a, every object as compiled, is for the
# white-box tests, fuzz targets and benchmarks that call internal functions.
LIBA      := $(BUILD)/lib/libpcol.a
LIBA_INT  := $(BUILD)/lib/libpcol-internal.a
# libpcol.so -> libpcol.so.MAJOR (the SONAME) -> libpcol.so.MAJOR.MINOR.PATCH
# (the file), as packagers expect; lib/libpcol.map is the version script.
SONAME    := libpcol.so.$(VERSION_MAJOR)
LIBSO     := $(BUILD)/lib/libpcol.so
LIBSO_LINK := $(BUILD)/lib/$(SONAME)
LIBSO_REAL := $(BUILD)/lib/libpcol.so.$(VERSION)

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
        fuzz fuzz-run bench bench-quick examples check-layers check-report-modules check-api-doc check-header check-symbols install-strip test-install test-bounds test-corpus
.DEFAULT_GOAL := all

all: deps $(PCOL) $(LIBA) $(LIBA_INT) $(LIBSO) $(BUILD)/bin/read_top $(BUILD)/bin/record_self

# make check and make test put python3 itself, not a version manager's shim,
# first on PATH (tools/build/pybin.sh); sub-makes with another BUILD keep it.
export PYBIN ?= $(CURDIR)/$(BUILD)/.pybin
ifneq ($(filter test check test-% check-%,$(MAKECMDGOALS)),)
export PATH := $(PYBIN):$(PATH)
endif
.PHONY: pybin
pybin:
	@sh tools/build/pybin.sh $(PYBIN)
# Install missing Debian packages (as root), once per build directory.
deps: $(BUILD)/.deps-ok
$(BUILD)/.deps-ok:
	@sh tools/build/deps.sh $(DEBIAN_PKGS)
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

# The report page's template and script, compiled in as byte arrays
# (tools/build/embed.sh): the modules of modules.txt joined in its order in
# one function, their import and export lines taken out.
REPORT_JS_LIST := lib/query/report/modules.txt
REPORT_JS := $(shell sh tools/build/embed.sh list $(REPORT_JS_LIST))
$(BUILD)/gen/report.js: $(REPORT_JS_LIST) $(REPORT_JS) tools/build/embed.sh
	@mkdir -p $(dir $@)
	@sh tools/build/embed.sh js $@ $(REPORT_JS_LIST)
REPORT_ASSETS := lib/query/report/report.html $(BUILD)/gen/report.js
$(BUILD)/gen/report_assets.h: $(REPORT_ASSETS)
	@mkdir -p $(dir $@)
	@sh tools/build/embed.sh c $@ $(REPORT_ASSETS)
$(BUILD)/obj/lib/query/report.o: $(BUILD)/gen/report_assets.h
$(BUILD)/obj/lib/query/report.o: EXTRA_CPPFLAGS = -I$(BUILD)/gen
# The flame SVG's search (tools/svg.c) reads Go's regular expressions with
# the page's own converter: regex.js, stripped alone, as a byte array.
$(BUILD)/gen/regex.js: lib/query/report/regex.js tools/build/embed.sh
	@mkdir -p $(dir $@)
	@! grep -q ']]>' lib/query/report/regex.js || { echo "regex.js: ']]>' would end the SVG's CDATA" >&2; exit 1; }
	@sh tools/build/embed.sh one $@ lib/query/report/regex.js
$(BUILD)/gen/regex_js.h: $(BUILD)/gen/regex.js
	@sh tools/build/embed.sh c $@ $(BUILD)/gen/regex.js
$(BUILD)/obj/tools/svg.o: $(BUILD)/gen/regex_js.h
$(BUILD)/obj/tools/svg.o: EXTRA_CPPFLAGS = -I$(BUILD)/gen

$(BUILD)/obj/lib/%.o: lib/%.c $(GEN_H) $(OTLP_GEN_H) | $(BUILD)/.deps-ok
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) $(LAYER_CPPFLAGS) $(EXTRA_CPPFLAGS) $(CFLAGS) $(WARN) $(SAN) $(LIB_CFLAGS) -MMD -MP -c $< -o $@

# Under ASan the CLI's own globals (help text, messages, option tables, and
# UBSan's data of each check) get no redzones: 6,000 fewer of the 55,000 a
# start registers; the library's tables, which file data indexes, keep theirs.
TOOL_SAN = $(if $(findstring address,$(SAN)),$(if $(CC_IS_GCC),--param asan-globals=0,-mllvm -asan-globals=0))
$(BUILD)/obj/tools/%.o: tools/%.c | $(BUILD)/.deps-ok
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) $(LAYER_CPPFLAGS) $(EXTRA_CPPFLAGS) $(CFLAGS) $(WARN) $(SAN) $(TOOL_SAN) -fPIE -MMD -MP -c $< -o $@

-include $(LIB_OBJ:.o=.d) $(TOOL_OBJ:.o=.d)

$(LIBA_INT): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(LIBA): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ $(BUILD)/lib/libpcol.o
	ld -r -o $(BUILD)/lib/libpcol.o $^
	objcopy --localize-hidden $(BUILD)/lib/libpcol.o
	ar rcs $@ $(BUILD)/lib/libpcol.o && rm -f $(BUILD)/lib/libpcol.o

$(LIBSO_REAL): $(LIB_OBJ) lib/libpcol.map
	@mkdir -p $(dir $@)
	$(CC) -shared $(SAN) -Wl,-soname,$(SONAME) -Wl,--version-script,lib/libpcol.map -o $@ $(LIB_OBJ) $(LDLIBS)

$(LIBSO): $(LIBSO_REAL)
	ln -sf $(notdir $(LIBSO_REAL)) $(LIBSO_LINK)
	ln -sf $(SONAME) $@

$(PCOL): $(TOOL_OBJ) $(LIBA)
	@mkdir -p $(dir $@)
	$(if $(SAN),,$(CC) -o $@ $(TOOL_OBJ) $(LIBA) $(STATIC_PIE_LDLIBS) 2>/dev/null || )\
	$(CC) $(SAN) $(SANLINK) -o $@ $(TOOL_OBJ) $(LIBA) $(STATIC_LDLIBS) 2>/dev/null || \
	$(CC) $(SAN) $(SANLINK) -o $@ $(TOOL_OBJ) $(LIBA) $(LDLIBS)

$(BUILD)/bin/read_top: examples/read_top.c $(LIBA)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) -Iinclude $(CFLAGS) $(WARN) $(SAN) $(SANLINK) -o $@ $< $(LIBA) $(LDLIBS)

# -rdynamic: the sampler names its external functions through dladdr.
$(BUILD)/bin/record_self: examples/record_self.c $(LIBA)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) -Iinclude $(CFLAGS) $(WARN) $(SAN) $(SANLINK) -rdynamic -o $@ $< $(LIBA) $(LDLIBS)

examples: $(BUILD)/bin/read_top $(BUILD)/bin/record_self

$(BUILD)/tests/%: tests/%.c tests/testutil.h $(LIBA_INT)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) $(TEST_CPPFLAGS) $(CFLAGS) $(WARN) $(SAN) $(SANLINK) -o $@ $< $(LIBA_INT) $(LDLIBS) -lcriterion

# ------------------------------------------------------------------ run
run: all
	$(PCOL) pack examples/demo.out -o $(BUILD)/demo.pcol
	$(PCOL) info $(BUILD)/demo.pcol
	$(PCOL) cat $(BUILD)/demo.pcol --table samples --limit 10

# ----------------------------------------------------------------- test
TEST_BUILD := $(BUILD)/test
SANFLAGS   := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
# Its executables start faster without PIE and with gcc's sanitizer runtimes
# static (bench/results/test-time.md); the .so keeps $(SAN).
SANLINK_GCC := -static-libasan -static-libubsan
SANLINK_TEST = -no-pie $(if $(CC_IS_GCC),$(SANLINK_GCC))

# The sanitizer build runs the tests of pcol's own behaviour (unit, CLI,
# conformance, threads); the interop tests run on the plain build two at a
# time, then the one-core stages in two lanes (bench/results/test-time.md).
# Each stage says its time (tests/stage.sh).
test: deps pybin
	@sh tests/stage.sh sanitizer-build $(MAKE) -j2 --no-print-directory BUILD=$(TEST_BUILD) SAN="$(SANFLAGS)" SANLINK="$(SANLINK_TEST)" OPT=-O1 test-build
	@sh tests/stage.sh unit-cli-conformance-tsan $(MAKE) -k --no-print-directory BUILD=$(TEST_BUILD) SAN="$(SANFLAGS)" SANLINK="$(SANLINK_TEST)" OPT=-O1 JOBS=2 LEAKS=errors check-layers check-report-modules check-api-doc check-header check-symbols test-unit test-cli test-conformance test-tsan
	@sh tests/stage.sh plain-build $(MAKE) -j2 --no-print-directory all
	@sh tests/stage.sh interop $(MAKE) --no-print-directory JOBS=2 test-interop
	@sh tests/stage.sh tail $(MAKE) --no-print-directory test-tail

# The library, the CLI and the unit test binaries (make -j2 test-build);
# test-tail: the one-core stages in two lanes side by side.
.PHONY: test-build test-tail
test-build: all $(TEST_BIN)
test-tail: all
	@MAKE="$(MAKE)" BUILD=$(BUILD) bash tests/run_lanes.sh

# The quick loop (README): the plain build, the layer check, unit tests, the CLI
# tests but the slowest (QUICK=1: tests/cli/run_all.sh) two at a time and the
# conformance suite.  LEAKS=errors (make test):
# LeakSanitizer only where tests/cli/run_all.sh says.
JOBS ?= 1
LEAKS ?= all
check: deps pybin
	@$(MAKE) -j2 --no-print-directory test-build
	@$(MAKE) --no-print-directory check-layers check-report-modules check-api-doc check-header check-symbols
	@$(MAKE) --no-print-directory JOBS=2 test-unit
	@$(MAKE) --no-print-directory JOBS=2 QUICK=1 test-cli
	@$(MAKE) --no-print-directory test-conformance
	@echo "make check: passed"

# -------------------------------------------------------------- install
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include \
	           $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 755 $(PCOL) $(DESTDIR)$(PREFIX)/bin/pcol
	install -m 644 $(LIBA) $(DESTDIR)$(PREFIX)/lib/libpcol.a
	install -m 755 $(LIBSO_REAL) $(DESTDIR)$(PREFIX)/lib/$(notdir $(LIBSO_REAL))
	ln -sf $(notdir $(LIBSO_REAL)) $(DESTDIR)$(PREFIX)/lib/$(SONAME)
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

# make install, then the installed pcol, libpcol.so and libpcol.a without
# their debug information (GNU's install-strip; packagers strip themselves).
.PHONY: install-strip
install-strip: install
	strip $(DESTDIR)$(PREFIX)/bin/pcol
	strip --strip-unneeded $(DESTDIR)$(PREFIX)/lib/$(notdir $(LIBSO_REAL))
	strip --strip-debug $(DESTDIR)$(PREFIX)/lib/libpcol.a

include tests/tests.mk
include bindings/bindings.mk

# ------------------------------------------------- fuzz and bench targets
-include fuzz/fuzz.mk
-include bench/bench.mk

clean:
	rm -rf $(BUILD)
