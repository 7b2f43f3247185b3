/* ai_arena.c — seeded, seat-rotated matches between AI players (ai_arena.h).
 * Each game runs on its own pl_match, so every action is checked by the
 * rules; a worker thread takes the next game index under a mutex and stores
 * the result at that index. The players are made once, before the threads
 * start (a perfect: table is loaded once), and shared read-only by every
 * worker; equal specs share one player. Work: the players' own cost per
 * decision. */
#include "ai_arena.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ai.h"
#include "parlour/alloc.h"
#include "parlour/match.h"
#include "parlour/record.h"

typedef struct game_result {
    int winner;     /* player index, -1 draw */
    double points[AI_ARENA_MAXP]; /* mean score of each player's seats */
    int stopped;
    long actions;
    int failed;
} game_result;

typedef struct shared {
    const ai_arena_opts *o;
    const ai_player *players[AI_ARENA_MAXP]; /* read-only while the workers run */
    uint64_t base;
    game_result *res;
    long next, done;
    pthread_mutex_t mu;
    pl_buf err; /* first error, under mu */
    int failed;
} shared;

double ai_arena_elo(double score)
{
    if (score <= 0)
        return -800;
    if (score >= 1)
        return 800;
    double e = -400 * log10(1 / score - 1);
    return e < -800 ? -800 : e > 800 ? 800 : e;
}

static int player_at(const ai_arena_opts *o, long game, int seat)
{
    return (int)((seat + game) % o->nplayers);
}

/* Plays game `gi`; 0, or -1 with a message in `err`. */
static int play_one(shared *sh, long gi, game_result *gr, pl_buf *err)
{
    const ai_arena_opts *o = sh->o;
    const pl_game *g = o->g;
    char seedw[40];
    snprintf(seedw, sizeof seedw, "seed=%llu",
             (unsigned long long)(pl_mix64(sh->base + (uint64_t)(gi / o->nplayers)) >> 1));
    char **argv = pl_malloc(sizeof(char *) * (size_t)(o->nopts + 1));
    if (!argv) {
        pl_buf_puts(err, "out of memory");
        return -1;
    }
    int argc = 0;
    for (int i = 0; i < o->nopts; i++)
        if (strncmp(o->opts[i], "seed=", 5))
            argv[argc++] = o->opts[i];
    argv[argc++] = seedw;
    pl_match *m = pl_match_new(g, argc, argv, err);
    pl_free(argv);
    if (!m)
        return -1;
    int ns = g->num_seats(m->state), rc = 0;
    for (int s = 0; s < ns; s++)
        pl_match_set_player(m, s, o->players[player_at(o, gi, s)]);
    long limit = o->max_actions > 0 ? o->max_actions : 100000;
    pl_action chosen[PL_MAX_SEATS];
    int seats[PL_MAX_SEATS];
    gr->winner = -1;
    while (rc == 0) {
        pl_phase ph = g->phase(m->state);
        if (ph == PL_PHASE_OVER)
            break;
        if (m->nhist >= limit) {
            gr->stopped = 1;
            break;
        }
        if (ph == PL_PHASE_CHANCE) {
            rc = pl_match_random(m, NULL, err);
            continue;
        }
        /* Every actor chooses on the same position, then all are applied. */
        int na = g->actors(m->state, seats);
        for (int i = 0; i < na && rc == 0; i++) {
            pl_rng r;
            pl_match_rng(m, (uint64_t)seats[i] + 1, &r);
            rc = ai_player_choose(sh->players[player_at(o, gi, seats[i])], m->state, seats[i], pl_rng_next(&r),
                                  &chosen[i], err);
        }
        for (int i = 0; i < na && rc == 0; i++) {
            pl_buf why = {0};
            if (pl_match_play(m, seats[i], chosen[i], &why) < 0) {
                /* an earlier actor's move changed what is legal: choose again */
                pl_rng r;
                pl_match_rng(m, (uint64_t)seats[i] + 1, &r);
                rc = ai_player_choose(sh->players[player_at(o, gi, seats[i])], m->state, seats[i],
                                      pl_rng_next(&r), &chosen[i], err);
                if (rc == 0 && pl_match_play(m, seats[i], chosen[i], err) < 0)
                    rc = -1;
            }
            pl_buf_free(&why);
        }
    }
    if (rc == 0 && !gr->stopped) {
        pl_outcome out;
        memset(&out, 0, sizeof out);
        g->outcome(m->state, &out);
        int nat[AI_ARENA_MAXP] = {0};
        for (int s = 0; s < ns && s < PL_MAX_SEATS; s++) {
            int p = player_at(o, gi, s);
            gr->points[p] += (double)out.score[s];
            nat[p]++;
        }
        for (int p = 0; p < o->nplayers; p++)
            gr->points[p] = nat[p] ? gr->points[p] / nat[p] : 0;
        if (out.kind == PL_WIN_SEAT) {
            gr->winner = player_at(o, gi, out.winner);
        } else if (out.kind == PL_WIN_TEAM) {
            for (int s = 0; s < ns; s++)
                if (g->team_of(m->state, s) == out.winner) {
                    gr->winner = player_at(o, gi, s);
                    break;
                }
        }
    }
    gr->actions = m->nhist;
    if (rc == 0 && o->records) {
        char path[4096];
        snprintf(path, sizeof path, "%s/game-%05ld.json", o->records, gi);
        rc = pl_record_save_file(m, path, err);
    }
    pl_match_free(m);
    return rc;
}

