/* invite.c — the addresses a friend's device can open (invite.h). */
#include "invite.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

int inv_public_url_check(const char *url, pl_buf *err)
{
    const char *rest = !strncasecmp(url, "http://", 7) ? url + 7 : !strncasecmp(url, "https://", 8) ? url + 8 : NULL;
    if (!rest) {
        pl_buf_printf(err, "--public-url takes an address that starts with http:// or https://, not '%s'", url);
        return -1;
    }
    for (const unsigned char *p = (const unsigned char *)url; *p; p++)
        if (*p <= ' ' || *p == 0x7f || strchr("\"<>\\^`{|}?#", *p)) {
            pl_buf_printf(err, "--public-url '%s': no spaces, quotes, '?', '#' or control characters in the address",
                          url);
            return -1;
        }
    size_t hostlen = strcspn(rest, "/");
    if (!hostlen || rest[0] == ':' || rest[0] == '@' || memchr(rest, '@', hostlen)) {
        pl_buf_printf(err, "--public-url '%s' names no host (e.g. https://games.example.org)", url);
        return -1;
    }
    if (strlen(url) > INV_URL_MAX - 2) {
        pl_buf_printf(err, "--public-url is longer than %d characters", INV_URL_MAX - 2);
        return -1;
    }
    return 0;
}

/* "http://ADDR:PORT/" into out[INV_URL_MAX]; an IPv6 address in brackets. */
static void inv_url(char *out, const char *addr, int port)
{
    int v6 = strchr(addr, ':') != NULL;
    snprintf(out, INV_URL_MAX, "http://%s%s%s:%d/", v6 ? "[" : "", addr, v6 ? "]" : "", port);
}

static void inv_add(inv_list *out, const char *addr, int port)
{
    if (out->n == INV_MAX || strlen(addr) + 20 >= INV_URL_MAX)
        return;
    char url[INV_URL_MAX];
    inv_url(url, addr, port);
    for (int i = 0; i < out->n; i++)
        if (!strcmp(out->urls[i], url))
            return;
    memcpy(out->urls[out->n++], url, sizeof url);
}

static int inv_loopback(const char *host)
{
    struct in_addr a4;
    struct in6_addr a6;
    if (inet_pton(AF_INET, host, &a4) == 1)
        return (ntohl(a4.s_addr) >> 24) == 127;
    if (inet_pton(AF_INET6, host, &a6) == 1)
        return IN6_IS_ADDR_LOOPBACK(&a6);
    return !strcasecmp(host, "localhost");
}

/* The numeric address of interface entry `a` in out[NI_MAXHOST], or 0 when
 * it is not one to offer (down, loopback, not IP, IPv6 link-local or
 * `v4only`). */
static int inv_addr(const struct ifaddrs *a, int v4only, char *out)
{
    if (!a->ifa_addr || !(a->ifa_flags & IFF_UP) || (a->ifa_flags & IFF_LOOPBACK))
        return 0;
    int fam = a->ifa_addr->sa_family;
    if (fam == AF_INET6) {
        const struct in6_addr *x = &((const struct sockaddr_in6 *)(const void *)a->ifa_addr)->sin6_addr;
        if (v4only || IN6_IS_ADDR_LINKLOCAL(x) || IN6_IS_ADDR_LOOPBACK(x))
            return 0;
    } else if (fam != AF_INET) {
        return 0;
    }
    socklen_t len = fam == AF_INET ? sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6);
    return !getnameinfo(a->ifa_addr, len, out, NI_MAXHOST, NULL, 0, NI_NUMERICHOST);
}

void inv_build(const char *host, int port, const char *public_url, const struct ifaddrs *ifa, inv_list *out)
{
    memset(out, 0, sizeof *out);
    int every = !host || !*host || !strcmp(host, "0.0.0.0") || !strcmp(host, "::");
    char addr[NI_MAXHOST];
    if (every) {
        inv_url(out->here, host && !strcmp(host, "::") ? "::1" : "127.0.0.1", port);
        for (const struct ifaddrs *a = ifa; a; a = a->ifa_next)
            if (inv_addr(a, !host || strcmp(host, "::"), addr))
                inv_add(out, addr, port);
    } else if (inv_loopback(host)) {
        inv_url(out->here, host, port);
    } else {
        int iface = 0; /* an interface's name: its addresses */
        for (const struct ifaddrs *a = ifa; a; a = a->ifa_next)
            if (a->ifa_name && !strcmp(a->ifa_name, host)) {
                iface = 1;
                if (inv_addr(a, 0, addr))
                    inv_add(out, addr, port);
            }
        if (!iface)
            inv_add(out, host, port);
        if (out->n)
            memcpy(out->here, out->urls[0], sizeof out->here);
        else
            inv_url(out->here, "127.0.0.1", port); /* e.g. --host lo */
    }
    if (public_url && *public_url) {
        out->n = 1;
        out->is_public = 1;
        size_t len = strlen(public_url);
        snprintf(out->urls[0], INV_URL_MAX, "%s%s", public_url, len && public_url[len - 1] == '/' ? "" : "/");
    }
    out->local_only = out->n == 0;
}

void inv_find(const char *host, int port, const char *public_url, inv_list *out)
{
    struct ifaddrs *ifa = NULL;
    if (getifaddrs(&ifa))
        ifa = NULL;
    /* a host name that names this machine's loopback (localhost, or Debian's
     * 127.0.1.1 for the machine's own name) offers nothing to others */
    char numeric[NI_MAXHOST];
    const char *h = host;
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_ADDRCONFIG};
    struct addrinfo *res = NULL;
    int is_iface = 0;
    for (const struct ifaddrs *a = ifa; host && a; a = a->ifa_next)
        is_iface |= a->ifa_name && !strcmp(a->ifa_name, host);
    if (host && *host && !is_iface && !getaddrinfo(host, NULL, &hints, &res) && res) {
        if (!getnameinfo(res->ai_addr, res->ai_addrlen, numeric, sizeof numeric, NULL, 0, NI_NUMERICHOST) &&
            inv_loopback(numeric))
            h = numeric;
        freeaddrinfo(res);
    }
    inv_build(h, port, public_url, ifa, out);
    if (ifa)
        freeifaddrs(ifa);
}
