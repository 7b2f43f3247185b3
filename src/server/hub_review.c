/* hub_review.c — the `review` request (docs/web-protocol.md, docs/review.md):
 * the review of a finished room's game (src/ai/review.h) from a table loaded
 * with `serve --table` when one holds the game, else an estimate by MCTS.
 * The work is a job (kind HUB_JOB_REVIEW) that a worker runs, never the
 * hub's thread; the hub answers the connection when the job comes back.
 * Thread: the hub's, except hubw_run (a worker: it touches only its job,
 * and reads the tables, which are read-only until hub_free).
 */
#include <stdio.h>
#include <string.h>

#include "../ai/review.h"
#include "hub_int.h"
#include "parlour/alloc.h"
#include "parlour/jsonout.h"
#include "parlour/registry.h"

#define HUBW_MAX_OUT 4        /* review jobs out at once, the whole hub */
#define HUBW_MAX_TABLES 16    /* tables a job tries */
#define HUBW_ITERATIONS 1000  /* estimate: MCTS iterations a decision (docs/review.md: a
                                 7-piece game of 258 decisions in 3.6 s of one core) */

struct hubw_review {
    const pl_game *g;
    void *initial;
    pl_move *hist;
    int nhist;
    const ai_perfect *tables[HUBW_MAX_TABLES]; /* the hub's, read-only */
    int ntables;
    char code[HUB_CODE];
    uint64_t conn;
    uint64_t seed;
    char *answer; /* the whole `review` message, or NULL */
    pl_buf err;   /* why not, when answer is NULL */
};

int hubw_table_add(hub *h, const pl_game *own_game, void *own, const char *path, pl_buf *err)
{
    ai_perfect *t = NULL;
    pl_buf why = {0};
    if (own) {
        t = ai_perfect_borrow(own_game, own, &why);
    } else {
        int n = 0;
        const pl_game *const *games = pl_games(&n);
        for (int i = 0; i < n && !t; i++)
            if (!(games[i]->flags & PL_GAME_HIDDEN)) {
                pl_buf_clear(&why);
                t = ai_perfect_load(games[i], path, &why);
            }
    }
    ai_perfect **a = t ? pl_realloc(h->review_tables, sizeof *a * (size_t)(h->nreview_tables + 1)) : NULL;
    if (!a) {
        pl_buf_printf(err, "table %s: %s", path, why.len ? pl_buf_str(&why) : "out of memory");
        ai_perfect_free(t);
        pl_buf_free(&why);
        return -1;
    }
    h->review_tables = a;
    h->review_tables[h->nreview_tables++] = t;
    pl_buf_free(&why);
    return 0;
}

void hubw_tables_free(hub *h)
{
    for (int i = 0; i < h->nreview_tables; i++)
        ai_perfect_free(h->review_tables[i]);
    pl_free(h->review_tables);
    h->review_tables = NULL;
    h->nreview_tables = 0;
}

void hubw_free(struct hubw_review *rv)
{
    if (!rv)
        return;
    pl_free(rv->initial);
    pl_free(rv->hist);
    pl_free(rv->answer);
    pl_buf_free(&rv->err);
    pl_free(rv);
}

int hubw_answer_tail(pl_buf *out, const char *code)
{
    pl_buf_puts(out, ",\"room\":");
    int bad = *code ? pl_json_put_string(out, code) < 0 : (pl_buf_puts(out, "null"), 0);
    pl_buf_puts(out, ",\"type\":\"review\"}");
    return bad || out->oom ? -1 : 0;
}

void hubw_run(struct hubw_review *rv)
{
    if (rv->g->flags & PL_GAME_HIDDEN) { /* Tam Cúc, City Behind Walls: hub_hint.c */
        rv->answer = hubh_review_hidden(rv->g, rv->initial, rv->hist, rv->nhist, rv->seed, rv->code, &rv->err);
        return;
    }
    ai_review *r = NULL;
    for (int i = 0; i < rv->ntables && !r; i++) { /* the first table that holds the whole game */
        pl_buf_clear(&rv->err);
        r = ai_review_run(rv->g, rv->initial, rv->hist, rv->nhist, rv->tables[i], NULL, &rv->err);
    }
    if (!r) {
        ai_review_params p = {.iterations = HUBW_ITERATIONS, .threads = 1, .seed = rv->seed};
        pl_buf_clear(&rv->err);
        r = ai_review_run(rv->g, rv->initial, rv->hist, rv->nhist, NULL, &p, &rv->err);
    }
    if (!r)
        return;
    pl_buf out = {0};
    pl_buf_puts(&out, "{\"review\":"); /* keys sorted, as pl_json_dump writes them */
    int bad = ai_review_json(r, rv->g, rv->initial, rv->hist, &out, &rv->err) < 0;
    bad = hubw_answer_tail(&out, rv->code) < 0 || bad;
    if (bad) {
        if (!rv->err.len)
            pl_buf_puts(&rv->err, "out of memory");
        pl_buf_free(&out);
    } else {
        rv->answer = out.s; /* the buffer's text, owned from here */
    }
    ai_review_free(r);
}

