/* test_unit_engines.c — computer players in worker processes
 * (src/server/engines.h): the job as engine-protocol text (eng_job_text),
 * checked by running it through a protocol session of every game at many
 * points of random games (the answer must be the in-process choice); the
 * reading of answers (eng_parse) on good, refused and broken output; and the
 * pool against the real `parlour engine` and against commands that exit,
 * hang, echo or babble (each job comes back, failed where it must). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines.h"
#include "helpers.h"
#include "ai/ai.h"
#include "parlour/alloc.h"
#include "parlour/match.h"
#include "parlour/registry.h"
#include "proto.h"

/* ---- eng_job_text ------------------------------------------------------------------ */

static void test_job_text_golden_ur(void **state)
{
    (void)state;
    pl_match *m = th_new("ur", "seed=7 start=light pieces=3");
    th_script(m, "roll 1;enter;roll 2;enter;roll 2");
    pl_buf out = {0};
    pl_buf_puts(&out, "kept ");
    assert_int_equal(eng_job_text(m, 0, "easy", 42, 9, &out), 7);
    assert_string_equal(pl_buf_str(&out),
                        "kept new ur rules=skiryuk pieces=3 dice=3lots start=light loop=own-first stack=top seed=7\n"
                        "play roll 1\n"
                        "play 0 enter\n"
                        "play roll 2\n"
                        "play 1 enter\n"
                        "play roll 2\n"
                        "9 choose 0 42 easy\n");
    pl_buf_free(&out);
    pl_match_free(m);
}

static void test_job_text_refusals_leave_out_unchanged(void **state)
{
    (void)state;
    pl_match *m = th_new("ur", "seed=7 start=light");
    th_play(m, "roll 1");
    pl_buf out = {0};
    pl_buf_puts(&out, "kept");
    assert_int_equal(eng_job_text(m, 0, "mcts:iterations=5 x", 1, 1, &out), -1); /* two words */
    assert_int_equal(eng_job_text(m, 0, "", 1, 1, &out), -1);
    assert_int_equal(eng_job_text(m, 0, NULL, 1, 1, &out), -1);
    assert_int_equal(eng_job_text(m, 0, "a\nb", 1, 1, &out), -1);
    assert_string_equal(pl_buf_str(&out), "kept");
    pl_buf_free(&out);
    pl_match_free(m);
}

/* Runs `text` through a new protocol session; returns the last answer's
 * first line after "=ID " (static), failing the test on any error answer. */
static const char *run_session(const char *text)
{
    static char last[512];
    pl_proto *p = pl_proto_new();
    pl_buf out = {0};
    assert_non_null(p);
    for (const char *q = text; *q;) {
        const char *e = strchr(q, '\n');
        assert_non_null(e);
        pl_buf_clear(&out);
        pl_proto_line(p, q, (size_t)(e - q), &out);
        if (out.s[0] != '=')
            fail_msg("request '%.*s' answered '%s'", (int)(e - q), q, out.s);
        const char *sp = strchr(out.s, ' ');
        size_t n = strcspn(sp + 1, "\n");
        assert_true(n < sizeof last);
        memcpy(last, sp + 1, n);
        last[n] = '\0';
        q = e + 1;
    }
    pl_buf_free(&out);
    pl_proto_free(p);
    return last;
}

/* At every few steps of random games of `game` with `opts`, each actor's
 * job text, run through a protocol session, gives the in-process choice. */
