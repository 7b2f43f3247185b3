/* mcts.c — information-set MCTS with UCT over the game interface (mcts.h).
 *
 * Per iteration (worker_iterate):
 *   1. determinize the root from the searching seat's view;
 *   2. walk down: at a decision, the acting seat's tree chooses by UCB1 with
 *      availability counts (an edge's exploration term uses the number of
 *      times it was legal, since legality varies across determinizations),
 *      or expands one untried action; every other tree follows the edge of
 *      the action as its seat sees it (format_action_for), creating it if
 *      new; listable chance outcomes are edges too;
 *   3. after the expansion, a rollout to the end (or `rollout_depth`
 *      decisions, or with `horizon` the next chance event too large to list,
 *      then `evaluate`): moves by the game's `policy` when it has one (and
 *      `policy` is on), else uniformly random;
 *   4. each node on each tree's path adds the utility of the seat that made
 *      the move into it.
 * Work per step in the tree: O(legal + children) with a stamped hash set of
 * the legal actions; nothing is allocated after the worker starts.
 */
#include "mcts.h"

#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "parlour/alloc.h"

#define NONE 0xffffffffu
#define MAX_PATH 2048     /* tree steps of one iteration; deeper steps roll out */
#define MAX_CHANCE_TREE 64 /* chance nodes with more outcomes are not branched on */
#define HASH_SIZE 16384   /* >= 2 * PL_MAX_ACTIONS, a power of two */
_Static_assert(HASH_SIZE >= 2 * PL_MAX_ACTIONS && (HASH_SIZE & (HASH_SIZE - 1)) == 0,
               "the legal-action hash set stays at most half full and masks its index");
_Static_assert(MAX_CHANCE_TREE <= PL_MAX_CHANCE, "chance nodes branch on listed outcomes only");

typedef struct mcts_node {
    uint64_t key;           /* edge: the action, or a seat's view of it */
    uint32_t child, sibling;
    uint32_t visits, avail;
    double wsum;            /* sum of the mover's utility */
    int mover;              /* seat that moved into this node, PL_CHANCE for chance */
} mcts_node;

typedef struct worker {
    const pl_game *g;
    const void *root;
    int seat, nseats, ntrees;
    bool policy; /* rollouts by g->policy */
    const mcts_params *p;
    long iters;
    struct timespec deadline;
    bool timed;
    pl_rng rng;
    mcts_node *nodes;
    uint32_t cap, used;
    bool full;
    void *det;
    pl_action *acts;
    pl_action *cacts;
    double *cprob;
    uint32_t *path[PL_MAX_SEATS];
    int plen[PL_MAX_SEATS];
    uint32_t *hslot, *hstamp, *found, gen;
    pl_buf txt;
    long done;
} worker;

void mcts_defaults(mcts_params *p)
{
    memset(p, 0, sizeof *p);
    p->iterations = 1000;
    p->threads = 1;
    p->arena_bytes = (size_t)32 << 20;
    p->c = 0.7;
    p->observers = 1;
    p->policy = 1;
}

void mcts_hard_params(const pl_game *g, long iterations, int threads, mcts_params *p)
{
    mcts_defaults(p);
    p->iterations = iterations;
    p->threads = threads > 0 ? threads : 1;
    for (const pl_level *lv = g->levels; lv && lv->name; lv++)
        if (!strcmp(lv->name, "hard") && lv->spec && !strncmp(lv->spec, "mcts", 4)) {
            p->horizon = strstr(lv->spec, "horizon=1") != NULL;
            p->policy = strstr(lv->spec, "policy=0") == NULL;
        }
}

size_t mcts_node_size(void) { return sizeof(mcts_node); }

static uint32_t node_new(worker *w, uint32_t parent, uint64_t key, int mover)
{
    if (w->used >= w->cap) {
        w->full = true;
        return NONE;
    }
    uint32_t i = w->used++;
    mcts_node *n = &w->nodes[i];
    n->key = key;
    n->child = NONE;
    n->sibling = NONE;
    n->visits = 0;
    n->avail = 1;
    n->wsum = 0;
    n->mover = mover;
    if (parent != NONE) {
        n->sibling = w->nodes[parent].child;
        w->nodes[parent].child = i;
    }
    return i;
}

static uint64_t text_hash(const char *s)
{
    return pl_mix64(pl_hash_str(s));
}

