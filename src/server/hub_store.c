/* hub_store.c — storage, the storage thread's side: a batch written
 * (hub_batch_write: one process's writes, or a cluster's with leases taken,
 * dropped and lost), the rooms it loads on demand, a batch freed, and the
 * lobby of a cluster read from the store (hub_lobby_read). Thread: the
 * storage thread (hub_batch_write, hub_lobby_read); hub_batch_free and
 * hub_lobby_free on whichever thread holds the batch or the list. It reads
 * nothing of the hub but the batch it is given.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hub_int.h"
#include "parlour/alloc.h"
#include "parlour/jsonout.h"
#include "parlour/record.h"
#include "parlour/registry.h"

/* ---- batches ----------------------------------------------------------- */

static void loaded_clear(hub_loaded *l)
{
    pl_free((char *)l->room.code);
    pl_free((char *)l->room.game);
    pl_free((char *)l->room.options);
    pl_free((char *)l->room.config);
    for (int i = 0; i < l->nacts; i++) {
        pl_free((char *)l->acts[i].room);
        pl_free((char *)l->acts[i].text);
    }
    pl_free(l->acts);
    pl_free(l->msg);
    memset(&l->room, 0, sizeof l->room);
    l->acts = NULL;
    l->nacts = l->capacts = 0;
    l->msg = NULL;
}

void hubs_batchp_free(hub_batchp *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->b.nrooms; i++) {
        pl_free((char *)p->b.rooms[i].code);
        pl_free((char *)p->b.rooms[i].game);
        pl_free((char *)p->b.rooms[i].options);
        pl_free((char *)p->b.rooms[i].config);
    }
    for (int i = 0; i < p->b.nactions; i++) {
        pl_free((char *)p->b.actions[i].room);
        pl_free((char *)p->b.actions[i].text);
    }
    for (int i = 0; i < p->b.nfinished; i++) {
        pl_free(p->b.finished[i]);
        pl_free(p->b.results[i]);
    }
    for (int i = 0; i < p->ncfg; i++) {
        pl_free(p->cfg_codes[i]);
        pl_free(p->cfg_texts[i]);
    }
    for (int i = 0; i < p->nloads; i++)
        loaded_clear(&p->loads[i]);
    for (int i = 0; i < p->ndrops; i++)
        pl_free(p->drops[i]);
    for (int i = 0; i < p->nlost; i++)
        pl_free(p->lost[i]);
    pl_free(p->loads);
    pl_free(p->drops);
    pl_free(p->lost);
    pl_free(p->rated);
    pl_free(p->looks);
    for (int i = 0; i < p->nsputs; i++)
        hubp_seek_clear(&p->sputs[i]);
    pl_free(p->sputs);
    for (int i = 0; i < p->nsdrops; i++)
        pl_free(p->sdrops[i]);
    pl_free(p->sdrops);
    for (int i = 0; i < p->npairw; i++)
        for (int k = 0; k < p->pairw[i].n; k++)
            hubp_pairing_clear(&p->pairw[i].m[k]);
    pl_free(p->pairw);
    for (int i = 0; i < p->npdrops; i++)
        pl_free(p->pdrops[i]);
    pl_free(p->pdrops);
    pl_free(p->b.rooms);
    pl_free(p->b.actions);
    pl_free(p->b.finished);
    pl_free(p->b.results);
    pl_free(p->senders);
    pl_free(p->cfg_codes);
    pl_free(p->cfg_texts);
    pl_free(p);
}

void hub_batch_free(hub_batch *b)
{
    hubs_batchp_free((hub_batchp *)b);
}

/* ---- cluster writes and loads (issue 17, docs/cluster.md) -------------- */

static int lost_has(const hub_batchp *p, const char *code)
{
    for (int i = 0; i < p->nlost; i++)
        if (!strcmp(p->lost[i], code))
            return 1;
    return 0;
}

/* Notes room `code` as lost (its writes left out). 0, or -1 out of memory. */
static int lost_add(hub_batchp *p, const char *code, pl_buf *err)
{
    char *c = pl_strdup(code);
    if (!c || hub_grow((void **)&p->lost, &p->caplost, p->nlost + 1, sizeof *p->lost) < 0) {
        pl_free(c);
        pl_buf_puts(err, "out of memory");
        return -1;
    }
    p->lost[p->nlost++] = c;
    return 0;
}

