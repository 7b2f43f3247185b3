/* bench.c — `parlour bench GAME`: random games through the game interface,
 * one thread (so the figures are per core). Each move is drawn uniformly
 * from the full legal list; chance outcomes come from the game's sampler.
 * Reports games/s, moves/s (seat actions) and actions/s (moves + chance).
 * With --copy each action is applied to a fresh copy of the state, the way
 * a search without undo works, to show what copying costs. With --view each
 * state's spectator view is written too (pl_view_json, a fresh buffer each
 * time as the server does), by pl_game.view_text and then by view_json
 * alone where the game has both: count the instructions a view costs with
 * `valgrind --tool=callgrind --toggle-collect=pl_view_json` (docs/benchmarks.md).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "loadgen.h"
#include "cli.h"
#include "parlour/alloc.h"
#include "parlour/match.h"
#include "parlour/registry.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

typedef struct bench_result {
    long games, moves, chance, views;
    double secs;
} bench_result;

/* The spectator's view of `st` by `vg`'s way, written and dropped. */
static int view_once(const pl_game *vg, const void *st, bench_result *r)
{
    pl_buf v = {0}, err = {0};
    int rc = pl_view_json(vg, st, -1, &v, &err);
    pl_buf_free(&v);
    pl_buf_free(&err);
    r->views++;
    return rc;
}

/* Random games from `m`'s start; with `vg` (a game with the same rules as
 * `g`), every state's view is written too. */
static int run(const pl_game *g, const pl_match *m, double seconds, long max_games, int copy,
               const pl_game *vg, bench_result *r)
{
    void *st = pl_malloc(g->state_size), *tmp = pl_malloc(g->state_size);
    pl_action *acts = pl_malloc(sizeof *acts * PL_MAX_ACTIONS);
    if (!st || !tmp || !acts) {
        pl_free(st);
        pl_free(tmp);
        pl_free(acts);
        return -1;
    }
    int rc = -1;
    pl_rng rng;
    pl_rng_seed(&rng, m->seed);
    memset(r, 0, sizeof *r);
    double t0 = now(), t = t0;
    while ((max_games > 0 ? r->games < max_games : t - t0 < seconds)) {
        for (int k = 0; k < 64 && (max_games <= 0 || r->games < max_games); k++) {
            pl_state_copy(g, st, m->initial);
            for (;;) {
                if (vg && view_once(vg, st, r) < 0)
                    goto done; /* out of memory */
                pl_phase ph = g->phase(st);
                if (ph == PL_PHASE_OVER)
                    break;
                int seat;
                pl_action a;
                if (ph == PL_PHASE_CHANCE) {
                    seat = PL_CHANCE;
                    a = g->sample_chance(st, &rng);
                    r->chance++;
                } else {
                    int seats[PL_MAX_SEATS];
                    g->actors(st, seats);
                    seat = seats[0];
                    int n = pl_legal_all(g, st, seat, acts);
                    a = acts[pl_rng_below(&rng, (uint32_t)n)];
                    r->moves++;
                }
                if (copy) {
                    pl_state_copy(g, tmp, st);
                    g->apply(tmp, seat, a);
                    pl_state_copy(g, st, tmp);
                } else {
                    g->apply(st, seat, a);
                }
            }
            r->games++;
        }
        t = now();
    }
    r->secs = t - t0;
    rc = 0;
done:
    pl_free(st);
    pl_free(tmp);
    pl_free(acts);
    return rc;
}

static void report(const char *label, const bench_result *r)
{
    printf("%-28s %9ld games %8.3f s  %12.0f games/s  %12.0f moves/s  %12.0f actions/s\n", label,
           r->games, r->secs, r->games / r->secs, r->moves / r->secs,
           (r->moves + r->chance) / r->secs);
    if (r->views)
        printf("%-28s %9ld views %8.3f s  %12.0f views/s\n", "", r->views, r->secs, r->views / r->secs);
}

