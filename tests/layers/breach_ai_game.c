/* breach_ai_game.c — built as if it were a file of the AI layer (src/ai):
 * it includes a game's internal header, which must not compile
 * (tests/CMakeLists.txt, test layers_ai_includes_game). */
#include "../../src/games/ur/ur.h"

int breach_ai_game(void);
int breach_ai_game(void) { return 0; }
