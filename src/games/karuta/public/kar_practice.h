/* kar_practice.h — real-time karuta practice without a screen: the public
 * face of the karuta module for front ends (the terminal's `parlour karuta
 * practice`, later the server and the browser). A front end runs the loop
 * and draws; everything else is here: the session (a kyōgi match against a
 * computer opponent with a fixed reaction delay, or chirashi alone, KA-S5),
 * chirashi with computer players, uta-karuta for four, or a game against the
 * karuta bot at a level),
 * the reading timeline (the previous poem's lower half, the pause, then the
 * kana heard at t ms, when the reading ends, when the touch window closes),
 * the memorisation time, the opponents' touch time, touches given by
 * slot label, the judgement of each reading in plain words, the statistics,
 * the field as labelled cells, and the kimariji queries of the study aid
 * (`parlour karuta kimariji`). Implementation: kar_practice.c; the manual:
 * docs/notation-karuta.md, "The practice API".
 *
 * Only plain C types cross this header (int milliseconds, const char *,
 * small plain structs, opaque handles); texts are appended to a pl_buf or
 * returned as strings owned by the session. Nothing here draws, sleeps or
 * reads a clock: times are given by the caller, in ms from the first kana of
 * the reading (the origin of every touch time). This folder (public/) is the
 * only karuta folder a front end includes.
 *
 * Threading: a session or kimariji set belongs to one thread; the poem
 * queries read tables built at program start and are safe anywhere.
 */
#ifndef KAR_PRACTICE_H
#define KAR_PRACTICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parlour/buf.h"

#define KARP_NPOEMS 100      /* poems 1..100 */
#define KARP_DEPTH 6         /* longest kimariji, in kana (KA-K2) */
#define KARP_MAXTOUCH 3      /* touches in one reading */
#define KARP_MS_MAX 16383    /* largest touch time; later touches count at this time */
#define KARP_GRACE_MS 1500   /* the touch window stays open this long after the reading */
#define KARP_DELAY_MAX 10000 /* largest opponent delay (ms) */
#define KARP_LABEL 8         /* bytes of a slot label buffer ("A05" and the NUL) */

/* ---- The session ---------------------------------------------------------- */

struct pl_game;
/* True when `g` is the karuta game (a front end routes it to its real-time
 * screen, built on this API, instead of a turn-based one). Cannot fail. */
bool karp_handles(const struct pl_game *g);

/* A practice session: it owns a karuta match (seat 0 is the player, seats
 * 1.. the computer players: the opponent in kyōgi, the other players in
 * chirashi) and the readings' statistics. Opaque. */
typedef struct karp karp;

typedef struct karp_options {
    bool solo;          /* chirashi (KA-S): alone (KA-S5), or with `opponents`, instead of
                           kyōgi against the opponent */
    const char *seed;   /* the deal and reading order ("7"), NULL: drawn from the system */
    int delay_ms;       /* kyōgi: the opponent touches this long after the deciding kana,
                           0..KARP_DELAY_MAX */
    int readings;       /* stop after this many readings, 1..KARP_NPOEMS; 0: to the end */
    int nwords;         /* further game options, KEY=VALUE (parlour rules karuta) */
    char **words;       /* variant, players, send, place, rearrange, pool and seed are
                           refused: the practice sets them */
    int opponents;      /* solo: computer players on the chirashi field, 0..7 (0: alone) */
    bool uta;           /* uta-karuta for 4 (KA-U) against three computer players, pool=auto;
                           not with solo */
    const char *level;  /* the computer players' level (the game's levels: easy, medium,
                           hard, champion, or a bot level name such as club); NULL: kyōgi's
                           opponent touches at delay_ms, chirashi's and uta's play "medium" */
    int lang;           /* the words of karp_judgement and karp_stats (words.h pl_lang):
                           0 English (with the rules' numbers and the engine's line);
                           ru, ja, vi from the catalogues' karp.* keys, without them;
                           and of karp_touch's and karp_send's refusals (karp.err.*) */
} karp_options;

