/* fuzz_play.c — structure-aware play of every registered game: the input
 * chooses the game (byte 0, fz_game), the options, the seed, then a
 * sequence of operations: legal moves
 * and chance outcomes by index, arbitrary (mostly illegal) action codes,
 * legal actions through their text, undo, copy-and-apply, record round
 * trips and per-viewer histories and records.
 *
 * What holds, and how it is checked without replaying the game at every
 * step (which made a long input quadratic):
 *  - the state is its history replayed from the start: each action played
 *    is applied to a copy of the snapshot before it and must give the new
 *    state (snap[k + 1] = apply(snap[k], hist[k])), and at the end of the
 *    input the whole history is replayed from the initial state;
 *  - after every operation the state equals its snapshot snap[nhist], so an
 *    undo restores exactly the state before the undone action, and a record
 *    or history does not change the match;
 *  - a refused action changed nothing, copies play identically, a legal
 *    action's text plays that action;
 *  - after every operation the cheap invariants (fz_check_shape: phase,
 *    actors, legal lists, chance probabilities, outcome), once per state
 *    (fz_seen: a mutated input replays its parent's steps up to the
 *    mutation, reaching the same states); at the end of the
 *    input the full state checks (fz_check_state: legal actions' texts, the
 *    position text, views, a picture, cbw's own checker), which cost more
 *    than all the operations of an input together. Every state an input
 *    ends in gets them, and the fuzzer tries inputs of every length.
 * A record round trip (a replay of the whole game through the parser), the
 * histories for every viewer and one seat's record (the seat chosen by the
 * input; written only: that the reader refuses it is test_unit_hardening's,
 * and writing and reading every seat's record halved the players' speed)
 * cost more than many steps, so an input that asks for them gets them
 * once, at its end, over the whole history as
 * it stands then (the history up to any earlier step is what a shorter
 * input ends with), and only for a game (options, seed, history) not seen
 * before by the process. */
#include <string.h>

#include "fuzz.h"
#include "parlour/alloc.h"
#include "parlour/record.h"

#define MAX_OPS 96

typedef struct fz_play {
    const pl_game *g;
    pl_match *m;
    unsigned char *snap; /* snap[k]: the state after k actions */
    int capsnap;         /* room for states of any game (fz_max_state_size) */
    pl_action *acts;
    unsigned char *tmp, *work; /* states: the operations', remember's and check_replay's */
    pl_buf err, t;
} fz_play;

static void *snap_at(fz_play *f, int k) { return f->snap + (size_t)k * f->g->state_size; }

/* Keeps the state after the action just played as snap[nhist], after
 * checking that it is the previous snapshot with that action applied. */
static void remember(fz_play *f)
{
    const pl_game *g = f->g;
    int k = f->m->nhist;
    FUZZ_CHECK(k >= 1, "remember without an action");
    if (k >= f->capsnap) {
        int cap = f->capsnap * 2;
        unsigned char *s = pl_realloc(f->snap, (size_t)cap * fz_max_state_size());
        FUZZ_CHECK(s != NULL, "out of memory");
        f->snap = s;
        f->capsnap = cap;
    }
    pl_state_copy(g, f->work, snap_at(f, k - 1));
    g->apply(f->work, f->m->hist[k - 1].seat, f->m->hist[k - 1].a);
    FUZZ_CHECK(!memcmp(f->work, f->m->state, g->state_size), "state is not the previous one with action %d applied", k);
    pl_state_copy(g, snap_at(f, k), f->m->state);
}

/* The state is its whole history replayed from the initial state. */
static void check_replay(fz_play *f)
{
    const pl_game *g = f->g;
    pl_state_copy(g, f->work, f->m->initial);
    for (int i = 0; i < f->m->nhist; i++)
        g->apply(f->work, f->m->hist[i].seat, f->m->hist[i].a);
    FUZZ_CHECK(!memcmp(f->work, f->m->state, g->state_size), "state is not its history replayed");
}

