/* seek.c — the pool of seeks and its pairing (seek.h; docs/pairing.md).
 *
 * Layout. Seeks live in one array of slots (a free list reuses them); an
 * open-addressing table (linear probing, backward-shift deletion: no
 * tombstones) maps a seek's id to its slot. Each key holds the slots of its
 * waiting seeks in an array that a tick sorts by rating (then time made,
 * then id) when an add or a cancel has disturbed it; a cancel swaps the
 * last slot into the hole, so both stay O(1).
 *
 * A tick, per key, works on the sorted list of waiting seeks in rounds. In
 * a round every active seek looks for the best group in which it has the
 * lowest rating, among the still waiting seeks above it within its window
 * (sorted, so the scan stops at the window's edge): for two people the
 * nearest mutually compatible seek (which is the best: any nearer one would
 * be compatible and found first), for more a branch-and-bound search over
 * the candidates in rating order that keeps the smallest spread, bounded by
 * the pool's budget of members tried. The round's candidates are sorted
 * (spread, oldest member, lowest id) and taken greedily when all their
 * members are still free; the best is always taken, so each round pairs at
 * least one group, and rounds stop when none is found. A seek that found
 * nothing stays out of the next rounds: rounds only remove seeks, which
 * cannot make a group appear. (With groups of three or more a search that
 * ran out of budget may have missed one; it is not retried before the next
 * tick, so that a tick's work stays bounded by the budget: at most `budget`
 * members tried per seek and round.)
 */
#include "seek.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct seek_ent {
    uint64_t id;
    double rating, start, cap; /* the window: min(cap, start + widen * wait) */
    double w;                  /* the window at the tick being run */
    int64_t made;
    int comp_s;
    int key;  /* index in seek_pool.keys; -1: a free slot (next free in pos) */
    int pos;  /* index in its key's array; for a free slot, the next free slot */
    int mark; /* during a tick: 1 paired */
} seek_ent;

typedef struct seek_key {
    char name[SEEK_MAX_KEY + 1];
    int players;
    int *m; /* slots of the waiting seeks */
    int n, cap;
    int sorted;
} seek_key;

typedef struct seek_cand {
    double spread;
    int64_t oldest;
    uint64_t low_id;
    int pos[SEEK_MAX_PLAYERS]; /* positions in the round's list (sorted by rating) */
} seek_cand;

struct seek_pool {
    seek_config cfg;
    seek_ent *s;
    int ns, caps, free_head; /* slots used so far, allocated, first free (-1 none) */
    int live;
    int32_t *tab; /* id -> slot, -1 empty; size tabn, a power of two */
    size_t tabn;
    seek_key *keys;
    int nkeys;
    /* tick scratch */
    seek_pairing *out;
    size_t nout, capout;
    seek_cand *cand;
    int *list, *act, *found;
    size_t capscratch;
};

static uint64_t seek_hash(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

/* The slot of `id`, or -1; *at gets the table index where it is or would go. */
static int seek_find(const seek_pool *p, uint64_t id, size_t *at)
{
    size_t mask = p->tabn - 1, i = seek_hash(id) & mask;
    while (p->tab[i] >= 0) {
        if (p->s[p->tab[i]].id == id) {
            if (at)
                *at = i;
            return p->tab[i];
        }
        i = (i + 1) & mask;
    }
    if (at)
        *at = i;
    return -1;
}

/* Removes table entry i (linear probing's backward shift). */
static void seek_tab_del(seek_pool *p, size_t i)
{
    size_t mask = p->tabn - 1, j = i;
    for (;;) {
        j = (j + 1) & mask;
        if (p->tab[j] < 0)
            break;
        size_t home = seek_hash(p->s[p->tab[j]].id) & mask;
        /* j's entry may move to i when its home is not in (i, j] cyclically */
        if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
            p->tab[i] = p->tab[j];
            i = j;
        }
    }
    p->tab[i] = -1;
}

static int seek_tab_grow(seek_pool *p, size_t want)
{
    size_t n = p->tabn ? p->tabn : 64;
    while (n < want * 2)
        n *= 2;
    if (n == p->tabn)
        return 0;
    int32_t *t = malloc(n * sizeof *t);
    if (!t)
        return -1;
    for (size_t i = 0; i < n; i++)
        t[i] = -1;
    int32_t *old = p->tab;
    size_t oldn = p->tabn;
    p->tab = t;
    p->tabn = n;
    for (size_t i = 0; i < oldn; i++)
        if (old[i] >= 0) {
            size_t at;
            seek_find(p, p->s[old[i]].id, &at);
            p->tab[at] = old[i];
        }
    free(old);
    return 0;
}

