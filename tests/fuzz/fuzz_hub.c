/* fuzz_hub.c — the hub's message handler (src/server/hub.h): the input is a
 * short script of lines played on one hub with a fake clock, three
 * connections and an SQLite store in memory (one per process, emptied by
 * store_clear after each input and checked empty before the next), driven
 * synchronously (store batches written, jobs done, messages collected after
 * every line):
 *
 *   "0..." / "1..." / "2..."   the rest of the line is a message from
 *                              connection 0, 1 or 2 ("$R" is replaced by
 *                              the last room created, "$T" by the last
 *                              token given, so that joins and comebacks
 *                              are reachable)
 *   "!N"                       connection N goes and a new one takes its place
 *   "~"                        the clock jumps to hub_next_ms (or 1 s on)
 *   "xN"                       the next store batch fails (N ignored)
 *   anything else              sent from connection 0 as it is (garbage)
 *
 * Checks: every message out is one JSON object with a string "type";
 * every `error` has error, message and request; no message about a room
 * (but chat, error and the seats' names, which echo the clients' own
 * text, and a referee's record after the end) holds a room's seed before
 * a game is over. The
 * computer players' jobs are answered "failed" (the hub then plays a
 * random legal action): a search level costs seconds, not a hub bug. */
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
#include "hub.h"
#include "parlour/alloc.h"
#include "parlour/record.h"

#define FZH_SEED UINT64_C(0x1234567890abc) /* rooms get seeds FZH_SEED, FZH_SEED + 1, ... */
#define FZH_LINES 48
#define FZH_LINE 2048
#define FZH_ROOMS 8 /* the seeds checked: those of the first 8 rooms of an input */

typedef struct fzh {
    hub *h;
    store *s;
    int64_t now;
    uint64_t conn[3];
    int fail_next;
    char room[64], token[64];
    int over; /* a "state" with "over":true was seen: seeds may show in records */
} fzh;

/* Whether `text` holds the decimal form of one of the first FZH_ROOMS
 * rooms' seeds: the places of their common first digits, then each seed
 * there (one pass over the text, not one per seed). */
static int has_seed(const char *text)
{
    static char seed[FZH_ROOMS][24];
    static size_t common;
    if (!common) {
        for (uint64_t k = 0; k < FZH_ROOMS; k++)
            snprintf(seed[k], sizeof seed[k], "%" PRIu64, FZH_SEED + k);
        while (seed[0][common] && seed[FZH_ROOMS - 1][common] == seed[0][common]) /* the seeds are sorted */
            common++;
    }
    char prefix[24];
    memcpy(prefix, seed[0], common);
    prefix[common] = 0;
    for (const char *p = strstr(text, prefix); p; p = strstr(p + 1, prefix))
        for (int k = 0; k < FZH_ROOMS; k++)
            if (!strncmp(p, seed[k], strlen(seed[k])))
                return 1;
    return 0;
}

static void check_out(fzh *f, const hub_out *o)
{
    json_error_t je;
    json_t *m = json_loadb(o->text, o->len, 0, &je);
    FUZZ_CHECK(m && json_is_object(m), "not a JSON object: %.200s", o->text);
    json_t *t = json_object_get(m, "type");
    FUZZ_CHECK(t && json_is_string(t), "no type: %.200s", o->text);
    const char *type = json_string_value(t);
    if (!strcmp(type, "error"))
        FUZZ_CHECK(json_is_string(json_object_get(m, "error")) && json_is_string(json_object_get(m, "message")) &&
                       json_object_get(m, "request"),
                   "error without its fields: %.200s", o->text);
    if (!strcmp(type, "created"))
        snprintf(f->room, sizeof f->room, "%s", json_string_value(json_object_get(m, "room")));
    if (!strcmp(type, "joined"))
        snprintf(f->token, sizeof f->token, "%s", json_string_value(json_object_get(m, "token")));
    if (!strcmp(type, "state") && json_is_true(json_object_get(m, "over")))
        f->over = 1;
    /* The text as sent holds every digit the message's values hold (JSON
     * never escapes a digit), so a message without a seed in its text needs
     * no second look; one with a seed somewhere is looked at again without
     * the seats' names. */
    if (strcmp(type, "chat") && strcmp(type, "error") && strcmp(type, "rooms") &&
        !(f->over && !strcmp(type, "record")) && has_seed(o->text)) {
        json_object_del(m, "seats"); /* the names people chose */
        char *text = json_dumps(m, JSON_COMPACT);
        FUZZ_CHECK(text != NULL, "out of memory");
        FUZZ_CHECK(!has_seed(text), "a seed in %.300s", text);
        pl_free(text);
    }
    json_decref(m);
}

