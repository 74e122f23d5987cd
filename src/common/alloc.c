/* The allocation failure hook: see alloc.h and wddm_test_fail_alloc_after (<wddm/wddm.h>).
 *
 * The count is per thread: only the thread that armed it sees a failure. The GPU engines and
 * the scheduler's workers allocate at times that depend on timing, so counting them would make
 * "the Nth allocation" a different one on every run; counting the caller's own allocations
 * keeps a sweep over N repeatable up to the few allocations the caller's path makes or skips
 * depending on the GPU's progress (a wait, a rename). */
#include "common/alloc.h"

#include <wddm/wddm.h>

atomic_int wddm_alloc_hook_on;

static _Thread_local long long countdown = -1; /* allocations left before the failing one */
static _Thread_local unsigned long long injected;

bool wddm_alloc_fail_now(void)
{
    if (countdown < 0)
        return false;
    if (countdown-- > 0)
        return false;
    injected++; /* countdown is now -1: one failure, then allocations succeed again */
    return true;
}

void wddm_test_fail_alloc_after(long long n)
{
    countdown = n < 0 ? -1 : n;
    injected = 0;
    atomic_store_explicit(&wddm_alloc_hook_on, n >= 0, memory_order_relaxed);
}

unsigned long long wddm_test_alloc_failures_injected(void)
{
    return injected;
}
