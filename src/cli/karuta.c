/* karuta.c — `parlour karuta`: study aids and practice for the Hyakunin
 * Isshu. `parlour karuta kimariji [--read N,N,...]` prints each poem's static
 * kimariji (KA-K2) and, after the poems given as read, its dynamic kimariji
 * (KA-K3), computed by the karuta module through its public header
 * (src/games/karuta/public/kar_practice.h).
 * `parlour karuta practice` is real-time practice in the terminal (ncursesw)
 * against an AI with a fixed reaction delay or the karuta bot, or on a
 * chirashi field alone (KA-S5) or against computer players; `parlour play
 * karuta` is the same screen as the game (src/cli/main.c routes it here
 * through cli_karuta_play_wanted). Everything is played through the game
 * interface behind the practice API; a --script mode replaces the terminal
 * and the clock for tests, and --screen WxH prints the screen it would show.
 */
#include <ctype.h>
#include <curses.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kar_practice.h"
#include "parlour/registry.h"
#include "parlour/words.h"
#include "cli.h"
#include "term.h"
#include "term.h"

static const char usage_text[] =
    "usage: parlour karuta kimariji [--read N,N,...]\n"
    "       parlour karuta practice [--solo] [--seed N] [--delay-ms N] [--readings N] [--script FILE]\n"
    "                               [KEY=VALUE ...]   (see parlour karuta practice --help)\n"
    "       parlour karuta drill kimariji|listen|flip|weakest ...   (see parlour karuta drill --help)\n"
    "Prints the kimariji (deciding kana) of the hundred poems: the static ones over all\n"
    "100 (KA-K2) and, with --read, the dynamic ones once the listed poems have been read\n"
    "(KA-K3: the comparison set is every poem not yet read). Columns: number, static\n"
    "kimariji and length, current kimariji and length (or 'read'), poet, romaji.\n";

/* Parses "N,N,..." and marks those poems read. Returns 0, or -1 with a
 * message. */
static int parse_read(const char *arg, karp_kim *k)
{
    const char *p = arg;
    while (*p) {
        char *e;
        long n = strtol(p, &e, 10);
        if (e == p || n < 1 || n > KARP_NPOEMS || (*e && *e != ',')) {
            fprintf(stderr, "parlour karuta kimariji: --read wants poem numbers 1-100 separated by commas, got '%s'\n",
                    arg);
            return -1;
        }
        karp_kim_read(k, (int)n);
        p = *e ? e + 1 : e;
    }
    return 0;
}

static int kimariji(int argc, char **argv)
{
    static const struct option longopts[] = {{"read", required_argument, NULL, 'r'},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    karp_kim *k = karp_kim_new();
    if (!k) {
        fputs("parlour karuta kimariji: out of memory\n", stderr);
        return 1;
    }
    int c, nread = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "r:h", longopts, NULL)) != -1) {
        if (c == 'h') {
            fputs(usage_text, stdout);
            karp_kim_free(k);
            return 0;
        }
        if (c != 'r' || parse_read(optarg, k) < 0) {
            if (c != 'r')
                fputs(usage_text, stderr);
            karp_kim_free(k);
            return 2;
        }
    }
    if (optind < argc) {
        fputs(usage_text, stderr);
        karp_kim_free(k);
        return 2;
    }
    int dist[KARP_DEPTH + 1] = {0}, now[KARP_DEPTH + 1] = {0}, poetw = 0;
    for (int n = 1; n <= KARP_NPOEMS; n++) { /* the poet column is as wide as the widest name */
        int w = pl_text_width(karp_poem_poet(n));
        poetw = w > poetw ? w : poetw;
    }
    pl_buf b = {0};
    for (int n = 1; n <= KARP_NPOEMS; n++) {
        int kim = karp_kim_static(n);
        dist[kim]++;
        pl_buf_clear(&b);
        pl_buf_printf(&b, "%3d  ", n);
        karp_poem_key(n, kim, &b);
        pl_buf_printf(&b, "%*s%d  ", 2 * (KARP_DEPTH - kim) + 1, "", kim);
        if (!karp_kim_is_read(k, n)) {
            int d = karp_kim_dynamic(k, n);
            now[d]++;
            karp_poem_key(n, d, &b);
            pl_buf_printf(&b, "%*s%d  ", 2 * (KARP_DEPTH - d) + 1, "", d);
        } else {
            nread++;
            pl_buf_printf(&b, "%-*s", 2 * KARP_DEPTH + 4, "read");
        }
        const char *poet = karp_poem_poet(n); /* padded by display width: kanji are 2 columns */
        pl_buf_printf(&b, "%s%*s  %s", poet, poetw - pl_text_width(poet), "", karp_poem_romaji(n));
        puts(pl_buf_str(&b));
    }
    pl_buf_free(&b);
    karp_kim_free(k);
    printf("static kimariji by length 1-6:");
    for (int d = 1; d <= KARP_DEPTH; d++)
        printf(" %d", dist[d]);
    if (nread) {
        printf("\nafter %d read, the %d unread by length 1-6:", nread, KARP_NPOEMS - nread);
        for (int d = 1; d <= KARP_DEPTH; d++)
            printf(" %d", now[d]);
    }
    putchar('\n');
    return 0;
}

/* ---- practice (`parlour karuta practice`, `parlour play karuta`) -------- */

/* The practice loop runs a session of the karuta practice API
 * (games/karuta/public/kar_practice.h: the match, the reading timeline, the
 * computer players, the judgements) and only draws and reads keys: input
 * comes from the terminal (ncursesw, getch polled every few ms, key times
 * from CLOCK_MONOTONIC) or from a --script file on a virtual clock, so the
 * same loop runs in tests without a terminal (--screen WxH prints the screen
 * a terminal of that size would show after each reading). */

#define PR_POLL_MS 10 /* getch polling period */
#define PR_MAXKEYS 64
#define PR_MINW 60    /* the narrowest screen: the judgement and prompts need it */
#define PR_SENDS 8

typedef struct pr_key {
    int ch, ms;
} pr_key;

typedef struct practice {
    karp *k;
    const char *cmd;  /* for messages: "parlour karuta practice", "parlour play karuta" */
    bool play;        /* `parlour play karuta`: the game, not the practice */
    const char *save; /* --save FILE: the record, written again after every reading; NULL: none */
    FILE *script;     /* NULL: the terminal */
    pr_key keys[PR_MAXKEYS];
    int nkeys, ikey, vnow;
    char sends[PR_SENDS][KARP_LABEL]; /* script: the cards to send after this reading */
    int nsends;
    int scr_w, scr_h; /* script --screen: the size whose screens are printed; 0: none */
    struct timespec t0; /* the first kana of the upper half (the prelude runs before it) */
    bool quit;
    /* what the screen shows */
    int shown;        /* kana of the upper half shown */
    int pshown;       /* kana of the prelude (the previous lower half) shown, -1: none */
    char input[4];
    char msg[400];    /* a one-line answer to the last key (a refused label ...): Japanese is 3 bytes a character */
    pl_lang lang;     /* the screen's words (words.h): --lang, else LANG; a --script run: --lang, else English */
} practice;

