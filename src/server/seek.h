/* seek.h — "Play now": a pool of seeks (players waiting for an opponent)
 * paired by rating windows that widen with the wait (issue 33 §3,
 * docs/pairing.md). Prefix seek_.
 *
 * Pure, like the hub (hub.h): no socket, no thread, no clock, no store. The
 * server adds and cancels seeks as its players ask and calls seek_tick with
 * the time now (every 100 ms, say); the tick returns the groups to seat. The
 * pool's whole state is its seeks as given to seek_add (with their original
 * times), so a process can rebuild it from a table of seeks and pair exactly
 * as the one before it would have (docs/pairing.md, "Several processes").
 *
 * Pool keys. A seek names a pool key, a short string such as "ur/skiryuk",
 * "tamcuc/3" or "cbw/2v2", and the number of people a game of that key
 * seats (2 to SEEK_MAX_PLAYERS: 2, 3, 4; a team game counts every member,
 * 2 v 2 = 4, 3 v 3 = 6). Only seeks of one key are paired together; the
 * first seek of a key fixes its number of people.
 *
 * The window. A seek waiting `wait` seconds (now - made) accepts ratings
 * within its window w of its own:
 *     w = min(cap, max(base, rd) + widen_per_s * wait)
 * where base, widen_per_s and cap are the pool's (seek_config) and cap is
 * the seek's own range when the player asked one (seek_req.range). A group
 * is compatible when every member sees every other: |r_i - r_j| <= w_i for
 * all members i, j (mutual, so a long-waiting wide window never grabs a
 * narrow newcomer before the newcomer's own window reaches it).
 *
 * A tick pairs, key by key, until no compatible group is left among the
 * waiting seeks (for 2-person keys exactly; for more, within a search
 * budget: docs/pairing.md): best groups first (the smallest rating spread),
 * the oldest member first on equal spreads, then the lowest id. Then every
 * seek that asked for a computer after N seconds and has waited N seconds or
 * more leaves as a computer pairing (one member: the caller seats a computer
 * of the nearest rating, seek_nearest_level, in the other seats).
 *
 * Times are integer milliseconds on the caller's clock (any origin);
 * ratings and RDs are Glicko-2 figures on the usual 1500 scale.
 *
 * Threading: a pool belongs to one thread; no function touches anything but
 * its arguments.
 */
#ifndef PARLOUR_SEEK_H
#define PARLOUR_SEEK_H

#if !defined(PARLOUR_IN_FRONT)
#error "seek.h belongs to the server (a front end): core, games and AI may not include it"
#endif

#include <stddef.h>
#include <stdint.h>

#define SEEK_MAX_PLAYERS 6     /* people in one game: 3 v 3 */
#define SEEK_MAX_KEY 32        /* bytes of a pool key, without the NUL */
#define SEEK_MIN_RATING 0.0    /* ratings outside [0, 4000] are refused */
#define SEEK_MAX_RATING 4000.0
#define SEEK_MAX_RD 1000.0     /* RD in [0, 1000] */
#define SEEK_MIN_RANGE 10      /* a range asked (seek_req.range) is 0 or 10..4000 */
#define SEEK_MAX_RANGE 4000
#define SEEK_MAX_COMPUTER_S 3600 /* "a computer after N s": N in 0..3600 */

/* Result codes; seek_strerror gives each a message. */
enum {
    SEEK_OK = 0,
    SEEK_EDUP = -1,   /* that id already has a seek */
    SEEK_EFULL = -2,  /* the pool holds max_seeks seeks */
    SEEK_EKEYS = -3,  /* a new key, and the pool knows max_keys keys */
    SEEK_EINVAL = -4, /* a field out of bounds (key, players, rating, rd, range, computer_after_s) */
    SEEK_EPLAYERS = -5, /* the key is known with another number of people */
    SEEK_ENOMEM = -6  /* out of memory */
};

typedef struct seek_pool seek_pool;

