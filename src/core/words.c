/* words.c — the terminal's catalogues and text in display columns (words.h).
 *
 * A catalogue is a text file of lines "key = text" ('#' starts a comment
 * line; "\n" in a text is a line break, "\\" a backslash). The build embeds
 * each as a writable byte array (src/core/words.cmake); the first call
 * parses all four in place under pthread_once (keys and texts cut with
 * NULs, escapes undone, entries sorted by key), so no allocation and no
 * lock afterwards. */
#include "parlour/words.h"

#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <utf8proc.h>

extern unsigned char pl_words_data_en[], pl_words_data_ru[], pl_words_data_ja[], pl_words_data_vi[];

#define WORDS_MAX 1024 /* keys per catalogue; more is a build-time mistake (asserted by the tests) */

typedef struct entry {
    const char *key, *text;
} entry;

static struct {
    entry e[WORDS_MAX];
    int n;
} cats[PL_LANG_COUNT];

static const char *const codes[PL_LANG_COUNT] = {"en", "ru", "ja", "vi"};

static int entry_cmp(const void *a, const void *b)
{
    return strcmp(((const entry *)a)->key, ((const entry *)b)->key);
}

/* Undoes the escapes of text `s` in place ("\n", "\\"). */
static void unescape(char *s)
{
    char *w = s;
    for (char *r = s; *r; r++) {
        if (r[0] == '\\' && (r[1] == 'n' || r[1] == '\\')) {
            *w++ = r[1] == 'n' ? '\n' : '\\';
            r++;
        } else {
            *w++ = *r;
        }
    }
    *w = '\0';
}

/* Parses catalogue bytes `s` (NUL-terminated) in place into `lang`'s table. */
static void parse(pl_lang lang, char *s)
{
    int n = 0;
    while (*s) {
        char *eol = strchr(s, '\n');
        char *next = eol ? eol + 1 : s + strlen(s);
        if (eol)
            *eol = '\0';
        char *sep = strstr(s, " = ");
        if (*s != '#' && sep && n < WORDS_MAX) {
            *sep = '\0';
            char *text = sep + 3;
            size_t tl = strlen(text);
            while (tl > 0 && text[tl - 1] == '\r')
                text[--tl] = '\0';
            unescape(text);
            cats[lang].e[n++] = (entry){s, text};
        }
        s = next;
    }
    qsort(cats[lang].e, (size_t)n, sizeof cats[lang].e[0], entry_cmp);
    cats[lang].n = n;
}

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void)
{
    parse(PL_LANG_EN, (char *)pl_words_data_en);
    parse(PL_LANG_RU, (char *)pl_words_data_ru);
    parse(PL_LANG_JA, (char *)pl_words_data_ja);
    parse(PL_LANG_VI, (char *)pl_words_data_vi);
}

int pl_words_lang_parse(const char *code)
{
    for (int i = 0; code && i < PL_LANG_COUNT; i++)
        if (!strcasecmp(code, codes[i]))
            return i;
    return -1;
}

pl_lang pl_words_lang_of_locale(const char *locale)
{
    if (!locale)
        return PL_LANG_EN;
    /* The language is the letters before '_', '.' or '@': "ja_JP.UTF-8" → "ja". */
    char lang[8];
    size_t n = 0;
    while (locale[n] && isalpha((unsigned char)locale[n]) && n + 1 < sizeof lang) {
        lang[n] = locale[n];
        n++;
    }
    lang[n] = '\0';
    if (locale[n] && locale[n] != '_' && locale[n] != '.' && locale[n] != '@')
        return PL_LANG_EN;
    int l = n == 2 ? pl_words_lang_parse(lang) : -1;
    return l < 0 ? PL_LANG_EN : (pl_lang)l;
}

pl_lang pl_words_lang_from_env(void)
{
    static const char *const vars[] = {"LC_ALL", "LC_MESSAGES", "LANG"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v)
            return pl_words_lang_of_locale(v);
    }
    return PL_LANG_EN;
}

const char *pl_words_lang_code(pl_lang lang)
{
    return (unsigned)lang < PL_LANG_COUNT ? codes[lang] : codes[0];
}

const char *pl_words_lang_list(void)
{
    return "en, ru, ja, vi";
}

static const char *lookup(pl_lang lang, const char *key)
{
    entry k = {key, NULL};
    const entry *e = bsearch(&k, cats[lang].e, (size_t)cats[lang].n, sizeof k, entry_cmp);
    return e ? e->text : NULL;
}