/* The catalogue's `key` in the screen's language, {name}s filled from the
 * (name, value) pairs that follow, ending with NULL, into `out` (`cap` bytes). */
static void pr_words(const practice *p, char *out, size_t cap, const char *key, ...)
{
    const char *nv[8] = {0};
    va_list ap;
    va_start(ap, key);
    for (int i = 0; i < 8; i += 2) {
        if (!(nv[i] = va_arg(ap, const char *)))
            break;
        nv[i + 1] = va_arg(ap, const char *);
    }
    va_end(ap);
    pl_buf b = {0};
    pl_words_put(&b, p->lang, key, nv[0], nv[1], nv[2], nv[3], nv[4], nv[5], nv[6], nv[7], NULL);
    snprintf(out, cap, "%s", pl_buf_str(&b));
    pl_buf_free(&b);
}

/* `n` as text in `out` (16 bytes). */
static const char *pr_num(char *out, long n)
{
    snprintf(out, 16, "%ld", n);
    return out;
}

static int pr_elapsed(const practice *p)
{
    if (p->script)
        return p->vnow;
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int)((t.tv_sec - p->t0.tv_sec) * 1000 + (t.tv_nsec - p->t0.tv_nsec) / 1000000);
}

/* Reads the script's line for the next reading into timed keys (virtual
 * clock). Returns false at the end of the script. Tokens: LABEL@MS,
 * hit+MS / hit-MS (the read card, relative to its deciding kana),
 * wrong@MS (a card whose touch is a foul, karp_wrong_card), pass@MS
 * (space), send:LABEL (a card to send if one is owed), quit, none. */
static bool pr_script_line(practice *p, char *line, size_t cap)
{
    for (;;) {
        if (!fgets(line, (int)cap, p->script))
            return false;
        line[strcspn(line, "\r\n")] = '\0';
        char *q = line;
        while (*q == ' ')
            q++;
        if (*q && *q != '#')
            return true;
    }
}

static void pr_add_keys(practice *p, const char *text, int ms)
{
    for (const char *c = text; *c && p->nkeys < PR_MAXKEYS; c++)
        p->keys[p->nkeys++] = (pr_key){*c, ms < 0 ? 0 : ms};
}

