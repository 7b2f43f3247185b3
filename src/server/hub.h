/* hub.h — the server's heart without I/O: rooms, seats, connections and
 * the web protocol's messages (docs/web-protocol.md). Prefix hub_.
 *
 * The hub owns every room and every connection's session. It never reads a
 * socket, a clock, a disk or a thread: the network layer (net.c) gives it
 * what arrived and the time, and takes from it what must go out; the
 * storage thread takes the writes it asks for and reports when they are
 * durable; the worker pool takes the computer players' jobs and returns
 * their choices. So the whole protocol can be driven synchronously by tests
 * and by the fuzz target, with a fake clock.
 *
 * Flow of one accepted action: hub_message parses and checks it through the
 * rules, applies it to the room, queues the store write (hub_store_take)
 * and the messages it causes, HELD. Held messages are released to
 * hub_out_next only when hub_store_done reports the write durable: no client
 * hears of an action before it is on disk (a crash loses no acknowledged
 * action). Messages that cause no write (errors, lobby lists, chat echo
 * when chat is not stored) are released at once.
 *
 * Threading: a hub belongs to one thread (the service thread). Jobs carry
 * their own copies of a state, so workers never touch the hub.
 */
#ifndef PARLOUR_HUB_H
#define PARLOUR_HUB_H

#if !defined(PARLOUR_IN_FRONT)
#error "hub.h belongs to the server (a front end): core, games and AI may not include it"
#endif

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "parlour/buf.h"
#include "parlour/game.h"
#include "store.h"

#define HUB_PROTOCOL 1              /* the web protocol's version (docs/web-protocol.md) */
#define HUB_MAX_MESSAGE 8192        /* bytes: a longer client message is refused unread */
#define HUB_MAX_CHAT 500            /* bytes of one chat text */
#define HUB_MAX_NAME 40             /* bytes of a display name */

typedef struct hub hub;
typedef struct ai_player ai_player;
typedef struct pl_match pl_match;

/* Settings of a hub; zero fields take the defaults in brackets. */
typedef struct hub_config {
    int rate_per_s;      /* messages a connection may send per second, sustained [20] */
    int rate_burst;      /* ... and in a burst [60]; more are answered "rate" and dropped */
    int replay_burst;    /* replay steps (one view each) a connection may have built at once [10000] */
    int replay_rate;     /* ... refilled at this many a second [2000]; beyond: "rate" */
    int grace_s;         /* default seconds before an empty seat is played by a computer [60] */
    int max_rooms;       /* rooms held at once [100000] */
    int max_conns;       /* connections at once [200000] */
    const char *takeover_level; /* level of the computer player that keeps an empty seat ["medium"] */
    uint64_t test_seed;  /* 0: every room's seed and code come from getrandom (always in
                            production); else rooms get seeds test_seed, test_seed+1, ... and
                            codes derived from them, so tests replay a run exactly
                            (`parlour serve --test-seed N`, documented as for tests only) */
    FILE *log;           /* where the hub logs what an operator may want to see (a karuta
                            touch clamped to its window) [stderr]; added by the hub's helper */
    /* Computer players outside the server (engines.h): when set, every job but
     * karuta's touches gets a text (hub_job.text) from this function, given
     * the room's match, the seat, the player's spec, the job's seed and id; it
     * returns the number of requests, or -1 (the job then has no text and
     * runs in-process). Called on the hub's thread; `m` is only read. [NULL] */
    int (*job_text)(const pl_match *m, int seat, const char *spec, uint64_t seed, uint64_t id,
                    pl_buf *out);
    int on_demand;       /* 1: a room asked for by code (join, watch, replay) that the hub does
                            not hold is loaded from the store through the next batch (finished
                            rooms too, read-only); 0: "no room" at once (hub_restore loads the
                            unfinished ones at start) [0; `parlour serve` sets 1] */
    int cluster;         /* 1: several processes share the store (docs/cluster.md): a room is
                            loaded only with its lease (hub_batch_write takes it), a new room's
                            lease is taken when it is stored, a finished or idle room's lease
                            is dropped, the lobby comes from the store (hub_lobby_set); implies
                            on_demand [0] */
} hub_config;

