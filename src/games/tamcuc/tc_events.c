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
 * Work: O(seats + cards) per action; allocates only the jansson values.
 */
#include <stdbool.h>
#include <string.h>

#include "tc.h"

#include <jansson.h>

/* Appends `o` to `arr` (taking it); a failure (NULL or no memory) sets *bad. */
static void push(json_t *arr, json_t *o, int *bad)
{
    if (!o || json_array_append_new(arr, o) < 0)
        *bad = 1;
}

/* The cards of `x` when `show`, else null (face down, not the viewer's). */
static json_t *cards_if(tc_cards x, int show)
{
    return show ? tc_cards_json(x) : json_null();
}

/* One card of kind `k` in notation ("rC"). */
static json_t *card_json(int k)
{
    char t[3] = {(k & 1) ? 'r' : 'b', tc_rank_ch[k >> 1 & 7], '\0'};
    return json_string(t);
}

static json_t *seats16(const int16_t *v, int np)
{
    json_t *a = json_array();
    for (int p = 0; a && p < np; p++)
        if (json_array_append_new(a, json_integer(v[p])) < 0) {
            json_decref(a);
            return NULL;
        }
    return a;
}

static const char *size_word(int z) { return z == 5 ? "five" : "four"; }

/* The set's category of a lead of `n` cards (TC-R2). */
static const char *set_word(int n)
{
    static const char *const w[] = {"none", "single", "pair", "triple", "four", "five"};
    return n >= 1 && n <= 5 ? w[n] : "none";
}

/* The deal's scores after the action: this deal's so far, or the finished
 * deal's when the action ended it (a new deal clears dscore). */
static const int16_t *deal_scores(const tc_state *b, const tc_state *s)
{
    return s->deals_done > b->deals_done ? s->last_score : s->dscore;
}

/* {"type":"deal"}: the dealer, the hand sizes, the viewer's own hand (all
 * hands for viewer -1). */
static void ev_deal(const tc_state *s, int viewer, json_t *arr, int *bad)
{
    int np = s->np;
    int16_t sz[TC_MAXP];
    for (int p = 0; p < np; p++)
        sz[p] = (int16_t)tc_size(s->hand[p]);
    json_t *o = json_pack("{s:s,s:i,s:i,s:o}", "type", "deal", "deal", s->deals_done + 1, "dealer", (int)s->dealer,
                          "sizes", seats16(sz, np));
    if (o && viewer >= 0) {
        *bad |= json_object_set_new(o, "hand", tc_cards_json(s->hand[viewer])) < 0;
    } else if (o) {
        json_t *all = json_array();
        for (int p = 0; all && p < np; p++)
            *bad |= json_array_append_new(all, tc_cards_json(s->hand[p])) < 0;
        *bad |= json_object_set_new(o, "hands", all) < 0;
    }
    push(arr, o, bad);
}

/* Payments of the action, from the change of the deal's scores: one seat
 * paid by every other ("paid": declarations, TC-R5.5; "ket", TC-R8.3) or
 * one seat paying ("overtake", TC-R8.4). `base` is subtracted first (the
 * deal's base when the action ended it, else zeros). */
static void ev_payments(const tc_state *b, const tc_state *s, const int *base, const char *type, json_t *arr,
                        int *bad)
{
    int np = b->np, d[TC_MAXP], any = 0;
    const int16_t *after = deal_scores(b, s);
    for (int p = 0; p < np; p++) {
        d[p] = after[p] - base[p] - b->dscore[p];
        any |= d[p] != 0;
    }
    if (!any)
        return;
    if (!strcmp(type, "overtake")) { /* the leader pays the winner, or each other seat, alike */
        int payer = b->tleader, paid = 0;
        json_t *to = json_array();
        for (int p = 0; to && p < np; p++)
            if (p != payer && d[p] > 0) {
                *bad |= json_array_append_new(to, json_integer(p)) < 0;
                paid++;
            }
        push(arr, json_pack("{s:s,s:i,s:o,s:i}", "type", "overtake", "seat", payer, "to", to, "each",
                            paid ? -d[payer] / paid : 0),
             bad);
        return;
    }
    int to = 0;
    for (int p = 1; p < np; p++)
        if (d[p] > d[to])
            to = p;
    json_t *o = json_pack("{s:s,s:i,s:i}", "type", type, "seat", to, "each", d[to] / (np - 1));
    if (o && !strcmp(type, "paid"))
        *bad |= json_object_set_new(o, "size", json_string(size_word(b->dround))) < 0;
    push(arr, o, bad);
}

/* {"type":"deal_end"}: each seat's line of the finished deal (TC-R8) and
 * the session's totals. `k`: the won piles at the deal's end. */
