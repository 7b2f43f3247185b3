/* kar.h — Karuta with the Ogura Hyakunin Isshu: the poems (kar_poems.c), the
 * kimariji (kar_kimariji.c), the rules of kyōgi karuta, uta-karuta and
 * chirashi-dori (kar.c) and their notation, views and pictures (kar_text.c).
 * Everything else uses `kar_game` (game.h); tests and the CLI also use the
 * functions below. Rules: ../shared/rules/karuta.md; notation:
 * docs/notation-karuta.md.
 *
 * The state is plain fixed-size data: poem texts are static const and are
 * referenced by number (1..100). Threading: the poem table is built once at
 * program start (a constructor) and is read-only afterwards; states belong to
 * one thread.
 */
#ifndef KAR_H
#define KAR_H

#if !defined(PARLOUR_IN_GAMES)
#error "kar.h is internal to the games layer (src/games/karuta): other layers use include/parlour/game.h"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parlour/game.h"
#include "parlour/match.h"

#define KAR_NPOEMS 100
#define KAR_KEYMAX 24   /* code points kept of a sound key (upper half) */
#define KAR_DEPTH 6     /* longest kimariji (KA-K2: 6 kana) */
#define KAR_NODES 640   /* trie nodes for prefixes of length 1..KAR_DEPTH */
#define KAR_ZONES 4     /* kyōgi: 2 territories; uta: 4 hands; chirashi: 1 field */
#define KAR_TL_MAX 40   /* kana in one half of a competition reading */
#define KAR_ROWS 3
#define KAR_SLOTS 17
/* KA-R2: the free space, right in front of the owner (row 1 is the row
 * nearest him), holds no card; a territory has KAR_ROWS * KAR_SLOTS - 1
 * usable slots, so kyōgi puts at most KAR_MAX_IN_PLAY cards in play (sends
 * can bring every one to one side). */
#define KAR_FREE_ROW 1
#define KAR_FREE_SLOT 9
#define KAR_MAX_IN_PLAY (KAR_ROWS * KAR_SLOTS - 1)
#define KAR_MAXTOUCH 3  /* touches in one `touch` action */
#define KAR_MS_MAX 16383 /* largest touch time (14 bits) */

/* ---- The poems (kar_poems.c) ------------------------------------------ */

typedef struct kar_poem {
    int number;                /* 1..100 */
    const char *poet;          /* author_kanji */
    const char *poet_kana;     /* author_hiragana */
    const char *text;          /* the five verses in kanji-kana, space separated */
    const char *kana;          /* historical kana, space separated */
    const char *reading;       /* modern reading (verse_*_hiragana_yomi), space separated */
    const char *kyogi_kami;    /* competition reading of the upper half, holds ー ｰ included */
    const char *kyogi_shimo;   /* competition reading of the lower half */
    const char *card;          /* the card text (torifuda_1..3), space separated */
    const char *romaji;        /* Hepburn, generated from `reading` */
    const char *kimariji_data; /* the data's kimariji_kami_yomi (for checks only) */
    uint32_t key[KAR_KEYMAX];  /* sound key (KA-K1): upper-half modern reading, おう→おお */
    int keylen;
    int kim;                   /* static kimariji length (KA-K2), computed */
    /* the competition reading as a kana timeline, per half (0 upper, 1 lower):
     * kana i starts at unit tl_start[h][i] of tl_total[h] units */
    int tl_n[2], tl_total[2];
    uint16_t tl_start[2][KAR_TL_MAX];
    char tl_kana[2][KAR_TL_MAX][4];
} kar_poem;

/* Poem `number` (1..100), or NULL when out of range. The table is built from
 * the CSV compiled into the program; it cannot fail at run time (a broken
 * data file aborts at start-up with a message). */
const kar_poem *kar_poem_get(int number);
/* Length of the common prefix of two poems' sound keys: a table built at
 * start-up with the poems (kar_poems.c), read-only afterwards; row and column
 * 0 are 0. Two different poems share at most KAR_DEPTH - 1 code points (KA-K2). */
