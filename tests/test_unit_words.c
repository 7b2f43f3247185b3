/* test_unit_words.c — the terminal's words (include/parlour/words.h): the
 * language from the environment in POSIX order and from --lang codes; the
 * four catalogues (data/words/LANG.txt) with the same keys and the same
 * placeholders, nothing left in English on a Russian, Japanese or
 * Vietnamese screen; {name} filled; text measured, cut and wrapped in
 * display columns so that a Japanese line never overflows 80 columns nor
 * splits a character; the games' pictures in each language. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "parlour/canvas.h"
#include "parlour/match.h"
#include "parlour/words.h"
#include "menu.h"
#include "tell.h"
#include "games/karuta/public/kar_practice.h"

/* Sets (value) or unsets (NULL) the environment variable `name`. */
static void env(const char *name, const char *value)
{
    if (value)
        setenv(name, value, 1);
    else
        unsetenv(name);
}

static void test_unit_words_lang_of_locale(void **state)
{
    (void)state;
    assert_int_equal(pl_words_lang_of_locale("ja_JP.UTF-8"), PL_LANG_JA);
    assert_int_equal(pl_words_lang_of_locale("vi_VN.UTF-8"), PL_LANG_VI);
    assert_int_equal(pl_words_lang_of_locale("vi_VN"), PL_LANG_VI);
    assert_int_equal(pl_words_lang_of_locale("ru_RU.UTF-8"), PL_LANG_RU);
    assert_int_equal(pl_words_lang_of_locale("ru"), PL_LANG_RU);
    assert_int_equal(pl_words_lang_of_locale("ja.UTF-8"), PL_LANG_JA);
    assert_int_equal(pl_words_lang_of_locale("ru_UA@euro"), PL_LANG_RU);
    assert_int_equal(pl_words_lang_of_locale("en_GB.UTF-8"), PL_LANG_EN);
    assert_int_equal(pl_words_lang_of_locale("de_DE.UTF-8"), PL_LANG_EN);
    assert_int_equal(pl_words_lang_of_locale("C"), PL_LANG_EN);
    assert_int_equal(pl_words_lang_of_locale("C.UTF-8"), PL_LANG_EN);
    assert_int_equal(pl_words_lang_of_locale("POSIX"), PL_LANG_EN);
    assert_int_equal(pl_words_lang_of_locale(""), PL_LANG_EN);
    assert_int_equal(pl_words_lang_of_locale(NULL), PL_LANG_EN);
    assert_int_equal(pl_words_lang_of_locale("jav_ID"), PL_LANG_EN); /* Javanese is not Japanese */
    assert_int_equal(pl_words_lang_of_locale("ja-JP"), PL_LANG_EN);  /* not a POSIX name */
}

/* LC_ALL, else LC_MESSAGES, else LANG: the first set and not empty. */
static void test_unit_words_lang_from_env(void **state)
{
    (void)state;
    env("LC_ALL", NULL);
    env("LC_MESSAGES", NULL);
    env("LANG", NULL);
    assert_int_equal(pl_words_lang_from_env(), PL_LANG_EN);
    env("LANG", "ja_JP.UTF-8");
    assert_int_equal(pl_words_lang_from_env(), PL_LANG_JA);
    env("LC_MESSAGES", "vi_VN.UTF-8");
    assert_int_equal(pl_words_lang_from_env(), PL_LANG_VI);
    env("LC_ALL", "ru_RU.UTF-8");
    assert_int_equal(pl_words_lang_from_env(), PL_LANG_RU);
    env("LC_ALL", "C"); /* set: it wins, even for English */
    assert_int_equal(pl_words_lang_from_env(), PL_LANG_EN);
    env("LC_ALL", ""); /* empty: as if unset */
    assert_int_equal(pl_words_lang_from_env(), PL_LANG_VI);
    env("LC_MESSAGES", "");
    assert_int_equal(pl_words_lang_from_env(), PL_LANG_JA);
    env("LC_ALL", NULL);
    env("LC_MESSAGES", NULL);
    env("LANG", NULL);
}

