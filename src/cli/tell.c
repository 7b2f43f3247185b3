/* tell.c — the terminal's history in words (tell.h). */
#include "tell.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

void tell_seat_name(const pl_game *g, const void *st, int seat, pl_lang lang, pl_buf *out)
{
    pl_buf en = {0}, key = {0};
    g->seat_name(st, seat, &en);
    pl_buf_printf(&key, "seatname.%s.%s", g->id, pl_buf_str(&en));
    const char *t = pl_words_find(lang, pl_buf_str(&key));
    pl_buf_puts(out, t ? t : pl_buf_str(&en));
    out->oom |= en.oom || key.oom;
    pl_buf_free(&en);
    pl_buf_free(&key);
}

void tell_seat(const pl_game *g, const void *st, int seat, pl_lang lang, pl_buf *out)
{
    char n[16];
    snprintf(n, sizeof n, "%d", seat + 1);
    if (!g->seat_name) {
        pl_words_put(out, lang, "tell.seat", "n", n, NULL);
        return;
    }
    pl_buf name = {0};
    tell_seat_name(g, st, seat, lang, &name);
    pl_words_put(out, lang, "tell.seat_named", "n", n, "name", pl_buf_str(&name), NULL);
    out->oom |= name.oom;
    pl_buf_free(&name);
}

/* The marks of three bytes that end a sentence: … and Japanese 。！？ */
static const char *const wide_ends[] = {"\xE2\x80\xA6", "\xE3\x80\x82", "\xEF\xBC\x81", "\xEF\xBC\x9F"};

/* True when the `n` bytes at `s` end in a mark that ends a sentence:
 * . ! ? … or Japanese 。！？ */
static bool ends_mark(const char *s, size_t n)
{
    if (n == 0)
        return false;
    char c = s[n - 1];
    if (c == '.' || c == '!' || c == '?')
        return true;
    for (size_t i = 0; n >= 3 && i < sizeof wide_ends / sizeof wide_ends[0]; i++)
        if (!memcmp(s + n - 3, wide_ends[i], 3))
            return true;
    return false;
}

/* True when `b` (bytes) ends in a mark that ends a sentence. */
static bool ends_sentence(const pl_buf *b)
{
    return ends_mark(b->s, b->len);
}

/* The mark that ends a sentence after `b`: Japanese 。 after a kana, a
 * kanji or a full-width mark (U+3000..U+9FFF, U+FF00..U+FFEF), else '.'. */
static const char *end_mark(const pl_buf *b)
{
    size_t n = b->len;
    if (n >= 3) {
        unsigned char c0 = (unsigned char)b->s[n - 3];
        if ((c0 >= 0xE3 && c0 <= 0xE9) || (c0 == 0xEF && (unsigned char)b->s[n - 2] >= 0xBC))
            return "\xE3\x80\x82"; /* 。 */
    }
    return ".";
}

/* Drops the blanks `b` ends with. */
static void trim_end(pl_buf *b)
{
    size_t n = b->len;
    while (n > 0 && b->s[n - 1] == ' ')
        n--;
    if (n < b->len)
        pl_buf_truncate(b, n);
}

void tell_join(pl_buf *msg, const char *text)
{
    if (!text || !*text)
        return;
    trim_end(msg);
    if (msg->len > 0) {
        if (!ends_sentence(msg))
            pl_buf_puts(msg, end_mark(msg));
        pl_buf_putc(msg, ' ');
    }
    pl_buf_puts(msg, text);
    trim_end(msg);
    if (!ends_sentence(msg))
        pl_buf_puts(msg, end_mark(msg));
}

const char *tell_next_sentence(const char *msg)
{
    for (const char *p = msg; *p; p++)
        if (p[0] == ' ' && p[1] && p > msg && ends_mark(msg, (size_t)(p - msg)))
            return p + 1;
    return NULL;
}

/* Appends how an event names seat `n`: the game's seat name in `lang`
 * ("黒"), else "席2". */
static void event_seat(const pl_game *g, const void *st, int n, pl_lang lang, pl_buf *out)
{
    int ns = g->num_seats(st);
    if (n < 0 || n >= ns) {
        pl_buf_printf(out, "%d", n);
        return;
    }
    if (g->seat_name)
        tell_seat_name(g, st, n, lang, out);
    else
        tell_seat(g, st, n, lang, out);
}

