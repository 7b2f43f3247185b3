/* hub_replay.c — replays: the `replay` and `replay_part` requests, a
 * finished (or uploaded) match told step by step with each step's view and
 * legal actions and, from the solved tables loaded (hub_table_load), the
 * exact chance of each. Thread: the hub's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hub_int.h"
#include "parlour/alloc.h"
#include "parlour/jsonout.h"
#include "parlour/record.h"
#include "parlour/registry.h"

#define HUB_MAX_STEPS 5000 /* steps of one replay: the first 4999 actions */
#define HUB_MAX_REPLAY (3 << 20) /* bytes of one replay's steps: under net's 4 MB queue for a client */
#define HUB_MAX_PART 6000 /* bytes of one replay_part's text */
#define HUB_MAX_UPLOAD (512 * 1024) /* bytes of one uploaded record */

int hub_table_load(hub *h, const char *path, pl_buf *err)
{
    int n = 0;
    const pl_game *const *games = pl_games(&n);
    pl_buf why = {0};
    int tried = 0;
    for (int i = 0; i < n; i++) {
        const pl_game *g = games[i];
        if (!g->tables)
            continue;
        tried++;
        pl_buf e = {0};
        void *t = g->tables->load(path, &e);
        if (!t) {
            pl_buf_printf(&why, "; %s: %s", g->id, pl_buf_str(&e));
            pl_buf_free(&e);
            continue;
        }
        pl_buf_free(&e);
        hub_table *a = pl_realloc(h->tables, sizeof *a * (size_t)(h->ntables + 1));
        if (!a) {
            g->tables->free(t);
            pl_buf_free(&why);
            pl_buf_puts(err, "out of memory");
            return -1;
        }
        h->tables = a;
        h->tables[h->ntables++] = (hub_table){g, t};
        pl_buf_free(&why);
        return hubw_table_add(h, g, t, path, err); /* reviews read it too (borrowed) */
    }
    pl_buf gen = {0};
    if (hubw_table_add(h, NULL, NULL, path, &gen) == 0) { /* a generic solver's table: reviews only */
        pl_buf_free(&why);
        pl_buf_free(&gen);
        return 0;
    }
    pl_buf_free(&gen);
    pl_buf_printf(err, "table %s: %s%s", path, tried ? "no game takes it" : "no game has tables", pl_buf_str(&why));
    pl_buf_free(&why);
    return -1;
}

/* The exact chance that `seat` wins once it played `a` at `st`, from the
 * first loaded table of `g` that covers the state after it; NULL when none
 * does (or the state after is not between decisions). */
static json_t *action_chance(const hub *h, const pl_game *g, const void *st, int seat, pl_action a, void *scratch)
{
    int has = 0;
    if (!scratch)
        return json_null();
    for (int i = 0; i < h->ntables && !has; i++)
        has = h->tables[i].g == g;
    if (!has)
        return json_null();
    pl_state_copy(g, scratch, st);
    g->apply(scratch, seat, a);
    if (g->phase(scratch) == PL_PHASE_MOVE)
        return json_null();
    for (int i = 0; i < h->ntables; i++) {
        if (h->tables[i].g != g)
            continue;
        double v = g->tables->value(h->tables[i].t, scratch, seat);
        if (v >= 0)
            return json_real(v);
    }
    return json_null();
}

/* Appends "," unless `*first` (then clears it). */
static void list_sep(pl_buf *out, int *first)
{
    if (!*first)
        pl_buf_putc(out, ',');
    *first = 0;
}

/* Appends the legal actions at `st` of every seat that acts, each with its
 * chance (null throughout when `scratch` is NULL), as a JSON array with
 * sorted keys: [{"action":A,"chance":C,"long":L,"seat":S},...]. An action
 * whose texts are not UTF-8 is left out. */
