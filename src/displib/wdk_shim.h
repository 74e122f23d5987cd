/* What the files of the WDK service shim (include/wddm/wdm.h; pool.c, irql.c, spinlock.c, dpc.c,
 * wait.c, event.c, mutex.c, fast_mutex.c, timer.c, work_item.c, lookaside.c, unicode_string.c,
 * mdl.c, time.c, debug_print.c) share. Not installed: drivers see wdm.h only. These names are
 * global in libwddm_displib.a, so they take a prefix no other archive a KMD links uses. */
#ifndef WDDM_DISPLIB_WDK_SHIM_H
#define WDDM_DISPLIB_WDK_SHIM_H

#include <time.h>

#include <wddm/wdm.h>

/* A driver's misuse of a service, where Windows would bug-check or its verifier would stop: one
 * line on stderr, always (an error, like DbgPrintEx at DPFLTR_ERROR_LEVEL), naming the service
 * and the rule; the caller then refuses or goes on as its page in wdm.h says, never crashes. */
void displib_report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The calling thread's IRQL set outright: the DPC thread enters and leaves DISPATCH_LEVEL. */
void displib_irql_set(KIRQL irql);
/* "PASSIVE_LEVEL", "APC_LEVEL", "DISPATCH_LEVEL", else "IRQL <n>" in buf. */
const char *displib_irql_name(KIRQL irql, char buf[16]);
/* A service's IRQL precondition: TRUE when the caller's IRQL is at most `most`; otherwise one
 * report "who: called at X: the caller must be at IRQL <= most<then>" and FALSE. */
int displib_irql_at_most(const char *who, KIRQL most, const char *then);

/* A clock (CLOCK_MONOTONIC, CLOCK_REALTIME) in 100 ns units, and the same as a timespec. */
LONGLONG displib_clock_100ns(clockid_t clock);
struct timespec displib_timespec_from_100ns(LONGLONG t);
/* 100 ns units between 1601-01-01 (the system time's start) and 1970-01-01 (CLOCK_REALTIME's). */
#define DISPLIB_EPOCH_1601_TO_1970 116444736000000000ll

/* A wait's or delay's Timeout as an absolute CLOCK_MONOTONIC time in 100 ns units: *poll is set
 * for a zero or already passed timeout; NULL gives INT64_MAX (no limit). */
LONGLONG displib_deadline(const LARGE_INTEGER *timeout, int *poll);

/* The calling thread's identity: unique among live threads, never 0 (a KMUTEX's or FAST_MUTEX's
 * owner, KeGetCurrentThread). */
ULONG_PTR displib_thread_identity(void);

/* The pool (pool.c) for the shim's own objects (MDLs, work items, strings it allocates): `who`
 * names the service in a report. A block's tag, if P is a live block (else 0: never the pool's,
 * or freed), so an object the shim handed out is recognized without reading it. */
void *displib_pool_allocate(const char *who, int paged, SIZE_T size, ULONG tag);
ULONG displib_pool_tag_of(const void *p);

/* The dispatcher objects (wait.c): every KEVENT, KMUTEX and KTIMER (driver storage with no call
 * to destroy it, so holding no resource of its own) changes state under one lock, and a change a
 * waiter may be waiting for wakes every waiter to look at its own object. */
void displib_dispatcher_lock(void);
void displib_dispatcher_unlock(void);
void displib_dispatcher_wake_locked(void);
/* The blocking part of an acquire outside KeWaitForSingleObject (a FAST_MUTEX): under the
 * dispatcher lock, waits for the next wake. */
void displib_dispatcher_wait_locked(void);

/* DISPATCHER_HEADER.Type of each object (the WDK's KOBJECTS values). */
#define DISPLIB_EVENT_NOTIFICATION_OBJECT 0
#define DISPLIB_EVENT_SYNCHRONIZATION_OBJECT 1
#define DISPLIB_MUTANT_OBJECT 2
#define DISPLIB_TIMER_NOTIFICATION_OBJECT 8
#define DISPLIB_TIMER_SYNCHRONIZATION_OBJECT 9
/* DISPATCHER_HEADER.Size: the object's size in LONGs, set by its initializer, so an object that
 * never went through it is seen. */
#define DISPLIB_SIZE_IN_LONGS(type) ((UCHAR)(sizeof(type) / sizeof(LONG)))

#endif
