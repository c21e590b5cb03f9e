# tests.mk — one target per test stage (the clang warnings, unit, CLI,
# interop, conformance, install, bounds, corpus), each runnable alone
# (tests/README.md); included by the top Makefile, whose `check` and `test`
# run them in order.

# The tree must also build warning-free (-Werror) with clang.  Its warnings
# come from its front end, so each layer's sources are checked with
# -fsyntax-only and that layer's include path; the generated headers come
# from a clang BUILD of their own.
CLANG_SYNTAX = clang -fsyntax-only $(CPPFLAGS_ALL) -O0 $(WARN)
test-clang:
	@if command -v clang >/dev/null 2>&1; then \
	  $(MAKE) --no-print-directory BUILD=$(BUILD)/clang CC=clang DUCKDB_INC=$(CURDIR)/$(BUILD)/duckdb/include clang-syntax >/dev/null && \
	  echo "clang -Wall -Wextra -Werror: ok ($(words $(LIB_SRC) $(TOOL_SRC)) sources and the examples)"; \
	else echo "clang not installed: clang build skipped"; fi
.PHONY: clang-syntax
clang-syntax: $(GEN_H) $(OTLP_GEN_H) $(BUILD)/gen/report_assets.h $(BUILD)/gen/regex_js.h | $(BUILD)/.deps-ok
	$(CLANG_SYNTAX) -Iinclude -Iformat -Ilib/core $(CORE_SRC)
	$(CLANG_SYNTAX) -Iinclude -Iformat -Ilib/core -Ilib/query -I$(BUILD)/gen $(QUERY_SRC)
	$(CLANG_SYNTAX) -Iinclude -Iformat -Ilib/core -Ilib/convert -I$(BUILD)/gen $(CONVERT_SRC)
	@# (tools/svg.c: the generated regex_js.h, its only header of $(BUILD)/gen)
	$(CLANG_SYNTAX) -Iinclude -I$(BUILD)/gen $(TOOL_SRC) examples/read_top.c examples/record_self.c
	@# the DuckDB extension, when make duckdb has fetched DuckDB's headers
	@if [ -n "$(DUCKDB_INC)" ] && [ -f "$(DUCKDB_INC)/duckdb_extension.h" ]; then \
	  $(CLANG_SYNTAX) -Iinclude -Ibindings/common -isystem $(DUCKDB_INC) bindings/duckdb/pcol_duckdb.c bindings/common/pcolb.c; fi

# The layer rule of lib/README.md, checked on the objects' symbols.
check-layers: $(LIB_OBJ) $(TOOL_OBJ)
	@bash tests/check_layers.sh $(BUILD)/obj

# The public header compiles alone under gcc/g++/clang/clang++ -pedantic
# -Werror (tests/check_header.sh); libpcol.a defines no global but the
# header's functions, and libpcol.so exports them, nothing else, each at its
# node of lib/libpcol.map, a program using the newest node refused by a
# library without it (tests/check_symbols.sh; t_install.sh checks the
# installed libraries too).
check-header:
	@bash tests/check_header.sh include
check-symbols: $(LIBA) $(LIBSO)
	@bash tests/check_symbols.sh $(LIBA) include/pcol.h
	@bash tests/check_symbols.sh $(LIBSO) include/pcol.h lib/libpcol.map

# doc/api.md names every PCOL_API function of include/pcol.h, as generated
# from it (python3 tests/api_doc.py rewrites it).
check-api-doc:
	@python3 tests/api_doc.py --check

# The report page's script modules name what they use: imports, exports,
# no cycle, modules.txt's order (tests/report/modules_check.mjs); its pure
# drawing rules on generated input (tests/report/hit.test.mjs: the hover's
# search of the box under the pointer, the stack chart's columns).
check-report-modules:
	@if command -v node >/dev/null 2>&1; then node --experimental-vm-modules --no-warnings tests/report/modules_check.mjs && \
	  node tests/report/hit.test.mjs; \
	else echo "node not installed: report module check skipped"; fi

# JOBS binaries at a time, each printed whole when it ends (tests/run_unit.sh).
test-unit: all $(TEST_BIN)
	@BUILD=$(BUILD) JOBS=$(JOBS) sh tests/run_unit.sh $(TEST_BIN)

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
	@PCOL=$(PCOL) BUILD=$(BUILD) JOBS=$(JOBS) LEAKS=$(LEAKS) QUICK=$(QUICK) bash tests/cli/run_all.sh

test-interop: all
	@PCOL=$(PCOL) BUILD=$(BUILD) JOBS=$(JOBS) bash tests/interop/run_all.sh

# The conformance suite (spec.md §12): every file's verdict and libpcol's
# stage, the views of the valid files through `pcol cat`, the two 64 MiB
# files of rule T1, and the committed files against what gen.py writes.
test-conformance: all
	@if command -v python3 >/dev/null 2>&1; then \
	  $(if $(filter errors,$(LEAKS)),ASAN_OPTIONS=detect_leaks=0) python3 tests/conformance/run.py --pcol $(PCOL) --jobs 2 --stages --large --check-generated; \
	else echo "python3 not installed: conformance suite skipped"; fi
