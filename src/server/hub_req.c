/* hub_req.c — the hub's requests (docs/web-protocol.md): a connection's
 * life (connect, disconnect, the rate limit) and every message it sends,
 * dispatched by the table of commands `commands` (name, shape, handler).
 * Thread: the hub's.
 *
 * Every message is parsed by jansson (json_loadb after a size check) and
 * unpacked strictly (JSON_STRICT) for its type; anything wrong gets one
 * `error` and changes nothing.
 */
#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "../ai/ai.h"
#include "hub_int.h"
#include "parlour/alloc.h"
#include "parlour/jsonout.h"
#include "parlour/record.h"
#include "parlour/registry.h"
#include "parlour/rng.h"

#define HUB_VERSION "parlour " PARLOUR_VERSION /* CMakeLists.txt's project() VERSION */

/* ---- small helpers ----------------------------------------------------- */

/* 128 random bits as hex (getrandom, or from the test seed). */
static void random_hex(hub *h, char out[HUB_CODE])
{
    uint64_t w[2];
    if (h->cfg.test_seed) {
        w[0] = pl_mix64(h->seed_next++ ^ 0x5a5a5a5a5a5a5a5aull);
        w[1] = pl_mix64(w[0] + 0x9e3779b97f4a7c15ull);
    } else {
        size_t got = 0;
        while (got < sizeof w) {
            ssize_t n = getrandom((char *)w + got, sizeof w - got, 0);
            if (n > 0)
                got += (size_t)n;
        }
    }
    snprintf(out, HUB_CODE, "%016" PRIx64 "%016" PRIx64, w[0], w[1]);
}

static uint64_t random_seed(hub *h)
{
    if (h->cfg.test_seed)
        return h->cfg.test_seed + h->seed_next++;
    uint64_t s = 0;
    size_t got = 0;
    while (got < sizeof s) {
        ssize_t n = getrandom((char *)&s + got, sizeof s - got, 0);
        if (n > 0)
            got += (size_t)n;
    }
    return s >> 1; /* 63 bits: the seed= option takes 0 .. INT64_MAX */
}

/* Released now: lobby answers that tell nothing of a room. */
static void send_now(hub *h, uint64_t conn, json_t *j)
{
    hub_send_tagged(h, conn, j, 0, NULL);
}

/* ---- rooms and members ------------------------------------------------- */

static int member_add(hub_room *r, uint64_t conn)
{
    for (int i = 0; i < r->nmembers; i++)
        if (r->members[i] == conn)
            return 0;
    if (r->nmembers == r->capmembers) {
        int cap = r->capmembers ? r->capmembers * 2 : 8;
        uint64_t *a = pl_realloc(r->members, sizeof *a * (size_t)cap);
        if (!a)
            return -1;
        r->members = a;
        r->capmembers = cap;
    }
    r->members[r->nmembers++] = conn;
    return 0;
}

static void member_del(hub_room *r, uint64_t conn)
{
    for (int i = 0; i < r->nmembers; i++)
        if (r->members[i] == conn) {
            r->members[i] = r->members[--r->nmembers];
            return;
        }
}

/* Leaves the room the connection is in (its seat keeps its token). */
static void conn_leave(hub *h, hub_conn *c, int64_t now_ms)
{
    hub_room *r = c->room;
    if (!r)
        return;
    member_del(r, c->id);
    if (c->seat >= 0 && r->seats[c->seat].conn == c->id) {
        r->seats[c->seat].conn = 0;
        r->seats[c->seat].gone_ms = now_ms;
        c->room = NULL;
        hub_room_broadcast(h, r);
    }
    c->room = NULL;
    c->seat = -1;
    if (h->cfg.cluster && !r->nmembers)
        r->idle_ms = now_ms; /* an unfinished room nobody is in is let go (room_idle) */
    hubt_rewake(h, r); /* the last one out of a finished room starts its countdown */
}

/* ---- lobby ------------------------------------------------------------- */

static json_t *games_json(void)
{
    int n;
    const pl_game *const *gs = pl_games(&n);
    json_t *arr = json_array();
    for (int i = 0; i < n; i++) {
        const pl_game *g = gs[i];
        json_t *opts = json_array();
        for (const pl_option_def *d = g->options; d && d->key; d++) {
            json_t *o = json_pack("{s:s, s:s, s:s}", "key", d->key, "default", d->def ? d->def : "", "about",
                                  d->help ? d->help : "");
            if (d->kind == PL_OPT_ENUM) {
                json_t *vals = json_array();
                const char *p = d->choices ? d->choices : "";
                while (*p) {
                    const char *bar = strchr(p, '|');
                    size_t len = bar ? (size_t)(bar - p) : strlen(p);
                    json_array_append_new(vals, json_stringn(p, len));
                    p += len + (bar ? 1 : 0);
                }
                json_object_set_new(o, "values", vals);
            } else if (d->kind == PL_OPT_INT) {
                json_object_set_new(o, "range", json_pack("[I, I]", (json_int_t)d->min, (json_int_t)d->max));
            } else {
                json_object_set_new(o, "values", json_string("text"));
            }
            json_array_append_new(opts, o);
        }
        json_t *lv = json_array(); /* the AI's list of levels (ai_level) */
        const pl_level *l;
        for (int k = 0; (l = ai_level(g, k)); k++)
            json_array_append_new(lv, json_pack("{s:s, s:s}", "name", l->name, "about", l->about ? l->about : ""));
        json_array_append_new(arr, json_pack("{s:s, s:s, s:s, s:b, s:o, s:o}", "id", g->id, "name", g->name,
                                             "summary", g->summary ? g->summary : "", "hidden",
                                             (g->flags & PL_GAME_HIDDEN) != 0, "options", opts, "levels", lv));
    }
    return json_pack("{s:s, s:o}", "type", "games", "games", arr);
}

static json_t *rooms_json(hub *h)
{
    json_t *arr = json_array();
    for (int i = 0; h->lobby && i < h->lobby->n; i++) /* a cluster's: the store's, as last read */
        if (!hub_room_find(h, h->lobby->rooms[i].code))
            json_array_append(arr, h->lobby->rooms[i].entry);
    for (int i = 0; i < h->nrooms; i++) {
        hub_room *r = h->rooms[i];
        if (!r->public_ || hub_room_over(r))
            continue;
        json_array_append_new(arr, json_pack("{s:s, s:s, s:o, s:o, s:s}", "room", r->code, "game", r->game->id,
                                             "options", hubv_public_options(r), "seats", hubv_seats_json(h, r), "state",
                                             hubv_room_status(r)));
    }
    return json_pack("{s:s, s:o}", "type", "rooms", "rooms", arr);
}

/* ---- the requests ------------------------------------------------------ */

