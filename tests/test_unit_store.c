/* test_unit_store.c — the server's store (src/server/store.h), the same
 * cases against each backend: SQLite always, PostgreSQL when a throw-away
 * cluster can be started (deploy/pg.sh; PARLOUR_PG_URL names one already
 * running instead) — where it cannot, the PostgreSQL cases are skipped with
 * the reason, not failed. Rooms and actions round-trip, every refusal leaves
 * the database as it was, leases fence writes between processes, and a
 * process killed with SIGKILL at random moments never loses an action that
 * store_append had returned for (the server acknowledges an action to its
 * client only then). */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <math.h>

#include "helpers.h"
#include "store_backend.h"
#include "parlour/rating.h"
#include "parlour/rng.h"
#include "store.h"
#include <sqlite3.h>

static const backend *B; /* the backend of the running group */

/* A fresh database path in the test's working directory. */
static void db_path(char *out, size_t n, const char *name)
{
    snprintf(out, n, "store_test_%s_%ld.db", name, (long)getpid());
    char side[512];
    unlink(out);
    snprintf(side, sizeof side, "%s-wal", out);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", out);
    unlink(side);
}

static void db_remove(const char *path)
{
    char side[512];
    unlink(path);
    snprintf(side, sizeof side, "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", path);
    unlink(side);
}

static store *open_ok(const char *path)
{
    pl_buf err = {0};
    store *s = store_open(path, &err);
    if (!s)
        fail_msg("store_open %s: %s", path, pl_buf_str(&err));
    pl_buf_free(&err);
    return s;
}

static void room_ok(store *s, const char *code, const char *game, uint64_t seed)
{
    store_room r = {.code = code, .game = game, .options = "pieces=3", .config = "{\"seats\":2}",
                    .seed = seed, .created_ms = 1000};
    pl_buf err = {0};
    if (store_room_put(s, &r, &err) < 0)
        fail_msg("room %s: %s", code, pl_buf_str(&err));
    pl_buf_free(&err);
}

/* Appends must fail with a message holding `want` and change nothing. */
static void append_refused(store *s, const store_action *a, int n, const char *want)
{
    pl_buf err = {0};
    int64_t before = store_count(s, a[0].room, &err);
    pl_buf_clear(&err);
    if (store_append(s, a, n, &err) == 0)
        fail_msg("append accepted; wanted '%s'", want);
    if (!strstr(pl_buf_str(&err), want))
        fail_msg("append: '%s' lacks '%s'", pl_buf_str(&err), want);
    pl_buf_clear(&err);
    int64_t after = store_count(s, a[0].room, &err);
    pl_buf_free(&err);
    if (before >= 0)
        assert_int_equal(before, after);
}

typedef struct {
    char text[16][32];
    int seat[16];
    int64_t seq[16];
    int n;
} seen_actions;

static int collect(void *ctx, const store_action *a)
{
    seen_actions *v = ctx;
    if (v->n < 16) {
        snprintf(v->text[v->n], sizeof v->text[0], "%s", a->text);
        v->seat[v->n] = a->seat;
        v->seq[v->n] = a->seq;
        v->n++;
    }
    return 0;
}

typedef struct {
    char codes[8][32];
    uint64_t seed[8];
    int finished[8];
    int n;
} seen_rooms;

static int collect_room(void *ctx, const store_room *r, int finished, const char *result)
{
    seen_rooms *v = ctx;
    (void)result;
    if (v->n < 8) {
        snprintf(v->codes[v->n], sizeof v->codes[0], "%s", r->code);
        v->seed[v->n] = r->seed;
        v->finished[v->n] = finished;
        v->n++;
    }
    return 0;
}

static void test_rooms_and_actions_round_trip(void **st)
{
    (void)st;
    NEED_BACKEND();
    char path[256];
    B->fresh(path, sizeof path, "trip");
    store *s = open_ok(path);
    room_ok(s, "room-a", "ur", UINT64_MAX); /* the seed's top bit survives */
    room_ok(s, "room-b", "tamcuc", 42);
    store_action batch[] = {
        {"room-a", 0, -1, "roll 2", 1},
        {"room-a", 1, 0, "enter", 2},
        {"room-b", 0, -1, "deal", 3},
        {"room-a", 2, -1, "roll 0", 4},
    };
    pl_buf err = {0};
    assert_int_equal(store_append(s, batch, 4, &err), 0);
    assert_int_equal(store_append(s, batch, 0, &err), 0);
    assert_int_equal(store_finish(s, "room-b", "{\"winner\":1}", &err), 0);
    store_close(s);

    s = open_ok(path); /* what was committed is there after reopening */
    seen_actions v = {0};
    assert_int_equal(store_actions(s, "room-a", collect, &v, &err), 0);
    assert_int_equal(v.n, 3);
    assert_string_equal(v.text[0], "roll 2");
    assert_string_equal(v.text[1], "enter");
    assert_int_equal(v.seat[1], 0);
    assert_int_equal(v.seat[2], -1);
    assert_int_equal(v.seq[2], 2);
    assert_int_equal(store_count(s, "room-b", &err), 1);
    seen_rooms all = {0}, open = {0};
    assert_int_equal(store_rooms(s, 0, collect_room, &all, &err), 0);
    assert_int_equal(store_rooms(s, 1, collect_room, &open, &err), 0);
    assert_int_equal(all.n, 2);
    assert_int_equal(open.n, 1);
    assert_string_equal(open.codes[0], "room-a");
    assert_true(open.seed[0] == UINT64_MAX);
    store_close(s);
    pl_buf_free(&err);
    B->drop(path);
}

/* The SQLite store keeps each room's next seq after a commit (the seq
 * cache): batches that mix rooms, a refused batch (which must leave the
 * cache as the database is), then a finished room, all read as the
 * database holds them. */
static void test_seq_cache_follows_commits(void **st)
{
    (void)st;
    NEED_BACKEND();
    char path[256];
    B->fresh(path, sizeof path, "seqcache");
    store *s = open_ok(path);
    room_ok(s, "a", "ur", 1);
    room_ok(s, "b", "ur", 2);
    pl_buf err = {0};
    store_action mixed[] = {{"a", 0, 0, "A0", 1}, {"b", 0, 0, "B0", 1}, {"a", 1, 1, "A1", 1}};
    assert_int_equal(store_append(s, mixed, 3, &err), 0);
    /* A room's second run in a batch continues its first: a's 2 again is refused. */
    store_action back[] = {{"a", 2, 0, "A2", 1}, {"b", 1, 0, "B1", 1}, {"a", 2, 0, "A2", 1}};
    append_refused(s, back, 3, "room 'a': action 3 expected, not 2");
    /* Refused at its last action: a's 2 and b's 1 must not count. */
    store_action bad[] = {{"b", 1, 0, "B1", 1}, {"a", 2, 0, "A2", 1}, {"b", 9, 0, "B9", 1}};
    append_refused(s, bad, 3, "action 2 expected, not 9");
    store_action again[] = {{"a", 3, 0, "A3", 1}};
    append_refused(s, again, 1, "action 2 expected, not 3");
    store_action good[] = {{"a", 2, 0, "A2", 1}, {"b", 1, 1, "B1", 1}, {"b", 2, 0, "B2", 1}};
    assert_int_equal(store_append(s, good, 3, &err), 0);
    assert_int_equal(store_count(s, "a", &err), 3);
    assert_int_equal(store_count(s, "b", &err), 3);
    assert_int_equal(store_finish(s, "a", "1-0", &err), 0);
    store_action late[] = {{"a", 3, 0, "A3", 1}};
    append_refused(s, late, 1, "is finished");
    store_action more[] = {{"b", 3, 1, "B3", 1}};
    assert_int_equal(store_append(s, more, 1, &err), 0);
    seen_actions v = {0};
    assert_int_equal(store_actions(s, "b", collect, &v, &err), 0);
    assert_int_equal(v.n, 4);
    assert_int_equal(v.seq[3], 3);
    store_close(s);
    /* A new handle on the same database starts with no cache. */
    s = open_ok(path);
    store_action next[] = {{"b", 3, 1, "B3", 1}};
    append_refused(s, next, 1, "action 4 expected, not 3");
    store_action fine[] = {{"b", 4, 0, "B4", 1}};
    assert_int_equal(store_append(s, fine, 1, &err), 0);
    store_close(s);
    pl_buf_free(&err);
    B->drop(path);
}

/* The size of file `path` in bytes, or -1. */
static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* A file's log is copied back into the database by the store's checkpoint
 * thread, not by the commits: after commits that leave more than CK_PAGES
 * (8,000) pages and fewer than CK_BACKSTOP (32,000) in the log, the database
 * file grows to hold them within seconds, while nothing is written; and
 * closing the store ends the thread. */
static void test_sqlite_checkpoints_on_their_thread(void **st)
{
    (void)st;
    NEED_BACKEND();
    if (!B->sqlite)
        skip();
    char path[256];
    B->fresh(path, sizeof path, "ckpt");
    store *s = open_ok(path);
    room_ok(s, "big", "ur", 1);
    pl_buf err = {0};
    static char text[1500];
    memset(text, 'x', sizeof text - 1);
    store_action a[10];
    for (int b = 0; b < 2400; b++) { /* 24,000 actions of 1.5 KB: about 9,000 pages of rows */
        for (int i = 0; i < 10; i++)
            a[i] = (store_action){"big", b * 10 + i, 0, text, 1};
        assert_int_equal(store_append(s, a, 10, &err), 0);
    }
    char wal[300];
    snprintf(wal, sizeof wal, "%s-wal", path);
    long db_size = file_size(path);
    for (int tries = 0; tries < 200 && db_size < 32000000; tries++) {
        usleep(50000);
        db_size = file_size(path);
    }
    long wal_size = file_size(wal);
    if (db_size < 32000000)
        fail_msg("the database file has %ld bytes (log %ld): no checkpoint copied the log", db_size, wal_size);
    assert_int_equal(store_count(s, "big", &err), 24000);
    store_close(s);
    s = open_ok(path);
    assert_int_equal(store_count(s, "big", &err), 24000);
    store_close(s);
    pl_buf_free(&err);
    B->drop(path);
}

