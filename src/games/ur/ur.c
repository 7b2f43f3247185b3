/* ur.c — rules of the Royal Game of Ur (Skiryuk's rules UR-R1..R18, and
 * Finkel's for cross-checking): options, chance, legal moves, apply.
 *
 * Hot path: ur_legal and ur_apply. No allocation, no I/O; a move is a few
 * table look-ups on a 50-byte state. See docs/benchmarks.md.
 */
#include "ur.h"

#include <string.h>

#include "ur_skiryuk.h"

const char *const ur_sq_name[UR_NSQ] = {
    "A1", "A2", "A3", "A4", "A7", "A8", "B1", "B2", "B3", "B4",
    "B5", "B6", "B7", "B8", "C1", "C2", "C3", "C4", "C7", "C8",
};

enum { V_OWN, V_OPP, V_FINKEL, NV };

/* Light's paths, index 1..23 (Finkel 1..14). Dark's swap rows A and C. */
static const uint8_t light_path[NV][24] = {
    [V_OWN] = {0, UR_A4, UR_A3, UR_A2, UR_A1, UR_B1, UR_B2, UR_B3, UR_B4, UR_B5, UR_B6, UR_B7,
               UR_A7, UR_A8, UR_B8, UR_C8, UR_C7, UR_B7, UR_B6, UR_B5, UR_B4, UR_B3, UR_B2, UR_B1},
    [V_OPP] = {0, UR_A4, UR_A3, UR_A2, UR_A1, UR_B1, UR_B2, UR_B3, UR_B4, UR_B5, UR_B6, UR_B7,
               UR_C7, UR_C8, UR_B8, UR_A8, UR_A7, UR_B7, UR_B6, UR_B5, UR_B4, UR_B3, UR_B2, UR_B1},
    [V_FINKEL] = {0, UR_A4, UR_A3, UR_A2, UR_A1, UR_B1, UR_B2, UR_B3, UR_B4, UR_B5, UR_B6, UR_B7,
                  UR_B8, UR_A8, UR_A7},
};

static const uint8_t skiryuk_kind[UR_NSQ] = {
    [UR_A1] = UR_ROSETTE, [UR_A2] = UR_LANE_EYES, [UR_A3] = UR_PLAIN, [UR_A4] = UR_LANE_EYES,
    [UR_A7] = UR_ROSETTE, [UR_A8] = UR_CONVERSION, [UR_B1] = UR_FINISH, [UR_B2] = UR_PLAIN,
    [UR_B3] = UR_SAFE, [UR_B4] = UR_ROSETTE, [UR_B5] = UR_PLAIN, [UR_B6] = UR_SAFE,
    [UR_B7] = UR_B7_EYES, [UR_B8] = UR_PLAIN, [UR_C1] = UR_ROSETTE, [UR_C2] = UR_LANE_EYES,
    [UR_C3] = UR_PLAIN, [UR_C4] = UR_LANE_EYES, [UR_C7] = UR_ROSETTE, [UR_C8] = UR_CONVERSION,
};

/* Filled once by ur_tables, a constructor (before main and any thread);
 * read-only afterwards. */
static uint8_t path_tab[NV][2][25];          /* [v][player][idx] -> square */
static uint8_t idx_tab[NV][2][UR_NSQ][2];    /* [v][player][square][marked] -> idx */
static uint8_t kind_tab[2][UR_NSQ];          /* [finkel][square] */
static uint8_t order_tab[NV][2][UR_NSQ + 1]; /* squares of a path in path order, 0xff-ended */
static const uint8_t popcount3[8] = {4, 1, 1, 2, 1, 2, 2, 3}; /* three lots: none marked = 4 */
static const uint8_t popcount4[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};

static int swap_row(int sq)
{
    if (sq <= UR_A8)
        return sq + UR_C1; /* A1..A8 -> C1..C8: same order */
    if (sq >= UR_C1)
        return sq - UR_C1;
    return sq;
}

