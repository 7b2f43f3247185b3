/* tc_events.c — what a Tam Cúc action did, as data (pl_game.events), the
 * fields of a legal action (pl_game.action_fields), and the same events in
 * English words (pl_game.describe): docs/web-views.md, "tamcuc", "Events".
 *
 * The events are read from the states before and after the action, never
 * from the rules' code paths: payments (declarations, kết, overtake) are the
 * change of the deal's scores, so the rules are written once (tc.c).
 *
 * Secrecy (TC-R6.5, the information model of `view`): a face-down lead,
 * lay, hidden group or night pass carries its cards only for its owner (and
 * viewer -1); a deal carries only the viewer's own hand; everything else an
 * event holds (sizes, shown groups, the trick's winner and winning set, won
 * piles, scores, declarations) is public. So the events of a state that
 * differs only in what the viewer cannot see are the same
 * (tests/test_property_tamcuc_hidden.c).
 * One builder (tc_build, plain C values) finds the events; ev_json writes
 * them as jansson objects (tc_events, the reference) and ev_text as the
 * same bytes straight into a buffer (tc_events_text: the server's path,
 * docs/benchmarks.md); a legal action's fields likewise (tc_field_of).
 * Work: O(seats + cards) per action; tc_events allocates only the jansson
 * values, tc_events_text nothing but its buffer.
 */
#include <stdbool.h>
#include <string.h>

#include "tc.h"

#include <jansson.h>

#include "parlour/jsonout.h"

/* ---------------------------------------------------------------- the events, as data
 *
 * One builder (tc_build) finds an action's events as plain C values; two
 * writers put them out: ev_json as jansson objects (pl_game.events, the
 * reference) and ev_text as the same bytes straight into a buffer
 * (pl_game.events_text). The fields of a legal action are one such event
 * too (tc_field_of), written by fields_json and fields_text. */

enum {
    EV_COUNTING, EV_DEALER, EV_DEAL, EV_PASS, EV_EXCHANGE, EV_DECLARE, EV_NODECLARE, EV_PAID, EV_KET,
    EV_OVERTAKE, EV_DEAL_END, EV_GAME_END, EV_LEAD, EV_LAY, EV_SHOWN, EV_REVEAL, EV_HIDE, EV_TRICK, EV_N
};
static const char *const ev_word[EV_N] = {"counting", "dealer",   "deal",   "pass",  "exchange", "declare",
                                          "nodeclare", "paid",    "ket",    "overtake", "deal_end", "game_end",
                                          "lead",     "lay",      "shown",  "reveal", "hide",     "trick"};

/* The word of event type `t` (every tc_ev's type is one of EV_*). */
static const char *ev_name(int t) { return t >= 0 && t < EV_N ? ev_word[t] : "none"; }

/* The most events one action has: a reveal that ends the trick, the deal
 * and the game (reveal, trick, payment, deal_end, game_end). */
enum { TC_MAX_EV = 6 };

/* One event (or a legal action's fields), by type; what a member means for
 * each type is said beside it. */
typedef struct tc_ev {
    uint8_t type;   /* EV_* */
    int8_t seat;    /* the seat acting, paid (paid, ket) or paying (overtake); trick: the winner; counting,
                       deal: the dealer */
    int8_t other;   /* pass: the seat passed to; trick: the leader */
    int8_t size;    /* declare, nodeclare, paid: the declared set's size (5 "five", else "four") */
    bool flag;      /* declare, nodeclare: counter; lead, trick: extra; deal_end: autowin */
    bool flag2;     /* declare: red; trick: last */
    bool shown;     /* `cards` are written, else null (face down, not the viewer's) */
    uint8_t mask;   /* overtake: the seats paid ("to"); game_end: the winners */
    int n;          /* count; paid, ket, overtake: each; deal, deal_end: the deal; counting: provisional */
    int m;          /* counting: steps */
    tc_cards cards; /* the cards (when `shown`) */
} tc_ev;

/* An action's events, and what the deal, counting and deal_end events
 * list per seat (one of each at most an action). */
typedef struct tc_evs {
    int n, np, viewer;
    tc_ev e[TC_MAX_EV];
    uint8_t counted[TC_MAXP];          /* counting: each seat's card (kind) */
    int sizes[TC_MAXP];                /* deal: hand sizes */
    tc_cards hand[TC_MAXP];            /* deal: the viewer's hand in [0], or every hand for viewer -1 */
    int won[TC_MAXP], base[TC_MAXP];   /* deal_end: cards won, base score (not on autowin) */
    int payments[TC_MAXP], score[TC_MAXP]; /* deal_end */
    int totals[TC_MAXP];               /* deal_end, game_end: the session's totals */
} tc_evs;

/* A new event of `type` at the end of E (room is by TC_MAX_EV). */
static tc_ev *add(tc_evs *E, int type)
{
    tc_ev *e = &E->e[E->n++];
    *e = (tc_ev){.type = (uint8_t)type};
    return e;
}

