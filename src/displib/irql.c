/* The IRQL (include/wddm/wdm.h): one per thread, what the driver raised to. Nothing is masked
 * by it here; the services read it to hold the driver to the rules Windows enforces with it.
 * And the thread's identity, which mutexes record as their owner. */
#include "displib/wdk_shim.h"

#include <stdio.h>

static _Thread_local KIRQL current = PASSIVE_LEVEL;
/* Its address is the thread's identity: unique among live threads, never 0. */
static _Thread_local char identity;

ULONG_PTR displib_thread_identity(void)
{
    return (ULONG_PTR)&identity;
}

PKTHREAD KeGetCurrentThread(VOID)
{
    return (PKTHREAD)&identity;
}

int displib_irql_at_most(const char *who, KIRQL most, const char *then)
{
    KIRQL level = KeGetCurrentIrql();
    if (level <= most)
        return 1;
    char a[16], b[16];
    displib_report("%s: called at %s: the caller must be at IRQL <= %s%s", who, displib_irql_name(level, a),
                   displib_irql_name(most, b), then);
    return 0;
}

const char *displib_irql_name(KIRQL irql, char buf[16])
{
    switch (irql) {
    case PASSIVE_LEVEL:
        return "PASSIVE_LEVEL";
    case APC_LEVEL:
        return "APC_LEVEL";
    case DISPATCH_LEVEL:
        return "DISPATCH_LEVEL";
    default:
        snprintf(buf, 16, "IRQL %u", (unsigned)irql);
        return buf;
    }
}

void displib_irql_set(KIRQL irql)
{
    current = irql;
}

KIRQL KeGetCurrentIrql(VOID)
{
    return current;
}

KIRQL KfRaiseIrql(KIRQL NewIrql)
{
    KIRQL old = current;
    char a[16], b[16];
    if (NewIrql > HIGH_LEVEL)
        displib_report("KeRaiseIrql: %s is above HIGH_LEVEL: the IRQL stays %s", displib_irql_name(NewIrql, a),
                       displib_irql_name(old, b));
    else if (NewIrql < old)
        displib_report("KeRaiseIrql: %s is below the current %s (IRQL_NOT_GREATER_OR_EQUAL on Windows): the IRQL stays",
                       displib_irql_name(NewIrql, a), displib_irql_name(old, b));
    else
        current = NewIrql;
    return old;
}

KIRQL KeRaiseIrqlToDpcLevel(VOID)
{
    return KfRaiseIrql(DISPATCH_LEVEL);
}

VOID KeLowerIrql(KIRQL NewIrql)
{
    char a[16], b[16];
    if (NewIrql > current)
        displib_report("KeLowerIrql: %s is above the current %s (IRQL_NOT_LESS_OR_EQUAL on Windows): the IRQL stays",
                       displib_irql_name(NewIrql, a), displib_irql_name(current, b));
    else
        current = NewIrql;
}
