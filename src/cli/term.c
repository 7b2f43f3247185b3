/* term.c — shared ncursesw start-up and canvas drawing (term.h). */
#include "term.h"

#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

int term_lang(int argc, char **argv, const char *prog, pl_lang *lang)
{
    const char *code = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--")) /* getopt stops here too */
            break;
        if (!strcmp(argv[i], "--lang")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "%s: --lang needs a language: %s\n", prog, pl_words_lang_list());
                return -1;
            }
            code = argv[++i];
        } else if (!strncmp(argv[i], "--lang=", 7)) {
            code = argv[i] + 7;
        }
    }
    if (!code) {
        *lang = pl_words_lang_from_env();
        return 0;
    }
    int l = pl_words_lang_parse(code);
    if (l < 0) {
        fprintf(stderr, "%s: unknown language '%s'; languages: %s\n", prog, code, pl_words_lang_list());
        return -1;
    }
    *lang = (pl_lang)l;
    return 0;
}

void term_start(void)
{
    /* A UTF-8 locale for curses' wide characters, even when the one named
     * by the environment is not installed (the words follow LANG anyway). */
    if (!setlocale(LC_ALL, "") || strcmp(nl_langinfo(CODESET), "UTF-8") != 0)
        setlocale(LC_CTYPE, "C.UTF-8");
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