void hubw_done(hub *h, struct hubw_review *rv)
{
    h->reviews--;
    h->reviewing = 0; /* hub_job_take may give the next review */
    hub_room *r = hub_room_find(h, rv->code);
    if (r && rv->answer && !r->review)
        r->review = pl_strdup(rv->answer); /* the next ask is answered from it (NULL: no memory, computed again) */
    hub_conn *c = hub_conn_get(h, rv->conn);
    if (!c)
        return; /* gone meanwhile */
    c->reviewing = 0;
    if (rv->answer) {
        hub_queue_msg(h, rv->conn, rv->answer, 0, 0, NULL, 0);
        rv->answer = NULL;
    } else {
        hub_error(h, rv->conn, "review", "review", "%s", rv->err.len ? pl_buf_str(&rv->err) : "no review");
    }
}

/* {"type": "review", "room": CODE}: a room in memory that is over, of a
 * two-player game of full information (Ur). */
void hubw_req_review(hub *h, hub_conn *c, json_t *root, int64_t now_ms)
{
    (void)now_ms;
    const char *type, *code;
    json_error_t je;
    if (json_unpack_ex(root, &je, JSON_STRICT, "{s:s, s:s}", "type", &type, "room", &code) < 0) {
        hub_error(h, c->id, "shape", "review", "review: {room: CODE}: %s", je.text);
        return;
    }
    hub_room *r = strlen(code) < HUB_CODE ? hub_room_find(h, code) : NULL;
    if (!r) {
        if (hubb_room_ask(h, c, code, root))
            return;
        hub_error(h, c->id, "room", "review", "no such room (a finished room is kept %d minutes after the last one "
                  "leaves)", HUB_KEEP_OVER_MS / 60000);
        return;
    }
    if (!hub_room_over(r)) {
        hub_error(h, c->id, "over", "review", "a review comes only after the game");
        return;
    }
    if (r->review) { /* computed before: the same answer, no work */
        char *text = pl_strdup(r->review);
        if (text)
            hub_queue_msg(h, c->id, text, 0, 0, NULL, 0);
        else
            hub_error(h, c->id, "storage", "review", "out of memory");
        return;
    }
    hubw_queue(h, c, r->m, r->code, r->kar != NULL);
}

int hubw_queue(hub *h, hub_conn *c, const pl_match *m, const char *code, bool realtime)
{
    const pl_game *g = m->game;
    if ((g->flags & PL_GAME_HIDDEN) ? realtime || g->check != NULL : g->num_seats(m->initial) != 2) {
        hub_error(h, c->id, "game", "review", "reviews are for Ur, Tam Cúc and City Behind Walls (not karuta)");
        return -1;
    }
    if (c->reviewing) { /* one at a time: a connection cannot hold every review slot */
        hub_error(h, c->id, "rate", "review", "your last review is still being computed: wait for it");
        return -1;
    }
    if (h->reviews >= HUBW_MAX_OUT) {
        hub_error(h, c->id, "rate", "review", "the server is reviewing %d games: ask again in a few seconds",
                  h->reviews);
        return -1;
    }
    hub_jobp *j = pl_calloc(1, sizeof *j);
    struct hubw_review *rv = pl_calloc(1, sizeof *rv);
    if (rv) {
        rv->initial = pl_malloc(g->state_size);
        rv->hist = pl_malloc(sizeof(pl_move) * ((size_t)m->nhist + 1));
    }
    if (!j || !rv || !rv->initial || !rv->hist) {
        pl_free(j);
        hubw_free(rv);
        hub_error(h, c->id, "storage", "review", "out of memory");
        return -1;
    }
    rv->g = g;
    pl_state_copy(g, rv->initial, m->initial);
    memcpy(rv->hist, m->hist, sizeof(pl_move) * (size_t)m->nhist);
    rv->nhist = m->nhist;
    for (int i = 0; i < h->nreview_tables && rv->ntables < HUBW_MAX_TABLES; i++)
        rv->tables[rv->ntables++] = h->review_tables[i]; /* each checks its game's positions itself */
    snprintf(rv->code, HUB_CODE, "%s", code ? code : "");
    rv->conn = c->id;
    rv->seed = m->seed;
    j->j = (hub_job){.id = h->job_seq++, .game = g, .seat = -1, .review = rv};
    memcpy(j->code, rv->code, HUB_CODE);
    j->nhist = m->nhist;
    j->kind = HUB_JOB_REVIEW;
    if (h->jobs_tail)
        h->jobs_tail->next = j;
    else
        h->jobs = j;
    h->jobs_tail = j;
    h->reviews++;
    c->reviewing = 1;
    return 0;
}