static void check_game(const char *game, const char *opts, const char *spec, int games)
{
    const pl_game *g = pl_game_find(game);
    assert_non_null(g);
    pl_buf err = {0};
    ai_player *ai = ai_player_new(g, spec, &err);
    assert_non_null(ai);
    int checked = 0;
    for (int k = 0; k < games; k++) {
        char o[256];
        snprintf(o, sizeof o, "%s seed=%d", opts, 100 + k);
        pl_match *m = th_new(game, o);
        pl_rng rng;
        pl_rng_seed(&rng, (uint64_t)k);
        for (int step = 0; step < 400 && g->phase(m->state) != PL_PHASE_OVER; step++) {
            if (g->phase(m->state) == PL_PHASE_CHANCE) {
                assert_int_equal(pl_match_random(m, NULL, &err), 0);
                continue;
            }
            int seats[PL_MAX_SEATS];
            int n = g->actors(m->state, seats);
            int seat = seats[pl_rng_next(&rng) % (uint64_t)n];
            uint64_t seed = pl_rng_next(&rng);
            pl_action a;
            assert_int_equal(ai_player_choose(ai, m->state, seat, seed, &a, &err), 0);
            if (step % 5 == 0 || step < 3) {
                pl_buf text = {0}, want = {0};
                int nreq = eng_job_text(m, seat, spec, seed, 1000 + (uint64_t)step, &text);
                assert_true(nreq >= 2);
                int lines = 0;
                for (const char *q = text.s; *q; q++)
                    lines += *q == '\n';
                assert_int_equal(lines, nreq);
                g->format_action(m->state, seat, a, &want);
                assert_string_equal(run_session(text.s), want.s);
                pl_buf_free(&text);
                pl_buf_free(&want);
                checked++;
            }
            assert_int_equal(pl_match_play(m, seat, a, &err), 0);
        }
        pl_match_free(m);
    }
    assert_true(checked > games * 3);
    ai_player_free(ai);
    pl_buf_free(&err);
}

static void test_job_text_ur_same_choice_as_in_process(void **state)
{
    (void)state;
    check_game("ur", "pieces=3", "easy", 3);
    check_game("ur", "rules=finkel pieces=2", "random", 2);
}

static void test_job_text_cbw_same_choice_as_in_process(void **state)
{
    (void)state;
    check_game("cbw", "players=4", "mcts:iterations=20", 2);
    check_game("cbw", "players=2 w=5 h=5 deck=36", "random", 2);
}

static void test_job_text_tamcuc_same_choice_as_in_process(void **state)
{
    (void)state;
    check_game("tamcuc", "players=4", "easy", 2);
    check_game("tamcuc", "players=2 night_exchange=2", "random", 2);
}

static void test_job_text_karuta_same_choice_as_in_process(void **state)
{
    (void)state;
    check_game("karuta", "variant=kyogi", "random", 1);
}

/* ---- eng_parse --------------------------------------------------------------------- */

static int parse(const char *buf, int nreq, uint64_t id, pl_buf *action, pl_buf *why)
{
    pl_buf_clear(action);
    pl_buf_clear(why);
    return eng_parse(buf, strlen(buf), nreq, id, action, why);
}

static void test_parse_answers(void **state)
{
    (void)state;
    pl_buf a = {0}, w = {0};
    assert_int_equal(parse("", 3, 7, &a, &w), 1);
    assert_int_equal(parse("= \n\n= \n", 3, 7, &a, &w), 1);
    assert_int_equal(parse("= \n\n= \n\n=7 B5", 3, 7, &a, &w), 1); /* the line is not whole */
    assert_int_equal(parse("= \n\n= \n\n=7 B5\n", 3, 7, &a, &w), 1);
    assert_int_equal(parse("= \n\n= \n\n=7 B5\n\n", 3, 7, &a, &w), 0);
    assert_string_equal(pl_buf_str(&a), "B5");
    assert_int_equal(parse("=7 lead rC bC\nmore\n\n", 1, 7, &a, &w), 0); /* a further line */
    assert_string_equal(pl_buf_str(&a), "lead rC bC");
    /* refused: an error anywhere (the game differs), or at the end */
    assert_int_equal(parse("= \n\n? illegal move\n\n=7 B5\n\n", 3, 7, &a, &w), -1);
    assert_string_equal(pl_buf_str(&w), "? illegal move");
    assert_int_equal(parse("= \n\n?7 seat 1 does not act now\n\n", 2, 7, &a, &w), -1);
    /* broken */
    assert_int_equal(parse("hello\n\n", 1, 7, &a, &w), -2);
    assert_int_equal(parse("\n", 1, 7, &a, &w), -2);
    assert_int_equal(parse("= \n\n=8 B5\n\n", 2, 7, &a, &w), -2);   /* another request's */
    assert_int_equal(parse("= \n\n= B5\n\n", 2, 7, &a, &w), -2);    /* no id */
    assert_int_equal(parse("= \n\n=77 B5\n\n", 2, 7, &a, &w), -2);  /* 77 is not 7 */
    assert_int_equal(parse("=7 B5\n\n= \n\n", 1, 7, &a, &w), -2);   /* more after the last */
    assert_int_equal(parse("=7 B5\n\nx", 1, 7, &a, &w), -2);
    assert_int_equal(eng_parse("=7 B\0\n\n", 7, 1, 7, &a, &w), -2);  /* a NUL */
    pl_buf_free(&a);
    pl_buf_free(&w);
}