/* The catalogue's sentence for event `ev` of game `g` in `lang`: the key
 * "ev.GAME.TYPE.FIELD.VALUE" for the first string field (or null field,
 * VALUE "null"; empty array, VALUE "none": "ev.karuta.answer.touches.none")
 * whose value has one ("ev.ur.move.from.reserve"), or "ev.GAME.TYPE.FIELD"
 * for the first field that is true ("ev.ur.throw.opening"), whichever
 * comes first; else "ev.GAME.TYPE.FIELD" for the first array that is not
 * empty ("ev.tamcuc.lay.cards": the cards are known); else "ev.GAME.TYPE";
 * NULL when the catalogue has none. */
static const char *event_key(const pl_game *g, json_t *ev, pl_lang lang, pl_buf *key)
{
    const char *type = json_string_value(json_object_get(ev, "type"));
    if (!type)
        return NULL;
    for (int pass = 0; pass < 2; pass++) {
        const char *k;
        json_t *v;
        json_object_foreach (ev, k, v) {
            if (!strcmp(k, "type"))
                continue;
            pl_buf_clear(key);
            if (pass == 0 && json_is_string(v))
                pl_buf_printf(key, "ev.%s.%s.%s.%s", g->id, type, k, json_string_value(v));
            else if (pass == 0 && json_is_null(v))
                pl_buf_printf(key, "ev.%s.%s.%s.null", g->id, type, k);
            else if (pass == 0 && json_is_array(v) && json_array_size(v) == 0)
                pl_buf_printf(key, "ev.%s.%s.%s.none", g->id, type, k);
            else if ((pass == 0 && json_is_true(v)) || (pass == 1 && json_array_size(v) > 0))
                pl_buf_printf(key, "ev.%s.%s.%s", g->id, type, k);
            else
                continue;
            if (pl_words_find(lang, pl_buf_str(key)))
                return pl_buf_str(key);
        }
    }
    pl_buf_clear(key);
    pl_buf_printf(key, "ev.%s.%s", g->id, type);
    return pl_words_find(lang, pl_buf_str(key)) ? pl_buf_str(key) : NULL;
}

/* True when `k` is one of the NULL-ended `names`. */
static bool field_in(const char *k, const char *const *names)
{
    for (; *names; names++)
        if (!strcmp(k, *names))
            return true;
    return false;
}

/* Event fields that hold a team's number, a team named as its first seat
 * is (City Behind Walls' team 0 is seat 0, Red), and those that hold a
 * seat's. */
static const char *const team_fields[] = {"team", "by", "lost", "winner", "owner", NULL};
static const char *const seat_fields[] = {"seat",        "winners", "to",     "leader",   "dealer",
                                          "provisional", "taker",   "sender", "receiver", NULL};

/* Appends how event field `k` of game `g` with value `v` reads in `lang`:
 * a team by its name, a seat by its name with two seats, else by number
 * and name ("席2（黒）"); a number in decimal; a string as the catalogue's
 * "ev.GAME.word.FIELD.VALUE" when it has one ("four" → "Tứ tử"), else as
 * it stands (a card, a cell); an array of strings, numbers or seats joined
 * by "result.list_sep", of objects with a "card" their cards so joined (or
 * each object worded by the catalogue's "ev.GAME.item.FIELD" where it has
 * one: karuta's touches, "札12（850ms）"), of other objects (cells, lines)
 * their count; null as nothing. */
static void event_words(const pl_game *g, const void *st, json_t *ev, const char *key, pl_lang lang, pl_buf *out);

