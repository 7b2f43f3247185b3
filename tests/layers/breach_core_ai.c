/* breach_core_ai.c — built as if it were a file of core (src/core): it
 * includes the AI's header, which must not compile (core knows no AI;
 * tests/CMakeLists.txt, test layers_core_includes_ai). */
#include "../../src/ai/ai.h"

int breach_core_ai(void);
int breach_core_ai(void) { return 0; }
