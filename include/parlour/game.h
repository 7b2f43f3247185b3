/* game.h — the one interface between a game's rules and everything else.
 *
 * Every game (ur, cbw, tamcuc, karuta) fills one `pl_game` table of function
 * pointers. The protocol, the terminal, the records, the AI and the benchmarks
 * use only this table; none of them knows a game's internals.
 *
 * Design (see docs/ARCHITECTURE.md):
 *  - A state is plain data of `state_size` bytes: no pointers to owned memory,
 *    so a copy is a memcpy (`pl_state_copy`). Search copies instead of undoing
 *    (measured faster for Ur: docs/benchmarks.md); the match layer undoes by
 *    replaying its history.
 *  - An action is a 64-bit code whose meaning belongs to the game. Its text
 *    form comes from `format_action` / `parse_action` and round-trips.
 *  - Chance is explicit: in the PL_PHASE_CHANCE phase the "actor" is chance,
 *    `chance` lists the outcomes with probabilities (or says the set is too
 *    large to list, and `sample_chance` draws one). Tests choose outcomes with
 *    `apply` exactly like moves; records keep them.
 *  - Hidden information: `view` writes exactly what one seat may know;
 *    `determinize` fills a full state consistent with one seat's view.
 *  - Several seats may act at once (`actors` returns more than one seat); each
 *    then applies its own action with `apply(st, seat, a)`.
 *
 * Threading: a state belongs to one thread; the tables are immutable and
 * may be read from any thread.
 */
#ifndef PARLOUR_GAME_H
#define PARLOUR_GAME_H

#include <assert.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "parlour/buf.h"
#include "parlour/canvas.h"
#include "parlour/options.h"
#include "parlour/rng.h"

#define PL_MAX_SEATS 8
/* Capacity callers should give `legal`: no game lists more actions. */
#define PL_MAX_ACTIONS 8192
/* Capacity callers should give `chance`: no game lists more outcomes. */
#define PL_MAX_CHANCE 256
/* Seat number that stands for chance in histories and records. */
#define PL_CHANCE (-1)

typedef uint64_t pl_action;

/* jansson's value type (jansson.h); opaque here, so that this header needs
 * no jansson. Only pl_game.view_json and its helpers use it. */
struct json_t;
/* An object of (key, JSON text) fields (jsonout.h); pl_game.view_text. */
struct pl_jfields;

/* What code relies on: seats fit the 8-bit seat fields and bitmasks of the
 * games and the per-seat arrays sized PL_MAX_SEATS; an action list of
 * PL_MAX_ACTIONS (64 KiB) is counted in an int and allocated with one size_t
 * product; chance lists fit on the stack (4 KiB of codes and
 * probabilities). */
_Static_assert(PL_MAX_SEATS >= 1 && PL_MAX_SEATS <= 8, "seats are 3-bit numbers and 8-bit masks");
_Static_assert(PL_MAX_ACTIONS >= PL_MAX_CHANCE && PL_MAX_ACTIONS <= INT_MAX / (int)sizeof(pl_action),
               "an action list's count and byte size fit an int");
_Static_assert(PL_MAX_CHANCE <= 256, "chance lists live on the stack");
_Static_assert(sizeof(pl_action) == 8, "actions are 64-bit codes (records, hashes)");

typedef enum pl_phase {
    PL_PHASE_CHANCE = 0, /* chance acts: roll, draw, deal, reading order */
    PL_PHASE_MOVE = 1,   /* one or more seats act */
    PL_PHASE_OVER = 2    /* the game has ended; nobody acts */
} pl_phase;

/* How the winner is named in `status`. */
typedef enum pl_winner_kind {
    PL_WIN_NONE = 0, /* game not over */
    PL_WIN_SEAT,     /* winner is a seat */
    PL_WIN_TEAM,     /* winner is a team */
    PL_WIN_DRAW
} pl_winner_kind;

typedef struct pl_outcome {
    int nseats;
    long score[PL_MAX_SEATS];     /* points per seat, as the game counts them */
    double utility[PL_MAX_SEATS]; /* for search: 1 win, 0 loss, 0.5 draw or a share */
    pl_winner_kind kind;
    int winner; /* seat or team, by kind */
} pl_outcome;

