/* Allocations and resources (docs/semantics.md §3.5): D3DKMTCreateAllocation ->
 * DxgkDdiCreateAllocation (the KMD describes each allocation in DXGK_ALLOCATIONINFO) -> the
 * verifier -> DxgkDdiOpenAllocation (the device-specific handle used in allocation lists).
 * Nothing is placed at creation: residency is lazy (docs/architecture.md).
 *
 * Destruction is deferred until the GPU no longer uses any instance of the allocation (its
 * last fences retired): then DxgkDdiCloseAllocation and DxgkDdiDestroyAllocation run and the
 * segment ranges are freed. An idle allocation is freed at once, on the caller's thread. */
#include "dxgkrnl/objects/objects.h"
#include "common/alloc.h"

#include <stdlib.h>
#include <string.h>

/* A zeroed kernel object whose struct dxgk_object header the caller initialises
 * (dxgk_object_init). Not calloc: glibc's calloc bypasses the per-thread cache (tcache), so a
 * create/destroy loop went through the arena's free-and-coalesce path on every pair. The
 * header is left out of the memset on purpose: GCC folds malloc + memset of the whole block
 * back into calloc. */
__attribute__((noinline)) /* keeps the size variable: libc's vector memset, not an inline
                            * `rep stos` (slow to start for a few hundred bytes) */
static void *object_alloc(size_t size)
{
    unsigned char *p = wddm_malloc(size);
    if (p)
        memset(p + sizeof(struct dxgk_object), 0, size - sizeof(struct dxgk_object));
    return p;
}

static void resource_release(struct dxgk_object *obj)
{
    free(obj);
}

static PVOID handle_data(const struct dxgk_object *o)
{
    if (o->type == DXGK_TYPE_ALLOCATION)
        return ((const struct dxgk_allocation *)o)->info.hAllocation;
    return ((const struct dxgk_resource *)o)->kmd;
}

/* DxgkCbGetHandleData: the KMD's own handle for a kernel allocation or resource handle (used
 * by DxgkDdiOpenAllocation, so it sees handles that are not published yet). */
PVOID APIENTRY dxgk_cb_get_handle_data(const DXGKARGCB_GETHANDLEDATA *args)
{
    if (!args)
        return NULL;
    enum dxgk_type t = args->Type == DXGK_HANDLE_ALLOCATION ? DXGK_TYPE_ALLOCATION
                       : args->Type == DXGK_HANDLE_RESOURCE ? DXGK_TYPE_RESOURCE
                                                            : DXGK_TYPE_NONE;
    struct dxgk_object *o = t ? dxgk_handle_peek_unpublished(args->hObject, t) : NULL;
    if (!o) {
        dxgk_refuse("DxgkCbGetHandleData: invalid handle 0x%08x of type %d", args->hObject, (int)args->Type);
        return NULL;
    }
    return handle_data(o);
}

/* The allocation whose instances an allocation's work used: a same-adapter open's are its
 * creator's (objects/share.c). */
static struct dxgk_allocation *owner_of(struct dxgk_allocation *al)
{
    return al->alias ? al->alias : al;
}

static bool entry_idle_locked(struct dxgk_adapter *a, const struct dxgk_deferred *e)
{
    WDDM_ASSERT_HELD(&a->lock);
    for (UINT i = 0; i < e->count; i++)
        for (const struct vidmm_instance *in = owner_of(e->allocs[i])->instances; in; in = in->next)
            if (!vidmm_instance_retired_locked(a, in))
                return false;
    return true;
}

/* After DxgkDdiDestroyAllocation: the allocation's share reference and a backing store fixed at
 * creation (shared with the KMD, seed 002; a cross-adapter resource's pages, which belong to its
 * share, seed 003). Both outlive the UNMAP of its last aperture range (al->unmap_fence,
 * vidmm/placement.c). */
struct share_pages_use {
    struct dxgk_share *share;
    struct dxgk_adapter *adapter;     /* the adapter whose UNMAP fence released it: alive then */
};

static void share_pages_release(void *arg)
{
    struct share_pages_use *u = arg;
    dxgk_share_unmap(u->share, u->adapter);
    dxgk_share_pages_release(u->share); /* shares.lock is a leaf lock */
    free(u);
}

static void fixed_memory_release(struct dxgk_adapter *a, struct dxgk_allocation *al)
{
    if (!al->share && !al->kmd_backing)
        return; /* the common case (every W3 destruction): no adapter-lock round trip */
    pthread_mutex_lock(&a->lock);
    if (al->share) {
        dxgk_share_clear_owner(al->share, al);
        /* A cross-adapter resource's pages go with the last of the creator's and the openers'
         * allocations (objects/share.c), and not before this adapter's UNMAP of them ran. */
        if (dxgk_share_is_cross_adapter(al->share)) {
            dxgk_share_detach(&al->first);
            dxgk_share_pages_hold(al->share);
            struct share_pages_use *u = wddm_calloc(1, sizeof *u);
            if (u)
                *u = (struct share_pages_use){ al->share, a };
            if (!u || !vidmm_release_after_locked(a, al->unmap_fence, share_pages_release, u)) {
                /* Nothing to wait with: released now (the pages stay with the share for others). */
                dxgk_share_unmap(al->share, a);
                dxgk_share_pages_release(al->share);
                free(u);
            }
        }
        dxgk_share_put(al->share);
        al->share = NULL;
    }
    if (al->kmd_backing)
        vidmm_backing_retire_locked(a, &al->first, al->unmap_fence);
    pthread_mutex_unlock(&a->lock);
}

/* The part of freeing an entry that needs the adapter lock: segment ranges and backing
 * stores (VidMm builds the UNMAP of an aperture range: before the KMD's DestroyAllocation),
 * resource membership. The device's deferred count comes after the KMD calls
 * (uncount_locked): they still use the device. */
static void release_locked(struct dxgk_adapter *a, struct dxgk_deferred *e)
{
    WDDM_ASSERT_HELD(&a->lock);
    for (UINT i = 0; i < e->count; i++) {
        struct dxgk_allocation *al = e->allocs[i];
        struct vidmm_instance keep = { 0 };
        if (al->orphan)
            continue; /* its memory stays for its opens (dxgk_allocation_orphan_free) */
        if (al->kmd_backing) {
            /* Seed 002: the KMD's pointer stays valid until DxgkDdiDestroyAllocation, which runs
             * after this: the pages are set aside and freed after it (dxgk_deferred_free_now). */
            keep.backing = al->first.backing;
            keep.mdl = al->first.mdl;
            al->first.backing = NULL;
            memset(&al->first.mdl, 0, sizeof al->first.mdl);
        }
        vidmm_instances_free_locked(a, al);
        al->first.backing = keep.backing;
        al->first.mdl = keep.mdl;
    }
    e->released = true;
}

/* The last use of the entry's device: a destruction waiting for its deferred entries may free
 * it once this ran. */
static void uncount_locked(struct dxgk_adapter *a, struct dxgk_deferred *e)
{
    WDDM_ASSERT_HELD(&a->lock);
    if (e->counted) {
        e->counted = false;
        e->device->deferred_count--;
        pthread_cond_broadcast(&a->deferred_cond);
    }
}

