/* kar_practice.c — real-time karuta practice without a screen
 * (public/kar_practice.h): a session plays a real match through the game
 * interface (pl_match_random for the reading, pl_match_play with touch
 * actions for the responses), computes the reading timeline, the computer
 * opponent's touch, the deadline, and writes the judgements and statistics
 * in words. The terminal screen (src/cli/karuta.c) only draws and reads keys.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "kar.h"
#include "parlour/alloc.h"
#include "parlour/record.h"
#include "parlour/words.h"
#include "public/kar_practice.h"

_Static_assert(KARP_NPOEMS == KAR_NPOEMS, "poem count");
_Static_assert(KARP_DEPTH == KAR_DEPTH, "kimariji depth");
_Static_assert(KARP_MAXTOUCH == KAR_MAXTOUCH, "touches per reading");
_Static_assert(KARP_MS_MAX == KAR_MS_MAX, "largest touch time");

#define KARP_SOLO_ROWS 5  /* chirashi field: A..E */
#define KARP_SOLO_COLS 20 /* 01..20 */

/* One reading, for the statistics (KA-R16). */
typedef struct karp_stat {
    int card, kim, decide_ms, taker, take_ms, fouls;
} karp_stat;

struct karp {
    pl_match *m;
    bool solo;
    bool uta;            /* uta-karuta for 4: hands A-D (A yours), the pool P (KA-U) */
    int nseats;          /* 2 kyōgi; chirashi 1 + opponents */
    const char *level;   /* bot level of the computer players, NULL: fixed delay */
    char level_buf[32];
    int delay_ms, readings;
    uint8_t field_at[KARP_SOLO_ROWS][KARP_SOLO_COLS]; /* solo: card under A01..E20, 0 none */
    char label_of[KAR_NPOEMS + 1][KARP_LABEL];        /* solo: label of each card on the field */
    karp_stat st[KAR_NPOEMS];
    int nst;
    /* the open (or last) reading */
    bool open, turn_over;
    int card, decide_ms, ai_ms, end_ms, deadline;
    kar_kana tl[2 * KAR_TL_MAX];
    int ntl;
    kar_kana pre[2 * KAR_TL_MAX]; /* the previous poem's lower half, from the prelude's start */
    int npre, pre_ms, prev;       /* its kana, the prelude's length, the previous card */
    pl_action bot_act[PL_MAX_SEATS]; /* computer players' responses to the open reading */
    kar_touch touch[KAR_MAXTOUCH];
    char touch_label[KAR_MAXTOUCH][KARP_LABEL];
    int nt;
    pl_buf said, stats;
    pl_lang lang; /* the judgement's and statistics' words (karp_options.lang) */
};

struct karp_kim {
    kar_kim k;
};

static const kar_state *karp_state(const karp *p) { return p->m->state; }

/* ---- the session ---- */

karp *karp_new(const karp_options *o, pl_buf *err)
{
    static const char *const fixed[] = {"variant=", "players=", "send=", "place=", "seed=", "rearrange=", "pool="};
    if (o->delay_ms < 0 || o->delay_ms > KARP_DELAY_MAX) {
        pl_buf_printf(err, "the opponent's delay wants 0-%d ms, got %d", KARP_DELAY_MAX, o->delay_ms);
        return NULL;
    }
    if (o->readings < 0 || o->readings > KAR_NPOEMS) {
        pl_buf_printf(err, "the number of readings wants 1-%d (0: to the end), got %d", KAR_NPOEMS, o->readings);
        return NULL;
    }
    if (o->uta && o->solo) {
        pl_buf_puts(err, "uta-karuta or chirashi, not both");
        return NULL;
    }
    if (o->opponents < 0 || o->opponents > 7 || (o->opponents && !o->solo)) {
        pl_buf_printf(err, "computer players on the chirashi field: 0-7 (kyogi has its one opponent), got %d",
                      o->opponents);
        return NULL;
    }
    if (o->level && !kar_bot_find(o->level)) {
        pl_buf_printf(err, "unknown karuta level '%s'; levels: easy medium hard champion ", o->level);
        kar_bot_levels(err);
        return NULL;
    }
    if (o->level && strlen(o->level) >= 32) {
        pl_buf_puts(err, "a level name is at most 31 bytes");
        return NULL;
    }
    if (o->nwords < 0 || o->nwords > 32) {
        pl_buf_printf(err, "at most 32 game options, got %d", o->nwords);
        return NULL;
    }
    char *words[40], seedw[64], playersw[24];
    int nw = 0;
    snprintf(playersw, sizeof playersw, "players=%d", 1 + o->opponents);
    words[nw++] = o->solo ? "variant=chirashi" : o->uta ? "variant=uta" : "variant=kyogi";
    words[nw++] = o->solo ? playersw : o->uta ? "pool=auto" : "send=manual";
    if (!o->solo && !o->uta)
        words[nw++] = "place=auto";
    if (o->seed) {
        snprintf(seedw, sizeof seedw, "seed=%s", o->seed);
        words[nw++] = seedw;
    }
    for (int i = 0; i < o->nwords; i++) {
        for (size_t k = 0; k < sizeof fixed / sizeof *fixed; k++)
            if (!strncmp(o->words[i], fixed[k], strlen(fixed[k]))) {
                pl_buf_printf(err, "%s is set by the practice (use --seed for the seed)", o->words[i]);
                return NULL;
            }
        words[nw++] = o->words[i];
    }
    karp *p = pl_calloc(1, sizeof *p);
    if (!p) {
        pl_buf_puts(err, "out of memory");
        return NULL;
    }
    p->m = pl_match_new(&kar_game, nw, words, err);
    if (!p->m) {
        pl_free(p);
        return NULL;
    }
    p->solo = o->solo;
    p->lang = (unsigned)o->lang < PL_LANG_COUNT ? (pl_lang)o->lang : PL_LANG_EN;
    p->uta = o->uta;
    p->nseats = o->solo ? 1 + o->opponents : o->uta ? 4 : 2;
    if (o->level) {
        snprintf(p->level_buf, sizeof p->level_buf, "%s", o->level);
        p->level = p->level_buf;
    } else if (o->opponents || o->uta) {
        p->level = "medium";
    }
    p->delay_ms = o->delay_ms;
    p->readings = o->readings;
    p->ai_ms = -1;
    if (p->solo) { /* field labels in poem order: A01..A20, B01.. */
        int i = 0;
        for (int card = 1; card <= KAR_NPOEMS; card++)
            if (karp_state(p)->loc[card] == KAR_LOC_FIELD) {
                p->field_at[i / KARP_SOLO_COLS][i % KARP_SOLO_COLS] = (uint8_t)card;
                snprintf(p->label_of[card], KARP_LABEL, "%c%02d", 'A' + i / KARP_SOLO_COLS,
                         i % KARP_SOLO_COLS + 1);
                i++;
            }
    }
    return p;
}

