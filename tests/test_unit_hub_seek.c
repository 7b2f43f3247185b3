/* test_unit_hub_seek.c — "Play now" through the hub (src/server/hub_seek.c)
 * driven synchronously with a fake clock, as test_unit_hub.c drives it: the
 * store's batches written to a real SQLite file, the computers' jobs run,
 * every message collected per connection. The window widening with the wait
 * (ratings given by the test_seed mode's `rating` field), a computer exactly
 * after N seconds, a pool of four people, the oldest member's options, a paired person who never comes
 * (the grace), the counts pushed at most once a second, the tick asked
 * for (hub_next_ms) only while someone waits, and a signed-in seeker's seek
 * waiting for its stored rating, and a flash crowd seated in parts; a
 * cluster's `online` summed over the live processes. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "hub.h"
#include "parlour/alloc.h"
#include "parlour/record.h"
#include "store.h"

#define MAXC 8

typedef struct drv {
    hub *h;
    store *s;
    char path[256];
    int64_t now;
    uint64_t id[MAXC];
    json_t *in[MAXC];
} drv;

static void db_remove(const char *path)
{
    char side[300];
    unlink(path);
    snprintf(side, sizeof side, "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", path);
    unlink(side);
}

/* A hub and its store; `owner` non-NULL: one process of a cluster
 * (hub_config.cluster) whose store handle is that owner's, heartbeat alive. */
static drv *drv_new_as(const char *name, const char *owner)
{
    pl_json_setup();
    drv *d = calloc(1, sizeof *d);
    snprintf(d->path, sizeof d->path, "hub_seek_test_%s_%ld.db", name, (long)getpid());
    db_remove(d->path);
    pl_buf err = {0};
    d->s = store_open(d->path, &err);
    hub_config cfg = {.test_seed = 4242, .takeover_level = "easy", .rate_per_s = 1000, .rate_burst = 3000,
                      .grace_s = 30, .cluster = owner != NULL};
    d->h = hub_new(&cfg, &err);
    if (!d->s || !d->h || (owner && (store_set_owner(d->s, owner, &err) < 0 || store_owner_beat(d->s, 60000, &err) < 0)))
        fail_msg("setup: %s", pl_buf_str(&err));
    pl_buf_free(&err);
    d->now = 5000000;
    for (int i = 0; i < MAXC; i++)
        d->in[i] = json_array();
    return d;
}

static drv *drv_new(const char *name)
{
    return drv_new_as(name, NULL);
}

static int conn_index(drv *d, uint64_t id)
{
    for (int i = 0; i < MAXC; i++)
        if (d->id[i] == id)
            return i;
    return -1;
}

/* Writes batches, runs jobs, collects messages until nothing moves. */
static void pump(drv *d)
{
    for (int guard = 0; guard < 100000; guard++) {
        int moved = 0;
        hub_batch *b = hub_store_take(d->h);
        if (b) {
            pl_buf err = {0};
            if (hub_batch_write(d->s, b, &err) != 0)
                fail_msg("batch write: %s", pl_buf_str(&err));
            pl_buf_free(&err);
            hub_store_done(d->h, b, 1, d->now);
            hub_batch_free(b);
            moved = 1;
        }
        hub_job *j = hub_job_take(d->h);
        if (j) {
            hub_job_run(j);
            hub_job_done(d->h, j, d->now);
            moved = 1;
        }
        hub_out o;
        while (hub_out_next(d->h, &o)) {
            int i = conn_index(d, o.conn);
            json_t *m = json_loadb(o.text, o.len, 0, NULL);
            if (!m)
                fail_msg("not JSON: %s", o.text);
            if (i >= 0)
                json_array_append_new(d->in[i], m);
            else
                json_decref(m);
            pl_free(o.text);
            moved = 1;
        }
        if (!moved)
            return;
    }
    fail_msg("the hub never settles");
}

static void drv_free(drv *d)
{
    pump(d);
    hub_free(d->h);
    store_close(d->s);
    db_remove(d->path);
    for (int i = 0; i < MAXC; i++)
        json_decref(d->in[i]);
    free(d);
}

