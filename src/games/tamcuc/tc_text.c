/* tc_text.c — Tam Cúc notation (docs/notation-tamcuc.md): cards and actions,
 * their per-viewer forms, the `view` observation, the picture, and the
 * one-line position text. Nothing here is on the hot path.
 *
 * Secrecy: every function here that takes a viewer seat prints another
 * seat's face-down cards only as a count (TC-R6.5, information model).
 */
#include <ctype.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tc.h"

#include <jansson.h>

#include "parlour/alloc.h"
#include "parlour/jsonout.h"
#include "parlour/words.h"

#define ONE TC_ONE
#define NIB TC_NIB

/* The characters of the cards as printed: black 卒 馬 砲 車 象 士 將, red
 * 兵 傌 炮 俥 相 仕 帥 (the two sides of xiangqi), by [red][rank]. */
static const char *const rank_cjk[2][7] = {{"卒", "馬", "砲", "車", "象", "士", "將"},
                                           {"兵", "傌", "炮", "俥", "相", "仕", "帥"}};
static const char *const rank_vi[7] = {"tốt", "mã", "pháo", "xe", "tượng", "sĩ", "tướng"};
static const char *const phase_name[] = {"count", "dealer", "deal", "exchange", "declare",
                                         "lead", "lay", "reveal", "over"};
_Static_assert(sizeof phase_name / sizeof *phase_name == TC_PH_OVER + 1, "a name for every phase");
static const uint8_t full_copies_t[TC_NKIND] = {5, 5, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1};

static void card_text(int k, pl_buf *out)
{
    pl_buf_putc(out, (k & 1) ? 'r' : 'b');
    pl_buf_putc(out, tc_rank_ch[k >> 1]);
}

void tc_cards_text(tc_cards x, const char *sep, pl_buf *out)
{
    char buf[TC_NPHYS * 8];
    size_t n = 0, sl = strlen(sep);
    for (int k = TC_NKIND - 1; k >= 0; k--)
        for (int c = NIB(x, k); c > 0 && n + sl + 2 < sizeof buf; c--) {
            if (n) {
                memcpy(buf + n, sep, sl);
                n += sl;
            }
            buf[n++] = (k & 1) ? 'r' : 'b';
            buf[n++] = tc_rank_ch[k >> 1];
        }
    if (!n)
        buf[n++] = '-';
    pl_buf_append(out, buf, n);
}

int tc_parse_card(const char *t, int *kind)
{
    if (!t[0] || !t[1] || t[2])
        return -1;
    int red;
    char c = (char)tolower((unsigned char)t[0]);
    if (c == 'r')
        red = 1;
    else if (c == 'b')
        red = 0;
    else
        return -1;
    char r = (char)toupper((unsigned char)t[1]);
    for (int i = 0; i < 7; i++)
        if (tc_rank_ch[i] == r) {
            *kind = 2 * i + red;
            return 0;
        }
    return -1;
}

int tc_parse_cards(const char *t, tc_cards *x, int *n, pl_buf *err)
{
    *x = 0;
    *n = 0;
    if (!strcmp(t, "-"))
        return 0;
    char tok[8];
    const char *p = t;
    while (*p) {
        while (*p == ' ' || *p == ',')
            p++;
        if (!*p)
            break;
        size_t len = 0;
        while (p[len] && p[len] != ' ' && p[len] != ',')
            len++;
        int k;
        if (len >= sizeof tok) {
            pl_buf_printf(err, "bad card '%.*s': a card is r or b then G A E C N H S (rC, bS)", (int)len, p);
            return -1;
        }
        memcpy(tok, p, len);
        tok[len] = '\0';
        if (tc_parse_card(tok, &k) < 0) {
            pl_buf_printf(err, "bad card '%s': a card is r or b then G A E C N H S (rC, bS)", tok);
            return -1;
        }
        if (NIB(*x, k) >= full_copies_t[k]) {
            pl_buf_printf(err, "too many %s: the deck has %d", tok, full_copies_t[k]);
            return -1;
        }
        *x += ONE(k);
        (*n)++;
        p += len;
    }
    return 0;
}

/* ---------------------------------------------------------------- actions */

static void format_chance(const tc_state *s, pl_action a, int viewer, pl_buf *out)
{
    switch (s->phase) {
    case TC_PH_COUNT:
        pl_buf_printf(out, "count %d", (int)(a & 3));
        for (int i = 0; i < s->np; i++) {
            pl_buf_putc(out, ' ');
            card_text((int)(a >> (4 + 4 * i) & 15) % TC_NKIND, out);
        }
        return;
    case TC_PH_DEALER: pl_buf_printf(out, "dealer %d", (int)a); return;
    case TC_PH_DEAL: {
        tc_cards h[TC_MAXP], removed;
        tc_decode_deal(s, a, h, &removed);
        pl_buf_puts(out, "deal ");
        for (int p = 0; p < s->np; p++) {
            if (p)
                pl_buf_putc(out, '/');
            if (viewer < 0 || viewer == p)
                tc_cards_text(h[p], ",", out);
            else
                pl_buf_putc(out, '?');
        }
        return;
    }
    default: pl_buf_printf(out, "?%llx", (unsigned long long)a); return;
    }
}

static void format_any(const tc_state *s, int seat, pl_action a, int viewer, pl_buf *out)
{
    if (seat == PL_CHANCE) {
        format_chance(s, a, viewer, out);
        return;
    }
    int mine = viewer < 0 || viewer == seat;
    tc_cards x = TC_CARDS(a);
    switch (TC_TAG(a)) {
    case TC_A_LEAD:
    case TC_A_LAY:
    case TC_A_PASS:
        pl_buf_puts(out, TC_TAG(a) == TC_A_LEAD ? "lead " : TC_TAG(a) == TC_A_LAY ? "lay " : "pass ");
        if (mine)
            tc_cards_text(x, " ", out);
        else
            pl_buf_printf(out, "%d", tc_size(x)); /* face down: only how many */
        return;
    case TC_A_REVEAL: pl_buf_puts(out, "reveal"); return;
    case TC_A_HIDE: pl_buf_puts(out, "hide"); return;
    case TC_A_DECL: pl_buf_puts(out, x == 5 ? "declare five" : "declare four"); return;
    case TC_A_NODECL: pl_buf_puts(out, "nodeclare"); return;
    default: pl_buf_printf(out, "?%llx", (unsigned long long)a); return;
    }
}

void tc_format_action(const void *st, int seat, pl_action a, pl_buf *out)
{
    format_any(st, seat, a, -1, out);
}

void tc_format_action_for(const void *st, int seat, pl_action a, int viewer, pl_buf *out)
{
    format_any(st, seat, a, viewer, out);
}

static int parse_chance(const tc_state *s, const char *t, pl_action *a, pl_buf *err)
{
    switch (s->phase) {
    case TC_PH_DEALER: {
        int d;
        char extra;
        if (sscanf(t, "dealer %d%c", &d, &extra) == 1 && d >= 0 && d < s->np) {
            *a = (pl_action)d;
            return 0;
        }
        pl_buf_printf(err, "expected dealer SEAT (0-%d)", s->np - 1);
        return -1;
    }
    case TC_PH_COUNT: {
        char buf[128];
        snprintf(buf, sizeof buf, "%s", t);
        char *save = NULL, *w = strtok_r(buf, " ", &save);
        uint64_t code = 0;
        int ok = w && !strcmp(w, "count");
        w = ok ? strtok_r(NULL, " ", &save) : NULL;
        if (ok && w && strlen(w) == 1 && w[0] >= '0' && w[0] < '0' + s->np)
            code = (uint64_t)(w[0] - '0');
        else
            ok = 0;
        for (int i = 0; ok && i < s->np; i++) {
            int k;
            w = strtok_r(NULL, " ", &save);
            if (!w || tc_parse_card(w, &k) < 0)
                ok = 0;
            else
                code |= (uint64_t)k << (4 + 4 * i);
        }
        if (ok && strtok_r(NULL, " ", &save))
            ok = 0;
        if (!ok) {
            pl_buf_printf(err, "expected count PROV CARD×%d: the provisional dealer (0-%d), then the card "
                               "given to each player from his right (TC-R4.1)", s->np, s->np - 1);
            return -1;
        }
        if (tc_check_count(s, code, err) < 0)
            return -1;
        *a = code;
        return 0;
    }
    case TC_PH_DEAL: {
        if (strncmp(t, "deal ", 5) != 0) {
            pl_buf_puts(err, "expected deal H0/H1/... (each hand a comma-separated list of cards)");
            return -1;
        }
        tc_cards h[TC_MAXP] = {0};
        char buf[512];
        snprintf(buf, sizeof buf, "%s", t + 5);
        int p = 0;
        char *save = NULL;
        for (char *w = strtok_r(buf, "/", &save); w; w = strtok_r(NULL, "/", &save), p++) {
            int n;
            if (p >= s->np || tc_parse_cards(w, &h[p], &n, err) < 0) {
                if (p >= s->np)
                    pl_buf_printf(err, "a deal has %d hands", s->np);
                return -1;
            }
            if (n != s->hs) {
                pl_buf_printf(err, "seat %d gets %d cards, each hand holds %d (TC-R3)", p, n, s->hs);
                return -1;
            }
        }
        if (p != s->np) {
            pl_buf_printf(err, "a deal has %d hands, separated by /", s->np);
            return -1;
        }
        for (int k = 0; k < TC_NKIND; k++) { /* the encoding holds only the deck's copies */
            int c = 0;
            for (int q = 0; q < s->np; q++)
                c += NIB(h[q], k);
            if (c > NIB(s->deck, k)) {
                pl_buf_printf(err, "the hands hold %d %c%c, the deck in play has %d (TC-R3)", c,
                              k & 1 ? 'r' : 'b', tc_rank_ch[k / 2], NIB(s->deck, k));
                return -1;
            }
        }
        uint64_t code = tc_encode_deal(s, h);
        if (tc_check_deal(s, code, err) < 0)
            return -1;
        *a = code;
        return 0;
    }
    default: pl_buf_puts(err, "no chance outcome now"); return -1;
    }
}