/* An event with `x`'s cards when `show`. */
static tc_ev *add_cards(tc_evs *E, int type, int seat, int n, tc_cards x, bool show)
{
    tc_ev *e = add(E, type);
    e->seat = (int8_t)seat;
    e->n = n;
    e->shown = show;
    e->cards = show ? x : 0;
    return e;
}

/* The set's category of a lead of `n` cards (TC-R2). */
static const char *set_word(int n)
{
    static const char *const w[] = {"none", "single", "pair", "triple", "four", "five"};
    return n >= 1 && n <= 5 ? w[n] : "none";
}

static const char *size_word(int z) { return z == 5 ? "five" : "four"; }

/* The face of a group of cards of event or verb `type`. */
static const char *face_word(int type) { return type == EV_REVEAL ? "up" : "down"; }

/* The deal's scores after the action: this deal's so far, or the finished
 * deal's when the action ended it (a new deal clears dscore). */
static const int16_t *deal_scores(const tc_state *b, const tc_state *s)
{
    return s->deals_done > b->deals_done ? s->last_score : s->dscore;
}

/* The deal: the dealer, the hand sizes, the viewer's own hand (all hands
 * for viewer -1). */
static void ev_deal(const tc_state *s, tc_evs *E)
{
    tc_ev *e = add(E, EV_DEAL);
    e->n = s->deals_done + 1;
    e->seat = (int8_t)s->dealer;
    for (int p = 0; p < s->np; p++) {
        E->sizes[p] = tc_size(s->hand[p]);
        if (E->viewer < 0)
            E->hand[p] = s->hand[p];
    }
    if (E->viewer >= 0)
        E->hand[0] = s->hand[E->viewer];
}

/* Payments of the action, from the change of the deal's scores: one seat
 * paid by every other ("paid": declarations, TC-R5.5; "ket", TC-R8.3) or
 * one seat paying ("overtake", TC-R8.4). `base` is subtracted first (the
 * deal's base when the action ended it, else zeros). */
static void ev_payments(const tc_state *b, const tc_state *s, const int *base, int type, tc_evs *E)
{
    int np = b->np, d[TC_MAXP], any = 0;
    const int16_t *after = deal_scores(b, s);
    for (int p = 0; p < np; p++) {
        d[p] = after[p] - base[p] - b->dscore[p];
        any |= d[p] != 0;
    }
    if (!any)
        return;
    tc_ev *e = add(E, type);
    if (type == EV_OVERTAKE) { /* the leader pays the winner, or each other seat, alike */
        int payer = b->tleader, paid = 0;
        for (int p = 0; p < np; p++)
            if (p != payer && d[p] > 0) {
                e->mask |= (uint8_t)(1u << p);
                paid++;
            }
        e->seat = (int8_t)payer;
        e->n = paid ? -d[payer] / paid : 0;
        return;
    }
    int to = 0;
    for (int p = 1; p < np; p++)
        if (d[p] > d[to])
            to = p;
    e->seat = (int8_t)to;
    e->n = d[to] / (np - 1);
    e->size = (int8_t)b->dround;
}

/* The deal's end: each seat's line of the finished deal (TC-R8) and the
 * session's totals, then the game's end when it is over. `k`: the won
 * piles at the deal's end. */
static void ev_deal_end(const tc_state *b, const tc_state *s, const int *k, bool autowin, tc_evs *E)
{
    int np = b->np;
    for (int p = 0; p < np; p++) {
        int base = autowin ? 0 : tc_base_score(b, k, p), total = s->last_score[p];
        E->won[p] = k[p];
        E->base[p] = base;
        E->payments[p] = total - base;
        E->score[p] = total;
        E->totals[p] = s->total[p];
    }
    tc_ev *e = add(E, EV_DEAL_END);
    e->n = s->deals_done;
    e->flag = autowin;
    if (s->phase != TC_PH_OVER)
        return;
    int top = s->total[0];
    for (int p = 1; p < np; p++)
        top = s->total[p] > top ? s->total[p] : top;
    e = add(E, EV_GAME_END);
    for (int p = 0; p < np; p++)
        if (s->total[p] == top)
            e->mask |= (uint8_t)(1u << p);
}

/* The events of a chance outcome: the counting, the drawn dealer, the deal
 * (a fixed deal= follows the dealer at once). */
static void ev_chance(const tc_state *b, const tc_state *s, tc_evs *E)
{
    if (b->phase == TC_PH_COUNT) {
        tc_ev *e = add(E, EV_COUNTING);
        for (int i = 0; i < b->np; i++)
            E->counted[i] = s->count_card[i];
        e->n = s->count_prov;
        e->seat = (int8_t)s->dealer;
        e->m = s->count_steps;
    } else if (b->phase == TC_PH_DEALER) {
        add(E, EV_DEALER)->seat = (int8_t)s->dealer;
    }
    if (b->phase <= TC_PH_DEAL && s->phase > TC_PH_DEAL && s->deals_done == b->deals_done)
        ev_deal(s, E);
}

/* The events of `seat`'s action `a` from `b` to `s` as `viewer` may know
 * them, into E: the one builder of both writers. */
