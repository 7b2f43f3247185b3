/* game.c — generic helpers over the game interface (game.h): legality
 * checks with explanations, listing legal actions, drawing chance. */
#include "parlour/game.h"

#include <assert.h>
#include <stdlib.h>

#include "parlour/alloc.h"

bool pl_is_actor(const pl_game *g, const void *st, int seat)
{
    if (g->phase(st) != PL_PHASE_MOVE)
        return false;
    int seats[PL_MAX_SEATS];
    int n = g->actors(st, seats);
    assert(n >= 1 && n <= PL_MAX_SEATS); /* phase MOVE: someone acts (game.h) */
    for (int i = 0; i < n; i++)
        if (seats[i] == seat)
            return true;
    return false;
}

int pl_sole_actor(const pl_game *g, const void *st)
{
    if (g->phase(st) != PL_PHASE_MOVE)
        return -1;
    int seats[PL_MAX_SEATS];
    int n = g->actors(st, seats);
    assert(n >= 1 && n <= PL_MAX_SEATS); /* phase MOVE: someone acts (game.h) */
    return n == 1 ? seats[0] : -1;
}

void pl_list_legal(const pl_game *g, const void *st, int seat, int max, pl_buf *out)
{
    pl_action *acts = pl_malloc(sizeof *acts * PL_MAX_ACTIONS);
    if (!acts) {
        out->oom = true;
        return;
    }
    int n;
    if (g->phase(st) == PL_PHASE_CHANCE) {
        double p[PL_MAX_CHANCE];
        n = pl_chance_all(g, st, acts, p);
        seat = PL_CHANCE;
        if (n < 0) {
            pl_buf_puts(out, "random");
            pl_free(acts);
            return;
        }
    } else {
        n = pl_legal_all(g, st, seat, acts);
    }
    for (int i = 0; i < n; i++) {
        if (i == max) {
            pl_buf_printf(out, " … (%d in all)", n);
            break;
        }
        if (i)
            pl_buf_putc(out, ' ');
        g->format_action(st, seat, acts[i], out);
    }
    if (n == 0)
        pl_buf_puts(out, "none");
    pl_free(acts);
}

/* pl_check's work; `*why_end` (when not NULL) gets err's length where the
 * reason ends and the list of actions (if any) begins. */
static int check_at(const pl_game *g, const void *st, int seat, pl_action a, pl_buf *err, size_t *why_end)
{
    size_t end_scratch;
    if (!why_end)
        why_end = &end_scratch;
    pl_phase ph = g->phase(st);
    if (ph == PL_PHASE_OVER) {
        pl_buf_puts(err, "the game is over");
        *why_end = err->len;
        return -1;
    }
    if (ph == PL_PHASE_CHANCE) {
        if (seat != PL_CHANCE) {
            pl_buf_puts(err, "chance acts now (a roll, draw or deal): play a chance outcome or use random");
            *why_end = err->len;
            pl_buf_puts(err, "; outcomes: ");
            pl_list_legal(g, st, PL_CHANCE, 40, err);
            return -1;
        }
        pl_action acts[PL_MAX_CHANCE];
        double p[PL_MAX_CHANCE];
        int n = pl_chance_all(g, st, acts, p);
        if (n < 0) {
            /* Too many to list: only the parser knows the possible outcomes
             * (game.h), so a code is possible iff its text reads back to it.
             * A code that did not come from the parser (pl_match_play, a
             * record) is checked here too. */
            pl_buf t = {0}, e = {0};
            pl_action back = ~a;
            g->format_action(st, PL_CHANCE, a, &t);
            int ok = !t.oom && g->parse_action(st, PL_CHANCE, pl_buf_str(&t), &back, &e) == 0 && back == a;
            if (!ok) {
                pl_buf_printf(err, "not a possible chance outcome now: %s",
                              t.oom || e.oom ? "out of memory" : e.len ? pl_buf_str(&e) : pl_buf_str(&t));
            }
            pl_buf_free(&t);
            pl_buf_free(&e);
            *why_end = err->len;
            return ok ? 0 : -1;
        }
        for (int i = 0; i < n; i++)
            if (acts[i] == a && p[i] > 0)
                return 0;
        pl_buf_puts(err, "not a possible chance outcome now");
        *why_end = err->len;
        pl_buf_puts(err, "; outcomes: ");
        pl_list_legal(g, st, PL_CHANCE, 40, err);
        return -1;
    }
    if (seat == PL_CHANCE) {
        pl_buf_puts(err, "not a chance phase");
        *why_end = err->len;
        return -1;
    }
    if (!pl_is_actor(g, st, seat)) {
        int seats[PL_MAX_SEATS];
        int n = g->actors(st, seats);
        pl_buf_printf(err, "seat %d does not act now; ", seat);
        pl_buf_puts(err, n > 1 ? "seats acting:" : "seat acting:");
        for (int i = 0; i < n; i++)
            pl_buf_printf(err, " %d", seats[i]);
        *why_end = err->len;
        return -1;
    }
    if (g->check) {
        pl_buf why = {0};
        if (g->check(st, seat, a, &why) == 0) {
            pl_buf_free(&why);
            return 0;
        }
        pl_buf_puts(err, "illegal move ");
        g->format_action(st, seat, a, err);
        pl_buf_printf(err, ": %s", pl_buf_str(&why));
        *why_end = err->len;
        pl_buf_puts(err, "; for example: ");
        pl_buf_free(&why);
        pl_list_legal(g, st, seat, 40, err);
        return -1;
    }
    /* Most positions have few actions: try a stack buffer first. */
    pl_action small[256];
    int n = g->legal(st, seat, small, 256);
    pl_action *acts = small;
    assert(n >= 0 && n <= PL_MAX_ACTIONS);
    if (n > 256) { /* `legal` returned the count: a list of that size will do */
        acts = pl_malloc(sizeof *acts * (size_t)n);
        if (!acts) {
            pl_buf_puts(err, "out of memory");
            *why_end = err->len;
            return -1;
        }
        int n2 = g->legal(st, seat, acts, n);
        assert(n2 == n); /* `st` did not change: the same list */
        (void)n2;
    }
    bool found = false;
    for (int i = 0; i < n && !found; i++)
        found = acts[i] == a;
    if (acts != small)
        pl_free(acts);
    if (found)
        return 0;
    pl_buf_puts(err, "illegal move ");
    g->format_action(st, seat, a, err);
    if (g->explain_illegal) {
        pl_buf_puts(err, ": ");
        g->explain_illegal(st, seat, a, err);
    }
    *why_end = err->len;
    pl_buf_puts(err, "; legal: ");
    pl_list_legal(g, st, seat, 40, err);
    return -1;
}

