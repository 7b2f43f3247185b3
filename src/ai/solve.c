/* solve.c — generic exact solver for small games with chance (solve.h).
 *
 * Nodes are the chance-phase and final states, interned in an
 * open-addressing hash table keyed by the state's bytes. For each node and
 * each chance outcome the successors after the (single) actor's decision are
 * stored in CSR arrays. Values are iterated in place (Gauss-Seidel) in
 * reverse discovery order, so that most successors are fresh.
 */
#include "solve.h"

#include <string.h>
#include <time.h>

#include "parlour/alloc.h"

#define MAGIC "PLSOLVE1"
#define NO_NODE UINT32_MAX
#define MAX_NODES 60000000u

typedef struct store {
    size_t ssz;
    uint8_t *states; /* node i at states + i * ssz */
    uint32_t n, cap;
    uint32_t *hash; /* node ids, NO_NODE when empty */
    uint64_t hcap;  /* power of two */
} store;

static uint64_t hash_bytes(const uint8_t *p, size_t n)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
        p += 8;
        n -= 8;
    }
    uint64_t w = 0;
    memcpy(&w, p, n);
    h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 29);
}

static int grow_hash(store *s)
{
    uint64_t cap = s->hcap ? s->hcap * 2 : 1u << 16;
    uint32_t *h = pl_malloc(sizeof *h * cap);
    if (!h)
        return -1;
    memset(h, 0xff, sizeof *h * cap);
    for (uint32_t i = 0; i < s->n; i++) {
        uint64_t k = hash_bytes(s->states + (size_t)i * s->ssz, s->ssz) & (cap - 1);
        while (h[k] != NO_NODE)
            k = (k + 1) & (cap - 1);
        h[k] = i;
    }
    pl_free(s->hash);
    s->hash = h;
    s->hcap = cap;
    return 0;
}

/* Id of state `st`, adding it when new (*added = 1). NO_NODE on failure. */
static uint32_t intern(store *s, const void *st, int *added)
{
    *added = 0;
    if ((uint64_t)s->n * 2 >= s->hcap && grow_hash(s) < 0)
        return NO_NODE;
    uint64_t k = hash_bytes(st, s->ssz) & (s->hcap - 1);
    while (s->hash[k] != NO_NODE) {
        if (!memcmp(s->states + (size_t)s->hash[k] * s->ssz, st, s->ssz))
            return s->hash[k];
        k = (k + 1) & (s->hcap - 1);
    }
    if (s->n >= MAX_NODES)
        return NO_NODE;
    if (s->n == s->cap) {
        uint32_t cap = s->cap ? s->cap * 2 : 4096;
        uint8_t *p = pl_realloc(s->states, (size_t)cap * s->ssz);
        if (!p)
            return NO_NODE;
        s->states = p;
        s->cap = cap;
    }
    memcpy(s->states + (size_t)s->n * s->ssz, st, s->ssz);
    s->hash[k] = s->n;
    *added = 1;
    return s->n++;
}

static uint32_t lookup(const store *s, const void *st)
{
    uint64_t k = hash_bytes(st, s->ssz) & (s->hcap - 1);
    while (s->hash[k] != NO_NODE) {
        if (!memcmp(s->states + (size_t)s->hash[k] * s->ssz, st, s->ssz))
            return s->hash[k];
        k = (k + 1) & (s->hcap - 1);
    }
    return NO_NODE;
}

/* A growable uint32 / double / int8 array. */
#define VEC(T, name)                                                                              \
    typedef struct name {                                                                         \
        T *v;                                                                                     \
        uint64_t n, cap;                                                                          \
    } name;                                                                                       \
    static int name##_push(name *a, T x)                                                          \
    {                                                                                             \
        if (a->n == a->cap) {                                                                     \
            uint64_t cap = a->cap ? a->cap * 2 : 1024;                                            \
            T *p = pl_realloc(a->v, sizeof *p * cap);                                             \
            if (!p)                                                                               \
                return -1;                                                                        \
            a->v = p;                                                                             \
            a->cap = cap;                                                                         \
        }                                                                                         \
        a->v[a->n++] = x;                                                                         \
        return 0;                                                                                 \
    }
VEC(uint32_t, vec_u32)
VEC(uint64_t, vec_u64)
VEC(double, vec_f64)
VEC(int8_t, vec_i8)

typedef struct graph {
    store s;
    vec_u64 node_out;   /* first outcome of node i (n+1 entries when built) */
    vec_f64 out_p;      /* outcome probability */
    vec_i8 out_actor;   /* seat choosing among the outcome's children; -1 none, -2 final node */
    vec_u64 out_child;  /* first child of outcome j (entries for n_out+1) */
    vec_u32 child;      /* node ids */
} graph;