/* What `parlour solve` asks of a game's own solver (pl_table_ops.solve). */
typedef struct pl_solve_params {
    double tol;       /* stop when no value changes by more than tol in a sweep */
    int threads;      /* worker threads, 1 or more */
    FILE *progress;   /* progress lines, or NULL for none */
    const char *out;  /* the table file to write, or NULL */
    const char *init; /* NULL, or a table file of these options to start from (an earlier
                       * run's, or one interrupted): the same answer in fewer sweeps */
} pl_solve_params;

/* Exact value tables that a game's own solver writes (Ur: Finkel's rules).
 * The `perfect:FILE` player uses them through these functions only. */
typedef struct pl_table_ops {
    /* Loads a table; NULL with a message when `path` is not one of this
     * game's tables. Free with `free`. */
    void *(*load)(const char *path, pl_buf *err);
    /* P(`seat` wins) at `st`, a state between decisions (chance phase or
     * over), or -1 when the table does not cover it. */
    double (*value)(const void *table, const void *st, int seat);
    void (*free)(void *table);
    /* Optional (NULL: the generic solver, src/ai/solve.c, does the game):
     * the game's own solver. `st` is a new game (pl_match's state after
     * `init`). Returns 0 when it does not solve games of these options
     * (nothing done: the caller solves generically); 1 when it solved it:
     * the result lines ("KEY VALUE", one a line, ending with "first player
     * wins P %") appended to `report`, the table written to `p->out` when
     * not NULL; -1 with a message in `err` (out of memory, the table could
     * not be written). `st` is only read. */
    int (*solve)(const void *st, const pl_solve_params *p, pl_buf *report, pl_buf *err);
    /* Optional (NULL: none): checks a loaded table against the equations its
     * solver solved, with `threads` worker threads. Returns 0 when this kind
     * of table has no check; 1 when checked: result lines ("KEY VALUE", among
     * them "largest residual X") appended to `report`; -1 with a message. */
    int (*verify)(const void *table, int threads, pl_buf *report, pl_buf *err);
} pl_table_ops;

/* A named computer-player level of one game (pl_game.levels): the level
 * `name` plays as the player `spec` (src/ai/ai.h: "mcts:iterations=1000",
 * "greedy", "bot:club" ...; a spec never names a level). */
typedef struct pl_level {
    const char *name;  /* "easy", "medium", "hard", or a name of the game's own */
    const char *spec;  /* the player it stands for */
    const char *about; /* one line for people: what it is, how strong it measured */
} pl_level;

/* pl_game.flags */
#define PL_GAME_HIDDEN 1u /* seats hold information others must not see */