static void test_unit_words_lang_codes(void **state)
{
    (void)state;
    assert_int_equal(pl_words_lang_parse("en"), PL_LANG_EN);
    assert_int_equal(pl_words_lang_parse("ru"), PL_LANG_RU);
    assert_int_equal(pl_words_lang_parse("JA"), PL_LANG_JA);
    assert_int_equal(pl_words_lang_parse("vi"), PL_LANG_VI);
    assert_int_equal(pl_words_lang_parse("xx"), -1);
    assert_int_equal(pl_words_lang_parse(""), -1);
    assert_int_equal(pl_words_lang_parse("jap"), -1);
    assert_int_equal(pl_words_lang_parse(NULL), -1);
    for (int l = 0; l < PL_LANG_COUNT; l++)
        assert_int_equal(pl_words_lang_parse(pl_words_lang_code((pl_lang)l)), l);
    assert_string_equal(pl_words_lang_list(), "en, ru, ja, vi");
}

/* Appends the placeholders of `text` ("{a}{b}"), sorted, into `out`. */
static void placeholders(const char *text, char *out, size_t cap)
{
    const char *names[32];
    size_t lens[32];
    int n = 0;
    for (const char *p = text; (p = strchr(p, '{')) && n < 32; p++) {
        const char *e = strchr(p, '}');
        if (!e)
            break;
        names[n] = p + 1;
        lens[n++] = (size_t)(e - p - 1);
    }
    for (int i = 1; i < n; i++) /* insertion sort: a few names */
        for (int j = i; j > 0 && strncmp(names[j - 1], names[j], lens[j] > lens[j - 1] ? lens[j] : lens[j - 1]) > 0;
             j--) {
            const char *t = names[j];
            names[j] = names[j - 1];
            names[j - 1] = t;
            size_t l = lens[j];
            lens[j] = lens[j - 1];
            lens[j - 1] = l;
        }
    out[0] = '\0';
    for (int i = 0; i < n; i++)
        snprintf(out + strlen(out), cap - strlen(out), "{%.*s}", (int)lens[i], names[i]);
}

/* True when `text`, less its {placeholders}, has a letter outside ASCII
 * (Cyrillic, kana, kanji) or no letter at all. */
static bool has_own_letters(const char *text)
{
    bool letters = false;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (*p == '{' && strchr((const char *)p, '}')) {
            p = (const unsigned char *)strchr((const char *)p, '}');
            continue;
        }
        if (*p >= 0x80)
            return true;
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'))
            letters = true;
    }
    return !letters;
}

/* True when `text`, less its {placeholders}, has no letter at all, ASCII
 * or not: marks and names only (" ({team}): "). */
static bool no_words(const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (*p == '{' && strchr((const char *)p, '}')) {
            p = (const unsigned char *)strchr((const char *)p, '}');
            continue;
        }
        if (*p >= 0x80 || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'))
            return false;
    }
    return true;
}

/* True when the translation `t` of English `en` in `lang` is not English
 * left as it stands: never the English text itself; in Russian and
 * Japanese, Cyrillic or kana/kanji wherever English has words (Vietnamese
 * may write a short word without a diacritic: "gieo"). */
static bool translated(pl_lang lang, const char *t, const char *en)
{
    if (!strcmp(t, en)) /* the same: only when English has no words (", ") */
        return no_words(en);
    return lang == PL_LANG_VI || has_own_letters(t);
}

/* Every key in all four catalogues, once, with the same placeholders; a
 * translation is not the English text (the same words only where they are
 * keys or names typed as they stand: PgUp). */
