/* ur_text.c — Ur notation (docs/notation-ur.md), position text, the `view`
 * observation and the picture, and what an action did (events, describe,
 * the legal actions' fields). Off the search's hot path; the structured view
 * (ur_view_text), the moves' long texts and fields and each action's events
 * and sentences are written per move by the server, so those are kept
 * cheap (the events builder allocates nothing; only the JSON does). */
#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ur.h"

#include <jansson.h>

#include "parlour/alloc.h"
#include "parlour/jsonout.h"
#include "parlour/words.h"

static const char piece_ch[] = "ldLD"; /* owner | marked << 1 */
static const char *const side_name[2] = {"Light", "Dark"};

int ur_sq_parse(const char *n)
{
    if (!n[0] || !n[1] || n[2])
        return -1;
    char r = (char)toupper((unsigned char)n[0]);
    for (int i = 0; i < UR_NSQ; i++)
        if (ur_sq_name[i][0] == r && ur_sq_name[i][1] == n[1])
            return i;
    return -1;
}

void ur_format_action(const void *st, int seat, pl_action a, pl_buf *out)
{
    const ur_state *s = st;
    (void)seat;
    if (a & UR_ACT_FIRST)
        pl_buf_printf(out, "first %s", (a & 1) ? "dark" : "light");
    else if (a & UR_ACT_ROLL)
        pl_buf_printf(out, "roll %d", (int)(a & 7));
    else if (a == UR_ACT_PASS)
        pl_buf_puts(out, "pass");
    else if (a == UR_ACT_ENTER)
        pl_buf_puts(out, "enter");
    else if ((a & ~(pl_action)0xff) == UR_ACT_MOVE && ((a >> 2) & 31) < UR_NSQ) {
        pl_buf_puts(out, ur_sq_name[(a >> 2) & 31]);
        if (s->stackany && (a & 3))
            pl_buf_printf(out, ":%d", (int)(a & 3) + 1);
    } else
        pl_buf_printf(out, "?%llx", (unsigned long long)a);
}

int ur_parse_action(const void *st, int seat, const char *t, pl_action *a, pl_buf *err)
{
    const ur_state *s = st;
    (void)s;
    if (seat == PL_CHANCE) {
        if (!strncmp(t, "roll ", 5) && t[5] >= '0' && t[5] <= '4' && !t[6]) {
            *a = UR_ACT_ROLL | (pl_action)(t[5] - '0');
            return 0;
        }
        if (!strcmp(t, "first light") || !strcmp(t, "first dark")) {
            *a = UR_ACT_FIRST | (pl_action)(t[6] == 'd');
            return 0;
        }
        pl_buf_puts(err, "expected a chance outcome: roll N (N 0-4) or first light|dark");
        return -1;
    }
    if (!strcmp(t, "pass")) {
        *a = UR_ACT_PASS;
        return 0;
    }
    if (!strcmp(t, "enter")) {
        *a = UR_ACT_ENTER;
        return 0;
    }
    char sq[3] = {0};
    int depth = 0;
    size_t n = strlen(t);
    if (n == 2 || (n == 4 && t[2] == ':' && t[3] >= '1' && t[3] <= '4')) {
        sq[0] = t[0];
        sq[1] = t[1];
        depth = n == 4 ? t[3] - '1' : 0;
        int q = ur_sq_parse(sq);
        if (q >= 0) {
            *a = UR_ACT_MOVE | (pl_action)(q << 2) | (pl_action)depth;
            return 0;
        }
    }
    pl_buf_puts(err, "expected enter, pass, or the square of the piece to move (A1-A4 A7 A8 B1-B8 "
                     "C1-C4 C7 C8, with stack=any SQ:K for the K-th piece from the top)");
    return -1;
}

void ur_explain_illegal(const void *st, int seat, pl_action a, pl_buf *out)
{
    (void)seat;
    ur_why_illegal(st, a, out, NULL);
}

int ur_refusal_json(const void *st, int seat, pl_action a, json_t *obj)
{
    const ur_state *s = st;
    if (s->phase != UR_PH_MOVE || seat != s->turn)
        return -1;
    pl_action legal[PL_MAX_ACTIONS];
    int n = pl_legal_all(&ur_game, st, seat, legal);
    for (int i = 0; i < n; i++)
        if (legal[i] == a)
            return -1; /* a legal action (a pass with no move, too) is not refused */
    ur_refusal r;
    pl_buf words = {0};
    int refused = ur_why_illegal(s, a, &words, &r);
    pl_buf_free(&words);
    if (!refused || !r.why)
        return -1;
    int bad = json_object_set_new(obj, "why", json_string(r.why));
    if (r.entering)
        bad |= json_object_set_new(obj, "from", json_string("reserve"));
    else if (r.from >= 0)
        bad |= json_object_set_new(obj, "from", json_string(ur_sq_name[r.from]));
    if (r.from >= 0 && r.depth > 0)
        bad |= json_object_set_new(obj, "depth", json_integer(r.depth));
    if (r.to >= 0) {
        bad |= json_object_set_new(obj, "to", json_string(ur_sq_name[r.to]));
        bad |= json_object_set_new(obj, "count", json_integer(r.count));
    }
    if (!strcmp(r.why, "stack-short"))
        bad |= json_object_set_new(obj, "count", json_integer(r.count));
    if (!strcmp(r.why, "overshoot"))
        bad |= json_object_set_new(obj, "exact", json_integer(r.exact));
    if (!strcmp(r.why, "not-yours"))
        bad |= json_object_set_new(obj, "owner", json_integer(r.owner));
    if (!strcmp(r.why, "other-side"))
        bad |= json_object_set_new(obj, "marked", json_boolean(r.marked));
    return bad ? -1 : 0;
}

static void stack_text(const ur_state *s, int sq, char *out)
{
    int h = s->h[sq];
    for (int lv = 0; lv < h; lv++)
        out[lv] = piece_ch[(s->pc[sq] >> (2 * lv)) & 3];
    out[h] = '\0';
}

static const char *phase_word(const ur_state *s)
{
    switch (s->phase) {
    case UR_PH_FIRST: return "first";
    case UR_PH_ROLL: return s->opening ? "opening" : "roll";
    case UR_PH_MOVE: return "move";
    default: return "over";
    }
}

