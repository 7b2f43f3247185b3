/* breach_ai_mcts.c — built as if it were a front end: it includes an
 * internal header of the AI layer, which must not compile (front ends use
 * ai.h; tests/CMakeLists.txt, test layers_front_includes_ai_internal). */
#include "../../src/ai/mcts.h"

int breach_ai_mcts(void);
int breach_ai_mcts(void) { return 0; }
