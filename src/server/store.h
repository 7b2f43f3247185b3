/* store.h — what the server keeps on disk: rooms and their actions
 * (docs/server.md). One small interface so that a second backend
 * (PostgreSQL) can sit behind it later; store_sqlite.c is the first.
 *
 * A room is created once (its game, options, secret seed and seat
 * configuration) and then only grows: actions are appended in order, each
 * with its place in the room's history (seq 0, 1, 2, ...). After a crash the
 * server rebuilds every room by replaying its actions through the rules, so
 * an action a client was told was accepted must be on disk first:
 * store_append returns only after its transaction is durable.
 *
 * Errors: every function that can fail returns -1 (or NULL) with a message
 * in `err`, and leaves the store as it was (a failed append writes nothing).
 * Threading: a store handle is used by one thread at a time (the server's
 * storage thread); several processes may open the same file (SQLite's WAL
 * and busy timeout serialise them).
 */
#ifndef PARLOUR_STORE_H
#define PARLOUR_STORE_H

#if !defined(PARLOUR_IN_FRONT)
#error "store.h belongs to the server (a front end): core, games and AI may not include it"
#endif

#include <stdint.h>

#include "parlour/buf.h"

typedef struct store store;

/* A room as stored. Strings are NUL-terminated; in callbacks they belong to
 * the store and are valid only during the call. */
typedef struct {
    const char *code;    /* the room's unguessable code (its key) */
    const char *game;    /* pl_game id */
    const char *options; /* the options as given (KEY=VALUE ... or JSON: the server's choice) */
    const char *config;  /* seats, clocks and the rest of the room's settings (JSON) */
    uint64_t seed;       /* the match's seed: secret until the game is over */
    int64_t created_ms;  /* creation time, milliseconds since the epoch */
} store_room;

/* One action of a room's history. */
typedef struct {
    const char *room; /* the room's code */
    int64_t seq;      /* its place in the history: 0, 1, 2, ... without gaps */
    int seat;         /* the seat that played it; -1 for chance */
    const char *text; /* the action in the game's notation (the referee's) */
    int64_t at_ms;    /* when the server accepted it, ms since the epoch */
} store_action;

/* Opens (creating if needed) the store in file `path`: WAL journal,
 * synchronous=FULL (a commit survives a power cut, not only a killed
 * process), a 5 s busy timeout, foreign keys on, the schema created or
 * checked. Returns the handle (free it with store_close), or NULL with a
 * message in `err`. `path` ":memory:" gives a store that lives in memory
 * until store_close (tests and fuzz targets: no WAL, nothing durable). */
store *store_open(const char *path, pl_buf *err);
/* Closes the store; NULL is a no-op. */
void store_close(store *s);

/* Adds room `r`. Returns 0, or -1 with a message (a room with that code
 * exists, bad fields, I/O error); nothing is written on failure. */
int store_room_put(store *s, const store_room *r, pl_buf *err);
/* Appends actions a[0..n) in one transaction and returns once it is durable:
 * all of them or none. Each must belong to an existing, unfinished room and
 * continue that room's history (seq = the room's action count, then +1 per
 * action of the same room in the batch). Returns 0, or -1 with a message
 * and nothing written. n = 0 is a no-op. */
int store_append(store *s, const store_action *a, int n, pl_buf *err);
/* Marks room `code` finished with `result` (JSON text, may be NULL). Returns
 * 0, or -1 with a message (no such room, already finished, I/O error). */
int store_finish(store *s, const char *code, const char *result, pl_buf *err);

/* Replaces the configuration (store_room.config) of room `code` with
 * `config` (JSON text): the server's seats change as people join. Returns
 * 0, or -1 with a message (no such room, I/O error); nothing changes on
 * failure. */
int store_room_config(store *s, const char *code, const char *config, pl_buf *err);

/* Called once per room by store_rooms; `finished` is 0 or 1, `result` NULL
 * unless finished. A non-zero return stops the walk and is returned. */
typedef int (*store_room_fn)(void *ctx, const store_room *r, int finished, const char *result);
/* Calls fn for every room (only the unfinished ones when unfinished_only),
 * oldest first. Returns 0, fn's non-zero return, or -1 with a message. */
int store_rooms(store *s, int unfinished_only, store_room_fn fn, void *ctx, pl_buf *err);

/* Called once per action by store_actions; a non-zero return stops the walk. */
typedef int (*store_action_fn)(void *ctx, const store_action *a);
/* Calls fn for every action of room `code` in history order. Returns 0,
 * fn's non-zero return, or -1 with a message (no such room, I/O error). */
int store_actions(store *s, const char *code, store_action_fn fn, void *ctx, pl_buf *err);
/* The number of actions of room `code`, or -1 with a message. */
int64_t store_count(store *s, const char *code, pl_buf *err);

#endif