seek_pool *seek_new(const seek_config *cfg)
{
    seek_config c = {0};
    if (cfg)
        c = *cfg;
    if (c.base < 0 || c.widen_per_s < 0 || c.cap < 0 || c.max_seeks < 0 || c.max_keys < 0 || c.budget < 0 ||
        !isfinite(c.base) || !isfinite(c.widen_per_s) || !isfinite(c.cap))
        return NULL;
    if (c.base == 0)
        c.base = 100;
    if (c.widen_per_s == 0)
        c.widen_per_s = 5;
    if (c.cap == 0)
        c.cap = 600;
    if (c.max_seeks == 0)
        c.max_seeks = 200000;
    if (c.max_keys == 0)
        c.max_keys = 256;
    if (c.budget == 0)
        c.budget = 256;
    if (c.cap < c.base || c.max_seeks > (1 << 28))
        return NULL;
    seek_pool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->cfg = c;
    p->free_head = -1;
    if (seek_tab_grow(p, 32) != 0) {
        free(p);
        return NULL;
    }
    return p;
}

void seek_free(seek_pool *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->nkeys; i++)
        free(p->keys[i].m);
    free(p->keys);
    free(p->s);
    free(p->tab);
    free(p->out);
    free(p->cand);
    free(p->list);
    free(p->act);
    free(p->found);
    free(p);
}

static int seek_key_ok(const char *k)
{
    if (!k || !*k)
        return 0;
    size_t n = 0;
    for (; k[n]; n++)
        if (n >= SEEK_MAX_KEY || k[n] <= ' ' || k[n] > '~')
            return 0;
    return 1;
}

static int seek_key_find(const seek_pool *p, const char *k)
{
    for (int i = 0; i < p->nkeys; i++)
        if (!strcmp(p->keys[i].name, k))
            return i;
    return -1;
}

int seek_add(seek_pool *p, const seek_req *r)
{
    if (!r || !seek_key_ok(r->key) || r->players < 2 || r->players > SEEK_MAX_PLAYERS ||
        !isfinite(r->rating) || r->rating < SEEK_MIN_RATING || r->rating > SEEK_MAX_RATING ||
        !isfinite(r->rd) || r->rd < 0 || r->rd > SEEK_MAX_RD || r->computer_after_s < 0 ||
        r->computer_after_s > SEEK_MAX_COMPUTER_S ||
        (r->range != 0 && (r->range < SEEK_MIN_RANGE || r->range > SEEK_MAX_RANGE)))
        return SEEK_EINVAL;
    if (seek_find(p, r->id, NULL) >= 0)
        return SEEK_EDUP;
    if (p->live >= p->cfg.max_seeks)
        return SEEK_EFULL;
    int k = seek_key_find(p, r->key);
    if (k >= 0 && p->keys[k].players != r->players)
        return SEEK_EPLAYERS;
    if (k < 0 && p->nkeys >= p->cfg.max_keys)
        return SEEK_EKEYS;
    /* Reserve everything first, so that a failure leaves the pool unchanged. */
    if ((size_t)p->live + 1 > p->tabn / 2 && seek_tab_grow(p, (size_t)p->live + 1) != 0)
        return SEEK_ENOMEM;
    if (p->free_head < 0 && p->ns == p->caps) {
        int nc = p->caps ? p->caps * 2 : 64;
        seek_ent *s = realloc(p->s, (size_t)nc * sizeof *s);
        if (!s)
            return SEEK_ENOMEM;
        p->s = s;
        p->caps = nc;
    }
    if (k < 0) {
        /* all max_keys at once: the array never moves, so the names the
         * pairings point at stay where they are while the pool lives */
        if (!p->keys && !(p->keys = calloc((size_t)p->cfg.max_keys, sizeof *p->keys)))
            return SEEK_ENOMEM;
        seek_key *ks = p->keys;
        k = p->nkeys++;
        memset(&ks[k], 0, sizeof ks[k]);
        strcpy(ks[k].name, r->key);
        ks[k].players = r->players;
        ks[k].sorted = 1;
    }
    seek_key *key = &p->keys[k];
    if (key->n == key->cap) {
        int nc = key->cap ? key->cap * 2 : 16;
        int *m = realloc(key->m, (size_t)nc * sizeof *m);
        if (!m)
            return SEEK_ENOMEM; /* a new key stays known, empty: harmless */
        key->m = m;
        key->cap = nc;
    }
    int slot;
    if (p->free_head >= 0) {
        slot = p->free_head;
        p->free_head = p->s[slot].pos;
    } else {
        slot = p->ns++;
    }
    seek_ent *e = &p->s[slot];
    e->id = r->id;
    e->rating = r->rating;
    e->cap = r->range ? r->range : p->cfg.cap;
    e->start = r->rd > p->cfg.base ? r->rd : p->cfg.base;
    e->w = 0;
    e->made = r->made_ms;
    e->comp_s = r->computer_after_s;
    e->key = k;
    e->mark = 0;
    e->pos = key->n;
    key->m[key->n++] = slot;
    /* still sorted when it comes strictly above the last (equal ratings sort by time and id) */
    key->sorted = key->n == 1 || (key->sorted && p->s[key->m[key->n - 2]].rating < r->rating);
    size_t at;
    seek_find(p, r->id, &at);
    p->tab[at] = slot;
    p->live++;
    return SEEK_OK;
}