static int pr_script_keys(practice *p, const char *line, pl_buf *err)
{
    char buf[512], lab[KARP_LABEL];
    snprintf(buf, sizeof buf, "%s", line);
    p->nkeys = p->ikey = p->nsends = 0;
    char *save = NULL;
    for (char *t = strtok_r(buf, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        int ms = 0;
        if (!strcmp(t, "none"))
            continue;
        if (!strcmp(t, "quit")) {
            pr_add_keys(p, "q", 0);
        } else if (!strncmp(t, "hit", 3) && (t[3] == '+' || t[3] == '-') && sscanf(t + 3, "%d", &ms) == 1) {
            karp_label(p->k, karp_card(p->k), lab);
            pr_add_keys(p, lab, karp_decide_ms(p->k) + ms);
        } else if (!strncmp(t, "wrong@", 6) && sscanf(t + 6, "%d", &ms) == 1) {
            if (karp_label(p->k, karp_wrong_card(p->k), lab))
                pr_add_keys(p, lab, ms);
        } else if (!strncmp(t, "pass@", 5) && sscanf(t + 5, "%d", &ms) == 1) {
            pr_add_keys(p, " ", ms);
        } else if (!strncmp(t, "send:", 5) && strlen(t + 5) == 3 && p->nsends < PR_SENDS) {
            snprintf(p->sends[p->nsends++], KARP_LABEL, "%s", t + 5);
        } else if (strlen(t) > 4 && t[3] == '@' && sscanf(t + 4, "%d", &ms) == 1) {
            snprintf(lab, sizeof lab, "%.3s", t);
            pr_add_keys(p, lab, ms);
        } else {
            pl_buf_printf(err,
                          "bad script token '%s' (LABEL@MS, hit+MS, hit-MS, wrong@MS, pass@MS, send:LABEL, quit, none)",
                          t);
            return -1;
        }
    }
    for (int i = 1; i < p->nkeys; i++) /* stable sort by time */
        for (int k = i; k > 0 && p->keys[k].ms < p->keys[k - 1].ms; k--) {
            pr_key x = p->keys[k];
            p->keys[k] = p->keys[k - 1];
            p->keys[k - 1] = x;
        }
    return 0;
}

/* The next key before `deadline` (ms from the first kana), with its time in
 * *ms; -1 when none came (the terminal: within one polling period). */
static int pr_next_key(practice *p, int deadline, int *ms)
{
    if (p->script) {
        if (p->ikey < p->nkeys && p->keys[p->ikey].ms < deadline) {
            p->vnow = *ms = p->keys[p->ikey].ms;
            return p->keys[p->ikey++].ch;
        }
        p->vnow = deadline;
        return -1;
    }
    int wait = deadline - pr_elapsed(p);
    if (wait <= 0)
        return -1;
    timeout(wait < PR_POLL_MS ? wait : PR_POLL_MS);
    int ch = getch();
    *ms = pr_elapsed(p);
    return ch == ERR ? -1 : ch;
}

/* ---- the screen ---- */

/* Row letter of row `r` of zone `z` as the screen shows it (kyōgi: the
 * AI's D-F from the top, yours C-A; chirashi A-E). */
static char pr_row_letter(const practice *p, int z, int r)
{
    if (karp_uta(p->k))
        return (char)(z < 4 ? 'A' + z : 'P');
    if (karp_solo(p->k))
        return (char)('A' + r);
    return (char)(z == 1 ? 'D' + r : 'C' - r);
}

/* Lines that `n` card heads take in `w` columns with `gap` spaces between. */
static int pr_row_lines(const karp_cell *cell, int n, int w, int gap)
{
    int x = 3, lines = 1;
    for (int i = 0; i < n; i++) {
        int cw = 3 + pl_text_width(cell[i].head);
        if (x > 3 && x + cw > w) {
            lines++;
            x = 3;
        }
        x += cw + gap;
    }
    return lines;
}

/* Draws zone `z` of the field from row `y` in `w` columns, one line per
 * field row (folded onto more lines when it is long): each card as its slot
 * number and its card text, the whole lower half when the row has room for
 * every card's, else as much as tells it from every other card
 * (karp_card_unique: never ambiguous). With c NULL only counts. Returns the
 * next free row. */
static int pr_draw_zone(const practice *p, int z, int y, int w, pl_canvas *c)
{
    int rows = 0, cols = 0;
    karp_zone_size(p->k, z, &rows, &cols);
    for (int r = 0; r < rows; r++) {
        karp_cell cell[KARP_NPOEMS];
        int n = 0, full = 3;
        for (int k = 0; k < cols && k < KARP_NPOEMS; k++) {
            karp_cell_get(p->k, z, r, k, &cell[n]);
            if (cell[n].kind == KARP_CELL_CARD) {
                char whole[96];
                karp_card_head(cell[n].card, 0, whole, sizeof whole);
                full += 3 + pl_text_width(whole) + 2;
                n++;
            }
        }
        bool whole = full <= w;
        /* two spaces between cards, one when that saves a folded line */
        int gap = pr_row_lines(cell, n, w, 1) < pr_row_lines(cell, n, w, 2) ? 1 : 2;
        if (c)
            pl_canvas_printf(c, y, 0, PL_ST_TITLE, "%c", pr_row_letter(p, z, r));
        if (!n && c)
            pl_canvas_put(c, y, 3, PL_ST_DIM, "-");
        int x = 3;
        for (int i = 0; i < n; i++) {
            char text[96];
            if (whole)
                karp_card_head(cell[i].card, 0, text, sizeof text);
            else
                snprintf(text, sizeof text, "%s", cell[i].head);
            int cw = 3 + pl_text_width(text);
            if (x > 3 && x + cw > w) { /* fold the row */
                y++;
                x = 3;
            }
            if (c) {
                pl_canvas_put(c, y, x, PL_ST_DIM, cell[i].label + 1);
                pl_canvas_put(c, y, x + 3, cell[i].owner < 0 ? PL_ST_NORMAL : cell[i].owner == 0 ? PL_ST_RED : PL_ST_BLACK,
                              text);
            }
            x += cw + gap;
        }
        y++;
    }
    return y;
}

/* Draws the field and the title lines from row 0; returns the next row. */
static int pr_draw_field(const practice *p, int w, pl_canvas *c)
{
    karp_status st;
    karp_get_status(p->k, &st);
    int y = 0;
    const char *lv = karp_level(p->k);
    if (karp_uta(p->k)) {
        if (c) {
            char t[200], a[16], b[16];
            pr_words(p, t, sizeof t, "kar.title.uta", "n", pr_num(a, st.nread), "you", pr_num(b, st.count[0]), NULL);
            int x = pl_canvas_put(c, y, 0, PL_ST_TITLE, t);
            for (int q = 1; q < 4; q++)
                x = pl_canvas_printf(c, y, x, PL_ST_TITLE, ", %c %d", 'A' + q, st.count[q]);
            pl_canvas_put(c, y, x, PL_ST_TITLE, pl_words(p->lang, "kar.title.uta.pool"));
        }
        y++;
        for (int z = 0; z < karp_zones(p->k); z++)
            y = pr_draw_zone(p, z, y, w, c);
    } else if (karp_solo(p->k) && karp_seats(p->k) == 1) {
        if (c) {
            char t[200], a[16], b[16], d[16];
            pr_words(p, t, sizeof t, "kar.title.alone", "n", pr_num(a, st.nread), "taken", pr_num(b, st.count[0]),
                     "pot", pr_num(d, st.pot), NULL);
            pl_canvas_put(c, y, 0, PL_ST_TITLE, t);
        }
        y = pr_draw_zone(p, 0, y + 1, w, c);
    } else if (karp_solo(p->k)) {
        if (c) {
            char t[200], a[16], b[16];
            pr_words(p, t, sizeof t, "kar.title.chirashi", "n", pr_num(a, st.nread), "you", pr_num(b, st.count[0]),
                     NULL);
            int x = pl_canvas_put(c, y, 0, PL_ST_TITLE, t);
            for (int q = 1; q < karp_seats(p->k); q++) {
                pr_words(p, t, sizeof t, "kar.title.chirashi.other", "q", pr_num(a, q), "n", pr_num(b, st.count[q]),
                         NULL);
                x = pl_canvas_put(c, y, x, PL_ST_TITLE, t);
            }
            pr_words(p, t, sizeof t, "kar.title.chirashi.pot", "pot", pr_num(a, st.pot), NULL);
            pl_canvas_put(c, y, x, PL_ST_TITLE, t);
        }
        y = pr_draw_zone(p, 0, y + 1, w, c);
    } else {
        if (c) {
            char t[200], a[16], b[16];
            if (lv) {
                char key[64]; /* the level's name in the screen's language, where the catalogue has it */
                snprintf(key, sizeof key, "kar.level.%s", lv);
                const char *name = pl_words_find(p->lang, key);
                pr_words(p, t, sizeof t, p->play ? "kar.title.kyogi" : "kar.title.kyogi.practice", "n",
                         pr_num(a, st.nread), "level", name ? name : lv, NULL);
            }
            else
                pr_words(p, t, sizeof t, "kar.title.kyogi.delay", "n", pr_num(a, st.nread), "ms",
                         pr_num(b, karp_delay_ms(p->k)), NULL);
            pl_canvas_put(c, y, 0, PL_ST_TITLE, t);
            pr_words(p, t, sizeof t, "kar.them", "n", pr_num(a, st.count[1]), NULL);
            pl_canvas_put(c, y + 1, 0, PL_ST_BLACK, t);
        }
        y = pr_draw_zone(p, 1, y + 2, w, c);
        if (c)
            for (int x = 0; x + 2 <= w && x < 78; x += 2)
                pl_canvas_put(c, y, x, PL_ST_DIM, "- ");
        y = pr_draw_zone(p, 0, y + 1, w, c);
        if (c) {
            char t[200], a[16];
            pr_words(p, t, sizeof t, "kar.you", "n", pr_num(a, st.count[0]), NULL);
            pl_canvas_put(c, y, 0, PL_ST_RED, t);
        }
        y++;
    }
    return y;
}

/* Word-wraps `text` (newlines kept) at `w` columns from row `y`, at most
 * `max` lines (the last one cut with "…" when more would follow); with c
 * NULL only counts. Returns the lines it takes (uncut: the count of all). */
static int pr_wrap(const char *text, int w, int y, int max, pl_canvas *c)
{
    char word[256];
    int x = 0, line = 0;
    for (const char *t = text; *t;) {
        if (*t == '\n' || *t == ' ') {
            if (*t == '\n') {
                line++;
                x = 0;
            }
            t++;
            continue;
        }
        size_t n = strcspn(t, " \n");
        if (pl_words_cols(t, n) > w) /* no blanks (Japanese): a piece of the line's width */
            n = pl_words_fit(t, w - x - (x > 0) > 0 ? w - x - (x > 0) : w);
        if (n == 0)
            n = (size_t)pl_words_char_len(t);
        if (n >= sizeof word) /* never half a character */
            n = pl_words_fit(t, (int)sizeof word / 4);
        snprintf(word, sizeof word, "%.*s", (int)n, t);
        int ww = pl_text_width(word);
        if (x > 0 && x + 1 + ww > w) {
            line++;
            x = 0;
        }
        if (c && line < max) {
            if (line == max - 1 && x + 1 + ww > w - 2 && t[n]) {
                pl_canvas_put(c, y + line, x, PL_ST_NORMAL, " …");
                return line + 1;
            }
            pl_canvas_put(c, y + line, x + (x > 0), PL_ST_NORMAL, word);
        }
        x += ww + (x > 0);
        t += n;
    }
    return line + (x > 0);
}

/* The lines under the field: the reading, the touches, the message line, a
 * blank, the prompt; the judgement comes between them. */
#define PR_FIXED_LINES 5
#define PR_MIN_SAID 2 /* the judgement gets at least this many lines */

/* Lays the screen out for a terminal of w x h (the whole screen); with the
 * reading on, the kana heard so far. Below the smallest size that holds it
 * says so instead. */
static void pr_screen(const practice *p, int w, int h, bool reading, const char *prompt, pl_canvas *c)
{
    int field = pr_draw_field(p, w < PR_MINW ? PR_MINW : w, NULL);
    int need = field + PR_FIXED_LINES + PR_MIN_SAID;
    if (w < PR_MINW || h < need) {
        char t[200], a[16], b[16];
        pr_words(p, t, sizeof t, "tui.too_small", "w", pr_num(a, PR_MINW > w ? PR_MINW : w), "h", pr_num(b, need),
                 NULL);
        pl_canvas_put(c, 0, 0, PL_ST_TITLE, t);
        pr_words(p, t, sizeof t, "kar.too_small.now", "w", pr_num(a, w), "h", pr_num(b, h), NULL);
        pl_canvas_put(c, 1, 0, PL_ST_DIM, t);
        return;
    }
    int y = pr_draw_field(p, w, c);
    if (reading && p->pshown >= 0) { /* the previous poem's lower half, then the pause (KA-R5) */
        int x = pl_canvas_put(c, y, 0, PL_ST_DIM, pl_words(p->lang, "kar.reading")) + 1;
        for (int i = 0; i < p->pshown; i++)
            x = pl_canvas_put(c, y, x, PL_ST_DIM, karp_prelude_kana(p->k, i));
    } else if (reading && p->shown > 0) { /* the kana as read: no hold marks */
        int x = pl_canvas_put(c, y, 0, PL_ST_NORMAL, pl_words(p->lang, "kar.reading")) + 1;
        for (int i = 0; i < p->shown; i++)
            x = pl_canvas_put(c, y, x, PL_ST_HILITE, karp_kana(p->k, i));
    }
    y++;
    int x = pl_canvas_put(c, y, 0, PL_ST_NORMAL, pl_words(p->lang, "kar.touch")) + 1;
    x = pl_canvas_put(c, y, x, PL_ST_NORMAL, p->input);
    for (int i = 0; i < karp_touch_count(p->k); i++) {
        char lab[KARP_LABEL];
        int ms = karp_touch_get(p->k, i, lab);
        x = pl_canvas_printf(c, y, x + 2, PL_ST_MARK, "%s@%d", lab, ms);
    }
    y++;
    if (p->msg[0])
        pr_wrap(p->msg, w, y, 1, c);
    y++;
    const char *said = karp_judgement(p->k);
    int room = h - y - 2; /* a blank and the prompt below */
    if (*said) {
        char brief[1024];
        snprintf(brief, sizeof brief, "%s", said);
        if (pr_wrap(said, w, y, room, NULL) > room)
            brief[strcspn(brief, "\n")] = '\0'; /* no room: the engine's own line goes first */
        pr_wrap(brief, w, y, room, c);
    }
    pr_wrap(prompt, w, h - 1, 1, c);
}

/* Draws the screen (terminal), or prints it (script with --screen, when
 * `dump`); `reading`: the kana heard so far are drawn too. */
static void pr_draw(const practice *p, bool reading, const char *prompt, bool dump)
{
    pl_canvas c = {0};
    if (p->script) {
        if (!dump || !p->scr_w)
            return;
        pr_screen(p, p->scr_w, p->scr_h, reading, prompt, &c);
        pl_buf b = {0};
        pl_canvas_to_text(&c, &b);
        printf("--- screen %dx%d ---\n%s--- end of screen ---\n", p->scr_w, p->scr_h, pl_buf_str(&b));
        pl_buf_free(&b);
        pl_canvas_free(&c);
        return;
    }
    int h, w;
    getmaxyx(stdscr, h, w);
    pr_screen(p, w, h, reading, prompt, &c);
    erase();
    term_put_canvas(&c, 0, 0);
    refresh();
    pl_canvas_free(&c);
}

/* ---- between readings ---- */

static bool pr_is_enter(int ch) { return ch == '\n' || ch == '\r' || ch == KEY_ENTER; }

/* Waits for Enter (terminal) so the player can read; false on 'q'.
 * A resize redraws; any other key (a label typed too early) is answered,
 * never taken as the start. */
static bool pr_wait(practice *p, const char *prompt)
{
    if (p->script)
        return true;
    for (;;) {
        pr_draw(p, false, prompt, false);
        timeout(-1);
        int ch = getch();
        if (ch == 'q' || ch == 'Q')
            return false;
        if (pr_is_enter(ch)) {
            p->msg[0] = '\0';
            return true;
        }
        if (ch != KEY_RESIZE && ch != ERR)
            pr_words(p, p->msg, sizeof p->msg, "kar.between", NULL);
    }
}

/* The memorisation time before the first reading (KA-R3): counted down on
 * the screen; Enter ends it early. False when the player quits. */
static bool pr_memorise(practice *p)
{
    int total = karp_memo_s(p->k);
    if (p->script) {
        if (total > 0)
        {
            char t[300], a[16];
            pr_words(p, t, sizeof t, "kar.memo.script", "s", pr_num(a, total), NULL);
            printf("%s\n", t);
        }
        return true;
    }
    if (total <= 0) {
        char t[200];
        pr_words(p, t, sizeof t, "kar.reading_n", "n", "1", NULL);
        return pr_wait(p, t);
    }
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &t);
        int left = total - (int)(t.tv_sec - t0.tv_sec);
        if (left <= 0)
            return true;
        char prompt[300], time[16];
        snprintf(time, sizeof time, "%d:%02d", left / 60, left % 60);
        pr_words(p, prompt, sizeof prompt, "kar.memo", "time", time, NULL);
        pr_draw(p, false, prompt, false);
        timeout(250);
        int ch = getch();
        if (ch == 'q' || ch == 'Q')
            return false;
        if (pr_is_enter(ch))
            return true;
    }
}

