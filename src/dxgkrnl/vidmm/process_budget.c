/* The process's video memory budget and its notifications (issue 20 §4; docs/semantics.md §9.3).
 *
 * On Windows the budget of a process in a segment group is what VidMm lets it keep resident
 * there: it shrinks when other processes need the memory and grows again when they let it go;
 * the process learns it through D3DKMTQueryVideoMemoryInfo (IDXGIAdapter3::QueryVideoMemoryInfo),
 * through budget-change notifications (D3DKMTRegisterBudgetChangeNotification; DXGI's
 * RegisterVideoMemoryBudgetChangeNotificationEvent), and, when its use is above a lowered
 * budget, through trim notifications (D3DKMTRegisterTrimNotification: TrimToBudget with the
 * bytes to give up). Here the process is alone on its adapters, so the other processes are a
 * test control, wddm_vidmm_set_external_usage: the budget is the group's size (its segments'
 * limits) less their use, never below the process's own reservation (vidmm/reservation.c).
 *
 * Choices: the budget is advice, as on Windows (a process over budget is asked to trim; VidMm
 * does not fail its placements for it); notifications are delivered on the thread whose change
 * caused them, before that call returns, each callback outside every kernel lock; an
 * unregistration waits for a callback of that registration still running on another thread,
 * so that once it returned the callback is never called again (from inside the callback it
 * returns at once, and the registration goes when the callback returns). */
#include "dxgkrnl/vidmm/vidmm.h"
#include "common/alloc.h"

#include <stdlib.h>

static UINT group_index(D3DKMT_MEMORY_SEGMENT_GROUP g)
{
    return g == D3DKMT_MEMORY_SEGMENT_GROUP_NON_LOCAL ? 1 : 0;
}

static UINT64 group_size_locked(const struct dxgk_adapter *a, D3DKMT_MEMORY_SEGMENT_GROUP g)
{
    WDDM_ASSERT_HELD(&a->lock);
    bool non_local = group_index(g) == 1;
    UINT64 size = 0;
    for (UINT s = 0; s < a->segment_count; s++)
        if (a->seg[s].aperture == non_local)
            size += a->seg[s].limit;
    return size;
}

UINT64 vidmm_group_budget_locked(const struct dxgk_adapter *a, D3DKMT_MEMORY_SEGMENT_GROUP g)
{
    WDDM_ASSERT_HELD(&a->lock);
    UINT64 size = group_size_locked(a, g), ext = a->external[group_index(g)];
    UINT64 budget = size > ext ? size - ext : 0;
    UINT64 reserved = a->reservation[group_index(g)];
    return budget < reserved ? reserved : budget;
}

UINT64 vidmm_group_usage_locked(const struct dxgk_adapter *a, D3DKMT_MEMORY_SEGMENT_GROUP g)
{
    WDDM_ASSERT_HELD(&a->lock);
    bool non_local = group_index(g) == 1;
    UINT64 usage = 0;
    for (UINT s = 0; s < a->segment_count; s++)
        if (a->seg[s].aperture == non_local)
            usage += a->seg[s].bytes_used;
    return usage;
}

/* ---- registrations --------------------------------------------------------------------------- */

struct notification {
    struct notification *next;        /* notify.list; notify.lock */
    bool trim;                        /* a trim registration, else a budget-change one; immutable */
    D3DKMT_HANDLE device;             /* immutable */
    LUID adapter;                     /* the device's adapter; immutable */
    PFND3DKMT_BUDGETCHANGENOTIFICATIONCALLBACK budget_cb; /* immutable */
    PFND3DKMT_TRIMNOTIFICATIONCALLBACK trim_cb;           /* immutable */
    void *context;                    /* immutable */
    UINT in_flight;                   /* callbacks running now; notify.lock */
    bool gone;                        /* unregistered while running: the last caller frees it */
};

static struct {
    pthread_mutex_t lock;             /* a leaf, never held while a callback runs */
    pthread_cond_t idle;              /* broadcast when a callback returned */
    struct notification *list;
} notify = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL };

static _Thread_local unsigned delivering; /* callbacks running on this thread */