int tc_parse_action(const void *st, int seat, const char *t, pl_action *a, pl_buf *err)
{
    const tc_state *s = st;
    if (seat == PL_CHANCE)
        return parse_chance(s, t, a, err);
    if (!strcmp(t, "reveal")) {
        *a = TC_MK(TC_A_REVEAL, 0);
        return 0;
    }
    if (!strcmp(t, "hide")) {
        *a = TC_MK(TC_A_HIDE, 0);
        return 0;
    }
    if (!strcmp(t, "nodeclare")) {
        *a = TC_MK(TC_A_NODECL, 0);
        return 0;
    }
    if (!strcmp(t, "declare four") || !strcmp(t, "declare five")) {
        *a = TC_MK(TC_A_DECL, t[8] == 'f' && t[9] == 'i' ? 5 : 4);
        return 0;
    }
    static const char *const verbs[3] = {"lead ", "lay ", "pass "};
    static const unsigned tags[3] = {TC_A_LEAD, TC_A_LAY, TC_A_PASS};
    for (int i = 0; i < 3; i++) {
        size_t l = strlen(verbs[i]);
        if (!strncmp(t, verbs[i], l)) {
            tc_cards x;
            int n;
            if (tc_parse_cards(t + l, &x, &n, err) < 0)
                return -1;
            if (n == 0) {
                pl_buf_printf(err, "%sneeds cards (rG bS ...)", verbs[i]);
                return -1;
            }
            *a = TC_MK(tags[i], x);
            return 0;
        }
    }
    pl_buf_puts(err, "expected lead CARDS, lay CARDS, reveal, hide, declare four|five, nodeclare or pass "
                     "CARDS (a card: r/b then G A E C N H S, e.g. lead rC rC)");
    return -1;
}

void tc_explain_illegal(const void *st, int seat, pl_action a, pl_buf *out)
{
    tc_why_illegal(st, seat, a, out);
}

/* ---------------------------------------------------------------- view */

/* What seat `seat` may know of seat `opp`'s cards in a two-player game
 * (TC-R3.3), or -1 when nothing is shown. */
static int opponent_cards(const tc_state *s, int seat, tc_cards *x)
{
    if (s->np != 2 || seat < 0 || s->phase < TC_PH_DECL)
        return -1;
    int opp = 1 - seat;
    if (s->open2 == TC_OPEN_INITIAL) {
        *x = tc_sub0(s->dealt[opp], s->shown[opp]);
        return 0;
    }
    if (s->open2 == TC_OPEN_CURRENT) {
        *x = s->hand[opp];
        return 0;
    }
    return -1;
}

static void seats_line(const char *key, const int16_t *v, int np, pl_buf *out)
{
    pl_buf_puts(out, key);
    for (int p = 0; p < np; p++)
        pl_buf_printf(out, " %d", v[p]);
    pl_buf_putc(out, '\n');
}

void tc_view(const void *st, int seat, pl_buf *out)
{
    const tc_state *s = st;
    int np = s->np, all = seat < 0;
    pl_buf_printf(out, "game tamcuc\nseat %d\nplayers %d\nphase %s\n", seat, np, phase_name[s->phase]);
    pl_buf_printf(out, "deal %d\ndealer %d\n", s->deals_done + (s->phase == TC_PH_OVER ? 0 : 1), s->dealer);
    int seats[TC_MAXP], na = s->phase == TC_PH_OVER ? 0 : tc_actors(s, seats);
    pl_buf_puts(out, "actors");
    for (int i = 0; i < na; i++)
        pl_buf_printf(out, " %d", seats[i]);
    if (!na)
        pl_buf_puts(out, " -");
    pl_buf_putc(out, '\n');
    if (s->count_prov >= 0) {
        pl_buf_printf(out, "counting %d", s->count_prov);
        for (int i = 0; i < np; i++) {
            pl_buf_putc(out, ' ');
            card_text(s->count_card[i], out);
        }
        pl_buf_printf(out, " steps %d\n", s->count_steps);
    }
    if (!all) {
        pl_buf_puts(out, "hand ");
        tc_cards_text(s->hand[seat], " ", out);
        pl_buf_putc(out, '\n');
    }
    pl_buf_puts(out, "sizes");
    for (int p = 0; p < np; p++)
        pl_buf_printf(out, " %d", tc_size(s->hand[p]));
    pl_buf_putc(out, '\n');
    for (int p = 0; p < np; p++)
        if (all) {
            pl_buf_printf(out, "hand%d ", p);
            tc_cards_text(s->hand[p], " ", out);
            pl_buf_putc(out, '\n');
        }
    /* night exchange */
    if (s->night_k && s->phase >= TC_PH_EXCH) {
        if (s->phase == TC_PH_EXCH) {
            pl_buf_puts(out, "exchanged");
            for (int p = 0; p < np; p++)
                if (s->xdone >> p & 1)
                    pl_buf_printf(out, " %d", p);
            pl_buf_putc(out, '\n');
        }
        for (int p = 0; p < np; p++) {
            if (!all && p != seat)
                continue;
            if (s->phase == TC_PH_EXCH && !(s->xdone >> p & 1))
                continue;
            pl_buf_printf(out, "passed %d ", p);
            tc_cards_text(s->passed[p], " ", out);
            pl_buf_putc(out, '\n');
            if (s->phase != TC_PH_EXCH) {
                int from = (p + np - 1) % np;
                pl_buf_printf(out, "received %d ", p);
                tc_cards_text(s->passed[from], " ", out);
                pl_buf_putc(out, '\n');
            }
        }
    }
    /* declarations */
    for (int i = 0; i < s->ndecl; i++) {
        int e = s->decl_log[i];
        pl_buf_printf(out, "declared %d %s %s%s\n", e & 3, (e >> 2 & 7) == 5 ? "five" : "four",
                      (e >> 5 & 1) ? "red" : "black", (e >> 6 & 1) ? " counter" : "");
    }
    if (s->phase == TC_PH_DECL)
        pl_buf_printf(out, "asking %s %d%s\n", s->dround == 5 ? "five" : "four", tc_decl_seat(s),
                      s->dctr ? " counter" : "");
    /* the trick */
    if (s->phase == TC_PH_LEAD || s->phase == TC_PH_LAY || s->phase == TC_PH_REVEAL) {
        pl_buf_printf(out, "trick %d %s%s\n", s->tleader, s->textra ? "extra" : "ordinary",
                      (s->phase == TC_PH_LEAD ? tc_ban_applies(s) : s->tban) ? " ban" : "");
    }
    if (s->phase == TC_PH_LAY || s->phase == TC_PH_REVEAL) {
        int L = s->tleader;
        pl_buf_printf(out, "lead %d ", L);
        if (s->tshown) {
            pl_buf_puts(out, "up ");
            tc_cards_text(s->tlead, " ", out);
        } else {
            pl_buf_printf(out, "down %d", s->tn);
            if (all || seat == L) {
                pl_buf_putc(out, ' ');
                tc_cards_text(s->tlead, " ", out);
            }
        }
        pl_buf_putc(out, '\n');
        for (int i = 1; i < np; i++) {
            int f = (L + i) % np;
            int laid = s->phase == TC_PH_REVEAL || i < s->tstep;
            pl_buf_printf(out, "lay %d ", f);
            if (!laid) {
                pl_buf_puts(out, "waiting\n");
                continue;
            }
            if (s->trev >> f & 1) {
                pl_buf_puts(out, "revealed ");
                tc_cards_text(s->tlay[f], " ", out);
            } else {
                pl_buf_printf(out, "%s %d", (s->thid >> f & 1) ? "hidden" : "down", s->tn);
                if (all || seat == f) {
                    pl_buf_putc(out, ' ');
                    tc_cards_text(s->tlay[f], " ", out);
                }
            }
            pl_buf_putc(out, '\n');
        }
    }
    if (s->pv_valid) {
        pl_buf_printf(out, "last %d %d winner %d lead ", s->pv_leader, s->pv_n, s->pv_winner);
        tc_cards_text(s->pv_lead, ",", out);
        for (int i = 1; i < np; i++) {
            int f = (s->pv_leader + i) % np;
            if (s->pv_rev >> f & 1) {
                pl_buf_printf(out, " %d:", f);
                tc_cards_text(s->pv_lay[f], ",", out);
            } else {
                pl_buf_printf(out, " %d:hidden", f);
            }
        }
        pl_buf_putc(out, '\n');
    }
    for (int p = 0; p < np; p++) {
        pl_buf_printf(out, "won %d %d ", p, tc_size(s->won[p]));
        tc_cards_text(s->won[p], " ", out);
        pl_buf_putc(out, '\n');
    }
    for (int p = 0; p < np; p++) {
        pl_buf_printf(out, "discard %d public %d ", p, tc_size(s->pub[p]));
        if (s->pubdisc_off && !all)
            pl_buf_putc(out, '-');
        else
            tc_cards_text(s->pub[p], " ", out);
        pl_buf_printf(out, " secret %d", tc_size(s->sec[p]));
        if (all || p == seat) {
            pl_buf_putc(out, ' ');
            tc_cards_text(s->sec[p], " ", out);
        }
        pl_buf_putc(out, '\n');
    }
    tc_cards opp;
    if (opponent_cards(s, seat, &opp) == 0) {
        pl_buf_printf(out, "opponent %s ", s->open2 == TC_OPEN_INITIAL ? "may-hold" : "holds");
        tc_cards_text(opp, " ", out);
        pl_buf_putc(out, '\n');
    }
    seats_line("dealscore", s->phase == TC_PH_OVER || s->phase <= TC_PH_DEAL ? s->last_score : s->dscore, np, out);
    seats_line("score", s->total, np, out);
    if (s->phase == TC_PH_OVER) {
        int best = s->total[0], nb = 0, w = 0;
        for (int p = 0; p < np; p++)
            if (s->total[p] > best)
                best = s->total[p];
        for (int p = 0; p < np; p++)
            if (s->total[p] == best) {
                nb++;
                w = p;
            }
        if (nb == 1)
            pl_buf_printf(out, "winner %d\n", w);
        else
            pl_buf_puts(out, "winner draw\n");
    }
}

