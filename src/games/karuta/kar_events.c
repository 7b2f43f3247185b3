/* kar_events.c — what a karuta action did, as data (pl_game.events) and
 * what a legal action is, as fields (pl_game.action_fields): the schema of
 * docs/web-views.md, "Karuta: events" and "Karuta: action fields". The
 * judgement's fields (kar_judgement_json) are written here once, for the
 * `judgement` event and the view's `judgement` object alike, so the two
 * never disagree. Karuta hides nothing (kar_view_json): every viewer gets
 * the same events; the answers of a reading are told only once every
 * answer is in, as the view tells them. Nothing here is on the hot path.
 */
#include <jansson.h>
#include <string.h>

#include "kar.h"

/* Where location `loc` is, in words of the schema. */
static const char *zone_name(const kar_state *s, int loc)
{
    if (loc < PL_MAX_SEATS)
        return s->variant == KAR_UTA ? "hand" : "territory";
    return loc == KAR_LOC_DEAD ? "dead" : loc == KAR_LOC_FIELD ? "field" : loc == KAR_LOC_POOL ? "pool" : "out";
}

/* The seat whose territory or hand `loc` is, or null. */
static json_t *zone_seat(int loc) { return loc < PL_MAX_SEATS ? json_integer(loc) : json_null(); }

/* A kyōgi slot's label ("A05") of territory `t`, or null off the grid. */
static json_t *label_json(int t, int row, int slot)
{
    if (!row || t < 0 || t >= 2)
        return json_null();
    char label[8];
    kar_slot_label(t, row, slot, label);
    return json_string(label);
}

/* The touches of a touch action as [{"card", "ms"}] ([] for none). */
static json_t *touches_json(pl_action a)
{
    json_t *arr = json_array();
    kar_touch t[KAR_MAXTOUCH];
    int n = KAR_KIND(a) == KAR_A_TOUCH ? kar_touch_list(a, t) : 0;
    for (int i = 0; arr && i < n; i++)
        if (json_array_append_new(arr, json_pack("{s:i,s:i}", "card", (int)t[i].card, "ms", (int)t[i].ms)) < 0) {
            json_decref(arr);
            return NULL;
        }
    return arr;
}

/* The key's first `n` kana as a string ("" for n = 0). */
static json_t *kana_json(int card, int n)
{
    pl_buf b = {0};
    if (n > 0)
        kar_key_text(card, n, &b);
    json_t *j = b.oom ? NULL : json_string(pl_buf_str(&b));
    pl_buf_free(&b);
    return j;
}

int kar_judgement_json(const kar_state *s, const kar_judgement *j, json_t *obj)
{
    json_t *fouls = json_array(), *sent = json_array(), *answers = json_array();
    int bad = !fouls || !sent || !answers;
    for (int p = 0; !bad && p < s->nseats; p++) {
        bad |= json_array_append_new(fouls, json_integer(j->fouls[p])) < 0;
        json_t *ans = json_null();
        if (j->answered & (1u << p)) {
            int poet = KAR_POET_OF(j->resp[p]);
            ans = json_pack("{s:o*,s:o}", "touches", touches_json(j->resp[p]), "poet",
                            poet ? json_integer(poet) : json_null());
        }
        bad |= !ans || json_array_append_new(answers, ans) < 0;
    }
    for (int i = 0; !bad && i < j->sent; i++)
        bad |= json_array_append_new(sent, json_integer(j->sent_cards[i])) < 0;
    if (bad) {
        json_decref(fouls);
        json_decref(sent);
        json_decref(answers);
        return -1;
    }
    bad |= json_object_set_new(obj, "card", json_integer(j->card));
    bad |= json_object_set_new(obj, "zone", json_string(zone_name(s, j->where)));
    bad |= json_object_set_new(obj, "owner", zone_seat(j->where));
    bad |= json_object_set_new(obj, "kimariji", json_integer(j->kim));
    bad |= json_object_set_new(obj, "kimariji_kana", kana_json(j->card, j->kim));
    bad |= json_object_set_new(obj, "decide_ms", json_integer(j->decide_ms));
    bad |= json_object_set_new(obj, "territory", json_integer(j->terr));
    bad |= json_object_set_new(obj, "territory_kana", kana_json(j->card, j->terr));
    bad |= json_object_set_new(obj, "territory_ms", json_integer(j->terr_ms));
    bad |= json_object_set_new(obj, "void", json_boolean(j->void_reading));
    bad |= json_object_set_new(obj, "responses", answers);
    bad |= json_object_set_new(obj, "taker", j->taker >= 0 ? json_integer(j->taker) : json_null());
    bad |= json_object_set_new(obj, "take_ms", json_integer(j->take_ms));
    bad |= json_object_set_new(obj, "fouls", fouls);
    bad |= json_object_set_new(obj, "sender", j->sender >= 0 ? json_integer(j->sender) : json_null());
    bad |= json_object_set_new(obj, "receiver", j->receiver >= 0 ? json_integer(j->receiver) : json_null());
    bad |= json_object_set_new(obj, "owed", json_integer(j->owed));
    bad |= json_object_set_new(obj, "sent_cards", sent);
    bad |= json_object_set_new(obj, "moved", json_integer(j->moved));
    bad |= json_object_set_new(obj, "pot", json_integer(s->pot));
    return bad ? -1 : 0;
}

