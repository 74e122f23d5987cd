/* The GpuMmu model (WDDM 2.0; issue 6, common brief "The shared model", docs/semantics.md §9.2):
 * the process's GPU virtual address space, its page tables, and the D3DKMTReserve / Map /
 * FreeGpuVirtualAddress thunks.
 *
 * One process, one VA space per adapter: this library runs in one OS process, so each GpuMmu
 * adapter creates one KMD process (DxgkDdiCreateProcess at start, DxgkDdiDestroyProcess at
 * stop) and every device of the adapter maps into its space. The state is one struct
 * vidmm_gpummu hung off the adapter, so a per-process space is a matter of keying it.
 *
 * The space: [64 KiB, 2^VirtualAddressBitCount), page granular. Reservations and mappings are
 * two address-sorted lists; a mapping lies either wholly inside one reservation or wholly in
 * space no reservation covers, and never overlaps another mapping (a Map over a live mapping
 * is refused: FIXME(gpummu) replace semantics of D3DKMTUpdateGpuVirtualAddress).
 *
 * The page tables (2 levels, DXGK_GPUMMUCAPS.PageTableLevelCount = 2): the root starts at one
 * page of entries and doubles (DxgkDdiGetRootPageTableSize) when a mapping reaches beyond it
 * (root_grow_locked; every context gets the new one by DxgkDdiSetRootPageTable before its next
 * packet), leaf tables (PageTableSizeInBytes, one per 2^(12 + leaf bits) bytes of VA) are created
 * on the first mapping that touches them and kept until the adapter stops. All of them are
 * VidMm-internal ranges pinned in their level's segment (never on an LRU list), zero-filled by
 * a paging FILL before the root entry pointing at them is written. Every change of a mapping,
 * and every move of a mapped allocation (placement, restore, eviction: the hooks in
 * vidmm/placement.c and vidmm/evict.c), emits DXGK_OPERATION_UPDATE_PAGE_TABLE with the
 * DXGK_PTEs of the common brief (Valid 0 while not resident, or while no D3DKMTMakeResident
 * reference holds it: issue 3) and DXGK_OPERATION_FLUSH_TLB on
 * the paging node, in the batch of the operation that caused it. A virtual packet waits for
 * every paging buffer submitted before it was prepared (vidmm_va_pt_fence_locked), so the
 * engine never runs on a stale entry. All of it under the adapter lock. */
#include "dxgkrnl/vidmm/vidmm.h"
#include "common/alloc.h"

#include <stdlib.h>
#include <string.h>

#define VA_FLOOR (64ull << 10) /* the first 64 KiB are never handed out (NULL stays invalid) */
/* The IoMmu model's refusal of the GpuMmu VA services (MicrosoftDocs "GPU virtual memory in
 * WDDM 2.0": VidMm exposes VA mapping services in the GpuMmu model; in the IoMmu model the CPU
 * and the GPU share one address space). */
#define IOMMU_NO_VA_SERVICES                                                                                        \
    "the adapter runs the IoMmu model: the GPU uses the address the CPU uses (an allocation's "                     \
    "D3DDDI_ALLOCATIONINFO2.GpuVirtualAddress); there are no GPU page tables to reserve or map in"

#define PTES_PER_CALL 512u

struct vidmm_mapping {
    struct vidmm_mapping *next;          /* its list in the space, by address */
    struct vidmm_mapping *alloc_next;    /* alloc->mappings */
    struct dxgk_allocation *alloc;       /* NULL for a reservation (holds no reference: the
                                            allocation unmaps itself at destruction) */
    D3DGPU_VIRTUAL_ADDRESS va;
    UINT64 pages;
    UINT64 offset_pages;                 /* first page of the allocation mapped */
    D3DDDIGPUVIRTUALADDRESS_PROTECTION_TYPE prot;
    D3DKMT_HANDLE via;                   /* the handle it was mapped through (a same-adapter
                                            open's names its creator's allocation, issue 6) */
};

struct vidmm_old_root {
    struct vidmm_old_root *next;
    UINT64 offset, size;
    UINT entries;                        /* the root entries it had */
};

struct vidmm_leaf {
    UINT seg;                            /* 0: no leaf table yet (root entry invalid) */
    UINT64 offset;
};

struct vidmm_gpummu {
    /* The IoMmu model (docs/semantics.md §9.6): no page tables, no reservations or explicit
     * mappings; every allocation has one mapping at the address of its system-memory backing
     * store (what the CPU uses too), written into the IOMMU under the process's PASID while the
     * allocation is resident. Both immutable after start. */
    bool iommu;
    ULONG pasid;
    DXGK_GPUMMUCAPS caps;                /* immutable after start */
    DXGK_PAGE_TABLE_LEVEL_DESC level[2]; /* immutable after start */
    HANDLE kmd_process;                  /* DxgkDdiCreateProcess; immutable */
    UINT64 va_end;                       /* 2^VirtualAddressBitCount */
    UINT leaf_shift;                     /* VA bits below the root index */
    UINT leaf_entries;
    UINT root_max;                       /* 2^(VA bits - leaf span): the root's largest size */
    UINT root_entries;                   /* the current root's entries; adapter->lock */
    UINT root_seg;
    UINT64 root_offset, root_size;       /* adapter->lock */
    UINT64 root_gen;                     /* bumped when the root grows; adapter->lock */
    struct vidmm_old_root *old_roots;    /* grown out of: kept until stop; adapter->lock */
    struct vidmm_leaf *leaf;             /* root_max entries; adapter->lock */
    struct vidmm_mapping *reservations;  /* adapter->lock */
    struct vidmm_mapping *mappings;      /* adapter->lock */
};

static LONGLONG phys(const struct dxgk_adapter *a, UINT seg, UINT64 offset)
{
    return a->seg[seg - 1].desc.BaseAddress.QuadPart + (LONGLONG)offset;
}

static NTSTATUS query(struct dxgk_adapter *a, DXGK_QUERYADAPTERINFOTYPE type, void *in, UINT in_size, void *out,
                      UINT out_size)
{
    DXGKARG_QUERYADAPTERINFO q = { .Type = type, .pInputData = in, .InputDataSize = in_size,
                                   .pOutputData = out, .OutputDataSize = out_size };
    return a->driver.ddi.DxgkDdiQueryAdapterInfo(a->miniport, &q);
}

/* A pinned page-table range in `seg`: evicts (as a placement would) when the segment is full. */
static NTSTATUS table_alloc_locked(struct dxgk_adapter *a, struct vidmm_paging_batch *b, UINT seg, UINT64 size,
                                   UINT64 align, UINT64 *offset)
{
    WDDM_ASSERT_HELD(&a->lock);
    if (vidmm_segment_alloc_locked(&a->seg[seg - 1], size, align, offset))
        return STATUS_SUCCESS;
    for (UINT got; (got = vidmm_evict_one_locked(a, &seg, 1, b)) != 0;)
        if (vidmm_segment_alloc_locked(&a->seg[seg - 1], size, align, offset))
            return STATUS_SUCCESS;
    dxgk_refuse("vidmm: no room for a %llu-byte page table in segment %u", (unsigned long long)size, seg);
    return STATUS_NO_MEMORY;
}

