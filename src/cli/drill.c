/* drill.c — `parlour karuta drill kimariji|listen|flip|weakest`: the karuta
 * drills in the terminal (issue 34 §4; the one spec: docs/drills.md). The
 * engine (src/games/karuta/public/kar_drill.h) schedules the cards and grades
 * the answers; this file lays out the field, shows the prompt (the kana of
 * the upper verse, the reading at its pace, or the card to flip), reads the
 * keys with their times, and keeps the player's record in a file after every
 * answer. A --script FILE run replaces the terminal and the clock (tests, the
 * scripted ten minutes of docs/drills.md) and prints one line a question.
 */
#include <curses.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <wchar.h>

#include "kar_drill.h"
#include "parlour/canvas.h"
#include "parlour/words.h"
#include "cli.h"
#include "term.h"

#define DR_COLS 4        /* cards in a row of the field */
#define DR_CELL 20       /* columns of a cell: "A1 " and eight characters, a gap */
#define DR_HEAD 8        /* characters of a card's text shown (kar_card_unique: at most 8 tell it) */
#define DR_KIM_MAX 52    /* the kimariji drill's field: thirteen rows A-M */
#define DR_LISTEN_MAX 24 /* the listening drill: three rows a side */
#define DR_POLL_MS 10
#define DR_PAUSE_MS 1500 /* listening: the pause before a reading */
#define DR_MINW 80       /* the screen's width: answers and hints are cut to it */

static const char usage_text[] =
    "usage: parlour karuta drill kimariji|listen|flip [--cards N] [--read N,N,...] [--questions N]\n"
    "                            [--progress FILE] [--lang xx] [--script FILE]\n"
    "       parlour karuta drill weakest [--cards N] [--progress FILE] [--lang xx]\n"
    "Karuta drills (docs/drills.md). kimariji: the first kana of a poem are shown, type the\n"
    "label of its card; the prefix shortens to the kimariji as you improve (--read: the\n"
    "dynamic kimariji once those poems are read). listen: the upper verse is shown at the\n"
    "reading's pace, touch the card (type its label). flip: a card is shown, type the kimariji\n"
    "of its upper verse (kana or romaji). Progress is kept in FILE (default\n"
    "$XDG_DATA_HOME/parlour/drills.json, else ~/.local/share/parlour/drills.json); weakest\n"
    "lists your weakest cards. --cards: the field (kimariji 12, at most 52; listen 24, at\n"
    "most 24; flip 24, at most 100). --questions: stop after N. --script FILE: no terminal,\n"
    "answers from FILE (right@MS, wrong@MS, pass, none, type:TEXT@MS, quit), one line each;\n"
    "a script run keeps progress only with --progress; --screen prints each question's screen.\n";

typedef struct drill {
    int kind;
    pl_lang lang;
    kar_drill_rec rec;
    bool read[KAR_DRILL_POEMS + 1];
    int nread;
    int field[KAR_DRILL_POEMS], nf;
    char label[KAR_DRILL_POEMS + 1][4]; /* the label of each field card, "" when not on it */
    int row_of[KAR_DRILL_POEMS + 1], col_of[KAR_DRILL_POEMS + 1];
    const char *path; /* the progress file, NULL: none kept */
    FILE *script;
    bool dump;        /* --script with --screen: print the screen of each question */
    int questions;    /* stop after this many, 0: no limit */
    /* the question */
    int q, card, kim, shown, prev;
    int nkana, end_ms, decide_ms, heard; /* listening: the reading, the kana shown so far */
    char kana[KAR_DRILL_TL_MAX][4];
    int start_ms[KAR_DRILL_TL_MAX];
    char input[128]; /* the keys typed for this question */
    char msg[600];   /* the last answer, in words */
    /* the session's figures */
    int ngrade[3];
    long shown_first, shown_last; /* the kimariji drill: kana shown, first and last 20 questions */
    int nfirst, nlast, at_kim;
    int last_shown[20], last_kim[20];
    bool quit;
    struct timespec t0;
} drill;

/* ---- words ---- */

/* Appends the catalogue's `key` in the drill's language, {name}s filled from
 * the (name, value) pairs that follow, up to eight, ending with NULL. */
static void dr_put(const drill *d, pl_buf *out, const char *key, ...)
{
    const char *nv[16] = {0};
    va_list ap;
    va_start(ap, key);
    for (int i = 0; i < 16; i += 2) {
        if (!(nv[i] = va_arg(ap, const char *)))
            break;
        nv[i + 1] = va_arg(ap, const char *);
    }
    va_end(ap);
    pl_words_put(out, d->lang, key, nv[0], nv[1], nv[2], nv[3], nv[4], nv[5], nv[6], nv[7], nv[8], nv[9], nv[10],
                 nv[11], nv[12], nv[13], nv[14], nv[15], NULL);
}