__attribute__((constructor)) static void ur_tables(void)
{
    for (int v = 0; v < NV; v++) {
        int last = v == V_FINKEL ? 14 : 23;
        for (int p = 0; p < 2; p++) {
            int n = 0;
            memset(order_tab[v][p], 0xff, sizeof order_tab[v][p]);
            for (int i = 1; i <= last; i++) {
                int sq = p ? swap_row(light_path[v][i]) : light_path[v][i];
                path_tab[v][p][i] = (uint8_t)sq;
                int marked = v != V_FINKEL && i >= 14;
                idx_tab[v][p][sq][marked] = (uint8_t)i;
                bool seen = false;
                for (int k = 0; k < n; k++)
                    seen = seen || order_tab[v][p][k] == sq;
                if (!seen)
                    order_tab[v][p][n++] = (uint8_t)sq;
            }
        }
    }
    for (int sq = 0; sq < UR_NSQ; sq++) {
        kind_tab[0][sq] = skiryuk_kind[sq];
        kind_tab[1][sq] = skiryuk_kind[sq] == UR_ROSETTE ? UR_ROSETTE : UR_PLAIN;
    }
}

static inline int variant(const ur_state *s) { return s->finkel ? V_FINKEL : s->loop; }
int ur_sq_kind(const ur_state *s, int sq) { return kind_tab[s->finkel][sq]; }
int ur_path_sq(const ur_state *s, int p, int idx) { return path_tab[variant(s)][p][idx]; }
int ur_path_idx(const ur_state *s, int p, int sq, int m) { return idx_tab[variant(s)][p][sq][m]; }
int ur_off_idx(const ur_state *s) { return s->finkel ? 15 : 24; }

static inline int piece_at(const ur_state *s, int sq, int level) { return (s->pc[sq] >> (2 * level)) & 3; }
static inline int top_piece(const ur_state *s, int sq) { return piece_at(s, sq, s->h[sq] - 1); }

/* Names the refusal's word, its landing square and that square's height. */
static void refuse_at(ur_refusal *r, const char *why, int sq, int height)
{
    r->why = why;
    r->to = sq;
    r->count = height;
}

/* Landing test for a piece of `p` arriving at path index `j` (< off).
 * Returns 0 blocked, 1 free, 2 capture. `why` (may be NULL) gets a reason,
 * `r` (may be NULL) the refusal's word and square count (ur_refusal). */
static inline __attribute__((always_inline)) int can_land(const ur_state *s, int p, int j, pl_buf *why,
                                                          ur_refusal *r)
{
    int v = variant(s);
    int sq = path_tab[v][p][j];
    int h = s->h[sq];
    if (h == 0)
        return 1;
    int q = top_piece(s, sq);
    int tm = v != V_FINKEL && j >= 14;
    const char *name = ur_sq_name[sq];
    if (s->finkel) {
        if ((q & 1) == p) {
            if (why) pl_buf_printf(why, "it would land on its own piece on %s (one piece a square)", name);
            if (r)
                refuse_at(r, "own-piece", sq, h);
            return 0;
        }
        if (sq == UR_B4) {
            if (why) pl_buf_printf(why, "the central rosette %s is safe and taken", name);
            if (r)
                refuse_at(r, "rosette-taken", sq, h);
            return 0;
        }
        return 2;
    }
    switch (kind_tab[0][sq]) {
    case UR_LANE_EYES:
    case UR_B7_EYES:
        if ((q & 1) != p) {
            if (why) pl_buf_printf(why, "%s is the other player's depot: no landing there (UR-R14)", name);
            if (r)
                refuse_at(r, "their-depot", sq, h);
            return 0;
        }
        if (h >= 4) {
            if (why) pl_buf_printf(why, "the depot on %s already holds 4 pieces (UR-R13, UR-R14)", name);
            if (r)
                refuse_at(r, "depot-full", sq, h);
            return 0;
        }
        return 1;
    case UR_SAFE:
        if (h >= 4) {
            if (why) pl_buf_printf(why, "the safe square %s already holds 4 pieces (UR-R15)", name);
            if (r)
                refuse_at(r, "safe-full", sq, h);
            return 0;
        }
        return 1;
    case UR_FINISH:
        if ((q & 1) == p) {
            if (why) pl_buf_printf(why, "it would land on its own piece on %s: no stacking on the finish square (UR-R17)", name);
            if (r)
                refuse_at(r, "own-piece", sq, h);
            return 0;
        }
        if (q & 2) {
            if (why) pl_buf_printf(why, "a marked piece on the finish square %s cannot be captured (UR-R17)", name);
            if (r)
                refuse_at(r, "finish-marked", sq, h);
            return 0;
        }
        if (tm) {
            if (why) pl_buf_printf(why, "a marked piece cannot land on the blank piece on %s (UR-R10)", name);
            if (r)
                refuse_at(r, "other-side", sq, h);
            return 0;
        }
        return 2;
    default:
        if ((q & 1) == p) {
            if (why) pl_buf_printf(why, "it would land on its own piece on %s (UR-R11)", name);
            if (r)
                refuse_at(r, "own-piece", sq, h);
            return 0;
        }
        if (((q >> 1) & 1) != tm) {
            if (why) pl_buf_printf(why, "a %s piece cannot land on the %s piece on %s (UR-R10)",
                                   tm ? "marked" : "blank", (q & 2) ? "marked" : "blank", name);
            if (r)
                refuse_at(r, "other-side", sq, h);
            return 0;
        }
        return 2;
    }
}

