/* jsonout.c — pl_json_dump (jsonout.h): compact JSON with sorted keys,
 * byte for byte jansson's json_dumps, without its printf and allocations. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <utf8proc.h>

#include "parlour/alloc.h"
#include "parlour/jsonout.h"

/* Objects with more keys than this are sorted in an allocated array. */
#define JO_STACK_KEYS 32

static int jo_value(const json_t *j, pl_buf *out, int depth);

/* Hands `j` to jansson (a real, a string jansson must check as UTF-8). */
static int jo_jansson(const json_t *j, pl_buf *out)
{
    char *s = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
    if (!s)
        return -1;
    pl_buf_puts(out, s);
    pl_free(s); /* jansson's allocator: malloc's, or pl_alloc's after pl_json_setup */
    return 0;
}

/* Whether `s` (`n` bytes) is UTF-8 as jansson takes it (utf8proc's check is
 * the same: no overlong form, no surrogate, nothing above U+10FFFF). */
static int jo_utf8(const char *s, size_t n)
{
    const utf8proc_uint8_t *p = (const utf8proc_uint8_t *)s, *end = p + n;
    while (p < end) {
        utf8proc_int32_t cp;
        utf8proc_ssize_t k = utf8proc_iterate(p, end - p, &cp);
        if (k <= 0)
            return 0;
        p += k;
    }
    return 1;
}

/* Writes string `s` (`n` bytes) quoted as jansson does: \" \\ \b \f \n \r
 * \t, other bytes below 0x20 as \u00XX (upper-case hex), the rest (UTF-8
 * included) as they are. Returns 1 when `s` is not UTF-8 (the caller hands
 * the value to jansson, which refuses it), else 0; nothing is written then. */
static int jo_string(const char *s, size_t n, pl_buf *out)
{
    /* Eight bytes at a time: a byte below 0x20 (hasless: exact for "some
     * byte is", with bytes of 0x80 and more masked out by ~x), a '"' or a
     * '\\' (a zero byte after the xor), a byte of 0x80 or more (its top bit). */
    const uint64_t ones = UINT64_C(0x0101010101010101), tops = UINT64_C(0x8080808080808080);
    uint64_t bad = 0, hi = 0;
    size_t k = 0;
    for (; k + 8 <= n; k += 8) {
        uint64_t x, q, b;
        memcpy(&x, s + k, 8);
        q = x ^ (ones * '"');
        b = x ^ (ones * '\\');
        bad |= ((x - ones * 0x20) & ~x) | ((q - ones) & ~q) | ((b - ones) & ~b);
        hi |= x;
    }
    int plain = !(bad & tops), high = (hi & tops) != 0;
    for (; k < n; k++) {
        unsigned char c = (unsigned char)s[k];
        high |= c >= 0x80;
        plain &= c >= 0x20 && c != '"' && c != '\\';
    }
    if (high && !jo_utf8(s, n))
        return 1;
    if (plain) { /* most strings: room made once, one copy */
        if (!pl_buf_reserve(out, n + 2))
            return 0; /* out->oom is set: the caller sees it */
        char *d = out->s + out->len;
        d[0] = '"';
        memcpy(d + 1, s, n);
        d[n + 1] = '"';
        d[n + 2] = '\0';
        out->len += n + 2;
        return 0;
    }
    pl_buf_putc(out, '"');
    size_t run = 0; /* bytes copied as they are, waiting */
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != '"' && c != '\\') {
            run++;
            continue;
        }
        pl_buf_append(out, s + i - run, run);
        run = 0;
        char esc[7] = {'\\', 0};
        switch (c) {
        case '"': esc[1] = '"'; break;
        case '\\': esc[1] = '\\'; break;
        case '\b': esc[1] = 'b'; break;
        case '\f': esc[1] = 'f'; break;
        case '\n': esc[1] = 'n'; break;
        case '\r': esc[1] = 'r'; break;
        case '\t': esc[1] = 't'; break;
        default: {
            static const char hex[] = "0123456789ABCDEF";
            memcpy(esc + 1, "u00", 3);
            esc[4] = hex[c >> 4];
            esc[5] = hex[c & 15];
        }
        }
        pl_buf_append(out, esc, strlen(esc));
    }
    pl_buf_append(out, s + n - run, run);
    pl_buf_putc(out, '"');
    return 0;
}

static void jo_integer(json_int_t v, pl_buf *out)
{
    char tmp[24], *p = tmp + sizeof tmp;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do
        *--p = (char)('0' + u % 10);
    while (u /= 10);
    if (v < 0)
        *--p = '-';
    pl_buf_append(out, p, (size_t)(tmp + sizeof tmp - p));
}

