/* ur_skiryuk.c — exact solver for Skiryuk's rules (ur_skiryuk.h), and the
 * game's table functions for both rule sets.
 *
 * A light-to-move state of layer (a, b) is ranked as a block per count
 * combination (singles' light/dark counts, stacks' counts, light's lane
 * count, dark's lane count), then inside the block in mixed radix
 * (single rank, stack rank, light lane rank, dark lane rank). The rank of a
 * part within its counts comes from a table over the part's raw code:
 *   lane:    h(A4) + 5 h(A3) + 10 h(A2) + 50 h(A1)              (100 codes)
 *   singles: A7 A8 C7 C8 B8 base 3 (empty, light, dark), then B1 B2 B4 B5
 *            base 5 (empty, 1 + the piece's two bits)          (151,875 codes)
 *   stacks:  B3 + 341 (B6 + 341 B7); a safe stack of height h is
 *            (4^h - 1) / 3 + its pieces' bits; B7 is 0, or 1 + 30 owner +
 *            2^h - 2 + its sides' bits                         (7,093,141 codes)
 * Dark-to-move states are read through the same code with rows A and C and
 * the owners swapped.
 *
 * Work per state and sweep: four rolls, the rules' legal moves and apply
 * on a copy, one encoding per successor (four table look-ups).
 */
#include "ur_skiryuk.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "parlour/alloc.h"
#include "ur_tfile.h"
#include "ur_finkel.h"

#define MAGIC "PLURSKY1"
#define NONE UINT64_MAX
#define NLANE 100
#define NSINGLE 151875u
#define NSAFE 341u
#define NB7 61u
#define NSTACK (NSAFE * NSAFE * NB7)
#define NCLS 25 /* light count * 5 + dark count, 0..4 each */

/* A part of the position: raw code -> (class, rank), class -> rank -> raw. */
#define CR_NONE UINT32_MAX
#define CR_CLS(x) ((x) >> 27)
#define CR_RANK(x) ((x) & ((1u << 27) - 1))
typedef struct part {
    uint32_t nraw;
    uint32_t *cr; /* class << 27 | rank (one look-up); CR_NONE: more than 4 pieces of a side */
    uint32_t size[NCLS];
    uint32_t *list[NCLS];
} part;

static part p_lane, p_single, p_stack;
static pthread_once_t parts_once = PTHREAD_ONCE_INIT;
static bool parts_ok;

static const uint16_t safe_base[5] = {0, 1, 5, 21, 85};
static uint8_t marks8[256]; /* the marked bits (1, 3, 5, 7) of a stack, packed */

/* Light and dark pieces of a raw code. */
static void lane_count(uint32_t r, int *l, int *d)
{
    *l = (int)(r % 5 + r / 5 % 2 + r / 10 % 5 + r / 50);
    *d = 0;
}

static void single_count(uint32_t r, int *l, int *d)
{
    *l = *d = 0;
    for (int k = 0; k < 5; k++, r /= 3)
        if (r % 3)
            *(r % 3 == 1 ? l : d) += 1;
    for (int k = 0; k < 4; k++, r /= 5)
        if (r % 5)
            *((r % 5 - 1) & 1 ? d : l) += 1;
}

static void safe_decode(uint32_t c, int *h, unsigned *pc)
{
    int k = 0;
    while (k < 4 && c >= safe_base[k + 1])
        k++;
    *h = k;
    *pc = c - safe_base[k];
}

static void b7_decode(uint32_t c, int *h, unsigned *pc)
{
    *h = 0;
    *pc = 0;
    if (!c)
        return;
    c--;
    unsigned owner = c / 30, m = c % 30;
    int k = 1;
    while (m >= (2u << k) - 2)
        k++;
    m -= (1u << k) - 2;
    *h = k;
    for (int lv = 0; lv < k; lv++)
        *pc |= (owner | (((m >> lv) & 1) << 1)) << (2 * lv);
}

static void stack_count(uint32_t r, int *l, int *d)
{
    *l = *d = 0;
    uint32_t code[3] = {r % NSAFE, r / NSAFE % NSAFE, r / (NSAFE * NSAFE)};
    for (int k = 0; k < 3; k++) {
        int h;
        unsigned pc;
        if (k < 2)
            safe_decode(code[k], &h, &pc);
        else
            b7_decode(code[k], &h, &pc);
        for (int lv = 0; lv < h; lv++)
            *((pc >> (2 * lv)) & 1 ? d : l) += 1;
    }
}

static bool part_build(part *p, uint32_t nraw, void (*count)(uint32_t, int *, int *))
{
    p->nraw = nraw;
    p->cr = pl_malloc(nraw * sizeof *p->cr);
    if (!p->cr)
        return false;
    for (uint32_t r = 0; r < nraw; r++) {
        int l, d;
        count(r, &l, &d);
        if (l > 4 || d > 4) {
            p->cr[r] = CR_NONE;
            continue;
        }
        p->cr[r] = (uint32_t)(l * 5 + d) << 27 | p->size[l * 5 + d]++;
    }
    for (int c = 0; c < NCLS; c++) {
        p->list[c] = pl_malloc((p->size[c] ? p->size[c] : 1) * sizeof(uint32_t));
        if (!p->list[c])
            return false;
    }
    for (uint32_t r = 0; r < nraw; r++)
        if (p->cr[r] != CR_NONE)
            p->list[CR_CLS(p->cr[r])][CR_RANK(p->cr[r])] = r;
    return true;
}

/* Built once, on the first table (35 MB for the stacks); never freed. */
static void parts_init(void)
{
    for (unsigned pc = 0; pc < 256; pc++)
        for (int lv = 0; lv < 4; lv++)
            marks8[pc] |= (uint8_t)(((pc >> (2 * lv + 1)) & 1) << lv);
    parts_ok = part_build(&p_lane, NLANE, lane_count) && part_build(&p_single, NSINGLE, single_count) &&
               part_build(&p_stack, NSTACK, stack_count);
}

/* One block: the states of layer (a, b) with these part classes. */
typedef struct block {
    uint64_t start;
    uint8_t a, b, cs, ck, kl, kd;
} block;