/* ---------------------------------------------------------------- picture */

/* Draws card `k` at (row, col): "rG 將 tướng"; returns the next column. */
static int draw_card(pl_canvas *c, int row, int col, int k)
{
    char t[32];
    snprintf(t, sizeof t, "%c%c %s %s", (k & 1) ? 'r' : 'b', tc_rank_ch[k >> 1], rank_cjk[k & 1][k >> 1],
             rank_vi[k >> 1]);
    int e = pl_canvas_put(c, row, col, (k & 1) ? PL_ST_RED : PL_ST_BLACK, t);
    return e + 2;
}

/* Draws a multiset of cards, wrapping after `per_row` cards; returns the
 * number of rows used (at least 1). */
static int draw_cards(pl_canvas *c, int row, int col, tc_cards x, int per_row)
{
    int n = 0, r = 0, x0 = col;
    if (!x) {
        pl_canvas_put(c, row, col, PL_ST_DIM, "-");
        return 1;
    }
    for (int k = TC_NKIND - 1; k >= 0; k--)
        for (int i = NIB(x, k); i > 0; i--) {
            if (n && n % per_row == 0) {
                r++;
                col = x0;
            }
            col = draw_card(c, row + r, col, k);
            n++;
        }
    return r + 1;
}

static int draw_backs(pl_canvas *c, int row, int col, int n)
{
    for (int i = 0; i < n; i++)
        col = pl_canvas_put(c, row, col, PL_ST_DIM, "[▒▒] ");
    return col;
}

static const char *ban_name(int b)
{
    static const char *const names[] = {"none", "G A", "G A E", "G A E bS"};
    return names[b];
}

/* `n` as text ("-2", or "+3" when `sign`) in `b` (16 bytes, e.g. a
 * compound literal of the caller's call); returns `b`. */
static const char *num(char *b, bool sign, int n)
{
    snprintf(b, 16, sign ? "%+d" : "%d", n);
    return b;
}
#define NUM(n) num((char[16]){0}, false, (n))  /* "3", valid through the call it is written in */
#define SNUM(n) num((char[16]){0}, true, (n)) /* "+3" */