extern uint8_t kar_lcp_tab[KAR_NPOEMS + 1][KAR_NPOEMS + 1];
/* kar_lcp_tab[a][b] for a, b in 1..100; 0 for a bad number. One load. */
static inline int kar_key_lcp(int a, int b)
{
    return a >= 1 && a <= KAR_NPOEMS && b >= 1 && b <= KAR_NPOEMS ? kar_lcp_tab[a][b] : 0;
}
/* Appends the first `n` code points of poem `number`'s sound key as UTF-8. */
void kar_key_text(int number, int n, pl_buf *out);
/* Appends the Hepburn romaji of a hiragana string (utf8) to `out`: digraphs,
 * っ gemination, ん before a vowel or y written n'. Long vowels are written as
 * spelled (ou, oo), without macrons: the readings carry no word boundaries,
 * so the particle の before お (yamadori no o) cannot be told from a long vowel. */
void kar_romaji(const char *hiragana, pl_buf *out);

/* How many characters of poem `number`'s card text (spaces not counted)
 * tell it from every other card: one more than the longest prefix it shares
 * with another card, the whole text at most (1..8); 0 for a bad number. */
int kar_card_unique(int number);
/* Writes the first `n` characters of poem `number`'s card text (spaces
 * dropped; n <= 0: all) to `out` of `cap` bytes, stopping before a
 * character that would not fit; "" for a bad number. */
void kar_card_head(int number, int n, char *out, size_t cap);

/* One kana of a reading timeline. */
typedef struct kar_kana {
    char kana[4];  /* UTF-8, NUL-terminated */
    int start_ms;  /* from the first kana of the upper half */
    int end_ms;    /* start of the next kana (holds included) */
} kar_kana;

/* The reading of poem `number` as kana with start times (a kana = 1 unit, a
 * short hold ｰ = 1, a long hold ー = 2). `even` false (tempo=poem): the upper
 * half's own units are spread over `upper_ms`, and with `whole` the lower
 * half's over `lower_ms` from upper_ms on. `even` true (tempo=even): every
 * unit of an upper half lasts upper_ms / kar_even_units(0), of a lower half
 * lower_ms / kar_even_units(1), so a kana's start depends only on the units
 * before it; the lower half starts where the upper half ends. Writes at most
 * `cap` entries and returns how many there are (0 for a bad number). */
int kar_timeline(int number, int upper_ms, int lower_ms, bool whole, bool even, kar_kana *out, int cap);
/* Start (ms) of the `k`-th kana (1-based) of poem `number`'s upper half, timed
 * as kar_timeline does; k past the end gives the end of the upper half. */
int kar_kana_start(int number, int upper_ms, bool even, int k);
/* tempo=even: the mean unit count of the 100 upper (h 0) or lower (h 1)
 * halves, rounded (docs/notation-karuta.md); 0 for another h. */
int kar_even_units(int h);

/* ---- Kimariji (kar_kimariji.c) ----------------------------------------- */

/* Static kimariji length of poem `number` (KA-K2); 0 for a bad number. */
int kar_kim_static(int number);

/* Dynamic and territory kimariji (KA-K3, KA-K4) over a trie of the sound
 * keys: each node counts the unread poems below it, in all and per zone
 * (a territory, a hand or the field). Reading a poem or moving a card costs
 * KAR_DEPTH counter updates. Plain data: copy with memcpy. */
typedef struct kar_kim {
    uint8_t unread[KAR_NPOEMS + 1];
    int8_t zone[KAR_NPOEMS + 1];    /* -1: in no zone (dead, pool, out) */
    uint8_t cnt[KAR_NODES];
    uint8_t z[KAR_ZONES][KAR_NODES];
} kar_kim;

