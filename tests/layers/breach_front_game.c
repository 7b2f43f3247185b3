/* breach_front_game.c — built as if it were a front end (src/cli, src/engine):
 * it includes a game's internal header, which must not compile
 * (tests/CMakeLists.txt, test layers_front_includes_game). */
#include "../../src/games/karuta/kar.h"

int breach_front_game(void);
int breach_front_game(void) { return 0; }
