/* Discard = renaming (WDDM 1.x VidMm, docs/semantics.md §3.3). Each allocation keeps a list of
 * instances, oldest first. A Discard lock of a busy current instance makes another instance
 * current: an idle one is recycled first; otherwise a new one is created with the original
 * creation parameters (no new DxgkDdiCreateAllocation: to the KMD it is the same allocation
 * paged in at another place), unless MaximumRenamingListLength (0 = unlimited) is reached;
 * then the caller waits for the oldest to retire and tries again. The allocation handle stays
 * the same; DMA buffers snapshot the current instance at D3DKMTRender time.
 * Under memory pressure a retired instance that is not current is evicted with
 * DISCARD_CONTENT (vidmm/evict.c); recycling it places it again, without content.
 *
 * Instance handles (docs/semantics.md §3.3; D3DDDICB_LOCK.hAllocation: "the video memory manager
 * creates a new instance of the allocation and returns a new handle that represents the new
 * instance"): a Discard lock that renames returns the new current instance's own handle, an
 * allocation-type handle of the same kernel object (each holds a reference; removed when the
 * instances are freed). It names that instance for good, in locks (an older one only with
 * DXGK_VIDMMCAPS.OutOfOrderLock, vidmm/lock.c) and allocation lists. The handle the allocation
 * was created with keeps naming whichever instance is current (model decision: the UMD that
 * ignores the returned handle keeps working as on WDDM 1.x runtimes that re-emit it).
 *
 * Instance ordering (docs/semantics.md §3.3 "Instance ordering invariant"): every instance gets a
 * generation when it becomes current. Once a DMA buffer referenced generation g, instances older
 * than g are retired for references: D3DKMTRender refuses a buffer naming one (objects/render.c),
 * unless its last reference carried D3DDDI_ALLOCATIONLIST.DoNotRetireInstance ("the driver will
 * reference it again in a subsequent DMA buffer"), which also keeps it from being recycled;
 * the next reference without the flag lets it retire ("all instances are eventually retired").
 *
 * Recycling follows the same retirement (pfnLockCb remarks, docs/semantics.md §3.3): the caller
 * of a Discard lock may still have commands it has not submitted naming the current instance
 * or any instance no submitted buffer has retired, and "re-emits the new base address into the
 * current command buffer" instead of flushing. So without NoExistingReference a Discard always
 * moves to another instance (even when the current one is idle), and an instance is recycled
 * only once a submitted buffer named a newer one and the GPU is done with it. When no instance
 * can be created or reused that way the lock fails; the caller flushes and retries with
 * Discard | NoExistingReference ("the driver does not currently have a reference to any
 * instance ... queued"), and then any idle instance, the current one included, is reused. */
#include "dxgkrnl/vidmm/vidmm.h"
#include "common/alloc.h"

#include <stdlib.h>

static void append_locked(const struct dxgk_adapter *a, struct dxgk_allocation *al, struct vidmm_instance *in)
{
    WDDM_ASSERT_HELD(&a->lock);
    in->next = NULL;
    in->prev = al->instances_tail;
    if (al->instances_tail)
        al->instances_tail->next = in;
    else
        al->instances = in;
    al->instances_tail = in;
}

bool vidmm_instance_dead_locked(const struct dxgk_adapter *a, const struct dxgk_allocation *al,
                                const struct vidmm_instance *in)
{
    WDDM_ASSERT_HELD(&a->lock);
    return in != al->current && !in->keep && in->gen < al->retired_below;
}

/* The list is in order of last use (oldest first), and packets retire in ticket order, so the
 * oldest instance that is not current is the only recycling candidate worth checking: O(1). */
struct vidmm_instance *vidmm_rename_candidate_locked(const struct dxgk_adapter *a, struct dxgk_allocation *al,
                                                     bool no_existing_reference)
{
    WDDM_ASSERT_HELD(&a->lock);
    struct vidmm_instance *old = al->instances == al->current ? al->current->next : al->instances;
    /* Not while the CPU holds a pointer into it (an OutOfOrderLock lock) or a DMA buffer is
     * still to reference it (DoNotRetireInstance, or not yet retired for references). */
    if (!old || old->lock_count || old->keep || (!no_existing_reference && !vidmm_instance_dead_locked(a, al, old)))
        return NULL;
    return old;
}

static void unlink_locked(const struct dxgk_adapter *a, struct dxgk_allocation *al, struct vidmm_instance *in)
{
    WDDM_ASSERT_HELD(&a->lock);
    if (in->prev)
        in->prev->next = in->next;
    else
        al->instances = in->next;
    if (in->next)
        in->next->prev = in->prev;
    else
        al->instances_tail = in->prev;
}

