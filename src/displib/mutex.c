/* Mutex objects (include/wddm/wdm.h): dispatcher objects (wait.c) a thread acquires through
 * KeWaitForSingleObject and may acquire again while it owns them; each acquisition is released
 * by the owner (KeReleaseMutex reference: another thread's release raises
 * STATUS_MUTANT_NOT_OWNED on Windows). */
#include "displib/wdk_shim.h"

static int usable(const char *who, const KMUTEX *m)
{
    if (m && m->Header.Type == DISPLIB_MUTANT_OBJECT && m->Header.Size == DISPLIB_SIZE_IN_LONGS(KMUTEX))
        return 1;
    displib_report("%s: %p is not a KMUTEX initialized with KeInitializeMutex", who, (const void *)m);
    return 0;
}

VOID KeInitializeMutex(PRKMUTEX Mutex, ULONG Level)
{
    (void)Level; /* ignored since Windows XP */
    displib_dispatcher_lock();
    memset(Mutex, 0, sizeof *Mutex);
    Mutex->Header.Type = DISPLIB_MUTANT_OBJECT;
    Mutex->Header.Size = DISPLIB_SIZE_IN_LONGS(KMUTEX);
    Mutex->Header.SignalState = 1;
    Mutex->Header.WaitListHead.Flink = Mutex->Header.WaitListHead.Blink = &Mutex->Header.WaitListHead;
    Mutex->MutantListEntry.Flink = Mutex->MutantListEntry.Blink = &Mutex->MutantListEntry;
    displib_dispatcher_unlock();
}

LONG KeReleaseMutex(PRKMUTEX Mutex, BOOLEAN Wait)
{
    (void)Wait; /* the caller's next wait is not joined to the release here */
    if (!usable("KeReleaseMutex", Mutex))
        return 0;
    KIRQL level = KeGetCurrentIrql();
    if (level > DISPATCH_LEVEL) {
        char irql[16];
        displib_report("KeReleaseMutex: called at %s: the caller must be at IRQL <= DISPATCH_LEVEL",
                       displib_irql_name(level, irql));
    }
    displib_dispatcher_lock();
    LONG old = Mutex->Header.SignalState;
    PKTHREAD owner = Mutex->OwnerThread;
    int owned = owner == KeGetCurrentThread();
    if (owned) {
        if (++Mutex->Header.SignalState == 1) {
            Mutex->OwnerThread = NULL;
            displib_dispatcher_wake_locked();
        }
    }
    displib_dispatcher_unlock();
    if (!owned)
        displib_report("KeReleaseMutex: mutex %p is %s (STATUS_MUTANT_NOT_OWNED on Windows): left as it is",
                       (void *)Mutex, owner ? "owned by another thread" : "not owned");
    return old;
}

LONG KeReadStateMutex(PRKMUTEX Mutex)
{
    if (!usable("KeReadStateMutex", Mutex))
        return 0;
    displib_dispatcher_lock();
    LONG state = Mutex->Header.SignalState;
    displib_dispatcher_unlock();
    return state;
}
