/* Events and KeWaitForSingleObject (include/wddm/wdm.h). One lock and one condition variable
 * serve every KEVENT: a KEVENT is the driver's storage, with no call to destroy it, so it can
 * hold no per-object resource. A signal wakes every waiter, and each looks at its own event. */
#include "displib/wdk_shim.h"

#include <pthread.h>
#include <stdint.h>

#define EVENT_SIZE_IN_LONGS ((UCHAR)(sizeof(KEVENT) / sizeof(LONG)))

static pthread_mutex_t event_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t event_cond;
static pthread_once_t event_once = PTHREAD_ONCE_INIT;

/* Timeouts are measured on CLOCK_MONOTONIC, which the system time's changes do not move. */
static void init_cond(void)
{
    pthread_condattr_t a;
    pthread_condattr_init(&a);
    pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
    pthread_cond_init(&event_cond, &a);
    pthread_condattr_destroy(&a);
}

static int usable(const char *who, const KEVENT *e)
{
    if (e && e->Header.Size == EVENT_SIZE_IN_LONGS && e->Header.Type <= SynchronizationEvent)
        return 1;
    displib_report("%s: %p is not a KEVENT initialized with KeInitializeEvent", who, (const void *)e);
    return 0;
}

VOID KeInitializeEvent(PRKEVENT Event, EVENT_TYPE Type, BOOLEAN State)
{
    if (Type != NotificationEvent && Type != SynchronizationEvent) {
        displib_report("KeInitializeEvent: type %d is neither NotificationEvent nor SynchronizationEvent: "
                       "not initialized",
                       (int)Type);
        return;
    }
    pthread_mutex_lock(&event_lock);
    memset(Event, 0, sizeof *Event);
    Event->Header.Type = (UCHAR)Type;
    Event->Header.Size = EVENT_SIZE_IN_LONGS;
    Event->Header.SignalState = State ? 1 : 0;
    Event->Header.WaitListHead.Flink = Event->Header.WaitListHead.Blink = &Event->Header.WaitListHead;
    pthread_mutex_unlock(&event_lock);
}

static LONG set_state(const char *who, PRKEVENT Event, LONG state, int wake)
{
    if (!usable(who, Event))
        return 0;
    pthread_once(&event_once, init_cond);
    pthread_mutex_lock(&event_lock);
    LONG old = Event->Header.SignalState;
    Event->Header.SignalState = state;
    if (wake)
        pthread_cond_broadcast(&event_cond);
    pthread_mutex_unlock(&event_lock);
    return old;
}

LONG KeSetEvent(PRKEVENT Event, KPRIORITY Increment, BOOLEAN Wait)
{
    KIRQL level = KeGetCurrentIrql();
    if (level > DISPATCH_LEVEL) {
        char irql[16];
        displib_report("KeSetEvent: called at %s: the caller must be at IRQL <= DISPATCH_LEVEL",
                       displib_irql_name(level, irql));
    }
    return set_state("KeSetEvent", Event, 1, 1);
}

LONG KeResetEvent(PRKEVENT Event)
{
    return set_state("KeResetEvent", Event, 0, 0);
}

VOID KeClearEvent(PRKEVENT Event)
{
    (void)set_state("KeClearEvent", Event, 0, 0);
}

LONG KeReadStateEvent(PRKEVENT Event)
{
    if (!usable("KeReadStateEvent", Event))
        return 0;
    pthread_mutex_lock(&event_lock);
    LONG state = Event->Header.SignalState;
    pthread_mutex_unlock(&event_lock);
    return state;
}

/* Under event_lock: takes the signal if there is one (a synchronization event's is consumed). */
static int take_locked(KEVENT *e)
{
    if (e->Header.SignalState <= 0)
        return 0;
    if (e->Header.Type == SynchronizationEvent)
        e->Header.SignalState = 0;
    return 1;
}

NTSTATUS KeWaitForSingleObject(PVOID Object, KWAIT_REASON WaitReason, KPROCESSOR_MODE WaitMode,
                               BOOLEAN Alertable, PLARGE_INTEGER Timeout)
{
    KEVENT *e = Object;
    if (!usable("KeWaitForSingleObject", e))
        return STATUS_INVALID_PARAMETER;
    int poll;
    LONGLONG deadline = displib_deadline(Timeout, &poll);
    KIRQL level = KeGetCurrentIrql();
    char irql[16];
    if (level > (poll ? DISPATCH_LEVEL : APC_LEVEL)) {
        displib_report("KeWaitForSingleObject: called at %s: a wait that may block is allowed at IRQL <= APC_LEVEL, "
                       "a zero timeout at <= DISPATCH_LEVEL: only looks at the event",
                       displib_irql_name(level, irql));
        poll = 1;
    }
    pthread_once(&event_once, init_cond);
    pthread_mutex_lock(&event_lock);
    int signalled = take_locked(e);
    struct timespec until = displib_timespec_from_100ns(deadline);
    while (!signalled && !poll) {
        int rc = deadline == INT64_MAX ? pthread_cond_wait(&event_cond, &event_lock)
                                       : pthread_cond_timedwait(&event_cond, &event_lock, &until);
        signalled = take_locked(e);
        poll = rc != 0; /* timed out: the look just made was the last */
    }
    pthread_mutex_unlock(&event_lock);
    return signalled ? STATUS_SUCCESS : STATUS_TIMEOUT;
}
