/* hub_batch.c — storage, the hub thread's side: what goes into the next
 * batch (rooms, configurations, actions, ends, loads, leases dropped), the
 * batch's answer (hub_store_done: messages released, or actions taken
 * back), restore at start, and rooms on demand and a cluster's leases
 * (docs/cluster.md). The batch itself is written by hub_store.c on the
 * storage thread. Thread: the hub's.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hub_int.h"
#include "parlour/alloc.h"
#include "parlour/registry.h"

#define HUB_MAX_PENDING 4096 /* requests waiting for rooms being loaded */

/* ---- the next batch ---------------------------------------------------- */

static hub_batchp *next_batch(hub *h)
{
    if (!h->next)
        h->next = pl_calloc(1, sizeof *h->next);
    return h->next;
}

/* The room's configuration as stored (docs/web-protocol.md, "Storage"). */
static char *room_config(const hub_room *r)
{
    json_t *seats = json_array();
    for (int s = 0; s < r->nseats; s++) {
        const hub_seat *t = &r->seats[s];
        if (t->kind == HUB_SEAT_AI)
            json_array_append_new(seats, json_pack("{s:s, s:s}", "kind", "ai", "level", t->level));
        else if (t->kind == HUB_SEAT_PARTNER)
            json_array_append_new(seats, json_pack("{s:s, s:i}", "kind", "partner", "of", t->of));
        else if (t->account) /* the account's id: its ratings follow it (issue 33) */
            json_array_append_new(seats, json_pack("{s:s, s:s, s:s, s:I}", "kind", "person", "name", t->name,
                                                   "token", t->token, "account", (json_int_t)t->account));
        else
            json_array_append_new(seats, json_pack("{s:s, s:s, s:s}", "kind", "person", "name", t->name,
                                                   "token", t->token));
        if (t->stalled) /* rated: stalling counted as leaving, kept over a restart (hub_rating.c) */
            json_object_set_new(json_array_get(seats, (size_t)s), "stalled", json_true());
    }
    json_t *j = json_pack("{s:o, s:i, s:i, s:i, s:b, s:b}", "seats", seats, "grace_s", r->grace_s, "move_s",
                          r->move_s, "total_s", r->total_s, "public", r->public_, "rated", r->rated);
    return j ? hub_dump(j) : NULL;
}

void hubb_queue_room(hub *h, hub_room *r)
{
    hub_batchp *p = next_batch(h);
    char *cfg = room_config(r);
    if (!p || !cfg || hub_grow((void **)&p->b.rooms, &p->caprooms, p->b.nrooms + 1, sizeof *p->b.rooms) < 0) {
        pl_free(cfg);
        return;
    }
    p->b.rooms[p->b.nrooms++] = (store_room){.code = hub_dupn(r->code), .game = hub_dupn(r->game->id),
                                             .options = hub_dupn(r->options_json), .config = cfg,
                                             .seed = r->m->seed, .created_ms = r->created_ms};
}

/* Queues the room's current configuration (seats joined). */
void hubb_queue_config(hub *h, hub_room *r)
{
    hub_batchp *p = next_batch(h);
    if (!p)
        return;
    char *cfg = room_config(r);
    if (!cfg)
        return;
    for (int i = 0; i < p->b.nrooms; i++) /* a room still in the batch: replace its config */
        if (!strcmp(p->b.rooms[i].code, r->code)) {
            pl_free((char *)p->b.rooms[i].config);
            p->b.rooms[i].config = cfg;
            return;
        }
    for (int i = 0; i < p->ncfg; i++)
        if (!strcmp(p->cfg_codes[i], r->code)) {
            pl_free(p->cfg_texts[i]);
            p->cfg_texts[i] = cfg;
            return;
        }
    int c1 = p->capcfg, c2 = p->capcfg;
    if (hub_grow((void **)&p->cfg_codes, &c1, p->ncfg + 1, sizeof(char *)) < 0 ||
        hub_grow((void **)&p->cfg_texts, &c2, p->ncfg + 1, sizeof(char *)) < 0) {
        pl_free(cfg);
        return;
    }
    p->capcfg = c1 < c2 ? c1 : c2;
    p->cfg_codes[p->ncfg] = hub_dupn(r->code);
    p->cfg_texts[p->ncfg++] = cfg;
}

