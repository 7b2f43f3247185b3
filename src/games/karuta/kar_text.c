/* kar_text.c — karuta notation (docs/notation-karuta.md), the `view`
 * observation, the picture, the position text and the per-reading log of
 * judgements (KA-R16). Nothing here is on the hot path. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "kar.h"

#include "parlour/alloc.h"
#include "parlour/words.h"

static const char *const variant_name[3] = {"kyogi", "uta", "chirashi"};
static const char *const stage_name[7] = {"read", "pool", "touch", "send", "place", "over", "arrange"};
_Static_assert(KAR_CHIRASHI + 1 == 3 && KAR_ST_ARRANGE + 1 == 7, "a name for every variant and stage");

void kar_format_action(const void *st, int seat, pl_action a, pl_buf *out)
{
    (void)st;
    (void)seat;
    unsigned c = (unsigned)(a & 0x7f);
    switch (KAR_KIND(a)) {
    case KAR_A_TOUCH: {
        kar_touch t[KAR_MAXTOUCH];
        int n = kar_touch_list(a, t);
        pl_buf_puts(out, "touch");
        for (int i = 0; i < n; i++)
            pl_buf_printf(out, " %d@%d", t[i].card, t[i].ms);
        if (KAR_POET_OF(a))
            pl_buf_printf(out, " poet %d", KAR_POET_OF(a));
        return;
    }
    case KAR_A_NONE: pl_buf_puts(out, "none"); return;
    case KAR_A_READ: pl_buf_printf(out, "read %u", c); return;
    case KAR_A_SEND: pl_buf_printf(out, "send %u", c); return;
    case KAR_A_PASS: pl_buf_puts(out, "pass"); return;
    case KAR_A_POOL: pl_buf_printf(out, "pool %u", c); return;
    case KAR_A_PLACE:
    case KAR_A_ARRANGE:
        pl_buf_printf(out, "%s %u@%u,%u", KAR_KIND(a) == KAR_A_PLACE ? "place" : "arrange", c,
                      (unsigned)((a >> 8) & 0xff), (unsigned)((a >> 16) & 0xff));
        return;
    case KAR_A_READY: pl_buf_puts(out, "ready"); return;
    default: pl_buf_printf(out, "?%llx", (unsigned long long)a);
    }
}

/* Reads a whole decimal number in [lo, hi] at *p; advances *p. */
static bool number(const char **p, long lo, long hi, long *v)
{
    if (!isdigit((unsigned char)**p))
        return false;
    char *e;
    *v = strtol(*p, &e, 10);
    *p = e;
    return *v >= lo && *v <= hi;
}

int kar_parse_action(const void *st, int seat, const char *t, pl_action *a, pl_buf *err)
{
    (void)st;
    long n, r, k;
    const char *p;
    if (seat == PL_CHANCE) {
        p = t + 5;
        if (!strncmp(t, "read ", 5) && number(&p, 1, KAR_NPOEMS, &n) && !*p) {
            *a = KAR_A_READ | (pl_action)n;
            return 0;
        }
        pl_buf_puts(err, "expected a chance outcome: read N (N a poem number 1-100)");
        return -1;
    }
    if (!strcmp(t, "none")) {
        *a = KAR_A_NONE;
        return 0;
    }
    if (!strcmp(t, "pass")) {
        *a = KAR_A_PASS;
        return 0;
    }
    if (!strcmp(t, "ready")) {
        *a = KAR_A_READY;
        return 0;
    }
    if (!strncmp(t, "send ", 5) || !strncmp(t, "pool ", 5)) {
        p = t + 5;
        if (number(&p, 1, KAR_NPOEMS, &n) && !*p) {
            *a = (t[0] == 's' ? KAR_A_SEND : KAR_A_POOL) | (pl_action)n;
            return 0;
        }
    } else if (!strncmp(t, "place ", 6) || !strncmp(t, "arrange ", 8)) {
        bool place = t[1] == 'l';
        p = t + (place ? 6 : 8);
        if (number(&p, 1, KAR_NPOEMS, &n) && *p++ == '@' && number(&p, 1, KAR_ROWS, &r) && *p++ == ',' &&
            number(&p, 1, KAR_SLOTS, &k) && !*p) {
            *a = (place ? KAR_A_PLACE : KAR_A_ARRANGE) | (pl_action)n | (pl_action)r << 8 | (pl_action)k << 16;
            return 0;
        }
    } else if (!strncmp(t, "touch ", 6)) {
        kar_touch tt[KAR_MAXTOUCH];
        int m = 0;
        long poet = 0;
        p = t + 6;
        for (;;) {
            while (*p == ' ')
                p++;
            if (!*p)
                break;
            if (m > 0 && !strncmp(p, "poet ", 5)) { /* answer=poet (KA-U4): the last item */
                p += 5;
                if (m > 1 || !number(&p, 1, KAR_NPOEMS, &poet) || *p) {
                    pl_buf_puts(err, "expected touch N@MS poet P (one touch; P the number of the poem whose poet is named, 1-100)");
                    return -1;
                }
                break;
            }
            long ms;
            if (m == KAR_MAXTOUCH) {
                pl_buf_printf(err, "at most %d touches in one response", KAR_MAXTOUCH);
                return -1;
            }
            if (!number(&p, 1, KAR_NPOEMS, &n) || *p++ != '@' || !number(&p, 0, KAR_MS_MAX, &ms) ||
                (*p && *p != ' ')) {
                pl_buf_printf(err, "expected touch N@MS [N@MS ...] (N 1-100, MS 0-%d ms from the first kana)",
                              KAR_MS_MAX);
                return -1;
            }
            tt[m].card = (uint8_t)n;
            tt[m].ms = (uint16_t)ms;
            m++;
        }
        if (m > 0) {
            *a = kar_touch_action(tt, m) | KAR_A_POET(poet);
            return 0;
        }
    }
    pl_buf_printf(err,
                  "expected touch N@MS [N@MS ...] (up to %d), none, send N, pass, place N@ROW,SLOT, pool N, "
                  "arrange N@ROW,SLOT or ready",
                  KAR_MAXTOUCH);
    return -1;
}

void kar_explain_illegal(const void *st, int seat, pl_action a, pl_buf *out)
{
    kar_why_invalid(st, seat, a, out);
}

int kar_check(const void *st, int seat, pl_action a, pl_buf *why)
{
    return kar_why_invalid(st, seat, a, why) ? -1 : 0;
}

