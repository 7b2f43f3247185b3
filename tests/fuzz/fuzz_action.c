/* fuzz_action.c — the action notation (parse_action) of every registered
 * game. Input: byte 0 the game (fz_game), byte 1 options, byte 2 random
 * steps played first (mod 96), bytes 3-4 the seed (mod 256: fz_walk), byte
 * 5 the seat (or chance), then the text. A rejected text carries a message and changes
 * nothing; an accepted action formats without crashing (for every viewer
 * too), and when it is legal it reads back from its own text and its
 * successor state passes the state checks; an illegal one is refused with a
 * message and changes nothing. The state before the text comes from
 * fz_walk's cache, so an exec costs the parse and the checks, not a replay
 * of the random steps. */
#include <string.h>

#include "fuzz.h"
#include "parlour/alloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    fz_in in = {data, size, 0};
    const pl_game *g = fz_game(fz_byte(&in));
    unsigned sel = fz_byte(&in), steps = fz_byte(&in) % FZ_STEPS;
    unsigned seed = fz_byte(&in) << 8;
    seed |= fz_byte(&in);
    unsigned seatb = fz_byte(&in);
    size_t n = size - in.i;
    char *text = pl_malloc(n + 1);
    FUZZ_CHECK(text != NULL, "out of memory");
    if (n)
        memcpy(text, data + in.i, n);
    text[n] = '\0';
    const void *initial;
    const void *walked = fz_walk(g, sel, seed, steps, &initial);
    static unsigned char *st, *before; /* reused: one input at a time; room for any game's */
    if (!st) {
        st = pl_malloc(fz_max_state_size());
        before = pl_malloc(fz_max_state_size());
        FUZZ_CHECK(st && before, "out of memory");
    }
    pl_state_copy(g, st, walked);
    pl_state_copy(g, before, walked);
    int ns = g->num_seats(st);
    int seat = (int)(seatb % (unsigned)(ns + 1)) - 1; /* -1: chance */
    pl_action a;
    pl_buf err = {0}, t = {0}, e2 = {0};
    if (g->parse_action(st, seat, text, &a, &err) < 0) {
        FUZZ_CHECK(err.len > 0, "'%s' rejected without a message", text);
        FUZZ_CHECK(!memcmp(before, st, g->state_size), "parsing changed the state");
    } else {
        g->format_action(st, seat, a, &t);
        if (g->format_action_for)
            for (int v = -1; v < ns; v++)
                g->format_action_for(st, seat, a, v, &t);
        pl_buf_clear(&err);
        if (pl_check(g, st, seat, a, &err) == 0) {
            pl_buf_clear(&t);
            g->format_action(st, seat, a, &t);
            pl_action back;
            FUZZ_CHECK(g->parse_action(st, seat, pl_buf_str(&t), &back, &e2) == 0 && back == a,
                       "'%s' parsed, formatted as '%s', which does not read back: %s", text,
                       pl_buf_str(&t), pl_buf_str(&e2));
            FUZZ_CHECK(!memcmp(before, st, g->state_size), "checking changed the state");
            g->apply(st, seat, a); /* pl_check passed: what pl_match_play would do */
            fz_check_state(g, st, initial, 1);
        } else {
            FUZZ_CHECK(err.len > 0, "illegal action without a message");
            FUZZ_CHECK(!memcmp(before, st, g->state_size), "a refused action changed the state");
        }
    }
    pl_buf_free(&err);
    pl_buf_free(&t);
    pl_buf_free(&e2);
    pl_free(text);
    return 0;
}
