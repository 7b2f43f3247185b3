/* hub_int.h — the hub's private structures and the functions its files
 * share: hub.c (the core: messages, rooms, seats, entries, playing, jobs),
 * hub_req.c (the requests, hubq_), hub_state.c (state messages, hubv_),
 * hub_replay.c (replays, hubr_), hub_timers.c (timers, hubt_), hub_batch.c
 * (the hub thread's side of storage, hubb_), hub_store.c (the storage
 * thread's side, hubs_) and hub_karuta.c (karuta's real time, hubk_). Not an
 * interface: only the hub's own files include it. Threading: the hub's
 * thread only, except where a declaration says otherwise (hubs_*: the
 * storage thread; hub_job_run: a worker).
 */
#ifndef PARLOUR_HUB_INT_H
#define PARLOUR_HUB_INT_H

#include <jansson.h>

#include "../ai/hint.h"
#include "hub.h"
#include "parlour/buf.h"
#include "parlour/match.h"

#define HUB_CODE 33 /* 32 hex digits and the NUL */
#define HUB_MAX_LEGAL 512 /* legal actions listed in one state */
#define HUB_KEEP_OVER_MS (10 * 60 * 1000) /* a finished room nobody is in is let go after this */
#define HUBG_MOVE_S 60      /* a rated room's move clock when its creator gave none (docs/ratings.md, "Stalling") */
#define HUBG_STALL_MOVES 3  /* a rated room: decisions in a row the move clock plays before it counts as leaving */

/* A seat's kind: a person's (open until taken), a computer's, or a
 * partner seat played by the person of seat `of` (City Behind Walls with
 * players=2: one person plays both seats of a team and sees both hands). */
enum { HUB_SEAT_PERSON = 0, HUB_SEAT_AI = 1, HUB_SEAT_PARTNER = 2 };

/* One seat of a room. */
typedef struct hub_seat {
    int kind;               /* HUB_SEAT_PERSON or HUB_SEAT_AI */
    char *level;            /* AI seats: the level name (owned) */
    const ai_player *ai;    /* AI seats: the shared player (the hub's) */
    char name[HUB_MAX_NAME + 1];
    char token[HUB_CODE];   /* person seats: "" while open */
    uint64_t conn;          /* the person's connection, 0 when away */
    int64_t gone_ms;        /* when the person went away (grace) */
    int covered;            /* a computer keeps the seat (grace ran out) */
    int out_of_time;        /* the total clock ran out: a computer plays on */
    int timeouts;           /* rated rooms: the person's decisions in a row the move clock played (hub_rating.c) */
    int stalled;            /* rated rooms: stalling counted as leaving (hubg_timed_out): a computer keeps the
                             * seat to the end, a return does not undo it, and the rating marks it the leaver */
    int rematch;            /* asked for a rematch */
    int64_t left_ms;        /* total clock: time left */
    int job_nhist;          /* history length of this seat's pending job, -1 none */
    int of;                 /* HUB_SEAT_PARTNER: the seat whose person plays it */
    int64_t account;        /* person seats: the account of the person seated (account.h), 0 a guest */
    uint64_t hint_ver;      /* the room's version + 1 at which this seat last asked a hint, 0 none */
} hub_seat;

/* One entry of the history as every viewer may see it. */
typedef struct hub_entry {
    int seat;
    char *text[PL_MAX_SEATS + 1]; /* by viewer + 1 (0: spectator); owned */
    char *said[PL_MAX_SEATS + 1];
    char *events[PL_MAX_SEATS + 1]; /* JSON array text (pl_events_json) */
    int forced; /* a person's only legal move, played for them by the hub */
} hub_entry;

typedef struct hub_karuta hub_karuta; /* hub_karuta.c's per-room part */