static void tc_build(const tc_state *b, int seat, pl_action a, const tc_state *s, int viewer, tc_evs *E)
{
    int np = b->np;
    bool mine = viewer < 0 || viewer == seat;
    int zero[TC_MAXP] = {0};
    tc_cards x = TC_CARDS(a);
    E->n = 0;
    E->np = np;
    E->viewer = viewer;
    if (seat == PL_CHANCE) {
        ev_chance(b, s, E);
        return;
    }
    switch (b->phase) {
    case TC_PH_EXCH:
        add_cards(E, EV_PASS, seat, tc_size(x), x, mine)->other = (int8_t)((seat + 1) % np);
        if (s->phase != TC_PH_EXCH) /* the last pass: every pass is received at once (TC-R4.4) */
            add_cards(E, EV_EXCHANGE, 0, (int)b->night_k, viewer >= 0 ? s->passed[(viewer + np - 1) % np] : 0,
                      viewer >= 0);
        break;
    case TC_PH_DECL: {
        tc_ev *e = add(E, TC_TAG(a) == TC_A_DECL ? EV_DECLARE : EV_NODECLARE);
        e->seat = (int8_t)seat;
        e->size = (int8_t)b->dround;
        e->flag = b->dctr != 0;
        /* the colour the rules logged; when the declaration ended the deal
         * and a new one cleared the log, the rule's own choice (the red set
         * when held, TC-R5 [I]) */
        if (e->type == EV_DECLARE)
            e->flag2 = s->ndecl > b->ndecl ? (s->decl_log[s->ndecl - 1] >> 5 & 1)
                                           : (e->flag || TC_NIB(b->hand[seat], TC_RS) >= b->dround);
        ev_payments(b, s, zero, EV_PAID, E);
        if (s->deals_done > b->deals_done) /* AUTOWIN ended the deal (TC-R5.6): payments only */
            ev_deal_end(b, s, zero, true, E);
        break;
    }
    case TC_PH_LEAD:
        add_cards(E, EV_LEAD, seat, tc_size(x), x, mine)->flag = b->textra;
        break;
    case TC_PH_LAY:
        add_cards(E, EV_LAY, seat, tc_size(x), x, mine);
        if (s->phase == TC_PH_REVEAL) /* every follower has laid: the lead is turned face up (TC-R6.3) */
            add_cards(E, EV_SHOWN, b->tleader, b->tn, b->tlead, true);
        break;
    case TC_PH_REVEAL: {
        tc_cards g = b->tlay[seat];
        if (TC_TAG(a) == TC_A_REVEAL)
            add_cards(E, EV_REVEAL, seat, b->tn, g, true);
        else
            add_cards(E, EV_HIDE, seat, b->tn, g, mine);
        if (s->phase == TC_PH_REVEAL)
            break;
        /* the trick is over (TC-R6.4): the winner's set is face up, the lead
         * shown or a revealed group */
        int w = s->pv_winner, L = b->tleader;
        bool last = b->hand[L] == 0; /* TC-R6.7 */
        tc_ev *e = add_cards(E, EV_TRICK, w, b->tn, w == L ? s->pv_lead : s->pv_lay[w], true);
        e->other = (int8_t)L;
        e->flag = b->textra;
        e->flag2 = last;
        if (!last)
            break;
        int k[TC_MAXP], base[TC_MAXP];
        for (int p = 0; p < np; p++)
            k[p] = tc_size(b->won[p]) + (p == w ? b->tn : 0);
        for (int p = 0; p < np; p++)
            base[p] = tc_base_score(b, k, p);
        ev_payments(b, s, base, w == L ? EV_KET : EV_OVERTAKE, E);
        ev_deal_end(b, s, k, false, E);
        break;
    }
    default: break;
    }
}

/* ---------------------------------------------------------------- written by jansson (the reference) */

/* Sets o[key] to `v` (taking it); a failure (NULL or no memory) sets *bad. */
static void put(json_t *o, const char *key, json_t *v, int *bad)
{
    if (!o || !v || json_object_set_new(o, key, v) < 0)
        *bad = 1;
}

/* Appends `v` to `arr` (taking it); a failure sets *bad. */
static void push(json_t *arr, json_t *v, int *bad)
{
    if (!arr || !v || json_array_append_new(arr, v) < 0)
        *bad = 1;
}

/* One card of kind `k` in notation ("rC"). */
static void card_chars(int k, char t[3])
{
    t[0] = (k & 1) ? 'r' : 'b';
    t[1] = tc_rank_ch[k >> 1 & 7];
    t[2] = '\0';
}

static json_t *ints_json(const int *v, int np, int *bad)
{
    json_t *a = json_array();
    for (int p = 0; p < np; p++)
        push(a, json_integer(v[p]), bad);
    return a;
}

/* The seats of `mask` as a JSON list. */
static json_t *mask_json(unsigned mask, int np, int *bad)
{
    json_t *a = json_array();
    for (int p = 0; p < np; p++)
        if (mask >> p & 1)
            push(a, json_integer(p), bad);
    return a;
}

/* The cards of `e` (or null), and count; the keys a group of cards has. */
static void cards_json(json_t *o, const tc_ev *e, int *bad)
{
    put(o, "cards", e->shown ? tc_cards_json(e->cards) : json_null(), bad);
    put(o, "count", json_integer(e->n), bad);
}