/* Target index of the piece at `level` of `sq` for the player to move,
 * or -1 when it is not that player's piece. */
static inline int piece_idx(const ur_state *s, int sq, int level)
{
    int q = piece_at(s, sq, level);
    if ((q & 1) != s->turn)
        return -1;
    return idx_tab[variant(s)][s->turn][sq][(q >> 1) & 1];
}

/* Bit of square sq in the masks. */
#define SQBIT(sq) (1u << (sq))

static inline void refresh_sq(ur_state *s, int sq)
{
    uint32_t b = SQBIT(sq);
    s->top[0] &= ~b;
    s->top[1] &= ~b;
    s->has[0] &= ~b;
    s->has[1] &= ~b;
    int h = s->h[sq];
    if (!h)
        return;
    s->top[(s->pc[sq] >> (2 * (h - 1))) & 1] |= b;
    for (int lv = 0; lv < h; lv++)
        s->has[(s->pc[sq] >> (2 * lv)) & 1] |= b;
}

void ur_refresh_masks(ur_state *s)
{
    for (int sq = 0; sq < UR_NSQ; sq++)
        refresh_sq(s, sq);
}

/* Legal moves in canonical order: enter, then the squares in board order
 * (A1..A8, B1..B8, C1..C8), within a stack (stack=any) from the top down.
 * Visits only the squares holding the mover's pieces (the masks). */
static int ur_legal(const void *st, int seat, pl_action *out, int cap)
{
    const ur_state *s = st;
    if (s->phase != UR_PH_MOVE || seat != s->turn)
        return 0;
    int p = s->turn, r = s->roll, off = ur_off_idx(s), n = 0;
    uint8_t (*idx)[2] = idx_tab[variant(s)][p];
    if (r > 0) {
        if (s->reserve[p] && can_land(s, p, r, NULL, NULL)) {
            if (n < cap) out[n] = UR_ACT_ENTER;
            n++;
        }
        if (!s->stackany) {
            for (uint32_t m = s->top[p]; m; m &= m - 1) {
                int sq = __builtin_ctz(m);
                int q = (s->pc[sq] >> (2 * (s->h[sq] - 1))) & 3;
                int j = idx[sq][q >> 1] + r;
                if (j > off || (j < off && !can_land(s, p, j, NULL, NULL)))
                    continue;
                if (n < cap) out[n] = UR_ACT_MOVE | (pl_action)(sq << 2);
                n++;
            }
        } else {
            for (uint32_t m = s->has[p]; m; m &= m - 1) {
                int sq = __builtin_ctz(m), h = s->h[sq];
                int seen = 0; /* kinds of pieces already met in this stack, from the top */
                for (int lv = h - 1; lv >= 0; lv--) {
                    int q = piece_at(s, sq, lv);
                    if (seen & (1 << q))
                        continue;
                    seen |= 1 << q;
                    if ((q & 1) != p)
                        continue;
                    int j = idx[sq][q >> 1] + r;
                    if (j > off || (j < off && !can_land(s, p, j, NULL, NULL)))
                        continue;
                    if (n < cap) out[n] = UR_ACT_MOVE | (pl_action)(sq << 2) | (pl_action)(h - 1 - lv);
                    n++;
                }
            }
        }
    }
    if (n == 0) {
        if (cap > 0) out[0] = UR_ACT_PASS;
        n = 1;
    }
    return n;
}

