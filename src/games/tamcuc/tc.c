/* tc.c — rules of Tam Cúc (rules/tam-cuc.md TC-R1 … TC-R9): options, chance
 * (counting, first dealer, deal), night exchange, the declarations of Four
 * and Five, tricks, scoring per deal and per session, determinization.
 *
 * Hot path: tc_legal and tc_apply. No allocation, no I/O; hands are packed
 * counts (tc.h), so a set test is one compare and a subset test one
 * subtraction. Decisions where the rules are silent are marked [I] and listed
 * in docs/notation-tamcuc.md.
 */
#include "tc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parlour/alloc.h"

const char tc_rank_ch[7] = {'S', 'H', 'N', 'C', 'E', 'A', 'G'};

/* Copies of each kind in the full deck (TC-R1.1). */
static const uint8_t full_copies[TC_NKIND] = {5, 5, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1};

/* Physical cards, kind-major: kind 0 copies 0..4, kind 1 copies 0..4, … */
const uint8_t tc_phys_kind[TC_NPHYS] = {0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4,
                                        5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 13};
const uint8_t tc_phys_copy[TC_NPHYS] = {0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1, 0, 1, 0, 1,
                                        0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0};
static const uint8_t phys_first[TC_NKIND] = {0, 5, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 31};

#define ONE TC_ONE
#define NIB TC_NIB
static const tc_cards triple_set[4] = {
    ONE(TC_RG) | ONE(TC_RA) | ONE(TC_RE), /* red high */
    ONE(TC_BG) | ONE(TC_BA) | ONE(TC_BE), /* black high */
    ONE(TC_RC) | ONE(TC_RN) | ONE(TC_RH), /* red low */
    ONE(TC_BC) | ONE(TC_BN) | ONE(TC_BH), /* black low */
};

static inline int lowest_kind(tc_cards x) { return __builtin_ctzll(x) >> 2; }

#define LOW_BITS 0x11111111111111ull /* bit 0 of each of the 14 nibbles */
/* Bit 0 of each nibble whose count is at least 1 / at least 2 (counts <= 5). */
static inline uint64_t kinds_ge1(tc_cards h) { return (h | h >> 1 | h >> 2) & LOW_BITS; }
static inline uint64_t kinds_ge2(tc_cards h) { return (h >> 1 | h >> 2) & LOW_BITS; }

int tc_set_strength(tc_cards x, int n)
{
    if (!x)
        return -1;
    int k = lowest_kind(x);
    switch (n) {
    case 1: return x == ONE(k) ? k : -1;        /* TC-R2.1 */
    case 2: return x == 2 * ONE(k) ? k : -1;    /* TC-R2.2 */
    case 3:                                      /* TC-R2.3 */
        for (int i = 0; i < 4; i++)
            if (x == triple_set[i])
                return 3 - i;
        return -1;
    case 4:                                      /* TC-R2.4 */
    case 5:                                      /* TC-R2.5 */
        if (x == (tc_cards)n * ONE(TC_RS))
            return 1;
        if (x == (tc_cards)n * ONE(TC_BS))
            return 0;
        return -1;
    default: return -1;
    }
}

int tc_ban_applies(const tc_state *s)
{
    return s->ban != TC_BAN_NONE && s->tricks == 0 && !s->textra &&
           !(s->seize_unlocks && s->any_seize);
}

int tc_decl_seat(const tc_state *s)
{
    return s->dctr ? (s->dx + s->dcstep) % s->np : (s->dealer + s->dstep) % s->np;
}

/* ---------------------------------------------------------------- legal */

#define PUSH(act)                                                                                  \
    do {                                                                                           \
        if (n < cap)                                                                               \
            out[n] = (act);                                                                        \
        n++;                                                                                       \
    } while (0)

/* The sets of `h` (TC-R2) that may be led (TC-R5.7, TC-R7, TC-R9), in
 * canonical order: size ascending, strength descending. */
static int gen_leads(const tc_state *s, tc_cards h, int ban, int r9, pl_action *out, int cap)
{
    int n = 0, hsz = tc_size(h);
    tc_cards banned = ban ? s->banned : 0;
#define LEAD_OK(x) (!((x) & banned) && !(r9 && tc_size(x) == hsz && NIB(x, TC_BG)))
    for (uint64_t m = kinds_ge1(h); m; m &= ~((uint64_t)1 << (63 - __builtin_clzll(m)))) {
        tc_cards x = (tc_cards)1 << (63 - __builtin_clzll(m));
        if (LEAD_OK(x))
            PUSH(TC_MK(TC_A_LEAD, x));
    }
    for (uint64_t m = kinds_ge2(h); m; m &= ~((uint64_t)1 << (63 - __builtin_clzll(m)))) {
        tc_cards x = (tc_cards)2 << (63 - __builtin_clzll(m));
        if (LEAD_OK(x))
            PUSH(TC_MK(TC_A_LEAD, x));
    }
    for (int i = 0; i < 4; i++)
        if (tc_subset(triple_set[i], h) && LEAD_OK(triple_set[i]))
            PUSH(TC_MK(TC_A_LEAD, triple_set[i]));
    if (s->big_leads)
        for (int z = 4; z <= 5; z++)
            for (int col = 1; col >= 0; col--)
                if (NIB(h, col) >= z && LEAD_OK((tc_cards)z * ONE(col)))
                    PUSH(TC_MK(TC_A_LEAD, (tc_cards)z * ONE(col)));
#undef LEAD_OK
    return n;
}

/* The Four the leader of an extra trick declared (TC-R5.3): the red one
 * when he declared red (a holder of both Fours declares red), else black. */
static tc_cards extra_four(const tc_state *s)
{
    return 4 * ONE((s->declared[s->tleader] >> 3 & 1) ? TC_RS : TC_BS);
}

/* Legal leads of the leader now, with the liftings of TC-R7.3 and TC-R9 [I]. */
static int legal_leads(const tc_state *s, pl_action *out, int cap)
{
    tc_cards h = s->hand[s->tleader];
    if (s->textra) { /* TC-R5.3: the declarer leads the four Soldiers he declared */
        int n = 0;
        tc_cards four = extra_four(s);
        if (tc_subset(four, h))
            PUSH(TC_MK(TC_A_LEAD, four));
        return n;
    }
    int ban = tc_ban_applies(s), r9 = s->no_bg_last;
    int n = gen_leads(s, h, ban, r9, out, cap);
    if (n == 0 && ban)
        n = gen_leads(s, h, 0, r9, out, cap);
    if (n == 0 && r9)
        n = gen_leads(s, h, ban, 0, out, cap);
    if (n == 0)
        n = gen_leads(s, h, 0, 0, out, cap);
    return n;
}

typedef struct lay_gen {
    int nk, kinds[TC_NKIND], cnt[TC_NKIND], suf[TC_NKIND + 1];
    pl_action tag;
    pl_action *out;
    int cap, n;
} lay_gen;

static void lay_rec(lay_gen *g, int i, int rem, tc_cards acc)
{
    if (rem == 0) {
        if (g->n < g->cap)
            g->out[g->n] = g->tag | acc;
        g->n++;
        return;
    }
    int maxc = g->cnt[i] < rem ? g->cnt[i] : rem;
    int minc = rem - g->suf[i + 1];
    if (minc < 0)
        minc = 0;
    for (int c = maxc; c >= minc; c--)
        lay_rec(g, i + 1, rem - c, acc + (tc_cards)c * ONE(g->kinds[i]));
}

/* Every distinct sub-multiset of `h` of `size` cards (TC-R6.2), strongest
 * kinds first. At most C(16,5) = 4368 (two players, a five-card lead). */
static int gen_multisets(tc_cards h, int size, unsigned tag, pl_action *out, int cap)
{
    int n = 0;
    if (size == 1) { /* the common case: one action per kind held */
        pl_action t = (pl_action)tag << 60;
        for (uint64_t m = kinds_ge1(h); m; m &= ~((uint64_t)1 << (63 - __builtin_clzll(m))))
            PUSH(t | ((tc_cards)1 << (63 - __builtin_clzll(m))));
        return n;
    }
    lay_gen g;
    g.nk = 0;
    for (int k = TC_NKIND - 1; k >= 0; k--)
        if (NIB(h, k)) {
            g.kinds[g.nk] = k;
            g.cnt[g.nk++] = NIB(h, k);
        }
    g.suf[g.nk] = 0;
    for (int i = g.nk - 1; i >= 0; i--)
        g.suf[i] = g.suf[i + 1] + g.cnt[i];
    if (g.suf[0] < size)
        return 0;
    g.tag = (pl_action)tag << 60;
    g.out = out;
    g.cap = cap;
    g.n = 0;
    lay_rec(&g, 0, size, 0);
    return g.n;
}

