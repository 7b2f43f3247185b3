/* test_property_tell.c — the terminal's history in words (src/cli/tell.c):
 * along random games of every game and variant, every action told as the
 * terminal tells it (a roll, a computer's move, a move played for a human,
 * a typed move, an answer given at once with others; to every seat and to
 * someone who sees everything), joined into notes as the screen joins them
 * and into log lines as the `log` page and the replay do. No text may
 * double its punctuation (".;", "..", ". .", ";;", " ;", ",.", "!." ...),
 * hold two spaces or fail to end a sentence, and no seat may be counted
 * from 0 ("Seat 0", "seat 0"): the terminal counts seats as the browser
 * does, from 1. Every language of the terminal (words.h: en, ru, ja, vi)
 * takes its turn, Japanese with its own marks (。 ends a sentence). */
#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "parlour/alloc.h"
#include "menu.h"
#include "tell.h"

/* What a run looked at. */
typedef struct tally {
    long actions, texts;
} tally;

/* Fails the test when `text` breaks the rules above; `what` names the case. */
static void check_text(const char *text, const char *what, const char *opts, long step)
{
    static const char *const bad[] = {".;", "..", ". .", ";;", " ;", ",.", "!.", "?.", ":.", ";.", ",,", " ,",
                                      " .", "  ", ".,", "; ;", ".:", "!;", "?;", ":;", "。.", ".。", "。。",
                                      " 。", "、。", "。、", "（ ", "席0", "Место 0", "Ghế 0", "ghế 0"};
    if (!*text)
        return;
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (strstr(text, bad[i]))
            fail_msg("%s (%s, action %ld): \"%s\" in \"%s\"", what, opts, step, bad[i], text);
    for (const char *p = text; (p = strstr(p, "eat 0")); p++)
        if (p > text && (p[-1] == 's' || p[-1] == 'S') && !(p[5] >= '0' && p[5] <= '9'))
            fail_msg("%s (%s, action %ld): a seat counted from 0 in \"%s\"", what, opts, step, text);
    size_t n = strlen(text);
    char last = text[n - 1];
    bool ended = last == '.' || last == '!' || last == '?' ||
                 (n >= 3 && (!strcmp(text + n - 3, "\xE2\x80\xA6") || !strcmp(text + n - 3, "。") ||
                             !strcmp(text + n - 3, "！") || !strcmp(text + n - 3, "？")));
    if (!ended)
        fail_msg("%s (%s, action %ld): no end to \"%s\"", what, opts, step, text);
    if (text[0] == ' ')
        fail_msg("%s (%s, action %ld): a blank opens \"%s\"", what, opts, step, text);
}

/* The game's own English words that a ru/ja/vi history of City Behind
 * Walls or Tam Cúc must not show (its events are told in the catalogue's
 * sentences, "ev.cbw.*", "ev.tamcuc.*"): the English seat, the verbs of
 * the notation and of the games' describe. */
static void check_no_english(const char *game, pl_lang lang, const char *text, const char *opts, long step)
{
    static const char *const english[] = {"Seat",   "seat",  "captured", "prisoner", "trick",  "wins",   "place",
                                          "pass",   "lead",  "lay ",     "reveal",   "hide",   "declare", "deal",
                                          "first ", "score", "castle",   "won",      "Counted", "Game"};
    if (lang == PL_LANG_EN || (strcmp(game, "cbw") && strcmp(game, "tamcuc")))
        return;
    for (size_t i = 0; i < sizeof english / sizeof *english; i++)
        if (strstr(text, english[i]))
            fail_msg("%s in %s (%s, action %ld): English \"%s\" in \"%s\"", game, pl_words_lang_code(lang), opts,
                     step, english[i], text);
}

/* Plays one random game of `game` with options `opts` (drawn by `r`),
 * telling every action every way to every viewer, as notes joined over a
 * few actions (the screen clears its notes when a human types) and as log
 * lines (a roll on the line of the move after it). */
