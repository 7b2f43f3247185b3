/* kar_bot.c — a karuta player that plays like a person (kar.h, docs/ai.md).
 *
 * Generic search cannot play karuta: an answer is a touch *time*, and the
 * whole skill is how soon after the deciding kana a person moves. So the
 * game ships its own player behind pl_game.bot. The model, per reading:
 *   recognise  at the start of the deciding kana (KA-K3), or of the
 *              territory kimariji (KA-K4) when the level plays by territory;
 *   think      a log-normal cognitive delay, median by level;
 *   move       base + rows from the centre line + distance from the centre
 *              slot, more for the opponent's territory (kyōgi);
 *   forget     a card sent or given in the last 3 readings is found late
 *              (+300..800 ms) with probability p_memory;
 *   foul       for each card on the field sharing a prefix with the read
 *              card, a chance to commit to it as soon as that prefix is
 *              heard (more often for the other side): a touch that fouls
 *              when it lies in a territory without the read card (KA-R8).
 * Everything is drawn from one generator seeded by the call's seed.
 * It reads the state as both players see it (layout, what is read), never
 * a hidden field. Threading: pure, over caller-owned states.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kar.h"

static const kar_bot_level kar_bot_table[] = {
    /* name       alias     cog  sig terr move row slot other  mem   own   other */
    {"beginner", "easy", 900, 0.45, 0, 350, 60, 80, 150, 0.50, 0.05, 0.15},
    {"club", "medium", 520, 0.35, 1, 240, 40, 50, 100, 0.30, 0.03, 0.10},
    {"expert", "hard", 300, 0.30, 1, 150, 25, 35, 70, 0.15, 0.02, 0.06},
    {"champion", NULL, 110, 0.25, 1, 80, 15, 20, 40, 0.05, 0.01, 0.04},
};
#define NLEVELS (int)(sizeof kar_bot_table / sizeof kar_bot_table[0])

const kar_bot_level *kar_bot_find(const char *name)
{
    for (int i = 0; i < NLEVELS; i++)
        if (!strcmp(name, kar_bot_table[i].name) ||
            (kar_bot_table[i].alias && !strcmp(name, kar_bot_table[i].alias)))
            return &kar_bot_table[i];
    return NULL;
}

void kar_bot_levels(pl_buf *out)
{
    for (int i = 0; i < NLEVELS; i++) {
        pl_buf_printf(out, "%s%s", i ? " " : "", kar_bot_table[i].name);
        if (kar_bot_table[i].alias)
            pl_buf_printf(out, " (%s)", kar_bot_table[i].alias);
    }
}

static double normal(pl_rng *r)
{
    double u = pl_rng_double(r), v = pl_rng_double(r);
    return sqrt(-2 * log(u > 1e-300 ? u : 1e-300)) * cos(6.283185307179586 * v);
}

/* Common prefix of two poems' sound keys (code points). */
static int key_lcp(int a, int b)
{
    const kar_poem *p = kar_poem_get(a), *q = kar_poem_get(b);
    int n = 0;
    while (n < p->keylen && n < q->keylen && p->key[n] == q->key[n])
        n++;
    return n;
}

static bool on_field(const kar_state *s, int c)
{
    int l = s->loc[c];
    switch (s->variant) {
    case KAR_KYOGI: return l < 2;
    case KAR_UTA: return l < 4 || l == KAR_LOC_POOL;
    default: return l == KAR_LOC_FIELD;
    }
}

/* Movement time to card `c` for `seat`. */
static double move_time(const kar_state *s, int seat, int c, const kar_bot_level *lv)
{
    double t = lv->move_ms;
    if (s->variant == KAR_KYOGI) {
        int r = s->row[c] ? s->row[c] : 1, k = s->slot[c] ? s->slot[c] : 9;
        t += lv->row_ms * (KAR_ROWS - r) + lv->slot_ms * abs(k - 9) / 8.0; /* row 3 is at the centre */
        if (s->loc[c] != seat)
            t += lv->other_ms;
    } else if (s->loc[c] != seat) { /* uta: another hand or the pool; chirashi: the field */
        t += lv->other_ms * ((c * 37) % 10) / 10.0;
    }
    return t;
}

static int clamp_ms(double t)
{
    return t < 0 ? 0 : t > KAR_MS_MAX ? KAR_MS_MAX : (int)(t + 0.5);
}

int kar_bot_take_ms(const kar_state *s, int seat, const kar_bot_level *lv, pl_rng *rng)
{
    int c = s->cur;
    double cog = lv->cog_ms * exp(lv->cog_sigma * normal(rng));
    double mem = pl_rng_double(rng), extra = 300 + 500 * pl_rng_double(rng);
    if (!c || !on_field(s, c))
        return -1;
    int heard = s->last.decide_ms;
    if (lv->use_territory && s->last.terr && s->last.terr_ms < heard)
        heard = s->last.terr_ms;
    double t = heard + cog + move_time(s, seat, c, lv);
    if (s->moved_at[c] && s->nread - s->moved_at[c] <= 3 && mem < lv->p_memory)
        t += extra;
    return clamp_ms(t);
}

