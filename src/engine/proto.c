/* proto.c — the engine protocol (proto.h, docs/protocol.md).
 *
 * Each request is split into an optional numeric id, a command and its
 * arguments; the handler writes its result into `res` and returns 0, or a
 * message into `res` and returns -1. The framing (=ID / ?ID, final empty
 * line) is added in one place, pl_proto_line.
 */
#include "proto.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <utf8proc.h>

#include "../ai/ai.h"
#include "parlour/alloc.h"
#include "parlour/match.h"
#include "parlour/record.h"
#include "parlour/registry.h"

#define PROTO_VERSION "1"
#define PROGRAM_NAME "parlour"
#define PROGRAM_VERSION PARLOUR_VERSION /* CMakeLists.txt's project() VERSION */
#define MAX_ARGS 64

struct pl_proto {
    pl_match *m;
    int quit; /* set by quit */
    /* The last genmove's player, kept while the game and the spec stay the
     * same (a perfect: table is loaded once, not on every genmove). */
    ai_player *ai;
    const pl_game *ai_game;
    char *ai_spec;
};

/* ---- The commands: one handler each, one row each in `commands` below. ---- */

typedef struct proto_cmd proto_cmd;
/* A handler answers one request: `argv` holds the words after the command,
 * `rest` the rest of the line as typed (trailing blanks cut). It writes the
 * result, or a message when it returns -1, into `res`. */
typedef int (*proto_handler)(pl_proto *p, const proto_cmd *c, int argc, char **argv,
                             const char *rest, pl_buf *res);
struct proto_cmd {
    const char *name;
    const char *usage;  /* the arguments, as "usage: " + usage shows them */
    bool needs_game;    /* answered "no game" before a game is started */
    proto_handler run;
};

static int usage(const proto_cmd *c, pl_buf *res)
{
    pl_buf_printf(res, "usage: %s", c->usage);
    return -1;
}

/* Drops the one trailing newline a writer appends. */
static void trim_newline(pl_buf *res)
{
    if (res->len && res->s[res->len - 1] == '\n')
        res->s[--res->len] = '\0';
}

pl_proto *pl_proto_new(void) { return pl_calloc(1, sizeof(pl_proto)); }

void pl_proto_free(pl_proto *p)
{
    if (!p)
        return;
    pl_match_free(p->m);
    ai_player_free(p->ai);
    pl_free(p->ai_spec);
    pl_free(p);
}

/* The session's player for `spec` in game `g`: the one kept from the last
 * genmove when both match, else a new one that replaces it. NULL with a
 * message in `res` (bad spec, a table that cannot be loaded, no memory);
 * the kept player is then unchanged. */
static const ai_player *proto_player(pl_proto *p, const pl_game *g, const char *spec, pl_buf *res)
{
    if (!spec)
        spec = "";
    if (p->ai && p->ai_game == g && !strcmp(p->ai_spec, spec))
        return p->ai;
    ai_player *ai = ai_player_new(g, spec, res);
    if (!ai)
        return NULL;
    char *copy = pl_strdup(spec);
    if (!copy) {
        ai_player_free(ai);
        pl_buf_puts(res, "out of memory");
        return NULL;
    }
    ai_player_free(p->ai);
    pl_free(p->ai_spec);
    p->ai = ai;
    p->ai_game = g;
    p->ai_spec = copy;
    return ai;
}

static bool parse_seat(const char *s, int *seat)
{
    if (!*s || strlen(s) > 3)
        return false;
    for (const char *q = s; *q; q++)
        if (!isdigit((unsigned char)*q))
            return false;
    *seat = atoi(s);
    return true;
}

static int need_game(pl_proto *p, pl_buf *res)
{
    if (p->m)
        return 0;
    pl_buf_puts(res, "no game: start one with new GAME (games: ");
    pl_games_list(res);
    pl_buf_putc(res, ')');
    return -1;
}

static int check_seat(pl_proto *p, const char *arg, int *seat, pl_buf *res)
{
    int ns = p->m->game->num_seats(p->m->state);
    if (!parse_seat(arg, seat) || *seat >= ns) {
        pl_buf_printf(res, "bad seat '%s': seats are 0 to %d", arg, ns - 1);
        return -1;
    }
    return 0;
}

