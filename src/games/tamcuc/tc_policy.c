/* tc_policy.c — Tam Cúc's quick heuristic player (pl_game.policy): the move
 * choice of a search's rollouts, and a player of its own (`policy`).
 *
 * It reads only what the seat may know: its hand and unrevealed discards, the
 * won piles, revealed discards and the face-up part of the trick; every other
 * card is "unseen" and may lie in any other seat's hand. From those it
 * estimates, for a set X of n cards, the chance that X wins its trick:
 *   - a stronger set T of n cards (TC-R2.6) threatens X when some seat holds
 *     it and lays it: P(T) ≈ ways(T) · m · (h/u)^n (m seats of h cards each,
 *     u unseen cards), each threat independent;
 *   - a follower also faces the face-down lead, a set of n cards for sure:
 *     the lead is taken as the better of two sets drawn from the unseen ones.
 * Then:
 *   lead    the legal lead with the most expected cards (n · P(win)), less a
 *           small cost for the cards lost when it fails; kết and overtake
 *           (TC-R8.3, 8.4) on the last lead;
 *   lay     the best set of n cards when it wins with P > 1/2, else the n
 *           cards worth least to keep (weak, not in a pair or triple);
 *   reveal  exactly when the laid group beats everything shown (TC-R6.4);
 *   declare always; pass (night exchange) the cards worth least.
 * A little noise (the caller's generator) varies the choice between close
 * candidates, and one lead or lay in 16 is uniformly random (drawn from the
 * first 64 legal actions), so rollouts explore.
 * Work: O(leads + 14) per decision; no allocation.
 */
#include "tc.h"

#include <string.h>

#define ONE TC_ONE
#define NIB TC_NIB

static const tc_cards triples[4] = {
    ONE(TC_BC) | ONE(TC_BN) | ONE(TC_BH), /* strength 0: black low */
    ONE(TC_RC) | ONE(TC_RN) | ONE(TC_RH), /* 1: red low */
    ONE(TC_BG) | ONE(TC_BA) | ONE(TC_BE), /* 2: black high */
    ONE(TC_RG) | ONE(TC_RA) | ONE(TC_RE), /* 3: red high */
};

/* The policy's weights (chosen by self-play, docs/ai.md). */
typedef struct tc_pparams {
    double lays;      /* chance that a seat holding a stronger set lays it */
    double lay_base;  /* a follower lays its best set when P(win) > base + span·U(0,1) */
    double lay_span;
    double lead_cost; /* weight of the cards a failed lead loses */
    double keep_pair, keep_triple, keep_four; /* keep values of set members */
    double keep_ket;  /* extra keep value of a set that scores kết on the last lead */
    double noise;     /* random spread added to lead values */
    unsigned explore; /* one lead or lay in `explore` is uniformly random (0: never) */
} tc_pparams;

static const tc_pparams tc_pp = {1.1, 0.55, 0.45, 0.3, 0.5, 0.6, 1.5, 0.25, 0.15, 16};

/* What seat `v` knows: the unseen cards, and how many cards each seat that
 * may still lay holds. */
typedef struct know {
    tc_cards unseen;
    int u;      /* unseen cards */
    int m;      /* other seats that may still lay in this trick */
    int h;      /* cards each of them holds */
} know;

static tc_cards seen_by(const tc_state *s, int v)
{
    tc_cards x = s->hand[v] + s->sec[v];
    for (int t = 0; t < s->np; t++)
        x += s->won[t] + s->pub[t];
    if (s->phase == TC_PH_LAY || s->phase == TC_PH_REVEAL) {
        if (v == s->tleader || s->tshown)
            x += s->tlead;
        for (int t = 0; t < s->np; t++)
            if (t != s->tleader && (t == v || (s->trev >> t & 1)))
                x += s->tlay[t];
    }
    if (s->phase == TC_PH_EXCH && (s->xdone >> v & 1))
        x += s->passed[v];
    return x;
}

static double binom(int c, int n)
{
    double r = 1;
    for (int i = 0; i < n; i++)
        r = r * (c - i) / (i + 1);
    return c < n ? 0 : r;
}

/* Chance that some seat holds the set T of n cards (given as kind counts
 * within the unseen cards) and lays it. */
static double threat(const tc_pparams *pp, const know *k, double ways, int n)
{
    if (k->m <= 0 || k->u <= 0 || ways <= 0)
        return 0;
    double q = (double)k->h / k->u, qn = q;
    for (int i = 1; i < n; i++)
        qn *= q;
    double p = pp->lays * ways * k->m * qn;
    return p > 0.95 ? 0.95 : p;
}

/* Sets of n cards within `pool`, by strength: ways[strength] (multiplicity);
 * returns the number of strengths (the index range). */