static void run_game(const char *game, const char *opts, pl_lang lang, pl_rng *r, tally *t)
{
    pl_match *m = th_new(game, opts);
    const pl_game *g = m->game;
    int ns = g->num_seats(m->state);
    pl_action *acts = pl_malloc(sizeof *acts * PL_MAX_ACTIONS);
    void *before = pl_malloc(g->state_size);
    assert_non_null(acts);
    assert_non_null(before);
    pl_buf notes[PL_MAX_SEATS + 1] = {{0}}, log[PL_MAX_SEATS + 1] = {{0}}, one = {0}, err = {0};
    static const tell_how seat_hows[] = {TELL_MOVE, TELL_FORCED, TELL_TYPED, TELL_ANSWERED};
    for (long step = 0; g->phase(m->state) != PL_PHASE_OVER && step < 3000; step++) {
        pl_state_copy(g, before, m->state);
        int seat;
        pl_action a;
        if (g->phase(m->state) == PL_PHASE_CHANCE) {
            assert_int_equal(pl_match_random(m, &a, &err), 0);
            seat = PL_CHANCE;
        } else {
            int sl[PL_MAX_SEATS];
            int na = g->actors(m->state, sl);
            seat = sl[pl_rng_below(r, (uint32_t)na)];
            int n = pl_legal_all(g, m->state, seat, acts);
            assert_true(n > 0);
            a = acts[pl_rng_below(r, (uint32_t)n)];
            assert_int_equal(pl_match_play(m, seat, a, &err), 0);
        }
        t->actions++;
        /* The screen's notes: a random way of having been played, to each viewer. */
        tell_how how = seat == PL_CHANCE ? TELL_CHANCE : seat_hows[pl_rng_below(r, 4)];
        for (int v = -1; v < ns; v++) {
            pl_buf *nb = &notes[v + 1], *lb = &log[v + 1];
            if (pl_rng_below(r, 6) == 0) { /* a human typed: the screen starts its notes again */
                check_text(pl_buf_str(nb), "notes", opts, step);
                pl_buf_clear(nb);
            }
            tell_action(g, before, seat, a, m->state, v, how, lang, nb);
            /* Each way alone, too: every sentence of every way. */
            for (int k = seat == PL_CHANCE ? 3 : 0; k < 4; k++) {
                pl_buf_clear(&one);
                tell_action(g, before, seat, a, m->state, v, seat == PL_CHANCE ? TELL_CHANCE : seat_hows[k], lang,
                            &one);
                check_text(pl_buf_str(&one), "one action", opts, step);
                check_no_english(game, lang, pl_buf_str(&one), opts, step);
                t->texts++;
            }
            /* The log's line: chance joins the move after it. */
            tell_action(g, before, seat, a, m->state, v, seat == PL_CHANCE ? TELL_CHANCE : TELL_MOVE, lang, lb);
            if (seat != PL_CHANCE) {
                check_text(pl_buf_str(lb), "log line", opts, step);
                pl_buf_clear(lb);
            }
            assert_false(nb->oom || lb->oom || one.oom);
        }
    }
    for (int v = 0; v <= ns; v++) {
        check_text(pl_buf_str(&notes[v]), "notes", opts, -1);
        check_text(pl_buf_str(&log[v]), "log line", opts, -1);
        pl_buf_free(&notes[v]);
        pl_buf_free(&log[v]);
    }
    pl_buf_free(&one);
    pl_buf_free(&err);
    pl_free(acts);
    pl_free(before);
    pl_match_free(m);
}

/* City Behind Walls' options: 2, 4 or 6 players, either deck, a small
 * Rectangle two games in three (captures come early). */
static void cbw_options(pl_rng *r, char *o, size_t n, uint64_t seed)
{
    static const char *const players[3] = {"2", "4", "6"};
    int len = snprintf(o, n, "seed=%llu players=%s deck=%s first=random", (unsigned long long)seed,
                       players[pl_rng_below(r, 3)], pl_rng_below(r, 2) ? "52" : "36");
    if (pl_rng_below(r, 3))
        snprintf(o + len, n - (size_t)len, " w=%u h=%u", 2 + pl_rng_below(r, 5), 2 + pl_rng_below(r, 3));
}

/* Karuta's variants: kyogi, chirashi for 1-4, uta-karuta. */
static void karuta_options(pl_rng *r, char *o, size_t n, uint64_t seed)
{
    static const char *const v[] = {"variant=kyogi", "variant=kyogi send=manual", "variant=chirashi players=1",
                                    "variant=chirashi players=3", "variant=uta", "variant=uta teams=2v2"};
    snprintf(o, n, "seed=%llu %s", (unsigned long long)seed, v[pl_rng_below(r, sizeof v / sizeof *v)]);
}

