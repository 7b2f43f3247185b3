/* perfect.c — the perfect player over exact tables (perfect.h). A table is
 * loaded once by its owner and only read afterwards, so one may serve
 * several threads at once. */
#include "perfect.h"

#include <string.h>

#include "parlour/alloc.h"
#include "solve.h"

struct ai_perfect {
    const pl_game *g;
    void *game_table;   /* from g->tables, or NULL */
    solve_table *table; /* from the generic solver, or NULL */
    int borrowed;       /* game_table belongs to the caller of ai_perfect_borrow */
};

ai_perfect *ai_perfect_borrow(const pl_game *g, void *game_table, pl_buf *err)
{
    if (!g->tables || !game_table) {
        pl_buf_printf(err, "perfect: %s has no tables of its own", g->id);
        return NULL;
    }
    ai_perfect *t = pl_calloc(1, sizeof *t);
    if (!t) {
        pl_buf_puts(err, "out of memory");
        return NULL;
    }
    t->g = g;
    t->game_table = game_table;
    t->borrowed = 1;
    return t;
}

ai_perfect *ai_perfect_load(const pl_game *g, const char *path, pl_buf *err)
{
    ai_perfect *t = pl_calloc(1, sizeof *t);
    if (!t) {
        pl_buf_puts(err, "out of memory");
        return NULL;
    }
    t->g = g;
    pl_buf e1 = {0}, e2 = {0};
    if (g->tables)
        t->game_table = g->tables->load(path, &e1);
    if (!t->game_table)
        t->table = solve_load(g, path, &e2);
    if (!t->game_table && !t->table) {
        pl_buf_printf(err, "perfect: %s", pl_buf_str(e1.len ? &e1 : &e2));
        if (e1.len && e2.len && strcmp(pl_buf_str(&e1), pl_buf_str(&e2)))
            pl_buf_printf(err, "; %s", pl_buf_str(&e2)); /* both formats tried, each with its own reason */
        pl_free(t);
        t = NULL;
    }
    pl_buf_free(&e1);
    pl_buf_free(&e2);
    return t;
}

void ai_perfect_free(ai_perfect *t)
{
    if (!t)
        return;
    if (t->game_table && !t->borrowed)
        t->g->tables->free(t->game_table);
    solve_free(t->table);
    pl_free(t);
}

double ai_perfect_value(const ai_perfect *t, const void *st, int seat)
{
    return t->game_table ? t->g->tables->value(t->game_table, st, seat) : solve_lookup(t->table, st, seat);
}

int ai_perfect_choose(const ai_perfect *t, const void *st, int seat, pl_action *out, pl_buf *err)
{
    const pl_game *g = t->g;
    pl_action acts[PL_MAX_ACTIONS]; /* 64 KiB of stack */
    int n = pl_legal_all(g, st, seat, acts);
    if (n < 1) {
        pl_buf_puts(err, "perfect: no legal action to choose from");
        return -1;
    }
    void *child = pl_malloc(g->state_size);
    if (!child) {
        pl_buf_puts(err, "out of memory");
        return -1;
    }
    double best = -1;
    pl_action chosen = acts[0];
    for (int i = 0; i < n; i++) {
        pl_state_copy(g, child, st);
        g->apply(child, seat, acts[i]);
        double v = ai_perfect_value(t, child, seat);
        if (v < 0) {
            pl_buf_puts(err, "perfect: the table does not hold this position (other options?)");
            pl_free(child);
            return -1;
        }
        if (v > best) {
            best = v;
            chosen = acts[i];
        }
    }
    *out = chosen;
    pl_free(child);
    return 0;
}