/* Frees a deferred entry whose allocations are idle. Called without the adapter lock. */
void dxgk_deferred_free_now(struct dxgk_adapter *a, struct dxgk_deferred *e)
{
    struct dxgk_device *d = e->device;
    /* VidMm's part first: freeing an aperture placement builds an UNMAP_APERTURE_SEGMENT, for
     * which the KMD still knows the allocation (vidmm/placement.c). */
    if (!e->released) {
        pthread_mutex_lock(&a->lock);
        release_locked(a, e);
        pthread_mutex_unlock(&a->lock);
    }
    if (e->count) {
        /* The KMD hears of every allocation, in one call or, without memory for the handle
         * array, in calls of 16 (the resource with the last). */
        HANDLE stack_h[16];
        HANDLE *h = e->count <= 16 ? stack_h : wddm_calloc(e->count, sizeof *h);
        UINT chunk = h ? e->count : 16;
        if (!h)
            h = stack_h;
        for (UINT first = 0; first < e->count; first += chunk) {
            UINT end = first + chunk < e->count ? first + chunk : e->count;
            for (UINT i = first; i < end; i++)
                h[i - first] = e->allocs[i]->kmd_device_specific;
            DXGKARG_CLOSEALLOCATION ca = { .NumAllocations = end - first, .pOpenHandleList = h };
            NTSTATUS st = a->driver.ddi.DxgkDdiCloseAllocation(d->kmd, &ca);
            if (!NT_SUCCESS(st))
                dxgk_refuse("DestroyAllocation: DxgkDdiCloseAllocation failed 0x%08x (ignored)", (unsigned)st);
        }
        /* An allocation opened from another adapter's cross-adapter resource has no
         * DxgkDdiCreateAllocation on this adapter, so no DestroyAllocation either
         * (objects/share.c): CloseAllocation above released the KMD's object. */
        UINT total = 0, k = 0, done = 0;
        for (UINT i = 0; i < e->count; i++)
            total += !e->allocs[i]->opened && !e->allocs[i]->orphan;
        for (UINT i = 0; i < e->count && done < total; i++) {
            if (e->allocs[i]->opened || e->allocs[i]->orphan)
                continue;
            h[k++] = e->allocs[i]->info.hAllocation;
            done++;
            if (k < chunk && done < total)
                continue;
            DXGKARG_DESTROYALLOCATION da = { .NumAllocations = k, .pAllocationList = h,
                                             .hResource = done == total && e->resource ? e->resource->kmd : NULL };
            NTSTATUS st = a->driver.ddi.DxgkDdiDestroyAllocation(a->miniport, &da);
            if (!NT_SUCCESS(st))
                dxgk_refuse("DestroyAllocation: DxgkDdiDestroyAllocation failed 0x%08x (ignored)", (unsigned)st);
            k = 0;
        }
        if (h != stack_h)
            free(h);
    } else if (e->resource) {
        DXGKARG_DESTROYALLOCATION da = { .hResource = e->resource->kmd };
        a->driver.ddi.DxgkDdiDestroyAllocation(a->miniport, &da);
    }
    if (e->counted) {
        pthread_mutex_lock(&a->lock);
        uncount_locked(a, e);
        pthread_mutex_unlock(&a->lock);
    }
    DXGK_COUNT(a, allocations_destroyed, e->count);
    for (UINT i = 0; i < e->count; i++) {
        struct dxgk_allocation *al = e->allocs[i];
        if (al->alias) {
            dxgk_share_alias_release(a, al); /* may free its creator's memory (issue 6) */
        } else if (al->orphan) {
            /* The creator's handle is gone; the memory goes with the last of it and its opens. */
            pthread_mutex_lock(&a->lock);
            al->orphan_entry_done = true;
            vidmm_va_unmap_via_locked(a, al, al->handle); /* the creator's own mappings go */
            bool last = dxgk_orphan_unlinked_locked(a, al);
            pthread_mutex_unlock(&a->lock);
            if (last)
                dxgk_allocation_orphan_free(a, al);
            continue;
        }
        fixed_memory_release(a, al);
        dxgk_object_put(&e->allocs[i]->obj);
    }
    if (e->resource)
        dxgk_object_put(&e->resource->obj);
    if (e->heap)
        free(e);
}

/* Issue 6: the memory of an allocation its creator destroyed while same-adapter opens named
 * it, freed with the last of the creator's entry and those opens (the GPU is done with it:
 * each of their deferred entries waited for its instances). */
void dxgk_allocation_orphan_free(struct dxgk_adapter *a, struct dxgk_allocation *x)
{
    pthread_mutex_lock(&a->lock);
    x->dead = true;
    x->lock_count = 0;
    struct vidmm_instance keep = { 0 };
    if (x->kmd_backing) {
        keep.backing = x->first.backing; /* set aside until after DestroyAllocation (seed 002) */
        keep.mdl = x->first.mdl;
        x->first.backing = NULL;
        memset(&x->first.mdl, 0, sizeof x->first.mdl);
    }
    vidmm_instances_free_locked(a, x);
    x->first.backing = keep.backing;
    x->first.mdl = keep.mdl;
    pthread_mutex_unlock(&a->lock);
    if (!x->opened) {
        DXGKARG_DESTROYALLOCATION da = { .NumAllocations = 1, .pAllocationList = &x->info.hAllocation };
        NTSTATUS st = a->driver.ddi.DxgkDdiDestroyAllocation(a->miniport, &da);
        if (!NT_SUCCESS(st))
            dxgk_refuse("DestroyAllocation: DxgkDdiDestroyAllocation failed 0x%08x (ignored)", (unsigned)st);
    }
    fixed_memory_release(a, x);
    dxgk_object_put(&x->obj); /* the reference its creator's deferred entry held */
}

void dxgk_device_link_allocation_locked(struct dxgk_device *d, struct dxgk_allocation *al)
{
    WDDM_ASSERT_HELD(&d->adapter->lock);
    al->dev_prev = NULL;
    al->dev_next = d->allocations;
    if (d->allocations)
        d->allocations->dev_prev = al;
    d->allocations = al;
}

void dxgk_device_unlink_allocation_locked(struct dxgk_device *d, struct dxgk_allocation *al)
{
    WDDM_ASSERT_HELD(&d->adapter->lock);
    if (al->dev_prev)
        al->dev_prev->dev_next = al->dev_next;
    else if (d->allocations == al)
        d->allocations = al->dev_next;
    else
        return; /* not on the list */
    if (al->dev_next)
        al->dev_next->dev_prev = al->dev_prev;
    al->dev_next = al->dev_prev = NULL;
}

/* Takes a destroyed allocation out of its resource's list at once, not when its deferred entry
 * is freed: the resource's own destruction may free the resource first (the allocation holds no
 * reference on it), and a destroyed allocation is no member a later resource destruction may
 * take again (found by fuzz.kmt: a use after free in the deferred free). */
