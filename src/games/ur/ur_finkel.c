/* ur_finkel.c — exact solver for Finkel's rules (ur_finkel.h).
 *
 * Light's path by index: 1-4 private (A4 A3 A2 A1), 5-12 the shared middle
 * row (B1..B8), 13-14 private (A8 A7), 15 off. Rosettes at 4, 8 and 14; the
 * central rosette (8, B4) is safe. A state is (a, b, pl, ml, pd, md): pieces
 * borne off by light and dark, light's private squares (bits 0-3 = idx 1-4,
 * bit 4 = idx 13, bit 5 = idx 14), light's middle-row squares (bit k = B(k+1)),
 * and the same for dark. Reserves are what is left.
 *
 * Work per sweep: every state of the layer pair, each roll, each piece
 * (at most 8 sources): a few table look-ups per successor, no allocation.
 */
#include "ur_finkel.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>

#include "parlour/alloc.h"
#include "ur_tfile.h"

#define NMID 6561 /* 3^8 middle-row configurations */
#define NONE UINT64_MAX
#define MAGIC "PLURFNK1"

struct urf_table {
    int n;
    uint64_t count;
    uint64_t base[7][7][NMID]; /* global offset of a middle-row configuration in layer (a,b) */
    _Atomic double *v;
};

/* Filled once by urf_tables, a constructor (before main and any thread);
 * read-only afterwards. */
static uint16_t tern[256];             /* ternary value of a mask: sum of 3^k over its bits */
static uint8_t mid_l[NMID], mid_d[NMID]; /* the masks of a ternary configuration */
static uint8_t rank6[64], unrank6[64];
static const uint8_t cum6[7] = {1, 7, 22, 42, 57, 63, 64}; /* masks of 6 bits with popcount <= k */
static uint8_t pc8[256];
/* Progress (sum of path indices) of a private mask / a middle-row mask;
 * sweeps visit states from the most progress down, so that successors
 * reached by ordinary moves are already fresh (only captures and passes
 * point back). */
static uint8_t prog6[64], prog8[256];
static uint8_t prog_mid[NMID];
#define QMAX 74   /* largest progress of both private masks */
#define PMAX 142  /* largest progress of a state */
/* For each pair of caps (kl, kd): the (rl, rd) pairs ordered by private
 * progress q, with the start of each q. */
static uint16_t pair_list[7][7][4096];
static uint16_t pair_start[7][7][QMAX + 2];
static const double prob[5] = {1 / 16.0, 4 / 16.0, 6 / 16.0, 4 / 16.0, 1 / 16.0};

__attribute__((constructor)) static void urf_tables(void)
{
    for (int m = 0; m < 256; m++) {
        int t = 0, p = 1;
        pc8[m] = (uint8_t)__builtin_popcount((unsigned)m);
        for (int k = 0; k < 8; k++, p *= 3)
            if (m & (1 << k))
                t += p;
        tern[m] = (uint16_t)t;
    }
    for (int c = 0; c < NMID; c++) {
        int x = c, l = 0, d = 0;
        for (int k = 0; k < 8; k++, x /= 3) {
            if (x % 3 == 1)
                l |= 1 << k;
            else if (x % 3 == 2)
                d |= 1 << k;
        }
        mid_l[c] = (uint8_t)l;
        mid_d[c] = (uint8_t)d;
    }
    for (int m = 0; m < 256; m++) {
        int pr = 0;
        for (int k = 0; k < 8; k++)
            if (m & (1 << k))
                pr += 5 + k;
        prog8[m] = (uint8_t)pr;
        if (m < 64) {
            pr = 0;
            for (int k = 0; k < 6; k++)
                if (m & (1 << k))
                    pr += k < 4 ? k + 1 : k + 9;
            prog6[m] = (uint8_t)pr;
        }
    }
    for (int c = 0; c < NMID; c++)
        prog_mid[c] = (uint8_t)(prog8[mid_l[c]] + prog8[mid_d[c]]);
    int r = 0;
    for (int pc = 0; pc <= 6; pc++)
        for (int m = 0; m < 64; m++)
            if (pc8[m] == pc) {
                rank6[m] = (uint8_t)r;
                unrank6[r++] = (uint8_t)m;
            }
    for (int kl = 0; kl <= 6; kl++)
        for (int kd = 0; kd <= 6; kd++) {
            int n = 0;
            for (int q = 0; q <= QMAX; q++) {
                pair_start[kl][kd][q] = (uint16_t)n;
                for (int rl = 0; rl < cum6[kl]; rl++)
                    for (int rd = 0; rd < cum6[kd]; rd++)
                        if (prog6[unrank6[rl]] + prog6[unrank6[rd]] == q)
                            pair_list[kl][kd][n++] = (uint16_t)(rl << 6 | rd);
            }
            pair_start[kl][kd][QMAX + 1] = (uint16_t)n;
        }
}