/* One key and its value, for sorting. */
typedef struct jo_pair {
    const char *key;
    size_t len;
    const json_t *v;
} jo_pair;

/* jansson's order (dump.c's compare_keys): the bytes, then the length. */
static int jo_cmp(const void *a, const void *b)
{
    const jo_pair *x = a, *y = b;
    int c = memcmp(x->key, y->key, x->len < y->len ? x->len : y->len);
    return c ? c : (x->len > y->len) - (x->len < y->len);
}

static int jo_object(const json_t *j, pl_buf *out, int depth)
{
    size_t n = json_object_size(j);
    jo_pair stack[JO_STACK_KEYS], *p = n <= JO_STACK_KEYS ? stack : pl_malloc(n * sizeof *p);
    if (!p)
        return -1;
    size_t k = 0;
    const char *key;
    size_t klen;
    json_t *v;
    json_object_keylen_foreach((json_t *)j, key, klen, v)
    {
        if (k < n)
            p[k++] = (jo_pair){key, klen, v};
    }
    if (k <= 8) { /* most objects: a few keys, insertion sort */
        for (size_t i = 1; i < k; i++)
            for (size_t m = i; m > 0 && jo_cmp(&p[m - 1], &p[m]) > 0; m--) {
                jo_pair t = p[m];
                p[m] = p[m - 1];
                p[m - 1] = t;
            }
    } else {
        qsort(p, k, sizeof *p, jo_cmp);
    }
    int rc = 0;
    pl_buf_putc(out, '{');
    for (size_t i = 0; i < k && rc == 0; i++) {
        if (i)
            pl_buf_putc(out, ',');
        if (jo_string(p[i].key, p[i].len, out)) {
            json_t *ks = json_stringn(p[i].key, p[i].len); /* not UTF-8-checked here: jansson's word */
            rc = ks ? jo_jansson(ks, out) : -1;
            json_decref(ks);
            if (rc)
                break;
        }
        pl_buf_putc(out, ':');
        rc = jo_value(p[i].v, out, depth + 1);
    }
    pl_buf_putc(out, '}');
    if (p != stack)
        pl_free(p);
    return rc;
}

static int jo_value(const json_t *j, pl_buf *out, int depth)
{
    if (!j || depth > 2048) /* jansson's own depth limit is larger than any view */
        return -1;
    switch (json_typeof(j)) {
    case JSON_OBJECT:
        return jo_object(j, out, depth);
    case JSON_ARRAY: {
        size_t n = json_array_size(j);
        pl_buf_putc(out, '[');
        for (size_t i = 0; i < n; i++) {
            if (i)
                pl_buf_putc(out, ',');
            if (jo_value(json_array_get(j, i), out, depth + 1))
                return -1;
        }
        pl_buf_putc(out, ']');
        return 0;
    }
    case JSON_STRING:
        if (jo_string(json_string_value(j), json_string_length(j), out))
            return jo_jansson(j, out);
        return 0;
    case JSON_INTEGER:
        jo_integer(json_integer_value(j), out);
        return 0;
    case JSON_TRUE:
        pl_buf_append(out, "true", 4);
        return 0;
    case JSON_FALSE:
        pl_buf_append(out, "false", 5);
        return 0;
    case JSON_NULL:
        pl_buf_append(out, "null", 4);
        return 0;
    default: /* JSON_REAL */
        return jo_jansson(j, out);
    }
}

int pl_json_dump(const json_t *j, pl_buf *out)
{
    size_t len0 = out->len;
    int oom0 = out->oom;
    if (jo_value(j, out, 0) < 0 || (out->oom && !oom0)) {
        pl_buf_truncate(out, len0);
        return -1;
    }
    return 0;
}

int pl_json_put_string(pl_buf *out, const char *s)
{
    size_t len0 = out->len;
    int oom0 = out->oom;
    int rc = 0;
    if (jo_string(s, strlen(s), out)) {
        json_t *j = json_string(s); /* NULL when not UTF-8: refused as jansson would */
        rc = j ? jo_jansson(j, out) : -1;
        json_decref(j);
    }
    if (rc < 0 || (out->oom && !oom0)) {
        pl_buf_truncate(out, len0);
        return -1;
    }
    return 0;
}

void pl_json_put_int(pl_buf *out, long long v)
{
    jo_integer((json_int_t)v, out);
}

/* ---- pl_jfields (jsonout.h) ---- */