typedef struct hub_room {
    char code[HUB_CODE];
    const pl_game *game;
    char *options_json;     /* the options as given, JSON object (owned) */
    pl_match *m;
    int nseats;
    hub_seat seats[PL_MAX_SEATS];
    hub_entry *ent;         /* ent[i] for m->hist[i] */
    int capent;
    int grace_s, move_s, total_s, public_;
    int64_t turn_ms;        /* when the current decision started (clocks) */
    int stored;             /* actions durable or queued; equals m->nhist */
    int logged;             /* stored entries queued (actions and takebacks): the next entry's seq */
    int durable;            /* stored entries known durable (of `logged`) */
    /* A takeback (docs/web-protocol.md): the asking seat while one is
     * asked (-1 none), the seats that accepted (bit per seat), and the
     * history length at which a seat's request was declined (no asking
     * again until a move is played). */
    int tb_by;
    unsigned tb_yes;
    int tb_declined[PL_MAX_SEATS];
    /* A takeback stored but not yet durable: the history it took back
     * (owned; NULL none), its length, and its entry's seq. A failed write
     * puts the history back (hub_store_done). */
    pl_move *tb_hist;
    int tb_nhist;
    int tb_seq;
    int finished_queued;
    int rated;              /* a rated room (hub_rating.c): its finish updates its members' ratings */
    json_t *rated_msg;      /* its `rated` message once announced (owned), NULL before: sent again to
                             * whoever joins or watches later (a reload, a connection lost at the end) */
    char *review;           /* its `review` answer once computed (owned), NULL before: the review of a
                             * finished room never changes, so it is computed once (hub_review.c) */
    uint64_t *members;      /* connections in the room (seats and spectators) */
    int nmembers, capmembers;
    hub_karuta *kar;        /* karuta real time, NULL otherwise */
    int64_t wake_ms;        /* when the hub's timer heap holds this room due, INT64_MAX none */
    uint64_t ticked;        /* the hub_tick call that last ticked it */
    int64_t created_ms;
    uint64_t creator;       /* the connection that created it (told if storing it fails) */
    uint64_t version;       /* bumped at every change of the match's state */
    int64_t over_ms;        /* when the game ended (0: not over) */
    int idx;                /* its place in the hub's list of rooms */
    int64_t idle_ms;        /* cluster: when the last member left (0: someone is in it) */
    int given_away;         /* cluster: stored without a lease, to go once stored */
    /* The view text by viewer + 1, valid while it has a text and vver[] is
     * the room's version (a failed view frees its buffer); the buffers are
     * kept and written over (no allocation a state once they have grown). */
    pl_buf vbuf[PL_MAX_SEATS + 1];
    uint64_t vver[PL_MAX_SEATS + 1];
    long vat; /* where the spectator's view has its "viewer":-1, or -1 (hub.c, put_view) */
} hub_room;

/* A connection's session. */
typedef struct hub_conn {
    uint64_t id;            /* 0: slot free */
    hub_room *room;         /* NULL: in the lobby */
    int seat;               /* -1 spectator (when room) */
    int hist_sent;          /* history entries this connection has got */
    double tokens;          /* rate limit bucket */
    int64_t tokens_ms;
    int dropped;            /* messages refused in a row for rate */
    char *up;               /* a record being uploaded (replay_part), NULL none (owned) */
    size_t uplen;
    double replay_steps;    /* replay budget: steps this connection may have built now */
    int64_t replay_ms;      /* when the budget was last refilled */
    int64_t account;        /* the person's account (hub_account), 0: a guest */
    char aname[HUB_MAX_NAME + 1]; /* ... and its name */
    struct hubp_seek *seek; /* "Play now": its seek (hub_seek.c's, owned), NULL none */
    int counts;             /* gets the lobby's `counts` pushes (hub_seek.c) */
    int reviewing;          /* a review it asked is being computed (hub_review.c: one at a time) */
} hub_conn;

/* A queued message: released (tag 0) or held for batch `tag`. */
typedef struct hub_msg {
    hub_out o;
    uint64_t tag;
    hub_room *room; /* the room it tells about, or NULL */
    int history;    /* it tells the room's history (state, accepted, reading, kana) */
    struct hub_msg *next;
} hub_msg;

/* A room read for the hub by hub_batch_write (on demand). */
typedef struct hub_loaded {
    char code[HUB_CODE];
    int status;                  /* HUB_LOAD_* */
    store_room room;             /* its strings owned */
    int finished;
    store_action *acts;          /* their strings owned */
    int nacts, capacts;
    char *msg;                   /* busy: the holder; error: the message */
} hub_loaded;

enum { HUB_LOAD_ASKED = 0, HUB_LOAD_OK, HUB_LOAD_MISSING, HUB_LOAD_BUSY, HUB_LOAD_ERROR };

/* A rated room's finish as the storage thread writes it (hub_rating.c). */
typedef struct hubg_fin {
    char code[HUB_CODE];
    char pool[STORE_POOL_MAX + 1];
    store_rated_seat seats[PL_MAX_SEATS];
    int n;
    int64_t now_ms;
    int written; /* set by hubg_write once durable (a lost room's: 0) */
} hubg_fin;

/* A seeker's stored rating asked of the store (hub_seek.c): the hub fills
 * conn, serial, account, pool and now_ms; the storage thread (hubp_look_read)
 * the rating and status. */
typedef struct hubp_look {
    uint64_t conn;            /* the seeker's connection */
    uint64_t serial;          /* its seek's serial (a newer seek of the same connection is another) */
    int64_t account;
    char pool[STORE_POOL_MAX + 1];
    int64_t now_ms;           /* the idle deviation grows until then */
    pl_glicko2 g;             /* out: the rating as the pool takes it (idle deviation applied) */
    int status;               /* out: 0 not read (the batch failed before), 1 read, -1 failed */
} hubp_look;

/* Play now across processes (hub_seek.c, docs/pairing.md): a pairing the
 * holder of the role "pairing" writes (store_pairing_put), its members'
 * strings owned, their pool ids kept for the answer. */
typedef struct hubp_pairw {
    store_pairing m[PL_MAX_SEATS];
    uint64_t ids[PL_MAX_SEATS];
    int n;
    int status; /* out: store_pairing_put's return (0 written), -3 not tried */
} hubp_pairw;