/* Makes an empty hub. Returns it, or NULL with a message in `err`. */
hub *hub_new(const hub_config *cfg, pl_buf *err);
/* Frees the hub, its rooms, sessions, queued messages, jobs not taken;
 * NULL is a no-op. Jobs taken and not yet done must be done or dropped
 * (hub_job_free) by the caller. */
void hub_free(hub *h);

/* Rebuilds every unfinished room of store `s` by replaying its actions
 * through the rules (the record loader's way), at time `now_ms`. Returns the
 * number of rooms, or -1 with a message. Called once, before any connection. */
int hub_restore(hub *h, store *s, int64_t now_ms, pl_buf *err);

/* Loads the solved table in file `path` for the hub's life: every game
 * with tables (pl_game.tables) is tried until one takes it. Replays then
 * carry each legal action's exact winning chance from it (never during a
 * game that is not over). Returns 0, or -1 with a message naming the file
 * (and each game's reason) when no game takes it. A table of the generic
 * solver (`parlour solve`, Skiryuk's Ur) is taken for reviews only
 * (docs/review.md); a game's own one serves both. Call before any
 * connection (`parlour serve --table FILE`). */
int hub_table_load(hub *h, const char *path, pl_buf *err);

/* ---- Connections ---------------------------------------------------------- */

/* A new connection: returns its id (> 0), or 0 when the hub holds
 * max_conns (the caller closes the socket). Queues the "welcome" message. */
uint64_t hub_connect(hub *h, int64_t now_ms);
/* The connection is gone (closed by either side): its seats become empty
 * (their grace period starts), its subscriptions end. Unknown ids: no-op. */
void hub_disconnect(hub *h, uint64_t conn, int64_t now_ms);
/* Connection `conn` belongs to a person signed in (account.h): account
 * `id` (> 0) named `name` (at most HUB_MAX_NAME bytes; longer is cut). From
 * then on its `join` seats it under that name (the message's `name` is
 * ignored) and the seat's stored configuration carries the account (a seat
 * joined by its token that has none gets it: a guest who signed up keeps
 * the seat). Queues {"type":"account","name":NAME} to it (docs/web-protocol.md).
 * Unknown ids, id <= 0: no-op. The network layer calls it once it has
 * looked up the session cookie of the WebSocket, before any of its messages. */
void hub_account(hub *h, uint64_t conn, int64_t id, const char *name, int64_t now_ms);
/* Account `id` was deleted (acct_delete): every seat of a room held here
 * that carries it is renamed `anon` (at most HUB_MAX_NAME bytes) and loses
 * the account, its configuration written again (else the next write would
 * bring the name back into the store, which anonymised it) and its room told
 * (a state); every connection signed in as it becomes a guest's. Rooms held
 * by another process are not told (docs/server.md, "Accounts on the wire").
 * id <= 0: no-op. */
void hub_account_deleted(hub *h, int64_t id, const char *anon, int64_t now_ms);
/* One message `data` of `len` bytes (not NUL-terminated) from `conn`,
 * received at `now_ms`. Any input is safe: too long, not JSON, wrong shape,
 * unknown type, a stale or illegal action — each gets an "error" message
 * naming what was wrong and what is allowed, and changes nothing. */
void hub_message(hub *h, uint64_t conn, const char *data, size_t len, int64_t now_ms);
/* Runs what is due at `now_ms`: clocks, grace periods, karuta's reading
 * (kana sent as they are read), clock-sync pings, closing touch windows.
 * Call it at hub_next_ms at the latest. */
