/* The system-memory budget of backing stores (issue 3: "when even the backing stores cannot be
 * committed").
 *
 * Choice (as WDDM 1.x VidMm, which charges commit for an evictable allocation's backing store
 * when the allocation is created, so that an eviction can never fail for lack of system
 * memory): every instance of an allocation charges its size against the budget when it is
 * created (D3DKMTCreateAllocation, or a renaming instance) and gives it back when it is freed.
 * Past the budget the creating call fails with STATUS_NO_MEMORY (E_OUTOFMEMORY at the API);
 * nothing else is affected. A renaming instance that cannot be charged is not created: the
 * Discard lock waits for the oldest instance instead (vidmm/lock.c).
 *
 * The budget is WDDM_SYSMEM_BUDGET_MB (MiB, read once per process; unset or 0 = unlimited).
 * It is process-wide (system memory is), and lock-free: an atomic counter, not even touched
 * when there is no budget. */
#include "dxgkrnl/vidmm/vidmm.h"

#include <stdlib.h>

static _Atomic UINT64 committed;
static UINT64 budget;
static pthread_once_t budget_once = PTHREAD_ONCE_INIT;

static void budget_init(void)
{
    const char *e = getenv("WDDM_SYSMEM_BUDGET_MB");
    char *end = NULL;
    unsigned long long v = e && *e ? strtoull(e, &end, 10) : 0;
    if (e && *e && (!end || *end)) {
        dxgk_refuse("WDDM_SYSMEM_BUDGET_MB=%s is not a size in MiB: no budget", e);
        v = 0;
    }
    budget = v > (1ull << 40) ? 0 : (UINT64)v << 20;
}

UINT64 vidmm_commit_budget(void)
{
    pthread_once(&budget_once, budget_init);
    return budget;
}

/* Bytes charged now (0 without a budget: nothing is counted then). */
UINT64 vidmm_commit_used(void)
{
    return atomic_load_explicit(&committed, memory_order_relaxed);
}

bool vidmm_commit_charge(UINT64 bytes)
{
    UINT64 limit = vidmm_commit_budget();
    if (!limit)
        return true; /* unlimited: nothing to count (the create/destroy fast path, issue 2 W3) */
    UINT64 cur = atomic_load_explicit(&committed, memory_order_relaxed);
    do {
        if (limit && (bytes > limit || cur > limit - bytes)) {
            dxgk_refuse("vidmm: committing %llu bytes of backing store would exceed the system-memory budget "
                        "(%llu of %llu bytes committed)", (unsigned long long)bytes, (unsigned long long)cur,
                        (unsigned long long)limit);
            return false;
        }
    } while (!atomic_compare_exchange_weak_explicit(&committed, &cur, cur + bytes, memory_order_relaxed,
                                                    memory_order_relaxed));
    return true;
}

void vidmm_commit_uncharge(UINT64 bytes)
{
    if (!vidmm_commit_budget())
        return; /* the budget is fixed per process: nothing was counted */
    atomic_fetch_sub_explicit(&committed, bytes, memory_order_relaxed);
}
