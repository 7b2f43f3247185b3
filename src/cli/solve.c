/* solve.c — `parlour solve GAME [options] --out FILE`: exact solutions.
 * The game's own solver when it has one for these options
 * (pl_game.tables->solve, e.g. Ur's Finkel layers); otherwise, for small
 * games with full information and chance, the generic solver over the game
 * interface (src/ai/solve.c). Prints the first player's winning probability
 * and the number of states. Names no game: the games come from the
 * registry. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../ai/ai.h"
#include "../ai/perfect.h"
#include "../ai/solve.h"
#include "cli.h"
#include "parlour/match.h"
#include "parlour/registry.h"

/* Plays `games` games of `spec` against the perfect player from the table
 * `path` (seats alternating) and reports `spec`'s results and its mean loss
 * of winning probability per decision against optimal play. The table and
 * the player are loaded once. */
static int measure(const pl_game *g, const pl_match *proto, const char *path, const char *spec, int games)
{
    pl_buf err = {0};
    long decisions = 0, wins = 0;
    double loss = 0;
    ai_perfect *table = ai_perfect_load(g, path, &err);
    ai_player *player = table ? ai_player_new(g, spec, &err) : NULL;
    void *st = malloc(g->state_size), *c = malloc(g->state_size);
    if (!table || !player || !st || !c) {
        if (!err.len)
            pl_buf_puts(&err, "out of memory");
        goto fail;
    }
    pl_rng rng;
    pl_rng_seed(&rng, 12345);
    for (int k = 0; k < games; k++) {
        int me = k & 1;
        pl_state_copy(g, st, proto->initial);
        while (g->phase(st) != PL_PHASE_OVER) {
            if (g->phase(st) == PL_PHASE_CHANCE) {
                g->apply(st, PL_CHANCE, pl_draw_chance(g, st, &rng));
                continue;
            }
            int seat = pl_sole_actor(g, st);
            pl_action a, best;
            if (ai_perfect_choose(table, st, seat, &best, &err) < 0)
                goto fail;
            if (seat == me) {
                if (ai_player_choose(player, st, seat, pl_rng_next(&rng), &a, &err) < 0)
                    goto fail;
                pl_state_copy(g, c, st);
                g->apply(c, seat, best);
                double vb = ai_perfect_value(table, c, seat);
                pl_state_copy(g, c, st);
                g->apply(c, seat, a);
                double va = ai_perfect_value(table, c, seat);
                loss += vb - va;
                decisions++;
            } else {
                a = best;
            }
            g->apply(st, seat, a);
        }
        pl_outcome o;
        g->outcome(st, &o);
        wins += o.utility[me] > 0.5;
    }
    printf("measure %s against perfect: %d games, %ld won (%.1f %%), mean loss %.5f a decision over %ld "
           "decisions\n",
           spec, games, wins, 100.0 * wins / games, decisions ? loss / decisions : 0, decisions);
    free(st);
    free(c);
    ai_player_free(player);
    ai_perfect_free(table);
    pl_buf_free(&err);
    return 0;
fail:
    fprintf(stderr, "parlour solve: %s\n", pl_buf_str(&err));
    free(st);
    free(c);
    ai_player_free(player);
    ai_perfect_free(table);
    pl_buf_free(&err);
    return -1;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* --verify: loads the table `path`, checks it (pl_table_ops.verify) and
 * prints the check's lines and the value of the new game `m` for its first
 * player. 0, 1 on failure, 2 when the game or the table has no check. */
static int verify_table(const pl_game *g, const pl_match *m, const char *path, int threads, double t0)
{
    if (!g->tables || !g->tables->verify) {
        fprintf(stderr, "parlour solve: %s has no table check\n", g->id);
        return 2;
    }
    pl_buf err = {0}, report = {0};
    void *t = g->tables->load(path, &err);
    int rc = 1;
    if (t) {
        int r = g->tables->verify(t, threads, &report, &err);
        double v = g->tables->value(t, m->state, 0);
        if (r == 0) {
            fprintf(stderr, "parlour solve: %s: this kind of table has no check\n", path);
            rc = 2;
        } else if (r > 0 && v < 0) {
            fprintf(stderr, "parlour solve: %s does not hold this game's options\n", path);
        } else if (r > 0) {
            printf("%sfirst player wins %.12f %%\nseconds %.1f\n", pl_buf_str(&report), 100 * v, now() - t0);
            rc = 0;
        }
    }
    if (rc == 1 && err.len)
        fprintf(stderr, "parlour solve: %s\n", pl_buf_str(&err));
    pl_buf_free(&err);
    pl_buf_free(&report);
    if (t)
        g->tables->free(t);
    return rc;
}

int cli_solve(int argc, char **argv)
{
    static const struct option lo[] = {{"out", required_argument, 0, 'o'},
                                       {"threads", required_argument, 0, 't'},
                                       {"tol", required_argument, 0, 'r'},
                                       {"quiet", no_argument, 0, 'q'},
                                       {"generic", no_argument, 0, 'g'},
                                       {"measure", required_argument, 0, 'm'},
                                       {"games", required_argument, 0, 'n'},
                                       {"table", required_argument, 0, 'T'},
                                       {"verify", no_argument, 0, 'v'},
                                       {"init", required_argument, 0, 'i'},
                                       {"help", no_argument, 0, 'h'},
                                       {0, 0, 0, 0}};
    const char *out = NULL;
    int threads = 2, quiet = 0, generic = 0, games = 1000, verify = 0, c;
    const char *spec = NULL, *table = NULL, *init = NULL;
    double tol = 1e-14;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:t:r:qgm:n:T:vi:h", lo, NULL)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 't': threads = atoi(optarg); break;
        case 'r': tol = atof(optarg); break;
        case 'q': quiet = 1; break;
        case 'g': generic = 1; break;
        case 'm': spec = optarg; break;
        case 'n': games = atoi(optarg); break;
        case 'T': table = optarg; break;
        case 'v': verify = 1; break;
        case 'i': init = optarg; break;
        case 'h': {
            puts("usage: parlour solve GAME [KEY=VALUE ...] [--out FILE] [--threads N] [--tol X] [--quiet]\n"
                 "Solves a game exactly by value iteration and prints the first player's\n"
                 "probability of winning under optimal play and the number of states: with the\n"
                 "game's own solver where it has one for the options given, else with the\n"
                 "generic solver (small games with full information; docs/solver.md).\n"
                 "  --out FILE    write the table (for --seat N=ai:perfect:FILE)\n"
                 "  --threads N   worker threads (default 2)\n"
                 "  --tol X       stop a layer when no value changes by more than X (default 1e-14)\n"
                 "  --quiet       no progress lines\n"
                 "  --generic     use the generic solver even where the game has its own (a cross-check)\n"
                 "  --measure SPEC  then play SPEC against the perfect player (needs --out) and\n"
                 "                report its wins and mean loss of winning chance per decision\n"
                 "  --games N     games for --measure (default 1000)\n"
                 "  --table FILE  with --measure: use a table written before instead of solving\n"
                 "  --init FILE   start from the values of a table of the same options (an\n"
                 "                earlier or interrupted run's): the game's own solver only\n"
                 "  --verify      with --table: check every value against the equations the\n"
                 "                solver solved (the largest residual) and print the start's value");
            int ng;
            const pl_game *const *gs = pl_games(&ng);
            fputs("games with a solver of their own:", stdout);
            int any = 0;
            for (int i = 0; i < ng; i++)
                if (gs[i]->tables && gs[i]->tables->solve) {
                    printf(" %s", gs[i]->id);
                    any = 1;
                }
            puts(any ? "" : " none");
            return 0;
        }
        default: return 2;
        }
    }
    if (optind >= argc) {
        fputs("parlour solve: which game? (parlour solve --help)\n", stderr);
        return 2;
    }
    const pl_game *g = pl_game_find(argv[optind]);
    if (!g) {
        fprintf(stderr, "parlour solve: unknown game '%s'\n", argv[optind]);
        return 2;
    }
    pl_buf err = {0};
    pl_match *m = pl_match_new(g, argc - optind - 1, argv + optind + 1, &err);
    if (!m) {
        fprintf(stderr, "parlour solve: %s\n", pl_buf_str(&err));
        pl_buf_free(&err);
        return 2;
    }
    double t0 = now();
    int rc = 0, own = 0; /* own: the game's solver took it (1) or failed (-1) */
    if (table) {
        if (!spec && !verify) {
            fputs("parlour solve: --table is for --measure SPEC or --verify\n", stderr);
            rc = 2;
        } else {
            out = table;
            if (verify)
                rc = verify_table(g, m, table, threads, t0);
        }
    } else if (verify) {
        fputs("parlour solve: --verify checks a table: give it with --table FILE\n", stderr);
        rc = 2;
    } else if (!generic && g->tables && g->tables->solve) {
        pl_solve_params sp = {.tol = tol, .threads = threads, .progress = quiet ? NULL : stderr, .out = out, .init = init};
        pl_buf report = {0};
        own = g->tables->solve(m->state, &sp, &report, &err);
        if (report.len)
            printf("%sseconds %.1f\n", pl_buf_str(&report), now() - t0);
        pl_buf_free(&report);
        if (own < 0) {
            fprintf(stderr, "parlour solve: %s\n", pl_buf_str(&err));
            rc = 1;
        }
    }
    if (!table && !own && rc == 0 && init) {
        fputs("parlour solve: --init starts the game's own solver (Skiryuk's Ur with 1-4 pieces) from a table; "
              "the generic solver starts afresh\n", stderr);
        rc = 2;
    }
    if (!table && !own && rc == 0) { /* the generic solver */
        solve_result r;
        if (solve_game(g, m->state, tol, quiet ? NULL : stderr, out, &r, &err) < 0) {
            fprintf(stderr, "parlour solve: %s\n", pl_buf_str(&err));
            rc = 1;
        } else {
            printf("game %s\nstates %llu\nsweeps %ld (most in one component)\nupdates %llu\n"
                   "first player wins %.12f %%\nseconds %.1f\n",
                   g->id, (unsigned long long)r.states, r.sweeps, (unsigned long long)r.updates, 100 * r.value,
                   now() - t0);
        }
    }
    if (rc == 0 && spec) {
        if (!out) {
            fputs("parlour solve: --measure needs --out FILE\n", stderr);
            rc = 2;
        } else if (ai_check_spec(spec, &err) < 0) {
            fprintf(stderr, "parlour solve: %s\n", pl_buf_str(&err));
            rc = 2;
        } else if (measure(g, m, out, spec, games) < 0) {
            rc = 1;
        }
    }
    pl_buf_free(&err);
    pl_match_free(m);
    return rc;
}
