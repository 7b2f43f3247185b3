/* kar.c — rules of karuta (../shared/rules/karuta.md): kyōgi karuta
 * (KA-R1..R16), uta-karuta for four (KA-U1..U11) and chirashi-dori
 * (KA-S1..S5) as variants of one game: options, deal and layout, the reading
 * chance, simultaneous timed touches, and their judgement.
 *
 * Hot path: kar_legal and kar_apply. No allocation, no I/O; a judgement is a
 * few loops over at most 3 touches per seat, a send is KAR_DEPTH counter
 * updates (kar_kimariji.c). Poem data is static; the state only holds card
 * numbers.
 */
#include "kar.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- touches ------------------------------------------------------------ */

pl_action kar_touch_action(const kar_touch *t, int n)
{
    if (n == 1) /* the hot path (legal): no sort */
        return KAR_A_TOUCH | (pl_action)((t[0].card & 0x7fu) | ((unsigned)(t[0].ms & KAR_MS_MAX) << 7));
    kar_touch v[KAR_MAXTOUCH];
    if (n > KAR_MAXTOUCH)
        n = KAR_MAXTOUCH;
    for (int i = 0; i < n; i++) /* not memcpy: a library call for a variable size */
        v[i] = t[i];
    for (int i = 1; i < n; i++) /* insertion sort by (ms, card) */
        for (int k = i; k > 0 && (v[k].ms < v[k - 1].ms || (v[k].ms == v[k - 1].ms && v[k].card < v[k - 1].card)); k--) {
            kar_touch x = v[k];
            v[k] = v[k - 1];
            v[k - 1] = x;
        }
    pl_action a = KAR_A_TOUCH;
    for (int i = 0; i < n; i++)
        a |= (pl_action)((v[i].card & 0x7fu) | ((unsigned)(v[i].ms & KAR_MS_MAX) << 7)) << (21 * i);
    return a;
}

int kar_touch_list(pl_action a, kar_touch *t)
{
    if (!(a & KAR_A_TOUCH))
        return 0;
    int n = 0;
    for (int i = 0; i < KAR_MAXTOUCH; i++) {
        unsigned x = (unsigned)((a >> (21 * i)) & 0x1fffff);
        if (!(x & 0x7f))
            continue;
        t[n].card = (uint8_t)(x & 0x7f);
        t[n].ms = (uint16_t)(x >> 7);
        n++;
    }
    return n;
}

/* ---- layout ------------------------------------------------------------- */

void kar_slot_label(int terr, int row, int slot, char *out)
{
    snprintf(out, 8, "%c%02d", "ABCDEF"[(terr & 1) * 3 + (row - 1) % 3], (slot % 100 + 100) % 100);
}

int kar_owner(const kar_state *s, int card)
{
    if (card < 1 || card > KAR_NPOEMS)
        return -1;
    return s->loc[card] < PL_MAX_SEATS ? s->loc[card] : -1;
}

/* The row rule on one territory's grid, rows of KAR_SLOTS bytes. */
static bool grid_row_rule(const uint8_t *g)
{
    for (int r = 0; r < KAR_ROWS; r++) {
        bool left = false, right = false;
        for (int k = 0; k < 8; k++)
            left = left || g[r * KAR_SLOTS + k];
        for (int k = 9; k < KAR_SLOTS; k++)
            right = right || g[r * KAR_SLOTS + k];
        if (!left || !right)
            return false;
    }
    return true;
}

bool kar_row_rule(const kar_state *s, int t) { return grid_row_rule(&s->grid[t][0][0]); }

bool kar_arrange_keeps_rows(const kar_state *s, int t, int card, int row, int slot)
{
    if (!grid_row_rule(&s->grid[t][0][0]))
        return true;
    uint8_t g[KAR_ROWS * KAR_SLOTS];
    memcpy(g, s->grid[t], sizeof g);
    if (s->row[card])
        g[(s->row[card] - 1) * KAR_SLOTS + s->slot[card] - 1] = 0;
    g[(row - 1) * KAR_SLOTS + slot - 1] = (uint8_t)card;
    return grid_row_rule(g);
}

static int row_count(const kar_state *s, int t, int r)
{
    int n = 0;
    for (int k = 0; k < KAR_SLOTS; k++)
        n += s->grid[t][r][k] != 0;
    return n;
}

static void put_card(kar_state *s, int t, int card, int row, int slot)
{
    s->grid[t][row - 1][slot - 1] = (uint8_t)card;
    s->row[card] = (uint8_t)row;
    s->slot[card] = (uint8_t)slot;
}

#define FREE_SPACE_MSG "row 1 slot 9 is the free space right in front of you: no card may lie there (KA-R2)"

static void lift_card(kar_state *s, int card)
{
    int t = s->loc[card];
    if (t < 2 && s->row[card])
        s->grid[t][s->row[card] - 1][s->slot[card] - 1] = 0;
    s->row[card] = s->slot[card] = 0;
}

/* Automatic placement (docs/notation-karuta.md): the row with the fewest
 * cards (ties: nearest the owner), in it the half with fewer cards (ties:
 * left), the free slot nearest that half's outer edge; then the other half,
 * then the centre slot 9 (never in row 1: the free space, KA-R2). Returns
 * false when the territory is full. */
static bool auto_place(kar_state *s, int t, int card)
{
    int order[KAR_ROWS] = {0, 1, 2};
    for (int i = 1; i < KAR_ROWS; i++)
        for (int k = i; k > 0 && row_count(s, t, order[k]) < row_count(s, t, order[k - 1]); k--) {
            int x = order[k];
            order[k] = order[k - 1];
            order[k - 1] = x;
        }
    for (int i = 0; i < KAR_ROWS; i++) {
        int r = order[i], nl = 0, nr = 0;
        for (int k = 0; k < 8; k++)
            nl += s->grid[t][r][k] != 0;
        for (int k = 9; k < KAR_SLOTS; k++)
            nr += s->grid[t][r][k] != 0;
        int seq[KAR_SLOTS], n = 0;
        for (int half = 0; half < 2; half++) {
            bool left = (half == 0) == (nl <= nr);
            for (int k = 0; k < 8; k++)
                seq[n++] = left ? k : KAR_SLOTS - 1 - k;
        }
        if (!kar_free_space(r + 1, 9))
            seq[n++] = 8;
        for (int k = 0; k < n; k++)
            if (!s->grid[t][r][seq[k]]) {
                put_card(s, t, card, r + 1, seq[k] + 1);
                return true;
            }
    }
    return false;
}

/* ---- moving cards ------------------------------------------------------- */

/* Moves `card` to location `to` (zone, or a KAR_LOC_*), keeping counts and
 * kimariji zones right. Kyōgi cards moved into a territory get no slot here. */
/* Index in kar_state.bits of location `loc`, or -1 (dead, out). */
static int bits_index(int loc)
{
    return loc < KAR_ZONES ? loc : loc == KAR_LOC_FIELD ? 4 : loc == KAR_LOC_POOL ? 5 : -1;
}