const char *pl_words(pl_lang lang, const char *key)
{
    pthread_once(&once, load);
    const char *t = (unsigned)lang < PL_LANG_COUNT ? lookup(lang, key) : NULL;
    if (!t)
        t = lookup(PL_LANG_EN, key);
    return t ? t : key;
}

const char *pl_words_find(pl_lang lang, const char *key)
{
    pthread_once(&once, load);
    return (unsigned)lang < PL_LANG_COUNT ? lookup(lang, key) : NULL;
}

void pl_words_put(pl_buf *out, pl_lang lang, const char *key, ...)
{
    const char *t = pl_words(lang, key);
    for (;;) {
        const char *open = strchr(t, '{');
        const char *close = open ? strchr(open, '}') : NULL;
        if (!close) {
            pl_buf_puts(out, t);
            return;
        }
        pl_buf_append(out, t, (size_t)(open - t));
        size_t nl = (size_t)(close - open - 1);
        const char *val = NULL;
        va_list ap;
        va_start(ap, key);
        for (const char *name; !val && (name = va_arg(ap, const char *));) {
            const char *v = va_arg(ap, const char *);
            if (strlen(name) == nl && !memcmp(name, open + 1, nl))
                val = v ? v : "";
        }
        va_end(ap);
        if (val)
            pl_buf_puts(out, val);
        else
            pl_buf_append(out, open, nl + 2);
        t = close + 1;
    }
}

int pl_words_count(pl_lang lang)
{
    pthread_once(&once, load);
    return (unsigned)lang < PL_LANG_COUNT ? cats[lang].n : 0;
}

const char *pl_words_key_at(pl_lang lang, int i)
{
    return i >= 0 && i < pl_words_count(lang) ? cats[lang].e[i].key : NULL;
}

const char *pl_words_text_at(pl_lang lang, int i)
{
    return i >= 0 && i < pl_words_count(lang) ? cats[lang].e[i].text : NULL;
}

/* ---- Text in display columns ---- */

int pl_words_char_len(const char *s)
{
    unsigned char c = (unsigned char)s[0];
    if (!c)
        return 0;
    int n = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    for (int i = 1; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80)
            return i; /* a broken sequence: its bytes one at a time */
    return n;
}

/* Columns of the one character of `n` bytes at `s`. */
static int char_cols(const char *s, int n)
{
    utf8proc_int32_t cp;
    if (utf8proc_iterate((const utf8proc_uint8_t *)s, n, &cp) != n)
        return 1; /* broken: drawn as one '?' */
    int w = utf8proc_charwidth(cp);
    return w > 0 ? w : 0;
}

int pl_words_cols(const char *s, size_t nbytes)
{
    int cols = 0;
    for (size_t i = 0; i < nbytes && s[i];) {
        int n = pl_words_char_len(s + i);
        cols += char_cols(s + i, n);
        i += (size_t)n;
    }
    return cols;
}

size_t pl_words_fit(const char *s, int cols)
{
    size_t i = 0;
    int used = 0;
    while (s[i]) {
        int n = pl_words_char_len(s + i);
        int w = char_cols(s + i, n);
        if (used + w > cols)
            break;
        used += w;
        i += (size_t)n;
    }
    return i;
}

size_t pl_words_wrap(const char *s, int cols)
{
    size_t i = 0, brk = 0;
    int used = 0;
    while (s[i] && s[i] != '\n') {
        int n = pl_words_char_len(s + i);
        int w = char_cols(s + i, n);
        if (used + w > cols && i > 0)
            return brk > 0 ? brk : i;
        used += w;
        i += (size_t)n;
        if (s[i - 1] == ' ' || (n == 3 && (!memcmp(s + i - 3, "\xE3\x80\x81", 3) ||
                                           !memcmp(s + i - 3, "\xE3\x80\x82", 3))))
            brk = i; /* after a blank, or after Japanese 、 or 。 */
    }
    return i;
}

int pl_canvas_words(pl_canvas *c, int row, int col, pl_style st, const char *key, ...)
{
    const char *nv[12] = {0};
    va_list ap;
    va_start(ap, key);
    for (int i = 0; i < 12; i += 2) {
        if (!(nv[i] = va_arg(ap, const char *)))
            break;
        nv[i + 1] = va_arg(ap, const char *);
    }
    va_end(ap);
    pl_buf b = {0};
    pl_words_put(&b, (pl_lang)c->lang, key, nv[0], nv[1], nv[2], nv[3], nv[4], nv[5], nv[6], nv[7], nv[8], nv[9],
                 nv[10], nv[11], NULL);
    int x = pl_canvas_put(c, row, col, st, pl_buf_str(&b));
    c->oom |= b.oom;
    pl_buf_free(&b);
    return x;
}
