/* test_unit_account.c — accounts, passwords and sessions (src/server/
 * account.h) and the store's accounts and sessions (store.h), the same
 * cases on each backend: SQLite always (":memory:", or a file where the
 * bytes on disk are read), PostgreSQL when a throw-away cluster can be
 * started (deploy/pg.sh; PARLOUR_PG_URL names one already running instead)
 * — where it cannot, those cases are skipped with the reason. Argon2id runs
 * at libsodium's lowest limits here, so that the tests are quick: the
 * limits change the cost, not the logic. */
#include <jansson.h>
#include <sodium.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"
#include "store_backend.h"
#include "parlour/rng.h"
#include "store.h"
#include "account.h"
#include "drill.h"

static const backend *B;

static void db_remove(const char *path)
{
    char side[600];
    if (!strcmp(path, ":memory:"))
        return;
    unlink(path);
    snprintf(side, sizeof side, "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", path);
    unlink(side);
}

/* SQLite: ":memory:" (the store's in-memory database). */
static void mem_path(char *out, size_t n, const char *name)
{
    (void)name;
    snprintf(out, n, ":memory:");
}

/* A file in the working directory (the cases that read the bytes). */
static void file_path(char *out, size_t n, const char *name)
{
    snprintf(out, n, "account_test_%s_%ld.db", name, (long)getpid());
    db_remove(out);
}

