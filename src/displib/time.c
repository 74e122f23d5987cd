/* Time (include/wddm/wdm.h): the performance counter, interrupt and system time over the C
 * library's clocks, the stall and the delay; and the timeout arithmetic waits share. */
#include "displib/wdk_shim.h"

#include <errno.h>
#include <stdint.h>

#define PERFORMANCE_FREQUENCY 10000000ll /* 100 ns ticks, as Windows reports on current hardware */

LONGLONG displib_clock_100ns(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (LONGLONG)ts.tv_sec * 10000000ll + ts.tv_nsec / 100;
}

struct timespec displib_timespec_from_100ns(LONGLONG t)
{
    return (struct timespec){.tv_sec = (time_t)(t / 10000000ll), .tv_nsec = (long)(t % 10000000ll) * 100};
}

LONGLONG displib_deadline(const LARGE_INTEGER *timeout, int *poll)
{
    *poll = 0;
    if (!timeout)
        return INT64_MAX;
    LONGLONG now = displib_clock_100ns(CLOCK_MONOTONIC), t = timeout->QuadPart, interval;
    if (t == 0) {
        *poll = 1;
        return now;
    }
    if (t < 0)
        interval = t == INT64_MIN ? INT64_MAX : -t;
    else /* an absolute system time: what is left of it now */
        interval = t - (displib_clock_100ns(CLOCK_REALTIME) + DISPLIB_EPOCH_1601_TO_1970);
    if (interval <= 0) {
        *poll = 1;
        return now;
    }
    return interval > INT64_MAX - now ? INT64_MAX : now + interval;
}

LARGE_INTEGER KeQueryPerformanceCounter(PLARGE_INTEGER PerformanceFrequency)
{
    if (PerformanceFrequency)
        PerformanceFrequency->QuadPart = PERFORMANCE_FREQUENCY;
    LARGE_INTEGER now;
    now.QuadPart = displib_clock_100ns(CLOCK_MONOTONIC);
    return now;
}

ULONGLONG KeQueryInterruptTime(VOID)
{
    return (ULONGLONG)displib_clock_100ns(CLOCK_MONOTONIC);
}

VOID KeQuerySystemTimePrecise(PLARGE_INTEGER CurrentTime)
{
    CurrentTime->QuadPart = displib_clock_100ns(CLOCK_REALTIME) + DISPLIB_EPOCH_1601_TO_1970;
}

VOID KeQuerySystemTime(PLARGE_INTEGER CurrentTime)
{
    KeQuerySystemTimePrecise(CurrentTime);
}

VOID KeStallExecutionProcessor(ULONG MicroSeconds)
{
    LONGLONG end = displib_clock_100ns(CLOCK_MONOTONIC) + (LONGLONG)MicroSeconds * 10;
    while (displib_clock_100ns(CLOCK_MONOTONIC) < end)
        ;
}

NTSTATUS KeDelayExecutionThread(KPROCESSOR_MODE WaitMode, BOOLEAN Alertable, PLARGE_INTEGER Interval)
{
    KIRQL level = KeGetCurrentIrql();
    if (level > APC_LEVEL) {
        char irql[16];
        displib_report("KeDelayExecutionThread: called at %s: a thread may only sleep at IRQL <= APC_LEVEL: "
                       "returns without sleeping",
                       displib_irql_name(level, irql));
        return STATUS_SUCCESS;
    }
    int poll;
    if (!Interval) {
        displib_report("KeDelayExecutionThread: Interval is NULL: returns without sleeping");
        return STATUS_SUCCESS;
    }
    LONGLONG deadline = displib_deadline(Interval, &poll);
    if (poll)
        return STATUS_SUCCESS;
    struct timespec until = displib_timespec_from_100ns(deadline);
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) == EINTR)
        ;
    return STATUS_SUCCESS;
}
