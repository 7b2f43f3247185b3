/* proto.h — the engine protocol of docs/protocol.md (`parlour engine`).
 *
 * One request line in, one response out: "=[ID] result" or "?[ID] message",
 * further lines, then an empty line. Errors never change the game.
 * A session keeps the computer player of its last `genmove` (and any table
 * it loaded) while the game and the spec stay the same, and frees it with
 * the session. Not thread-safe (one session per thread).
 */
#ifndef PARLOUR_PROTO_H
#define PARLOUR_PROTO_H

#if !defined(PARLOUR_IN_FRONT)
#error "proto.h belongs to the front ends (src/engine): core, games and AI may not include it"
#endif

#include <stdio.h>

#include "parlour/buf.h"

typedef struct pl_proto pl_proto;

/* A new session with no game. NULL when memory runs out. */
pl_proto *pl_proto_new(void);
/* Frees the session and its game; NULL is a no-op. */
void pl_proto_free(pl_proto *p);
/* Handles one request line (without its LF; may hold any bytes). Appends
 * the whole response, final empty line included, to `out` (nothing for an
 * ignored line). Returns 1 after `quit`, else 0. */
int pl_proto_line(pl_proto *p, const char *line, size_t len, pl_buf *out);
/* Runs the protocol from `in` to `out` until `quit` or end of input.
 * Returns 0. */
int pl_proto_run(FILE *in, FILE *out);

#endif