static int connect_(drv *d)
{
    int i = conn_index(d, 0);
    assert_true(i >= 0);
    d->id[i] = hub_connect(d->h, d->now);
    assert_true(d->id[i] > 0);
    json_array_clear(d->in[i]);
    pump(d);
    return i;
}

static void sendf(drv *d, int i, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void sendf(drv *d, int i, const char *fmt, ...)
{
    char buf[2000];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    hub_message(d->h, d->id[i], buf, strlen(buf), d->now);
    pump(d);
}

/* Moves the clock to `to` in steps of at most 100 ms, ticking the hub
 * whenever it asked (hub_next_ms), as the server's loop does. */
static void run_to(drv *d, int64_t to)
{
    while (d->now < to) {
        int64_t next = hub_next_ms(d->h);
        int64_t step = d->now + 100 < to ? d->now + 100 : to;
        d->now = next > d->now && next < step ? next : step;
        if (hub_next_ms(d->h) <= d->now)
            hub_tick(d->h, d->now);
        pump(d);
    }
}

static json_t *last(drv *d, int i, const char *type)
{
    for (size_t k = json_array_size(d->in[i]); k-- > 0;) {
        json_t *m = json_array_get(d->in[i], k);
        if (!strcmp(json_string_value(json_object_get(m, "type")), type))
            return m;
    }
    return NULL;
}

static int count(drv *d, int i, const char *type)
{
    int n = 0;
    for (size_t k = 0; k < json_array_size(d->in[i]); k++)
        n += !strcmp(json_string_value(json_object_get(json_array_get(d->in[i], k), "type")), type);
    return n;
}

static void seek_ur(drv *d, int i, double rating, int after)
{
    sendf(d, i, "{\"type\":\"seek\",\"game\":\"ur\",\"computer_after_s\":%d,\"rating\":%g}", after, rating);
    if (!last(d, i, "seeking"))
        fail_msg("no seeking: %s", json_dumps(last(d, i, "error"), 0));
}

/* 1500 and 1900 (RD 350 each): windows 350 + 5 per second meet at 400,
 * after 10 s of waiting, and not a tick before. */
static void test_window_widens_with_the_wait(void **state)
{
    (void)state;
    drv *d = drv_new("window");
    assert_true(hub_next_ms(d->h) == INT64_MAX); /* nobody waits: no tick asked */
    int a = connect_(d), b = connect_(d);
    int64_t t0 = d->now;
    seek_ur(d, a, 1500, 0);
    seek_ur(d, b, 1900, 0);
    assert_true(hub_next_ms(d->h) <= d->now + 250); /* ticks while anyone waits */
    run_to(d, t0 + 9900);
    assert_int_equal(count(d, a, "paired"), 0);
    assert_int_equal(count(d, b, "paired"), 0);
    run_to(d, t0 + 10300);
    json_t *pa = last(d, a, "paired"), *pb = last(d, b, "paired");
    assert_non_null(pa);
    assert_non_null(pb);
    assert_string_equal(json_string_value(json_object_get(pa, "room")), json_string_value(json_object_get(pb, "room")));
    assert_true(json_is_false(json_object_get(pa, "computer")));
    assert_true(hub_next_ms(d->h) > d->now + 1000); /* nobody waits: no pool tick */
    /* they join with their tokens and the game runs */
    sendf(d, a, "{\"type\":\"join\",\"room\":\"%s\",\"token\":\"%s\"}", json_string_value(json_object_get(pa, "room")),
          json_string_value(json_object_get(pa, "token")));
    assert_non_null(last(d, a, "joined"));
    assert_int_equal(json_integer_value(json_object_get(last(d, a, "joined"), "seat")),
                     json_integer_value(json_object_get(pa, "seat")));
    assert_string_equal(json_string_value(json_object_get(last(d, a, "state"), "status")), "playing");
    drv_free(d);
}

/* computer_after_s 3: nothing at 2.9 s, the computer at 3 s; 1000 in Ur
 * Skiryuk is nearest `easy` (levels.txt: easy 1000). The paired person
 * who never joins: after the grace a computer keeps the seat. */
static void test_computer_after_n_seconds(void **state)
{
    (void)state;
    drv *d = drv_new("computer");
    int a = connect_(d);
    int64_t t0 = d->now;
    seek_ur(d, a, 1000, 3);
    run_to(d, t0 + 2900);
    assert_int_equal(count(d, a, "paired"), 0);
    run_to(d, t0 + 3250);
    json_t *p = last(d, a, "paired");
    assert_non_null(p);
    assert_true(json_is_true(json_object_get(p, "computer")));
    char room[64], tok[64];
    snprintf(room, sizeof room, "%s", json_string_value(json_object_get(p, "room")));
    snprintf(tok, sizeof tok, "%s", json_string_value(json_object_get(p, "token")));
    int seat = (int)json_integer_value(json_object_get(p, "seat"));
    int w = connect_(d);
    sendf(d, w, "{\"type\":\"watch\",\"room\":\"%s\"}", room);
    json_t *seats = json_object_get(last(d, w, "state"), "seats");
    json_t *other = json_array_get(seats, (size_t)(1 - seat));
    assert_string_equal(json_string_value(json_object_get(other, "kind")), "ai");
    assert_string_equal(json_string_value(json_object_get(other, "level")), "easy");
    assert_false(json_is_true(json_object_get(json_array_get(seats, (size_t)seat), "covered")));
    assert_true(json_is_null(json_object_get(last(d, w, "state"), "clock"))); /* a guest's: casual, no clock */
    run_to(d, d->now + 31000); /* the grace (30 s) runs out: a computer keeps the seat */
    seats = json_object_get(last(d, w, "state"), "seats");
    assert_true(json_is_true(json_object_get(json_array_get(seats, (size_t)seat), "covered")));
    sendf(d, a, "{\"type\":\"join\",\"room\":\"%s\",\"token\":\"%s\"}", room, tok); /* comes back: the seat again */
    assert_non_null(last(d, a, "joined"));
    drv_free(d);
}

/* levels.txt also rates Ur's perfect player (ur/finkel perfect, measured
 * with a table: scripts/level_ratings.sh --perfect), which no room can seat
 * without its file: a Finkel seeker rated above it gets the strongest level
 * a room can seat, `hard`. */
static void test_computer_never_the_measured_only_perfect_player(void **state)
{
    (void)state;
    drv *d = drv_new("perfect");
    int a = connect_(d);
    sendf(d, a, "{\"type\":\"seek\",\"game\":\"ur\",\"options\":{\"rules\":\"finkel\"},\"computer_after_s\":1,"
                "\"rating\":2400}");
    assert_non_null(last(d, a, "seeking"));
    run_to(d, d->now + 1500);
    json_t *p = last(d, a, "paired");
    assert_non_null(p);
    assert_true(json_is_true(json_object_get(p, "computer")));
    char room[64];
    snprintf(room, sizeof room, "%s", json_string_value(json_object_get(p, "room")));
    int seat = (int)json_integer_value(json_object_get(p, "seat"));
    int w = connect_(d);
    sendf(d, w, "{\"type\":\"watch\",\"room\":\"%s\"}", room);
    json_t *seats = json_object_get(last(d, w, "state"), "seats");
    assert_string_equal(json_string_value(json_object_get(json_array_get(seats, (size_t)(1 - seat)), "level")), "hard");
    drv_free(d);
}

/* Options a pool lets vary (Ur's start) are those of the member who waited
 * longest, whoever has the lower rating. */
static void test_oldest_members_options(void **state)
{
    (void)state;
    drv *d = drv_new("options");
    int a = connect_(d), b = connect_(d);
    sendf(d, a, "{\"type\":\"seek\",\"game\":\"ur\",\"options\":{\"start\":\"dark\"},\"computer_after_s\":0,"
                "\"rating\":1600}");
    d->now += 50;
    sendf(d, b, "{\"type\":\"seek\",\"game\":\"ur\",\"options\":{\"start\":\"light\"},\"computer_after_s\":0,"
                "\"rating\":1500}");
    assert_string_equal(json_string_value(json_object_get(last(d, b, "seeking"), "pool")), "ur/skiryuk");
    run_to(d, d->now + 300);
    json_t *p = last(d, b, "paired");
    assert_non_null(p);
    sendf(d, b, "{\"type\":\"join\",\"room\":\"%s\",\"token\":\"%s\"}", json_string_value(json_object_get(p, "room")),
          json_string_value(json_object_get(p, "token")));
    json_t *opts = json_object_get(last(d, b, "joined"), "options");
    assert_string_equal(json_string_value(json_object_get(opts, "start")), "dark");
    drv_free(d);
}

/* City Behind Walls 2 v 2: four people, one room, four seats. */
static void test_four_people(void **state)
{
    (void)state;
    drv *d = drv_new("four");
    int c[4];
    for (int i = 0; i < 4; i++) {
        c[i] = connect_(d);
        sendf(d, c[i], "{\"type\":\"seek\",\"game\":\"cbw\",\"options\":{\"players\":\"4\"},\"computer_after_s\":0}");
        assert_string_equal(json_string_value(json_object_get(last(d, c[i], "seeking"), "pool")), "cbw/2v2");
        run_to(d, d->now + 300);
        assert_int_equal(count(d, c[i], "paired"), i == 3);
    }
    unsigned seats = 0;
    for (int i = 0; i < 4; i++) {
        json_t *p = last(d, c[i], "paired");
        assert_string_equal(json_string_value(json_object_get(p, "room")),
                            json_string_value(json_object_get(last(d, c[0], "paired"), "room")));
        seats |= 1u << json_integer_value(json_object_get(p, "seat"));
    }
    assert_int_equal(seats, 15);
    drv_free(d);
}

/* counts: the answer at once, then a push when they change, at most once a
 * second; none while in a room; a connection's going ends its seek. */
static void test_counts_pushed_once_a_second(void **state)
{
    (void)state;
    drv *d = drv_new("counts");
    int w = connect_(d), a = connect_(d), b = connect_(d);
    sendf(d, w, "{\"type\":\"counts\"}");
    assert_int_equal(count(d, w, "counts"), 1);
    assert_int_equal(json_integer_value(json_object_get(last(d, w, "counts"), "online")), 3);
    run_to(d, d->now + 1500);
    assert_int_equal(count(d, w, "counts"), 1); /* nothing changed: nothing pushed */
    sendf(d, a, "{\"type\":\"seek\",\"game\":\"tamcuc\",\"options\":{\"players\":\"3\"},\"computer_after_s\":0}");
    run_to(d, d->now + 300);
    sendf(d, b, "{\"type\":\"seek\",\"game\":\"tamcuc\",\"options\":{\"players\":\"3\"},\"computer_after_s\":0}");
    run_to(d, d->now + 300);
    assert_int_equal(count(d, w, "counts"), 2); /* a's change pushed at once; b's waits for the second */
    run_to(d, d->now + 800);
    assert_int_equal(count(d, w, "counts"), 3);
    json_t *m = last(d, w, "counts");
    assert_int_equal(json_integer_value(json_object_get(json_object_get(m, "pools"), "tamcuc/3")), 2);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(m, "waiting"), "tamcuc")), 2);
    hub_disconnect(d->h, d->id[a], d->now);
    d->id[a] = 0;
    run_to(d, d->now + 1100);
    m = last(d, w, "counts");
    assert_int_equal(json_integer_value(json_object_get(json_object_get(m, "pools"), "tamcuc/3")), 1);
    assert_int_equal(json_integer_value(json_object_get(m, "online")), 2);
    drv_free(d);
}

