/* hub_timers.c — the rooms' timers: a min-heap of rooms by the time each is
 * next due, and what falls due (a grace that runs out, a move's or a total
 * clock (in a rated room, hubg_timed_out counts it towards stalling), a
 * finished or idle room let go, karuta's timed work through hubk_tick).
 * Thread: the hub's.
 */
#include <stdint.h>
#include <stdlib.h>

#include "hub_int.h"
#include "parlour/alloc.h"

#define HUB_IDLE_MS (5 * 1000) /* cluster: an unfinished room nobody is in is let go (its lease dropped) */

/* ---- the heap ---------------------------------------------------------- */

static void heap_down(hub *h, int i)
{
    for (;;) {
        int l = 2 * i + 1, m = i;
        if (l < h->nheap && h->heap[l].at < h->heap[m].at)
            m = l;
        if (l + 1 < h->nheap && h->heap[l + 1].at < h->heap[m].at)
            m = l + 1;
        if (m == i)
            return;
        hub_wake t = h->heap[i];
        h->heap[i] = h->heap[m];
        h->heap[m] = t;
        i = m;
    }
}

static void heap_build(hub *h)
{
    for (int i = h->nheap / 2 - 1; i >= 0; i--)
        heap_down(h, i);
}

static void heap_push(hub *h, int64_t at, hub_room *r)
{
    if (h->nheap == h->capheap) {
        int cap = h->capheap ? h->capheap * 2 : 64;
        hub_wake *a = pl_realloc(h->heap, sizeof *a * (size_t)cap);
        if (!a)
            return; /* no memory: the room's timer is late until its next change */
        h->heap = a;
        h->capheap = cap;
    }
    int i = h->nheap++;
    h->heap[i] = (hub_wake){at, r};
    while (i > 0 && h->heap[(i - 1) / 2].at > h->heap[i].at) {
        hub_wake t = h->heap[i];
        h->heap[i] = h->heap[(i - 1) / 2];
        h->heap[(i - 1) / 2] = t;
        i = (i - 1) / 2;
    }
}

static void heap_pop(hub *h)
{
    h->heap[0] = h->heap[--h->nheap];
    heap_down(h, 0);
}

static int64_t room_next(const hub_room *r);

/* Registers when room `r` is next due (after any change of it). */
void hubt_rewake(hub *h, hub_room *r)
{
    int64_t t = room_next(r);
    if (r->kar) {
        int64_t k = hubk_tick(h, r, INT64_MIN);
        if (k < t)
            t = k;
    }
    if (t == r->wake_ms)
        return;
    r->wake_ms = t;
    if (t != INT64_MAX)
        heap_push(h, t, r);
}

void hubt_forget(hub *h, const hub_room *r)
{
    int keep = 0; /* its timers go (the heap is rebuilt) */
    for (int n = 0; n < h->nheap; n++)
        if (h->heap[n].r != r)
            h->heap[keep++] = h->heap[n];
    h->nheap = keep;
    heap_build(h);
}

/* ---- what is due ------------------------------------------------------- */

/* Cluster: room `r` may be let go (its lease dropped) once idle_ms +
 * HUB_IDLE_MS has passed: nobody is in it, everything is durable, and it
 * waits for a person (no computer moves, no karuta reading, not over). */
static int room_idle(const hub_room *r)
{
    if (!r->idle_ms || r->nmembers || hub_room_over(r) || r->durable != r->logged)
        return 0;
    if (!hub_room_started(r))
        return 1; /* waits for its players */
    if (r->kar || r->game->phase(r->m->state) != PL_PHASE_MOVE)
        return 0;
    int seats[PL_MAX_SEATS];
    int n = r->game->actors(r->m->state, seats);
    for (int i = 0; i < n; i++)
        if (hub_seat_is_ai(r, seats[i]) || r->seats[seats[i]].job_nhist >= 0)
            return 0;
    return 1;
}

/* The next time room `r` needs a tick, given `now` (INT64_MAX none). */
static int64_t room_next(const hub_room *r)
{
    int64_t next = INT64_MAX;
    if (hub_room_over(r)) /* kept for its records and a rematch while anyone is in it */
        return r->over_ms && !r->nmembers && r->durable == r->logged ? r->over_ms + HUB_KEEP_OVER_MS : next;
    if (room_idle(r))
        next = r->idle_ms + HUB_IDLE_MS;
    if (!hub_room_started(r))
        return next;
    for (int s = 0; s < r->nseats; s++) {
        const hub_seat *t = &r->seats[s];
        if (t->kind == HUB_SEAT_PERSON && !t->conn && !t->covered && r->grace_s) {
            int64_t at = t->gone_ms + (int64_t)r->grace_s * 1000;
            if (at < next)
                next = at;
        }
    }
    if ((r->move_s || r->total_s) && r->game->phase(r->m->state) == PL_PHASE_MOVE &&
        !(r->kar && hubk_visible(r) < r->m->nhist)) {
        int seats[PL_MAX_SEATS];
        int n = r->game->actors(r->m->state, seats);
        for (int i = 0; i < n; i++) {
            if (hub_seat_is_ai(r, seats[i]) || (r->move_s && r->seats[seats[i]].job_nhist == r->m->nhist))
                continue; /* a computer, or the computer already plays this move for him */
            int64_t at = r->move_s ? r->turn_ms + (int64_t)r->move_s * 1000
                                   : r->turn_ms + r->seats[hub_seat_owner(r, seats[i])].left_ms;
            if (at < next)
                next = at;
        }
    }
    return next;
}

