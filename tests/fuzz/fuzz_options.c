/* fuzz_options.c — option strings (pl_opts_parse, then the game's init via
 * pl_match_new). Byte 0 picks the game; the rest is split into words at
 * spaces and NUL bytes. A rejection carries a message and leaves the options
 * empty; an accepted set holds a value for every key, copies exactly, and
 * either starts a game that passes the state checks or fails with a message. */
#include <string.h>

#include "fuzz.h"
#include "parlour/alloc.h"
#include "parlour/registry.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 4096)
        return 0;
    int ngames;
    const pl_game *const *games = pl_games(&ngames);
    const pl_game *g = games[data[0] % ngames];
    char *text = pl_malloc(size);
    FUZZ_CHECK(text != NULL, "out of memory");
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    char *argv[33];
    int argc = 0;
    size_t i = 0, n = size - 1;
    while (i < n && argc < 32) {
        while (i < n && (text[i] == ' ' || text[i] == '\0'))
            text[i++] = '\0';
        if (i >= n)
            break;
        argv[argc++] = text + i;
        while (i < n && text[i] != ' ' && text[i] != '\0')
            i++;
    }
    pl_opts o;
    pl_buf err = {0};
    if (pl_opts_parse(&o, g->options, argc, argv, &err) < 0) {
        FUZZ_CHECK(err.len > 0, "rejected without a message");
        FUZZ_CHECK(o.values == NULL && o.given == NULL && o.n == 0, "rejected options not empty");
    } else {
        for (int k = 0; k < o.n; k++)
            FUZZ_CHECK(o.values[k] != NULL, "option %s has no value", o.defs[k].key);
        pl_opts c;
        FUZZ_CHECK(pl_opts_copy(&c, &o) == 0, "copy failed");
        pl_buf w1 = {0}, w2 = {0};
        pl_opts_write(&o, &w1);
        pl_opts_write(&c, &w2);
        FUZZ_CHECK(!strcmp(pl_buf_str(&w1), pl_buf_str(&w2)), "copy differs");
        pl_buf_free(&w1);
        pl_buf_free(&w2);
        pl_opts_free(&c);
        if (!o.seed_given && argc < 32) /* a fixed seed: reproducible runs */
            argv[argc++] = "seed=1";
        pl_opts_free(&o);
        pl_buf_clear(&err);
        pl_match *m = pl_match_new(g, argc, argv, &err);
        if (m) {
            fz_check_state(g, m->state, m->initial, 1);
            pl_match_free(m);
        } else {
            FUZZ_CHECK(err.len > 0, "init failed without a message");
        }
    }
    pl_buf_free(&err);
    pl_free(text);
    return 0;
}
