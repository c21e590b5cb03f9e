/* perun.h — what the two halves of the Perun importer share (not installed).
 *
 *   perun_doc.c     where the events are: checks the JSON text (json_scan.c),
 *                   indexes its structure by byte offset, walks the events;
 *   perun_import.c  what an event becomes: values, labels, stacks, models,
 *                   and the entry points.
 * perun_import.c calls perun_doc.c, never the other way round (the document
 * hands each event back through an event_fn).
 * The exporter (perun_export.c) inverts the mapping; doc/mappings.md §3 has it. */
#ifndef PCOL_PERUN_H
#define PCOL_PERUN_H

#include "convert.h"
#include "json_scan.h"
#include "perun_json.h"
#include "hash.h"     /* pcol_hset */
#include "builder.h"  /* pcol_b_stack_memo, pcol_stack_memo, pcol_stack_memo_free */
#include "count.h"    /* pcol_kept_tally */
#include <jansson.h>

#define NANO 1000000000.0
#define WORK_PER_BYTE 64           /* labels + frames an input byte may make */
#define WORK_FLOOR ((uint64_t)1 << 24)

/* A value's place in the document: [b, e). */
typedef struct vslice {
  size_t b, e;
  int has;
} vslice;

/* A trace frame's text already seen, and what it became (frames repeat:
 * every stack repeats its callers' frames, byte for byte). */
typedef struct fent {
  size_t b, e;
  uint32_t loc;
  int canonical;
} fent;

/* What an event becomes: a sample row, sorted by time (then document
 * order, seq) through a pcol_rowsort, so that the events cost nothing in
 * memory past the sorter's budget whatever their number. */
typedef struct prow {
  int64_t time; /* ns, PCOL_NA_I64 first */
  uint64_t seq; /* position in the document */
  int64_t value, weight;
  uint32_t stack_id, labelset_id, value_type_id, nval;
} prow;

/* A run of events: a snapshot (layouts 1, 2) or a resource type (layout 3).
 * Positions are byte offsets into the document.  Kept for every type of a
 * kperf profile (one a stack): 40 bytes, its columns read again from the
 * text at each walk (pcol_import_perun's memory, bench/results/perun-import.md). */
typedef struct pgroup {
  size_t obj;        /* layout 3: its resource_type_map entry */
  size_t list;       /* layouts 1, 2: its resources list (if nev); layout 3: its resources entry */
  int64_t snap_time; /* layouts 1, 2: time of events without their own */
  uint32_t name_sid;    /* layout 3 type key */
  uint32_t columns_sid; /* layout 3 JSON array of column names */
  uint32_t nev;         /* events in the group */
  uint8_t needs_index;  /* its events by time are not in its order */
} pgroup;

/* A layout 3 column of the group being walked: its decoded name (into the
 * document unless it had escapes) and the position of its list. */
typedef struct pcolumn {
  const char *name;
  size_t len, pos;
  int owned;
} pcolumn;

/* Keys of one object in the document, decoded, with their value's place;
 * duplicates are refused (jansson would keep the last, Python too, but a
 * profile with them is damaged and the mapping would be ambiguous). */
typedef struct kent {
  const char *k; /* into the document, or owned when the key had escapes */
  size_t kl, vb, ve;
  int owned;
} kent;
typedef struct kindex {
  kent *v;
  size_t n, cap;
  pcol_hset h;
} kindex;

/* An amount, read once: what it adds to each event that has it. */
typedef struct amount_info {
  int present, has, exact, weight; /* weight: a kperf count (n) */
  int64_t n;                       /* weight: the count as the file says it (v is scaled when real amounts are) */
  int64_t v;                       /* the value (scaled by 1e9 for real amounts) */
  double w;                        /* the number as a JSON reader reads it (a double) */
  uint32_t text_sid;               /* !exact: its JSON text, for perun.amount */
} amount_info;

