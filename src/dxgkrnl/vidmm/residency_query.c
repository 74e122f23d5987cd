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
 * Refused with STATUS_INVALID_PARAMETER and one line: NULL arguments or status array; an
 * invalid device; both or neither of a resource and a list; an invalid resource or allocation
 * handle of the device (the status array is then untouched). A lost device answers
 * STATUS_DEVICE_REMOVED, as the WDK lists. */
#include "dxgkrnl/vidmm/vidmm.h"
#include "common/alloc.h"

#include <stdlib.h>

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
    struct dxgk_resource *r = (struct dxgk_resource *)dxgk_handle_get(h, DXGK_TYPE_RESOURCE);
    if (!r || r->device != d) {
        dxgk_refuse("D3DKMTQueryAllocationResidency: invalid resource handle 0x%08x for device 0x%08x", h,
                    d->handle);
        if (r)
            dxgk_object_put(&r->obj);
        return STATUS_INVALID_PARAMETER;
    }
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
    struct dxgk_allocation **al = wddm_calloc(n, sizeof *al);
    if (!al)
        return STATUS_NO_MEMORY;
    NTSTATUS st = STATUS_SUCCESS;
    for (UINT i = 0; i < n && NT_SUCCESS(st); i++) {
        al[i] = dxgk_allocation_get(args->phAllocationList[i], d, NULL); /* an opened handle: its creator's memory */
        if (!al[i]) {
            dxgk_refuse("D3DKMTQueryAllocationResidency: entry %u: invalid allocation handle 0x%08x for device "
                        "0x%08x", i, args->phAllocationList[i], d->handle);
            st = STATUS_INVALID_PARAMETER;
        }
    }
    if (NT_SUCCESS(st)) {
        struct dxgk_adapter *a = d->adapter;
        pthread_mutex_lock(&a->lock);
        for (UINT i = 0; i < n; i++)
            args->pResidencyStatus[i] = status_locked(a, al[i]);
        pthread_mutex_unlock(&a->lock);
    }
    for (UINT i = 0; i < n; i++)
        if (al[i])
            dxgk_object_put(&al[i]->obj);
    free(al);
    return st;
}

NTSTATUS APIENTRY D3DKMTQueryAllocationResidency(const D3DKMT_QUERYALLOCATIONRESIDENCY *args)
{
    if (!args || !args->pResidencyStatus) {
        dxgk_refuse("D3DKMTQueryAllocationResidency: NULL %s", args ? "pResidencyStatus" : "arguments");
        return STATUS_INVALID_PARAMETER;
    }
    bool resource = args->hResource != 0;
    if (resource ? args->phAllocationList || args->AllocationCount
                 : !args->phAllocationList || !args->AllocationCount) {
        dxgk_refuse("D3DKMTQueryAllocationResidency: give either hResource (with no list and a count of 0) or "
                    "a list of %u allocations", args->AllocationCount);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_device *d = dxgk_device_get(args->hDevice);
    if (!d) {
        dxgk_refuse("D3DKMTQueryAllocationResidency: invalid device handle 0x%08x", args->hDevice);
        return STATUS_INVALID_PARAMETER;
    }
    NTSTATUS st;
    if (!NT_SUCCESS(__atomic_load_n(&d->error, __ATOMIC_RELAXED))) {
        dxgk_refuse("D3DKMTQueryAllocationResidency: device 0x%08x is lost", d->handle);
        st = STATUS_DEVICE_REMOVED;
    } else {
        st = resource ? query_resource(d, args->hResource, args->pResidencyStatus) : query_list(d, args);
    }
    dxgk_device_put(d);
    return st;
}
