/* test_unit_core.c — options, RNG, buffers, canvas, records and the
 * protocol framing, through their public functions. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"
#include "parlour/alloc.h"
#include "parlour/canvas.h"
#include "parlour/jsonout.h"
#include "parlour/rng.h"
#include "proto.h"
#include "parlour/record.h"

static void test_options_validation(void **s)
{
    (void)s;
    const pl_game *g = pl_game_find("ur");
    pl_opts o;
    pl_buf err = {0};
    char *w1[] = {"colour=red"};
    assert_int_equal(pl_opts_parse(&o, g->options, 1, w1, &err), -1);
    assert_string_equal(pl_buf_str(&err),
                        "unknown option 'colour'; allowed: rules, pieces, dice, start, loop, stack, seed");
    pl_buf_clear(&err);
    char *w2[] = {"dice=d6"};
    assert_int_equal(pl_opts_parse(&o, g->options, 1, w2, &err), -1);
    assert_string_equal(pl_buf_str(&err), "bad value 'd6' for dice: allowed one of 3lots|d4");
    pl_buf_clear(&err);
    char *w3[] = {"pieces=x"};
    assert_int_equal(pl_opts_parse(&o, g->options, 1, w3, &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "an integer from 1 to 7"));
    pl_buf_clear(&err);
    char *w4[] = {"pieces=3", "pieces=4"};
    assert_int_equal(pl_opts_parse(&o, g->options, 2, w4, &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "twice"));
    pl_buf_clear(&err);
    char *w5[] = {"seed=-1"};
    assert_int_equal(pl_opts_parse(&o, g->options, 1, w5, &err), -1);
    pl_buf_clear(&err);
    char *w6[] = {"noequals"};
    assert_int_equal(pl_opts_parse(&o, g->options, 1, w6, &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "KEY=VALUE"));
    pl_buf_clear(&err);
    char *ok[] = {"pieces=3", "seed=77"};
    assert_int_equal(pl_opts_parse(&o, g->options, 2, ok, &err), 0);
    assert_int_equal(pl_opts_int(&o, "pieces"), 3);
    assert_string_equal(pl_opts_get(&o, "dice"), "3lots");
    assert_true(pl_opts_given(&o, "pieces"));
    assert_false(pl_opts_given(&o, "dice"));
    assert_int_equal((int)o.seed, 77);
    pl_opts_free(&o);
    pl_opts_free(&o); /* freeing twice is a no-op */
    pl_buf_free(&err);
}

static void test_rng_reproducible_and_unbiased(void **s)
{
    (void)s;
    pl_rng a, b;
    pl_rng_seed(&a, 123);
    pl_rng_seed(&b, 123);
    for (int i = 0; i < 1000; i++)
        assert_true(pl_rng_next(&a) == pl_rng_next(&b));
    long c[3] = {0};
    for (int i = 0; i < 30000; i++)
        c[pl_rng_below(&a, 3)]++;
    for (int i = 0; i < 3; i++)
        assert_true(c[i] > 9500 && c[i] < 10500);
    for (int i = 0; i < 1000; i++) {
        double d = pl_rng_double(&a);
        assert_true(d >= 0 && d < 1);
    }
}

static void test_buf_and_canvas(void **s)
{
    (void)s;
    pl_buf b = {0};
    assert_string_equal(pl_buf_str(&b), "");
    for (int i = 0; i < 1000; i++)
        pl_buf_printf(&b, "%d,", i);
    assert_int_equal(b.len, strlen(b.s));
    pl_buf_clear(&b);
    pl_canvas c = {0};
    int x = pl_canvas_put(&c, 0, 2, PL_ST_RED, "將x");
    assert_int_equal(x, 5); /* a wide character takes two columns */
    pl_canvas_put(&c, 1, 0, PL_ST_NORMAL, "ok");
    pl_canvas_to_text(&c, &b);
    assert_string_equal(pl_buf_str(&b), "  將x\nok\n");
    assert_int_equal(pl_text_width("tướng"), 5);
    pl_canvas_free(&c);
    pl_buf_free(&b);
}

