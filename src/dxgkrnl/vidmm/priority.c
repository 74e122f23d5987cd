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
 *     created allocation's into pPriorities[0] (our choice: the WDK gives one output per listed
 *     allocation and says nothing of a resource; a resource set through Set has one priority).
 * Refused with STATUS_INVALID_PARAMETER and a line: NULL arguments or priorities, not exactly one
 * of a resource and a list, an invalid device, resource or allocation handle (nothing is written
 * then). */
#include "dxgkrnl/vidmm/vidmm.h"

static void set_one(const struct dxgk_adapter *a, struct dxgk_allocation *al, UINT i, void *ctx)
{
    (void)a;
    al->priority = ((const UINT *)ctx)[i];
}

/* A resource's allocations all answer in the first element, the most recently added first, so
 * the last written is the first created. */
static void get_one(const struct dxgk_adapter *a, struct dxgk_allocation *al, UINT i, void *ctx)
{
    (void)a;
    ((UINT *)ctx)[i] = al->priority;
}

/* The device, then each named allocation under the adapter lock; both calls name them alike. */
static NTSTATUS with_named_allocations(const char *who, D3DKMT_HANDLE hDevice, D3DKMT_HANDLE hResource,
                                       const D3DKMT_HANDLE *list, UINT count, dxgk_named_fn *each, void *ctx)
{
    struct dxgk_device *d = dxgk_named_device(who, hDevice, hResource, list, count);
    if (!d)
        return STATUS_INVALID_PARAMETER;
    NTSTATUS st = dxgk_for_each_named(who, d, hResource, list, count, each, ctx);
    dxgk_device_put(d);
    return st;
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
    return with_named_allocations(who, args->hDevice, args->hResource, args->phAllocationList, args->AllocationCount,
                                  set_one, (void *)args->pPriorities);
}

NTSTATUS APIENTRY D3DKMTGetAllocationPriority(const D3DKMT_GETALLOCATIONPRIORITY *args)
{
    static const char who[] = "D3DKMTGetAllocationPriority";
    if (!args || !args->pPriorities) {
        dxgk_refuse("%s: NULL %s", who, args ? "pPriorities" : "arguments");
        return STATUS_INVALID_PARAMETER;
    }
    return with_named_allocations(who, args->hDevice, args->hResource, args->phAllocationList, args->AllocationCount,
                                  get_one, args->pPriorities);
}