static const char *dr_num(char *b, long v)
{
    snprintf(b, 24, "%ld", v);
    return b;
}

/* ms as seconds with one decimal ("1.2"). */
static const char *dr_secs(char *b, int ms)
{
    snprintf(b, 24, "%d.%d", ms / 1000, ms % 1000 / 100);
    return b;
}

/* ---- the progress file ---- */

/* The default progress file into `out` (`cap` bytes); false when neither
 * XDG_DATA_HOME nor HOME is set. */
static bool dr_default_path(char *out, size_t cap)
{
    const char *x = getenv("XDG_DATA_HOME"), *h = getenv("HOME");
    if (x && *x)
        snprintf(out, cap, "%s/parlour/drills.json", x);
    else if (h && *h)
        snprintf(out, cap, "%s/.local/share/parlour/drills.json", h);
    else
        return false;
    return true;
}

/* Loads `path` into `r`: an absent file is an empty record. Returns 0, or
 * -1 with the reason in `err`. */
static int dr_load(const char *path, kar_drill_rec *r, pl_buf *err)
{
    kar_drill_rec_init(r);
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (errno == ENOENT)
            return 0;
        pl_buf_puts(err, strerror(errno));
        return -1;
    }
    pl_buf text = {0};
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0 && text.len < (1u << 22))
        pl_buf_append(&text, chunk, n);
    bool bad = ferror(f);
    fclose(f);
    int rc = bad ? (pl_buf_puts(err, "read error"), -1) : kar_drill_rec_from_json(r, pl_buf_str(&text), err);
    pl_buf_free(&text);
    return rc;
}

/* Creates the folders above `path` (mkdir -p of its directory). */
static void dr_mkdirs(const char *path)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", path);
    for (char *s = dir + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            mkdir(dir, 0755);
            *s = '/';
        }
}

/* Writes the record to `path` (a temporary file renamed over it). Returns 0
 * or -1 with the reason in `err`. */
static int dr_save(const char *path, const kar_drill_rec *r, pl_buf *err)
{
    dr_mkdirs(path);
    char tmp[1100];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    pl_buf b = {0};
    kar_drill_rec_to_json(r, &b);
    FILE *f = fopen(tmp, "wb");
    int rc = -1;
    if (f) {
        bool ok = fwrite(pl_buf_str(&b), 1, b.len, f) == b.len && !b.oom;
        ok = fclose(f) == 0 && ok;
        rc = ok && rename(tmp, path) == 0 ? 0 : -1;
    }
    if (rc)
        pl_buf_puts(err, strerror(errno));
    pl_buf_free(&b);
    return rc;
}

/* ---- the field ---- */

/* Lays the field out: the kimariji and flip drills in rows A.. of five,
 * sorted by number; listening as a match (docs/drills.md): the field's
 * cards dealt alternately to your side (rows A-C, A nearest you, drawn at
 * the bottom) and the other (D-F, D nearest its owner, drawn at the top). */
static void dr_layout(drill *d)
{
    memset(d->label, 0, sizeof d->label);
    if (d->kind != KAR_DRILL_LISTEN) {
        int v[KAR_DRILL_POEMS], n = d->nf;
        memcpy(v, d->field, sizeof v[0] * (size_t)n);
        for (int i = 1; i < n; i++)
            for (int k = i; k > 0 && v[k - 1] > v[k]; k--) {
                int t = v[k];
                v[k] = v[k - 1];
                v[k - 1] = t;
            }
        for (int i = 0; i < n; i++) {
            snprintf(d->label[v[i]], 4, "%c%d", 'A' + i / DR_COLS, i % DR_COLS + 1);
            d->row_of[v[i]] = i / DR_COLS;
            d->col_of[v[i]] = i % DR_COLS;
        }
        return;
    }
    int k[2] = {0, 0};
    for (int i = 0; i < d->nf; i++) {
        int c = d->field[i], side = i % 2, j = k[side]++;
        int r = j / DR_COLS; /* 0: the row nearest its owner */
        snprintf(d->label[c], 4, "%c%d", (side ? 'D' : 'A') + r, j % DR_COLS + 1);
        d->row_of[c] = side ? r : 6 - r; /* screen rows: D E F, a gap, C B A */
        d->col_of[c] = j % DR_COLS;
    }
}

/* The field card with label `lab` (case ignored), or 0. */
static int dr_card_at(const drill *d, const char *lab)
{
    for (int i = 0; i < d->nf; i++) {
        const char *l = d->label[d->field[i]];
        if ((lab[0] == l[0] || lab[0] == l[0] - 'A' + 'a') && !strcmp(lab + 1, l + 1))
            return d->field[i];
    }
    return 0;
}

/* ---- the screen ---- */

