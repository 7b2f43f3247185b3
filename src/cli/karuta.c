/* karuta.c — `parlour karuta`: study aids and practice for the Hyakunin
 * Isshu. `parlour karuta kimariji [--read N,N,...]` prints each poem's static
 * kimariji (KA-K2) and, after the poems given as read, its dynamic kimariji
 * (KA-K3), computed by the rules module (src/games/karuta/).
 * `parlour karuta practice` is real-time practice in the terminal (ncursesw)
 * against an AI with a fixed reaction delay, or alone on a chirashi field
 * (KA-S5), played through the game interface; a --script mode replaces the
 * terminal and the clock for tests.
 */
#include <ctype.h>
#include <curses.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <utf8proc.h>

#include "../games/karuta/kar.h"
#include "cli.h"
#include "term.h"

static const char usage_text[] =
    "usage: parlour karuta kimariji [--read N,N,...]\n"
    "       parlour karuta practice [--solo] [--seed N] [--delay-ms N] [--readings N] [--script FILE]\n"
    "                               [KEY=VALUE ...]   (see parlour karuta practice --help)\n"
    "Prints the kimariji (deciding kana) of the hundred poems: the static ones over all\n"
    "100 (KA-K2) and, with --read, the dynamic ones once the listed poems have been read\n"
    "(KA-K3: the comparison set is every poem not yet read). Columns: number, static\n"
    "kimariji and length, current kimariji and length (or 'read'), poet, romaji.\n";

/* Parses "N,N,..." into `read` flags. Returns 0, or -1 with a message. */
static int parse_read(const char *arg, kar_kim *k)
{
    const char *p = arg;
    while (*p) {
        char *e;
        long n = strtol(p, &e, 10);
        if (e == p || n < 1 || n > KAR_NPOEMS || (*e && *e != ',')) {
            fprintf(stderr, "parlour karuta kimariji: --read wants poem numbers 1-100 separated by commas, got '%s'\n",
                    arg);
            return -1;
        }
        kar_kim_read(k, (int)n);
        p = *e ? e + 1 : e;
    }
    return 0;
}

static int kimariji(int argc, char **argv)
{
    static const struct option longopts[] = {{"read", required_argument, NULL, 'r'},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    kar_kim k;
    kar_kim_init(&k);
    int c, nread = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "r:h", longopts, NULL)) != -1) {
        if (c == 'h') {
            fputs(usage_text, stdout);
            return 0;
        }
        if (c != 'r' || parse_read(optarg, &k) < 0) {
            if (c != 'r')
                fputs(usage_text, stderr);
            return 2;
        }
    }
    if (optind < argc) {
        fputs(usage_text, stderr);
        return 2;
    }
    int dist[KAR_DEPTH + 1] = {0}, now[KAR_DEPTH + 1] = {0};
    pl_buf b = {0};
    for (int n = 1; n <= KAR_NPOEMS; n++) {
        const kar_poem *p = kar_poem_get(n);
        dist[p->kim]++;
        pl_buf_clear(&b);
        pl_buf_printf(&b, "%3d  ", n);
        kar_key_text(n, p->kim, &b);
        pl_buf_printf(&b, "%*s%d  ", 2 * (KAR_DEPTH - p->kim) + 1, "", p->kim);
        if (k.unread[n]) {
            int d = kar_kim_dynamic(&k, n);
            now[d]++;
            kar_key_text(n, d, &b);
            pl_buf_printf(&b, "%*s%d  ", 2 * (KAR_DEPTH - d) + 1, "", d);
        } else {
            nread++;
            pl_buf_printf(&b, "%-*s", 2 * KAR_DEPTH + 4, "read");
        }
        pl_buf_printf(&b, "%s  %s", p->poet, p->romaji);
        puts(pl_buf_str(&b));
    }
    pl_buf_free(&b);
    printf("static kimariji by length 1-6:");
    for (int d = 1; d <= KAR_DEPTH; d++)
        printf(" %d", dist[d]);
    if (nread) {
        printf("\nafter %d read, the %d unread by length 1-6:", nread, KAR_NPOEMS - nread);
        for (int d = 1; d <= KAR_DEPTH; d++)
            printf(" %d", now[d]);
    }
    putchar('\n');
    return 0;
}

