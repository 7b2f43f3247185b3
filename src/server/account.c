/* account.c — accounts, passwords and sessions (account.h; issue 33,
 * docs/accounts.md): libsodium for the secrets, utf8proc for names, the
 * store (store.h) for what lasts.
 *
 * - A password becomes crypto_pwhash_str with Argon2id (the algorithm, its
 *   limits and a random salt are in the string), checked with
 *   crypto_pwhash_str_verify. A sign-in with a name nobody has verifies the
 *   password against a dummy hash made once with the same limits, so both
 *   failures cost the same work and answer the same ACCT_WRONG. A right
 *   password whose hash has other limits than the configured ones is hashed
 *   again at sign-in (raising the limits upgrades every hash in use).
 * - A session token is 32 bytes of randombytes_buf written as 64 hex digits;
 *   the store keeps crypto_generichash (BLAKE2b, 32 bytes) of those bytes,
 *   as hex. The token's bytes are wiped (sodium_memzero) once written out.
 * - A name is trimmed of white space at both ends, then must be valid UTF-8
 *   of 1..ACCT_MAX_NAME bytes without control, format, surrogate,
 *   private-use, unassigned or line/paragraph-separator code points. Its key
 *   for uniqueness is utf8proc's case fold with NFKC (compatibility
 *   composition) and default ignorables dropped: "Ann", "ANN" and "Ａｎｎ"
 *   are one name.
 * - Rate limits: two fixed tables of RL_SLOTS counters (names, addresses),
 *   each a window of RL_WINDOW_MS. A key is a keyed 64-bit hash
 *   (crypto_shorthash, a random key per process: nobody can aim keys at one
 *   slot) looked for in RL_PROBE slots; a new key takes an expired slot of
 *   those, else the one with the fewest attempts. So the tables never grow,
 *   and a flood of distinct names or addresses evicts the quiet keys first:
 *   a name under attack keeps its count unless RL_PROBE keys of its group
 *   each have as many attempts (and each of those costs the flooder its
 *   address's limit). Per name, the attempts that failed (a wrong password)
 *   count; per address, every sign-in, sign-up, password change and
 *   deletion counts.
 */
#include "account.h"

#include <sodium.h>
#include <stdio.h>
#include <string.h>
#include <utf8proc.h>

#include "parlour/alloc.h"

#define RL_SLOTS 4096         /* counters per table (a power of two) */
#define RL_PROBE 8            /* slots a key may use */
#define RL_WINDOW_MS 600000LL /* a window: 10 minutes */
#define ANON_NAME "anonymous" /* a deleted account's seats are called this */

typedef struct {
    uint64_t key;   /* 0: free */
    int64_t start;  /* the window's start (ms) */
    int count;      /* attempts in it */
} rl_slot;

struct acct_svc {
    store *s;
    acct_config cfg;
    char dummy[crypto_pwhash_STRBYTES]; /* the hash an unknown name is checked against */
    unsigned char rl_key[crypto_shorthash_KEYBYTES];
    rl_slot names[RL_SLOTS], addrs[RL_SLOTS];
    int64_t purged_ms; /* when expired sessions were last deleted */
};

const char *acct_status_name(acct_status s)
{
    switch (s) {
    case ACCT_OK:
        return "ok";
    case ACCT_BAD_NAME:
        return "bad_name";
    case ACCT_BAD_PASSWORD:
        return "bad_password";
    case ACCT_NAME_TAKEN:
        return "name_taken";
    case ACCT_WRONG:
        return "wrong";
    case ACCT_RATE:
        return "rate";
    case ACCT_NO_SESSION:
        return "no_session";
    }
    return "unknown";
}

/* Hashes password `pw` into out (crypto_pwhash_STRBYTES) with a's limits.
 * 0, or -1 with a message (out of memory: the limits' memory). */
static int hash_password(acct_svc *a, const char *pw, char *out, pl_buf *err)
{
    if (crypto_pwhash_str_alg(out, pw, strlen(pw), a->cfg.ops, a->cfg.mem, crypto_pwhash_ALG_ARGON2ID13) == 0)
        return 0;
    pl_buf_puts(err, "accounts: hashing a password failed (out of memory?)");
    return -1;
}

