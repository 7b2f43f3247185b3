/* kar_poems.c — the hundred poems, read once at start-up from the CSV built
 * into the program (game.cmake): NFC strings (utf8proc), the sound keys of
 * KA-K1, the static kimariji of KA-K2, the competition reading as a kana
 * timeline (KA-R5), and Hepburn romaji generated from the modern reading.
 *
 * No heap: strings live in one static pool; NFC goes through utf8proc's
 * decompose/reencode on a stack buffer (the same steps as utf8proc_NFC,
 * without its malloc). The CSV has no quoting (SOURCE.md), so a line splits
 * on commas.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "kar.h"

extern const unsigned char kar_csv_data[];
extern const size_t kar_csv_size;

void kar_kim_setup(void); /* kar_kimariji.c: builds the trie from the keys */

/* Filled once by kar_poems_load, a constructor (before main and any
 * thread); read-only afterwards, the pool included. */
static kar_poem poems[KAR_NPOEMS + 1];
uint8_t kar_lcp_tab[KAR_NPOEMS + 1][KAR_NPOEMS + 1]; /* kar.h: common key prefix of two poems */
static char pool[160 * 1024];
static size_t pool_used;
static int even_units[2]; /* tempo=even: the mean unit count of the 100 upper / lower halves, rounded */

#define HOLD_LONG 0x30FC  /* ー */
#define HOLD_SHORT 0xFF70 /* ｰ */

static _Noreturn void die(const char *what, int line)
{
    fprintf(stderr, "parlour: the built-in poem data is broken (%s, line %d)\n", what, line);
    abort();
}

/* Copies `n` bytes of `s`, NFC-normalised, into the pool; returns the copy. */
static const char *pool_nfc(const char *s, size_t n, int line)
{
    utf8proc_int32_t buf[2048];
    utf8proc_option_t opt = UTF8PROC_STABLE | UTF8PROC_COMPOSE;
    utf8proc_ssize_t len = utf8proc_decompose((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)n, buf,
                                              2048, opt);
    if (len < 0 || len > 2048)
        die("a field is not valid UTF-8 or too long", line);
    len = utf8proc_reencode(buf, len, opt);
    if (len < 0 || pool_used + (size_t)len + 1 > sizeof pool)
        die("out of room for the texts", line);
    char *dst = pool + pool_used;
    memcpy(dst, buf, (size_t)len);
    dst[len] = '\0';
    pool_used += (size_t)len + 1;
    return dst;
}

/* Field `i` of a split line. */
typedef struct { const char *s[48]; size_t n[48]; int count; } row_t;

static void split(const char *line, size_t len, row_t *r)
{
    r->count = 0;
    const char *p = line, *end = line + len;
    while (r->count < 48) {
        const char *c = memchr(p, ',', (size_t)(end - p));
        r->s[r->count] = p;
        r->n[r->count] = (size_t)((c ? c : end) - p);
        r->count++;
        if (!c)
            break;
        p = c + 1;
    }
}

static int col(const row_t *hdr, const char *name)
{
    for (int i = 0; i < hdr->count; i++)
        if (hdr->n[i] == strlen(name) && !memcmp(hdr->s[i], name, hdr->n[i]))
            return i;
    die(name, 1);
}

/* NFC copy of columns `c[0..k-1]` joined by `sep`. */
static const char *joined(const row_t *r, const int *c, int k, const char *sep, int line)
{
    char tmp[1024];
    size_t n = 0;
    for (int i = 0; i < k; i++) {
        size_t add = r->n[c[i]] + (i ? strlen(sep) : 0);
        if (n + add >= sizeof tmp)
            die("a text is too long", line);
        if (i) {
            memcpy(tmp + n, sep, strlen(sep));
            n += strlen(sep);
        }
        memcpy(tmp + n, r->s[c[i]], r->n[c[i]]);
        n += r->n[c[i]];
    }
    return pool_nfc(tmp, n, line);
}

/* Builds the key of KA-K1 from the modern reading of the upper half. */
static void make_key(kar_poem *p, const char *upper)
{
    const utf8proc_uint8_t *s = (const utf8proc_uint8_t *)upper;
    utf8proc_int32_t cp;
    p->keylen = 0;
    while (*s && p->keylen < KAR_KEYMAX) {
        utf8proc_ssize_t k = utf8proc_iterate(s, -1, &cp);
        if (k <= 0)
            break;
        s += k;
        if (cp == ' ')
            continue;
        /* おう → おお: the same long vowel (poem 44 spells あふ as おう, 60/95 おお). */
        if (cp == 0x3046 && p->keylen > 0 && p->key[p->keylen - 1] == 0x304A)
            cp = 0x304A;
        p->key[p->keylen++] = (uint32_t)cp;
    }
}