static void test_unit_words_catalogues_agree(void **state)
{
    (void)state;
    int n = pl_words_count(PL_LANG_EN);
    assert_true(n > 40);
    assert_true(n < 1024); /* words.c's WORDS_MAX */
    for (int l = 0; l < PL_LANG_COUNT; l++) {
        assert_int_equal(pl_words_count((pl_lang)l), n);
        for (int i = 0; i < n; i++) {
            const char *key = pl_words_key_at((pl_lang)l, i);
            assert_string_equal(key, pl_words_key_at(PL_LANG_EN, i));
            if (i > 0 && !strcmp(key, pl_words_key_at((pl_lang)l, i - 1)))
                fail_msg("%s: key %s twice", pl_words_lang_code((pl_lang)l), key);
            char a[256], b[256];
            placeholders(pl_words_text_at((pl_lang)l, i), a, sizeof a);
            placeholders(pl_words_text_at(PL_LANG_EN, i), b, sizeof b);
            if (strcmp(a, b))
                fail_msg("%s: %s has %s, English %s", pl_words_lang_code((pl_lang)l), key, a, b);
            const char *t = pl_words_text_at((pl_lang)l, i);
            if (l != PL_LANG_EN && strcmp(key, "tui.pgup") && !translated((pl_lang)l, t, pl_words_text_at(PL_LANG_EN, i)))
                fail_msg("%s: %s left in English: \"%s\"", pl_words_lang_code((pl_lang)l), key, t);
        }
    }
    assert_null(pl_words_key_at(PL_LANG_EN, n));
    assert_null(pl_words_key_at(PL_LANG_EN, -1));
}

static void test_unit_words_put(void **state)
{
    (void)state;
    pl_buf b = {0};
    pl_words_put(&b, PL_LANG_EN, "tui.to_act", "seat", "Seat 1 (Light)", "n", "2", NULL);
    assert_string_equal(pl_buf_str(&b), "Seat 1 (Light) to act, 2 legal:");
    pl_buf_clear(&b);
    pl_words_put(&b, PL_LANG_JA, "tui.to_act", "seat", "席1（白）", "n", "2", NULL);
    assert_string_equal(pl_buf_str(&b), "席1（白）の番、2通り:");
    pl_buf_clear(&b);
    pl_words_put(&b, PL_LANG_VI, "tui.to_act", "n", "3", "seat", "Ghế 2", NULL); /* any order */
    assert_string_equal(pl_buf_str(&b), "Lượt của Ghế 2, 3 lựa chọn:");
    pl_buf_clear(&b);
    pl_words_put(&b, PL_LANG_RU, "tui.to_act", "n", "3", NULL); /* a name not given stays */
    assert_string_equal(pl_buf_str(&b), "Ходит {seat}, вариантов 3:");
    pl_buf_clear(&b);
    pl_words_put(&b, PL_LANG_JA, "no.such.key", NULL); /* a bug, but no crash: the key */
    assert_string_equal(pl_buf_str(&b), "no.such.key");
    assert_null(pl_words_find(PL_LANG_JA, "no.such.key"));
    assert_string_equal(pl_words_find(PL_LANG_JA, "seatname.ur.Dark"), "黒");
    assert_string_equal(pl_words((pl_lang)7, "tui.page.log"), "log"); /* out of range: English */
    /* Escapes: a line break, and the help's lines. */
    assert_non_null(strchr(pl_words(PL_LANG_JA, "tui.help.play"), '\n'));
    assert_null(strstr(pl_words(PL_LANG_JA, "tui.help.play"), "\\n"));
    pl_buf_free(&b);
}

/* Display columns: kana and kanji two wide, Vietnamese letters one. */
static void test_unit_words_columns(void **state)
{
    (void)state;
    const char *ja = "席1（白）の番"; /* 席 1 （ 白 ） の 番: 2+1+2+2+2+2+2 */
    assert_int_equal(pl_words_cols(ja, strlen(ja)), 13);
    const char *vi = "Lượt của Ghế 2"; /* precomposed: one column each */
    assert_int_equal(pl_words_cols(vi, strlen(vi)), 14);
    assert_int_equal(pl_words_cols("e\xCC\x81", 3), 1); /* e + a combining acute */
    /* Cut at 3 columns: one kanji (2), never half of the next. */
    assert_int_equal(pl_words_fit("日本語", 3), 3);
    assert_int_equal(pl_words_fit("日本語", 4), 6);
    assert_int_equal(pl_words_fit("日本語", 1), 0);
    assert_int_equal(pl_words_fit("abc", 10), 3);
    assert_int_equal(pl_words_char_len("日"), 3);
    assert_int_equal(pl_words_char_len("\xE6\x97"), 2); /* cut short: the bytes there, as one */
    assert_int_equal(pl_words_char_len("\xE6" "a"), 1);   /* broken: the lead byte alone */
    assert_int_equal(pl_words_char_len(""), 0);
    /* Wrapped: after a blank when there is one, after 、 or 。, else between characters. */
    assert_int_equal(pl_words_wrap("ab cd ef", 6), 6); /* "ab cd " */
    assert_int_equal(pl_words_wrap("まだ手はない。次の手", 16), 21); /* up to 。 (14 columns) */
    assert_int_equal(pl_words_wrap("あいうえおかきくけこ", 7), 9); /* 3 characters, 6 columns */
    assert_int_equal(pl_words_wrap("line\nnext", 80), 4);
}