acct_svc *acct_new(store *s, const acct_config *cfg, pl_buf *err)
{
    if (sodium_init() < 0) { /* 0 the first time, 1 after: both fine */
        pl_buf_puts(err, "accounts: libsodium could not start");
        return NULL;
    }
    acct_svc *a = pl_calloc(1, sizeof *a);
    if (!a) {
        pl_buf_puts(err, "accounts: out of memory");
        return NULL;
    }
    a->s = s;
    if (cfg)
        a->cfg = *cfg;
    if (!a->cfg.ops)
        a->cfg.ops = crypto_pwhash_OPSLIMIT_INTERACTIVE;
    if (!a->cfg.mem)
        a->cfg.mem = crypto_pwhash_MEMLIMIT_INTERACTIVE;
    if (a->cfg.ops < crypto_pwhash_OPSLIMIT_MIN)
        a->cfg.ops = crypto_pwhash_OPSLIMIT_MIN;
    if (a->cfg.mem < crypto_pwhash_MEMLIMIT_MIN)
        a->cfg.mem = crypto_pwhash_MEMLIMIT_MIN;
    if (a->cfg.per_name <= 0)
        a->cfg.per_name = 10;
    if (a->cfg.per_addr <= 0)
        a->cfg.per_addr = 50;
    if (a->cfg.session_ms <= 0)
        a->cfg.session_ms = 30LL * 24 * 3600 * 1000;
    randombytes_buf(a->rl_key, sizeof a->rl_key);
    /* The dummy: a random password nobody knows, hashed like the others. */
    unsigned char r[16];
    char pw[2 * sizeof r + 1];
    randombytes_buf(r, sizeof r);
    sodium_bin2hex(pw, sizeof pw, r, sizeof r);
    int rc = hash_password(a, pw, a->dummy, err);
    sodium_memzero(r, sizeof r);
    sodium_memzero(pw, sizeof pw);
    if (rc < 0) {
        acct_free(a);
        return NULL;
    }
    return a;
}

void acct_free(acct_svc *a)
{
    if (!a)
        return;
    sodium_memzero(a->rl_key, sizeof a->rl_key);
    pl_free(a);
}

/* ---- names and passwords ---- */

/* Whether code point c may stand in a name. */
static int name_char_ok(utf8proc_int32_t c)
{
    switch (utf8proc_category(c)) {
    case UTF8PROC_CATEGORY_CC: /* controls */
    case UTF8PROC_CATEGORY_CF: /* format: bidirectional overrides, zero widths */
    case UTF8PROC_CATEGORY_CS:
    case UTF8PROC_CATEGORY_CO:
    case UTF8PROC_CATEGORY_CN: /* unassigned */
    case UTF8PROC_CATEGORY_ZL:
    case UTF8PROC_CATEGORY_ZP:
        return 0;
    default:
        return 1;
    }
}

static int is_space(utf8proc_int32_t c)
{
    return utf8proc_category(c) == UTF8PROC_CATEGORY_ZS || c == '\t' || c == '\n' || c == '\r';
}

/* Checks `in` and writes the name (trimmed) into name[ACCT_MAX_NAME + 1]
 * and its folded key into folded[STORE_ACCOUNT_FOLDED + 1]. 1 when it is a
 * name, 0 when not. */
static int name_check(const char *in, char *name, char *folded)
{
    if (!in)
        return 0;
    const utf8proc_uint8_t *p = (const utf8proc_uint8_t *)in;
    utf8proc_ssize_t n = (utf8proc_ssize_t)strlen(in), i = 0, first = -1, last = 0;
    if (n > 4 * ACCT_MAX_NAME + 64) /* far too long, trimmed or not: no need to read it all */
        return 0;
    while (i < n) {
        utf8proc_int32_t c;
        utf8proc_ssize_t k = utf8proc_iterate(p + i, n - i, &c);
        if (k <= 0)
            return 0; /* not UTF-8 */
        if (!is_space(c)) {
            if (!name_char_ok(c))
                return 0;
            if (first < 0)
                first = i;
            last = i + k;
        }
        i += k;
    }
    if (first < 0 || last - first > ACCT_MAX_NAME)
        return 0; /* empty, only spaces, too long */
    memcpy(name, in + first, (size_t)(last - first));
    name[last - first] = '\0';
    utf8proc_uint8_t *f = NULL;
    utf8proc_ssize_t fn =
        utf8proc_map((const utf8proc_uint8_t *)name, 0, &f,
                     UTF8PROC_NULLTERM | UTF8PROC_STABLE | UTF8PROC_COMPAT | UTF8PROC_COMPOSE | UTF8PROC_CASEFOLD |
                         UTF8PROC_IGNORE);
    int ok = fn > 0 && fn <= STORE_ACCOUNT_FOLDED;
    if (ok)
        memcpy(folded, f, (size_t)fn + 1);
    free(f); /* utf8proc's own malloc */
    return ok;
}

