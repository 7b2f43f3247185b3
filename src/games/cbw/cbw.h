/* cbw.h — City Behind Walls (SKIM-4, ../shared/rules/city-behind-walls.md):
 * the state layout, shared by the rules (cbw.c), the notation, views and
 * pictures (cbw_text.c) and the tests. Everything else uses `cbw_game`.
 *
 * Cards are numbered 0..51: suit * 13 + rank, suits S H D C (0..3), ranks
 * 2..A as 0..12. A hand or any set of cards is a 64-bit mask of those bits.
 * Red suits (team 0) are H and D, black suits (team 1) S and C.
 *
 * The table is a fixed frame of CBW_STRIDE x CBW_STRIDE cells centred on the
 * first card (0,0): every card ever placed lies within W-1 columns and H-1
 * rows of it (rule notes), so coordinates never need re-centring. Each cell
 * holds 0 (free and inside the Rectangle, CBW-R10/R16), CBW_OUT (outside the
 * Rectangle, or beyond the frame: the sentinels) or 1 + the card on it. The
 * "inside" cells always form the rectangle [ix0,ix1] x [iy0,iy1].
 *
 * Beside the cells, `occ` holds one 64-bit row mask per frame row (bit
 * x + CBW_OFF of row y + CBW_OFF set when a card lies on (x, y)), so that
 * legal-move generation finds the cells next to cards with a few shifts,
 * and `nb` holds for every free cell what its neighbours are: the set of their
 * suits (bits 0-3) and the lowest rank of a red (bits 4-7) and of a black
 * (bits 8-11) neighbour, 15 for none; from it and a table, the cards that
 * Diversity and Seniority allow on a cell come in one step.
 *
 * Groups (CBW-R17) are kept incrementally as circular lists of cards with a
 * root card, and each root holds pseudo-liberties: the number of (card, free
 * neighbour) pairs, with the sum and the sum of squares of the neighbours'
 * cell indices, so that "no liberty" (count 0) and "the only liberty is p"
 * (every pair names p) are exact O(1) tests. Placements, captures and the
 * cells that a fixed edge takes out of the Rectangle all update them in
 * place; nothing in play recomputes groups from scratch.
 * Threading: pure functions over caller-owned states.
 */
#ifndef CBW_H
#define CBW_H

#if !defined(PARLOUR_IN_GAMES)
#error "cbw.h is internal to the games layer (src/games/cbw): other layers use include/parlour/game.h"
#endif

#include <stdint.h>

#include "parlour/game.h"

#define CBW_MAXDIM 16            /* W and H at most 16 (CBW-R7) */
#define CBW_OFF 16               /* coordinate offset: x = -16..16 maps to 0..32 */
#define CBW_STRIDE 33            /* frame with sentinels: 2*15+1 cells + 2 */
#define CBW_NCELL (CBW_STRIDE * CBW_STRIDE)
#define CBW_OUT 0xFF             /* cell value: outside the Rectangle or the frame */
#define CBW_MAXSEATS 6
#define CBW_NCARDS 52

/* What the layout relies on: a frame row fits a 64-bit row mask, a card
 * set a 64-bit hand, a card and a coordinate + 32 the 6-bit fields of an
 * action code, the seats PL_MAX_SEATS. */
_Static_assert(CBW_STRIDE <= 64, "a frame row is one 64-bit mask");
_Static_assert(CBW_STRIDE == 2 * (CBW_MAXDIM - 1) + 3, "the frame holds any W x H span plus sentinels");
_Static_assert(CBW_NCARDS <= 64, "a set of cards is one 64-bit mask; a card fits 6 bits");
_Static_assert(CBW_OFF + 32 < 64, "x + 32 and y + 32 fit the 6-bit fields of an action");
_Static_assert(CBW_MAXSEATS <= PL_MAX_SEATS, "seats fit the interface's arrays");

enum { CBW_SPADES, CBW_HEARTS, CBW_DIAMONDS, CBW_CLUBS };
enum { CBW_RED, CBW_BLACK }; /* teams = colours */
enum cbw_phase { CBW_PH_FIRST, CBW_PH_MOVE, CBW_PH_OVER };

