/* helpers.c — see helpers.h. */
#include "helpers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parlour/alloc.h"
#include "parlour/record.h"

pl_match *th_new(const char *game, const char *opts)
{
    const pl_game *g = pl_game_find(game);
    assert_non_null(g);
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", opts ? opts : "");
    char *argv[32];
    int argc = 0;
    for (char *w = strtok(copy, " "); w && argc < 32; w = strtok(NULL, " "))
        argv[argc++] = w;
    pl_buf err = {0};
    pl_match *m = pl_match_new(g, argc, argv, &err);
    if (!m)
        fail_msg("new %s %s: %s", game, opts, pl_buf_str(&err));
    pl_buf_free(&err);
    return m;
}

int th_try(pl_match *m, const char *text, pl_buf *err)
{
    return pl_match_play_text(m, -1, text, err);
}

void th_play(pl_match *m, const char *text)
{
    pl_buf err = {0};
    if (th_try(m, text, &err) < 0)
        fail_msg("play '%s': %s", text, pl_buf_str(&err));
    pl_buf_free(&err);
}

void th_script(pl_match *m, const char *script)
{
    char copy[4096];
    snprintf(copy, sizeof copy, "%s", script);
    char *save = NULL;
    for (char *w = strtok_r(copy, ";", &save); w; w = strtok_r(NULL, ";", &save)) {
        while (*w == ' ')
            w++;
        char *e = w + strlen(w);
        while (e > w && e[-1] == ' ')
            *--e = '\0';
        if (*w)
            th_play(m, w);
    }
}

const char *th_legal(pl_match *m)
{
    static char out[8192];
    pl_buf b = {0};
    pl_list_legal(m->game, m->state, pl_sole_actor(m->game, m->state), 10000, &b);
    snprintf(out, sizeof out, "%s", pl_buf_str(&b));
    pl_buf_free(&b);
    return out;
}

void th_position(pl_match *m, const char *text)
{
    pl_buf err = {0};
    if (m->game->from_text(m->state, text, &err) < 0)
        fail_msg("position '%s': %s", text, pl_buf_str(&err));
    pl_buf_free(&err);
}

const char *th_pos(pl_match *m)
{
    static char out[16384];
    pl_buf b = {0};
    m->game->to_text(m->state, &b);
    snprintf(out, sizeof out, "%s", pl_buf_str(&b));
    pl_buf_free(&b);
    return out;
}

void th_other_seed(const char *opts, char *out, size_t n)
{
    const char *p = strstr(opts, "seed=");
    assert_non_null(p);
    char *end;
    unsigned long long seed = strtoull(p + 5, &end, 10);
    snprintf(out, n, "%.*sseed=%llu%s", (int)(p - opts), opts, seed + 1000003ull, end);
}

void th_same_record_for(const pl_match *a, const pl_match *b, int v, const char *what)
{
    pl_buf ra = {0}, rb = {0};
    assert_int_equal(pl_record_write_for(a, v, &ra), 0);
    assert_int_equal(pl_record_write_for(b, v, &rb), 0);
    if (strcmp(pl_buf_str(&ra), pl_buf_str(&rb)))
        fail_msg("%s: seat %d's record tells the worlds apart:\n%s\n---\n%s", what, v, pl_buf_str(&ra),
                 pl_buf_str(&rb));
    pl_buf_free(&ra);
    pl_buf_free(&rb);
}

void th_options_refused(const char *game, const char *opts, const char *want)
{
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", opts);
    char *argv[16];
    int argc = 0;
    for (char *w = strtok(copy, " "); w && argc < 16; w = strtok(NULL, " "))
        argv[argc++] = w;
    pl_buf err = {0};
    pl_match *m = pl_match_new(pl_game_find(game), argc, argv, &err);
    if (m)
        fail_msg("options '%s' accepted", opts);
    if (!strstr(pl_buf_str(&err), want))
        fail_msg("options '%s': '%s' lacks '%s'", opts, pl_buf_str(&err), want);
    pl_buf_free(&err);
}

