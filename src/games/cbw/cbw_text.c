/* cbw_text.c — City Behind Walls notation (docs/notation-cbw.md): cards,
 * actions, the deal option, the one-line position text, the `view`
 * observation of a seat and the picture, and what an action did (events,
 * describe, the legal actions' fields). Off the search's hot path; the
 * server writes the structured view, every action's events and every legal
 * action's fields per move, so those are also written straight as text
 * (cbw_view_text, cbw_events_text, cbw_action_fields_text). */
#include <assert.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cbw.h"

#include <jansson.h>

#include "parlour/alloc.h"
#include "parlour/jsonout.h"
#include "parlour/words.h"

static const char *const rank_txt[13] = {"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"};
static const char suit_txt[4] = {'S', 'H', 'D', 'C'};
static const char *const suit_sym[4] = {"♠", "♥", "♦", "♣"};
static const char *const team_name[2] = {"Red", "Black"};
static const char *const team_word[2] = {"red", "black"};

void cbw_card_text(int card, int symbol, pl_buf *out)
{
    if (card < 0 || card >= CBW_NCARDS) {
        pl_buf_puts(out, "??");
        return;
    }
    pl_buf_puts(out, rank_txt[cbw_rank(card)]);
    if (symbol)
        pl_buf_puts(out, suit_sym[cbw_suit(card)]);
    else
        pl_buf_putc(out, suit_txt[cbw_suit(card)]);
}

int cbw_card_parse(const char **tp)
{
    const char *t = *tp;
    int r;
    if (t[0] == '1' && t[1] == '0') {
        r = 8;
        t += 2;
    } else if (*t >= '2' && *t <= '9') {
        r = *t - '2';
        t++;
    } else {
        const char *ranks = "TJQKA";
        const char *f = *t ? strchr(ranks, toupper((unsigned char)*t)) : NULL;
        if (!f)
            return -1;
        r = 8 + (int)(f - ranks);
        t++;
    }
    int su = -1;
    const char *f = *t ? strchr("SHDC", toupper((unsigned char)*t)) : NULL;
    if (f) {
        su = (int)(f - "SHDC");
        t++;
    } else {
        for (int i = 0; i < 4; i++)
            if (!strncmp(t, suit_sym[i], strlen(suit_sym[i]))) {
                su = i;
                t += strlen(suit_sym[i]);
                break;
            }
    }
    if (su < 0)
        return -1;
    *tp = t;
    return su * 13 + r;
}

/* Parses a list of cards separated by `sep` ("-" or "" for none) ending at
 * NUL; ORs them into *mask. Returns 0, or -1 with a message. */
static int parse_cards(const char *t, char sep, uint64_t *mask, uint64_t *seen, pl_buf *err)
{
    if (!strcmp(t, "-") || !*t)
        return 0;
    for (;;) {
        const char *start = t;
        int k = cbw_card_parse(&t);
        if (k < 0 || (*t && *t != sep)) {
            pl_buf_printf(err, "bad card at '%.12s' (cards are 2-10 J Q K A then S H D C, e.g. QS 10H)", start);
            return -1;
        }
        if ((*seen >> k) & 1) {
            pl_buf_puts(err, "card ");
            cbw_card_text(k, 0, err);
            pl_buf_puts(err, " appears twice");
            return -1;
        }
        *seen |= 1ull << k;
        *mask |= 1ull << k;
        if (!*t)
            return 0;
        t++;
    }
}

int cbw_deal_parse(const cbw_state *s, const char *text, uint64_t *hands, pl_buf *err)
{
    char *copy = pl_strdup(text);
    if (!copy) {
        pl_buf_puts(err, "out of memory");
        return -1;
    }
    uint64_t h[CBW_MAXSEATS] = {0}, seen = 0;
    int n = 0, rc = -1;
    /* strtok would merge empty hands: split by hand. */
    char *p = copy;
    for (;;) {
        char *slash = strchr(p, '/');
        if (slash)
            *slash = '\0';
        if (n >= s->nseats) {
            pl_buf_printf(err, "deal: %d seats, so %d hands separated by '/'", s->nseats, s->nseats);
            goto done;
        }
        pl_buf e = {0};
        if (parse_cards(p, ',', &h[n], &seen, &e) < 0) {
            pl_buf_printf(err, "deal, hand of seat %d: %s", n, pl_buf_str(&e));
            pl_buf_free(&e);
            goto done;
        }
        pl_buf_free(&e);
        n++;
        if (!slash)
            break;
        p = slash + 1;
    }
    if (n != s->nseats) {
        pl_buf_printf(err, "deal: %d hands given, the game has %d seats (one hand per seat, '/'-separated)",
                      n, s->nseats);
        goto done;
    }
    for (int i = 0; i < n; i++) {
        int t = cbw_team(i);
        for (uint64_t m = h[i]; m; m &= m - 1) {
            int k = __builtin_ctzll(m);
            if (!((s->dealt >> k) & 1)) {
                pl_buf_puts(err, "deal: ");
                cbw_card_text(k, 0, err);
                pl_buf_printf(err, " is not in the %d-card deck", s->deck);
                goto done;
            }
            if (cbw_colour(k) != t) {
                pl_buf_printf(err, "deal: seat %d is %s and is dealt only %s cards (CBW-R4), not ", i,
                              team_name[t], team_word[t]);
                cbw_card_text(k, 0, err);
                goto done;
            }
        }
    }
    int nt = s->nseats / 2, per = s->deck / 2;
    for (int i = 0; i < n; i++) {
        int want = per / nt + (i / 2 < per % nt);
        if (__builtin_popcountll(h[i]) != want) {
            pl_buf_printf(err, "deal: seat %d holds %d cards, the own-colour deal gives it %d (CBW-R4)", i,
                          __builtin_popcountll(h[i]), want);
            goto done;
        }
    }
    for (int i = 0; i < n; i++)
        hands[i] = h[i];
    rc = 0;
done:
    pl_free(copy);
    return rc;
}

void cbw_format_action(const void *st, int seat, pl_action a, pl_buf *out)
{
    (void)st;
    (void)seat;
    if (a & CBW_ACT_FIRST)
        pl_buf_printf(out, "first %s", team_word[a & 1]);
    else if (a == CBW_ACT_PASS)
        pl_buf_puts(out, "pass");
    else if (a & CBW_ACT_PLACE) {
        cbw_card_text(cbw_act_card(a), 0, out);
        pl_buf_printf(out, "@%d,%d", cbw_act_x(a), cbw_act_y(a));
    } else
        pl_buf_printf(out, "?%llx", (unsigned long long)a);
}

/* Parses "CARD@X,Y" at t (whole string). */
static int parse_place(const char *t, pl_action *a)
{
    int k = cbw_card_parse(&t);
    if (k < 0 || *t != '@')
        return -1;
    t++;
    char *end;
    long x = strtol(t, &end, 10);
    if (end == t || *end != ',')
        return -1;
    t = end + 1;
    long y = strtol(t, &end, 10);
    if (end == t || *end || x < -31 || x > 31 || y < -31 || y > 31)
        return -1;
    *a = cbw_place(k, (int)x, (int)y);
    return 0;
}

int cbw_parse_action(const void *st, int seat, const char *t, pl_action *a, pl_buf *err)
{
    (void)st;
    if (seat == PL_CHANCE) {
        if (!strcmp(t, "first red") || !strcmp(t, "first black")) {
            *a = CBW_ACT_FIRST | (pl_action)(t[6] == 'b');
            return 0;
        }
        pl_buf_puts(err, "expected a chance outcome: first red or first black");
        return -1;
    }
    if (!strcmp(t, "pass")) {
        *a = CBW_ACT_PASS;
        return 0;
    }
    if (parse_place(t, a) == 0)
        return 0;
    pl_buf_puts(err, "expected pass or CARD@X,Y: a card (2-10 J Q K A, then S H D C) and the cell, "
                     "e.g. QS@-1,2 or 10H@0,0");
    return -1;
}

void cbw_explain_illegal(const void *st, int seat, pl_action a, pl_buf *out)
{
    const cbw_state *s = st;
    if (seat < 0 || seat >= s->nseats) {
        pl_buf_puts(out, "no such seat");
        return;
    }
    if (!cbw_why_illegal(s, seat, a, out))
        pl_buf_puts(out, "it is legal");
}

/* ---- position text ---- */

static void cards_text(uint64_t m, char sep, pl_buf *out)
{
    if (!m) {
        pl_buf_putc(out, '-');
        return;
    }
    for (int i = 0; m; m &= m - 1, i++) {
        if (i)
            pl_buf_putc(out, sep);
        cbw_card_text(__builtin_ctzll(m), 0, out);
    }
}

static const char *const phase_word[3] = {"first", "move", "over"};
_Static_assert(CBW_PH_OVER + 1 == 3, "a word for every phase");

/* Table cards in picture order: top row first, left to right. */
static int table_order(const cbw_state *s, int *cards)
{
    int n = 0;
    for (int y = CBW_MAXDIM - 1; y >= -(CBW_MAXDIM - 1); y--)
        for (int x = -(CBW_MAXDIM - 1); x <= CBW_MAXDIM - 1; x++) {
            int v = s->cell[cbw_cell(x, y)];
            if (v && v != CBW_OUT)
                cards[n++] = v - 1;
        }
    return n;
}