static void replay_legal(const hub *h, const pl_game *g, const void *st, int nseats, void *scratch, pl_buf *out)
{
    pl_buf_putc(out, '[');
    int first = 1;
    for (int s = 0; s < nseats && g->phase(st) == PL_PHASE_MOVE; s++) {
        if (!pl_is_actor(g, st, s))
            continue;
        pl_action acts[HUB_MAX_LEGAL];
        int n = g->legal(st, s, acts, HUB_MAX_LEGAL);
        for (int i = 0; i < n && i < HUB_MAX_LEGAL; i++) {
            pl_buf t = {0}, l = {0};
            g->format_action(st, s, acts[i], &t);
            pl_format_action_long(g, st, s, acts[i], &l);
            json_t *chance = action_chance(h, g, st, s, acts[i], scratch);
            size_t mark = out->len;
            int was_first = first;
            list_sep(out, &first);
            pl_buf_puts(out, "{\"action\":");
            int bad = pl_json_put_string(out, pl_buf_str(&t)) < 0;
            pl_buf_puts(out, ",\"chance\":");
            bad = bad || !chance || pl_json_dump(chance, out) < 0;
            pl_buf_puts(out, ",\"fields\":");
            bad = bad || hubv_legal_fields(g, st, s, acts[i], out);
            pl_buf_puts(out, ",\"long\":");
            bad = bad || pl_json_put_string(out, pl_buf_str(&l)) < 0;
            pl_buf_puts(out, ",\"seat\":");
            pl_json_put_int(out, s);
            pl_buf_putc(out, '}');
            if (bad) { /* as json_pack refuses it */
                pl_buf_truncate(out, mark);
                first = was_first;
            }
            json_decref(chance);
            pl_buf_free(&t);
            pl_buf_free(&l);
        }
    }
    pl_buf_putc(out, ']');
}

/* Appends step `i`'s entry of the action `mv` (from `before` to `after`) as
 * `seat` reads it: {"said":D,"seat":S,"seq":i-1,"text":T}, or null when a
 * text is missing or not UTF-8. Returns 0, or -1 when memory ran out. */
static int replay_entry(const hub_room *fr, int i, const pl_move *mv, const void *before, const void *after, int seat,
                        pl_buf *out)
{
    hub_entry e;
    if (hub_entry_make(fr, &e, before, mv->seat, mv->a, after) < 0) {
        hub_entry_free(&e);
        return -1;
    }
    size_t mark = out->len;
    const char *said = e.said[seat + 1], *text = e.text[seat + 1], *events = e.events[seat + 1];
    int bad = !said || !text || !events;
    if (!bad) {
        pl_buf_puts(out, "{\"events\":");
        pl_buf_puts(out, events); /* already JSON text */
        pl_buf_puts(out, ",\"said\":");
        bad = pl_json_put_string(out, said) < 0;
        pl_buf_puts(out, ",\"seat\":");
        pl_json_put_int(out, mv->seat);
        pl_buf_puts(out, ",\"seq\":");
        pl_json_put_int(out, i - 1);
        pl_buf_puts(out, ",\"text\":");
        bad = bad || pl_json_put_string(out, text) < 0;
        pl_buf_putc(out, '}');
    }
    if (bad) {
        pl_buf_truncate(out, mark);
        pl_buf_puts(out, "null");
    }
    hub_entry_free(&e);
    return 0;
}

/* The `replay` answer for the finished (or uploaded) match `m` as `seat`
 * (-1 spectator) sees it: one step per point of its history, at most
 * HUB_MAX_STEPS steps and HUB_MAX_REPLAY bytes of them ("truncated" true
 * when cut). `code` is the room, NULL for an upload. The text (compact,
 * sorted keys: what pl_json_dump writes of the same object) is written
 * directly, each view as pl_view_json writes it; NULL when memory ran out.
 * Owned by the caller (pl_free). */
