/* The debug switch: see debug.h. */
#include "common/debug.h"

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

void wddm_debug(const char *layer, const char *fmt, ...)
{
    if (!wddm_debug_enabled())
        return;
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "wddm: %s: %s\n", layer, line);
}