struct urs_table {
    int n;
    ur_state proto; /* the options; a light-to-move state before the roll */
    uint64_t count;
    uint64_t layer_start[URS_MAX_PIECES + 1][URS_MAX_PIECES + 1]; /* [a][b]; [n][0] holds count */
    uint64_t *blk;  /* [a][b][cs][ck][kl][kd] -> first index, NONE when empty */
    block *blocks;  /* in index order */
    size_t nblocks;
    double prob[5];
    uint8_t q3[5][2]; /* the two bits of a light / dark piece on A7 A8 C7 C8 B8 */
    _Atomic double *v;
    uint64_t fast_min; /* layer pairs of at least this many states sweep listed successors (urs_fast_min) */
};

/* Squares read for each logical square from a side's view (rows swapped for dark). */
static uint8_t sqmap[2][UR_NSQ];
static const uint8_t three_sq[5] = {UR_A7, UR_A8, UR_C7, UR_C8, UR_B8};
static const uint8_t five_sq[4] = {UR_B1, UR_B2, UR_B4, UR_B5};
static const uint8_t lane_sq[2][4] = {{UR_A4, UR_A3, UR_A2, UR_A1}, {UR_C4, UR_C3, UR_C2, UR_C1}};
static const uint32_t pow3[5] = {1, 3, 9, 27, 81};
static const uint32_t pow5[4] = {243, 1215, 6075, 30375};

__attribute__((constructor)) static void urs_sqmap(void)
{
    for (int sq = 0; sq < UR_NSQ; sq++) {
        sqmap[0][sq] = (uint8_t)sq;
        sqmap[1][sq] = (uint8_t)(sq <= UR_A8 ? sq + UR_C1 : sq >= UR_C1 ? sq - UR_C1 : sq);
    }
}

static inline size_t blk_at(int a, int b, int cs, int ck, int kl, int kd)
{
    return ((((((size_t)a * (URS_MAX_PIECES + 1) + (size_t)b) * NCLS + (size_t)cs) * NCLS + (size_t)ck) * 5 +
             (size_t)kl) * 5) + (size_t)kd;
}
#define NBLK ((size_t)(URS_MAX_PIECES + 1) * (URS_MAX_PIECES + 1) * NCLS * NCLS * 25)

/* Index of `s` (phase roll or move, not over) seen from `side` as light;
 * NONE when it is not in the table. */
static inline uint64_t enc(const urs_table *t, const ur_state *s, int side)
{
    const uint8_t *m = sqmap[side];
    const uint8_t *h = s->h, *pc = s->pc;
    unsigned fl = (unsigned)side;
    uint32_t ln[2];
    for (int k = 0; k < 2; k++) {
        const uint8_t *q = lane_sq[k ^ side];
        ln[k] = h[q[0]] + 5u * h[q[1]] + 10u * h[q[2]] + 50u * h[q[3]];
    }
    uint32_t rs = 0;
    for (int k = 0; k < 5; k++) {
        int x = m[three_sq[k]];
        if (h[x])
            rs += (1 + ((pc[x] & 1u) ^ fl)) * pow3[k];
    }
    for (int k = 0; k < 4; k++) {
        int x = five_sq[k];
        if (h[x])
            rs += (1 + ((pc[x] & 3u) ^ fl)) * pow5[k];
    }
    static const uint8_t m55[5] = {0, 0x1, 0x5, 0x15, 0x55};
    uint32_t b3 = safe_base[h[UR_B3]] + (pc[UR_B3] ^ (fl ? m55[h[UR_B3]] : 0));
    uint32_t b6 = safe_base[h[UR_B6]] + (pc[UR_B6] ^ (fl ? m55[h[UR_B6]] : 0));
    uint32_t b7 = h[UR_B7] ? 1 + ((pc[UR_B7] & 1u) ^ fl) * 30 + (1u << h[UR_B7]) - 2 + marks8[pc[UR_B7]] : 0;
    uint32_t rk = b3 + NSAFE * (b6 + NSAFE * b7);
    uint32_t xs = p_single.cr[rs], xk = p_stack.cr[rk], xl = p_lane.cr[ln[0]], xd = p_lane.cr[ln[1]];
    int a = s->off[side], b = s->off[side ^ 1];
    if (xs == CR_NONE || xk == CR_NONE || xl == CR_NONE || xd == CR_NONE || a >= t->n || b >= t->n)
        return NONE;
    int cs = (int)CR_CLS(xs), ck = (int)CR_CLS(xk), kl = (int)CR_CLS(xl) / 5, kd = (int)CR_CLS(xd) / 5;
    uint64_t base = t->blk[blk_at(a, b, cs, ck, kl, kd)];
    if (base == NONE)
        return NONE;
    return base + (((uint64_t)CR_RANK(xs) * p_stack.size[ck] + CR_RANK(xk)) * p_lane.size[kl * 5] + CR_RANK(xl)) *
                      p_lane.size[kd * 5] +
           CR_RANK(xd);
}

static inline double V(const urs_table *t, uint64_t i)
{
    return atomic_load_explicit(&t->v[i], memory_order_relaxed);
}

/* The light-to-move state of index i. */
static void dec(const urs_table *t, uint64_t i, ur_state *s)
{
    size_t lo = 0, hi = t->nblocks;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (t->blocks[mid].start <= i)
            lo = mid;
        else
            hi = mid;
    }
    const block *bk = &t->blocks[lo];
    uint64_t r = i - bk->start;
    uint32_t nl = p_lane.size[bk->kl * 5], nd = p_lane.size[bk->kd * 5];
    uint32_t rd = (uint32_t)(r % nd);
    r /= nd;
    uint32_t rl = (uint32_t)(r % nl);
    r /= nl;
    uint32_t rk = (uint32_t)(r % p_stack.size[bk->ck]);
    uint32_t rs = (uint32_t)(r / p_stack.size[bk->ck]);
    *s = t->proto;
    memset(s->h, 0, sizeof s->h);
    memset(s->pc, 0, sizeof s->pc);
    uint32_t ln[2] = {p_lane.list[bk->kl * 5][rl], p_lane.list[bk->kd * 5][rd]};
    for (int k = 0; k < 2; k++) {
        uint32_t c = ln[k];
        uint32_t hh[4] = {c % 5, c / 5 % 2, c / 10 % 5, c / 50};
        for (int j = 0; j < 4; j++) {
            int x = lane_sq[k][j];
            s->h[x] = (uint8_t)hh[j];
            s->pc[x] = (uint8_t)(k ? 0x55 >> (8 - 2 * hh[j]) : 0);
        }
    }
    uint32_t c = p_single.list[bk->cs][rs];
    for (int k = 0; k < 5; k++, c /= 3)
        if (c % 3) {
            s->h[three_sq[k]] = 1;
            s->pc[three_sq[k]] = t->q3[k][c % 3 - 1];
        }
    for (int k = 0; k < 4; k++, c /= 5)
        if (c % 5) {
            s->h[five_sq[k]] = 1;
            s->pc[five_sq[k]] = (uint8_t)(c % 5 - 1);
        }
    c = p_stack.list[bk->ck][rk];
    int h;
    unsigned pc;
    safe_decode(c % NSAFE, &h, &pc);
    s->h[UR_B3] = (uint8_t)h;
    s->pc[UR_B3] = (uint8_t)pc;
    safe_decode(c / NSAFE % NSAFE, &h, &pc);
    s->h[UR_B6] = (uint8_t)h;
    s->pc[UR_B6] = (uint8_t)pc;
    b7_decode(c / (NSAFE * NSAFE), &h, &pc);
    s->h[UR_B7] = (uint8_t)h;
    s->pc[UR_B7] = (uint8_t)pc;
    int onl = bk->cs / 5 + bk->ck / 5 + bk->kl, ond = bk->cs % 5 + bk->ck % 5 + bk->kd;
    s->off[0] = bk->a;
    s->off[1] = bk->b;
    s->reserve[0] = (uint8_t)(t->n - bk->a - onl);
    s->reserve[1] = (uint8_t)(t->n - bk->b - ond);
    s->phase = UR_PH_ROLL;
    s->turn = 0;
    s->roll = 0;
    s->opening = 0;
    ur_refresh_masks(s);
}