/* An action's text for test_sqlite_big_commits: "seq N " then a letter of
 * N's, 1,000 to 1,999 bytes in all. */
static void big_text(char *out, size_t n, int64_t seq)
{
    int len = snprintf(out, n, "seq %lld ", (long long)seq);
    int want = 1000 + (int)(seq * 7919 % 1000);
    memset(out + len, 'a' + (int)(seq % 26), (size_t)(want - len));
    out[want] = 0;
}

/* store_actions' callback for a history whose texts `text` writes: `ctx`
 * is a text_check; `next` counts the actions that matched, in order. */
typedef struct {
    void (*text)(char *out, size_t n, int64_t seq);
    int64_t next;
} text_check;

static int check_texts(void *ctx, const store_action *a)
{
    text_check *c = ctx;
    char want[2048];
    c->text(want, sizeof want, c->next);
    if (a->seq != c->next || strcmp(a->text, want))
        return 1;
    c->next++;
    return 0;
}

/* The log's writes of a commit go out in one system call through
 * store_walbuf.c's VFS, up to 120 KiB at a time: commits of 1 to 140
 * actions of 1 to 2 KB (up to 280 KB, several buffers, some about the unix
 * VFS's 128 KiB a write) all come back whole after a reopening, and the
 * store's file went through that VFS. */
static void test_sqlite_big_commits(void **st)
{
    (void)st;
    NEED_BACKEND();
    if (!B->sqlite)
        skip();
    char path[256];
    B->fresh(path, sizeof path, "bigc");
    store *s = open_ok(path);
    assert_non_null(sqlite3_vfs_find("parlour-walbuf"));
    room_ok(s, "b", "ur", 1);
    pl_buf err = {0};
    static char texts[140][2048];
    store_action a[140];
    static const int sizes[] = {1, 2, 31, 60, 61, 62, 63, 64, 65, 66, 100, 120, 128, 140, 3, 1};
    int64_t seq = 0;
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        for (int i = 0; i < sizes[k]; i++) {
            big_text(texts[i], sizeof texts[i], seq + i);
            a[i] = (store_action){"b", seq + i, 0, texts[i], 1};
        }
        if (store_append(s, a, sizes[k], &err) != 0)
            fail_msg("a commit of %d actions: %s", sizes[k], pl_buf_str(&err));
        seq += sizes[k];
    }
    for (int reopen = 0; reopen < 2; reopen++) {
        text_check c = {big_text, 0};
        if (store_actions(s, "b", check_texts, &c, &err) != 0 || c.next != seq)
            fail_msg("read back %lld of %lld actions whole", (long long)c.next, (long long)seq);
        store_close(s);
        if (!reopen)
            s = open_ok(path);
    }
    pl_buf_free(&err);
    B->drop(path);
}

static void test_refusals_change_nothing(void **st)
{
    (void)st;
    NEED_BACKEND();
    char path[256];
    B->fresh(path, sizeof path, "refuse");
    store *s = open_ok(path);
    room_ok(s, "r1", "cbw", 7);
    pl_buf err = {0};
    store_room dup = {.code = "r1", .game = "cbw", .options = "", .config = "{}", .seed = 1};
    assert_int_equal(store_room_put(s, &dup, &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "exists"));
    pl_buf_clear(&err);
    store_room bad = {.code = "", .game = "cbw", .options = "", .config = "{}"};
    assert_int_equal(store_room_put(s, &bad, &err), -1);
    pl_buf_clear(&err);

    store_action first[] = {{"r1", 0, 0, "A1", 1}};
    assert_int_equal(store_append(s, first, 1, &err), 0);
    store_action gap[] = {{"r1", 2, 0, "B1", 1}};
    append_refused(s, gap, 1, "action 1 expected, not 2");
    store_action again[] = {{"r1", 0, 0, "A1", 1}};
    append_refused(s, again, 1, "action 1 expected, not 0");
    /* A batch whose last action is wrong writes none of it. */
    store_action half[] = {{"r1", 1, 0, "B1", 1}, {"r1", 2, 1, "C1", 1}, {"r1", 9, 0, "D1", 1}};
    append_refused(s, half, 3, "action 3 expected, not 9");
    store_action nobody[] = {{"nowhere", 0, 0, "A1", 1}};
    append_refused(s, nobody, 1, "no room 'nowhere'");
    store_action noseat[] = {{"r1", 1, -3, "A1", 1}};
    append_refused(s, noseat, 1, "seat -3");
    assert_int_equal(store_count(s, "r1", &err), 1);

    assert_int_equal(store_finish(s, "r1", NULL, &err), 0);
    assert_int_equal(store_finish(s, "r1", NULL, &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "finished already"));
    pl_buf_clear(&err);
    store_action late[] = {{"r1", 1, 0, "B1", 1}};
    append_refused(s, late, 1, "is finished");
    assert_int_equal(store_finish(s, "nowhere", NULL, &err), -1);
    assert_int_equal(store_actions(s, "nowhere", collect, &(seen_actions){0}, &err), -1);
    store_close(s);
    store_close(NULL);

    pl_buf_clear(&err);
    if (B->sqlite) {
        assert_null(store_open("/nonexistent-dir/x.db", &err));
        assert_non_null(strstr(pl_buf_str(&err), "cannot open /nonexistent-dir/x.db"));
    } else {
        assert_null(store_open("postgresql:///no_such_db?host=/nonexistent-dir", &err));
        assert_non_null(strstr(pl_buf_str(&err), "cannot connect"));
    }
    pl_buf_free(&err);
    B->drop(path);
}

/* The child writer's texts: "move N". */
static void move_text(char *out, size_t n, int64_t seq)
{
    snprintf(out, n, "move %lld", (long long)seq);
}

/* The child: appends batches of 1..4 actions to room "k" forever, writing the
 * last seq of each batch to `fd` after store_append returned (the
 * acknowledgement a client would get). */
static void child_writer(const char *path, int fd, uint64_t seed)
{
    pl_buf err = {0};
    store *s = store_open(path, &err);
    if (!s)
        _exit(2);
    int64_t next = store_count(s, "k", &err);
    if (next < 0)
        _exit(3);
    pl_rng r;
    pl_rng_seed(&r, seed);
    for (;;) {
        int n = 1 + (int)pl_rng_below(&r, 4);
        store_action a[4];
        char text[4][24];
        for (int i = 0; i < n; i++) {
            move_text(text[i], sizeof text[i], next + i);
            a[i] = (store_action){"k", next + i, i % 2, text[i], next + i};
        }
        if (store_append(s, a, n, &err) < 0)
            _exit(4);
        next += n;
        int64_t ack = next - 1;
        if (write(fd, &ack, sizeof ack) != (ssize_t)sizeof ack)
            _exit(5);
    }
}

static void test_kill_9_loses_no_acknowledged_action(void **st)
{
    (void)st;
    NEED_BACKEND();
    char path[256];
    B->fresh(path, sizeof path, "kill");
    store *s = open_ok(path);
    room_ok(s, "k", "ur", 1);
    store_close(s);
    pl_rng r;
    pl_rng_seed(&r, 2026);
    int64_t acked = -1;
    for (int round = 0; round < 12; round++) {
        int fds[2];
        assert_int_equal(pipe(fds), 0);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            close(fds[0]);
            child_writer(path, fds[1], pl_rng_next(&r) + (uint64_t)round);
        }
        close(fds[1]);
        /* Let it acknowledge a random number of batches, then kill it
         * wherever it is (inside a commit, between two, in a write). */
        int want = 5 + (int)pl_rng_below(&r, 60);
        for (int got = 0; got < want;) {
            int64_t a;
            ssize_t k = read(fds[0], &a, sizeof a);
            if (k == (ssize_t)sizeof a) {
                acked = a;
                got++;
            } else if (k <= 0 && errno != EINTR) {
                fail_msg("round %d: the writer stopped early", round);
            }
        }
        usleep((useconds_t)pl_rng_below(&r, 3000));
        kill(pid, SIGKILL);
        int status;
        waitpid(pid, &status, 0);
        assert_true(WIFSIGNALED(status));
        int64_t a; /* acknowledgements written before the kill still count */
        while (read(fds[0], &a, sizeof a) == (ssize_t)sizeof a)
            acked = a;
        close(fds[0]);

        s = open_ok(path);
        pl_buf err = {0};
        text_check c = {move_text, 0};
        if (store_actions(s, "k", check_texts, &c, &err) != 0)
            fail_msg("round %d: history broken at %lld", round, (long long)c.next);
        int64_t expect = c.next;
        if (expect - 1 < acked)
            fail_msg("round %d: acknowledged %lld, kept only up to %lld", round, (long long)acked,
                     (long long)(expect - 1));
        pl_buf_free(&err);
        store_close(s);
    }
    B->drop(path);
}

static int grab_config(void *ctx, const store_room *r, int finished, const char *result)
{
    (void)finished;
    (void)result;
    snprintf(ctx, 64, "%s", r->config);
    return 0;
}

/* store_room_config replaces a room's configuration (the server's seats as
 * people join) and survives a reopening; an unknown room is refused; a
 * ":memory:" store works without a file. */
