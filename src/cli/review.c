/* review.c — `parlour review RECORD [--table FILE] [--json]`: a saved game's
 * review (src/ai/review.h, docs/review.md) in the player's language (the
 * catalogue's review.* words) or as JSON. With --table the values are exact
 * (a table from `parlour solve`); without, estimates by MCTS. --compare
 * (with --table) also runs the estimate and prints its error against the
 * exact values: how docs/review.md measured it. `parlour puzzles make`:
 * "find the best move" positions from the largest losses of saved games,
 * with the exact answer (docs/review.md, "Puzzles"). Names no game. */
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ai/perfect.h"
#include "../ai/review.h"
#include "cli.h"
#include "parlour/record.h"
#include "parlour/words.h"
#include "review.h"
#include "tell.h"
#include "term.h"

void review_pct(pl_buf *b, double p, int sign)
{
    pl_buf_clear(b);
    pl_buf_printf(b, sign ? "%+.1f %%" : "%.1f %%", 100 * p);
}

void review_bufs_free(review_bufs *b)
{
    pl_buf *all[] = {&b->line, &b->a, &b->b, &b->c, &b->d, &b->e, &b->f, &b->name};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        pl_buf_free(all[i]);
}

int review_replay(const pl_match *m, void (*at)(void *ctx, const void *st, int t), void *ctx)
{
    const pl_game *g = m->game;
    void *st = malloc(g->state_size);
    if (!st)
        return -1;
    pl_state_copy(g, st, m->initial);
    for (int t = 0; t < m->nhist; t++) {
        at(ctx, st, t);
        g->apply(st, m->hist[t].seat, m->hist[t].a);
    }
    free(st);
    return 0;
}

static void seat_name(const pl_match *m, int seat, pl_lang lang, pl_buf *out)
{
    pl_buf_clear(out);
    if (m->game->seat_name)
        tell_seat_name(m->game, m->initial, seat, lang, out);
    else
        tell_seat(m->game, m->initial, seat, lang, out);
}

/* print_words through the replay: the review and its next decision. */
typedef struct words_ctx {
    const pl_match *m;
    const ai_review *r;
    pl_lang lang;
    int k;
    review_bufs *w;
} words_ctx;

/* The line of the decision at action t, if there is one (review_replay). */
static void move_line(void *ctx, const void *st, int t)
{
    words_ctx *x = ctx;
    if (x->k >= x->r->nmoves || x->r->moves[x->k].index != t)
        return;
    const ai_review_move *mv = &x->r->moves[x->k++];
    const pl_game *g = x->m->game;
    review_bufs *w = x->w;
    seat_name(x->m, mv->seat, x->lang, &w->name);
    pl_buf_clear(&w->a);
    pl_buf_printf(&w->a, "%d", t + 1);
    pl_buf_clear(&w->e);
    g->format_action(st, mv->seat, mv->played, &w->e);
    pl_buf_clear(&w->f);
    g->format_action(st, mv->seat, mv->best, &w->f);
    review_pct(&w->b, mv->played_value, 0);
    review_pct(&w->c, mv->best_value, 0);
    pl_buf_clear(&w->d);
    char key[40];
    snprintf(key, sizeof key, "review.class.%s", ai_review_class_name(mv->cls));
    pl_buf_puts(&w->d, pl_words(x->lang, key));
    pl_buf_clear(&w->line);
    pl_words_put(&w->line, x->lang, mv->cls == AI_REVIEW_BEST ? "review.move.best" : "review.move", "n",
                 pl_buf_str(&w->a), "seat", pl_buf_str(&w->name), "played", pl_buf_str(&w->e), "pv",
                 pl_buf_str(&w->b), "best", pl_buf_str(&w->f), "bv", pl_buf_str(&w->c), "class", pl_buf_str(&w->d),
                 NULL);
    puts(pl_buf_str(&w->line));
}

/* The review in words, one line each: the source, each seat's accuracy and
 * classes, luck and skill, the chance to win, then every decision. */