/* After a write of room `code` that returned rc: STORE_LOST notes the room
 * as lost (its later writes are left out) and gives 1, another failure -1,
 * success 0. */
static int lost_check(hub_batchp *p, int rc, const char *code, pl_buf *err)
{
    if (rc != STORE_LOST)
        return rc < 0 ? -1 : 0;
    pl_buf_clear(err);
    return lost_add(p, code, err) < 0 ? -1 : 1;
}

/* Finishes room b.finished[i]: rated (hubg_write: the ratings in the same
 * transaction) when the batch carries its rated finish, else as it is. */
static int finish_one(store *s, hub_batchp *p, int i, pl_buf *err)
{
    for (int k = 0; k < p->nrated; k++)
        if (!strcmp(p->rated[k].code, p->b.finished[i]))
            return hubg_write(s, &p->rated[k], p->b.results[i], err);
    return store_finish(s, p->b.finished[i], p->b.results[i], err);
}

/* The writes of a cluster's batch: as in one process, but a new room's
 * lease is taken as it is stored, a finished room's dropped, and a write
 * refused with STORE_LOST leaves its room's writes out (noted in p->lost)
 * while the others' go on. 0, or -1 with a message. */
static int batch_write_cluster(store *s, hub_batchp *p, pl_buf *err)
{
    hub_batch *b = &p->b;
    for (int i = 0; i < b->nrooms; i++) {
        if (store_room_put(s, &b->rooms[i], err) < 0)
            return -1;
        int rc = store_lease_take(s, b->rooms[i].code, NULL, err);
        if (rc < 0)
            return -1;
        if (rc == 0 && lost_add(p, b->rooms[i].code, err) < 0) /* a new room leased elsewhere: cannot be */
            return -1;
    }
    for (int i = 0; i < p->ncfg; i++) {
        if (lost_has(p, p->cfg_codes[i]))
            continue;
        if (lost_check(p, store_room_config(s, p->cfg_codes[i], p->cfg_texts[i], err), p->cfg_codes[i], err) < 0)
            return -1;
    }
    store_action *keep = b->nactions ? pl_malloc(sizeof *keep * (size_t)b->nactions) : NULL;
    if (b->nactions && !keep) {
        pl_buf_puts(err, "out of memory");
        return -1;
    }
    for (;;) { /* at most one more round per room lost */
        int k = 0;
        for (int i = 0; i < b->nactions; i++)
            if (!lost_has(p, b->actions[i].room))
                keep[k++] = b->actions[i];
        int rc = store_append(s, keep, k, err);
        if (rc == STORE_LOST) {
            const char *code = store_lost_room(s);
            pl_buf_clear(err);
            if (code && *code && !lost_has(p, code) && lost_add(p, code, err) == 0)
                continue;
            if (!err->len)
                pl_buf_printf(err, "a write was refused as lost for room '%s' twice", code ? code : "");
            rc = -1;
        }
        pl_free(keep);
        if (rc < 0)
            return -1;
        break;
    }
    for (int i = 0; i < b->nfinished; i++) {
        if (lost_has(p, b->finished[i]))
            continue;
        int rc = lost_check(p, finish_one(s, p, i, err), b->finished[i], err);
        if (rc < 0)
            return -1;
        if (rc) /* lost: another process finishes it */
            continue;
        pl_buf e = {0}; /* read-only from now on: any process may load it */
        if (store_lease_drop(s, b->finished[i], &e) < 0)
            fprintf(stderr, "parlour serve: lease of %s: %s\n", b->finished[i], pl_buf_str(&e));
        pl_buf_free(&e);
    }
    return 0;
}

static int load_room_cb(void *ctx, const store_room *r, int finished, const char *result)
{
    (void)result;
    hub_loaded *l = ctx;
    l->room = (store_room){.code = pl_strdup(r->code), .game = pl_strdup(r->game), .options = pl_strdup(r->options),
                           .config = pl_strdup(r->config), .seed = r->seed, .created_ms = r->created_ms};
    l->finished = finished;
    return l->room.code && l->room.game && l->room.options && l->room.config ? 0 : -1;
}

