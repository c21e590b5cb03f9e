/* json_pull.h — a streaming (pull) JSON tokenizer for the importers of JSON
 * documents (V8 .cpuprofile, speedscope).
 *
 * Why: jansson builds the whole document as a tree, several times the
 * document's size (a 1 GB .cpuprofile would need gigabytes).  This reader
 * holds one 64 KiB buffer of the input, the current string and the keys of
 * the objects that are open (to refuse duplicate keys), so an importer that
 * keeps only compact arrays of what it needs runs in memory proportional to
 * its output.
 *
 * It accepts exactly the documents jansson's json_loadf accepts with
 * JSON_REJECT_DUPLICATES (and optionally JSON_ALLOW_NUL): RFC 8259 with a
 * top-level object or array, valid UTF-8, escapes with \u surrogate pairs
 * (a lone surrogate refused, \u0000 only with PCOL_JP_ALLOW_NUL), at most
 * 2048 values deep counted as jansson counts (every value, scalars too),
 * duplicate keys refused, integers that fit int64_t (a larger one is an
 * error, "too big integer", as in jansson; a real under PCOL_JP_BIG_INTS)
 * and doubles through strtod (an
 * overflow to infinity refused, "real number overflow").  Only whitespace
 * may follow the document.  The input stops at the input cap
 * (pcol_input_cap): past it the error is the size, PCOL_ETOOBIG.
 *
 * Use:
 *   pcol_jpull j;
 *   if ((rc = pcol_jp_open(&j, in, name, opt, 0, err))) return rc;
 *   while (!(rc = pcol_jp_next(&j)) && j.tok != PCOL_JT_EOF) ...
 *   pcol_jp_close(&j);
 * A syntax error sets err to "NAME:LINE:COL (byte N): invalid JSON: WHAT"
 * (COL counts bytes from 1) and returns PCOL_ECORRUPT; every later call
 * returns the same code. */
#ifndef PCOL_JSON_PULL_H
#define PCOL_JSON_PULL_H

#include "pcol.h"
#include <stdio.h>

typedef enum pcol_jtok {
  PCOL_JT_EOF = 0, /* the document ended (and only whitespace followed it) */
  PCOL_JT_OBJ,     /* '{' */
  PCOL_JT_OBJ_END, /* '}' */
  PCOL_JT_ARR,     /* '[' */
  PCOL_JT_ARR_END, /* ']' */
  PCOL_JT_KEY,     /* an object's key: str, len; the next token is its value */
  PCOL_JT_STR,     /* str, len */
  PCOL_JT_INT,     /* i (and d = (double)i, as json_number_value) */
  PCOL_JT_REAL,    /* d */
  PCOL_JT_TRUE,
  PCOL_JT_FALSE,
  PCOL_JT_NULL
} pcol_jtok;

enum {
  PCOL_JP_ALLOW_NUL = 1, /* \u0000 in strings (jansson's JSON_ALLOW_NUL) */
  /* an integer past int64_t is a real (PCOL_JT_REAL), as JavaScript's
   * JSON.parse reads it, not an error: Chrome writes uint64 counters that
   * way, and its traces are read by JavaScript tools */
  PCOL_JP_BIG_INTS = 2,
  /* a top-level array may end with the input, after a value or a comma,
   * without its ']': the Trace Event Format allows that of a trace a
   * crash cut short, and speedscope closes such an array */
  PCOL_JP_OPEN_ARRAY = 4
};

typedef struct pcol_jframe pcol_jframe;
typedef struct pcol_jkeyent pcol_jkeyent;

typedef struct pcol_jpull {
  /* the current token */
  pcol_jtok tok;
  char *str;   /* KEY, STR: the decoded UTF-8 text, NUL-terminated; valid until the next call */
  size_t len;  /* its length (it holds NUL bytes only under PCOL_JP_ALLOW_NUL) */
  int64_t i;   /* INT */
  double d;    /* INT, REAL */
  size_t depth; /* containers open after this token */
  /* when not NULL, each token read is folded into *hash (keyed SipHash, chained: its kind,
   * a key's or string's bytes, a number's value as a double, so 1 and 1.0
   * are one): a value's identity, as JavaScript's JSON.stringify of what
   * JSON.parse made of it tells two apart */
  uint64_t *hash;

  /* private */
  FILE *in;
  const char *name;
  pcol_error *err;
  unsigned flags;
  int rc;             /* the sticky error code */
  int state;
  uint64_t cap, total; /* input cap; bytes read */
  int eof, over;
  unsigned char *buf;
  size_t bn, bp;       /* bytes in buf, next to read */
  uint64_t base;       /* input offset of buf[0] */
  uint64_t line, line_start;
  size_t scap;         /* capacity of str */
  pcol_jframe *frames; /* the open containers */
  size_t fcap;
  pcol_jkeyent *keys;  /* the keys of the open objects */
  size_t nkeys, kcap;
  char *kbytes;        /* their text */
  size_t kblen, kbcap;
} pcol_jpull;

/* Starts reading in (the caller closes it) under the input cap of opt. */
int pcol_jp_open(pcol_jpull *j, FILE *in, const char *name, const pcol_import_options *opt,
                 unsigned flags, pcol_error *err);
void pcol_jp_close(pcol_jpull *j);
/* The next token into j->tok.  PCOL_OK or an error code (err set). */
int pcol_jp_next(pcol_jpull *j);
/* Skips the value the current token starts (an object or array: up to its
 * end; a key: its value; a scalar: nothing). */
int pcol_jp_skip(pcol_jpull *j);
/* Reads to the end of the document (the rest is skipped, still checked):
 * the last call of an importer that stopped caring. */
int pcol_jp_finish(pcol_jpull *j);
/* Folds the current token into *h, as the hash field does for each token
 * read (for the token read before it was set). */
void pcol_jp_hash_tok(const pcol_jpull *j, uint64_t *h);
/* 1 when the current token is a key equal to lit. */
int pcol_jp_key_is(const pcol_jpull *j, const char *lit);
/* The input offset just past the current token (for messages). */
uint64_t pcol_jp_offset(const pcol_jpull *j);

/* The lexical rules json_scan.c (Perun) shares: four hex digits, a code
 * point written as UTF-8 (returns its length, 1 to 4).  What a valid UTF-8
 * sequence is: pcol_utf8_len (pcol.h). */
int pcol_json_hex4(const char *p, unsigned *out);
size_t pcol_json_utf8_put(char *o, uint32_t cp);

#endif
