/* fuzz_common.c — helpers shared by the fuzz targets (fuzz.h). */
#include <math.h>
#include <string.h>

#include "fuzz.h"
#include "parlour/alloc.h"
#include "parlour/registry.h"

const pl_game *fz_game(unsigned byte)
{
    int n;
    const pl_game *const *gs = pl_games(&n);
    return gs[byte % (unsigned)n];
}

int fz_game_index(const pl_game *g)
{
    int n;
    const pl_game *const *gs = pl_games(&n);
    for (int i = 0; i < n; i++)
        if (gs[i] == g)
            return i;
    FUZZ_CHECK(0, "game %s is not registered", g->id);
    return -1;
}

size_t fz_max_state_size(void)
{
    int n;
    const pl_game *const *gs = pl_games(&n);
    size_t most = 0;
    for (int i = 0; i < n; i++)
        most = gs[i]->state_size > most ? gs[i]->state_size : most;
    return most;
}

/* The option set `sel` of `g`: its variants (pl_game.variants: defaults
 * first, then other boards, decks, seat counts and rules), the first
 * FZ_NSETS of them; the defaults where it lists fewer. */
static const char *option_set(const pl_game *g, unsigned sel)
{
    sel %= FZ_NSETS;
    for (unsigned i = 0; g->variants && g->variants[i]; i++)
        if (i == sel)
            return g->variants[i];
    return "";
}

/* Scratch for the action lists of the helpers below: one input runs at a
 * time, and a fresh 64 KiB list per call (ASan fills and quarantines each
 * one) cost more than the checks themselves. Reachable, never freed. */
static pl_action *scratch_acts(void)
{
    static pl_action *acts;
    if (!acts) {
        acts = pl_malloc(sizeof *acts * PL_MAX_ACTIONS);
        FUZZ_CHECK(acts != NULL, "out of memory");
    }
    return acts;
}

static pl_match *new_match(const pl_game *g, unsigned sel, uint64_t seed)
{
    char words[256];
    snprintf(words, sizeof words, "%s seed=%llu", option_set(g, sel), (unsigned long long)(seed & 0xffffffffu));
    char *argv[16];
    int argc = 0;
    char *save = NULL;
    for (char *w = strtok_r(words, " ", &save); w && argc < 16; w = strtok_r(NULL, " ", &save))
        argv[argc++] = w;
    pl_buf err = {0};
    pl_match *m = pl_match_new(g, argc, argv, &err);
    FUZZ_CHECK(m != NULL, "new %s: %s", g->id, pl_buf_str(&err));
    pl_buf_free(&err);
    return m;
}

pl_match *fz_match(const pl_game *g, unsigned sel, uint64_t seed)
{
    return new_match(g, sel, seed);
}

/* One step of a random walk from `st`: a chance outcome drawn with `r`, or
 * a legal action of an actor, both chosen by `r`. With `checked`, the action
 * must also pass pl_check (the first time a step is walked; a step walked
 * again from a checkpoint is the same step). Returns 0, changing nothing,
 * once the game is over. */
static int walk_step(const pl_game *g, void *st, pl_rng *r, int checked)
{
    pl_phase ph = g->phase(st);
    if (ph == PL_PHASE_OVER)
        return 0;
    int seat = PL_CHANCE;
    pl_action a;
    if (ph == PL_PHASE_CHANCE) {
        a = pl_draw_chance(g, st, r);
    } else {
        pl_action *acts = scratch_acts();
        int seats[PL_MAX_SEATS];
        int na = g->actors(st, seats);
        FUZZ_CHECK(na > 0, "no actor");
        seat = seats[pl_rng_below(r, (uint32_t)na)];
        int n = g->legal(st, seat, acts, PL_MAX_ACTIONS);
        FUZZ_CHECK(n > 0 && n <= PL_MAX_ACTIONS, "%d legal actions", n);
        a = acts[pl_rng_below(r, (uint32_t)n)];
    }
    if (checked) {
        pl_buf err = {0};
        FUZZ_CHECK(pl_check(g, st, seat, a, &err) == 0, "random play: %s", pl_buf_str(&err));
        pl_buf_free(&err);
    }
    g->apply(st, seat, a);
    return 1;
}