void urs_state(const urs_table *t, uint64_t i, ur_state *out) { dec(t, i, out); }

/* The light-to-move state s with rows A and C and the owners swapped (its
 * mirror: the position after a pass, seen from the other side). */
static void flip(const ur_state *s, ur_state *f)
{
    static const uint8_t m55[5] = {0, 0x1, 0x5, 0x15, 0x55};
    *f = *s;
    for (int sq = 0; sq < UR_NSQ; sq++) {
        int x = sqmap[1][sq];
        f->h[sq] = s->h[x];
        f->pc[sq] = (uint8_t)(s->pc[x] ^ m55[s->h[x]]);
    }
    f->off[0] = s->off[1];
    f->off[1] = s->off[0];
    f->reserve[0] = s->reserve[1];
    f->reserve[1] = s->reserve[0];
    ur_refresh_masks(f);
}

static bool options_match(const ur_state *a, const ur_state *b)
{
    return !a->finkel && !b->finkel && a->pieces == b->pieces && a->d4 == b->d4 && a->loop == b->loop &&
           a->stackany == b->stackany;
}

urs_table *urs_new(const ur_state *proto, pl_buf *err)
{
    if (proto->finkel || proto->pieces < 1 || proto->pieces > URS_MAX_PIECES) {
        pl_buf_printf(err, "the Skiryuk solver takes Skiryuk's rules with 1..%d pieces", URS_MAX_PIECES);
        return NULL;
    }
    pthread_once(&parts_once, parts_init);
    urs_table *t = parts_ok ? pl_calloc(1, sizeof *t) : NULL;
    if (!t) {
        pl_buf_puts(err, "out of memory");
        return NULL;
    }
    int n = t->n = proto->pieces;
    t->proto = *proto;
    t->proto.phase = UR_PH_ROLL;
    t->proto.turn = 0;
    t->proto.roll = 0;
    t->proto.opening = 0;
    for (int r = 1; r <= 4; r++)
        t->prob[r] = proto->d4 ? 0.25 : (r <= 2 ? 3 / 8.0 : 1 / 8.0);
    for (int k = 0; k < 5; k++)
        for (int o = 0; o < 2; o++) {
            /* a piece of owner o on this square shows the side its path gives there (UR-R8) */
            int marked = ur_path_idx(proto, o, three_sq[k], 0) == 0;
            t->q3[k][o] = (uint8_t)(o | marked << 1);
        }
    t->blk = pl_malloc(NBLK * sizeof *t->blk);
    size_t cap = 1024;
    t->blocks = pl_malloc(cap * sizeof *t->blocks);
    if (!t->blk || !t->blocks)
        goto oom;
    for (size_t i = 0; i < NBLK; i++)
        t->blk[i] = NONE;
    uint64_t at = 0;
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            t->layer_start[a][b] = at;
            int nl = n - a, nd = n - b;
            for (int cs = 0; cs < NCLS; cs++)
                for (int ck = 0; ck < NCLS; ck++)
                    for (int kl = 0; kl <= 4; kl++)
                        for (int kd = 0; kd <= 4; kd++) {
                            if (cs / 5 + ck / 5 + kl > nl || cs % 5 + ck % 5 + kd > nd)
                                continue;
                            uint64_t size = (uint64_t)p_single.size[cs] * p_stack.size[ck] * p_lane.size[kl * 5] *
                                            p_lane.size[kd * 5];
                            if (!size)
                                continue;
                            if (t->nblocks == cap) {
                                block *nb = pl_realloc(t->blocks, 2 * cap * sizeof *nb);
                                if (!nb)
                                    goto oom;
                                t->blocks = nb;
                                cap *= 2;
                            }
                            t->blocks[t->nblocks++] = (block){at, (uint8_t)a, (uint8_t)b, (uint8_t)cs, (uint8_t)ck,
                                                              (uint8_t)kl, (uint8_t)kd};
                            t->blk[blk_at(a, b, cs, ck, kl, kd)] = at;
                            at += size;
                        }
        }
    t->count = at;
    t->layer_start[n][0] = at;
    t->v = pl_malloc((size_t)at * sizeof *t->v);
    if (!t->v)
        goto oom;
    for (uint64_t i = 0; i < at; i++)
        atomic_init(&t->v[i], 0.5);
    t->fast_min = URS_FAST_MIN;
    return t;
oom:
    pl_buf_puts(err, "out of memory");
    urs_free(t);
    return NULL;
}

void urs_free(urs_table *t)
{
    if (!t)
        return;
    pl_free((void *)t->v);
    pl_free(t->blk);
    pl_free(t->blocks);
    pl_free(t);
}

uint64_t urs_count(const urs_table *t) { return t->count; }

static uint64_t layer_end(const urs_table *t, int a, int b)
{
    return b + 1 < t->n ? t->layer_start[a][b + 1] : a + 1 < t->n ? t->layer_start[a + 1][0] : t->count;
}

