/* What the files of the WDK service shim (include/wddm/wdm.h; pool.c, irql.c, spinlock.c, dpc.c,
 * event.c, time.c, debug_print.c) share. Not installed: drivers see wdm.h only. These names are
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

/* A clock (CLOCK_MONOTONIC, CLOCK_REALTIME) in 100 ns units, and the same as a timespec. */
LONGLONG displib_clock_100ns(clockid_t clock);
struct timespec displib_timespec_from_100ns(LONGLONG t);
/* 100 ns units between 1601-01-01 (the system time's start) and 1970-01-01 (CLOCK_REALTIME's). */
#define DISPLIB_EPOCH_1601_TO_1970 116444736000000000ll

/* A wait's or delay's Timeout as an absolute CLOCK_MONOTONIC time in 100 ns units: *poll is set
 * for a zero or already passed timeout; NULL gives INT64_MAX (no limit). */
LONGLONG displib_deadline(const LARGE_INTEGER *timeout, int *poll);

#endif