/* Puts `text` at row `y`, cut between words (or characters) into lines of
 * DR_MINW columns, `max` lines at most; returns the lines used. */
static int dr_wrap(pl_canvas *c, int y, pl_style st, const char *text, int max)
{
    int i = 0;
    while (i < max && *text) {
        size_t n = pl_words_fit(text, DR_MINW);
        if (text[n]) { /* cut at the last space that leaves something, if any */
            size_t k = n;
            while (k > 0 && text[k] != ' ')
                k--;
            n = k > 0 ? k : n;
        }
        char line[800];
        snprintf(line, sizeof line, "%.*s", (int)n, text);
        pl_canvas_put(c, y + i++, 0, st, line);
        text += n;
        while (*text == ' ')
            text++;
    }
    return i;
}

static void dr_screen(const drill *d, pl_canvas *c)
{
    char a[24], b[24], e[24];
    pl_buf t = {0};
    static const char *const titles[3] = {"drill.title.kimariji", "drill.title.listen", "drill.title.flip"};
    dr_put(d, &t, titles[d->kind], "n", dr_num(a, d->nf), "q", dr_num(b, d->q), NULL);
    if (d->nread)
        dr_put(d, &t, "drill.title.read", "n", dr_num(e, d->nread), NULL);
    pl_canvas_put(c, 0, 0, PL_ST_TITLE, pl_buf_str(&t));
    int y = 2;
    if (d->kind != KAR_DRILL_FLIP) {
        int rows = 0;
        for (int i = 0; i < d->nf; i++) {
            int card = d->field[i];
            pl_buf h = {0};
            kar_drill_card_text(card, DR_HEAD, &h);
            int x = d->col_of[card] * DR_CELL;
            int r = y + d->row_of[card];
            pl_canvas_put(c, r, x, PL_ST_MARK, d->label[card]);
            pl_canvas_put(c, r, x + 3, PL_ST_NORMAL, pl_buf_str(&h));
            pl_buf_free(&h);
            rows = d->row_of[card] + 1 > rows ? d->row_of[card] + 1 : rows;
        }
        if (d->kind == KAR_DRILL_LISTEN) {
            rows = 7;
            pl_buf s = {0};
            dr_put(d, &s, "drill.listen.sides", NULL);
            pl_canvas_put(c, y + 3, 0, PL_ST_DIM, pl_buf_str(&s));
            pl_buf_free(&s);
        }
        y += rows + 1;
    }
    pl_buf p = {0}, k = {0};
    if (d->card && d->kind == KAR_DRILL_KIMARIJI) {
        kar_drill_key(d->card, d->shown, &k);
        dr_put(d, &p, "drill.ask.kimariji", "kana", pl_buf_str(&k), NULL);
    } else if (d->card && d->kind == KAR_DRILL_LISTEN) {
        for (int i = 0; i < d->heard; i++)
            pl_buf_puts(&k, d->kana[i]);
        dr_put(d, &p, "drill.ask.listen", "kana", pl_buf_str(&k), NULL);
    } else if (d->card) {
        kar_drill_card_text(d->card, 0, &k);
        dr_put(d, &p, "drill.ask.flip", "card", pl_buf_str(&k), NULL);
    }
    pl_canvas_put(c, y++, 0, PL_ST_HILITE, pl_buf_str(&p));
    pl_buf_clear(&p);
    static const char *const hints[3] = {"drill.hint.kimariji", "drill.hint.listen", "drill.hint.flip"};
    dr_put(d, &p, hints[d->kind], NULL);
    y += dr_wrap(c, y, PL_ST_DIM, pl_buf_str(&p), 2);
    pl_canvas_printf(c, y++, 0, PL_ST_NORMAL, "> %s", d->input);
    y++;
    dr_wrap(c, y, PL_ST_NORMAL, d->msg, 2); /* the last answer */
    y += 3;
    char m[24];
    pl_buf_clear(&p);
    dr_put(d, &p, "drill.status", "q", dr_num(a, d->ngrade[0] + d->ngrade[1] + d->ngrade[2]), "good",
           dr_num(b, d->ngrade[0]), "slow", dr_num(e, d->ngrade[1]), "miss", dr_num(m, d->ngrade[2]), NULL);
    pl_canvas_put(c, y, 0, PL_ST_DIM, pl_buf_str(&p));
    pl_buf_free(&p);
    pl_buf_free(&k);
    pl_buf_free(&t);
}

