/* review.c — a game's review from exact values or MCTS estimates (review.h,
 * docs/review.md).
 *
 * One pass over the history: before each action the win chance of seat 0
 * (the series) where it is known, and at each decision every legal action's
 * value for the mover. Exact: a table look-up per chance state and per
 * child of a decision (the value before a decision is its best child's).
 * Estimate: one mcts_analyse per decision with more than one legal action
 * (the value before = the best action's mean, after = the played one's);
 * a child that ends the game is valued by its result, not by the search.
 * Then luck and skill from the series' steps (review.h).
 */
#include "review.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mcts.h"
#include "parlour/alloc.h"
#include "parlour/jsonout.h"
#include "parlour/record.h"

#define DEFAULT_ITERATIONS 2000
#define START_LEAVES 8
#define REFINE_SHARE 10 /* estimate: a move played with under 1/10 of the visits is valued apart,
                           by searches of 1/10 of the budget after each throw */ /* estimate: decisions searched at most to value the first chance state */

ai_review_class ai_review_classify(double loss)
{
    if (loss < 1e-9)
        return AI_REVIEW_BEST;
    if (loss < AI_REVIEW_GOOD_BELOW)
        return AI_REVIEW_GOOD;
    if (loss < AI_REVIEW_INACCURACY_BELOW)
        return AI_REVIEW_INACCURACY;
    if (loss < AI_REVIEW_MISTAKE_BELOW)
        return AI_REVIEW_MISTAKE;
    return AI_REVIEW_BLUNDER;
}

const char *ai_review_class_name(ai_review_class c)
{
    static const char *const names[AI_REVIEW_NCLASSES] = {"best", "good", "inaccuracy", "mistake", "blunder"};
    return c >= 0 && c < AI_REVIEW_NCLASSES ? names[c] : "?";
}

void ai_review_free(ai_review *r)
{
    if (!r)
        return;
    pl_free(r->series);
    pl_free(r->moves);
    pl_free(r);
}

/* What a run shares between its steps. */
typedef struct run {
    const pl_game *g;
    const ai_perfect *table;
    mcts_params mp;
    uint64_t seed;
    pl_action *acts;  /* PL_MAX_ACTIONS */
    mcts_root *roots; /* PL_MAX_ACTIONS */
    double *vals;     /* PL_MAX_ACTIONS: P(mover wins) after each legal action */
    void *child;
    long iterations;
} run;

/* P(seat 0 wins) at a finished state. */
static double result0(const pl_game *g, const void *st)
{
    pl_outcome o;
    memset(&o, 0, sizeof o);
    g->outcome(st, &o);
    return o.utility[0];
}

/* Values every legal action of `seat` at `st` into r->vals (P(seat wins)
 * after it): exact, or by one search. Sets *best (the best action's index)
 * and returns the count, or -1 with a message. */
static int value_actions(run *r, const void *st, int seat, int nleg, uint64_t salt, int *best, pl_buf *err)
{
    const pl_game *g = r->g;
    *best = 0;
    if (!r->table) {
        int n = mcts_analyse(g, st, seat, &r->mp, pl_mix64(r->seed + salt), r->roots, PL_MAX_ACTIONS, best, NULL,
                             err);
        if (n < 0)
            return -1;
        r->iterations += r->mp.iterations;
        int won = -1; /* an action that ends the game in a win is best whatever its visits */
        for (int i = 0; i < n; i++) {
            r->acts[i] = r->roots[i].action;
            r->vals[i] = r->roots[i].mean;
            pl_state_copy(g, r->child, st);
            g->apply(r->child, seat, r->acts[i]);
            if (g->phase(r->child) == PL_PHASE_OVER) { /* a result, not a guess */
                r->vals[i] = seat == 0 ? result0(g, r->child) : 1 - result0(g, r->child);
                if (r->vals[i] > 0.5 && won < 0)
                    won = i;
            }
        }
        if (won >= 0)
            *best = won;
        return n;
    }
    int n = nleg;
    for (int i = 0; i < n; i++) {
        pl_state_copy(g, r->child, st);
        g->apply(r->child, seat, r->acts[i]);
        double v = ai_perfect_value(r->table, r->child, seat);
        if (v < 0) {
            pl_buf_puts(err, "review: the table does not hold a position of this game (other rules or pieces?)");
            return -1;
        }
        r->vals[i] = v;
        if (v > r->vals[*best])
            *best = i;
    }
    return n;
}

/* Estimate: P(seat 0 wins) at the chance state `st` as the weighted mean
 * over its outcomes, down to the next decisions (each searched), when that
 * takes at most *leaves searches; -1 otherwise. */