int ur_why_illegal(const ur_state *s, pl_action a, pl_buf *out, ur_refusal *why)
{
    ur_refusal scratch;
    ur_refusal *r = why ? why : &scratch;
    *r = (ur_refusal){.from = -1, .to = -1};
    int p = s->turn, roll = s->roll, off = ur_off_idx(s);
    if (a == UR_ACT_PASS) {
        r->why = "must-move";
        pl_buf_puts(out, "a move is possible, and a possible move must be made (UR-R4)");
        return 1;
    }
    if (roll == 0) {
        r->why = "throw-zero";
        pl_buf_puts(out, "a roll of 0 moves nothing: pass");
        return 1;
    }
    if (a == UR_ACT_ENTER) {
        r->entering = 1;
        if (!s->reserve[p]) {
            r->why = "reserve-empty";
            pl_buf_puts(out, "no piece is left in the reserve");
            return 1;
        }
        pl_buf_printf(out, "entering with %d lands on %s, and ", roll, ur_sq_name[path_tab[variant(s)][p][roll]]);
        can_land(s, p, roll, out, r);
        r->marked = 0;
        return 1;
    }
    if ((a & ~(pl_action)0xff) == UR_ACT_MOVE) {
        int sq = (int)((a >> 2) & 31), depth = (int)(a & 3);
        if (sq >= UR_NSQ) {
            r->why = "no-square";
            pl_buf_puts(out, "no such square");
            return 1;
        }
        int h = s->h[sq];
        r->from = sq;
        r->depth = depth + 1;
        if (h == 0) {
            r->why = "no-piece";
            pl_buf_printf(out, "there is no piece on %s", ur_sq_name[sq]);
            return 1;
        }
        if (depth >= h) {
            r->why = "stack-short";
            r->count = h;
            pl_buf_printf(out, "the stack on %s holds only %d piece%s", ur_sq_name[sq], h, h > 1 ? "s" : "");
            return 1;
        }
        if (depth > 0 && !s->stackany) {
            r->why = "not-top";
            pl_buf_puts(out, "only the top piece of a stack may move (UR-R16; option stack=any allows others)");
            return 1;
        }
        int lv = h - 1 - depth;
        int i = piece_idx(s, sq, lv);
        if (i < 0) {
            r->why = "not-yours";
            r->owner = piece_at(s, sq, lv) & 1;
            pl_buf_printf(out, "the %spiece on %s is not yours (UR-R16: pieces under it are blocked)",
                          depth == 0 ? "top " : "", ur_sq_name[sq]);
            return 1;
        }
        for (int k = lv + 1; k < h; k++)
            if (piece_at(s, sq, k) == piece_at(s, sq, lv)) {
                r->why = "name-topmost";
                pl_buf_printf(out, "name the topmost of the alike pieces on %s", ur_sq_name[sq]);
                return 1;
            }
        r->marked = (piece_at(s, sq, lv) >> 1) & 1;
        int j = i + roll;
        if (j > off) {
            r->why = "overshoot";
            r->exact = off - i;
            pl_buf_printf(out, "the piece on %s would go past the end: bearing off needs the exact roll (UR-R9)",
                          ur_sq_name[sq]);
            return 1;
        }
        if (j < off) {
            pl_buf_printf(out, "the piece on %s would land on %s, and ", ur_sq_name[sq],
                          ur_sq_name[path_tab[variant(s)][p][j]]);
            if (!can_land(s, p, j, out, r)) {
                /* the side it shows on landing: turned marked on or past the centre (UR-R8) */
                r->marked = s->finkel ? 0 : j >= 14;
                return 1;
            }
        }
        r->from = r->to = -1;
        r->depth = 0;
        r->marked = 0;
        return 0;
    }
    r->why = "not-a-move";
    pl_buf_puts(out, "not a move");
    return 1;
}

