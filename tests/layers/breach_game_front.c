/* breach_game_front.c — built as if it were a file of a game (src/games):
 * it includes the engine protocol's header, which must not compile (games
 * know no front end; tests/CMakeLists.txt, test layers_game_includes_front). */
#include "../../src/engine/proto.h"

int breach_game_front(void);
int breach_game_front(void) { return 0; }