void hub_tick(hub *h, int64_t now_ms);
/* When hub_tick must next run (ms), or INT64_MAX when nothing is timed. */
int64_t hub_next_ms(const hub *h);

/* One message ready to go out. */
typedef struct hub_out {
    uint64_t conn; /* to this connection */
    char *text;    /* one JSON object (owned by the caller after hub_out_next: pl_free) */
    size_t len;
    int close;     /* 1: close the connection after sending (flood, protocol abuse) */
    int answers;   /* 1: an `accepted`, the answer to the connection's last `act`; the
                    * states of that move come out with it, before hub_out_next runs dry */
} hub_out;
/* Takes the next released message into `o`; returns 1, or 0 when none. */
int hub_out_next(hub *h, hub_out *o);

/* ---- Storage -------------------------------------------------------------- */

/* A batch of writes for the storage thread: new rooms, then actions, then
 * finished rooms, in this order. Everything in it belongs to the batch
 * (free with hub_batch_free after hub_store_done). */
typedef struct hub_batch {
    uint64_t id;
    store_room *rooms;       int nrooms;
    store_action *actions;   int nactions;
    char **finished;         /* room codes */
    char **results;          /* result JSON per finished room */
    int nfinished;
} hub_batch;
/* Takes every write queued since the last call as one batch; returns NULL
 * when nothing is queued. At most one batch is out at a time: NULL also
 * while the previous batch is not done. A batch also carries the hub's
 * private requests: rooms to load (hub_config.on_demand) and leases to
 * drop (cluster). */
hub_batch *hub_store_take(hub *h);
/* How many writes (rooms, actions, finished rooms) wait for the next batch
 * now; 0 while a batch is out (hub_store_take would give none). */
int hub_store_pending(const hub *h);
/* Writes batch `b` to `s` (rooms, seat changes through store_room_config,
 * one append for all actions, finishes), then drops the leases it names and
 * loads the rooms it asks for (each load's outcome is kept in `b`, so a
 * load never fails the batch), and last reads the stored ratings of the
 * signed-in seekers it carries (Play now, hub_seek.c; also after a failed
 * write). `b` must come from hub_store_take (it carries the seat changes,
 * loads, drops and ratings to read beside the public fields).
 * Cluster: a new room's lease is taken as it is stored, a finished room's
 * dropped; a write the store refuses with STORE_LOST (the room is leased
 * to another process) is left out, its room noted in `b`, and the rest is
 * written. Returns 0, or -1 with a message. Any thread may call it (the
 * storage thread does); it touches only `b` and `s`. */
int hub_batch_write(store *s, hub_batch *b, pl_buf *err);
/* Reports batch `b` written (ok 1) or failed (ok 0: the hub answers each
 * action's sender with an error "storage" and takes the action back by
 * replaying the room's history without it). Releases the messages held for it.
 * Rooms whose writes were refused as lost are dropped from the hub (the
 * senders of their unwritten actions get "moved", every member "moved":
 * reconnect); rooms loaded are rebuilt (their actions replayed through the
 * rules) and the requests that waited for them answered; seeks whose
 * ratings were read enter the pool.
 * Frees nothing: free `b` with hub_batch_free afterwards. */
void hub_store_done(hub *h, const hub_batch *b, int ok, int64_t now_ms);
void hub_batch_free(hub_batch *b);

/* ---- Several processes (cluster, docs/cluster.md) ---------------------------- */

/* This process may have lost its leases (its heartbeat expired: hub_config.cluster):
 * every unfinished room is dropped as if its writes had been refused
 * (members told "moved"; they reconnect and the room is loaded again with
 * its lease). Finished rooms stay (read-only). */
void hub_rooms_lost(hub *h, int64_t now_ms);

/* The public open rooms of the store, read by any thread for the lobby of a
 * cluster (hub_lobby_read), handed to the hub (hub_lobby_set). */