/* Runs what is due in room `r`; returns 1 when the room was let go (a
 * finished game nobody is in, HUB_KEEP_OVER_MS after its end; cluster: an
 * idle one, room_idle). */
static int room_tick(hub *h, hub_room *r, int64_t now_ms)
{
    int changed = 0;
    if (hub_room_over(r)) {
        if (r->over_ms && !r->nmembers && r->durable == r->logged && now_ms >= r->over_ms + HUB_KEEP_OVER_MS) {
            hub_room_remove(h, r);
            return 1;
        }
        return 0;
    }
    if (room_idle(r) && now_ms >= r->idle_ms + HUB_IDLE_MS) {
        hubb_room_let_go(h, r);
        return 1;
    }
    if (hub_room_started(r) && !hub_room_over(r)) {
        for (int s = 0; s < r->nseats; s++) {
            hub_seat *t = &r->seats[s];
            if (t->kind == HUB_SEAT_PERSON && !t->conn && !t->covered && r->grace_s &&
                now_ms >= t->gone_ms + (int64_t)r->grace_s * 1000) {
                t->covered = 1; /* the grace ran out: a computer keeps the seat */
                changed = 1;
            }
        }
        int kar_on = r->kar && hubk_visible(r) < r->m->nhist;
        if ((r->move_s || r->total_s) && r->game->phase(r->m->state) == PL_PHASE_MOVE && !kar_on) {
            int seats[PL_MAX_SEATS];
            int n = r->game->actors(r->m->state, seats);
            for (int i = 0; i < n; i++) {
                int s = seats[i];
                if (hub_seat_is_ai(r, s))
                    continue;
                if (r->move_s && now_ms >= r->turn_ms + (int64_t)r->move_s * 1000 &&
                    r->seats[s].job_nhist != r->m->nhist) {
                    /* the move's time ran out: the computer plays this one move */
                    pl_buf err = {0};
                    const ai_player *p = hub_player(h, r->game, h->cfg.takeover_level, &err);
                    pl_buf_free(&err);
                    if (p && hub_job_queue(h, r, s, p, HUB_JOB_CLOCK)) {
                        r->seats[s].job_nhist = r->m->nhist;
                        changed |= hubg_timed_out(h, r, s, 0); /* rated: the 3rd in a row counts as leaving */
                    }
                } else if (r->total_s && now_ms >= r->turn_ms + r->seats[hub_seat_owner(r, s)].left_ms) {
                    r->seats[hub_seat_owner(r, s)].left_ms = 0;
                    r->seats[hub_seat_owner(r, s)].out_of_time = 1; /* a computer plays his moves from then on */
                    hubg_timed_out(h, r, s, 1); /* rated: counts as leaving */
                    changed = 1;
                }
            }
        }
    }
    if (r->kar)
        hubk_tick(h, r, now_ms);
    if (changed) {
        hub_room_schedule(h, r);
        hub_room_broadcast(h, r);
    }
    return 0;
}

void hub_tick(hub *h, int64_t now_ms)
{
    h->now = now_ms;
    uint64_t seq = ++h->tick_seq;
    while (h->nheap && h->heap[0].at <= now_ms) {
        hub_wake w = h->heap[0];
        heap_pop(h);
        hub_room *r = w.r;
        if (w.at != r->wake_ms)
            continue; /* stale: the room's time moved */
        if (r->ticked == seq) { /* ticked in this call already: due again, next call */
            heap_push(h, w.at, r);
            break;
        }
        r->ticked = seq;
        r->wake_ms = INT64_MAX;
        if (!room_tick(h, r, now_ms))
            hubt_rewake(h, r);
    }
    hubp_tick(h, now_ms);
}

int64_t hub_next_ms(const hub *h)
{
    /* the top may be stale (earlier than needed): a spurious tick does nothing */
    int64_t p = hubp_next_ms(h);
    return h->nheap && h->heap[0].at < p ? h->heap[0].at : p;
}
