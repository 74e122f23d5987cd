/* Spin locks (include/wddm/wdm.h). A KSPIN_LOCK holds 0 when free, else the identity of the
 * thread holding it, so a second acquire by the holder and a release by another thread are seen
 * and reported instead of hanging or freeing someone else's lock. */
#include "displib/wdk_shim.h"

#include <sched.h>

/* Its address is the thread's identity: unique among live threads, never 0. */
static _Thread_local char self_mark;
#define SELF ((ULONG_PTR)&self_mark)

/* A holder here can be preempted (Windows' DISPATCH_LEVEL would keep it on its processor), so a
 * waiter gives its processor away after a short spin rather than burning it. */
#define SPINS_BEFORE_YIELD 64

static void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static void acquire(const char *who, PKSPIN_LOCK lock)
{
    if (__atomic_load_n(lock, __ATOMIC_RELAXED) == SELF) {
        displib_report("%s: spin lock %p is already held by this thread (SPIN_LOCK_ALREADY_OWNED on Windows, "
                       "a deadlock without the verifier): not acquired again",
                       who, (void *)lock);
        return;
    }
    for (unsigned spins = 0;; spins++) {
        ULONG_PTR expected = 0;
        if (__atomic_compare_exchange_n(lock, &expected, SELF, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
            return;
        if (spins >= SPINS_BEFORE_YIELD)
            sched_yield();
        else
            relax();
    }
}

static void release(const char *who, PKSPIN_LOCK lock)
{
    ULONG_PTR expected = SELF;
    if (!__atomic_compare_exchange_n(lock, &expected, 0, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
        displib_report("%s: spin lock %p is not held by this thread (SPIN_LOCK_NOT_OWNED on Windows): left as it is",
                       who, (void *)lock);
}

VOID KeInitializeSpinLock(PKSPIN_LOCK SpinLock)
{
    __atomic_store_n(SpinLock, 0, __ATOMIC_RELAXED);
}

KIRQL KeAcquireSpinLockRaiseToDpc(PKSPIN_LOCK SpinLock)
{
    KIRQL old = KeGetCurrentIrql();
    if (old > DISPATCH_LEVEL) {
        char irql[16];
        displib_report("KeAcquireSpinLock: called at %s: the caller must be at IRQL <= DISPATCH_LEVEL: the IRQL stays",
                       displib_irql_name(old, irql));
    } else {
        displib_irql_set(DISPATCH_LEVEL);
    }
    acquire("KeAcquireSpinLock", SpinLock);
    return old;
}

VOID KeReleaseSpinLock(PKSPIN_LOCK SpinLock, KIRQL NewIrql)
{
    release("KeReleaseSpinLock", SpinLock);
    KeLowerIrql(NewIrql);
}

VOID KeAcquireSpinLockAtDpcLevel(PKSPIN_LOCK SpinLock)
{
    KIRQL level = KeGetCurrentIrql();
    if (level < DISPATCH_LEVEL) {
        char irql[16];
        displib_report("KeAcquireSpinLockAtDpcLevel: called at %s: the caller must be at DISPATCH_LEVEL "
                       "(KeAcquireSpinLock raises to it)",
                       displib_irql_name(level, irql));
    }
    acquire("KeAcquireSpinLockAtDpcLevel", SpinLock);
}

VOID KeReleaseSpinLockFromDpcLevel(PKSPIN_LOCK SpinLock)
{
    release("KeReleaseSpinLockFromDpcLevel", SpinLock);
}
