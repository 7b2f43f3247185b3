/* fuzz_common.c — helpers shared by the fuzz targets (fuzz.h). */
#include <math.h>
#include <string.h>

#include "fuzz.h"
#include "games/cbw/cbw.h"
#include "parlour/alloc.h"
#include "parlour/registry.h"

const pl_game *fz_game(const char *id)
{
    const pl_game *g = pl_game_find(id);
    FUZZ_CHECK(g != NULL, "no game %s", id);
    return g;
}

/* A few option sets per game: defaults first, then variants that change
 * the board, the deck, the number of seats or the rules. */
#define FZ_NSETS 4
static const char *const opt_sets[][FZ_NSETS] = {
    {"", "pieces=3 start=light", "rules=finkel", "dice=d4 stack=any loop=opponent-first"},
    {"", "players=6 deck=52", "players=2 w=3 h=2", "deck=52 w=16 h=16 first=black"},
    {"", "players=3 three_p_deck=deck_30", "players=2 night_exchange=2",
     "night_exchange=1 session_end=deals:2 soldier_special=autowin"},
    {"", "variant=uta", "variant=chirashi cards=50", "memo_s=0 tie_ms=0"},
};

static int game_index(const pl_game *g)
{
    static const char *const ids[] = {"ur", "cbw", "tamcuc", "karuta"};
    for (int i = 0; i < 4; i++)
        if (!strcmp(g->id, ids[i]))
            return i;
    return 0;
}

pl_match *fz_match(const pl_game *g, unsigned sel, uint64_t seed, unsigned steps)
{
    char words[256];
    snprintf(words, sizeof words, "%s seed=%llu", opt_sets[game_index(g)][sel % FZ_NSETS],
             (unsigned long long)(seed & 0xffffffffu));
    char *argv[16];
    int argc = 0;
    char *save = NULL;
    for (char *w = strtok_r(words, " ", &save); w && argc < 16; w = strtok_r(NULL, " ", &save))
        argv[argc++] = w;
    pl_buf err = {0};
    pl_match *m = pl_match_new(g, argc, argv, &err);
    FUZZ_CHECK(m != NULL, "new %s: %s", g->id, pl_buf_str(&err));
    pl_rng r;
    pl_rng_seed(&r, seed);
    pl_action *acts = pl_malloc(sizeof *acts * PL_MAX_ACTIONS);
    FUZZ_CHECK(acts != NULL, "out of memory");
    for (unsigned i = 0; i < steps; i++) {
        pl_phase ph = g->phase(m->state);
        if (ph == PL_PHASE_OVER)
            break;
        int rc;
        pl_buf_clear(&err);
        if (ph == PL_PHASE_CHANCE) {
            rc = pl_match_random(m, NULL, &err);
        } else {
            int seats[PL_MAX_SEATS];
            int na = g->actors(m->state, seats);
            FUZZ_CHECK(na > 0, "no actor");
            int seat = seats[pl_rng_below(&r, (uint32_t)na)];
            int n = g->legal(m->state, seat, acts, PL_MAX_ACTIONS);
            FUZZ_CHECK(n > 0, "no legal action");
            if (n > PL_MAX_ACTIONS)
                n = PL_MAX_ACTIONS;
            rc = pl_match_play(m, seat, acts[pl_rng_below(&r, (uint32_t)n)], &err);
        }
        FUZZ_CHECK(rc == 0, "random play: %s", pl_buf_str(&err));
    }
    pl_free(acts);
    pl_buf_free(&err);
    return m;
}

