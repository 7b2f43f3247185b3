/* hub_echo.c — a stand-in for src/server/hub.c, linked into `parlour serve`
 * only while the real hub is not in the tree (CMakeLists.txt): it lets the
 * network layer be built and tested on its own. It answers every message
 * with {"type":"echo","text":...}, a message longer than HUB_MAX_MESSAGE
 * with the error "too-long", the text "close" with a message flagged to
 * close the connection, and "tick" with a "tick" message 50 ms later
 * (hub_tick). No rooms, no storage, no jobs. Delete it once hub.c lands.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "hub.h"
#include "parlour/alloc.h"

typedef struct echo_out {
    struct echo_out *next;
    hub_out o;
} echo_out;

struct hub {
    uint64_t next_id;
    echo_out *head, *tail;
    uint64_t tick_conn;
    int64_t tick_at;
    hub_stats st;
};

static void echo_send(hub *h, uint64_t conn, json_t *msg, int close)
{
    char *text = json_dumps(msg, JSON_COMPACT);
    json_decref(msg);
    echo_out *e = pl_malloc(sizeof *e);
    char *copy = text ? pl_strdup(text) : NULL;
    free(text);
    if (!e || !copy) {
        pl_free(e);
        pl_free(copy);
        return;
    }
    e->next = NULL;
    e->o.conn = conn;
    e->o.text = copy;
    e->o.len = strlen(copy);
    e->o.close = close;
    if (h->tail)
        h->tail->next = e;
    else
        h->head = e;
    h->tail = e;
    h->st.messages_out++;
}

hub *hub_new(const hub_config *cfg, pl_buf *err)
{
    (void)cfg;
    hub *h = pl_calloc(1, sizeof *h);
    if (!h)
        pl_buf_puts(err, "out of memory");
    else
        h->tick_at = INT64_MAX;
    return h;
}

void hub_free(hub *h)
{
    if (!h)
        return;
    while (h->head) {
        echo_out *e = h->head;
        h->head = e->next;
        pl_free(e->o.text);
        pl_free(e);
    }
    pl_free(h);
}

int hub_restore(hub *h, store *s, int64_t now_ms, pl_buf *err)
{
    (void)h, (void)s, (void)now_ms, (void)err;
    return 0;
}

uint64_t hub_connect(hub *h, int64_t now_ms)
{
    uint64_t id = ++h->next_id;
    h->st.conns++;
    echo_send(h, id, json_pack("{s:s, s:i, s:s, s:I}", "type", "welcome", "protocol", HUB_PROTOCOL,
                               "server", "echo", "server_ms", (json_int_t)now_ms), 0);
    return id;
}

void hub_disconnect(hub *h, uint64_t conn, int64_t now_ms)
{
    (void)now_ms;
    h->st.conns--;
    if (h->tick_conn == conn)
        h->tick_at = INT64_MAX;
}

void hub_message(hub *h, uint64_t conn, const char *data, size_t len, int64_t now_ms)
{
    h->st.messages_in++;
    if (len > HUB_MAX_MESSAGE) {
        echo_send(h, conn, json_pack("{s:s, s:s, s:s}", "type", "error", "error", "too-long", "message",
                                     "a message is at most 8192 bytes"), 0);
        return;
    }
    int close = len == 5 && !memcmp(data, "close", 5);
    if (len == 4 && !memcmp(data, "tick", 4)) {
        h->tick_conn = conn;
        h->tick_at = now_ms + 50;
    }
    echo_send(h, conn, json_pack("{s:s, s:s%}", "type", "echo", "text", data, len), close);
}

void hub_tick(hub *h, int64_t now_ms)
{
    if (now_ms < h->tick_at)
        return;
    h->tick_at = INT64_MAX;
    echo_send(h, h->tick_conn, json_pack("{s:s}", "type", "tick"), 0);
}

int64_t hub_next_ms(const hub *h)
{
    return h->tick_at;
}

int hub_out_next(hub *h, hub_out *o)
{
    echo_out *e = h->head;
    if (!e)
        return 0;
    h->head = e->next;
    if (!h->head)
        h->tail = NULL;
    *o = e->o;
    pl_free(e);
    return 1;
}

hub_batch *hub_store_take(hub *h)
{
    (void)h;
    return NULL;
}

int hub_batch_write(store *s, const hub_batch *b, pl_buf *err)
{
    (void)s, (void)b, (void)err;
    return 0;
}

void hub_store_done(hub *h, const hub_batch *b, int ok, int64_t now_ms)
{
    (void)h, (void)b, (void)ok, (void)now_ms;
}

void hub_batch_free(hub_batch *b)
{
    pl_free(b);
}

hub_job *hub_job_take(hub *h)
{
    (void)h;
    return NULL;
}

void hub_job_run(hub_job *j)
{
    j->failed = 1;
}

void hub_job_done(hub *h, hub_job *j, int64_t now_ms)
{
    (void)h, (void)now_ms;
    pl_free(j);
}

void hub_job_free(hub_job *j)
{
    pl_free(j);
}

void hub_get_stats(const hub *h, hub_stats *out)
{
    *out = h->st;
}
