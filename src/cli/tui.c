/* tui.c — terminal play and replay (ncursesw), for every game through the
 * interface: the game draws on a canvas, the legal actions are listed and
 * numbered, the player types a number or the action's notation. Seats are
 * human or AI; chance is drawn by the match's generator. In games with
 * hidden information the screen is blanked between two human seats until
 * the next player confirms they are at the keyboard.
 *
 * Every screen is laid out for the terminal's size when it is drawn, and
 * drawn again at once when the terminal is resized: a board row wider than
 * the terminal folds at a blank (a grid, four or more such rows in a row,
 * pans with Left/Right instead), blank rows go when the board is too tall,
 * and a board still too tall scrolls with Up/Down; the legal list takes the
 * rows left and pages with PgUp/PgDn; the prompt is always on screen. Below the smallest size that
 * holds the board and a prompt the screen says "terminal too small: need
 * W×H" (the prompt stays, so quit still works).
 */
#include <curses.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ai/ai.h"
#include "../ai/hint.h"
#include "../ai/perfect.h"
#include "cli.h"
#include "menu.h"
#include "tell.h"
#include "term.h"
#include "parlour/alloc.h"
#include "parlour/match.h"
#include "parlour/record.h"
#include "parlour/registry.h"
#include "parlour/words.h"

#define MSG_MAX_ROWS 4
#define MAX_VROWS 600 /* folded board rows: a canvas has at most 200 rows */
#define KEY_CTRL_D 4
#define BOARD_MIN_ROWS 10 /* a board taller than the screen scrolls in a window this tall at least */

typedef struct seatcfg {
    int human;
    char spec[64]; /* AI spec */
    ai_player *ai; /* the AI seat's player, made once the game is known */
} seatcfg;

/* The player's language (words.h): every word this file shows is the
 * catalogue's in it. Set once by cli_play / cli_replay before the screen
 * starts; the terminal is single-threaded. */
static pl_lang lang;

/* ---- Text measured in columns (words.h: a CJK character is two wide) ---- */

/* Bytes of the line that starts at `s` and fits in `w` columns: up to a
 * newline, broken after a space (or Japanese 、。) when the text goes on,
 * else between two characters. At least one character unless `s` is empty. */
static int wrap_len(const char *s, int w)
{
    return (int)pl_words_wrap(s, w);
}

/* Next line of `s` after a line of `len` bytes (skips the newline or blanks). */
static const char *wrap_next(const char *s, int len)
{
    s += len;
    if (*s == '\n')
        return s + 1;
    while (*s == ' ')
        s++;
    return s;
}

static int wrap_rows(const char *s, int w)
{
    int rows = 0;
    while (s && *s) {
        s = wrap_next(s, wrap_len(s, w));
        rows++;
    }
    return rows;
}

/* ---- The board, folded to the terminal's width ---- */

/* A screen row of the board: cells [from, to) of canvas row r, drawn
 * `x` columns right of the board's left edge. */
typedef struct vrow {
    int r, from, to, x;
} vrow;

static const pl_cell *cell_at(const pl_canvas *c, int r, int k)
{
    return &c->cells[r * c->capcols + k];
}

static bool cell_blank(const pl_canvas *c, int r, int k)
{
    const char *ch = cell_at(c, r, k)->ch;
    return ch[0] == ' ' && ch[1] == '\0';
}

static int row_len(const pl_canvas *c, int r)
{
    int n = c->cols;
    while (n > 0 && cell_blank(c, r, n - 1))
        n--;
    return n;
}

/* Folds every row of `c` wider than `width` at a blank (continuations
 * indented two columns past the row's own indent). Fills at most `cap`
 * rows of `out`; returns how many; *widest gets the widest row unfolded. */
static int board_fold(const pl_canvas *c, int width, vrow *out, int cap, int *widest)
{
    int n = 0;
    *widest = 0;
    for (int r = 0; r < c->rows && n < cap; r++) {
        int len = row_len(c, r);
        if (len > *widest)
            *widest = len;
        int ind = 0;
        while (ind < len && cell_blank(c, r, ind))
            ind++;
        int from = 0, x = 0;
        while (n < cap) {
            int avail = width - x;
            if (len - from <= avail || avail < 8) {
                out[n++] = (vrow){r, from, len, x};
                break;
            }
            int cut = from + avail, b = cut; /* cells [from, cut) fit */
            /* Break at two blanks (between cards, fields) if any, else at one. */
            while (b > from + 2 && !(cell_blank(c, r, b) && cell_blank(c, r, b - 1)))
                b--;
            if (b <= from + 2)
                for (b = cut; b > from + 1 && !cell_blank(c, r, b); b--)
                    ;
            if (b <= from + 1) /* no blank: cut, but not inside a wide character */
                for (b = cut; b > from + 1 && !cell_at(c, r, b)->ch[0]; b--)
                    ;
            out[n++] = (vrow){r, from, b, x};
            from = b;
            while (from < len && cell_blank(c, r, from))
                from++;
            if (from >= len)
                break;
            x = ind + 2 < width / 2 ? ind + 2 : 2;
        }
    }
    while (n > 0 && out[n - 1].from == out[n - 1].to) /* trailing blank rows */
        n--;
    return n;
}

/* Drops blank rows of `v` until at most `rows` are left: first runs of
 * blank rows become one, then blank rows go. Returns the new count. */
static int board_compact(vrow *v, int n, int rows)
{
    for (int pass = 0; pass < 2 && n > rows; pass++) {
        int k = 0;
        for (int i = 0; i < n; i++) {
            bool blank = v[i].from == v[i].to;
            if (blank && (pass == 1 || (k > 0 && v[k - 1].from == v[k - 1].to)))
                continue;
            v[k++] = v[i];
        }
        n = k;
    }
    return n;
}

/* Draws board row `v` at screen row y, its first `left` columns panned off. */
static void board_put(const pl_canvas *c, const vrow *v, int y, int left)
{
    for (int k = v->from; k < v->to; k++) {
        const pl_cell *cell = cell_at(c, v->r, k);
        if (!cell->ch[0])
            continue; /* second column of a wide character */
        int x = 1 + v->x + (k - v->from) - left;
        if (x < 1)
            continue;
        if (x + pl_text_width(cell->ch) >= COLS)
            break;
        attr_t a = term_style_attr(cell->style);
        attron(a);
        mvaddstr(y, x, cell->ch);
        attroff(a);
    }
}

/* ---- One screen: board, notes, the legal list, a prompt ---- */

typedef struct screen {
    const pl_canvas *board; /* may be NULL */
    const char *msg;        /* notes and errors, wrapped, at most MSG_MAX_ROWS */
    const char *head;       /* first words of the list area, bold ("Seat 1 to act:") */
    char **items;           /* the legal list as "N) text" */
    int nitems;
    int top;                /* first item shown (paging) */
    int shown;              /* out: items shown from `top` */
    int btop;               /* first board row shown when the board scrolls */
    bool bscroll;           /* out: the board is taller than its window */
    int bleft;              /* first board column shown when the board pans */
    bool bpan;              /* out: the board is a grid wider than the screen */
    const char *hint;       /* a line of commands, shown when there is room */
    int msg_min;            /* rows the message keeps before the board (0: one; the
                               board scrolls to make room), at most MSG_MAX_ROWS */
    bool prompt;            /* a "> " line with `input` */
    const char *input;
} screen;

/* Writes at most `cols` columns of `t` at (y, x), never half a character. */
static void put_clipped(int y, int x, const char *t, int cols)
{
    mvaddnstr(y, x, t, (int)pl_words_fit(t, cols > 0 ? cols : 0));
}

static int text_cols(const char *t)
{
    return pl_words_cols(t, strlen(t));
}

/* The catalogue's `key` with {n} = `n` into `out` (at most `cap` bytes). */
static void words_n(char *out, size_t cap, const char *key, int n)
{
    char v[16];
    snprintf(v, sizeof v, "%d", n);
    pl_buf b = {0};
    pl_words_put(&b, lang, key, "n", v, NULL);
    snprintf(out, cap, "%s", pl_buf_str(&b));
    pl_buf_free(&b);
}