static char *replay_text(const hub *h, const pl_match *m, int seat, const char *code)
{
    const pl_game *g = m->game;
    int over = g->phase(m->state) == PL_PHASE_OVER; /* exact chances only for a game that is over */
    void *st = pl_malloc(g->state_size), *before = pl_malloc(g->state_size), *scratch = pl_malloc(g->state_size);
    pl_buf out = {0};
    if (!st || !before || !scratch) {
        pl_free(st);
        pl_free(before);
        pl_free(scratch);
        return NULL;
    }
    hub_room fr; /* hub_entry_make reads only the game and the number of seats */
    memset(&fr, 0, sizeof fr);
    fr.game = g;
    fr.nseats = g->num_seats(m->initial);
    pl_state_copy(g, st, m->initial);
    int n = m->nhist < HUB_MAX_STEPS - 1 ? m->nhist : HUB_MAX_STEPS - 1;
    int ok = 1, cut = n < m->nhist;
    pl_buf_puts(&out, "{\"actions\":");
    pl_json_put_int(&out, m->nhist);
    pl_buf_puts(&out, ",\"game\":");
    ok = pl_json_put_string(&out, g->id) == 0;
    pl_buf_puts(&out, over ? ",\"over\":true,\"room\":" : ",\"over\":false,\"room\":");
    if (code)
        ok = ok && pl_json_put_string(&out, code) == 0;
    else
        pl_buf_puts(&out, "null");
    pl_buf_puts(&out, ",\"seat\":");
    pl_json_put_int(&out, seat);
    pl_buf_puts(&out, ",\"steps\":[");
    size_t bytes = 0;
    for (int i = 0; i <= n && ok && !out.oom; i++) {
        size_t mark = out.len;
        if (i > 0)
            pl_buf_putc(&out, ',');
        size_t start = out.len;
        pl_buf_puts(&out, "{\"entry\":");
        if (i > 0) {
            const pl_move *mv = &m->hist[i - 1];
            pl_state_copy(g, before, st);
            g->apply(st, mv->seat, mv->a);
            if (replay_entry(&fr, i, mv, before, st, seat, &out) < 0)
                ok = 0;
        } else {
            pl_buf_puts(&out, "null");
        }
        pl_buf_puts(&out, ",\"legal\":");
        replay_legal(h, g, st, fr.nseats, over ? scratch : NULL, &out);
        pl_buf_puts(&out, ",\"seq\":");
        pl_json_put_int(&out, i);
        pl_buf_puts(&out, ",\"view\":");
        size_t vmark = out.len;
        pl_buf err = {0};
        if (pl_view_json(g, st, seat, &out, &err) < 0) {
            pl_buf_truncate(&out, vmark);
            pl_buf_puts(&out, "null");
        }
        pl_buf_free(&err);
        pl_buf_putc(&out, '}');
        bytes += out.len - start;
        if (i > 0 && bytes > HUB_MAX_REPLAY) { /* the first step always goes */
            pl_buf_truncate(&out, mark);
            cut = 1;
            break;
        }
    }
    pl_free(st);
    pl_free(before);
    pl_free(scratch);
    pl_buf_puts(&out, cut ? "],\"truncated\":true,\"type\":\"replay\"}" : "],\"truncated\":false,\"type\":\"replay\"}");
    if (!ok || out.oom) {
        pl_buf_free(&out);
        return NULL;
    }
    return out.s;
}

/* Replays cost one view per step and a legal list per decision: a
 * connection may have at most cfg.replay_burst steps built at once, refilled
 * at cfg.replay_rate steps a second, so a client asking for long replays over
 * and over cannot take the service thread. Takes `steps` from connection
 * `c`'s budget: 0, or -1 after answering `rate` (nothing built). */
static int replay_budget(hub *h, hub_conn *c, int steps, const char *request)
{
    int64_t now = hub_now(h);
    double burst = h->cfg.replay_burst, rate = h->cfg.replay_rate;
    c->replay_steps += (double)(now - c->replay_ms) * rate / 1000.0;
    if (c->replay_steps > burst)
        c->replay_steps = burst;
    c->replay_ms = now;
    if (steps > HUB_MAX_STEPS)
        steps = HUB_MAX_STEPS;
    if ((double)steps > c->replay_steps) {
        hub_error(h, c->id, "rate", request, "replays are limited to %.0f steps at once, %.0f more a second: wait "
                  "%.1f s", burst, rate, ((double)steps - c->replay_steps) / rate);
        return -1;
    }
    c->replay_steps -= steps;
    return 0;
}