/* Removes the piece at `level` of `sq` (the pieces above drop down). */
static inline void take_piece(ur_state *s, int sq, int level)
{
    unsigned below = s->pc[sq] & ((1u << (2 * level)) - 1);
    unsigned above = s->pc[sq] >> (2 * level + 2);
    s->pc[sq] = (uint8_t)(below | (above << (2 * level)));
    s->h[sq]--;
}

static inline void push_piece(ur_state *s, int sq, int q)
{
    s->pc[sq] = (uint8_t)((s->pc[sq] & ((1u << (2 * s->h[sq])) - 1)) | (unsigned)(q << (2 * s->h[sq])));
    s->h[sq]++;
}

static void ur_apply(void *st, int seat, pl_action a)
{
    ur_state *s = st;
    (void)seat;
    if (a & UR_ACT_FIRST) {
        s->turn = (uint8_t)(a & 1);
        s->opening = 1;
        s->phase = UR_PH_ROLL;
        return;
    }
    if (a & UR_ACT_ROLL) {
        s->roll = (uint8_t)(a & 7);
        s->opening = 0;
        s->phase = UR_PH_MOVE;
        return;
    }
    int p = s->turn, v = variant(s), r = s->roll, off = ur_off_idx(s);
    int j;
    s->roll = 0; /* the roll is used up whatever happens */
    if (a == UR_ACT_PASS) {
        s->turn ^= 1;
        s->phase = UR_PH_ROLL;
        return;
    }
    if (a == UR_ACT_ENTER) {
        s->reserve[p]--;
        j = r;
    } else {
        int sq = (int)((a >> 2) & 31), lv = s->h[sq] - 1 - (int)(a & 3);
        int q = piece_at(s, sq, lv);
        j = idx_tab[v][p][sq][(q >> 1) & 1] + r;
        take_piece(s, sq, lv);
        refresh_sq(s, sq);
    }
    if (j == off) {
        if (++s->off[p] == s->pieces) {
            s->phase = UR_PH_OVER;
            return;
        }
        s->turn ^= 1;
        s->phase = UR_PH_ROLL;
        return;
    }
    int tsq = path_tab[v][p][j];
    int tm = v != V_FINKEL && j >= 14;
    int tk = kind_tab[s->finkel][tsq];
    if (s->h[tsq] && (top_piece(s, tsq) & 1) != p && tk != UR_SAFE && tk != UR_B7_EYES) {
        /* A capture: can_land allowed it, so the square holds one enemy piece. */
        s->h[tsq] = 0;
        s->pc[tsq] = 0;
        s->reserve[p ^ 1]++;
    }
    push_piece(s, tsq, p | (tm << 1));
    refresh_sq(s, tsq);
    s->phase = UR_PH_ROLL;
    if (kind_tab[s->finkel][tsq] != UR_ROSETTE)
        s->turn ^= 1;
}

static const pl_option_def ur_options[] = {
    {"rules", PL_OPT_ENUM, "skiryuk", "skiryuk|finkel", 0, 0,
     "Skiryuk's rules, or Finkel's for cross-checking the solved value"},
    {"pieces", PL_OPT_INT, "7", NULL, 1, 7, "pieces per player (UR-R1; Finkel: 7)"},
    {"dice", PL_OPT_ENUM, "3lots", "3lots|d4", 0, 0, "three binary lots (0 marked = 4) or one d4 (UR-R2)"},
    {"start", PL_OPT_ENUM, "random", "random|light|dark", 0, 0,
     "who starts, entering with a forced 1 (UR-R3)"},
    {"loop", PL_OPT_ENUM, "own-first", "own-first|opponent-first", 0, 0,
     "after B7, turn to one's own side of the small block first (UR-R8)"},
    {"stack", PL_OPT_ENUM, "top", "top|any", 0, 0, "which piece of a stack may move (UR-R16)"},
    {NULL, 0, NULL, NULL, 0, 0, NULL},
};

