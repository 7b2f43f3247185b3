/* alloc.h — the one allocator every module uses.
 *
 * All heap memory goes through pl_malloc/pl_calloc/pl_realloc/pl_free so that
 * a test can make the N-th allocation fail (`pl_alloc_fail_after`) and check
 * that each entry point reports the error and leaks nothing.
 * Thread-safety: the allocation functions are as safe as malloc. The
 * failure counter is one global atomic, so threads that allocate while a
 * test injects failures do not race on it, but which thread's allocation
 * is the one that fails is then up to the scheduler: inject failures in
 * single-threaded tests only.
 */
#ifndef PARLOUR_ALLOC_H
#define PARLOUR_ALLOC_H

#include <stddef.h>

/* Like malloc/calloc/realloc/free. Return NULL on failure (or on an injected
 * failure); pl_realloc leaves the old block intact when it fails. */
void *pl_malloc(size_t n);
void *pl_calloc(size_t count, size_t n);
void *pl_realloc(void *p, size_t n);
void pl_free(void *p);
/* Returns a copy of `s` (NULL on failure); free it with pl_free. */
char *pl_strdup(const char *s);

/* Test hook: after `n` more successful allocations every allocation fails,
 * until called with n < 0 (the default: never fail). */
void pl_alloc_fail_after(long n);

#endif
