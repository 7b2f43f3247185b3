/* kar_drill.c — karuta drills (public/kar_drill.h): the Leitner record and
 * scheduler, the field, the grades, the kimariji drill's prefix, the flip
 * drill's check and the listening drill's reading, as docs/drills.md says
 * (data/drills/vectors.json: tests/test_unit_kar_drill.c reproduces it).
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "kar.h"
#include "public/kar_drill.h"

_Static_assert(KAR_DRILL_POEMS == KAR_NPOEMS, "poem count");
_Static_assert(KAR_DRILL_TL_MAX >= KAR_TL_MAX, "an upper half's timeline fits");

static const int interval[KAR_DRILL_BOXES + 1] = {0, 1, 3, 7, 15, 31};
static const int extra[KAR_DRILL_BOXES + 1] = {3, 3, 2, 1, 0, 0};
static const int slow_ms[3] = {3000, 1000, 5000}; /* by enum kar_drill_kind */
static const char *const kind_names[3] = {"kimariji", "listen", "flip"};
static const char *const grade_names[3] = {"good", "slow", "miss"};

/* ---- the record ---- */

void kar_drill_rec_init(kar_drill_rec *r) { memset(r, 0, sizeof *r); }

static const char *const card_keys[8] = {"box", "due", "seen", "good", "slow", "miss", "ms", "last"};

int kar_drill_rec_from_json(kar_drill_rec *r, const char *text, pl_buf *err)
{
    kar_drill_rec_init(r);
    json_error_t je;
    json_t *root = json_loads(text, 0, &je);
    if (!root) {
        pl_buf_printf(err, "not JSON (line %d: %s)", je.line, je.text);
        return -1;
    }
    int rc = -1;
    json_t *ver = json_object_get(root, "version"), *step = json_object_get(root, "step");
    json_t *cards = json_object_get(root, "cards");
    if (!json_is_object(root) || !json_is_integer(ver) || json_integer_value(ver) != 1) {
        pl_buf_puts(err, "not a drill record of version 1");
        goto out;
    }
    if (!json_is_integer(step) || json_integer_value(step) < 0 || json_integer_value(step) > 1000000000) {
        pl_buf_puts(err, "\"step\" wants a whole number 0 or more");
        goto out;
    }
    if (!json_is_object(cards)) {
        pl_buf_puts(err, "\"cards\" wants an object");
        goto out;
    }
    r->step = (int)json_integer_value(step);
    const char *key;
    json_t *val;
    json_object_foreach(cards, key, val) {
        char *end;
        long n = strtol(key, &end, 10);
        if (*end || end == key || key[0] == '0' || n < 1 || n > KAR_NPOEMS || !json_is_object(val)) {
            pl_buf_printf(err, "card \"%s\": wants a poem number 1-100 and an object", key);
            goto out;
        }
        long v[8];
        for (int i = 0; i < 8; i++) {
            json_t *f = json_object_get(val, card_keys[i]);
            if (!json_is_integer(f) || json_integer_value(f) < 0 || json_integer_value(f) > 2000000000) {
                pl_buf_printf(err, "card \"%s\": \"%s\" wants a whole number 0 or more", key, card_keys[i]);
                goto out;
            }
            v[i] = (long)json_integer_value(f);
        }
        if (v[0] < 1 || v[0] > KAR_DRILL_BOXES || v[2] != v[3] + v[4] + v[5]) {
            pl_buf_printf(err, "card \"%s\": box wants 1-5 and seen = good + slow + miss", key);
            goto out;
        }
        r->cards[n] = (kar_drill_card){.box = (int)v[0], .due = (int)v[1], .seen = (int)v[2], .good = (int)v[3],
                                       .slow = (int)v[4], .miss = (int)v[5], .ms = v[6], .last = (int)v[7]};
    }
    rc = 0;
out:
    if (rc)
        kar_drill_rec_init(r);
    json_decref(root);
    return rc;
}

void kar_drill_rec_to_json(const kar_drill_rec *r, pl_buf *out)
{
    pl_buf_printf(out, "{\"version\": 1, \"step\": %d, \"cards\": {", r->step);
    bool first = true;
    for (int n = 1; n <= KAR_NPOEMS; n++) {
        const kar_drill_card *c = &r->cards[n];
        if (!c->seen)
            continue;
        pl_buf_printf(out,
                      "%s\n  \"%d\": {\"box\": %d, \"due\": %d, \"seen\": %d, \"good\": %d, \"slow\": %d, "
                      "\"miss\": %d, \"ms\": %ld, \"last\": %d}",
                      first ? "" : ",", n, c->box, c->due, c->seen, c->good, c->slow, c->miss, c->ms, c->last);
        first = false;
    }
    pl_buf_puts(out, first ? "}}\n" : "\n}}\n");
}

