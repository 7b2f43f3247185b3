/* ai.c — simple computer players over the game interface (ai.h):
 *   random       a uniformly random legal action;
 *   greedy       the action whose result the game's evaluation likes best;
 *   expectimax   depth-limited expectimax (chance nodes averaged over their
 *                listed outcomes, opponents minimising), the game's
 *                evaluation at the leaves. depth counts decisions.
 * The strong players (MCTS, ISMCTS, the Ur solver) are issue #6.
 */
#include "ai.h"

#include <stdlib.h>
#include <string.h>

#include "parlour/alloc.h"
#include "perfect.h"

#define MAX_DEPTH 6

typedef struct search {
    const pl_game *g;
    int seat; /* the seat we play for */
    pl_rng rng;
    long nodes;
} search;

static double leaf(const search *x, const void *st)
{
    const pl_game *g = x->g;
    if (g->phase(st) == PL_PHASE_OVER) {
        pl_outcome o;
        memset(&o, 0, sizeof o);
        g->outcome(st, &o);
        return o.utility[x->seat];
    }
    return g->evaluate ? g->evaluate(st, x->seat) : 0.5;
}

/* Value of `st` for x->seat with `depth` decisions left. */
static double value(search *x, const void *st, int depth)
{
    const pl_game *g = x->g;
    x->nodes++;
    pl_phase ph = g->phase(st);
    if (ph == PL_PHASE_OVER || depth == 0)
        return leaf(x, st);
    void *child = pl_malloc(g->state_size);
    if (!child)
        return leaf(x, st);
    double v;
    if (ph == PL_PHASE_CHANCE) {
        pl_action acts[PL_MAX_CHANCE];
        double p[PL_MAX_CHANCE];
        int n = g->chance(st, acts, p, PL_MAX_CHANCE);
        if (n < 0 || n > PL_MAX_CHANCE) { /* sample a few outcomes */
            v = 0;
            for (int i = 0; i < 8; i++) {
                pl_state_copy(g, child, st);
                g->apply(child, PL_CHANCE, g->sample_chance(st, &x->rng));
                v += value(x, child, depth) / 8;
            }
        } else {
            v = 0;
            for (int i = 0; i < n; i++) {
                if (p[i] <= 0)
                    continue;
                pl_state_copy(g, child, st);
                g->apply(child, PL_CHANCE, acts[i]);
                v += p[i] * value(x, child, depth);
            }
        }
    } else {
        int actor = pl_sole_actor(g, st);
        pl_action *acts = pl_malloc(sizeof *acts * PL_MAX_ACTIONS);
        if (actor < 0 || !acts) {
            pl_free(acts);
            pl_free(child);
            return leaf(x, st);
        }
        int n = g->legal(st, actor, acts, PL_MAX_ACTIONS);
        if (n > PL_MAX_ACTIONS)
            n = PL_MAX_ACTIONS;
        bool mine = g->team_of(st, actor) == g->team_of(st, x->seat);
        v = mine ? -1 : 2;
        for (int i = 0; i < n; i++) {
            pl_state_copy(g, child, st);
            g->apply(child, actor, acts[i]);
            double c = value(x, child, depth - 1);
            if (mine ? c > v : c < v)
                v = c;
        }
        pl_free(acts);
    }
    pl_free(child);
    return v;
}

typedef enum { AI_RANDOM, AI_GREEDY, AI_EXPECTIMAX, AI_PERFECT } ai_kind;

static int parse_spec(const char *spec, ai_kind *kind, int *depth, pl_buf *err)
{
    *kind = AI_EXPECTIMAX;
    *depth = 2;
    if (!spec || !*spec || !strcmp(spec, "default"))
        return 0;
    if (!strcmp(spec, "random")) {
        *kind = AI_RANDOM;
        return 0;
    }
    if (!strcmp(spec, "greedy")) {
        *kind = AI_GREEDY;
        return 0;
    }
    if (!strncmp(spec, "perfect:", 8) && spec[8]) {
        *kind = AI_PERFECT; /* the table's path follows */
        return 0;
    }
    if (!strncmp(spec, "expectimax", 10)) {
        const char *p = spec + 10;
        if (!*p)
            return 0;
        if (!strncmp(p, ":depth=", 7) && p[7] >= '1' && p[7] <= '0' + MAX_DEPTH && !p[8]) {
            *depth = p[7] - '0';
            return 0;
        }
    }
    pl_buf_printf(err, "unknown player '%s'; players: random, greedy, expectimax[:depth=1..%d], "
                       "perfect:TABLE", spec, MAX_DEPTH);
    return -1;
}

int ai_check_spec(const char *spec, pl_buf *err)
{
    ai_kind k;
    int d;
    return parse_spec(spec, &k, &d, err);
}

void ai_describe(pl_buf *out)
{
    pl_buf_puts(out, "random                  a uniformly random legal action\n"
                     "greedy                  the best action by the game's evaluation, one move deep\n"
                     "expectimax[:depth=N]    expectimax over N decisions (default 2, at most 6)\n"
                     "perfect:TABLE           optimal play from an exact table (parlour solve ... --out TABLE)\n");
}

int ai_choose(const pl_game *g, const void *st, int seat, const char *spec, uint64_t seed,
              pl_action *out, pl_buf *err)
{
    ai_kind kind;
    int depth;
    if (parse_spec(spec, &kind, &depth, err) < 0)
        return -1;
    if (!pl_is_actor(g, st, seat)) {
        pl_buf_printf(err, "seat %d does not act now", seat);
        return -1;
    }
    if (kind == AI_PERFECT)
        return ai_perfect_choose(g, st, seat, spec + 8, out, err);
    pl_action *acts = pl_malloc(sizeof *acts * PL_MAX_ACTIONS);
    void *child = pl_malloc(g->state_size);
    if (!acts || !child) {
        pl_free(acts);
        pl_free(child);
        pl_buf_puts(err, "out of memory");
        return -1;
    }
    int n = g->legal(st, seat, acts, PL_MAX_ACTIONS);
    if (n > PL_MAX_ACTIONS)
        n = PL_MAX_ACTIONS;
    search x = {.g = g, .seat = seat};
    pl_rng_seed(&x.rng, seed);
    int best = (int)pl_rng_below(&x.rng, (uint32_t)n);
    if (kind != AI_RANDOM && n > 1) {
        double bv = -1;
        int ties = 0;
        for (int i = 0; i < n; i++) {
            pl_state_copy(g, child, st);
            g->apply(child, seat, acts[i]);
            double v = kind == AI_GREEDY ? leaf(&x, child) : value(&x, child, depth - 1);
            if (v > bv + 1e-12) {
                bv = v;
                best = i;
                ties = 1;
            } else if (v > bv - 1e-12 && pl_rng_below(&x.rng, (uint32_t)++ties) == 0) {
                best = i; /* break ties at random, reproducibly */
            }
        }
    }
    *out = acts[best];
    pl_free(acts);
    pl_free(child);
    return 0;
}
