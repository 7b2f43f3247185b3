/* arena.c — `parlour arena`: matches between AI players, with seats
 * rotated, paired seeds, win rates with 95 % intervals and Elo (ai_arena.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ai/ai.h"
#include "../ai/ai_arena.h"
#include "cli.h"
#include "parlour/registry.h"

static const char arena_usage[] =
    "usage: parlour arena GAME [KEY=VALUE ...] --players SPEC1,SPEC2[,...] --games N\n"
    "                     [--threads T] [--seed S] [--records DIR] [--progress]\n"
    "       parlour arena GAME --a SPEC --b SPEC --games N ...\n"
    "Plays N games between computer players (specs as for --seat N=ai:SPEC; see\n"
    "`parlour play --help`). In game g seat i is played by player (i+g) mod P, and each\n"
    "group of P games shares a seed, so every player meets the same luck from every seat;\n"
    "in team games a team is one player. Prints wins, draws and losses per player, the\n"
    "score with its 95 % confidence interval, the game's points of its seats per game\n"
    "(their mean) and the Elo difference of the first player over the second.\n"
    "--threads runs games in parallel (results do not depend on it); --records saves\n"
    "every game's record in DIR. Deterministic for a seed (default 1)\n"
    "when the players use iteration budgets.\n";

static void progress(void *ctx, long done, long total)
{
    (void)ctx;
    fprintf(stderr, "\r%ld/%ld games", done, total);
    if (done == total)
        fputc('\n', stderr);
}

int cli_arena(int argc, char **argv)
{
    static const struct option lo[] = {{"players", required_argument, 0, 'p'},
                                       {"a", required_argument, 0, 'a'},
                                       {"b", required_argument, 0, 'b'},
                                       {"games", required_argument, 0, 'n'},
                                       {"threads", required_argument, 0, 't'},
                                       {"seed", required_argument, 0, 's'},
                                       {"records", required_argument, 0, 'r'},
                                       {"progress", no_argument, 0, 'P'},
                                       {"help", no_argument, 0, 'h'},
                                       {0, 0, 0, 0}};
    ai_arena_opts o;
    memset(&o, 0, sizeof o);
    o.games = 100;
    o.threads = 1;
    o.seed = 1;
    char *players = NULL;
    const char *a = NULL, *b = NULL;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "+h", lo, NULL)) != -1) {
        switch (c) {
        case 'p': players = optarg; break;
        case 'a': a = optarg; break;
        case 'b': b = optarg; break;
        case 'n': o.games = atol(optarg); break;
        case 't': o.threads = atoi(optarg); break;
        case 's': o.seed = strtoull(optarg, NULL, 10); break;
        case 'r': o.records = optarg; break;
        case 'P': o.progress = progress; break;
        case 'h': fputs(arena_usage, stdout); return 0;
        default: fputs(arena_usage, stderr); return 2;
        }
    }
    /* getopt stops at GAME ("+"): options may also follow the game words */
    if (optind >= argc) {
        fputs("parlour arena: which game? (parlour list)\n", stderr);
        return 2;
    }
    const pl_game *g = pl_game_find(argv[optind]);
    if (!g) {
        fprintf(stderr, "parlour arena: unknown game '%s'\n", argv[optind]);
        return 2;
    }
    char *words[64];
    int nw = 0;
    for (int i = optind + 1; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1] == '-') {
            const char *k = argv[i] + 2, *v = i + 1 < argc ? argv[i + 1] : NULL;
            if (!strcmp(k, "progress")) {
                o.progress = progress;
                continue;
            }
            if (!v) {
                fprintf(stderr, "parlour arena: %s needs a value\n", argv[i]);
                return 2;
            }
            i++;
            if (!strcmp(k, "players"))
                players = (char *)v;
            else if (!strcmp(k, "a"))
                a = v;
            else if (!strcmp(k, "b"))
                b = v;
            else if (!strcmp(k, "games"))
                o.games = atol(v);
            else if (!strcmp(k, "threads"))
                o.threads = atoi(v);
            else if (!strcmp(k, "seed"))
                o.seed = strtoull(v, NULL, 10);
            else if (!strcmp(k, "records"))
                o.records = v;
            else {
                fprintf(stderr, "parlour arena: unknown option %s\n%s", argv[i - 1], arena_usage);
                return 2;
            }
        } else if (nw < 64) {
            words[nw++] = argv[i];
        }
    }
    o.g = g;
    o.opts = words;
    o.nopts = nw;
    char copy[1024];
    if (players) {
        snprintf(copy, sizeof copy, "%s", players);
        char *save = NULL;
        for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            /* a spec's own parameters may use ',' too: "mcts:iterations=9,threads=2" */
            if (o.nplayers > 0 && strchr(t, '=') && !strchr(t, ':')) {
                t[-1] = ',';
                continue;
            }
            if (o.nplayers == AI_ARENA_MAXP) {
                fprintf(stderr, "parlour arena: at most %d players\n", AI_ARENA_MAXP);
                return 2;
            }
            o.players[o.nplayers++] = t;
        }
    } else if (a && b) {
        o.players[0] = a;
        o.players[1] = b;
        o.nplayers = 2;
    }
    if (o.nplayers < 2) {
        fprintf(stderr, "parlour arena: name the players: --players SPEC1,SPEC2 (or --a/--b)\n");
        return 2;
    }
    ai_arena_result r;
    pl_buf err = {0};
    if (ai_arena_run(&o, &r, &err) < 0) {
        fprintf(stderr, "parlour arena: %s\n", pl_buf_str(&err));
        pl_buf_free(&err);
        return 1;
    }
    pl_buf_free(&err);
    printf("%s: %ld games, %d seats, seats rotated, seed %llu\n", g->id, r.games, r.nseats,
           (unsigned long long)o.seed);
    printf("%-3s %-32s %6s %6s %6s %8s %16s %8s\n", "", "player", "wins", "draws", "losses", "score", "95% CI",
           "points");
    for (int p = 0; p < o.nplayers; p++)
        printf("%-3c %-32s %6ld %6ld %6ld %7.1f%% %7.1f–%5.1f%% %+8.2f\n", 'A' + p, o.players[p], r.wins[p],
               r.draws[p], r.losses[p], 100 * r.score[p], 100 * (r.score[p] - r.ci95[p]),
               100 * (r.score[p] + r.ci95[p]), r.points[p]);
    if (o.nplayers == 2)
        printf("Elo A−B: %+.0f (95%% CI %+.0f to %+.0f)\n", r.elo, r.elo_lo, r.elo_hi);
    if (r.stopped)
        printf("%ld games stopped at the action limit (counted as draws)\n", r.stopped);
    printf("%.1f s, %.2f s/game, %ld actions\n", r.secs, r.secs / (double)r.games, r.actions);
    return 0;
}