static const struct told {
    const char *id;
    void (*options)(pl_rng *r, char *out, size_t n, uint64_t seed);
    int games;
    long min_actions; /* "thousands of moves" of each game */
} told[] = {
    {"ur", th_ur_options, 30, 2000},
    {"cbw", cbw_options, 30, 1000},
    {"tamcuc", th_tamcuc_options, 30, 1000},
    {"karuta", karuta_options, 6, 1000},
};

static void test_property_tell_every_game(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof told / sizeof *told; i++) {
        pl_rng r;
        pl_rng_seed(&r, 31 + i);
        tally t = {0};
        for (int k = 0; k < told[i].games; k++) {
            char opts[1024];
            told[i].options(&r, opts, sizeof opts, 1000 + (uint64_t)k);
            run_game(told[i].id, opts, (pl_lang)(k % PL_LANG_COUNT), &r, &t); /* each language in turn */
        }
        printf("%s: %ld actions, %ld texts told\n", told[i].id, t.actions, t.texts);
        assert_true(t.actions >= told[i].min_actions);
    }
}

/* The joins themselves: a mark is never doubled, a sentence always ends. */
static void test_property_tell_join(void **state)
{
    (void)state;
    pl_buf b = {0};
    tell_join(&b, "Dark reached the rosette B4: another roll.");
    tell_join(&b, "Roll 4");
    tell_join(&b, "");
    tell_join(&b, "Seat 2 (Dark): C1 → B4, rolls again");
    assert_string_equal(pl_buf_str(&b), "Dark reached the rosette B4: another roll. Roll 4. Seat 2 (Dark): C1 → B4, "
                                         "rolls again.");
    assert_string_equal(tell_next_sentence(pl_buf_str(&b)), "Roll 4. Seat 2 (Dark): C1 → B4, rolls again.");
    assert_null(tell_next_sentence("One sentence."));
    pl_buf_clear(&b);
    tell_join(&b, "took back 2 moves: Light A1, …");
    tell_join(&b, "Is it? Yes! ");
    assert_string_equal(pl_buf_str(&b), "took back 2 moves: Light A1, … Is it? Yes!");
    /* Japanese ends its sentences with 。！？: no '.' after them, and the
     * screen drops the oldest sentence after one. */
    pl_buf_clear(&b);
    tell_join(&b, "席1（白）の勝ち 7–5。");
    tell_join(&b, "まだ手はない");
    tell_join(&b, "本当？");
    assert_string_equal(pl_buf_str(&b), "席1（白）の勝ち 7–5。 まだ手はない。 本当？");
    assert_string_equal(tell_next_sentence(pl_buf_str(&b)), "まだ手はない。 本当？");
    pl_buf_clear(&b);
    tell_join(&b, "2手戻した: 白 enter"); /* ends in notation: a '.' */
    tell_join(&b, "席2（黒）");           /* ends in a full-width mark: 。 */
    assert_string_equal(pl_buf_str(&b), "2手戻した: 白 enter. 席2（黒）。");
    pl_buf_free(&b);
}

/* The seat and the note's own words in each language (words.h); a game's
 * seat names from the catalogue where it has them. */
static void test_property_tell_seat_lang(void **state)
{
    (void)state;
    pl_match *m = th_new("ur", "seed=1 start=light");
    const pl_game *g = m->game;
    static const char *const want[PL_LANG_COUNT] = {"Seat 2 (Dark)", "Место 2 (Тёмные)", "席2（黒）", "Ghế 2 (Đen)"};
    static const char *const answered[PL_LANG_COUNT] = {"Seat 2 (Dark): answered.", "Место 2 (Тёмные): ответ дан.",
                                                        "席2（黒）: 回答済み。", "Ghế 2 (Đen): đã trả lời."};
    for (int l = 0; l < PL_LANG_COUNT; l++) {
        pl_buf b = {0};
        tell_seat(g, m->state, 1, (pl_lang)l, &b);
        assert_string_equal(pl_buf_str(&b), want[l]);
        pl_buf_clear(&b);
        th_play(m, "roll 1");
        void *before = pl_malloc(g->state_size);
        assert_non_null(before);
        pl_state_copy(g, before, m->state);
        pl_buf_clear(&b);
        tell_action(g, before, 1, 0, m->state, -1, TELL_ANSWERED, (pl_lang)l, &b);
        assert_string_equal(pl_buf_str(&b), answered[l]);
        pl_free(before);
        pl_buf_free(&b);
        pl_buf err = {0};
        assert_int_equal(pl_match_undo(m, &err), 0);
        pl_buf_free(&err);
    }
    /* A game without seat names: the seat alone. */
    pl_match *k = th_new("tamcuc", "seed=1");
    pl_buf b = {0};
    tell_seat(k->game, k->state, 2, PL_LANG_VI, &b);
    assert_string_equal(pl_buf_str(&b), "Ghế 3");
    pl_buf_clear(&b);
    tell_seat(k->game, k->state, 2, PL_LANG_JA, &b);
    assert_string_equal(pl_buf_str(&b), "席3");
    pl_buf_free(&b);
    pl_match_free(k);
    pl_match_free(m);
}

