/* Timers (include/wddm/wdm.h): dispatcher objects (wait.c) signalled when they expire, queuing
 * their KDPC if they have one (KeSetTimerEx reference). The set timers are in a table of this
 * file, not linked through the driver's KTIMER, so a KTIMER initialized again while set, or
 * never initialized, cannot break the queue. One timer thread, started by the first set and
 * detached like the DPC thread (it holds nothing at exit), sleeps until the next expiry. */
#include "displib/wdk_shim.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

struct armed {
    KTIMER *timer;
    LONGLONG due;    /* CLOCK_MONOTONIC, 100 ns units */
    LONGLONG period; /* 100 ns units, 0: once */
    KDPC *dpc;
};

static pthread_mutex_t timer_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t timer_changed; /* CLOCK_MONOTONIC: an earlier expiry may have been set */
static pthread_once_t timer_once = PTHREAD_ONCE_INIT;
static int timer_thread_started;
/* The set timers, unordered: a driver has a few. */
static struct armed *armed;
static size_t armed_count, armed_capacity;

static int usable(const char *who, const KTIMER *t)
{
    if (t && (t->Header.Type == DISPLIB_TIMER_NOTIFICATION_OBJECT ||
              t->Header.Type == DISPLIB_TIMER_SYNCHRONIZATION_OBJECT) &&
        t->Header.Size == DISPLIB_SIZE_IN_LONGS(KTIMER))
        return 1;
    displib_report("%s: %p is not a KTIMER initialized with KeInitializeTimer(Ex)", who, (const void *)t);
    return 0;
}

/* Under timer_lock: the timer's slot, or -1. */
static ptrdiff_t find_locked(const KTIMER *t)
{
    for (size_t i = 0; i < armed_count; i++)
        if (armed[i].timer == t)
            return (ptrdiff_t)i;
    return -1;
}

static void remove_locked(ptrdiff_t i)
{
    armed[i] = armed[--armed_count];
}

static void *timer_thread(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&timer_lock);
    for (;;) {
        ptrdiff_t next = -1;
        for (size_t i = 0; i < armed_count; i++)
            if (next < 0 || armed[i].due < armed[next].due)
                next = (ptrdiff_t)i;
        if (next < 0) {
            pthread_cond_wait(&timer_changed, &timer_lock);
            continue;
        }
        LONGLONG now = displib_clock_100ns(CLOCK_MONOTONIC);
        if (armed[next].due > now) {
            struct timespec until = displib_timespec_from_100ns(armed[next].due);
            pthread_cond_timedwait(&timer_changed, &timer_lock, &until);
            continue; /* look again: the table may have changed */
        }
        struct armed a = armed[next];
        if (a.period) {
            armed[next].due += a.period;
            if (armed[next].due <= now) /* fell behind: the next period from now */
                armed[next].due = now + a.period;
            a.timer->DueTime.QuadPart = (ULONGLONG)armed[next].due;
        } else {
            remove_locked(next);
        }
        displib_dispatcher_lock();
        a.timer->Header.SignalState = 1;
        displib_dispatcher_wake_locked();
        displib_dispatcher_unlock();
        /* Queued under timer_lock, so a KeCancelTimer that returned has no DPC still to come from
         * this expiry. The arguments are the system time's two halves, as Windows passes them. */
        if (a.dpc) {
            LARGE_INTEGER system_time;
            KeQuerySystemTime(&system_time);
            KeInsertQueueDpc(a.dpc, (PVOID)(ULONG_PTR)system_time.LowPart,
                             (PVOID)(ULONG_PTR)(ULONG)system_time.HighPart);
        }
    }
    return NULL;
}

static void start_timer_thread(void)
{
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&timer_changed, &ca);
    pthread_condattr_destroy(&ca);
    pthread_t t;
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    int started = pthread_create(&t, &a, timer_thread, NULL) == 0;
    pthread_attr_destroy(&a);
    pthread_mutex_lock(&timer_lock);
    timer_thread_started = started;
    pthread_mutex_unlock(&timer_lock);
    if (!started)
        displib_report("KeSetTimer: the timer thread could not be started: timers never expire");
}