/* Every catalogue text, wrapped as the screen wraps notes (78 columns of
 * an 80-column terminal), gives lines within 78 columns that end between
 * two characters; the one-line texts (hints, footers) fit whole. */
static void test_unit_words_fit_80_columns(void **state)
{
    (void)state;
    static const char *const one_line[] = {"tui.hint.move", "tui.hint.over", "tui.replay.hint", "tui.page.scroll",
                                           "tui.page.back"};
    for (int l = 0; l < PL_LANG_COUNT; l++) {
        for (int i = 0; i < pl_words_count((pl_lang)l); i++) {
            const char *s = pl_words_text_at((pl_lang)l, i);
            while (*s) {
                size_t len = pl_words_wrap(s, 78);
                assert_true(pl_words_cols(s, len) <= 78);
                /* the cut is at a character's start */
                assert_true(((unsigned char)s[len] & 0xC0) != 0x80);
                s += len;
                while (*s == ' ' || *s == '\n')
                    s++;
            }
        }
        for (size_t k = 0; k < sizeof one_line / sizeof *one_line; k++) {
            const char *t = pl_words((pl_lang)l, one_line[k]);
            if (pl_words_cols(t, strlen(t)) > 78)
                fail_msg("%s: %s is %d columns: \"%s\"", pl_words_lang_code((pl_lang)l), one_line[k],
                         pl_words_cols(t, strlen(t)), t);
        }
    }
}

/* The games' pictures in the player's language (pl_canvas.lang): English
 * (0) is the protocol's `show`, byte for byte (Ur, Tam Cúc, City Behind
 * Walls); in ru/ja/vi no English label
 * is left, and Ur's picture (whose rows do not fold) stays within 80
 * columns, a kana or kanji counted two. */
static void test_unit_words_pictures(void **state)
{
    (void)state;
    static const struct {
        const char *game, *opts, *moves[3], *english[3];
    } cases[] = {
        {"ur", "seed=2 start=light", {"roll 1", "enter", NULL}, {"reserve", "Marks:", "to roll"}},
        {"tamcuc", "seed=2", {NULL}, {"Seat 1", "hand:", "rules:"}},
        {"cbw", "seed=2", {"first red", "9H@0,0", NULL}, {"Seat", "score", "Last card"}},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        pl_match *m = th_new(cases[k].game, cases[k].opts);
        for (int i = 0; cases[k].moves[i]; i++)
            th_play(m, cases[k].moves[i]);
        /* Play on to the first decision, so that hands and the table are drawn. */
        pl_buf err = {0};
        for (int i = 0; i < 40 && m->game->phase(m->state) == PL_PHASE_CHANCE; i++) {
            pl_action a;
            assert_int_equal(pl_match_random(m, &a, &err), 0);
        }
        pl_buf show = {0};
        pl_show(m->game, m->state, 0, &show);
        for (int l = 0; l < PL_LANG_COUNT; l++) {
            pl_canvas c = {.lang = l};
            m->game->draw(m->state, 0, &c);
            pl_buf t = {0};
            pl_canvas_to_text(&c, &t);
            if (l == PL_LANG_EN)
                assert_string_equal(pl_buf_str(&t), pl_buf_str(&show));
            else
                for (int e = 0; e < 3; e++)
                    if (strstr(pl_buf_str(&t), cases[k].english[e]))
                        fail_msg("%s in %s: \"%s\" left in\n%s", cases[k].game, pl_words_lang_code((pl_lang)l),
                                 cases[k].english[e], pl_buf_str(&t));
            if (!strcmp(cases[k].game, "ur"))
                for (const char *line = pl_buf_str(&t); *line;) {
                    size_t n = strcspn(line, "\n");
                    assert_true(pl_words_cols(line, n) <= 80);
                    line += n + (line[n] == '\n');
                }
            pl_buf_free(&t);
            pl_canvas_free(&c);
        }
        pl_buf_free(&show);
        pl_buf_free(&err);
        pl_match_free(m);
    }
}