typedef struct pl_game {
    const char *id;   /* "ur" */
    const char *name; /* "The Royal Game of Ur (Skiryuk's rules)" */
    const char *summary; /* a few lines of rules, for `parlour rules` */
    const pl_option_def *options; /* game options, NULL-key terminated */
    /* Optional: keys of options whose values show hidden cards (a `deal=`),
     * NULL-terminated; NULL when there are none. A record written for one
     * seat (pl_record_write_for) leaves them out, as it leaves out the seed. */
    const char *const *secret_options;
    size_t state_size;            /* bytes in one state */
    unsigned flags;               /* PL_GAME_* */

    /* Sets up a new game from validated options (`opts` holds every key of
     * `options` with a value that passed the generic checks) and a seed for
     * anything the game decides at the start (a deal). Returns 0, or -1 with
     * a message in `err` when options contradict each other; `st` is then
     * unspecified. */
    int (*init)(void *st, const pl_opts *opts, uint64_t seed, pl_buf *err);

    pl_phase (*phase)(const void *st);
    int (*num_seats)(const void *st);
    /* Team of a seat; games without teams return the seat. */
    int (*team_of)(const void *st, int seat);
    /* Seats that act now (phase MOVE), written to `seats`; returns how many. */
    int (*actors)(const void *st, int *seats);

    /* Legal actions of `seat` in canonical order. Writes at most `cap`
     * actions and returns the total count (like snprintf). Phase MOVE only;
     * returns 0 for a seat that does not act. */
    int (*legal)(const void *st, int seat, pl_action *out, int cap);
    /* Chance outcomes with probabilities (phase CHANCE). Returns the count,
     * or -1 when the set is too large to list (use `sample_chance`). */
    int (*chance)(const void *st, pl_action *out, double *prob, int cap);
    /* Draws one chance outcome with the right distribution. */
    pl_action (*sample_chance)(const void *st, pl_rng *rng);
    /* Applies a legal action (or chance outcome, seat PL_CHANCE). The caller
     * guarantees legality (`pl_check`); this function cannot fail. */
    void (*apply)(void *st, int seat, pl_action a);
    /* Fills `out` (phase OVER). */
    void (*outcome)(const void *st, pl_outcome *out);

    /* Notation. `format_action` appends the text of `a` as played by `seat`
     * (PL_CHANCE for chance) in state `st` (before it is applied). */
    void (*format_action)(const void *st, int seat, pl_action a, pl_buf *out);
    /* Parses a text action for `seat` in `st`. Returns 0, or -1 with a
     * message naming what was expected when the text is not an action of
     * this game. Parsing does not check legality, except for chance outcomes
     * too many to list (`chance` returns -1): those pl_check cannot compare
     * with a list, so the parser must accept only possible outcomes. */
    int (*parse_action)(const void *st, int seat, const char *text, pl_action *a, pl_buf *err);
    /* Optional (NULL when every action is public): appends the text of `a`,
     * played by `seat` in `st`, as seat `viewer` may see it (viewer -1:
     * everything), e.g. "lay 2" for face-down cards of another seat. Used for
     * histories and records shown to one seat. */
    void (*format_action_for)(const void *st, int seat, pl_action a, int viewer, pl_buf *out);
    /* Optional: the game's own legality test for games whose actions carry
     * values too many to list (karuta's touch times). Returns 0 when `a` is
     * legal for `seat` (an actor, phase MOVE), else -1 with the reason in
     * `why`. When NULL, an action is legal iff `legal` lists it. `legal`
     * then lists a canonical subset (for search and display). */
    int (*check)(const void *st, int seat, pl_action a, pl_buf *why);
    /* Optional: why `a` (well formed, not legal) is illegal, in the rules'
     * words, e.g. "the piece on B5 would land on its own blank piece on B8". */
    void (*explain_illegal)(const void *st, int seat, pl_action a, pl_buf *out);

    /* Pictures and observations. `draw` draws the position for a person as
     * `seat` may see it (seat -1: everything) on a canvas: `show` prints it as
     * text, the terminal in colour. `view` writes the documented
     * machine-readable observation of `seat`: exactly what it may know. */
    void (*draw)(const void *st, int seat, pl_canvas *c);
    void (*view)(const void *st, int seat, pl_buf *out);

    /* Position text: `to_text` writes the whole state on one line;
     * `from_text` reads it into `st`, which holds a state of the same game
     * and options (from `init`). Returns 0, or -1 with a message; on failure
     * `st` is unchanged. */
    void (*to_text)(const void *st, pl_buf *out);
    int (*from_text)(void *st, const char *text, pl_buf *err);

    /* Writes into `out` a full state drawn uniformly (as far as the game can)
     * among those consistent with what `seat` knows in `st`. Games with no
     * hidden information copy. */
    void (*determinize)(const void *st, int seat, pl_rng *rng, void *out);

    /* Optional: a heuristic value in [0,1] of `st` for `seat` (chance of
     * winning), used by simple searches. NULL when the game has none. */
    double (*evaluate)(const void *st, int seat);

    /* Optional: a quick heuristic action for `seat` (an actor, phase MOVE):
     * the move choice in a search's rollouts (docs/ai.md) and the `policy`
     * player. Returns a legal action; reads only what `seat` may know in
     * `st` (as `view` shows it), so that rollouts model players who do not
     * see each other's cards; draws any randomness from `rng`, so it is
     * deterministic for the generator's state; never changes `st`. It is
     * called at every step of every rollout: it should cost about as much as
     * `legal`. NULL: searches roll out uniformly at random. */
    pl_action (*policy)(const void *st, int seat, pl_rng *rng);

    /* Optional: the game's own computer player, for a game that a generic
     * search plays badly (karuta's timed touches, docs/ai.md). `level` is a
     * level name the game documents ("easy", "medium", "hard" at least).
     * Returns 0 with `*out` an action that is legal for `seat` (an actor,
     * phase MOVE), or -1 with a message (unknown level). Deterministic for
     * `seed`; reads only what `seat` may know; never changes `st`. */
    int (*bot)(const void *st, int seat, const char *level, uint64_t seed, pl_action *out, pl_buf *err);

    /* Optional: the game's own exact tables and solver (NULL when it has
     * none). */
    const pl_table_ops *tables;

    /* Optional: the game's computer-player levels, ended by a row whose
     * name is NULL. A game names at least "easy", "medium" and "hard"
     * (medium is the default player); names it leaves out, or a NULL
     * table, get the generic levels of src/ai/ai.c (MCTS of growing
     * budgets). Used by ai_choose and listed by `parlour rules`. */
    const pl_level *levels;

    /* Optional: option sets worth exercising, each a string of KEY=VALUE
     * words ("" for the defaults), ended by NULL: the rule variants, other
     * boards, decks and seat counts. The generic property test and the fuzz
     * targets play every registered game under each of them (the fuzz
     * targets under the first four, FZ_NSETS), so a set must be valid and
     * give a playable game for any seed. NULL: the defaults only. */
    const char *const *variants;

    /* Optional: the option sets `parlour bench GAME` measures when it is
     * given no options, as `variants`, ended by NULL (e.g. Ur: "" and
     * "rules=finkel"). NULL: the defaults only. */
    const char *const *bench_sets;

    /* Optional: the game's own invariants of a state (counts conserved,
     * derived fields agreeing with what they summarise). Returns 0, or -1
     * with what is broken in `why`. For tests, fuzz targets and builds with
     * assertions (pl_match_play runs it after every action unless NDEBUG):
     * it may be slow and is never called in a release build's play. Never
     * changes `st`. */
    int (*check_state)(const void *st, pl_buf *why);

    /* Optional: what an action did, in plain sentences for a person. `after`
     * is `before` once `seat` (PL_CHANCE for chance) applied `a`. Appends
     * one or more sentences, each ending in '.', separated by one space,
     * telling `viewer` (-1: someone who sees everything) what the notation
     * does not say: captures ("Dark's B1 captured your piece, back to your
     * reserve."), tricks won, a deal's scores; nothing when there is nothing
     * worth saying. It says only what `viewer` may know, by the same rules
     * as `format_action_for` and `view`: for a state that differs from
     * `before` only in what `viewer` cannot see, the text is the same. Never
     * changes either state; cannot fail (`out->oom` on no memory). The
     * terminal shows it after each action (pl_match_describe, match.h). */
    void (*describe)(const void *before, int seat, pl_action a, const void *after, int viewer, pl_buf *out);

    /* Optional: the text of a legal action of `seat` in `st` for a menu of
     * moves: its notation first (what the player may type), then what it
     * does, e.g. Ur's "A4 → B1" or "C4 → B2, captures". NULL: the notation
     * alone (pl_format_action_long). Never changes `st`. */
    void (*format_action_long)(const void *st, int seat, pl_action a, pl_buf *out);

    /* Optional: marks the last move on a picture. `c` holds `draw(after,
     * viewer)`; `after` is `before` once `seat` (never chance) applied `a`.
     * Restyles cells (PL_ST_HILITE) without changing their characters, so
     * that the picture's text (the protocol's `show`) stays the same. For
     * games whose state does not keep the last move (Ur: a state is only
     * the position, so the solvers see each position once); a game whose
     * state keeps it marks it in `draw` itself. Only what `viewer` may see. */
    void (*mark_move)(const void *before, int seat, pl_action a, const void *after, int viewer, pl_canvas *c);

    /* Optional: the name people give `seat` (0 <= seat < num_seats), appended
     * to `out`: "Light"/"Dark" in Ur, the seat's team colour in City Behind
     * Walls. The terminal says "Seat 1 (Dark) to act" and words the end of a
     * game with it ("Dark wins 7–5.", a team named by any of its seats).
     * Cannot fail; reads `st` only. NULL: seats are known by number. */
    void (*seat_name)(const void *st, int seat, pl_buf *out);

    /* Optional: true when the view of `viewer` shows hidden things of
     * another seat `seat` (viewer != seat), because one player holds both
     * (City Behind Walls with players=2: the other seat of the team, its
     * `partner_hand`). The server lets such seats be played only by one
     * person (partner seats) or by computers (docs/web-protocol.md,
     * "create"). Symmetric; depends only on the options. NULL: a view shows
     * no other seat's hidden things. */
    bool (*sees_seat)(const void *st, int viewer, int seat);

    /* Optional: the game's part of the structured per-seat view
     * (pl_view_json, docs/web-views.md), for a browser that draws the table
     * without parsing text. Adds the game's own keys ("board", "hand",
     * "trick" ...) to `obj`, a jansson object (jansson.h) that already holds
     * the common fields (pl_view_json: "game", "viewer", "phase", "seats",
     * "teams", "actors", "outcome"; never replace them). `viewer` is a seat,
     * or -1 for a spectator, who sees only what every seat sees. Hidden
     * things: exactly what `view(st, viewer)` shows that seat, never more;
     * for a state that differs only in what `viewer` cannot see, the JSON is
     * the same. Only integers, strings, booleans, null, arrays and objects
     * (no reals), so that the text is exact. Returns 0, or -1 when memory
     * runs out (`obj` may then hold some of the keys: the caller drops it).
     * Never changes `st`.
     *
     * Why a jansson object and not text: pl_view_json writes the whole view
     * with sorted keys in compact form, so that two views compare byte for
     * byte whatever order a game adds its keys in, and no game writes JSON
     * escapes by hand. */
    int (*view_json)(const void *st, int viewer, struct json_t *obj);

    /* Optional, only with view_json: the same part of the view written
     * straight as text, without a jansson tree (the server makes a view per
     * seat per move: docs/benchmarks.md, "The server under load"). Adds the
     * game's own keys to `f` (jsonout.h: pl_jfields_key, then the value's
     * JSON text), which already holds the common fields; each value compact
     * (no spaces), nested objects' keys sorted by strcmp, strings through
     * pl_json_put_string, integers through pl_json_put_int, so that
     * pl_view_json writes exactly the bytes it writes from view_json, which
     * stays the reference (tests/test_property_view_text.c compares the two
     * on random states of random options; same hidden-information contract).
     * Returns 0, or -1 when a value could not be written (memory ran out, a
     * string that is not UTF-8): the caller drops the whole object. Never
     * changes `st`. */
    int (*view_text)(const void *st, int viewer, struct pl_jfields *f);

    /* Optional: what an action did, as data (docs/web-views.md, "Events"):
     * the typed events of `seat`'s action `a` from `before` to `after`
     * (seat PL_CHANCE for chance), as `viewer` may know them (a seat, or -1
     * for someone who sees everything, as `describe`). Appends zero or more
     * JSON objects to `arr`, a jansson array: each has "type" (a word the
     * game documents: "throw", "move", "capture", "trick" ...) and that
     * type's fields; seats by number, squares and cards in the game's
     * notation; only integers, strings, booleans, null, arrays and objects.
     * Hidden things: the contract of `view` and `format_action_for`: for a
     * state that differs only in what `viewer` cannot see, the events are
     * the same; a game without PL_GAME_HIDDEN tells every viewer the same
     * events (the server writes them once, for -1, and shares them). A game
     * with `events` writes its `describe` sentences from
     * the same events, so that the two never disagree. Returns 0, or -1
     * when memory ran out (`arr` may then hold some: the caller drops it).
     * Never changes either state. */
    int (*events)(const void *before, int seat, pl_action a, const void *after, int viewer, struct json_t *arr);

    /* Optional: the fields a page needs to show `seat`'s legal action `a`
     * in `st` without reading its text (Ur: {"from":"B5","to":"B8",
     * "captures":true}). Adds keys to `obj`, an empty jansson object; the
     * server sends it as the legal action's "fields" (docs/web-views.md,
     * "Action fields"). Same value rules as `events`. Returns 0, or -1 when
     * memory ran out. Never changes `st`. */
    int (*action_fields)(const void *st, int seat, pl_action a, struct json_t *obj);

    /* Optional, only with events: the same events written straight as
     * text, without a jansson tree (the server writes them per action per
     * viewer: docs/benchmarks.md). Appends to `out` the whole array, "[...]"
     * ("[]" for none), exactly as pl_json_dump writes what `events` fills:
     * compact (no spaces), each object's keys sorted by strcmp, strings
     * through pl_json_put_string, integers through pl_json_put_int (or an
     * object through pl_jfields, jsonout.h). `events` stays the reference
     * (tests/test_property_events_text.c compares the two at every action of
     * random games of every option); the same hidden-information contract.
     * Returns 0, or -1 when a value could not be written (memory ran out, a
     * string that is not UTF-8): pl_events_json then cuts `out` back. Never
     * changes either state. */
    int (*events_text)(const void *before, int seat, pl_action a, const void *after, int viewer, pl_buf *out);

    /* Optional, only with action_fields: the same fields written straight
     * as text. Appends to `out` the whole object, "{...}" ("{}" for none),
     * exactly as pl_json_dump writes what `action_fields` fills, by the
     * rules of events_text (tests/test_property_events_text.c compares the
     * two at every legal action). Returns 0, or -1 as events_text. Never
     * changes `st`. */
    int (*action_fields_text)(const void *st, int seat, pl_action a, pl_buf *out);

    /* Optional: why `seat`'s well-formed action `a` is refused in `st` (an
     * actor, phase MOVE, `a` not legal), as data a page words in its own
     * language: adds keys to `obj`, an empty jansson object: "why", a word
     * from the game's documented list (docs/web-views.md, "Refusals"), and
     * that refusal's fields (squares, cards, cells as in `events`), e.g.
     * {"why":"own-piece","to":"B8"}. The server sends it as the `illegal`
     * error's "refusal". Same value rules as `events`. Returns 0, or -1
     * when memory ran out or the game has no words for this refusal (the
     * error then carries none). Never changes `st`. */
    int (*refusal)(const void *st, int seat, pl_action a, struct json_t *obj);
} pl_game;