static void *worker(void *arg)
{
    shared *sh = arg;
    for (;;) {
        pthread_mutex_lock(&sh->mu);
        long gi = sh->failed ? sh->o->games : sh->next++;
        pthread_mutex_unlock(&sh->mu);
        if (gi >= sh->o->games)
            break;
        pl_buf err = {0};
        int rc = play_one(sh, gi, &sh->res[gi], &err);
        pthread_mutex_lock(&sh->mu);
        if (rc < 0 && !sh->failed) {
            sh->failed = 1;
            pl_buf_printf(&sh->err, "game %ld: %s", gi, pl_buf_str(&err));
        }
        sh->done++;
        if (rc == 0 && sh->o->progress)
            sh->o->progress(sh->o->ctx, sh->done, sh->o->games);
        pthread_mutex_unlock(&sh->mu);
        pl_buf_free(&err);
    }
    return NULL;
}

int ai_arena_run(const ai_arena_opts *o, ai_arena_result *r, pl_buf *err)
{
    memset(r, 0, sizeof *r);
    if (o->nplayers < 2 || o->nplayers > AI_ARENA_MAXP || o->games < 1 || o->threads < 1 || o->threads > 16) {
        pl_buf_printf(err, "arena: 2-%d players, at least one game, 1-16 threads", AI_ARENA_MAXP);
        return -1;
    }
    for (int p = 0; p < o->nplayers; p++)
        if (ai_check_spec(o->players[p], err) < 0)
            return -1;
    /* A trial match: options, seat count. */
    pl_match *m = pl_match_new(o->g, o->nopts, o->opts, err);
    if (!m)
        return -1;
    r->nseats = o->g->num_seats(m->state);
    uint64_t base = m->opts.seed_given ? m->seed : o->seed;
    pl_match_free(m);
    /* The players, once each: a spec seen before shares that player. */
    ai_player *made[AI_ARENA_MAXP] = {0};
    shared sh;
    memset(&sh, 0, sizeof sh);
    for (int p = 0; p < o->nplayers; p++) {
        for (int q = 0; q < p && !sh.players[p]; q++)
            if (!strcmp(o->players[p] ? o->players[p] : "", o->players[q] ? o->players[q] : ""))
                sh.players[p] = sh.players[q];
        if (sh.players[p])
            continue;
        pl_buf e = {0};
        made[p] = ai_player_new(o->g, o->players[p], &e);
        if (!made[p]) {
            pl_buf_printf(err, "player %d (%s): %s", p + 1, o->players[p] ? o->players[p] : "default",
                          pl_buf_str(&e));
            pl_buf_free(&e);
            for (int q = 0; q < p; q++)
                ai_player_free(made[q]);
            return -1;
        }
        sh.players[p] = made[p];
    }
    sh.o = o;
    sh.base = base;
    sh.res = pl_calloc((size_t)o->games, sizeof *sh.res);
    if (!sh.res) {
        for (int p = 0; p < o->nplayers; p++)
            ai_player_free(made[p]);
        pl_buf_puts(err, "out of memory");
        return -1;
    }
    pthread_mutex_init(&sh.mu, NULL);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pthread_t th[16];
    int started = 0;
    for (int i = 1; i < o->threads; i++) {
        if (pthread_create(&th[started], NULL, worker, &sh) != 0)
            break; /* fewer threads: same results */
        started++;
    }
    worker(&sh);
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    pthread_mutex_destroy(&sh.mu);
    int rc = 0;
    if (sh.failed) {
        pl_buf_puts(err, pl_buf_str(&sh.err));
        rc = -1;
    } else {
        int np = o->nplayers;
        double sq[AI_ARENA_MAXP] = {0};
        for (long gi = 0; gi < o->games; gi++) {
            const game_result *gr = &sh.res[gi];
            r->stopped += gr->stopped;
            r->actions += gr->actions;
            for (int s = 0; s < r->nseats && s < PL_MAX_SEATS; s++)
                r->seat_games[s][player_at(o, gi, s)]++;
            for (int p = 0; p < np; p++) {
                double x = gr->winner < 0 ? 0.5 : gr->winner == p ? 1 : 0;
                if (gr->winner < 0)
                    r->draws[p]++;
                else if (gr->winner == p)
                    r->wins[p]++;
                else
                    r->losses[p]++;
                r->score[p] += x;
                sq[p] += x * x;
                r->points[p] += gr->points[p];
            }
        }
        r->games = o->games;
        double n = (double)o->games;
        for (int p = 0; p < np; p++) {
            double mean = r->score[p] / n, var = sq[p] / n - mean * mean;
            r->score[p] = mean;
            r->points[p] /= n;
            r->ci95[p] = n > 1 ? 1.96 * sqrt(var > 0 ? var / (n - 1) : 0) : 0.5;
        }
        r->elo = ai_arena_elo(r->score[0]);
        r->elo_lo = ai_arena_elo(r->score[0] - r->ci95[0]);
        r->elo_hi = ai_arena_elo(r->score[0] + r->ci95[0]);
    }
    r->secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    for (int p = 0; p < o->nplayers; p++)
        ai_player_free(made[p]);
    pl_buf_free(&sh.err);
    pl_free(sh.res);
    return rc;
}
