/* gen_seeds.c — writes the generated part of the fuzz seed corpus:
 * synthetic pcol files (raw and LZ4, several sizes) into DIR/pcol, small
 * collapsed-stack texts into DIR/collapsed and regular expressions
 * (fuzz_regex.h) into DIR/regex.  The rest of the corpus is the
 * shared test data (copied by fuzz/fuzz.mk into the build directory). */
#include "fuzz_common.h"
#include "fuzz_regex.h"

static int put(const char *dir, const char *name, const void *p, size_t n) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *fp = fopen(path, "wb");
  if (!fp || fwrite(p, 1, n, fp) != n || fclose(fp) != 0) {
    perror(path);
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: gen_seeds PCOL_DIR COLLAPSED_DIR REGEX_DIR\n");
    return 2;
  }
  static const uint32_t sizes[] = {0, 1, 7, 60};
  int bad = 0;
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    for (int lz4 = 0; lz4 <= 3; lz4++) { /* raw, LZ4, zstd (compact, format 1.2) */
      void *mem = NULL;
      size_t len = 0;
      if (fz_make_file(sizes[i], lz4, &mem, &len)) {
        fprintf(stderr, "gen_seeds: cannot build a synthetic file\n");
        return 1;
      }
      char name[64];
      snprintf(name, sizeof name, "synthetic-%u%s.pcol", sizes[i], lz4 == 2 ? "-zstd" : lz4 ? "-lz4" : "");
      bad |= put(argv[1], name, mem, len);
      free(mem);
    }
  for (size_t i = 0; i < FZ_NCOLLAPSED; i++) {
    char name[64];
    snprintf(name, sizeof name, "collapsed-%zu.txt", i);
    bad |= put(argv[2], name, fz_collapsed_seeds[i], strlen(fz_collapsed_seeds[i]));
  }
  for (size_t i = 0; i < FZ_RX_NSEEDS; i++) {
    char name[64];
    snprintf(name, sizeof name, "regex-%zu", i);
    bad |= put(argv[3], name, fz_regex_seeds[i], strlen(fz_regex_seeds[i]));
  }
  return bad;
}