static void move_card(kar_state *s, int card, int to)
{
    int from = s->loc[card];
    uint64_t bit = 1ull << ((card - 1) & 63);
    int bf = bits_index(from), bt = bits_index(to);
    if (bf >= 0)
        s->bits[bf][(card - 1) >> 6] &= ~bit;
    if (bt >= 0)
        s->bits[bt][(card - 1) >> 6] |= bit;
    if (s->variant == KAR_KYOGI)
        lift_card(s, card);
    if (from < PL_MAX_SEATS && s->variant != KAR_CHIRASHI)
        s->count[from]--;
    if (to < PL_MAX_SEATS && s->variant != KAR_CHIRASHI)
        s->count[to]++;
    s->loc[card] = (uint8_t)to;
    if (to < PL_MAX_SEATS && s->nread > 0)
        s->moved_at[card] = s->nread; /* sent or given during play (the bot's memory) */
    int zone = to < KAR_ZONES ? to : to == KAR_LOC_FIELD ? 0 : -1;
    kar_kim_set_zone(&s->kim, card, zone);
}

/* Lowest-numbered card of zone `seat` (0..3) other than `exclude`, or 0. */
static int lowest_of(const kar_state *s, int seat, int exclude)
{
    for (int w = 0; w < 2; w++) {
        uint64_t m = s->bits[seat][w];
        if (exclude && ((exclude - 1) >> 6) == w)
            m &= ~(1ull << ((exclude - 1) & 63));
        if (m)
            return 64 * w + __builtin_ctzll(m) + 1;
    }
    return 0;
}

/* The cards that may be touched now, as two words of kar_state.bits. */
static void touch_mask(const kar_state *s, uint64_t m[2])
{
    for (int w = 0; w < 2; w++)
        m[w] = s->variant == KAR_KYOGI ? s->bits[0][w] | s->bits[1][w]
               : s->variant == KAR_UTA ? s->bits[0][w] | s->bits[1][w] | s->bits[2][w] | s->bits[3][w] | s->bits[5][w]
                                       : s->bits[4][w];
}

/* Uta: moves up to `k` of `from`'s lowest cards (never `exclude`) to `to`. */
static int give_cards(kar_state *s, int from, int to, int k, int exclude)
{
    int n = 0;
    while (n < k) {
        int c = lowest_of(s, from, exclude);
        if (!c)
            break;
        move_card(s, c, to);
        n++;
    }
    return n;
}

/* ---- options and set-up ------------------------------------------------- */

static const pl_option_def kar_options[] = {
    {"variant", PL_OPT_ENUM, "kyogi", "kyogi|uta|chirashi", 0, 0,
     "kyogi: competitive, 2 players (KA-R); uta: uta-karuta for 4 (KA-U); chirashi: 1-8 on one field (KA-S)"},
    {"tie_ms", PL_OPT_INT, "10", NULL, 0, 1000, "touches this close count as simultaneous (KA-R7, KA-S3)"},
    {"upper_ms", PL_OPT_INT, "6000", NULL, 1000, 16000, "time to read an upper half (KA-R5: the 6 of 5-3-1-6)"},
    {"lower_ms", PL_OPT_INT, "5000", NULL, 1000, 16000, "time to read a lower half (the 5 of 5-3-1-6)"},
    {"tempo", PL_OPT_ENUM, "poem", "poem|even", 0, 0,
     "poem: each poem's own kana spread over upper_ms / lower_ms; even: every unit lasts the same (the server's)"},
    {"yoin_ms", PL_OPT_INT, "3000", NULL, 0, 10000, "hold of a lower half's last kana (the 3 of 5-3-1-6)"},
    {"pause_ms", PL_OPT_INT, "1000", NULL, 0, 10000, "pause before an upper half (the 1 of 5-3-1-6; KA-R4)"},
    {"memo_s", PL_OPT_INT, "900", NULL, 0, 900, "memorisation time in seconds before the joka (KA-R3)"},
    {"owner_ms", PL_OPT_INT, "3000", NULL, 0, KAR_MS_MAX, "uta: the owner's priority window (KA-U4, KA-U11)"},
    {"wrong_answer", PL_OPT_ENUM, "receive1", "receive1|none",
     0, 0, "uta: a wrong non-owner answer receives 1 card from the owner (KA-U6)"},
    {"cards", PL_OPT_ENUM, "100", "100|50", 0, 0, "chirashi: cards on the field (KA-S1)"},
    {"foul", PL_OPT_ENUM, "pot", "pot|none", 0, 0, "chirashi: a foul puts one taken card in the pot (KA-S3)"},
    {"players", PL_OPT_INT, "0", NULL, 0, 8,
     "0: the variant's own (kyogi 2, uta 4, chirashi 2); chirashi takes 1-8 (1: practice, KA-S5)"},
    {"send", PL_OPT_ENUM, "manual", "manual|auto",
     0, 0, "kyogi: the sender chooses each card (send N) or the engine sends his lowest"},
    {"place", PL_OPT_ENUM, "auto", "auto|manual",
     0, 0, "kyogi: received cards are placed automatically or by place N@ROW,SLOT (KA-R10)"},
    {"pool", PL_OPT_ENUM, "choose", "choose|auto", 0, 0, "uta: each player picks his pool card, or his lowest (KA-U2)"},
    {"deal", PL_OPT_STRING, "", NULL, 0, 0, "set the deal (docs/notation-karuta.md), e.g. 1@1,1;2;3/4;5;6"},
    {"answer", PL_OPT_ENUM, "card", "card|poet", 0, 0,
     "uta: card: an answer is the card; poet: it names the poet too, touch N@MS poet P (KA-U4)"},
    {"rearrange", PL_OPT_ENUM, "off", "off|on", 0, 0,
     "kyogi: on: between readings each player moves one own card (arrange N@ROW,SLOT) or plays ready (KA-R15)"},
    {"teams", PL_OPT_ENUM, "off", "off|2v2", 0, 0,
     "uta: 2v2 plays seats 0+2 against 1+3: no gift or penalty between partners, a team wins (KA-U6)"},
    {NULL, 0, NULL, NULL, 0, 0, NULL},
};

