/* cbw_util.h — helpers shared by the City Behind Walls tests (header-only,
 * included by each tests/test_*_cbw_*.c). */
#ifndef TEST_CBW_UTIL_H
#define TEST_CBW_UTIL_H

#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "games/cbw/cbw.h"
#include "parlour/alloc.h"

/* A new cbw match with `opts` (first=red seed=1 unless given). */
static inline pl_match *cbw_new(const char *opts)
{
    char o[1024];
    snprintf(o, sizeof o, "%s%s%s", strstr(opts, "first=") ? "" : "first=red ",
             strstr(opts, "seed=") ? "" : "seed=1 ", opts);
    return th_new("cbw", o);
}

static inline cbw_state *cbw_st(pl_match *m) { return (cbw_state *)m->state; }

/* Explanation of why `text` is illegal for the actor now ("" if legal). */
static inline const char *cbw_why(pl_match *m, const char *text)
{
    static char out[2048];
    pl_buf err = {0};
    pl_action a;
    int seat = pl_sole_actor(m->game, m->state);
    assert_int_equal(m->game->parse_action(m->state, seat, text, &a, &err), 0);
    pl_buf_clear(&err);
    cbw_why_illegal(cbw_st(m), seat, a, &err);
    snprintf(out, sizeof out, "%s", pl_buf_str(&err));
    pl_buf_free(&err);
    return out;
}

/* True when `text` is among the legal actions of the actor now. */
static inline int cbw_is_legal(pl_match *m, const char *text)
{
    pl_buf err = {0};
    pl_action a;
    int rc = pl_parse_legal(m->game, m->state, pl_sole_actor(m->game, m->state), text, &a, &err);
    pl_buf_free(&err);
    return rc == 0;
}

/* Asserts that `text` is illegal and that the explanation names `rule`. */
#define CBW_ILLEGAL(m, text, rule)                                                               \
    do {                                                                                       \
        assert_false(cbw_is_legal((m), (text)));                                               \
        const char *why_ = cbw_why((m), (text));                                               \
        if (!strstr(why_, (rule)))                                                             \
            fail_msg("%s: expected %s in '%s'", (text), (rule), why_);                         \
    } while (0)

#define CBW_LEGAL(m, text)                                                                     \
    do {                                                                                       \
        if (!cbw_is_legal((m), (text)))                                                        \
            fail_msg("%s should be legal: %s", (text), cbw_why((m), (text)));                  \
    } while (0)

static inline int cbw_nprisoners(pl_match *m, int team) { return __builtin_popcountll(cbw_st(m)->prisoners[team]); }

/* The card on (x, y), -1 if free, -2 if outside. */
static inline int cbw_at(pl_match *m, int x, int y)
{
    int v = cbw_st(m)->cell[cbw_cell(x, y)];
    return v == 0 ? -1 : v == CBW_OUT ? -2 : v - 1;
}

static inline int cbw_card(const char *t)
{
    int k = cbw_card_parse(&t);
    assert_true(k >= 0);
    return k;
}

#endif
