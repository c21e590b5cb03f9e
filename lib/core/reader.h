/* reader.h — an open file's insides and the reader's helpers (reader.c).
 * Inside libpcol only (not installed). */
#ifndef PCOL_CORE_READER_H
#define PCOL_CORE_READER_H

#include "pcol.h"
#include "schema.h"

typedef struct pcol_section {
  pcol_section_info info;
  const uint8_t *stored; /* inside the mapping */
  void *_Atomic decoded; /* LZ4 output, decoded once */
} pcol_section;

struct pcol_file {
  const uint8_t *base;
  size_t size;
  int mapped;     /* 1: munmap on close */
  int owned;      /* 1: free(base) on close */
  uint8_t *meta;  /* header + directory read with pread (NULL: parse the mapping) */
  pcol_header_info hdr;
  uint64_t max_decoded;
  uint32_t nsections;
  pcol_section *sections;
  /* index [table][column] -> section index + 1 (0 = absent) */
  uint32_t idx[PCOL_T_COUNT_][PCOL_MAX_COLUMNS];
  uint64_t rows[PCOL_T_COUNT_];
  /* the bytes the user gave, when f was converted from them (pcol_input_bytes);
   * 0: size */
  uint64_t input_bytes;
  /* format 1.3: the bytes its encoded columns would take plain, beyond
   * their encoded size (pcol_input_bytes counts them, at most 64x the file) */
  uint64_t plain_extra;
  void *decode_lock; /* pthread_mutex_t* */
  /* meta and source_value_types rows grouped by source (pcol_meta_get,
   * pcol_source_rows), built on first use under decode_lock; NULL until then */
  struct pcol_src_index *_Atomic meta_index;
  struct pcol_src_index *_Atomic svt_index;
  /* every source's default value type (pcol_source_default_types), [s - 1],
   * computed on first use; NULL until then */
  uint32_t *_Atomic default_types;
  /* 0 not known yet, 1 no source lists a value type twice, 2 one does
   * (xvalues.c pcol_kin_column), computed on first use */
  _Atomic int svt_twice;
  /* per source whether it holds a subtracted base (lib/query/weights.c
   * base_kinds: [0] any, [s] 1 -diff_base, 2 -base), computed on first use */
  uint8_t *_Atomic base_kinds;
  /* locations from this id on were made after the profile was read
   * (pcol_open_tag_frames' label frames): in a file without mappings they
   * take no fake mapping (pcol_filter_loc_mapping); 0: none such */
  uint64_t late_locs;
  /* the label keys this copy has frames of (pcol_open_tag_frames: as
   * -tagroot or -tagleaf, its own and f's), each '\0'-ended, then an empty
   * one; NULL: none (pcol_q_has_frames) */
  char *frame_keys;
  /* N when this is pcol_open_diff_base_select's union under --source N
   * (the profile's source N alone, then the base's source N alone): the
   * number messages give its sources (pcol_source_who); 0 otherwise */
  uint32_t side_source;
};

/* 1 when the file stores column (table, column), 0 when it is absent (every
 * row its default): what a view's data pointer said before columns could
 * be held otherwise (read views only through pcol_view_*). */
static inline int pcol_column_stored(const pcol_file *f, int table, int column) {
  return table > 0 && table < PCOL_T_COUNT_ && column > 0 && column < PCOL_MAX_COLUMNS &&
         f->idx[table][column] != 0;
}

/* A view of column (table, column) in which rows [lo, hi) may be read (and
 * only those, when pcol_column_lazy said 1): of a zstd-blocks section of
 * samples or values (format 1.4, spec.md §4.2) whose rows are checked
 * alone, only the blocks that hold them are decoded (and checked), once;
 * any other column is pcol_column's view.  The view lives until close;
 * call again for other rows (the same data pointer). */
int pcol_column_rows(pcol_file *f, int table, int column, uint64_t lo, uint64_t hi,
                     pcol_view *out, pcol_error *err);
/* 1 when pcol_column_rows of (table, column) decodes only the rows asked
 * (a zstd-blocks column not yet decoded whole), so that its caller must
 * ask for every row it reads. */