void tc_draw(const void *st, int seat, pl_canvas *c)
{
    const tc_state *s = st;
    pl_lang lang = (pl_lang)c->lang;
    int np = s->np, all = seat < 0, row = 0;
    pl_canvas_words(c, row++, 0, PL_ST_TITLE, "tc.pic.title", "np", NUM(np), "deal",
              NUM(s->deals_done + (s->phase == TC_PH_OVER ? 0 : 1)), "dealer", NUM(s->dealer + c->seat_from),
              NULL);
    pl_canvas_words(c, row++, 0, PL_ST_DIM, "tc.pic.rules", "soldier",
              pl_words(lang, s->soldier == TC_SS_SEIZE     ? "tc.pic.seize"
                             : s->soldier == TC_SS_AUTOWIN ? "tc.pic.autowin"
                                                           : "tc.pic.none"),
              "ban", s->ban ? ban_name(s->ban) : pl_words(lang, "tc.pic.none"), "big",
              pl_words(lang, s->big_leads ? "tc.pic.on" : "tc.pic.off"), "ket",
              pl_words(lang, s->ket ? "tc.pic.on" : "tc.pic.off"), "over",
              pl_words(lang, s->overtake ? "tc.pic.on" : "tc.pic.off"), NULL);
    if (s->count_prov >= 0) {
        int col = pl_canvas_words(c, row, 0, PL_ST_NORMAL, "tc.pic.counting", "n", NUM(s->count_prov + c->seat_from),
                            NULL);
        for (int i = 0; i < np; i++) {
            pl_canvas_printf(c, row, col + 1, PL_ST_NORMAL, "%d:", (s->count_prov + 1 + i) % np + c->seat_from);
            col = draw_card(c, row, col + 3, s->count_card[i]);
        }
        row++;
    }
    row++;
    for (int p = 0; p < np; p++) {
        int col = pl_canvas_words(c, row, 0, p == seat ? PL_ST_HILITE : PL_ST_NORMAL,
                            p == seat ? (p == s->dealer ? "tc.pic.seat.you_dealer" : "tc.pic.seat.you")
                                      : (p == s->dealer ? "tc.pic.seat.dealer" : "tc.pic.seat"),
                            "n", NUM(p + c->seat_from), NULL);
        col = pl_canvas_words(c, row, col < 22 ? 22 : col + 1, PL_ST_NORMAL, "tc.pic.score", "total", SNUM(s->total[p]),
                        "deal", SNUM(s->phase == TC_PH_OVER ? s->last_score[p] : s->dscore[p]), NULL);
        pl_canvas_words(c, row, col + 2, PL_ST_NORMAL, "tc.pic.hand_n", "n", NUM(tc_size(s->hand[p])), NULL);
        row++;
        /* A label's cards start at the English column, or after a longer label. */
        if (all || p == seat) {
            int e = pl_canvas_words(c, row, 2, PL_ST_NORMAL, "tc.pic.hand", NULL);
            row += draw_cards(c, row, e + 2 > 9 ? e + 2 : 9, s->hand[p], 8);
        } else if (s->hand[p]) {
            int e = pl_canvas_words(c, row, 2, PL_ST_NORMAL, "tc.pic.hand", NULL);
            draw_backs(c, row, e + 2 > 9 ? e + 2 : 9, tc_size(s->hand[p]));
            row++;
        }
        if (s->np == 2 && !all && p != seat) {
            tc_cards opp;
            if (opponent_cards(s, seat, &opp) == 0) {
                int e = pl_canvas_words(c, row, 2, PL_ST_DIM,
                                  s->open2 == TC_OPEN_INITIAL ? "tc.pic.may_hold" : "tc.pic.holds", NULL);
                row += draw_cards(c, row, e + 1 > 12 ? e + 1 : 12, opp, 8);
            }
        }
        if (s->won[p]) {
            int e = pl_canvas_words(c, row, 2, PL_ST_NORMAL, "tc.pic.won", "n", NUM(tc_size(s->won[p])), NULL);
            row += draw_cards(c, row, e + 1 > 11 ? e + 1 : 11, s->won[p], 8);
        }
        if (s->pub[p] || s->sec[p]) {
            int col2 = pl_canvas_words(c, row, 2, PL_ST_DIM, "tc.pic.discards", NULL);
            if (s->pub[p] && !(s->pubdisc_off && !all)) {
                draw_cards(c, row, col2 + 1, s->pub[p], 8);
                row++;
                col2 = col2 > 12 ? col2 : 12;
            }
            if (s->sec[p]) {
                if (all || p == seat) {
                    int e = pl_canvas_words(c, row, col2 + 1, PL_ST_DIM, "tc.pic.face_down", NULL);
                    row += draw_cards(c, row, e + 1 > col2 + 12 ? e + 1 : col2 + 12, s->sec[p], 8);
                } else {
                    col2 = pl_canvas_words(c, row, col2 + 1, PL_ST_DIM, "tc.pic.face_down", NULL);
                    draw_backs(c, row, col2 + 1, tc_size(s->sec[p]));
                    row++;
                }
            }
        }
    }
    row++;
    /* the table */
    if (s->phase == TC_PH_LAY || s->phase == TC_PH_REVEAL) {
        int L = s->tleader;
        int x = pl_canvas_words(c, row, 0, PL_ST_TITLE,
                          s->textra ? (s->tn > 1 ? "tc.pic.table.extra" : "tc.pic.table.extra.one")
                                    : (s->tn > 1 ? "tc.pic.table" : "tc.pic.table.one"),
                          "n", NUM(L + c->seat_from), "k", NUM(s->tn), NULL);
        if (s->tban)
            pl_canvas_words(c, row, x + 1, PL_ST_TITLE, "tc.pic.ban_note", NULL);
        row++;
        int col = pl_canvas_words(c, row, 2, PL_ST_NORMAL, "tc.pic.lead", "n", NUM(L + c->seat_from), NULL);
        if (s->tshown || all || seat == L)
            draw_cards(c, row, col + 1, s->tlead, 8);
        else
            draw_backs(c, row, col + 1, s->tn);
        if (!s->tshown && (all || seat == L))
            pl_canvas_words(c, row + 1, col + 1, PL_ST_DIM, "tc.pic.face_down_p", NULL);
        row += (!s->tshown && (all || seat == L)) ? 2 : 1;
        for (int i = 1; i < np; i++) {
            int f = (L + i) % np;
            int laid = s->phase == TC_PH_REVEAL || i < s->tstep;
            col = pl_canvas_words(c, row, 2, PL_ST_NORMAL, "tc.pic.laid", "n", NUM(f + c->seat_from), NULL);
            if (!laid)
                pl_canvas_words(c, row, col + 1, PL_ST_DIM, "tc.pic.to_lay", NULL);
            else if (s->trev >> f & 1)
                col = draw_cards(c, row, col + 1, s->tlay[f], 8), (void)col;
            else if (all || seat == f) {
                int e = draw_cards(c, row, col + 1, s->tlay[f], 8);
                (void)e;
                pl_canvas_words(c, row + 1, col + 1, PL_ST_DIM, (s->thid >> f & 1) ? "tc.pic.hidden_p" : "tc.pic.face_down_p",
                          NULL);
                row++;
            } else {
                col = draw_backs(c, row, col + 1, s->tn);
                if (s->thid >> f & 1)
                    pl_canvas_words(c, row, col, PL_ST_DIM, "tc.pic.hidden", NULL);
            }
            row++;
        }
        if (s->pv_valid) { /* the finished trick stays in sight while the next one is played */
            pl_buf t = {0};
            tc_cards_text(s->pv_winner == s->pv_leader ? s->pv_lead : s->pv_lay[s->pv_winner], " ", &t);
            pl_canvas_words(c, row++, 2, PL_ST_DIM, "tc.pic.last_trick_line", "w", NUM(s->pv_winner + c->seat_from),
                      "cards", pl_buf_str(&t), "l", NUM(s->pv_leader + c->seat_from), NULL);
            pl_buf_free(&t);
        }
        row++;
    } else if (s->pv_valid) {
        pl_canvas_words(c, row++, 0, PL_ST_TITLE, s->pv_n > 1 ? "tc.pic.last_trick" : "tc.pic.last_trick.one", "l",
                  NUM(s->pv_leader + c->seat_from), "k", NUM(s->pv_n), "w",
                  NUM(s->pv_winner + c->seat_from), NULL);
        int col = pl_canvas_words(c, row, 2, PL_ST_NORMAL, "tc.pic.lead", "n", NUM(s->pv_leader + c->seat_from), NULL);
        draw_cards(c, row++, col + 1, s->pv_lead, 8);
        for (int i = 1; i < np; i++) {
            int f = (s->pv_leader + i) % np;
            col = pl_canvas_words(c, row, 2, PL_ST_NORMAL, "tc.pic.laid", "n", NUM(f + c->seat_from), NULL);
            if (s->pv_rev >> f & 1)
                draw_cards(c, row, col + 1, s->pv_lay[f], 8);
            else
                pl_canvas_words(c, row, col + 1, PL_ST_DIM, "tc.pic.hidden", NULL);
            row++;
        }
        row++;
    }
    for (int i = 0; i < s->ndecl; i++) {
        int e = s->decl_log[i];
        pl_canvas_words(c, row++, 0, PL_ST_HILITE, (e >> 6 & 1) ? "tc.pic.declared.counter" : "tc.pic.declared", "n",
                  NUM((e & 3) + c->seat_from), "what",
                  pl_words(lang, (e >> 2 & 7) == 5 ? "tc.pic.five" : "tc.pic.four"),
                  "colour", pl_words(lang, (e >> 5 & 1) ? "tc.pic.red" : "tc.pic.black"), NULL);
    }
    int seats[TC_MAXP], na = s->phase == TC_PH_OVER ? 0 : tc_actors(s, seats);
    switch (s->phase) {
    case TC_PH_COUNT: pl_canvas_words(c, row, 0, PL_ST_NORMAL, "tc.pic.ph.count", NULL); break;
    case TC_PH_DEALER: pl_canvas_words(c, row, 0, PL_ST_NORMAL, "tc.pic.ph.dealer", NULL); break;
    case TC_PH_DEAL:
        pl_canvas_words(c, row, 0, PL_ST_NORMAL, "tc.pic.ph.deal", "n", NUM(s->dealer + c->seat_from), NULL);
        break;
    case TC_PH_EXCH: {
        int col = pl_canvas_words(c, row, 0, PL_ST_HILITE, s->night_k > 1 ? "tc.pic.ph.exch" : "tc.pic.ph.exch.one", "k",
                            NUM(s->night_k), NULL);
        for (int i = 0; i < na; i++)
            col = pl_canvas_printf(c, row, col, PL_ST_HILITE, " %d", seats[i] + c->seat_from);
        break;
    }
    case TC_PH_DECL:
        pl_canvas_words(c, row, 0, PL_ST_HILITE,
                  s->dround == 5 ? (s->dctr ? "tc.pic.ph.decl.5.counter" : "tc.pic.ph.decl.5")
                                 : (s->dctr ? "tc.pic.ph.decl.4.counter" : "tc.pic.ph.decl.4"),
                  "n", NUM(tc_decl_seat(s) + c->seat_from), NULL);
        break;
    case TC_PH_LEAD:
    {
        int x = pl_canvas_words(c, row, 0, PL_ST_HILITE, s->textra ? "tc.pic.ph.lead.extra" : "tc.pic.ph.lead", "n",
                          NUM(s->tleader + c->seat_from), NULL);
        if (tc_ban_applies(s))
            pl_canvas_words(c, row, x + 1, PL_ST_HILITE, "tc.pic.ph.lead.ban", NULL);
    }
        break;
    case TC_PH_LAY:
        pl_canvas_words(c, row, 0, PL_ST_HILITE, s->tn > 1 ? "tc.pic.ph.lay" : "tc.pic.ph.lay.one", "n",
                  NUM(seats[0] + c->seat_from), "k", NUM(s->tn), NULL);
        break;
    case TC_PH_REVEAL:
        pl_canvas_words(c, row, 0, PL_ST_HILITE, "tc.pic.ph.reveal", "n", NUM(seats[0] + c->seat_from), NULL);
        break;
    default: {
        pl_outcome o;
        tc_game.outcome(s, &o);
        if (o.kind == PL_WIN_SEAT)
            pl_canvas_words(c, row, 0, PL_ST_HILITE, "tc.pic.over.win", "n", NUM(o.winner + c->seat_from), "score",
                      SNUM((int)o.score[o.winner]), NULL);
        else
            pl_canvas_words(c, row, 0, PL_ST_HILITE, "tc.pic.over.draw", NULL);
    }
    }
}