/* Refusals of illegal moves in the player's language (tell_refusal, the
 * play screen): the game's refusal worded by the catalogue, a variant by
 * its field (Tam Cúc's verb), fields filled (a team, a size by its word),
 * in every language; nothing for a legal move or a game without words. */
static void test_unit_words_refusals(void **state)
{
    (void)state;
    static const struct {
        const char *game, *opts, *move, *typed;
        const char *want[PL_LANG_COUNT]; /* en, ru, ja, vi; NULL: no words */
    } cases[] = {
        {"ur", "seed=2 start=light", "roll 1", "pass",
         {"A move is possible, so one must be made.", "Ход есть, поэтому пропустить нельзя.",
          "動かせる手があるので、動かす必要がある。", "Có nước đi được, nên phải đi."}},
        {"ur", "seed=2 start=light", "roll 1", "B5",
         {"There is no piece on B5.", "На B5 нет фишки.", "B5に駒がない。", "Không có quân nào ở B5."}},
        {"tamcuc", "seed=2", NULL, "lead rG",
         {"It is not your lead now.", "Сейчас не ваш заход.", "今はあなたのリードではない。",
          "Lúc này chưa đến lượt bạn ra bài."}},
        {"tamcuc", "seed=2", NULL, "declare four",
         {"Now Five Soldiers are asked for.", "Сейчас спрашивают о солдатах: пять.", "今は卒5枚の宣言の番。",
          "Lúc này đang hỏi Ngũ tử."}},
        {"cbw", "seed=2", NULL, "9S@0,0",
         {"9S is not your team’s colour: Red plays its own colour.",
          "9S — карта чужого цвета: команда «Красные» играет картами своего цвета.",
          "9Sはあなたのチームの色ではない。赤は自分の色の札を出す。",
          "9S không phải màu của đội bạn: Đỏ chỉ đánh màu của mình."}},
        {"cbw", "seed=2", NULL, "9H@0,0", {NULL, NULL, NULL, NULL}}, /* legal: no refusal */
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        pl_match *m = th_new(cases[k].game, cases[k].opts);
        if (cases[k].move)
            th_play(m, cases[k].move);
        pl_buf err = {0};
        for (int i = 0; i < 40 && m->game->phase(m->state) == PL_PHASE_CHANCE; i++) {
            pl_action a;
            assert_int_equal(pl_match_random(m, &a, &err), 0);
        }
        int seat = pl_sole_actor(m->game, m->state);
        pl_action a;
        if (m->game->parse_action(m->state, seat, cases[k].typed, &a, &err) < 0)
            fail_msg("%s: %s: %s", cases[k].game, cases[k].typed, pl_buf_str(&err));
        for (int l = 0; l < PL_LANG_COUNT; l++) {
            pl_buf t = {0};
            int rc = tell_refusal(m->game, m->state, seat, a, (pl_lang)l, &t);
            if (!cases[k].want[l]) {
                assert_int_equal(rc, -1);
                assert_int_equal(t.len, 0);
            } else if (rc != 0 || strcmp(pl_buf_str(&t), cases[k].want[l])) {
                fail_msg("%s %s in %s: %d \"%s\"", cases[k].game, cases[k].typed, pl_words_lang_code((pl_lang)l), rc,
                         pl_buf_str(&t));
            }
            pl_buf_free(&t);
        }
        pl_buf_free(&err);
        pl_match_free(m);
    }
    /* A game without refusal words (karuta): nothing, the English reason stays. */
    pl_match *m = th_new("karuta", "");
    pl_buf t = {0};
    assert_int_equal(tell_refusal(m->game, m->state, 0, 0, PL_LANG_JA, &t), -1);
    assert_int_equal(t.len, 0);
    pl_buf_free(&t);
    pl_match_free(m);
}