void fz_check_state(const pl_game *g, const void *st, const void *initial, int strict)
{
    pl_phase ph = g->phase(st);
    FUZZ_CHECK(ph == PL_PHASE_CHANCE || ph == PL_PHASE_MOVE || ph == PL_PHASE_OVER, "phase %d", (int)ph);
    int ns = g->num_seats(st);
    FUZZ_CHECK(ns >= 1 && ns <= PL_MAX_SEATS, "%d seats", ns);
    for (int s = 0; s < ns; s++) {
        int t = g->team_of(st, s);
        FUZZ_CHECK(t >= 0 && t < PL_MAX_SEATS, "team %d of seat %d", t, s);
    }
    pl_action *acts = pl_malloc(sizeof *acts * PL_MAX_ACTIONS);
    FUZZ_CHECK(acts != NULL, "out of memory");
    pl_buf b = {0}, e = {0}, b2 = {0};
    if (ph == PL_PHASE_MOVE) {
        int seats[PL_MAX_SEATS];
        int na = g->actors(st, seats);
        FUZZ_CHECK(na >= 1 && na <= ns, "%d actors of %d seats", na, ns);
        for (int i = 0; i < na; i++) {
            FUZZ_CHECK(seats[i] >= 0 && seats[i] < ns, "actor %d", seats[i]);
            int n = g->legal(st, seats[i], acts, PL_MAX_ACTIONS);
            FUZZ_CHECK(n >= (g->check || !strict ? 0 : 1) && n <= PL_MAX_ACTIONS, "%d legal actions", n);
            for (int k = 0; strict && k < n && k < 16; k++) {
                pl_buf_clear(&b);
                g->format_action(st, seats[i], acts[k], &b);
                pl_action back;
                pl_buf_clear(&e);
                FUZZ_CHECK(g->parse_action(st, seats[i], pl_buf_str(&b), &back, &e) == 0 && back == acts[k],
                           "legal action '%s' does not read back: %s", pl_buf_str(&b), pl_buf_str(&e));
            }
        }
    } else if (ph == PL_PHASE_CHANCE) {
        double p[PL_MAX_CHANCE];
        int n = g->chance(st, acts, p, PL_MAX_CHANCE);
        FUZZ_CHECK(n == -1 || (n >= 1 && n <= PL_MAX_CHANCE), "%d chance outcomes", n);
        double sum = 0;
        for (int i = 0; i < n; i++) {
            FUZZ_CHECK(p[i] >= 0 && p[i] <= 1, "probability %g", p[i]);
            sum += p[i];
        }
        FUZZ_CHECK(n < 0 || fabs(sum - 1) < 1e-6, "probabilities sum to %g", sum);
    } else {
        pl_outcome o;
        memset(&o, 0, sizeof o);
        g->outcome(st, &o);
        FUZZ_CHECK(o.nseats == ns, "outcome of %d seats, game of %d", o.nseats, ns);
    }
    /* The position text reads back to itself. */
    pl_buf_clear(&b);
    g->to_text(st, &b);
    void *copy = pl_malloc(g->state_size);
    FUZZ_CHECK(copy != NULL, "out of memory");
    pl_state_copy(g, copy, initial);
    pl_buf_clear(&e);
    /* Karuta reads no position text: its positions come from deal= and
     * play (docs/notation-karuta.md). */
    int must = strcmp(g->id, "karuta") != 0;
    if (g->from_text(copy, pl_buf_str(&b), &e) == 0) {
        g->to_text(copy, &b2);
        FUZZ_CHECK(!strcmp(pl_buf_str(&b), pl_buf_str(&b2)), "position text changes: '%s' then '%s'",
                   pl_buf_str(&b), pl_buf_str(&b2));
    } else {
        FUZZ_CHECK(!must, "position '%s' does not read back: %s", pl_buf_str(&b), pl_buf_str(&e));
        FUZZ_CHECK(e.len > 0, "position refused without a message");
    }
    pl_free(copy);
    /* Views and pictures for every seat. */
    for (int s = 0; s < ns; s++) {
        pl_buf_clear(&b);
        g->view(st, s, &b);
        FUZZ_CHECK(!b.oom, "view out of memory");
    }
    pl_buf_clear(&b); /* one picture: everything, or one seat's */
    pl_show(g, st, ((const unsigned char *)st)[g->state_size / 2] % (ns + 1) - 1, &b);
    if (!strcmp(g->id, "cbw")) {
        pl_buf_clear(&e);
        FUZZ_CHECK(cbw_check(st, &e) == 0, "cbw invariant: %s", pl_buf_str(&e));
    }
    pl_buf_free(&b);
    pl_buf_free(&b2);
    pl_buf_free(&e);
    pl_free(acts);
}