/* Zero-filled by the paging engine before any entry points at it (a fresh table is all
 * invalid entries). */
static NTSTATUS table_zero_locked(struct dxgk_adapter *a, struct vidmm_paging_batch *b, UINT seg, UINT64 offset,
                                  UINT64 size)
{
    WDDM_ASSERT_HELD(&a->lock);
    DXGKARG_BUILDPAGINGBUFFER f = { 0 };
    f.Operation = DXGK_OPERATION_FILL;
    f.Fill.hAllocation = NULL;
    f.Fill.FillSize = (SIZE_T)size;
    f.Fill.FillPattern = 0;
    f.Fill.Destination.SegmentId = seg;
    f.Fill.Destination.SegmentAddress.QuadPart = phys(a, seg, offset);
    return vidmm_paging_build_locked(b, &f, NULL);
}

static NTSTATUS pt_write_locked(struct dxgk_adapter *a, struct vidmm_paging_batch *b, UINT level, UINT seg,
                                UINT64 offset, UINT start, UINT count, DXGK_PTE *ptes, bool repeat,
                                HANDLE hallocation, D3DGPU_VIRTUAL_ADDRESS first_va)
{
    WDDM_ASSERT_HELD(&a->lock);
    struct vidmm_gpummu *m = a->mmu;
    DXGKARG_BUILDPAGINGBUFFER u = { 0 };
    u.Operation = DXGK_OPERATION_UPDATE_PAGE_TABLE;
    u.UpdatePageTable.PageTableLevel = level;
    u.UpdatePageTable.hAllocation = hallocation;
    u.UpdatePageTable.PageTableAddress.GpuPhysical = (D3DGPU_PHYSICAL_ADDRESS)phys(a, seg, offset);
    u.UpdatePageTable.pPageTableEntries = ptes;
    u.UpdatePageTable.StartIndex = start;
    u.UpdatePageTable.NumPageTableEntries = count;
    u.UpdatePageTable.Flags.Repeat = repeat;
    u.UpdatePageTable.hProcess = m->kmd_process;
    u.UpdatePageTable.UpdateMode = DXGK_PAGETABLEUPDATE_GPU_PHYSICAL;
    u.UpdatePageTable.FirstPteVirtualAddress = first_va;
    DXGK_COUNT(a, page_table_updates, 1);
    return vidmm_paging_build_locked(b, &u, NULL);
}

static NTSTATUS tlb_flush_locked(struct dxgk_adapter *a, struct vidmm_paging_batch *b)
{
    WDDM_ASSERT_HELD(&a->lock);
    struct vidmm_gpummu *m = a->mmu;
    DXGKARG_BUILDPAGINGBUFFER f = { 0 };
    f.Operation = DXGK_OPERATION_FLUSH_TLB;
    f.FlushTlb.hProcess = m->kmd_process;
    f.FlushTlb.RootPageTableAddress = (D3DGPU_PHYSICAL_ADDRESS)phys(a, m->root_seg, m->root_offset);
    return vidmm_paging_build_locked(b, &f, NULL);
}

/* A root table at `offset` (`size` bytes), zero-filled, then given the entries of the existing
 * leaf tables among its first `entries`. */
static NTSTATUS root_write_locked(struct dxgk_adapter *a, struct vidmm_paging_batch *b, UINT64 offset, UINT64 size,
                                  UINT entries)
{
    WDDM_ASSERT_HELD(&a->lock);
    struct vidmm_gpummu *m = a->mmu;
    NTSTATUS st = table_zero_locked(a, b, m->root_seg, offset, size);
    DXGK_PTE ptes[PTES_PER_CALL];
    for (UINT i = 0; i < entries && NT_SUCCESS(st); i += PTES_PER_CALL) {
        UINT k = entries - i < PTES_PER_CALL ? entries - i : PTES_PER_CALL;
        bool any = false;
        for (UINT j = 0; j < k; j++) {
            const struct vidmm_leaf *l = &m->leaf[i + j];
            ptes[j] = (DXGK_PTE){ 0 };
            if (l->seg) {
                ptes[j].Valid = 1;
                ptes[j].Segment = l->seg;
                ptes[j].PageTableAddress = l->offset / DXGK_PAGE_SIZE;
                any = true;
            }
        }
        if (any)
            st = pt_write_locked(a, b, 0, m->root_seg, offset, i, k, ptes, false, NULL,
                                 (D3DGPU_VIRTUAL_ADDRESS)i << m->leaf_shift);
    }
    return st;
}

/* The root grows (level 0 is resizable with 2 levels, DxgkDdiGetRootPageTableSize) to cover root
 * index ri: a bigger root, zero-filled, gets the entries of every existing leaf table, all in
 * the batch; contexts switch to it before their next packet, once that paging ran
 * (vidmm_va_switch_root). The old root keeps pointing at the same leaf tables, so work
 * already submitted with it still translates; it is kept until the adapter stops (all the
 * old roots together are smaller than the last one). */
static NTSTATUS root_grow_locked(struct dxgk_adapter *a, struct vidmm_paging_batch *b, UINT ri)
{
    WDDM_ASSERT_HELD(&a->lock);
    struct vidmm_gpummu *m = a->mmu;
    UINT n = m->root_entries;
    while (n <= ri)
        n *= 2;
    if (n > m->root_max)
        n = m->root_max;
    DXGKARG_GETROOTPAGETABLESIZE rs = { .NumberOfPte = n };
    SIZE_T bytes = a->driver.ddi.DxgkDdiGetRootPageTableSize(a->miniport, &rs);
    if (rs.NumberOfPte < n || bytes < (SIZE_T)n * sizeof(UINT64)) {
        dxgk_refuse("verifier: DxgkDdiGetRootPageTableSize(%u entries) answered %zu bytes / %u entries", n,
                    (size_t)bytes, rs.NumberOfPte);
        return STATUS_UNSUCCESSFUL;
    }
    UINT64 size = (bytes + DXGK_PAGE_SIZE - 1) & ~(UINT64)(DXGK_PAGE_SIZE - 1), off = 0;
    struct vidmm_old_root *old = wddm_malloc(sizeof *old);
    if (!old)
        return STATUS_NO_MEMORY;
    NTSTATUS st = table_alloc_locked(a, b, m->root_seg, size, m->level[0].PageTableAlignmentInBytes, &off);
    bool placed = NT_SUCCESS(st);
    if (placed)
        st = root_write_locked(a, b, off, size, m->root_entries);
    if (!NT_SUCCESS(st)) {
        free(old);
        if (placed)
            vidmm_segment_free_locked(&a->seg[m->root_seg - 1], off, size);
        return st;
    }
    old->offset = m->root_offset;
    old->size = m->root_size;
    old->entries = m->root_entries;
    old->next = m->old_roots;
    m->old_roots = old;
    m->root_offset = off;
    m->root_size = size;
    m->root_entries = n;
    m->root_gen++;
    return STATUS_SUCCESS;
}

