/* test_property_tamcuc_events.c — Tam Cúc's events (docs/web-views.md,
 * "tamcuc", "Events" and "Action fields") over thousands of random games of
 * random options (every house rule, 2-4 players), every action, every
 * viewer (-1 and each seat):
 *  - the events parse as a JSON array of objects of the documented types,
 *    each with its documented fields of the documented kinds;
 *  - a face-down group (lead, lay, hide, night pass) carries its cards for
 *    its owner and viewer -1 only, null for everyone else; a deal carries
 *    the viewer's own hand (all hands for -1);
 *  - describe is the words of the events (worded here again, independently
 *    of tc_events.c's wording);
 *  - every deal that ends tells a deal_end whose scores are the deal's, and
 *    the game's last action tells game_end with the session's totals;
 *  - every legal action's fields parse, name the action's verb, and carry
 *    its cards (lead, lay, pass).
 */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "helpers.h"
#include "games/tamcuc/tc.h"
#include "parlour/alloc.h"

#define GAMES 3000

/* A field's JSON kind as the schema names it. */
enum { K_INT, K_BOOL, K_STR, K_CARDS, K_CARDS_OR_NULL, K_INTS, K_OBJS };

typedef struct field {
    const char *key;
    int kind;
} field;

typedef struct schema {
    const char *type;
    field f[8];
} schema;

/* The documented event types and their fields (docs/web-views.md); optional
 * fields ("hand"/"hands" of deal, "size" of paid, "won"/"base" of a line)
 * are checked where they are used. */
static const schema schemas[] = {
    {"counting", {{"provisional", K_INT}, {"cards", K_CARDS}, {"dealer", K_INT}, {"steps", K_INT}}},
    {"dealer", {{"seat", K_INT}}},
    {"deal", {{"deal", K_INT}, {"dealer", K_INT}, {"sizes", K_INTS}}},
    {"pass", {{"seat", K_INT}, {"to", K_INT}, {"count", K_INT}, {"cards", K_CARDS_OR_NULL}}},
    {"exchange", {{"count", K_INT}, {"received", K_CARDS_OR_NULL}}},
    {"declare", {{"seat", K_INT}, {"size", K_STR}, {"colour", K_STR}, {"counter", K_BOOL}}},
    {"nodeclare", {{"seat", K_INT}, {"size", K_STR}, {"counter", K_BOOL}}},
    {"paid", {{"seat", K_INT}, {"each", K_INT}, {"size", K_STR}}},
    {"lead", {{"seat", K_INT}, {"count", K_INT}, {"face", K_STR}, {"extra", K_BOOL}, {"set", K_STR},
              {"cards", K_CARDS_OR_NULL}}},
    {"lay", {{"seat", K_INT}, {"count", K_INT}, {"face", K_STR}, {"cards", K_CARDS_OR_NULL}}},
    {"shown", {{"seat", K_INT}, {"count", K_INT}, {"cards", K_CARDS}}},
    {"reveal", {{"seat", K_INT}, {"count", K_INT}, {"face", K_STR}, {"cards", K_CARDS}}},
    {"hide", {{"seat", K_INT}, {"count", K_INT}, {"face", K_STR}, {"cards", K_CARDS_OR_NULL}}},
    {"trick", {{"winner", K_INT}, {"leader", K_INT}, {"count", K_INT}, {"extra", K_BOOL}, {"last", K_BOOL},
               {"cards", K_CARDS}}},
    {"ket", {{"seat", K_INT}, {"each", K_INT}}},
    {"overtake", {{"seat", K_INT}, {"to", K_INTS}, {"each", K_INT}}},
    {"deal_end", {{"deal", K_INT}, {"autowin", K_BOOL}, {"lines", K_OBJS}, {"totals", K_INTS}}},
    {"game_end", {{"totals", K_INTS}, {"winners", K_INTS}}},
};

static int is_card(const json_t *c)
{
    int k;
    return json_is_string(c) && tc_parse_card(json_string_value(c), &k) == 0;
}

static int kind_ok(const json_t *v, int kind)
{
    size_t i;
    const json_t *x;
    switch (kind) {
    case K_INT: return json_is_integer(v);
    case K_BOOL: return json_is_boolean(v);
    case K_STR: return json_is_string(v);
    case K_CARDS_OR_NULL:
        if (json_is_null(v))
            return 1;
        /* fall through */
    case K_CARDS:
        if (!json_is_array(v))
            return 0;
        json_array_foreach(v, i, x) if (!is_card(x)) return 0;
        return 1;
    case K_INTS:
        if (!json_is_array(v))
            return 0;
        json_array_foreach(v, i, x) if (!json_is_integer(x)) return 0;
        return 1;
    case K_OBJS:
        if (!json_is_array(v))
            return 0;
        json_array_foreach(v, i, x) if (!json_is_object(x)) return 0;
        return 1;
    default: return 0;
    }
}

