/* engines.c — computer players in `parlour engine` processes (engines.h):
 * the job as protocol text, the answers read back, and the pool of worker
 * processes with one thread each.
 *
 * A worker is a child started with posix_spawn in a process group of its
 * own (so a kill reaches what a shell command started), its stdin and
 * stdout one end of a socketpair (send with MSG_NOSIGNAL: a dead worker is
 * an error code, never a SIGPIPE), every other descriptor of the server
 * closed, the signal mask and the dispositions the server changed reset.
 */
#include "engines.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "parlour/alloc.h"

extern char **environ;

#define ENG_SLICE_MS 100 /* a waiting thread looks at the quit flag this often */
#define ENG_ATTEMPTS 3   /* a job whose worker went away is sent to a new one, at most this often */

/* ---- The job as text ------------------------------------------------------------ */

/* Words of s[0..n) separated by blanks (the protocol's split). */
static int eng_words(const char *s, size_t n)
{
    int w = 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && (i == 0 || s[i - 1] == ' ' || s[i - 1] == '\t'))
            w++;
    return w;
}

static int eng_has_blank(const char *s, size_t n)
{
    return memchr(s, ' ', n) || memchr(s, '\t', n);
}

int eng_job_text(const pl_match *m, int seat, const char *spec, uint64_t seed, uint64_t id, pl_buf *out)
{
    size_t start = out->len;
    pl_buf opts = {0}, hist = {0};
    int nreq = -1, words = 1;
    if (!spec || !*spec || eng_has_blank(spec, strlen(spec)) || strchr(spec, '\n'))
        goto done;
    pl_opts_write(&m->opts, &opts);
    pl_match_history(m, &hist);
    if (opts.oom || hist.oom)
        goto done;
    /* new GAME KEY=VALUE ... (the `options` lines, seed last) */
    pl_buf_printf(out, "new %s", m->game->id);
    for (const char *p = pl_buf_str(&opts); *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n) {
            if (eng_has_blank(p, n) || ++words > ENG_MAX_WORDS)
                goto done;
            pl_buf_putc(out, ' ');
            pl_buf_append(out, p, n);
        }
        p += n + (e != NULL);
    }
    pl_buf_putc(out, '\n');
    nreq = 1;
    /* play [SEAT] ACTION: history lines are "SEAT ACTION" or "chance ACTION" */
    for (const char *p = pl_buf_str(&hist); *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        const char *sp = memchr(p, ' ', n);
        if (n) {
            if (!sp || eng_words(p, n) > ENG_MAX_WORDS) {
                nreq = -1;
                goto done;
            }
            if ((size_t)(sp - p) == 6 && !memcmp(p, "chance", 6)) {
                /* In a chance phase `play X` is the outcome X, unless X's
                 * first word is a number (then it would name a seat). */
                if (sp[1] >= '0' && sp[1] <= '9') {
                    nreq = -1;
                    goto done;
                }
                pl_buf_puts(out, "play");
            } else {
                pl_buf_puts(out, "play ");
                pl_buf_append(out, p, (size_t)(sp - p));
            }
            pl_buf_append(out, sp, n - (size_t)(sp - p));
            pl_buf_putc(out, '\n');
            nreq++;
        }
        p += n + (e != NULL);
    }
    pl_buf_printf(out, "%" PRIu64 " choose %d %" PRIu64 " %s\n", id, seat, seed, spec);
    nreq++;
done:
    if (nreq < 0 || out->oom) {
        pl_buf_truncate(out, start);
        nreq = -1;
    }
    pl_buf_free(&opts);
    pl_buf_free(&hist);
    return nreq;
}

/* ---- The answers ----------------------------------------------------------------- */

