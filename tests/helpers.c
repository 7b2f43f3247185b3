/* helpers.c — see helpers.h. */
#include "helpers.h"

#include <stdio.h>
#include <string.h>

#include "parlour/alloc.h"

pl_match *th_new(const char *game, const char *opts)
{
    const pl_game *g = pl_game_find(game);
    assert_non_null(g);
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", opts ? opts : "");
    char *argv[32];
    int argc = 0;
    for (char *w = strtok(copy, " "); w && argc < 32; w = strtok(NULL, " "))
        argv[argc++] = w;
    pl_buf err = {0};
    pl_match *m = pl_match_new(g, argc, argv, &err);
    if (!m)
        fail_msg("new %s %s: %s", game, opts, pl_buf_str(&err));
    pl_buf_free(&err);
    return m;
}

int th_try(pl_match *m, const char *text, pl_buf *err)
{
    return pl_match_play_text(m, -1, text, err);
}

void th_play(pl_match *m, const char *text)
{
    pl_buf err = {0};
    if (th_try(m, text, &err) < 0)
        fail_msg("play '%s': %s", text, pl_buf_str(&err));
    pl_buf_free(&err);
}

void th_script(pl_match *m, const char *script)
{
    char copy[4096];
    snprintf(copy, sizeof copy, "%s", script);
    char *save = NULL;
    for (char *w = strtok_r(copy, ";", &save); w; w = strtok_r(NULL, ";", &save)) {
        while (*w == ' ')
            w++;
        char *e = w + strlen(w);
        while (e > w && e[-1] == ' ')
            *--e = '\0';
        if (*w)
            th_play(m, w);
    }
}

const char *th_legal(pl_match *m)
{
    static char out[8192];
    pl_buf b = {0};
    pl_list_legal(m->game, m->state, pl_sole_actor(m->game, m->state), 10000, &b);
    snprintf(out, sizeof out, "%s", pl_buf_str(&b));
    pl_buf_free(&b);
    return out;
}

void th_position(pl_match *m, const char *text)
{
    pl_buf err = {0};
    if (m->game->from_text(m->state, text, &err) < 0)
        fail_msg("position '%s': %s", text, pl_buf_str(&err));
    pl_buf_free(&err);
}

const char *th_pos(pl_match *m)
{
    static char out[16384];
    pl_buf b = {0};
    m->game->to_text(m->state, &b);
    snprintf(out, sizeof out, "%s", pl_buf_str(&b));
    pl_buf_free(&b);
    return out;
}