int cli_bench(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "serve")) /* the server under load (loadgen.c) */
        return lg_bench_serve(argc - 1, argv + 1);
    static const struct option lo[] = {{"seconds", required_argument, 0, 's'},
                                       {"games", required_argument, 0, 'g'},
                                       {"copy", no_argument, 0, 'c'},
                                       {"view", no_argument, 0, 'v'},
                                       {"help", no_argument, 0, 'h'},
                                       {0, 0, 0, 0}};
    double seconds = 3;
    long games = 0;
    int copy = 0, view = 0, c;
    if (argc > 1 && !strcmp(argv[1], "karuta-net")) /* bench_karnet.c */
        return cli_bench_karuta_net(argc - 1, argv + 1);
    if (argc > 1 && !strcmp(argv[1], "seek")) /* bench_seek.c: the Play now pool */
        return cli_bench_seek(argc - 1, argv + 1);
    optind = 1;
    while ((c = getopt_long(argc, argv, "s:g:cvh", lo, NULL)) != -1) {
        switch (c) {
        case 's': seconds = atof(optarg); break;
        case 'g': games = atol(optarg); break;
        case 'c': copy = 1; break;
        case 'v': view = 1; break;
        case 'h':
            puts("usage: parlour bench GAME [KEY=VALUE ...] [--seconds S] [--games N] [--copy] [--view]\n"
                 "       parlour bench serve --help   (load for a running `parlour serve`)\n"
                 "Plays random games on one thread and prints games/s, moves/s (seat actions)\n"
                 "and actions/s (moves and chance outcomes). Without options it also measures\n"
                 "the copy-per-action mode and the game's other rule sets where it has them.\n"
                 "  --seconds S  run each measurement S seconds (default 3)\n"
                 "  --games N    play exactly N games instead\n"
                 "  --copy       apply each action to a copy of the state (as a search would)\n"
                 "  --view       also write each state's spectator view (pl_view_json): by the\n"
                 "               game's view_text, then by view_json alone where it has both\n"
                 "parlour bench karuta-net --help: the fairness of real-time karuta over the network\n"
                 "parlour bench seek --help: the Play now pool's pairing under 10,000 seeks");
            return 0;
        default: return 2;
        }
    }
    if (view && copy) {
        fputs("parlour bench: --view and --copy are separate measurements\n", stderr);
        return 2;
    }
    if (optind >= argc) {
        fputs("parlour bench: which game? (parlour list)\n", stderr);
        return 2;
    }
    const pl_game *g = pl_game_find(argv[optind]);
    if (!g) {
        fprintf(stderr, "parlour bench: unknown game '%s'\n", argv[optind]);
        return 2;
    }
    if (view && !g->view_json) {
        fprintf(stderr, "parlour bench: game %s has no JSON view\n", g->id);
        return 2;
    }
    int nopt = argc - optind - 1;
    char **opt = argv + optind + 1;
    bool seeded = false;
    for (int i = 0; i < nopt; i++)
        seeded = seeded || !strncmp(opt[i], "seed=", 5);
    char *words[64];
    int nw = 0;
    for (int i = 0; i < nopt && nw < 62; i++)
        words[nw++] = opt[i];
    char seedw[] = "seed=1";
    if (!seeded)
        words[nw++] = seedw;
    /* The runs: the options given; without options, each of the game's bench
     * sets (pl_game.bench_sets), or the defaults. */
    static const char *const defaults_only[] = {"", NULL};
    const char *const *sets = nopt == 0 && g->bench_sets ? g->bench_sets : defaults_only;
    for (int set = 0; sets[set]; set++) {
        char setw[256];
        snprintf(setw, sizeof setw, "%s", sets[set]);
        char *w2[64];
        int n2 = 0;
        for (int i = 0; i < nw; i++)
            w2[n2++] = words[i];
        char *save = NULL;
        for (char *w = strtok_r(setw, " ", &save); w && n2 < 64; w = strtok_r(NULL, " ", &save))
            w2[n2++] = w;
        pl_buf err = {0};
        pl_match *m = pl_match_new(g, n2, w2, &err);
        if (!m) {
            fprintf(stderr, "parlour bench: %s\n", pl_buf_str(&err));
            pl_buf_free(&err);
            return 2;
        }
        pl_buf label = {0};
        pl_buf_printf(&label, "%s %s", g->id, sets[set]);
        for (int i = 0; i < nopt; i++)
            pl_buf_printf(&label, "%s ", opt[i]);
        /* --view: the game as it is, then without view_text (view_json's
         * jansson tree), where it has both */
        pl_game json_only = *g;
        json_only.view_text = NULL;
        int modes = view ? (g->view_text ? 2 : 1) : (copy || nopt || games) ? 1 : 2;
        for (int mode = 0; mode < modes; mode++) {
            int cp = !view && (copy || mode == 1);
            const pl_game *vg = !view ? NULL : mode == 0 ? g : &json_only;
            bench_result r;
            if (run(g, m, seconds, games, cp, vg, &r) < 0) {
                fputs("parlour bench: out of memory\n", stderr);
                return 1;
            }
            pl_buf l2 = {0};
            pl_buf_printf(&l2, "%s%s", pl_buf_str(&label),
                          cp ? "(copy)" : !vg ? "" : vg->view_text ? "(view_text)" : "(view_json)");
            report(pl_buf_str(&l2), &r);
            pl_buf_free(&l2);
        }
        pl_buf_free(&label);
        pl_match_free(m);
    }
    return 0;
}
