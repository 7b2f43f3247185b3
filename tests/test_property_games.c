/* test_property_games.c — every registered game, through the interface
 * only: random games under each of the game's option sets
 * (pl_game.variants), with the invariants that game.h states checked as
 * they go. Nothing here names a game: a game added to the registry is
 * tested by this file as it stands.
 *
 * After every action (cheap): the phase is one of three; seats, teams and
 * actors are in range and the actors distinct; in phase MOVE each actor has
 * a legal action (unless the game judges actions itself, pl_game.check) and
 * a seat that does not act has none; chance outcomes are listed within
 * PL_MAX_CHANCE with probabilities summing to 1, or said to be too many; a
 * finished game's outcome covers every seat with utilities in [0, 1]; every
 * game ends.
 *
 * At sampled states (every state of the first games of each option set,
 * then one in DEEP_EVERY), what costs more: `legal` counts like snprintf;
 * every listed action (up to MAX_JUDGED) passes pl_check, reads back from
 * its own text and applies to copies identically; the per-viewer texts are
 * written; the position text reads back into a state of the same options
 * to the same text; a chance draw passes pl_check; every seat's view and
 * picture is the same in the state and in one determinized from that
 * seat's view (a view that showed what the seat may not know would tell
 * the two apart), and a game without hidden information determinizes to a
 * copy; `evaluate` is in [0, 1]; `policy` plays a legal action, leaves the
 * state alone and is deterministic for its generator; the game's own
 * invariants hold (pl_game.check_state).
 *
 * The first games of each option set are also played through a pl_match
 * and their records written and read back to the same state.
 *
 * Games with a structured view (pl_game.view_json): after every action of
 * the first JSON_GAMES games of each set, and at the sampled states, one
 * viewer's JSON (the seats and the spectator in turn) parses, holds the
 * common fields with the right values, and is the same text when written
 * twice (every action of every game cost 4 minutes more: karuta's 560,000
 * actions); at the sampled states of a game with hidden information every
 * seat's and the spectator's JSON is the same in the state and in one
 * determinized for that seat. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ai/ai.h"
#include "helpers.h"
#include "parlour/alloc.h"
#include "parlour/record.h"

#define GAMES_PER_SET 400 /* random games per option set, per game */
#define DEEP_GAMES 8      /* games per set with every state checked deeply */
#define DEEP_EVERY 61     /* then one state in DEEP_EVERY */
#define RECORD_GAMES 3    /* games per set played through a match and a record */
#define JSON_GAMES 2      /* games per set with a JSON view checked after every action */
#define MAX_JUDGED 48     /* legal actions per state checked one by one */
#define MAX_STEPS 200000  /* actions in one game before it counts as endless */

typedef struct ctx {
    const pl_game *g;
    const char *set; /* the option set, for messages */
    uint64_t seed;
    long step;
    const void *initial;
    pl_action *acts, *acts2;
    unsigned char *a, *b;
    pl_buf t1, t2, e;
} ctx;

#define FAIL(c, ...)                                                                               \
    do {                                                                                           \
        print_error("%s [%s] seed %llu step %ld: ", (c)->g->id, (c)->set,                         \
                    (unsigned long long)(c)->seed, (c)->step);                                     \
        fail_msg(__VA_ARGS__);                                                                     \
    } while (0)

