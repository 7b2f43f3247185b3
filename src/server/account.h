/* account.h — people who come back: accounts, passwords and sessions
 * (issue 33, docs/accounts.md). Prefix acct_.
 *
 * A person signs up with a name and a password and is then known by a
 * session: a random token the browser keeps in an HttpOnly, SameSite cookie.
 * Guests need none of this: a seat's token works as before.
 *
 * - Passwords are hashed with Argon2id (libsodium crypto_pwhash_str); the
 *   clear text is never stored, logged or kept after the call.
 * - A session token is 32 random bytes (written as 64 hex digits); the store
 *   keeps only its hash (crypto_generichash), so a stolen database opens no
 *   session. Tokens and hashes never leave the server except the token in
 *   the Set-Cookie of the sign-in that made it.
 * - No answer tells which names exist: a sign-in with an unknown name or a
 *   wrong password gets the same ACCT_WRONG after the same work (a dummy
 *   hash is verified for an unknown name).
 * - Sign-in attempts are rate-limited per name and per address (in memory,
 *   per process; several processes each keep their own count).
 * - The store (SQLite or PostgreSQL, store.h) holds accounts and sessions,
 *   so every process behind nginx knows every session.
 *
 * Threading: an acct is used by one thread at a time, never the service
 * thread (hashing takes a tenth of a second by design): the network layer
 * runs these calls on a thread of its own and posts the answers back.
 * Every function returns an acct_status (>= 0), or -1 with a message in
 * `err` when the store failed (nothing changed).
 */
#ifndef PARLOUR_ACCOUNT_H
#define PARLOUR_ACCOUNT_H

#if !defined(PARLOUR_IN_FRONT)
#error "account.h belongs to the server (a front end): core, games and AI may not include it"
#endif

#include <stddef.h>
#include <stdint.h>

#include "parlour/buf.h"
#include "store.h"

#define ACCT_MAX_NAME 40      /* bytes of a name (UTF-8; the hub's HUB_MAX_NAME) */
#define ACCT_MIN_PASSWORD 8   /* characters of a password, at least... */
#define ACCT_MAX_PASSWORD 200 /* ... and bytes, at most */
#define ACCT_TOKEN_HEX 64     /* hex digits of a session token */

typedef struct acct_svc acct_svc;

/* What a call came to. */
typedef enum acct_status {
    ACCT_OK = 0,
    ACCT_BAD_NAME,     /* empty, too long, not UTF-8, control characters, only spaces */
    ACCT_BAD_PASSWORD, /* shorter than ACCT_MIN_PASSWORD characters or longer than the max */
    ACCT_NAME_TAKEN,   /* sign-up: the name (compared case-folded) belongs to another account */
    ACCT_WRONG,        /* sign-in, change or delete: no such name, or the password is wrong */
    ACCT_RATE,         /* too many attempts for this name or this address: wait */
    ACCT_NO_SESSION    /* the token is unknown, expired or signed out */
} acct_status;

/* The word of a status for the web protocol's errors ("bad_name", ...). */
const char *acct_status_name(acct_status s);

/* Settings; zero fields take the defaults in brackets. */
typedef struct acct_config {
    unsigned long long ops; /* Argon2id's operations [crypto_pwhash_OPSLIMIT_INTERACTIVE] */
    size_t mem;             /* ... and memory in bytes [crypto_pwhash_MEMLIMIT_INTERACTIVE];
                               tests may lower both (never below libsodium's minimum) */
    int per_name;           /* sign-in attempts per name per 10 minutes [10] */
    int per_addr;           /* sign-in and sign-up attempts per address per 10 minutes [50] */
    int64_t session_ms;     /* a session lives this long after its last use [30 days] */
} acct_config;

/* A person as the server knows them. */
typedef struct acct_user {
    int64_t id;                       /* > 0, never reused */
    char name[ACCT_MAX_NAME + 1];     /* as they typed it at sign-up */
    char token[ACCT_TOKEN_HEX + 1];   /* set only by acct_signup / acct_signin: the new
                                         session's token, for the cookie; else "" */
} acct_user;

/* Makes the accounts service over store `s` (not owned: it must outlive the
 * acct; the store's schema has the accounts and sessions tables). Returns
 * it, or NULL with a message (libsodium failed to start). */
acct_svc *acct_new(store *s, const acct_config *cfg, pl_buf *err);
/* Frees it; NULL is a no-op. */
void acct_free(acct_svc *a);

/* Makes an account and a first session. `addr` is the client's address (rate
 * limit). On ACCT_OK `out` holds the account and its session token. */
int acct_signup(acct_svc *a, const char *name, const char *password, const char *addr, int64_t now_ms,
                acct_user *out, pl_buf *err);
/* Checks name and password and opens a session (ACCT_OK: `out` as above). */
int acct_signin(acct_svc *a, const char *name, const char *password, const char *addr, int64_t now_ms,
                acct_user *out, pl_buf *err);
/* The account named `name` (trimmed and compared case-folded, as sign-in
 * does) into *out: 0, or 1 when `name` is no name (bad UTF-8, too long)
 * or no account has it (a deleted one included); -1 with a message. */
int acct_find(acct_svc *a, const char *name, store_account *out, pl_buf *err);
/* Who holds session `token` (ACCT_OK: `out` without token; the session's
 * life is renewed), or ACCT_NO_SESSION. */
int acct_session(acct_svc *a, const char *token, int64_t now_ms, acct_user *out, pl_buf *err);
/* Ends session `token` (ACCT_OK, or ACCT_NO_SESSION). */
int acct_signout(acct_svc *a, const char *token, pl_buf *err);
/* Changes the password of the session's account after checking the old one;
 * every OTHER session of the account ends. */
int acct_password(acct_svc *a, const char *token, const char *old_password, const char *new_password,
                  const char *addr, int64_t now_ms, pl_buf *err);
/* Deletes the session's account after checking its password: its sessions
 * end, its name is free again, and its games stay with the account's name
 * replaced by an anonymous one (docs/accounts.md). */
int acct_delete(acct_svc *a, const char *token, const char *password, const char *addr, int64_t now_ms,
                pl_buf *err);

#endif