/* ---------------------------------------------------------------- position */

enum { F_U8, F_I8, F_I16, F_U16, F_CARDS, F_U64 };
typedef struct field {
    const char *key;
    size_t off;
    uint8_t type, perseat, count;
} field;
#define FLD(k, m, t, ps, c) {k, offsetof(tc_state, m), t, ps, c}

static const field fields[] = {
    FLD("dealer", dealer, F_U8, 0, 1),
    FLD("deals", deals_done, F_U16, 0, 1),
    FLD("total", total, F_I16, 1, 0),
    FLD("last", last_score, F_I16, 1, 0),
    FLD("countprov", count_prov, F_I8, 0, 1),
    FLD("countcards", count_card, F_U8, 1, 0),
    FLD("countsteps", count_steps, F_U8, 0, 1),
    FLD("hand", hand, F_CARDS, 1, 0),
    FLD("dealt", dealt, F_CARDS, 1, 0),
    FLD("won", won, F_CARDS, 1, 0),
    FLD("pub", pub, F_CARDS, 1, 0),
    FLD("sec", sec, F_CARDS, 1, 0),
    FLD("shown", shown, F_CARDS, 1, 0),
    FLD("passed", passed, F_CARDS, 1, 0),
    FLD("xdone", xdone, F_U8, 0, 1),
    FLD("dround", dround, F_U8, 0, 1),
    FLD("dstep", dstep, F_U8, 0, 1),
    FLD("dctr", dctr, F_U8, 0, 1),
    FLD("dx", dx, F_U8, 0, 1),
    FLD("dcstep", dcstep, F_U8, 0, 1),
    FLD("declared", declared, F_U8, 1, 0),
    FLD("ndecl", ndecl, F_U8, 0, 1),
    FLD("decllog", decl_log, F_U8, 0, TC_MAXDECL),
    FLD("anyseize", any_seize, F_U8, 0, 1),
    FLD("seizer", seizer, F_I8, 0, 1),
    FLD("extrawinner", extra_winner, F_I8, 0, 1),
    FLD("neg", neg, F_U8, 1, 0),
    FLD("negdirty", negdirty, F_U8, 0, 1),
    FLD("tleader", tleader, F_U8, 0, 1),
    FLD("tn", tn, F_U8, 0, 1),
    FLD("tstep", tstep, F_U8, 0, 1),
    FLD("textra", textra, F_U8, 0, 1),
    FLD("tban", tban, F_U8, 0, 1),
    FLD("trev", trev, F_U8, 0, 1),
    FLD("thid", thid, F_U8, 0, 1),
    FLD("tshown", tshown, F_U8, 0, 1),
    FLD("tricks", tricks, F_U8, 0, 1),
    FLD("lastwinner", last_winner, F_I8, 0, 1),
    FLD("tlead", tlead, F_CARDS, 0, 1),
    FLD("tlay", tlay, F_CARDS, 1, 0),
    FLD("pvvalid", pv_valid, F_U8, 0, 1),
    FLD("pvleader", pv_leader, F_U8, 0, 1),
    FLD("pvn", pv_n, F_U8, 0, 1),
    FLD("pvwinner", pv_winner, F_U8, 0, 1),
    FLD("pvrev", pv_rev, F_U8, 0, 1),
    FLD("pvlead", pv_lead, F_CARDS, 0, 1),
    FLD("pvlay", pv_lay, F_CARDS, 1, 0),
    FLD("dscore", dscore, F_I16, 1, 0),
    FLD("autowin", ended_by_autowin, F_U8, 0, 1),
};
#define NFIELDS ((int)(sizeof fields / sizeof fields[0]))

void tc_to_text(const void *st, pl_buf *out)
{
    const tc_state *s = st;
    pl_buf_printf(out, "phase=%s", phase_name[s->phase]);
    for (int i = 0; i < NFIELDS; i++) {
        const field *f = &fields[i];
        const unsigned char *base = (const unsigned char *)s + f->off;
        int n = f->perseat ? s->np : f->count;
        pl_buf_printf(out, " %s=", f->key);
        for (int j = 0; j < n; j++) {
            if (j)
                pl_buf_putc(out, f->type == F_CARDS ? '/' : ',');
            switch (f->type) {
            case F_U8: pl_buf_printf(out, "%u", ((const uint8_t *)base)[j]); break;
            case F_I8: pl_buf_printf(out, "%d", ((const int8_t *)base)[j]); break;
            case F_I16: {
                int16_t v;
                memcpy(&v, base + 2 * j, 2);
                pl_buf_printf(out, "%d", v);
                break;
            }
            case F_U16: {
                uint16_t v;
                memcpy(&v, base + 2 * j, 2);
                pl_buf_printf(out, "%u", v);
                break;
            }
            case F_CARDS: {
                tc_cards v;
                memcpy(&v, base + 8 * j, 8);
                tc_cards_text(v, ",", out);
                break;
            }
            default: break;
            }
        }
    }
}

static int bad(pl_buf *err, const char *msg, const char *item)
{
    pl_buf_printf(err, "bad position: %s%s%s", msg, item ? " " : "", item ? item : "");
    return -1;
}

/* Reads one field's value list into `n`. */
static int read_field(tc_state *n, const field *f, char *v, pl_buf *err)
{
    unsigned char *base = (unsigned char *)n + f->off;
    int cnt = f->perseat ? n->np : f->count, j = 0;
    char sepc[2] = {f->type == F_CARDS ? '/' : ',', 0};
    char *save = NULL;
    for (char *w = strtok_r(v, sepc, &save); w; w = strtok_r(NULL, sepc, &save), j++) {
        if (j >= cnt)
            return bad(err, "too many values for", f->key);
        if (f->type == F_CARDS) {
            tc_cards x;
            int c;
            pl_buf e = {0};
            if (tc_parse_cards(w, &x, &c, &e) < 0) {
                pl_buf_printf(err, "bad position: %s: %s", f->key, pl_buf_str(&e));
                pl_buf_free(&e);
                return -1;
            }
            pl_buf_free(&e);
            memcpy(base + 8 * j, &x, 8);
            continue;
        }
        char *end;
        long x = strtol(w, &end, 10);
        if (*end || end == w)
            return bad(err, "expected a number in", f->key);
        switch (f->type) {
        case F_U8:
            if (x < 0 || x > 255)
                return bad(err, "value out of range in", f->key);
            base[j] = (uint8_t)x;
            break;
        case F_I8:
            if (x < -128 || x > 127)
                return bad(err, "value out of range in", f->key);
            ((int8_t *)base)[j] = (int8_t)x;
            break;
        case F_I16: {
            if (x < -32768 || x > 32767)
                return bad(err, "value out of range in", f->key);
            int16_t v16 = (int16_t)x;
            memcpy(base + 2 * j, &v16, 2);
            break;
        }
        case F_U16: {
            if (x < 0 || x > 65535)
                return bad(err, "value out of range in", f->key);
            uint16_t v16 = (uint16_t)x;
            memcpy(base + 2 * j, &v16, 2);
            break;
        }
        default: break;
        }
    }
    if (j != cnt)
        return bad(err, "too few values for", f->key);
    return 0;
}

/* The trick on the table against its progress (TC-R6.2, 6.3): the lead
 * holds tn cards; in the lay phase the followers before tstep have laid tn
 * cards each and the others none; in the reveal phase all have laid, those
 * before tstep have revealed or hidden (trev, thid) and the others not yet;
 * outside a trick no card lies in tlay. 0, or -1 with a message. */