/* A batch and what the hub needs to answer it. */
typedef struct hub_batchp {
    hub_batch b;                 /* first: hub_batch_free casts */
    uint64_t *senders;           /* by action: the connection that sent it, 0 */
    char **cfg_codes, **cfg_texts; /* config updates */
    int ncfg;
    int caprooms, capactions, capfinished, capcfg;
    int cluster;                 /* leases taken, dropped and checked (hub_config.cluster) */
    hub_loaded *loads;           /* rooms to read (on demand) */
    int nloads, caploads;
    char **drops;                /* leases to drop (idle rooms let go) */
    int ndrops, capdrops;
    char **lost;                 /* rooms whose writes came back STORE_LOST */
    int nlost, caplost;
    hubg_fin *rated;             /* the rated ones among the finished rooms */
    int nrated, caprated;
    hubp_look *looks;            /* seekers' stored ratings to read (hub_seek.c) */
    int nlooks, caplooks;
    store_seek *sputs;           /* cluster: seeks to write (strings owned) ... */
    int nsputs, capsputs;
    char **sdrops;               /* ... seeks to delete ... */
    int nsdrops, capsdrops;
    hubp_pairw *pairw;           /* ... pairings to write (the role's holder) ... */
    int npairw, cappairw;
    char **pdrops;               /* ... and pairings told, to delete */
    int npdrops, cappdrops;
} hub_batchp;

/* A request that waits for its room to be loaded: re-read when it is. */
typedef struct hub_pend {
    char code[HUB_CODE];
    uint64_t conn;
    char *msg; /* the message as it came (owned) */
    size_t len;
} hub_pend;

/* The lobby of a cluster: the store's public open rooms (hub_lobby_read). */
typedef struct hub_lobby_room {
    char code[HUB_CODE];
    json_t *entry; /* {room, game, options, seats, state} */
} hub_lobby_room;

struct hub_lobby {
    hub_lobby_room *rooms; /* oldest first */
    int n, cap;
    /* Play now across processes (hub_seek.c): whether the store keeps seeks
     * (1; 0 it does not; -1 the read failed: nothing known), whether this
     * process holds the role "pairing", every live seek (by id) and this
     * process's pairings; strings owned. */
    int seeks_on, holder;
    int64_t online; /* the other live processes' connections (store_online), -1 not known */
    store_seek *seeks;
    int nseeks, capseeks;
    store_pairing *pairs;
    int npairs, cappairs;
};

typedef struct hub_jobp {
    hub_job j;                   /* first */
    char code[HUB_CODE];
    int nhist;
    int kind;
    struct hub_jobp *next;
    /* HUB_JOB_HINT (hub_hint.c): who asked, at which version, the table, the answer */
    uint64_t conn, version;
    const void *table;
    ai_hint_result hint;
} hub_jobp;

/* An entry of the timer heap: room `r` is due at `at` (stale when
 * r->wake_ms moved since: skipped). */
typedef struct hub_wake {
    int64_t at;
    hub_room *r;
} hub_wake;

/* A solved table loaded with hub_table_load. */
typedef struct hub_table {
    const pl_game *g;
    void *t;
} hub_table;

typedef struct hub_ai {
    const pl_game *g;
    char *level;
    ai_player *p;
} hub_ai;

struct hub {
    hub_config cfg;
    /* connections: id = slot + 1 + (generation << 32) */
    hub_conn *conns;
    int nconns, capconns;
    int *freeslots;
    int nfree;
    uint32_t gen;
    uint64_t live_conns;
    /* rooms */
    hub_room **rooms;
    int nrooms, caprooms;
    hub_room **table; /* open addressing by code */
    size_t tcap;
    /* messages */
    hub_msg *ready, *ready_tail, *held, *held_tail;
    /* storage */
    hub_batchp *next;            /* being built */
    uint64_t batch_seq;          /* id of the next batch */
    uint64_t inflight;           /* id of the batch out, 0 none */
    /* jobs */
    hub_jobp *jobs, *jobs_tail;
    uint64_t job_seq;
    hub_ai *ais;
    int nais;
    hub_table *tables;
    int ntables;
    struct ai_perfect **review_tables; /* every table loaded, for reviews (hub_review.c) */
    int nreview_tables;
    int reviews;                 /* review jobs out (hub_review.c) */
    int reviewing;               /* a review job is taken by a worker: hub_job_take gives no
                                    second one until it is done, so the other workers stay
                                    for the computers' moves */
    uint64_t seed_next;          /* test_seed mode */
    hub_wake *heap;              /* timers: a binary min-heap by `at` */
    int nheap, capheap;
    uint64_t tick_seq;
    int64_t now;
    hub_stats st;
    /* rooms on demand (hub_config.on_demand) */
    hub_pend *pend;
    int npend, cappend;
    int redispatch;              /* re-reading a pending request: no second load, no rate */
    hub_lobby *lobby;            /* cluster: the store's open rooms (NULL: none read yet) */
    json_t *invite;              /* welcome's invite {urls, local_only} (hub_invite_set), or NULL */
    /* An act's answer carried in its sender's state (act's accepted_in_state):
     * set by req_act around the broadcast, taken by that state (state_text). */
    uint64_t acc_conn;           /* the sender, 0 none */
    const pl_buf *acc;           /* {"action":…,"seat":…,"seq":… (no closing brace) */
    struct hubp_pool *seeks;     /* "Play now" (hub_seek.c), NULL until first needed */
};

