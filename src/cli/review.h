/* review.h — what review.c's printer of a review in words lends the hidden-
 * card games' one (review_hidden.c): the text buffers a printer fills, a
 * share as the words write it, and the replay that stops at each decision.
 * Single-threaded like the commands; no globals. */
#ifndef CLI_REVIEW_H
#define CLI_REVIEW_H

#include "parlour/match.h"
#include "parlour/words.h"

/* The scratch buffers of a review's printer (zeroed to start), freed
 * together by review_bufs_free. */
typedef struct review_bufs {
    pl_buf line, a, b, c, d, e, f, name;
} review_bufs;

/* Frees every buffer of `b`; b stays usable (empty). */
void review_bufs_free(review_bufs *b);

/* Puts share p (0..1) in `b` (cleared first) as the words write it:
 * "52.3 %", or "+52.3 %" when `sign`. */
void review_pct(pl_buf *b, double p, int sign);

/* Steps a copy of m's initial state through its history, calling
 * at(ctx, st, t) with the state before each action t (0..nhist-1; st is
 * valid during the call only). -1 when memory runs out (nothing called),
 * else 0. */
int review_replay(const pl_match *m, void (*at)(void *ctx, const void *st, int t), void *ctx);

#endif