int hubb_queue_action(hub *h, hub_room *r, int seq, int seat, const char *text, uint64_t sender)
{
    hub_batchp *p = next_batch(h);
    if (!p)
        return -1;
    int cap = p->capactions;
    if (hub_grow((void **)&p->b.actions, &cap, p->b.nactions + 1, sizeof *p->b.actions) < 0)
        return -1;
    int cap2 = p->capactions;
    if (hub_grow((void **)&p->senders, &cap2, p->b.nactions + 1, sizeof *p->senders) < 0)
        return -1;
    p->capactions = cap < cap2 ? cap : cap2;
    p->b.actions[p->b.nactions] =
        (store_action){.room = hub_dupn(r->code), .seq = seq, .seat = seat, .text = hub_dupn(text), .at_ms = h->now};
    p->senders[p->b.nactions++] = sender;
    return 0;
}

void hubb_queue_finish(hub *h, hub_room *r)
{
    if (r->finished_queued)
        return;
    hub_batchp *p = next_batch(h);
    if (!p)
        return;
    int c1 = p->capfinished, c2 = p->capfinished;
    if (hub_grow((void **)&p->b.finished, &c1, p->b.nfinished + 1, sizeof(char *)) < 0 ||
        hub_grow((void **)&p->b.results, &c2, p->b.nfinished + 1, sizeof(char *)) < 0)
        return;
    p->capfinished = c1 < c2 ? c1 : c2;
    p->b.finished[p->b.nfinished] = hub_dupn(r->code);
    p->b.results[p->b.nfinished++] = hub_dump(hubv_result_json(r));
    r->finished_queued = 1;
    if (r->rated) {
        pl_buf err = {0};
        hubg_fin f;
        if (hubg_finish(r, &f, &err) < 0 ||
            hub_grow((void **)&p->rated, &p->caprated, p->nrated + 1, sizeof *p->rated) < 0) {
            /* the finish is stored casual: said, not hidden */
            fprintf(stderr, "parlour serve: room %s is not rated: %s\n", r->code, pl_buf_str(&err));
        } else {
            f.now_ms = h->now;
            p->rated[p->nrated++] = f;
        }
        pl_buf_free(&err);
    }
}

int hub_store_pending(const hub *h)
{
    const hub_batchp *p = h->next;
    return h->inflight || !p ? 0 : p->b.nrooms + p->b.nactions + p->b.nfinished;
}

hub_batch *hub_store_take(hub *h)
{
    if (h->inflight)
        return NULL;
    hub_batchp *p = h->next;
    if (!p || !(p->b.nrooms || p->b.nactions || p->b.nfinished || p->ncfg || p->nloads || p->ndrops || p->nlooks ||
               p->nsputs || p->nsdrops || p->npairw || p->npdrops)) {
        hub_release(h, h->batch_seq); /* nothing to wait for */
        return NULL;
    }
    h->next = NULL;
    p->cluster = h->cfg.cluster;
    p->b.id = h->batch_seq++;
    h->inflight = p->b.id;
    return &p->b;
}

/* ---- storage answers --------------------------------------------------- */

/* Takes room `code`'s actions and finish out of the batch being built
 * (and, with `all`, its new room and configuration too). */
static void next_forget(hub *h, const char *code, int all)
{
    hub_batchp *nx = h->next;
    if (!nx)
        return;
    int k = 0;
    for (int i = 0; i < nx->b.nactions; i++) {
        if (!strcmp(nx->b.actions[i].room, code)) {
            pl_free((char *)nx->b.actions[i].room);
            pl_free((char *)nx->b.actions[i].text);
            continue;
        }
        nx->senders[k] = nx->senders[i];
        nx->b.actions[k++] = nx->b.actions[i];
    }
    nx->b.nactions = k;
    k = 0;
    for (int i = 0; i < nx->b.nfinished; i++) {
        if (!strcmp(nx->b.finished[i], code)) {
            pl_free(nx->b.finished[i]);
            pl_free(nx->b.results[i]);
            continue;
        }
        nx->b.results[k] = nx->b.results[i];
        nx->b.finished[k++] = nx->b.finished[i];
    }
    nx->b.nfinished = k;
    k = 0;
    for (int i = 0; i < nx->nrated; i++)
        if (strcmp(nx->rated[i].code, code))
            nx->rated[k++] = nx->rated[i];
    nx->nrated = k;
    if (!all)
        return;
    k = 0;
    for (int i = 0; i < nx->ncfg; i++) {
        if (!strcmp(nx->cfg_codes[i], code)) {
            pl_free(nx->cfg_codes[i]);
            pl_free(nx->cfg_texts[i]);
            continue;
        }
        nx->cfg_texts[k] = nx->cfg_texts[i];
        nx->cfg_codes[k++] = nx->cfg_codes[i];
    }
    nx->ncfg = k;
}