static bool same_luid(LUID a, LUID b)
{
    return a.LowPart == b.LowPart && a.HighPart == b.HighPart;
}

/* Calls every registration of that kind on that adapter, outside the lock. */
static void deliver(LUID adapter, bool trim, UINT64 value)
{
    pthread_mutex_lock(&notify.lock);
    size_t n = 0;
    for (struct notification *r = notify.list; r; r = r->next)
        n += r->trim == trim && same_luid(r->adapter, adapter);
    struct notification **calls = n ? wddm_calloc(n, sizeof *calls) : NULL;
    size_t k = 0;
    for (struct notification *r = notify.list; r && calls; r = r->next)
        if (r->trim == trim && same_luid(r->adapter, adapter)) {
            r->in_flight++;
            calls[k++] = r;
        }
    pthread_mutex_unlock(&notify.lock);
    if (n && !calls)
        dxgk_refuse("vidmm: out of memory: %zu %s notifications of adapter %08x not delivered", n,
                    trim ? "trim" : "budget-change", (unsigned)adapter.LowPart);
    delivering++;
    for (size_t i = 0; i < k; i++) {
        if (trim) {
            D3DKMT_TRIMNOTIFICATION t = { .Context = calls[i]->context, .NumBytesToTrim = value };
            t.Flags.TrimToBudget = 1;
            calls[i]->trim_cb(&t);
        } else {
            D3DKMT_BUDGETCHANGENOTIFICATION b = { .Context = calls[i]->context, .Budget = value };
            calls[i]->budget_cb(&b);
        }
    }
    delivering--;
    pthread_mutex_lock(&notify.lock);
    for (size_t i = 0; i < k; i++)
        if (--calls[i]->in_flight == 0 && calls[i]->gone)
            free(calls[i]);
    pthread_cond_broadcast(&notify.idle);
    pthread_mutex_unlock(&notify.lock);
    free(calls);
}

/* Takes r off the list (notify.lock held) and frees it once no callback of it runs elsewhere. */
static void unregister_locked(struct notification *r)
{
    WDDM_ASSERT_HELD(&notify.lock);
    struct notification **pp = &notify.list;
    while (*pp != r)
        pp = &(*pp)->next;
    *pp = r->next;
    /* A callback running on this very thread cannot be waited for (it is our caller). */
    while (r->in_flight && !delivering)
        pthread_cond_wait(&notify.idle, &notify.lock);
    if (r->in_flight)
        r->gone = true;
    else
        free(r);
}

static NTSTATUS register_one(const char *fn, struct notification *proto, void **handle)
{
    struct dxgk_device *d = dxgk_device_get(proto->device);
    if (!d) {
        dxgk_refuse("%s: invalid device handle 0x%08x", fn, proto->device);
        return STATUS_INVALID_PARAMETER;
    }
    LUID luid = d->adapter->luid;
    dxgk_device_put(d);
    if (proto->trim && !same_luid(luid, proto->adapter)) {
        dxgk_refuse("%s: device 0x%08x is not a device of adapter %08x:%08x", fn, proto->device,
                    (unsigned)proto->adapter.HighPart, (unsigned)proto->adapter.LowPart);
        return STATUS_INVALID_PARAMETER;
    }
    struct notification *r = wddm_malloc(sizeof *r);
    if (!r)
        return STATUS_NO_MEMORY;
    *r = *proto;
    r->adapter = luid;
    pthread_mutex_lock(&notify.lock);
    r->next = notify.list;
    notify.list = r;
    pthread_mutex_unlock(&notify.lock);
    *handle = r;
    return STATUS_SUCCESS;
}

/* Unregisters the registration `handle` names, if it is one of that kind (never dereferences
 * a pointer that is not on the list). */