static int check_trick(const tc_state *n, pl_buf *err)
{
    int np = n->np, reveal = n->phase == TC_PH_REVEAL;
    if (n->phase != TC_PH_LAY && !reveal) {
        for (int p = 0; p < np; p++)
            if (n->tlay[p])
                return bad(err, "tlay: cards lie on the table outside a trick", NULL);
        return 0;
    }
    if (n->tn < 1 || tc_size(n->tlead) != n->tn)
        return bad(err, "tlead: the lead holds tn cards (1 to 5) during a trick", NULL);
    if (n->tstep < 1 || n->tstep >= np)
        return bad(err, "tstep: the follower to act is 1 to players-1 places after the leader", NULL);
    if (n->tshown != reveal)
        return bad(err, "tshown: the lead is shown in the reveal phase only", NULL);
    if (n->tlay[n->tleader] || ((n->trev | n->thid) >> n->tleader & 1))
        return bad(err, "tlay, trev and thid hold the followers' groups, not the leader's", NULL);
    if (n->trev & n->thid)
        return bad(err, "trev/thid: a follower either reveals or hides, not both", NULL);
    for (int i = 1; i < np; i++) {
        int f = (n->tleader + i) % np, laid = reveal || i < n->tstep;
        if (tc_size(n->tlay[f]) != (laid ? n->tn : 0))
            return bad(err,
                       laid ? "tlay: a follower who has laid has other than tn cards on the table"
                            : "tlay: a follower has laid before his turn",
                       NULL);
        int chosen = reveal && i < n->tstep;
        if ((n->trev >> f & 1) && !chosen)
            return bad(err, "trev: a follower has revealed before his turn", NULL);
        if ((n->thid >> f & 1) && !chosen)
            return bad(err, "thid: a follower has hidden before his turn", NULL);
        if (chosen && !((n->trev | n->thid) >> f & 1))
            return bad(err, "trev/thid: a follower whose turn has passed neither revealed nor hid", NULL);
    }
    return 0;
}

static int check_position(const tc_state *n, pl_buf *err);

int tc_check_state(const void *st, pl_buf *why) { return check_position(st, why); }

/* Cards are conserved: everything in play is somewhere exactly once. */
static int check_position(const tc_state *n, pl_buf *err)
{
    int np = n->np;
    if (n->dealer >= np || n->tleader >= np || n->dx >= np || n->pv_leader >= np || n->pv_winner >= np)
        return bad(err, "a seat number is out of range", NULL);
    if (n->seizer >= np || n->extra_winner >= np || n->last_winner >= np || n->count_prov >= np)
        return bad(err, "a seat number is out of range", NULL);
    if (n->tn > 5 || n->tstep >= np + 1 || n->ndecl > TC_MAXDECL || n->dstep > np || n->dcstep > np)
        return bad(err, "a trick or declaration counter is out of range", NULL);
    if (n->xdone >= (1u << np) || n->trev >= (1u << np) || n->thid >= (1u << np))
        return bad(err, "a seat mask is out of range", NULL);
    /* The round of Fours or Fives (TC-R5.1); 0 before a deal's declarations. */
    if (n->dround != 4 && n->dround != 5 && (n->phase == TC_PH_DECL || n->dround != 0))
        return bad(err, "dround is the round of declarations: 4 or 5 (0 before they start)", NULL);
    for (int i = 0; i < np; i++)
        if (n->count_card[i] >= TC_NKIND)
            return bad(err, "bad counting card", NULL);
    tc_cards sum = 0;
    int in_trick = n->phase == TC_PH_LAY || n->phase == TC_PH_REVEAL;
    for (int p = 0; p < np; p++) {
        sum += n->hand[p] + n->won[p] + n->pub[p] + n->sec[p];
        if (in_trick)
            sum += n->tlay[p];
        if (n->phase == TC_PH_EXCH && (n->xdone >> p & 1))
            sum += n->passed[p];
        if ((sum & TC_GUARD) != 0)
            return bad(err, "more cards than the deck holds", NULL);
    }
    if (in_trick)
        sum += n->tlead;
    if ((sum & TC_GUARD) != 0)
        return bad(err, "more cards than the deck holds", NULL);
    int before_deal = n->phase <= TC_PH_DEAL;
    if (before_deal ? sum != 0 : sum != n->deck)
        return bad(err, before_deal ? "no cards are out before the deal" : "the cards do not make up the deck in play", NULL);
    if (!before_deal && n->phase != TC_PH_OVER) {
        int h0 = -1;
        for (int p = 0; p < np; p++) {
            int h = tc_size(n->hand[p]);
            if (in_trick)
                h += p == n->tleader ? n->tn : tc_size(n->tlay[p]);
            if (n->phase == TC_PH_EXCH && (n->xdone >> p & 1))
                h += n->night_k;
            if (h0 >= 0 && h != h0)
                return bad(err, "hands are not of equal size (TC-R6.6)", NULL);
            h0 = h;
        }
    }
    return check_trick(n, err);
}

int tc_from_text(void *st, const char *text, pl_buf *err)
{
    tc_state n;
    memcpy(&n, st, sizeof n);
    char *copy = pl_strdup(text);
    if (!copy)
        return bad(err, "out of memory", NULL);
    int rc = -1, seen_phase = 0;
    unsigned char seen[NFIELDS];
    memset(seen, 0, sizeof seen);
    char *save = NULL;
    for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(w, '=');
        if (!eq) {
            bad(err, "expected KEY=VALUE, got", w);
            goto done;
        }
        *eq = '\0';
        char *v = eq + 1;
        if (!strcmp(w, "phase")) {
            int k = 0;
            while (k <= TC_PH_OVER && strcmp(v, phase_name[k]))
                k++;
            if (k > TC_PH_OVER) {
                bad(err, "unknown phase", v);
                goto done;
            }
            n.phase = (uint8_t)k;
            seen_phase = 1;
            continue;
        }
        int i = 0;
        while (i < NFIELDS && strcmp(fields[i].key, w))
            i++;
        if (i == NFIELDS) {
            bad(err, "unknown key", w);
            goto done;
        }
        if (seen[i]) {
            bad(err, "key given twice:", w);
            goto done;
        }
        seen[i] = 1;
        if (read_field(&n, &fields[i], v, err) < 0)
            goto done;
    }
    if (!seen_phase) {
        bad(err, "needs phase=", NULL);
        goto done;
    }
    for (int i = 0; i < NFIELDS; i++)
        if (!seen[i]) {
            bad(err, "missing key", fields[i].key);
            goto done;
        }
    if (check_position(&n, err) < 0)
        goto done;
    memcpy(st, &n, sizeof n);
    rc = 0;
done:
    pl_free(copy);
    return rc;
}

/* ------------------------------------- structured view (docs/web-views.md) */

json_t *tc_cards_json(tc_cards x)
{
    json_t *a = json_array();
    int bad = 0;
    for (int k = TC_NKIND - 1; k >= 0; k--)
        for (int c = TC_NIB(x, k); c > 0; c--) {
            char t[3] = {(k & 1) ? 'r' : 'b', tc_rank_ch[k >> 1], '\0'};
            bad |= json_array_append_new(a, json_string(t));
        }
    if (bad) {
        json_decref(a);
        return NULL;
    }
    return a;
}

static json_t *seats_json(const int16_t *v, int np)
{
    json_t *a = json_array();
    int bad = 0;
    for (int p = 0; p < np; p++)
        bad |= json_array_append_new(a, json_integer(v[p]));
    if (bad) {
        json_decref(a);
        return NULL;
    }
    return a;
}

/* A group on the table: face up ("up", its cards), or face down ("down",
 * "hidden": how many backs, and the cards only for their owner). */
static json_t *group_json(const char *state, int n, tc_cards x, int show)
{
    if (!strcmp(state, "up") || !strcmp(state, "revealed"))
        return json_pack("{s:s,s:i,s:o}", "state", state, "count", n, "cards", tc_cards_json(x));
    return json_pack("{s:s,s:i,s:o}", "state", state, "count", n, "cards", show ? tc_cards_json(x) : json_null());
}