/* ---- judgement text ----------------------------------------------------- */

static void where_text(int loc, pl_buf *out)
{
    if (loc < PL_MAX_SEATS)
        pl_buf_printf(out, "%d", loc);
    else
        pl_buf_puts(out, loc == KAR_LOC_DEAD ? "dead" : loc == KAR_LOC_FIELD ? "field" : loc == KAR_LOC_POOL ? "pool" : "out");
}

/* One line, machine-readable: the `judgement` line of `view`. */
static void judgement_line(const kar_state *s, const kar_judgement *j, pl_buf *out)
{
    pl_buf_printf(out, "card %d where ", j->card);
    where_text(j->where, out);
    pl_buf_printf(out, " kimariji %d ", j->kim);
    kar_key_text(j->card, j->kim, out);
    pl_buf_printf(out, " decide_ms %d territory %d decide_terr_ms %d", j->decide_ms, j->terr, j->terr_ms);
    if (j->void_reading) {
        pl_buf_puts(out, " void");
        return;
    }
    for (int p = 0; p < s->nseats; p++) {
        pl_buf_printf(out, " | %d ", p);
        if (j->answered & (1u << p))
            kar_format_action(s, p, j->resp[p], out);
        else
            pl_buf_puts(out, "-");
    }
    pl_buf_puts(out, " | taker ");
    if (j->taker >= 0)
        pl_buf_printf(out, "%d take_ms %d", j->taker, j->take_ms);
    else
        pl_buf_puts(out, "none");
    pl_buf_puts(out, " fouls");
    for (int p = 0; p < s->nseats; p++)
        pl_buf_printf(out, " %d", j->fouls[p]);
    if (j->sender >= 0) {
        pl_buf_printf(out, " send %d>%d owed %d sent", j->sender, j->receiver, j->owed);
        for (int i = 0; i < j->sent; i++)
            pl_buf_printf(out, " %d", j->sent_cards[i]);
        if (!j->sent)
            pl_buf_puts(out, " -");
    }
    if (j->moved)
        pl_buf_printf(out, " moved %d", j->moved);
    for (int p = 0; p < 2; p++) /* KA-R15: announced */
        if (j->arranged[p][0])
            pl_buf_printf(out, " arranged %d %d@%d,%d>%d,%d", p, j->arranged[p][0], j->arranged[p][1],
                          j->arranged[p][2], j->arranged[p][3], j->arranged[p][4]);
}

void kar_judgement_text(const kar_state *s, const kar_judgement *j, pl_buf *out)
{
    kar_judgement_text_from(s, j, 0, out);
}

void kar_judgement_text_from(const kar_state *s, const kar_judgement *j, int from, pl_buf *out)
{
    kar_judgement_words(s, j, from, PL_LANG_EN, out);
}

/* A number as text, in `b` (12 bytes). */
static const char *num(char *b, int v)
{
    snprintf(b, 12, "%d", v);
    return b;
}

/* Appends seat `p`'s answer `a` in `lang`: English, the notation ("touch
 * 12@850 poet 5", "none"); another language, the touches in its words. */
static void answer_words(const kar_state *s, int p, pl_action a, pl_lang lang, pl_buf *out)
{
    if (lang == PL_LANG_EN) {
        kar_format_action(s, p, a, out);
        return;
    }
    kar_touch t[KAR_MAXTOUCH];
    int n = KAR_KIND(a) == KAR_A_TOUCH ? kar_touch_list(a, t) : 0;
    if (!n) {
        pl_buf_puts(out, pl_words(lang, "kar.pic.j.nothing"));
        return;
    }
    pl_buf list = {0};
    char c[12], ms[12], poet[12];
    for (int i = 0; i < n; i++) {
        if (i)
            pl_buf_puts(&list, pl_words(lang, "result.list_sep"));
        pl_words_put(&list, lang, "ev.karuta.item.touches", "card", num(c, t[i].card), "ms", num(ms, t[i].ms), NULL);
    }
    pl_words_put(out, lang, KAR_POET_OF(a) ? "kar.pic.j.touched.poet" : "kar.pic.j.touched", "touches",
                 pl_buf_str(&list), "poet", num(poet, KAR_POET_OF(a)), NULL);
    out->oom |= list.oom;
    pl_buf_free(&list);
}

