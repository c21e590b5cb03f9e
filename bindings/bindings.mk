# bindings.mk — the R and Python packages and the DuckDB extension
# (bindings/README.md, doc/duckdb.md); included by the top Makefile.

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
# pcol_top() for DuckDB >= 1.2, built against DuckDB's stable C extension API,
# with its two headers fetched at the pinned version and sha512 (the npm
# registry's dist.integrity) by bindings/duckdb/fetch_headers.sh; the file
# gets DuckDB's metadata footer (append_metadata.sh): unsigned, it loads with
# allow_unsigned_extensions.
DUCKDB_NPM_VERSION := 1.4.4
DUCKDB_CAPI_VERSION := v1.2.0
DUCKDB_ARCH := $(shell uname -m | sed -e 's/x86_64/amd64/' -e 's/aarch64/arm64/')
DUCKDB_PLATFORM ?= linux_$(DUCKDB_ARCH)
DUCKDB_DIR := $(BUILD)/duckdb
DUCKDB_EXT := $(DUCKDB_DIR)/pcol.duckdb_extension
DUCKDB_HDR := $(DUCKDB_DIR)/include/duckdb_extension.h
.PHONY: duckdb
duckdb: $(DUCKDB_EXT)
DUCKDB_NPM_SHA512 := hEJJ5hyVF0VLj3dmOLpsWrQR0b3d4Ykqtygm6iUXjHJDDnSqg/USKxcb5qvNrOhFYPgktayU6dXCtgPqcmmpog==
$(DUCKDB_HDR):
	@sh bindings/duckdb/fetch_headers.sh $(DUCKDB_DIR) $(DUCKDB_NPM_VERSION) $(DUCKDB_NPM_SHA512) && touch $@
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
