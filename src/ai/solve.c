/* solve.c — generic exact solver for small games with chance (solve.h).
 *
 * Nodes are the chance-phase and final states, interned in an
 * open-addressing hash table keyed by the state's bytes. For each node and
 * each chance outcome the successors after the (single) actor's decision are
 * stored in CSR arrays. Values are iterated in place (Gauss-Seidel) in
 * reverse discovery order, so that most successors are fresh.
 */
#include "solve.h"

#include <stdbool.h>
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
    uint64_t *hash; /* slot: the state's hash tag << 32 | node id; EMPTY when empty */
    uint64_t hcap;  /* power of two */
} store;

#define EMPTY UINT64_MAX

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

/* The slot's tag: the hash's top 32 bits (the table index uses the low
 * bits), so that most probes of other states need no comparison of bytes. */
static inline uint64_t tag_of(uint64_t h) { return h >> 32 << 32; }

static int grow_hash(store *s)
{
    uint64_t cap = s->hcap ? s->hcap * 2 : 1u << 16;
    uint64_t *h = pl_malloc(sizeof *h * cap);
    if (!h)
        return -1;
    memset(h, 0xff, sizeof *h * cap);
    for (uint32_t i = 0; i < s->n; i++) {
        uint64_t hv = hash_bytes(s->states + (size_t)i * s->ssz, s->ssz), k = hv & (cap - 1);
        while (h[k] != EMPTY)
            k = (k + 1) & (cap - 1);
        h[k] = tag_of(hv) | i;
    }
    pl_free(s->hash);
    s->hash = h;
    s->hcap = cap;
    return 0;
}

/* The slot of state `st` (hash hv): where it is, or the empty slot where it
 * would go. */
static uint64_t find_slot(const store *s, const void *st, uint64_t hv)
{
    uint64_t k = hv & (s->hcap - 1), tag = tag_of(hv);
    while (s->hash[k] != EMPTY) {
        uint64_t e = s->hash[k];
        if (tag_of(e) == tag && !memcmp(s->states + (size_t)(uint32_t)e * s->ssz, st, s->ssz))
            return k;
        k = (k + 1) & (s->hcap - 1);
    }
    return k;
}

/* Id of state `st`, adding it when new (*added = 1). NO_NODE on failure. */
static uint32_t intern(store *s, const void *st, int *added)
{
    *added = 0;
    if ((uint64_t)s->n * 2 >= s->hcap && grow_hash(s) < 0)
        return NO_NODE;
    uint64_t hv = hash_bytes(st, s->ssz), k = find_slot(s, st, hv);
    if (s->hash[k] != EMPTY)
        return (uint32_t)s->hash[k];
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
    s->hash[k] = tag_of(hv) | s->n;
    *added = 1;
    return s->n++;
}

