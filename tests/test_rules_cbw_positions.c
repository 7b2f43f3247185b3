/* test_rules_cbw_positions.c — runs the City Behind Walls position files,
 * the .txt files of tests/positions/cbw: a diagram of the table, then one
 * expectation per line. The format (docs/notation-cbw.md, "Position files"):
 *
 *   # comment
 *   options w=5 h=3              game options (first=red seed=1 by default)
 *   position turn=0 hands=QH/KS/-/-   position text keys other than table=
 *   board                        a diagram: x labels, then rows "Y cell ..."
 *        0   1   2               with "." for a free cell, top row first;
 *     1  .  10D  .               each board resets the position to the last
 *     0  7H  9S  8H              `position` line plus the cards drawn
 *   end
 *   legal QH@1,2                 the action is legal now
 *   illegal QS@2,0 CBW-R14       illegal, and the explanation names the text
 *   play QH@1,2                  plays it (it must be legal)
 *   prisoners 1 0                cards captured by Red, by Black
 *   empty 1,0 / card 1,2 QH      a free cell / the card on a cell
 *   fixed none|x|y|xy            which axes of the Rectangle are fixed
 *   castles R B / score R B      castles / totals as if the game ended now
 *   phase move|over              the game's phase
 *   nlegal N                     the number of legal actions (pass included)
 */
#include <dirent.h>
#include <stdlib.h>

#include "cbw_util.h"