/* ---- practice (`parlour karuta practice`) ------------------------------- */

/* The practice loop plays a real match through the interface (pl_match_play
 * with touch actions): seat 0 is the player, seat 1 (kyōgi) the AI; with
 * --solo a chirashi field with one player (KA-S5). Input comes from the
 * terminal (ncursesw, getch polled every few ms, key times from
 * CLOCK_MONOTONIC) or from a --script file on a virtual clock, so the same
 * loop runs in tests without a terminal. */

#define PR_GRACE_MS 1500 /* the window stays open this long after the reading */
#define PR_POLL_MS 10    /* getch polling period */
#define PR_MAXKEYS 64
#define PR_WRAP 110     /* columns of the judgement text */

typedef struct pr_key {
    int ch, ms;
} pr_key;

typedef struct pr_stat {
    int card, kim, decide_ms, taker, take_ms, fouls;
} pr_stat;

typedef struct practice {
    pl_match *m;
    bool solo;     /* chirashi, one player */
    int delay_ms;  /* AI: touch this long after the deciding kana */
    int readings;  /* stop after this many (0: to the end) */
    FILE *script;  /* NULL: the terminal */
    pr_key keys[PR_MAXKEYS];
    int nkeys, ikey, vnow;
    struct timespec t0;
    uint8_t field_at[5][20]; /* chirashi: card under label A01..E20 */
    char label_of[KAR_NPOEMS + 1][8];
    pr_stat st[KAR_NPOEMS];
    int nst;
    bool quit;
    /* what the screen shows */
    int shown;                        /* kana of the reading shown */
    char input[4];
    kar_touch touch[KAR_MAXTOUCH];
    int nt;
    pl_buf said;                      /* the last judgement in words */
} practice;

static const kar_state *pr_state(const practice *p) { return p->m->state; }

static int pr_elapsed(const practice *p)
{
    if (p->script)
        return p->vnow;
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int)((t.tv_sec - p->t0.tv_sec) * 1000 + (t.tv_nsec - p->t0.tv_nsec) / 1000000);
}

/* Card under a slot label ("A05", "d12"), or 0. */
static int pr_card_at(const practice *p, const char *label)
{
    int L = toupper((unsigned char)label[0]), n = atoi(label + 1);
    if (!isdigit((unsigned char)label[1]) || !isdigit((unsigned char)label[2]))
        return 0;
    if (p->solo)
        return L >= 'A' && L <= 'E' && n >= 1 && n <= 20 ? p->field_at[L - 'A'][n - 1] : 0;
    if (L < 'A' || L > 'F' || n < 1 || n > KAR_SLOTS)
        return 0;
    int t = (L - 'A') / 3, row = (L - 'A') % 3 + 1;
    return pr_state(p)->grid[t][row - 1][n - 1];
}

/* Label of `card` where it lies now, or "" when it is not on the field;
 * `out` holds at least 8 bytes. */
static void pr_label(const practice *p, int card, char *out)
{
    const kar_state *s = pr_state(p);
    out[0] = '\0';
    if (p->solo) {
        if (s->loc[card] == KAR_LOC_FIELD)
            snprintf(out, 8, "%s", p->label_of[card]);
    } else if (kar_owner(s, card) >= 0 && s->row[card]) {
        kar_slot_label(s->loc[card], s->row[card], s->slot[card], out);
    }
}

/* Appends the first `n` characters of `s` (UTF-8). */
static void pr_first_chars(const char *s, int n, char *out, size_t cap)
{
    const utf8proc_uint8_t *u = (const utf8proc_uint8_t *)s;
    size_t len = 0;
    for (int i = 0; i < n && u[len];) {
        utf8proc_int32_t cp;
        utf8proc_ssize_t k = utf8proc_iterate(u + len, -1, &cp);
        if (k <= 0 || len + (size_t)k >= cap)
            break;
        len += (size_t)k;
        i += cp != ' ';
    }
    memcpy(out, s, len);
    out[len] = '\0';
}

