/* D3DKMTQueryAllocationResidency: where a resource or a list of allocations lives now (the
 * WDK's D3DKMT_QUERYALLOCATIONRESIDENCY; issue 16 §3: what tools and tests ask instead of
 * reading VidMm's state).
 *
 * Each allocation answers for its current instance (an opened handle: its creator's memory):
 *   - not placed in any segment: D3DKMT_ALLOCATIONRESIDENCYSTATUS_NOTRESIDENT;
 *   - in an aperture segment, or in a memory segment the KMD describes as populated from
 *     system memory (DXGK_SEGMENTFLAGS.PopulatedFromSystemMemory): RESIDENTINSHAREDMEMORY;
 *   - in any other memory segment: RESIDENTINGPUMEMORY.
 * A resource (hResource, with no list and a count of 0) answers once in pResidencyStatus[0]: not
 * resident if any of its allocations is not (the WDK's rule), else in shared memory if any is
 * there (our choice: the weaker of the answers), else in GPU memory.
 *
 * Refused with STATUS_INVALID_PARAMETER and one line: NULL arguments or status array; both or
 * neither of a resource and a list; an invalid device; an invalid resource or allocation
 * handle of the device (the status array is then untouched). A lost device answers
 * STATUS_DEVICE_REMOVED, as the WDK lists. */
#include "dxgkrnl/vidmm/vidmm.h"

static D3DKMT_ALLOCATIONRESIDENCYSTATUS status_locked(const struct dxgk_adapter *a, const struct dxgk_allocation *al)
{
    WDDM_ASSERT_HELD(&a->lock);
    const struct vidmm_instance *in = al->current;
    if (!in || !in->segment_id)
        return D3DKMT_ALLOCATIONRESIDENCYSTATUS_NOTRESIDENT;
    const struct vidmm_segment *s = &a->seg[in->segment_id - 1];
    if (s->aperture || s->desc.Flags.PopulatedFromSystemMemory)
        return D3DKMT_ALLOCATIONRESIDENCYSTATUS_RESIDENTINSHAREDMEMORY;
    return D3DKMT_ALLOCATIONRESIDENCYSTATUS_RESIDENTINGPUMEMORY;
}

/* The resource's answer: the weakest of its allocations' (NOTRESIDENT > SHARED > GPU). */
static NTSTATUS query_resource(struct dxgk_device *d, D3DKMT_HANDLE h, D3DKMT_ALLOCATIONRESIDENCYSTATUS *out)
{
    struct dxgk_resource *r = dxgk_device_resource_get(d, h, "D3DKMTQueryAllocationResidency");
    if (!r)
        return STATUS_INVALID_PARAMETER;
    struct dxgk_adapter *a = d->adapter;
    D3DKMT_ALLOCATIONRESIDENCYSTATUS worst = D3DKMT_ALLOCATIONRESIDENCYSTATUS_RESIDENTINGPUMEMORY;
    pthread_mutex_lock(&a->lock);
    for (const struct dxgk_allocation *al = r->allocations; al; al = al->res_next) {
        D3DKMT_ALLOCATIONRESIDENCYSTATUS s = status_locked(a, al->alias ? al->alias : al);
        if (s > worst)
            worst = s;
    }
    pthread_mutex_unlock(&a->lock);
    dxgk_object_put(&r->obj);
    *out = worst;
    return STATUS_SUCCESS;
}

static NTSTATUS query_list(struct dxgk_device *d, const D3DKMT_QUERYALLOCATIONRESIDENCY *args)
{
    UINT n = args->AllocationCount;
    struct dxgk_allocation **al =
        dxgk_allocation_list_get(d, args->phAllocationList, n, "D3DKMTQueryAllocationResidency");
    if (!al)
        return STATUS_INVALID_PARAMETER;
    struct dxgk_adapter *a = d->adapter;
    pthread_mutex_lock(&a->lock);
    for (UINT i = 0; i < n; i++)
        args->pResidencyStatus[i] = status_locked(a, al[i]);
    pthread_mutex_unlock(&a->lock);
    dxgk_allocation_list_put(al, n);
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY D3DKMTQueryAllocationResidency(const D3DKMT_QUERYALLOCATIONRESIDENCY *args)
{
    if (!args || !args->pResidencyStatus) {
        dxgk_refuse("D3DKMTQueryAllocationResidency: NULL %s", args ? "pResidencyStatus" : "arguments");
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_device *d = dxgk_named_device("D3DKMTQueryAllocationResidency", args->hDevice, args->hResource,
                                              args->phAllocationList, args->AllocationCount);
    if (!d)
        return STATUS_INVALID_PARAMETER;
    NTSTATUS st;
    if (!NT_SUCCESS(__atomic_load_n(&d->error, __ATOMIC_RELAXED))) {
        dxgk_refuse("D3DKMTQueryAllocationResidency: device 0x%08x is lost", d->handle);
        st = STATUS_DEVICE_REMOVED;
    } else {
        st = args->hResource ? query_resource(d, args->hResource, args->pResidencyStatus) : query_list(d, args);
    }
    dxgk_device_put(d);
    return st;
}