static int cmd_new(pl_proto *p, const proto_cmd *c, int argc, char **argv, const char *rest,
                   pl_buf *res)
{
    (void)rest;
    if (argc < 1) {
        usage(c, res);
        pl_buf_puts(res, "; games: ");
        pl_games_list(res);
        return -1;
    }
    const pl_game *g = pl_game_find(argv[0]);
    if (!g) {
        pl_buf_printf(res, "unknown game '%s'; games: ", argv[0]);
        pl_games_list(res);
        return -1;
    }
    pl_match *m = pl_match_new(g, argc - 1, argv + 1, res);
    if (!m)
        return -1;
    pl_match_free(p->m);
    p->m = m;
    return 0;
}

static int cmd_legal(pl_proto *p, const proto_cmd *c, int argc, char **argv, const char *rest,
                     pl_buf *res)
{
    (void)c, (void)rest;
    const pl_game *g = p->m->game;
    const void *st = p->m->state;
    pl_phase ph = g->phase(st);
    if (ph == PL_PHASE_OVER)
        return 0;
    if (ph == PL_PHASE_CHANCE) {
        pl_action acts[PL_MAX_CHANCE];
        double prob[PL_MAX_CHANCE];
        int n = pl_chance_all(g, st, acts, prob);
        if (n < 0) {
            pl_buf_puts(res, "random");
            return 0;
        }
        for (int i = 0; i < n; i++) {
            if (i)
                pl_buf_putc(res, '\n');
            g->format_action(st, PL_CHANCE, acts[i], res);
            pl_buf_printf(res, " p=%.10g", prob[i]);
        }
        return 0;
    }
    int seat;
    if (argc >= 1) {
        if (check_seat(p, argv[0], &seat, res) < 0)
            return -1;
    } else {
        seat = pl_sole_actor(g, st);
        if (seat < 0) {
            pl_buf_puts(res, "several seats act at once: use legal SEAT");
            return -1;
        }
    }
    pl_action *acts = pl_malloc(sizeof *acts * PL_MAX_ACTIONS);
    if (!acts) {
        pl_buf_puts(res, "out of memory");
        return -1;
    }
    int n = pl_legal_all(g, st, seat, acts);
    for (int i = 0; i < n; i++) {
        if (i)
            pl_buf_putc(res, '\n');
        g->format_action(st, seat, acts[i], res);
    }
    pl_free(acts);
    return 0;
}

/* The action text is the rest of the line after the command (and seat). */
static int cmd_play(pl_proto *p, const proto_cmd *c, int argc, char **argv, const char *rest,
                    pl_buf *res)
{
    if (argc < 1)
        return usage(c, res);
    int seat = -1;
    const char *text = rest;
    if (argc >= 2 && parse_seat(argv[0], &seat)) {
        if (check_seat(p, argv[0], &seat, res) < 0)
            return -1;
        text = rest + strlen(argv[0]);
        while (*text == ' ' || *text == '\t')
            text++;
    }
    pl_buf e = {0};
    int rc = pl_match_play_text(p->m, seat, text, &e);
    pl_buf_puts(res, pl_buf_str(&e));
    pl_buf_free(&e);
    return rc;
}

static int cmd_genmove(pl_proto *p, const proto_cmd *c, int argc, char **argv,
                       const char *rest, pl_buf *res)
{
    (void)c, (void)rest;
    pl_match *m = p->m;
    const pl_game *g = m->game;
    pl_phase ph = g->phase(m->state);
    if (ph != PL_PHASE_MOVE) {
        pl_buf_puts(res, ph == PL_PHASE_OVER ? "the game is over"
                                             : "chance acts now: use random or play OUTCOME");
        return -1;
    }
    int seat = pl_sole_actor(g, m->state);
    const char *spec = argc >= 1 ? argv[0] : NULL;
    if (seat < 0) {
        pl_buf_puts(res, "several seats act at once: genmove plays for one actor only");
        return -1;
    }
    const ai_player *ai = proto_player(p, g, spec, res);
    if (!ai)
        return -1;
    pl_rng r;
    pl_match_rng(m, 1, &r);
    pl_action a;
    if (ai_player_choose(ai, m->state, seat, pl_rng_next(&r), &a, res) < 0)
        return -1;
    pl_buf text = {0};
    g->format_action(m->state, seat, a, &text);
    int rc = pl_match_play(m, seat, a, res);
    if (rc == 0)
        pl_buf_puts(res, pl_buf_str(&text));
    pl_buf_free(&text);
    return rc;
}

