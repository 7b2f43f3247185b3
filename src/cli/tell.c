/* tell.c — the terminal's history in words (tell.h). */
#include "tell.h"

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
            pl_buf_putc(msg, '.');
        pl_buf_putc(msg, ' ');
    }
    pl_buf_puts(msg, text);
    trim_end(msg);
    if (!ends_sentence(msg))
        pl_buf_putc(msg, '.');
}

const char *tell_next_sentence(const char *msg)
{
    for (const char *p = msg; *p; p++)
        if (p[0] == ' ' && p[1] && p > msg && ends_mark(msg, (size_t)(p - msg)))
            return p + 1;
    return NULL;
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
