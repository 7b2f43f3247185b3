/* tell.c — the terminal's history in words (tell.h). */
#include "tell.h"

#include <string.h>

void tell_seat(const pl_game *g, const void *st, int seat, pl_buf *out)
{
    pl_buf_printf(out, "Seat %d", seat + 1);
    if (g->seat_name) {
        pl_buf_puts(out, " (");
        g->seat_name(st, seat, out);
        pl_buf_putc(out, ')');
    }
}

/* True when `b` (bytes) ends in a mark that ends a sentence: . ! ? or … */
static bool ends_sentence(const pl_buf *b)
{
    if (b->len == 0)
        return false;
    char c = b->s[b->len - 1];
    if (c == '.' || c == '!' || c == '?')
        return true;
    return b->len >= 3 && !memcmp(b->s + b->len - 3, "\xE2\x80\xA6", 3); /* … */
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
        if ((p[0] == '.' || p[0] == '!' || p[0] == '?') && p[1] == ' ' && p[2])
            return p + 2;
    return NULL;
}

void tell_action(const pl_game *g, const void *before, int seat, pl_action a, const void *after, int viewer,
                 tell_how how, pl_buf *out)
{
    pl_buf t = {0};
    if (how == TELL_ANSWERED) { /* nobody sees an answer before giving theirs */
        tell_seat(g, before, seat, &t);
        pl_buf_puts(&t, ": answered.");
        tell_join(out, pl_buf_str(&t));
        pl_buf_free(&t);
        return;
    }
    if (how != TELL_TYPED) { /* the player who typed it sees it on the board */
        size_t start = 0;
        if (seat != PL_CHANCE) {
            tell_seat(g, before, seat, &t);
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
        if (how == TELL_FORCED)
            pl_buf_puts(&t, " (the only legal move, played for you)");
        tell_join(out, pl_buf_str(&t));
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
