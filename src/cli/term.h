/* term.h — the ncursesw pieces every terminal screen of the program shares:
 * start-up with our colours, and drawing a game's canvas (canvas.h).
 * Single-threaded, like curses itself. */
#ifndef CLI_TERM_H
#define CLI_TERM_H

#include <curses.h>

#include "parlour/canvas.h"

/* Starts ncurses in wide-character mode (locale from the environment),
 * unbuffered keys without echo, keypad on, and the style colours. */
void term_start(void);
/* The curses attributes of canvas style `st` (PL_ST_*): its colour pair
 * when the terminal has colours, dim or bold as the style says. */
attr_t term_style_attr(int st);
/* Draws canvas `c` with its top-left corner at (y, x); returns its rows. */
int term_put_canvas(const pl_canvas *c, int y, int x);

#endif
