/* hub_state.c — the state messages: what each member of a room is told of
 * it (seats, clock, history, legal actions, view, result), written as text
 * piece by piece, the views kept per viewer until the state changes.
 * Thread: the hub's.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hub_int.h"
#include "parlour/alloc.h"
#include "parlour/jsonout.h"

/* Appends the fields of `seat`'s legal action `a` in `st` (pl_game.
 * action_fields) as JSON text; on failure (no memory, not UTF-8) "{}" and
 * returns 1 only when memory ran out, else 0. */
int hubv_legal_fields(const pl_game *g, const void *st, int seat, pl_action a, pl_buf *out)
{
    pl_buf err = {0};
    int rc = pl_action_fields_json(g, st, seat, a, out, &err);
    pl_buf_free(&err);
    if (rc < 0)
        pl_buf_puts(out, "{}");
    return out->oom ? 1 : 0;
}

/* What seat `s` of `r` shows: its person (a partner seat shows the one who
 * plays it), its kind ("partner", "ai", "person" or "open") and its level
 * (a computer's, or the one that covers an absent or timed-out person;
 * NULL otherwise). */
static const hub_seat *seat_shown(const hub *h, const hub_room *r, int s, const char **kind, const char **level)
{
    int partner = r->seats[s].kind == HUB_SEAT_PARTNER;
    const hub_seat *t = &r->seats[hub_seat_owner(r, s)];
    *kind = partner ? "partner" : t->kind == HUB_SEAT_AI ? "ai" : t->token[0] ? "person" : "open";
    *level = t->kind == HUB_SEAT_AI ? t->level : hub_seat_kept(t) ? h->cfg.takeover_level : NULL;
    return t;
}

json_t *hubv_seats_json(const hub *h, const hub_room *r)
{
    json_t *a = json_array();
    for (int s = 0; s < r->nseats; s++) {
        int partner = r->seats[s].kind == HUB_SEAT_PARTNER;
        const char *kind, *level;
        const hub_seat *t = seat_shown(h, r, s, &kind, &level);
        json_t *e = json_pack("{s:s, s:s, s:o, s:b, s:b, s:o}", "kind", kind, "name", t->name, "level",
                              level ? json_string(level) : json_null(), "connected",
                              t->kind == HUB_SEAT_AI || t->conn != 0, "covered", hub_seat_kept(t), "of",
                              partner ? json_integer(r->seats[s].of) : json_null());
        if (e && t->stalled) /* rated: stalling counted as leaving (hub_rating.c) */
            json_object_set_new(e, "stalled", json_true());
        json_array_append_new(a, e);
    }
    return a;
}

static json_t *clock_json(const hub_room *r)
{
    if (!r->move_s && !r->total_s)
        return json_null();
    json_t *j = json_object();
    if (r->move_s) {
        json_object_set_new(j, "move_s", json_integer(r->move_s));
    }
    if (r->total_s) {
        json_t *left = json_array();
        for (int s = 0; s < r->nseats; s++)
            json_array_append_new(left, json_integer(r->seats[s].left_ms));
        json_object_set_new(j, "total_s", json_integer(r->total_s));
        json_object_set_new(j, "left_ms", left);
    }
    json_object_set_new(j, "since_ms", json_integer(r->turn_ms));
    return j;
}

json_t *hubv_result_json(const hub_room *r)
{
    if (!hub_room_over(r))
        return json_null();
    pl_outcome o;
    memset(&o, 0, sizeof o);
    r->game->outcome(r->m->state, &o);
    json_t *score = json_array();
    for (int s = 0; s < o.nseats && s < PL_MAX_SEATS; s++)
        json_array_append_new(score, json_integer(o.score[s]));
    const char *kind = o.kind == PL_WIN_SEAT ? "seat" : o.kind == PL_WIN_TEAM ? "team" : "draw";
    return json_pack("{s:s, s:o, s:o}", "kind", kind, "winner",
                     o.kind == PL_WIN_DRAW ? json_null() : json_integer(o.winner), "score", score);
}

const char *hubv_room_status(const hub_room *r)
{
    return hub_room_over(r) ? "over" : hub_room_started(r) ? "playing" : "waiting";
}

/* The room's options as given, less the game's secret ones and any
 * `deal=` (a game that does not mark its deal secret, karuta's, still
 * keeps it off the wire: the brief of issue 15). */
json_t *hubv_public_options(const hub_room *r)
{
    json_t *o = json_loads(r->options_json, 0, NULL);
    if (!o)
        return json_object();
    json_object_del(o, "deal");
    for (const char *const *k = r->game->secret_options; k && *k; k++)
        json_object_del(o, *k);
    return o;
}