static inline int cap6(int k) { return k > 6 ? 6 : k; }

/* Index of a state; the layer (a, b) must be non-terminal. */
static inline uint64_t sidx(const urf_table *t, int a, int b, unsigned pl, unsigned ml, unsigned pd, unsigned md)
{
    int kd = cap6(t->n - b - pc8[md]);
    return t->base[a][b][tern[ml] + 2 * tern[md]] + (uint64_t)rank6[pl] * cum6[kd] + rank6[pd];
}

static inline double V(const urf_table *t, int a, int b, unsigned pl, unsigned ml, unsigned pd, unsigned md)
{
    return atomic_load_explicit(&t->v[sidx(t, a, b, pl, ml, pd, md)], memory_order_relaxed);
}

/* Value of light moving its piece from index i (0 = reserve) by r, or -1 if blocked. */
static inline double try_move(const urf_table *t, int a, int b, unsigned pl, unsigned ml, unsigned pd,
                              unsigned md, int i, int r)
{
    int j = i + r;
    if (j > 15)
        return -1;
    if (i >= 1 && i <= 4)
        pl &= ~(1u << (i - 1));
    else if (i >= 5 && i <= 12)
        ml &= ~(1u << (i - 5));
    else if (i == 13)
        pl &= ~16u;
    else if (i == 14)
        pl &= ~32u;
    if (j == 15) {
        if (a + 1 == t->n)
            return 1.0;
        return 1.0 - V(t, b, a + 1, pd, md, pl, ml);
    }
    if (j <= 4) {
        unsigned bit = 1u << (j - 1);
        if (pl & bit)
            return -1;
        pl |= bit;
    } else if (j <= 12) {
        unsigned bit = 1u << (j - 5);
        if (ml & bit)
            return -1;
        if (md & bit) {
            if (j == 8)
                return -1; /* the central rosette is safe */
            md &= ~bit;    /* capture: back to dark's reserve */
        }
        ml |= bit;
    } else {
        unsigned bit = j == 13 ? 16u : 32u;
        if (pl & bit)
            return -1;
        pl |= bit;
    }
    if (j == 4 || j == 8 || j == 14)
        return V(t, a, b, pl, ml, pd, md); /* rosette: light again */
    return 1.0 - V(t, b, a, pd, md, pl, ml);
}

/* The Bellman update of one light-to-move state, without its passes:
 * returns the expected value over the rolls that allow a move and sets
 * *pass to the probability of the rolls that do not (the turn passes to
 * dark in the same position: the flipped state, value 1 - V). */
static double update(const urf_table *t, int a, int b, unsigned pl, unsigned ml, unsigned pd, unsigned md,
                     double *pass)
{
    int src[8], ns = 0;
    if (t->n - a - pc8[pl] - pc8[ml] > 0)
        src[ns++] = 0;
    for (int k = 0; k < 4; k++)
        if (pl & (1u << k))
            src[ns++] = k + 1;
    for (int k = 0; k < 8; k++)
        if (ml & (1u << k))
            src[ns++] = k + 5;
    if (pl & 16u)
        src[ns++] = 13;
    if (pl & 32u)
        src[ns++] = 14;
    double p = prob[0], total = 0;
    for (int r = 1; r <= 4; r++) {
        double best = -1;
        for (int s = 0; s < ns; s++) {
            double x = try_move(t, a, b, pl, ml, pd, md, src[s], r);
            if (x > best)
                best = x;
        }
        if (best < 0)
            p += prob[r];
        else
            total += prob[r] * best;
    }
    *pass = p;
    return total;
}