static void ev_deal_end(const tc_state *b, const tc_state *s, const int *k, bool autowin, json_t *arr, int *bad)
{
    int np = b->np;
    json_t *lines = json_array();
    for (int p = 0; lines && p < np; p++) {
        int base = autowin ? 0 : tc_base_score(b, k, p), total = s->last_score[p];
        json_t *l = json_pack("{s:i,s:i,s:i}", "seat", p, "payments", total - base, "score", total);
        if (l && !autowin) {
            *bad |= json_object_set_new(l, "won", json_integer(k[p])) < 0;
            *bad |= json_object_set_new(l, "base", json_integer(base)) < 0;
        }
        *bad |= !l || json_array_append_new(lines, l) < 0;
    }
    push(arr, json_pack("{s:s,s:i,s:b,s:o,s:o}", "type", "deal_end", "deal", (int)s->deals_done, "autowin", autowin,
                        "lines", lines, "totals", seats16(s->total, np)),
         bad);
    if (s->phase != TC_PH_OVER)
        return;
    int top = s->total[0];
    for (int p = 1; p < np; p++)
        top = s->total[p] > top ? s->total[p] : top;
    json_t *w = json_array();
    for (int p = 0; w && p < np; p++)
        if (s->total[p] == top)
            *bad |= json_array_append_new(w, json_integer(p)) < 0;
    push(arr, json_pack("{s:s,s:o,s:o}", "type", "game_end", "totals", seats16(s->total, np), "winners", w), bad);
}

/* The events of a chance outcome: the counting, the drawn dealer, the deal
 * (a fixed deal= follows the dealer at once). */
static void ev_chance(const tc_state *b, const tc_state *s, int viewer, json_t *arr, int *bad)
{
    if (b->phase == TC_PH_COUNT) {
        json_t *cards = json_array();
        for (int i = 0; cards && i < b->np; i++)
            *bad |= json_array_append_new(cards, card_json(s->count_card[i])) < 0;
        push(arr, json_pack("{s:s,s:i,s:o,s:i,s:i}", "type", "counting", "provisional", (int)s->count_prov, "cards",
                            cards, "dealer", (int)s->dealer, "steps", (int)s->count_steps),
             bad);
    } else if (b->phase == TC_PH_DEALER) {
        push(arr, json_pack("{s:s,s:i}", "type", "dealer", "seat", (int)s->dealer), bad);
    }
    if (b->phase <= TC_PH_DEAL && s->phase > TC_PH_DEAL && s->deals_done == b->deals_done)
        ev_deal(s, viewer, arr, bad);
}

int tc_events(const void *before, int seat, pl_action a, const void *after, int viewer, json_t *arr)
{
    const tc_state *b = before, *s = after;
    int bad = 0, np = b->np, mine = viewer < 0 || viewer == seat;
    int zero[TC_MAXP] = {0};
    tc_cards x = TC_CARDS(a);
    if (seat == PL_CHANCE) {
        ev_chance(b, s, viewer, arr, &bad);
        return bad ? -1 : 0;
    }
    switch (b->phase) {
    case TC_PH_EXCH:
        push(arr, json_pack("{s:s,s:i,s:i,s:i,s:o}", "type", "pass", "seat", seat, "to", (seat + 1) % np, "count",
                            tc_size(x), "cards", cards_if(x, mine)),
             &bad);
        if (s->phase != TC_PH_EXCH) /* the last pass: every pass is received at once (TC-R4.4) */
            push(arr, json_pack("{s:s,s:i,s:o}", "type", "exchange", "count", (int)b->night_k, "received",
                                viewer >= 0 ? tc_cards_json(s->passed[(viewer + np - 1) % np]) : json_null()),
                 &bad);
        break;
    case TC_PH_DECL: {
        int counter = b->dctr != 0;
        if (TC_TAG(a) == TC_A_DECL) {
            /* the colour the rules logged; when the declaration ended the
             * deal and a new one cleared the log, the rule's own choice (the
             * red set when held, TC-R5 [I]) */
            int red = s->ndecl > b->ndecl ? s->decl_log[s->ndecl - 1] >> 5 & 1
                                          : counter || TC_NIB(b->hand[seat], TC_RS) >= b->dround;
            push(arr, json_pack("{s:s,s:i,s:s,s:s,s:b}", "type", "declare", "seat", seat, "size", size_word(b->dround),
                                "colour", red ? "red" : "black", "counter", counter),
                 &bad);
        } else {
            push(arr, json_pack("{s:s,s:i,s:s,s:b}", "type", "nodeclare", "seat", seat, "size", size_word(b->dround),
                                "counter", counter),
                 &bad);
        }
        ev_payments(b, s, zero, "paid", arr, &bad);
        if (s->deals_done > b->deals_done) /* AUTOWIN ended the deal (TC-R5.6): payments only */
            ev_deal_end(b, s, zero, true, arr, &bad);
        break;
    }
    case TC_PH_LEAD:
        push(arr, json_pack("{s:s,s:i,s:i,s:s,s:b,s:s,s:o}", "type", "lead", "seat", seat, "count", tc_size(x), "face",
                            "down", "extra", (int)b->textra, "set", set_word(tc_size(x)), "cards", cards_if(x, mine)),
             &bad);
        break;
    case TC_PH_LAY:
        push(arr, json_pack("{s:s,s:i,s:i,s:s,s:o}", "type", "lay", "seat", seat, "count", tc_size(x), "face", "down",
                            "cards", cards_if(x, mine)),
             &bad);
        if (s->phase == TC_PH_REVEAL) /* every follower has laid: the lead is turned face up (TC-R6.3) */
            push(arr, json_pack("{s:s,s:i,s:i,s:o}", "type", "shown", "seat", (int)b->tleader, "count", (int)b->tn,
                                "cards", tc_cards_json(b->tlead)),
                 &bad);
        break;
    case TC_PH_REVEAL: {
        tc_cards g = b->tlay[seat];
        if (TC_TAG(a) == TC_A_REVEAL)
            push(arr, json_pack("{s:s,s:i,s:i,s:s,s:o}", "type", "reveal", "seat", seat, "count", (int)b->tn, "face",
                                "up", "cards", tc_cards_json(g)),
                 &bad);
        else
            push(arr, json_pack("{s:s,s:i,s:i,s:s,s:o}", "type", "hide", "seat", seat, "count", (int)b->tn, "face",
                                "down", "cards", cards_if(g, mine)),
                 &bad);
        if (s->phase == TC_PH_REVEAL)
            break;
        /* the trick is over (TC-R6.4): the winner's set is face up, the lead
         * shown or a revealed group */
        int w = s->pv_winner, L = b->tleader, last = b->hand[L] == 0; /* TC-R6.7 */
        push(arr, json_pack("{s:s,s:i,s:i,s:i,s:b,s:b,s:o}", "type", "trick", "winner", w, "leader", L, "count",
                            (int)b->tn, "extra", (int)b->textra, "last", last,
                            "cards", tc_cards_json(w == L ? s->pv_lead : s->pv_lay[w])),
             &bad);
        if (!last)
            break;
        int k[TC_MAXP], base[TC_MAXP];
        for (int p = 0; p < np; p++)
            k[p] = tc_size(b->won[p]) + (p == w ? b->tn : 0);
        for (int p = 0; p < np; p++)
            base[p] = tc_base_score(b, k, p);
        ev_payments(b, s, base, w == L ? "ket" : "overtake", arr, &bad);
        ev_deal_end(b, s, k, false, arr, &bad);
        break;
    }
    default: break;
    }
    return bad ? -1 : 0;
}

