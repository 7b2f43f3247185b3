/* match.c — a game in progress with its history (match.h). */
#include "parlour/match.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "parlour/alloc.h"

static uint64_t system_seed(void)
{
    uint64_t s = 0;
    if (getrandom(&s, sizeof s, 0) != (ssize_t)sizeof s)
        s = (uint64_t)time(NULL) ^ (uint64_t)clock();
    return s & (uint64_t)INT64_MAX;
}

void pl_match_free(pl_match *m)
{
    if (!m)
        return;
    pl_opts_free(&m->opts);
    pl_free(m->state);
    pl_free(m->initial);
    pl_free(m->hist);
    for (int i = 0; i < PL_MAX_SEATS; i++)
        pl_free(m->players[i]);
    pl_free(m);
}

pl_match *pl_match_new(const pl_game *g, int argc, char **argv, pl_buf *err)
{
    pl_match *m = pl_calloc(1, sizeof *m);
    if (!m) {
        pl_buf_puts(err, "out of memory");
        return NULL;
    }
    m->game = g;
    if (pl_opts_parse(&m->opts, g->options, argc, argv, err) < 0) {
        pl_free(m);
        return NULL;
    }
    if (!m->opts.seed_given)
        m->opts.seed = system_seed();
    m->seed = m->opts.seed;
    m->state = pl_calloc(1, g->state_size);
    m->initial = pl_calloc(1, g->state_size);
    if (!m->state || !m->initial) {
        pl_buf_puts(err, "out of memory");
        pl_match_free(m);
        return NULL;
    }
    if (g->init(m->state, &m->opts, m->seed, err) < 0) {
        pl_match_free(m);
        return NULL;
    }
    pl_state_copy(g, m->initial, m->state);
    return m;
}

static int push(pl_match *m, int seat, pl_action a)
{
    if (m->nhist == m->caphist) {
        int cap = m->caphist ? m->caphist * 2 : 64;
        pl_move *h = pl_realloc(m->hist, sizeof *h * (size_t)cap);
        if (!h)
            return -1;
        m->hist = h;
        m->caphist = cap;
    }
    m->hist[m->nhist].seat = seat;
    m->hist[m->nhist].a = a;
    m->nhist++;
    return 0;
}

#ifndef NDEBUG
/* Builds with assertions: the game's own invariants (pl_game.check_state)
 * hold after `seat` played `a`, the last action of `m`; a broken one fails
 * an assertion, its reason written to stderr first. */
static void check_after(const pl_match *m, int seat, pl_action a)
{
    if (!m->game->check_state)
        return;
    pl_buf why = {0};
    if (m->game->check_state(m->state, &why) < 0) {
        fprintf(stderr, "pl_match_play: %s: check_state after action %d (seat %d, code %" PRIu64 "): %s\n",
                m->game->id, m->nhist - 1, seat, (uint64_t)a, pl_buf_str(&why));
        assert(!"pl_match_play: the game's check_state failed (its reason above)");
    }
    pl_buf_free(&why);
}
#endif

int pl_match_play(pl_match *m, int seat, pl_action a, pl_buf *err)
{
    if (pl_check(m->game, m->state, seat, a, err) < 0)
        return -1;
    if (push(m, seat, a) < 0) {
        pl_buf_puts(err, "out of memory");
        return -1;
    }
    m->game->apply(m->state, seat, a);
#ifndef NDEBUG
    check_after(m, seat, a);
#endif
    return 0;
}

int pl_match_play_text(pl_match *m, int seat, const char *text, pl_buf *err)
{
    const pl_game *g = m->game;
    pl_phase ph = g->phase(m->state);
    if (ph == PL_PHASE_OVER) {
        pl_buf_puts(err, "the game is over");
        return -1;
    }
    if (seat < 0) {
        if (ph == PL_PHASE_CHANCE) {
            seat = PL_CHANCE;
        } else {
            seat = pl_sole_actor(g, m->state);
            if (seat < 0) {
                int seats[PL_MAX_SEATS];
                int n = g->actors(m->state, seats);
                pl_buf_puts(err, "several seats act at once: use play SEAT ACTION; seats acting:");
                for (int i = 0; i < n; i++)
                    pl_buf_printf(err, " %d", seats[i]);
                return -1;
            }
        }
    } else if (ph == PL_PHASE_CHANCE) {
        pl_buf_printf(err, "chance acts now, not seat %d; outcomes: ", seat);
        pl_list_legal(g, m->state, PL_CHANCE, 40, err);
        return -1;
    } else if (seat >= g->num_seats(m->state)) {
        pl_buf_printf(err, "no seat %d: seats are 0 to %d", seat, g->num_seats(m->state) - 1);
        return -1;
    }
    pl_action a;
    if (pl_parse_legal(g, m->state, seat, text, &a, err) < 0)
        return -1;
    if (push(m, seat, a) < 0) {
        pl_buf_puts(err, "out of memory");
        return -1;
    }
    g->apply(m->state, seat, a);
    return 0;
}

void pl_match_rng(const pl_match *m, uint64_t salt, pl_rng *r)
{
    pl_rng_seed(r, pl_mix64(m->seed ^ pl_mix64((uint64_t)m->nhist + 1) ^ pl_mix64(salt + 7)));
}

int pl_match_random(pl_match *m, pl_action *out, pl_buf *err)
{
    if (m->game->phase(m->state) != PL_PHASE_CHANCE) {
        pl_buf_puts(err, m->game->phase(m->state) == PL_PHASE_OVER
                             ? "the game is over"
                             : "not a chance phase: a seat must move (see legal)");
        return -1;
    }
    pl_rng r;
    pl_match_rng(m, 0, &r);
    pl_action a = pl_draw_chance(m->game, m->state, &r);
    if (out)
        *out = a;
    return pl_match_play(m, PL_CHANCE, a, err);
}

