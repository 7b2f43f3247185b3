/* cbw.c — rules of City Behind Walls (SKIM-4), CBW-R1..R26: options, the
 * own-colour deal, legal placements, captures, passes, scoring.
 *
 * Hot path: cbw_legal and cbw_apply. No allocation, no I/O.
 *
 * cbw_legal finds the candidate cells of a row (free, inside, next to a
 * card: CBW-R12, R13, R16) with shifts of the row masks, then judges each
 * candidate from its neighbour summary (nb): the suits around it (Diversity,
 * CBW-R14) and the lowest neighbour of the other colour (Seniority, CBW-R15)
 * select, in one table look-up, the cards of the hand that may go there.
 * The suicide test (CBW-R19) is free for a cell with a free neighbour
 * (another row mask) and O(1) from the pseudo-liberties otherwise; a cell
 * whose card would fix an axis is judged from its one card neighbour and
 * per-side counts of the liberties that the fixed edge cuts off (fix_side).
 * Only the first card and an emptied table walk the groups (fix_ok).
 *
 * cbw_apply updates groups and pseudo-liberties in place: a placement merges
 * the neighbouring groups of its colour, a capture gives its cells back as
 * liberties to the groups around them, and a placement that fixes an axis
 * (at most two a game) takes away the liberties on the cells beyond the new
 * edges. A placement that fixes no axis changes liberties only next to the
 * new card (the cells leaving the "inside" band are then next to no card).
 */
#include "cbw.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int dirs[4] = {1, -1, CBW_STRIDE, -CBW_STRIDE};

/* Tables filled once by cbw_tables, a constructor: before main, so before
 * any thread exists; read-only afterwards (no lazy set-up to race on). */
static uint64_t suit_cards[4];   /* every card of a suit */
static uint64_t colour_cards[2]; /* every card of a colour (team) */
static uint64_t above[13];       /* every card of rank > r */
static uint64_t first_ok;        /* ranks 2..10 (CBW-R11) */
static uint64_t suits_cards[16]; /* union of suit_cards for a 4-bit suit set */
/* Cards a team may place by CBW-R14 and R15 on a cell whose neighbours
 * have the suit set `i & 15` and whose lowest neighbour of the other colour
 * has rank `i >> 4` (15: none). */
static uint64_t allowed[2][256];
static const uint8_t own_suits[2] = {1u << CBW_HEARTS | 1u << CBW_DIAMONDS,
                                     1u << CBW_SPADES | 1u << CBW_CLUBS};

__attribute__((constructor)) static void cbw_tables(void)
{
    for (int c = 0; c < CBW_NCARDS; c++) {
        uint64_t b = 1ull << c;
        suit_cards[cbw_suit(c)] |= b;
        colour_cards[cbw_colour(c)] |= b;
        for (int r = 0; r < cbw_rank(c); r++)
            above[r] |= b;
        if (cbw_rank(c) <= 8)
            first_ok |= b;
    }
    for (int m = 0; m < 16; m++)
        for (int su = 0; su < 4; su++)
            if (m & (1 << su))
                suits_cards[m] |= suit_cards[su];
    for (int col = 0; col < 2; col++)
        for (int i = 0; i < 256; i++) {
            unsigned suits = i & 15, low = (unsigned)i >> 4;
            allowed[col][i] = ~suits_cards[suits];
            if (!(suits & own_suits[col]) && low < 13) /* no comrade: beat the lowest */
                allowed[col][i] &= above[low];
        }
}

int cbw_low_rank(const cbw_state *s) { return s->deck == 36 ? 4 : 0; }

static uint64_t deck_cards(int deck)
{
    uint64_t m = 0;
    for (int c = 0; c < CBW_NCARDS; c++)
        if (deck == 52 || cbw_rank(c) >= 4)
            m |= 1ull << c;
    return m;
}

/* ---- the Rectangle ---- */

/* Inside rectangle of a span (CBW-R10): cells whose addition keeps it W x H. */
static void inside_of(const cbw_state *s, int x0, int x1, int y0, int y1, int r[4])
{
    r[0] = x1 - s->w + 1;
    r[1] = x0 + s->w - 1;
    r[2] = y1 - s->h + 1;
    r[3] = y0 + s->h - 1;
}

void cbw_set_inside(cbw_state *s)
{
    int r[4];
    if (s->started) {
        inside_of(s, s->x0, s->x1, s->y0, s->y1, r);
    } else {
        r[0] = -(s->w - 1), r[1] = s->w - 1, r[2] = -(s->h - 1), r[3] = s->h - 1;
    }
    s->ix0 = (int8_t)r[0], s->ix1 = (int8_t)r[1], s->iy0 = (int8_t)r[2], s->iy1 = (int8_t)r[3];
    for (int p = 0; p < CBW_NCELL; p++) {
        int x = cbw_cell_x(p), y = cbw_cell_y(p);
        bool in = x >= r[0] && x <= r[1] && y >= r[2] && y <= r[3];
        if (s->cell[p] == 0 || s->cell[p] == CBW_OUT)
            s->cell[p] = in ? 0 : CBW_OUT;
    }
}

/* ---- groups and pseudo-liberties ---- */

static inline void lib_add(cbw_state *s, int r, int q)
{
    s->plib[r]++;
    s->lsum[r] += (uint32_t)q;
    s->lsq[r] += (uint32_t)(q * q);
}

static inline void lib_sub(cbw_state *s, int r, int q)
{
    s->plib[r]--;
    s->lsum[r] -= (uint32_t)q;
    s->lsq[r] -= (uint32_t)(q * q);
}

/* True when every liberty of root `r` is the cell `p` (p is one of them). */
static inline bool only_lib(const cbw_state *s, int r, int p)
{
    uint64_t n = s->plib[r];
    return n > 0 && s->lsum[r] == n * (uint64_t)p && s->lsq[r] == n * (uint64_t)p * (uint64_t)p;
}

#define NB_NONE 0xFF0u /* nb of a cell with no card next to it */

/* The nb summary of cell p, from its neighbours (beyond the frame's border
 * there are none; across its sides lie border cells, never cards). */
static uint16_t nb_of(const cbw_state *s, int p)
{
    unsigned nb = NB_NONE;
    for (int d = 0; d < 4; d++) {
        int q = p + dirs[d];
        if (q < 0 || q >= CBW_NCELL)
            continue;
        int v = s->cell[q];
        if (v == 0 || v == CBW_OUT)
            continue;
        int c = v - 1, sh = 4 + 4 * cbw_colour(c);
        unsigned low = (nb >> sh) & 15, r = (unsigned)cbw_rank(c);
        nb |= 1u << cbw_suit(c);
        if (r < low)
            nb = (nb & ~(15u << sh)) | r << sh;
    }
    return (uint16_t)nb;
}

/* Card k now lies next to cell q. */
static inline void nb_add(cbw_state *s, int q, int k)
{
    unsigned nb = s->nb[q], sh = 4 + 4 * (unsigned)cbw_colour(k);
    unsigned low = (nb >> sh) & 15, r = (unsigned)cbw_rank(k);
    nb |= 1u << cbw_suit(k);
    nb = (nb & ~(15u << sh)) | (r < low ? r : low) << sh;
    s->nb[q] = (uint16_t)nb;
}

static inline void occ_set(cbw_state *s, int p) { s->occ[p / CBW_STRIDE] |= 1ull << (p % CBW_STRIDE); }
static inline void occ_clear(cbw_state *s, int p) { s->occ[p / CBW_STRIDE] &= ~(1ull << (p % CBW_STRIDE)); }