static void graph_free(graph *gr)
{
    pl_free(gr->s.states);
    pl_free(gr->s.hash);
    pl_free(gr->node_out.v);
    pl_free(gr->out_p.v);
    pl_free(gr->out_actor.v);
    pl_free(gr->out_child.v);
    pl_free(gr->child.v);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Enumerates every node reachable from `root`. */
static int build(const pl_game *g, const void *root, graph *gr, FILE *progress, pl_buf *err)
{
    size_t ssz = g->state_size;
    gr->s.ssz = ssz;
    void *a = pl_malloc(ssz), *b = pl_malloc(ssz), *cur = pl_malloc(ssz);
    pl_action *acts = pl_malloc(sizeof *acts * PL_MAX_ACTIONS);
    int rc = -1, added;
    double last = now();
    if (!a || !b || !cur || !acts)
        goto oom;
    if (intern(&gr->s, root, &added) == NO_NODE)
        goto oom;
    for (uint32_t u = 0; u < gr->s.n; u++) {
        memcpy(cur, gr->s.states + (size_t)u * ssz, ssz);
        if (vec_u64_push(&gr->node_out, gr->out_p.n) < 0)
            goto oom;
        pl_phase ph = g->phase(cur);
        if (ph == PL_PHASE_OVER) {
            pl_outcome o;
            memset(&o, 0, sizeof o);
            g->outcome(cur, &o);
            if (vec_f64_push(&gr->out_p, o.utility[0]) < 0 || vec_i8_push(&gr->out_actor, -2) < 0 ||
                vec_u64_push(&gr->out_child, gr->child.n) < 0)
                goto oom;
            continue;
        }
        if (ph != PL_PHASE_CHANCE) {
            pl_buf_puts(err, "the solver needs a chance phase at the root and after every decision");
            goto done;
        }
        pl_action outc[PL_MAX_CHANCE];
        double p[PL_MAX_CHANCE];
        int no = g->chance(cur, outc, p, PL_MAX_CHANCE);
        if (no < 0) {
            pl_buf_puts(err, "the solver needs chance outcomes that can be listed");
            goto done;
        }
        for (int i = 0; i < no; i++) {
            if (p[i] <= 0)
                continue;
            pl_state_copy(g, a, cur);
            g->apply(a, PL_CHANCE, outc[i]);
            int actor = -1;
            if (vec_f64_push(&gr->out_p, p[i]) < 0 || vec_u64_push(&gr->out_child, gr->child.n) < 0)
                goto oom;
            if (g->phase(a) == PL_PHASE_MOVE) {
                int seats[PL_MAX_SEATS];
                if (g->actors(a, seats) != 1) {
                    pl_buf_puts(err, "the solver needs one seat acting at a time");
                    goto done;
                }
                actor = seats[0];
                int n = g->legal(a, actor, acts, PL_MAX_ACTIONS);
                for (int k = 0; k < n; k++) {
                    pl_state_copy(g, b, a);
                    g->apply(b, actor, acts[k]);
                    if (g->phase(b) == PL_PHASE_MOVE) {
                        pl_buf_puts(err, "the solver needs a chance outcome after every decision");
                        goto done;
                    }
                    uint32_t id = intern(&gr->s, b, &added);
                    if (id == NO_NODE || vec_u32_push(&gr->child, id) < 0)
                        goto oom;
                }
            } else {
                uint32_t id = intern(&gr->s, a, &added);
                if (id == NO_NODE || vec_u32_push(&gr->child, id) < 0)
                    goto oom;
            }
            if (vec_i8_push(&gr->out_actor, (int8_t)actor) < 0)
                goto oom;
        }
        if (progress && now() - last > 1.0) {
            last = now();
            fprintf(progress, "enumerating: %u of %u states expanded\n", u, gr->s.n);
        }
    }
    if (vec_u64_push(&gr->node_out, gr->out_p.n) < 0 || vec_u64_push(&gr->out_child, gr->child.n) < 0)
        goto oom;
    rc = 0;
    goto done;
oom:
    if (!err->len)
        pl_buf_printf(err, "out of memory (or more than %u states)", MAX_NODES);
done:
    pl_free(a);
    pl_free(b);
    pl_free(cur);
    pl_free(acts);
    return rc;
}

static long iterate(graph *gr, double *v, double tol, FILE *progress)
{
    uint32_t n = gr->s.n;
    for (uint32_t u = 0; u < n; u++)
        v[u] = 0.5;
    long sweeps = 0;
    double last = now();
    for (;;) {
        double delta = 0;
        for (uint32_t u = n; u-- > 0;) {
            uint64_t o0 = gr->node_out.v[u], o1 = gr->node_out.v[u + 1];
            double x = 0;
            if (gr->out_actor.v[o0] == -2) {
                x = gr->out_p.v[o0];
            } else {
                for (uint64_t o = o0; o < o1; o++) {
                    int actor = gr->out_actor.v[o];
                    uint64_t c0 = gr->out_child.v[o], c1 = gr->out_child.v[o + 1];
                    double best = actor == 1 ? 2 : -1;
                    for (uint64_t c = c0; c < c1; c++) {
                        double y = v[gr->child.v[c]];
                        if (actor == 1 ? y < best : y > best)
                            best = y;
                    }
                    x += gr->out_p.v[o] * best;
                }
            }
            double d = x > v[u] ? x - v[u] : v[u] - x;
            if (d > delta)
                delta = d;
            v[u] = x;
        }
        sweeps++;
        if (progress && (now() - last > 1.0 || delta <= tol)) {
            last = now();
            fprintf(progress, "sweep %ld residual %.3g\n", sweeps, delta);
        }
        if (delta <= tol)
            return sweeps;
    }
}

int solve_game(const pl_game *g, const void *root, double tol, FILE *progress, const char *out,
               solve_result *r, pl_buf *err)
{
    graph gr;
    memset(&gr, 0, sizeof gr);
    memset(r, 0, sizeof *r);
    if (g->num_seats(root) != 2) {
        pl_buf_puts(err, "the solver handles two-seat games");
        return -1;
    }
    if (g->flags & PL_GAME_HIDDEN) {
        pl_buf_puts(err, "the solver handles games with full information only");
        return -1;
    }
    if (build(g, root, &gr, progress, err) < 0) {
        graph_free(&gr);
        return -1;
    }
    if (progress)
        fprintf(progress, "%u states, %llu successors\n", gr.s.n, (unsigned long long)gr.child.n);
    double *v = pl_malloc(sizeof *v * gr.s.n);
    if (!v) {
        pl_buf_puts(err, "out of memory");
        graph_free(&gr);
        return -1;
    }
    r->sweeps = iterate(&gr, v, tol, progress);
    r->states = gr.s.n;
    r->value = v[0];
    int rc = 0;
    if (out) {
        FILE *f = fopen(out, "wb");
        uint64_t hdr[2] = {gr.s.ssz, gr.s.n};
        char id[16] = {0};
        snprintf(id, sizeof id, "%s", g->id);
        int ok = f && fwrite(MAGIC, 1, 8, f) == 8 && fwrite(id, 1, 16, f) == 16 &&
                 fwrite(hdr, sizeof hdr, 1, f) == 1 &&
                 fwrite(gr.s.states, gr.s.ssz, gr.s.n, f) == gr.s.n &&
                 fwrite(v, sizeof *v, gr.s.n, f) == gr.s.n;
        if (f)
            ok = (fclose(f) == 0) && ok;
        if (!ok) {
            pl_buf_printf(err, "cannot write %s", out);
            rc = -1;
        }
    }
    pl_free(v);
    graph_free(&gr);
    return rc;
}

struct solve_table {
    store s;
    double *v;
};

void solve_free(solve_table *t)
{
    if (!t)
        return;
    pl_free(t->s.states);
    pl_free(t->s.hash);
    pl_free(t->v);
    pl_free(t);
}

solve_table *solve_load(const pl_game *g, const char *path, pl_buf *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        pl_buf_printf(err, "cannot open %s", path);
        return NULL;
    }
    char magic[8], id[16];
    uint64_t hdr[2];
    solve_table *t = pl_calloc(1, sizeof *t);
    if (!t || fread(magic, 1, 8, f) != 8 || memcmp(magic, MAGIC, 8) || fread(id, 1, 16, f) != 16 ||
        fread(hdr, sizeof hdr, 1, f) != 1 || strncmp(id, g->id, 16) || hdr[0] != g->state_size ||
        hdr[1] > MAX_NODES) {
        pl_buf_printf(err, "%s is not a %s table of this build (parlour solve %s --out FILE)", path,
                      g->id, g->id);
        goto fail;
    }
    t->s.ssz = hdr[0];
    t->s.n = t->s.cap = (uint32_t)hdr[1];
    t->s.states = pl_malloc(t->s.ssz * (hdr[1] ? hdr[1] : 1));
    t->v = pl_malloc(sizeof *t->v * (hdr[1] ? hdr[1] : 1));
    if (!t->s.states || !t->v) {
        pl_buf_puts(err, "out of memory");
        goto fail;
    }
    if (fread(t->s.states, t->s.ssz, hdr[1], f) != hdr[1] || fread(t->v, sizeof *t->v, hdr[1], f) != hdr[1]) {
        pl_buf_printf(err, "%s: truncated", path);
        goto fail;
    }
    uint64_t cap = 1u << 16;
    while (cap < (uint64_t)t->s.n * 2)
        cap *= 2;
    t->s.hcap = cap / 2; /* grow_hash doubles it and inserts every node */
    if (grow_hash(&t->s) < 0) {
        pl_buf_puts(err, "out of memory");
        goto fail;
    }
    fclose(f);
    return t;
fail:
    fclose(f);
    solve_free(t);
    return NULL;
}

double solve_lookup(const solve_table *t, const void *st, int seat)
{
    uint32_t id = lookup(&t->s, st);
    if (id == NO_NODE)
        return -1;
    return seat == 0 ? t->v[id] : 1.0 - t->v[id];
}