static void resource_unlink_locked(struct dxgk_allocation *al)
{
    WDDM_ASSERT_HELD(&al->device->adapter->lock);
    if (!al->resource)
        return;
    struct dxgk_allocation **pp = &al->resource->allocations;
    while (*pp && *pp != al)
        pp = &(*pp)->res_next;
    if (*pp)
        *pp = al->res_next;
    al->resource = NULL;
    al->res_next = NULL;
}

/* Every instance of every allocation of the list retired (nothing the GPU still uses). */
static bool allocs_retired_locked(struct dxgk_adapter *a, struct dxgk_allocation *const *allocs, UINT count)
{
    WDDM_ASSERT_HELD(&a->lock);
    for (UINT i = 0; i < count; i++)
        for (const struct vidmm_instance *in = owner_of(allocs[i])->instances; in; in = in->next)
            if (!vidmm_instance_retired_locked(a, in))
                return false;
    return true;
}

/* Marks allocs destroyed (their handles are already removed; their references move into the
 * entry) and either hands the entry back to free now (idle) or defers it. */
struct dxgk_deferred *dxgk_deferred_entry_locked(struct dxgk_adapter *a, struct dxgk_device *dev,
                                                struct dxgk_allocation *const *allocs, UINT count,
                                                union dxgk_deferred_stack *stack)
{
    WDDM_ASSERT_HELD(&a->lock);
    /* GpuMmu: room to park the mapped ones on contexts whose packets are held (vaspace.c). */
    if (a->mmu && !NT_SUCCESS(vidmm_va_reserve_held_locked(dev, count)))
        return NULL;
    /* The caller's stack only when dxgk_allocation_destroy_list_locked will find the list idle:
     * every instance retired (under the adapter lock none becomes busy again) and, GpuMmu, no
     * mapped allocation that the device's contexts' tickets would stamp busy. */
    bool idle = stack && count <= DXGK_DEFERRED_STACK;
    for (UINT i = 0; i < count && idle; i++) {
        const struct dxgk_allocation *m = owner_of(allocs[i]);
        idle = !(a->mmu && m->mappings && m->current && dev->contexts);
    }
    if (idle && allocs_retired_locked(a, allocs, count)) {
        stack->e.heap = false;
        return &stack->e;
    }
    struct dxgk_deferred *e = wddm_malloc(sizeof *e + count * sizeof e->allocs[0]);
    if (e)
        e->heap = true;
    return e;
}

NTSTATUS dxgk_allocation_destroy_list_locked(struct dxgk_adapter *a, struct dxgk_device *dev,
                                              struct dxgk_resource *res, struct dxgk_allocation **allocs,
                                              UINT count, struct dxgk_deferred *e,
                                              struct dxgk_deferred **out_now)
{
    WDDM_ASSERT_HELD(&a->lock);
    /* GpuMmu (issue 6): a mapped allocation may be read by any packet its device queued before
     * the destruction: it is freed (and unmapped) only once they retired. */
    for (UINT i = 0; i < count && a->mmu; i++)
        if (owner_of(allocs[i])->mappings && owner_of(allocs[i])->current)
            vidmm_va_device_use_locked(dev, owner_of(allocs[i])->current);
    bool idle = allocs_retired_locked(a, allocs, count);
    /* e came from dxgk_deferred_entry_locked before the handles went: a stack entry only for a
     * list found idle here too, so nothing below can fail. */
    e->released = false;
    e->next = NULL;
    e->device = dev;
    e->resource = res;
    e->counted = false;
    e->count = count;
    for (UINT i = 0; i < count; i++) {
        struct dxgk_allocation *al = allocs[i];
        e->allocs[i] = al;
        if (al->aliases || al->nt_holds) {
            /* Issue 6: same-adapter opens name its memory, or an NT handle holds it
             * (objects/share.c): it stays, usable through them. */
            al->orphan = true;
        } else {
            al->dead = true;
            al->lock_count = 0; /* destroying a locked allocation unlocks it */
        }
        dxgk_device_unlink_allocation_locked(dev, al);
        resource_unlink_locked(al);
    }
    if (res)
        res->dead = true;
    if (!idle) {
        e->next = a->deferred;
        a->deferred = e;
        a->deferred_count++;
        /* The DPC reads deferred_count without the lock to decide whether to wake the worker
         * that frees deferred entries (sched/interrupt.c). If the last packet using these
         * allocations retired just before the count went up, nothing would free the entry
         * until some later wake-up: look again after a full fence (the DPC fences between
         * retiring packets and reading the count), so one side always sees the other. */
        atomic_thread_fence(memory_order_seq_cst);
        idle = entry_idle_locked(a, e);
        if (idle) {
            a->deferred = e->next;
            a->deferred_count--;
            e->next = NULL;
        }
    }
    if (idle) {
        release_locked(a, e); /* the KMD calls follow without the lock */
        *out_now = e;
    } else {
        dev->deferred_count++;
        e->counted = true;
        *out_now = NULL;
    }
    return STATUS_SUCCESS;
}

/* Frees the deferred entries (of one device, or all) whose allocations became idle; with wait,
 * blocks until every such entry is freed. Never holds the adapter lock across a wait. */
void dxgk_deferred_process(struct dxgk_adapter *a, struct dxgk_device *only, bool wait)
{
    for (;;) {
        struct dxgk_deferred *ready = NULL;
        bool busy = false;
        UINT64 tickets[DXGK_MAX_NODES];
        pthread_mutex_lock(&a->lock);
        for (struct dxgk_deferred **pp = &a->deferred; *pp;) {
            struct dxgk_deferred *e = *pp;
            if (only && e->device != only) {
                pp = &e->next;
                continue;
            }
            if (entry_idle_locked(a, e)) {
                *pp = e->next;
                a->deferred_count--;
                e->next = ready;
                ready = e;
            } else {
                busy = true;
                pp = &e->next;
            }
        }
        for (UINT i = 0; i < a->node_count; i++)
            tickets[i] = a->node[i].queued_ticket;
        pthread_mutex_unlock(&a->lock);
        while (ready) {
            struct dxgk_deferred *e = ready;
            ready = e->next;
            dxgk_deferred_free_now(a, e);
        }
        if (!wait || !busy)
            return;
        /* Everything queued so far retires, then the paging nodes drain. */
        for (UINT i = 0; i < a->node_count; i++)
            gsched_wait_ticket(&a->node[i], tickets[i]);
        for (UINT i = 0; i < a->node_count; i++)
            gsched_wait_node_idle(&a->node[i]);
    }
}

static NTSTATUS kmd_destroy(struct dxgk_adapter *a, DXGK_ALLOCATIONINFO *info, UINT n, HANDLE kmd_res)
{
    HANDLE h[n ? n : 1];
    UINT k = 0;
    for (UINT i = 0; i < n; i++)
        if (info[i].hAllocation)
            h[k++] = info[i].hAllocation;
    DXGKARG_DESTROYALLOCATION da = { .NumAllocations = k, .pAllocationList = h, .hResource = kmd_res };
    return a->driver.ddi.DxgkDdiDestroyAllocation(a->miniport, &da);
}

#define CREATE_MAX_ALLOCATIONS 4096u