static int ur_init(void *st, const pl_opts *o, uint64_t seed, pl_buf *err)
{
    ur_state *s = st;
    (void)seed;
    memset(s, 0, sizeof *s);
    s->finkel = pl_opts_choice(o, "rules") == 1;
    s->pieces = (uint8_t)pl_opts_int(o, "pieces");
    s->d4 = pl_opts_choice(o, "dice") == 1;
    s->start = (uint8_t)pl_opts_choice(o, "start");
    s->loop = (uint8_t)pl_opts_choice(o, "loop");
    s->stackany = pl_opts_choice(o, "stack") == 1;
    if (s->finkel) {
        /* Finkel's game has none of these: only their defaults are accepted
         * (records list every option, defaults included). */
        static const char *const na[] = {"dice", "start", "loop", "stack"};
        static const char *const def[] = {"3lots", "random", "own-first", "top"};
        for (int i = 0; i < 4; i++)
            if (strcmp(pl_opts_get(o, na[i]), def[i]) != 0) {
                pl_buf_printf(err, "option %s does not apply with rules=finkel (Finkel: 4 binary dice, "
                                   "Light starts, one path, one piece a square)", na[i]);
                return -1;
            }
        s->d4 = 0;
        s->start = 1;
        s->loop = 0;
        s->stackany = 0;
    }
    s->reserve[0] = s->reserve[1] = s->pieces;
    if (s->finkel) {
        s->turn = 0;
        s->phase = UR_PH_ROLL;
    } else if (s->start == 0) {
        s->phase = UR_PH_FIRST;
    } else {
        s->turn = s->start == 2;
        s->opening = 1;
        s->phase = UR_PH_ROLL;
    }
    return 0;
}

static pl_phase ur_phase(const void *st)
{
    const ur_state *s = st;
    return s->phase == UR_PH_OVER ? PL_PHASE_OVER : s->phase == UR_PH_MOVE ? PL_PHASE_MOVE : PL_PHASE_CHANCE;
}

static int ur_num_seats(const void *st) { (void)st; return 2; }
static int ur_team_of(const void *st, int seat) { (void)st; return seat; }

static int ur_actors(const void *st, int *seats)
{
    const ur_state *s = st;
    if (s->phase != UR_PH_MOVE)
        return 0;
    seats[0] = s->turn;
    return 1;
}

static int ur_chance(const void *st, pl_action *out, double *prob, int cap)
{
    const ur_state *s = st;
    static const double lots[5] = {0, 3 / 8.0, 3 / 8.0, 1 / 8.0, 1 / 8.0};
    static const double finkel[5] = {1 / 16.0, 4 / 16.0, 6 / 16.0, 4 / 16.0, 1 / 16.0};
    int n = 0;
    if (s->phase == UR_PH_FIRST) {
        for (int i = 0; i < 2 && n < cap; i++, n++) {
            out[n] = UR_ACT_FIRST | (pl_action)i;
            prob[n] = 0.5;
        }
        return n;
    }
    if (s->phase != UR_PH_ROLL)
        return 0;
    if (s->opening) {
        if (cap > 0) {
            out[0] = UR_ACT_ROLL | 1;
            prob[0] = 1;
        }
        return 1;
    }
    for (int r = s->finkel ? 0 : 1; r <= 4 && n < cap; r++, n++) {
        out[n] = UR_ACT_ROLL | (pl_action)r;
        prob[n] = s->finkel ? finkel[r] : s->d4 ? 0.25 : lots[r];
    }
    return n;
}