/* Lays the list area out in at most `rows` rows of `w` columns from item
 * `top`, drawing from row `y` when y >= 0. Returns the rows used; *shown
 * gets the items placed. When items are left over, the last row ends with
 * "+N more: PgDn" (and a list paged on begins with "PgUp «"). */
static int list_pack(const screen *s, int top, int rows, int w, int y, int *shown)
{
    int row = 0, x = 0, placed = 0;
    if (s->head && *s->head) {
        if (y >= 0) {
            attron(A_BOLD);
            put_clipped(y, 1, s->head, w);
            attroff(A_BOLD);
        }
        int hw = text_cols(s->head);
        x = hw > w ? w : hw + 2;
    }
    if (top > 0) {
        if (x > 0 && x + 6 > w) {
            row++;
            x = 0;
        }
        if (y >= 0 && row < rows) {
            attron(A_DIM);
            put_clipped(y + row, 1 + x, pl_words(lang, "tui.pgup"), w - x);
            attroff(A_DIM);
        }
        x += text_cols(pl_words(lang, "tui.pgup")) + 2;
    }
    char more[96];
    for (int i = top; i < s->nitems; i++) {
        int iw = text_cols(s->items[i]);
        if (iw > w)
            iw = w;
        int nx = x, nrow = row;
        if (nx > 0 && nx + iw > w) {
            nrow++;
            nx = 0;
        }
        if (nrow >= rows)
            break;
        words_n(more, sizeof more, "tui.more", s->nitems - i - 1);
        if (nrow == rows - 1 && i + 1 < s->nitems && nx + iw + 2 + text_cols(more) > w)
            break;
        row = nrow;
        x = nx;
        if (y >= 0)
            put_clipped(y + row, 1 + x, s->items[i], w - x);
        x += iw + 2;
        placed++;
    }
    if (top + placed < s->nitems && rows > 0) {
        words_n(more, sizeof more, "tui.more", s->nitems - top - placed);
        int mw = text_cols(more);
        if (row < rows - 1) {
            row = rows - 1;
            x = 0;
        }
        if (x + mw > w)
            x = w - mw > 0 ? w - mw : 0;
        if (y >= 0) {
            attron(A_DIM);
            put_clipped(y + row, 1 + x, more, w - x);
            attroff(A_DIM);
        }
        x += mw;
    }
    if (shown)
        *shown = placed;
    return row + 1;
}

/* Draws screen `s` on the whole terminal. Returns 0, or -1 when the
 * terminal is too small (the screen then says so, with the prompt). */
static int screen_draw(screen *s)
{
    static vrow v[MAX_VROWS];
    int H = LINES, W = COLS;
    int bw = W - 2, widest = 0;
    /* Rows wider than the screen fold, unless four or more in a row are:
     * such a block is a grid (a table of cells, a frame), panned with
     * Left/Right rather than folded, so that its columns stay in line. */
    int run = 0, longest_run = 0;
    for (int r = 0; s->board && r < s->board->rows; r++) {
        run = row_len(s->board, r) > bw ? run + 1 : 0;
        longest_run = run > longest_run ? run : longest_run;
    }
    s->bpan = longest_run >= 4;
    int nv = s->board ? board_fold(s->board, s->bpan ? 100000 : bw, v, MAX_VROWS, &widest) : 0;
    bool has_list = s->head || s->nitems > 0;
    int lw = W - 2 > 1 ? W - 2 : 1;
    int msg_need = s->msg && *s->msg ? wrap_rows(s->msg, lw) : 0;
    if (msg_need > MSG_MAX_ROWS)
        msg_need = MSG_MAX_ROWS;
    int solid = 0; /* the board's rows with every blank row dropped */
    for (int i = 0; i < nv; i++)
        solid += v[i].from < v[i].to;
    /* The list gets up to three rows if blank board rows can make room, else one. */
    int list_min = 0;
    if (has_list) {
        list_min = list_pack(s, s->top, 3, lw, -1, NULL);
        while (list_min > 1 && solid > H - 1 - list_min - (msg_need ? 1 : 0))
            list_min--;
    }
    int msg_base = msg_need < (s->msg_min > 1 ? s->msg_min : 1) ? msg_need : (s->msg_min > 1 ? s->msg_min : 1);
    int fixed = 1 + list_min + msg_base;
    nv = board_compact(v, nv, H - fixed);
    /* The minimum: the board unfolded up to 80 columns (wider ones fold),
     * and a window of at least BOARD_MIN_ROWS of its rows (it scrolls). */
    int need_w = widest + 2 < 80 ? widest + 2 : 80;
    if (need_w < 24)
        need_w = 24;
    int win_min = solid <= BOARD_MIN_ROWS ? solid + s->bpan : BOARD_MIN_ROWS + 1; /* + the scroll line */
    int need_h = fixed + win_min;
    erase();
    if (W < need_w || H < need_h) {
        char w[16], h[16];
        snprintf(w, sizeof w, "%d", need_w);
        snprintf(h, sizeof h, "%d", need_h);
        pl_buf t = {0};
        pl_words_put(&t, lang, "tui.too_small", "w", w, "h", h, NULL);
        attron(A_BOLD);
        put_clipped(0, 0, pl_buf_str(&t), W);
        attroff(A_BOLD);
        pl_buf_free(&t);
        if (s->prompt && H > 1) {
            mvaddstr(H - 1, 0, "> ");
            addnstr(s->input, W > 3 ? W - 3 : 0);
        }
        refresh();
        s->shown = 0;
        return -1;
    }
    /* A board taller than the room left scrolls (Up/Down), a line saying so. */
    int win = nv;
    s->bscroll = nv > H - fixed - s->bpan;
    if (s->bscroll) {
        win = H - fixed - 1;
        if (s->btop > nv - win)
            s->btop = nv - win;
    } else {
        s->btop = 0;
    }
    if (!s->bpan || s->bleft > widest - bw)
        s->bleft = s->bpan ? widest - bw : 0;
    if (s->bleft < 0)
        s->bleft = 0;
    int rest = H - fixed - win - (s->bscroll || s->bpan);
    int msg_rows = msg_need;
    if (msg_rows > msg_base) {
        int extra = msg_rows - msg_base < rest ? msg_rows - msg_base : rest;
        msg_rows = msg_base + extra;
        rest -= extra;
    }
    int list_rows = 0;
    if (has_list) {
        int need = list_pack(s, s->top, 1000, lw, -1, NULL);
        int extra = need - list_min < rest ? need - list_min : rest;
        list_rows = list_min + (extra > 0 ? extra : 0);
        rest -= extra > 0 ? extra : 0;
    }
    bool hint = s->hint && rest > 0;
    rest -= hint;
    bool gap = rest > 0; /* a blank row under the board */
    int y = 0;
    for (int i = s->btop; i < s->btop + win; i++)
        board_put(s->board, &v[i], y++, s->bleft);
    if (s->bscroll || s->bpan) {
        pl_buf what = {0}, t = {0};
        char a[16], b[16], n[16];
        if (s->bscroll) {
            snprintf(a, sizeof a, "%d", s->btop + 1);
            snprintf(b, sizeof b, "%d", s->btop + win);
            snprintf(n, sizeof n, "%d", nv);
            pl_words_put(&what, lang, "tui.board.rows", "from", a, "to", b, "n", n, NULL);
        }
        if (s->bpan) {
            snprintf(a, sizeof a, "%d", s->bleft + 1);
            snprintf(b, sizeof b, "%d", s->bleft + bw);
            snprintf(n, sizeof n, "%d", widest);
            if (s->bscroll)
                pl_buf_puts(&what, "; ");
            pl_words_put(&what, lang, "tui.board.cols", "from", a, "to", b, "n", n, NULL);
        }
        pl_words_put(&t, lang, "tui.board.scroll", "what", pl_buf_str(&what), NULL);
        attron(A_DIM);
        put_clipped(y++, 1, pl_buf_str(&t), lw);
        attroff(A_DIM);
        pl_buf_free(&what);
        pl_buf_free(&t);
    }
    y += gap;
    if (msg_rows) {
        attron(A_BOLD);
        /* When not all fit: the latest notes, from the start of a sentence. */
        const char *m = s->msg;
        for (const char *next; wrap_rows(m, lw) > msg_rows && (next = tell_next_sentence(m));)
            m = next;
        for (int skip = wrap_rows(m, lw) - msg_rows; skip > 0; skip--)
            m = wrap_next(m, wrap_len(m, lw));
        for (int l = 0; l < msg_rows && *m; l++) {
            int len = wrap_len(m, lw);
            mvaddnstr(y++, 1, m, len);
            m = wrap_next(m, len);
        }
        attroff(A_BOLD);
    }
    if (has_list)
        y += list_pack(s, s->top, list_rows, lw, y, &s->shown) > 0 ? list_rows : 0;
    if (hint) {
        attron(A_DIM);
        put_clipped(y++, 1, s->hint, lw);
        attroff(A_DIM);
    }
    if (s->prompt) {
        int room = W - 4;
        int len = (int)strlen(s->input); /* typed keys are ASCII: a byte a column */
        const char *in = len > room && room > 0 ? s->input + (len - room) : s->input;
        mvaddstr(y, 1, "> ");
        addstr(in);
    }
    refresh();
    return 0;
}