/* Appends event `e` of E to `arr` as a jansson object. */
static void ev_json(const tc_evs *E, const tc_ev *e, json_t *arr, int *bad)
{
    int np = E->np;
    json_t *o = json_object();
    put(o, "type", json_string(ev_name(e->type)), bad);
    switch (e->type) {
    case EV_COUNTING: {
        json_t *cards = json_array();
        for (int i = 0; i < np; i++) {
            char t[3];
            card_chars(E->counted[i], t);
            push(cards, json_string(t), bad);
        }
        put(o, "provisional", json_integer(e->n), bad);
        put(o, "cards", cards, bad);
        put(o, "dealer", json_integer(e->seat), bad);
        put(o, "steps", json_integer(e->m), bad);
        break;
    }
    case EV_DEALER: put(o, "seat", json_integer(e->seat), bad); break;
    case EV_DEAL:
        put(o, "deal", json_integer(e->n), bad);
        put(o, "dealer", json_integer(e->seat), bad);
        put(o, "sizes", ints_json(E->sizes, np, bad), bad);
        if (E->viewer >= 0) {
            put(o, "hand", tc_cards_json(E->hand[0]), bad);
        } else {
            json_t *all = json_array();
            for (int p = 0; p < np; p++)
                push(all, tc_cards_json(E->hand[p]), bad);
            put(o, "hands", all, bad);
        }
        break;
    case EV_PASS:
        put(o, "seat", json_integer(e->seat), bad);
        put(o, "to", json_integer(e->other), bad);
        cards_json(o, e, bad);
        break;
    case EV_EXCHANGE:
        put(o, "count", json_integer(e->n), bad);
        put(o, "received", e->shown ? tc_cards_json(e->cards) : json_null(), bad);
        break;
    case EV_DECLARE:
    case EV_NODECLARE:
        put(o, "seat", json_integer(e->seat), bad);
        put(o, "size", json_string(size_word(e->size)), bad);
        if (e->type == EV_DECLARE)
            put(o, "colour", json_string(e->flag2 ? "red" : "black"), bad);
        put(o, "counter", json_boolean(e->flag), bad);
        break;
    case EV_PAID:
    case EV_KET:
        put(o, "seat", json_integer(e->seat), bad);
        put(o, "each", json_integer(e->n), bad);
        if (e->type == EV_PAID)
            put(o, "size", json_string(size_word(e->size)), bad);
        break;
    case EV_OVERTAKE:
        put(o, "seat", json_integer(e->seat), bad);
        put(o, "to", mask_json(e->mask, np, bad), bad);
        put(o, "each", json_integer(e->n), bad);
        break;
    case EV_DEAL_END: {
        json_t *lines = json_array();
        for (int p = 0; p < np; p++) {
            json_t *l = json_object();
            put(l, "seat", json_integer(p), bad);
            put(l, "payments", json_integer(E->payments[p]), bad);
            put(l, "score", json_integer(E->score[p]), bad);
            if (!e->flag) {
                put(l, "won", json_integer(E->won[p]), bad);
                put(l, "base", json_integer(E->base[p]), bad);
            }
            push(lines, l, bad);
        }
        put(o, "deal", json_integer(e->n), bad);
        put(o, "autowin", json_boolean(e->flag), bad);
        put(o, "lines", lines, bad);
        put(o, "totals", ints_json(E->totals, np, bad), bad);
        break;
    }
    case EV_GAME_END:
        put(o, "totals", ints_json(E->totals, np, bad), bad);
        put(o, "winners", mask_json(e->mask, np, bad), bad);
        break;
    case EV_LEAD:
        put(o, "seat", json_integer(e->seat), bad);
        cards_json(o, e, bad);
        put(o, "face", json_string("down"), bad);
        put(o, "extra", json_boolean(e->flag), bad);
        put(o, "set", json_string(set_word(e->n)), bad);
        break;
    case EV_LAY:
    case EV_REVEAL:
    case EV_HIDE:
        put(o, "face", json_string(face_word(e->type)), bad);
        /* fall through */
    case EV_SHOWN:
        put(o, "seat", json_integer(e->seat), bad);
        cards_json(o, e, bad);
        break;
    case EV_TRICK:
        put(o, "winner", json_integer(e->seat), bad);
        put(o, "leader", json_integer(e->other), bad);
        put(o, "extra", json_boolean(e->flag), bad);
        put(o, "last", json_boolean(e->flag2), bad);
        cards_json(o, e, bad);
        break;
    default: break;
    }
    push(arr, o, bad);
}

int tc_events(const void *before, int seat, pl_action a, const void *after, int viewer, json_t *arr)
{
    tc_evs E;
    int bad = 0;
    tc_build(before, seat, a, after, viewer, &E);
    for (int i = 0; i < E.n; i++)
        ev_json(&E, &E.e[i], arr, &bad);
    return bad ? -1 : 0;
}