/* ---- hub.c: the core (hub_) ---- */
/* The time of the call being handled (ms). */
int64_t hub_now(const hub *h);
/* The level a computer covering a person's seat plays. */
const char *hub_takeover_level(const hub *h);
/* The log (hub_config.log, else stderr). */
FILE *hub_log(const hub *h);
/* A copy of `s` ("" for NULL), owned by the caller; NULL when memory ran out. */
char *hub_dupn(const char *s);
/* Grows the array `*p` of `*cap` elements of `size` bytes to hold `need`
 * (doubling); 0, or -1 when memory ran out (the array unchanged). */
int hub_grow(void **p, int *cap, int need, size_t size);
/* `j` (stolen) as compact JSON with sorted keys; NULL when memory ran out
 * (or `j` is NULL). Owned by the caller (pl_free). */
char *hub_dump(json_t *j);
/* The batch id a message about the world must wait for now (0: none). */
uint64_t hub_hold_tag(const hub *h);
/* Queues `text` (owned from here, freed on failure) to `conn`: released
 * (tag 0) or held until batch `tag` is durable; `room` the room it tells
 * about (NULL none), `history` whether it tells the room's history (taken
 * back with it). The message, or NULL when memory ran out. */
hub_msg *hub_queue_msg(hub *h, uint64_t conn, char *text, int close, uint64_t tag, hub_room *room, int history);
/* Queues message `text` (owned from here; NULL: nothing) of type `type`
 * (its history and answer marks follow the type) with `tag` and `room` as
 * hub_queue_msg takes them. */
void hub_send_text(hub *h, uint64_t conn, char *text, const char *type, uint64_t tag, hub_room *room);
/* Queues message `j` (stolen; NULL: nothing) as hub_send_text does. */
void hub_send_tagged(hub *h, uint64_t conn, json_t *j, uint64_t tag, hub_room *room);
#ifndef NDEBUG
/* Debug builds: asserts that `text` is exactly jansson's compact, sorted
 * text of `j` (stolen). */
void hub_same_as_jansson(const char *text, json_t *j);
#endif
/* The live connection `id`, or NULL (never was, or gone). */
hub_conn *hub_conn_get(hub *h, uint64_t id);
/* Queues message `j` (stolen) to connection `conn`, held behind any
 * pending write (as every message about a room). */