int tc_view_json(const void *st, int viewer, json_t *obj)
{
    const tc_state *s = st;
    int np = s->np, bad = 0;
    bad |= json_object_set_new(obj, "stage", json_string(phase_name[s->phase]));
    bad |= json_object_set_new(obj, "deal", json_integer(s->deals_done + (s->phase == TC_PH_OVER ? 0 : 1)));
    bad |= json_object_set_new(obj, "dealer", json_integer(s->dealer));
    json_t *counting = json_null();
    if (s->count_prov >= 0) {
        json_t *cc = json_array();
        for (int i = 0; i < np; i++) {
            int k = s->count_card[i];
            char t[3] = {(k & 1) ? 'r' : 'b', tc_rank_ch[k >> 1], '\0'};
            bad |= json_array_append_new(cc, json_string(t));
        }
        counting = json_pack("{s:i,s:o,s:i}", "provisional", (int)s->count_prov, "cards", cc, "steps",
                             (int)s->count_steps);
    }
    bad |= json_object_set_new(obj, "counting", counting);
    if (viewer >= 0)
        bad |= json_object_set_new(obj, "hand", tc_cards_json(s->hand[viewer]));
    json_t *sizes = json_array();
    for (int p = 0; p < np; p++)
        bad |= json_array_append_new(sizes, json_integer(tc_size(s->hand[p])));
    bad |= json_object_set_new(obj, "hand_sizes", sizes);
    /* night exchange: who has passed; what the viewer gave and got */
    json_t *exch = json_null();
    if (s->night_k && s->phase >= TC_PH_EXCH) {
        json_t *done = json_array();
        for (int p = 0; p < np; p++)
            if (s->phase != TC_PH_EXCH || (s->xdone >> p & 1))
                bad |= json_array_append_new(done, json_integer(p));
        int mine = viewer >= 0 && (s->phase != TC_PH_EXCH || (s->xdone >> viewer & 1));
        json_t *passed = mine ? tc_cards_json(s->passed[viewer]) : json_null();
        json_t *recv = mine && s->phase != TC_PH_EXCH ? tc_cards_json(s->passed[(viewer + np - 1) % np]) : json_null();
        exch = json_pack("{s:i,s:o,s:o,s:o}", "cards", (int)s->night_k, "done", done, "passed", passed,
                         "received", recv);
    }
    bad |= json_object_set_new(obj, "exchange", exch);
    json_t *decl = json_array();
    for (int i = 0; i < s->ndecl; i++) {
        int e = s->decl_log[i];
        bad |= json_array_append_new(decl, json_pack("{s:i,s:s,s:s,s:b}", "seat", e & 3, "size",
                                                     (e >> 2 & 7) == 5 ? "five" : "four", "colour",
                                                     (e >> 5 & 1) ? "red" : "black", "counter", e >> 6 & 1));
    }
    bad |= json_object_set_new(obj, "declarations", decl);
    bad |= json_object_set_new(obj, "asking", s->phase == TC_PH_DECL
                                                  ? json_pack("{s:s,s:i,s:b}", "size", s->dround == 5 ? "five" : "four",
                                                              "seat", tc_decl_seat(s), "counter", (int)s->dctr)
                                                  : json_null());
    /* the trick: face-down groups are backs, their cards shown to the owner only */
    json_t *trick = json_null();
    if (s->phase == TC_PH_LEAD || s->phase == TC_PH_LAY || s->phase == TC_PH_REVEAL) {
        int L = s->tleader, ban = s->phase == TC_PH_LEAD ? tc_ban_applies(s) : s->tban;
        json_t *lead = json_null(), *lays = json_array();
        if (s->phase != TC_PH_LEAD) {
            lead = s->tshown ? group_json("up", s->tn, s->tlead, 1) : group_json("down", s->tn, s->tlead, viewer == L);
            for (int i = 1; i < np; i++) {
                int f = (L + i) % np;
                json_t *g;
                if (!(s->phase == TC_PH_REVEAL || i < s->tstep))
                    g = json_pack("{s:s}", "state", "waiting");
                else if (s->trev >> f & 1)
                    g = group_json("revealed", s->tn, s->tlay[f], 1);
                else
                    g = group_json((s->thid >> f & 1) ? "hidden" : "down", s->tn, s->tlay[f], viewer == f);
                bad |= json_object_set_new(g, "seat", json_integer(f));
                bad |= json_array_append_new(lays, g);
            }
        }
        trick = json_pack("{s:i,s:s,s:b,s:o,s:o}", "leader", L, "kind", s->textra ? "extra" : "ordinary", "ban", ban,
                          "lead", lead, "lays", lays);
    }
    bad |= json_object_set_new(obj, "trick", trick);
    json_t *last = json_null();
    if (s->pv_valid) {
        json_t *lays = json_array();
        for (int i = 1; i < np; i++) {
            int f = (s->pv_leader + i) % np;
            bad |= json_array_append_new(lays, json_pack("{s:i,s:o}", "seat", f, "cards", (s->pv_rev >> f & 1)
                                                         ? tc_cards_json(s->pv_lay[f]) : json_null()));
        }
        last = json_pack("{s:i,s:i,s:i,s:o,s:o}", "leader", (int)s->pv_leader, "count", (int)s->pv_n, "winner",
                         (int)s->pv_winner, "lead", tc_cards_json(s->pv_lead), "lays", lays);
    }
    bad |= json_object_set_new(obj, "last_trick", last);
    json_t *won = json_array(), *disc = json_array();
    for (int p = 0; p < np; p++) {
        bad |= json_array_append_new(won, tc_cards_json(s->won[p]));
        bad |= json_array_append_new(
            disc, json_pack("{s:i,s:o,s:i,s:o}", "public", tc_size(s->pub[p]), "public_cards",
                            s->pubdisc_off ? json_null() : tc_cards_json(s->pub[p]), "secret", tc_size(s->sec[p]),
                            "secret_cards", p == viewer ? tc_cards_json(s->sec[p]) : json_null()));
    }
    bad |= json_object_set_new(obj, "won", won);
    bad |= json_object_set_new(obj, "discards", disc);
    tc_cards opp;
    bad |= json_object_set_new(obj, "opponent", opponent_cards(s, viewer, &opp) == 0
                                                    ? json_pack("{s:s,s:o}", "knowledge",
                                                                s->open2 == TC_OPEN_INITIAL ? "may-hold" : "holds",
                                                                "cards", tc_cards_json(opp))
                                                    : json_null());
    bad |= json_object_set_new(obj, "deal_score", seats_json(s->phase == TC_PH_OVER || s->phase <= TC_PH_DEAL
                                                                 ? s->last_score : s->dscore, np));
    bad |= json_object_set_new(obj, "score", seats_json(s->total, np));
    return bad ? -1 : 0;
}

/* ---- the same view as text (pl_game.view_text): tc_view_json's bytes ---- */

/* ["rG",…]: strongest kind first, as cards_json; the notation is ASCII
 * letters, no escape. */
static void text_cards(pl_buf *b, tc_cards x)
{
    int first = 1;
    pl_buf_putc(b, '[');
    for (int k = TC_NKIND - 1; k >= 0; k--)
        for (int c = TC_NIB(x, k); c > 0; c--, first = 0) {
            char t[6] = {',', '"', (k & 1) ? 'r' : 'b', tc_rank_ch[k >> 1], '"', '\0'};
            pl_buf_puts(b, t + first);
        }
    pl_buf_putc(b, ']');
}

/* [v0,v1,…] for each seat. */
static void text_seats(pl_buf *b, const int16_t *v, int np)
{
    pl_buf_putc(b, '[');
    for (int p = 0; p < np; p++) {
        if (p)
            pl_buf_putc(b, ',');
        pl_json_put_int(b, v[p]);
    }
    pl_buf_putc(b, ']');
}

/* A group on the table as group_json, with "seat" when `seat` >= 0:
 * {"cards":…,"count":…,"seat":…,"state":…}. */
static void text_group(pl_buf *b, const char *state, int n, tc_cards x, int show, int seat)
{
    pl_buf_puts(b, "{\"cards\":");
    if (show || !strcmp(state, "up") || !strcmp(state, "revealed"))
        text_cards(b, x);
    else
        pl_buf_puts(b, "null");
    pl_buf_puts(b, ",\"count\":");
    pl_json_put_int(b, n);
    if (seat >= 0) {
        pl_buf_puts(b, ",\"seat\":");
        pl_json_put_int(b, seat);
    }
    pl_buf_puts(b, ",\"state\":");
    pl_json_put_string(b, state);
    pl_buf_putc(b, '}');
}

/* "trick": the trick in play as tc_view_json (face-down groups are backs,
 * their cards shown to the owner only), null outside one. */