void karp_free(karp *p)
{
    if (!p)
        return;
    pl_match_free(p->m);
    pl_buf_free(&p->said);
    pl_buf_free(&p->stats);
    pl_free(p);
}

bool karp_handles(const struct pl_game *g) { return g == &kar_game; }

uint64_t karp_seed(const karp *p) { return p->m->seed; }
bool karp_solo(const karp *p) { return p->solo; }
bool karp_uta(const karp *p) { return p->uta; }

/* Uta: the location of zone `z` (0..3 a hand, 4 the pool). */
static int karp_uta_loc(int z) { return z < 4 ? z : KAR_LOC_POOL; }

/* Uta: the `i`-th card (0-based, poem order) at location `loc`, or 0. */
static int karp_uta_nth(const kar_state *s, int loc, int i)
{
    for (int c = 1; c <= KAR_NPOEMS; c++)
        if (s->loc[c] == loc && i-- == 0)
            return c;
    return 0;
}

/* Uta: cards at location `loc`. */
static int karp_uta_count(const kar_state *s, int loc)
{
    int n = 0;
    for (int c = 1; c <= KAR_NPOEMS; c++)
        n += s->loc[c] == loc;
    return n;
}
int karp_seats(const karp *p) { return p->nseats; }
const char *karp_level(const karp *p) { return p->level; }
int karp_memo_s(const karp *p) { return karp_state(p)->memo_s; }
int karp_delay_ms(const karp *p) { return p->delay_ms; }
int karp_pause_ms(const karp *p) { return karp_state(p)->pause_ms; }

void karp_get_status(const karp *p, karp_status *out)
{
    const kar_state *s = karp_state(p);
    out->nread = s->nread;
    memset(out->count, 0, sizeof out->count);
    for (int q = 0; q < p->nseats && q < 8; q++)
        out->count[q] = s->count[q];
    out->pot = s->pot;
    out->over = s->stage == KAR_ST_OVER;
    out->winner = out->over && p->nseats > 1 ? s->winner : -1;
}

bool karp_done(const karp *p)
{
    return p->m->game->phase(p->m->state) == PL_PHASE_OVER ||
           (p->readings && karp_state(p)->nread >= p->readings);
}

/* ---- one reading ---- */

static int karp_touch_ms(pl_action a, int card);

/* Sets the prelude of the reading about to open (KA-R5): the previous
 * poem's lower half (kyōgi), its last kana held yoin_ms, then the pause. */
static void karp_prelude(karp *p, const kar_state *s)
{
    p->npre = 0;
    p->pre_ms = s->pause_ms;
    if (p->solo || !p->prev)
        return;
    kar_kana whole[2 * KAR_TL_MAX];
    int n = kar_timeline(p->prev, s->upper_ms, s->lower_ms, true, s->tempo_even, whole, 2 * KAR_TL_MAX);
    int nup = kar_timeline(p->prev, s->upper_ms, s->lower_ms, false, s->tempo_even, p->pre, 2 * KAR_TL_MAX);
    /* the lower half from its first kana (upper_ms with tempo=poem, the upper
     * half's end with tempo=even); it lasts lower_ms with tempo=poem */
    int from = n > nup ? whole[nup].start_ms : s->upper_ms;
    int lower = n > nup ? whole[n - 1].end_ms - from : s->lower_ms;
    for (int i = nup; i < n; i++) {
        p->pre[p->npre] = whole[i];
        p->pre[p->npre].start_ms -= from;
        p->pre[p->npre].end_ms -= from;
        p->npre++;
    }
    p->pre_ms = lower + s->yoin_ms + s->pause_ms;
}

