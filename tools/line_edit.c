/* line_edit.c — the shell's line editor, as go tool pprof's interactive
 * mode edits lines on a terminal (cmd/pprof/readlineui.go, which reads with
 * golang.org/x/term's Terminal): the cursor moves and deletes within the
 * line, Up and Down walk the lines entered before, Enter runs the line.
 *
 *   Left/Right, Ctrl-B/Ctrl-F     a character (a UTF-8 code point)
 *   Alt-Left/Alt-Right, Ctrl-Left/Right, Alt-B/Alt-F   a word
 *   Home/End, Ctrl-A/Ctrl-E       the line's start and end
 *   Backspace, Ctrl-H; Delete     the character before, at the cursor
 *   Ctrl-W, Ctrl-U, Ctrl-K        the word before, all before, all after
 *   Up/Down, Ctrl-P/Ctrl-N        the history (LINE_EDIT_HISTORY lines)
 *   Ctrl-L                        clear the screen
 *   Ctrl-D                        the end of input on an empty line (else Delete)
 *   Ctrl-C                        the end of input, as x/term's ReadLine
 *
 * The line is redrawn whole after each key (carriage return, prompt, text,
 * erase to the end, cursor back): simple and exact while the line fits the
 * terminal's width; a longer line wraps as the terminal wraps it.  The
 * terminal is in raw mode only while a line is read, and left as it was
 * found on every return. */
#include "line_edit.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

void line_edit_init(line_edit *e) {
  memset(e, 0, sizeof *e);
  const char *term = getenv("TERM");
  struct termios t;
  e->on = term && *term && strcmp(term, "dumb") && isatty(0) && isatty(2) && tcgetattr(0, &t) == 0;
}

void line_edit_free(line_edit *e) {
  for (size_t i = 0; i < e->nhist; i++) free(e->hist[i]);
  free(e->hist);
  memset(e, 0, sizeof *e);
}

typedef struct ed {
  char *b;          /* the line (not NUL-terminated while edited) */
  size_t len, cap, pos, max;
  const char *prompt;
  char *saved;      /* the line being written when Up was first pressed */
  size_t hi;        /* the history entry shown (nhist: the line being written) */
} ed;

