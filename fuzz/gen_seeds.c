/* gen_seeds.c — writes the generated part of the fuzz seed corpus:
 * synthetic pcol files (raw and LZ4, several sizes) into DIR/pcol, small
 * collapsed-stack texts into DIR/collapsed and regular expressions
 * (fuzz_regex.h) into DIR/regex.  The rest of the corpus is the
 * shared test data (copied by fuzz/fuzz.mk into the build directory).
 *
 * `gen_seeds --unwrap DIR FILE...`: the unwrap target's seeds, each FILE
 * (generated seeds of the other targets) as it is and wrapped in gzip,
 * zstd and an lz4 frame (one frame; two behind a skippable frame), then
 * with bytes after the last frame and cut short. */
#include "fuzz_common.h"
#include "fuzz_regex.h"
#include "fuzz_unwrap.h" /* fz_wrap */

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

static int unwrap_seeds(const char *dir, char **files, int n) {
  int bad = 0;
  for (int i = 0; i < n; i++) {
    FILE *fp = fopen(files[i], "rb");
    if (!fp) continue; /* a generator that did not run here */
    static uint8_t data[1 << 16];
    size_t len = fread(data, 1, sizeof data, fp);
    fclose(fp);
    const char *base = strrchr(files[i], '/') ? strrchr(files[i], '/') + 1 : files[i];
    char name[512];
    snprintf(name, sizeof name, "%s", base);
    bad |= put(dir, name, data, len);
    for (int kind = 0; kind < 3; kind++)
      for (int two = 0; two < 2; two++) {
        size_t wl = 0;
        uint8_t *w = fz_wrap(data, len, kind, two, two, &wl);
        if (!w) continue;
        static const char *const ext[] = {"gz", "zst", "lz4"};
        snprintf(name, sizeof name, "%s%s.%s", base, two ? ".two" : "", ext[kind]);
        bad |= put(dir, name, w, wl);
        if (!two) { /* bytes after the last frame; cut short */
          uint8_t *t = malloc(wl + 8);
          if (t) {
            memcpy(t, w, wl);
            memcpy(t + wl, "garbage\n", 8);
            snprintf(name, sizeof name, "%s.trailing.%s", base, ext[kind]);
            bad |= put(dir, name, t, wl + 8);
            snprintf(name, sizeof name, "%s.cut.%s", base, ext[kind]);
            bad |= put(dir, name, t, wl - wl / 3);
            free(t);
          }
        }
        free(w);
      }
  }
  return bad;
}

int main(int argc, char **argv) {
  if (argc >= 3 && strcmp(argv[1], "--unwrap") == 0) return unwrap_seeds(argv[2], argv + 3, argc - 3);
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
