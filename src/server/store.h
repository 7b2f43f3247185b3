/* store.h — what the server keeps on disk: rooms and their actions
 * (docs/server.md). One small interface with two backends: SQLite
 * (store_sqlite.c, the default: a file) and PostgreSQL (store_pg.c, chosen
 * by a path that starts with "postgresql://" or "postgres://"; issue 17,
 * docs/cluster.md). Both pass the same test suite.
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

#include <stdbool.h>

#include "parlour/buf.h"
#include "parlour/glicko2.h"

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
    int seat;         /* the seat that played it; -1 for chance; -2 the server's
                       * own entry, a takeback (its text: the history's length
                       * after it; docs/server.md) */
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
/* Deletes every room and action, account, session and drill record: the store is then
 * as store_open made it (tests and fuzz targets reuse one store; a server
 * never calls it; account ids are still never reused).
 * Returns 0, or -1 with a message and nothing deleted. */
int store_clear(store *s, pl_buf *err);

/* Calls fn once for room `code` (finished or not). Returns 0 when fn was
 * called and returned 0, 1 when there is no such room (fn not called), fn's
 * non-zero return, or -1 with a message. */
int store_room_get(store *s, const char *code, store_room_fn fn, void *ctx, pl_buf *err);

/* ---- Several server processes on one database (issue 17, docs/cluster.md) ----
 *
 * Each room is owned by at most one process at a time. A process names
 * itself with an owner id (unique per run, e.g. "host:pid:random"), keeps
 * its heartbeat alive with store_owner_beat, and takes the lease of a room
 * with store_lease_take before it accepts any action for that room. A lease
 * is valid while its owner's heartbeat has not expired; an expired owner's
 * rooms may be taken by any other process. Times are the database's clock
 * where it has one (PostgreSQL: clock_timestamp()), else the machine's
 * (SQLite: all processes share one machine). A store without an owner (the
 * default, one process) checks no lease at all. */

/* Every store_append, store_finish and store_room_config of a store with an
 * owner checks, in its own transaction, that each room it touches is leased
 * to that owner and that the owner's heartbeat is alive; if not, nothing is
 * written and it returns STORE_LOST, with the room in `err` and its code in
 * store_lost_room. So two processes can never both write one room. */
#define STORE_LOST (-2)

/* Makes `owner` (copied; NULL: none) the owner of every later write through
 * this handle. Returns 0, or -1 with a message (too long: over 200 bytes;
 * empty); the owner is unchanged on failure. With an owner, store_room_put
 * also gives the new room's lease to it, in the same transaction. */
int store_set_owner(store *s, const char *owner, pl_buf *err);
/* The code of the room of the last STORE_LOST of this handle (or ""). The
 * text belongs to the store until its next call. */
const char *store_lost_room(const store *s);

/* Creates or renews the heartbeat of this handle's owner: alive until now +
 * ttl_ms (ttl_ms <= 0: expired at once, e.g. a process that stops and hands
 * its rooms over). Returns 1 when it was alive before the call, 0 when it had
 * expired or did not exist (then the process must assume it lost every lease
 * it had and take each again), or -1 with a message (no owner set). */
int store_owner_beat(store *s, int64_t ttl_ms, pl_buf *err);
/* As store_owner_beat, and stores `conns` (this process's open connections,
 * 0 or more) with the heartbeat, in the same statement, for store_online.
 * store_owner_beat keeps the count stored (0 for a new owner). Returns as
 * store_owner_beat; a negative count is refused (-1, nothing written). */
int store_owner_beat_conns(store *s, int64_t ttl_ms, int64_t conns, pl_buf *err);
/* The sum of the connection counts of every owner whose heartbeat is alive,
 * this handle's owner excepted (its caller knows its own count better than
 * the last beat wrote it); an expired owner counts nothing. Returns the sum
 * (0 or more), or -1 with a message (no owner set, I/O error). */
int64_t store_online(store *s, pl_buf *err);

/* Takes or keeps the lease of room `code` for this handle's owner (whose
 * heartbeat must be alive: call store_owner_beat first), in one
 * transaction: granted when nobody holds it, this owner holds it, or its
 * holder's heartbeat has expired. Returns 1 when granted, 0 when another
 * live owner holds it (its id in `holder` when not NULL), or -1 with a
 * message (no such room, no owner set, I/O error). */
