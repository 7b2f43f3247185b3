/* cli.h — the `parlour` program's subcommands (one file each in src/cli/). */
#ifndef CLI_H
#define CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "parlour/words.h"

struct pl_match;

int cli_list(int argc, char **argv);
int cli_rules(int argc, char **argv);
int cli_engine(int argc, char **argv);
int cli_bench(int argc, char **argv);
/* `parlour bench karuta-net ...`: the fairness of real-time karuta's clock
 * over simulated links (bench_karnet.c); argv[0] is "karuta-net". */
int cli_bench_karuta_net(int argc, char **argv);
/* The same through the server's hub on a virtual clock (bench_karnet_hub.c):
 * `readings` compared readings, the draws from `seed`, seat 1 stamping its
 * touches `liar` ms early (0: honest). The exit status. */
int cli_bench_karuta_net_hub(long readings, uint64_t seed, int jitter, int diff_min, int liar);
/* `parlour bench seek ...`: the Play now pool's pairing under a crowd
 * (bench_seek.c); argv[0] is "seek". The exit status. */
int cli_bench_seek(int argc, char **argv);
int cli_play(int argc, char **argv);
int cli_replay(int argc, char **argv);
int cli_solve(int argc, char **argv);
/* `parlour review RECORD ...`: a saved game's review, exact from a table or
 * estimated (review.c); the exit status. */
int cli_review(int argc, char **argv);
/* The review of a hidden-card game's match `m` (Tam Cúc, City Behind Walls:
 * review_hidden.c) with `iterations` (0: the default), `threads`, `seed`, as
 * JSON or in `lang`'s words; the exit status. */
int cli_review_hidden(const struct pl_match *m, long iterations, int threads, uint64_t seed, int json,
                      pl_lang lang);
/* One line of a review in words (review.c, review_hidden.c): `index` is the
 * history index of the decision the line tells, -1 for the summary's lines. */
typedef void (*cli_review_line)(void *ctx, int index, const char *line);
struct ai_perfect;
/* The review of match `m` in `lang`'s words, a line at a time through `put`
 * (the same lines `parlour review` prints): Ur exact from `table` when it
 * holds every position of the game, else (no table, or one without the
 * game) MCTS estimates, said so in the title line; Tam Cúc and City Behind
 * Walls each decision from its decider's own view (cli_review_hidden_lines).
 * `iterations` (0: the default) and `seed` drive the search. Returns 0, or
 * -1 with a message in `err` (karuta, a game of more than two seats without
 * hidden cards, no memory). Reads `m` and `table` only. */
int cli_review_lines(const struct pl_match *m, const struct ai_perfect *table, long iterations, uint64_t seed,
                     pl_lang lang, cli_review_line put, void *ctx, pl_buf *err);
/* The hidden-card review of `m` (Tam Cúc, City Behind Walls) in words
 * through `put`, as cli_review_lines. Returns 0, or -1 with a message. */
int cli_review_hidden_lines(const struct pl_match *m, long iterations, uint64_t seed, pl_lang lang,
                            cli_review_line put, void *ctx, pl_buf *err);
/* `parlour puzzles make ...`: puzzles from saved games' largest losses
 * (review.c); the exit status. */
int cli_puzzles(int argc, char **argv);
/* `parlour arena GAME ...`: AI against AI with rotated seats (arena.c). */
int cli_arena(int argc, char **argv);
/* `parlour karuta kimariji|practice ...`: karuta study aids and real-time
 * practice in the terminal (karuta.c). */
int cli_karuta(int argc, char **argv);
/* `parlour karuta drill kimariji|listen|flip|weakest ...` (drill.c; argv[0]
 * is "drill"): the karuta drills of docs/drills.md; the exit status. */
int cli_karuta_drill(int argc, char **argv);
/* `parlour serve ...`: the game server until SIGINT/SIGTERM (serve.c); the
 * exit status: 0 stopped cleanly, 1 could not start or failed, 2 bad flags. */
int cli_serve(int argc, char **argv);
/* True when `parlour play` with these arguments (argv[0] "play") is karuta
 * for the real-time screen: the game is karuta and no option asks for the
 * turn-based one (place=manual, rearrange=on, answer=poet, pool=choose,
 * teams=2v2, send=auto, --load, --save, a human or computer seat
 * other than one human at seat 0). Cannot fail. */
bool cli_karuta_play_wanted(int argc, char **argv);
/* `parlour play karuta` in real time (src/cli/karuta.c); the exit status. */
int cli_karuta_play(int argc, char **argv);

#endif