/* What a key did to the line being typed. */
enum { ED_KEEP, ED_ENTER, ED_EOF, ED_PGDN, ED_PGUP, ED_DOWN, ED_UP, ED_LEFT, ED_RIGHT };

/* Applies key `ch` to the line `buf` (capacity `cap`). */
static int line_key(int ch, char *buf, size_t cap)
{
    size_t len = strlen(buf);
    if (ch == ERR)
        return ED_EOF;
    if (ch == '\n' || ch == '\r' || ch == KEY_ENTER)
        return ED_ENTER;
    if (ch == KEY_NPAGE)
        return ED_PGDN;
    if (ch == KEY_PPAGE)
        return ED_PGUP;
    if (ch == KEY_DOWN)
        return ED_DOWN;
    if (ch == KEY_UP)
        return ED_UP;
    if (ch == KEY_LEFT)
        return ED_LEFT;
    if (ch == KEY_RIGHT)
        return ED_RIGHT;
    if (ch == KEY_CTRL_D && len == 0)
        return ED_EOF;
    if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && len > 0)
        buf[len - 1] = '\0';
    else if (ch == 21) /* ^U */
        buf[0] = '\0';
    else if (ch >= 32 && ch < 127 && len + 1 < cap) {
        buf[len] = (char)ch;
        buf[len + 1] = '\0';
    }
    return ED_KEEP; /* KEY_RESIZE too: the caller draws again */
}

/* Shows screen `s` and reads a line into `buf`, drawing again after every
 * key (a resize included) and paging the list. Returns 0 on Enter, -1 at
 * the end of input (Ctrl-D on an empty line). */
static int screen_read(screen *s, char *buf, size_t cap)
{
    buf[0] = '\0';
    s->prompt = true;
    s->input = buf;
    for (;;) {
        screen_draw(s);
        int r = line_key(getch(), buf, cap);
        if (r == ED_ENTER)
            return 0;
        if (r == ED_EOF)
            return -1;
        if (r == ED_DOWN && s->bscroll)
            s->btop++; /* screen_draw keeps it in range */
        else if (r == ED_UP && s->btop > 0)
            s->btop--;
        else if (r == ED_RIGHT && s->bpan)
            s->bleft += 8; /* screen_draw keeps it in range */
        else if (r == ED_LEFT && s->bleft > 0)
            s->bleft = s->bleft > 8 ? s->bleft - 8 : 0;
        else if (r == ED_PGDN && s->top + s->shown < s->nitems)
            s->top += s->shown > 0 ? s->shown : 1;
        else if (r == ED_PGUP && s->top > 0) {
            /* back by a page as long as the one shown */
            int step = s->shown > 0 ? s->shown : 1;
            s->top = s->top > step ? s->top - step : 0;
        }
    }
}

/* Shows `text` full screen, wrapped, scrolled by the arrows and PgUp/PgDn,
 * with `title` and how to leave on the last row. Without `buf`: until Enter,
 * q or the end of input; returns -1. With `buf` (capacity `cap`: the review
 * page): digits typed go into it, shown after "> " on the last row (then
 * `foot`), and Enter returns 0 with them (empty: back); q, Esc or the end
 * of input return -1. */
static int page_read(const char *title, const char *text, const char *foot, char *buf, size_t cap)
{
    int top = 0;
    if (buf)
        buf[0] = '\0';
    for (;;) {
        erase();
        int W = COLS > 4 ? COLS - 2 : 2, H = LINES > 2 ? LINES - 2 : 1;
        int total = wrap_rows(text, W);
        if (top > total - H)
            top = total - H > 0 ? total - H : 0;
        const char *p = text;
        for (int l = 0; *p; l++) {
            int len = wrap_len(p, W);
            if (l >= top && l < top + H)
                mvaddnstr(l - top, 1, p, len);
            p = wrap_next(p, len);
        }
        pl_buf line = {0};
        if (buf)
            pl_buf_printf(&line, "> %s  %s", buf, foot);
        else
            pl_buf_printf(&line, "%s — %s", title, pl_words(lang, total > H ? "tui.page.scroll" : "tui.page.back"));
        attron(A_DIM);
        put_clipped(LINES - 1, 1, pl_buf_str(&line), W);
        attroff(A_DIM);
        pl_buf_free(&line);
        refresh();
        int ch = getch();
        size_t len = buf ? strlen(buf) : 0;
        if (ch == ERR || ch == 'q' || ch == KEY_CTRL_D || ch == 27)
            return -1;
        if (ch == '\n' || ch == '\r' || ch == KEY_ENTER)
            return buf ? 0 : -1;
        if (buf && ch >= '0' && ch <= '9' && len + 1 < cap) {
            buf[len] = (char)ch;
            buf[len + 1] = '\0';
        } else if (buf && (ch == KEY_BACKSPACE || ch == 127 || ch == 8) && len > 0) {
            buf[len - 1] = '\0';
        } else if (ch == KEY_DOWN || ch == 'j') {
            top++;
        } else if ((ch == KEY_UP || ch == 'k') && top > 0) {
            top--;
        } else if (ch == KEY_NPAGE || ch == ' ') {
            top += H;
        } else if (ch == KEY_PPAGE) {
            top = top > H ? top - H : 0;
        }
    }
}

static void show_page(const char *title, const char *text)
{
    page_read(title, text, NULL, NULL, 0);
}

/* ---- Play ---- */

static int parse_seat_arg(const char *arg, seatcfg *seats, pl_buf *err)
{
    char *end;
    long n = strtol(arg, &end, 10);
    if (end == arg || *end != '=' || n < 0 || n >= PL_MAX_SEATS) {
        pl_buf_printf(err, "bad --seat '%s': expected N=human or N=ai[:SPEC]", arg);
        return -1;
    }
    const char *who = end + 1;
    if (!strcmp(who, "human")) {
        seats[n].human = 1;
        return 0;
    }
    if (!strncmp(who, "ai", 2) && (who[2] == '\0' || who[2] == ':')) {
        const char *spec = who[2] ? who + 3 : "";
        if (ai_check_spec(spec, err) < 0)
            return -1;
        seats[n].human = 0;
        snprintf(seats[n].spec, sizeof seats[n].spec, "%s", spec);
        return 0;
    }
    pl_buf_printf(err, "bad --seat '%s': expected N=human or N=ai[:SPEC]", arg);
    return -1;
}

static void seat_label(const seatcfg *s, int seat, char *out, size_t n)
{
    if (s[seat].human)
        snprintf(out, n, "human");
    else
        snprintf(out, n, "ai%s%s", s[seat].spec[0] ? ":" : "", s[seat].spec);
}