static void room_moved(hub *h, hub_room *r, const hub_batch *b);

static int durable_history(hub_room *r);

static void lobby_keep(hub *h, hub_room *r);

static void loads_done(hub *h, const hub_batchp *p, int64_t now_ms);

void hub_store_done(hub *h, const hub_batch *b, int ok, int64_t now_ms)
{
    h->now = now_ms;
    const hub_batchp *p = (const hub_batchp *)b;
    if (h->inflight == b->id)
        h->inflight = 0;
    for (int i = 0; i < p->nlost; i++) { /* another process holds them: they go from here */
        hub_room *r = hub_room_find(h, p->lost[i]);
        if (r)
            room_moved(h, r, b);
    }
    if (ok) {
        for (int i = 0; i < b->nactions; i++) {
            hub_room *r = hub_room_find(h, b->actions[i].room);
            if (r && r->durable < (int)b->actions[i].seq + 1) {
                r->durable = (int)b->actions[i].seq + 1;
                if (r->tb_hist && r->durable > r->tb_seq) { /* the takeback is durable */
                    pl_free(r->tb_hist);
                    r->tb_hist = NULL;
                }
                if (hub_room_over(r))
                    hubt_rewake(h, r);
            }
        }
        hub_release(h, b->id);
        for (int i = 0; i < p->nrated; i++) /* durable: each member is told */
            if (p->rated[i].written)
                hubg_announce(h, &p->rated[i]);
        for (int i = 0; h->cfg.cluster && i < b->nrooms; i++) {
            /* a room made here for players who come by its code (wherever
             * nginx sends that) was stored without a lease (hubb_room_give_away) */
            hub_room *r = hub_room_find(h, b->rooms[i].code);
            if (r && r->given_away) {
                if (r->public_)
                    lobby_keep(h, r); /* listed here until the store's list is read again */
                if (r->nmembers)
                    room_moved(h, r, NULL); /* joined here meanwhile: the lease is gone, come again */
                else
                    hub_room_remove(h, r);
            }
        }
        loads_done(h, p, now_ms);
        hubp_looks_done(h, p, now_ms);
        return;
    }
    /* Failed: rooms created in it go; actions in it are taken back. */
    for (int i = 0; i < b->nrooms; i++) {
        hub_room *r = hub_room_find(h, b->rooms[i].code);
        if (r) {
            hub_error(h, r->creator, "storage", "create", "the room could not be stored: try again");
            for (int k = 0; k < r->nmembers; k++)
                if (r->members[k] != r->creator)
                    hub_error(h, r->members[k], "storage", "create", "the room could not be stored: try again");
            next_forget(h, r->code, 1);
            hub_room_remove(h, r);
        }
    }
    for (int i = 0; i < p->ncfg; i++) { /* seats taken: written again with the next batch */
        hub_room *r = hub_room_find(h, p->cfg_codes[i]);
        if (r)
            hubb_queue_config(h, r);
    }
    for (int i = 0; i < b->nactions; i++) {
        hub_room *r = hub_room_find(h, b->actions[i].room);
        if (!r)
            continue;
        if (p->senders[i])
            hub_error(h, p->senders[i], "storage", "act", "the action could not be stored: it is taken back");
        if (r->logged > r->durable) {
            hub_drop_held(h, r, 0);
            next_forget(h, r->code, 0); /* the next batch's actions continue the failed ones */
            int n = durable_history(r);
            hub_room_truncate(r, n);
            r->finished_queued = 0;
            r->over_ms = 0;
            for (int s = 0; s < r->nseats; s++)
                r->seats[s].job_nhist = -1;
            if (r->kar)
                hubk_reset(r);
            for (int k = 0; k < r->nmembers; k++) {
                hub_conn *c = hub_conn_get(h, r->members[k]);
                if (c && c->hist_sent > n)
                    c->hist_sent = n;
            }
            /* on from the durable state: chance taken back is drawn again (the
             * same outcome: the generator follows the history's length), a
             * reading is read again, computers decide, clocks restart */
            hub_room_advance(h, r, now_ms);
            hub_room_broadcast(h, r);
        }
    }
    hub_release(h, b->id);
    loads_done(h, p, now_ms);
    hubp_looks_done(h, p, now_ms);
}