/* The expectation over the rolls that allow a move (A) and the probability
 * of those that do not (p, the pass to the other side) of the light-to-move
 * state s. */
static void eval(const urs_table *t, const ur_state *s, double *A, double *p)
{
    pl_action acts[32];
    ur_state st = *s, c;
    *A = *p = 0;
    st.phase = UR_PH_MOVE;
    for (int r = 1; r <= 4; r++) {
        st.roll = (uint8_t)r;
        int n = ur_game.legal(&st, 0, acts, 32);
        if (n == 1 && acts[0] == UR_ACT_PASS) {
            *p += t->prob[r];
            continue;
        }
        double best = 0;
        for (int j = 0; j < n && j < 32; j++) {
            c = st;
            ur_game.apply(&c, 0, acts[j]);
            double v = c.phase == UR_PH_OVER ? 1.0 : c.turn == 0 ? V(t, enc(t, &c, 0)) : 1.0 - V(t, enc(t, &c, 1));
            if (v > best)
                best = v;
        }
        *A += t->prob[r] * best;
    }
}

typedef struct job {
    urs_table *t;
    const uint32_t *order; /* the layer's states, most progress first */
    uint64_t base;         /* index of the layer's first state */
    uint64_t lo, hi;       /* the share of `order` to sweep */
    bool same; /* the layer is its own mirror */
    double delta;
} job;

static void set_v(urs_table *t, uint64_t i, double x, double *delta)
{
    double old = V(t, i), d = x > old ? x - old : old - x;
    atomic_store_explicit(&t->v[i], x, memory_order_relaxed);
    if (d > *delta)
        *delta = d;
}

/* A state i and its mirror fi updated together: the two equations
 * V(i) = A + p (1 - V(fi)), V(fi) = B + q (1 - V(i)) solved exactly. */
static void set_pair(urs_table *t, uint64_t i, double A, double p, uint64_t fi, double B, double q, double *delta)
{
    double den = 1 - p * q, x, y;
    if (den < 1e-300) { /* neither side can ever move: no winner; not reachable */
        x = y = 0.5;
    } else {
        x = (A + p - p * (B + q)) / den;
        y = B + q * (1 - x);
    }
    set_v(t, i, x, delta);
    set_v(t, fi, y, delta);
}

/* One Gauss-Seidel sweep over [lo, hi) of a layer, each state updated
 * together with its mirror (the position after a pass): the two equations
 * V(s) = A + p (1 - V(f)), V(f) = B + q (1 - V(s)) solved exactly. */
static void *sweep(void *arg)
{
    job *j = arg;
    urs_table *t = j->t;
    ur_state s, f;
    double delta = 0;
    for (uint64_t k = j->lo; k < j->hi; k++) {
        uint64_t i = j->base + j->order[k];
        dec(t, i, &s);
        uint64_t fi = enc(t, &s, 1);
        if (j->same && fi < i)
            continue;
        double A, p;
        eval(t, &s, &A, &p);
        if (fi == i) {
            set_v(t, i, (A + p) / (1 + p), &delta);
            continue;
        }
        double B, q;
        flip(&s, &f);
        eval(t, &f, &B, &q);
        set_pair(t, i, A, p, fi, B, q, &delta);
    }
    j->delta = delta;
    return NULL;
}

/* Total progress of a position: the sum of its pieces' path indices. */
static int progress_of(const ur_state *s)
{
    int sum = 0;
    for (int sq = 0; sq < UR_NSQ; sq++)
        for (int lv = 0; lv < s->h[sq]; lv++) {
            int q = (s->pc[sq] >> (2 * lv)) & 3;
            sum += ur_path_idx(s, q & 1, sq, q >> 1);
        }
    return sum;
}

/* The states of [lo, lo + size) ordered by total progress, the most first:
 * an ordinary move adds progress, so its successor is already fresh in the
 * sweep; only captures and passes point back. NULL when out of memory. */
static uint32_t *progress_order(const urs_table *t, uint64_t lo, uint64_t size)
{
    enum { PMAX = 2 * URS_MAX_PIECES * 24 };
    uint8_t *pg = pl_malloc(size ? (size_t)size : 1);
    uint32_t *order = pl_malloc((size ? (size_t)size : 1) * sizeof *order);
    uint64_t start[PMAX + 2] = {0};
    if (!pg || !order) {
        pl_free(pg);
        pl_free(order);
        return NULL;
    }
    ur_state s;
    for (uint64_t i = 0; i < size; i++) {
        dec(t, lo + i, &s);
        pg[i] = (uint8_t)(PMAX - progress_of(&s));
        start[pg[i] + 1]++;
    }
    for (int p = 0; p <= PMAX; p++)
        start[p + 1] += start[p];
    for (uint64_t i = 0; i < size; i++)
        order[start[pg[i]]++] = (uint32_t)i;
    pl_free(pg);
    return order;
}

/* ---- Listed successors (large layer pairs) ----
 *
 * A sweep spends nearly all its time in eval: four rolls, the rules' legal
 * moves, apply and an encoding per successor. In a large layer pair every
 * state is evaluated dozens of times with the same successors, so they are
 * listed once, before the first sweep: per state a code (the number of
 * moves of each roll, which rolls pass, which thread's list holds it) and
 * its successors as references (an index, with a bit for "the other side
 * moves next": 1 - V; SUCC_OVER for a finished game), in the order eval
 * visits them. A sweep then reads values only, in the same order with the
 * same arithmetic: the values are those of eval to the last bit
 * (test_unit_ur_skiryuk compares the tables). Memory: about 4 bytes a
 * successor and 8 a state; without it, the plain sweep. */
#define SUCC_OVER UINT32_MAX
#define SUCC_FLIP 0x80000000u
#define FAST_THREADS 16

typedef struct fastlist {
    uint64_t n;        /* states of the pair: size, or 2 size with a mirror layer */
    uint64_t size, lo, mlo;
    bool same;
    uint32_t *code;    /* per local state: 4 bits of moves per roll, 4 pass bits, 4 bits of list */
    uint32_t *off;     /* per local state: its first reference in list code >> 20 */
    uint32_t *mir;     /* per layer state (local < size): the local index of its mirror */
    uint32_t *ref[FAST_THREADS];
    uint64_t nref[FAST_THREADS], cap[FAST_THREADS];
    atomic_bool failed; /* out of memory, or more than 15 moves of a roll */
} fastlist;

