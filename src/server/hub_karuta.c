/* hub_karuta.c — karuta's real-time reading in the hub (hub_int.h, hubk_*). */
#include "hub_int.h"

int hubk_applies(const hub_room *r)
{
    (void)r;
    return 0;
}
void hubk_after_change(hub *h, hub_room *r, int64_t now_ms) { (void)h; (void)r; (void)now_ms; }
int hubk_visible(const hub_room *r) { return r->m->nhist; }
void hubk_touch(hub *h, hub_conn *c, int card, int64_t client_ms, int poet, int64_t now_ms)
{
    (void)h; (void)c; (void)card; (void)client_ms; (void)poet; (void)now_ms;
}
void hubk_sync(hub *h, hub_conn *c, int64_t id, int64_t client_ms, int64_t now_ms)
{
    (void)h; (void)c; (void)id; (void)client_ms; (void)now_ms;
}
int64_t hubk_tick(hub *h, hub_room *r, int64_t now_ms) { (void)h; (void)r; (void)now_ms; return INT64_MAX; }
void hubk_job_done(hub *h, hub_room *r, int seat, pl_action a, int64_t now_ms)
{
    (void)h; (void)r; (void)seat; (void)a; (void)now_ms;
}
void hubk_joined(hub *h, hub_room *r, hub_conn *c, int64_t now_ms) { (void)h; (void)r; (void)c; (void)now_ms; }
void hubk_free(hub_room *r) { (void)r; }
void hubk_reset(hub_room *r) { (void)r; }