/* ---- grades and the scheduler ---- */

int kar_drill_kind_parse(const char *name)
{
    for (int i = 0; i < 3; i++)
        if (name && !strcmp(name, kind_names[i]))
            return i;
    return -1;
}

const char *kar_drill_kind_name(int kind) { return kind >= 0 && kind < 3 ? kind_names[kind] : ""; }

const char *kar_drill_grade_name(int grade) { return grade >= 0 && grade < 3 ? grade_names[grade] : ""; }

int kar_drill_grade(int kind, bool correct, int ms)
{
    if (!correct)
        return KAR_DRILL_MISS;
    return kind >= 0 && kind < 3 && ms > slow_ms[kind] ? KAR_DRILL_SLOW : KAR_DRILL_GOOD;
}

void kar_drill_record(kar_drill_rec *r, int card, int grade, int ms)
{
    if (card < 1 || card > KAR_NPOEMS || grade < KAR_DRILL_GOOD || grade > KAR_DRILL_MISS)
        return;
    int s = ++r->step;
    kar_drill_card *c = &r->cards[card];
    c->seen++;
    c->ms += ms < 0 ? 0 : ms > KAR_DRILL_MS_CAP ? KAR_DRILL_MS_CAP : ms;
    c->last = s;
    if (grade == KAR_DRILL_GOOD) {
        c->good++;
        c->box = c->box < KAR_DRILL_BOXES ? c->box + 1 : KAR_DRILL_BOXES;
        c->due = s + interval[c->box];
    } else if (grade == KAR_DRILL_SLOW) {
        c->slow++;
        c->box = c->box < 1 ? 1 : c->box;
        c->due = s + interval[c->box];
    } else {
        c->miss++;
        c->box = 1;
        c->due = s + 1;
    }
}

/* Orders cards by due, then box, then number (negative: a first). */
static int by_due_box(const kar_drill_rec *r, int a, int b)
{
    const kar_drill_card *x = &r->cards[a], *y = &r->cards[b];
    if (x->due != y->due)
        return x->due < y->due ? -1 : 1;
    if (x->box != y->box)
        return x->box < y->box ? -1 : 1;
    return a < b ? -1 : a > b;
}

int kar_drill_next(const kar_drill_rec *r, const int *field, int n, int prev)
{
    int due = 0, fresh = 0, any = 0;
    for (int i = 0; i < n; i++) {
        int c = field[i];
        if (c < 1 || c > KAR_NPOEMS || (c == prev && n > 1))
            continue;
        const kar_drill_card *e = &r->cards[c];
        if (e->seen && e->due <= r->step && (!due || by_due_box(r, c, due) < 0))
            due = c;
        if (!e->seen && !fresh)
            fresh = c;
        if (!any || by_due_box(r, c, any) < 0)
            any = c;
    }
    return due ? due : fresh ? fresh : any;
}

/* Card orders for the field and the weakest list (negative: a first). */
static int cmp_weak_field(const kar_drill_rec *r, int a, int b)
{
    if (r->cards[a].box != r->cards[b].box)
        return r->cards[a].box < r->cards[b].box ? -1 : 1;
    if (r->cards[a].due != r->cards[b].due)
        return r->cards[a].due < r->cards[b].due ? -1 : 1;
    return a < b ? -1 : a > b;
}

static int cmp_due(const kar_drill_rec *r, int a, int b)
{
    if (r->cards[a].due != r->cards[b].due)
        return r->cards[a].due < r->cards[b].due ? -1 : 1;
    return a < b ? -1 : a > b;
}

static int cmp_weakest(const kar_drill_rec *r, int a, int b)
{
    const kar_drill_card *x = &r->cards[a], *y = &r->cards[b];
    if (x->box != y->box)
        return x->box < y->box ? -1 : 1;
    int sx = 2 * x->miss + x->slow, sy = 2 * y->miss + y->slow;
    if (sx != sy)
        return sx > sy ? -1 : 1;
    return a < b ? -1 : a > b;
}

/* Sorts `n` (<= 100) cards by `cmp` (an insertion sort: no shared state). */
static void sort_cards(const kar_drill_rec *r, int *v, int n, int (*cmp)(const kar_drill_rec *, int, int))
{
    for (int i = 1; i < n; i++)
        for (int k = i; k > 0 && cmp(r, v[k - 1], v[k]) > 0; k--) {
            int t = v[k];
            v[k] = v[k - 1];
            v[k - 1] = t;
        }
}

