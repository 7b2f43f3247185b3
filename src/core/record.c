/* record.c — JSON game records with jansson (record.h, docs/records.md). */
#include "parlour/record.h"

#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "parlour/alloc.h"
#include "parlour/registry.h"

#define REC_FORMAT "parlour-record"
#define REC_VIEW_FORMAT "parlour-record-view"
#define REC_VERSION 1

static json_t *result_json(const pl_match *m)
{
    const pl_game *g = m->game;
    if (g->phase(m->state) != PL_PHASE_OVER)
        return json_null();
    pl_outcome o;
    memset(&o, 0, sizeof o);
    g->outcome(m->state, &o);
    json_t *score = json_array();
    for (int i = 0; i < o.nseats && score; i++)
        if (json_array_append_new(score, json_integer(o.score[i])) < 0) {
            json_decref(score); /* NULL result: no memory */
            score = NULL;
        }
    char w[32];
    if (o.kind == PL_WIN_SEAT)
        snprintf(w, sizeof w, "%d", o.winner);
    else if (o.kind == PL_WIN_TEAM)
        snprintf(w, sizeof w, "team %d", o.winner);
    else
        snprintf(w, sizeof w, "draw");
    return json_pack("{s:o,s:s}", "score", score, "winner", w);
}

/* jansson allocates through pl_malloc too, so that allocation-failure tests
 * reach it. Set once, whichever thread writes or reads a record first
 * (pthread_once: threads of the arena save records at the same time). */
static pthread_once_t rec_alloc_once = PTHREAD_ONCE_INIT;

static void rec_alloc_set(void) { json_set_alloc_funcs(pl_malloc, pl_free); }

static void rec_alloc_init(void) { pthread_once(&rec_alloc_once, rec_alloc_set); }

void pl_json_setup(void) { rec_alloc_init(); }

/* Whether option `key` shows hidden cards (pl_game.secret_options). */
static int secret_option(const pl_game *g, const char *key)
{
    for (int i = 0; g->secret_options && g->secret_options[i]; i++)
        if (!strcmp(g->secret_options[i], key))
            return 1;
    return 0;
}

/* The referee's record (viewer -1) or seat `viewer`'s (no seed, no secret
 * options, every action as that seat saw it, the key "viewer"). */
static int write_record(const pl_match *m, int viewer, pl_buf *out)
{
    rec_alloc_init();
    const pl_game *g = m->game;
    if (viewer < -1 || viewer >= g->num_seats(m->state))
        return -1;
    json_t *root = json_object();
    json_t *opts = json_object();
    json_t *seats = json_array();
    json_t *acts = json_array();
    void *st = pl_malloc(g->state_size);
    int rc = -1, bad = 0; /* bad: a jansson call failed (no memory) */
    pl_buf t = {0};
    if (!root || !opts || !seats || !acts || !st)
        goto done;
    for (int i = 0; i < m->opts.n; i++)
        if (viewer < 0 || !secret_option(g, m->opts.defs[i].key))
            bad |= json_object_set_new(opts, m->opts.defs[i].key, json_string(m->opts.values[i])) < 0;
    int ns = g->num_seats(m->state);
    for (int i = 0; i < ns; i++)
        bad |= json_array_append_new(seats, m->players[i] ? json_string(m->players[i]) : json_null()) < 0;
    pl_state_copy(g, st, m->initial);
    for (int i = 0; i < m->nhist && !bad; i++) {
        pl_buf_clear(&t);
        if (viewer >= 0 && g->format_action_for)
            g->format_action_for(st, m->hist[i].seat, m->hist[i].a, viewer, &t);
        else
            g->format_action(st, m->hist[i].seat, m->hist[i].a, &t);
        json_t *seat = m->hist[i].seat == PL_CHANCE ? json_string("chance")
                                                     : json_integer(m->hist[i].seat);
        bad |= t.oom || !seat;
        bad |= json_array_append_new(acts, json_pack("{s:o,s:s}", "seat", seat, "action", pl_buf_str(&t))) < 0;
        g->apply(st, m->hist[i].seat, m->hist[i].a);
    }
    bad |= json_object_set_new(root, "format", json_string(viewer < 0 ? REC_FORMAT : REC_VIEW_FORMAT)) < 0;
    bad |= json_object_set_new(root, "version", json_integer(REC_VERSION)) < 0;
    bad |= json_object_set_new(root, "game", json_string(g->id)) < 0;
    bad |= json_object_set(root, "options", opts) < 0;
    if (viewer < 0)
        bad |= json_object_set_new(root, "seed", json_integer((json_int_t)m->seed)) < 0;
    else {
        bad |= json_object_set_new(root, "viewer", json_integer(viewer)) < 0;
        /* What the seat knew before the first action: its own hand when the
         * deal was made at the start (from the seed or a secret option). */
        pl_buf_clear(&t);
        g->view(m->initial, viewer, &t);
        bad |= t.oom || json_object_set_new(root, "start_view", json_string(pl_buf_str(&t))) < 0;
        pl_buf_clear(&t); /* and what it knows now */
        g->view(m->state, viewer, &t);
        bad |= t.oom || json_object_set_new(root, "view", json_string(pl_buf_str(&t))) < 0;
    }
    bad |= json_object_set(root, "seats", seats) < 0;
    bad |= json_object_set(root, "actions", acts) < 0;
    bad |= json_object_set_new(root, "result", result_json(m)) < 0;
    if (bad)
        goto done;
    char *s = json_dumps(root, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENSURE_ASCII);
    if (s) {
        size_t before = out->len;
        pl_buf_puts(out, s);
        pl_free(s);
        if (out->oom) { /* nothing half-written */
            pl_buf_truncate(out, before);
        } else {
            rc = 0;
        }
    }
done:
    pl_buf_free(&t);
    pl_free(st);
    json_decref(opts);
    json_decref(seats);
    json_decref(acts);
    json_decref(root);
    return rc;
}