/* All 100 unread, none in a zone. */
void kar_kim_init(kar_kim *k);
/* Moves `number` to `zone` (-1: none). */
void kar_kim_set_zone(kar_kim *k, int number, int zone);
/* Marks `number` read (no-op when already read). */
void kar_kim_read(kar_kim *k, int number);
/* Dynamic kimariji of `number` (KA-K3): the shortest prefix of its key that
 * no other unread poem's key starts with (the poem itself counts as a
 * candidate even if read, as at the moment it is being read). 1..6. */
int kar_kim_dynamic(const kar_kim *k, int number);
/* Territory kimariji of `number` (KA-K4): the shortest prefix at which every
 * unread poem sharing it (the poem itself included) lies in the poem's zone.
 * 0 when the poem is in no zone. Never longer than the dynamic kimariji. */
int kar_kim_territory(const kar_kim *k, int number);

/* ---- The game (kar.c) ---------------------------------------------------- */

enum kar_variant { KAR_KYOGI, KAR_UTA, KAR_CHIRASHI };
enum kar_stage { KAR_ST_READ, KAR_ST_POOL, KAR_ST_TOUCH, KAR_ST_SEND, KAR_ST_PLACE, KAR_ST_OVER,
                 KAR_ST_ARRANGE /* kyōgi rearrange=on: between readings (KA-R15) */ };

/* Where a card is (kar_state.loc). Zones 0..7 are a seat's territory (kyōgi)
 * or hand (uta); the others: */
#define KAR_LOC_DEAD 0x40  /* karafuda (kyōgi), not on the field (chirashi cards=50) */
#define KAR_LOC_FIELD 0x41 /* chirashi: on the shared field */
#define KAR_LOC_POOL 0x42  /* uta: the pool (yakufuda) */
#define KAR_LOC_OUT 0x43   /* left play: taken, answered, discarded, or read untouched */

/* Action codes (docs/notation-karuta.md). Bit 63 set: a touch list of up to
 * three touches, touch i in bits 21i..21i+20 as card (7 bits, 0 = unused)
 * | ms << 7 (14 bits), sorted by time then card, unused ones last.
 * Otherwise the kind is in bits 56..59 and the card in bits 0..6. */
#define KAR_A_TOUCH (1ull << 63)
#define KAR_A_NONE (1ull << 56)
#define KAR_A_READ (2ull << 56)  /* | card */
#define KAR_A_SEND (3ull << 56)  /* | card */
#define KAR_A_PLACE (4ull << 56) /* | card | row << 8 | slot << 16 (row 1..3, slot 1..17) */
#define KAR_A_PASS (5ull << 56)  /* forgo the rest of a send right (KA-R11) */
#define KAR_A_POOL (6ull << 56)  /* | card: uta, the card put in the pool (KA-U2) */
#define KAR_A_ARRANGE (7ull << 56) /* | card | row << 8 | slot << 16: kyōgi rearrange=on (KA-R15) */
#define KAR_A_READY (8ull << 56)   /* kyōgi rearrange=on: no rearrangement this time */
#define KAR_KIND(a) ((a) & KAR_A_TOUCH ? KAR_A_TOUCH : (a) & (0xfull << 56))
/* Uta answer=poet (KA-U4): a touch action with at most two touches may also
 * name a poet, as the number P of the poem whose poet is named, in bits
 * 49..55 (the time field of the third touch, whose card field, bits 42..48,
 * stays 0, so kar_touch_list skips it). KAR_POET_OF is 0 when none is named
 * (and for a list of three touches). */
#define KAR_POET_SHIFT 49
#define KAR_POET_MASK (0x7full << KAR_POET_SHIFT)
#define KAR_A_POET(p) ((pl_action)(p) << KAR_POET_SHIFT)
#define KAR_POET_OF(a) \
    ((int)(((a) & KAR_A_TOUCH) && !(((a) >> 42) & 0x7f) ? ((a) >> KAR_POET_SHIFT) & 0x7f : 0))

typedef struct kar_touch {
    uint8_t card;
    uint16_t ms;
} kar_touch;

/* Packs `n` touches (sorted here) into an action; n in 1..3. */
pl_action kar_touch_action(const kar_touch *t, int n);
/* Unpacks a touch action; returns the number of touches. */
int kar_touch_list(pl_action a, kar_touch *t);