/* A cluster's `online` (docs/pairing.md, "Several processes"): this
 * process's connections now plus the other live processes' as their
 * heartbeats stored them, read with the lobby (hub_lobby_read, as the
 * cluster thread reads it); an expired process's count nothing. */
static void test_counts_online_across_processes(void **state)
{
    (void)state;
    drv *d = drv_new_as("online", "host:1:me");
    int w = connect_(d);
    pl_buf err = {0};
    store *other = store_open(d->path, &err);
    if (!other || store_set_owner(other, "host:2:other", &err) < 0 ||
        store_owner_beat_conns(other, 60000, 4, &err) < 0 || store_owner_beat_conns(d->s, 60000, 1, &err) < 0)
        fail_msg("other: %s", pl_buf_str(&err));
    sendf(d, w, "{\"type\":\"counts\"}");
    assert_int_equal(json_integer_value(json_object_get(last(d, w, "counts"), "online")), 1); /* not read yet */
    hub_lobby *l = hub_lobby_read(d->s, 0, &err);
    assert_non_null(l);
    hub_lobby_set(d->h, l);
    run_to(d, d->now + 1100);
    assert_int_equal(json_integer_value(json_object_get(last(d, w, "counts"), "online")), 5);
    connect_(d); /* this process's own: counted at once */
    run_to(d, d->now + 1100);
    assert_int_equal(json_integer_value(json_object_get(last(d, w, "counts"), "online")), 6);
    assert_true(store_owner_beat(other, -5000, &err) == 1); /* the other process's heartbeat ends */
    l = hub_lobby_read(d->s, 0, &err);
    assert_non_null(l);
    hub_lobby_set(d->h, l);
    run_to(d, d->now + 1100);
    assert_int_equal(json_integer_value(json_object_get(last(d, w, "counts"), "online")), 2);
    store_close(other);
    pl_buf_free(&err);
    drv_free(d);
}