/* Frees slot `slot` (its key's array is the caller's business). */
static void seek_release(seek_pool *p, int slot)
{
    size_t at;
    int found = seek_find(p, p->s[slot].id, &at);
    assert(found == slot);
    (void)found;
    seek_tab_del(p, at);
    p->s[slot].key = -1;
    p->s[slot].pos = p->free_head;
    p->free_head = slot;
    p->live--;
}

int seek_cancel(seek_pool *p, uint64_t id)
{
    int slot = seek_find(p, id, NULL);
    if (slot < 0)
        return 0;
    seek_key *key = &p->keys[p->s[slot].key];
    int pos = p->s[slot].pos;
    assert(pos >= 0 && pos < key->n && key->m[pos] == slot);
    int last = key->m[--key->n];
    if (last != slot) {
        key->m[pos] = last;
        p->s[last].pos = pos;
        key->sorted = 0;
    }
    seek_release(p, slot);
    return 1;
}

static double seek_w(const seek_pool *p, const seek_ent *e, int64_t now)
{
    double wait = now > e->made ? (double)(now - e->made) / 1000.0 : 0.0;
    double w = e->start + p->cfg.widen_per_s * wait;
    return w < e->cap ? w : e->cap;
}

double seek_window(const seek_pool *p, uint64_t id, int64_t now_ms)
{
    int slot = seek_find(p, id, NULL);
    return slot < 0 ? -1 : seek_w(p, &p->s[slot], now_ms);
}

/* Sorting a key's slots: rating, then made, then id (ids are unique). The
 * pool is passed through a file-level pointer because qsort has no context
 * argument; a pool belongs to one thread and a tick does not nest. */
static const seek_ent *seek_sort_s;

