/* kar_reading.c — the reading of a karuta match state for a front end that
 * reads aloud on its own clock (public/kar_practice.h, karp_reading_of):
 * the server sends each kana of the timeline when it is read and converts
 * touches to the reading's time, so it needs the timeline, the deciding
 * kana and the touch window of the state it holds, without kar.h; and it
 * builds the seats' answers as actions (karp_answer_action).
 */
#include <string.h>

#include "kar.h"
#include "public/kar_practice.h"

_Static_assert(KARP_MAXKANA >= 2 * KAR_TL_MAX, "a whole poem's timeline fits a karp_reading");

int karp_reading_of(const struct pl_game *g, const void *st, karp_reading *out)
{
    memset(out, 0, sizeof *out);
    if (g != &kar_game || !st)
        return 0;
    const kar_state *s = st;
    const kar_poem *poem = kar_poem_get(s->cur);
    if (s->stage != KAR_ST_TOUCH || !poem)
        return 0;
    kar_kana tl[2 * KAR_TL_MAX];
    bool whole = s->variant == KAR_CHIRASHI; /* KA-S2: chirashi reads whole poems */
    int n = kar_timeline(s->cur, s->upper_ms, s->lower_ms, whole, s->tempo_even, tl, 2 * KAR_TL_MAX);
    if (n < 1) /* cannot happen: every poem has a timeline (kar_poems.c checks at start-up) */
        return 0;
    out->card = s->cur;
    out->n = s->nread;
    out->nkana = n;
    for (int i = 0; i < n; i++) { /* static strings: the poem table, not the copies in tl */
        int h = i >= poem->tl_n[0];
        out->kana[i] = poem->tl_kana[h][h ? i - poem->tl_n[0] : i];
        out->start_ms[i] = tl[i].start_ms;
    }
    /* the deciding kana: the last of the dynamic kimariji fixed when the card
     * was read (KA-K3), the same kana whose start is s->last.decide_ms */
    int kim = s->last.kim >= 1 ? s->last.kim : 1;
    out->decide = kim <= n ? kim - 1 : n - 1;
    out->end_ms = tl[n - 1].end_ms;
    out->deadline_ms = out->end_ms + KARP_GRACE_MS > KAR_MS_MAX ? KAR_MS_MAX : out->end_ms + KARP_GRACE_MS;
    return 1;
}

_Static_assert(KARP_MAXTOUCH == KAR_MAXTOUCH && KARP_MS_MAX == KAR_MS_MAX, "the public limits are the game's");

int karp_answer_action(const struct pl_game *g, const int *card, const int *ms, int n, int poet, uint64_t *out)
{
    if (g != &kar_game || n < 0 || n > KAR_MAXTOUCH || poet < 0 || poet > KAR_NPOEMS || (poet && n != 1))
        return -1;
    if (!n) {
        *out = KAR_A_NONE;
        return 0;
    }
    kar_touch t[KAR_MAXTOUCH];
    for (int i = 0; i < n; i++) {
        if (card[i] < 1 || card[i] > KAR_NPOEMS || ms[i] < 0 || ms[i] > KAR_MS_MAX)
            return -1;
        for (int k = 0; k < i; k++)
            if (card[k] == card[i])
                return -1;
        t[i] = (kar_touch){.card = (uint8_t)card[i], .ms = (uint16_t)ms[i]};
    }
    *out = kar_touch_action(t, n) | KAR_A_POET(poet);
    return 0;
}
