/* hub_hint.c — the `hint` request (docs/web-protocol.md, "hint";
 * docs/hints.md). Prefix hubh_. A seated person in a casual room asks for
 * the strongest move at their decision; the hub checks the request here and
 * queues a job (HUB_JOB_HINT) that a worker thread runs (ai_hint: from the
 * seat's own view only, exact from a loaded table where it holds the
 * position); the answer goes to the asking connection alone, never to
 * another member. Refused: spectators, rated rooms, a game played in real
 * time, a seat not to move, a second hint at the same decision (the rate
 * limit: one a decision and seat, so a hint costs at most one search per
 * move). Thread: the hub's, except hubh_job_run (a worker). */
#include <string.h>

#include "../ai/review_hidden.h"
#include "hub_int.h"
#include "parlour/alloc.h"
#include "parlour/jsonout.h"

/* MCTS iterations a decision of a hidden-card game's review (docs/hints.md:
 * a 4-player Tam Cúc deal of 32 decisions in about 0.3 s of one core). */
#define HUBH_REVIEW_ITERATIONS 1000

/* The seat `c` asks a hint for: `want` (-1: none named) when it is one the
 * connection plays (its own or a partner seat), else the first such seat
 * that acts now, else its own seat. */
static int hint_seat(const hub_room *r, const hub_conn *c, int want)
{
    if (want >= 0)
        return want < r->nseats && hub_seat_owner(r, want) == c->seat ? want : -1;
    for (int s = 0; s < r->nseats; s++)
        if (hub_seat_owner(r, s) == c->seat && pl_is_actor(r->game, r->m->state, s))
            return s;
    return c->seat;
}

void hubh_req_hint(hub *h, hub_conn *c, json_t *root, int64_t now_ms)
{
    (void)now_ms;
    const char *type;
    json_t *jseat = NULL;
    json_error_t je;
    if (json_unpack_ex(root, &je, JSON_STRICT, "{s:s, s?o}", "type", &type, "seat", &jseat) < 0 ||
        (jseat && (!json_is_integer(jseat) || json_integer_value(jseat) < 0 ||
                   json_integer_value(jseat) >= PL_MAX_SEATS))) {
        hub_error(h, c->id, "shape", "hint", "hint: {seat (integer, optional: a seat you play)}: %s",
                  jseat ? "seat is not a seat number" : je.text);
        return;
    }
    hub_room *r = c->room;
    if (!r || c->seat < 0) {
        hub_error(h, c->id, "hint", "hint", r ? "hints are for the players, not for spectators"
                                              : "hint: join a seat first");
        return;
    }
    int s = hint_seat(r, c, jseat ? (int)json_integer_value(jseat) : -1);
    const char *why = s < 0 ? "that is not a seat you play"
                      : r->rated ? "no hints in a rated game"
                      : r->kar || r->game->check ? "no hints in a game played in real time"
                      : hub_room_over(r) ? "the game is over"
                      : !hub_room_started(r) ? "the room waits for its players"
                      : hub_seat_is_ai(r, s) ? "the computer plays your seat"
                      : !pl_is_actor(r->game, r->m->state, s) ? "it is not your turn"
                      : r->seats[s].hint_ver == r->version + 1 ? "one hint a move: you have had this one"
                                                                : NULL;
    if (why) {
        hub_error(h, c->id, "hint", "hint", "%s", why);
        return;
    }
    const void *table = NULL;
    for (int i = 0; i < h->ntables && !table; i++)
        if (h->tables[i].g == r->game)
            table = h->tables[i].t; /* ai_hint falls back to search where it does not hold the position */
    if (!hub_hint_queue(h, r, s, c->id, table)) {
        hub_error(h, c->id, "hint", "hint", "out of memory");
        return;
    }
    r->seats[s].hint_ver = r->version + 1;
}

void hubh_job_run(hub_job *job, uint64_t seed, const void *table)
{
    hub_jobp *j = (hub_jobp *)job;
    ai_hint_params p = {.game_table = table};
    pl_buf err = {0};
    job->failed = ai_hint(job->game, job->state, job->seat, &p, seed, &j->hint, &err) < 0;
    if (!job->failed)
        job->action = j->hint.action;
    pl_buf_free(&err);
}

void hubh_job_done(hub *h, hub_jobp *j)
{
    hub_room *r = hub_room_find(h, j->code);
    hub_conn *c = hub_conn_get(h, j->conn);
    if (!c || !r || c->room != r)
        return; /* gone: nobody to tell */
    if (j->version != r->version || j->j.failed) {
        hub_error(h, c->id, "hint", "hint", j->j.failed ? "no hint could be found" : "the game moved on: ask again");
        r->seats[j->j.seat].hint_ver = j->j.failed ? 0 : r->seats[j->j.seat].hint_ver;
        return;
    }
    const pl_game *g = r->game;
    pl_buf t = {0}, f = {0};
    g->format_action(r->m->state, j->j.seat, j->hint.action, &t);
    int bad = hubv_legal_fields(g, r->m->state, j->j.seat, j->hint.action, &f) || t.oom;
    json_t *fields = bad ? NULL : json_loads(pl_buf_str(&f), 0, NULL);
    json_t *m = fields ? json_pack("{s:s, s:s, s:o, s:i, s:i, s:f, s:b, s:I}", "type", "hint", "action",
                                   pl_buf_str(&t), "fields", fields, "seat", j->j.seat, "seq", r->m->nhist,
                                   "win", j->hint.win, "exact", j->hint.exact, "iterations",
                                   (json_int_t)j->hint.iterations)
                       : NULL;
    pl_buf_free(&t);
    pl_buf_free(&f);
    if (!m) {
        hub_error(h, c->id, "hint", "hint", "out of memory");
        return;
    }
    hub_send(h, c->id, m); /* to the asking connection alone */
}

/* The review of a finished hidden-card game (issue 34 §5): the whole `review`
 * message, {"review":{"kind":"hidden",…},"room":CODE,"type":"review"}, from
 * ai_review_hidden (each decision from its decider's own view), or NULL with
 * a message in `err`. A worker thread (hub_review.c's job): reads only its
 * arguments. */
char *hubh_review_hidden(const pl_game *g, const void *initial, const pl_move *hist, int nhist, uint64_t seed,
                         const char *code, pl_buf *err)
{
    ai_review_hidden_params p = {.iterations = HUBH_REVIEW_ITERATIONS, .threads = 1, .seed = seed};
    ai_review_hidden *r = ai_review_hidden_run(g, initial, hist, nhist, &p, err);
    if (!r)
        return NULL;
    pl_buf out = {0};
    pl_buf_puts(&out, "{\"review\":"); /* keys sorted, as pl_json_dump writes them */
    int bad = ai_review_hidden_json(r, g, initial, hist, &out, err) < 0;
    bad = hubw_answer_tail(&out, code) < 0 || bad;
    ai_review_hidden_free(r);
    if (bad) {
        if (!err->len)
            pl_buf_puts(err, "out of memory");
        pl_buf_free(&out);
        return NULL;
    }
    return out.s; /* the buffer's text, owned by the caller */
}