static NTSTATUS unregister_one(const char *fn, void *handle, bool trim)
{
    pthread_mutex_lock(&notify.lock);
    struct notification *r = notify.list;
    while (r && (r != handle || r->trim != trim))
        r = r->next;
    if (r)
        unregister_locked(r);
    pthread_mutex_unlock(&notify.lock);
    if (!r) {
        dxgk_refuse("%s: %p is not a registration handle (or it was unregistered)", fn, handle);
        return STATUS_INVALID_PARAMETER;
    }
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY D3DKMTRegisterBudgetChangeNotification(D3DKMT_REGISTERBUDGETCHANGENOTIFICATION *args)
{
    static const char fn[] = "D3DKMTRegisterBudgetChangeNotification";
    if (!args || !args->Callback) {
        dxgk_refuse("%s: NULL arguments or Callback", fn);
        return STATUS_INVALID_PARAMETER;
    }
    struct notification proto = { .device = args->hDevice, .budget_cb = args->Callback, .context = args->Context };
    return register_one(fn, &proto, &args->Handle);
}

NTSTATUS APIENTRY D3DKMTUnregisterBudgetChangeNotification(const D3DKMT_UNREGISTERBUDGETCHANGENOTIFICATION *args)
{
    if (!args) {
        dxgk_refuse("D3DKMTUnregisterBudgetChangeNotification: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    return unregister_one("D3DKMTUnregisterBudgetChangeNotification", args->Handle, false);
}

NTSTATUS APIENTRY D3DKMTRegisterTrimNotification(D3DKMT_REGISTERTRIMNOTIFICATION *args)
{
    static const char fn[] = "D3DKMTRegisterTrimNotification";
    if (!args || !args->Callback) {
        dxgk_refuse("%s: NULL arguments or Callback", fn);
        return STATUS_INVALID_PARAMETER;
    }
    struct notification proto = { .trim = true, .device = args->hDevice, .adapter = args->AdapterLuid,
                                  .trim_cb = args->Callback, .context = args->Context };
    return register_one(fn, &proto, &args->Handle);
}

NTSTATUS APIENTRY D3DKMTUnregisterTrimNotification(const D3DKMT_UNREGISTERTRIMNOTIFICATION *args)
{
    if (!args) {
        dxgk_refuse("D3DKMTUnregisterTrimNotification: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    return unregister_one("D3DKMTUnregisterTrimNotification", args->Handle, true);
}

void vidmm_notifications_drop_device(D3DKMT_HANDLE device)
{
    pthread_mutex_lock(&notify.lock);
    for (;;) {
        struct notification *r = notify.list;
        while (r && r->device != device)
            r = r->next;
        if (!r)
            break;
        unregister_locked(r); /* may wait, and the list may change meanwhile: look again */
    }
    pthread_mutex_unlock(&notify.lock);
}

/* ---- the other processes (test control) ------------------------------------------------------- */

NTSTATUS wddm_vidmm_set_external_usage(UINT hAdapter, UINT group, UINT64 bytes)
{
    static const char fn[] = "wddm_vidmm_set_external_usage";
    if (group != D3DKMT_MEMORY_SEGMENT_GROUP_LOCAL && group != D3DKMT_MEMORY_SEGMENT_GROUP_NON_LOCAL) {
        dxgk_refuse("%s: group %u is neither LOCAL nor NON_LOCAL", fn, group);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_adapter *a = dxgk_adapter_get(hAdapter);
    if (!a) {
        dxgk_refuse("%s: invalid adapter handle 0x%08x", fn, hAdapter);
        return STATUS_INVALID_PARAMETER;
    }
    D3DKMT_MEMORY_SEGMENT_GROUP g = (D3DKMT_MEMORY_SEGMENT_GROUP)group;
    pthread_mutex_lock(&a->lock);
    UINT64 size = group_size_locked(a, g);
    bool ok = bytes <= size;
    UINT64 before = vidmm_group_budget_locked(a, g), after = before, usage = 0;
    if (ok) {
        a->external[group_index(g)] = bytes;
        after = vidmm_group_budget_locked(a, g);
        usage = vidmm_group_usage_locked(a, g);
    }
    pthread_mutex_unlock(&a->lock);
    LUID luid = a->luid;
    dxgk_adapter_put(a);
    if (!ok) {
        dxgk_refuse("%s: %llu bytes is more than the group's %llu", fn, (unsigned long long)bytes,
                    (unsigned long long)size);
        return STATUS_INVALID_PARAMETER;
    }
    if (after != before)
        deliver(luid, false, after);
    if (after < before && usage > after)
        deliver(luid, true, usage - after);
    return STATUS_SUCCESS;
}