/* Starts a session: kyōgi with send=manual place=auto (the player chooses
 * the cards he sends, karp_send; the computer chooses its own), or chirashi
 * with players=1+opponents, with the given options; the chirashi field is
 * labelled A01..E20 in poem order. Returns the session (free it with
 * karp_free), or NULL with a message in `err` (an option out of range or set
 * by the practice, an unknown level, a bad game option, no memory). */
karp *karp_new(const karp_options *o, pl_buf *err);
/* Frees the session; NULL is a no-op. */
void karp_free(karp *p);

/* The seed of the match (the one given, or the one drawn). */
uint64_t karp_seed(const karp *p);
/* Whether the session is chirashi (alone or with computer players). */
bool karp_solo(const karp *p);
/* Whether the session is uta-karuta (hands A-D, A yours, and the pool P;
 * labels number each hand's cards in poem order, so they change as cards
 * move; one answer a reading; readings of cards out of play are skipped). */
bool karp_uta(const karp *p);
/* The number of seats: 2 in kyōgi, 1 + opponents in chirashi, 4 in uta. */
int karp_seats(const karp *p);
/* The computer players' level name as given, or NULL (fixed delay). */
const char *karp_level(const karp *p);
/* The memorisation time before the first reading (s; the option memo_s,
 * KA-R3): a front end counts it down, and may let the player end it early. */
int karp_memo_s(const karp *p);
/* The opponent's delay after the deciding kana (ms), as given. */
int karp_delay_ms(const karp *p);
/* The pause before each reading (ms; the option pause_ms, the 1 of 5-3-1-6,
 * KA-R5): a front end waits this long before the first kana. */
int karp_pause_ms(const karp *p);

/* What a front end shows in its title lines. */
typedef struct karp_status {
    int nread;    /* readings so far (the open one included) */
    int count[8]; /* kyōgi: cards in your territory, the opponent's; chirashi: cards taken
                     by each seat (0 you) */
    int pot;      /* solo: cards in the foul pot (KA-S3) */
    bool over;    /* the match is over */
    int winner;   /* when over, kyōgi: 0 you, 1 the opponent, -1 a draw; chirashi with
                     opponents: the seat with most cards, -1 a tie; alone: -1 */
} karp_status;

/* Fills `out` with the session's counts. Cannot fail. */
void karp_get_status(const karp *p, karp_status *out);
/* True when no reading can start: the match is over or the number of
 * readings asked for is reached. */
bool karp_done(const karp *p);

/* ---- One reading ---------------------------------------------------------- */

/* Draws the next card to read (the match's random generator: the same seed
 * gives the same order) and opens its touch window: the timeline, the
 * opponent's touch time and the deadline below are set, and no touch is
 * recorded yet. Returns 1 when a reading is open, 0 when karp_done (nothing
 * changed), -1 with a message when a reading is already open (finish it
 * first) or the match refuses (nothing changed). */
int karp_start(karp *p, pl_buf *err);

/* The card being read (1..100), or 0 when no reading was started. */
int karp_card(const karp *p);
/* Start of the deciding kana of the reading (ms): the start of the last kana
 * of its dynamic kimariji (KA-K3); 0 before the first reading. */
int karp_decide_ms(const karp *p);

/* The reading's kana timeline (upper half; solo: the whole poem, KA-S2):
 * the number of kana, then kana `i` (0-based) as UTF-8 ("" out of range) and
 * its start in ms (-1 out of range). Kana only: the holds of the competition
 * reading (ー, ｰ) are time, not text. Valid from karp_start until the next. */
int karp_kana_count(const karp *p);
const char *karp_kana(const karp *p, int i);
int karp_kana_start_ms(const karp *p, int i);
/* How many kana have started by `t_ms` (those a front end shows at t_ms):
 * 0 before the first, karp_kana_count once the last has started. */