/* Karuta's judgement and statistics in the player's language
 * (karp_options.lang): English keeps its text with the engine's line; in
 * ru/ja/vi every reading of kyōgi, chirashi and uta-karuta is told from the
 * catalogue — no placeholder left, no rule number, no English sentence. */
static void test_unit_words_karuta_judgement(void **state)
{
    (void)state;
    static const char *const own[PL_LANG_COUNT] = {"Poem ", "Стихотворение ", "決まり字", "Bài thơ "};
    static const karp_options modes[] = {
        {.seed = "7", .delay_ms = 400},
        {.seed = "3", .solo = true, .opponents = 2},
        {.seed = "3", .solo = true},
        {.seed = "4", .uta = true},
    };
    for (size_t k = 0; k < sizeof modes / sizeof *modes; k++)
        for (int l = 0; l < PL_LANG_COUNT; l++) {
            karp_options o = modes[k];
            o.lang = l;
            pl_buf err = {0};
            karp *p = karp_new(&o, &err);
            if (!p)
                fail_msg("karp_new: %s", pl_buf_str(&err));
            for (int r = 0; r < 12 && karp_start(p, &err) == 1; r++) {
                if (karp_finish(p, &err) < 0)
                    fail_msg("karp_finish: %s", pl_buf_str(&err));
                while (karp_send_owed(p) > 0)
                    assert_true(karp_send(p, NULL, &err) >= 0);
                const char *j = karp_judgement(p);
                if (!strstr(j, own[l]) || strchr(j, '{') || (l != PL_LANG_EN) == !!strstr(j, "Engine: ") ||
                    (l != PL_LANG_EN && (strstr(j, "KA-") || strstr(j, " it") || strstr(j, "took"))))
                    fail_msg("mode %zu, %s: \"%s\"", k, pl_words_lang_code((pl_lang)l), j);
            }
            const char *st = karp_stats(p);
            if (strchr(st, '{') || (l != PL_LANG_EN && (strstr(st, "Take times") || strstr(st, "fouls") ||
                                                        strstr(st, "You ") || strstr(st, "KA-"))))
                fail_msg("mode %zu, %s: stats \"%s\"", k, pl_words_lang_code((pl_lang)l), st);
            pl_buf_free(&err);
            karp_free(p);
        }
}

/* The play screen's legal list (menu.h): in English the game's own text,
 * byte for byte (pl_format_action_long); in ru/ja/vi the notation to type,
 * then what the move does in the catalogue's words (act.*). */
static void test_unit_words_menu(void **state)
{
    (void)state;
    static const struct {
        const char *game, *opts, *move, *typed;
        const char *want[PL_LANG_COUNT]; /* en, ru, ja, vi */
    } cases[] = {
        {"ur", "seed=2 start=light", "roll 1", "enter",
         {"enter → A4", "enter: новая фишка → A4", "enter：新しい駒 → A4", "enter: quân mới → A4"}},
        /* NULL: the seat's first legal action (the deal's declaration) */
        {"tamcuc", "seed=2", NULL, NULL,
         {"nodeclare", "nodeclare: не объявлять", "nodeclare：宣言しない", "nodeclare: không trình làng"}},
        {"cbw", "seed=2", NULL, "9H@0,0",
         {"9H@0,0", "9H@0,0: 9H на 0,0", "9H@0,0：9Hを0,0に置く", "9H@0,0: đặt 9H vào 0,0"}},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        pl_match *m = th_new(cases[k].game, cases[k].opts);
        if (cases[k].move)
            th_play(m, cases[k].move);
        pl_buf err = {0};
        for (int i = 0; i < 40 && m->game->phase(m->state) == PL_PHASE_CHANCE; i++) {
            pl_action a;
            assert_int_equal(pl_match_random(m, &a, &err), 0);
        }
        int seat = pl_sole_actor(m->game, m->state);
        pl_action a = 0;
        if (!cases[k].typed)
            assert_true(m->game->legal(m->state, seat, &a, 1) > 0);
        else if (m->game->parse_action(m->state, seat, cases[k].typed, &a, &err) < 0)
            fail_msg("%s: %s: %s", cases[k].game, cases[k].typed, pl_buf_str(&err));
        assert_int_equal(pl_check(m->game, m->state, seat, a, &err), 0); /* a legal move of the list */
        for (int l = 0; l < PL_LANG_COUNT; l++) {
            pl_buf t = {0};
            menu_item(m->game, m->state, seat, a, (pl_lang)l, &t);
            if (strcmp(pl_buf_str(&t), cases[k].want[l]))
                fail_msg("%s %s in %s: \"%s\"", cases[k].game, cases[k].typed ? cases[k].typed : "(first)",
                         pl_words_lang_code((pl_lang)l), pl_buf_str(&t));
            pl_buf_free(&t);
        }
        pl_buf_free(&err);
        pl_match_free(m);
    }
}

