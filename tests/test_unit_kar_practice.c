/* test_unit_kar_practice.c — the karuta practice API
 * (src/games/karuta/public/kar_practice.h) used as a front end uses it, with
 * no other karuta header: the reading timeline (KA-R5), the opponent's delay
 * and the touch window (KA-R7), touches by slot label, refusals with clear
 * messages, the judgement text (KA-R7 .. KA-R9, KA-R16), the field's cells,
 * the statistics, solo practice (KA-S5) and the kimariji queries (KA-K2,
 * KA-K3). Seed 7 (kyōgi) reads 39 (dead), 84 (dead), 40 (ours), 14, 79, 29
 * first, as in tests/practice/karuta_kyogi.script. */
#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "games/karuta/kar.h" /* kar_timeline: the tempo=even check */
#include "games/karuta/public/kar_practice.h"
#include "parlour/alloc.h"
#include "parlour/canvas.h"
#include "parlour/match.h"
#include "parlour/registry.h"

/* A session with `seed`, `delay_ms`, solo or not, and game options `opts`
 * (space separated, may be NULL); fails the test on error. */
static karp *new_session(const char *seed, int delay_ms, bool solo, const char *opts)
{
    char buf[256] = "", *words[16];
    int n = 0;
    if (opts) {
        snprintf(buf, sizeof buf, "%s", opts);
        for (char *save = NULL, *t = strtok_r(buf, " ", &save); t && n < 16; t = strtok_r(NULL, " ", &save))
            words[n++] = t;
    }
    karp_options o = {.solo = solo, .seed = seed, .delay_ms = delay_ms, .nwords = n, .words = words};
    pl_buf err = {0};
    karp *p = karp_new(&o, &err);
    if (!p)
        fail_msg("karp_new: %s", pl_buf_str(&err));
    pl_buf_free(&err);
    return p;
}

/* Starts the next reading; fails the test unless one opens. */
static void start(karp *p)
{
    pl_buf err = {0};
    int r = karp_start(p, &err);
    if (r != 1)
        fail_msg("karp_start gave %d: %s", r, pl_buf_str(&err));
    pl_buf_free(&err);
}

static void finish(karp *p)
{
    pl_buf err = {0};
    if (karp_finish(p, &err) < 0)
        fail_msg("karp_finish: %s", pl_buf_str(&err));
    pl_buf_free(&err);
}

/* karp_touch with a message; the message is kept in a static buffer. */
static const char *touch_msg;
static int touch(karp *p, const char *label, int ms)
{
    static char msg[256];
    pl_buf err = {0};
    int r = karp_touch(p, label, ms, &err);
    snprintf(msg, sizeof msg, "%s", pl_buf_str(&err));
    pl_buf_free(&err);
    touch_msg = msg;
    return r;
}

static void test_KA_R5_timeline_reveals_kana_over_time(void **st)
{
    (void)st;
    karp *p = new_session("7", 400, false, NULL);
    assert_int_equal(karp_card(p), 0);
    start(p);
    assert_int_equal(karp_card(p), 39);
    int n = karp_kana_count(p);
    assert_true(n >= 5);
    /* the first kana starts at 0; each later one strictly later */
    assert_int_equal(karp_kana_start_ms(p, 0), 0);
    for (int i = 1; i < n; i++)
        assert_true(karp_kana_start_ms(p, i) > karp_kana_start_ms(p, i - 1));
    /* at t ms exactly the kana started by t are shown */
    assert_int_equal(karp_kana_shown(p, -1), 0);
    assert_int_equal(karp_kana_shown(p, 0), 1);
    for (int i = 1; i < n; i++) {
        assert_int_equal(karp_kana_shown(p, karp_kana_start_ms(p, i) - 1), i);
        assert_int_equal(karp_kana_shown(p, karp_kana_start_ms(p, i)), i + 1);
    }
    assert_int_equal(karp_kana_shown(p, 100000), n);
    /* the kana are the sound key's: 39's kimariji あさじ, deciding kana (the 3rd) at 500 ms */
    char first[32] = "";
    for (int i = 0; i < 3; i++)
        strcat(first, karp_kana(p, i));
    assert_string_equal(first, "あさじ");
    assert_int_equal(karp_decide_ms(p), 500);
    assert_int_equal(karp_kana_start_ms(p, 2), 500);
    assert_string_equal(karp_kana(p, n), "");
    assert_int_equal(karp_kana_start_ms(p, -1), -1);
    /* the upper half is read over upper_ms (6000 by default); a dead card: no
     * opponent, the window closes KARP_GRACE_MS after the reading */
    assert_int_equal(karp_reading_end_ms(p), 6000);
    assert_true(karp_kana_start_ms(p, n - 1) < 6000);
    assert_int_equal(karp_ai_ms(p), -1);
    assert_int_equal(karp_deadline_ms(p), 6000 + KARP_GRACE_MS);
    karp_free(p);

    p = new_session("7", 400, false, "upper_ms=4000");
    start(p);
    assert_int_equal(karp_reading_end_ms(p), 4000);
    karp_free(p);
}

static void test_KA_S2_solo_reads_the_whole_poem(void **st)
{
    (void)st;
    karp *p = new_session("3", 0, true, "cards=50 upper_ms=5000 lower_ms=3000");
    start(p);
    /* both halves: the lower half from upper_ms to upper_ms + lower_ms */
    assert_int_equal(karp_reading_end_ms(p), 8000);
    int n = karp_kana_count(p), lower = 0;
    for (int i = 0; i < n; i++)
        lower += karp_kana_start_ms(p, i) >= 5000;
    assert_true(lower > 0 && lower < n);
    assert_int_equal(karp_ai_ms(p), -1);
    assert_int_equal(karp_deadline_ms(p), 8000 + KARP_GRACE_MS);
    karp_free(p);
}

static void test_KA_R7_ai_delay_within_documented_range(void **st)
{
    (void)st;
    static const int delays[] = {0, 1, 400, 2500, KARP_DELAY_MAX};
    for (size_t d = 0; d < sizeof delays / sizeof *delays; d++) {
        karp *p = new_session("11", delays[d], false, "tie_ms=30");
        for (int r = 0; r < 40 && !karp_done(p); r++) {
            start(p);
            char lab[KARP_LABEL];
            bool on_field = karp_label(p, karp_card(p), lab);
            int ai = karp_ai_ms(p), decide = karp_decide_ms(p), end = karp_reading_end_ms(p);
            if (!on_field) { /* a dead card: the opponent leaves it alone */
                assert_int_equal(ai, -1);
                assert_int_equal(karp_deadline_ms(p), end + KARP_GRACE_MS);
            } else {
                int want = decide + delays[d] > KARP_MS_MAX ? KARP_MS_MAX : decide + delays[d];
                assert_int_equal(ai, want);
                assert_true(ai >= decide && ai <= decide + delays[d]);
                int dl = ai + 30 + 1 < end + KARP_GRACE_MS ? ai + 30 + 1 : end + KARP_GRACE_MS;
                assert_int_equal(karp_deadline_ms(p), dl > KARP_MS_MAX ? KARP_MS_MAX : dl);
            }
            finish(p);
        }
        karp_free(p);
    }
}

