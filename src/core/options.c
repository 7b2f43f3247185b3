/* options.c — generic KEY=VALUE option parsing and validation (options.h). */
#include "parlour/options.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "parlour/alloc.h"

static int count_defs(const pl_option_def *defs)
{
    int n = 0;
    while (defs && defs[n].key)
        n++;
    return n;
}

static int find_def(const pl_option_def *defs, int n, const char *key, size_t klen)
{
    for (int i = 0; i < n; i++)
        if (strlen(defs[i].key) == klen && memcmp(defs[i].key, key, klen) == 0)
            return i;
    return -1;
}

/* Index of `val` in "a|b|c", -1 if absent. */
static int choice_index(const char *choices, const char *val)
{
    size_t vl = strlen(val);
    int idx = 0;
    const char *p = choices;
    while (*p) {
        const char *e = strchr(p, '|');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l == vl && memcmp(p, val, l) == 0)
            return idx;
        idx++;
        if (!e)
            break;
        p = e + 1;
    }
    return -1;
}

static bool parse_long(const char *s, long *out)
{
    if (!*s)
        return false;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end)
        return false;
    *out = v;
    return true;
}

static bool parse_seed(const char *s, uint64_t *out)
{
    if (!*s)
        return false;
    for (const char *p = s; *p; p++)
        if (*p < '0' || *p > '9')
            return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v > (unsigned long long)INT64_MAX)
        return false;
    *out = (uint64_t)v;
    return true;
}

static void describe_allowed(const pl_option_def *d, pl_buf *out)
{
    switch (d->kind) {
    case PL_OPT_ENUM:
        pl_buf_printf(out, "one of %s", d->choices);
        break;
    case PL_OPT_INT:
        pl_buf_printf(out, "an integer from %ld to %ld", d->min, d->max);
        break;
    case PL_OPT_STRING:
        pl_buf_printf(out, "%s", d->help);
        break;
    }
}

static void list_keys(const pl_option_def *defs, int n, pl_buf *out)
{
    for (int i = 0; i < n; i++)
        pl_buf_printf(out, "%s%s", i ? ", " : "", defs[i].key);
    pl_buf_printf(out, "%s" PL_SEED_KEY, n ? ", " : "");
}

void pl_opts_free(pl_opts *o)
{
    if (o->values)
        for (int i = 0; i < o->n; i++)
            pl_free(o->values[i]);
    pl_free(o->values);
    pl_free(o->given);
    memset(o, 0, sizeof *o);
}

static int opts_alloc(pl_opts *o, const pl_option_def *defs)
{
    memset(o, 0, sizeof *o);
    o->defs = defs;
    o->n = count_defs(defs);
    o->values = pl_calloc((size_t)o->n + 1, sizeof *o->values);
    o->given = pl_calloc((size_t)o->n + 1, sizeof *o->given);
    return (o->values && o->given) ? 0 : -1;
}