/* Marks the free cells of [x0,x1] x [y0,y1] as outside; with `near`, the
 * cards next to them lose those liberties (cells a fixed edge cuts off). */
static void mark_out(cbw_state *s, int x0, int x1, int y0, int y1, bool near)
{
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) {
            int p = cbw_cell(x, y);
            if (near && s->cell[p] == 0)
                for (int d = 0; d < 4; d++) {
                    int v = s->cell[p + dirs[d]];
                    if (v != 0 && v != CBW_OUT)
                        lib_sub(s, s->root[v - 1], p);
                }
            s->cell[p] = CBW_OUT;
        }
}

void cbw_rebuild(cbw_state *s)
{
    uint64_t left = s->table;
    uint8_t stack[CBW_NCARDS];
    memset(s->occ, 0, sizeof s->occ);
    for (uint64_t m = s->table; m; m &= m - 1)
        occ_set(s, s->pos[__builtin_ctzll(m)]);
    for (int p = 0; p < CBW_NCELL; p++)
        s->nb[p] = nb_of(s, p);
    while (left) {
        int k = __builtin_ctzll(left), n = 0, col = cbw_colour(k);
        left &= left - 1;
        stack[n++] = (uint8_t)k;
        s->plib[k] = 0, s->lsum[k] = 0, s->lsq[k] = 0;
        for (int i = 0; i < n; i++) {
            int c = stack[i], p = s->pos[c];
            s->root[c] = (uint8_t)k;
            for (int d = 0; d < 4; d++) {
                int q = p + dirs[d], v = s->cell[q];
                if (v == 0) {
                    lib_add(s, k, q);
                } else if (v != CBW_OUT) {
                    int c2 = v - 1;
                    if (((left >> c2) & 1) && cbw_colour(c2) == col) {
                        left &= ~(1ull << c2);
                        stack[n++] = (uint8_t)c2;
                    }
                }
            }
        }
        for (int i = 0; i < n; i++)
            s->next[stack[i]] = stack[(i + 1) % n];
        s->gsize[k] = (uint8_t)n;
    }
}

static void merge(cbw_state *s, int a, int b)
{
    if (s->gsize[a] < s->gsize[b]) {
        int t = a;
        a = b;
        b = t;
    }
    int c = b;
    do {
        s->root[c] = (uint8_t)a;
        c = s->next[c];
    } while (c != b);
    uint8_t t = s->next[a];
    s->next[a] = s->next[b];
    s->next[b] = t;
    s->gsize[a] = (uint8_t)(s->gsize[a] + s->gsize[b]);
    s->plib[a] = (uint16_t)(s->plib[a] + s->plib[b]);
    s->lsum[a] += s->lsum[b];
    s->lsq[a] += s->lsq[b];
}

/* Puts card `k` on cell `p` and updates groups and liberties in place
 * (valid when the inside rectangle did not change next to any card). */
static void put_card(cbw_state *s, int k, int p)
{
    int col = cbw_colour(k);
    s->cell[p] = (uint8_t)(k + 1);
    s->pos[k] = (uint16_t)p;
    s->table |= 1ull << k;
    occ_set(s, p);
    s->root[k] = (uint8_t)k;
    s->next[k] = (uint8_t)k;
    s->gsize[k] = 1;
    s->plib[k] = 0, s->lsum[k] = 0, s->lsq[k] = 0;
    for (int d = 0; d < 4; d++) {
        int q = p + dirs[d], v = s->cell[q];
        nb_add(s, q, k);
        if (v == 0) {
            lib_add(s, s->root[k], q);
        } else if (v != CBW_OUT) {
            int r = s->root[v - 1];
            lib_sub(s, r, p);
            if (cbw_colour(v - 1) == col && r != s->root[k])
                merge(s, s->root[k], r);
        }
    }
}

/* Removes the group of root `r` to `team`'s prisoners; its cells become
 * liberties of the groups next to them. Returns its size. */
static int capture(cbw_state *s, int r, int team)
{
    int n = 0, c = r;
    do {
        s->cell[s->pos[c]] = 0;
        occ_clear(s, s->pos[c]);
        s->table &= ~(1ull << c);
        s->prisoners[team] |= 1ull << c;
        n++;
        c = s->next[c];
    } while (c != r);
    /* Every card left next to a freed cell is of the other colour (the group
     * was maximal) and gains one pseudo-liberty per freed neighbour. The
     * freed cells and the free cells next to them get new nb summaries. */
    do {
        int p = s->pos[c];
        s->nb[p] = nb_of(s, p);
        for (int d = 0; d < 4; d++) {
            int q = p + dirs[d], v = s->cell[q];
            if (v == 0)
                s->nb[q] = nb_of(s, q);
            else if (v != CBW_OUT)
                lib_add(s, s->root[v - 1], p);
        }
        c = s->next[c];
    } while (c != r);
    return n;
}

/* Captures every group of colour `col` without liberty, for `team`. */
static int capture_all(cbw_state *s, int col, int team)
{
    int n = 0;
    uint64_t m = s->table & colour_cards[col];
    while (m) {
        int c = __builtin_ctzll(m);
        m &= m - 1;
        if (((s->table >> c) & 1) && s->plib[s->root[c]] == 0)
            n += capture(s, s->root[c], team);
    }
    return n;
}

/* Places card `k` of `seat` at (x, y) with every consequence (CBW-R8, R9,
 * R18): span, fixed edges, inside band, groups, captures in order. */
static void apply_place(cbw_state *s, int seat, int k, int x, int y)
{
    int p = cbw_cell(x, y), team = cbw_team(seat), col = cbw_colour(k);
    int fixed_before = cbw_fixed_x(s) | cbw_fixed_y(s) << 1;
    if (!s->started) {
        s->started = 1;
        s->x0 = s->x1 = (int8_t)x;
        s->y0 = s->y1 = (int8_t)y;
    } else {
        if (x < s->x0) s->x0 = (int8_t)x;
        if (x > s->x1) s->x1 = (int8_t)x;
        if (y < s->y0) s->y0 = (int8_t)y;
        if (y > s->y1) s->y1 = (int8_t)y;
    }
    int r[4];
    inside_of(s, s->x0, s->x1, s->y0, s->y1, r);
    /* The band only shrinks. Unless an axis gets fixed, the cells leaving it
     * lie more than one column (row) beyond the span: next to no card. */
    bool fixing = (cbw_fixed_x(s) | cbw_fixed_y(s) << 1) != fixed_before;
    if (r[0] > s->ix0) mark_out(s, s->ix0, r[0] - 1, s->iy0, s->iy1, fixing);
    if (r[1] < s->ix1) mark_out(s, r[1] + 1, s->ix1, s->iy0, s->iy1, fixing);
    if (r[2] > s->iy0) mark_out(s, r[0], r[1], s->iy0, r[2] - 1, fixing);
    if (r[3] < s->iy1) mark_out(s, r[0], r[1], r[3] + 1, s->iy1, fixing);
    s->ix0 = (int8_t)r[0], s->ix1 = (int8_t)r[1], s->iy0 = (int8_t)r[2], s->iy1 = (int8_t)r[3];

    s->hand[seat] &= ~(1ull << k);
    if (s->nhist < CBW_NCARDS) {
        cbw_hist *h = &s->hist[s->nhist++];
        h->passes = s->passes, h->card = (uint8_t)k, h->x = (int8_t)x, h->y = (int8_t)y;
    }
    s->passes = 0;
    put_card(s, k, p);
    s->cap1 = s->cap2 = 0;
    if (fixing) {
        /* Liberties beyond the new edges are gone (mark_out): groups
         * anywhere on the table may be left without one. */
        s->cap1 = (uint8_t)capture_all(s, !col, team);
        s->cap2 = (uint8_t)capture_all(s, col, !team);
    } else {
        /* Only the groups next to the new card lost a liberty. */
        for (int d = 0; d < 4; d++) {
            int v = s->cell[p + dirs[d]];
            if (v != 0 && v != CBW_OUT && cbw_colour(v - 1) != col && s->plib[s->root[v - 1]] == 0)
                s->cap1 = (uint8_t)(s->cap1 + capture(s, s->root[v - 1], team));
        }
        /* A capture next to the new card frees a cell next to it; without
         * one, only a suicide (never legal) leaves its group without liberty. */
        if (!s->cap1 && s->plib[s->root[k]] == 0)
            s->cap2 = (uint8_t)capture(s, s->root[k], !team);
    }
}