/* fz_walk's cache: for each game, option set and seed, checkpoints of the
 * walk every `every` steps (the state and the generator), extended on
 * demand; a state between two checkpoints is walked again from the one
 * before it (fewer than `every` steps). `every`, per game, keeps the whole
 * cache (games x FZ_NSETS x FZ_SEEDS walks of up to FZ_STEPS steps) under
 * about 256 MiB, a game's share by the registry's count: with four games,
 * every state of Ur and Tam Cuc, one in eight of cbw and karuta (4.6 KiB a
 * state). */
typedef struct fz_walk_entry {
    unsigned char *states; /* states[j]: after j * every steps; NULL: not begun */
    pl_rng *rngs;          /* rngs[j]: the generator then */
    int n, cap;            /* checkpoints held, room for */
    int end;               /* steps to the end of the game; -1 while not reached */
} fz_walk_entry;

typedef struct fz_walk_game {
    fz_walk_entry cache[FZ_NSETS][FZ_SEEDS];
    unsigned char *cur; /* the state returned */
    int every;          /* steps between checkpoints */
} fz_walk_game;

const void *fz_walk(const pl_game *g, unsigned sel, unsigned seed, unsigned steps, const void **initial)
{
    static fz_walk_game *games; /* one a registered game, made on first use (reachable) */
    int ngames;
    pl_games(&ngames);
    if (!games) {
        games = pl_calloc((size_t)ngames, sizeof *games);
        FUZZ_CHECK(games != NULL, "out of memory");
    }
    fz_walk_game *wg = &games[fz_game_index(g)];
    if (!wg->cur) {
        wg->cur = pl_malloc(g->state_size);
        FUZZ_CHECK(wg->cur != NULL, "out of memory");
        size_t all = (size_t)FZ_NSETS * FZ_SEEDS * FZ_STEPS * g->state_size;
        for (wg->every = 1; all / (size_t)wg->every > ((size_t)256 << 20) / (size_t)ngames; wg->every *= 2)
            ;
    }
    fz_walk_entry (*cache)[FZ_SEEDS] = wg->cache;
    unsigned char *cur = wg->cur;
    int every = wg->every;
    sel %= FZ_NSETS;
    seed %= FZ_SEEDS;
    if (steps >= FZ_STEPS)
        steps = FZ_STEPS - 1;
    size_t sz = g->state_size;
    fz_walk_entry *e = &cache[sel][seed];
    if (!e->states) {
        pl_match *m = new_match(g, sel, seed);
        e->cap = 2;
        e->states = pl_malloc(2 * sz);
        e->rngs = pl_malloc(2 * sizeof *e->rngs);
        FUZZ_CHECK(e->states && e->rngs, "out of memory");
        pl_state_copy(g, e->states, m->state);
        pl_rng_seed(&e->rngs[0], seed);
        e->n = 1;
        e->end = -1;
        pl_match_free(m);
    }
    /* Extend the checkpoints up to the one before `steps` (or the end). */
    while (e->end < 0 && (unsigned)(e->n - 1) < steps / (unsigned)every) {
        pl_state_copy(g, cur, e->states + (size_t)(e->n - 1) * sz);
        pl_rng r = e->rngs[e->n - 1];
        int k = 0;
        while (k < every && walk_step(g, cur, &r, 1))
            k++;
        if (k < every) {
            e->end = (e->n - 1) * every + k;
            break;
        }
        if (e->n == e->cap) {
            int cap = e->cap * 2;
            unsigned char *s = pl_realloc(e->states, (size_t)cap * sz);
            FUZZ_CHECK(s != NULL, "out of memory");
            e->states = s;
            pl_rng *rs = pl_realloc(e->rngs, (size_t)cap * sizeof *rs);
            FUZZ_CHECK(rs != NULL, "out of memory");
            e->rngs = rs;
            e->cap = cap;
        }
        pl_state_copy(g, e->states + (size_t)e->n * sz, cur);
        e->rngs[e->n] = r;
        e->n++;
    }
    /* From the last checkpoint at or before `steps`, walk the rest: steps
     * already walked when a later checkpoint (or the end) was found, or new
     * ones (checked) past the last checkpoint. */
    unsigned j = steps / (unsigned)every;
    if (j >= (unsigned)e->n)
        j = (unsigned)e->n - 1;
    int fresh = j == (unsigned)e->n - 1 && e->end < 0;
    pl_state_copy(g, cur, e->states + (size_t)j * sz);
    pl_rng r = e->rngs[j];
    for (unsigned k = j * (unsigned)every; k < steps && walk_step(g, cur, &r, fresh); k++)
        ;
    if (initial)
        *initial = e->states;
    return cur;
}