/* Action codes. A placement holds the card (bits 0-5), x + 32 (bits 6-11)
 * and y + 32 (bits 12-17). */
#define CBW_ACT_PLACE (1u << 20)
#define CBW_ACT_PASS (1u << 21)
#define CBW_ACT_FIRST (1u << 22) /* | team */

static inline pl_action cbw_place(int card, int x, int y)
{
    return CBW_ACT_PLACE | (pl_action)card | (pl_action)(x + 32) << 6 | (pl_action)(y + 32) << 12;
}
static inline int cbw_act_card(pl_action a) { return (int)(a & 63); }
static inline int cbw_act_x(pl_action a) { return (int)((a >> 6) & 63) - 32; }
static inline int cbw_act_y(pl_action a) { return (int)((a >> 12) & 63) - 32; }
static inline int cbw_suit(int card) { return card / 13; }
static inline int cbw_rank(int card) { return card % 13; } /* 0 = 2 ... 12 = A */
static inline int cbw_colour(int card) { int s = card / 13; return s == CBW_SPADES || s == CBW_CLUBS; }
static inline int cbw_cell(int x, int y) { return (y + CBW_OFF) * CBW_STRIDE + x + CBW_OFF; }
static inline int cbw_cell_x(int p) { return p % CBW_STRIDE - CBW_OFF; }
static inline int cbw_cell_y(int p) { return p / CBW_STRIDE - CBW_OFF; }

/* One placement of the history, with the passes just before it. */
typedef struct cbw_hist {
    uint8_t passes, card;
    int8_t x, y;
} cbw_hist;

typedef struct cbw_state {
    /* options */
    uint8_t players; /* 2, 4 or 6 (option) */
    uint8_t nseats;  /* 4 or 6 */
    uint8_t deck;    /* 36 or 52 */
    uint8_t w, h;
    uint8_t first_opt; /* 0 random, 1 red, 2 black */
    /* position */
    uint8_t phase;   /* enum cbw_phase */
    uint8_t turn;    /* seat to move */
    uint8_t passes;  /* consecutive passes just made */
    uint8_t started; /* a card has been placed (the span exists) */
    uint8_t opener;  /* team that opened (0xff while undrawn) */
    uint8_t nhist;
    int8_t x0, x1, y0, y1;     /* span, when started (CBW-R8) */
    int8_t ix0, ix1, iy0, iy1; /* inside rectangle (CBW-R10) */
    uint8_t cap1, cap2;        /* cards captured by steps 1 and 2 of the last move */
    uint64_t hand[CBW_MAXSEATS];
    uint64_t prisoners[2]; /* cards captured BY each team */
    uint64_t table;        /* cards on the table */
    uint64_t dealt;        /* cards of the game (hands + table + prisoners at the start) */
    uint16_t pos[CBW_NCARDS];  /* cell of a card on the table */
    uint8_t root[CBW_NCARDS];  /* group root card */
    uint8_t next[CBW_NCARDS];  /* next card of the group (circular) */
    uint8_t gsize[CBW_NCARDS]; /* per root: cards in the group */
    uint16_t plib[CBW_NCARDS]; /* per root: pseudo-liberties */
    uint32_t lsum[CBW_NCARDS]; /* per root: sum of liberty cell indices */
    uint32_t lsq[CBW_NCARDS];  /* per root: sum of their squares */
    cbw_hist hist[CBW_NCARDS];
    uint64_t occ[CBW_STRIDE];  /* row masks of the cards on the table */
    uint16_t nb[CBW_NCELL];    /* neighbours' suits and lowest ranks per colour
                                  (exact on free cells; stale on others) */
    uint8_t cell[CBW_NCELL];
} cbw_state;

extern const pl_game cbw_game;

/* The game's part of the structured view (pl_game.view_json, cbw_text.c):
 * the table, spans and fixed edges, the viewer's hand only, hand sizes,
 * prisoners, castles, score, the public history. */
int cbw_view_json(const void *st, int viewer, struct json_t *obj);
/* pl_game.view_text: the same part written as text (cbw_text.c). */
int cbw_view_text(const void *st, int viewer, struct pl_jfields *f);