/* Fails unless `e` is an event of a documented type with its fields. */
static const schema *check_schema(const json_t *e, const char *ctx)
{
    if (!json_is_object(e))
        fail_msg("%s: an event that is not an object", ctx);
    const char *type = json_string_value(json_object_get(e, "type"));
    for (size_t i = 0; type && i < sizeof schemas / sizeof *schemas; i++) {
        if (strcmp(schemas[i].type, type))
            continue;
        size_t nf = 1;
        for (int j = 0; j < 8 && schemas[i].f[j].key; j++, nf++)
            if (!kind_ok(json_object_get(e, schemas[i].f[j].key), schemas[i].f[j].kind))
                fail_msg("%s: %s's field %s", ctx, type, schemas[i].f[j].key);
        nf += !strcmp(type, "deal"); /* hand or hands */
        if (json_object_size(e) != nf)
            fail_msg("%s: %s has %zu fields, the schema %zu", ctx, type, json_object_size(e), nf);
        return &schemas[i];
    }
    fail_msg("%s: an event of no documented type: %s", ctx, type ? type : "(none)");
    return NULL;
}

/* The words describe must say for the events: the trick and the deal's
 * scores, as docs/notation-tamcuc.md gives them. */
static void words(const json_t *arr, int viewer, pl_buf *out)
{
    size_t i;
    const json_t *e;
    json_array_foreach(arr, i, e)
    {
        const char *type = json_string_value(json_object_get(e, "type"));
        char who[16];
        if (!strcmp(type, "trick")) {
            int w = (int)json_integer_value(json_object_get(e, "winner"));
            snprintf(who, sizeof who, w == viewer ? "You" : "Seat %d", w + 1); /* counted from 1 */
            pl_buf_printf(out, "%s%s won the %strick with", out->len ? " " : "", who,
                          json_is_true(json_object_get(e, "extra")) ? "extra " : "");
            size_t j;
            const json_t *c;
            json_array_foreach(json_object_get(e, "cards"), j, c) pl_buf_printf(out, " %s", json_string_value(c));
            pl_buf_putc(out, '.');
        } else if (!strcmp(type, "deal_end")) {
            pl_buf_printf(out, "%sDeal %d scores", out->len ? " " : "",
                          (int)json_integer_value(json_object_get(e, "deal")));
            size_t j;
            const json_t *l;
            json_array_foreach(json_object_get(e, "lines"), j, l)
            {
                int p = (int)json_integer_value(json_object_get(l, "seat"));
                snprintf(who, sizeof who, p == viewer ? "you" : "seat %d", p + 1);
                pl_buf_printf(out, "%s%s", j ? "; " : ": ", who);
                if (json_object_get(l, "won")) {
                    int k = (int)json_integer_value(json_object_get(l, "won"));
                    pl_buf_printf(out, " %d card%s won, base %+d,", k, k == 1 ? "" : "s",
                                  (int)json_integer_value(json_object_get(l, "base")));
                }
                pl_buf_printf(out, " payments %+d, deal %+d", (int)json_integer_value(json_object_get(l, "payments")),
                              (int)json_integer_value(json_object_get(l, "score")));
            }
            pl_buf_putc(out, '.');
        }
    }
}

/* The face-down groups carry cards for their owner and viewer -1 only. */
static void check_secrecy(const json_t *e, int seat, int viewer, const char *ctx)
{
    const char *type = json_string_value(json_object_get(e, "type"));
    int own = viewer < 0 || viewer == seat;
    if (!strcmp(type, "lead") || !strcmp(type, "lay") || !strcmp(type, "pass") || !strcmp(type, "hide")) {
        if (own != !json_is_null(json_object_get(e, "cards")))
            fail_msg("%s: %s of seat %d told to viewer %d %s its cards", ctx, type, seat, viewer,
                     own ? "without" : "with");
    } else if (!strcmp(type, "deal")) {
        if (!json_object_get(e, viewer < 0 ? "hands" : "hand"))
            fail_msg("%s: a deal without the viewer's hand", ctx);
    } else if (!strcmp(type, "exchange")) {
        if ((viewer >= 0) != !json_is_null(json_object_get(e, "received")))
            fail_msg("%s: the exchange tells viewer %d the wrong received cards", ctx, viewer);
    }
}