/* Whether `seat` may declare in the current declaration turn (TC-R5.1). */
static int can_declare(const tc_state *s, int seat)
{
    if (s->declared[seat])
        return 0; /* one declaration a seat and deal [I] */
    tc_cards h = s->hand[seat];
    int z = s->dround;
    if (s->dctr)
        return NIB(h, TC_RS) >= z; /* only the red set counters or intercepts */
    return NIB(h, TC_RS) >= z || NIB(h, TC_BS) >= z;
}

int tc_actors(const void *st, int *seats)
{
    const tc_state *s = st;
    switch (s->phase) {
    case TC_PH_EXCH: {
        int n = 0;
        for (int p = 0; p < s->np; p++)
            if (!(s->xdone >> p & 1))
                seats[n++] = p;
        return n;
    }
    case TC_PH_DECL: seats[0] = tc_decl_seat(s); return 1;
    case TC_PH_LEAD: seats[0] = s->tleader; return 1;
    case TC_PH_LAY:
    case TC_PH_REVEAL: seats[0] = (s->tleader + s->tstep) % s->np; return 1;
    default: return 0;
    }
}

int tc_legal(const void *st, int seat, pl_action *out, int cap)
{
    const tc_state *s = st;
    int n = 0;
    switch (s->phase) {
    case TC_PH_EXCH:
        if (seat < 0 || seat >= s->np || (s->xdone >> seat & 1))
            return 0;
        return gen_multisets(s->hand[seat], s->night_k, TC_A_PASS, out, cap);
    case TC_PH_DECL:
        if (seat != tc_decl_seat(s))
            return 0;
        if (can_declare(s, seat)) {
            PUSH(TC_MK(TC_A_DECL, s->dround));
            if (!s->mandatory)
                PUSH(TC_MK(TC_A_NODECL, 0));
        } else {
            PUSH(TC_MK(TC_A_NODECL, 0));
        }
        return n;
    case TC_PH_LEAD:
        if (seat != s->tleader)
            return 0;
        return legal_leads(s, out, cap);
    case TC_PH_LAY:
        if (seat != (s->tleader + s->tstep) % s->np)
            return 0;
        return gen_multisets(s->hand[seat], s->tn, TC_A_LAY, out, cap);
    case TC_PH_REVEAL:
        if (seat != (s->tleader + s->tstep) % s->np)
            return 0;
        PUSH(TC_MK(TC_A_REVEAL, 0));
        PUSH(TC_MK(TC_A_HIDE, 0));
        return n;
    default: return 0;
    }
}

/* ---------------------------------------------------------------- explain */

int tc_illegal_reason(const tc_state *s, int seat, pl_action a)
{
    unsigned tag = TC_TAG(a);
    tc_cards x = TC_CARDS(a);
    tc_cards h = seat >= 0 && seat < s->np ? s->hand[seat] : 0;
    switch (tag) {
    case TC_A_LEAD:
    case TC_A_LAY:
    case TC_A_PASS: {
        if ((tag == TC_A_LEAD && s->phase != TC_PH_LEAD) || (tag == TC_A_LAY && s->phase != TC_PH_LAY) ||
            (tag == TC_A_PASS && s->phase != TC_PH_EXCH))
            return TC_WHY_NOT_NOW;
        if (!tc_subset(x, h))
            return TC_WHY_NOT_IN_HAND;
        if (tag != TC_A_LEAD)
            return TC_WHY_COUNT;
        int n = tc_size(x);
        if (s->textra)
            return TC_WHY_EXTRA_FOUR;
        if (tc_set_strength(x, n) < 0)
            return TC_WHY_NOT_A_SET;
        if (n >= 4 && !s->big_leads)
            return TC_WHY_BIG_LEADS_OFF;
        if (tc_ban_applies(s) && (x & s->banned))
            return TC_WHY_BANNED;
        if (s->no_bg_last && n == tc_size(h) && NIB(x, TC_BG))
            return TC_WHY_BLACK_GENERAL_LAST;
        return TC_WHY_OTHER;
    }
    case TC_A_REVEAL:
    case TC_A_HIDE: return TC_WHY_REVEAL_LATER;
    case TC_A_DECL:
        if (s->phase != TC_PH_DECL)
            return TC_WHY_DECLARE_NOT_NOW;
        if ((int)TC_CARDS(a) != s->dround)
            return TC_WHY_DECLARE_ROUND;
        if (s->declared[seat])
            return TC_WHY_DECLARED;
        return s->dctr ? TC_WHY_COUNTER_RED : TC_WHY_DECLARE_NEEDS;
    case TC_A_NODECL: return s->phase != TC_PH_DECL ? TC_WHY_NODECLARE_NOT_NOW : TC_WHY_MUST_DECLARE;
    default: return TC_WHY_OTHER;
    }
}

tc_cards tc_extra_four(const tc_state *s)
{
    return extra_four(s);
}

void tc_why_illegal(const tc_state *s, int seat, pl_action a, pl_buf *out)
{
    unsigned tag = TC_TAG(a);
    static const char *const what[] = {"", "lead", "lay", "", "", "", "", "pass"};
    int want = tag == TC_A_PASS ? s->night_k : tag == TC_A_LAY ? s->tn : 0;
    switch (tc_illegal_reason(s, seat, a)) {
    case TC_WHY_NOT_NOW: pl_buf_printf(out, "no %s now", what[tag & 7]); return;
    case TC_WHY_NOT_IN_HAND: pl_buf_puts(out, "those cards are not all in your hand"); return;
    case TC_WHY_COUNT:
        pl_buf_printf(out, "%s exactly %d card%s (TC-R%s)", tag == TC_A_LAY ? "lay" : "pass", want,
                      want > 1 ? "s" : "", tag == TC_A_LAY ? "6.2" : "4.4");
        return;
    case TC_WHY_EXTRA_FOUR:
        pl_buf_printf(out, "after declaring Four you lead the four %s Soldiers you declared (TC-R5.3)",
                      extra_four(s) == 4 * ONE(TC_RS) ? "red" : "black");
        return;
    case TC_WHY_NOT_A_SET:
        pl_buf_puts(out, "not a set: a single, a pair of one kind, a triple G-A-E or C-N-H of one colour, "
                         "or four or five Soldiers of one colour (TC-R2)");
        return;
    case TC_WHY_BIG_LEADS_OFF: pl_buf_puts(out, "Four and Five are not leads with big_soldier_leads=off (TC-R5.7)"); return;
    case TC_WHY_BANNED: pl_buf_puts(out, "the first trick's lead may not hold a banned card (TC-R7.3)"); return;
    case TC_WHY_BLACK_GENERAL_LAST: pl_buf_puts(out, "the last lead may not hold the black General (TC-R9.1)"); return;
    case TC_WHY_REVEAL_LATER: pl_buf_puts(out, "reveal and hide come after the lead is shown (TC-R6.3)"); return;
    case TC_WHY_DECLARE_NOT_NOW:
        pl_buf_puts(out, "declarations come after the deal, before the first lead (TC-R5.1)");
        return;
    case TC_WHY_DECLARE_ROUND:
        pl_buf_printf(out, "this is the round of %s declarations (TC-R5.1)", s->dround == 5 ? "Five" : "Four");
        return;
    case TC_WHY_DECLARED: pl_buf_puts(out, "you have already declared this deal"); return;
    case TC_WHY_COUNTER_RED:
        pl_buf_printf(out, "only %d red Soldiers can counter a black declaration (TC-R5.2, TC-R5.5)", s->dround);
        return;
    case TC_WHY_DECLARE_NEEDS: pl_buf_printf(out, "declaring needs %d Soldiers of one colour (TC-R5.1)", s->dround); return;
    case TC_WHY_NODECLARE_NOT_NOW: pl_buf_puts(out, "no declaration is asked now"); return;
    case TC_WHY_MUST_DECLARE: pl_buf_puts(out, "with soldier_declare_mandatory=on a holder must declare (TC-R5.1)"); return;
    default:
        pl_buf_puts(out, tag == TC_A_LEAD ? "not a legal lead now" : "not an action of this game");
        return;
    }
}

