/* tc.h — Tam Cúc (rules/tam-cuc.md, TC-R1 … TC-R9): the state layout and the
 * helpers shared by the rules (tc.c), the notation, views and pictures
 * (tc_text.c) and the tests. Everything else uses `tc_game` (game.h).
 *
 * Cards. The 14 kinds are numbered by strength (TC-R1.3): kind = 2·r + red,
 * r = 0 S, 1 H, 2 N, 3 C, 4 E, 5 A, 6 G; so 0 is bS and 13 rG. A multiset of
 * cards (a hand, a pile, a set) is a `tc_cards`: one 4-bit count per kind,
 * kind k in bits 4k..4k+3 (no count ever exceeds 5, so bit 3 of each nibble
 * is free and subset tests need no loop).
 *
 * Seats are in playing order: seat s+1 plays after seat s (the player on
 * s's right, TC-R3.4), wrapping.
 * Threading: pure functions over caller-owned states.
 */
#ifndef TC_H
#define TC_H

#if !defined(PARLOUR_IN_GAMES)
#error "tc.h is internal to the games layer (src/games/tamcuc): other layers use include/parlour/game.h"
#endif

#include <stdint.h>

#include "parlour/game.h"

typedef uint64_t tc_cards;

enum { TC_NKIND = 14, TC_NPHYS = 32, TC_MAXP = 4 };
enum { TC_BS, TC_RS, TC_BH, TC_RH, TC_BN, TC_RN, TC_BC, TC_RC, TC_BE, TC_RE, TC_BA, TC_RA, TC_BG, TC_RG };

#define TC_ONE(k) ((tc_cards)1 << (4 * (k)))
#define TC_NIB(x, k) ((int)(((x) >> (4 * (k))) & 15))
#define TC_GUARD 0x88888888888888ull /* bit 3 of each of the 14 nibbles */

/* Number of cards in a multiset. */
static inline int tc_size(tc_cards x)
{
    uint64_t b = (x & 0x0f0f0f0f0f0f0f0full) + ((x >> 4) & 0x0f0f0f0f0f0f0f0full);
    return (int)((b * 0x0101010101010101ull) >> 56);
}
/* True when `y` is a sub-multiset of `x`. */
static inline int tc_subset(tc_cards y, tc_cards x)
{
    return (((x | TC_GUARD) - y) & TC_GUARD) == TC_GUARD;
}
/* Per-kind minimum of two multisets. */
static inline tc_cards tc_min(tc_cards a, tc_cards b)
{
    tc_cards r = 0;
    for (int k = 0; k < TC_NKIND; k++) {
        int x = TC_NIB(a, k), y = TC_NIB(b, k);
        r |= (tc_cards)(x < y ? x : y) << (4 * k);
    }
    return r;
}
/* a − b per kind, floored at 0. */
static inline tc_cards tc_sub0(tc_cards a, tc_cards b)
{
    return a - tc_min(a, b);
}

/* Phases. */
enum tc_phase {
    TC_PH_COUNT,  /* chance: the counting for the first dealer (TC-R4.1) */
    TC_PH_DEALER, /* chance: first dealer at random */
    TC_PH_DEAL,   /* chance: the deal (TC-R4.3) */
    TC_PH_EXCH,   /* every seat at once: night exchange (TC-R4.4) */
    TC_PH_DECL,   /* declarations of Four and Five (TC-R5) */
    TC_PH_LEAD,   /* the leader lays his set face down (TC-R6.1) */
    TC_PH_LAY,    /* followers lay n cards face down (TC-R6.2) */
    TC_PH_REVEAL, /* followers reveal or hide (TC-R6.3) */
    TC_PH_OVER
};

/* Option values (indices in the option tables). */
enum { TC_D_SEED27, TC_D_ALT27, TC_D_30 };
enum { TC_OPEN_INITIAL, TC_OPEN_CURRENT, TC_OPEN_OFF };
enum { TC_FD_COUNT, TC_FD_RANDOM };
enum { TC_ND_ROTATE, TC_ND_LASTWIN, TC_ND_RECOUNT };
enum { TC_SS_SEIZE, TC_SS_AUTOWIN, TC_SS_NONE };
enum { TC_FNL_DEALER, TC_FNL_WINNER };
enum { TC_BAN_NONE, TC_BAN_GA, TC_BAN_GAE, TC_BAN_GAEBS };
enum { TC_2P_DIFF, TC_2P_HALF };
enum { TC_30_MINUS3, TC_30_THIRDS };
enum { TC_PAYEE_WINNER, TC_PAYEE_ALL };
enum { TC_SESS_DEALS, TC_SESS_TARGET };