/* The player chooses the cards he owes (KA-R9): typed labels, Enter for his
 * lowest; the script's send:LABEL tokens, else the lowest. False on 'q'. */
static bool pr_send(practice *p, pl_buf *err)
{
    int si = 0;
    char lab[KARP_LABEL] = "";
    while (karp_send_owed(p->k) > 0) {
        int owed = karp_send_owed(p->k);
        if (p->script) {
            pl_buf why = {0};
            const char *l = si < p->nsends ? p->sends[si++] : NULL;
            if (karp_send(p->k, l, &why) < 0) {
                pl_buf line = {0};
                pl_words_put(&line, p->lang, "kar.send.instead", "why", pl_buf_str(&why), NULL);
                printf("! send %s: %s\n", l ? l : "", pl_buf_str(&line));
                pl_buf_free(&line);
                pl_buf_clear(&why);
                if (karp_send(p->k, NULL, &why) < 0) {
                    pl_buf_puts(err, pl_buf_str(&why));
                    pl_buf_free(&why);
                    return false;
                }
            }
            pl_buf_free(&why);
            continue;
        }
        char prompt[400], a[16];
        pr_words(p, prompt, sizeof prompt, owed == 1 ? "kar.send.one" : "kar.send", "n", pr_num(a, owed), "label",
                 lab, NULL);
        pr_draw(p, false, prompt, false);
        timeout(-1);
        int ch = getch();
        size_t len = strlen(lab);
        pl_buf why = {0};
        if (ch == 'q' || ch == 'Q') {
            return false;
        } else if (pr_is_enter(ch)) {
            if (karp_send(p->k, NULL, &why) < 0)
                snprintf(p->msg, sizeof p->msg, "%s", pl_buf_str(&why));
            lab[0] = '\0';
        } else if (ch == 27 || ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
            lab[0] = '\0';
        } else if (len == 0 && ch < 128 && isalpha(ch)) {
            lab[0] = (char)toupper(ch);
            lab[1] = '\0';
        } else if (len > 0 && len < 3 && ch < 128 && isdigit(ch)) {
            lab[len] = (char)ch;
            lab[len + 1] = '\0';
            if (len + 1 == 3) {
                if (karp_send(p->k, lab, &why) < 0)
                    snprintf(p->msg, sizeof p->msg, "%s", pl_buf_str(&why));
                else
                    p->msg[0] = '\0';
                lab[0] = '\0';
            }
        }
        pl_buf_free(&why);
    }
    return true;
}