struct vidmm_instance *vidmm_rename_locked(struct dxgk_adapter *a, struct dxgk_allocation *al,
                                           struct vidmm_paging_batch *batch, bool no_existing_reference)
{
    WDDM_ASSERT_HELD(&a->lock);
    /* The oldest first: the most recently retired instance is still in the GPU engine's cache,
     * and writing it from the CPU at once costs more (W1 of `wddm bench`, 64 KiB: 1.2 us per
     * frame oldest first, 1.5 us newest first). */
    struct vidmm_instance *old = vidmm_rename_candidate_locked(a, al, no_existing_reference);
    if (old && !old->in_batch && vidmm_instance_retired_locked(a, old)) {
        if (!old->segment_id && !NT_SUCCESS(vidmm_make_resident_locked(a, old, batch, false)))
            return NULL;
        unlink_locked(a, al, old);
        append_locked(a, al, old);
        al->current = old;
        old->gen = ++al->gen_seq;
        return old;
    }
    UINT cap = al->info.MaximumRenamingListLength;
    if (cap && al->instance_count >= cap)
        return NULL;
    if (!vidmm_commit_charge(al->info.Size)) /* its backing store (vidmm/budget.c) */
        return NULL;
    struct vidmm_instance *in = wddm_calloc(1, sizeof *in);
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
    append_locked(a, al, in);
    al->instance_count++;
    al->current = in;
    in->gen = ++al->gen_seq;
    return in;
}

struct vidmm_instance *vidmm_instance_resolve_locked(const struct dxgk_adapter *a, struct dxgk_allocation *al,
                                                     D3DKMT_HANDLE h)
{
    WDDM_ASSERT_HELD(&a->lock);
    if (vidmm_handle_names_allocation_locked(a, al, h))
        return al->current;
    /* The usual case: the UMD names the instance its last Discard lock returned, the current one,
     * or, in a DMA buffer, one of the last few: newest first (a W1-style upload loop would
     * otherwise walk the whole instance list for every entry). */
    if (al->current && al->current->handle == h)
        return al->current;
    for (struct vidmm_instance *in = al->instances_tail; in; in = in->prev)
        if (in->handle == h)
            return in;
    return NULL;
}

/* h is the allocation's own handle or a same-adapter open's (issue 6: both name the current
 * instance), not one of its instance handles. */
bool vidmm_handle_names_allocation_locked(const struct dxgk_adapter *a, const struct dxgk_allocation *al,
                                          D3DKMT_HANDLE h)
{
    WDDM_ASSERT_HELD(&a->lock);
    if (h == al->handle)
        return true;
    for (const struct dxgk_allocation *y = al->aliases; y; y = y->alias_next)
        if (y->handle == h)
            return true;
    return false;
}

D3DKMT_HANDLE vidmm_instance_handle_locked(const struct dxgk_adapter *a, struct dxgk_allocation *al,
                                           struct vidmm_instance *in)
{
    WDDM_ASSERT_HELD(&a->lock);
    if (!in->handle) {
        /* An allocation-type handle of the same object: every D3DKMT lookup finds the
         * allocation; the instance is told apart by vidmm_instance_resolve_locked. */
        dxgk_object_get(&al->obj); /* the handle's own reference (insert takes one over) */
        D3DKMT_HANDLE h = dxgk_handle_insert(&al->obj);
        if (!h) {
            dxgk_object_put(&al->obj);
            dxgk_refuse("VidMm: handle table full: the renamed instance keeps the allocation's handle 0x%08x",
                        al->handle);
            return 0;
        }
        dxgk_handle_publish(h);
        in->handle = h;
    }
    return in->handle;
}

bool vidmm_instance_reference_ok_locked(const struct dxgk_adapter *a, const struct dxgk_allocation *al,
                                        const struct vidmm_instance *in)
{
    WDDM_ASSERT_HELD(&a->lock);
    return in->keep || in->gen >= al->retired_below;
}

void vidmm_instance_referenced_locked(const struct dxgk_adapter *a, struct dxgk_allocation *al,
                                      struct vidmm_instance *in, bool do_not_retire)
{
    WDDM_ASSERT_HELD(&a->lock);
    if (in->gen > al->retired_below)
        al->retired_below = in->gen;
    in->keep = do_not_retire;
}

void vidmm_instances_free_locked(struct dxgk_adapter *a, struct dxgk_allocation *al)
{
    WDDM_ASSERT_HELD(&a->lock);
    vidmm_va_unmap_allocation_locked(a, al); /* GpuMmu: its mappings go first (issue 6) */
    struct vidmm_instance *in = al->instances;
    while (in) {
        struct vidmm_instance *next = in->next;
        if (in->swz_lock) /* destroyed while locked with AcquireAperture (vidmm/lock.c) */
            vidmm_swizzle_release_locked(a, in);
        if (in->handle) /* its handle's reference is not the last: the caller holds one */
            dxgk_object_put(dxgk_handle_remove(in->handle, DXGK_TYPE_ALLOCATION));
        in->handle = 0;
        vidmm_unplace_locked(a, in);
        vidmm_commit_uncharge(al->info.Size);
        if (in != &al->first)
            free(in);
        in = next;
    }
    al->instances = al->instances_tail = al->current = NULL;
    al->instance_count = 0;
}