/* A database for the running test (file: a SQLite file, not ":memory:"). */
static void fresh(char *out, size_t n, const char *name, int file)
{
    if (B->sqlite && file)
        file_path(out, n, name);
    else
        B->fresh(out, n, name);
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

/* Argon2id at libsodium's minimum: a hash takes microseconds. */
static acct_svc *acct_ok(store *s, int per_name, int per_addr, int64_t session_ms)
{
    acct_config cfg = {.ops = crypto_pwhash_OPSLIMIT_MIN, .mem = crypto_pwhash_MEMLIMIT_MIN,
                       .per_name = per_name, .per_addr = per_addr, .session_ms = session_ms};
    pl_buf err = {0};
    acct_svc *a = acct_new(s, &cfg, &err);
    if (!a)
        fail_msg("acct_new: %s", pl_buf_str(&err));
    pl_buf_free(&err);
    return a;
}

/* One test's world: a database, a store, an acct. */
typedef struct {
    char path[512];
    store *s;
    acct_svc *a;
} world;

static void world_open(world *w, const char *name, int file, int per_name, int per_addr, int64_t session_ms)
{
    fresh(w->path, sizeof w->path, name, file);
    w->s = open_ok(w->path);
    w->a = acct_ok(w->s, per_name, per_addr, session_ms);
}

static void world_close(world *w)
{
    acct_free(w->a);
    store_close(w->s);
    if (B->sqlite)
        db_remove(w->path);
    else
        B->drop(w->path);
}

static int signup(world *w, const char *name, const char *pw, const char *addr, int64_t now, acct_user *u)
{
    pl_buf err = {0};
    acct_user tmp;
    int rc = acct_signup(w->a, name, pw, addr, now, u ? u : &tmp, &err);
    if (rc < 0)
        fail_msg("acct_signup: %s", pl_buf_str(&err));
    pl_buf_free(&err);
    return rc;
}

static int signin(world *w, const char *name, const char *pw, const char *addr, int64_t now, acct_user *u)
{
    pl_buf err = {0};
    acct_user tmp;
    int rc = acct_signin(w->a, name, pw, addr, now, u ? u : &tmp, &err);
    if (rc < 0)
        fail_msg("acct_signin: %s", pl_buf_str(&err));
    pl_buf_free(&err);
    return rc;
}

static int session(world *w, const char *token, int64_t now, acct_user *u)
{
    pl_buf err = {0};
    acct_user tmp;
    int rc = acct_session(w->a, token, now, u ? u : &tmp, &err);
    if (rc < 0)
        fail_msg("acct_session: %s", pl_buf_str(&err));
    pl_buf_free(&err);
    return rc;
}

static int is_token(const char *t)
{
    return strlen(t) == ACCT_TOKEN_HEX && strspn(t, "0123456789abcdef") == ACCT_TOKEN_HEX;
}

/* Sign up, in and out; a session names its account and gives no token. */
static void test_signup_signin_signout(void **st)
{
    (void)st;
    NEED_BACKEND();
    world w;
    world_open(&w, "inout", 0, 0, 0, 0);
    acct_user u, v, x;
    assert_int_equal(signup(&w, "Ann", "correct horse", "10.0.0.1", 1000, &u), ACCT_OK);
    assert_true(u.id > 0);
    assert_string_equal(u.name, "Ann");
    assert_true(is_token(u.token));
    assert_int_equal(session(&w, u.token, 2000, &x), ACCT_OK);
    assert_int_equal(x.id, u.id);
    assert_string_equal(x.name, "Ann");
    assert_string_equal(x.token, ""); /* the token leaves only at sign-in */
    assert_int_equal(signin(&w, "ann", "correct horse", "10.0.0.1", 3000, &v), ACCT_OK); /* case-folded */
    assert_int_equal(v.id, u.id);
    assert_string_equal(v.name, "Ann");
    assert_true(is_token(v.token));
    assert_string_not_equal(v.token, u.token);
    pl_buf err = {0};
    assert_int_equal(acct_signout(w.a, u.token, &err), ACCT_OK);
    assert_int_equal(session(&w, u.token, 4000, NULL), ACCT_NO_SESSION);
    assert_int_equal(acct_signout(w.a, u.token, &err), ACCT_NO_SESSION);
    assert_int_equal(session(&w, v.token, 4000, NULL), ACCT_OK); /* the other session lives */
    assert_string_equal(acct_status_name(ACCT_OK), "ok");
    assert_string_equal(acct_status_name(ACCT_WRONG), "wrong");
    assert_string_equal(acct_status_name(ACCT_NO_SESSION), "no_session");
    assert_string_equal(acct_status_name(ACCT_NAME_TAKEN), "name_taken");
    assert_string_equal(acct_status_name(ACCT_RATE), "rate");
    assert_string_equal(acct_status_name(ACCT_BAD_NAME), "bad_name");
    assert_string_equal(acct_status_name(ACCT_BAD_PASSWORD), "bad_password");
    pl_buf_free(&err);
    world_close(&w);
}

/* A wrong password and a name nobody has get the same answer, with no
 * message and nothing else to tell them apart; neither opens a session. */
static void test_wrong_password_and_unknown_name_alike(void **st)
{
    (void)st;
    NEED_BACKEND();
    world w;
    world_open(&w, "alike", 0, 0, 0, 0);
    assert_int_equal(signup(&w, "Ann", "correct horse", "a", 0, NULL), ACCT_OK);
    const char *cases[][2] = {{"Ann", "wrong horse!"}, {"Nobody", "correct horse"}, {"Nobody", "wrong horse!"},
                              {"Ann", "short"},        {"", "correct horse"},       {"Ann\x01", "correct horse"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        pl_buf err = {0};
        acct_user u;
        memset(&u, 0x5a, sizeof u);
        assert_int_equal(acct_signin(w.a, cases[i][0], cases[i][1], "a", 10, &u, &err), ACCT_WRONG);
        assert_string_equal(pl_buf_str(&err), "");
        pl_buf_free(&err);
    }
    world_close(&w);
}

/* Names are unique case-folded and NFKC-normalised, trimmed at both ends. */
static void test_duplicate_names_case_folded(void **st)
{
    (void)st;
    NEED_BACKEND();
    world w;
    world_open(&w, "dup", 0, 0, 0, 0);
    acct_user u;
    assert_int_equal(signup(&w, "Ann", "correct horse", "a", 0, NULL), ACCT_OK);
    assert_int_equal(signup(&w, "ann", "another pass", "a", 0, NULL), ACCT_NAME_TAKEN);
    assert_int_equal(signup(&w, "ANN", "another pass", "a", 0, NULL), ACCT_NAME_TAKEN);
    assert_int_equal(signup(&w, "  Ann\t", "another pass", "a", 0, NULL), ACCT_NAME_TAKEN);
    assert_int_equal(signup(&w, "\xef\xbc\xa1\xef\xbd\x8e\xef\xbd\x8e", "another pass", "a", 0, NULL),
                     ACCT_NAME_TAKEN); /* fullwidth "Ａｎｎ" */
    assert_int_equal(signup(&w, "Anne", "another pass", "a", 0, NULL), ACCT_OK);
    assert_int_equal(signup(&w, "  Straße ", "another pass", "a", 0, &u), ACCT_OK);
    assert_string_equal(u.name, "Straße"); /* trimmed, as typed otherwise */
    assert_int_equal(signup(&w, "STRASSE", "another pass", "a", 0, NULL), ACCT_NAME_TAKEN);
    assert_int_equal(signin(&w, "strasse", "another pass", "a", 0, &u), ACCT_OK);
    assert_string_equal(u.name, "Straße");
    assert_int_equal(signup(&w, "Ёлка", "another pass", "a", 0, NULL), ACCT_OK);
    assert_int_equal(signup(&w, "ёЛКА", "another pass", "a", 0, NULL), ACCT_NAME_TAKEN);
    world_close(&w);
}

/* Bad names and passwords are refused with their status, never a crash. */
static void test_bad_names_and_passwords(void **st)
{
    (void)st;
    NEED_BACKEND();
    world w;
    world_open(&w, "bad", 0, 0, 0, 0);
    char forty[41], forty_one[42], long_pw[ACCT_MAX_PASSWORD + 2];
    memset(forty, 'x', 40);
    forty[40] = '\0';
    memset(forty_one, 'y', 41);
    forty_one[41] = '\0';
    memset(long_pw, 'p', sizeof long_pw - 1);
    long_pw[sizeof long_pw - 1] = '\0';
    const char *bad_names[] = {NULL,        "",          "   ",          "\t\n",        forty_one,
                               "a\x01" "b", "a\x7f",     "a\xff" "b",    "\xc3",        "a\xe2\x80\xae" "b",
                               "a\xe2\x80\x8b" "b", "a\xe2\x80\xa8" "b", "\xed\xa0\x80", "a\xee\x80\x80"};
    for (size_t i = 0; i < sizeof bad_names / sizeof *bad_names; i++)
        assert_int_equal(signup(&w, bad_names[i], "correct horse", "a", 0, NULL), ACCT_BAD_NAME);
    assert_int_equal(signup(&w, forty, "correct horse", "a", 0, NULL), ACCT_OK);
    assert_int_equal(signup(&w, "Bob Smith", "correct horse", "a", 0, NULL), ACCT_OK);
    assert_int_equal(signup(&w, "すずき", "correct horse", "a", 0, NULL), ACCT_OK);
    const char *bad_pw[] = {NULL, "", "seven77", "шесть1", "\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8\xf7", long_pw};
    for (size_t i = 0; i < sizeof bad_pw / sizeof *bad_pw; i++)
        assert_int_equal(signup(&w, "Carol", bad_pw[i], "a", 0, NULL), ACCT_BAD_PASSWORD);
    long_pw[ACCT_MAX_PASSWORD] = '\0'; /* 200 bytes: allowed */
    assert_int_equal(signup(&w, "Carol", long_pw, "a", 0, NULL), ACCT_OK);
    assert_int_equal(signup(&w, "Dmitri", "пароль12", "a", 0, NULL), ACCT_OK); /* 8 characters */
    assert_int_equal(signin(&w, "Dmitri", "пароль12", "a", 0, NULL), ACCT_OK);
    world_close(&w);
}

/* A session lives session_ms after its last use; every use renews it; an
 * expired or malformed token is no session. */
static void test_session_expiry_and_renewal(void **st)
{
    (void)st;
    NEED_BACKEND();
    world w;
    world_open(&w, "expiry", 0, 0, 0, 1000);
    acct_user u;
    assert_int_equal(signup(&w, "Ann", "correct horse", "a", 0, &u), ACCT_OK); /* expires at 1000 */
    assert_int_equal(session(&w, u.token, 900, NULL), ACCT_OK);                /* now 1900 */
    assert_int_equal(session(&w, u.token, 1800, NULL), ACCT_OK);               /* past 1000: renewed; now 2800 */
    assert_int_equal(session(&w, u.token, 2800, NULL), ACCT_NO_SESSION);       /* expired */
    assert_int_equal(session(&w, u.token, 2000, NULL), ACCT_NO_SESSION);       /* and gone */
    acct_user v;
    assert_int_equal(signin(&w, "Ann", "correct horse", "a", 5000, &v), ACCT_OK);
    char bad[ACCT_TOKEN_HEX + 2];
    snprintf(bad, sizeof bad, "%s", v.token);
    bad[0] = bad[0] == 'a' ? 'b' : 'a'; /* another token */
    assert_int_equal(session(&w, bad, 5000, NULL), ACCT_NO_SESSION);
    snprintf(bad, sizeof bad, "%s", v.token);
    for (char *p = bad; *p; p++)
        if (*p >= 'a')
            *p = (char)(*p - 'a' + 'A'); /* upper case: not how tokens are written */
    const char *malformed[] = {NULL, "", "zz", bad, "0123"};
    for (size_t i = 0; i < sizeof malformed / sizeof *malformed; i++) {
        assert_int_equal(session(&w, malformed[i], 5000, NULL), ACCT_NO_SESSION);
        pl_buf err = {0};
        assert_int_equal(acct_signout(w.a, malformed[i], &err), ACCT_NO_SESSION);
        pl_buf_free(&err);
    }
    snprintf(bad, sizeof bad, "%s0", v.token); /* one digit too many */
    assert_int_equal(session(&w, bad, 5000, NULL), ACCT_NO_SESSION);
    assert_int_equal(session(&w, v.token, 5000, NULL), ACCT_OK);
    world_close(&w);
}

/* Changing the password checks the old one and ends every other session. */
static void test_password_change_ends_other_sessions(void **st)
{
    (void)st;
    NEED_BACKEND();
    world w;
    world_open(&w, "passwd", 0, 0, 0, 0);
    acct_user u1, u2, u3, other;
    assert_int_equal(signup(&w, "Ann", "correct horse", "a", 0, &u1), ACCT_OK);
    assert_int_equal(signin(&w, "Ann", "correct horse", "a", 1, &u2), ACCT_OK);
    assert_int_equal(signin(&w, "Ann", "correct horse", "a", 2, &u3), ACCT_OK);
    assert_int_equal(signup(&w, "Bob", "bobs password", "a", 3, &other), ACCT_OK);
    pl_buf err = {0};
    assert_int_equal(acct_password(w.a, u1.token, "wrong horse!", "new battery", "a", 10, &err), ACCT_WRONG);
    assert_int_equal(acct_password(w.a, u1.token, "correct horse", "short", "a", 10, &err), ACCT_BAD_PASSWORD);
    assert_int_equal(session(&w, u2.token, 10, NULL), ACCT_OK); /* refusals ended nothing */
    assert_int_equal(acct_password(w.a, "feed", "correct horse", "new battery", "a", 10, &err), ACCT_NO_SESSION);
    assert_int_equal(acct_password(w.a, u1.token, "correct horse", "new battery", "a", 10, &err), ACCT_OK);
    assert_string_equal(pl_buf_str(&err), "");
    assert_int_equal(session(&w, u1.token, 11, NULL), ACCT_OK); /* this one stays */
    assert_int_equal(session(&w, u2.token, 11, NULL), ACCT_NO_SESSION);
    assert_int_equal(session(&w, u3.token, 11, NULL), ACCT_NO_SESSION);
    assert_int_equal(session(&w, other.token, 11, NULL), ACCT_OK); /* another account's: untouched */
    assert_int_equal(signin(&w, "Ann", "correct horse", "a", 12, NULL), ACCT_WRONG);
    assert_int_equal(signin(&w, "Ann", "new battery", "a", 12, NULL), ACCT_OK);
    pl_buf_free(&err);
    world_close(&w);
}

typedef struct {
    char config[1024];
    int finished;
} got_room;

static int grab_room(void *ctx, const store_room *r, int finished, const char *result)
{
    (void)result;
    got_room *g = ctx;
    snprintf(g->config, sizeof g->config, "%s", r->config);
    g->finished = finished;
    return 0;
}

static json_t *room_seats(store *s, const char *code)
{
    got_room g = {0};
    pl_buf err = {0};
    assert_int_equal(store_room_get(s, code, grab_room, &g, &err), 0);
    pl_buf_free(&err);
    json_t *cfg = json_loads(g.config, 0, NULL);
    assert_non_null(cfg);
    return cfg;
}

static void room_put(store *s, const char *code, const char *config)
{
    store_room r = {.code = code, .game = "ur", .options = "{}", .config = config, .seed = 7, .created_ms = 1};
    pl_buf err = {0};
    if (store_room_put(s, &r, &err) < 0)
        fail_msg("room %s: %s", code, pl_buf_str(&err));
    pl_buf_free(&err);
}

/* Deleting an account checks its password, ends its sessions, frees its
 * name, and anonymises its seats in stored rooms (finished or not) — only
 * its own; the rooms and their actions stay. Ids are never reused. */
static void test_delete_anonymises_and_frees_name(void **st)
{
    (void)st;
    NEED_BACKEND();
    world w;
    world_open(&w, "delete", 0, 0, 0, 0);
    acct_user ann, ann2, bob;
    assert_int_equal(signup(&w, "Ann", "correct horse", "a", 0, &ann), ACCT_OK);
    assert_int_equal(signin(&w, "Ann", "correct horse", "a", 0, &ann2), ACCT_OK);
    assert_int_equal(signup(&w, "Bob", "bobs password", "a", 0, &bob), ACCT_OK);
    char cfg[512];
    snprintf(cfg, sizeof cfg,
             "{\"seats\":[{\"kind\":\"person\",\"name\":\"Ann\",\"token\":\"t1\",\"account\":%lld},"
             "{\"kind\":\"person\",\"name\":\"Bob\",\"token\":\"t2\",\"account\":%lld},"
             "{\"kind\":\"ai\",\"level\":\"easy\"}],\"grace_s\":60,\"public\":true}",
             (long long)ann.id, (long long)bob.id);
    room_put(w.s, "r1", cfg);
    snprintf(cfg, sizeof cfg,
             "{\"seats\":[{\"kind\":\"person\",\"name\":\"Bob\",\"token\":\"t3\",\"account\":%lld},"
             "{\"kind\":\"person\",\"name\":\"Ann\",\"token\":\"t4\",\"account\":%lld}]}",
             (long long)bob.id, (long long)ann.id);
    room_put(w.s, "r2", cfg);
    room_put(w.s, "r3", "{\"seats\":[{\"kind\":\"person\",\"name\":\"Ann\",\"token\":\"t5\"}]}"); /* a guest Ann */
    room_put(w.s, "r4", "not json \"account\"");
    pl_buf err = {0};
    store_action act = {.room = "r1", .seq = 0, .seat = -1, .text = "roll 2", .at_ms = 5};
    assert_int_equal(store_append(w.s, &act, 1, &err), 0);
    assert_int_equal(store_finish(w.s, "r2", "{\"winner\":1}", &err), 0);

    assert_int_equal(acct_delete(w.a, ann.token, "wrong horse!", "a", 10, &err), ACCT_WRONG);
    assert_int_equal(session(&w, ann2.token, 10, NULL), ACCT_OK); /* nothing happened */
    assert_int_equal(acct_delete(w.a, "00", "correct horse", "a", 10, &err), ACCT_NO_SESSION);
    assert_int_equal(acct_delete(w.a, ann.token, "correct horse", "a", 10, &err), ACCT_OK);
    assert_string_equal(pl_buf_str(&err), "");

    json_t *c = room_seats(w.s, "r1");
    json_t *s0 = json_array_get(json_object_get(c, "seats"), 0), *s1 = json_array_get(json_object_get(c, "seats"), 1);
    assert_string_equal(json_string_value(json_object_get(s0, "name")), "anonymous");
    assert_null(json_object_get(s0, "account"));
    assert_string_equal(json_string_value(json_object_get(s0, "token")), "t1");
    assert_string_equal(json_string_value(json_object_get(s1, "name")), "Bob");
    assert_int_equal(json_integer_value(json_object_get(s1, "account")), bob.id);
    assert_int_equal(json_integer_value(json_object_get(c, "grace_s")), 60); /* the rest kept */
    json_decref(c);
    c = room_seats(w.s, "r2"); /* a finished room too */
    s1 = json_array_get(json_object_get(c, "seats"), 1);
    assert_string_equal(json_string_value(json_object_get(s1, "name")), "anonymous");
    assert_null(json_object_get(s1, "account"));
    json_decref(c);
    c = room_seats(w.s, "r3"); /* a guest of the same name: not the account */
    assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(c, "seats"), 0), "name")),
                        "Ann");
    json_decref(c);
    assert_int_equal(store_count(w.s, "r1", &err), 1); /* the history stays */

    assert_int_equal(session(&w, ann.token, 11, NULL), ACCT_NO_SESSION);
    assert_int_equal(session(&w, ann2.token, 11, NULL), ACCT_NO_SESSION);
    assert_int_equal(session(&w, bob.token, 11, NULL), ACCT_OK);
    assert_int_equal(signin(&w, "Ann", "correct horse", "a", 12, NULL), ACCT_WRONG);
    store_account sa;
    assert_int_equal(store_account_by_id(w.s, ann.id, &sa, &err), 1);
    acct_user again;
    assert_int_equal(signup(&w, "ann", "a new password", "a", 13, &again), ACCT_OK); /* the name is free */
    assert_true(again.id != ann.id && again.id > bob.id);
    pl_buf_free(&err);
    world_close(&w);
}