/* Seats whose views show each other's hidden things (pl_game.sees_seat:
 * City Behind Walls players=2, the two seats of a team) are one player's: a
 * group of such seats must be one person seat with partner seats of it, or
 * computers only (a person beside another person or a computer would see
 * that seat's hand). Without `seats` (`given` 0) the first seat of each
 * group is a person seat and the others partner seats of it. Returns 0, or
 * -1 once it has answered `options` (the room is then the caller's to
 * free). A game without sees_seat: 0, nothing changed. */
static int create_shared_seats(hub *h, hub_conn *c, hub_room *r, int given)
{
    const pl_game *g = r->game;
    const void *st = r->m->state;
    if (!g->sees_seat)
        return 0;
    for (int s = 0; s < r->nseats; s++) {
        int f = 0; /* the first seat of s's group */
        while (f != s && !g->sees_seat(st, f, s))
            f++;
        if (!given) {
            if (f != s) {
                r->seats[s].kind = HUB_SEAT_PARTNER;
                r->seats[s].of = f;
            }
            continue;
        }
        if (f != s)
            continue; /* each group is checked once, at its first seat */
        int n = 0, ais = 0, persons = 0, person = -1, partners_ok = 1;
        for (int t = f; t < r->nseats; t++) {
            if (t != f && !g->sees_seat(st, f, t))
                continue;
            n++;
            if (r->seats[t].kind == HUB_SEAT_AI) {
                ais++;
            } else if (r->seats[t].kind == HUB_SEAT_PERSON) {
                persons++;
                person = t;
            }
        }
        for (int t = f; t < r->nseats; t++)
            if ((t == f || g->sees_seat(st, f, t)) && r->seats[t].kind == HUB_SEAT_PARTNER &&
                r->seats[t].of != person)
                partners_ok = 0;
        if (n == 1 || ais == n || (persons == 1 && !ais && partners_ok))
            continue; /* a seat no other sees is seated freely */
        hub_error(h, c->id, "options", "create",
                  "seat %d and the seats whose cards it sees (players=2: both seats of a team) are one player's: "
                  "one person seat and {\"kind\": \"partner\", \"of\": S} seats of it, or computer seats only; "
                  "without seats, the first of them is a person and the others its partners",
                  s);
        return -1;
    }
    return 0;
}

static void req_create(hub *h, hub_conn *c, json_t *root, int64_t now_ms)
{
    const char *type, *game;
    json_t *opts = NULL, *seats = NULL, *clock = NULL, *jgrace = NULL;
    int grace = -1, pub = 0, rated = 0;
    json_error_t je;
    if (json_unpack_ex(root, &je, JSON_STRICT, "{s:s, s:s, s?o, s?o, s?o, s?o, s?b, s?b}", "type", &type, "game",
                       &game, "options", &opts, "seats", &seats, "grace_s", &jgrace, "clock", &clock, "public", &pub,
                       "rated", &rated) < 0) {
        hub_error(h, c->id, "shape", "create",
                  "create: %s; fields: game, options, seats, grace_s, clock, public, rated", je.text);
        return;
    }
    if (rated && !c->account) {
        hub_error(h, c->id, "rated", "create", "a rated room is for signed-in players: sign in first");
        return;
    }
    const pl_game *g = pl_game_find(game);
    if (!g) {
        pl_buf ids = {0};
        pl_games_list(&ids);
        hub_error(h, c->id, "options", "create", "unknown game '%s'; games: %s", game, pl_buf_str(&ids));
        pl_buf_free(&ids);
        return;
    }
    if (opts && !json_is_object(opts)) {
        hub_error(h, c->id, "shape", "create", "options: an object of strings");
        return;
    }
    if (jgrace && (!json_is_integer(jgrace) || json_integer_value(jgrace) < 0 || json_integer_value(jgrace) > 3600)) {
        hub_error(h, c->id, "shape", "create", "grace_s: 0 to 3600");
        return;
    }
    int move_s = 0, total_s = 0;
    if (clock && !json_is_null(clock) &&
        (json_unpack_ex(clock, &je, JSON_STRICT, "{s?i, s?i}", "move_s", &move_s, "total_s", &total_s) < 0 ||
         move_s < 0 || move_s > 86400 || total_s < 0 || total_s > 86400 || (move_s && total_s) ||
         (!move_s && !total_s))) {
        hub_error(h, c->id, "shape", "create", "clock: {\"move_s\": 1-86400} or {\"total_s\": 1-86400}");
        return;
    }
    if ((int)h->nrooms >= h->cfg.max_rooms) {
        hub_error(h, c->id, "full", "create", "the server holds %d rooms, its most", h->nrooms);
        return;
    }
    if (jgrace)
        grace = (int)json_integer_value(jgrace);
    int oom;
    json_t *ropts = hubk_room_options(g, opts, &oom); /* karuta: tempo=even unless given */
    if (oom) {
        hub_error(h, c->id, "options", "create", "out of memory"); /* as hub_room_new says it */
        return;
    }
    pl_buf err = {0};
    hub_room *r = hub_room_new(h, g, ropts, random_seed(h), &err);
    json_decref(ropts);
    if (!r) {
        hub_error(h, c->id, "options", "create", "%s", pl_buf_str(&err));
        pl_buf_free(&err);
        return;
    }
    if (seats && (!json_is_array(seats) || (int)json_array_size(seats) != r->nseats)) {
        hub_error(h, c->id, "shape", "create", "seats: an array of %d entries (this game with these options)",
                  r->nseats);
        hub_room_free(r);
        return;
    }
    for (int s = 0; seats && s < r->nseats; s++) {
        const char *kind, *level = NULL;
        int of = -1;
        if (json_unpack_ex(json_array_get(seats, (size_t)s), &je, JSON_STRICT, "{s:s, s?s, s?i}", "kind", &kind,
                           "level", &level, "of", &of) < 0 ||
            (strcmp(kind, "person") && strcmp(kind, "ai") && strcmp(kind, "partner")) ||
            (strcmp(kind, "ai") && level) || (!strcmp(kind, "partner")) != (of != -1)) {
            hub_error(h, c->id, "shape", "create",
                      "seat %d: {\"kind\": \"person\"}, {\"kind\": \"ai\", \"level\": L} or "
                      "{\"kind\": \"partner\", \"of\": S}",
                      s);
            hub_room_free(r);
            return;
        }
        if (!strcmp(kind, "partner")) { /* played by the person of seat `of` */
            json_t *o = json_array_get(seats, (size_t)of);
            const char *okind = of >= 0 && of < r->nseats && of != s ? json_string_value(json_object_get(o, "kind"))
                                                                      : NULL;
            if (!okind || strcmp(okind, "person")) {
                hub_error(h, c->id, "shape", "create", "seat %d: a partner seat's \"of\" names a person seat", s);
                hub_room_free(r);
                return;
            }
            r->seats[s].kind = HUB_SEAT_PARTNER;
            r->seats[s].of = of;
            continue;
        }
        if (!strcmp(kind, "ai")) {
            const char *lv = level ? level : "medium";
            const ai_player *p = hub_player(h, g, lv, &err);
            if (!p) {
                hub_error(h, c->id, "options", "create", "seat %d: %s", s, pl_buf_str(&err));
                pl_buf_free(&err);
                hub_room_free(r);
                return;
            }
            r->seats[s].kind = HUB_SEAT_AI;
            r->seats[s].ai = p;
            r->seats[s].level = pl_strdup(lv);
            snprintf(r->seats[s].name, sizeof r->seats[s].name, "computer (%s)", lv);
        }
    }
    pl_buf_free(&err);
    if (create_shared_seats(h, c, r, seats != NULL) < 0) {
        hub_room_free(r);
        return;
    }
    random_hex(h, r->code);
    r->grace_s = grace == -1 ? h->cfg.grace_s : grace;
    r->move_s = move_s;
    r->total_s = total_s;
    r->public_ = pub;
    r->rated = rated;
    if (rated && hubg_check(r, &err) < 0) {
        hub_error(h, c->id, "rated", "create", "%s", pl_buf_str(&err));
        pl_buf_free(&err);
        hub_room_free(r);
        return;
    }
    hubg_default_clock(r); /* rated: a move clock, so that no one can stall it */
    for (int s = 0; s < r->nseats; s++)
        r->seats[s].left_ms = (int64_t)total_s * 1000;
    if (hubk_applies(r) < 0 || hub_room_add(h, r) < 0) {
        hub_error(h, c->id, "storage", "create", "out of memory");
        hub_room_free(r);
        return;
    }
    r->creator = c->id;
    hubb_queue_room(h, r);
    hubb_room_give_away(h, r);
    char link[64];
    snprintf(link, sizeof link, "/room/%s", r->code);
    /* about the new room: dropped with it if storing it fails */
    hub_send_tagged(h, c->id, json_pack("{s:s, s:s, s:s}", "type", "created", "room", r->code, "link", link),
                hub_hold_tag(h), r);
    hub_room_advance(h, r, now_ms); /* a room of computers only starts at once */
}

