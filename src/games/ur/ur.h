/* ur.h — the Royal Game of Ur, Skiryuk's rules (and Finkel's for checking):
 * the state layout, shared by the rules (ur.c), the notation and pictures
 * (ur_text.c) and the tests. Everything else uses `ur_game` (game.h).
 *
 * Board squares are numbered 0..19 (UR_A1 ...). A stack holds up to 4
 * pieces, bottom first, 2 bits each: bit 0 the owner (0 Light, 1 Dark),
 * bit 1 marked. A piece's path index follows from its square, its owner and
 * its side (marked <=> index >= 14), so it is never stored.
 * Threading: pure functions over caller-owned states.
 */
#ifndef UR_H
#define UR_H

#if !defined(PARLOUR_IN_GAMES)
#error "ur.h is internal to the games layer (src/games/ur): other layers use include/parlour/game.h"
#endif

#include <stdint.h>

#include "parlour/game.h"

enum {
    UR_A1, UR_A2, UR_A3, UR_A4, UR_A7, UR_A8,
    UR_B1, UR_B2, UR_B3, UR_B4, UR_B5, UR_B6, UR_B7, UR_B8,
    UR_C1, UR_C2, UR_C3, UR_C4, UR_C7, UR_C8,
    UR_NSQ
};

enum ur_phase { UR_PH_FIRST, UR_PH_ROLL, UR_PH_MOVE, UR_PH_OVER };
enum ur_kind { UR_PLAIN, UR_ROSETTE, UR_LANE_EYES, UR_B7_EYES, UR_SAFE, UR_FINISH, UR_CONVERSION };

/* Action codes. */
#define UR_ACT_PASS 1u
#define UR_ACT_ENTER 2u
#define UR_ACT_MOVE 0x100u   /* | square << 2 | depth from the top (0 = top) */
#define UR_ACT_ROLL 0x1000u  /* | roll */
#define UR_ACT_FIRST 0x2000u /* | seat */

typedef struct ur_state {
    /* derived from h/pc, kept up to date for fast move generation
     * (ur_refresh_masks): bit sq set when the top piece of sq is the
     * player's / when the player has any piece on sq */
    uint32_t top[2], has[2];
    /* options */
    uint8_t finkel;   /* rules=finkel */
    uint8_t pieces;   /* 1..7 */
    uint8_t d4;       /* dice=d4 */
    uint8_t start;    /* 0 random, 1 light, 2 dark */
    uint8_t loop;     /* 0 own-first, 1 opponent-first */
    uint8_t stackany; /* stack=any */
    /* position */
    uint8_t phase; /* enum ur_phase */
    uint8_t turn;  /* 0 Light, 1 Dark */
    uint8_t roll;  /* the roll to play (phase MOVE) */
    uint8_t opening; /* the next roll is the starter's forced 1 (UR-R3) */
    uint8_t reserve[2], off[2];
    uint8_t h[UR_NSQ];  /* stack heights */
    uint8_t pc[UR_NSQ]; /* pieces, 2 bits each, bottom first */
} ur_state;

/* The layout is 72 bytes (a copy is most of a search step's cost, so a
 * field added here shows in `parlour bench ur --copy`); the masks are
 * 32-bit square sets. */
_Static_assert(sizeof(ur_state) == 72, "ur_state is 72 bytes");
_Static_assert(UR_NSQ <= 32, "a set of squares is a 32-bit mask");

extern const pl_game ur_game;

/* Recomputes the derived masks `top` and `has` from the stacks. */
void ur_refresh_masks(ur_state *s);

/* Tables (ur.c). */
extern const char *const ur_sq_name[UR_NSQ];
/* Kind of a square under the state's rules. */
int ur_sq_kind(const ur_state *s, int sq);
/* Square of path index `idx` (1..last) for `player`. */
int ur_path_sq(const ur_state *s, int player, int idx);
/* Path index of a piece of `player` with side `marked` on `sq` (0 if none). */
int ur_path_idx(const ur_state *s, int player, int sq, int marked);
/* Index of "borne off" (24 Skiryuk, 15 Finkel). */
int ur_off_idx(const ur_state *s);
/* The square named by `name` ("B7", case-insensitive), or -1. */
int ur_sq_parse(const char *name);
/* Why an action is refused, as data: `why` a word of docs/web-views.md,
 * `ur`, "Refusals" (NULL when the action is legal), and its squares. */