static int cmd_protocol_version(pl_proto *p, const proto_cmd *c, int argc, char **argv,
                                const char *rest, pl_buf *res)
{
    (void)p, (void)c, (void)argc, (void)argv, (void)rest;
    pl_buf_puts(res, PROTO_VERSION);
    return 0;
}

static int cmd_name(pl_proto *p, const proto_cmd *c, int argc, char **argv, const char *rest,
                    pl_buf *res)
{
    (void)p, (void)c, (void)argc, (void)argv, (void)rest;
    pl_buf_puts(res, PROGRAM_NAME);
    return 0;
}

static int cmd_version(pl_proto *p, const proto_cmd *c, int argc, char **argv, const char *rest,
                       pl_buf *res)
{
    (void)p, (void)c, (void)argc, (void)argv, (void)rest;
    pl_buf_puts(res, PROGRAM_VERSION);
    return 0;
}

static int cmd_quit(pl_proto *p, const proto_cmd *c, int argc, char **argv, const char *rest,
                    pl_buf *res)
{
    (void)c, (void)argc, (void)argv, (void)rest, (void)res;
    p->quit = 1;
    return 0;
}

static int cmd_list_games(pl_proto *p, const proto_cmd *c, int argc, char **argv,
                          const char *rest, pl_buf *res)
{
    (void)p, (void)c, (void)argc, (void)argv, (void)rest;
    int n;
    const pl_game *const *gs = pl_games(&n);
    for (int i = 0; i < n; i++)
        pl_buf_printf(res, "%s%s", i ? "\n" : "", gs[i]->id);
    return 0;
}

static int cmd_list_options(pl_proto *p, const proto_cmd *c, int argc, char **argv,
                            const char *rest, pl_buf *res)
{
    (void)p, (void)rest;
    const pl_game *g = argc >= 1 ? pl_game_find(argv[0]) : NULL;
    if (!g) {
        if (argc)
            pl_buf_puts(res, "unknown game");
        else
            usage(c, res);
        pl_buf_puts(res, "; games: ");
        pl_games_list(res);
        return -1;
    }
    pl_opts_describe(g->options, res);
    trim_newline(res);
    return 0;
}

static int cmd_load(pl_proto *p, const proto_cmd *c, int argc, char **argv, const char *rest,
                    pl_buf *res)
{
    (void)argc, (void)argv;
    if (!*rest)
        return usage(c, res);
    pl_match *m = pl_record_read(rest, res);
    if (!m)
        return -1;
    pl_match_free(p->m);
    p->m = m;
    return 0;
}

static int cmd_options(pl_proto *p, const proto_cmd *c, int argc, char **argv, const char *rest,
                       pl_buf *res)
{
    (void)c, (void)argc, (void)argv, (void)rest;
    pl_opts_write(&p->m->opts, res);
    trim_newline(res); /* empty when memory ran out */
    return 0;
}

static int cmd_status(pl_proto *p, const proto_cmd *c, int argc, char **argv, const char *rest,
                      pl_buf *res)
{
    (void)c, (void)argc, (void)argv, (void)rest;
    pl_match_status(p->m, res);
    return 0;
}

static int cmd_random(pl_proto *p, const proto_cmd *c, int argc, char **argv, const char *rest,
                      pl_buf *res)
{
    (void)c, (void)argc, (void)argv, (void)rest;
    pl_match *m = p->m;
    const pl_game *g = m->game;
    pl_action a;
    pl_buf text = {0};
    void *before = pl_malloc(g->state_size);
    if (!before) {
        pl_buf_puts(res, "out of memory");
        return -1;
    }
    pl_state_copy(g, before, m->state);
    int rc = pl_match_random(m, &a, res);
    if (rc == 0) {
        g->format_action(before, PL_CHANCE, a, &text);
        pl_buf_puts(res, pl_buf_str(&text));
    }
    pl_free(before);
    pl_buf_free(&text);
    return rc;
}

static int cmd_undo(pl_proto *p, const proto_cmd *c, int argc, char **argv, const char *rest,
                    pl_buf *res)
{
    (void)c, (void)argc, (void)argv, (void)rest;
    return pl_match_undo(p->m, res);
}