hub_batchp *hubb_batch(hub *h)
{
    return next_batch(h);
}

int hubb_queue_look(hub *h, const hubp_look *l)
{
    hub_batchp *p = next_batch(h);
    if (!p || hub_grow((void **)&p->looks, &p->caplooks, p->nlooks + 1, sizeof *p->looks) < 0)
        return -1;
    p->looks[p->nlooks++] = *l;
    return 0;
}

/* A write of room `r` failed: the history as durable (its `durable`
 * entries), the match taken back to (or, past a takeback that was not
 * stored, put back as far as) it. Returns its length, `logged` set to
 * `durable`. A takeback put back whose moves cannot be replayed (memory)
 * leaves the history shorter: those actions were written (durable) but the
 * room goes on from fewer; a restart reads them all again. */
static int durable_history(hub_room *r)
{
    int n;
    if (r->tb_hist && r->durable <= r->tb_seq) {
        /* the takeback failed: before it, entry seq s was history s - base */
        int base = r->tb_seq - r->tb_nhist;
        n = r->durable - base;
        int common = r->m->nhist;
        for (int i = 0; i < r->m->nhist && i < n; i++)
            if (r->m->hist[i].seat != r->tb_hist[i].seat || r->m->hist[i].a != r->tb_hist[i].a) {
                common = i;
                break;
            }
        if (common > n)
            common = n;
        hub_room_truncate(r, common);
        for (int i = common; i < n; i++) {
            pl_buf err = {0};
            int fseat;
            pl_action fa;
            int forced = hub_room_forced(r, &fseat, &fa);
            int rc = hub_room_apply(r, r->tb_hist[i].seat, r->tb_hist[i].a, &err);
            pl_buf_free(&err);
            if (rc < 0)
                break;
            r->ent[r->m->nhist - 1].forced = forced && fseat == r->tb_hist[i].seat && fa == r->tb_hist[i].a;
        }
        n = r->m->nhist;
        pl_free(r->tb_hist);
        r->tb_hist = NULL;
    } else {
        n = r->durable - (r->logged - r->m->nhist);
    }
    r->logged = r->durable;
    return n < 0 ? 0 : n;
}

/* ---- restore ----------------------------------------------------------- */

typedef struct restore_ctx {
    hub *h;
    store *s;
    int64_t now;
    int n;
    pl_buf *err;
    hub_room *r; /* while replaying */
    int all;     /* finished rooms too (a load on demand) */
    const store_action *acts; /* with s NULL: the actions, read already (a load) */
    int nacts;
    int entries; /* the room's stored entries read (actions and takebacks) */
} restore_ctx;

static int restore_action(void *ctx, const store_action *a)
{
    restore_ctx *x = ctx;
    hub_room *r = x->r;
    pl_buf err = {0};
    pl_action code;
    x->entries++;
    if (a->seat == HUB_SEAT_TAKEBACK) { /* a takeback: the history back to its length */
        char *end;
        long n = strtol(a->text, &end, 10);
        if (*a->text && !*end && n >= 0 && n < r->m->nhist) {
            hub_room_truncate(r, (int)n);
            return 0;
        }
        pl_buf_printf(x->err, "room %s: entry %lld: a takeback to '%s' of a history of %d", r->code,
                      (long long)a->seq, a->text, r->m->nhist);
        return -1;
    }
    int fseat;
    pl_action fa;
    int forced = hub_room_forced(r, &fseat, &fa); /* the hub played it for its person */
    if (pl_parse_legal(r->game, r->m->state, a->seat, a->text, &code, &err) < 0 ||
        hub_room_apply(r, a->seat, code, &err) < 0) {
        pl_buf_printf(x->err, "room %s: action %lld '%s': %s", r->code, (long long)a->seq, a->text, pl_buf_str(&err));
        pl_buf_free(&err);
        return -1;
    }
    r->ent[r->m->nhist - 1].forced = forced && fseat == a->seat && fa == code;
    return 0;
}

