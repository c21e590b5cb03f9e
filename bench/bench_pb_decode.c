/* bench_pb_decode.c — the floor for `pcol pack` of pprof: read a .pb.gz,
 * inflate it with zlib and unpack it with protobuf-c, then free it.  Nothing
 * else.  The driver times this whole process against `pcol pack` of the
 * same file.
 *
 *   bench_pb_decode FILE.pb.gz
 *
 * Prints: ok raw_bytes=N samples=S locations=L functions=F
 */
#include "profile.pb-c.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: bench_pb_decode FILE.pb.gz\n");
    return 2;
  }
  FILE *in = fopen(argv[1], "rb");
  if (!in) {
    perror(argv[1]);
    return 1;
  }
  fseek(in, 0, SEEK_END);
  long zn = ftell(in);
  fseek(in, 0, SEEK_SET);
  uint8_t *z = malloc(zn > 0 ? (size_t)zn : 1);
  if (!z || fread(z, 1, (size_t)zn, in) != (size_t)zn) {
    fprintf(stderr, "bench_pb_decode: read error\n");
    return 1;
  }
  fclose(in);
  /* gzip's ISIZE trailer (size mod 2^32) is only a hint for the buffer */
  size_t cap = zn >= 4 ? (size_t)(z[zn - 4] | z[zn - 3] << 8 | z[zn - 2] << 16 | (uint32_t)z[zn - 1] << 24) : 0;
  if (cap < (size_t)zn * 2) cap = (size_t)zn * 4 + 4096;
  uint8_t *raw = malloc(cap);
  z_stream s;
  memset(&s, 0, sizeof s);
  if (!raw || inflateInit2(&s, 32 + MAX_WBITS) != Z_OK) return 1;
  s.next_in = z;
  s.avail_in = (uInt)zn;
  size_t got = 0;
  for (;;) {
    if (got == cap) {
      cap *= 2;
      raw = realloc(raw, cap);
      if (!raw) return 1;
    }
    s.next_out = raw + got;
    s.avail_out = (uInt)(cap - got > (1u << 30) ? (1u << 30) : cap - got);
    uInt before = s.avail_out;
    int rc = inflate(&s, Z_NO_FLUSH);
    got += before - s.avail_out;
    if (rc == Z_STREAM_END) {
      if (s.avail_in == 0) break;
      inflateReset(&s); /* multi-member gzip */
      continue;
    }
    if (rc != Z_OK && rc != Z_BUF_ERROR) {
      fprintf(stderr, "bench_pb_decode: inflate failed (%d)\n", rc);
      return 1;
    }
    if (rc == Z_BUF_ERROR && s.avail_in == 0) {
      fprintf(stderr, "bench_pb_decode: truncated gzip\n");
      return 1;
    }
  }
  inflateEnd(&s);
  free(z);
  Perftools__Profiles__Profile *p = perftools__profiles__profile__unpack(NULL, got, raw);
  if (!p) {
    fprintf(stderr, "bench_pb_decode: protobuf-c could not unpack the profile\n");
    return 1;
  }
  printf("ok raw_bytes=%zu samples=%zu locations=%zu functions=%zu\n", got, p->n_sample, p->n_location,
         p->n_function);
  perftools__profiles__profile__free_unpacked(p, NULL);
  free(raw);
  return 0;
}