static void check_shape(ctx *c, const void *st)
{
    const pl_game *g = c->g;
    pl_phase ph = g->phase(st);
    if (ph != PL_PHASE_CHANCE && ph != PL_PHASE_MOVE && ph != PL_PHASE_OVER)
        FAIL(c, "phase %d", (int)ph);
    int ns = g->num_seats(st);
    if (ns < 1 || ns > PL_MAX_SEATS)
        FAIL(c, "%d seats", ns);
    for (int s = 0; s < ns; s++) {
        int t = g->team_of(st, s);
        if (t < 0 || t >= PL_MAX_SEATS)
            FAIL(c, "team %d of seat %d", t, s);
    }
    if (ph == PL_PHASE_MOVE) {
        int seats[PL_MAX_SEATS];
        int na = g->actors(st, seats);
        if (na < 1 || na > ns)
            FAIL(c, "%d actors of %d seats", na, ns);
        for (int i = 0; i < na; i++) {
            if (seats[i] < 0 || seats[i] >= ns)
                FAIL(c, "actor %d", seats[i]);
            for (int k = 0; k < i; k++)
                if (seats[k] == seats[i])
                    FAIL(c, "seat %d acts twice", seats[i]);
        }
    } else if (ph == PL_PHASE_CHANCE) {
        double p[PL_MAX_CHANCE];
        int n = g->chance(st, c->acts, p, PL_MAX_CHANCE);
        if (n != -1 && (n < 1 || n > PL_MAX_CHANCE))
            FAIL(c, "%d chance outcomes", n);
        double sum = 0;
        for (int i = 0; i < n; i++) {
            if (!(p[i] >= 0 && p[i] <= 1))
                FAIL(c, "probability %g", p[i]);
            sum += p[i];
        }
        if (n > 0 && (sum < 1 - 1e-9 || sum > 1 + 1e-9))
            FAIL(c, "chance probabilities sum to %.12g", sum);
    } else {
        pl_outcome o;
        memset(&o, 0, sizeof o);
        g->outcome(st, &o);
        if (o.nseats != ns)
            FAIL(c, "outcome of %d seats in a game of %d", o.nseats, ns);
        for (int s = 0; s < ns; s++)
            if (!(o.utility[s] >= 0 && o.utility[s] <= 1))
                FAIL(c, "utility %g of seat %d", o.utility[s], s);
        if (o.kind == PL_WIN_NONE || (o.kind == PL_WIN_SEAT && (o.winner < 0 || o.winner >= ns)))
            FAIL(c, "a finished game names no winner (kind %d, winner %d)", (int)o.kind, o.winner);
    }
}

/* `viewer`'s structured view of `st` (pl_view_json) into c->t1: it parses,
 * its common fields say what the interface says, and a second writing is
 * the same text. */