/* Ur's history names where the piece went, with the seat counted from 1. */
static void test_property_tell_ur_where(void **state)
{
    (void)state;
    pl_match *m = th_new("ur", "seed=1 start=light");
    const pl_game *g = m->game;
    void *before = pl_malloc(g->state_size);
    assert_non_null(before);
    th_play(m, "roll 1"); /* the starter's first throw is a 1 (UR-R3) */
    pl_state_copy(g, before, m->state);
    th_play(m, "enter");
    pl_buf b = {0};
    tell_action(g, before, 0, m->hist[m->nhist - 1].a, m->state, 1, TELL_MOVE, PL_LANG_EN, &b);
    assert_string_equal(pl_buf_str(&b), "Seat 1 (Light): enter → A4.");
    pl_buf_free(&b);
    pl_free(before);
    pl_match_free(m);
}

/* Other languages tell Ur from its events, in the catalogue's sentences
 * (words.h: "ev.ur.*"), the seat by its name; a forced move says so. */
static void test_property_tell_ur_events_lang(void **state)
{
    (void)state;
    static const char *const want[PL_LANG_COUNT][2] = {
        {"Roll 1.", "Seat 1 (Light): enter → A4 (the only legal move, played for you)."},
        {"Светлые начинают с броска 1.", "Светлые: новая фишка на A4. Это был единственный возможный ход, он сделан за вас."},
        {"白が1を出して先手。", "白がA4に駒を入れた。 手がこれしかないので自動で実行。"},
        {"Trắng bắt đầu với lần gieo được 1.", "Trắng đưa một quân vào ô A4. Đó là nước hợp lệ duy nhất, đã đi thay bạn."},
    };
    for (int l = 0; l < PL_LANG_COUNT; l++) {
        pl_match *m = th_new("ur", "seed=1 start=light");
        const pl_game *g = m->game;
        void *before = pl_malloc(g->state_size);
        assert_non_null(before);
        pl_buf b = {0};
        pl_state_copy(g, before, m->state);
        th_play(m, "roll 1");
        tell_action(g, before, PL_CHANCE, m->hist[m->nhist - 1].a, m->state, -1, TELL_CHANCE, (pl_lang)l, &b);
        assert_string_equal(pl_buf_str(&b), want[l][0]);
        pl_buf_clear(&b);
        pl_state_copy(g, before, m->state);
        th_play(m, "enter");
        tell_action(g, before, 0, m->hist[m->nhist - 1].a, m->state, 0, TELL_FORCED, (pl_lang)l, &b);
        assert_string_equal(pl_buf_str(&b), want[l][1]);
        pl_buf_free(&b);
        pl_free(before);
        pl_match_free(m);
    }
}

/* The game's English words a ru/ja/vi legal list must not show (menu.h):
 * the verbs and words of the English menu and of the notation's long
 * forms. */
static const char *const menu_english[] = {"pass",  "Pass",   "lead",  "lay",   "reveal", "hide",   "declare",
                                           "counter", "captures", "rolls", "again", "new piece", "off the board",
                                           "touch", "send",   "place", "move",  "card",   "ready",  "pool",
                                           "Seat",  "seat",   "opens", "piece", "Four",   "Five",   "Soldier"};

/* Fails when `words`, what legal action `what` does in `lang` (ru, ja,
 * vi), is empty or keeps an English word: in Russian and Japanese no run
 * of three ASCII letters at all (cards, squares and labels are shorter:
 * "rG", "10H", "A05"), in Vietnamese (Latin letters) none of the English
 * words above. */
