/* writer.h — the writer's check of its options (writer.c).  Inside libpcol
 * only (not installed). */
#ifndef PCOL_CORE_WRITER_H
#define PCOL_CORE_WRITER_H

#include "pcol.h"

/* THE check of write options (a zstd level in 0..22 when zstd is asked),
 * made by every write and by pcol_writer_open before any.  writer.c */
int pcol_write_options_check(const pcol_write_options *opt, pcol_error *err);

/* The file of b written to memory to be read once where it is made (a
 * profile of another format opened as pcol, pcol_open_any; the union of
 * pcol_open_many): format 1.3 with every column plain while that file has
 * at most PCOL_IMAGE_PLAIN_BYTES, else encoded as pcol_builder_write_mem
 * writes it.  The encoder's passes were a fifth of `pcol top` of a .pb.gz
 * and the views read plain columns at least as fast; past the bound the
 * plain file would hold several times the memory (37 against 4 bytes a
 * sample at 1M samples).  PCOL_DEBUG=image-encoded encodes every image
 * (to compare the two).  *out: malloc'd, *len bytes.  writer.c */
#define PCOL_IMAGE_PLAIN_BYTES ((uint64_t)16 << 20)
int pcol_builder_write_image(pcol_builder *b, void **out, size_t *len, pcol_error *err);

/* pcol_out_commit that never replaces a file: o is published under its
 * path, or, while a file has that name (another writer's), under name(ctx,
 * k) for k = 1, 2, ... (malloc'd; NULL = out of memory); *used = the k of
 * the name used (0: o's path).  out.c */
int pcol_out_commit_new(pcol_out *o, char *(*name)(void *ctx, unsigned k), void *ctx,
                        unsigned *used, pcol_error *err);

/* The temporary file of an output (pcol_out_open) is ".NAME.tmp-XXXXXX"
 * beside the file the output's path names after its symbolic links
 * (pcol_out_target: malloc'd, NULL with err set on a loop or an unreadable
 * link), NAME that file's name cut to its first pcol_out_temp_keep(its
 * directory) bytes.  The sweep of a killed writer's temporary files
 * (stream_writer.c) finds them by the same rules.  out.c */
char *pcol_out_target(const char *path, pcol_error *err);
size_t pcol_out_temp_keep(const char *dir);
/* Whether s[0..6) could be the XXXXXX pcol_out_open's temporary file
 * name ends with: 6 of its letters, [A-Za-z0-9].  out.c */
int pcol_out_temp_letters(const char *s);
/* Whether the file open at fd begins with the magic, as a temporary file
 * of pcol_builder_write does from its first write on (before its tables,
 * its header last): the sweep of what killed writers left removes no
 * other.  writer.c */
int pcol_out_temp_marked(int fd);

/* pcol_builder_write to a new name as pcol_out_commit_new publishes it:
 * path, else name(ctx, k); *used as there.  writer.c */
int pcol_builder_write_new(pcol_builder *b, const char *path, char *(*name)(void *ctx, unsigned k),
                           void *ctx, unsigned *used, const pcol_write_options *opt,
                           pcol_error *err);

#endif
