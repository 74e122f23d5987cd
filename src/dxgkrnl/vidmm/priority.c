/* Allocation priorities (docs/semantics.md §9.4): D3DKMTSetAllocationPriority, the eviction order
 * of allocations, effective at once (vidmm/evict.c better_victim reads it), and
 * D3DKMTGetAllocationPriority, which reads it back (the WDK's D3DKMT_GETALLOCATIONPRIORITY).
 *
 * Both name their allocations the same way: a resource (hResource, with no list and a count of
 * 0), or a list of allocation handles of the device (an opened handle: its creator's memory).
 *   - Set: with a resource, pPriorities[0] applies to every allocation of it; with a list, one
 *     priority per handle. A priority of 0 is refused. Every handle is checked before anything
 *     changes.
 *   - Get: with a list, one priority per handle into pPriorities; with a resource, its first
 *     allocation's into pPriorities[0] (our choice: the WDK gives one output per listed
 *     allocation and says nothing of a resource; a resource set through Set has one priority).
 * Refused with STATUS_INVALID_PARAMETER and a line: NULL arguments or priorities, not exactly one
 * of a resource and a list, an invalid device, resource or allocation handle (nothing is written
 * then). */
#include "dxgkrnl/vidmm/vidmm.h"

/* An opened allocation's priority is its creator's. */
static struct dxgk_allocation *creator_of(struct dxgk_allocation *al)
{
    return al->alias ? al->alias : al;
}

NTSTATUS APIENTRY D3DKMTSetAllocationPriority(const D3DKMT_SETALLOCATIONPRIORITY *args)
{
    static const char who[] = "D3DKMTSetAllocationPriority";
    if (!args || !args->pPriorities) {
        dxgk_refuse("%s: NULL %s", who, args ? "pPriorities" : "arguments");
        return STATUS_INVALID_PARAMETER;
    }
    for (UINT i = 0; i < (args->hResource ? 1u : args->AllocationCount); i++) {
        if (args->pPriorities[i] == 0) {
            dxgk_refuse("%s: priority %u is 0, which is invalid", who, i);
            return STATUS_INVALID_PARAMETER;
        }
    }
    struct dxgk_device *d =
        dxgk_named_device(who, args->hDevice, args->hResource, args->phAllocationList, args->AllocationCount);
    if (!d)
        return STATUS_INVALID_PARAMETER;
    struct dxgk_adapter *a = d->adapter;
    NTSTATUS st = STATUS_SUCCESS;
    if (args->hResource) {
        struct dxgk_resource *r = dxgk_device_resource_get(d, args->hResource, who);
        if (r) {
            pthread_mutex_lock(&a->lock);
            for (struct dxgk_allocation *al = r->allocations; al; al = al->res_next)
                creator_of(al)->priority = args->pPriorities[0];
            pthread_mutex_unlock(&a->lock);
            dxgk_object_put(&r->obj);
        } else {
            st = STATUS_INVALID_PARAMETER;
        }
    } else {
        UINT n = args->AllocationCount;
        struct dxgk_allocation **al = dxgk_allocation_list_get(d, args->phAllocationList, n, who);
        if (al) {
            pthread_mutex_lock(&a->lock);
            for (UINT i = 0; i < n; i++)
                al[i]->priority = args->pPriorities[i]; /* dxgk_allocation_get: already the creator's */
            pthread_mutex_unlock(&a->lock);
            dxgk_allocation_list_put(al, n);
        } else {
            st = STATUS_INVALID_PARAMETER;
        }
    }
    dxgk_device_put(d);
    return st;
}

NTSTATUS APIENTRY D3DKMTGetAllocationPriority(const D3DKMT_GETALLOCATIONPRIORITY *args)
{
    static const char who[] = "D3DKMTGetAllocationPriority";
    if (!args || !args->pPriorities) {
        dxgk_refuse("%s: NULL %s", who, args ? "pPriorities" : "arguments");
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_device *d =
        dxgk_named_device(who, args->hDevice, args->hResource, args->phAllocationList, args->AllocationCount);
    if (!d)
        return STATUS_INVALID_PARAMETER;
    struct dxgk_adapter *a = d->adapter;
    NTSTATUS st = STATUS_SUCCESS;
    if (args->hResource) {
        struct dxgk_resource *r = dxgk_device_resource_get(d, args->hResource, who);
        if (r) {
            pthread_mutex_lock(&a->lock);
            args->pPriorities[0] = r->allocations ? creator_of(r->allocations)->priority : 0;
            pthread_mutex_unlock(&a->lock);
            dxgk_object_put(&r->obj);
        } else {
            st = STATUS_INVALID_PARAMETER;
        }
    } else {
        UINT n = args->AllocationCount;
        struct dxgk_allocation **al = dxgk_allocation_list_get(d, args->phAllocationList, n, who);
        if (al) {
            pthread_mutex_lock(&a->lock);
            for (UINT i = 0; i < n; i++)
                args->pPriorities[i] = al[i]->priority;
            pthread_mutex_unlock(&a->lock);
            dxgk_allocation_list_put(al, n);
        } else {
            st = STATUS_INVALID_PARAMETER;
        }
    }
    dxgk_device_put(d);
    return st;
}
