/* hub_rating.c — rated rooms (issue 33 §2; docs/ratings.md, "How the
 * server applies them"): which rooms may be rated, what a rated room's
 * finish asks the store (store_finish_rated: the finish and every member's
 * update in one transaction, on the storage thread), and the `rated`
 * message each member gets once that is durable; and the clock of a rated
 * room: a default move clock, and stalling (letting the clock play
 * HUBG_STALL_MOVES decisions in a row, or running out of total time)
 * counted as leaving (docs/ratings.md, "Stalling").
 *
 * The service thread never reads a rating: the storage thread reads,
 * updates and writes them in the finish's transaction, and this file only
 * describes the seats (account, computer level, team, rank, left) and
 * announces what came back, keeping the message for whoever joins or
 * watches the finished room later in this process (hubg_again).
 * Threading: the service thread's, except hubg_write (the storage thread,
 * on a batch it owns).
 */
#include <stdio.h>
#include <string.h>

#include "hub_int.h"
#include "parlour/alloc.h"
#include "parlour/rating.h"

extern const unsigned char hub_seek_levels_data[]; /* generated/seek_levels_data.c */

/* The computer levels' fixed ratings: data/ratings/levels.txt (pool, level,
 * rating, RD, games: as scripts/level_ratings.py fitted them), built into
 * the server by src/server/seek_levels.cmake — the same lines Play now
 * seats computers by. A level missing there cannot sit in a rated room. */
int hubg_level_rating(const char *pool, const char *level, pl_glicko2 *out)
{
    const char *s = (const char *)hub_seek_levels_data;
    while (level && *s) {
        const char *e = strchr(s, '\n');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        char line[160], key[64], lv[32];
        double rating, rd;
        if (len < sizeof line && *s != '#') {
            memcpy(line, s, len);
            line[len] = 0;
            if (sscanf(line, "%63s %31s %lf %lf", key, lv, &rating, &rd) == 4 && !strcmp(key, pool) &&
                !strcmp(lv, level)) {
                /* a level's volatility is never used: it is not updated */
                *out = (pl_glicko2){rating, rd, 0.06};
                return 0;
            }
        }
        s += len + (e != NULL);
    }
    return -1;
}

int hubg_check(const hub_room *r, pl_buf *why)
{
    pl_rating_pool p = pl_rating_pool_of(r->game, &r->m->opts);
    if (!p.rated) {
        pl_buf_printf(why, "this game with these options is not rated (%s): play it casual", p.reason);
        return -1;
    }
    for (int s = 0; s < r->nseats; s++) {
        const hub_seat *t = &r->seats[s];
        pl_glicko2 g;
        if (t->kind == HUB_SEAT_PARTNER) {
            pl_buf_printf(why, "seat %d: a rated room has one person per seat", s);
            return -1;
        }
        if (t->kind == HUB_SEAT_AI && hubg_level_rating(p.key, t->level, &g) < 0) {
            pl_buf_printf(why, "seat %d: the computer level '%s' has no rating in %s", s, t->level, p.key);
            return -1;
        }
        if (t->kind == HUB_SEAT_PERSON && t->token[0] && !t->account) {
            pl_buf_printf(why, "seat %d: a guest cannot sit in a rated room", s);
            return -1;
        }
    }
    return 0;
}