static void dr_draw(const drill *d)
{
    if (d->script) {
        if (!d->dump)
            return;
        pl_canvas c = {0};
        c.lang = (int)d->lang;
        dr_screen(d, &c);
        pl_buf b = {0};
        pl_canvas_to_text(&c, &b);
        printf("--- screen %dx%d ---\n%s--- end of screen ---\n", c.cols, c.rows, pl_buf_str(&b));
        pl_buf_free(&b);
        pl_canvas_free(&c);
        return;
    }
    int h, w;
    getmaxyx(stdscr, h, w);
    erase();
    pl_canvas c = {0};
    c.lang = (int)d->lang;
    dr_screen(d, &c);
    if (w < c.cols || h < c.rows) {
        pl_buf b = {0};
        char x[24], y[24];
        pl_words_put(&b, d->lang, "tui.too_small", "w", dr_num(x, c.cols), "h", dr_num(y, c.rows), NULL);
        mvaddstr(0, 0, pl_buf_str(&b));
        pl_buf_free(&b);
    } else {
        term_put_canvas(&c, 0, 0);
    }
    pl_canvas_free(&c);
    refresh();
}

/* ---- time and keys ---- */

static int dr_elapsed(const drill *d)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int)((t.tv_sec - d->t0.tv_sec) * 1000 + (t.tv_nsec - d->t0.tv_nsec) / 1000000);
}

static void dr_clock_start(drill *d) { clock_gettime(CLOCK_MONOTONIC, &d->t0); }

/* A key from the terminal within `wait_ms` (-1: wait for one), as a wide
 * character in *wc; returns OK, KEY_CODE_YES (a function key in *wc) or ERR. */
static int dr_key(int wait_ms, wint_t *wc)
{
    timeout(wait_ms);
    return get_wch(wc);
}

/* ---- one question ---- */

/* The answer of one question: its card (0: none, pass), its typed text
 * (flip), its time. */
typedef struct dr_answer {
    bool quit, pass;
    int card, ms;
    char text[128];
} dr_answer;

/* Reads the script's next answer line. False at the end of the script or
 * on a bad token (then *bad is set after a message). */
static bool dr_script_answer(drill *d, dr_answer *a, bool *bad)
{
    char line[256];
    for (;;) {
        if (!fgets(line, sizeof line, d->script))
            return false;
        line[strcspn(line, "\r\n")] = '\0';
        char *s = line;
        while (*s == ' ')
            s++;
        if (!*s || *s == '#')
            continue;
        memset(a, 0, sizeof *a);
        int ms = 0;
        char *at = strrchr(s, '@');
        if (at)
            ms = atoi(at + 1);
        a->ms = ms;
        if (!strcmp(s, "quit"))
            a->quit = true;
        else if (!strcmp(s, "pass") || !strcmp(s, "none"))
            a->pass = true;
        else if (!strncmp(s, "right@", 6))
            a->card = d->card;
        else if (!strncmp(s, "wrong@", 6)) {
            for (int i = 0; i < d->nf && !a->card; i++)
                if (d->field[i] != d->card)
                    a->card = d->field[i];
            if (!a->card)
                a->pass = true;
        } else if (!strncmp(s, "type:", 5) && at) {
            *at = '\0';
            snprintf(a->text, sizeof a->text, "%s", s + 5);
        } else if (at && at - s >= 2 && at - s <= 3) {
            *at = '\0';
            if (!(a->card = dr_card_at(d, s)))
                a->pass = true;
        } else {
            fprintf(stderr, "parlour karuta drill: bad script line '%s' (right@MS, wrong@MS, LABEL@MS, pass, none, "
                            "type:TEXT@MS, quit)\n", s);
            *bad = true;
            return false;
        }
        if (d->kind == KAR_DRILL_FLIP && !strncmp(s, "right@", 6)) { /* the flip drill: the kimariji typed */
            pl_buf k = {0};
            kar_drill_key(d->card, d->kim, &k);
            snprintf(a->text, sizeof a->text, "%s", pl_buf_str(&k));
            pl_buf_free(&k);
        } else if (d->kind == KAR_DRILL_FLIP && !strncmp(s, "wrong@", 6)) {
            snprintf(a->text, sizeof a->text, "x");
        }
        return true;
    }
}

/* The kimariji and listening drills on the terminal: keys until a label is
 * complete, Space (pass) or q (quit); listening also shows the kana at the
 * reading's pace and stops at the touch window's end. */