static void print_words(const pl_match *m, const ai_review *r, pl_lang lang)
{
    review_bufs w = {0};
    if (r->exact) {
        pl_words_put(&w.line, lang, "review.title.exact", NULL);
    } else {
        pl_buf_printf(&w.a, "%ld", r->budget);
        pl_words_put(&w.line, lang, "review.title.estimate", "n", pl_buf_str(&w.a), NULL);
    }
    puts(pl_buf_str(&w.line));
    for (int s = 0; s < 2; s++) {
        seat_name(m, s, lang, &w.name);
        pl_buf_clear(&w.line);
        pl_buf_clear(&w.a);
        pl_buf_printf(&w.a, "%.1f", r->accuracy[s]);
        char n[AI_REVIEW_NCLASSES][16];
        for (int k = 0; k < AI_REVIEW_NCLASSES; k++)
            snprintf(n[k], sizeof n[k], "%d", r->count[s][k]);
        pl_words_put(&w.line, lang, "review.seat", "seat", pl_buf_str(&w.name), "acc", pl_buf_str(&w.a), "best",
                     n[0], "good", n[1], "inacc", n[2], "mist", n[3], "blund", n[4], NULL);
        puts(pl_buf_str(&w.line));
        pl_buf_clear(&w.line);
        review_pct(&w.b, r->luck[s], 1);
        review_pct(&w.c, r->skill[s], 1);
        review_pct(&w.d, r->lost[s], 0);
        pl_words_put(&w.line, lang, "review.luck", "seat", pl_buf_str(&w.name), "luck", pl_buf_str(&w.b), "skill",
                     pl_buf_str(&w.c), "lost", pl_buf_str(&w.d), NULL);
        puts(pl_buf_str(&w.line));
    }
    seat_name(m, 0, lang, &w.name);
    review_pct(&w.b, r->start, 0);
    review_pct(&w.c, r->end, 0);
    pl_buf_clear(&w.line);
    pl_words_put(&w.line, lang, "review.chance", "seat", pl_buf_str(&w.name), "start", pl_buf_str(&w.b), "end",
                 pl_buf_str(&w.c), NULL);
    puts(pl_buf_str(&w.line));
    words_ctx x = {m, r, lang, 0, &w};
    review_replay(m, move_line, &x);
    review_bufs_free(&w);
}

/* The estimate against the exact review of the same game (English: a
 * measurement, like `solve --measure`). */
static void print_compare(const ai_review *x, const ai_review *e)
{
    double dp = 0, db = 0, dl = 0, ds = 0;
    int same_best = 0, same_class = 0, n = x->nmoves < e->nmoves ? x->nmoves : e->nmoves, ns = 0;
    for (int k = 0; k < n; k++) {
        dp += fabs(x->moves[k].played_value - e->moves[k].played_value);
        db += fabs(x->moves[k].best_value - e->moves[k].best_value);
        dl += fabs(x->moves[k].loss - e->moves[k].loss);
        same_best += x->moves[k].best == e->moves[k].best; /* a tie of two best moves counts as a miss */
        same_class += x->moves[k].cls == e->moves[k].cls;
    }
    for (int i = 0; i <= x->nhist; i++)
        if (x->series[i] >= 0 && e->series[i] >= 0) {
            ds += fabs(x->series[i] - e->series[i]);
            ns++;
        }
    printf("compare estimate with exact: %d decisions, mean |error| played %.4f, best %.4f, loss %.4f; "
           "series %.4f over %d points; same best move %.1f %%, same class %.1f %%; luck %+.4f vs %+.4f\n",
           n, n ? dp / n : 0, n ? db / n : 0, n ? dl / n : 0, ns ? ds / ns : 0, ns, n ? 100.0 * same_best / n : 0,
           n ? 100.0 * same_class / n : 0, e->luck[0], x->luck[0]);
}