int store_lease_take(store *s, const char *code, pl_buf *holder, pl_buf *err);
/* Gives up the lease of room `code` if this handle's owner holds it (a room
 * finished and evicted, a process that stops). Returns 0, or -1 with a
 * message. Not holding it is not an error. */
int store_lease_drop(store *s, const char *code, pl_buf *err);

/* Other processes' news. store_watch_fd gives a descriptor that becomes
 * readable when another process created or finished a room (PostgreSQL:
 * LISTEN on channel "parlour_rooms"; every store_room_put and store_finish
 * sends a NOTIFY with payload "created CODE" or "finished CODE" in its
 * transaction), or -1 when the backend has none (SQLite: read store_rooms
 * again instead). Use a handle of its own for watching, not the writer's
 * (a handle is used by one thread at a time). */
int store_watch_fd(store *s);
/* Called once per notification: `what` "created" or "finished". */
typedef void (*store_note_fn)(void *ctx, const char *what, const char *code);
/* Reads what arrived on the watch descriptor without waiting and calls fn
 * for each notification. Returns the number of notifications (0: none), or
 * -1 with a message (the connection was lost: open a new handle). */
int store_watch_drain(store *s, store_note_fn fn, void *ctx, pl_buf *err);

/* ---- Accounts and sessions (issue 33; account.h, docs/accounts.md) ----
 *
 * An account is a name (as typed), its folded form (the key: case-folded and
 * NFKC-normalised by account.c, unique), and its password's Argon2id string.
 * A session is the hash of a token (STORE_SESSION_HASH hex digits: the token
 * itself is never stored), its account and its expiry. Times are the
 * caller's (ms since the epoch). The store checks no lease here: accounts
 * belong to no room. */

#define STORE_ACCOUNT_NAME 40    /* bytes of an account's name, at most */
#define STORE_ACCOUNT_FOLDED 255 /* bytes of its folded name, at most */
#define STORE_ACCOUNT_HASH 127   /* bytes of its password hash (crypto_pwhash_STRBYTES - 1) */
#define STORE_SESSION_HASH 64    /* hex digits of a session token's hash, exactly */

/* An account as stored (a copy: the caller owns it). */
typedef struct store_account {
    int64_t id; /* > 0, never reused */
    char name[STORE_ACCOUNT_NAME + 1];
    char folded[STORE_ACCOUNT_FOLDED + 1];
    char hash[STORE_ACCOUNT_HASH + 1];
    int64_t created_ms;
    bool is_private; /* its page answers others as an unknown name (issue 33 §4) */
} store_account;

/* Adds an account. Returns 0 with its new id in *id, 1 when another account
 * has the folded name `folded` (nothing written), or -1 with a message (a
 * text empty or too long, I/O error). */
int store_account_put(store *s, const char *name, const char *folded, const char *hash, int64_t created_ms,
                      int64_t *id, pl_buf *err);
/* Reads the account whose folded name is `folded` into *out. Returns 0, 1
 * when there is none (*out untouched), or -1 with a message. */
int store_account_by_name(store *s, const char *folded, store_account *out, pl_buf *err);
/* Reads account `id` into *out. Returns 0, 1 when there is none, or -1. */
int store_account_by_id(store *s, int64_t id, store_account *out, pl_buf *err);
/* Replaces account `id`'s password hash and, in the same transaction, ends
 * every session of the account except the one whose hash is `keep` (NULL:
 * all of them). Returns 0, 1 when there is no such account (nothing
 * changed), or -1 with a message (nothing changed). */
int store_account_set_hash(store *s, int64_t id, const char *hash, const char *keep, pl_buf *err);
/* Makes account `id`'s page private (`on`) or public (docs/accounts.md,
 * "A private page"). Returns 0, 1 when there is no such account (nothing
 * written), or -1 with a message (a bad id, I/O error; nothing written). */
int store_account_set_private(store *s, int64_t id, bool on, pl_buf *err);
/* Replaces account `id`'s password hash by `hash` if it is still `old` (a
 * rehash of the same password with other limits: its sessions stay).
 * Returns 0, 1 when the account is gone or its hash is no longer `old`
 * (changed meanwhile: nothing written), or -1 with a message. */
