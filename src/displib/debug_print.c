/* DbgPrint, DbgPrintEx, vDbgPrintEx and RtlAssert (include/wddm/wdm.h): the kernel debugger's
 * output is stderr, with the prefix the rest of libwddm's debug output has ("wddm: <layer>: "). */
#include "displib/wdk_shim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Windows transmits at most 512 bytes of one call. */
#define MESSAGE_BYTES 512
#define PREFIX "wddm: kmd: "

/* Whether this thread's last output ended a line: the next one starts with the prefix. A
 * driver may build a line over several calls; lines of different threads are not joined. */
static _Thread_local int mid_line;

/* WDDM_DEBUG read at every call (not cached), so a driver's test can switch it; as in
 * src/common/debug.c, set and not "0" means on. */
static int verbose(void)
{
    const char *e = getenv("WDDM_DEBUG");
    return e && *e && strcmp(e, "0") != 0;
}

/* Every component's filter mask: DPFLTR_ERROR_LEVEL's bit (Windows' default, the WIN2000 mask),
 * everything with WDDM_DEBUG=1. */
static int passes_filter(ULONG level)
{
    ULONG importance = level < 32 ? 1u << level : level;
    ULONG mask = verbose() ? 0xFFFFFFFFu : 1u << DPFLTR_ERROR_LEVEL;
    return (importance & mask) != 0;
}

static void emit(const char *text)
{
    flockfile(stderr);
    while (*text) {
        if (!mid_line)
            fputs(PREFIX, stderr);
        const char *nl = strchr(text, '\n');
        size_t n = nl ? (size_t)(nl - text) + 1 : strlen(text);
        fwrite(text, 1, n, stderr);
        mid_line = !nl;
        text += n;
    }
    funlockfile(stderr);
}

ULONG vDbgPrintEx(ULONG ComponentId, ULONG Level, PCSTR Format, va_list arglist)
{
    (void)ComponentId; /* every component has the same mask here */
    if (!Format || !passes_filter(Level))
        return STATUS_SUCCESS;
    char text[MESSAGE_BYTES + 1];
    vsnprintf(text, sizeof text, Format, arglist);
    emit(text);
    return STATUS_SUCCESS;
}

ULONG DbgPrintEx(ULONG ComponentId, ULONG Level, PCSTR Format, ...)
{
    va_list ap;
    va_start(ap, Format);
    ULONG r = vDbgPrintEx(ComponentId, Level, Format, ap);
    va_end(ap);
    return r;
}

ULONG DbgPrint(PCSTR Format, ...)
{
    va_list ap;
    va_start(ap, Format);
    ULONG r = vDbgPrintEx(DPFLTR_DEFAULT_ID, DPFLTR_INFO_LEVEL, Format, ap);
    va_end(ap);
    return r;
}

/* Every report, counted: wddm_wdk_reports. */
static SIZE_T reports;

SIZE_T wddm_wdk_reports(VOID)
{
    return __atomic_load_n(&reports, __ATOMIC_ACQUIRE);
}

void displib_report(const char *fmt, ...)
{
    char text[MESSAGE_BYTES + 1];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(text, sizeof text - 1, fmt, ap);
    va_end(ap);
    size_t len = n < 0 ? 0 : (size_t)n < sizeof text - 1 ? (size_t)n : sizeof text - 2;
    text[len] = '\n';
    text[len + 1] = 0;
    /* A report is a line of its own even when the driver left one open. */
    if (mid_line)
        emit("\n");
    emit(text);
    /* Counted once written: who sees the count change finds the line on stderr. */
    __atomic_add_fetch(&reports, 1, __ATOMIC_RELEASE);
}

VOID RtlAssert(PVOID VoidFailedAssertion, PVOID VoidFileName, ULONG LineNumber, PSTR MutableMessage)
{
    displib_report("assertion failed: %s at %s:%u%s%s", VoidFailedAssertion ? (const char *)VoidFailedAssertion : "?",
                   VoidFileName ? (const char *)VoidFileName : "?", LineNumber, MutableMessage ? ": " : "",
                   MutableMessage ? MutableMessage : "");
}