static void event_value(const pl_game *g, const void *st, const char *k, json_t *v, pl_lang lang, pl_buf *out)
{
    int n = (int)json_integer_value(v);
    if (json_is_integer(v) && field_in(k, team_fields)) {
        event_seat(g, st, n, lang, out);
    } else if (json_is_integer(v) && field_in(k, seat_fields)) {
        /* Two seats are told by their names ("黒"); more share them, and
         * are told by number too ("席2（黒）"). */
        if (g->num_seats(st) > 2 && n >= 0 && n < g->num_seats(st))
            tell_seat(g, st, n, lang, out);
        else
            event_seat(g, st, n, lang, out);
    } else if (json_is_integer(v)) {
        pl_buf_printf(out, "%lld", (long long)json_integer_value(v));
    } else if (json_is_string(v)) {
        pl_buf key = {0};
        pl_buf_printf(&key, "ev.%s.word.%s.%s", g->id, k, json_string_value(v));
        const char *t = pl_words_find(lang, pl_buf_str(&key));
        pl_buf_puts(out, t ? t : json_string_value(v));
        out->oom |= key.oom;
        pl_buf_free(&key);
    } else if (json_is_array(v)) {
        json_t *first = json_array_get(v, 0);
        if (json_is_object(first) && !json_object_get(first, "card")) {
            pl_buf_printf(out, "%zu", json_array_size(v));
            return;
        }
        pl_buf ikey = {0};
        pl_buf_printf(&ikey, "ev.%s.item.%s", g->id, k);
        bool worded = json_is_object(first) && pl_words_find(lang, pl_buf_str(&ikey));
        size_t i;
        json_t *item;
        json_array_foreach (v, i, item) {
            if (i > 0)
                pl_buf_puts(out, pl_words(lang, "result.list_sep"));
            if (worded && json_is_object(item))
                event_words(g, st, item, pl_buf_str(&ikey), lang, out);
            else
                event_value(g, st, k, json_is_object(item) ? json_object_get(item, "card") : item, lang, out);
        }
        out->oom |= ikey.oom;
        pl_buf_free(&ikey);
    }
}

/* Appends the catalogue's sentence of event `ev`: {FIELD} for each field
 * as event_value words it (the first twelve fields the sentence names:
 * karuta's judgement has more than twelve). */
static void event_words(const pl_game *g, const void *st, json_t *ev, const char *key, pl_lang lang, pl_buf *out)
{
    const char *nv[2 * 12 + 1] = {0};
    pl_buf vals[12] = {{0}};
    const char *text = pl_words(lang, key);
    int n = 0;
    const char *k;
    json_t *v;
    json_object_foreach (ev, k, v) {
        if (n >= 12 || !strcmp(k, "type"))
            continue;
        char name[40];
        if (snprintf(name, sizeof name, "{%s}", k) >= (int)sizeof name || !strstr(text, name))
            continue; /* a field the sentence does not name */
        event_value(g, st, k, v, lang, &vals[n]);
        nv[2 * n] = k;
        nv[2 * n + 1] = pl_buf_str(&vals[n]);
        n++;
    }
    /* pl_words_put takes the pairs as variadic arguments: twelve at most. */
    pl_words_put(out, lang, key, nv[0], nv[1], nv[2], nv[3], nv[4], nv[5], nv[6], nv[7], nv[8], nv[9], nv[10], nv[11],
                 nv[12], nv[13], nv[14], nv[15], nv[16], nv[17], nv[18], nv[19], nv[20], nv[21], nv[22], nv[23], NULL);
    for (int i = 0; i < n; i++) {
        out->oom |= vals[i].oom;
        pl_buf_free(&vals[i]);
    }
}

/* Appends the further sentences of event `ev` (karuta's answer and
 * judgement), in the order of its fields: for each field that is neither
 * null nor false, "ev.GAME.TYPE.also.FIELD" (a string field:
 * "ev.GAME.TYPE.also.FIELD.VALUE") where the catalogue has it, from the
 * event's fields ("ev.karuta.judgement.also.sender": who sends whom how
 * many cards; "ev.karuta.judgement.also.zone.dead"); for each field
 * that is an array of numbers, "ev.GAME.TYPE.each.FIELD" once for each
 * element that is not 0, {seat} the element's seat and {value} the
 * element ("ev.karuta.judgement.each.fouls": a seat's fouls). */
static void event_more(const pl_game *g, const void *st, json_t *ev, const char *type, pl_lang lang, pl_buf *out)
{
    pl_buf key = {0}, one = {0};
    const char *k;
    json_t *v;
    json_object_foreach (ev, k, v) {
        if (!strcmp(k, "type") || json_is_null(v) || json_is_false(v))
            continue;
        pl_buf_clear(&key);
        if (json_is_string(v))
            pl_buf_printf(&key, "ev.%s.%s.also.%s.%s", g->id, type, k, json_string_value(v));
        else
            pl_buf_printf(&key, "ev.%s.%s.also.%s", g->id, type, k);
        if (pl_words_find(lang, pl_buf_str(&key))) {
            pl_buf_clear(&one);
            event_words(g, st, ev, pl_buf_str(&key), lang, &one);
            tell_join(out, pl_buf_str(&one));
        }
        pl_buf_clear(&key);
        pl_buf_printf(&key, "ev.%s.%s.each.%s", g->id, type, k);
        if (!json_is_array(v) || !pl_words_find(lang, pl_buf_str(&key)))
            continue;
        size_t i;
        json_t *x;
        json_array_foreach (v, i, x) {
            if (!json_is_integer(x) || json_integer_value(x) == 0)
                continue;
            json_t *item = json_pack("{s:i,s:O}", "seat", (int)i, "value", x);
            if (!item) {
                out->oom = true;
                continue;
            }
            pl_buf_clear(&one);
            event_words(g, st, item, pl_buf_str(&key), lang, &one);
            tell_join(out, pl_buf_str(&one));
            json_decref(item);
        }
    }
    out->oom |= key.oom || one.oom;
    pl_buf_free(&key);
    pl_buf_free(&one);
}