int store_account_rehash(store *s, int64_t id, const char *old, const char *hash, pl_buf *err);
/* Deletes account `id` in one transaction: its sessions end, its folded name
 * is free again, and every stored room whose configuration has a seat with
 * "account": id (a JSON integer) gets that seat's "name" replaced by `anon`
 * and its "account" removed (the room and its actions stay). Returns 0, 1
 * when there is no such account (nothing changed), or -1 with a message
 * (nothing changed). Work: it reads every room whose configuration names
 * any account. */
int store_account_delete(store *s, int64_t id, const char *anon, pl_buf *err);

/* Adds session `hash` (STORE_SESSION_HASH lowercase hex digits) of account
 * `account`, alive until expires_ms. Returns 0, 1 when there is no such
 * account, or -1 with a message (a session with that hash exists, bad hash,
 * I/O error); nothing is written on failure. */
int store_session_put(store *s, const char *hash, int64_t account, int64_t expires_ms, pl_buf *err);
/* The account of session `hash` when it is alive at now_ms (its expiry
 * after now_ms): returns 0 with the account in *account, its expiry moved
 * to renew_ms when that moves it on by a hundredth of the life asked for
 * (renew_ms - now_ms) or more: a session in use is written at most that
 * often (30 days: every 7.2 hours), not at every use. Returns 1 when there
 * is no such session or it has expired (an expired one is deleted), or -1
 * with a message. */
int store_session_get(store *s, const char *hash, int64_t now_ms, int64_t renew_ms, int64_t *account,
                      pl_buf *err);
/* Ends session `hash`. Returns 0, 1 when there was none, or -1. */
int store_session_drop(store *s, const char *hash, pl_buf *err);
/* Ends every session of account `account` except `keep` (a session hash;
 * NULL: all). Returns the number ended, or -1 with a message. */
int store_session_drop_others(store *s, int64_t account, const char *keep, pl_buf *err);
/* Deletes every session whose expiry is at or before now_ms (sessions nobody
 * uses again). Returns the number deleted, or -1 with a message. */
int store_session_purge(store *s, int64_t now_ms, pl_buf *err);

/* ---- Ratings (issue 33 §2; rating.h, docs/ratings.md) ----
 *
 * Per account and pool (rating.h's keys: "ur/finkel", "cbw/2v2" ...): the
 * Glicko-2 rating, deviation and volatility as the last rated game left
 * them, the number of rated games and when the last one ended (ms since the
 * epoch). The store keeps them raw: the idle deviation (pl_rating_idle) is
 * the reader's to apply. An account with no row in a pool is a new player
 * there: STORE_RATING_NEW. Rows go with their account (store_account_delete). */

#define STORE_POOL_MAX 23 /* bytes of a pool key, at most (PL_RATING_KEY_MAX - 1) */
#define STORE_RATING_NEW ((pl_glicko2){1500.0, 350.0, 0.06})

/* One account's rating in one pool (a copy: the caller owns it). */
typedef struct store_rating {
    char pool[STORE_POOL_MAX + 1];
    pl_glicko2 g;       /* STORE_RATING_NEW when games is 0 */
    int64_t games;      /* rated games played in the pool */
    int64_t updated_ms; /* when the last one ended; 0: none */
} store_rating;

/* One seat of a rated room's finish (store_finish_rated). The caller fills
 * account, fixed, team, rank and left (as pl_rating_seat's); the store
 * fills before and after. */
typedef struct store_rated_seat {
    int64_t account; /* > 0 a person's account; 0 a computer, rated `fixed` */
    pl_glicko2 fixed; /* a computer level's fixed rating (data/ratings/levels.txt) */
    int team, rank;
    bool left;
    pl_glicko2 before; /* out: the rating the game was rated from (after the idle time) */
    pl_glicko2 after;  /* out: the new rating (a computer's: `fixed`, never stored) */
} store_rated_seat;

/* Finishes RATED room `code` as store_finish does and, in the SAME
 * transaction, updates the rating in pool `pool` of every account seat of
 * seats[0..n) (2 to PL_MAX_SEATS seats): each account's stored rating is
 * read (none: STORE_RATING_NEW), grown by pl_rating_idle for the days since
 * its last game (until now_ms), the seats rated by pl_rating_update, and
 * each account's new rating (games + 1, updated_ms = now_ms) and a history
 * row (room, now_ms, before and after) written. So once it returns 0 the
 * finish and every update are durable together, and after a failure
 * (-1 with a message, or STORE_LOST) neither is written; `before` and
 * `after` are then undefined. An account may hold one seat only (a message
 * otherwise); an account that does not exist fails the whole call. */