uint64_t urf_states(int pieces)
{
    uint64_t n = 0;
    for (int a = 0; a < pieces; a++)
        for (int b = 0; b < pieces; b++)
            for (int c = 0; c < NMID; c++) {
                int kl = pieces - a - pc8[mid_l[c]], kd = pieces - b - pc8[mid_d[c]];
                if (kl >= 0 && kd >= 0)
                    n += (uint64_t)cum6[cap6(kl)] * cum6[cap6(kd)];
            }
    return n;
}

urf_table *urf_new(int pieces)
{
    if (pieces < 1 || pieces > 7)
        return NULL;
    urf_table *t = pl_calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->n = pieces;
    uint64_t off = 0;
    for (int a = 0; a < 7; a++)
        for (int b = 0; b < 7; b++)
            for (int c = 0; c < NMID; c++) {
                int kl = pieces - a - pc8[mid_l[c]], kd = pieces - b - pc8[mid_d[c]];
                if (a >= pieces || b >= pieces || kl < 0 || kd < 0) {
                    t->base[a][b][c] = NONE;
                    continue;
                }
                t->base[a][b][c] = off;
                off += (uint64_t)cum6[cap6(kl)] * cum6[cap6(kd)];
            }
    t->count = off;
    t->v = pl_malloc(sizeof *t->v * (size_t)off);
    if (!t->v) {
        pl_free(t);
        return NULL;
    }
    for (uint64_t i = 0; i < off; i++)
        atomic_init(&t->v[i], 0.5);
    return t;
}

void urf_free(urf_table *t)
{
    if (!t)
        return;
    pl_free(t->v);
    pl_free(t);
}

uint64_t urf_count(const urf_table *t) { return t->count; }
int urf_pieces(const urf_table *t) { return t->n; }

typedef struct accel accel;
static inline void accel_keep(accel *c, uint64_t i, double old);

typedef struct sweep_job {
    urf_table *t;
    accel *acc; /* keeps the values before the sweep (may be off) */
    int layers[2][2]; /* a layer and its mirror */
    int threads;
    uint32_t *order; /* middle configuration << 12 | rl << 6 | rd, of layer 0 */
    uint64_t norder;
    double delta[16];    /* per thread */
    uint64_t states[16]; /* per thread */
} sweep_job;

typedef struct worker {
    sweep_job *job;
    int id;
} worker;

#define CHUNK 1024