/* The key of the edge `a` by `mover` in tree `t` (the tree of seat t). */
static uint64_t view_key(worker *w, const void *st, int t, int mover, pl_action a, bool simult)
{
    if (w->ntrees == 1 || t == mover)
        return a;
    if (simult) /* several seats act at once: the others see only that it acted */
        return pl_mix64(0x51a7u + (uint64_t)mover);
    pl_buf_clear(&w->txt);
    w->g->format_action_for(st, mover, a, t, &w->txt);
    return text_hash(pl_buf_str(&w->txt));
}

static bool push(worker *w, int t, uint32_t nd)
{
    if (w->plen[t] >= MAX_PATH)
        return false;
    w->path[t][w->plen[t]++] = nd;
    return true;
}

/* Follows (or creates) the child `key` of tree t's current node. */
static bool follow(worker *w, int t, uint32_t *cur, uint64_t key, int mover)
{
    uint32_t c = w->nodes[cur[t]].child;
    while (c != NONE && w->nodes[c].key != key)
        c = w->nodes[c].sibling;
    if (c == NONE)
        c = node_new(w, cur[t], key, mover);
    if (c == NONE || !push(w, t, c))
        return false;
    cur[t] = c;
    return true;
}

static int hash_find(const worker *w, uint64_t key, const pl_action *acts)
{
    uint32_t h = (uint32_t)pl_mix64(key) & (HASH_SIZE - 1);
    while (w->hstamp[h] == w->gen) {
        if (acts[w->hslot[h]] == key)
            return (int)w->hslot[h];
        h = (h + 1) & (HASH_SIZE - 1);
    }
    return -1;
}

static void hash_build(worker *w, const pl_action *acts, int n)
{
    w->gen++;
    for (int i = 0; i < n; i++) {
        uint32_t h = (uint32_t)pl_mix64(acts[i]) & (HASH_SIZE - 1);
        while (w->hstamp[h] == w->gen)
            h = (h + 1) & (HASH_SIZE - 1);
        w->hstamp[h] = w->gen;
        w->hslot[h] = (uint32_t)i;
    }
}

/* UCT choice at node `nd` among `acts`: returns the index of the action and
 * sets *child (NONE when the arena is full) and *expanded. */
static int tree_select(worker *w, uint32_t nd, const pl_action *acts, int n, int mover,
                       uint32_t *child, bool *expanded)
{
    *expanded = false;
    int nfound = 0, best = -1;
    uint32_t bestc = NONE;
    double bestv = -1;
    if (w->nodes[nd].child != NONE) {
        hash_build(w, acts, n);
        for (uint32_t c = w->nodes[nd].child; c != NONE; c = w->nodes[c].sibling) {
            mcts_node *x = &w->nodes[c];
            int i = hash_find(w, x->key, acts);
            if (i < 0)
                continue; /* not legal in this determinization */
            w->found[i] = w->gen;
            nfound++;
            x->avail++;
            double v = x->visits ? x->wsum / x->visits + w->p->c * sqrt(log((double)x->avail) / x->visits)
                                 : 1e9;
            if (v > bestv) {
                bestv = v;
                best = i;
                bestc = c;
            }
        }
    }
    if (nfound < n) { /* expand one untried action, chosen at random */
        int r = (int)pl_rng_below(&w->rng, (uint32_t)(n - nfound));
        int i = 0;
        for (;; i++)
            if (!(nfound && w->found[i] == w->gen) && r-- == 0)
                break;
        *child = node_new(w, nd, acts[i], mover);
        *expanded = true;
        return i;
    }
    *child = bestc;
    return best;
}