/* Appends how a finished game ended, as a sentence: "Dark wins 7–5.",
 * "Red wins 12–9.", "Seat 2 wins: seat 1 −2, seat 2 +6, ...", "A draw 7–7."
 * (seats and teams counted from 1, as the browser counts). */
static void result_sentence(const pl_game *g, const void *st, pl_buf *out)
{
    pl_outcome o;
    memset(&o, 0, sizeof o);
    g->outcome(st, &o);
    int w = -1; /* a seat of the winner */
    if (o.kind == PL_WIN_SEAT)
        w = o.winner;
    else if (o.kind == PL_WIN_TEAM)
        for (int i = 0; i < o.nseats && w < 0; i++)
            if (g->team_of(st, i) == o.winner)
                w = i;
    if (w < 0 && o.kind != PL_WIN_DRAW) {
        pl_buf_puts(out, pl_words(lang, "result.over"));
        return;
    }
    pl_buf who = {0}, score = {0};
    char n[16];
    if (w >= 0) {
        if (g->seat_name)
            tell_seat_name(g, st, w, lang, &who);
        else if (o.kind == PL_WIN_TEAM) {
            snprintf(n, sizeof n, "%d", o.winner + 1);
            pl_words_put(&who, lang, "result.team", "n", n, NULL);
        } else {
            snprintf(n, sizeof n, "%d", w + 1);
            pl_words_put(&who, lang, "result.seat", "n", n, NULL);
        }
    }
    /* Two sides: "7–5"; more: every seat's score. */
    int other = -1;
    bool two_sides = true;
    int ref = w >= 0 ? w : 0;
    for (int i = 0; i < o.nseats; i++) {
        if (g->team_of(st, i) == g->team_of(st, ref))
            continue;
        if (other >= 0 && g->team_of(st, i) != g->team_of(st, other))
            two_sides = false;
        if (other < 0)
            other = i;
    }
    if (other >= 0 && two_sides) {
        pl_buf_printf(&score, "%ld–%ld", o.score[ref], o.score[other]);
    } else {
        for (int i = 0; i < o.nseats; i++) {
            char sc[24];
            snprintf(n, sizeof n, "%d", i + 1);
            snprintf(sc, sizeof sc, "%+ld", o.score[i]);
            if (i)
                pl_buf_puts(&score, pl_words(lang, "result.list_sep"));
            pl_words_put(&score, lang, "result.item", "n", n, "score", sc, NULL);
        }
    }
    /* "Dark wins 7–5.", "Seat 2 wins: seat 1 −2, seat 2 +6 ...", "A draw 7–7." */
    const char *key = w >= 0 ? (two_sides && other >= 0 ? "result.wins" : "result.wins_list")
                             : (two_sides && other >= 0 ? "result.draw" : "result.draw_list");
    pl_words_put(out, lang, key, "side", pl_buf_str(&who), "score", pl_buf_str(&score), NULL);
    out->oom |= who.oom || score.oom;
    pl_buf_free(&who);
    pl_buf_free(&score);
}

static int count_humans(const seatcfg *s, int ns)
{
    int n = 0;
    for (int i = 0; i < ns; i++)
        n += s[i].human;
    return n;
}

/* True when a human seat decides at `m`'s state: a human acts and has more
 * than one legal action (a single one is played for them). */
static bool human_decides(const pl_match *m, const seatcfg *seats, pl_action *acts)
{
    const pl_game *g = m->game;
    if (g->phase(m->state) != PL_PHASE_MOVE)
        return false;
    int sl[PL_MAX_SEATS];
    int n = g->actors(m->state, sl);
    for (int i = 0; i < n; i++)
        if (seats[sl[i]].human && pl_legal_all(g, m->state, sl[i], acts) > 1)
            return true;
    return false;
}

/* Takes back to the previous decision of a human seat (moves played for a
 * human because they were the only one are taken back with it) and says
 * which moves went, worded for `viewer`; chance is not a move. */
static void undo_to_human(pl_match *m, const seatcfg *seats, int viewer, pl_action *acts, pl_buf *msg)
{
    const pl_game *g = m->game;
    pl_buf err = {0};
    int from = m->nhist;
    while (m->nhist > 0) {
        pl_match_undo(m, &err);
        if (human_decides(m, seats, acts))
            break;
    }
    pl_buf_clear(msg);
    int moves = 0;
    for (int i = m->nhist; i < from; i++)
        moves += m->hist[i].seat != PL_CHANCE;
    void *st = pl_malloc(g->state_size);
    char nm[16];
    snprintf(nm, sizeof nm, "%d", moves);
    if (moves == 0 || !st) {
        if (moves)
            pl_words_put(msg, lang, moves > 1 ? "tui.undo.took" : "tui.undo.took.one", "n", nm, NULL);
        else
            pl_buf_puts(msg, pl_words(lang, "tui.undo.nothing"));
        pl_free(st);
        pl_buf_free(&err);
        return;
    }
    /* The history past nhist is still in place: replay it to word each move. */
    pl_words_put(msg, lang, moves > 1 ? "tui.undo.took_list" : "tui.undo.took_list.one", "n", nm, NULL);
    pl_state_copy(g, st, m->state);
    int said = 0;
    for (int i = m->nhist; i < from; i++) {
        const pl_move *mv = &m->hist[i];
        if (mv->seat != PL_CHANCE && said < 6) {
            pl_buf_puts(msg, said ? pl_words(lang, "result.list_sep") : " ");
            if (g->seat_name) {
                tell_seat_name(g, st, mv->seat, lang, msg);
            } else {
                snprintf(nm, sizeof nm, "%d", mv->seat + 1);
                pl_words_put(msg, lang, "tui.undo.seat", "n", nm, NULL);
            }
            pl_buf_putc(msg, ' ');
            if (g->format_action_for && viewer >= 0)
                g->format_action_for(st, mv->seat, mv->a, viewer, msg);
            else
                g->format_action(st, mv->seat, mv->a, msg);
            said++;
        }
        g->apply(st, mv->seat, mv->a);
    }
    if (said < moves) {
        pl_buf_puts(msg, pl_words(lang, "result.list_sep"));
        pl_buf_puts(msg, "…");
    }
    pl_free(st);
    pl_buf_free(&err);
}

static void autosave(const pl_match *m, const char *path, pl_buf *msg)
{
    if (!path)
        return;
    pl_buf err = {0};
    if (pl_record_save_file(m, path, &err) < 0) {
        pl_buf_clear(msg);
        pl_buf_puts(msg, pl_buf_str(&err));
    }
    pl_buf_free(&err);
}

/* True when seats `a` and `b` would be shown the same picture: then
 * nothing either may not see is on the screen (cbw players=2, where one
 * person plays both seats of a team), and no hand-over is needed. */
static bool same_picture(const pl_game *g, const void *st, int a, int b)
{
    pl_canvas ca = {0}, cb = {0};
    pl_buf ta = {0}, tb = {0};
    g->draw(st, a, &ca);
    g->draw(st, b, &cb);
    pl_canvas_to_text(&ca, &ta);
    pl_canvas_to_text(&cb, &tb);
    bool same = !strcmp(pl_buf_str(&ta), pl_buf_str(&tb));
    pl_canvas_free(&ca);
    pl_canvas_free(&cb);
    pl_buf_free(&ta);
    pl_buf_free(&tb);
    return same;
}

/* The hand-over screen between two human seats; -1 at the end of input. */
static int hand_over(int seat)
{
    for (;;) {
        erase();
        char t[256];
        words_n(t, sizeof t, "tui.handover", seat + 1); /* counted from 1 */
        put_clipped(LINES > 4 ? 2 : 0, 1, t, COLS > 2 ? COLS - 2 : 1);
        refresh();
        int ch = getch();
        if (ch == '\n' || ch == '\r' || ch == KEY_ENTER)
            return 0;
        if (ch == ERR || ch == KEY_CTRL_D)
            return -1;
    }
}