typedef struct fjob {
    const urs_table *t;
    fastlist *F;
    int w;
    uint64_t lo, hi; /* layer states [lo, hi) (local) */
} fjob;

static uint64_t local_of(const fastlist *F, uint64_t gi)
{
    return F->same || (gi >= F->lo && gi < F->lo + F->size) ? gi - F->lo : gi - F->mlo + F->size;
}

static uint64_t global_of(const fastlist *F, uint64_t li)
{
    return li < F->size ? F->lo + li : F->mlo + li - F->size;
}

/* Lists the successors of light-to-move state s as local state li, into
 * thread w's list: what eval would visit. */
static bool list_state(const urs_table *t, fastlist *F, int w, uint64_t li, const ur_state *s)
{
    pl_action acts[32];
    ur_state st = *s, c;
    uint32_t code = (uint32_t)w << 20;
    uint64_t start = F->nref[w];
    st.phase = UR_PH_MOVE;
    for (int r = 1; r <= 4; r++) {
        st.roll = (uint8_t)r;
        int n = ur_game.legal(&st, 0, acts, 32);
        if (n == 1 && acts[0] == UR_ACT_PASS) {
            code |= 1u << (16 + r - 1);
            continue;
        }
        if (n > 32)
            n = 32;
        if (n > 15)
            return false;
        if (F->nref[w] + (uint64_t)n > F->cap[w]) {
            uint64_t cap = F->cap[w] ? 2 * F->cap[w] : 1u << 20;
            uint32_t *nr = pl_realloc(F->ref[w], (size_t)cap * sizeof *nr);
            if (!nr)
                return false;
            F->ref[w] = nr;
            F->cap[w] = cap;
        }
        for (int j = 0; j < n; j++) {
            c = st;
            ur_game.apply(&c, 0, acts[j]);
            uint32_t x;
            if (c.phase == UR_PH_OVER)
                x = SUCC_OVER;
            else if (c.turn == 0)
                x = (uint32_t)enc(t, &c, 0);
            else
                x = (uint32_t)enc(t, &c, 1) | SUCC_FLIP;
            F->ref[w][F->nref[w]++] = x;
        }
        code |= (uint32_t)n << (4 * (r - 1));
    }
    if (F->nref[w] - start > UINT32_MAX || start > UINT32_MAX)
        return false;
    F->code[li] = code;
    F->off[li] = (uint32_t)start;
    return true;
}

/* Lists the states of [lo, hi) of the layer and their mirrors, as the
 * sweep pairs them. */
static void *list_part(void *arg)
{
    fjob *j = arg;
    fastlist *F = j->F;
    ur_state s, f;
    for (uint64_t li = j->lo; li < j->hi && !atomic_load_explicit(&F->failed, memory_order_relaxed); li++) {
        uint64_t i = F->lo + li;
        dec(j->t, i, &s);
        uint64_t fi = enc(j->t, &s, 1), fl = local_of(F, fi);
        F->mir[li] = (uint32_t)fl;
        if (F->same && fl < li)
            continue;
        bool ok = list_state(j->t, F, j->w, li, &s);
        if (ok && fl != li) {
            flip(&s, &f);
            ok = list_state(j->t, F, j->w, fl, &f);
        }
        if (!ok)
            atomic_store_explicit(&F->failed, true, memory_order_relaxed);
    }
    return NULL;
}

static void fast_free(fastlist *F)
{
    pl_free(F->code);
    pl_free(F->off);
    pl_free(F->mir);
    for (int w = 0; w < FAST_THREADS; w++)
        pl_free(F->ref[w]);
    memset(F, 0, sizeof *F);
}

/* Lists the pair (a, b) = [lo, lo + size) and its mirror at mlo. false
 * (nothing kept) when memory runs short or a roll has over 15 moves. */
static bool fast_build(const urs_table *t, fastlist *F, uint64_t lo, uint64_t mlo, uint64_t size, bool same,
                       int threads)
{
    memset(F, 0, sizeof *F);
    atomic_init(&F->failed, false);
    F->size = size;
    F->lo = lo;
    F->mlo = mlo;
    F->same = same;
    F->n = same ? size : 2 * size;
    if (F->n > UINT32_MAX)
        return false;
    F->code = pl_malloc((size_t)F->n * sizeof *F->code);
    F->off = pl_malloc((size_t)F->n * sizeof *F->off);
    F->mir = pl_malloc((size_t)size * sizeof *F->mir);
    if (!F->code || !F->off || !F->mir) {
        fast_free(F);
        return false;
    }
    if (threads > FAST_THREADS)
        threads = FAST_THREADS;
    fjob jobs[FAST_THREADS];
    pthread_t tid[FAST_THREADS];
    bool started[FAST_THREADS] = {false};
    for (int w = 0; w < threads; w++)
        jobs[w] = (fjob){t, F, w, size * (uint64_t)w / (uint64_t)threads, size * (uint64_t)(w + 1) / (uint64_t)threads};
    for (int w = 1; w < threads; w++)
        started[w] = pthread_create(&tid[w], NULL, list_part, &jobs[w]) == 0;
    list_part(&jobs[0]);
    for (int w = 1; w < threads; w++) {
        if (started[w])
            pthread_join(tid[w], NULL);
        else
            list_part(&jobs[w]);
    }
    if (atomic_load(&F->failed)) {
        fast_free(F);
        return false;
    }
    return true;
}

/* eval from the list of local state li: the same visits, the same sums. */
static inline void fast_eval(const urs_table *t, const fastlist *F, uint64_t li, double *A, double *p)
{
    uint32_t code = F->code[li];
    const uint32_t *x = F->ref[code >> 20] + F->off[li];
    *A = *p = 0;
    for (int r = 1; r <= 4; r++) {
        if (code >> (16 + r - 1) & 1) {
            *p += t->prob[r];
            continue;
        }
        int n = (int)(code >> (4 * (r - 1)) & 15);
        double best = 0;
        for (int j = 0; j < n; j++, x++) {
            double v = *x == SUCC_OVER ? 1.0 : *x & SUCC_FLIP ? 1.0 - V(t, *x & ~SUCC_FLIP) : V(t, *x);
            if (v > best)
                best = v;
        }
        *A += t->prob[r] * best;
    }
}

typedef struct sjob {
    urs_table *t;
    const fastlist *F;
    const uint32_t *order;
    uint64_t lo, hi;
    double delta;
} sjob;

