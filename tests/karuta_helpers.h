/* karuta_helpers.h — shared by the karuta tests: play any well-formed action
 * through the game's own validity check (kar_why_invalid), which accepts
 * touch lists that the canonical `legal` list does not hold. */
#ifndef KARUTA_HELPERS_H
#define KARUTA_HELPERS_H

#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "games/karuta/kar.h"

static inline kar_state *KS(pl_match *m) { return (kar_state *)m->state; }

/* Parses `text` for `seat` (PL_CHANCE for `read N`); returns 0 and applies
 * it when the rules accept it, else -1 with the reason in `err`. */
static inline int kar_try(pl_match *m, int seat, const char *text, pl_buf *err)
{
    pl_action a;
    if (m->game->parse_action(m->state, seat, text, &a, err) < 0)
        return -1;
    if (kar_why_invalid(KS(m), seat, a, err))
        return -1;
    m->game->apply(m->state, seat, a);
    return 0;
}

/* Plays `text`; fails the test when the rules refuse it. */
static inline void kar_do(pl_match *m, int seat, const char *text)
{
    pl_buf err = {0};
    if (kar_try(m, seat, text, &err) < 0)
        fail_msg("seat %d '%s': %s", seat, text, pl_buf_str(&err));
    pl_buf_free(&err);
}

/* One reading: chance reads `card`, then each seat's response in seat order. */
static inline void kar_reading(pl_match *m, int card, const char *const *resp)
{
    char t[32];
    snprintf(t, sizeof t, "read %d", card);
    kar_do(m, PL_CHANCE, t);
    for (int p = 0; p < KS(m)->nseats; p++)
        kar_do(m, p, resp[p]);
}

#endif