int karp_kana_shown(const karp *p, int t_ms);
/* End of the reading (ms): the end of its last kana. */
int karp_reading_end_ms(const karp *p);
/* What comes before the upper half (KA-R5, 5-3-1-6): in kyōgi the previous
 * poem's lower half (over lower_ms; none before the first reading), its last
 * kana held yoin_ms, then the pause (pause_ms); in chirashi only the pause.
 * karp_prelude_ms: its length (ms) from the start of the prelude to the first
 * kana of the upper half; karp_prelude_count/_kana/_start_ms: the lower
 * half's kana and their starts, in ms from the start of the prelude (as
 * karp_kana). Valid from karp_start until the next; touches are not taken
 * during the prelude. */
int karp_prelude_ms(const karp *p);
int karp_prelude_count(const karp *p);
const char *karp_prelude_kana(const karp *p, int i);
int karp_prelude_start_ms(const karp *p, int i);
/* The first computer player's touch time on the read card (ms): the
 * fixed-delay opponent's deciding kana plus the delay, or the earliest bot's
 * take time (capped at KARP_MS_MAX); -1 when none will touch it (alone, or a
 * dead card). The fixed-delay opponent never fouls; the bots may. */
int karp_ai_ms(const karp *p);
/* When the touch window closes (ms): KARP_GRACE_MS after the reading, or
 * sooner once a computer player has touched and the tie window (option tie_ms,
 * KA-R7) after it has passed; at most KARP_MS_MAX. A front end stops taking
 * touches here and calls karp_finish. */
int karp_deadline_ms(const karp *p);

/* The player touches the card at slot `label` ("A05", case-insensitive
 * letter) at `ms` from the first kana (times past KARP_MS_MAX count as
 * KARP_MS_MAX). Returns 1 when recorded and the player's turn is over (the
 * read card was touched, or this was the KARP_MAXTOUCH-th touch), 0 when
 * recorded and more may follow, -1 with a message when refused — no reading
 * open, the turn already over, a negative time, a label that is not a slot
 * label, no card there, a card touched already — and nothing changes.
 * The deadline is not checked here: touches count until karp_finish. */
int karp_touch(karp *p, const char *label, int ms, pl_buf *err);
/* The touches of the open (or last) reading: how many, then touch `i`'s time
 * (ms, -1 out of range) with the label the card lay at when touched written
 * to `label` (KARP_LABEL bytes; "" when i is out of range). */
int karp_touch_count(const karp *p);
int karp_touch_get(const karp *p, int i, char *label);

/* Closes the reading: plays the player's touches (or no touch) and the
 * computer players', lets the rules judge it (KA-R7 .. KA-R12, KA-S3) and
 * records the take time for the statistics; a computer player that sends
 * chooses its cards (KA-R9). The judgement text is then ready; when the
 * player owes cards, karp_send_owed says how many (the judgement is
 * rewritten once they are sent). Returns 0, or -1 with a message when no
 * reading is open or the match refuses (nothing changed). */
int karp_finish(karp *p, pl_buf *err);
/* Cards the player must still send before the next reading (kyōgi, KA-R9:
 * the sender chooses them), 0 when none. */
int karp_send_owed(const karp *p);
/* Sends the card at slot `label` of the player's territory to the opponent
 * (KA-R9; placed there automatically, KA-R10), or with label NULL the
 * player's lowest card (the engine's choice). Returns the cards still owed
 * (0: done, the judgement rewritten), or -1 with a message when nothing is
 * owed, the label is no slot, or no card of the player lies there (nothing
 * changed). */
int karp_send(karp *p, const char *label, pl_buf *err);
/* The last reading's judgement in plain words: "N. Poem ..., kimariji ...",
 * who took it and why (a first touch, a tie and the owner, a dead card, an
 * untouched card), the fouls, the sends or their cancelling out, then a
 * second line "Engine: " with the rules' own judgement line (KA-R16).
 * "" before the first reading is finished. Owned by the session, valid until
 * the next karp_finish. */