ai_arena_result th_arena(const char *game, char **opts, int nopts, const char *a, const char *b,
                         long games, int threads, uint64_t seed)
{
    ai_arena_opts o;
    memset(&o, 0, sizeof o);
    o.g = pl_game_find(game);
    assert_non_null(o.g);
    o.opts = opts;
    o.nopts = nopts;
    o.nplayers = 2;
    o.players[0] = a;
    o.players[1] = b;
    o.games = games;
    o.seed = seed;
    o.threads = threads;
    ai_arena_result r;
    pl_buf e = {0};
    if (ai_arena_run(&o, &r, &e))
        fail_msg("arena %s %s-%s: %s", game, a, b, pl_buf_str(&e));
    pl_buf_free(&e);
    return r;
}

bool th_has_legal(pl_match *m, int seat, const char *text)
{
    pl_action a, *acts = pl_malloc(sizeof *acts * PL_MAX_ACTIONS);
    assert_non_null(acts);
    pl_buf err = {0};
    if (m->game->parse_action(m->state, seat, text, &a, &err) != 0)
        fail_msg("'%s' does not read: %s", text, pl_buf_str(&err));
    pl_buf_free(&err);
    int n = pl_legal_all(m->game, m->state, seat, acts);
    bool found = false;
    for (int i = 0; i < n && !found; i++)
        found = acts[i] == a;
    pl_free(acts);
    return found;
}

bool th_told_both(const pl_game *g, int seat, pl_action a, int v, const void *before_a, const void *after_a,
                  const void *before_b, const void *after_b, char *told_a, char *told_b, size_t cap)
{
    pl_buf ta = {0}, tb = {0};
    g->describe(before_a, seat, a, after_a, v, &ta);
    g->describe(before_b, seat, a, after_b, v, &tb);
    size_t la = strlen(told_a), lb = strlen(told_b);
    snprintf(told_a + la, cap - la, "\n%s", pl_buf_str(&ta));
    snprintf(told_b + lb, cap - lb, "\n%s", pl_buf_str(&tb));
    bool told = ta.len > 0;
    pl_buf_free(&ta);
    pl_buf_free(&tb);
    return told;
}

const char *th_pick(pl_rng *r, const char *const *v, int n)
{
    return v[pl_rng_below(r, (uint32_t)n)];
}