/* ---- legality ---- */

/* Would placing a card of `seat`'s colour at (x, y) fix an axis? */
static inline bool fixes(const cbw_state *s, int x, int y)
{
    if (!s->started)
        return s->w == 1 || s->h == 1;
    int wx = (x > s->x1 ? x : s->x1) - (x < s->x0 ? x : s->x0) + 1;
    int wy = (y > s->y1 ? y : s->y1) - (y < s->y0 ? y : s->y0) + 1;
    return (wx == s->w && s->x1 - s->x0 + 1 < s->w) || (wy == s->h && s->y1 - s->y0 + 1 < s->h);
}

/* CBW-R19 by simulation: placing `k` at (x, y) leaves the new card's group
 * a liberty after step 1, or step 1 captures something. */
static bool sim_ok(const cbw_state *s, int seat, int k, int x, int y)
{
    cbw_state t;
    memcpy(&t, s, sizeof t);
    apply_place(&t, seat, k, x, y);
    return t.cap1 > 0 || ((t.table >> k) & 1);
}

int cbw_would_capture(const cbw_state *s, int seat, pl_action a, int *lost)
{
    int k = cbw_act_card(a), x = cbw_act_x(a), y = cbw_act_y(a);
    if (fixes(s, x, y)) { /* liberties may go anywhere: play it on a copy */
        cbw_state t;
        memcpy(&t, s, sizeof t);
        apply_place(&t, seat, k, x, y);
        *lost = t.cap2;
        return t.cap1;
    }
    /* Only the groups next to the new cell lose a liberty (apply_place):
     * those of the other colour whose only liberty it is are captured, and
     * then the new card's group has the freed cells (a legal placement
     * that captures nothing has a liberty, CBW-R19). */
    int p = cbw_cell(x, y), col = cbw_colour(k), n = 0, roots[4], nr = 0;
    for (int d = 0; d < 4; d++) {
        int v = s->cell[p + dirs[d]];
        if (v == 0 || v == CBW_OUT || cbw_colour(v - 1) == col)
            continue;
        int r = s->root[v - 1], seen = 0;
        for (int i = 0; i < nr; i++)
            seen |= roots[i] == r;
        if (!seen && only_lib(s, r, p)) {
            roots[nr++] = r;
            n += s->gsize[r];
        }
    }
    *lost = 0;
    return n;
}

/* Is q a liberty once a card is on p and the inside band is r? */
static inline bool lib_after(const cbw_state *s, int q, int p, const int r[4])
{
    if (s->cell[q] != 0 || q == p)
        return false;
    int x = cbw_cell_x(q), y = cbw_cell_y(q);
    return x >= r[0] && x <= r[1] && y >= r[2] && y <= r[3];
}

/* Does the group of root `g` keep a liberty? */
static bool group_lives(const cbw_state *s, int g, int p, const int r[4])
{
    int c = g;
    do {
        int q = s->pos[c];
        for (int d = 0; d < 4; d++)
            if (lib_after(s, q + dirs[d], p, r))
                return true;
        c = s->next[c];
    } while (c != g);
    return false;
}

/* CBW-R19 for a cell whose placement fixes an axis, without applying it:
 * any enemy group left without liberty is captured (legal); else the new
 * card's group (it and its own neighbours' groups) needs a liberty. */
static bool fix_ok(const cbw_state *s, int col, int x, int y)
{
    int p = cbw_cell(x, y), r[4];
    if (!s->started) {
        inside_of(s, x, x, y, y, r);
    } else {
        inside_of(s, x < s->x0 ? x : s->x0, x > s->x1 ? x : s->x1, y < s->y0 ? y : s->y0,
                  y > s->y1 ? y : s->y1, r);
    }
    uint64_t seen = 0;
    for (uint64_t m = s->table & colour_cards[!col]; m; m &= m - 1) {
        int g = s->root[__builtin_ctzll(m)];
        if ((seen >> g) & 1)
            continue;
        seen |= 1ull << g;
        if (!group_lives(s, g, p, r))
            return true;
    }
    for (int d = 0; d < 4; d++) {
        int v = s->cell[p + dirs[d]];
        if (lib_after(s, p + dirs[d], p, r))
            return true;
        if (v != 0 && v != CBW_OUT && cbw_colour(v - 1) == col && group_lives(s, s->root[v - 1], p, r))
            return true;
    }
    return false;
}

/* CBW-R19 in O(1) for a cell whose placement fixes no axis. */
static inline bool fast_ok(const cbw_state *s, int col, int p)
{
    for (int d = 0; d < 4; d++) {
        int v = s->cell[p + dirs[d]];
        if (v == 0)
            return true; /* a free neighbour inside: a liberty */
        if (v == CBW_OUT)
            continue;
        int r = s->root[v - 1];
        bool only = only_lib(s, r, p);
        if (cbw_colour(v - 1) == col ? !only : only)
            return true; /* own group keeps a liberty, or an enemy group is captured */
    }
    return false;
}

/* Bits lo..hi of a row mask (0 <= lo <= hi < 64). */
static inline uint64_t bits(int lo, int hi) { return (~0ull >> (63 - hi)) & (~0ull << lo); }

/* CBW-R19 for the cells that would fix an axis, judged without applying
 * them. While the span is one short of H, a card just above it (y1 + 1)
 * fixes the top and bottom edges at y0 and y1 + 1: the row y0 - 1 leaves the
 * Rectangle and nothing else changes, for every such cell alike (likewise
 * below, left and right). So for each of the four sides the liberties that
 * the cut-off line takes from each group are counted once per call; a
 * candidate then needs only its one card neighbour (the cell beyond it and
 * the cells along the new edge hold no card). */
typedef struct fix_side {
    bool ready, kills;       /* counted; some enemy group loses every liberty */
    uint8_t cut[CBW_NCARDS]; /* per root: pseudo-liberties on the cut-off line */
} fix_side;

enum { SIDE_TOP, SIDE_BOTTOM, SIDE_LEFT, SIDE_RIGHT };

