/* test_unit_store.c — the server's store (src/server/store.h) over SQLite:
 * rooms and actions round-trip, every refusal leaves the file as it was,
 * and a process killed with SIGKILL at random moments never loses an action
 * that store_append had returned for (the server acknowledges an action to
 * its client only then). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"
#include "parlour/rng.h"
#include "store.h"

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
    char path[256];
    db_path(path, sizeof path, "trip");
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
    db_remove(path);
}

static void test_refusals_change_nothing(void **st)
{
    (void)st;
    char path[256];
    db_path(path, sizeof path, "refuse");
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
    store_action noseat[] = {{"r1", 1, -2, "A1", 1}};
    append_refused(s, noseat, 1, "seat -2");
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
    assert_null(store_open("/nonexistent-dir/x.db", &err));
    assert_non_null(strstr(pl_buf_str(&err), "cannot open /nonexistent-dir/x.db"));
    pl_buf_free(&err);
    db_remove(path);
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
            snprintf(text[i], sizeof text[i], "move %lld", (long long)(next + i));
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

static int check_sequence(void *ctx, const store_action *a)
{
    int64_t *expect = ctx;
    char want[24];
    snprintf(want, sizeof want, "move %lld", (long long)*expect);
    if (a->seq != *expect || strcmp(a->text, want))
        return 1;
    ++*expect;
    return 0;
}

static void test_kill_9_loses_no_acknowledged_action(void **st)
{
    (void)st;
    char path[256];
    db_path(path, sizeof path, "kill");
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
        int64_t expect = 0;
        if (store_actions(s, "k", check_sequence, &expect, &err) != 0)
            fail_msg("round %d: history broken at %lld", round, (long long)expect);
        if (expect - 1 < acked)
            fail_msg("round %d: acknowledged %lld, kept only up to %lld", round, (long long)acked,
                     (long long)(expect - 1));
        pl_buf_free(&err);
        store_close(s);
    }
    db_remove(path);
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
    char path[256];
    db_path(path, sizeof path, "config");
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
    db_remove(path);
    s = open_ok(":memory:");
    room_ok(s, "m", "ur", 1);
    store_action a = {"m", 0, -1, "roll 1", 1};
    assert_int_equal(store_append(s, &a, 1, &err), 0);
    assert_int_equal(store_count(s, "m", &err), 1);
    store_close(s);
    pl_buf_free(&err);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rooms_and_actions_round_trip),
        cmocka_unit_test(test_refusals_change_nothing),
        cmocka_unit_test(test_kill_9_loses_no_acknowledged_action),
        cmocka_unit_test(test_room_config),
        cmocka_unit_test(test_clear_empties),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
