/* hub_int.h — the hub's private structures, shared by hub.c and
 * hub_karuta.c (karuta's real-time reading). Not an interface: only the
 * hub's own files include it. Threading: the hub's thread only.
 */
#ifndef PARLOUR_HUB_INT_H
#define PARLOUR_HUB_INT_H

#include <jansson.h>

#include "hub.h"
#include "parlour/match.h"

#define HUB_CODE 33 /* 32 hex digits and the NUL */

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
    int rematch;            /* asked for a rematch */
    int64_t left_ms;        /* total clock: time left */
    int job_nhist;          /* history length of this seat's pending job, -1 none */
    int of;                 /* HUB_SEAT_PARTNER: the seat whose person plays it */
} hub_seat;

/* One entry of the history as every viewer may see it. */
typedef struct hub_entry {
    int seat;
    char *text[PL_MAX_SEATS + 1]; /* by viewer + 1 (0: spectator); owned */
    char *said[PL_MAX_SEATS + 1];
    char *events[PL_MAX_SEATS + 1]; /* JSON array text (pl_events_json) */
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
    int durable;            /* actions known durable */
    int finished_queued;
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
} hub_conn;

/* Functions of hub.c used by hub_karuta.c. */
/* The live connection `id`, or NULL (never was, or gone). */
hub_conn *hub_conn_get(hub *h, uint64_t id);
/* Queues message `j` (stolen) to connection `conn`, held behind any
 * pending write (as every message about a room). */
void hub_send(hub *h, uint64_t conn, json_t *j);
/* Queues an error reply. */
void hub_error(hub *h, uint64_t conn, const char *code, const char *request, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Applies `a` for `seat` (checked) to the room, queues its write and the
 * states; 0 or -1 with the rules' message in `err`. */
int hub_room_play(hub *h, hub_room *r, int seat, pl_action a, uint64_t sender, int64_t now_ms, pl_buf *err);
/* Queues a job for every actor a computer plays now (once per state). */
void hub_room_schedule(hub *h, hub_room *r);
/* After any change of the room's state: chance, the end, jobs, clocks. */
void hub_room_advance(hub *h, hub_room *r, int64_t now_ms);
/* Sends every member its state. */
void hub_room_broadcast(hub *h, hub_room *r);
/* The seat whose person (or computer) plays seat `s`: `of` for a partner
 * seat, else `s`. Its clocks and takeover count for both. */
int hub_seat_owner(const hub_room *r, int s);
/* True when seat `s` of `r` is played by a computer now. */
int hub_seat_is_ai(const hub_room *r, int s);
/* The ai_player for `level` of game `g` (the hub keeps it), or NULL + message. */
const ai_player *hub_player(hub *h, const pl_game *g, const char *level, pl_buf *err);
const char *hub_takeover_level(const hub *h);
/* The log (hub_config.log, else stderr). */
FILE *hub_log(const hub *h);
/* Queues a decision of `p` for `seat` on a copy of `r`'s state (kind
 * HUB_JOB_*); returns the job's id, or 0 when memory ran out (no job). */
uint64_t hub_job_queue(hub *h, hub_room *r, int seat, const ai_player *p, int kind);
/* The time of the call being handled (ms). */
int64_t hub_now(const hub *h);

/* ---- hub_karuta.c ---- */
/* A job's kind: a computer's seat (or a covered one) moves; a person's
 * move clock ran out (the computer plays that move even if he is back);
 * a karuta answer (kept secret until the window closes). */
enum { HUB_JOB_MOVE = 0, HUB_JOB_KARUTA = 1, HUB_JOB_CLOCK = 2 };
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
/* 1 while the next reading must wait (the last judgement is shown). */
int hubk_hold_chance(const hub_room *r, int64_t now_ms);
/* Frees the room's karuta part. */
void hubk_free(hub_room *r);
/* After a storage failure took actions back: forget the reading. */
void hubk_reset(hub_room *r);

#endif