int hubg_finish(const hub_room *r, hubg_fin *out, pl_buf *err)
{
    pl_rating_pool p = pl_rating_pool_of(r->game, &r->m->opts);
    if (!p.rated) {
        pl_buf_printf(err, "room %s: not a rated pool", r->code);
        return -1;
    }
    pl_rating_seat rs[PL_MAX_SEATS];
    memset(rs, 0, sizeof rs);
    if (pl_rating_result(r->game, r->m->state, rs, r->nseats, err) < 0)
        return -1;
    memset(out, 0, sizeof *out);
    snprintf(out->code, sizeof out->code, "%s", r->code);
    snprintf(out->pool, sizeof out->pool, "%s", p.key);
    out->n = r->nseats;
    int leaver = -1;
    for (int s = 0; s < r->nseats; s++) {
        const hub_seat *t = &r->seats[s];
        store_rated_seat *x = &out->seats[s];
        x->team = rs[s].team;
        x->rank = rs[s].rank;
        if (t->kind == HUB_SEAT_AI) {
            if (hubg_level_rating(p.key, t->level, &x->fixed) < 0) {
                pl_buf_printf(err, "room %s: seat %d's level has no rating", r->code, s);
                return -1;
            }
        } else if (t->kind == HUB_SEAT_PERSON && t->account > 0) {
            x->account = t->account;
            if ((t->covered || t->stalled) && leaver < 0)
                leaver = s; /* gone past the grace time, or stalled: the computer finished the seat */
        } else {
            pl_buf_printf(err, "room %s: seat %d is not an account's", r->code, s);
            return -1;
        }
    }
    /* One leaver at most is rated as one (pl_rating_abandon): with two
     * gone, the first marked; the other keeps the finished game's rank. */
    if (leaver >= 0)
        out->seats[leaver].left = true;
    return 0;
}

void hubg_default_clock(hub_room *r)
{
    if (r->rated && !r->move_s && !r->total_s)
        r->move_s = HUBG_MOVE_S; /* karuta too: its sends and placings are a person's decisions */
}

int hubg_timed_out(hub *h, hub_room *r, int s, int total)
{
    hub_seat *t = &r->seats[hub_seat_owner(r, s)];
    if (!r->rated || t->kind != HUB_SEAT_PERSON || t->stalled)
        return 0;
    if (!total && ++t->timeouts < HUBG_STALL_MOVES)
        return 0;
    t->stalled = 1; /* as one who left past the grace: the computer finishes the seat, rated the leaver */
    if (total)
        fprintf(hub_log(h), "room %s: seat %d stalled (its total clock ran out): rated as leaving\n", r->code,
                hub_seat_owner(r, s));
    else
        fprintf(hub_log(h), "room %s: seat %d stalled (its move clock ran out %d times in a row): rated as leaving\n",
                r->code, hub_seat_owner(r, s), HUBG_STALL_MOVES);
    hubb_queue_config(h, r); /* the mark survives a restart */
    return 1;
}

void hubg_moved(hub_room *r, int s)
{
    r->seats[hub_seat_owner(r, s)].timeouts = 0;
}

int hubg_write(store *s, hubg_fin *f, const char *result, pl_buf *err)
{
    int rc = store_finish_rated(s, f->code, result, f->pool, f->seats, f->n, f->now_ms, err);
    f->written = rc == 0;
    return rc;
}

void hubg_announce(hub *h, const hubg_fin *f)
{
    hub_room *r = hub_room_find(h, f->code);
    if (!r)
        return;
    json_t *seats = json_array();
    for (int s = 0; s < f->n; s++) {
        const store_rated_seat *x = &f->seats[s];
        json_array_append_new(seats, json_pack("{s:b, s:b, s:f, s:f, s:f, s:f}", "person", x->account > 0, "left",
                                               x->left, "before", x->before.rating, "before_rd",
                                               x->before.deviation, "after", x->after.rating, "after_rd",
                                               x->after.deviation));
    }
    json_t *msg = json_pack("{s:s, s:s, s:s, s:o}", "type", "rated", "room", f->code, "pool", f->pool, "seats", seats);
    for (int k = 0; msg && k < r->nmembers; k++)
        hub_send(h, r->members[k], json_incref(msg));
    json_decref(r->rated_msg);
    r->rated_msg = msg; /* kept for those who come later (hubg_again); NULL when out of memory */
}

void hubg_again(hub *h, const hub_room *r, uint64_t conn)
{
    if (r->rated_msg)
        hub_send(h, conn, json_incref(r->rated_msg));
}