static int set_ways(tc_cards pool, int n, double *ways)
{
    switch (n) {
    case 1:
    case 2:
        for (int j = 0; j < TC_NKIND; j++)
            ways[j] = binom(NIB(pool, j), n);
        return TC_NKIND;
    case 3:
        for (int i = 0; i < 4; i++) {
            double w = 1;
            for (int j = 0; j < TC_NKIND; j++)
                if (NIB(triples[i], j))
                    w *= NIB(pool, j);
            ways[i] = w;
        }
        return 4;
    default:
        ways[0] = binom(NIB(pool, TC_BS), n);
        ways[1] = binom(NIB(pool, TC_RS), n);
        return 2;
    }
}

/* Chance that a set of strength `str` (n cards) wins its trick, for every
 * strength at once (out[str]): every stronger set among the unseen cards is
 * a threat from the seats still to lay; a follower (`follower`) must also
 * beat the face-down lead, which wins ties (TC-R6.4). */
static void win_table(const tc_pparams *pp, const know *k, int n, int follower, double *out)
{
    double ways[TC_NKIND], all = 0;
    int ns = set_ways(k->unseen, n, ways);
    for (int j = 0; j < ns; j++)
        all += ways[j];
    double p = 1, below = all;
    for (int j = ns - 1; j >= 0; j--) { /* p: the product over strengths above j */
        below -= ways[j];
        double x = p;
        if (follower && all > 0)
            x *= (below / all) * (below / all); /* the lead: the better of two draws */
        out[j] = x;
        p *= 1 - threat(pp, k, ways[j], n);
    }
}

/* How much a card of each kind held in `h` is worth keeping (kv[kind]):
 * strength, and membership of a pair, a triple or a Four; pairs and triples
 * that score kết when they win the last lead (TC-R8.3) more. */
static void keep_values(const tc_pparams *pp, tc_cards h, double *kv)
{
    for (int j = 0; j < TC_NKIND; j++) {
        int c = NIB(h, j);
        double v = j / 13.0;
        if (c >= 2) {
            v += pp->keep_pair;
            if ((j >= TC_BH && j <= TC_RC) || j == TC_BS)
                v += pp->keep_ket;
            if (j <= TC_RS && c >= 4)
                v += pp->keep_four;
        }
        kv[j] = v;
    }
    for (int i = 0; i < 4; i++)
        if (tc_subset(triples[i], h))
            for (int j = 0; j < TC_NKIND; j++)
                if (NIB(triples[i], j))
                    kv[j] += pp->keep_triple + (i <= 1 ? pp->keep_ket : 0);
}

/* The n cards of `h` worth least to keep. */
static tc_cards cheapest(const tc_pparams *pp, tc_cards h, int n, pl_rng *rng)
{
    double kv[TC_NKIND];
    keep_values(pp, h, kv);
    for (int j = 0; j < TC_NKIND; j++)
        if (NIB(h, j))
            kv[j] += 0.05 * pl_rng_double(rng);
    tc_cards out = 0, left = h;
    for (int i = 0; i < n && left; i++) {
        int best = -1;
        for (int j = 0; j < TC_NKIND; j++)
            if (NIB(left, j) && (best < 0 || kv[j] < kv[best]))
                best = j;
        out += ONE(best);
        left -= ONE(best);
    }
    return out;
}

/* The strongest set of n cards in `h` holding no card of `skip`: its
 * cards, and strength in *str (-1: none). */
static tc_cards best_set(tc_cards h, tc_cards skip, int n, int *str)
{
    *str = -1;
    h = tc_sub0(h, skip);
    if (n <= 2) {
        for (int j = TC_NKIND - 1; j >= 0; j--)
            if (NIB(h, j) >= n) {
                *str = j;
                return (tc_cards)n * ONE(j);
            }
        return 0;
    }
    if (n == 3) {
        for (int i = 3; i >= 0; i--)
            if (tc_subset(triples[i], h)) {
                *str = i;
                return triples[i];
            }
        return 0;
    }
    for (int c = 1; c >= 0; c--)
        if (NIB(h, c) >= n) {
            *str = c;
            return (tc_cards)n * ONE(c);
        }
    return 0;
}

/* Strength of the best group shown so far in the trick (the lead, earlier
 * reveals; TC-R6.4, TC-R7.4), -1 when nothing can win yet. */
static int shown_best(const tc_state *s)
{
    int n = s->tn, best = tc_set_strength(s->tlead, n);
    for (int i = 1; i < s->np; i++) {
        int f = (s->tleader + i) % s->np;
        if (!(s->trev >> f & 1))
            continue;
        if (s->tban && (s->tlay[f] & s->banned))
            continue;
        int st = tc_set_strength(s->tlay[f], n);
        if (st > best)
            best = st;
    }
    return best;
}