/* The sweep of [lo, hi) of the order from the lists: as sweep(). */
static void *sweep_fast(void *arg)
{
    sjob *j = arg;
    urs_table *t = j->t;
    const fastlist *F = j->F;
    double delta = 0;
    for (uint64_t k = j->lo; k < j->hi; k++) {
        uint64_t li = j->order[k], fl = F->mir[li];
        if (F->same && fl < li)
            continue;
        uint64_t i = F->lo + li, fi = global_of(F, fl);
        double A, p;
        fast_eval(t, F, li, &A, &p);
        if (fl == li) {
            set_v(t, i, (A + p) / (1 + p), &delta);
            continue;
        }
        double B, q;
        fast_eval(t, F, fl, &B, &q);
        set_pair(t, i, A, p, fi, B, q, &delta);
    }
    j->delta = delta;
    return NULL;
}

void urs_fast_min(urs_table *t, uint64_t states) { t->fast_min = states; }

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* When the residual shrinks by a steady ratio rho every two sweeps, the
 * error is mostly modes that two sweeps multiply by rho: the limit is about
 * x + (x - prev) rho / (1 - rho), prev the values two sweeps back (Aitken).
 * The stopping test stays a plain sweep's, so the tolerance holds for the
 * values kept. */
static void extrapolate(urs_table *t, uint64_t lo, uint64_t size, const double *prev, double w)
{
    for (uint64_t i = 0; i < size; i++) {
        double x = V(t, lo + i);
        x += (x - prev[i]) * w;
        atomic_store_explicit(&t->v[lo + i], x < 0 ? 0 : x > 1 ? 1 : x, memory_order_relaxed);
    }
}

long urs_solve(urs_table *t, double tol, int threads, FILE *progress)
{
    int n = t->n;
    long sweeps = 0;
    if (threads < 1)
        threads = 1;
    if (threads > 16)
        threads = 16;
    double t0 = now();
    for (int sum = 2 * n - 2; sum >= 0; sum--)
        for (int a = sum < n ? 0 : sum - n + 1; 2 * a <= sum; a++) {
            int b = sum - a;
            uint64_t lo = t->layer_start[a][b], hi = layer_end(t, a, b);
            uint64_t size = hi - lo;
            int nt = size < 100000 ? 1 : threads;
            uint32_t *order = progress_order(t, lo, size);
            if (!order) {
                if (progress)
                    fputs("out of memory\n", progress);
                return -1;
            }
            job jobs[16];
            sjob sjobs[16];
            fastlist F;
            bool fast = size > 0 && size >= t->fast_min && fast_build(t, &F, lo, t->layer_start[b][a], size, a == b, nt);
            if (fast && progress && size > 1000000) {
                uint64_t refs = 0;
                for (int w = 0; w < FAST_THREADS; w++)
                    refs += F.nref[w];
                fprintf(progress, "  layers %d/%d: successors listed, %llu of them (%.0f s)\n", a, b,
                        (unsigned long long)refs, now() - t0);
                fflush(progress);
            }
            long k = 0;
            double delta, hist[4] = {0, 0, 0, 0}; /* the last residuals since the last extrapolation */
            int c = 0;             /* sweeps since then */
            /* the pair's values two sweeps back (extrapolation), NULL when
             * memory is short: plain sweeps then */
            uint64_t mlo = t->layer_start[b][a];
            double *prev = pl_malloc((size_t)size * (a == b ? 1 : 2) * sizeof *prev);
            do {
                if (prev && c % 2 == 0)
                    for (uint64_t i = 0; i < size; i++) {
                        prev[i] = V(t, lo + i);
                        if (a != b)
                            prev[size + i] = V(t, mlo + i);
                    }
                for (int w = 0; w < nt; w++) {
                    jobs[w] = (job){t, order, lo, size * (uint64_t)w / (uint64_t)nt,
                                    size * (uint64_t)(w + 1) / (uint64_t)nt, a == b, 0};
                    sjobs[w] = (sjob){t, &F, order, jobs[w].lo, jobs[w].hi, 0};
                }
                void *(*fn)(void *) = fast ? sweep_fast : sweep;
                pthread_t tid[16];
                bool started[16] = {false};
                for (int w = 1; w < nt; w++)
                    started[w] = pthread_create(&tid[w], NULL, fn, fast ? (void *)&sjobs[w] : (void *)&jobs[w]) == 0;
                fn(fast ? (void *)&sjobs[0] : (void *)&jobs[0]);
                for (int w = 1; w < nt; w++) {
                    if (started[w])
                        pthread_join(tid[w], NULL);
                    else
                        fn(fast ? (void *)&sjobs[w] : (void *)&jobs[w]);
                }
                delta = 0;
                for (int w = 0; w < nt; w++) {
                    double d = fast ? sjobs[w].delta : jobs[w].delta;
                    if (d > delta)
                        delta = d;
                }
                k++;
                hist[0] = hist[1];
                hist[1] = hist[2];
                hist[2] = hist[3];
                hist[3] = delta;
                c++;
                /* residuals shrinking by a steady ratio every two sweeps (modes
                 * of either sign: each move hands the turn over, V -> 1 - V) */
                double rho = c >= 4 ? hist[3] / hist[1] : 0, rho1 = c >= 4 ? hist[2] / hist[0] : 0;
                bool steady = prev && c % 2 == 0 && c >= 4 && delta > tol && delta < 1e-3 && rho > 0.01 &&
                              rho < 0.9 && fabs(rho - rho1) < 0.1 * rho;
                if (progress && size > 1000000) {
                    fprintf(progress, "  layers %d/%d: sweep %ld residual %.3g%s (%.0f s)\n", a, b, k, delta,
                            steady ? ", extrapolated" : "", now() - t0);
                    fflush(progress);
                }
                if (steady) {
                    extrapolate(t, lo, size, prev, rho / (1 - rho));
                    if (a != b)
                        extrapolate(t, mlo, size, prev + size, rho / (1 - rho));
                    c = 0;
                }
            } while (delta > tol && size > 0);
            if (fast)
                fast_free(&F);
            pl_free(prev);
            pl_free(order);
            sweeps += k;
            if (progress) {
                fprintf(progress, "layers %d/%d and %d/%d: %llu states, %ld sweeps, residual %.3g (%.0f s)\n", a,
                        b, b, a, (unsigned long long)(a == b ? size : 2 * size), k, delta, now() - t0);
                fflush(progress);
            }
        }
    return sweeps;
}

