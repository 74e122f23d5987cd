/* The debug switch: see debug.h. */
#include "common/debug.h"

#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* -1 = not read from the environment yet. */
static atomic_int debug_state = -1;

int wddm_debug_enabled(void)
{
    int s = atomic_load_explicit(&debug_state, memory_order_relaxed);
    if (s < 0) {
        const char *e = getenv("WDDM_DEBUG");
        s = (e && *e && strcmp(e, "0") != 0) ? 1 : 0;
        atomic_store(&debug_state, s);
    }
    return s;
}

void wddm_debug_set(int enabled)
{
    atomic_store(&debug_state, enabled ? 1 : 0);
}

/* The debug layer's break (ID3D11InfoQueue::SetBreakOn*): Windows' runtime breaks into the
 * debugger; here that is SIGTRAP, which a debugger (gdb, lldb) stops at. Without a debugger
 * attached nothing happens - an unhandled SIGTRAP would kill the program, and breaking is a
 * debugging aid, never a change of behaviour. -1: ask the kernel whether we are traced. */
static atomic_int break_mode = -1;

void wddm_debug_set_break(int mode)
{
    atomic_store(&break_mode, mode < 0 ? -1 : mode ? 1 : 0);
}

int wddm_debugger_attached(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return 0;
    char line[128];
    int traced = 0;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "TracerPid:", 10) == 0) {
            traced = atoi(line + 10) != 0;
            break;
        }
    fclose(f);
    return traced;
}

void wddm_debug_break(void)
{
    int mode = atomic_load(&break_mode);
    if (mode == 1 || (mode < 0 && wddm_debugger_attached()))
        raise(SIGTRAP);
}

/* The last refusals of this thread, kept whether or not the switch is on, so that a caller (a
 * test, `wddm info`) can show why a call failed: a refusal below usually causes one above it
 * (the KMD names the bad line of a caps file, then the kernel says the start failed), so a
 * few are kept, oldest first. */
#define REFUSALS 4
static _Thread_local char refusals[REFUSALS][448];
static _Thread_local unsigned refusal_count;

static const char *note(const char *layer, const char *text)
{
    char *slot = refusals[refusal_count++ % REFUSALS];
    snprintf(slot, sizeof refusals[0], "%s: %s", layer, text);
    return slot;
}

void wddm_debug_note(const char *layer, const char *text)
{
    (void)note(layer, text);
}

void wddm_debug(const char *layer, const char *fmt, ...)
{
    char line[432];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    const char *slot = note(layer, line);
    if (wddm_debug_enabled())
        fprintf(stderr, "wddm: %s\n", slot);
}

size_t wddm_last_refusals(char *buf, size_t size)
{
    size_t used = 0;
    if (buf && size)
        buf[0] = 0;
    unsigned first = refusal_count > REFUSALS ? refusal_count - REFUSALS : 0;
    /* A buffer too small for all of them loses the oldest whole lines first: the newest refusal
     * is the one a caller is asking about. */
    size_t all = 0;
    for (unsigned i = first; i < refusal_count; i++)
        all += strlen(refusals[i % REFUSALS]) + (i > first);
    while (buf && all >= size && first + 1 < refusal_count) {
        all -= strlen(refusals[first % REFUSALS]) + 1;
        first++;
    }
    for (unsigned i = first; i < refusal_count; i++) {
        const char *r = refusals[i % REFUSALS];
        if (buf && used < size)
            snprintf(buf + used, size - used, "%s%s", used ? "\n" : "", r);
        used += strlen(r) + (i > first);
    }
    return used;
}

void wddm_clear_refusals(void)
{
    refusal_count = 0;
}