int karp_start(karp *p, pl_buf *err)
{
    if (p->open) {
        pl_buf_puts(err, "a reading is open: finish it first");
        return -1;
    }
    if (karp_send_owed(p)) {
        pl_buf_puts(err, "you owe cards: send them first (karp_send)");
        return -1;
    }
    if (karp_done(p))
        return 0;
    pl_action rd;
    if (pl_match_random(p->m, &rd, err) < 0)
        return -1;
    const kar_state *s = karp_state(p);
    while (p->uta && s->stage == KAR_ST_READ && s->last.void_reading && !karp_done(p)) { /* KA-U11: a card out of play */
        if (pl_match_random(p->m, &rd, err) < 0)
            return -1;
        s = karp_state(p);
    }
    if (p->uta && s->stage == KAR_ST_OVER)
        return 0;
    if (s->stage != KAR_ST_TOUCH) { /* cannot happen in kyōgi or chirashi (only uta has void readings) */
        pl_buf_puts(err, "the reading opened no touch");
        pl_match_undo(p->m, NULL);
        return -1;
    }
    int card = s->cur;
    p->card = card;
    p->decide_ms = s->last.decide_ms;
    p->ntl = kar_timeline(card, s->upper_ms, s->lower_ms, p->solo, s->tempo_even, p->tl, 2 * KAR_TL_MAX);
    p->end_ms = p->ntl ? p->tl[p->ntl - 1].end_ms : s->upper_ms;
    karp_prelude(p, s);
    p->prev = card;
    p->ai_ms = -1;
    for (int q = 1; q < p->nseats; q++) {
        int ms = -1;
        if (p->level) { /* the game's bot, seeded by the match: the same seed, the same answers */
            uint64_t seed = p->m->seed ^ (0x9e3779b97f4a7c15ull * (uint64_t)(s->nread * 8 + q));
            if (kar_bot(s, q, p->level, seed, &p->bot_act[q], err) < 0) {
                pl_match_undo(p->m, NULL);
                return -1;
            }
            ms = p->bot_act[q] & KAR_A_TOUCH ? karp_touch_ms(p->bot_act[q], card) : -1;
            int own = kar_owner(s, card);
            if (p->uta && own >= 0 && own != q && ms >= 0 && ms < s->owner_ms)
                ms = -1; /* inside the owner's window: ignored (KA-U11) */
        } else if (kar_owner(s, card) >= 0) {
            ms = p->decide_ms + p->delay_ms > KAR_MS_MAX ? KAR_MS_MAX : p->decide_ms + p->delay_ms;
            kar_touch t = {(uint8_t)card, (uint16_t)ms};
            p->bot_act[q] = kar_touch_action(&t, 1);
        } else {
            p->bot_act[q] = KAR_A_NONE;
        }
        if (ms >= 0 && (p->ai_ms < 0 || ms < p->ai_ms))
            p->ai_ms = ms;
    }
    p->deadline = p->end_ms + KARP_GRACE_MS;
    if (p->ai_ms >= 0 && p->ai_ms + s->tie_ms + 1 < p->deadline)
        p->deadline = p->ai_ms + s->tie_ms + 1; /* the opponent has taken it: ties still count */
    if (p->deadline > KAR_MS_MAX)
        p->deadline = KAR_MS_MAX;
    p->nt = 0;
    p->open = true;
    p->turn_over = false;
    return 1;
}

int karp_prelude_ms(const karp *p) { return p->pre_ms; }
int karp_prelude_count(const karp *p) { return p->npre; }
const char *karp_prelude_kana(const karp *p, int i) { return i >= 0 && i < p->npre ? p->pre[i].kana : ""; }
int karp_prelude_start_ms(const karp *p, int i) { return i >= 0 && i < p->npre ? p->pre[i].start_ms : -1; }

int karp_card(const karp *p) { return p->card; }
int karp_decide_ms(const karp *p) { return p->decide_ms; }
int karp_kana_count(const karp *p) { return p->ntl; }

const char *karp_kana(const karp *p, int i) { return i >= 0 && i < p->ntl ? p->tl[i].kana : ""; }

int karp_kana_start_ms(const karp *p, int i) { return i >= 0 && i < p->ntl ? p->tl[i].start_ms : -1; }

int karp_kana_shown(const karp *p, int t_ms)
{
    int n = 0;
    while (n < p->ntl && p->tl[n].start_ms <= t_ms)
        n++;
    return n;
}

int karp_reading_end_ms(const karp *p) { return p->end_ms; }
int karp_ai_ms(const karp *p) { return p->ai_ms; }
int karp_deadline_ms(const karp *p) { return p->deadline; }

/* Parses a slot label into its letter (upper case) and number; false when
 * it is not a letter and two digits. */
static bool karp_parse_label(const char *label, int *letter, int *n)
{
    if (!label || !isalpha((unsigned char)label[0]) || !isdigit((unsigned char)label[1]) ||
        !isdigit((unsigned char)label[2]) || label[3])
        return false;
    *letter = toupper((unsigned char)label[0]);
    *n = (label[1] - '0') * 10 + (label[2] - '0');
    return true;
}