static void test_alloc_failure_is_reported(void **s)
{
    (void)s;
    /* Every allocation point of pl_match_new fails cleanly (no leak under ASan). */
    const pl_game *g = pl_game_find("ur");
    char *w[] = {"seed=1"};
    for (long n = 0; n < 20; n++) {
        pl_buf err = {0};
        pl_alloc_fail_after(n);
        pl_match *m = pl_match_new(g, 1, w, &err);
        pl_alloc_fail_after(-1);
        if (m) {
            pl_match_free(m);
            pl_buf_free(&err);
            return; /* enough allocations succeeded */
        }
        pl_buf_free(&err);
    }
    fail_msg("pl_match_new never succeeded");
}

/* A game's check_state that always finds the state broken. */
static int broken_state(const void *st, pl_buf *why)
{
    (void)st;
    pl_buf_puts(why, "the test's invariant is broken");
    return -1;
}

/* pl_match_play runs the game's check_state after every action in builds
 * with assertions: a broken invariant fails an assertion (the process
 * aborts) with its reason on stderr. Release builds (NDEBUG) never run it. */
static void test_match_play_checks_state(void **s)
{
    (void)s;
    pl_game g = *pl_game_find("ur");
    g.check_state = broken_state;
    char *w[] = {"seed=1"};
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) { /* the child plays one action */
        dup2(fds[1], 2);
        close(fds[0]);
        pl_buf err = {0};
        pl_match *m = pl_match_new(&g, 1, w, &err);
        int rc = -1;
        if (m && g.phase(m->state) == PL_PHASE_CHANCE) {
            rc = pl_match_random(m, NULL, &err);
        } else if (m) {
            int seat = pl_sole_actor(&g, m->state);
            pl_action acts[64];
            rc = g.legal(m->state, seat, acts, 64) > 0 ? pl_match_play(m, seat, acts[0], &err) : -1;
        }
        if (rc < 0)
            fprintf(stderr, "no action played: %s\n", pl_buf_str(&err));
        pl_match_free(m);
        pl_buf_free(&err);
        _exit(rc == 0 ? 0 : 3);
    }
    close(fds[1]);
    char out[4096];
    size_t n = 0;
    ssize_t k;
    while (n < sizeof out - 1 && (k = read(fds[0], out + n, sizeof out - 1 - n)) > 0)
        n += (size_t)k;
    out[n] = 0;
    close(fds[0]);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
#ifdef NDEBUG
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
#else
    if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGABRT)
        fail_msg("pl_match_play did not fail an assertion on a broken state (status %d): %s", status, out);
    if (!strstr(out, "the test's invariant is broken") || !strstr(out, "check_state"))
        fail_msg("the assertion did not give check_state's reason: %s", out);
#endif
}

static void expect_record_error(const char *json, const char *want)
{
    pl_buf err = {0};
    pl_match *m = pl_record_read(json, &err);
    if (m)
        fail_msg("record accepted: %s", json);
    if (!strstr(pl_buf_str(&err), want))
        fail_msg("record error '%s' lacks '%s'", pl_buf_str(&err), want);
    pl_buf_free(&err);
}

/* pl_parse_legal_why: the whole message as pl_parse_legal gives it, and the
 * reason alone, the message less its list of legal actions. */
static void test_parse_legal_why(void **s)
{
    (void)s;
    pl_match *m = th_new("ur", "seed=5 start=light");
    th_script(m, "roll 1");
    const pl_game *g = m->game;
    int seat = pl_sole_actor(g, m->state);
    pl_buf err = {0}, why = {0}, plain = {0};
    pl_action a;
    assert_int_equal(pl_parse_legal_why(g, m->state, seat, "C4", &a, &err, &why), -1);
    assert_int_equal(pl_parse_legal(g, m->state, seat, "C4", &a, &plain), -1);
    assert_string_equal(pl_buf_str(&err), pl_buf_str(&plain)); /* the same message */
    const char *e = pl_buf_str(&err), *w = pl_buf_str(&why);
    if (strncmp(e, w, why.len) || strncmp(e + why.len, "; legal: ", 9) || !strstr(w, "illegal move C4"))
        fail_msg("reason '%s' of '%s'", w, e);
    pl_buf_clear(&err);
    pl_buf_clear(&why);
    /* a text that is no action: the parser's words, whole, in both */
    assert_int_equal(pl_parse_legal_why(g, m->state, seat, "zz", &a, &err, &why), -1);
    assert_string_equal(pl_buf_str(&why), pl_buf_str(&err));
    assert_non_null(strstr(pl_buf_str(&why), "bad action 'zz'"));
    pl_buf_clear(&err);
    /* a legal one: 0, `why` untouched */
    pl_buf_clear(&why);
    assert_int_equal(pl_parse_legal_why(g, m->state, seat, "enter", &a, &err, &why), 0);
    assert_int_equal((int)why.len, 0);
    pl_buf_free(&err);
    pl_buf_free(&why);
    pl_buf_free(&plain);
    pl_match_free(m);
}

