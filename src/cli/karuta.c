/* karuta.c — `parlour karuta`: study aids and practice for the Hyakunin
 * Isshu. `parlour karuta kimariji [--read N,N,...]` prints each poem's static
 * kimariji (KA-K2) and, after the poems given as read, its dynamic kimariji
 * (KA-K3), computed by the karuta module through its public header
 * (src/games/karuta/public/kar_practice.h).
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

#include "kar_practice.h"
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
    int dist[KARP_DEPTH + 1] = {0}, now[KARP_DEPTH + 1] = {0};
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
        pl_buf_printf(&b, "%s  %s", karp_poem_poet(n), karp_poem_romaji(n));
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

/* ---- practice (`parlour karuta practice`) ------------------------------- */

/* The practice loop runs a session of the karuta practice API
 * (games/karuta/public/kar_practice.h: the match, the reading timeline, the
 * opponent, the judgements) and only draws and reads keys: input comes from
 * the terminal (ncursesw, getch polled every few ms, key times from
 * CLOCK_MONOTONIC) or from a --script file on a virtual clock, so the same
 * loop runs in tests without a terminal. */

#define PR_POLL_MS 10 /* getch polling period */
#define PR_MAXKEYS 64
#define PR_WRAP 110   /* columns of the judgement text */

typedef struct pr_key {
    int ch, ms;
} pr_key;

typedef struct practice {
    karp *k;
    FILE *script;  /* NULL: the terminal */
    pr_key keys[PR_MAXKEYS];
    int nkeys, ikey, vnow;
    struct timespec t0;
    bool quit;
    /* what the screen shows */
    int shown;     /* kana of the reading shown */
    char input[4];
} practice;

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
 * (space), quit, none. */
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
    p->nkeys = p->ikey = 0;
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

/* Draws zone `z` of the field (kyōgi: 0 yours, 1 the AI's; solo: the
 * field) from row `y`; returns the next free row. */
static int pr_draw_cards(const practice *p, int z, int y, pl_canvas *c)
{
    int rows = 0, cols = 0, dx = karp_solo(p->k) ? 5 : 6;
    karp_zone_size(p->k, z, &rows, &cols);
    for (int r = 0; r < rows; r++)
        for (int k = 0; k < cols; k++) {
            karp_cell cell;
            karp_cell_get(p->k, z, r, k, &cell);
            int x = 1 + dx * k, yy = y + 2 * r;
            if (cell.kind == KARP_CELL_NONE)
                continue;
            if (cell.kind == KARP_CELL_EMPTY) {
                pl_canvas_put(c, yy, x, PL_ST_DIM, " · ");
                continue;
            }
            pl_canvas_put(c, yy, x, PL_ST_DIM, cell.label);
            pl_canvas_put(c, yy + 1, x, cell.owner < 0 ? PL_ST_NORMAL : cell.owner == 0 ? PL_ST_RED : PL_ST_BLACK,
                          cell.head);
        }
    return y + 2 * rows;
}