/* A share of the table for urs_verify: its largest residual and where. */
typedef struct vjob {
    const urs_table *t;
    uint64_t lo, hi;
    double worst;
    uint64_t at;
} vjob;

/* The residual of every state of [lo, hi): |V(s) - (A + p (1 - V(f)))|,
 * the equation a sweep solves (f: the position after a pass). */
static void *verify_part(void *arg)
{
    vjob *j = arg;
    ur_state s;
    for (uint64_t i = j->lo; i < j->hi; i++) {
        dec(j->t, i, &s);
        double A, p;
        eval(j->t, &s, &A, &p);
        double r = fabs(V(j->t, i) - (A + p * (1 - V(j->t, enc(j->t, &s, 1)))));
        if (r > j->worst) {
            j->worst = r;
            j->at = i;
        }
    }
    return NULL;
}

double urs_verify(const urs_table *t, int threads, uint64_t *at)
{
    if (threads < 1)
        threads = 1;
    if (threads > 16)
        threads = 16;
    vjob jobs[16];
    pthread_t tid[16];
    bool started[16] = {false};
    for (int w = 0; w < threads; w++)
        jobs[w] = (vjob){t, t->count * (uint64_t)w / (uint64_t)threads,
                         t->count * (uint64_t)(w + 1) / (uint64_t)threads, 0, 0};
    for (int w = 1; w < threads; w++)
        started[w] = pthread_create(&tid[w], NULL, verify_part, &jobs[w]) == 0;
    verify_part(&jobs[0]);
    double worst = 0;
    *at = 0;
    for (int w = 0; w < threads; w++) {
        if (w > 0) {
            if (started[w])
                pthread_join(tid[w], NULL);
            else
                verify_part(&jobs[w]);
        }
        if (jobs[w].worst > worst) {
            worst = jobs[w].worst;
            *at = jobs[w].at;
        }
    }
    return worst;
}

/* P(light wins) at s (phase first, roll or over), or -1. */
static double light_value(const urs_table *t, const ur_state *s)
{
    if (s->phase == UR_PH_OVER)
        return s->off[0] == s->pieces ? 1.0 : 0.0;
    if (s->phase == UR_PH_MOVE)
        return -1;
    if (s->phase == UR_PH_ROLL && !s->opening) {
        uint64_t i = enc(t, s, s->turn);
        if (i == NONE)
            return -1;
        return s->turn == 0 ? V(t, i) : 1.0 - V(t, i);
    }
    /* the draw for the start, or the starter's forced 1: over the outcomes */
    pl_action outs[8], acts[32];
    double prob[8], sum = 0;
    int no = ur_game.chance(s, outs, prob, 8);
    for (int o = 0; o < no; o++) {
        ur_state c = *s;
        ur_game.apply(&c, 0, outs[o]);
        double v;
        if (c.phase != UR_PH_MOVE) {
            v = light_value(t, &c);
        } else {
            int mover = c.turn, na = ur_game.legal(&c, mover, acts, 32);
            v = mover ? 2 : -1;
            for (int j = 0; j < na && j < 32; j++) {
                ur_state d = c;
                ur_game.apply(&d, mover, acts[j]);
                double x = light_value(t, &d);
                if (x < 0)
                    return -1;
                v = mover ? (x < v ? x : v) : (x > v ? x : v);
            }
        }
        if (v < 0)
            return -1;
        sum += prob[o] * v;
    }
    return sum;
}

double urs_value(const urs_table *t, const ur_state *s, int seat)
{
    if (!options_match(s, &t->proto))
        return -1;
    double light = light_value(t, s);
    if (light < 0)
        return -1;
    return seat == 0 ? light : 1.0 - light;
}