static int seek_cmp_slot(const void *a, const void *b)
{
    const seek_ent *x = &seek_sort_s[*(const int *)a], *y = &seek_sort_s[*(const int *)b];
    if (x->rating != y->rating)
        return x->rating < y->rating ? -1 : 1;
    if (x->made != y->made)
        return x->made < y->made ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

static int seek_cmp_cand(const void *a, const void *b)
{
    const seek_cand *x = a, *y = b;
    if (x->spread != y->spread)
        return x->spread < y->spread ? -1 : 1;
    if (x->oldest != y->oldest)
        return x->oldest < y->oldest ? -1 : 1;
    return x->low_id < y->low_id ? -1 : x->low_id > y->low_id;
}

/* The search for groups of three or more with list[i] lowest. */
typedef struct seek_dfs {
    const seek_ent *s;
    const int *m;    /* key's slots, sorted */
    const int *list; /* positions in m still waiting, in rating order */
    int nlist, k, budget;
    double lo, wlo;  /* the lowest member's rating and window */
    int cur[SEEK_MAX_PLAYERS], depth;
    int best[SEEK_MAX_PLAYERS];
    double best_spread; /* HUGE_VAL: none yet */
} seek_dfs;

static void seek_dfs_run(seek_dfs *d, int from)
{
    for (int j = from; j < d->nlist && d->budget > 0; j++) {
        const seek_ent *e = &d->s[d->m[d->list[j]]];
        double dr = e->rating - d->lo;
        if (dr > d->wlo || dr >= d->best_spread)
            return; /* sorted: every later one is farther */
        d->budget--;
        int ok = 1;
        for (int c = 0; c < d->depth && ok; c++) {
            const seek_ent *o = &d->s[d->m[d->list[d->cur[c]]]];
            double g = e->rating - o->rating;
            ok = g <= o->w && g <= e->w;
        }
        if (!ok)
            continue;
        d->cur[d->depth++] = j;
        if (d->depth == d->k) {
            d->best_spread = dr;
            memcpy(d->best, d->cur, sizeof d->best);
        } else {
            seek_dfs_run(d, j + 1);
        }
        d->depth--;
    }
}

static int seek_reserve(seek_pool *p)
{
    size_t need = (size_t)p->live + 1;
    if (p->capout < need) {
        seek_pairing *o = realloc(p->out, need * sizeof *o);
        if (!o)
            return -1;
        p->out = o;
        p->capout = need;
    }
    size_t most = 1;
    for (int k = 0; k < p->nkeys; k++)
        if ((size_t)p->keys[k].n > most)
            most = (size_t)p->keys[k].n;
    if (p->capscratch < most) {
        seek_cand *c = realloc(p->cand, most * sizeof *c);
        if (c)
            p->cand = c;
        int *l = realloc(p->list, most * sizeof *l);
        if (l)
            p->list = l;
        int *a = realloc(p->act, most * sizeof *a);
        if (a)
            p->act = a;
        int *f = realloc(p->found, most * sizeof *f);
        if (f)
            p->found = f;
        if (!c || !l || !a || !f)
            return -1;
        p->capscratch = most;
    }
    return 0;
}

static void seek_emit(seek_pool *p, const seek_key *key, const seek_ent *const *mem, int n, int computer)
{
    seek_pairing *o = &p->out[p->nout++];
    memset(o, 0, sizeof *o);
    o->key = key->name;
    o->n = n;
    o->computer = computer;
    o->rating = computer ? mem[0]->rating : 0;
    o->spread = mem[n - 1]->rating - mem[0]->rating;
    for (int i = 0; i < n; i++)
        o->ids[i] = mem[i]->id;
}

/* Pairs the waiting seeks of one key (sorted) among themselves. */
static void seek_pair_key(seek_pool *p, seek_key *key)
{
    seek_ent *s = p->s;
    const int *m = key->m;
    int k = key->players, nlist = key->n, nact = key->n;
    for (int i = 0; i < nlist; i++)
        p->list[i] = p->act[i] = i; /* list: positions waiting; act: indices in list to search */
    while (nact > 0) {
        int nc = 0, nf = 0;
        for (int a = 0; a < nact; a++) {
            int i = p->act[a];
            const seek_ent *lo = &s[m[p->list[i]]];
            seek_cand *c = &p->cand[nc];
            int got = 0;
            if (k == 2) {
                for (int j = i + 1; j < nlist; j++) {
                    const seek_ent *e = &s[m[p->list[j]]];
                    double dr = e->rating - lo->rating;
                    if (dr > lo->w)
                        break;
                    if (dr <= e->w) {
                        c->spread = dr;
                        c->pos[0] = i;
                        c->pos[1] = j;
                        got = 1;
                        break;
                    }
                }
            } else {
                seek_dfs d = {.s = s, .m = m, .list = p->list, .nlist = nlist, .k = k,
                              .budget = p->cfg.budget, .lo = lo->rating, .wlo = lo->w,
                              .depth = 1, .best_spread = HUGE_VAL};
                d.cur[0] = i;
                seek_dfs_run(&d, i + 1);
                if (d.best_spread != HUGE_VAL) {
                    c->spread = d.best_spread;
                    memcpy(c->pos, d.best, sizeof c->pos);
                    got = 1;
                }
            }
            if (got) {
                c->oldest = INT64_MAX;
                c->low_id = lo->id;
                for (int t = 0; t < k; t++) {
                    const seek_ent *e = &s[m[p->list[c->pos[t]]]];
                    if (e->made < c->oldest)
                        c->oldest = e->made;
                }
                nc++;
            }
            if (got)
                p->found[nf++] = i;
        }
        if (nc == 0)
            break;
        qsort(p->cand, (size_t)nc, sizeof *p->cand, seek_cmp_cand);
        for (int c = 0; c < nc; c++) {
            const seek_cand *cd = &p->cand[c];
            int free_all = 1;
            for (int t = 0; t < k && free_all; t++)
                free_all = !s[m[p->list[cd->pos[t]]]].mark;
            if (!free_all)
                continue;
            const seek_ent *mem[SEEK_MAX_PLAYERS];
            for (int t = 0; t < k; t++) {
                seek_ent *e = &s[m[p->list[cd->pos[t]]]];
                e->mark = 1;
                mem[t] = e;
            }
            seek_emit(p, key, mem, k, 0);
        }
        /* The next round: the list without the paired, and the seeks that
         * found a group (or ran out of budget) and are still waiting. */
        int nl = 0, na = 0, f = 0;
        for (int i = 0; i < nlist; i++) {
            int was_found = f < nf && p->found[f] == i;
            if (was_found)
                f++;
            if (s[m[p->list[i]]].mark)
                continue;
            if (was_found)
                p->act[na++] = nl;
            p->list[nl++] = p->list[i];
        }
        nlist = nl;
        nact = na;
    }
}

const seek_pairing *seek_tick(seek_pool *p, int64_t now_ms, size_t *n)
{
    *n = 0;
    p->nout = 0;
    if (p->live == 0)
        return NULL;
    if (seek_reserve(p) != 0)
        return NULL;
    for (int k = 0; k < p->nkeys; k++) {
        seek_key *key = &p->keys[k];
        if (key->n == 0)
            continue;
        if (!key->sorted) {
            seek_sort_s = p->s;
            qsort(key->m, (size_t)key->n, sizeof *key->m, seek_cmp_slot);
            seek_sort_s = NULL;
            key->sorted = 1;
        }
        for (int i = 0; i < key->n; i++) {
            seek_ent *e = &p->s[key->m[i]];
            e->pos = i;
            e->w = seek_w(p, e, now_ms);
            e->mark = 0;
        }
        if (key->n >= key->players)
            seek_pair_key(p, key);
        /* The computer pairings, then the survivors closed up in order. */
        int w = 0;
        for (int i = 0; i < key->n; i++) {
            int slot = key->m[i];
            seek_ent *e = &p->s[slot];
            if (!e->mark && e->comp_s > 0 && now_ms - e->made >= (int64_t)e->comp_s * 1000) {
                const seek_ent *one = e;
                seek_emit(p, key, &one, 1, 1);
                e->mark = 1;
            }
            if (e->mark) {
                seek_release(p, slot);
                continue;
            }
            e->pos = w;
            key->m[w++] = slot;
        }
        key->n = w;
    }
    *n = p->nout;
    return p->nout ? p->out : NULL;
}

int seek_waiting(const seek_pool *p, const char *key)
{
    int k = key ? seek_key_find(p, key) : -1;
    return k < 0 ? 0 : p->keys[k].n;
}

int seek_total(const seek_pool *p)
{
    return p->live;
}

const char *seek_key_at(const seek_pool *p, int i, int *waiting)
{
    if (i < 0 || i >= p->nkeys)
        return NULL;
    if (waiting)
        *waiting = p->keys[i].n;
    return p->keys[i].name;
}

int seek_nearest_level(const seek_level *levels, size_t n, double rating)
{
    int best = -1;
    double bd = HUGE_VAL;
    for (size_t i = 0; i < n; i++) {
        double d = fabs(levels[i].rating - rating);
        if (d < bd) {
            bd = d;
            best = (int)i;
        }
    }
    return best;
}

const char *seek_strerror(int code)
{
    switch (code) {
    case SEEK_OK: return "ok";
    case SEEK_EDUP: return "this player already has a seek";
    case SEEK_EFULL: return "too many seeks waiting";
    case SEEK_EKEYS: return "too many kinds of game";
    case SEEK_EINVAL: return "a seek field is out of bounds";
    case SEEK_EPLAYERS: return "this game is known with another number of players";
    case SEEK_ENOMEM: return "out of memory";
    default: return "unknown seek error";
    }
}