static void test_record_rejects_bad_records(void **s)
{
    (void)s;
    pl_match *m = th_new("ur", "seed=5 start=light");
    th_script(m, "roll 1; enter; roll 3; enter");
    pl_buf rec = {0};
    assert_int_equal(pl_record_write(m, &rec), 0);
    const char *good = pl_buf_str(&rec);
    pl_buf e = {0};
    pl_match *back = pl_record_read(good, &e);
    assert_non_null(back);
    assert_memory_equal(back->state, m->state, m->game->state_size);
    pl_match_free(back);
    /* Truncated. */
    char trunc[4096];
    snprintf(trunc, sizeof trunc, "%.*s", (int)(rec.len / 2), good);
    expect_record_error(trunc, "bad JSON");
    /* Wrong game, future version, unknown option. */
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", good);
    char *p = strstr(buf, "\"game\":\"ur\"");
    assert_non_null(p);
    memcpy(p, "\"game\":\"xx\"", 11);
    expect_record_error(buf, "unknown game 'xx'");
    snprintf(buf, sizeof buf, "%s", good);
    p = strstr(buf, "\"version\":1");
    memcpy(p, "\"version\":9", 11);
    expect_record_error(buf, "version 9 is not supported");
    /* An illegal action in the middle is named by number and text. */
    snprintf(buf, sizeof buf, "%s", good);
    p = strstr(buf, "{\"action\":\"roll 3\"");
    assert_non_null(p);
    memcpy(p, "{\"action\":\"roll 7\"", 18);
    expect_record_error(buf, "action 3 (chance roll 7)");
    snprintf(buf, sizeof buf, "%s", good);
    p = strstr(buf, "{\"action\":\"enter\",\"seat\":1}");
    assert_non_null(p);
    memcpy(p, "{\"action\":\"enter\",\"seat\":0}", 27);
    expect_record_error(buf, "action 4 (seat 0 enter)");
    /* Out of order: an action after the game would have it chance's turn. */
    expect_record_error("{\"format\":\"parlour-record\",\"version\":1,\"game\":\"ur\",\"options\":{},"
                        "\"seed\":1,\"seats\":[],\"actions\":[{\"seat\":0,\"action\":\"enter\"}]}",
                        "action 1 (seat 0 enter)");
    expect_record_error("{\"format\":\"parlour-record\",\"version\":1,\"game\":\"ur\",\"options\":"
                        "{\"pieces\":\"9\"},\"seed\":1,\"seats\":[],\"actions\":[]}",
                        "bad value '9' for pieces");
    expect_record_error("[1,2]", "expected keys");
    expect_record_error("{\"format\":\"parlour-record\",\"version\":1,\"game\":\"ur\",\"options\":{},"
                        "\"seed\":1,\"seats\":[],\"actions\":[],\"extra\":1}",
                        "record:");
    pl_buf_free(&e);
    pl_buf_free(&rec);
    pl_match_free(m);
}

static const char *ask(pl_proto *p, const char *line)
{
    static char out[8192];
    pl_buf b = {0};
    pl_proto_line(p, line, strlen(line), &b);
    snprintf(out, sizeof out, "%s", pl_buf_str(&b));
    pl_buf_free(&b);
    return out;
}