/* Per name: the failed attempts of 10 minutes; then even the right password
 * waits, from any address, and a name nobody has behaves the same. */
static void test_rate_limit_per_name(void **st)
{
    (void)st;
    NEED_BACKEND();
    world w;
    world_open(&w, "rname", 0, 3, 1000, 0);
    assert_int_equal(signup(&w, "Ann", "correct horse", "a", 0, NULL), ACCT_OK);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(signin(&w, "Ann", "wrong horse!", "b", 1000 + i, NULL), ACCT_WRONG);
        assert_int_equal(signin(&w, "Ghost", "wrong horse!", "b", 1000 + i, NULL), ACCT_WRONG);
    }
    assert_int_equal(signin(&w, "Ann", "correct horse", "c", 2000, NULL), ACCT_RATE);
    assert_int_equal(signin(&w, "ANN", "correct horse", "d", 2000, NULL), ACCT_RATE); /* folded */
    assert_int_equal(signin(&w, "Ghost", "wrong horse!", "c", 2000, NULL), ACCT_RATE);
    assert_int_equal(signup(&w, "Bob", "bobs password", "a", 2000, NULL), ACCT_OK);
    assert_int_equal(signin(&w, "Bob", "bobs password", "b", 2000, NULL), ACCT_OK); /* another name */
    assert_int_equal(signin(&w, "Ann", "correct horse", "c", 1000 + 600000, NULL), ACCT_OK); /* a new window */
    /* Successes do not count: many sign-ins in one window are fine. */
    for (int i = 0; i < 6; i++)
        assert_int_equal(signin(&w, "Bob", "bobs password", "b", 3000 + i, NULL), ACCT_OK);
    world_close(&w);
}