/* Lists every legal action of `seat` in `st` into `out`, which has room for
 * PL_MAX_ACTIONS, and returns how many (0 for a seat that does not act, or
 * in another phase). No game lists more than PL_MAX_ACTIONS (game.h): a
 * count above it is a broken game, an assertion failure, not a list to cut
 * short. Cannot fail. The one way the program lists a whole legal list. */
static inline int pl_legal_all(const pl_game *g, const void *st, int seat, pl_action *out)
{
    int n = g->legal(st, seat, out, PL_MAX_ACTIONS);
    assert(n >= 0 && n <= PL_MAX_ACTIONS);
    return n;
}

/* Lists the chance outcomes of `st` (phase CHANCE) with their
 * probabilities into `out` and `prob`, which have room for PL_MAX_CHANCE,
 * and returns how many, or -1 when the game says they are too many to list
 * (draw with `sample_chance`). A listed count above PL_MAX_CHANCE is a
 * broken game, an assertion failure. Cannot fail. */
static inline int pl_chance_all(const pl_game *g, const void *st, pl_action *out, double *prob)
{
    int n = g->chance(st, out, prob, PL_MAX_CHANCE);
    assert(n >= -1 && n <= PL_MAX_CHANCE);
    return n;
}

/* Copies a state of `g`. Cannot fail. */
static inline void pl_state_copy(const pl_game *g, void *dst, const void *src)
{
    memcpy(dst, src, g->state_size);
}