static void test_protocol_framing(void **s)
{
    (void)s;
    pl_proto *p = pl_proto_new();
    assert_string_equal(ask(p, "protocol_version"), "= 1\n\n");
    assert_string_equal(ask(p, "12 protocol_version"), "=12 1\n\n");
    assert_string_equal(ask(p, "version"), "= " PARLOUR_VERSION "\n\n"); /* CMakeLists.txt's project() VERSION */
    assert_string_equal(ask(p, "# a comment"), "");
    assert_string_equal(ask(p, ""), "");
    assert_string_equal(ask(p, "7 frobnicate"), "?7 unknown command 'frobnicate'; commands: protocol_version "
                                                 "name version list_games list_options new options status legal "
                                                 "play random undo history show view record load genmove "
                                                 "position quit view_json choose\n\n");
    assert_non_null(strstr(ask(p, "status"), "? no game"));
    assert_string_equal(ask(p, "new ur seed=1 start=light"), "= \n\n");
    assert_string_equal(ask(p, "3 play roll 1"), "=3 \n\n");
    assert_string_equal(ask(p, "legal"), "= enter\n\n");
    /* Invalid UTF-8 and NUL bytes are errors, not crashes. */
    assert_string_equal(ask(p, "play \xff\xfe"), "? the request is not valid UTF-8\n\n");
    pl_buf b = {0};
    pl_proto_line(p, "play\0enter", 10, &b);
    assert_string_equal(pl_buf_str(&b), "? the request holds a NUL byte\n\n");
    pl_buf_free(&b);
    assert_string_equal(ask(p, "undo"), "= \n\n");
    assert_string_equal(ask(p, "undo"), "? nothing to undo: the game is at its start\n\n");
    assert_int_equal(pl_proto_line(p, "quit", 4, &b), 1);
    pl_buf_free(&b);
    pl_proto_free(p);
}

/* jansson's text of `j` (compact, sorted keys, any value) against
 * pl_json_dump's: byte for byte the same. */
static void json_same(const json_t *j)
{
    char *want = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
    pl_buf got = {0};
    int rc = pl_json_dump(j, &got);
    if (!want) {
        assert_int_equal(rc, -1);
        assert_int_equal(got.len, 0);
    } else {
        assert_int_equal(rc, 0);
        assert_string_equal(pl_buf_str(&got), want);
    }
    pl_free(want);
    pl_buf_free(&got);
}

/* A random value of depth at most `depth`: every kind, strings with quotes,
 * backslashes, control bytes, UTF-8 and keys that sort in every order. */
static json_t *json_random(pl_rng *r, int depth)
{
    static const char *const strs[] = {"", "a", "b", "ab", "a\"b", "back\\slash", "tab\there", "nl\n\r\b\f",
                                       "\x01\x1f\x7f", "caf\xc3\xa9", "\xe2\x80\xa8", "z", "Z", "_", "A b/c",
                                       "long text with spaces, commas: and {braces}"};
    int ns = (int)(sizeof strs / sizeof strs[0]);
    switch (pl_rng_below(r, depth > 0 ? 9 : 6)) {
    case 0: return json_null();
    case 1: return pl_rng_below(r, 2) ? json_true() : json_false();
    case 2: {
        static const json_int_t ints[] = {0, 1, -1, 9, 10, -10, 123456789, INT64_MAX, INT64_MIN};
        return json_integer(pl_rng_below(r, 2) ? ints[pl_rng_below(r, 9)]
                                               : (json_int_t)pl_rng_next(r) >> pl_rng_below(r, 64));
    }
    case 3: return json_real(pl_rng_below(r, 2) ? 0.5 : -1e300 * pl_rng_double(r));
    case 4:
    case 5: return json_string(strs[pl_rng_below(r, (uint32_t)ns)]);
    case 6: {
        json_t *a = json_array();
        for (int i = (int)pl_rng_below(r, 5); i > 0; i--)
            json_array_append_new(a, json_random(r, depth - 1));
        return a;
    }
    default: {
        json_t *o = json_object();
        for (int i = (int)pl_rng_below(r, pl_rng_below(r, 4) ? 8 : 40); i > 0; i--) {
            char key[16];
            snprintf(key, sizeof key, "%s%u", strs[pl_rng_below(r, (uint32_t)ns)], pl_rng_below(r, 50));
            json_object_set_new(o, pl_rng_below(r, 3) ? key : strs[pl_rng_below(r, (uint32_t)ns)],
                                json_random(r, depth - 1));
        }
        return o;
    }
    }
}

/* pl_json_put_string writes what jansson writes for json_string(s), and
 * refuses (-1, nothing written) exactly the strings jansson refuses as not
 * UTF-8: overlong forms, surrogates, code points above U+10FFFF, cut and
 * stray bytes; ASCII, escapes and UTF-8 of every length go through. */
/* pl_json_put_string writes what jansson writes for `str`, or refuses it
 * (-1, nothing written) as jansson does. */