/* ---- one reading ---- */

/* Takes one key of the reading at `ms`; sets *done when the player's turn
 * is over. */
static void pr_take_key(practice *p, int ch, int ms, bool *done)
{
    size_t len = strlen(p->input);
    if (ch == 'q' || ch == 'Q') {
        p->quit = *done = true;
    } else if (ms < 0) { /* the previous lower half or the pause: no touch yet */
        p->input[0] = '\0';
        if (ch < 128 && isalnum(ch))
            pr_words(p, p->msg, sizeof p->msg, "kar.wait_upper", NULL);
    } else if (ch == ' ') {
        *done = true;
    } else if (ch == 27 || ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
        p->input[0] = '\0';
    } else if (len == 0 && ch < 128 && isalpha(ch)) { /* KEY_* codes are past 255 */
        p->input[0] = (char)toupper(ch);
        p->input[1] = '\0';
    } else if (len > 0 && len < 3 && ch < 128 && isdigit(ch)) {
        p->input[len] = (char)ch;
        p->input[len + 1] = '\0';
        if (len + 1 == 3) {
            pl_buf why = {0};
            int r = karp_touch(p->k, p->input, ms, &why);
            if (r < 0) { /* an unknown label, an empty slot, a card touched already: said */
                snprintf(p->msg, sizeof p->msg, "%s", pl_buf_str(&why));
                if (p->script)
                    printf("! %s@%d: %s\n", p->input, ms, pl_buf_str(&why));
            } else {
                p->msg[0] = '\0';
            }
            *done = r == 1;
            pl_buf_free(&why);
            p->input[0] = '\0';
        }
    }
}

/* Plays one reading. Returns 1 when played, 0 when the session ends
 * (game over, script over, quit), -1 on an error (message in `err`). */
static int pr_reading(practice *p, pl_buf *err)
{
    if (karp_done(p->k) || p->quit)
        return 0;
    char line[512];
    if (p->script && !pr_script_line(p, line, sizeof line))
        return 0;
    karp_status st;
    karp_get_status(p->k, &st);
    if (!p->script && st.nread > 0) {
        char prompt[200], a[16];
        pr_words(p, prompt, sizeof prompt, "kar.reading_n", "n", pr_num(a, st.nread + 1), NULL);
        if (!pr_wait(p, prompt)) {
            p->quit = true;
            return 0;
        }
    }
    int r = karp_start(p->k, err);
    if (r <= 0)
        return r;
    int deadline = karp_deadline_ms(p->k), pre = karp_prelude_ms(p->k);
    if (p->script && pr_script_keys(p, line, err) < 0)
        return -1;
    p->input[0] = '\0';
    p->msg[0] = '\0';
    p->shown = 0;
    p->pshown = -1;
    if (!p->script) {
        flushinp();
        clock_gettime(CLOCK_MONOTONIC, &p->t0); /* t0: the first kana of the upper half */
        p->t0.tv_sec += pre / 1000;
        p->t0.tv_nsec += (long)(pre % 1000) * 1000000L;
        if (p->t0.tv_nsec >= 1000000000L) {
            p->t0.tv_sec++;
            p->t0.tv_nsec -= 1000000000L;
        }
    } else {
        p->vnow = -pre;
    }
    bool done = false;
    while (!done) {
        int now = pr_elapsed(p);
        if (now >= deadline)
            break;
        int shown = karp_kana_shown(p->k, now), pshown = -1;
        if (now < 0) {
            pshown = 0;
            while (pshown < karp_prelude_count(p->k) && karp_prelude_start_ms(p->k, pshown) <= now + pre)
                pshown++;
        }
        if (shown != p->shown || pshown != p->pshown || !p->script) {
            p->shown = shown;
            p->pshown = pshown;
            pr_draw(p, true, pl_words(p->lang, "kar.touch_prompt"), false);
        }
        int ms, ch = pr_next_key(p, now < 0 ? 0 : deadline, &ms);
        if (ch >= 0)
            pr_take_key(p, ch, ms, &done);
    }
    if (karp_finish(p->k, err) < 0)
        return -1;
    p->pshown = -1;
    if (!p->quit && !pr_send(p, err)) {
        if (err->len)
            return -1;
        p->quit = true;
    }
    if (p->save && karp_save(p->k, p->save, err) < 0) /* the record as it goes (--save) */
        return -1;
    if (p->script) {
        printf("%s\n", karp_judgement(p->k));
        char prompt[200], a[16];
        pr_words(p, prompt, sizeof prompt, "kar.reading_n", "n", pr_num(a, st.nread + 2), NULL);
        pr_draw(p, false, karp_done(p->k) ? pl_words(p->lang, "kar.over.any") : prompt, true);
    }
    return 1;
}