/* A password: valid UTF-8, ACCT_MIN_PASSWORD characters or more, at most
 * ACCT_MAX_PASSWORD bytes. */
static int password_ok(const char *pw)
{
    if (!pw)
        return 0;
    size_t n = strlen(pw);
    if (n > ACCT_MAX_PASSWORD)
        return 0;
    utf8proc_ssize_t i = 0, chars = 0;
    while ((size_t)i < n) {
        utf8proc_int32_t c;
        utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)pw + i, (utf8proc_ssize_t)n - i, &c);
        if (k <= 0)
            return 0;
        i += k;
        chars++;
    }
    return chars >= ACCT_MIN_PASSWORD;
}

/* ---- rate limits ---- */

static uint64_t rl_hash(const acct_svc *a, char kind, const char *key)
{
    unsigned char h[crypto_shorthash_BYTES];
    size_t n = strlen(key);
    unsigned char buf[STORE_ACCOUNT_FOLDED + 2];
    /* Keys longer than a folded name (addresses never are) are hashed in two
     * steps: the first is a generichash of the whole. */
    if (n > STORE_ACCOUNT_FOLDED) {
        crypto_generichash(buf + 1, 32, (const unsigned char *)key, n, NULL, 0);
        n = 32;
    } else {
        memcpy(buf + 1, key, n);
    }
    buf[0] = (unsigned char)kind;
    crypto_shorthash(h, buf, n + 1, a->rl_key);
    uint64_t v;
    memcpy(&v, h, sizeof v);
    return v ? v : 1; /* 0 marks a free slot */
}

/* Whether slot e holds no live window at now (free, or its window ended). */
static int rl_dead(const rl_slot *e, int64_t now)
{
    return !e->key || now - e->start >= RL_WINDOW_MS || now < e->start;
}

/* The slot of key k in table t at now (taken for k if it had none), its
 * window restarted if it had ended. A new key takes the first dead slot of
 * its RL_PROBE, else the live one with the fewest attempts (the oldest of
 * those). Never NULL. */
static rl_slot *rl_find(rl_slot *t, uint64_t k, int64_t now)
{
    size_t base = (size_t)(k % RL_SLOTS);
    rl_slot *dead = NULL, *least = NULL;
    for (size_t j = 0; j < RL_PROBE; j++) {
        rl_slot *e = &t[(base + j) & (RL_SLOTS - 1)];
        if (e->key == k) {
            if (rl_dead(e, now)) {
                e->start = now;
                e->count = 0;
            }
            return e;
        }
        if (rl_dead(e, now)) {
            if (!dead)
                dead = e;
        } else if (!least || e->count < least->count || (e->count == least->count && e->start < least->start)) {
            least = e;
        }
    }
    rl_slot *pick = dead ? dead : least;
    pick->key = k;
    pick->start = now;
    pick->count = 0;
    return pick;
}

/* Whether key has used up its `limit` attempts in table t. */
static int rl_full(acct_svc *a, rl_slot *t, char kind, const char *key, int limit, int64_t now)
{
    return rl_find(t, rl_hash(a, kind, key), now)->count >= limit;
}

static void rl_count(acct_svc *a, rl_slot *t, char kind, const char *key, int64_t now)
{
    rl_slot *e = rl_find(t, rl_hash(a, kind, key), now);
    if (e->count < 1000000)
        e->count++;
}

/* An attempt from addr: ACCT_RATE when the address has used its limit, else
 * counts it and gives ACCT_OK. */
static int addr_attempt(acct_svc *a, const char *addr, int64_t now)
{
    const char *k = addr ? addr : "";
    if (rl_full(a, a->addrs, 'a', k, a->cfg.per_addr, now))
        return ACCT_RATE;
    rl_count(a, a->addrs, 'a', k, now);
    return ACCT_OK;
}

/* ---- sessions ---- */

/* The store's key of a token's bytes: hex of their generichash. */
static void token_key(const unsigned char *tok, char *hex)
{
    unsigned char h[32];
    crypto_generichash(h, sizeof h, tok, 32, NULL, 0);
    sodium_bin2hex(hex, STORE_SESSION_HASH + 1, h, sizeof h);
}

/* The store's key of hex token `token`: 1, or 0 when it is no token. */
static int token_parse(const char *token, char *hex)
{
    unsigned char tok[32];
    size_t len = 0;
    if (!token || strlen(token) != ACCT_TOKEN_HEX || strspn(token, "0123456789abcdef") != ACCT_TOKEN_HEX ||
        sodium_hex2bin(tok, sizeof tok, token, ACCT_TOKEN_HEX, NULL, &len, NULL) != 0 || len != sizeof tok)
        return 0;
    token_key(tok, hex);
    sodium_memzero(tok, sizeof tok);
    return 1;
}