static void check_json(ctx *c, const void *st, int viewer)
{
    const pl_game *g = c->g;
    pl_buf_clear(&c->t1);
    pl_buf_clear(&c->t2);
    pl_buf_clear(&c->e);
    if (pl_view_json(g, st, viewer, &c->t1, &c->e) != 0)
        FAIL(c, "no JSON view for viewer %d: %s", viewer, pl_buf_str(&c->e));
    if (pl_view_json(g, st, viewer, &c->t2, &c->e) != 0 || strcmp(pl_buf_str(&c->t1), pl_buf_str(&c->t2)))
        FAIL(c, "viewer %d's JSON view differs when written twice", viewer);
    json_error_t je;
    json_t *root = json_loads(pl_buf_str(&c->t1), 0, &je);
    if (!root)
        FAIL(c, "viewer %d's JSON view does not parse: %s: %s", viewer, je.text, pl_buf_str(&c->t1));
    static const char *const phases[] = {"chance", "move", "over"};
    pl_phase ph = g->phase(st);
    int ns = g->num_seats(st);
    json_t *game = json_object_get(root, "game"), *phase = json_object_get(root, "phase"),
           *teams = json_object_get(root, "teams"), *actors = json_object_get(root, "actors"),
           *outcome = json_object_get(root, "outcome");
    if (!json_is_string(game) || strcmp(json_string_value(game), g->id) || !json_is_string(phase) ||
        strcmp(json_string_value(phase), phases[ph]) ||
        json_integer_value(json_object_get(root, "seats")) != ns ||
        json_integer_value(json_object_get(root, "viewer")) != viewer || !json_is_array(teams) ||
        (int)json_array_size(teams) != ns || !json_is_array(actors) ||
        (ph == PL_PHASE_OVER ? !json_is_object(outcome) : !json_is_null(outcome)))
        FAIL(c, "viewer %d's JSON view lacks or misstates a common field: %s", viewer, pl_buf_str(&c->t1));
    for (int s = 0; s < ns; s++)
        if (json_integer_value(json_array_get(teams, (size_t)s)) != g->team_of(st, s))
            FAIL(c, "the JSON view gives seat %d another team", s);
    int seats[PL_MAX_SEATS], na = ph == PL_PHASE_MOVE ? g->actors(st, seats) : 0;
    if ((int)json_array_size(actors) != na)
        FAIL(c, "the JSON view lists %d actors, the game %d", (int)json_array_size(actors), na);
    for (int i = 0; i < na; i++)
        if (json_integer_value(json_array_get(actors, (size_t)i)) != seats[i])
            FAIL(c, "the JSON view's actors are not the game's");
    json_decref(root);
    /* A game that hides nothing gives each seat the spectator's view with
     * its own "viewer" (docs/web-views.md): the hub makes seats' views so. */
    if (viewer >= 0 && !(g->flags & PL_GAME_HIDDEN)) {
        pl_buf_clear(&c->t2);
        char key[32];
        snprintf(key, sizeof key, "\"viewer\":%d", viewer);
        const char *t = pl_buf_str(&c->t1), *at = strstr(t, key);
        if (pl_view_json(g, st, -1, &c->t2, &c->e) != 0 || !at)
            FAIL(c, "no spectator's view, or no \"viewer\" in viewer %d's", viewer);
        pl_buf_clear(&c->e);
        pl_buf_printf(&c->e, "%.*s\"viewer\":-1%s", (int)(at - t), t, at + strlen(key));
        if (strcmp(pl_buf_str(&c->e), pl_buf_str(&c->t2)))
            FAIL(c, "viewer %d's view of a game that hides nothing is not the spectator's", viewer);
        pl_buf_clear(&c->e);
    }
}

/* The text of `a` (played by `seat` in `st`) reads back to `a`. */
static void check_text(ctx *c, const void *st, int seat, pl_action a)
{
    const pl_game *g = c->g;
    pl_buf_clear(&c->t1);
    g->format_action(st, seat, a, &c->t1);
    pl_action back = ~a;
    pl_buf_clear(&c->e);
    if (g->parse_action(st, seat, pl_buf_str(&c->t1), &back, &c->e) != 0 || back != a)
        FAIL(c, "action '%s' of seat %d does not read back: %s", pl_buf_str(&c->t1), seat, pl_buf_str(&c->e));
    if (g->format_action_for)
        for (int v = -1; v < g->num_seats(st); v++) {
            pl_buf_clear(&c->t2);
            g->format_action_for(st, seat, a, v, &c->t2);
            if (c->t2.len == 0 || c->t2.oom)
                FAIL(c, "no text of '%s' for viewer %d", pl_buf_str(&c->t1), v);
        }
}

/* The texts for players of `seat`'s action `a` from `st` to `after`:
 * describe for every viewer is sentences (empty, or ending in '.'); the
 * menu text of a move begins with its notation (what the player types). */