void kar_judgement_words(const kar_state *s, const kar_judgement *j, int from, int lang_, pl_buf *out)
{
    pl_lang lang = (pl_lang)lang_;
    char a[12], b[12], c[12];
    if (!j->card) {
        pl_buf_puts(out, pl_words(lang, "kar.pic.j.none"));
        return;
    }
    pl_buf where = {0}, kana = {0};
    if (j->where < PL_MAX_SEATS)
        pl_words_put(&where, lang, s->variant == KAR_UTA ? "kar.pic.j.where.hand" : "kar.pic.j.where.territory", "n",
                     num(a, j->where + from), NULL);
    else
        pl_buf_puts(&where, pl_words(lang, j->where == KAR_LOC_DEAD    ? "kar.pic.j.where.dead"
                                           : j->where == KAR_LOC_FIELD ? "kar.pic.j.where.field"
                                           : j->where == KAR_LOC_POOL  ? "kar.pic.j.where.pool"
                                                                       : "kar.pic.j.where.out"));
    kar_key_text(j->card, j->kim, &kana);
    pl_words_put(out, lang, "kar.pic.j.head", "card", num(a, j->card), "where", pl_buf_str(&where), "k",
                 num(b, j->kim), "kana", pl_buf_str(&kana), "ms", num(c, j->decide_ms), NULL);
    if (j->terr) {
        pl_buf_clear(&kana);
        kar_key_text(j->card, j->terr, &kana);
        pl_words_put(out, lang, "kar.pic.j.terr", "k", num(a, j->terr), "kana", pl_buf_str(&kana), "ms",
                     num(b, j->terr_ms), NULL);
    }
    out->oom |= where.oom || kana.oom;
    pl_buf_free(&where);
    pl_buf_free(&kana);
    pl_buf_puts(out, pl_words(lang, "kar.pic.j.stop"));
    if (j->void_reading) {
        pl_buf_puts(out, pl_words(lang, "kar.pic.j.void"));
        return;
    }
    for (int p = 0; p < s->nseats; p++) {
        pl_words_put(out, lang, "kar.pic.j.seat", "n", num(a, p + from), NULL);
        if (j->answered & (1u << p))
            answer_words(s, p, j->resp[p], lang, out);
        else
            pl_buf_puts(out, pl_words(lang, "kar.pic.j.waiting"));
        if (j->fouls[p])
            pl_buf_puts(out, pl_words(lang, s->variant == KAR_KYOGI && j->fouls[p] == 2 ? "kar.pic.j.foul2"
                                                                                      : "kar.pic.j.foul"));
        pl_buf_puts(out, pl_words(lang, "kar.pic.j.sep"));
    }
    if (j->taker >= 0)
        pl_words_put(out, lang, "kar.pic.j.took", "n", num(a, j->taker + from), "ms", num(b, j->take_ms), NULL);
    else
        pl_buf_puts(out, pl_words(lang, "kar.pic.j.nobody"));
    if (j->sender >= 0) {
        pl_buf cards = {0};
        for (int i = 0; i < j->sent; i++) {
            if (i)
                pl_buf_puts(&cards, pl_words(lang, "kar.pic.j.card_sep"));
            pl_buf_printf(&cards, "%d", j->sent_cards[i]);
        }
        const char *key = j->sent ? (j->owed == 1 ? "kar.pic.j.owes_sent.one" : "kar.pic.j.owes_sent")
                                  : (j->owed == 1 ? "kar.pic.j.owes.one" : "kar.pic.j.owes");
        pl_words_put(out, lang, key, "s", num(a, j->sender + from), "r", num(b, j->receiver + from), "k",
                     num(c, j->owed), "cards", pl_buf_str(&cards), NULL);
        out->oom |= cards.oom;
        pl_buf_free(&cards);
    }
    if (j->moved)
        pl_words_put(out, lang, j->moved == 1 ? "kar.pic.j.moved.one" : "kar.pic.j.moved", "k", num(a, j->moved), NULL);
    for (int p = 0; p < 2; p++)
        if (j->arranged[p][0]) { /* KA-R15: announced to the opponent */
            char from_label[8], to[8];
            kar_slot_label(p, j->arranged[p][1], j->arranged[p][2], from_label);
            kar_slot_label(p, j->arranged[p][3], j->arranged[p][4], to);
            pl_words_put(out, lang, "kar.pic.j.arranged", "n", num(a, p + from), "card", num(b, j->arranged[p][0]),
                         "from", from_label, "to", to, NULL);
        }
}

/* ---- view --------------------------------------------------------------- */

static void list_loc(const kar_state *s, int loc, bool slots, pl_buf *out)
{
    for (int c = 1; c <= KAR_NPOEMS; c++)
        if (s->loc[c] == loc) {
            pl_buf_printf(out, " %d", c);
            if (slots && s->row[c])
                pl_buf_printf(out, "@%d,%d", s->row[c], s->slot[c]);
        }
}

void kar_view(const void *st, int seat, pl_buf *out)
{
    const kar_state *s = st;
    pl_buf_printf(out, "game karuta\nvariant %s\nseat %d\nseats %d\nstage %s\n", variant_name[s->variant], seat,
                  s->nseats, stage_name[s->stage]);
    pl_buf_printf(out, "timing upper_ms %d lower_ms %d yoin_ms %d pause_ms %d tie_ms %d owner_ms %d memo_s %d\n",
                  s->upper_ms, s->lower_ms, s->yoin_ms, s->pause_ms, s->tie_ms, s->owner_ms, s->memo_s);
    if (s->teams)
        pl_buf_puts(out, "teams 0+2 1+3\n");
    if (s->answer_poet)
        pl_buf_puts(out, "answer poet\n");
    if (s->rearrange)
        pl_buf_puts(out, "rearrange on\n");
    pl_buf_printf(out, "readings %d\n", s->nread);
    if (s->variant == KAR_KYOGI) {
        for (int t = 0; t < 2; t++) {
            pl_buf_printf(out, "territory %d %d", t, s->count[t]);
            list_loc(s, t, true, out);
            pl_buf_putc(out, '\n');
        }
        pl_buf_puts(out, "dead");
        list_loc(s, KAR_LOC_DEAD, false, out);
        pl_buf_putc(out, '\n');
    } else if (s->variant == KAR_UTA) {
        for (int t = 0; t < 4; t++) {
            pl_buf_printf(out, "hand %d %d", t, s->count[t]);
            list_loc(s, t, false, out);
            pl_buf_putc(out, '\n');
        }
        pl_buf_puts(out, "pool");
        list_loc(s, KAR_LOC_POOL, false, out);
        pl_buf_putc(out, '\n');
    } else {
        pl_buf_puts(out, "field");
        list_loc(s, KAR_LOC_FIELD, false, out);
        pl_buf_puts(out, "\ntaken");
        for (int p = 0; p < s->nseats; p++)
            pl_buf_printf(out, " %d", s->count[p]);
        pl_buf_printf(out, "\npot %d\n", s->pot);
    }
    pl_buf_puts(out, "unread");
    for (int c = 1; c <= KAR_NPOEMS; c++)
        if (s->kim.unread[c])
            pl_buf_printf(out, " %d", c);
    pl_buf_putc(out, '\n');
    if (s->cur) {
        kar_kana tl[2 * KAR_TL_MAX];
        int n = kar_timeline(s->cur, s->upper_ms, s->lower_ms, s->variant == KAR_CHIRASHI, s->tempo_even, tl, 2 * KAR_TL_MAX);
        pl_buf_printf(out, "reading %d\ntimeline", s->cur);
        for (int i = 0; i < n; i++)
            pl_buf_printf(out, " %s@%d", tl[i].kana, tl[i].start_ms);
        pl_buf_putc(out, '\n');
    }
    if (s->stage == KAR_ST_TOUCH || s->stage == KAR_ST_POOL || s->stage == KAR_ST_ARRANGE) {
        pl_buf_puts(out, "pending");
        for (int p = 0; p < s->nseats; p++)
            if (s->pending & (1u << p))
                pl_buf_printf(out, " %d", p);
        pl_buf_putc(out, '\n');
    }
    if (s->stage == KAR_ST_SEND || s->stage == KAR_ST_PLACE)
        pl_buf_printf(out, "send %d %d owed %d sent %d place %d\n", s->last.sender, s->last.receiver,
                      s->last.owed, s->last.sent, s->place_card);
    if (s->last.card && s->stage != KAR_ST_TOUCH) { /* responses stay secret until all are in */
        pl_buf_puts(out, "judgement ");
        judgement_line(s, &s->last, out);
        pl_buf_putc(out, '\n');
    }
    if (s->stage == KAR_ST_OVER) {
        if (s->winner >= 0 && s->teams)
            pl_buf_printf(out, "winner team %d\n", s->winner % 2);
        else if (s->winner >= 0)
            pl_buf_printf(out, "winner %d\n", s->winner);
        else
            pl_buf_puts(out, "winner draw\n");
    }
}