int karp_card_at(const karp *p, const char *label)
{
    int L, n;
    if (!karp_parse_label(label, &L, &n))
        return 0;
    if (p->uta) {
        int z = L == 'P' ? 4 : L - 'A';
        return z >= 0 && z <= 4 && n >= 1 ? karp_uta_nth(karp_state(p), karp_uta_loc(z), n - 1) : 0;
    }
    if (p->solo)
        return L >= 'A' && L < 'A' + KARP_SOLO_ROWS && n >= 1 && n <= KARP_SOLO_COLS
                   ? p->field_at[L - 'A'][n - 1]
                   : 0;
    if (L < 'A' || L > 'F' || n < 1 || n > KAR_SLOTS)
        return 0;
    int t = (L - 'A') / 3, row = (L - 'A') % 3 + 1;
    return karp_state(p)->grid[t][row - 1][n - 1];
}

bool karp_label(const karp *p, int card, char *out)
{
    const kar_state *s = karp_state(p);
    out[0] = '\0';
    if (card < 1 || card > KAR_NPOEMS)
        return false;
    if (p->uta) {
        int l = s->loc[card];
        if (l < 4 || l == KAR_LOC_POOL) {
            int i = 0;
            for (int c = 1; c < card; c++)
                i += s->loc[c] == l;
            snprintf(out, KARP_LABEL, "%c%02u", l < 4 ? 'A' + l : 'P', (unsigned)(i + 1) % 100u);
        }
    } else if (p->solo) {
        if (s->loc[card] == KAR_LOC_FIELD)
            snprintf(out, KARP_LABEL, "%s", p->label_of[card]);
    } else if (kar_owner(s, card) >= 0 && s->row[card]) {
        kar_slot_label(s->loc[card], s->row[card], s->slot[card], out);
    }
    return out[0] != '\0';
}

int karp_touch(karp *p, const char *label, int ms, pl_buf *err)
{
    int L, n;
    if (!p->open) {
        pl_buf_puts(err, pl_words(p->lang, "karp.err.no_reading"));
        return -1;
    }
    if (p->turn_over) {
        pl_buf_puts(err, pl_words(p->lang, "karp.err.turn_over"));
        return -1;
    }
    if (ms < 0) {
        char v[12];
        snprintf(v, sizeof v, "%d", ms);
        pl_words_put(err, p->lang, "karp.err.ms", "ms", v, NULL);
        return -1;
    }
    const char *field = pl_words(p->lang, p->uta    ? "karp.err.field.uta"
                                          : p->solo ? "karp.err.field.solo"
                                                    : "karp.err.field.kyogi");
    if (!karp_parse_label(label, &L, &n)) {
        pl_words_put(err, p->lang, "karp.err.not_label", "label", label ? label : "", "field", field, NULL);
        return -1;
    }
    if (p->uta ? (L < 'A' || L > 'D') && L != 'P'
               : L < 'A' || L > (p->solo ? 'A' + KARP_SOLO_ROWS - 1 : 'F') || n < 1 ||
                     n > (p->solo ? KARP_SOLO_COLS : KAR_SLOTS)) {
        pl_words_put(err, p->lang, "karp.err.off_field", "label", label, "field", field, NULL);
        return -1;
    }
    int c = karp_card_at(p, label);
    if (!c) {
        pl_words_put(err, p->lang, "karp.err.empty", "label", label, NULL);
        return -1;
    }
    for (int i = 0; i < p->nt; i++)
        if (p->touch[i].card == c) {
            pl_words_put(err, p->lang, "karp.err.touched", "label", label, NULL);
            return -1;
        }
    snprintf(p->touch_label[p->nt], KARP_LABEL, "%c%02d", L, n);
    p->touch[p->nt++] = (kar_touch){(uint8_t)c, (uint16_t)(ms > KAR_MS_MAX ? KAR_MS_MAX : ms)};
    p->turn_over = c == p->card || p->nt == (p->uta ? 1 : KAR_MAXTOUCH); /* uta: one answer (KA-U11) */
    return p->turn_over;
}

int karp_touch_count(const karp *p) { return p->nt; }

int karp_touch_get(const karp *p, int i, char *label)
{
    label[0] = '\0';
    if (i < 0 || i >= p->nt)
        return -1;
    snprintf(label, KARP_LABEL, "%s", p->touch_label[i]);
    return p->touch[i].ms;
}

/* First touch time of `card` in action `a`, or -1. */
static int karp_touch_ms(pl_action a, int card)
{
    kar_touch t[KAR_MAXTOUCH];
    int n = kar_touch_list(a, t);
    for (int i = 0; i < n; i++)
        if (t[i].card == card)
            return t[i].ms;
    return -1;
}

/* ---- The judgement and the statistics in the player's words ----
 * (karp_options.lang; words.h, keys karp.j.* and karp.st.*): English names
 * the rules (KA-R7 ...), the other languages do not; English adds the
 * engine's own line (karp_compose). */

static int karp_cmp_int(const void *a, const void *b);

/* `v` as decimal into `b` (16 bytes); `sign`: with its sign ("+120"). */
static const char *karp_num(char *b, int v, bool sign)
{
    snprintf(b, 16, sign ? "%+d" : "%d", v);
    return b;
}

/* The key `base` for seat `q`: base.you, base.ai (kyōgi's opponent) or
 * base.cpu (a computer player, {n} its number), into `key` (64 bytes). */