/* Runs a session to its end (terminal or script) and prints the statistics;
 * a --script run first prints its title, the catalogue's `title_key` with
 * {seed}. Returns the exit status. */
static int pr_run(practice *p, const char *script, const char *title_key)
{
    pl_buf err = {0};
    if (script && !(p->script = fopen(script, "r"))) {
        fprintf(stderr, "%s: cannot read %s\n", p->cmd, script);
        return 2;
    }
    if (!p->script) {
        term_start();
        curs_set(0);
    } else { /* the --script run's title line: English unless --lang says (karuta.c's options) */
        char t[512], seed[24];
        snprintf(seed, sizeof seed, "%llu", (unsigned long long)karp_seed(p->k));
        pr_words(p, t, sizeof t, title_key, "seed", seed, NULL);
        printf("%s\n", t);
    }
    int r = 1;
    if (!pr_memorise(p)) {
        p->quit = true;
        r = 0;
    }
    while (r > 0 && (r = pr_reading(p, &err)) > 0)
        ;
    /* the statistics: after the practice, or a game that ended (a quit game leaves the shell clean) */
    const char *st = r == 0 && !(p->play && p->quit && !p->script) ? karp_stats(p->k) : "";
    if (!p->script) {
        if (r == 0 && !p->quit)
            pr_wait(p, pl_words(p->lang, "kar.over.enter"));
        endwin();
    }
    if (r < 0)
        fprintf(stderr, "%s: %s\n", p->cmd, pl_buf_str(&err));
    else
        fputs(st, stdout);
    if (p->script)
        fclose(p->script);
    pl_buf_free(&err);
    return r < 0 ? 1 : 0;
}

/* Sets the screen's language (p->lang): --lang CODE, else LANG (term.h);
 * a --script run (a test's, or a tool's) is English unless --lang says
 * otherwise, whatever LANG says. Returns 0, or -1 after a message. */
static int pr_lang(practice *p, int argc, char **argv, bool script)
{
    if (term_lang(argc, argv, p->cmd, &p->lang) < 0)
        return -1;
    bool given = false;
    for (int i = 1; i < argc && !given; i++)
        given = !strcmp(argv[i], "--lang") || !strncmp(argv[i], "--lang=", 7);
    if (script && !given)
        p->lang = PL_LANG_EN;
    return 0;
}

/* Parses --screen WxH. */
static bool pr_parse_size(const char *arg, int *w, int *h)
{
    char x;
    return sscanf(arg, "%d%c%d", w, &x, h) == 3 && (x == 'x' || x == 'X') && *w > 0 && *w <= 400 && *h > 0 &&
           *h <= 200;
}

static const char practice_usage[] =
    "usage: parlour karuta practice [--solo [--opponents N]] [--seed N] [--delay-ms N | --level L]\n"
    "                               [--readings N] [--script FILE [--screen WxH]] [--lang CODE]\n"
    "                               [KEY=VALUE ...]\n"
    "Kyogi practice against an AI in the terminal: both territories are drawn row by row, each\n"
    "card as its slot number and as much of its lower half as tells it from every other card\n"
    "(yours rows A-C, the AI's D-F; a slot label is the row letter and the number, e.g. A05).\n"
    "Before each reading the previous poem's lower half is read, then a pause (5-3-1-6, KA-R5);\n"
    "the upper half appears kana by kana at reading speed. Touch a card by typing its label: the\n"
    "time of the last key press, from the first kana, is your touch time. Up to 3 touches a\n"
    "reading; space ends your turn with no touch; q quits; Enter starts the next reading. The AI\n"
    "touches the read card --delay-ms after its deciding kana (default 400), or plays as the\n"
    "karuta bot at --level. When you owe cards (KA-R9) you choose them by label. Before the\n"
    "first reading the memorisation time (memo_s, KA-R3) is counted down; Enter ends it early.\n"
    "After each reading: who took it and why, fouls and sends; at the end, your take times.\n"
    "  --solo         chirashi (KA-S5): 100 cards (cards=50: 50) on one field, labels A01-E20,\n"
    "                 whole poems read, take times recorded; alone unless --opponents\n"
    "  --opponents N  chirashi: N computer players (1-7) at --level (default medium)\n"
    "  --uta          uta-karuta for 4 (KA-U): your hand A, three computer players' B-D, the\n"
    "                 pool P (pool=auto); one answer a reading\n"
    "  --level L      the computer players' level: easy, medium, hard, champion (parlour rules karuta)\n"
    "  --seed N       the deal and the reading order (same seed, same practice)\n"
    "  --readings N   stop after N readings\n"
    "  --script FILE  no terminal: one line per reading of timed touches, on a virtual clock\n"
    "                 (LABEL@MS, hit+MS or hit-MS: the read card relative to its deciding\n"
    "                 kana, wrong@MS, pass@MS, send:LABEL, none, quit; # comments); prints\n"
    "                 each judgement and the statistics\n"
    "  --screen WxH   with --script: print the screen a WxH terminal shows after each reading\n"
    "  KEY=VALUE      game options (parlour rules karuta), e.g. upper_ms=4000 tie_ms=20 memo_s=60;\n"
    "                 variant, players, send, place and rearrange are set by the practice\n";

