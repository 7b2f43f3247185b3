/* net.h — the server's network layer: HTTP for the static files of web/
 * and a fixed list of font files (/fonts/NAME, css/fonts.css),
 * the WebSocket of the web protocol (docs/web-protocol.md) at /ws, and the
 * threads around the hub (docs/server.md, "Threads"). Prefix net_.
 *
 * One libwebsockets context served by one thread (the one that calls
 * net_run): it owns the hub, feeds it what arrives and the time, and sends
 * what the hub releases. Three kinds of helper threads never touch the hub:
 * the storage thread (owns the store: writes the hub's batches, so the
 * service thread never waits on disk) and a pool of workers (the computer
 * players' choices). Both post their results back through a mutex-guarded
 * queue and lws_cancel_service, which wakes the service thread. With
 * net_config.engines (or engine_cmd) the jobs that have a text go to worker
 * processes instead (engines.h), whose threads post back the same way.
 * The accounts (account.h, docs/server.md "Accounts") have two threads of
 * their own, each with its own store handle and acct: one for the slow calls
 * that hash a password (sign-up, sign-in, password, delete), one for the
 * quick ones (a session looked up for /api/account/me and for a WebSocket
 * that brings the cookie, sign-out); they post back the same way.
 *
 * Time: the hub gets CLOCK_REALTIME in milliseconds since the epoch (the
 * protocol's `server_ms` and the stored `at_ms` are wall-clock times);
 * timers are scheduled as delays from now (lws_sul, monotonic), so a jump of
 * the wall clock moves a timer's deadline but never stalls the loop.
 */
#ifndef PARLOUR_NET_H
#define PARLOUR_NET_H

#if !defined(PARLOUR_IN_FRONT)
#error "net.h belongs to the server (a front end): core, games and AI may not include it"
/* ---- Accounts over HTTP (docs/server.md, "Accounts on the wire") ---------------- */

/* The fields of an /api/account request's body, each owned (wiped and freed
 * by net_account_body_free); NULL where the call's shape has none. */
typedef struct net_acct_fields {
    char *name;         /* signup, signin */
    char *password;     /* signup, signin, delete; password: the old one */
    char *new_password; /* password */
} net_acct_fields;

/* Checks `body` (`len` bytes, not NUL-terminated, any bytes) of a POST to
 * /api/account/CALL, `call` one of "signup", "signin", "signout", "password",
 * "delete", against its shape: exactly the keys the call takes, each a
 * string (no key twice, no \u0000; at most NET_MAX_BODY bytes; sign-out: {}
 * or nothing). Returns 0 with the fields copied into `out`; -1 with what the
 * shape must be in `why` (an unknown call too); -2 when memory ran out. On
 * failure `out` holds nothing. Pure (no I/O): the fuzz target fuzz_account
 * calls it. */
int net_account_body(const char *call, const char *body, size_t len, net_acct_fields *out, pl_buf *why);
/* Wipes and frees the fields of `b` and zeroes it; a zeroed `b` is a no-op. */
void net_account_body_free(net_acct_fields *b);

#endif

#include <stddef.h>
#include <stdint.h>

#include "parlour/buf.h"

#define NET_MAX_FILE (8 << 20)      /* bytes: a bigger file of web/ is refused (403) */
#define NET_MAX_FONT (32 << 20)     /* bytes: a bigger font file is refused (403) */
#define NET_FONTS_DIR "/usr/share/fonts" /* where Debian's font packages put their files */
#define NET_MAX_QUEUE (4 << 20)     /* bytes waiting for one slow client before it is closed [default] */
#define NET_MAX_HEADER 4096         /* bytes of a request's headers; more: the request is refused */

typedef struct net net;

/* What net_new needs; zero fields take the defaults in brackets. */
typedef struct net_config {
    const char *host;    /* the address to listen on [all interfaces] */
    int port;            /* the TCP port; 0: any free one (net_port tells which) */
    const char *db;      /* the store's file (created if needed) [required] */
    const char *web;     /* the folder of static files [required; must exist] */
    const char *fonts;   /* the fonts served at /fonts/NAME (net.c's allow-list): a folder laid
                            out as Debian's, or holding the files by name [NET_FONTS_DIR] */
    int workers;         /* computer players' threads [min(2, cores)] */
    uint64_t test_seed;  /* hub_config.test_seed: 0 in production */
    long max_queue;      /* bytes queued for one client before it is closed [NET_MAX_QUEUE] */
    const char *const *tables; /* solved tables' files, each loaded by hub_table_load [none] */
    int ntables;
    int engines;         /* computer players in this many worker processes (engines.h); 0: in the
                            workers' threads [0, or 1 with engine_cmd] */
    const char *engine_cmd;  /* a shell command that starts one worker [this program's `engine`] */
    int engine_timeout_ms;   /* a worker's answer within this, else the fallback move [ENG_TIMEOUT_MS] */
    int cluster;         /* 1: one of several processes on one store (docs/cluster.md): an
                            owner id of its own, a heartbeat every NET_BEAT_MS on the cluster
                            thread (a store handle of its own), rooms loaded with their leases (hub_config.cluster), no
                            rooms restored at start, the lobby re-read from the store [0;
                            `parlour serve` sets it for --cluster or a postgresql:// store] */
    const char *owner;   /* cluster: the owner id [host:pid:random] */
    int64_t sweep_grace_ms; /* cluster: a dead process's seeks deleted this long after its heartbeat
                               expired [HUB_SWEEP_GRACE_MS]; `parlour serve --test-sweep-ms`, for
                               tests only, shortens it */
    unsigned long long acct_ops; /* accounts: Argon2id's operations and memory (acct_config) [libsodium's
                                    interactive limits]; `parlour serve --test-fast-hash`, for tests only,
                                    sets libsodium's minimums */
    size_t acct_mem;
} net_config;

