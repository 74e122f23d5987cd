/* Trimming everything (a test control, include/wddm/wddm.h wddm_test_vidmm_trim): VidMm takes
 * out of every segment whatever it may evict, as under the heaviest pressure, so that a check
 * or a test sees every allocation, context allocations included (seed 000), leave its segment
 * and come back on its next use with its content.
 *
 * The GPU runs dry and every node switches to the null context first: a loaded context's save
 * area may then move too. A memory segment's instances go to their backing store (or, with an
 * EvictionSegmentSet, into an aperture segment); an aperture segment's are unmapped. Kept where
 * they are: what vidmm_evictable_locked keeps (locked, pinned by the residency rules, claimed by
 * a packet being readied) and what is in this very paging batch. */
#include "dxgkrnl/vidmm/vidmm.h"

static NTSTATUS trim_one_locked(struct dxgk_adapter *a, struct vidmm_instance *in, struct vidmm_paging_batch *batch)
{
    WDDM_ASSERT_HELD(&a->lock);
    if (!vidmm_evictable_locked(a, in))
        return STATUS_GRAPHICS_ALLOCATION_BUSY; /* kept: not a failure of the trim */
    return vidmm_evict_instance_locked(a, in, batch, VIDMM_EVICT_ORDINARY);
}

NTSTATUS wddm_test_vidmm_trim(UINT hAdapter, UINT64 *pEvicted)
{
    struct dxgk_adapter *a = dxgk_adapter_get(hAdapter);
    if (!a) {
        dxgk_refuse("wddm_test_vidmm_trim: invalid adapter handle 0x%08x", hAdapter);
        return STATUS_INVALID_PARAMETER;
    }
    gsched_unload_every_node(a);
    UINT64 evicted = vidmm_clear_segments(a, ~0u, true, trim_one_locked);
    if (pEvicted)
        *pEvicted = evicted;
    dxgk_adapter_put(a);
    return STATUS_SUCCESS;
}
