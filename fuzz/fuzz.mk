# fuzz/fuzz.mk — libFuzzer targets and the ThreadSanitizer test (included by
# the Makefile).
#
#   make fuzz                      build $(BUILD)/fuzz/fuzz_{pcol,rprof,pprof,perun,collapsed,json_scan,views,v8,perf,speedscope,firefox,otlp,chrome,tachyon,jfr,perfetto,http,regex,demangle,unwrap}
#                                  (clang -fsanitize=fuzzer,address,undefined)
#   make fuzz-run SECONDS=N        run each target N seconds (one after the
#                                  other) from the seed corpus; new inputs go to
#                                  $(BUILD)/fuzz/corpus/<target>, crashes to
#                                  $(BUILD)/fuzz/artifacts, logs to $(BUILD)/fuzz/logs
#   make fuzz-run FUZZ_TARGETS=pcol SECONDS=600   one target only
#   make test-tsan                 tests/test_threads.c under -fsanitize=thread
#
# Every crash, hang or leak found belongs in tests/fuzz-regress/<target>/,
# which tests/test_fuzz_replay.c replays under gcc + ASan/UBSan in `make test`.

FUZZ_CC      ?= clang
FUZZ_DIR     := $(BUILD)/fuzz
FUZZ_LIBDIR  := $(FUZZ_DIR)/libbuild
FUZZ_TARGETS ?= pcol rprof pprof perun collapsed json_scan views v8 perf speedscope firefox otlp chrome tachyon jfr perfetto http regex demangle unwrap
FUZZ_BINS    := $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz_%)
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_OPTS    ?= -max_len=65536 -timeout=20 -rss_limit_mb=2048 -print_final_stats=1
PCOL_TESTDATA ?= ../shared/testdata
SECONDS      ?= 60

.PHONY: fuzz fuzz-run fuzz-seeds fuzz-force test-tsan
fuzz-force:

fuzz: $(FUZZ_BINS)

# libpcol compiled by clang with libFuzzer coverage, in its own build tree.
$(FUZZ_LIBDIR)/lib/libpcol-internal.a: fuzz-force
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_LIBDIR) CC=$(FUZZ_CC) OPT=-O1 \
	  SAN="-fsanitize=fuzzer-no-link $(FUZZ_SAN)" $(FUZZ_LIBDIR)/lib/libpcol-internal.a

$(FUZZ_DIR)/fuzz_%: fuzz/fuzz_%.c fuzz/fuzz_common.h fuzz/fuzz_views.h fuzz/fuzz_http.h fuzz/fuzz_regex.h fuzz/fuzz_demangle.h fuzz/fuzz_unwrap.h tools/fetch.c $(FUZZ_LIBDIR)/lib/libpcol-internal.a
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -std=c11 -D_GNU_SOURCE $(TEST_CPPFLAGS) -g -O1 $(WARN) -fsanitize=fuzzer $(FUZZ_SAN) \
	  -o $@ $< $(FUZZ_LIBDIR)/lib/libpcol-internal.a $(LDLIBS)

# The generated seeds (synthetic pcol files, collapsed texts): plain build.
$(FUZZ_DIR)/gen_seeds: fuzz/gen_seeds.c fuzz/fuzz_common.h fuzz/fuzz_regex.h fuzz/fuzz_unwrap.h $(LIBA_INT)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS_ALL) $(TEST_CPPFLAGS) $(CFLAGS) $(WARN) $(SAN) -o $@ $< $(LIBA_INT) $(LDLIBS)