/* The rules page: the game's summary, the options in force, the levels. */
static void show_rules(const pl_match *m)
{
    const pl_game *g = m->game;
    pl_buf t = {0}, o = {0}, lv = {0};
    pl_opts_write(&m->opts, &o);
    ai_describe_levels(g, &lv);
    pl_buf sum = {0}; /* the summary's lines joined into paragraphs, wrapped to the screen */
    const char *name = g->name;
    char key[64];
    snprintf(key, sizeof key, "gamename.%s", g->id);
    if (lang != PL_LANG_EN && pl_words_find(lang, key) && menu_summary(g, &m->opts, lang, &sum) == 0) {
        name = pl_words(lang, key); /* the browser's summary in the player's language, items one a line */
    } else {
        pl_buf_clear(&sum);
        pl_buf_puts(&sum, g->summary);
        for (size_t i = 1; i + 1 < sum.len; i++)
            if (sum.s[i] == '\n' && sum.s[i - 1] != '\n' && sum.s[i + 1] != '\n' && sum.s[i + 1] != ' ' &&
                sum.s[i + 1] != '-' && sum.s[i + 1] != '*')
                sum.s[i] = ' ';
    }
    pl_buf_printf(&t, "%s\n\n%s\n\n%s\n%s\n%s\n%s", name, pl_buf_str(&sum), pl_words(lang, "tui.rules.options"),
                  pl_buf_str(&o), pl_words(lang, "tui.rules.levels"), pl_buf_str(&lv));
    pl_buf_free(&sum);
    show_page(pl_words(lang, "tui.page.rules"), pl_buf_str(&t));
    pl_buf_free(&t);
    pl_buf_free(&o);
    pl_buf_free(&lv);
}

/* The log page: what each move of the game did, as seat `viewer` may know
 * it, one numbered line a move (tell.h: the seat, where its piece went or
 * the card it played, and what the game tells of it: captures, tricks
 * won, scores); a roll or a deal goes on the line of the move after it.
 * Replays the history from the initial state. */
static void show_log(const pl_match *m, int viewer)
{
    const pl_game *g = m->game;
    pl_buf t = {0}, line = {0};
    void *st = pl_malloc(g->state_size), *before = pl_malloc(g->state_size);
    int moves = 0;
    if (st && before) {
        pl_state_copy(g, st, m->initial);
        for (int i = 0; i < m->nhist; i++) {
            const pl_move *mv = &m->hist[i];
            pl_state_copy(g, before, st);
            g->apply(st, mv->seat, mv->a);
            tell_action(g, before, mv->seat, mv->a, st, viewer, mv->seat == PL_CHANCE ? TELL_CHANCE : TELL_MOVE,
                        lang, &line);
            if (mv->seat == PL_CHANCE && i + 1 < m->nhist)
                continue; /* on the line of the move it allowed */
            pl_buf_printf(&t, "%d. %s\n", ++moves, pl_buf_str(&line));
            pl_buf_clear(&line);
        }
    }
    if (!t.len)
        pl_buf_puts(&t, pl_words(lang, "tui.log.empty"));
    show_page(pl_words(lang, "tui.page.log"), pl_buf_str(&t));
    pl_free(st);
    pl_free(before);
    pl_buf_free(&line);
    pl_buf_free(&t);
}

static void free_items(char **items, int n)
{
    for (int i = 0; i < n; i++)
        pl_free(items[i]);
}

/* Says in `msg` what the action just applied did: the last entry of `m`'s
 * history, applied to `before`. Every action of `play` (chance, computer,
 * forced, typed) passes here once, after it is applied, worded for the
 * seat whose screen it is (`viewer`) as sentences (tell.h); `together`:
 * seats were answering at once, so an answer is not shown. */
static void note_action(const pl_match *m, const void *before, tell_how how, int viewer, bool together, pl_buf *msg)
{
    const pl_move *mv = &m->hist[m->nhist - 1];
    if (together && how == TELL_MOVE)
        how = TELL_ANSWERED;
    tell_action(m->game, before, mv->seat, mv->a, m->state, viewer, how, lang, msg);
}

/* Appends why `seat`'s typed `cmd` was refused (`err`: the game's English
 * reason; `cmd` NULL for a number of the list): in English that reason; in
 * another language the game's refusal in the catalogue's words
 * (tell_refusal) when the move is well formed and the catalogue has them,
 * else the English reason. */
static void refused(const pl_match *m, int seat, const char *cmd, const pl_buf *err, pl_buf *msg)
{
    const pl_game *g = m->game;
    pl_action a;
    pl_buf perr = {0};
    bool worded = lang != PL_LANG_EN && cmd && seat >= 0 && g->parse_action(m->state, seat, cmd, &a, &perr) == 0 &&
                  tell_refusal(g, m->state, seat, a, lang, msg) == 0;
    pl_buf_free(&perr);
    if (!worded)
        pl_buf_puts(msg, pl_buf_str(err));
}

/* The `hint` command (docs/hints.md): the strongest move for `actor` from
 * its own view (ai_hint; the match's generator seeds it), in the menu's
 * words with its number, and its chance of winning, exact where `table`
 * (may be NULL: `play --table`) holds the position; appended to `msg`. */
static void give_hint(pl_match *m, const ai_perfect *table, int actor, const pl_action *acts, int n, pl_buf *msg)
{
    if (m->game->check) { /* karuta: played in real time, no hints */
        pl_buf_puts(msg, pl_words(lang, "tui.hint.realtime"));
        return;
    }
    pl_rng rng;
    pl_match_rng(m, 0x68696e74u + (uint64_t)actor, &rng); /* "hint" */
    ai_hint_result hr;
    pl_buf err = {0};
    ai_hint_params hp = {.table = table};
    if (ai_hint(m->game, m->state, actor, &hp, pl_rng_next(&rng), &hr, &err) < 0) {
        pl_words_put(msg, lang, "tui.hint.none", "why", pl_buf_str(&err), NULL);
    } else {
        pl_buf mv = {0};
        for (int i = 0; i < n; i++)
            if (acts[i] == hr.action)
                pl_buf_printf(&mv, "%d) ", i + 1);
        menu_item(m->game, m->state, actor, hr.action, lang, &mv);
        char pct[8];
        snprintf(pct, sizeof pct, "%d", (int)(hr.win * 100 + 0.5));
        pl_words_put(msg, lang, hr.exact ? "tui.hint.exact" : "tui.hint.estimate", "move", pl_buf_str(&mv), "pct",
                     pct, NULL);
        pl_buf_free(&mv);
    }
    pl_buf_free(&err);
}