/* D3DKMTCreateAllocation and D3DKMTCreateAllocation2: `ui` is the call's n allocation
 * descriptions (the v1 form; D3DKMTCreateAllocation2 converts its own), `priority` NULL or one
 * D3DDDI_ALLOCATIONPRIORITY_* per allocation to use in place of the KMD's (0: the KMD's). */
/* D3DKMTCreateAllocation as phases over one operation (issue 16): validate the call, its
 * resource, describe the allocations through the KMD, charge their commit (and create the
 * share), build the objects, give them handles, open them for the device, publish - or undo
 * exactly what was done. */
struct create_op {
    D3DKMT_CREATEALLOCATION *args;
    D3DDDI_ALLOCATIONINFO *ui;        /* the call's n descriptions (v1 form) */
    const UINT *priority;             /* NULL, or per allocation (0: the KMD's) */
    D3DGPU_VIRTUAL_ADDRESS *va;       /* NULL, or each allocation's IoMmu address (out) */
    struct dxgk_device *d;
    struct dxgk_adapter *a;
    UINT n;
    bool cross_adapter, existing_sysmem;
    struct dxgk_resource *res;        /* the resource the allocations join, one reference; NULL: none */
    bool new_res;                     /* CreateResource: made by this call */
    DXGK_ALLOCATIONINFO stack_info[4];
    DXGK_ALLOCATIONINFO *info;
    struct dxgk_allocation *stack_al[4];
    struct dxgk_allocation **al;
    bool kmd_created;                 /* DxgkDdiCreateAllocation succeeded: undone by kmd_destroy */
    struct dxgk_share *share;         /* CreateShared: owned here until the call succeeds */
    UINT64 charge;                    /* commit charged, given back on failure */
};

/* Phase 1 (a): the flags and each description, before anything is made. */
static NTSTATUS create_check_entries(struct create_op *op)
{
    const D3DKMT_CREATEALLOCATION *args = op->args;
    for (UINT i = 0; i < op->n; i++) {
        const D3DDDI_ALLOCATIONINFO *u = &op->ui[i];
        if (u->PrivateDriverDataSize && !u->pPrivateDriverData) {
            dxgk_refuse("D3DKMTCreateAllocation: allocation %u has PrivateDriverDataSize %u with NULL data", i,
                        u->PrivateDriverDataSize);
            return STATUS_INVALID_PARAMETER;
        }
        if (u->pSystemMem)
            op->existing_sysmem = true;
        /* Primaries (issue 6, minimal: no display engine): the model has one video present
         * source, 0. Stereo requires Primary (docs/semantics.md §3.5); the reserved bits are 0. */
        if (u->Flags.Reserved || (u->Flags.Stereo && !u->Flags.Primary) ||
            (u->Flags.Primary && u->VidPnSourceId != 0)) {
            dxgk_refuse("D3DKMTCreateAllocation: allocation %u: D3DDDI_ALLOCATIONINFO.Flags 0x%x with VidPnSourceId "
                        "%u: Stereo needs Primary, a primary names VidPnSourceId 0 (the one source), reserved "
                        "bits must be 0", i, u->Flags.Value, u->VidPnSourceId);
            return STATUS_INVALID_PARAMETER;
        }
        if (u->Flags.Primary && (op->cross_adapter || args->Flags.CreateShared)) {
            /* FIXME(primary): shared primaries (D3DKMDT_SHAREDPRIMARYSURFACEDATA) are not modelled. */
            dxgk_refuse("D3DKMTCreateAllocation: allocation %u: a shared or cross-adapter primary is not supported", i);
            return STATUS_NOT_SUPPORTED;
        }
    }
    if (args->Flags.CreateShared && !args->Flags.CreateResource) {
        /* WDK: D3DKMT_CREATEALLOCATION ("If you set CreateShared, you must also set
         * CreateResource"); Windows refuses it (Wine win32u d3dkmt tests, run on Windows). */
        dxgk_refuse("D3DKMTCreateAllocation: CreateShared without CreateResource");
        return STATUS_INVALID_PARAMETER;
    }
    if (args->Flags.CreateResource && args->hResource) {
        /* Windows: hResource is 0 even with CreateResource; anything else is no handle of a
         * resource to create (Wine win32u d3dkmt tests, run on Windows). */
        dxgk_refuse("D3DKMTCreateAllocation: CreateResource with hResource 0x%08x (must be 0)", args->hResource);
        return STATUS_INVALID_HANDLE;
    }
    return STATUS_SUCCESS;
}

/* Phase 1: the call - counts, private data, cross-adapter (seed 003), protected content,
 * existing system memory (the KMD sees it first: it may ask ShareBackingStoreWithKmd, which the
 * verifier refuses with it, seed 002; then it is refused as not modelled). */
static NTSTATUS create_check(struct create_op *op)
{
    const D3DKMT_CREATEALLOCATION *args = op->args;
    if (op->n == 0 || op->n > CREATE_MAX_ALLOCATIONS || !op->ui) {
        dxgk_refuse("D3DKMTCreateAllocation: NumAllocations %u not in 1..%u or pAllocationInfo NULL", op->n,
                    CREATE_MAX_ALLOCATIONS);
        return STATUS_INVALID_PARAMETER;
    }
    if (args->PrivateDriverDataSize && !args->pPrivateDriverData) {
        dxgk_refuse("D3DKMTCreateAllocation: PrivateDriverDataSize %u with NULL pPrivateDriverData",
                    args->PrivateDriverDataSize);
        return STATUS_INVALID_PARAMETER;
    }
    if (op->cross_adapter) {
        /* Seed 003: a cross-adapter resource is shared and has one allocation; only an adapter
         * that declares tier 1 (DXGK_VIDMMCAPS.CrossAdapterResource) makes one. */
        if (!args->Flags.CreateShared || !args->Flags.CreateResource || op->n != 1 || args->Flags.ExistingSysMem) {
            dxgk_refuse("D3DKMTCreateAllocation: a CrossAdapter resource needs CreateShared and CreateResource and "
                        "exactly one allocation, without ExistingSysMem; got shared %u, resource %u, "
                        "%u allocations", args->Flags.CreateShared, args->Flags.CreateResource, op->n);
            return STATUS_INVALID_PARAMETER;
        }
        if (!op->a->caps.MemoryManagementCaps.CrossAdapterResource) {
            dxgk_refuse("D3DKMTCreateAllocation: CrossAdapter on an adapter without "
                        "DXGK_VIDMMCAPS.CrossAdapterResource");
            return STATUS_NOT_SUPPORTED;
        }
    }
    if (args->Flags.CreateProtected) {
        /* FIXME(sharing): protected allocations are not modelled. */
        dxgk_refuse("D3DKMTCreateAllocation: CreateProtected not supported");
        return STATUS_NOT_SUPPORTED;
    }
    op->existing_sysmem = args->Flags.ExistingSysMem;
    return create_check_entries(op);
}

/* Phase 2: the resource - a new one (its handle is inserted with the allocations'; the KMD's
 * CreateAllocation does not see kernel resource handles) or the existing hResource. */
