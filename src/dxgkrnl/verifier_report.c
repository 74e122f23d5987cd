/* The verifier's reports (issue 19 §3, docs/drivers.md "The verifier"), as Driver Verifier's:
 * every check of verifier.c has an id, names the DDI whose answer it read and the field and rule
 * it broke; each violation is counted by rule and driver. WDDM_VERIFIER chooses what else
 * happens:
 *   unset or 0  the refusal line only (printed with WDDM_DEBUG=1), as every refusal
 *   1           every violation printed to stderr, and a summary at exit
 *   break       the same, and the first violation stops the process with a backtrace
 *               (SIGTRAP under a debugger, else abort(), where Windows would bug-check)
 * A limit is a check of what this kernel does not implement yet (an IoMmu adapter, 4-level
 * page tables): reported the same way, counted apart, never a break. */
#include "dxgkrnl/dxgkrnl.h"

#include <execinfo.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum verifier_mode { MODE_QUIET, MODE_REPORT, MODE_BREAK };

#define VERIFIER_ROWS 128 /* distinct (rule, driver) pairs counted; later ones go to `dropped` */

static struct {
    pthread_mutex_t lock;
    bool started;              /* mode read, atexit registered; protected by lock */
    enum verifier_mode mode;   /* protected by lock */
    struct row {
        const char *id;        /* a string literal of verifier.c */
        bool limit;
        char driver[160];
        UINT64 count;
    } rows[VERIFIER_ROWS];
    UINT nrows;                /* protected by lock */
    UINT64 dropped;            /* protected by lock */
} verifier = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void summary_at_exit(void)
{
    char text[8192];
    wddm_verifier_summary(text, sizeof text);
    fputs(text, stderr);
}

/* WDDM_VERIFIER, read once. Caller holds verifier.lock. */
static enum verifier_mode mode_locked(void)
{
    WDDM_ASSERT_HELD(&verifier.lock);
    if (verifier.started)
        return verifier.mode;
    verifier.started = true;
    const char *v = getenv("WDDM_VERIFIER");
    if (!v || !*v || strcmp(v, "0") == 0)
        verifier.mode = MODE_QUIET;
    else if (strcmp(v, "break") == 0)
        verifier.mode = MODE_BREAK;
    else {
        if (strcmp(v, "1") != 0)
            fprintf(stderr, "wddm: verifier: WDDM_VERIFIER=\"%.40s\" is not 0, 1 or break: reporting as 1\n", v);
        verifier.mode = MODE_REPORT;
    }
    if (verifier.mode != MODE_QUIET)
        atexit(summary_at_exit);
    return verifier.mode;
}

static void count_locked(const char *id, bool limit, const char *driver)
{
    WDDM_ASSERT_HELD(&verifier.lock);
    for (UINT i = 0; i < verifier.nrows; i++) {
        struct row *r = &verifier.rows[i];
        if (strcmp(r->id, id) == 0 && strcmp(r->driver, driver) == 0) {
            r->count++;
            return;
        }
    }
    if (verifier.nrows == VERIFIER_ROWS) {
        verifier.dropped++;
        return;
    }
    struct row *r = &verifier.rows[verifier.nrows++];
    r->id = id;
    r->limit = limit;
    snprintf(r->driver, sizeof r->driver, "%s", driver);
    r->count = 1;
}

void dxgk_verifier_start(void)
{
    pthread_mutex_lock(&verifier.lock);
    mode_locked();
    pthread_mutex_unlock(&verifier.lock);
}

const char *dxgk_adapter_driver_name(const struct dxgk_adapter *a)
{
    if (!a)
        return "a KMD"; /* a report from a callback, which does not say its adapter */
    return a->kmd_name ? a->kmd_name : "the built-in reference KMD";
}

void dxgk_verifier_report(const struct dxgk_adapter *a, const char *ddi, const char *id, bool limit,
                          const char *fmt, ...)
{
    char what[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    const char *driver = dxgk_adapter_driver_name(a);
    char line[1200];
    snprintf(line, sizeof line, "verifier %s%s: %s: %s", id, limit ? " (not supported by this kernel)" : "", ddi,
             what);
    dxgk_refuse("%s", line);
    pthread_mutex_lock(&verifier.lock);
    enum verifier_mode mode = mode_locked();
    count_locked(id, limit, driver);
    pthread_mutex_unlock(&verifier.lock);
    if (mode == MODE_QUIET)
        return;
    if (!wddm_debug_enabled()) /* else dxgk_refuse printed it */
        fprintf(stderr, "wddm: dxgkrnl: %s\n", line);
    if (mode == MODE_BREAK && !limit) {
        fprintf(stderr, "wddm: verifier: WDDM_VERIFIER=break: stopping at the first violation (%s, %s); "
                        "backtrace:\n", id, driver);
        void *frames[48];
        int n = backtrace(frames, 48);
        backtrace_symbols_fd(frames, n, STDERR_FILENO);
        if (wddm_debugger_attached())
            raise(SIGTRAP);
        else
            abort();
    }
}

size_t wddm_verifier_summary(char *buf, size_t size)
{
    if (!buf || !size)
        return 0;
    size_t len = 0;
#define PUT(...)                                                                  \
    do {                                                                          \
        int n_ = snprintf(buf + len, size - len, __VA_ARGS__);                    \
        len = n_ < 0 ? len : (size_t)n_ >= size - len ? size - 1 : len + (size_t)n_; \
    } while (0)
    pthread_mutex_lock(&verifier.lock);
    UINT64 violations = 0, limits = 0;
    for (UINT i = 0; i < verifier.nrows; i++)
        *(verifier.rows[i].limit ? &limits : &violations) += verifier.rows[i].count;
    PUT("wddm verifier: %llu violation%s, %llu unsupported feature%s\n", (unsigned long long)violations,
        violations == 1 ? "" : "s", (unsigned long long)limits, limits == 1 ? "" : "s");
    for (UINT i = 0; i < verifier.nrows; i++) {
        const struct row *r = &verifier.rows[i];
        PUT("  %-40s %6llu  %s%s\n", r->id, (unsigned long long)r->count, r->driver, r->limit ? " (unsupported)" : "");
    }
    if (verifier.dropped)
        PUT("  (%llu more in rule/driver pairs past the first %u)\n", (unsigned long long)verifier.dropped,
            VERIFIER_ROWS);
    pthread_mutex_unlock(&verifier.lock);
#undef PUT
    return len;
}

UINT64 wddm_verifier_violations(const char *rule)
{
    UINT64 n = 0;
    pthread_mutex_lock(&verifier.lock);
    for (UINT i = 0; i < verifier.nrows; i++)
        if (rule ? strcmp(verifier.rows[i].id, rule) == 0 : !verifier.rows[i].limit)
            n += verifier.rows[i].count;
    pthread_mutex_unlock(&verifier.lock);
    return n;
}