/* The leaf table of root index ri, created (zeroed, then linked from the root) on demand. */
static NTSTATUS leaf_get_locked(struct dxgk_adapter *a, struct vidmm_paging_batch *b, UINT ri)
{
    WDDM_ASSERT_HELD(&a->lock);
    struct vidmm_gpummu *m = a->mmu;
    struct vidmm_leaf *l = &m->leaf[ri];
    if (l->seg)
        return STATUS_SUCCESS;
    NTSTATUS st = ri < m->root_entries ? STATUS_SUCCESS : root_grow_locked(a, b, ri);
    if (!NT_SUCCESS(st))
        return st;
    const DXGK_PAGE_TABLE_LEVEL_DESC *d = &m->level[1];
    UINT64 off;
    st = table_alloc_locked(a, b, d->PageTableSegmentId, d->PageTableSizeInBytes,
                                     d->PageTableAlignmentInBytes, &off);
    if (!NT_SUCCESS(st))
        return st;
    st = table_zero_locked(a, b, d->PageTableSegmentId, off, d->PageTableSizeInBytes);
    DXGK_PTE root = { 0 };
    root.Valid = 1;
    root.Segment = d->PageTableSegmentId;
    root.PageTableAddress = off / DXGK_PAGE_SIZE;
    if (NT_SUCCESS(st))
        st = pt_write_locked(a, b, 0, m->root_seg, m->root_offset, ri, 1, &root, false, NULL,
                             (D3DGPU_VIRTUAL_ADDRESS)ri << m->leaf_shift);
    if (!NT_SUCCESS(st)) {
        vidmm_segment_free_locked(&a->seg[d->PageTableSegmentId - 1], off, d->PageTableSizeInBytes);
        return st;
    }
    l->seg = d->PageTableSegmentId;
    l->offset = off;
    return STATUS_SUCCESS;
}

/* The DXGK_PTE of page `page` of a mapping (common brief): Valid while the allocation is
 * resident and the mapping is accessible; ReadOnly without Protection.Write. */
static DXGK_PTE leaf_pte(const struct vidmm_mapping *map, UINT64 page, bool clear)
{
    DXGK_PTE p = { 0 };
    const struct vidmm_instance *in = map->alloc ? map->alloc->current : NULL;
    /* WDDM 2.x residency (issue 3, docs/semantics.md §9.2): only what a device made resident is
     * reachable; placed for another reason (a Lock2) without MakeResident, it still faults. */
    if (clear || !in || !in->segment_id || map->prot.NoAccess || !map->alloc->resident_refs)
        return p;
    p.Valid = 1;
    p.ReadOnly = !map->prot.Write;
    p.Segment = in->segment_id;
    p.PageAddress = in->offset / DXGK_PAGE_SIZE + map->offset_pages + page;
    return p;
}

/* IoMmu: the mapping's pages in the IOMMU while the allocation is resident (made resident by a
 * device, issue 3, and placed: in the IoMmu model only apertures, whose pages are the backing
 * store), else none. The CPU writes the IOMMU's tables at once; nothing waits on the GPU. */
static NTSTATUS iommu_write_locked(struct dxgk_adapter *a, const struct vidmm_mapping *map, bool clear)
{
    WDDM_ASSERT_HELD(&a->lock);
    const struct vidmm_gpummu *m = a->mmu;
    const struct vidmm_instance *in = map->alloc ? map->alloc->current : NULL;
    if (clear || !in || !in->segment_id || !a->seg[in->segment_id - 1].aperture || !in->backing ||
        map->prot.NoAccess || !map->alloc->resident_refs) {
        dxgk_iommu_unmap(m->pasid, map->va, map->pages);
        return STATUS_SUCCESS;
    }
    NTSTATUS st = dxgk_iommu_map(m->pasid, map->va, (const BYTE *)in->backing + map->offset_pages * DXGK_PAGE_SIZE,
                                 map->pages, map->prot.Write);
    if (!NT_SUCCESS(st))
        dxgk_iommu_unmap(m->pasid, map->va, map->pages); /* all or nothing */
    else
        DXGK_COUNT(a, iommu_pages_mapped, map->pages);
    return st;
}

/* Writes the leaf entries of a mapping (clear: invalid entries), then flushes the TLB. */
static NTSTATUS mapping_write_locked(struct dxgk_adapter *a, struct vidmm_paging_batch *b,
                                     const struct vidmm_mapping *map, bool clear)
{
    WDDM_ASSERT_HELD(&a->lock);
    struct vidmm_gpummu *m = a->mmu;
    if (m->iommu)
        return iommu_write_locked(a, map, clear);
    DXGK_PTE ptes[PTES_PER_CALL];
    UINT64 page = 0;
    NTSTATUS st = STATUS_SUCCESS;
    while (page < map->pages && NT_SUCCESS(st)) {
        D3DGPU_VIRTUAL_ADDRESS va = map->va + page * DXGK_PAGE_SIZE;
        UINT ri = (UINT)(va >> m->leaf_shift);
        UINT li = (UINT)((va >> 12) & (m->leaf_entries - 1));
        UINT n = m->leaf_entries - li;
        if (n > PTES_PER_CALL)
            n = PTES_PER_CALL;
        if (n > map->pages - page)
            n = (UINT)(map->pages - page);
        if (clear && !m->leaf[ri].seg) { /* no table: the root entry is invalid already */
            page += n;
            continue;
        }
        st = leaf_get_locked(a, b, ri);
        if (!NT_SUCCESS(st))
            break;
        for (UINT i = 0; i < n; i++)
            ptes[i] = leaf_pte(map, page + i, clear);
        st = pt_write_locked(a, b, 1, m->leaf[ri].seg, m->leaf[ri].offset, li, n, ptes, false,
                             map->alloc ? map->alloc->info.hAllocation : NULL, va);
        page += n;
    }
    if (NT_SUCCESS(st))
        st = tlb_flush_locked(a, b);
    return st;
}

NTSTATUS vidmm_va_instance_moved_locked(struct dxgk_adapter *a, struct vidmm_instance *inst,
                                        struct vidmm_paging_batch *batch)
{
    WDDM_ASSERT_HELD(&a->lock);
    if (!a->mmu || inst != inst->alloc->current)
        return STATUS_SUCCESS;
    NTSTATUS st = STATUS_SUCCESS;
    for (struct vidmm_mapping *map = inst->alloc->mappings; map && NT_SUCCESS(st); map = map->alloc_next)
        st = mapping_write_locked(a, batch, map, false);
    if (!NT_SUCCESS(st))
        dxgk_refuse("vidmm: page-table update after a move of allocation 0x%08x failed 0x%08x",
                    inst->alloc->handle, (unsigned)st);
    return st;
}

void vidmm_va_device_use_locked(struct dxgk_device *d, struct vidmm_instance *in)
{
    WDDM_ASSERT_HELD(&d->adapter->lock);
    for (struct dxgk_context *c = d->contexts; c; c = c->dev_next) {
        if (c->last_ticket)
            vidmm_stamp_locked(d->adapter, in, c->node, c->last_ticket, true);
        if (!c->held)
            continue;
        /* Packets held behind a GPU wait have no ticket yet: the instance waits for them to be
         * queued (then stamped with their tickets) or dropped (vidmm_va_held_done_locked). */
        if (c->va_stamp_count == c->va_stamp_cap) {
            /* A caller that did not reserve (vidmm_va_reserve_held_locked): a bug, not a lack
             * of memory; said rather than written past the array. */
            dxgk_refuse("vidmm: internal: no room reserved to park an instance on context 0x%08x", c->handle);
            continue;
        }
        c->va_stamp[c->va_stamp_count++] = in;
        in->held_va_refs++;
    }
}