int eng_parse(const char *buf, size_t len, int nreq, uint64_t id, pl_buf *action, pl_buf *why)
{
    char tag[32];
    int taglen = snprintf(tag, sizeof tag, "%" PRIu64 " ", id); /* after '=' or '?' */
    int done = 0, in = 0, refused = 0;
    size_t i = 0;
    if (memchr(buf, '\0', len)) {
        pl_buf_puts(why, "a NUL byte in the answer");
        return -2;
    }
    while (i < len) {
        const char *line = buf + i;
        const char *nl = memchr(line, '\n', len - i);
        if (!nl)
            break; /* a line still coming */
        size_t n = (size_t)(nl - line);
        i += n + 1;
        if (done == nreq) {
            pl_buf_puts(why, "more output after the last answer");
            return -2;
        }
        if (n == 0) {
            if (!in) {
                pl_buf_puts(why, "an empty line outside an answer");
                return -2;
            }
            in = 0;
            done++;
            continue;
        }
        if (in)
            continue; /* a further line of a result */
        in = 1;
        if (line[0] != '=' && line[0] != '?') {
            pl_buf_printf(why, "not an answer: '%.*s'", (int)(n < 80 ? n : 80), line);
            return -2;
        }
        if (done == nreq - 1) { /* the answer to `choose`: "=ID ACTION" */
            if (n < (size_t)taglen + 1 || memcmp(line + 1, tag, (size_t)taglen)) {
                pl_buf_printf(why, "the last answer is not for request %" PRIu64 ": '%.*s'", id,
                              (int)(n < 80 ? n : 80), line);
                return -2;
            }
            if (line[0] == '=' && !refused) {
                pl_buf_clear(action);
                pl_buf_append(action, line + 1 + taglen, n - 1 - (size_t)taglen);
            }
        }
        if (line[0] == '?' && !refused) {
            refused = 1;
            pl_buf_append(why, line, n);
        }
    }
    if (done < nreq)
        return 1;
    if (i < len) {
        pl_buf_puts(why, "more output after the last answer");
        return -2;
    }
    return refused ? -1 : 0;
}

/* ---- The pool ---------------------------------------------------------------------- */

typedef struct eng_item {
    struct eng_item *next;
    hub_job *job;
    void *tag;
} eng_item;

typedef struct eng_worker {
    struct eng_pool *e;
    int idx;
    pthread_t th;
    int started;           /* the thread runs */
    pid_t pid;             /* the process, 0: none */
    int fd;                /* our end of its socketpair, -1: none */
    int fails;             /* starts in a row that answered nothing */
    int answered;          /* jobs this process answered */
    int64_t next_start;    /* monotonic ms before which no start is tried */
    int held;              /* jobs failed while it waits to start again (logged once) */
} eng_worker;

struct eng_pool {
    eng_config cfg;
    char *cmd;             /* copy of cfg.cmd, or NULL */
    char *self;            /* this program's path (the default worker) */
    eng_done_fn done;
    void *ctx;
    pthread_mutex_t mu;    /* guards the queue, the stats */
    pthread_cond_t cv;
    eng_item *head, *tail;
    atomic_int quit;
    eng_worker *w;
    eng_stats st;
};

static int64_t eng_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void eng_log(const eng_worker *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void eng_log(const eng_worker *w, const char *fmt, ...)
{
    if (w->e->cfg.quiet)
        return;
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "parlour serve: engine %d: %s\n", w->idx, line);
}

static void eng_count(eng_pool *e, uint64_t *field)
{
    pthread_mutex_lock(&e->mu);
    (*field)++;
    pthread_mutex_unlock(&e->mu);
}