/* Checks that `a` is legal for `seat` now: it is an action of an actor in
 * phase MOVE and appears in `legal`, or a listed chance outcome (seat
 * PL_CHANCE) in phase CHANCE. Returns 0, or -1 with the reason (and the legal
 * actions) in `err`. Never changes `st`. Defined in src/core/game.c. */
int pl_check(const pl_game *g, const void *st, int seat, pl_action a, pl_buf *err);

/* Parses and checks a text action: 0 with `*a` set, or -1 with a message. */
int pl_parse_legal(const pl_game *g, const void *st, int seat, const char *text,
                   pl_action *a, pl_buf *err);

/* pl_parse_legal that also gives the reason apart: on -1, `err` gets the same
 * message as pl_parse_legal's and `why` (when not NULL) only its reason, the
 * message less the list of actions that pl_check adds ("; legal: …", "; for
 * example: …", "; outcomes: …"), e.g. "illegal move 9: …" alone. `*a` is set
 * only on 0. Never changes `st`. */
int pl_parse_legal_why(const pl_game *g, const void *st, int seat, const char *text,
                       pl_action *a, pl_buf *err, pl_buf *why);

/* Appends the actor's legal actions (or the chance outcomes), space
 * separated, at most `max` of them then "…". */
void pl_list_legal(const pl_game *g, const void *st, int seat, int max, pl_buf *out);