# Seeds: regenerated each run under $(FUZZ_DIR)/seeds/<target>; the shared
# test data is read in place (never copied into the repository).  *.pair:
# two inputs joined by FZ_NEXT (fuzz_common.h), which an importer target
# imports into one builder: two runs of a program at other addresses
# (ASLR, pprofgen.py aslr/emptybid/mapbomb, a legacy heap moved), merged
# recordings' Perfetto and Chrome exports, JFR files.  win-*: window_gen.py
# sources merged and exported for a range (a cut window without samples, rows
# past a missed window: Chrome's empty profiles), a Chrome pcolSpanStart not
# taken (span-*), a source without a window beside one (win-pprof); aslr-procs:
# two processes' mappings of one key in one profile.  views/pair-*: two
# pcol files and the parameter block of fuzz_views.h's fzv_chosen
# (tests/support/views_pair.py): pcol_open_readdressed of two runs at other
# addresses, pcol_open_diff_base_select of a source N (in range, past a
# side's count, huge) and a range (reversed, empty, huge, wall-clock).
# The kept rule and NUL names: speedscope_limits.py's numbers, Firefox
# weights of 1e-12/1.5/1e-9/a third, Perun amounts of 1e-12/1e15/-Infinity
# (dec-*), names, files and urls holding \u0000 (*-nul*; V8's nameless
# functions of a\0b.js and a\0c.js), V8's old "head" shape with timestamps,
# the parent form, pcolIdleGap and pcolClosingSample, and `unpack --to v8`
# of the pcol seeds; OTLP (JSON and protobuf) and a Perfetto trace's V8
# profile holding NUL in names, labels and threads (gen.py FORMAT OUT nul).
fuzz-seeds: all $(FUZZ_DIR)/gen_seeds
	@rm -rf $(FUZZ_DIR)/seeds
	@for t in pcol rprof pprof perun collapsed json_scan views v8 perf speedscope firefox otlp chrome tachyon jfr perfetto http regex demangle unwrap; do mkdir -p $(FUZZ_DIR)/seeds/$$t; done
	@$(FUZZ_DIR)/gen_seeds $(FUZZ_DIR)/seeds/pcol $(FUZZ_DIR)/seeds/collapsed $(FUZZ_DIR)/seeds/regex
	@td=$(PCOL_TESTDATA); s=$(FUZZ_DIR)/seeds; n=0; \
	for f in $$td/rprof/* $$td/pprof/*.pb* $$td/pprof/*.legacy $$td/ext/legacy/*.cpu $$td/ext/legacy/*.heap $$td/ext/legacy/*.contention $$td/ext/legacy/*.thread $$td/pprof-from-r/*.pb* $$td/perun/*.perf; do \
	  [ -f "$$f" ] || continue; b=$$(basename "$$f"); \
	  case "$$f" in */rprof/*) cp "$$f" $$s/rprof/;; */perun/*) cp "$$f" $$s/perun/ && cp "$$f" $$s/json_scan/;; \
	    *) cp "$$f" $$s/pprof/; case "$$f" in *.gz) gzip -dc "$$f" > $$s/pprof/$$b.raw 2>/dev/null || rm -f $$s/pprof/$$b.raw;; esac;; esac; \
	  for c in none lz4 zstd; do \
	    $(PCOL) pack "$$f" -o $$s/pcol/$$b.$$c.pcol --compress $$c 2>/dev/null && n=$$((n+1)); \
	  done; \
	  PCOL_DEBUG=stacks-as-built $(PCOL) pack "$$f" -o $$s/pcol/$$b.as-built.pcol 2>/dev/null; \
	  ! cmp -s $$s/pcol/$$b.as-built.pcol $$s/pcol/$$b.none.pcol || rm -f $$s/pcol/$$b.as-built.pcol; \
	done; \
	python3 tests/support/pprofgen.py multivalue $$s/pprof/gen-multivalue.pb >/dev/null 2>&1 || true; \
	python3 tests/support/pprofgen.py comments $$s/pprof/gen-comments.pb c1 '' c1 '#c2' >/dev/null 2>&1 || true; \
	python3 tests/support/pprofgen.py duptypes $$s/pprof/gen-duptypes.pb >/dev/null 2>&1 || true; \
	python3 tests/support/pprofgen.py duptypes $$s/pprof/gen-duptypes-nodefault.pb nodefault >/dev/null 2>&1 || true; \
	python3 tests/support/legacy_cpu_gen.py all $$s/pprof >/dev/null 2>&1 || true; \
	python3 tests/support/legacy_text_gen.py all $$s/pprof 1 >/dev/null 2>&1 || true; \
	for g in multivalue comments; do [ -f $$s/pprof/gen-$$g.pb ] && \
	  $(PCOL) pack $$s/pprof/gen-$$g.pb -o $$s/pcol/gen-$$g.pcol 2>/dev/null || true; done; \
	q=0; for t in '           401128\n           401161\n' '             hot 20074/20074            401128\n' \
	  '20074    1001001            401128\n20074    1001001            401161\n' 'main;foo            1234\nmain            401161\n'; do \
	  q=$$((q+1)); printf "$$t" > $$s/perf/dec-$$q.txt; cp $$s/perf/dec-$$q.txt $$s/collapsed/; done; \
	for p in $$s/pcol/*.pcol; do \
	  $(PCOL) unpack "$$p" --to collapsed -o $$s/collapsed/$$(basename $$p).txt 2>/dev/null || true; \
	  $(PCOL) unpack "$$p" --to firefox -o $$s/firefox/$$(basename $$p).json 2>/dev/null || true; \
	done; \
	for k in v70 v48 tracing gecko v71 v75; do python3 tests/support/firefox_gen.py $$k $$s/firefox/gen-$$k.json >/dev/null || true; done; \
	sed 's/"main"/"ma\\u0000in"/g' $$s/firefox/gen-v70.json > $$s/firefox/gen-v70-nul.json; \
	for w in '1e-12,' '1.5,' '1e-9,' '0.3333333333333333,'; do q=$$((q+1)); for f in $$s/firefox/gen-tracing.json $$s/firefox/synthetic-7.pcol.json; do \
	  [ -f $$f ] && sed "s/\"weight\":\[[0-9.e-]*,/\"weight\":[$$w/" $$f > $$s/firefox/dec-$$q-$$(basename $$f); done; done; \
	cp tests/fixtures/perun/*.perf $$s/json_scan/ 2>/dev/null || true; \
	cp tests/fixtures/perun/*.perf $$s/perun/ 2>/dev/null || true; \
	sed 's/"sleep#2": {"amount": \[0.001, 2\]/"sleep#2": {"amount": [1e-12, 2]/' tests/fixtures/perun/time.perf > $$s/perun/dec-col.perf; \
	sed 's/"amount": 4096/"amount": 1e-12/' tests/fixtures/perun/layout2-snapshots.perf > $$s/perun/dec-snap.perf; \
	sed 's/"amount": \(10\|20\|4096\),/"amount": 1e-12,/' tests/fixtures/perun/layout2-snapshots.perf > $$s/perun/dec-snaps.perf; \
	printf '%s\n' '{"header": {"type": "memory", "units": {"memory": "B"}}, "collector_info": {"name": "memory"}, "origin": "x", "postprocessors": [], "models": [], "global": {"time": "0.1s", "resources": [' \
	  ' {"type": "memory", "subtype": "malloc", "uid": "ma\u0000in", "amount": 1e15, "trace": [{"function": "ma\u0000in", "source": "m\u0000.c", "line": 1}]},' \
	  ' {"type": "memory", "subtype": "malloc", "uid": "f", "amount": 1e-7, "trace": [{"function": "f", "source": "m.c", "line": 2}, {"function": "", "source": "", "line": 0}]},' \
	  ' {"type": "memory", "subtype": "malloc", "uid": "g", "amount": -Infinity, "trace": [{"function": "g", "source": "m.c", "line": 3}]}]}}' > $$s/perun/dec-nul-global.perf; \
	python3 tests/support/speedscope_limits.py $$s/speedscope >/dev/null 2>&1 || true; \
	for f in s-1.5 e-1.5; do [ -f $$s/speedscope/$$f.json ] && sed 's/"name": *"main"/"name":"ma\\u0000in"/; s/"name": *"a"/"name":"a\\u0000","file":"f\\u0000.c","line":3/' \
	  $$s/speedscope/$$f.json > $$s/speedscope/$$f-nul.json; done; \
	cp $$td/ext/pprof/ODD-otlp-*.pb.bin $$s/otlp/ 2>/dev/null || true; \
	for p in $$s/pcol/*.none.pcol; do \
	  $(PCOL) unpack "$$p" --to otlp -o $$s/otlp/$$(basename $$p).otlp 2>/dev/null || true; \
	done; \
	if command -v protoc >/dev/null; then python3 tests/cli/otlp_judge.py gen > $$s/otlp.txt && \
	  python3 tests/cli/otlp_judge.py json < $$s/otlp.txt > $$s/otlp/gen.jsonl && \
	  protoc --proto_path=format --encode=opentelemetry.proto.profiles.v1development.ProfilesData \
	    opentelemetry/proto/profiles/v1development/profiles.proto < $$s/otlp.txt > $$s/otlp/gen.bin; fi; \
	cp tests/conformance/files/*.pcol $$s/pcol/ 2>/dev/null || true; \
	cp $$s/pcol/* $$s/views/ 2>/dev/null || true; \
	for st in default pidtid oneline noperiod flat notime noevent task srcline onesrc; do \
	  python3 tests/support/gen_perf_script.py $$s/perf/$$st.txt /dev/null --style $$st --samples 40 2>/dev/null || true; \
	done; \
	for o in "" "--fixed"; do for nc in 1 2; do \
	  python3 tests/support/gen_jfr.py $$s/jfr/gen$$o-$$nc.jfr --chunks $$nc --samples 9 $$o 2>/dev/null || true; \
	done; done; \
	j=0; for a in "--chunks 4 --samples 6 --renames" "--chunks 2 --samples 6 --redefine" "--chunks 3 --samples 6 --rekey" \
	  "--chunks 2 --samples 6 --m1 --deep 40" "--chunks 2 --samples 6 --exec-only --settings 3" \
	  "--chunks 2 --samples 6 --period *:20ms" "--chunks 2 --samples 6 --period 0:20ms --period 1:10ms@5500" \
	  "--chunks 2 --samples 6 --fixed --period 0:garbage --period 0:20ms@500" "--chunks 2 --samples 4 --repeat 2"; do \
	  j=$$((j+1)); python3 tests/support/gen_jfr.py $$s/jfr/var-$$j.jfr $$a 2>/dev/null || true; \
	done; \
	for p in $$s/pcol/*.pcol; do \
	  $(PCOL) unpack "$$p" --to speedscope -o $$s/speedscope/$$(basename $$p).json 2>/dev/null || true; \
	  case "$$p" in *.none.pcol|*/synthetic-*) $(PCOL) unpack "$$p" --to v8 -o $$s/v8/$$(basename $$p).cpuprofile 2>/dev/null || true;; esac; \
	done; \
	python3 tests/support/gen_perf_script.py $$s/threads.txt $$s/threads.truth --style pidtid --samples 30 --seed 3 >/dev/null 2>&1 && \
	  $(PCOL) unpack $$s/threads.txt --to speedscope -o $$s/speedscope/perf-threads.json 2>/dev/null || true; \
	rm -f $$s/threads.txt $$s/threads.truth; \
	printf '%s' '{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","url":"","lineNumber":-1,"columnNumber":-1},"children":[2,3]},{"id":2,"callFrame":{"functionName":"f","url":"file:///a.js","lineNumber":3,"columnNumber":1},"children":[4]},{"id":3,"callFrame":{"functionName":"(idle)","url":"","lineNumber":-1,"columnNumber":-1}},{"id":4,"callFrame":{"functionName":"","url":"file:///a.js","lineNumber":9,"columnNumber":0}}],"startTime":100,"endTime":900,"samples":[2,4,3,4,1],"timeDeltas":[10,100,-5,300,20]}' > $$s/v8/small.cpuprofile; \
	printf '%s' '{"head":{"functionName":"(root)","url":"","lineNumber":0,"callUID":1,"id":1,"hitCount":0,"children":[{"functionName":"","url":"/x/a\u0000b.js","lineNumber":11,"id":2,"hitCount":3,"children":[{"functionName":"g\u0000h","url":"/x/a\u0000c.js","lineNumber":11,"id":3,"hitCount":1,"children":[]}]},{"functionName":"","url":"","lineNumber":0,"id":4,"hitCount":1,"children":[]}]},"startTime":1.5,"endTime":2.5,"samples":[2,3,2,3,4],"timestamps":[1500000,1500100,1500300,1500600,1500650]}' > $$s/v8/old-head-nul.cpuprofile; \
	printf '%s' '{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1}},{"id":2,"parent":1,"callFrame":{"functionName":"","scriptId":"1","url":"file:///x/a\u0000b.js","lineNumber":10,"columnNumber":2}},{"id":3,"parent":1,"callFrame":{"functionName":"","scriptId":"2","url":"file:///x/a\u0000c.js","lineNumber":10,"columnNumber":2}},{"id":4,"parent":2,"callFrame":{"functionName":"n\u0000ul","scriptId":"1","url":"","lineNumber":-1,"columnNumber":-1}},{"id":5,"parent":1,"callFrame":{"functionName":"(idle)","url":"","lineNumber":-1,"columnNumber":-1},"pcolIdleGap":true},{"id":6,"parent":3,"callFrame":{"functionName":"","scriptId":"3","url":"a\u0000","lineNumber":-1,"columnNumber":0}}],"startTime":0,"endTime":5000,"samples":[2,3,4,5,6,4],"timeDeltas":[100,200,0,1000,300,7],"pcolClosingSample":true}' > $$s/v8/parent-nul-idle.cpuprofile; \
	for k in 3 4 5 6; do python3 tests/support/v8gen.py random $$s/v8/random-$$k.cpuprofile $$k >/dev/null || true; done; \
	python3 tests/contract/gen.py chrome $$s/chrome/gen.json >/dev/null || true; \
	python3 tests/support/chrome_seeds.py $$s/chrome || true; \
	for k in 1 2; do python3 tests/support/chrome_range.py gen-events $$s/chrome/events-$$k.json $$k >/dev/null || true; \
	  python3 tests/support/chrome_range.py gen-samples $$s/chrome/samples-$$k.json $$k >/dev/null || true; \
	  python3 tests/support/v8gen.py random $$s/v8/random-$$k.cpuprofile $$k >/dev/null && \
	  python3 tests/support/v8gen.py trace $$s/v8/random-$$k.cpuprofile $$s/chrome/chunks-$$k.json $$((k * 6)) >/dev/null || true; done; \
	python3 tests/contract/gen.py tachyon $$s/tachyon/gen.bin >/dev/null || true; \
	python3 tests/support/tachyongen.py rich $$s/tachyon/rich-zstd.bin --zstd --samples 400 >/dev/null || true; \
	python3 tests/support/tachyongen.py rich $$s/tachyon/rich-narrow.bin --narrow --samples 400 >/dev/null || true; \
	cp tests/fixtures/tachyon/exc-exception-none.bin tests/fixtures/tachyon/threads-gil-zstd.bin $$s/tachyon/; \
	printf 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello' > $$s/http/length; \
	printf 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;x=1\r\nabc\r\n2\r\nde\r\n0\r\nT: 1\r\n\r\n' > $$s/http/chunked; \
	printf 'HTTP/1.0 200 OK\nContent-Type: text/plain\n\nuntil the close' > $$s/http/close; \
	printf 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nX-Go-Pprof: 1\r\nContent-Length: 17\r\n\r\nUnknown profile\r\n' > $$s/http/error; \
	printf 'HTTP/1.1 302 Found\r\nLocation: /debug/pprof/heap\r\nContent-Length: 0\r\n\r\n' > $$s/http/redirect; \
	so=$$($(CC) -print-file-name=libstdc++.so.6 2>/dev/null); k=0; \
	if [ -f "$$so" ]; then for nm_ in $$(nm -D "$$so" 2>/dev/null | awk '{print $$NF}' | grep '^_Z' | sed 's/@.*//' | awk 'NR % 10 == 0' | head -300); do \
	  k=$$((k+1)); printf '%s' "$$nm_" > $$s/demangle/cxx-$$k; done; fi; \
	for nm_ in _RNvCs1234_7mycrate3foo _RNvMs_NtCs1234_5crate1aNtB2_1S3new _RINvNtCs1234_4core3ptr13drop_in_placeDNtB4_3AnyEL_E \
	  _ZN4core3ptr13drop_in_place17h0123456789abcdefE _ZZ1fvENKUlvE_clEv '_GLOBAL__sub_I__ZN1A1fEv' 'a<b>(c)::d'; do \
	  k=$$((k+1)); printf '%s' "$$nm_" > $$s/demangle/misc-$$k; done; \
	cp tests/fixtures/rprof/*.out $$s/rprof/; \
	m1=':100:10:1000:0:"f" \n:300:10:1000:0:"f" "main" \n'; m2=':90000:500:9000:0:"g" \n:90100:500:9500:0:"g" "main" \n'; \
	printf "memory profiling: sample.interval=20000\n$$m1""memory profiling: sample.interval=20000\n$$m2" > $$s/rprof/mem-append.out; \
	printf 'sample.interval=20000\n"h" \n"h" "main" \n'"memory profiling: sample.interval=10000\n$$m2" > $$s/rprof/cpu-then-mem.out; \
	printf "memory profiling: sample.interval=0\n$$m1$$m2" > $$s/rprof/mem-interval-0.out; \
	python3 tests/contract/gen.py perfetto $$s/perfetto/gen.pftrace >/dev/null || true; \
	python3 tests/contract/gen.py perfetto-v8 $$s/perfetto/v8-nul.pftrace nul >/dev/null 2>&1 || true; \
	python3 tests/contract/gen.py otlp $$s/otlp/gen-nul.jsonl nul >/dev/null || true; \
	python3 tests/contract/gen.py otlp-bin $$s/otlp/gen-nul.bin nul >/dev/null 2>&1 || true; \
	if command -v protoc >/dev/null; then for f in tests/fixtures/perfetto/*.textproto; do \
	  protoc -I format/perfetto --encode=perfetto.protos.Trace perfetto_trace.proto < $$f > $$s/perfetto/$$(basename $$f .textproto).pftrace || true; done; fi; \
	for nc in 1 2; do python3 tests/support/gen_jfr.py $$s/jfr/cputime-$$nc.jfr --chunks $$nc --samples 9 --cputime 2>/dev/null || true; done; \
	for f in $$s/rprof/mem-append.out $$s/rprof/cpu-then-mem.out $$s/rprof/mem-interval-0.out tests/fixtures/rprof/append.out \
	  $$s/jfr/cputime-2.jfr $$s/chrome/*.json; do \
	  b=$$(basename "$$f"); $(PCOL) pack "$$f" -o $$s/pcol/$$b.pcol 2>/dev/null || continue; cp $$s/pcol/$$b.pcol $$s/views/; \
	  case "$$f" in *.json) $(PCOL) unpack $$s/pcol/$$b.pcol --to speedscope -o $$s/speedscope/$$b.json 2>/dev/null || true; \
	    $(PCOL) unpack $$s/pcol/$$b.pcol --to speedscope --from 0 --to 0.002 -o $$s/speedscope/$$b.range.json 2>/dev/null || true;; esac; \
	done; \
	a=$(FUZZ_DIR)/pairs; rm -rf $$a; mkdir -p $$a; printf '\377pcol-next\377' > $$a/next; \
	pair() { [ -s "$$2" ] && [ -s "$$3" ] && cat "$$2" $$a/next "$$3" > "$$1"; return 0; }; \
	g() { python3 tests/support/pprofgen.py "$$@" >/dev/null 2>&1 || true; }; \
	g aslr $$a/a.pb 0x555555554000; g aslr $$a/b.pb 0x5600aa000000 0x5000 extra; g aslr $$a/c.pb 0x7f1234560000 0x4a00; \
	g aslr $$a/d.pb 0x5600aa000000 0x5001; g aslr $$a/as.pb 0x555555554000 0x5000 sym; g aslr $$a/bs.pb 0x5600aa000000 0x5000 sym; \
	g emptybid $$a/ea.pb a.so 10; g emptybid $$a/eb.pb b.so 4; g mapbomb $$a/m1.pb 30; g mapbomb $$a/m2.pb 30 0x1000000; \
	g aslr $$s/pprof/aslr-procs.pb 0x555555554000 0x5000 procs; g aslr $$a/bp.pb 0x5600aa000000 0x5000 procs; \
	g aslr $$a/nf.pb 0x555555554000 0x5000 nofile; g aslr $$a/ef.pb 0x5600aa000000 0x5000 emptyfile; \
	pair $$s/pprof/aslr-procs.pair $$s/pprof/aslr-procs.pb $$a/bp.pb; pair $$s/pprof/nofile-emptyfile.pair $$a/nf.pb $$a/ef.pb; \
	$(PCOL) pack $$s/pprof/aslr-procs.pb -o $$s/pcol/pprof-procs.pcol 2>/dev/null || true; \
	g dupbase $$s/pprof/gen-dupbase.pb; cp $$a/a.pb $$a/b.pb $$a/as.pb $$a/ea.pb $$a/m1.pb $$s/pprof/ 2>/dev/null || true; \
	for x in b c d; do pair $$s/pprof/aslr-a-$$x.pair $$a/a.pb $$a/$$x.pb; done; \
	for x in m1 ea a; do $(PCOL) pack $$a/$$x.pb -o $$s/pcol/pprof-$$x.pcol 2>/dev/null || true; done; \
	$(PCOL) merge $$a/a.pb $$a/b.pb -o $$s/pcol/aslr-merged.pcol 2>/dev/null || true; \
	pair $$s/pprof/aslr-sym.pair $$a/as.pb $$a/bs.pb; pair $$s/pprof/emptybid.pair $$a/ea.pb $$a/eb.pb; \
	pair $$s/pprof/mapbomb.pair $$a/m1.pb $$a/m2.pb; \
	for x in a b; do gzip -cn $$a/$$x.pb > $$a/$$x.pb.gz 2>/dev/null || true; done; pair $$s/pprof/aslr-gz.pair $$a/a.pb.gz $$a/b.pb.gz; \
	[ -f $$s/pprof/gen-heap-rate.heap ] && sed 's/7f0000/7f1000/g' $$s/pprof/gen-heap-rate.heap > $$a/heap-moved; \
	pair $$s/pprof/legacy-aslr.pair $$s/pprof/gen-heap-rate.heap $$a/heap-moved; \
	$(PCOL) unpack $$a/b.pb --diff-base $$a/a.pb --to pprof --no-gzip -o $$s/pprof/aslr-diff.pb 2>/dev/null || true; \
	$(PCOL) unpack $$a/b.pb --base $$a/c.pb --to pprof --no-gzip -o $$s/pprof/aslr-base.pb 2>/dev/null || true; \
	$(PCOL) unpack $$a/bs.pb --diff-base $$a/as.pb --to otlp -o $$s/otlp/aslr-diff.otlp 2>/dev/null || true; \
	for x in a b c as bs ea eb m1 m2; do $(PCOL) unpack $$a/$$x.pb --to otlp -o $$a/$$x.otlp 2>/dev/null || true; done; \
	cp $$a/a.otlp $$a/ea.otlp $$s/otlp/ 2>/dev/null || true; \
	pair $$s/otlp/aslr-a-b.pair $$a/a.otlp $$a/b.otlp; pair $$s/otlp/aslr-a-c.pair $$a/a.otlp $$a/c.otlp; \
	pair $$s/otlp/aslr-sym.pair $$a/as.otlp $$a/bs.otlp; pair $$s/otlp/emptybid.pair $$a/ea.otlp $$a/eb.otlp; \
	pair $$s/otlp/mapbomb.pair $$a/m1.otlp $$a/m2.otlp; \
	python3 -c 'import struct, sys; o = open(sys.argv[1], "wb"); [o.write(struct.pack(">I", len(d)) + d) for d in (open(f, "rb").read() for f in sys.argv[2:])]' \
	  $$s/otlp/aslr-frames.bin $$a/a.otlp $$a/b.otlp $$a/as.otlp $$a/bs.otlp 2>/dev/null || true; \
	w=0; for m in "$$s/chrome/gen.json $$s/chrome/events-1.json" "$$s/jfr/gen-1.jfr $$s/perf/default.txt" \
	  "$$s/chrome/samples-1.json $$s/jfr/cputime-2.jfr $$s/v8/small.cpuprofile" "$$s/perfetto/gen.pftrace $$s/chrome/events-2.json" \
	  "$$s/chrome/samples-1.json $$s/v8/small.cpuprofile $$s/chrome/chunks-1.json"; do \
	  w=$$((w+1)); $(PCOL) merge $$m -o $$a/m$$w.pcol 2>/dev/null || continue; cp $$a/m$$w.pcol $$s/views/merged-$$w.pcol; \
	  for t in perfetto chrome; do e=$$t; [ $$t = chrome ] && e=json; \
	    $(PCOL) unpack $$a/m$$w.pcol --to $$t --no-gzip -o $$s/$$t/merged-$$w.$$e 2>/dev/null || \
	      $(PCOL) unpack $$a/m$$w.pcol --to $$t -o $$s/$$t/merged-$$w.$$e 2>/dev/null || true; \
	    $(PCOL) unpack $$a/m$$w.pcol --source 2 --to $$t -o $$s/$$t/merged-$$w-s2.$$e 2>/dev/null || true; \
	    $(PCOL) unpack $$a/m$$w.pcol --from 1ms --to 0.5 -t $$t -o $$s/$$t/merged-$$w-range.$$e 2>/dev/null || true; \
	  done; \
	done; \
	pair $$s/perfetto/merged-1-2.pair $$s/perfetto/merged-1.perfetto $$s/perfetto/merged-2.perfetto; \
	pair $$s/perfetto/gen-merged.pair $$s/perfetto/gen.pftrace $$s/perfetto/merged-3.perfetto; \
	pair $$s/chrome/merged-1-5.pair $$s/chrome/merged-1.json $$s/chrome/merged-5.json; \
	pair $$s/chrome/gen-merged.pair $$s/chrome/gen.json $$s/chrome/merged-4.json; \
	w=0; for ap in wall:0 wall:0:0 cpu:10000000:0 cpu:0:0 wall:20000000:0 itimer:0 cpu:10ms; do w=$$((w+1)); \
	  python3 tests/support/gen_jfr.py $$s/jfr/ap0-$$w.jfr --chunks 2 --samples 6 --ap $$ap 2>/dev/null || true; done; \
	pair $$s/jfr/gen-ap0.pair $$s/jfr/gen-1.jfr $$s/jfr/ap0-1.jfr; \
	python3 tests/support/window_gen.py $$a 1767225658 >/dev/null 2>&1 || true; \
	for m in one.sparse:2:3 later.overrun:1.5:2.5 overrun.later:2.2:2.8 short.later:1:2; do \
	  ab=$${m%%:*}; r=$${m#*:}; x=$$a/win-$$ab.pcol; \
	  $(PCOL) merge $$a/$${ab%.*}.json $$a/$${ab#*.}.json -o $$x 2>/dev/null || continue; cp $$x $$s/pcol/; cp $$x $$s/views/; \
	  for t in chrome perfetto speedscope firefox otlp; do \
	    $(PCOL) unpack $$x --from $${r%:*} --to $${r#*:} -t $$t -o $$s/$$t/win-$$ab-range.$$t 2>/dev/null || true; done; \
	done; \
	k=0; for v in -1 1e300 '"x"' 2251799813685249 null 2251799813685248; do k=$$((k+1)); \
	  sed "s/\"pcolSpanStart\":[0-9.]*/\"pcolSpanStart\":$$v/" $$s/chrome/win-later.overrun-range.chrome > $$s/chrome/span-$$k.chrome 2>/dev/null || true; done; \
	pair $$s/chrome/span.pair $$s/chrome/win-later.overrun-range.chrome $$s/chrome/span-1.chrome; \
	python3 tests/support/pprofgen.py comments-at $$a/p.pb 1767225668000000000 c >/dev/null 2>&1 && \
	  $(PCOL) merge $$a/one.json $$a/p.pb -o $$a/mp.pcol 2>/dev/null && for t in perfetto chrome; do \
	    $(PCOL) unpack $$a/mp.pcol -t $$t -o $$s/$$t/win-pprof.$$t 2>/dev/null || true; done; \
	pair $$s/perfetto/win-pprof.pair $$s/perfetto/win-one.sparse-range.perfetto $$s/perfetto/win-pprof.perfetto; \
	for x in b c as bs eb m2; do $(PCOL) pack $$a/$$x.pb -o $$a/$$x.pcol 2>/dev/null || true; done; \
	for x in a ea m1; do cp $$s/pcol/pprof-$$x.pcol $$a/$$x.pcol 2>/dev/null || true; done; \
	vp() { [ -s "$$2" ] && [ -s "$$3" ] && python3 tests/support/views_pair.py "$$@" >/dev/null 2>&1; return 0; }; \
	v=$$s/views; vp $$v/pair-aslr-a-b $$a/a.pcol $$a/b.pcol; \
	vp $$v/pair-aslr-a-c $$a/a.pcol $$a/c.pcol --source 1 --from 0 --to 4611686018427387904 --flags 1; \
	vp $$v/pair-aslr-sym $$a/as.pcol $$a/bs.pcol --source huge --flags 2 --side-null; \
	vp $$v/pair-emptybid $$a/ea.pcol $$a/eb.pcol --source 2 --kind empty --from 5 --to 5; \
	vp $$v/pair-mapbomb $$a/m1.pcol $$a/m2.pcol --from 1000000 --to 0 --kind reversed --flags 3; \
	vp $$v/pair-merged-1-2 $$v/merged-1.pcol $$v/merged-2.pcol --source 2 --from 1000000 --to 500000000 --flags 3; \
	vp $$v/pair-merged-3-5 $$v/merged-3.pcol $$v/merged-5.pcol --source 3 --kind huge --wall --from 0 --to 0; \
	vp $$v/pair-merged-5-4 $$v/merged-5.pcol $$v/merged-4.pcol --source huge-1 --flags 4; \
	vp $$v/pair-win $$a/win-one.sparse.pcol $$a/win-later.overrun.pcol --wall --from 1767225660000000000 --to 1767225760000000000 --flags 2; \
	vp $$v/pair-win-empty $$a/win-later.overrun.pcol $$a/win-short.later.pcol --source 1 --wall --kind empty --from 1767225758000000000; \
	vp $$v/pair-synthetic $$s/pcol/synthetic-7.pcol $$s/pcol/synthetic-60-lz4.pcol --source 2 --to 60000000 --flags 1; \
	vp $$v/pair-pprof-merged $$a/a.pcol $$s/pcol/aslr-merged.pcol --source 2 --flags 2; \
	rm -rf $$a; \
	$(FUZZ_DIR)/gen_seeds --unwrap $$s/unwrap $$s/collapsed/collapsed-*.txt $$s/pcol/synthetic-7.pcol $$s/pcol/synthetic-60-lz4.pcol \
	  $$s/otlp/gen.bin $$s/otlp/gen.jsonl $$s/perf/default.txt $$s/jfr/gen-1.jfr $$s/v8/small.cpuprofile \
	  $$s/chrome/gen.json $$s/chrome/chunks.json $$s/chrome/durations.json $$s/chrome/samples.json $$s/tachyon/gen.bin $$s/firefox/gen-v70.json || true; \
	find $$s -type f -size +64k -delete; \
	echo "fuzz seeds: $$(ls $$s/pcol | wc -l) pcol ($$n packed from test data, then files over 64 KiB dropped), $$(ls $$s/rprof | wc -l) rprof, $$(ls $$s/pprof | wc -l) pprof, $$(ls $$s/perun | wc -l) perun, $$(ls $$s/collapsed | wc -l) collapsed, $$(ls $$s/json_scan | wc -l) json_scan, $$(ls $$s/firefox | wc -l) firefox, $$(ls $$s/otlp | wc -l) otlp, $$(ls $$s/chrome | wc -l) chrome, $$(ls $$s/v8 | wc -l) v8, $$(ls $$s/regex | wc -l) regex, $$(ls $$s/unwrap | wc -l) unwrap"