/* A signed-in seeker's seek waits for the store's rating (read with the
 * next batch) before it is in the pool: no `seeking` until the batch comes
 * back; an unseek meanwhile ends it (the rating that comes back counts for
 * nothing); a seek, unseek and seek again in one batch enter once. An
 * account with no rating in the pool seeks as a new player, 1500. */
static void test_account_waits_for_its_rating(void **state)
{
    (void)state;
    drv *d = drv_new("account");
    int a = connect_(d), b = connect_(d);
    hub_account(d->h, d->id[a], 7, "Ann", d->now);
    hub_account(d->h, d->id[b], 8, "Bob", d->now);
    pump(d);
    static const char seek[] = "{\"type\":\"seek\",\"game\":\"ur\",\"computer_after_s\":0,\"name\":\"x\"}";
    static const char unseek[] = "{\"type\":\"unseek\"}";
    /* a: seek then unseek before the store answers */
    hub_message(d->h, d->id[a], seek, strlen(seek), d->now);
    hub_out o;
    while (hub_out_next(d->h, &o)) { /* nothing but what was there: no seeking yet */
        assert_null(strstr(o.text, "seeking"));
        pl_free(o.text);
    }
    hub_message(d->h, d->id[a], unseek, strlen(unseek), d->now);
    /* b: seek, unseek, seek again, all before the store answers */
    hub_message(d->h, d->id[b], seek, strlen(seek), d->now);
    hub_message(d->h, d->id[b], unseek, strlen(unseek), d->now);
    hub_message(d->h, d->id[b], seek, strlen(seek), d->now);
    pump(d); /* the batch with the three looks written and answered */
    assert_int_equal(count(d, a, "seeking"), 0);
    assert_string_equal(json_string_value(json_object_get(last(d, a, "unseeked"), "pool")), "ur/skiryuk");
    assert_int_equal(count(d, b, "seeking"), 1);
    json_t *sk = last(d, b, "seeking");
    assert_int_equal(json_integer_value(json_object_get(sk, "rating")), 1500); /* none stored: a new player */
    assert_int_equal(json_integer_value(json_object_get(sk, "waiting")), 1);   /* b alone: a's seek is gone */
    run_to(d, d->now + 1000);
    assert_int_equal(count(d, b, "paired"), 0);
    hub_account(d->h, d->id[a], 7, "Ann", d->now);
    sendf(d, a, "%s", seek); /* a seeks again: the two are paired, seated by their account names */
    assert_int_equal(count(d, a, "seeking"), 1);
    run_to(d, d->now + 300);
    json_t *p = last(d, a, "paired");
    assert_non_null(p);
    sendf(d, a, "{\"type\":\"join\",\"room\":\"%s\",\"token\":\"%s\"}",
          json_string_value(json_object_get(p, "room")), json_string_value(json_object_get(p, "token")));
    json_t *seats = json_object_get(last(d, a, "state"), "seats");
    const char *n0 = json_string_value(json_object_get(json_array_get(seats, 0), "name"));
    const char *n1 = json_string_value(json_object_get(json_array_get(seats, 1), "name"));
    assert_true((!strcmp(n0, "Ann") && !strcmp(n1, "Bob")) || (!strcmp(n0, "Bob") && !strcmp(n1, "Ann")));
    /* two accounts: a rated room, with the rated rooms' move clock (docs/ratings.md, "Stalling") */
    assert_true(json_is_true(json_object_get(p, "rated")));
    json_t *clock = json_object_get(last(d, a, "state"), "clock");
    assert_int_equal(json_integer_value(json_object_get(clock, "move_s")), 60);
    assert_null(json_object_get(clock, "total_s"));
    drv_free(d);
}