int cli_review(int argc, char **argv)
{
    static const struct option lo[] = {{"table", required_argument, 0, 't'},
                                       {"json", no_argument, 0, 'j'},
                                       {"iterations", required_argument, 0, 'i'},
                                       {"threads", required_argument, 0, 'T'},
                                       {"seed", required_argument, 0, 's'},
                                       {"compare", no_argument, 0, 'c'},
                                       {"lang", required_argument, 0, 'L'},
                                       {"help", no_argument, 0, 'h'},
                                       {0, 0, 0, 0}};
    pl_lang lang;
    if (term_lang(argc, argv, "parlour review", &lang) < 0)
        return 2;
    const char *table_path = NULL;
    int json = 0, compare = 0, c;
    ai_review_params p = {.iterations = 0, .threads = 1, .seed = 1};
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
        char *end = NULL;
        switch (c) {
        case 't': table_path = optarg; break;
        case 'j': json = 1; break;
        case 'c': compare = 1; break;
        case 'L': break; /* read by term_lang above */
        case 'i':
            p.iterations = strtol(optarg, &end, 10);
            if (*end || p.iterations < 1) {
                fprintf(stderr, "parlour review: --iterations takes a number above 0\n");
                return 2;
            }
            break;
        case 'T':
            p.threads = (int)strtol(optarg, &end, 10);
            if (*end || p.threads < 1 || p.threads > 8) {
                fprintf(stderr, "parlour review: --threads takes 1 to 8\n");
                return 2;
            }
            break;
        case 's':
            p.seed = strtoull(optarg, &end, 10);
            if (*end) {
                fprintf(stderr, "parlour review: --seed takes a number\n");
                return 2;
            }
            break;
        case 'h': fputs(pl_words(lang, "review.help"), stdout); return 0;
        default: return 2;
        }
    }
    if (optind >= argc) {
        fprintf(stderr, "parlour review: %s\n", pl_words(lang, "tui.err.which_record"));
        return 2;
    }
    if (compare && !table_path) {
        fprintf(stderr, "parlour review: --compare needs --table\n");
        return 2;
    }
    pl_buf err = {0};
    int rc = 1;
    ai_perfect *table = NULL;
    ai_review *r = NULL, *e = NULL;
    pl_match *m = pl_record_load_file(argv[optind], &err);
    if (m && (m->game->flags & PL_GAME_HIDDEN) && !table_path && !compare) { /* Tam Cúc, CBW: review_hidden.c */
        rc = cli_review_hidden(m, p.iterations, p.threads, p.seed, json, lang);
        pl_match_free(m);
        return rc;
    }
    if (m && table_path)
        table = ai_perfect_load(m->game, table_path, &err);
    if (m && (table || !table_path))
        r = ai_review_match(m, table, &p, &err);
    if (r && compare)
        e = ai_review_match(m, NULL, &p, &err);
    if (r && (e || !compare)) {
        pl_buf out = {0};
        if (compare) {
            print_compare(r, e);
            rc = 0;
        } else if (json) {
            if (ai_review_json(r, m->game, m->initial, m->hist, &out, &err) == 0) {
                puts(pl_buf_str(&out));
                rc = 0;
            }
        } else {
            print_words(m, r, lang);
            rc = 0;
        }
        pl_buf_free(&out);
    }
    if (rc)
        fprintf(stderr, "parlour review: %s\n", pl_buf_str(&err));
    ai_review_free(r);
    ai_review_free(e);
    ai_perfect_free(table);
    pl_match_free(m);
    pl_buf_free(&err);
    return rc;
}

/* ---- `parlour puzzles make`: "find the best move" from the largest losses ---- */

typedef struct puzzle {
    double loss;
    json_t *j; /* the puzzle object */
} puzzle;

