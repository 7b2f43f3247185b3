/* tui.c — terminal play and replay (ncursesw), for every game through the
 * interface: the game draws on a canvas, the legal actions are listed and
 * numbered, the player types a number or the action's notation. Seats are
 * human or AI; chance is drawn by the match's generator. In games with
 * hidden information the screen is blanked between two human seats until
 * the next player confirms they are at the keyboard.
 */
#include <curses.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ai/ai.h"
#include "cli.h"
#include "term.h"
#include "parlour/alloc.h"
#include "parlour/match.h"
#include "parlour/record.h"
#include "parlour/registry.h"

#define MAX_SHOWN_LEGAL 60

typedef struct seatcfg {
    int human;
    char spec[64]; /* AI spec */
    ai_player *ai; /* the AI seat's player, made once the game is known */
} seatcfg;

static void draw_state(const pl_game *g, const void *st, int viewer, int y)
{
    pl_canvas c = {0};
    g->draw(st, viewer, &c);
    term_put_canvas(&c, y, 1);
    pl_canvas_free(&c);
}

static int parse_seat_arg(const char *arg, seatcfg *seats, pl_buf *err)
{
    char *end;
    long n = strtol(arg, &end, 10);
    if (end == arg || *end != '=' || n < 0 || n >= PL_MAX_SEATS) {
        pl_buf_printf(err, "bad --seat '%s': expected N=human or N=ai[:SPEC]", arg);
        return -1;
    }
    const char *who = end + 1;
    if (!strcmp(who, "human")) {
        seats[n].human = 1;
        return 0;
    }
    if (!strncmp(who, "ai", 2) && (who[2] == '\0' || who[2] == ':')) {
        const char *spec = who[2] ? who + 3 : "";
        if (ai_check_spec(spec, err) < 0)
            return -1;
        seats[n].human = 0;
        snprintf(seats[n].spec, sizeof seats[n].spec, "%s", spec);
        return 0;
    }
    pl_buf_printf(err, "bad --seat '%s': expected N=human or N=ai[:SPEC]", arg);
    return -1;
}

static void seat_label(const seatcfg *s, int seat, char *out, size_t n)
{
    if (s[seat].human)
        snprintf(out, n, "human");
    else
        snprintf(out, n, "ai%s%s", s[seat].spec[0] ? ":" : "", s[seat].spec);
}

/* Reads a line of input at (y, x) into buf; returns -1 on end of input. */
static int read_line(int y, int x, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    for (;;) {
        move(y, x);
        clrtoeol();
        mvprintw(y, x, "%s", buf);
        refresh();
        int ch = getch();
        if (ch == ERR)
            return -1;
        if (ch == '\n' || ch == '\r' || ch == KEY_ENTER)
            return 0;
        if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && len > 0)
            buf[--len] = '\0';
        else if (ch == 4 && len == 0) /* ^D */
            return -1;
        else if (ch >= 32 && ch < 127 && len + 1 < cap) {
            buf[len++] = (char)ch;
            buf[len] = '\0';
        }
    }
}

static int count_humans(const seatcfg *s, int ns)
{
    int n = 0;
    for (int i = 0; i < ns; i++)
        n += s[i].human;
    return n;
}

/* Undo back to the previous decision of a human seat. */
static void undo_to_human(pl_match *m, const seatcfg *seats, pl_buf *msg)
{
    pl_buf err = {0};
    int undone = 0;
    while (m->nhist > 0) {
        pl_match_undo(m, &err);
        undone++;
        int a = pl_sole_actor(m->game, m->state);
        if (a >= 0 && seats[a].human)
            break;
    }
    pl_buf_clear(msg);
    if (undone)
        pl_buf_printf(msg, "took back %d action%s", undone, undone > 1 ? "s" : "");
    else
        pl_buf_puts(msg, "nothing to take back");
    pl_buf_free(&err);
}

static void autosave(const pl_match *m, const char *path, pl_buf *msg)
{
    if (!path)
        return;
    pl_buf err = {0};
    if (pl_record_save_file(m, path, &err) < 0) {
        pl_buf_clear(msg);
        pl_buf_puts(msg, pl_buf_str(&err));
    }
    pl_buf_free(&err);
}