static void dr_term_touch(drill *d, dr_answer *a)
{
    memset(a, 0, sizeof *a);
    d->input[0] = '\0';
    int deadline = d->kind == KAR_DRILL_LISTEN ? d->end_ms + KAR_DRILL_LISTEN_WAIT : -1;
    dr_clock_start(d);
    dr_draw(d);
    for (;;) {
        int now = dr_elapsed(d);
        if (deadline >= 0) {
            int heard = 0;
            while (heard < d->nkana && d->start_ms[heard] <= now)
                heard++;
            if (heard != d->heard) {
                d->heard = heard;
                dr_draw(d);
            }
            if (now >= deadline) {
                a->pass = true;
                a->ms = now;
                return;
            }
        }
        wint_t wc;
        int r = dr_key(deadline >= 0 ? DR_POLL_MS : -1, &wc);
        int t = dr_elapsed(d);
        if (r == ERR)
            continue;
        if (r == KEY_CODE_YES) {
            if (wc == KEY_RESIZE)
                dr_draw(d);
            else if (wc == KEY_BACKSPACE && d->input[0]) {
                d->input[strlen(d->input) - 1] = '\0';
                dr_draw(d);
            }
            continue;
        }
        if (wc == 'q' || wc == 'Q' || wc == 4 /* Ctrl-D */) {
            a->quit = true;
            return;
        }
        if (wc == ' ') {
            a->pass = true;
            a->ms = t;
            return;
        }
        if (wc == 127 || wc == 8) {
            if (d->input[0])
                d->input[strlen(d->input) - 1] = '\0';
            dr_draw(d);
            continue;
        }
        size_t n = strlen(d->input);
        bool letter = (wc >= 'a' && wc <= 'm') || (wc >= 'A' && wc <= 'M');
        if (n == 0 && letter) {
            d->input[0] = (char)wc;
            d->input[1] = '\0';
        } else if (n == 1 && wc >= '1' && wc <= '0' + DR_COLS) {
            d->input[1] = (char)wc;
            d->input[2] = '\0';
            int c = dr_card_at(d, d->input);
            if (c) {
                a->card = c;
                a->ms = t;
                return;
            }
            d->input[0] = '\0';
            pl_buf b = {0};
            dr_put(d, &b, "drill.no_card", NULL);
            snprintf(d->msg, sizeof d->msg, "%s", pl_buf_str(&b));
            pl_buf_free(&b);
        }
        dr_draw(d);
    }
}

/* The flip drill on the terminal: a line of text (kana or romaji), Enter. */
static void dr_term_line(drill *d, dr_answer *a)
{
    memset(a, 0, sizeof *a);
    d->input[0] = '\0';
    dr_clock_start(d);
    dr_draw(d);
    for (;;) {
        wint_t wc;
        int r = dr_key(-1, &wc);
        if (r == ERR)
            continue;
        size_t n = strlen(d->input);
        if (r == KEY_CODE_YES && wc == KEY_RESIZE) {
        } else if ((r == KEY_CODE_YES && wc == KEY_BACKSPACE) || (r == OK && (wc == 127 || wc == 8))) {
            while (n > 0 && ((unsigned char)d->input[n - 1] & 0xc0) == 0x80) /* a whole UTF-8 character */
                n--;
            if (n > 0)
                n--;
            d->input[n] = '\0';
        } else if (r == OK && wc == 4) {
            a->quit = true;
            return;
        } else if (r == OK && wc == 21) { /* Ctrl-U */
            d->input[0] = '\0';
        } else if ((r == OK && (wc == '\n' || wc == '\r')) || (r == KEY_CODE_YES && wc == KEY_ENTER)) {
            a->ms = dr_elapsed(d);
            if (!strcmp(d->input, "quit"))
                a->quit = true;
            else if (!d->input[0])
                a->pass = true;
            snprintf(a->text, sizeof a->text, "%s", d->input);
            return;
        } else if (r == OK && wc >= ' ') {
            char u[8];
            mbstate_t ps = {0};
            size_t k = wcrtomb(u, (wchar_t)wc, &ps);
            if (k != (size_t)-1 && n + k < sizeof d->input - 1) {
                memcpy(d->input + n, u, k);
                d->input[n + k] = '\0';
            }
        }
        dr_draw(d);
    }
}

/* Sets up question `d->q`: the card, its kimariji, what is shown. */
static void dr_ask(drill *d)
{
    d->card = kar_drill_next(&d->rec, d->field, d->nf, d->prev);
    /* listening reads every card against the hundred (docs/drills.md): static */
    d->kim = kar_drill_kim(d->card, d->nread && d->kind != KAR_DRILL_LISTEN ? d->read : NULL);
    d->shown = d->kind == KAR_DRILL_KIMARIJI ? kar_drill_shown(d->card, d->rec.cards[d->card].box, d->kim) : d->kim;
    d->heard = 0;
    if (d->kind == KAR_DRILL_LISTEN) {
        d->nkana = kar_drill_reading(d->card, d->kana, d->start_ms, &d->end_ms);
        d->decide_ms = kar_drill_decide_ms(d->card, d->kim);
    }
}

