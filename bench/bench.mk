# bench.mk — included by the Makefile.  (Filled in by the benchmark work.)
.PHONY: bench bench-quick
bench-quick:
	@echo "bench-quick: no benchmarks yet"
bench:
	@echo "bench: no benchmarks yet"