static void test_room_config(void **st)
{
    (void)st;
    NEED_BACKEND();
    char path[256];
    B->fresh(path, sizeof path, "config");
    store *s = open_ok(path);
    room_ok(s, "c", "ur", 5);
    pl_buf err = {0};
    assert_int_equal(store_room_config(s, "c", "{\"seats\":[\"ann\"]}", &err), 0);
    assert_int_equal(store_room_config(s, "nope", "{}", &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "no room"));
    store_close(s);
    s = open_ok(path);
    char cfg[64] = "";
    assert_int_equal(store_rooms(s, 0, grab_config, cfg, &err), 0);
    assert_string_equal(cfg, "{\"seats\":[\"ann\"]}");
    store_close(s);
    B->drop(path);
    if (!B->sqlite) {
        pl_buf_free(&err);
        return;
    }
    s = open_ok(":memory:");
    room_ok(s, "m", "ur", 1);
    store_action a = {"m", 0, -1, "roll 1", 1};
    assert_int_equal(store_append(s, &a, 1, &err), 0);
    assert_int_equal(store_count(s, "m", &err), 1);
    store_close(s);
    pl_buf_free(&err);
}

static store *owned(const char *path, const char *owner)
{
    store *s = open_ok(path);
    pl_buf err = {0};
    if (store_set_owner(s, owner, &err) < 0)
        fail_msg("owner %s: %s", owner, pl_buf_str(&err));
    pl_buf_free(&err);
    return s;
}

static int beat(store *s, int64_t ttl_ms)
{
    pl_buf err = {0};
    int r = store_owner_beat(s, ttl_ms, &err);
    if (r < 0)
        fail_msg("beat: %s", pl_buf_str(&err));
    pl_buf_free(&err);
    return r;
}

static int take(store *s, const char *code, pl_buf *holder)
{
    pl_buf err = {0};
    if (holder)
        pl_buf_clear(holder);
    int r = store_lease_take(s, code, holder, &err);
    if (r < 0)
        fail_msg("take %s: %s", code, pl_buf_str(&err));
    pl_buf_free(&err);
    return r;
}

static void append_one(store *s, const char *room, int64_t seq, const char *text)
{
    store_action a = {room, seq, 0, text, 1};
    pl_buf err = {0};
    if (store_append(s, &a, 1, &err) != 0)
        fail_msg("append %s %lld: %s", room, (long long)seq, pl_buf_str(&err));
    pl_buf_free(&err);
}

/* The append must come back STORE_LOST, name the room, and write nothing. */
static void append_lost(store *s, const char *room, int64_t seq, const char *text)
{
    pl_buf err = {0};
    int64_t before = store_count(s, room, &err);
    store_action a = {room, seq, 0, text, 1};
    int rc = store_append(s, &a, 1, &err);
    if (rc != STORE_LOST)
        fail_msg("append %s by a handle without the lease: %d (%s)", room, rc, pl_buf_str(&err));
    assert_string_equal(store_lost_room(s), room);
    assert_non_null(strstr(pl_buf_str(&err), room));
    assert_int_equal(store_count(s, room, &err), before);
    pl_buf_free(&err);
}

static void history_is(store *s, const char *room, const char *const *want, int n)
{
    seen_actions v = {0};
    pl_buf err = {0};
    assert_int_equal(store_actions(s, room, collect, &v, &err), 0);
    pl_buf_free(&err);
    assert_int_equal(v.n, n);
    for (int i = 0; i < n; i++)
        assert_string_equal(v.text[i], want[i]);
}

/* Two handles with two owners on one database: only the lease holder
 * writes; once the holder's heartbeat expires the other takes the room and
 * the old holder's writes come back STORE_LOST with nothing written, even
 * after it beats again (the beat says 0: it had expired). */
static void test_leases_fence_writes_between_owners(void **st)
{
    (void)st;
    NEED_BACKEND();
    char path[256];
    B->fresh(path, sizeof path, "lease");
    store *a = owned(path, "host:1:a"), *b = owned(path, "host:2:b");
    pl_buf err = {0}, holder = {0};
    assert_string_equal(store_lost_room(a), "");
    assert_int_equal(beat(a, 60000), 0); /* a new owner */
    assert_int_equal(beat(a, 60000), 1); /* alive */
    assert_int_equal(beat(b, 60000), 0);
    room_ok(a, "L", "ur", 3); /* its creator holds it */
    append_one(a, "L", 0, "a0");

    assert_int_equal(take(b, "L", &holder), 0);
    assert_string_equal(pl_buf_str(&holder), "host:1:a");
    append_lost(b, "L", 1, "b1");
    assert_int_equal(store_finish(b, "L", NULL, &err), STORE_LOST);
    assert_int_equal(store_room_config(b, "L", "{\"by\":\"b\"}", &err), STORE_LOST);
    char cfg[64] = "";
    assert_int_equal(store_room_get(a, "L", grab_config, cfg, &err), 0);
    assert_string_equal(cfg, "{\"seats\":2}");
    seen_rooms open = {0};
    assert_int_equal(store_rooms(a, 1, collect_room, &open, &err), 0);
    assert_int_equal(open.n, 1); /* not finished by b */
    append_one(a, "L", 1, "a1");
    assert_int_equal(take(a, "L", NULL), 1); /* keeping it */

    /* a's heartbeat runs out (ttl 0: expired at once, as if it hung) */
    assert_int_equal(beat(a, 0), 1);
    append_lost(a, "L", 2, "a2"); /* an expired owner writes nothing */
    assert_int_equal(take(b, "L", &holder), 1);
    assert_int_equal(beat(a, 60000), 0); /* a learns it had expired */
    append_lost(a, "L", 2, "a2");        /* and that b has the room */
    assert_int_equal(store_finish(a, "L", NULL, &err), STORE_LOST);
    assert_int_equal(store_room_config(a, "L", "{\"by\":\"a\"}", &err), STORE_LOST);
    assert_int_equal(take(a, "L", &holder), 0);
    assert_string_equal(pl_buf_str(&holder), "host:2:b");
    append_one(b, "L", 2, "b2");
    assert_int_equal(store_room_config(b, "L", "{\"by\":\"b\"}", &err), 0);

    /* b lets it go (twice: not holding is no error); a takes it back. */
    assert_int_equal(store_lease_drop(b, "L", &err), 0);
    assert_int_equal(store_lease_drop(b, "L", &err), 0);
    append_lost(b, "L", 3, "b3");
    assert_int_equal(take(a, "L", NULL), 1);
    append_one(a, "L", 3, "a3");
    assert_int_equal(store_finish(a, "L", "{}", &err), 0);
    const char *const want[] = {"a0", "a1", "b2", "a3"};
    history_is(b, "L", want, 4);
    assert_int_equal(store_room_get(b, "L", grab_config, cfg, &err), 0);
    assert_string_equal(cfg, "{\"by\":\"b\"}");

    /* A handle with no owner (one process) checks no lease. */
    store *c = open_ok(path);
    room_ok(c, "free", "ur", 1);
    append_one(c, "free", 0, "c0");
    store_close(c);
    store_close(a);
    store_close(b);
    pl_buf_free(&err);
    pl_buf_free(&holder);
    B->drop(path);
}

/* Heartbeats and leases refuse what they cannot do, with a message. */
static void test_lease_refusals(void **st)
{
    (void)st;
    NEED_BACKEND();
    char path[256];
    B->fresh(path, sizeof path, "lease_refuse");
    store *s = open_ok(path);
    room_ok(s, "R", "ur", 1);
    pl_buf err = {0};
    assert_int_equal(store_owner_beat(s, 1000, &err), -1); /* no owner yet */
    assert_non_null(strstr(pl_buf_str(&err), "no owner"));
    pl_buf_clear(&err);
    assert_int_equal(store_lease_take(s, "R", NULL, &err), -1);
    assert_int_equal(store_lease_drop(s, "R", &err), -1);
    char long_id[260];
    memset(long_id, 'x', sizeof long_id - 1);
    long_id[sizeof long_id - 1] = '\0';
    pl_buf_clear(&err);
    assert_int_equal(store_set_owner(s, long_id, &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "200"));
    assert_int_equal(store_owner_beat(s, 1000, &err), -1); /* still none */
    assert_int_equal(store_set_owner(s, "me", &err), 0);
    pl_buf_clear(&err);
    assert_int_equal(store_lease_take(s, "R", NULL, &err), -1); /* never beat */
    assert_non_null(strstr(pl_buf_str(&err), "expired"));
    assert_int_equal(beat(s, 60000), 0);
    pl_buf_clear(&err);
    assert_int_equal(store_lease_take(s, "nowhere", NULL, &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "no room 'nowhere'"));
    /* R has no lease at all: an owner's write needs one. */
    append_lost(s, "R", 0, "x");
    assert_int_equal(take(s, "R", NULL), 1);
    append_one(s, "R", 0, "x");
    assert_int_equal(store_set_owner(s, NULL, &err), 0); /* back to none */
    append_one(s, "R", 1, "y");
    store_close(s);
    pl_buf_free(&err);
    B->drop(path);
}

/* Several processes take the lease of one expired owner's room at the same
 * moment: exactly one of them gets it. */
