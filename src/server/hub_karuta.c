/* hub_karuta.c — karuta's real-time reading in the hub (hub_int.h, hubk_*).
 *
 * When a karuta room's state enters a touch stage (a card was read: the
 * chance action "read N"), the hub reads it aloud: `reading` at once (its
 * `n` the match's readings so far, so it goes on after a restart), then
 * each kana (karp_reading_of's timeline) when its time comes, from t0 =
 * HUBK_LEAD_MS after the reading began. A connection that arrives during
 * the reading (join, watch) gets `reading` after its state, then the kana
 * read so far (hubk_arrived; `told` keeps it from getting it twice). The
 * read action's history entry is withheld while the reading is answered
 * (hubk_visible), and the view
 * names no card then (docs/web-views.md), so nothing tells the card before
 * the kana that decide it are sent. (Not even the number of kana: the
 * protocol's draft had `kana_count` in `reading`, but the length of an
 * upper half differs from poem to poem and can tell cards apart.)
 *
 * Seats answer with `touch` messages (card, client_ms on the client's
 * clock), converted to the reading's timeline by the seat's rtc_clock
 * (rtclock.h; the hub pings `sync` on join and every HUBK_SYNC_MS). A
 * computer seat's answer is a job queued at the reading's start, kept secret
 * until the window closes. The window closes when every person's answer is
 * final (the read card touched, or 3 touches; uta: 1) and every computer
 * answered, or at the reading's deadline (karp_reading.deadline_ms) +
 * HUBK_MARGIN_MS on the server's clock after t0; then every seat's answer is
 * played ("touch N@MS ..." or "none", docs/notation-karuta.md, built as the
 * game's action by karp_answer_action, never as text) in seat order, and
 * the judgement goes out in `state`; the next reading waits HUBK_PAUSE_MS,
 * so that every client sees the judgement first.
 *
 * Before the first reading the memorisation time (KA-R3, the option memo_s)
 * runs: the first `read N` waits memo_s seconds from the moment it became
 * due (every seat taken; uta: the pool chosen), or until every person seat
 * has sent `ready` (a computer, or a seat a computer covers, is always
 * ready). The state tells it (hubk_put_memo: the time left, who is ready).
 * A restored room counts its memorisation afresh (nothing of it is stored).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hub_int.h"
#include "kar_practice.h"
#include "parlour/alloc.h"
#include "parlour/jsonout.h"
#include "rtclock.h"

#define HUBK_LEAD_MS 1000   /* from the reading's start to its first kana */
#define HUBK_MARGIN_MS 500  /* network margin after the deadline */
#define HUBK_SYNC_MS 5000   /* clock sync period during play */
#define HUBK_BURST 4        /* syncs sent on join, HUBK_BURST_MS apart */
#define HUBK_BURST_MS 100
#define HUBK_PINGS 16       /* sync pings remembered (by id) */
#define HUBK_PAUSE_MS 3000  /* from a judgement to the next reading */

struct hub_karuta {
    int on;                 /* a reading is being answered */
    int closing;            /* its answers are being played */
    int read_idx;           /* history index of its "read" action */
    int n;                  /* reading number: the match's readings so far (karp_reading.n) */
    karp_reading rd;
    int64_t t0;             /* server time of the first kana */
    int64_t next_read_ms;   /* the next reading not before (the judgement is shown) */
    int sent;               /* kana sent */
    int uta, poet_mode;
    int ntouch[PL_MAX_SEATS];
    int card[PL_MAX_SEATS][3];
    int ms[PL_MAX_SEATS][3];
    int poet[PL_MAX_SEATS];
    int final_[PL_MAX_SEATS];
    int persons;                   /* persons answering this reading */
    int ai_wait[PL_MAX_SEATS];     /* a computer's answer is awaited */
    int ai_has[PL_MAX_SEATS];
    pl_action ai_answer[PL_MAX_SEATS];
    rtc_clock clk[PL_MAX_SEATS];
    uint64_t clk_conn[PL_MAX_SEATS]; /* the connection the clock measures */
    int64_t next_sync[PL_MAX_SEATS];
    int burst[PL_MAX_SEATS];
    int64_t ping_id;
    int64_t ping_sent[HUBK_PINGS];
    int ping_seat[HUBK_PINGS];
    int64_t ping_ids[HUBK_PINGS];
    uint64_t *told;         /* connections sent this reading's `reading` */
    int ntold, told_cap;
    int64_t memo_end;       /* memorisation (KA-R3) ends then; 0: not begun */
    int memo_over;          /* memorisation ended (every person ready, or its time up) */
    int ready[PL_MAX_SEATS]; /* the seat said `ready` during memorisation */
};