/* Team (= colour) of a seat: even seats Red, odd seats Black (CBW-R1). */
static inline int cbw_team(int seat) { return seat & 1; }
/* True when the axis is fixed (CBW-R9): the span has reached W (or H). */
static inline int cbw_fixed_x(const cbw_state *s) { return s->started && s->x1 - s->x0 + 1 == s->w; }
static inline int cbw_fixed_y(const cbw_state *s) { return s->started && s->y1 - s->y0 + 1 == s->h; }

/* Rules helpers (cbw.c). */
/* Lowest rank of the deck: 0 (the 2) with 52 cards, 4 (the 6) with 36. */
int cbw_low_rank(const cbw_state *s);
/* Why placement `a` by `seat` is illegal, in the rules' words, appended to
 * `out` (every rule it breaks, "; "-separated); returns 0 when it is legal. */
int cbw_why_illegal(const cbw_state *s, int seat, pl_action a, pl_buf *out);
/* Why a placement is refused, as data (cbw_refusal_why): one reason, the
 * first the rules' order finds (the order cbw_why_illegal tells them in). */
typedef enum {
    CBW_WHY_NONE,         /* legal, a pass, or not a placement */
    CBW_WHY_NO_CARD,      /* CBW-R3: no such card in this deck */
    CBW_WHY_NOT_HELD,     /* CBW-R4: a card of the seat's colour it does not hold */
    CBW_WHY_OTHER_COLOUR, /* CBW-R4: a card of the other team's colour */
    CBW_WHY_FIRST_CELL,   /* CBW-R11: the first card goes at 0,0 */
    CBW_WHY_FIRST_RANK,   /* CBW-R11: the first card is of rank 6 (2) to 10 */
    CBW_WHY_OUTSIDE,      /* CBW-R13: the span would outgrow the Rectangle */
    CBW_WHY_OCCUPIED,     /* CBW-R16: the cell holds a card */
    CBW_WHY_CONTINUITY,   /* CBW-R12: no card next to the cell */
    CBW_WHY_SAME_SUIT,    /* CBW-R14: it would touch a card of its suit */
    CBW_WHY_SENIORITY,    /* CBW-R15: not higher than an other-colour neighbour */
    CBW_WHY_SUICIDE       /* CBW-R19: its group would have no liberty */
} cbw_reason;

/* The data of a refusal: the reason and what it names. */
typedef struct {
    cbw_reason why;
    int card, x, y;   /* the placement */
    int other;        /* OCCUPIED: the card there; SAME_SUIT: the one it would touch; else -1 */
    uint64_t nbrs;    /* SENIORITY: the other colour's neighbours it is not higher than */
    int low;          /* FIRST_RANK: the lowest rank allowed (0 = the 2) */
    int fixed;        /* OUTSIDE: 1 when a fixed wall stops it (CBW-R9), else 0 */
} cbw_refused;

/* Fills `r` with why `seat`'s placement `a` is refused in `s`: the first
 * rule it breaks, in cbw_why_illegal's order; r->why is CBW_WHY_NONE when
 * `a` is legal, a pass or not a placement. Cannot fail; never changes `s`. */
void cbw_refusal_why(const cbw_state *s, int seat, pl_action a, cbw_refused *r);
/* pl_game.refusal (cbw_text.c): cbw_refusal_why as {"why": WORD, ...}
 * (docs/web-views.md, cbw "Refusals"); -1 when there are no words (legal,
 * a pass, a seat out of range) or memory ran out. */
int cbw_refusal(const void *st, int seat, pl_action a, struct json_t *obj);
/* Castles per team at this moment (CBW-R23, R24), as if the game ended now. */
void cbw_castles(const cbw_state *s, int castles[2]);
/* cbw_castles that also marks, when `mark` is not NULL, every castle
 * cell: mark[cell] is 1 + the team it scores for, 0 for every other cell
 * (`mark` has CBW_NCELL bytes). */
void cbw_castle_map(const cbw_state *s, int castles[2], uint8_t *mark);
/* What `seat`'s legal placement `a` would capture (CBW-R18), without
 * playing it: returns the number of cards of the other colour taken by
 * step 1, and sets `*lost` to the number of the mover's own taken by step
 * 2. O(1) unless the placement fixes an axis (at most two a game): then it
 * plays it on a copy. Never changes `s`. */
