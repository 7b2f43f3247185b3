/* drill.h -- a player's karuta drill record on the server (issue 34 §4;
 * docs/drills.md, "In the browser"): the shape GET/PUT /api/drill accept
 * (drill_check) and the per-account rate limit of those calls. The record
 * itself is the store's (store_drill_get/put).
 *
 * Threads: drill_check is pure; a drill_rate belongs to one thread (the
 * network layer's quick account thread). */
#ifndef PARLOUR_SERVER_DRILL_H
#define PARLOUR_SERVER_DRILL_H

#include <stddef.h>
#include <stdint.h>

#include "parlour/buf.h"

#define DRILL_RATE_SLOTS 1024   /* accounts the rate table follows at once */
#define DRILL_RATE_WINDOW 60000 /* ms: a fixed window from the account's first call */
#define DRILL_RATE_MAX 60       /* calls of one account in a window; more: refused */

/* 0 when `body` (len bytes) is a drill record of the shape docs/drills.md
 * gives: "version" 1, "step" and "cards" keyed by poem numbers "1".."100",
 * each entry with the eight integer fields right; other keys, at the top or
 * in an entry, are ignored (the record's readers ignore keys they do not
 * know) and kept. Else -1 with what is wrong in `why` (one line, for the
 * 400 answer). It never changes anything. */
int drill_check(const char *body, size_t len, pl_buf *why);

/* A fixed table of per-account call counts: an account's slot is its id
 * modulo DRILL_RATE_SLOTS (ids are given in order, so two accounts share a
 * slot, and its window, only past DRILL_RATE_SLOTS accounts; memory never
 * grows). */
typedef struct drill_rate {
    int64_t since_ms[DRILL_RATE_SLOTS];
    int calls[DRILL_RATE_SLOTS];
} drill_rate;

/* Counts a call of `account` at now_ms: 1 when it is allowed, 0 when the
 * account made DRILL_RATE_MAX calls in its window already. Zero a
 * drill_rate to start it. */
int drill_rate_ok(drill_rate *r, int64_t account, int64_t now_ms);
/* drill_rate_ok with `max` calls a window in place of DRILL_RATE_MAX (the
 * network layer's slow account thread counts records.zip exports in its own
 * table this way: player.h PLAYER_EXPORT_RATE). */
int drill_rate_take(drill_rate *r, int64_t account, int64_t now_ms, int max);

#endif
