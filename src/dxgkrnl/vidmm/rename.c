/* Discard = renaming (WDDM 1.x VidMm, wddm-semantics §3.3). Each allocation keeps a list of
 * instances, oldest first. A Discard lock of a busy current instance makes another instance
 * current: an idle one is recycled first; otherwise a new one is created with the original
 * creation parameters (no new DxgkDdiCreateAllocation: to the KMD it is the same allocation
 * paged in at another place), unless MaximumRenamingListLength (0 = unlimited) is reached;
 * then the caller waits for the oldest to retire and tries again. The allocation handle stays
 * the same; DMA buffers snapshot the current instance at D3DKMTRender time.
 * Under memory pressure a retired instance that is not current is evicted with
 * DISCARD_CONTENT (vidmm/evict.c); recycling it places it again, without content. */
#include "dxgkrnl/dxgkrnl.h"

#include <stdlib.h>

static void append_locked(struct dxgk_allocation *al, struct vidmm_instance *in)
{
    in->next = NULL;
    if (al->instances_tail)
        al->instances_tail->next = in;
    else
        al->instances = in;
    al->instances_tail = in;
}

/* The list is in order of last use (oldest first), and packets retire in ticket order, so the
 * oldest instance that is not current is the only recycling candidate worth checking: O(1). */
struct vidmm_instance *vidmm_rename_locked(struct dxgk_adapter *a, struct dxgk_allocation *al,
                                           struct vidmm_paging_batch *batch)
{
    struct vidmm_instance *old = al->instances;
    struct vidmm_instance *prev = NULL;
    if (old == al->current) {
        prev = old;
        old = old->next;
    }
    if (old && !old->in_batch && vidmm_instance_retired_locked(a, old)) {
        if (!old->segment_id && !NT_SUCCESS(vidmm_make_resident_locked(a, old, batch, false)))
            return NULL;
        if (prev)
            prev->next = old->next;
        else
            al->instances = old->next;
        if (al->instances_tail == old)
            al->instances_tail = prev;
        append_locked(al, old);
        al->current = old;
        return old;
    }
    UINT cap = al->info.MaximumRenamingListLength;
    if (cap && al->instance_count >= cap)
        return NULL;
    if (!vidmm_commit_charge(al->info.Size)) /* its backing store (vidmm/budget.c) */
        return NULL;
    struct vidmm_instance *in = calloc(1, sizeof *in);
    if (!in) {
        vidmm_commit_uncharge(al->info.Size);
        return NULL;
    }
    in->alloc = al;
    /* Discard content is undefined (D3D11 WRITE_DISCARD): no FILL, so no GPU wait either. */
    if (!NT_SUCCESS(vidmm_make_resident_locked(a, in, batch, false))) {
        vidmm_unplace_locked(a, in);
        vidmm_commit_uncharge(al->info.Size);
        free(in);
        return NULL;
    }
    append_locked(al, in);
    al->instance_count++;
    al->current = in;
    return in;
}

void vidmm_instances_free_locked(struct dxgk_adapter *a, struct dxgk_allocation *al)
{
    vidmm_va_unmap_allocation_locked(a, al); /* GpuMmu: its mappings go first (issue 6) */
    struct vidmm_instance *in = al->instances;
    while (in) {
        struct vidmm_instance *next = in->next;
        vidmm_unplace_locked(a, in);
        vidmm_commit_uncharge(al->info.Size);
        if (in != &al->first)
            free(in);
        in = next;
    }
    al->instances = al->instances_tail = al->current = NULL;
    al->instance_count = 0;
}