/* Grades answer `a`, records it, words it into d->msg. */
static void dr_judge(drill *d, const dr_answer *a)
{
    bool right;
    int ms = a->ms;
    if (d->kind == KAR_DRILL_FLIP)
        right = !a->pass && kar_drill_flip_ok(d->card, d->kim, a->text);
    else
        right = !a->pass && a->card == d->card;
    if (d->kind == KAR_DRILL_LISTEN)
        ms = a->ms - (d->script ? 0 : d->decide_ms); /* a script gives the take time itself */
    int g = kar_drill_grade(d->kind, right, ms);
    kar_drill_record(&d->rec, d->card, g, ms);
    d->ngrade[g]++;
    if (d->kind == KAR_DRILL_KIMARIJI) {
        int done = d->ngrade[0] + d->ngrade[1] + d->ngrade[2];
        if (done <= 20) {
            d->shown_first += d->shown;
            d->nfirst++;
        }
        d->last_shown[(done - 1) % 20] = d->shown;
        d->last_kim[(done - 1) % 20] = d->kim;
    }
    char s[24], n[24], box[24];
    pl_buf b = {0}, kim = {0}, rom = {0}, card = {0};
    kar_drill_key(d->card, d->kim, &kim);
    kar_drill_key_romaji(d->card, d->kim, &rom);
    kar_drill_card_text(d->card, 0, &card);
    const char *lab = d->label[d->card];
    if (d->kind == KAR_DRILL_FLIP) {
        if (right)
            dr_put(d, &b, g == KAR_DRILL_GOOD ? "drill.flip.good" : "drill.flip.slow", "kim", pl_buf_str(&kim),
                   "romaji", pl_buf_str(&rom), "s", dr_secs(s, ms < 0 ? 0 : ms), NULL);
        else
            dr_put(d, &b, "drill.flip.miss", "kim", pl_buf_str(&kim), "romaji", pl_buf_str(&rom), "n",
                   dr_num(n, d->card), NULL);
    } else if (right && d->kind == KAR_DRILL_LISTEN) {
        dr_put(d, &b, g == KAR_DRILL_GOOD ? "drill.listen.good" : "drill.listen.slow", "label", lab, "ms",
               dr_num(s, ms), "kim", pl_buf_str(&kim), NULL);
    } else if (right) {
        dr_put(d, &b, g == KAR_DRILL_GOOD ? "drill.good" : "drill.slow", "label", lab, "s",
               dr_secs(s, ms < 0 ? 0 : ms), "kim", pl_buf_str(&kim), NULL);
    } else {
        dr_put(d, &b, a->pass ? "drill.miss.pass" : "drill.miss.wrong", "label", lab, "card", pl_buf_str(&card),
               "kim", pl_buf_str(&kim), "n", dr_num(n, d->card), NULL);
    }
    pl_buf_puts(&b, " ");
    dr_put(d, &b, "drill.box", "box", dr_num(box, d->rec.cards[d->card].box), NULL);
    snprintf(d->msg, sizeof d->msg, "%s", pl_buf_str(&b));
    if (d->script) {
        pl_buf q = {0}, pre = {0};
        char qn[24], sh[24];
        kar_drill_key(d->card, d->shown, &pre);
        dr_put(d, &q, "drill.script.q", "q", dr_num(qn, d->q), "n", dr_num(n, d->card), "kana", pl_buf_str(&pre),
               "shown", dr_num(sh, d->shown), NULL);
        printf("%s %s\n", pl_buf_str(&q), d->msg);
        pl_buf_free(&q);
        pl_buf_free(&pre);
    }
    pl_buf_free(&b);
    pl_buf_free(&kim);
    pl_buf_free(&rom);
    pl_buf_free(&card);
}

/* The session's summary in words (printed when it ends). */
static void dr_summary(const drill *d, pl_buf *out)
{
    char a[24], b[24], c[24], e[24];
    int done = d->ngrade[0] + d->ngrade[1] + d->ngrade[2];
    dr_put(d, out, "drill.end", "q", dr_num(a, done), "good", dr_num(b, d->ngrade[0]), "slow",
           dr_num(c, d->ngrade[1]), "miss", dr_num(e, d->ngrade[2]), NULL);
    pl_buf_puts(out, "\n");
    if (d->kind == KAR_DRILL_KIMARIJI && done > 20) { /* the first and the last 20 apart */
        int n = done < 20 ? done : 20, sum = 0, sumk = 0, atk = 0;
        for (int i = 0; i < n; i++) {
            sum += d->last_shown[i];
            sumk += d->last_kim[i];
            atk += d->last_shown[i] == d->last_kim[i];
        }
        char f[24], l[24], k[24], x[24], m[24];
        snprintf(f, sizeof f, "%.1f", (double)d->shown_first / d->nfirst);
        snprintf(l, sizeof l, "%.1f", (double)sum / n);
        snprintf(k, sizeof k, "%.1f", (double)sumk / n);
        dr_put(d, out, "drill.end.prefix", "n", dr_num(m, n), "first", f, "last", l, "kim", k, "at", dr_num(x, atk),
               NULL);
        pl_buf_puts(out, "\n");
    }
}