/* ---------------------------------------------------------------- written as text
 *
 * ev_json's objects as pl_json_dump writes them: compact, each object's
 * keys written by hand in strcmp's order (beside each case). Every string
 * is one of this file's words or a card's two letters ("rC"): ASCII letters
 * and '_', nothing to escape, so they are copied between quotes as they are
 * (put_word). No allocation but the buffer's. tests/test_property_events_text.c
 * checks the bytes against ev_json's at every action for every viewer. */

/* Appends `w` (ASCII letters and '_') between quotes. */
static void put_word(pl_buf *out, const char *w)
{
    pl_buf_putc(out, '"');
    pl_buf_puts(out, w);
    pl_buf_putc(out, '"');
}

/* Appends `key` as `lead` (the object's "{" or a field's ",") then "key":. */
static void put_key(pl_buf *out, const char *lead, const char *key)
{
    pl_buf_puts(out, lead);
    pl_buf_putc(out, '"');
    pl_buf_puts(out, key);
    pl_buf_puts(out, "\":");
}

/* Appends `v` as pl_json_put_int writes it; one digit without its work. */
static void put_small(pl_buf *out, int v)
{
    if (v >= 0 && v <= 9)
        pl_buf_putc(out, (char)('0' + v));
    else
        pl_json_put_int(out, v);
}

static void put_bool(pl_buf *out, bool v) { pl_buf_puts(out, v ? "true" : "false"); }

/* Appends the cards of `x` as tc_cards_json's list dumps (any multiset:
 * up to 15 of each kind). */
static void put_cards(pl_buf *out, tc_cards x)
{
    char buf[2 + TC_NKIND * 15 * 5];
    size_t n = 0;
    buf[n++] = '[';
    for (int k = TC_NKIND - 1; k >= 0; k--)
        for (int c = TC_NIB(x, k); c > 0; c--) {
            if (n > 1)
                buf[n++] = ',';
            buf[n++] = '"';
            buf[n++] = (k & 1) ? 'r' : 'b';
            buf[n++] = tc_rank_ch[k >> 1];
            buf[n++] = '"';
        }
    buf[n++] = ']';
    pl_buf_append(out, buf, n);
}

static void put_ints(pl_buf *out, const int *v, int np)
{
    pl_buf_putc(out, '[');
    for (int p = 0; p < np; p++) {
        if (p)
            pl_buf_putc(out, ',');
        put_small(out, v[p]);
    }
    pl_buf_putc(out, ']');
}

static void put_mask(pl_buf *out, unsigned mask, int np)
{
    int any = 0;
    pl_buf_putc(out, '[');
    for (int p = 0; p < np; p++)
        if (mask >> p & 1) {
            if (any++)
                pl_buf_putc(out, ',');
            put_small(out, p);
        }
    pl_buf_putc(out, ']');
}

/* Appends "cards":[..] or null, then ,"count":N (the object's first keys). */
static void put_cards_count(pl_buf *out, const char *lead, const tc_ev *e)
{
    put_key(out, lead, "cards");
    if (e->shown)
        put_cards(out, e->cards);
    else
        pl_buf_puts(out, "null");
    put_key(out, ",", "count");
    put_small(out, e->n);
}