/* True when seats `a` and `b` would be shown the same picture: then
 * nothing either may not see is on the screen (cbw players=2, where one
 * person plays both seats of a team), and no hand-over is needed. */
static bool same_picture(const pl_game *g, const void *st, int a, int b)
{
    pl_canvas ca = {0}, cb = {0};
    pl_buf ta = {0}, tb = {0};
    g->draw(st, a, &ca);
    g->draw(st, b, &cb);
    pl_canvas_to_text(&ca, &ta);
    pl_canvas_to_text(&cb, &tb);
    bool same = !strcmp(pl_buf_str(&ta), pl_buf_str(&tb));
    pl_canvas_free(&ca);
    pl_canvas_free(&cb);
    pl_buf_free(&ta);
    pl_buf_free(&tb);
    return same;
}

static int play_loop(pl_match *m, seatcfg *seats, const char *save)
{
    const pl_game *g = m->game;
    int ns = g->num_seats(m->state);
    int humans = count_humans(seats, ns);
    int last_human = -1;
    for (int i = 0; i < ns; i++)
        if (seats[i].human && last_human < 0)
            last_human = i;
    pl_buf msg = {0};
    pl_action *acts = pl_malloc(sizeof *acts * PL_MAX_ACTIONS);
    if (!acts)
        return 1;
    int screen_owner = last_human;
    int told = m->nhist; /* texts14: history told so far (pl_match_describe) */
    for (;;) {
        pl_phase ph = g->phase(m->state);
        int actor = pl_sole_actor(g, m->state);
        /* Chance and AI seats act by themselves. */
        if (ph == PL_PHASE_CHANCE) {
            pl_action a;
            pl_buf t = {0};
            void *before = pl_malloc(g->state_size);
            if (before) {
                pl_state_copy(g, before, m->state);
                if (pl_match_random(m, &a, &t) == 0) {
                    pl_buf_clear(&t);
                    /* A deal is hidden information: word it as the screen's seat may see it. */
                    if (g->format_action_for)
                        g->format_action_for(before, PL_CHANCE, a, screen_owner, &t);
                    else
                        g->format_action(before, PL_CHANCE, a, &t);
                    pl_buf_printf(&msg, "%s%s", msg.len ? "; " : "", pl_buf_str(&t));
                }
                pl_free(before);
            }
            pl_buf_free(&t);
            autosave(m, save, &msg);
            continue;
        }
        if (ph == PL_PHASE_MOVE && actor < 0) {
            /* Several seats at once: AI seats first, then humans in order. */
            int sl[PL_MAX_SEATS];
            int n = g->actors(m->state, sl);
            actor = sl[0];
            for (int i = 0; i < n; i++)
                if (!seats[sl[i]].human) {
                    actor = sl[i];
                    break;
                }
        }
        if (ph == PL_PHASE_MOVE && !seats[actor].human) {
            pl_rng r;
            pl_match_rng(m, (uint64_t)actor + 1, &r);
            pl_action a;
            pl_buf e = {0}, t = {0};
            int others[PL_MAX_SEATS];
            bool together = g->actors(m->state, others) > 1;
            if (ai_player_choose(seats[actor].ai, m->state, actor, pl_rng_next(&r), &a, &e) == 0) {
                if (together) /* seats acting at once: nobody sees an answer before giving theirs */
                    pl_buf_puts(&t, "answered");
                else if (g->format_action_for)
                    g->format_action_for(m->state, actor, a, screen_owner, &t);
                else
                    g->format_action(m->state, actor, a, &t);
                pl_match_play(m, actor, a, &e);
                pl_buf_printf(&msg, "%sseat %d: %s", msg.len ? "; " : "", actor, pl_buf_str(&t));
            }
            pl_buf_free(&e);
            pl_buf_free(&t);
            autosave(m, save, &msg);
            if (humans > 0) {
                erase();
                draw_state(g, m->state, (g->flags & PL_GAME_HIDDEN) ? screen_owner : -1, 0);
                refresh();
                napms(250);
            }
            continue;
        }
        if (ph == PL_PHASE_MOVE && (g->flags & PL_GAME_HIDDEN) && humans > 1 && actor != screen_owner &&
            !same_picture(g, m->state, actor, screen_owner)) {
            /* What was said was worded for the previous player's eyes. */
            pl_buf_clear(&msg);
            erase();
            mvprintw(2, 2, "Pass the keyboard to seat %d, then press Enter.", actor);
            refresh();
            int ch;
            while ((ch = getch()) != '\n' && ch != '\r' && ch != KEY_ENTER && ch != ERR)
                ;
            if (ch == ERR)
                break;
        }
        int viewer = ph == PL_PHASE_MOVE ? actor : -1;
        if (ph == PL_PHASE_MOVE)
            screen_owner = actor;
        if (!(g->flags & PL_GAME_HIDDEN) || (ph == PL_PHASE_OVER))
            viewer = ph == PL_PHASE_OVER ? -1 : viewer;
        /* texts14: what happened since the last prompt, for this screen's seat; the last move marked. */
        int me = (g->flags & PL_GAME_HIDDEN) ? viewer : screen_owner;
        told = pl_match_describe(m, told, me, &msg);
        erase();
        pl_canvas c = {0};
        pl_match_draw(m, me, &c);
        int y = term_put_canvas(&c, 0, 1) + 1;
        pl_canvas_free(&c);
        if (msg.len) { /* wrapped to the screen's width, at most 4 lines */
            attron(A_BOLD);
            const char *s = pl_buf_str(&msg);
            int w = COLS > 10 ? COLS - 2 : 8;
            for (int l = 0; *s && l < 4; l++) {
                int k = (int)strlen(s) < w ? (int)strlen(s) : w;
                if (s[k] && s[k] != ' ') /* break after a space, not inside a word */
                    for (int b = k - 1; b > 0; b--)
                        if (s[b] == ' ') {
                            k = b + 1;
                            break;
                        }
                mvprintw(y++, 1, "%.*s", k, s);
                s += k;
                while (*s == ' ')
                    s++;
            }
            attroff(A_BOLD);
        }
        int n = 0;
        if (ph == PL_PHASE_OVER) {
            pl_buf st = {0};
            pl_match_status(m, &st);
            mvprintw(y++, 1, "Game over.");
            const char *s = pl_buf_str(&st);
            while (*s) {
                const char *e = strchr(s, '\n');
                int l = e ? (int)(e - s) : (int)strlen(s);
                mvprintw(y++, 3, "%.*s", l, s);
                s += l + (e ? 1 : 0);
            }
            pl_buf_free(&st);
            mvprintw(y++, 1, "Type undo, save FILE, or quit.");
        } else {
            n = pl_legal_all(g, m->state, actor, acts);
            mvprintw(y++, 1, "Seat %d to act. Legal (number or notation):", actor);
            int x = 3;
            for (int i = 0; i < n && i < MAX_SHOWN_LEGAL; i++) {
                pl_buf t = {0};
                pl_buf_printf(&t, "%d) ", i + 1);
                pl_format_action_long(g, m->state, actor, acts[i], &t); /* texts14: "A4 → B1" */
                int w = (int)t.len + 2;
                if (x + w > COLS - 1) {
                    y++;
                    x = 3;
                }
                mvprintw(y, x, "%s", pl_buf_str(&t));
                x += w;
                pl_buf_free(&t);
            }
            if (n > MAX_SHOWN_LEGAL)
                mvprintw(++y, 3, "... %d in all: type the notation", n);
            y += 2;
            mvprintw(y++, 1, "Commands: undo, save FILE, rules, quit.");
        }
        mvprintw(y, 1, "> ");
        char line[512];
        if (read_line(y, 3, line, sizeof line) < 0)
            break;
        pl_buf_clear(&msg);
        char *cmd = line;
        while (*cmd == ' ')
            cmd++;
        if (!*cmd)
            continue;
        if (!strcmp(cmd, "quit") || !strcmp(cmd, "q"))
            break;
        if (!strcmp(cmd, "undo")) {
            undo_to_human(m, seats, &msg);
            autosave(m, save, &msg);
            continue;
        }
        if (!strncmp(cmd, "save", 4) && (cmd[4] == ' ' || !cmd[4])) {
            const char *path = cmd[4] ? cmd + 5 : save;
            pl_buf e = {0};
            if (!path || !*path)
                pl_buf_puts(&msg, "save where? save FILE");
            else if (pl_record_save_file(m, path, &e) < 0)
                pl_buf_puts(&msg, pl_buf_str(&e));
            else
                pl_buf_printf(&msg, "saved to %s", path);
            pl_buf_free(&e);
            continue;
        }
        if (!strcmp(cmd, "rules")) {
            pl_buf o = {0};
            pl_opts_write(&m->opts, &o);
            for (size_t i = 0; i < o.len; i++)
                if (o.s[i] == '\n')
                    o.s[i] = ' ';
            pl_buf_printf(&msg, "%s", pl_buf_str(&o));
            pl_buf_free(&o);
            continue;
        }
        if (ph != PL_PHASE_MOVE) {
            pl_buf_puts(&msg, "the game is over: undo, save FILE or quit");
            continue;
        }
        char *end;
        long k = strtol(cmd, &end, 10);
        pl_buf e = {0};
        int rc;
        if (*end == '\0' && k >= 1 && k <= n)
            rc = pl_match_play(m, actor, acts[k - 1], &e);
        else
            rc = pl_match_play_text(m, actor, cmd, &e);
        if (rc < 0)
            pl_buf_printf(&msg, "%s", pl_buf_str(&e));
        pl_buf_free(&e);
        autosave(m, save, &msg);
    }
    pl_free(acts);
    pl_buf_free(&msg);
    return 0;
}

