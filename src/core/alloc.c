/* alloc.c — the allocator wrapper with failure injection (alloc.h). */
#include "parlour/alloc.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* <0: never fail. Atomic so that threads allocating at once (the arena, MCTS
 * root parallelism) never race on it; the common case is one relaxed load. */
static _Atomic long fail_after = -1;

static int should_fail(void)
{
    long n = atomic_load_explicit(&fail_after, memory_order_relaxed);
    for (;;) {
        if (n < 0)
            return 0;
        if (n == 0)
            return 1;
        /* count this allocation: n -> n - 1, unless another thread got there first */
        if (atomic_compare_exchange_weak_explicit(&fail_after, &n, n - 1, memory_order_relaxed,
                                                  memory_order_relaxed))
            return 0;
    }
}

void pl_alloc_fail_after(long n) { atomic_store(&fail_after, n); }

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