/* Action codes of seats: a tag in bits 60..63, cards in the low 56 bits.
 * Chance outcomes are read by phase: TC_PH_DEAL's is the deal itself (2 bits
 * of owner per physical card, see tc_phys_kind; 3 = not in the deck),
 * TC_PH_COUNT's is the provisional dealer in bits 0..1 and the kinds of the
 * counting cards, 4 bits each from bit 4, TC_PH_DEALER's is the seat. */
#define TC_TAG(a) ((unsigned)((a) >> 60))
#define TC_CARDS(a) ((a) & 0x00ffffffffffffffull)
enum { TC_A_LEAD = 1, TC_A_LAY, TC_A_REVEAL, TC_A_HIDE, TC_A_DECL, TC_A_NODECL, TC_A_PASS };
#define TC_MK(tag, x) (((pl_action)(tag) << 60) | (pl_action)(x))

/* Most declarations a deal can hold (each seat at most one, TC-R5 [I]). */
enum { TC_MAXDECL = 4 };

typedef struct tc_state {
    /* ---- options, fixed by init ---- */
    uint8_t np, hs;        /* players, cards per hand */
    uint8_t deckopt, open2, first_dealer, next_dealer, night_k, soldier, mandatory;
    uint8_t four_next, seize_unlocks, autowin_ends, big_leads, ban, no_bg_last;
    uint8_t two_p_score, thirty_score, ket, overtake, payee, overtake_cnh;
    uint8_t sess_kind, pubdisc_off;
    int8_t opt_dealer;     /* dealer=, -1 none */
    uint8_t has_fixed;     /* deal= given: first deal fixed */
    uint16_t sess_n;       /* deals, or target score */
    uint64_t fixed_deal;   /* the deal= as a deal outcome */
    tc_cards deck;         /* the cards in play (TC-R3) */
    tc_cards banned;       /* TC-R7 banned kinds, nibble 0xf each */
    /* ---- session ---- */
    uint16_t deals_done;
    int16_t total[TC_MAXP];     /* session scores (TC-R8.5) */
    int16_t last_score[TC_MAXP]; /* the previous deal's scores */
    /* ---- the deal ---- */
    uint8_t phase, dealer;
    int8_t count_prov;            /* provisional dealer of the counting, -1 none */
    uint8_t count_card[TC_MAXP];  /* counting cards (kinds), public */
    uint8_t count_steps;          /* names assigned until a match */
    tc_cards hand[TC_MAXP];
    tc_cards dealt[TC_MAXP];  /* hands when play starts (after the exchange) */
    tc_cards won[TC_MAXP];    /* won piles, public (TC-R6.5) */
    tc_cards pub[TC_MAXP];    /* revealed discards, public */
    tc_cards sec[TC_MAXP];    /* unrevealed discards, owner only */
    tc_cards shown[TC_MAXP];  /* every card a seat has shown face up this deal */
    tc_cards passed[TC_MAXP]; /* night exchange: what seat s gave seat s+1 */
    uint8_t xdone;            /* exchange: seats that have passed (bit mask) */
    /* declarations (TC-R5) */
    uint8_t dround, dstep, dctr, dx, dcstep;
    uint8_t declared[TC_MAXP]; /* 0, or size | red << 3 | counter << 4 */
    uint8_t ndecl, decl_log[TC_MAXDECL]; /* seat | size << 2 | red << 5 | counter << 6 */
    uint8_t any_seize;         /* a SEIZE declaration this deal (TC-R5.4) */
    int8_t seizer;             /* leader fixed by TC-R5.2/5.3a, -1 none */
    int8_t extra_winner;       /* winner of the last extra Four trick, -1 none */
    uint8_t neg[TC_MAXP];      /* mandatory declaring: 1 no 5, 2 no 4, 4 no red 5, 8 no red 4 */
    uint8_t negdirty;          /* an extra trick was played during the declarations */
    /* the trick (TC-R6) */
    uint8_t tleader, tn, tstep, textra, tban, trev, thid, tshown;
    uint8_t tricks;            /* ordinary tricks finished */
    int8_t last_winner;        /* winner of the last trick, -1 none */
    tc_cards tlead, tlay[TC_MAXP];
    /* the previous trick, public parts, for the view and picture */
    uint8_t pv_valid, pv_leader, pv_n, pv_winner, pv_rev;
    tc_cards pv_lead, pv_lay[TC_MAXP]; /* revealed groups only (0 when hidden) */
    int16_t dscore[TC_MAXP];   /* scores of this deal so far (payments) */
    uint8_t ended_by_autowin;
} tc_state;