int pl_record_write(const pl_match *m, pl_buf *out) { return write_record(m, -1, out); }

int pl_record_write_for(const pl_match *m, int viewer, pl_buf *out)
{
    return viewer < 0 ? -1 : write_record(m, viewer, out);
}

static pl_match *from_json(json_t *root, pl_buf *err)
{
    json_t *fmt = json_object_get(root, "format"), *who = json_object_get(root, "viewer");
    if (json_is_string(fmt) && !strcmp(json_string_value(fmt), REC_VIEW_FORMAT)) {
        pl_buf_puts(err, "record: this is one seat's view of a game");
        if (json_is_integer(who))
            pl_buf_printf(err, " (seat %lld)", (long long)json_integer_value(who));
        pl_buf_puts(err, ", without the hidden cards and the seed: it cannot be replayed; load the "
                         "full record (format '" REC_FORMAT "')");
        return NULL;
    }
    const char *format = NULL, *game = NULL;
    json_int_t version = 0, seed = 0;
    json_t *opts = NULL, *seats = NULL, *acts = NULL, *result = NULL;
    json_error_t je;
    if (json_unpack_ex(root, &je, JSON_STRICT, "{s:s,s:I,s:s,s:o,s:I,s:o,s:o,s?o}", "format",
                       &format, "version", &version, "game", &game, "options", &opts, "seed",
                       &seed, "seats", &seats, "actions", &acts, "result", &result) < 0) {
        pl_buf_printf(err, "record: %s (expected keys format, version, game, options, seed, "
                           "seats, actions, result)", je.text);
        return NULL;
    }
    if (strcmp(format, REC_FORMAT) != 0) {
        pl_buf_printf(err, "record: format is '%s', expected '" REC_FORMAT "'", format);
        return NULL;
    }
    if (version != REC_VERSION) {
        pl_buf_printf(err, "record: format version %lld is not supported (this program reads "
                           "version %d)", (long long)version, REC_VERSION);
        return NULL;
    }
    const pl_game *g = pl_game_find(game);
    if (!g) {
        pl_buf_printf(err, "record: unknown game '%s'; known: ", game);
        pl_games_list(err);
        return NULL;
    }
    if (!json_is_object(opts) || !json_is_array(seats) || !json_is_array(acts)) {
        pl_buf_puts(err, "record: options must be an object, seats and actions arrays");
        return NULL;
    }
    if (seed < 0) {
        pl_buf_puts(err, "record: seed must be 0 or more");
        return NULL;
    }
    /* Options as "key=value" words, then the seed. */
    size_t nopt = json_object_size(opts);
    char **argv = pl_calloc(nopt + 1, sizeof *argv);
    pl_match *m = NULL;
    int argc = 0;
    if (!argv) {
        pl_buf_puts(err, "out of memory");
        return NULL;
    }
    const char *key;
    json_t *val;
    pl_buf w = {0};
    json_object_foreach(opts, key, val) {
        if (!json_is_string(val)) {
            pl_buf_printf(err, "record: option %s must be a string", key);
            goto fail;
        }
        pl_buf_clear(&w);
        pl_buf_printf(&w, "%s=%s", key, json_string_value(val));
        if (w.oom || !(argv[argc] = pl_strdup(pl_buf_str(&w)))) {
            pl_buf_puts(err, "out of memory");
            goto fail;
        }
        argc++;
    }
    pl_buf_clear(&w);
    pl_buf_printf(&w, "seed=%lld", (long long)seed);
    if (w.oom || !(argv[argc] = pl_strdup(pl_buf_str(&w)))) {
        pl_buf_puts(err, "out of memory");
        goto fail;
    }
    argc++;
    pl_buf e = {0};
    m = pl_match_new(g, argc, argv, &e);
    if (!m) {
        pl_buf_printf(err, "record: %s", pl_buf_str(&e));
        pl_buf_free(&e);
        goto fail;
    }
    pl_buf_free(&e);
    size_t i;
    json_t *p;
    json_array_foreach(seats, i, p) {
        if (json_is_string(p) && pl_match_set_player(m, (int)i, json_string_value(p)) < 0) {
            pl_buf_printf(err, "record: bad seat %zu", i);
            goto fail_m;
        }
    }
    json_t *a;
    json_array_foreach(acts, i, a) {
        json_t *seatj = NULL;
        const char *text = NULL;
        if (json_unpack_ex(a, &je, JSON_STRICT, "{s:o,s:s}", "seat", &seatj, "action", &text) < 0) {
            pl_buf_printf(err, "record: action %zu: %s (expected {\"seat\":N or \"chance\", "
                               "\"action\":TEXT})", i + 1, je.text);
            goto fail_m;
        }
        int seat;
        if (json_is_string(seatj) && strcmp(json_string_value(seatj), "chance") == 0)
            seat = PL_CHANCE;
        else if (json_is_integer(seatj) && json_integer_value(seatj) >= 0 &&
                 json_integer_value(seatj) < PL_MAX_SEATS)
            seat = (int)json_integer_value(seatj);
        else {
            pl_buf_printf(err, "record: action %zu: seat must be a seat number or \"chance\"", i + 1);
            goto fail_m;
        }
        pl_buf e2 = {0};
        int rc;
        if (seat == PL_CHANCE && g->phase(m->state) != PL_PHASE_CHANCE) {
            pl_buf_puts(&e2, "not a chance phase");
            rc = -1;
        } else {
            rc = pl_match_play_text(m, seat, text, &e2);
        }
        if (rc < 0) {
            if (seat == PL_CHANCE)
                pl_buf_printf(err, "record: action %zu (chance %s): %s", i + 1, text,
                              pl_buf_str(&e2));
            else
                pl_buf_printf(err, "record: action %zu (seat %d %s): %s", i + 1, seat, text,
                              pl_buf_str(&e2));
            pl_buf_free(&e2);
            goto fail_m;
        }
        pl_buf_free(&e2);
    }
    if (result && !json_is_null(result)) {
        json_t *mine = result_json(m);
        int same = json_equal(mine, result);
        json_decref(mine);
        if (!mine) {
            pl_buf_puts(err, "out of memory");
            goto fail_m;
        }
        if (!same) {
            pl_buf_puts(err, "record: the result does not match the replayed game");
            goto fail_m;
        }
    }
    for (int k = 0; k < argc; k++)
        pl_free(argv[k]);
    pl_free(argv);
    pl_buf_free(&w);
    return m;
fail_m:
    pl_match_free(m);
fail:
    for (int k = 0; k < argc; k++)
        pl_free(argv[k]);
    pl_free(argv);
    pl_buf_free(&w);
    return NULL;
}

