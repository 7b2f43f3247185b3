/* test_unit_hub.c — the hub (src/server/hub.h) driven synchronously with a
 * fake clock: after every call a driver writes the hub's store batches to a
 * real SQLite file, runs the computer players' jobs and collects every
 * message per connection (parsed back with jansson). Whole games of every
 * game, reconnect, spectators, chat, rematch, records, hostile messages,
 * the rate limit, messages held until the write is durable, a failed write
 * taken back, restart (hub_restore), grace takeover and the move clock,
 * stalling a rated room counted as leaving,
 * replay (of a room, of an uploaded record) with exact chances from a table. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ai/ai.h"
#include "helpers.h"
#include "hub.h"
#include "parlour/alloc.h"
#include "parlour/record.h"
#include "parlour/registry.h"
#include "store.h"

#define MAXC 16
#define TEST_SEED 987654321987ull

typedef struct drv {
    hub *h;
    store *s;
    char path[256];
    int64_t now;
    int hold;      /* 1: batches are not written (messages stay held) */
    int fail_next; /* 1: the next batch fails */
    int no_jobs;   /* 1: jobs wait */
    uint64_t id[MAXC];
    json_t *in[MAXC]; /* every message received, by connection */
    int closed[MAXC];
    pl_buf all;       /* every message's text, for the leak scans */
    int64_t t0[MAXC];      /* karuta: the last reading's first kana, by connection */
    int reading[MAXC];     /* ... its number */
    int touched[MAXC];     /* the last reading this connection answered */
    int kana_seen[MAXC];   /* kana of the current reading received */
    int64_t clock_off;     /* the clients' clocks: the server's plus this */
    int syncs;             /* sync answers sent */
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

static void drv_open_store(drv *d)
{
    pl_buf err = {0};
    d->s = store_open(d->path, &err);
    if (!d->s)
        fail_msg("store_open: %s", pl_buf_str(&err));
    pl_buf_free(&err);
}

static hub *new_hub(int rate)
{
    hub_config cfg = {.test_seed = TEST_SEED, .takeover_level = "easy", .rate_per_s = rate, .rate_burst = rate * 3};
    pl_buf err = {0};
    hub *h = hub_new(&cfg, &err);
    if (!h)
        fail_msg("hub_new: %s", pl_buf_str(&err));
    pl_buf_free(&err);
    return h;
}

static drv *drv_new(const char *name)
{
    pl_json_setup();
    drv *d = calloc(1, sizeof *d);
    snprintf(d->path, sizeof d->path, "hub_test_%s_%ld.db", name, (long)getpid());
    db_remove(d->path);
    drv_open_store(d);
    d->h = new_hub(1000);
    d->now = 1000000;
    d->clock_off = 3600000 + 17;
    for (int i = 0; i < MAXC; i++)
        d->in[i] = json_array();
    return d;
}

static int conn_index(drv *d, uint64_t id)
{
    for (int i = 0; i < MAXC; i++)
        if (d->id[i] == id)
            return i;
    return -1;
}

