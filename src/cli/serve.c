/* serve.c — `parlour serve`: the game server (src/server/net.h) on a port,
 * until SIGINT or SIGTERM. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netdb.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "invite.h"
#include "net.h"

#ifndef PARLOUR_WEB_DIR
#define PARLOUR_WEB_DIR "web"
#endif

static const char serve_usage[] =
    "usage: parlour serve [--port N] [--host ADDR] [--db FILE|URL] [--web DIR] [--fonts DIR]\n"
    "                     [--workers N] [--test-seed N] [--test-fast-hash] [--max-queue BYTES] [--table FILE]...\n"
    "                     [--cluster] [--test-sweep-ms MS]\n"
    "                     [--engines N] [--engine-cmd CMD] [--engine-timeout MS] [--public-url URL]\n"
    "The game server: rooms played from the browser (docs/server.md, docs/web-protocol.md).\n"
    "Once it prints \"listening\", open the address it prints for this machine; other devices\n"
    "open the one it prints for them. Stop it with Ctrl-C (SIGINT) or SIGTERM.\n\n"
    "  --port N       TCP port (default 8080; 0: any free port, printed)\n"
    "  --host ADDR    address to listen on: an IP address, a host name or an interface\n"
    "                 (default 127.0.0.1, this machine only; 0.0.0.0: every IPv4\n"
    "                 interface, so others on the network can join)\n"
    "  --public-url URL  the address people open when a front such as nginx serves this\n"
    "                 server (e.g. https://games.example.org): the invitations' links use it\n"
    "  --db FILE|URL  the SQLite file of rooms and actions (default parlour.db, created if needed),\n"
    "                 or a PostgreSQL database: postgresql://USER@HOST/DB (docs/server.md)\n"
    "  --cluster      one of several processes on one store behind a front such as nginx\n"
    "                 (docs/cluster.md): rooms loaded with a lease, a heartbeat, the lobby\n"
    "                 from the store; on by itself with a postgresql:// --db\n"
    "  --web DIR      the static files (default ./web if it exists, else the installed\n"
    "                 ../share/parlour/web next to the program, else the source tree's web/)\n"
    "  --fonts DIR    the font files the pages use, served at /fonts/ (default /usr/share/fonts,\n"
    "                 where Debian's fonts-dejavu-core and fonts-ipaexfont-* put them; a folder of\n"
    "                 copies of DejaVuSans.ttf, DejaVuSans-Bold.ttf, ipaexg.ttf, ipaexm.ttf also\n"
    "                 works; without them the pages use the device's fonts)\n"
    "  --workers N    threads for the computer players (default min(2, cores))\n"
    "  --test-seed N  for tests only: rooms get seeds N, N+1, ... and codes derived from them\n"
    "  --test-sweep-ms MS  for tests only (--cluster): a dead process's waiting seeks are deleted\n"
    "                 MS after its heartbeat expired (default 60000, docs/pairing.md)\n"
    "  --test-fast-hash  for tests only: passwords hashed with Argon2id's smallest limits\n"
    "                 (1 pass, 8 KiB) so tests sign up quickly; never in production\n"
    "  --max-queue B  bytes waiting for a client that does not read before it is closed\n"
    "                 (default 4194304; lower it to test that)\n"
    "  --table FILE   a solved table (`parlour solve ... --out FILE`, repeatable, at most 16):\n"
    "                 replays of finished games show each legal move's exact winning chance;\n"
    "                 reviews of Ur games (docs/review.md) are exact where a table holds the game\n"
    "  --engines N    computer players think in N worker processes (`parlour engine`, started\n"
    "                 and restarted by the server) instead of its threads (default: threads)\n"
    "  --engine-cmd CMD  a shell command that starts one worker, e.g. 'ssh worker1 parlour engine'\n"
    "                 (N of them with --engines N, else one; docs/server.md)\n"
    "  --engine-timeout MS  a worker's answer within MS milliseconds (default 10000), else it\n"
    "                 is restarted and the seat gets the fallback move\n";

/* Reads an integer in [lo, hi] from `s`. Returns 0, or -1 when it is not one. */
static int serve_int(const char *s, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int serve_is_dir(const char *path)
{
    struct stat st;
    return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* The address lws listens on for `host`: a name that resolves (localhost,
 * a host name) becomes its first numeric address in `out`; anything else
 * (an IP address, an interface name such as lo) goes to lws as it is. */
static const char *serve_numeric_host(const char *host, char *out, size_t cap)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE};
    struct addrinfo *res = NULL;
    if (getaddrinfo(host, NULL, &hints, &res) || !res)
        return host;
    int ok = !getnameinfo(res->ai_addr, res->ai_addrlen, out, (socklen_t)cap, NULL, 0, NI_NUMERICHOST);
    freeaddrinfo(res);
    return ok ? out : host;
}