# Runs each target SECONDS seconds.  A crash stops the run (exit non-zero);
# the input is in $(FUZZ_DIR)/artifacts.
fuzz-run: $(FUZZ_BINS) fuzz-seeds
	@set -e; for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(FUZZ_DIR)/corpus/$$t $(FUZZ_DIR)/artifacts $(FUZZ_DIR)/logs tests/fuzz-regress/$$t; \
	  echo "== fuzz_$$t for $(SECONDS) s (log: $(FUZZ_DIR)/logs/$$t.log)"; \
	  start=$$(date +%s); \
	  if $(FUZZ_DIR)/fuzz_$$t $(FUZZ_OPTS) -max_total_time=$(SECONDS) \
	       -artifact_prefix=$(FUZZ_DIR)/artifacts/$$t- \
	       $(FUZZ_DIR)/corpus/$$t $(FUZZ_DIR)/seeds/$$t tests/fuzz-regress/$$t \
	       > $(FUZZ_DIR)/logs/$$t.log 2>&1; then st=clean; else st=FOUND; fi; \
	  end=$$(date +%s); \
	  runs=$$(grep -o 'stat::number_of_executed_units: *[0-9]*' $(FUZZ_DIR)/logs/$$t.log | grep -o '[0-9]*$$' || echo '?'); \
	  echo "fuzz_$$t: $$st, $$((end-start)) s, $$runs executions, corpus $$(ls $(FUZZ_DIR)/corpus/$$t | wc -l) files"; \
	  if [ $$st = FOUND ]; then tail -40 $(FUZZ_DIR)/logs/$$t.log; exit 1; fi; \
	done