static void pump(fzh *f)
{
    for (int guard = 0; guard < 100000; guard++) {
        int moved = 0;
        hub_batch *b = hub_store_take(f->h);
        if (b) {
            pl_buf err = {0};
            int ok = !f->fail_next && hub_batch_write(f->s, b, &err) == 0;
            f->fail_next = 0;
            pl_buf_free(&err);
            hub_store_done(f->h, b, ok, f->now);
            hub_batch_free(b);
            moved = 1;
        }
        hub_job *j = hub_job_take(f->h);
        if (j) {
            j->failed = 1;
            hub_job_done(f->h, j, f->now);
            moved = 1;
        }
        hub_out o;
        while (hub_out_next(f->h, &o)) {
            check_out(f, &o);
            pl_free(o.text);
            moved = 1;
        }
        if (!moved)
            return;
    }
    FUZZ_CHECK(0, "the hub never settles");
}

/* Copies line `s` (n bytes) to `out` with $R and $T replaced. */
static size_t expand(const fzh *f, const uint8_t *s, size_t n, char *out, size_t cap)
{
    size_t k = 0;
    for (size_t i = 0; i < n && k + 40 < cap; i++) {
        if (s[i] == '$' && i + 1 < n && (s[i + 1] == 'R' || s[i + 1] == 'T')) {
            const char *v = s[i + 1] == 'R' ? f->room : f->token;
            size_t len = strlen(v);
            memcpy(out + k, v, len);
            k += len;
            i++;
        } else {
            out[k++] = (char)s[i];
        }
    }
    return k;
}

static int count_room(void *ctx, const store_room *r, int finished, const char *result)
{
    (void)r, (void)finished, (void)result;
    ++*(int *)ctx;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pl_json_setup();
    fzh f = {.now = 1000000};
    pl_buf err = {0};
    /* One store per process (a fresh one per input spent a third of the time
     * creating its schema), emptied after each input: it must be empty here. */
    static store *one;
    if (!one)
        one = store_open(":memory:", &err);
    FUZZ_CHECK(one != NULL, "store: %s", pl_buf_str(&err));
    f.s = one;
    int rooms = 0;
    FUZZ_CHECK(store_rooms(one, 0, count_room, &rooms, &err) == 0 && rooms == 0, "store not empty: %d rooms %s",
               rooms, pl_buf_str(&err));
    static FILE *devnull;
    if (!devnull)
        devnull = fopen("/dev/null", "w"); /* the hub's log of clamped touches */
    /* Replays cost a view per step: 1,000 steps at once per connection (the
     * server's 10,000 only burn time here; the refusal is reached sooner). */
    hub_config cfg = {
        .test_seed = FZH_SEED, .takeover_level = "easy", .log = devnull, .replay_burst = 1000, .replay_rate = 200};
    f.h = hub_new(&cfg, &err);
    FUZZ_CHECK(f.h != NULL, "hub: %s", pl_buf_str(&err));
    pl_buf_free(&err);
    for (int c = 0; c < 3; c++)
        f.conn[c] = hub_connect(f.h, f.now);
    pump(&f);
    size_t start = 0;
    static char line[FZH_LINE + 64];
    for (int nl = 0; nl < FZH_LINES && start < size; nl++) {
        size_t end = start;
        while (end < size && data[end] != '\n')
            end++;
        const uint8_t *s = data + start;
        size_t n = end - start;
        start = end + 1;
        f.now += 13;
        if (n >= 1 && s[0] >= '0' && s[0] <= '2') {
            size_t len = expand(&f, s + 1, n - 1, line, sizeof line);
            hub_message(f.h, f.conn[s[0] - '0'], line, len, f.now);
        } else if (n >= 2 && s[0] == '!' && s[1] >= '0' && s[1] <= '2') {
            hub_disconnect(f.h, f.conn[s[1] - '0'], f.now);
            f.conn[s[1] - '0'] = hub_connect(f.h, f.now);
        } else if (n >= 1 && s[0] == '~') {
            int64_t next = hub_next_ms(f.h);
            f.now = next != INT64_MAX && next > f.now && next - f.now < 4000000 ? next : f.now + 1000;
            hub_tick(f.h, f.now);
        } else if (n >= 1 && s[0] == 'x') {
            f.fail_next = 1;
        } else {
            size_t len = expand(&f, s, n, line, sizeof line);
            hub_message(f.h, f.conn[0], line, len, f.now);
        }
        pump(&f);
    }
    hub_free(f.h);
    FUZZ_CHECK(store_clear(one, &err) == 0, "store_clear: %s", pl_buf_str(&err));
    pl_buf_free(&err);
    return 0;
}