/* The installed web folder, BIN/../share/parlour/web where BIN is the
 * program's folder (/proc/self/exe), into out[cap]. Returns 1 when it is a
 * folder, else 0. */
static int serve_installed_web(char *out, size_t cap)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return 0;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return 0;
    *slash = '\0';
    int w = snprintf(out, cap, "%s/../share/parlour/web", exe);
    return w > 0 && (size_t)w < cap && serve_is_dir(out);
}

/* Waits for SIGINT or SIGTERM (blocked in every thread) and stops the server. */
static void *serve_signals(void *arg)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    int sig;
    sigwait(&set, &sig);
    net_stop(arg);
    return NULL;
}

/* The store's path as the log may show it, in out[cap]: a PostgreSQL URL's
 * password ("user:PASSWORD@host" or a "password=" parameter) replaced by
 * "***"; any other path as it is. */
static const char *serve_db_shown(const char *db, char *out, size_t cap)
{
    const char *auth = strncmp(db, "postgres", 8) ? NULL : strstr(db, "://");
    if (!auth) {
        snprintf(out, cap, "%s", db);
        return out;
    }
    auth += 3;
    size_t alen = strcspn(auth, "/?");
    const char *at = memchr(auth, '@', alen), *colon = at ? memchr(auth, ':', (size_t)(at - auth)) : NULL;
    size_t k = 0;
    for (const char *p = db; *p && k + 16 < cap;) {
        if (colon && p == colon + 1) {
            k += (size_t)snprintf(out + k, cap - k, "***");
            p = at;
        } else if (p > auth + alen && !strncmp(p, "password=", 9) && (p[-1] == '?' || p[-1] == '&')) {
            k += (size_t)snprintf(out + k, cap - k, "password=***");
            p += 9 + strcspn(p + 9, "&");
        } else {
            out[k++] = *p++;
        }
    }
    out[k] = 0;
    return out;
}