/* Counts what the line cut off by fixing from `side` takes (see fix_side). */
static void fix_side_count(const cbw_state *s, int col, int side, fix_side *f)
{
    memset(f->cut, 0, sizeof f->cut);
    f->ready = true;
    f->kills = false;
    /* The row (column) of cards next to the line, and the step to it. */
    int p0, step, n, out;
    if (side <= SIDE_BOTTOM) {
        p0 = cbw_cell(s->x0, side == SIDE_TOP ? s->y0 : s->y1);
        step = 1, n = s->x1 - s->x0 + 1;
        out = side == SIDE_TOP ? -CBW_STRIDE : CBW_STRIDE;
    } else {
        p0 = cbw_cell(side == SIDE_LEFT ? s->x1 : s->x0, s->y0);
        step = CBW_STRIDE, n = s->y1 - s->y0 + 1;
        out = side == SIDE_LEFT ? 1 : -1;
    }
    for (int i = 0, p = p0; i < n; i++, p += step) {
        int v = s->cell[p];
        if (v != 0 && v != CBW_OUT && s->cell[p + out] == 0)
            f->cut[s->root[v - 1]]++;
    }
    for (int i = 0, p = p0; i < n; i++, p += step) {
        int v = s->cell[p];
        if (v != 0 && v != CBW_OUT && cbw_colour(v - 1) != col) {
            int g = s->root[v - 1];
            f->kills |= s->plib[g] == f->cut[g];
        }
    }
}

/* CBW-R19 for candidate `p` on `side` (one card neighbour, at p + in; the
 * cells p + along and p - along lie on the new edge). `f` is counted on
 * first need. */
static bool fix_side_ok(const cbw_state *s, int col, int p, int side, fix_side *f)
{
    static const int in[4] = {-CBW_STRIDE, CBW_STRIDE, 1, -1};
    static const int along[4] = {1, 1, CBW_STRIDE, CBW_STRIDE};
    if (s->cell[p + along[side]] == 0 || s->cell[p - along[side]] == 0)
        return true; /* a free cell on the new edge: a liberty */
    if (!f->ready)
        fix_side_count(s, col, side, f);
    if (f->kills)
        return true; /* step 1 captures a group far away */
    int v = s->cell[p + in[side]], g = s->root[v - 1];
    if (cbw_colour(v - 1) != col)
        return s->plib[g] == f->cut[g] + 1; /* step 1 captures the neighbour */
    return s->plib[g] > f->cut[g] + 1;      /* the joined group keeps a liberty */
}

/* Writes the placements of cards `hc[0..nh)` allowed by `m` on cell (x, y)
 * without branching on m: every card is stored, the count moves on for the
 * allowed ones. With `checked`, stores beyond `cap` go to a sink. */
static inline __attribute__((always_inline)) int emit(pl_action *out, int n, int cap, bool checked,
                                                      pl_action base, const uint8_t *hc, int nh, uint64_t m)
{
    pl_action sink;
    for (int i = 0; i < nh; i++) {
        pl_action *dst = checked && n >= cap ? &sink : out + n;
        *dst = base | hc[i];
        n += (int)((m >> hc[i]) & 1);
    }
    return n;
}

/* The placements of a started game, appended from `out[n]`; returns the new
 * count. See the file comment for the method. */
static inline __attribute__((always_inline)) int legal_cells(const cbw_state *s, int col, uint64_t hand,
                                                             pl_action *out, int n, int cap, bool checked,
                                                             const int rng[4], const uint8_t *hc, int nh,
                                                             fix_side *sides)
{
    int xa = rng[0], xb = rng[1], ya = rng[2], yb = rng[3];
    bool empty = s->table == 0;
    /* A cell fixes an axis when it widens a span one short of W (H). */
    bool fxw = s->x1 - s->x0 + 2 == s->w, fyh = s->y1 - s->y0 + 2 == s->h;
    uint64_t xin = bits(s->ix0 + CBW_OFF, s->ix1 + CBW_OFF); /* inside columns */
    uint64_t xm = bits(xa + CBW_OFF, xb + CBW_OFF);
    uint64_t xfix = fxw ? 1ull << (s->x0 - 1 + CBW_OFF) | 1ull << (s->x1 + 1 + CBW_OFF) : 0;
    const uint64_t *ok_cards = allowed[col];
    int esh = col == CBW_RED ? 4 : 0; /* moves the other colour's lowest rank to bits 4-7 */
    for (int y = yb; y >= ya; y--) {
        int row = y + CBW_OFF;
        uint64_t o = s->occ[row];
        /* Candidates: free, in range, next to a card (CBW-R12, R13, R16). */
        uint64_t cand = empty ? xm & ~o : (s->occ[row - 1] | s->occ[row + 1] | o << 1 | o >> 1) & xm & ~o;
        if (!cand)
            continue;
        /* Cells that need a look at liberties (CBW-R19): those without a
         * free neighbour inside, and those whose card would fix an axis. */
        uint64_t fr = xin & ~o;
        uint64_t hasfree = fr << 1 | fr >> 1 | (y < s->iy1 ? xin & ~s->occ[row + 1] : 0) |
                           (y > s->iy0 ? xin & ~s->occ[row - 1] : 0);
        uint64_t fixing = fyh && (y < s->y0 || y > s->y1) ? ~0ull : xfix;
        uint64_t look = ~hasfree | fixing;
        pl_action rowbase = CBW_ACT_PLACE | (pl_action)(y + 32) << 12;
        for (; cand; cand &= cand - 1) {
            int bx = __builtin_ctzll(cand), x = bx - CBW_OFF, p = row * CBW_STRIDE + bx;
            unsigned nb = s->nb[p];
            uint64_t m = hand & ok_cards[(nb & 15) | ((nb >> esh) & 0xF0)]; /* CBW-R14, R15 */
            if ((look >> bx) & 1 && m) {
                bool ok;
                if (!((fixing >> bx) & 1)) {
                    ok = fast_ok(s, col, p);
                } else if (empty) {
                    ok = fix_ok(s, col, x, y);
                } else {
                    /* A candidate touches a card, so it lies beyond exactly
                     * one side of the span. */
                    int side = y > s->y1 ? SIDE_TOP : y < s->y0 ? SIDE_BOTTOM : x < s->x0 ? SIDE_LEFT : SIDE_RIGHT;
                    ok = fix_side_ok(s, col, p, side, &sides[side]);
                }
                if (!ok)
                    m = 0; /* CBW-R19 */
            }
            if (m)
                n = emit(out, n, cap, checked, rowbase | (pl_action)(x + 32) << 6, hc, nh, m);
        }
    }
    return n;
}

static int cbw_legal(const void *st, int seat, pl_action *out, int cap)
{
    const cbw_state *s = st;
    if (s->phase != CBW_PH_MOVE || seat != s->turn)
        return 0;
    int n = 0, col = cbw_team(seat);
    uint64_t hand = s->hand[seat];
    if (hand && !s->started) {
        uint64_t m = hand & first_ok;
        if (m && (!fixes(s, 0, 0) || fix_ok(s, col, 0, 0)))
            for (; m; m &= m - 1) {
                if (n < cap) out[n] = cbw_place(__builtin_ctzll(m), 0, 0);
                n++;
            }
    } else if (hand) {
        /* Rows and columns that may hold a candidate: inside, and (unless
         * the table is empty) at most one beyond the span. */
        int rng[4] = {s->ix0, s->ix1, s->iy0, s->iy1};
        if (s->table) {
            if (rng[0] < s->x0 - 1) rng[0] = s->x0 - 1;
            if (rng[1] > s->x1 + 1) rng[1] = s->x1 + 1;
            if (rng[2] < s->y0 - 1) rng[2] = s->y0 - 1;
            if (rng[3] > s->y1 + 1) rng[3] = s->y1 + 1;
        }
        /* The hand as a list, so that a cell's cards are written without
         * branches (emit). */
        uint8_t hc[CBW_NCARDS];
        int nh = 0;
        for (uint64_t m = hand; m; m &= m - 1)
            hc[nh++] = (uint8_t)__builtin_ctzll(m);
        fix_side sides[4];
        sides[0].ready = sides[1].ready = sides[2].ready = sides[3].ready = false;
        /* Unchecked stores when every card on every cell of the range fits. */
        if ((long)nh * (rng[1] - rng[0] + 1) * (rng[3] - rng[2] + 1) < cap)
            n = legal_cells(s, col, hand, out, n, cap, false, rng, hc, nh, sides);
        else
            n = legal_cells(s, col, hand, out, n, cap, true, rng, hc, nh, sides);
    }
    if (n < cap) out[n] = CBW_ACT_PASS;
    return n + 1;
}

