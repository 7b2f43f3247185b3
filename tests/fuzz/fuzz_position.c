/* fuzz_position.c — the position text (from_text) of every registered game.
 * Input: byte 0 the game (fz_game), byte 1 options, then the text. A rejected text
 * carries a message and leaves the state unchanged; an accepted one gives a
 * state that passes the state checks and survives a few random actions
 * (with no crash or sanitizer report): a parser must not let in a state the
 * rules cannot play. The state the text is read into is the new game of the
 * chosen options (seed 1), from fz_walk's cache. */
#include <string.h>

#include "fuzz.h"
#include "parlour/alloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2 || size > 8192)
        return 0;
    const pl_game *g = fz_game(data[0]);
    const void *initial;
    const void *fresh = fz_walk(g, data[1], 1, 0, &initial);
    char *text = pl_malloc(size - 1);
    FUZZ_CHECK(text != NULL, "out of memory");
    memcpy(text, data + 2, size - 2);
    text[size - 2] = '\0';
    static void *st, *acts_buf; /* reused: one input at a time; room for any game's */
    if (!st) {
        st = pl_malloc(fz_max_state_size());
        acts_buf = pl_malloc(sizeof(pl_action) * PL_MAX_ACTIONS);
        FUZZ_CHECK(st && acts_buf, "out of memory");
    }
    pl_state_copy(g, st, fresh);
    pl_buf err = {0};
    if (g->from_text(st, text, &err) < 0) {
        FUZZ_CHECK(err.len > 0, "rejected without a message");
        FUZZ_CHECK(!memcmp(st, fresh, g->state_size), "a rejected position changed the state");
    } else {
        fz_check_state(g, st, initial, 0);
        /* The successors are drawn by a generator seeded with the state's
         * hash, so they depend on the state alone: not again for a state
         * seen already. */
        pl_action *acts = acts_buf;
        int again = fz_seen(g, st, initial, 2);
        pl_rng r;
        pl_rng_seed(&r, fz_hash(g, st));
        for (int i = 0; i < 4 && !again && g->phase(st) != PL_PHASE_OVER; i++) {
            pl_action a;
            int seat = PL_CHANCE;
            if (g->phase(st) == PL_PHASE_CHANCE) {
                a = pl_draw_chance(g, st, &r);
            } else {
                int seats[PL_MAX_SEATS];
                int na = g->actors(st, seats);
                seat = seats[pl_rng_below(&r, (uint32_t)na)];
                int n = g->legal(st, seat, acts, PL_MAX_ACTIONS);
                FUZZ_CHECK(n <= PL_MAX_ACTIONS, "%d legal actions", n);
                if (n <= 0)
                    break; /* check-hook games may list none */
                a = acts[pl_rng_below(&r, (uint32_t)n)];
            }
            pl_buf_clear(&err);
            FUZZ_CHECK(pl_check(g, st, seat, a, &err) == 0, "listed action illegal: %s", pl_buf_str(&err));
            g->apply(st, seat, a);
            /* Successors are exercised, not judged: Tam Cuc's position text
             * checks cards and ranges, not that the position is reachable,
             * so a successor of an odd position may be one it refuses
             * (docs/reliability.md). */
            pl_buf_clear(&err);
            g->to_text(st, &err);
            for (int v = 0; v < g->num_seats(st); v++)
                g->view(st, v, &err);
        }
    }
    pl_buf_free(&err);
    pl_free(text);
    return 0;
}