/* A legal action (or chance outcome) chosen by `b`; 0 when there is none. */
static int pick_legal(fz_play *f, unsigned b, int *seat, pl_action *a)
{
    const pl_game *g = f->g;
    const void *st = f->m->state;
    pl_phase ph = g->phase(st);
    if (ph == PL_PHASE_OVER)
        return 0;
    if (ph == PL_PHASE_CHANCE) {
        double p[PL_MAX_CHANCE];
        int n = g->chance(st, f->acts, p, PL_MAX_CHANCE);
        *seat = PL_CHANCE;
        if (n < 0) {
            pl_rng r;
            pl_rng_seed(&r, b);
            *a = g->sample_chance(st, &r);
            return 1;
        }
        for (int k = 0; k < n; k++) { /* outcomes of probability 0 are not legal */
            int i = (int)((b + (unsigned)k) % (unsigned)n);
            if (p[i] > 0) {
                *a = f->acts[i];
                return 1;
            }
        }
        return 0;
    }
    int seats[PL_MAX_SEATS];
    int na = g->actors(st, seats);
    *seat = seats[b % (unsigned)na];
    int n = g->legal(st, *seat, f->acts, PL_MAX_ACTIONS);
    FUZZ_CHECK(n <= PL_MAX_ACTIONS, "%d legal actions", n);
    if (n <= 0)
        return 0;
    *a = f->acts[(b >> 3) % (unsigned)n];
    return 1;
}

/* A hash of what the record and the histories are made from: the options
 * and seed (the input's first two bytes), the history, and `salt`. */
static uint64_t game_hash(const fz_play *f, unsigned sel, uint64_t seed, uint64_t salt)
{
    uint64_t h = fz_mix(fz_mix(fz_mix(fz_mix(salt, (uint64_t)fz_game_index(f->g)), sel), seed), (uint64_t)f->m->nhist);
    for (int i = 0; i < f->m->nhist; i++)
        h = fz_mix(fz_mix(h, (uint64_t)(uint32_t)f->m->hist[i].seat), f->m->hist[i].a);
    return h;
}

