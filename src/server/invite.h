/* invite.h — the addresses a friend's device can open, for the invitation
 * (`parlour serve`: the lines it prints at start; the web protocol's
 * `welcome.invite`, docs/web-protocol.md). Prefix inv_.
 *
 * From the address the server listens on, its port, the machine's network
 * interfaces (getifaddrs) and an optional public URL (a site with nginx in
 * front, `--public-url`): the URL to open on this machine, the URLs other
 * devices open, and whether there are none (the server listens on this
 * machine only). Never 0.0.0.0 or :: in a URL. Thread-safe (no globals).
 */
#ifndef PARLOUR_INVITE_H
#define PARLOUR_INVITE_H

#include <stddef.h>

#include "parlour/buf.h"

#define INV_MAX 8          /* URLs for other devices kept (the first ones of getifaddrs) */
#define INV_URL_MAX 300    /* bytes of one URL, its NUL included */

typedef struct inv_list {
    char here[INV_URL_MAX];          /* to open on this machine, e.g. http://127.0.0.1:8080/ */
    char urls[INV_MAX][INV_URL_MAX]; /* for other devices: the public URL, else the addresses */
    int n;                           /* how many urls */
    int local_only;                  /* 1: no other device can reach it (n is 0) */
    int is_public;                   /* 1: urls[0] is the public URL */
} inv_list;

struct ifaddrs;

/* Checks a public URL: http:// or https://, a host, no spaces or control
 * characters, no query or fragment, at most INV_URL_MAX - 2 bytes. Returns
 * 0, or -1 with a message for the person who typed it in `err`. */
int inv_public_url_check(const char *url, pl_buf *err);

/* Fills `out` for a server listening on `host` (as typed: an IP address, a
 * host name, an interface name such as eth0, or NULL/""/0.0.0.0/:: for
 * every address) at `port`, with `public_url` (checked by
 * inv_public_url_check; NULL: none) and the interfaces `ifa` (a getifaddrs
 * list, or NULL: none but this machine). Rules: a public URL is the one
 * for other devices (any trailing '/' made one); a loopback host
 * (127.x, ::1, localhost) has none (local_only); every address: each
 * interface that is up and not loopback (IPv4; IPv6 too for ::, less
 * link-local), in getifaddrs' order, local_only when none; an interface
 * name: its addresses; any other host: itself. Never fails: a URL that
 * does not fit is left out. */
void inv_build(const char *host, int port, const char *public_url, const struct ifaddrs *ifa, inv_list *out);

/* inv_build with this machine's interfaces (getifaddrs; none when it fails). */
void inv_find(const char *host, int port, const char *public_url, inv_list *out);

#endif