/* ---- picture ------------------------------------------------------------ */

/* Draws territory `t` from row `top`, one line per row (seat 1's near row
 * first, at the top; seat 0's near row last), each card as its slot number
 * and as much of its card text as tells it from every other card
 * (kar_card_unique), the slots in the order the seat at the bottom sees them;
 * a long row folds onto the next line. Returns the next free row. */
static int draw_territory(const kar_state *s, int t, int top, pl_canvas *c)
{
    pl_style st = t == 0 ? PL_ST_RED : PL_ST_BLACK;
    int y = top;
    for (int i = 0; i < KAR_ROWS; i++) {
        int row = t == 1 ? i + 1 : KAR_ROWS - i; /* seat 1 at the top, its near row first */
        char label[8];
        kar_slot_label(t, row, 1, label);
        pl_canvas_printf(c, y, 0, PL_ST_TITLE, "%c", label[0]);
        int x = 3;
        for (int k = 0; k < KAR_SLOTS; k++) {
            int slot = t == 1 ? KAR_SLOTS - k : k + 1; /* seat 1's left is on the right */
            int card = s->grid[t][row - 1][slot - 1];
            if (!card)
                continue;
            char txt[40];
            kar_card_head(card, kar_card_unique(card), txt, sizeof txt);
            int w = 3 + pl_text_width(txt);
            if (x > 3 && x + w > 80) {
                y++;
                x = 3;
            }
            pl_canvas_printf(c, y, x, s->cur == card && s->stage != KAR_ST_READ ? PL_ST_HILITE : PL_ST_DIM, "%02d",
                             slot);
            pl_canvas_put(c, y, x + 3, st, txt);
            x += w + 2;
        }
        if (x == 3)
            pl_canvas_put(c, y, 3, PL_ST_DIM, "-");
        y++;
    }
    return y;
}

/* Draws the cards at `loc` from row `y` under the title `title` (at most
 * 15 columns), as "N:" and as much of each card's text as tells it from
 * every other card; returns the next free row. */
static int draw_list(const kar_state *s, int loc, int y, const char *title, pl_style st, pl_canvas *c)
{
    pl_canvas_put(c, y, 0, st, title);
    int x = 16, line = y;
    for (int card = 1; card <= KAR_NPOEMS; card++) {
        if (s->loc[card] != loc)
            continue;
        char txt[40];
        kar_card_head(card, kar_card_unique(card), txt, sizeof txt);
        int w = snprintf(NULL, 0, "%d:", card) + pl_text_width(txt);
        if (x > 16 && x + w > 80) {
            x = 16;
            line++;
        }
        x = pl_canvas_printf(c, line, x, st, "%d:", card);
        x = pl_canvas_put(c, line, x, st, txt) + 1;
    }
    return line + 1;
}

/* Puts "Seat N: K cards" of kyōgi's seat `t` at row `y`. */
static void draw_count(const kar_state *s, int t, int y, pl_canvas *c)
{
    char n[12], k[12];
    pl_canvas_words(c, y, 0, t ? PL_ST_BLACK : PL_ST_RED, s->count[t] == 1 ? "kar.pic.cards.one" : "kar.pic.cards",
                    "n", num(n, t + c->seat_from), "k", num(k, s->count[t]), NULL);
}

/* The picture (game.h, draw): its words from the catalogue (words.h, keys
 * kar.pic.*) in the canvas's language; English is the protocol's `show`. */
void kar_draw(const void *st, int seat, pl_canvas *c)
{
    const kar_state *s = st;
    pl_lang lang = (pl_lang)c->lang;
    char a[12], b[12], d[12], key[40];
    (void)seat;
    snprintf(key, sizeof key, "kar.pic.variant.%s", variant_name[s->variant]);
    pl_canvas_words(c, 0, 0, PL_ST_TITLE, "kar.pic.title", "variant", pl_words(lang, key), "n", num(a, s->nread), NULL);
    int y = 2;
    if (s->variant == KAR_KYOGI) {
        draw_count(s, 1, y++, c);
        y = draw_territory(s, 1, y, c);
        pl_canvas_put(c, y++, 0, PL_ST_DIM, "- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - -");
        y = draw_territory(s, 0, y, c);
        draw_count(s, 0, y++, c);
    } else if (s->variant == KAR_UTA) {
        for (int p = 0; p < 4; p++) {
            pl_buf title = {0};
            pl_words_put(&title, lang, "kar.pic.hand", "n", num(a, p + c->seat_from), "k", num(b, s->count[p]), NULL);
            y = draw_list(s, p, y, pl_buf_str(&title), p % 2 ? PL_ST_BLACK : PL_ST_RED, c);
            c->oom |= title.oom;
            pl_buf_free(&title);
        }
        y = draw_list(s, KAR_LOC_POOL, y, pl_words(lang, "kar.pic.pool"), PL_ST_MARK, c) + 1;
    } else {
        y = draw_list(s, KAR_LOC_FIELD, y, pl_words(lang, "kar.pic.field"), PL_ST_NORMAL, c) + 1;
        for (int p = 0; p < s->nseats; p++)
            pl_canvas_words(c, y, 16 * p, p % 2 ? PL_ST_BLACK : PL_ST_RED, "kar.pic.taken", "n",
                            num(a, p + c->seat_from), "k", num(b, s->count[p]), NULL);
        y++;
        if (s->pot)
            pl_canvas_words(c, y++, 0, PL_ST_MARK, "kar.pic.pot", "n", num(a, s->pot), NULL);
    }
    if (s->cur) {
        const kar_poem *p = kar_poem_get(s->cur);
        char kana[4 * KAR_TL_MAX + 1]; /* the kana as read: the holds ー ｰ are time, not text */
        size_t n = 0;
        for (int i = 0; i < p->tl_n[0]; i++) {
            size_t k = strlen(p->tl_kana[0][i]);
            memcpy(kana + n, p->tl_kana[0][i], k);
            n += k;
        }
        kana[n] = '\0';
        pl_canvas_words(c, ++y, 0, PL_ST_HILITE, "kar.pic.reading", "n", num(a, s->cur), "kana", kana, NULL);
        y++;
    }
    if (s->last.card && s->stage != KAR_ST_TOUCH) {
        pl_buf j = {0};
        kar_judgement_words(s, &s->last, c->seat_from, lang, &j);
        pl_canvas_put(c, ++y, 0, PL_ST_NORMAL, pl_buf_str(&j));
        c->oom |= j.oom;
        pl_buf_free(&j);
    }
    y += 2;
    switch (s->stage) {
    case KAR_ST_READ: pl_canvas_words(c, y, 0, PL_ST_NORMAL, "kar.pic.st.read", NULL); break;
    case KAR_ST_POOL: pl_canvas_words(c, y, 0, PL_ST_NORMAL, "kar.pic.st.pool", NULL); break;
    case KAR_ST_TOUCH: pl_canvas_words(c, y, 0, PL_ST_NORMAL, "kar.pic.st.touch", NULL); break;
    case KAR_ST_SEND:
        pl_canvas_words(c, y, 0, PL_ST_NORMAL, "kar.pic.st.send", "s", num(a, s->last.sender + c->seat_from), "k",
                        num(b, s->last.owed - s->last.sent), "r", num(d, s->last.receiver + c->seat_from), NULL);
        break;
    case KAR_ST_PLACE:
        pl_canvas_words(c, y, 0, PL_ST_NORMAL, "kar.pic.st.place", "n", num(a, s->last.receiver + c->seat_from),
                        "card", num(b, s->place_card), NULL);
        break;
    case KAR_ST_ARRANGE: pl_canvas_words(c, y, 0, PL_ST_NORMAL, "kar.pic.st.arrange", NULL); break;
    default:
        if (s->winner >= 0 && s->teams)
            pl_canvas_words(c, y, 0, PL_ST_HILITE, "kar.pic.win.team", "t", num(a, s->winner % 2 + c->seat_from), "a",
                            num(b, s->winner % 2 + c->seat_from), "b", num(d, s->winner % 2 + 2 + c->seat_from), NULL);
        else if (s->winner >= 0)
            pl_canvas_words(c, y, 0, PL_ST_HILITE, "kar.pic.win", "n", num(a, s->winner + c->seat_from), NULL);
        else
            pl_canvas_words(c, y, 0, PL_ST_HILITE, "kar.pic.draw", NULL);
    }
}

