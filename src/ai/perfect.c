/* perfect.c — the perfect player over exact tables (perfect.h). */
#include "perfect.h"

#include <string.h>

#include "parlour/alloc.h"
#include "solve.h"

static struct {
    char *path;
    const pl_game *g;
    void *game_table;   /* from g->tables */
    solve_table *table; /* from the generic solver */
} cache;

void ai_perfect_release(void)
{
    if (cache.game_table)
        cache.g->tables->free(cache.game_table);
    solve_free(cache.table);
    pl_free(cache.path);
    memset(&cache, 0, sizeof cache);
}

static int ensure(const pl_game *g, const char *path, pl_buf *err)
{
    if (cache.path && cache.g == g && !strcmp(cache.path, path))
        return 0;
    ai_perfect_release();
    pl_buf e1 = {0}, e2 = {0};
    if (g->tables)
        cache.game_table = g->tables->load(path, &e1);
    if (!cache.game_table)
        cache.table = solve_load(g, path, &e2);
    if (!cache.game_table && !cache.table) {
        pl_buf_printf(err, "perfect: %s", pl_buf_str(e1.len ? &e1 : &e2));
        if (e1.len && e2.len)
            pl_buf_printf(err, "; %s", pl_buf_str(&e2));
        pl_buf_free(&e1);
        pl_buf_free(&e2);
        return -1;
    }
    pl_buf_free(&e1);
    pl_buf_free(&e2);
    cache.g = g;
    cache.path = pl_strdup(path);
    if (!cache.path) {
        ai_perfect_release();
        pl_buf_puts(err, "out of memory");
        return -1;
    }
    return 0;
}

double ai_perfect_value(const pl_game *g, const void *st, int seat, const char *path, pl_buf *err)
{
    if (ensure(g, path, err) < 0)
        return -1;
    return cache.game_table ? g->tables->value(cache.game_table, st, seat)
                            : solve_lookup(cache.table, st, seat);
}

int ai_perfect_choose(const pl_game *g, const void *st, int seat, const char *path, pl_action *out,
                      pl_buf *err)
{
    if (ensure(g, path, err) < 0)
        return -1;
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
    for (int i = 0; i < n; i++) {
        pl_state_copy(g, child, st);
        g->apply(child, seat, acts[i]);
        double v = ai_perfect_value(g, child, seat, path, err);
        if (v < 0) {
            pl_buf_puts(err, "perfect: the table does not hold this position (other options?)");
            pl_free(child);
            return -1;
        }
        if (v > best) {
            best = v;
            *out = acts[i];
        }
    }
    pl_free(child);
    return 0;
}