const char *karp_judgement(const karp *p);
/* Writes the match so far, every reading closed, as a record
 * (pl_record_save_file: the file `parlour replay` and `parlour play --load`
 * open) to `path`. Returns 0, or -1 with a message in `err` when a reading
 * is open or the file cannot be written; the session is unchanged. */
int karp_save(const karp *p, const char *path, pl_buf *err);
/* The statistics so far (KA-R16, KA-S5): per card you took, its kimariji and
 * your take time after the deciding kana, the mean and the median, the fouls,
 * the counts, and the result when the match is over. Several lines, each
 * ending in a newline. Owned by the session, valid until the next call. */
const char *karp_stats(karp *p);

/* ---- The reading of a match state (the server's clock) --------------------- */

/* Kana in one reading timeline: a whole poem read in chirashi (KA-S2) has at
 * most two halves of KAR_TL_MAX kana (kar_poems.c refuses a longer half at
 * start-up); the longest of the hundred has 33 (tests/test_unit_kar_practice.c). */
#define KARP_MAXKANA 80

/* The reading of a karuta state in a touch stage, for a front end that reads
 * aloud on its own clock (the server sends each kana when it is read).
 * Times are ms from the first kana of the reading, as everywhere here. */
typedef struct karp_reading {
    int card;                       /* the poem being read, 1..100 */
    int n;                          /* its number: the readings of the match so far, this one
                                       included (the `read N` actions of its history, void
                                       readings included), so a restored match goes on counting */
    int nkana;                      /* kana of its timeline (upper half; chirashi: whole poem) */
    const char *kana[KARP_MAXKANA]; /* each kana as UTF-8 (static strings: the poem table) */
    int start_ms[KARP_MAXKANA];     /* its start, ms from the first kana */
    int decide;                     /* index of the deciding kana (last kana of the dynamic
                                       kimariji, KA-K3) */
    int end_ms;                     /* end of the reading (end of its last kana) */
    int deadline_ms;                /* end_ms + KARP_GRACE_MS, capped at KARP_MS_MAX */
} karp_reading;

/* Fills `out` with the reading of `st`, a state of game `g`, and returns 1
 * when `g` is karuta and the state is in a touch stage (every seat still to
 * answer a reading: the read card is drawn, responses are open), with the
 * match's timing options (upper_ms, lower_ms); kana[] point into the poem
 * table and stay valid for the program's life. Returns 0 with `out` zeroed
 * otherwise: another game, no reading open, a stage other than the touch
 * (pool, send, place, arrange, over). Never changes `st`; cannot fail.
 * Threading: reads only `st` and the read-only poem table; any thread. */
int karp_reading_of(const struct pl_game *g, const void *st, karp_reading *out);

/* The answer of a seat to a reading as an action of `g` (karuta; a
 * pl_action), built directly rather than written as text and parsed: `n`
 * touches, card[i] (1..100) at ms[i] (0..KARP_MS_MAX, on the reading's
 * timeline), in any order (sorted here), or no touch for n = 0 ("none");
 * with answer=poet, `poet` (1..100) the poem whose poet is named (one touch
 * only), else 0. Returns 0 with the action in *out, or -1 with *out
 * unchanged for another game, n outside 0..KARP_MAXTOUCH, a card, time or
 * poet out of range, a poet without exactly one touch, or a card touched
 * twice. Whether the rules accept it now is pl_check's to say. Any thread. */
int karp_answer_action(const struct pl_game *g, const int *card, const int *ms, int n, int poet, uint64_t *out);

/* ---- The field ------------------------------------------------------------ */

/* The card at slot `label` now ("A05": kyōgi rows A-C yours, D-F the
 * opponent's, A and D nearest their owners, slots 01-17; solo A01..E20), or 0
 * when the label is not a slot or holds no card. */
int karp_card_at(const karp *p, const char *label);
/* Writes the label where `card` lies now to `out` (KARP_LABEL bytes) and
 * returns true, or writes "" and returns false when it is not on the field. */
bool karp_label(const karp *p, int card, char *out);
/* A card whose touch is a foul in the open reading, for scripted practice
 * and tests: the lowest card on the field lying in a territory without the
 * read card (kyōgi; the opponent's when the read card is dead) or any other
 * card on the field (solo); 0 when there is none. */