/* A 64-bit hash of `n` bytes (8 at a time: states are a few KiB). */
static uint64_t hash_bytes(const void *p, size_t n, uint64_t h)
{
    const unsigned char *q = p;
    if (n >= 64) { /* four independent lanes: cbw's and karuta's states are 4.6 KiB */
        uint64_t l[4] = {h, h ^ 0x243f6a8885a308d3ull, h ^ 0x13198a2e03707344ull, h ^ 0xa4093822299f31d0ull};
        for (; n >= 32; n -= 32, q += 32)
            for (int k = 0; k < 4; k++) {
                uint64_t w;
                memcpy(&w, q + 8 * k, 8);
                l[k] = (l[k] ^ w) * 0x9e3779b97f4a7c15ull;
                l[k] ^= l[k] >> 29;
            }
        h = l[0];
        for (int k = 1; k < 4; k++)
            h = ((h ^ l[k]) * 0x9e3779b97f4a7c15ull) ^ (h >> 31);
    }
    for (; n >= 8; n -= 8, q += 8) {
        uint64_t w;
        memcpy(&w, q, 8);
        h = (h ^ w) * 0x9e3779b97f4a7c15ull;
        h ^= h >> 29;
    }
    for (; n; n--, q++)
        h = (h ^ *q) * 0x100000001b3ull;
    return h ^ (h >> 32);
}

uint64_t fz_hash(const pl_game *g, const void *st) { return hash_bytes(st, g->state_size, 1); }

uint64_t fz_mix(uint64_t h, uint64_t v) { return hash_bytes(&v, sizeof v, h); }

uint64_t fz_hash_bytes(const void *p, size_t n, uint64_t h) { return hash_bytes(p, n, h); }

int fz_seen_hash(uint64_t h)
{
    enum { SLOTS = 1 << 20 }; /* 8 MiB; emptied when half full */
    static uint64_t *tab;
    static long used;
    if (!tab) {
        tab = pl_calloc(SLOTS, sizeof *tab);
        FUZZ_CHECK(tab != NULL, "out of memory");
    }
    if (!h)
        h = 1; /* 0 marks an empty slot */
    size_t i = (size_t)(h & (SLOTS - 1));
    while (tab[i] && tab[i] != h)
        i = (i + 1) & (SLOTS - 1);
    if (tab[i] == h)
        return 1;
    if (used >= SLOTS / 2) {
        memset(tab, 0, SLOTS * sizeof *tab);
        used = 0;
        i = (size_t)(h & (SLOTS - 1));
    }
    tab[i] = h;
    used++;
    return 0;
}