static const char *karp_key_who(const karp *p, int q, const char *base, char *key)
{
    snprintf(key, 64, "%s.%s", base, q == 0 ? "you" : !p->solo && !p->uta ? "ai" : "cpu");
    return key;
}

/* Appends the blank between two sentences: none after Japanese 。 */
static void karp_gap(pl_buf *out)
{
    if (out->len && !(out->len >= 3 && !memcmp(pl_buf_str(out) + out->len - 3, "\xE3\x80\x82", 3)))
        pl_buf_putc(out, ' ');
}

/* Appends `key`'s sentence for seat `q` (karp_key_who) after a blank, with
 * {n} the seat, {ms}, {d} (signed) and {k} filled from the numbers given. */
static void karp_say(const karp *p, pl_buf *out, const char *base, int q, int ms, int d, int k)
{
    char key[64], qs[16], a[16], b[16], c[16];
    karp_gap(out);
    pl_words_put(out, p->lang, q >= 0 ? karp_key_who(p, q, base, key) : base, "n", karp_num(qs, q, false), "ms",
                 karp_num(a, ms, false), "d", karp_num(b, d, true), "k", karp_num(c, k, false), NULL);
}

/* Appends why the reading went as it did (the engine's judgement `j`,
 * KA-R7 .. KA-R12, KA-S3, KA-U4 .. KA-U11) in p->lang. */
static void karp_words(const karp *p, const kar_judgement *j, pl_buf *out)
{
    const kar_state *s = karp_state(p);
    pl_lang l = p->lang;
    int you = karp_touch_ms(j->resp[0], j->card), ai = p->solo ? -1 : karp_touch_ms(j->resp[1], j->card);
    char r[16], card[16], k[16], ms[16];
    pl_buf kana = {0}, t = {0};
    kar_key_text(j->card, j->kim, &kana);
    pl_words_put(&t, l, "karp.j.head", "r", karp_num(r, s->nread, false), "card", karp_num(card, j->card, false),
                 "kana", pl_buf_str(&kana), "k", karp_num(k, j->kim, false), "ms", karp_num(ms, j->decide_ms, false),
                 NULL);
    pl_buf_free(&kana);
    int d = j->take_ms - j->decide_ms;
    if (p->uta) {
        if (j->where < 4)
            karp_say(p, &t, "karp.j.uta.lay", j->where, 0, 0, 0);
        else
            karp_say(p, &t, "karp.j.uta.lay.pool", -1, 0, 0, 0);
        if (j->taker >= 0)
            karp_say(p, &t, "karp.j.uta.took", j->taker, j->take_ms, d, 0);
        else
            karp_say(p, &t, "karp.j.uta.nobody", -1, 0, 0, 0);
        kar_touch tt[KAR_MAXTOUCH];
        int mine = kar_touch_list(j->resp[0], tt) > 0 ? tt[0].ms : -1;
        if (j->where < 4 && j->where != 0 && mine >= 0 && mine < s->owner_ms && j->taker != 0)
            karp_say(p, &t, "karp.j.uta.window", -1, mine, 0, s->owner_ms);
        for (int q = 0; q < p->nseats; q++)
            if (j->fouls[q])
                karp_say(p, &t, "karp.j.uta.wrong", q, 0, 0, 0);
        if (j->moved)
            karp_say(p, &t, j->moved == 1 ? "karp.j.uta.moved.one" : "karp.j.uta.moved", -1, 0, 0, j->moved);
    } else if (p->solo && p->nseats == 1) {
        if (j->taker == 0)
            karp_say(p, &t, "karp.j.solo.took", -1, j->take_ms, d, 0);
        else
            karp_say(p, &t, j->where == KAR_LOC_FIELD ? "karp.j.solo.nobody" : "karp.j.field.dead", -1, 0, 0, 0);
        if (j->fouls[0])
            karp_say(p, &t, s->foul_pot ? "karp.j.solo.foul.pot" : "karp.j.solo.foul", -1, 0, 0, 0);
    } else if (p->solo) {
        if (j->taker > 0 && you >= 0) { /* a computer took it, and you touched it too */
            char n[16], a[16], b[16], c[16];
            karp_gap(&t);
            pl_words_put(&t, l, "karp.j.field.took_touched", "n", karp_num(n, j->taker, false), "ms",
                         karp_num(a, j->take_ms, false), "d", karp_num(b, d, true), "you", karp_num(c, you, false),
                         NULL);
        } else if (j->taker >= 0) {
            karp_say(p, &t, "karp.j.field.took", j->taker, j->take_ms, d, 0);
        } else {
            karp_say(p, &t, j->where == KAR_LOC_FIELD ? "karp.j.field.nobody" : "karp.j.field.dead", -1, 0, 0, 0);
        }
        for (int q = 0; q < p->nseats; q++)
            if (j->fouls[q])
                karp_say(p, &t, s->foul_pot ? "karp.j.field.foul.pot" : "karp.j.field.foul", q, 0, 0, 0);
    } else {
        const char *side = j->where == 0 ? "karp.j.side.you" : j->where == 1 ? "karp.j.side.ai" : "karp.j.side.none";
        char key[64], a[16], b[16], c[16], e[16];
        if (j->taker >= 0) {
            int other = j->taker == 0 ? ai : you;
            const char *base = other >= 0 && abs(you - ai) <= s->tie_ms ? "karp.j.tie"
                               : other >= 0                            ? "karp.j.took_vs"
                                                                       : "karp.j.took_alone";
            karp_gap(&t);
            pl_words_put(&t, l, karp_key_who(p, j->taker, base, key), "side", pl_words(l, side), "tie",
                         karp_num(a, s->tie_ms, false), "you", karp_num(b, you, false), "ai", karp_num(c, ai, false),
                         "ms", karp_num(e, j->take_ms, false), "other", karp_num(r, other, false), "d",
                         karp_num(k, d, true), NULL);
        } else if (j->where >= 2) {
            karp_say(p, &t, "karp.j.dead", -1, 0, 0, 0);
        } else {
            karp_gap(&t);
            pl_words_put(&t, l, "karp.j.nobody", "side", pl_words(l, side), NULL);
        }
        for (int q = 0; q < 2; q++)
            if (j->fouls[q])
                karp_say(p, &t, j->fouls[q] == 1 ? "karp.j.foul.one" : "karp.j.foul", q, 0, 0, j->fouls[q]);
        if (j->sender >= 0) {
            int owed = j->owed > j->sent ? j->owed - j->sent : 0;
            bool owing = j->sender == 0 && owed && s->stage == KAR_ST_SEND;
            pl_buf list = {0};
            for (int i = 0; i < j->sent; i++) {
                if (i)
                    pl_buf_puts(&list, pl_words(l, "result.list_sep"));
                pl_buf_printf(&list, "%d", j->sent_cards[i]);
            }
            int n = owing ? owed : j->sent;
            const char *base = owing ? (j->sent ? "karp.j.owe_sent" : "karp.j.owe")
                               : j->sent ? (j->sender == 0 ? "karp.j.send.you" : "karp.j.send.ai")
                                         : (j->sender == 0 ? "karp.j.send0.you" : "karp.j.send0.ai");
            snprintf(key, sizeof key, "%s%s", base, n == 1 ? ".one" : ""); /* "1 card" */
            karp_gap(&t);
            pl_words_put(&t, l, key, "k", karp_num(a, n, false), "cards", pl_buf_str(&list), NULL);
            t.oom |= list.oom;
            pl_buf_free(&list);
        } else {
            int r0 = (j->taker == 0 && j->where == 1) + j->fouls[1], r1 = (j->taker == 1 && j->where == 0) + j->fouls[0];
            if (r0 && r0 == r1)
                karp_say(p, &t, "karp.j.cancel", -1, 0, 0, 0);
        }
    }
    pl_buf_puts(out, pl_buf_str(&t));
    out->oom |= t.oom;
    pl_buf_free(&t);
}

