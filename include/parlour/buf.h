/* buf.h — a growable text buffer, for messages, notation and pictures.
 *
 * A pl_buf starts zeroed (`pl_buf b = {0};`) and always holds a
 * NUL-terminated string once anything was appended. If memory runs out the
 * buffer keeps what it had and sets `oom`; callers check `oom` where a
 * truncated text would matter. Not thread-safe (one owner).
 */
#ifndef PARLOUR_BUF_H
#define PARLOUR_BUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

typedef struct pl_buf {
    char *s;    /* NUL-terminated text, or NULL while empty */
    size_t len; /* bytes before the NUL */
    size_t cap; /* bytes allocated */
    bool oom;   /* an append failed for lack of memory */
} pl_buf;

/* Appends formatted text (printf rules). */
void pl_buf_printf(pl_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void pl_buf_vprintf(pl_buf *b, const char *fmt, va_list ap);
/* Appends `n` bytes / a string. */
void pl_buf_append(pl_buf *b, const char *s, size_t n);
void pl_buf_puts(pl_buf *b, const char *s);
void pl_buf_putc(pl_buf *b, char c);
/* Makes room for `extra` more bytes (and the NUL) without appending:
 * until the text grows past that, an append does not move `s`, so the
 * caller may append bytes copied from the buffer's own text. Returns false
 * (and sets `oom`) when memory runs out, or when `oom` was already set. */
bool pl_buf_reserve(pl_buf *b, size_t extra);
/* The text so far ("" when empty); valid until the next append. */
const char *pl_buf_str(const pl_buf *b);
/* Cuts the text back to its first `len` bytes (no-op when `len` >= its
 * length), keeping the memory and the `oom` flag: how a writer takes back
 * what it appended (e.g. a half-written text after memory ran out). */
void pl_buf_truncate(pl_buf *b, size_t len);
/* Empties the buffer, keeping its memory. */
void pl_buf_clear(pl_buf *b);
/* Frees the memory; the buffer is empty and reusable afterwards. */
void pl_buf_free(pl_buf *b);

/* pl_buf_puts and pl_buf_putc as the compiler sees them: inline while the
 * buffer has room (most calls; a literal's length is then known when
 * compiled, and the copy is a few moves), the functions above otherwise.
 * The same effect as the functions; they exist for function pointers. */
static inline void pl_buf_puts_inline(pl_buf *b, const char *s)
{
    size_t n = strlen(s);
    if (b->len + n < b->cap && !b->oom) { /* room for it and the NUL */
        memcpy(b->s + b->len, s, n + 1);
        b->len += n;
        return;
    }
    pl_buf_append(b, s, n);
}

static inline void pl_buf_putc_inline(pl_buf *b, char c)
{
    if (b->len + 2 <= b->cap && !b->oom) {
        b->s[b->len++] = c;
        b->s[b->len] = '\0';
        return;
    }
    pl_buf_append(b, &c, 1);
}

#define pl_buf_puts(b, s) pl_buf_puts_inline((b), (s))
#define pl_buf_putc(b, c) pl_buf_putc_inline((b), (c))

#endif