static int fail(pl_buf *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(pl_buf *err, const char *fmt, ...)
{
    pl_buf_puts(err, "bad deal: ");
    va_list ap;
    va_start(ap, fmt);
    pl_buf_vprintf(err, fmt, ap);
    va_end(ap);
    return -1;
}

/* Parses `deal=` (docs/notation-karuta.md) into `s`. */
static int parse_deal(kar_state *s, const char *deal, pl_buf *err)
{
    int groups = s->variant == KAR_KYOGI ? 2 : s->variant == KAR_UTA ? 4 : 1;
    char buf[2048];
    if (strlen(deal) >= sizeof buf)
        return fail(err, "%s", "too long");
    snprintf(buf, sizeof buf, "%s", deal);
    char *save = NULL;
    int g = 0;
    uint8_t seen[KAR_NPOEMS + 1] = {0};
    uint8_t later[2][KAR_NPOEMS];
    int nlater[2] = {0, 0}, in_play = 0;
    for (char *grp = strtok_r(buf, "/", &save); grp; grp = strtok_r(NULL, "/", &save), g++) {
        if (g >= groups) {
            pl_buf_printf(err, "bad deal: %d groups for %s (kyogi T0/T1, uta H0/H1/H2/H3, chirashi one field list)",
                          g + 1, s->variant == KAR_KYOGI ? "kyogi" : s->variant == KAR_UTA ? "uta" : "chirashi");
            return -1;
        }
        char *s2 = NULL;
        for (char *it = strtok_r(grp, ";", &s2); it; it = strtok_r(NULL, ";", &s2)) {
            int card, row = 0, slot = 0, used = 0;
            if (sscanf(it, "%d%n", &card, &used) != 1 || card < 1 || card > KAR_NPOEMS)
                return fail(err, "expected a poem number 1-100, got '%s'", it);
            if (it[used] == '@') {
                int u2 = 0;
                if (s->variant != KAR_KYOGI || sscanf(it + used, "@%d,%d%n", &row, &slot, &u2) != 2 ||
                    it[used + u2] || row < 1 || row > KAR_ROWS || slot < 1 || slot > KAR_SLOTS)
                    return fail(err, "expected N or N@ROW,SLOT (row 1-3, slot 1-17, kyogi only), got '%s'", it);
            } else if (it[used]) {
                return fail(err, "expected N or N@ROW,SLOT, got '%s'", it);
            }
            if (seen[card])
                return fail(err, "card %s dealt twice", it);
            seen[card] = 1;
            if (s->variant == KAR_KYOGI) {
                if (++in_play > KAR_MAX_IN_PLAY)
                    return fail(err,
                                "%s: more than %d cards in play (a territory has %d slots: 3 rows x 17 less the "
                                "free space, KA-R2; sends can bring every card to one side)",
                                it, KAR_MAX_IN_PLAY, KAR_MAX_IN_PLAY);
                if (kar_free_space(row, slot))
                    return fail(err,
                                "%s: row %d slot %d is the free space right in front of the player, it stays "
                                "empty (KA-R2)",
                                it, KAR_FREE_ROW, KAR_FREE_SLOT);
                move_card(s, card, g);
                if (row) {
                    if (s->grid[g][row - 1][slot - 1])
                        return fail(err, "two cards in one slot at '%s'", it);
                    put_card(s, g, card, row, slot);
                } else {
                    later[g][nlater[g]++] = (uint8_t)card;
                }
            } else {
                move_card(s, card, s->variant == KAR_UTA ? g : KAR_LOC_FIELD);
            }
        }
    }
    if (s->variant == KAR_KYOGI) {
        for (int t = 0; t < 2; t++) {
            for (int i = 0; i < nlater[t]; i++)
                auto_place(s, t, later[t][i]);
            if (s->count[t] == 0)
                return fail(err, "%s", "each territory needs at least one card");
            if (s->count[t] >= 6 && !kar_row_rule(s, t))
                return fail(err, "%s", "a row lacks a card in its left or right half (KA-R2)");
        }
    }
    if (s->variant == KAR_UTA)
        for (int t = 0; t < 4; t++)
            if (s->count[t] < 2)
                return fail(err, "%s", "each hand needs at least 2 cards (one goes to the pool)");
    return 0;
}

static int kar_init(void *st, const pl_opts *o, uint64_t seed, pl_buf *err)
{
    kar_state *s = st;
    memset(s, 0, sizeof *s);
    s->variant = (uint8_t)pl_opts_choice(o, "variant");
    s->tie_ms = (uint16_t)pl_opts_int(o, "tie_ms");
    s->upper_ms = (uint16_t)pl_opts_int(o, "upper_ms");
    s->lower_ms = (uint16_t)pl_opts_int(o, "lower_ms");
    s->tempo_even = pl_opts_choice(o, "tempo") == 1;
    s->yoin_ms = (uint16_t)pl_opts_int(o, "yoin_ms");
    s->pause_ms = (uint16_t)pl_opts_int(o, "pause_ms");
    s->memo_s = (uint16_t)pl_opts_int(o, "memo_s");
    s->owner_ms = (uint16_t)pl_opts_int(o, "owner_ms");
    s->wrong_receive1 = pl_opts_choice(o, "wrong_answer") == 0;
    s->cards = pl_opts_choice(o, "cards") == 1 ? 50 : 100;
    s->foul_pot = pl_opts_choice(o, "foul") == 0;
    s->send_auto = pl_opts_choice(o, "send") == 1;
    s->place_auto = pl_opts_choice(o, "place") == 0;
    s->pool_auto = pl_opts_choice(o, "pool") == 1;
    s->teams = pl_opts_choice(o, "teams") == 1;
    s->answer_poet = pl_opts_choice(o, "answer") == 1;
    s->rearrange = pl_opts_choice(o, "rearrange") == 1;
    if (s->rearrange && s->variant != KAR_KYOGI) {
        pl_buf_puts(err, "rearrange=on is a kyogi option (KA-R15): use it with variant=kyogi");
        return -1;
    }
    if (s->answer_poet && s->variant != KAR_UTA) {
        pl_buf_puts(err, "answer=poet is an uta-karuta option (KA-U4): use it with variant=uta");
        return -1;
    }
    if (s->teams && s->variant != KAR_UTA) {
        pl_buf_puts(err, "teams=2v2 is an uta-karuta option (KA-U6): use it with variant=uta");
        return -1;
    }
    int players = (int)pl_opts_int(o, "players");
    static const int fixed[3] = {2, 4, 0};
    if (fixed[s->variant] && players && players != fixed[s->variant]) {
        pl_buf_printf(err, "variant=%s is played by %d players", s->variant ? "uta" : "kyogi", fixed[s->variant]);
        return -1;
    }
    s->nseats = (uint8_t)(fixed[s->variant] ? fixed[s->variant] : players ? players : 2);
    s->winner = -1;
    s->last.taker = s->last.sender = s->last.receiver = -1;
    kar_kim_init(&s->kim);
    s->unread_bits[0] = ~0ull;
    s->unread_bits[1] = (1ull << (KAR_NPOEMS - 64)) - 1;
    for (int c = 1; c <= KAR_NPOEMS; c++)
        s->loc[c] = KAR_LOC_DEAD;
    const char *deal = pl_opts_get(o, "deal");
    if (deal && *deal) {
        if (parse_deal(s, deal, err) < 0)
            return -1;
    } else {
        pl_rng r;
        pl_rng_seed(&r, seed);
        uint8_t deck[KAR_NPOEMS];
        for (int i = 0; i < KAR_NPOEMS; i++)
            deck[i] = (uint8_t)(i + 1);
        for (int i = KAR_NPOEMS - 1; i > 0; i--) { /* Fisher-Yates (KA-R1, KA-U1) */
            int k = (int)pl_rng_below(&r, (uint32_t)i + 1);
            uint8_t x = deck[i];
            deck[i] = deck[k];
            deck[k] = x;
        }
        if (s->variant == KAR_KYOGI) {
            for (int i = 0; i < 50; i++) {
                move_card(s, deck[i], i / 25);
                auto_place(s, i / 25, deck[i]);
            }
        } else if (s->variant == KAR_UTA) {
            for (int i = 0; i < KAR_NPOEMS; i++)
                move_card(s, deck[i], i / 25);
        } else {
            for (int i = 0; i < s->cards; i++)
                move_card(s, deck[i], KAR_LOC_FIELD);
        }
    }
    s->stage = KAR_ST_READ;
    if (s->variant == KAR_UTA) {
        if (s->pool_auto) {
            for (int p = 0; p < 4; p++)
                move_card(s, lowest_of(s, p, 0), KAR_LOC_POOL);
        } else {
            s->stage = KAR_ST_POOL;
            s->pending = 0xf;
        }
    }
    return 0;
}

/* ---- restoring a position (kar_from_text) -------------------------------- */

void kar_restore(kar_state *s, const uint8_t *where, const uint8_t *row, const uint8_t *slot, const uint8_t *read)
{
    memset(s->loc, KAR_LOC_DEAD, sizeof s->loc);
    s->loc[0] = 0;
    memset(s->bits, 0, sizeof s->bits);
    memset(s->grid, 0, sizeof s->grid);
    memset(s->row, 0, sizeof s->row);
    memset(s->slot, 0, sizeof s->slot);
    memset(s->count, 0, sizeof s->count);
    kar_kim_init(&s->kim);
    s->unread_bits[0] = ~0ull;
    s->unread_bits[1] = (1ull << (KAR_NPOEMS - 64)) - 1;
    for (int c = 1; c <= KAR_NPOEMS; c++) {
        if (where[c] != 0xff)
            move_card(s, c, where[c]);
        if (row[c] && s->variant == KAR_KYOGI && where[c] < 2)
            put_card(s, where[c], c, row[c], slot[c]);
        if (read[c]) {
            kar_kim_read(&s->kim, c);
            s->unread_bits[(c - 1) >> 6] &= ~(1ull << ((c - 1) & 63));
        }
    }
}

static void cache_canon(kar_state *s);

void kar_restore_caches(kar_state *s) { cache_canon(s); }

/* ---- phase, actors, chance ---------------------------------------------- */

static pl_phase kar_phase(const void *st)
{
    const kar_state *s = st;
    return s->stage == KAR_ST_OVER ? PL_PHASE_OVER : s->stage == KAR_ST_READ ? PL_PHASE_CHANCE : PL_PHASE_MOVE;
}

static int kar_num_seats(const void *st) { return ((const kar_state *)st)->nseats; }
bool kar_same_poet(int p, int card)
{
    const kar_poem *a = kar_poem_get(p), *b = kar_poem_get(card);
    return a && b && (p == card || !strcmp(a->poet, b->poet));
}

int kar_team(const kar_state *s, int seat) { return s->teams ? seat % 2 : seat; }

static int kar_team_of(const void *st, int seat) { return kar_team(st, seat); }

static int kar_actors(const void *st, int *seats)
{
    const kar_state *s = st;
    switch (s->stage) {
    case KAR_ST_TOUCH:
    case KAR_ST_POOL:
    case KAR_ST_ARRANGE: {
        int n = 0;
        for (int p = 0; p < s->nseats; p++)
            if (s->pending & (1u << p))
                seats[n++] = p;
        return n;
    }
    case KAR_ST_SEND:
        seats[0] = s->last.sender;
        return 1;
    case KAR_ST_PLACE:
        seats[0] = s->last.receiver;
        return 1;
    default:
        return 0;
    }
}

static int kar_chance(const void *st, pl_action *out, double *prob, int cap)
{
    const kar_state *s = st;
    if (s->stage != KAR_ST_READ)
        return 0;
    int left = KAR_NPOEMS - s->nread, n = 0;
    for (int c = 1; c <= KAR_NPOEMS; c++)
        if (s->kim.unread[c]) {
            if (n < cap) {
                out[n] = KAR_A_READ | (pl_action)c;
                prob[n] = 1.0 / left;
            }
            n++;
        }
    return n;
}

static pl_action kar_sample_chance(const void *st, pl_rng *rng)
{
    const kar_state *s = st;
    int k = (int)pl_rng_below(rng, (uint32_t)(KAR_NPOEMS - s->nread)); /* the k-th unread, from 0 */
    for (int w = 0; w < 2; w++) {
        uint64_t m = s->unread_bits[w];
        int n = __builtin_popcountll(m);
        if (k >= n) {
            k -= n;
            continue;
        }
        while (k-- > 0)
            m &= m - 1;
        return KAR_A_READ | (pl_action)(64 * w + __builtin_ctzll(m) + 1);
    }
    return KAR_A_READ | 1; /* not reached: nread < 100 in phase CHANCE */
}

/* ---- legality ----------------------------------------------------------- */

/* Can `card` be touched now (it is on the field / in play)? */
static bool touchable(const kar_state *s, int card)
{
    if (card < 1 || card > KAR_NPOEMS)
        return false;
    int l = s->loc[card];
    switch (s->variant) {
    case KAR_KYOGI: return l < 2;
    case KAR_UTA: return l < 4 || l == KAR_LOC_POOL;
    default: return l == KAR_LOC_FIELD;
    }
}

static bool pending(const kar_state *s, int seat)
{
    return seat >= 0 && seat < s->nseats && (s->pending & (1u << seat));
}

int kar_why_invalid(const kar_state *s, int seat, pl_action a, pl_buf *why)
{
    pl_buf sink = {0};
    pl_buf *w = why ? why : &sink;
    int bad = 1;
    pl_action kind = KAR_KIND(a);
    unsigned card = (unsigned)(a & 0x7f);
    if (s->stage == KAR_ST_OVER) {
        pl_buf_puts(w, "the game is over");
        goto done;
    }
    if (s->stage == KAR_ST_READ) {
        if (seat != PL_CHANCE || kind != KAR_A_READ || card < 1 || card > KAR_NPOEMS || (a & ~(KAR_A_READ | 0x7f)))
            pl_buf_puts(w, "the reader reads now: read N with N a poem not yet read");
        else if (!s->kim.unread[card])
            pl_buf_printf(w, "poem %u has been read already (each is read once, KA-R5)", card);
        else
            bad = 0;
        goto done;
    }
    switch (s->stage) {
    case KAR_ST_POOL:
        if (!pending(s, seat))
            pl_buf_printf(w, "seat %d has no pool card to choose now", seat);
        else if (kind != KAR_A_POOL || (a & ~(KAR_A_POOL | 0x7f)) || kar_owner(s, (int)card) != seat)
            pl_buf_puts(w, "put one card of your hand in the pool: pool N (KA-U2)");
        else
            bad = 0;
        break;
    case KAR_ST_TOUCH:
        if (!pending(s, seat)) {
            pl_buf_printf(w, "seat %d has answered this reading already", seat);
        } else if (a == KAR_A_NONE) {
            bad = 0;
        } else if (kind != KAR_A_TOUCH) {
            pl_buf_puts(w, "after a reading each player plays touch N@MS [N@MS ...] or none");
        } else {
            kar_touch t[KAR_MAXTOUCH];
            int n = kar_touch_list(a, t), poet = KAR_POET_OF(a);
            if (n == 0) {
                pl_buf_puts(w, "a touch list needs at least one touch (or play none)");
                break;
            }
            if (poet && !s->answer_poet) {
                pl_buf_puts(w, "no poet here: naming the poet needs variant=uta answer=poet (KA-U4)");
                break;
            }
            if (s->answer_poet && (poet < 1 || poet > KAR_NPOEMS)) {
                pl_buf_puts(w, "answer=poet: name the poet too: touch N@MS poet P, P the number of his poem (KA-U4)");
                break;
            }
            if (kar_touch_action(t, n) != (poet ? a & ~KAR_POET_MASK : a)) {
                pl_buf_puts(w, "malformed touch list (not in canonical order)");
                break;
            }
            if (s->variant == KAR_UTA && n > 1) {
                pl_buf_puts(w, "in uta-karuta a player's first answer is his only one: touch N@MS (KA-U11)");
                break;
            }
            bad = 0;
            for (int i = 0; i < n && !bad; i++)
                if (!touchable(s, t[i].card)) {
                    pl_buf_printf(w, "card %d is not on the field (a touch there is invalid input, not a foul: KA-R8)",
                                  t[i].card);
                    bad = 1;
                }
        }
        break;
    case KAR_ST_SEND:
        if (seat != s->last.sender)
            pl_buf_printf(w, "seat %d sends now, not seat %d", s->last.sender, seat);
        else if (a == KAR_A_PASS)
            bad = 0;
        else if (kind != KAR_A_SEND || (a & ~(KAR_A_SEND | 0x7f)))
            pl_buf_printf(w, "send %d more card%s: send N (a card of your territory) or pass (KA-R9, KA-R11)",
                          s->last.owed - s->last.sent, s->last.owed - s->last.sent > 1 ? "s" : "");
        else if (kar_owner(s, (int)card) != seat)
            pl_buf_printf(w, "card %u is not in your territory", card);
        else
            bad = 0;
        break;
    case KAR_ST_PLACE: {
        unsigned row = (unsigned)((a >> 8) & 0xff), slot = (unsigned)((a >> 16) & 0xff);
        if (seat != s->last.receiver)
            pl_buf_printf(w, "seat %d places a received card now, not seat %d", s->last.receiver, seat);
        else if (kind != KAR_A_PLACE || (a & ~(KAR_A_PLACE | 0xffff7full)) || card != s->place_card)
            pl_buf_printf(w, "place the received card: place %d@ROW,SLOT (KA-R10)", s->place_card);
        else if (row < 1 || row > KAR_ROWS || slot < 1 || slot > KAR_SLOTS)
            pl_buf_puts(w, "rows are 1-3 and slots 1-17 (KA-R2)");
        else if (kar_free_space((int)row, (int)slot))
            pl_buf_puts(w, FREE_SPACE_MSG);
        else if (s->grid[seat][row - 1][slot - 1])
            pl_buf_printf(w, "slot %u,%u holds card %d", row, slot, s->grid[seat][row - 1][slot - 1]);
        else
            bad = 0;
        break;
    }
    case KAR_ST_ARRANGE: {
        unsigned row = (unsigned)((a >> 8) & 0xff), slot = (unsigned)((a >> 16) & 0xff);
        if (!pending(s, seat))
            pl_buf_printf(w, "seat %d has arranged or played ready already (one move between readings, KA-R15)", seat);
        else if (a == KAR_A_READY)
            bad = 0;
        else if (kind != KAR_A_ARRANGE || (a & ~(KAR_A_ARRANGE | 0xffff7full)))
            pl_buf_puts(w, "between readings: arrange N@ROW,SLOT (a card of yours to a free slot of your territory) "
                           "or ready (KA-R15)");
        else if (kar_owner(s, (int)card) != seat)
            pl_buf_printf(w, "card %u is not in your territory", card);
        else if (row < 1 || row > KAR_ROWS || slot < 1 || slot > KAR_SLOTS)
            pl_buf_puts(w, "rows are 1-3 and slots 1-17 (KA-R2)");
        else if (kar_free_space((int)row, (int)slot))
            pl_buf_puts(w, FREE_SPACE_MSG);
        else if (s->grid[seat][row - 1][slot - 1])
            pl_buf_printf(w, "slot %u,%u holds card %d", row, slot, s->grid[seat][row - 1][slot - 1]);
        else if (!kar_arrange_keeps_rows(s, seat, (int)card, (int)row, (int)slot))
            pl_buf_puts(w, "that move leaves a row without a card in its left or right half (KA-R2)");
        else
            bad = 0;
        break;
    }
    default:
        pl_buf_puts(w, "nothing to do now");
    }
done:
    pl_buf_free(&sink);
    return bad;
}

/* The canonical time to touch `card` while `s->cur` is read (cached per
 * reading in s->canon by cache_canon). */
static int canon_ms(const kar_state *s, int card) { return s->canon[card]; }

/* Fills the per-reading cache s->canon: the start of the deciding kana for
 * the read card, else of the kana where the reading leaves the card's key.
 * 100 table loads once per reading instead of per `legal` call. */
static void cache_canon(kar_state *s)
{
    memset(s->canon, 0, sizeof s->canon);
    if (!s->cur)
        return;
    int kana[KAR_DEPTH + 2];
    for (int k = 1; k <= KAR_DEPTH + 1; k++)
        kana[k] = kar_kana_start(s->cur, s->upper_ms, s->tempo_even, k);
    uint64_t mask[2];
    touch_mask(s, mask);
    const uint8_t *lcp = kar_lcp_tab[s->cur];
    for (int w = 0; w < 2; w++)
        for (uint64_t m = mask[w]; m; m &= m - 1) {
            int c = 64 * w + __builtin_ctzll(m) + 1;
            s->canon[c] = (uint16_t)kana[lcp[c] < KAR_DEPTH ? lcp[c] + 1 : KAR_DEPTH + 1];
        }
    s->canon[s->cur] = s->last.decide_ms;
}

/* Packs the touches (a, ta) and (b, tb), a != b, as kar_touch_action does. */
static pl_action pair_action(int a, int ta, int b, int tb)
{
    if (tb < ta || (tb == ta && b < a)) {
        int x = a, tx = ta;
        a = b, ta = tb, b = x, tb = tx;
    }
    return KAR_A_TOUCH | (pl_action)(a | ta << 7) | (pl_action)(b | tb << 7) << 21;
}

#define KAR_LEGAL_MAX (1 + 3 * KAR_NPOEMS) /* none, 2 singles and a pair per card */

static int legal_into(const kar_state *s, int seat, pl_action *out, int cap);

/* Writes straight into `out` when it has room for any list (the usual
 * case), else through a local buffer: the emitting loops then need no
 * bounds checks. */
static int kar_legal(const void *st, int seat, pl_action *out, int cap)
{
    if (cap >= KAR_LEGAL_MAX)
        return legal_into(st, seat, out, cap);
    pl_action tmp[KAR_LEGAL_MAX];
    int n = legal_into(st, seat, tmp, KAR_LEGAL_MAX);
    memcpy(out, tmp, sizeof *out * (size_t)(n < cap ? (n > 0 ? n : 0) : cap));
    return n;
}

static int legal_into(const kar_state *s, int seat, pl_action *out, int cap)
{
    int n = 0;
#define EMIT(x) do { if (n < cap) out[n] = (x); n++; } while (0)
#define EMIT_FAST(x) (out[n++] = (x)) /* touch stage: at most KAR_LEGAL_MAX, cap checked by kar_legal */
    switch (s->stage) {
    case KAR_ST_POOL:
        if (pending(s, seat))
            for (int w = 0; w < 2; w++)
                for (uint64_t m = s->bits[seat][w]; m; m &= m - 1)
                    EMIT(KAR_A_POOL | (pl_action)(64 * w + __builtin_ctzll(m) + 1));
        break;
    case KAR_ST_TOUCH: {
        if (!pending(s, seat))
            break;
        EMIT_FAST(KAR_A_NONE);
        uint64_t mask[2];
        touch_mask(s, mask);
        int late = s->variant == KAR_UTA ? s->owner_ms : 200;
        int poet = s->answer_poet ? KAR_POET_SHIFT : 64; /* answer=poet: name the touched card's poet */
        for (int w = 0; w < 2; w++)
            for (uint64_t m = mask[w]; m; m &= m - 1) {
                int c = 64 * w + __builtin_ctzll(m) + 1, t0 = canon_ms(s, c);
                int t1 = t0 + late > KAR_MS_MAX ? KAR_MS_MAX : t0 + late;
                pl_action pc = poet < 64 ? (pl_action)c << poet : 0;
                EMIT_FAST(KAR_A_TOUCH | (pl_action)c | (pl_action)t0 << 7 | pc);
                EMIT_FAST(KAR_A_TOUCH | (pl_action)c | (pl_action)t1 << 7 | pc);
            }
        if (s->variant == KAR_KYOGI) { /* pairs: a wrong touch, then the card or the other side */
            bool live = touchable(s, s->cur);
            int low[2] = {live ? 0 : lowest_of(s, 0, 0), live ? 0 : lowest_of(s, 1, 0)};
            int tlow[2] = {canon_ms(s, low[0]), canon_ms(s, low[1])}, tcur = canon_ms(s, s->cur);
            for (int w = 0; w < 2; w++)
                for (uint64_t m = mask[w]; m; m &= m - 1) {
                    int c = 64 * w + __builtin_ctzll(m) + 1;
                    if (c == s->cur)
                        continue;
                    int other = 1 - s->loc[c], x = live ? s->cur : low[other];
                    if (x)
                        EMIT_FAST(pair_action(c, canon_ms(s, c), x, live ? tcur : tlow[other]));
                }
        }
        break;
    }
    case KAR_ST_SEND:
        if (seat != s->last.sender)
            break;
        for (int w = 0; w < 2; w++) /* the cards of his territory, in number order */
            for (uint64_t m = s->bits[seat][w]; m; m &= m - 1)
                EMIT(KAR_A_SEND | (pl_action)(64 * w + __builtin_ctzll(m) + 1));
        EMIT(KAR_A_PASS);
        break;
    case KAR_ST_ARRANGE: /* ready, then each own card to each free slot that keeps the rows */
        if (!pending(s, seat))
            break;
        EMIT(KAR_A_READY);
        for (int w = 0; w < 2; w++)
            for (uint64_t m = s->bits[seat][w]; m; m &= m - 1) {
                int c = 64 * w + __builtin_ctzll(m) + 1;
                for (int r = 1; r <= KAR_ROWS; r++)
                    for (int k = 1; k <= KAR_SLOTS; k++)
                        if (!s->grid[seat][r - 1][k - 1] && !kar_free_space(r, k) &&
                            kar_arrange_keeps_rows(s, seat, c, r, k))
                            EMIT(KAR_A_ARRANGE | (pl_action)c | (pl_action)r << 8 | (pl_action)k << 16);
            }
        break;
    case KAR_ST_PLACE:
        if (seat != s->last.receiver)
            break;
        for (int r = 1; r <= KAR_ROWS; r++)
            for (int k = 1; k <= KAR_SLOTS; k++)
                if (!s->grid[seat][r - 1][k - 1] && !kar_free_space(r, k))
                    EMIT(KAR_A_PLACE | s->place_card | (pl_action)r << 8 | (pl_action)k << 16);
        break;
    default:
        break;
    }
#undef EMIT
#undef EMIT_FAST
    return n;
}

/* ---- judgement ---------------------------------------------------------- */

static void end_game(kar_state *s, int winner)
{
    s->winner = (int8_t)winner;
    s->stage = KAR_ST_OVER;
    s->pending = 0;
    s->cur = 0;
    cache_canon(s);
}

/* Fewest cards (kyōgi, uta) or most cards (chirashi) wins; a tie is a draw.
 * Uta teams=2v2: the team with fewer cards in its two hands; the winner is
 * then recorded as the team's lower seat (0 or 1). */
static void end_by_count(kar_state *s, bool most)
{
    if (s->teams) {
        int t0 = s->count[0] + s->count[2], t1 = s->count[1] + s->count[3];
        end_game(s, t0 < t1 ? 0 : t1 < t0 ? 1 : -1);
        return;
    }
    int best = -1, n = 0;
    for (int p = 0; p < s->nseats; p++) {
        if (best < 0 || (most ? s->count[p] > s->count[best] : s->count[p] < s->count[best])) {
            best = p;
            n = 1;
        } else if (s->count[p] == s->count[best]) {
            n++;
        }
    }
    end_game(s, n == 1 ? best : -1);
}

static void next_reading(kar_state *s)
{
    s->stage = KAR_ST_READ;
    s->pending = 0;
    s->cur = 0;
    cache_canon(s);
    if (s->variant == KAR_CHIRASHI) {
        if (!(s->bits[4][0] | s->bits[4][1])) /* KA-S4: every card on the field is taken */
            end_by_count(s, true);
        return;
    }
    for (int p = 0; p < s->nseats; p++)
        if (s->count[p] == 0) { /* KA-R12, KA-U9 */
            end_game(s, p);
            return;
        }
    if (s->nread >= KAR_NPOEMS) { /* all read: KA-U11 fewest cards wins */
        end_by_count(s, false);
        return;
    }
    if (s->rearrange) { /* KA-R15: a move or ready from each player first */
        s->stage = KAR_ST_ARRANGE;
        s->pending = 0x3;
    }
}

static void do_send(kar_state *s, int card)
{
    kar_judgement *j = &s->last;
    move_card(s, card, j->receiver);
    j->sent_cards[j->sent++] = (uint8_t)card;
    s->place_card = (uint8_t)card;
}

/* Runs sends and placements until a seat must choose (KA-R9, KA-R10). */
static void advance(kar_state *s)
{
    kar_judgement *j = &s->last;
    for (;;) {
        if (s->place_card) {
            if (!s->place_auto) {
                s->stage = KAR_ST_PLACE;
                return;
            }
            auto_place(s, j->receiver, s->place_card);
            s->place_card = 0;
            continue;
        }
        if (j->sent < j->owed && s->count[j->sender] > 0) {
            if (!s->send_auto) {
                s->stage = KAR_ST_SEND;
                return;
            }
            do_send(s, lowest_of(s, j->sender, 0));
            continue;
        }
        j->owed = j->sent; /* a right that cannot be used lapses */
        next_reading(s);
        return;
    }
}

/* First touch of `card` in seat's response, or -1. */
static int first_touch(const kar_judgement *j, int seat, int card)
{
    kar_touch t[KAR_MAXTOUCH];
    int n = kar_touch_list(j->resp[seat], t);
    for (int i = 0; i < n; i++)
        if (t[i].card == card)
            return t[i].ms;
    return -1;
}

/* KA-R7 .. KA-R12. */
static void judge_kyogi(kar_state *s)
{
    kar_judgement *j = &s->last;
    int r = s->cur, own = kar_owner(s, r);
    int first[2], mask[2] = {0, 0};
    for (int p = 0; p < 2; p++) {
        kar_touch t[KAR_MAXTOUCH];
        int n = kar_touch_list(j->resp[p], t);
        for (int i = 0; i < n; i++)
            mask[p] |= 1 << s->loc[t[i].card]; /* every touched card is in T(0) or T(1) */
        first[p] = first_touch(j, p, r);
    }
    int taker = -1;
    if (own >= 0) { /* KA-R7 */
        if (first[0] >= 0 && first[1] >= 0)
            taker = abs(first[0] - first[1]) <= s->tie_ms ? own : first[0] < first[1] ? 0 : 1;
        else if (first[0] >= 0 || first[1] >= 0)
            taker = first[0] >= 0 ? 0 : 1;
        j->taker = (int8_t)taker;
        s->taken_by[r] = (uint8_t)(taker + 1);
        s->take_ms[r] = (uint16_t)(taker >= 0 ? first[taker] : 0);
        j->take_ms = s->take_ms[r];
        move_card(s, r, KAR_LOC_OUT); /* taken, or (untouched) removed by its owner */
    }
    int right_mask = own >= 0 ? 1 << own : 0; /* KA-R8: dead card → both wrong */
    for (int p = 0; p < 2; p++)
        j->fouls[p] = (uint8_t)__builtin_popcount((unsigned)(mask[p] & ~right_mask));
    int rights[2]; /* KA-R9 */
    for (int p = 0; p < 2; p++)
        rights[p] = (taker == p && own == 1 - p) + j->fouls[1 - p];
    int net = rights[0] - rights[1];
    if (net != 0) {
        j->sender = (int8_t)(net > 0 ? 0 : 1);
        j->receiver = (int8_t)(1 - j->sender);
        j->owed = (uint8_t)(net > 0 ? net : -net);
    }
    advance(s);
}

/* KA-U4 .. KA-U11. */
static void judge_uta(kar_state *s)
{
    kar_judgement *j = &s->last;
    int r = s->cur, owner = kar_owner(s, r), start = owner >= 0 ? owner : 0;
    int order[4], n = 0, ms[4], card[4];
    for (int i = 0; i < 4; i++) {
        int p = (start + i) % 4;
        kar_touch t[KAR_MAXTOUCH];
        if (kar_touch_list(j->resp[p], t) < 1)
            continue;
        ms[p] = t[0].ms;
        card[p] = t[0].card;
        if (s->answer_poet && card[p] == r && !kar_same_poet(KAR_POET_OF(j->resp[p]), r))
            card[p] = 0; /* KA-U4 answer=poet: the right card with a wrong poet is a wrong answer */
        int k = n++;
        for (; k > 0 && ms[order[k - 1]] > ms[p]; k--) /* stable: seat order from the owner */
            order[k] = order[k - 1];
        order[k] = p;
    }
    int window = owner >= 0 ? s->owner_ms : 0;
    for (int i = 0; i < n && s->stage != KAR_ST_OVER; i++) {
        int p = order[i];
        if (owner >= 0 && p != owner && ms[p] < window)
            continue; /* inside the owner's window: ignored (KA-U11) */
        if (card[p] != r) { /* a wrong answer */
            j->fouls[p] = 1;
            if (p == owner) {
                if (ms[p] < window)
                    window = ms[p]; /* ends his window, costs nothing */
            } else if (owner >= 0 && s->wrong_receive1 && kar_team(s, p) != kar_team(s, owner)) {
                j->moved = (uint8_t)(j->moved + give_cards(s, owner, p, 1, r)); /* KA-U6 decision */
            }
        } else {
            j->taker = (int8_t)p;
            j->take_ms = (uint16_t)ms[p];
            s->taken_by[r] = (uint8_t)(p + 1);
            s->take_ms[r] = (uint16_t)ms[p];
            bool pool = s->loc[r] == KAR_LOC_POOL;
            move_card(s, r, KAR_LOC_OUT); /* KA-U5 */
            if (pool) /* KA-U8 */
                j->moved = (uint8_t)(j->moved + give_cards(s, p, KAR_LOC_OUT, 10, 0));
            else if (kar_team(s, p) != kar_team(s, owner)) /* KA-U6; 2v2: none between partners */
                j->moved = (uint8_t)(j->moved + give_cards(s, p, owner, 2, 0));
            int pearl = r == 12 ? 20 : (r == 22 || r == 97) ? 15 : 0; /* KA-U7, KA-U10 */
            if (pearl)
                j->moved = (uint8_t)(j->moved + give_cards(s, p, (p + 1) % 4, pearl, 0));
        }
        if (s->count[p] == 0) /* KA-U9: the answerer first */
            end_game(s, p);
        for (int q = 0; q < 4 && s->stage != KAR_ST_OVER; q++)
            if (s->count[q] == 0)
                end_game(s, q);
        if (card[p] == r)
            break;
    }
    if (s->stage != KAR_ST_OVER)
        next_reading(s);
}

/* KA-S1 .. KA-S5. */
static void judge_chirashi(kar_state *s)
{
    kar_judgement *j = &s->last;
    int r = s->cur;
    if (s->loc[r] == KAR_LOC_FIELD) {
        int best = -1, tmin = KAR_MS_MAX + 1;
        for (int p = 0; p < s->nseats; p++) {
            int t = first_touch(j, p, r);
            if (t >= 0 && t < tmin)
                tmin = t;
        }
        for (int i = 0; i < s->nseq && best < 0; i++) { /* ties: earlier by sequence */
            int p = s->seq[i], t = first_touch(j, p, r);
            if (t >= 0 && t <= tmin + s->tie_ms)
                best = p;
        }
        if (best >= 0) {
            j->taker = (int8_t)best;
            j->take_ms = (uint16_t)first_touch(j, best, r);
            s->taken_by[r] = (uint8_t)(best + 1);
            s->take_ms[r] = j->take_ms;
            s->count[best] = (uint8_t)(s->count[best] + 1 + s->pot);
            j->moved = s->pot;
            s->pot = 0;
        }
        move_card(s, r, KAR_LOC_OUT);
    }
    for (int p = 0; p < s->nseats; p++) {
        kar_touch t[KAR_MAXTOUCH];
        int n = kar_touch_list(j->resp[p], t);
        for (int i = 0; i < n; i++)
            if (t[i].card != r)
                j->fouls[p] = 1;
        if (j->fouls[p] && s->foul_pot && s->count[p] > 0) {
            s->count[p]--;
            s->pot++;
        }
    }
    next_reading(s);
}

static void kar_apply(void *st, int seat, pl_action a)
{
    kar_state *s = st;
    kar_judgement *j = &s->last;
    pl_action kind = KAR_KIND(a);
    if (kind == KAR_A_READ) {
        int c = (int)(a & 0x7f);
        memset(j, 0, sizeof *j);
        j->taker = j->sender = j->receiver = -1;
        j->card = (uint8_t)c;
        j->where = s->loc[c];
        j->kim = (uint8_t)kar_kim_dynamic(&s->kim, c);
        j->terr = (uint8_t)kar_kim_territory(&s->kim, c);
        j->decide_ms = (uint16_t)kar_kana_start(c, s->upper_ms, s->tempo_even, j->kim);
        j->terr_ms = (uint16_t)(j->terr ? kar_kana_start(c, s->upper_ms, s->tempo_even, j->terr) : 0);
        kar_kim_read(&s->kim, c);
        s->unread_bits[(c - 1) >> 6] &= ~(1ull << ((c - 1) & 63));
        s->nread++;
        s->cur = (uint8_t)c;
        cache_canon(s);
        s->nseq = 0;
        memset(s->seq, 0, sizeof s->seq); /* a state is its text: no stale bytes (kar_from_text) */
        if (s->variant == KAR_UTA && (s->loc[c] == KAR_LOC_OUT || s->loc[c] == KAR_LOC_DEAD)) { /* KA-U11: void */
            j->void_reading = 1;
            next_reading(s);
            return;
        }
        s->stage = KAR_ST_TOUCH;
        s->pending = (uint8_t)((1u << s->nseats) - 1);
        return;
    }
    switch (s->stage) {
    case KAR_ST_POOL:
        move_card(s, (int)(a & 0x7f), KAR_LOC_POOL);
        s->pending &= (uint8_t) ~(1u << seat);
        if (!s->pending)
            s->stage = KAR_ST_READ;
        return;
    case KAR_ST_TOUCH:
        j->resp[seat] = a;
        j->answered |= (uint8_t)(1u << seat);
        s->seq[s->nseq++] = (uint8_t)seat;
        s->pending &= (uint8_t) ~(1u << seat);
        if (s->pending)
            return;
        if (s->variant == KAR_KYOGI)
            judge_kyogi(s);
        else if (s->variant == KAR_UTA)
            judge_uta(s);
        else
            judge_chirashi(s);
        return;
    case KAR_ST_SEND:
        if (a == KAR_A_PASS)
            j->owed = j->sent; /* KA-R11: the right lapses */
        else
            do_send(s, (int)(a & 0x7f));
        advance(s);
        return;
    case KAR_ST_PLACE:
        put_card(s, seat, s->place_card, (int)((a >> 8) & 0xff), (int)((a >> 16) & 0xff));
        s->place_card = 0;
        advance(s);
        return;
    case KAR_ST_ARRANGE:
        if (a != KAR_A_READY) { /* announced: kept in the judgement for both players (KA-R15) */
            int c = (int)(a & 0x7f), r = (int)((a >> 8) & 0xff), k = (int)((a >> 16) & 0xff);
            uint8_t *x = j->arranged[seat];
            x[0] = (uint8_t)c, x[1] = s->row[c], x[2] = s->slot[c], x[3] = (uint8_t)r, x[4] = (uint8_t)k;
            lift_card(s, c);
            put_card(s, seat, c, r, k);
            s->moved_at[c] = s->nread; /* a moved card: the bot's memory model */
        }
        s->pending &= (uint8_t) ~(1u << seat);
        if (!s->pending)
            s->stage = KAR_ST_READ;
        return;
    default:
        return;
    }
}

static void kar_outcome(const void *st, pl_outcome *o)
{
    const kar_state *s = st;
    memset(o, 0, sizeof *o);
    o->nseats = s->nseats;
    for (int p = 0; p < s->nseats; p++)
        o->score[p] = s->count[p];
    if (s->stage != KAR_ST_OVER) {
        o->kind = PL_WIN_NONE;
        return;
    }
    if (s->winner >= 0 && s->teams) { /* KA-U6 option: the team of the seat that emptied his hand */
        o->kind = PL_WIN_TEAM;
        o->winner = s->winner % 2;
        o->utility[o->winner] = o->utility[o->winner + 2] = 1;
        return;
    }
    if (s->winner >= 0) {
        o->kind = PL_WIN_SEAT;
        o->winner = s->winner;
        o->utility[s->winner] = 1;
        return;
    }
    o->kind = PL_WIN_DRAW; /* share among the tied best */
    if (s->teams) {
        for (int p = 0; p < 4; p++)
            o->utility[p] = 0.5;
        return;
    }
    int best = s->count[0], n = 0;
    bool most = s->variant == KAR_CHIRASHI;
    for (int p = 0; p < s->nseats; p++)
        if (most ? s->count[p] > best : s->count[p] < best)
            best = s->count[p];
    for (int p = 0; p < s->nseats; p++)
        n += s->count[p] == best;
    for (int p = 0; p < s->nseats; p++)
        o->utility[p] = s->count[p] == best ? 1.0 / n : 0;
}

static void kar_determinize(const void *st, int seat, pl_rng *rng, void *out)
{
    (void)seat;
    (void)rng;
    memcpy(out, st, sizeof(kar_state));
}

/* Levels: the game's own player (kar_bot.c, docs/ai.md); a search over
 * canonical touch times would play like a machine. */
static const pl_level kar_levels[] = {
    {"easy", "bot:beginner", "a beginner: slow recognition, static kimariji, many memory slips"},
    {"medium", "bot:club", "a club player (the default player)"},
    {"hard", "bot:expert", "an expert: fast, plays by territory kimariji"},
    {"champion", "bot:champion", "a champion: recognition at about 110 ms"},
    {NULL, NULL, NULL},
};

/* Option sets the generic tests and fuzz targets play (the first four are
 * the fuzz targets'): kyogi, uta-karuta, chirashi on half the deck, and no
 * memorisation time or tie window. */
static const char *const kar_variants[] = {
    "", "variant=uta", "variant=chirashi cards=50", "memo_s=0 tie_ms=0", NULL,
};

const pl_game kar_game = {
    .id = "karuta",
    .name = "Karuta with the Ogura Hyakunin Isshu (kyogi karuta, uta-karuta, chirashi-dori)",
    .summary =
        "The hundred poems: a reader reads upper halves in random order, kana by kana; players\n"
        "race to touch the card with the matching lower half. kyogi (2 players): 25 cards each\n"
        "in 3 rows of your territory, 50 dead; a take from the other side or an opponent's foul\n"
        "(a touch in a territory without the card, counted per territory) lets you send cards;\n"
        "the first with an empty territory wins. uta (4): all 100 dealt, owner's priority window,\n"
        "gifts of 2, pearls 12/22/97, the pool. chirashi (1-8): one shared field, most cards wins.\n"
        "Touches are timed: touch N@MS [N@MS ...] in ms from the first kana; or none.",
    .options = kar_options,
    .state_size = sizeof(kar_state),
    .init = kar_init,
    .phase = kar_phase,
    .num_seats = kar_num_seats,
    .team_of = kar_team_of,
    .actors = kar_actors,
    .legal = kar_legal,
    .chance = kar_chance,
    .sample_chance = kar_sample_chance,
    .apply = kar_apply,
    .outcome = kar_outcome,
    .format_action = kar_format_action,
    .parse_action = kar_parse_action,
    .explain_illegal = kar_explain_illegal,
    .check = kar_check,
    .bot = kar_bot,
    .draw = kar_draw,
    .view = kar_view,
    .view_json = kar_view_json,
    .to_text = kar_to_text,
    .from_text = kar_from_text,
    .determinize = kar_determinize,
    .evaluate = NULL,
    .levels = kar_levels,
    .variants = kar_variants,
    .events = kar_events,
    .action_fields = kar_action_fields,
};