/* Per address: every attempt of 10 minutes counts, sign-ups too. */
static void test_rate_limit_per_address(void **st)
{
    (void)st;
    NEED_BACKEND();
    world w;
    world_open(&w, "raddr", 0, 1000, 5, 0);
    assert_int_equal(signup(&w, "Ann", "correct horse", "1.2.3.4", 0, NULL), ACCT_OK);
    assert_int_equal(signin(&w, "Ann", "correct horse", "1.2.3.4", 1, NULL), ACCT_OK);
    assert_int_equal(signin(&w, "Zed", "wrong horse!", "1.2.3.4", 2, NULL), ACCT_WRONG);
    assert_int_equal(signin(&w, "Ann", "wrong horse!", "1.2.3.4", 3, NULL), ACCT_WRONG);
    assert_int_equal(signup(&w, "Bob", "bobs password", "1.2.3.4", 4, NULL), ACCT_OK); /* the fifth */
    assert_int_equal(signin(&w, "Ann", "correct horse", "1.2.3.4", 5, NULL), ACCT_RATE);
    assert_int_equal(signup(&w, "Carol", "carols password", "1.2.3.4", 5, NULL), ACCT_RATE);
    assert_int_equal(signin(&w, "Ann", "correct horse", "::1", 6, NULL), ACCT_OK); /* another address */
    assert_int_equal(signin(&w, "Ann", "correct horse", "1.2.3.4", 600000, NULL), ACCT_OK); /* a new window */
    world_close(&w);
}

/* The tables never grow: a flood of distinct names (each failing once, from
 * many addresses) neither exhausts memory nor wipes the count of a name
 * under attack. */
static void test_rate_tables_bounded_under_flood(void **st)
{
    (void)st;
    NEED_BACKEND();
    if (!B->sqlite)
        skip(); /* the tables are the acct's: one backend shows it */
    world w;
    world_open(&w, "flood", 0, 3, 4, 0);
    assert_int_equal(signup(&w, "Ann", "correct horse", "a", 0, NULL), ACCT_OK);
    for (int i = 0; i < 3; i++)
        assert_int_equal(signin(&w, "Ann", "wrong horse!", "b", 10, NULL), ACCT_WRONG);
    for (int i = 0; i < 12000; i++) { /* three times the table's slots */
        char name[32], addr[32];
        snprintf(name, sizeof name, "flood%d", i);
        snprintf(addr, sizeof addr, "10.%d.%d.%d", i >> 16 & 255, i >> 8 & 255, i & 255);
        assert_int_equal(signin(&w, name, "wrong horse!", addr, 20, NULL), ACCT_WRONG);
    }
    assert_int_equal(signin(&w, "Ann", "correct horse", "c", 30, NULL), ACCT_RATE);
    world_close(&w);
}

/* Reads one text column of every row of `sql` (SQLite file or PostgreSQL)
 * into out, joined by newlines. */
static void rows_text(const char *path, const char *sql, pl_buf *out)
{
    if (B->sqlite) {
        sqlite3 *db;
        assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
        sqlite3_stmt *q;
        assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &q, NULL), SQLITE_OK);
        while (sqlite3_step(q) == SQLITE_ROW) {
            pl_buf_puts(out, (const char *)sqlite3_column_text(q, 0));
            pl_buf_putc(out, '\n');
        }
        sqlite3_finalize(q);
        sqlite3_close(db);
        return;
    }
