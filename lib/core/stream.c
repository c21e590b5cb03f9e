/* stream.c — FILE* adapters for importers: replay a saved head, cap a stream. */
#include "internal.h"
#include <stdio.h>

/* ---- a FILE* that yields a saved head, then the rest of another FILE* */
typedef struct replay {
  uint8_t head[4096];
  size_t n, pos;
  FILE *rest;
} replay;

static ssize_t replay_read(void *c, char *buf, size_t size) {
  replay *r = c;
  if (r->pos < r->n) {
    size_t k = r->n - r->pos < size ? r->n - r->pos : size;
    memcpy(buf, r->head + r->pos, k);
    r->pos += k;
    return (ssize_t)k;
  }
  size_t k = fread(buf, 1, size, r->rest);
  if (k == 0 && ferror(r->rest)) return -1;
  return (ssize_t)k;
}
static int replay_close(void *c) {
  free(c);
  return 0;
}

FILE *pcol_replay_stream(const void *head, size_t n, FILE *rest) {
  replay *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  if (n > sizeof r->head) n = sizeof r->head;
  memcpy(r->head, head, n);
  r->n = n;
  r->rest = rest;
  cookie_io_functions_t io = {replay_read, NULL, NULL, replay_close};
  FILE *f = fopencookie(r, "r", io);
  if (!f) free(r);
  return f;
}

/* ---- a FILE* that ends after `cap` bytes of another, noting if there was more */
static ssize_t capped_read(void *c, char *buf, size_t size) {
  pcol_capped *k = c;
  if (size == 0) return 0;
  if (k->left == 0) {
    /* one more byte tells an input of exactly the cap from a longer one */
    if (!k->over && fgetc(k->in) != EOF) k->over = 1;
    return 0;
  }
  if (size > k->left) size = (size_t)k->left;
  size_t n = fread(buf, 1, size, k->in);
  k->left -= n;
  if (n == 0 && ferror(k->in)) return -1;
  return (ssize_t)n;
}

FILE *pcol_capped_stream(pcol_capped *k, FILE *in, uint64_t cap) {
  k->in = in;
  k->left = cap;
  k->over = 0;
  cookie_io_functions_t io = {capped_read, NULL, NULL, NULL};
  return fopencookie(k, "r", io);
}
