/* menu.c — the play screen's legal list in the player's language (menu.h). */
#include "menu.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "tell.h"

/* A string field of `f`, or "" when it has none. */
static const char *str_of(const json_t *f, const char *k)
{
    const char *s = json_string_value(json_object_get(f, k));
    return s ? s : "";
}

/* The integer field `k` of `f` in decimal, written into `buf`; returns `buf`. */
static const char *num_of(const json_t *f, const char *k, char *buf, size_t cap)
{
    snprintf(buf, cap, "%lld", (long long)json_integer_value(json_object_get(f, k)));
    return buf;
}

/* Appends a list of cards in notation (strings, or objects with a "card"),
 * joined by "result.list_sep". */
static void cards_of(const json_t *list, pl_lang lang, pl_buf *out)
{
    size_t i;
    const json_t *c;
    json_array_foreach (list, i, c) {
        if (i)
            pl_buf_puts(out, pl_words(lang, "result.list_sep"));
        const json_t *v = json_is_object(c) ? json_object_get(c, "card") : c;
        if (json_is_string(v))
            pl_buf_puts(out, json_string_value(v));
        else if (json_is_integer(v))
            pl_buf_printf(out, "%lld", (long long)json_integer_value(v));
    }
}

/* Ur (docs/web-views.md, `ur`, "Action fields"): "B5 → B8, captures",
 * "new piece → A3", "B7 (piece 2 from the top) → C8", a pass. */
static int words_ur(const json_t *f, pl_lang lang, pl_buf *out)
{
    if (json_is_true(json_object_get(f, "pass"))) {
        pl_buf_puts(out, pl_words(lang, "act.ur.pass"));
        return 0;
    }
    const char *from = str_of(f, "from"), *to = str_of(f, "to");
    if (!*from || !*to)
        return -1;
    pl_buf src = {0};
    char n[24];
    if (!strcmp(from, "reserve"))
        pl_buf_puts(&src, pl_words(lang, "act.ur.enter"));
    else if (json_integer_value(json_object_get(f, "depth")) > 1)
        pl_words_put(&src, lang, "act.ur.depth", "square", from, "n", num_of(f, "depth", n, sizeof n), NULL);
    else
        pl_buf_puts(&src, from);
    pl_buf_puts(out, pl_buf_str(&src));
    pl_buf_puts(out, " → "); /* the arrow of the English menu and of the browser */
    pl_buf_puts(out, strcmp(to, "off") ? to : pl_words(lang, "act.ur.off"));
    if (json_is_true(json_object_get(f, "captures")))
        pl_buf_puts(out, pl_words(lang, "act.ur.captures"));
    if (json_is_true(json_object_get(f, "again")))
        pl_buf_puts(out, pl_words(lang, "act.ur.again"));
    out->oom |= src.oom;
    pl_buf_free(&src);
    return 0;
}

/* City Behind Walls (docs/web-views.md, `cbw`, "Action fields"): a
 * placement, with the cards it would capture or lose; a pass; the team
 * that opens (a replay's chance outcome). */
static int words_cbw(const pl_game *g, const void *st, const json_t *f, pl_lang lang, pl_buf *out)
{
    const char *move = str_of(f, "move");
    char x[24], y[24], n[24];
    if (!strcmp(move, "place")) {
        pl_words_put(out, lang, "act.cbw.place", "card", str_of(f, "card"), "x", num_of(f, "x", x, sizeof x), "y",
                     num_of(f, "y", y, sizeof y), NULL);
        if (json_integer_value(json_object_get(f, "captures")) > 0)
            pl_words_put(out, lang, "act.cbw.captures", "n", num_of(f, "captures", n, sizeof n), NULL);
        if (json_integer_value(json_object_get(f, "loses")) > 0)
            pl_words_put(out, lang, "act.cbw.loses", "n", num_of(f, "loses", n, sizeof n), NULL);
        return 0;
    }
    if (!strcmp(move, "pass")) {
        pl_buf_puts(out, pl_words(lang, "act.cbw.pass"));
        return 0;
    }
    if (!strcmp(move, "first") && g->seat_name) {
        pl_buf team = {0};
        tell_seat_name(g, st, (int)json_integer_value(json_object_get(f, "team")), lang, &team);
        pl_words_put(out, lang, "act.cbw.first", "team", pl_buf_str(&team), NULL);
        out->oom |= team.oom;
        pl_buf_free(&team);
        return 0;
    }
    return -1;
}