void cbw_to_text(const void *st, pl_buf *out)
{
    const cbw_state *s = st;
    pl_buf_printf(out, "phase=%s turn=%d opener=%s passes=%d span=", phase_word[s->phase], s->turn,
                  s->opener < 2 ? team_word[s->opener] : "-", s->passes);
    if (s->started)
        pl_buf_printf(out, "%d..%d,%d..%d", s->x0, s->x1, s->y0, s->y1);
    else
        pl_buf_putc(out, '-');
    pl_buf_puts(out, " hands=");
    for (int i = 0; i < s->nseats; i++) {
        if (i)
            pl_buf_putc(out, '/');
        cards_text(s->hand[i], ',', out);
    }
    pl_buf_puts(out, " table=");
    int cards[CBW_NCARDS], n = table_order(s, cards);
    for (int i = 0; i < n; i++) {
        if (i)
            pl_buf_putc(out, ';');
        cbw_card_text(cards[i], 0, out);
        pl_buf_printf(out, "@%d,%d", cbw_cell_x(s->pos[cards[i]]), cbw_cell_y(s->pos[cards[i]]));
    }
    if (!n)
        pl_buf_putc(out, '-');
    pl_buf_puts(out, " prisoners=");
    cards_text(s->prisoners[0], ',', out);
    pl_buf_putc(out, '/');
    cards_text(s->prisoners[1], ',', out);
    pl_buf_puts(out, " history=");
    for (int i = 0; i < s->nhist; i++) {
        if (i)
            pl_buf_putc(out, ';');
        for (int j = 0; j < s->hist[i].passes; j++)
            pl_buf_puts(out, "p;");
        cbw_card_text(s->hist[i].card, 0, out);
        pl_buf_printf(out, "@%d,%d", s->hist[i].x, s->hist[i].y);
    }
    if (!s->nhist)
        pl_buf_putc(out, '-');
}

static int bad(pl_buf *err, const char *msg, const char *item)
{
    pl_buf_printf(err, "bad position: %s%s%s", msg, item ? " " : "", item ? item : "");
    return -1;
}

int cbw_from_text(void *st, const char *text, pl_buf *err)
{
    cbw_state *s = st;
    cbw_state *n = pl_malloc(sizeof *n);
    char *copy = pl_strdup(text);
    int rc = -1;
    if (!n || !copy) {
        pl_buf_puts(err, "out of memory");
        goto done;
    }
    /* Keep the options; clear the position. */
    memset(n, 0, sizeof *n);
    n->players = s->players, n->nseats = s->nseats, n->deck = s->deck;
    n->w = s->w, n->h = s->h, n->first_opt = s->first_opt;
    n->phase = CBW_PH_MOVE;
    n->opener = 0;
    int turn = -1, span_given = 0, sx0 = 0, sx1 = 0, sy0 = 0, sy1 = 0;
    uint64_t seen = 0;
    int tx[CBW_NCARDS], ty[CBW_NCARDS], tk[CBW_NCARDS], nt = 0;
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
            while (k < 3 && strcmp(v, phase_word[k]))
                k++;
            if (k == 3) {
                bad(err, "phase is first, move or over, not", v);
                goto done;
            }
            n->phase = (uint8_t)k;
        } else if (!strcmp(w, "turn")) {
            char *end;
            turn = (int)strtol(v, &end, 10);
            if (end == v || *end || turn < 0 || turn >= s->nseats) {
                bad(err, "turn is a seat number, not", v);
                goto done;
            }
        } else if (!strcmp(w, "opener")) {
            if (!strcmp(v, "red") || !strcmp(v, "black"))
                n->opener = v[0] == 'b';
            else if (!strcmp(v, "-"))
                n->opener = 0xff;
            else {
                bad(err, "opener is red, black or -, not", v);
                goto done;
            }
        } else if (!strcmp(w, "passes")) {
            char *end;
            long p = strtol(v, &end, 10);
            if (end == v || *end || p < 0 || p > s->nseats) {
                bad(err, "passes is 0 to the number of seats, not", v);
                goto done;
            }
            n->passes = (uint8_t)p;
        } else if (!strcmp(w, "span")) {
            if (strcmp(v, "-")) {
                if (sscanf(v, "%d..%d,%d..%d", &sx0, &sx1, &sy0, &sy1) != 4) {
                    bad(err, "span is X0..X1,Y0..Y1 or -, not", v);
                    goto done;
                }
                span_given = 1;
            } else {
                span_given = 2;
            }
        } else if (!strcmp(w, "hands")) {
            char *p = v;
            int i = 0;
            for (;;) {
                char *slash = strchr(p, '/');
                if (slash)
                    *slash = '\0';
                if (i >= s->nseats) {
                    bad(err, "more hands than seats", NULL);
                    goto done;
                }
                pl_buf e = {0};
                int r = parse_cards(p, ',', &n->hand[i], &seen, &e);
                if (r < 0) {
                    bad(err, pl_buf_str(&e), NULL);
                    pl_buf_free(&e);
                    goto done;
                }
                pl_buf_free(&e);
                for (uint64_t m = n->hand[i]; m; m &= m - 1)
                    if (cbw_colour(__builtin_ctzll(m)) != cbw_team(i)) {
                        pl_buf_printf(err, "bad position: seat %d (%s) holds a %s card", i,
                                      team_name[cbw_team(i)], team_word[!cbw_team(i)]);
                        goto done;
                    }
                i++;
                if (!slash)
                    break;
                p = slash + 1;
            }
            if (i != s->nseats) {
                bad(err, "one hand per seat in hands=H0/H1/...", NULL);
                goto done;
            }
        } else if (!strcmp(w, "table")) {
            if (!strcmp(v, "-"))
                continue;
            char *s2 = NULL;
            for (char *it = strtok_r(v, ";", &s2); it; it = strtok_r(NULL, ";", &s2)) {
                pl_action a;
                if (parse_place(it, &a) < 0) {
                    bad(err, "table entries are CARD@X,Y separated by ';', not", it);
                    goto done;
                }
                int k = cbw_act_card(a);
                if ((seen >> k) & 1) {
                    bad(err, "a card appears twice:", it);
                    goto done;
                }
                seen |= 1ull << k;
                tk[nt] = k, tx[nt] = cbw_act_x(a), ty[nt] = cbw_act_y(a);
                nt++;
            }
        } else if (!strcmp(w, "prisoners")) {
            char *slash = strchr(v, '/');
            if (!slash) {
                bad(err, "prisoners=R/B: the cards captured by Red, then by Black", NULL);
                goto done;
            }
            *slash = '\0';
            pl_buf e = {0};
            if (parse_cards(v, ',', &n->prisoners[0], &seen, &e) < 0 ||
                parse_cards(slash + 1, ',', &n->prisoners[1], &seen, &e) < 0) {
                bad(err, pl_buf_str(&e), NULL);
                pl_buf_free(&e);
                goto done;
            }
            pl_buf_free(&e);
            for (int t = 0; t < 2; t++)
                for (uint64_t m = n->prisoners[t]; m; m &= m - 1)
                    if (cbw_colour(__builtin_ctzll(m)) == t) {
                        pl_buf_printf(err, "bad position: %s captures only %s cards", team_name[t],
                                      team_word[!t]);
                        goto done;
                    }
        } else if (!strcmp(w, "history")) {
            if (!strcmp(v, "-"))
                continue;
            int passes = 0;
            char *s2 = NULL;
            for (char *it = strtok_r(v, ";", &s2); it; it = strtok_r(NULL, ";", &s2)) {
                pl_action a;
                if (!strcmp(it, "p")) {
                    if (++passes >= s->nseats) {
                        bad(err, "history: too many passes in a row", NULL);
                        goto done;
                    }
                    continue;
                }
                if (parse_place(it, &a) < 0 || n->nhist >= CBW_NCARDS) {
                    bad(err, "history entries are p (a pass) or CARD@X,Y, not", it);
                    goto done;
                }
                cbw_hist *h = &n->hist[n->nhist++];
                h->passes = (uint8_t)passes, h->card = (uint8_t)cbw_act_card(a);
                h->x = (int8_t)cbw_act_x(a), h->y = (int8_t)cbw_act_y(a);
                passes = 0;
            }
        } else {
            bad(err, "unknown key (phase turn opener passes span hands table prisoners history):", w);
            goto done;
        }
    }
    for (int k = 0; k < CBW_NCARDS; k++)
        if (((seen >> k) & 1) && cbw_rank(k) < cbw_low_rank(s)) {
            pl_buf_puts(err, "bad position: ");
            cbw_card_text(k, 0, err);
            pl_buf_printf(err, " is not in the %d-card deck", s->deck);
            goto done;
        }
    if (span_given == 1) {
        n->started = 1;
        n->x0 = (int8_t)sx0, n->x1 = (int8_t)sx1, n->y0 = (int8_t)sy0, n->y1 = (int8_t)sy1;
    } else if (nt > 0 && span_given == 0) {
        n->started = 1; /* the bounding box of the table and 0,0 */
        for (int i = 0; i < nt; i++) {
            sx0 = tx[i] < sx0 ? tx[i] : sx0, sx1 = tx[i] > sx1 ? tx[i] : sx1;
            sy0 = ty[i] < sy0 ? ty[i] : sy0, sy1 = ty[i] > sy1 ? ty[i] : sy1;
        }
        n->x0 = (int8_t)sx0, n->x1 = (int8_t)sx1, n->y0 = (int8_t)sy0, n->y1 = (int8_t)sy1;
    } else if (nt > 0) {
        bad(err, "cards on the table need a span", NULL);
        goto done;
    }
    if (n->started && (sx0 > 0 || sx1 < 0 || sy0 > 0 || sy1 < 0 || sx1 - sx0 + 1 > s->w ||
                       sy1 - sy0 + 1 > s->h)) {
        pl_buf_printf(err, "bad position: the span must hold 0,0 and fit the %d x %d Rectangle", s->w, s->h);
        goto done;
    }
    memset(n->cell, CBW_OUT, sizeof n->cell);
    for (int y = -(s->h - 1); y <= s->h - 1; y++)
        for (int x = -(s->w - 1); x <= s->w - 1; x++)
            n->cell[cbw_cell(x, y)] = 0;
    for (int i = 0; i < nt; i++) {
        if (tx[i] < n->x0 || tx[i] > n->x1 || ty[i] < n->y0 || ty[i] > n->y1) {
            pl_buf_printf(err, "bad position: a card at %d,%d lies outside the span", tx[i], ty[i]);
            goto done;
        }
        int p = cbw_cell(tx[i], ty[i]);
        if (n->cell[p]) {
            pl_buf_printf(err, "bad position: two cards at %d,%d", tx[i], ty[i]);
            goto done;
        }
        n->cell[p] = (uint8_t)(tk[i] + 1);
        n->pos[tk[i]] = (uint16_t)p;
        n->table |= 1ull << tk[i];
    }
    cbw_set_inside(n);
    cbw_rebuild(n);
    n->dealt = seen;
    if (turn < 0)
        turn = n->opener < 2 ? n->opener : 0;
    n->turn = (uint8_t)turn;
    if (n->phase == CBW_PH_FIRST && (n->started || n->nhist)) {
        bad(err, "phase first is only before the first card", NULL);
        goto done;
    }
    if (n->phase == CBW_PH_FIRST)
        n->opener = 0xff;
    else if (n->opener > 1) {
        bad(err, "opener=red|black once the first team is known", NULL);
        goto done;
    }
    /* On an empty table (R12's decision) a seat may place any card on any
     * inside cell: up to 26 x 961 placements on an unfixed 16 x 16 span,
     * beyond what `legal` may list (PL_MAX_ACTIONS). Play cannot get there:
     * only captures empty the table, and while an axis is not fixed a card
     * on the span's outer row along it has the free cell beyond as a
     * liberty, so an emptied table has both axes fixed (at most 26 x 256
     * placements). Positions for tests may still leave axes unfixed. */
    if (n->phase == CBW_PH_MOVE && n->started && !n->table) {
        long cells = (long)(n->ix1 - n->ix0 + 1) * (n->iy1 - n->iy0 + 1), most = 0;
        for (int i = 0; i < n->nseats; i++)
            if (__builtin_popcountll(n->hand[i]) > most)
                most = __builtin_popcountll(n->hand[i]);
        if (most * cells + 1 > PL_MAX_ACTIONS) {
            pl_buf_printf(err, "bad position: on this empty table a seat would have %ld legal actions, "
                               "more than any game lists (%d): play empties the table only once the "
                               "span is %d x %d", most * cells + 1, PL_MAX_ACTIONS, s->w, s->h);
            goto done;
        }
    }
    if ((n->passes == n->nseats) != (n->phase == CBW_PH_OVER)) {
        bad(err, "phase over exactly when every seat has passed in succession (passes = seats)", NULL);
        goto done;
    }
    pl_buf e = {0};
    if (cbw_check(n, &e) < 0) {
        bad(err, pl_buf_str(&e), NULL);
        pl_buf_free(&e);
        goto done;
    }
    pl_buf_free(&e);
    memcpy(s, n, sizeof *n);
    rc = 0;