static double estimate_chance(run *r, const void *st, int depth, int *leaves, pl_buf *err)
{
    const pl_game *g = r->g;
    if (g->phase(st) == PL_PHASE_OVER)
        return result0(g, st);
    if (depth > 4)
        return -1;
    if (g->phase(st) == PL_PHASE_MOVE) {
        int seat = pl_sole_actor(g, st);
        if (seat < 0 || --*leaves < 0)
            return -1;
        int best;
        if (value_actions(r, st, seat, 0, 0x5a17u + (uint64_t)*leaves, &best, err) < 0)
            return -1;
        return seat == 0 ? r->vals[best] : 1 - r->vals[best];
    }
    pl_action outs[PL_MAX_CHANCE];
    double prob[PL_MAX_CHANCE];
    int n = pl_chance_all(g, st, outs, prob);
    if (n < 1 || n > START_LEAVES)
        return -1;
    void *c = pl_malloc(g->state_size);
    if (!c)
        return -1;
    double sum = 0;
    for (int i = 0; i < n && sum >= 0; i++) {
        pl_state_copy(g, c, st);
        g->apply(c, PL_CHANCE, outs[i]);
        double v = estimate_chance(r, c, depth + 1, leaves, err);
        sum = v < 0 ? -1 : sum + prob[i] * v;
    }
    pl_free(c);
    return sum;
}

/* Luck, skill, accuracy and classes from the series and the moves. 0, or
 * -1 when memory ran out. */
static int summarise(ai_review *rv)
{
    int *decision_at = pl_calloc((size_t)rv->nhist + 1, sizeof *decision_at); /* moves index + 1 */
    if (!decision_at)
        return -1;
    for (int k = 0; k < rv->nmoves; k++)
        decision_at[rv->moves[k].index] = k + 1;
    double score[2] = {0, 0};
    int nd[2] = {0, 0};
    for (int k = 0; k < rv->nmoves; k++) {
        const ai_review_move *mv = &rv->moves[k];
        rv->lost[mv->seat] += mv->loss;
        rv->count[mv->seat][mv->cls]++;
        score[mv->seat] += fmax(0, 1 - mv->loss / AI_REVIEW_MISTAKE_BELOW);
        nd[mv->seat]++;
    }
    for (int s = 0; s < 2; s++)
        rv->accuracy[s] = nd[s] ? 100 * score[s] / nd[s] : 100;
    int last = -1;
    for (int i = 0; i <= rv->nhist; i++) {
        if (rv->series[i] < 0)
            continue;
        if (last < 0) {
            rv->start = rv->series[i];
        } else {
            double d = rv->series[i] - rv->series[last];
            if (!(i == last + 1 && decision_at[last])) /* a decision's step is its loss */
                rv->luck[0] += d;
        }
        last = i;
    }
    rv->end = last >= 0 ? rv->series[last] : 0.5;
    if (last < 0)
        rv->start = 0.5;
    rv->luck[1] = -rv->luck[0];
    rv->skill[0] = rv->lost[1] - rv->lost[0];
    rv->skill[1] = -rv->skill[0];
    pl_free(decision_at);
    return 0;
}

