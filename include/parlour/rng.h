/* rng.h — the seeded random generator: xoshiro256** seeded by splitmix64.
 *
 * The same seed gives the same sequence on every machine. Not for secrets.
 * A pl_rng is plain data (copy it to fork a stream); one owner at a time.
 */
#ifndef PARLOUR_RNG_H
#define PARLOUR_RNG_H

#include <stdint.h>

typedef struct pl_rng {
    uint64_t s[4];
} pl_rng;

/* Seeds `r` from `seed` (any value, 0 included). */
void pl_rng_seed(pl_rng *r, uint64_t seed);
/* The next 64 random bits. */
static inline uint64_t pl_rng_next(pl_rng *r)
{
    uint64_t *s = r->s;
    uint64_t x = s[1] * 5;
    uint64_t res = ((x << 7) | (x >> 57)) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = (s[3] << 45) | (s[3] >> 19);
    return res;
}
/* A uniform integer in [0, n), n >= 1, without modulo bias. */
uint32_t pl_rng_below(pl_rng *r, uint32_t n);
/* A uniform double in [0, 1). */
double pl_rng_double(pl_rng *r);
/* splitmix64 step: a good 64-bit mix of `x`, for deriving seeds. */
uint64_t pl_mix64(uint64_t x);
/* FNV-1a of the NUL-terminated string `s` (not mixed: a key for hash tables
 * of names and codes; pl_mix64 it where the low bits must spread). */
uint64_t pl_hash_str(const char *s);

#endif
