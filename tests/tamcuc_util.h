/* tamcuc_util.h — helpers shared by the Tam Cúc rule tests (header-only,
 * included by tests/test_rules_tamcuc.c and test_rules_tamcuc_events.c). */
#ifndef TEST_TAMCUC_UTIL_H
#define TEST_TAMCUC_UTIL_H

#include "helpers.h"
#include "games/tamcuc/tc.h"
#include "parlour/alloc.h"

/* A 4-player deal: seat 0 both red triples, seat 1 both black triples. */
#define D4 "deal=rG,rA,rE,rC,rN,rH,bS,bS/bG,bA,bE,bC,bN,bH,rS,rS/rA,rE,rC,rN,rH,rS,rS,rS/bA,bE,bC,bN,bH,bS,bS,bS"

/* The match's state. */
static inline tc_state *S(pl_match *m) { return m->state; }

/* The cards of `t` (card notation, comma separated); fails the test on a
 * text that is not cards. */
static inline tc_cards C(const char *t)
{
    tc_cards x;
    int n;
    pl_buf e = {0};
    if (tc_parse_cards(t, &x, &n, &e) < 0)
        fail_msg("cards %s: %s", t, pl_buf_str(&e));
    pl_buf_free(&e);
    return x;
}

/* Sets the last hands of a deal: each seat's hand and won pile as given,
 * the rest of the deck seat 0's public discards; `leader` leads now, not
 * the first trick. */
static inline void endgame(pl_match *m, const char *const *hands, const char *const *won, int leader)
{
    tc_state *s = S(m);
    tc_cards used = 0;
    for (int p = 0; p < s->np; p++) {
        s->hand[p] = C(hands[p]);
        s->won[p] = C(won[p]);
        s->pub[p] = s->sec[p] = 0;
        used += s->hand[p] + s->won[p];
    }
    s->pub[0] = s->deck - used; /* the rest: seat 0's public discards */
    s->phase = TC_PH_LEAD;
    s->tleader = (uint8_t)leader;
    s->tricks = 4;
    s->textra = 0;
}

#endif
