/* rating.c — rating pools and the updates of one finished game (rating.h),
 * over Glicko-2 (glicko2.c). The rules and their reasons: docs/ratings.md.
 * Work: an update is at most PL_MAX_SEATS Glicko-2 updates of at most
 * PL_MAX_SEATS - 1 games each. */
#include "parlour/rating.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define RT_SCALE 173.7178 /* the Glicko-2 scale's unit in Glicko points (glicko2.c) */

/* ---- pools ---- */

/* The declared default of option `key` of `g`, or NULL. */
static const char *rt_default(const pl_game *g, const char *key)
{
    for (const pl_option_def *d = g->options; d && d->key; d++)
        if (!strcmp(d->key, key))
            return d->def;
    return NULL;
}

/* True when option `key` of `g` holds its default in `o` (an option the
 * game does not declare counts as default). */
static bool rt_is_default(const pl_game *g, const pl_opts *o, const char *key)
{
    const char *def = rt_default(g, key), *v = pl_opts_get(o, key);
    return !def || !v || !strcmp(def, v);
}

/* True when `key` is one of the NULL-terminated `keys`. */
static bool rt_listed(const char *const *keys, const char *key)
{
    for (; *keys; keys++)
        if (!strcmp(*keys, key))
            return true;
    return false;
}

/* True when every option of `g` outside `free` holds its default. */
static bool rt_only_free(const pl_game *g, const pl_opts *o, const char *const *free)
{
    for (const pl_option_def *d = g->options; d && d->key; d++)
        if (!rt_listed(free, d->key) && !rt_is_default(g, o, d->key))
            return false;
    return true;
}

static pl_rating_pool rt_unrated(const char *reason)
{
    pl_rating_pool p = {false, "unrated", reason};
    return p;
}

static pl_rating_pool rt_rated(const char *key)
{
    pl_rating_pool p = {true, "", NULL};
    snprintf(p.key, sizeof p.key, "%s", key);
    return p;
}

/* Options a pool lets vary: who starts or deals, the reading's timing and
 * who performs a karuta send or placing. Both sides play under them alike;
 * they change neither the rules nor the game's length, so a computer
 * level's measured rating holds under any of them (docs/ratings.md). */
static const char *const rt_free_ur[] = {"rules", "start", NULL};
static const char *const rt_free_cbw[] = {"players", "first", NULL};
static const char *const rt_free_tc[] = {"players", "first_dealer", "dealer", NULL};
static const char *const rt_free_kar[] = {"variant", "tie_ms",  "upper_ms", "lower_ms", "tempo", "yoin_ms",
                                          "pause_ms", "memo_s", "players",  "send",     "place", NULL};

pl_rating_pool pl_rating_pool_of(const pl_game *g, const pl_opts *o)
{
    if (!g || !g->id || !o)
        return rt_unrated("game");
    /* a deal set by an option is known to whoever set it */
    if (rt_default(g, "deal") && !rt_is_default(g, o, "deal"))
        return rt_unrated("deal");
    if (!strcmp(g->id, "ur")) {
        if (!rt_only_free(g, o, rt_free_ur))
            return rt_unrated("variant");
        return rt_rated(pl_opts_choice(o, "rules") == 1 ? "ur/finkel" : "ur/skiryuk");
    }
    if (!strcmp(g->id, "cbw")) {
        const char *players = pl_opts_get(o, "players");
        if (!players || !strcmp(players, "2"))
            return rt_unrated("form"); /* one person per team: not one of the pools */
        if (!rt_only_free(g, o, rt_free_cbw))
            return rt_unrated("variant");
        return rt_rated(!strcmp(players, "6") ? "cbw/3v3" : "cbw/2v2");
    }
    if (!strcmp(g->id, "tamcuc")) {
        const char *players = pl_opts_get(o, "players");
        if (!players || !rt_only_free(g, o, rt_free_tc))
            return rt_unrated("variant");
        char key[PL_RATING_KEY_MAX];
        snprintf(key, sizeof key, "tamcuc/%s", players);
        return rt_rated(key);
    }
    if (!strcmp(g->id, "karuta")) {
        const char *variant = pl_opts_get(o, "variant");
        if (!variant || strcmp(variant, "kyogi"))
            return rt_unrated("form"); /* uta-karuta and chirashi: party forms (docs/ratings.md) */
        long players = pl_opts_int(o, "players");
        if ((players != 0 && players != 2) || !rt_only_free(g, o, rt_free_kar))
            return rt_unrated("variant");
        return rt_rated("karuta/kyogi");
    }
    return rt_unrated("game");
}

/* ---- the result of a finished game ---- */