/* ---- position text ------------------------------------------------------ */

/* Appends ";"-separated cards at `loc` (with @ROW,SLOT when placed), or "-". */
static void put_loc(const kar_state *s, int loc, pl_buf *out)
{
    int any = 0;
    for (int c = 1; c <= KAR_NPOEMS; c++)
        if (s->loc[c] == loc) {
            pl_buf_printf(out, "%s%d", any++ ? ";" : "", c);
            if (s->row[c])
                pl_buf_printf(out, "@%d,%d", s->row[c], s->slot[c]);
        }
    if (!any)
        pl_buf_putc(out, '-');
}

void kar_to_text(const void *st, pl_buf *out)
{
    const kar_state *s = st;
    pl_buf_printf(out, "variant=%s stage=%s readings=%d reading=%d", variant_name[s->variant],
                  stage_name[s->stage], s->nread, s->cur);
    int groups = s->variant == KAR_KYOGI ? 2 : s->variant == KAR_UTA ? 4 : 0;
    for (int g = 0; g < groups; g++) {
        pl_buf_printf(out, " %s%d=", s->variant == KAR_KYOGI ? "t" : "h", g);
        put_loc(s, g, out);
    }
    if (s->variant == KAR_CHIRASHI) {
        pl_buf_puts(out, " taken=");
        for (int p = 0; p < s->nseats; p++)
            pl_buf_printf(out, "%s%d", p ? "/" : "", s->count[p]);
        pl_buf_printf(out, " pot=%d field=", s->pot);
        put_loc(s, KAR_LOC_FIELD, out);
    }
    if (s->variant == KAR_UTA) {
        pl_buf_puts(out, " pool=");
        put_loc(s, KAR_LOC_POOL, out);
    }
    pl_buf_puts(out, " out=");
    put_loc(s, KAR_LOC_OUT, out);
    /* the rest of the state, for from_text: what was read, who took what,
     * who still answers, and the current or last judgement (KA-R16) */
    pl_buf_puts(out, " read=");
    int any = 0;
    for (int c = 1; c <= KAR_NPOEMS; c++)
        if (!s->kim.unread[c])
            pl_buf_printf(out, "%s%d", any++ ? ";" : "", c);
    pl_buf_puts(out, any ? " took=" : "- took=");
    any = 0;
    for (int c = 1; c <= KAR_NPOEMS; c++)
        if (s->taken_by[c])
            pl_buf_printf(out, "%s%d:%d:%d", any++ ? ";" : "", c, s->taken_by[c] - 1, s->take_ms[c]);
    if (!any)
        pl_buf_putc(out, '-');
    pl_buf_printf(out, " pending=%x place=%d winner=%d seq=", s->pending, s->place_card, s->winner);
    for (int i = 0; i < s->nseq; i++)
        pl_buf_printf(out, "%s%d", i ? "," : "", s->seq[i]);
    if (!s->nseq)
        pl_buf_putc(out, '-');
    const kar_judgement *j = &s->last;
    pl_buf_printf(out, " last=%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d/", j->card, j->where, j->kim, j->terr,
                  j->decide_ms, j->terr_ms, j->answered, j->void_reading, j->taker, j->take_ms, j->sender,
                  j->receiver, j->owed, j->sent, j->moved);
    for (int p = 0; p < s->nseats; p++)
        pl_buf_printf(out, "%s%llx", p ? "," : "", (unsigned long long)j->resp[p]);
    pl_buf_putc(out, '/');
    for (int p = 0; p < s->nseats; p++)
        pl_buf_printf(out, "%s%d", p ? "," : "", j->fouls[p]);
    pl_buf_putc(out, '/');
    for (int i = 0; i < j->sent; i++)
        pl_buf_printf(out, "%s%d", i ? "," : "", j->sent_cards[i]);
    if (!j->sent)
        pl_buf_putc(out, '-');
    /* The reading at which each card was last sent or given (kar_bot's memory). */
    pl_buf_puts(out, " moved=");
    any = 0;
    for (int c = 1; c <= KAR_NPOEMS; c++)
        if (s->moved_at[c])
            pl_buf_printf(out, "%s%d:%d", any++ ? ";" : "", c, s->moved_at[c]);
    if (!any)
        pl_buf_putc(out, '-');
    if (s->rearrange) /* KA-R15: this interval's moves, per seat */
        for (int p = 0; p < 2; p++) {
            const uint8_t *x = j->arranged[p];
            pl_buf_printf(out, "%s%d,%d,%d,%d,%d", p ? "/" : " arranged=", x[0], x[1], x[2], x[3], x[4]);
        }
}