done:
    pl_free(n);
    pl_free(copy);
    return rc;
}

/* ---- the view of one seat ---- */

static void history_text(const cbw_state *s, pl_buf *out)
{
    if (s->opener > 1)
        return;
    int seat = s->opener;
    for (int i = 0; i < s->nhist; i++) {
        for (int j = 0; j < s->hist[i].passes; j++) {
            pl_buf_printf(out, " %d:pass", seat);
            seat = (seat + 1) % s->nseats;
        }
        pl_buf_printf(out, " %d:", seat);
        cbw_card_text(s->hist[i].card, 0, out);
        pl_buf_printf(out, "@%d,%d", s->hist[i].x, s->hist[i].y);
        seat = (seat + 1) % s->nseats;
    }
    for (int j = 0; j < s->passes; j++) {
        pl_buf_printf(out, " %d:pass", seat);
        seat = (seat + 1) % s->nseats;
    }
}

static void card_list(uint64_t m, pl_buf *out)
{
    for (; m; m &= m - 1) {
        pl_buf_putc(out, ' ');
        cbw_card_text(__builtin_ctzll(m), 0, out);
    }
}

void cbw_view(const void *st, int seat, pl_buf *out)
{
    const cbw_state *s = st;
    int t = cbw_team(seat);
    pl_buf_printf(out, "game cbw\nseat %d\nteam %s\nplayers %d\nseats %d\ndeck %d\nrectangle %d %d\n", seat,
                  team_word[t], s->players, s->nseats, s->deck, s->w, s->h);
    pl_buf_printf(out, "phase %s\nturn %d\nopener %s\npasses %d\n", phase_word[s->phase], s->turn,
                  s->opener < 2 ? team_word[s->opener] : "-", s->passes);
    if (s->started)
        pl_buf_printf(out, "span %d %d %d %d\n", s->x0, s->x1, s->y0, s->y1);
    else
        pl_buf_puts(out, "span -\n");
    if (cbw_fixed_x(s))
        pl_buf_printf(out, "fixed-x %d %d\n", s->x0, s->x1);
    else
        pl_buf_puts(out, "fixed-x open\n");
    if (cbw_fixed_y(s))
        pl_buf_printf(out, "fixed-y %d %d\n", s->y0, s->y1);
    else
        pl_buf_puts(out, "fixed-y open\n");
    pl_buf_printf(out, "inside %d %d %d %d\n", s->ix0, s->ix1, s->iy0, s->iy1);
    pl_buf_puts(out, "hand");
    card_list(s->hand[seat], out);
    pl_buf_putc(out, '\n');
    if (s->players == 2) { /* the same person holds both seats of a team */
        pl_buf_printf(out, "partner-hand %d", (seat + 2) % s->nseats);
        card_list(s->hand[(seat + 2) % s->nseats], out);
        pl_buf_putc(out, '\n');
    }
    pl_buf_puts(out, "hand-sizes");
    for (int i = 0; i < s->nseats; i++)
        pl_buf_printf(out, " %d", __builtin_popcountll(s->hand[i]));
    pl_buf_puts(out, "\ntable");
    int cards[CBW_NCARDS], n = table_order(s, cards);
    for (int i = 0; i < n; i++) {
        pl_buf_putc(out, ' ');
        cbw_card_text(cards[i], 0, out);
        pl_buf_printf(out, "@%d,%d", cbw_cell_x(s->pos[cards[i]]), cbw_cell_y(s->pos[cards[i]]));
    }
    pl_buf_puts(out, "\nprisoners-red");
    card_list(s->prisoners[0], out);
    pl_buf_puts(out, "\nprisoners-black");
    card_list(s->prisoners[1], out);
    int c[2], sc[2];
    cbw_castles(s, c);
    cbw_score(s, sc);
    pl_buf_printf(out, "\ncastles %d %d\nscore %d %d\nhistory", c[0], c[1], sc[0], sc[1]);
    if (s->opener < 2)
        pl_buf_printf(out, " first:%s", team_word[s->opener]);
    history_text(s, out);
    pl_buf_putc(out, '\n');
}

/* ---- the picture ---- */

static void put_card(pl_canvas *c, int row, int col, int k)
{
    pl_buf b = {0};
    cbw_card_text(k, 1, &b);
    int w = pl_text_width(pl_buf_str(&b));
    pl_canvas_put(c, row, col + 3 - w, cbw_colour(k) ? PL_ST_BLACK : PL_ST_RED, pl_buf_str(&b));
    pl_buf_free(&b);
}

static void put_cards(pl_canvas *c, int row, int col, uint64_t m)
{
    for (; m; m &= m - 1) {
        pl_buf b = {0};
        int k = __builtin_ctzll(m);
        cbw_card_text(k, 1, &b);
        col = pl_canvas_put(c, row, col, cbw_colour(k) ? PL_ST_BLACK : PL_ST_RED, pl_buf_str(&b)) + 1;
        pl_buf_free(&b);
    }
}