int pl_opts_parse(pl_opts *o, const pl_option_def *defs, int argc, char **argv, pl_buf *err)
{
    if (opts_alloc(o, defs) < 0) {
        pl_opts_free(o);
        pl_buf_puts(err, "out of memory");
        return -1;
    }
    for (int a = 0; a < argc; a++) {
        const char *w = argv[a];
        const char *eq = strchr(w, '=');
        if (!eq || eq == w) {
            pl_buf_printf(err, "bad option '%s': expected KEY=VALUE; keys: ", w);
            list_keys(defs, o->n, err);
            goto fail;
        }
        size_t klen = (size_t)(eq - w);
        const char *val = eq + 1;
        if (klen == strlen(PL_SEED_KEY) && memcmp(w, PL_SEED_KEY, klen) == 0) {
            if (o->seed_given) {
                pl_buf_puts(err, "option seed given twice");
                goto fail;
            }
            if (!parse_seed(val, &o->seed)) {
                pl_buf_printf(err, "bad value '%s' for seed: allowed an integer from 0 to %lld",
                              val, (long long)INT64_MAX);
                goto fail;
            }
            o->seed_given = true;
            continue;
        }
        int i = find_def(defs, o->n, w, klen);
        if (i < 0) {
            pl_buf_printf(err, "unknown option '%.*s'; allowed: ", (int)klen, w);
            list_keys(defs, o->n, err);
            goto fail;
        }
        const pl_option_def *d = &defs[i];
        if (o->given[i]) {
            pl_buf_printf(err, "option %s given twice", d->key);
            goto fail;
        }
        bool ok = true;
        if (d->kind == PL_OPT_ENUM) {
            ok = choice_index(d->choices, val) >= 0;
        } else if (d->kind == PL_OPT_INT) {
            long v;
            ok = parse_long(val, &v) && v >= d->min && v <= d->max;
        }
        if (!ok) {
            pl_buf_printf(err, "bad value '%s' for %s: allowed ", val, d->key);
            describe_allowed(d, err);
            goto fail;
        }
        o->values[i] = pl_strdup(val);
        if (!o->values[i]) {
            pl_buf_puts(err, "out of memory");
            goto fail;
        }
        o->given[i] = true;
    }
    for (int i = 0; i < o->n; i++) {
        if (!o->values[i]) {
            o->values[i] = pl_strdup(defs[i].def);
            if (!o->values[i]) {
                pl_buf_puts(err, "out of memory");
                goto fail;
            }
        }
    }
    return 0;
fail:
    pl_opts_free(o);
    return -1;
}

int pl_opts_copy(pl_opts *dst, const pl_opts *src)
{
    if (opts_alloc(dst, src->defs) < 0)
        goto fail;
    for (int i = 0; i < src->n; i++) {
        dst->values[i] = pl_strdup(src->values[i] ? src->values[i] : "");
        if (!dst->values[i])
            goto fail;
        dst->given[i] = src->given[i];
    }
    dst->seed = src->seed;
    dst->seed_given = src->seed_given;
    return 0;
fail:
    pl_opts_free(dst);
    return -1;
}

const char *pl_opts_get(const pl_opts *o, const char *key)
{
    int i = find_def(o->defs, o->n, key, strlen(key));
    return i < 0 ? NULL : o->values[i];
}

long pl_opts_int(const pl_opts *o, const char *key)
{
    const char *v = pl_opts_get(o, key);
    long x = 0;
    if (v && parse_long(v, &x))
        return x;
    return 0;
}

bool pl_opts_given(const pl_opts *o, const char *key)
{
    int i = find_def(o->defs, o->n, key, strlen(key));
    return i >= 0 && o->given[i];
}

int pl_opts_choice(const pl_opts *o, const char *key)
{
    int i = find_def(o->defs, o->n, key, strlen(key));
    if (i < 0 || o->defs[i].kind != PL_OPT_ENUM)
        return -1;
    return choice_index(o->defs[i].choices, o->values[i]);
}

void pl_opts_write(const pl_opts *o, pl_buf *out)
{
    for (int i = 0; i < o->n; i++)
        pl_buf_printf(out, "%s=%s\n", o->defs[i].key, o->values[i]);
    pl_buf_printf(out, PL_SEED_KEY "=%llu\n", (unsigned long long)o->seed);
}

void pl_opts_describe(const pl_option_def *defs, pl_buf *out)
{
    int n = count_defs(defs);
    for (int i = 0; i < n; i++) {
        const pl_option_def *d = &defs[i];
        pl_buf_printf(out, "%s=%s ", d->key, d->def);
        if (d->kind == PL_OPT_ENUM)
            pl_buf_printf(out, "%s", d->choices);
        else if (d->kind == PL_OPT_INT)
            pl_buf_printf(out, "%ld..%ld", d->min, d->max);
        else
            pl_buf_puts(out, "text");
        pl_buf_printf(out, " %s\n", d->help);
    }
    pl_buf_puts(out, PL_SEED_KEY "=random 0..9223372036854775807 seeds the game's generator "
                     "(same seed, same game)\n");
}