static void req_join(hub *h, hub_conn *c, json_t *root, int64_t now_ms)
{
    const char *type, *code, *name = NULL, *token = NULL;
    int seat = -1;
    json_t *jseat = NULL;
    json_error_t je;
    if (json_unpack_ex(root, &je, JSON_STRICT, "{s:s, s:s, s?s, s?s, s?o}", "type", &type, "room", &code, "name",
                       &name, "token", &token, "seat", &jseat) < 0 ||
        !name == !token || (jseat && (!json_is_integer(jseat) || token))) {
        hub_error(h, c->id, "shape", "join", "join: {room, name, seat (optional)} or {room, token}%s%s",
                  je.text[0] ? ": " : "", je.text);
        return;
    }
    hub_room *r = hub_room_find(h, code);
    if (!r) {
        if (!hubb_room_ask(h, c, code, root))
            hub_error(h, c->id, "room", "join", "no room '%s'", code);
        return;
    }
    if (r->rated && !c->account && !token) {
        hub_error(h, c->id, "rated", "join", "room %s is rated: sign in to sit in it (or watch it)", code);
        return;
    }
    if (jseat) {
        json_int_t v = json_integer_value(jseat);
        seat = v >= 0 && v < r->nseats ? (int)v : -2;
        if (seat == -2) {
            hub_error(h, c->id, "seat", "join", "seat: 0 to %d", r->nseats - 1);
            return;
        }
    }
    if (token) {
        for (seat = 0; seat < r->nseats; seat++)
            if (r->seats[seat].token[0] && !strcmp(r->seats[seat].token, token))
                break;
        if (seat == r->nseats) {
            hub_error(h, c->id, "seat", "join", "this token holds no seat of room %s", code);
            return;
        }
    } else {
        size_t len = strlen(name);
        if (len < 1 || len > HUB_MAX_NAME || strpbrk(name, "\r\n\t")) {
            hub_error(h, c->id, "shape", "join", "name: 1 to %d bytes, one line", HUB_MAX_NAME);
            return;
        }
        if (seat >= 0) {
            if (r->seats[seat].kind != HUB_SEAT_PERSON || r->seats[seat].token[0]) {
                hub_error(h, c->id, "full", "join", "seat %d is not open", seat);
                return;
            }
        } else {
            for (seat = 0; seat < r->nseats; seat++)
                if (r->seats[seat].kind == HUB_SEAT_PERSON && !r->seats[seat].token[0])
                    break;
            if (seat == r->nseats) {
                hub_error(h, c->id, "full", "join", "no open seat in room %s: watch it instead", code);
                return;
            }
        }
    }
    if (member_add(r, c->id) < 0) {
        hub_error(h, c->id, "storage", "join", "out of memory");
        return;
    }
    if (c->room && (c->room != r || c->seat != seat)) {
        hub_room *old = c->room;
        conn_leave(h, c, now_ms);
        if (old == r)
            member_add(r, c->id);
    }
    hub_seat *t = &r->seats[seat];
    if (t->conn && t->conn != c->id) { /* the same person from another connection: the old one goes */
        hub_conn *o = hub_conn_get(h, t->conn);
        if (o) {
            member_del(r, o->id);
            o->room = NULL;
            o->seat = -1;
            hub_send(h, o->id, json_pack("{s:s}", "type", "left"));
        }
    }
    if (!token) {
        snprintf(t->name, sizeof t->name, "%s", c->account ? c->aname : name);
        t->account = c->account;
        random_hex(h, t->token);
        hubb_queue_config(h, r);
    } else if (c->account && !t->account) { /* a guest who signed up keeps the seat, now theirs */
        t->account = c->account;
        hubb_queue_config(h, r);
    }
    t->conn = c->id;
    t->covered = 0;
    t->gone_ms = 0;
    c->room = r;
    c->seat = seat;
    c->hist_sent = 0;
    hub_send(h, c->id, json_pack("{s:s, s:s, s:s, s:o, s:i, s:s, s:b}", "type", "joined", "room", r->code, "game",
                                 r->game->id, "options", hubv_public_options(r), "seat", seat, "token", t->token,
                                 "hints", !r->rated && !r->kar && !r->game->check)); /* hub_hint.c */
    if (r->kar)
        hubk_joined(h, r, c, now_ms);
    hub_room_advance(h, r, now_ms);
    hub_room_broadcast(h, r);
    hubg_again(h, r, c->id); /* a finished rated room: its ratings, after the state */
    if (r->kar)
        hubk_arrived(h, r, c);
}