# The replay test compiles fuzz_common.h in; rebuild it when that changes.
$(BUILD)/tests/test_fuzz_replay $(BUILD)/tests/test_corrupt $(BUILD)/tests/test_threads: fuzz/fuzz_common.h fuzz/fuzz_views.h
$(BUILD)/tests/test_fuzz_replay: fuzz/fuzz_http.h fuzz/fuzz_regex.h fuzz/fuzz_demangle.h fuzz/fuzz_unwrap.h
# fuzz_json_scan.c's checks are compiled into these two (FZ_JS_NO_ENTRY).
$(BUILD)/tests/test_fuzz_replay $(BUILD)/tests/test_json_scan: fuzz/fuzz_json_scan.c

# ----------------------------------------------------------- ThreadSanitizer
# gcc's -fsanitize=thread, own build tree.  The test is built with a plain
# main() (fuzz/plain_test.h) because Criterion's runner cannot start under
# TSan.  Run under `setarch -R` because TSan's shadow layout breaks with the
# high mmap randomisation recent kernels use.
TSAN_DIR := $(BUILD)/tsan
test-tsan:
	@$(MAKE) -j2 --no-print-directory BUILD=$(TSAN_DIR) SAN="-fsanitize=thread" OPT=-O1 \
	  $(TSAN_DIR)/lib/libpcol-internal.a
	@mkdir -p $(TSAN_DIR)/tests
	$(CC) $(CPPFLAGS_ALL) $(TEST_CPPFLAGS) -DPCOL_PLAIN_TEST -O1 -g $(WARN) -fsanitize=thread \
	  -o $(TSAN_DIR)/tests/test_threads tests/test_threads.c $(TSAN_DIR)/lib/libpcol-internal.a $(LDLIBS)
	@echo "== $(TSAN_DIR)/tests/test_threads (ThreadSanitizer)"
	@if setarch $$(uname -m) -R true 2>/dev/null; then r="setarch $$(uname -m) -R"; else r=; fi; \
	  TSAN_OPTIONS="halt_on_error=1 exitcode=66 $$TSAN_OPTIONS" $$r $(TSAN_DIR)/tests/test_threads