int cbw_legal_slow(const cbw_state *s, int seat, pl_action *out, int cap)
{
    if (s->phase != CBW_PH_MOVE || seat != s->turn)
        return 0;
    int n = 0;
    pl_buf why = {0};
    for (int y = s->h - 1; y >= -(s->h - 1); y--)
        for (int x = -(s->w - 1); x <= s->w - 1; x++)
            for (uint64_t m = s->hand[seat]; m; m &= m - 1) {
                int k = __builtin_ctzll(m);
                pl_buf_clear(&why);
                if (cbw_why_illegal(s, seat, cbw_place(k, x, y), &why))
                    continue;
                if (n < cap) out[n] = cbw_place(k, x, y);
                n++;
            }
    pl_buf_free(&why);
    if (n < cap) out[n] = CBW_ACT_PASS;
    return n + 1;
}

static void card_name(int k, pl_buf *out) { cbw_card_text(k, 1, out); }

int cbw_why_illegal(const cbw_state *s, int seat, pl_action a, pl_buf *out)
{
    if (a == CBW_ACT_PASS)
        return 0;
    if (!(a & CBW_ACT_PLACE) || (a & CBW_ACT_FIRST)) {
        pl_buf_puts(out, "not a placement");
        return 1;
    }
    int k = cbw_act_card(a), x = cbw_act_x(a), y = cbw_act_y(a), col = cbw_colour(k);
    char at[16];
    snprintf(at, sizeof at, "%d,%d", x, y);
    if (k >= CBW_NCARDS || !((s->dealt >> k) & 1)) {
        pl_buf_puts(out, "no such card in this deck (CBW-R3)");
        return 1;
    }
    if (!((s->hand[seat] >> k) & 1)) {
        pl_buf_puts(out, "you do not hold ");
        cbw_card_text(k, 0, out);
        if (col != cbw_team(seat))
            pl_buf_printf(out, " (seat %d plays the %s cards, CBW-R4)", seat,
                          cbw_team(seat) ? "black" : "red");
        return 1;
    }
    if (!s->started) {
        int bad = 0;
        if (x != 0 || y != 0) {
            pl_buf_puts(out, "First card (CBW-R11): the first card of the game is played at 0,0");
            bad = 1;
        }
        if (cbw_rank(k) > 8) {
            pl_buf_printf(out, "%sFirst card (CBW-R11): the first card must be of rank %s-10, not ",
                          bad ? "; " : "", s->deck == 36 ? "6" : "2");
            card_name(k, out);
            bad = 1;
        }
        if (bad)
            return 1;
        if (fixes(s, 0, 0) && !sim_ok(s, seat, k, 0, 0)) {
            pl_buf_puts(out, "no suicide (CBW-R19): in a 1-cell-wide Rectangle the card would have no liberty");
            return 1;
        }
        return 0;
    }
    if (x < -(s->w - 1) || x > s->w - 1 || y < -(s->h - 1) || y > s->h - 1 ||
        x < s->ix0 || x > s->ix1 || y < s->iy0 || y > s->iy1) {
        int wx = (x > s->x1 ? x : s->x1) - (x < s->x0 ? x : s->x0) + 1;
        int wy = (y > s->y1 ? y : s->y1) - (y < s->y0 ? y : s->y0) + 1;
        pl_buf_printf(out, "Rectangle (CBW-R13): a card at %s would make the span %d wide and %d high; "
                           "the Rectangle is %d x %d",
                      at, wx, wy, s->w, s->h);
        if (cbw_fixed_x(s) && (x < s->x0 || x > s->x1))
            pl_buf_printf(out, " (its left and right edges are fixed at x=%d and x=%d)", s->x0, s->x1);
        if (cbw_fixed_y(s) && (y < s->y0 || y > s->y1))
            pl_buf_printf(out, " (its bottom and top edges are fixed at y=%d and y=%d)", s->y0, s->y1);
        return 1;
    }
    int p = cbw_cell(x, y);
    if (s->cell[p]) {
        pl_buf_printf(out, "Free cell (CBW-R16): %s already holds ", at);
        card_name(s->cell[p] - 1, out);
        return 1;
    }
    int nb[4], nn = 0;
    for (int d = 0; d < 4; d++) {
        int v = s->cell[p + dirs[d]];
        if (v != 0 && v != CBW_OUT)
            nb[nn++] = v - 1;
    }
    if (nn == 0 && s->table) {
        pl_buf_printf(out, "Continuity (CBW-R12): no card lies next to %s", at);
        return 1;
    }
    int bad = 0;
    for (int i = 0; i < nn; i++)
        if (cbw_suit(nb[i]) == cbw_suit(k)) {
            pl_buf_puts(out, "Diversity (CBW-R14): ");
            card_name(k, out);
            pl_buf_puts(out, " would touch ");
            card_name(nb[i], out);
            bad = 1;
            break;
        }
    int own = 0, higher = 0, opp = 0;
    for (int i = 0; i < nn; i++) {
        if (cbw_colour(nb[i]) == col)
            own = 1;
        else {
            opp = 1;
            higher |= cbw_rank(k) > cbw_rank(nb[i]);
        }
    }
    if (!own && opp && !higher) {
        pl_buf_printf(out, "%sSeniority (CBW-R15): ", bad ? "; " : "");
        card_name(k, out);
        pl_buf_puts(out, " must be higher than one of its neighbours");
        for (int i = 0, j = 0; i < nn; i++)
            if (cbw_colour(nb[i]) != col) {
                pl_buf_puts(out, j++ ? ", " : " ");
                card_name(nb[i], out);
            }
        pl_buf_puts(out, " - it is not, and no neighbour is of its own colour");
        bad = 1;
    }
    if (bad)
        return 1;
    if (!sim_ok(s, seat, k, x, y)) {
        pl_buf_puts(out, "no suicide (CBW-R19): ");
        card_name(k, out);
        pl_buf_printf(out, " at %s would leave its group without a liberty and capture nothing", at);
        return 1;
    }
    return 0;
}