static uint32_t lookup(const store *s, const void *st)
{
    uint64_t k = find_slot(s, st, hash_bytes(st, s->ssz));
    return s->hash[k] == EMPTY ? NO_NODE : (uint32_t)s->hash[k];
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
        int no = pl_chance_all(g, cur, outc, p);
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
                int n = pl_legal_all(g, a, actor, acts);
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

/* The strongly connected components of the node graph (Tarjan's algorithm,
 * iterative), sinks first: a component's successors outside it are all in
 * components listed before it. `order` gets the nodes component by component,
 * each component's nodes in depth-first finishing order (successors mostly
 * first); comp_start[k] is where component k begins (ncomp + 1 entries). */
static int components(const graph *gr, uint32_t *order, vec_u32 *comp_start)
{
    uint32_t n = gr->s.n;
    uint32_t *idx = pl_malloc(sizeof *idx * n), *low = pl_malloc(sizeof *low * n);
    uint32_t *stack = pl_malloc(sizeof *stack * n), *post = pl_malloc(sizeof *post * n);
    uint32_t *call = pl_malloc(sizeof *call * n), *comp = pl_malloc(sizeof *comp * n);
    uint64_t *cursor = pl_malloc(sizeof *cursor * n);
    int rc = -1;
    if (!idx || !low || !stack || !post || !call || !comp || !cursor)
        goto done;
    const uint64_t *no = gr->node_out.v, *oc = gr->out_child.v;
    const uint32_t *child = gr->child.v;
    for (uint32_t u = 0; u < n; u++)
        idx[u] = NO_NODE;
    uint32_t next = 0, sp = 0, cp = 0, npost = 0, ncomp = 0;
    for (uint32_t root = 0; root < n; root++) {
        if (idx[root] != NO_NODE)
            continue;
        idx[root] = low[root] = next++;
        stack[sp++] = root;
        comp[root] = NO_NODE;
        cursor[root] = oc[no[root]];
        call[cp++] = root;
        while (cp) {
            uint32_t u = call[cp - 1];
            uint64_t end = oc[no[u + 1]];
            if (cursor[u] < end) {
                uint32_t w = child[cursor[u]++];
                if (idx[w] == NO_NODE) {
                    idx[w] = low[w] = next++;
                    stack[sp++] = w;
                    comp[w] = NO_NODE;
                    cursor[w] = oc[no[w]];
                    call[cp++] = w;
                } else if (comp[w] == NO_NODE && idx[w] < low[u]) {
                    low[u] = idx[w]; /* w is on the stack */
                }
                continue;
            }
            cp--;
            post[u] = npost++;
            if (cp && low[u] < low[call[cp - 1]])
                low[call[cp - 1]] = low[u];
            if (low[u] == idx[u]) {
                uint32_t w;
                do {
                    w = stack[--sp];
                    comp[w] = ncomp;
                } while (w != u);
                ncomp++;
            }
        }
    }
    /* Counting sort by component, stable in finishing order. */
    comp_start->n = 0;
    for (uint32_t k = 0; k <= ncomp; k++)
        if (vec_u32_push(comp_start, 0) < 0)
            goto done;
    uint32_t *cs = comp_start->v;
    for (uint32_t u = 0; u < n; u++)
        cs[comp[u] + 1]++;
    for (uint32_t k = 0; k < ncomp; k++)
        cs[k + 1] += cs[k];
    uint32_t *by_post = call; /* reused */
    for (uint32_t u = 0; u < n; u++)
        by_post[post[u]] = u;
    uint32_t *fill = low; /* reused */
    for (uint32_t k = 0; k < ncomp; k++)
        fill[k] = cs[k];
    for (uint32_t i = 0; i < n; i++) {
        uint32_t u = by_post[i];
        order[fill[comp[u]]++] = u;
    }
    rc = 0;
done:
    pl_free(idx);
    pl_free(low);
    pl_free(stack);
    pl_free(post);
    pl_free(call);
    pl_free(comp);
    pl_free(cursor);
    return rc;
}

/* The node that `u` alone leads to with some outcome (a pass, a forced
 * move) and that alone leads back to `u` with one of its own: the two are
 * solved together exactly. NO_NODE when there is none. */
static uint32_t partner_of(const graph *gr, uint32_t u)
{
    const uint64_t *no = gr->node_out.v, *oc = gr->out_child.v;
    for (uint64_t o = no[u]; o < no[u + 1]; o++) {
        if (oc[o + 1] - oc[o] != 1)
            continue;
        uint32_t f = gr->child.v[oc[o]];
        if (f == u)
            continue;
        for (uint64_t q = no[f]; q < no[f + 1]; q++)
            if (oc[q + 1] - oc[q] == 1 && gr->child.v[oc[q]] == u)
                return f;
    }
    return NO_NODE;
}

/* The Bellman value of `u` without its single-child outcomes that lead to
 * `self` or `other`: returns their part of the expectation over the rest and
 * adds those outcomes' probabilities to *p_self and *p_other. */
static double value_of(const graph *gr, const double *v, uint32_t u, uint32_t other, double *p_self,
                       double *p_other)
{
    const uint64_t *no = gr->node_out.v, *oc = gr->out_child.v;
    uint64_t o0 = no[u], o1 = no[u + 1];
    if (gr->out_actor.v[o0] == -2)
        return gr->out_p.v[o0];
    double x = 0;
    for (uint64_t o = o0; o < o1; o++) {
        uint64_t c0 = oc[o], c1 = oc[o + 1];
        if (c1 - c0 == 1) {
            uint32_t c = gr->child.v[c0];
            if (c == u) {
                *p_self += gr->out_p.v[o];
                continue;
            }
            if (c == other) {
                *p_other += gr->out_p.v[o];
                continue;
            }
        }
        int actor = gr->out_actor.v[o];
        double best = actor == 1 ? 2 : -1;
        for (uint64_t c = c0; c < c1; c++) {
            double y = v[gr->child.v[c]];
            if (actor == 1 ? y < best : y > best)
                best = y;
        }
        x += gr->out_p.v[o] * best;
    }
    return x;
}

/* Renumbers the graph's nodes so that node order[i] becomes node i (the
 * sweeps then read the arrays in sequence); the stored states keep their
 * numbers. 0, or -1 when memory runs out (the graph unchanged). */
static int relabel(graph *gr, const uint32_t *order, uint32_t *new_id)
{
    uint32_t n = gr->s.n;
    uint64_t nout = gr->out_p.n, nchild = gr->child.n;
    graph ng;
    memset(&ng, 0, sizeof ng);
    ng.node_out.v = pl_malloc(sizeof(uint64_t) * (n + 1));
    ng.out_p.v = pl_malloc(sizeof(double) * (nout ? nout : 1));
    ng.out_actor.v = pl_malloc(nout ? nout : 1);
    ng.out_child.v = pl_malloc(sizeof(uint64_t) * (nout + 1));
    ng.child.v = pl_malloc(sizeof(uint32_t) * (nchild ? nchild : 1));
    if (!ng.node_out.v || !ng.out_p.v || !ng.out_actor.v || !ng.out_child.v || !ng.child.v) {
        graph_free(&ng);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++)
        new_id[order[i]] = i;
    uint64_t o = 0, c = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t u = order[i];
        ng.node_out.v[i] = o;
        for (uint64_t q = gr->node_out.v[u]; q < gr->node_out.v[u + 1]; q++, o++) {
            ng.out_p.v[o] = gr->out_p.v[q];
            ng.out_actor.v[o] = gr->out_actor.v[q];
            ng.out_child.v[o] = c;
            for (uint64_t k = gr->out_child.v[q]; k < gr->out_child.v[q + 1]; k++)
                ng.child.v[c++] = new_id[gr->child.v[k]];
        }
    }
    ng.node_out.v[n] = o;
    ng.out_child.v[o] = c;
    pl_free(gr->node_out.v);
    pl_free(gr->out_p.v);
    pl_free(gr->out_actor.v);
    pl_free(gr->out_child.v);
    pl_free(gr->child.v);
    gr->node_out.v = ng.node_out.v;
    gr->out_p.v = ng.out_p.v;
    gr->out_actor.v = ng.out_actor.v;
    gr->out_child.v = ng.out_child.v;
    gr->child.v = ng.child.v;
    return 0;
}