ai_review *ai_review_run(const pl_game *g, const void *initial, const pl_move *hist, int nhist,
                         const ai_perfect *table, const ai_review_params *p, pl_buf *err)
{
    if (g->num_seats(initial) != 2 || (g->flags & PL_GAME_HIDDEN)) {
        pl_buf_printf(err, "review: %s is not a two-player game of full information", g->id);
        return NULL;
    }
    ai_review_params dp = {0};
    if (!p)
        p = &dp;
    run r;
    memset(&r, 0, sizeof r);
    r.g = g;
    r.table = table;
    mcts_defaults(&r.mp);
    r.mp.iterations = p->iterations > 0 ? p->iterations : DEFAULT_ITERATIONS;
    r.mp.threads = p->threads > 0 ? p->threads : 1;
    r.seed = p->seed;
    ai_review *rv = pl_calloc(1, sizeof *rv);
    void *st = pl_malloc(g->state_size);
    r.acts = pl_malloc(sizeof(pl_action) * PL_MAX_ACTIONS);
    r.roots = pl_malloc(sizeof(mcts_root) * PL_MAX_ACTIONS);
    r.vals = pl_malloc(sizeof(double) * PL_MAX_ACTIONS);
    r.child = pl_malloc(g->state_size);
    if (rv) {
        rv->series = pl_malloc(sizeof(double) * ((size_t)nhist + 1));
        rv->moves = pl_malloc(sizeof(ai_review_move) * ((size_t)nhist + 1));
    }
    int ok = rv && st && r.acts && r.roots && r.vals && r.child && rv->series && rv->moves;
    if (!ok)
        pl_buf_puts(err, "out of memory");
    if (ok) {
        for (int i = 0; i <= nhist; i++)
            rv->series[i] = -1; /* unknown until valued (an estimate may set i + 1 at a decision) */
        rv->exact = table != NULL;
        rv->nhist = nhist;
        pl_state_copy(g, st, initial);
    }
    for (int t = 0; ok && t <= nhist; t++) {
        pl_phase ph = g->phase(st);
        if (ph == PL_PHASE_OVER) {
            rv->series[t] = result0(g, st);
            rv->over = 1;
        } else if (ph == PL_PHASE_CHANCE) {
            if (table) {
                rv->series[t] = ai_perfect_value(table, st, 0);
                if (rv->series[t] < 0) {
                    pl_buf_printf(err, "review: the table does not hold the position before action %d "
                                       "(other rules or pieces?)", t + 1);
                    ok = 0;
                }
            } else if (t == 0) {
                int leaves = START_LEAVES;
                rv->series[0] = estimate_chance(&r, st, 0, &leaves, err);
            }
        } else if (t < nhist) {
            int seat = hist[t].seat;
            if (!pl_is_actor(g, st, seat)) {
                pl_buf_printf(err, "review: action %d is played by a seat that does not act", t + 1);
                ok = 0;
                break;
            }
            int nleg = pl_legal_all(g, st, seat, r.acts);
            if (nleg > 1 || table) {
                int best;
                int n = value_actions(&r, st, seat, nleg, (uint64_t)t, &best, err);
                if (n < 0) {
                    ok = 0;
                    break;
                }
                int played = -1;
                for (int i = 0; i < n; i++)
                    if (r.acts[i] == hist[t].a)
                        played = i;
                if (played < 0) {
                    pl_buf_printf(err, "review: action %d is not legal", t + 1);
                    ok = 0;
                    break;
                }
                pl_action best_a = r.acts[best];
                double bv = r.vals[best], pv = r.vals[played];
                if (!table && played != best && r.roots[played].visits < r.mp.iterations / REFINE_SHARE) {
                    /* The search spent little on the move played: its mean is
                     * noise (one rollout can say 0 %). Value its position by
                     * searches of the decisions after the next throw. */
                    pl_state_copy(g, r.child, st);
                    g->apply(r.child, seat, hist[t].a);
                    void *after = pl_malloc(g->state_size);
                    if (after && g->phase(r.child) == PL_PHASE_CHANCE) {
                        pl_state_copy(g, after, r.child);
                        long it = r.mp.iterations;
                        r.mp.iterations = it / REFINE_SHARE > 100 ? it / REFINE_SHARE : 100;
                        int leaves = START_LEAVES;
                        double v = estimate_chance(&r, after, 0, &leaves, err);
                        r.mp.iterations = it;
                        if (v >= 0)
                            pv = seat == 0 ? v : 1 - v;
                    }
                    pl_free(after);
                }
                if (pv >= bv) { /* an estimate may rate the move played above the search's choice */
                    best = played;
                    best_a = hist[t].a;
                    bv = pv;
                }
                rv->series[t] = seat == 0 ? bv : 1 - bv;
                if (!table)
                    rv->series[t + 1] = seat == 0 ? pv : 1 - pv;
                if (nleg > 1) {
                    ai_review_move *mv = &rv->moves[rv->nmoves++];
                    mv->index = t;
                    mv->seat = seat;
                    mv->nlegal = nleg;
                    mv->played = hist[t].a;
                    mv->best = best_a;
                    mv->played_value = pv;
                    mv->best_value = bv;
                    mv->loss = bv - pv > 0 ? bv - pv : 0;
                    mv->cls = best == played ? AI_REVIEW_BEST : ai_review_classify(mv->loss);
                }
            }
        }
        if (t == nhist || !ok)
            break;
        if (pl_check(g, st, hist[t].seat, hist[t].a, err) < 0) {
            pl_buf_printf(err, " (review: action %d)", t + 1);
            ok = 0;
            break;
        }
        g->apply(st, hist[t].seat, hist[t].a);
    }
    if (ok && summarise(rv) < 0) {
        pl_buf_puts(err, "out of memory");
        ok = 0;
    }
    if (ok) {
        rv->iterations = r.iterations;
        rv->budget = table ? 0 : r.mp.iterations;
    }
    pl_free(st);
    pl_free(r.acts);
    pl_free(r.roots);
    pl_free(r.vals);
    pl_free(r.child);
    if (!ok) {
        ai_review_free(rv);
        return NULL;
    }
    return rv;
}

ai_review *ai_review_match(const pl_match *m, const ai_perfect *table, const ai_review_params *p, pl_buf *err)
{
    return ai_review_run(m->game, m->initial, m->hist, m->nhist, table, p, err);
}

