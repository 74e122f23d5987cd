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

/* A listed allocation answers in its own element; a resource's allocations all answer in the
 * first, the weakest answer winning (NOTRESIDENT > SHARED > GPU). */
static void query_one(const struct dxgk_adapter *a, struct dxgk_allocation *al, UINT i, void *ctx)
{
    D3DKMT_ALLOCATIONRESIDENCYSTATUS *out = ctx;
    D3DKMT_ALLOCATIONRESIDENCYSTATUS s = status_locked(a, al);
    if (s > out[i])
        out[i] = s;
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
        /* Answers gathered aside: the caller's array is written only on success. */
        UINT n = args->hResource ? 1 : args->AllocationCount;
        D3DKMT_ALLOCATIONRESIDENCYSTATUS *tmp = wddm_calloc(n, sizeof *tmp);
        st = tmp ? STATUS_SUCCESS : STATUS_NO_MEMORY;
        if (tmp)
            st = dxgk_for_each_named("D3DKMTQueryAllocationResidency", d, args->hResource, args->phAllocationList,
                                     args->AllocationCount, query_one, tmp);
        if (NT_SUCCESS(st))
            for (UINT i = 0; i < n; i++)
                args->pResidencyStatus[i] = tmp[i] ? tmp[i] : D3DKMT_ALLOCATIONRESIDENCYSTATUS_RESIDENTINGPUMEMORY;
        free(tmp);
    }
    dxgk_device_put(d);
    return st;
}
