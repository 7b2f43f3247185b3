/* term.h — the ncursesw pieces every terminal screen of the program shares:
 * start-up with our colours, and drawing a game's canvas (canvas.h).
 * Single-threaded, like curses itself. */
#ifndef CLI_TERM_H
#define CLI_TERM_H

#include <curses.h>

#include "parlour/canvas.h"
#include "parlour/words.h"

/* The player's language for `prog` ("parlour play"): the value of
 * `--lang CODE` or `--lang=CODE` among argv[1..argc-1] when there is one,
 * else the environment's (LC_ALL, LC_MESSAGES, LANG: words.h). Returns 0
 * with *lang set, or -1 after printing "PROG: unknown language 'xx';
 * languages: en, ru, ja, vi" (or that --lang lacks its code) to stderr,
 * *lang unchanged. Reads argv only: getopt still sees --lang. */
int term_lang(int argc, char **argv, const char *prog, pl_lang *lang);

/* Starts ncurses in wide-character mode (locale from the environment; when
 * that locale is not installed or not UTF-8, C.UTF-8 for the characters,
 * so that "LANG=ja_JP.UTF-8" without the Japanese locale still draws
 * Japanese), unbuffered keys without echo, keypad on, and the style colours. */
void term_start(void);
/* The curses attributes of canvas style `st` (PL_ST_*): its colour pair
 * when the terminal has colours, dim or bold as the style says. */
attr_t term_style_attr(int st);
/* Draws canvas `c` with its top-left corner at (y, x); returns its rows. */
int term_put_canvas(const pl_canvas *c, int y, int x);

#endif
