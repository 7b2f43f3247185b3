/* canvas.h — a character grid with styles, so that a game draws its picture
 * once and both `show` (plain text) and the terminal (ncursesw, colours)
 * display it. Games never touch ncurses or escape codes.
 *
 * Cells hold one UTF-8 character each; a wide character (CJK) takes two
 * columns, the second marked as a continuation. Drawing outside the grid
 * grows it (up to 200 x 400). Not thread-safe (one owner).
 */
#ifndef PARLOUR_CANVAS_H
#define PARLOUR_CANVAS_H

#include "parlour/buf.h"

typedef enum pl_style {
    PL_ST_NORMAL = 0,
    PL_ST_RED,    /* red side / red cards */
    PL_ST_BLACK,  /* black or dark side, drawn as blue-ish where black is invisible */
    PL_ST_MARK,   /* board markings (rosettes, eyes) */
    PL_ST_DIM,    /* face-down cards, hints */
    PL_ST_HILITE, /* the last move, the selection */
    PL_ST_TITLE,  /* headings */
    PL_ST_COUNT
} pl_style;

typedef struct pl_cell {
    char ch[5];    /* one UTF-8 character, NUL-terminated; "" for a continuation */
    unsigned char style;
} pl_cell;

typedef struct pl_canvas {
    pl_cell *cells;
    int rows, cols; /* used extent */
    int caprows, capcols;
    bool oom;
    /* The number a picture gives seat 0 in its words ("Seat 1 (Red)"): 0,
     * the protocol's `show` (docs/protocol.md keeps its words), or 1 for
     * people (the terminal, as the browser counts). Set by the caller before
     * `draw`; pl_canvas_free resets it to 0. */
    int seat_from;
    /* The language of the picture's words (a pl_lang, words.h): 0, English,
     * for the protocol's `show` (docs/protocol.md keeps its words), or the
     * player's on the terminal. Set by the caller before `draw`, like
     * seat_from; pl_canvas_free resets it to 0. */
    int lang;
} pl_canvas;

/* Writes UTF-8 text at (row, col) in `style`; returns the column after it.
 * Invalid UTF-8 bytes are drawn as '?'. */
int pl_canvas_put(pl_canvas *c, int row, int col, pl_style style, const char *utf8);
/* printf into the canvas. */
int pl_canvas_printf(pl_canvas *c, int row, int col, pl_style style, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Appends the canvas as plain text lines (trailing blanks cut). */
void pl_canvas_to_text(const pl_canvas *c, pl_buf *out);
/* Frees the cells; the canvas is empty and reusable. */
void pl_canvas_free(pl_canvas *c);
/* Display width in columns of a UTF-8 string (utf8proc widths). */
int pl_text_width(const char *utf8);

#endif