void ur_to_text(const void *st, pl_buf *out)
{
    const ur_state *s = st;
    pl_buf_puts(out, "board=");
    int any = 0;
    for (int sq = 0; sq < UR_NSQ; sq++) {
        if (!s->h[sq])
            continue;
        char t[5];
        stack_text(s, sq, t);
        pl_buf_printf(out, "%s%s:%s", any++ ? "," : "", ur_sq_name[sq], t);
    }
    if (!any)
        pl_buf_putc(out, '-');
    pl_buf_printf(out, " turn=%s phase=%s roll=%d reserve=%d/%d off=%d/%d",
                  s->turn ? "dark" : "light", phase_word(s), s->phase == UR_PH_MOVE ? s->roll : 0,
                  s->reserve[0], s->reserve[1], s->off[0], s->off[1]);
}

static int fail(pl_buf *err, const char *msg, const char *item)
{
    pl_buf_printf(err, "bad position: %s%s%s", msg, item ? " " : "", item ? item : "");
    return -1;
}

/* Checks that `sq` may hold the stack `t` (bottom first) under `s`'s rules. */
static int check_stack(const ur_state *s, int sq, const char *t, pl_buf *err)
{
    int h = (int)strlen(t), kind = ur_sq_kind(s, sq);
    int cap = s->finkel ? 1 : (kind == UR_SAFE || kind == UR_LANE_EYES || kind == UR_B7_EYES) ? 4 : 1;
    if (h < 1 || h > cap) {
        pl_buf_printf(err, "bad position: %s holds at most %d piece%s", ur_sq_name[sq], cap, cap > 1 ? "s" : "");
        return -1;
    }
    for (int i = 0; i < h; i++) {
        const char *c = strchr(piece_ch, t[i]);
        if (!c || !t[i]) {
            pl_buf_printf(err, "bad position: piece '%c' on %s: use l L (Light blank, marked) d D (Dark)",
                          t[i], ur_sq_name[sq]);
            return -1;
        }
        int q = (int)(c - piece_ch);
        if (s->finkel && (q & 2)) {
            pl_buf_printf(err, "bad position: no marked pieces in Finkel's rules (%s)", ur_sq_name[sq]);
            return -1;
        }
        if (!ur_path_idx(s, q & 1, sq, (q >> 1) & 1)) {
            pl_buf_printf(err, "bad position: a %s %s piece cannot stand on %s", side_name[q & 1],
                          (q & 2) ? "marked" : "blank", ur_sq_name[sq]);
            return -1;
        }
        if (kind == UR_B7_EYES && (t[i] == 'l' || t[i] == 'L') != (t[0] == 'l' || t[0] == 'L')) {
            pl_buf_printf(err, "bad position: the depot %s holds one player's pieces", ur_sq_name[sq]);
            return -1;
        }
    }
    return 0;
}

int ur_from_text(void *st, const char *text, pl_buf *err)
{
    ur_state n;
    memcpy(&n, st, sizeof n);
    memset(n.h, 0, sizeof n.h);
    memset(n.pc, 0, sizeof n.pc);
    char *copy = pl_strdup(text);
    if (!copy)
        return fail(err, "out of memory", NULL);
    int seen = 0, rc = -1, roll = 0, onboard[2] = {0, 0};
    char *save = NULL;
    for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(w, '=');
        if (!eq) {
            fail(err, "expected KEY=VALUE, got", w);
            goto done;
        }
        *eq = '\0';
        char *v = eq + 1;
        if (!strcmp(w, "board")) {
            seen |= 1;
            if (!strcmp(v, "-"))
                continue;
            char *s2 = NULL;
            for (char *it = strtok_r(v, ",", &s2); it; it = strtok_r(NULL, ",", &s2)) {
                char *colon = strchr(it, ':');
                if (!colon) {
                    fail(err, "expected SQUARE:PIECES, got", it);
                    goto done;
                }
                *colon = '\0';
                int sq = ur_sq_parse(it);
                if (sq < 0 || n.h[sq]) {
                    fail(err, sq < 0 ? "unknown square" : "square given twice:", it);
                    goto done;
                }
                if (check_stack(&n, sq, colon + 1, err) < 0)
                    goto done;
                for (const char *c = colon + 1; *c; c++) {
                    int q = (int)(strchr(piece_ch, *c) - piece_ch);
                    n.pc[sq] |= (uint8_t)(q << (2 * n.h[sq]));
                    n.h[sq]++;
                    onboard[q & 1]++;
                }
            }
        } else if (!strcmp(w, "turn")) {
            seen |= 2;
            if (strcmp(v, "light") && strcmp(v, "dark")) {
                fail(err, "turn must be light or dark, got", v);
                goto done;
            }
            n.turn = v[0] == 'd';
        } else if (!strcmp(w, "phase")) {
            seen |= 4;
            static const char *const ph[] = {"first", "roll", "opening", "move", "over"};
            int k = 0;
            while (k < 5 && strcmp(v, ph[k]))
                k++;
            if (k == 5) {
                fail(err, "phase must be first, roll, opening, move or over, got", v);
                goto done;
            }
            n.opening = k == 2;
            n.phase = k == 0 ? UR_PH_FIRST : k <= 2 ? UR_PH_ROLL : k == 3 ? UR_PH_MOVE : UR_PH_OVER;
        } else if (!strcmp(w, "roll")) {
            seen |= 8;
            if (strlen(v) != 1 || v[0] < '0' || v[0] > '4') {
                fail(err, "roll must be 0-4, got", v);
                goto done;
            }
            roll = v[0] - '0';
        } else if (!strcmp(w, "reserve") || !strcmp(w, "off")) {
            int a, b;
            char extra;
            if (sscanf(v, "%d/%d%c", &a, &b, &extra) != 2 || a < 0 || b < 0 || a > 7 || b > 7) {
                fail(err, "expected N/N (Light/Dark), got", v);
                goto done;
            }
            uint8_t *dst = w[0] == 'r' ? n.reserve : n.off;
            seen |= w[0] == 'r' ? 16 : 32;
            dst[0] = (uint8_t)a;
            dst[1] = (uint8_t)b;
        } else {
            fail(err, "unknown key (board turn phase roll reserve off):", w);
            goto done;
        }
    }
    if (seen != 63) {
        fail(err, "needs board, turn, phase, roll, reserve and off", NULL);
        goto done;
    }
    for (int p = 0; p < 2; p++)
        if (n.reserve[p] + n.off[p] + onboard[p] != n.pieces) {
            pl_buf_printf(err, "bad position: %s has %d pieces, the game has %d", side_name[p],
                          n.reserve[p] + n.off[p] + onboard[p], n.pieces);
            goto done;
        }
    n.roll = (uint8_t)(n.phase == UR_PH_MOVE ? roll : 0);
    if (n.phase == UR_PH_MOVE && roll == 0 && !n.finkel) {
        fail(err, "a roll of 0 exists only in Finkel's rules", NULL);
        goto done;
    }
    if (n.phase == UR_PH_FIRST && (onboard[0] || onboard[1] || n.off[0] || n.off[1])) {
        fail(err, "phase first is only at the start", NULL);
        goto done;
    }
    bool won = n.off[0] == n.pieces || n.off[1] == n.pieces;
    if (won != (n.phase == UR_PH_OVER) || (n.off[0] == n.pieces && n.off[1] == n.pieces)) {
        fail(err, "phase over exactly when one side has borne off every piece", NULL);
        goto done;
    }
    if (n.phase == UR_PH_OVER)
        n.turn = n.off[1] == n.pieces; /* the winner moved last */
    ur_refresh_masks(&n);
    memcpy(st, &n, sizeof n);
    rc = 0;