/* Appends the statistics in p->lang (karp_stats). */
static void karp_stats_words(karp *p, pl_buf *out)
{
    const kar_state *s = karp_state(p);
    pl_lang l = p->lang;
    int d[KAR_NPOEMS], n = 0, ai = 0, fouls = 0;
    char a[16], b[16], c[16], e[16];
    pl_words_put(out, l, p->nst == 1 ? "karp.st.head.one" : "karp.st.head", "n", karp_num(a, p->nst, false), NULL);
    pl_buf_putc(out, '\n');
    pl_buf_puts(out, pl_words(l, "karp.st.cols"));
    pl_buf_putc(out, '\n');
    for (int i = 0; i < p->nst; i++) {
        const karp_stat *r = &p->st[i];
        fouls += r->fouls;
        ai += r->taker == 1;
        if (r->taker != 0)
            continue;
        d[n++] = r->take_ms - r->decide_ms;
        pl_buf_printf(out, "  %4d  %d ", r->card, r->kim);
        kar_key_text(r->card, r->kim, out);
        pl_buf_printf(out, "%*s%+6d\n", 2 * (KAR_DEPTH - r->kim) + 4, "", r->take_ms - r->decide_ms);
    }
    if (n) {
        long sum = 0;
        for (int i = 0; i < n; i++)
            sum += d[i];
        qsort(d, (size_t)n, sizeof *d, karp_cmp_int);
        double med = n % 2 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2.0;
        char mean[24], median[24];
        snprintf(mean, sizeof mean, "%+.0f", (double)sum / n);
        snprintf(median, sizeof median, "%+.0f", med);
        pl_words_put(out, l, "karp.st.took", "n", karp_num(a, n, false), "mean", mean, "median", median, NULL);
    } else {
        pl_buf_puts(out, pl_words(l, "karp.st.none"));
    }
    pl_buf_putc(out, '\n');
    pl_buf counts = {0};
    for (int q = 0; (p->uta || p->solo) && q < p->nseats; q++) { /* every seat's cards (uta, chirashi) */
        if (q)
            pl_buf_puts(&counts, pl_words(l, "result.list_sep"));
        char key[64];
        pl_words_put(&counts, l, karp_key_who(p, q, "karp.st.count", key), "n", karp_num(a, q, false), "count",
                     karp_num(b, s->count[q], false), NULL);
    }
    karp_num(a, fouls, false);
    if (p->uta)
        pl_words_put(out, l, "karp.st.uta", "wrong", a, "counts", pl_buf_str(&counts), "pool",
                     karp_num(b, karp_uta_count(s, KAR_LOC_POOL), false), NULL);
    else if (!p->solo)
        pl_words_put(out, l, "karp.st.kyogi", "ai", karp_num(b, ai, false), "fouls", a, "you",
                     karp_num(c, s->count[0], false), "them", karp_num(e, s->count[1], false), NULL);
    else if (p->nseats > 1)
        pl_words_put(out, l, "karp.st.field", "fouls", a, "counts", pl_buf_str(&counts), "pot",
                     karp_num(b, s->pot, false), NULL);
    else
        pl_words_put(out, l, "karp.st.solo", "fouls", a, "taken", karp_num(b, s->count[0], false), "pot",
                     karp_num(c, s->pot, false), NULL);
    out->oom |= counts.oom;
    pl_buf_free(&counts);
    pl_buf_putc(out, '\n');
    if (s->stage == KAR_ST_OVER) {
        char key[64];
        const char *k = NULL;
        if ((p->uta || (p->solo && p->nseats > 1)) && s->winner >= 0)
            k = karp_key_who(p, s->winner, p->uta ? "karp.st.win" : "karp.st.most", key);
        else if (p->uta)
            k = "karp.st.draw";
        else if (p->solo && p->nseats > 1)
            k = "karp.st.tie";
        else if (p->solo)
            k = "karp.st.solo_over";
        else
            k = s->winner == 0 ? "karp.st.kyogi.win" : s->winner == 1 ? "karp.st.win.ai" : "karp.st.draw";
        pl_words_put(out, l, k, "n", karp_num(a, s->winner, false), NULL);
        pl_buf_putc(out, '\n');
    }
}