int cli_play(int argc, char **argv)
{
    static const struct option lo[] = {{"seat", required_argument, 0, 's'},
                                       {"save", required_argument, 0, 'o'},
                                       {"load", required_argument, 0, 'l'},
                                       {"help", no_argument, 0, 'h'},
                                       {0, 0, 0, 0}};
    seatcfg seats[PL_MAX_SEATS];
    memset(seats, 0, sizeof seats);
    seats[0].human = 1;
    const char *save = NULL, *load = NULL;
    pl_buf err = {0};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
        switch (c) {
        case 's':
            if (parse_seat_arg(optarg, seats, &err) < 0) {
                fprintf(stderr, "parlour play: %s\n", pl_buf_str(&err));
                pl_buf_free(&err);
                return 2;
            }
            break;
        case 'o': save = optarg; break;
        case 'l': load = optarg; break;
        case 'h': {
            pl_buf ai = {0};
            ai_describe(&ai);
            printf("usage: parlour play GAME [KEY=VALUE ...] [--seat N=human|ai[:SPEC]]... "
                   "[--save FILE] [--load FILE]\n"
                   "Plays GAME in the terminal. Seat 0 is human and the others AI unless --seat\n"
                   "says otherwise (all human: hot-seat). Type a legal action's number or its\n"
                   "notation; undo takes back to your previous move; save FILE writes the record.\n"
                   "  --save FILE   keep the record in FILE after every action\n"
                   "  --load FILE   resume a saved game (GAME and options come from the record)\n"
                   "AI players (SPEC):\n%s",
                   pl_buf_str(&ai));
            pl_buf_free(&ai);
            return 0;
        }
        default: return 2;
        }
    }
    pl_match *m = NULL;
    if (load) {
        m = pl_record_load_file(load, &err);
    } else {
        if (optind >= argc) {
            fputs("parlour play: which game? (parlour list)\n", stderr);
            return 2;
        }
        const pl_game *g = pl_game_find(argv[optind]);
        if (!g) {
            fprintf(stderr, "parlour play: unknown game '%s'\n", argv[optind]);
            return 2;
        }
        m = pl_match_new(g, argc - optind - 1, argv + optind + 1, &err);
    }
    if (!m) {
        fprintf(stderr, "parlour play: %s\n", pl_buf_str(&err));
        pl_buf_free(&err);
        return 2;
    }
    int ns = m->game->num_seats(m->state);
    for (int i = 0; i < ns; i++) {
        char who[80];
        seat_label(seats, i, who, sizeof who);
        pl_match_set_player(m, i, who);
        /* Each AI seat's player is made once (a perfect: table loads here). */
        if (!seats[i].human && !(seats[i].ai = ai_player_new(m->game, seats[i].spec, &err))) {
            fprintf(stderr, "parlour play: seat %d: %s\n", i, pl_buf_str(&err));
            for (int j = 0; j < i; j++)
                ai_player_free(seats[j].ai);
            pl_buf_free(&err);
            pl_match_free(m);
            return 2;
        }
    }
    term_start();
    play_loop(m, seats, save);
    endwin();
    for (int i = 0; i < ns; i++)
        ai_player_free(seats[i].ai);
    pl_buf st = {0};
    pl_match_status(m, &st);
    printf("%s\n", pl_buf_str(&st));
    if (save)
        printf("record saved in %s\n", save);
    pl_buf_free(&st);
    pl_match_free(m);
    return 0;
}