/* The judgement of one reading (KA-R16): what was read, how far it had to be
 * heard, every response with its times, who took it, the fouls, the sends. */
typedef struct kar_judgement {
    uint8_t card;          /* 0: no reading yet */
    uint8_t where;         /* card's location when read (kar_state.loc) */
    uint8_t kim;           /* dynamic kimariji length at that moment (KA-K3) */
    uint8_t terr;          /* territory kimariji length (KA-K4), 0 none */
    uint16_t decide_ms;    /* start of the kimariji's last kana */
    uint16_t terr_ms;      /* start of the territory kimariji's last kana */
    uint8_t answered;      /* bit per seat: response given */
    uint8_t void_reading;  /* uta: the card was out of play */
    pl_action resp[PL_MAX_SEATS];
    int8_t taker;          /* seat, -1 nobody */
    uint16_t take_ms;
    uint8_t fouls[PL_MAX_SEATS];
    int8_t sender, receiver; /* -1: no send */
    uint8_t owed, sent;
    uint8_t sent_cards[50];
    uint8_t moved;         /* uta/chirashi: cards given, dumped, discarded or potted */
    /* kyōgi rearrange=on: each seat's move after this reading (KA-R15), as
     * card, from row, from slot, to row, to slot; card 0: none (yet) */
    uint8_t arranged[2][5];
} kar_judgement;

typedef struct kar_state {
    /* options */
    uint8_t variant, nseats, send_auto, place_auto, pool_auto, cards, foul_pot, wrong_receive1;
    uint8_t teams;            /* uta, teams=2v2: seats 0+2 (team 0) against 1+3 (team 1) (KA-U6) */
    uint8_t answer_poet;      /* uta, answer=poet: an answer names the poet too (KA-U4) */
    uint8_t rearrange;        /* kyōgi, rearrange=on: a move or `ready` between readings (KA-R15) */
    uint8_t tempo_even;       /* tempo=even: every unit of every poem lasts the same (kar_timeline) */
    uint16_t tie_ms, upper_ms, lower_ms, yoin_ms, pause_ms, memo_s, owner_ms;
    /* position */
    uint8_t stage;            /* enum kar_stage */
    uint8_t pending;          /* bit per seat still to act (touch, pool) */
    uint8_t cur;              /* the card being read (0 none) */
    /* derived, legal's per-reading cache: canonical touch time of each card
     * while `cur` is read (docs/notation-karuta.md), and the unread poems as bits */
    uint16_t canon[KAR_NPOEMS + 1];
    uint64_t unread_bits[2];
    uint8_t nread;            /* readings so far */
    uint8_t loc[KAR_NPOEMS + 1];
    /* derived from loc, kept by every move (legal's cache): bit (c-1)%64 of
     * word (c-1)/64 set when card c is in zone 0..3, the field (4), the pool (5) */
    uint64_t bits[6][2];
    uint8_t row[KAR_NPOEMS + 1], slot[KAR_NPOEMS + 1]; /* kyōgi: 1-based, 0 none */
    uint8_t grid[2][KAR_ROWS][KAR_SLOTS];              /* kyōgi: card or 0 */
    uint8_t count[PL_MAX_SEATS]; /* cards in territory / hand (kyōgi, uta), taken (chirashi) */
    uint8_t seq[PL_MAX_SEATS];   /* order in which seats answered this reading */
    uint8_t nseq;
    uint8_t pot;                 /* chirashi: cards in the foul pot */
    uint8_t place_card;          /* card waiting for `place` */
    int8_t winner;               /* -1 none / draw; teams=2v2: a seat of the winning team
                                    (team = winner % 2) */
    uint8_t taken_by[KAR_NPOEMS + 1]; /* seat + 1 who took each card, 0 nobody */
    uint16_t take_ms[KAR_NPOEMS + 1]; /* its take time */
    uint8_t moved_at[KAR_NPOEMS + 1]; /* reading (nread) at which a card was last sent or
                                         given during play, 0 never; public; not in to_text */
    kar_kim kim;
    kar_judgement last;          /* the current or last reading */
} kar_state;