int store_finish_rated(store *s, const char *code, const char *result, const char *pool, store_rated_seat *seats,
                       int n, int64_t now_ms, pl_buf *err);

/* Account `account`'s ratings, one per pool it has played rated games in,
 * ordered by pool, at most `max` into out[]. Returns how many there are
 * (may exceed max: only max written), or -1 with a message. */
int store_ratings_of(store *s, int64_t account, store_rating *out, int max, pl_buf *err);

/* The ratings in pool `pool` of accounts[0..n): out[i] for accounts[i]
 * (STORE_RATING_NEW, games 0, for an account with none, or no such
 * account). The stored lookup of Play now's pairing (hub_seek.c). Returns
 * 0, or -1 with a message (out then undefined). */
int store_ratings_pool(store *s, const char *pool, const int64_t *accounts, int n, store_rating *out, pl_buf *err);

/* One point of an account's rating history in one pool (store_rating_history):
 * the rated game's room and finish time, and the rating and deviation it
 * left. Valid during the callback only. */
typedef struct store_rating_point {
    const char *room;
    int64_t at_ms;
    double rating, rd;
} store_rating_point;

/* Called once per history point by store_rating_history; it must not call
 * the store. A non-zero return stops the walk and is returned. */
typedef int (*store_history_fn)(void *ctx, const store_rating_point *p);
/* Calls fn for every rated game account `account` played in pool `pool`,
 * oldest first (by finish time, then room code): the rating after it. An
 * account with none (or no such account) gives no calls. Returns 0, fn's
 * non-zero return, or -1 with a message (a bad pool, I/O error). */
int store_rating_history(store *s, int64_t account, const char *pool, store_history_fn fn, void *ctx, pl_buf *err);

#define STORE_GAME_SEATS 8 /* seats of a room a player's game lists, at most (PL_MAX_SEATS) */

/* One finished room an account had a seat in (store_player_games). Valid
 * during the callback only. */
typedef struct store_player_game {
    const char *room, *game, *options;
    const char *result;  /* the room's result JSON as stored ("" if none) */
    int64_t finished_ms; /* the time of the room's last action (0: it has none) */
    bool rated;          /* the game changed this account's rating */
    int seats[STORE_GAME_SEATS]; /* the seat(s) the account had, ascending */
    int nseats;
    const char *opponents[STORE_GAME_SEATS]; /* the other people's names, seat order */
    int nopponents;
    const char *levels[STORE_GAME_SEATS]; /* the computer seats' levels, seat order */
    int nlevels;
} store_player_game;

/* Called once per game by store_player_games; it must not call the store.
 * A non-zero return stops the walk and is returned. */
typedef int (*store_game_fn)(void *ctx, const store_player_game *g);
/* Calls fn for at most `limit` (>= 0) finished rooms whose configuration
 * has a seat of account `account` ("account": ID), newest first (by the
 * last action's time, then room code descending); with before_ms > 0 only
 * those that finished before it (finished_ms < before_ms: the next page
 * after a game that finished at before_ms; <= 0: from the newest). Opponents are the other
 * person seats' names (a partner seat is not listed). It reads every
 * finished room's configuration (no index can hold a JSON seat list): fine
 * for a first version, a seats table is the next step. Returns 0, fn's
 * non-zero return, or -1 with a message (a bad limit, I/O error). */
int store_player_games(store *s, int64_t account, int64_t before_ms, int limit, store_game_fn fn, void *ctx,
                       pl_buf *err);

/* ---- Karuta drills (issue 34 §4; drill.h, docs/drills.md) ----
 *
 * One drill record per account: a JSON text the store keeps as it is given
 * (drill.c checks its shape before it comes here), at most STORE_DRILL_MAX
 * bytes, and when it was last written. It goes with its account. */

#define STORE_DRILL_MAX 65536 /* bytes of a drill record, at most */

/* Account `account`'s drill record, appended to *out (NUL-terminated; the
 * caller frees it), and when it was written in *updated_ms (may be NULL).
 * Returns 0, 1 when the account has none (nothing appended), or -1 with a
 * message. */