typedef struct ur_refusal {
    const char *why;
    int from;     /* the square of the piece named, or -1 (enter, pass) */
    int to;       /* the square it would land on, or -1 */
    int depth;    /* which piece of the stack at `from`: 1 the top; 0 none */
    int entering; /* the action was `enter` */
    int count;    /* stack-short: the stack's height; a landing word: the pieces on `to` */
    int exact;    /* overshoot: the throw that would bear the piece off */
    int owner;    /* not-yours: whose piece it is */
    int marked;   /* other-side: the moving piece would show its marked side */
} ur_refusal;

/* Why action `a` of the player to move (phase MOVE) is refused: writes the
 * reason in English into `out` and, when `why` is not NULL, the same as data
 * (why->why NULL when legal). Returns 1 when refused, 0 when `a` is a legal
 * piece movement. Never changes `s`. */
int ur_why_illegal(const ur_state *s, pl_action a, pl_buf *out, ur_refusal *why);

/* Notation, views and pictures (ur_text.c), wired into ur_game. */
void ur_format_action(const void *st, int seat, pl_action a, pl_buf *out);
int ur_parse_action(const void *st, int seat, const char *text, pl_action *a, pl_buf *err);
void ur_explain_illegal(const void *st, int seat, pl_action a, pl_buf *out);
/* pl_game.refusal: why `seat`'s well-formed action `a` is refused, as
 * {"why": WORD, ...} (docs/web-views.md, `ur`, "Refusals"). Returns 0, or
 * -1 when `seat` is not the player to move in phase MOVE, `a` is legal, or
 * memory ran out. Never changes `st`. */
int ur_refusal_json(const void *st, int seat, pl_action a, struct json_t *obj);
void ur_draw(const void *st, int seat, pl_canvas *c);
/* pl_game.seat_name: "Light" (seat 0) or "Dark" (seat 1). */
void ur_seat_name(const void *st, int seat, pl_buf *out);
void ur_view(const void *st, int seat, pl_buf *out);
/* The game's part of the structured view (pl_game.view_json): options,
 * stage, turn, roll, reserves, borne off, every square with its stack. */
int ur_view_json(const void *st, int viewer, struct json_t *obj);
/* pl_game.view_text: the same part written as text (ur_text.c). */
int ur_view_text(const void *st, int viewer, struct pl_jfields *f);
void ur_to_text(const void *st, pl_buf *out);
int ur_from_text(void *st, const char *text, pl_buf *err);
/* pl_game.format_action_long: the notation, then where the piece lands
 * ("A4 → B1", "enter → A4", "B1 → off"), ", captures", ", rolls again". */
void ur_format_action_long(const void *st, int seat, pl_action a, pl_buf *out);
/* pl_game.events: what an action did as typed JSON events (docs/web-views.md,
 * "Events": first, throw, pass, move, capture, flip, bear-off, again), the
 * same for every viewer. Returns 0, or -1 when memory ran out. */
int ur_events(const void *before, int seat, pl_action a, const void *after, int viewer, struct json_t *arr);
/* pl_game.action_fields: a legal piece move's from, depth, to, captures,
 * flips, off, again; a legal pass's {"pass": true}; nothing for another
 * action. Returns 0, or -1 when memory ran out. */
int ur_action_fields(const void *st, int seat, pl_action a, struct json_t *obj);
/* pl_game.events_text and action_fields_text: ur_events's and
 * ur_action_fields's JSON written as text into `out`, no allocation but the
 * buffer's. Return 0, or -1 when memory ran out (`out` may then hold part:
 * pl_events_json / pl_action_fields_json cut it back). */
int ur_events_text(const void *before, int seat, pl_action a, const void *after, int viewer, pl_buf *out);
int ur_action_fields_text(const void *st, int seat, pl_action a, pl_buf *out);
/* pl_game.describe: captures, pieces borne off, extra rolls, in words for
 * `viewer` ("Dark's B1 captured your piece, back to your reserve."),
 * written from the same events as ur_events. */
void ur_describe(const void *before, int seat, pl_action a, const void *after, int viewer, pl_buf *out);
/* pl_game.mark_move: highlights the squares a move left and reached. */
void ur_mark_move(const void *before, int seat, pl_action a, const void *after, int viewer, pl_canvas *c);

#endif