/* ---- The pool ------------------------------------------------------------------------- */

typedef struct waiter {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int done;
    int tags[16];
} waiter;

static void on_done(void *ctx, hub_job *j, void *tag)
{
    (void)j;
    waiter *w = ctx;
    pthread_mutex_lock(&w->mu);
    w->tags[w->done++] = (int)(intptr_t)tag;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

static void wait_done(waiter *w, int n)
{
    pthread_mutex_lock(&w->mu);
    while (w->done < n)
        pthread_cond_wait(&w->cv, &w->mu);
    pthread_mutex_unlock(&w->mu);
}

/* A job for seat `seat` of `m` (state copied, text from eng_job_text). */
static hub_job *make_job(pl_match *m, const char *spec, uint64_t seed, uint64_t id)
{
    hub_job *j = calloc(1, sizeof *j);
    assert_non_null(j);
    j->id = id;
    j->game = m->game;
    j->seat = pl_sole_actor(m->game, m->state);
    j->seed = seed;
    j->state = malloc(m->game->state_size);
    memcpy(j->state, m->state, m->game->state_size);
    pl_buf t = {0};
    assert_true(eng_job_text(m, j->seat, spec, seed, id, &t) > 0);
    j->text = strdup(t.s);
    pl_buf_free(&t);
    return j;
}

static void free_job(hub_job *j)
{
    free(j->text);
    free(j->state);
    free(j);
}

static void test_pool_real_engine_answers_like_in_process(void **state)
{
    (void)state;
    pl_match *m = th_new("cbw", "players=4 seed=5 first=red");
    pl_buf err = {0};
    waiter wt = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, {0}};
    eng_config cfg = {.n = 2, .self = PARLOUR_BIN, .quiet = 1};
    eng_pool *e = eng_new(&cfg, on_done, &wt, &err);
    assert_non_null(e);
    hub_job *jobs[4];
    for (int i = 0; i < 4; i++) {
        jobs[i] = make_job(m, "easy", 1000 + (uint64_t)i, 50 + (uint64_t)i);
        assert_int_equal(eng_submit(e, jobs[i], (void *)(intptr_t)i), 0);
    }
    wait_done(&wt, 4);
    for (int i = 0; i < 4; i++) {
        pl_action want;
        assert_int_equal(ai_choose(m->game, m->state, jobs[i]->seat, "easy", jobs[i]->seed, &want, &err), 0);
        assert_int_equal(jobs[i]->failed, 0);
        assert_true(jobs[i]->action == want);
    }
    eng_stats st;
    eng_get_stats(e, &st);
    assert_true(st.jobs == 4 && st.answered == 4 && st.failed == 0 && st.starts <= 2);
    eng_free(e);
    for (int i = 0; i < 4; i++)
        free_job(jobs[i]);
    pl_buf_free(&err);
    pl_match_free(m);
}

/* Every job given to workers started by `cmd` comes back failed. */
static void check_cmd_fails(const char *cmd, int timeout_ms, eng_stats *st)
{
    pl_match *m = th_new("ur", "seed=3 start=light");
    th_play(m, "roll 1");
    pl_buf err = {0};
    waiter wt = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, {0}};
    eng_config cfg = {.n = 1, .cmd = cmd, .timeout_ms = timeout_ms, .quiet = 1};
    eng_pool *e = eng_new(&cfg, on_done, &wt, &err);
    assert_non_null(e);
    hub_job *jobs[3];
    for (int i = 0; i < 3; i++) {
        jobs[i] = make_job(m, "random", 1, 10 + (uint64_t)i);
        jobs[i]->action = 12345;
        assert_int_equal(eng_submit(e, jobs[i], (void *)(intptr_t)i), 0);
    }
    wait_done(&wt, 3);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(jobs[i]->failed, 1);
        free_job(jobs[i]);
    }
    eng_get_stats(e, st);
    assert_true(st->jobs == 3 && st->failed == 3 && st->answered == 0);
    eng_free(e);
    pl_buf_free(&err);
    pl_match_free(m);
}