#if defined(PARLOUR_WITH_PG)
    PGconn *c = PQconnectdb(path);
    assert_int_equal(PQstatus(c), CONNECTION_OK);
    PGresult *r = PQexec(c, sql);
    assert_int_equal(PQresultStatus(r), PGRES_TUPLES_OK);
    for (int i = 0; i < PQntuples(r); i++) {
        pl_buf_puts(out, PQgetvalue(r, i, 0));
        pl_buf_putc(out, '\n');
    }
    PQclear(r);
    PQfinish(c);
#endif
}

/* Whether file `path` holds the bytes of `needle` anywhere. */
static int file_has(const char *path, const char *needle)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = strlen(needle), cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    int c, found = 0;
    while ((c = fgetc(f)) != EOF) {
        if (len == cap)
            buf = realloc(buf, cap *= 2);
        buf[len++] = (char)c;
    }
    fclose(f);
    for (size_t i = 0; i + n <= len && !found; i++)
        found = !memcmp(buf + i, needle, n);
    free(buf);
    return found;
}

/* The database holds no clear password and no clear token: the account's
 * row has an Argon2id string, a session's row the token's hash, and (on
 * SQLite) no byte of the file or its log holds either secret. */
static void test_store_holds_no_clear_secrets(void **st)
{
    (void)st;
    NEED_BACKEND();
    world w;
    world_open(&w, "secrets", 1, 0, 0, 0);
    const char *pw = "Sekrit-Passw0rd-41";
    acct_user u, v;
    assert_int_equal(signup(&w, "Ann", pw, "a", 0, &u), ACCT_OK);
    assert_int_equal(signin(&w, "Ann", pw, "a", 0, &v), ACCT_OK);
    pl_buf err = {0};
    assert_int_equal(acct_password(w.a, v.token, pw, "Other-Passw0rd-42", "a", 1, &err), ACCT_OK);
    pl_buf_free(&err);
    pl_buf hashes = {0}, sessions = {0};
    rows_text(w.path, "SELECT hash FROM accounts", &hashes);
    rows_text(w.path, "SELECT hash FROM sessions", &sessions);
    assert_true(!strncmp(pl_buf_str(&hashes), "$argon2id$", 10));
    assert_null(strstr(pl_buf_str(&hashes), pw));
    assert_null(strstr(pl_buf_str(&hashes), "Other-Passw0rd-42"));
    assert_int_equal(strlen(pl_buf_str(&sessions)), STORE_SESSION_HASH + 1); /* one session left: v's */
    assert_null(strstr(pl_buf_str(&sessions), v.token));
    assert_null(strstr(pl_buf_str(&sessions), u.token));
    if (B->sqlite) {
        const char *secrets[] = {pw, "Other-Passw0rd-42", u.token, v.token};
        char side[640];
        for (size_t i = 0; i < sizeof secrets / sizeof *secrets; i++) {
            assert_false(file_has(w.path, secrets[i]));
            snprintf(side, sizeof side, "%s-wal", w.path);
            assert_false(file_has(side, secrets[i]));
        }
    }
    pl_buf_free(&hashes);
    pl_buf_free(&sessions);
    world_close(&w);
}

static const char *H1 = "1111111111111111111111111111111111111111111111111111111111111111";
static const char *H2 = "2222222222222222222222222222222222222222222222222222222222222222";
static const char *H3 = "3333333333333333333333333333333333333333333333333333333333333333";

/* The store's own calls: what each returns, and that refusals change
 * nothing. */