static pl_action ur_sample_chance(const void *st, pl_rng *rng)
{
    const ur_state *s = st;
    uint64_t x = pl_rng_next(rng);
    if (s->phase == UR_PH_FIRST)
        return UR_ACT_FIRST | (x >> 63);
    if (s->opening)
        return UR_ACT_ROLL | 1;
    if (s->finkel)
        return UR_ACT_ROLL | (pl_action)popcount4[x >> 60];
    if (s->d4)
        return UR_ACT_ROLL | (pl_action)(1 + (x >> 62));
    return UR_ACT_ROLL | (pl_action)popcount3[x >> 61];
}

static void ur_outcome(const void *st, pl_outcome *o)
{
    const ur_state *s = st;
    memset(o, 0, sizeof *o);
    o->nseats = 2;
    o->score[0] = s->off[0];
    o->score[1] = s->off[1];
    if (s->phase != UR_PH_OVER) {
        o->kind = PL_WIN_NONE;
        return;
    }
    int w = s->off[0] == s->pieces ? 0 : 1;
    o->kind = PL_WIN_SEAT;
    o->winner = w;
    o->utility[w] = 1;
}

static void ur_determinize(const void *st, int seat, pl_rng *rng, void *out)
{
    (void)seat;
    (void)rng;
    memcpy(out, st, sizeof(ur_state));
}

/* Race-and-safety heuristic for simple searches: progress of each side's
 * pieces, a bonus for pieces borne off, squashed to a probability. */
static double ur_evaluate(const void *st, int seat)
{
    const ur_state *s = st;
    if (s->phase == UR_PH_OVER)
        return s->off[seat] == s->pieces ? 1.0 : 0.0;
    double prog[2] = {0, 0};
    int off = ur_off_idx(s);
    for (int sq = 0; sq < UR_NSQ; sq++)
        for (int lv = 0; lv < s->h[sq]; lv++) {
            int q = piece_at(s, sq, lv);
            int i = idx_tab[variant(s)][q & 1][sq][(q >> 1) & 1];
            int kind = kind_tab[s->finkel][sq];
            double safe = (kind == UR_SAFE || kind == UR_LANE_EYES || kind == UR_B7_EYES) ? 1.5 : 0;
            prog[q & 1] += i + safe;
        }
    for (int p = 0; p < 2; p++)
        prog[p] += s->off[p] * (off + 4.0);
    double d = (prog[seat] - prog[seat ^ 1]) / (s->pieces * (double)off);
    double x = 0.5 + 0.5 * d * 2.0;
    return x < 0.01 ? 0.01 : x > 0.99 ? 0.99 : x;
}

/* pl_game.check_state: pieces are conserved, a stack holds at most 4 (and
 * more than one only on a depot under Skiryuk's rules, so blank and marked
 * never share a square elsewhere), every piece stands on its own path with
 * the side its path index gives (marked <=> index >= 14), B7's stack has one
 * owner, and the masks agree with the stacks. */
static int ur_check_state(const void *st, pl_buf *why)
{
    const ur_state *s = st;
    int count[2] = {s->reserve[0] + s->off[0], s->reserve[1] + s->off[1]};
    for (int sq = 0; sq < UR_NSQ; sq++) {
        int h = s->h[sq], kind = ur_sq_kind(s, sq);
        bool depot = !s->finkel && (kind == UR_SAFE || kind == UR_LANE_EYES || kind == UR_B7_EYES);
        if (h > (depot ? 4 : 1) || s->pc[sq] >> (2 * h)) {
            pl_buf_printf(why, "square %s holds a stack of %d (pieces %#x)", ur_sq_name[sq], h, s->pc[sq]);
            return -1;
        }
        for (int lv = 0; lv < h; lv++) {
            int q = (s->pc[sq] >> (2 * lv)) & 3;
            int idx = ur_path_idx(s, q & 1, sq, (q >> 1) & 1);
            if (idx <= 0 || ((q >> 1) & 1) != (idx >= 14 && !s->finkel) ||
                (kind == UR_B7_EYES && !s->finkel && (q & 1) != (s->pc[sq] & 1))) {
                pl_buf_printf(why, "piece %d of the stack on %s is off its path or side", lv, ur_sq_name[sq]);
                return -1;
            }
            count[q & 1]++;
        }
    }
    if (count[0] != s->pieces || count[1] != s->pieces) {
        pl_buf_printf(why, "pieces not conserved: %d light, %d dark of %d", count[0], count[1], s->pieces);
        return -1;
    }
    ur_state t = *s;
    ur_refresh_masks(&t);
    if (memcmp(t.top, s->top, sizeof t.top) || memcmp(t.has, s->has, sizeof t.has)) {
        pl_buf_puts(why, "the square masks disagree with the stacks");
        return -1;
    }
    return 0;
}