typedef struct hub_lobby hub_lobby;
/* How long after a process's heartbeat expired its seeks and pairings stay
 * in the store before the holder of the role "pairing" deletes them
 * (store_seeks_sweep; docs/pairing.md, "Several processes"): far past
 * NET_TTL_MS, so that only a process dead or frozen for a minute is swept. */
#define HUB_SWEEP_GRACE_MS 60000
/* The rows of each table one lobby read's sweep deletes at most (so a read
 * stays short however many rows a dead process left: docs/benchmarks.md,
 * "Sweeping a dead process's seeks"). */
#define HUB_SWEEP_ROWS 500
/* Reads the unfinished public rooms of `s` into a new list (free it with
 * hub_lobby_free, or give it to hub_lobby_set), with Play now's part of a
 * cluster: the other live processes' connections (store_online), the role
 * "pairing" taken or kept, the live seeks and this process's pairings; the
 * holder of the role also sweeps the rows of processes dead for more than
 * `sweep_grace_ms` (0: HUB_SWEEP_GRACE_MS; tests shorten it). Returns the
 * list, or NULL with a message. Any thread; touches only `s`. */
hub_lobby *hub_lobby_read(store *s, int64_t sweep_grace_ms, pl_buf *err);
/* Replaces the hub's lobby list with `l` (owned by the hub from then on):
 * `rooms` answers list these rooms (a room held here is shown as it is
 * now) and the public rooms held here that the list does not have yet. */
void hub_lobby_set(hub *h, hub_lobby *l);
void hub_lobby_free(hub_lobby *l);

/* The addresses another device opens to join (`welcome.invite`,
 * docs/web-protocol.md): the `n` URLs `urls` (copied) and `local_only` (1:
 * the server listens on this machine only). Without a call `welcome` has no
 * `invite`. Returns 0, or -1 when memory ran out (nothing changed). Call
 * before any connection (`parlour serve`, after it listens). */
int hub_invite_set(hub *h, const char *const *urls, int n, int local_only);

/* ---- Computer players ----------------------------------------------------- */

/* One decision for the worker pool: everything it needs is copied in. */
typedef struct hub_job {
    uint64_t id;
    const pl_game *game;
    void *state;              /* a copy (game->state_size bytes) */
    int seat;
    const ai_player *player;  /* owned by the hub; lives until hub_free */
    uint64_t seed;
    pl_action action;         /* the worker's answer */
    int failed;               /* 1 when the choice failed (the hub then plays a random legal move) */
    char *text;               /* the job as engine-protocol requests (hub_config.job_text), or
                                 NULL: hub_job_run it in-process; owned, freed by hub_job_free */
    struct hubw_review *review; /* a game's review to compute instead (hub_review.c), or NULL;
                                   owned, freed by hub_job_free */
} hub_job;
/* Takes the next job; returns NULL when none. A review (hub_review.c) is
 * taken only while no other is out of the queue: moves queued behind it go
 * first meanwhile, so reviews never hold more than one worker. */
hub_job *hub_job_take(hub *h);
/* Runs job `j` (ai_player_choose; a hint's job: ai_hint, hub_hint.c; a
 * review: hub_review.c), setting j->action or j->failed (or the review's
 * answer). Any thread may call it; it touches only `j` (and a loaded
 * table, read-only). */
void hub_job_run(hub_job *j);
/* Hands back a finished job: the hub plays its action if the room still
 * waits for it (else it is dropped); a hint's job is answered to the
 * connection that asked (nothing played). Frees `j`. */
void hub_job_done(hub *h, hub_job *j, int64_t now_ms);
/* Frees a job without playing it. */
void hub_job_free(hub_job *j);

/* ---- Figures (for the benchmarks and tests) ------------------------------- */

typedef struct hub_stats {
    uint64_t rooms, conns, messages_in, messages_out, actions, errors, rate_limited;
} hub_stats;
void hub_get_stats(const hub *h, hub_stats *out);

#endif
