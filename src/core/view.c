/* view.c — the structured per-seat view (pl_view_json, game.h): the
 * fields every game shares, the game's own part, written as compact JSON
 * with sorted keys (docs/web-views.md). Two ways to the same bytes: a game
 * with pl_game.view_text writes its part as text into a pl_jfields
 * (jsonout.h), no jansson on the way (the server's path, a view per seat
 * per move); else a jansson tree filled by pl_game.view_json, written by
 * pl_json_dump. The same two ways for an action's events (events_text or
 * events) and a legal action's fields (action_fields_text or
 * action_fields). */
#include <jansson.h>

#include "parlour/alloc.h"
#include "parlour/game.h"
#include "parlour/jsonout.h"
#include "parlour/record.h"

static const char *const phase_word[] = {"chance", "move", "over"};

/* The outcome object of a game that is over, or json_null(); NULL when
 * memory runs out. */
static json_t *outcome_json(const pl_game *g, const void *st)
{
    if (g->phase(st) != PL_PHASE_OVER)
        return json_null();
    pl_outcome o;
    memset(&o, 0, sizeof o);
    g->outcome(st, &o);
    json_t *score = json_array();
    int bad = 0;
    for (int i = 0; i < o.nseats && i < PL_MAX_SEATS; i++)
        bad |= json_array_append_new(score, json_integer(o.score[i]));
    const char *kind = o.kind == PL_WIN_SEAT ? "seat" : o.kind == PL_WIN_TEAM ? "team" : "draw";
    json_t *r = json_object();
    bad |= json_object_set_new(r, "kind", json_string(kind));
    bad |= json_object_set_new(r, "winner", o.kind == PL_WIN_SEAT || o.kind == PL_WIN_TEAM
                                                ? json_integer(o.winner) : json_null());
    bad |= json_object_set_new(r, "score", score);
    if (bad) {
        json_decref(r);
        return NULL;
    }
    return r;
}

/* Appends the outcome as outcome_json's object writes: null until the game
 * is over, then {"kind":...,"score":[...],"winner":...} (keys sorted). */
static void outcome_text(const pl_game *g, const void *st, pl_buf *out)
{
    if (g->phase(st) != PL_PHASE_OVER) {
        pl_buf_puts(out, "null");
        return;
    }
    pl_outcome o;
    memset(&o, 0, sizeof o);
    g->outcome(st, &o);
    const char *kind = o.kind == PL_WIN_SEAT ? "seat" : o.kind == PL_WIN_TEAM ? "team" : "draw";
    pl_buf_puts(out, "{\"kind\":");
    pl_json_put_string(out, kind);
    pl_buf_puts(out, ",\"score\":[");
    for (int i = 0; i < o.nseats && i < PL_MAX_SEATS; i++) {
        if (i)
            pl_buf_putc(out, ',');
        pl_json_put_int(out, o.score[i]);
    }
    pl_buf_puts(out, "],\"winner\":");
    if (o.kind == PL_WIN_SEAT || o.kind == PL_WIN_TEAM)
        pl_json_put_int(out, o.winner);
    else
        pl_buf_puts(out, "null");
    pl_buf_putc(out, '}');
}

/* Appends the integers `v[0..n)` as a JSON array. */
static void int_array_text(pl_buf *out, const int *v, int n)
{
    pl_buf_putc(out, '[');
    for (int i = 0; i < n; i++) {
        if (i)
            pl_buf_putc(out, ',');
        pl_json_put_int(out, v[i]);
    }
    pl_buf_putc(out, ']');
}

/* pl_view_json for a game with view_text: the common fields as text, the
 * game's, then the sorted object; the same bytes as the jansson path
 * (tests/test_property_view_text.c). */
static int view_by_text(const pl_game *g, const void *st, int viewer, int n, pl_buf *out, pl_buf *err)
{
    pl_jfields f;
    pl_jfields_start(&f, out);
    pl_phase ph = g->phase(st);
    int seats[PL_MAX_SEATS], na = 0;
    pl_json_put_string(pl_jfields_key(&f, "game"), g->id); /* ASCII: cannot fail but for memory */
    pl_json_put_int(pl_jfields_key(&f, "viewer"), viewer);
    pl_json_put_string(pl_jfields_key(&f, "phase"), phase_word[ph]);
    pl_json_put_int(pl_jfields_key(&f, "seats"), n);
    for (int i = 0; i < n; i++)
        seats[i] = g->team_of(st, i);
    int_array_text(pl_jfields_key(&f, "teams"), seats, n);
    if (ph == PL_PHASE_MOVE) {
        na = g->actors(st, seats);
        assert(na >= 1 && na <= PL_MAX_SEATS); /* phase MOVE: someone acts (game.h) */
    }
    int_array_text(pl_jfields_key(&f, "actors"), seats, na);
    outcome_text(g, st, pl_jfields_key(&f, "outcome"));
    if (g->view_text(st, viewer, &f) < 0) {
        pl_buf_truncate(out, f.base);
        pl_buf_puts(err, out->oom ? "out of memory" : "the game's view has a string that is not UTF-8");
        return -1;
    }
    return pl_jfields_finish(&f, err);
}