#define NET_SESSION_S (30 * 24 * 3600) /* a session cookie's Max-Age (acct_config.session_ms) */
#define NET_MAX_BODY 4096              /* bytes of an /api/account request's body; more: 400 */

#define NET_BEAT_MS 300      /* cluster: the heartbeat's period... */
#define NET_TTL_MS 1000      /* ...and how long it keeps the leases alive: a room of a killed
                                process is taken by another within about this */
#define NET_LOBBY_MS 1000    /* cluster: the lobby re-read at least this often */

/* Opens the store, makes the hub, rebuilds every unfinished room from the
 * store (hub_restore; cluster: none, each is loaded with its lease when asked
 * for, and the first heartbeat is written), starts the storage thread, the
 * workers (and, cluster, the cluster thread: its own store handle, the
 * heartbeats, the lobby read on store_watch_fd or every NET_LOBBY_MS), and
 * listens. Returns the server (free it with net_free), or NULL with a
 * message in `err` and nothing left open. Call from the thread that will
 * call net_run. */
net *net_new(const net_config *cfg, pl_buf *err);
/* The port listened on (the one chosen by the system when cfg->port was 0). */
int net_port(const net *n);
/* The web folder served, as an absolute path without symlinks. */
const char *net_web(const net *n);
/* The invitation's addresses that `welcome` carries (hub_invite_set):
 * `n` URLs for other devices, `local_only` 1 when there are none. Returns 0,
 * or -1 when memory ran out. Call after net_new, before net_run. */
int net_invite(net *n, const char *const *urls, int count, int local_only);
/* Serves until net_stop; returns 0, or -1 when the event loop failed.
 * Call once, on net_new's thread. */
int net_run(net *n);
/* Asks net_run to return soon. Any thread may call it, any number of times
 * (it sets a flag and wakes the loop); not from a signal handler (a thread
 * waiting in sigwait calls it: serve.c). */
void net_stop(net *n);
/* Stops the workers (each finishes the choice it is making) and the storage
 * thread (it finishes the batch it is writing; the writes still queued are
 * then written on this thread), closes every connection, frees the hub and
 * closes the store. NULL is a no-op. Call on net_run's thread after it
 * returned (or instead of it). */
void net_free(net *n);
/* Appends what the server measured of the moves it answered, from the
 * arrival of each `act` (its last byte read) to the end of the turn that
 * wrote every seat's update of it (histogram: within 9 %), e.g. "1200 moves
 * answered; from a move's arrival to its last update: p50 0.31 ms p99 1.90
 * ms p99.9 4.10 ms max 6.20 ms"; nothing when none was answered. Call on
 * net_run's thread, before net_free. */
void net_latency(const net *n, pl_buf *out);

/* ---- Accounts over HTTP (docs/server.md, "Accounts on the wire") ---------------- */

/* The fields of an /api/account request's body, each owned (wiped and freed
 * by net_account_body_free); NULL where the call's shape has none. */
typedef struct net_acct_fields {
    char *name;         /* signup, signin */
    char *password;     /* signup, signin, delete; password: the old one */
    char *new_password; /* password */
} net_acct_fields;

/* Checks `body` (`len` bytes, not NUL-terminated, any bytes) of a POST to
 * /api/account/CALL, `call` one of "signup", "signin", "signout", "password",
 * "delete", against its shape: exactly the keys the call takes, each a
 * string (no key twice, no \u0000; at most NET_MAX_BODY bytes; sign-out: {}
 * or nothing). Returns 0 with the fields copied into `out`; -1 with what the
 * shape must be in `why` (an unknown call too); -2 when memory ran out. On
 * failure `out` holds nothing. Pure (no I/O): the fuzz target fuzz_account
 * calls it. */
int net_account_body(const char *call, const char *body, size_t len, net_acct_fields *out, pl_buf *why);
/* Wipes and frees the fields of `b` and zeroes it; a zeroed `b` is a no-op. */
void net_account_body_free(net_acct_fields *b);

#endif