/* Draws the last card placed, if it is still on the table, in the
 * highlight style (same characters: the picture's text does not change). */
static void mark_last(pl_canvas *c, const cbw_state *s, int top, int left)
{
    const cbw_hist *h = &s->hist[s->nhist - 1];
    if (!((s->table >> h->card) & 1) || h->x < s->ix0 || h->x > s->ix1 || h->y < s->iy0 || h->y > s->iy1)
        return;
    pl_buf b = {0};
    cbw_card_text(h->card, 1, &b);
    int col = left + 1 + 4 * (h->x - s->ix0);
    pl_canvas_put(c, top + 1 + (s->iy1 - h->y), col + 3 - pl_text_width(pl_buf_str(&b)), PL_ST_HILITE,
                  pl_buf_str(&b));
    pl_buf_free(&b);
}

/* `n` in decimal in `b` (16 bytes, a compound literal of the caller's
 * call); returns `b`. */
static const char *num(char *b, int n)
{
    snprintf(b, 16, "%d", n);
    return b;
}
#define NUM(n) num((char[16]){0}, (n)) /* "3", valid through the call it is written in */

/* Team `t`'s name in the picture's language ("Red", "Красные"). */
static const char *pic_team(const pl_canvas *c, int t)
{
    return pl_words((pl_lang)c->lang, t ? "seatname.cbw.Black" : "seatname.cbw.Red");
}

void cbw_draw(const void *st, int seat, pl_canvas *c)
{
    const cbw_state *s = st;
    int row = 0;
    pl_canvas_words(c, row++, 0, PL_ST_TITLE, s->players == 2 ? "cbw.pic.title.two" : "cbw.pic.title", "w", NUM(s->w), "h",
              NUM(s->h), "deck", NUM(s->deck), "n", NUM(s->nseats), NULL);
    row++;
    int fx = cbw_fixed_x(s), fy = cbw_fixed_y(s);
    int ncol = s->ix1 - s->ix0 + 1, nrow = s->iy1 - s->iy0 + 1;
    int left = 4; /* border column */
    /* x labels */
    for (int j = 0; j < ncol; j++)
        pl_canvas_printf(c, row, left + 1 + 4 * j, PL_ST_DIM, "%3d", s->ix0 + j);
    row++;
    int top = row;
    const char *hl = fy ? "═" : "┄", *vl = fx ? "║" : "┆";
    pl_style hs = fy ? PL_ST_MARK : PL_ST_DIM, vs = fx ? PL_ST_MARK : PL_ST_DIM;
    int right = left + 1 + 4 * ncol;
    for (int col = left; col <= right; col++) {
        const char *ch = hl;
        if (col == left || col == right)
            ch = fx && fy ? (col == left ? "╔" : "╗") : "+";
        pl_canvas_put(c, top, col, col == left || col == right ? (fx && fy ? PL_ST_MARK : PL_ST_DIM) : hs, ch);
        const char *cb = ch;
        if (col == left || col == right)
            cb = fx && fy ? (col == left ? "╚" : "╝") : "+";
        pl_canvas_put(c, top + nrow + 1, col, col == left || col == right ? (fx && fy ? PL_ST_MARK : PL_ST_DIM) : hs,
                      cb);
    }
    for (int i = 0; i < nrow; i++) {
        int y = s->iy1 - i, r = top + 1 + i;
        pl_canvas_printf(c, r, 0, PL_ST_DIM, "%3d", y);
        pl_canvas_put(c, r, left, vs, vl);
        pl_canvas_put(c, r, right, vs, vl);
        for (int j = 0; j < ncol; j++) {
            int x = s->ix0 + j, v = s->cell[cbw_cell(x, y)];
            int col = left + 1 + 4 * j;
            if (v && v != CBW_OUT) {
                put_card(c, r, col, v - 1);
            } else {
                bool in_span = s->started && x >= s->x0 && x <= s->x1 && y >= s->y0 && y <= s->y1;
                pl_canvas_put(c, r, col + 2, in_span ? PL_ST_NORMAL : PL_ST_DIM, "·");
            }
        }
    }
    row = top + nrow + 2;
    /* Edges. */
    int wx = s->started ? s->x1 - s->x0 + 1 : 0, wy = s->started ? s->y1 - s->y0 + 1 : 0;
    if (fx)
        pl_canvas_words(c, row++, 0, PL_ST_MARK, "cbw.pic.fixed_x", "lo", NUM(s->x0), "hi", NUM(s->x1), NULL);
    else
        pl_canvas_words(c, row++, 0, PL_ST_DIM, "cbw.pic.open_x", "n", NUM(wx), "w", NUM(s->w), NULL);
    if (fy)
        pl_canvas_words(c, row++, 0, PL_ST_MARK, "cbw.pic.fixed_y", "lo", NUM(s->y0), "hi", NUM(s->y1), NULL);
    else
        pl_canvas_words(c, row++, 0, PL_ST_DIM, "cbw.pic.open_y", "n", NUM(wy), "h", NUM(s->h), NULL);
    /* Teams, prisoners, score: the names padded to one width ("Red  "). */
    int cs[2], sc[2];
    cbw_castles(s, cs);
    cbw_score(s, sc);
    int namew = 0;
    for (int t = 0; t < 2; t++) {
        int w = pl_words_cols(pic_team(c, t), strlen(pic_team(c, t)));
        namew = w > namew ? w : namew;
    }
    for (int t = 0; t < 2; t++) {
        int col = pl_canvas_put(c, row, 0, t ? PL_ST_BLACK : PL_ST_RED, pic_team(c, t));
        col = pl_canvas_words(c, row, namew, PL_ST_NORMAL, "cbw.pic.score", "score", NUM(sc[t]), "castles", NUM(cs[t]),
                        "prisoners", NUM(__builtin_popcountll(s->prisoners[t])), NULL);
        if (s->prisoners[t]) {
            col = pl_canvas_put(c, row, col, PL_ST_NORMAL, ": ");
            put_cards(c, row, col, s->prisoners[t]);
        }
        row++;
    }
    /* Hands. */
    for (int i = 0; i < s->nseats; i++) {
        int col = pl_canvas_words(c, row, 0, cbw_team(i) ? PL_ST_BLACK : PL_ST_RED, "cbw.pic.seat", "n",
                            NUM(i + c->seat_from), NULL);
        col = pl_canvas_words(c, row, col, PL_ST_NORMAL,
                        i == s->turn && s->phase == CBW_PH_MOVE ? "cbw.pic.team.turn" : "cbw.pic.team", "team",
                        pic_team(c, cbw_team(i)), NULL);
        bool visible = seat < 0 || i == seat || (s->players == 2 && seat >= 0 && cbw_team(i) == cbw_team(seat));
        int nh = __builtin_popcountll(s->hand[i]);
        if (visible && nh)
            put_cards(c, row, col, s->hand[i]);
        else
            pl_canvas_words(c, row, col, PL_ST_DIM, nh == 1 ? "cbw.pic.cards.one" : "cbw.pic.cards", "n", NUM(nh), NULL);
        row++;
    }
    /* Status. */
    if (s->phase == CBW_PH_FIRST) {
        pl_canvas_words(c, row++, 0, PL_ST_HILITE, "cbw.pic.first", NULL);
    } else if (s->phase == CBW_PH_MOVE) {
        pl_canvas_words(c, row++, 0, PL_ST_HILITE, s->started ? "cbw.pic.to_play" : "cbw.pic.to_play.first", "n",
                  NUM(s->turn + c->seat_from), "team", pic_team(c, cbw_team(s->turn)), "low",
                  s->deck == 36 ? "6" : "2", NULL);
        if (s->passes)
            pl_canvas_words(c, row++, 0, PL_ST_DIM, s->passes == 1 ? "cbw.pic.passes.one" : "cbw.pic.passes", "n",
                      NUM(s->passes), "all", NUM(s->nseats), NULL);
    } else if (sc[0] == sc[1]) {
        pl_canvas_words(c, row++, 0, PL_ST_HILITE, "cbw.pic.draw", "a", NUM(sc[0]), "b", NUM(sc[1]), NULL);
    } else {
        int w = sc[1] > sc[0];
        pl_canvas_words(c, row++, 0, PL_ST_HILITE, "cbw.pic.wins", "team", pic_team(c, w), "a", NUM(sc[w]), "b",
                  NUM(sc[!w]), NULL);
    }
    if (s->nhist && s->passes < s->nseats) {
        const cbw_hist *h = &s->hist[s->nhist - 1];
        mark_last(c, s, top, left);
        pl_buf b = {0};
        cbw_card_text(h->card, 1, &b);
        int col = pl_canvas_words(c, row, 0, PL_ST_DIM, "cbw.pic.last", "card", pl_buf_str(&b), "x", NUM(h->x), "y",
                            NUM(h->y), NULL);
        if (s->cap1 || s->cap2) /* at column 30, or after a longer line */
            pl_canvas_words(c, row, col + 2 > 30 ? col + 2 : 30, PL_ST_DIM,
                      s->cap2 ? "cbw.pic.captured_lost" : "cbw.pic.captured", "n", NUM(s->cap1), "lost", NUM(s->cap2),
                      NULL);
        row++;
        pl_buf_free(&b);
    }
}