int pcol_column_lazy(const pcol_file *f, int table, int column);
/* The rows of each of its blocks, when pcol_column_lazy says 1; else 0. */
uint64_t pcol_column_block_rows(const pcol_file *f, int table, int column);

/* The depth of every stack: (*out)[s] for s in 1..rows(stacks) (the frames
 * pcol_stack_walk visits), (*out)[0] = 0; free() it.  One pass: parents
 * precede children (checked when the column is read).  reader.c */
int pcol_stack_depths(pcol_file *f, uint32_t **out, pcol_error *err);

/* The rows of TABLE (PCOL_T_META or PCOL_T_SOURCE_VALUE_TYPES) whose source
 * is SOURCE_ID, in file order: (*rows)[0 .. *n).  An index built once per
 * file (O(rows)), so asking each of N sources costs O(N + rows), not
 * O(N x rows).  The array lives as long as the file. */
int pcol_source_rows(pcol_file *f, int table, uint32_t source_id, const uint32_t **rows,
                     size_t *n, pcol_error *err);

/* pcol_open of a file already open as fd (a regular file; fd stays open
 * and is read with pread only, whatever its position): how
 * pcol_open_many opens a pcol input once, having read its magic. */
int pcol_open_fd(int fd, const char *path, const pcol_open_options *opt, pcol_file **out,
                 pcol_error *err);
/* The strings table's two columns fetched once (get), for many lookups
 * (at: what pcol_string does, without fetching them at each call: a view
 * naming every function of many small files spent a tenth of its time
 * there). */
typedef struct pcol_strings {
  pcol_view off, bytes;
  uint64_t n; /* ids, including 0 */
} pcol_strings;
static inline int pcol_strings_get(pcol_file *f, pcol_strings *s, pcol_error *err) {
  s->n = pcol_string_count(f);
  int rc = pcol_column(f, PCOL_T_STRINGS, PCOL_C_STRINGS_OFFSETS, &s->off, err);
  return rc ? rc : pcol_column(f, PCOL_T_STRINGS, PCOL_C_STRINGS_BYTES, &s->bytes, err);
}
/* pcol_meta_get for a key a source may well lack (a probe): 1 found (*out),
 * 0 absent, with err left as it was (no failure, and a warning already in
 * err stays: the warning rule of pcol.h), or a negative code (err filled:
 * a damaged file). */
int pcol_meta_probe(pcol_file *f, uint32_t source_id, const char *key, pcol_str *out,
                    pcol_error *err);
/* What a pass over many rows made of a string id, kept by id: a pass over
 * meta asks of every source's rows the same few key ids (1,440 sources:
 * 21k string reads for ~20 keys).  An exact cache, since an id's bytes
 * never change; 64 slots by the id's low bits; zeroed = empty.  Only
 * answers made without an error go in, so a bad id fails where it did. */
typedef struct pcol_idmemo {
  uint32_t id[64]; /* the id + 1 (0: empty; an id of 2^32 - 1 is never kept) */
  uint8_t v[64];
} pcol_idmemo;
static inline int pcol_idmemo_get(const pcol_idmemo *m, uint32_t id, uint8_t *v) {
  if (m->id[id & 63] != id + 1 || id == UINT32_MAX) return 0;
  *v = m->v[id & 63];
  return 1;
}
static inline void pcol_idmemo_put(pcol_idmemo *m, uint32_t id, uint8_t v) {
  m->id[id & 63] = id + 1;
  m->v[id & 63] = v;
}
/* *which = 1 + the index of the first of keys[0..nkeys) whose bytes string
 * id `id` holds (0: none), through m (one memo a list of keys). */
int pcol_string_which_memo(pcol_file *f, pcol_idmemo *m, uint32_t id, const char *const *keys,
                           uint8_t nkeys, uint8_t *which, pcol_error *err);