/* A flash crowd: 257 pairings made in one tick are seated 256 at a tick
 * (HUBP_SEAT_PER_TICK), the rest at the next one, 1 ms later. The last
 * pairing (a and b: rated far from the crowd, made last) waits; b closes
 * meanwhile, so a goes back in the pool (no `paired`) and is paired with c
 * at the next pool tick. */
static void test_flash_crowd_seated_in_parts(void **state)
{
    (void)state;
    drv *d = drv_new("flash");
    enum { CROWD = 512 };
    uint64_t *crowd = calloc(CROWD, sizeof *crowd);
    for (int i = 0; i < CROWD; i++) {
        crowd[i] = hub_connect(d->h, d->now);
        static const char m[] = "{\"type\":\"seek\",\"game\":\"ur\",\"computer_after_s\":0,\"rating\":1500}";
        hub_message(d->h, crowd[i], m, strlen(m), d->now);
    }
    pump(d);
    d->now += 10;
    int a = connect_(d), b = connect_(d), c = connect_(d);
    seek_ur(d, a, 2500, 0);
    seek_ur(d, b, 2500, 0);
    int64_t t = hub_next_ms(d->h);
    assert_true(t <= d->now); /* the first tick at once */
    hub_tick(d->h, d->now);
    pump(d);
    assert_int_equal(count(d, a, "paired"), 0); /* the 257th pairing: not seated yet */
    assert_true(hub_next_ms(d->h) == d->now + 1); /* the rest soon, the sockets served between */
    hub_disconnect(d->h, d->id[b], d->now);
    d->id[b] = 0;
    d->now += 1;
    hub_tick(d->h, d->now);
    pump(d);
    assert_int_equal(count(d, a, "paired"), 0);
    assert_int_equal(count(d, a, "error"), 0); /* a still seeks: back in the pool */
    seek_ur(d, c, 2500, 0);
    run_to(d, d->now + 300);
    json_t *pa = last(d, a, "paired"), *pc = last(d, c, "paired");
    assert_non_null(pa);
    assert_non_null(pc);
    assert_string_equal(json_string_value(json_object_get(pa, "room")), json_string_value(json_object_get(pc, "room")));
    for (int i = 0; i < CROWD; i++)
        hub_disconnect(d->h, crowd[i], d->now);
    free(crowd);
    drv_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_window_widens_with_the_wait),
        cmocka_unit_test(test_computer_after_n_seconds),
        cmocka_unit_test(test_computer_never_the_measured_only_perfect_player),
        cmocka_unit_test(test_oldest_members_options),
        cmocka_unit_test(test_four_people),
        cmocka_unit_test(test_counts_pushed_once_a_second),
        cmocka_unit_test(test_counts_online_across_processes),
        cmocka_unit_test(test_account_waits_for_its_rating),
        cmocka_unit_test(test_flash_crowd_seated_in_parts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