static void text_trick(pl_buf *b, const tc_state *s, int viewer)
{
    if (!(s->phase == TC_PH_LEAD || s->phase == TC_PH_LAY || s->phase == TC_PH_REVEAL)) {
        pl_buf_puts(b, "null");
        return;
    }
    int np = s->np, L = s->tleader, ban = s->phase == TC_PH_LEAD ? tc_ban_applies(s) : s->tban;
    pl_buf_puts(b, ban ? "{\"ban\":true,\"kind\":" : "{\"ban\":false,\"kind\":");
    pl_json_put_string(b, s->textra ? "extra" : "ordinary");
    pl_buf_puts(b, ",\"lays\":[");
    for (int i = 1; i < np && s->phase != TC_PH_LEAD; i++) {
        int f = (L + i) % np;
        if (i > 1)
            pl_buf_putc(b, ',');
        if (!(s->phase == TC_PH_REVEAL || i < s->tstep)) {
            pl_buf_puts(b, "{\"seat\":");
            pl_json_put_int(b, f);
            pl_buf_puts(b, ",\"state\":\"waiting\"}");
        } else if (s->trev >> f & 1) {
            text_group(b, "revealed", s->tn, s->tlay[f], 1, f);
        } else {
            text_group(b, (s->thid >> f & 1) ? "hidden" : "down", s->tn, s->tlay[f], viewer == f, f);
        }
    }
    pl_buf_puts(b, "],\"lead\":");
    if (s->phase == TC_PH_LEAD)
        pl_buf_puts(b, "null");
    else if (s->tshown)
        text_group(b, "up", s->tn, s->tlead, 1, -1);
    else
        text_group(b, "down", s->tn, s->tlead, viewer == L, -1);
    pl_buf_puts(b, ",\"leader\":");
    pl_json_put_int(b, L);
    pl_buf_putc(b, '}');
}

/* "last_trick": {"count","lays":[{"cards","seat"}],"lead","leader","winner"}, or null. */
static void text_last_trick(pl_buf *b, const tc_state *s)
{
    if (!s->pv_valid) {
        pl_buf_puts(b, "null");
        return;
    }
    pl_buf_puts(b, "{\"count\":");
    pl_json_put_int(b, s->pv_n);
    pl_buf_puts(b, ",\"lays\":[");
    for (int i = 1; i < s->np; i++) {
        int f = (s->pv_leader + i) % s->np;
        pl_buf_puts(b, i > 1 ? ",{\"cards\":" : "{\"cards\":");
        if (s->pv_rev >> f & 1)
            text_cards(b, s->pv_lay[f]);
        else
            pl_buf_puts(b, "null");
        pl_buf_puts(b, ",\"seat\":");
        pl_json_put_int(b, f);
        pl_buf_putc(b, '}');
    }
    pl_buf_puts(b, "],\"lead\":");
    text_cards(b, s->pv_lead);
    pl_buf_puts(b, ",\"leader\":");
    pl_json_put_int(b, s->pv_leader);
    pl_buf_puts(b, ",\"winner\":");
    pl_json_put_int(b, s->pv_winner);
    pl_buf_putc(b, '}');
}

int tc_view_text(const void *st, int viewer, pl_jfields *f)
{
    const tc_state *s = st;
    int np = s->np;
    pl_json_put_string(pl_jfields_key(f, "stage"), phase_name[s->phase]);
    pl_json_put_int(pl_jfields_key(f, "deal"), s->deals_done + (s->phase == TC_PH_OVER ? 0 : 1));
    pl_json_put_int(pl_jfields_key(f, "dealer"), s->dealer);
    pl_buf *b = pl_jfields_key(f, "counting");
    if (s->count_prov >= 0) {
        pl_buf_puts(b, "{\"cards\":[");
        for (int i = 0; i < np; i++) {
            int k = s->count_card[i];
            char t[6] = {',', '"', (k & 1) ? 'r' : 'b', tc_rank_ch[k >> 1], '"', '\0'};
            pl_buf_puts(b, t + (i == 0));
        }
        pl_buf_puts(b, "],\"provisional\":");
        pl_json_put_int(b, s->count_prov);
        pl_buf_puts(b, ",\"steps\":");
        pl_json_put_int(b, s->count_steps);
        pl_buf_putc(b, '}');
    } else {
        pl_buf_puts(b, "null");
    }
    if (viewer >= 0)
        text_cards(pl_jfields_key(f, "hand"), s->hand[viewer]);
    b = pl_jfields_key(f, "hand_sizes");
    pl_buf_putc(b, '[');
    for (int p = 0; p < np; p++) {
        if (p)
            pl_buf_putc(b, ',');
        pl_json_put_int(b, tc_size(s->hand[p]));
    }
    pl_buf_putc(b, ']');
    /* night exchange: who has passed; what the viewer gave and got */
    b = pl_jfields_key(f, "exchange");
    if (s->night_k && s->phase >= TC_PH_EXCH) {
        pl_buf_puts(b, "{\"cards\":");
        pl_json_put_int(b, s->night_k);
        pl_buf_puts(b, ",\"done\":[");
        for (int p = 0, first = 1; p < np; p++)
            if (s->phase != TC_PH_EXCH || (s->xdone >> p & 1)) {
                if (!first)
                    pl_buf_putc(b, ',');
                pl_json_put_int(b, p);
                first = 0;
            }
        int mine = viewer >= 0 && (s->phase != TC_PH_EXCH || (s->xdone >> viewer & 1));
        pl_buf_puts(b, "],\"passed\":");
        if (mine)
            text_cards(b, s->passed[viewer]);
        else
            pl_buf_puts(b, "null");
        pl_buf_puts(b, ",\"received\":");
        if (mine && s->phase != TC_PH_EXCH)
            text_cards(b, s->passed[(viewer + np - 1) % np]);
        else
            pl_buf_puts(b, "null");
        pl_buf_putc(b, '}');
    } else {
        pl_buf_puts(b, "null");
    }
    b = pl_jfields_key(f, "declarations");
    pl_buf_putc(b, '[');
    for (int i = 0; i < s->ndecl; i++) {
        int e = s->decl_log[i];
        pl_buf_puts(b, i ? ",{\"colour\":" : "{\"colour\":");
        pl_json_put_string(b, (e >> 5 & 1) ? "red" : "black");
        pl_buf_puts(b, (e >> 6 & 1) ? ",\"counter\":true,\"seat\":" : ",\"counter\":false,\"seat\":");
        pl_json_put_int(b, e & 3);
        pl_buf_puts(b, ",\"size\":");
        pl_json_put_string(b, (e >> 2 & 7) == 5 ? "five" : "four");
        pl_buf_putc(b, '}');
    }
    pl_buf_putc(b, ']');
    b = pl_jfields_key(f, "asking");
    if (s->phase == TC_PH_DECL) {
        pl_buf_puts(b, s->dctr ? "{\"counter\":true,\"seat\":" : "{\"counter\":false,\"seat\":");
        pl_json_put_int(b, tc_decl_seat(s));
        pl_buf_puts(b, ",\"size\":");
        pl_json_put_string(b, s->dround == 5 ? "five" : "four");
        pl_buf_putc(b, '}');
    } else {
        pl_buf_puts(b, "null");
    }
    text_trick(pl_jfields_key(f, "trick"), s, viewer);
    text_last_trick(pl_jfields_key(f, "last_trick"), s);
    b = pl_jfields_key(f, "won");
    pl_buf_putc(b, '[');
    for (int p = 0; p < np; p++) {
        if (p)
            pl_buf_putc(b, ',');
        text_cards(b, s->won[p]);
    }
    pl_buf_putc(b, ']');
    b = pl_jfields_key(f, "discards");
    pl_buf_putc(b, '[');
    for (int p = 0; p < np; p++) {
        pl_buf_puts(b, p ? ",{\"public\":" : "{\"public\":");
        pl_json_put_int(b, tc_size(s->pub[p]));
        pl_buf_puts(b, ",\"public_cards\":");
        if (s->pubdisc_off)
            pl_buf_puts(b, "null");
        else
            text_cards(b, s->pub[p]);
        pl_buf_puts(b, ",\"secret\":");
        pl_json_put_int(b, tc_size(s->sec[p]));
        pl_buf_puts(b, ",\"secret_cards\":");
        if (p == viewer)
            text_cards(b, s->sec[p]);
        else
            pl_buf_puts(b, "null");
        pl_buf_putc(b, '}');
    }
    pl_buf_putc(b, ']');
    tc_cards opp;
    b = pl_jfields_key(f, "opponent");
    if (opponent_cards(s, viewer, &opp) == 0) {
        pl_buf_puts(b, "{\"cards\":");
        text_cards(b, opp);
        pl_buf_puts(b, ",\"knowledge\":");
        pl_json_put_string(b, s->open2 == TC_OPEN_INITIAL ? "may-hold" : "holds");
        pl_buf_putc(b, '}');
    } else {
        pl_buf_puts(b, "null");
    }
    text_seats(pl_jfields_key(f, "deal_score"),
               s->phase == TC_PH_OVER || s->phase <= TC_PH_DEAL ? s->last_score : s->dscore, np);
    text_seats(pl_jfields_key(f, "score"), s->total, np);
    return f->out->oom ? -1 : 0;
}