static void test_events_documented_secret_and_worded(void **st)
{
    (void)st;
    pl_rng r;
    pl_rng_seed(&r, 20261203);
    pl_action *acts = pl_malloc(sizeof *acts * PL_MAX_ACTIONS);
    void *before = pl_malloc(sizeof(tc_state));
    assert_non_null(acts);
    assert_non_null(before);
    long events = 0, actions = 0, deal_ends = 0, game_ends = 0, fields = 0, tricks = 0;
    pl_buf b = {0}, e = {0}, d = {0}, w = {0};
    for (int g = 0; g < GAMES; g++) {
        char opts[512];
        th_tamcuc_options(&r, opts, sizeof opts, (uint64_t)g + 1);
        pl_match *m = th_new("tamcuc", opts);
        const tc_state *s = m->state;
        while (m->game->phase(m->state) != PL_PHASE_OVER) {
            int seat = PL_CHANCE;
            pl_action a;
            if (m->game->phase(m->state) == PL_PHASE_CHANCE) {
                a = pl_draw_chance(m->game, m->state, &r);
            } else {
                int seats[PL_MAX_SEATS];
                int na = m->game->actors(m->state, seats);
                seat = seats[pl_rng_below(&r, (uint32_t)na)];
                int n = pl_legal_all(m->game, m->state, seat, acts);
                for (int i = 0; i < n && i < 64; i++) { /* the legal actions' fields */
                    pl_buf_clear(&b);
                    pl_buf_clear(&d);
                    assert_int_equal(pl_action_fields_json(m->game, m->state, seat, acts[i], &b, &e), 0);
                    m->game->format_action(m->state, seat, acts[i], &d);
                    json_t *f = json_loads(pl_buf_str(&b), 0, NULL);
                    const char *verb = json_string_value(json_object_get(f, "verb"));
                    if (!verb || strncmp(pl_buf_str(&d), verb, strlen(verb)))
                        fail_msg("%s: fields %s for %s", opts, pl_buf_str(&b), pl_buf_str(&d));
                    const json_t *cards = json_object_get(f, "cards");
                    if (strchr("lp", verb[0]) && (!kind_ok(cards, K_CARDS) ||
                                                  json_array_size(cards) != (size_t)tc_size(TC_CARDS(acts[i]))))
                        fail_msg("%s: fields %s for %s: not its cards", opts, pl_buf_str(&b), pl_buf_str(&d));
                    json_decref(f);
                    fields++;
                }
                a = acts[pl_rng_below(&r, (uint32_t)n)];
            }
            pl_state_copy(m->game, before, m->state);
            int deals = s->deals_done;
            if (pl_match_play(m, seat, a, &e) < 0)
                fail_msg("play: %s", pl_buf_str(&e));
            actions++;
            for (int v = -1; v < s->np; v++) {
                pl_buf_clear(&b);
                pl_buf_clear(&w);
                pl_buf_clear(&d);
                assert_int_equal(pl_events_json(m->game, before, seat, a, m->state, v, &b, &e), 0);
                json_error_t jerr;
                json_t *arr = json_loads(pl_buf_str(&b), 0, &jerr);
                if (!json_is_array(arr))
                    fail_msg("%s: events are not a JSON array: %s (%s)", opts, pl_buf_str(&b), jerr.text);
                int told_end = 0, told_over = 0;
                size_t i;
                json_t *ev;
                json_array_foreach(arr, i, ev)
                {
                    char ctx[700];
                    snprintf(ctx, sizeof ctx, "%s, viewer %d, %s", opts, v, pl_buf_str(&b));
                    check_schema(ev, ctx);
                    check_secrecy(ev, seat, v, ctx);
                    const char *type = json_string_value(json_object_get(ev, "type"));
                    if (!strcmp(type, "deal_end")) {
                        told_end = 1;
                        const json_t *l;
                        size_t j;
                        json_array_foreach(json_object_get(ev, "lines"), j, l) assert_int_equal(
                            json_integer_value(json_object_get(l, "score")), s->last_score[j]);
                    }
                    told_over |= !strcmp(type, "game_end");
                    tricks += !strcmp(type, "trick");
                    events++;
                }
                assert_int_equal(told_end, s->deals_done > deals);
                assert_int_equal(told_over, m->game->phase(m->state) == PL_PHASE_OVER);
                deal_ends += told_end;
                game_ends += told_over;
                m->game->describe(before, seat, a, m->state, v, &w);
                words(arr, v, &d);
                if (strcmp(pl_buf_str(&w), pl_buf_str(&d)))
                    fail_msg("%s: describe says \"%s\", the events \"%s\"", opts, pl_buf_str(&w), pl_buf_str(&d));
                json_decref(arr);
            }
        }
        pl_match_free(m);
    }
    print_message("%d games, %ld actions, %ld events (%ld tricks, %ld deal ends, %ld game ends), %ld action "
                  "fields\n", GAMES, actions, events, tricks, deal_ends, game_ends, fields);
    assert_true(game_ends >= GAMES * 2L);
    pl_buf_free(&b);
    pl_buf_free(&e);
    pl_buf_free(&d);
    pl_buf_free(&w);
    pl_free(before);
    pl_free(acts);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_events_documented_secret_and_worded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