static void req_watch(hub *h, hub_conn *c, json_t *root, int64_t now_ms)
{
    const char *type, *code;
    json_error_t je;
    if (json_unpack_ex(root, &je, JSON_STRICT, "{s:s, s:s}", "type", &type, "room", &code) < 0) {
        hub_error(h, c->id, "shape", "watch", "watch: {room}: %s", je.text);
        return;
    }
    hub_room *r = hub_room_find(h, code);
    if (!r) {
        if (!hubb_room_ask(h, c, code, root))
            hub_error(h, c->id, "room", "watch", "no room '%s'", code);
        return;
    }
    if (member_add(r, c->id) < 0) {
        hub_error(h, c->id, "storage", "watch", "out of memory");
        return;
    }
    if (c->room)
        conn_leave(h, c, now_ms);
    member_add(r, c->id);
    c->room = r;
    c->seat = -1;
    c->hist_sent = 0;
    hubv_send_state(h, r, c, NULL);
    hubg_again(h, r, c->id);
    if (r->kar)
        hubk_arrived(h, r, c);
}

/* The seated connection's room and seat, or an error. */
static hub_room *seated(hub *h, hub_conn *c, const char *req)
{
    if (!c->room || c->seat < 0) {
        hub_error(h, c->id, "seat", req, "%s: join a seat first", req);
        return NULL;
    }
    return c->room;
}

/* The strict check of an act that json_unpack_ex's format below makes, by
 * jansson's getters: `root` is an object with a string "type" (hub_message
 * checked), a string "action", and at most an integer "seq", an integer
 * "seat" and a boolean "accepted_in_state" besides. Returns 0 and the
 * fields, or -1 (nothing set) for anything else: then json_unpack_ex reads
 * it again for its error. Its format, parsed at every act, was 5,500 of a
 * move's 120,000 instructions under callgrind (docs/benchmarks.md). */
static int act_shape(json_t *root, const char **text, json_t **jseq, json_t **jseat, int *in_state)
{
    json_t *a = json_object_get(root, "action"), *q = json_object_get(root, "seq"), *s = json_object_get(root, "seat"),
           *b = json_object_get(root, "accepted_in_state");
    if (!json_is_string(a) || (q && !json_is_integer(q)) || (s && !json_is_integer(s)) || (b && !json_is_boolean(b)) ||
        json_object_size(root) != 2 + (size_t)!!q + (size_t)!!s + (size_t)!!b)
        return -1;
    *text = json_string_value(a);
    *jseq = q;
    *jseat = s;
    *in_state = b && json_is_true(b);
    return 0;
}

static void req_act(hub *h, hub_conn *c, json_t *root, int64_t now_ms)
{
    const char *type, *text;
    json_t *jseq = NULL, *jseat = NULL;
    int in_state = 0;
    json_error_t je; /* set by json_unpack_ex, which runs whenever act_shape refuses */
    if (act_shape(root, &text, &jseq, &jseat, &in_state) < 0 &&
        (json_unpack_ex(root, &je, JSON_STRICT, "{s:s, s:s, s?o, s?o, s?b}", "type", &type, "action", &text, "seq",
                        &jseq, "seat", &jseat, "accepted_in_state", &in_state) < 0 ||
         (jseq && !json_is_integer(jseq)) || (jseat && !json_is_integer(jseat)))) {
        hub_error(h, c->id, "shape", "act",
                  "act: {action (text), seq (int, optional), seat (int, optional), accepted_in_state (bool, "
                  "optional)}%s%s",
                  je.text[0] ? ": " : "", je.text);
        return;
    }
    hub_room *r = seated(h, c, "act");
    if (!r)
        return;
    if (hub_room_over(r)) {
        hub_error(h, c->id, "over", "act", "the game is over");
        return;
    }
    if (!hub_room_started(r)) {
        hub_error(h, c->id, "not-your-turn", "act", "the room waits for its players");
        return;
    }
    if (jseq && json_integer_value(jseq) != r->m->nhist) {
        hub_error(h, c->id, "stale", "act", "stale: the history has %d actions, not %" JSON_INTEGER_FORMAT, r->m->nhist,
                  json_integer_value(jseq));
        return;
    }
    if (r->kar && hubk_visible(r) < r->m->nhist) {
        hub_error(h, c->id, "not-your-turn", "act", "a reading is on: answer it with touch messages");
        return;
    }
    if (hub_seat_is_ai(r, c->seat)) {
        const hub_seat *t = &r->seats[c->seat];
        hub_error(h, c->id, "not-your-turn", "act", "%s: the computer plays your seat%s",
                  t->stalled && !t->out_of_time ? "the clock played your moves in a row" : "your total time ran out",
                  t->stalled ? " to the end of this rated game, which counts as leaving it" : "");
        return;
    }
    /* The seat it plays for: its own, or a partner seat its person plays
     * (`seat` names it; without it, the one of them that acts now). */
    int seat = c->seat;
    if (jseat) {
        json_int_t v = json_integer_value(jseat);
        if (v < 0 || v >= r->nseats || hub_seat_owner(r, (int)v) != c->seat) {
            hub_error(h, c->id, "seat", "act", "seat %" JSON_INTEGER_FORMAT " is not played by this connection", v);
            return;
        }
        seat = (int)v;
    } else if (!pl_is_actor(r->game, r->m->state, seat)) {
        for (int s = 0; s < r->nseats; s++)
            if (s != c->seat && hub_seat_owner(r, s) == c->seat && pl_is_actor(r->game, r->m->state, s)) {
                seat = s;
                break;
            }
    }
    if (!pl_is_actor(r->game, r->m->state, seat)) {
        pl_buf err = {0};
        pl_check(r->game, r->m->state, seat, 0, &err);
        hub_error(h, c->id, "not-your-turn", "act", "%s", pl_buf_str(&err));
        pl_buf_free(&err);
        return;
    }
    pl_buf err = {0}, why = {0};
    pl_action a;
    if (strlen(text) > 200) {
        hub_error(h, c->id, "illegal", "act", "action too long");
        return;
    }
    if (pl_parse_legal_why(r->game, r->m->state, seat, text, &a, &err, &why) < 0) {
        /* A well-formed action the rules refuse: the game's refusal as data
         * (pl_game.refusal), which a page words in its own language. */
        pl_buf ref = {0}, rerr = {0}, perr = {0};
        bool has = r->game->refusal && r->game->parse_action(r->m->state, seat, text, &a, &perr) == 0 &&
                   pl_refusal_json(r->game, r->m->state, seat, a, &ref, &rerr) == 0;
        hub_error_illegal(h, c->id, pl_buf_str(&err), pl_buf_str(&why), has ? pl_buf_str(&ref) : NULL);
        pl_buf_free(&ref);
        pl_buf_free(&rerr);
        pl_buf_free(&perr);
        pl_buf_free(&err);
        pl_buf_free(&why);
        return;
    }
    pl_buf t = {0};
    int after = r->m->nhist + 1; /* the history's length with this action (chance may follow) */
    r->game->format_action(r->m->state, seat, a, &t);
    if (hub_room_play(h, r, seat, a, c->id, now_ms, &err) < 0) {
        hub_error(h, c->id, "illegal", "act", "%s", pl_buf_str(&err));
    } else {
        hubg_moved(r, seat); /* a decision of their own: the run of clock-played ones starts again */
        /* {"action":…,"seat":…,"seq":…,"type":"accepted"}, one per move: written directly; or
         * (accepted_in_state) its first three keys as the sender's state's "accepted" */
        pl_buf m = {0};
        pl_buf_puts(&m, "{\"action\":");
        int bad = pl_json_put_string(&m, pl_buf_str(&t));
        pl_buf_puts(&m, ",\"seat\":");
        pl_json_put_int(&m, seat);
        pl_buf_puts(&m, ",\"seq\":");
        pl_json_put_int(&m, after);
        bad |= m.oom || t.oom;
        int told = 0; /* the states are queued */
        if (in_state && !bad) { /* taken by the sender's state (state_text) */
            h->acc_conn = c->id;
            h->acc = &m;
            hub_room_broadcast(h, r);
            told = 1;
            in_state = !h->acc_conn; /* else no state was made for it (memory): the plain answer after all */
            h->acc_conn = 0;
            h->acc = NULL;
        } else {
            in_state = 0;
        }
        pl_buf_puts(&m, ",\"type\":\"accepted\"}");
        if (!in_state && !bad && !m.oom) {
#ifndef NDEBUG
            hub_same_as_jansson(m.s, json_pack("{s:s, s:i, s:s, s:i}", "type", "accepted", "seq", after, "action",
                                           pl_buf_str(&t), "seat", seat));
#endif
            hub_send_text(h, c->id, m.s, "accepted", hub_hold_tag(h), c->room); /* before the states, as ever */
            m.s = NULL;
        }
        pl_buf_free(&m);
        if (!told)
            hub_room_broadcast(h, r);
    }
    pl_buf_free(&t);
    pl_buf_free(&err);
}