static int practice_cmd(int argc, char **argv)
{
    static const struct option lo[] = {{"solo", no_argument, NULL, 's'},
                                       {"seed", required_argument, NULL, 'S'},
                                       {"delay-ms", required_argument, NULL, 'd'},
                                       {"readings", required_argument, NULL, 'n'},
                                       {"script", required_argument, NULL, 'f'},
                                       {"screen", required_argument, NULL, 'W'},
                                       {"level", required_argument, NULL, 'L'},
                                       {"opponents", required_argument, NULL, 'o'},
                                       {"uta", no_argument, NULL, 'u'},
                                       {"lang", required_argument, NULL, 'g'},
                                       {"help", no_argument, NULL, 'h'},
                                       {NULL, 0, NULL, 0}};
    karp_options o = {.delay_ms = 400};
    const char *script = NULL;
    practice p;
    memset(&p, 0, sizeof p);
    p.cmd = "parlour karuta practice";
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "suS:d:n:f:W:L:o:g:h", lo, NULL)) != -1) {
        char *e = NULL;
        switch (c) {
        case 'g': break; /* pr_lang reads it */
        case 's': o.solo = true; break;
        case 'u': o.uta = true; break;
        case 'S': o.seed = optarg; break;
        case 'L': o.level = optarg; break;
        case 'd':
            o.delay_ms = (int)strtol(optarg, &e, 10);
            if (*e || o.delay_ms < 0 || o.delay_ms > KARP_DELAY_MAX) {
                fputs("parlour karuta practice: --delay-ms wants 0-10000\n", stderr);
                return 2;
            }
            break;
        case 'o':
            o.opponents = (int)strtol(optarg, &e, 10);
            if (*e || o.opponents < 1 || o.opponents > 7) {
                fputs("parlour karuta practice: --opponents wants 1-7\n", stderr);
                return 2;
            }
            break;
        case 'n':
            o.readings = (int)strtol(optarg, &e, 10);
            if (*e || o.readings < 1 || o.readings > KARP_NPOEMS) {
                fputs("parlour karuta practice: --readings wants 1-100\n", stderr);
                return 2;
            }
            break;
        case 'f': script = optarg; break;
        case 'W':
            if (!pr_parse_size(optarg, &p.scr_w, &p.scr_h)) {
                fputs("parlour karuta practice: --screen wants WIDTHxHEIGHT, e.g. 80x24\n", stderr);
                return 2;
            }
            break;
        case 'h': fputs(practice_usage, stdout); return 0;
        default: fputs(practice_usage, stderr); return 2;
        }
    }
    o.nwords = argc - optind;
    o.words = argv + optind;
    if (pr_lang(&p, argc, argv, script != NULL) < 0)
        return 2;
    pl_buf err = {0};
    o.lang = (int)p.lang;
    p.k = karp_new(&o, &err);
    if (!p.k) {
        fprintf(stderr, "parlour karuta practice: %s\n", pl_buf_str(&err));
        pl_buf_free(&err);
        return 2;
    }
    pl_buf_free(&err);
    int r = pr_run(&p, script,
                   o.uta    ? "kar.script.practice.uta"
                   : !o.solo ? "kar.script.practice.kyogi"
                   : o.opponents ? "kar.script.practice.chirashi"
                                 : "kar.script.practice.solo");
    karp_free(p.k);
    return r;
}

/* ---- `parlour play karuta` ---------------------------------------------- */

/* The game word `w` ("KEY=VALUE") has key `key`; its value in *val. */
static bool pr_word(const char *w, const char *key, const char **val)
{
    size_t n = strlen(key);
    if (strncmp(w, key, n) || w[n] != '=')
        return false;
    *val = w + n + 1;
    return true;
}

/* Options the real-time screen does not play: the turn-based screen does
 * (uta-karuta's hands and pool, manual placing, rearranging, naming the
 * poet, the engine's sends, a record to load, no human or two). A record
 * to save the real-time screen writes itself (--save). */
static bool pr_needs_turns(const char *w)
{
    static const char *const turn_based[] = {"place=manual", "rearrange=on", "answer=poet", "pool=choose",
                                             "teams=2v2", "send=auto"};
    for (size_t i = 0; i < sizeof turn_based / sizeof *turn_based; i++)
        if (!strcmp(w, turn_based[i]))
            return true;
    return false;
}

bool cli_karuta_play_wanted(int argc, char **argv)
{
    const pl_game *g = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--load") || !strncmp(a, "--load=", 7) || !strcmp(a, "-h") || !strcmp(a, "--help"))
            return false;
        if (!strcmp(a, "--save")) {
            i++; /* its FILE is no game word */
            continue;
        }
        if (!strcmp(a, "--seat") || !strncmp(a, "--seat=", 7)) {
            const char *v = a[6] == '=' ? a + 7 : i + 1 < argc ? argv[++i] : "";
            if (!strncmp(v, "0=", 2) || strstr(v, "=human")) /* the computer at seat 0, or hot-seat */
                return false;
            continue;
        }
        if (!strcmp(a, "--script") || !strcmp(a, "--screen") || !strcmp(a, "--lang")) {
            i++;
            continue;
        }
        if (a[0] == '-')
            continue;
        if (!g) {
            if (!(g = pl_game_find(a)) || !karp_handles(g))
                return false;
        } else if (pr_needs_turns(a)) {
            return false;
        }
    }
    return g != NULL;
}

static const char play_usage[] =
    "usage: parlour play karuta [KEY=VALUE ...] [--seat N=ai[:LEVEL]] [--save FILE]\n"
    "                           [--script FILE [--screen WxH]] [--lang CODE]\n"
    "Karuta in real time, as `parlour karuta practice` (see its --help): the reading at speed,\n"
    "touches by slot label with the key's time, the judgement after each reading, the cards you\n"
    "send chosen by you. variant=kyogi (default): against the computer's karuta bot;\n"
    "variant=chirashi players=N: one field against N-1 computer players; variant=uta: your hand\n"
    "A against three computer players' hands B-D and the pool P (pool=auto; one answer a\n"
    "reading). LEVEL: easy, medium (default), hard, champion (parlour rules karuta).\n"
    "--save FILE writes the record from the start and again after every reading (parlour\n"
    "replay FILE steps through it; parlour play --load FILE goes on, turn-based). The\n"
    "turn-based screen plays the rest: place=manual, rearrange=on, answer=poet, pool=choose,\n"
    "teams=2v2, send=auto (the engine's sends: the way to the turn-based kyogi), --load,\n"
    "or seats other than the usual.\n";