void cbw_seat_name(const void *st, int seat, pl_buf *out)
{
    (void)st;
    pl_buf_puts(out, team_name[cbw_team(seat)]);
}

/* ---- the structured view (pl_game.view_json, docs/web-views.md) ---- */

/* A card as JSON: its notation ("10H"), NULL when memory runs out. */
static json_t *card_json(int k)
{
    pl_buf b = {0};
    cbw_card_text(k, 0, &b);
    json_t *j = b.oom ? NULL : json_string(pl_buf_str(&b));
    pl_buf_free(&b);
    return j;
}

/* The cards of `m` in notation, lowest first (as the text view lists them). */
static json_t *cards_json(uint64_t m)
{
    json_t *a = json_array();
    int bad = 0;
    for (; m; m &= m - 1)
        bad |= json_array_append_new(a, card_json(__builtin_ctzll(m)));
    if (bad) {
        json_decref(a);
        return NULL;
    }
    return a;
}

static json_t *span_json(int lo, int hi) { return json_pack("[i,i]", lo, hi); }

int cbw_view_json(const void *st, int viewer, json_t *obj)
{
    const cbw_state *s = st;
    int bad = 0;
    bad |= json_object_set_new(obj, "options", json_pack("{s:i,s:i,s:i,s:i}", "players", (int)s->players, "deck",
                                                         (int)s->deck, "width", (int)s->w, "height", (int)s->h));
    bad |= json_object_set_new(obj, "stage", json_string(phase_word[s->phase]));
    bad |= json_object_set_new(obj, "turn", json_integer(s->turn));
    bad |= json_object_set_new(obj, "opener", s->opener < 2 ? json_string(team_word[s->opener]) : json_null());
    bad |= json_object_set_new(obj, "passes", json_integer(s->passes));
    json_t *span = s->started ? json_pack("{s:o,s:o}", "x", span_json(s->x0, s->x1), "y", span_json(s->y0, s->y1))
                              : json_null();
    bad |= json_object_set_new(obj, "span", span);
    bad |= json_object_set_new(obj, "fixed_x", cbw_fixed_x(s) ? span_json(s->x0, s->x1) : json_null());
    bad |= json_object_set_new(obj, "fixed_y", cbw_fixed_y(s) ? span_json(s->y0, s->y1) : json_null());
    bad |= json_object_set_new(obj, "inside", json_pack("{s:o,s:o}", "x", span_json(s->ix0, s->ix1), "y",
                                                        span_json(s->iy0, s->iy1)));
    /* hidden: the viewer's own hand, and its partner's when one person holds
     * both seats of a team (as cbw_view); a spectator sees no hand */
    if (viewer >= 0) {
        bad |= json_object_set_new(obj, "hand", cards_json(s->hand[viewer]));
        if (s->players == 2)
            bad |= json_object_set_new(obj, "partner_hand", json_pack("{s:i,s:o}", "seat", (viewer + 2) % s->nseats,
                                                                      "cards", cards_json(s->hand[(viewer + 2) % s->nseats])));
    }
    json_t *sizes = json_array();
    for (int i = 0; i < s->nseats; i++)
        bad |= json_array_append_new(sizes, json_integer(__builtin_popcountll(s->hand[i])));
    bad |= json_object_set_new(obj, "hand_sizes", sizes);
    json_t *table = json_array();
    int cards[CBW_NCARDS], n = table_order(s, cards);
    for (int i = 0; i < n; i++)
        bad |= json_array_append_new(table, json_pack("{s:o,s:i,s:i}", "card", card_json(cards[i]), "x",
                                                      cbw_cell_x(s->pos[cards[i]]), "y", cbw_cell_y(s->pos[cards[i]])));
    bad |= json_object_set_new(obj, "table", table);
    bad |= json_object_set_new(obj, "prisoners", json_pack("[o,o]", cards_json(s->prisoners[0]),
                                                           cards_json(s->prisoners[1])));
    int c[2], sc[2];
    cbw_castles(s, c);
    cbw_score(s, sc);
    bad |= json_object_set_new(obj, "castles", json_pack("[i,i]", c[0], c[1]));
    bad |= json_object_set_new(obj, "score", json_pack("[i,i]", sc[0], sc[1]));
    /* the public history: every placement and pass in order, from the opener */
    json_t *hist = json_array();
    if (s->opener < 2) {
        int seat = s->opener;
        for (int i = 0; i <= s->nhist; i++) {
            int np = i < s->nhist ? s->hist[i].passes : s->passes;
            for (int j = 0; j < np; j++) {
                bad |= json_array_append_new(hist, json_pack("{s:i,s:s}", "seat", seat, "move", "pass"));
                seat = (seat + 1) % s->nseats;
            }
            if (i == s->nhist)
                break;
            bad |= json_array_append_new(hist, json_pack("{s:i,s:s,s:o,s:i,s:i}", "seat", seat, "move", "place",
                                                         "card", card_json(s->hist[i].card), "x", s->hist[i].x,
                                                         "y", s->hist[i].y));
            seat = (seat + 1) % s->nseats;
        }
    }
    bad |= json_object_set_new(obj, "history", hist);
    return bad ? -1 : 0;
}

/* ---- the same view as text (pl_game.view_text): cbw_view_json's bytes ---- */

/* "10H": the notation without suit symbols is ASCII letters and digits, so
 * it needs no escape. */
static void text_card(pl_buf *b, int k)
{
    pl_buf_putc(b, '"');
    cbw_card_text(k, 0, b);
    pl_buf_putc(b, '"');
}

/* ["6H",…]: the cards of `m`, lowest first. */
static void text_cards(pl_buf *b, uint64_t m)
{
    pl_buf_putc(b, '[');
    for (int first = 1; m; m &= m - 1, first = 0) {
        if (!first)
            pl_buf_putc(b, ',');
        text_card(b, __builtin_ctzll(m));
    }
    pl_buf_putc(b, ']');
}

/* [a,b] */
static void text_pair(pl_buf *b, int x, int y)
{
    pl_buf_putc(b, '[');
    pl_json_put_int(b, x);
    pl_buf_putc(b, ',');
    pl_json_put_int(b, y);
    pl_buf_putc(b, ']');
}

/* {"x":[x0,x1],"y":[y0,y1]} */
static void text_box(pl_buf *b, int x0, int x1, int y0, int y1)
{
    pl_buf_puts(b, "{\"x\":");
    text_pair(b, x0, x1);
    pl_buf_puts(b, ",\"y\":");
    text_pair(b, y0, y1);
    pl_buf_putc(b, '}');
}

/* {"move":"pass","seat":…} and {"card":…,"move":"place","seat":…,"x":…,"y":…}:
 * the public history in order, from the opener (as cbw_view_json). */
static void text_history(pl_buf *b, const cbw_state *s)
{
    pl_buf_putc(b, '[');
    int seat = s->opener, first = 1;
    for (int i = 0; s->opener < 2 && i <= s->nhist; i++) {
        int np = i < s->nhist ? s->hist[i].passes : s->passes;
        for (int j = 0; j < np; j++, first = 0) {
            pl_buf_puts(b, first ? "{\"move\":\"pass\",\"seat\":" : ",{\"move\":\"pass\",\"seat\":");
            pl_json_put_int(b, seat);
            pl_buf_putc(b, '}');
            seat = (seat + 1) % s->nseats;
        }
        if (i == s->nhist)
            break;
        pl_buf_puts(b, first ? "{\"card\":" : ",{\"card\":");
        first = 0;
        text_card(b, s->hist[i].card);
        pl_buf_puts(b, ",\"move\":\"place\",\"seat\":");
        pl_json_put_int(b, seat);
        pl_buf_puts(b, ",\"x\":");
        pl_json_put_int(b, s->hist[i].x);
        pl_buf_puts(b, ",\"y\":");
        pl_json_put_int(b, s->hist[i].y);
        pl_buf_putc(b, '}');
        seat = (seat + 1) % s->nseats;
    }
    pl_buf_putc(b, ']');
}