/* FNV-1a of a final position (board, counts, turn) and the side it is seen from. */
static uint64_t final_key(const ur_state *s, int side)
{
    uint64_t x = 1469598103934665603ULL;
    const uint8_t *parts[3] = {s->h, s->pc, s->off};
    size_t len[3] = {UR_NSQ, UR_NSQ, 2};
    for (int k = 0; k < 3; k++)
        for (size_t i = 0; i < len[k]; i++)
            x = (x ^ parts[k][i]) * 1099511628211ULL;
    return (x ^ (uint64_t)side) * 1099511628211ULL;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

typedef struct u64s {
    uint64_t *v;
    size_t n, cap;
} u64s;

static bool push(u64s *a, uint64_t x)
{
    if (a->n == a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 1024;
        uint64_t *nv = pl_realloc(a->v, cap * sizeof *nv);
        if (!nv)
            return false;
        a->v = nv;
        a->cap = cap;
    }
    a->v[a->n++] = x;
    return true;
}

/* Expands a light-to-move state u seen from `side` (the real position is u
 * flipped when side is 1): its successors, or the opening's. */
static bool expand(const urs_table *t, const ur_state *u, int side, uint64_t *seen, u64s *stack, u64s *finals)
{
    pl_action outs[8], acts[32];
    double prob[8];
    int no = ur_game.chance(u, outs, prob, 8);
    for (int o = 0; o < no; o++) {
        ur_state c = *u;
        ur_game.apply(&c, 0, outs[o]);
        int mover = c.turn, na = ur_game.legal(&c, mover, acts, 32);
        for (int j = 0; j < na && j < 32; j++) {
            ur_state d = c;
            ur_game.apply(&d, mover, acts[j]);
            if (d.phase == UR_PH_OVER) {
                if (!push(finals, final_key(&d, side)))
                    return false;
                continue;
            }
            uint64_t i = enc(t, &d, d.turn);
            int real = d.turn ^ side; /* who is to move in the real position */
            uint64_t bit = 2 * i + (uint64_t)real;
            if (i != NONE && !(seen[bit / 64] >> (bit % 64) & 1)) {
                seen[bit / 64] |= 1ULL << (bit % 64);
                if (!push(stack, bit))
                    return false;
            }
        }
    }
    return true;
}

int64_t urs_positions(const urs_table *t, const ur_state *root)
{
    uint64_t words = (2 * t->count + 63) / 64;
    uint64_t *seen = pl_calloc((size_t)words, sizeof *seen);
    u64s stack = {0}, finals = {0};
    int64_t total = -1;
    if (!seen)
        goto done;
    /* the opening: the starter (seen as light) enters with the forced 1 */
    ur_state u = *root;
    int side = u.turn;
    if (u.phase != UR_PH_ROLL || !u.opening)
        goto done;
    if (side) {
        /* seen from dark: swap rows and owners of the (empty) board: only the turn changes */
        u.turn = 0;
    }
    if (!expand(t, &u, side, seen, &stack, &finals))
        goto done;
    while (stack.n) {
        uint64_t bit = stack.v[--stack.n];
        uint64_t i = bit / 2;
        int real = (int)(bit % 2);
        dec(t, i, &u);
        if (!expand(t, &u, real, seen, &stack, &finals))
            goto done;
    }
    total = 1; /* the opening */
    for (uint64_t w = 0; w < words; w++)
        total += __builtin_popcountll(seen[w]);
    if (finals.n) {
        qsort(finals.v, finals.n, sizeof *finals.v, cmp_u64);
        total++;
        for (size_t k = 1; k < finals.n; k++)
            total += finals.v[k] != finals.v[k - 1];
    }
done:
    pl_free(seen);
    pl_free(stack.v);
    pl_free(finals.v);
    return total;
}

int urs_save(const urs_table *t, const char *path, pl_buf *err)
{
    int32_t hdr[4] = {t->n, t->proto.d4, t->proto.loop, t->proto.stackany};
    return urt_save(path, MAGIC, hdr, 4, t->count, (const void *)t->v, err);
}

urs_table *urs_load(const char *path, pl_buf *err)
{
    static const char not_mine[] = "is not a Skiryuk table (parlour solve ur pieces=N --out FILE)";
    int32_t hdr[4];
    uint64_t count;
    FILE *f = urt_open(path, MAGIC, hdr, 4, &count, not_mine, err);
    if (!f)
        return NULL;
    if (hdr[0] < 1 || hdr[0] > URS_MAX_PIECES || hdr[1] < 0 || hdr[1] > 1 || hdr[2] < 0 || hdr[2] > 1 || hdr[3] < 0 ||
        hdr[3] > 1) {
        pl_buf_printf(err, "%s %s", path, not_mine);
        urt_finish(f, path, NULL, 0, err);
        return NULL;
    }
    ur_state proto = {0};
    proto.pieces = (uint8_t)hdr[0];
    proto.d4 = (uint8_t)hdr[1];
    proto.loop = (uint8_t)hdr[2];
    proto.stackany = (uint8_t)hdr[3];
    proto.start = 1;
    urs_table *t = urs_new(&proto, err);
    if (t && t->count != count) {
        pl_buf_printf(err, "%s: state count does not match its piece count", path);
        urs_free(t);
        t = NULL;
    }
    if (urt_finish(f, path, t ? (void *)t->v : NULL, count, err) < 0) {
        urs_free(t);
        t = NULL;
    }
    return t;
}

/* The game's tables: Finkel's or Skiryuk's, told apart by their files. */
typedef struct ur_tbl {
    void *finkel; /* urf_table, or NULL */
    urs_table *sk;
} ur_tbl;

static void *table_load(const char *path, pl_buf *err)
{
    ur_tbl *t = pl_calloc(1, sizeof *t);
    if (!t) {
        pl_buf_puts(err, "out of memory");
        return NULL;
    }
    pl_buf e1 = {0}, e2 = {0};
    t->finkel = urf_table_ops.load(path, &e1);
    if (!t->finkel)
        t->sk = urs_load(path, &e2);
    if (!t->finkel && !t->sk) {
        pl_buf_printf(err, "%s; %s", pl_buf_str(&e1), pl_buf_str(&e2));
        pl_free(t);
        t = NULL;
    }
    pl_buf_free(&e1);
    pl_buf_free(&e2);
    return t;
}

static double table_value(const void *tp, const void *st, int seat)
{
    const ur_tbl *t = tp;
    return t->finkel ? urf_table_ops.value(t->finkel, st, seat) : urs_value(t->sk, st, seat);
}

static void table_free(void *tp)
{
    ur_tbl *t = tp;
    if (!t)
        return;
    if (t->finkel)
        urf_table_ops.free(t->finkel);
    urs_free(t->sk);
    pl_free(t);
}

/* pl_table_ops.solve: Finkel's rules by their layers (ur_finkel.c);
 * Skiryuk's with up to URS_MAX_PIECES pieces here; more pieces are the
 * generic solver's (which refuses them as too large). */
static int table_solve(const void *st, const pl_solve_params *p, pl_buf *report, pl_buf *err)
{
    const ur_state *s = st;
    if (s->finkel)
        return urf_table_ops.solve(st, p, report, err);
    if (s->pieces > URS_MAX_PIECES)
        return 0;
    urs_table *t = p->init ? urs_load(p->init, err) : urs_new(s, err);
    if (!t)
        return -1;
    if (p->init && !options_match(&t->proto, s)) {
        pl_buf_printf(err, "%s is a table of other options than these (pieces, dice, loop, stack)", p->init);
        urs_free(t);
        return -1;
    }
    if (p->progress && p->init)
        fprintf(p->progress, "starting from the values of %s\n", p->init);
    if (p->progress)
        fprintf(p->progress, "solving Skiryuk's rules with %d pieces: %llu light-to-move states, %d threads\n",
                s->pieces, (unsigned long long)urs_count(t), p->threads);
    long sweeps = urs_solve(t, p->tol, p->threads, p->progress);
    if (sweeps < 0) {
        pl_buf_puts(err, "out of memory");
        urs_free(t);
        return -1;
    }
    double v = urs_value(t, s, 0);
    pl_buf_printf(report, "rules skiryuk pieces %d\nstates %llu\nsweeps %ld\nfirst player wins %.12f %%\n",
                  s->pieces, (unsigned long long)urs_count(t), sweeps, 100 * v);
    int rc = p->out && urs_save(t, p->out, err) < 0 ? -1 : 1;
    urs_free(t);
    return rc;
}

/* pl_table_ops.verify: Skiryuk's tables (urs_verify); Finkel's have none here. */
static int table_verify(const void *tp, int threads, pl_buf *report, pl_buf *err)
{
    (void)err;
    const ur_tbl *t = tp;
    if (!t->sk)
        return 0;
    uint64_t at;
    double r = urs_verify(t->sk, threads, &at);
    pl_buf_printf(report, "states %llu\nlargest residual %.3g (state %llu)\n", (unsigned long long)urs_count(t->sk),
                  r, (unsigned long long)at);
    return 1;
}

const pl_table_ops ur_table_ops = {table_load, table_value, table_free, table_solve, table_verify};