static void test_lease_race_has_one_winner(void **st)
{
    (void)st;
    NEED_BACKEND();
    char path[256];
    B->fresh(path, sizeof path, "race");
    store *dead = owned(path, "dead");
    assert_int_equal(beat(dead, 60000), 0);
    room_ok(dead, "X", "ur", 1);
    assert_int_equal(beat(dead, 0), 1); /* it dies */
    store_close(dead);
    enum { KIDS = 4 };
    int go[2], ready[2];
    assert_int_equal(pipe(go), 0);
    assert_int_equal(pipe(ready), 0);
    pid_t pid[KIDS];
    for (int k = 0; k < KIDS; k++) {
        pid[k] = fork();
        assert_true(pid[k] >= 0);
        if (pid[k] == 0) {
            close(go[1]);
            close(ready[0]);
            char id[32];
            snprintf(id, sizeof id, "kid-%d", k);
            pl_buf err = {0};
            store *s = store_open(path, &err);
            if (!s || store_set_owner(s, id, &err) < 0 || store_owner_beat(s, 60000, &err) < 0)
                _exit(2);
            char c = 'r', g;
            if (write(ready[1], &c, 1) != 1 || read(go[0], &g, 1) != 0) /* waits for the start */
                _exit(3);
            int r = store_lease_take(s, "X", NULL, &err);
            store_close(s);
            _exit(r < 0 ? 4 : 10 + r);
        }
    }
    close(go[0]);
    close(ready[1]);
    for (int k = 0; k < KIDS; k++) {
        char c;
        assert_int_equal(read(ready[0], &c, 1), 1);
    }
    close(go[1]); /* all of them at once */
    close(ready[0]);
    int won = 0, lost = 0;
    for (int k = 0; k < KIDS; k++) {
        int status;
        assert_int_equal(waitpid(pid[k], &status, 0), pid[k]);
        assert_true(WIFEXITED(status));
        won += WEXITSTATUS(status) == 11;
        lost += WEXITSTATUS(status) == 10;
    }
    assert_int_equal(won, 1);
    assert_int_equal(lost, KIDS - 1);
    B->drop(path);
}

typedef struct {
    char game[16], options[16], config[32], result[16];
    uint64_t seed;
    int64_t created_ms;
    int finished, calls;
} got_room;

static int grab_room(void *ctx, const store_room *r, int finished, const char *result)
{
    got_room *g = ctx;
    snprintf(g->game, sizeof g->game, "%s", r->game);
    snprintf(g->options, sizeof g->options, "%s", r->options);
    snprintf(g->config, sizeof g->config, "%s", r->config);
    snprintf(g->result, sizeof g->result, "%s", result ? result : "(null)");
    g->seed = r->seed;
    g->created_ms = r->created_ms;
    g->finished = finished;
    g->calls++;
    return 0;
}

static int stop_walk(void *ctx, const store_room *r, int finished, const char *result)
{
    (void)ctx, (void)r, (void)finished, (void)result;
    return 7;
}

/* store_room_get finds one room, finished or not, and says 1 for none. */
static void test_room_get(void **st)
{
    (void)st;
    NEED_BACKEND();
    char path[256];
    B->fresh(path, sizeof path, "get");
    store *s = open_ok(path);
    room_ok(s, "g1", "tamcuc", UINT64_MAX - 1);
    room_ok(s, "g2", "ur", 9);
    pl_buf err = {0};
    got_room g = {0};
    assert_int_equal(store_room_get(s, "g1", grab_room, &g, &err), 0);
    assert_int_equal(g.calls, 1);
    assert_string_equal(g.game, "tamcuc");
    assert_string_equal(g.options, "pieces=3");
    assert_string_equal(g.config, "{\"seats\":2}");
    assert_true(g.seed == UINT64_MAX - 1);
    assert_int_equal(g.created_ms, 1000);
    assert_int_equal(g.finished, 0);
    assert_string_equal(g.result, "(null)");
    assert_int_equal(store_finish(s, "g2", "{\"w\":0}", &err), 0);
    g = (got_room){0};
    assert_int_equal(store_room_get(s, "g2", grab_room, &g, &err), 0);
    assert_int_equal(g.finished, 1);
    assert_string_equal(g.result, "{\"w\":0}");
    g = (got_room){0};
    assert_int_equal(store_room_get(s, "g3", grab_room, &g, &err), 1);
    assert_int_equal(g.calls, 0);
    assert_int_equal(store_room_get(s, "g1", stop_walk, NULL, &err), 7);
    assert_int_equal(store_room_get(s, NULL, grab_room, &g, &err), -1);
    store_close(s);
    pl_buf_free(&err);
    B->drop(path);
}

/* Ratings (issue 33 §2): a rated finish writes the room's finish and every
 * account seat's new rating in one transaction: a new player rated from
 * 1500/350; the update pl_rating_update gives; a computer seat's fixed
 * rating used and never stored; the idle deviation grows before the next
 * game; a refused finish (finished already, an account that does not
 * exist, an account on two seats) writes neither the finish nor a rating;
 * the pool lookup gives a stored rating or a new player's. */
static void test_rated_finish_one_transaction(void **st)
{
    (void)st;
    NEED_BACKEND();
    char path[256];
    B->fresh(path, sizeof path, "rated");
    store *s = open_ok(path);
    pl_buf err = {0};
    int64_t a = 0, b = 0;
    assert_int_equal(store_account_put(s, "Ann", "ann", "h1", 1, &a, &err), 0);
    assert_int_equal(store_account_put(s, "Bob", "bob", "h2", 1, &b, &err), 0);
    room_ok(s, "r1", "ur", 1);
    room_ok(s, "r2", "ur", 2);
    room_ok(s, "r3", "ur", 3);
    const int64_t day = 86400000;
    store_rated_seat seats[2] = {{.account = a, .team = 0, .rank = 0}, {.account = b, .team = 1, .rank = 1}};
    assert_int_equal(store_finish_rated(s, "r1", "{\"winner\":0}", "ur/finkel", seats, 2, 10 * day, &err), 0);
    pl_glicko2 nw = STORE_RATING_NEW;
    assert_true(seats[0].before.rating == nw.rating && seats[0].before.deviation == nw.deviation);
    pl_rating_seat rs[2] = {{nw, 0, 0, false}, {nw, 1, 1, false}};
    pl_glicko2 want[2];
    assert_int_equal(pl_rating_update(rs, 2, want, &err), 0);
    assert_true(seats[0].after.rating == want[0].rating && seats[1].after.rating == want[1].rating);
    assert_true(seats[0].after.rating > 1500 && seats[1].after.rating < 1500);
    store_rating got[4];
    assert_int_equal(store_ratings_of(s, a, got, 4, &err), 1);
    assert_string_equal(got[0].pool, "ur/finkel");
    assert_int_equal(got[0].games, 1);
    assert_int_equal(got[0].updated_ms, 10 * day);
    assert_true(fabs(got[0].g.rating - want[0].rating) < 1e-9 && fabs(got[0].g.deviation - want[0].deviation) < 1e-9);
    /* finished already: -1, nothing changes */
    assert_int_equal(store_finish_rated(s, "r1", NULL, "ur/finkel", seats, 2, 11 * day, &err), -1);
    pl_buf_clear(&err);
    /* an account that does not exist: neither the finish nor Ann's rating */
    store_rated_seat ghost[2] = {{.account = a, .rank = 0}, {.account = a + b + 100, .team = 1, .rank = 1}};
    assert_int_equal(store_finish_rated(s, "r2", NULL, "ur/finkel", ghost, 2, 11 * day, &err), -1);
    pl_buf_clear(&err);
    store_rated_seat twice[2] = {{.account = a, .rank = 0}, {.account = a, .team = 1, .rank = 1}};
    assert_int_equal(store_finish_rated(s, "r2", NULL, "ur/finkel", twice, 2, 11 * day, &err), -1);
    pl_buf_clear(&err);
    got_room g = {0};
    assert_int_equal(store_room_get(s, "r2", grab_room, &g, &err), 0);
    assert_int_equal(g.finished, 0);
    assert_int_equal(store_ratings_of(s, a, got, 4, &err), 1);
    assert_int_equal(got[0].games, 1);
    /* Ann against a computer at 1000/30, 30 days later: her deviation grew
     * first; the computer's rating is its own and not stored */
    store_rated_seat cpu[2] = {{.account = 0, .fixed = {1000, 30, 0.06}, .rank = 1},
                               {.account = a, .team = 1, .rank = 0}};
    assert_int_equal(store_finish_rated(s, "r2", NULL, "ur/finkel", cpu, 2, 40 * day, &err), 0);
    assert_true(cpu[1].before.deviation > want[0].deviation);
    assert_true(cpu[1].before.rating == want[0].rating);
    assert_true(cpu[0].after.rating == 1000 && cpu[0].after.deviation == 30);
    assert_int_equal(store_ratings_of(s, a, got, 4, &err), 1);
    assert_int_equal(got[0].games, 2);
    assert_true(got[0].g.rating == cpu[1].after.rating);
    /* the pool lookup: Ann's, Bob's, and a new player's for an unknown id */
    int64_t ids[3] = {a, b, a + b + 100};
    assert_int_equal(store_ratings_pool(s, "ur/finkel", ids, 3, got, &err), 0);
    assert_true(got[0].g.rating == cpu[1].after.rating && got[0].games == 2);
    assert_true(got[1].g.rating == want[1].rating && got[1].games == 1);
    assert_true(got[2].g.rating == 1500 && got[2].g.deviation == 350 && got[2].games == 0);
    assert_int_equal(store_ratings_pool(s, "ur/skiryuk", ids, 1, got, &err), 0);
    assert_int_equal(got[0].games, 0);
    assert_int_equal(store_ratings_pool(s, "", ids, 1, got, &err), -1);
    pl_buf_clear(&err);
    /* a deleted account's ratings go with it */
    assert_int_equal(store_account_delete(s, b, "anonymous", &err), 0);
    assert_int_equal(store_ratings_of(s, b, got, 4, &err), 0);
    store_close(s);
    pl_buf_free(&err);
    B->drop(path);
}

typedef struct {
    char seen[8][48];
    int n;
} notes;

static void note(void *ctx, const char *what, const char *code)
{
    notes *v = ctx;
    if (v->n < 8)
        snprintf(v->seen[v->n++], sizeof v->seen[0], "%s %s", what, code);
}

