/* kar_kimariji.c — dynamic and territory kimariji (KA-K3, KA-K4) kept up to
 * date as poems are read and cards move.
 *
 * A static trie of the sound keys, cut at KAR_DEPTH kana (no kimariji is
 * longer, and dynamic ones only shorten): node_of[p][d] is the node of the
 * first d kana of poem p's key. Each node counts the unread poems below it,
 * in all (cnt) and per zone (z). Reading a poem or moving a card updates
 * KAR_DEPTH counters; a kimariji query walks at most KAR_DEPTH nodes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kar.h"

/* Built once by kar_kim_setup, which kar_poems.c's constructor calls before
 * main (so before any thread); read-only afterwards. */
static uint16_t node_of[KAR_NPOEMS + 1][KAR_DEPTH + 1];
static int nnodes;

void kar_kim_setup(void); /* called once by kar_poems.c after the keys are built */

void kar_kim_setup(void)
{
    nnodes = 0;
    for (int d = 1; d <= KAR_DEPTH; d++)
        for (int a = 1; a <= KAR_NPOEMS; a++) {
            const kar_poem *pa = kar_poem_get(a);
            int found = -1;
            for (int b = 1; b < a && found < 0; b++) {
                const kar_poem *pb = kar_poem_get(b);
                if (pb->keylen >= d && pa->keylen >= d &&
                    !memcmp(pa->key, pb->key, sizeof pa->key[0] * (size_t)d))
                    found = node_of[b][d];
            }
            if (found < 0) {
                if (nnodes >= KAR_NODES) {
                    fputs("parlour: kimariji trie too small\n", stderr);
                    abort();
                }
                found = nnodes++;
            }
            node_of[a][d] = (uint16_t)found;
        }
}

int kar_kim_static(int number)
{
    const kar_poem *p = kar_poem_get(number);
    return p ? p->kim : 0;
}

static void add(kar_kim *k, int number, int zone, int delta)
{
    for (int d = 1; d <= KAR_DEPTH; d++) {
        int n = node_of[number][d];
        if (zone < 0)
            k->cnt[n] = (uint8_t)(k->cnt[n] + delta);
        else
            k->z[zone][n] = (uint8_t)(k->z[zone][n] + delta);
    }
}

void kar_kim_init(kar_kim *k)
{
    memset(k, 0, sizeof *k);
    for (int p = 1; p <= KAR_NPOEMS; p++) {
        k->unread[p] = 1;
        k->zone[p] = -1;
        add(k, p, -1, 1);
    }
}

void kar_kim_set_zone(kar_kim *k, int number, int zone)
{
    if (number < 1 || number > KAR_NPOEMS || k->zone[number] == zone)
        return;
    if (k->unread[number] && k->zone[number] >= 0)
        add(k, number, k->zone[number], -1);
    k->zone[number] = (int8_t)zone;
    if (k->unread[number] && zone >= 0)
        add(k, number, zone, 1);
}

void kar_kim_read(kar_kim *k, int number)
{
    if (number < 1 || number > KAR_NPOEMS || !k->unread[number])
        return;
    add(k, number, -1, -1);
    if (k->zone[number] >= 0)
        add(k, number, k->zone[number], -1);
    k->unread[number] = 0;
}

int kar_kim_dynamic(const kar_kim *k, int number)
{
    if (number < 1 || number > KAR_NPOEMS)
        return 0;
    int self = k->unread[number];
    for (int d = 1; d <= KAR_DEPTH; d++)
        if (k->cnt[node_of[number][d]] - self == 0)
            return d;
    return KAR_DEPTH;
}

int kar_kim_territory(const kar_kim *k, int number)
{
    if (number < 1 || number > KAR_NPOEMS || k->zone[number] < 0)
        return 0;
    int zn = k->zone[number], self = k->unread[number] ? 0 : 1; /* count the poem itself */
    for (int d = 1; d <= KAR_DEPTH; d++) {
        int n = node_of[number][d];
        if (k->cnt[n] + self == k->z[zn][n] + self)
            return d;
    }
    return KAR_DEPTH;
}