done:
    pl_free(copy);
    return rc;
}

void ur_view(const void *st, int seat, pl_buf *out)
{
    const ur_state *s = st;
    pl_buf_printf(out, "game ur\nseat %d\nrules %s\nphase %s\nturn %d\nroll %d\n", seat,
                  s->finkel ? "finkel" : "skiryuk", phase_word(s), s->turn,
                  s->phase == UR_PH_MOVE ? s->roll : 0);
    pl_buf_printf(out, "reserve %d %d\noff %d %d\n", s->reserve[0], s->reserve[1], s->off[0], s->off[1]);
    for (int sq = 0; sq < UR_NSQ; sq++) {
        if (!s->h[sq])
            continue;
        char t[5];
        stack_text(s, sq, t);
        pl_buf_printf(out, "square %s %s\n", ur_sq_name[sq], t);
    }
    pl_buf_puts(out, "position ");
    ur_to_text(s, out);
    pl_buf_putc(out, '\n');
}

static const char *mark_of(const ur_state *s, int sq)
{
    switch (ur_sq_kind(s, sq)) {
    case UR_ROSETTE: return "*";
    case UR_LANE_EYES:
    case UR_B7_EYES: return "o";
    case UR_SAFE: return "+";
    case UR_FINISH: return "F";
    case UR_CONVERSION: return "~";
    default: return ".";
    }
}

void ur_draw(const void *st, int seat, pl_canvas *c)
{
    const ur_state *s = st;
    pl_lang lang = (pl_lang)c->lang;
    pl_canvas_words(c, 0, 0, PL_ST_TITLE, s->finkel ? "ur.pic.title.finkel" : "ur.pic.title.skiryuk", NULL);
    for (int col = 1; col <= 8; col++)
        pl_canvas_printf(c, 1, 3 + (col - 1) * 7, PL_ST_DIM, "   %d", col);
    static const char rows[3] = {'A', 'B', 'C'};
    for (int r = 0; r < 3; r++) {
        pl_canvas_printf(c, 2 + r, 0, PL_ST_DIM, "%c", rows[r]);
        for (int col = 1; col <= 8; col++) {
            char name[3] = {rows[r], (char)('0' + col), 0};
            int sq = ur_sq_parse(name);
            int x = 3 + (col - 1) * 7;
            if (sq < 0)
                continue;
            pl_canvas_put(c, 2 + r, x, PL_ST_DIM, "[");
            pl_canvas_put(c, 2 + r, x + 1, PL_ST_MARK, mark_of(s, sq));
            for (int lv = 0; lv < s->h[sq]; lv++) {
                int q = (s->pc[sq] >> (2 * lv)) & 3;
                char t[2] = {piece_ch[q], 0};
                pl_canvas_put(c, 2 + r, x + 2 + lv, (q & 1) ? PL_ST_BLACK : PL_ST_RED, t);
            }
            pl_canvas_put(c, 2 + r, x + 6, PL_ST_DIM, "]");
        }
    }
    int end[2];
    char rs[16], o[16], n[16], a[16];
    snprintf(n, sizeof n, "%d", s->pieces);
    for (int p = 0; p < 2; p++) {
        snprintf(rs, sizeof rs, "%d", s->reserve[p]);
        snprintf(o, sizeof o, "%d", s->off[p]);
        end[p] = pl_canvas_words(c, 6 + p, 0, p ? PL_ST_BLACK : PL_ST_RED, p ? "ur.pic.side.1" : "ur.pic.side.0", "reserve",
                           rs, "off", o, "of", n, NULL);
    }
    if (seat == 0 || seat == 1) /* the picture of one player: say which side is theirs */
        pl_canvas_words(c, 6 + seat, end[seat], PL_ST_HILITE, "ur.pic.you", NULL);
    pl_buf who = {0};
    if (seat == s->turn)
        pl_buf_puts(&who, pl_words(lang, s->turn ? "ur.pic.you.1" : "ur.pic.you.0"));
    else
        pl_buf_puts(&who, pl_words(lang, s->turn ? "ur.pic.name.1" : "ur.pic.name.0"));
    switch (s->phase) {
    case UR_PH_FIRST:
        pl_canvas_words(c, 8, 0, PL_ST_NORMAL, "ur.pic.first", NULL);
        break;
    case UR_PH_ROLL:
        pl_canvas_words(c, 8, 0, PL_ST_NORMAL, s->opening ? "ur.pic.roll.opening" : "ur.pic.roll", "side",
                  pl_buf_str(&who), NULL);
        break;
    case UR_PH_MOVE:
        snprintf(a, sizeof a, "%d", s->roll);
        pl_canvas_words(c, 8, 0, PL_ST_HILITE, "ur.pic.move", "side", pl_buf_str(&who), "roll", a, NULL);
        break;
    default: {
        int w = s->off[1] == s->pieces;
        char score[40];
        snprintf(score, sizeof score, "%d-%d", s->off[w], s->off[!w]);
        pl_canvas_words(c, 8, 0, PL_ST_HILITE, "ur.pic.wins", "side", pl_words(lang, w ? "ur.pic.name.1" : "ur.pic.name.0"),
                  "score", score, NULL);
    }
    }
    c->oom |= who.oom;
    pl_buf_free(&who);
    /* The legend names only the marks this board has (Finkel's: rosettes):
     * the mark, a blank, its name in the picture's language. */
    static const char *const legend[] = {"* ur.pic.mark.rosette", "o ur.pic.mark.eyes",       "+ ur.pic.mark.safe",
                                         "F ur.pic.mark.finish",  "~ ur.pic.mark.conversion", ". ur.pic.mark.plain"};
    bool has[6] = {false};
    for (int r = 0; r < 3; r++)
        for (int col = 1; col <= 8; col++) {
            char name[3] = {rows[r], (char)('0' + col), 0};
            int sq = ur_sq_parse(name);
            if (sq >= 0)
                for (int i = 0; i < 6; i++)
                    has[i] |= mark_of(s, sq)[0] == legend[i][0];
        }
    int x0 = pl_canvas_words(c, 9, 0, PL_ST_DIM, "ur.pic.marks", NULL), x = x0;
    for (int i = 0; i < 6; i++)
        if (has[i])
            x = pl_canvas_printf(c, 9, x, PL_ST_DIM, "%s%c %s", x == x0 ? " " : "  ", legend[i][0],
                                 pl_words(lang, legend[i] + 2));
}