static int restore_room(void *ctx, const store_room *sr, int finished, const char *result)
{
    (void)result;
    restore_ctx *x = ctx;
    hub *h = x->h;
    if (finished && !x->all)
        return 0;
    const pl_game *g = pl_game_find(sr->game);
    json_t *opts = json_loads(sr->options, 0, NULL);
    json_t *cfg = json_loads(sr->config, 0, NULL);
    json_t *seats = NULL;
    int grace = 60, move_s = 0, total_s = 0, pub = 0, rated = 0;
    json_error_t je;
    if (!g || !opts || !cfg ||
        json_unpack_ex(cfg, &je, 0, "{s:o, s:i, s:i, s:i, s:b, s?b}", "seats", &seats, "grace_s", &grace, "move_s",
                       &move_s, "total_s", &total_s, "public", &pub, "rated", &rated) < 0) {
        pl_buf_printf(x->err, "room %s: its game, options or configuration cannot be read", sr->code);
        json_decref(opts);
        json_decref(cfg);
        return -1;
    }
    hub_room *r = hub_room_new(h, g, opts, sr->seed, x->err);
    json_decref(opts);
    if (!r) {
        json_decref(cfg);
        return -1;
    }
    snprintf(r->code, sizeof r->code, "%s", sr->code);
    r->created_ms = sr->created_ms;
    r->grace_s = grace;
    r->move_s = move_s;
    r->total_s = total_s;
    r->public_ = pub;
    r->rated = rated;
    for (int s = 0; s < r->nseats; s++) {
        json_t *e = json_array_get(seats, (size_t)s);
        const char *kind = "person", *level = NULL, *name = "", *token = "";
        int of = -1;
        json_int_t account = 0;
        int stalled = 0;
        json_unpack(e, "{s?s, s?s, s?s, s?s, s?i, s?I, s?b}", "kind", &kind, "level", &level, "name", &name, "token",
                    &token, "of", &of, "account", &account, "stalled", &stalled);
        hub_seat *t = &r->seats[s];
        t->left_ms = (int64_t)total_s * 1000;
        t->gone_ms = x->now;
        if (!strcmp(kind, "partner") && of >= 0 && of < r->nseats && of != s) {
            t->kind = HUB_SEAT_PARTNER;
            t->of = of;
        } else if (!strcmp(kind, "ai")) {
            t->kind = HUB_SEAT_AI;
            t->level = pl_strdup(level ? level : "medium");
            t->ai = hub_player(h, g, t->level, x->err);
            snprintf(t->name, sizeof t->name, "computer (%s)", t->level);
        } else {
            snprintf(t->name, sizeof t->name, "%s", name);
            snprintf(t->token, sizeof t->token, "%s", token);
            t->account = account > 0 ? (int64_t)account : 0;
            t->stalled = stalled && rated;
        }
    }
    json_decref(cfg);
    x->r = r;
    x->entries = 0;
    int rc = 0;
    if (x->s)
        rc = store_actions(x->s, sr->code, restore_action, x, x->err);
    for (int i = 0; !x->s && i < x->nacts && rc == 0; i++)
        rc = restore_action(x, &x->acts[i]);
    x->r = NULL;
    if (rc != 0 || hubk_applies(r) < 0 || hub_room_add(h, r) < 0) {
        hub_room_free(r);
        return -1;
    }
    r->stored = r->m->nhist;
    r->logged = r->durable = x->entries;
    r->finished_queued = finished; /* finished on disk: never again */
    r->turn_ms = x->now;
    x->n++;
    return 0;
}

int hub_restore(hub *h, store *s, int64_t now_ms, pl_buf *err)
{
    h->now = now_ms;
    restore_ctx x = {.h = h, .s = s, .now = now_ms, .err = err};
    if (store_rooms(s, 1, restore_room, &x, err) != 0)
        return -1;
    for (int i = 0; i < h->nrooms; i++)
        hub_room_advance(h, h->rooms[i], now_ms); /* chance due, jobs, karuta readings */
    return x.n;
}

/* ---- rooms on demand, several processes (issue 17, docs/cluster.md) ---- */

/* A room code as the hub makes them: 32 lowercase hex digits. */
static int code_ok(const char *code)
{
    size_t n = strlen(code);
    if (n != HUB_CODE - 1)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!((code[i] >= '0' && code[i] <= '9') || (code[i] >= 'a' && code[i] <= 'f')))
            return 0;
    return 1;
}