static void put_string_same(const char *str)
{
    json_t *j = json_string(str);
    char *want = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
    pl_buf got = {0};
    pl_buf_puts(&got, "x");
    int rc = pl_json_put_string(&got, str);
    if (!want) {
        assert_int_equal(rc, -1);
        assert_string_equal(pl_buf_str(&got), "x");
    } else {
        assert_int_equal(rc, 0);
        assert_string_equal(pl_buf_str(&got) + 1, want);
    }
    pl_free(want);
    json_decref(j);
    pl_buf_free(&got);
}

static void test_json_put_string_is_janssons(void **s)
{
    (void)s;
    pl_json_setup();
    static const char *const cases[] = {"", "plain", "q\"uote\\", "\x01\t\n", "caf\xc3\xa9", "B3 \xe2\x86\x92 B4",
                                        "\xf0\x9f\x80\x84", "\xe2\x80\xa8", "\xef\xbf\xbf", "\xf4\x8f\xbf\xbf",
                                        "\xc0\x80", "\xc1\xbf", "\xe0\x80\xaf", "\xed\xa0\x80", "\xed\xbf\xbf",
                                        "\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\xe2\x82", "a\x80" "b", "\xff",
                                        "\xc3\xa9\xc3", "\xf0\x8f\xbf\xbf"};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        put_string_same(cases[i]);
    /* The writer scans eight bytes at a time: every byte, and every case,
     * at every place of a longer text (in a word and in the tail). */
    char text[64];
    for (int c = 1; c < 256; c++)
        for (int at = 0; at < 24; at++) {
            memset(text, 'a', 23);
            text[23] = 0;
            text[at] = (char)c;
            put_string_same(text);
        }
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int at = 0; at < 17; at++) {
            snprintf(text, sizeof text, "%.*s%s%s", at, "abcdefghijklmnopq", cases[i], "0123456789abcdef");
            put_string_same(text);
        }
}

/* pl_json_dump writes jansson's json_dumps text (the server's states and
 * every view go through it): random values, then every game's views along
 * random games (each view parsed back and written by jansson). */
static void test_json_dump_is_janssons(void **s)
{
    (void)s;
    pl_json_setup();
    pl_rng r;
    pl_rng_seed(&r, 7);
    for (int i = 0; i < 3000; i++) {
        json_t *j = json_random(&r, 4);
        json_same(j);
        json_decref(j);
    }
    json_t *bad = json_stringn_nocheck("\xff\xfe", 2); /* not UTF-8: refused by both */
    json_same(bad);
    json_decref(bad);
    int ng;
    const pl_game *const *gs = pl_games(&ng);
    for (int gi = 0; gi < ng; gi++) {
        pl_buf err = {0};
        pl_match *m = pl_match_new(gs[gi], 0, NULL, &err);
        assert_non_null(m);
        for (int step = 0; step < 200; step++) {
            int n = gs[gi]->num_seats(m->state);
            for (int v = -1; v < n && gs[gi]->view_json; v++) {
                pl_buf out = {0};
                assert_int_equal(pl_view_json(gs[gi], m->state, v, &out, &err), 0);
                json_t *j = json_loads(pl_buf_str(&out), 0, NULL);
                assert_non_null(j);
                char *want = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
                assert_string_equal(pl_buf_str(&out), want);
                pl_free(want);
                json_decref(j);
                pl_buf_free(&out);
            }
            pl_phase ph = gs[gi]->phase(m->state);
            if (ph == PL_PHASE_OVER)
                break;
            if (ph == PL_PHASE_CHANCE) {
                assert_int_equal(pl_match_random(m, NULL, &err), 0);
                continue;
            }
            int seats[PL_MAX_SEATS];
            int na = gs[gi]->actors(m->state, seats);
            int seat = seats[pl_rng_below(&r, (uint32_t)na)];
            pl_action acts[512];
            int nl = gs[gi]->legal(m->state, seat, acts, 512);
            assert_true(nl > 0);
            assert_int_equal(pl_match_play(m, seat, acts[pl_rng_below(&r, (uint32_t)(nl < 512 ? nl : 512))], &err), 0);
        }
        pl_buf_free(&err);
        pl_match_free(m);
    }
}

/* pl_jfields writes pl_json_dump's object from values given as text in
 * any order: random objects, each value written by pl_json_dump in the
 * jansson object's own (hash) order, the whole compared with the object's
 * pl_json_dump; text already in the buffer stays in front. */