json_t *hubk_room_options(const pl_game *g, json_t *opts, int *oom)
{
    *oom = 0;
    if (strcmp(g->id, "karuta") || (opts && json_object_get(opts, "tempo")))
        return json_incref(opts);
    json_t *o = opts ? json_copy(opts) : json_object();
    if (!o || json_object_set_new(o, "tempo", json_string("even")) < 0) {
        json_decref(o);
        *oom = 1;
        return NULL;
    }
    return o;
}

int hubk_applies(const hub_room *r)
{
    hub_room *w = (hub_room *)r;
    if (strcmp(r->game->id, "karuta") || r->kar)
        return 0;
    w->kar = pl_calloc(1, sizeof *w->kar);
    if (!w->kar)
        return -1;
    const char *variant = pl_opts_get(&r->m->opts, "variant");
    const char *answer = pl_opts_get(&r->m->opts, "answer");
    w->kar->uta = variant && !strcmp(variant, "uta");
    w->kar->poet_mode = answer && !strcmp(answer, "poet");
    for (int s = 0; s < PL_MAX_SEATS; s++)
        rtc_init(&w->kar->clk[s]);
    return 0;
}

void hubk_free(hub_room *r)
{
    if (r->kar)
        pl_free(r->kar->told);
    pl_free(r->kar);
    r->kar = NULL;
}

void hubk_reset(hub_room *r)
{
    hub_karuta *k = r->kar;
    k->on = 0;
    k->closing = 0;
}

int hubk_visible(const hub_room *r)
{
    const hub_karuta *k = r->kar;
    return k && k->on ? k->read_idx : r->m->nhist;
}

/* The answer of seat `s` as the game's action (touch N@MS ... or none,
 * built directly: karp_answer_action); 0, or -1 when it is not well formed. */
static int answer_action(const hub_room *r, int s, pl_action *a)
{
    const hub_karuta *k = r->kar;
    int n = k->ntouch[s];
    int poet = k->poet_mode && n ? (k->poet[s] ? k->poet[s] : k->card[s][0]) : 0;
    return karp_answer_action(r->game, k->card[s], k->ms[s], n, poet, a);
}

/* The `reading` message of the reading on (a new reference; NULL without memory). */
static json_t *reading_msg(const hub_karuta *k)
{
    return json_pack("{s:s, s:i, s:I}", "type", "reading", "n", k->n, "t0_ms", (json_int_t)k->t0);
}

/* The `kana` message of kana `i` of the reading on. */
static json_t *kana_msg(const hub_karuta *k, int i)
{
    return json_pack("{s:s, s:i, s:i, s:s, s:i}", "type", "kana", "n", k->n, "i", i, "kana", k->rd.kana[i], "t_ms",
                     k->rd.start_ms[i]);
}

/* Sends the reading's `reading` to connection `conn` and notes it told
 * (without memory it is sent all the same, and may be sent again). */
static void tell(hub *h, hub_karuta *k, uint64_t conn)
{
    if (k->ntold == k->told_cap) {
        int cap = k->told_cap ? 2 * k->told_cap : 8;
        uint64_t *t = pl_realloc(k->told, (size_t)cap * sizeof *t);
        if (t) {
            k->told = t;
            k->told_cap = cap;
        }
    }
    if (k->ntold < k->told_cap)
        k->told[k->ntold++] = conn;
    hub_send(h, conn, reading_msg(k));
}

/* 1 while the first reading is due and memorisation applies to it: it has
 * not ended, no `read N` was played yet and memo_s > 0. Work: the history's
 * length, only until a reading is read (checked first: the phase). */
static int memo_applies(const hub_room *r)
{
    const hub_karuta *k = r->kar;
    if (k->memo_over || r->game->phase(r->m->state) != PL_PHASE_CHANCE || pl_opts_int(&r->m->opts, "memo_s") <= 0)
        return 0;
    for (int i = 0; i < r->m->nhist; i++)
        if (r->m->hist[i].seat == PL_CHANCE)
            return 0; /* a reading was read: memorisation is over */
    return 1;
}

/* Whether seat `s` must say `ready` before memorisation may end early: a
 * person's seat that no computer covers. */
static int memo_waits_for(const hub_room *r, int s)
{
    return r->seats[s].kind == HUB_SEAT_PERSON && !hub_seat_is_ai(r, s);
}

/* 1 when every person seat of `r` has said `ready`. */
static int memo_all_ready(const hub_room *r)
{
    for (int s = 0; s < r->nseats; s++)
        if (memo_waits_for(r, s) && !r->kar->ready[s])
            return 0;
    return 1;
}