/* Tam Cúc (docs/web-views.md, `tamcuc`, "Action fields"), as the browser's
 * buttons (web/games/tamcuc.js, fieldWords): a lead and its set, a lay, a
 * night's pass to a seat, a reveal, a declaration; the cards are the
 * notation's. */
static int words_tamcuc(const pl_game *g, const void *st, const json_t *f, pl_lang lang, pl_buf *out)
{
    const char *verb = str_of(f, "verb");
    char key[96], n[24];
    bool one = json_integer_value(json_object_get(f, "count")) == 1;
    num_of(f, "count", n, sizeof n);
    if (!strcmp(verb, "lead")) {
        snprintf(key, sizeof key, "act.tamcuc.set.%s", str_of(f, "set"));
        const char *set = pl_words_find(lang, key);
        pl_words_put(out, lang, json_is_true(json_object_get(f, "extra")) ? "act.tamcuc.lead.extra" : "act.tamcuc.lead",
                     "set", set ? set : str_of(f, "set"), "n", n, NULL);
    } else if (!strcmp(verb, "lay")) {
        pl_words_put(out, lang, one ? "act.tamcuc.lay.one" : "act.tamcuc.lay", "n", n, NULL);
    } else if (!strcmp(verb, "pass")) {
        pl_buf to = {0};
        tell_seat(g, st, (int)json_integer_value(json_object_get(f, "to")), lang, &to);
        pl_words_put(out, lang, one ? "act.tamcuc.pass.one" : "act.tamcuc.pass", "n", n, "to", pl_buf_str(&to), NULL);
        out->oom |= to.oom;
        pl_buf_free(&to);
    } else if (!strcmp(verb, "reveal") || !strcmp(verb, "hide")) {
        pl_buf cards = {0};
        cards_of(json_object_get(f, "cards"), lang, &cards);
        pl_words_put(out, lang, !strcmp(verb, "reveal") ? "act.tamcuc.reveal" : "act.tamcuc.hide", "cards",
                     pl_buf_str(&cards), NULL);
        out->oom |= cards.oom;
        pl_buf_free(&cards);
    } else if (!strcmp(verb, "declare")) {
        snprintf(key, sizeof key, "act.tamcuc.soldiers.%s.%s", str_of(f, "size"), str_of(f, "colour"));
        const char *soldiers = pl_words_find(lang, key);
        if (!soldiers)
            return -1;
        pl_words_put(out, lang, json_is_true(json_object_get(f, "counter")) ? "act.tamcuc.counter" : "act.tamcuc.declare",
                     "soldiers", soldiers, NULL);
    } else if (!strcmp(verb, "nodeclare")) {
        pl_buf_puts(out, pl_words(lang, "act.tamcuc.nodeclare"));
    } else {
        return -1;
    }
    return 0;
}

/* Karuta's turn-based moves (docs/web-views.md, "Karuta: action fields"):
 * touches, no touch, sends, placements, moves between readings, the pool,
 * the rest of a send forgone, ready; a reading (a replay's chance outcome). */