/* history and record: [SEAT], as that seat saw it. */
static int optional_seat(pl_proto *p, const proto_cmd *c, int argc, char **argv, int *seat,
                         pl_buf *res)
{
    *seat = -1;
    if (argc > 1)
        return usage(c, res);
    if (argc == 1 && check_seat(p, argv[0], seat, res) < 0)
        return -1;
    return 0;
}

static int cmd_history(pl_proto *p, const proto_cmd *c, int argc, char **argv, const char *rest,
                       pl_buf *res)
{
    (void)rest;
    int seat;
    if (optional_seat(p, c, argc, argv, &seat, res) < 0)
        return -1;
    if (seat < 0)
        pl_match_history(p->m, res);
    else
        pl_match_history_for(p->m, seat, res);
    return 0;
}

static int cmd_record(pl_proto *p, const proto_cmd *c, int argc, char **argv, const char *rest,
                      pl_buf *res)
{
    (void)rest;
    int seat;
    if (optional_seat(p, c, argc, argv, &seat, res) < 0)
        return -1;
    int rc = seat < 0 ? pl_record_write(p->m, res) : pl_record_write_for(p->m, seat, res);
    if (rc < 0)
        pl_buf_puts(res, "out of memory");
    return rc;
}

/* show [SEAT] and view SEAT: the board as text, without trailing newlines. */
static int cmd_show(pl_proto *p, const proto_cmd *c, int argc, char **argv, const char *rest,
                    pl_buf *res)
{
    (void)rest;
    const pl_game *g = p->m->game;
    int seat = -1;
    if (argc >= 1 && check_seat(p, argv[0], &seat, res) < 0)
        return -1;
    if (!strcmp(c->name, "view")) {
        if (argc < 1)
            return usage(c, res);
        g->view(p->m->state, seat, res);
    } else {
        pl_show(g, p->m->state, seat, res);
    }
    while (res->len && res->s[res->len - 1] == '\n')
        res->s[--res->len] = '\0';
    return 0;
}

/* view_json SEAT|spectator (an extension, docs/protocol.md): the seat's
 * structured view (pl_view_json) on one line. */
static int cmd_view_json(pl_proto *p, const proto_cmd *c, int argc, char **argv, const char *rest,
                         pl_buf *res)
{
    (void)rest;
    int seat = -1;
    if (argc != 1)
        return usage(c, res);
    if (strcmp(argv[0], "spectator") && check_seat(p, argv[0], &seat, res) < 0)
        return -1;
    return pl_view_json(p->m->game, p->m->state, seat, res, res);
}

/* choose SEAT SEED [PLAYER] (an extension, docs/protocol.md): what the
 * computer player would play for SEAT, an actor, with its random choices
 * drawn from SEED (ai_player_choose's seed), without playing it. The
 * server's engine workers answer with it (src/server/engines.c), so a
 * worker's choice is the one the server's own thread would make. */
static int cmd_choose(pl_proto *p, const proto_cmd *c, int argc, char **argv, const char *rest,
                      pl_buf *res)
{
    (void)rest;
    if (argc < 2 || argc > 3)
        return usage(c, res);
    pl_match *m = p->m;
    const pl_game *g = m->game;
    int seat;
    if (check_seat(p, argv[0], &seat, res) < 0)
        return -1;
    const char *q = argv[1];
    size_t n = strlen(q);
    uint64_t seed = 0;
    bool ok = n > 0 && n <= 20;
    for (size_t i = 0; ok && i < n; i++) {
        unsigned d = (unsigned)(q[i] - '0');
        ok = d <= 9 && seed <= (UINT64_MAX - d) / 10;
        seed = seed * 10 + d;
    }
    if (!ok) {
        pl_buf_printf(res, "bad seed '%s': a number from 0 to %llu", q, (unsigned long long)UINT64_MAX);
        return -1;
    }
    pl_phase ph = g->phase(m->state);
    if (ph != PL_PHASE_MOVE) {
        pl_buf_puts(res, ph == PL_PHASE_OVER ? "the game is over" : "chance acts now, not a seat");
        return -1;
    }
    if (!pl_is_actor(g, m->state, seat)) {
        pl_buf_printf(res, "seat %d does not act now", seat);
        return -1;
    }
    const ai_player *ai = proto_player(p, g, argc == 3 ? argv[2] : NULL, res);
    if (!ai)
        return -1;
    pl_action a;
    if (ai_player_choose(ai, m->state, seat, seed, &a, res) < 0)
        return -1;
    g->format_action(m->state, seat, a, res);
    return 0;
}

