/* The library's one allocation door (issue 14 §4): every malloc/calloc/realloc/aligned_alloc
 * in src/ goes through these, so a test can make the Nth allocation fail and prove that each
 * path answers E_OUTOFMEMORY / STATUS_NO_MEMORY cleanly and leaks nothing
 * (wddm_test_fail_alloc_after in <wddm/wddm.h>, tests/e2e/test_alloc_failure.c).
 * With the hook off an allocation costs one relaxed load more than the libc call. */
#ifndef WDDM_COMMON_ALLOC_H
#define WDDM_COMMON_ALLOC_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>

/* Non-zero while a thread has a failure armed (alloc.c). */
extern atomic_int wddm_alloc_hook_on;
/* The calling thread's countdown: true when this allocation is the one to fail. */
bool wddm_alloc_fail_now(void);

static inline bool wddm_alloc_injected_failure(void)
{
    return __builtin_expect(atomic_load_explicit(&wddm_alloc_hook_on, memory_order_relaxed) != 0, 0) &&
           wddm_alloc_fail_now();
}

static inline void *wddm_malloc(size_t size)
{
    return wddm_alloc_injected_failure() ? NULL : malloc(size);
}

static inline void *wddm_calloc(size_t count, size_t size)
{
    return wddm_alloc_injected_failure() ? NULL : calloc(count, size);
}

/* Like realloc: on failure the old block is untouched and still the caller's. */
static inline void *wddm_realloc(void *ptr, size_t size)
{
    return wddm_alloc_injected_failure() ? NULL : realloc(ptr, size);
}

static inline void *wddm_aligned_alloc(size_t alignment, size_t size)
{
    return wddm_alloc_injected_failure() ? NULL : aligned_alloc(alignment, size);
}

#endif