int pl_match_undo(pl_match *m, pl_buf *err)
{
    if (m->nhist == 0) {
        pl_buf_puts(err, "nothing to undo: the game is at its start");
        return -1;
    }
    m->nhist--;
    pl_state_copy(m->game, m->state, m->initial);
    for (int i = 0; i < m->nhist; i++)
        m->game->apply(m->state, m->hist[i].seat, m->hist[i].a);
    return 0;
}

int pl_match_set_player(pl_match *m, int seat, const char *who)
{
    if (seat < 0 || seat >= PL_MAX_SEATS)
        return -1;
    char *c = pl_strdup(who);
    if (!c)
        return -1;
    pl_free(m->players[seat]);
    m->players[seat] = c;
    return 0;
}

void pl_match_history_for(const pl_match *m, int viewer, pl_buf *out)
{
    const pl_game *g = m->game;
    void *st = pl_malloc(g->state_size);
    if (!st) {
        out->oom = true;
        return;
    }
    pl_state_copy(g, st, m->initial);
    for (int i = 0; i < m->nhist; i++) {
        if (i)
            pl_buf_putc(out, '\n');
        if (m->hist[i].seat == PL_CHANCE)
            pl_buf_puts(out, "chance ");
        else
            pl_buf_printf(out, "%d ", m->hist[i].seat);
        if (viewer >= 0 && g->format_action_for)
            g->format_action_for(st, m->hist[i].seat, m->hist[i].a, viewer, out);
        else
            g->format_action(st, m->hist[i].seat, m->hist[i].a, out);
        g->apply(st, m->hist[i].seat, m->hist[i].a);
    }
    pl_free(st);
}

void pl_match_history(const pl_match *m, pl_buf *out) { pl_match_history_for(m, -1, out); }

void pl_match_status(const pl_match *m, pl_buf *out)
{
    const pl_game *g = m->game;
    pl_phase ph = g->phase(m->state);
    int ns = g->num_seats(m->state);
    if (ph == PL_PHASE_CHANCE) {
        pl_buf_puts(out, "phase chance\n");
    } else if (ph == PL_PHASE_MOVE) {
        int seats[PL_MAX_SEATS];
        int n = g->actors(m->state, seats);
        pl_buf_puts(out, "phase move\n");
        pl_buf_puts(out, n == 1 ? "actor" : "actors");
        for (int i = 0; i < n; i++)
            pl_buf_printf(out, " %d", seats[i]);
        pl_buf_putc(out, '\n');
    } else {
        pl_buf_puts(out, "phase over\n");
    }
    pl_buf_printf(out, "seats %d", ns);
    if (ph == PL_PHASE_OVER) {
        pl_outcome o;
        memset(&o, 0, sizeof o);
        g->outcome(m->state, &o);
        pl_buf_puts(out, "\nscore");
        for (int i = 0; i < o.nseats; i++)
            pl_buf_printf(out, " %ld", o.score[i]);
        if (o.kind == PL_WIN_SEAT)
            pl_buf_printf(out, "\nwinner %d", o.winner);
        else if (o.kind == PL_WIN_TEAM)
            pl_buf_printf(out, "\nwinner team %d", o.winner);
        else
            pl_buf_puts(out, "\nwinner draw");
    }
}

/* The state before history entry `k`: the initial state with the first `k`
 * actions applied, into `st`. */
static void replay_to(const pl_match *m, int k, void *st)
{
    pl_state_copy(m->game, st, m->initial);
    for (int i = 0; i < k; i++)
        m->game->apply(st, m->hist[i].seat, m->hist[i].a);
}

int pl_match_describe(const pl_match *m, int from, int viewer, pl_buf *out)
{
    const pl_game *g = m->game;
    if (!g->describe || from >= m->nhist)
        return m->nhist;
    if (from < 0)
        from = 0;
    void *before = pl_malloc(g->state_size), *after = pl_malloc(g->state_size);
    pl_buf t = {0};
    if (!before || !after) {
        out->oom = true;
    } else {
        replay_to(m, from, after);
        for (int i = from; i < m->nhist; i++) {
            pl_state_copy(g, before, after);
            g->apply(after, m->hist[i].seat, m->hist[i].a);
            pl_buf_clear(&t);
            g->describe(before, m->hist[i].seat, m->hist[i].a, after, viewer, &t);
            if (t.oom)
                out->oom = true;
            if (t.len)
                pl_buf_printf(out, "%s%s", out->len ? " " : "", pl_buf_str(&t));
        }
    }
    pl_buf_free(&t);
    pl_free(before);
    pl_free(after);
    return m->nhist;
}

void pl_match_draw(const pl_match *m, int viewer, pl_canvas *c)
{
    const pl_game *g = m->game;
    g->draw(m->state, viewer, c);
    int k = m->nhist - 1;
    while (k >= 0 && m->hist[k].seat == PL_CHANCE)
        k--;
    if (!g->mark_move || k < 0)
        return;
    void *before = pl_malloc(g->state_size), *after = pl_malloc(g->state_size);
    if (!before || !after) {
        c->oom = true;
    } else {
        replay_to(m, k, before);
        pl_state_copy(g, after, before);
        g->apply(after, m->hist[k].seat, m->hist[k].a);
        g->mark_move(before, m->hist[k].seat, m->hist[k].a, after, viewer, c);
    }
    pl_free(before);
    pl_free(after);
}
