/* Context allocations: DxgkCbCreateContextAllocation / DxgkCbDestroyContextAllocation (WDDM 1.2,
 * seed 000, docs/semantics.md §1). The KMD asks for memory tied to one of its non-system GPU
 * contexts (a context save area) or to one of its non-system devices (page tables).
 *
 * What is checked here (§1.2 invariants 4, 5, 7; §10 #1): every refusal is
 * STATUS_INVALID_PARAMETER with one verifier line naming the rule. The created object records
 * every field the KMD gave (HintedBank and directions steer placement: vidmm/placement.c) and gets priority
 * D3DDDI_ALLOCATIONPRIORITY_HIGH (§1.2 invariant 6). Outstanding context allocations are
 * destroyed with their context or device; a later explicit destroy of the handle is refused.
 *
 * Residency (seed 000, §1.2 invariants 1-3): each context allocation owns a VidMm allocation
 * (no D3DKMT handle) that the node worker's prepare step makes resident before any packet of
 * the context is submitted (the direct path submits only when they already are), and that the
 * eviction rule (dxgk_context_allocation_evictable_locked) keeps while the rule says so. The
 * first page-in is DXGK_OPERATION_INIT_CONTEXT_RESOURCE (§1.3); later moves are the ordinary
 * TRANSFER / MAP paths, which preserve content. */
#include "dxgkrnl/vidmm/vidmm.h"
#include "common/alloc.h"

#include <stdlib.h>
#include <string.h>

static void context_allocation_release(struct dxgk_object *obj)
{
    struct dxgk_context_allocation *ca = (struct dxgk_context_allocation *)obj;
    if (ca->vm)
        dxgk_object_put(&ca->vm->obj);
    free(ca);
}

/* The VidMm object of a context allocation: the KMD's parameters as an allocation's
 * (hAllocation = hDriverAllocation, so every paging operation names the KMD's handle). */
static struct dxgk_allocation *vm_create(struct dxgk_context_allocation *ca)
{
    const DXGKARGCB_CREATECONTEXTALLOCATION *p = &ca->args;
    struct dxgk_allocation *x = wddm_calloc(1, sizeof *x);
    if (!x)
        return NULL;
    dxgk_object_init(&x->obj, DXGK_TYPE_ALLOCATION, dxgk_allocation_release);
    x->device = ca->device;
    x->ctx_owner = ca;
    x->info.hAllocation = p->hDriverAllocation;
    x->info.Size = (p->Size + DXGK_PAGE_SIZE - 1) & ~(SIZE_T)(DXGK_PAGE_SIZE - 1);
    x->info.Alignment = p->Alignment;
    x->info.SupportedReadSegmentSet = p->SupportedSegmentSet;
    x->info.SupportedWriteSegmentSet = p->SupportedSegmentSet;
    x->info.EvictionSegmentSet = p->EvictionSegmentSet;
    x->info.PreferredSegment = p->PreferredSegment;
    x->info.HintedBank = p->HintedBank;
    x->info.Flags = p->Flags;
    x->info.AllocationPriority = D3DDDI_ALLOCATIONPRIORITY_HIGH;
    x->priority = D3DDDI_ALLOCATIONPRIORITY_HIGH;
    x->first.alloc = x;
    x->instances = x->instances_tail = x->current = &x->first;
    x->instance_count = 1;
    return x;
}

/* Frees the VidMm placement once no GPU work or paging uses it. adapter->lock held (let go
 * while waiting). vm->dead keeps eviction away meanwhile. */
static void vm_release_locked(struct dxgk_adapter *a, struct dxgk_allocation *vm)
{
    WDDM_ASSERT_HELD(&a->lock);
    vm->dead = true;
    while (!vidmm_instance_retired_locked(a, &vm->first))
        vidmm_instance_wait_locked(a, &vm->first, false);
    vidmm_unplace_locked(a, &vm->first);
}