void ur_seat_name(const void *st, int seat, pl_buf *out)
{
    (void)st;
    pl_buf_puts(out, side_name[seat & 1]);
}

/* ---------------------------------------------------------------- what a move did */

/* The events builder: what an action did, as a short list of typed events
 * (docs/web-views.md, "Events"). Everything that tells what happened is
 * written from it: the JSON events (ur_events), the sentences (ur_describe),
 * the menu's landing square (ur_format_action_long), a legal action's fields
 * (ur_action_fields) and the picture's last move (ur_mark_move), so none of
 * them can disagree with another. Found by comparing the states before and
 * after the action, so that no text restates the rules. */
enum ur_ev_type { UR_EV_FIRST, UR_EV_THROW, UR_EV_PASS, UR_EV_MOVE, UR_EV_CAPTURE, UR_EV_FLIP, UR_EV_BEAR_OFF, UR_EV_AGAIN };

static const char *const ev_word[] = {"first", "throw", "pass", "move", "capture", "flip", "bear-off", "again"};

/* One event. `from`: a square, or -1 the reserve; `to`, `sq`: a square, or
 * UR_NSQ borne off. `n`, `m`: throw: the value and the lots marked; pass:
 * the roll; capture: the pieces captured; bear-off: borne off so far and of
 * how many. */
typedef struct ur_ev {
    uint8_t type, seat;
    int8_t from, to, sq;
    uint8_t n, m;
    bool opening; /* throw: the starter's forced 1 (UR-R3) */
} ur_ev;

#define UR_MAX_EV 5 /* move, capture, flip, bear-off or again */

/* Pieces of `p` on `sq`. */
static int count_on(const ur_state *s, int p, int sq)
{
    int n = 0;
    for (int lv = 0; lv < s->h[sq]; lv++)
        n += ((s->pc[sq] >> (2 * lv)) & 1) == p;
    return n;
}

/* The events of a piece move from `b` to `a` (the action `act`) into `ev`;
 * the number written, 0 when `b` to `a` was not one. */
static int move_events(const ur_state *b, pl_action act, const ur_state *a, ur_ev *ev)
{
    int p = b->turn, from = -2, to = -2;
    if (a->reserve[p] < b->reserve[p])
        from = -1;
    if (a->off[p] > b->off[p])
        to = UR_NSQ;
    for (int sq = 0; sq < UR_NSQ; sq++) {
        if (a->h[sq] == b->h[sq] && a->pc[sq] == b->pc[sq])
            continue; /* most squares: the same stack, nothing to count */
        int d = count_on(a, p, sq) - count_on(b, p, sq);
        if (d < 0)
            from = sq;
        else if (d > 0)
            to = sq;
    }
    if (from == -2 || to == -2)
        return 0;
    int n = 0;
    ev[n++] = (ur_ev){.type = UR_EV_MOVE, .seat = (uint8_t)p, .from = (int8_t)from, .to = (int8_t)to};
    if (to < UR_NSQ && a->reserve[p ^ 1] > b->reserve[p ^ 1])
        ev[n++] = (ur_ev){.type = UR_EV_CAPTURE, .seat = (uint8_t)p, .sq = (int8_t)to,
                          .n = (uint8_t)(a->reserve[p ^ 1] - b->reserve[p ^ 1])};
    /* the piece moved lies on top of `to` (or is off): marked now, blank before (UR-R8) */
    int was = 0;
    if (from >= 0 && (act & ~(pl_action)0xff) == UR_ACT_MOVE && (int)(act & 3) < b->h[from])
        was = (b->pc[from] >> (2 * (b->h[from] - 1 - (int)(act & 3)) + 1)) & 1;
    if (to < UR_NSQ && !was && ((a->pc[to] >> (2 * (a->h[to] - 1) + 1)) & 1))
        ev[n++] = (ur_ev){.type = UR_EV_FLIP, .seat = (uint8_t)p, .sq = (int8_t)to};
    if (to == UR_NSQ)
        ev[n++] = (ur_ev){.type = UR_EV_BEAR_OFF, .seat = (uint8_t)p, .n = a->off[p], .m = a->pieces};
    else if (a->phase == UR_PH_ROLL && a->turn == p)
        ev[n++] = (ur_ev){.type = UR_EV_AGAIN, .seat = (uint8_t)p, .sq = (int8_t)to};
    return n;
}

/* The events of `seat`'s action `a` from `b` to `s` into `ev` (room for
 * UR_MAX_EV); returns how many. Ur hides nothing: the same for everyone. */