/* Appends event `e` of E as ev_json's object dumps. */
static void ev_text(const tc_evs *E, const tc_ev *e, pl_buf *out)
{
    int np = E->np;
    switch (e->type) {
    case EV_COUNTING: /* cards dealer provisional steps type */
        put_key(out, "{", "cards");
        pl_buf_putc(out, '[');
        for (int i = 0; i < np; i++) {
            char t[3];
            card_chars(E->counted[i], t);
            if (i)
                pl_buf_putc(out, ',');
            put_word(out, t);
        }
        pl_buf_putc(out, ']');
        put_key(out, ",", "dealer");
        put_small(out, e->seat);
        put_key(out, ",", "provisional");
        put_small(out, e->n);
        put_key(out, ",", "steps");
        put_small(out, e->m);
        break;
    case EV_DEALER: /* seat type */
        put_key(out, "{", "seat");
        put_small(out, e->seat);
        break;
    case EV_DEAL: /* deal dealer hand|hands sizes type */
        put_key(out, "{", "deal");
        put_small(out, e->n);
        put_key(out, ",", "dealer");
        put_small(out, e->seat);
        if (E->viewer >= 0) {
            put_key(out, ",", "hand");
            put_cards(out, E->hand[0]);
        } else {
            put_key(out, ",", "hands");
            pl_buf_putc(out, '[');
            for (int p = 0; p < np; p++) {
                if (p)
                    pl_buf_putc(out, ',');
                put_cards(out, E->hand[p]);
            }
            pl_buf_putc(out, ']');
        }
        put_key(out, ",", "sizes");
        put_ints(out, E->sizes, np);
        break;
    case EV_PASS: /* cards count seat to type */
        put_cards_count(out, "{", e);
        put_key(out, ",", "seat");
        put_small(out, e->seat);
        put_key(out, ",", "to");
        put_small(out, e->other);
        break;
    case EV_EXCHANGE: /* count received type */
        put_key(out, "{", "count");
        put_small(out, e->n);
        put_key(out, ",", "received");
        if (e->shown)
            put_cards(out, e->cards);
        else
            pl_buf_puts(out, "null");
        break;
    case EV_DECLARE: /* colour counter seat size type */
    case EV_NODECLARE: /* counter seat size type */
        if (e->type == EV_DECLARE) {
            put_key(out, "{", "colour");
            put_word(out, e->flag2 ? "red" : "black");
            put_key(out, ",", "counter");
        } else {
            put_key(out, "{", "counter");
        }
        put_bool(out, e->flag);
        put_key(out, ",", "seat");
        put_small(out, e->seat);
        put_key(out, ",", "size");
        put_word(out, size_word(e->size));
        break;
    case EV_PAID: /* each seat size type */
    case EV_KET:  /* each seat type */
        put_key(out, "{", "each");
        put_small(out, e->n);
        put_key(out, ",", "seat");
        put_small(out, e->seat);
        if (e->type == EV_PAID) {
            put_key(out, ",", "size");
            put_word(out, size_word(e->size));
        }
        break;
    case EV_OVERTAKE: /* each seat to type */
        put_key(out, "{", "each");
        put_small(out, e->n);
        put_key(out, ",", "seat");
        put_small(out, e->seat);
        put_key(out, ",", "to");
        put_mask(out, e->mask, np);
        break;
    case EV_DEAL_END: /* autowin deal lines totals type; a line: base payments score seat won */
        put_key(out, "{", "autowin");
        put_bool(out, e->flag);
        put_key(out, ",", "deal");
        put_small(out, e->n);
        put_key(out, ",", "lines");
        pl_buf_putc(out, '[');
        for (int p = 0; p < np; p++) {
            pl_buf_puts(out, p ? ",{" : "{");
            if (!e->flag) {
                put_key(out, "", "base");
                put_small(out, E->base[p]);
                pl_buf_putc(out, ',');
            }
            put_key(out, "", "payments");
            put_small(out, E->payments[p]);
            put_key(out, ",", "score");
            put_small(out, E->score[p]);
            put_key(out, ",", "seat");
            put_small(out, p);
            if (!e->flag) {
                put_key(out, ",", "won");
                put_small(out, E->won[p]);
            }
            pl_buf_putc(out, '}');
        }
        pl_buf_putc(out, ']');
        put_key(out, ",", "totals");
        put_ints(out, E->totals, np);
        break;
    case EV_GAME_END: /* totals type winners */
        put_key(out, "{", "totals");
        put_ints(out, E->totals, np);
        put_key(out, ",", "type");
        put_word(out, ev_name(e->type));
        put_key(out, ",", "winners");
        put_mask(out, e->mask, np);
        pl_buf_putc(out, '}');
        return;
    case EV_LEAD: /* cards count extra face seat set type */
        put_cards_count(out, "{", e);
        put_key(out, ",", "extra");
        put_bool(out, e->flag);
        put_key(out, ",", "face");
        put_word(out, "down");
        put_key(out, ",", "seat");
        put_small(out, e->seat);
        put_key(out, ",", "set");
        put_word(out, set_word(e->n));
        break;
    case EV_LAY:    /* cards count face seat type */
    case EV_REVEAL:
    case EV_HIDE:
    case EV_SHOWN: /* cards count seat type */
        put_cards_count(out, "{", e);
        if (e->type != EV_SHOWN) {
            put_key(out, ",", "face");
            put_word(out, face_word(e->type));
        }
        put_key(out, ",", "seat");
        put_small(out, e->seat);
        break;
    case EV_TRICK: /* cards count extra last leader type winner */
        put_cards_count(out, "{", e);
        put_key(out, ",", "extra");
        put_bool(out, e->flag);
        put_key(out, ",", "last");
        put_bool(out, e->flag2);
        put_key(out, ",", "leader");
        put_small(out, e->other);
        put_key(out, ",", "type");
        put_word(out, ev_name(e->type));
        put_key(out, ",", "winner");
        put_small(out, e->seat);
        pl_buf_putc(out, '}');
        return;
    default: /* type */
        put_key(out, "{", "type");
        put_word(out, ev_name(e->type));
        pl_buf_putc(out, '}');
        return;
    }
    put_key(out, ",", "type"); /* the last key of every other event */
    put_word(out, ev_name(e->type));
    pl_buf_putc(out, '}');
}

int tc_events_text(const void *before, int seat, pl_action a, const void *after, int viewer, pl_buf *out)
{
    tc_evs E;
    tc_build(before, seat, a, after, viewer, &E);
    pl_buf_putc(out, '[');
    for (int i = 0; i < E.n; i++) {
        if (i)
            pl_buf_putc(out, ',');
        ev_text(&E, &E.e[i], out);
    }
    pl_buf_putc(out, ']');
    return out->oom ? -1 : 0;
}

/* ---------------------------------------------------------------- in words */

static void seat_word(int p, int viewer, bool capital, pl_buf *out)
{
    if (p == viewer)
        pl_buf_puts(out, capital ? "You" : "you");
    else
        pl_buf_printf(out, "%s %d", capital ? "Seat" : "seat", p + 1); /* counted from 1, as the browser does */
}