extern const pl_game kar_game;

/* Why `a` is not a valid action of `seat` now (well formed or not), or 0 when
 * it is valid. Unlike `legal`, which lists a canonical set of touches, this
 * accepts any well-formed touch list (the game's real rule). Appends the
 * reason to `why` (may be NULL). Never changes `st`. */
int kar_why_invalid(const kar_state *s, int seat, pl_action a, pl_buf *why);
/* pl_game.check: 0 when kar_why_invalid finds nothing, else -1 with why. */
int kar_check(const void *st, int seat, pl_action a, pl_buf *why);
/* Label of a territory slot ("A05": rows A-C for seat 0, D-F for seat 1,
 * A/D nearest their owner), written to `out` (8 bytes). */
void kar_slot_label(int terr, int row, int slot, char *out);
/* Seat (kyōgi territory, uta hand) holding `card`, or -1. */
int kar_owner(const kar_state *s, int card);
/* True when poem `p` names the poet of poem `card` (the same author; every
 * poet of the anthology has one poem, so in practice p == card). */
bool kar_same_poet(int p, int card);
/* Whether moving `card` (in territory `t`) to `row`,`slot` (1-based, free)
 * keeps the row rule (KA-R2) when it holds now; true when it does not hold
 * now (a thin territory). Never changes `s`. */
bool kar_arrange_keeps_rows(const kar_state *s, int t, int card, int row, int slot);
/* True when `row`,`slot` (1-based) is a territory's free space (KA-R2),
 * where no card may lie. */
static inline bool kar_free_space(int row, int slot) { return row == KAR_FREE_ROW && slot == KAR_FREE_SLOT; }
/* Team of `seat`: seat % 2 with uta teams=2v2 (0+2 against 1+3), else the
 * seat itself (pl_game.team_of). */
int kar_team(const kar_state *s, int seat);
/* The game's part of the structured view (pl_game.view_json, kar_text.c):
 * layout, counts, the reading (its card only once every answer is in),
 * pending seats, sends, the judgement. */
int kar_view_json(const void *st, int viewer, struct json_t *obj);
/* ---- Events (kar_events.c, docs/web-views.md "Karuta: events") ---------- */

/* Adds the fields of judgement `j` of `s` to `obj` (a jansson object): the
 * card, where it lay, the kimariji (KA-K3, KA-K4) with their kana and
 * times, each seat's answer, the taker, the fouls, the sends. Shared by the
 * `judgement` event and the view's `judgement`. Returns 0, or -1 when
 * memory ran out (`obj` may hold some keys). Never changes `s`. */
int kar_judgement_json(const kar_state *s, const kar_judgement *j, struct json_t *obj);
/* pl_game.events: the typed events of an action (read, answer, judgement,
 * send, place, arrange, pass, ready, pool, give, discard, move, end), the
 * same for every viewer (karuta hides nothing). 0, or -1 out of memory. */
int kar_events(const void *before, int seat, pl_action a, const void *after, int viewer, struct json_t *arr);
/* pl_game.action_fields: {"kind", and "card", "row", "slot", "label",
 * "from_label", "touches", "poet" as the kind has them}. 0, or -1 out of
 * memory. Never changes `st`. */
int kar_action_fields(const void *st, int seat, pl_action a, struct json_t *obj);

/* Checks the layout row rule (KA-R2) for territory `t`: every row holds a
 * card in its left half (slots 1-8) and one in its right half (10-17).
 * Returns true when it holds. */
bool kar_row_rule(const kar_state *s, int t);

/* ---- The computer player (kar_bot.c) ------------------------------------- */