static int words_karuta(const json_t *f, pl_lang lang, pl_buf *out)
{
    const char *kind = str_of(f, "kind");
    char card[24];
    num_of(f, "card", card, sizeof card);
    if (!strcmp(kind, "touch")) {
        pl_buf cards = {0};
        cards_of(json_object_get(f, "touches"), lang, &cards);
        if (json_is_integer(json_object_get(f, "poet"))) {
            char poet[24];
            pl_words_put(out, lang, "act.karuta.touch.poet", "cards", pl_buf_str(&cards), "poet",
                         num_of(f, "poet", poet, sizeof poet), NULL);
        } else {
            pl_words_put(out, lang, cards.len ? "act.karuta.touch" : "act.karuta.none", "cards", pl_buf_str(&cards),
                         NULL);
        }
        out->oom |= cards.oom;
        pl_buf_free(&cards);
    } else if (!strcmp(kind, "place") || !strcmp(kind, "arrange")) {
        pl_words_put(out, lang, !strcmp(kind, "place") ? "act.karuta.place" : "act.karuta.arrange", "card", card,
                     "label", str_of(f, "label"), NULL);
    } else if (!strcmp(kind, "send") || !strcmp(kind, "pool") || !strcmp(kind, "read")) {
        char key[48];
        snprintf(key, sizeof key, "act.karuta.%s", kind);
        pl_words_put(out, lang, key, "card", card, NULL);
    } else if (!strcmp(kind, "none") || !strcmp(kind, "pass") || !strcmp(kind, "ready")) {
        char key[48];
        snprintf(key, sizeof key, "act.karuta.%s", kind);
        pl_buf_puts(out, pl_words(lang, key));
    } else {
        return -1;
    }
    return 0;
}

int menu_words(const pl_game *g, const void *st, int seat, pl_action a, pl_lang lang, pl_buf *out)
{
    pl_buf js = {0}, err = {0}, said = {0};
    json_t *f = NULL;
    int rc = -1;
    if (pl_action_fields_json(g, st, seat, a, &js, &err) == 0)
        f = json_loads(pl_buf_str(&js), 0, NULL);
    if (json_object_size(f) > 0) {
        if (!strcmp(g->id, "ur"))
            rc = words_ur(f, lang, &said);
        else if (!strcmp(g->id, "cbw"))
            rc = words_cbw(g, st, f, lang, &said);
        else if (!strcmp(g->id, "tamcuc"))
            rc = words_tamcuc(g, st, f, lang, &said);
        else if (!strcmp(g->id, "karuta"))
            rc = words_karuta(f, lang, &said);
    }
    if (rc == 0 && said.len) {
        pl_buf_puts(out, pl_buf_str(&said));
        out->oom |= said.oom;
    } else {
        rc = -1;
    }
    json_decref(f);
    pl_buf_free(&js);
    pl_buf_free(&err);
    pl_buf_free(&said);
    return rc;
}

void menu_item(const pl_game *g, const void *st, int seat, pl_action a, pl_lang lang, pl_buf *out)
{
    if (lang == PL_LANG_EN) {
        pl_format_action_long(g, st, seat, a, out); /* "A4 → B1": the game's own, as before */
        return;
    }
    pl_buf typed = {0}, words = {0};
    g->format_action(st, seat, a, &typed);
    if (menu_words(g, st, seat, a, lang, &words) == 0)
        pl_words_put(out, lang, "act.item", "typed", pl_buf_str(&typed), "words", pl_buf_str(&words), NULL);
    else
        pl_buf_puts(out, pl_buf_str(&typed));
    out->oom |= typed.oom || words.oom;
    pl_buf_free(&typed);
    pl_buf_free(&words);
}

/* True when the catalogue key tail `p` (".if.KEY.VALUE...") holds for the
 * options `o`; `*after` gets the tail after it. A tail without ".if." holds. */