int karp_wrong_card(const karp *p);

enum karp_cell_kind {
    KARP_CELL_NONE,  /* no slot here (solo: past the last card of the field) */
    KARP_CELL_EMPTY, /* an empty slot, or a card that has left the field */
    KARP_CELL_CARD   /* a card */
};

typedef struct karp_cell {
    int kind;               /* enum karp_cell_kind */
    int card;               /* KARP_CELL_CARD: the card, else 0 */
    int owner;              /* 0 your territory, 1 the opponent's, -1 the shared field */
    char label[KARP_LABEL]; /* KARP_CELL_CARD: its slot label, else "" */
    char head[40];          /* KARP_CELL_CARD: the card text's first characters, as many
                               as tell it from every other card (karp_card_head) */
} karp_cell;

/* The field as the player sees it: zones (kyōgi 2: zone 0 your territory,
 * zone 1 the opponent's; solo 1: the field; uta 5: the hands of seats 0-3
 * and the pool, each one row of its cards), each a grid of rows x cols
 * (kyōgi 3 x 17, solo 5 x 20, uta 1 x cards) in screen order, row 0 at the top: the
 * opponent's territory has its near row (D) at the top and its slots
 * mirrored, yours its near row (A) at the bottom. */
int karp_zones(const karp *p);
/* Writes zone `z`'s rows and columns; returns 0, or -1 for a bad zone. */
int karp_zone_size(const karp *p, int z, int *rows, int *cols);
/* Fills `out` with the cell at (row, col) of zone `z`; returns 0, or -1 with
 * `out` unchanged when out of range. */
int karp_cell_get(const karp *p, int z, int row, int col, karp_cell *out);

/* ---- Poems and kimariji (the study aid) ----------------------------------- */

/* Poem `poem`'s poet (kanji) and Hepburn romaji, or NULL for a bad number. */
const char *karp_poem_poet(int poem);
const char *karp_poem_romaji(int poem);
/* The card text of poem `poem` (the lower half, as on the torifuda), or NULL. */
const char *karp_card_text(int poem);
/* How many characters of poem `poem`'s card text (spaces not counted) tell
 * it from every other card of the hundred: one more than the longest prefix
 * it shares with another card (the whole text at most); 0 for a bad number.
 * 47 cards share their first two characters with another, so two are not
 * enough; the most needed is 8 (わかころもては / わかころもてに). */
int karp_card_unique(int poem);
/* Writes the first `n` characters of poem `poem`'s card text (spaces
 * dropped; n <= 0: the whole text) to `out` of `cap` bytes, stopping before
 * a character that would not fit; "" for a bad number. */
void karp_card_head(int poem, int n, char *out, size_t cap);
/* Appends the first `n` kana of poem `poem`'s sound key (KA-K1) to `out`;
 * nothing for a bad number. */
void karp_poem_key(int poem, int n, pl_buf *out);
/* Static kimariji length of `poem` (KA-K2), 1..6; 0 for a bad number. */
int karp_kim_static(int poem);

/* A set of poems read so far, for dynamic kimariji (KA-K3). Opaque. */
typedef struct karp_kim karp_kim;

/* A set with all 100 unread; NULL when out of memory. Free with karp_kim_free. */
karp_kim *karp_kim_new(void);
/* Frees the set; NULL is a no-op. */
void karp_kim_free(karp_kim *k);
/* Marks `poem` read (again: no change). Returns 0, or -1 for a bad number. */
int karp_kim_read(karp_kim *k, int poem);
/* Whether `poem` is read (false for a bad number). */
bool karp_kim_is_read(const karp_kim *k, int poem);
/* Dynamic kimariji of `poem` (KA-K3): the shortest prefix of its key no other
 * unread poem's key starts with, 1..6; 0 for a bad number. */
int karp_kim_dynamic(const karp_kim *k, int poem);

#endif