/* True when `seat` is one of the seats that act now. */
bool pl_is_actor(const pl_game *g, const void *st, int seat);

/* The single actor when exactly one seat acts, else -1 (several, chance or over). */
int pl_sole_actor(const pl_game *g, const void *st);

/* Appends the text of `seat`'s legal action `a` for a menu of moves: the
 * game's `format_action_long`, else its notation. Cannot fail. */
void pl_format_action_long(const pl_game *g, const void *st, int seat, pl_action a, pl_buf *out);

/* Appends the picture of `draw` as plain text (the protocol's `show`). */
void pl_show(const pl_game *g, const void *st, int seat, pl_buf *out);

/* Appends seat `viewer`'s structured view of `st` (viewer -1: a
 * spectator) as one line of JSON, compact, keys sorted (so two views
 * compare byte for byte), UTF-8: the common fields "game" (the id),
 * "viewer", "phase" ("chance", "move" or "over"), "seats", "teams" (the
 * team of each seat), "actors" (the seats that act now, [] unless phase
 * move) and "outcome" (null until the game is over, then {"kind": "seat",
 * "team" or "draw", "winner": the seat or team or null, "score": points
 * per seat}), then the game's own part (pl_game.view_text when the game
 * has it, else pl_game.view_json: the same text; docs/web-views.md).
 * Returns 0; -1 with a message in `err` and nothing
 * appended when the game has no JSON view, `viewer` is neither -1 nor a
 * seat, memory runs out, or the game's view_text breaks its contract (a
 * key twice, an empty value: pl_jfields_finish's message). Never changes
 * `st`. Defined in src/core/view.c. */