static int cmd_position(pl_proto *p, const proto_cmd *c, int argc, char **argv,
                        const char *rest, pl_buf *res)
{
    (void)c, (void)argc, (void)argv, (void)rest;
    p->m->game->to_text(p->m->state, res);
    return 0;
}

/* Every command, in the order the "unknown command" message lists them. */
static const proto_cmd commands[] = {
    {"protocol_version", "protocol_version", false, cmd_protocol_version},
    {"name", "name", false, cmd_name},
    {"version", "version", false, cmd_version},
    {"list_games", "list_games", false, cmd_list_games},
    {"list_options", "list_options GAME", false, cmd_list_options},
    {"new", "new GAME [KEY=VALUE ...]", false, cmd_new},
    {"options", "options", true, cmd_options},
    {"status", "status", true, cmd_status},
    {"legal", "legal [SEAT]", true, cmd_legal},
    {"play", "play [SEAT] ACTION", true, cmd_play},
    {"random", "random", true, cmd_random},
    {"undo", "undo", true, cmd_undo},
    {"history", "history [SEAT]", true, cmd_history},
    {"show", "show [SEAT]", true, cmd_show},
    {"view", "view SEAT", true, cmd_show},
    {"record", "record [SEAT]", true, cmd_record},
    {"load", "load JSON (a record on one line)", false, cmd_load},
    {"genmove", "genmove [PLAYER]", true, cmd_genmove},
    {"position", "position", true, cmd_position},
    {"quit", "quit", false, cmd_quit},
    /* extensions (docs/protocol.md, "Extensions"): after the original commands */
    {"view_json", "view_json SEAT|spectator", true, cmd_view_json},
    {"choose", "choose SEAT SEED [PLAYER]", true, cmd_choose},
};
enum { NCOMMANDS = sizeof commands / sizeof commands[0] };

static int dispatch(pl_proto *p, const char *cmd, int argc, char **argv, const char *rest,
                    pl_buf *res)
{
    for (int i = 0; i < NCOMMANDS; i++) {
        const proto_cmd *c = &commands[i];
        if (strcmp(cmd, c->name))
            continue;
        if (c->needs_game && need_game(p, res) < 0)
            return -1;
        return c->run(p, c, argc, argv, rest, res);
    }
    pl_buf_printf(res, "unknown command '%s'; commands:", cmd);
    for (int i = 0; i < NCOMMANDS; i++)
        pl_buf_printf(res, " %s", commands[i].name);
    return -1;
}

