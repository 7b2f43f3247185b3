/* jsonout.h — jansson values written as compact JSON with sorted keys, fast.
 *
 * pl_json_dump writes exactly the bytes json_dumps(j, JSON_COMPACT |
 * JSON_SORT_KEYS | JSON_ENCODE_ANY) writes, at a fraction of its cost: no
 * printf for integers, no allocation per object for the sorted keys, one
 * growable buffer. What it does not write itself (reals, strings with bytes
 * above 0x7f, whose UTF-8 jansson checks) it hands to jansson for that
 * value, so the text is jansson's in every case (test_unit_core compares
 * them). The server writes every state with it (docs/benchmarks.md, "The
 * server under load"). Thread-safe: no shared state.
 */
#ifndef PARLOUR_JSONOUT_H
#define PARLOUR_JSONOUT_H
#include <jansson.h>

#include "parlour/buf.h"

/* Appends `j` to `out` as json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS |
 * JSON_ENCODE_ANY) would write it. Returns 0, or -1 when memory ran out or
 * jansson refuses the value (a string that is not UTF-8, a NaN): `out` is
 * then cut back to its length before the call. */
int pl_json_dump(const json_t *j, pl_buf *out);

/* Appends the string `s` (NUL-terminated) as pl_json_dump writes a string
 * value: for a writer that makes a JSON text piece by piece. Returns 0, or
 * -1 (`out` cut back) as pl_json_dump. */
int pl_json_put_string(pl_buf *out, const char *s);

/* Appends the integer `v` as pl_json_dump writes it; sets out->oom when
 * memory runs out. */
void pl_json_put_int(pl_buf *out, long long v);

/* ---- pl_jfields: an object written from (key, value text) pairs ----
 *
 * For a writer that makes an object's values as text in any order of keys
 * (pl_view_json with pl_game.view_text) and wants pl_json_dump's object:
 * keys sorted as jansson sorts them (strcmp's order), compact.
 *
 *     pl_jfields f;
 *     pl_jfields_start(&f, out);
 *     pl_json_put_int(pl_jfields_key(&f, "turn"), 1);
 *     pl_json_put_string(pl_jfields_key(&f, "stage"), "move");
 *     if (pl_jfields_finish(&f, err) < 0) ...   // out: {"stage":"move","turn":1}
 *
 * The values are written into `out` itself, past its text, and the object
 * then replaces them there: no allocation of its own, so a reused `out`
 * (already grown) makes an object without one malloc. Fields may nest: a
 * value may be an object made by another pl_jfields started on the same
 * buffer while the outer field is open. At most PL_JFIELDS_MAX keys.
 * Not thread-safe (one owner, as its buffer). */
#define PL_JFIELDS_MAX 64

typedef struct pl_jfields {
    pl_buf *out;   /* where the values, then the object, are written */
    size_t base;   /* out->len at pl_jfields_start: what was there stays */
    int n;         /* keys so far */
    int overflow;  /* a key past PL_JFIELDS_MAX was given */
    struct pl_jfield {
        const char *key; /* the caller's string, until pl_jfields_finish */
        size_t off;      /* the value's first byte in out->s */
    } f[PL_JFIELDS_MAX];
} pl_jfields;

/* Starts an object whose text will be appended to `out`. Cannot fail. */
void pl_jfields_start(pl_jfields *f, pl_buf *out);

/* Starts the field `key` (NUL-terminated; the caller keeps it alive until
 * pl_jfields_finish) and returns the buffer to append its value to, as
 * JSON text (pl_json_put_string, pl_json_put_int, literal "[", "true" ...):
 * everything appended until the next pl_jfields_key or pl_jfields_finish is
 * the value. Never NULL: past PL_JFIELDS_MAX keys the value is still taken
 * and pl_jfields_finish fails. */
pl_buf *pl_jfields_key(pl_jfields *f, const char *key);

/* Replaces the values appended since pl_jfields_start with the object
 * {"key":value,...}, keys sorted by strcmp (pl_json_dump's order). Returns
 * 0; or -1, with a message in `err` (may be NULL) and `out` cut back to its
 * text before pl_jfields_start, when a key came twice, a value is empty,
 * there were more than PL_JFIELDS_MAX keys (each a bug of the writer), a
 * key is not UTF-8, or memory ran out (`out->oom`, also when it was set
 * before the start: the object could not be whole). It does not check the values' text: the writer owes
 * valid JSON. */
int pl_jfields_finish(pl_jfields *f, pl_buf *err);

#endif