static void check_told(ctx *c, const void *st, int seat, pl_action a, const void *after)
{
    const pl_game *g = c->g;
    pl_buf_clear(&c->t1);
    g->format_action(st, seat, a, &c->t1);
    if (g->describe)
        for (int v = -1; v < g->num_seats(st); v++) {
            pl_buf_clear(&c->t2);
            g->describe(st, seat, a, after, v, &c->t2);
            if (c->t2.oom || (c->t2.len && c->t2.s[c->t2.len - 1] != '.'))
                FAIL(c, "what '%s' did, told to %d, is not sentences: '%s'", pl_buf_str(&c->t1), v,
                     pl_buf_str(&c->t2));
        }
    /* events: a JSON array for every viewer, the same for all in a game
     * that hides nothing (the server writes them once: game.h) */
    pl_buf_clear(&c->e);
    if (pl_events_json(g, st, seat, a, after, -1, &c->e, &c->t2) < 0)
        FAIL(c, "no events of '%s': %s", pl_buf_str(&c->t1), pl_buf_str(&c->t2));
    if (c->e.len < 2 || c->e.s[0] != '[' || c->e.s[c->e.len - 1] != ']')
        FAIL(c, "the events of '%s' are not an array: '%s'", pl_buf_str(&c->t1), pl_buf_str(&c->e));
    for (int v = 0; !(g->flags & PL_GAME_HIDDEN) && v < g->num_seats(st); v++) {
        pl_buf_clear(&c->t2);
        if (pl_events_json(g, st, seat, a, after, v, &c->t2, &c->t2) < 0 || strcmp(pl_buf_str(&c->t2), pl_buf_str(&c->e)))
            FAIL(c, "'%s' in a game that hides nothing: seat %d is told '%s', everyone '%s'", pl_buf_str(&c->t1), v,
                 pl_buf_str(&c->t2), pl_buf_str(&c->e));
    }
    if (seat != PL_CHANCE) {
        pl_buf_clear(&c->t2);
        pl_format_action_long(g, st, seat, a, &c->t2);
        if (strncmp(pl_buf_str(&c->t2), pl_buf_str(&c->t1), c->t1.len))
            FAIL(c, "the menu text '%s' does not begin with the notation '%s'", pl_buf_str(&c->t2),
                 pl_buf_str(&c->t1));
    }
}

static void check_views(ctx *c, const void *st, pl_rng *r)
{
    const pl_game *g = c->g;
    int ns = g->num_seats(st);
    for (int s = 0; s < ns; s++) {
        g->determinize(st, s, r, c->a);
        if (!(g->flags & PL_GAME_HIDDEN) && memcmp(c->a, st, g->state_size))
            FAIL(c, "a game without hidden information determinizes to another state");
        pl_buf_clear(&c->t1);
        pl_buf_clear(&c->t2);
        g->view(st, s, &c->t1);
        g->view(c->a, s, &c->t2);
        if (c->t1.oom || strcmp(pl_buf_str(&c->t1), pl_buf_str(&c->t2)))
            FAIL(c, "seat %d's view tells the state from one determinized for it:\n%s\n---\n%s", s,
                 pl_buf_str(&c->t1), pl_buf_str(&c->t2));
        if (g->view_json && (g->flags & PL_GAME_HIDDEN)) {
            pl_buf_clear(&c->t1);
            pl_buf_clear(&c->t2);
            if (pl_view_json(g, st, s, &c->t1, &c->e) || pl_view_json(g, c->a, s, &c->t2, &c->e) ||
                strcmp(pl_buf_str(&c->t1), pl_buf_str(&c->t2)))
                FAIL(c, "seat %d's JSON view tells the state from one determinized for it:\n%s\n---\n%s", s,
                     pl_buf_str(&c->t1), pl_buf_str(&c->t2));
            /* a spectator knows less than any seat */
            pl_buf_clear(&c->t1);
            pl_buf_clear(&c->t2);
            if (pl_view_json(g, st, -1, &c->t1, &c->e) || pl_view_json(g, c->a, -1, &c->t2, &c->e) ||
                strcmp(pl_buf_str(&c->t1), pl_buf_str(&c->t2)))
                FAIL(c, "the spectator's JSON view tells the state from one determinized for seat %d", s);
        }
        pl_buf_clear(&c->t1);
        pl_buf_clear(&c->t2);
        pl_show(g, st, s, &c->t1);
        pl_show(g, c->a, s, &c->t2);
        if (c->t1.oom || strcmp(pl_buf_str(&c->t1), pl_buf_str(&c->t2)))
            FAIL(c, "seat %d's picture tells the state from one determinized for it", s);
        if (g->evaluate) {
            double v = g->evaluate(st, s);
            if (!(v >= 0 && v <= 1))
                FAIL(c, "evaluate gives %g for seat %d", v, s);
        }
    }
    pl_buf_clear(&c->t1);
    pl_show(g, st, -1, &c->t1);
    if (c->t1.oom || c->t1.len == 0)
        FAIL(c, "no picture of the whole state");
}