static int visible(const hub_room *r)
{
    return r->kar ? hubk_visible(r) : r->m->nhist;
}

/* The spectator's "viewer" in compact JSON (view_text finds it once a
 * view, put_view replaces it for a seat). */
static const char spec_viewer[] = "\"viewer\":-1";

/* Whether seat `viewer`'s view is the spectator's with another "viewer": a
 * seat of a game that hides nothing (put_view). */
static int view_shared(const hub_room *r, int viewer)
{
    return viewer >= 0 && !(r->game->flags & PL_GAME_HIDDEN);
}

/* The view text of `viewer` now (pl_view_json), kept per viewer until the
 * state changes (a broadcast to several spectators, or again after a seat
 * change, makes it once), each viewer's buffer written over, not freed and
 * allocated again. For the spectator's view also where its top-level
 * `"viewer":-1` is (vat, put_view). NULL when the game has none or memory
 * ran out. */
static const char *view_text(hub_room *r, int viewer)
{
    int k = viewer + 1;
    pl_buf *v = &r->vbuf[k];
    if (v->s && r->vver[k] == r->version)
        return v->s;
    size_t last = v->len; /* the last view's length */
    pl_buf_clear(v);
    pl_buf err = {0};
    /* Room for the view twice (pl_jfields_finish writes the sorted object
     * after the fields): one allocation the first time, none once the
     * buffer has grown. */
    pl_buf_reserve(v, 2 * (last ? last : 2048) + 512);
    int ok = pl_view_json(r->game, r->m->state, viewer, v, &err) == 0 && !v->oom && v->s;
    pl_buf_free(&err);
    if (!ok) {
        pl_buf_free(v);
        return NULL;
    }
    if (!k) { /* a key's closing quote in compact JSON is never escaped: this text is the key */
        const char *at = strstr(v->s, spec_viewer);
        size_t n = sizeof spec_viewer - 1;
        r->vat = at && !strstr(at + 1, spec_viewer) && (at[n] == ',' || at[n] == '}') ? (long)(at - v->s) : -1;
    }
    r->vver[k] = r->version;
    return v->s;
}

/* Appends seat `viewer`'s view to `b` ("null" when there is none). In a
 * game that hides nothing the views differ only in their top-level
 * "viewer" (docs/web-views.md; test_unit_views checks it for every such
 * game), so a seat's is the spectator's with `"viewer":-1` replaced on the
 * way (when that text is there exactly once: else the seat's own view):
 * one view made per state, and no copy kept per seat. */
static void put_view(hub_room *r, int viewer, pl_buf *b)
{
    if (view_shared(r, viewer)) {
        const char *spec = view_text(r, -1);
        if (spec && r->vat >= 0) {
            size_t at = (size_t)r->vat, rest = at + sizeof spec_viewer - 1;
            pl_buf_append(b, spec, at);
            pl_buf_puts(b, "\"viewer\":");
            pl_json_put_int(b, viewer);
            pl_buf_append(b, spec + rest, r->vbuf[0].len - rest);
            return;
        }
    }
    const char *view = view_text(r, viewer);
    pl_buf_puts(b, view ? view : "null");
}

/* The parts of a state message that every member of a room gets alike,
 * as JSON text: made once per broadcast, not once per member. */
typedef struct hub_common {
    pl_buf seats, clock, result;
    pl_buf memo; /* karuta's memorisation: `,"memo":{...}` or empty (hubk_put_memo) */
} hub_common;