/* ---------------------------------------------------------------- apply */

static void pay_all(tc_state *s, int to, int amount)
{
    for (int p = 0; p < s->np; p++)
        if (p != to) {
            s->dscore[p] = (int16_t)(s->dscore[p] - amount);
            s->dscore[to] = (int16_t)(s->dscore[to] + amount);
        }
}

static void start_deal(tc_state *s);

int tc_base_score(const tc_state *s, const int *k, int p)
{
    if (s->np == 4)
        return k[p] - 2;
    if (s->np == 3)
        return (s->deckopt == TC_D_30 && s->thirty_score == TC_30_THIRDS) ? 3 * k[p] - 10 : k[p] - 3;
    return s->two_p_score == TC_2P_DIFF ? k[p] - k[1 - p] : k[p] - 8;
}

/* TC-R8: base scores, totals, then the next deal or the end (TC-R8.5). */
static void end_deal(tc_state *s)
{
    if (!s->ended_by_autowin) {
        int k[TC_MAXP];
        for (int p = 0; p < s->np; p++)
            k[p] = tc_size(s->won[p]);
        for (int p = 0; p < s->np; p++)
            s->dscore[p] = (int16_t)(s->dscore[p] + tc_base_score(s, k, p));
    }
    for (int p = 0; p < s->np; p++) {
        s->total[p] = (int16_t)(s->total[p] + s->dscore[p]);
        s->last_score[p] = s->dscore[p];
    }
    s->deals_done++;
    int over;
    if (s->sess_kind == TC_SESS_DEALS) {
        over = s->deals_done >= s->sess_n;
    } else {
        over = s->deals_done >= 1000; /* a target session stops after 1000 deals at most [I] */
        for (int p = 0; p < s->np; p++)
            over = over || s->total[p] >= s->sess_n;
    }
    if (over) {
        s->phase = TC_PH_OVER;
        return;
    }
    int next;
    switch (s->next_dealer) {
    case TC_ND_LASTWIN: next = s->last_winner >= 0 ? s->last_winner : (s->dealer + 1) % s->np; break;
    default: next = (s->dealer + 1) % s->np; break;
    }
    s->dealer = (uint8_t)next;
    start_deal(s);
    if (s->next_dealer == TC_ND_RECOUNT)
        s->phase = TC_PH_COUNT;
}

/* Clears the deal's fields and waits for the deal. */
static void start_deal(tc_state *s)
{
    memset(s->hand, 0, sizeof s->hand);
    memset(s->dealt, 0, sizeof s->dealt);
    memset(s->won, 0, sizeof s->won);
    memset(s->pub, 0, sizeof s->pub);
    memset(s->sec, 0, sizeof s->sec);
    memset(s->shown, 0, sizeof s->shown);
    memset(s->passed, 0, sizeof s->passed);
    memset(s->declared, 0, sizeof s->declared);
    memset(s->decl_log, 0, sizeof s->decl_log);
    memset(s->neg, 0, sizeof s->neg);
    memset(s->tlay, 0, sizeof s->tlay);
    memset(s->dscore, 0, sizeof s->dscore);
    s->xdone = 0;
    s->dround = s->dstep = s->dctr = s->dx = s->dcstep = 0;
    s->ndecl = 0;
    s->any_seize = 0;
    s->seizer = -1;
    s->extra_winner = -1;
    s->negdirty = 0;
    s->tleader = s->tn = s->tstep = s->textra = s->tban = s->trev = s->thid = s->tshown = 0;
    s->tricks = 0;
    s->last_winner = -1;
    s->tlead = 0;
    /* the previous trick (pv_*) stays on view until the next one ends */
    s->ended_by_autowin = 0;
    s->phase = TC_PH_DEAL;
}

static void start_play(tc_state *s)
{
    int leader = s->dealer; /* the dealer leads first (TC-R5.2) */
    if (s->seizer >= 0)
        leader = s->seizer;
    if (s->four_next == TC_FNL_WINNER && s->extra_winner >= 0)
        leader = s->extra_winner; /* TC-R5.3 FOUR_NEXT_LEAD=TRICK_WINNER */
    s->tleader = (uint8_t)leader;
    s->textra = 0;
    if (!s->hand[leader]) { /* extra tricks took every card */
        end_deal(s);
        return;
    }
    s->phase = TC_PH_LEAD;
}

/* A round of declarations ends: the next round, the play, or (AUTOWIN with
 * autowin_ends_deal) the end of the deal (TC-R5.6). */
static void decl_close(tc_state *s, int paid)
{
    s->dctr = 0;
    if (paid && s->autowin_ends) {
        s->ended_by_autowin = 1;
        end_deal(s);
        return;
    }
    if (s->dround == 5 && !(s->soldier == TC_SS_SEIZE && s->np == 3 && s->seizer >= 0)) {
        s->dround = 4;
        s->dstep = 0;
        s->phase = TC_PH_DECL;
        return;
    }
    start_play(s);
}

static void decl_next_main(tc_state *s)
{
    s->phase = TC_PH_DECL;
    if (++s->dstep >= s->np)
        decl_close(s, 0);
}

static void start_decl(tc_state *s)
{
    for (int p = 0; p < s->np; p++)
        s->dealt[p] = s->hand[p];
    if (s->soldier == TC_SS_NONE) {
        start_play(s);
        return;
    }
    /* The Five round only where the deck holds five Soldiers of a colour. */
    s->dround = (NIB(s->deck, TC_RS) == 5 || NIB(s->deck, TC_BS) == 5) ? 5 : 4;
    s->dstep = 0;
    s->dctr = 0;
    s->phase = TC_PH_DECL;
}

static void log_decl(tc_state *s, int seat, int z, int red, int counter)
{
    s->declared[seat] = (uint8_t)(z | red << 3 | counter << 4);
    if (s->ndecl < TC_MAXDECL)
        s->decl_log[s->ndecl++] = (uint8_t)(seat | z << 2 | red << 5 | counter << 6);
}

static void apply_decl(tc_state *s, int seat, pl_action a)
{
    int z = s->dround;
    if (TC_TAG(a) == TC_A_NODECL) {
        if (s->mandatory && !s->declared[seat] && !s->negdirty)
            s->neg[seat] |= (uint8_t)(s->dctr ? (z == 5 ? 4 : 8) : (z == 5 ? 1 : 2));
        if (s->dctr) {
            if (++s->dcstep >= s->np) { /* nobody countered: the black declaration stands */
                if (s->soldier == TC_SS_AUTOWIN) {
                    pay_all(s, s->dx, z == 4 ? 2 : 3);
                    decl_close(s, 1);
                } else {
                    decl_close(s, 0);
                }
            }
            return;
        }
        decl_next_main(s);
        return;
    }
    if (s->dctr) { /* a counter (TC-R5.2, 5.3a) or an interception (TC-R5.5) */
        log_decl(s, seat, z, 1, 1);
        if (s->soldier == TC_SS_AUTOWIN) {
            pay_all(s, seat, z == 4 ? 2 : 3);
            decl_close(s, 1);
        } else {
            s->seizer = (int8_t)seat;
            decl_close(s, 0);
        }
        return;
    }
    int red = NIB(s->hand[seat], TC_RS) >= z; /* the red set when held [I] */
    log_decl(s, seat, z, red, 0);
    if (s->soldier == TC_SS_SEIZE) {
        s->any_seize = 1;
        if (z == 4 && s->np != 3) { /* TC-R5.3: an extra trick at once */
            s->tleader = (uint8_t)seat;
            s->textra = 1;
            s->phase = TC_PH_LEAD;
            return;
        }
        s->seizer = (int8_t)seat; /* TC-R5.2, TC-R5.3a */
        if (red) {
            decl_close(s, 0);
            return;
        }
    } else if (red) { /* AUTOWIN (TC-R5.5) */
        pay_all(s, seat, z == 4 ? 2 : 3);
        decl_close(s, 1);
        return;
    }
    s->dctr = 1; /* black: every other seat in order may counter */
    s->dx = (uint8_t)seat;
    s->dcstep = 1;
}

