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
 *
 * For speed the helpers keep per-process state: the random walks of
 * fz_walk, scratch buffers, and the memo of checked states (fz_seen). All
 * of it is a deterministic function of the inputs seen; an input gets
 * from it what it would compute alone, and skips only checks that passed
 * on the same state before, so a finding reproduces from its input in a
 * fresh process. One thread, one input at a time.
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

/* The registered game that an input's first byte names: byte modulo the
 * number of games, in registry order (src/core/registry.c). Every target
 * that plays a game takes it so: a game added to the registry is fuzzed by
 * the same targets, and its seed corpus files begin with its index. */
const pl_game *fz_game(unsigned byte);
/* The index of `g` in the registry. */
int fz_game_index(const pl_game *g);
/* The largest state_size of the registered games (buffers shared by all). */
size_t fz_max_state_size(void);

/* A new match of `g` with options chosen by `sel` among the first FZ_NSETS
 * of the game's option sets (pl_game.variants, defaults first; the
 * defaults where it lists fewer) and `seed`. Never NULL; the caller frees
 * it. */
pl_match *fz_match(const pl_game *g, unsigned sel, uint64_t seed);

#define FZ_NSETS 4  /* option sets */
#define FZ_SEEDS 256 /* seeds of fz_walk: only seed % FZ_SEEDS counts */
#define FZ_STEPS 96  /* steps of fz_walk: at most FZ_STEPS - 1 */

/* The state after `steps` steps of a random walk from fz_match(g, sel,
 * seed % FZ_SEEDS): chance outcomes drawn and legal actions of an actor
 * chosen, both by a generator seeded with the seed (fewer steps when the
 * game ends first). Each step passes pl_check the first time it is walked.
 * Walks are cached per process (checkpoints of every walk, at most
 * games x FZ_NSETS x FZ_SEEDS of them, at most about 256 MiB), so an input
 * costs at most a few steps; the walk is deterministic, so a finding
 * reproduces in a fresh process. Sets `*initial` to the match's initial
 * state when not NULL. Both pointers are read-only and valid until the next
 * call. Never NULL. */
const void *fz_walk(const pl_game *g, unsigned sel, unsigned seed, unsigned steps, const void **initial);

/* Checks what every state of a game must satisfy, whatever the input:
 * phase and actors agree, legal lists within capacity, the position text
 * reads back to the same text, the views of every seat and one picture
 * (everything, or a seat's, chosen by the state) are drawn without a crash
 * or running out of memory, and the game's own invariants hold
 * (pl_game.check_state, where it has one). `strict` (states reached
 * by play, not read from a position text) adds: each actor has a legal
 * action (unless the game has a check hook) and every legal action reads
 * back from its own text. Aborts on a failure. A state checked already by
 * this process (fz_seen: same state, initial state and `strict`) is not
 * checked again. */
void fz_check_state(const pl_game *g, const void *st, const void *initial, int strict);

/* Whether this process has been asked about the same state (with the same
 * `initial` state, which may be NULL, and `salt`) before; remembers it
 * (64-bit hashes, at most 2^19, forgotten all at once when full). The
 * checks of the targets are deterministic functions of the state they
 * look at, so a state that passed them once would pass again: mutated
 * inputs very often reach a state checked already (a position text
 * written differently, a changed byte the parser ignores). */
int fz_seen(const pl_game *g, const void *st, const void *initial, uint64_t salt);
/* The same for any 64-bit hash (fz_hash, fz_mix): 1 when seen before. */
int fz_seen_hash(uint64_t h);
/* A 64-bit hash of a state of `g`; `h` with `v` mixed in. */
uint64_t fz_hash(const pl_game *g, const void *st);
uint64_t fz_mix(uint64_t h, uint64_t v);
/* A 64-bit hash of the `n` bytes at `p`, `h` mixed in (fz_hash's function). */
uint64_t fz_hash_bytes(const void *p, size_t n, uint64_t h);

/* The cheap part of fz_check_state, for every step of a long input: phase,
 * seats, teams and actors agree, each actor's legal list is within capacity
 * (and not empty when `strict`, unless the game has a check hook), chance
 * probabilities sum to 1, a finished game's outcome covers every seat. No
 * text, view or picture. Aborts on a failure. */
void fz_check_shape(const pl_game *g, const void *st, int strict);

#endif