/* Kana timeline of one half from its competition reading. */
static void make_timeline(kar_poem *p, int h, const char *text, int line)
{
    const utf8proc_uint8_t *s = (const utf8proc_uint8_t *)text;
    utf8proc_int32_t cp;
    int units = 0, n = 0;
    while (*s) {
        utf8proc_ssize_t k = utf8proc_iterate(s, -1, &cp);
        if (k <= 0)
            die("bad UTF-8 in a reading", line);
        if (cp == HOLD_LONG) {
            units += 2;
        } else if (cp == HOLD_SHORT) {
            units += 1;
        } else if (cp != ' ') {
            if (n >= KAR_TL_MAX || k > 3)
                die("a reading is too long", line);
            p->tl_start[h][n] = (uint16_t)units;
            /* KA-K1 spelled as the sound key: う after お is お (poem 44 おう,
             * 16, 25, 95), so the kana sent never tell more than the key */
            if (cp == 0x3046 && n > 0 && !strcmp(p->tl_kana[h][n - 1], "お")) {
                memcpy(p->tl_kana[h][n], "お", 4);
            } else {
                memcpy(p->tl_kana[h][n], s, (size_t)k);
                p->tl_kana[h][n][k] = '\0';
            }
            n++;
            units += 1;
        }
        s += k;
    }
    p->tl_n[h] = n;
    p->tl_total[h] = units ? units : 1;
}

/* Hepburn syllables for U+3041..U+3093 (small kana share the big form). */
static const char *const rom_tab[] = {
    "a", "a", "i", "i", "u", "u", "e", "e", "o", "o",                 /* ぁ..お */
    "ka", "ga", "ki", "gi", "ku", "gu", "ke", "ge", "ko", "go",       /* か..ご */
    "sa", "za", "shi", "ji", "su", "zu", "se", "ze", "so", "zo",      /* さ..ぞ */
    "ta", "da", "chi", "ji", "", "tsu", "zu", "te", "de", "to", "do", /* た..ど (っ empty) */
    "na", "ni", "nu", "ne", "no",                                     /* な..の */
    "ha", "ba", "pa", "hi", "bi", "pi", "fu", "bu", "pu", "he", "be", "pe", "ho", "bo", "po",
    "ma", "mi", "mu", "me", "mo",                                     /* ま..も */
    "ya", "ya", "yu", "yu", "yo", "yo",                               /* ゃ..よ */
    "ra", "ri", "ru", "re", "ro", "wa", "wa", "i", "e", "o", "n",     /* ら..ん */
};

static bool small_y(utf8proc_int32_t c) { return c == 0x3083 || c == 0x3085 || c == 0x3087; }

void kar_romaji(const char *hira, pl_buf *out)
{
    utf8proc_int32_t cps[512];
    int n = 0;
    const utf8proc_uint8_t *s = (const utf8proc_uint8_t *)hira;
    while (*s && n < 512) {
        utf8proc_int32_t cp;
        utf8proc_ssize_t k = utf8proc_iterate(s, -1, &cp);
        if (k <= 0)
            break;
        s += k;
        cps[n++] = cp;
    }
    bool gem = false;
    for (int i = 0; i < n; i++) {
        utf8proc_int32_t c = cps[i];
        if (c < 0x3041 || c > 0x3093) {
            char u[5] = {0};
            utf8proc_encode_char(c, (utf8proc_uint8_t *)u);
            pl_buf_puts(out, u);
            gem = false;
            continue;
        }
        if (c == 0x3063) { /* っ: double the next consonant */
            gem = true;
            continue;
        }
        char syl[8];
        snprintf(syl, sizeof syl, "%s", rom_tab[c - 0x3041]);
        if (i + 1 < n && small_y(cps[i + 1]) && strlen(syl) >= 2 && syl[strlen(syl) - 1] == 'i') {
            const char *y = rom_tab[cps[i + 1] - 0x3041]; /* ya yu yo */
            size_t l = strlen(syl) - 1;                   /* drop the i */
            bool palatal = !strcmp(syl, "shi") || !strcmp(syl, "chi") || !strcmp(syl, "ji");
            snprintf(syl + l, sizeof syl - l, "%s", palatal ? y + 1 : y);
            i++;
        }
        if (gem) {
            pl_buf_putc(out, syl[0] == 'c' ? 't' : syl[0]);
            gem = false;
        }
        if (c == 0x3093) { /* ん: n' before a vowel or y */
            pl_buf_putc(out, 'n');
            if (i + 1 < n && cps[i + 1] >= 0x3041 && cps[i + 1] <= 0x3093) {
                const char *nx = rom_tab[cps[i + 1] - 0x3041];
                if (strchr("aiueoy", nx[0]) && nx[0])
                    pl_buf_putc(out, '\'');
            }
            continue;
        }
        pl_buf_puts(out, syl);
    }
}