/* Writes the judgement of the last reading (words, then the engine's line). */
static void karp_compose(karp *p)
{
    const kar_state *s = karp_state(p);
    pl_buf_clear(&p->said);
    karp_words(p, &s->last, &p->said);
    if (p->lang == PL_LANG_EN) { /* the engine's line: the protocol's words, English */
        pl_buf_puts(&p->said, "\nEngine: ");
        kar_judgement_text(s, &s->last, &p->said);
    }
}

/* The lowest card in `seat`'s territory, or 0. */
static int karp_lowest(const kar_state *s, int seat)
{
    for (int c = 1; c <= KAR_NPOEMS; c++)
        if (s->loc[c] == seat)
            return c;
    return 0;
}

/* Lets the computer players send what they owe (KA-R9): the bot's choice,
 * or the fixed-delay opponent's lowest card. Stops when the player must
 * choose or the sends are over. Returns 0, or -1 with a message. */
static int karp_bot_sends(karp *p, pl_buf *err)
{
    for (;;) {
        const kar_state *s = karp_state(p);
        if (s->stage != KAR_ST_SEND || s->last.sender <= 0)
            return 0;
        int q = s->last.sender;
        pl_action a = KAR_A_SEND | (pl_action)karp_lowest(s, q);
        if (p->level && kar_bot(s, q, p->level, p->m->seed ^ (uint64_t)(s->nread * 131 + s->last.sent), &a, err) < 0)
            return -1;
        if (pl_match_play(p->m, q, a, err) < 0)
            return -1;
    }
}

int karp_finish(karp *p, pl_buf *err)
{
    if (!p->open) {
        pl_buf_puts(err, "no reading is open");
        return -1;
    }
    pl_match *m = p->m;
    pl_action you = p->nt ? kar_touch_action(p->touch, p->nt) : KAR_A_NONE;
    int hist = m->nhist;
    if (pl_match_play(m, 0, you, err) < 0)
        return -1;
    for (int q = 1; q < p->nseats; q++)
        if (pl_match_play(m, q, p->bot_act[q], err) < 0)
            goto undo;
    if (karp_bot_sends(p, err) < 0)
        goto undo;
    const kar_state *s = karp_state(p);
    const kar_judgement *j = &s->last;
    p->st[p->nst++] = (karp_stat){p->card, j->kim, j->decide_ms, j->taker, j->take_ms, j->fouls[0]};
    karp_compose(p);
    p->open = false;
    return 0;
undo: /* nothing changed: take back what was played of this reading */
    while (m->nhist > hist)
        pl_match_undo(m, NULL);
    return -1;
}

int karp_send_owed(const karp *p)
{
    const kar_state *s = karp_state(p);
    if (p->open || s->stage != KAR_ST_SEND || s->last.sender != 0)
        return 0;
    return s->last.owed - s->last.sent;
}

int karp_send(karp *p, const char *label, pl_buf *err)
{
    if (!karp_send_owed(p)) {
        pl_buf_puts(err, pl_words(p->lang, "karp.err.owe_none"));
        return -1;
    }
    const kar_state *s = karp_state(p);
    int c = label ? karp_card_at(p, label) : karp_lowest(s, 0);
    if (label && !c) {
        int L, n;
        pl_words_put(err, p->lang, karp_parse_label(label, &L, &n) ? "karp.err.empty" : "karp.err.send_label",
                     "label", label, NULL);
        return -1;
    }
    if (kar_owner(s, c) != 0) {
        pl_words_put(err, p->lang, "karp.err.not_yours", "label", label ? label : "?", NULL);
        return -1;
    }
    if (pl_match_play(p->m, 0, KAR_A_SEND | (pl_action)c, err) < 0)
        return -1;
    karp_compose(p);
    return karp_send_owed(p);
}