void pl_jfields_start(pl_jfields *f, pl_buf *out)
{
    f->out = out;
    f->base = out->len;
    f->n = 0;
    f->overflow = 0;
}

pl_buf *pl_jfields_key(pl_jfields *f, const char *key)
{
    if (f->n < PL_JFIELDS_MAX)
        f->f[f->n++] = (struct pl_jfield){key, f->out->len};
    else
        f->overflow = 1; /* its value lands in the last field's: finish fails anyway */
    return f->out;
}

/* Fails pl_jfields_finish: `out` back to its text before the object. */
static int jf_fail(pl_jfields *f, pl_buf *err, const char *why, const char *key)
{
    pl_buf_truncate(f->out, f->base);
    if (err && key)
        pl_buf_printf(err, "%s \"%s\"", why, key);
    else if (err)
        pl_buf_puts(err, why);
    return -1;
}

/* Whether `key` is written as it is between quotes: letters, digits, '_'
 * and '-' only (every key of the views), so no escape and no UTF-8 check. */
static int jf_plain_key(const char *key)
{
    for (const unsigned char *k = (const unsigned char *)key; *k; k++)
        if (!((*k >= 'a' && *k <= 'z') || (*k >= 'A' && *k <= 'Z') || (*k >= '0' && *k <= '9') || *k == '_' ||
              *k == '-'))
            return 0;
    return 1;
}

int pl_jfields_finish(pl_jfields *f, pl_buf *err)
{
    pl_buf *out = f->out;
    if (out->oom) /* a value lost text (or `out` could take none from the start) */
        return jf_fail(f, err, "out of memory", NULL);
    if (f->overflow)
        return jf_fail(f, err, "more keys than an object of fields holds (PL_JFIELDS_MAX)", NULL);
    int n = f->n, order[PL_JFIELDS_MAX];
    size_t end[PL_JFIELDS_MAX]; /* where each value stops */
    for (int i = 0; i < n; i++) {
        end[i] = i + 1 < n ? f->f[i + 1].off : out->len;
        if (end[i] == f->f[i].off)
            return jf_fail(f, err, "no value for the key", f->f[i].key);
    }
    /* The order this thread sorted last, if it sorts these keys too (a
     * caller gives its keys in the same order every time): checked in n - 1
     * comparisons, where sorting takes some n * n / 4. */
    static _Thread_local int last[PL_JFIELDS_MAX], nlast;
    int sorted = nlast == n;
    for (int i = 1; sorted && i < n; i++)
        sorted = strcmp(f->f[last[i - 1]].key, f->f[last[i]].key) < 0;
    if (sorted) {
        memcpy(order, last, sizeof *order * (size_t)n);
    } else {
        for (int i = 0; i < n; i++) { /* insertion sort: a few dozen keys at most */
            int m = i;
            for (; m > 0 && strcmp(f->f[order[m - 1]].key, f->f[i].key) > 0; m--)
                order[m] = order[m - 1];
            order[m] = i;
        }
        for (int i = 1; i < n; i++)
            if (!strcmp(f->f[order[i - 1]].key, f->f[order[i]].key))
                return jf_fail(f, err, "a key given twice:", f->f[order[i]].key);
        memcpy(last, order, sizeof *order * (size_t)n);
        nlast = n;
    }
    /* The object goes after the values, then moves down over them. */
    size_t start = out->len;
    pl_buf_putc(out, '{');
    for (int i = 0; i < n; i++) {
        const struct pl_jfield *p = &f->f[order[i]];
        size_t len = end[order[i]] - p->off;
        if (i)
            pl_buf_putc(out, ',');
        if (jf_plain_key(p->key)) { /* the keys games write: nothing to escape or check */
            pl_buf_putc(out, '"');
            pl_buf_puts(out, p->key);
            pl_buf_puts(out, "\":");
        } else {
            if (pl_json_put_string(out, p->key) < 0)
                return jf_fail(f, err, out->oom ? "out of memory" : "a key that is not UTF-8:",
                               out->oom ? NULL : p->key);
            pl_buf_putc(out, ':');
        }
        if (!pl_buf_reserve(out, len)) /* so that the copy's source stays where it is */
            break;
        pl_buf_append(out, out->s + p->off, len);
    }
    pl_buf_putc(out, '}');
    if (out->oom)
        return jf_fail(f, err, "out of memory", NULL);
    size_t objlen = out->len - start;
    memmove(out->s + f->base, out->s + start, objlen);
    pl_buf_truncate(out, f->base + objlen);
    return 0;
}