static int events_of(const ur_state *b, int seat, pl_action a, const ur_state *s, ur_ev *ev)
{
    if (seat == PL_CHANCE) {
        if (b->phase == UR_PH_FIRST && (a & UR_ACT_FIRST)) {
            ev[0] = (ur_ev){.type = UR_EV_FIRST, .seat = (uint8_t)(a & 1)};
            return 1;
        }
        if (b->phase != UR_PH_ROLL || !(a & UR_ACT_ROLL))
            return 0;
        int v = (int)(a & 7);
        /* the lots marked: three lots with none marked for a 4 (UR-R2); Finkel's four dice */
        int marked = b->finkel ? v : b->d4 ? 0 : v == 4 ? 0 : v;
        ev[0] = (ur_ev){.type = UR_EV_THROW, .seat = b->turn, .n = (uint8_t)v, .m = (uint8_t)marked,
                        .opening = b->opening};
        return 1;
    }
    if (b->phase != UR_PH_MOVE || seat != b->turn)
        return 0;
    if (a == UR_ACT_PASS) {
        ev[0] = (ur_ev){.type = UR_EV_PASS, .seat = b->turn, .n = b->roll};
        return 1;
    }
    return move_events(b, a, s, ev);
}

/* A square's name, the reserve's (-1) or "off" (UR_NSQ). */
static const char *place_name(int sq) { return sq < 0 ? "reserve" : sq >= UR_NSQ ? "off" : ur_sq_name[sq]; }

/* Appends event `e` (of the state `b` before it) to `arr` as JSON; -1 when
 * memory ran out. Built by calls, not json_pack: the server writes these per
 * move. */
static int ev_json(const ur_state *b, const ur_ev *e, json_t *arr)
{
    json_t *o = json_object();
    int bad = json_object_set_new(o, "type", json_string(ev_word[e->type]));
    bad |= json_object_set_new(o, "seat", json_integer(e->seat));
    switch (e->type) {
    case UR_EV_THROW: {
        int lots = b->finkel ? 4 : b->d4 ? 0 : 3; /* a d4 is one die: no lots */
        bad |= json_object_set_new(o, "value", json_integer(e->n));
        bad |= json_object_set_new(o, "lots", lots ? json_integer(lots) : json_null());
        bad |= json_object_set_new(o, "marked", lots ? json_integer(e->m) : json_null());
        bad |= json_object_set_new(o, "opening", json_boolean(e->opening));
        break;
    }
    case UR_EV_PASS:
        bad |= json_object_set_new(o, "roll", json_integer(e->n));
        break;
    case UR_EV_MOVE:
        bad |= json_object_set_new(o, "from", json_string(place_name(e->from)));
        bad |= json_object_set_new(o, "to", json_string(place_name(e->to)));
        break;
    case UR_EV_CAPTURE:
        bad |= json_object_set_new(o, "owner", json_integer(e->seat ^ 1));
        bad |= json_object_set_new(o, "square", json_string(place_name(e->sq)));
        bad |= json_object_set_new(o, "count", json_integer(e->n));
        bad |= json_object_set_new(o, "to", json_string("reserve"));
        break;
    case UR_EV_FLIP:
    case UR_EV_AGAIN:
        bad |= json_object_set_new(o, "square", json_string(place_name(e->sq)));
        break;
    case UR_EV_BEAR_OFF:
        bad |= json_object_set_new(o, "count", json_integer(e->n));
        bad |= json_object_set_new(o, "of", json_integer(e->m));
        break;
    default:
        break;
    }
    bad |= json_array_append_new(arr, o);
    return bad ? -1 : 0;
}

int ur_events(const void *before, int seat, pl_action a, const void *after, int viewer, json_t *arr)
{
    ur_ev ev[UR_MAX_EV];
    (void)viewer; /* Ur hides nothing */
    int n = events_of(before, seat, a, after, ev), bad = 0;
    for (int i = 0; i < n; i++)
        bad |= ev_json(before, &ev[i], arr);
    return bad ? -1 : 0;
}

/* ---- the same events as text (pl_game.events_text): ur_events's bytes ----
 *
 * Each event's keys are written in strcmp's order by hand (the order
 * pl_json_dump sorts ev_json's object into); the words and square names are
 * ASCII with nothing to escape, the numbers single digits, so both are
 * copied as they are (put_word, put_small). No allocation but the buffer's:
 * the server writes these per action per viewer (docs/benchmarks.md).
 * tests/test_property_events_text.c checks the bytes against ur_events's. */

/* Appends "true" or "false". */
static void put_bool(pl_buf *out, bool v) { pl_buf_puts(out, v ? "true" : "false"); }

/* Appends `w`, an event word or a place name (ASCII letters, digits and
 * '-': nothing to escape), between quotes, as pl_json_put_string would
 * write it at a fraction of its cost. */
static void put_word(pl_buf *out, const char *w)
{
    pl_buf_putc(out, '"');
    pl_buf_puts(out, w);
    pl_buf_putc(out, '"');
}

/* Appends the integer `v` as pl_json_put_int writes it; one digit (every
 * count, seat and throw of Ur) without its work. */
static void put_small(pl_buf *out, int v)
{
    if (v >= 0 && v <= 9)
        pl_buf_putc(out, (char)('0' + v));
    else
        pl_json_put_int(out, v);
}

/* Appends `lead` (the object's "{" or a field's ","), then
 * `"seat":N,"type":"word"`: the two keys every event has. */
static void put_seat_type(pl_buf *out, const char *lead, const ur_ev *e)
{
    pl_buf_puts(out, lead);
    pl_buf_puts(out, "\"seat\":");
    put_small(out, e->seat);
    pl_buf_puts(out, ",\"type\":");
    put_word(out, ev_word[e->type]);
}

/* Appends event `e` (of the state `b` before it) as ev_json's object
 * dumps (out->oom set when memory ran out). */