static void test_pool_broken_workers_fail_their_jobs(void **state)
{
    (void)state;
    eng_stats st;
    check_cmd_fails("exit 3", 0, &st); /* exits: started again, the job sent once more */
    assert_true(st.retried >= 1);
    check_cmd_fails("sleep 30", 200, &st); /* hangs: killed at the deadline */
    assert_true(st.killed >= 1);
    check_cmd_fails("cat", 0, &st);        /* echoes the requests: not answers */
    assert_true(st.killed >= 1);
    check_cmd_fails("while read id rest; do case \"$rest\" in choose*) printf '?%s no\\n\\n' \"$id\";; "
                    "*) printf '= \\n\\n';; esac; done",
                    0, &st); /* refuses, in the protocol: kept */
    assert_true(st.killed == 0 && st.starts == 1);
    check_cmd_fails("while read l; do printf '= \\n\\n'; done", 0, &st); /* wrong id */
    check_cmd_fails("head -c 3000000 /dev/zero | tr '\\0' x", 0, &st); /* floods */
    check_cmd_fails("/no/such/program", 0, &st);
}

static void test_pool_free_fails_queued_jobs(void **state)
{
    (void)state;
    pl_match *m = th_new("ur", "seed=3 start=light");
    th_play(m, "roll 1");
    pl_buf err = {0};
    waiter wt = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, {0}};
    eng_config cfg = {.n = 1, .cmd = "sleep 30", .timeout_ms = 60000, .quiet = 1};
    eng_pool *e = eng_new(&cfg, on_done, &wt, &err);
    assert_non_null(e);
    hub_job *jobs[5];
    for (int i = 0; i < 5; i++) {
        jobs[i] = make_job(m, "random", 1, 10 + (uint64_t)i);
        assert_int_equal(eng_submit(e, jobs[i], (void *)(intptr_t)i), 0);
    }
    eng_free(e); /* one job waits on the hung worker, four in the queue */
    assert_int_equal(wt.done, 5);
    int seen = 0;
    for (int i = 0; i < 5; i++) {
        seen |= 1 << wt.tags[i];
        assert_int_equal(jobs[i]->failed, 1);
        free_job(jobs[i]);
    }
    assert_int_equal(seen, 31);
    pl_buf_free(&err);
    pl_match_free(m);
}

static void test_pool_bad_config(void **state)
{
    (void)state;
    pl_buf err = {0};
    waiter wt = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, {0}};
    eng_config cfg = {.n = ENG_MAX_WORKERS + 1};
    assert_null(eng_new(&cfg, on_done, &wt, &err));
    assert_non_null(strstr(pl_buf_str(&err), "workers"));
    cfg = (eng_config){.cmd = ""};
    pl_buf_clear(&err);
    assert_null(eng_new(&cfg, on_done, &wt, &err));
    assert_non_null(strstr(pl_buf_str(&err), "empty"));
    eng_free(NULL);
    pl_buf_free(&err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_job_text_golden_ur),
        cmocka_unit_test(test_job_text_refusals_leave_out_unchanged),
        cmocka_unit_test(test_job_text_ur_same_choice_as_in_process),
        cmocka_unit_test(test_job_text_cbw_same_choice_as_in_process),
        cmocka_unit_test(test_job_text_tamcuc_same_choice_as_in_process),
        cmocka_unit_test(test_job_text_karuta_same_choice_as_in_process),
        cmocka_unit_test(test_parse_answers),
        cmocka_unit_test(test_pool_real_engine_answers_like_in_process),
        cmocka_unit_test(test_pool_broken_workers_fail_their_jobs),
        cmocka_unit_test(test_pool_free_fails_queued_jobs),
        cmocka_unit_test(test_pool_bad_config),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
