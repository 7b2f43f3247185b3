/* fuzz.h — shared helpers of the fuzz targets (tests/fuzz/fuzz_*.c).
 *
 * Each target defines LLVMFuzzerTestOneInput. Built with the `fuzz` preset
 * (clang-14, -fsanitize=fuzzer,address,undefined) it is a libFuzzer binary;
 * otherwise fuzz_main.c gives it a plain `main` that runs corpus files (and a
 * few seconds of deterministic mutations of them) through the same function,
 * so the targets build and run in the normal gcc suite (label `fuzz`).
 *
 * A broken invariant is a crash (FUZZ_CHECK prints and aborts), which is
 * what libFuzzer records as a finding.
 */
#ifndef PARLOUR_FUZZ_H
#define PARLOUR_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "parlour/game.h"
#include "parlour/match.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond, ...)                                                                  \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            fprintf(stderr, "fuzz check failed at %s:%d: %s: ", __FILE__, __LINE__, #cond);    \
            fprintf(stderr, __VA_ARGS__);                                                      \
            fputc('\n', stderr);                                                               \
            abort();                                                                           \
        }                                                                                      \
    } while (0)

/* A byte reader over the input: past the end it yields zeros. */
typedef struct fz_in {
    const uint8_t *p;
    size_t n, i;
} fz_in;

static inline unsigned fz_byte(fz_in *in) { return in->i < in->n ? in->p[in->i++] : 0; }
static inline int fz_done(const fz_in *in) { return in->i >= in->n; }
static inline uint64_t fz_u64(fz_in *in)
{
    uint64_t v = 0;
    for (int k = 0; k < 8; k++)
        v = v << 8 | fz_byte(in);
    return v;
}

/* The game of a per-game target (FUZZ_GAME, a compile definition) or NULL. */
const pl_game *fz_game(const char *id);

/* Builds a match of `g` with options chosen by `sel` among a few fixed sets
 * (defaults first) and `seed`, then plays `steps` random actions (legal
 * moves and chance draws) from the match's generator. Never NULL. */
pl_match *fz_match(const pl_game *g, unsigned sel, uint64_t seed, unsigned steps);

/* Checks what every state of a game must satisfy, whatever the input:
 * phase and actors agree, legal lists within capacity, the position text
 * reads back to the same text, views and pictures for every seat do not
 * crash, and the game's own checker (cbw) agrees. `strict` (states reached
 * by play, not read from a position text) adds: each actor has a legal
 * action (unless the game has a check hook) and every legal action reads
 * back from its own text. Aborts on a failure. */
void fz_check_state(const pl_game *g, const void *st, const void *initial, int strict);

#endif