static void ev_text(const ur_state *b, const ur_ev *e, pl_buf *out)
{
    switch (e->type) {
    case UR_EV_THROW: { /* lots marked opening seat type value */
        int lots = b->finkel ? 4 : b->d4 ? 0 : 3; /* as ev_json */
        pl_buf_puts(out, "{\"lots\":");
        if (lots)
            put_small(out, lots);
        else
            pl_buf_puts(out, "null");
        pl_buf_puts(out, ",\"marked\":");
        if (lots)
            put_small(out, e->m);
        else
            pl_buf_puts(out, "null");
        pl_buf_puts(out, ",\"opening\":");
        put_bool(out, e->opening);
        put_seat_type(out, ",", e);
        pl_buf_puts(out, ",\"value\":");
        put_small(out, e->n);
        break;
    }
    case UR_EV_PASS: /* roll seat type */
        pl_buf_puts(out, "{\"roll\":");
        put_small(out, e->n);
        put_seat_type(out, ",", e);
        break;
    case UR_EV_MOVE: /* from seat to type */
        pl_buf_puts(out, "{\"from\":");
        put_word(out, place_name(e->from));
        pl_buf_puts(out, ",\"seat\":");
        put_small(out, e->seat);
        pl_buf_puts(out, ",\"to\":");
        put_word(out, place_name(e->to));
        pl_buf_puts(out, ",\"type\":");
        put_word(out, ev_word[e->type]);
        break;
    case UR_EV_CAPTURE: /* count owner seat square to type */
        pl_buf_puts(out, "{\"count\":");
        put_small(out, e->n);
        pl_buf_puts(out, ",\"owner\":");
        put_small(out, e->seat ^ 1);
        pl_buf_puts(out, ",\"seat\":");
        put_small(out, e->seat);
        pl_buf_puts(out, ",\"square\":");
        put_word(out, place_name(e->sq));
        pl_buf_puts(out, ",\"to\":\"reserve\",\"type\":");
        put_word(out, ev_word[e->type]);
        break;
    case UR_EV_FLIP:
    case UR_EV_AGAIN: /* seat square type */
        pl_buf_puts(out, "{\"seat\":");
        put_small(out, e->seat);
        pl_buf_puts(out, ",\"square\":");
        put_word(out, place_name(e->sq));
        pl_buf_puts(out, ",\"type\":");
        put_word(out, ev_word[e->type]);
        break;
    case UR_EV_BEAR_OFF: /* count of seat type */
        pl_buf_puts(out, "{\"count\":");
        put_small(out, e->n);
        pl_buf_puts(out, ",\"of\":");
        put_small(out, e->m);
        put_seat_type(out, ",", e);
        break;
    default: /* UR_EV_FIRST: seat type */
        put_seat_type(out, "{", e);
        break;
    }
    pl_buf_putc(out, '}');
}

int ur_events_text(const void *before, int seat, pl_action a, const void *after, int viewer, pl_buf *out)
{
    ur_ev ev[UR_MAX_EV];
    (void)viewer; /* Ur hides nothing */
    int n = events_of(before, seat, a, after, ev);
    pl_buf_putc(out, '[');
    for (int i = 0; i < n; i++) {
        if (i)
            pl_buf_putc(out, ',');
        ev_text(before, &ev[i], out);
    }
    pl_buf_putc(out, ']');
    return out->oom ? -1 : 0;
}

/* The events of `seat`'s action `a` in `s` when it is one of its legal piece
 * moves or its pass (applied to a copy), else 0: a menu and a page show
 * legal moves; an illegal one lands nowhere. */
static int legal_events(const ur_state *s, int seat, pl_action a, ur_ev *ev)
{
    if (s->phase != UR_PH_MOVE || seat != s->turn ||
        (a != UR_ACT_PASS && a != UR_ACT_ENTER && (a & ~(pl_action)0xff) != UR_ACT_MOVE))
        return 0;
    pl_action list[1 + UR_NSQ * 4]; /* enter, and at most 4 pieces a square */
    int n = ur_game.legal(s, seat, list, (int)(sizeof list / sizeof list[0])), k = 0;
    while (k < n && list[k] != a)
        k++;
    if (k == n)
        return 0;
    ur_state t = *s;
    ur_game.apply(&t, seat, a);
    return events_of(s, seat, a, &t, ev);
}

/* The first event of `type` among ev[0..n), or NULL. */
static const ur_ev *find_ev(const ur_ev *ev, int n, int type)
{
    for (int i = 0; i < n; i++)
        if (ev[i].type == type)
            return &ev[i];
    return NULL;
}

void ur_format_action_long(const void *st, int seat, pl_action a, pl_buf *out)
{
    ur_ev ev[UR_MAX_EV];
    ur_format_action(st, seat, a, out);
    int n = legal_events(st, seat, a, ev);
    const ur_ev *mv = find_ev(ev, n, UR_EV_MOVE);
    if (!mv)
        return;
    pl_buf_puts(out, " → "); /* puts, not printf: a menu writes this for every legal move of every state */
    pl_buf_puts(out, place_name(mv->to));
    pl_buf_puts(out, find_ev(ev, n, UR_EV_CAPTURE) ? ", captures" : "");
    pl_buf_puts(out, find_ev(ev, n, UR_EV_AGAIN) ? ", rolls again" : "");
}

int ur_action_fields(const void *st, int seat, pl_action a, json_t *obj)
{
    ur_ev ev[UR_MAX_EV];
    int n = legal_events(st, seat, a, ev), bad = 0;
    const ur_ev *mv = find_ev(ev, n, UR_EV_MOVE);
    if (n && ev[0].type == UR_EV_PASS)
        return json_object_set_new(obj, "pass", json_true()) ? -1 : 0;
    if (!mv)
        return 0;
    bad |= json_object_set_new(obj, "from", json_string(place_name(mv->from)));
    bad |= json_object_set_new(obj, "depth", json_integer(a == UR_ACT_ENTER ? 1 : (int)(a & 3) + 1));
    bad |= json_object_set_new(obj, "to", json_string(place_name(mv->to)));
    bad |= json_object_set_new(obj, "captures", json_boolean(find_ev(ev, n, UR_EV_CAPTURE)));
    bad |= json_object_set_new(obj, "flips", json_boolean(find_ev(ev, n, UR_EV_FLIP)));
    bad |= json_object_set_new(obj, "off", json_boolean(find_ev(ev, n, UR_EV_BEAR_OFF)));
    bad |= json_object_set_new(obj, "again", json_boolean(find_ev(ev, n, UR_EV_AGAIN)));
    return bad ? -1 : 0;
}