void cbw_refusal_why(const cbw_state *s, int seat, pl_action a, cbw_refused *r)
{
    memset(r, 0, sizeof *r);
    r->why = CBW_WHY_NONE;
    r->other = -1;
    if (a == CBW_ACT_PASS || !(a & CBW_ACT_PLACE) || (a & CBW_ACT_FIRST) || seat < 0 || seat >= s->nseats)
        return;
    int k = cbw_act_card(a), x = cbw_act_x(a), y = cbw_act_y(a), col = cbw_colour(k);
    r->card = k, r->x = x, r->y = y;
    if (k >= CBW_NCARDS || !((s->dealt >> k) & 1)) {
        r->why = CBW_WHY_NO_CARD;
        return;
    }
    if (!((s->hand[seat] >> k) & 1)) {
        r->why = col != cbw_team(seat) ? CBW_WHY_OTHER_COLOUR : CBW_WHY_NOT_HELD;
        return;
    }
    if (!s->started) {
        if (x != 0 || y != 0)
            r->why = CBW_WHY_FIRST_CELL;
        else if (cbw_rank(k) > 8) {
            r->why = CBW_WHY_FIRST_RANK;
            r->low = cbw_low_rank(s);
        } else if (fixes(s, 0, 0) && !sim_ok(s, seat, k, 0, 0))
            r->why = CBW_WHY_SUICIDE;
        return;
    }
    if (x < -(s->w - 1) || x > s->w - 1 || y < -(s->h - 1) || y > s->h - 1 ||
        x < s->ix0 || x > s->ix1 || y < s->iy0 || y > s->iy1) {
        r->why = CBW_WHY_OUTSIDE;
        r->fixed = (cbw_fixed_x(s) && (x < s->x0 || x > s->x1)) || (cbw_fixed_y(s) && (y < s->y0 || y > s->y1));
        return;
    }
    int p = cbw_cell(x, y);
    if (s->cell[p]) {
        r->why = CBW_WHY_OCCUPIED;
        r->other = s->cell[p] - 1;
        return;
    }
    int nb[4], nn = 0;
    for (int d = 0; d < 4; d++) {
        int v = s->cell[p + dirs[d]];
        if (v != 0 && v != CBW_OUT)
            nb[nn++] = v - 1;
    }
    if (nn == 0 && s->table) {
        r->why = CBW_WHY_CONTINUITY;
        return;
    }
    for (int i = 0; i < nn; i++)
        if (cbw_suit(nb[i]) == cbw_suit(k)) {
            r->why = CBW_WHY_SAME_SUIT;
            r->other = nb[i];
            return;
        }
    int own = 0, higher = 0;
    uint64_t opp = 0;
    for (int i = 0; i < nn; i++) {
        if (cbw_colour(nb[i]) == col)
            own = 1;
        else {
            opp |= 1ull << nb[i];
            higher |= cbw_rank(k) > cbw_rank(nb[i]);
        }
    }
    if (!own && opp && !higher) {
        r->why = CBW_WHY_SENIORITY;
        r->nbrs = opp;
        return;
    }
    if (!sim_ok(s, seat, k, x, y))
        r->why = CBW_WHY_SUICIDE;
}

/* ---- scoring ---- */

void cbw_castles(const cbw_state *s, int castles[2]) { cbw_castle_map(s, castles, NULL); }

void cbw_castle_map(const cbw_state *s, int castles[2], uint8_t *mark)
{
    castles[0] = castles[1] = 0;
    if (mark)
        memset(mark, 0, CBW_NCELL);
    if (!s->started)
        return;
    uint8_t seen[CBW_NCELL];
    uint16_t stack[CBW_NCELL], region[CBW_NCELL];
    memset(seen, 0, sizeof seen);
    for (int y = s->iy0; y <= s->iy1; y++)
        for (int x = s->ix0; x <= s->ix1; x++) {
            int p0 = cbw_cell(x, y);
            if (s->cell[p0] || seen[p0])
                continue;
            int n = 0, size = 0;
            unsigned cols = 0;
            bool leaks = false;
            stack[n++] = (uint16_t)p0;
            seen[p0] = 1;
            while (n) {
                int p = stack[--n], px = cbw_cell_x(p), py = cbw_cell_y(p);
                region[size++] = (uint16_t)p;
                if (px < s->x0 || px > s->x1 || py < s->y0 || py > s->y1)
                    leaks = true; /* CBW-R24 decision: not walled in */
                for (int d = 0; d < 4; d++) {
                    int q = p + dirs[d], v = s->cell[q];
                    if (v == 0) {
                        if (!seen[q]) {
                            seen[q] = 1;
                            stack[n++] = (uint16_t)q;
                        }
                    } else if (v != CBW_OUT) {
                        cols |= 1u << cbw_colour(v - 1);
                    }
                }
            }
            if (!leaks && (cols == 1 || cols == 2)) {
                castles[cols - 1] += size;
                for (int i = 0; mark && i < size; i++)
                    mark[region[i]] = (uint8_t)cols; /* 1 + the team */
            }
        }
}

void cbw_score(const cbw_state *s, int score[2])
{
    cbw_castles(s, score);
    for (int t = 0; t < 2; t++)
        score[t] += __builtin_popcountll(s->prisoners[t]);
}

/* ---- invariants, for tests ---- */

int cbw_check(const cbw_state *s, pl_buf *err)
{
    cbw_state t;
    memcpy(&t, s, sizeof t);
    cbw_rebuild(&t);
    uint64_t all = s->table | s->prisoners[0] | s->prisoners[1];
    int total = __builtin_popcountll(s->table) + __builtin_popcountll(s->prisoners[0]) +
                __builtin_popcountll(s->prisoners[1]);
    for (int i = 0; i < s->nseats; i++) {
        if (s->hand[i] & ~colour_cards[cbw_team(i)]) {
            pl_buf_printf(err, "seat %d holds a card of the other colour", i);
            return -1;
        }
        all |= s->hand[i];
        total += __builtin_popcountll(s->hand[i]);
    }
    if (all != s->dealt || total != __builtin_popcountll(s->dealt)) {
        pl_buf_puts(err, "cards not conserved: hands + table + prisoners != deck");
        return -1;
    }
    if (s->started) {
        if (s->x1 - s->x0 + 1 > s->w || s->y1 - s->y0 + 1 > s->h || s->x0 > 0 || s->x1 < 0 ||
            s->y0 > 0 || s->y1 < 0) {
            pl_buf_puts(err, "span beyond W x H or not holding 0,0");
            return -1;
        }
        int r[4];
        inside_of(s, s->x0, s->x1, s->y0, s->y1, r);
        if (r[0] != s->ix0 || r[1] != s->ix1 || r[2] != s->iy0 || r[3] != s->iy1) {
            pl_buf_puts(err, "inside rectangle out of date");
            return -1;
        }
    }
    int ncells = 0;
    for (int p = 0; p < CBW_NCELL; p++) {
        int x = cbw_cell_x(p), y = cbw_cell_y(p), v = s->cell[p];
        bool in = x >= s->ix0 && x <= s->ix1 && y >= s->iy0 && y <= s->iy1;
        if (v != CBW_OUT && !in) {
            pl_buf_printf(err, "cell %d,%d outside the Rectangle is not marked out", x, y);
            return -1;
        }
        if (v == CBW_OUT && in) {
            pl_buf_printf(err, "cell %d,%d inside the Rectangle is marked out", x, y);
            return -1;
        }
        if (v == 0 || v == CBW_OUT)
            continue;
        ncells++;
        int k = v - 1;
        if (!((s->table >> k) & 1) || s->pos[k] != p) {
            pl_buf_printf(err, "cell %d,%d and the table disagree", x, y);
            return -1;
        }
        if (x < s->x0 || x > s->x1 || y < s->y0 || y > s->y1) {
            pl_buf_printf(err, "card at %d,%d outside the span", x, y);
            return -1;
        }
        for (int d = 0; d < 4; d++) {
            int w = s->cell[p + dirs[d]];
            if (w != 0 && w != CBW_OUT && cbw_suit(w - 1) == cbw_suit(k)) {
                pl_buf_printf(err, "equal suits side by side at %d,%d (CBW-R14)", x, y);
                return -1;
            }
        }
    }
    if (ncells != __builtin_popcountll(s->table)) {
        pl_buf_puts(err, "table mask and cells disagree");
        return -1;
    }
    if (memcmp(s->occ, t.occ, sizeof s->occ)) {
        pl_buf_puts(err, "row masks and cells disagree");
        return -1;
    }
    for (int p = 0; p < CBW_NCELL; p++)
        if (s->cell[p] == 0 && s->nb[p] != t.nb[p]) {
            pl_buf_printf(err, "stale neighbour summary of cell %d,%d", cbw_cell_x(p), cbw_cell_y(p));
            return -1;
        }
    uint8_t map1[CBW_NCARDS], map2[CBW_NCARDS];
    memset(map1, 0xff, sizeof map1);
    memset(map2, 0xff, sizeof map2);
    for (uint64_t m = s->table; m; m &= m - 1) {
        int a = __builtin_ctzll(m);
        if (t.plib[t.root[a]] == 0) {
            pl_buf_printf(err, "a group without liberty at %d,%d (CBW-R18)", cbw_cell_x(s->pos[a]),
                          cbw_cell_y(s->pos[a]));
            return -1;
        }
        int ra = s->root[a], ta = t.root[a];
        if (s->plib[ra] != t.plib[ta] || s->lsum[ra] != t.lsum[ta] || s->lsq[ra] != t.lsq[ta]) {
            pl_buf_printf(err, "stale liberties of the group at %d,%d", cbw_cell_x(s->pos[a]),
                          cbw_cell_y(s->pos[a]));
            return -1;
        }
        /* The partitions agree when root -> root is a bijection. */
        if (map1[ra] == 0xff)
            map1[ra] = (uint8_t)ta;
        if (map2[ta] == 0xff)
            map2[ta] = (uint8_t)ra;
        if (map1[ra] != ta || map2[ta] != ra) {
            pl_buf_puts(err, "stale groups");
            return -1;
        }
    }
    return 0;
}