/* Opens a session for account `id`: the token into out->token. 0 or -1. */
static int session_open(acct_svc *a, int64_t id, int64_t now, acct_user *out, pl_buf *err)
{
    if (now - a->purged_ms >= 3600000 || now < a->purged_ms) { /* sessions nobody came back to, hourly */
        pl_buf e2 = {0};
        store_session_purge(a->s, now, &e2); /* a failure only delays it */
        pl_buf_free(&e2);
        a->purged_ms = now;
    }
    unsigned char tok[32];
    char key[STORE_SESSION_HASH + 1];
    randombytes_buf(tok, sizeof tok);
    token_key(tok, key);
    int rc = store_session_put(a->s, key, id, now + a->cfg.session_ms, err);
    if (rc == 0)
        sodium_bin2hex(out->token, sizeof out->token, tok, sizeof tok);
    else if (rc == 1)
        pl_buf_puts(err, "accounts: the account went away while its session was opened");
    sodium_memzero(tok, sizeof tok);
    return rc == 0 ? 0 : -1;
}

/* The account of live session `key` into *acc (renewed). ACCT_OK,
 * ACCT_NO_SESSION, or -1. */
static int session_account(acct_svc *a, const char *key, int64_t now, store_account *acc, pl_buf *err)
{
    int64_t id = 0;
    int rc = store_session_get(a->s, key, now, now + a->cfg.session_ms, &id, err);
    if (rc == 0)
        rc = store_account_by_id(a->s, id, acc, err);
    return rc < 0 ? -1 : rc == 0 ? ACCT_OK : ACCT_NO_SESSION;
}

static void user_from(acct_user *out, const store_account *acc)
{
    memset(out, 0, sizeof *out);
    out->id = acc->id;
    snprintf(out->name, sizeof out->name, "%s", acc->name);
}

/* ---- the calls ---- */

int acct_signup(acct_svc *a, const char *name, const char *password, const char *addr, int64_t now_ms,
                acct_user *out, pl_buf *err)
{
    char nm[ACCT_MAX_NAME + 1], folded[STORE_ACCOUNT_FOLDED + 1], hash[crypto_pwhash_STRBYTES];
    if (addr_attempt(a, addr, now_ms) != ACCT_OK)
        return ACCT_RATE;
    if (!name_check(name, nm, folded))
        return ACCT_BAD_NAME;
    if (!password_ok(password))
        return ACCT_BAD_PASSWORD;
    if (hash_password(a, password, hash, err) < 0)
        return -1;
    int64_t id = 0;
    int rc = store_account_put(a->s, nm, folded, hash, now_ms, &id, err);
    if (rc != 0)
        return rc < 0 ? -1 : ACCT_NAME_TAKEN;
    store_account acc = {.id = id};
    snprintf(acc.name, sizeof acc.name, "%s", nm);
    user_from(out, &acc);
    return session_open(a, id, now_ms, out, err) < 0 ? -1 : ACCT_OK;
}

/* Checks `password` against the account of folded name `folded` (or the
 * dummy when there is none, or the name is no name), counting a failure
 * against the name. ACCT_OK with the account in *acc, ACCT_WRONG,
 * ACCT_RATE, or -1. */
static int check(acct_svc *a, const char *folded, const char *password, int64_t now, store_account *acc, pl_buf *err)
{
    if (rl_full(a, a->names, 'n', folded, a->cfg.per_name, now))
        return ACCT_RATE;
    int found = 0;
    if (*folded) {
        int rc = store_account_by_name(a->s, folded, acc, err);
        if (rc < 0)
            return -1;
        found = rc == 0;
    }
    const char *pw = password_ok(password) ? password : "";
    /* The same work either way: a verify against a hash of the same limits. */
    int ok = crypto_pwhash_str_verify(found ? acc->hash : a->dummy, pw, strlen(pw)) == 0;
    if (found && ok && *pw)
        return ACCT_OK;
    rl_count(a, a->names, 'n', folded, now);
    return ACCT_WRONG;
}

/* After a right password: when the account's hash was made with other
 * limits than a's (the limits were raised), hashes the password again with
 * a's, so every hash follows the configuration. Best effort: a failure (or
 * a password changed meanwhile) leaves the old hash, which still works. */