/* TC-R6.4, 6.5, 8.3, 8.4: the winner, the piles, the bonuses. */
static void resolve(tc_state *s)
{
    int n = s->tn, L = s->tleader, np = s->np;
    int best = tc_set_strength(s->tlead, n), winner = L;
    for (int i = 1; i < np; i++) {
        int f = (L + i) % np;
        if (!(s->trev >> f & 1))
            continue;
        tc_cards g = s->tlay[f];
        if (s->tban && (g & s->banned))
            continue; /* TC-R7.4 */
        int st = tc_set_strength(g, n);
        if (st > best) { /* ties go to the earliest (TC-R6.4) */
            best = st;
            winner = f;
        }
    }
    s->pv_valid = 1;
    s->pv_leader = (uint8_t)L;
    s->pv_n = (uint8_t)n;
    s->pv_winner = (uint8_t)winner;
    s->pv_rev = s->trev;
    s->pv_lead = s->tlead;
    for (int p = 0; p < np; p++) {
        tc_cards g = p == L ? s->tlead : s->tlay[p];
        int shown = p == L || (s->trev >> p & 1);
        s->pv_lay[p] = p != L && shown ? g : 0;
        if (p == winner)
            s->won[p] += g;
        else if (shown)
            s->pub[p] += g;
        else
            s->sec[p] += g;
        s->tlay[p] = 0;
    }
    int last = s->hand[L] == 0; /* TC-R6.7 */
    if (last && winner == L && s->ket) { /* TC-R8.3 kết */
        tc_cards x = s->tlead;
        int b = 0;
        if (n == 2) {
            int k = lowest_kind(x);
            if (k >= TC_BH && k <= TC_RC)
                b = 2;
            else if (k == TC_BS)
                b = 3;
        } else if (n == 3 && (x == triple_set[2] || x == triple_set[3])) {
            b = 3;
        }
        if (b)
            pay_all(s, L, b);
    }
    if (last && winner != L && s->overtake) { /* TC-R8.4 */
        tc_cards x = s->tlead, w = s->pv_lay[winner];
        int ot = 0;
        if ((n == 2 || n == 4 || n == 5) && x == (tc_cards)n * ONE(TC_BS) && w == (tc_cards)n * ONE(TC_RS))
            ot = 1;
        if (s->overtake_cnh && n == 2) {
            int k = lowest_kind(x);
            if ((k == TC_BC || k == TC_BN || k == TC_BH) && x == 2 * ONE(k) && w == 2 * ONE(k + 1))
                ot = 1;
        }
        if (ot) {
            for (int p = 0; p < np; p++)
                if (p != L && (s->payee == TC_PAYEE_ALL || p == winner)) {
                    s->dscore[p] = (int16_t)(s->dscore[p] + 3);
                    s->dscore[L] = (int16_t)(s->dscore[L] - 3);
                }
        }
    }
    s->tlead = 0;
    s->last_winner = (int8_t)winner;
    int extra = s->textra;
    if (extra) {
        s->extra_winner = (int8_t)winner;
        s->negdirty = 1;
    } else {
        s->tricks++;
    }
    s->trev = s->thid = 0;
    s->tshown = 0;
    s->textra = 0;
    if (last) {
        end_deal(s);
        return;
    }
    if (extra) {
        decl_next_main(s);
        return;
    }
    s->tleader = (uint8_t)winner; /* TC-R6.6 */
    s->phase = TC_PH_LEAD;
}

void tc_decode_deal(const tc_state *s, uint64_t code, tc_cards *hands, tc_cards *removed)
{
    memset(hands, 0, sizeof(tc_cards) * TC_MAXP);
    *removed = 0;
    for (int i = 0; i < TC_NPHYS; i++) {
        int o = (int)(code >> (2 * i) & 3);
        if (o >= s->np)
            *removed += ONE(tc_phys_kind[i]);
        else
            hands[o] += ONE(tc_phys_kind[i]);
    }
}

uint64_t tc_encode_deal(const tc_state *s, const tc_cards *hands)
{
    uint64_t code = 0;
    for (int k = 0; k < TC_NKIND; k++) {
        int i = phys_first[k];
        for (int p = 0; p < s->np; p++)
            for (int c = NIB(hands[p], k); c > 0; c--)
                code |= (uint64_t)p << (2 * i++);
        for (; i < phys_first[k] + full_copies[k]; i++)
            code |= (uint64_t)3 << (2 * i);
    }
    return code;
}

int tc_check_deal(const tc_state *s, uint64_t code, pl_buf *err)
{
    tc_cards h[TC_MAXP], removed;
    tc_decode_deal(s, code, h, &removed);
    tc_cards sum = 0;
    for (int p = 0; p < s->np; p++) {
        if (tc_size(h[p]) != s->hs) {
            pl_buf_printf(err, "seat %d gets %d cards, each hand holds %d (TC-R3)", p, tc_size(h[p]), s->hs);
            return -1;
        }
        sum += h[p];
    }
    if (sum != s->deck) {
        pl_buf_puts(err, "the hands do not make up the deck in play (TC-R3)");
        return -1;
    }
    if (tc_encode_deal(s, h) != code) {
        pl_buf_puts(err, "not a deal in canonical form");
        return -1;
    }
    return 0;
}

int tc_check_count(const tc_state *s, uint64_t code, pl_buf *err)
{
    int prov = (int)(code & 3);
    if (prov >= s->np || (code >> (4 + 4 * s->np))) {
        pl_buf_printf(err, "a counting names the provisional dealer (0-%d) and %d cards", s->np - 1, s->np);
        return -1;
    }
    tc_cards used = 0;
    for (int i = 0; i < s->np; i++) {
        int k = (int)(code >> (4 + 4 * i) & 15);
        if (k >= TC_NKIND) {
            pl_buf_puts(err, "bad card in the counting");
            return -1;
        }
        used += ONE(k);
    }
    if (!tc_subset(used, s->deck)) {
        pl_buf_puts(err, "the counting cards are not all in the deck in play (TC-R3)");
        return -1;
    }
    return 0;
}

static void apply_count(tc_state *s, uint64_t code)
{
    int prov = (int)(code & 3), np = s->np;
    s->count_prov = (int8_t)prov;
    for (int i = 0; i < TC_MAXP; i++)
        s->count_card[i] = i < np ? (uint8_t)(code >> (4 + 4 * i) & 15) : 0;
    /* TC-R4.1: names G, A, E, C, N, H, S, G, … to players from the
     * provisional dealer's right; the first whose card matches deals. */
    for (int t = 0; t < 7 * np; t++) {
        int i = t % np, rank = 6 - t % 7;
        if (s->count_card[i] >> 1 == rank) {
            s->dealer = (uint8_t)((prov + 1 + i) % np);
            s->count_steps = (uint8_t)(t + 1);
            break;
        }
    }
    s->phase = TC_PH_DEAL;
}

static void apply_deal(tc_state *s, uint64_t code)
{
    tc_cards removed;
    tc_decode_deal(s, code, s->hand, &removed);
    if (s->night_k) {
        s->xdone = 0;
        s->phase = TC_PH_EXCH;
    } else {
        start_decl(s);
    }
}

static void tc_apply(void *st, int seat, pl_action a)
{
    tc_state *s = st;
    switch (s->phase) {
    case TC_PH_COUNT: apply_count(s, a); return;
    case TC_PH_DEALER:
        s->dealer = (uint8_t)a;
        s->phase = TC_PH_DEAL;
        return;
    case TC_PH_DEAL: apply_deal(s, a); return;
    case TC_PH_EXCH: {
        tc_cards x = TC_CARDS(a);
        s->hand[seat] -= x;
        s->passed[seat] = x;
        s->xdone |= (uint8_t)(1u << seat);
        if (s->xdone == (1u << s->np) - 1) { /* TC-R4.4: all at once */
            for (int p = 0; p < s->np; p++)
                s->hand[(p + 1) % s->np] += s->passed[p];
            start_decl(s);
        }
        return;
    }
    case TC_PH_DECL: apply_decl(s, seat, a); return;
    case TC_PH_LEAD: {
        tc_cards x = TC_CARDS(a);
        /* TC-R7.3 lifts the ban for the lead only; it binds the followers
         * (TC-R7.4) whatever the lead holds. */
        s->tban = (uint8_t)tc_ban_applies(s);
        s->hand[seat] -= x;
        s->tlead = x;
        s->tn = (uint8_t)tc_size(x);
        s->tstep = 1;
        s->trev = s->thid = 0;
        s->tshown = 0;
        s->phase = TC_PH_LAY;
        return;
    }
    case TC_PH_LAY: {
        tc_cards x = TC_CARDS(a);
        s->hand[seat] -= x;
        s->tlay[seat] = x;
        if (++s->tstep >= s->np) { /* TC-R6.3: the lead is shown */
            s->tshown = 1;
            s->shown[s->tleader] += s->tlead;
            s->tstep = 1;
            s->phase = TC_PH_REVEAL;
        }
        return;
    }
    case TC_PH_REVEAL:
        if (TC_TAG(a) == TC_A_REVEAL) {
            s->trev |= (uint8_t)(1u << seat);
            s->shown[seat] += s->tlay[seat];
        } else {
            s->thid |= (uint8_t)(1u << seat);
        }
        if (++s->tstep >= s->np)
            resolve(s);
        return;
    default: return;
    }
}