static void test_jfields_sorted_as_json_dump(void **s)
{
    (void)s;
    pl_json_setup();
    pl_rng r;
    pl_rng_seed(&r, 11);
    pl_buf want = {0}, got = {0}, err = {0};
    for (int i = 0; i < 2000; i++) {
        json_t *o = json_object();
        for (int k = (int)pl_rng_below(&r, 30); k > 0; k--) {
            char key[16];
            snprintf(key, sizeof key, "%c%u", "aAbz_ \"\\"[pl_rng_below(&r, 8)], pl_rng_below(&r, 40));
            json_object_set_new(o, key, json_random(&r, 3));
        }
        pl_buf_clear(&want);
        pl_buf_clear(&got);
        pl_buf_puts(&got, "kept");
        assert_int_equal(pl_json_dump(o, &want), 0);
        pl_jfields f;
        pl_jfields_start(&f, &got);
        const char *key;
        json_t *v;
        json_object_foreach(o, key, v)
        assert_int_equal(pl_json_dump(v, pl_jfields_key(&f, key)), 0);
        assert_int_equal(pl_jfields_finish(&f, &err), 0);
        assert_string_equal(pl_buf_str(&got) + 4, pl_buf_str(&want));
        assert_memory_equal(pl_buf_str(&got), "kept", 4);
        json_decref(o);
    }
    pl_buf_free(&want);
    pl_buf_free(&got);
    pl_buf_free(&err);
}

/* Keys sorted by strcmp (upper case before lower, a prefix first), values
 * that are objects made by a nested pl_jfields on the same buffer. */
static void test_jfields_sorting_and_nesting(void **s)
{
    (void)s;
    pl_buf out = {0}, err = {0};
    pl_jfields f, in;
    pl_jfields_start(&f, &out);
    pl_json_put_int(pl_jfields_key(&f, "b"), 2);
    pl_jfields_start(&in, pl_jfields_key(&f, "nested"));
    pl_buf_puts(pl_jfields_key(&in, "z"), "[]");
    pl_json_put_string(pl_jfields_key(&in, "y"), "q\"uote");
    assert_int_equal(pl_jfields_finish(&in, &err), 0);
    pl_buf_puts(pl_jfields_key(&f, "ab"), "null");
    pl_json_put_int(pl_jfields_key(&f, "a"), -7);
    pl_buf_puts(pl_jfields_key(&f, "B"), "true");
    pl_jfields_start(&in, pl_jfields_key(&f, "empty"));
    assert_int_equal(pl_jfields_finish(&in, &err), 0);
    assert_int_equal(pl_jfields_finish(&f, &err), 0);
    assert_string_equal(pl_buf_str(&out),
                        "{\"B\":true,\"a\":-7,\"ab\":null,\"b\":2,\"empty\":{},\"nested\":{\"y\":\"q\\\"uote\",\"z\":[]}}");
    assert_string_equal(pl_buf_str(&err), "");
    pl_buf_free(&out);
    pl_buf_free(&err);
}

/* A writer's bugs are refused with a message and the buffer cut back to
 * what it held: a key given twice, a key without a value, more keys than
 * PL_JFIELDS_MAX, a key that is not UTF-8. */