static void test_KA_R7_touch_by_label_takes_the_card(void **st)
{
    (void)st;
    karp *p = new_session("7", 400, false, NULL);
    start(p); /* 39, dead */
    finish(p);
    start(p); /* 84, dead */
    finish(p);
    karp_status s0;
    karp_get_status(p, &s0);
    start(p);
    assert_int_equal(karp_card(p), 40);
    assert_int_equal(karp_decide_ms(p), 240);
    assert_int_equal(karp_ai_ms(p), 640);
    char lab[KARP_LABEL];
    assert_true(karp_label(p, 40, lab));
    assert_true(lab[0] >= 'A' && lab[0] <= 'C'); /* our territory */
    assert_int_equal(karp_card_at(p, lab), 40);
    lab[0] = (char)(lab[0] - 'A' + 'a'); /* the letter in either case */
    assert_int_equal(touch(p, lab, 340), 1); /* the read card: the turn is over */
    assert_int_equal(karp_touch_count(p), 1);
    char shown[KARP_LABEL];
    assert_int_equal(karp_touch_get(p, 0, shown), 340);
    lab[0] = (char)(lab[0] - 'a' + 'A');
    assert_string_equal(shown, lab);
    char want_label[KARP_LABEL];
    memcpy(want_label, lab, KARP_LABEL);
    finish(p);
    assert_string_equal(karp_judgement(p),
                        "3. Poem 40, kimariji しの (2 kana, deciding kana at 240 ms). You took it from your "
                        "territory: 340 ms against 640 ms (KA-R7).\nEngine: Poem 40 (territory of 0), kimariji 2 "
                        "kana \"しの\" from 240 ms, territory kimariji 2 \"しの\" from 240 ms. Seat 0: touch 40@340; "
                        "Seat 1: touch 40@640; seat 0 took it at 340 ms.");
    karp_status s1;
    karp_get_status(p, &s1);
    assert_int_equal(s1.nread, 3);
    assert_int_equal(s1.count[0], s0.count[0] - 1);
    assert_int_equal(s1.count[1], s0.count[1]);
    assert_false(karp_label(p, 40, lab)); /* taken: off the field */
    assert_int_equal(karp_touch_get(p, 0, shown), 340);
    assert_string_equal(shown, want_label); /* the label it lay at when touched, not "?" */
    const char *stats = karp_stats(p);
    assert_non_null(strstr(stats, "Take times (ms after the deciding kana), 3 readings:\n"));
    assert_non_null(strstr(stats, "You took 1: mean +100 ms, median +100 ms.\n"));
    assert_non_null(strstr(stats, "The AI took 0. Your fouls: 0."));
    karp_free(p);
}

static void test_touch_refused_with_clear_errors(void **st)
{
    (void)st;
    karp *p = new_session("7", 400, false, NULL);
    assert_int_equal(touch(p, "A01", 10), -1);
    assert_non_null(strstr(touch_msg, "no reading is open"));
    start(p);
    static const char *const bad[] = {"Z99", "A1", "A001", "", "5A", "G01", "A18", "A00"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(touch(p, bad[i], 100), -1);
        assert_true(strstr(touch_msg, "not a slot label") || strstr(touch_msg, "is not on the field"));
        assert_int_equal(karp_card_at(p, bad[i]), 0);
    }
    assert_int_equal(touch(p, "Z99", 100), -1);
    assert_string_equal(touch_msg, "Z99 is not on the field (rows A-F, slots 01-17)");
    assert_int_equal(touch(p, "A1", 100), -1);
    assert_string_equal(touch_msg, "'A1' is not a slot label (a letter and two digits, e.g. A05; rows A-F, slots 01-17)");
    assert_int_equal(touch(p, NULL, 100), -1);
    /* an empty slot (102 slots, 50 cards) */
    int empty = 0;
    char lab[KARP_LABEL];
    for (int k = 0; k < 6 * 17 && !empty; k++) {
        snprintf(lab, sizeof lab, "%c%02d", 'A' + k / 17, k % 17 + 1);
        empty = karp_card_at(p, lab) == 0;
    }
    assert_true(empty);
    assert_int_equal(touch(p, lab, 100), -1);
    char want[64];
    snprintf(want, sizeof want, "no card lies at %s", lab);
    assert_string_equal(touch_msg, want);
    assert_int_equal(karp_touch_count(p), 0); /* nothing recorded */

    int w = karp_wrong_card(p);
    assert_true(w > 0 && w != karp_card(p));
    assert_true(karp_label(p, w, lab));
    assert_int_equal(touch(p, lab, -5), -1);
    assert_non_null(strstr(touch_msg, "got -5"));
    assert_int_equal(touch(p, lab, 100), 0);
    assert_int_equal(touch(p, lab, 120), -1);
    snprintf(want, sizeof want, "%s is touched already", lab);
    assert_string_equal(touch_msg, want);
    assert_int_equal(karp_touch_count(p), 1);
    /* two more wrong cards end the turn (KARP_MAXTOUCH) */
    int n = 1;
    for (int row = 'A'; row <= 'F' && n < KARP_MAXTOUCH; row++)
        for (int k = 1; k <= 17 && n < KARP_MAXTOUCH; k++) {
            snprintf(lab, sizeof lab, "%c%02d", row, k);
            int c = karp_card_at(p, lab);
            if (c && c != w) {
                int r = touch(p, lab, 200 + n);
                n++;
                assert_int_equal(r, n == KARP_MAXTOUCH);
            }
        }
    assert_int_equal(touch(p, "A01", 300), -1);
    assert_non_null(strstr(touch_msg, "your turn is over"));
    /* a touch past KARP_MS_MAX counts at KARP_MS_MAX: checked on a fresh reading */
    finish(p);
    pl_buf err = {0};
    assert_int_equal(karp_finish(p, &err), -1);
    assert_string_equal(pl_buf_str(&err), "no reading is open");
    pl_buf_free(&err);
    start(p);
    assert_int_equal(karp_start(p, &err), -1);
    assert_string_equal(pl_buf_str(&err), "a reading is open: finish it first");
    pl_buf_free(&err);
    assert_true(karp_label(p, karp_wrong_card(p), lab));
    assert_int_equal(touch(p, lab, 99999), 0);
    char shown[KARP_LABEL];
    assert_int_equal(karp_touch_get(p, 0, shown), KARP_MS_MAX);
    assert_int_equal(karp_touch_get(p, 1, shown), -1);
    assert_string_equal(shown, "");
    finish(p);
    karp_free(p);
}