static void compute_static_kimariji(void)
{
    for (int a = 1; a <= KAR_NPOEMS; a++) {
        kar_poem *p = &poems[a];
        int best = 0;
        for (int b = 1; b <= KAR_NPOEMS; b++) {
            if (b == a)
                continue;
            int l = 0;
            while (l < p->keylen && l < poems[b].keylen && p->key[l] == poems[b].key[l])
                l++;
            if (l + 1 > best)
                best = l + 1;
        }
        p->kim = best;
    }
}

__attribute__((constructor)) static void kar_poems_load(void)
{
    const char *text = (const char *)kar_csv_data, *end = text + kar_csv_size;
    const char *nl = memchr(text, '\n', kar_csv_size);
    if (!nl)
        die("no header", 1);
    row_t hdr, r;
    split(text, (size_t)(nl - text), &hdr);
    int c_num = col(&hdr, "number"), c_ak = col(&hdr, "author_kanji"), c_ah = col(&hdr, "author_hiragana");
    int c_kim = col(&hdr, "kimariji_kami_yomi"), c_kk = col(&hdr, "kyougi_yomi_kami_hiragana");
    int c_ks = col(&hdr, "kyougi_yomi_shimo_hiragana");
    int c_kanji[5], c_hira[5], c_yomi[5], c_card[3];
    for (int i = 0; i < 5; i++) {
        char name[40];
        snprintf(name, sizeof name, "verse_%d_kanji", i + 1);
        c_kanji[i] = col(&hdr, name);
        snprintf(name, sizeof name, "verse_%d_hiragana", i + 1);
        c_hira[i] = col(&hdr, name);
        snprintf(name, sizeof name, "verse_%d_hiragana_yomi", i + 1);
        c_yomi[i] = col(&hdr, name);
        if (i < 3) {
            snprintf(name, sizeof name, "torifuda_%d", i + 1);
            c_card[i] = col(&hdr, name);
        }
    }
    int line = 1, seen = 0;
    for (const char *p = nl + 1; p < end; line++) {
        const char *e = memchr(p, '\n', (size_t)(end - p));
        if (!e)
            e = end;
        if (e == p) {
            p = e + 1;
            continue;
        }
        split(p, (size_t)(e - p), &r);
        if (r.count != hdr.count)
            die("a row has the wrong number of columns", line + 1);
        int num = atoi(r.s[c_num]);
        if (num < 1 || num > KAR_NPOEMS || poems[num].number)
            die("bad or repeated poem number", line + 1);
        kar_poem *q = &poems[num];
        q->number = num;
        q->poet = joined(&r, &c_ak, 1, "", line + 1);
        q->poet_kana = joined(&r, &c_ah, 1, "", line + 1);
        q->text = joined(&r, c_kanji, 5, " ", line + 1);
        q->kana = joined(&r, c_hira, 5, " ", line + 1);
        q->reading = joined(&r, c_yomi, 5, " ", line + 1);
        q->kyogi_kami = joined(&r, &c_kk, 1, "", line + 1);
        q->kyogi_shimo = joined(&r, &c_ks, 1, "", line + 1);
        q->card = joined(&r, c_card, 3, " ", line + 1);
        q->kimariji_data = joined(&r, &c_kim, 1, "", line + 1);
        make_key(q, joined(&r, c_yomi, 3, "", line + 1));
        make_timeline(q, 0, q->kyogi_kami, line + 1);
        make_timeline(q, 1, q->kyogi_shimo, line + 1);
        pl_buf rb = {0};
        kar_romaji(q->reading, &rb);
        if (rb.oom)
            die("out of memory", line + 1);
        q->romaji = pool_nfc(pl_buf_str(&rb), rb.len, line + 1);
        pl_buf_free(&rb);
        seen++;
        p = e + 1;
    }
    if (seen != KAR_NPOEMS)
        die("not 100 poems", line);
    for (int h = 0; h < 2; h++) {
        int sum = 0;
        for (int n = 1; n <= KAR_NPOEMS; n++)
            sum += poems[n].tl_total[h];
        even_units[h] = (sum + KAR_NPOEMS / 2) / KAR_NPOEMS;
    }
    compute_static_kimariji();
    kar_kim_setup();
    for (int a = 1; a <= KAR_NPOEMS; a++)
        for (int b = 1; b <= KAR_NPOEMS; b++) {
            int l = 0;
            while (l < poems[a].keylen && l < poems[b].keylen && poems[a].key[l] == poems[b].key[l])
                l++;
            kar_lcp_tab[a][b] = (uint8_t)l;
        }
}