/* Reads "N[@R,S];N..." or "-" into the locations (kar_state.loc/row/slot).
 * Returns false on a bad list or a card given twice. */
static bool get_loc(const char *v, int loc, uint8_t *where, uint8_t *row, uint8_t *slot)
{
    if (!strcmp(v, "-"))
        return true;
    const char *p = v;
    for (;;) {
        long c, r = 0, k = 0;
        if (!number(&p, 1, KAR_NPOEMS, &c) || where[c] != 0xff)
            return false;
        if (*p == '@') {
            p++;
            if (!number(&p, 1, KAR_ROWS, &r) || *p++ != ',' || !number(&p, 1, KAR_SLOTS, &k) ||
                kar_free_space((int)r, (int)k)) /* KA-R2 */
                return false;
        }
        where[c] = (uint8_t)loc;
        row[c] = (uint8_t)r;
        slot[c] = (uint8_t)k;
        if (!*p)
            return true;
        if (*p++ != ';')
            return false;
    }
}

/* Reads `n` comma-separated integers (base 10 or, with hex, 16) into `v`;
 * "-" is an empty list. Returns the count, or -1 when malformed. */
static int get_ints(const char *t, long long *v, int n, bool hex)
{
    if (!strcmp(t, "-"))
        return 0;
    int k = 0;
    for (;;) {
        char *e;
        if (k == n)
            return -1;
        errno = 0;
        v[k++] = hex ? (long long)strtoull(t, &e, 16) : strtoll(t, &e, 10);
        if (e == t || errno)
            return -1;
        if (!*e || *e == '/')
            return k;
        if (*e != ',')
            return -1;
        t = e + 1;
    }
}

/* The inverse of kar_to_text (docs/notation-karuta.md). Every field must be
 * present; the derived parts (grid, counts, kimariji trie, caches) are
 * rebuilt by kar_restore. */