/* The cards of a JSON list, space separated ("rC rC"). */
static void words_cards(const json_t *cards, pl_buf *out)
{
    size_t i;
    const json_t *c;
    json_array_foreach(cards, i, c)
    {
        if (i)
            pl_buf_putc(out, ' ');
        pl_buf_puts(out, json_string_value(c) ? json_string_value(c) : "?");
    }
}

/* One event in English, or nothing for events the notation already says
 * (a lead, a lay, a declaration ...): the trick won and the deal's scores,
 * the sentences the terminal has always shown. */
static void words_event(const json_t *e, int viewer, bool first, pl_buf *out)
{
    const char *type = json_string_value(json_object_get(e, "type"));
    if (!type)
        return;
    if (!strcmp(type, "trick")) {
        if (!first)
            pl_buf_putc(out, ' ');
        seat_word((int)json_integer_value(json_object_get(e, "winner")), viewer, true, out);
        pl_buf_printf(out, " won the %strick with ", json_is_true(json_object_get(e, "extra")) ? "extra " : "");
        words_cards(json_object_get(e, "cards"), out);
        pl_buf_putc(out, '.');
    } else if (!strcmp(type, "deal_end")) {
        pl_buf_printf(out, "%sDeal %d scores", first ? "" : " ", (int)json_integer_value(json_object_get(e, "deal")));
        size_t i;
        const json_t *l;
        json_array_foreach(json_object_get(e, "lines"), i, l)
        {
            pl_buf_puts(out, i ? "; " : ": ");
            seat_word((int)json_integer_value(json_object_get(l, "seat")), viewer, false, out);
            const json_t *won = json_object_get(l, "won");
            if (won) {
                int k = (int)json_integer_value(won);
                pl_buf_printf(out, " %d card%s won, base %+d,", k, k == 1 ? "" : "s",
                              (int)json_integer_value(json_object_get(l, "base")));
            }
            pl_buf_printf(out, " payments %+d, deal %+d", (int)json_integer_value(json_object_get(l, "payments")),
                          (int)json_integer_value(json_object_get(l, "score")));
        }
        pl_buf_putc(out, '.');
    }
}

void tc_describe(const void *before, int seat, pl_action a, const void *after, int viewer, pl_buf *out)
{
    json_t *arr = json_array();
    if (!arr || tc_events(before, seat, a, after, viewer, arr) < 0) {
        out->oom = true;
        json_decref(arr);
        return;
    }
    size_t i, start = out->len;
    const json_t *e;
    json_array_foreach(arr, i, e)
        words_event(e, viewer, out->len == start, out);
    json_decref(arr);
}

/* ---------------------------------------------------------------- action fields */

/* The fields of `seat`'s action `a` in `s` as an event (its type the
 * verb's); false when it has none (a chance outcome, whose code is no
 * player's action, has none). */
static bool tc_field_of(const tc_state *s, int seat, pl_action a, tc_ev *e)
{
    tc_cards x = TC_CARDS(a);
    if (seat < 0 || seat >= s->np)
        return false;
    *e = (tc_ev){.shown = true, .cards = x, .n = tc_size(x)};
    switch (TC_TAG(a)) {
    case TC_A_LEAD:
        e->type = EV_LEAD;
        e->flag = s->textra;
        return true;
    case TC_A_LAY: e->type = EV_LAY; return true;
    case TC_A_PASS:
        e->type = EV_PASS;
        e->other = (int8_t)((seat + 1) % s->np);
        return true;
    case TC_A_REVEAL:
    case TC_A_HIDE:
        e->type = TC_TAG(a) == TC_A_REVEAL ? EV_REVEAL : EV_HIDE;
        e->n = s->tn;
        e->cards = s->tlay[seat];
        return true;
    case TC_A_DECL:
    case TC_A_NODECL:
        e->type = TC_TAG(a) == TC_A_DECL ? EV_DECLARE : EV_NODECLARE;
        e->size = (int8_t)s->dround;
        e->flag = s->dctr != 0;
        e->flag2 = e->flag || TC_NIB(s->hand[seat], TC_RS) >= s->dround; /* red, as apply_decl */
        return true;
    default: return false;
    }
}

int tc_action_fields(const void *st, int seat, pl_action a, json_t *obj)
{
    tc_ev e;
    int bad = 0;
    if (!tc_field_of(st, seat, a, &e))
        return 0;
    put(obj, "verb", json_string(ev_name(e.type)), &bad);
    switch (e.type) {
    case EV_DECLARE:
    case EV_NODECLARE:
        put(obj, "size", json_string(size_word(e.size)), &bad);
        if (e.type == EV_DECLARE)
            put(obj, "colour", json_string(e.flag2 ? "red" : "black"), &bad);
        put(obj, "counter", json_boolean(e.flag), &bad);
        break;
    case EV_LEAD:
        put(obj, "extra", json_boolean(e.flag), &bad);
        put(obj, "set", json_string(set_word(e.n)), &bad);
        /* fall through */
    default:
        cards_json(obj, &e, &bad);
        if (e.type == EV_PASS)
            put(obj, "to", json_integer(e.other), &bad);
        else
            put(obj, "face", json_string(face_word(e.type)), &bad);
        break;
    }
    return bad ? -1 : 0;
}