int fz_seen(const pl_game *g, const void *st, const void *initial, uint64_t salt)
{
    uint64_t h = hash_bytes(st, g->state_size, (salt * 64 + (uint64_t)fz_game_index(g)) * 0xff51afd7ed558ccdull + 1);
    if (initial)
        h = hash_bytes(initial, g->state_size, h);
    return fz_seen_hash(h);
}

/* Phase, seats and the lists of each phase; with `texts`, also every legal
 * action (up to 16 an actor) reads back from its own text. */
static void check_shape(const pl_game *g, const void *st, int strict, int texts)
{
    pl_phase ph = g->phase(st);
    FUZZ_CHECK(ph == PL_PHASE_CHANCE || ph == PL_PHASE_MOVE || ph == PL_PHASE_OVER, "phase %d", (int)ph);
    int ns = g->num_seats(st);
    FUZZ_CHECK(ns >= 1 && ns <= PL_MAX_SEATS, "%d seats", ns);
    for (int s = 0; s < ns; s++) {
        int t = g->team_of(st, s);
        FUZZ_CHECK(t >= 0 && t < PL_MAX_SEATS, "team %d of seat %d", t, s);
    }
    pl_action *acts = scratch_acts();
    if (ph == PL_PHASE_MOVE) {
        static pl_buf b, e;
        int seats[PL_MAX_SEATS];
        int na = g->actors(st, seats);
        FUZZ_CHECK(na >= 1 && na <= ns, "%d actors of %d seats", na, ns);
        for (int i = 0; i < na; i++) {
            FUZZ_CHECK(seats[i] >= 0 && seats[i] < ns, "actor %d", seats[i]);
            int n = g->legal(st, seats[i], acts, PL_MAX_ACTIONS);
            FUZZ_CHECK(n >= (g->check || !strict ? 0 : 1) && n <= PL_MAX_ACTIONS, "%d legal actions", n);
            for (int k = 0; texts && strict && k < n && k < 16; k++) {
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
}

void fz_check_shape(const pl_game *g, const void *st, int strict) { check_shape(g, st, strict, 0); }

void fz_check_state(const pl_game *g, const void *st, const void *initial, int strict)
{
    if (fz_seen(g, st, initial, (uint64_t)strict))
        return; /* checked already: the checks would pass again */
    check_shape(g, st, strict, 1);
    int ns = g->num_seats(st);
    /* Scratch buffers, kept from one call to the next (reachable). */
    static pl_buf b, e, b2;
    static unsigned char *copy;
    static size_t capcopy;
    if (capcopy < g->state_size) {
        pl_free(copy);
        copy = pl_malloc(g->state_size);
        FUZZ_CHECK(copy != NULL, "out of memory");
        capcopy = g->state_size;
    }
    /* The position text reads back to itself. */
    pl_buf_clear(&b);
    g->to_text(st, &b);
    pl_state_copy(g, copy, initial);
    pl_buf_clear(&e);
    pl_buf_clear(&b2);
    FUZZ_CHECK(g->from_text(copy, pl_buf_str(&b), &e) == 0, "position '%s' does not read back: %s",
               pl_buf_str(&b), pl_buf_str(&e));
    g->to_text(copy, &b2);
    FUZZ_CHECK(!strcmp(pl_buf_str(&b), pl_buf_str(&b2)), "position text changes: '%s' then '%s'", pl_buf_str(&b),
               pl_buf_str(&b2));
    /* Views and pictures for every seat. */
    for (int s = 0; s < ns; s++) {
        pl_buf_clear(&b);
        g->view(st, s, &b);
        FUZZ_CHECK(!b.oom, "view out of memory");
    }
    pl_buf_clear(&b); /* one picture: everything, or one seat's */
    pl_show(g, st, ((const unsigned char *)st)[g->state_size / 2] % (ns + 1) - 1, &b);
    if (g->check_state) {
        pl_buf_clear(&e);
        FUZZ_CHECK(g->check_state(st, &e) == 0, "%s invariant: %s", g->id, pl_buf_str(&e));
    }
}