static void worker_iterate(worker *w)
{
    const pl_game *g = w->g;
    void *st = w->det;
    int seats[PL_MAX_SEATS];
    uint32_t cur[PL_MAX_SEATS];
    double u[PL_MAX_SEATS] = {0};
    g->determinize(w->root, w->seat, &w->rng, st);
    for (int t = 0; t < w->ntrees; t++) {
        cur[t] = (uint32_t)t;
        w->plen[t] = 0;
        push(w, t, (uint32_t)t);
    }
    bool tree = true;
    int depth = 0;
    for (;;) {
        pl_phase ph = g->phase(st);
        if (ph == PL_PHASE_OVER) {
            pl_outcome o;
            memset(&o, 0, sizeof o);
            g->outcome(st, &o);
            long lo = o.score[0], hi = o.score[0];
            for (int s = 1; s < w->nseats; s++) {
                lo = o.score[s] < lo ? o.score[s] : lo;
                hi = o.score[s] > hi ? o.score[s] : hi;
            }
            double k = w->p->score_weight;
            for (int s = 0; s < w->nseats; s++) /* the margin breaks ties between wins */
                u[s] = (1 - k) * o.utility[s] + (hi > lo ? k * (double)(o.score[s] - lo) / (double)(hi - lo) : k * 0.5);
            break;
        }
        if (ph == PL_PHASE_CHANCE) {
            if (tree || w->p->horizon) {
                int n = pl_chance_all(g, st, w->cacts, w->cprob);
                if (w->p->horizon && n < 0) { /* the horizon: a new deal */
                    for (int s = 0; s < w->nseats; s++)
                        u[s] = g->evaluate ? g->evaluate(st, s) : 0.5;
                    break;
                }
                if (n < 0 || n > MAX_CHANCE_TREE)
                    tree = false;
            }
            pl_action a = pl_draw_chance(g, st, &w->rng);
            if (tree) {
                for (int t = 0; tree && t < w->ntrees; t++)
                    tree = follow(w, t, cur, view_key(w, st, t, PL_CHANCE, a, false), PL_CHANCE);
            }
            g->apply(st, PL_CHANCE, a);
            continue;
        }
        int na = g->actors(st, seats), actor = seats[0];
        for (int i = 1; i < na; i++)
            if (seats[i] == w->seat)
                actor = w->seat; /* simultaneous: our seat decides first */
        if (!tree && w->policy) { /* rollout by the game's policy: no legal list */
            if (w->p->rollout_depth && ++depth > w->p->rollout_depth) {
                for (int s = 0; s < w->nseats; s++)
                    u[s] = g->evaluate ? g->evaluate(st, s) : 0.5;
                break;
            }
            g->apply(st, actor, g->policy(st, actor, &w->rng));
            continue;
        }
        int n = pl_legal_all(g, st, actor, w->acts);
        if (n <= 0 || (!tree && w->p->rollout_depth && ++depth > w->p->rollout_depth)) {
            for (int s = 0; s < w->nseats; s++)
                u[s] = g->evaluate ? g->evaluate(st, s) : 0.5;
            break;
        }
        int idx;
        bool expanded = false;
        if (tree) {
            int T = w->ntrees == 1 ? 0 : actor;
            uint32_t child;
            idx = tree_select(w, cur[T], w->acts, n, actor, &child, &expanded);
            if (child == NONE || !push(w, T, child)) {
                tree = false;
            } else {
                cur[T] = child;
                for (int t = 0; tree && t < w->ntrees; t++)
                    if (t != T)
                        tree = follow(w, t, cur, view_key(w, st, t, actor, w->acts[idx], na > 1), actor);
            }
        } else {
            idx = (int)pl_rng_below(&w->rng, (uint32_t)n);
        }
        g->apply(st, actor, w->acts[idx]);
        if (expanded)
            tree = false;
    }
    for (int t = 0; t < w->ntrees; t++)
        for (int i = 0; i < w->plen[t]; i++) {
            mcts_node *x = &w->nodes[w->path[t][i]];
            x->visits++;
            if (x->mover >= 0)
                x->wsum += u[x->mover];
        }
    w->done++;
}

static bool past(const struct timespec *d)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec > d->tv_sec || (now.tv_sec == d->tv_sec && now.tv_nsec >= d->tv_nsec);
}

static void *worker_run(void *arg)
{
    worker *w = arg;
    for (long i = 0; w->iters <= 0 || i < w->iters; i++) {
        if (w->timed && (i & 15) == 0 && i > 0 && past(&w->deadline))
            break;
        worker_iterate(w);
    }
    return NULL;
}

static void worker_free(worker *w)
{
    pl_free(w->nodes);
    pl_free(w->det);
    pl_free(w->acts);
    pl_free(w->cacts);
    pl_free(w->cprob);
    for (int t = 0; t < PL_MAX_SEATS; t++)
        pl_free(w->path[t]);
    pl_free(w->hslot);
    pl_free(w->hstamp);
    pl_free(w->found);
    pl_buf_free(&w->txt);
}