static int play_loop(pl_match *m, seatcfg *seats, const char *save, const ai_perfect *table)
{
    const pl_game *g = m->game;
    int ns = g->num_seats(m->state);
    int humans = count_humans(seats, ns);
    int last_human = -1;
    for (int i = 0; i < ns; i++)
        if (seats[i].human && last_human < 0)
            last_human = i;
    pl_buf msg = {0};
    pl_action *acts = pl_malloc(sizeof *acts * PL_MAX_ACTIONS);
    char **items = pl_malloc(sizeof *items * PL_MAX_ACTIONS);
    void *before = pl_malloc(g->state_size); /* the state an action is applied to */
    if (!acts || !items || !before) {
        pl_free(acts);
        pl_free(items);
        pl_free(before);
        return 1;
    }
    int screen_owner = last_human;
    for (;;) {
        pl_phase ph = g->phase(m->state);
        int actor = pl_sole_actor(g, m->state);
        /* Chance and AI seats act by themselves. */
        pl_state_copy(g, before, m->state);
        if (ph == PL_PHASE_CHANCE) {
            pl_action a;
            pl_buf e = {0};
            int rc = pl_match_random(m, &a, &e);
            if (rc == 0)
                note_action(m, before, TELL_CHANCE, screen_owner, false, &msg);
            else
                tell_join(&msg, pl_buf_str(&e));
            pl_buf_free(&e);
            autosave(m, save, &msg);
            if (rc < 0) /* a chance phase that cannot draw must not spin */
                break;
            continue;
        }
        if (ph == PL_PHASE_MOVE && actor < 0) {
            /* Several seats at once: AI seats first, then humans in order. */
            int sl[PL_MAX_SEATS];
            int n = g->actors(m->state, sl);
            actor = sl[0];
            for (int i = 0; i < n; i++)
                if (!seats[sl[i]].human) {
                    actor = sl[i];
                    break;
                }
        }
        int others[PL_MAX_SEATS];
        bool together = ph == PL_PHASE_MOVE && g->actors(m->state, others) > 1;
        int n = ph == PL_PHASE_MOVE ? pl_legal_all(g, m->state, actor, acts) : 0;
        if (ph == PL_PHASE_MOVE && (!seats[actor].human || n == 1)) {
            /* A computer's move, or a human's only legal one, played for them. */
            pl_action a = n > 0 ? acts[0] : 0;
            pl_buf e = {0};
            int rc = 0;
            if (!seats[actor].human) {
                pl_rng r;
                pl_match_rng(m, (uint64_t)actor + 1, &r);
                rc = ai_player_choose(seats[actor].ai, m->state, actor, pl_rng_next(&r), &a, &e);
            }
            if (rc == 0)
                rc = pl_match_play(m, actor, a, &e);
            if (rc == 0)
                note_action(m, before, seats[actor].human ? TELL_FORCED : TELL_MOVE, screen_owner, together,
                            &msg);
            else /* a broken AI seat must not spin: say so and stop */
                tell_join(&msg, pl_buf_str(&e));
            pl_buf_free(&e);
            autosave(m, save, &msg);
            if (rc < 0)
                break;
            if (humans > 0 && !seats[actor].human) {
                pl_canvas c = {.seat_from = 1, .lang = lang}; /* seats counted from 1 on the screen */
                g->draw(m->state, (g->flags & PL_GAME_HIDDEN) ? screen_owner : -1, &c);
                screen s = {.board = &c, .msg = pl_buf_str(&msg)};
                screen_draw(&s);
                pl_canvas_free(&c);
                napms(250);
            }
            continue;
        }
        if (ph == PL_PHASE_MOVE && (g->flags & PL_GAME_HIDDEN) && humans > 1 && actor != screen_owner &&
            !same_picture(g, m->state, actor, screen_owner)) {
            /* What was said was worded for the previous player's eyes. */
            pl_buf_clear(&msg);
            if (hand_over(actor) < 0)
                break;
        }
        int viewer = ph == PL_PHASE_MOVE ? actor : -1;
        if (ph == PL_PHASE_MOVE)
            screen_owner = actor;
        pl_canvas c = {.seat_from = 1, .lang = lang}; /* the last move marked (game.h, mark_move); Ur says "you" */
        pl_match_draw(m, (g->flags & PL_GAME_HIDDEN) ? viewer : screen_owner, &c);
        pl_buf head = {0};
        int nitems = 0;
        if (ph == PL_PHASE_OVER) {
            result_sentence(g, m->state, &head);
        } else {
            pl_buf who = {0};
            char nn[16];
            snprintf(nn, sizeof nn, "%d", n);
            tell_seat(g, m->state, actor, lang, &who);
            pl_words_put(&head, lang, "tui.to_act", "seat", pl_buf_str(&who), "n", nn, NULL);
            pl_buf_free(&who);
            for (; nitems < n; nitems++) {
                pl_buf t = {0};
                pl_buf_printf(&t, "%d) ", nitems + 1);
                menu_item(g, m->state, actor, acts[nitems], lang, &t); /* "A4 → B1"; "enter: 新しい駒 → A3" */
                items[nitems] = pl_malloc(t.len + 1);
                if (!items[nitems]) {
                    pl_buf_free(&t);
                    break;
                }
                memcpy(items[nitems], pl_buf_str(&t), t.len + 1);
                pl_buf_free(&t);
            }
        }
        screen s = {.board = &c,
                    .msg = pl_buf_str(&msg),
                    .head = pl_buf_str(&head),
                    .items = items,
                    .nitems = nitems,
                    .hint = pl_words(lang, ph == PL_PHASE_OVER ? "tui.hint.over" : "tui.hint.move")};
        char line[512];
        int rd = screen_read(&s, line, sizeof line);
        free_items(items, nitems);
        pl_buf_free(&head);
        pl_canvas_free(&c);
        if (rd < 0)
            break;
        pl_buf_clear(&msg);
        char *cmd = line;
        while (*cmd == ' ')
            cmd++;
        for (size_t l = strlen(cmd); l > 0 && cmd[l - 1] == ' '; l--)
            cmd[l - 1] = '\0';
        if (!*cmd)
            continue;
        if (!strcmp(cmd, "quit") || !strcmp(cmd, "q"))
            break;
        if (!strcmp(cmd, "undo")) {
            undo_to_human(m, seats, screen_owner, acts, &msg);
            autosave(m, save, &msg);
            continue;
        }
        if (!strncmp(cmd, "save", 4) && (cmd[4] == ' ' || !cmd[4])) {
            const char *path = cmd[4] ? cmd + 5 : save;
            pl_buf e = {0};
            if (!path || !*path)
                pl_buf_puts(&msg, pl_words(lang, "tui.save.where"));
            else if (pl_record_save_file(m, path, &e) < 0)
                pl_buf_puts(&msg, pl_buf_str(&e));
            else
                pl_words_put(&msg, lang, "tui.saved", "path", path, NULL);
            pl_buf_free(&e);
            continue;
        }
        if (!strcmp(cmd, "rules")) {
            show_rules(m);
            continue;
        }
        if (!strcmp(cmd, "log")) { /* what happened so far, as this screen's seat knows it */
            show_log(m, (g->flags & PL_GAME_HIDDEN) ? viewer : screen_owner);
            continue;
        }
        if (ph != PL_PHASE_MOVE) {
            pl_buf_puts(&msg, pl_words(lang, "tui.over"));
            continue;
        }
        if (!strcmp(cmd, "hint") || !strcmp(cmd, "?")) {
            give_hint(m, table, actor, acts, n, &msg);
            continue;
        }
        size_t digits = strspn(cmd, "0123456789");
        pl_buf e = {0};
        int rc;
        if (!cmd[digits]) { /* a number: one of the list */
            long k = digits <= 6 ? strtol(cmd, NULL, 10) : 0;
            if (k >= 1 && k <= n)
                rc = pl_match_play(m, actor, acts[k - 1], &e);
            else {
                rc = -1;
                char nn[16];
                snprintf(nn, sizeof nn, "%d", n);
                pl_words_put(&e, lang, "tui.no_move", "n", cmd, "max", nn, NULL);
            }
        } else {
            rc = pl_match_play_text(m, actor, cmd, &e);
        }
        if (rc < 0)
            refused(m, actor, cmd[digits] ? cmd : NULL, &e, &msg);
        else
            /* one player saw what he typed; at a shared keyboard the next one did not */
            note_action(m, before, humans > 1 ? TELL_MOVE : TELL_TYPED, screen_owner, together, &msg);
        pl_buf_free(&e);
        autosave(m, save, &msg);
    }
    pl_free(before);
    pl_free(acts);
    pl_free(items);
    pl_buf_free(&msg);
    return 0;
}

/* Checks that `path` can be read, so that a missing file is named as such
 * rather than as a parse error. Returns 0, or -1 with "cannot open PATH: why". */