pl_match *pl_record_read(const char *json, pl_buf *err)
{
    rec_alloc_init();
    json_error_t je;
    json_t *root = json_loads(json, JSON_REJECT_DUPLICATES, &je);
    if (!root) {
        pl_buf_printf(err, "record: bad JSON at line %d column %d: %s", je.line, je.column, je.text);
        return NULL;
    }
    pl_match *m = from_json(root, err);
    json_decref(root);
    return m;
}

pl_match *pl_record_load_file(const char *path, pl_buf *err)
{
    rec_alloc_init();
    json_error_t je;
    json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
    if (!root) {
        pl_buf_printf(err, "%s: line %d column %d: %s", path, je.line, je.column, je.text);
        return NULL;
    }
    pl_match *m = from_json(root, err);
    json_decref(root);
    return m;
}

int pl_record_save_file(const pl_match *m, const char *path, pl_buf *err)
{
    pl_buf b = {0};
    if (pl_record_write(m, &b) < 0) {
        pl_buf_puts(err, "out of memory");
        pl_buf_free(&b);
        return -1;
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        pl_buf_printf(err, "cannot write %s", path);
        pl_buf_free(&b);
        return -1;
    }
    int ok = fputs(pl_buf_str(&b), f) >= 0 && fputc('\n', f) != EOF;
    ok = (fclose(f) == 0) && ok;
    pl_buf_free(&b);
    if (!ok) {
        pl_buf_printf(err, "error writing %s", path);
        return -1;
    }
    return 0;
}