static bool summary_holds(const char *p, const pl_opts *o, const char **after)
{
    *after = p;
    if (strncmp(p, ".if.", 4))
        return true;
    const char *k = p + 4, *dot = strchr(k, '.');
    if (!dot)
        return false;
    const char *v = dot + 1, *end = strchr(v, '.');
    size_t vl = end ? (size_t)(end - v) : strlen(v);
    *after = v + vl;
    char key[64];
    if ((size_t)(dot - k) >= sizeof key)
        return false;
    memcpy(key, k, (size_t)(dot - k));
    key[dot - k] = '\0';
    const char *have = pl_opts_get(o, key);
    return have && strlen(have) == vl && !strncmp(have, v, vl);
}

/* Appends the sentence of an option's item: `base` is the key up to
 * ".opt.KEY" (`opt` the KEY): the sentence for the option's value
 * (".opt.KEY.VALUE"), else for its kind ("deals" of "deals:3"), else the
 * one for the rest (".opt.KEY"), with {v} the value and {n} what follows
 * its ':'. Nothing when none applies. */
static void summary_option(pl_lang lang, const char *base, const char *opt, const pl_opts *o, pl_buf *out)
{
    const char *v = pl_opts_get(o, opt);
    if (!v)
        return;
    const char *colon = strchr(v, ':');
    char key[160];
    const char *text = NULL;
    snprintf(key, sizeof key, "%s.%s", base, v);
    if (!(text = pl_words_find(lang, key)) && colon) {
        snprintf(key, sizeof key, "%s.%.*s", base, (int)(colon - v), v);
        text = pl_words_find(lang, key);
    }
    if (!text) {
        snprintf(key, sizeof key, "%s", base);
        text = pl_words_find(lang, key);
    }
    if (!text || !strcmp(text, "-")) /* "-": nothing for this value, though the rest have a sentence */
        return;
    pl_buf_puts(out, "- ");
    pl_words_put(out, lang, key, "v", v, "n", colon ? colon + 1 : "", NULL);
    pl_buf_putc(out, '\n');
}

int menu_summary(const pl_game *g, const pl_opts *o, pl_lang lang, pl_buf *out)
{
    char prefix[48], skip[3] = "", done[6] = "";
    int plen = snprintf(prefix, sizeof prefix, "rules.%s.", g->id), sections = 0;
    for (int i = 0, n = pl_words_count(lang); i < n; i++) {
        const char *key = pl_words_key_at(lang, i), *rest = key + plen, *tail;
        if (strncmp(key, prefix, (size_t)plen) || strlen(rest) < 2)
            continue;
        if (!rest[2] || !strncmp(rest + 2, ".if.", 4)) { /* a section's title: "SS", "SS.if.KEY.VALUE" */
            if (!summary_holds(rest + 2, o, &tail)) {
                memcpy(skip, rest, 2);
                continue;
            }
            skip[0] = '\0';
            pl_buf_puts(out, sections++ ? "\n" : "");
            pl_buf_puts(out, pl_words(lang, key));
            pl_buf_putc(out, '\n');
            continue;
        }
        if ((skip[0] && !strncmp(rest, skip, 2)) || strlen(rest) < 5 || !summary_holds(rest + 5, o, &tail))
            continue;
        if (!strncmp(tail, ".opt.", 5)) { /* "SS.II[.if.K.V].opt.KEY[.VALUE]": once an item */
            if (!strncmp(rest, done, 5))
                continue;
            memcpy(done, rest, 5);
            char base[128], opt[64];
            const char *ok = tail + 5, *dot = strchr(ok, '.');
            size_t kl = dot ? (size_t)(dot - ok) : strlen(ok);
            if (kl >= sizeof opt || (size_t)(ok - key) + kl >= sizeof base)
                continue;
            memcpy(opt, ok, kl);
            opt[kl] = '\0';
            memcpy(base, key, (size_t)(ok - key) + kl);
            base[(size_t)(ok - key) + kl] = '\0';
            summary_option(lang, base, opt, o, out);
            continue;
        }
        pl_buf_puts(out, "- ");
        pl_buf_puts(out, pl_words(lang, key));
        pl_buf_putc(out, '\n');
    }
    return sections ? 0 : -1;
}