/* *is = whether string id `id` holds the bytes of `key`, through m. */
static inline int pcol_string_is_memo(pcol_file *f, pcol_idmemo *m, uint32_t id, const char *key,
                                      uint8_t *is, pcol_error *err) {
  return pcol_string_which_memo(f, m, id, &key, 1, is, err);
}
/* The same with the offsets read before into off[0..n] (off NULL: from
 * the column), for a pass that reads many strings of a small file (top.c:
 * a function's name, an element lookup each in an encoded column). */
static inline int pcol_strings_at_off(const pcol_strings *s, const uint64_t *off, uint32_t id,
                                      pcol_str *out, pcol_error *err) {
  out->ptr = NULL;
  out->len = 0;
  if (id == 0) return PCOL_OK;
  if (id >= s->n) return pcol_error_set(err, PCOL_ECORRUPT, "string id %u is out of range", id);
  uint64_t a = off ? off[id] : pcol_view_u64(&s->off, id), e = off ? off[id + 1] : pcol_view_u64(&s->off, id + 1);
  out->ptr = s->bytes.data ? (const char *)s->bytes.data + a : "";
  out->len = (size_t)(e - a);
  return PCOL_OK;
}
static inline int pcol_strings_at(const pcol_strings *s, uint32_t id, pcol_str *out,
                                  pcol_error *err) {
  return pcol_strings_at_off(s, NULL, id, out, err);
}
/* An input of many that may be a pcol file (pcol_open_many, pcol_top_many):
 * opened once, its magic read with pread, then the same descriptor opened
 * as pcol and read whole (a day of 1,440 small files: mapping them cost page
 * faults and munmap, 3-5x the CPU of reading them).  *is_pcol = 0, PCOL_OK
 * and nothing open when it is not a regular file that starts with pcol's
 * magic (or "-", or cannot be opened: its importer says why). */
int pcol_open_if_pcol(const char *path, int *is_pcol, pcol_file **out, pcol_error *err);

/* pcol_column, with an encoded column (format 1.3) decoded whole into a
 * plain array the file keeps until close (4 or 8 bytes a row): for the few
 * small columns a view reads at random many times over (the stack trie's
 * parents and locations in top's walk), where a lane lookup per read would
 * cost more than one pass.  reader.c */
int pcol_column_plain(pcol_file *f, int table, int column, pcol_view *out, pcol_error *err);
/* Raw data of a section (decoding if needed); NULL + error on failure. */
const void *pcol_section_data(pcol_file *f, uint32_t sec, pcol_error *err);
/* Tells that bytes [p, p+n) of f will not be needed for a while: when f is
 * mapped and they lie in the mapping, their whole pages leave the process
 * (MADV_DONTNEED on a read-only private mapping: touched again, they are
 * read back from the page cache).  One pass over a file larger than the
 * memory it should take (merge's inputs and its written output, validated)
 * then holds a window of it, not all of it.  Nothing for a file in memory
 * or decoded (heap) data, nor for a file under pcol_release_min bytes
 * (it fits the budget, and reading it back would cost page faults: a
 * many-file `top` validates and then reads each of its small inputs).
 * reader.c */
extern size_t pcol_release_min; /* 64 MiB (tests lower it) */
extern uint64_t pcol_release_rows; /* rows a pass over samples holds: 1M (tests lower it) */
void pcol_file_release(pcol_file *f, const void *p, uint64_t n);
/* The same for elements [from, to) of a column view of f. */
void pcol_view_release(pcol_file *f, const pcol_view *v, uint64_t from, uint64_t to);
/* A source's name as an export names its profile or thread: its uri s
 * without the directory of its file (pcol_display_name), but a "FILE: NAME"
 * uri (a profile of a many-profile file: speedscope) keeps all of NAME, '/'
 * too ("dir/x.json: grpc-worker/1" -> "x.json: grpc-worker/1"; review 22
 * F5).  Only the formats whose importers name a source so are split (by
 * source's type: speedscope, chrome, otlp, perfetto, jfr; srcname.c's and
 * their own composition); the others' uri is the input's path, ": " in
 * its directory too ("x: y/prof.pb" -> "prof.pb"; rd17a F6).  Borrowed
 * from s.  reader.c */
pcol_str pcol_source_display_name(pcol_file *f, uint32_t source, pcol_str s);


#endif