int cli_karuta_play(int argc, char **argv)
{
    static const struct option lo[] = {{"seat", required_argument, NULL, 's'},
                                       {"script", required_argument, NULL, 'f'},
                                       {"screen", required_argument, NULL, 'W'},
                                       {"save", required_argument, NULL, 'o'},
                                       {"lang", required_argument, NULL, 'g'},
                                       {"help", no_argument, NULL, 'h'},
                                       {NULL, 0, NULL, 0}};
    karp_options o = {.delay_ms = 400, .level = "medium"};
    const char *script = NULL;
    practice p;
    memset(&p, 0, sizeof p);
    p.cmd = "parlour play karuta";
    p.play = true;
    char level[32];
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "+h", lo, NULL)) != -1) {
        switch (c) {
        case 's': { /* N=ai or N=ai:LEVEL (LEVEL may be bot:NAME) */
            const char *v = strchr(optarg, '=');
            if (!v || strncmp(v + 1, "ai", 2) || (v[3] && v[3] != ':')) {
                fprintf(stderr, "parlour play karuta: --seat wants N=ai[:LEVEL], got '%s'\n", optarg);
                return 2;
            }
            if (v[3] == ':') {
                const char *l = v + 4;
                if (!strncmp(l, "bot:", 4))
                    l += 4;
                snprintf(level, sizeof level, "%s", l);
                o.level = level;
            }
            break;
        }
        case 'f': script = optarg; break;
        case 'W':
            if (!pr_parse_size(optarg, &p.scr_w, &p.scr_h)) {
                fputs("parlour play karuta: --screen wants WIDTHxHEIGHT, e.g. 80x24\n", stderr);
                return 2;
            }
            break;
        case 'o': p.save = optarg; break;
        case 'g': break; /* pr_lang reads it */
        case 'h': fputs(play_usage, stdout); return 0;
        default: fputs(play_usage, stderr); return 2;
        }
    }
    /* argv[optind] is the game; the rest are game options, some of them the session's */
    char *words[32];
    int nw = 0, players = 0;
    for (int i = optind + 1; i < argc; i++) {
        const char *v;
        char *e;
        while (i < argc && argv[i][0] == '-') { /* options after the game */
            if ((!strcmp(argv[i], "--seat") || !strcmp(argv[i], "--script") || !strcmp(argv[i], "--screen") ||
                 !strcmp(argv[i], "--save") || !strcmp(argv[i], "--lang")) &&
                i + 1 < argc) {
                const char *opt = argv[i], *arg = argv[i + 1];
                if (!strcmp(opt, "--script"))
                    script = arg;
                else if (!strcmp(opt, "--save"))
                    p.save = arg;
                else if (!strcmp(opt, "--screen") && !pr_parse_size(arg, &p.scr_w, &p.scr_h)) {
                    fputs("parlour play karuta: --screen wants WIDTHxHEIGHT, e.g. 80x24\n", stderr);
                    return 2;
                } else if (!strcmp(opt, "--seat")) {
                    const char *q = strchr(arg, '=');
                    if (q && !strncmp(q + 1, "ai:", 3)) {
                        snprintf(level, sizeof level, "%s", !strncmp(q + 4, "bot:", 4) ? q + 8 : q + 4);
                        o.level = level;
                    }
                }
                i += 2;
            } else if (!strncmp(argv[i], "--save=", 7)) {
                p.save = argv[i++] + 7;
            } else if (!strncmp(argv[i], "--lang=", 7)) {
                i++; /* pr_lang reads it */
            } else {
                fprintf(stderr, "parlour play karuta: unknown option '%s'\n%s", argv[i], play_usage);
                return 2;
            }
        }
        if (i >= argc)
            break;
        if (pr_word(argv[i], "variant", &v)) {
            if (strcmp(v, "kyogi") && strcmp(v, "chirashi") && strcmp(v, "uta")) {
                fprintf(stderr, "parlour play karuta: variant wants kyogi, uta or chirashi, got '%s'\n", v);
                return 2;
            }
            o.solo = !strcmp(v, "chirashi");
            o.uta = !strcmp(v, "uta");
        } else if (pr_word(argv[i], "players", &v)) {
            players = (int)strtol(v, &e, 10);
            if (*e || players < 0 || players > 8) {
                fputs("parlour play karuta: players wants 0-8 (chirashi: 1-8)\n", stderr);
                return 2;
            }
        } else if (pr_word(argv[i], "seed", &v)) {
            o.seed = v;
        } else if (!strcmp(argv[i], "send=manual") || !strcmp(argv[i], "place=auto") ||
                   !strcmp(argv[i], "rearrange=off")) {
            continue; /* what the real-time screen plays anyway */
        } else if (nw < 32) {
            words[nw++] = argv[i];
        }
    }
    if (players && !o.solo && players != (o.uta ? 4 : 2)) {
        fputs(o.uta ? "parlour play karuta: uta-karuta is for 4 players\n" : "parlour play karuta: kyogi is for 2 players\n",
              stderr);
        return 2;
    }
    if (o.solo)
        o.opponents = players ? players - 1 : 1;
    o.nwords = nw;
    o.words = words;
    pl_buf err = {0};
    if (pr_lang(&p, argc, argv, script != NULL) < 0) {
        pl_buf_free(&err);
        return 2;
    }
    o.lang = (int)p.lang;
    p.k = karp_new(&o, &err);
    if (!p.k) {
        fprintf(stderr, "parlour play karuta: %s\n", pl_buf_str(&err));
        pl_buf_free(&err);
        return 2;
    }
    /* The record from the start (--save): a file that cannot be written is
     * said now, before the screen, not after a game. */
    if (p.save && karp_save(p.k, p.save, &err) < 0) {
        fprintf(stderr, "parlour play karuta: --save: %s\n", pl_buf_str(&err));
        pl_buf_free(&err);
        karp_free(p.k);
        return 2;
    }
    pl_buf_free(&err);
    int r = pr_run(&p, script,
                   o.solo  ? "kar.script.play.chirashi"
                   : o.uta ? "kar.script.play.uta"
                           : "kar.script.play.kyogi");
    karp_free(p.k);
    return r;
}

int cli_karuta(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(usage_text, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "kimariji"))
        return kimariji(argc - 1, argv + 1);
    if (!strcmp(argv[1], "practice"))
        return practice_cmd(argc - 1, argv + 1);
    if (!strcmp(argv[1], "drill"))
        return cli_karuta_drill(argc - 1, argv + 1);
    fprintf(stderr, "parlour karuta: unknown subcommand '%s'\n%s", argv[1], usage_text);
    return 2;
}
