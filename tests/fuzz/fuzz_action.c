/* fuzz_action.c — one game's action notation (parse_action), built once per
 * game (FUZZ_GAME). Input: byte 0 options, byte 1 random steps played
 * first, bytes 2-3 the seed, byte 4 the seat (or chance), then the text.
 * A rejected text carries a message; an accepted action formats without
 * crashing (for every viewer too), and when it is legal it reads back from
 * its own text and its successor state passes the state checks. */
#include <string.h>

#include "fuzz.h"
#include "parlour/alloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    static const pl_game *g;
    if (!g)
        g = fz_game(FUZZ_GAME);
    fz_in in = {data, size, 0};
    unsigned sel = fz_byte(&in), steps = fz_byte(&in) % 96;
    uint64_t seed = fz_byte(&in) << 8;
    seed |= fz_byte(&in);
    unsigned seatb = fz_byte(&in);
    size_t n = size - in.i;
    char *text = pl_malloc(n + 1);
    FUZZ_CHECK(text != NULL, "out of memory");
    if (n)
        memcpy(text, data + in.i, n);
    text[n] = '\0';
    pl_match *m = fz_match(g, sel, seed, steps);
    int ns = g->num_seats(m->state);
    int seat = (int)(seatb % (unsigned)(ns + 1)) - 1; /* -1: chance */
    void *before = pl_malloc(g->state_size);
    FUZZ_CHECK(before != NULL, "out of memory");
    pl_state_copy(g, before, m->state);
    pl_action a;
    pl_buf err = {0}, t = {0}, e2 = {0};
    if (g->parse_action(m->state, seat, text, &a, &err) < 0) {
        FUZZ_CHECK(err.len > 0, "'%s' rejected without a message", text);
    } else {
        g->format_action(m->state, seat, a, &t);
        if (g->format_action_for)
            for (int v = -1; v < ns; v++)
                g->format_action_for(m->state, seat, a, v, &t);
        pl_buf_clear(&err);
        if (pl_check(g, m->state, seat, a, &err) == 0) {
            pl_buf_clear(&t);
            g->format_action(m->state, seat, a, &t);
            pl_action back;
            FUZZ_CHECK(g->parse_action(m->state, seat, pl_buf_str(&t), &back, &e2) == 0 && back == a,
                       "'%s' parsed, formatted as '%s', which does not read back: %s", text,
                       pl_buf_str(&t), pl_buf_str(&e2));
            FUZZ_CHECK(pl_match_play(m, seat, a, &err) == 0, "legal action refused: %s", pl_buf_str(&err));
            fz_check_state(g, m->state, m->initial, 1);
        } else {
            FUZZ_CHECK(err.len > 0, "illegal action without a message");
            FUZZ_CHECK(!memcmp(before, m->state, g->state_size), "a refused action changed the state");
        }
    }
    pl_buf_free(&err);
    pl_buf_free(&t);
    pl_buf_free(&e2);
    pl_free(before);
    pl_free(text);
    pl_match_free(m);
    return 0;
}