int cbw_view_text(const void *st, int viewer, pl_jfields *f)
{
    const cbw_state *s = st;
    pl_buf *b = pl_jfields_key(f, "options");
    pl_buf_puts(b, "{\"deck\":");
    pl_json_put_int(b, s->deck);
    pl_buf_puts(b, ",\"height\":");
    pl_json_put_int(b, s->h);
    pl_buf_puts(b, ",\"players\":");
    pl_json_put_int(b, s->players);
    pl_buf_puts(b, ",\"width\":");
    pl_json_put_int(b, s->w);
    pl_buf_putc(b, '}');
    pl_json_put_string(pl_jfields_key(f, "stage"), phase_word[s->phase]);
    pl_json_put_int(pl_jfields_key(f, "turn"), s->turn);
    b = pl_jfields_key(f, "opener");
    if (s->opener < 2)
        pl_json_put_string(b, team_word[s->opener]);
    else
        pl_buf_puts(b, "null");
    pl_json_put_int(pl_jfields_key(f, "passes"), s->passes);
    b = pl_jfields_key(f, "span");
    if (s->started)
        text_box(b, s->x0, s->x1, s->y0, s->y1);
    else
        pl_buf_puts(b, "null");
    b = pl_jfields_key(f, "fixed_x");
    if (cbw_fixed_x(s))
        text_pair(b, s->x0, s->x1);
    else
        pl_buf_puts(b, "null");
    b = pl_jfields_key(f, "fixed_y");
    if (cbw_fixed_y(s))
        text_pair(b, s->y0, s->y1);
    else
        pl_buf_puts(b, "null");
    text_box(pl_jfields_key(f, "inside"), s->ix0, s->ix1, s->iy0, s->iy1);
    /* hidden: as cbw_view_json (the viewer's own hand, its partner's when
     * one person holds both seats of a team; a spectator none) */
    if (viewer >= 0) {
        text_cards(pl_jfields_key(f, "hand"), s->hand[viewer]);
        if (s->players == 2) {
            int partner = (viewer + 2) % s->nseats;
            b = pl_jfields_key(f, "partner_hand");
            pl_buf_puts(b, "{\"cards\":");
            text_cards(b, s->hand[partner]);
            pl_buf_puts(b, ",\"seat\":");
            pl_json_put_int(b, partner);
            pl_buf_putc(b, '}');
        }
    }
    b = pl_jfields_key(f, "hand_sizes");
    pl_buf_putc(b, '[');
    for (int i = 0; i < s->nseats; i++) {
        if (i)
            pl_buf_putc(b, ',');
        pl_json_put_int(b, __builtin_popcountll(s->hand[i]));
    }
    pl_buf_putc(b, ']');
    b = pl_jfields_key(f, "table");
    pl_buf_putc(b, '[');
    int cards[CBW_NCARDS], n = table_order(s, cards);
    for (int i = 0; i < n; i++) {
        pl_buf_puts(b, i ? ",{\"card\":" : "{\"card\":");
        text_card(b, cards[i]);
        pl_buf_puts(b, ",\"x\":");
        pl_json_put_int(b, cbw_cell_x(s->pos[cards[i]]));
        pl_buf_puts(b, ",\"y\":");
        pl_json_put_int(b, cbw_cell_y(s->pos[cards[i]]));
        pl_buf_putc(b, '}');
    }
    pl_buf_putc(b, ']');
    b = pl_jfields_key(f, "prisoners");
    pl_buf_putc(b, '[');
    text_cards(b, s->prisoners[0]);
    pl_buf_putc(b, ',');
    text_cards(b, s->prisoners[1]);
    pl_buf_putc(b, ']');
    int c[2], sc[2];
    cbw_castles(s, c);
    cbw_score(s, sc);
    text_pair(pl_jfields_key(f, "castles"), c[0], c[1]);
    text_pair(pl_jfields_key(f, "score"), sc[0], sc[1]);
    text_history(pl_jfields_key(f, "history"), s);
    return f->out->oom ? -1 : 0;
}

/* ---------------------------------------------------------------- what a move did */

/* What an action did, as plain C (cbw_events' one builder): cbw_events
 * makes jansson's tree of it, cbw_events_text its JSON text, the same
 * bytes (tests/test_property_events_text.c). */
enum { EV_FIRST, EV_PASS, EV_PLACE, EV_FIX, EV_CAPTURE, EV_CASTLE, EV_END };

typedef struct cbw_ev {
    uint8_t type;
    int8_t seat;  /* pass, place, capture: the seat that acted */
    int8_t team;  /* first, castle: the team; capture: "by" (the taker); fix: 0 axis x, 1 y */
    int8_t card;  /* place */
    int16_t a, b; /* place: x, y; fix: the edges; pass: a passes */
    uint16_t first, count; /* capture: its cards, castle: its cells, in the list's items */
} cbw_ev;

/* A card of a captured group at its cell, or a castle's cell (card -1). */
typedef struct cbw_item {
    int8_t card, x, y;
} cbw_item;

/* At most: a placement, two fixes, a group per card; or a pass, a castle
 * per inside cell and the end. Items: a group's cards or a castle's cells. */
#define CBW_MAX_EV (4 + CBW_NCELL)
#define CBW_MAX_ITEMS (CBW_NCARDS + CBW_NCELL)

/* About 16 KB: on the stack of its one caller at a time. */
typedef struct cbw_evlist {
    int n, nitems;
    int castles[2], prisoners[2], score[2], winner; /* the "end" event; winner -1: a draw (null) */
    cbw_ev ev[CBW_MAX_EV];
    cbw_item item[CBW_MAX_ITEMS];
} cbw_evlist;

/* A new event of `type` at the end of `l`, zeroed but for its type. */
static cbw_ev *ev_add(cbw_evlist *l, int type)
{
    assert(l->n < CBW_MAX_EV);
    cbw_ev *e = &l->ev[l->n++];
    memset(e, 0, sizeof *e);
    e->type = (uint8_t)type;
    e->first = (uint16_t)l->nitems;
    return e;
}

/* Appends an item to `l`, counted in its last event. */
static void item_add(cbw_evlist *l, int card, int x, int y)
{
    assert(l->nitems < CBW_MAX_ITEMS);
    l->item[l->nitems++] = (cbw_item){(int8_t)card, (int8_t)x, (int8_t)y};
    l->ev[l->n - 1].count++;
}

/* Appends one "capture" event per group of `set` (cards of one colour,
 * all on the table in `b` or, for card `newk`, at cell `newp`): cards
 * joined side by side (CBW-R17) make one group, listed lowest card first;
 * groups in the order of their lowest cards. */
static void capture_events(const cbw_state *b, uint64_t set, int newk, int newp, int seat, int by, cbw_evlist *l)
{
    while (set) {
        /* a flood fill over the cards of `set`, from its lowest */
        uint64_t grp = set & -set, frontier = grp;
        while (frontier) {
            int k = __builtin_ctzll(frontier);
            frontier &= frontier - 1;
            int p = k == newk ? newp : b->pos[k];
            for (uint64_t rest = set & ~grp; rest; rest &= rest - 1) {
                int j = __builtin_ctzll(rest), q = j == newk ? newp : b->pos[j];
                if (q == p + 1 || q == p - 1 || q == p + CBW_STRIDE || q == p - CBW_STRIDE) {
                    grp |= 1ull << j;
                    frontier |= 1ull << j;
                }
            }
        }
        set &= ~grp;
        cbw_ev *e = ev_add(l, EV_CAPTURE);
        e->seat = (int8_t)seat;
        e->team = (int8_t)by;
        for (uint64_t g = grp; g; g &= g - 1) {
            int k = __builtin_ctzll(g), p = k == newk ? newp : b->pos[k];
            item_add(l, k, cbw_cell_x(p), cbw_cell_y(p));
        }
    }
}

/* Appends the "castle" events (one per walled-in region, CBW-R23, R24) and
 * the "end" event of a finished game `s`. */
static void end_events(const cbw_state *s, cbw_evlist *l)
{
    uint8_t mark[CBW_NCELL];
    cbw_castle_map(s, l->castles, mark);
    cbw_score(s, l->score);
    /* regions in picture order (top row first, left to right), by their
     * first cell; a castle's cells are one free region, so a flood fill
     * over marked cells of its team finds exactly it */
    static const int d4[4] = {1, -1, CBW_STRIDE, -CBW_STRIDE};
    uint16_t stack[CBW_NCELL];
    for (int y = s->iy1; s->started && y >= s->iy0; y--)
        for (int x = s->ix0; x <= s->ix1; x++) {
            int p0 = cbw_cell(x, y);
            if (!mark[p0])
                continue;
            int team = mark[p0] - 1, n = 0;
            uint8_t in[CBW_NCELL] = {0};
            stack[n++] = (uint16_t)p0;
            in[p0] = 1;
            mark[p0] = 0;
            while (n) {
                int p = stack[--n];
                for (int d = 0; d < 4; d++) {
                    int q = p + d4[d];
                    if (mark[q] == team + 1) {
                        mark[q] = 0;
                        in[q] = 1;
                        stack[n++] = (uint16_t)q;
                    }
                }
            }
            cbw_ev *e = ev_add(l, EV_CASTLE);
            e->team = (int8_t)team;
            for (int cy = s->iy1; cy >= s->iy0; cy--)
                for (int cx = s->ix0; cx <= s->ix1; cx++)
                    if (in[cbw_cell(cx, cy)])
                        item_add(l, -1, cx, cy);
        }
    for (int t = 0; t < 2; t++)
        l->prisoners[t] = __builtin_popcountll(s->prisoners[t]);
    l->winner = l->score[0] == l->score[1] ? -1 : l->score[1] > l->score[0];
    ev_add(l, EV_END);
}

/* The events of `seat`'s action `a` from `b` to `s` into `l` (none for an
 * action that is no placement, pass or draw). Everything told lies on the
 * table or in the prisoners, seen by all: no viewer. */