/* Touch stage: the take, and early commitments to prefix-sharing cards. */
static pl_action touch_answer(const kar_state *s, int seat, const kar_bot_level *lv, pl_rng *rng)
{
    kar_touch t[KAR_MAXTOUCH];
    int n = 0, take = kar_bot_take_ms(s, seat, lv, rng);
    int maxt = s->variant == KAR_UTA ? 1 : KAR_MAXTOUCH;
    for (int c = 1; c <= KAR_NPOEMS && n < maxt - (take >= 0); c++) {
        if (c == s->cur || !on_field(s, c))
            continue;
        int l = key_lcp(c, s->cur);
        if (l == 0)
            continue;
        bool other = s->variant == KAR_KYOGI ? s->loc[c] != seat : false;
        double p = other ? lv->p_foul_other : lv->p_foul_own;
        if (pl_rng_double(rng) >= p)
            continue;
        /* commits as soon as the shared prefix is heard */
        double at = kar_kana_start(s->cur, s->upper_ms, s->tempo_even, l) + 0.5 * lv->cog_ms * exp(lv->cog_sigma * normal(rng)) +
                    move_time(s, seat, c, lv);
        int ms = clamp_ms(at);
        if (take >= 0 && ms >= take)
            continue; /* the real card came first: no commitment */
        t[n].card = (uint8_t)c;
        t[n].ms = (uint16_t)ms;
        n++;
    }
    if (take >= 0 && n < maxt) {
        t[n].card = s->cur;
        t[n].ms = (uint16_t)take;
        n++;
    }
    if (n == 0)
        return KAR_A_NONE;
    /* one touch per card, at most KAR_MAXTOUCH (already); answer=poet: the touched card's poet */
    return kar_touch_action(t, n) | (s->answer_poet ? KAR_A_POET(t[0].card) : 0);
}

/* Send stage: the card of its own side sharing the longest prefix with
 * another unread card left on its side (that pair is a trap for itself). */
static pl_action send_choice(const kar_state *s, int seat)
{
    int best = 0, bscore = -1;
    for (int c = 1; c <= KAR_NPOEMS; c++) {
        if (s->loc[c] != seat)
            continue;
        int sc = 0;
        for (int d = 1; d <= KAR_NPOEMS; d++)
            if (d != c && s->loc[d] == seat && s->kim.unread[d]) {
                int l = key_lcp(c, d);
                if (l > sc)
                    sc = l;
            }
        sc = sc * 8 + kar_kim_static(c); /* ties: the longer kimariji goes */
        if (sc > bscore) {
            bscore = sc;
            best = c;
        }
    }
    return best ? KAR_A_SEND | (pl_action)best : KAR_A_PASS;
}

/* Place stage: the row with the fewest cards, the empty slot nearest the
 * centre (never the free space in front of the player, KA-R2). */
static pl_action place_choice(const kar_state *s, int seat)
{
    int br = 0, bk = 0, bcount = 99;
    for (int r = 0; r < KAR_ROWS; r++) {
        int cnt = 0, k0 = -1;
        for (int k = 0; k < KAR_SLOTS; k++)
            cnt += s->grid[seat][r][k] != 0;
        for (int d = 0; d < KAR_SLOTS && k0 < 0; d++)
            for (int sgn = -1; sgn <= 1 && k0 < 0; sgn += 2) {
                int k = 8 + sgn * d;
                if (k >= 0 && k < KAR_SLOTS && !s->grid[seat][r][k] && !kar_free_space(r + 1, k + 1))
                    k0 = k;
            }
        if (k0 >= 0 && cnt < bcount) {
            bcount = cnt;
            br = r;
            bk = k0;
        }
    }
    return KAR_A_PLACE | s->place_card | (pl_action)(br + 1) << 8 | (pl_action)(bk + 1) << 16;
}

int kar_bot(const void *st, int seat, const char *level, uint64_t seed, pl_action *out, pl_buf *err)
{
    const kar_state *s = st;
    const kar_bot_level *lv = kar_bot_find(level);
    if (!lv) {
        pl_buf_printf(err, "unknown karuta level '%s'; levels: ", level);
        kar_bot_levels(err);
        return -1;
    }
    pl_rng rng;
    pl_rng_seed(&rng, seed);
    switch (s->stage) {
    case KAR_ST_TOUCH: *out = touch_answer(s, seat, lv, &rng); break;
    case KAR_ST_SEND: *out = send_choice(s, seat); break;
    case KAR_ST_PLACE: *out = place_choice(s, seat); break;
    case KAR_ST_ARRANGE: *out = KAR_A_READY; break; /* keeps its layout (KA-R15) */
    case KAR_ST_POOL:
        *out = KAR_A_NONE;
        for (int c = KAR_NPOEMS; c >= 1; c--) /* the card with the longest kimariji */
            if (s->loc[c] == seat && (*out == KAR_A_NONE || kar_kim_static(c) > kar_kim_static((int)(*out & 0x7f))))
                *out = KAR_A_POOL | (pl_action)c;
        break;
    default: break;
    }
    if (kar_why_invalid(s, seat, *out, err)) {
        pl_buf_puts(err, " (karuta bot)");
        return -1;
    }
    return 0;
}
