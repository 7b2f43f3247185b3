/* tell.h — the terminal's history in words: what an action did, as the
 * notes above the legal list, the `log` page and the replay tell it, for
 * every game through the interface (game.h: format_action_for,
 * format_action_long, describe, seat_name). Plain text, no curses, so that
 * the tests check the words (tests/test_property_tell.c).
 *
 * Everything written here is made of sentences: each ends in '.', '!' or
 * '?' and the next follows after one space, so that no join doubles a mark
 * ("another roll.; roll 4"). Seats are counted from 1, as the browser
 * counts them ("Seat 2 (Dark)"); the protocol and `engine` mode keep
 * counting from 0 and are not written here. Single-threaded like its
 * callers; no globals. */
#ifndef CLI_TELL_H
#define CLI_TELL_H

#include "parlour/game.h"
#include "parlour/words.h"

/* How an action came to be played: what its note says. */
typedef enum tell_how {
    TELL_CHANCE,   /* a roll, a deal: "Roll 3." */
    TELL_MOVE,     /* a seat's move told in full: "Seat 2 (Dark): C1 → B4, rolls again." (a
                      computer's, or one typed at a keyboard that others share) */
    TELL_FORCED,   /* a human's only legal move, played for them: as TELL_MOVE, and says so */
    TELL_TYPED,    /* the move the one player typed: only what the game tells of it (captures ...) */
    TELL_ANSWERED  /* a computer's answer while seats answer at once: "Seat 2: answered." */
} tell_how;

/* Appends how people name `seat` in `lang` (words.h): "Seat 2 (Dark)",
 * "席2（黒）", or "Seat 2" in a game without seat names (seat 1 is the
 * protocol's seat 0). Cannot fail (`out->oom` on no memory). */
void tell_seat(const pl_game *g, const void *st, int seat, pl_lang lang, pl_buf *out);
/* Appends the game's name of `seat` (g->seat_name, which must be set) in
 * `lang`: the catalogue's "seatname.GAME.NAME" where it has one ("Dark" →
 * "黒"), else the game's own word. Cannot fail (`out->oom`). */
void tell_seat_name(const pl_game *g, const void *st, int seat, pl_lang lang, pl_buf *out);

/* Appends what `seat`'s action `a` (PL_CHANCE for chance) did from
 * `before` to `after`, told to `viewer` (-1: someone who sees everything),
 * in `lang` (the seat and the note's own words; what the game writes,
 * describe and the move's text, is the game's), as `how` says: the seat, the action as a menu writes it (where a piece
 * went: "C1 → B4"; a hidden card as `viewer` may see it), then the game's
 * own sentences (describe: captures, tricks, scores). Whole sentences, or
 * nothing. Never changes either state; cannot fail (`out->oom`). */
void tell_action(const pl_game *g, const void *before, int seat, pl_action a, const void *after, int viewer,
                 tell_how how, pl_lang lang, pl_buf *out);

/* Appends `text` to `msg` as the next sentence(s): one space after what
 * `msg` holds, and a '.' after `text` (。 after Japanese) unless a mark
 * (. ! ? … or Japanese 。！？) ends it already (and after `msg`, for text written there otherwise). Nothing for
 * an empty `text`. Cannot fail (`msg->oom`). */
void tell_join(pl_buf *msg, const char *text);

/* The start of the sentence after the first one of `msg` (the byte after
 * its first ". ", "! ", "? ", "。 " ...), or NULL when `msg` is one sentence: the
 * screen drops the oldest notes this way when not all fit. */
const char *tell_next_sentence(const char *msg);

/* Appends why `seat`'s well-formed action `a`, refused in `st`, is refused,
 * in `lang`: the game's refusal (pl_game.refusal, docs/web-views.md
 * "Refusals") worded by the catalogue's "refusal.GAME.WHY" — or
 * "refusal.GAME.WHY.FIELD.VALUE" for the first string field that has one,
 * else "refusal.GAME.WHY.FIELD" for the first true field — with each
 * {FIELD} filled: "refusal.GAME.val.FIELD.VALUE" where the catalogue has
 * it (a side, a colour), else the value as it stands (a square, a card in
 * notation, a number; a list joined by "result.list_sep"). Returns 0, or -1
 * with nothing appended when the game has no refusal for `a` or the
 * catalogue no sentence for it (the caller then shows the game's English
 * reason). Never changes `st`. */
int tell_refusal(const pl_game *g, const void *st, int seat, pl_action a, pl_lang lang, pl_buf *out);

#endif