/* Makes `k` for room `r` now; 0, or -1 when memory ran out. */
static int common_make(const hub *h, const hub_room *r, hub_common *k)
{
    memset(k, 0, sizeof *k);
    int bad = 0;
    pl_buf_putc(&k->seats, '['); /* seats_json's text, written directly */
    for (int s = 0; s < r->nseats; s++) {
        int partner = r->seats[s].kind == HUB_SEAT_PARTNER;
        const char *kind, *level;
        const hub_seat *t = seat_shown(h, r, s, &kind, &level);
        pl_buf_puts(&k->seats, s ? ",{\"connected\":" : "{\"connected\":");
        pl_buf_puts(&k->seats, t->kind == HUB_SEAT_AI || t->conn != 0 ? "true" : "false");
        pl_buf_puts(&k->seats, hub_seat_kept(t) ? ",\"covered\":true,\"kind\":" : ",\"covered\":false,\"kind\":");
        bad |= pl_json_put_string(&k->seats, kind);
        pl_buf_puts(&k->seats, ",\"level\":");
        if (level)
            bad |= pl_json_put_string(&k->seats, level);
        else
            pl_buf_puts(&k->seats, "null");
        pl_buf_puts(&k->seats, ",\"name\":");
        bad |= pl_json_put_string(&k->seats, t->name);
        pl_buf_puts(&k->seats, ",\"of\":");
        if (partner)
            pl_json_put_int(&k->seats, r->seats[s].of);
        else
            pl_buf_puts(&k->seats, "null");
        pl_buf_puts(&k->seats, t->stalled ? ",\"stalled\":true}" : "}");
    }
    pl_buf_putc(&k->seats, ']');
#ifndef NDEBUG
    if (!bad && !k->seats.oom) { /* debug builds: the text is seats_json's, byte for byte */
        pl_buf want = {0};
        json_t *sj = hubv_seats_json(h, r);
        if (sj && pl_json_dump(sj, &want) == 0)
            assert(!strcmp(pl_buf_str(&want), pl_buf_str(&k->seats)));
        json_decref(sj);
        pl_buf_free(&want);
    }
#endif
    hubk_put_memo(r, hub_now(h), &k->memo);
    bad |= k->memo.oom;
    json_t *clock = clock_json(r), *result = hubv_result_json(r);
    bad |= !clock || !result || pl_json_dump(clock, &k->clock) < 0 || pl_json_dump(result, &k->result) < 0;
    json_decref(clock);
    json_decref(result);
    return bad || k->seats.oom ? -1 : 0;
}

static void common_free(hub_common *k)
{
    pl_buf_free(&k->seats);
    pl_buf_free(&k->clock);
    pl_buf_free(&k->memo);
    pl_buf_free(&k->result);
}

/* The state message for connection `c` (seat or spectator of `r`) as text,
 * with the room's common parts `k` and, when `acc` is not NULL, the answer
 * to its act as "accepted" (act's accepted_in_state). Written piece by
 * piece in jansson's compact form with sorted keys (what hub_dump() writes;
 * test_unit_hub checks every message against jansson's text), the view's
 * text (already that form) spliced in last: no tree is built and dumped
 * per member. */