/* ---------------------------------------------------------------- chance */

static int tc_chance(const void *st, pl_action *out, double *prob, int cap)
{
    const tc_state *s = st;
    if (s->phase == TC_PH_DEALER) {
        int n = 0;
        for (int p = 0; p < s->np && n < cap; p++, n++) {
            out[n] = (pl_action)p;
            prob[n] = 1.0 / s->np;
        }
        return n;
    }
    if (s->phase == TC_PH_COUNT || s->phase == TC_PH_DEAL)
        return -1; /* too many to list: sample_chance */
    return 0;
}

/* The physical cards of the deck in play, as kinds. Returns how many. */
static int deck_list(const tc_state *s, uint8_t *kinds)
{
    int n = 0;
    for (int k = 0; k < TC_NKIND; k++)
        for (int c = NIB(s->deck, k); c > 0; c--)
            kinds[n++] = (uint8_t)k;
    return n;
}

static pl_action tc_sample_chance(const void *st, pl_rng *rng)
{
    const tc_state *s = st;
    uint8_t kinds[TC_NPHYS];
    int nd = deck_list(s, kinds);
    if (s->phase == TC_PH_DEALER)
        return pl_rng_below(rng, s->np);
    if (s->phase == TC_PH_COUNT) {
        uint64_t code = pl_rng_below(rng, s->np);
        for (int i = 0; i < s->np; i++) { /* draw without replacement */
            int j = i + (int)pl_rng_below(rng, (uint32_t)(nd - i));
            uint8_t t = kinds[i];
            kinds[i] = kinds[j];
            kinds[j] = t;
            code |= (uint64_t)kinds[i] << (4 + 4 * i);
        }
        return code;
    }
    /* The deal: a uniform shuffle, dealt one at a time (TC-R4.3). */
    tc_cards h[TC_MAXP] = {0};
    for (int i = nd - 1; i > 0; i--) {
        int j = (int)pl_rng_below(rng, (uint32_t)(i + 1));
        uint8_t t = kinds[i];
        kinds[i] = kinds[j];
        kinds[j] = t;
    }
    for (int i = 0; i < nd; i++)
        h[i % s->np] += ONE(kinds[i]);
    return tc_encode_deal(s, h);
}

/* ---------------------------------------------------------------- options */

static const pl_option_def tc_options[] = {
    {"players", PL_OPT_ENUM, "4", "2|3|4", 0, 0, "number of players (TC-R3)"},
    {"three_p_deck", PL_OPT_ENUM, "seed_27", "seed_27|alt_27|deck_30", 0, 0,
     "3 players: seed_27 without rG bG rA bA bS, alt_27 without rG bG rA rS bS, deck_30 without rS bS (TC-R3.2)"},
    {"two_p_open_hands", PL_OPT_ENUM, "initial", "initial|current|off", 0, 0,
     "2 players: the view shows the opponent's dealt hand less his shown cards, his current hand, or nothing (TC-R3.3)"},
    {"first_dealer", PL_OPT_ENUM, "count", "count|random", 0, 0, "first dealer by counting or at random (TC-R4.1)"},
    {"next_dealer", PL_OPT_ENUM, "rotate_ccw", "rotate_ccw|last_trick_winner|recount", 0, 0,
     "dealer of later deals (TC-R4.2)"},
    {"night_exchange", PL_OPT_ENUM, "off", "off|1|2|3|4|5", 0, 0,
     "after the deal every player passes k cards face down to the next (TC-R4.4)"},
    {"soldier_special", PL_OPT_ENUM, "seize", "seize|autowin|none", 0, 0,
     "what declaring Four or Five Soldiers does (TC-R5)"},
    {"soldier_declare_mandatory", PL_OPT_ENUM, "off", "off|on", 0, 0, "a holder must declare (TC-R5.1)"},
    {"four_next_lead", PL_OPT_ENUM, "dealer", "dealer|trick_winner", 0, 0,
     "SEIZE, 2 or 4 players: who leads after an extra Four trick (TC-R5.3)"},
    {"seize_unlocks_first_trick", PL_OPT_ENUM, "on", "on|off", 0, 0,
     "a SEIZE declaration lifts the first-trick ban (TC-R5.4)"},
    {"autowin_ends_deal", PL_OPT_ENUM, "on", "on|off", 0, 0, "AUTOWIN: the deal ends after payment (TC-R5.6)"},
    {"big_soldier_leads", PL_OPT_ENUM, "on", "on|off", 0, 0, "Four and Five may be led in ordinary tricks (TC-R5.7)"},
    {"first_trick_ban", PL_OPT_ENUM, "auto", "auto|none|g_a|g_a_e|g_a_e_bs", 0, 0,
     "cards banned from the first trick's winning; auto = g_a with 2 or 4 players, g_a_e with 3 (TC-R7)"},
    {"no_black_general_last", PL_OPT_ENUM, "off", "off|on", 0, 0, "the last lead may not hold bG (TC-R9.1)"},
    {"two_p_score", PL_OPT_ENUM, "difference", "difference|half", 0, 0,
     "2 players: k1-k2 or k-8 (TC-R8.2)"},
    {"thirty_score", PL_OPT_ENUM, "minus3", "minus3|thirds", 0, 0,
     "3 players, deck_30: k-3 or 3k-10 (TC-R8.2)"},
    {"ket_bonus", PL_OPT_ENUM, "on", "on|off", 0, 0, "bonus for winning the last trick with its lead (TC-R8.3)"},
    {"discard_revealed_public", PL_OPT_ENUM, "on", "on|off", 0, 0,
     "revealed discards stay listed face up after their trick (TC-R6.5)"},
    {"overtake", PL_OPT_ENUM, "on", "on|off", 0, 0,
     "last lead bS pair/Four/Five beaten by its red set: the leader pays 3 (TC-R8.4)"},
    {"overtake_payee", PL_OPT_ENUM, "winner", "winner|all_others", 0, 0, "who the overtake payment goes to (TC-R8.4)"},
    {"overtake_cnh", PL_OPT_ENUM, "off", "off|on", 0, 0, "overtake also for black C, N, H pairs (TC-R8.4)"},
    {"session_end", PL_OPT_STRING, "deals:1", NULL, 0, 0,
     "deals:N (N deals) or target:N (until a total reaches N; at most 1000 deals) (TC-R8.5)"},
    {"deal", PL_OPT_STRING, "", NULL, 0, 0,
     "the first deal, hands by seat: rG,bA,.../.../... (tests)"},
    {"dealer", PL_OPT_INT, "-1", NULL, -1, 3, "the first dealer's seat; -1: by first_dealer (tests)"},
    {NULL, 0, NULL, NULL, 0, 0, NULL},
};

/* True when the user set `key` to something other than its default (records
 * write every option, so a default value never counts as a choice). */
static int chosen(const pl_opts *o, const char *key)
{
    for (int i = 0; i < o->n; i++)
        if (!strcmp(o->defs[i].key, key))
            return strcmp(o->values[i], o->defs[i].def) != 0;
    return 0;
}

static int not_with(pl_buf *err, const char *key, const char *why)
{
    pl_buf_printf(err, "option %s does not apply: %s", key, why);
    return -1;
}

