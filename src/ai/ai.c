/* ai.c — computer players over the game interface (ai.h): spec parsing,
 * named levels, and the simple players:
 *   random       a uniformly random legal action;
 *   greedy       the action whose result the game's evaluation likes best;
 *   expectimax   depth-limited expectimax (chance nodes averaged over their
 *                listed outcomes, opponents minimising), the game's
 *                evaluation at the leaves. depth counts decisions.
 * mcts/ismcts are in mcts.c; `bot:LEVEL` goes to the game's own player
 * (pl_game.bot). Levels come from the game's table (pl_game.levels), else
 * from the generic one below: no game is named here. perfect:TABLE is in
 * perfect.c. An ai_player is the parsed spec plus what it loaded, read-only
 * once made (ai.h: one player may serve several threads).
 */
#include "ai.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcts.h"
#include "parlour/alloc.h"
#include "parlour/registry.h"
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
        int n = pl_chance_all(g, st, acts, p);
        if (n < 0) { /* too many to list: sample a few outcomes */
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
        int n = pl_legal_all(g, st, actor, acts);
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


/* ---- specs -------------------------------------------------------------- */

typedef enum { AI_RANDOM, AI_GREEDY, AI_EXPECTIMAX, AI_MCTS, AI_BOT, AI_PERFECT, AI_POLICY } ai_kind;

typedef struct ai_spec {
    ai_kind kind;
    int depth;        /* expectimax */
    mcts_params mp;   /* mcts */
    char level[32];   /* bot: the game's level name */
    const char *path; /* perfect: the table file (points into the spec) */
} ai_spec;

/* The generic levels (docs/ai.md): every game that does not name a level in
 * its own table (pl_game.levels) gets these. */
static const pl_level generic_levels[] = {
    {"easy", "mcts:iterations=200", "MCTS with 200 iterations"},
    {"medium", "mcts:iterations=2000", "MCTS with 2000 iterations (the default player)"},
    {"hard", "mcts:iterations=10000", "MCTS with 10000 iterations"},
    {NULL, NULL, NULL},
};

static const pl_level *level_in(const pl_level *t, const char *name)
{
    for (; t && t->name; t++)
        if (!strcmp(t->name, name))
            return t;
    return NULL;
}

/* The level `name` of `g`: the game's own row, else the generic one; NULL
 * when there is none. With `g` NULL (a spec checked without a game) a level
 * of any registered game will do. */
static const pl_level *find_level(const pl_game *g, const char *name)
{
    const pl_level *lv = g ? level_in(g->levels, name) : NULL;
    if (!lv)
        lv = level_in(generic_levels, name);
    if (!lv && !g) {
        int n;
        const pl_game *const *gs = pl_games(&n);
        for (int i = 0; i < n && !lv; i++)
            lv = level_in(gs[i]->levels, name);
    }
    return lv;
}

/* Parses "key=value" parameters separated by ',' or ':' into `x`. */
static int parse_params(const char *p, ai_spec *x, pl_buf *err)
{
    while (*p) {
        char key[32], *end;
        size_t k = strcspn(p, "=,:");
        if (k == 0 || k >= sizeof key || p[k] != '=') {
            pl_buf_printf(err, "expected KEY=VALUE at '%s'", p);
            return -1;
        }
        memcpy(key, p, k);
        key[k] = 0;
        const char *v = p + k + 1;
        if (x->kind == AI_EXPECTIMAX && !strcmp(key, "depth")) {
            long d = strtol(v, &end, 10);
            if (end == v || d < 1 || d > MAX_DEPTH)
                goto bad;
            x->depth = (int)d;
        } else if (x->kind == AI_MCTS && (!strcmp(key, "c") || !strcmp(key, "score"))) {
            double c = strtod(v, &end);
            if (end == v || !(c >= 0 && c <= (key[0] == 'c' ? 100 : 1)))
                goto bad;
            if (key[0] == 'c')
                x->mp.c = c;
            else
                x->mp.score_weight = c;
        } else if (x->kind == AI_MCTS || (x->kind == AI_EXPECTIMAX && !strcmp(key, "threads"))) {
            long n = strtol(v, &end, 10);
            if (end == v || n < 0)
                goto bad;
            if (!strcmp(key, "iterations") || !strcmp(key, "it")) {
                if (n < 1 || n > 100000000)
                    goto bad;
                x->mp.iterations = n;
                x->mp.ms = 0;
            } else if (!strcmp(key, "ms")) {
                if (n < 1 || n > 3600000)
                    goto bad;
                x->mp.ms = n;
                x->mp.iterations = 0;
            } else if (!strcmp(key, "threads")) {
                if (n < 1 || n > MCTS_MAX_THREADS)
                    goto bad;
                x->mp.threads = (int)n;
            } else if (!strcmp(key, "arena")) { /* MiB */
                if (n < 1 || n > 16384)
                    goto bad;
                x->mp.arena_bytes = (size_t)n << 20;
            } else if (!strcmp(key, "depth")) {
                if (n > 100000)
                    goto bad;
                x->mp.rollout_depth = (int)n;
            } else if (!strcmp(key, "observers")) {
                if (n > 1)
                    goto bad;
                x->mp.observers = (int)n;
            } else if (!strcmp(key, "policy")) {
                if (n > 1)
                    goto bad;
                x->mp.policy = (int)n;
            } else if (!strcmp(key, "horizon")) {
                if (n > 1)
                    goto bad;
                x->mp.horizon = (int)n;
            } else {
                goto unknown;
            }
        } else {
            goto unknown;
        }
        p = end;
        if (*p && *p != ',' && *p != ':')
            goto bad;
        if (*p)
            p++;
        continue;
    bad:
        pl_buf_printf(err, "bad value for %s in '%s'", key, v);
        return -1;
    unknown:
        pl_buf_printf(err, "unknown parameter '%s'", key);
        return -1;
    }
    if (x->kind == AI_MCTS && x->mp.iterations == 0 && x->mp.ms == 0)
        x->mp.iterations = 1000;
    return 0;
}

/* Parses `spec` for game `g` (NULL: check only; a level then is any
 * registered game's). With `levels` 0 a name is never a level: a level's
 * own spec is read so, and cannot lead back to a level. */
static int parse_player(const pl_game *g, const char *spec, int levels, ai_spec *x, pl_buf *err)
{
    memset(x, 0, sizeof *x);
    x->kind = AI_EXPECTIMAX;
    x->depth = 2;
    mcts_defaults(&x->mp);
    if (!spec || !*spec || !strcmp(spec, "default")) {
        /* The default player is the game's medium level. */
        return g ? parse_player(g, "medium", 1, x, err) : 0;
    }
    size_t nl = strcspn(spec, ":");
    const char *params = spec[nl] ? spec + nl + 1 : "";
    char name[32];
    if (nl >= sizeof name)
        goto unknown;
    memcpy(name, spec, nl);
    name[nl] = 0;
    const pl_level *lv = levels ? find_level(g, name) : NULL;
    if (lv) { /* a level: its spec (parsed as without a game), then the parameters given */
        if (parse_player(NULL, lv->spec, 0, x, err) < 0)
            return -1;
        /* A level's spec names a player this game has (its table is code). */
        assert(!g || x->kind != AI_BOT || g->bot);
        assert(!g || x->kind != AI_POLICY || g->policy);
        if (x->kind != AI_EXPECTIMAX && x->kind != AI_MCTS && *params) {
            pl_buf_printf(err, "level %s here is %s, which takes no parameters", name, lv->spec);
            return -1;
        }
        return parse_params(params, x, err);
    }
    if (!strcmp(name, "bot")) {
        if (!*params || strlen(params) >= sizeof x->level) {
            pl_buf_puts(err, "bot:LEVEL names a level of the game's own player");
            return -1;
        }
        if (g && !g->bot) {
            pl_buf_printf(err, "%s has no player of its own (bot:LEVEL); use easy/medium/hard or mcts", g->id);
            return -1;
        }
        x->kind = AI_BOT;
        snprintf(x->level, sizeof x->level, "%s", params);
        return 0;
    }
    /* Players reading a table from a file: "perfect:FILE" (the solver's). */
    if (!strcmp(name, "perfect")) {
        if (!*params)
            goto unknown;
        x->kind = AI_PERFECT;
        x->path = params;
        return 0;
    }
    if (!strcmp(name, "policy")) {
        x->kind = AI_POLICY;
        if (*params)
            goto unknown;
        if (g && !g->policy) {
            pl_buf_printf(err, "%s has no heuristic policy; use random, greedy, easy/medium/hard or mcts", g->id);
            return -1;
        }
        return 0;
    }
    if (!strcmp(name, "random") || !strcmp(name, "greedy")) {
        x->kind = !strcmp(name, "random") ? AI_RANDOM : AI_GREEDY;
        if (*params)
            goto unknown;
        return 0;
    }
    if (!strcmp(name, "expectimax")) {
        x->kind = AI_EXPECTIMAX;
        return parse_params(params, x, err);
    }
    if (!strcmp(name, "mcts") || !strcmp(name, "ismcts")) {
        x->kind = AI_MCTS;
        if (!strcmp(name, "mcts") && g && !(g->flags & PL_GAME_HIDDEN))
            x->mp.observers = 0;
        return parse_params(params, x, err);
    }
unknown:
    pl_buf_printf(err,
                  "unknown player '%s'; players: easy, medium, hard, random, greedy, policy, "
                  "expectimax[:depth=1..%d], mcts[:iterations=N|ms=T,threads=K,...], bot:LEVEL, "
                  "perfect:TABLE",
                  spec, MAX_DEPTH);
    return -1;
}

int ai_check_spec(const char *spec, pl_buf *err)
{
    ai_spec x;
    return parse_player(NULL, spec, 1, &x, err);
}

void ai_describe(pl_buf *out)
{
    pl_buf_puts(out,
                "easy | medium | hard      named levels, per game (docs/ai.md); mcts levels take\n"
                "                          extra parameters, e.g. hard:threads=2\n"
                "random                    a uniformly random legal action\n"
                "greedy                    the best action by the game's evaluation, one move deep\n"
                "policy                    the game's quick heuristic player (the rollouts' policy)\n"
                "expectimax[:depth=N]      expectimax over N decisions (default 2, at most 6)\n"
                "mcts[:PARAMS]             information-set MCTS (UCT); PARAMS separated by , or :\n"
                "  iterations=N | ms=T     budget: iterations in all (default 1000) or milliseconds\n"
                "  threads=K               root parallelism on K threads (1-8)\n"
                "  arena=MB                node memory in MiB (default 32)\n"
                "  c=X depth=D observers=0|1   exploration, rollout cut-off, one tree per seat\n"
                "  score=W                 mix W of the score margin into the reward\n"
                "  policy=0|1 horizon=0|1  rollouts by the game's policy (default 1); end them\n"
                "                          at a new deal, scored by the game's evaluation\n"
                "ismcts[:PARAMS]           the same search, one tree per seat for hidden moves\n"
                "bot:LEVEL                 the game's own player, where it has one (parlour rules GAME)\n"
                "perfect:TABLE             optimal play from an exact table (parlour solve ... --out TABLE)\n");
}

const pl_level *ai_level(const pl_game *g, int i)
{
    for (const pl_level *lv = g->levels; lv && lv->name; lv++)
        if (i-- == 0)
            return lv;
    for (const pl_level *lv = generic_levels; lv->name; lv++)
        if (!level_in(g->levels, lv->name) && i-- == 0)
            return lv;
    return NULL;
}

void ai_describe_levels(const pl_game *g, pl_buf *out)
{
    const pl_level *lv;
    for (int i = 0; (lv = ai_level(g, i)); i++)
        pl_buf_printf(out, "%-9s %-40s %s\n", lv->name, lv->spec, lv->about);
}

struct ai_player {
    const pl_game *g;
    ai_spec x;          /* x.path is not kept (it pointed into the caller's spec) */
    ai_perfect *table;  /* perfect: the loaded table, owned */
};

ai_player *ai_player_new(const pl_game *g, const char *spec, pl_buf *err)
{
    ai_spec x;
    if (parse_player(g, spec, 1, &x, err) < 0)
        return NULL;
    ai_player *p = pl_calloc(1, sizeof *p);
    if (!p) {
        pl_buf_puts(err, "out of memory");
        return NULL;
    }
    p->g = g;
    p->x = x;
    p->x.path = NULL;
    if (x.kind == AI_PERFECT && !(p->table = ai_perfect_load(g, x.path, err))) {
        pl_free(p);
        return NULL;
    }
    return p;
}

void ai_player_free(ai_player *p)
{
    if (!p)
        return;
    ai_perfect_free(p->table);
    pl_free(p);
}

int ai_player_choose(const ai_player *p, const void *st, int seat, uint64_t seed, pl_action *out,
                     pl_buf *err)
{
    const pl_game *g = p->g;
    const ai_spec *x = &p->x;
    if (!pl_is_actor(g, st, seat)) {
        pl_buf_printf(err, "seat %d does not act now", seat);
        return -1;
    }
    if (x->kind == AI_BOT)
        return g->bot(st, seat, x->level, seed, out, err);
    if (x->kind == AI_PERFECT)
        return ai_perfect_choose(p->table, st, seat, out, err);
    if (x->kind == AI_MCTS)
        return mcts_choose(g, st, seat, &x->mp, seed, out, NULL, err);
    if (x->kind == AI_POLICY) {
        pl_rng r;
        pl_rng_seed(&r, seed);
        *out = g->policy(st, seat, &r);
        return 0;
    }
    pl_action *acts = pl_malloc(sizeof *acts * PL_MAX_ACTIONS);
    void *child = pl_malloc(g->state_size);
    if (!acts || !child) {
        pl_free(acts);
        pl_free(child);
        pl_buf_puts(err, "out of memory");
        return -1;
    }
    int n = pl_legal_all(g, st, seat, acts);
    if (n < 1) { /* an actor has a legal action; only a game with `check` may list none */
        assert(g->check);
        pl_free(acts);
        pl_free(child);
        pl_buf_printf(err, "seat %d has no listed action to choose from", seat);
        return -1;
    }
    search xs = {.g = g, .seat = seat};
    pl_rng_seed(&xs.rng, seed);
    int best = (int)pl_rng_below(&xs.rng, (uint32_t)n);
    if (x->kind != AI_RANDOM && n > 1) {
        double bv = -1;
        int ties = 0;
        for (int i = 0; i < n; i++) {
            pl_state_copy(g, child, st);
            g->apply(child, seat, acts[i]);
            double v = x->kind == AI_GREEDY ? leaf(&xs, child) : value(&xs, child, x->depth - 1);
            if (v > bv + 1e-12) {
                bv = v;
                best = i;
                ties = 1;
            } else if (v > bv - 1e-12 && pl_rng_below(&xs.rng, (uint32_t)++ties) == 0) {
                best = i; /* break ties at random, reproducibly */
            }
        }
    }
    *out = acts[best];
    pl_free(acts);
    pl_free(child);
    return 0;
}

int ai_choose(const pl_game *g, const void *st, int seat, const char *spec, uint64_t seed,
              pl_action *out, pl_buf *err)
{
    ai_player *p = ai_player_new(g, spec, err);
    if (!p)
        return -1;
    int rc = ai_player_choose(p, st, seat, seed, out, err);
    ai_player_free(p);
    return rc;
}