static int check_readable(const char *path, pl_buf *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        pl_buf_printf(err, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    fclose(f);
    return 0;
}

int cli_play(int argc, char **argv)
{
    static const struct option lo[] = {{"seat", required_argument, 0, 's'},
                                       {"save", required_argument, 0, 'o'},
                                       {"load", required_argument, 0, 'l'},
                                       {"lang", required_argument, 0, 'L'},
                                       {"table", required_argument, 0, 'T'},
                                       {"help", no_argument, 0, 'h'},
                                       {0, 0, 0, 0}};
    if (term_lang(argc, argv, "parlour play", &lang) < 0)
        return 2;
    const char *table_path = NULL;
    seatcfg seats[PL_MAX_SEATS];
    memset(seats, 0, sizeof seats);
    seats[0].human = 1;
    const char *save = NULL, *load = NULL;
    pl_buf err = {0};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
        switch (c) {
        case 's':
            if (parse_seat_arg(optarg, seats, &err) < 0) {
                fprintf(stderr, "parlour play: %s\n", pl_buf_str(&err));
                pl_buf_free(&err);
                return 2;
            }
            break;
        case 'o': save = optarg; break;
        case 'l': load = optarg; break;
        case 'T': table_path = optarg; break;
        case 'L': break; /* read by term_lang above */
        case 'h': {
            pl_buf ai = {0};
            ai_describe(&ai);
            fputs(pl_words(lang, "tui.help.play"), stdout);
            printf("%s", pl_buf_str(&ai)); /* the AI players' specs are the engine's: English */
            fputs(pl_words(lang, "tui.help.play.table"), stdout);
            pl_buf_free(&ai);
            return 0;
        }
        default: return 2;
        }
    }
    pl_match *m = NULL;
    if (load) {
        if (check_readable(load, &err) == 0)
            m = pl_record_load_file(load, &err);
        if (!save)
            save = load; /* resuming keeps the same record up to date */
    } else {
        if (optind >= argc) {
            fprintf(stderr, "parlour play: %s\n", pl_words(lang, "tui.err.which_game"));
            return 2;
        }
        const pl_game *g = pl_game_find(argv[optind]);
        if (!g) {
            pl_buf t = {0};
            pl_words_put(&t, lang, "tui.err.unknown_game", "game", argv[optind], NULL);
            fprintf(stderr, "parlour play: %s\n", pl_buf_str(&t));
            pl_buf_free(&t);
            return 2;
        }
        m = pl_match_new(g, argc - optind - 1, argv + optind + 1, &err);
    }
    if (!m) {
        fprintf(stderr, "parlour play: %s\n", pl_buf_str(&err));
        pl_buf_free(&err);
        return 2;
    }
    /* --table: the hints exact where it holds the position (the loader of
     * `parlour review --table`: the game's own tables or the generic solver's) */
    ai_perfect *table = NULL;
    if (table_path && !(table = ai_perfect_load(m->game, table_path, &err))) {
        fprintf(stderr, "parlour play: %s\n", pl_buf_str(&err));
        pl_buf_free(&err);
        pl_match_free(m);
        return 2;
    }
    int ns = m->game->num_seats(m->state);
    for (int i = 0; i < ns; i++) {
        char who[80];
        seat_label(seats, i, who, sizeof who);
        pl_match_set_player(m, i, who);
        /* Each AI seat's player is made once (a perfect: table loads here). */
        if (!seats[i].human && !(seats[i].ai = ai_player_new(m->game, seats[i].spec, &err))) {
            fprintf(stderr, "parlour play: seat %d: %s\n", i, pl_buf_str(&err));
            for (int j = 0; j < i; j++)
                ai_player_free(seats[j].ai);
            pl_buf_free(&err);
            ai_perfect_free(table);
            pl_match_free(m);
            return 2;
        }
    }
    term_start();
    play_loop(m, seats, save, table);
    endwin(); /* nothing more on the shell: the record, if asked for, is saved */
    for (int i = 0; i < ns; i++)
        ai_player_free(seats[i].ai);
    ai_perfect_free(table);
    pl_match_free(m);
    return 0;
}

/* ---- Replay ---- */

/* State after the first `k` actions of `m`, into `st`. */
static void state_at(const pl_match *m, int k, void *st)
{
    pl_state_copy(m->game, st, m->initial);
    for (int i = 0; i < k; i++)
        m->game->apply(st, m->hist[i].seat, m->hist[i].a);
}

/* Appends "start" or "after K: seat S ACTION" / "after K: chance ACTION"
 * (S counted from 1, as the screens count; ACTION the notation). */
static void describe_action(const pl_match *m, int k, pl_buf *out)
{
    if (k == 0) {
        pl_buf_puts(out, "start");
        return;
    }
    const pl_move *mv = &m->hist[k - 1];
    pl_buf_printf(out, "after %d: ", k);
    if (mv->seat == PL_CHANCE)
        pl_buf_puts(out, "chance ");
    else
        pl_buf_printf(out, "seat %d ", mv->seat + 1);
    void *prev = pl_malloc(m->game->state_size);
    if (!prev) {
        out->oom = true;
        return;
    }
    state_at(m, k - 1, prev);
    m->game->format_action(prev, mv->seat, mv->a, out);
    pl_free(prev);
}

/* The replay's stops: the start, after every move, and the end. Chance is
 * folded into the move it precedes (a roll and the move it allowed are one
 * step). Fills `stop` (room for nhist + 1) and returns the count. */
static int replay_stops(const pl_match *m, int *stop)
{
    int n = 0;
    stop[n++] = 0;
    for (int k = 1; k <= m->nhist; k++)
        if (m->hist[k - 1].seat != PL_CHANCE || k == m->nhist)
            stop[n++] = k;
    return n;
}

/* Appends what happened between stops `a` and `b` (actions a+1 .. b), as
 * sentences (tell.h) for someone who sees everything. */
static void describe_step(const pl_match *m, int a, int b, void *st, pl_buf *out)
{
    const pl_game *g = m->game;
    void *before = pl_malloc(g->state_size);
    if (!before) {
        out->oom = true;
        return;
    }
    state_at(m, a, st);
    for (int i = a; i < b; i++) {
        const pl_move *mv = &m->hist[i];
        pl_state_copy(g, before, st);
        g->apply(st, mv->seat, mv->a);
        tell_action(g, before, mv->seat, mv->a, st, -1, mv->seat == PL_CHANCE ? TELL_CHANCE : TELL_MOVE, lang,
                    out);
    }
    pl_free(before);
}

/* ---- The replay's review (issue 34): `r` on the replay screen ---- */

/* A review in words (cli_review_lines) gathered for the replay: the page's
 * text (the summary, then the decisions numbered from 1) and each
 * decision's history index and line. */
typedef struct replay_review {
    pl_buf page;
    int *index;   /* history index of decision k */
    char **line;  /* its line in words */
    int n, cap;
    bool oom;
} replay_review;

static void replay_review_put(void *ctx, int index, const char *line)
{
    replay_review *rv = ctx;
    if (index < 0) {
        pl_buf_printf(&rv->page, "%s\n", line);
        return;
    }
    if (rv->n == rv->cap) {
        int nc = rv->cap ? 2 * rv->cap : 32;
        int *ni = pl_realloc(rv->index, sizeof *ni * (size_t)nc);
        if (ni)
            rv->index = ni;
        char **nl = ni ? pl_realloc(rv->line, sizeof *nl * (size_t)nc) : NULL;
        if (!nl) {
            rv->oom = true;
            return;
        }
        rv->line = nl;
        rv->cap = nc;
    }
    size_t len = strlen(line);
    char *copy = pl_malloc(len + 1);
    if (!copy) {
        rv->oom = true;
        return;
    }
    memcpy(copy, line, len + 1);
    if (rv->n == 0)
        pl_buf_printf(&rv->page, "\n%s\n", pl_words(lang, "tui.review.decisions"));
    rv->index[rv->n] = index;
    rv->line[rv->n++] = copy;
    pl_buf_printf(&rv->page, "%d) %s\n", rv->n, line);
}

static void replay_review_free(replay_review *rv)
{
    for (int k = 0; k < rv->n; k++)
        pl_free(rv->line[k]);
    pl_free(rv->line);
    pl_free(rv->index);
    pl_buf_free(&rv->page);
    memset(rv, 0, sizeof *rv);
}

/* The replay's stop that shows action `index` played: the first stop past it. */
static int replay_stop_of(const int *stop, int nstops, int index)
{
    for (int i = 1; i < nstops; i++)
        if (stop[i] > index)
            return i;
    return nstops - 1;
}

/* Appends to `msg` the review's line of every decision between stops
 * `a` and `b` (actions a .. b-1), "Review: …". */