int pl_proto_line(pl_proto *p, const char *line, size_t len, pl_buf *out)
{
    if (len && line[len - 1] == '\r')
        len--;
    /* Copy, since the request is tokenised in place. */
    char *buf = pl_malloc(len + 1);
    if (!buf) {
        pl_buf_puts(out, "? out of memory\n\n");
        return 0;
    }
    memcpy(buf, line, len);
    buf[len] = '\0';
    pl_buf res = {0};
    int rc;
    char *s = buf;
    while (*s == ' ' || *s == '\t')
        s++;
    /* Id first, so that even a bad request is answered with its id. */
    char id[24] = "";
    if (isdigit((unsigned char)*s)) {
        size_t k = 0;
        while (isdigit((unsigned char)s[k]) && k < sizeof id - 1)
            k++;
        if (s[k] == ' ' || s[k] == '\t' || s[k] == '\0') {
            memcpy(id, s, k);
            id[k] = '\0';
            s += k;
            while (*s == ' ' || *s == '\t')
                s++;
        }
    }
    if (*s == '\0' || *s == '#') {
        if (!id[0]) { /* empty or comment: ignored */
            pl_free(buf);
            return 0;
        }
    }
    if (strlen(buf) != len) {
        rc = -1;
        pl_buf_puts(&res, "the request holds a NUL byte");
    } else if (utf8proc_decompose((const utf8proc_uint8_t *)buf, (utf8proc_ssize_t)len, NULL, 0,
                                  UTF8PROC_STABLE) < 0) {
        rc = -1;
        pl_buf_puts(&res, "the request is not valid UTF-8");
    } else if (*s == '\0') {
        rc = -1;
        pl_buf_puts(&res, "empty request: a command is expected after the id");
    } else {
        char *cmd = s;
        while (*s && *s != ' ' && *s != '\t')
            s++;
        if (*s)
            *s++ = '\0';
        while (*s == ' ' || *s == '\t')
            s++;
        /* Rest of the line (trailing blanks cut), then split into words. */
        char *rest_end = s + strlen(s);
        while (rest_end > s && (rest_end[-1] == ' ' || rest_end[-1] == '\t'))
            *--rest_end = '\0';
        char *rest = pl_strdup(s);
        char *argv[MAX_ARGS];
        int argc = 0;
        while (*s && argc < MAX_ARGS) {
            argv[argc++] = s;
            while (*s && *s != ' ' && *s != '\t')
                s++;
            if (*s)
                *s++ = '\0';
            while (*s == ' ' || *s == '\t')
                s++;
        }
        if (!rest) {
            rc = -1;
            pl_buf_puts(&res, "out of memory");
        } else if (*s) {
            rc = -1;
            pl_buf_printf(&res, "too many arguments (at most %d)", MAX_ARGS);
        } else {
            rc = dispatch(p, cmd, argc, argv, rest, &res);
        }
        pl_free(rest);
    }
    if (res.oom) {
        rc = -1;
        pl_buf_clear(&res);
        pl_buf_puts(&res, "out of memory");
    }
    pl_buf_printf(out, "%c%s %s\n\n", rc == 0 ? '=' : '?', id, pl_buf_str(&res));
    pl_buf_free(&res);
    pl_free(buf);
    int quit = p->quit;
    p->quit = 0;
    return quit;
}

/* Answers every whole line of buf[0..*len) (and, at the end of input, the
 * last line without its LF), writing the answers to `out`; keeps a partial
 * line at the front of `buf`. Returns 1 after `quit`. */
static int proto_lines(pl_proto *p, char *buf, size_t *len, int eof, pl_buf *o, FILE *out)
{
    size_t start = 0;
    int quit = 0;
    while (!quit && start < *len) {
        char *nl = memchr(buf + start, '\n', *len - start);
        if (!nl && !eof)
            break;
        size_t n = nl ? (size_t)(nl - (buf + start)) : *len - start;
        pl_buf_clear(o);
        quit = pl_proto_line(p, buf + start, n, o);
        fputs(pl_buf_str(o), out);
        start += n + (nl != NULL);
    }
    memmove(buf, buf + start, *len - start);
    *len -= start;
    return quit;
}

int pl_proto_run(FILE *in, FILE *out)
{
    pl_proto *p = pl_proto_new();
    if (!p) {
        fputs("? out of memory\n\n", out);
        return 1;
    }
    pl_buf o = {0};
    int fd = fileno(in);
    if (fd >= 0) {
        /* Read what is there, answer every whole line of it, then flush once:
         * a client that sends many requests at once (a server's worker,
         * docs/server.md) gets their answers in one write, not one each; a
         * client that waits for each answer gets it as before. */
        size_t cap = 1 << 16, len = 0;
        char *buf = pl_malloc(cap);
        int quit = 0;
        while (buf && !quit) {
            if (len == cap) {
                char *b = pl_realloc(buf, cap * 2);
                if (!b)
                    break;
                buf = b;
                cap *= 2;
            }
            ssize_t k = read(fd, buf + len, cap - len);
            if (k < 0 && errno == EINTR)
                continue;
            int eof = k <= 0;
            len += k > 0 ? (size_t)k : 0;
            quit = proto_lines(p, buf, &len, eof, &o, out);
            fflush(out);
            if (eof)
                break;
        }
        pl_free(buf);
    } else {
        char *line = NULL;
        size_t cap = 0;
        ssize_t n;
        while ((n = getline(&line, &cap, in)) >= 0) {
            size_t len = (size_t)n;
            if (len && line[len - 1] == '\n')
                len--;
            pl_buf_clear(&o);
            int quit = pl_proto_line(p, line, len, &o);
            fputs(pl_buf_str(&o), out);
            fflush(out);
            if (quit)
                break;
        }
        free(line);
    }
    pl_buf_free(&o);
    pl_proto_free(p);
    return 0;
}