/* ---- the pl_game table ---- */

static const pl_option_def cbw_options[] = {
    {"players", PL_OPT_ENUM, "4", "4|6|2", 0, 0,
     "4 or 6 seats in two teams; 2 = four seats, each person playing both seats of a team (CBW-R1)"},
    {"deck", PL_OPT_ENUM, "36", "36|52", 0, 0, "36 cards (6-A) or 52 cards (2-A) (CBW-R3)"},
    /* A string, so that "auto" (9 or 12 by the deck) survives records, which
     * give every option back as if the user had set it. */
    {"w", PL_OPT_STRING, "auto", NULL, 0, 0,
     "Rectangle width in cards, 1-16; auto = 9 with 36 cards, 12 with 52 (CBW-R7)"},
    {"h", PL_OPT_INT, "4", NULL, 1, 16, "Rectangle height in cards; default 4 (CBW-R7)"},
    {"first", PL_OPT_ENUM, "random", "random|red|black", 0, 0,
     "which team opens; random is the chance action first red|black (CBW-R2)"},
    {"deal", PL_OPT_STRING, "", NULL, 0, 0,
     "the hands instead of a shuffle: H0/H1/... one per seat, cards comma-separated (CBW-R4)"},
    {NULL, 0, NULL, NULL, 0, 0, NULL},
};

static int cbw_init(void *st, const pl_opts *o, uint64_t seed, pl_buf *err)
{
    cbw_state *s = st;
    memset(s, 0, sizeof *s);
    static const uint8_t players[3] = {4, 6, 2};
    s->players = players[pl_opts_choice(o, "players")];
    s->nseats = s->players == 6 ? 6 : 4;
    s->deck = pl_opts_choice(o, "deck") == 1 ? 52 : 36;
    s->h = (uint8_t)pl_opts_int(o, "h");
    const char *w = pl_opts_get(o, "w");
    if (!w || !strcmp(w, "auto")) {
        s->w = s->deck == 52 ? 12 : 9;
    } else {
        char *end;
        long v = strtol(w, &end, 10);
        if (end == w || *end || v < 1 || v > CBW_MAXDIM) {
            pl_buf_printf(err, "bad value w=%s: the width is auto (9 with 36 cards, 12 with 52) or 1-16", w);
            return -1;
        }
        s->w = (uint8_t)v;
    }
    s->first_opt = (uint8_t)pl_opts_choice(o, "first");
    s->dealt = deck_cards(s->deck);
    const char *deal = pl_opts_get(o, "deal");
    if (deal && *deal) {
        if (cbw_deal_parse(s, deal, s->hand, err) < 0)
            return -1;
    } else {
        pl_rng r;
        pl_rng_seed(&r, seed);
        for (int t = 0; t < 2; t++) {
            uint8_t cards[26];
            int n = 0;
            for (uint64_t m = s->dealt & colour_cards[t]; m; m &= m - 1)
                cards[n++] = (uint8_t)__builtin_ctzll(m);
            for (int i = n - 1; i > 0; i--) {
                int j = (int)pl_rng_below(&r, (uint32_t)(i + 1));
                uint8_t c = cards[i];
                cards[i] = cards[j];
                cards[j] = c;
            }
            int nt = s->nseats / 2;
            for (int i = 0; i < n; i++)
                s->hand[t + 2 * (i % nt)] |= 1ull << cards[i];
        }
    }
    memset(s->cell, CBW_OUT, sizeof s->cell);
    for (int y = -(s->h - 1); y <= s->h - 1; y++)
        for (int x = -(s->w - 1); x <= s->w - 1; x++)
            s->cell[cbw_cell(x, y)] = 0;
    for (int p = 0; p < CBW_NCELL; p++)
        s->nb[p] = NB_NONE;
    cbw_set_inside(s);
    if (s->first_opt == 0) {
        s->phase = CBW_PH_FIRST;
        s->opener = 0xff;
    } else {
        s->phase = CBW_PH_MOVE;
        s->opener = (uint8_t)(s->first_opt - 1);
        s->turn = s->opener;
    }
    return 0;
}

static pl_phase cbw_phase(const void *st)
{
    const cbw_state *s = st;
    return s->phase == CBW_PH_OVER ? PL_PHASE_OVER : s->phase == CBW_PH_MOVE ? PL_PHASE_MOVE : PL_PHASE_CHANCE;
}

static int cbw_num_seats(const void *st) { return ((const cbw_state *)st)->nseats; }
static int cbw_team_of(const void *st, int seat) { (void)st; return cbw_team(seat); }

static int cbw_actors(const void *st, int *seats)
{
    const cbw_state *s = st;
    if (s->phase != CBW_PH_MOVE)
        return 0;
    seats[0] = s->turn;
    return 1;
}

static int cbw_chance(const void *st, pl_action *out, double *prob, int cap)
{
    const cbw_state *s = st;
    if (s->phase != CBW_PH_FIRST)
        return 0;
    int n = 0;
    for (int t = 0; t < 2 && n < cap; t++, n++) {
        out[n] = CBW_ACT_FIRST | (pl_action)t;
        prob[n] = 0.5;
    }
    return n;
}

