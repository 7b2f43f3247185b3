/* engines.h — computer players in `parlour engine` processes: `parlour
 * serve --engines N` and `--engine-cmd CMD` (docs/server.md, "Computer
 * players outside the server"). Prefix eng_.
 *
 * The hub hands out a computer seat's move as a job (hub.h); with engines
 * on, the job also carries its text (eng_job_text, the hub's
 * hub_config.job_text): the game as engine-protocol requests (docs/protocol.md)
 *
 *     new GAME KEY=VALUE ... seed=N      the room's options and seed
 *     play [SEAT] ACTION                 every action so far, chance included
 *     ID choose SEAT SEED SPEC           the player's choice, with the job's seed
 *
 * A pool (eng_new) owns N worker processes, each a child of the server
 * talking over a socketpair on its stdin and stdout: this program's own
 * `engine` by default, else `/bin/sh -c CMD` (e.g. `ssh worker1 parlour
 * engine`). One thread per worker writes a job's text and reads the
 * answers (poll, a deadline per job); the answer of `choose` is parsed in the
 * job's state (pl_game.parse_action) and left in job->action; the hub
 * then checks it (pl_check) as it checks a thread's, and an illegal or
 * missing answer falls back as before (hub_job_done).
 *
 * Failures: a worker that exits or is killed is started again, and a job it
 * was answering is sent again to the new process, three tries in all (so a
 * kill changes no move); a worker that times out, answers out of the protocol (garbage, a
 * wrong id, more than ENG_MAX_OUTPUT bytes) is killed (its process group)
 * and started again for the next job, and the job fails (job->failed: the
 * hub's fallback move). A command that keeps failing at once is started at
 * most every ENG_BACKOFF_MAX_MS after a few tries; its jobs fail meanwhile.
 *
 * Trust: workers are part of the server (they see the seed and every hidden
 * card of the game they think about); nothing a worker writes reaches a
 * client except the action the hub checked and played.
 *
 * Threading: eng_job_text and eng_parse are pure (any thread). A pool is
 * made and freed on one thread (the service thread); eng_submit may be
 * called from it at any time; the `done` callback runs on the pool's
 * threads, one job at a time per thread.
 */
#ifndef PARLOUR_ENGINES_H
#define PARLOUR_ENGINES_H

#if !defined(PARLOUR_IN_FRONT)
#error "engines.h belongs to the server (a front end): core, games and AI may not include it"
#endif

#include <stddef.h>
#include <stdint.h>

#include "hub.h"
#include "parlour/buf.h"
#include "parlour/match.h"

#define ENG_MAX_WORKERS 64
#define ENG_TIMEOUT_MS 10000         /* a job's answer within this [default of eng_config.timeout_ms] */
#define ENG_MAX_OUTPUT (1 << 20)     /* bytes a worker may write for one job; more: killed */
#define ENG_MAX_WORDS 64             /* words after a request's command (the protocol's limit) */
#define ENG_BACKOFF_MAX_MS 5000      /* the longest wait before starting a failing command again */

/* Writes the job "seat `seat` of match `m` plays, chosen by player `spec`
 * with seed `seed`" as engine-protocol requests (above), one a line, the
 * last (`choose`) with request id `id`, appended to `out`. Returns the
 * number of requests (> 0), or -1 when the game cannot be said in the
 * protocol (an option value or action holding a blank where it would be
 * split, more than ENG_MAX_WORDS words in a request, a chance action
 * starting with a digit, a spec that is not one word) or memory ran out;
 * `out` is then as it was. `m` is only read. */
int eng_job_text(const pl_match *m, int seat, const char *spec, uint64_t seed, uint64_t id, pl_buf *out);

/* What a worker wrote so far for a job of `nreq` requests whose last had id
 * `id`: `buf` (len bytes). Returns 1 while fewer than nreq answers are
 * complete (an answer ends with an empty line); 0 when all are and every one
 * succeeded, with the last answer's first line after "=ID " (the action) in
 * `action`; -1 when all are but one was an error ("?"), its line in `why`;
 * -2 when the worker does not speak the protocol (a line that begins neither
 * with '=' nor '?', the last answer without "=ID " / "?ID ", bytes after
 * the last answer, a NUL byte), with a description in `why`. Pure. */
int eng_parse(const char *buf, size_t len, int nreq, uint64_t id, pl_buf *action, pl_buf *why);

typedef struct eng_pool eng_pool;

/* What eng_new needs; zero fields take the defaults in brackets. */
typedef struct eng_config {
    int n;               /* worker processes, 1..ENG_MAX_WORKERS [1] */
    const char *cmd;     /* a shell command that starts one worker [NULL: this program's `engine`] */
    const char *self;    /* this program's path for the default [/proc/self/exe] */
    int timeout_ms;      /* a job's deadline [ENG_TIMEOUT_MS] */
    int quiet;           /* 1: no log lines on stderr (unit tests) */
} eng_config;

/* Called once per submitted job when it is finished (job->action set, or
 * job->failed), on a pool thread; it owns the job from then on. */
typedef void (*eng_done_fn)(void *ctx, hub_job *job, void *tag);

/* Starts the pool: its threads, each starting its worker process (lazily,
 * at its first job). Returns the pool (eng_free), or NULL with a message
 * (bad configuration, no thread, no memory) and nothing left running. */
eng_pool *eng_new(const eng_config *cfg, eng_done_fn done, void *ctx, pl_buf *err);
/* Queues `job` (with job->text set) for the next free worker; `tag` comes
 * back with it in `done`. Returns 0, or -1 when memory ran out (the job is
 * then still the caller's). */
int eng_submit(eng_pool *e, hub_job *job, void *tag);
/* Stops the pool: the jobs in progress and those queued are finished as
 * failed (through `done`), the threads joined, every worker killed and
 * reaped. NULL is a no-op. */
void eng_free(eng_pool *e);

/* Figures for tests and logs. */
typedef struct eng_stats {
    uint64_t jobs, answered, failed, starts, retried, killed;
} eng_stats;
void eng_get_stats(eng_pool *e, eng_stats *out);

#endif