static void test_KA_R8_R9_judgement_text_foul_and_send(void **st)
{
    (void)st;
    karp *p = new_session("7", 400, false, NULL);
    assert_string_equal(karp_judgement(p), "");
    start(p);
    finish(p);
    assert_string_equal(karp_judgement(p),
                        "1. Poem 39, kimariji あさじ (3 kana, deciding kana at 500 ms). It was a dead card "
                        "(karafuda): nobody could take it.\nEngine: Poem 39 (dead), kimariji 3 kana \"あさじ\" "
                        "from 500 ms. Seat 0: none; Seat 1: none; nobody took it.");
    start(p);
    char lab[KARP_LABEL];
    assert_true(karp_label(p, karp_wrong_card(p), lab));
    assert_true(lab[0] >= 'D'); /* 84 is dead: a touch in the opponent's territory */
    assert_int_equal(touch(p, lab, 100), 0);
    finish(p);
    assert_string_equal(karp_judgement(p),
                        "2. Poem 84, kimariji ながら (3 kana, deciding kana at 500 ms). It was a dead card "
                        "(karafuda): nobody could take it. You made 1 foul: a touch in a territory without the "
                        "card (KA-R8). The AI sends you 1 card: poem 1 (KA-R9).\nEngine: Poem 84 (dead), kimariji "
                        "3 kana \"ながら\" from 500 ms. Seat 0: touch 1@100 (foul); Seat 1: none; nobody took it. "
                        "Seat 1 owes seat 0 1 card and sent 1.");
    karp_free(p);
}

static void test_KA_S5_solo_field_cells_and_labels(void **st)
{
    (void)st;
    karp *p = new_session("3", 0, true, "cards=50");
    assert_true(karp_solo(p));
    assert_int_equal(karp_zones(p), 1);
    int rows, cols;
    assert_int_equal(karp_zone_size(p, 0, &rows, &cols), 0);
    assert_int_equal(rows * 100 + cols, 520);
    assert_int_equal(karp_zone_size(p, 1, &rows, &cols), -1);
    int ncards = 0, last = 0;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            karp_cell cell;
            assert_int_equal(karp_cell_get(p, 0, r, c, &cell), 0);
            if (cell.kind == KARP_CELL_NONE)
                continue;
            assert_int_equal(cell.kind, KARP_CELL_CARD);
            assert_true(cell.card > last); /* poem order */
            last = cell.card;
            char want[16];
            snprintf(want, sizeof want, "%c%02d", 'A' + r, c + 1);
            assert_string_equal(cell.label, want);
            assert_int_equal(cell.owner, -1);
            assert_int_equal(karp_card_at(p, want), cell.card);
            char whole[96];
            karp_card_head(cell.card, 0, whole, sizeof whole);
            assert_int_equal(strncmp(cell.head, whole, strlen(cell.head)), 0);
            ncards++;
        }
    assert_int_equal(ncards, 50);
    karp_cell cell = {.kind = 99};
    assert_int_equal(karp_cell_get(p, 0, 5, 0, &cell), -1);
    assert_int_equal(cell.kind, 99); /* unchanged */
    /* seed 3 reads 95, 85, 64 (not on the field), then 48: taken at once */
    for (int i = 0; i < 3; i++) {
        start(p);
        finish(p);
    }
    start(p);
    int card = karp_card(p);
    char lab[KARP_LABEL];
    assert_true(karp_label(p, card, lab));
    assert_int_equal(touch(p, lab, karp_decide_ms(p) + 250), 1);
    finish(p);
    assert_non_null(strstr(karp_judgement(p), "You took it at "));
    assert_non_null(strstr(karp_judgement(p), ", +250 ms after the deciding kana."));
    /* the card left: its cell is now an empty place */
    karp_cell gone;
    assert_int_equal(karp_cell_get(p, 0, (lab[0] - 'A'), (lab[1] - '0') * 10 + lab[2] - '0' - 1, &gone), 0);
    assert_int_equal(gone.kind, KARP_CELL_EMPTY);
    karp_status s;
    karp_get_status(p, &s);
    assert_int_equal(s.count[0], 1);
    assert_non_null(strstr(karp_stats(p), "Your fouls: 0. Taken: 1, in the pot: 0.\n"));
    karp_free(p);
}

static void test_kyogi_cells_seen_from_seat_0(void **st)
{
    (void)st;
    karp *p = new_session("7", 400, false, NULL);
    assert_int_equal(karp_zones(p), 2);
    int total = 0;
    for (int z = 0; z < 2; z++) {
        int rows, cols;
        assert_int_equal(karp_zone_size(p, z, &rows, &cols), 0);
        assert_int_equal(rows * 100 + cols, 317);
        for (int r = 0; r < rows; r++)
            for (int c = 0; c < cols; c++) {
                karp_cell cell;
                assert_int_equal(karp_cell_get(p, z, r, c, &cell), 0);
                assert_true(cell.kind != KARP_CELL_NONE);
                if (cell.kind == KARP_CELL_EMPTY) {
                    assert_int_equal(cell.card, 0);
                    assert_string_equal(cell.label, "");
                    continue;
                }
                /* yours: row A (near you) at the bottom, slots left to right;
                 * the opponent's: row D (near it) at the top, slots mirrored */
                char want[16];
                if (z == 0)
                    snprintf(want, sizeof want, "%c%02d", 'A' + 2 - r, c + 1);
                else
                    snprintf(want, sizeof want, "%c%02d", 'D' + r, 17 - c);
                assert_string_equal(cell.label, want);
                assert_int_equal(cell.owner, z);
                assert_int_equal(karp_card_at(p, want), cell.card);
                char lab[KARP_LABEL];
                assert_true(karp_label(p, cell.card, lab));
                assert_string_equal(lab, want);
                assert_true(strlen(cell.head) > 0);
                total++;
            }
    }
    karp_status s;
    karp_get_status(p, &s);
    assert_int_equal(total, s.count[0] + s.count[1]);
    assert_int_equal(s.count[0], 25);
    assert_int_equal(s.count[1], 25);
    assert_false(s.over);
    karp_free(p);
}