static UINT segment_mask(const struct dxgk_adapter *a)
{
    return a->segment_count >= 32 ? ~0u : ((1u << a->segment_count) - 1u);
}

static UINT aperture_mask(const struct dxgk_adapter *a)
{
    UINT m = 0;
    for (UINT s = 0; s < a->segment_count; s++)
        if (a->seg[s].aperture)
            m |= 1u << s;
    return m;
}

/* The checks that need no object: flags, size, alignment, segment sets, preference, adapter
 * index. Returns false after printing the refusal. */
static bool verify_fields(const struct dxgk_adapter *a, const DXGKARGCB_CREATECONTEXTALLOCATION *p)
{
    if (p->ContextAllocationFlags.Value & ~1u) {
        dxgk_refuse("DxgkCbCreateContextAllocation: ContextAllocationFlags 0x%x has reserved bits or "
                    "MapGpuVirtualAddress (a WDDM 2.0 GPU VA; this is a 1.x model) set",
                    p->ContextAllocationFlags.Value);
        return false;
    }
    if (p->Size == 0) {
        dxgk_refuse("DxgkCbCreateContextAllocation: Size 0");
        return false;
    }
    if (p->Alignment & (p->Alignment - 1u)) {
        dxgk_refuse("DxgkCbCreateContextAllocation: Alignment %u is not 0 or a power of two", p->Alignment);
        return false;
    }
    UINT valid = segment_mask(a);
    if (!p->SupportedSegmentSet || (p->SupportedSegmentSet & ~valid)) {
        dxgk_refuse("DxgkCbCreateContextAllocation: SupportedSegmentSet 0x%x empty or names segments the "
                    "adapter does not have (valid 0x%x)", p->SupportedSegmentSet, valid);
        return false;
    }
    if (p->EvictionSegmentSet & ~aperture_mask(a)) {
        dxgk_refuse("DxgkCbCreateContextAllocation: EvictionSegmentSet 0x%x names segments that are not "
                    "aperture segments (aperture 0x%x)", p->EvictionSegmentSet, aperture_mask(a));
        return false;
    }
    const DXGK_SEGMENTPREFERENCE *pr = &p->PreferredSegment;
    UINT ids[5] = { pr->SegmentId0, pr->SegmentId1, pr->SegmentId2, pr->SegmentId3, pr->SegmentId4 };
    for (UINT k = 0; k < 5 && ids[k]; k++) {
        if (ids[k] > a->segment_count || !(p->SupportedSegmentSet & (1u << (ids[k] - 1u)))) {
            dxgk_refuse("DxgkCbCreateContextAllocation: PreferredSegment %u (entry %u) is not in "
                        "SupportedSegmentSet 0x%x", ids[k], k, p->SupportedSegmentSet);
            return false;
        }
    }
    if (!dxgk_verify_hinted_bank(a, pr, p->HintedBank, "DxgkCbCreateContextAllocation"))
        return false;
    if (p->PhysicalAdapterIndex != 0) {
        dxgk_refuse("DxgkCbCreateContextAllocation: PhysicalAdapterIndex %u but the adapter has one physical "
                    "adapter", p->PhysicalAdapterIndex);
        return false;
    }
    return true;
}

/* The KMD creates its context allocations from DxgkDdiCreateContext / DxgkDdiCreateDevice,
 * before the kernel publishes the new handle: an unpublished live handle is found too (its
 * creator holds it; the reference taken here keeps it while this call runs). */
static struct dxgk_object *lookup_any(D3DKMT_HANDLE h, enum dxgk_type type)
{
    struct dxgk_object *o = dxgk_handle_get(h, type);
    if (o)
        return o;
    o = dxgk_handle_peek_unpublished(h, type);
    if (o)
        dxgk_object_get(o);
    return o;
}

static struct dxgk_context *lookup_context(D3DKMT_HANDLE h)
{
    return (struct dxgk_context *)lookup_any(h, DXGK_TYPE_CONTEXT);
}