static void req_chat(hub *h, hub_conn *c, json_t *root, int64_t now_ms)
{
    const char *type, *text;
    json_error_t je;
    if (json_unpack_ex(root, &je, JSON_STRICT, "{s:s, s:s}", "type", &type, "text", &text) < 0) {
        hub_error(h, c->id, "shape", "chat", "chat: {text}: %s", je.text);
        return;
    }
    size_t len = strlen(text);
    if (len < 1 || len > HUB_MAX_CHAT) {
        hub_error(h, c->id, "shape", "chat", "text: 1 to %d bytes", HUB_MAX_CHAT);
        return;
    }
    hub_room *r = c->room;
    if (!r) {
        hub_error(h, c->id, "room", "chat", "chat: join or watch a room first");
        return;
    }
    const char *name = c->seat >= 0 ? r->seats[c->seat].name : "spectator";
    for (int i = 0; i < r->nmembers; i++)
        hub_send(h, r->members[i], json_pack("{s:s, s:i, s:s, s:s, s:I}", "type", "chat", "seat", c->seat, "name",
                                             name, "text", text, "at_ms", (json_int_t)now_ms));
}

static void req_rematch(hub *h, hub_conn *c, json_t *root, int64_t now_ms)
{
    (void)root;
    hub_room *r = seated(h, c, "rematch");
    if (!r)
        return;
    if (!hub_room_over(r)) {
        hub_error(h, c->id, "over", "rematch", "rematch: the game is not over");
        return;
    }
    r->seats[c->seat].rematch = 1;
    for (int s = 0; s < r->nseats; s++)
        if (r->seats[s].kind == HUB_SEAT_PERSON && !r->seats[s].rematch)
            return; /* the others have not asked yet */
    if ((int)h->nrooms >= h->cfg.max_rooms) {
        hub_error(h, c->id, "full", "rematch", "the server holds %d rooms, its most", h->nrooms);
        return;
    }
    pl_buf err = {0};
    json_t *opts = json_loads(r->options_json, 0, NULL);
    hub_room *n = hub_room_new(h, r->game, opts, random_seed(h), &err);
    json_decref(opts);
    if (!n) {
        hub_error(h, c->id, "storage", "rematch", "%s", pl_buf_str(&err));
        pl_buf_free(&err);
        return;
    }
    pl_buf_free(&err);
    random_hex(h, n->code);
    n->grace_s = r->grace_s;
    n->move_s = r->move_s;
    n->total_s = r->total_s;
    n->public_ = r->public_;
    n->rated = r->rated; /* the same accounts in the same seats */
    for (int s = 0; s < r->nseats && s < n->nseats; s++) {
        hub_seat *o = &r->seats[s], *t = &n->seats[s];
        t->kind = o->kind;
        t->of = o->of;
        t->ai = o->ai;
        t->level = o->level ? pl_strdup(o->level) : NULL;
        memcpy(t->name, o->name, sizeof t->name);
        memcpy(t->token, o->token, sizeof t->token);
        t->account = o->account;
        t->gone_ms = now_ms;
        t->left_ms = (int64_t)n->total_s * 1000;
        o->rematch = 0;
    }
    if (hubk_applies(n) < 0 || hub_room_add(h, n) < 0) {
        hub_room_free(n);
        hub_error(h, c->id, "storage", "rematch", "out of memory");
        return;
    }
    hubb_queue_room(h, n);
    hubb_room_give_away(h, n);
    for (int i = 0; i < r->nmembers; i++)
        hub_send(h, r->members[i], json_pack("{s:s, s:s}", "type", "rematch", "room", n->code));
    hub_room_advance(h, n, now_ms);
}