/* Lists the weakest cards of `r` (at most `max`) in words. */
static void dr_weakest(const drill *d, int max, pl_buf *out)
{
    int w[KAR_DRILL_POEMS], answered = 0;
    for (int c = 1; c <= KAR_DRILL_POEMS; c++)
        answered += d->rec.cards[c].seen > 0;
    int n = kar_drill_weakest(&d->rec, w, max);
    char a[24], b[24];
    if (!answered) {
        dr_put(d, out, "drill.weakest.empty", NULL);
        pl_buf_puts(out, "\n");
        return;
    }
    if (!n) {
        dr_put(d, out, "drill.weakest.none", "n", dr_num(a, answered), NULL);
        pl_buf_puts(out, "\n");
        return;
    }
    dr_put(d, out, "drill.weakest.title", "n", dr_num(a, n), "answered", dr_num(b, answered), NULL);
    pl_buf_puts(out, "\n");
    for (int i = 0; i < n; i++) {
        const kar_drill_card *e = &d->rec.cards[w[i]];
        pl_buf kim = {0}, card = {0};
        kar_drill_key(w[i], kar_drill_kim(w[i], NULL), &kim);
        kar_drill_card_text(w[i], 0, &card);
        char num[24], box[24], seen[24], slow[24], miss[24], mean[24];
        /* two lines a card, within 80 columns: the poem, then its figures */
        pl_buf_printf(out, "%3d  %s%*s%s\n     ", w[i], pl_buf_str(&kim), 14 - pl_text_width(pl_buf_str(&kim)), "",
                      pl_buf_str(&card));
        dr_put(d, out, "drill.weakest.row", "n", dr_num(num, w[i]), "box", dr_num(box, e->box), "seen",
               dr_num(seen, e->seen), "slow", dr_num(slow, e->slow), "miss", dr_num(miss, e->miss), "s",
               dr_secs(mean, (int)(e->ms / (e->seen ? e->seen : 1))), NULL);
        pl_buf_puts(out, "\n");
        pl_buf_free(&kim);
        pl_buf_free(&card);
    }
}

/* Runs the session until the script or the questions end or the player
 * quits; saves the record after every answer. Returns the exit status. */
static int dr_run(drill *d)
{
    pl_buf err = {0};
    int rc = 0;
    while (!d->quit && (!d->questions || d->q < d->questions)) {
        d->q++;
        dr_ask(d);
        d->input[0] = '\0';
        dr_answer a;
        if (d->script) {
            dr_draw(d);
            bool bad = false;
            if (!dr_script_answer(d, &a, &bad)) {
                rc = bad ? 2 : 0;
                d->q--;
                break;
            }
        } else if (d->kind == KAR_DRILL_FLIP) {
            dr_term_line(d, &a);
        } else {
            if (d->kind == KAR_DRILL_LISTEN) { /* a pause before the reading; q still quits */
                d->heard = 0;
                dr_draw(d);
                napms(DR_PAUSE_MS);
                flushinp(); /* a key typed in the pause is no touch of the coming reading */
            }
            dr_term_touch(d, &a);
        }
        if (a.quit) {
            d->q--;
            break;
        }
        dr_judge(d, &a);
        d->prev = d->card;
        if (d->path && dr_save(d->path, &d->rec, &err) < 0) {
            if (!d->script)
                endwin();
            fprintf(stderr, "parlour karuta drill: cannot write %s: %s\n", d->path, pl_buf_str(&err));
            pl_buf_free(&err);
            return 1;
        }
    }
    d->card = 0;
    pl_buf_free(&err);
    return rc;
}

/* Marks the poems of "N,N,..." read. False on a bad list. */
static bool dr_parse_read(drill *d, const char *arg)
{
    const char *p = arg;
    while (*p) {
        char *e;
        long n = strtol(p, &e, 10);
        if (e == p || n < 1 || n > KAR_DRILL_POEMS || (*e && *e != ','))
            return false;
        if (!d->read[n])
            d->nread++;
        d->read[n] = true;
        p = *e ? e + 1 : e;
    }
    return true;
}

static bool dr_parse_int(const char *s, int lo, int hi, int *out)
{
    char *e;
    long v = strtol(s, &e, 10);
    if (e == s || *e || v < lo || v > hi)
        return false;
    *out = (int)v;
    return true;
}