int kar_drill_field(const kar_drill_rec *r, int n, const bool *read, int *out)
{
    int weak[KAR_NPOEMS], rest[KAR_NPOEMS], nw = 0, nr = 0, k = 0;
    for (int c = 1; c <= KAR_NPOEMS; c++) {
        if ((read && read[c]) || !r->cards[c].seen)
            continue;
        if (r->cards[c].box <= 2)
            weak[nw++] = c;
        else
            rest[nr++] = c;
    }
    sort_cards(r, weak, nw, cmp_weak_field);
    sort_cards(r, rest, nr, cmp_due);
    for (int i = 0; i < nw && k < n; i++)
        out[k++] = weak[i];
    for (int i = 0; i < KAR_NPOEMS && k < n; i++) {
        int c = (37 * i) % 100 + 1; /* the fixed order P */
        if (!(read && read[c]) && !r->cards[c].seen)
            out[k++] = c;
    }
    for (int i = 0; i < nr && k < n; i++)
        out[k++] = rest[i];
    return k;
}

int kar_drill_weakest(const kar_drill_rec *r, int *out, int max)
{
    int v[KAR_NPOEMS], n = 0;
    for (int c = 1; c <= KAR_NPOEMS; c++)
        if (r->cards[c].seen && r->cards[c].slow + r->cards[c].miss > 0)
            v[n++] = c;
    sort_cards(r, v, n, cmp_weakest);
    int k = n < max ? n : max;
    memcpy(out, v, sizeof v[0] * (size_t)(k > 0 ? k : 0));
    return k > 0 ? k : 0;
}

/* ---- what the drills show ---- */

int kar_drill_kim(int card, const bool *read)
{
    if (card < 1 || card > KAR_NPOEMS)
        return 0;
    bool any = false;
    for (int c = 1; read && c <= KAR_NPOEMS && !any; c++)
        any = read[c];
    if (!any)
        return kar_kim_static(card);
    kar_kim k;
    kar_kim_init(&k);
    for (int c = 1; c <= KAR_NPOEMS; c++)
        if (read[c])
            kar_kim_read(&k, c);
    return kar_kim_dynamic(&k, card);
}

int kar_drill_keylen(int card)
{
    const kar_poem *p = kar_poem_get(card);
    return p ? p->keylen : 0;
}

int kar_drill_shown(int card, int box, int kim)
{
    int len = kar_drill_keylen(card);
    int n = kim + extra[box < 0 ? 0 : box > KAR_DRILL_BOXES ? KAR_DRILL_BOXES : box];
    return n < len ? n : len;
}

void kar_drill_key(int card, int n, pl_buf *out) { kar_key_text(card, n, out); }

void kar_drill_card_text(int card, int n, pl_buf *out)
{
    char t[160];
    kar_card_head(card, n, t, sizeof t);
    pl_buf_puts(out, t);
}

void kar_drill_key_romaji(int card, int n, pl_buf *out)
{
    pl_buf k = {0};
    kar_key_text(card, n, &k);
    kar_romaji(pl_buf_str(&k), out);
    pl_buf_free(&k);
}

/* `s` without spaces (ASCII and U+3000), ASCII letters lowered. */
static void squeeze(const char *s, pl_buf *out)
{
    for (; *s; s++) {
        if (*s == ' ' || *s == '\t')
            continue;
        if (!strncmp(s, "\xe3\x80\x80", 3)) { /* U+3000 */
            s += 2;
            continue;
        }
        char ch = *s >= 'A' && *s <= 'Z' ? (char)(*s - 'A' + 'a') : *s;
        pl_buf_printf(out, "%c", ch);
    }
}

bool kar_drill_flip_ok(int card, int kim, const char *typed)
{
    if (card < 1 || card > KAR_NPOEMS || kim < 1 || !typed)
        return false;
    pl_buf t = {0}, kana = {0}, rom = {0};
    squeeze(typed, &t);
    kar_key_text(card, kim, &kana);
    kar_romaji(pl_buf_str(&kana), &rom);
    const char *s = pl_buf_str(&t);
    bool ok = *s && (!strcmp(s, pl_buf_str(&kana)) || !strcmp(s, pl_buf_str(&rom)));
    pl_buf_free(&t);
    pl_buf_free(&kana);
    pl_buf_free(&rom);
    return ok;
}

int kar_drill_reading(int card, char kana[][4], int *start_ms, int *end_ms)
{
    kar_kana tl[KAR_TL_MAX];
    int n = kar_timeline(card, KAR_DRILL_UPPER_MS, 0, false, false, tl, KAR_TL_MAX);
    for (int i = 0; i < n; i++) {
        memcpy(kana[i], tl[i].kana, 4);
        start_ms[i] = tl[i].start_ms;
    }
    *end_ms = n ? tl[n - 1].end_ms : 0;
    return n;
}

int kar_drill_decide_ms(int card, int kim) { return kar_kana_start(card, KAR_DRILL_UPPER_MS, false, kim); }