static int tc_init(void *st, const pl_opts *o, uint64_t seed, pl_buf *err)
{
    tc_state *s = st;
    (void)seed;
    memset(s, 0, sizeof *s);
    s->np = (uint8_t)(2 + pl_opts_choice(o, "players"));
    s->deckopt = (uint8_t)pl_opts_choice(o, "three_p_deck");
    s->open2 = (uint8_t)pl_opts_choice(o, "two_p_open_hands");
    s->first_dealer = (uint8_t)pl_opts_choice(o, "first_dealer");
    s->next_dealer = (uint8_t)pl_opts_choice(o, "next_dealer");
    s->night_k = (uint8_t)pl_opts_choice(o, "night_exchange");
    s->soldier = (uint8_t)pl_opts_choice(o, "soldier_special");
    s->mandatory = (uint8_t)pl_opts_choice(o, "soldier_declare_mandatory");
    s->four_next = (uint8_t)pl_opts_choice(o, "four_next_lead");
    s->seize_unlocks = pl_opts_choice(o, "seize_unlocks_first_trick") == 0;
    s->autowin_ends = pl_opts_choice(o, "autowin_ends_deal") == 0;
    s->big_leads = pl_opts_choice(o, "big_soldier_leads") == 0;
    int ban = pl_opts_choice(o, "first_trick_ban");
    s->ban = (uint8_t)(ban == 0 ? (s->np == 3 ? TC_BAN_GAE : TC_BAN_GA) : ban - 1);
    s->no_bg_last = (uint8_t)pl_opts_choice(o, "no_black_general_last");
    s->two_p_score = (uint8_t)pl_opts_choice(o, "two_p_score");
    s->thirty_score = (uint8_t)pl_opts_choice(o, "thirty_score");
    s->ket = pl_opts_choice(o, "ket_bonus") == 0;
    s->overtake = pl_opts_choice(o, "overtake") == 0;
    s->payee = (uint8_t)pl_opts_choice(o, "overtake_payee");
    s->overtake_cnh = (uint8_t)pl_opts_choice(o, "overtake_cnh");
    s->pubdisc_off = pl_opts_choice(o, "discard_revealed_public") == 1;

    /* Cross-checks: a non-default value of an option that cannot apply. */
    if (s->np != 3 && chosen(o, "three_p_deck"))
        return not_with(err, "three_p_deck", "it chooses the deck of a 3-player game (players=3)");
    if (s->np != 2 && chosen(o, "two_p_open_hands"))
        return not_with(err, "two_p_open_hands", "it is for 2 players (players=2)");
    if (s->np != 2 && chosen(o, "two_p_score"))
        return not_with(err, "two_p_score", "it is for 2 players (players=2)");
    if (!(s->np == 3 && s->deckopt == TC_D_30) && chosen(o, "thirty_score"))
        return not_with(err, "thirty_score", "it is for 3 players with three_p_deck=deck_30");
    if (s->soldier == TC_SS_NONE && chosen(o, "soldier_declare_mandatory"))
        return not_with(err, "soldier_declare_mandatory", "nothing is declared with soldier_special=none");
    if ((s->soldier != TC_SS_SEIZE || s->np == 3) && chosen(o, "four_next_lead"))
        return not_with(err, "four_next_lead",
                        "extra Four tricks exist only with soldier_special=seize and 2 or 4 players (TC-R5.3a)");
    if (s->soldier != TC_SS_SEIZE && chosen(o, "seize_unlocks_first_trick"))
        return not_with(err, "seize_unlocks_first_trick", "it needs soldier_special=seize");
    if (s->soldier != TC_SS_AUTOWIN && chosen(o, "autowin_ends_deal"))
        return not_with(err, "autowin_ends_deal", "it needs soldier_special=autowin");
    if (!s->overtake && (chosen(o, "overtake_payee") || chosen(o, "overtake_cnh")))
        return not_with(err, chosen(o, "overtake_payee") ? "overtake_payee" : "overtake_cnh",
                        "it needs overtake=on");
    if (s->soldier == TC_SS_NONE)
        s->seize_unlocks = 0;

    /* The deck (TC-R3). */
    for (int k = 0; k < TC_NKIND; k++)
        s->deck += (tc_cards)full_copies[k] * ONE(k);
    if (s->np == 3) {
        static const uint8_t removed[3][5] = {{TC_RG, TC_BG, TC_RA, TC_BA, TC_BS},
                                              {TC_RG, TC_BG, TC_RA, TC_RS, TC_BS},
                                              {TC_RS, TC_BS, 0xff, 0xff, 0xff}};
        for (int i = 0; i < 5; i++)
            if (removed[s->deckopt][i] != 0xff)
                s->deck -= ONE(removed[s->deckopt][i]);
    }
    s->hs = (uint8_t)(tc_size(s->deck) / s->np);
    static const uint8_t ban_kinds[4] = {0, 2, 3, 3}; /* G,A / +E */
    for (int r = 0; r < ban_kinds[s->ban]; r++)
        s->banned |= (tc_cards)0xff << (4 * (2 * (6 - r)));
    if (s->ban == TC_BAN_GAEBS)
        s->banned |= (tc_cards)0xf << (4 * TC_BS);

    /* Session length (TC-R8.5). */
    const char *se = pl_opts_get(o, "session_end");
    long v = 0;
    char extra;
    if (sscanf(se, "deals:%ld%c", &v, &extra) == 1 || sscanf(se, "%ld%c", &v, &extra) == 1) {
        s->sess_kind = TC_SESS_DEALS;
        if (v < 1 || v > 1000) {
            pl_buf_printf(err, "session_end=%s: the number of deals is 1 to 1000", se);
            return -1;
        }
    } else if (sscanf(se, "target:%ld%c", &v, &extra) == 1) {
        s->sess_kind = TC_SESS_TARGET;
        if (v < 1 || v > 10000) {
            pl_buf_printf(err, "session_end=%s: the target score is 1 to 10000", se);
            return -1;
        }
    } else {
        pl_buf_printf(err, "session_end=%s: expected deals:N (1-1000) or target:N (1-10000)", se);
        return -1;
    }
    s->sess_n = (uint16_t)v;

    s->opt_dealer = (int8_t)pl_opts_int(o, "dealer");
    if (s->opt_dealer >= s->np) {
        pl_buf_printf(err, "dealer=%d: seats are 0 to %d", s->opt_dealer, s->np - 1);
        return -1;
    }
    if (s->opt_dealer >= 0 && chosen(o, "first_dealer"))
        return not_with(err, "first_dealer", "dealer= names the first dealer");
    const char *dl = pl_opts_get(o, "deal");
    if (dl && *dl) {
        tc_cards h[TC_MAXP] = {0};
        char buf[512];
        snprintf(buf, sizeof buf, "%s", dl);
        int p = 0;
        char *save = NULL;
        for (char *w = strtok_r(buf, "/", &save); w; w = strtok_r(NULL, "/", &save), p++) {
            if (p >= s->np) {
                pl_buf_printf(err, "deal=: %d hands expected, one per seat, separated by /", s->np);
                return -1;
            }
            int cnt;
            pl_buf e = {0};
            if (tc_parse_cards(w, &h[p], &cnt, &e) < 0) {
                pl_buf_printf(err, "deal=: hand %d: %s", p, pl_buf_str(&e));
                pl_buf_free(&e);
                return -1;
            }
            pl_buf_free(&e);
        }
        if (p != s->np) {
            pl_buf_printf(err, "deal=: %d hands expected, one per seat, separated by /", s->np);
            return -1;
        }
        pl_buf e = {0};
        for (int q = 0; q < s->np; q++) /* multisets of more than 15 would wrap */
            if (tc_size(h[q]) != s->hs) {
                pl_buf_printf(err, "deal=: seat %d gets %d cards, each hand holds %d (TC-R3)", q, tc_size(h[q]), s->hs);
                return -1;
            }
        for (int k = 0; k < TC_NKIND; k++) { /* the encoding holds only the deck's copies */
            int n = 0;
            for (int q = 0; q < s->np; q++)
                n += NIB(h[q], k);
            if (n > NIB(s->deck, k)) {
                pl_buf_printf(err, "deal=: the hands hold %d %c%c, the deck in play has %d (TC-R3)", n,
                              k & 1 ? 'r' : 'b', tc_rank_ch[k / 2], NIB(s->deck, k));
                return -1;
            }
        }
        uint64_t code = tc_encode_deal(s, h);
        if (tc_check_deal(s, code, &e) < 0) {
            pl_buf_printf(err, "deal=: %s", pl_buf_str(&e));
            pl_buf_free(&e);
            return -1;
        }
        pl_buf_free(&e);
        s->has_fixed = 1;
        s->fixed_deal = code;
    }
    s->count_prov = -1;
    start_deal(s);
    if (s->opt_dealer >= 0)
        s->dealer = (uint8_t)s->opt_dealer;
    else
        s->phase = s->first_dealer == TC_FD_COUNT ? TC_PH_COUNT : TC_PH_DEALER;
    if (s->phase == TC_PH_DEAL && s->has_fixed)
        apply_deal(s, s->fixed_deal);
    return 0;
}