extern const pl_game tc_game;

/* Tables (tc.c). */
extern const char tc_rank_ch[7];            /* "SHNCEAG" */
extern const uint8_t tc_phys_kind[TC_NPHYS]; /* kind of physical card i */
extern const uint8_t tc_phys_copy[TC_NPHYS]; /* copy number of physical card i */

/* Strength of `x` as a set of `n` cards (TC-R2), or -1 when it is none. */
int tc_set_strength(tc_cards x, int n);
/* Seats that act now, like the interface's actors. */
int tc_actors(const void *st, int *seats);
/* Legal actions, like the interface's legal. */
int tc_legal(const void *st, int seat, pl_action *out, int cap);
/* Why seat action `a` is not legal for `seat` (written to `out`). */
void tc_why_illegal(const tc_state *s, int seat, pl_action a, pl_buf *out);
/* The reasons tc_illegal_reason tells apart (one word each in tc_refusal,
 * docs/web-views.md, "tamcuc", "Refusals"). */
enum {
    TC_WHY_OTHER,              /* none of these (a lead refused otherwise) */
    TC_WHY_NOT_NOW,            /* a lead, lay or pass out of its phase */
    TC_WHY_NOT_IN_HAND,        /* cards not all in the hand */
    TC_WHY_COUNT,              /* a lay or pass of the wrong number (TC-R6.2, TC-R4.4) */
    TC_WHY_EXTRA_FOUR,         /* the extra trick leads the declared Four (TC-R5.3) */
    TC_WHY_NOT_A_SET,          /* not a combination (TC-R2) */
    TC_WHY_BIG_LEADS_OFF,      /* Four/Five lead with big_soldier_leads=off (TC-R5.7) */
    TC_WHY_BANNED,             /* a banned card in the first trick's lead (TC-R7.3) */
    TC_WHY_BLACK_GENERAL_LAST, /* the black General in the last lead (TC-R9.1) */
    TC_WHY_REVEAL_LATER,       /* reveal/hide before the lead is shown (TC-R6.3) */
    TC_WHY_DECLARE_NOT_NOW,    /* a declaration outside its phase (TC-R5.1) */
    TC_WHY_DECLARE_ROUND,      /* Four in the round of Five or back (TC-R5.1) */
    TC_WHY_DECLARED,           /* this seat declared already (TC-R5.1) */
    TC_WHY_COUNTER_RED,        /* a counter needs red Soldiers (TC-R5.2, TC-R5.5) */
    TC_WHY_DECLARE_NEEDS,      /* not enough Soldiers of one colour (TC-R5.1) */
    TC_WHY_NODECLARE_NOT_NOW,  /* no declaration asked (TC-R5.1) */
    TC_WHY_MUST_DECLARE,       /* soldier_declare_mandatory=on (TC-R5.1) */
};
/* Which of the TC_WHY_ reasons refuses `seat`'s action `a` in `s` (an
 * action tc_legal does not list); TC_WHY_OTHER when none. Pure. */
int tc_illegal_reason(const tc_state *s, int seat, pl_action a);
/* The four Soldiers the extra trick must lead (TC-R5.3). Pure. */
tc_cards tc_extra_four(const tc_state *s);
/* Checks a deal outcome for `s`: 0, or -1 with a message. */
int tc_check_deal(const tc_state *s, uint64_t code, pl_buf *err);
/* Checks a counting outcome for `s`: 0, or -1 with a message. */
int tc_check_count(const tc_state *s, uint64_t code, pl_buf *err);
/* Lead ban state of the current trick start: 1 when the first-trick ban
 * applies to a lead made now (before lifting, TC-R7.1, TC-R5.4). */
int tc_ban_applies(const tc_state *s);
/* TC-R8.2: the base score of seat `p` for won piles of k[0..np-1] cards
 * (zero-sum over the seats). Cannot fail. */
int tc_base_score(const tc_state *s, const int *k, int p);
/* The seat asked in the declaration phase. */
int tc_decl_seat(const tc_state *s);

/* The quick heuristic player (tc_policy.c, pl_game.policy): a legal action
 * for `seat`, an actor in phase MOVE, from what `seat` may know. */
pl_action tc_policy(const void *st, int seat, pl_rng *rng);