NTSTATUS vidmm_va_reserve_held_locked(struct dxgk_device *d, UINT n)
{
    WDDM_ASSERT_HELD(&d->adapter->lock);
    for (struct dxgk_context *c = d->contexts; c; c = c->dev_next) {
        if (!c->held || c->va_stamp_cap - c->va_stamp_count >= n)
            continue;
        UINT cap = c->va_stamp_cap ? c->va_stamp_cap : 8;
        while (cap - c->va_stamp_count < n)
            cap *= 2;
        struct vidmm_instance **grown = wddm_realloc(c->va_stamp, cap * sizeof *grown);
        if (!grown) {
            dxgk_refuse("vidmm: no memory to park instances on held context 0x%08x", c->handle);
            return STATUS_NO_MEMORY;
        }
        c->va_stamp = grown;
        c->va_stamp_cap = cap;
    }
    return STATUS_SUCCESS;
}

void vidmm_va_held_done_locked(struct dxgk_context *c, bool queued)
{
    WDDM_ASSERT_HELD(&c->device->adapter->lock);
    for (UINT i = 0; i < c->va_stamp_count; i++) {
        struct vidmm_instance *in = c->va_stamp[i];
        if (queued && c->last_ticket)
            vidmm_stamp_locked(c->device->adapter, in, c->node, c->last_ticket, true);
        in->held_va_refs--;
    }
    c->va_stamp_count = 0;
}

UINT64 vidmm_va_pt_fence_locked(const struct dxgk_adapter *a)
{
    WDDM_ASSERT_HELD(&a->lock);
    /* Every paging buffer submitted so far: the page-table writes a virtual packet may depend
     * on are among them (batches are flushed before the adapter lock is let go). */
    struct gsched_node *pn = (struct gsched_node *)&a->node[a->paging_node];
    pthread_mutex_lock(&pn->lock);
    UINT64 f = pn->submitted_fence;
    pthread_mutex_unlock(&pn->lock);
    return f;
}

/* ---- the address space ---------------------------------------------------------------------- */
static bool overlaps(const struct vidmm_mapping *list, UINT64 start, UINT64 size, UINT64 *end_of)
{
    for (const struct vidmm_mapping *r = list; r; r = r->next) {
        UINT64 rend = r->va + r->pages * DXGK_PAGE_SIZE;
        if (r->va < start + size && start < rend) {
            if (end_of)
                *end_of = rend;
            return true;
        }
    }
    return false;
}

static const struct vidmm_mapping *containing(const struct vidmm_mapping *list, UINT64 start, UINT64 size)
{
    for (const struct vidmm_mapping *r = list; r; r = r->next)
        if (r->va <= start && start + size <= r->va + r->pages * DXGK_PAGE_SIZE)
            return r;
    return NULL;
}

/* Lowest free address in [lo, hi) for size bytes that no reservation or mapping covers. Both
 * lists are sorted by address (list_insert), so one merged walk finds it: O(n), where a scan of
 * every list per candidate was O(n^2) and made creation cost milliseconds once a few hundred
 * mappings waited for their deferred destruction (W3 in the GpuMmu model). */
static bool find_free(const struct vidmm_gpummu *m, UINT64 lo, UINT64 hi, UINT64 size, UINT64 *out)
{
    UINT64 cand = lo;
    const struct vidmm_mapping *r = m->reservations, *p = m->mappings;
    for (;;) {
        if (cand + size > hi || cand + size < cand)
            return false;
        /* The next range in address order (reservations and mappings may overlap each other). */
        const struct vidmm_mapping *x = !r ? p : !p ? r : r->va <= p->va ? r : p;
        if (!x || x->va >= cand + size) {
            *out = cand;
            return true;
        }
        if (x == r)
            r = r->next;
        else
            p = p->next;
        UINT64 xend = x->va + x->pages * DXGK_PAGE_SIZE;
        if (xend > cand)
            cand = xend;
    }
}

static void list_insert(struct vidmm_mapping **list, struct vidmm_mapping *x)
{
    while (*list && (*list)->va < x->va)
        list = &(*list)->next;
    x->next = *list;
    *list = x;
}

static void list_remove(struct vidmm_mapping **list, struct vidmm_mapping *x)
{
    while (*list && *list != x)
        list = &(*list)->next;
    if (*list)
        *list = x->next;
}

/* [lo, hi) from Minimum/MaximumAddress (0 = no limit), clipped to the space. */
static bool range_bounds(const struct vidmm_gpummu *m, UINT64 min, UINT64 max, UINT64 *lo, UINT64 *hi,
                         const char *who)
{
    *lo = min < VA_FLOOR ? VA_FLOOR : min;
    *hi = max == 0 || max > m->va_end ? m->va_end : max;
    if (min % DXGK_PAGE_SIZE || max % DXGK_PAGE_SIZE || *lo >= *hi) {
        dxgk_refuse("%s: MinimumAddress 0x%llx / MaximumAddress 0x%llx not page aligned or empty in [0x%llx, 0x%llx)",
                    who, (unsigned long long)min, (unsigned long long)max, (unsigned long long)VA_FLOOR,
                    (unsigned long long)m->va_end);
        return false;
    }
    return true;
}

static void mapping_unlink_locked(struct dxgk_adapter *a, struct vidmm_mapping *map)
{
    WDDM_ASSERT_HELD(&a->lock);
    list_remove(&a->mmu->mappings, map);
    if (map->alloc) {
        struct vidmm_mapping **pp = &map->alloc->mappings;
        while (*pp && *pp != map)
            pp = &(*pp)->alloc_next;
        if (*pp)
            *pp = map->alloc_next;
    }
}

/* Unmaps (invalid PTEs + TLB flush in b) and frees a mapping. */
static void mapping_destroy_locked(struct dxgk_adapter *a, struct vidmm_paging_batch *b, struct vidmm_mapping *map)
{
    WDDM_ASSERT_HELD(&a->lock);
    mapping_unlink_locked(a, map);
    NTSTATUS st = mapping_write_locked(a, b, map, true);
    if (!NT_SUCCESS(st))
        dxgk_refuse("vidmm: invalidating VA 0x%llx failed 0x%08x", (unsigned long long)map->va, (unsigned)st);
    free(map);
}

NTSTATUS vidmm_va_iommu_attach(struct dxgk_adapter *a, struct dxgk_allocation *al)
{
    if (!a->mmu || !a->mmu->iommu)
        return STATUS_SUCCESS;
    if (!al->first.backing && !vidmm_backing_commit(a, &al->first))
        return STATUS_NO_MEMORY;
    struct vidmm_mapping *map = wddm_calloc(1, sizeof *map);
    if (!map)
        return STATUS_NO_MEMORY;
    map->alloc = al;
    map->va = (D3DGPU_VIRTUAL_ADDRESS)(uintptr_t)al->first.backing;
    map->pages = (al->info.Size + DXGK_PAGE_SIZE - 1) / DXGK_PAGE_SIZE;
    map->prot.Write = 1;
    /* Only on the allocation's list: nothing walks the space's list in this model, and the
     * allocation is not published yet, so no lock is needed. */
    al->mappings = map;
    return STATUS_SUCCESS;
}