static NTSTATUS create_resource(struct create_op *op)
{
    const D3DKMT_CREATEALLOCATION *args = op->args;
    if (args->Flags.CreateResource) {
        struct dxgk_resource *res = object_alloc(sizeof *res);
        if (!res)
            return STATUS_NO_MEMORY;
        dxgk_object_init(&res->obj, DXGK_TYPE_RESOURCE, resource_release);
        res->device = op->d;
        op->res = res;
        op->new_res = true;
    } else if (args->hResource) {
        op->res = (struct dxgk_resource *)dxgk_handle_get(args->hResource, DXGK_TYPE_RESOURCE);
        if (!op->res || op->res->device != op->d) {
            /* A bad hResource is an invalid handle (Wine win32u d3dkmt tests, run on Windows). */
            dxgk_refuse("D3DKMTCreateAllocation: invalid resource handle 0x%08x for device 0x%08x",
                        args->hResource, args->hDevice);
            return STATUS_INVALID_HANDLE;
        }
    }
    return STATUS_SUCCESS;
}

/* Phase 3: DxgkDdiCreateAllocation describes them; the verifier holds each description to the
 * rules (and to the flags of the call). */
static NTSTATUS create_describe(struct create_op *op)
{
    struct dxgk_adapter *a = op->a;
    UINT n = op->n;
    if (n > 4) {
        op->info = wddm_calloc(n, sizeof *op->info);
        op->al = wddm_calloc(n, sizeof *op->al);
        if (!op->info || !op->al)
            return STATUS_NO_MEMORY;
    }
    memset(op->info, 0, n * sizeof *op->info);
    for (UINT i = 0; i < n; i++) {
        op->info[i].pPrivateDriverData = op->ui[i].pPrivateDriverData;
        op->info[i].PrivateDriverDataSize = op->ui[i].PrivateDriverDataSize;
    }
    DXGKARG_CREATEALLOCATION ca = { .pPrivateDriverData = op->args->pPrivateDriverData,
                                    .PrivateDriverDataSize = op->args->PrivateDriverDataSize,
                                    .NumAllocations = n, .pAllocationInfo = op->info,
                                    .hResource = (op->res && !op->new_res) ? op->res->kmd : NULL };
    ca.Flags.Resource = op->res ? 1 : 0;
    NTSTATUS st = a->driver.ddi.DxgkDdiCreateAllocation(a->miniport, &ca);
    if (!NT_SUCCESS(st)) {
        dxgk_refuse("D3DKMTCreateAllocation: DxgkDdiCreateAllocation failed 0x%08x", (unsigned)st);
        return st;
    }
    op->kmd_created = true;
    if (op->new_res)
        op->res->kmd = ca.hResource;
    for (UINT i = 0; i < n; i++) {
        if (!dxgk_verify_allocation_info(a, &op->info[i], i) ||
            !dxgk_verify_share_backing_store(a, &op->info[i], i, op->args->Flags.CreateShared,
                                             op->existing_sysmem) ||
            (op->ui[i].Flags.Primary && !dxgk_verify_primary(a, &op->info[i], i)) ||
            (op->cross_adapter && !dxgk_verify_cross_adapter(a, &op->info[i], i)))
            return STATUS_INVALID_PARAMETER;
    }
    if (op->existing_sysmem) {
        /* FIXME(sharing): existing system memory as backing store is not modelled. */
        dxgk_refuse("D3DKMTCreateAllocation: ExistingSysMem / pSystemMem not supported");
        return STATUS_NOT_SUPPORTED;
    }
    return STATUS_SUCCESS;
}

/* Phase 4: the backing stores' commit (vidmm/budget.c), all or nothing, before any object
 * exists; then the global share (hGlobalShare) and, cross-adapter, the pages every adapter maps. */
static NTSTATUS create_charge(struct create_op *op)
{
    UINT64 charge = 0;
    for (UINT i = 0; i < op->n; i++)
        charge += op->info[i].Size;
    if (!vidmm_commit_charge(charge)) {
        dxgk_refuse("D3DKMTCreateAllocation: %llu bytes exceed the system-memory budget", (unsigned long long)charge);
        return STATUS_NO_MEMORY;
    }
    op->charge = charge;
    if (op->args->Flags.CreateShared)
        return dxgk_share_create(op->a, op->args, &op->info[0], op->cross_adapter, &op->share);
    return STATUS_SUCCESS;
}

/* Phase 5 (one allocation): the object, with its fixed backing store where it has one - the
 * share's pages (cross-adapter, seed 003), a section (SectionBackedPrimary), or pages given to
 * the KMD before the call returns (ShareBackingStoreWithKmd: seed 002, docs/semantics.md §7 rules
 * 3, 4 and 8). Each is kmd_backing: never renamed, freed after DxgkDdiDestroyAllocation. */
static NTSTATUS create_build_one(struct create_op *op, UINT i)
{
    struct dxgk_adapter *a = op->a;
    const DXGK_ALLOCATIONINFO *info = &op->info[i];
    struct dxgk_allocation *x = object_alloc(sizeof *x);
    if (!x)
        return STATUS_NO_MEMORY;
    dxgk_object_init(&x->obj, DXGK_TYPE_ALLOCATION, dxgk_allocation_release);
    x->device = op->d;
    x->resource = op->res;
    x->info = *info;
    /* The KMD's default until SetAllocationPriority, unless D3DKMTCreateAllocation2 overrode it. */
    x->priority = op->priority && op->priority[i] ? op->priority[i] : info->AllocationPriority;
    x->first.alloc = x;
    x->instances = x->instances_tail = x->current = &x->first;
    x->instance_count = 1;
    op->al[i] = x;
    if (i == 0)
        x->share = op->share; /* the share's first reference, once the call succeeds */
    if (op->cross_adapter) {
        if (!dxgk_share_attach(op->share, op->a, &x->first))
            return STATUS_NO_MEMORY;
        x->kmd_backing = true;
    }
    x->primary = op->ui[i].Flags.Primary;
    if (x->primary && a->caps.MemoryManagementCaps.SectionBackedPrimary) {
        if (!vidmm_backing_commit_section(a, &x->first))
            return STATUS_NO_MEMORY;
        x->kmd_backing = true;
    }
    NTSTATUS iost = vidmm_va_iommu_attach(a, x); /* IoMmu: its address, shared with the CPU */
    if (!NT_SUCCESS(iost))
        return iost;
    if (!info->Flags2.ShareBackingStoreWithKmd)
        return STATUS_SUCCESS;
    if (!vidmm_backing_commit(a, &x->first))
        return STATUS_NO_MEMORY;
    x->kmd_backing = true;
    if (!a->driver.ddi.DxgkDdiSetAllocationBackingStore) {
        dxgk_refuse("D3DKMTCreateAllocation: allocation %u is ShareBackingStoreWithKmd but the KMD has "
                    "no DxgkDdiSetAllocationBackingStore", i);
        return STATUS_INVALID_PARAMETER;
    }
    DXGKARG_SETALLOCATIONBACKINGSTORE sb = { .hDriverAllocation = info->hAllocation,
                                             .pBackingStore = x->first.backing };
    NTSTATUS st = a->driver.ddi.DxgkDdiSetAllocationBackingStore(a->miniport, &sb);
    if (!NT_SUCCESS(st))
        dxgk_refuse("D3DKMTCreateAllocation: DxgkDdiSetAllocationBackingStore failed 0x%08x", (unsigned)st);
    return st;
}