/* ---------------------------------------------------------------- in words */

static void seat_word(int p, int viewer, bool capital, pl_buf *out)
{
    if (p == viewer)
        pl_buf_puts(out, capital ? "You" : "you");
    else
        pl_buf_printf(out, "%s %d", capital ? "Seat" : "seat", p);
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

int tc_action_fields(const void *st, int seat, pl_action a, json_t *obj)
{
    const tc_state *s = st;
    tc_cards x = TC_CARDS(a);
    int n = tc_size(x), bad = 0;
    json_t *f = NULL;
    switch (TC_TAG(a)) {
    case TC_A_LEAD:
        f = json_pack("{s:s,s:i,s:s,s:b,s:s,s:o}", "verb", "lead", "count", n, "face", "down", "extra", (int)s->textra,
                      "set", set_word(n), "cards", tc_cards_json(x));
        break;
    case TC_A_LAY:
        f = json_pack("{s:s,s:i,s:s,s:o}", "verb", "lay", "count", n, "face", "down", "cards", tc_cards_json(x));
        break;
    case TC_A_PASS:
        f = json_pack("{s:s,s:i,s:i,s:o}", "verb", "pass", "count", n, "to", (seat + 1) % s->np, "cards",
                      tc_cards_json(x));
        break;
    case TC_A_REVEAL:
    case TC_A_HIDE: {
        int up = TC_TAG(a) == TC_A_REVEAL;
        f = json_pack("{s:s,s:i,s:s,s:o}", "verb", up ? "reveal" : "hide", "count", (int)s->tn, "face",
                      up ? "up" : "down", "cards", tc_cards_json(s->tlay[seat]));
        break;
    }
    case TC_A_DECL: {
        int counter = s->dctr != 0, red = counter || TC_NIB(s->hand[seat], TC_RS) >= s->dround; /* as apply_decl */
        f = json_pack("{s:s,s:s,s:s,s:b}", "verb", "declare", "size", size_word(s->dround), "colour",
                      red ? "red" : "black", "counter", counter);
        break;
    }
    case TC_A_NODECL:
        f = json_pack("{s:s,s:s,s:b}", "verb", "nodeclare", "size", size_word(s->dround), "counter", s->dctr != 0);
        break;
    default: return 0;
    }
    bad = !f || json_object_update(obj, f) < 0;
    json_decref(f);
    return bad ? -1 : 0;
}