int ur_action_fields_text(const void *st, int seat, pl_action a, pl_buf *out)
{
    ur_ev ev[UR_MAX_EV];
    int n = legal_events(st, seat, a, ev);
    const ur_ev *mv = find_ev(ev, n, UR_EV_MOVE);
    if (n && ev[0].type == UR_EV_PASS) {
        pl_buf_puts(out, "{\"pass\":true}");
        return out->oom ? -1 : 0;
    }
    if (!mv) {
        pl_buf_puts(out, "{}");
        return out->oom ? -1 : 0;
    }
    /* ur_action_fields's keys in strcmp's order */
    pl_buf_puts(out, "{\"again\":");
    put_bool(out, find_ev(ev, n, UR_EV_AGAIN));
    pl_buf_puts(out, ",\"captures\":");
    put_bool(out, find_ev(ev, n, UR_EV_CAPTURE));
    pl_buf_puts(out, ",\"depth\":");
    put_small(out, a == UR_ACT_ENTER ? 1 : (int)(a & 3) + 1);
    pl_buf_puts(out, ",\"flips\":");
    put_bool(out, find_ev(ev, n, UR_EV_FLIP));
    pl_buf_puts(out, ",\"from\":");
    put_word(out, place_name(mv->from));
    pl_buf_puts(out, ",\"off\":");
    put_bool(out, find_ev(ev, n, UR_EV_BEAR_OFF));
    pl_buf_puts(out, ",\"to\":");
    put_word(out, place_name(mv->to));
    pl_buf_putc(out, '}');
    return out->oom ? -1 : 0;
}

void ur_describe(const void *before, int seat, pl_action a, const void *after, int viewer, pl_buf *out)
{
    ur_ev ev[UR_MAX_EV];
    int n = events_of(before, seat, a, after, ev);
    /* Words for a capture, a bear-off and an extra roll; none for a throw, a
     * move, a flip or a pass: the terminal prints the action itself. */
    for (int i = 0; i < n; i++) {
        const ur_ev *e = &ev[i];
        int p = e->seat;
        const char *mover = side_name[p], *victim = side_name[p ^ 1], *sp = out->len ? " " : "";
        const char *who = viewer == p ? "You" : mover;
        switch (e->type) {
        case UR_EV_CAPTURE:
            if (viewer == p)
                pl_buf_printf(out, "%sYour %s captured %s's piece, back to %s's reserve.", sp, ur_sq_name[e->sq],
                              victim, victim);
            else if (viewer == (p ^ 1))
                pl_buf_printf(out, "%s%s's %s captured your piece, back to your reserve.", sp, mover,
                              ur_sq_name[e->sq]);
            else
                pl_buf_printf(out, "%s%s's %s captured %s's piece, back to %s's reserve.", sp, mover,
                              ur_sq_name[e->sq], victim, victim);
            break;
        case UR_EV_BEAR_OFF:
            pl_buf_printf(out, "%s%s bore a piece off (%d of %d).", sp, who, e->n, e->m);
            break;
        case UR_EV_AGAIN:
            pl_buf_printf(out, "%s%s reached the rosette %s: another roll.", sp, who, ur_sq_name[e->sq]);
            break;
        default:
            break;
        }
    }
}

/* Highlights a square's brackets (the picture's cells, ur_draw). */
static void mark_square(pl_canvas *c, int sq)
{
    if (sq < 0 || sq >= UR_NSQ)
        return;
    int r = ur_sq_name[sq][0] - 'A', x = 3 + (ur_sq_name[sq][1] - '1') * 7;
    pl_canvas_put(c, 2 + r, x, PL_ST_HILITE, "[");
    pl_canvas_put(c, 2 + r, x + 6, PL_ST_HILITE, "]");
}

void ur_mark_move(const void *before, int seat, pl_action a, const void *after, int viewer, pl_canvas *c)
{
    ur_ev ev[UR_MAX_EV];
    (void)viewer;
    int n = events_of(before, seat, a, after, ev);
    const ur_ev *mv = find_ev(ev, n, UR_EV_MOVE);
    if (!mv)
        return;
    mark_square(c, mv->from);
    mark_square(c, mv->to);
}

/* ---- the structured view (pl_game.view_json, docs/web-views.md) ---- */

static const char *const kind_word[] = {"plain", "rosette", "lane-eyes", "b7-eyes", "safe", "finish", "conversion"};

/* Built by calls rather than json_pack: the server makes a view per move
 * and json_pack's format parsing was a fifth of it (docs/benchmarks.md). */
static json_t *pair_json(int a, int b)
{
    json_t *p = json_array();
    if (p && (json_array_append_new(p, json_integer(a)) || json_array_append_new(p, json_integer(b)))) {
        json_decref(p);
        return NULL;
    }
    return p;
}

int ur_view_json(const void *st, int viewer, json_t *obj)
{
    const ur_state *s = st;
    (void)viewer; /* Ur hides nothing */
    int bad = 0;
    json_t *opts = json_pack("{s:s,s:i,s:s,s:s,s:s}", "rules", s->finkel ? "finkel" : "skiryuk", "pieces",
                             (int)s->pieces, "dice", s->d4 ? "d4" : "3lots", "loop",
                             s->loop ? "opponent-first" : "own-first", "stack", s->stackany ? "any" : "top");
    bad |= json_object_set_new(obj, "options", opts);
    bad |= json_object_set_new(obj, "stage", json_string(phase_word(s)));
    bad |= json_object_set_new(obj, "turn", json_integer(s->turn));
    bad |= json_object_set_new(obj, "roll", json_integer(s->phase == UR_PH_MOVE ? s->roll : 0));
    bad |= json_object_set_new(obj, "reserve", pair_json(s->reserve[0], s->reserve[1]));
    bad |= json_object_set_new(obj, "off", pair_json(s->off[0], s->off[1]));
    json_t *squares = json_object(), *board = json_object();
    for (int sq = 0; sq < UR_NSQ; sq++) {
        const char *kind = kind_word[ur_sq_kind(s, sq)];
        json_t *same = json_object_get(squares, kind);
        if (!same) {
            same = json_array();
            bad |= json_object_set_new(squares, kind, same);
        }
        bad |= json_array_append_new(same, json_string(ur_sq_name[sq]));
        if (s->h[sq] == 0)
            continue;
        json_t *stack = json_array();
        for (int lv = 0; lv < s->h[sq]; lv++) {
            int p = (s->pc[sq] >> (2 * lv)) & 3;
            json_t *piece = json_object();
            bad |= json_object_set_new(piece, "owner", json_integer(p & 1));
            bad |= json_object_set_new(piece, "marked", json_boolean(p >> 1));
            bad |= json_array_append_new(stack, piece);
        }
        bad |= json_object_set_new(board, ur_sq_name[sq], stack);
    }
    bad |= json_object_set_new(obj, "squares", squares);
    bad |= json_object_set_new(obj, "board", board);
    return bad ? -1 : 0;
}