int pl_check(const pl_game *g, const void *st, int seat, pl_action a, pl_buf *err)
{
    return check_at(g, st, seat, a, err, NULL);
}

int pl_parse_legal(const pl_game *g, const void *st, int seat, const char *text,
                   pl_action *a, pl_buf *err)
{
    return pl_parse_legal_why(g, st, seat, text, a, err, NULL);
}

int pl_parse_legal_why(const pl_game *g, const void *st, int seat, const char *text,
                       pl_action *a, pl_buf *err, pl_buf *why)
{
    pl_buf e = {0};
    size_t start = err->len, end;
    if (g->parse_action(st, seat, text, a, &e) < 0) {
        pl_buf_printf(err, "bad action '%s': %s", text, pl_buf_str(&e));
        pl_buf_free(&e);
        end = err->len;
    } else {
        pl_buf_free(&e);
        if (check_at(g, st, seat, *a, err, &end) == 0)
            return 0;
    }
    if (why) {
        for (size_t i = start; i < end && err->s; i++)
            pl_buf_putc(why, err->s[i]);
        if (err->oom)
            why->oom = true;
    }
    return -1;
}

pl_action pl_draw_chance(const pl_game *g, const void *st, pl_rng *rng)
{
    pl_action acts[PL_MAX_CHANCE];
    double p[PL_MAX_CHANCE];
    int n = pl_chance_all(g, st, acts, p);
    if (n < 0)
        return g->sample_chance(st, rng);
    double u = pl_rng_double(rng), acc = 0;
    for (int i = 0; i < n; i++) {
        acc += p[i];
        if (u < acc)
            return acts[i];
    }
    for (int i = n - 1; i >= 0; i--)
        if (p[i] > 0)
            return acts[i];
    return acts[0];
}

void pl_show(const pl_game *g, const void *st, int seat, pl_buf *out)
{
    pl_canvas c = {0};
    g->draw(st, seat, &c);
    if (c.oom)
        out->oom = true;
    pl_canvas_to_text(&c, out);
    pl_canvas_free(&c);
}

void pl_format_action_long(const pl_game *g, const void *st, int seat, pl_action a, pl_buf *out)
{
    if (g->format_action_long)
        g->format_action_long(st, seat, a, out);
    else
        g->format_action(st, seat, a, out);
}
