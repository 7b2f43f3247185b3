/* review_hidden.h — the review of a hidden-card game (Tam Cúc, City Behind
 * Walls; issue 34 §5, docs/hints.md "Reviews of hidden-card games"): each
 * decision where the strongest player, from the deciding seat's own view of
 * the cards at that moment, would have chosen otherwise, with both estimates.
 * Prefix ai_review_hidden_.
 *
 * Only the decider's view: each decision is searched from a state drawn from
 * what the decider saw then (`determinize`, seeded from the review's seed and
 * the decision's index), as ai_hint does (hint.h); nothing else of the true
 * state is read. So the review of a decision is the same for any two true
 * states that differ only in what the decider could not see
 * (tests/test_property_review_hidden.c). Values are MCTS estimates
 * (mcts_analyse: the mean reward of the move played and of the move the
 * search prefers), never exact: no table covers these games.
 *
 * Ownership: ai_review_hidden_run returns a review the caller frees with
 * ai_review_hidden_free. Thread-safety: reentrant; reads only its arguments.
 */
#ifndef AI_REVIEW_HIDDEN_H
#define AI_REVIEW_HIDDEN_H

#if !defined(PARLOUR_IN_AI) && !defined(PARLOUR_IN_FRONT)
#error "review_hidden.h belongs to the AI layer: only the AI and the front ends may include it"
#endif

#include "parlour/match.h"

/* One decision reviewed. */
typedef struct ai_review_hidden_move {
    int index;            /* the action's index in the history */
    int seat;             /* the decider */
    int nlegal;           /* its legal actions then */
    pl_action played, best;
    double played_value;  /* estimated P(decider's side wins) after the move played */
    double best_value;    /* ... after the strongest player's move */
} ai_review_hidden_move;

typedef struct ai_review_hidden {
    int nhist;            /* actions in the history reviewed */
    int ndecisions;       /* decisions searched (a seat with more than one legal action) */
    int decisions[PL_MAX_SEATS]; /* ... per seat */
    ai_review_hidden_move *moves; /* the decisions where best != played, in history order */
    int nmoves;
    long budget;          /* MCTS iterations a decision */
} ai_review_hidden;

typedef struct ai_review_hidden_params {
    long iterations; /* MCTS iterations a decision (0: AI_REVIEW_HIDDEN_ITERATIONS) */
    int threads;     /* 1..8 (0: 1) */
    uint64_t seed;   /* the review's seed (each decision: with its index) */
} ai_review_hidden_params;

#define AI_REVIEW_HIDDEN_ITERATIONS 2000L

/* Reviews one decision: `seat` played `played` in `st` (the true state
 * before it, or any state the seat cannot tell from it), searched from the
 * seat's view only with `p` and `seed`. Returns 0 with `*out` set (index 0:
 * the caller sets it), or -1 with a message (the seat does not act, `played`
 * not legal, bad parameters, no memory). `st` is never changed. */
int ai_review_hidden_decision(const pl_game *g, const void *st, int seat, pl_action played,
                              const ai_review_hidden_params *p, uint64_t seed, ai_review_hidden_move *out,
                              pl_buf *err);

/* Reviews the game of `g` from `initial` through `hist[0..nhist)` (a
 * pl_match's initial state and history): every decision of a seat with more
 * than one legal action, each with ai_review_hidden_decision and the seed
 * p->seed + its index. Returns the review (ai_review_hidden_free), or NULL
 * with a message: a game without hidden information (Ur: review.h), one
 * played in real time (karuta), an action the rules refuse, no memory. Work:
 * p->iterations MCTS iterations per decision. */
ai_review_hidden *ai_review_hidden_run(const pl_game *g, const void *initial, const pl_move *hist, int nhist,
                                       const ai_review_hidden_params *p, pl_buf *err);
/* Frees a review; NULL is a no-op. */
void ai_review_hidden_free(ai_review_hidden *r);

/* Appends the review as one JSON object: {"kind":"hidden","estimate":true,
 * "iterations":N,"decisions":[per seat],"moves":[{"index","seat","played",
 * "best" (notation, as the decider may see it),"best_fields","played_fields"
 * (the moves' action fields),"played_value","best_value"}]}. `g`, `initial`, `hist` are
 * those the review was run on. Returns 0, or -1 with a message (no memory;
 * `out` then cut back). */
int ai_review_hidden_json(const ai_review_hidden *r, const pl_game *g, const void *initial, const pl_move *hist,
                          pl_buf *out, pl_buf *err);

#endif