static void test_jfields_refusals(void **s)
{
    (void)s;
    pl_buf out = {0}, err = {0};
    pl_jfields f;
    pl_buf_puts(&out, "kept");
    pl_jfields_start(&f, &out);
    pl_json_put_int(pl_jfields_key(&f, "turn"), 1);
    pl_json_put_int(pl_jfields_key(&f, "roll"), 2);
    pl_json_put_int(pl_jfields_key(&f, "turn"), 1);
    assert_int_equal(pl_jfields_finish(&f, &err), -1);
    assert_string_equal(pl_buf_str(&err), "a key given twice: \"turn\"");
    assert_string_equal(pl_buf_str(&out), "kept");

    pl_buf_clear(&err);
    pl_jfields_start(&f, &out);
    pl_json_put_int(pl_jfields_key(&f, "a"), 1);
    pl_jfields_key(&f, "b");
    pl_json_put_int(pl_jfields_key(&f, "c"), 1);
    assert_int_equal(pl_jfields_finish(&f, &err), -1);
    assert_string_equal(pl_buf_str(&err), "no value for the key \"b\"");
    assert_string_equal(pl_buf_str(&out), "kept");

    pl_buf_clear(&err);
    static char keys[PL_JFIELDS_MAX + 1][8];
    pl_jfields_start(&f, &out);
    for (int i = 0; i < PL_JFIELDS_MAX; i++) {
        snprintf(keys[i], sizeof keys[i], "k%d", i);
        pl_json_put_int(pl_jfields_key(&f, keys[i]), i);
    }
    pl_buf *last = pl_jfields_key(&f, "one too many");
    assert_ptr_equal(last, &out);
    pl_json_put_int(last, 0);
    assert_int_equal(pl_jfields_finish(&f, &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "PL_JFIELDS_MAX"));
    assert_string_equal(pl_buf_str(&out), "kept");
    /* exactly PL_JFIELDS_MAX keys fit */
    pl_jfields_start(&f, &out);
    for (int i = 0; i < PL_JFIELDS_MAX; i++)
        pl_json_put_int(pl_jfields_key(&f, keys[i]), i);
    assert_int_equal(pl_jfields_finish(&f, NULL), 0);
    assert_non_null(strstr(pl_buf_str(&out), ",\"k9\":9}"));

    pl_buf_clear(&err);
    pl_buf_clear(&out);
    pl_json_setup();
    pl_jfields_start(&f, &out);
    pl_json_put_int(pl_jfields_key(&f, "\xff"), 1);
    assert_int_equal(pl_jfields_finish(&f, &err), -1);
    assert_string_equal(pl_buf_str(&err), "a key that is not UTF-8: \"\xff\"");
    assert_int_equal(out.len, 0);
    pl_buf_free(&out);
    pl_buf_free(&err);
}

/* Each allocation failing in turn: -1 with "out of memory" and the buffer
 * cut back, never half an object; then the whole object. A buffer that
 * already ran out of memory cannot take an object: refused. */
static void test_jfields_out_of_memory(void **s)
{
    (void)s;
    pl_buf err = {0};
    assert_true(pl_buf_reserve(&err, 100)); /* room for the message before allocations fail */
    int ok = 0;
    for (long n = 0; !ok; n++) {
        pl_buf out = {0};
        pl_buf_puts(&out, "x");
        pl_alloc_fail_after(n);
        pl_jfields f;
        pl_jfields_start(&f, &out);
        static const char *const keys[] = {"k", "j", "i", "h", "g", "f", "e", "d", "c", "a"};
        for (int i = 0; i < 10; i++)
            pl_buf_puts(pl_jfields_key(&f, keys[i]), "\"a long enough value\"");
        pl_buf_puts(pl_jfields_key(&f, "b"), "[1,2,3]");
        int rc = pl_jfields_finish(&f, &err);
        pl_alloc_fail_after(-1);
        if (rc == 0) {
            ok = 1;
            assert_non_null(strstr(pl_buf_str(&out), "x{\"a\":\"a long"));
        } else {
            assert_string_equal(pl_buf_str(&out), "x");
            assert_string_equal(pl_buf_str(&err), "out of memory");
        }
        pl_buf_free(&out);
        pl_buf_clear(&err);
        assert_true(n < 1000);
    }
    pl_buf out = {0};
    pl_buf_puts(&out, "x");
    out.oom = true;
    pl_jfields f;
    pl_jfields_start(&f, &out);
    pl_json_put_int(pl_jfields_key(&f, "a"), 1);
    assert_int_equal(pl_jfields_finish(&f, &err), -1);
    assert_string_equal(pl_buf_str(&out), "x");
    pl_buf_free(&out);
    pl_buf_free(&err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_options_validation),
        cmocka_unit_test(test_rng_reproducible_and_unbiased),
        cmocka_unit_test(test_buf_and_canvas),
        cmocka_unit_test(test_alloc_failure_is_reported),
        cmocka_unit_test(test_match_play_checks_state),
        cmocka_unit_test(test_record_rejects_bad_records),
        cmocka_unit_test(test_parse_legal_why),
        cmocka_unit_test(test_protocol_framing),
        cmocka_unit_test(test_json_dump_is_janssons),
        cmocka_unit_test(test_json_put_string_is_janssons),
        cmocka_unit_test(test_jfields_sorted_as_json_dump),
        cmocka_unit_test(test_jfields_sorting_and_nesting),
        cmocka_unit_test(test_jfields_refusals),
        cmocka_unit_test(test_jfields_out_of_memory),
    };
    return cmocka_run_group_tests_name("unit_core", tests, NULL, NULL);
}