void th_tamcuc_options(pl_rng *r, char *out, size_t cap, uint64_t seed)
{
    int np = 2 + (int)pl_rng_below(r, 3);
    int n = snprintf(out, cap, "players=%d seed=%llu", np, (unsigned long long)seed);
#define ADD(...) n += snprintf(out + n, cap - (size_t)n, __VA_ARGS__)
    static const char *const soldier[] = {"seize", "autowin", "none"};
    const char *ss = th_pick(r, soldier, 3);
    ADD(" soldier_special=%s", ss);
    if (np == 3) {
        static const char *const d[] = {"seed_27", "alt_27", "deck_30"};
        const char *dk = th_pick(r, d, 3);
        ADD(" three_p_deck=%s", dk);
        if (!strcmp(dk, "deck_30") && pl_rng_below(r, 2))
            ADD(" thirty_score=thirds");
    }
    if (np == 2) {
        static const char *const o[] = {"initial", "current", "off"};
        ADD(" two_p_open_hands=%s", th_pick(r, o, 3));
        if (pl_rng_below(r, 2))
            ADD(" two_p_score=half");
    }
    if (pl_rng_below(r, 4) == 0)
        ADD(" dealer=%d", (int)pl_rng_below(r, (uint32_t)np));
    else if (pl_rng_below(r, 2))
        ADD(" first_dealer=random");
    if (pl_rng_below(r, 4) == 0) {
        static const char *const nd[] = {"rotate_ccw", "last_trick_winner", "recount"};
        ADD(" session_end=deals:%d next_dealer=%s", 2 + (int)pl_rng_below(r, 2), th_pick(r, nd, 3));
    }
    if (pl_rng_below(r, 4) == 0)
        ADD(" night_exchange=%d", 1 + (int)pl_rng_below(r, 3));
    if (strcmp(ss, "none") && pl_rng_below(r, 3) == 0)
        ADD(" soldier_declare_mandatory=on");
    if (!strcmp(ss, "seize") && np != 3 && pl_rng_below(r, 2))
        ADD(" four_next_lead=trick_winner");
    if (!strcmp(ss, "seize") && pl_rng_below(r, 3) == 0)
        ADD(" seize_unlocks_first_trick=off");
    if (!strcmp(ss, "autowin") && pl_rng_below(r, 2))
        ADD(" autowin_ends_deal=off");
    if (pl_rng_below(r, 4) == 0)
        ADD(" big_soldier_leads=off");
    static const char *const ban[] = {"auto", "none", "g_a", "g_a_e", "g_a_e_bs"};
    ADD(" first_trick_ban=%s", th_pick(r, ban, 5));
    if (pl_rng_below(r, 3) == 0)
        ADD(" no_black_general_last=on");
    if (pl_rng_below(r, 4) == 0)
        ADD(" ket_bonus=off");
    if (pl_rng_below(r, 4) == 0)
        ADD(" overtake=off");
    else {
        if (pl_rng_below(r, 2))
            ADD(" overtake_payee=all_others");
        if (pl_rng_below(r, 2))
            ADD(" overtake_cnh=on");
    }
    if (pl_rng_below(r, 5) == 0)
        ADD(" discard_revealed_public=off");
#undef ADD
}

void th_ur_options(pl_rng *r, char *out, size_t n, uint64_t seed)
{
    static const char *const dice[] = {"3lots", "d4"};
    static const char *const start[] = {"random", "light", "dark"};
    static const char *const loop[] = {"own-first", "opponent-first"};
    static const char *const stack[] = {"top", "any"};
    int pieces = 1 + (int)pl_rng_below(r, 7);
    if (pl_rng_below(r, 10) == 0)
        snprintf(out, n, "rules=finkel pieces=%d seed=%llu", pieces, (unsigned long long)seed);
    else
        snprintf(out, n, "pieces=%d dice=%s start=%s loop=%s stack=%s seed=%llu", pieces,
                 dice[pl_rng_below(r, 2)], start[pl_rng_below(r, 3)], loop[pl_rng_below(r, 2)],
                 stack[pl_rng_below(r, 2)], (unsigned long long)seed);
}

void th_random_games(const char *game, int per_variant, int stride, int first, pl_rng *rng, th_decide_fn decide,
                     void *ctx)
{
    pl_buf err = {0};
    const pl_game *g = pl_game_find(game);
    assert_non_null(g);
    for (int v = 0; g->variants && g->variants[v]; v++)
        for (int i = 0; i < per_variant; i++) {
            char opts[256];
            snprintf(opts, sizeof opts, "%s seed=%d", g->variants[v], stride * v + i + first);
            pl_match *m = th_new(game, opts);
            for (long d = 0; g->phase(m->state) != PL_PHASE_OVER;) {
                if (g->phase(m->state) == PL_PHASE_CHANCE) {
                    assert_int_equal(pl_match_random(m, NULL, &err), 0);
                    continue;
                }
                int seats[PL_MAX_SEATS];
                int seat = seats[pl_rng_below(rng, (uint32_t)g->actors(m->state, seats))];
                pl_action a = decide(ctx, g, m->state, seat, d++, opts, rng);
                assert_int_equal(pl_match_play(m, seat, a, &err), 0);
            }
            pl_match_free(m);
        }
    pl_buf_free(&err);
}
