/* alloc.c — the allocator wrapper with failure injection (alloc.h). */
#include "parlour/alloc.h"

#include <stdlib.h>
#include <string.h>

static long fail_after = -1; /* <0: never fail */

static int should_fail(void)
{
    if (fail_after < 0)
        return 0;
    if (fail_after == 0)
        return 1;
    fail_after--;
    return 0;
}

void pl_alloc_fail_after(long n) { fail_after = n; }

void *pl_malloc(size_t n) { return should_fail() ? NULL : malloc(n ? n : 1); }

void *pl_calloc(size_t count, size_t n)
{
    return should_fail() ? NULL : calloc(count ? count : 1, n ? n : 1);
}

void *pl_realloc(void *p, size_t n) { return should_fail() ? NULL : realloc(p, n ? n : 1); }

void pl_free(void *p) { free(p); }

char *pl_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = pl_malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}