static void check_deep(ctx *c, const void *st, pl_rng *r)
{
    const pl_game *g = c->g;
    pl_buf err = {0};
    /* The position text reads back into a state of the same options. */
    pl_buf_clear(&c->t1);
    g->to_text(st, &c->t1);
    pl_state_copy(g, c->a, c->initial);
    pl_buf_clear(&c->e);
    if (g->from_text(c->a, pl_buf_str(&c->t1), &c->e) != 0)
        FAIL(c, "position '%s' does not read back: %s", pl_buf_str(&c->t1), pl_buf_str(&c->e));
    pl_buf_clear(&c->t2);
    g->to_text(c->a, &c->t2);
    if (strcmp(pl_buf_str(&c->t1), pl_buf_str(&c->t2)))
        FAIL(c, "position text changes on reading: '%s' then '%s'", pl_buf_str(&c->t1), pl_buf_str(&c->t2));
    if (g->check_state) {
        pl_buf_clear(&c->e);
        if (g->check_state(st, &c->e) != 0)
            FAIL(c, "the game's invariants: %s", pl_buf_str(&c->e));
    }
    check_views(c, st, r);
    pl_phase ph = g->phase(st);
    int ns = g->num_seats(st);
    if (ph == PL_PHASE_CHANCE) {
        pl_action a = pl_draw_chance(g, st, r);
        if (pl_check(g, st, PL_CHANCE, a, &err) != 0)
            FAIL(c, "a drawn chance outcome is refused: %s", pl_buf_str(&err));
        check_text(c, st, PL_CHANCE, a);
        pl_state_copy(g, c->a, st);
        g->apply(c->a, PL_CHANCE, a);
        check_told(c, st, PL_CHANCE, a, c->a);
    } else if (ph == PL_PHASE_MOVE) {
        for (int s = 0; s < ns; s++) {
            bool acts = pl_is_actor(g, st, s);
            int n = pl_legal_all(g, st, s, c->acts);
            pl_action one;
            if (g->legal(st, s, &one, 1) != n)
                FAIL(c, "legal counts %d with room for one, %d with room for all", g->legal(st, s, &one, 1), n);
            if (!acts && n != 0)
                FAIL(c, "seat %d lists %d actions but does not act", s, n);
            if (!acts)
                continue;
            int step = n > MAX_JUDGED ? n / MAX_JUDGED : 1;
            for (int i = 0; i < n; i += step) {
                pl_buf_clear(&err);
                if (pl_check(g, st, s, c->acts[i], &err) != 0)
                    FAIL(c, "listed action %d of seat %d refused: %s", i, s, pl_buf_str(&err));
                check_text(c, st, s, c->acts[i]);
                pl_state_copy(g, c->a, st);
                pl_state_copy(g, c->b, st);
                g->apply(c->a, s, c->acts[i]);
                g->apply(c->b, s, c->acts[i]);
                if (memcmp(c->a, c->b, g->state_size))
                    FAIL(c, "two copies differ after the same action");
                check_told(c, st, s, c->acts[i], c->a);
            }
            if (g->policy) {
                pl_rng p1 = *r, p2 = *r;
                pl_state_copy(g, c->a, st);
                pl_action a1 = g->policy(st, s, &p1), a2 = g->policy(st, s, &p2);
                if (a1 != a2 || memcmp(c->a, st, g->state_size))
                    FAIL(c, "the policy is not a pure function of the state and its generator");
                pl_buf_clear(&err);
                if (pl_check(g, st, s, a1, &err) != 0)
                    FAIL(c, "the policy plays an illegal action: %s", pl_buf_str(&err));
            }
        }
    }
    pl_buf_free(&err);
}