int hubk_hold_chance(const hub_room *r, int64_t now_ms)
{
    const hub_karuta *k = r->kar;
    if (!k)
        return 0;
    if (memo_applies(r) && !memo_all_ready(r) && (!k->memo_end || now_ms < k->memo_end))
        return 1; /* memorising: hubk_after_change starts the count when it is 0 */
    return now_ms < k->next_read_ms;
}

void hubk_put_memo(const hub_room *r, int64_t now_ms, pl_buf *out)
{
    const hub_karuta *k = r->kar;
    if (!k || !k->memo_end || !hub_room_started(r) || !memo_applies(r) || memo_all_ready(r))
        return;
    int64_t left = k->memo_end - now_ms;
    pl_buf_puts(out, ",\"memo\":{\"left_ms\":");
    pl_json_put_int(out, left > 0 ? left : 0);
    pl_buf_puts(out, ",\"ready\":[");
    for (int s = 0; s < r->nseats; s++) {
        if (s)
            pl_buf_putc(out, ',');
        pl_buf_puts(out, !memo_waits_for(r, s) || k->ready[s] ? "true" : "false");
    }
    pl_buf_puts(out, "],\"total_ms\":");
    pl_json_put_int(out, (int64_t)pl_opts_int(&r->m->opts, "memo_s") * 1000);
    pl_buf_putc(out, '}');
}

void hubk_ready(hub *h, hub_conn *c, int64_t now_ms)
{
    hub_room *r = c->room;
    hub_karuta *k = r->kar;
    int s = c->seat;
    if (!hub_room_started(r) || !memo_applies(r) || !k->memo_end || memo_all_ready(r)) {
        hub_error(h, c->id, "not-your-turn", "ready", "ready: only during the memorisation time before the first reading");
        return;
    }
    if (k->ready[s])
        return; /* said already: nothing changes */
    k->ready[s] = 1;
    if (memo_all_ready(r)) {
        k->memo_over = 1; /* every person is ready: the first reading now */
        hub_room_advance(h, r, now_ms);
    }
    hub_room_broadcast(h, r);
}

void hubk_after_change(hub *h, hub_room *r, int64_t now_ms)
{
    hub_karuta *k = r->kar;
    if (k->closing || k->on)
        return;
    if (!k->memo_end && hub_room_started(r) && memo_applies(r)) /* the first reading is due: memorise */
        k->memo_end = now_ms + (int64_t)pl_opts_int(&r->m->opts, "memo_s") * 1000;
    karp_reading rd;
    if (!karp_reading_of(r->game, r->m->state, &rd) || r->m->nhist == 0)
        return;
    /* a reading begins: the last action was the chance "read N" */
    memset(k->ntouch, 0, sizeof k->ntouch);
    memset(k->final_, 0, sizeof k->final_);
    memset(k->poet, 0, sizeof k->poet);
    memset(k->ai_has, 0, sizeof k->ai_has);
    memset(k->ai_wait, 0, sizeof k->ai_wait);
    k->rd = rd;
    k->on = 1;
    k->read_idx = r->m->nhist - 1;
    k->n = rd.n; /* from the history, so a restored room goes on counting */
    k->t0 = now_ms + HUBK_LEAD_MS;
    k->sent = 0;
    k->persons = 0;
    for (int s = 0; s < r->nseats; s++) {
        if (!pl_is_actor(r->game, r->m->state, s)) {
            k->final_[s] = 1;
            continue;
        }
        if (hub_seat_is_ai(r, s)) {
            pl_buf err = {0};
            const char *level = r->seats[s].kind == HUB_SEAT_AI ? r->seats[s].level : hub_takeover_level(h);
            const ai_player *p = r->seats[s].kind == HUB_SEAT_AI && r->seats[s].ai
                                     ? r->seats[s].ai
                                     : hub_player(h, r->game, level, &err);
            pl_buf_free(&err);
            if (hub_job_queue(h, r, s, p, HUB_JOB_KARUTA)) {
                r->seats[s].job_nhist = r->m->nhist;
                k->ai_wait[s] = 1;
            }
            k->final_[s] = 1;
        } else {
            k->persons++;
        }
    }
    k->ntold = 0;
    for (int i = 0; i < r->nmembers; i++)
        tell(h, k, r->members[i]);
}

void hubk_arrived(hub *h, hub_room *r, hub_conn *c)
{
    hub_karuta *k = r->kar;
    if (!k || !k->on)
        return;
    for (int i = 0; i < k->ntold; i++)
        if (k->told[i] == c->id)
            return; /* it was a member when the reading began (join started it) */
    tell(h, k, c->id);
    for (int i = 0; i < k->sent; i++)
        hub_send(h, c->id, kana_msg(k, i));
}