/* Settings of a pool; zero fields take the defaults in brackets. */
typedef struct seek_config {
    double base;        /* window at no wait, rating points [100] */
    double widen_per_s; /* points the window grows per second of wait [5] */
    double cap;         /* the widest window unless the seek asks its own range [600] */
    int max_seeks;      /* seeks held at once [200000] */
    int max_keys;       /* pool keys ever known [256] */
    int budget;         /* groups of 3 or more: candidate members tried per seek a round [256] */
} seek_config;

/* One seek as the caller gives it. */
typedef struct seek_req {
    uint64_t id;          /* the caller's (a connection, an account); unique in the pool */
    const char *key;      /* pool key: 1..SEEK_MAX_KEY printable ASCII bytes, no space */
    int players;          /* people a game of this key seats: 2..SEEK_MAX_PLAYERS */
    double rating, rd;    /* the player's rating and RD for this key */
    int64_t made_ms;      /* when the seek was made (kept when the pool is rebuilt) */
    int computer_after_s; /* 0: never; N: a computer may take the seat after N s */
    int range;            /* 0: the pool's cap; else the widest window the player accepts */
} seek_req;

/* A group to seat. Members are ordered by rating, lowest first. */
typedef struct seek_pairing {
    const char *key;      /* the pool's copy of the key (valid while the pool lives) */
    int n;                /* members: the key's people, or 1 for a computer pairing */
    int computer;         /* 1: a seek past its N seconds; the other seats take computers */
    double rating;        /* a computer pairing: the seek's rating (seek_nearest_level) */
    double spread;        /* highest minus lowest member rating (0 for a computer pairing) */
    uint64_t ids[SEEK_MAX_PLAYERS];
} seek_pairing;

/* A computer level and its measured rating (for seek_nearest_level). */
typedef struct seek_level {
    const char *level;
    double rating;
} seek_level;

/* A new, empty pool with settings `cfg` (NULL: every default); NULL when out
 * of memory or a setting is out of bounds (negative, or cap < base). Free it
 * with seek_free. */
seek_pool *seek_new(const seek_config *cfg);

/* Frees the pool and everything it holds; seek_free(NULL) does nothing. */
void seek_free(seek_pool *p);

/* Adds a seek (the pool copies the key). SEEK_OK, or a result code and the
 * pool unchanged: SEEK_EDUP, SEEK_EFULL, SEEK_EKEYS, SEEK_EINVAL,
 * SEEK_EPLAYERS, SEEK_ENOMEM. Work: the key is looked up among the known
 * keys (at most max_keys string compares), the rest O(1) amortised. */
int seek_add(seek_pool *p, const seek_req *r);

/* Removes the seek with id `id`: 1 when there was one, 0 when there was
 * none (harmless). O(1) amortised. */
int seek_cancel(seek_pool *p, uint64_t id);

/* Pairs at time `now_ms`: the paired seeks leave the pool; *n gets the number
 * of pairings and the result points at them, owned by the pool, valid until
 * the next seek_tick or seek_free (NULL with *n = 0 when there are none; NULL
 * with *n = 0 too when out of memory, the pool unchanged and the next tick
 * trying again). Work: O(n log n) sorting per key with waiting seeks, plus
 * for each seek the waiting seeks of its key within its window that it
 * looks at (docs/pairing.md). */
const seek_pairing *seek_tick(seek_pool *p, int64_t now_ms, size_t *n);

/* Seeks waiting now with key `key` (0 for an unknown key). */
int seek_waiting(const seek_pool *p, const char *key);

/* Seeks waiting now, all keys together. */
int seek_total(const seek_pool *p);

/* The keys known to the pool, for the lobby's counts: the i-th key (0-based,
 * in the order they were first seen) or NULL when i is out of range; *waiting
 * (when not NULL) gets its waiting seeks. */
const char *seek_key_at(const seek_pool *p, int i, int *waiting);

/* The window of the seek with id `id` at `now_ms` (rating points), or -1
 * when there is no such seek. */
double seek_window(const seek_pool *p, uint64_t id, int64_t now_ms);

/* The index in levels[0..n) of the level whose rating is nearest `rating`
 * (the first of equals), or -1 when n is 0. */
int seek_nearest_level(const seek_level *levels, size_t n, double rating);

/* A message for a result code ("ok" for SEEK_OK); never NULL. */
const char *seek_strerror(int code);

#endif