int kar_from_text(void *st, const char *text, pl_buf *err)
{
    const kar_state *s0 = st;
    kar_state *s = pl_malloc(sizeof *s);
    char *buf = pl_malloc(strlen(text) + 1);
    if (!s || !buf) {
        pl_free(s);
        pl_free(buf);
        pl_buf_puts(err, "out of memory");
        return -1;
    }
    strcpy(buf, text);
    memcpy(s, s0, sizeof *s); /* options come from the state given (from init) */
    uint8_t where[KAR_NPOEMS + 1], row[KAR_NPOEMS + 1] = {0}, slot[KAR_NPOEMS + 1] = {0}, read[KAR_NPOEMS + 1] = {0};
    uint8_t taken_by[KAR_NPOEMS + 1] = {0};
    uint16_t take_ms[KAR_NPOEMS + 1] = {0};
    uint8_t moved[KAR_NPOEMS + 1] = {0};
    memset(where, 0xff, sizeof where);
    kar_judgement j;
    memset(&j, 0, sizeof j);
    uint8_t arranged[2][5] = {{0}};
    int stage = -1, nread = -1, cur = -1, pending = -1, place = -1, winner = -2, pot = 0, nseq = -1, seen = 0;
    int taken[PL_MAX_SEATS] = {0};
    uint8_t seq[PL_MAX_SEATS] = {0};
    const char *bad = NULL;
    char *save = NULL;
    for (char *t = strtok_r(buf, " ", &save); t && !bad; t = strtok_r(NULL, " ", &save)) {
        char *v = strchr(t, '=');
        if (!v) {
            bad = t;
            break;
        }
        *v++ = '\0';
        long long x[PL_MAX_SEATS + 16];
        int n;
        seen++;
        if (!strcmp(t, "variant")) {
            if (strcmp(v, variant_name[s->variant]))
                bad = "variant (it must be the game's, set by options)";
        } else if (!strcmp(t, "stage")) {
            for (int k = 0; k < 7; k++)
                if (!strcmp(v, stage_name[k]))
                    stage = k;
            if (stage < 0)
                bad = "stage";
        } else if (!strcmp(t, "readings")) {
            nread = atoi(v);
        } else if (!strcmp(t, "reading")) {
            cur = atoi(v);
        } else if ((t[0] == 't' || t[0] == 'h') && t[1] >= '0' && t[1] <= '3' && !t[2]) {
            int g = t[1] - '0';
            if ((t[0] == 't') != (s->variant == KAR_KYOGI) || g >= (s->variant == KAR_KYOGI ? 2 : 4) ||
                !get_loc(v, g, where, row, slot))
                bad = t;
        } else if (!strcmp(t, "field") || !strcmp(t, "pool") || !strcmp(t, "out")) {
            int loc = t[0] == 'f' ? KAR_LOC_FIELD : t[0] == 'p' ? KAR_LOC_POOL : KAR_LOC_OUT;
            if (!get_loc(v, loc, where, row, slot))
                bad = t;
        } else if (!strcmp(t, "taken")) {
            const char *p = v;
            for (int q = 0; q < s->nseats && !bad; q++) {
                long c;
                if (!number(&p, 0, KAR_NPOEMS, &c) || (*p && *p++ != '/'))
                    bad = t;
                else
                    taken[q] = (int)c;
            }
        } else if (!strcmp(t, "pot")) {
            pot = atoi(v);
        } else if (!strcmp(t, "read")) {
            const char *p = v;
            if (strcmp(v, "-"))
                for (;;) {
                    long c;
                    if (!number(&p, 1, KAR_NPOEMS, &c)) {
                        bad = t;
                        break;
                    }
                    read[c] = 1;
                    if (!*p)
                        break;
                    if (*p++ != ';') {
                        bad = t;
                        break;
                    }
                }
        } else if (!strcmp(t, "took")) {
            const char *p = v;
            if (strcmp(v, "-"))
                for (;;) {
                    long c, q, ms;
                    if (!number(&p, 1, KAR_NPOEMS, &c) || *p++ != ':' || !number(&p, 0, s->nseats - 1, &q) ||
                        *p++ != ':' || !number(&p, 0, KAR_MS_MAX, &ms)) {
                        bad = t;
                        break;
                    }
                    taken_by[c] = (uint8_t)(q + 1);
                    take_ms[c] = (uint16_t)ms;
                    if (!*p)
                        break;
                    if (*p++ != ';') {
                        bad = t;
                        break;
                    }
                }
        } else if (!strcmp(t, "moved")) {
            const char *p = v;
            if (strcmp(v, "-"))
                for (;;) {
                    long c, r;
                    if (!number(&p, 1, KAR_NPOEMS, &c) || *p++ != ':' || !number(&p, 1, 255, &r)) {
                        bad = t;
                        break;
                    }
                    moved[c] = (uint8_t)r;
                    if (!*p)
                        break;
                    if (*p++ != ';') {
                        bad = t;
                        break;
                    }
                }
        } else if (!strcmp(t, "pending")) {
            pending = (int)strtol(v, NULL, 16);
        } else if (!strcmp(t, "place")) {
            place = atoi(v);
        } else if (!strcmp(t, "winner")) {
            winner = atoi(v);
        } else if (!strcmp(t, "seq")) {
            n = get_ints(v, x, s->nseats, false);
            nseq = n;
            for (int i = 0; i < n; i++)
                seq[i] = (uint8_t)x[i];
            if (n < 0)
                bad = t;
        } else if (!strcmp(t, "last")) {
            char *r = strchr(v, '/'), *f = r ? strchr(r + 1, '/') : NULL, *c = f ? strchr(f + 1, '/') : NULL;
            if (!c || get_ints(v, x, 15, false) != 15) {
                bad = t;
                continue;
            }
            j.card = (uint8_t)x[0], j.where = (uint8_t)x[1], j.kim = (uint8_t)x[2], j.terr = (uint8_t)x[3];
            j.decide_ms = (uint16_t)x[4], j.terr_ms = (uint16_t)x[5];
            j.answered = (uint8_t)x[6];
            j.void_reading = (uint8_t)x[7], j.taker = (int8_t)x[8], j.take_ms = (uint16_t)x[9];
            j.sender = (int8_t)x[10], j.receiver = (int8_t)x[11], j.owed = (uint8_t)x[12];
            j.sent = (uint8_t)x[13], j.moved = (uint8_t)x[14];
            long long rs[PL_MAX_SEATS], fs[PL_MAX_SEATS], sc[50];
            if (get_ints(r + 1, rs, s->nseats, true) != s->nseats || get_ints(f + 1, fs, s->nseats, false) != s->nseats ||
                get_ints(c + 1, sc, 50, false) != j.sent) {
                bad = t;
                continue;
            }
            for (int p = 0; p < s->nseats; p++) {
                j.resp[p] = (pl_action)rs[p];
                j.fouls[p] = (uint8_t)fs[p];
            }
            for (int i = 0; i < j.sent; i++)
                j.sent_cards[i] = (uint8_t)sc[i];
        } else if (!strcmp(t, "arranged") && s->rearrange) {
            char *second = strchr(v, '/');
            long long a0[5], a1[5];
            if (!second || get_ints(v, a0, 5, false) != 5 || get_ints(second + 1, a1, 5, false) != 5) {
                bad = t;
                continue;
            }
            for (int i = 0; i < 5; i++) {
                arranged[0][i] = (uint8_t)a0[i];
                arranged[1][i] = (uint8_t)a1[i];
            }
        } else {
            bad = t;
        }
    }
    if (!bad && (stage < 0 || nread < 0 || cur < 0 || cur > KAR_NPOEMS || pending < 0 || place < 0 ||
                 winner < -1 || nseq < 0 || !j.card == (nread > 0)))
        bad = "a missing field";
    int nr = 0, terr = 0;
    for (int c = 1; c <= KAR_NPOEMS; c++) {
        nr += read[c];
        terr += where[c] < 2;
    }
    if (!bad && s->variant == KAR_KYOGI && terr > KAR_MAX_IN_PLAY)
        bad = "t0 (more than 50 cards in the territories, KA-R2)";
    if (!bad && nr != nread)
        bad = "readings (not the number of poems in read=)";
    /* A stage someone acts in names who: pending seats that exist, or the
     * sender and receiver of a send (the rules would have nobody to ask). */
    if (!bad && (pending & ~((1 << s->nseats) - 1)))
        bad = "pending (a seat the game does not have)";
    if (!bad && (stage == KAR_ST_TOUCH || stage == KAR_ST_POOL || stage == KAR_ST_ARRANGE) && pending == 0)
        bad = "pending (nobody to act at this stage)";
    if (!bad && stage == KAR_ST_SEND && (j.sender < 0 || j.sender >= s->nseats))
        bad = "last (a send without its sender)";
    if (!bad && stage == KAR_ST_PLACE && (j.receiver < 0 || j.receiver >= s->nseats))
        bad = "last (a placement without its receiver)";
    if (bad) {
        pl_buf_printf(err, "bad karuta position at '%s' (expected the fields of position, docs/notation-karuta.md)",
                      bad);
        pl_free(buf);
        pl_free(s);
        return -1;
    }
    kar_restore(s, where, row, slot, read);
    s->stage = (uint8_t)stage;
    s->nread = (uint8_t)nread;
    s->cur = (uint8_t)cur;
    s->pending = (uint8_t)pending;
    s->place_card = (uint8_t)place;
    s->winner = (int8_t)winner;
    s->pot = (uint8_t)pot;
    s->nseq = (uint8_t)nseq;
    memcpy(s->seq, seq, sizeof s->seq);
    memcpy(s->taken_by, taken_by, sizeof taken_by);
    memcpy(s->take_ms, take_ms, sizeof take_ms);
    memcpy(s->moved_at, moved, sizeof moved);
    if (s->variant == KAR_CHIRASHI)
        for (int p = 0; p < s->nseats; p++)
            s->count[p] = (uint8_t)taken[p];
    memcpy(j.arranged, arranged, sizeof arranged);
    s->last = j;
    kar_restore_caches(s);
    memcpy(st, s, sizeof *s);
    pl_free(buf);
    pl_free(s);
    return 0;
}

/* ---- the per-reading log ------------------------------------------------ */

