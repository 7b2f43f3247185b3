/* fuzz_proto.c — the protocol line parser and dispatcher (`parlour engine`):
 * the input is split at LF into request lines (any bytes: invalid UTF-8,
 * NUL, CR, long lines) played on one session. Each response is framed
 * ("=" or "?", ends with an empty line), and an error leaves the game as it
 * was (same position text and history). Deep searches are skipped: a
 * `genmove expectimax:depth=N` costs seconds, not a parser bug. */
#include <string.h>

#include "fuzz.h"
#include "parlour/alloc.h"
#include "parlour/proto.h"

#define MAX_LINES 24

static void ask(pl_proto *p, const char *line, pl_buf *out)
{
    pl_buf_clear(out);
    pl_proto_line(p, line, strlen(line), out);
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
    pl_buf out = {0}, before = {0}, after = {0};
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
        pl_buf_clear(&before);
        ask(p, "position", &before);
        ask(p, "history", &before);
        pl_buf_clear(&out);
        int quit = pl_proto_line(p, (const char *)line, len, &out);
        FUZZ_CHECK(!out.oom, "response out of memory");
        if (out.len) {
            FUZZ_CHECK(out.s[0] == '=' || out.s[0] == '?', "response '%s'", out.s);
            FUZZ_CHECK(out.len >= 3 && out.s[out.len - 1] == '\n' && out.s[out.len - 2] == '\n',
                       "response not framed: '%s'", out.s);
            FUZZ_CHECK(strlen(out.s) == out.len, "response holds a NUL byte");
        }
        if (out.len && out.s[0] == '?') { /* an error changes nothing */
            pl_buf_clear(&after);
            ask(p, "position", &after);
            ask(p, "history", &after);
            FUZZ_CHECK(!strcmp(pl_buf_str(&before), pl_buf_str(&after)),
                       "a failed request changed the game: '%.*s'", (int)(len > 200 ? 200 : len), line);
        }
        if (quit)
            break;
        if (!nl)
            break;
    }
    pl_buf_free(&out);
    pl_buf_free(&before);
    pl_buf_free(&after);
    pl_proto_free(p);
    return 0;
}