/* Levels (docs/ai.md): the race heuristic, a short search, expectimax. */
static const pl_level ur_levels[] = {
    {"easy", "greedy", "one move deep by the race heuristic (wins 91 % against random)"},
    {"medium", "mcts:iterations=1000", "MCTS with 1000 iterations (the default player)"},
    {"hard", "expectimax:depth=3", "expectimax over 3 decisions (perfect:FILE is the solver's)"},
    {NULL, NULL, NULL},
};

/* Option sets the generic tests and fuzz targets play (the first four are
 * the fuzz targets'): Skiryuk's defaults, a short game, Finkel's rules, the
 * other dice, stacking and loop. */
static const char *const ur_variants[] = {
    "", "pieces=3 start=light", "rules=finkel", "dice=d4 stack=any loop=opponent-first", NULL,
};

/* `parlour bench ur` measures both rule sets. */
static const char *const ur_bench_sets[] = {"", "rules=finkel", NULL};

const pl_game ur_game = {
    .id = "ur",
    .name = "The Royal Game of Ur (Skiryuk's rules)",
    .summary =
        "Two players race 7 two-sided pieces (blank, then marked) along a 23-square path of the\n"
        "British Museum board: in along their own lane (A4 A3 A2 A1 for Light), down the middle\n"
        "row, round the small block (turning marked on or past the centre B8), and back down the\n"
        "middle to bear off from B4..B1 with an exact roll. Three binary lots give 1..4 (none\n"
        "marked = 4). Landing on a rosette (A1 C1 B4 A7 C7) gives another roll. A piece landing\n"
        "on a single enemy piece of the same side captures it, except on safe squares (B3 B6,\n"
        "stacks of 4 of anyone), eyes (own depots of 4; B7 belongs to whoever holds it) and the\n"
        "finish B1 (no stacking; a marked piece there is immune). Blank and marked never meet\n"
        "elsewhere. First to bear off every piece wins. rules=finkel plays Finkel's rules.",
    .options = ur_options,
    .state_size = sizeof(ur_state),
    .init = ur_init,
    .phase = ur_phase,
    .num_seats = ur_num_seats,
    .team_of = ur_team_of,
    .actors = ur_actors,
    .legal = ur_legal,
    .chance = ur_chance,
    .sample_chance = ur_sample_chance,
    .apply = ur_apply,
    .outcome = ur_outcome,
    .format_action = ur_format_action,
    .parse_action = ur_parse_action,
    .explain_illegal = ur_explain_illegal,
    .refusal = ur_refusal_json,
    .draw = ur_draw,
    .view = ur_view,
    .view_json = ur_view_json,
    .view_text = ur_view_text,
    .to_text = ur_to_text,
    .from_text = ur_from_text,
    .determinize = ur_determinize,
    .evaluate = ur_evaluate,
    .tables = &ur_table_ops,
    .levels = ur_levels,
    .variants = ur_variants,
    .bench_sets = ur_bench_sets,
    .check_state = ur_check_state,
    .describe = ur_describe,
    .format_action_long = ur_format_action_long,
    .mark_move = ur_mark_move,
    .seat_name = ur_seat_name,
    .events = ur_events,
    .action_fields = ur_action_fields,
    .events_text = ur_events_text,
    .action_fields_text = ur_action_fields_text,
};