const char *karp_judgement(const karp *p) { return pl_buf_str(&p->said); }

int karp_save(const karp *p, const char *path, pl_buf *err)
{
    if (p->open) {
        pl_buf_puts(err, "a reading is open: save after it");
        return -1;
    }
    return pl_record_save_file(p->m, path, err);
}

static int karp_cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

const char *karp_stats(karp *p)
{
    pl_buf_clear(&p->stats);
    karp_stats_words(p, &p->stats);
    return pl_buf_str(&p->stats);
}

/* ---- the field ---- */

int karp_wrong_card(const karp *p)
{
    const kar_state *s = karp_state(p);
    if (!p->open)
        return 0;
    if (p->uta) {
        for (int c = 1; c <= KAR_NPOEMS; c++)
            if (c != p->card && (s->loc[c] < 4 || s->loc[c] == KAR_LOC_POOL))
                return c;
        return 0;
    }
    int own = p->solo ? -2 : kar_owner(s, p->card);
    for (int c = 1; c <= KAR_NPOEMS; c++)
        if (c != p->card && (p->solo ? s->loc[c] == KAR_LOC_FIELD
                                     : kar_owner(s, c) >= 0 && kar_owner(s, c) != own &&
                                           (own >= 0 || kar_owner(s, c) == 1)))
            return c;
    return 0;
}

int karp_zones(const karp *p) { return p->uta ? 5 : p->solo ? 1 : 2; }

int karp_zone_size(const karp *p, int z, int *rows, int *cols)
{
    if (z < 0 || z >= karp_zones(p))
        return -1;
    if (p->uta) { /* a hand or the pool: one row of its cards in poem order */
        *rows = 1;
        *cols = karp_uta_count(karp_state(p), karp_uta_loc(z));
        return 0;
    }
    *rows = p->solo ? KARP_SOLO_ROWS : KAR_ROWS;
    *cols = p->solo ? KARP_SOLO_COLS : KAR_SLOTS;
    return 0;
}

int karp_card_unique(int poem) { return kar_card_unique(poem); }

void karp_card_head(int poem, int n, char *out, size_t cap) { kar_card_head(poem, n, out, cap); }

int karp_cell_get(const karp *p, int z, int row, int col, karp_cell *out)
{
    int rows, cols;
    if (karp_zone_size(p, z, &rows, &cols) < 0 || row < 0 || row >= rows || col < 0 || col >= cols)
        return -1;
    const kar_state *s = karp_state(p);
    karp_cell c = {KARP_CELL_EMPTY, 0, p->solo || z == 4 ? -1 : z, "", ""};
    int card;
    if (p->uta) {
        card = karp_uta_nth(s, karp_uta_loc(z), col);
        if (card)
            karp_label(p, card, c.label);
    } else if (p->solo) {
        card = p->field_at[row][col];
        if (!card)
            c.kind = KARP_CELL_NONE;
        else if (s->loc[card] == KAR_LOC_FIELD)
            snprintf(c.label, sizeof c.label, "%s", p->label_of[card]);
        else
            card = 0;
    } else {
        /* seen from seat 0: the opponent's near row at the top, its slots mirrored (as kar_draw) */
        int r = z == 1 ? row + 1 : KAR_ROWS - row, slot = z == 1 ? KAR_SLOTS - col : col + 1;
        card = s->grid[z][r - 1][slot - 1];
        if (card)
            kar_slot_label(z, r, slot, c.label);
    }
    if (card) {
        c.kind = KARP_CELL_CARD;
        c.card = card;
        karp_card_head(card, karp_card_unique(card), c.head, sizeof c.head);
    }
    *out = c;
    return 0;
}

/* ---- poems and kimariji ---- */

const char *karp_poem_poet(int poem)
{
    const kar_poem *q = kar_poem_get(poem);
    return q ? q->poet : NULL;
}

const char *karp_poem_romaji(int poem)
{
    const kar_poem *q = kar_poem_get(poem);
    return q ? q->romaji : NULL;
}

const char *karp_card_text(int poem)
{
    const kar_poem *q = kar_poem_get(poem);
    return q ? q->card : NULL;
}

void karp_poem_key(int poem, int n, pl_buf *out)
{
    if (kar_poem_get(poem))
        kar_key_text(poem, n, out);
}

int karp_kim_static(int poem) { return kar_kim_static(poem); }

karp_kim *karp_kim_new(void)
{
    karp_kim *k = pl_malloc(sizeof *k);
    if (k)
        kar_kim_init(&k->k);
    return k;
}

void karp_kim_free(karp_kim *k) { pl_free(k); }

int karp_kim_read(karp_kim *k, int poem)
{
    if (poem < 1 || poem > KAR_NPOEMS)
        return -1;
    kar_kim_read(&k->k, poem);
    return 0;
}

bool karp_kim_is_read(const karp_kim *k, int poem) { return poem >= 1 && poem <= KAR_NPOEMS && !k->k.unread[poem]; }

int karp_kim_dynamic(const karp_kim *k, int poem)
{
    return poem >= 1 && poem <= KAR_NPOEMS ? kar_kim_dynamic(&k->k, poem) : 0;
}
