/* term.c — shared ncursesw start-up and canvas drawing (term.h). */
#include "term.h"

#include <curses.h>
#include <locale.h>

void term_start(void)
{
    setlocale(LC_ALL, "");
    initscr();
    cbreak();
    noecho();
    keypad(stdscr, TRUE);
    if (!has_colors())
        return;
    start_color();
    use_default_colors();
    init_pair(PL_ST_RED, COLOR_RED, -1);
    init_pair(PL_ST_BLACK, COLOR_CYAN, -1);
    init_pair(PL_ST_MARK, COLOR_YELLOW, -1);
    init_pair(PL_ST_DIM, COLOR_WHITE, -1);
    init_pair(PL_ST_HILITE, COLOR_GREEN, -1);
    init_pair(PL_ST_TITLE, COLOR_MAGENTA, -1);
}

attr_t term_style_attr(int st)
{
    attr_t a = has_colors() && st > 0 ? COLOR_PAIR(st) : 0;
    if (st == PL_ST_DIM)
        a |= A_DIM;
    if (st == PL_ST_HILITE || st == PL_ST_TITLE)
        a |= A_BOLD;
    return a;
}

int term_put_canvas(const pl_canvas *c, int y, int x)
{
    for (int r = 0; r < c->rows; r++)
        for (int k = 0; k < c->cols; k++) {
            const pl_cell *cell = &c->cells[r * c->capcols + k];
            if (!cell->ch[0])
                continue; /* second column of a wide character */
            attr_t a = term_style_attr(cell->style);
            attron(a);
            mvaddstr(y + r, x + k, cell->ch);
            attroff(a);
        }
    return c->rows;
}