ULONG vidmm_va_pasid(const struct dxgk_adapter *a)
{
    return a->mmu && a->mmu->iommu ? a->mmu->pasid : 0;
}

HANDLE vidmm_va_kmd_process(const struct dxgk_adapter *a)
{
    return a->mmu ? a->mmu->kmd_process : NULL;
}

D3DGPU_VIRTUAL_ADDRESS vidmm_va_iommu_address(const struct dxgk_adapter *a, const struct dxgk_allocation *al)
{
    return a->mmu && a->mmu->iommu && al->mappings ? al->mappings->va : 0;
}

void vidmm_va_iommu_detach_unpublished(struct dxgk_allocation *al)
{
    while (al->mappings) {
        struct vidmm_mapping *map = al->mappings;
        al->mappings = map->alloc_next;
        free(map);
    }
}

void vidmm_va_unmap_allocation_locked(struct dxgk_adapter *a, struct dxgk_allocation *alloc)
{
    WDDM_ASSERT_HELD(&a->lock);
    if (!a->mmu || !alloc->mappings)
        return;
    struct vidmm_paging_batch b;
    vidmm_batch_init(&b, a);
    while (alloc->mappings)
        mapping_destroy_locked(a, &b, alloc->mappings);
    vidmm_paging_flush_locked(&b);
}

void vidmm_va_unmap_via_locked(struct dxgk_adapter *a, struct dxgk_allocation *alloc, D3DKMT_HANDLE via)
{
    WDDM_ASSERT_HELD(&a->lock);
    if (!a->mmu || !alloc->mappings)
        return;
    struct vidmm_paging_batch b;
    vidmm_batch_init(&b, a);
    for (struct vidmm_mapping *map = alloc->mappings, *next; map; map = next) {
        next = map->alloc_next;
        if (map->via == via)
            mapping_destroy_locked(a, &b, map);
    }
    vidmm_paging_flush_locked(&b);
}

/* ---- start / stop ---------------------------------------------------------------------------- */
/* The IoMmu model's start: VidMm registers the process with the IOMMU, gets its PASID and hands
 * it to the KMD's process (DXGKARG_CREATEPROCESS.pPasid, one per physical adapter) and to each
 * device (DXGKARG_CREATEDEVICE.Pasid, objects/device.c). */
static NTSTATUS iommu_start(struct dxgk_adapter *a, struct vidmm_gpummu *m)
{
    const DRIVER_INITIALIZATION_DATA *ddi = &a->driver.ddi;
    m->iommu = true;
    NTSTATUS st = dxgk_iommu_domain_create(&a->pdo, &m->pasid);
    if (!NT_SUCCESS(st)) {
        free(m);
        return st;
    }
    DXGKARG_CREATEPROCESS cp = { .hDxgkProcess = (HANDLE)m, .NumPasid = 1, .pPasid = &m->pasid };
    st = ddi->DxgkDdiCreateProcess(a->miniport, &cp);
    if (!NT_SUCCESS(st)) {
        dxgk_refuse("adapter start: DxgkDdiCreateProcess failed 0x%08x", (unsigned)st);
        dxgk_iommu_domain_destroy(m->pasid);
        free(m);
        return st;
    }
    m->kmd_process = cp.hKmdProcess;
    a->mmu = m;
    return STATUS_SUCCESS;
}

NTSTATUS vidmm_gpummu_start(struct dxgk_adapter *a)
{
    const DRIVER_INITIALIZATION_DATA *ddi = &a->driver.ddi;
    if (!dxgk_verify_gpummu_ddi(a))
        return STATUS_UNSUCCESSFUL;
    struct vidmm_gpummu *m = wddm_calloc(1, sizeof *m);
    if (!m)
        return STATUS_NO_MEMORY;
    if (a->caps.MemoryManagementCaps.IoMmuSupported)
        return iommu_start(a, m);
    NTSTATUS st;
    DXGK_QUERYGPUMMUCAPSIN cin = { .PhysicalAdapterIndex = 0 };
    st = query(a, DXGKQAITYPE_GPUMMUCAPS, &cin, sizeof cin, &m->caps, sizeof m->caps);
    if (!NT_SUCCESS(st)) {
        dxgk_refuse("adapter start: DxgkDdiQueryAdapterInfo(DXGKQAITYPE_GPUMMUCAPS) failed 0x%08x", (unsigned)st);
        goto fail;
    }
    if (!dxgk_verify_gpummu_caps(a, &m->caps)) {
        st = STATUS_UNSUCCESSFUL;
        goto fail;
    }
    for (UINT l = 0; l < m->caps.PageTableLevelCount; l++) {
        DXGK_QUERYPAGETABLELEVELIN lin = { .PageTableLevel = l };
        st = query(a, DXGKQAITYPE_PAGETABLELEVELDESC, &lin, sizeof lin, &m->level[l], sizeof m->level[l]);
        if (!NT_SUCCESS(st)) {
            dxgk_refuse("adapter start: DxgkDdiQueryAdapterInfo(DXGKQAITYPE_PAGETABLELEVELDESC, level %u) failed 0x%08x",
                        l, (unsigned)st);
            goto fail;
        }
        if (!dxgk_verify_page_table_level(a, &m->level[l], l, m->caps.PageTableLevelCount)) {
            st = STATUS_UNSUCCESSFUL;
            goto fail;
        }
    }
    m->leaf_entries = 1u << m->level[1].PageTableIndexBitCount;
    m->leaf_shift = 12 + m->level[1].PageTableIndexBitCount;
    if (m->level[1].PageTableSizeInBytes < (UINT64)m->leaf_entries * sizeof(UINT64) ||
        m->leaf_shift >= m->caps.VirtualAddressBitCount ||
        m->caps.VirtualAddressBitCount - m->leaf_shift > m->level[0].PageTableIndexBitCount) {
        dxgk_refuse("verifier: DXGK_PAGE_TABLE_LEVEL_DESC: leaf %u entries in %llu bytes, root %u index bits do "
                    "not cover DXGK_GPUMMUCAPS.VirtualAddressBitCount %u", m->leaf_entries,
                    (unsigned long long)m->level[1].PageTableSizeInBytes, m->level[0].PageTableIndexBitCount,
                    m->caps.VirtualAddressBitCount);
        st = STATUS_UNSUCCESSFUL;
        goto fail;
    }
    m->va_end = 1ull << m->caps.VirtualAddressBitCount;
    /* The root starts with one page of entries (the level's initial size when it gives one)
     * and grows with the first mapping beyond it (root_grow_locked). */
    m->root_max = 1u << (m->caps.VirtualAddressBitCount - m->leaf_shift);
    m->root_entries = (UINT)(m->level[0].PageTableSizeInBytes / sizeof(UINT64));
    if (m->root_entries < DXGK_PAGE_SIZE / sizeof(UINT64))
        m->root_entries = DXGK_PAGE_SIZE / sizeof(UINT64);
    if (m->root_entries > m->root_max)
        m->root_entries = m->root_max;
    m->root_gen = 1;
    DXGKARG_GETROOTPAGETABLESIZE rs = { .NumberOfPte = m->root_entries };
    SIZE_T bytes = ddi->DxgkDdiGetRootPageTableSize(a->miniport, &rs);
    if (rs.NumberOfPte < m->root_entries || bytes < (SIZE_T)m->root_entries * sizeof(UINT64)) {
        dxgk_refuse("verifier: DxgkDdiGetRootPageTableSize(%u entries) answered %zu bytes / %u entries",
                    m->root_entries, (size_t)bytes, rs.NumberOfPte);
        st = STATUS_UNSUCCESSFUL;
        goto fail;
    }
    m->root_size = (bytes + DXGK_PAGE_SIZE - 1) & ~(UINT64)(DXGK_PAGE_SIZE - 1);
    m->root_seg = m->level[0].PageTableSegmentId;
    m->leaf = wddm_calloc(m->root_max, sizeof *m->leaf);
    if (!m->leaf) {
        st = STATUS_NO_MEMORY;
        goto fail;
    }
    DXGKARG_CREATEPROCESS cp = { .hDxgkProcess = (HANDLE)m };
    st = ddi->DxgkDdiCreateProcess(a->miniport, &cp);
    if (!NT_SUCCESS(st)) {
        dxgk_refuse("adapter start: DxgkDdiCreateProcess failed 0x%08x", (unsigned)st);
        goto fail;
    }
    m->kmd_process = cp.hKmdProcess;
    a->mmu = m;
    struct vidmm_paging_batch b;
    vidmm_batch_init(&b, a);
    pthread_mutex_lock(&a->lock);
    st = table_alloc_locked(a, &b, m->root_seg, m->root_size, m->level[0].PageTableAlignmentInBytes, &m->root_offset);
    if (NT_SUCCESS(st)) {
        st = table_zero_locked(a, &b, m->root_seg, m->root_offset, m->root_size);
        if (!NT_SUCCESS(st))
            vidmm_segment_free_locked(&a->seg[m->root_seg - 1], m->root_offset, m->root_size);
    }
    vidmm_paging_flush_locked(&b);
    pthread_mutex_unlock(&a->lock);
    if (!NT_SUCCESS(st)) {
        a->mmu = NULL;
        ddi->DxgkDdiDestroyProcess(a->miniport, m->kmd_process);
        goto fail;
    }
    /* Zeroed before any context can point at it (DxgkDdiSetRootPageTable). */
    if (b.fence)
        gsched_wait_fence(&a->node[a->paging_node], b.fence);
    return STATUS_SUCCESS;
fail:
    free(m->leaf);
    free(m);
    return NT_SUCCESS(st) ? STATUS_UNSUCCESSFUL : st;
}

