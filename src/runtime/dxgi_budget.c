/*
 * dxgi_budget.c - IDXGIAdapter3::RegisterVideoMemoryBudgetChangeNotificationEvent /
 * UnregisterVideoMemoryBudgetChangeNotification (issue 15 §3): the event is set each time VidMm
 * changes the process's budget on the adapter (D3DKMTRegisterBudgetChangeNotification,
 * vidmm/process_budget.c); the application then asks QueryVideoMemoryInfo for the new values.
 *
 * The kernel notifies a device's registrations; a DXGI adapter has no device of its own, so the
 * first registration opens one kernel device on the adapter for them (closed with the adapter).
 * The runtime holds its own reference to each event: the application may close its handle
 * before it unregisters.
 */
#include "runtime/runtime.h"
#include "common/alloc.h"
#include "common/event.h"

#include <stdlib.h>

struct rt_budget_event {
    struct rt_budget_event *next;     /* adapter->budget_events; private_lock */
    DWORD cookie;
    struct wddm_event *event;         /* one reference */
    void *km_handle;                  /* the kernel registration */
};

static void APIENTRY budget_changed(D3DKMT_BUDGETCHANGENOTIFICATION *n)
{
    wddm_event_signal(((struct rt_budget_event *)n->Context)->event);
}

static void unregister_one(struct rt_budget_event *r)
{
    /* The kernel waits for a callback still running on another thread: afterwards r is ours. */
    D3DKMT_UNREGISTERBUDGETCHANGENOTIFICATION u = { .Handle = r->km_handle };
    (void)D3DKMTUnregisterBudgetChangeNotification(&u);
    wddm_event_put(r->event);
    free(r);
}

HRESULT rt_adapter_register_budget_event(struct rt_adapter *a, HANDLE event, DWORD *cookie)
{
    if (!cookie) {
        RT_REFUSE_DXGI(ADAPTER, "IDXGIAdapter3::RegisterVideoMemoryBudgetChangeNotificationEvent: pdwCookie is NULL");
        return E_INVALIDARG;
    }
    struct rt_budget_event *r = wddm_calloc(1, sizeof *r);
    if (!r)
        return E_OUTOFMEMORY;
    if (!(r->event = wddm_event_get(event))) {
        RT_REFUSE_DXGI(ADAPTER, "IDXGIAdapter3::RegisterVideoMemoryBudgetChangeNotificationEvent: %p is not an event handle",
                  event);
        free(r);
        return E_INVALIDARG;
    }
    pthread_mutex_lock(&a->private_lock);
    NTSTATUS st = STATUS_SUCCESS;
    if (!a->km_device) {
        D3DKMT_CREATEDEVICE cd = { .hAdapter = a->km_adapter };
        st = D3DKMTCreateDevice(&cd);
        a->km_device = NT_SUCCESS(st) ? cd.hDevice : 0;
    }
    D3DKMT_REGISTERBUDGETCHANGENOTIFICATION rb = { .hDevice = a->km_device, .Callback = budget_changed,
                                                   .Context = r };
    if (NT_SUCCESS(st))
        st = D3DKMTRegisterBudgetChangeNotification(&rb);
    if (NT_SUCCESS(st)) {
        r->km_handle = rb.Handle;
        r->cookie = ++a->next_budget_cookie;
        r->next = a->budget_events;
        a->budget_events = r;
        *cookie = r->cookie;
    }
    pthread_mutex_unlock(&a->private_lock);
    if (!NT_SUCCESS(st)) {
        RT_REFUSE_DXGI(ADAPTER, "IDXGIAdapter3::RegisterVideoMemoryBudgetChangeNotificationEvent: the kernel refused (0x%08x)",
                  (UINT)st);
        wddm_event_put(r->event);
        free(r);
        return st == STATUS_NO_MEMORY ? E_OUTOFMEMORY : E_FAIL;
    }
    return S_OK;
}

void rt_adapter_unregister_budget_event(struct rt_adapter *a, DWORD cookie)
{
    pthread_mutex_lock(&a->private_lock);
    struct rt_budget_event **pp = &a->budget_events, *r = NULL;
    while (*pp && (*pp)->cookie != cookie)
        pp = &(*pp)->next;
    if (*pp) {
        r = *pp;
        *pp = r->next;
    }
    pthread_mutex_unlock(&a->private_lock);
    if (r)
        unregister_one(r);
    else
        RT_REFUSE_DXGI(ADAPTER, "IDXGIAdapter3::UnregisterVideoMemoryBudgetChangeNotification: cookie %u is not registered",
                  (UINT)cookie);
}

void rt_adapter_budget_events_close(struct rt_adapter *a)
{
    while (a->budget_events) {
        struct rt_budget_event *r = a->budget_events;
        a->budget_events = r->next;
        unregister_one(r);
    }
    if (a->km_device) {
        D3DKMT_DESTROYDEVICE dd = { .hDevice = a->km_device };
        (void)D3DKMTDestroyDevice(&dd);
        a->km_device = 0;
    }
}
