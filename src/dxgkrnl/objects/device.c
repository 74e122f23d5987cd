/* Devices (docs/semantics.md §0): DxgkDdiCreateDevice / DxgkDdiDestroyDevice. A device owns its
 * contexts and allocations; destroying it destroys what the application left and waits for
 * the GPU to finish with them, so nothing of the device survives D3DKMTDestroyDevice. */
#include "dxgkrnl/objects/objects.h"
#include "common/alloc.h"

#include <stdlib.h>
#include <string.h>

static void device_release(struct dxgk_object *obj)
{
    struct dxgk_device *d = (struct dxgk_device *)obj;
    struct dxgk_adapter *a = d->adapter;
    free(d);
    dxgk_adapter_put(a);
}

NTSTATUS APIENTRY D3DKMTCreateDevice(D3DKMT_CREATEDEVICE *args)
{
    if (!args) {
        dxgk_refuse("D3DKMTCreateDevice: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_adapter *a = dxgk_adapter_get(args->hAdapter);
    if (!a) {
        dxgk_refuse("D3DKMTCreateDevice: invalid adapter handle 0x%08x", args->hAdapter);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_device *d = wddm_calloc(1, sizeof *d);
    if (!d) {
        dxgk_adapter_put(a);
        return STATUS_NO_MEMORY;
    }
    dxgk_object_init(&d->obj, DXGK_TYPE_DEVICE, device_release);
    d->adapter = a; /* takes over the lookup reference */
    d->handle = dxgk_handle_insert(&d->obj);
    if (!d->handle) {
        dxgk_object_put(&d->obj);
        return STATUS_NO_MEMORY;
    }
    DXGK_DEVICEINFO info = { 0 };
    /* WDDM 2.0: the device's process, and in the IoMmu model its PASID (vidmm/vaspace.c). */
    DXGKARG_CREATEDEVICE cd = { .hDevice = (HANDLE)(uintptr_t)d->handle, .pInfo = &info, .Pasid = vidmm_va_pasid(a),
                                .hKmdProcess = vidmm_va_kmd_process(a) };
    NTSTATUS st = a->driver.ddi.DxgkDdiCreateDevice(a->miniport, &cd);
    if (!NT_SUCCESS(st)) {
        dxgk_refuse("D3DKMTCreateDevice: DxgkDdiCreateDevice failed 0x%08x", (unsigned)st);
        dxgk_context_allocations_destroy_owned(a, d, NULL); /* any the failing KMD left */
        dxgk_object_put(dxgk_handle_remove(d->handle, DXGK_TYPE_DEVICE));
        return st;
    }
    d->kmd = cd.hDevice;
    /* Published under the adapter lock: a TDR stop (sched/tdr.c) marks the adapter first, then
     * loses every published device, so this one is either refused here or lost there. */
    pthread_mutex_lock(&a->lock);
    st = dxgk_tdr_check_stopped_locked(a, "D3DKMTCreateDevice");
    if (NT_SUCCESS(st))
        dxgk_handle_publish(d->handle);
    pthread_mutex_unlock(&a->lock);
    if (!NT_SUCCESS(st)) {
        a->driver.ddi.DxgkDdiDestroyDevice(d->kmd);
        dxgk_context_allocations_destroy_owned(a, d, NULL);
        dxgk_object_put(dxgk_handle_remove(d->handle, DXGK_TYPE_DEVICE));
        return st;
    }
    args->hDevice = d->handle;
    /* A device has no command buffer or lists of its own (its contexts have them): the WDK's
     * out fields are NULL / 0 (Wine win32u d3dkmt tests, run on Windows). */
    args->pCommandBuffer = NULL;
    args->CommandBufferSize = 0;
    args->pAllocationList = NULL;
    args->AllocationListSize = 0;
    args->pPatchLocationList = NULL;
    args->PatchLocationListSize = 0;
    return STATUS_SUCCESS;
}

/* Up to `max` of d's allocations into list; returns how many. Adapter lock held. */
static UINT take_allocations_locked(struct dxgk_device *d, struct dxgk_allocation **list, UINT max)
{
    WDDM_ASSERT_HELD(&d->adapter->lock);
    UINT k = 0;
    for (struct dxgk_allocation *al = d->allocations; al && k < max; al = al->dev_next)
        list[k++] = al;
    return k;
}

/* Removes their handles (each handle's reference moves to the deferred entry); keeps those
 * whose handle this call removed. Adapter lock held. */
static UINT remove_handles_locked(struct dxgk_device *d, struct dxgk_allocation **list, UINT k)
{
    WDDM_ASSERT_HELD(&d->adapter->lock);
    UINT kept = 0;
    for (UINT i = 0; i < k; i++)
        if (dxgk_handle_remove(list[i]->handle, DXGK_TYPE_ALLOCATION))
            list[kept++] = list[i];
    return kept;
}

/* The allocations the application did not destroy, as one deferred list. A destroyed device
 * gives back everything even without memory for that list (issue 14 §4): then they go a few
 * at a time in the caller's stack storage, each batch once the GPU is done with it (waiting
 * is the one way left that needs no memory). */
static void destroy_remaining_allocations(struct dxgk_adapter *a, struct dxgk_device *d)
{
    pthread_mutex_lock(&a->lock);
    UINT n = 0;
    for (struct dxgk_allocation *al = d->allocations; al; al = al->dev_next)
        n++;
    struct dxgk_allocation **list = n ? wddm_calloc(n, sizeof *list) : NULL;
    struct dxgk_deferred *e = NULL, *now = NULL;
    if (list) {
        n = take_allocations_locked(d, list, n);
        e = dxgk_deferred_entry_locked(a, d, list, n, NULL);
    }
    if (e) {
        UINT k = remove_handles_locked(d, list, n);
        if (k)
            dxgk_allocation_destroy_list_locked(a, d, NULL, list, k, e, &now);
        else
            free(e);
    }
    pthread_mutex_unlock(&a->lock);
    free(list);
    if (now)
        dxgk_deferred_free_now(a, now);
    if (e || !n)
        return;
    for (;;) {
        union dxgk_deferred_stack stack;
        struct dxgk_allocation *batch[DXGK_DEFERRED_STACK];
        UINT64 tickets[DXGK_MAX_NODES];
        pthread_mutex_lock(&a->lock);
        UINT k = take_allocations_locked(d, batch, DXGK_DEFERRED_STACK);
        e = k ? dxgk_deferred_entry_locked(a, d, batch, k, &stack) : NULL;
        if (e) {
            k = remove_handles_locked(d, batch, k);
            now = NULL;
            if (k)
                dxgk_allocation_destroy_list_locked(a, d, NULL, batch, k, e, &now);
            else if (e->heap)
                free(e);
        }
        for (UINT i = 0; i < a->node_count; i++)
            tickets[i] = a->node[i].queued_ticket;
        pthread_mutex_unlock(&a->lock);
        if (!k)
            return; /* none left (or none whose handle this destroy still owned) */
        if (e) {
            if (now)
                dxgk_deferred_free_now(a, now);
            continue;
        }
        /* Busy and no memory for a heap entry: wait for what is queued, then try again. */
        for (UINT i = 0; i < a->node_count; i++)
            gsched_wait_ticket(&a->node[i], tickets[i]);
        for (UINT i = 0; i < a->node_count; i++)
            gsched_wait_node_idle(&a->node[i]);
    }
}

NTSTATUS dxgk_device_destroy(struct dxgk_device *d, D3DKMT_HANDLE h)
{
    struct dxgk_adapter *a = d->adapter;
    /* Removing the handle first makes every later use of it STATUS_INVALID_PARAMETER; a
     * concurrent destroy of the same handle loses here. */
    struct dxgk_object *o = dxgk_handle_remove(h, DXGK_TYPE_DEVICE);
    if (!o)
        return STATUS_INVALID_PARAMETER;
    pthread_mutex_lock(&a->lock);
    d->dead = true;
    pthread_mutex_unlock(&a->lock);

    /* Contexts: each waits for its queue to drain. */
    for (;;) {
        pthread_mutex_lock(&a->lock);
        struct dxgk_context *c = d->contexts;
        if (c) {
            d->contexts = c->dev_next;
            c->dev_next = NULL;
        }
        pthread_mutex_unlock(&a->lock);
        if (!c)
            break;
        /* A concurrent D3DKMTDestroyContext that removed the handle first destroys it. */
        if (dxgk_handle_remove(c->handle, DXGK_TYPE_CONTEXT))
            dxgk_context_destroy(c); /* drops the handle's reference */
    }
    /* Allocations the application did not destroy: destroyed as one list, deferred like any
     * other, then the device's deferred entries are waited for. */
    destroy_remaining_allocations(a, d);
    dxgk_deferred_process(a, d, true);
    /* A node worker may still be freeing an entry of this device it took off the list. */
    pthread_mutex_lock(&a->lock);
    while (d->deferred_count)
        pthread_cond_wait(&a->deferred_cond, &a->lock);
    pthread_mutex_unlock(&a->lock);

    /* Resources left behind have no allocations any more. */
    struct dxgk_object **res;
    D3DKMT_HANDLE *hs;
    size_t nr = dxgk_handle_collect(DXGK_TYPE_RESOURCE, &res, &hs);
    for (size_t i = 0; i < nr; i++) {
        struct dxgk_resource *r = (struct dxgk_resource *)res[i];
        if (r->device == d)
            dxgk_object_put(dxgk_handle_remove(hs[i], DXGK_TYPE_RESOURCE));
        dxgk_object_put(res[i]);
    }
    free(res);
    free(hs);

    /* Synchronization objects the application left: destroyed with their device, their CPU
     * waiters released with an error (sched/syncobj.c). Its paging queues first: they take
     * their fences along (vidmm/pagingqueue.c, WDK D3DKMT_CREATEPAGINGQUEUE remarks). */
    dxgk_paging_queues_destroy_device(d->handle);
    dxgk_syncobj_destroy_device(d->handle);
    vidmm_notifications_drop_device(d->handle); /* vidmm/process_budget.c */

    NTSTATUS st = a->driver.ddi.DxgkDdiDestroyDevice(d->kmd);
    if (!NT_SUCCESS(st))
        dxgk_refuse("D3DKMTDestroyDevice: DxgkDdiDestroyDevice failed 0x%08x (ignored)", (unsigned)st);
    /* Device context allocations the KMD did not destroy (in its DxgkDdiDestroyDevice) go with
     * their device (docs/semantics.md §1.2 invariant 7). */
    dxgk_context_allocations_destroy_owned(a, d, NULL);
    dxgk_object_put(o); /* the handle's reference */
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY D3DKMTDestroyDevice(const D3DKMT_DESTROYDEVICE *args)
{
    struct dxgk_device *d = args ? dxgk_device_get(args->hDevice) : NULL;
    if (!d) {
        dxgk_refuse("D3DKMTDestroyDevice: invalid device handle 0x%08x", args ? args->hDevice : 0);
        return STATUS_INVALID_PARAMETER;
    }
    NTSTATUS st = dxgk_device_destroy(d, args->hDevice);
    if (!NT_SUCCESS(st))
        dxgk_refuse("D3DKMTDestroyDevice: device 0x%08x already being destroyed", args->hDevice);
    dxgk_device_put(d);
    return st;
}