NTSTATUS vidmm_va_rewrite_tables_locked(struct dxgk_adapter *a, struct vidmm_paging_batch *b)
{
    WDDM_ASSERT_HELD(&a->lock);
    struct vidmm_gpummu *m = a->mmu;
    if (!m || m->iommu) /* the IOMMU's tables are system memory: the GPU's power loss spares them */
        return STATUS_SUCCESS;
    /* The roots (the current one and those grown out of, which work submitted earlier may still
     * name), then every leaf table zeroed, then every mapping's entries as its allocation lies now. */
    NTSTATUS st = root_write_locked(a, b, m->root_offset, m->root_size, m->root_entries);
    for (struct vidmm_old_root *o = m->old_roots; o && NT_SUCCESS(st); o = o->next)
        st = root_write_locked(a, b, o->offset, o->size, o->entries);
    for (UINT i = 0; i < m->root_entries && NT_SUCCESS(st); i++)
        if (m->leaf[i].seg)
            st = table_zero_locked(a, b, m->leaf[i].seg, m->leaf[i].offset, m->level[1].PageTableSizeInBytes);
    for (const struct vidmm_mapping *map = m->mappings; map && NT_SUCCESS(st); map = map->next)
        st = mapping_write_locked(a, b, map, false);
    if (NT_SUCCESS(st))
        st = tlb_flush_locked(a, b);
    return st;
}

void vidmm_gpummu_stop(struct dxgk_adapter *a)
{
    struct vidmm_gpummu *m = a->mmu;
    if (!m)
        return;
    if (m->iommu) { /* every allocation (and its mapping) is gone with the devices */
        pthread_mutex_lock(&a->lock);
        a->mmu = NULL;
        pthread_mutex_unlock(&a->lock);
        a->driver.ddi.DxgkDdiDestroyProcess(a->miniport, m->kmd_process);
        dxgk_iommu_domain_destroy(m->pasid); /* the engines are idle: nothing translates any more */
        free(m);
        return;
    }
    pthread_mutex_lock(&a->lock);
    while (m->mappings) {
        struct vidmm_mapping *x = m->mappings;
        mapping_unlink_locked(a, x);
        free(x);
    }
    while (m->reservations) {
        struct vidmm_mapping *x = m->reservations;
        m->reservations = x->next;
        free(x);
    }
    while (m->old_roots) {
        struct vidmm_old_root *o = m->old_roots;
        m->old_roots = o->next;
        vidmm_segment_free_locked(&a->seg[m->root_seg - 1], o->offset, o->size);
        free(o);
    }
    for (UINT i = 0; i < m->root_entries; i++)
        if (m->leaf[i].seg)
            vidmm_segment_free_locked(&a->seg[m->leaf[i].seg - 1], m->leaf[i].offset,
                                      m->level[1].PageTableSizeInBytes);
    vidmm_segment_free_locked(&a->seg[m->root_seg - 1], m->root_offset, m->root_size);
    a->mmu = NULL;
    pthread_mutex_unlock(&a->lock);
    a->driver.ddi.DxgkDdiDestroyProcess(a->miniport, m->kmd_process);
    free(m->leaf);
    free(m);
}

void vidmm_va_root_locked(const struct dxgk_adapter *a, struct vidmm_root_ref *r)
{
    WDDM_ASSERT_HELD(&a->lock);
    const struct vidmm_gpummu *m = a->mmu;
    if (m->iommu) { /* no root page table: gen 0, nothing to switch to */
        *r = (struct vidmm_root_ref){ 0 };
        return;
    }
    r->address = (D3DGPU_PHYSICAL_ADDRESS)phys(a, m->root_seg, m->root_offset);
    r->entries = m->root_entries;
    r->gen = m->root_gen;
}

void vidmm_va_switch_root(struct dxgk_adapter *a, struct dxgk_context *c, const struct vidmm_root_ref *r)
{
    if (c->root_gen == r->gen)
        return;
    DXGKARG_SETROOTPAGETABLE s = { .hContext = c->kmd, .Address = r->address, .NumEntries = r->entries };
    a->driver.ddi.DxgkDdiSetRootPageTable(a->miniport, &s);
    c->root_gen = r->gen;
}