static int load_action_cb(void *ctx, const store_action *a)
{
    hub_loaded *l = ctx;
    if (hub_grow((void **)&l->acts, &l->capacts, l->nacts + 1, sizeof *l->acts) < 0)
        return -1;
    store_action *c = &l->acts[l->nacts++];
    *c = *a;
    c->room = pl_strdup(a->room);
    c->text = pl_strdup(a->text);
    return c->room && c->text ? 0 : -1;
}

/* Reads room l->code for the hub: the room, its lease when it is not
 * finished (cluster), its actions. The outcome goes in l->status. */
static void batch_load(store *s, const hub_batchp *p, hub_loaded *l)
{
    pl_buf err = {0};
    int rc = store_room_get(s, l->code, load_room_cb, l, &err);
    if (rc == 1) {
        l->status = HUB_LOAD_MISSING;
        goto done;
    }
    if (rc != 0)
        goto fail;
    if (p->cluster && !l->finished) {
        pl_buf holder = {0};
        rc = store_lease_take(s, l->code, &holder, &err);
        if (rc == 0) {
            l->status = HUB_LOAD_BUSY;
            l->msg = pl_strdup(pl_buf_str(&holder));
            pl_buf_free(&holder);
            goto done;
        }
        pl_buf_free(&holder);
        if (rc < 0)
            goto fail;
    }
    if (store_actions(s, l->code, load_action_cb, l, &err) != 0)
        goto fail;
    l->status = HUB_LOAD_OK;
    goto done;
fail:
    l->status = HUB_LOAD_ERROR;
    l->msg = pl_strdup(err.len ? pl_buf_str(&err) : "out of memory");
done:
    if (l->status != HUB_LOAD_OK) { /* only the outcome travels back */
        char *msg = l->msg;
        l->msg = NULL;
        loaded_clear(l);
        l->msg = msg;
    }
    pl_buf_free(&err);
}

static int batch_writes(store *s, hub_batchp *p, pl_buf *err);

int hub_batch_write(store *s, hub_batch *b, pl_buf *err)
{
    hub_batchp *p = (hub_batchp *)b;
    int rc = batch_writes(s, p, err);
    hubp_batch_write(s, p, rc == 0);
    for (int i = 0; i < p->nlooks; i++) /* after the writes: a rating just written is read */
        hubp_look_read(s, &p->looks[i]);
    return rc;
}

/* hub_batch_write's writes, drops and loads: 0, or -1 with a message. */
static int batch_writes(store *s, hub_batchp *p, pl_buf *err)
{
    hub_batch *b = &p->b;
    if (!p->cluster) {
        for (int i = 0; i < b->nrooms; i++)
            if (store_room_put(s, &b->rooms[i], err) < 0)
                return -1;
        for (int i = 0; i < p->ncfg; i++)
            if (store_room_config(s, p->cfg_codes[i], p->cfg_texts[i], err) < 0)
                return -1;
        if (store_append(s, b->actions, b->nactions, err) < 0)
            return -1;
        for (int i = 0; i < b->nfinished; i++)
            if (finish_one(s, p, i, err) < 0)
                return -1;
    } else if (batch_write_cluster(s, p, err) < 0)
        return -1;
    for (int i = 0; i < p->ndrops; i++) { /* idle rooms let go: another process may take them at once */
        pl_buf e = {0};
        if (store_lease_drop(s, p->drops[i], &e) < 0)
            fprintf(stderr, "parlour serve: lease of %s: %s\n", p->drops[i], pl_buf_str(&e));
        pl_buf_free(&e);
    }
    for (int i = 0; i < p->nloads; i++)
        batch_load(s, p, &p->loads[i]);
    return 0;
}

/* ---- the lobby of a cluster -------------------------------------------- */

void hub_lobby_free(hub_lobby *l)
{
    if (!l)
        return;
    for (int i = 0; i < l->n; i++)
        json_decref(l->rooms[i].entry);
    pl_free(l->rooms);
    for (int i = 0; i < l->nseeks; i++)
        hubp_seek_clear(&l->seeks[i]);
    pl_free(l->seeks);
    for (int i = 0; i < l->npairs; i++)
        hubp_pairing_clear(&l->pairs[i]);
    pl_free(l->pairs);
    pl_free(l);
}