/* {"type": "replay", "room": CODE, "seat": S}: a room in memory that is over. */
void hubr_req_replay(hub *h, hub_conn *c, json_t *root, int64_t now_ms)
{
    (void)now_ms;
    const char *type, *code;
    int seat = -2;
    json_error_t je;
    if (json_unpack_ex(root, &je, JSON_STRICT, "{s:s, s:s, s:i}", "type", &type, "room", &code, "seat", &seat) < 0) {
        hub_error(h, c->id, "shape", "replay", "replay: {room: CODE, seat: -1 (spectator) or a seat}: %s", je.text);
        return;
    }
    hub_room *r = strlen(code) < HUB_CODE ? hub_room_find(h, code) : NULL;
    if (!r) {
        if (hubb_room_ask(h, c, code, root))
            return;
        if (h->cfg.on_demand)
            hub_error(h, c->id, "room", "replay", "no room '%s'", code);
        else
            hub_error(h, c->id, "room", "replay", "no such room (a finished room is kept %d minutes after the last "
                      "one leaves)", HUB_KEEP_OVER_MS / 60000);
        return;
    }
    if (!hub_room_over(r)) {
        hub_error(h, c->id, "over", "replay", "a replay comes only after the game");
        return;
    }
    if (seat < -1 || seat >= r->nseats) {
        hub_error(h, c->id, "seat", "replay", "replay: seat is -1 (spectator) or 0 to %d", r->nseats - 1);
        return;
    }
    if (replay_budget(h, c, r->m->nhist + 1, "replay") < 0)
        return;
    char *text = replay_text(h, r->m, seat, r->code);
    if (!text) {
        hub_error(h, c->id, "storage", "replay", "out of memory");
        return;
    }
    hub_queue_msg(h, c->id, text, 0, hub_hold_tag(h), c->room, 0); /* as hub_send queues it */
}

static void upload_drop(hub_conn *c)
{
    pl_free(c->up);
    c->up = NULL;
    c->uplen = 0;
}

/* {"type": "replay_part", "data": TEXT, "last": BOOL, "seat": S (optional,
 * read on the last part, -1 by default), "review": true (optional, on the
 * last part)}: a referee's record uploaded in parts; the last one loads it
 * and answers `replay` (room null) as seat S sees it, or with `review`
 * queues its review (hub_review.c: the same jobs and limit as a room's;
 * only a game that is over), answered `review` with room null. */
void hubr_req_replay_part(hub *h, hub_conn *c, json_t *root, int64_t now_ms)
{
    (void)now_ms;
    const char *type, *data;
    size_t dlen = 0;
    int last = 0, seat = -1, review = 0;
    json_error_t je;
    int bad = json_unpack_ex(root, &je, JSON_STRICT, "{s:s, s:s%, s:b, s?i, s?b}", "type", &type, "data", &data,
                             &dlen, "last", &last, "seat", &seat, "review", &review) < 0;
    if (bad || (review && (!last || json_object_get(root, "seat")))) {
        upload_drop(c);
        hub_error(h, c->id, "shape", "replay_part",
                  "replay_part: {data: TEXT, last: BOOL, seat (optional), review: true (optional, on the last part, "
                  "without seat)} (upload dropped)%s%s", bad ? ": " : "", bad ? je.text : "");
        return;
    }
    if (dlen > HUB_MAX_PART || c->uplen + dlen > HUB_MAX_UPLOAD || memchr(data, 0, dlen)) {
        upload_drop(c);
        hub_error(h, c->id, "too-long", "replay_part",
                  "a part is at most %d bytes of text (no NUL), a record at most %d bytes: upload dropped",
                  HUB_MAX_PART, HUB_MAX_UPLOAD);
        return;
    }
    char *up = pl_realloc(c->up, c->uplen + dlen + 1);
    if (!up) {
        upload_drop(c);
        hub_error(h, c->id, "storage", "replay_part", "out of memory: upload dropped");
        return;
    }
    c->up = up;
    memcpy(c->up + c->uplen, data, dlen);
    c->uplen += dlen;
    c->up[c->uplen] = 0;
    if (!last)
        return;
    pl_buf err = {0};
    pl_match *m = pl_record_read(c->up, &err);
    upload_drop(c);
    if (!m) {
        hub_error(h, c->id, "record", "replay_part", "%s", pl_buf_str(&err));
        pl_buf_free(&err);
        return;
    }
    pl_buf_free(&err);
    if (review) { /* the record's review: a worker's job, never this thread */
        if (m->game->phase(m->state) != PL_PHASE_OVER)
            hub_error(h, c->id, "over", "review", "a review comes only after the game: this record's game is not over");
        else
            hubw_queue(h, c, m, NULL, false);
        pl_match_free(m);
        return;
    }
    int nseats = m->game->num_seats(m->initial);
    if (seat < -1 || seat >= nseats) {
        pl_match_free(m);
        hub_error(h, c->id, "seat", "replay_part", "replay_part: seat is -1 (spectator) or 0 to %d", nseats - 1);
        return;
    }
    if (replay_budget(h, c, m->nhist + 1, "replay_part") < 0) {
        pl_match_free(m);
        return;
    }
    char *text = replay_text(h, m, seat, NULL);
    pl_match_free(m);
    if (!text) {
        hub_error(h, c->id, "storage", "replay_part", "out of memory");
        return;
    }
    hub_queue_msg(h, c->id, text, 0, 0, NULL, 0); /* as send_now queues it */
}

