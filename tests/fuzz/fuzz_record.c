/* fuzz_record.c — game records (pl_record_read): any bytes either load a
 * valid game or fail with a message. A loaded game's state is its history
 * replayed from its initial state, passes the state checks, and writes a
 * record that reads back to the same state and the same text. */
#include <string.h>

#include "fuzz.h"
#include "parlour/alloc.h"
#include "parlour/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65536)
        return 0;
    char *text = pl_malloc(size + 1);
    FUZZ_CHECK(text != NULL, "out of memory");
    memcpy(text, data, size);
    text[size] = '\0';
    pl_buf err = {0};
    pl_match *m = pl_record_read(text, &err);
    if (!m) {
        FUZZ_CHECK(err.len > 0, "a rejected record without a message");
    } else {
        const pl_game *g = m->game;
        void *st = pl_malloc(g->state_size);
        FUZZ_CHECK(st != NULL, "out of memory");
        pl_state_copy(g, st, m->initial);
        for (int i = 0; i < m->nhist; i++)
            g->apply(st, m->hist[i].seat, m->hist[i].a);
        FUZZ_CHECK(!memcmp(st, m->state, g->state_size), "state is not its replayed history");
        pl_free(st);
        fz_check_state(g, m->state, m->initial, 1);
        pl_buf r1 = {0}, r2 = {0}, e2 = {0};
        FUZZ_CHECK(pl_record_write(m, &r1) == 0, "record write failed");
        pl_match *m2 = pl_record_read(pl_buf_str(&r1), &e2);
        FUZZ_CHECK(m2 != NULL, "written record does not load: %s\n%s", pl_buf_str(&e2), pl_buf_str(&r1));
        FUZZ_CHECK(!memcmp(m2->state, m->state, g->state_size), "record round trip changes the state");
        FUZZ_CHECK(pl_record_write(m2, &r2) == 0, "record write failed");
        FUZZ_CHECK(!strcmp(pl_buf_str(&r1), pl_buf_str(&r2)), "record text changes");
        pl_match_free(m2);
        pl_buf_free(&r1);
        pl_buf_free(&r2);
        pl_buf_free(&e2);
        pl_match_free(m);
    }
    pl_buf_free(&err);
    pl_free(text);
    return 0;
}