static void replay_review_note(const replay_review *rv, int a, int b, pl_buf *msg)
{
    for (int k = 0; k < rv->n; k++)
        if (rv->index[k] >= a && rv->index[k] < b) {
            pl_buf t = {0};
            pl_words_put(&t, lang, "tui.review.note", "line", rv->line[k], NULL);
            tell_join(msg, pl_buf_str(&t));
            pl_buf_free(&t);
        }
}

/* The `r` key: reviews the game once (the board stays up with "Reviewing
 * the game…" meanwhile), then shows the review page; a decision's number
 * typed there returns its stop in *go. Returns 0, or -1 with a message in
 * `msg` when the game cannot be reviewed. */
static int replay_review_show(const pl_match *m, const ai_perfect *table, long iterations, replay_review *rv,
                              bool *done, screen *s, const int *stop, int nstops, int *go, pl_buf *msg)
{
    if (m->game->check) { /* karuta: played in real time, no reviews */
        pl_buf_puts(msg, pl_words(lang, "tui.review.realtime"));
        return -1;
    }
    if (!*done) {
        s->msg = pl_words(lang, "tui.review.working");
        screen_draw(s);
        pl_buf err = {0};
        if (cli_review_lines(m, table, iterations, 1, lang, replay_review_put, rv, &err) < 0 || rv->oom) {
            pl_words_put(msg, lang, "tui.review.none", "why", err.len ? pl_buf_str(&err) : "out of memory", NULL);
            pl_buf_free(&err);
            replay_review_free(rv);
            return -1;
        }
        pl_buf_free(&err);
        *done = true;
    }
    char num[8];
    if (page_read(pl_words(lang, "tui.review.title"), pl_buf_str(&rv->page), pl_words(lang, "tui.review.foot"), num,
                  sizeof num) == 0 && num[0]) {
        long k = strtol(num, NULL, 10);
        if (k >= 1 && k <= rv->n)
            *go = replay_stop_of(stop, nstops, rv->index[k - 1]);
        else {
            char mx[16];
            snprintf(mx, sizeof mx, "%d", rv->n);
            pl_words_put(msg, lang, "tui.review.no_such", "n", num, "max", mx, NULL);
        }
    }
    return 0;
}

int cli_replay(int argc, char **argv)
{
    static const struct option lo[] = {{"text", no_argument, 0, 't'},
                                       {"lang", required_argument, 0, 'L'},
                                       {"table", required_argument, 0, 'T'},
                                       {"iterations", required_argument, 0, 'i'},
                                       {"help", no_argument, 0, 'h'},
                                       {0, 0, 0, 0}};
    int text = 0, c;
    const char *table_path = NULL;
    long iterations = 0; /* the review's search: 0, its default */
    if (term_lang(argc, argv, "parlour replay", &lang) < 0)
        return 2;
    optind = 1;
    while ((c = getopt_long(argc, argv, "th", lo, NULL)) != -1) {
        char *end = NULL;
        if (c == 't')
            text = 1;
        else if (c == 'L')
            continue; /* read by term_lang above */
        else if (c == 'T')
            table_path = optarg;
        else if (c == 'i') {
            iterations = strtol(optarg, &end, 10);
            if (*end || iterations < 1 || iterations > 1000000) {
                fprintf(stderr, "parlour replay: %s\n", pl_words(lang, "tui.err.iterations"));
                return 2;
            }
        } else if (c == 'h') {
            fputs(pl_words(lang, "tui.help.replay"), stdout);
            fputs(pl_words(lang, "tui.help.replay.review"), stdout);
            return 0;
        } else
            return 2;
    }
    if (optind >= argc) {
        fprintf(stderr, "parlour replay: %s\n", pl_words(lang, "tui.err.which_record"));
        return 2;
    }
    pl_buf err = {0};
    pl_match *m = NULL;
    if (check_readable(argv[optind], &err) == 0)
        m = pl_record_load_file(argv[optind], &err);
    if (!m) {
        fprintf(stderr, "parlour replay: %s\n", pl_buf_str(&err));
        pl_buf_free(&err);
        return 1;
    }
    const pl_game *g = m->game;
    ai_perfect *table = NULL; /* Ur's review exact where it holds the game (perfect.h's loader) */
    if (table_path && !(table = ai_perfect_load(g, table_path, &err))) {
        fprintf(stderr, "parlour replay: %s\n", pl_buf_str(&err));
        pl_buf_free(&err);
        pl_match_free(m);
        return 2;
    }
    pl_buf_free(&err);
    void *st = pl_malloc(g->state_size);
    int *stop = pl_malloc(sizeof *stop * ((size_t)m->nhist + 1));
    if (!st || !stop) {
        pl_free(st);
        pl_free(stop);
        ai_perfect_free(table);
        pl_match_free(m);
        return 1;
    }
    if (text) {
        for (int k = 0; k <= m->nhist; k++) {
            state_at(m, k, st);
            pl_buf b = {0};
            describe_action(m, k, &b);
            printf("== %s\n", pl_buf_str(&b));
            pl_buf_clear(&b);
            pl_show(g, st, -1, &b);
            fputs(pl_buf_str(&b), stdout);
            pl_buf_free(&b);
        }
        pl_free(st);
        pl_free(stop);
        ai_perfect_free(table);
        pl_match_free(m);
        return 0;
    }
    int nstops = replay_stops(m, stop);
    term_start();
    int i = 0;
    replay_review rv = {0};
    bool reviewed = false;
    pl_buf note = {0}; /* a line for the next screen only: why there is no review */
    for (;;) {
        pl_buf head = {0}, what = {0};
        if (i == 0)
            pl_buf_puts(&what, pl_words(lang, "tui.replay.start"));
        else
            describe_step(m, stop[i - 1], stop[i], st, &what);
        char ni[16], nn[16];
        snprintf(ni, sizeof ni, "%d", i);
        snprintf(nn, sizeof nn, "%d", nstops - 1);
        pl_words_put(&head, lang, "tui.replay.step", "i", ni, "n", nn, "what", pl_buf_str(&what), NULL);
        state_at(m, stop[i], st);
        if (g->phase(st) == PL_PHASE_OVER) {
            pl_buf_clear(&what);
            result_sentence(g, st, &what);
            tell_join(&head, pl_buf_str(&what));
        }
        size_t told = head.len;
        if (i > 0)
            replay_review_note(&rv, stop[i - 1], stop[i], &head);
        if (note.len)
            tell_join(&head, pl_buf_str(&note));
        pl_buf_clear(&note);
        pl_canvas cv = {.seat_from = 1, .lang = lang};
        g->draw(st, -1, &cv);
        screen s = {.board = &cv, .msg = pl_buf_str(&head), /* wrapped: a step's sentences may be long */
                    .hint = pl_words(lang, "tui.replay.hint.review"),
                    .msg_min = head.len > told ? MSG_MAX_ROWS : 0}; /* a review's note: the board scrolls */
        screen_draw(&s);
        int ch = getch();
        if (ch == 'r') /* the review: every seat's decisions, each from its decider's own view */
            replay_review_show(m, table, iterations, &rv, &reviewed, &s, stop, nstops, &i, &note);
        pl_canvas_free(&cv);
        pl_buf_free(&head);
        pl_buf_free(&what);
        if (ch == 'q' || ch == ERR || ch == KEY_CTRL_D)
            break;
        if ((ch == KEY_RIGHT || ch == 'n' || ch == ' ' || ch == '\n') && i + 1 < nstops)
            i++;
        else if ((ch == KEY_LEFT || ch == 'p' || ch == KEY_BACKSPACE) && i > 0)
            i--;
        else if (ch == KEY_HOME || ch == 'g')
            i = 0;
        else if (ch == KEY_END || ch == 'e' || ch == 'G')
            i = nstops - 1;
    }
    endwin();
    replay_review_free(&rv);
    pl_buf_free(&note);
    pl_free(st);
    pl_free(stop);
    ai_perfect_free(table);
    pl_match_free(m);
    return 0;
}