/* One step: a chance draw, or a random legal action of a random actor.
 * Writes what was played to `*seat`, `*a`; 0 once the game is over. */
static int step(ctx *c, void *st, pl_rng *r, int *seat, pl_action *a)
{
    const pl_game *g = c->g;
    pl_phase ph = g->phase(st);
    if (ph == PL_PHASE_OVER)
        return 0;
    if (ph == PL_PHASE_CHANCE) {
        *seat = PL_CHANCE;
        *a = pl_draw_chance(g, st, r);
    } else {
        int seats[PL_MAX_SEATS];
        int na = g->actors(st, seats);
        *seat = seats[pl_rng_below(r, (uint32_t)na)];
        int n = pl_legal_all(g, st, *seat, c->acts);
        if (n < (g->check ? 0 : 1))
            FAIL(c, "actor %d has no legal action", *seat);
        if (n == 0) /* a game that judges actions itself may list none: another actor */
            return -1;
        *a = c->acts[pl_rng_below(r, (uint32_t)n)];
    }
    g->apply(st, *seat, *a);
    return 1;
}

/* Plays the history again through a match (every action checked), then
 * writes its record and every seat's, and reads the record back. */
static void check_record(ctx *c, const pl_move *hist, long n, const void *final)
{
    pl_buf err = {0}, rec = {0};
    char opts[512];
    snprintf(opts, sizeof opts, "%s seed=%llu", c->set, (unsigned long long)c->seed);
    pl_match *m = th_new(c->g->id, opts);
    for (long i = 0; i < n; i++)
        if (pl_match_play(m, hist[i].seat, hist[i].a, &err) != 0)
            FAIL(c, "action %ld refused by the match: %s", i, pl_buf_str(&err));
    if (memcmp(m->state, final, c->g->state_size))
        FAIL(c, "the match's state is not the one played");
    if (pl_record_write(m, &rec) != 0)
        FAIL(c, "record not written");
    pl_match *back = pl_record_read(pl_buf_str(&rec), &err);
    if (!back)
        FAIL(c, "record does not read back: %s", pl_buf_str(&err));
    if (memcmp(back->state, m->state, c->g->state_size))
        FAIL(c, "the record reads back to another state");
    for (int v = 0; v < c->g->num_seats(m->state); v++) {
        pl_buf_clear(&rec);
        if (pl_record_write_for(m, v, &rec) != 0 || rec.len == 0)
            FAIL(c, "seat %d's record not written", v);
    }
    pl_match_free(back);
    pl_match_free(m);
    pl_buf_free(&rec);
    pl_buf_free(&err);
}