static pl_action random_legal(const tc_state *s, int seat, pl_rng *rng)
{
    pl_action acts[64];
    int n = tc_legal(s, seat, acts, 64);
    if (n > 64)
        n = 64;
    return acts[pl_rng_below(rng, (uint32_t)n)];
}

static pl_action choose_lead(const tc_pparams *pp, const tc_state *s, int seat, pl_rng *rng)
{
    pl_action acts[64];
    int n = tc_legal(s, seat, acts, 64), hs = tc_size(s->hand[seat]);
    if (n > 64)
        n = 64;
    if (n == 1)
        return acts[0];
    know k;
    k.unseen = tc_sub0(s->deck, seen_by(s, seat));
    k.u = tc_size(k.unseen);
    k.m = s->np - 1;
    k.h = hs;
    if (tc_ban_applies(s))
        k.unseen = tc_sub0(k.unseen, s->banned); /* banned cards win nothing (TC-R7.4) */
    int best = 0, done = 0; /* done: bit n when wt[n] is filled */
    double bv = -1e9, wt[6][TC_NKIND], kv[TC_NKIND];
    keep_values(pp, s->hand[seat], kv);
    for (int i = 0; i < n; i++) {
        tc_cards x = TC_CARDS(acts[i]);
        int sz = tc_size(x), str = tc_set_strength(x, sz);
        if (!(done >> sz & 1)) {
            win_table(pp, &k, sz, 0, wt[sz]);
            done |= 1 << sz;
        }
        double p = wt[sz][str], lost = 0;
        for (int j = 0; j < TC_NKIND; j++)
            lost += NIB(x, j) * kv[j];
        double v = sz * p - pp->lead_cost * (1 - p) * lost;
        if (sz == hs) { /* the last lead: kết and overtake (TC-R8.3, 8.4) */
            int low = tc_set_strength(x, sz);
            if (s->ket && ((sz == 2 && ((low >= TC_BH && low <= TC_RC) || low == TC_BS)) ||
                           (sz == 3 && low <= 1)))
                v += p * (low == TC_BS || sz == 3 ? 3 : 2) * (s->np - 1);
            if (s->overtake && x == (tc_cards)sz * ONE(TC_BS) && sz != 3 && sz != 1)
                v -= (1 - p) * 3;
        }
        v += pp->noise * pl_rng_double(rng);
        if (v > bv) {
            bv = v;
            best = i;
        }
    }
    return acts[best];
}

static pl_action choose_lay(const tc_pparams *pp, const tc_state *s, int seat, pl_rng *rng)
{
    tc_cards h = s->hand[seat];
    int n = s->tn, str;
    tc_cards x = best_set(h, s->tban ? s->banned : 0, n, &str);
    if (x) {
        know k;
        k.unseen = tc_sub0(s->deck, seen_by(s, seat));
        k.u = tc_size(k.unseen);
        k.m = s->np - 1 - s->tstep; /* followers after this one */
        k.h = tc_size(h);
        if (s->tban)
            k.unseen = tc_sub0(k.unseen, s->banned); /* banned cards win nothing (TC-R7.4) */
        double wt[TC_NKIND];
        win_table(pp, &k, n, 1, wt);
        double p = wt[str];
        if (p > pp->lay_base + pp->lay_span * pl_rng_double(rng))
            return TC_MK(TC_A_LAY, x);
    }
    return TC_MK(TC_A_LAY, cheapest(pp, h, n, rng));
}

static pl_action policy_with(const tc_pparams *pp, const tc_state *s, int seat, pl_rng *rng)
{
    if ((s->phase == TC_PH_LEAD || s->phase == TC_PH_LAY) && pp->explore && pl_rng_below(rng, pp->explore) == 0)
        return random_legal(s, seat, rng);
    switch (s->phase) {
    case TC_PH_LEAD: return choose_lead(pp, s, seat, rng);
    case TC_PH_LAY: return choose_lay(pp, s, seat, rng);
    case TC_PH_REVEAL: {
        tc_cards g = s->tlay[seat];
        int wins = tc_set_strength(g, s->tn) > shown_best(s) && !(s->tban && (g & s->banned));
        return TC_MK(wins ? TC_A_REVEAL : TC_A_HIDE, 0);
    }
    case TC_PH_EXCH: return TC_MK(TC_A_PASS, cheapest(pp, s->hand[seat], s->night_k, rng));
    default: { /* TC_PH_DECL: declare when allowed (listed first) */
        pl_action acts[4];
        tc_legal(s, seat, acts, 4);
        return acts[0];
    }
    }
}

pl_action tc_policy(const void *st, int seat, pl_rng *rng)
{
    return policy_with(&tc_pp, st, seat, rng);
}