static void rehash(acct_svc *a, const store_account *acc, const char *password)
{
    char hash[crypto_pwhash_STRBYTES];
    if (crypto_pwhash_str_needs_rehash(acc->hash, a->cfg.ops, a->cfg.mem) == 0)
        return;
    pl_buf e2 = {0};
    if (hash_password(a, password, hash, &e2) == 0)
        store_account_rehash(a->s, acc->id, acc->hash, hash, &e2);
    pl_buf_free(&e2);
}

int acct_signin(acct_svc *a, const char *name, const char *password, const char *addr, int64_t now_ms,
                acct_user *out, pl_buf *err)
{
    char nm[ACCT_MAX_NAME + 1], folded[STORE_ACCOUNT_FOLDED + 1];
    if (addr_attempt(a, addr, now_ms) != ACCT_OK)
        return ACCT_RATE;
    if (!name_check(name, nm, folded))
        folded[0] = '\0'; /* no such name: the dummy is checked all the same */
    store_account acc;
    int rc = check(a, folded, password, now_ms, &acc, err);
    if (rc != ACCT_OK)
        return rc;
    rehash(a, &acc, password);
    user_from(out, &acc);
    return session_open(a, acc.id, now_ms, out, err) < 0 ? -1 : ACCT_OK;
}

int acct_find(acct_svc *a, const char *name, store_account *out, pl_buf *err)
{
    char nm[ACCT_MAX_NAME + 1], folded[STORE_ACCOUNT_FOLDED + 1];
    if (!name_check(name, nm, folded))
        return 1;
    return store_account_by_name(a->s, folded, out, err);
}

int acct_session(acct_svc *a, const char *token, int64_t now_ms, acct_user *out, pl_buf *err)
{
    char key[STORE_SESSION_HASH + 1];
    if (!token_parse(token, key))
        return ACCT_NO_SESSION;
    store_account acc;
    int rc = session_account(a, key, now_ms, &acc, err);
    if (rc == ACCT_OK)
        user_from(out, &acc);
    return rc;
}

int acct_signout(acct_svc *a, const char *token, pl_buf *err)
{
    char key[STORE_SESSION_HASH + 1];
    if (!token_parse(token, key))
        return ACCT_NO_SESSION;
    int rc = store_session_drop(a->s, key, err);
    return rc < 0 ? -1 : rc == 0 ? ACCT_OK : ACCT_NO_SESSION;
}

/* The session's account, rate limits and password checked: ACCT_OK with
 * the account in *acc and the session's key in key, else the status. */
static int session_checked(acct_svc *a, const char *token, const char *password, const char *addr, int64_t now,
                           char *key, store_account *acc, pl_buf *err)
{
    if (!token_parse(token, key))
        return ACCT_NO_SESSION;
    int rc = session_account(a, key, now, acc, err);
    if (rc != ACCT_OK)
        return rc;
    if (addr_attempt(a, addr, now) != ACCT_OK)
        return ACCT_RATE;
    return check(a, acc->folded, password, now, acc, err);
}

int acct_password(acct_svc *a, const char *token, const char *old_password, const char *new_password,
                  const char *addr, int64_t now_ms, pl_buf *err)
{
    char key[STORE_SESSION_HASH + 1], hash[crypto_pwhash_STRBYTES];
    store_account acc;
    if (!token_parse(token, key))
        return ACCT_NO_SESSION;
    if (!password_ok(new_password)) { /* the session first: a stranger learns nothing */
        int rc = session_account(a, key, now_ms, &acc, err);
        return rc != ACCT_OK ? rc : ACCT_BAD_PASSWORD;
    }
    int rc = session_checked(a, token, old_password, addr, now_ms, key, &acc, err);
    if (rc != ACCT_OK)
        return rc;
    if (hash_password(a, new_password, hash, err) < 0)
        return -1;
    rc = store_account_set_hash(a->s, acc.id, hash, key, err);
    return rc < 0 ? -1 : rc == 0 ? ACCT_OK : ACCT_NO_SESSION;
}

int acct_delete(acct_svc *a, const char *token, const char *password, const char *addr, int64_t now_ms,
                pl_buf *err)
{
    char key[STORE_SESSION_HASH + 1];
    store_account acc;
    int rc = session_checked(a, token, password, addr, now_ms, key, &acc, err);
    if (rc != ACCT_OK)
        return rc;
    rc = store_account_delete(a->s, acc.id, ANON_NAME, err);
    return rc < 0 ? -1 : rc == 0 ? ACCT_OK : ACCT_NO_SESSION;
}