int pl_view_json(const pl_game *g, const void *st, int viewer, pl_buf *out, pl_buf *err)
{
    if (!g->view_json) {
        pl_buf_printf(err, "game %s has no JSON view", g->id);
        return -1;
    }
    int n = g->num_seats(st);
    if (viewer < -1 || viewer >= n) {
        pl_buf_printf(err, "no seat %d: seats are 0..%d, or -1 for a spectator", viewer, n - 1);
        return -1;
    }
    if (g->view_text)
        return view_by_text(g, st, viewer, n, out, err);
    pl_json_setup();
    int bad = 0;
    json_t *root = json_object();
    pl_phase ph = g->phase(st);
    bad |= json_object_set_new(root, "game", json_string(g->id));
    bad |= json_object_set_new(root, "viewer", json_integer(viewer));
    bad |= json_object_set_new(root, "phase", json_string(phase_word[ph]));
    bad |= json_object_set_new(root, "seats", json_integer(n));
    json_t *teams = json_array();
    for (int i = 0; i < n; i++)
        bad |= json_array_append_new(teams, json_integer(g->team_of(st, i)));
    bad |= json_object_set_new(root, "teams", teams);
    json_t *actors = json_array();
    if (ph == PL_PHASE_MOVE) {
        int seats[PL_MAX_SEATS], na = g->actors(st, seats);
        assert(na >= 1 && na <= PL_MAX_SEATS); /* phase MOVE: someone acts (game.h) */
        for (int i = 0; i < na; i++)
            bad |= json_array_append_new(actors, json_integer(seats[i]));
    }
    bad |= json_object_set_new(root, "actors", actors);
    bad |= json_object_set_new(root, "outcome", outcome_json(g, st));
    if (!bad && root)
        bad |= g->view_json(st, viewer, root);
    /* pl_json_dump: json_dumps's text (compact, sorted keys) at a fraction
     * of its cost; it leaves nothing half-written. */
    int rc = bad || !root ? -1 : pl_json_dump(root, out);
    json_decref(root);
    if (rc < 0) {
        pl_buf_puts(err, "out of memory");
        return -1;
    }
    return 0;
}

/* Dumps `j` (an array or object the game filled; `bad` when it failed)
 * into `out` as pl_json_dump writes it, or says why not. */
static int dump_game_json(json_t *j, int bad, pl_buf *out, pl_buf *err)
{
    size_t mark = out->len;
    int rc = bad || !j ? -1 : pl_json_dump(j, out);
    json_decref(j);
    if (rc < 0) {
        pl_buf_truncate(out, mark);
        pl_buf_puts(err, out->oom || !j ? "out of memory" : "the game's events have a string that is not UTF-8");
        return -1;
    }
    return 0;
}

/* After a game's events_text or action_fields_text (`rc` its answer)
 * appended to `out` from `mark`: 0, or -1 with `out` cut back to `mark`
 * and the reason in `err`, as dump_game_json. */
static int text_done(int rc, size_t mark, pl_buf *out, pl_buf *err)
{
    if (rc < 0 || out->oom) {
        pl_buf_truncate(out, mark);
        pl_buf_puts(err, out->oom ? "out of memory" : "the game's events have a string that is not UTF-8");
        return -1;
    }
    return 0;
}

int pl_events_json(const pl_game *g, const void *before, int seat, pl_action a, const void *after, int viewer,
                   pl_buf *out, pl_buf *err)
{
    if (!g->events) {
        pl_buf_puts(out, "[]");
        return 0;
    }
    if (g->events_text) {
        size_t mark = out->len;
        return text_done(g->events_text(before, seat, a, after, viewer, out), mark, out, err);
    }
    pl_json_setup();
    json_t *arr = json_array();
    int bad = !arr || g->events(before, seat, a, after, viewer, arr) < 0;
    return dump_game_json(arr, bad, out, err);
}

int pl_action_fields_json(const pl_game *g, const void *st, int seat, pl_action a, pl_buf *out, pl_buf *err)
{
    if (!g->action_fields) {
        pl_buf_puts(out, "{}");
        return 0;
    }
    if (g->action_fields_text) {
        size_t mark = out->len;
        return text_done(g->action_fields_text(st, seat, a, out), mark, out, err);
    }
    pl_json_setup();
    json_t *obj = json_object();
    int bad = !obj || g->action_fields(st, seat, a, obj) < 0;
    return dump_game_json(obj, bad, out, err);
}

int pl_refusal_json(const pl_game *g, const void *st, int seat, pl_action a, pl_buf *out, pl_buf *err)
{
    if (!g->refusal) {
        pl_buf_puts(err, "the game has no words for refusals");
        return -1;
    }
    pl_json_setup();
    json_t *obj = json_object();
    if (obj && g->refusal(st, seat, a, obj) < 0) {
        json_decref(obj);
        pl_buf_puts(err, "the game has no words for this refusal");
        return -1;
    }
    return dump_game_json(obj, !obj, out, err);
}