/* Draws the screen; `reading`: the kana shown so far are drawn too. */
static void pr_draw(const practice *p, bool reading, const char *prompt)
{
    if (p->script)
        return;
    karp_status st;
    karp_get_status(p->k, &st);
    pl_canvas c = {0};
    int y = 0;
    if (karp_solo(p->k)) {
        pl_canvas_printf(&c, y++, 0, PL_ST_TITLE, "Karuta practice (chirashi, solo) - reading %d - taken %d, pot %d",
                         st.nread, st.count[0], st.pot);
        y = pr_draw_cards(p, 0, y + 1, &c);
    } else {
        pl_canvas_printf(&c, y++, 0, PL_ST_TITLE, "Karuta practice (kyogi) - reading %d - AI delay %d ms", st.nread,
                         karp_delay_ms(p->k));
        pl_canvas_printf(&c, y++, 0, PL_ST_BLACK, "AI (seat 1): %d cards, rows D-F", st.count[1]);
        y = pr_draw_cards(p, 1, y, &c);
        pl_canvas_put(&c, y++, 0, PL_ST_DIM, "  - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - -");
        y = pr_draw_cards(p, 0, y, &c);
        pl_canvas_printf(&c, y++, 0, PL_ST_RED, "You (seat 0): %d cards, rows A-C", st.count[0]);
    }
    y++;
    if (reading && p->shown > 0) {
        int x = pl_canvas_put(&c, y, 0, PL_ST_NORMAL, "Reading: ");
        for (int i = 0; i < p->shown; i++)
            x = pl_canvas_put(&c, y, x, PL_ST_HILITE, karp_kana(p->k, i));
    }
    y++;
    int x = pl_canvas_printf(&c, y, 0, PL_ST_NORMAL, "Touch: %s", p->input);
    for (int i = 0; i < karp_touch_count(p->k); i++) {
        char lab[KARP_LABEL];
        int ms = karp_touch_get(p->k, i, lab);
        x = pl_canvas_printf(&c, y, x + 2, PL_ST_MARK, "%s@%d", lab[0] ? lab : "?", ms);
    }
    y += 2;
    const char *said = karp_judgement(p->k);
    if (*said) { /* the last judgement, word-wrapped at PR_WRAP columns */
        char word[256];
        x = 0;
        for (const char *t = said; *t;) {
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

/* Waits for a key (terminal) so the player can read; false on 'q'. */
static bool pr_wait(practice *p, const char *prompt)
{
    if (p->script)
        return true;
    pr_draw(p, false, prompt);
    timeout(-1);
    int ch = getch();
    return ch != 'q' && ch != 'Q';
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
    if (!p->script) {
        char prompt[96];
        karp_status st;
        karp_get_status(p->k, &st);
        snprintf(prompt, sizeof prompt, "Reading %d: any key to start it (q quits)", st.nread + 1);
        if (!pr_wait(p, prompt))
            return 0;
    }
    int r = karp_start(p->k, err);
    if (r <= 0)
        return r;
    int deadline = karp_deadline_ms(p->k);
    if (p->script && pr_script_keys(p, line, err) < 0)
        return -1;
    p->input[0] = '\0';
    p->shown = 0;
    if (!p->script) {
        pr_draw(p, false, "");
        napms(karp_pause_ms(p->k)); /* the 1 of 5-3-1-6 */
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
        int shown = karp_kana_shown(p->k, now);
        if (shown != p->shown || !p->script) {
            p->shown = shown;
            pr_draw(p, true, "Type a slot label to touch (e.g. A05); space: no touch; q: quit");
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
        } else if (len == 0 && ch < 128 && isalpha(ch)) { /* KEY_* codes are past 255 */
            p->input[0] = (char)toupper(ch);
            p->input[1] = '\0';
        } else if (len > 0 && len < 3 && ch < 128 && isdigit(ch)) {
            p->input[len] = (char)ch;
            p->input[len + 1] = '\0';
            if (len + 1 == 3) {
                pl_buf why = {0}; /* a label with no card, or one touched already: ignored */
                done = karp_touch(p->k, p->input, ms, &why) == 1;
                pl_buf_free(&why);
                p->input[0] = '\0';
            }
        }
    }
    if (karp_finish(p->k, err) < 0)
        return -1;
    if (p->script)
        printf("%s\n", karp_judgement(p->k));
    return 1;
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
    karp_options o = {.delay_ms = 400};
    const char *script = NULL;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "sS:d:n:f:h", lo, NULL)) != -1) {
        char *e = NULL;
        switch (c) {
        case 's': o.solo = true; break;
        case 'S': o.seed = optarg; break;
        case 'd':
            o.delay_ms = (int)strtol(optarg, &e, 10);
            if (*e || o.delay_ms < 0 || o.delay_ms > KARP_DELAY_MAX) {
                fputs("parlour karuta practice: --delay-ms wants 0-10000\n", stderr);
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
        case 'h': fputs(practice_usage, stdout); return 0;
        default: fputs(practice_usage, stderr); return 2;
        }
    }
    o.nwords = argc - optind;
    o.words = argv + optind;
    practice p;
    memset(&p, 0, sizeof p);
    pl_buf err = {0};
    p.k = karp_new(&o, &err);
    if (!p.k) {
        fprintf(stderr, "parlour karuta practice: %s\n", pl_buf_str(&err));
        pl_buf_free(&err);
        return 2;
    }
    if (script && !(p.script = fopen(script, "r"))) {
        fprintf(stderr, "parlour karuta practice: cannot read %s\n", script);
        karp_free(p.k);
        pl_buf_free(&err);
        return 2;
    }
    if (!p.script) {
        term_start();
        curs_set(0);
    } else {
        printf("karuta practice (%s), seed %llu\n", o.solo ? "chirashi, solo" : "kyogi against the AI",
               (unsigned long long)karp_seed(p.k));
    }
    int r;
    while ((r = pr_reading(&p, &err)) > 0)
        ;
    const char *st = r == 0 ? karp_stats(p.k) : "";
    if (!p.script) {
        if (r == 0)
            pr_wait(&p, "The practice is over: any key for the statistics.");
        endwin();
    }
    if (r < 0)
        fprintf(stderr, "parlour karuta practice: %s\n", pl_buf_str(&err));
    else
        fputs(st, stdout);
    if (p.script)
        fclose(p.script);
    pl_buf_free(&err);
    karp_free(p.k);
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