int cli_serve(int argc, char **argv)
{
    static const struct option longs[] = {
        {"port", required_argument, NULL, 'p'},    {"host", required_argument, NULL, 'H'},
        {"db", required_argument, NULL, 'd'},      {"web", required_argument, NULL, 'w'},
        {"workers", required_argument, NULL, 'j'}, {"test-seed", required_argument, NULL, 's'},
        {"max-queue", required_argument, NULL, 'q'}, {"help", no_argument, NULL, 'h'},
        {"table", required_argument, NULL, 't'},
        {"engines", required_argument, NULL, 'e'}, {"engine-cmd", required_argument, NULL, 'c'},
        {"engine-timeout", required_argument, NULL, 'T'},
        {"cluster", no_argument, NULL, 'C'},     {"public-url", required_argument, NULL, 'U'},
        {"test-fast-hash", no_argument, NULL, 'A'}, {"test-sweep-ms", required_argument, NULL, 'S'},
        {"fonts", required_argument, NULL, 'F'},
        {NULL, 0, NULL, 0}};
    net_config cfg = {.host = "127.0.0.1", .port = 8080, .db = "parlour.db"};
    const char *web = NULL, *public_url = NULL;
    const char *tables[16];
    long long v;
    int o;
    optind = 1;
    opterr = 0;
    while ((o = getopt_long(argc, argv, ":h", longs, NULL)) != -1) {
        switch (o) {
        case 'p':
            if (serve_int(optarg, 0, 65535, &v)) {
                fprintf(stderr, "parlour serve: --port takes a number from 0 to 65535, not '%s'\n", optarg);
                return 2;
            }
            cfg.port = (int)v;
            break;
        case 'H':
            if (!*optarg) {
                fputs("parlour serve: --host takes an address (e.g. 127.0.0.1 or 0.0.0.0)\n", stderr);
                return 2;
            }
            cfg.host = optarg;
            break;
        case 'd':
            if (!*optarg) {
                fputs("parlour serve: --db takes a file name or a postgresql:// URL\n", stderr);
                return 2;
            }
            cfg.db = optarg;
            break;
        case 'w':
            web = optarg;
            break;
        case 'F':
            if (!serve_is_dir(optarg)) {
                fprintf(stderr, "parlour serve: --fonts '%s' is not a folder\n", optarg);
                return 2;
            }
            cfg.fonts = optarg;
            break;
        case 'j':
            if (serve_int(optarg, 1, 64, &v)) {
                fprintf(stderr, "parlour serve: --workers takes a number from 1 to 64, not '%s'\n", optarg);
                return 2;
            }
            cfg.workers = (int)v;
            break;
        case 's':
            if (serve_int(optarg, 1, LLONG_MAX, &v)) {
                fprintf(stderr, "parlour serve: --test-seed takes a positive number, not '%s'\n", optarg);
                return 2;
            }
            cfg.test_seed = (uint64_t)v;
            break;
        case 'S':
            if (serve_int(optarg, 1, 3600 * 1000, &v)) {
                fprintf(stderr, "parlour serve: --test-sweep-ms takes a number of ms from 1 to 3600000, not '%s'\n",
                        optarg);
                return 2;
            }
            cfg.sweep_grace_ms = v;
            break;
        case 'q':
            if (serve_int(optarg, 1024, 1LL << 30, &v)) {
                fprintf(stderr, "parlour serve: --max-queue takes a number of bytes from 1024 to 2^30, not '%s'\n",
                        optarg);
                return 2;
            }
            cfg.max_queue = (long)v;
            break;
        case 't':
            if (cfg.ntables == (int)(sizeof tables / sizeof *tables)) {
                fputs("parlour serve: at most 16 --table files\n", stderr);
                return 2;
            }
            tables[cfg.ntables++] = optarg;
            break;
        case 'e':
            if (serve_int(optarg, 1, 64, &v)) {
                fprintf(stderr, "parlour serve: --engines takes a number from 1 to 64, not '%s'\n", optarg);
                return 2;
            }
            cfg.engines = (int)v;
            break;
        case 'c':
            if (!*optarg) {
                fputs("parlour serve: --engine-cmd takes a shell command (e.g. 'ssh worker1 parlour engine')\n",
                      stderr);
                return 2;
            }
            cfg.engine_cmd = optarg;
            break;
        case 'T':
            if (serve_int(optarg, 1, 3600000, &v)) {
                fprintf(stderr, "parlour serve: --engine-timeout takes milliseconds from 1 to 3600000, not '%s'\n",
                        optarg);
                return 2;
            }
            cfg.engine_timeout_ms = (int)v;
            break;
        case 'C':
            cfg.cluster = 1;
            break;
        case 'A': /* libsodium's crypto_pwhash_argon2id_OPSLIMIT_MIN and MEMLIMIT_MIN */
            cfg.acct_ops = 1;
            cfg.acct_mem = 8192;
            break;
        case 'U': {
            pl_buf uerr = {0};
            if (inv_public_url_check(optarg, &uerr)) {
                fprintf(stderr, "parlour serve: %s\n", pl_buf_str(&uerr));
                pl_buf_free(&uerr);
                return 2;
            }
            public_url = optarg;
            break;
        }
        case 'h':
            fputs(serve_usage, stdout);
            return 0;
        case ':':
            fprintf(stderr, "parlour serve: %s needs a value\n", argv[optind - 1]);
            return 2;
        default:
            fprintf(stderr, "parlour serve: unknown option '%s'\n%s", argv[optind - 1], serve_usage);
            return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "parlour serve: unexpected argument '%s'\n%s", argv[optind], serve_usage);
        return 2;
    }
    if (!strncmp(cfg.db, "postgresql://", 13) || !strncmp(cfg.db, "postgres://", 11))
        cfg.cluster = 1; /* PostgreSQL is for several processes */
    /* The web folder: the one named, else ./web, else the installed one next
     * to the program (BIN/../share/parlour/web, `cmake --install`), else the
     * source tree's (baked in at build time: PARLOUR_WEB_DIR). */
    if (web && !serve_is_dir(web)) {
        fprintf(stderr, "parlour serve: --web '%s' is not a folder\n", web);
        return 2;
    }
    char installed[PATH_MAX];
    if (!web && serve_is_dir("web"))
        web = "web";
    if (!web && serve_installed_web(installed, sizeof installed))
        web = installed;
    if (!web)
        web = PARLOUR_WEB_DIR;
    cfg.web = web;
    cfg.tables = tables;

    /* SIGINT and SIGTERM go to serve_signals only (the threads net_new
     * starts inherit the mask); a closed socket is an error, not a signal. */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    signal(SIGPIPE, SIG_IGN);

    /* Room for many players: lws takes at most the open-files limit in
     * connections, so the soft limit goes up to the hard one (at most 65536). */
    struct rlimit rl;
    if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < 65536 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max < 65536 ? rl.rlim_max : 65536;
        setrlimit(RLIMIT_NOFILE, &rl);
    }

    const char *shown = cfg.host;
    char numeric[NI_MAXHOST];
    cfg.host = serve_numeric_host(cfg.host, numeric, sizeof numeric);

    pl_buf err = {0};
    net *n = net_new(&cfg, &err);
    if (!n) {
        fprintf(stderr, "parlour serve: %s\n", pl_buf_str(&err));
        pl_buf_free(&err);
        return 1;
    }
    pl_buf_free(&err);
    /* The addresses to open: here, and from other devices (never 0.0.0.0);
     * the page gets the latter in `welcome` for its invitations. */
    inv_list inv;
    inv_find(shown, net_port(n), public_url, &inv);
    const char *urls[INV_MAX];
    for (int i = 0; i < inv.n; i++)
        urls[i] = inv.urls[i];
    if (net_invite(n, urls, inv.n, inv.local_only))
        fputs("parlour serve: out of memory: the page's invitations use the address it was opened at\n", stderr);
    char dbshown[1024];
    printf("parlour serve: listening on %s (db %s, web %s)\n", inv.here,
           serve_db_shown(cfg.db, dbshown, sizeof dbshown), net_web(n));
    printf("parlour serve: on this machine: %s\n", inv.here);
    for (int i = 0; i < inv.n; i++)
        printf("parlour serve: from other devices: %s\n", inv.urls[i]);
    if (inv.local_only)
        printf("parlour serve: it listens on this machine only (--host %s): other devices cannot open it;\n"
               "parlour serve: to let them join, start it with --host 0.0.0.0 (every network address)\n",
               shown);
    fflush(stdout);
    pthread_t sig_thread;
    int have_sig = !pthread_create(&sig_thread, NULL, serve_signals, n);
    if (!have_sig)
        fputs("parlour serve: cannot wait for signals; stop it with SIGKILL\n", stderr);
    int rc = net_run(n);
    if (have_sig) {
        pthread_kill(sig_thread, SIGTERM); /* wakes its sigwait if no signal came */
        pthread_join(sig_thread, NULL);
    }
    pl_buf lat = {0};
    net_latency(n, &lat);
    if (lat.len)
        printf("parlour serve: %s\n", pl_buf_str(&lat));
    pl_buf_free(&lat);
    net_free(n);
    if (rc)
        fputs("parlour serve: the event loop failed\n", stderr);
    else
        puts("parlour serve: stopped");
    return rc ? 1 : 0;
}