/* Phase 6: every handle of the call (the allocations', then a new resource's) in one
 * acquisition of the handle-table lock; unpublished until the end. */
static NTSTATUS create_handles(struct create_op *op)
{
    UINT n = op->n;
    struct dxgk_object *stack_objs[5];
    D3DKMT_HANDLE stack_h[5];
    UINT m = n + (op->new_res ? 1u : 0u);
    struct dxgk_object **objs = m <= 5 ? stack_objs : wddm_calloc(m, sizeof *objs);
    D3DKMT_HANDLE *hs = m <= 5 ? stack_h : wddm_calloc(m, sizeof *hs);
    bool ok = objs && hs;
    if (ok) {
        for (UINT i = 0; i < n; i++)
            objs[i] = &op->al[i]->obj;
        if (op->new_res)
            objs[n] = &op->res->obj;
        ok = dxgk_handle_insert_n(objs, m, hs);
    }
    if (ok) {
        for (UINT i = 0; i < n; i++)
            op->al[i]->handle = hs[i];
        if (op->new_res)
            op->res->handle = hs[n];
    }
    if (objs != stack_objs)
        free(objs);
    if (hs != stack_h)
        free(hs);
    return ok ? STATUS_SUCCESS : STATUS_NO_MEMORY;
}

/* Phase 7: DxgkDdiOpenAllocation for the creating device (DXGK_OPENALLOCATIONFLAGS.Create). */
static NTSTATUS create_open(struct create_op *op)
{
    UINT n = op->n;
    DXGK_OPENALLOCATIONINFO stack_open[4];
    DXGK_OPENALLOCATIONINFO *open = n <= 4 ? stack_open : wddm_calloc(n, sizeof *open);
    if (!open)
        return STATUS_NO_MEMORY;
    for (UINT i = 0; i < n; i++)
        open[i] = (DXGK_OPENALLOCATIONINFO){ .hAllocation = op->al[i]->handle,
                                             .pPrivateDriverData = op->info[i].pPrivateDriverData,
                                             .PrivateDriverDataSize = op->info[i].PrivateDriverDataSize };
    DXGKARG_OPENALLOCATION oa = { .NumAllocations = n, .pOpenAllocation = open,
                                  .Flags = 0x1 /* DXGK_OPENALLOCATIONFLAGS.Create */ };
    NTSTATUS st = op->a->driver.ddi.DxgkDdiOpenAllocation(op->d->kmd, &oa);
    for (UINT i = 0; i < n; i++)
        op->al[i]->kmd_device_specific = open[i].hDeviceSpecificAllocation;
    if (open != stack_open)
        free(open);
    if (!NT_SUCCESS(st))
        dxgk_refuse("D3DKMTCreateAllocation: DxgkDdiOpenAllocation failed 0x%08x", (unsigned)st);
    return st;
}

/* Phase 8: linked to the device and the resource (unless either is being destroyed: then the
 * opens are closed and the call fails), the share published before the adapter lock goes (from
 * then on a device destruction may free al[0] and its share reference: objects/share.c), then
 * the handles (lock-free: dxgkrnl/handle.c) and the outputs (hGlobalShare and hResource 0 when
 * nothing is shared / no resource: Wine win32u d3dkmt tests, run on Windows). */
static NTSTATUS create_publish(struct create_op *op)
{
    struct dxgk_adapter *a = op->a;
    struct dxgk_device *d = op->d;
    pthread_mutex_lock(&a->lock);
    if (d->dead || (op->res && op->res->dead)) {
        pthread_mutex_unlock(&a->lock);
        dxgk_refuse("D3DKMTCreateAllocation: device or resource is being destroyed");
        for (UINT i = 0; i < op->n; i++) {
            DXGKARG_CLOSEALLOCATION cl = { .NumAllocations = 1, .pOpenHandleList = &op->al[i]->kmd_device_specific };
            a->driver.ddi.DxgkDdiCloseAllocation(d->kmd, &cl);
        }
        return STATUS_INVALID_PARAMETER;
    }
    for (UINT i = 0; i < op->n; i++) {
        dxgk_device_link_allocation_locked(d, op->al[i]);
        if (op->res) {
            op->al[i]->res_next = op->res->allocations;
            op->res->allocations = op->al[i];
        }
    }
    op->args->hGlobalShare = 0;
    if (op->share) {
        dxgk_share_set_owner(op->share, op->al[0]); /* same-adapter opens name its memory (issue 6) */
        op->args->hGlobalShare = dxgk_share_publish(op->share);
    }
    op->share = NULL; /* al[0] holds it */
    pthread_mutex_unlock(&a->lock);
    for (UINT i = 0; i < op->n; i++)
        dxgk_handle_publish(op->al[i]->handle);
    if (op->new_res)
        dxgk_handle_publish(op->res->handle);
    for (UINT i = 0; i < op->n; i++) {
        op->ui[i].hAllocation = op->al[i]->handle;
        if (op->va)
            op->va[i] = vidmm_va_iommu_address(a, op->al[i]);
    }
    op->args->hResource = op->res ? op->res->handle : 0;
    DXGK_COUNT(a, allocations_created, op->n);
    /* Success: a new resource's reference stays with its handle; the objects are the caller's. */
    if (op->new_res)
        op->res = NULL;
    op->kmd_created = false;
    op->charge = 0;
    op->n = 0;
    return STATUS_SUCCESS;
}

/* A failed call: the KMD first (a backing store it was given stays valid until its
 * DestroyAllocation, seed 002); objects whose handles were inserted give them back, the others
 * are dropped directly (before the n > 4 arrays exist only the 4-entry stack array does). */
static void create_undo(struct create_op *op)
{
    if (op->kmd_created)
        kmd_destroy(op->a, op->info, op->n, op->new_res && op->res ? op->res->kmd : NULL);
    UINT al_len = op->al == op->stack_al ? (UINT)(sizeof op->stack_al / sizeof op->stack_al[0]) : op->n;
    for (UINT i = 0; i < op->n && i < al_len && op->al; i++) {
        struct dxgk_allocation *x = op->al[i];
        if (!x)
            continue;
        if (op->cross_adapter)
            dxgk_share_attach_undo(op->share, op->a, &x->first); /* the share's pages, freed with it below */
        x->share = NULL;
        vidmm_va_iommu_detach_unpublished(x);
        vidmm_backing_free(op->a, &x->first); /* committed only for a ShareBackingStoreWithKmd one, a
                                          section-backed primary or in the IoMmu model */
        dxgk_object_put(x->handle ? dxgk_handle_remove(x->handle, DXGK_TYPE_ALLOCATION) : &x->obj);
    }
    if (op->charge)
        vidmm_commit_uncharge(op->charge);
    dxgk_share_put(op->share);
    if (op->new_res && op->res) {
        dxgk_object_put(op->res->handle ? dxgk_handle_remove(op->res->handle, DXGK_TYPE_RESOURCE) : &op->res->obj);
        op->res = NULL;
    }
}