/* Notation, views and pictures (tc_text.c). */
void tc_cards_text(tc_cards x, const char *sep, pl_buf *out);
int tc_parse_card(const char *t, int *kind);
/* Parses "rG,bA,…" (commas or spaces) into a multiset; -1 with message. */
int tc_parse_cards(const char *t, tc_cards *x, int *n, pl_buf *err);
void tc_format_action(const void *st, int seat, pl_action a, pl_buf *out);
void tc_format_action_for(const void *st, int seat, pl_action a, int viewer, pl_buf *out);
int tc_parse_action(const void *st, int seat, const char *text, pl_action *a, pl_buf *err);
void tc_explain_illegal(const void *st, int seat, pl_action a, pl_buf *out);
void tc_draw(const void *st, int seat, pl_canvas *c);
/* The cards of `x` in notation (["rG","bA",…]), strongest kind first as
 * tc_cards_text lists them; a new jansson array, NULL when memory runs out. */
struct json_t *tc_cards_json(tc_cards x);

/* What happened (tc_events.c). pl_game.events: the typed events of an
 * action as `viewer` may know them (docs/web-views.md, "tamcuc"): the
 * counting, the dealer, the deal (own hand only), a night pass and the
 * exchange, a declaration or none, payments, a lead, a lay, the lead shown,
 * a reveal or a hide (face-down cards only for their owner), the trick won
 * with its set, kết and overtake, the deal's score lines, the game's end.
 * 0, or -1 when memory ran out. */
int tc_events(const void *before, int seat, pl_action a, const void *after, int viewer, struct json_t *arr);
/* pl_game.action_fields: a legal action's verb and cards (lead, lay, pass,
 * reveal, hide: count, face, cards) or declaration (size, colour, counter).
 * 0, or -1 when memory ran out. */
int tc_action_fields(const void *st, int seat, pl_action a, struct json_t *obj);
/* pl_game.events_text: tc_events's array written straight as text, the
 * bytes pl_json_dump writes of it (found by the same builder, so the two
 * cannot disagree; tests/test_property_events_text.c compares them). 0, or
 * -1 when memory ran out (out->oom). */
int tc_events_text(const void *before, int seat, pl_action a, const void *after, int viewer, pl_buf *out);
/* pl_game.action_fields_text: tc_action_fields's object ("{}" for none) as
 * text, by the rules of tc_events_text. 0, or -1 when memory ran out. */
int tc_action_fields_text(const void *st, int seat, pl_action a, pl_buf *out);
/* pl_game.refusal: why `seat`'s well-formed action `a` is refused, as
 * {"why": WORD, ...} (docs/web-views.md, "tamcuc", "Refusals"; the words
 * are tc_illegal_reason's). Returns 0, or -1 when memory ran out or the
 * reason has no word (TC_WHY_OTHER). Never changes `st`. */
int tc_refusal(const void *st, int seat, pl_action a, struct json_t *obj);
/* pl_game.describe, worded from tc_events: who won a trick and with what
 * (a winning set is always shown), and at a deal's end its score breakdown
 * per seat: cards won, base score (TC-R8.2), payments (declarations, kết,
 * overtake) and the deal's total. Only public facts: the same for every
 * viewer but "you". Sets out->oom when memory runs out. */
void tc_describe(const void *before, int seat, pl_action a, const void *after, int viewer, pl_buf *out);
void tc_view(const void *st, int seat, pl_buf *out);
/* The game's part of the structured view (pl_game.view_json): the
 * viewer's hand, hand sizes, the trick with face-down groups as backs,
 * declarations, tricks won, discards, scores, the ban marker. */
int tc_view_json(const void *st, int viewer, struct json_t *obj);
/* pl_game.view_text: the same part written as text (tc_text.c). */
int tc_view_text(const void *st, int viewer, struct pl_jfields *f);
void tc_to_text(const void *st, pl_buf *out);
int tc_from_text(void *st, const char *text, pl_buf *err);
/* pl_game.check_state: what tc_from_text requires of a position (cards
 * conserved, seats and counts in range). 0, or -1 with what is wrong. */
int tc_check_state(const void *st, pl_buf *why);
/* Encodes per-seat hands (of `s`'s deck) as a deal outcome. */
uint64_t tc_encode_deal(const tc_state *s, const tc_cards *hands);
/* Decodes a deal outcome into per-seat hands, and the cards it leaves out
 * of the deck in `*removed`. */
void tc_decode_deal(const tc_state *s, uint64_t code, tc_cards *hands, tc_cards *removed);

#endif