static int worker_init(worker *w, const pl_game *g, const void *st, int seat, const mcts_params *p,
                       int ntrees, size_t bytes)
{
    w->g = g;
    w->root = st;
    w->seat = seat;
    w->nseats = g->num_seats(st);
    w->ntrees = ntrees;
    w->p = p;
    w->policy = p->policy && g->policy;
    size_t cap = bytes / sizeof(mcts_node);
    if (cap > 0x7fffffffu)
        cap = 0x7fffffffu;
    w->cap = (uint32_t)cap;
    w->nodes = pl_malloc(sizeof(mcts_node) * (w->cap ? w->cap : 1));
    w->det = pl_malloc(g->state_size);
    w->acts = pl_malloc(sizeof(pl_action) * PL_MAX_ACTIONS);
    w->cacts = pl_malloc(sizeof(pl_action) * PL_MAX_CHANCE);
    w->cprob = pl_malloc(sizeof(double) * PL_MAX_CHANCE);
    w->hslot = pl_malloc(sizeof(uint32_t) * HASH_SIZE);
    w->hstamp = pl_calloc(HASH_SIZE, sizeof(uint32_t));
    w->found = pl_calloc(PL_MAX_ACTIONS, sizeof(uint32_t));
    bool ok = w->nodes && w->det && w->acts && w->cacts && w->cprob && w->hslot && w->hstamp && w->found;
    for (int t = 0; t < ntrees && ok; t++)
        ok = (w->path[t] = pl_malloc(sizeof(uint32_t) * MAX_PATH)) != NULL;
    if (!ok)
        return -1;
    for (int t = 0; t < ntrees; t++)
        node_new(w, NONE, 0, PL_CHANCE); /* the roots: nodes 0..ntrees-1 */
    return 0;
}

/* Checks the parameters and the seat; 0, or -1 with a message. */
static int check(const pl_game *g, const void *st, int seat, const mcts_params *p, pl_buf *err)
{
    if (p->threads < 1 || p->threads > MCTS_MAX_THREADS || p->iterations < 0 || p->ms < 0 ||
        (p->iterations == 0 && p->ms == 0) || p->rollout_depth < 0) {
        pl_buf_puts(err, "mcts: bad parameters (threads 1-8, a budget of iterations or ms)");
        return -1;
    }
    if (!pl_is_actor(g, st, seat)) {
        pl_buf_printf(err, "seat %d does not act now", seat);
        return -1;
    }
    int nseats = g->num_seats(st);
    int ntrees = p->observers && g->format_action_for && nseats > 1 ? nseats : 1;
    size_t per = p->arena_bytes / (size_t)p->threads;
    if (per < sizeof(mcts_node) * (size_t)(ntrees + 1)) {
        pl_buf_printf(err, "mcts: arena of %zu bytes is too small (at least %zu per thread)", p->arena_bytes,
                      sizeof(mcts_node) * (size_t)(ntrees + 1));
        return -1;
    }
    return 0;
}

/* Runs the search of `p` from `st` for `seat` on the workers `w` (zeroed by
 * the caller, freed by the caller with worker_free whatever the result).
 * Sets *ntrees. 0, or -1 with a message. */
static int search(const pl_game *g, const void *st, int seat, const mcts_params *p, uint64_t seed,
                  worker *w, int *ntrees_out, pl_buf *err)
{
    int nseats = g->num_seats(st);
    int ntrees = p->observers && g->format_action_for && nseats > 1 ? nseats : 1;
    int nth = p->threads;
    size_t per = p->arena_bytes / (size_t)nth;
    *ntrees_out = ntrees;
    int rc = 0;
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_sec += p->ms / 1000;
    deadline.tv_nsec += (p->ms % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec++;
        deadline.tv_nsec -= 1000000000L;
    }
    for (int i = 0; i < nth; i++) {
        long iters = p->iterations ? p->iterations / nth + (i < p->iterations % nth) : 0;
        size_t bytes = per;
        /* An iteration budget cannot fill more than a few nodes per iteration
         * and tree (measured: at most 3.3 with four trees): a smaller arena
         * is cheaper to map. */
        if (iters > 0 && p->ms == 0) {
            size_t need = sizeof(mcts_node) * ((size_t)iters * 4 * (size_t)(ntrees + 1) + 1024);
            bytes = need < per ? need : per;
        }
        if (worker_init(&w[i], g, st, seat, p, ntrees, bytes) < 0) {
            pl_buf_puts(err, "out of memory");
            rc = -1;
            break;
        }
        w[i].iters = iters;
        w[i].timed = p->ms > 0;
        w[i].deadline = deadline;
        pl_rng_seed(&w[i].rng, pl_mix64(seed + 0x9e3779b97f4a7c15ull * (uint64_t)(i + 1)));
    }
    pthread_t th[MCTS_MAX_THREADS];
    bool started[MCTS_MAX_THREADS] = {false};
    if (rc == 0) {
        for (int i = 1; i < nth; i++) {
            if (pthread_create(&th[i], NULL, worker_run, &w[i]) != 0) {
                pl_buf_puts(err, "mcts: cannot start a thread");
                rc = -1;
                break;
            }
            started[i] = true;
        }
        if (rc == 0)
            worker_run(&w[0]);
        for (int i = 1; i < nth; i++)
            if (started[i])
                pthread_join(th[i], NULL);
    }
    return rc;
}