/* Appends `ev` (stolen) to `arr`; -1 when it is NULL or memory runs out. */
static int add(json_t *arr, json_t *ev) { return ev ? json_array_append_new(arr, ev) : -1; }

/* The event of card `c`, which moved or changed slot from `b` to `s`. */
static json_t *move_event(const kar_state *b, const kar_state *s, int c)
{
    int from = b->loc[c], to = s->loc[c];
    if (s->variant == KAR_KYOGI && from < 2 && to < 2) {
        if (from != to) /* KA-R9: sent (placed now, or awaiting `place`) */
            return json_pack("{s:s,s:i,s:i,s:i,s:o,s:i,s:i}", "type", "send", "card", c, "seat", from, "to", to,
                             "label", label_json(to, s->row[c], s->slot[c]), "row", (int)s->row[c], "slot",
                             (int)s->slot[c]);
        if (!b->row[c]) /* KA-R10: a received card placed */
            return json_pack("{s:s,s:i,s:i,s:o,s:i,s:i}", "type", "place", "card", c, "seat", to, "label",
                             label_json(to, s->row[c], s->slot[c]), "row", (int)s->row[c], "slot", (int)s->slot[c]);
        return json_pack("{s:s,s:i,s:i,s:o,s:o,s:i,s:i}", "type", "arrange", "card", c, "seat", to, "from_label",
                         label_json(from, b->row[c], b->slot[c]), "label", label_json(to, s->row[c], s->slot[c]), "row",
                         (int)s->row[c], "slot", (int)s->slot[c]);
    }
    if (s->variant == KAR_UTA && from < PL_MAX_SEATS) {
        if (to < PL_MAX_SEATS) /* KA-U6 gift, KA-U7 pearl, KA-U6 wrong answer's card */
            return json_pack("{s:s,s:i,s:i,s:i}", "type", "give", "card", c, "seat", from, "to", to);
        if (to == KAR_LOC_POOL) /* KA-U2 */
            return json_pack("{s:s,s:i,s:i}", "type", "pool", "card", c, "seat", from);
        if (to == KAR_LOC_OUT) /* KA-U8: out of play */
            return json_pack("{s:s,s:i,s:i}", "type", "discard", "card", c, "seat", from);
    }
    return json_pack("{s:s,s:i,s:s,s:o,s:s,s:o}", "type", "move", "card", c, "from", zone_name(b, from), "from_seat",
                     zone_seat(from), "to", zone_name(s, to), "to_seat", zone_seat(to));
}