static struct dxgk_device *lookup_device(D3DKMT_HANDLE h)
{
    return (struct dxgk_device *)lookup_any(h, DXGK_TYPE_DEVICE);
}

NTSTATUS APIENTRY dxgk_cb_create_context_allocation(DXGKARGCB_CREATECONTEXTALLOCATION *p)
{
    if (!p) {
        dxgk_refuse("DxgkCbCreateContextAllocation: NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_adapter *a = (struct dxgk_adapter *)p->hAdapter;
    /* The system device and context are named by the adapter's own handle (objects/adapter.c):
     * context allocations are only for non-system ones (§1.2 invariant 4). */
    if (p->hDevice == NULL || p->hDevice == p->hAdapter) {
        dxgk_refuse("DxgkCbCreateContextAllocation: hDevice %p is the system device or NULL: context "
                    "allocations are only for non-system devices", p->hDevice);
        return STATUS_INVALID_PARAMETER;
    }
    bool shared = p->ContextAllocationFlags.SharedAcrossContexts;
    if (shared && p->hContext) {
        dxgk_refuse("DxgkCbCreateContextAllocation: SharedAcrossContexts (device context allocation) with a "
                    "non-NULL hContext");
        return STATUS_INVALID_PARAMETER;
    }
    if (!shared && (p->hContext == NULL || p->hContext == p->hAdapter)) {
        dxgk_refuse("DxgkCbCreateContextAllocation: GPU context allocation needs a non-system hContext (got %p)",
                    p->hContext);
        return STATUS_INVALID_PARAMETER;
    }
    D3DKMT_HANDLE hd = (D3DKMT_HANDLE)(uintptr_t)p->hDevice;
    struct dxgk_device *d = (uintptr_t)p->hDevice == hd ? lookup_device(hd) : NULL;
    if (!d || (HANDLE)d->adapter != p->hAdapter) {
        dxgk_refuse("DxgkCbCreateContextAllocation: hDevice %p is not a device of adapter %p", p->hDevice,
                    p->hAdapter);
        if (d)
            dxgk_device_put(d);
        return STATUS_INVALID_PARAMETER;
    }
    NTSTATUS st = STATUS_INVALID_PARAMETER;
    struct dxgk_context *c = NULL;
    struct dxgk_context_allocation *ca = NULL;
    if (!shared) {
        D3DKMT_HANDLE hc = (D3DKMT_HANDLE)(uintptr_t)p->hContext;
        c = (uintptr_t)p->hContext == hc ? lookup_context(hc) : NULL;
        if (!c || c->device != d) {
            dxgk_refuse("DxgkCbCreateContextAllocation: hContext %p is not a context of device %p", p->hContext,
                        p->hDevice);
            goto out;
        }
    }
    if (!verify_fields(a, p))
        goto out;
    ca = wddm_calloc(1, sizeof *ca);
    if (!ca) {
        st = STATUS_NO_MEMORY;
        goto out;
    }
    dxgk_object_init(&ca->obj, DXGK_TYPE_CONTEXT_ALLOCATION, context_allocation_release);
    ca->adapter = a;
    ca->device = d;
    ca->context = c;
    ca->args = *p;
    ca->priority = D3DDDI_ALLOCATIONPRIORITY_HIGH;
    ca->vm = vm_create(ca);
    /* §1.3 model rule: a kernel CPU address for INIT_CONTEXT_RESOURCE exactly when the KMD asked
     * for CpuVisible + Protected and only aperture segments. The backing store is that address:
     * an aperture placement maps these very pages and an eviction only unmaps them, so it stays
     * valid (and holds the content) for the allocation's life. */
    if (ca->vm && p->Flags.CpuVisible && p->Flags.Protected && !(p->SupportedSegmentSet & ~aperture_mask(a))) {
        if (!vidmm_backing_commit(a, &ca->vm->first)) {
            dxgk_object_put(&ca->obj);
            st = STATUS_NO_MEMORY;
            goto out;
        }
        ca->kernel_va = ca->vm->first.backing;
    }
    if (!ca->vm) {
        dxgk_object_put(&ca->obj);
        st = STATUS_NO_MEMORY;
        goto out;
    }
    ca->handle = dxgk_handle_insert(&ca->obj);
    if (!ca->handle) {
        vidmm_backing_free(a, &ca->vm->first);
        dxgk_object_put(&ca->obj);
        st = STATUS_NO_MEMORY;
        goto out;
    }
    ca->args.hAllocation = (HANDLE)(uintptr_t)ca->handle;
    pthread_mutex_lock(&a->lock);
    bool dead = d->dead || (c && c->dead);
    if (!dead) {
        struct dxgk_context_allocation **list = c ? &c->context_allocations : &d->context_allocations;
        ca->owner_next = *list;
        *list = ca;
    }
    pthread_mutex_unlock(&a->lock);
    if (dead) {
        dxgk_refuse("DxgkCbCreateContextAllocation: the owning %s is being destroyed", c ? "context" : "device");
        vidmm_backing_free(a, &ca->vm->first);
        dxgk_object_put(dxgk_handle_remove(ca->handle, DXGK_TYPE_CONTEXT_ALLOCATION));
        goto out;
    }
    dxgk_handle_publish(ca->handle);
    p->hAllocation = ca->args.hAllocation;
    DXGK_COUNT(a, context_allocations_created, 1);
    st = STATUS_SUCCESS;
out:
    if (c)
        dxgk_object_put(&c->obj);
    dxgk_device_put(d);
    return st;
}

/* Takes ca off its owner's list. adapter->lock held. */
static void unlink_locked(struct dxgk_context_allocation *ca)
{
    WDDM_ASSERT_HELD(&ca->adapter->lock);
    struct dxgk_context_allocation **pp = ca->context ? &ca->context->context_allocations
                                                      : &ca->device->context_allocations;
    while (*pp && *pp != ca)
        pp = &(*pp)->owner_next;
    if (*pp)
        *pp = ca->owner_next;
    ca->owner_next = NULL;
}

NTSTATUS APIENTRY dxgk_cb_destroy_context_allocation(HANDLE hAdapter, HANDLE hAllocation)
{
    D3DKMT_HANDLE h = (D3DKMT_HANDLE)(uintptr_t)hAllocation;
    struct dxgk_context_allocation *ca = NULL;
    if ((uintptr_t)hAllocation == h) {
        ca = (struct dxgk_context_allocation *)dxgk_handle_get(h, DXGK_TYPE_CONTEXT_ALLOCATION);
        if (ca && (HANDLE)ca->adapter != hAdapter) {
            dxgk_object_put(&ca->obj);
            ca = NULL;
        }
    }
    /* Removing the handle decides between two racing destroys: only one gets the object. */
    struct dxgk_object *o = ca ? dxgk_handle_remove(h, DXGK_TYPE_CONTEXT_ALLOCATION) : NULL;
    if (!o) {
        if (ca)
            dxgk_object_put(&ca->obj);
        dxgk_refuse("DxgkCbDestroyContextAllocation: %p is not a live context allocation of adapter %p (never "
                    "created, already destroyed, or destroyed with its context/device)", hAllocation, hAdapter);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_adapter *a = ca->adapter;
    pthread_mutex_lock(&a->lock);
    unlink_locked(ca);
    vm_release_locked(a, ca->vm);
    pthread_mutex_unlock(&a->lock);
    dxgk_object_put(o);          /* the handle's reference */
    dxgk_object_put(&ca->obj);   /* the lookup's */
    return STATUS_SUCCESS;
}

void dxgk_context_allocations_destroy_owned(struct dxgk_adapter *a, struct dxgk_device *d, struct dxgk_context *c)
{
    for (;;) {
        pthread_mutex_lock(&a->lock);
        struct dxgk_context_allocation **list = c ? &c->context_allocations : &d->context_allocations;
        struct dxgk_context_allocation *ca = *list;
        D3DKMT_HANDLE h = 0;
        if (ca) {
            /* Read under the lock: an explicit destroy that already removed the handle frees
             * the object only after its unlink, which needs this lock. */
            h = ca->handle;
            *list = ca->owner_next;
            ca->owner_next = NULL;
        }
        pthread_mutex_unlock(&a->lock);
        if (!ca)
            return;
        /* A concurrent explicit destroy that removed the handle first drops it itself. */
        struct dxgk_object *o = dxgk_handle_remove(h, DXGK_TYPE_CONTEXT_ALLOCATION);
        if (o) {
            pthread_mutex_lock(&a->lock);
            vm_release_locked(a, ca->vm);
            pthread_mutex_unlock(&a->lock);
            dxgk_object_put(o);
        }
    }
}

/* Seed 000 (docs/semantics.md §1.2 invariants 2, 3). What the GPU may touch is already kept by the
 * use stamps: prepare (or the direct path) stamps a context allocation with the ticket of each
 * packet it readies, and VidMm never evicts an instance whose stamped tickets have not retired
 * (vidmm/evict.c). On top of that, lazy switching: after its packets retired, the context is
 * still the one loaded on its node until a packet of another context is submitted there, and
 * its save area is written when that packet starts (gsched_context_loaded: hw_context, then
 * save_fence). The retirement VidMm saw (an acquire of the node's retired ticket) follows the
 * submission's stores, so they, or later ones, are what is read here.
 * A GPU context allocation is NOT kept merely because its context has packets waiting in the
 * software queue (not yet readied): prepare restores it for them, and pinning every queued
 * context's save area could leave no room to run any of them. */
bool dxgk_context_allocation_evictable_locked(const struct dxgk_adapter *a, const struct dxgk_context_allocation *ca,
                                              struct dxgk_context **loaded)
{
    WDDM_ASSERT_HELD(&a->lock);
    struct dxgk_context *keeper = NULL;
    if (ca->context) {
        if (gsched_context_loaded(&a->node[ca->context->node], ca->context))
            keeper = ca->context;
    } else {
        /* A device context allocation is kept while any context of the device has work queued,
         * held or in flight (no null switch ends that), or is loaded on its node. */
        for (struct dxgk_context *c = ca->device->contexts; c; c = c->dev_next) {
            if (atomic_load(&c->queued)) {
                if (loaded)
                    *loaded = NULL;
                return false;
            }
            if (!keeper && gsched_context_loaded(&a->node[c->node], c))
                keeper = c;
        }
    }
    if (loaded)
        *loaded = keeper;
    return !keeper;
}

/* One context allocation resident; INIT_CONTEXT_RESOURCE after its first placement. */
static NTSTATUS make_one_resident_locked(struct dxgk_adapter *a, struct dxgk_context_allocation *ca,
                                         struct vidmm_paging_batch *batch)
{
    WDDM_ASSERT_HELD(&a->lock);
    struct vidmm_instance *in = &ca->vm->first;
    /* fill = false: a fresh memory-segment placement gets no FILL, the KMD's INIT writes it. */
    NTSTATUS st = vidmm_make_resident_locked(a, in, batch, false);
    if (!NT_SUCCESS(st))
        return st;
    if (!ca->initialized) {
        const struct vidmm_segment *s = &a->seg[in->segment_id - 1];
        DXGKARG_BUILDPAGINGBUFFER args = { 0 };
        args.Operation = DXGK_OPERATION_INIT_CONTEXT_RESOURCE;
        args.InitContextResource.hAllocation = ca->args.hDriverAllocation; /* §1.3 model decision */
        args.InitContextResource.Destination.SegmentId = in->segment_id;
        args.InitContextResource.Destination.SegmentAddress.QuadPart =
            s->desc.BaseAddress.QuadPart + (LONGLONG)in->offset;
        args.InitContextResource.Destination.VirtualAddress = ca->kernel_va;
        st = vidmm_paging_build_locked(batch, &args, in);
        if (!NT_SUCCESS(st))
            return st;
        ca->initialized = true;
        in->backing_valid = s->aperture; /* a memory-segment copy must be saved at eviction */
        vidmm_batch_stamp_locked(batch, in, true);
        DXGK_COUNT(a, bytes_paged_in, ca->vm->info.Size);
    }
    vidmm_touch_locked(a, in);
    return STATUS_SUCCESS;
}

NTSTATUS dxgk_context_allocations_make_resident_locked(struct dxgk_adapter *a, struct dxgk_context *c,
                                                        struct vidmm_paging_batch *batch)
{
    WDDM_ASSERT_HELD(&a->lock);
    NTSTATUS st = STATUS_SUCCESS;
    for (struct dxgk_context_allocation *ca = c->context_allocations; ca && NT_SUCCESS(st); ca = ca->owner_next)
        st = make_one_resident_locked(a, ca, batch);
    for (struct dxgk_context_allocation *ca = c->device->context_allocations; ca && NT_SUCCESS(st);
         ca = ca->owner_next)
        st = make_one_resident_locked(a, ca, batch);
    return st;
}

/* Records that the packet with this ticket uses them: destruction waits for it
 * (vidmm_instance_retired_locked), like for the allocations of its list. */
static void mark_one_locked(const struct dxgk_adapter *a, struct dxgk_context_allocation *ca, UINT node,
                            UINT64 ticket, UINT64 *fence)
{
    WDDM_ASSERT_HELD(&a->lock);
    struct vidmm_instance *in = &ca->vm->first;
    vidmm_stamp_locked(a, in, node, ticket, false);
    if (ticket > in->prepared_use[node])
        in->prepared_use[node] = ticket;
    if (in->gpu_fence > *fence)
        *fence = in->gpu_fence;
}

void dxgk_context_allocations_claim_locked(struct dxgk_context *c, UINT64 ticket)
{
    WDDM_ASSERT_HELD(&c->device->adapter->lock);
    for (struct dxgk_context_allocation *ca = c->context_allocations; ca; ca = ca->owner_next)
        ca->vm->first.prepared_use[c->node] = ticket;
    for (struct dxgk_context_allocation *ca = c->device->context_allocations; ca; ca = ca->owner_next)
        ca->vm->first.prepared_use[c->node] = ticket;
}

UINT64 dxgk_context_allocations_mark_used_locked(struct dxgk_context *c, UINT64 ticket)
{
    WDDM_ASSERT_HELD(&c->device->adapter->lock);
    UINT64 fence = 0;
    for (struct dxgk_context_allocation *ca = c->context_allocations; ca; ca = ca->owner_next)
        mark_one_locked(c->device->adapter, ca, c->node, ticket, &fence);
    for (struct dxgk_context_allocation *ca = c->device->context_allocations; ca; ca = ca->owner_next)
        mark_one_locked(c->device->adapter, ca, c->node, ticket, &fence);
    return fence;
}

static bool ready_locked(const struct dxgk_adapter *a, const struct dxgk_context_allocation *ca)
{
    WDDM_ASSERT_HELD(&a->lock);
    const struct vidmm_instance *in = &ca->vm->first;
    return ca->initialized && in->segment_id &&
           (!in->gpu_fence || gsched_fence_completed(&a->node[a->paging_node], in->gpu_fence));
}

bool dxgk_context_allocations_ready_locked(const struct dxgk_adapter *a, const struct dxgk_context *c)
{
    WDDM_ASSERT_HELD(&a->lock);
    for (const struct dxgk_context_allocation *ca = c->context_allocations; ca; ca = ca->owner_next)
        if (!ready_locked(a, ca))
            return false;
    for (const struct dxgk_context_allocation *ca = c->device->context_allocations; ca; ca = ca->owner_next)
        if (!ready_locked(a, ca))
            return false;
    return true;
}