static void play_ok(fz_play *f, int seat, pl_action a)
{
    pl_buf_clear(&f->err);
    FUZZ_CHECK(pl_match_play(f->m, seat, a, &f->err) == 0, "legal action refused: %s", pl_buf_str(&f->err));
    remember(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    /* Buffers kept from one input to the next (one input at a time). */
    static fz_play f;
    if (!f.snap) { /* room for the states of any registered game */
        size_t ssz = fz_max_state_size();
        f.capsnap = 128;
        f.snap = pl_malloc((size_t)f.capsnap * ssz);
        f.acts = pl_malloc(sizeof *f.acts * PL_MAX_ACTIONS);
        f.tmp = pl_malloc(ssz);
        f.work = pl_malloc(ssz);
        FUZZ_CHECK(f.snap && f.acts && f.tmp && f.work, "out of memory");
    }
    fz_in in = {data, size, 0};
    f.g = fz_game(fz_byte(&in));
    const pl_game *g = f.g;
    void *tmp = f.tmp;
    unsigned sel = fz_byte(&in);
    uint64_t seed = fz_byte(&in);
    f.m = fz_match(g, sel, seed);
    pl_state_copy(g, snap_at(&f, 0), f.m->state);
    FUZZ_CHECK(!memcmp(f.m->initial, f.m->state, g->state_size), "a new match is not at its initial state");
    int ns = g->num_seats(f.m->state);
    int want_record = 0, want_histories = 0, rec_seat = 0;
    for (int op = 0; op < MAX_OPS && !fz_done(&in); op++) {
        unsigned code = fz_byte(&in), b = fz_byte(&in);
        int seat;
        pl_action a;
        switch (code % 10) {
        case 0: case 1: case 2: case 3: /* a legal action */
            if (pick_legal(&f, b, &seat, &a))
                play_ok(&f, seat, a);
            break;
        case 4: { /* an arbitrary code, or a legal one with bits flipped */
            seat = (int)(b % (unsigned)(ns + 1)) - 1;
            if (code & 0x80) {
                a = fz_u64(&in);
            } else {
                int s2;
                if (!pick_legal(&f, b, &s2, &a))
                    a = 0;
                a ^= (pl_action)1 << (fz_byte(&in) % 64);
            }
            int nh = f.m->nhist;
            pl_buf_clear(&f.err);
            if (pl_match_play(f.m, seat, a, &f.err) == 0) {
                remember(&f);
            } else {
                FUZZ_CHECK(f.err.len > 0, "refused without a message");
                FUZZ_CHECK(nh == f.m->nhist && !memcmp(snap_at(&f, nh), f.m->state, g->state_size),
                           "a refused action changed the match");
            }
            break;
        }
        case 5: /* undo */
            pl_buf_clear(&f.err);
            if (f.m->nhist == 0)
                FUZZ_CHECK(pl_match_undo(f.m, &f.err) < 0 && f.err.len > 0, "undo at the start");
            else
                FUZZ_CHECK(pl_match_undo(f.m, &f.err) == 0, "undo failed: %s", pl_buf_str(&f.err));
            break;
        case 6: /* copy, apply to the copy and through the match: same state */
            if (pick_legal(&f, b, &seat, &a)) {
                pl_state_copy(g, tmp, f.m->state);
                g->apply(tmp, seat, a);
                play_ok(&f, seat, a);
                FUZZ_CHECK(!memcmp(tmp, f.m->state, g->state_size), "a copy plays differently");
            }
            break;
        case 7: /* a legal action through its text */
            if (pick_legal(&f, b, &seat, &a)) {
                pl_buf_clear(&f.t);
                g->format_action(f.m->state, seat, a, &f.t);
                pl_buf_clear(&f.err);
                pl_state_copy(g, tmp, f.m->state);
                g->apply(tmp, seat, a);
                FUZZ_CHECK(pl_match_play_text(f.m, seat == PL_CHANCE ? -1 : seat, pl_buf_str(&f.t), &f.err) == 0,
                           "'%s' refused: %s", pl_buf_str(&f.t), pl_buf_str(&f.err));
                FUZZ_CHECK(!memcmp(tmp, f.m->state, g->state_size), "text '%s' played another action",
                           pl_buf_str(&f.t));
                remember(&f);
            }
            break;
        case 8: /* a record round trip, at the end */
            want_record = 1;
            break;
        default: /* histories for every viewer, and one seat's record, at the end */
            want_histories = 1;
            rec_seat = (int)(b % (unsigned)ns);
            break;
        }
        /* Undo and refusals keep to the snapshots. */
        FUZZ_CHECK(!memcmp(snap_at(&f, f.m->nhist), f.m->state, g->state_size), "state differs from its snapshot");
        if (!fz_seen(g, f.m->state, NULL, 3)) /* most inputs replay their parent's first steps */
            fz_check_shape(g, f.m->state, 1);
    }
    check_replay(&f);
    /* Both are deterministic functions of the game: once per game (many
     * mutations change only ops that play nothing). */
    if (want_record && !fz_seen_hash(game_hash(&f, sel, seed, 8))) { /* reads back to the same state */
        pl_buf rec = {0}, e = {0};
        FUZZ_CHECK(pl_record_write(f.m, &rec) == 0, "record write failed");
        pl_match *m2 = pl_record_read(pl_buf_str(&rec), &e);
        FUZZ_CHECK(m2 != NULL, "record does not load: %s\n%s", pl_buf_str(&e), pl_buf_str(&rec));
        FUZZ_CHECK(!memcmp(m2->state, f.m->state, g->state_size), "record changes the state");
        pl_match_free(m2);
        pl_buf_free(&rec);
        pl_buf_free(&e);
    }
    if (want_histories && !fz_seen_hash(game_hash(&f, sel, seed, 9 + 16 * (uint64_t)rec_seat))) {
        for (int v = -1; v < ns; v++) {
            pl_buf_clear(&f.t);
            pl_match_history_for(f.m, v, &f.t);
            FUZZ_CHECK(!f.t.oom, "history out of memory");
            if (v == rec_seat) { /* the seat's record (that the reader refuses it: a unit test) */
                pl_buf_clear(&f.t);
                FUZZ_CHECK(pl_record_write_for(f.m, v, &f.t) == 0 && f.t.len > 0, "seat %d's record not written", v);
            }
        }
    }
    FUZZ_CHECK(!memcmp(snap_at(&f, f.m->nhist), f.m->state, g->state_size), "a record or history changed the match");
    fz_check_state(g, f.m->state, f.m->initial, 1);
    pl_match_free(f.m);
    f.m = NULL;
    return 0;
}