void vidmm_va_set_root(struct dxgk_adapter *a, struct dxgk_context *c)
{
    if (!a->mmu || a->mmu->iommu)
        return;
    struct vidmm_root_ref r;
    pthread_mutex_lock(&a->lock);
    vidmm_va_root_locked(a, &r);
    pthread_mutex_unlock(&a->lock);
    vidmm_va_switch_root(a, c, &r);
}

/* ---- the thunks ------------------------------------------------------------------------------ */
/* The adapter of an adapter-level GPU VA thunk (Reserve, Free), referenced; NULL with *st set
 * and a line for NULL arguments, a bad handle or a WDDM 1.x adapter. */
static struct dxgk_adapter *gpummu_adapter_get(const D3DKMT_HANDLE *h, const char *who, NTSTATUS *st)
{
    *st = STATUS_INVALID_PARAMETER;
    if (!h) {
        dxgk_refuse("%s: NULL arguments", who);
        return NULL;
    }
    struct dxgk_adapter *a = dxgk_adapter_get(*h);
    if (!a) {
        dxgk_refuse("%s: invalid adapter handle 0x%08x", who, *h);
        return NULL;
    }
    if (!a->mmu || a->mmu->iommu) {
        dxgk_refuse("%s: %s", who, a->mmu ? IOMMU_NO_VA_SERVICES : "the adapter runs the WDDM 1.x model (no "
                                                                   "DXGK_VIDMMCAPS.GpuMmuSupported)");
        dxgk_adapter_put(a);
        *st = STATUS_NOT_SUPPORTED;
        return NULL;
    }
    return a;
}

NTSTATUS APIENTRY D3DKMTReserveGpuVirtualAddress(D3DDDI_RESERVEGPUVIRTUALADDRESS *args)
{
    static const char who[] = "D3DKMTReserveGpuVirtualAddress";
    NTSTATUS st;
    struct dxgk_adapter *a = gpummu_adapter_get(args ? &args->hAdapter : NULL, who, &st);
    if (!a)
        return st;
    struct vidmm_gpummu *m = a->mmu;
    st = STATUS_INVALID_PARAMETER;
    UINT64 lo, hi, va = 0;
    if (!args->Size || args->Size % DXGK_PAGE_SIZE || args->BaseAddress % DXGK_PAGE_SIZE) {
        dxgk_refuse("%s: Size 0x%llx / BaseAddress 0x%llx not a positive page multiple", who,
                    (unsigned long long)args->Size, (unsigned long long)args->BaseAddress);
        goto out;
    }
    if (args->ReservationType > D3DDDIGPUVIRTUALADDRESS_RESERVE_NO_COMMIT) {
        dxgk_refuse("%s: ReservationType %d unknown", who, (int)args->ReservationType);
        goto out;
    }
    if (args->ReservationType == D3DDDIGPUVIRTUALADDRESS_RESERVE_ZERO && !m->caps.ZeroInPteSupported) {
        dxgk_refuse("%s: D3DDDIGPUVIRTUALADDRESS_RESERVE_ZERO needs DXGK_GPUMMUCAPS.ZeroInPteSupported", who);
        st = STATUS_NOT_SUPPORTED;
        goto out;
    }
    if (!range_bounds(m, args->MinimumAddress, args->MaximumAddress, &lo, &hi, who))
        goto out;
    struct vidmm_mapping *r = wddm_calloc(1, sizeof *r);
    if (!r) {
        st = STATUS_NO_MEMORY;
        goto out;
    }
    pthread_mutex_lock(&a->lock);
    bool ok;
    if (args->BaseAddress) {
        va = args->BaseAddress;
        ok = va >= VA_FLOOR && va + args->Size <= m->va_end && va + args->Size > va &&
             !overlaps(m->reservations, va, args->Size, NULL) && !overlaps(m->mappings, va, args->Size, NULL);
    } else {
        ok = find_free(m, lo, hi, args->Size, &va);
    }
    if (ok) {
        r->va = va;
        r->pages = args->Size / DXGK_PAGE_SIZE;
        list_insert(&m->reservations, r);
    }
    pthread_mutex_unlock(&a->lock);
    if (!ok) {
        free(r);
        dxgk_refuse("%s: no free range of 0x%llx bytes at 0x%llx / in [0x%llx, 0x%llx)", who,
                    (unsigned long long)args->Size, (unsigned long long)args->BaseAddress, (unsigned long long)lo,
                    (unsigned long long)hi);
        st = args->BaseAddress ? STATUS_INVALID_PARAMETER : STATUS_NO_MEMORY;
        goto out;
    }
    /* Fresh tables are zero: a reserved range faults until mapped, nothing to write. */
    args->VirtualAddress = va;
    args->PagingFenceValue = 0;
    st = STATUS_SUCCESS;
out:
    dxgk_adapter_put(a);
    return st;
}

/* D3DKMTMapGpuVirtualAddress's arguments against the allocation and the space: the page window
 * inside the allocation, the protection bits, the base address, the range. */
static NTSTATUS map_check_args(const struct vidmm_gpummu *m, const D3DDDI_MAPGPUVIRTUALADDRESS *args,
                               const struct dxgk_allocation *al, UINT64 *lo, UINT64 *hi, const char *who)
{
    UINT64 alloc_pages = (al->info.Size + DXGK_PAGE_SIZE - 1) / DXGK_PAGE_SIZE;
    if (!args->SizeInPages || args->OffsetInPages >= alloc_pages || args->SizeInPages > alloc_pages - args->OffsetInPages) {
        dxgk_refuse("%s: OffsetInPages %llu + SizeInPages %llu not inside the allocation's %llu pages", who,
                    (unsigned long long)args->OffsetInPages, (unsigned long long)args->SizeInPages,
                    (unsigned long long)alloc_pages);
        return STATUS_INVALID_PARAMETER;
    }
    D3DDDIGPUVIRTUALADDRESS_PROTECTION_TYPE pr = args->Protection;
    if (pr.Reserved || (pr.NoAccess && (pr.Write || pr.Execute || pr.Zero)) || (pr.Zero && pr.Write)) {
        dxgk_refuse("%s: Protection 0x%llx: reserved bits, or NoAccess/Zero with access bits", who,
                    (unsigned long long)pr.Value);
        return STATUS_INVALID_PARAMETER;
    }
    if (pr.Zero && !m->caps.ZeroInPteSupported) {
        dxgk_refuse("%s: Protection.Zero needs DXGK_GPUMMUCAPS.ZeroInPteSupported", who);
        return STATUS_NOT_SUPPORTED;
    }
    if (args->BaseAddress % DXGK_PAGE_SIZE) {
        dxgk_refuse("%s: BaseAddress 0x%llx not page aligned", who, (unsigned long long)args->BaseAddress);
        return STATUS_INVALID_PARAMETER;
    }
    if (!range_bounds(m, args->MinimumAddress, args->MaximumAddress, lo, hi, who))
        return STATUS_INVALID_PARAMETER;
    return STATUS_SUCCESS;
}

/* Where a mapping of size bytes goes: at base, inside one reservation or in space no
 * reservation covers, never over a mapping; or (base 0) the first free range in [lo, hi). */