int kar_events(const void *before, int seat, pl_action a, const void *after, int viewer, json_t *arr)
{
    (void)viewer; /* nothing in karuta is private (kar_view_json) */
    const kar_state *b = before, *s = after;
    int bad = 0, judged = 0;
    pl_action kind = KAR_KIND(a);
    if (seat == PL_CHANCE && kind == KAR_A_READ) {
        bad |= add(arr, json_pack("{s:s,s:i,s:i,s:b}", "type", "read", "card", (int)(a & 0x7f), "n", (int)s->nread,
                                  "void", (int)s->last.void_reading));
    } else if (b->stage == KAR_ST_TOUCH && seat >= 0) {
        int poet = KAR_POET_OF(a);
        bad |= add(arr, json_pack("{s:s,s:i,s:o,s:o}", "type", "answer", "seat", seat, "touches", touches_json(a),
                                  "poet", poet ? json_integer(poet) : json_null()));
        if (s->stage != KAR_ST_TOUCH) { /* the last answer: the reading is judged */
            json_t *ev = json_pack("{s:s,s:i}", "type", "judgement", "n", (int)s->nread);
            bad |= !ev || kar_judgement_json(s, &s->last, ev) < 0;
            bad |= add(arr, ev);
            judged = 1;
        }
    } else if (b->stage == KAR_ST_SEND && a == KAR_A_PASS) {
        bad |= add(arr, json_pack("{s:s,s:i,s:i}", "type", "pass", "seat", seat, "forgone",
                                  (int)b->last.owed - (int)b->last.sent));
    } else if (b->stage == KAR_ST_ARRANGE && a == KAR_A_READY) {
        bad |= add(arr, json_pack("{s:s,s:i}", "type", "ready", "seat", seat));
    }
    /* every card that moved (the read card's own fate is the judgement's) */
    for (int c = 1; c <= KAR_NPOEMS && !bad; c++) {
        if (judged && c == s->last.card)
            continue;
        if (b->loc[c] != s->loc[c] || b->row[c] != s->row[c] || b->slot[c] != s->slot[c])
            bad |= add(arr, move_event(b, s, c));
    }
    if (!bad && b->stage != KAR_ST_OVER && s->stage == KAR_ST_OVER) {
        json_t *counts = json_array();
        for (int p = 0; counts && p < s->nseats; p++)
            if (json_array_append_new(counts, json_integer(s->count[p])) < 0) {
                json_decref(counts);
                counts = NULL;
            }
        bad |= add(arr, json_pack("{s:s,s:o,s:o,s:o}", "type", "end", "winner",
                                  s->winner >= 0 ? json_integer(s->winner) : json_null(), "team",
                                  s->winner >= 0 && s->teams ? json_integer(s->winner % 2) : json_null(), "counts",
                                  counts));
    }
    return bad ? -1 : 0;
}

int kar_action_fields(const void *st, int seat, pl_action a, json_t *obj)
{
    pl_action kind = KAR_KIND(a);
    int card = (int)(a & 0x7f), row = (int)((a >> 8) & 0xff), slot = (int)((a >> 16) & 0xff);
    const char *name = kind == KAR_A_TOUCH  ? "touch"
                       : kind == KAR_A_NONE ? "none"
                       : kind == KAR_A_READ ? "read"
                       : kind == KAR_A_SEND ? "send"
                       : kind == KAR_A_PLACE ? "place"
                       : kind == KAR_A_PASS ? "pass"
                       : kind == KAR_A_POOL ? "pool"
                       : kind == KAR_A_ARRANGE ? "arrange"
                                               : "ready";
    int bad = json_object_set_new(obj, "kind", json_string(name));
    if (kind == KAR_A_TOUCH) {
        int poet = KAR_POET_OF(a);
        bad |= json_object_set_new(obj, "touches", touches_json(a));
        bad |= json_object_set_new(obj, "poet", poet ? json_integer(poet) : json_null());
    } else if (kind == KAR_A_READ || kind == KAR_A_SEND || kind == KAR_A_POOL) {
        bad |= json_object_set_new(obj, "card", json_integer(card));
    } else if (kind == KAR_A_PLACE || kind == KAR_A_ARRANGE) {
        const kar_state *s = st;
        bad |= json_object_set_new(obj, "card", json_integer(card));
        bad |= json_object_set_new(obj, "row", json_integer(row));
        bad |= json_object_set_new(obj, "slot", json_integer(slot));
        bad |= json_object_set_new(obj, "label", label_json(seat, row, slot));
        if (kind == KAR_A_ARRANGE)
            bad |= json_object_set_new(obj, "from_label", label_json(seat, s->row[card], s->slot[card]));
    }
    return bad ? -1 : 0;
}
