/* An absolute deadline for pthread_cond_timedwait: now on `clock` plus sec seconds and nsec
 * nanoseconds (nsec < 1e9). One place for the carry, used by every timed wait of the library
 * (Win32 events, keyed mutexes, CPU waits on synchronization objects). */
#ifndef WDDM_COMMON_DEADLINE_H
#define WDDM_COMMON_DEADLINE_H

#include <stdint.h>
#include <time.h>

static inline struct timespec wddm_deadline_after(clockid_t clock, uint64_t sec, long nsec)
{
    struct timespec t;
    clock_gettime(clock, &t);
    t.tv_sec += (time_t)sec;
    t.tv_nsec += nsec;
    if (t.tv_nsec >= 1000000000L) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000L;
    }
    return t;
}

static inline struct timespec wddm_deadline_after_ms(clockid_t clock, unsigned ms)
{
    return wddm_deadline_after(clock, ms / 1000u, (long)(ms % 1000u) * 1000000L);
}

#endif
