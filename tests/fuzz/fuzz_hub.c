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
 * random legal action): a search level costs seconds, not a hub bug. Work
 * per input is bounded: the first FZH_JOBS (64) jobs of an input are
 * answered, later ones stay pending (a computer thinking forever: the
 * hub's state while it waits is reachable too); a message text that passed
 * every check before in this process and gave the script nothing to take
 * is not parsed again (check_out). */
#include <inttypes.h>
#include <stddef.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "fuzz.h"
#include "hub.h"
#include "parlour/alloc.h"
#include "parlour/record.h"

#define FZH_SEED UINT64_C(0x1234567890abc) /* rooms get seeds FZH_SEED, FZH_SEED + 1, ... */
#define FZH_LINES 48
#define FZH_LINE 2048
#define FZH_ROOMS 8 /* the seeds checked: those of the first 8 rooms of an input */
#define FZH_JOBS 64 /* computer jobs answered per input; later ones stay pending */

typedef struct fzh {
    hub *h;
    store *s;
    int64_t now;
    uint64_t conn[3];
    int fail_next;
    char room[64], token[64];
    int jobs;    /* computer jobs answered (at most FZH_JOBS) */
    int batches; /* store batches taken: none, and the store needs no emptying */
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


/* The check's own parse of each message (and the seed check's dump) takes
 * its memory from an arena, not from ASan's allocator: jansson is not
 * instrumented, and a malloc per JSON value under ASan (a stack trace, a
 * fill, a quarantine) was most of an input's time. json_set_alloc_funcs
 * points jansson at it during check_out only; arena_reset empties it after
 * each message (keeping its first chunk). */
#define FZH_CHUNK ((size_t)4 << 20)
typedef struct fzh_chunk {
    struct fzh_chunk *next;
    size_t used, cap;
    max_align_t data[];
} fzh_chunk;
static fzh_chunk *arena;

static void *arena_alloc(size_t n)
{
    n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    if (!arena || arena->cap - arena->used < n) {
        size_t cap = n > FZH_CHUNK ? n : FZH_CHUNK;
        fzh_chunk *c = malloc(sizeof *c + cap);
        if (!c)
            return NULL;
        *c = (fzh_chunk){arena, 0, cap};
        arena = c;
    }
    void *p = (char *)arena->data + arena->used;
    arena->used += n;
    return p;
}

static void arena_free(void *p) { (void)p; }

static void arena_reset(void)
{
    while (arena && arena->next) { /* the oldest chunk stays */
        fzh_chunk *next = arena->next;
        free(arena);
        arena = next;
    }
    if (arena)
        arena->used = 0;
}

/* The texts out that passed every check and gave the script nothing to
 * take: 64-bit hashes (fz_hash_bytes), FZH_PASSED slots, forgotten all at
 * once when half full. `add`: remember `h`; else whether it is there. */
#define FZH_PASSED (1 << 18)
static int passed(uint64_t h, int add)
{
    static uint64_t *tab;
    static long used;
    if (!tab) {
        tab = calloc(FZH_PASSED, sizeof *tab);
        FUZZ_CHECK(tab != NULL, "out of memory");
    }
    h |= 1; /* 0 marks an empty slot */
    size_t i = (size_t)(h & (FZH_PASSED - 1));
    while (tab[i] && tab[i] != h)
        i = (i + 1) & (FZH_PASSED - 1);
    if (!add || tab[i] == h)
        return tab[i] == h;
    if (used >= FZH_PASSED / 2) {
        memset(tab, 0, FZH_PASSED * sizeof *tab);
        used = 0;
        i = (size_t)(h & (FZH_PASSED - 1));
    }
    tab[i] = h;
    used++;
    return 1;
}

/* Checks one message out (the header's checks) and takes what the script
 * needs from it (the room created, the token given, a game over). A text
 * checked already by this process (passed: a 64-bit hash of its bytes)
 * that passed every check and gave nothing to take is not parsed again: most messages are byte for byte ones seen before (a welcome, the
 * same error, a state every seat gets alike), 82 % on a working corpus.
 * Those with something to take (created, joined, a state that is over)
 * and records (whose seed check depends on `over`) are parsed every time. */
static void check_out(fzh *f, const hub_out *o)
{
    uint64_t hash = fz_hash_bytes(o->text, o->len, 0x6875625f6f7574ull); /* "hub_out" */
    if (passed(hash, 0))
        return; /* passed before, nothing to take */
    json_set_alloc_funcs(arena_alloc, arena_free);
    json_error_t je;
    json_t *m = json_loadb(o->text, o->len, 0, &je);
    FUZZ_CHECK(m && json_is_object(m), "not a JSON object: %.200s", o->text);
    json_t *t = json_object_get(m, "type");
    FUZZ_CHECK(t && json_is_string(t), "no type: %.200s", o->text);
    const char *type = json_string_value(t);
    int takes = 0; /* something for the script, or a check that depends on it */
    if (!strcmp(type, "error"))
        FUZZ_CHECK(json_is_string(json_object_get(m, "error")) && json_is_string(json_object_get(m, "message")) &&
                       json_object_get(m, "request"),
                   "error without its fields: %.200s", o->text);
    if (!strcmp(type, "created")) {
        snprintf(f->room, sizeof f->room, "%s", json_string_value(json_object_get(m, "room")));
        takes = 1;
    }
    if (!strcmp(type, "joined")) {
        snprintf(f->token, sizeof f->token, "%s", json_string_value(json_object_get(m, "token")));
        takes = 1;
    }
    if (!strcmp(type, "paired")) { /* Play now: the room made for a pairing and the seat's token */
        snprintf(f->room, sizeof f->room, "%s", json_string_value(json_object_get(m, "room")));
        snprintf(f->token, sizeof f->token, "%s", json_string_value(json_object_get(m, "token")));
        takes = 1;
    }
    if (!strcmp(type, "state") && json_is_true(json_object_get(m, "over"))) {
        f->over = 1;
        takes = 1;
    }
    if (!strcmp(type, "record"))
        takes = 1;
    /* The text as sent holds every digit the message's values hold (JSON
     * never escapes a digit), so a message without a seed in its text needs
     * no second look; one with a seed somewhere is looked at again without
     * the seats' names. */
    if (strcmp(type, "chat") && strcmp(type, "error") && strcmp(type, "rooms") &&
        !(f->over && !strcmp(type, "record")) && has_seed(o->text)) {
        json_object_del(m, "seats"); /* the names people chose */
        char *text = json_dumps(m, JSON_COMPACT); /* in the arena too */
        FUZZ_CHECK(text != NULL, "out of memory");
        FUZZ_CHECK(!has_seed(text), "a seed in %.300s", text);
    }
    json_decref(m);
    json_set_alloc_funcs(pl_malloc, pl_free); /* pl_json_setup's */
    arena_reset();
    if (!takes)
        passed(hash, 1);
}

static void pump(fzh *f)
{
    for (int guard = 0; guard < 100000; guard++) {
        int moved = 0;
        hub_batch *b = hub_store_take(f->h);
        if (b) {
            f->batches++;
            pl_buf err = {0};
            int ok = !f->fail_next && hub_batch_write(f->s, b, &err) == 0;
            f->fail_next = 0;
            pl_buf_free(&err);
            hub_store_done(f->h, b, ok, f->now);
            hub_batch_free(b);
            moved = 1;
        }
        hub_job *j = f->jobs < FZH_JOBS ? hub_job_take(f->h) : NULL; /* after: pending, thinking forever */
        if (j)
            f->jobs++;
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
    FUZZ_CHECK(!f.batches || store_clear(one, &err) == 0, "store_clear: %s", pl_buf_str(&err));
    pl_buf_free(&err);
    return 0;
}