/* Plays every answer and ends the reading. */
static void close_window(hub *h, hub_room *r, int64_t now_ms)
{
    hub_karuta *k = r->kar;
    k->closing = 1;
    k->next_read_ms = now_ms + HUBK_PAUSE_MS;
    for (int s = 0; s < r->nseats; s++) {
        if (!pl_is_actor(r->game, r->m->state, s))
            continue;
        pl_buf err = {0};
        pl_action a;
        int ok;
        if (k->ai_has[s]) {
            a = k->ai_answer[s];
            ok = 1;
        } else {
            ok = answer_action(r, s, &a) == 0;
        }
        if (!ok || hub_room_play(h, r, s, a, r->seats[s].conn, now_ms, &err) < 0) {
            pl_buf e2 = {0}; /* then no touch: "none" */
            if (karp_answer_action(r->game, NULL, NULL, 0, 0, &a) == 0)
                hub_room_play(h, r, s, a, 0, now_ms, &e2);
            pl_buf_free(&e2);
        }
        r->seats[s].job_nhist = -1;
        pl_buf_free(&err);
    }
    k->closing = 0;
    k->on = 0;
    hubk_after_change(h, r, now_ms); /* the next reading, when one began */
    hub_room_schedule(h, r);
    hub_room_broadcast(h, r);
}

/* The window closes early when the persons answering it have all given
 * their final answer and the computers have answered (a reading with no
 * person is read to its deadline, so that spectators hear it). */
static int all_final(const hub_room *r)
{
    const hub_karuta *k = r->kar;
    if (!k->persons)
        return 0;
    for (int s = 0; s < r->nseats; s++)
        if (!k->final_[s] || k->ai_wait[s])
            return 0;
    return 1;
}

void hubk_touch(hub *h, hub_conn *c, int card, int64_t client_ms, int poet, int64_t now_ms)
{
    hub_room *r = c->room;
    hub_karuta *k = r->kar;
    int s = c->seat;
    if (!k->on || now_ms < k->t0) {
        hub_error(h, c->id, "not-your-turn", "touch", "no reading is being answered now");
        return;
    }
    if (k->final_[s] || hub_seat_is_ai(r, s)) {
        hub_error(h, c->id, "not-your-turn", "touch", "your answer to this reading is complete");
        return;
    }
    if ((poet != 0) != (k->poet_mode != 0)) {
        hub_error(h, c->id, "shape", "touch", k->poet_mode ? "this room's answers name the poet: add \"poet\""
                                                           : "\"poet\" only with the option answer=poet");
        return;
    }
    for (int i = 0; i < k->ntouch[s]; i++)
        if (k->card[s][i] == card) {
            hub_error(h, c->id, "illegal", "touch", "card %d is touched already", card);
            return;
        }
    int lo = card == k->rd.card ? k->rd.start_ms[k->rd.decide] : 0;
    int clamped = 0;
    int ms = rtc_touch_ms(&k->clk[s], client_ms, now_ms, k->t0, lo, &clamped);
    if (clamped)
        fprintf(hub_log(h), "hub: room %s seat %d: touch of card %d clamped to %d ms\n", r->code, s, card, ms);
    if (ms > KARP_MS_MAX)
        ms = KARP_MS_MAX;
    /* the answer with this touch must be a valid action */
    int n = k->ntouch[s];
    k->card[s][n] = card;
    k->ms[s][n] = ms;
    k->ntouch[s] = n + 1;
    if (poet)
        k->poet[s] = poet;
    pl_buf err = {0};
    pl_action a;
    if (answer_action(r, s, &a) < 0 || pl_check(r->game, r->m->state, s, a, &err) < 0) {
        /* Not the game's message: its examples of valid touches carry the
         * read card's deciding time, which must not be told yet. */
        k->ntouch[s] = n;
        hub_error(h, c->id, "illegal", "touch", "card %d cannot be touched: it is not on the table", card);
    } else {
        hubg_moved(r, s); /* a touch of their own: not stalling (hub_rating.c) */
        if (card == k->rd.card || k->ntouch[s] == (k->uta ? 1 : 3))
            k->final_[s] = 1;
    }
    pl_buf_free(&err);
    if (all_final(r))
        close_window(h, r, now_ms);
}