/* The fixed deal waits for the dealer's choice when the dealer is drawn. */
static void after_dealer(tc_state *s)
{
    if (s->phase == TC_PH_DEAL && s->has_fixed && s->deals_done == 0)
        apply_deal(s, s->fixed_deal);
}

static void tc_apply_top(void *st, int seat, pl_action a)
{
    tc_state *s = st;
    int ph = s->phase;
    tc_apply(st, seat, a);
    if (ph == TC_PH_COUNT || ph == TC_PH_DEALER)
        after_dealer(s);
}

static pl_phase tc_phase(const void *st)
{
    const tc_state *s = st;
    switch (s->phase) {
    case TC_PH_COUNT:
    case TC_PH_DEALER:
    case TC_PH_DEAL: return PL_PHASE_CHANCE;
    case TC_PH_OVER: return PL_PHASE_OVER;
    default: return PL_PHASE_MOVE;
    }
}

static int tc_num_seats(const void *st) { return ((const tc_state *)st)->np; }
static int tc_team_of(const void *st, int seat) { (void)st; return seat; }

static void tc_outcome(const void *st, pl_outcome *o)
{
    const tc_state *s = st;
    memset(o, 0, sizeof *o);
    o->nseats = s->np;
    int best = -100000, nbest = 0, w = 0;
    for (int p = 0; p < s->np; p++) {
        o->score[p] = s->total[p];
        if (s->total[p] > best) {
            best = s->total[p];
            nbest = 1;
            w = p;
        } else if (s->total[p] == best) {
            nbest++;
        }
    }
    if (s->phase != TC_PH_OVER) {
        o->kind = PL_WIN_NONE;
        return;
    }
    for (int p = 0; p < s->np; p++)
        o->utility[p] = s->total[p] == best ? 1.0 / nbest : 0;
    if (nbest == 1) {
        o->kind = PL_WIN_SEAT;
        o->winner = w;
    } else {
        o->kind = PL_WIN_DRAW;
    }
}

/* ---------------------------------------------------------------- determinize */

/* Cards that seat `t` holds face down in the current trick or exchange. */
static tc_cards facedown_of(const tc_state *s, int t)
{
    tc_cards x = 0;
    if (s->phase == TC_PH_LAY || s->phase == TC_PH_REVEAL) {
        if (t == s->tleader) {
            if (!s->tshown)
                x += s->tlead;
        } else if (!(s->trev >> t & 1)) {
            x += s->tlay[t];
        }
    }
    if (s->phase == TC_PH_EXCH && (s->xdone >> t & 1))
        x += s->passed[t];
    return x;
}

/* Draws `n` cards uniformly from the multiset `*pool` (removing them). */
static tc_cards draw_from(tc_cards *pool, int n, pl_rng *rng)
{
    tc_cards got = 0;
    int size = tc_size(*pool);
    for (int i = 0; i < n; i++, size--) {
        int r = (int)pl_rng_below(rng, (uint32_t)size);
        for (int k = 0; k < TC_NKIND; k++) {
            int c = NIB(*pool, k);
            if (r < c) {
                *pool -= ONE(k);
                got += ONE(k);
                break;
            }
            r -= c;
        }
    }
    return got;
}

/* Soldier counts a mandatory "nodeclare" ruled out (TC-R5.1). */
static int neg_ok(const tc_state *s, int t, tc_cards dealt)
{
    int r = NIB(dealt, TC_RS), b = NIB(dealt, TC_BS), m = s->neg[t];
    if ((m & 1) && (r >= 5 || b >= 5))
        return 0;
    if ((m & 2) && (r >= 4 || b >= 4))
        return 0;
    if ((m & 4) && r >= 5)
        return 0;
    if ((m & 8) && r >= 4)
        return 0;
    return 1;
}

static tc_cards kind_max(tc_cards a, tc_cards b) { return a - tc_min(a, b) + b; }

/* Candidate face-down leads of `n` cards drawable from `avail` (TC-R2,
 * TC-R5.3's forced Four, the trick's ban, TC-R9). Returns how many. */
static int lead_candidates(const tc_state *s, tc_cards avail, tc_cards *out)
{
    pl_action leads[64];
    int nl, nc = 0;
    if (s->textra) {
        if (tc_subset(extra_four(s), avail))
            out[nc++] = extra_four(s);
        return nc;
    }
    /* TC-R9: a last lead (the leader's hand is now empty) of two cards or
     * more cannot hold bG: a single from the same hand was legal instead. A
     * last single bG is legal (no other lead, the restriction lifted). */
    int r9 = s->no_bg_last && s->hand[s->tleader] == 0 && s->tn >= 2;
    /* TC-R7.3: a first-trick lead holds a banned card only when the leader
     * had no other lead; the lift is not seen, so a lead without one is
     * drawn whenever `avail` holds such a set of the lead's size. */
    for (int ban = s->tban; ban >= 0 && nc == 0; ban--) {
        nl = gen_leads(s, avail, ban, 0, leads, 64);
        for (int i = 0; i < nl && i < 64; i++)
            if (tc_size(TC_CARDS(leads[i])) == s->tn && !(r9 && NIB(TC_CARDS(leads[i]), TC_BG)))
                out[nc++] = TC_CARDS(leads[i]);
    }
    return nc;
}

static void tc_determinize(const void *st, int seat, pl_rng *rng, void *out)
{
    const tc_state *s = st;
    tc_state *d = out;
    memcpy(d, s, sizeof *s);
    if (seat < 0 || seat >= s->np || s->phase == TC_PH_COUNT || s->phase == TC_PH_DEALER ||
        s->phase == TC_PH_DEAL || s->phase == TC_PH_OVER)
        return;
    int np = s->np, trick = s->phase == TC_PH_LAY || s->phase == TC_PH_REVEAL;
    if (np == 2 && s->open2 == TC_OPEN_CURRENT) {
        /* The view shows the opponent's hand (and, by deduction, his night
         * pass): unseen are only his face-down cards in the trick and his
         * unrevealed discards, which may be any of those cards. */
        int t = 1 - seat;
        tc_cards pool = s->sec[t];
        if (trick && t == s->tleader && !s->tshown) {
            tc_cards cand[64];
            pool += s->tlead;
            int nc = lead_candidates(s, pool, cand); /* >= 1: the true lead is one */
            d->tlead = nc ? cand[pl_rng_below(rng, (uint32_t)nc)] : s->tlead;
            pool -= d->tlead;
        } else if (trick && t != s->tleader && s->tlay[t] && !(s->trev >> t & 1)) {
            pool += s->tlay[t];
            d->tlay[t] = draw_from(&pool, s->tn, rng);
        }
        d->sec[t] = pool;
        return;
    }
    int after_exch = s->phase != TC_PH_EXCH;
    int down_leader = trick && !s->tshown && s->tleader != seat ? s->tleader : -1;
    /* A declarer about to lead his extra Four holds it in his hand. */
    tc_cards in_hand[TC_MAXP] = {0};
    if (s->phase == TC_PH_LEAD && s->textra && s->tleader != seat)
        in_hand[s->tleader] = extra_four(s);
    /* Hidden pools of the other seats, and what `seat` knows is in them. */
    tc_cards pool_all = 0, lower[TC_MAXP] = {0};
    int psize[TC_MAXP] = {0};
    for (int t = 0; t < np; t++) {
        if (t == seat)
            continue;
        tc_cards pool = s->hand[t] + s->sec[t] + facedown_of(s, t);
        psize[t] = tc_size(pool);
        pool_all += pool;
        if (after_exch) {
            tc_cards known = 0;
            if (t == (seat + 1) % np)
                known = s->passed[seat]; /* what `seat` gave him (TC-R4.4) */
            if (s->declared[t]) {
                int z = s->declared[t] & 7, red = s->declared[t] >> 3 & 1;
                known = kind_max(known, (tc_cards)z * ONE(red ? TC_RS : TC_BS));
            }
            lower[t] = tc_sub0(known, s->shown[t]);
        }
    }
    /* Strict first; then without the "nodeclare" constraints; last without
     * the known cards (a sample that always exists). */
    for (int attempt = 0; attempt < 240; attempt++) {
        int relax = attempt < 160 ? 0 : attempt < 239 ? 1 : 2;
        memcpy(d, s, sizeof *s);
        tc_cards need[TC_MAXP] = {0}, lead = 0;
        for (int t = 0; t < np; t++)
            if (t != seat)
                need[t] = kind_max(relax < 2 ? lower[t] : 0, in_hand[t]);
        if (down_leader >= 0) {
            tc_cards avail = pool_all, cand[64];
            for (int t = 0; t < np; t++)
                if (t != seat && t != down_leader)
                    avail = tc_sub0(avail, need[t]);
            int nc = lead_candidates(s, avail, cand);
            if (!nc)
                continue; /* cannot happen with relax 2: the true lead is a candidate */
            lead = cand[pl_rng_below(rng, (uint32_t)nc)];
            need[down_leader] = kind_max(need[down_leader], lead);
            if (tc_size(need[down_leader]) > psize[down_leader])
                continue;
        }
        tc_cards rest = pool_all, pools[TC_MAXP] = {0};
        int ok = 1;
        for (int t = 0; t < np && ok; t++)
            if (t != seat) {
                if (!tc_subset(need[t], rest))
                    ok = 0;
                else {
                    pools[t] = need[t];
                    rest -= need[t];
                }
            }
        if (!ok)
            continue;
        for (int t = 0; t < np; t++)
            if (t != seat)
                pools[t] += draw_from(&rest, psize[t] - tc_size(pools[t]), rng);
        for (int t = 0; t < np && ok; t++) {
            if (t == seat)
                continue;
            tc_cards pool = pools[t];
            if (t == down_leader) {
                pool -= lead;
                d->tlead = lead;
            } else if (trick && t != s->tleader && s->tlay[t] && !(s->trev >> t & 1)) {
                d->tlay[t] = draw_from(&pool, s->tn, rng);
            }
            if (s->phase == TC_PH_EXCH && (s->xdone >> t & 1))
                d->passed[t] = draw_from(&pool, s->night_k, rng);
            pool -= in_hand[t];
            d->sec[t] = draw_from(&pool, tc_size(s->sec[t]), rng);
            d->hand[t] = pool + in_hand[t];
            if (after_exch) {
                d->dealt[t] = d->hand[t] + d->sec[t] + d->shown[t] + facedown_of(d, t);
                if (relax == 0 && !neg_ok(s, t, d->dealt[t]))
                    ok = 0;
            }
        }
        if (!ok)
            continue;
        /* Night exchange between two other seats (TC-R4.4): what t passed
         * to t+1 is unseen when `seat` is neither; any night_k of t+1's
         * hand at play start may have come from t. */
        for (int t = 0; t < np && after_exch && s->night_k; t++)
            if (t != seat && (t + 1) % np != seat) {
                tc_cards got = d->dealt[(t + 1) % np];
                d->passed[t] = draw_from(&got, s->night_k, rng);
            }
        return;
    }
    memcpy(d, s, sizeof *s); /* unreachable: the last attempt always succeeds */
}