int store_drill_get(store *s, int64_t account, pl_buf *out, int64_t *updated_ms, pl_buf *err);
/* Replaces account `account`'s drill record by `record` (1 to
 * STORE_DRILL_MAX bytes, no NUL), written at now_ms. Returns 0, 1 when there
 * is no such account (nothing written), or -1 with a message (nothing
 * written). */
int store_drill_put(store *s, int64_t account, const char *record, int64_t now_ms, pl_buf *err);

/* ---- Play now across processes (issue 33 §3; docs/pairing.md, "Several
 * processes") ----
 *
 * Every call here needs an owner (store_set_owner): the seeks and pairings
 * of one process are those of its owner, counted only while its heartbeat
 * is alive. One process, the holder of the role "pairing"
 * (store_role_take), reads every seek, pairs them and writes the pairings
 * (store_pairing_put); each process reads its own (store_pairings_of),
 * tells its players and deletes them (store_pairing_drop). */

/* One seek as stored (strings valid during a callback, or the caller's). */
typedef struct store_seek {
    const char *id;      /* unique among every process's seeks (1-64 bytes) */
    const char *owner;   /* read only: the process that wrote it */
    const char *pool, *game;
    const char *options; /* JSON object text ("{}" none) */
    const char *name;
    int64_t account;     /* 0: a guest */
    int players, after_s, widest;
    double rating, rd;
    int64_t made_ms;
} store_seek;

/* Writes seek `k` (its id new, or replaced) as this handle's owner's. 0 or -1. */
int store_seek_put(store *s, const store_seek *k, pl_buf *err);
/* Deletes seek `id` if it is there. 0 or -1. */
int store_seek_drop(store *s, const char *id, pl_buf *err);
/* Called once per seek by store_seeks_read; it must not call the store. */
typedef int (*store_seek_fn)(void *ctx, const store_seek *k);
/* Calls fn for every seek whose owner's heartbeat is alive, by id. Returns
 * 0, fn's non-zero return, or -1 with a message. */
int store_seeks_read(store *s, store_seek_fn fn, void *ctx, pl_buf *err);
/* Takes or keeps role `name` (1-32 bytes) for this handle's owner, whose
 * heartbeat must be alive: granted when nobody holds it, this owner does,
 * or its holder's heartbeat expired. 1 granted, 0 another live owner holds
 * it, or -1 with a message. */
int store_role_take(store *s, const char *name, pl_buf *err);

/* One member of a pairing (store_pairing_put, store_pairings_of). */
typedef struct store_pairing {
    const char *seek;  /* the member's seek id */
    const char *room, *token, *pool, *game;
    int seat, computer, rated;
} store_pairing;

/* In one transaction: while this handle's owner holds role `role` and its
 * heartbeat is alive, and every seek p[0..n).seek is still there, deletes
 * those seeks and writes one pairing per member, each for its seek's owner.
 * Returns 0 written, 1 not written (a seek is gone: cancelled meanwhile),
 * STORE_LOST (the role is not this owner's: nothing written), or -1. */
int store_pairing_put(store *s, const char *role, const store_pairing *p, int n, pl_buf *err);
/* Called once per pairing by store_pairings_of; it must not call the store. */
typedef int (*store_pairing_fn)(void *ctx, const store_pairing *p);
/* Calls fn for every pairing written for this handle's owner's seeks. 0,
 * fn's non-zero return, or -1. */
int store_pairings_of(store *s, store_pairing_fn fn, void *ctx, pl_buf *err);
/* Deletes the pairing of seek `seek` (told). 0 or -1. */
int store_pairing_drop(store *s, const char *seek, pl_buf *err);
/* Sweeps one dead process: the owner whose heartbeat expired longest ago,
 * provided that was more than `grace_ms` ago (0 or more), loses at most
 * `max_rows` (1 or more) of its seeks and at most `max_rows` of its
 * pairings, and, when none of either is left, its owner row (its leases
 * then read as any expired owner's). One transaction of indexed statements:
 * the work is bounded by max_rows, not by the tables' size; a later call
 * goes on. Needs an owner (not the swept one's: a live owner is never
 * swept). Returns the rows deleted (0: nothing to sweep), or -1 with a
 * message and nothing deleted. */
int64_t store_seeks_sweep(store *s, int64_t grace_ms, int max_rows, pl_buf *err);

#endif