/* In a language other than English, what the action did worded from its
 * events (game.h, pl_events_json) through the catalogue's "ev.GAME.*"
 * sentences, as the browser words them; `forced` adds that it was played
 * for the player. False, with nothing written, when the game has no events
 * or the catalogue lacks a sentence for one of them: the game's own
 * (English) words are told then. */
static bool tell_events(const pl_game *g, const void *before, int seat, pl_action a, const void *after, int viewer,
                        bool forced, pl_lang lang, pl_buf *out)
{
    if (lang == PL_LANG_EN || !g->events)
        return false;
    pl_buf js = {0}, err = {0}, key = {0}, said = {0};
    bool ok = pl_events_json(g, before, seat, a, after, viewer, &js, &err) == 0;
    json_t *arr = ok ? json_loads(pl_buf_str(&js), 0, NULL) : NULL;
    ok = json_is_array(arr) && json_array_size(arr) > 0;
    size_t i;
    json_t *ev;
    json_array_foreach (arr, i, ev) {
        const char *k = ok ? event_key(g, ev, lang, &key) : NULL;
        if (!k) {
            ok = false;
            break;
        }
        pl_buf one = {0};
        event_words(g, after, ev, k, lang, &one);
        tell_join(&said, pl_buf_str(&one));
        event_more(g, after, ev, json_string_value(json_object_get(ev, "type")), lang, &said);
        said.oom |= one.oom;
        pl_buf_free(&one);
    }
    if (ok && forced)
        tell_join(&said, pl_words(lang, "tell.forced.note"));
    if (ok) {
        tell_join(out, pl_buf_str(&said));
        out->oom |= said.oom;
    }
    json_decref(arr);
    pl_buf_free(&js);
    pl_buf_free(&err);
    pl_buf_free(&key);
    pl_buf_free(&said);
    return ok;
}

void tell_action(const pl_game *g, const void *before, int seat, pl_action a, const void *after, int viewer,
                 tell_how how, pl_lang lang, pl_buf *out)
{
    pl_buf t = {0};
    if (how == TELL_ANSWERED) { /* nobody sees an answer before giving theirs */
        pl_buf who = {0};
        tell_seat(g, before, seat, lang, &who);
        pl_words_put(&t, lang, "tell.answered", "seat", pl_buf_str(&who), NULL);
        tell_join(out, pl_buf_str(&t));
        out->oom |= who.oom || t.oom;
        pl_buf_free(&who);
        pl_buf_free(&t);
        return;
    }
    if (tell_events(g, before, seat, a, after, viewer, how == TELL_FORCED, lang, out))
        return;
    if (how != TELL_TYPED) { /* the player who typed it sees it on the board */
        size_t start = 0;
        if (seat != PL_CHANCE) {
            tell_seat(g, before, seat, lang, &t);
            pl_buf_puts(&t, ": ");
            start = t.len;
        }
        if (g->format_action_for) /* a deal or a hidden card: as `viewer` may see it */
            g->format_action_for(before, seat, a, viewer, &t);
        else if (seat != PL_CHANCE) /* where the piece went: "C1 → B4, rolls again" */
            pl_format_action_long(g, before, seat, a, &t);
        else
            g->format_action(before, seat, a, &t);
        if (seat == PL_CHANCE && t.len > start && t.s[start] >= 'a' && t.s[start] <= 'z')
            t.s[start] = (char)(t.s[start] - 'a' + 'A'); /* "roll 4" opens a sentence: "Roll 4." */
        if (how == TELL_FORCED) {
            pl_buf f = {0};
            pl_words_put(&f, lang, "tell.forced", "move", pl_buf_str(&t), NULL);
            tell_join(out, pl_buf_str(&f));
            out->oom |= f.oom;
            pl_buf_free(&f);
        } else {
            tell_join(out, pl_buf_str(&t));
        }
    }
    /* What it did, in the game's words, as `viewer` may know it (game.h,
     * describe): captures, tricks won, a deal's scores. */
    if (g->describe) {
        pl_buf_clear(&t);
        g->describe(before, seat, a, after, viewer, &t);
        tell_join(out, pl_buf_str(&t));
        out->oom |= t.oom;
    }
    pl_buf_free(&t);
}

