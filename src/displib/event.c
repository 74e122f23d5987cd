/* Events (include/wddm/wdm.h): dispatcher objects (wait.c) a driver sets and resets; a
 * notification event satisfies every wait until reset, a synchronization event one wait. */
#include "displib/wdk_shim.h"

static int usable(const char *who, const KEVENT *e)
{
    if (e && e->Header.Size == DISPLIB_SIZE_IN_LONGS(KEVENT) && e->Header.Type <= SynchronizationEvent)
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
    displib_dispatcher_lock();
    memset(Event, 0, sizeof *Event);
    /* EVENT_TYPE's values are the WDK's object types of the two events. */
    Event->Header.Type = (UCHAR)Type;
    Event->Header.Size = DISPLIB_SIZE_IN_LONGS(KEVENT);
    Event->Header.SignalState = State ? 1 : 0;
    Event->Header.WaitListHead.Flink = Event->Header.WaitListHead.Blink = &Event->Header.WaitListHead;
    displib_dispatcher_unlock();
}

static LONG set_state(const char *who, PRKEVENT Event, LONG state, int wake)
{
    if (!usable(who, Event))
        return 0;
    displib_dispatcher_lock();
    LONG old = Event->Header.SignalState;
    Event->Header.SignalState = state;
    if (wake)
        displib_dispatcher_wake_locked();
    displib_dispatcher_unlock();
    return old;
}

LONG KeSetEvent(PRKEVENT Event, KPRIORITY Increment, BOOLEAN Wait)
{
    (void)displib_irql_at_most("KeSetEvent", DISPATCH_LEVEL, "");
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
    displib_dispatcher_lock();
    LONG state = Event->Header.SignalState;
    displib_dispatcher_unlock();
    return state;
}