static void *sweep_worker(void *arg)
{
    worker *w = arg;
    sweep_job *j = w->job;
    urf_table *t = j->t;
    double delta = 0;
    uint64_t states = 0;
    /* The pair's states from the most progress down, a contiguous share
     * of the order per thread: a thread reads the values another is
     * writing only near the boundary of their shares, so the sweep is
     * nearly the same map from sweep to sweep, which the acceleration
     * needs (interleaved small chunks made it useless). */
    uint64_t lo = j->norder * (uint64_t)w->id / (uint64_t)j->threads,
             hi = j->norder * (uint64_t)(w->id + 1) / (uint64_t)j->threads;
    for (uint64_t c0 = lo; c0 < hi; c0 += CHUNK) {
        uint64_t c1 = c0 + CHUNK < hi ? c0 + CHUNK : hi;
        for (uint64_t k = c0; k < c1; k++) {
            if (k + 8 < c1) { /* the own values of a pair a few steps ahead */
                uint32_t e8 = j->order[k + 8];
                int m8 = (int)((e8 >> 12) & 8191), rl8 = (int)((e8 >> 6) & 63), rd8 = (int)(e8 & 63);
                __builtin_prefetch((const void *)&t->v[sidx(t, j->layers[0][0], j->layers[0][1], unrank6[rl8],
                                                           mid_l[m8], unrank6[rd8], mid_d[m8])]);
                __builtin_prefetch((const void *)&t->v[sidx(t, j->layers[0][1], j->layers[0][0], unrank6[rd8],
                                                           mid_d[m8], unrank6[rl8], mid_l[m8])]);
            }
            uint32_t e = j->order[k];
            int m = (int)((e >> 12) & 8191), rl = (int)((e >> 6) & 63), rd = (int)(e & 63);
            int a = j->layers[0][0], b = j->layers[0][1];
            unsigned pl = unrank6[rl], ml = mid_l[m], pd = unrank6[rd], md = mid_d[m];
            int nd = cum6[cap6(t->n - b - pc8[md])];
            uint64_t i = t->base[a][b][m] + (uint64_t)rl * nd + rd;
            uint64_t fi = sidx(t, b, a, pd, md, pl, ml);
            /* The state and its flip (dark to move in the same position)
             * pass to each other: solve the two together exactly. */
            double p, q, x, y = 0;
            double A = update(t, a, b, pl, ml, pd, md, &p);
            if (fi == i) {
                x = (A + p) / (1 + p);
            } else {
                double B = update(t, b, a, pd, md, pl, ml, &q);
                x = (A + p * (1 - B - q)) / (1 - p * q);
                y = B + q * (1 - x);
            }
            double old = atomic_load_explicit(&t->v[i], memory_order_relaxed);
            accel_keep(j->acc, i, old);
            double d = x > old ? x - old : old - x;
            if (d > delta)
                delta = d;
            atomic_store_explicit(&t->v[i], x, memory_order_relaxed);
            if (fi != i) {
                old = atomic_load_explicit(&t->v[fi], memory_order_relaxed);
                accel_keep(j->acc, fi, old);
                d = y > old ? y - old : old - y;
                if (d > delta)
                    delta = d;
                atomic_store_explicit(&t->v[fi], y, memory_order_relaxed);
                states++;
            }
            states++;
        }
    }
    j->delta[w->id] = delta;
    j->states[w->id] = states;
    return NULL;
}

/* Orders the states of the job's first layer for the sweep (each stands for
 * itself and its flip in the mirror layer, or in the same layer when the
 * layer is its own mirror: then the one of lower index leads): middle-row
 * configurations by their progress, most first, and within one the states
 * by the progress of the private squares, most first. Successors by
 * ordinary moves mostly come earlier (fresh values), and the states of one
 * configuration stay together, which keeps the successors' look-ups in
 * cache. Returns 0, or -1 when memory runs out. */