/* State after the first `k` actions of `m`, into `st`. */
static void state_at(const pl_match *m, int k, void *st)
{
    pl_state_copy(m->game, st, m->initial);
    for (int i = 0; i < k; i++)
        m->game->apply(st, m->hist[i].seat, m->hist[i].a);
}

/* Appends "start" or "after K: seat S ACTION" / "after K: chance ACTION". */
static void describe_action(const pl_match *m, int k, pl_buf *out)
{
    if (k == 0) {
        pl_buf_puts(out, "start");
        return;
    }
    const pl_move *mv = &m->hist[k - 1];
    pl_buf_printf(out, "after %d: ", k);
    if (mv->seat == PL_CHANCE)
        pl_buf_puts(out, "chance ");
    else
        pl_buf_printf(out, "seat %d ", mv->seat);
    void *prev = pl_malloc(m->game->state_size);
    if (!prev) {
        out->oom = true;
        return;
    }
    state_at(m, k - 1, prev);
    m->game->format_action(prev, mv->seat, mv->a, out);
    pl_free(prev);
}

int cli_replay(int argc, char **argv)
{
    static const struct option lo[] = {{"text", no_argument, 0, 't'},
                                       {"help", no_argument, 0, 'h'},
                                       {0, 0, 0, 0}};
    int text = 0, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "th", lo, NULL)) != -1) {
        if (c == 't')
            text = 1;
        else if (c == 'h') {
            puts("usage: parlour replay RECORD [--text]\n"
                 "Steps through a saved game: right/n next, left/p back, home/end, q quit.\n"
                 "Every action is checked through the rules when the record is loaded.\n"
                 "  --text   print every position as text instead (no terminal needed)");
            return 0;
        } else
            return 2;
    }
    if (optind >= argc) {
        fputs("parlour replay: which record file?\n", stderr);
        return 2;
    }
    pl_buf err = {0};
    pl_match *m = pl_record_load_file(argv[optind], &err);
    if (!m) {
        fprintf(stderr, "parlour replay: %s\n", pl_buf_str(&err));
        pl_buf_free(&err);
        return 1;
    }
    const pl_game *g = m->game;
    void *st = pl_malloc(g->state_size);
    if (!st) {
        pl_match_free(m);
        return 1;
    }
    if (text) {
        for (int k = 0; k <= m->nhist; k++) {
            state_at(m, k, st);
            pl_buf b = {0};
            describe_action(m, k, &b);
            printf("== %s\n", pl_buf_str(&b));
            pl_buf_clear(&b);
            pl_show(g, st, -1, &b);
            fputs(pl_buf_str(&b), stdout);
            pl_buf_free(&b);
        }
        pl_free(st);
        pl_match_free(m);
        return 0;
    }
    term_start();
    int k = m->nhist;
    for (;;) {
        state_at(m, k, st);
        erase();
        pl_canvas cv = {0};
        g->draw(st, -1, &cv);
        int y = term_put_canvas(&cv, 0, 1) + 1;
        pl_canvas_free(&cv);
        mvprintw(y++, 1, "Action %d of %d.  right/n next, left/p back, home/end, q quit", k, m->nhist);
        pl_buf b = {0};
        describe_action(m, k, &b);
        mvprintw(y++, 1, "%s", pl_buf_str(&b));
        pl_buf_free(&b);
        refresh();
        int ch = getch();
        if (ch == 'q' || ch == ERR)
            break;
        if ((ch == KEY_RIGHT || ch == 'n' || ch == ' ') && k < m->nhist)
            k++;
        else if ((ch == KEY_LEFT || ch == 'p') && k > 0)
            k--;
        else if (ch == KEY_HOME)
            k = 0;
        else if (ch == KEY_END)
            k = m->nhist;
    }
    endwin();
    pl_free(st);
    pl_match_free(m);
    return 0;
}