/* Runs the store, the jobs and collects messages until nothing moves. */
static void pump(drv *d)
{
    for (int guard = 0; guard < 100000; guard++) {
        int moved = 0;
        hub_batch *b = d->hold ? NULL : hub_store_take(d->h);
        if (b) {
            pl_buf err = {0};
            int ok = !d->fail_next && hub_batch_write(d->s, b, &err) == 0;
            if (!d->fail_next && !ok)
                fail_msg("batch write: %s", pl_buf_str(&err));
            d->fail_next = 0;
            pl_buf_free(&err);
            hub_store_done(d->h, b, ok, d->now);
            hub_batch_free(b);
            moved = 1;
        }
        hub_job *j = d->no_jobs ? NULL : hub_job_take(d->h);
        if (j) {
            hub_job_run(j);
            hub_job_done(d->h, j, d->now);
            moved = 1;
        }
        hub_out o;
        while (hub_out_next(d->h, &o)) {
            int i = conn_index(d, o.conn);
            json_error_t je;
            json_t *m = json_loadb(o.text, o.len, 0, &je);
            if (!m || !json_is_object(m))
                fail_msg("not a JSON object: %s", o.text);
            char *canon = json_dumps(m, JSON_COMPACT | JSON_SORT_KEYS); /* the hub writes states by hand */
            if (!canon || strlen(canon) != o.len || memcmp(canon, o.text, o.len))
                fail_msg("not jansson's compact sorted text:\n%s\n%s", o.text, canon ? canon : "(null)");
            pl_free(canon);
            pl_buf_printf(&d->all, "%s\n", o.text);
            const char *type = json_string_value(json_object_get(m, "type"));
            if (i >= 0 && !strcmp(type, "reading")) {
                d->t0[i] = json_integer_value(json_object_get(m, "t0_ms"));
                d->reading[i] = (int)json_integer_value(json_object_get(m, "n"));
                d->kana_seen[i] = 0;
            }
            if (i >= 0 && !strcmp(type, "kana")) { /* never before its time */
                int64_t due = d->t0[i] + json_integer_value(json_object_get(m, "t_ms"));
                if (d->now < due)
                    fail_msg("kana %s sent at %lld, due at %lld", o.text, (long long)d->now, (long long)due);
                assert_int_equal(json_integer_value(json_object_get(m, "i")), d->kana_seen[i]);
                d->kana_seen[i]++;
            }
            if (i >= 0 && !strcmp(type, "sync")) { /* the client answers at once */
                char ans[128];
                snprintf(ans, sizeof ans, "{\"type\":\"sync\",\"id\":%lld,\"client_ms\":%lld}",
                         (long long)json_integer_value(json_object_get(m, "id")), (long long)(d->now + d->clock_off));
                hub_message(d->h, o.conn, ans, strlen(ans), d->now);
                d->syncs++;
            }
            if (i >= 0) {
                json_array_append_new(d->in[i], m);
                d->closed[i] |= o.close;
            } else
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
    pl_buf_free(&d->all);
    free(d);
}

static int connect_(drv *d)
{
    uint64_t id = hub_connect(d->h, d->now);
    assert_true(id > 0);
    int i = conn_index(d, 0);
    assert_true(i >= 0);
    d->id[i] = id;
    json_array_clear(d->in[i]);
    d->closed[i] = 0;
    pump(d);
    return i;
}

static void disconnect_(drv *d, int i)
{
    hub_disconnect(d->h, d->id[i], d->now);
    d->id[i] = 0;
    pump(d);
}

static void sendn(drv *d, int i, const char *text, size_t len)
{
    d->now += 7;
    hub_message(d->h, d->id[i], text, len, d->now);
    pump(d);
}

static void sendf(drv *d, int i, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void sendf(drv *d, int i, const char *fmt, ...)
{
    char buf[10000];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    sendn(d, i, buf, strlen(buf));
}

/* The last message of `type` that connection i got, or NULL. */
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

static const char *str(json_t *m, const char *key)
{
    json_t *v = json_object_get(m, key);
    assert_non_null(v);
    return json_string_value(v);
}

static long num(json_t *m, const char *key)
{
    json_t *v = json_object_get(m, key);
    if (!v || !json_is_integer(v))
        fail_msg("no integer %s in %s", key, json_dumps(m, 0));
    return (long)json_integer_value(v);
}

/* Creates a room from connection i; returns its code (static). */
static const char *create(drv *d, int i, const char *body)
{
    static char code[64];
    sendf(d, i, "{\"type\":\"create\",%s}", body);
    json_t *c = last(d, i, "created");
    if (!c)
        fail_msg("no room: %s", json_dumps(last(d, i, "error"), 0));
    snprintf(code, sizeof code, "%s", str(c, "room"));
    assert_int_equal(strlen(code), 32);
    return code;
}

static int join(drv *d, const char *room, const char *name)
{
    int i = connect_(d);
    sendf(d, i, "{\"type\":\"join\",\"room\":\"%s\",\"name\":\"%s\"}", room, name);
    if (!last(d, i, "joined"))
        fail_msg("join refused: %s", json_dumps(last(d, i, "error"), 0));
    return i;
}

/* Two people in a new room: connection `owner` creates it from `body` (the
 * create message's fields), then "ann" (p0, seat 0) and "bob" (p1, seat 1)
 * join, each from a new connection. */
typedef struct duo {
    char room[64];
    int owner, p0, p1;
} duo;

/* cbw for ann and bob and two computer players. */
#define CBW_TWO_PEOPLE "\"game\":\"cbw\",\"seats\":[{\"kind\":\"person\"},{\"kind\":\"person\"},{\"kind\":\"ai\",\"level\":\"easy\"},{\"kind\":\"ai\",\"level\":\"easy\"}]"

static duo duo_open(drv *d, const char *body)
{
    duo t;
    t.owner = connect_(d);
    snprintf(t.room, sizeof t.room, "%s", create(d, t.owner, body));
    t.p0 = join(d, t.room, "ann");
    t.p1 = join(d, t.room, "bob");
    return t;
}

/* The one of t's two people who acts now: p0 when p0's last state lists
 * legal actions, else p1. */
static int duo_mover(drv *d, const duo *t)
{
    return json_array_size(json_object_get(last(d, t->p0, "state"), "legal")) ? t->p0 : t->p1;
}

/* The error code of the last message of i, which must be an error. */
static const char *last_error(drv *d, int i)
{
    json_t *m = json_array_get(d->in[i], json_array_size(d->in[i]) - 1);
    assert_non_null(m);
    if (strcmp(str(m, "type"), "error"))
        fail_msg("expected an error, got %s", json_dumps(m, 0));
    assert_true(strlen(str(m, "message")) > 0);
    return str(m, "error");
}

/* Plays one action from `legal` for every person connection that has one;
 * returns how many acted. `pick` chooses among the legal actions. */
static int play_round(drv *d, const int *conns, int n, unsigned *pick)
{
    int acted = 0;
    for (int k = 0; k < n; k++) {
        json_t *st = last(d, conns[k], "state");
        if (!st || json_is_true(json_object_get(st, "over")))
            continue;
        json_t *legal = json_object_get(st, "legal");
        size_t nl = json_array_size(legal);
        if (!nl)
            continue;
        *pick = *pick * 1103515245u + 12345u;
        const char *a = str(json_array_get(legal, (*pick >> 8) % nl), "action");
        char buf[512];
        snprintf(buf, sizeof buf, "%s", a);
        sendf(d, conns[k], "{\"type\":\"act\",\"action\":\"%s\",\"seq\":%ld}", buf, num(st, "seq"));
        json_t *m = json_array_get(d->in[conns[k]], json_array_size(d->in[conns[k]]) - 1);
        if (!strcmp(str(m, "type"), "error"))
            fail_msg("refused %s: %s", buf, json_dumps(m, 0));
        acted++;
    }
    return acted;
}

/* Karuta: every person answers the reading under way once it has heard a
 * kana: a card of the table, or nothing (left to the deadline). */
static int touch_round(drv *d, const int *conns, int n, unsigned *pick)
{
    int acted = 0;
    for (int k = 0; k < n; k++) {
        int i = conns[k];
        if (!d->reading[i] || d->touched[i] == d->reading[i] || !d->kana_seen[i])
            continue;
        d->touched[i] = d->reading[i];
        json_t *view = json_object_get(last(d, i, "state"), "view");
        int cards[100], nc = 0;
        json_t *terr = json_object_get(view, "territories");
        for (size_t t = 0; t < json_array_size(terr); t++) {
            json_t *cs = json_object_get(json_array_get(terr, t), "cards");
            for (size_t c = 0; c < json_array_size(cs) && nc < 100; c++)
                cards[nc++] = (int)num(json_array_get(cs, c), "card");
        }
        *pick = *pick * 1103515245u + 12345u;
        if (!nc || (*pick >> 8) % 4 == 0)
            continue; /* no touch this time */
        int card = cards[(*pick >> 12) % (unsigned)nc];
        sendf(d, i, "{\"type\":\"touch\",\"card\":%d,\"client_ms\":%lld}", card, (long long)(d->now + d->clock_off));
        json_t *m = json_array_get(d->in[i], json_array_size(d->in[i]) - 1);
        if (!strcmp(str(m, "type"), "error"))
            fail_msg("touch refused: %s", json_dumps(m, 0));
        acted++;
    }
    return acted;
}

/* A reading under way: no view names its card, no history tells it. */
static void check_reading_hidden(drv *d, int i)
{
    json_t *st = last(d, i, "state");
    json_t *view = st ? json_object_get(st, "view") : NULL;
    if (!view || !json_object_get(view, "stage") || strcmp(str(view, "stage"), "touch"))
        return;
    assert_true(json_is_null(json_object_get(json_object_get(view, "reading"), "card")));
    json_t *hist = json_object_get(st, "history");
    for (size_t k = 0; k < json_array_size(hist); k++)
        assert_true(num(json_array_get(hist, k), "seq") < num(st, "seq") - 1); /* not the "read" */
    assert_int_equal(json_array_size(json_object_get(st, "legal")), 0);
}

static void play_to_end(drv *d, const int *conns, int n, unsigned seed)
{
    for (int round = 0; round < 100000; round++) {
        json_t *st = last(d, conns[0], "state");
        if (st && json_is_true(json_object_get(st, "over")))
            return;
        for (int k = 0; k < n; k++)
            check_reading_hidden(d, conns[k]);
        if (play_round(d, conns, n, &seed) || touch_round(d, conns, n, &seed))
            continue;
        int64_t next = hub_next_ms(d->h);
        if (next == INT64_MAX)
            fail_msg("nobody can act, nothing is timed and the game is not over: %s",
                     st ? json_dumps(st, 0) : "no state");
        if (next > d->now)
            d->now = next;
        hub_tick(d->h, d->now);
        pump(d);
    }
    fail_msg("the game did not end");
}

/* Every state a connection got continues its history without a gap. */
static void check_history(drv *d, int i)
{
    long have = 0;
    for (size_t k = 0; k < json_array_size(d->in[i]); k++) {
        json_t *m = json_array_get(d->in[i], k);
        if (strcmp(str(m, "type"), "state"))
            continue;
        long from = num(m, "history_from");
        assert_true(from <= have);
        json_t *hist = json_object_get(m, "history");
        for (size_t e = 0; e < json_array_size(hist); e++) {
            json_t *en = json_array_get(hist, e);
            assert_int_equal(num(en, "seq"), from + (long)e);
            json_t *ev = json_object_get(en, "events"); /* what happened, as data (docs/web-views.md) */
            assert_true(json_is_array(ev));
            for (size_t k2 = 0; k2 < json_array_size(ev); k2++)
                assert_true(json_is_string(json_object_get(json_array_get(ev, k2), "type")));
        }
        json_t *legal = json_object_get(m, "legal");
        for (size_t e = 0; e < json_array_size(legal); e++)
            assert_true(json_is_object(json_object_get(json_array_get(legal, e), "fields")));
        have = from + (long)json_array_size(hist);
        assert_true(have <= num(m, "seq"));
    }
}

/* The text of history entry `seq` as connection i got it, or NULL. */
static const char *entry_text(drv *d, int i, long seq, long *seat)
{
    for (size_t k = 0; k < json_array_size(d->in[i]); k++) {
        json_t *m = json_array_get(d->in[i], k);
        if (strcmp(str(m, "type"), "state"))
            continue;
        json_t *hist = json_object_get(m, "history");
        for (size_t e = 0; e < json_array_size(hist); e++) {
            json_t *en = json_array_get(hist, e);
            if (num(en, "seq") == seq) {
                *seat = num(en, "seat");
                return str(en, "text");
            }
        }
    }
    return NULL;
}

/* Two seats (conns[0] seat 0, conns[1] seat 1) and a spectator: the
 * spectator reads each action as the seat that did not play it, and a
 * chance outcome the seats read differently (their own cards) as "?". */
static void check_spectator_texts(drv *d, const int *conns, int spec, int must_hide)
{
    long n = num(last(d, spec, "state"), "seq");
    int hidden = 0;
    for (long q = 0; q < n; q++) {
        long seat = 0, s0, s1;
        const char *t = entry_text(d, spec, q, &seat);
        const char *a = entry_text(d, conns[0], q, &s0);
        const char *b = entry_text(d, conns[1], q, &s1);
        assert_non_null(t);
        assert_non_null(a);
        assert_non_null(b);
        int seat0 = (int)num(last(d, conns[0], "joined"), "seat");
        const char *other = seat == seat0 ? b : a; /* what the seat that did not play reads */
        if (seat >= 0)
            assert_string_equal(t, other);
        else if (strcmp(a, b))
            assert_string_equal(t, "?");
        else
            assert_string_equal(t, a);
        hidden += strcmp(a, b) != 0;
    }
    if (must_hide)
        assert_true(hidden > 0); /* the game did hide something from someone */
}

/* No text before `upto` bytes of d->all holds `needle`. */
static void no_leak(drv *d, size_t upto, const char *needle)
{
    const char *all = pl_buf_str(&d->all);
    const char *p = strstr(all, needle);
    if (p && (size_t)(p - all) < upto)
        fail_msg("a message before the end holds '%s': %.300s", needle, p > all + 200 ? p - 200 : all);
}

/* Counts stored actions of seat `*(int *)ctx` whose text begins with "touch". */
static int count_touch(void *ctx, const store_action *a)
{
    int *c = ctx;
    if (a->seat == c[0] && !strncmp(a->text, "touch", 5))
        c[1]++;
    return 0;
}

/* ---- tests ---------------------------------------------------------------- */

/* welcome.invite (issue 31): absent until hub_invite_set, then the URLs
 * given (copied) and local_only, on connect and in answer to hello. */
static void test_welcome_invite(void **state)
{
    (void)state;
    drv *d = drv_new("invite");
    int a = connect_(d);
    assert_null(json_object_get(last(d, a, "welcome"), "invite"));
    char url[] = "http://192.168.1.20:8080/";
    const char *urls[] = {url, "https://games.example.org/"};
    assert_int_equal(hub_invite_set(d->h, urls, 2, 0), 0);
    url[7] = 'X'; /* the hub keeps its own copy */
    int b = connect_(d);
    json_t *inv = json_object_get(last(d, b, "welcome"), "invite");
    assert_non_null(inv);
    assert_true(json_is_false(json_object_get(inv, "local_only")));
    json_t *u = json_object_get(inv, "urls");
    assert_int_equal(json_array_size(u), 2);
    assert_string_equal(json_string_value(json_array_get(u, 0)), "http://192.168.1.20:8080/");
    assert_string_equal(json_string_value(json_array_get(u, 1)), "https://games.example.org/");
    assert_int_equal(hub_invite_set(d->h, NULL, 0, 1), 0); /* this machine only: replaced */
    sendf(d, a, "{\"type\":\"hello\",\"v\":1}");
    inv = json_object_get(last(d, a, "welcome"), "invite");
    assert_true(json_is_true(json_object_get(inv, "local_only")));
    assert_int_equal(json_array_size(json_object_get(inv, "urls")), 0);
    drv_free(d);
}

static void test_lobby(void **state)
{
    (void)state;
    drv *d = drv_new("lobby");
    int a = connect_(d);
    json_t *w = last(d, a, "welcome");
    assert_non_null(w);
    assert_int_equal(num(w, "protocol"), 1);
    assert_string_equal(str(w, "server"), "parlour " PARLOUR_VERSION); /* the version of CMakeLists.txt */
    sendf(d, a, "{\"type\":\"hello\",\"v\":1}");
    assert_int_equal(count(d, a, "welcome"), 2);
    sendf(d, a, "{\"type\":\"games\"}");
    json_t *g = json_object_get(last(d, a, "games"), "games");
    assert_int_equal(json_array_size(g), 4);
    int seen_levels = 0;
    for (size_t k = 0; k < json_array_size(g); k++) {
        json_t *e = json_array_get(g, k);
        assert_true(json_array_size(json_object_get(e, "options")) > 0);
        seen_levels += json_array_size(json_object_get(e, "levels")) >= 3;
        const pl_game *pg = pl_game_find(str(e, "id")); /* the levels are the AI's list (ai_level) */
        json_t *lv = json_object_get(e, "levels");
        for (size_t i = 0; i <= json_array_size(lv); i++) {
            const pl_level *want = ai_level(pg, (int)i);
            if (i == json_array_size(lv)) {
                assert_null(want);
                break;
            }
            assert_non_null(want);
            assert_string_equal(str(json_array_get(lv, i), "name"), want->name);
            assert_string_equal(str(json_array_get(lv, i), "about"), want->about);
        }
    }
    assert_int_equal(seen_levels, 4);
    create(d, a, "\"game\":\"ur\",\"public\":true");
    create(d, a, "\"game\":\"ur\"");
    sendf(d, a, "{\"type\":\"rooms\"}");
    json_t *rooms = json_object_get(last(d, a, "rooms"), "rooms");
    assert_int_equal(json_array_size(rooms), 1); /* only the public one */
    assert_string_equal(str(json_array_get(rooms, 0), "state"), "waiting");
    drv_free(d);
}

/* A whole game of `game` with persons and computers; scans every message
 * for the seed and `secret` before the end. */
static void whole_game(const char *game, const char *body, int persons, const char *secret)
{
    drv *d = drv_new(game);
    int owner = connect_(d);
    char b[1024];
    snprintf(b, sizeof b, "\"game\":\"%s\"%s%s", game, *body ? "," : "", body);
    const char *code = create(d, owner, b);
    char room[64];
    snprintf(room, sizeof room, "%s", code);
    sendf(d, owner, "{\"type\":\"rooms\"}"); /* the public ones: their options, never a secret one */
    int conns[8];
    for (int k = 0; k < persons; k++) {
        char name[16];
        snprintf(name, sizeof name, "p%d", k);
        conns[k] = join(d, room, name);
        assert_int_equal(num(last(d, conns[k], "joined"), "seat") >= 0, 1);
    }
    int spec = connect_(d);
    sendf(d, spec, "{\"type\":\"watch\",\"room\":\"%s\"}", room);
    for (int k = 0; k < persons; k++) /* a seat's record during the game: scanned like the rest */
        sendf(d, conns[k], "{\"type\":\"record\",\"who\":\"seat\"}");
    play_to_end(d, conns, persons, 12345);
    /* the end: the seed may show now, not before */
    size_t end = d->all.len;
    json_t *st = last(d, conns[0], "state");
    for (size_t k = 0; k < json_array_size(d->in[conns[0]]); k++) {
        json_t *m = json_array_get(d->in[conns[0]], k);
        if (!strcmp(str(m, "type"), "state") && json_is_true(json_object_get(m, "over"))) {
            end = 0; /* find the first "over" message in the whole text */
            break;
        }
    }
    const char *all = pl_buf_str(&d->all);
    const char *over = strstr(all, "\"over\":true");
    end = over ? (size_t)(over - all) : d->all.len;
    char seedtxt[32];
    for (int k = 0; k < 4; k++) {
        snprintf(seedtxt, sizeof seedtxt, "%llu", (unsigned long long)(TEST_SEED + (unsigned long long)k));
        no_leak(d, end, seedtxt);
    }
    no_leak(d, end, "deal=");
    if (secret)
        no_leak(d, end, secret);
    assert_true(json_is_true(json_object_get(st, "over")));
    assert_true(json_is_object(json_object_get(st, "result")));
    json_t *sp = last(d, spec, "state");
    assert_int_equal(num(sp, "seat"), -1);
    assert_int_equal(json_array_size(json_object_get(sp, "legal")), 0);
    assert_true(json_is_true(json_object_get(sp, "over")));
    for (int k = 0; k < persons; k++)
        check_history(d, conns[k]);
    check_history(d, spec);
    for (int k = 0; k <= persons; k++) { /* each state's view is its reader's (seats' views are spliced) */
        int i = k < persons ? conns[k] : spec;
        for (size_t n = 0; n < json_array_size(d->in[i]); n++) {
            json_t *m = json_array_get(d->in[i], n), *v = json_object_get(m, "view");
            if (!strcmp(str(m, "type"), "state") && json_is_object(v))
                assert_int_equal(num(v, "viewer"), num(m, "seat"));
        }
    }
    if (persons == 2 && (!strcmp(game, "tamcuc") || !strcmp(game, "cbw")))
        check_spectator_texts(d, conns, spec, !strcmp(game, "tamcuc"));
    if (!strcmp(game, "karuta")) { /* the reading was the hub's, in real time */
        json_t *rooms = json_object_get(last(d, owner, "rooms"), "rooms");
        assert_int_equal(json_array_size(rooms), 1);
        json_t *opts = json_object_get(json_array_get(rooms, 0), "options");
        assert_string_equal(str(opts, "tie_ms"), "20");
        assert_null(json_object_get(opts, "deal"));
        assert_string_equal(str(opts, "tempo"), "even"); /* the hub's default (issue 15) */
        assert_string_equal(str(json_object_get(last(d, conns[0], "joined"), "options"), "tie_ms"), "20");
        assert_true(count(d, conns[0], "reading") >= 1);
        assert_true(count(d, conns[0], "kana") >= count(d, conns[0], "reading"));
        assert_true(count(d, spec, "kana") >= 1);
        assert_true(d->syncs >= 3);
        pl_buf err2 = {0};
        int seat0_touch = 0;
        json_t *h = json_object_get(st, "history");
        (void)err2;
        for (size_t k = 0; k < json_array_size(h); k++) {
            json_t *e = json_array_get(h, k);
            seat0_touch += num(e, "seat") == 0 && !strncmp(str(e, "text"), "touch", 5);
        }
        /* the state at the end carries only the last entries: read the record */
        sendf(d, conns[0], "{\"type\":\"record\",\"who\":\"referee\"}");
        char *rec = json_dumps(json_object_get(last(d, conns[0], "record"), "record"), 0);
        assert_non_null(strstr(rec, "touch"));
        pl_free(rec);
        (void)seat0_touch;
        int c[2] = {0, 0};
        pl_buf e3 = {0};
        assert_int_equal(store_actions(d->s, room, count_touch, c, &e3), 0);
        pl_buf_free(&e3);
        assert_true(c[1] > 0); /* the person's touches were played */
    }
    /* every action is on disk */
    pl_buf err = {0};
    assert_int_equal(store_count(d->s, room, &err), num(st, "seq"));
    pl_buf_free(&err);
    drv_free(d);
}

static void test_whole_game_ur(void **state)
{
    (void)state;
    whole_game("ur", "\"options\":{\"pieces\":\"3\"},\"seats\":[{\"kind\":\"person\"},{\"kind\":\"ai\",\"level\":\"easy\"}]", 1,
               NULL);
    whole_game("ur", "\"options\":{\"pieces\":\"2\"}", 2, NULL);
}

static void test_whole_game_cbw(void **state)
{
    (void)state;
    whole_game("cbw",
               "\"seats\":[{\"kind\":\"person\"},{\"kind\":\"ai\",\"level\":\"easy\"},{\"kind\":\"person\"},"
               "{\"kind\":\"ai\",\"level\":\"easy\"}]",
               2, NULL);
}

/* City Behind Walls for two: each person plays both seats of a team
 * (partner seats) and sees both hands; the game goes to its end. */
static void test_whole_game_cbw_partners(void **state)
{
    (void)state;
    whole_game("cbw",
               "\"options\":{\"players\":\"2\"},\"seats\":[{\"kind\":\"person\"},{\"kind\":\"person\"},"
               "{\"kind\":\"partner\",\"of\":0},{\"kind\":\"partner\",\"of\":1}]",
               2, NULL);
    drv *d = drv_new("partners");
    int a = connect_(d);
    sendf(d, a, "{\"type\":\"create\",\"game\":\"cbw\",\"options\":{\"players\":\"2\"},\"seats\":["
                "{\"kind\":\"person\"},{\"kind\":\"person\"},{\"kind\":\"partner\",\"of\":3},{\"kind\":\"partner\",\"of\":1}]}");
    assert_string_equal(last_error(d, a), "shape"); /* a partner of a partner */
    char room[64];
    snprintf(room, sizeof room, "%s",
             create(d, a, "\"game\":\"cbw\",\"options\":{\"players\":\"2\"},\"seats\":[{\"kind\":\"person\"},"
                          "{\"kind\":\"person\"},{\"kind\":\"partner\",\"of\":0},{\"kind\":\"partner\",\"of\":1}]"));
    int p0 = join(d, room, "ann");
    int p1 = join(d, room, "bob");
    int x = connect_(d);
    sendf(d, x, "{\"type\":\"join\",\"room\":\"%s\",\"name\":\"eve\"}", room);
    assert_string_equal(last_error(d, x), "full"); /* two persons, four seats */
    json_t *st = last(d, p0, "state");
    assert_string_equal(str(st, "status"), "playing");
    assert_non_null(json_object_get(json_object_get(st, "view"), "partner_hand"));
    json_t *seats = json_object_get(st, "seats");
    assert_string_equal(str(json_array_get(seats, 2), "kind"), "partner");
    assert_int_equal(num(json_array_get(seats, 2), "of"), 0);
    assert_string_equal(str(json_array_get(seats, 2), "name"), "ann");
    /* play until a partner seat acts: its person acts for it */
    unsigned pick = 5;
    int conns[2] = {p0, p1}, partner_moves = 0;
    for (int k = 0; k < 20; k++) {
        for (int c = 0; c < 2; c++) {
            json_t *l = json_object_get(last(d, conns[c], "state"), "legal");
            if (json_array_size(l) && num(json_array_get(l, 0), "seat") >= 2) {
                sendf(d, conns[c], "{\"type\":\"act\",\"action\":\"%s\",\"seat\":%d}", "pass", c);
                assert_string_equal(last_error(d, conns[c]), "not-your-turn"); /* its own seat does not act */
                partner_moves++;
            }
        }
        play_round(d, conns, 2, &pick);
    }
    assert_true(partner_moves > 0);
    drv_free(d);
}

/* City Behind Walls players=2 (CBW-R1, docs/web-protocol.md "Rooms and
 * seats"): one person plays both seats of a team and sees both hands, so
 * each team is one person seat with partner seats of it, or computers only;
 * without seats, seats 0 and 1 are persons and 2 and 3 their partners. A
 * person beside another person or a computer would see its hand: refused. */
static void test_create_cbw_two_players_seats(void **state)
{
    (void)state;
#define P "{\"kind\":\"person\"}"
#define A "{\"kind\":\"ai\",\"level\":\"easy\"}"
#define OF(s) "{\"kind\":\"partner\",\"of\":" #s "}"
    static const struct {
        const char *options, *seats, *answer; /* the answer: "created" or the error code */
    } table[] = {
        {"2", P "," P "," OF(0) "," OF(1), "created"},
        {"2", P "," A "," OF(0) "," A, "created"},
        {"2", A "," P "," A "," OF(1), "created"},
        {"2", A "," A "," A "," A, "created"},
        {"2", P "," P "," P "," P, "options"}, /* the leak of issue 30: each saw a teammate's hand */
        {"2", P "," P "," A "," A, "options"}, /* each would see a computer's hand */
        {"2", P "," A "," A "," A, "options"},
        {"2", A "," P "," P "," OF(1), "options"},
        {"2", P "," P "," OF(1) "," OF(0), "options"}, /* partners across the teams */
        {"2", P "," OF(0) "," P "," A, "options"},
        {"2", P "," P "," OF(0) "," P, "options"},
        {"2", P "," P "," OF(3) "," OF(1), "shape"}, /* a partner of a partner: as before */
        {"4", P "," P "," P "," P, "created"},        /* no one sees a teammate's hand */
        {"4", P "," P "," A "," A, "created"},
        {"6", P "," P "," P "," P "," P "," P, "created"},
        {"6", P "," A "," P "," A "," P "," A, "created"},
    };
#undef P
#undef A
#undef OF
    drv *d = drv_new("cbw2");
    int a = connect_(d);
    for (size_t k = 0; k < sizeof table / sizeof *table; k++) {
        size_t n0 = json_array_size(d->in[a]);
        sendf(d, a, "{\"type\":\"create\",\"game\":\"cbw\",\"options\":{\"players\":\"%s\"},\"seats\":[%s]}",
              table[k].options, table[k].seats);
        assert_int_equal(json_array_size(d->in[a]), n0 + 1); /* exactly one answer */
        json_t *m = json_array_get(d->in[a], n0);
        const char *got = !strcmp(str(m, "type"), "error") ? str(m, "error") : str(m, "type");
        if (strcmp(got, table[k].answer))
            fail_msg("players=%s seats %s: %s, expected %s", table[k].options, table[k].seats,
                     json_dumps(m, 0), table[k].answer);
        if (!strcmp(got, "options") && (!strstr(str(m, "message"), "players=2") ||
                                        !strstr(str(m, "message"), "partner")))
            fail_msg("the refusal does not say what is allowed: %s", str(m, "message"));
    }
    /* the default seats: two persons, each with a partner seat of its team */
    char room[64];
    snprintf(room, sizeof room, "%s", create(d, a, "\"game\":\"cbw\",\"options\":{\"players\":\"2\"}"));
    int p0 = join(d, room, "ann");
    int p1 = join(d, room, "bob");
    int x = connect_(d);
    sendf(d, x, "{\"type\":\"join\",\"room\":\"%s\",\"name\":\"eve\"}", room);
    assert_string_equal(last_error(d, x), "full");
    json_t *st = last(d, p0, "state");
    assert_string_equal(str(st, "status"), "playing");
    json_t *seats = json_object_get(st, "seats");
    for (int s = 0; s < 4; s++) {
        json_t *e = json_array_get(seats, (size_t)s);
        assert_string_equal(str(e, "kind"), s < 2 ? "person" : "partner");
        if (s >= 2)
            assert_int_equal(num(e, "of"), s - 2);
        assert_string_equal(str(e, "name"), s % 2 ? "bob" : "ann");
    }
    for (int c = 0; c < 2; c++) { /* each sees its own partner seat's hand, not the other's */
        json_t *ph = json_object_get(json_object_get(last(d, c ? p1 : p0, "state"), "view"), "partner_hand");
        assert_int_equal(num(ph, "seat"), c + 2);
    }
    drv_free(d);
}

static void test_whole_game_tamcuc(void **state)
{
    (void)state;
    whole_game("tamcuc", "\"options\":{\"players\":\"2\"}", 2, NULL);
}

static void test_whole_game_karuta(void **state)
{
    (void)state;
    whole_game("karuta",
               "\"options\":{\"deal\":\"11;12;13/14;15;16\",\"tie_ms\":\"20\"},\"public\":true,\"seats\":[{\"kind\":\"person\"},{\"kind\":\"ai\",\"level\":\"easy\"}]", 1,
               "11;12;13");
}

static void test_reconnect_spectator_chat(void **state)
{
    (void)state;
    drv *d = drv_new("reconnect");
    duo t = duo_open(d, CBW_TWO_PEOPLE);
    char token[64];
    snprintf(token, sizeof token, "%s", str(last(d, t.p1, "joined"), "token"));
    assert_int_equal(strlen(token), 32);
    unsigned pick = 7;
    int conns[2] = {t.p0, t.p1};
    for (int k = 0; k < 4; k++)
        play_round(d, conns, 2, &pick);
    long seq = num(last(d, t.p0, "state"), "seq");
    disconnect_(d, t.p1);
    json_t *seats = json_object_get(last(d, t.p0, "state"), "seats");
    assert_false(json_is_true(json_object_get(json_array_get(seats, 1), "connected")));
    int back = connect_(d);
    sendf(d, back, "{\"type\":\"join\",\"room\":\"%s\",\"token\":\"%s\"}", t.room, token);
    assert_int_equal(num(last(d, back, "joined"), "seat"), 1);
    json_t *st = last(d, back, "state");
    assert_int_equal(num(st, "seq"), seq);
    assert_int_equal(num(st, "history_from"), 0); /* the full history again */
    assert_int_equal((long)json_array_size(json_object_get(st, "history")), seq);
    assert_non_null(json_object_get(json_object_get(st, "view"), "hand"));
    /* a bad token */
    int x = connect_(d);
    sendf(d, x, "{\"type\":\"join\",\"room\":\"%s\",\"token\":\"%032d\"}", t.room, 0);
    assert_string_equal(last_error(d, x), "seat");
    /* a full room */
    sendf(d, x, "{\"type\":\"join\",\"room\":\"%s\",\"name\":\"eve\"}", t.room);
    assert_string_equal(last_error(d, x), "full");
    /* spectator: no hand, no legal */
    sendf(d, x, "{\"type\":\"watch\",\"room\":\"%s\"}", t.room);
    json_t *sp = last(d, x, "state");
    assert_int_equal(num(sp, "seat"), -1);
    assert_null(json_object_get(json_object_get(sp, "view"), "hand"));
    assert_int_equal(json_array_size(json_object_get(sp, "legal")), 0);
    /* chat reaches everyone in the room */
    sendf(d, x, "{\"type\":\"chat\",\"text\":\"hello all\"}");
    assert_string_equal(str(last(d, t.p0, "chat"), "text"), "hello all");
    assert_int_equal(num(last(d, back, "chat"), "seat"), -1);
    sendf(d, t.p0, "{\"type\":\"chat\",\"text\":\"hi\"}");
    assert_string_equal(str(last(d, x, "chat"), "name"), "ann");
    /* leave */
    sendf(d, x, "{\"type\":\"leave\"}");
    assert_non_null(last(d, x, "left"));
    sendf(d, x, "{\"type\":\"chat\",\"text\":\"x\"}");
    assert_string_equal(last_error(d, x), "room");
    drv_free(d);
}

/* A seat's record during the game (issue 31, §7; hubr_seat_record): in Ur,
 * which hides nothing, the whole record so far, which loads and replays,
 * with another seed than the room's (which would tell the throws to come);
 * with hidden cards (Tam Cúc) the seat's own, each move's events with it. */
static void test_record_seat_whole_or_own(void **state)
{
    (void)state;
    drv *d = drv_new("record-seat");
    /* three pieces: with one, every move is the only one, which the server plays for the
     * person (issue 31 §5), and the game is over before anyone asks */
    duo t = duo_open(d, "\"game\":\"ur\",\"options\":{\"pieces\":\"3\"}");
    sendf(d, t.p0, "{\"type\":\"record\",\"who\":\"seat\"}");
    json_t *rec = json_object_get(last(d, t.p0, "record"), "record");
    assert_non_null(rec);
    assert_string_equal(str(rec, "format"), "parlour-record");
    assert_true(json_is_null(json_object_get(rec, "result")));
    json_int_t early = json_integer_value(json_object_get(rec, "seed"));
    size_t nact = json_array_size(json_object_get(rec, "actions"));
    assert_true(nact > 0);
    char *text = json_dumps(rec, JSON_COMPACT);
    pl_buf err = {0};
    pl_match *m = pl_record_read(text, &err);
    free(text);
    assert_non_null(m); /* it replays */
    assert_int_equal(m->nhist, (int)nact);
    pl_match_free(m);
    pl_buf_free(&err);
    int conns[2] = {t.p0, t.p1};
    play_to_end(d, conns, 2, 7);
    sendf(d, t.p0, "{\"type\":\"record\",\"who\":\"referee\"}");
    rec = json_object_get(last(d, t.p0, "record"), "record");
    assert_non_null(rec);
    assert_true(json_integer_value(json_object_get(rec, "seed")) != early); /* the room's seed only now */
    drv_free(d);

    d = drv_new("record-own");
    t = duo_open(d, "\"game\":\"tamcuc\",\"options\":{\"players\":\"2\"}");
    sendf(d, t.p1, "{\"type\":\"record\",\"who\":\"seat\"}");
    rec = json_object_get(last(d, t.p1, "record"), "record");
    assert_non_null(rec);
    assert_string_equal(str(rec, "format"), "parlour-record-view");
    assert_null(json_object_get(rec, "seed"));
    json_t *hist = json_object_get(rec, "history");
    assert_int_equal(json_array_size(hist), json_array_size(json_object_get(rec, "actions")));
    assert_true(json_array_size(hist) > 0);
    for (size_t k = 0; k < json_array_size(hist); k++)
        assert_true(json_is_array(json_object_get(json_array_get(hist, k), "events")));
    drv_free(d);
}

static void test_record_and_rematch(void **state)
{
    (void)state;
    drv *d = drv_new("record");
    duo t = duo_open(d, "\"game\":\"tamcuc\",\"options\":{\"players\":\"2\"}");
    sendf(d, t.p0, "{\"type\":\"record\",\"who\":\"referee\"}");
    assert_string_equal(last_error(d, t.p0), "over");
    sendf(d, t.p0, "{\"type\":\"record\",\"who\":\"seat\"}");
    json_t *rec = json_object_get(last(d, t.p0, "record"), "record");
    assert_non_null(rec);
    assert_string_equal(str(rec, "format"), "parlour-record-view");
    assert_null(json_object_get(rec, "seed"));
    sendf(d, t.p0, "{\"type\":\"rematch\"}");
    assert_string_equal(last_error(d, t.p0), "over");
    int conns[2] = {t.p0, t.p1};
    play_to_end(d, conns, 2, 99);
    sendf(d, t.p1, "{\"type\":\"record\",\"who\":\"referee\"}");
    rec = json_object_get(last(d, t.p1, "record"), "record");
    assert_non_null(rec);
    assert_string_equal(str(rec, "format"), "parlour-record");
    assert_non_null(json_object_get(rec, "seed"));
    char token0[64];
    snprintf(token0, sizeof token0, "%s", str(last(d, t.p0, "joined"), "token"));
    sendf(d, t.p0, "{\"type\":\"rematch\"}");
    assert_null(last(d, t.p0, "rematch")); /* bob has not asked yet */
    sendf(d, t.p1, "{\"type\":\"rematch\"}");
    json_t *rm = last(d, t.p0, "rematch");
    assert_non_null(rm);
    char room2[64];
    snprintf(room2, sizeof room2, "%s", str(rm, "room"));
    assert_string_not_equal(room2, t.room);
    assert_string_equal(str(last(d, t.p1, "rematch"), "room"), room2);
    /* the tokens carry over */
    sendf(d, t.p0, "{\"type\":\"join\",\"room\":\"%s\",\"token\":\"%s\"}", room2, token0);
    assert_int_equal(num(last(d, t.p0, "joined"), "seat"), 0);
    json_t *st = last(d, t.p0, "state");
    assert_false(json_is_true(json_object_get(st, "over")));
    assert_string_equal(str(st, "status"), "playing");
    drv_free(d);
}

static void test_hostile_messages(void **state)
{
    (void)state;
    drv *d = drv_new("hostile");
    duo t = duo_open(d, "\"game\":\"ur\"");
    /* who acts? */
    int mover = duo_mover(d, &t);
    int other = mover == t.p0 ? t.p1 : t.p0;
    long seq = num(last(d, t.p0, "state"), "seq");
    static const struct {
        const char *msg, *code;
    } table[] = {
        {"not json", "json"},
        {"{\"type\":", "json"},
        {"[1,2]", "shape"},
        {"{\"type\":7}", "shape"},
        {"{}", "shape"},
        {"{\"type\":\"dance\"}", "type"},
        {"{\"type\":\"games\",\"x\":1}", "shape"},
        {"{\"type\":\"hello\",\"v\":2}", "shape"},
        {"{\"type\":\"create\",\"game\":\"chess\"}", "options"},
        {"{\"type\":\"create\",\"game\":\"ur\",\"options\":{\"seed\":\"1\"}}", "options"},
        {"{\"type\":\"create\",\"game\":\"ur\",\"options\":{\"pieces\":\"99\"}}", "options"},
        {"{\"type\":\"create\",\"game\":\"ur\",\"options\":{\"pieces\":3}}", "options"},
        {"{\"type\":\"create\",\"game\":\"ur\",\"seats\":[{\"kind\":\"ai\",\"level\":\"godlike\"},{\"kind\":\"person\"}]}",
         "options"},
        {"{\"type\":\"create\",\"game\":\"ur\",\"seats\":[{\"kind\":\"person\"}]}", "shape"},
        {"{\"type\":\"create\",\"game\":\"ur\",\"grace_s\":-1}", "shape"},
        {"{\"type\":\"create\",\"game\":\"ur\",\"clock\":{\"move_s\":5,\"total_s\":5}}", "shape"},
        {"{\"type\":\"create\",\"game\":\"ur\",\"bogus\":1}", "shape"},
        {"{\"type\":\"join\",\"room\":\"nope\",\"name\":\"x\"}", "room"},
        {"{\"type\":\"join\",\"room\":1,\"name\":\"x\"}", "shape"},
        {"{\"type\":\"act\",\"action\":5}", "shape"},
        {"{\"type\":\"act\"}", "shape"},
        {"{\"type\":\"act\",\"action\":\"x\",\"bogus\":1}", "shape"},
        {"{\"type\":\"act\",\"action\":\"x\",\"seq\":\"1\"}", "shape"},
        {"{\"type\":\"act\",\"action\":\"x\",\"seat\":1.5}", "shape"},
        {"{\"type\":\"act\",\"action\":\"x\",\"accepted_in_state\":null}", "shape"},
        {"{\"type\":\"chat\",\"text\":\"\"}", "shape"},
        {"{\"type\":\"record\",\"who\":\"god\"}", "shape"},
        {"{\"type\":\"touch\",\"card\":0,\"client_ms\":1}", "shape"},
        {"{\"type\":\"sync\",\"id\":1,\"client_ms\":1}", "seat"},
        {"{\"type\":\"type\",\"type\":\"games\"}", "json"}, /* duplicate key */
        /* the refusals docs/web-protocol.md names (issue 30): "Refusals and their codes" */
        {"{\"v\":1}", "shape"},                            /* no type */
        {"{\"type\":null}", "shape"},                      /* a type that is not a string */
        {"{\"type\":\"Games\"}", "type"},                 /* an unknown type (case counts) */
        {"{\"type\":\"hello\"}", "shape"},                 /* hello without v */
        {"{\"type\":\"hello\",\"v\":\"1\"}", "shape"},
        {"{\"type\":\"record\",\"who\":\"judge\"}", "shape"},
        {"{\"type\":\"create\",\"game\":\"ur\",\"grace_s\":3601}", "shape"},
        {"{\"type\":\"create\",\"game\":\"ur\",\"clock\":{\"move_s\":86401}}", "shape"},
        {"{\"type\":\"create\",\"game\":\"ur\",\"options\":[]}", "shape"},
        {"{\"type\":\"create\",\"game\":\"ur\",\"options\":{\"rules\":\"a b\"}}", "options"},
        {"{\"type\":\"create\",\"game\":\"ur\",\"options\":{\"pieces\":\"2\",\"pieces\":\"3\"}}", "json"},
        {"{\"type\":\"chat\",\"text\":\"a\",\"text\":\"b\"}", "json"},
        {"{\"type\":\"touch\",\"card\":5,\"client_ms\":1}", "seat"}, /* a touch in an Ur room */
        {"{\"type\":\"rematch\"}", "over"},
        {"{\"type\":\"record\",\"who\":\"referee\"}", "over"},
    };
    size_t before = d->all.len;
    for (size_t k = 0; k < sizeof table / sizeof *table; k++) {
        size_t n0 = json_array_size(d->in[mover]);
        sendn(d, mover, table[k].msg, strlen(table[k].msg));
        assert_int_equal(json_array_size(d->in[mover]), n0 + 1); /* exactly one answer */
        const char *got = last_error(d, mover);
        if (strcmp(got, table[k].code))
            fail_msg("%s: error %s, expected %s", table[k].msg, got, table[k].code);
    }
    (void)before;
    /* lengths: a chat of 500 bytes is said, 501 refused; a name of 40 bytes
     * gets to the seats (this room is full), 41 is refused */
    char text[600];
    memset(text, 'x', sizeof text);
    sendf(d, mover, "{\"type\":\"chat\",\"text\":\"%.500s\"}", text);
    assert_int_equal(strlen(str(last(d, mover, "chat"), "text")), 500);
    sendf(d, mover, "{\"type\":\"chat\",\"text\":\"%.501s\"}", text);
    assert_string_equal(last_error(d, mover), "shape");
    int y = connect_(d);
    sendf(d, y, "{\"type\":\"join\",\"room\":\"%s\",\"name\":\"%.40s\"}", t.room, text);
    assert_string_equal(last_error(d, y), "full");
    sendf(d, y, "{\"type\":\"join\",\"room\":\"%s\",\"name\":\"%.41s\"}", t.room, text);
    assert_string_equal(last_error(d, y), "shape");
    /* too long */
    char *big = malloc(HUB_MAX_MESSAGE + 10);
    memset(big, ' ', HUB_MAX_MESSAGE + 10);
    sendn(d, mover, big, HUB_MAX_MESSAGE + 10);
    free(big);
    assert_string_equal(last_error(d, mover), "too-long");
    /* act before join */
    int x = connect_(d);
    sendf(d, x, "{\"type\":\"act\",\"action\":\"roll 1\"}");
    assert_string_equal(last_error(d, x), "seat");
    /* out of turn */
    sendf(d, other, "{\"type\":\"act\",\"action\":\"pass\"}");
    assert_string_equal(last_error(d, other), "not-your-turn");
    /* stale */
    sendf(d, mover, "{\"type\":\"act\",\"action\":\"x\",\"seq\":%ld}", seq + 5);
    assert_string_equal(last_error(d, mover), "stale");
    /* illegal: the game's own words */
    sendf(d, mover, "{\"type\":\"act\",\"action\":\"Z9\"}");
    assert_string_equal(last_error(d, mover), "illegal");
    /* nothing changed: no new state, the same seq, nothing stored */
    assert_int_equal(num(last(d, mover, "state"), "seq"), seq);
    pl_buf err = {0};
    assert_int_equal(store_count(d->s, t.room, &err), seq);
    pl_buf_free(&err);
    drv_free(d);
}

static void test_illegal_explained(void **state)
{
    (void)state;
    drv *d = drv_new("illegal");
    duo t = duo_open(d, CBW_TWO_PEOPLE);
    int mover = duo_mover(d, &t);
    /* a card the seat does not hold, on a legal cell: cbw explains why */
    json_t *st = last(d, mover, "state");
    json_t *legal = json_object_get(st, "legal");
    const char *first = str(json_array_get(legal, 0), "action");
    const char *cell = strchr(first, '@');
    assert_non_null(cell);
    char *hand = json_dumps(json_object_get(json_object_get(st, "view"), "hand"), 0);
    static const char *const cards[] = {"AS", "KS", "QS", "JS", "AH", "KH", "QH", "JH", "AD", "KD"};
    const char *card = NULL;
    for (size_t k = 0; k < 10 && !card; k++) {
        char q[8];
        snprintf(q, sizeof q, "\"%s\"", cards[k]);
        if (!strstr(hand, q))
            card = cards[k];
    }
    pl_free(hand);
    assert_non_null(card);
    sendf(d, mover, "{\"type\":\"act\",\"action\":\"%s%s\"}", card, cell);
    assert_string_equal(last_error(d, mover), "illegal");
    json_t *e = last(d, mover, "error");
    if (!strstr(str(e, "message"), "illegal move"))
        fail_msg("%s", str(e, "message"));
    assert_string_equal(str(e, "request"), "act");
    /* `reason`: the message less its list of legal actions (web-protocol.md) */
    const char *msg = str(e, "message"), *why = str(e, "reason");
    size_t wn = strlen(why);
    if (!strstr(why, "illegal move") || strstr(why, "; legal:") || strstr(why, "; for example:"))
        fail_msg("reason %s", why);
    if (strncmp(msg, why, wn) || (strncmp(msg + wn, "; legal: ", 9) && strncmp(msg + wn, "; for example: ", 15)))
        fail_msg("reason %s is not the head of message %s", why, msg);
    /* a text that is no action: the parser's words, whole */
    sendf(d, mover, "{\"type\":\"act\",\"action\":\"zzz\"}");
    e = last(d, mover, "error");
    assert_string_equal(str(e, "reason"), str(e, "message"));
    drv_free(d);
}

/* The limits of hub_config: connections and rooms. */
static void test_limits(void **state)
{
    (void)state;
    hub_config cfg = {.test_seed = TEST_SEED, .max_conns = 2, .max_rooms = 1};
    pl_buf err = {0};
    hub *h = hub_new(&cfg, &err);
    uint64_t a = hub_connect(h, 1), b = hub_connect(h, 1);
    assert_true(a && b && a != b);
    assert_int_equal(hub_connect(h, 1), 0); /* full: the caller closes the socket */
    hub_out o;
    while (hub_out_next(h, &o)) /* the welcomes */
        pl_free(o.text);
    hub_disconnect(h, b, 2);
    uint64_t c = hub_connect(h, 3);
    assert_true(c && c != b); /* a slot used again gets a new id */
    hub_message(h, b, "{\"type\":\"games\"}", 16, 4); /* a gone connection: ignored */
    const char *cr = "{\"type\":\"create\",\"game\":\"ur\"}";
    hub_message(h, a, cr, strlen(cr), 5);
    hub_message(h, a, cr, strlen(cr), 6);
    int created = 0, full = 0;
    for (;;) {
        hub_batch *bt = hub_store_take(h);
        if (bt) {
            hub_store_done(h, bt, 1, 7); /* not written: only the limits matter here */
            hub_batch_free(bt);
            continue;
        }
        if (!hub_out_next(h, &o))
            break;
        assert_true(o.conn != b);
        created += strstr(o.text, "\"created\"") != NULL;
        full += strstr(o.text, "\"error\":\"full\"") != NULL;
        pl_free(o.text);
    }
    assert_int_equal(created, 1);
    assert_int_equal(full, 1); /* the second room: the server holds its most */
    hub_free(h);
    pl_buf_free(&err);
}

static void test_rate_limit(void **state)
{
    (void)state;
    drv *d = drv_new("rate");
    hub_free(d->h);
    d->h = new_hub(5); /* 5 a second, bursts of 15 */
    int a = connect_(d);
    int rated = 0;
    for (int k = 0; k < 20; k++) { /* all in the same millisecond */
        hub_message(d->h, d->id[a], "{\"type\":\"games\"}", 16, d->now);
        pump(d);
        json_t *m = json_array_get(d->in[a], json_array_size(d->in[a]) - 1);
        rated += !strcmp(str(m, "type"), "error") && !strcmp(str(m, "error"), "rate");
    }
    assert_int_equal(rated, 5);
    d->now += 1000; /* refilled: 5 more */
    hub_message(d->h, d->id[a], "{\"type\":\"games\"}", 16, d->now);
    pump(d);
    assert_non_null(last(d, a, "games"));
    assert_string_equal(str(json_array_get(d->in[a], json_array_size(d->in[a]) - 1), "type"), "games");
    /* a flood is closed */
    for (int k = 0; k < 40; k++)
        hub_message(d->h, d->id[a], "{}", 2, d->now);
    pump(d);
    assert_true(d->closed[a]);
    hub_stats st;
    hub_get_stats(d->h, &st);
    assert_true(st.rate_limited >= 5);
    drv_free(d);
}

static void test_held_until_durable_and_failure(void **state)
{
    (void)state;
    drv *d = drv_new("held");
    duo t = duo_open(d, "\"game\":\"ur\"");
    int mover = duo_mover(d, &t);
    json_t *st = last(d, mover, "state");
    long seq = num(st, "seq");
    char act[64];
    snprintf(act, sizeof act, "%s", str(json_array_get(json_object_get(st, "legal"), 0), "action"));
    size_t n0 = json_array_size(d->in[mover]), n1 = json_array_size(d->in[t.p0 == mover ? t.p1 : t.p0]);
    d->hold = 1;
    sendf(d, mover, "{\"type\":\"act\",\"action\":\"%s\",\"seq\":%ld}", act, seq);
    /* nothing heard before the write is durable */
    assert_int_equal(json_array_size(d->in[mover]), n0);
    assert_int_equal(json_array_size(d->in[t.p0 == mover ? t.p1 : t.p0]), n1);
    d->hold = 0;
    pump(d);
    assert_non_null(last(d, mover, "accepted"));
    assert_true(num(last(d, mover, "state"), "seq") > seq);
    pl_buf err = {0};
    long stored = (long)store_count(d->s, t.room, &err);
    assert_int_equal(stored, num(last(d, mover, "state"), "seq"));
    /* now a write that fails: the action is taken back */
    mover = duo_mover(d, &t);
    st = last(d, mover, "state");
    seq = num(st, "seq");
    snprintf(act, sizeof act, "%s", str(json_array_get(json_object_get(st, "legal"), 0), "action"));
    int accepted = count(d, mover, "accepted");
    d->fail_next = 1;
    sendf(d, mover, "{\"type\":\"act\",\"action\":\"%s\",\"seq\":%ld}", act, seq);
    assert_string_equal(str(last(d, mover, "error"), "error"), "storage");
    assert_int_equal(count(d, mover, "accepted"), accepted); /* never accepted */
    assert_int_equal(num(last(d, mover, "state"), "seq"), seq);
    assert_int_equal(store_count(d->s, t.room, &err), seq);
    /* and play goes on */
    sendf(d, mover, "{\"type\":\"act\",\"action\":\"%s\",\"seq\":%ld}", act, seq);
    assert_int_equal(count(d, mover, "accepted"), accepted + 1);
    /* a room whose creation cannot be stored is gone, and its creator told */
    int created = count(d, t.owner, "created");
    d->fail_next = 1;
    sendf(d, t.owner, "{\"type\":\"create\",\"game\":\"ur\"}");
    assert_int_equal(count(d, t.owner, "created"), created); /* never told it exists */
    assert_string_equal(last_error(d, t.owner), "storage");
    hub_stats hs;
    hub_get_stats(d->h, &hs);
    assert_int_equal(hs.rooms, 1);
    pl_buf_free(&err);
    drv_free(d);
}

/* act's accepted_in_state: the answer rides in the sender's state (one
 * message, not two); without it, or false, the separate `accepted` as
 * before; a wrong type is refused; a failed write gives no answer at all. */
static void test_act_accepted_in_state(void **state)
{
    (void)state;
    drv *d = drv_new("in-state");
    duo t = duo_open(d, "\"game\":\"ur\"");
    for (int round = 0; round < 4; round++) {
        int mover = duo_mover(d, &t), other = mover == t.p0 ? t.p1 : t.p0;
        json_t *st = last(d, mover, "state");
        long seq = num(st, "seq"), seat = num(st, "seat");
        char act[64];
        snprintf(act, sizeof act, "%s", str(json_array_get(json_object_get(st, "legal"), 0), "action"));
        size_t n0 = json_array_size(d->in[mover]), n1 = json_array_size(d->in[other]);
        int accepted = count(d, mover, "accepted");
        int in_state = round % 2 == 0;
        sendf(d, mover, "{\"type\":\"act\",\"action\":\"%s\",\"seq\":%ld,\"accepted_in_state\":%s}", act, seq,
              in_state ? "true" : "false");
        json_t *now = last(d, mover, "state");
        assert_true(num(now, "seq") > seq);
        assert_null(json_object_get(last(d, other, "state"), "accepted")); /* only the sender's */
        assert_int_equal(json_array_size(d->in[other]), n1 + 1);
        if (in_state) {
            json_t *a = json_object_get(now, "accepted");
            assert_non_null(a);
            assert_string_equal(str(a, "action"), act);
            assert_int_equal(num(a, "seat"), seat);
            assert_int_equal(num(a, "seq"), seq + 1);
            assert_int_equal(json_object_size(a), 3);
            assert_int_equal(count(d, mover, "accepted"), accepted);
            assert_int_equal(json_array_size(d->in[mover]), n0 + 1); /* the state alone */
        } else {
            assert_null(json_object_get(now, "accepted"));
            assert_int_equal(count(d, mover, "accepted"), accepted + 1);
            assert_int_equal(json_array_size(d->in[mover]), n0 + 2);
            /* the answer first, then the state, as without the option */
            assert_string_equal(str(json_array_get(d->in[mover], n0), "type"), "accepted");
        }
    }
    /* the sender's next state, made by someone else's move, is a plain one */
    int mover = duo_mover(d, &t), other = mover == t.p0 ? t.p1 : t.p0;
    assert_null(json_object_get(last(d, other, "state"), "accepted"));
    /* a wrong type: refused, nothing played */
    json_t *st = last(d, mover, "state");
    long seq = num(st, "seq");
    char act[64];
    snprintf(act, sizeof act, "%s", str(json_array_get(json_object_get(st, "legal"), 0), "action"));
    sendf(d, mover, "{\"type\":\"act\",\"action\":\"%s\",\"accepted_in_state\":1}", act);
    assert_string_equal(last_error(d, mover), "shape");
    assert_int_equal(num(last(d, mover, "state"), "seq"), seq);
    /* a write that fails: an error, and the fresh state carries no answer */
    d->fail_next = 1;
    sendf(d, mover, "{\"type\":\"act\",\"action\":\"%s\",\"accepted_in_state\":true}", act);
    assert_string_equal(str(last(d, mover, "error"), "error"), "storage");
    assert_int_equal(num(last(d, mover, "state"), "seq"), seq);
    assert_null(json_object_get(last(d, mover, "state"), "accepted"));
    drv_free(d);
}

/* Restarts the driver's hub from its store file (connections gone); the
 * number of rooms hub_restore brought back. */
static int restart(drv *d)
{
    hub_free(d->h);
    for (int i = 0; i < MAXC; i++) {
        d->id[i] = 0;
        json_array_clear(d->in[i]);
    }
    store_close(d->s);
    drv_open_store(d);
    d->h = new_hub(1000);
    pl_buf err = {0};
    int n = hub_restore(d->h, d->s, d->now, &err);
    pl_buf_free(&err);
    pump(d);
    return n;
}

static void test_restore(void **state)
{
    (void)state;
    drv *d = drv_new("restore");
    duo t = duo_open(d, CBW_TWO_PEOPLE);
    char tok[2][64];
    snprintf(tok[0], 64, "%s", str(last(d, t.p0, "joined"), "token"));
    snprintf(tok[1], 64, "%s", str(last(d, t.p1, "joined"), "token"));
    unsigned pick = 3;
    int conns[2] = {t.p0, t.p1};
    for (int k = 0; k < 6; k++)
        play_round(d, conns, 2, &pick);
    char *view0 = json_dumps(json_object_get(last(d, t.p0, "state"), "view"), JSON_SORT_KEYS);
    long seq = num(last(d, t.p0, "state"), "seq");
    /* restart: a new hub from the same file */
    assert_int_equal(restart(d), 1);
    int b0 = connect_(d);
    sendf(d, b0, "{\"type\":\"join\",\"room\":\"%s\",\"token\":\"%s\"}", t.room, tok[0]);
    assert_int_equal(num(last(d, b0, "joined"), "seat"), 0);
    json_t *st = last(d, b0, "state");
    assert_int_equal(num(st, "seq"), seq);
    char *view1 = json_dumps(json_object_get(st, "view"), JSON_SORT_KEYS);
    assert_string_equal(view0, view1);
    pl_free(view0);
    pl_free(view1);
    int b1 = connect_(d);
    sendf(d, b1, "{\"type\":\"join\",\"room\":\"%s\",\"token\":\"%s\"}", t.room, tok[1]);
    int c2[2] = {b0, b1};
    play_to_end(d, c2, 2, 5);
    drv_free(d);
}


/* Marks in seen[0..4096) the seqs of the history entries connection i was
 * told "forced" (each a seat's move, never chance); returns how many. */
static int forced_seen(drv *d, int i, unsigned char *seen)
{
    int n = 0;
    memset(seen, 0, 4096);
    for (size_t k = 0; k < json_array_size(d->in[i]); k++) {
        json_t *m = json_array_get(d->in[i], k);
        if (strcmp(str(m, "type"), "state"))
            continue;
        json_t *e;
        size_t x;
        json_array_foreach(json_object_get(m, "history"), x, e) {
            if (!json_is_true(json_object_get(e, "forced")))
                continue;
            long seq = num(e, "seq");
            assert_true(num(e, "seat") >= 0 && seq < 4096);
            n += !seen[seq];
            seen[seq] = 1;
        }
    }
    return n;
}

/* Issue 31 §5: a person's only legal move (Ur's pass on a throw of 0) is
 * played for them by the hub, its history entry marked "forced"; no state
 * ever offers a person exactly one action; the forced moves are stored
 * like any other and come back marked after a restart. */
static void test_forced_move_played_for_person(void **state)
{
    (void)state;
    drv *d = drv_new("forced");
    duo t = duo_open(d, "\"game\":\"ur\"");
    char tok[64];
    snprintf(tok, sizeof tok, "%s", str(last(d, t.p0, "joined"), "token"));
    int conns[2] = {t.p0, t.p1};
    unsigned pick = 11;
    static unsigned char before[4096], after[4096];
    for (int k = 0; k < 200 && forced_seen(d, t.p0, before) < 3; k++)
        play_round(d, conns, 2, &pick);
    assert_true(forced_seen(d, t.p0, before) >= 3);
    for (int c = 0; c < 2; c++) /* never one action offered */
        for (size_t k = 0; k < json_array_size(d->in[conns[c]]); k++) {
            json_t *m = json_array_get(d->in[conns[c]], k);
            if (!strcmp(str(m, "type"), "state"))
                assert_int_not_equal(json_array_size(json_object_get(m, "legal")), 1);
        }
    json_t *st = last(d, t.p0, "state");
    long seq = num(st, "seq");
    pl_buf err = {0};
    assert_int_equal(store_count(d->s, t.room, &err), seq); /* stored like any move */
    pl_buf_free(&err);
    assert_int_equal(restart(d), 1);
    int b0 = connect_(d);
    sendf(d, b0, "{\"type\":\"join\",\"room\":\"%s\",\"token\":\"%s\"}", t.room, tok);
    assert_int_equal(num(last(d, b0, "state"), "seq"), seq);
    forced_seen(d, b0, after);
    assert_memory_equal(after, before, sizeof before); /* the same entries marked, from the store */
    drv_free(d);
}

/* The view of connection i's last state as text (owned). */
static char *view_of(drv *d, int i)
{
    return json_dumps(json_object_get(last(d, i, "state"), "view"), JSON_SORT_KEYS | JSON_COMPACT);
}

/* Plays rounds until connection `who` has just made a move of its own
 * (not one the hub played for it): its state and view before that move in
 * *seq and *view (owned), its seat's rounds after. */
static void play_own_move(drv *d, const int *conns, int who, unsigned *pick, long *seq, char **view)
{
    for (int k = 0; k < 200; k++) {
        json_t *st = last(d, conns[who], "state");
        if (json_array_size(json_object_get(st, "legal")) > 1) {
            *seq = num(st, "seq");
            *view = view_of(d, conns[who]);
            int one[1] = {conns[who]};
            assert_int_equal(play_round(d, one, 1, pick), 1);
            return;
        }
        int other[1] = {conns[1 - who]};
        play_round(d, other, 1, pick);
    }
    fail_msg("seat %d never had a choice", who);
}

/* Issue 31 §7: a takeback between people. Asked by a seat, declined by
 * the other (not again before the next move), asked again and accepted:
 * the match goes back to before the asker's last move, stored (restart:
 * the same), and a failed write puts the moves back; hostile requests are
 * refused; a room with one person and a computer grants it at once. */
static void test_takeback(void **state)
{
    (void)state;
    drv *d = drv_new("takeback");
    duo t = duo_open(d, "\"game\":\"ur\"");
    char tok[2][64];
    snprintf(tok[0], 64, "%s", str(last(d, t.p0, "joined"), "token"));
    snprintf(tok[1], 64, "%s", str(last(d, t.p1, "joined"), "token"));
    int conns[2] = {t.p0, t.p1};
    unsigned pick = 5;
    /* nothing to take back before a move of one's own; wrong shapes */
    sendf(d, t.p0, "{\"type\":\"takeback_answer\",\"accept\":true}");
    assert_string_equal(last_error(d, t.p0), "takeback"); /* none asked */
    sendf(d, t.p0, "{\"type\":\"takeback\",\"now\":1}");
    assert_string_equal(last_error(d, t.p0), "shape");
    sendf(d, t.p0, "{\"type\":\"takeback_answer\",\"accept\":1}");
    assert_string_equal(last_error(d, t.p0), "shape");
    int spec = connect_(d);
    sendf(d, spec, "{\"type\":\"watch\",\"room\":\"%s\"}", t.room);
    sendf(d, spec, "{\"type\":\"takeback\"}");
    assert_string_equal(last_error(d, spec), "seat"); /* only seated persons */
    long seq0 = 0;
    char *view0 = NULL;
    play_own_move(d, conns, 0, &pick, &seq0, &view0);
    int other[1] = {t.p1};
    play_round(d, other, 1, &pick); /* the other moves on (if it is his turn) */
    long seq1 = num(last(d, t.p0, "state"), "seq");
    assert_true(seq1 > seq0);
    /* asked, declined */
    sendf(d, t.p0, "{\"type\":\"takeback\"}");
    json_t *tb = json_object_get(last(d, t.p1, "state"), "takeback");
    assert_non_null(tb);
    assert_int_equal(num(tb, "by"), 0);
    sendf(d, t.p0, "{\"type\":\"takeback\"}");
    assert_string_equal(last_error(d, t.p0), "takeback"); /* one at a time */
    sendf(d, t.p0, "{\"type\":\"takeback_answer\",\"accept\":true}");
    assert_string_equal(last_error(d, t.p0), "takeback"); /* not one's own */
    sendf(d, t.p1, "{\"type\":\"takeback_answer\",\"accept\":false}");
    assert_string_equal(str(last(d, t.p0, "takeback"), "result"), "declined");
    assert_int_equal(num(last(d, t.p0, "takeback"), "seat"), 1);
    assert_null(json_object_get(last(d, t.p0, "state"), "takeback"));
    assert_int_equal(num(last(d, t.p0, "state"), "seq"), seq1); /* nothing changed */
    sendf(d, t.p0, "{\"type\":\"takeback\"}");
    assert_string_equal(last_error(d, t.p0), "takeback"); /* not again before the next move */
    /* the next move of p0, then asked again and accepted */
    free(view0);
    play_own_move(d, conns, 0, &pick, &seq0, &view0);
    seq1 = num(last(d, t.p0, "state"), "seq");
    sendf(d, t.p0, "{\"type\":\"takeback\"}");
    sendf(d, t.p1, "{\"type\":\"takeback_answer\",\"accept\":true}");
    assert_string_equal(str(last(d, t.p1, "takeback"), "result"), "accepted");
    assert_true(num(last(d, t.p1, "takeback"), "moves") >= 1);
    json_t *st = last(d, t.p0, "state");
    assert_int_equal(num(st, "seq"), seq0);
    assert_true(num(st, "history_from") <= seq0);
    char *v = view_of(d, t.p0);
    assert_string_equal(v, view0);
    free(v);
    assert_true(json_array_size(json_object_get(st, "legal")) > 1); /* p0 chooses again */
    /* stored: a restart gives the same room */
    assert_int_equal(restart(d), 1);
    t.p0 = connect_(d);
    sendf(d, t.p0, "{\"type\":\"join\",\"room\":\"%s\",\"token\":\"%s\"}", t.room, tok[0]);
    t.p1 = connect_(d);
    sendf(d, t.p1, "{\"type\":\"join\",\"room\":\"%s\",\"token\":\"%s\"}", t.room, tok[1]);
    conns[0] = t.p0;
    conns[1] = t.p1;
    assert_int_equal(num(last(d, t.p0, "state"), "seq"), seq0);
    v = view_of(d, t.p0);
    assert_string_equal(v, view0);
    free(v);
    free(view0);
    /* a takeback whose write fails: the moves come back */
    play_own_move(d, conns, 0, &pick, &seq0, &view0);
    free(view0);
    seq1 = num(last(d, t.p0, "state"), "seq");
    char *before = view_of(d, t.p0);
    sendf(d, t.p0, "{\"type\":\"takeback\"}");
    d->fail_next = 1;
    sendf(d, t.p1, "{\"type\":\"takeback_answer\",\"accept\":true}");
    assert_int_equal(num(last(d, t.p0, "state"), "seq"), seq1);
    v = view_of(d, t.p0);
    assert_string_equal(v, before);
    free(v);
    free(before);
    pl_buf err = {0};
    long stored = (long)store_count(d->s, t.room, &err);
    pl_buf_free(&err);
    play_to_end(d, conns, 2, 9); /* and play goes on, stored as before */
    sendf(d, t.p0, "{\"type\":\"takeback\"}");
    assert_string_equal(last_error(d, t.p0), "takeback"); /* not in a finished game */
    assert_true(stored > 0);
    assert_int_equal(restart(d), 0); /* finished: stays on disk */
    drv_free(d);
}

/* Issue 31 §7: with one person and a computer, a takeback is granted at
 * once (as the terminal's undo), back to before the person's last move. */
static void test_takeback_alone(void **state)
{
    (void)state;
    drv *d = drv_new("takeback-alone");
    unsigned pick = 7;
    json_t *st;
    char *v;
    int a = connect_(d);
    char room[64];
    snprintf(room, sizeof room, "%s",
             create(d, a, "\"game\":\"ur\",\"seats\":[{\"kind\":\"person\"},{\"kind\":\"ai\",\"level\":\"easy\"}]"));
    int solo = join(d, room, "ann");
    int one[1] = {solo};
    long s0 = -1;
    char *w0 = NULL;
    for (int k = 0; k < 200 && s0 < 0; k++) {
        st = last(d, solo, "state");
        if (json_array_size(json_object_get(st, "legal")) > 1) {
            s0 = num(st, "seq");
            w0 = view_of(d, solo);
        }
        play_round(d, one, 1, &pick);
    }
    assert_true(s0 >= 0);
    sendf(d, solo, "{\"type\":\"takeback\"}");
    assert_string_equal(str(last(d, solo, "takeback"), "result"), "granted");
    assert_int_equal(num(last(d, solo, "state"), "seq"), s0);
    v = view_of(d, solo);
    assert_string_equal(v, w0);
    free(v);
    free(w0);
    drv_free(d);
}

/* Random play in three rooms with failed writes, held batches,
 * connections dropped and come back with their tokens, and time passing;
 * then a restart from the file: every seat sees the same history length
 * and the same view as before (what was told is what is on disk). */
static void test_random_failures_then_restart(void **state)
{
    (void)state;
    drv *d = drv_new("random");
    static const char *const bodies[] = {
        "\"game\":\"ur\"",
        "\"game\":\"cbw\",\"seats\":[{\"kind\":\"person\"},{\"kind\":\"person\"},{\"kind\":\"ai\",\"level\":\"easy\"},"
        "{\"kind\":\"ai\",\"level\":\"easy\"}]",
        "\"game\":\"tamcuc\",\"options\":{\"players\":\"2\"}",
    };
    enum { NR = 3 };
    char room[NR][64], tok[NR][2][64];
    int conn[NR][2];
    int a = connect_(d);
    for (int k = 0; k < NR; k++) {
        snprintf(room[k], 64, "%s", create(d, a, bodies[k]));
        for (int s = 0; s < 2; s++) {
            conn[k][s] = join(d, room[k], s ? "bob" : "ann");
            assert_int_equal(num(last(d, conn[k][s], "joined"), "seat"), s);
            snprintf(tok[k][s], 64, "%s", str(last(d, conn[k][s], "joined"), "token"));
        }
    }
    unsigned x = 2025; /* a seed that leaves two rooms open (the hub plays forced moves: games end sooner) */
    int fails = 0, drops = 0, acts = 0;
    for (int step = 0; step < 400; step++) {
        x = x * 1103515245u + 12345u;
        unsigned op = (x >> 16) % 100, k = (x >> 8) % NR, s = (x >> 12) & 1;
        if (op < 70) {
            int i = conn[k][s];
            json_t *st = last(d, i, "state");
            json_t *legal = st ? json_object_get(st, "legal") : NULL;
            if (!json_array_size(legal) || json_is_true(json_object_get(st, "over")))
                continue;
            char act[128];
            snprintf(act, sizeof act, "%s", str(json_array_get(legal, (x >> 20) % json_array_size(legal)), "action"));
            sendf(d, i, "{\"type\":\"act\",\"action\":\"%s\",\"seq\":%ld}", act, num(st, "seq"));
            acts++;
        } else if (op < 80) {
            d->fail_next = 1;
            fails++;
        } else if (op < 88) {
            disconnect_(d, conn[k][s]);
            int n = connect_(d);
            sendf(d, n, "{\"type\":\"join\",\"room\":\"%s\",\"token\":\"%s\"}", room[k], tok[k][s]);
            assert_int_equal(num(last(d, n, "joined"), "seat"), s);
            conn[k][s] = n;
            drops++;
        } else if (op < 93) {
            d->hold = 1; /* the next messages wait for the write */
            int i = conn[k][s];
            sendf(d, i, "{\"type\":\"chat\",\"text\":\"wait\"}");
            d->hold = 0;
            pump(d);
        } else {
            d->now += (x >> 4) % 5000;
            hub_tick(d->h, d->now);
            pump(d);
        }
    }
    assert_true(fails > 5 && drops > 5 && acts > 100);
    assert_non_null(strstr(pl_buf_str(&d->all), "\"error\":\"storage\"")); /* actions were taken back */
    pump(d);
    long seq[NR][2];
    char *view[NR][2];
    int over[NR] = {0}, open = 0;
    for (int k = 0; k < NR; k++)
        for (int s = 0; s < 2; s++) {
            json_t *st = last(d, conn[k][s], "state");
            over[k] = json_is_true(json_object_get(st, "over"));
            open += s == 0 && !over[k];
            seq[k][s] = num(st, "seq");
            view[k][s] = json_dumps(json_object_get(st, "view"), JSON_SORT_KEYS | JSON_COMPACT);
            pl_buf err = {0};
            assert_int_equal(store_count(d->s, room[k], &err), seq[k][s]); /* all of it on disk */
            pl_buf_free(&err);
        }
    /* restart */
    d->no_jobs = 1; /* compare before the computers move on */
    assert_true(open >= 2);
    assert_int_equal(restart(d), open); /* the finished ones stay on disk */
    for (int k = 0; k < NR; k++)
        for (int s = 0; s < 2; s++) {
            if (over[k]) {
                pl_free(view[k][s]);
                continue;
            }
            int n = connect_(d);
            sendf(d, n, "{\"type\":\"join\",\"room\":\"%s\",\"token\":\"%s\"}", room[k], tok[k][s]);
            json_t *st = last(d, n, "state");
            assert_int_equal(num(st, "seq"), seq[k][s]);
            char *v = json_dumps(json_object_get(st, "view"), JSON_SORT_KEYS | JSON_COMPACT);
            assert_string_equal(v, view[k][s]);
            pl_free(v);
            pl_free(view[k][s]);
            disconnect_(d, n);
        }
    d->no_jobs = 0;
    drv_free(d);
}

static void test_grace_takeover_and_hand_back(void **state)
{
    (void)state;
    drv *d = drv_new("grace");
    duo t = duo_open(d, "\"game\":\"ur\",\"grace_s\":10");
    char tok[64];
    snprintf(tok, sizeof tok, "%s", str(last(d, t.p1, "joined"), "token"));
    disconnect_(d, t.p1);
    assert_true(hub_next_ms(d->h) <= d->now + 10000);
    d->now += 10001;
    hub_tick(d->h, d->now);
    pump(d);
    json_t *seat1 = json_array_get(json_object_get(last(d, t.p0, "state"), "seats"), 1);
    assert_true(json_is_true(json_object_get(seat1, "covered")));
    /* p0 plays; the computer answers for seat 1 */
    long before = num(last(d, t.p0, "state"), "seq");
    unsigned pick = 1;
    int conns[1] = {t.p0};
    for (int k = 0; k < 5; k++)
        play_round(d, conns, 1, &pick);
    long after = num(last(d, t.p0, "state"), "seq");
    assert_true(after > before + 5);
    int seat1_moves = 0;
    json_t *h = json_object_get(last(d, t.p0, "state"), "history");
    for (size_t k = 0; k < json_array_size(h); k++)
        seat1_moves += num(json_array_get(h, k), "seat") == 1;
    assert_true(seat1_moves > 0);
    /* bob comes back: his seat again */
    int b = connect_(d);
    sendf(d, b, "{\"type\":\"join\",\"room\":\"%s\",\"token\":\"%s\"}", t.room, tok);
    seat1 = json_array_get(json_object_get(last(d, t.p0, "state"), "seats"), 1);
    assert_false(json_is_true(json_object_get(seat1, "covered")));
    assert_true(json_is_true(json_object_get(seat1, "connected")));
    int c2[2] = {t.p0, b};
    play_to_end(d, c2, 2, 9);
    drv_free(d);
}

/* A finished room is kept while anyone is in it, then let go ten minutes
 * after its end; the other rooms stay reachable (the code table). */
static void test_finished_room_let_go(void **state)
{
    (void)state;
    drv *d = drv_new("letgo");
    int a = connect_(d);
    char room[64], other[4][64];
    for (int k = 0; k < 4; k++)
        snprintf(other[k], 64, "%s", create(d, a, "\"game\":\"ur\""));
    snprintf(room, sizeof room, "%s",
             create(d, a, "\"game\":\"ur\",\"options\":{\"pieces\":\"1\"},\"seats\":[{\"kind\":\"person\"},"
                          "{\"kind\":\"ai\",\"level\":\"easy\"}]"));
    int p0 = join(d, room, "ann");
    int conns[1] = {p0};
    play_to_end(d, conns, 1, 3);
    d->now += 11 * 60 * 1000;
    hub_tick(d->h, d->now);
    pump(d);
    hub_stats st;
    hub_get_stats(d->h, &st);
    assert_int_equal(st.rooms, 5); /* ann is still in it */
    disconnect_(d, p0);
    assert_true(hub_next_ms(d->h) <= d->now);
    hub_tick(d->h, d->now);
    pump(d);
    hub_get_stats(d->h, &st);
    assert_int_equal(st.rooms, 4);
    int x = connect_(d);
    sendf(d, x, "{\"type\":\"watch\",\"room\":\"%s\"}", room);
    assert_string_equal(last_error(d, x), "room");
    for (int k = 0; k < 4; k++) {
        sendf(d, x, "{\"type\":\"watch\",\"room\":\"%s\"}", other[k]);
        assert_string_equal(str(last(d, x, "state"), "room"), other[k]);
    }
    /* many rooms: every third one's creation fails, every other one is a game
     * of computers that ends at once and is let go later; the rest stay
     * reachable (the code table keeps its probe chains through deletions) */
    sendf(d, x, "{\"type\":\"leave\"}");
    static char kept[120][64];
    int nkept = 0, nai = 0;
    for (int k = 0; k < 120; k++) {
        d->fail_next = k % 3 == 0;
        int ai = k % 2;
        int before = count(d, a, "created");
        sendf(d, a, "{\"type\":\"create\",\"game\":\"ur\"%s}",
              ai ? ",\"options\":{\"pieces\":\"1\"},\"seats\":[{\"kind\":\"ai\",\"level\":\"easy\"},"
                   "{\"kind\":\"ai\",\"level\":\"easy\"}]"
                 : "");
        if (count(d, a, "created") > before) {
            if (ai)
                nai++;
            else
                snprintf(kept[nkept++], 64, "%s", str(last(d, a, "created"), "room"));
        }
    }
    assert_int_equal(nkept + nai, 80);
    d->now += 11 * 60 * 1000;
    hub_tick(d->h, d->now);
    pump(d);
    hub_get_stats(d->h, &st);
    assert_int_equal(st.rooms, 4 + (uint64_t)nkept); /* the computers' games are gone */
    for (int k = 0; k < nkept; k++) {
        sendf(d, x, "{\"type\":\"watch\",\"room\":\"%s\"}", kept[k]);
        assert_string_equal(str(last(d, x, "state"), "room"), kept[k]);
    }
    drv_free(d);
}

/* Issue 17 (and what issue 15 left open): with on_demand, a room the hub
 * does not hold is read from the store when asked for by code. After a
 * restart without hub_restore: a finished game's replay and referee's
 * record (the same record as before), an unfinished game joined again by
 * token (the same state) and played to its end; a code never made is one
 * load, then "no room"; a text that is no code is "no room" at once. */
static void test_rooms_on_demand(void **state)
{
    (void)state;
    drv *d = drv_new("ondemand");
    int a = connect_(d);
    char fin[64], open_[64], tok[2][64];
    snprintf(fin, sizeof fin, "%s",
             create(d, a, "\"game\":\"ur\",\"options\":{\"pieces\":\"1\"},\"seats\":[{\"kind\":\"person\"},"
                          "{\"kind\":\"ai\",\"level\":\"easy\"}]"));
    int p0 = join(d, fin, "ann");
    int c1[1] = {p0};
    play_to_end(d, c1, 1, 3);
    long fseq = num(last(d, p0, "state"), "seq");
    sendf(d, p0, "{\"type\":\"record\",\"who\":\"referee\"}");
    char *rec0 = json_dumps(json_object_get(last(d, p0, "record"), "record"), JSON_SORT_KEYS | JSON_COMPACT);
    assert_non_null(rec0);
    snprintf(open_, sizeof open_, "%s", create(d, a, "\"game\":\"ur\""));
    int q0 = join(d, open_, "bob"), q1 = join(d, open_, "cy");
    snprintf(tok[0], 64, "%s", str(last(d, q0, "joined"), "token"));
    snprintf(tok[1], 64, "%s", str(last(d, q1, "joined"), "token"));
    unsigned pick = 5;
    int c2[2] = {q0, q1};
    for (int k = 0; k < 4; k++)
        play_round(d, c2, 2, &pick);
    long seq = num(last(d, q0, "state"), "seq");
    char *view0 = json_dumps(json_object_get(last(d, q0, "state"), "view"), JSON_SORT_KEYS | JSON_COMPACT);
    /* restart: nothing restored, everything on demand */
    hub_free(d->h);
    for (int i = 0; i < MAXC; i++) {
        d->id[i] = 0;
        json_array_clear(d->in[i]);
    }
    store_close(d->s);
    drv_open_store(d);
    hub_config cfg = {.test_seed = TEST_SEED + 99, .takeover_level = "easy", .rate_per_s = 1000,
                      .rate_burst = 3000, .on_demand = 1};
    pl_buf err = {0};
    d->h = hub_new(&cfg, &err);
    assert_non_null(d->h);
    pl_buf_free(&err);
    hub_stats st;
    hub_get_stats(d->h, &st);
    assert_int_equal(st.rooms, 0);
    int x = connect_(d);
    sendf(d, x, "{\"type\":\"replay\",\"room\":\"%s\",\"seat\":-1}", fin);
    json_t *rp = last(d, x, "replay");
    if (!rp)
        fail_msg("no replay: %s", json_dumps(last(d, x, "error"), 0));
    assert_true(json_is_true(json_object_get(rp, "over")));
    assert_int_equal(num(rp, "actions"), fseq);
    assert_int_equal(json_array_size(json_object_get(rp, "steps")), fseq + 1);
    sendf(d, x, "{\"type\":\"watch\",\"room\":\"%s\"}", fin);
    assert_true(json_is_true(json_object_get(last(d, x, "state"), "over")));
    sendf(d, x, "{\"type\":\"record\",\"who\":\"referee\"}");
    char *rec1 = json_dumps(json_object_get(last(d, x, "record"), "record"), JSON_SORT_KEYS | JSON_COMPACT);
    assert_non_null(rec1);
    assert_string_equal(rec0, rec1);
    int y = connect_(d);
    sendf(d, y, "{\"type\":\"join\",\"room\":\"%s\",\"token\":\"%s\"}", open_, tok[0]);
    assert_int_equal(num(last(d, y, "joined"), "seat"), 0);
    assert_int_equal(num(last(d, y, "state"), "seq"), seq);
    char *view1 = json_dumps(json_object_get(last(d, y, "state"), "view"), JSON_SORT_KEYS | JSON_COMPACT);
    assert_string_equal(view0, view1);
    int z = connect_(d);
    sendf(d, z, "{\"type\":\"join\",\"room\":\"%s\",\"token\":\"%s\"}", open_, tok[1]);
    assert_int_equal(num(last(d, z, "joined"), "seat"), 1);
    hub_get_stats(d->h, &st);
    assert_int_equal(st.rooms, 2); /* loaded once each */
    int c3[2] = {y, z};
    play_to_end(d, c3, 2, 9);
    sendf(d, x, "{\"type\":\"watch\",\"room\":\"0123456789abcdef0123456789abcdef\"}");
    assert_string_equal(last_error(d, x), "room");
    sendf(d, x, "{\"type\":\"join\",\"room\":\"nope\",\"name\":\"dan\"}");
    assert_string_equal(last_error(d, x), "room");
    hub_get_stats(d->h, &st);
    assert_int_equal(st.rooms, 2);
    pl_free(rec0);
    pl_free(rec1);
    pl_free(view0);
    pl_free(view1);
    drv_free(d);
}

static void test_move_clock(void **state)
{
    (void)state;
    drv *d = drv_new("clock");
    duo t = duo_open(d, "\"game\":\"ur\",\"clock\":{\"move_s\":30}");
    json_t *st = last(d, t.p0, "state");
    assert_int_equal(num(json_object_get(st, "clock"), "move_s"), 30);
    int mover = duo_mover(d, &t);
    long seq = num(last(d, mover, "state"), "seq");
    int64_t due = hub_next_ms(d->h);
    assert_true(due <= d->now + 30000 && due > d->now);
    d->now = due - 1;
    hub_tick(d->h, d->now);
    pump(d);
    assert_int_equal(num(last(d, mover, "state"), "seq"), seq); /* not yet */
    d->now = due;
    hub_tick(d->h, d->now);
    pump(d);
    assert_true(num(last(d, mover, "state"), "seq") > seq); /* the computer played that move */
    json_t *hist = json_object_get(last(d, mover, "state"), "history");
    assert_true(json_array_size(hist) > 0);
    drv_free(d);
}

static void test_total_clock(void **state)
{
    (void)state;
    drv *d = drv_new("total");
    duo t = duo_open(d, "\"game\":\"ur\",\"clock\":{\"total_s\":5}");
    d->now += 5001;
    hub_tick(d->h, d->now);
    pump(d);
    json_t *seats = json_object_get(last(d, t.p0, "state"), "seats");
    int covered = json_is_true(json_object_get(json_array_get(seats, 0), "covered")) +
                  json_is_true(json_object_get(json_array_get(seats, 1), "covered"));
    assert_int_equal(covered, 1); /* the one whose clock ran: a computer plays on */
    int late = json_is_true(json_object_get(json_array_get(seats, 0), "covered")) ? t.p0 : t.p1;
    sendf(d, late, "{\"type\":\"act\",\"action\":\"pass\"}");
    assert_string_equal(last_error(d, late), "not-your-turn");
    drv_free(d);
}

/* Rated rooms (docs/ratings.md, "Stalling"): accounts Cat, Ann and Bob in
 * the store; Cat (signed in on `owner`) creates the room from `body` with
 * "rated":true, Ann (p0, seat 0) and Bob (p1, seat 1) join signed in. The
 * room's clock must be `clock_key` ("move_s" or "total_s") of `clock_s`
 * seconds, and no other. */
static duo rated_duo(drv *d, const char *body, const char *clock_key, long clock_s)
{
    static const char *const names[3] = {"Cat", "Ann", "Bob"}, *const folded[3] = {"cat", "ann", "bob"};
    int64_t ids[3];
    for (int k = 0; k < 3; k++) {
        pl_buf err = {0};
        if (store_account_put(d->s, names[k], folded[k], "not-a-hash", d->now, &ids[k], &err) != 0)
            fail_msg("store_account_put: %s", pl_buf_str(&err));
        pl_buf_free(&err);
    }
    duo t;
    t.owner = connect_(d);
    hub_account(d->h, d->id[t.owner], ids[0], names[0], d->now);
    char b[512];
    snprintf(b, sizeof b, "%s,\"rated\":true", body);
    snprintf(t.room, sizeof t.room, "%s", create(d, t.owner, b));
    int *p[2] = {&t.p0, &t.p1};
    for (int k = 0; k < 2; k++) {
        *p[k] = connect_(d);
        hub_account(d->h, d->id[*p[k]], ids[k + 1], names[k + 1], d->now);
        sendf(d, *p[k], "{\"type\":\"join\",\"room\":\"%s\",\"name\":\"%s\"}", t.room, folded[k + 1]);
        if (!last(d, *p[k], "joined"))
            fail_msg("join refused: %s", json_dumps(last(d, *p[k], "error"), 0));
        assert_int_equal(num(last(d, *p[k], "joined"), "seat"), k);
    }
    json_t *clock = json_object_get(last(d, t.p0, "state"), "clock");
    assert_int_equal(num(clock, clock_key), clock_s);
    assert_null(json_object_get(clock, strcmp(clock_key, "move_s") ? "move_s" : "total_s"));
    return t;
}

/* Seat `seat` as connection i's last state shows it. */
static json_t *seat_shown(drv *d, int i, int seat)
{
    return json_array_get(json_object_get(last(d, i, "state"), "seats"), (size_t)seat);
}

/* Connection `other` plays its decisions at once while connection i lets
 * its move clock run out `times` times (each time the computer plays that
 * one decision for it); never a decision of i's own. */
static void let_clock_play(drv *d, int i, int other, int times, unsigned *pick)
{
    int conns[1] = {other};
    for (int n = 0; n < times;) {
        if (json_is_true(json_object_get(last(d, i, "state"), "over")))
            fail_msg("the game ended before the clock ran out %d times", times);
        if (play_round(d, conns, 1, pick))
            continue;
        long seq = num(last(d, i, "state"), "seq");
        assert_true(json_array_size(json_object_get(last(d, i, "state"), "legal")) > 0);
        for (int guard = 0; num(last(d, i, "state"), "seq") == seq; guard++) { /* till the computer played it */
            assert_true(guard < 100 && hub_next_ms(d->h) != INT64_MAX);
            if (hub_next_ms(d->h) > d->now) /* a stale timer may come first: it does nothing */
                d->now = hub_next_ms(d->h);
            hub_tick(d->h, d->now);
            pump(d);
        }
        n++;
    }
}

/* Connection i plays one decision of its own (`other` plays until then). */
static void own_move(drv *d, int i, int other, unsigned *pick)
{
    int conns[1] = {other}, me[1] = {i};
    while (!play_round(d, me, 1, pick))
        if (!play_round(d, conns, 1, pick))
            fail_msg("nobody moves");
}

/* A rated room made without a clock gets the move clock (60 s); a seat
 * that lets it run out 3 times in a row is kept by the computer to the end
 * and rated as the leaver: a loss against the other, who wins. One own
 * decision in between starts the count again; neither a return with the
 * token nor a restart gives the seat back. */
static void test_rated_stalling_counts_as_leaving(void **state)
{
    (void)state;
    drv *d = drv_new("stall");
    duo t = rated_duo(d, "\"game\":\"ur\"", "move_s", 60); /* the default */
    char tok[2][64];
    snprintf(tok[0], 64, "%s", str(last(d, t.p0, "joined"), "token"));
    snprintf(tok[1], 64, "%s", str(last(d, t.p1, "joined"), "token"));
    unsigned pick = 11;
    let_clock_play(d, t.p1, t.p0, 2, &pick);
    own_move(d, t.p1, t.p0, &pick); /* Bob moves once: his run starts again */
    let_clock_play(d, t.p1, t.p0, 2, &pick);
    assert_false(json_is_true(json_object_get(seat_shown(d, t.p0, 1), "covered")));
    assert_null(json_object_get(seat_shown(d, t.p0, 1), "stalled"));
    let_clock_play(d, t.p1, t.p0, 1, &pick); /* the third in a row */
    json_t *bob = seat_shown(d, t.p0, 1);
    assert_true(json_is_true(json_object_get(bob, "covered")));
    assert_true(json_is_true(json_object_get(bob, "stalled")));
    assert_true(json_is_true(json_object_get(bob, "connected"))); /* still there: stalling, not gone */
    assert_string_equal(str(bob, "level"), "easy");
    assert_null(json_object_get(seat_shown(d, t.p0, 0), "stalled"));
    sendf(d, t.p1, "{\"type\":\"act\",\"action\":\"pass\"}");
    assert_string_equal(last_error(d, t.p1), "not-your-turn");
    /* back with the token: the seat stays the computer's */
    int b = connect_(d);
    sendf(d, b, "{\"type\":\"join\",\"room\":\"%s\",\"token\":\"%s\"}", t.room, tok[1]);
    assert_true(json_is_true(json_object_get(seat_shown(d, b, 1), "stalled")));
    assert_int_equal(json_array_size(json_object_get(last(d, b, "state"), "legal")), 0);
    /* a restart keeps the mark (the stored configuration) */
    assert_int_equal(restart(d), 1);
    int a = connect_(d);
    sendf(d, a, "{\"type\":\"join\",\"room\":\"%s\",\"token\":\"%s\"}", t.room, tok[0]);
    assert_true(json_is_true(json_object_get(seat_shown(d, a, 1), "stalled")));
    assert_true(json_is_true(json_object_get(seat_shown(d, a, 1), "covered")));
    int conns[1] = {a};
    play_to_end(d, conns, 1, 5);
    json_t *rated = last(d, a, "rated");
    assert_non_null(rated);
    json_t *seats = json_object_get(rated, "seats");
    json_t *ann = json_array_get(seats, 0);
    bob = json_array_get(seats, 1);
    assert_true(json_is_true(json_object_get(bob, "left")));
    assert_false(json_is_true(json_object_get(ann, "left")));
    /* whoever won on the board: Bob lost, Ann won (pl_rating_abandon) */
    assert_true(json_real_value(json_object_get(bob, "after")) < json_real_value(json_object_get(bob, "before")));
    assert_true(json_real_value(json_object_get(ann, "after")) > json_real_value(json_object_get(ann, "before")));
    drv_free(d);
}

/* A rated room keeps the clock its creator gave; a total clock that runs
 * out is stalling at once (it runs out only once). */
static void test_rated_total_clock_out_is_leaving(void **state)
{
    (void)state;
    drv *d = drv_new("stalltotal");
    duo t = rated_duo(d, "\"game\":\"ur\",\"clock\":{\"total_s\":5}", "total_s", 5);
    d->now += 5001;
    hub_tick(d->h, d->now);
    pump(d);
    int late = json_is_true(json_object_get(seat_shown(d, t.p0, 0), "covered")) ? 0 : 1;
    assert_true(json_is_true(json_object_get(seat_shown(d, t.p0, late), "stalled")));
    assert_null(json_object_get(seat_shown(d, t.p0, 1 - late), "stalled"));
    int conns[1] = {late ? t.p0 : t.p1};
    play_to_end(d, conns, 1, 3);
    json_t *seats = json_object_get(last(d, t.p0, "rated"), "seats");
    assert_true(json_is_true(json_object_get(json_array_get(seats, (size_t)late), "left")));
    assert_false(json_is_true(json_object_get(json_array_get(seats, (size_t)(1 - late)), "left")));
    drv_free(d);
}

/* Casual rooms are unchanged: no clock unless asked, and a move clock
 * that runs out any number of times in a row only plays the move. */
static void test_casual_clock_never_stalls(void **state)
{
    (void)state;
    drv *d = drv_new("casualclock");
    duo t = duo_open(d, "\"game\":\"ur\"");
    assert_true(json_is_null(json_object_get(last(d, t.p0, "state"), "clock")));
    drv_free(d);
    d = drv_new("casualclock");
    t = duo_open(d, "\"game\":\"ur\",\"clock\":{\"move_s\":30}");
    unsigned pick = 4;
    let_clock_play(d, t.p1, t.p0, 5, &pick);
    json_t *bob = seat_shown(d, t.p0, 1);
    assert_false(json_is_true(json_object_get(bob, "covered")));
    assert_null(json_object_get(bob, "stalled"));
    own_move(d, t.p1, t.p0, &pick); /* his seat still */
    drv_free(d);
}

/* Karuta's reading: after the memorisation time (ended by `ready`), the
 * kana come at their time, a touch before the first
 * kana or of a card not on the table is refused without a hint, a touch
 * stamped before its deciding kana could be heard is clamped (and logged),
 * and the answers are played when the window closes. */
static void test_karuta_reading(void **state)
{
    (void)state;
    drv *d = drv_new("karuta");
    hub_free(d->h);
    FILE *log = tmpfile();
    hub_config cfg = {.test_seed = TEST_SEED, .takeover_level = "easy", .log = log};
    pl_buf err = {0};
    d->h = hub_new(&cfg, &err);
    int a = connect_(d);
    char room[64];
    snprintf(room, sizeof room, "%s",
             create(d, a, "\"game\":\"karuta\",\"options\":{\"deal\":\"9;12;13/14;15;16\"},"
                          "\"seats\":[{\"kind\":\"person\"},{\"kind\":\"ai\",\"level\":\"easy\"}]"));
    int p0 = join(d, room, "ann");
    /* memorisation first (KA-R3, memo_s 900 by default): no reading until
     * the person says ready (the computer always is) */
    assert_null(last(d, p0, "reading"));
    json_t *memo = json_object_get(last(d, p0, "state"), "memo");
    assert_non_null(memo);
    assert_int_equal(json_integer_value(json_object_get(memo, "left_ms")), 900000);
    sendf(d, p0, "{\"type\":\"ready\"}");
    json_t *rd = last(d, p0, "reading");
    assert_non_null(rd);
    assert_null(json_object_get(rd, "kana_count")); /* a count of kana could tell the card */
    int64_t t0 = json_integer_value(json_object_get(rd, "t0_ms"));
    assert_true(t0 > d->now);
    sendf(d, p0, "{\"type\":\"touch\",\"card\":11,\"client_ms\":%lld}", (long long)(d->now + d->clock_off));
    assert_string_equal(last_error(d, p0), "not-your-turn");
    while (d->now < t0) { /* clock syncs on the way */
        d->now = hub_next_ms(d->h) < t0 ? hub_next_ms(d->h) : t0;
        hub_tick(d->h, d->now);
        pump(d);
    }
    assert_true(d->syncs >= 3);
    assert_int_equal(d->kana_seen[p0], 1);
    sendf(d, p0, "{\"type\":\"touch\",\"card\":50,\"client_ms\":%lld}", (long long)(d->now + d->clock_off));
    assert_string_equal(last_error(d, p0), "illegal");
    assert_null(strstr(str(last(d, p0, "error"), "message"), "@"));
    sendf(d, p0, "{\"type\":\"act\",\"action\":\"none\"}");
    assert_string_equal(last_error(d, p0), "not-your-turn");
    sendf(d, p0, "{\"type\":\"record\",\"who\":\"seat\"}");
    assert_string_equal(last_error(d, p0), "not-your-turn");
    sendf(d, p0, "{\"type\":\"touch\",\"card\":11,\"client_ms\":%lld,\"poet\":3}", (long long)(d->now + d->clock_off));
    assert_string_equal(last_error(d, p0), "shape"); /* poet only with answer=poet */
    /* touches stamped at the first kana: those on the read card are clamped
     * to its deciding kana */
    long seq = num(last(d, p0, "state"), "seq");
    static const int touch[] = {12, 9}; /* this seed's first reading reads card 9 */
    for (int c = 0; c < 2; c++)
        sendf(d, p0, "{\"type\":\"touch\",\"card\":%d,\"client_ms\":%lld}", touch[c], (long long)(t0 + d->clock_off));
    /* final now (the read card or three touches): the window closes once the computer answered */
    json_t *st = last(d, p0, "state");
    assert_true(num(st, "seq") >= seq + 2);
    int mine = 0, read = 0;
    json_t *view = NULL;
    for (size_t m = 0; m < json_array_size(d->in[p0]); m++) {
        json_t *sm = json_array_get(d->in[p0], m);
        if (strcmp(str(sm, "type"), "state"))
            continue;
        json_t *hist = json_object_get(sm, "history");
        for (size_t k = 0; k < json_array_size(hist); k++) {
            json_t *e = json_array_get(hist, k);
            mine += num(e, "seat") == 0 && !strncmp(str(e, "text"), "touch 1", 7);
            read += !strncmp(str(e, "text"), "read ", 5);
        }
        if (!view && json_is_object(json_object_get(json_object_get(sm, "view"), "judgement")))
            view = json_object_get(sm, "view");
    }
    assert_int_equal(mine, 1);
    assert_int_equal(read, 1); /* told once answered */
    assert_non_null(view);
    fflush(log);
    rewind(log);
    char text[4096] = "";
    size_t got = fread(text, 1, sizeof text - 1, log);
    text[got] = 0;
    json_t *j = json_object_get(view, "judgement");
    long card = num(j, "card");
    assert_int_equal(card, 9);
    /* between readings: the seat's record, without the deal */
    sendf(d, p0, "{\"type\":\"record\",\"who\":\"seat\"}");
    json_t *rec = json_object_get(last(d, p0, "record"), "record");
    assert_non_null(rec);
    assert_null(json_object_get(json_object_get(rec, "options"), "deal"));
    /* the next reading's draw cannot be stored: it is drawn again, and read */
    int readings = count(d, p0, "reading");
    d->fail_next = 1;
    d->now = hub_next_ms(d->h) > d->now ? hub_next_ms(d->h) : d->now;
    for (int k = 0; k < 5 && count(d, p0, "reading") == readings; k++) {
        hub_tick(d->h, d->now);
        pump(d);
        d->now = hub_next_ms(d->h) > d->now ? hub_next_ms(d->h) : d->now + 1;
    }
    assert_int_equal(count(d, p0, "reading"), readings + 1);
    assert_string_equal(str(json_object_get(last(d, p0, "state"), "view"), "stage"), "touch");
    assert_non_null(strstr(text, "seat 0: touch of card 9 clamped")); /* the read card, before its deciding kana */
    assert_null(strstr(text, "card 12 clamped"));
    fclose(log);
    pl_buf_free(&err);
    drv_free(d);
}

/* ---- replay (docs/web-protocol.md "Replay") ---- */

/* Sends `text` as replay_part messages of `part` bytes (the last one with
 * `tail`, e.g. ",\"seat\":0"). */
static void upload(drv *d, int i, const char *text, size_t part, const char *tail)
{
    size_t n = strlen(text);
    for (size_t at = 0; at < n || at == 0; at += part) {
        size_t k = n - at < part ? n - at : part;
        char *chunk = strndup(text + at, k);
        json_t *m = json_pack("{s:s, s:s, s:b}", "type", "replay_part", "data", chunk, "last", at + k >= n);
        char *msg = json_dumps(m, JSON_COMPACT);
        if (at + k >= n && tail) { /* splice the tail before the closing brace */
            size_t ml = strlen(msg);
            char *m2 = malloc(ml + strlen(tail) + 1);
            memcpy(m2, msg, ml - 1);
            strcpy(m2 + ml - 1, tail);
            strcat(m2, "}");
            free(msg);
            msg = m2;
        }
        sendn(d, i, msg, strlen(msg));
        free(msg);
        free(chunk);
        json_decref(m);
        if (k == 0)
            break;
    }
}

/* A finished Finkel Ur game with 2 pieces: the room's code in `room`, the
 * two seats' connections in p[]. */
static void finished_ur(drv *d, char *room, int p[2])
{
    duo t = duo_open(d, "\"game\":\"ur\",\"options\":{\"rules\":\"finkel\",\"pieces\":\"2\"}");
    snprintf(room, 64, "%s", t.room);
    p[0] = t.p0;
    p[1] = t.p1;
    sendf(d, p[0], "{\"type\":\"replay\",\"room\":\"%s\",\"seat\":0}", room);
    assert_string_equal(last_error(d, p[0]), "over"); /* never during the game */
    play_to_end(d, p, 2, 4242);
}

/* A client asking for replays over and over is refused once its budget of
 * steps (hub_config.replay_burst, 10000) is spent, and served again once it
 * refilled (replay_rate, 2000 steps a second). */
static void test_replay_budget(void **state)
{
    (void)state;
    drv *d = drv_new("replay_budget");
    char room[64];
    int p[2];
    finished_ur(d, room, p);
    int w = connect_(d);
    int served = 0, refused = 0;
    long steps = 0;
    for (int k = 0; k < 400 && !refused; k++) {
        sendf(d, w, "{\"type\":\"replay\",\"room\":\"%s\",\"seat\":-1}", room);
        json_t *m = json_array_get(d->in[w], json_array_size(d->in[w]) - 1);
        if (!strcmp(str(m, "type"), "replay")) {
            served++;
            steps = (long)json_array_size(json_object_get(m, "steps"));
        } else {
            assert_string_equal(last_error(d, w), "rate");
            refused = 1;
        }
    }
    assert_true(refused); /* the driver's clock moves a little per message: a few more than 10000/steps */
    assert_true(served >= 10000 / steps && served < 400);
    d->now += 1000; /* 2000 steps refilled */
    sendf(d, w, "{\"type\":\"replay\",\"room\":\"%s\",\"seat\":-1}", room);
    assert_string_equal(str(json_array_get(d->in[w], json_array_size(d->in[w]) - 1), "type"), "replay");
    drv_free(d);
}

/* A finished room's review (hub_review.c) costs one search only: a
 * connection has one review out at a time (a second ask meanwhile: `rate`,
 * so one client cannot hold every review slot and the workers), and once
 * computed the room keeps the answer, so asking again is answered at once,
 * the same text, without a job (here: with the jobs held). */
static void test_review_once_and_one_at_a_time(void **state)
{
    (void)state;
    drv *d = drv_new("review_once");
    char room[64];
    int p[2];
    finished_ur(d, room, p);
    int w = connect_(d);
    d->no_jobs = 1;
    sendf(d, w, "{\"type\":\"review\",\"room\":\"%s\"}", room);
    assert_int_equal(count(d, w, "review"), 0);
    sendf(d, w, "{\"type\":\"review\",\"room\":\"%s\"}", room);
    assert_string_equal(last_error(d, w), "rate"); /* the first is still out */
    d->no_jobs = 0;
    pump(d);
    assert_int_equal(count(d, w, "review"), 1);
    char *first = json_dumps(last(d, w, "review"), JSON_COMPACT | JSON_SORT_KEYS);
    d->no_jobs = 1; /* no worker: only the room's copy can answer */
    sendf(d, w, "{\"type\":\"review\",\"room\":\"%s\"}", room);
    int o = connect_(d);
    sendf(d, o, "{\"type\":\"review\",\"room\":\"%s\"}", room);
    assert_int_equal(count(d, w, "review"), 2);
    assert_int_equal(count(d, o, "review"), 1);
    char *again = json_dumps(last(d, w, "review"), JSON_COMPACT | JSON_SORT_KEYS);
    char *other = json_dumps(last(d, o, "review"), JSON_COMPACT | JSON_SORT_KEYS);
    assert_string_equal(first, again);
    assert_string_equal(first, other);
    pl_free(first);
    pl_free(again);
    pl_free(other);
    d->no_jobs = 0;
    drv_free(d);
}

/* Job `j`, taken by hand (hub_job_take), run and answered as a worker does. */
static void run_job(drv *d, hub_job *j)
{
    hub_job_run(j);
    hub_job_done(d->h, j, d->now);
}

/* Reviews never hold more than one worker: while one review job is out of
 * the queue, hub_job_take skips the others, and a computer's move queued
 * behind them is taken first; the next review once the first is done. */
static void test_review_one_worker(void **state)
{
    (void)state;
    drv *d = drv_new("review_worker");
    char room[64];
    int p[2];
    finished_ur(d, room, p);
    int a = connect_(d), b = connect_(d);
    d->no_jobs = 1;
    sendf(d, a, "{\"type\":\"review\",\"room\":\"%s\"}", room);
    sendf(d, b, "{\"type\":\"review\",\"room\":\"%s\"}", room);
    create(d, a, "\"game\":\"ur\",\"options\":{\"pieces\":\"1\"},\"seats\":[{\"kind\":\"ai\",\"level\":"
                 "\"easy\"},{\"kind\":\"ai\",\"level\":\"easy\"}]"); /* computers only: it starts at once */
    hub_job *j1 = hub_job_take(d->h);
    assert_non_null(j1);
    assert_non_null(j1->review); /* the first in the queue */
    hub_job *mv = hub_job_take(d->h);
    assert_non_null(mv);
    assert_null(mv->review); /* the computers' job, past the second review */
    assert_null(hub_job_take(d->h)); /* the second review waits for the first */
    run_job(d, mv);
    run_job(d, j1);
    hub_job *j2 = hub_job_take(d->h);
    for (; j2 && !j2->review; j2 = hub_job_take(d->h)) /* the computers' next moves go first, as queued */
        run_job(d, j2);
    assert_non_null(j2);
    run_job(d, j2);
    d->no_jobs = 0;
    pump(d);
    assert_int_equal(count(d, a, "review"), 1);
    assert_int_equal(count(d, b, "review"), 1);
    drv_free(d);
}

static void test_replay_room_and_upload(void **state)
{
    (void)state;
    drv *d = drv_new("replay");
    char room[64];
    int p[2];
    finished_ur(d, room, p);
    int w = connect_(d);
    sendf(d, w, "{\"type\":\"replay\",\"room\":\"%s\",\"seat\":-1}", room);
    json_t *rp = last(d, w, "replay");
    assert_non_null(rp);
    assert_string_equal(str(rp, "room"), room);
    assert_string_equal(str(rp, "game"), "ur");
    assert_int_equal(num(rp, "seat"), -1);
    assert_true(json_is_true(json_object_get(rp, "over")));
    assert_true(json_is_false(json_object_get(rp, "truncated")));
    json_t *steps = json_object_get(rp, "steps");
    long nact = num(rp, "actions");
    assert_int_equal(json_array_size(steps), nact + 1);
    assert_true(nact > 10);
    int decisions = 0;
    for (size_t k = 0; k < json_array_size(steps); k++) {
        json_t *s = json_array_get(steps, k);
        assert_int_equal(num(s, "seq"), (long)k);
        assert_string_equal(str(json_object_get(s, "view"), "game"), "ur");
        json_t *e = json_object_get(s, "entry");
        if (k == 0)
            assert_true(json_is_null(e));
        else {
            assert_int_equal(num(e, "seq"), (long)k - 1);
            assert_true(strlen(str(e, "text")) > 0);
        }
        json_t *legal = json_object_get(s, "legal");
        for (size_t l = 0; l < json_array_size(legal); l++) { /* no table loaded: no chance */
            assert_true(json_is_null(json_object_get(json_array_get(legal, l), "chance")));
            assert_true(strlen(str(json_array_get(legal, l), "action")) > 0);
        }
        decisions += json_array_size(legal) > 0;
    }
    assert_true(decisions > 0);
    assert_true(json_is_null(json_object_get(json_object_get(json_array_get(steps, 0), "view"), "outcome")));
    assert_false(json_is_null(json_object_get(json_object_get(json_array_get(steps, (size_t)nact), "view"), "outcome")));

    /* the referee's record uploaded in parts gives the same steps */
    sendf(d, p[0], "{\"type\":\"record\",\"who\":\"referee\"}");
    char *rec = json_dumps(json_object_get(last(d, p[0], "record"), "record"), JSON_COMPACT);
    assert_true(strlen(rec) > 1500);
    int u = connect_(d);
    upload(d, u, rec, 700, NULL);
    json_t *ru = last(d, u, "replay");
    assert_non_null(ru);
    assert_true(json_is_null(json_object_get(ru, "room")));
    assert_true(json_equal(json_object_get(ru, "steps"), steps));
    /* as a seat (the optional seat on the last part) */
    json_array_clear(d->in[u]);
    upload(d, u, rec, 5000, ",\"seat\":1");
    assert_int_equal(num(last(d, u, "replay"), "seat"), 1);
    sendf(d, w, "{\"type\":\"replay\",\"room\":\"%s\",\"seat\":1}", room);
    assert_true(json_equal(json_object_get(last(d, u, "replay"), "steps"),
                           json_object_get(last(d, w, "replay"), "steps")));

    /* errors change nothing and name what was wrong */
    static const struct {
        const char *msg, *code;
    } bad[] = {
        {"{\"type\":\"replay\",\"room\":\"00\",\"seat\":0}", "room"},
        {"{\"type\":\"replay\",\"room\":\"x\"}", "shape"},
        {"{\"type\":\"replay\",\"room\":7,\"seat\":0}", "shape"},
        {"{\"type\":\"replay\",\"room\":\"x\",\"seat\":0,\"more\":1}", "shape"},
        {"{\"type\":\"replay_part\",\"data\":\"{\"}", "shape"},
        {"{\"type\":\"replay_part\",\"data\":1,\"last\":true}", "shape"},
        {"{\"type\":\"replay_part\",\"data\":\"{\",\"last\":\"yes\"}", "shape"},
        {"{\"type\":\"replay_part\",\"data\":\"not json\",\"last\":true}", "record"},
        {"{\"type\":\"replay_part\",\"data\":\"{}\",\"last\":true}", "record"},
        {"{\"type\":\"replay_part\",\"data\":\"a\\u0000b\",\"last\":true}", "json"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        sendn(d, u, bad[k].msg, strlen(bad[k].msg));
        if (strcmp(last_error(d, u), bad[k].code))
            fail_msg("%s: %s, not %s", bad[k].msg, last_error(d, u), bad[k].code);
    }
    sendf(d, u, "{\"type\":\"replay\",\"room\":\"%s\",\"seat\":2}", room);
    assert_string_equal(last_error(d, u), "seat");
    sendf(d, u, "{\"type\":\"replay\",\"room\":\"%s\",\"seat\":-2}", room);
    assert_string_equal(last_error(d, u), "seat");
    upload(d, u, rec, 5000, ",\"seat\":2");
    assert_string_equal(last_error(d, u), "seat");
    /* a part over 6000 bytes, and a record over 512 KB, drop the upload */
    char *big = malloc(6002);
    memset(big, 'x', 6001);
    big[6001] = 0;
    upload(d, u, big, 6001, NULL);
    assert_string_equal(last_error(d, u), "too-long");
    big[6000] = 0;
    size_t quiet = json_array_size(d->in[u]);
    for (int k = 0; k < 87; k++) { /* 87 parts of 6000 bytes fit in 512 KB (524,288), an 88th does not */
        json_t *m = json_pack("{s:s, s:s, s:b}", "type", "replay_part", "data", big, "last", 0);
        char *msg = json_dumps(m, JSON_COMPACT);
        sendn(d, u, msg, strlen(msg));
        free(msg);
        json_decref(m);
    }
    assert_int_equal(json_array_size(d->in[u]), quiet); /* parts before the last get no answer */
    size_t before = json_array_size(d->in[u]);
    json_t *m = json_pack("{s:s, s:s, s:b}", "type", "replay_part", "data", big, "last", 0);
    char *msg = json_dumps(m, JSON_COMPACT);
    sendn(d, u, msg, strlen(msg));
    assert_int_equal(json_array_size(d->in[u]), before + 1);
    assert_string_equal(last_error(d, u), "too-long");
    free(msg);
    json_decref(m);
    free(big);
    /* the upload was dropped: a new one starts clean */
    json_array_clear(d->in[u]);
    upload(d, u, rec, 3000, NULL);
    assert_non_null(last(d, u, "replay"));
    /* a seat's record cannot be loaded, and says so */
    sendf(d, p[1], "{\"type\":\"record\",\"who\":\"seat\"}");
    char *vrec = json_dumps(json_object_get(last(d, p[1], "record"), "record"), JSON_COMPACT);
    upload(d, u, vrec, 4000, NULL);
    assert_string_equal(last_error(d, u), "record");
    assert_non_null(strstr(str(json_array_get(d->in[u], json_array_size(d->in[u]) - 1), "message"), "one seat's view"));
    free(vrec);
    free(rec);
    /* a part left over when the connection goes is freed (ASan) */
    upload(d, u, "{\"format\":", 6000, NULL);
    sendf(d, u, "{\"type\":\"replay_part\",\"data\":\"{\",\"last\":false}");
    disconnect_(d, u);
    drv_free(d);
}

/* Exact chances from a solved table (Finkel, 2 pieces, solved here). */
static void test_replay_chances(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "hub_test_table_%ld.tbl", (long)getpid());
    const pl_game *g = pl_game_find("ur");
    assert_non_null(g);
    assert_non_null(g->tables);
    char o1[] = "rules=finkel", o2[] = "pieces=2";
    char *argv[] = {o1, o2};
    pl_buf err = {0}, report = {0};
    pl_match *m = pl_match_new(g, 2, argv, &err);
    assert_non_null(m);
    pl_solve_params sp = {.tol = 1e-12, .threads = 1, .progress = NULL, .out = path};
    assert_int_equal(g->tables->solve(m->initial, &sp, &report, &err), 1);
    pl_match_free(m);
    pl_buf_free(&report);

    drv *d = drv_new("chances");
    /* not a table: the error names the file */
    assert_int_equal(hub_table_load(d->h, d->path, &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), d->path));
    pl_buf_clear(&err);
    assert_int_equal(hub_table_load(d->h, path, &err), 0);
    pl_buf_free(&err);
    char room[64];
    int p[2];
    finished_ur(d, room, p);
    sendf(d, p[0], "{\"type\":\"replay\",\"room\":\"%s\",\"seat\":0}", room);
    json_t *steps = json_object_get(last(d, p[0], "replay"), "steps");
    size_t n = json_array_size(steps);
    int valued = 0, last_win = 0;
    for (size_t k = 0; k + 1 < n; k++) {
        json_t *legal = json_object_get(json_array_get(steps, k), "legal");
        const char *played = str(json_object_get(json_array_get(steps, k + 1), "entry"), "text");
        for (size_t l = 0; l < json_array_size(legal); l++) {
            json_t *c = json_object_get(json_array_get(legal, l), "chance");
            assert_true(json_is_real(c));
            double v = json_real_value(c);
            assert_true(v >= 0 && v <= 1);
            valued++;
            /* the move that ended the game won it: chance 1 */
            if (k + 2 == n && !strcmp(played, str(json_array_get(legal, l), "action"))) {
                assert_true(v > 1 - 1e-9);
                last_win = 1;
            }
        }
    }
    assert_true(valued > 10);
    assert_true(last_win);
    /* an uploaded game that is not over gets no chances */
    sendf(d, p[0], "{\"type\":\"record\",\"who\":\"referee\"}");
    json_t *rec = json_deep_copy(json_object_get(last(d, p[0], "record"), "record"));
    json_t *acts = json_object_get(rec, "actions");
    json_array_remove(acts, json_array_size(acts) - 1);
    json_object_set_new(rec, "result", json_null());
    char *text = json_dumps(rec, JSON_COMPACT);
    int u = connect_(d);
    upload(d, u, text, 6000, NULL);
    json_t *ru = last(d, u, "replay");
    if (!ru)
        fail_msg("no replay: %s", json_dumps(last(d, u, "error"), 0));
    assert_true(json_is_false(json_object_get(ru, "over")));
    steps = json_object_get(ru, "steps");
    for (size_t k = 0; k < json_array_size(steps); k++) {
        json_t *legal = json_object_get(json_array_get(steps, k), "legal");
        for (size_t l = 0; l < json_array_size(legal); l++)
            assert_true(json_is_null(json_object_get(json_array_get(legal, l), "chance")));
    }
    free(text);
    json_decref(rec);
    drv_free(d);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lobby),
        cmocka_unit_test(test_welcome_invite),
        cmocka_unit_test(test_whole_game_ur),
        cmocka_unit_test(test_whole_game_cbw),
        cmocka_unit_test(test_whole_game_cbw_partners),
        cmocka_unit_test(test_create_cbw_two_players_seats),
        cmocka_unit_test(test_whole_game_tamcuc),
        cmocka_unit_test(test_whole_game_karuta),
        cmocka_unit_test(test_reconnect_spectator_chat),
        cmocka_unit_test(test_record_seat_whole_or_own),
        cmocka_unit_test(test_record_and_rematch),
        cmocka_unit_test(test_hostile_messages),
        cmocka_unit_test(test_illegal_explained),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_rate_limit),
        cmocka_unit_test(test_held_until_durable_and_failure),
        cmocka_unit_test(test_act_accepted_in_state),
        cmocka_unit_test(test_restore),
        cmocka_unit_test(test_random_failures_then_restart),
        cmocka_unit_test(test_forced_move_played_for_person),
        cmocka_unit_test(test_takeback),
        cmocka_unit_test(test_takeback_alone),
        cmocka_unit_test(test_grace_takeover_and_hand_back),
        cmocka_unit_test(test_finished_room_let_go),
        cmocka_unit_test(test_move_clock),
        cmocka_unit_test(test_total_clock),
        cmocka_unit_test(test_rated_stalling_counts_as_leaving),
        cmocka_unit_test(test_rated_total_clock_out_is_leaving),
        cmocka_unit_test(test_casual_clock_never_stalls),
        cmocka_unit_test(test_karuta_reading),
        cmocka_unit_test(test_replay_room_and_upload),
        cmocka_unit_test(test_rooms_on_demand),
        cmocka_unit_test(test_replay_budget),
        cmocka_unit_test(test_review_once_and_one_at_a_time),
        cmocka_unit_test(test_review_one_worker),
        cmocka_unit_test(test_replay_chances),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