static NTSTATUS create_allocation(D3DKMT_CREATEALLOCATION *args, D3DDDI_ALLOCATIONINFO *ui, const UINT *priority,
                                  D3DGPU_VIRTUAL_ADDRESS *va)
{
    struct dxgk_device *d = dxgk_device_get(args->hDevice);
    if (!d) {
        dxgk_refuse("D3DKMTCreateAllocation: invalid device handle 0x%08x", args->hDevice);
        return STATUS_INVALID_PARAMETER;
    }
    if (__atomic_load_n(&d->error, __ATOMIC_RELAXED) == STATUS_DEVICE_REMOVED) {
        /* A device lost to a timeout recovery creates nothing more (docs/semantics.md §8.3). */
        dxgk_refuse("D3DKMTCreateAllocation: device 0x%08x is lost", args->hDevice);
        dxgk_device_put(d);
        return STATUS_DEVICE_REMOVED;
    }
    struct create_op op = { .args = args, .ui = ui, .priority = priority, .va = va, .d = d, .a = d->adapter,
                            .n = args->NumAllocations, .cross_adapter = args->Flags.CrossAdapter };
    op.info = op.stack_info;
    op.al = op.stack_al;
    NTSTATUS st = create_check(&op);
    if (NT_SUCCESS(st))
        st = create_resource(&op);
    if (NT_SUCCESS(st))
        st = create_describe(&op);
    if (NT_SUCCESS(st))
        st = create_charge(&op);
    for (UINT i = 0; NT_SUCCESS(st) && i < op.n; i++)
        st = create_build_one(&op, i);
    if (NT_SUCCESS(st))
        st = create_handles(&op);
    if (NT_SUCCESS(st))
        st = create_open(&op);
    if (NT_SUCCESS(st))
        st = create_publish(&op);
    if (!NT_SUCCESS(st))
        create_undo(&op);
    if (op.res)
        dxgk_object_put(&op.res->obj);
    if (op.info != op.stack_info)
        free(op.info);
    if (op.al != op.stack_al)
        free(op.al);
    dxgk_device_put(d);
    return st;
}