json_t *ai_review_fields_json(const pl_game *g, const void *st, int seat, pl_action a)
{
    pl_buf b = {0}, e = {0};
    json_t *j = NULL;
    if (pl_action_fields_json(g, st, seat, a, &b, &e) == 0 && b.len)
        j = json_loads(pl_buf_str(&b), 0, NULL);
    pl_buf_free(&b);
    pl_buf_free(&e);
    return j ? j : json_null();
}

json_t *ai_review_text_json(const pl_game *g, const void *st, int seat, pl_action a)
{
    pl_buf b = {0};
    g->format_action(st, seat, a, &b);
    json_t *j = b.oom ? NULL : json_string(pl_buf_str(&b));
    pl_buf_free(&b);
    return j;
}

int ai_review_json(const ai_review *r, const pl_game *g, const void *initial, const pl_move *hist, pl_buf *out,
                   pl_buf *err)
{
    pl_json_setup();
    json_t *o = json_object();
    json_t *series = json_array(), *moves = json_array(), *seats = json_array();
    void *st = pl_malloc(g->state_size);
    int rc = -1;
    if (o && series && moves && seats && st) {
        json_object_set_new(o, "exact", json_boolean(r->exact));
        json_object_set_new(o, "over", json_boolean(r->over));
        json_object_set_new(o, "start", json_real(r->start));
        json_object_set_new(o, "end", json_real(r->end));
        json_object_set_new(o, "actions", json_integer(r->nhist));
        if (!r->exact)
            json_object_set_new(o, "iterations", json_integer(r->budget));
        json_t *th = json_object();
        json_object_set_new(th, "good", json_real(AI_REVIEW_GOOD_BELOW));
        json_object_set_new(th, "inaccuracy", json_real(AI_REVIEW_INACCURACY_BELOW));
        json_object_set_new(th, "mistake", json_real(AI_REVIEW_MISTAKE_BELOW));
        json_object_set_new(o, "thresholds", th);
        for (int i = 0; i <= r->nhist; i++)
            json_array_append_new(series, r->series[i] >= 0 ? json_real(r->series[i]) : json_null());
        pl_state_copy(g, st, initial);
        int k = 0;
        for (int t = 0; t < r->nhist && k < r->nmoves; t++) {
            if (r->moves[k].index == t) {
                const ai_review_move *mv = &r->moves[k++];
                json_t *m = json_object();
                json_object_set_new(m, "index", json_integer(t));
                json_object_set_new(m, "seat", json_integer(mv->seat));
                json_object_set_new(m, "legal", json_integer(mv->nlegal));
                json_object_set_new(m, "played", ai_review_text_json(g, st, mv->seat, mv->played));
                json_object_set_new(m, "best", ai_review_text_json(g, st, mv->seat, mv->best));
                json_object_set_new(m, "played_fields", ai_review_fields_json(g, st, mv->seat, mv->played));
                json_object_set_new(m, "best_fields", ai_review_fields_json(g, st, mv->seat, mv->best));
                json_object_set_new(m, "played_value", json_real(mv->played_value));
                json_object_set_new(m, "best_value", json_real(mv->best_value));
                json_object_set_new(m, "loss", json_real(mv->loss));
                json_object_set_new(m, "class", json_string(ai_review_class_name(mv->cls)));
                json_array_append_new(moves, m);
            }
            g->apply(st, hist[t].seat, hist[t].a);
        }
        for (int s = 0; s < 2; s++) {
            json_t *x = json_object(), *cl = json_object();
            int nd = 0;
            for (int c = 0; c < AI_REVIEW_NCLASSES; c++) {
                json_object_set_new(cl, ai_review_class_name((ai_review_class)c), json_integer(r->count[s][c]));
                nd += r->count[s][c];
            }
            json_object_set_new(x, "classes", cl);
            json_object_set_new(x, "decisions", json_integer(nd));
            json_object_set_new(x, "accuracy", json_real(r->accuracy[s]));
            json_object_set_new(x, "luck", json_real(r->luck[s]));
            json_object_set_new(x, "skill", json_real(r->skill[s]));
            json_object_set_new(x, "lost", json_real(r->lost[s]));
            json_array_append_new(seats, x);
        }
        json_object_set_new(o, "series", series);
        json_object_set_new(o, "moves", moves);
        json_object_set_new(o, "seats", seats);
        series = moves = seats = NULL;
        rc = pl_json_dump(o, out);
    }
    if (rc < 0)
        pl_buf_puts(err, "out of memory");
    json_decref(series);
    json_decref(moves);
    json_decref(seats);
    json_decref(o);
    pl_free(st);
    return rc;
}