static void test_store_accounts_and_sessions(void **st)
{
    (void)st;
    NEED_BACKEND();
    world w;
    world_open(&w, "store", 0, 0, 0, 0);
    store *s = w.s;
    pl_buf err = {0};
    int64_t id = 0, id2 = 0, acc = 0;
    assert_int_equal(store_account_put(s, "Ann", "ann", "$h1", 5, &id, &err), 0);
    assert_int_equal(store_account_put(s, "ANN", "ann", "$h2", 6, &id2, &err), 1); /* taken */
    assert_int_equal(store_account_put(s, "Bob", "bob", "$h3", 7, &id2, &err), 0);
    assert_true(id > 0 && id2 > id);
    store_account a;
    assert_int_equal(store_account_by_name(s, "ann", &a, &err), 0);
    assert_int_equal(a.id, id);
    assert_string_equal(a.name, "Ann");
    assert_string_equal(a.hash, "$h1");
    assert_int_equal(a.created_ms, 5);
    assert_int_equal(store_account_by_name(s, "nobody", &a, &err), 1);
    assert_int_equal(store_account_by_id(s, id2, &a, &err), 0);
    assert_string_equal(a.folded, "bob");
    assert_int_equal(store_account_by_id(s, 9999, &a, &err), 1);
    assert_int_equal(store_account_by_id(s, -1, &a, &err), 1);

    assert_int_equal(store_session_put(s, H1, id, 100, &err), 0);
    assert_int_equal(store_session_put(s, H2, id, 100, &err), 0);
    assert_int_equal(store_session_put(s, H3, 9999, 100, &err), 1); /* no such account */
    assert_int_equal(store_session_put(s, H1, id2, 100, &err), -1); /* the hash exists */
    pl_buf_clear(&err);
    assert_int_equal(store_session_put(s, "ABC", id, 100, &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "hex digits"));
    pl_buf_clear(&err);
    assert_int_equal(store_session_get(s, H1, 50, 80, &acc, &err), 0); /* 80 < 100: kept at 100 */
    assert_int_equal(acc, id);
    assert_int_equal(store_session_get(s, H1, 99, 150, &acc, &err), 0); /* now 150 */
    assert_int_equal(store_session_get(s, H1, 120, 120, &acc, &err), 0);
    assert_int_equal(store_session_get(s, H2, 120, 220, &acc, &err), 1); /* expired at 100: deleted */
    assert_int_equal(store_session_drop(s, H2, &err), 1);
    assert_int_equal(store_session_get(s, H3, 0, 10, &acc, &err), 1);

    assert_int_equal(store_session_put(s, H2, id, 1000, &err), 0);
    assert_int_equal(store_session_put(s, H3, id, 1000, &err), 0);
    assert_int_equal(store_account_set_hash(s, id, "$new", H1, &err), 0);
    assert_int_equal(store_account_by_id(s, id, &a, &err), 0);
    assert_string_equal(a.hash, "$new");
    assert_int_equal(store_session_get(s, H1, 121, 121, &acc, &err), 0);
    assert_int_equal(store_session_get(s, H2, 121, 121, &acc, &err), 1);
    assert_int_equal(store_account_set_hash(s, 9999, "$x", NULL, &err), 1);
    assert_int_equal(store_account_set_hash(s, id, "", NULL, &err), -1);
    pl_buf_clear(&err);

    assert_int_equal(store_session_put(s, H2, id2, 1000, &err), 0);
    assert_int_equal(store_session_put(s, H3, id2, 1000, &err), 0);
    assert_int_equal(store_session_drop_others(s, id2, H3, &err), 1);
    assert_int_equal(store_session_drop_others(s, id2, NULL, &err), 1);
    assert_int_equal(store_session_drop_others(s, id2, NULL, &err), 0);
    assert_int_equal(store_session_put(s, H2, id2, 500, &err), 0);
    assert_int_equal(store_session_purge(s, 149, &err), 0); /* H1 lives until 150, H2 500 */
    assert_int_equal(store_session_purge(s, 500, &err), 2);
    assert_int_equal(store_session_drop(s, H1, &err), 1);

    assert_int_equal(store_account_delete(s, 9999, "anonymous", &err), 1);
    assert_int_equal(store_account_delete(s, id, "", &err), -1);
    pl_buf_clear(&err);
    assert_int_equal(store_account_delete(s, id, "anonymous", &err), 0);
    assert_int_equal(store_account_by_name(s, "ann", &a, &err), 1);
    assert_int_equal(store_account_put(s, "x", "", "$h", 1, &id, &err), -1);
    pl_buf_clear(&err);
    char long_name[STORE_ACCOUNT_NAME + 2];
    memset(long_name, 'n', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    assert_int_equal(store_account_put(s, long_name, "n", "$h", 1, &id, &err), -1);
    pl_buf_clear(&err);
    if (B->sqlite) { /* store_clear (tests') empties accounts and sessions too */
        assert_int_equal(store_session_put(s, H1, id2, 1000, &err), 0);
        assert_int_equal(store_clear(s, &err), 0);
        assert_int_equal(store_account_by_id(s, id2, &a, &err), 1);
        assert_int_equal(store_session_get(s, H1, 0, 0, &acc, &err), 1);
    }
    pl_buf_free(&err);
    world_close(&w);
}

/* A session in use is written only when its renewal moves its expiry on by
 * a hundredth of its life or more, not at every use. */
static void test_session_renewal_written_seldom(void **st)
{
    (void)st;
    NEED_BACKEND();
    world w;
    world_open(&w, "seldom", 0, 0, 0, 100000);
    store *s = w.s;
    pl_buf err = {0};
    int64_t id = 0, acc = 0;
    assert_int_equal(store_account_put(s, "Ann", "ann", "$h1", 0, &id, &err), 0);
    assert_int_equal(store_session_put(s, H1, id, 100000, &err), 0);
    assert_int_equal(store_session_put(s, H2, id, 100000, &err), 0);
    assert_int_equal(store_session_get(s, H1, 500, 100500, &acc, &err), 0);  /* 500 < 1000: not written */
    assert_int_equal(store_session_get(s, H1, 100000, 200000, &acc, &err), 1); /* so it ended at 100000 */
    assert_int_equal(store_session_get(s, H2, 1000, 101000, &acc, &err), 0); /* 1000 >= 1000: renewed */
    assert_int_equal(store_session_get(s, H2, 100500, 200500, &acc, &err), 0);
    /* Through acct: uses a second apart keep the first expiry (100000). */
    acct_user u;
    assert_int_equal(signup(&w, "Bob", "bobs password", "a", 0, &u), ACCT_OK);
    for (int64_t t = 1; t <= 900; t += 100)
        assert_int_equal(session(&w, u.token, t, NULL), ACCT_OK);
    assert_int_equal(session(&w, u.token, 100000, NULL), ACCT_NO_SESSION);
    pl_buf_free(&err);
    world_close(&w);
}

/* A hash made with other limits is made again at sign-in with the
 * configured ones (sessions stay); a rehash over a hash changed meanwhile
 * writes nothing. */
static void test_rehash_follows_limits(void **st)
{
    (void)st;
    NEED_BACKEND();
    world w;
    world_open(&w, "rehash", 0, 0, 0, 0);
    acct_user u;
    assert_int_equal(signup(&w, "Ann", "correct horse", "a", 0, &u), ACCT_OK);
    pl_buf err = {0};
    store_account sa;
    assert_int_equal(store_account_by_id(w.s, u.id, &sa, &err), 0);
    assert_non_null(strstr(sa.hash, ",t=1,"));
    acct_config cfg = {.ops = 3, .mem = crypto_pwhash_MEMLIMIT_MIN};
    acct_svc *b = acct_new(w.s, &cfg, &err);
    assert_non_null(b);
    acct_user v;
    assert_int_equal(acct_signin(b, "Ann", "correct horse", "a", 1, &v, &err), ACCT_OK);
    assert_int_equal(store_account_by_id(w.s, u.id, &sa, &err), 0);
    assert_non_null(strstr(sa.hash, ",t=3,"));
    assert_int_equal(crypto_pwhash_str_verify(sa.hash, "correct horse", 13), 0);
    assert_int_equal(session(&w, u.token, 2, NULL), ACCT_OK); /* sessions stay */
    assert_int_equal(signin(&w, "Ann", "correct horse", "a", 3, NULL), ACCT_OK); /* and back */
    assert_int_equal(store_account_by_id(w.s, u.id, &sa, &err), 0);
    assert_non_null(strstr(sa.hash, ",t=1,"));
    assert_int_equal(store_account_rehash(w.s, u.id, "$not-the-hash", "$x", &err), 1);
    assert_int_equal(store_account_rehash(w.s, 9999, sa.hash, "$x", &err), 1);
    assert_int_equal(signin(&w, "Ann", "correct horse", "a", 4, NULL), ACCT_OK);
    acct_free(b);
    pl_buf_free(&err);
    world_close(&w);
}

/* Two handles on one database (two processes behind nginx): a session made
 * through one is known to the other, a name taken through one is taken for
 * the other, and a sign-out through either ends it for both. */
static void test_sessions_shared_between_handles(void **st)
{
    (void)st;
    NEED_BACKEND();
    world w;
    world_open(&w, "shared", 1, 0, 0, 0);
    store *s2 = open_ok(w.path);
    acct_svc *b = acct_ok(s2, 0, 0, 0);
    acct_user u, x;
    pl_buf err = {0};
    assert_int_equal(signup(&w, "Ann", "correct horse", "a", 0, &u), ACCT_OK);
    assert_int_equal(acct_session(b, u.token, 1, &x, &err), ACCT_OK);
    assert_int_equal(x.id, u.id);
    assert_int_equal(acct_signup(b, "ann", "another pass", "a", 2, &x, &err), ACCT_NAME_TAKEN);
    assert_int_equal(acct_signout(b, u.token, &err), ACCT_OK);
    assert_int_equal(session(&w, u.token, 3, NULL), ACCT_NO_SESSION);
    assert_string_equal(pl_buf_str(&err), "");
    pl_buf_free(&err);
    acct_free(b);
    store_close(s2);
    world_close(&w);
}

/* Random calls with random names, passwords, tokens (real ones, altered
 * ones, garbage), addresses and times never crash, leak or answer outside
 * the statuses (run under ASan in the debug build). */
static void test_random_calls_never_crash(void **st)
{
    (void)st;
    NEED_BACKEND();
    world w;
    world_open(&w, "random", 0, 4, 30, 5000);
    pl_rng rng;
    pl_rng_seed(&rng, 33);
    char tokens[8][ACCT_TOKEN_HEX + 1] = {{0}};
    const char *names[] = {"Ann", "ann", "Bob", " Bob", "Ёлка", "", "x\x01", "\xff", "Zoë", "すずき"};
    const char *pws[] = {"correct horse", "wrong horse!", "short", "", "пароль12", "\xc3\x28zzzzzzzz", "new battery"};
    int64_t now = 0;
    for (int i = 0; i < 600; i++) {
        now += (int64_t)pl_rng_below(&rng, 3000);
        char addr[16], rnd[24];
        snprintf(addr, sizeof addr, "a%u", (unsigned)pl_rng_below(&rng, 5));
        for (size_t k = 0; k < sizeof rnd - 1; k++)
            rnd[k] = (char)(1 + pl_rng_below(&rng, 255));
        rnd[pl_rng_below(&rng, sizeof rnd)] = '\0';
        rnd[sizeof rnd - 1] = '\0';
        const char *name = pl_rng_below(&rng, 4) ? names[pl_rng_below(&rng, 10)] : rnd;
        const char *pw = pl_rng_below(&rng, 4) ? pws[pl_rng_below(&rng, 7)] : rnd;
        char tok[ACCT_TOKEN_HEX + 2];
        snprintf(tok, sizeof tok, "%s", tokens[pl_rng_below(&rng, 8)]);
        if (pl_rng_below(&rng, 4) == 0 && tok[0])
            tok[pl_rng_below(&rng, ACCT_TOKEN_HEX)] = "0f"[pl_rng_below(&rng, 2)];
        const char *t = pl_rng_below(&rng, 10) ? tok : pl_rng_below(&rng, 2) ? rnd : NULL;
        pl_buf err = {0};
        acct_user u;
        memset(&u, 0, sizeof u);
        int rc = 0;
        switch (pl_rng_below(&rng, 6)) {
        case 0:
            rc = acct_signup(w.a, name, pw, addr, now, &u, &err);
            break;
        case 1:
            rc = acct_signin(w.a, name, pw, addr, now, &u, &err);
            break;
        case 2:
            rc = acct_session(w.a, t, now, &u, &err);
            break;
        case 3:
            rc = acct_signout(w.a, t, &err);
            break;
        case 4:
            rc = acct_password(w.a, t, pw, pws[pl_rng_below(&rng, 7)], addr, now, &err);
            break;
        default:
            rc = acct_delete(w.a, t, pw, addr, now, &err);
            break;
        }
        if (rc < 0 || rc > ACCT_NO_SESSION)
            fail_msg("call %d: %d %s", i, rc, pl_buf_str(&err));
        if (rc == ACCT_OK && u.token[0])
            snprintf(tokens[pl_rng_below(&rng, 8)], sizeof tokens[0], "%s", u.token);
        pl_buf_free(&err);
    }
    world_close(&w);
}

static const backend sqlite_backend = {"SQLite", 1, NULL, mem_path, db_remove};

static int use_sqlite(void **st)
{
    (void)st;
    B = &sqlite_backend;
    return 0;
}

/* PostgreSQL (store_backend.c). */
static int use_pg(void **st)
{
    (void)st;
    B = &tsb_pg;
    return tsb_pg_start("a", 0);
}

static int stop_pg(void **st)
{
    (void)st;
    return tsb_pg_stop();
}

/* Drill records (issue 34 §4, docs/drills.md): one per account, replaced
 * whole, gone with the account, at most STORE_DRILL_MAX bytes. */
static void test_store_drills(void **st)
{
    (void)st;
    NEED_BACKEND();
    world w;
    world_open(&w, "drills", 0, 0, 0, 0);
    store *s = w.s;
    pl_buf err = {0}, out = {0};
    int64_t ann = 0, bob = 0, at = -1;
    assert_int_equal(store_account_put(s, "Ann", "ann", "$h1", 5, &ann, &err), 0);
    assert_int_equal(store_account_put(s, "Bob", "bob", "$h2", 6, &bob, &err), 0);
    assert_int_equal(store_drill_get(s, ann, &out, &at, &err), 1); /* none yet */
    assert_int_equal(out.len, 0);
    const char *r1 = "{\"version\": 1, \"step\": 0, \"cards\": {}}";
    const char *r2 = "{\"version\": 1, \"step\": 1, \"cards\": {\"17\": {\"box\": 1, \"due\": 2, \"seen\": 1, \"good\": 0, "
                     "\"slow\": 0, \"miss\": 1, \"ms\": 900, \"last\": 1}}}";
    assert_int_equal(store_drill_put(s, ann, r1, 100, &err), 0);
    assert_int_equal(store_drill_put(s, ann, r2, 200, &err), 0); /* replaced */
    assert_int_equal(store_drill_get(s, ann, &out, &at, &err), 0);
    assert_string_equal(pl_buf_str(&out), r2);
    assert_int_equal(at, 200);
    pl_buf_free(&out);
    assert_int_equal(store_drill_get(s, bob, &out, &at, &err), 1); /* Ann's is hers alone */
    assert_int_equal(store_drill_put(s, 9999, r1, 300, &err), 1);  /* no such account */
    assert_int_equal(store_drill_get(s, 9999, &out, &at, &err), 1);
    /* too large, empty: refused, nothing written */
    size_t big = STORE_DRILL_MAX + 1;
    char *huge = malloc(big + 1);
    assert_non_null(huge);
    memset(huge, ' ', big);
    huge[big] = 0;
    assert_int_equal(store_drill_put(s, bob, huge, 400, &err), -1);
    huge[STORE_DRILL_MAX] = 0; /* exactly the limit: kept as it is */
    huge[0] = '{';
    assert_int_equal(store_drill_put(s, bob, huge, 400, &err), 0);
    assert_int_equal(store_drill_get(s, bob, &out, &at, &err), 0);
    assert_int_equal(out.len, STORE_DRILL_MAX);
    pl_buf_free(&out);
    free(huge);
    pl_buf_clear(&err);
    assert_int_equal(store_drill_put(s, bob, "", 500, &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "drill record"));
    /* the record goes with its account */
    assert_int_equal(store_account_delete(s, ann, "anonymous", &err), 0);
    assert_int_equal(store_drill_get(s, ann, &out, &at, &err), 1);
    pl_buf_free(&out);
    pl_buf_free(&err);
    world_close(&w);
}

/* drill_check: the record's shape of docs/drills.md (unknown keys ignored). */
static void test_drill_check_shapes(void **st)
{
    (void)st;
    static const char *const good[] = {
        "{\"version\": 1, \"step\": 0, \"cards\": {}}",
        "{\"cards\": {\"100\": {\"box\": 5, \"due\": 40, \"seen\": 3, \"good\": 3, \"slow\": 0, \"miss\": 0, "
        "\"ms\": 3000, \"last\": 9}}, \"step\": 9, \"version\": 1}",
        /* keys it does not know are ignored, at the top and in an entry */
        "{\"version\": 1, \"step\": 0, \"cards\": {\"7\": {\"box\": 1, \"due\": 0, \"seen\": 0, \"good\": 0, "
        "\"slow\": 0, \"miss\": 0, \"ms\": 0, \"last\": 0, \"more\": [1]}}, \"extra\": {\"x\": 1}}",
    };
    static const char *const bad[] = {
        "",
        "[]",
        "{\"version\": 1, \"step\": 0}",
        "{\"version\": 2, \"step\": 0, \"cards\": {}}",
        "{\"version\": 1, \"step\": -1, \"cards\": {}}",
        "{\"version\": 1, \"step\": 0, \"cards\": []}",
        "{\"version\": 1, \"step\": 0, \"step\": 1, \"cards\": {}}",
        "{\"version\": 1, \"step\": 0.5, \"cards\": {}}",
        "{\"version\": 1, \"step\": 0, \"cards\": {\"0\": {}}}",
        "{\"version\": 1, \"step\": 0, \"cards\": {\"101\": {\"box\": 1, \"due\": 0, \"seen\": 0, \"good\": 0, "
        "\"slow\": 0, \"miss\": 0, \"ms\": 0, \"last\": 0}}}",
        "{\"version\": 1, \"step\": 0, \"cards\": {\"07\": {\"box\": 1, \"due\": 0, \"seen\": 0, \"good\": 0, "
        "\"slow\": 0, \"miss\": 0, \"ms\": 0, \"last\": 0}}}",
        "{\"version\": 1, \"step\": 0, \"cards\": {\"7\": {\"box\": 6, \"due\": 0, \"seen\": 0, \"good\": 0, "
        "\"slow\": 0, \"miss\": 0, \"ms\": 0, \"last\": 0}}}",
        "{\"version\": 1, \"step\": 0, \"cards\": {\"7\": {\"box\": 1, \"due\": 0, \"seen\": 2, \"good\": 0, "
        "\"slow\": 0, \"miss\": 1, \"ms\": 0, \"last\": 0}}}",
        "{\"version\": 1, \"step\": 0, \"cards\": {\"7\": {\"box\": 1, \"due\": 0, \"seen\": 0, \"good\": 0, "
        "\"slow\": 0, \"miss\": 0, \"ms\": \"0\", \"last\": 0}}}",
        "{\"version\": 1, \"step\": 0, \"cards\": {\"7\": {\"box\": 1}}}",
        /* good + slow + miss beyond 2^63: no overflow (UBSan), refused */
        "{\"version\": 1, \"step\": 0, \"cards\": {\"7\": {\"box\": 1, \"due\": 0, \"seen\": 1, "
        "\"good\": 9223372036854775807, \"slow\": 9223372036854775807, \"miss\": 3, \"ms\": 0, \"last\": 0}}}",
        "{\"version\": 1, \"step\": 0, \"cards\": {}} trailing",
    };
    pl_buf why = {0};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        assert_int_equal(drill_check(good[i], strlen(good[i]), &why), 0);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pl_buf_clear(&why);
        if (drill_check(bad[i], strlen(bad[i]), &why) != -1)
            fail_msg("accepted: %s", bad[i]);
        assert_true(why.len > 0);
    }
    pl_buf_clear(&why);
    const char nul[] = "{\"version\": 1, \"step\": 0, \"cards\": {}}\0";
    assert_int_equal(drill_check(nul, sizeof nul - 1, &why), -1); /* a NUL byte inside */
    pl_buf_free(&why);
}