/* One stored room as the lobby shows it, or NULL (not public, unreadable). */
static json_t *lobby_entry(const store_room *sr)
{
    const pl_game *g = pl_game_find(sr->game);
    json_t *cfg = json_loads(sr->config, 0, NULL), *seats = NULL, *opts = NULL;
    int pub = 0;
    if (!g || !cfg || json_unpack(cfg, "{s:o, s:b}", "seats", &seats, "public", &pub) < 0 || !pub ||
        !json_is_array(seats) || !(opts = json_loads(sr->options, 0, NULL))) {
        json_decref(cfg);
        return NULL;
    }
    json_object_del(opts, "deal");
    for (const char *const *k = g->secret_options; k && *k; k++)
        json_object_del(opts, *k);
    json_t *out = json_array();
    int open = 0;
    size_t ns = json_array_size(seats);
    for (size_t s = 0; s < ns; s++) {
        const char *kind = "person", *level = NULL, *name = "", *token = "";
        int of = -1;
        json_unpack(json_array_get(seats, s), "{s?s, s?s, s?s, s?s, s?i}", "kind", &kind, "level", &level, "name",
                    &name, "token", &token, "of", &of);
        json_t *e;
        if (!strcmp(kind, "ai")) {
            char nm[HUB_MAX_NAME + 16];
            snprintf(nm, sizeof nm, "computer (%s)", level ? level : "medium");
            e = json_pack("{s:s, s:s, s:s, s:b, s:b, s:n}", "kind", "ai", "name", nm, "level",
                          level ? level : "medium", "connected", 1, "covered", 0, "of");
        } else if (!strcmp(kind, "partner") && of >= 0 && (size_t)of < ns) {
            const char *pn = json_string_value(json_object_get(json_array_get(seats, (size_t)of), "name"));
            e = json_pack("{s:s, s:s, s:n, s:b, s:b, s:i}", "kind", "partner", "name", pn ? pn : "", "level",
                          "connected", 0, "covered", 0, "of", of);
        } else {
            open += !*token;
            e = json_pack("{s:s, s:s, s:n, s:b, s:b, s:n}", "kind", *token ? "person" : "open", "name", name,
                          "level", "connected", 0, "covered", 0, "of");
        }
        json_array_append_new(out, e);
    }
    json_t *j = json_pack("{s:s, s:s, s:o, s:o, s:s}", "room", sr->code, "game", g->id, "options", opts, "seats", out,
                          "state", open ? "waiting" : "playing");
    json_decref(cfg);
    return j;
}

static int lobby_cb(void *ctx, const store_room *sr, int finished, const char *result)
{
    (void)result;
    hub_lobby *l = ctx;
    if (finished)
        return 0;
    json_t *e = lobby_entry(sr);
    if (!e)
        return 0;
    if (strlen(sr->code) >= HUB_CODE || hub_grow((void **)&l->rooms, &l->cap, l->n + 1, sizeof *l->rooms) < 0) {
        json_decref(e);
        return strlen(sr->code) >= HUB_CODE ? 0 : -1;
    }
    snprintf(l->rooms[l->n].code, HUB_CODE, "%s", sr->code);
    l->rooms[l->n++].entry = e;
    return 0;
}

hub_lobby *hub_lobby_read(store *s, int64_t sweep_grace_ms, pl_buf *err)
{
    pl_json_setup();
    hub_lobby *l = pl_calloc(1, sizeof *l);
    if (!l) {
        pl_buf_puts(err, "out of memory");
        return NULL;
    }
    int rc = store_rooms(s, 1, lobby_cb, l, err);
    if (rc != 0) {
        if (!err->len)
            pl_buf_puts(err, "out of memory");
        hub_lobby_free(l);
        return NULL;
    }
    hubp_lobby_read(s, l, sweep_grace_ms > 0 ? sweep_grace_ms : HUB_SWEEP_GRACE_MS);
    return l;
}