int cli_karuta_drill(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"cards", required_argument, NULL, 'c'},    {"read", required_argument, NULL, 'r'},
        {"questions", required_argument, NULL, 'n'}, {"progress", required_argument, NULL, 'p'},
        {"lang", required_argument, NULL, 'l'},      {"script", required_argument, NULL, 's'},
        {"screen", no_argument, NULL, 'w'},          {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(usage_text, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    static drill d; /* the record is 3 KB; one drill a process */
    memset(&d, 0, sizeof d);
    bool weakest = !strcmp(argv[1], "weakest");
    d.kind = weakest ? KAR_DRILL_KIMARIJI : kar_drill_kind_parse(argv[1]);
    if (d.kind < 0) {
        fprintf(stderr, "parlour karuta drill: unknown drill '%s' (kimariji, listen, flip, weakest)\n%s", argv[1],
                usage_text);
        return 2;
    }
    if (term_lang(argc, argv, "parlour karuta drill", &d.lang) < 0)
        return 2;
    const char *script = NULL, *progress = NULL;
    static const int maxcards[3] = {DR_KIM_MAX, DR_LISTEN_MAX, KAR_DRILL_POEMS};
    static const int defcards[3] = {12, 24, 24};
    int cards = weakest ? KAR_DRILL_WEAKEST : defcards[d.kind], c;
    bool lang_given = false;
    optind = 1;
    while ((c = getopt_long(argc - 1, argv + 1, "h", longopts, NULL)) != -1) {
        switch (c) {
        case 'h':
            fputs(usage_text, stdout);
            return 0;
        case 'c':
            if (!dr_parse_int(optarg, 1, weakest ? KAR_DRILL_POEMS : maxcards[d.kind], &cards)) {
                fprintf(stderr, "parlour karuta drill: --cards wants 1-%d, got '%s'\n",
                        weakest ? KAR_DRILL_POEMS : maxcards[d.kind], optarg);
                return 2;
            }
            break;
        case 'r':
            if (weakest || !dr_parse_read(&d, optarg)) {
                fprintf(stderr, "parlour karuta drill: --read wants poem numbers 1-100 separated by commas, got '%s'\n",
                        optarg);
                return 2;
            }
            break;
        case 'n':
            if (!dr_parse_int(optarg, 1, 100000, &d.questions)) {
                fprintf(stderr, "parlour karuta drill: --questions wants 1-100000, got '%s'\n", optarg);
                return 2;
            }
            break;
        case 'p':
            progress = optarg;
            break;
        case 'l':
            lang_given = true;
            break;
        case 's':
            script = optarg;
            break;
        case 'w':
            d.dump = true;
            break;
        default:
            fputs(usage_text, stderr);
            return 2;
        }
    }
    if (optind + 1 < argc) {
        fprintf(stderr, "parlour karuta drill: unexpected '%s'\n%s", argv[optind + 1], usage_text);
        return 2;
    }
    if (script && !lang_given)
        d.lang = PL_LANG_EN; /* a script run is English unless --lang says otherwise */
    char path[1024];
    if (progress)
        snprintf(path, sizeof path, "%s", progress);
    else if (!script && !dr_default_path(path, sizeof path)) {
        fputs("parlour karuta drill: neither XDG_DATA_HOME nor HOME is set: name a file with --progress\n", stderr);
        return 2;
    }
    d.path = progress || !script ? path : NULL;
    pl_buf err = {0};
    if (d.path && dr_load(d.path, &d.rec, &err) < 0) {
        pl_buf msg = {0};
        pl_words_put(&msg, d.lang, "drill.err.progress", "path", d.path, "why", pl_buf_str(&err), NULL);
        fprintf(stderr, "parlour karuta drill: %s\n", pl_buf_str(&msg));
        pl_buf_free(&msg);
        pl_buf_free(&err);
        return 1;
    }
    pl_buf_free(&err);
    pl_buf out = {0};
    if (weakest) {
        dr_weakest(&d, cards, &out);
        fputs(pl_buf_str(&out), stdout);
        pl_buf_free(&out);
        return 0;
    }
    d.nf = kar_drill_field(&d.rec, cards, d.nread ? d.read : NULL, d.field);
    if (!d.nf) {
        fputs("parlour karuta drill: --read leaves no poem to drill\n", stderr);
        return 2;
    }
    dr_layout(&d);
    int rc;
    if (script) {
        if (!(d.script = fopen(script, "r"))) {
            fprintf(stderr, "parlour karuta drill: cannot read %s: %s\n", script, strerror(errno));
            return 1;
        }
        rc = dr_run(&d);
        fclose(d.script);
    } else {
        term_start();
        rc = dr_run(&d);
        endwin();
    }
    dr_summary(&d, &out);
    dr_weakest(&d, KAR_DRILL_WEAKEST, &out);
    if (d.path && !script) {
        pl_buf_puts(&out, "");
        pl_words_put(&out, d.lang, "drill.saved", "path", d.path, NULL);
        pl_buf_puts(&out, "\n");
    }
    fputs(pl_buf_str(&out), stdout);
    pl_buf_free(&out);
    return rc;
}