typedef struct pimp {
  pcol_builder *b;
  const char *name;
  pcol_error *err;
  uint32_t src;
  int layout, kperf, real_amounts;
  int kperf_counts;    /* kperf whose amounts are sample counts: units.time "sample" (kperf's own) or none */
  double amount_max;   /* first pass: the largest |amount| (a number) */
  int amount_k;        /* real amounts are stored x 10^amount_k (9, fewer when too large) */
  const char *htype;
  json_t *units;
  json_t *vt_by_subtype;  /* subtype -> value type id (jansson: seeded hash) */
  uint32_t vt_no_subtype; /* 0 = not yet */
  uint8_t *vt_declared;   /* [value type id]: declared for this source */
  size_t nvt_declared;
  uint32_t u_json, u_absent;
  pcol_label_row *labels;
  size_t nlabels, caplabels;
  uint32_t *locs;
  size_t nlocs, caplocs;
  pcol_stack_memo memo; /* the last stack's nodes: pcol_b_stack_memo */
  /* the document and where its parts are */
  const char *text;
  size_t len;
  int mapped;        /* text is a file's private mapping: perun_release */
  size_t touched;    /* bytes walked since its pages were last handed back */
  json_t *header;
  json_t *models;     /* the top level's "models" array (perun_read_top), or NULL */
  kindex top, map;
  pgroup *groups;
  size_t ngroups, capgroups;
  pcolumn *cols;      /* the columns of the group being walked */
  size_t ncols, capcols;
  pcol_jscan *cur;    /* a cursor on each, read in lockstep */
  pcol_jiter *it;
  size_t ncur;
  uint64_t nev;       /* events (the first pass counts them) */
  struct pcol_rowsort *rows; /* their sample rows, by time */
  /* the group being walked: layout 3 without trace or uid columns: every
   * event has the same stack */
  int same_stack, stack_done, has_trace_label;
  uint32_t stack_id;
  pcol_label_row trace_label;
  fent *fc;          /* frame cache */
  size_t nfc, capfc;
  pcol_hset fch;
  vslice *fr;        /* the frames of one trace */
  size_t nfr, capfr;
  uint64_t work, max_work; /* labels, frames and trace bytes made, and the budget */
  /* layout 3: what the current type gives each of its events */
  json_t *base;            /* map entry members without a column (no trace) */
  int base_ready;          /* base_rows and base_amount computed */
  pcol_label_row *base_rows;
  size_t nbase_rows, capbase_rows;
  amount_info base_amount;
  pcol_kept_tally *kept; /* [value type id]: THE kept rule's tally (amount_kept) */
  size_t nkept;
} pimp;


/* An event as a JSON object (everything but its trace, whose place is given). */
typedef int (*event_fn)(pimp *p, json_t *ev, vslice trace, uint32_t gi, uint32_t idx, uint64_t seq);

/* perun_doc.c (perun_import.c declares nothing here: it calls these, and
 * the document calls nothing of it; the events go back through event_fn).
 * Helpers both halves use: */
int perun_oom(pimp *p);
/* A builder call's status rc: on failure its own reason (a limit, a bad id,
 * memory), already in p->err, after the file's name. */
int perun_b(pimp *p, int rc);
char *perun_jtext(const json_t *v);
int perun_meta_json(pimp *p, const char *key, const json_t *v);
int64_t perun_parse_time(const json_t *v);
/* the document */
int perun_load(pimp *p, size_t b, size_t e, json_t **out);
int perun_scan_failed(pimp *p, const pcol_jscan *s);
pcol_jscan perun_cursor_at(const pimp *p, size_t pos);
int perun_read_top(pimp *p);
int perun_note_events(pimp *p);
int perun_walk_events(pimp *p, event_fn fn);
void perun_kidx_free(kindex *x);
void perun_drop_columns(pimp *p, size_t from);
/* A mapped document's pages handed back (perun_touched: once `bytes` more
 * were walked, past 8 MiB since the last time), so that its resident part
 * stays near 8 MiB whatever its size, not the file (a private read-only
 * mapping: touched again, they are read back from the file). */
void perun_release(pimp *p);
void perun_touched(pimp *p, size_t bytes);

#endif