static void req_record(hub *h, hub_conn *c, json_t *root, int64_t now_ms)
{
    (void)now_ms;
    const char *type, *who;
    json_error_t je;
    if (json_unpack_ex(root, &je, JSON_STRICT, "{s:s, s:s}", "type", &type, "who", &who) < 0 ||
        (strcmp(who, "seat") && strcmp(who, "referee"))) {
        hub_error(h, c->id, "shape", "record", "record: {who: \"seat\" or \"referee\"}%s%s", je.text[0] ? ": " : "",
                  je.text);
        return;
    }
    hub_room *r = c->room;
    if (!r) {
        hub_error(h, c->id, "room", "record", "record: join or watch a room first");
        return;
    }
    json_t *rec = NULL;
    if (!strcmp(who, "referee")) {
        if (!hub_room_over(r)) {
            hub_error(h, c->id, "over", "record", "the referee's record (with the seed) comes only after the game");
            return;
        }
        pl_buf out = {0};
        if (pl_record_write(r->m, &out) == 0)
            rec = json_loads(pl_buf_str(&out), 0, NULL);
        pl_buf_free(&out);
    } else {
        if (c->seat < 0) {
            hub_error(h, c->id, "seat", "record", "a spectator has no seat's record: ask for the referee's after the game");
            return;
        }
        if (r->kar && hubk_visible(r) < r->m->nhist) {
            hub_error(h, c->id, "not-your-turn", "record", "ask again once the reading is answered");
            return;
        }
        int open = !(r->game->flags & PL_GAME_HIDDEN) && !hub_room_over(r); /* takes a seed only then */
        rec = hubr_seat_record(r, c->seat, open ? random_seed(h) : 0);
    }
    const char *fmt = json_string_value(json_object_get(rec, "format"));
    if (rec && !hub_room_over(r) && fmt && strcmp(fmt, "parlour-record")) /* no deal= before the end, even a
                                                                             game's that does not mark it secret */
        json_object_del(json_object_get(rec, "options"), "deal");
    if (!rec) {
        hub_error(h, c->id, "storage", "record", "out of memory");
        return;
    }
    hub_send(h, c->id, json_pack("{s:s, s:o}", "type", "record", "record", rec));
}

/* The `welcome` message: the protocol, the server, its time and, when set
 * (hub_invite_set), the invitation's addresses. */
static json_t *welcome_json(hub *h, int64_t now_ms)
{
    json_t *j = json_pack("{s:s, s:i, s:s, s:I}", "type", "welcome", "protocol", HUB_PROTOCOL, "server", HUB_VERSION,
                          "server_ms", (json_int_t)now_ms);
    if (j && h->invite)
        json_object_set(j, "invite", h->invite);
    return j;
}

int hub_invite_set(hub *h, const char *const *urls, int n, int local_only)
{
    json_t *arr = json_array();
    for (int i = 0; arr && i < n; i++)
        if (json_array_append_new(arr, json_string(urls[i]))) {
            json_decref(arr);
            arr = NULL;
        }
    json_t *inv = arr ? json_pack("{s:o, s:b}", "urls", arr, "local_only", local_only) : NULL;
    if (!inv)
        return -1;
    json_decref(h->invite);
    h->invite = inv;
    return 0;
}

void hub_account(hub *h, uint64_t conn, int64_t id, const char *name, int64_t now_ms)
{
    h->now = now_ms;
    hub_conn *c = hub_conn_get(h, conn);
    if (!c || id <= 0 || !name)
        return;
    c->account = id;
    size_t len = strlen(name);
    if (len > HUB_MAX_NAME) { /* cut at a character's start */
        len = HUB_MAX_NAME;
        while (len && ((unsigned char)name[len] & 0xc0) == 0x80)
            len--;
    }
    memcpy(c->aname, name, len);
    c->aname[len] = 0;
    send_now(h, c->id, json_pack("{s:s, s:s}", "type", "account", "name", c->aname));
}

void hub_account_deleted(hub *h, int64_t id, const char *anon, int64_t now_ms)
{
    h->now = now_ms;
    if (id <= 0)
        return;
    for (int i = 0; i < h->nconns; i++)
        if (h->conns[i].id && h->conns[i].account == id) {
            h->conns[i].account = 0;
            h->conns[i].aname[0] = 0;
        }
    for (int i = 0; i < h->nrooms; i++) {
        hub_room *r = h->rooms[i];
        int changed = 0;
        for (int s = 0; s < r->nseats; s++)
            if (r->seats[s].kind == HUB_SEAT_PERSON && r->seats[s].account == id) {
                snprintf(r->seats[s].name, sizeof r->seats[s].name, "%s", anon);
                r->seats[s].account = 0;
                changed = 1;
            }
        if (changed) {
            hubb_queue_config(h, r);
            hub_room_broadcast(h, r);
        }
    }
}

static void req_hello(hub *h, hub_conn *c, json_t *root, int64_t now_ms)
{
    const char *type;
    int v = 0;
    json_error_t je;
    if (json_unpack_ex(root, &je, JSON_STRICT, "{s:s, s:i}", "type", &type, "v", &v) < 0 || v != HUB_PROTOCOL) {
        hub_error(h, c->id, "shape", "hello", "hello: {v: %d} (this server speaks version %d)", HUB_PROTOCOL,
                  HUB_PROTOCOL);
        return;
    }
    send_now(h, c->id, welcome_json(h, now_ms));
}

/* A message of no more than its type: {"type": T}. */
static int bare(hub *h, hub_conn *c, json_t *root, const char *t)
{
    const char *type;
    json_error_t je;
    if (json_unpack_ex(root, &je, JSON_STRICT, "{s:s}", "type", &type) < 0) {
        hub_error(h, c->id, "shape", t, "%s takes no field but type: %s", t, je.text);
        return 0;
    }
    return 1;
}

/* ---- takebacks (docs/web-protocol.md) ---------------------------------- */

/* Where a takeback asked by seat `by` takes `r` back to: before its last
 * move (not one the hub played for it), so past the computers' moves and
 * the chance that followed; -1 when it has none. */
static int takeback_target(const hub_room *r, int by)
{
    for (int i = r->m->nhist - 1; i >= 0; i--)
        if (r->m->hist[i].seat >= 0 && hub_seat_owner(r, r->m->hist[i].seat) == by && !r->ent[i].forced)
            return i;
    return -1;
}

/* Whether every person seat of `r` has accepted the takeback. */
static int takeback_agreed(const hub_room *r)
{
    for (int s = 0; s < r->nseats; s++)
        if (r->seats[s].kind == HUB_SEAT_PERSON && !(r->tb_yes & (1u << s)))
            return 0;
    return 1;
}

/* Takes `r` back for seat `by` (everyone agreed): `result` told. */
static void takeback_do(hub *h, hub_conn *c, hub_room *r, int by, const char *result, int64_t now_ms)
{
    int n = takeback_target(r, by), from = r->m->nhist;
    int moves = 0;
    for (int i = n; i >= 0 && i < from; i++)
        moves += r->m->hist[i].seat >= 0;
    r->tb_by = -1; /* answered: the moves replayed on are no person's (hub.c, play_one) */
    r->tb_yes = 0;
    if (n < 0 || hub_room_take_back(h, r, n, now_ms) < 0) {
        hub_error(h, c->id, "takeback", "takeback", n < 0 ? "nothing to take back" : "out of memory");
        hub_room_broadcast(h, r);
        return;
    }
    hub_takeback_end(h, r, by, result, c->seat == by ? -1 : c->seat, moves);
    hub_room_broadcast(h, r);
}

