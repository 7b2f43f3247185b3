/* review.h — a review of a finished (or unfinished) game, decision by
 * decision, from exact values or from a search's estimates (docs/review.md).
 *
 * For two-seat games of full information with chance (the Royal Game of Ur):
 * for every decision with more than one legal action, the mover's chance to
 * win after the move played and after the best move, the loss (best −
 * played) and a class; each seat's accuracy; the win-chance series through
 * the game (for a chart); and the split of each seat's result into luck (the
 * swings of its win chance at chance points: throws, and forced moves) and
 * skill (the opponent's losses less its own), with
 *
 *     result − start = luck + skill      (for each seat, exactly)
 *
 * because the series telescopes: every step of the win chance is either a
 * decision's −loss (or the opponent's +loss) or a swing counted as luck.
 *
 * Values come from an exact table (perfect.h: ai_perfect_value) when one is
 * given and holds every position of the game; otherwise from MCTS root
 * analysis (mcts_analyse: each action's mean reward), marked as an estimate.
 *
 * Ownership: ai_review_run returns a review the caller frees with
 * ai_review_free. Thread-safety: a review run only reads the game, the
 * history and the table; several may run at once (each on its own review).
 */
#ifndef AI_REVIEW_H
#define AI_REVIEW_H

#if !defined(PARLOUR_IN_AI) && !defined(PARLOUR_IN_FRONT)
#error "review.h belongs to the AI layer: only the AI and the front ends may include it"
#endif

#include "parlour/match.h"
#include "perfect.h"

/* The classes of a decision by its loss (docs/review.md): best when the
 * move played is a best move (loss below 1e-9), good below 0.01, an
 * inaccuracy below 0.04, a mistake below 0.10, else a blunder. */
typedef enum ai_review_class {
    AI_REVIEW_BEST,
    AI_REVIEW_GOOD,
    AI_REVIEW_INACCURACY,
    AI_REVIEW_MISTAKE,
    AI_REVIEW_BLUNDER,
    AI_REVIEW_NCLASSES
} ai_review_class;

#define AI_REVIEW_GOOD_BELOW 0.01
#define AI_REVIEW_INACCURACY_BELOW 0.04
#define AI_REVIEW_MISTAKE_BELOW 0.10

/* One decision (a seat with more than one legal action). */
typedef struct ai_review_move {
    int index;          /* the action's index in the history */
    int seat;           /* the mover */
    int nlegal;         /* legal actions it had */
    pl_action played, best;
    double played_value; /* P(mover wins) after the move played */
    double best_value;   /* P(mover wins) after the best move (= before the decision) */
    double loss;         /* best_value − played_value, >= 0 */
    ai_review_class cls;
} ai_review_move;

typedef struct ai_review {
    int exact;          /* 1: values from a table; 0: estimates */
    int nhist;          /* actions in the history reviewed */
    int over;           /* the game had ended */
    /* P(seat 0 wins) before history action i (i = nhist: after the last
     * action), or -1 where no value is known (an estimate knows none at a
     * chance state between two throws, or after a forced move). */
    double *series;
    ai_review_move *moves;
    int nmoves;
    double start;       /* P(seat 0 wins): the first known value of the series */
    double end;         /* P(seat 0 wins): the last known value (the result when over) */
    double luck[2];     /* per seat: the sum of its win chance's swings outside decisions */
    double lost[2];     /* per seat: the sum of its decisions' losses */
    double skill[2];    /* per seat: lost[other] − lost[seat] */
    double accuracy[2]; /* per seat: 100 · mean of max(0, 1 − loss / 0.10) over its
                           decisions; 100 with none */
    int count[2][AI_REVIEW_NCLASSES]; /* decisions per seat and class */
    long iterations;    /* estimate: iterations searched in all */
    long budget;        /* estimate: iterations a decision (0 when exact) */
} ai_review;

typedef struct ai_review_params {
    long iterations; /* estimate: MCTS iterations per decision (0: 2000) */
    int threads;     /* estimate: 1..8 (0: 1) */
    uint64_t seed;   /* estimate: the search's seed (with the decision's index) */
} ai_review_params;

/* The class of a loss (thresholds above). Cannot fail. */
ai_review_class ai_review_classify(double loss);
/* The class's name in English: "best", "good", "inaccuracy", "mistake",
 * "blunder" (the JSON's words; the front ends translate them). */
const char *ai_review_class_name(ai_review_class c);

/* Reviews the game of `g` from the state `initial` through `hist[0..nhist)`
 * (a pl_match's initial state and history). With `table` (may be NULL)
 * every value is exact, and a position the table does not hold is an error
 * (the caller may retry without it); without, values are estimates by MCTS
 * with `p` (NULL: the defaults). Returns the review (ai_review_free), or
 * NULL with a message: not a two-seat game of full information, an action
 * the rules refuse, a position the table does not hold, no memory. Reads
 * only its arguments. Work: one table look-up per legal action per decision,
 * or p->iterations MCTS iterations per decision. */
ai_review *ai_review_run(const pl_game *g, const void *initial, const pl_move *hist, int nhist,
                         const ai_perfect *table, const ai_review_params *p, pl_buf *err);
/* Reviews a match (its initial state and history): ai_review_run. */
ai_review *ai_review_match(const pl_match *m, const ai_perfect *table, const ai_review_params *p,
                           pl_buf *err);
/* Frees a review; NULL is a no-op. */
void ai_review_free(ai_review *r);

/* Appends the review as one JSON object (docs/review.md, "JSON"): "exact",
 * "series", "moves" (each with the played and best move in notation, the
 * best move's action fields for a board to show it, the values, loss and
 * class), "seats" (accuracy, luck, skill, lost, classes), "start", "end".
 * `g`, `initial` and `hist` are those the review was run on. Returns 0, or
 * -1 with a message (no memory); `out` is then cut back. */
int ai_review_json(const ai_review *r, const pl_game *g, const void *initial, const pl_move *hist,
                   pl_buf *out, pl_buf *err);

struct json_t;
/* A reviewed move for the JSON of both reviews (this one and
 * review_hidden.h's): `seat`'s action `a` in `st` in notation as the seat
 * sees it, as a JSON string, or NULL when memory runs out; and its action
 * fields (pl_action_fields_json) as a JSON value, null when the game has
 * none. The caller owns the reference either returns. */
struct json_t *ai_review_text_json(const pl_game *g, const void *st, int seat, pl_action a);
struct json_t *ai_review_fields_json(const pl_game *g, const void *st, int seat, pl_action a);

#endif
