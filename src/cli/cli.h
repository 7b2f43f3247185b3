/* cli.h — the `parlour` program's subcommands (one file each in src/cli/). */
#ifndef CLI_H
#define CLI_H

int cli_list(int argc, char **argv);
int cli_rules(int argc, char **argv);
int cli_engine(int argc, char **argv);
int cli_bench(int argc, char **argv);
int cli_play(int argc, char **argv);
int cli_replay(int argc, char **argv);
int cli_solve(int argc, char **argv);
/* `parlour arena GAME ...`: AI against AI with rotated seats (arena.c). */
int cli_arena(int argc, char **argv);
/* `parlour karuta kimariji|practice ...`: karuta study aids and real-time
 * practice in the terminal (karuta.c). */
int cli_karuta(int argc, char **argv);

#endif
