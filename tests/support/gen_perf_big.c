/* gen_perf_big.c - a large `perf script` stream for the bounds test
 * (tests/bounds/t_stream_json.sh).
 *
 *   gen_perf_big N TRUTH   > perf.txt
 *
 * Writes N samples of one event (cycles) to stdout in perf script's default
 * -F layout, in the shape tests/support/gen_perf_script.py gives them (five
 * threads of three processes, one to six user frames of six symbols with
 * random `+0x` offsets, an optional libc root, an `(inlined)` frame in 30% and
 * kernel frames in 40% of the samples, periods of 250000, 1000000 and
 * 10101010), then writes "N SUM" to TRUTH, SUM being the periods it wrote.
 *
 * Why C: the Python generator spent ~150 s of CPU on the ~1 GB (2.9M
 * samples) the test streams, a tenth of `make test`'s budget; this writes
 * the same gigabyte in a few seconds.  Seeded: the stream is the same on
 * every run.  The answers pcol must give are counted here, by this program,
 * never read back from pcol.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t rng_state = 0x9E3779B97F4A7C15u;

static uint64_t rng_next(void) /* xorshift64* */
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717u;
}

static unsigned rng_below(unsigned n) { return (unsigned)((rng_next() >> 32) % n); }

struct frame { const char *ip, *sym, *dso; };

static const struct { const char *comm; int tid; } threads[] = {
	{"app", 100}, {"app", 101}, {"V8 Worker", 102}, {"kworker/0:1", 7}, {"dd", 200},
};
static const struct frame user[] = {
	{"401b97", "main", "/usr/bin/app"},
	{"401c00", "compute(int, char const*)", "/usr/bin/app"},
	{"7f89e341d84f", "__GI___libc_write", "/usr/lib/libc-2.28.so"},
	{"7f89e278d702", "[unknown]", "/usr/lib/jvm/lib/server/libjvm.so"},
	{"5966605dd52f8e00", "[unknown]", "[unknown]"},
	{"7f1000", "Ljava/io/Foo;::bar->Ljava/io/Foo;::baz", "/tmp/perf-100.map"},
};
/* leaf first, as perf prints them */
static const struct frame kernel[] = {
	{"ffffffff8103ce3b", "native_safe_halt", "[kernel.kallsyms]"},
	{"ffffffff8101c6a3", "do_syscall_64", "[kernel.kallsyms]"},
	{"ffffffff81aebbfe", "entry_SYSCALL_64", "[kernel.kallsyms]"},
};
static const uint64_t periods[] = {250000, 1000000, 10101010};

static void put_frame(const struct frame *f, unsigned off)
{
	if (f->sym[0] == '[')
		printf("\t%16s %s (%s)\n", f->ip, f->sym, f->dso);
	else
		printf("\t%16s %s+0x%x (%s)\n", f->ip, f->sym, off, f->dso);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: gen_perf_big N TRUTH > perf.txt\n");
		return 2;
	}
	uint64_t n = strtoull(argv[1], NULL, 10), sum = 0;
	static char buf[1 << 20];
	setvbuf(stdout, buf, _IOFBF, sizeof buf);
	printf("# ========\n# captured on    : Mon Nov 23 06:00:00 2026\n# ========\n#\n");
	uint64_t t_us = 1000000000u; /* 1000 s */
	for (uint64_t k = 0; k < n; k++) {
		unsigned th = rng_below(5);
		uint64_t period = periods[rng_below(3)];
		t_us += 1 + rng_below(5000);
		unsigned depth = 1 + rng_below(6), root = rng_below(2);
		unsigned pick[6], off[6];
		for (unsigned d = 0; d < depth; d++) {
			pick[d] = rng_below(6);
			off[d] = rng_below(0x201);
		}
		int inlined = rng_below(10) < 3;
		int kfirst = rng_below(10) < 4 ? (int)rng_below(3) : 3; /* 3: no kernel frames */
		printf("%s %5d [%03u] %" PRIu64 ".%06" PRIu64 ": %10" PRIu64 " cycles: \n", threads[th].comm,
		       threads[th].tid, rng_below(8), t_us / 1000000u, t_us % 1000000u, period);
		for (int i = kfirst; i < 3; i++) put_frame(&kernel[i], 0x1f);
		if (inlined) {
			printf("\t%16s %s (inlined)\n", "401d00", "inner_inlined");
			printf("\t%16s %s+0x%x (%s)\n", "401d00", "outer_fn", 0x10, "/usr/bin/app");
		}
		for (unsigned d = depth; d-- > 0;) put_frame(&user[pick[d]], off[d]);
		if (root) printf("\t%16s %s+0x%x (%s)\n", "7f000", "start_0", 0, "/usr/lib/libc-2.28.so");
		printf("\n");
		sum += period;
	}
	if (fflush(stdout) != 0 || ferror(stdout)) return 1;
	FILE *f = fopen(argv[2], "w");
	if (!f || fprintf(f, "%" PRIu64 " %" PRIu64 "\n", n, sum) < 0 || fclose(f) != 0) return 1;
	return 0;
}
