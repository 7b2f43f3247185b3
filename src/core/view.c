/* view.c — the structured per-seat view (pl_view_json, game.h): the
 * fields every game shares, the game's own part (pl_game.view_json), written
 * as compact JSON with sorted keys (docs/web-views.md). */
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
