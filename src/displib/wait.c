/* KeWaitForSingleObject and the dispatcher lock (include/wddm/wdm.h). One lock and one condition
 * variable serve every dispatcher object - KEVENT, KMUTEX, KTIMER - since each is the driver's
 * storage, with no call to destroy it, and can hold no resource of its own. A change a waiter
 * may be waiting for wakes every waiter, and each looks at its own object. */
#include "displib/wdk_shim.h"

#include <pthread.h>
#include <stdint.h>

static pthread_mutex_t dispatcher_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t dispatcher_cond;
static pthread_once_t dispatcher_once = PTHREAD_ONCE_INIT;

/* Timeouts are measured on CLOCK_MONOTONIC, which the system time's changes do not move. */
static void init_cond(void)
{
    pthread_condattr_t a;
    pthread_condattr_init(&a);
    pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
    pthread_cond_init(&dispatcher_cond, &a);
    pthread_condattr_destroy(&a);
}

void displib_dispatcher_lock(void)
{
    pthread_once(&dispatcher_once, init_cond);
    pthread_mutex_lock(&dispatcher_lock);
}

void displib_dispatcher_unlock(void)
{
    pthread_mutex_unlock(&dispatcher_lock);
}

void displib_dispatcher_wake_locked(void)
{
    pthread_cond_broadcast(&dispatcher_cond);
}

void displib_dispatcher_wait_locked(void)
{
    pthread_cond_wait(&dispatcher_cond, &dispatcher_lock);
}

enum object_kind { NOT_AN_OBJECT, EVENT, MUTEX, TIMER };

/* What the header says the object is, if its initializer wrote it. */
static enum object_kind kind_of(const DISPATCHER_HEADER *h)
{
    if (!h)
        return NOT_AN_OBJECT;
    switch (h->Type) {
    case DISPLIB_EVENT_NOTIFICATION_OBJECT:
    case DISPLIB_EVENT_SYNCHRONIZATION_OBJECT:
        return h->Size == DISPLIB_SIZE_IN_LONGS(KEVENT) ? EVENT : NOT_AN_OBJECT;
    case DISPLIB_MUTANT_OBJECT:
        return h->Size == DISPLIB_SIZE_IN_LONGS(KMUTEX) ? MUTEX : NOT_AN_OBJECT;
    case DISPLIB_TIMER_NOTIFICATION_OBJECT:
    case DISPLIB_TIMER_SYNCHRONIZATION_OBJECT:
        return h->Size == DISPLIB_SIZE_IN_LONGS(KTIMER) ? TIMER : NOT_AN_OBJECT;
    default:
        return NOT_AN_OBJECT;
    }
}

/* Under the dispatcher lock: satisfies the wait if the object lets it. A synchronization event or
 * timer gives its signal to one wait; a mutex is taken by a thread, again and again by its owner
 * (SignalState is 1 less the owner's acquisitions). */
static int take_locked(enum object_kind kind, DISPATCHER_HEADER *h)
{
    if (kind == MUTEX) {
        KMUTEX *m = CONTAINING_RECORD(h, KMUTEX, Header);
        PKTHREAD self = KeGetCurrentThread();
        if (m->OwnerThread && m->OwnerThread != self)
            return 0;
        m->OwnerThread = self;
        h->SignalState--;
        return 1;
    }
    if (h->SignalState <= 0)
        return 0;
    if (h->Type == DISPLIB_EVENT_SYNCHRONIZATION_OBJECT || h->Type == DISPLIB_TIMER_SYNCHRONIZATION_OBJECT)
        h->SignalState = 0;
    return 1;
}

NTSTATUS KeWaitForSingleObject(PVOID Object, KWAIT_REASON WaitReason, KPROCESSOR_MODE WaitMode,
                               BOOLEAN Alertable, PLARGE_INTEGER Timeout)
{
    DISPATCHER_HEADER *h = Object;
    enum object_kind kind = kind_of(h);
    if (kind == NOT_AN_OBJECT) {
        displib_report("KeWaitForSingleObject: %p is not a KEVENT, KMUTEX or KTIMER initialized by its "
                       "KeInitialize call",
                       Object);
        return STATUS_INVALID_PARAMETER;
    }
    int poll;
    LONGLONG deadline = displib_deadline(Timeout, &poll);
    KIRQL level = KeGetCurrentIrql();
    char irql[16];
    if (level > (poll ? DISPATCH_LEVEL : APC_LEVEL)) {
        displib_report("KeWaitForSingleObject: called at %s: a wait that may block is allowed at IRQL <= APC_LEVEL, "
                       "a zero timeout at <= DISPATCH_LEVEL: only looks at the object",
                       displib_irql_name(level, irql));
        poll = 1;
    }
    displib_dispatcher_lock();
    int signalled = take_locked(kind, h);
    struct timespec until = displib_timespec_from_100ns(deadline);
    while (!signalled && !poll) {
        int rc = deadline == INT64_MAX ? pthread_cond_wait(&dispatcher_cond, &dispatcher_lock)
                                       : pthread_cond_timedwait(&dispatcher_cond, &dispatcher_lock, &until);
        signalled = take_locked(kind, h);
        poll = rc != 0; /* timed out: the look just made was the last */
    }
    displib_dispatcher_unlock();
    return signalled ? STATUS_SUCCESS : STATUS_TIMEOUT;
}