int cbw_would_capture(const cbw_state *s, int seat, pl_action a, int *lost);
/* Team totals (castles + prisoners, CBW-R26), as if the game ended now. */
void cbw_score(const cbw_state *s, int score[2]);
/* Recomputes the row masks, neighbour summaries, groups and liberties from
 * the cells (for a position read from text, and to check the incremental
 * data). */
void cbw_rebuild(cbw_state *s);
/* Recomputes the inside rectangle from the span and marks cells (used when
 * reading positions). */
void cbw_set_inside(cbw_state *s);
/* Checks the incremental data against a recomputation from scratch and the
 * table's invariants; returns 0, or -1 with what is wrong in `err` (tests). */
int cbw_check(const cbw_state *s, pl_buf *err);
/* Legal placements computed the slow way (every cell, every card, a copy
 * applied for each), for cross-checking `legal` in tests. Same order. */
int cbw_legal_slow(const cbw_state *s, int seat, pl_action *out, int cap);

/* Notation, views and pictures (cbw_text.c). */
/* Appends the card's text ("QS", "10H"); `symbol` uses ♠♥♦♣ instead. */
void cbw_card_text(int card, int symbol, pl_buf *out);
/* Parses a card at `*t` ("QS", "10h", "Q♠"), advancing `*t`; -1 if none. */
int cbw_card_parse(const char **t);
/* Parses a deal option "H0/H1/..." into hands; 0, or -1 with a message. */
int cbw_deal_parse(const cbw_state *s, const char *text, uint64_t *hands, pl_buf *err);
void cbw_format_action(const void *st, int seat, pl_action a, pl_buf *out);
int cbw_parse_action(const void *st, int seat, const char *text, pl_action *a, pl_buf *err);
void cbw_explain_illegal(const void *st, int seat, pl_action a, pl_buf *out);
void cbw_draw(const void *st, int seat, pl_canvas *c);
/* pl_game.seat_name: the colour of the seat's team, "Red" or "Black". */
void cbw_seat_name(const void *st, int seat, pl_buf *out);
void cbw_view(const void *st, int seat, pl_buf *out);
void cbw_to_text(const void *st, pl_buf *out);
int cbw_from_text(void *st, const char *text, pl_buf *err);
/* pl_game.events (docs/web-views.md, cbw "Events"): "first" (the team
 * drawn to open), "place", "fix" (an axis's edges fixed), one "capture" per
 * group taken (its cards and cells, the team that took it and the team
 * that lost it), "pass", and when the last pass ends the game one "castle"
 * per walled-in region and "end" (castles, prisoners, score, winner). Only
 * cards on the table: the same for every viewer. */
int cbw_events(const void *before, int seat, pl_action a, const void *after, int viewer, struct json_t *arr);
/* pl_game.action_fields: {"move": "place", "card", "x", "y", "captures",
 * "loses"} (the cards that step 1 and step 2 of CBW-R18 would take), or
 * {"move": "pass"}, or {"move": "first", "team"}. */
int cbw_action_fields(const void *st, int seat, pl_action a, struct json_t *obj);
/* pl_game.events_text: cbw_events' array written as compact JSON text with
 * sorted keys, the bytes pl_json_dump writes of it (from the same list of
 * events). Returns 0, or -1 when memory ran out (`out->oom`). */
int cbw_events_text(const void *before, int seat, pl_action a, const void *after, int viewer, pl_buf *out);
/* pl_game.action_fields_text: cbw_action_fields' object as the same text
 * ("{}" for an action with none). Returns 0, or -1 when memory ran out. */
int cbw_action_fields_text(const void *st, int seat, pl_action a, pl_buf *out);
/* pl_game.describe, written from cbw_events' "capture" events: every
 * capture of a placement, group by group, and the team the prisoners go
 * to ("Seat 1's 7♠ captured 5♥ 6♥ and 9♦: 3 prisoners for Black."). Only
 * cards on the table: the same for every viewer but for "Your" and "(your
 * team)". */
void cbw_describe(const void *before, int seat, pl_action a, const void *after, int viewer, pl_buf *out);

#endif