/* ---- the same view as text (pl_game.view_text): ur_view_json's bytes ---- */

/* [a,b] */
static void put_pair(pl_buf *b, int x, int y)
{
    pl_buf_putc(b, '[');
    pl_json_put_int(b, x);
    pl_buf_putc(b, ',');
    pl_json_put_int(b, y);
    pl_buf_putc(b, ']');
}

/* {"dice":…,"loop":…,"pieces":…,"rules":…,"stack":…}: keys sorted by hand. */
static void put_options(pl_buf *b, const ur_state *s)
{
    pl_buf_puts(b, "{\"dice\":");
    pl_json_put_string(b, s->d4 ? "d4" : "3lots");
    pl_buf_puts(b, ",\"loop\":");
    pl_json_put_string(b, s->loop ? "opponent-first" : "own-first");
    pl_buf_puts(b, ",\"pieces\":");
    pl_json_put_int(b, s->pieces);
    pl_buf_puts(b, ",\"rules\":");
    pl_json_put_string(b, s->finkel ? "finkel" : "skiryuk");
    pl_buf_puts(b, ",\"stack\":");
    pl_json_put_string(b, s->stackany ? "any" : "top");
    pl_buf_putc(b, '}');
}

/* {"b7-eyes":[…],"conversion":[…],…}: every square under the kind drawn on
 * it, kinds in their names' order (the sorted keys of ur_view_json), squares
 * in theirs (ur_sq_name's order is sorted); a kind no square has is left out.
 * The words and names are ASCII with nothing to escape: copied as they are.
 * The text depends on the rules only (s->finkel). */
static void squares_text(pl_buf *b, const ur_state *s)
{
    static const int by_name[] = {UR_B7_EYES, UR_CONVERSION, UR_FINISH, UR_LANE_EYES, UR_PLAIN, UR_ROSETTE, UR_SAFE};
    pl_buf_putc(b, '{');
    int nk = 0;
    for (size_t k = 0; k < sizeof by_name / sizeof by_name[0]; k++) {
        int n = 0;
        for (int sq = 0; sq < UR_NSQ; sq++) {
            if (ur_sq_kind(s, sq) != by_name[k])
                continue;
            if (n++ == 0) { /* the kind's first square: its key first */
                pl_buf_puts(b, nk++ ? ",\"" : "\"");
                pl_buf_puts(b, kind_word[by_name[k]]);
                pl_buf_puts(b, "\":[\"");
            } else {
                pl_buf_puts(b, ",\"");
            }
            pl_buf_puts(b, ur_sq_name[sq]);
            pl_buf_putc(b, '"');
        }
        if (n)
            pl_buf_putc(b, ']');
    }
    pl_buf_putc(b, '}');
}

/* squares_text for each rules (0 Skiryuk's, 1 Finkel's), made once: the
 * server writes a view per move, and the kinds were half of its cost. */
static char *squares_made[2];
static pthread_once_t squares_once = PTHREAD_ONCE_INIT;

static void squares_make(void)
{
    for (int f = 0; f < 2; f++) {
        ur_state s = {0};
        s.finkel = (unsigned char)f;
        pl_buf b = {0};
        squares_text(&b, &s);
        squares_made[f] = b.oom ? NULL : b.s; /* kept for the process's life */
    }
}

static void put_squares(pl_buf *b, const ur_state *s)
{
    pthread_once(&squares_once, squares_make);
    const char *t = squares_made[s->finkel != 0];
    if (t)
        pl_buf_puts(b, t);
    else
        squares_text(b, s); /* no memory for the copy once: written each time */
}

/* {"A4":[{"marked":…,"owner":…},…],…}: the squares that hold pieces, each
 * stack bottom first; a piece is one of four fixed texts. The server writes
 * this per move (test_property_view_text checks the bytes against
 * ur_view_json's). */
static void put_board(pl_buf *b, const ur_state *s)
{
    static const char *const piece[4] = {"{\"marked\":false,\"owner\":0}", "{\"marked\":false,\"owner\":1}",
                                         "{\"marked\":true,\"owner\":0}", "{\"marked\":true,\"owner\":1}"};
    pl_buf_putc(b, '{');
    int any = 0;
    for (int sq = 0; sq < UR_NSQ; sq++) {
        if (s->h[sq] == 0)
            continue;
        pl_buf_puts(b, any++ ? ",\"" : "\"");
        pl_buf_puts(b, ur_sq_name[sq]);
        pl_buf_puts(b, "\":[");
        for (int lv = 0; lv < s->h[sq]; lv++) {
            if (lv)
                pl_buf_putc(b, ',');
            pl_buf_puts(b, piece[(s->pc[sq] >> (2 * lv)) & 3]);
        }
        pl_buf_putc(b, ']');
    }
    pl_buf_putc(b, '}');
}

int ur_view_text(const void *st, int viewer, pl_jfields *f)
{
    const ur_state *s = st;
    (void)viewer; /* Ur hides nothing */
    put_options(pl_jfields_key(f, "options"), s);
    pl_json_put_string(pl_jfields_key(f, "stage"), phase_word(s));
    pl_json_put_int(pl_jfields_key(f, "turn"), s->turn);
    pl_json_put_int(pl_jfields_key(f, "roll"), s->phase == UR_PH_MOVE ? s->roll : 0);
    put_pair(pl_jfields_key(f, "reserve"), s->reserve[0], s->reserve[1]);
    put_pair(pl_jfields_key(f, "off"), s->off[0], s->off[1]);
    put_board(pl_jfields_key(f, "board"), s);
    put_squares(pl_jfields_key(f, "squares"), s);
    return f->out->oom ? -1 : 0;
}