/* drill_rate: DRILL_RATE_MAX calls a window per account, then refused
 * until the window ends; other accounts are not counted with it. */
static void test_drill_rate(void **st)
{
    (void)st;
    drill_rate *r = calloc(1, sizeof *r);
    assert_non_null(r);
    for (int i = 0; i < DRILL_RATE_MAX; i++)
        assert_int_equal(drill_rate_ok(r, 7, 1000 + i), 1);
    assert_int_equal(drill_rate_ok(r, 7, 2000), 0);
    assert_int_equal(drill_rate_ok(r, 8, 2000), 1); /* another account */
    assert_int_equal(drill_rate_ok(r, 7, 1000 + DRILL_RATE_WINDOW - 1), 0);
    assert_int_equal(drill_rate_ok(r, 7, 1000 + DRILL_RATE_WINDOW), 1); /* a new window */
    memset(r, 0, sizeof *r); /* drill_rate_take: another limit (the exports') */
    for (int i = 0; i < 4; i++)
        assert_int_equal(drill_rate_take(r, 9, 1000, 4), 1);
    assert_int_equal(drill_rate_take(r, 9, 1001, 4), 0);
    assert_int_equal(drill_rate_take(r, 9, 1000 + DRILL_RATE_WINDOW, 4), 1);
    free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_signup_signin_signout),
        cmocka_unit_test(test_wrong_password_and_unknown_name_alike),
        cmocka_unit_test(test_duplicate_names_case_folded),
        cmocka_unit_test(test_bad_names_and_passwords),
        cmocka_unit_test(test_session_expiry_and_renewal),
        cmocka_unit_test(test_password_change_ends_other_sessions),
        cmocka_unit_test(test_delete_anonymises_and_frees_name),
        cmocka_unit_test(test_rate_limit_per_name),
        cmocka_unit_test(test_rate_limit_per_address),
        cmocka_unit_test(test_rate_tables_bounded_under_flood),
        cmocka_unit_test(test_store_holds_no_clear_secrets),
        cmocka_unit_test(test_store_accounts_and_sessions),
        cmocka_unit_test(test_session_renewal_written_seldom),
        cmocka_unit_test(test_rehash_follows_limits),
        cmocka_unit_test(test_sessions_shared_between_handles),
        cmocka_unit_test(test_random_calls_never_crash),
        cmocka_unit_test(test_store_drills),
        cmocka_unit_test(test_drill_check_shapes),
        cmocka_unit_test(test_drill_rate),
    };
    int failed = cmocka_run_group_tests_name("account_sqlite", tests, use_sqlite, NULL);
    failed += cmocka_run_group_tests_name("account_postgresql", tests, use_pg, stop_pg);
    return failed;
}