void kar_reading_log(const pl_match *m, pl_buf *out)
{
    kar_state *s = pl_malloc(sizeof *s);
    if (!s) {
        out->oom = true;
        return;
    }
    memcpy(s, m->initial, sizeof *s);
    for (int i = 0; i < m->nhist; i++) {
        int before = s->stage;
        m->game->apply(s, m->hist[i].seat, m->hist[i].a);
        bool done = (before != KAR_ST_READ && before != KAR_ST_POOL && s->stage == KAR_ST_READ) ||
                    (before != KAR_ST_OVER && s->stage == KAR_ST_OVER) ||
                    (before == KAR_ST_READ && s->last.void_reading);
        if (done && s->last.card) {
            pl_buf_printf(out, "%d. ", s->nread);
            kar_judgement_text(s, &s->last, out);
            pl_buf_putc(out, '\n');
        }
    }
    pl_free(s);
}

/* ---- structured view (pl_game.view_json, docs/web-views.md) -------------- */

#include <jansson.h>

/* The game's part of the structured view. Karuta hides no card, but the
 * reading is secret while the seats answer it (stage touch): a server sends
 * its kana as they are read, and the view must not tell the card sooner, so
 * until every answer is in, "reading" gives no card and "unread" still
 * holds it (the text view, for the engine's players, says both). */
int kar_view_json(const void *st, int viewer, json_t *obj)
{
    const kar_state *s = st;
    (void)viewer; /* the same for every seat: nothing in the layout is private */
    int bad = 0, open = s->stage != KAR_ST_TOUCH;
    bad |= json_object_set_new(obj, "variant", json_string(variant_name[s->variant]));
    bad |= json_object_set_new(obj, "stage", json_string(stage_name[s->stage]));
    bad |= json_object_set_new(
        obj, "timing",
        json_pack("{s:i,s:i,s:s,s:i,s:i,s:i,s:i,s:i}", "upper_ms", (int)s->upper_ms, "lower_ms", (int)s->lower_ms,
                  "tempo", s->tempo_even ? "even" : "poem",
                  "yoin_ms", (int)s->yoin_ms, "pause_ms", (int)s->pause_ms, "tie_ms", (int)s->tie_ms, "owner_ms",
                  (int)s->owner_ms, "memo_s", (int)s->memo_s));
    bad |= json_object_set_new(obj, "team_play", json_boolean(s->teams));
    bad |= json_object_set_new(obj, "answer_poet", json_boolean(s->answer_poet));
    bad |= json_object_set_new(obj, "rearrange", json_boolean(s->rearrange));
    bad |= json_object_set_new(obj, "readings", json_integer(s->nread));
    /* where the cards lie, by variant: a zone is {"count", "cards"} */
    int nz = s->variant == KAR_KYOGI ? 2 : s->variant == KAR_UTA ? 4 : 0;
    json_t *zones = json_array(), *dead = json_array(), *field = json_array(), *pool = json_array();
    for (int t = 0; t < nz; t++) {
        json_t *cards = json_array();
        for (int c = 1; c <= KAR_NPOEMS; c++)
            if (s->loc[c] == t) {
                if (s->variant == KAR_KYOGI && s->row[c]) {
                    char label[8];
                    kar_slot_label(t, s->row[c], s->slot[c], label);
                    bad |= json_array_append_new(cards, json_pack("{s:i,s:i,s:i,s:s}", "card", c, "row",
                                                                  (int)s->row[c], "slot", (int)s->slot[c], "label",
                                                                  label));
                } else {
                    bad |= json_array_append_new(cards, json_pack("{s:i}", "card", c));
                }
            }
        bad |= json_array_append_new(zones, json_pack("{s:i,s:o}", "count", (int)s->count[t], "cards", cards));
    }
    json_t *taken = json_array();
    for (int c = 1; c <= KAR_NPOEMS; c++) {
        if (s->loc[c] == KAR_LOC_DEAD && s->variant == KAR_KYOGI)
            bad |= json_array_append_new(dead, json_integer(c));
        if (s->loc[c] == KAR_LOC_FIELD)
            bad |= json_array_append_new(field, json_integer(c));
        if (s->loc[c] == KAR_LOC_POOL)
            bad |= json_array_append_new(pool, json_integer(c));
    }
    for (int p = 0; s->variant == KAR_CHIRASHI && p < s->nseats; p++)
        bad |= json_array_append_new(taken, json_integer(s->count[p]));
    bad |= json_object_set_new(obj, s->variant == KAR_KYOGI ? "territories" : "hands", zones);
    bad |= json_object_set_new(obj, "dead", dead);
    bad |= json_object_set_new(obj, "field", field);
    bad |= json_object_set_new(obj, "pool", pool);
    bad |= json_object_set_new(obj, "taken", taken);
    bad |= json_object_set_new(obj, "pot", json_integer(s->pot));
    json_t *unread = json_array();
    for (int c = 1; c <= KAR_NPOEMS; c++)
        if (s->kim.unread[c] || (!open && c == s->cur))
            bad |= json_array_append_new(unread, json_integer(c));
    bad |= json_object_set_new(obj, "unread", unread);
    bad |= json_object_set_new(obj, "reading", s->cur ? json_pack("{s:b,s:o}", "open", open, "card",
                                                                  open ? json_integer(s->cur) : json_null())
                                                      : json_null());
    json_t *pending = json_array();
    if (s->stage == KAR_ST_TOUCH || s->stage == KAR_ST_POOL || s->stage == KAR_ST_ARRANGE)
        for (int p = 0; p < s->nseats; p++)
            if (s->pending & (1u << p))
                bad |= json_array_append_new(pending, json_integer(p));
    bad |= json_object_set_new(obj, "pending", pending);
    bad |= json_object_set_new(obj, "send", s->stage == KAR_ST_SEND || s->stage == KAR_ST_PLACE
                                                ? json_pack("{s:i,s:i,s:i,s:i,s:i}", "sender", (int)s->last.sender,
                                                            "receiver", (int)s->last.receiver, "owed",
                                                            (int)s->last.owed, "sent", (int)s->last.sent,
                                                            "place_card", (int)s->place_card)
                                                : json_null());
    json_t *judg = json_null();
    if (s->last.card && open) { /* responses stay secret until all are in */
        const kar_judgement *j = &s->last;
        pl_buf text = {0};
        judgement_line(s, j, &text);
        judg = json_object(); /* the fields (kar_events.c, as the `judgement` event), and the line */
        bad |= !judg || kar_judgement_json(s, j, judg) < 0 || text.oom ||
               json_object_set_new(judg, "text", json_string(pl_buf_str(&text))) < 0;
        pl_buf_free(&text);
    }
    bad |= json_object_set_new(obj, "judgement", judg);
    return bad ? -1 : 0;
}