const kar_poem *kar_poem_get(int number)
{
    if (number < 1 || number > KAR_NPOEMS)
        return NULL;
    return &poems[number];
}

void kar_key_text(int number, int n, pl_buf *out)
{
    const kar_poem *p = kar_poem_get(number);
    if (!p)
        return;
    for (int i = 0; i < n && i < p->keylen; i++) {
        char u[5] = {0};
        utf8proc_encode_char((utf8proc_int32_t)p->key[i], (utf8proc_uint8_t *)u);
        pl_buf_puts(out, u);
    }
}

int kar_even_units(int h) { return h == 0 || h == 1 ? even_units[h] : 0; }

/* Time (ms from the half's start) of unit `units` of half `h` of poem `p`:
 * tempo=poem spreads the poem's own units over `span`, tempo=even gives every
 * unit span / even_units[h], so it depends only on the units before. */
static int unit_ms(const kar_poem *p, int h, int units, int span, bool even)
{
    return (int)((long)units * span / (even ? even_units[h] : p->tl_total[h]));
}

int kar_timeline(int number, int upper_ms, int lower_ms, bool whole, bool even, kar_kana *out, int cap)
{
    const kar_poem *p = kar_poem_get(number);
    if (!p)
        return 0;
    int n = 0;
    for (int h = 0; h < (whole ? 2 : 1); h++) {
        int span = h ? lower_ms : upper_ms;
        int base = h ? unit_ms(p, 0, p->tl_total[0], upper_ms, even) : 0; /* the upper half's end */
        for (int i = 0; i < p->tl_n[h]; i++, n++) {
            if (n >= cap)
                continue;
            memcpy(out[n].kana, p->tl_kana[h][i], 4);
            out[n].start_ms = base + unit_ms(p, h, p->tl_start[h][i], span, even);
            int next = i + 1 < p->tl_n[h] ? p->tl_start[h][i + 1] : p->tl_total[h];
            out[n].end_ms = base + unit_ms(p, h, next, span, even);
        }
    }
    return n;
}

int kar_kana_start(int number, int upper_ms, bool even, int k)
{
    const kar_poem *p = kar_poem_get(number);
    if (!p || k < 1)
        return 0;
    int units = k > p->tl_n[0] ? p->tl_total[0] : p->tl_start[0][k - 1];
    return unit_ms(p, 0, units, upper_ms, even);
}

/* Decodes poem `poem`'s card text without its spaces into `cp` (at most
 * `cap` code points); returns how many. */
static int card_cps(int poem, utf8proc_int32_t *cp, int cap)
{
    assert(poem >= 1 && poem <= KAR_NPOEMS);
    const utf8proc_uint8_t *u = (const utf8proc_uint8_t *)poems[poem].card;
    int n = 0;
    for (utf8proc_int32_t c; *u && n < cap;) {
        utf8proc_ssize_t k = utf8proc_iterate(u, -1, &c);
        if (k <= 0)
            break;
        u += k;
        if (c != ' ')
            cp[n++] = c;
    }
    return n;
}

int kar_card_unique(int number)
{
    if (!kar_poem_get(number))
        return 0;
    utf8proc_int32_t a[64], b[64];
    int na = card_cps(number, a, 64), need = 1;
    for (int q = 1; q <= KAR_NPOEMS; q++) {
        if (q == number)
            continue;
        int nb = card_cps(q, b, 64), l = 0;
        while (l < na && l < nb && a[l] == b[l])
            l++;
        if (l + 1 > need)
            need = l + 1;
    }
    return need < na ? need : na;
}

void kar_card_head(int number, int n, char *out, size_t cap)
{
    size_t len = 0;
    if (!cap)
        return;
    out[0] = '\0';
    if (!kar_poem_get(number))
        return;
    utf8proc_int32_t cp[64];
    int m = card_cps(number, cp, 64);
    if (n <= 0 || n > m)
        n = m;
    for (int i = 0; i < n; i++) {
        utf8proc_uint8_t enc[4];
        utf8proc_ssize_t k = utf8proc_encode_char(cp[i], enc);
        if (len + (size_t)k >= cap)
            break;
        memcpy(out + len, enc, (size_t)k);
        len += (size_t)k;
    }
    out[len] = '\0';
}