static char *state_text(hub_room *r, hub_conn *c, const hub_common *k, const pl_buf *acc)
{
    const pl_game *g = r->game;
    int viewer = c->seat;
    int bad = 0;
    pl_buf b = {0};
    int shared = view_shared(r, viewer); /* put_view splices the spectator's */
    const char *view = view_text(r, shared ? -1 : viewer);
    pl_buf_reserve(&b, 1024 + (view ? r->vbuf[shared ? 0 : viewer + 1].len : 0)); /* most states: one allocation */
    if (acc) { /* the answer to its act, first of the sorted keys */
        pl_buf_puts(&b, "{\"accepted\":");
        pl_buf_append(&b, acc->s, acc->len);
        pl_buf_puts(&b, "},\"clock\":");
    } else {
        pl_buf_puts(&b, "{\"clock\":");
    }
    pl_buf_append(&b, pl_buf_str(&k->clock), k->clock.len);
    pl_buf_puts(&b, ",\"history\":[");
    int upto = visible(r);
    int from = c->hist_sent < upto ? c->hist_sent : upto;
    for (int i = from; i < upto; i++) {
        const hub_entry *e = &r->ent[i];
        pl_buf_puts(&b, i > from ? ",{\"events\":" : "{\"events\":");
        pl_buf_puts(&b, e->events[viewer + 1]); /* already JSON text */
        if (e->forced) /* a person's only legal move, played for them */
            pl_buf_puts(&b, ",\"forced\":true");
        pl_buf_puts(&b, ",\"said\":");
        bad |= pl_json_put_string(&b, e->said[viewer + 1]);
        pl_buf_puts(&b, ",\"seat\":");
        pl_json_put_int(&b, e->seat);
        pl_buf_puts(&b, ",\"seq\":");
        pl_json_put_int(&b, i);
        pl_buf_puts(&b, ",\"text\":");
        bad |= pl_json_put_string(&b, e->text[viewer + 1]);
        pl_buf_putc(&b, '}');
    }
    pl_buf_puts(&b, "],\"history_from\":");
    pl_json_put_int(&b, from);
    pl_buf_puts(&b, ",\"legal\":[");
    int nlegal = 0;
    int kar_touch = r->kar && hubk_visible(r) < r->m->nhist;
    for (int s = 0; viewer >= 0 && s < r->nseats; s++) { /* its own seat, and partner seats it plays */
        if (hub_seat_owner(r, s) != viewer || !hub_room_started(r) || hub_seat_is_ai(r, s) || kar_touch ||
            !pl_is_actor(g, r->m->state, s))
            continue;
        pl_action acts[HUB_MAX_LEGAL]; /* a menu lists at most this many */
        int n = g->legal(r->m->state, s, acts, HUB_MAX_LEGAL);
        pl_buf t = {0}, l = {0};
        for (int i = 0; i < n && i < HUB_MAX_LEGAL; i++) {
            pl_buf_clear(&t);
            pl_buf_clear(&l);
            g->format_action(r->m->state, s, acts[i], &t);
            pl_format_action_long(g, r->m->state, s, acts[i], &l);
            pl_buf_puts(&b, nlegal++ ? ",{\"action\":" : "{\"action\":");
            bad |= pl_json_put_string(&b, pl_buf_str(&t));
            pl_buf_puts(&b, ",\"fields\":");
            bad |= hubv_legal_fields(g, r->m->state, s, acts[i], &b);
            pl_buf_puts(&b, ",\"long\":");
            bad |= pl_json_put_string(&b, pl_buf_str(&l));
            pl_buf_puts(&b, ",\"seat\":");
            pl_json_put_int(&b, s);
            pl_buf_putc(&b, '}');
            bad |= t.oom || l.oom;
        }
        pl_buf_free(&t);
        pl_buf_free(&l);
    }
    c->hist_sent = upto;
    pl_buf_putc(&b, ']');
    if (k->memo.len)
        pl_buf_append(&b, pl_buf_str(&k->memo), k->memo.len);
    pl_buf_puts(&b, hub_room_over(r) ? ",\"over\":true,\"result\":" : ",\"over\":false,\"result\":");
    pl_buf_append(&b, pl_buf_str(&k->result), k->result.len);
    pl_buf_puts(&b, ",\"room\":");
    bad |= pl_json_put_string(&b, r->code);
    pl_buf_puts(&b, ",\"seat\":");
    pl_json_put_int(&b, viewer);
    pl_buf_puts(&b, ",\"seats\":");
    pl_buf_append(&b, pl_buf_str(&k->seats), k->seats.len);
    pl_buf_puts(&b, ",\"seq\":");
    pl_json_put_int(&b, r->m->nhist);
    pl_buf_puts(&b, ",\"status\":\"");
    pl_buf_puts(&b, hubv_room_status(r)); /* a fixed word: nothing to escape */
    if (r->tb_by >= 0) { /* a takeback asked: who asked, who accepted so far */
        pl_buf_puts(&b, "\",\"takeback\":{\"accepted\":[");
        for (int s = 0, said = 0; s < r->nseats; s++)
            if (r->tb_yes & (1u << s)) {
                if (said++)
                    pl_buf_putc(&b, ',');
                pl_json_put_int(&b, s);
            }
        pl_buf_puts(&b, "],\"by\":");
        pl_json_put_int(&b, r->tb_by);
        pl_buf_puts(&b, "},\"type\":\"state\",\"view\":");
    } else {
        pl_buf_puts(&b, "\",\"type\":\"state\",\"view\":");
    }
    put_view(r, viewer, &b);
    pl_buf_putc(&b, '}');
    if (bad || b.oom) {
        pl_buf_free(&b);
        return NULL;
    }
    return b.s;
}

/* Queues connection `c`'s state; `k`: the room's common parts, or NULL to
 * make them here. */
void hubv_send_state(hub *h, hub_room *r, hub_conn *c, const hub_common *k)
{
    hub_common own;
    if (!k) {
        if (common_make(h, r, &own) < 0) {
            common_free(&own);
            return;
        }
        k = &own;
    }
    int answers = h->acc_conn && h->acc_conn == c->id;
    char *text = state_text(r, c, k, answers ? h->acc : NULL);
    hub_msg *m = text ? hub_queue_msg(h, c->id, text, 0, hub_hold_tag(h), r, 1) : NULL;
    if (m && answers) {
        m->o.answers = 1; /* it carries the act's answer (timed like `accepted`) */
        h->acc_conn = 0;  /* given: the sender's next state is a plain one */
    }
    if (k == &own)
        common_free(&own);
}

void hub_room_broadcast(hub *h, hub_room *r)
{
    hub_common k;
    int ok = common_make(h, r, &k) == 0;
    for (int i = 0; ok && i < r->nmembers; i++) {
        hub_conn *c = hub_conn_get(h, r->members[i]);
        if (c && c->room == r)
            hubv_send_state(h, r, c, &k);
    }
    common_free(&k);
    hubt_rewake(h, r);
}