int tc_action_fields_text(const void *st, int seat, pl_action a, pl_buf *out)
{
    tc_ev e;
    if (!tc_field_of(st, seat, a, &e)) {
        pl_buf_puts(out, "{}");
        return out->oom ? -1 : 0;
    }
    switch (e.type) {
    case EV_DECLARE: /* colour counter size verb */
    case EV_NODECLARE: /* counter size verb */
        if (e.type == EV_DECLARE) {
            put_key(out, "{", "colour");
            put_word(out, e.flag2 ? "red" : "black");
            put_key(out, ",", "counter");
        } else {
            put_key(out, "{", "counter");
        }
        put_bool(out, e.flag);
        put_key(out, ",", "size");
        put_word(out, size_word(e.size));
        break;
    case EV_LEAD: /* cards count extra face set verb */
        put_cards_count(out, "{", &e);
        put_key(out, ",", "extra");
        put_bool(out, e.flag);
        put_key(out, ",", "face");
        put_word(out, "down");
        put_key(out, ",", "set");
        put_word(out, set_word(e.n));
        break;
    case EV_PASS: /* cards count to verb */
        put_cards_count(out, "{", &e);
        put_key(out, ",", "to");
        put_small(out, e.other);
        break;
    default: /* lay, reveal, hide: cards count face verb */
        put_cards_count(out, "{", &e);
        put_key(out, ",", "face");
        put_word(out, face_word(e.type));
        break;
    }
    put_key(out, ",", "verb");
    put_word(out, ev_name(e.type));
    pl_buf_putc(out, '}');
    return out->oom ? -1 : 0;
}

/* ------------------------------------------------------------ refusal */

/* The word of each TC_WHY_ reason (docs/web-views.md, "tamcuc", "Refusals"). */
static const char *const why_word[] = {
    [TC_WHY_NOT_NOW] = "not-now",
    [TC_WHY_NOT_IN_HAND] = "not-in-hand",
    [TC_WHY_COUNT] = "count",
    [TC_WHY_EXTRA_FOUR] = "extra-four",
    [TC_WHY_NOT_A_SET] = "not-a-set",
    [TC_WHY_BIG_LEADS_OFF] = "big-leads-off",
    [TC_WHY_BANNED] = "banned",
    [TC_WHY_BLACK_GENERAL_LAST] = "black-general-last",
    [TC_WHY_REVEAL_LATER] = "reveal-later",
    [TC_WHY_DECLARE_NOT_NOW] = "declare-not-now",
    [TC_WHY_DECLARE_ROUND] = "declare-round",
    [TC_WHY_DECLARED] = "declared-already",
    [TC_WHY_COUNTER_RED] = "counter-red",
    [TC_WHY_DECLARE_NEEDS] = "declare-needs",
    [TC_WHY_NODECLARE_NOT_NOW] = "nodeclare-not-now",
    [TC_WHY_MUST_DECLARE] = "must-declare",
};

int tc_refusal(const void *st, int seat, pl_action a, json_t *obj)
{
    const tc_state *s = st;
    int why = tc_illegal_reason(s, seat, a);
    if (why <= TC_WHY_OTHER || why >= (int)(sizeof why_word / sizeof why_word[0]) || !why_word[why])
        return -1;
    unsigned tag = TC_TAG(a);
    tc_cards x = TC_CARDS(a);
    const char *verb = tag == TC_A_LEAD ? "lead" : tag == TC_A_LAY ? "lay" : "pass";
    int bad = 0;
    put(obj, "why", json_string(why_word[why]), &bad);
    switch (why) {
    case TC_WHY_NOT_NOW: put(obj, "verb", json_string(verb), &bad); break;
    case TC_WHY_NOT_IN_HAND: put(obj, "cards", tc_cards_json(tc_sub0(x, s->hand[seat])), &bad); break;
    case TC_WHY_COUNT:
        put(obj, "verb", json_string(verb), &bad);
        put(obj, "count", json_integer(tag == TC_A_PASS ? s->night_k : s->tn), &bad);
        put(obj, "given", json_integer(tc_size(x)), &bad);
        break;
    case TC_WHY_EXTRA_FOUR:
        put(obj, "colour", json_string(tc_extra_four(s) == 4 * TC_ONE(TC_RS) ? "red" : "black"), &bad);
        break;
    case TC_WHY_NOT_A_SET: put(obj, "cards", tc_cards_json(x), &bad); break;
    case TC_WHY_BIG_LEADS_OFF: put(obj, "count", json_integer(tc_size(x)), &bad); break;
    case TC_WHY_BANNED: put(obj, "cards", tc_cards_json(x & s->banned), &bad); break;
    case TC_WHY_DECLARE_ROUND:
    case TC_WHY_COUNTER_RED:
    case TC_WHY_DECLARE_NEEDS: put(obj, "size", json_string(size_word(s->dround)), &bad); break;
    default: break;
    }
    return bad ? -1 : 0;
}