/* Request `root` of `c` names room `code`, which the hub does not hold: with
 * on_demand, the room is asked of the store (one load per code at a time)
 * and the request waits, to be read again once the load is done. Returns 1
 * when it waits, 0 when the caller answers "no room" (not on demand, a code
 * the hub never makes, a request read again after its load, too many
 * waiting, no memory). */
int hubb_room_ask(hub *h, hub_conn *c, const char *code, json_t *root)
{
    if (!h->cfg.on_demand || h->redispatch || !code_ok(code) || h->npend >= HUB_MAX_PENDING)
        return 0;
    int asked = 0;
    for (int i = 0; i < h->npend && !asked; i++)
        asked = !strcmp(h->pend[i].code, code);
    hub_batchp *p = asked ? NULL : next_batch(h);
    if (!asked && (!p || hub_grow((void **)&p->loads, &p->caploads, p->nloads + 1, sizeof *p->loads) < 0))
        return 0;
    if (hub_grow((void **)&h->pend, &h->cappend, h->npend + 1, sizeof *h->pend) < 0)
        return 0;
    char *msg = json_dumps(root, JSON_COMPACT);
    if (!msg)
        return 0;
    if (!asked) {
        hub_loaded *l = &p->loads[p->nloads++];
        memset(l, 0, sizeof *l);
        snprintf(l->code, sizeof l->code, "%s", code);
    }
    hub_pend *q = &h->pend[h->npend++];
    snprintf(q->code, sizeof q->code, "%s", code);
    q->conn = c->id;
    q->msg = msg;
    q->len = strlen(msg);
    return 1;
}

/* Rebuilds loaded room `l` in the hub (hub_restore's way). Returns it, or
 * NULL with a message. */
static hub_room *room_load(hub *h, const hub_loaded *l, int64_t now_ms, pl_buf *err)
{
    if ((int)h->nrooms >= h->cfg.max_rooms) {
        pl_buf_printf(err, "the server holds %d rooms, its most", h->nrooms);
        return NULL;
    }
    restore_ctx x = {.h = h, .now = now_ms, .err = err, .all = 1, .acts = l->acts, .nacts = l->nacts};
    if (restore_room(&x, &l->room, l->finished, NULL) != 0)
        return NULL;
    hub_room *r = hub_room_find(h, l->code);
    if (!r) {
        pl_buf_puts(err, "the stored room has another code");
        return NULL;
    }
    if (h->cfg.cluster)
        r->idle_ms = now_ms; /* let go again if nobody comes in */
    hub_room_advance(h, r, now_ms);
    return r;
}

/* The requests that waited for the loads of batch `p`: read again (the room
 * is here now, or it does not exist: "no room"), or answered "busy" (another
 * process holds it: try again) or "storage". */
static void loads_done(hub *h, const hub_batchp *p, int64_t now_ms)
{
    for (int i = 0; i < p->nloads; i++) {
        const hub_loaded *l = &p->loads[i];
        int status = l->status;
        pl_buf why = {0};
        if (status == HUB_LOAD_OK && !hub_room_find(h, l->code) && !room_load(h, l, now_ms, &why))
            status = HUB_LOAD_ERROR;
        /* take this code's requests out first: reading them again may queue more */
        hub_pend *mine = NULL;
        int n = 0, k = 0;
        for (int j = 0; j < h->npend; j++)
            n += !strcmp(h->pend[j].code, l->code);
        mine = n ? pl_malloc(sizeof *mine * (size_t)n) : NULL;
        n = 0;
        for (int j = 0; j < h->npend; j++) {
            if (!strcmp(h->pend[j].code, l->code) && mine)
                mine[n++] = h->pend[j];
            else if (!strcmp(h->pend[j].code, l->code))
                pl_free(h->pend[j].msg); /* no memory to answer: the client asks again */
            else
                h->pend[k++] = h->pend[j];
        }
        h->npend = k;
        for (int j = 0; j < n; j++) {
            hub_pend *q = &mine[j];
            json_t *root = json_loads(q->msg, 0, NULL);
            const char *type = json_string_value(json_object_get(root, "type"));
            if (!hub_conn_get(h, q->conn)) {
                /* gone meanwhile */
            } else if (status == HUB_LOAD_OK || status == HUB_LOAD_MISSING) {
                h->redispatch = 1;
                hub_message(h, q->conn, q->msg, q->len, now_ms);
                h->redispatch = 0;
            } else if (status == HUB_LOAD_BUSY) {
                hub_error(h, q->conn, "busy", type,
                          "room %s is played on another server process now: connect again in a moment", q->code);
            } else {
                hub_error(h, q->conn, "storage", type, "room %s could not be read: %s", q->code,
                          why.len ? pl_buf_str(&why) : l->msg ? l->msg : "no answer from the store");
            }
            json_decref(root);
            pl_free(q->msg);
        }
        pl_free(mine);
        pl_buf_free(&why);
    }
}