static void test_options_refused_and_reading_limit(void **st)
{
    (void)st;
    char *uta[] = {"variant=uta"}, *seed[] = {"seed=4"}, *badopt[] = {"tie_ms=abc"};
    struct {
        karp_options o;
        const char *msg;
    } cases[] = {
        {{.delay_ms = KARP_DELAY_MAX + 1}, "the opponent's delay wants 0-10000 ms, got 10001"},
        {{.delay_ms = -1}, "the opponent's delay wants 0-10000 ms, got -1"},
        {{.readings = 101}, "the number of readings wants 1-100 (0: to the end), got 101"},
        {{.nwords = 1, .words = uta}, "variant=uta is set by the practice (use --seed for the seed)"},
        {{.nwords = 1, .words = seed}, "seed=4 is set by the practice (use --seed for the seed)"},
        {{.nwords = 1, .words = badopt}, "tie_ms"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        pl_buf err = {0};
        assert_null(karp_new(&cases[i].o, &err));
        assert_non_null(strstr(pl_buf_str(&err), cases[i].msg));
        pl_buf_free(&err);
    }
    karp_free(NULL);

    karp_options o = {.seed = "7", .delay_ms = 400, .readings = 2};
    pl_buf err = {0};
    karp *p = karp_new(&o, &err);
    assert_non_null(p);
    assert_int_equal(karp_seed(p), 7);
    assert_int_equal(karp_delay_ms(p), 400);
    assert_int_equal(karp_pause_ms(p), 1000);
    for (int i = 0; i < 2; i++) {
        assert_false(karp_done(p));
        start(p);
        finish(p);
    }
    assert_true(karp_done(p));
    assert_int_equal(karp_start(p, &err), 0);
    assert_string_equal(pl_buf_str(&err), "");
    karp_free(p);
    pl_buf_free(&err);
}

static void test_karp_new_each_allocation_failing(void **st)
{
    (void)st;
    karp_options o = {.seed = "7", .delay_ms = 400};
    for (long n = 0; n < 64; n++) {
        pl_buf err = {0};
        pl_alloc_fail_after(n);
        karp *p = karp_new(&o, &err);
        pl_alloc_fail_after(-1);
        if (p) {
            karp_free(p);
            pl_buf_free(&err);
            return; /* every earlier failure was reported; nothing leaked (ASan) */
        }
        pl_buf_free(&err);
    }
    fail_msg("karp_new never succeeded");
}

/* Every reading of a match tried first with no memory at all: karp_start and
 * karp_finish either succeed or fail with a message and leave the session as
 * it was, and the session goes on. (The match's history grows now and then,
 * so some of them fail.) */
static void test_readings_without_memory(void **st)
{
    (void)st;
    karp *p = new_session("7", 400, false, NULL);
    pl_buf err = {0};
    int failed = 0;
    while (!karp_done(p)) {
        karp_status before, after;
        karp_get_status(p, &before);
        pl_buf_free(&err);
        pl_alloc_fail_after(0);
        int r = karp_start(p, &err);
        pl_alloc_fail_after(-1);
        if (r < 0) {
            failed++;
            karp_get_status(p, &after);
            assert_int_equal(after.nread, before.nread);
            start(p);
        }
        char lab[KARP_LABEL];
        if (karp_label(p, karp_card(p), lab))
            assert_int_equal(touch(p, lab, karp_decide_ms(p) + 100), 1);
        pl_buf_free(&err);
        pl_alloc_fail_after(0);
        r = karp_finish(p, &err);
        pl_alloc_fail_after(-1);
        while (r == 0 && karp_send_owed(p) > 0) {
            pl_buf e2 = {0};
            assert_true(karp_send(p, NULL, &e2) >= 0);
            pl_buf_free(&e2);
        }
        if (r < 0) {
            failed++;
            assert_true(err.len > 0 || err.oom);
            karp_get_status(p, &after);
            assert_int_equal(after.count[0], before.count[0]);
            assert_int_equal(after.count[1], before.count[1]);
            finish(p); /* the reading was still open */
        }
    }
    assert_true(failed > 0);
    karp_status s;
    karp_get_status(p, &s);
    assert_true(s.over);
    assert_int_equal(s.winner, 0); /* every card of ours taken 100 ms after its deciding kana */
    assert_non_null(strstr(karp_stats(p), "You win: your territory is empty.\n"));
    pl_buf_free(&err);
    karp_free(p);
}

static void test_KA_K2_K3_kimariji_queries(void **st)
{
    (void)st;
    int dist[KARP_DEPTH + 1] = {0};
    for (int n = 1; n <= KARP_NPOEMS; n++)
        dist[karp_kim_static(n)]++;
    static const int want[KARP_DEPTH + 1] = {0, 7, 42, 37, 6, 2, 6};
    for (int d = 0; d <= KARP_DEPTH; d++)
        assert_int_equal(dist[d], want[d]);
    assert_int_equal(karp_kim_static(0), 0);
    assert_int_equal(karp_kim_static(101), 0);
    assert_null(karp_poem_poet(0));
    assert_null(karp_poem_romaji(101));
    assert_null(karp_card_text(-3));
    assert_string_equal(karp_poem_poet(1), "天智天皇");
    assert_string_equal(karp_card_text(1), "わかころも てはつゆに ぬれつつ");
    pl_buf b = {0};
    karp_poem_key(39, 3, &b);
    karp_poem_key(500, 3, &b); /* nothing */
    assert_string_equal(pl_buf_str(&b), "あさじ");
    pl_buf_free(&b);

    karp_kim *k = karp_kim_new();
    assert_non_null(k);
    /* KA-K3: いま (21) and いまは (63): once 21 is read, いまは shortens */
    int before = karp_kim_dynamic(k, 63);
    assert_false(karp_kim_is_read(k, 21));
    assert_int_equal(karp_kim_read(k, 21), 0);
    assert_int_equal(karp_kim_read(k, 21), 0);
    assert_true(karp_kim_is_read(k, 21));
    assert_true(karp_kim_dynamic(k, 63) <= before);
    for (int n = 1; n <= KARP_NPOEMS; n++) {
        assert_true(karp_kim_dynamic(k, n) >= 1);
        assert_true(karp_kim_dynamic(k, n) <= karp_kim_static(n));
    }
    assert_int_equal(karp_kim_read(k, 0), -1);
    assert_int_equal(karp_kim_read(k, 101), -1);
    assert_false(karp_kim_is_read(k, 101));
    assert_int_equal(karp_kim_dynamic(k, 0), 0);
    karp_kim_free(k);
    karp_kim_free(NULL);
}

/* KA-R5: before each upper half the previous poem's lower half is read (its
 * last kana held yoin_ms), then the pause; before the first only the pause.
 * The kana are shown as read: no hold marks (ー, ｰ). */
static void test_KA_R5_prelude_lower_half_then_pause(void **st)
{
    (void)st;
    karp *p = new_session("7", 400, false, NULL);
    start(p); /* 39 */
    assert_int_equal(karp_prelude_ms(p), 1000);
    assert_int_equal(karp_prelude_count(p), 0);
    assert_string_equal(karp_prelude_kana(p, 0), "");
    for (int i = 0; i < karp_kana_count(p); i++) {
        assert_string_not_equal(karp_kana(p, i), "ー");
        assert_string_not_equal(karp_kana(p, i), "ｰ");
    }
    finish(p);
    start(p); /* 84, after 39 */
    assert_int_equal(karp_prelude_ms(p), 5000 + 3000 + 1000);
    char heard[256] = "";
    int last = -1;
    for (int i = 0; i < karp_prelude_count(p); i++) {
        assert_true(karp_prelude_start_ms(p, i) > last);
        assert_true(karp_prelude_start_ms(p, i) < 5000);
        last = karp_prelude_start_ms(p, i);
        strcat(heard, karp_prelude_kana(p, i));
    }
    assert_int_equal(karp_prelude_start_ms(p, 0), 0);
    assert_int_equal(karp_prelude_start_ms(p, karp_prelude_count(p)), -1);
    assert_string_equal(heard, "あまりてなどかひとのこいしき"); /* 39's lower half, the marks dropped */
    finish(p);
    karp_free(p);
    p = new_session("3", 0, true, "cards=50 pause_ms=700"); /* chirashi reads whole poems: only the pause */
    start(p);
    finish(p);
    start(p);
    assert_int_equal(karp_prelude_ms(p), 700);
    assert_int_equal(karp_prelude_count(p), 0);
    karp_free(p);
}

/* KA-R3: the memorisation time is the option memo_s (15 minutes unless set). */
static void test_KA_R3_memorisation_time(void **st)
{
    (void)st;
    karp *p = new_session("7", 400, false, NULL);
    assert_int_equal(karp_memo_s(p), 900);
    karp_free(p);
    p = new_session("7", 400, false, "memo_s=45");
    assert_int_equal(karp_memo_s(p), 45);
    karp_free(p);
}

/* KA-R9: the player who takes from the other territory chooses the card he
 * sends; refusals leave the debt and the field as they were. */
static void test_KA_R9_player_chooses_the_card_to_send(void **st)
{
    (void)st;
    karp *p = new_session("7", 400, false, NULL);
    char lab[KARP_LABEL];
    for (int i = 0; i < 5; i++) { /* 39, 84, 40 (ours: taken), 14, 79 */
        start(p);
        if (karp_card(p) == 40 && karp_label(p, 40, lab))
            touch(p, lab, karp_decide_ms(p) + 50);
        finish(p);
        assert_int_equal(karp_send_owed(p), 0);
    }
    start(p);
    assert_int_equal(karp_card(p), 29);
    assert_true(karp_label(p, 29, lab));
    assert_true(lab[0] >= 'D'); /* the AI's */
    assert_int_equal(touch(p, lab, karp_decide_ms(p) + 50), 1);
    finish(p);
    assert_int_equal(karp_send_owed(p), 1);
    assert_non_null(strstr(karp_judgement(p), "You owe the AI 1 card: choose it from your territory (KA-R9)"));
    pl_buf err = {0};
    assert_int_equal(karp_start(p, &err), -1); /* not before the send */
    assert_non_null(strstr(pl_buf_str(&err), "send them first"));
    pl_buf_clear(&err);
    karp_status before, after;
    karp_get_status(p, &before);
    char theirs[KARP_LABEL];
    karp_cell cell;
    assert_int_equal(karp_cell_get(p, 1, 0, 0, &cell), 0); /* some card of the AI's */
    int c1 = 0;
    for (int col = 0; col < 17 && !c1; col++)
        for (int row = 0; row < 3 && !c1; row++)
            if (karp_cell_get(p, 1, row, col, &cell) == 0 && cell.kind == KARP_CELL_CARD)
                c1 = cell.card;
    assert_true(karp_label(p, c1, theirs));
    assert_int_equal(karp_send(p, theirs, &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "is not yours"));
    pl_buf_clear(&err);
    assert_int_equal(karp_send(p, "Z99", &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "no card lies at Z99"));
    pl_buf_clear(&err);
    assert_int_equal(karp_send(p, "A5", &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "not a slot label"));
    pl_buf_clear(&err);
    karp_get_status(p, &after);
    assert_int_equal(after.count[0], before.count[0]);
    assert_int_equal(karp_send_owed(p), 1);
    /* our highest card, not the engine's lowest */
    int mine = 0;
    for (int c = 100; c >= 1 && !mine; c--)
        if (karp_label(p, c, lab) && lab[0] <= 'C')
            mine = c;
    assert_true(karp_label(p, mine, lab));
    assert_int_equal(karp_send(p, lab, &err), 0);
    assert_int_equal(karp_send_owed(p), 0);
    assert_true(karp_label(p, mine, lab));
    assert_true(lab[0] >= 'D'); /* it lies in the AI's territory now (placed there, KA-R10) */
    char want[64];
    snprintf(want, sizeof want, "You send the AI 1 card: poem %d (KA-R9).", mine);
    assert_non_null(strstr(karp_judgement(p), want));
    assert_int_equal(karp_send(p, NULL, &err), -1); /* nothing owed now */
    pl_buf_free(&err);
    start(p);
    karp_free(p);
}

/* The card texts as the field shows them: as many characters as tell each
 * card from every other of the hundred (47 share their first two). */
static void test_card_heads_tell_every_card_apart(void **st)
{
    (void)st;
    char head[64], whole[96], other[96];
    int shared2 = 0, most = 0;
    for (int a = 1; a <= 100; a++) {
        int n = karp_card_unique(a);
        most = n > most ? n : most;
        karp_card_head(a, n, head, sizeof head);
        karp_card_head(a, 2, whole, sizeof whole);
        bool two = false;
        for (int b = 1; b <= 100; b++) {
            if (b == a)
                continue;
            karp_card_head(b, 0, other, sizeof other);
            assert_false(strncmp(other, head, strlen(head)) == 0); /* nobody else starts so */
            two = two || strncmp(other, whole, strlen(whole)) == 0;
        }
        shared2 += two;
    }
    assert_int_equal(shared2, 47);
    assert_int_equal(most, 8);
    assert_int_equal(karp_card_unique(0), 0);
    karp_card_head(101, 3, head, sizeof head);
    assert_string_equal(head, "");
    karp_card_head(1, 0, whole, sizeof whole);
    assert_string_equal(whole, "わかころもてはつゆにぬれつつ");
    karp_card_head(1, 0, head, 7); /* two kana and no half of a third */
    assert_string_equal(head, "わか");
}

/* Computer players at a level: the karuta bot plays seat 1 in kyōgi, and
 * several seats on a chirashi field (KA-S1 .. KA-S3); the same seed gives
 * the same game. */
static void test_KA_S3_computer_players_at_a_level(void **st)
{
    (void)st;
    karp_options o = {.solo = true, .seed = "11", .opponents = 2, .level = "nosuch"};
    pl_buf err = {0};
    assert_null(karp_new(&o, &err));
    assert_non_null(strstr(pl_buf_str(&err), "unknown karuta level 'nosuch'"));
    pl_buf_clear(&err);
    karp_options k = {.seed = "11", .opponents = 1};
    assert_null(karp_new(&k, &err)); /* kyōgi has its one opponent */
    pl_buf_clear(&err);
    o.level = "easy";
    karp *a = karp_new(&o, &err), *b = karp_new(&o, &err);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(karp_seats(a), 3);
    assert_string_equal(karp_level(a), "easy");
    int taken = 0;
    for (int i = 0; i < 12; i++) {
        start(a);
        start(b);
        assert_int_equal(karp_ai_ms(a), karp_ai_ms(b));
        finish(a);
        finish(b);
        assert_string_equal(karp_judgement(a), karp_judgement(b));
    }
    karp_status s;
    karp_get_status(a, &s);
    taken = s.count[1] + s.count[2];
    assert_true(taken > 0); /* nobody touched for us: the computers took cards */
    assert_int_equal(s.count[0], 0);
    assert_non_null(strstr(karp_stats(a), "computer 2"));
    karp_free(a);
    karp_free(b);
    karp_options ky = {.seed = "5", .level = "hard"};
    a = karp_new(&ky, &err);
    assert_non_null(a);
    assert_int_equal(karp_seats(a), 2);
    start(a);
    finish(a);
    karp_free(a);
    pl_buf_free(&err);
    assert_true(karp_handles(pl_game_find("karuta")));
    assert_false(karp_handles(pl_game_find("ur")));
    assert_false(karp_handles(NULL));
}

/* Uta-karuta in real time (KA-U1 .. KA-U11): four hands of 25 less the pool
 * card each (pool=auto), labels A-D and P in poem order, one answer a
 * reading; an answer inside another owner's window is ignored. */
static void test_KA_U11_uta_hands_labels_one_answer(void **st)
{
    (void)st;
    pl_buf err = {0};
    karp_options bad = {.uta = true, .solo = true, .seed = "4"};
    assert_null(karp_new(&bad, &err));
    pl_buf_clear(&err);
    karp_options o = {.uta = true, .seed = "4"};
    karp *p = karp_new(&o, &err);
    assert_non_null(p);
    assert_true(karp_uta(p));
    assert_int_equal(karp_seats(p), 4);
    assert_int_equal(karp_zones(p), 5);
    int rows, cols, total = 0;
    for (int z = 0; z < 5; z++) {
        assert_int_equal(karp_zone_size(p, z, &rows, &cols), 0);
        assert_int_equal(rows, 1);
        assert_int_equal(cols, z < 4 ? 24 : 4); /* KA-U2: one card of each hand in the pool */
        int last = 0;
        for (int c = 0; c < cols; c++) {
            karp_cell cell;
            assert_int_equal(karp_cell_get(p, z, 0, c, &cell), 0);
            assert_int_equal(cell.kind, KARP_CELL_CARD);
            assert_true(cell.card > last);
            last = cell.card;
            char want[KARP_LABEL], lab[KARP_LABEL];
            snprintf(want, sizeof want, "%c%02u", z < 4 ? 'A' + z : 'P', (unsigned)(c + 1) % 100u);
            assert_string_equal(cell.label, want);
            assert_true(karp_label(p, cell.card, lab));
            assert_string_equal(lab, want);
            assert_int_equal(karp_card_at(p, want), cell.card);
            assert_int_equal(cell.owner, z < 4 ? z : -1);
            total++;
        }
    }
    assert_int_equal(total, 100);
    start(p); /* 38, in computer 2's hand */
    assert_int_equal(karp_card(p), 38);
    char lab[KARP_LABEL];
    assert_true(karp_label(p, karp_wrong_card(p), lab));
    assert_int_equal(touch(p, lab, 100), 1); /* one answer: the turn is over */
    assert_int_equal(karp_touch(p, "A02", 200, &err), -1);
    assert_non_null(strstr(pl_buf_str(&err), "your turn is over"));
    pl_buf_clear(&err);
    finish(p);
    assert_non_null(strstr(karp_judgement(p), "came inside the owner's window (3000 ms) and was ignored (KA-U11)"));
    assert_non_null(strstr(karp_judgement(p), "Computer 2 answered it"));
    karp_free(p);
    pl_buf_free(&err);
}

/* `parlour karuta kimariji`: the romaji column starts at the same display
 * column on every line, whatever the width of the poet's name (kanji take
 * two columns). */
static void test_kimariji_columns_line_up(void **st)
{
    (void)st;
    FILE *f = popen(PARLOUR_BIN " karuta kimariji --read 1,2", "r");
    assert_non_null(f);
    char line[512];
    int col = -1, n = 0;
    while (fgets(line, sizeof line, f) && n < 100) {
        size_t i = 0, last = 0; /* the romaji: the first letter after the poet's kanji */
        for (size_t k = 0; line[k]; k++)
            if ((unsigned char)line[k] >= 0x80)
                last = k;
        i = last;
        while (line[i] && !(line[i] >= 'a' && line[i] <= 'z'))
            i++;
        assert_true(line[i] != '\0');
        line[i] = '\0';
        int w = pl_text_width(line);
        if (col < 0)
            col = w;
        assert_int_equal(w, col);
        n++;
    }
    assert_int_equal(n, 100);
    assert_int_equal(pclose(f), 0);
}

/* ---- karp_reading_of: the reading of a match state (the server's clock) ---- */

/* Kana in the longest whole reading of the hundred (measured; KARP_MAXKANA has room). */
#define KARP_LONGEST_READING 33

/* A karuta match with `words` (space separated); fails the test on error. */
static pl_match *new_match(const char *words)
{
    char buf[256], *w[16];
    int n = 0;
    snprintf(buf, sizeof buf, "%s", words);
    for (char *save = NULL, *t = strtok_r(buf, " ", &save); t && n < 16; t = strtok_r(NULL, " ", &save))
        w[n++] = t;
    pl_buf err = {0};
    pl_match *m = pl_match_new(pl_game_find("karuta"), n, w, &err);
    if (!m)
        fail_msg("pl_match_new: %s", pl_buf_str(&err));
    pl_buf_free(&err);
    return m;
}

/* Asserts that `r` is the reading practice session `p` has open. */
static void assert_reading_is_practice(const karp_reading *r, karp *p)
{
    assert_int_equal(r->card, karp_card(p));
    assert_int_equal(r->nkana, karp_kana_count(p));
    for (int i = 0; i < r->nkana; i++) {
        assert_string_equal(r->kana[i], karp_kana(p, i));
        assert_int_equal(r->start_ms[i], karp_kana_start_ms(p, i));
    }
    assert_int_equal(r->start_ms[r->decide], karp_decide_ms(p));
    assert_int_equal(r->end_ms, karp_reading_end_ms(p));
    int dl = r->end_ms + KARP_GRACE_MS > KARP_MS_MAX ? KARP_MS_MAX : r->end_ms + KARP_GRACE_MS;
    assert_int_equal(r->deadline_ms, dl);
}

/* The server's reading agrees with the practice session's on the same card:
 * a match with the practice's options and seed reads the same card first. */
static void test_karp_reading_of_agrees_with_practice(void **st)
{
    (void)st;
    for (int seed = 1; seed <= 30; seed++) {
        for (int solo = 0; solo < 2; solo++) {
            char seedw[16], words[128];
            snprintf(seedw, sizeof seedw, "%d", seed);
            karp *p = new_session(seedw, 400, solo, "upper_ms=7000 lower_ms=4000");
            start(p);
            snprintf(words, sizeof words, "%s seed=%d upper_ms=7000 lower_ms=4000",
                     solo ? "variant=chirashi players=1" : "variant=kyogi send=manual place=auto", seed);
            pl_match *m = new_match(words);
            karp_reading r;
            assert_int_equal(karp_reading_of(m->game, m->state, &r), 0); /* before the first reading */
            assert_int_equal(r.card, 0);
            assert_int_equal(r.nkana, 0);
            pl_buf err = {0};
            assert_int_equal(pl_match_random(m, NULL, &err), 0);
            pl_buf_free(&err);
            assert_int_equal(karp_reading_of(m->game, m->state, &r), 1);
            assert_reading_is_practice(&r, p);
            if (solo) { /* KA-S2: the whole poem, the lower half from upper_ms on */
                int lower = 0;
                while (lower < r.nkana && r.start_ms[lower] < 7000)
                    lower++;
                assert_true(lower < r.nkana);
                assert_int_equal(r.start_ms[lower], 7000);
                assert_int_equal(r.end_ms, 7000 + 4000);
            } else { /* the upper half only */
                assert_true(r.start_ms[r.nkana - 1] < 7000);
                assert_int_equal(r.end_ms, 7000);
            }
            pl_match_free(m);
            karp_free(p);
        }
    }
}

/* tempo=even: the practice session and the server's reading follow the even
 * timeline (every unit the same length), the prelude's lower half included */
static void test_karp_reading_of_even_tempo(void **st)
{
    (void)st;
    int differs = 0; /* readings whose even timeline is not the tempo=poem one */
    for (int seed = 1; seed <= 30; seed++) {
        for (int solo = 0; solo < 2; solo++) {
            char seedw[16], words[128];
            snprintf(seedw, sizeof seedw, "%d", seed);
            karp *p = new_session(seedw, 400, solo, "upper_ms=7000 lower_ms=4000 tempo=even");
            start(p);
            snprintf(words, sizeof words, "%s seed=%d upper_ms=7000 lower_ms=4000 tempo=even",
                     solo ? "variant=chirashi players=1" : "variant=kyogi send=manual place=auto", seed);
            pl_match *m = new_match(words);
            karp_reading r;
            pl_buf err = {0};
            assert_int_equal(pl_match_random(m, NULL, &err), 0);
            pl_buf_free(&err);
            assert_int_equal(karp_reading_of(m->game, m->state, &r), 1);
            assert_reading_is_practice(&r, p);
            kar_kana ev[2 * KAR_TL_MAX], po[2 * KAR_TL_MAX];
            int n = kar_timeline(r.card, 7000, 4000, solo, true, ev, 2 * KAR_TL_MAX);
            kar_timeline(r.card, 7000, 4000, solo, false, po, 2 * KAR_TL_MAX);
            assert_int_equal(r.nkana, n);
            for (int i = 0; i < n; i++)
                assert_int_equal(r.start_ms[i], ev[i].start_ms);
            assert_int_equal(r.end_ms, ev[n - 1].end_ms);
            differs += r.end_ms != po[n - 1].end_ms;
            pl_match_free(m);
            karp_free(p);
        }
    }
    assert_true(differs > 0);
}

/* 0 and a zeroed reading outside the touch stage and for another game;
 * every kana of every poem's whole reading fits KARP_MAXKANA. */
static void test_karp_reading_of_only_in_touch_stages(void **st)
{
    (void)st;
    karp_reading r;
    pl_match *ur = pl_match_new(pl_game_find("ur"), 0, NULL, NULL);
    assert_non_null(ur);
    memset(&r, 0x5a, sizeof r);
    assert_int_equal(karp_reading_of(ur->game, ur->state, &r), 0);
    assert_int_equal(r.card, 0);
    assert_null(r.kana[0]);
    pl_match_free(ur);

    /* chirashi alone through all 100 readings: each a touch stage, then none */
    pl_match *m = new_match("variant=chirashi players=1 seed=3");
    pl_buf err = {0};
    int readings = 0, longest = 0;
    while (m->game->phase(m->state) != PL_PHASE_OVER) {
        assert_int_equal(karp_reading_of(m->game, m->state, &r), 0);
        assert_int_equal(pl_match_random(m, NULL, &err), 0);
        assert_int_equal(karp_reading_of(m->game, m->state, &r), 1);
        assert_true(r.card >= 1 && r.card <= KARP_NPOEMS);
        assert_true(r.decide >= 0 && r.decide < KARP_DEPTH && r.decide < r.nkana);
        for (int i = 1; i < r.nkana; i++)
            assert_true(r.start_ms[i] > r.start_ms[i - 1]);
        assert_true(r.end_ms > r.start_ms[r.nkana - 1]);
        if (r.nkana > longest)
            longest = r.nkana;
        readings++;
        if (pl_match_play_text(m, 0, "none", &err) < 0)
            fail_msg("none: %s", pl_buf_str(&err));
        memset(&r, 0x5a, sizeof r);
        assert_int_equal(karp_reading_of(m->game, m->state, &r), 0); /* answered: the stage moved on */
        assert_int_equal(r.nkana, 0);
        assert_int_equal(r.deadline_ms, 0);
    }
    assert_int_equal(readings, 100);
    assert_int_equal(longest, KARP_LONGEST_READING);
    assert_true(longest <= KARP_MAXKANA);
    pl_match_free(m);

    /* kyōgi, the send stage (KA-R9): the card is still the one read, the
     * touches are over. Seed 7 reads 39, a dead card: the AI's touch on a
     * card of either territory is a foul, so you send it one. */
    m = new_match("variant=kyogi send=manual place=auto seed=7");
    assert_int_equal(pl_match_random(m, NULL, &err), 0);
    assert_int_equal(karp_reading_of(m->game, m->state, &r), 1);
    assert_int_equal(r.card, 39);
    assert_int_equal(pl_match_play_text(m, 0, "none", &err), 0);
    assert_int_equal(karp_reading_of(m->game, m->state, &r), 1); /* the AI still answers */
    char t[32];
    int c = 1;
    for (; c <= KARP_NPOEMS; c++) {
        snprintf(t, sizeof t, "touch %d@2000", c);
        if (pl_match_play_text(m, 1, t, &err) == 0)
            break;
    }
    assert_true(c <= KARP_NPOEMS);
    pl_buf v = {0};
    m->game->view(m->state, 0, &v);
    assert_non_null(strstr(pl_buf_str(&v), "stage send\n"));
    assert_non_null(strstr(pl_buf_str(&v), "reading 39\n"));
    pl_buf_free(&v);
    memset(&r, 0x5a, sizeof r);
    assert_int_equal(karp_reading_of(m->game, m->state, &r), 0);
    assert_int_equal(r.card, 0);
    pl_buf_free(&err);
    pl_match_free(m);
}

/* karp_answer_action: the answers the server builds are the actions their
 * notation parses to (touch lists in any order, none, a named poet), and
 * malformed answers are refused with nothing written. */
static void test_karp_answer_action_equals_the_notation(void **st)
{
    (void)st;
    const pl_game *g = pl_game_find("karuta");
    pl_match *m = new_match("variant=uta answer=poet seed=1");
    static const struct {
        int n, card[3], ms[3], poet;
        const char *text;
    } ok[] = {
        {0, {0}, {0}, 0, "none"},
        {1, {17}, {800}, 0, "touch 17@800"},
        {1, {17}, {800}, 17, "touch 17@800 poet 17"},
        {2, {9, 4}, {900, 300}, 0, "touch 4@300 9@900"},
        {3, {5, 6, 7}, {16383, 0, 16383}, 0, "touch 6@0 5@16383 7@16383"},
    };
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        uint64_t a = 0;
        pl_action want;
        pl_buf err = {0};
        assert_int_equal(karp_answer_action(g, ok[i].card, ok[i].ms, ok[i].n, ok[i].poet, &a), 0);
        assert_int_equal(g->parse_action(m->state, 0, ok[i].text, &want, &err), 0);
        assert_true(a == want);
        pl_buf_free(&err);
    }
    static const struct {
        int n, card[4], ms[4], poet;
    } bad[] = {
        {-1, {0}, {0}, 0}, {4, {1, 2, 3, 4}, {1, 2, 3, 4}, 0}, {1, {0}, {5}, 0}, {1, {101}, {5}, 0},
        {1, {3}, {-1}, 0}, {1, {3}, {16384}, 0}, {2, {3, 3}, {1, 2}, 0}, {0, {0}, {0}, 5}, {2, {3, 4}, {1, 2}, 5},
        {1, {3}, {1}, 101},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        uint64_t a = 42;
        assert_int_equal(karp_answer_action(g, bad[i].card, bad[i].ms, bad[i].n, bad[i].poet, &a), -1);
        assert_true(a == 42);
    }
    uint64_t a = 42;
    int c = 1, ms = 1;
    assert_int_equal(karp_answer_action(pl_game_find("ur"), &c, &ms, 1, 0, &a), -1);
    assert_true(a == 42);
    pl_match_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_KA_R5_timeline_reveals_kana_over_time),
        cmocka_unit_test(test_KA_S2_solo_reads_the_whole_poem),
        cmocka_unit_test(test_KA_R7_ai_delay_within_documented_range),
        cmocka_unit_test(test_KA_R7_touch_by_label_takes_the_card),
        cmocka_unit_test(test_touch_refused_with_clear_errors),
        cmocka_unit_test(test_KA_R8_R9_judgement_text_foul_and_send),
        cmocka_unit_test(test_KA_S5_solo_field_cells_and_labels),
        cmocka_unit_test(test_kyogi_cells_seen_from_seat_0),
        cmocka_unit_test(test_options_refused_and_reading_limit),
        cmocka_unit_test(test_karp_new_each_allocation_failing),
        cmocka_unit_test(test_readings_without_memory),
        cmocka_unit_test(test_KA_K2_K3_kimariji_queries),
        cmocka_unit_test(test_KA_R5_prelude_lower_half_then_pause),
        cmocka_unit_test(test_KA_R3_memorisation_time),
        cmocka_unit_test(test_KA_R9_player_chooses_the_card_to_send),
        cmocka_unit_test(test_card_heads_tell_every_card_apart),
        cmocka_unit_test(test_KA_S3_computer_players_at_a_level),
        cmocka_unit_test(test_KA_U11_uta_hands_labels_one_answer),
        cmocka_unit_test(test_kimariji_columns_line_up),
        cmocka_unit_test(test_karp_reading_of_agrees_with_practice),
        cmocka_unit_test(test_karp_reading_of_even_tempo),
        cmocka_unit_test(test_karp_reading_of_only_in_touch_stages),
        cmocka_unit_test(test_karp_answer_action_equals_the_notation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