static void events_of(const cbw_state *b, int seat, pl_action a, const cbw_state *s, cbw_evlist *l)
{
    l->n = l->nitems = 0;
    if (a & CBW_ACT_FIRST) {
        ev_add(l, EV_FIRST)->team = (int8_t)(a & 1);
        return;
    }
    if (a == CBW_ACT_PASS) {
        cbw_ev *e = ev_add(l, EV_PASS);
        e->seat = (int8_t)seat;
        e->a = s->passes;
        if (s->phase == CBW_PH_OVER && b->phase != CBW_PH_OVER)
            end_events(s, l);
        return;
    }
    if (!(a & CBW_ACT_PLACE) || seat < 0)
        return;
    int k = cbw_act_card(a), x = cbw_act_x(a), y = cbw_act_y(a), newp = cbw_cell(x, y), team = cbw_team(seat);
    cbw_ev *e = ev_add(l, EV_PLACE);
    e->seat = (int8_t)seat;
    e->card = (int8_t)k;
    e->a = (int16_t)x;
    e->b = (int16_t)y;
    for (int axis = 0; axis < 2; axis++)
        if (axis ? cbw_fixed_y(s) && !cbw_fixed_y(b) : cbw_fixed_x(s) && !cbw_fixed_x(b)) {
            e = ev_add(l, EV_FIX);
            e->team = (int8_t)axis;
            e->a = axis ? s->y0 : s->x0;
            e->b = axis ? s->y1 : s->x1;
        }
    /* the mover's captures first (CBW-R18 step 1), then a loss of its own */
    for (int i = 0; i < 2; i++) {
        int t = i ? !team : team;
        capture_events(b, s->prisoners[t] & ~b->prisoners[t], k, newp, seat, t, l);
    }
}

/* {"card":"7H","x":0,"y":0}, NULL when memory runs out. */
static json_t *card_at_json(int k, int x, int y)
{
    json_t *c = card_json(k);
    return c ? json_pack("{s:o,s:i,s:i}", "card", c, "x", x, "y", y) : NULL;
}

/* One event of `l` as jansson's tree, NULL when memory runs out. */
static json_t *ev_json(const cbw_evlist *l, const cbw_ev *e)
{
    static const char *const axis_word[2] = {"x", "y"};
    int bad = 0;
    json_t *list, *o;
    switch (e->type) {
    case EV_FIRST: return json_pack("{s:s,s:i}", "type", "first", "team", e->team);
    case EV_PASS: return json_pack("{s:s,s:i,s:i}", "type", "pass", "seat", e->seat, "passes", e->a);
    case EV_PLACE:
        o = card_at_json(e->card, e->a, e->b);
        if (o && (json_object_set_new(o, "type", json_string("place")) ||
                  json_object_set_new(o, "seat", json_integer(e->seat)))) {
            json_decref(o);
            return NULL;
        }
        return o;
    case EV_FIX:
        return json_pack("{s:s,s:s,s:[i,i]}", "type", "fix", "axis", axis_word[e->team], "edges", e->a, e->b);
    case EV_CAPTURE:
    case EV_CASTLE:
        list = json_array();
        for (int i = e->first; i < e->first + e->count; i++) {
            const cbw_item *it = &l->item[i];
            bad |= json_array_append_new(list, e->type == EV_CAPTURE ? card_at_json(it->card, it->x, it->y)
                                                                     : json_pack("{s:i,s:i}", "x", it->x, "y", it->y));
        }
        if (bad) {
            json_decref(list);
            return NULL;
        }
        if (e->type == EV_CASTLE)
            return json_pack("{s:s,s:i,s:o}", "type", "castle", "team", e->team, "cells", list);
        return json_pack("{s:s,s:i,s:i,s:i,s:o}", "type", "capture", "seat", e->seat, "by", e->team, "lost",
                         !e->team, "cards", list);
    default:
        return json_pack("{s:s,s:[i,i],s:[i,i],s:[i,i],s:o}", "type", "end", "castles", l->castles[0],
                         l->castles[1], "prisoners", l->prisoners[0], l->prisoners[1], "score", l->score[0],
                         l->score[1], "winner", l->winner < 0 ? json_null() : json_integer(l->winner));
    }
}

int cbw_events(const void *before, int seat, pl_action a, const void *after, int viewer, json_t *arr)
{
    (void)viewer; /* the same for every viewer */
    cbw_evlist l;
    events_of(before, seat, a, after, &l);
    int bad = 0;
    for (int i = 0; i < l.n && !bad; i++)
        bad |= json_array_append_new(arr, ev_json(&l, &l.ev[i]));
    return bad ? -1 : 0;
}

/* {"x":…,"y":…} */
static void text_xy(pl_buf *b, int x, int y)
{
    pl_buf_puts(b, "{\"x\":");
    pl_json_put_int(b, x);
    pl_buf_puts(b, ",\"y\":");
    pl_json_put_int(b, y);
    pl_buf_putc(b, '}');
}

/* {"card":"7H","x":…,"y":…} */
static void text_card_at(pl_buf *b, int k, int x, int y)
{
    pl_buf_puts(b, "{\"card\":");
    text_card(b, k);
    pl_buf_puts(b, ",\"x\":");
    pl_json_put_int(b, x);
    pl_buf_puts(b, ",\"y\":");
    pl_json_put_int(b, y);
    pl_buf_putc(b, '}');
}

/* One event of `l` as ev_json's compact text, keys in strcmp's order; the
 * strings are card notation (text_card) and fixed ASCII words: no escape. */
static void ev_text(pl_buf *b, const cbw_evlist *l, const cbw_ev *e)
{
    switch (e->type) {
    case EV_FIRST:
        pl_buf_puts(b, "{\"team\":");
        pl_json_put_int(b, e->team);
        pl_buf_puts(b, ",\"type\":\"first\"}");
        break;
    case EV_PASS:
        pl_buf_puts(b, "{\"passes\":");
        pl_json_put_int(b, e->a);
        pl_buf_puts(b, ",\"seat\":");
        pl_json_put_int(b, e->seat);
        pl_buf_puts(b, ",\"type\":\"pass\"}");
        break;
    case EV_PLACE:
        pl_buf_puts(b, "{\"card\":");
        text_card(b, e->card);
        pl_buf_puts(b, ",\"seat\":");
        pl_json_put_int(b, e->seat);
        pl_buf_puts(b, ",\"type\":\"place\",\"x\":");
        pl_json_put_int(b, e->a);
        pl_buf_puts(b, ",\"y\":");
        pl_json_put_int(b, e->b);
        pl_buf_putc(b, '}');
        break;
    case EV_FIX:
        pl_buf_puts(b, e->team ? "{\"axis\":\"y\",\"edges\":" : "{\"axis\":\"x\",\"edges\":");
        text_pair(b, e->a, e->b);
        pl_buf_puts(b, ",\"type\":\"fix\"}");
        break;
    case EV_CAPTURE:
    case EV_CASTLE:
        if (e->type == EV_CAPTURE) {
            pl_buf_puts(b, "{\"by\":");
            pl_json_put_int(b, e->team);
            pl_buf_puts(b, ",\"cards\":[");
        } else {
            pl_buf_puts(b, "{\"cells\":[");
        }
        for (int i = e->first; i < e->first + e->count; i++) {
            const cbw_item *it = &l->item[i];
            if (i > e->first)
                pl_buf_putc(b, ',');
            if (e->type == EV_CAPTURE)
                text_card_at(b, it->card, it->x, it->y);
            else
                text_xy(b, it->x, it->y);
        }
        if (e->type == EV_CAPTURE) {
            pl_buf_puts(b, "],\"lost\":");
            pl_json_put_int(b, !e->team);
            pl_buf_puts(b, ",\"seat\":");
            pl_json_put_int(b, e->seat);
            pl_buf_puts(b, ",\"type\":\"capture\"}");
        } else {
            pl_buf_puts(b, "],\"team\":");
            pl_json_put_int(b, e->team);
            pl_buf_puts(b, ",\"type\":\"castle\"}");
        }
        break;
    default:
        pl_buf_puts(b, "{\"castles\":");
        text_pair(b, l->castles[0], l->castles[1]);
        pl_buf_puts(b, ",\"prisoners\":");
        text_pair(b, l->prisoners[0], l->prisoners[1]);
        pl_buf_puts(b, ",\"score\":");
        text_pair(b, l->score[0], l->score[1]);
        pl_buf_puts(b, ",\"type\":\"end\",\"winner\":");
        if (l->winner < 0)
            pl_buf_puts(b, "null");
        else
            pl_json_put_int(b, l->winner);
        pl_buf_putc(b, '}');
    }
}

int cbw_events_text(const void *before, int seat, pl_action a, const void *after, int viewer, pl_buf *out)
{
    (void)viewer; /* the same for every viewer */
    cbw_evlist l;
    events_of(before, seat, a, after, &l);
    pl_buf_putc(out, '[');
    for (int i = 0; i < l.n; i++) {
        if (i)
            pl_buf_putc(out, ',');
        ev_text(out, &l, &l.ev[i]);
    }
    pl_buf_putc(out, ']');
    return out->oom ? -1 : 0;
}

/* A legal action's fields (cbw_action_fields' one builder). */
typedef struct cbw_fields {
    int move; /* 0 none ({}), EV_FIRST, EV_PASS or EV_PLACE */
    int team, card, x, y;
    int judged, captures, loses; /* judged: captures and loses are told */
} cbw_fields;