VOID KeInitializeTimerEx(PKTIMER Timer, TIMER_TYPE Type)
{
    if (Type != NotificationTimer && Type != SynchronizationTimer) {
        displib_report("KeInitializeTimerEx: type %d is neither NotificationTimer nor SynchronizationTimer: "
                       "not initialized",
                       (int)Type);
        return;
    }
    pthread_mutex_lock(&timer_lock);
    ptrdiff_t i = find_locked(Timer);
    if (i >= 0)
        remove_locked(i);
    displib_dispatcher_lock();
    memset(Timer, 0, sizeof *Timer);
    Timer->Header.Type =
        (UCHAR)(Type == NotificationTimer ? DISPLIB_TIMER_NOTIFICATION_OBJECT : DISPLIB_TIMER_SYNCHRONIZATION_OBJECT);
    Timer->Header.Size = DISPLIB_SIZE_IN_LONGS(KTIMER);
    Timer->Header.WaitListHead.Flink = Timer->Header.WaitListHead.Blink = &Timer->Header.WaitListHead;
    Timer->TimerListEntry.Flink = Timer->TimerListEntry.Blink = &Timer->TimerListEntry;
    displib_dispatcher_unlock();
    pthread_mutex_unlock(&timer_lock);
    if (i >= 0)
        displib_report("KeInitializeTimer: timer %p is set: initialized while in the timer queue (which Windows "
                       "corrupts): cancelled first",
                       (void *)Timer);
}

VOID KeInitializeTimer(PKTIMER Timer)
{
    KeInitializeTimerEx(Timer, NotificationTimer);
}

BOOLEAN KeSetTimerEx(PKTIMER Timer, LARGE_INTEGER DueTime, LONG Period, PKDPC Dpc)
{
    if (!usable("KeSetTimer", Timer) || !displib_irql_at_most("KeSetTimer", DISPATCH_LEVEL, ": nothing done"))
        return FALSE;
    if (Period < 0) {
        displib_report("KeSetTimerEx: Period %d must be >= 0: not set", (int)Period);
        return FALSE;
    }
    pthread_once(&timer_once, start_timer_thread);
    int poll;
    LONGLONG due = displib_deadline(&DueTime, &poll); /* 0 or past: now, it expires at once */
    pthread_mutex_lock(&timer_lock);
    ptrdiff_t i = find_locked(Timer);
    BOOLEAN was_set = i >= 0;
    if (!was_set && armed_count == armed_capacity) {
        size_t capacity = armed_capacity ? armed_capacity * 2 : 16;
        struct armed *fresh = realloc(armed, capacity * sizeof *fresh);
        if (!fresh) {
            pthread_mutex_unlock(&timer_lock);
            displib_report("KeSetTimer: out of memory: timer %p not set", (void *)Timer);
            return FALSE;
        }
        armed = fresh;
        armed_capacity = capacity;
    }
    if (!was_set)
        i = (ptrdiff_t)armed_count++;
    armed[i] = (struct armed){Timer, due, (LONGLONG)Period * 10000, Dpc};
    displib_dispatcher_lock();
    Timer->Header.SignalState = 0;
    Timer->DueTime.QuadPart = (ULONGLONG)due;
    Timer->Period = Period;
    Timer->Dpc = Dpc;
    displib_dispatcher_unlock();
    pthread_cond_signal(&timer_changed);
    pthread_mutex_unlock(&timer_lock);
    return was_set;
}

BOOLEAN KeSetTimer(PKTIMER Timer, LARGE_INTEGER DueTime, PKDPC Dpc)
{
    return KeSetTimerEx(Timer, DueTime, 0, Dpc);
}

BOOLEAN KeCancelTimer(PKTIMER Timer)
{
    if (!usable("KeCancelTimer", Timer) || !displib_irql_at_most("KeCancelTimer", DISPATCH_LEVEL, ": nothing done"))
        return FALSE;
    pthread_mutex_lock(&timer_lock);
    ptrdiff_t i = find_locked(Timer);
    if (i >= 0)
        remove_locked(i);
    if (timer_thread_started)
        pthread_cond_signal(&timer_changed);
    pthread_mutex_unlock(&timer_lock);
    return i >= 0;
}

BOOLEAN KeReadStateTimer(PKTIMER Timer)
{
    if (!usable("KeReadStateTimer", Timer))
        return FALSE;
    displib_dispatcher_lock();
    BOOLEAN state = Timer->Header.SignalState > 0;
    displib_dispatcher_unlock();
    return state;
}