static bool map_place_locked(const struct dxgk_adapter *a, const struct vidmm_gpummu *m, UINT64 base, UINT64 size,
                             UINT64 lo, UINT64 hi, UINT64 *va)
{
    WDDM_ASSERT_HELD(&a->lock);
    if (!base)
        return find_free(m, lo, hi, size, va);
    *va = base;
    return base >= VA_FLOOR && base + size <= m->va_end && base + size > base &&
           !overlaps(m->mappings, base, size, NULL) &&
           (containing(m->reservations, base, size) || !overlaps(m->reservations, base, size, NULL));
}

NTSTATUS APIENTRY D3DKMTMapGpuVirtualAddress(D3DDDI_MAPGPUVIRTUALADDRESS *args)
{
    static const char who[] = "D3DKMTMapGpuVirtualAddress";
    if (!args) {
        dxgk_refuse("%s: NULL arguments", who);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_paging_queue *q;
    struct dxgk_device *d = dxgk_paging_queue_resolve(args->hPagingQueue, &q, who);
    if (!d)
        return STATUS_INVALID_PARAMETER;
    struct dxgk_adapter *a = d->adapter;
    struct vidmm_gpummu *m = a->mmu;
    struct dxgk_allocation *al = NULL;
    struct vidmm_mapping *map = NULL;
    NTSTATUS st = STATUS_INVALID_PARAMETER;
    UINT64 lo, hi;
    if (!m || m->iommu) {
        dxgk_refuse("%s: %s", who, m ? IOMMU_NO_VA_SERVICES : "the adapter runs the WDDM 1.x model (no "
                                                              "DXGK_VIDMMCAPS.GpuMmuSupported)");
        st = STATUS_NOT_SUPPORTED;
        goto out;
    }
    al = dxgk_allocation_get(args->hAllocation, d, NULL); /* an opened handle: its creator's memory */
    if (!al) {
        dxgk_refuse("%s: invalid allocation handle 0x%08x for device 0x%08x", who, args->hAllocation, d->handle);
        goto out;
    }
    st = map_check_args(m, args, al, &lo, &hi, who);
    if (!NT_SUCCESS(st))
        goto out;
    D3DDDIGPUVIRTUALADDRESS_PROTECTION_TYPE pr = args->Protection;
    map = wddm_calloc(1, sizeof *map);
    if (!map) {
        st = STATUS_NO_MEMORY;
        goto out;
    }
    UINT64 size = args->SizeInPages * DXGK_PAGE_SIZE;
    struct vidmm_paging_batch b;
    vidmm_batch_init(&b, a);
    pthread_mutex_lock(&a->lock);
    UINT64 va = 0;
    if (!NT_SUCCESS(d->error)) {
        st = STATUS_DEVICE_REMOVED;
        pthread_mutex_unlock(&a->lock);
        dxgk_refuse("%s: device 0x%08x is in error", who, d->handle);
        goto out;
    }
    if (al->dead) {
        pthread_mutex_unlock(&a->lock);
        dxgk_refuse("%s: allocation 0x%08x is being destroyed", who, al->handle);
        goto out;
    }
    if (!map_place_locked(a, m, args->BaseAddress, size, lo, hi, &va)) {
        pthread_mutex_unlock(&a->lock);
        dxgk_refuse("%s: 0x%llx bytes at 0x%llx: %s", who, (unsigned long long)size,
                    (unsigned long long)args->BaseAddress,
                    args->BaseAddress ? "overlaps a mapping or straddles a reservation, or outside the space"
                                      : "no free range in [MinimumAddress, MaximumAddress)");
        st = args->BaseAddress ? STATUS_INVALID_PARAMETER : STATUS_NO_MEMORY;
        goto out;
    }
    map->alloc = al;
    map->via = args->hAllocation;
    map->va = va;
    map->pages = args->SizeInPages;
    map->offset_pages = args->OffsetInPages;
    map->prot = pr;
    st = mapping_write_locked(a, &b, map, false);
    if (NT_SUCCESS(st)) {
        list_insert(&m->mappings, map);
        map->alloc_next = al->mappings;
        al->mappings = map;
        map = NULL;
    }
    vidmm_paging_flush_locked(&b);
    UINT64 fence = b.fence;
    if (NT_SUCCESS(st)) {
        args->VirtualAddress = va;
        args->PagingFenceValue = fence;
        st = fence && !gsched_fence_completed(&a->node[a->paging_node], fence) ? STATUS_PENDING : STATUS_SUCCESS;
        if (q) { /* a value of the queue's own fence, as D3DKMTMakeResident (vidmm/pagingqueue.c) */
            args->PagingFenceValue = dxgk_paging_queue_fence_locked(a, q, fence);
            st = args->PagingFenceValue ? STATUS_PENDING : STATUS_SUCCESS;
        }
    }
    pthread_mutex_unlock(&a->lock);
out:
    free(map);
    if (al)
        dxgk_object_put(&al->obj);
    dxgk_paging_queue_put(q);
    dxgk_device_put(d);
    return st;
}

NTSTATUS APIENTRY D3DKMTFreeGpuVirtualAddress(const D3DKMT_FREEGPUVIRTUALADDRESS *args)
{
    static const char who[] = "D3DKMTFreeGpuVirtualAddress";
    NTSTATUS st;
    struct dxgk_adapter *a = gpummu_adapter_get(args ? &args->hAdapter : NULL, who, &st);
    if (!a)
        return st;
    struct vidmm_gpummu *m = a->mmu;
    st = STATUS_INVALID_PARAMETER;
    struct vidmm_paging_batch b;
    vidmm_batch_init(&b, a);
    pthread_mutex_lock(&a->lock);
    /* Exactly a range Reserve or Map returned: a reservation goes with every mapping inside
     * it; a mapping (inside a reservation or not) is unmapped, its reservation stays. */
    struct vidmm_mapping *r = m->reservations, *x = m->mappings;
    while (r && !(r->va == args->BaseAddress && r->pages * DXGK_PAGE_SIZE == args->Size))
        r = r->next;
    while (!r && x && !(x->va == args->BaseAddress && x->pages * DXGK_PAGE_SIZE == args->Size))
        x = x->next;
    if (r) {
        UINT64 end = r->va + r->pages * DXGK_PAGE_SIZE;
        for (struct vidmm_mapping *y = m->mappings, *next; y; y = next) {
            next = y->next;
            if (y->va >= r->va && y->va < end)
                mapping_destroy_locked(a, &b, y);
        }
        list_remove(&m->reservations, r);
        free(r);
        st = STATUS_SUCCESS;
    } else if (x) {
        mapping_destroy_locked(a, &b, x);
        st = STATUS_SUCCESS;
    }
    vidmm_paging_flush_locked(&b);
    pthread_mutex_unlock(&a->lock);
    if (!NT_SUCCESS(st))
        dxgk_refuse("%s: [0x%llx, +0x%llx) is not a range Reserve or Map returned", who,
                    (unsigned long long)args->BaseAddress, (unsigned long long)args->Size);
    dxgk_adapter_put(a);
    return st;
}
