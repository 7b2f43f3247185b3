/* karuta.c — `parlour karuta`: study aids for the Hyakunin Isshu. For now
 * `parlour karuta kimariji [--read N,N,...]` prints each poem's static
 * kimariji (KA-K2) and, after the poems given as read, its dynamic kimariji
 * (KA-K3), computed by the rules module (src/games/karuta/). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../games/karuta/kar.h"
#include "cli.h"

static const char usage_text[] =
    "usage: parlour karuta kimariji [--read N,N,...]\n"
    "Prints the kimariji (deciding kana) of the hundred poems: the static ones over all\n"
    "100 (KA-K2) and, with --read, the dynamic ones once the listed poems have been read\n"
    "(KA-K3: the comparison set is every poem not yet read). Columns: number, static\n"
    "kimariji and length, current kimariji and length (or 'read'), poet, romaji.\n";

/* Parses "N,N,..." into `read` flags. Returns 0, or -1 with a message. */
static int parse_read(const char *arg, kar_kim *k)
{
    const char *p = arg;
    while (*p) {
        char *e;
        long n = strtol(p, &e, 10);
        if (e == p || n < 1 || n > KAR_NPOEMS || (*e && *e != ',')) {
            fprintf(stderr, "parlour karuta kimariji: --read wants poem numbers 1-100 separated by commas, got '%s'\n",
                    arg);
            return -1;
        }
        kar_kim_read(k, (int)n);
        p = *e ? e + 1 : e;
    }
    return 0;
}

static int kimariji(int argc, char **argv)
{
    static const struct option longopts[] = {{"read", required_argument, NULL, 'r'},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    kar_kim k;
    kar_kim_init(&k);
    int c, nread = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "r:h", longopts, NULL)) != -1) {
        if (c == 'h') {
            fputs(usage_text, stdout);
            return 0;
        }
        if (c != 'r' || parse_read(optarg, &k) < 0) {
            if (c != 'r')
                fputs(usage_text, stderr);
            return 2;
        }
    }
    if (optind < argc) {
        fputs(usage_text, stderr);
        return 2;
    }
    int dist[KAR_DEPTH + 1] = {0}, now[KAR_DEPTH + 1] = {0};
    pl_buf b = {0};
    for (int n = 1; n <= KAR_NPOEMS; n++) {
        const kar_poem *p = kar_poem_get(n);
        dist[p->kim]++;
        pl_buf_clear(&b);
        pl_buf_printf(&b, "%3d  ", n);
        kar_key_text(n, p->kim, &b);
        pl_buf_printf(&b, "%*s%d  ", 2 * (KAR_DEPTH - p->kim) + 1, "", p->kim);
        if (k.unread[n]) {
            int d = kar_kim_dynamic(&k, n);
            now[d]++;
            kar_key_text(n, d, &b);
            pl_buf_printf(&b, "%*s%d  ", 2 * (KAR_DEPTH - d) + 1, "", d);
        } else {
            nread++;
            pl_buf_printf(&b, "%-*s", 2 * KAR_DEPTH + 4, "read");
        }
        pl_buf_printf(&b, "%s  %s", p->poet, p->romaji);
        puts(pl_buf_str(&b));
    }
    pl_buf_free(&b);
    printf("static kimariji by length 1-6:");
    for (int d = 1; d <= KAR_DEPTH; d++)
        printf(" %d", dist[d]);
    if (nread) {
        printf("\nafter %d read, the %d unread by length 1-6:", nread, KAR_NPOEMS - nread);
        for (int d = 1; d <= KAR_DEPTH; d++)
            printf(" %d", now[d]);
    }
    putchar('\n');
    return 0;
}

int cli_karuta(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(usage_text, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "kimariji"))
        return kimariji(argc - 1, argv + 1);
    fprintf(stderr, "parlour karuta: unknown subcommand '%s'\n%s", argv[1], usage_text);
    return 2;
}
