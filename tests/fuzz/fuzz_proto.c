/* fuzz_proto.c — the protocol line parser and dispatcher (`parlour engine`):
 * the input is split at LF into request lines (any bytes: invalid UTF-8,
 * NUL, CR, long lines) played on one session. Each response is framed
 * ("=" or "?", ends with an empty line, no NUL), and an error leaves the
 * game as it was (same position text and history).
 *
 * The game is read (`position`, `history`: a snapshot) after each request
 * that changed it legitimately, i.e. a command that may change the game
 * (`new`, `play`, `undo`, ...) answered `=`. Every other request, failed or
 * read-only (`legal`, `show`, ...), must leave the snapshot true; that is
 * checked before the next command that may change the game and at the end,
 * so a run of such requests costs one reading, not one each. Deep searches
 * are skipped: a `genmove expectimax:depth=N` costs seconds, not a parser
 * bug. Long lines: the campaign's -max_len (campaign.sh, PROTO_MAX_LEN). */
#include <string.h>

#include "fuzz.h"
#include "parlour/alloc.h"
#include "proto.h"

#define MAX_LINES 24

/* True when the request's command (after an optional numeric id) is one
 * that only reads the game (docs/protocol.md). */
static int reads_only(const uint8_t *s, size_t n)
{
    static const char *const cmds[] = {"protocol_version", "name", "version", "quit", "list_games",
                                       "list_options", "options", "status", "legal", "history",
                                       "show", "view", "record", "position", NULL};
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    size_t d = i;
    while (d < n && s[d] >= '0' && s[d] <= '9')
        d++;
    if (d > i && (d == n || s[d] == ' ' || s[d] == '\t')) /* an id */
        for (i = d; i < n && (s[i] == ' ' || s[i] == '\t'); i++)
            ;
    size_t e = i;
    while (e < n && s[e] != ' ' && s[e] != '\t' && s[e] != '\r')
        e++;
    for (int k = 0; cmds[k]; k++)
        if (strlen(cmds[k]) == e - i && !memcmp(s + i, cmds[k], e - i))
            return 1;
    return 0;
}

/* Appends the answer to `line`. */
static void ask(pl_proto *p, const char *line, pl_buf *out) { pl_proto_line(p, line, strlen(line), out); }

/* Reads the game into `b`: its position and its history. */
static void snapshot(pl_proto *p, pl_buf *b)
{
    pl_buf_clear(b);
    ask(p, "position", b);
    ask(p, "history", b);
    FUZZ_CHECK(!b->oom, "snapshot out of memory");
}

static int mentions(const uint8_t *s, size_t n, const char *word)
{
    size_t w = strlen(word);
    for (size_t i = 0; i + w <= n; i++)
        if (!memcmp(s + i, word, w))
            return 1;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pl_proto *p = pl_proto_new();
    FUZZ_CHECK(p != NULL, "out of memory");
    pl_buf out = {0}, before = {0}, now = {0};
    snapshot(p, &before);
    /* since: the first request run since `before` was read (-1: none);
     * culprit: the last of them that failed, for the message. */
    int since = -1, culprit = -1;
    const uint8_t *culprit_line = NULL;
    size_t culprit_len = 0;
    size_t start = 0;
    int lines = 0;
    while (start <= size && lines < MAX_LINES) {
        const uint8_t *nl = memchr(data + start, '\n', size - start);
        size_t len = nl ? (size_t)(nl - (data + start)) : size - start;
        const uint8_t *line = data + start;
        start += len + 1;
        lines++;
        if (mentions(line, len, "genmove") && (mentions(line, len, "expectimax") || !mentions(line, len, "random")))
            continue; /* searches are slow by design; `genmove random` stays */
        int changes = !reads_only(line, len);
        if (changes && since >= 0) { /* nothing since `before` changed the game */
            snapshot(p, &now);
            FUZZ_CHECK(!strcmp(pl_buf_str(&before), pl_buf_str(&now)),
                       "a failed or read-only request (one of %d to %d; last failed: %d '%.*s') changed the game",
                       since + 1, lines - 1, culprit + 1, (int)(culprit_len > 200 ? 200 : culprit_len),
                       culprit_line ? (const char *)culprit_line : "");
            since = -1;
        }
        pl_buf_clear(&out);
        int quit = pl_proto_line(p, (const char *)line, len, &out);
        FUZZ_CHECK(!out.oom, "response out of memory");
        if (out.len) {
            FUZZ_CHECK(out.s[0] == '=' || out.s[0] == '?', "response '%s'", out.s);
            FUZZ_CHECK(out.len >= 3 && out.s[out.len - 1] == '\n' && out.s[out.len - 2] == '\n',
                       "response not framed: '%s'", out.s);
            FUZZ_CHECK(strlen(out.s) == out.len, "response holds a NUL byte");
        }
        if (out.len && out.s[0] == '=' && changes) {
            snapshot(p, &before); /* the game as this request left it */
            since = -1;
        } else {
            if (since < 0)
                since = lines - 1;
            if (out.len && out.s[0] == '?') {
                culprit = lines - 1;
                culprit_line = line;
                culprit_len = len;
            }
        }
        if (quit || !nl)
            break;
    }
    if (since >= 0) {
        snapshot(p, &now);
        FUZZ_CHECK(!strcmp(pl_buf_str(&before), pl_buf_str(&now)),
                   "a failed or read-only request (one of %d to %d; last failed: %d '%.*s') changed the game",
                   since + 1, lines, culprit + 1, (int)(culprit_len > 200 ? 200 : culprit_len),
                   culprit_line ? (const char *)culprit_line : "");
    }
    pl_buf_free(&out);
    pl_buf_free(&before);
    pl_buf_free(&now);
    pl_proto_free(p);
    return 0;
}
