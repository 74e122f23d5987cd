/* Fast mutexes (include/wddm/wdm.h): taken at IRQL <= APC_LEVEL, held at APC_LEVEL, released by
 * the owner, never recursively (ExAcquireFastMutex reference: a second acquire by the owner
 * deadlocks on Windows; here it is reported). They block on the dispatcher lock (wait.c). */
#include "displib/wdk_shim.h"

static int usable(const char *who, const FAST_MUTEX *m)
{
    if (m && m->Event.Header.Size == DISPLIB_SIZE_IN_LONGS(KEVENT) &&
        m->Event.Header.Type == DISPLIB_EVENT_SYNCHRONIZATION_OBJECT)
        return 1;
    displib_report("%s: %p is not a FAST_MUTEX initialized with ExInitializeFastMutex", who, (const void *)m);
    return 0;
}

VOID ExInitializeFastMutex(PFAST_MUTEX FastMutex)
{
    KeInitializeEvent(&FastMutex->Event, SynchronizationEvent, FALSE);
    displib_dispatcher_lock();
    FastMutex->Count = 1;
    FastMutex->Owner = NULL;
    FastMutex->Contention = 0;
    FastMutex->OldIrql = PASSIVE_LEVEL;
    displib_dispatcher_unlock();
}

/* Under the dispatcher lock: the caller becomes the owner, at APC_LEVEL. */
static void take_locked(PFAST_MUTEX m, KIRQL old)
{
    m->Count = 0;
    m->Owner = (PVOID)displib_thread_identity();
    m->OldIrql = old;
    if (old < APC_LEVEL)
        displib_irql_set(APC_LEVEL);
}

VOID ExAcquireFastMutex(PFAST_MUTEX FastMutex)
{
    if (!usable("ExAcquireFastMutex", FastMutex))
        return;
    KIRQL level = KeGetCurrentIrql();
    (void)displib_irql_at_most("ExAcquireFastMutex", APC_LEVEL, ": acquires it all the same");
    displib_dispatcher_lock();
    if (FastMutex->Owner == (PVOID)displib_thread_identity()) {
        displib_dispatcher_unlock();
        displib_report("ExAcquireFastMutex: fast mutex %p is already held by this thread (not recursive: a "
                       "deadlock on Windows): not acquired again",
                       (void *)FastMutex);
        return;
    }
    if (FastMutex->Owner)
        FastMutex->Contention++;
    while (FastMutex->Owner)
        displib_dispatcher_wait_locked();
    take_locked(FastMutex, level);
    displib_dispatcher_unlock();
}

BOOLEAN ExTryToAcquireFastMutex(PFAST_MUTEX FastMutex)
{
    if (!usable("ExTryToAcquireFastMutex", FastMutex))
        return FALSE;
    KIRQL level = KeGetCurrentIrql();
    (void)displib_irql_at_most("ExTryToAcquireFastMutex", APC_LEVEL, "");
    displib_dispatcher_lock();
    BOOLEAN taken = FastMutex->Owner == NULL;
    if (taken)
        take_locked(FastMutex, level);
    displib_dispatcher_unlock();
    return taken;
}

VOID ExReleaseFastMutex(PFAST_MUTEX FastMutex)
{
    if (!usable("ExReleaseFastMutex", FastMutex))
        return;
    displib_dispatcher_lock();
    PVOID owner = FastMutex->Owner;
    int owned = owner == (PVOID)displib_thread_identity();
    KIRQL old = (KIRQL)FastMutex->OldIrql;
    if (owned) {
        FastMutex->Owner = NULL;
        FastMutex->Count = 1;
        displib_dispatcher_wake_locked();
    }
    displib_dispatcher_unlock();
    if (!owned) {
        displib_report("ExReleaseFastMutex: fast mutex %p is %s: left as it is", (void *)FastMutex,
                       owner ? "held by another thread" : "not held");
        return;
    }
    KIRQL level = KeGetCurrentIrql();
    if (level != APC_LEVEL) {
        char irql[16];
        displib_report("ExReleaseFastMutex: called at %s: the owner releases it at APC_LEVEL, where the acquire "
                       "left it",
                       displib_irql_name(level, irql));
    }
    KeLowerIrql(old);
}