/* {"type":"takeback"}: a seated person asks to take back their last move;
 * the other persons are asked (a room with no other person grants it). */
static void req_takeback(hub *h, hub_conn *c, json_t *root, int64_t now_ms)
{
    (void)root;
    hub_room *r = seated(h, c, "takeback");
    if (!r)
        return;
    const char *why = hub_room_over(r) ? "the game is over"
                      : !hub_room_started(r) ? "the room waits for its players"
                      : r->kar || r->game->check ? "no takeback in a game played in real time"
                      : hub_seat_is_ai(r, c->seat) ? "the computer plays your seat"
                      : r->tb_by >= 0 ? "a takeback is already asked"
                      : r->tb_hist ? "the last takeback is still being stored: try again"
                      : r->tb_declined[c->seat] == r->m->nhist ? "declined: ask again after the next move"
                      : takeback_target(r, c->seat) < 0 ? "nothing to take back: you have not moved yet"
                                                         : NULL;
    if (why) {
        hub_error(h, c->id, "takeback", "takeback", "%s", why);
        return;
    }
    r->tb_by = c->seat;
    r->tb_yes = 1u << c->seat;
    if (takeback_agreed(r)) /* no other person: as the terminal's undo */
        takeback_do(h, c, r, c->seat, "granted", now_ms);
    else
        hub_room_broadcast(h, r); /* the state's "takeback" asks the others */
}

/* {"type":"takeback_answer","accept":bool}: another person's answer (the
 * asker's own `false` withdraws it). */
static void req_takeback_answer(hub *h, hub_conn *c, json_t *root, int64_t now_ms)
{
    const char *type;
    int accept = 0;
    json_error_t je;
    if (json_unpack_ex(root, &je, JSON_STRICT, "{s:s, s:b}", "type", &type, "accept", &accept) < 0) {
        hub_error(h, c->id, "shape", "takeback_answer", "takeback_answer: {accept (bool)}: %s", je.text);
        return;
    }
    hub_room *r = seated(h, c, "takeback_answer");
    if (!r)
        return;
    int by = r->tb_by;
    if (by < 0 || (by == c->seat && accept)) {
        hub_error(h, c->id, "takeback", "takeback_answer", by < 0 ? "no takeback is asked" : "you asked it");
        return;
    }
    if (!accept) {
        if (by != c->seat)
            r->tb_declined[by] = r->m->nhist; /* not again before the next move */
        hub_takeback_end(h, r, by, by == c->seat ? "withdrawn" : "declined", by == c->seat ? -1 : c->seat, 0);
        hub_room_broadcast(h, r);
        return;
    }
    r->tb_yes |= 1u << c->seat;
    if (takeback_agreed(r))
        takeback_do(h, c, r, by, "accepted", now_ms);
    else
        hub_room_broadcast(h, r);
}

/* Rate limit: 1 when the message may go on. */
static int rate_ok(hub *h, hub_conn *c, int64_t now_ms)
{
    if (now_ms > c->tokens_ms) {
        c->tokens += (double)(now_ms - c->tokens_ms) * h->cfg.rate_per_s / 1000.0;
        if (c->tokens > h->cfg.rate_burst)
            c->tokens = h->cfg.rate_burst;
        c->tokens_ms = now_ms;
    }
    if (c->tokens >= 1) {
        c->tokens -= 1;
        c->dropped = 0;
        return 1;
    }
    h->st.rate_limited++;
    if (++c->dropped > h->cfg.rate_burst) { /* a flood: answer and close */
        json_t *j = json_pack("{s:s, s:s, s:s, s:n}", "type", "error", "error", "rate", "message",
                              "too many messages: closing", "request");
        char *s = hub_dump(j);
        if (s)
            hub_queue_msg(h, c->id, s, 1, 0, NULL, 0);
        h->st.errors++;
        return 0;
    }
    hub_error(h, c->id, "rate", NULL, "more than %d messages a second (bursts of %d): this one was dropped",
              h->cfg.rate_per_s, h->cfg.rate_burst);
    return 0;
}

static void req_games(hub *h, hub_conn *c, json_t *root, int64_t now_ms)
{
    (void)root;
    (void)now_ms;
    send_now(h, c->id, games_json());
}

static void req_rooms(hub *h, hub_conn *c, json_t *root, int64_t now_ms)
{
    (void)root;
    (void)now_ms;
    send_now(h, c->id, rooms_json(h));
}

static void req_leave(hub *h, hub_conn *c, json_t *root, int64_t now_ms)
{
    (void)root;
    conn_leave(h, c, now_ms);
    send_now(h, c->id, json_pack("{s:s}", "type", "left"));
}

/* Karuta's `sync` and `touch` come only from a seat of a karuta room: 1
 * when `c` is one, else 0 after answering `seat`. */
static int karuta_seat(hub *h, hub_conn *c, const char *t)
{
    if (!c->room || c->seat < 0 || !c->room->kar) {
        hub_error(h, c->id, "seat", t, "%s: only for a seat of a karuta room", t);
        return 0;
    }
    return 1;
}

static void req_sync(hub *h, hub_conn *c, json_t *root, int64_t now_ms)
{
    json_int_t id = 0, ms = 0;
    const char *type;
    json_error_t je;
    if (json_unpack_ex(root, &je, JSON_STRICT, "{s:s, s:I, s:I}", "type", &type, "id", &id, "client_ms", &ms) < 0)
        hub_error(h, c->id, "shape", "sync", "%s", "sync: {id, client_ms}");
    else if (karuta_seat(h, c, "sync"))
        hubk_sync(h, c, id, ms, now_ms);
}

static void req_touch(hub *h, hub_conn *c, json_t *root, int64_t now_ms)
{
    json_int_t ms = 0;
    int card = 0, poet = 0;
    const char *type;
    json_error_t je;
    if (json_unpack_ex(root, &je, JSON_STRICT, "{s:s, s:i, s:I, s?i}", "type", &type, "card", &card, "client_ms", &ms,
                       "poet", &poet) < 0 ||
        card < 1 || card > 100 || poet < 0 || poet > 100)
        hub_error(h, c->id, "shape", "touch", "%s", "touch: {card (1-100), client_ms, poet (optional, 1-100)}");
    else if (karuta_seat(h, c, "touch"))
        hubk_touch(h, c, card, ms, poet, now_ms);
}

static void req_ready(hub *h, hub_conn *c, json_t *root, int64_t now_ms)
{
    (void)root;
    if (karuta_seat(h, c, "ready"))
        hubk_ready(h, c, now_ms);
}