/* Timing and error model of one level of the human-like player. */
typedef struct kar_bot_level {
    const char *name;   /* "beginner", ... */
    const char *alias;  /* the generic level name: "easy", "medium", "hard", or NULL */
    double cog_ms;      /* median cognitive delay after the deciding kana (log-normal) */
    double cog_sigma;   /* its log-normal sigma */
    int use_territory;  /* moves at the territory kimariji when it comes first (KA-K4) */
    double move_ms;     /* movement to the nearest card */
    double row_ms;      /* per row away from the centre line */
    double slot_ms;     /* from the centre slot to the edge of a row */
    double other_ms;    /* extra for the opponent's territory */
    double p_memory;    /* chance of a memory error for a card moved in the last 3 readings */
    double p_foul_own;  /* chance of committing early to a card sharing the prefix: own side */
    double p_foul_other; /* ... on the other side */
} kar_bot_level;

/* The level named `name` (its name or alias), or NULL. */
const kar_bot_level *kar_bot_find(const char *name);
/* Appends the level names, space separated. */
void kar_bot_levels(pl_buf *out);
/* pl_game.bot: the human-like player (docs/ai.md). Touch stage: recognises
 * the read card at its deciding kana (territory kimariji when the level uses
 * it), adds a log-normal cognitive delay and a movement time (distance,
 * territory), may forget where a recently moved card lies, and may commit
 * early to a card sharing the prefix (a foul when it lies in a territory
 * without the read card). Send stage: sends the card sharing the longest
 * prefix with a card left on its side. Place and pool: simple fixed choices.
 * Returns 0 with a legal action, or -1 (unknown level, seat not acting). */
int kar_bot(const void *st, int seat, const char *level, uint64_t seed, pl_action *out, pl_buf *err);
/* The take time (ms from the first kana) the player `lv` would touch `card`
 * at, for seat `seat` in `s` (the reading of s->cur), or -1 when it would not
 * touch it (dead card). Deterministic for `rng`'s state. For the tests and
 * the take-time tables. */
int kar_bot_take_ms(const kar_state *s, int seat, const kar_bot_level *lv, pl_rng *rng);
/* For kar_from_text: sets the cards of `s` (variant and options set) from
 * per-card location (`where`, 0xff: dead), row and slot (kyōgi, 0: none) and
 * read flags, rebuilding the grid, counts, bitmasks and the kimariji trie.
 * Other fields are left to the caller. Cannot fail. */
void kar_restore(kar_state *s, const uint8_t *where, const uint8_t *row, const uint8_t *slot, const uint8_t *read);
/* Recomputes the per-reading cache of canonical touch times once `cur`,
 * `last` and the cards are set. Cannot fail. */
void kar_restore_caches(kar_state *s);

/* ---- Text (kar_text.c) -------------------------------------------------- */

void kar_format_action(const void *st, int seat, pl_action a, pl_buf *out);
int kar_parse_action(const void *st, int seat, const char *text, pl_action *a, pl_buf *err);
void kar_explain_illegal(const void *st, int seat, pl_action a, pl_buf *out);
void kar_draw(const void *st, int seat, pl_canvas *c);
void kar_view(const void *st, int seat, pl_buf *out);
void kar_to_text(const void *st, pl_buf *out);
int kar_from_text(void *st, const char *text, pl_buf *err);
/* Appends the judgement `j` in one line of plain words (KA-R16). */
void kar_judgement_text(const kar_state *s, const kar_judgement *j, pl_buf *out);
/* The same with seat 0 numbered `from`: 0, the protocol's numbers (as
 * kar_judgement_text); 1, a picture for people (pl_canvas.seat_from). */
void kar_judgement_text_from(const kar_state *s, const kar_judgement *j, int from, pl_buf *out);
/* The same in language `lang` (a pl_lang, words.h; keys kar.pic.j.*):
 * English is kar_judgement_text_from's text byte for byte; another
 * language words the answers' touches too (English keeps the notation). */
void kar_judgement_words(const kar_state *s, const kar_judgement *j, int from, int lang, pl_buf *out);
/* Replays match `m` (a karuta match) and appends one judgement line per
 * reading: the per-reading log (KA-R16). */
void kar_reading_log(const pl_match *m, pl_buf *out);

#endif