static void play_set(const pl_game *g, const char *set, long *games, long *actions, long *deep)
{
    ctx c = {.g = g, .set = set};
    c.acts = pl_malloc(sizeof *c.acts * PL_MAX_ACTIONS);
    c.a = pl_malloc(g->state_size);
    c.b = pl_malloc(g->state_size);
    unsigned char *st = pl_malloc(g->state_size);
    long caphist = 1024;
    pl_move *hist = pl_malloc(sizeof *hist * (size_t)caphist);
    assert_true(c.acts && c.a && c.b && st && hist);
    for (int k = 0; k < GAMES_PER_SET; k++) {
        c.seed = 1000 + (uint64_t)k;
        char opts[512];
        snprintf(opts, sizeof opts, "%s seed=%llu", set, (unsigned long long)c.seed);
        pl_match *m = th_new(g->id, opts);
        c.initial = m->initial;
        pl_state_copy(g, st, m->state);
        pl_rng r;
        pl_rng_seed(&r, c.seed * 7919);
        long n = 0;
        for (c.step = 0;; c.step++) {
            if (c.step >= MAX_STEPS)
                FAIL(&c, "the game has not ended after %d actions", MAX_STEPS);
            check_shape(&c, st);
            if (g->view_json && (k < JSON_GAMES || c.step % DEEP_EVERY == k % DEEP_EVERY))
                check_json(&c, st, (int)(c.step % (g->num_seats(st) + 1)) - 1);
            if (k < DEEP_GAMES || c.step % DEEP_EVERY == k % DEEP_EVERY) {
                check_deep(&c, st, &r);
                (*deep)++;
            }
            int seat;
            pl_action a;
            int rc = step(&c, st, &r, &seat, &a);
            if (rc == 0)
                break;
            if (rc < 0)
                continue;
            if (n == caphist) {
                caphist *= 2;
                hist = pl_realloc(hist, sizeof *hist * (size_t)caphist);
                assert_non_null(hist);
            }
            hist[n].seat = seat;
            hist[n].a = a;
            n++;
        }
        if (k < RECORD_GAMES)
            check_record(&c, hist, n, st);
        *actions += n;
        (*games)++;
        pl_match_free(m);
    }
    pl_free(hist);
    pl_free(st);
    pl_free(c.acts);
    pl_free(c.a);
    pl_free(c.b);
    pl_buf_free(&c.t1);
    pl_buf_free(&c.t2);
    pl_buf_free(&c.e);
}

static void test_property_every_game_random_play(void **state)
{
    (void)state;
    int ng;
    const pl_game *const *gs = pl_games(&ng);
    assert_true(ng >= 1);
    for (int i = 0; i < ng; i++) {
        const pl_game *g = gs[i];
        static const char *const defaults[] = {"", NULL};
        const char *const *sets = g->variants ? g->variants : defaults;
        long games = 0, actions = 0, deep = 0;
        for (int k = 0; sets[k]; k++)
            play_set(g, sets[k], &games, &actions, &deep);
        printf("%-8s %ld games, %ld actions, %ld states checked deeply\n", g->id, games, actions, deep);
        assert_true(games >= GAMES_PER_SET);
    }
}

/* Every game's levels (pl_game.levels) are players ai.c accepts, none of
 * them a level again, and the game names easy, medium and hard; a game
 * with its own player (pl_game.bot) has levels of its own. */
static void test_property_every_game_levels(void **state)
{
    (void)state;
    int ng;
    const pl_game *const *gs = pl_games(&ng);
    for (int i = 0; i < ng; i++) {
        const pl_game *g = gs[i];
        if (g->bot && !g->levels)
            fail_msg("%s has its own player but no levels: easy, medium and hard would search", g->id);
        if (!g->levels)
            continue;
        int named = 0;
        for (const pl_level *lv = g->levels; lv->name; lv++) {
            named += !strcmp(lv->name, "easy") || !strcmp(lv->name, "medium") || !strcmp(lv->name, "hard");
            if (!lv->spec || !lv->about || !*lv->about)
                fail_msg("%s: level %s has no spec or description", g->id, lv->name);
            pl_buf e = {0};
            if (ai_check_spec(lv->spec, &e) != 0)
                fail_msg("%s: level %s is '%s': %s", g->id, lv->name, lv->spec, pl_buf_str(&e));
            pl_buf_free(&e);
            char head[32];
            size_t k = strcspn(lv->spec, ":");
            snprintf(head, sizeof head, "%.*s", (int)k, lv->spec);
            for (const pl_level *o = g->levels; o->name; o++)
                if (!strcmp(head, o->name) || !strcmp(head, "easy") || !strcmp(head, "medium") ||
                    !strcmp(head, "hard"))
                    fail_msg("%s: level %s is the level %s", g->id, lv->name, head);
        }
        if (named != 3)
            fail_msg("%s: its levels name %d of easy, medium and hard", g->id, named);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_property_every_game_random_play),
        cmocka_unit_test(test_property_every_game_levels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