void hub_send(hub *h, uint64_t conn, json_t *j);
/* Queues an error reply. */
void hub_error(hub *h, uint64_t conn, const char *code, const char *request, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Queues an `illegal` error for an act: `message` the game's whole text
 * (the reason and the legal actions), `reason` the reason alone. */
void hub_error_illegal(hub *h, uint64_t conn, const char *message, const char *reason, const char *refusal);
/* Moves the held messages of batch `tag` (and older) to the ready queue. */
void hub_release(hub *h, uint64_t tag);
/* Drops the held messages about room `r`: all of them (`all`), or those
 * that tell its history (taken back). */
void hub_drop_held(hub *h, const hub_room *r, int all);
/* The room of code `code` the hub holds, or NULL. */
hub_room *hub_room_find(hub *h, const char *code);
/* A new room of game `g` with options `opts` (an object, or NULL; not
 * stolen) and `seed`: its match made, its seats persons, not yet in the
 * hub. NULL with a message in `err` (bad options, no memory). */
hub_room *hub_room_new(hub *h, const pl_game *g, json_t *opts, uint64_t seed, pl_buf *err);
/* Adds `r` to the hub; 0 or -1 (no memory: `r` is not added). */
int hub_room_add(hub *h, hub_room *r);
/* Frees a room the hub does not hold (NULL: nothing). */
void hub_room_free(hub_room *r);
/* Removes `r` from the hub (its timers, its held messages; its members
 * back in the lobby) and frees it. */
void hub_room_remove(hub *h, hub_room *r);
/* The seat whose person (or computer) plays seat `s`: `of` for a partner
 * seat, else `s`. Its clocks and takeover count for both. */
int hub_seat_owner(const hub_room *r, int s);
/* True when seat `s` of `r` is played by a computer now. */
int hub_seat_is_ai(const hub_room *r, int s);
/* Every person seat has been taken once: the game runs. */
int hub_room_started(const hub_room *r);
/* The room's game is over. */
int hub_room_over(const hub_room *r);
/* The ai_player for `level` of game `g` (the hub keeps it), or NULL + message. */
const ai_player *hub_player(hub *h, const pl_game *g, const char *level, pl_buf *err);
/* Works out the entry `e` of the action `seat` played from `before` to
 * `after` for every viewer of `r` (only its game and seat count are read);
 * 0, or -1 when memory ran out (then hub_entry_free `e`). */
int hub_entry_make(const hub_room *r, hub_entry *e, const void *before, int seat, pl_action a, const void *after);
/* Frees an entry's texts (each shared one once) and clears it. */
void hub_entry_free(hub_entry *e);
/* Applies a checked action to the match and records its entry; 0, or -1
 * with a message (the match unchanged). */
int hub_room_apply(hub_room *r, int seat, pl_action a, pl_buf *err);
/* Takes the room back to `n` actions. */
void hub_room_truncate(hub_room *r, int n);
/* Whether the hub plays the next move of `r` for its person: one seat acts,
 * a person's (or a partner) seat, with exactly one legal action (`*a`, its
 * seat `*seat`), in a game without hidden information (else the instant
 * move tells what the hand holds) and without real-time touches
 * (pl_game.check: karuta). 1 or 0. */
int hub_room_forced(const hub_room *r, int *seat, pl_action *a);
/* The stored entry of a takeback (store.h's actions): seat
 * HUB_SEAT_TAKEBACK, text the history's length after it in decimal. */
#define HUB_SEAT_TAKEBACK (-2)
/* Takes room `r` back to `n` actions (n < its history) as a takeback: the
 * match, its entries and the members' history, with the entry queued for
 * the store (undone on a failed write). 0, or -1 when memory ran out
 * (nothing changed). */
int hub_room_take_back(hub *h, hub_room *r, int n, int64_t now_ms);
/* The takeback asked in `r` ends with `result` ("accepted", "granted",
 * "declined", "withdrawn"; `seat` the one who answered, -1 none, `moves`
 * the moves taken back): the request cleared and every member told
 * ({"type":"takeback"}, docs/web-protocol.md). */
void hub_takeback_end(hub *h, hub_room *r, int by, const char *result, int seat, int moves);
/* Applies `a` for `seat` (checked) to the room, queues its write and the
 * states; 0 or -1 with the rules' message in `err`. */
int hub_room_play(hub *h, hub_room *r, int seat, pl_action a, uint64_t sender, int64_t now_ms, pl_buf *err);
/* Queues a job for every actor a computer plays now (once per state). */
void hub_room_schedule(hub *h, hub_room *r);
/* After any change of the room's state: chance, the end, jobs, clocks. */
void hub_room_advance(hub *h, hub_room *r, int64_t now_ms);
/* Queues a decision of `p` for `seat` on a copy of `r`'s state (kind
 * HUB_JOB_*); returns the job's id, or 0 when memory ran out (no job). */
uint64_t hub_job_queue(hub *h, hub_room *r, int seat, const ai_player *p, int kind);

/* Whether a computer keeps seat `t` (a person's): the grace ran out
 * (covered), the total clock ran out (out_of_time) or the person stalled a
 * rated game (stalled). */
int hub_seat_kept(const hub_seat *t);

/* ---- hub_state.c: the state messages (hubv_) ---- */
typedef struct hub_common hub_common; /* a broadcast's parts every member gets alike */
/* Sends every member its state. */
void hub_room_broadcast(hub *h, hub_room *r);
/* Queues connection `c`'s state; `k`: the room's common parts, or NULL to
 * make them here. Nothing is sent when memory runs out. */
void hubv_send_state(hub *h, hub_room *r, hub_conn *c, const hub_common *k);
/* The seats of `r` as a state shows them (a new reference). */
json_t *hubv_seats_json(const hub *h, const hub_room *r);
/* The result of `r` (null while it is not over; a new reference). */
json_t *hubv_result_json(const hub_room *r);
/* "over", "playing" or "waiting". */
const char *hubv_room_status(const hub_room *r);
/* The room's options as given, less its game's secret ones and any
 * `deal=` (a new reference; {} when they cannot be read). */
json_t *hubv_public_options(const hub_room *r);
/* Appends the fields of `seat`'s legal action `a` in `st` as JSON text
 * ("{}" when they cannot be written); returns 1 when memory ran out, else 0. */
int hubv_legal_fields(const pl_game *g, const void *st, int seat, pl_action a, pl_buf *out);

/* ---- hub_timers.c: the rooms' timers (hubt_) ---- */
/* Registers when room `r` is next due (after any change of it). */
void hubt_rewake(hub *h, hub_room *r);
/* Takes room `r`'s timers out of the heap (the room goes). */
void hubt_forget(hub *h, const hub_room *r);

/* ---- hub_batch.c: the hub thread's side of storage (hubb_) ---- */
/* Queue room `r`'s creation, its current configuration (seats joined),
 * action `seq` (`text`, played by `seat`, sent by connection `sender` or 0)
 * and its end in the next batch. Without memory the write is left out
 * (hubb_queue_action then returns -1, the others say nothing). */
void hubb_queue_room(hub *h, hub_room *r);
void hubb_queue_config(hub *h, hub_room *r);
int hubb_queue_action(hub *h, hub_room *r, int seq, int seat, const char *text, uint64_t sender);
void hubb_queue_finish(hub *h, hub_room *r);

/* ---- hub_rating.c: rated rooms (issue 33 §2) ---- */
/* The fixed rating of computer level `level` in pool `pool` into *out: 0,
 * or -1 when that level has none (it cannot sit in a rated room). */
int hubg_level_rating(const char *pool, const char *level, pl_glicko2 *out);
/* Whether room `r` (its game, options and seats as they are) may be rated:
 * 0, or -1 with the reason in `why` (not a rated pool; a partner seat; a
 * computer level without a rating; a guest seated). */
int hubg_check(const hub_room *r, pl_buf *why);
/* Describes the finished rated room `r` for store_finish_rated into *out
 * (now_ms left 0: the caller sets it): each seat's account or computer
 * level rating, team and rank (pl_rating_result), and a person seat the
 * computer keeps past the grace time as the leaver (pl_rating_abandon's
 * rule). 0, or -1 with a message (*out undefined). */
int hubg_finish(const hub_room *r, hubg_fin *out, pl_buf *err);
/* A rated room without a clock (create's `clock` absent, a Play now room)
 * gets the move clock HUBG_MOVE_S; a casual room, or one with a clock, is
 * left unchanged. Call before the room is first stored. */
void hubg_default_clock(hub_room *r);
/* Rated room `r`'s clock ran out for the person of seat `s` (the move
 * clock: the computer plays this one decision; `total`: the total clock,
 * out for good). The move clock's HUBG_STALL_MOVES-th run-out in a row,
 * or a total clock's, marks the seat stalled: treated as a person who left
 * past the grace time (the computer keeps the seat to the end, the rating
 * rates it the leaver, docs/ratings.md "Stalling"), its configuration
 * queued so a restart keeps the mark. Returns 1 when it marked the seat,
 * 0 otherwise (a casual room: nothing). */
int hubg_timed_out(hub *h, hub_room *r, int s, int total);
/* The person of seat `s` of `r` decided themselves (an `act`, a karuta
 * touch): their run of clock-played decisions starts again. */
void hubg_moved(hub_room *r, int s);
/* The storage thread: writes finish `f` with `result` (store_finish_rated),
 * filling its seats' before and after. What store_finish_rated returns. */
int hubg_write(store *s, hubg_fin *f, const char *result, pl_buf *err);
/* Once `f` is durable: sends every member of its room (if still here) a
 * `rated` message with each seat's rating before and after; the room
 * keeps the message (rated_msg) for hubg_again. */
void hubg_announce(hub *h, const hubg_fin *f);
/* Sends connection `conn` room `r`'s `rated` message again when it was
 * announced (a member who joined or watched after the end: a reload, a
 * connection lost at the end); nothing otherwise. Call after its state. */
void hubg_again(hub *h, const hub_room *r, uint64_t conn);
/* Request `root` of `c` names room `code`, which the hub does not hold:
 * with on_demand it waits for the room's load. 1 when it waits, 0 when the
 * caller answers "no room". */
int hubb_room_ask(hub *h, hub_conn *c, const char *code, json_t *root);
/* Cluster: idle room `r` goes from this hub, its lease dropped with the
 * next batch (kept, its idle time reset, when memory runs out). */
void hubb_room_let_go(hub *h, hub_room *r);
/* Cluster: new room `r` is stored without a lease and goes from here once
 * stored (nothing when not a cluster's, or it starts at once). */
void hubb_room_give_away(hub *h, hub_room *r);
/* Cluster: the same for a room whose seats are all given (a Play now
 * pairing: tokens, and computers): it goes too, its people coming by code. */
void hubb_room_give_away_seated(hub *h, hub_room *r);

/* Queues look `l` (copied) in the next batch: 0, or -1 when memory ran out. */
int hubb_queue_look(hub *h, const hubp_look *l);
/* The batch being built (made if needed), or NULL when memory ran out. */
hub_batchp *hubb_batch(hub *h);

/* ---- hub_store.c: the storage thread's side (hubs_) ---- */
/* Frees batch `p` and everything it holds (NULL: nothing). Any thread. */
void hubs_batchp_free(hub_batchp *p);

/* ---- hub_replay.c: replays (hubr_) ---- */
/* The `replay` request: a room in memory (or the store's) that is over. */
void hubr_req_replay(hub *h, hub_conn *c, json_t *root, int64_t now_ms);
/* The `replay_part` request: a referee's record uploaded in parts. */
void hubr_req_replay_part(hub *h, hub_conn *c, json_t *root, int64_t now_ms);
/* The record seat `seat` of room `r` gets for `record {who: "seat"}`
 * (docs/records.md, "A record from a room"): in a game without
 * PL_GAME_HIDDEN that is not over, the referee's record with `fresh_seed`
 * (63 bits are kept) in place of the room's seed, when it replays to the
 * same position (nothing at the start came from the seed); else the seat's
 * record (pl_record_write_for) with the key "history": [{seat, events}],
 * each action's events as that seat saw them. Returns a new object, or NULL
 * when memory runs out. Every entry must be visible to the seat (karuta:
 * the caller waits for the reading's answer). Work: the whole record is
 * read back once (one apply per action) to check it replays. Leaves the
 * room unchanged. */
json_t *hubr_seat_record(hub_room *r, int seat, uint64_t fresh_seed);

/* ---- hub_req.c, for hub_seek.c ---- */
/* A new room code (32 hex digits; test_seed mode: from the seed). */
void hubq_random_hex(hub *h, char out[HUB_CODE]);
/* A new room seed (63 bits; test_seed mode: from the seed). */
uint64_t hubq_random_seed(hub *h);

/* ---- hub_seek.c: "Play now" (hubp_, docs/pairing.md) ---- */
/* The requests `seek`, `unseek` and `counts` (docs/web-protocol.md). */
void hubp_req_seek(hub *h, hub_conn *c, json_t *root, int64_t now_ms);
void hubp_req_unseek(hub *h, hub_conn *c, json_t *root, int64_t now_ms);
void hubp_req_counts(hub *h, hub_conn *c, json_t *root, int64_t now_ms);
/* Connection `c` went into a room (join, watch, create): its seek ends and
 * it gets no more `counts`. */
void hubp_entered(hub *h, hub_conn *c);
/* Connection `c` goes (before its slot is freed): its seek ends. */
void hubp_conn_gone(hub *h, hub_conn *c);
/* A connection came: the online count changed. */
void hubp_changed(hub *h);
/* Pairs the waiting seeks and pushes `counts` when due. */
void hubp_tick(hub *h, int64_t now_ms);
/* When hubp_tick must next run, INT64_MAX none. */
int64_t hubp_next_ms(const hub *h);
/* Frees the pool and every connection's seek (hub_free). */
void hubp_free(hub *h);
/* The storage thread: reads look `l`'s stored rating (store_ratings_pool,
 * the idle deviation applied until l->now_ms) and sets its status. */
void hubp_look_read(store *s, hubp_look *l);
/* Batch `p` came back (written or not): each seek whose stored rating it
 * read enters the pool with it; one it could not read is refused
 * ("storage"). Seeks ended meanwhile are skipped. The pairings it wrote
 * (or not: their members go back to be read again) are settled. */
void hubp_looks_done(hub *h, const hub_batchp *p, int64_t now_ms);
/* Any thread: a deep copy of seek `src` into *dst (0), or -1 when memory
 * ran out (*dst cleared); frees a copy's strings. Same for a pairing. */
int hubp_seek_copy(store_seek *dst, const store_seek *src);
void hubp_seek_clear(store_seek *k);
int hubp_pairing_copy(store_pairing *dst, const store_pairing *src);
void hubp_pairing_clear(store_pairing *p);
/* The storage thread: batch `p`'s seeks written and deleted, its pairings
 * written (each one's status set; none when `rooms_ok` is 0: its rooms may
 * not be stored) and its told pairings deleted. */
void hubp_batch_write(store *s, hub_batchp *p, int rooms_ok);
/* The cluster thread, in hub_lobby_read: the other processes' connections,
 * the role taken, the seeks and this process's pairings read into `l`; the
 * holder sweeps the rows of processes dead for over `grace_ms`. */
void hubp_lobby_read(store *s, hub_lobby *l, int64_t grace_ms);
/* A new lobby `l` came (cluster): the holder's pool follows the stored
 * seeks, this process's pairings are told, `counts` follow the table. */
void hubp_lobby(hub *h, const hub_lobby *l);

/* ---- hub_karuta.c ---- */
/* A job's kind: a computer's seat (or a covered one) moves; a person's
 * move clock ran out (the computer plays that move even if he is back);
 * a karuta answer (kept secret until the window closes). */
enum { HUB_JOB_MOVE = 0, HUB_JOB_KARUTA = 1, HUB_JOB_CLOCK = 2, HUB_JOB_REVIEW = 3, HUB_JOB_HINT = 4 };

/* ---- hub_review.c: the `review` request (hubw_) ---- */
/* {"type": "review", "room": CODE}: queues a review job of a finished room. */
void hubw_req_review(hub *h, hub_conn *c, json_t *root, int64_t now_ms);
/* Loads `path` as a table for reviews (the game's own format or the
 * generic solver's), keeping `own` (a game table hub_table_load loaded from
 * it, or NULL) borrowed. 0, or -1 with a message. */
int hubw_table_add(hub *h, const pl_game *own_game, void *own, const char *path, pl_buf *err);
/* Frees the review tables (hub_free). */
void hubw_tables_free(hub *h);
/* Runs a review job (a worker; touches only `rv`). */
void hubw_run(struct hubw_review *rv);
/* Answers a finished review job's connection (the hub's thread). */
void hubw_done(hub *h, struct hubw_review *rv);
/* Frees a review job's part; NULL is a no-op. */
void hubw_free(struct hubw_review *rv);
/* Queues the review of match `m` (a room's, `code`, or an uploaded record's:
 * `code` NULL, answered with room null) for connection `c`, copying its
 * initial state and history; `realtime`: a room played in real time (karuta).
 * Returns 0, or -1 after answering an `error` (`game`: not Ur, Tam Cúc or
 * City Behind Walls; `rate`: HUBW_MAX_OUT reviews out; `storage`). */
int hubw_queue(hub *h, hub_conn *c, const pl_match *m, const char *code, bool realtime);
/* Ends a `review` answer after its review object: `,"room":CODE` (null for
 * an empty `code`: an upload's) and `,"type":"review"}`. Returns 0, or -1
 * when `out` ran out of memory. Any thread. */
int hubw_answer_tail(pl_buf *out, const char *code);
/* The options a room of game `g` is created with from the creator's `opts`
 * (an object, or NULL for none): a karuta room gets tempo=even unless `opts`
 * name tempo (the kana's times must not tell the poem, docs/server.md).
 * Returns a new reference (NULL where `opts` is NULL and nothing is added);
 * sets *oom and returns NULL when memory runs out. Hub thread. */
json_t *hubk_room_options(const pl_game *g, json_t *opts, int *oom);
/* Whether karuta's real time applies to room `r` (a karuta room). */
int hubk_applies(const hub_room *r);
/* Called after every change of `r`'s state: starts a reading when a touch
 * stage began. */
void hubk_after_change(hub *h, hub_room *r, int64_t now_ms);
/* History entries clients may get now (the reading's "read N" hidden
 * while it is answered). */
int hubk_visible(const hub_room *r);
/* A `touch` message. */
void hubk_touch(hub *h, hub_conn *c, int card, int64_t client_ms, int poet, int64_t now_ms);
/* A `sync` answer. */
void hubk_sync(hub *h, hub_conn *c, int64_t id, int64_t client_ms, int64_t now_ms);
/* Timed work at `now_ms`; returns the next time it needs (INT64_MAX none). */
int64_t hubk_tick(hub *h, hub_room *r, int64_t now_ms);
/* A karuta job came back: the answer of `seat`, held secret. */
void hubk_job_done(hub *h, hub_room *r, int seat, pl_action a, int64_t now_ms);
/* A connection joined the room as a seat: starts its clock sync. */
void hubk_joined(hub *h, hub_room *r, hub_conn *c, int64_t now_ms);
/* A connection arrived in room `r` (joined a seat or watches it), after its
 * state was sent: during a reading it gets the `reading` message, then the
 * kana read so far, before any other kana of it. Hub thread. */
void hubk_arrived(hub *h, hub_room *r, hub_conn *c);
/* 1 while the next reading must wait (the last judgement is shown, or the
 * memorisation time before the first reading runs, KA-R3). */
int hubk_hold_chance(const hub_room *r, int64_t now_ms);
/* The `ready` message of seat c->seat (a person's seat of a karuta room):
 * during the memorisation time it marks the seat ready, and when every
 * person seat is ready the first reading starts; said again it changes
 * nothing; at any other time the answer is `not-your-turn`. Hub thread. */
void hubk_ready(hub *h, hub_conn *c, int64_t now_ms);
/* Appends `,"memo":{"left_ms","ready","total_ms"}` (the state message's
 * memorisation field, docs/web-protocol.md) while room `r` memorises, at
 * `now_ms`; nothing otherwise, or for a room not karuta. Hub thread. */
void hubk_put_memo(const hub_room *r, int64_t now_ms, pl_buf *out);
/* Frees the room's karuta part. */
void hubk_free(hub_room *r);
/* After a storage failure took actions back: forget the reading. */
void hubk_reset(hub_room *r);

/* ---- hub_hint.c: hints (hubh_, docs/hints.md) ---- */
/* A `hint` request of connection `c` (checked, refused or queued). */
void hubh_req_hint(hub *h, hub_conn *c, json_t *root, int64_t now_ms);
/* Queues a hint job for `seat` of `r`, asked by `conn`, with the game's
 * table `table` (NULL none); returns its id, or 0 when memory ran out. */
uint64_t hub_hint_queue(hub *h, hub_room *r, int seat, uint64_t conn, const void *table);
/* Runs a hint job (ai_hint from the job's copy, seen from its seat only):
 * a worker thread; touches only the job. */
void hubh_job_run(hub_job *j, uint64_t seed, const void *table);
/* A finished hint job: its answer (or why there is none) to the asking
 * connection alone, when it is still in the room; nothing is played. */
void hubh_job_done(hub *h, hub_jobp *j);
/* The review of a finished hidden-card game (Tam Cúc, City Behind Walls):
 * the whole `review` message text (owned by the caller, pl_free), or NULL
 * with a message. Any thread (hub_review.c's worker job). */
char *hubh_review_hidden(const pl_game *g, const void *initial, const pl_move *hist, int nhist, uint64_t seed,
                         const char *code, pl_buf *err);

#endif