/* Kills the worker's process group and reaps it; closes our end. */
static void eng_kill(eng_worker *w)
{
    if (w->fd >= 0)
        close(w->fd);
    w->fd = -1;
    if (w->pid > 0) {
        kill(-w->pid, SIGKILL);
        kill(w->pid, SIGKILL);
        while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    w->pid = 0;
}

/* The process exited by itself (or was killed from outside): reaped, logged. */
static int eng_gone(eng_worker *w)
{
    int st;
    if (w->pid <= 0)
        return 1;
    pid_t r = waitpid(w->pid, &st, WNOHANG);
    if (r == 0)
        return 0;
    if (r == w->pid) {
        if (WIFSIGNALED(st)) {
            /* Killed from outside (the server kills only what it reaps
             * itself, eng_kill): not a command that fails at once, so its
             * start does not count towards the wait before the next. */
            eng_log(w, "pid %d killed by signal %d", (int)w->pid, WTERMSIG(st));
            w->fails = 0;
        } else {
            eng_log(w, "pid %d exited with %d", (int)w->pid, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
        }
    }
    kill(-w->pid, SIGKILL); /* what it started */
    w->pid = 0;
    if (w->fd >= 0)
        close(w->fd);
    w->fd = -1;
    return 1;
}

/* Starts the worker's process. 0, or -1 (too soon after failures, or the
 * start failed) with nothing running. */
static int eng_start(eng_worker *w)
{
    eng_pool *e = w->e;
    int64_t now = eng_now();
    if (w->fails >= 2 && now < w->next_start)
        return -1;
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
        eng_log(w, "socketpair: %s", strerror(errno));
        return -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    posix_spawn_file_actions_init(&fa);
    posix_spawnattr_init(&at);
    posix_spawn_file_actions_adddup2(&fa, sv[1], 0);
    posix_spawn_file_actions_adddup2(&fa, sv[1], 1);
    posix_spawn_file_actions_addclosefrom_np(&fa, 3);
    sigset_t none, dfl;
    sigemptyset(&none);
    sigemptyset(&dfl);
    sigaddset(&dfl, SIGPIPE);
    sigaddset(&dfl, SIGINT);
    sigaddset(&dfl, SIGTERM);
    posix_spawnattr_setsigmask(&at, &none);
    posix_spawnattr_setsigdefault(&at, &dfl);
    posix_spawnattr_setpgroup(&at, 0);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
    char *argv_self[] = {e->self, (char *)"engine", NULL};
    char *argv_sh[] = {(char *)"/bin/sh", (char *)"-c", e->cmd, NULL};
    char **argv = e->cmd ? argv_sh : argv_self;
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &fa, &at, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    close(sv[1]);
    w->fails++;
    int back = 100 << (w->fails < 8 ? w->fails : 8);
    w->next_start = now + (back < ENG_BACKOFF_MAX_MS ? back : ENG_BACKOFF_MAX_MS);
    if (rc) {
        close(sv[0]);
        eng_log(w, "cannot start %s: %s", argv[0], strerror(rc));
        return -1;
    }
    w->pid = pid;
    w->fd = sv[0];
    w->answered = 0;
    eng_count(e, &e->st.starts);
    eng_log(w, "started pid %d (%s)", (int)pid, e->cmd ? e->cmd : "parlour engine");
    return 0;
}

enum { ENG_OK, ENG_REFUSED, ENG_DIED, ENG_BROKEN };

/* One exchange: writes `text`, reads until `nreq` answers came, the
 * deadline passed, the worker went away or broke the protocol. */
static int eng_exchange(eng_worker *w, const pl_buf *text, int nreq, uint64_t id, int64_t deadline,
                        pl_buf *action, pl_buf *why)
{
    size_t sent = 0;
    pl_buf in = {0};
    int r = ENG_BROKEN;
    for (;;) {
        int64_t left = deadline - eng_now();
        if (atomic_load(&w->e->quit)) {
            pl_buf_puts(why, "the server stops");
            break;
        }
        if (left <= 0) {
            pl_buf_printf(why, "no answer within %d ms", w->e->cfg.timeout_ms);
            break;
        }
        struct pollfd pf = {.fd = w->fd, .events = POLLIN | (sent < text->len ? POLLOUT : 0)};
        int pr = poll(&pf, 1, (int)(left < ENG_SLICE_MS ? left : ENG_SLICE_MS));
        if (pr < 0 && errno != EINTR) {
            pl_buf_printf(why, "poll: %s", strerror(errno));
            break;
        }
        if (pr <= 0)
            continue;
        if ((pf.revents & POLLOUT) && sent < text->len) {
            ssize_t k = send(w->fd, text->s + sent, text->len - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
            if (k < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                pl_buf_printf(why, "the worker went away (%s)", strerror(errno));
                r = ENG_DIED;
                break;
            }
            if (k > 0)
                sent += (size_t)k;
        }
        if (pf.revents & (POLLIN | POLLHUP | POLLERR)) {
            char chunk[4096];
            ssize_t k = recv(w->fd, chunk, sizeof chunk, MSG_DONTWAIT);
            if (k == 0 || (k < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
                pl_buf_puts(why, "the worker went away");
                r = ENG_DIED;
                break;
            }
            if (k > 0) {
                if (in.len + (size_t)k > ENG_MAX_OUTPUT) {
                    pl_buf_printf(why, "more than %d bytes of answers", ENG_MAX_OUTPUT);
                    break;
                }
                pl_buf_append(&in, chunk, (size_t)k);
                if (in.oom) {
                    pl_buf_puts(why, "out of memory");
                    break;
                }
                if (!memchr(chunk, '\n', (size_t)k) && !memchr(chunk, '\0', (size_t)k))
                    continue; /* no line ended: nothing new to read (bounds the parsing) */
                int p = eng_parse(in.s, in.len, nreq, id, action, why);
                if (p == 1)
                    continue;
                if (p == -2)
                    break;
                if (sent < text->len) {
                    pl_buf_puts(why, "answers before every request was sent");
                    break;
                }
                r = p == 0 ? ENG_OK : ENG_REFUSED;
                break;
            }
        }
    }
    pl_buf_free(&in);
    return r;
}

/* Runs `job` on worker `w`: job->action set, or job->failed. */
static void eng_run(eng_worker *w, hub_job *job)
{
    eng_pool *e = w->e;
    int64_t deadline = eng_now() + e->cfg.timeout_ms;
    pl_buf text = {0}, action = {0}, why = {0};
    int nreq = 0;
    /* The request count: one per line of the text. */
    for (const char *p = job->text; p && *p; p++)
        nreq += *p == '\n';
    pl_buf_puts(&text, job->text ? job->text : "");
    int r = ENG_BROKEN;
    job->failed = 1;
    if (!nreq || text.oom) {
        pl_buf_puts(&why, "no job text");
        goto out;
    }
    for (int attempt = 0; attempt < ENG_ATTEMPTS; attempt++) {
        if (w->pid > 0)
            eng_gone(w); /* died while idle: reaped here */
        if (w->pid <= 0 && eng_start(w) < 0) {
            pl_buf_clear(&why);
            pl_buf_puts(&why, "no worker running (it keeps failing to start)");
            r = ENG_BROKEN;
            break;
        }
        w->held = 0;
        pl_buf_clear(&why);
        r = eng_exchange(w, &text, nreq, job->id, deadline, &action, &why);
        if (r != ENG_DIED)
            break;
        pid_t pid = w->pid;
        /* Its end closed: it is exiting; a moment to reap it and learn why. */
        for (int i = 0; i < 20 && w->pid > 0 && !eng_gone(w); i++)
            nanosleep(&(struct timespec){0, 5 * 1000 * 1000}, NULL);
        if (w->pid > 0) { /* still there: it closed its end but runs on */
            eng_log(w, "pid %d went away (%s)", (int)pid, pl_buf_str(&why));
            eng_kill(w);
        }
        if (attempt == 0)
            eng_count(e, &e->st.retried);
    }
    if (r == ENG_DIED || r == ENG_BROKEN) {
        if (w->pid > 0) {
            eng_log(w, "pid %d killed: %s", (int)w->pid, pl_buf_str(&why));
            eng_kill(w);
            eng_count(e, &e->st.killed);
        }
        goto out;
    }
    w->fails = 0;
    w->answered++;
    if (r == ENG_OK) {
        pl_buf perr = {0};
        if (job->game->parse_action(job->state, job->seat, pl_buf_str(&action), &job->action, &perr) == 0)
            job->failed = 0;
        pl_buf_free(&perr);
    }
out:
    /* A failed job is logged; while the worker waits to start again, only the first. */
    if (job->failed && (w->pid > 0 || w->held++ == 0))
        eng_log(w, "job %" PRIu64 " failed (the fallback move plays): %s", job->id,
                why.len ? pl_buf_str(&why) : "its answer is not an action here");
    pl_buf_free(&text);
    pl_buf_free(&action);
    pl_buf_free(&why);
}

static void *eng_main(void *arg)
{
    eng_worker *w = arg;
    eng_pool *e = w->e;
    prctl(PR_SET_NAME, "engine-link");
    pthread_mutex_lock(&e->mu);
    for (;;) {
        while (!e->head && !atomic_load(&e->quit))
            pthread_cond_wait(&e->cv, &e->mu);
        if (!e->head)
            break; /* quit */
        eng_item *x = e->head;
        e->head = x->next;
        if (!e->head)
            e->tail = NULL;
        pthread_mutex_unlock(&e->mu);
        if (atomic_load(&e->quit))
            x->job->failed = 1;
        else
            eng_run(w, x->job);
        pthread_mutex_lock(&e->mu);
        if (x->job->failed)
            e->st.failed++;
        else
            e->st.answered++;
        pthread_mutex_unlock(&e->mu);
        e->done(e->ctx, x->job, x->tag);
        pl_free(x);
        pthread_mutex_lock(&e->mu);
    }
    pthread_mutex_unlock(&e->mu);
    eng_kill(w);
    return NULL;
}

eng_pool *eng_new(const eng_config *cfg, eng_done_fn done, void *ctx, pl_buf *err)
{
    int n = cfg->n ? cfg->n : 1;
    if (n < 1 || n > ENG_MAX_WORKERS || cfg->timeout_ms < 0 || !done) {
        pl_buf_printf(err, "engines: 1 to %d workers and a timeout of at least 1 ms", ENG_MAX_WORKERS);
        return NULL;
    }
    if (cfg->cmd && !*cfg->cmd) {
        pl_buf_puts(err, "engines: the worker command is empty");
        return NULL;
    }
    eng_pool *e = pl_calloc(1, sizeof *e);
    if (!e) {
        pl_buf_puts(err, "out of memory");
        return NULL;
    }
    e->cfg = *cfg;
    e->cfg.n = n;
    if (!e->cfg.timeout_ms)
        e->cfg.timeout_ms = ENG_TIMEOUT_MS;
    e->done = done;
    e->ctx = ctx;
    pthread_mutex_init(&e->mu, NULL);
    pthread_cond_init(&e->cv, NULL);
    if (cfg->cmd) {
        e->cmd = pl_strdup(cfg->cmd);
    } else if (cfg->self) {
        e->self = pl_strdup(cfg->self);
    } else {
        char exe[PATH_MAX];
        ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (k <= 0) {
            pl_buf_printf(err, "engines: cannot find this program (/proc/self/exe): %s", strerror(errno));
            eng_free(e);
            return NULL;
        }
        exe[k] = '\0';
        e->self = pl_strdup(exe);
    }
    e->w = pl_calloc((size_t)n, sizeof *e->w);
    if ((!e->cmd && !e->self) || !e->w) {
        pl_buf_puts(err, "out of memory");
        eng_free(e);
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        eng_worker *w = &e->w[i];
        w->e = e;
        w->idx = i;
        w->fd = -1;
        if (pthread_create(&w->th, NULL, eng_main, w)) {
            pl_buf_puts(err, "engines: cannot start a thread");
            eng_free(e);
            return NULL;
        }
        w->started = 1;
    }
    return e;
}

int eng_submit(eng_pool *e, hub_job *job, void *tag)
{
    eng_item *x = pl_malloc(sizeof *x);
    if (!x)
        return -1;
    x->next = NULL;
    x->job = job;
    x->tag = tag;
    pthread_mutex_lock(&e->mu);
    if (e->tail)
        e->tail->next = x;
    else
        e->head = x;
    e->tail = x;
    e->st.jobs++;
    pthread_cond_signal(&e->cv);
    pthread_mutex_unlock(&e->mu);
    return 0;
}

void eng_get_stats(eng_pool *e, eng_stats *out)
{
    pthread_mutex_lock(&e->mu);
    *out = e->st;
    pthread_mutex_unlock(&e->mu);
}

void eng_free(eng_pool *e)
{
    if (!e)
        return;
    pthread_mutex_lock(&e->mu);
    atomic_store(&e->quit, 1);
    pthread_cond_broadcast(&e->cv);
    pthread_mutex_unlock(&e->mu);
    /* Each thread fails what is queued (the queue drains before it quits),
     * then kills its worker. */
    for (int i = 0; e->w && i < e->cfg.n; i++)
        if (e->w[i].started)
            pthread_join(e->w[i].th, NULL);
    for (eng_item *x = e->head, *next; x; x = next) { /* no thread ran: fail them here */
        next = x->next;
        x->job->failed = 1;
        e->done(e->ctx, x->job, x->tag);
        pl_free(x);
    }
    pl_free(e->w);
    pl_free(e->cmd);
    pl_free(e->self);
    pthread_cond_destroy(&e->cv);
    pthread_mutex_destroy(&e->mu);
    pl_free(e);
}