static int build_order(sweep_job *j)
{
    urf_table *t = j->t;
    int a = j->layers[0][0], b = j->layers[0][1];
    uint64_t n = 0;
    for (int m = 0; m < NMID; m++)
        if (t->base[a][b][m] != NONE)
            n += (uint64_t)cum6[cap6(t->n - a - pc8[mid_l[m]])] * cum6[cap6(t->n - b - pc8[mid_d[m]])];
    j->order = pl_malloc(sizeof *j->order * (n ? n : 1));
    if (!j->order)
        return -1;
    uint64_t k = 0;
    for (int pm = 2 * 68; pm >= 0; pm--)
        for (int m = 0; m < NMID; m++) {
            if (t->base[a][b][m] == NONE || prog_mid[m] != pm)
                continue;
            int kl = cap6(t->n - a - pc8[mid_l[m]]), kd = cap6(t->n - b - pc8[mid_d[m]]);
            const uint16_t *list = pair_list[kl][kd];
            for (int q = QMAX; q >= 0; q--)
                for (int e = pair_start[kl][kd][q]; e < pair_start[kl][kd][q + 1]; e++) {
                    if (a == b) {
                        unsigned rl = list[e] >> 6, rd = list[e] & 63;
                        uint64_t i = sidx(t, a, b, unrank6[rl], mid_l[m], unrank6[rd], mid_d[m]);
                        uint64_t fi = sidx(t, b, a, unrank6[rd], mid_d[m], unrank6[rl], mid_l[m]);
                        if (fi < i)
                            continue; /* its flip leads the pair */
                    }
                    j->order[k++] = (uint32_t)m << 12 | list[e];
                }
        }
    j->norder = k;
    return 0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Runs fn on each of `threads` argument blocks (args, `size` bytes apart):
 * the first on this thread, the others on new threads (or here when a
 * thread cannot be started); returns when all are done. */
static void run_threads(void *(*fn)(void *), void *args, size_t size, int threads)
{
    pthread_t tid[16];
    bool started[16] = {false};
    for (int k = 1; k < threads; k++)
        started[k] = pthread_create(&tid[k], NULL, fn, (char *)args + (size_t)k * size) == 0;
    fn(args);
    for (int k = 1; k < threads; k++) {
        if (started[k])
            pthread_join(tid[k], NULL);
        else
            fn((char *)args + (size_t)k * size);
    }
}

/* Anderson acceleration of a layer pair's sweeps (depth AMAX). A sweep is
 * a map G from the pair's values before it to those after; near the
 * solution (the best moves settled) G is nearly linear and its error
 * shrinks by a few slow modes. After each sweep the next point is G(x)
 * minus the mix of the last AMAX changes of G that best cancels the
 * residual G(x) - x (least squares over the pair's states); a sweep that
 * does not shrink the residual by 10 % clears the history. The stopping
 * test is always on a plain sweep whose values are kept, so the tolerance
 * holds for the values written. The passes over the vectors run on the
 * solver's threads. */
#define AMAX 2
struct accel {
    uint64_t lo[2], len[2], n; /* the pair's two ranges of t->v */
    double *x;                 /* the values before the sweep (kept by the sweep) */
    double *fprev, *gprev;     /* the last residual f = G(x) - x and G(x) */
    double *df[AMAX], *dg[AMAX];
    int nh, head;    /* history entries, the next slot */
    double last;     /* residual of the last sweep */
    bool on, primed; /* vectors allocated; fprev/gprev hold a step */
};

/* Position of value i of t->v in the pair's vectors. */
static inline uint64_t accel_pos(const accel *c, uint64_t i)
{
    return i - c->lo[0] < c->len[0] ? i - c->lo[0] : c->len[0] + (i - c->lo[1]);
}

static inline void accel_keep(accel *c, uint64_t i, double old)
{
    if (c && c->on)
        c->x[accel_pos(c, i)] = old;
}

static inline _Atomic double *accel_at(const urf_table *t, const accel *c, uint64_t k)
{
    return k < c->len[0] ? &t->v[c->lo[0] + k] : &t->v[c->lo[1] + (k - c->len[0])];
}

static void accel_free(accel *c)
{
    pl_free(c->x);
    pl_free(c->fprev);
    pl_free(c->gprev);
    for (int i = 0; i < AMAX; i++) {
        pl_free(c->df[i]);
        pl_free(c->dg[i]);
    }
    memset(c, 0, sizeof *c);
}

/* The range of layer (a, b) in t->v. */
static void layer_range(const urf_table *t, int a, int b, uint64_t *lo, uint64_t *len)
{
    uint64_t first = NONE, end = 0;
    for (int m = 0; m < NMID; m++) {
        uint64_t o = t->base[a][b][m];
        if (o == NONE)
            continue;
        if (first == NONE)
            first = o;
        end = o + (uint64_t)cum6[cap6(t->n - a - pc8[mid_l[m]])] * cum6[cap6(t->n - b - pc8[mid_d[m]])];
    }
    *lo = first == NONE ? 0 : first;
    *len = first == NONE ? 0 : end - first;
}

/* Sets up acceleration for the pair (a, b) / (b, a); without memory for its
 * vectors the sweeps run plain. */
static void accel_init(accel *c, const urf_table *t, int a, int b)
{
    memset(c, 0, sizeof *c);
    layer_range(t, a, b, &c->lo[0], &c->len[0]);
    if (a != b)
        layer_range(t, b, a, &c->lo[1], &c->len[1]);
    c->n = c->len[0] + c->len[1];
    c->last = 1e300;
    size_t bytes = sizeof(double) * (c->n ? c->n : 1);
    c->x = pl_malloc(bytes);
    c->fprev = pl_malloc(bytes);
    c->gprev = pl_malloc(bytes);
    bool ok = c->x && c->fprev && c->gprev;
    for (int i = 0; i < AMAX; i++) {
        c->df[i] = pl_malloc(bytes);
        c->dg[i] = pl_malloc(bytes);
        ok = ok && c->df[i] && c->dg[i];
    }
    if (!ok)
        accel_free(c);
    else
        c->on = true;
}

/* One thread's share of a pass over the vectors. Pass 1: residual, history
 * and the sums of the normal equations over slots 0..h-1; pass 2: the next
 * point. */
typedef struct accel_part {
    accel *c;
    urf_table *t;
    uint64_t k0, k1;
    int pass, slot, h;
    bool primed;
    double M[AMAX][AMAX], r[AMAX];
    const double *gam;
} accel_part;

static void *accel_pass(void *arg)
{
    accel_part *p = arg;
    accel *c = p->c;
    int h = p->h < AMAX ? p->h : AMAX;
    if (p->pass == 1) {
        for (uint64_t k = p->k0; k < p->k1; k++) {
            double g = atomic_load_explicit(accel_at(p->t, c, k), memory_order_relaxed);
            double f = g - c->x[k];
            if (p->primed) {
                c->df[p->slot][k] = f - c->fprev[k];
                c->dg[p->slot][k] = g - c->gprev[k];
            }
            c->fprev[k] = f;
            c->gprev[k] = g;
            for (int i = 0; i < h; i++) {
                double di = c->df[i][k];
                p->r[i] += di * f;
                for (int j = 0; j <= i; j++)
                    p->M[i][j] += di * c->df[j][k];
            }
        }
    } else {
        for (uint64_t k = p->k0; k < p->k1; k++) {
            double g = c->gprev[k];
            for (int i = 0; i < h; i++)
                g -= p->gam[i] * c->dg[i][k];
            atomic_store_explicit(accel_at(p->t, c, k), g, memory_order_relaxed);
        }
    }
    return NULL;
}

/* Runs a pass on `threads` threads (shares in order, sums added in order). */
static void accel_run(accel *c, urf_table *t, int threads, accel_part *parts, int pass, int slot, int h,
                      bool primed, const double *gam)
{
    for (int k = 0; k < threads; k++) {
        parts[k] = (accel_part){.c = c, .t = t, .pass = pass, .slot = slot, .h = h, .primed = primed, .gam = gam};
        parts[k].k0 = c->n * (uint64_t)k / (uint64_t)threads;
        parts[k].k1 = c->n * (uint64_t)(k + 1) / (uint64_t)threads;
    }
    run_threads(accel_pass, parts, sizeof *parts, threads);
}

/* After a sweep with residual `res` (t->v holds G(x), c->x holds x): the
 * next point. */
static void accel_after(accel *c, urf_table *t, double res, int threads)
{
    if (!c->on)
        return;
    bool progress = res < 0.9 * c->last;
    c->last = res;
    if (!progress || res > 1e-2) { /* not converging steadily yet: (re)start */
        c->nh = 0;
        c->head = 0;
        c->primed = false;
    }
    bool primed = c->primed;
    int slot = c->head, h = 0;
    if (primed) {
        c->head = (c->head + 1) % AMAX;
        if (c->nh < AMAX)
            c->nh++;
        h = c->nh;
    }
    accel_part parts[16];
    accel_run(c, t, threads, parts, 1, slot, h, primed, NULL);
    if (!primed) {
        c->primed = res <= 1e-2;
        return;
    }
    /* least squares: min |f - DF gamma| by the normal equations */
    h = h < AMAX ? h : AMAX;
    double M[AMAX][AMAX] = {{0}}, r[AMAX] = {0};
    for (int k = 0; k < threads; k++)
        for (int i = 0; i < h; i++) {
            r[i] += parts[k].r[i];
            for (int j = 0; j <= i; j++)
                M[i][j] += parts[k].M[i][j];
        }
    double tr = 0;
    for (int i = 0; i < h; i++) {
        for (int j = 0; j < i; j++)
            M[j][i] = M[i][j];
        tr += M[i][i];
    }
    if (!(tr > 0))
        return;
    for (int i = 0; i < h; i++)
        M[i][i] += 1e-10 * tr;
    double gam[AMAX] = {0};
    for (int i = 0; i < h; i++) { /* Gaussian elimination with partial pivoting */
        int piv = i;
        for (int j = i + 1; j < h; j++)
            if (fabs(M[j][i]) > fabs(M[piv][i]))
                piv = j;
        if (!(fabs(M[piv][i]) > 0))
            return;
        for (int j = 0; j < h; j++) {
            double tmp = M[i][j];
            M[i][j] = M[piv][j];
            M[piv][j] = tmp;
        }
        double tmp = r[i];
        r[i] = r[piv];
        r[piv] = tmp;
        for (int j = i + 1; j < h; j++) {
            double f = M[j][i] / M[i][i];
            for (int l = i; l < h; l++)
                M[j][l] -= f * M[i][l];
            r[j] -= f * r[i];
        }
    }
    for (int i = h - 1; i >= 0; i--) {
        double x = r[i];
        for (int j = i + 1; j < h; j++)
            x -= M[i][j] * gam[j];
        gam[i] = x / M[i][i];
    }
    accel_run(c, t, threads, parts, 2, slot, h, primed, gam);
}

long urf_solve(urf_table *t, double tol, int threads, FILE *progress)
{
    if (threads < 1)
        threads = 1;
    if (threads > 16)
        threads = 16;
    int n = t->n;
    long sweeps = 0;
    double t0 = now(), last = t0;
    uint64_t done = 0;
    for (int s = 2 * n - 2; s >= 0; s--) {
        for (int a = n - 1; a >= 0; a--) {
            int b = s - a;
            if (b < 0 || b >= n || a < b)
                continue;
            sweep_job job;
            memset(&job, 0, sizeof job);
            job.t = t;
            job.layers[0][0] = a;
            job.layers[0][1] = b;
            job.layers[1][0] = b;
            job.layers[1][1] = a;
            if (build_order(&job) < 0) {
                if (progress)
                    fputs("out of memory\n", progress);
                return -1;
            }
            accel acc;
            accel_init(&acc, t, a, b);
            job.acc = &acc;
            for (int sw = 1;; sw++) {
                job.threads = threads;
                worker ws[16];
                for (int k = 0; k < threads; k++) {
                    ws[k].job = &job;
                    ws[k].id = k;
                }
                run_threads(sweep_worker, ws, sizeof *ws, threads);
                double delta = 0;
                uint64_t states = 0;
                for (int k = 0; k < threads; k++) {
                    if (job.delta[k] > delta)
                        delta = job.delta[k];
                    states += job.states[k];
                }
                sweeps++;
                done += states;
                double tn = now();
                if (progress && (tn - last >= 1.0 || delta <= tol)) {
                    fprintf(progress, "layer %d/%d sweep %d residual %.3g  %.1f M states/s  %.0f s\n", a,
                            b, sw, delta, done / (tn - t0) / 1e6, tn - t0);
                    fflush(progress);
                    last = tn;
                }
                if (delta <= tol || states == 0)
                    break;
                accel_after(&acc, t, delta, threads);
            }
            accel_free(&acc);
            pl_free(job.order);
        }
    }
    return sweeps;
}

/* Masks of a Finkel ur_state: returns light's view (pl, ml) and dark's. */
static void state_masks(const ur_state *s, unsigned *pl, unsigned *ml, unsigned *pd, unsigned *md)
{
    unsigned p[2] = {0, 0}, m[2] = {0, 0};
    for (int sq = 0; sq < UR_NSQ; sq++) {
        if (!s->h[sq])
            continue;
        int owner = s->pc[sq] & 1;
        int i = ur_path_idx(s, owner, sq, 0);
        if (i >= 1 && i <= 4)
            p[owner] |= 1u << (i - 1);
        else if (i >= 5 && i <= 12)
            m[owner] |= 1u << (i - 5);
        else if (i == 13)
            p[owner] |= 16u;
        else if (i == 14)
            p[owner] |= 32u;
    }
    *pl = p[0];
    *ml = m[0];
    *pd = p[1];
    *md = m[1];
}

double urf_value(const urf_table *t, const ur_state *s, int seat)
{
    if (!s->finkel || s->pieces != t->n)
        return -1;
    double light;
    if (s->phase == UR_PH_OVER) {
        light = s->off[0] == s->pieces ? 1.0 : 0.0;
    } else if (s->phase == UR_PH_ROLL) {
        unsigned pl, ml, pd, md;
        state_masks(s, &pl, &ml, &pd, &md);
        if (s->turn == 0)
            light = V(t, s->off[0], s->off[1], pl, ml, pd, md);
        else
            light = 1.0 - V(t, s->off[1], s->off[0], pd, md, pl, ml);
    } else {
        return -1;
    }
    return seat == 0 ? light : 1.0 - light;
}

int urf_save(const urf_table *t, const char *path, pl_buf *err)
{
    int32_t hdr[2] = {t->n, 0};
    return urt_save(path, MAGIC, hdr, 2, t->count, (const void *)t->v, err);
}

urf_table *urf_load(const char *path, pl_buf *err)
{
    int32_t hdr[2];
    uint64_t count;
    FILE *f = urt_open(path, MAGIC, hdr, 2, &count, "is not a Finkel table (parlour solve ur rules=finkel)", err);
    if (!f)
        return NULL;
    urf_table *t = urf_new(hdr[0]);
    if (!t || t->count != count) {
        pl_buf_printf(err, "%s: %s", path, t ? "state count does not match its piece count" : "out of memory");
        urf_free(t);
        t = NULL;
    }
    if (urt_finish(f, path, t ? (void *)t->v : NULL, count, err) < 0) {
        urf_free(t);
        t = NULL;
    }
    return t;
}

static void *table_load(const char *path, pl_buf *err) { return urf_load(path, err); }
static double table_value(const void *t, const void *st, int seat) { return urf_value(t, st, seat); }
static void table_free(void *t) { urf_free(t); }

/* pl_table_ops.solve: Finkel's rules by score layers; other rules are the
 * generic solver's. */
static int table_solve(const void *st, const pl_solve_params *p, pl_buf *report, pl_buf *err)
{
    const ur_state *s = st;
    if (!s->finkel)
        return 0;
    if (p->init) {
        pl_buf_puts(err, "--init: Finkel's solver starts afresh (it takes no table to start from)");
        return -1;
    }
    urf_table *t = urf_new(s->pieces);
    if (!t) {
        pl_buf_puts(err, "out of memory");
        return -1;
    }
    if (p->progress)
        fprintf(p->progress, "solving Finkel's rules with %d pieces: %llu light-to-move states, %d threads\n",
                s->pieces, (unsigned long long)urf_count(t), p->threads);
    long sweeps = urf_solve(t, p->tol, p->threads, p->progress);
    double v = urf_value(t, s, 0);
    pl_buf_printf(report, "rules finkel pieces %d\nstates %llu\nsweeps %ld\nfirst player wins %.12f %%\n",
                  s->pieces, (unsigned long long)urf_count(t), sweeps, 100 * v);
    int rc = p->out && urf_save(t, p->out, err) < 0 ? -1 : 1;
    urf_free(t);
    return rc;
}

const pl_table_ops urf_table_ops = {table_load, table_value, table_free, table_solve, NULL};