/* A quick estimate of `seat`'s chance to win the session, from what it
 * sees: each seat's expected total is its session total, this deal's
 * payments, its won cards less the average won so far, and for `seat` alone
 * a bonus for the strength of its hand; the chances are a softmax of those
 * totals whose temperature grows with the square root of the deals left
 * (deal scores spread by about two points). At a deal boundary of a session
 * (the rollouts' horizon) only the totals count. */
static double tc_evaluate(const void *st, int seat)
{
    const tc_state *s = st;
    if (s->phase == TC_PH_OVER) {
        pl_outcome o;
        tc_outcome(st, &o);
        return o.utility[seat];
    }
    int np = s->np;
    double left, e[TC_MAXP], wonall = 0;
    int between = s->phase <= TC_PH_DEAL; /* waiting for a deal: the hands are empty */
    if (s->sess_kind == TC_SESS_DEALS)
        left = s->sess_n - s->deals_done - (between ? 0 : 1);
    else {
        int top = 0;
        for (int p = 0; p < np; p++)
            top = s->total[p] > top ? s->total[p] : top;
        left = (s->sess_n - top) / 3.0;
        left = left < 0 ? 0 : left;
    }
    if (!between)
        left += (double)tc_size(s->hand[seat]) / s->hs;
    if (left < 0.05)
        left = 0.05;
    for (int p = 0; p < np; p++)
        wonall += tc_size(s->won[p]);
    for (int p = 0; p < np; p++)
        e[p] = s->total[p] + s->dscore[p] + (between ? 0 : tc_size(s->won[p]) - wonall / np);
    if (!between) {
        double strength = 0;
        for (int k = 0; k < TC_NKIND; k++)
            strength += NIB(s->hand[seat], k) * (k / 13.0);
        e[seat] += 0.5 * (strength - 0.5 * tc_size(s->hand[seat]));
    }
    double tau = 1.4 * sqrt(left), sum = 0;
    for (int p = 0; p < np; p++)
        sum += exp((e[p] - e[seat]) / tau);
    double x = 1.0 / sum;
    return x < 0.01 ? 0.01 : x > 0.99 ? 0.99 : x;
}

/* Levels (docs/ai.md): MCTS ending its rollouts at the next deal; easy
 * with random rollouts, the others with the game's policy. */
static const pl_level tc_levels[] = {
    {"easy", "mcts:iterations=100,policy=0,horizon=1", "MCTS, 100 iterations, random rollouts, under 1 ms"},
    {"medium", "mcts:iterations=300,horizon=1", "MCTS, 300 iterations, policy rollouts (the default player)"},
    {"hard", "mcts:iterations=1000,horizon=1", "MCTS, 1000 iterations, policy rollouts, about 5 ms"},
    {NULL, NULL, NULL},
};

/* Option sets the generic tests and fuzz targets play (the first four are
 * the fuzz targets'): the defaults, three players on 30 cards, two with a
 * night exchange, a session of two deals with the soldier rules. */
static const char *const tc_variants[] = {
    "", "players=3 three_p_deck=deck_30", "players=2 night_exchange=2",
    "night_exchange=1 session_end=deals:2 soldier_special=autowin", NULL,
};

static const char *const tc_secret_options[] = {"deal", NULL}; /* every hand of the first deal */

const pl_game tc_game = {
    .id = "tamcuc",
    .secret_options = tc_secret_options,
    .name = "Tam Cúc (Vietnamese trick-taking with 32 xiangqi cards)",
    .summary =
        "32 cards, red and black: General G, Advisors A, Elephants E, Chariots C, Cannons N,\n"
        "Horses H (two each) and five Soldiers S per colour; strength G>A>E>C>N>H>S, red over\n"
        "black. 2-4 players, 8 cards each with 4 (3 players: 27 or 30 cards; 2: 16 each).\n"
        "The leader lays a set face down: a single, a pair, a triple G-A-E or C-N-H of one\n"
        "colour, four or five Soldiers of one colour. Each other player lays as many cards face\n"
        "down without seeing it; the lead is shown, and each follower in turn reveals or hides.\n"
        "The strongest set of the same size wins (ties to the earliest) and keeps only its own\n"
        "cards; the winner leads next. Score: cards won minus the fair share; bonuses for\n"
        "winning the last trick with a pair C/N/H, a low triple or black Soldiers (kết), and\n"
        "for overtaking black Soldiers with red. Declaring Four or Five Soldiers before play\n"
        "seizes the lead, wins an extra trick or is paid (soldier_special).",
    .options = tc_options,
    .state_size = sizeof(tc_state),
    .flags = PL_GAME_HIDDEN,
    .init = tc_init,
    .phase = tc_phase,
    .num_seats = tc_num_seats,
    .team_of = tc_team_of,
    .actors = tc_actors,
    .legal = tc_legal,
    .chance = tc_chance,
    .sample_chance = tc_sample_chance,
    .apply = tc_apply_top,
    .outcome = tc_outcome,
    .format_action = tc_format_action,
    .parse_action = tc_parse_action,
    .format_action_for = tc_format_action_for,
    .explain_illegal = tc_explain_illegal,
    .draw = tc_draw,
    .view = tc_view,
    .view_json = tc_view_json,
    .view_text = tc_view_text,
    .to_text = tc_to_text,
    .from_text = tc_from_text,
    .determinize = tc_determinize,
    .evaluate = tc_evaluate,
    .policy = tc_policy,
    .levels = tc_levels,
    .variants = tc_variants,
    .check_state = tc_check_state,
    .describe = tc_describe,
    .events = tc_events,
    .action_fields = tc_action_fields,
    .events_text = tc_events_text,
    .action_fields_text = tc_action_fields_text,
    .refusal = tc_refusal,
};