/* Whether `rec`, the referee's record of `m` with its seed replaced, replays
 * to the position of `m` as every seat sees it: then nothing at the start
 * came from the seed, and the record without the real one (which would tell
 * the throws to come) is still the whole game so far. */
static int replays_alike(const pl_match *m, json_t *rec)
{
    char *text = json_dumps(rec, JSON_COMPACT | JSON_SORT_KEYS);
    if (!text)
        return 0;
    pl_buf err = {0};
    pl_match *m2 = pl_record_read(text, &err);
    free(text);
    pl_buf_free(&err);
    if (!m2)
        return 0;
    const pl_game *g = m->game;
    int same = m2->nhist == m->nhist;
    int n = g->num_seats(m->state);
    for (int v = -1; same && v < n; v++) {
        pl_buf a = {0}, b = {0};
        g->view(m->state, v, &a);
        g->view(m2->state, v, &b);
        same = !a.oom && !b.oom && !strcmp(pl_buf_str(&a), pl_buf_str(&b));
        pl_buf_free(&a);
        pl_buf_free(&b);
    }
    pl_match_free(m2);
    return same;
}

/* 63 bits of `fresh`, never the room's seed. */
static json_int_t other_seed(const pl_match *m, uint64_t fresh)
{
    uint64_t s = fresh >> 1;
    return (json_int_t)(s == m->seed ? s ^ 1 : s);
}

json_t *hubr_seat_record(hub_room *r, int seat, uint64_t fresh_seed)
{
    const pl_game *g = r->game;
    pl_buf out = {0};
    json_t *rec = NULL;
    if (!(g->flags & PL_GAME_HIDDEN) && !hub_room_over(r)) { /* nothing hidden: the whole record */
        if (pl_record_write(r->m, &out) == 0)
            rec = json_loads(pl_buf_str(&out), 0, NULL);
        pl_buf_free(&out);
        const char *deal = json_string_value(json_object_get(json_object_get(rec, "options"), "deal"));
        if (rec && !(deal && *deal) && /* a deal= chosen at the start may tell what is to come */
            json_object_set_new(rec, "seed", json_integer(other_seed(r->m, fresh_seed))) == 0 &&
            replays_alike(r->m, rec))
            return rec;
        json_decref(rec);
        rec = NULL;
    }
    if (pl_record_write_for(r->m, seat, &out) == 0)
        rec = json_loads(pl_buf_str(&out), 0, NULL);
    pl_buf_free(&out);
    if (!rec)
        return NULL;
    json_t *hist = json_array();
    int bad = !hist || json_object_set_new(rec, "history", hist) < 0;
    for (int i = 0; !bad && i < r->m->nhist; i++) {
        json_t *ev = json_loads(r->ent[i].events[seat + 1], 0, NULL);
        bad = !ev || json_array_append_new(hist, json_pack("{s:i, s:o}", "seat", r->ent[i].seat, "events", ev)) < 0;
    }
    if (bad) {
        json_decref(rec);
        return NULL;
    }
    return rec;
}