/* Another handle's new and finished rooms arrive on the watch descriptor
 * (PostgreSQL: LISTEN/NOTIFY, sent in the writing transaction, so a failed
 * write sends nothing); SQLite has no descriptor and drains nothing. */
static void test_watch_sees_other_handles_rooms(void **st)
{
    (void)st;
    NEED_BACKEND();
    char path[256];
    B->fresh(path, sizeof path, "watch");
    store *w = open_ok(path), *s = open_ok(path);
    pl_buf err = {0};
    notes v = {0};
    int fd = store_watch_fd(w);
    if (B->sqlite) {
        assert_int_equal(fd, -1);
        room_ok(s, "w1", "ur", 1);
        assert_int_equal(store_watch_drain(w, note, &v, &err), 0);
    } else {
        assert_true(fd >= 0);
        assert_int_equal(store_watch_fd(w), fd); /* LISTEN once */
        room_ok(s, "w1", "ur", 1);
        store_room dup = {.code = "w1", .game = "ur", .options = "", .config = "{}"};
        assert_int_equal(store_room_put(s, &dup, &err), -1); /* refused: no news */
        assert_int_equal(store_finish(s, "w1", NULL, &err), 0);
        while (v.n < 2) { /* both may come in one read or in two */
            struct pollfd p = {.fd = fd, .events = POLLIN};
            if (poll(&p, 1, 30000) != 1)
                fail_msg("no notification came");
            assert_true(store_watch_drain(w, note, &v, &err) >= 0);
        }
        assert_int_equal(v.n, 2);
        assert_string_equal(v.seen[0], "created w1");
        assert_string_equal(v.seen[1], "finished w1");
        assert_int_equal(store_watch_drain(w, note, &v, &err), 0);
    }
    store_close(s);
    store_close(w);
    pl_buf_free(&err);
    B->drop(path);
}

/* Runs SQL on a file directly (the schema tests write what an older or a
 * newer program would have left). */
static void raw_sql(const char *path, const char *sql)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
        fail_msg("sql: %s", msg);
    sqlite3_close(db);
}

/* A file written by the first server (schema version 1, no leases) opens:
 * it is migrated to the current version and keeps its rooms; a file from a
 * newer program is refused with its version named. */
static void test_sqlite_schema_1_migrates(void **st)
{
    (void)st;
    NEED_BACKEND();
    if (!B->sqlite)
        skip();
    char path[256];
    db_path(path, sizeof path, "v1");
    raw_sql(path, "PRAGMA journal_mode=WAL;"
                  "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
                  "CREATE TABLE IF NOT EXISTS rooms("
                  " code TEXT PRIMARY KEY, game TEXT NOT NULL, options TEXT NOT NULL,"
                  " config TEXT NOT NULL, seed INTEGER NOT NULL, created_ms INTEGER NOT NULL,"
                  " finished INTEGER NOT NULL DEFAULT 0, result TEXT);"
                  "CREATE TABLE IF NOT EXISTS actions("
                  " room TEXT NOT NULL REFERENCES rooms(code), seq INTEGER NOT NULL,"
                  " seat INTEGER NOT NULL, text TEXT NOT NULL, at_ms INTEGER NOT NULL,"
                  " PRIMARY KEY(room, seq)) WITHOUT ROWID;"
                  "INSERT OR IGNORE INTO meta(key, value) VALUES ('schema', '1');"
                  "INSERT INTO rooms VALUES ('old', 'ur', 'pieces=3', '{}', -1, 5, 0, NULL);"
                  "INSERT INTO actions VALUES ('old', 0, -1, 'roll 2', 6);");
    store *s = owned(path, "me");
    pl_buf err = {0};
    got_room g = {0};
    assert_int_equal(store_room_get(s, "old", grab_room, &g, &err), 0);
    assert_true(g.seed == UINT64_MAX);
    assert_int_equal(store_count(s, "old", &err), 1);
    assert_int_equal(beat(s, 60000), 0);
    assert_int_equal(take(s, "old", NULL), 1);
    append_one(s, "old", 1, "enter");
    store_close(s);
    s = open_ok(path); /* and opens again at the new version */
    assert_int_equal(store_count(s, "old", &err), 2);
    store_close(s);

    raw_sql(path, "UPDATE meta SET value = '99' WHERE key = 'schema';");
    assert_null(store_open(path, &err));
    assert_non_null(strstr(pl_buf_str(&err), "schema version 99"));
    pl_buf_free(&err);
    db_remove(path);
}

#if defined(PARLOUR_WITH_PG)
static void pg_sql_on(const char *url, const char *sql)
{
    PGconn *c = PQconnectdb(url);
    assert_int_equal(PQstatus(c), CONNECTION_OK);
    PGresult *r = PQexec(c, sql);
    if (PQresultStatus(r) != PGRES_COMMAND_OK && PQresultStatus(r) != PGRES_TUPLES_OK)
        fail_msg("%s: %s", sql, PQresultErrorMessage(r));
    PQclear(r);
    PQfinish(c);
}
#endif

/* PostgreSQL: a database of a newer schema is refused with its version; a
 * handle whose connection the server cut fails that one call, reconnects at
 * the next and loses nothing. */