/* Room `r` is leased to another process (or may be): it goes from this
 * hub. Its actions not yet durable are never acknowledged: the senders of
 * those in `b` (NULL: none) and every member get "moved" (reconnect: the
 * room's holder answers). */
static void room_moved(hub *h, hub_room *r, const hub_batch *b)
{
    const hub_batchp *p = (const hub_batchp *)b;
    for (int i = 0; b && i < b->nactions; i++)
        if (p->senders[i] && !strcmp(b->actions[i].room, r->code))
            hub_error(h, p->senders[i], "moved", "act",
                      "this server process lost room %s to another: the action was not played; connect again",
                      r->code);
    for (int k = 0; k < r->nmembers; k++)
        hub_error(h, r->members[k], "moved", NULL,
                  "room %s moved to another server process: connect again (actions not yet confirmed were not "
                  "played)", r->code);
    next_forget(h, r->code, 1);
    hub_room_remove(h, r);
}

void hub_rooms_lost(hub *h, int64_t now_ms)
{
    h->now = now_ms;
    for (int i = h->nrooms - 1; i >= 0; i--)
        if (i < h->nrooms && !hub_room_over(h->rooms[i]))
            room_moved(h, h->rooms[i], NULL);
}

/* Cluster: idle room `r` goes from this hub and its lease is dropped (with
 * the next batch, after any write of it still queued), so the process
 * nginx sends its players to next may take it. */
void hubb_room_let_go(hub *h, hub_room *r)
{
    hub_batchp *p = next_batch(h);
    char *code = pl_strdup(r->code);
    if (!p || !code || hub_grow((void **)&p->drops, &p->capdrops, p->ndrops + 1, sizeof *p->drops) < 0) {
        pl_free(code); /* no memory: kept (the lease lives on while this process does) */
        r->idle_ms = 0;
        return;
    }
    p->drops[p->ndrops++] = code;
    hub_room_remove(h, r);
}

/* Cluster: room `r`, just made and queued, waits for players who will come
 * by its code, through a front that routes by code: its lease is dropped
 * in the batch that stores it (after the put), and the room goes from
 * here once stored (hub_store_done), so whichever process they reach takes
 * it. A room that starts at once (computers only) stays. */
void hubb_room_give_away(hub *h, hub_room *r)
{
    if (!hub_room_started(r))
        hubb_room_give_away_seated(h, r);
}

void hubb_room_give_away_seated(hub *h, hub_room *r)
{
    if (!h->cfg.cluster || r->nmembers)
        return;
    hub_batchp *p = next_batch(h);
    char *code = pl_strdup(r->code);
    if (!p || !code || hub_grow((void **)&p->drops, &p->capdrops, p->ndrops + 1, sizeof *p->drops) < 0) {
        pl_free(code); /* no memory: kept here with its lease (let go when idle) */
        return;
    }
    p->drops[p->ndrops++] = code;
    r->given_away = 1;
}

/* Adds room `r`, about to go from this hub, to the lobby list as it is
 * now (the store's next read replaces the list). Without memory: left out. */
static void lobby_keep(hub *h, hub_room *r)
{
    if (!h->lobby && !(h->lobby = pl_calloc(1, sizeof *h->lobby)))
        return;
    hub_lobby *l = h->lobby;
    json_t *e = json_pack("{s:s, s:s, s:o, s:o, s:s}", "room", r->code, "game", r->game->id, "options",
                          hubv_public_options(r), "seats", hubv_seats_json(h, r), "state", hubv_room_status(r));
    if (!e || hub_grow((void **)&l->rooms, &l->cap, l->n + 1, sizeof *l->rooms) < 0) {
        json_decref(e);
        return;
    }
    snprintf(l->rooms[l->n].code, HUB_CODE, "%s", r->code);
    l->rooms[l->n++].entry = e;
}

void hub_lobby_set(hub *h, hub_lobby *l)
{
    hubp_lobby(h, l);
    hub_lobby_free(h->lobby);
    h->lobby = l;
}