/* Reads the script's line for the next reading into timed keys (virtual
 * clock). Returns false at the end of the script. Tokens: LABEL@MS,
 * hit+MS / hit-MS (the read card, relative to its deciding kana),
 * wrong@MS (the lowest card on the field in a territory without the read
 * card), pass@MS (space), quit, none. */
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
    const kar_state *s = pr_state(p);
    char buf[512], lab[8];
    snprintf(buf, sizeof buf, "%s", line);
    p->nkeys = p->ikey = 0;
    char *save = NULL;
    for (char *t = strtok_r(buf, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        int ms = 0;
        if (!strcmp(t, "none"))
            continue;
        if (!strcmp(t, "quit")) {
            pr_add_keys(p, "q", 0);
        } else if (!strncmp(t, "hit", 3) && (t[3] == '+' || t[3] == '-') && sscanf(t + 3, "%d", &ms) == 1) {
            pr_label(p, s->cur, lab);
            pr_add_keys(p, lab, s->last.decide_ms + ms);
        } else if (!strncmp(t, "wrong@", 6) && sscanf(t + 6, "%d", &ms) == 1) {
            int own = p->solo ? -2 : kar_owner(s, s->cur), w = 0;
            for (int c = 1; c <= KAR_NPOEMS && !w; c++)
                if (c != s->cur && (p->solo ? s->loc[c] == KAR_LOC_FIELD
                                            : kar_owner(s, c) >= 0 && kar_owner(s, c) != own &&
                                                  (own >= 0 || kar_owner(s, c) == 1)))
                    w = c;
            if (w) {
                pr_label(p, w, lab);
                pr_add_keys(p, lab, ms);
            }
        } else if (!strncmp(t, "pass@", 5) && sscanf(t + 5, "%d", &ms) == 1) {
            pr_add_keys(p, " ", ms);
        } else if (strlen(t) > 4 && t[3] == '@' && sscanf(t + 4, "%d", &ms) == 1) {
            snprintf(lab, sizeof lab, "%.3s", t);
            pr_add_keys(p, lab, ms);
        } else {
            pl_buf_printf(err, "bad script token '%s' (LABEL@MS, hit+MS, hit-MS, wrong@MS, pass@MS, quit, none)", t);
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

static void pr_draw_canvas(const pl_canvas *c)
{
    erase();
    term_put_canvas(c, 0, 0);
    refresh();
}

/* Draws territory `t` (kyōgi) or the field (solo) from row `y`. */
static int pr_draw_cards(const practice *p, int t, int y, pl_canvas *c)
{
    const kar_state *s = pr_state(p);
    char label[8], txt[24];
    if (p->solo) {
        for (int r = 0; r < 5; r++)
            for (int k = 0; k < 20; k++) {
                int card = p->field_at[r][k];
                if (!card)
                    continue;
                int x = 1 + 5 * k, yy = y + 2 * r;
                if (s->loc[card] != KAR_LOC_FIELD) {
                    pl_canvas_put(c, yy, x, PL_ST_DIM, " · ");
                    continue;
                }
                pr_first_chars(kar_poem_get(card)->card, 2, txt, sizeof txt);
                pl_canvas_put(c, yy, x, PL_ST_DIM, p->label_of[card]);
                pl_canvas_put(c, yy + 1, x, PL_ST_NORMAL, txt);
            }
        return y + 10;
    }
    for (int i = 0; i < KAR_ROWS; i++) {
        int row = t == 1 ? i + 1 : KAR_ROWS - i; /* the AI's near row at the top, as in kar_draw */
        for (int k = 0; k < KAR_SLOTS; k++) {
            int slot = t == 1 ? KAR_SLOTS - k : k + 1;
            int card = s->grid[t][row - 1][slot - 1], x = 1 + 6 * k, yy = y + 2 * i;
            if (!card) {
                pl_canvas_put(c, yy, x, PL_ST_DIM, " · ");
                continue;
            }
            kar_slot_label(t, row, slot, label);
            pr_first_chars(kar_poem_get(card)->card, 2, txt, sizeof txt);
            pl_canvas_put(c, yy, x, PL_ST_DIM, label);
            pl_canvas_put(c, yy + 1, x, t == 0 ? PL_ST_RED : PL_ST_BLACK, txt);
        }
    }
    return y + 2 * KAR_ROWS;
}

static void pr_draw(const practice *p, const kar_kana *tl, const char *prompt)
{
    if (p->script)
        return;
    const kar_state *s = pr_state(p);
    pl_canvas c = {0};
    int y = 0;
    if (p->solo) {
        pl_canvas_printf(&c, y++, 0, PL_ST_TITLE, "Karuta practice (chirashi, solo) - reading %d - taken %d, pot %d",
                         s->nread, s->count[0], s->pot);
        y = pr_draw_cards(p, 0, y + 1, &c);
    } else {
        pl_canvas_printf(&c, y++, 0, PL_ST_TITLE, "Karuta practice (kyogi) - reading %d - AI delay %d ms", s->nread,
                         p->delay_ms);
        pl_canvas_printf(&c, y++, 0, PL_ST_BLACK, "AI (seat 1): %d cards, rows D-F", s->count[1]);
        y = pr_draw_cards(p, 1, y, &c);
        pl_canvas_put(&c, y++, 0, PL_ST_DIM, "  - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - -");
        y = pr_draw_cards(p, 0, y, &c);
        pl_canvas_printf(&c, y++, 0, PL_ST_RED, "You (seat 0): %d cards, rows A-C", s->count[0]);
    }
    y++;
    if (tl && p->shown > 0) {
        int x = pl_canvas_put(&c, y, 0, PL_ST_NORMAL, "Reading: ");
        for (int i = 0; i < p->shown; i++)
            x = pl_canvas_put(&c, y, x, PL_ST_HILITE, tl[i].kana);
    }
    y++;
    int x = pl_canvas_printf(&c, y, 0, PL_ST_NORMAL, "Touch: %s", p->input);
    for (int i = 0; i < p->nt; i++) {
        char lab[8];
        pr_label(p, p->touch[i].card, lab);
        x = pl_canvas_printf(&c, y, x + 2, PL_ST_MARK, "%s@%d", lab[0] ? lab : "?", p->touch[i].ms);
    }
    y += 2;
    if (p->said.len) { /* the last judgement, word-wrapped at PR_WRAP columns */
        char word[256];
        x = 0;
        for (const char *t = pl_buf_str(&p->said); *t;) {
            if (*t == '\n' || *t == ' ') {
                if (*t == '\n') {
                    y++;
                    x = 0;
                }
                t++;
                continue;
            }
            size_t n = strcspn(t, " \n");
            snprintf(word, sizeof word, "%.*s", (int)(n < sizeof word ? n : sizeof word - 1), t);
            int w = pl_text_width(word);
            if (x > 0 && x + 1 + w > PR_WRAP) {
                y++;
                x = 0;
            }
            x = pl_canvas_put(&c, y, x + (x > 0), PL_ST_NORMAL, word);
            t += n;
        }
        y += 2;
    }
    pl_canvas_put(&c, y, 0, PL_ST_DIM, prompt);
    pr_draw_canvas(&c);
    pl_canvas_free(&c);
}

/* ---- one reading ---- */

/* First touch time of `card` in action `a`, or -1. */
static int pr_touch_ms(pl_action a, int card)
{
    kar_touch t[KAR_MAXTOUCH];
    int n = kar_touch_list(a, t);
    for (int i = 0; i < n; i++)
        if (t[i].card == card)
            return t[i].ms;
    return -1;
}

/* Why the reading went as it did, in plain words (from the engine's
 * judgement `j`, KA-R7 .. KA-R12, KA-S3). */
static void pr_words(const practice *p, const kar_judgement *j, pl_buf *out)
{
    const kar_state *s = pr_state(p);
    int you = pr_touch_ms(j->resp[0], j->card), ai = p->solo ? -1 : pr_touch_ms(j->resp[1], j->card);
    pl_buf_printf(out, "Poem %d, kimariji ", j->card);
    kar_key_text(j->card, j->kim, out);
    pl_buf_printf(out, " (%d kana, deciding kana at %d ms). ", j->kim, j->decide_ms);
    if (p->solo) {
        if (j->taker == 0)
            pl_buf_printf(out, "You took it at %d ms, %+d ms after the deciding kana.", j->take_ms,
                          j->take_ms - j->decide_ms);
        else
            pl_buf_puts(out, j->where == KAR_LOC_FIELD ? "You did not touch it; it leaves the field."
                                                       : "It was not on the field (a dead card).");
        if (j->fouls[0])
            pl_buf_puts(out, s->foul_pot ? " Foul: you touched a wrong card; one taken card, if any, goes to the pot (KA-S3)."
                                         : " Foul: you touched a wrong card (KA-S3).");
        return;
    }
    const char *side = j->where == 0 ? "your territory" : j->where == 1 ? "the AI's territory" : "no territory";
    if (j->taker >= 0) {
        int other = j->taker == 0 ? ai : you;
        const char *who = j->taker == 0 ? "You" : "The AI";
        if (other >= 0 && abs(you - ai) <= s->tie_ms)
            pl_buf_printf(out, "%s took it: both touched it within %d ms (%d and %d ms), a tie, and the card lay in %s "
                          "(KA-R7).", who, s->tie_ms, you, ai, side);
        else if (other >= 0)
            pl_buf_printf(out, "%s took it from %s: %d ms against %d ms (KA-R7).", who, side, j->take_ms, other);
        else
            pl_buf_printf(out, "%s took it from %s at %d ms (%+d ms after the deciding kana); the other did not touch it.",
                          who, side, j->take_ms, j->take_ms - j->decide_ms);
    } else if (j->where >= 2) {
        pl_buf_puts(out, "It was a dead card (karafuda): nobody could take it.");
    } else {
        pl_buf_printf(out, "Nobody touched it; it leaves %s.", side);
    }
    for (int q = 0; q < 2; q++)
        if (j->fouls[q])
            pl_buf_printf(out, " %s %d foul%s: a touch in a territory without the card (KA-R8).",
                          q == 0 ? "You made" : "The AI made", j->fouls[q], j->fouls[q] > 1 ? "s" : "");
    if (j->sender >= 0) {
        pl_buf_printf(out, " %s %d card%s", j->sender == 0 ? "You send the AI" : "The AI sends you", j->sent,
                      j->sent == 1 ? "" : "s");
        for (int i = 0; i < j->sent; i++)
            pl_buf_printf(out, "%s%d", i ? ", " : ": poem ", j->sent_cards[i]);
        pl_buf_puts(out, " (KA-R9).");
    } else {
        int r0 = (j->taker == 0 && j->where == 1) + j->fouls[1], r1 = (j->taker == 1 && j->where == 0) + j->fouls[0];
        if (r0 && r0 == r1)
            pl_buf_puts(out, " The send rights cancel out: nobody sends (KA-R9).");
    }
}

/* Waits for a key (terminal) so the player can read; false on 'q'. */
static bool pr_wait(practice *p, const char *prompt)
{
    if (p->script)
        return true;
    pr_draw(p, NULL, prompt);
    timeout(-1);
    int ch = getch();
    return ch != 'q' && ch != 'Q';
}

/* Plays one reading. Returns 1 when played, 0 when the session ends
 * (game over, script over, quit), -1 on an error (message in `err`). */
static int pr_reading(practice *p, pl_buf *err)
{
    pl_match *m = p->m;
    if (m->game->phase(m->state) == PL_PHASE_OVER || p->quit || (p->readings && pr_state(p)->nread >= p->readings))
        return 0;
    char line[512];
    if (p->script && !pr_script_line(p, line, sizeof line))
        return 0;
    if (!p->script) {
        char prompt[96];
        snprintf(prompt, sizeof prompt, "Reading %d: any key to start it (q quits)", pr_state(p)->nread + 1);
        if (!pr_wait(p, prompt))
            return 0;
    }
    pl_action rd;
    if (pl_match_random(m, &rd, err) < 0)
        return -1;
    const kar_state *s = pr_state(p);
    if (s->stage != KAR_ST_TOUCH) /* uta's void reading cannot happen here; be safe */
        return 1;
    int card = s->cur;
    kar_kana tl[2 * KAR_TL_MAX];
    int ntl = kar_timeline(card, s->upper_ms, s->lower_ms, p->solo, tl, 2 * KAR_TL_MAX);
    int end = ntl ? tl[ntl - 1].end_ms : s->upper_ms;
    int ai_ms = !p->solo && kar_owner(s, card) >= 0 ? s->last.decide_ms + p->delay_ms : -1;
    if (ai_ms > KAR_MS_MAX)
        ai_ms = KAR_MS_MAX;
    int deadline = end + PR_GRACE_MS;
    if (ai_ms >= 0 && ai_ms + s->tie_ms + 1 < deadline)
        deadline = ai_ms + s->tie_ms + 1; /* the AI has taken it: ties still count */
    if (deadline > KAR_MS_MAX)
        deadline = KAR_MS_MAX;
    if (p->script && pr_script_keys(p, line, err) < 0)
        return -1;
    p->nt = 0;
    p->input[0] = '\0';
    p->shown = 0;
    if (!p->script) {
        pr_draw(p, NULL, "");
        napms(s->pause_ms); /* the 1 of 5-3-1-6 */
        flushinp();
        clock_gettime(CLOCK_MONOTONIC, &p->t0);
    } else {
        p->vnow = 0;
    }
    bool done = false;
    while (!done) {
        int now = pr_elapsed(p);
        if (now >= deadline)
            break;
        int shown = 0;
        while (shown < ntl && tl[shown].start_ms <= now)
            shown++;
        if (shown != p->shown || !p->script) {
            p->shown = shown;
            pr_draw(p, tl, "Type a slot label to touch (e.g. A05); space: no touch; q: quit");
        }
        int ms, ch = pr_next_key(p, deadline, &ms);
        if (ch < 0)
            continue;
        size_t len = strlen(p->input);
        if (ch == 'q' || ch == 'Q') {
            p->quit = done = true;
        } else if (ch == ' ') {
            done = true;
        } else if (ch == 27 || ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
            p->input[0] = '\0';
        } else if (len == 0 && isalpha(ch)) {
            p->input[0] = (char)toupper(ch);
            p->input[1] = '\0';
        } else if (len > 0 && len < 3 && isdigit(ch)) {
            p->input[len] = (char)ch;
            p->input[len + 1] = '\0';
            if (len + 1 == 3) {
                int c = pr_card_at(p, p->input);
                bool dup = false;
                for (int i = 0; i < p->nt; i++)
                    dup = dup || p->touch[i].card == c;
                if (c && !dup) {
                    p->touch[p->nt++] = (kar_touch){(uint8_t)c, (uint16_t)(ms > KAR_MS_MAX ? KAR_MS_MAX : ms)};
                    done = c == card || p->nt == KAR_MAXTOUCH;
                }
                p->input[0] = '\0';
            }
        }
    }
    p->shown = ntl;
    pl_action you = p->nt ? kar_touch_action(p->touch, p->nt) : KAR_A_NONE;
    if (pl_match_play(m, 0, you, err) < 0)
        return -1;
    if (!p->solo) {
        kar_touch t = {(uint8_t)card, (uint16_t)(ai_ms < 0 ? 0 : ai_ms)};
        if (pl_match_play(m, 1, ai_ms >= 0 ? kar_touch_action(&t, 1) : KAR_A_NONE, err) < 0)
            return -1;
    }
    s = pr_state(p);
    const kar_judgement *j = &s->last;
    p->st[p->nst++] = (pr_stat){card, j->kim, j->decide_ms, j->taker, j->take_ms, j->fouls[0]};
    pl_buf_clear(&p->said);
    pl_buf_printf(&p->said, "%d. ", s->nread);
    pr_words(p, j, &p->said);
    pl_buf_puts(&p->said, "\nEngine: ");
    kar_judgement_text(s, j, &p->said);
    if (p->script)
        printf("%s\n", pl_buf_str(&p->said));
    return 1;
}

static int pr_cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Appends the take-time statistics (KA-R16, KA-S5). */
static void pr_stats(const practice *p, pl_buf *out)
{
    const kar_state *s = pr_state(p);
    int d[KAR_NPOEMS], n = 0, ai = 0, fouls = 0;
    pl_buf_printf(out, "Take times (ms after the deciding kana), %d reading%s:\n", p->nst, p->nst == 1 ? "" : "s");
    pl_buf_puts(out, "  poem  kimariji            you\n");
    for (int i = 0; i < p->nst; i++) {
        const pr_stat *r = &p->st[i];
        fouls += r->fouls;
        ai += r->taker == 1;
        if (r->taker != 0)
            continue;
        d[n++] = r->take_ms - r->decide_ms;
        pl_buf b = {0};
        kar_key_text(r->card, r->kim, &b);
        pl_buf_printf(out, "  %4d  %d %s%*s%+6d\n", r->card, r->kim, pl_buf_str(&b), 2 * (KAR_DEPTH - r->kim) + 4,
                      "", r->take_ms - r->decide_ms);
        pl_buf_free(&b);
    }
    if (n) {
        long sum = 0;
        for (int i = 0; i < n; i++)
            sum += d[i];
        qsort(d, (size_t)n, sizeof *d, pr_cmp_int);
        double med = n % 2 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2.0;
        pl_buf_printf(out, "You took %d: mean %+.0f ms, median %+.0f ms.\n", n, (double)sum / n, med);
    } else {
        pl_buf_puts(out, "You took none.\n");
    }
    if (!p->solo)
        pl_buf_printf(out, "The AI took %d. Your fouls: %d. Cards left: you %d, the AI %d.\n", ai, fouls, s->count[0],
                      s->count[1]);
    else
        pl_buf_printf(out, "Your fouls: %d. Taken: %d, in the pot: %d.\n", fouls, s->count[0], s->pot);
    if (s->stage == KAR_ST_OVER) {
        if (p->solo)
            pl_buf_puts(out, "Every card on the field is taken or gone.\n");
        else
            pl_buf_puts(out, s->winner == 0 ? "You win: your territory is empty.\n"
                             : s->winner == 1 ? "The AI wins.\n" : "A draw.\n");
    }
}

static const char practice_usage[] =
    "usage: parlour karuta practice [--solo] [--seed N] [--delay-ms N] [--readings N]\n"
    "                               [--script FILE] [KEY=VALUE ...]\n"
    "Kyogi practice against an AI in the terminal: both territories are drawn with each card's\n"
    "first characters and a slot label (yours A-C, the AI's D-F); the upper half appears kana\n"
    "by kana at reading speed. Touch a card by typing its label (e.g. A05): the time of the\n"
    "last key press, from the first kana, is your touch time. Up to 3 touches a reading; space\n"
    "ends your turn with no touch; q quits. The AI touches the read card --delay-ms after its\n"
    "deciding kana (default 400). After each reading: who took it and why, fouls and sends;\n"
    "at the end, your take times (mean, median).\n"
    "  --solo         chirashi practice alone (KA-S5): 100 cards (cards=50: 50) on one field,\n"
    "                 labels A01-E20, whole poems read, take times recorded\n"
    "  --seed N       the deal and the reading order (same seed, same practice)\n"
    "  --readings N   stop after N readings\n"
    "  --script FILE  no terminal: one line per reading of timed touches, on a virtual clock\n"
    "                 (LABEL@MS, hit+MS or hit-MS: the read card relative to its deciding\n"
    "                 kana, wrong@MS, pass@MS, none, quit; # comments); prints each judgement\n"
    "                 and the statistics\n"
    "  KEY=VALUE      game options (parlour rules karuta), e.g. upper_ms=4000 tie_ms=20;\n"
    "                 variant, players, send, place and rearrange are set by the practice\n";

static int practice_cmd(int argc, char **argv)
{
    static const struct option lo[] = {{"solo", no_argument, NULL, 's'},
                                       {"seed", required_argument, NULL, 'S'},
                                       {"delay-ms", required_argument, NULL, 'd'},
                                       {"readings", required_argument, NULL, 'n'},
                                       {"script", required_argument, NULL, 'f'},
                                       {"help", no_argument, NULL, 'h'},
                                       {NULL, 0, NULL, 0}};
    practice p;
    memset(&p, 0, sizeof p);
    p.delay_ms = 400;
    const char *seed = NULL, *script = NULL;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "sS:d:n:f:h", lo, NULL)) != -1) {
        char *e = NULL;
        switch (c) {
        case 's': p.solo = true; break;
        case 'S': seed = optarg; break;
        case 'd':
            p.delay_ms = (int)strtol(optarg, &e, 10);
            if (*e || p.delay_ms < 0 || p.delay_ms > 10000) {
                fputs("parlour karuta practice: --delay-ms wants 0-10000\n", stderr);
                return 2;
            }
            break;
        case 'n':
            p.readings = (int)strtol(optarg, &e, 10);
            if (*e || p.readings < 1 || p.readings > KAR_NPOEMS) {
                fputs("parlour karuta practice: --readings wants 1-100\n", stderr);
                return 2;
            }
            break;
        case 'f': script = optarg; break;
        case 'h': fputs(practice_usage, stdout); return 0;
        default: fputs(practice_usage, stderr); return 2;
        }
    }
    char *words[40];
    char seedw[64];
    int nw = 0;
    words[nw++] = p.solo ? "variant=chirashi" : "variant=kyogi";
    words[nw++] = p.solo ? "players=1" : "send=auto";
    if (!p.solo)
        words[nw++] = "place=auto";
    if (seed) {
        snprintf(seedw, sizeof seedw, "seed=%s", seed);
        words[nw++] = seedw;
    }
    for (int i = optind; i < argc && nw < 40; i++) {
        static const char *const fixed[] = {"variant=", "players=", "send=", "place=", "seed=", "rearrange="};
        for (size_t k = 0; k < sizeof fixed / sizeof *fixed; k++)
            if (!strncmp(argv[i], fixed[k], strlen(fixed[k]))) {
                fprintf(stderr, "parlour karuta practice: %s is set by the practice (use --seed for the seed)\n",
                        argv[i]);
                return 2;
            }
        words[nw++] = argv[i];
    }
    pl_buf err = {0};
    p.m = pl_match_new(&kar_game, nw, words, &err);
    if (!p.m) {
        fprintf(stderr, "parlour karuta practice: %s\n", pl_buf_str(&err));
        pl_buf_free(&err);
        return 2;
    }
    if (script && !(p.script = fopen(script, "r"))) {
        fprintf(stderr, "parlour karuta practice: cannot read %s\n", script);
        pl_match_free(p.m);
        pl_buf_free(&err);
        return 2;
    }
    if (p.solo) { /* field labels in poem order: A01..A20, B01.. */
        int i = 0;
        for (int card = 1; card <= KAR_NPOEMS; card++)
            if (pr_state(&p)->loc[card] == KAR_LOC_FIELD) {
                p.field_at[i / 20][i % 20] = (uint8_t)card;
                snprintf(p.label_of[card], sizeof p.label_of[card], "%c%02d", 'A' + i / 20, i % 20 + 1);
                i++;
            }
    }
    if (!p.script) {
        term_start();
        curs_set(0);
    } else {
        printf("karuta practice (%s), seed %llu\n", p.solo ? "chirashi, solo" : "kyogi against the AI",
               (unsigned long long)p.m->seed);
    }
    int r;
    while ((r = pr_reading(&p, &err)) > 0)
        ;
    pl_buf st = {0};
    if (r == 0)
        pr_stats(&p, &st);
    if (!p.script) {
        if (r == 0)
            pr_wait(&p, "The practice is over: any key for the statistics.");
        endwin();
    }
    if (r < 0)
        fprintf(stderr, "parlour karuta practice: %s\n", pl_buf_str(&err));
    else
        fputs(pl_buf_str(&st), stdout);
    if (p.script)
        fclose(p.script);
    pl_buf_free(&st);
    pl_buf_free(&p.said);
    pl_buf_free(&err);
    pl_match_free(p.m);
    return r < 0 ? 1 : 0;
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
    fprintf(stderr, "parlour karuta: unknown subcommand '%s'\n%s", argv[1], usage_text);
    return 2;
}