static void fields_of(const cbw_state *s, int seat, pl_action a, cbw_fields *f)
{
    memset(f, 0, sizeof *f);
    if (a & CBW_ACT_FIRST) {
        f->move = EV_FIRST;
        f->team = (int)(a & 1);
    } else if (a == CBW_ACT_PASS) {
        f->move = EV_PASS;
    } else if (a & CBW_ACT_PLACE) {
        int k = cbw_act_card(a), x = cbw_act_x(a), y = cbw_act_y(a);
        f->move = EV_PLACE;
        f->card = k;
        f->x = x;
        f->y = y;
        /* what it captures, for a placement that can be played now (a card
         * of the seat's hand on a free cell inside the frame); left out for
         * anything else, which is no legal action */
        if (s->phase == CBW_PH_MOVE && seat >= 0 && seat < s->nseats && ((s->hand[seat] >> k) & 1) &&
            x > -CBW_MAXDIM && x < CBW_MAXDIM && y > -CBW_MAXDIM && y < CBW_MAXDIM && s->cell[cbw_cell(x, y)] == 0) {
            f->judged = 1;
            f->captures = cbw_would_capture(s, seat, a, &f->loses);
        }
    }
}

int cbw_action_fields(const void *st, int seat, pl_action a, json_t *obj)
{
    cbw_fields f;
    fields_of(st, seat, a, &f);
    int bad = 0;
    if (f.move == EV_FIRST) {
        bad |= json_object_set_new(obj, "move", json_string("first"));
        bad |= json_object_set_new(obj, "team", json_integer(f.team));
    } else if (f.move == EV_PASS) {
        bad |= json_object_set_new(obj, "move", json_string("pass"));
    } else if (f.move == EV_PLACE) {
        bad |= json_object_set_new(obj, "move", json_string("place"));
        bad |= json_object_set_new(obj, "card", card_json(f.card));
        bad |= json_object_set_new(obj, "x", json_integer(f.x));
        bad |= json_object_set_new(obj, "y", json_integer(f.y));
        if (f.judged) {
            bad |= json_object_set_new(obj, "captures", json_integer(f.captures));
            bad |= json_object_set_new(obj, "loses", json_integer(f.loses));
        }
    }
    return bad ? -1 : 0;
}

int cbw_action_fields_text(const void *st, int seat, pl_action a, pl_buf *out)
{
    cbw_fields f;
    fields_of(st, seat, a, &f);
    /* cbw_action_fields' keys in strcmp's order */
    if (f.move == EV_FIRST) {
        pl_buf_puts(out, "{\"move\":\"first\",\"team\":");
        pl_json_put_int(out, f.team);
        pl_buf_putc(out, '}');
    } else if (f.move == EV_PASS) {
        pl_buf_puts(out, "{\"move\":\"pass\"}");
    } else if (f.move == EV_PLACE) {
        pl_buf_putc(out, '{');
        if (f.judged) {
            pl_buf_puts(out, "\"captures\":");
            pl_json_put_int(out, f.captures);
            pl_buf_putc(out, ',');
        }
        pl_buf_puts(out, "\"card\":");
        text_card(out, f.card);
        if (f.judged) {
            pl_buf_puts(out, ",\"loses\":");
            pl_json_put_int(out, f.loses);
        }
        pl_buf_puts(out, ",\"move\":\"place\",\"x\":");
        pl_json_put_int(out, f.x);
        pl_buf_puts(out, ",\"y\":");
        pl_json_put_int(out, f.y);
        pl_buf_putc(out, '}');
    } else {
        pl_buf_puts(out, "{}");
    }
    return out->oom ? -1 : 0;
}

/* Appends the card of notation `text` ("7S") with its suit symbol ("7♠"). */
static void card_word(const char *text, pl_buf *out)
{
    int k = text ? cbw_card_parse(&text) : -1;
    cbw_card_text(k, 1, out);
}

/* The words of `events` (cbw_events) for `viewer`: each run of "capture"
 * events of one capturing team is one sentence, its groups joined by
 * "and". The other events say what the notation ("place", "pass",
 * "first") or the game's outcome ("castle", "end") already says, or a
 * wall the picture draws ("fix"): no words. */
static void events_words(const json_t *events, int viewer, pl_buf *out)
{
    int mover = -1;
    const char *card = NULL;
    size_t n = json_array_size(events);
    for (size_t i = 0; i < n;) {
        const json_t *e = json_array_get(events, i);
        const char *type = json_string_value(json_object_get(e, "type"));
        if (type && !strcmp(type, "place")) {
            mover = (int)json_integer_value(json_object_get(e, "seat"));
            card = json_string_value(json_object_get(e, "card"));
        }
        if (!type || strcmp(type, "capture") || mover < 0) {
            i++;
            continue;
        }
        int by = (int)json_integer_value(json_object_get(e, "by")), count = 0;
        if (out->len)
            pl_buf_putc(out, ' ');
        if (viewer == mover)
            pl_buf_puts(out, "Your ");
        else
            pl_buf_printf(out, "Seat %d's ", mover + 1); /* counted from 1, as the browser does */
        card_word(card, out);
        pl_buf_puts(out, by == cbw_team(mover) ? " captured " : " left without liberty its own ");
        for (int groups = 0; i < n; i++, groups++) {
            e = json_array_get(events, i);
            type = json_string_value(json_object_get(e, "type"));
            if (!type || strcmp(type, "capture") || json_integer_value(json_object_get(e, "by")) != by)
                break;
            pl_buf_puts(out, groups ? " and " : "");
            const json_t *cards = json_object_get(e, "cards");
            for (size_t j = 0; j < json_array_size(cards); j++, count++) {
                pl_buf_puts(out, j ? " " : "");
                card_word(json_string_value(json_object_get(json_array_get(cards, j), "card")), out);
            }
        }
        pl_buf_printf(out, ": %d prisoner%s for %s%s.", count, count > 1 ? "s" : "", team_name[by],
                      viewer >= 0 && cbw_team(viewer) == by ? " (your team)" : "");
    }
}

void cbw_describe(const void *before, int seat, pl_action a, const void *after, int viewer, pl_buf *out)
{
    json_t *events = json_array();
    if (!events || cbw_events(before, seat, a, after, viewer, events) < 0)
        out->oom = true; /* told nothing: the caller sees why */
    else
        events_words(events, viewer, out);
    json_decref(events);
}

/* ---- refusals (docs/web-views.md, cbw "Refusals") ---- */

/* The word of each reason, indexed by cbw_reason (NULL: no words). */
static const char *const why_word[] = {
    [CBW_WHY_NONE] = NULL,
    [CBW_WHY_NO_CARD] = "no-card",
    [CBW_WHY_NOT_HELD] = "not-held",
    [CBW_WHY_OTHER_COLOUR] = "other-colour",
    [CBW_WHY_FIRST_CELL] = "first-cell",
    [CBW_WHY_FIRST_RANK] = "first-rank",
    [CBW_WHY_OUTSIDE] = "outside",
    [CBW_WHY_OCCUPIED] = "occupied",
    [CBW_WHY_CONTINUITY] = "continuity",
    [CBW_WHY_SAME_SUIT] = "same-suit",
    [CBW_WHY_SENIORITY] = "seniority",
    [CBW_WHY_SUICIDE] = "suicide",
};
_Static_assert(sizeof why_word / sizeof why_word[0] == CBW_WHY_SUICIDE + 1, "a word for every reason");

int cbw_refusal(const void *st, int seat, pl_action a, json_t *obj)
{
    const cbw_state *s = st;
    cbw_refused r;
    cbw_refusal_why(s, seat, a, &r);
    if (r.why == CBW_WHY_NONE)
        return -1;
    int bad = json_object_set_new(obj, "why", json_string(why_word[r.why]));
    bad |= json_object_set_new(obj, "card", card_json(r.card));
    if (r.why == CBW_WHY_NO_CARD || r.why == CBW_WHY_NOT_HELD)
        return bad ? -1 : 0;
    if (r.why == CBW_WHY_OTHER_COLOUR) {
        bad |= json_object_set_new(obj, "team", json_integer(cbw_team(seat)));
        return bad ? -1 : 0;
    }
    bad |= json_object_set_new(obj, "x", json_integer(r.x));
    bad |= json_object_set_new(obj, "y", json_integer(r.y));
    if (r.why == CBW_WHY_FIRST_RANK)
        bad |= json_object_set_new(obj, "low", json_string(rank_txt[r.low]));
    if (r.why == CBW_WHY_OUTSIDE) {
        bad |= json_object_set_new(obj, "w", json_integer(s->w));
        bad |= json_object_set_new(obj, "h", json_integer(s->h));
        bad |= json_object_set_new(obj, "walls", json_boolean(r.fixed));
    }
    if (r.why == CBW_WHY_OCCUPIED)
        bad |= json_object_set_new(obj, "holds", card_json(r.other));
    if (r.why == CBW_WHY_SAME_SUIT)
        bad |= json_object_set_new(obj, "touches", card_json(r.other));
    if (r.why == CBW_WHY_SENIORITY)
        bad |= json_object_set_new(obj, "neighbours", cards_json(r.nbrs));
    return bad ? -1 : 0;
}
