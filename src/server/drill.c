/* drill.c -- a player's karuta drill record on the server (drill.h). */
#include "drill.h"

#include <jansson.h>
#include <string.h>

/* The fields of a card's entry, in the order docs/drills.md gives. */
static const char *const drill_fields[] = {"box", "due", "seen", "good", "slow", "miss", "ms", "last"};
#define DRILL_NFIELDS (sizeof drill_fields / sizeof drill_fields[0])

/* 1 when `k` is a poem number in decimal without leading zeros, 1..100. */
static int drill_card_key(const char *k)
{
    size_t n = strlen(k);
    if (n == 0 || n > 3 || k[0] == '0' || strspn(k, "0123456789") != n)
        return 0;
    int v = 0;
    for (size_t i = 0; i < n; i++)
        v = v * 10 + (k[i] - '0');
    return v >= 1 && v <= 100;
}

/* 0 when card entry `e` (of card `k`) is right, else -1 with why. Keys
 * other than the eight are ignored (docs/drills.md: readers ignore keys
 * they do not know). */
static int drill_card(const char *k, json_t *e, pl_buf *why)
{
    json_int_t v[DRILL_NFIELDS];
    if (!json_is_object(e)) {
        pl_buf_printf(why, "card %s: an object of the integers box, due, seen, good, slow, miss, ms, last", k);
        return -1;
    }
    for (size_t i = 0; i < DRILL_NFIELDS; i++) {
        json_t *x = json_object_get(e, drill_fields[i]);
        if (!json_is_integer(x) || json_integer_value(x) < 0) {
            pl_buf_printf(why, "card %s: \"%s\" must be an integer >= 0", k, drill_fields[i]);
            return -1;
        }
        v[i] = json_integer_value(x);
    }
    if (v[0] < 1 || v[0] > 5) {
        pl_buf_printf(why, "card %s: \"box\" must be 1 to 5", k);
        return -1;
    }
    /* seen = good + slow + miss, compared by subtraction: the three are
     * >= 0 and any up to 2^63 - 1, whose sum would overflow */
    if (v[3] > v[2] || v[4] > v[2] - v[3] || v[5] != v[2] - v[3] - v[4]) {
        pl_buf_printf(why, "card %s: \"seen\" must be good + slow + miss", k);
        return -1;
    }
    return 0;
}

int drill_check(const char *body, size_t len, pl_buf *why)
{
    json_error_t je;
    json_t *root = json_loadb(body ? body : "", len, JSON_REJECT_DUPLICATES, &je), *cards = NULL;
    json_int_t version = 0, step = 0;
    int rc = 0;
    if (!root || json_unpack_ex(root, &je, 0, "{s:I, s:I, s:o}", "version", &version, "step", &step, "cards", &cards) < 0 ||
        !json_is_object(cards)) {
        pl_buf_puts(why, "a drill record: {\"version\": 1, \"step\": integer, \"cards\": {\"1\".. \"100\": entry}}");
        rc = -1;
    } else if (version != 1) {
        pl_buf_puts(why, "a drill record of version 1 only");
        rc = -1;
    } else if (step < 0) {
        pl_buf_puts(why, "\"step\" must be an integer >= 0");
        rc = -1;
    } else {
        const char *k;
        json_t *e;
        json_object_foreach(cards, k, e)
        {
            if (!drill_card_key(k)) {
                pl_buf_puts(why, "\"cards\" are keyed by poem numbers \"1\" to \"100\"");
                rc = -1;
                break;
            }
            if (drill_card(k, e, why) < 0) {
                rc = -1;
                break;
            }
        }
    }
    json_decref(root);
    return rc;
}

int drill_rate_ok(drill_rate *r, int64_t account, int64_t now_ms)
{
    return drill_rate_take(r, account, now_ms, DRILL_RATE_MAX);
}

int drill_rate_take(drill_rate *r, int64_t account, int64_t now_ms, int max)
{
    size_t i = (size_t)((uint64_t)account % DRILL_RATE_SLOTS);
    if (r->calls[i] == 0 || now_ms < r->since_ms[i] || now_ms - r->since_ms[i] >= DRILL_RATE_WINDOW) {
        r->since_ms[i] = now_ms; /* a new window */
        r->calls[i] = 0;
    }
    if (r->calls[i] >= max)
        return 0;
    r->calls[i]++;
    return 1;
}
