/* words.h — the terminal's words in the player's language (`pl_words_`):
 * English, Russian, Japanese and Vietnamese catalogues (data/words/LANG.txt,
 * built into the program: src/core/words.cmake), a key's text with {name}
 * placeholders filled, the language chosen from the environment (LC_ALL,
 * LC_MESSAGES, LANG) or a --lang option, and text measured and cut in
 * display columns (a CJK character is two columns wide: utf8proc).
 *
 * Only the player's screens use it (`parlour play`, `replay`, karuta's
 * real-time screen); the protocol, `engine`, `bench`, `arena`, `solve` and
 * the server's logs never do, and stay English whatever LANG says.
 *
 * The catalogues are parsed once, on first use, under pthread_once: every
 * function here is thread-safe and none allocates. */
#ifndef PARLOUR_WORDS_H
#define PARLOUR_WORDS_H

#include <stddef.h>

#include "parlour/buf.h"
#include "parlour/canvas.h"

typedef enum pl_lang { PL_LANG_EN = 0, PL_LANG_RU, PL_LANG_JA, PL_LANG_VI, PL_LANG_COUNT } pl_lang;

/* The language named by `code` ("en", "ru", "ja", "vi"; case ignored), or
 * -1 for anything else (NULL included). */
int pl_words_lang_parse(const char *code);
/* The language of a POSIX locale name: "ja_JP.UTF-8" → PL_LANG_JA,
 * "vi_VN" → PL_LANG_VI, "ru_RU.UTF-8" → PL_LANG_RU; "C", "POSIX", NULL,
 * "" and every other language → PL_LANG_EN. Cannot fail. */
pl_lang pl_words_lang_of_locale(const char *locale);
/* The language of the environment in POSIX order: the first of LC_ALL,
 * LC_MESSAGES, LANG that is set and not empty (pl_words_lang_of_locale),
 * else PL_LANG_EN. Reads the environment only; cannot fail. */
pl_lang pl_words_lang_from_env(void);
/* The code of `lang` ("en" ...); "en" for an out-of-range value. */
const char *pl_words_lang_code(pl_lang lang);
/* "en, ru, ja, vi": the codes, for an error message. */
const char *pl_words_lang_list(void);

/* The text of `key` in `lang` (UTF-8, placeholders left as written), or
 * the English text when `lang` lacks it, or `key` itself when English
 * lacks it too (a missing key is a bug that tests/test_unit_words.c
 * catches: every key is in all four catalogues). Static storage: never
 * freed, the same pointer for the same arguments. */
const char *pl_words(pl_lang lang, const char *key);
/* The text of `key` in `lang` itself, or NULL when that catalogue lacks it
 * (no fallback): for words that are translated only where a catalogue
 * names them (a game's seat names). */
const char *pl_words_find(pl_lang lang, const char *key);
/* Appends the text of `key` in `lang` with every {name} replaced: the
 * variadic arguments are pairs of strings (name, value) ending with a NULL
 * name. A {name} not among the pairs is written as it stands. Cannot fail
 * (`out->oom` on no memory). */
void pl_words_put(pl_buf *out, pl_lang lang, const char *key, ...);
/* Puts the text of `key` in the canvas's language (c->lang: English unless
 * the terminal sets the player's, so that the protocol's `show` keeps its
 * bytes) at (row, col) in style `st`, with {name}s filled from at most six
 * (name, value) pairs ending with a NULL name, as pl_words_put; returns the
 * column after it. No memory: `c->oom`. The games' pictures use it. */
int pl_canvas_words(pl_canvas *c, int row, int col, pl_style st, const char *key, ...);

/* The number of keys of `lang`'s catalogue, and its i-th key and text in
 * key order (i in [0, count)); for the tests that compare catalogues. NULL
 * out of range. */
int pl_words_count(pl_lang lang);
const char *pl_words_key_at(pl_lang lang, int i);
const char *pl_words_text_at(pl_lang lang, int i);

/* Display columns of the first `nbytes` bytes of UTF-8 text `s` (a CJK
 * character two, a combining mark none; a broken byte one). */
int pl_words_cols(const char *s, size_t nbytes);
/* Bytes of the UTF-8 character at `s`: 1..4, 1 for a broken byte, 0 at
 * the string's end. */
int pl_words_char_len(const char *s);
/* Bytes of the longest start of `s` that fits in `cols` display columns
 * and ends between two characters (never inside one). */
size_t pl_words_fit(const char *s, int cols);
/* Bytes of the line that starts at `s` in a box `cols` columns wide: up to
 * a newline, broken after a blank when the text goes on, else between two
 * characters (Japanese has no blanks); at least one character unless `s`
 * is empty or starts with a newline. */
size_t pl_words_wrap(const char *s, int cols);

#endif
