/* main.c — the `parlour` program: dispatch to subcommands, and the small
 * ones (list, rules, engine). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "../ai/ai.h"
#include "cli.h"
#include "parlour/match.h"
#include "proto.h"
#include "parlour/registry.h"

static void usage(FILE *f)
{
    fputs("usage: parlour COMMAND [ARGS]\n"
          "Traditional table games: rules engines, opponents, a place to play.\n\n"
          "commands:\n"
          "  list              the games and their options\n"
          "  rules GAME        a short summary of a game's rules, with the options in force\n"
          "  play GAME         play in the terminal (humans and AI seats)\n"
          "  engine            the text protocol on stdin/stdout (docs/protocol.md)\n"
          "  replay RECORD     step through a saved game\n"
          "  bench GAME        random-game throughput (docs/benchmarks.md)\n"
          "  review RECORD     a saved game's review: each decision's loss, luck and skill (docs/review.md)\n"
          "  puzzles make      \"find the best move\" positions from saved games' largest losses\n"
          "  solve GAME        exact solution: the game's own solver or a generic one (docs/solver.md)\n"
          "  arena GAME        matches between computer players: win rates, Elo (docs/ai.md)\n"
          "  karuta kimariji   the kimariji of the hundred poems (study aid)\n"
          "  karuta practice   real-time karuta practice against an AI, or alone (chirashi)\n"
          "  karuta drill      karuta drills: kimariji, listening, card-flipping; your weakest cards\n"
          "  serve             the game server: play in the browser, together (docs/server.md)\n\n"
          "Each command takes --help.\n",
          f);
}

/* Returns 1 when argv asks for help (and prints `text`). */
static int wants_help(int argc, char **argv, const char *text)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(text, stdout);
            return 1;
        }
    return 0;
}

int cli_list(int argc, char **argv)
{
    if (wants_help(argc, argv, "usage: parlour list\nLists every game with its options "
                               "(KEY=DEFAULT, allowed values, meaning).\n"))
        return 0;
    int n;
    const pl_game *const *gs = pl_games(&n);
    for (int i = 0; i < n; i++) {
        pl_buf b = {0};
        pl_opts_describe(gs[i]->options, &b);
        printf("%s — %s\n", gs[i]->id, gs[i]->name);
        const char *s = pl_buf_str(&b);
        while (*s) {
            const char *e = strchr(s, '\n');
            printf("    %.*s\n", (int)(e ? e - s : (long)strlen(s)), s);
            s = e ? e + 1 : s + strlen(s);
        }
        pl_buf_free(&b);
    }
    return 0;
}

int cli_rules(int argc, char **argv)
{
    if (wants_help(argc, argv, "usage: parlour rules GAME [KEY=VALUE ...]\nPrints a short summary "
                               "of the rules and the options in force.\n"))
        return 0;
    if (argc < 2) {
        fputs("parlour rules: which game? (parlour list)\n", stderr);
        return 2;
    }
    const pl_game *g = pl_game_find(argv[1]);
    if (!g) {
        pl_buf b = {0};
        pl_games_list(&b);
        fprintf(stderr, "parlour rules: unknown game '%s'; games: %s\n", argv[1], pl_buf_str(&b));
        pl_buf_free(&b);
        return 2;
    }
    pl_buf err = {0};
    pl_match *m = pl_match_new(g, argc - 2, argv + 2, &err);
    if (!m) {
        fprintf(stderr, "parlour rules: %s\n", pl_buf_str(&err));
        pl_buf_free(&err);
        return 2;
    }
    pl_buf o = {0};
    pl_opts_write(&m->opts, &o);
    pl_buf lv = {0};
    ai_describe_levels(g, &lv);
    printf("%s\n\n%s\n\nOptions in force:\n%s\nComputer players by level (--seat N=ai:LEVEL):\n%s", g->name,
           g->summary, pl_buf_str(&o), pl_buf_str(&lv));
    pl_buf_free(&lv);
    pl_buf_free(&o);
    pl_match_free(m);
    return 0;
}

int cli_engine(int argc, char **argv)
{
    if (wants_help(argc, argv, "usage: parlour engine\nSpeaks the engine protocol "
                               "(docs/protocol.md) on standard input and output.\n"))
        return 0;
    return pl_proto_run(stdin, stdout);
}

/* `parlour play`: karuta goes to its real-time screen (src/cli/karuta.c)
 * unless the options ask for the turn-based one; every game else to tui.c. */
static int play_cmd(int argc, char **argv)
{
    return cli_karuta_play_wanted(argc, argv) ? cli_karuta_play(argc, argv) : cli_play(argc, argv);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    static const struct {
        const char *name;
        int (*fn)(int, char **);
    } cmds[] = {{"list", cli_list},   {"rules", cli_rules},   {"engine", cli_engine},
                {"bench", cli_bench}, {"play", play_cmd},     {"replay", cli_replay}, {"solve", cli_solve},
                {"karuta", cli_karuta}, {"arena", cli_arena}, {"serve", cli_serve}, {"review", cli_review}, {"puzzles", cli_puzzles}};
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        usage(stdout);
        return 0;
    }
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (!strcmp(cmd, cmds[i].name))
            return cmds[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "parlour: unknown command '%s'\n", cmd);
    usage(stderr);
    return 2;
}
