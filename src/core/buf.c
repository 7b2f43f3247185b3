/* buf.c — growable text buffer (buf.h). */
#include "parlour/buf.h"

#include <stdio.h>
#include <string.h>

#include "parlour/alloc.h"

static bool reserve(pl_buf *b, size_t extra)
{
    if (b->oom)
        return false;
    size_t need = b->len + extra + 1;
    if (need <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < need)
        cap *= 2;
    char *s = pl_realloc(b->s, cap);
    if (!s) {
        b->oom = true;
        return false;
    }
    b->s = s;
    b->cap = cap;
    return true;
}

bool pl_buf_reserve(pl_buf *b, size_t extra) { return reserve(b, extra); }

void pl_buf_append(pl_buf *b, const char *s, size_t n)
{
    if (!reserve(b, n))
        return;
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

/* The functions behind buf.h's inline forms (parenthesised names: not the
 * macros). */
void(pl_buf_puts)(pl_buf *b, const char *s) { pl_buf_append(b, s, strlen(s)); }

void(pl_buf_putc)(pl_buf *b, char c)
{
    if (b->len + 2 <= b->cap && !b->oom) { /* room for it and the NUL: most calls */
        b->s[b->len++] = c;
        b->s[b->len] = '\0';
        return;
    }
    pl_buf_append(b, &c, 1);
}

void pl_buf_vprintf(pl_buf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    char tmp[256];
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    if (n < 0) {
        va_end(ap2);
        return;
    }
    if ((size_t)n < sizeof tmp) {
        pl_buf_append(b, tmp, (size_t)n);
    } else if (reserve(b, (size_t)n)) {
        vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap2);
        b->len += (size_t)n;
    }
    va_end(ap2);
}

void pl_buf_printf(pl_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pl_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

const char *pl_buf_str(const pl_buf *b) { return b->s ? b->s : ""; }

void pl_buf_truncate(pl_buf *b, size_t len)
{
    if (len >= b->len)
        return;
    b->len = len;
    b->s[len] = '\0';
}

void pl_buf_clear(pl_buf *b)
{
    pl_buf_truncate(b, 0);
    b->oom = false;
}

void pl_buf_free(pl_buf *b)
{
    pl_free(b->s);
    b->s = NULL;
    b->len = b->cap = 0;
    b->oom = false;
}