static void out(const char *s, size_t n) {
  while (n) {
    ssize_t w = write(2, s, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;
    s += w;
    n -= (size_t)w;
  }
}
static void outs(const char *s) { out(s, strlen(s)); }

/* Code points in b[from, to): what the cursor moves over. */
static size_t cols(const char *b, size_t from, size_t to) {
  size_t n = 0;
  for (size_t i = from; i < to; i++) n += ((unsigned char)b[i] & 0xc0) != 0x80;
  return n;
}

static void redraw(ed *d) {
  char tail[32];
  outs("\r");
  outs(d->prompt);
  out(d->b, d->len);
  outs("\x1b[K");
  size_t back = cols(d->b, d->pos, d->len);
  if (back) {
    snprintf(tail, sizeof tail, "\x1b[%zuD", back);
    outs(tail);
  }
}

static size_t prev_char(const ed *d, size_t p) {
  while (p > 0 && ((unsigned char)d->b[--p] & 0xc0) == 0x80) {}
  return p;
}
static size_t next_char(const ed *d, size_t p) {
  if (p < d->len) p++;
  while (p < d->len && ((unsigned char)d->b[p] & 0xc0) == 0x80) p++;
  return p;
}
/* x/term's words: runs of characters other than a space */
static size_t prev_word(const ed *d, size_t p) {
  while (p > 0 && d->b[p - 1] == ' ') p--;
  while (p > 0 && d->b[p - 1] != ' ') p--;
  return p;
}
static size_t next_word(const ed *d, size_t p) {
  while (p < d->len && d->b[p] == ' ') p++;
  while (p < d->len && d->b[p] != ' ') p++;
  return p;
}

/* (the line is NULL until its first byte: no pointer arithmetic on it then) */
static void copy(void *dst, const void *src, size_t n) {
  if (n) memcpy(dst, src, n);
}

static void cut(ed *d, size_t from, size_t to) {
  if (to <= from) return;
  memmove(d->b + from, d->b + to, d->len - to);
  d->len -= to - from;
  if (d->pos > to) d->pos -= to - from;
  else if (d->pos > from) d->pos = from;
}

static int set_text(ed *d, const char *s) {
  size_t n = strlen(s);
  if (n > d->max) n = d->max;
  if (n > d->cap) {
    char *nb = realloc(d->b, n);
    if (!nb) return -1;
    d->b = nb;
    d->cap = n;
  }
  copy(d->b, s, n);
  d->len = d->pos = n;
  return 0;
}

/* Up (dir -1) or Down (+1) in the history; the line being written is kept
 * for when Down comes back to it. */
static int walk_history(line_edit *e, ed *d, int dir) {
  if (dir < 0 ? d->hi == 0 : d->hi >= e->nhist) return 0;
  if (d->hi == e->nhist) { /* leaving the line being written */
    free(d->saved);
    if (!(d->saved = malloc(d->len + 1))) return -1;
    copy(d->saved, d->b, d->len);
    d->saved[d->len] = 0;
  }
  d->hi = dir < 0 ? d->hi - 1 : d->hi + 1;
  return set_text(d, d->hi == e->nhist ? (d->saved ? d->saved : "") : e->hist[d->hi]);
}

static void remember(line_edit *e, const char *s, size_t n) {
  if (!n || (e->nhist && strlen(e->hist[e->nhist - 1]) == n && !memcmp(e->hist[e->nhist - 1], s, n)))
    return;
  char *c = malloc(n + 1);
  if (!c) return; /* the history is a convenience: the line itself runs */
  memcpy(c, s, n);
  c[n] = 0;
  if (e->nhist == LINE_EDIT_HISTORY) {
    free(e->hist[0]);
    memmove(e->hist, e->hist + 1, (e->nhist - 1) * sizeof *e->hist);
    e->nhist--;
  } else if (!e->hist) {
    if (!(e->hist = malloc(LINE_EDIT_HISTORY * sizeof *e->hist))) {
      free(c);
      return;
    }
  }
  e->hist[e->nhist++] = c;
}

static int read_byte(unsigned char *c) {
  for (;;) {
    ssize_t r = read(0, c, 1);
    if (r == 1) return 1;
    if (r < 0 && errno == EINTR) continue;
    return 0;
  }
}

/* The rest of an escape sequence after ESC: a key code of our own. */
enum { K_NONE = 0, K_LEFT = 256, K_RIGHT, K_UP, K_DOWN, K_HOME, K_END, K_DEL, K_WLEFT, K_WRIGHT };
static int escape(void) {
  unsigned char c, p[8];
  if (!read_byte(&c)) return K_NONE;
  if (c == 'b') return K_WLEFT; /* Alt-B, Alt-F */
  if (c == 'f') return K_WRIGHT;
  if (c != '[' && c != 'O') return K_NONE;
  size_t n = 0;
  unsigned char f;
  /* parameters, then a final byte in 0x40..0x7e */
  for (;;) {
    if (!read_byte(&f)) return K_NONE;
    if (f >= 0x40 && f <= 0x7e) break;
    if (n < sizeof p) p[n++] = f;
  }
  int mod = n >= 3 && p[n - 2] == ';' ? p[n - 1] - '0' : 1; /* 3: Alt, 5: Ctrl */
  int word = mod == 3 || mod == 5;
  switch (f) {
  case 'A': return K_UP;
  case 'B': return K_DOWN;
  case 'C': return word ? K_WRIGHT : K_RIGHT;
  case 'D': return word ? K_WLEFT : K_LEFT;
  case 'H': return K_HOME;
  case 'F': return K_END;
  case '~':
    if (n >= 1 && (p[0] == '1' || p[0] == '7')) return K_HOME;
    if (n >= 1 && (p[0] == '4' || p[0] == '8')) return K_END;
    if (n >= 1 && p[0] == '3') return K_DEL;
    return K_NONE;
  default: return K_NONE;
  }
}

ssize_t line_edit_read(line_edit *e, const char *prompt, size_t max, char **line, size_t *cap) {
  struct termios was, raw;
  if (tcgetattr(0, &was)) return -1;
  raw = was;
  /* no echo, no line discipline, no signals from keys; output as it was
   * (\n still becomes \r\n) */
  raw.c_lflag &= ~(tcflag_t)(ECHO | ICANON | ISIG | IEXTEN);
  raw.c_iflag &= ~(tcflag_t)(IXON | ICRNL | INLCR | IGNCR | ISTRIP | BRKINT);
  raw.c_cc[VMIN] = 1;
  raw.c_cc[VTIME] = 0;
  if (tcsetattr(0, TCSAFLUSH, &raw)) return -1;
  ed d = {NULL, 0, 0, 0, max, prompt, NULL, e->nhist};
  ssize_t ret = -1;
  outs(prompt);
  for (;;) {
    unsigned char c;
    if (!read_byte(&c)) break;
    int k = c == 0x1b ? escape() : c;
    size_t p = d.pos;
    switch (k) {
    case '\r':
    case '\n':
      ret = 0;
      break;
    case 3: /* Ctrl-C: x/term's ReadLine ends the input */
      outs("^C");
      break;
    case 4: /* Ctrl-D */
      if (d.len == 0) break;
      /* fall through */
    case K_DEL:
      cut(&d, d.pos, next_char(&d, d.pos));
      goto draw;
    case 127:
    case 8: cut(&d, prev_char(&d, d.pos), d.pos); goto draw;
    case 1:
    case K_HOME: d.pos = 0; goto draw;
    case 5:
    case K_END: d.pos = d.len; goto draw;
    case 2:
    case K_LEFT: d.pos = prev_char(&d, d.pos); goto draw;
    case 6:
    case K_RIGHT: d.pos = next_char(&d, d.pos); goto draw;
    case K_WLEFT: d.pos = prev_word(&d, d.pos); goto draw;
    case K_WRIGHT: d.pos = next_word(&d, d.pos); goto draw;
    case 23: cut(&d, prev_word(&d, p), p); goto draw;
    case 21: cut(&d, 0, p); goto draw;
    case 11: cut(&d, p, d.len); goto draw;
    case 12: outs("\x1b[H\x1b[2J"); goto draw;
    case 16:
    case K_UP:
      if (walk_history(e, &d, -1)) goto oom;
      goto draw;
    case 14:
    case K_DOWN:
      if (walk_history(e, &d, +1)) goto oom;
      goto draw;
    default:
      if (k < 0x20 || k == 0x7f || k >= 256) continue; /* other keys: nothing */
      if (d.len >= d.max) {
        outs("\a");
        continue;
      }
      if (d.len == d.cap) {
        size_t nc = d.cap ? d.cap * 2 : 64;
        if (nc > d.max) nc = d.max;
        char *nb = realloc(d.b, nc);
        if (!nb) goto oom;
        d.b = nb;
        d.cap = nc;
      }
      memmove(d.b + d.pos + 1, d.b + d.pos, d.len - d.pos);
      d.b[d.pos++] = (char)c;
      d.len++;
      /* the line is drawn again once the code point is whole */
      if (c >= 0x80) {
        size_t at = prev_char(&d, d.pos);
        unsigned char lead = (unsigned char)d.b[at];
        size_t need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
        if (d.pos - at < need) continue;
      }
      goto draw;
    }
    break;
  draw:
    redraw(&d);
  }
  if (ret == 0) {
    if (*cap < d.len + 1) {
      char *nl = realloc(*line, d.len + 1);
      if (!nl) goto oom;
      *line = nl;
      *cap = d.len + 1;
    }
    copy(*line, d.b, d.len);
    (*line)[d.len] = 0;
    ret = (ssize_t)d.len;
    remember(e, d.b, d.len);
  }
  outs("\r\n");
  goto done;
oom:
  outs("\r\npcol shell: out of memory\r\n");
  ret = -1;
done:
  tcsetattr(0, TCSAFLUSH, &was);
  free(d.b);
  free(d.saved);
  return ret;
}