int pl_view_json(const pl_game *g, const void *st, int viewer, pl_buf *out, pl_buf *err);

/* Appends the events of `seat`'s action `a` from `before` to `after` as
 * `viewer` (a seat, or -1: everything) may know them (pl_game.events, or
 * events_text when the game has it: the same bytes) as a
 * compact JSON array with sorted keys: "[]" when the game has no `events`
 * or nothing happened worth a event. Returns 0, or -1 with a message in
 * `err` (no memory, a string that is not UTF-8; `out` then unchanged).
 * Defined in src/core/view.c. */
int pl_events_json(const pl_game *g, const void *before, int seat, pl_action a, const void *after, int viewer,
                   pl_buf *out, pl_buf *err);

/* Appends the fields of `seat`'s legal action `a` in `st` (pl_game.
 * action_fields, or action_fields_text when the game has it: the same
 * bytes) as a compact JSON object with sorted keys: "{}" when the
 * game has no `action_fields`. Returns 0, or -1 with a message in `err`
 * (`out` then unchanged). Defined in src/core/view.c. */
int pl_action_fields_json(const pl_game *g, const void *st, int seat, pl_action a, pl_buf *out, pl_buf *err);

/* Appends why `seat`'s well-formed, refused action `a` in `st` is refused
 * (pl_game.refusal) as a compact JSON object with sorted keys. Returns 0,
 * or -1 when the game has no `refusal` or no words for this one, or memory
 * ran out (`out` then unchanged; `err` says which). Defined in
 * src/core/view.c. */
int pl_refusal_json(const pl_game *g, const void *st, int seat, pl_action a, pl_buf *out, pl_buf *err);

/* Draws a chance outcome: from the listed distribution or `sample_chance`. */
pl_action pl_draw_chance(const pl_game *g, const void *st, pl_rng *rng);

#endif