/* ---- Refusals ---- */

/* Appends one value of a refusal's field `field` (refusal_put). */
static void refusal_value(const pl_game *g, const char *field, const json_t *v, pl_lang lang, pl_buf *out)
{
    char text[64] = "";
    if (json_is_string(v))
        snprintf(text, sizeof text, "%s", json_string_value(v));
    else if (json_is_integer(v))
        snprintf(text, sizeof text, "%lld", (long long)json_integer_value(v));
    else
        return;
    pl_buf key = {0};
    pl_buf_printf(&key, "refusal.%s.val.%s.%s", g->id, field, text);
    const char *w = pl_words_find(lang, pl_buf_str(&key));
    pl_buf_free(&key);
    pl_buf_puts(out, w ? w : json_is_string(v) ? json_string_value(v) : text);
}

/* Appends `text` with each {FIELD} filled from refusal `obj`. */
static void refusal_put(const pl_game *g, const char *text, const json_t *obj, pl_lang lang, pl_buf *out)
{
    for (;;) {
        const char *open = strchr(text, '{');
        const char *close = open ? strchr(open, '}') : NULL;
        if (!close) {
            pl_buf_puts(out, text);
            return;
        }
        pl_buf_append(out, text, (size_t)(open - text));
        char field[32];
        size_t n = (size_t)(close - open - 1);
        const json_t *v = NULL;
        if (n < sizeof field) {
            memcpy(field, open + 1, n);
            field[n] = '\0';
            v = json_object_get(obj, field);
        }
        if (json_is_array(v)) {
            size_t i;
            const json_t *x;
            json_array_foreach(v, i, x) {
                if (i)
                    pl_buf_puts(out, pl_words(lang, "result.list_sep"));
                refusal_value(g, field, x, lang, out);
            }
        } else if (v) {
            refusal_value(g, field, v, lang, out);
        } else {
            pl_buf_append(out, open, n + 2); /* a field the refusal lacks: as it stands (a bug the tests catch) */
        }
        text = close + 1;
    }
}

int tell_refusal(const pl_game *g, const void *st, int seat, pl_action a, pl_lang lang, pl_buf *out)
{
    if (!g->refusal)
        return -1;
    json_t *obj = json_object();
    if (!obj || g->refusal(st, seat, a, obj) < 0 || !json_is_string(json_object_get(obj, "why"))) {
        json_decref(obj);
        return -1;
    }
    pl_buf key = {0};
    const char *text = NULL;
    const char *k;
    json_t *v;
    /* The sentence: by the first string field that has one, else the first
     * true field, else the word alone (as the history's ev.* keys). */
    json_object_foreach(obj, k, v) {
        if (!text && json_is_string(v) && strcmp(k, "why")) {
            pl_buf_clear(&key);
            pl_buf_printf(&key, "refusal.%s.%s.%s.%s", g->id, json_string_value(json_object_get(obj, "why")), k,
                          json_string_value(v));
            text = pl_words_find(lang, pl_buf_str(&key));
        }
    }
    json_object_foreach(obj, k, v) {
        if (!text && json_is_true(v)) {
            pl_buf_clear(&key);
            pl_buf_printf(&key, "refusal.%s.%s.%s", g->id, json_string_value(json_object_get(obj, "why")), k);
            text = pl_words_find(lang, pl_buf_str(&key));
        }
    }
    if (!text) {
        pl_buf_clear(&key);
        pl_buf_printf(&key, "refusal.%s.%s", g->id, json_string_value(json_object_get(obj, "why")));
        text = pl_words_find(lang, pl_buf_str(&key));
    }
    pl_buf_free(&key);
    if (text)
        refusal_put(g, text, obj, lang, out);
    json_decref(obj);
    return text ? 0 : -1;
}