static int puzzle_cmp(const void *a, const void *b)
{
    double x = ((const puzzle *)a)->loss, y = ((const puzzle *)b)->loss;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* Appends to `ps` a puzzle for every decision of `r` (a review of `m`) that
 * lost at least `min_loss` and whose best move is clear (ahead of the next by
 * at least `margin`). Returns how many, or -1 when memory ran out. */
static int puzzles_of(const pl_match *m, const ai_perfect *table, const ai_review *r, const char *source,
                      double min_loss, double margin, puzzle **ps, int *n, int *cap)
{
    const pl_game *g = m->game;
    void *st = malloc(g->state_size), *c = malloc(g->state_size);
    pl_action *acts = malloc(sizeof(pl_action) * PL_MAX_ACTIONS);
    if (!st || !c || !acts) {
        free(st);
        free(c);
        free(acts);
        return -1;
    }
    pl_state_copy(g, st, m->initial);
    int k = 0, added = 0;
    for (int t = 0; t < m->nhist; t++) {
        if (k < r->nmoves && r->moves[k].index == t) {
            const ai_review_move *mv = &r->moves[k++];
            int nl = pl_legal_all(g, st, mv->seat, acts);
            double second = -1;
            json_t *moves = json_array(), *legal = json_array();
            for (int i = 0; i < nl; i++) {
                pl_state_copy(g, c, st);
                g->apply(c, mv->seat, acts[i]);
                double v = ai_perfect_value(table, c, mv->seat);
                if (acts[i] != mv->best && v > second)
                    second = v;
                pl_buf txt = {0};
                g->format_action(st, mv->seat, acts[i], &txt);
                json_array_append_new(moves, json_pack("{s:s, s:f}", "move", pl_buf_str(&txt), "value", v));
                pl_buf fb = {0}, fe = {0}; /* the action's fields: a browser's board shows the move */
                json_t *fields = pl_action_fields_json(g, st, mv->seat, acts[i], &fb, &fe) == 0
                                     ? json_loads(pl_buf_str(&fb), 0, NULL) : NULL;
                json_array_append_new(legal, json_pack("{s:s, s:o, s:i}", "action", pl_buf_str(&txt), "fields",
                                                       fields ? fields : json_object(), "seat", mv->seat));
                pl_buf_free(&fb);
                pl_buf_free(&fe);
                pl_buf_free(&txt);
            }
            if (mv->loss >= min_loss && mv->best_value - second >= margin) {
                if (*n == *cap) {
                    int nc = *cap ? 2 * *cap : 64;
                    puzzle *np = realloc(*ps, sizeof *np * (size_t)nc);
                    if (!np) {
                        json_decref(moves);
                        json_decref(legal);
                        added = -1;
                        break;
                    }
                    *ps = np;
                    *cap = nc;
                }
                pl_buf pos = {0}, best = {0}, played = {0}, opts = {0};
                g->to_text(st, &pos);
                g->format_action(st, mv->seat, mv->best, &best);
                g->format_action(st, mv->seat, mv->played, &played);
                json_t *o = json_object();
                pl_opts_write(&m->opts, &opts); /* KEY=VALUE a line */
                for (char *line = strtok(opts.s ? opts.s : (char *)"", "\n"); line; line = strtok(NULL, "\n")) {
                    char *eq = strchr(line, '=');
                    if (eq && strncmp(line, "seed=", 5)) {
                        *eq = 0;
                        json_object_set_new(o, line, json_string(eq + 1));
                    }
                }
                char src[512];
                snprintf(src, sizeof src, "%s#%d", source, t);
                pl_buf vb = {0}, ve = {0}; /* the spectator's view: a browser draws the position */
                json_t *view = pl_view_json(g, st, -1, &vb, &ve) == 0 ? json_loads(pl_buf_str(&vb), 0, NULL) : NULL;
                pl_buf_free(&vb);
                pl_buf_free(&ve);
                (*ps)[(*n)++] = (puzzle){mv->loss, json_pack("{s:s, s:o, s:s, s:i, s:s, s:f, s:s, s:f, s:o, s:o, s:o, s:s}",
                    "game", g->id, "options", o, "position", pl_buf_str(&pos), "seat", mv->seat,
                    "answer", pl_buf_str(&best), "answer_value", mv->best_value, "played", pl_buf_str(&played),
                    "loss", mv->loss, "moves", moves, "legal", legal, "view", view ? view : json_null(), "source", src)};
                added++;
                pl_buf_free(&pos);
                pl_buf_free(&best);
                pl_buf_free(&played);
                pl_buf_free(&opts);
            } else {
                json_decref(moves);
                json_decref(legal);
            }
        }
        g->apply(st, m->hist[t].seat, m->hist[t].a);
    }
    free(st);
    free(c);
    free(acts);
    return added;
}

/* `parlour puzzles make --table FILE [--top N] [--min-loss L] --out FILE RECORD...` */
int cli_puzzles(int argc, char **argv)
{
    static const struct option lo[] = {{"table", required_argument, 0, 't'},
                                       {"out", required_argument, 0, 'o'},
                                       {"top", required_argument, 0, 'n'},
                                       {"min-loss", required_argument, 0, 'l'},
                                       {"help", no_argument, 0, 'h'},
                                       {0, 0, 0, 0}};
    const char *usage = "usage: parlour puzzles make --table FILE --out FILE [--top N] [--min-loss L] RECORD...\n"
                        "Finds \"find the best move\" positions in saved games of Ur: the decisions that\n"
                        "lost most (at least L, default 0.04: mistakes and blunders) whose best move is\n"
                        "clear (ahead of the next by 0.01), with the exact answer from the table, the\n"
                        "N largest (default 20) written to FILE as JSON (docs/review.md, \"Puzzles\").\n";
    if (argc < 2 || strcmp(argv[1], "make")) {
        if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
            fputs(usage, stdout);
            return 0;
        }
        fputs(usage, stderr);
        return 2;
    }
    argc--;
    argv++;
    const char *table_path = NULL, *out_path = NULL;
    long top = 20;
    double min_loss = 0.04;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
        char *end = NULL;
        switch (c) {
        case 't': table_path = optarg; break;
        case 'o': out_path = optarg; break;
        case 'n':
            top = strtol(optarg, &end, 10);
            if (*end || top < 1) {
                fputs("parlour puzzles: --top takes a number above 0\n", stderr);
                return 2;
            }
            break;
        case 'l':
            min_loss = strtod(optarg, &end);
            if (*end || !(min_loss >= 0 && min_loss <= 1)) {
                fputs("parlour puzzles: --min-loss takes a number from 0 to 1\n", stderr);
                return 2;
            }
            break;
        case 'h': fputs(usage, stdout); return 0;
        default: return 2;
        }
    }
    if (!table_path || !out_path || optind >= argc) {
        fputs("parlour puzzles: --table, --out and at least one record are needed\n", stderr);
        fputs(usage, stderr);
        return 2;
    }
    puzzle *ps = NULL;
    int n = 0, cap = 0, rc = 0;
    long decisions = 0;
    const pl_game *tg = NULL;
    ai_perfect *table = NULL;
    for (int i = optind; i < argc && rc == 0; i++) {
        pl_buf err = {0};
        pl_match *m = pl_record_load_file(argv[i], &err);
        if (m && tg != m->game) { /* the table is loaded for the records' game */
            ai_perfect_free(table);
            tg = m->game;
            table = ai_perfect_load(tg, table_path, &err);
        }
        ai_review *r = m && table ? ai_review_match(m, table, NULL, &err) : NULL;
        if (!r) {
            fprintf(stderr, "parlour puzzles: %s: %s\n", argv[i], pl_buf_str(&err));
            rc = 1;
        } else {
            decisions += r->nmoves;
            const char *base = strrchr(argv[i], '/');
            if (puzzles_of(m, table, r, base ? base + 1 : argv[i], min_loss, 0.01, &ps, &n, &cap) < 0) {
                fputs("parlour puzzles: out of memory\n", stderr);
                rc = 1;
            }
        }
        ai_review_free(r);
        pl_match_free(m);
        pl_buf_free(&err);
    }
    if (rc == 0) {
        qsort(ps, (size_t)n, sizeof *ps, puzzle_cmp);
        json_t *arr = json_array();
        for (int i = 0; i < n && i < top; i++)
            json_array_append(arr, ps[i].j);
        json_t *doc = json_pack("{s:s, s:i, s:o}", "format", "parlour-puzzles", "version", 1, "puzzles", arr);
        if (!doc || json_dump_file(doc, out_path, JSON_INDENT(1) | JSON_SORT_KEYS) < 0) {
            fprintf(stderr, "parlour puzzles: cannot write %s\n", out_path);
            rc = 1;
        } else {
            printf("puzzles: %ld decisions in %d games, %d lost %.2f or more with a clear best move; wrote %ld to %s\n",
                   decisions, argc - optind, n, min_loss, n < top ? (long)n : top, out_path);
        }
        json_decref(doc);
    }
    for (int i = 0; i < n; i++)
        json_decref(ps[i].j);
    free(ps);
    ai_perfect_free(table);
    return rc;
}