/* The rules page's summary (menu_summary): every game in every language,
 * the browser's sentences for the options in force — Ur's die, Tam Cúc's
 * two-player score only with two players, karuta's sections of its
 * variant only; no {name} left. */
static void test_unit_words_rules_summary(void **state)
{
    (void)state;
    static const struct {
        const char *game, *opts;
        pl_lang lang;
        const char *has, *lacks;
    } cases[] = {
        {"ur", "", PL_LANG_JA, "投げ棒を3本投げる。", "四面さいころ"},
        {"ur", "dice=d4", PL_LANG_JA, "- 四面さいころを1個振る。", "投げ棒を3本投げる。"},
        {"ur", "pieces=5", PL_LANG_RU, "5", "{v}"},
        {"tamcuc", "players=2", PL_LANG_JA, "2人：自分と相手の取った札の差。", "1人8枚"},
        {"tamcuc", "players=4", PL_LANG_VI, "Bộ bài", "{"},
        {"tamcuc", "players=4", PL_LANG_JA, "4人、1人8枚。", "2人：自分と相手の取った札の差。"},
        {"karuta", "variant=uta", PL_LANG_JA, "目的：うたがるた（4人）\n", "目的：競技かるた"},
        {"karuta", "", PL_LANG_JA, "目的：競技かるた（2人）\n", "うたがるた（4人）"},
        {"cbw", "players=6", PL_LANG_VI, "\n- ", "{"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        pl_match *m = th_new(cases[k].game, cases[k].opts);
        pl_buf t = {0};
        assert_int_equal(menu_summary(m->game, &m->opts, cases[k].lang, &t), 0);
        if (!strstr(pl_buf_str(&t), cases[k].has) || strstr(pl_buf_str(&t), cases[k].lacks))
            fail_msg("%s %s in %s: has \"%s\", lacks \"%s\"? %s", cases[k].game, cases[k].opts,
                     pl_words_lang_code(cases[k].lang), cases[k].has, cases[k].lacks, pl_buf_str(&t));
        pl_buf_free(&t);
        for (int l = 0; l < PL_LANG_COUNT; l++) { /* every language has one, without a placeholder */
            assert_int_equal(menu_summary(m->game, &m->opts, (pl_lang)l, &t), 0);
            assert_null(strchr(pl_buf_str(&t), '{'));
            assert_true(t.len > 200);
            pl_buf_free(&t);
        }
        pl_match_free(m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unit_words_lang_of_locale), cmocka_unit_test(test_unit_words_lang_from_env),
        cmocka_unit_test(test_unit_words_lang_codes),     cmocka_unit_test(test_unit_words_catalogues_agree),
        cmocka_unit_test(test_unit_words_put),            cmocka_unit_test(test_unit_words_columns),
        cmocka_unit_test(test_unit_words_fit_80_columns), cmocka_unit_test(test_unit_words_pictures),
        cmocka_unit_test(test_unit_words_refusals),
        cmocka_unit_test(test_unit_words_karuta_judgement),
        cmocka_unit_test(test_unit_words_menu),
        cmocka_unit_test(test_unit_words_rules_summary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