static void test_pg_schema_and_reconnect(void **st)
{
    (void)st;
    NEED_BACKEND();
    if (B->sqlite)
        skip();
#if defined(PARLOUR_WITH_PG)
    char path[256];
    B->fresh(path, sizeof path, "pgmore");
    store *s = open_ok(path);
    room_ok(s, "p", "ur", 1);
    append_one(s, "p", 0, "a");
    pl_buf err = {0};
    /* Every other connection to this database is cut (the admin's is not). */
    pg_sql_on(path, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()");
    store_action b = {"p", 1, 0, "b", 1};
    int rc = store_append(s, &b, 1, &err); /* may fail: the connection was cut */
    pl_buf_clear(&err);
    if (rc != 0)
        append_one(s, "p", 1, "b"); /* reconnected */
    assert_int_equal(store_count(s, "p", &err), 2);
    store_close(s);

    pg_sql_on(path, "UPDATE meta SET value = '99' WHERE key = 'schema'");
    assert_null(store_open(path, &err));
    assert_non_null(strstr(pl_buf_str(&err), "schema version 99"));
    pl_buf_free(&err);
    B->drop(path);
#endif
}

#if defined(PARLOUR_WITH_PG)
/* The statements the server ran on the database of `url` since the last
 * pg_stat_statements_reset (BEGIN and COMMIT counted). */
static long pg_statements_of(const char *url)
{
    char sql[256];
    snprintf(sql, sizeof sql,
             "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements "
             "WHERE dbid = (SELECT oid FROM pg_database WHERE datname = '%s')",
             strrchr(url, '=') + 1);
    PGresult *r = PQexec(tsb_pg_admin(), sql);
    if (PQresultStatus(r) != PGRES_TUPLES_OK)
        fail_msg("%s: %s", sql, PQresultErrorMessage(r));
    long n = atol(PQgetvalue(r, 0, 0));
    PQclear(r);
    return n;
}
#endif

#if defined(PARLOUR_WITH_PG)
static void pg_statements_reset(void)
{
    PQclear(PQexec(tsb_pg_admin(), "SELECT pg_stat_statements_reset()"));
}
#endif

/* PostgreSQL: each write is one round trip of at most two statements
 * (issue 30): a batch however many actions and rooms it holds (the rooms
 * locked, then one INSERT from arrays), a refused one too, a new room (the
 * row and its NOTIFY), a configuration and a finish (the lock, then the
 * checked change); and the texts come back byte for byte through the
 * arrays (quotes, backslashes, braces, commas, "NULL", empty). */
static void test_pg_writes_in_one_round_trip(void **st)
{
    (void)st;
    NEED_BACKEND();
    if (B->sqlite)
        skip();
#if defined(PARLOUR_WITH_PG)
    if (!tsb_pg_statements) {
        print_message("[ SKIP     ] pg_stat_statements is not loaded (deploy/pg.sh PG_STATEMENTS=1)\n");
        skip();
    }
    char path[256];
    B->fresh(path, sizeof path, "pgtrips");
    store *s = open_ok(path);
    pg_statements_reset();
    room_ok(s, "a", "ur", 1);
    assert_int_equal(pg_statements_of(path), 2);
    room_ok(s, "b", "ur", 2);
    room_ok(s, "c\\\"{,}", "ur", 3);
    static const char *texts[] = {"say \"hi\"", "back\\slash", "{1,2}", "NULL", "", "a,b", "é ☃", "}", "\\\""};
    const char *rooms[] = {"a", "b", "a", "c\\\"{,}", "b", "a", "c\\\"{,}", "b", "a"};
    store_action batch[9];
    int64_t next[3] = {0, 0, 0};
    for (int i = 0; i < 9; i++) {
        int k = rooms[i][0] - 'a';
        batch[i] = (store_action){rooms[i], next[k]++, i % 2, texts[i], 100 + i};
    }
    pl_buf err = {0};
    pg_statements_reset();
    assert_int_equal(store_append(s, batch, 9, &err), 0);
    long used = pg_statements_of(path);
    if (used != 2)
        fail_msg("a batch of 9 actions in 3 rooms ran %ld statements, not 2", used);
    store_action stale[] = {{"b", 3, 0, "x", 1}, {"a", 3, 0, "y", 1}}; /* a's next is 4 */
    pg_statements_reset();
    assert_int_equal(store_append(s, stale, 2, &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "room 'a': action 4 expected, not 3"));
    assert_int_equal(pg_statements_of(path), 2);
    pl_buf_clear(&err);
    assert_int_equal(store_count(s, "b", &err), 3);
    for (int k = 0; k < 3; k++) {
        const char *code = k == 0 ? "a" : k == 1 ? "b" : "c\\\"{,}";
        seen_actions v = {0};
        assert_int_equal(store_actions(s, code, collect, &v, &err), 0);
        int m = 0;
        for (int i = 0; i < 9; i++) {
            if (strcmp(rooms[i], code))
                continue;
            assert_true(m < v.n);
            assert_string_equal(v.text[m], texts[i]);
            assert_int_equal(v.seq[m], m);
            assert_int_equal(v.seat[m], i % 2);
            m++;
        }
        assert_int_equal(v.n, m);
    }
    pg_statements_reset();
    assert_int_equal(store_room_config(s, "b", "{\"seats\":3}", &err), 0);
    assert_int_equal(pg_statements_of(path), 2);
    pg_statements_reset();
    assert_int_equal(store_finish(s, "b", "1-0", &err), 0);
    assert_int_equal(pg_statements_of(path), 2);
    store_close(s);
    pl_buf_free(&err);
    B->drop(path);
#endif
}

static const backend sqlite_backend = {"SQLite", 1, NULL, db_path, db_remove};

static int use_sqlite(void **st)
{
    (void)st;
    B = &sqlite_backend;
    return 0;
}

/* PostgreSQL (store_backend.c): statements counted where the cluster can. */
static int use_pg(void **st)
{
    (void)st;
    B = &tsb_pg;
    return tsb_pg_start("t", 1);
}

static int stop_pg(void **st)
{
    (void)st;
    return tsb_pg_stop();
}

/* store_clear leaves the store as store_open made it: no room, no action
 * (an emptied room's code takes a fresh history from seq 0), the finished
 * flag gone with its room; it works again on an empty store. */
static void test_clear_empties(void **st)
{
    (void)st;
    store *s = open_ok(":memory:");
    pl_buf err = {0};
    for (int round = 0; round < 2; round++) {
        room_ok(s, "a", "ur", 1);
        room_ok(s, "b", "ur", 2);
        store_action acts[] = {{"a", 0, -1, "roll 1", 1}, {"a", 1, 0, "enter", 2}, {"b", 0, -1, "roll 2", 3}};
        assert_int_equal(store_append(s, acts, 3, &err), 0);
        assert_int_equal(store_finish(s, "b", NULL, &err), 0);
        assert_int_equal(store_clear(s, &err), 0);
        seen_rooms all = {0};
        assert_int_equal(store_rooms(s, 0, collect_room, &all, &err), 0);
        assert_int_equal(all.n, 0);
        assert_int_equal(store_count(s, "a", &err), -1); /* no such room */
        pl_buf_clear(&err);
        assert_int_equal(store_clear(s, &err), 0); /* already empty */
    }
    room_ok(s, "a", "ur", 1);
    assert_int_equal(store_count(s, "a", &err), 0);
    store_close(s);
    pl_buf_free(&err);
}

typedef struct {
    char room[8][16];
    int64_t at[8];
    double rating[8], rd[8];
    int n;
} history;

static int grab_point(void *ctx, const store_rating_point *p)
{
    history *h = ctx;
    if (h->n < 8) {
        snprintf(h->room[h->n], sizeof h->room[0], "%s", p->room);
        h->at[h->n] = p->at_ms;
        h->rating[h->n] = p->rating;
        h->rd[h->n] = p->rd;
    }
    h->n++;
    return 0;
}

static int stop_point(void *ctx, const store_rating_point *p)
{
    (void)ctx;
    (void)p;
    return 5;
}

/* A player's page (issue 33 §4): one account's rating history in one pool,
 * oldest first, each point the rating and deviation a rated game left; only
 * that account's and that pool's; none for a pool never played or an
 * unknown account; a bad pool refused; fn's non-zero return stops the walk;
 * a deleted account's history goes with it. */
static void test_rating_history(void **st)
{
    (void)st;
    NEED_BACKEND();
    char path[256];
    B->fresh(path, sizeof path, "history");
    store *s = open_ok(path);
    pl_buf err = {0};
    int64_t a = 0, b = 0;
    assert_int_equal(store_account_put(s, "Ann", "ann", "h1", 1, &a, &err), 0);
    assert_int_equal(store_account_put(s, "Bob", "bob", "h2", 1, &b, &err), 0);
    room_ok(s, "h1", "ur", 1);
    room_ok(s, "h2", "ur", 2);
    room_ok(s, "h3", "ur", 3);
    const int64_t day = 86400000;
    /* finished out of code order: the history follows the finish time */
    store_rated_seat g1[2] = {{.account = a, .rank = 0}, {.account = b, .team = 1, .rank = 1}};
    assert_int_equal(store_finish_rated(s, "h3", "{}", "ur/finkel", g1, 2, 2 * day, &err), 0);
    store_rated_seat g2[2] = {{.account = a, .rank = 1}, {.account = b, .team = 1, .rank = 0}};
    assert_int_equal(store_finish_rated(s, "h1", "{}", "ur/finkel", g2, 2, 5 * day, &err), 0);
    store_rated_seat g3[2] = {{.account = a, .rank = 0},
                              {.account = 0, .fixed = {1000, 30, 0.06}, .team = 1, .rank = 1}};
    assert_int_equal(store_finish_rated(s, "h2", "{}", "ur/skiryuk", g3, 2, 6 * day, &err), 0);
    history h = {0};
    assert_int_equal(store_rating_history(s, a, "ur/finkel", grab_point, &h, &err), 0);
    assert_int_equal(h.n, 2);
    assert_string_equal(h.room[0], "h3");
    assert_string_equal(h.room[1], "h1");
    assert_int_equal(h.at[0], 2 * day);
    assert_int_equal(h.at[1], 5 * day);
    assert_true(h.rating[0] == g1[0].after.rating && h.rd[0] == g1[0].after.deviation);
    assert_true(h.rating[1] == g2[0].after.rating && h.rd[1] == g2[0].after.deviation);
    h = (history){0};
    assert_int_equal(store_rating_history(s, b, "ur/finkel", grab_point, &h, &err), 0);
    assert_int_equal(h.n, 2);
    assert_true(h.rating[1] == g2[1].after.rating);
    h = (history){0};
    assert_int_equal(store_rating_history(s, a, "ur/skiryuk", grab_point, &h, &err), 0);
    assert_int_equal(h.n, 1);
    assert_string_equal(h.room[0], "h2");
    assert_true(h.rating[0] == g3[0].after.rating);
    h = (history){0};
    assert_int_equal(store_rating_history(s, b, "ur/skiryuk", grab_point, &h, &err), 0);
    assert_int_equal(store_rating_history(s, a + b + 100, "ur/finkel", grab_point, &h, &err), 0);
    assert_int_equal(h.n, 0);
    assert_int_equal(store_rating_history(s, a, "ur/finkel", stop_point, NULL, &err), 5);
    assert_int_equal(store_rating_history(s, a, "", grab_point, &h, &err), -1);
    pl_buf_clear(&err);
    assert_int_equal(store_rating_history(s, a, "ur/finkel", NULL, NULL, &err), -1);
    pl_buf_clear(&err);
    assert_int_equal(store_account_delete(s, b, "anonymous", &err), 0);
    assert_int_equal(store_rating_history(s, b, "ur/finkel", grab_point, &h, &err), 0);
    assert_int_equal(h.n, 0);
    store_close(s);
    pl_buf_free(&err);
    B->drop(path);
}

typedef struct {
    char room[8][16], result[8][32], opp[8][64];
    int64_t fin[8];
    int rated[8], seat0[8], nseats[8];
    int n;
} games;

static int grab_game(void *ctx, const store_player_game *g)
{
    games *v = ctx;
    if (v->n < 8) {
        int i = v->n;
        snprintf(v->room[i], sizeof v->room[0], "%s", g->room);
        snprintf(v->result[i], sizeof v->result[0], "%s", g->result);
        for (int k = 0; k < g->nopponents; k++)
            snprintf(v->opp[i] + strlen(v->opp[i]), sizeof v->opp[0] - strlen(v->opp[i]), "%s,", g->opponents[k]);
        for (int k = 0; k < g->nlevels; k++)
            snprintf(v->opp[i] + strlen(v->opp[i]), sizeof v->opp[0] - strlen(v->opp[i]), "ai %s,", g->levels[k]);
        v->fin[i] = g->finished_ms;
        v->rated[i] = g->rated;
        v->seat0[i] = g->nseats ? g->seats[0] : -1;
        v->nseats[i] = g->nseats;
    }
    v->n++;
    return 0;
}

static int stop_game(void *ctx, const store_player_game *g)
{
    (void)ctx, (void)g;
    return 7;
}

static void seat_room(store *s, const char *code, const char *config, int64_t at_ms)
{
    store_room r = {.code = code, .game = "ur", .options = "rules=finkel", .config = config, .created_ms = 1};
    pl_buf err = {0};
    assert_int_equal(store_room_put(s, &r, &err), 0);
    store_action a = {code, 0, -1, "roll 1", at_ms};
    assert_int_equal(store_append(s, &a, 1, &err), 0);
    pl_buf_free(&err);
}

/* A player's page (issue 33 §4): the finished rooms an account had a seat
 * in, newest first (by the last action), with the room's result, the
 * account's seat, the other people's names and the computers' levels, and
 * whether the game was rated for it; not an unfinished room, nor another's;
 * the limit honoured; the next page (before a finish time); a bad limit
 * refused; fn's return stops the walk. A page's privacy is stored. */
static void test_player_games(void **st)
{
    (void)st;
    NEED_BACKEND();
    char path[256];
    B->fresh(path, sizeof path, "games");
    store *s = open_ok(path);
    pl_buf err = {0};
    int64_t a = 0, b = 0;
    assert_int_equal(store_account_put(s, "Ann", "ann", "h1", 1, &a, &err), 0);
    assert_int_equal(store_account_put(s, "Bob", "bob", "h2", 1, &b, &err), 0);
    /* a page is public until its owner makes it private (and back) */
    store_account acc;
    assert_int_equal(store_account_by_id(s, a, &acc, &err), 0);
    assert_false(acc.is_private);
    assert_int_equal(store_account_set_private(s, a, true, &err), 0);
    assert_int_equal(store_account_by_name(s, "ann", &acc, &err), 0);
    assert_true(acc.is_private);
    assert_int_equal(store_account_by_id(s, b, &acc, &err), 0);
    assert_false(acc.is_private);
    assert_int_equal(store_account_set_private(s, a, false, &err), 0);
    assert_int_equal(store_account_by_id(s, a, &acc, &err), 0);
    assert_false(acc.is_private);
    assert_int_equal(store_account_set_private(s, a + b + 100, true, &err), 1);
    assert_int_equal(store_account_set_private(s, -1, true, &err), -1);
    pl_buf_clear(&err);
    char cfg[256];
    snprintf(cfg, sizeof cfg,
             "{\"seats\":[{\"kind\":\"person\",\"name\":\"Ann\",\"token\":\"t1\",\"account\":%lld},"
             "{\"kind\":\"person\",\"name\":\"Bob\",\"token\":\"t2\",\"account\":%lld}]}",
             (long long)a, (long long)b);
    seat_room(s, "p1", cfg, 5000); /* rated, Ann v Bob */
    snprintf(cfg, sizeof cfg,
             "{\"seats\":[{\"kind\":\"ai\",\"level\":\"easy\"},"
             "{\"kind\":\"person\",\"name\":\"Ann\",\"token\":\"t1\",\"account\":%lld}]}",
             (long long)a);
    seat_room(s, "p2", cfg, 9000); /* casual, Ann against a computer */
    seat_room(s, "p3", cfg, 7000); /* never finished */
    seat_room(s, "p4", "{\"seats\":[{\"kind\":\"person\",\"name\":\"Cy\",\"token\":\"t3\"}]}", 8000);
    store_rated_seat g1[2] = {{.account = a, .rank = 0}, {.account = b, .team = 1, .rank = 1}};
    assert_int_equal(store_finish_rated(s, "p1", "{\"winner\":0}", "ur/finkel", g1, 2, 6000, &err), 0);
    assert_int_equal(store_finish(s, "p2", "{\"winner\":0}", &err), 0);
    assert_int_equal(store_finish(s, "p4", "{\"winner\":0}", &err), 0);
    games v = {0};
    assert_int_equal(store_player_games(s, a, 0, 10, grab_game, &v, &err), 0);
    assert_int_equal(v.n, 2);
    assert_string_equal(v.room[0], "p2");
    assert_int_equal(v.fin[0], 9000);
    assert_int_equal(v.rated[0], 0);
    assert_int_equal(v.seat0[0], 1);
    assert_string_equal(v.opp[0], "ai easy,");
    assert_string_equal(v.result[0], "{\"winner\":0}");
    assert_string_equal(v.room[1], "p1");
    assert_int_equal(v.fin[1], 5000);
    assert_int_equal(v.rated[1], 1);
    assert_int_equal(v.seat0[1], 0);
    assert_int_equal(v.nseats[1], 1);
    assert_string_equal(v.opp[1], "Bob,");
    v = (games){0};
    assert_int_equal(store_player_games(s, b, 0, 10, grab_game, &v, &err), 0);
    assert_int_equal(v.n, 1);
    assert_string_equal(v.opp[0], "Ann,");
    assert_int_equal(v.seat0[0], 1);
    v = (games){0};
    assert_int_equal(store_player_games(s, a, 0, 1, grab_game, &v, &err), 0);
    assert_int_equal(v.n, 1);
    assert_int_equal(store_player_games(s, a, 0, 0, grab_game, &v, &err), 0);
    assert_int_equal(store_player_games(s, a + b + 100, 0, 10, grab_game, &v, &err), 0);
    assert_int_equal(v.n, 1);
    /* the next page: only games that finished before the given time */
    v = (games){0};
    assert_int_equal(store_player_games(s, a, 9000, 10, grab_game, &v, &err), 0);
    assert_int_equal(v.n, 1);
    assert_string_equal(v.room[0], "p1");
    v = (games){0};
    assert_int_equal(store_player_games(s, a, 5000, 10, grab_game, &v, &err), 0);
    assert_int_equal(v.n, 0);
    assert_int_equal(store_player_games(s, a, 9001, 1, grab_game, &v, &err), 0);
    assert_int_equal(v.n, 1);
    assert_string_equal(v.room[0], "p2");
    assert_int_equal(store_player_games(s, a, 0, 10, stop_game, NULL, &err), 7);
    assert_int_equal(store_player_games(s, a, 0, -1, grab_game, &v, &err), -1);
    pl_buf_clear(&err);
    store_close(s);
    pl_buf_free(&err);
    B->drop(path);
}

typedef struct {
    char id[8][72], owner[8][64], options[8][64];
    double rating[8];
    int64_t made[8], account[8];
    int n;
} seen_seeks;

static int grab_seek(void *ctx, const store_seek *k)
{
    seen_seeks *v = ctx;
    if (v->n < 8) {
        snprintf(v->id[v->n], sizeof v->id[0], "%s", k->id);
        snprintf(v->owner[v->n], sizeof v->owner[0], "%s", k->owner);
        snprintf(v->options[v->n], sizeof v->options[0], "%s", k->options);
        v->rating[v->n] = k->rating;
        v->made[v->n] = k->made_ms;
        v->account[v->n] = k->account;
    }
    v->n++;
    return 0;
}

typedef struct {
    char seek[8][72], room[8][40];
    int seat[8], rated[8];
    int n;
} seen_pairings;

static int grab_pairing(void *ctx, const store_pairing *p)
{
    seen_pairings *v = ctx;
    if (v->n < 8) {
        snprintf(v->seek[v->n], sizeof v->seek[0], "%s", p->seek);
        snprintf(v->room[v->n], sizeof v->room[0], "%s", p->room);
        v->seat[v->n] = p->seat;
        v->rated[v->n] = p->rated;
    }
    v->n++;
    return 0;
}

static void seek_put_ok(store *s, const char *id, double rating, int64_t account)
{
    store_seek k = {.id = id, .pool = "ur/skiryuk", .game = "ur", .options = "{\"start\":\"dark\"}",
                    .name = "N", .account = account, .players = 2, .after_s = 30, .widest = 0,
                    .rating = rating, .rd = 80.5, .made_ms = 1234567};
    pl_buf err = {0};
    if (store_seek_put(s, &k, &err) < 0)
        fail_msg("seek %s: %s", id, pl_buf_str(&err));
    pl_buf_free(&err);
}

/* Play now across processes (store.h): the role "pairing" goes to one live
 * owner at a time and moves when its heartbeat expires; seeks round-trip
 * and are read only while their owner lives; a pairing is written only by
 * the role's live holder and only while every member's seek is there (then
 * the seeks go and each owner reads its own pairing); refusals. */
static void test_seeks_roles_and_pairings(void **st)
{
    (void)st;
    NEED_BACKEND();
    char path[256];
    B->fresh(path, sizeof path, "seeks");
    store *a = owned(path, "host:1:a"), *b = owned(path, "host:2:b");
    pl_buf err = {0};
    assert_int_equal(store_role_take(a, "pairing", &err), -1); /* never beat */
    assert_non_null(strstr(pl_buf_str(&err), "expired"));
    assert_int_equal(beat(a, 60000), 0);
    assert_int_equal(beat(b, 60000), 0);
    assert_int_equal(store_role_take(a, "pairing", &err), 1);
    assert_int_equal(store_role_take(a, "pairing", &err), 1); /* kept */
    assert_int_equal(store_role_take(b, "pairing", &err), 0); /* a lives */
    seek_put_ok(a, "s1", 1612.25, 7);
    seek_put_ok(b, "s2", 1500, 0);
    seen_seeks v = {0};
    assert_int_equal(store_seeks_read(b, grab_seek, &v, &err), 0);
    assert_int_equal(v.n, 2);
    assert_string_equal(v.id[0], "s1");
    assert_string_equal(v.owner[0], "host:1:a");
    assert_string_equal(v.options[0], "{\"start\":\"dark\"}");
    assert_true(v.rating[0] == 1612.25 && v.made[0] == 1234567 && v.account[0] == 7);
    assert_string_equal(v.owner[1], "host:2:b");
    store_pairing pr[2] = {
        {.seek = "s1", .room = "R1", .token = "t1", .pool = "ur/skiryuk", .game = "ur", .seat = 1, .rated = 1},
        {.seek = "s2", .room = "R1", .token = "t2", .pool = "ur/skiryuk", .game = "ur", .seat = 0, .rated = 1}};
    assert_int_equal(store_pairing_put(b, "pairing", pr, 2, &err), STORE_LOST); /* not b's role */
    store_pairing gone[2] = {pr[0], pr[1]};
    gone[1].seek = "s9";
    assert_int_equal(store_pairing_put(a, "pairing", gone, 2, &err), 1); /* s9 is not there */
    memset(&v, 0, sizeof v);
    assert_int_equal(store_seeks_read(a, grab_seek, &v, &err), 0);
    assert_int_equal(v.n, 2); /* nothing written by the refusals */
    assert_int_equal(store_pairing_put(a, "pairing", pr, 2, &err), 0);
    memset(&v, 0, sizeof v);
    assert_int_equal(store_seeks_read(a, grab_seek, &v, &err), 0);
    assert_int_equal(v.n, 0); /* paired: gone */
    seen_pairings pa = {0}, pb = {0};
    assert_int_equal(store_pairings_of(a, grab_pairing, &pa, &err), 0);
    assert_int_equal(store_pairings_of(b, grab_pairing, &pb, &err), 0);
    assert_int_equal(pa.n, 1);
    assert_string_equal(pa.seek[0], "s1");
    assert_int_equal(pa.seat[0], 1);
    assert_int_equal(pb.n, 1);
    assert_string_equal(pb.seek[0], "s2");
    assert_string_equal(pb.room[0], "R1");
    assert_int_equal(pb.rated[0], 1);
    assert_int_equal(store_pairing_drop(b, "s2", &err), 0);
    assert_int_equal(store_pairing_drop(b, "s1", &err), 0); /* a's: not b's to delete */
    memset(&pa, 0, sizeof pa);
    memset(&pb, 0, sizeof pb);
    assert_int_equal(store_pairings_of(a, grab_pairing, &pa, &err), 0);
    assert_int_equal(store_pairings_of(b, grab_pairing, &pb, &err), 0);
    assert_int_equal(pa.n, 1);
    assert_int_equal(pb.n, 0);
    /* a's heartbeat runs out: its seeks are not read, the role moves, its pairings are refused */
    seek_put_ok(a, "s3", 1500, 0);
    seek_put_ok(b, "s4", 1500, 0);
    assert_int_equal(beat(a, 0), 1);
    memset(&v, 0, sizeof v);
    assert_int_equal(store_seeks_read(b, grab_seek, &v, &err), 0);
    assert_int_equal(v.n, 1);
    assert_string_equal(v.id[0], "s4");
    assert_int_equal(store_role_take(b, "pairing", &err), 1);
    store_pairing one = {.seek = "s4", .room = "R2", .token = "t", .pool = "ur/skiryuk", .game = "ur"};
    assert_int_equal(store_pairing_put(a, "pairing", &one, 1, &err), STORE_LOST);
    assert_int_equal(beat(a, 60000), 0); /* alive again, but the role is b's */
    assert_int_equal(store_pairing_put(a, "pairing", &one, 1, &err), STORE_LOST);
    assert_int_equal(store_seek_drop(a, "s3", &err), 0);
    /* refusals */
    char long_id[80];
    memset(long_id, 'x', sizeof long_id - 1);
    long_id[sizeof long_id - 1] = 0;
    pl_buf_clear(&err);
    assert_int_equal(store_seek_drop(a, long_id, &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "64"));
    assert_int_equal(store_pairing_put(b, "pairing", &one, 0, &err), -1);
    assert_int_equal(store_role_take(b, "", &err), -1);
    store *c = open_ok(path); /* no owner */
    pl_buf_clear(&err);
    assert_int_equal(store_seeks_read(c, grab_seek, &v, &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "no owner"));
    store_close(c);
    store_close(a);
    store_close(b);
    pl_buf_free(&err);
    B->drop(path);
}

static int64_t sweep(store *s, int64_t grace_ms, int max_rows)
{
    pl_buf err = {0};
    int64_t n = store_seeks_sweep(s, grace_ms, max_rows, &err);
    if (n < 0)
        fail_msg("sweep: %s", pl_buf_str(&err));
    pl_buf_free(&err);
    return n;
}

static int64_t online(store *s)
{
    pl_buf err = {0};
    int64_t n = store_online(s, &err);
    if (n < 0)
        fail_msg("online: %s", pl_buf_str(&err));
    pl_buf_free(&err);
    return n;
}

/* The lobby across processes (docs/pairing.md, "Several processes"):
 * `online` is the sum of the connections the live owners stored with their
 * heartbeats (the asker's own excepted, an expired owner's left out); the
 * sweep deletes the seeks and pairings of an owner dead for more than the
 * grace — not before — at most max_rows of each per call, then its owner
 * row; a live owner's rows stay. */
static void test_online_and_dead_seeks_swept(void **st)
{
    (void)st;
    NEED_BACKEND();
    char path[256];
    B->fresh(path, sizeof path, "sweep");
    store *a = owned(path, "host:1:a"), *b = owned(path, "host:2:b"), *c = owned(path, "host:3:c");
    pl_buf err = {0};
    assert_int_equal(online(a), 0);
    assert_int_equal(store_owner_beat_conns(a, 60000, 5, &err), 0);
    assert_int_equal(store_owner_beat_conns(b, 60000, 7, &err), 0);
    assert_int_equal(store_owner_beat_conns(c, 60000, 11, &err), 0);
    assert_int_equal(online(a), 18);
    assert_int_equal(online(b), 16);
    assert_int_equal(beat(b, 60000), 1); /* a plain beat keeps the stored count */
    assert_int_equal(online(a), 18);
    assert_int_equal(store_owner_beat_conns(b, 60000, -1, &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "0 or more"));
    assert_int_equal(online(a), 18); /* the refusal wrote nothing */

    /* c: three waiting seeks and one pairing; a: a seek and a pairing; b: a seek */
    seek_put_ok(c, "c1", 1500, 0);
    seek_put_ok(c, "c2", 1500, 0);
    seek_put_ok(c, "c3", 1500, 0);
    seek_put_ok(c, "c4", 1500, 0);
    seek_put_ok(a, "a1", 1500, 0);
    seek_put_ok(a, "a2", 1500, 0);
    seek_put_ok(b, "b1", 1500, 0);
    assert_int_equal(store_role_take(a, "pairing", &err), 1);
    store_pairing pr[2] = {
        {.seek = "c3", .room = "R1", .token = "t1", .pool = "ur/skiryuk", .game = "ur", .seat = 0},
        {.seek = "a2", .room = "R1", .token = "t2", .pool = "ur/skiryuk", .game = "ur", .seat = 1}};
    assert_int_equal(store_pairing_put(a, "pairing", pr, 2, &err), 0);
    assert_int_equal(sweep(a, 0, 100), 0); /* everybody lives */

    assert_int_equal(beat(c, -5000), 1); /* c's heartbeat ended 5 s ago */
    assert_int_equal(online(a), 7);       /* counts nothing */
    assert_int_equal(online(b), 5);
    assert_int_equal(sweep(a, 60000, 100), 0); /* not before the grace */
    assert_int_equal(sweep(a, 1000, 2), 3);    /* bounded: 2 of its 3 seeks, its pairing; its row kept */
    assert_int_equal(sweep(a, 1000, 2), 2);    /* the last seek, then its owner row */
    assert_int_equal(sweep(a, 1000, 2), 0);    /* nothing left */

    assert_int_equal(beat(c, 60000), 0); /* c comes back: a new owner row, none of its rows */
    assert_int_equal(online(a), 7);      /* a new row's count: 0 */
    seen_seeks v = {0};
    assert_int_equal(store_seeks_read(c, grab_seek, &v, &err), 0);
    assert_int_equal(v.n, 2); /* a1 and b1: the live owners' seeks kept */
    assert_string_equal(v.id[0], "a1");
    assert_string_equal(v.id[1], "b1");
    seen_pairings pa = {0}, pc = {0};
    assert_int_equal(store_pairings_of(a, grab_pairing, &pa, &err), 0);
    assert_int_equal(store_pairings_of(c, grab_pairing, &pc, &err), 0);
    assert_int_equal(pa.n, 1);
    assert_string_equal(pa.seek[0], "a2");
    assert_int_equal(pc.n, 0);

    /* an owner that stopped cleanly (ttl 0) and never had a seek: its row goes too */
    assert_int_equal(beat(b, -5000), 1);
    assert_int_equal(sweep(a, 1000, 2), 2); /* b1 and b's row */
    assert_int_equal(sweep(a, 1000, 2), 0);

    /* refusals */
    pl_buf_clear(&err);
    assert_int_equal(store_seeks_sweep(a, -1, 10, &err), -1);
    assert_int_equal(store_seeks_sweep(a, 1000, 0, &err), -1);
    store *d = open_ok(path); /* no owner */
    pl_buf_clear(&err);
    assert_int_equal(store_seeks_sweep(d, 1000, 10, &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "no owner"));
    assert_int_equal(store_online(d, &err), -1);
    store_close(d);
    store_close(a);
    store_close(b);
    store_close(c);
    pl_buf_free(&err);
    B->drop(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rooms_and_actions_round_trip),
        cmocka_unit_test(test_refusals_change_nothing),
        cmocka_unit_test(test_seq_cache_follows_commits),
        cmocka_unit_test(test_sqlite_checkpoints_on_their_thread),
        cmocka_unit_test(test_sqlite_big_commits),
        cmocka_unit_test(test_kill_9_loses_no_acknowledged_action),
        cmocka_unit_test(test_room_config),
        cmocka_unit_test(test_room_get),
        cmocka_unit_test(test_rated_finish_one_transaction),
        cmocka_unit_test(test_leases_fence_writes_between_owners),
        cmocka_unit_test(test_lease_refusals),
        cmocka_unit_test(test_lease_race_has_one_winner),
        cmocka_unit_test(test_watch_sees_other_handles_rooms),
        cmocka_unit_test(test_sqlite_schema_1_migrates),
        cmocka_unit_test(test_clear_empties),
        cmocka_unit_test(test_pg_schema_and_reconnect),
        cmocka_unit_test(test_pg_writes_in_one_round_trip),
        cmocka_unit_test(test_rating_history),
        cmocka_unit_test(test_player_games),
        cmocka_unit_test(test_seeks_roles_and_pairings),
        cmocka_unit_test(test_online_and_dead_seeks_swept),
    };
    int failed = cmocka_run_group_tests_name("store_sqlite", tests, use_sqlite, NULL);
    failed += cmocka_run_group_tests_name("store_postgresql", tests, use_pg, stop_pg);
    return failed;
}