static pl_action cbw_sample_chance(const void *st, pl_rng *rng)
{
    (void)st;
    return CBW_ACT_FIRST | (pl_rng_next(rng) >> 63);
}

static void cbw_apply(void *st, int seat, pl_action a)
{
    cbw_state *s = st;
    if (a & CBW_ACT_FIRST) {
        s->opener = (uint8_t)(a & 1);
        s->turn = s->opener;
        s->phase = CBW_PH_MOVE;
        return;
    }
    if (a == CBW_ACT_PASS) {
        if (++s->passes >= s->nseats) /* CBW-R22 */
            s->phase = CBW_PH_OVER;
    } else {
        apply_place(s, seat, cbw_act_card(a), cbw_act_x(a), cbw_act_y(a));
    }
    if (s->phase != CBW_PH_OVER)
        s->turn = (uint8_t)((s->turn + 1) % s->nseats);
}

static void cbw_outcome(const void *st, pl_outcome *o)
{
    const cbw_state *s = st;
    memset(o, 0, sizeof *o);
    int sc[2];
    cbw_score(s, sc);
    o->nseats = s->nseats;
    for (int i = 0; i < s->nseats; i++)
        o->score[i] = sc[cbw_team(i)];
    if (s->phase != CBW_PH_OVER) {
        o->kind = PL_WIN_NONE;
        return;
    }
    if (sc[0] == sc[1]) {
        o->kind = PL_WIN_DRAW;
        for (int i = 0; i < s->nseats; i++)
            o->utility[i] = 0.5;
        return;
    }
    int w = sc[1] > sc[0];
    o->kind = PL_WIN_TEAM;
    o->winner = w;
    for (int i = 0; i < s->nseats; i++)
        o->utility[i] = cbw_team(i) == w ? 1.0 : 0.0;
}

/* pl_game.sees_seat: with players=2 one person holds both seats of a team
 * (CBW-R1), and each seat's view shows the other's hand (partner_hand). */
static bool cbw_sees_seat(const void *st, int viewer, int seat)
{
    const cbw_state *s = st;
    return s->players == 2 && viewer != seat && cbw_team(viewer) == cbw_team(seat);
}

/* Re-deals the cards `seat` cannot see: for each team, the cards held by
 * the team's seats other than `seat` (and its partner with players=2, who is
 * the same person) are shuffled and dealt back with the same hand sizes. */
static void cbw_determinize(const void *st, int seat, pl_rng *rng, void *out)
{
    const cbw_state *s = st;
    cbw_state *d = out;
    memcpy(d, s, sizeof *d);
    if (seat < 0 || seat >= s->nseats)
        return;
    for (int t = 0; t < 2; t++) {
        if (s->players == 2 && t == cbw_team(seat))
            continue;
        uint8_t cards[26];
        int n = 0, seats[3], ns = 0;
        uint64_t all = 0; /* their union, in card order: the result depends only on the view */
        for (int i = t; i < s->nseats; i += 2) {
            if (i == seat)
                continue;
            seats[ns++] = i;
            all |= s->hand[i];
        }
        for (uint64_t m = all; m; m &= m - 1)
            cards[n++] = (uint8_t)__builtin_ctzll(m);
        for (int i = n - 1; i > 0; i--) {
            int j = (int)pl_rng_below(rng, (uint32_t)(i + 1));
            uint8_t c = cards[i];
            cards[i] = cards[j];
            cards[j] = c;
        }
        int k = 0;
        for (int i = 0; i < ns; i++) {
            int size = __builtin_popcountll(s->hand[seats[i]]);
            d->hand[seats[i]] = 0;
            for (int j = 0; j < size; j++)
                d->hand[seats[i]] |= 1ull << cards[k++];
        }
    }
}

/* Score difference now (castles as if the game ended, prisoners), squashed. */
static double cbw_evaluate(const void *st, int seat)
{
    const cbw_state *s = st;
    int sc[2], t = cbw_team(seat);
    cbw_score(s, sc);
    if (s->phase == CBW_PH_OVER)
        return sc[t] > sc[!t] ? 1.0 : sc[t] < sc[!t] ? 0.0 : 0.5;
    return 1.0 / (1.0 + exp(-(sc[t] - sc[!t]) / 4.0));
}

/* Levels (docs/ai.md): MCTS of growing budgets. */
static const pl_level cbw_levels[] = {
    {"easy", "mcts:iterations=100", "MCTS with 100 iterations (wins 97 % against random)"},
    {"medium", "mcts:iterations=1000", "MCTS with 1000 iterations (the default player)"},
    {"hard", "mcts:iterations=4000", "MCTS with 4000 iterations, about 35 ms a decision"},
    {NULL, NULL, NULL},
};

/* Option sets the generic tests and fuzz targets play (the first four are
 * the fuzz targets'): the defaults, six seats with the full deck, the
 * smallest table, the largest. */
static const char *const cbw_variants[] = {
    "", "players=6 deck=52", "players=2 w=3 h=2", "deck=52 w=16 h=16 first=black", NULL,
};

static int cbw_check_state(const void *st, pl_buf *why) { return cbw_check(st, why); }

static const char *const cbw_secret_options[] = {"deal", NULL}; /* every hand */

const pl_game cbw_game = {
    .id = "cbw",
    .secret_options = cbw_secret_options,
    .name = "City Behind Walls (SKIM-4, Igor Katanugin)",
    .summary =
        "Two teams, Red and Black, each dealt the cards of its own colour, lay cards face up\n"
        "on a grid inside a W x H Rectangle (9 x 4 by default) whose edges become fixed only\n"
        "when the cards reach across it. Each card must touch a card on the table, never a\n"
        "card of its own suit, and, unless it touches a card of its own colour, be higher\n"
        "than one of the other colour's cards it touches. As in Go, a group of one colour\n"
        "with no free cell inside the Rectangle next to it is captured; fixing an edge can\n"
        "capture far away. Passing is always allowed; the game ends when every seat has\n"
        "passed in succession. Each team scores its prisoners plus the free cells walled in\n"
        "by its cards alone (its castles); the higher total wins.",
    .options = cbw_options,
    .state_size = sizeof(cbw_state),
    .flags = PL_GAME_HIDDEN,
    .init = cbw_init,
    .phase = cbw_phase,
    .num_seats = cbw_num_seats,
    .team_of = cbw_team_of,
    .sees_seat = cbw_sees_seat,
    .actors = cbw_actors,
    .legal = cbw_legal,
    .chance = cbw_chance,
    .sample_chance = cbw_sample_chance,
    .apply = cbw_apply,
    .outcome = cbw_outcome,
    .format_action = cbw_format_action,
    .parse_action = cbw_parse_action,
    .explain_illegal = cbw_explain_illegal,
    .refusal = cbw_refusal,
    .draw = cbw_draw,
    .view = cbw_view,
    .view_json = cbw_view_json,
    .view_text = cbw_view_text,
    .to_text = cbw_to_text,
    .from_text = cbw_from_text,
    .determinize = cbw_determinize,
    .evaluate = cbw_evaluate,
    .levels = cbw_levels,
    .variants = cbw_variants,
    .check_state = cbw_check_state,
    .describe = cbw_describe,
    .events = cbw_events,
    .action_fields = cbw_action_fields,
    .events_text = cbw_events_text,
    .action_fields_text = cbw_action_fields_text,
    .seat_name = cbw_seat_name,
};