static void check_menu_words(const char *game, pl_lang lang, const char *what, const char *words)
{
    if (!*words)
        fail_msg("%s in %s: no words for %s", game, pl_words_lang_code(lang), what);
    for (size_t i = 0; i < sizeof menu_english / sizeof *menu_english; i++)
        if (strstr(words, menu_english[i]))
            fail_msg("%s in %s: %s is \"%s\": English \"%s\"", game, pl_words_lang_code(lang), what, words,
                     menu_english[i]);
    int run = 0;
    for (const char *p = words; lang != PL_LANG_VI && *p; p++) {
        run = ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')) ? run + 1 : 0;
        if (run >= 3)
            fail_msg("%s in %s: %s is \"%s\": English letters", game, pl_words_lang_code(lang), what, words);
    }
    if (strchr(words, '{'))
        fail_msg("%s in %s: %s is \"%s\": a {name} left", game, pl_words_lang_code(lang), what, words);
}

/* The play screen's legal list (menu.h) along random games of every game
 * and variant: every legal action of every seat that acts, at every move,
 * has words in Russian, Japanese and Vietnamese, none of them English,
 * and its item shows the notation to type first; English items stay the
 * game's own text (pl_format_action_long), byte for byte. */
static void test_property_tell_menu_every_game(void **state)
{
    (void)state;
    pl_action *acts = pl_malloc(sizeof *acts * PL_MAX_ACTIONS);
    assert_non_null(acts);
    pl_buf words = {0}, item = {0}, typed = {0}, err = {0};
    for (size_t i = 0; i < sizeof told / sizeof *told; i++) {
        pl_rng r;
        pl_rng_seed(&r, 77 + i);
        long checked = 0;
        for (int k = 0; k < 6; k++) {
            char opts[1024];
            told[i].options(&r, opts, sizeof opts, 2000 + (uint64_t)k);
            pl_match *m = th_new(told[i].id, opts);
            const pl_game *g = m->game;
            for (long step = 0; g->phase(m->state) != PL_PHASE_OVER && step < 400 && checked < 20000L * (k + 1);
                 step++) {
                pl_action a;
                if (g->phase(m->state) == PL_PHASE_CHANCE) {
                    assert_int_equal(pl_match_random(m, &a, &err), 0);
                    continue;
                }
                int sl[PL_MAX_SEATS], na = g->actors(m->state, sl);
                for (int s = 0; s < na; s++) {
                    int n = pl_legal_all(g, m->state, sl[s], acts);
                    for (int j = 0; j < n; j = (j == 99 && n > 200) ? n - 100 : j + 1) {
                        /* karuta's touches: thousands a reading; the first and last hundred */
                        pl_buf_clear(&typed);
                        g->format_action(m->state, sl[s], acts[j], &typed);
                        pl_buf_clear(&item);
                        menu_item(g, m->state, sl[s], acts[j], PL_LANG_EN, &item);
                        pl_buf_clear(&words);
                        pl_format_action_long(g, m->state, sl[s], acts[j], &words);
                        assert_string_equal(pl_buf_str(&item), pl_buf_str(&words));
                        for (int l = PL_LANG_RU; l < PL_LANG_COUNT; l++) {
                            pl_buf_clear(&words);
                            assert_int_equal(menu_words(g, m->state, sl[s], acts[j], (pl_lang)l, &words), 0);
                            check_menu_words(told[i].id, (pl_lang)l, pl_buf_str(&typed), pl_buf_str(&words));
                            pl_buf_clear(&item);
                            menu_item(g, m->state, sl[s], acts[j], (pl_lang)l, &item);
                            assert_true(!strncmp(pl_buf_str(&item), pl_buf_str(&typed), typed.len));
                            assert_non_null(strstr(pl_buf_str(&item), pl_buf_str(&words)));
                            checked++;
                        }
                    }
                }
                int sel = sl[pl_rng_below(&r, (uint32_t)na)];
                int n = pl_legal_all(g, m->state, sel, acts);
                assert_int_equal(pl_match_play(m, sel, acts[pl_rng_below(&r, (uint32_t)n)], &err), 0);
            }
            pl_match_free(m);
        }
        printf("%s: %ld legal actions worded\n", told[i].id, checked);
        assert_true(checked > 300);
    }
    assert_false(words.oom || item.oom || typed.oom);
    pl_buf_free(&words);
    pl_buf_free(&item);
    pl_buf_free(&typed);
    pl_buf_free(&err);
    pl_free(acts);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_property_tell_join),
        cmocka_unit_test(test_property_tell_ur_where),
        cmocka_unit_test(test_property_tell_seat_lang),
        cmocka_unit_test(test_property_tell_ur_events_lang),
        cmocka_unit_test(test_property_tell_every_game),
        cmocka_unit_test(test_property_tell_menu_every_game),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