#define MAXFILES 64

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s", path);
    char line[1024], opts[512] = "", pos[2048] = "";
    pl_match *m = NULL;
    int lineno = 0, nexp = 0;
    int xs[32], nx = 0;
    pl_buf table = {0};
    bool in_board = false;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        char *l = line;
        while (*l == ' ')
            l++;
        if (!in_board && (*l == '#' || !*l))
            continue;
        char where[600];
        snprintf(where, sizeof where, "%s:%d", path, lineno);
        if (in_board) {
            if (!strcmp(l, "end")) {
                in_board = false;
                if (m)
                    pl_match_free(m);
                m = cbw_new(opts);
                char full[4096];
                snprintf(full, sizeof full, "%s table=%s", pos, table.len ? pl_buf_str(&table) : "-");
                pl_buf err = {0};
                if (m->game->from_text(m->state, full, &err) < 0)
                    fail_msg("%s: position '%s': %s", where, full, pl_buf_str(&err));
                pl_buf_free(&err);
                continue;
            }
            char *save = NULL, *w = strtok_r(l, " ", &save);
            if (!w)
                continue;
            if (nx == 0) { /* the x labels */
                for (; w && nx < 32; w = strtok_r(NULL, " ", &save))
                    xs[nx++] = atoi(w);
                continue;
            }
            int y = atoi(w), i = 0;
            for (w = strtok_r(NULL, " ", &save); w; w = strtok_r(NULL, " ", &save), i++) {
                if (i >= nx)
                    fail_msg("%s: more cells than x labels", where);
                if (!strcmp(w, "."))
                    continue;
                const char *t = w;
                if (cbw_card_parse(&t) < 0 || *t)
                    fail_msg("%s: bad card '%s'", where, w);
                pl_buf_printf(&table, "%s%s@%d,%d", table.len ? ";" : "", w, xs[i], y);
            }
            continue;
        }
        char *arg = strchr(l, ' ');
        if (arg)
            *arg++ = '\0';
        else
            arg = l + strlen(l);
        if (!strcmp(l, "options")) {
            snprintf(opts, sizeof opts, "%s", arg);
        } else if (!strcmp(l, "position")) {
            snprintf(pos, sizeof pos, "%s", arg);
        } else if (!strcmp(l, "board")) {
            in_board = true;
            nx = 0;
            pl_buf_clear(&table);
        } else {
            if (!m)
                fail_msg("%s: an expectation before any board", where);
            nexp++;
            if (!strcmp(l, "legal")) {
                if (!cbw_is_legal(m, arg))
                    fail_msg("%s: %s should be legal: %s", where, arg, cbw_why(m, arg));
            } else if (!strcmp(l, "illegal")) {
                char *rule = strchr(arg, ' ');
                if (rule)
                    *rule++ = '\0';
                if (cbw_is_legal(m, arg))
                    fail_msg("%s: %s should be illegal", where, arg);
                const char *why = cbw_why(m, arg);
                if (rule && !strstr(why, rule))
                    fail_msg("%s: %s: expected '%s' in '%s'", where, arg, rule, why);
            } else if (!strcmp(l, "play")) {
                pl_buf err = {0};
                if (th_try(m, arg, &err) < 0)
                    fail_msg("%s: play %s: %s", where, arg, pl_buf_str(&err));
                pl_buf_free(&err);
            } else if (!strcmp(l, "prisoners") || !strcmp(l, "castles") || !strcmp(l, "score")) {
                int want[2], got[2];
                if (sscanf(arg, "%d %d", &want[0], &want[1]) != 2)
                    fail_msg("%s: expected two numbers", where);
                if (l[0] == 'p') {
                    got[0] = cbw_nprisoners(m, 0);
                    got[1] = cbw_nprisoners(m, 1);
                } else if (l[0] == 'c') {
                    cbw_castles(cbw_st(m), got);
                } else {
                    cbw_score(cbw_st(m), got);
                }
                if (got[0] != want[0] || got[1] != want[1])
                    fail_msg("%s: %s %d %d, expected %d %d (position %s)", where, l, got[0], got[1], want[0],
                             want[1], th_pos(m));
            } else if (!strcmp(l, "empty") || !strcmp(l, "card")) {
                int x, y;
                char cardtxt[8] = "";
                if (sscanf(arg, "%d,%d %7s", &x, &y, cardtxt) < 2)
                    fail_msg("%s: expected X,Y", where);
                int want = l[0] == 'e' ? -1 : cbw_card(cardtxt);
                if (cbw_at(m, x, y) != want)
                    fail_msg("%s: cell %d,%d holds %d, expected %d (position %s)", where, x, y, cbw_at(m, x, y),
                             want, th_pos(m));
            } else if (!strcmp(l, "fixed")) {
                char got[4] = "";
                if (cbw_fixed_x(cbw_st(m)))
                    strcat(got, "x");
                if (cbw_fixed_y(cbw_st(m)))
                    strcat(got, "y");
                if (strcmp(got[0] ? got : "none", arg))
                    fail_msg("%s: fixed %s, expected %s", where, got[0] ? got : "none", arg);
            } else if (!strcmp(l, "phase")) {
                static const char *const ph[3] = {"chance", "move", "over"};
                assert_string_equal(ph[m->game->phase(m->state)], arg);
            } else if (!strcmp(l, "nlegal")) {
                pl_action acts[PL_MAX_ACTIONS];
                int n = m->game->legal(m->state, pl_sole_actor(m->game, m->state), acts, PL_MAX_ACTIONS);
                if (n != atoi(arg))
                    fail_msg("%s: %d legal actions, expected %s: %s", where, n, arg, th_legal(m));
            } else {
                fail_msg("%s: unknown expectation '%s'", where, l);
            }
        }
    }
    fclose(f);
    pl_buf_free(&table);
    if (m)
        pl_match_free(m);
    if (nexp == 0)
        fail_msg("%s: no expectations", path);
}

static void test_CBW_R18_R19_position_files(void **state)
{
    (void)state;
    const char *dir = PARLOUR_TESTS_DIR "/positions/cbw";
    DIR *d = opendir(dir);
    assert_non_null(d);
    char *names[MAXFILES];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < MAXFILES) {
        size_t len = strlen(e->d_name);
        if (len > 4 && !strcmp(e->d_name + len - 4, ".txt"))
            names[n++] = pl_strdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], cmp_names);
    assert_true(n >= 6);
    for (int i = 0; i < n; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        run_file(path);
        print_message("%s ok\n", names[i]);
        pl_free(names[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_CBW_R18_R19_position_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