/* ---- the table of requests ------------------------------------------- */

/* A request's shape: HUBQ_BARE takes no field but "type" (`bare` checks it
 * before the handler runs); HUBQ_FIELDS has fields its handler unpacks
 * strictly (JSON_STRICT), answering `shape` when they are wrong. */
enum { HUBQ_FIELDS = 0, HUBQ_BARE = 1 };

/* A handler answers request `root` (an object whose "type" names it) of
 * connection `c` at `now_ms`: its reply, or one `error`, queued. */
typedef void (*hubq_handler)(hub *h, hub_conn *c, json_t *root, int64_t now_ms);

typedef struct hubq_cmd {
    const char *name; /* the message's "type" */
    int shape;        /* HUBQ_BARE or HUBQ_FIELDS */
    hubq_handler run;
} hubq_cmd;

/* Every request, in the order the "unknown type" error lists them
 * (docs/web-protocol.md). */
static const hubq_cmd commands[] = {
    {"hello", HUBQ_FIELDS, req_hello},
    {"games", HUBQ_BARE, req_games},
    {"rooms", HUBQ_BARE, req_rooms},
    {"create", HUBQ_FIELDS, req_create},
    {"join", HUBQ_FIELDS, req_join},
    {"watch", HUBQ_FIELDS, req_watch},
    {"act", HUBQ_FIELDS, req_act},
    {"chat", HUBQ_FIELDS, req_chat},
    {"rematch", HUBQ_BARE, req_rematch},
    {"record", HUBQ_FIELDS, req_record},
    {"replay", HUBQ_FIELDS, hubr_req_replay},
    {"replay_part", HUBQ_FIELDS, hubr_req_replay_part},
    {"review", HUBQ_FIELDS, hubw_req_review},
    {"sync", HUBQ_FIELDS, req_sync},
    {"touch", HUBQ_FIELDS, req_touch},
    {"ready", HUBQ_BARE, req_ready},
    {"leave", HUBQ_BARE, req_leave},
    {"takeback", HUBQ_BARE, req_takeback},
    {"takeback_answer", HUBQ_FIELDS, req_takeback_answer},
    {"seek", HUBQ_FIELDS, hubp_req_seek},
    {"unseek", HUBQ_BARE, hubp_req_unseek},
    {"counts", HUBQ_BARE, hubp_req_counts},
    {"hint", HUBQ_FIELDS, hubh_req_hint},
};
enum { NCOMMANDS = sizeof commands / sizeof commands[0] };

/* The request of type `t`, or NULL. */
static const hubq_cmd *command_find(const char *t)
{
    for (int i = 0; i < NCOMMANDS; i++)
        if (!strcmp(t, commands[i].name))
            return &commands[i];
    return NULL;
}

void hub_message(hub *h, uint64_t conn, const char *data, size_t len, int64_t now_ms)
{
    h->now = now_ms;
    hub_conn *c = hub_conn_get(h, conn);
    if (!c)
        return;
    if (!h->redispatch) { /* a request re-read once its room is loaded was counted when it came */
        h->st.messages_in++;
        if (!rate_ok(h, c, now_ms))
            return;
    }
    if (len > HUB_MAX_MESSAGE) {
        hub_error(h, conn, "too-long", NULL, "a message is at most %d bytes, not %zu", HUB_MAX_MESSAGE, len);
        return;
    }
    json_error_t je;
    json_t *root = json_loadb(data, len, JSON_REJECT_DUPLICATES, &je);
    if (!root) {
        hub_error(h, conn, "json", NULL, "not JSON: %s (line %d, column %d)", je.text, je.line, je.column);
        return;
    }
    json_t *jt = json_is_object(root) ? json_object_get(root, "type") : NULL;
    if (!jt || !json_is_string(jt)) {
        hub_error(h, conn, "shape", NULL, "a message is one JSON object with a string \"type\"");
        json_decref(root);
        return;
    }
    const char *t = json_string_value(jt);
    const hubq_cmd *cmd = command_find(t);
    if (!cmd) {
        pl_buf types = {0};
        for (int i = 0; i < NCOMMANDS; i++)
            pl_buf_printf(&types, "%s%s", i ? ", " : "", commands[i].name);
        hub_error(h, conn, "type", t, "unknown type '%.40s'; types: %s", t, pl_buf_str(&types));
        pl_buf_free(&types);
    } else if (cmd->shape != HUBQ_BARE || bare(h, c, root, cmd->name)) {
        cmd->run(h, c, root, now_ms);
        c = hub_conn_get(h, conn);
        if (c && c->room && (c->seek || c->counts))
            hubp_entered(h, c); /* a seek ends when its connection goes into a room */
    }
    json_decref(root);
}

void hubq_random_hex(hub *h, char out[HUB_CODE]) { random_hex(h, out); }

uint64_t hubq_random_seed(hub *h) { return random_seed(h); }

/* ---- connections ------------------------------------------------------- */

uint64_t hub_connect(hub *h, int64_t now_ms)
{
    h->now = now_ms;
    if (h->live_conns >= (uint64_t)h->cfg.max_conns)
        return 0;
    int slot;
    if (h->nfree)
        slot = h->freeslots[--h->nfree];
    else {
        if (h->nconns == h->capconns) {
            int cap = h->capconns ? h->capconns * 2 : 64;
            hub_conn *a = pl_realloc(h->conns, sizeof *a * (size_t)cap);
            int *f = a ? pl_realloc(h->freeslots, sizeof *f * (size_t)cap) : NULL;
            if (a)
                h->conns = a;
            if (!f)
                return 0;
            h->freeslots = f;
            h->capconns = cap;
        }
        slot = h->nconns++;
    }
    h->gen++;
    hub_conn *c = &h->conns[slot];
    memset(c, 0, sizeof *c);
    c->id = ((uint64_t)h->gen << 32) | (uint64_t)(slot + 1);
    c->seat = -1;
    c->tokens = h->cfg.rate_burst;
    c->tokens_ms = now_ms;
    c->replay_steps = h->cfg.replay_burst;
    c->replay_ms = now_ms;
    h->live_conns++;
    hubp_changed(h);
    send_now(h, c->id, welcome_json(h, now_ms));
    return c->id;
}

void hub_disconnect(hub *h, uint64_t conn, int64_t now_ms)
{
    h->now = now_ms;
    hub_conn *c = hub_conn_get(h, conn);
    if (!c)
        return;
    conn_leave(h, c, now_ms);
    hubp_conn_gone(h, c);
    pl_free(c->up);
    c->up = NULL;
    c->uplen = 0;
    c->id = 0;
    h->freeslots[h->nfree++] = (int)(c - h->conns);
    h->live_conns--;
}