/* Value iteration component by component (sinks first): a component of one
 * node is final after one update; a larger one is swept in place
 * (Gauss-Seidel, in depth-first finishing order) until no value changes by
 * more than `tol`. A node and its partner (partner_of) are updated together
 * by solving their two equations exactly, and a node's outcomes that lead
 * back to itself alone are solved out, so pass cycles cost no sweeps.
 * `v` gets the values by the stored states' numbers. Returns the most sweeps
 * any component needed, or -1 when memory runs out. */
static long iterate(graph *gr, double *v, double tol, FILE *progress, uint64_t *updates)
{
    uint32_t n = gr->s.n;
    size_t sz = n ? n : 1;
    uint32_t *order = pl_malloc(sizeof *order * sz);
    uint32_t *partner = pl_malloc(sizeof *partner * sz);
    double *w = pl_malloc(sizeof *w * sz);
    vec_u32 cs = {0};
    long most = 0;
    *updates = 0;
    if (!order || !partner || !w || components(gr, order, &cs) < 0 || relabel(gr, order, partner) < 0) {
        most = -1;
        goto done;
    }
    uint32_t *new_id = order; /* reused: the relabelling, for the values at the end */
    memcpy(new_id, partner, sizeof *new_id * n);
    for (uint32_t u = 0; u < n; u++) {
        w[u] = 0.5;
        partner[u] = partner_of(gr, u);
    }
    uint32_t ncomp = (uint32_t)cs.n - 1;
    double last = now();
    for (uint32_t k = 0; k < ncomp; k++) {
        uint32_t c0 = cs.v[k], c1 = cs.v[k + 1];
        for (long sweep = 1;; sweep++) {
            double delta = 0;
            for (uint32_t u = c0; u < c1; u++) {
                uint32_t f = partner[u];
                double ps = 0, pf = 0, qs = 0, qu = 0;
                bool pair = f != NO_NODE && partner[f] == u;
                if (pair && f < u)
                    continue; /* updated with its partner f, which comes first */
                double x = value_of(gr, w, u, f, &ps, &pf), y = 0;
                if (pair) {
                    /* x = A + ps x + pf y,  y = B + qs y + qu x */
                    double B = value_of(gr, w, f, u, &qs, &qu);
                    double a1 = 1 - ps, b1 = 1 - qs;
                    x = (B * pf + x * b1) / (a1 * b1 - pf * qu);
                    y = (B + qu * x) / b1;
                    double d = y > w[f] ? y - w[f] : w[f] - y;
                    if (d > delta)
                        delta = d;
                    w[f] = y;
                    (*updates)++;
                } else {
                    x = (x + pf * (f != NO_NODE ? w[f] : 0)) / (1 - ps);
                }
                double d = x > w[u] ? x - w[u] : w[u] - x;
                if (d > delta)
                    delta = d;
                w[u] = x;
                (*updates)++;
            }
            if (sweep > most)
                most = sweep;
            if (progress && (now() - last > 1.0 || (delta <= tol && c1 - c0 > 1000000))) {
                last = now();
                fprintf(progress, "component %u of %u (%u states) sweep %ld residual %.3g\n", k + 1, ncomp,
                        c1 - c0, sweep, delta);
            }
            if (delta <= tol || c1 - c0 == 1)
                break;
        }
    }
    for (uint32_t u = 0; u < n; u++)
        v[u] = w[new_id[u]];
done:
    pl_free(order);
    pl_free(partner);
    pl_free(w);
    pl_free(cs.v);
    return most;
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
    r->sweeps = iterate(&gr, v, tol, progress, &r->updates);
    if (r->sweeps < 0) {
        pl_buf_puts(err, "out of memory");
        pl_free(v);
        graph_free(&gr);
        return -1;
    }
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