/* Sums the threads' root statistics of the action acts[i]: *visits, *wsum. */
static void root_sum(const worker *w, int nth, int T, pl_action a, double *visits, double *wsum)
{
    *visits = 0;
    *wsum = 0;
    for (int k = 0; k < nth; k++)
        for (uint32_t c = w[k].nodes[T].child; c != NONE; c = w[k].nodes[c].sibling)
            if (w[k].nodes[c].key == a) {
                *visits += w[k].nodes[c].visits;
                *wsum += w[k].nodes[c].wsum;
            }
}

static void fill_stats(const worker *w, int nth, mcts_stats *stats)
{
    if (!stats)
        return;
    memset(stats, 0, sizeof *stats);
    for (int k = 0; k < nth; k++) {
        stats->iterations += w[k].done;
        stats->nodes += w[k].used;
        stats->bytes += (size_t)w[k].cap * sizeof(mcts_node);
        stats->full |= w[k].full;
    }
}

int mcts_choose(const pl_game *g, const void *st, int seat, const mcts_params *p, uint64_t seed,
                pl_action *out, mcts_stats *stats, pl_buf *err)
{
    if (check(g, st, seat, p, err) < 0)
        return -1;
    pl_action only[2];
    if (g->legal(st, seat, only, 2) == 1) { /* nothing to search */
        *out = only[0];
        if (stats)
            memset(stats, 0, sizeof *stats);
        return 0;
    }
    worker w[MCTS_MAX_THREADS];
    memset(w, 0, sizeof w);
    int ntrees = 1, nth = p->threads;
    int rc = search(g, st, seat, p, seed, w, &ntrees, err);
    if (rc == 0) {
        /* Merge: visits per legal root action, summed over threads. */
        int n = pl_legal_all(g, st, seat, w[0].acts);
        int T = ntrees == 1 ? 0 : seat, best = 0;
        double bestv = -1, bestq = -1;
        for (int i = 0; i < n; i++) {
            double v, q;
            root_sum(w, nth, T, w[0].acts[i], &v, &q);
            q = v > 0 ? q / v : 0;
            if (v > bestv || (v == bestv && q > bestq)) {
                bestv = v;
                bestq = q;
                best = i;
            }
        }
        *out = w[0].acts[best];
        fill_stats(w, nth, stats);
    }
    for (int i = 0; i < nth; i++)
        worker_free(&w[i]);
    return rc;
}

int mcts_analyse(const pl_game *g, const void *st, int seat, const mcts_params *p, uint64_t seed,
                 mcts_root *out, int max, int *best, mcts_stats *stats, pl_buf *err)
{
    if (check(g, st, seat, p, err) < 0)
        return -1;
    worker w[MCTS_MAX_THREADS];
    memset(w, 0, sizeof w);
    int ntrees = 1, nth = p->threads, n = -1;
    if (search(g, st, seat, p, seed, w, &ntrees, err) == 0) {
        n = pl_legal_all(g, st, seat, w[0].acts);
        if (n > max) {
            pl_buf_printf(err, "mcts: %d legal actions, room for %d", n, max);
            n = -1;
        }
        int T = ntrees == 1 ? 0 : seat, b = 0;
        for (int i = 0; i < n; i++) {
            double v, q;
            root_sum(w, nth, T, w[0].acts[i], &v, &q);
            out[i].action = w[0].acts[i];
            out[i].visits = (long)v;
            out[i].mean = v > 0 ? q / v : 0;
            if (out[i].visits > out[b].visits || (out[i].visits == out[b].visits && out[i].mean > out[b].mean))
                b = i; /* mcts_choose's rule */
        }
        if (n >= 0) {
            if (best)
                *best = b;
            fill_stats(w, nth, stats);
        }
    }
    for (int i = 0; i < nth; i++)
        worker_free(&w[i]);
    return n;
}
