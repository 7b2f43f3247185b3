/* kar_drill.h — karuta drills (issue 34 §4): the spaced-repetition record and
 * scheduler, the field of a session, the grades, and what each drill shows
 * and accepts (kimariji, listening, card-flipping), exactly as docs/drills.md
 * says; data/drills/vectors.json holds the vectors that this code and the
 * browser's reproduce. Implementation: kar_drill.c. Front end: the terminal's
 * `parlour karuta drill` (src/cli/drill.c).
 *
 * Plain data and pure functions: nothing here reads a clock, a file or the
 * environment; times are given by the caller in ms. The poem queries read
 * tables built at program start and are safe in any thread; a record belongs
 * to one thread.
 */
#ifndef KAR_DRILL_H
#define KAR_DRILL_H

#include <stdbool.h>
#include <stdint.h>

#include "parlour/buf.h"

#define KAR_DRILL_POEMS 100
#define KAR_DRILL_BOXES 5      /* Leitner boxes 1..5 (0: never answered) */
#define KAR_DRILL_MS_CAP 60000 /* an answer's time counts at most this */
#define KAR_DRILL_UPPER_MS 6000 /* listening: the reading of an upper half (the game's default) */
#define KAR_DRILL_LISTEN_WAIT 3000 /* listening: the touch window after the upper half */
#define KAR_DRILL_WEAKEST 10   /* cards listed by default */
#define KAR_DRILL_TL_MAX 40    /* kana of an upper half's timeline */

enum kar_drill_kind { KAR_DRILL_KIMARIJI, KAR_DRILL_LISTEN, KAR_DRILL_FLIP };
enum kar_drill_grade { KAR_DRILL_GOOD, KAR_DRILL_SLOW, KAR_DRILL_MISS };

/* One card's entry (docs/drills.md, "The record"). All zero: never answered. */
typedef struct kar_drill_card {
    int box, due, seen, good, slow, miss, last;
    long ms;
} kar_drill_card;

/* A player's record: plain data (copy with memcpy); cards[0] unused. */
typedef struct kar_drill_rec {
    int step;
    kar_drill_card cards[KAR_DRILL_POEMS + 1];
} kar_drill_rec;

/* An empty record (version 1, step 0, no card answered). Cannot fail. */
void kar_drill_rec_init(kar_drill_rec *r);
/* Reads a record from JSON text (docs/drills.md). Returns 0, or -1 with the
 * reason appended to `err` (not JSON, another version, a bad card number or
 * field); `r` is then left empty. Uses jansson. */
int kar_drill_rec_from_json(kar_drill_rec *r, const char *text, pl_buf *err);
/* Appends the record as JSON (keys in the spec's order, cards by number,
 * one card a line) and a newline. Cannot fail (`out->oom` on no memory). */
void kar_drill_rec_to_json(const kar_drill_rec *r, pl_buf *out);

/* The drill named `name` ("kimariji", "listen", "flip"), or -1. */
int kar_drill_kind_parse(const char *name);
/* The name of drill `kind` ("kimariji" ...), "" for a bad one. */
const char *kar_drill_kind_name(int kind);
/* The grade of an answer in drill `kind`: a miss when not `correct`, slow
 * past the drill's limit (kimariji 3000 ms, listen 1000 ms after the
 * deciding kana, flip 5000 ms), else good. */
int kar_drill_grade(int kind, bool correct, int ms);
/* The grade's name ("good", "slow", "miss"). */
const char *kar_drill_grade_name(int grade);
/* Records an answer for `card` (1..100) with `grade` and time `ms` (clamped
 * to 0..KAR_DRILL_MS_CAP): the step, the card's counts, its box and when it
 * is due again. A bad card or grade changes nothing. */
void kar_drill_record(kar_drill_rec *r, int card, int grade, int ms);

/* The field of a session: at most `n` cards (1..100) not in `read` (a
 * 101-entry array, read[c] true for a read poem; NULL: none read), in the
 * spec's order (weak cards, never-answered ones in the fixed order P, the
 * rest). Writes them to `out` (room for n) and returns how many. */
int kar_drill_field(const kar_drill_rec *r, int n, const bool *read, int *out);
/* The next card to ask among `field` (`n` cards), `prev` the card asked
 * just before (0: none). 0 when the field is empty. */
int kar_drill_next(const kar_drill_rec *r, const int *field, int n, int prev);
/* The weakest cards (answered, with a slow take or a miss), weakest first:
 * writes at most `max` to `out` and returns how many. */
int kar_drill_weakest(const kar_drill_rec *r, int *out, int max);

/* The kimariji length of `card` in a drill: static (KA-K2) when `read` is
 * NULL or empty, else dynamic given those read (KA-K3). 0 for a bad card. */
int kar_drill_kim(int card, const bool *read);
/* The kimariji drill: how many kana of `card`'s key to show when the card's
 * box (before the answer) is `box` and its kimariji `kim` long: kim plus 3,
 * 3, 2, 1, 0, 0 for box 0..5, never more than the key's length. */
int kar_drill_shown(int card, int box, int kim);
/* The key's length of `card` in kana (0 for a bad card). */
int kar_drill_keylen(int card);
/* Appends the first `n` kana of `card`'s sound key (KA-K1). */
void kar_drill_key(int card, int n, pl_buf *out);
/* Appends `card`'s lower verse as on a real card (hiragana, no spaces), cut
 * to its first `n` characters (n <= 0: all of it). */
void kar_drill_card_text(int card, int n, pl_buf *out);
/* The flip drill: true when `typed` is the first `kim` kana of `card`'s key,
 * in hiragana or in romaji (kar_romaji's spelling), case and spaces (ASCII
 * and U+3000) ignored; exactly `kim` kana. */
bool kar_drill_flip_ok(int card, int kim, const char *typed);
/* Appends the romaji of the first `n` kana of `card`'s key. */
void kar_drill_key_romaji(int card, int n, pl_buf *out);

/* The listening drill's reading of `card`'s upper half at match speed
 * (KAR_DRILL_UPPER_MS, tempo=poem): each kana with its start (ms from the
 * first kana) in `kana`/`start_ms` (room for KAR_DRILL_TL_MAX); returns the
 * count (0 for a bad card). *end_ms gets the end of the upper half. */
int kar_drill_reading(int card, char kana[][4], int *start_ms, int *end_ms);
/* The start (ms) of the `kim`-th kana of `card`'s reading: the deciding
 * kana, from which a take time is counted. */
int kar_drill_decide_ms(int card, int kim);

#endif