int pl_rating_result(const pl_game *g, const void *st, pl_rating_seat *seats, int n, pl_buf *err)
{
    if (g->phase(st) != PL_PHASE_OVER) {
        pl_buf_puts(err, "rating: the game is not over");
        return -1;
    }
    int ns = g->num_seats(st);
    if (n != ns || n < 2 || n > PL_MAX_SEATS) {
        pl_buf_printf(err, "rating: the game has %d seats, not %d", ns, n);
        return -1;
    }
    pl_outcome out;
    memset(&out, 0, sizeof out);
    g->outcome(st, &out);
    int team[PL_MAX_SEATS], side[PL_MAX_SEATS], nsides = 0;
    long best[PL_MAX_SEATS]; /* the best score of each side */
    int of[PL_MAX_SEATS];    /* the side of each seat */
    for (int s = 0; s < n; s++) {
        team[s] = g->team_of(st, s);
        int k = 0;
        while (k < nsides && side[k] != team[s])
            k++;
        if (k == nsides) {
            side[nsides] = team[s];
            best[nsides++] = out.score[s];
        } else if (out.score[s] > best[k]) {
            best[k] = out.score[s];
        }
        of[s] = k;
    }
    int wside = -1; /* the side the game names the winner */
    for (int k = 0; k < nsides; k++)
        if ((out.kind == PL_WIN_TEAM && side[k] == out.winner) ||
            (out.kind == PL_WIN_SEAT && out.winner >= 0 && out.winner < n && side[k] == team[out.winner]))
            wside = k;
    int rank[PL_MAX_SEATS];
    for (int k = 0; k < nsides; k++) {
        if (nsides == 2) {
            rank[k] = wside < 0 || wside == k ? 0 : 1;
            continue;
        }
        if (k == wside) {
            rank[k] = 0;
            continue;
        }
        rank[k] = wside >= 0 ? 1 : 0;
        for (int j = 0; j < nsides; j++)
            if (j != wside && j != k && best[j] > best[k])
                rank[k]++;
    }
    for (int s = 0; s < n; s++) {
        seats[s].team = team[s];
        seats[s].rank = rank[of[s]];
    }
    return 0;
}

int pl_rating_abandon(pl_rating_seat *seats, int n, int leaver, pl_buf *err)
{
    if (leaver < 0 || leaver >= n) {
        pl_buf_printf(err, "rating: no seat %d among %d", leaver, n);
        return -1;
    }
    seats[leaver].left = true;
    return 0;
}

/* ---- the update ---- */

typedef struct rt_side {
    int team;
    int rank;       /* of the seats that did not leave (else of its first seat) */
    bool ranked;    /* rank comes from a seat that did not leave */
    bool forfeits;  /* a seat of it left: every other side wins against it */
    double rating;  /* the composite opponent */
    double rd;
    int members;
} rt_side;

static bool rt_valid(pl_glicko2 p)
{
    return isfinite(p.rating) && isfinite(p.deviation) && isfinite(p.volatility) && p.deviation > 0 &&
           p.volatility > 0;
}

static double rt_clamp(double x, double lo, double hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

int pl_rating_update(const pl_rating_seat *seats, int n, pl_glicko2 *out, pl_buf *err)
{
    if (n < 2 || n > PL_MAX_SEATS) {
        pl_buf_printf(err, "rating: %d seats (2 to %d)", n, PL_MAX_SEATS);
        return -1;
    }
    rt_side side[PL_MAX_SEATS];
    int nsides = 0, of[PL_MAX_SEATS];
    for (int i = 0; i < n; i++) {
        if (!rt_valid(seats[i].player)) {
            pl_buf_printf(err, "rating: seat %d's rating is not finite with a positive deviation and volatility", i);
            return -1;
        }
        int k = 0;
        while (k < nsides && side[k].team != seats[i].team)
            k++;
        if (k == nsides) {
            side[nsides++] = (rt_side){seats[i].team, seats[i].rank, false, false, 0, 0, 0};
        }
        rt_side *t = &side[k];
        if (seats[i].left)
            t->forfeits = true;
        if (!seats[i].left) {
            if (t->ranked && t->rank != seats[i].rank) {
                pl_buf_printf(err, "rating: seats of team %d have different ranks", t->team);
                return -1;
            }
            t->rank = seats[i].rank;
            t->ranked = true;
        }
        t->rating += seats[i].player.rating;
        t->rd += seats[i].player.deviation * seats[i].player.deviation;
        t->members++;
        of[i] = k;
    }
    if (nsides < 2) {
        pl_buf_puts(err, "rating: every seat is on one side");
        return -1;
    }
    for (int k = 0; k < nsides; k++) {
        side[k].rating /= side[k].members;
        side[k].rd = sqrt(side[k].rd / side[k].members);
    }
    pl_glicko2 res[PL_MAX_SEATS];
    for (int i = 0; i < n; i++) {
        pl_glicko2_game games[PL_MAX_SEATS];
        int ng = 0;
        for (int k = 0; k < nsides; k++) {
            if (k == of[i])
                continue;
            pl_glicko2_game *gm = &games[ng++];
            if (side[k].members == 1) {
                /* a lone player is himself, exactly */
                int j = 0;
                while (of[j] != k)
                    j++;
                gm->rating = seats[j].player.rating;
                gm->deviation = seats[j].player.deviation;
            } else {
                gm->rating = side[k].rating;
                gm->deviation = side[k].rd;
            }
            int mine = seats[i].rank, theirs = side[k].rank;
            gm->score = seats[i].left      ? 0.0
                        : side[k].forfeits ? 1.0
                        : mine < theirs    ? 1.0
                        : mine == theirs   ? 0.5
                                           : 0.0;
        }
        pl_glicko2 r = pl_glicko2_update(seats[i].player, games, ng, PL_RATING_TAU);
        r.deviation = rt_clamp(r.deviation, PL_RATING_RD_MIN, PL_RATING_RD_MAX);
        r.volatility = fmin(r.volatility, PL_RATING_VOL_MAX);
        res[i] = r;
    }
    memcpy(out, res, sizeof res[0] * (size_t)n);
    return 0;
}

pl_glicko2 pl_rating_idle(pl_glicko2 p, double days)
{
    if (!(days > 0))
        return p;
    double phi = p.deviation / RT_SCALE, k = days / PL_RATING_IDLE_DAYS;
    double rd = RT_SCALE * sqrt(phi * phi + k * p.volatility * p.volatility);
    p.deviation = fmin(rd, PL_RATING_RD_MAX);
    return p;
}
