/* options.h — game options as KEY=VALUE, declared by each game and checked
 * generically.
 *
 * A game declares a table of pl_option_def (ended by a NULL key). The core
 * parses "key=value" words against it: an unknown key, a value outside the
 * allowed set or range, or a repeated key is an error whose message lists
 * what is allowed. Values not given take the declared default. Games then
 * read values with pl_opts_get/pl_opts_int. `seed` is a core option common
 * to every game (see PL_SEED_KEY) and never reaches the game's table.
 * Not thread-safe (one owner).
 */
#ifndef PARLOUR_OPTIONS_H
#define PARLOUR_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "parlour/buf.h"

#define PL_SEED_KEY "seed"

typedef enum pl_opt_kind {
    PL_OPT_ENUM,  /* one of `choices`, written "a|b|c" */
    PL_OPT_INT,   /* an integer in [min, max] */
    PL_OPT_STRING /* free text checked by the game (e.g. a deal) */
} pl_opt_kind;

typedef struct pl_option_def {
    const char *key;
    pl_opt_kind kind;
    const char *def;     /* default value as text ("" allowed for strings) */
    const char *choices; /* PL_OPT_ENUM: "a|b|c" */
    long min, max;       /* PL_OPT_INT */
    const char *help;    /* one line */
} pl_option_def;

typedef struct pl_opts {
    const pl_option_def *defs;
    int n;         /* number of defs */
    char **values; /* values[i] for defs[i], owned */
    bool *given;   /* whether the user set it */
    uint64_t seed;
    bool seed_given;
} pl_opts;

/* Parses `argc` words "key=value" against `defs`. On success returns 0 and
 * fills `o` (free with pl_opts_free). On error returns -1 with a message in
 * `err` naming the bad word and what is allowed; `o` is then empty. */
int pl_opts_parse(pl_opts *o, const pl_option_def *defs, int argc, char **argv, pl_buf *err);
/* Frees what `o` owns; a zeroed or freed pl_opts is a no-op. */
void pl_opts_free(pl_opts *o);
/* Deep copy; returns -1 (dst empty) when memory runs out. */
int pl_opts_copy(pl_opts *dst, const pl_opts *src);
/* Value of `key` (never NULL for a declared key; NULL for an unknown key). */
const char *pl_opts_get(const pl_opts *o, const char *key);
/* Integer value of `key` (0 if absent or not a number). */
long pl_opts_int(const pl_opts *o, const char *key);
/* True when the user set `key` explicitly. */
bool pl_opts_given(const pl_opts *o, const char *key);
/* Index of `val` in the "a|b|c" list of an enum option, -1 if absent. */
int pl_opts_choice(const pl_opts *o, const char *key);
/* Appends "key=value" lines (defaults included, seed last). */
void pl_opts_write(const pl_opts *o, pl_buf *out);
/* Appends one line per option: KEY=DEFAULT, allowed values, help
 * (the protocol's `list_options`). */
void pl_opts_describe(const pl_option_def *defs, pl_buf *out);

#endif