void hubk_sync(hub *h, hub_conn *c, int64_t id, int64_t client_ms, int64_t now_ms)
{
    hub_karuta *k = c->room->kar;
    int slot = (int)(((id % HUBK_PINGS) + HUBK_PINGS) % HUBK_PINGS);
    if (k->ping_ids[slot] != id || id <= 0 || k->ping_seat[slot] != c->seat) {
        hub_error(h, c->id, "shape", "sync", "sync: id %lld is not a ping of this server's", (long long)id);
        return;
    }
    if (k->clk_conn[c->seat] == c->id)
        rtc_sample(&k->clk[c->seat], k->ping_sent[slot], client_ms, now_ms);
    k->ping_ids[slot] = 0;
}

void hubk_joined(hub *h, hub_room *r, hub_conn *c, int64_t now_ms)
{
    (void)h;
    hub_karuta *k = r->kar;
    if (k->clk_conn[c->seat] != c->id) {
        rtc_init(&k->clk[c->seat]);
        k->clk_conn[c->seat] = c->id;
    }
    k->burst[c->seat] = HUBK_BURST;
    k->next_sync[c->seat] = now_ms;
}

void hubk_job_done(hub *h, hub_room *r, int seat, pl_action a, int64_t now_ms)
{
    hub_karuta *k = r->kar;
    if (!k->on || !k->ai_wait[seat])
        return;
    k->ai_wait[seat] = 0;
    k->ai_has[seat] = 1;
    k->ai_answer[seat] = a;
    if (all_final(r) && now_ms >= k->t0)
        close_window(h, r, now_ms);
}

int64_t hubk_tick(hub *h, hub_room *r, int64_t now_ms)
{
    hub_karuta *k = r->kar;
    int query = now_ms == INT64_MIN;
    int64_t next = INT64_MAX;
    int over = r->game->phase(r->m->state) == PL_PHASE_OVER;
    /* clock sync pings */
    for (int s = 0; s < r->nseats && !over; s++) {
        hub_seat *t = &r->seats[s];
        if (!t->conn || t->conn != k->clk_conn[s])
            continue;
        if (!query && now_ms >= k->next_sync[s]) {
            int64_t id = ++k->ping_id;
            int slot = (int)(id % HUBK_PINGS);
            k->ping_ids[slot] = id;
            k->ping_sent[slot] = now_ms;
            k->ping_seat[slot] = s;
            hub_send(h, t->conn,
                     json_pack("{s:s, s:I, s:I}", "type", "sync", "id", (json_int_t)id, "server_ms", (json_int_t)now_ms));
            if (k->burst[s] > 0)
                k->burst[s]--;
            k->next_sync[s] = now_ms + (k->burst[s] > 0 ? HUBK_BURST_MS : HUBK_SYNC_MS);
        }
        if (k->next_sync[s] < next)
            next = k->next_sync[s];
    }
    if (!k->on) {
        if (k->memo_end && memo_applies(r)) { /* memorising */
            int ready = memo_all_ready(r); /* (a person's seat a computer took over is ready) */
            if (!query && (ready || now_ms >= k->memo_end)) { /* its time is up: the first reading */
                k->memo_over = 1;
                hub_room_advance(h, r, now_ms);
                hub_room_broadcast(h, r);
                return hubk_tick(h, r, INT64_MIN);
            }
            int64_t at = ready ? 0 : k->memo_end; /* 0: due now */
            return at < next ? at : next;
        }
        if (r->game->phase(r->m->state) == PL_PHASE_CHANCE && k->next_read_ms) {
            if (!query && now_ms >= k->next_read_ms) { /* the next reading */
                k->next_read_ms = 0;
                hub_room_advance(h, r, now_ms);
                hub_room_broadcast(h, r);
                return hubk_tick(h, r, INT64_MIN);
            }
            if (k->next_read_ms < next)
                next = k->next_read_ms;
        }
        return next;
    }
    /* kana due */
    while (k->sent < k->rd.nkana && (query ? 0 : now_ms >= k->t0 + k->rd.start_ms[k->sent])) {
        int i = k->sent++;
        for (int m = 0; m < r->nmembers; m++)
            hub_send(h, r->members[m], kana_msg(k, i));
    }
    int64_t close_at = k->t0 + k->rd.deadline_ms + HUBK_MARGIN_MS;
    if (!query && (now_ms >= close_at || (now_ms >= k->t0 && all_final(r)))) {
        close_window(h, r, now_ms);
        return hubk_tick(h, r, INT64_MIN);
    }
    if (k->sent < k->rd.nkana) {
        int64_t at = k->t0 + k->rd.start_ms[k->sent];
        return at < next ? at : next;
    }
    return close_at < next ? close_at : next;
}