NTSTATUS APIENTRY D3DKMTCreateAllocation(D3DKMT_CREATEALLOCATION *args)
{
    if (!args) {
        dxgk_refuse("D3DKMTCreateAllocation: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    return create_allocation(args, args->pAllocationInfo, NULL, NULL);
}

/* WDK: D3DKMTCreateAllocation2: D3DKMTCreateAllocation with D3DDDI_ALLOCATIONINFO2 descriptions;
 * each one's GpuVirtualAddress is 0 in the GpuMmu model (creation maps nothing:
 * D3DKMTMapGpuVirtualAddress does) and in the IoMmu model the address the CPU and the GPU share
 * (docs/semantics.md §9.6); with Flags.OverridePriority its Priority replaces the KMD's. */
NTSTATUS APIENTRY D3DKMTCreateAllocation2(D3DKMT_CREATEALLOCATION *args)
{
    if (!args) {
        dxgk_refuse("D3DKMTCreateAllocation2: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    UINT n = args->NumAllocations;
    D3DDDI_ALLOCATIONINFO2 *in = args->pAllocationInfo2;
    if (!in || n == 0 || n > CREATE_MAX_ALLOCATIONS)
        return create_allocation(args, NULL, NULL, NULL); /* refused there, with the same words */
    D3DDDI_ALLOCATIONINFO *ui = wddm_calloc(n, sizeof *ui);
    UINT *priority = wddm_calloc(n, sizeof *priority);
    D3DGPU_VIRTUAL_ADDRESS *va = wddm_calloc(n, sizeof *va);
    if (!ui || !priority || !va) {
        free(ui);
        free(priority);
        free(va);
        return STATUS_NO_MEMORY;
    }
    NTSTATUS st = STATUS_SUCCESS;
    for (UINT i = 0; i < n; i++) {
        if (in[i].Flags.OverridePriority && !in[i].Priority) {
            dxgk_refuse("D3DKMTCreateAllocation2: allocation %u: OverridePriority with Priority 0 "
                        "(D3DDDI_ALLOCATIONPRIORITY: 0 is no priority)", i);
            st = STATUS_INVALID_PARAMETER;
            break;
        }
        /* Primary and Stereo are the same bits in both forms; OverridePriority is taken here. */
        ui[i] = (D3DDDI_ALLOCATIONINFO){ .pSystemMem = in[i].pSystemMem,
                                         .pPrivateDriverData = in[i].pPrivateDriverData,
                                         .PrivateDriverDataSize = in[i].PrivateDriverDataSize,
                                         .VidPnSourceId = in[i].VidPnSourceId };
        ui[i].Flags.Value = in[i].Flags.Value & ~0x4u;
        priority[i] = in[i].Flags.OverridePriority ? in[i].Priority : 0;
    }
    if (NT_SUCCESS(st))
        st = create_allocation(args, ui, priority, va);
    if (NT_SUCCESS(st)) {
        for (UINT i = 0; i < n; i++) {
            in[i].hAllocation = ui[i].hAllocation;
            in[i].GpuVirtualAddress = va[i];
        }
    }
    free(ui);
    free(priority);
    free(va);
    return st;
}

/* One D3DKMTDestroyAllocation(2): the allocations it takes down and what is freed after the
 * locks are released. */
struct destroy_op {
    struct dxgk_device *d;
    struct dxgk_adapter *a;
    struct dxgk_allocation *stack_al[8];
    struct dxgk_allocation **al; /* stack_al, or the heap for more than 8 (rare: this UMD makes one per resource) */
    UINT n;
    struct dxgk_deferred *now; /* allocations already idle: freed at the end */
    union dxgk_deferred_stack stack; /* last: its entry ends in a flexible array */
};

/* Room for cnt allocations; false (out of memory) leaves al on the stack. */
static bool destroy_room(struct destroy_op *op, UINT cnt)
{
    if (cnt <= sizeof op->stack_al / sizeof op->stack_al[0])
        return true;
    struct dxgk_allocation **al = wddm_calloc(cnt, sizeof *al);
    if (al)
        op->al = al;
    return al != NULL;
}

/* docs/semantics.md §3.5: hResource != 0 releases every allocation of it and the resource. Lookup,
 * ownership check and removal of the resource's handle and of its allocations' handles happen in
 * one acquisition of the handle-table lock (nested in the adapter lock, as every removal is): a
 * concurrent destroy of the same handle finds it gone. */
static NTSTATUS destroy_resource(struct destroy_op *op, const D3DKMT_DESTROYALLOCATION *args)
{
    struct dxgk_adapter *a = op->a;
    pthread_mutex_lock(&a->lock);
    dxgk_handle_lock();
    /* No lookup reference: the handle's reference keeps it alive while the table lock is held,
     * and moves to the deferred entry with the removal below. */
    struct dxgk_resource *res =
        (struct dxgk_resource *)dxgk_handle_find_locked(args->hResource, DXGK_TYPE_RESOURCE);
    if (!res || res->device != op->d) {
        dxgk_handle_unlock();
        pthread_mutex_unlock(&a->lock);
        dxgk_refuse("D3DKMTDestroyAllocation: invalid resource handle 0x%08x for device 0x%08x",
                    args->hResource, args->hDevice);
        return STATUS_INVALID_PARAMETER;
    }
    UINT cnt = 0;
    for (struct dxgk_allocation *x = res->allocations; x; x = x->res_next)
        if (!x->dead)
            cnt++;
    struct dxgk_deferred *e = NULL;
    if (destroy_room(op, cnt)) {
        for (struct dxgk_allocation *x = res->allocations; x; x = x->res_next)
            if (!x->dead)
                op->al[op->n++] = x;
        e = dxgk_deferred_entry_locked(a, op->d, op->al, op->n, &op->stack);
    }
    if (!e) { /* out of memory before anything was removed: the resource stays intact */
        op->n = 0;
        dxgk_handle_unlock();
        pthread_mutex_unlock(&a->lock);
        return STATUS_NO_MEMORY;
    }
    /* The handle's reference moves into the deferred entry. */
    (void)dxgk_handle_remove_locked(args->hResource, DXGK_TYPE_RESOURCE);
    UINT k = 0;
    for (UINT i = 0; i < op->n; i++)
        if (dxgk_handle_remove_locked(op->al[i]->handle, DXGK_TYPE_ALLOCATION))
            op->al[k++] = op->al[i];
    op->n = k;
    dxgk_handle_unlock();
    NTSTATUS st = dxgk_allocation_destroy_list_locked(a, op->d, res, op->al, op->n, e, &op->now);
    pthread_mutex_unlock(&a->lock);
    return st;
}

/* Looks up every handle of the list first, with a reference each: a bad one destroys nothing. */
static NTSTATUS destroy_list_lookup(struct destroy_op *op, const D3DKMT_DESTROYALLOCATION *args)
{
    for (UINT i = 0; i < args->AllocationCount; i++) {
        struct dxgk_allocation *x =
            (struct dxgk_allocation *)dxgk_handle_get(args->phAllocationList[i], DXGK_TYPE_ALLOCATION);
        if (!x || x->device != op->d) {
            dxgk_refuse("D3DKMTDestroyAllocation: invalid allocation handle 0x%08x (entry %u) for device 0x%08x",
                        args->phAllocationList[i], i, args->hDevice);
            if (x)
                dxgk_object_put(&x->obj);
            for (UINT j = 0; j < op->n; j++)
                dxgk_object_put(&op->al[j]->obj);
            op->n = 0;
            return STATUS_INVALID_PARAMETER;
        }
        op->al[op->n++] = x;
    }
    return STATUS_SUCCESS;
}

/* The allocations named by phAllocationList. */
static NTSTATUS destroy_list(struct destroy_op *op, const D3DKMT_DESTROYALLOCATION *args)
{
    if (!args->phAllocationList) {
        dxgk_refuse("D3DKMTDestroyAllocation: AllocationCount %u with a NULL phAllocationList", args->AllocationCount);
        return STATUS_INVALID_PARAMETER;
    }
    if (!destroy_room(op, args->AllocationCount))
        return STATUS_NO_MEMORY;
    NTSTATUS st = destroy_list_lookup(op, args);
    if (!NT_SUCCESS(st))
        return st;
    struct dxgk_adapter *a = op->a;
    UINT n = op->n;
    pthread_mutex_lock(&a->lock);
    struct dxgk_deferred *e = dxgk_deferred_entry_locked(a, op->d, op->al, n, &op->stack);
    if (!e) { /* out of memory before any handle went: the allocations stay */
        pthread_mutex_unlock(&a->lock);
        for (UINT j = 0; j < n; j++)
            dxgk_object_put(&op->al[j]->obj);
        return STATUS_NO_MEMORY;
    }
    UINT k = 0;
    for (UINT i = 0; i < n; i++) {
        struct dxgk_allocation *x = op->al[i];
        /* The handle's reference moves into the deferred entry; then drop the lookup's. */
        if (dxgk_handle_remove(x->handle, DXGK_TYPE_ALLOCATION))
            op->al[k++] = x;
        dxgk_object_put(&x->obj);
    }
    st = k ? dxgk_allocation_destroy_list_locked(a, op->d, NULL, op->al, k, e, &op->now) : STATUS_SUCCESS;
    if (!k && e->heap)
        free(e);
    pthread_mutex_unlock(&a->lock);
    if (k != n) {
        dxgk_refuse("D3DKMTDestroyAllocation: an allocation in the list was destroyed twice");
        st = STATUS_INVALID_PARAMETER;
    }
    return st;
}

/* D3DKMTDestroyAllocation and D3DKMTDestroyAllocation2 (the same fields but the flags). */
static NTSTATUS destroy_allocation(const D3DKMT_DESTROYALLOCATION *args)
{
    struct dxgk_device *d = dxgk_device_get(args->hDevice);
    if (!d) {
        dxgk_refuse("D3DKMTDestroyAllocation: invalid device handle 0x%08x", args->hDevice);
        return STATUS_INVALID_PARAMETER;
    }
    struct destroy_op op = { .d = d, .a = d->adapter };
    op.al = op.stack_al;
    NTSTATUS st;
    if (args->hResource)
        st = destroy_resource(&op, args);
    else if (!args->AllocationCount)
        st = STATUS_SUCCESS; /* nothing named, nothing destroyed (Wine win32u d3dkmt tests, run on Windows) */
    else
        st = destroy_list(&op, args);
    if (op.now)
        dxgk_deferred_free_now(op.a, op.now);
    if (op.al != op.stack_al)
        free(op.al);
    dxgk_device_put(d);
    return st;
}

NTSTATUS APIENTRY D3DKMTDestroyAllocation(const D3DKMT_DESTROYALLOCATION *args)
{
    if (!args) {
        dxgk_refuse("D3DKMTDestroyAllocation: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    return destroy_allocation(args);
}

/* WDK: D3DKMTDestroyAllocation2. AssumeNotInUse and SynchronousDestroy change nothing here: the
 * memory is freed once the GPU is done with it either way (deferred destruction above), and the
 * handles are gone when the call returns. The reserved bits are 0. */
NTSTATUS APIENTRY D3DKMTDestroyAllocation2(const D3DKMT_DESTROYALLOCATION2 *args)
{
    if (!args) {
        dxgk_refuse("D3DKMTDestroyAllocation2: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    if (args->Flags.Reserved || args->Flags.SystemUseOnly) {
        dxgk_refuse("D3DKMTDestroyAllocation2: Flags 0x%x: only AssumeNotInUse and SynchronousDestroy may be set",
                    args->Flags.Value);
        return STATUS_INVALID_PARAMETER;
    }
    const D3DKMT_DESTROYALLOCATION v1 = { .hDevice = args->hDevice, .hResource = args->hResource,
                                          .phAllocationList = args->phAllocationList,
                                          .AllocationCount = args->AllocationCount };
    return destroy_allocation(&v1);
}
