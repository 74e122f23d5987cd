/* DxgkDdiBuildPagingBuffer (docs/semantics.md §2): the commands the paging node (the copy
 * engine) runs to move allocations between segments and system memory, fill new
 * allocations, and map system pages into the aperture.
 *
 * Retry protocol (§2.4): when the remaining DmaSize cannot hold the next command, the KMD
 * writes what fits, records its progress in MultipassOffset and returns
 * STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER; VidMm submits that buffer and calls again with a
 * fresh one, the same operation and the MultipassOffset left untouched. Progress is counted
 * in bytes for TRANSFER and FILL, in pages for MAP_APERTURE_SEGMENT(2). */
#include "kmd/kmd.h"

#include "common/debug.h"

#include <wddm/swgpu.h>

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* wddm_swkmd_set_paging_busy (include/wddm/swgpu.h): -1 until the environment was read. */
static atomic_int paging_busy = -1;

void wddm_swkmd_set_paging_busy(int on)
{
    atomic_store(&paging_busy, on ? 1 : 0);
}

/* Whether a copy out of an allocation VidMm did not call idle is answered BUSY (§2.4). */
static bool answer_busy(int idle)
{
    if (idle)
        return false;
    int v = atomic_load(&paging_busy);
    if (v < 0) {
        const char *e = getenv("WDDM_KMD_PAGING_BUSY");
        int want = e && *e && strcmp(e, "0") != 0;
        atomic_compare_exchange_strong(&paging_busy, &v, want);
        v = atomic_load(&paging_busy);
    }
    return v == 1;
}

/* One COPY or FILL moves at most this much (row_bytes is 32-bit; a multiple of 16 keeps a
 * fill pattern's phase across commands). */
#define PAGING_CHUNK (1u << 30)

static BYTE *reserve(DXGKARG_BUILDPAGINGBUFFER *a, UINT32 bytes)
{
    if (a->DmaSize < bytes)
        return NULL;
    BYTE *p = a->pDmaBuffer;
    a->pDmaBuffer = p + bytes;
    a->DmaSize -= bytes;
    return p;
}

static NTSTATUS refuse(const char *what)
{
    wddm_debug("kmd", "BuildPagingBuffer: %s", what);
    return STATUS_INVALID_PARAMETER;
}

/* The GPU address of a segment-described side. SegmentAddress is BaseAddress + offset
 * (§2.3); a bare offset is accepted too and based on SegmentId. */
static UINT64 segment_address(UINT32 segment_id, LONGLONG segment_address)
{
    UINT64 a = (UINT64)segment_address;
    if ((a >> SWGPU_ADDR_SEGMENT_SHIFT) == 0)
        a += SWGPU_SEGMENT_BASE(segment_id);
    return a;
}

/* One side of a transfer: a segment range or an MDL's pages. */
struct side {
    int is_mdl;
    UINT64 addr;           /* segment side: GPU address of byte 0 of the transfer */
    const MDL *mdl;        /* MDL side */
    UINT64 mdl_base;       /* MDL side: byte position of the transfer's byte 0 in the MDL */
};

/* GPU address of transfer byte `pos` and how many bytes from there are contiguous (at most
 * `want`): MDL pages are system pages, identity-mapped (architecture.md), and consecutive
 * PFNs coalesce into one run. Returns 0 if the MDL is too short. */
static UINT64 side_run(const struct side *s, UINT64 pos, UINT64 want, UINT64 *addr)
{
    if (!s->is_mdl) {
        *addr = s->addr + pos;
        return want;
    }
    UINT64 b = s->mdl_base + pos;
    UINT64 page = b / SWGPU_PAGE_SIZE;
    if (page >= s->mdl->PageCount || !s->mdl->PfnArray)
        return 0;
    UINT64 pfn = s->mdl->PfnArray[page];
    *addr = pfn * SWGPU_PAGE_SIZE + b % SWGPU_PAGE_SIZE;
    UINT64 run = SWGPU_PAGE_SIZE - b % SWGPU_PAGE_SIZE;
    while (run < want && page + 1 < s->mdl->PageCount && s->mdl->PfnArray[page + 1] == pfn + 1) {
        page++;
        pfn++;
        run += SWGPU_PAGE_SIZE;
    }
    return run < want ? run : want;
}

static void put_copy(BYTE *p, UINT64 dst, UINT64 src, UINT32 bytes)
{
    struct swgpu_cmd_copy c;
    memset(&c, 0, sizeof c);
    c.hdr.opcode = SWGPU_OP_COPY;
    c.hdr.size_bytes = sizeof c;
    c.dst.addr = dst;
    c.src.addr = src;
    c.row_bytes = bytes;
    c.rows = 1;
    c.slices = 1;
    memcpy(p, &c, sizeof c);
}

static NTSTATUS build_transfer(struct swkmd_adapter *ad, DXGKARG_BUILDPAGINGBUFFER *a)
{
    const DXGK_BUILDPAGINGBUFFER_TRANSFER *t = &a->Transfer;
    UINT64 size = t->TransferSize;
    UINT64 done = a->MultipassOffset;
    if (size == 0) /* after a TDR: content is gone, nothing to copy (§2.3) */
        return STATUS_SUCCESS;
    if (t->Source.SegmentId != 0 && done == 0 && answer_busy(t->Flags.AllocationIsIdle))
        return STATUS_GRAPHICS_ALLOCATION_BUSY; /* nothing written: pDmaBuffer unchanged */
    if (done > size)
        return refuse("TRANSFER MultipassOffset beyond TransferSize");
    /* FIXME: progress is kept in bytes in the 32-bit MultipassOffset; a transfer of 4 GiB or
     * more would need page units. No segment of the default layout is that large. */
    if (size > 0xFFFFFFFFull)
        return refuse("TRANSFER of 4 GiB or more");
    struct side src = {0}, dst = {0};
    const struct {
        struct side *s;
        UINT32 id;
        LONGLONG addr;
        const MDL *mdl;
    } sides[2] = {{&src, t->Source.SegmentId, t->Source.SegmentAddress.QuadPart, t->Source.pMdl},
                  {&dst, t->Destination.SegmentId, t->Destination.SegmentAddress.QuadPart, t->Destination.pMdl}};
    for (int i = 0; i < 2; i++) {
        struct side *s = sides[i].s;
        if (sides[i].id == 0) {
            if (!sides[i].mdl)
                return refuse("TRANSFER MDL side without an MDL");
            s->is_mdl = 1;
            s->mdl = sides[i].mdl;
            /* MdlOffset is in pages; TransferOffset does not apply to MDL sides (§2.3). */
            s->mdl_base = (UINT64)t->MdlOffset * SWGPU_PAGE_SIZE + s->mdl->ByteOffset;
            if (s->mdl_base + size > (UINT64)s->mdl->PageCount * SWGPU_PAGE_SIZE)
                return refuse("TRANSFER larger than its MDL");
        } else {
            if (sides[i].id > SWKMD_SEGMENT_COUNT)
                return refuse("TRANSFER segment id out of range");
            s->addr = segment_address(sides[i].id, sides[i].addr) + t->TransferOffset;
            if ((s->addr & SWGPU_ADDR_OFFSET_MASK) + size > ad->segment_size[sides[i].id])
                return refuse("TRANSFER range outside its segment");
        }
    }
    if (src.is_mdl && dst.is_mdl)
        return refuse("TRANSFER between two MDLs");

    while (done < size) {
        UINT64 want = size - done;
        if (want > PAGING_CHUNK)
            want = PAGING_CHUNK;
        UINT64 sa = 0, da = 0;
        UINT64 n = side_run(&src, done, want, &sa);
        UINT64 m = side_run(&dst, done, want, &da);
        if (n == 0 || m == 0)
            return refuse("TRANSFER runs past its MDL");
        if (m < n)
            n = m;
        BYTE *p = reserve(a, sizeof(struct swgpu_cmd_copy));
        if (!p) {
            a->MultipassOffset = (UINT)done;
            return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
        }
        put_copy(p, da, sa, (UINT32)n);
        done += n;
    }
    a->MultipassOffset = 0;
    return STATUS_SUCCESS;
}

static NTSTATUS build_fill(struct swkmd_adapter *ad, DXGKARG_BUILDPAGINGBUFFER *a)
{
    const DXGK_BUILDPAGINGBUFFER_FILL *f = &a->Fill;
    UINT32 id = f->Destination.SegmentId;
    /* Memory segments only, never the aperture (§2.3). */
    if (id == 0 || id > SWKMD_SEGMENT_COUNT || id == SWKMD_SEGMENT_APERTURE)
        return refuse("FILL destination is not a memory segment");
    UINT64 size = f->FillSize;
    UINT64 dst = segment_address(id, f->Destination.SegmentAddress.QuadPart);
    if ((dst & SWGPU_ADDR_OFFSET_MASK) + size > ad->segment_size[id])
        return refuse("FILL range outside its segment");
    UINT64 done = a->MultipassOffset;
    if (done > size)
        return refuse("FILL MultipassOffset beyond FillSize");
    if (size > 0xFFFFFFFFull) /* FIXME: as TRANSFER, byte progress in a 32-bit field */
        return refuse("FILL of 4 GiB or more");
    while (done < size) {
        UINT64 n = size - done;
        if (n > PAGING_CHUNK)
            n = PAGING_CHUNK;
        BYTE *p = reserve(a, sizeof(struct swgpu_cmd_fill));
        if (!p) {
            a->MultipassOffset = (UINT)done;
            return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
        }
        struct swgpu_cmd_fill c = swgpu_cmd_fill_bytes((UINT32)n, &f->FillPattern, 4); /* the 32-bit FillPattern */
        c.dst.addr = dst + done;
        memcpy(p, &c, sizeof c);
        done += n;
    }
    a->MultipassOffset = 0;
    return STATUS_SUCCESS;
}

/* The page list of a map: an MDL's PFN array (op 5) or an ADL (op 17, contiguous or not). */
struct map_pages {
    const PFN_NUMBER *array;   /* NULL: contiguous from base */
    UINT64 base;
};

static UINT64 map_page_addr(const struct map_pages *pg, UINT64 i)
{
    return (pg->array ? (UINT64)pg->array[i] : pg->base + i) * SWGPU_PAGE_SIZE;
}

/* GART_MAP commands for NumberOfPages pages from `pg` at OffsetInPages of the aperture, with
 * the MultipassOffset protocol of §2.4 (progress in pages). */
static NTSTATUS emit_gart_map(struct swkmd_adapter *ad, DXGKARG_BUILDPAGINGBUFFER *a, UINT32 segment_id,
                              UINT64 offset_in_pages, UINT64 pages, const struct map_pages *pg, const char *op)
{
    if (segment_id != SWKMD_SEGMENT_APERTURE) {
        wddm_debug("kmd", "BuildPagingBuffer: %s of a segment that is not the aperture", op);
        return STATUS_INVALID_PARAMETER;
    }
    UINT64 aperture_pages = ad->segment_size[SWKMD_SEGMENT_APERTURE] / SWGPU_PAGE_SIZE;
    if (offset_in_pages > aperture_pages || pages > aperture_pages - offset_in_pages) {
        wddm_debug("kmd", "BuildPagingBuffer: %s range outside the aperture", op);
        return STATUS_INVALID_PARAMETER;
    }
    UINT64 done = a->MultipassOffset;
    if (done > pages) {
        wddm_debug("kmd", "BuildPagingBuffer: %s MultipassOffset beyond NumberOfPages", op);
        return STATUS_INVALID_PARAMETER;
    }
    const UINT32 head = sizeof(struct swgpu_cmd_gart_map);
    while (done < pages) {
        if (a->DmaSize < head + 8) {
            a->MultipassOffset = (UINT)done;
            return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
        }
        UINT64 n = pages - done;
        UINT64 fit = (a->DmaSize - head) / 8;
        if (n > fit)
            n = fit;
        BYTE *p = reserve(a, head + (UINT32)n * 8);
        struct swgpu_cmd_gart_map c;
        memset(&c, 0, sizeof c);
        c.hdr.opcode = SWGPU_OP_GART_MAP;
        c.hdr.size_bytes = head + (UINT32)n * 8;
        c.first_page = (UINT32)(offset_in_pages + done);
        c.page_count = (UINT32)n;
        memcpy(p, &c, sizeof c);
        for (UINT64 i = 0; i < n; i++) {
            UINT64 addr = map_page_addr(pg, done + i);
            memcpy(p + head + i * 8, &addr, 8);
        }
        done += n;
    }
    a->MultipassOffset = 0;
    return STATUS_SUCCESS;
}

static NTSTATUS build_map_aperture(struct swkmd_adapter *ad, DXGKARG_BUILDPAGINGBUFFER *a)
{
    const DXGK_BUILDPAGINGBUFFER_MAPAPERTURESEGMENT *m = &a->MapApertureSegment;
    if (m->NumberOfPages && (!m->pMdl || !m->pMdl->PfnArray || m->MdlOffset > m->pMdl->PageCount ||
                             m->NumberOfPages > m->pMdl->PageCount - m->MdlOffset))
        return refuse("MAP_APERTURE_SEGMENT needs more pages than its MDL has");
    struct map_pages pg = { .array = m->pMdl ? m->pMdl->PfnArray + m->MdlOffset : NULL };
    return emit_gart_map(ad, a, m->SegmentId, m->OffsetInPages, m->NumberOfPages, &pg, "MAP_APERTURE_SEGMENT");
}

/* DXGK_OPERATION_MAP_APERTURE_SEGMENT2 (docs/semantics.md §2.1): only a KMD that declares
 * DXGK_VIDMMCAPS.MapAperture2Supported is given it; this one refuses it otherwise. The ADL's
 * page numbers are what the GPU uses (this GPU has no IOMMU: physical = host page numbers),
 * from AdlOffset on. */
static NTSTATUS build_map_aperture2(struct swkmd_adapter *ad, DXGKARG_BUILDPAGINGBUFFER *a)
{
    const DXGK_BUILDPAGINGBUFFER_MAPAPERTURESEGMENT2 *m = &a->MapApertureSegment2;
    if (!ad->caps.MemoryManagementCaps.MapAperture2Supported)
        return refuse("MAP_APERTURE_SEGMENT2 without DXGK_VIDMMCAPS.MapAperture2Supported");
    if (m->Adl.Flags.Reserved)
        return refuse("MAP_APERTURE_SEGMENT2 with reserved DXGK_ADL_FLAGS bits");
    if (m->NumberOfPages && ((!m->Adl.Flags.Contiguous && !m->Adl.Pages) || m->AdlOffset > m->Adl.PageCount ||
                             m->NumberOfPages > m->Adl.PageCount - m->AdlOffset))
        return refuse("MAP_APERTURE_SEGMENT2 needs more pages than its ADL has");
    struct map_pages pg;
    if (m->Adl.Flags.Contiguous)
        pg = (struct map_pages){ .array = NULL, .base = (UINT64)m->Adl.BasePageNumber + m->AdlOffset };
    else
        pg = (struct map_pages){ .array = m->Adl.Pages ? m->Adl.Pages + m->AdlOffset : NULL };
    return emit_gart_map(ad, a, m->SegmentId, m->OffsetInPages, m->NumberOfPages, &pg, "MAP_APERTURE_SEGMENT2");
}

static NTSTATUS build_unmap_aperture(struct swkmd_adapter *ad, DXGKARG_BUILDPAGINGBUFFER *a)
{
    const DXGK_BUILDPAGINGBUFFER_UNMAPAPERTURESEGMENT *u = &a->UnmapApertureSegment;
    if (u->SegmentId != SWKMD_SEGMENT_APERTURE)
        return refuse("UNMAP_APERTURE_SEGMENT of a segment that is not the aperture");
    UINT64 aperture_pages = ad->segment_size[SWKMD_SEGMENT_APERTURE] / SWGPU_PAGE_SIZE;
    if (u->OffsetInPages > aperture_pages || u->NumberOfPages > aperture_pages - u->OffsetInPages)
        return refuse("UNMAP_APERTURE_SEGMENT range outside the aperture");
    if (u->NumberOfPages == 0)
        return STATUS_SUCCESS;
    BYTE *p = reserve(a, sizeof(struct swgpu_cmd_gart_unmap));
    if (!p)
        return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER; /* nothing written: MultipassOffset stays 0 */
    struct swgpu_cmd_gart_unmap c;
    memset(&c, 0, sizeof c);
    c.hdr.opcode = SWGPU_OP_GART_UNMAP;
    c.hdr.size_bytes = sizeof c;
    c.first_page = (UINT32)u->OffsetInPages;
    c.page_count = (UINT32)u->NumberOfPages;
    /* The range is redirected to DummyPage and stays GPU-accessible (§2.3). */
    c.dummy_page = (UINT64)u->DummyPage.QuadPart;
    memcpy(p, &c, sizeof c);
    return STATUS_SUCCESS;
}

/* First page-in of a context allocation (docs/semantics.md §1.3): the header, written by the CPU
 * through Destination.VirtualAddress (this KMD creates them so that it is always given one);
 * without one the allocation is filled with the header magic by the GPU instead. */
NTSTATUS swkmd_build_init_context_resource(struct swkmd_adapter *ad, DXGKARG_BUILDPAGINGBUFFER *a)
{
    const DXGK_BUILDPAGINGBUFFER_INITCONTEXTRESOURCE *ic = &a->InitContextResource;
    struct swkmd_context_resource *r = ic->hAllocation;
    if (!r || r->magic != SWKMD_MAGIC_CONTEXT_RESOURCE)
        return refuse("INIT_CONTEXT_RESOURCE of something that is not a context allocation of this KMD");
    if (ic->Destination.VirtualAddress) {
        struct swkmd_context_resource_header h = { .magic = r->header_magic, .size = SWKMD_CONTEXT_RESOURCE_SIZE,
                                                   .owner = (UINT64)(uintptr_t)r->owner,
                                                   .init_count = ++r->init_count };
        memcpy(ic->Destination.VirtualAddress, &h, sizeof h);
        /* No preemption record yet (a fresh save area must never resume anything), and zeroed
         * registers (a new context's state, issue 20 §1). */
        memset((BYTE *)ic->Destination.VirtualAddress + SWKMD_CSA_RECORD_OFFSET, 0, sizeof(struct swgpu_csa_record));
        memset((BYTE *)ic->Destination.VirtualAddress + SWKMD_CSA_STATE_OFFSET, 0, sizeof(struct swgpu_context_state));
        a->MultipassOffset = 0;
        return STATUS_SUCCESS;
    }
    DXGKARG_BUILDPAGINGBUFFER f = *a;
    f.Operation = DXGK_OPERATION_FILL;
    memset(&f.Fill, 0, sizeof f.Fill);
    f.Fill.hAllocation = ic->hAllocation;
    f.Fill.FillSize = SWKMD_CONTEXT_RESOURCE_SIZE;
    f.Fill.FillPattern = r->header_magic;
    f.Fill.Destination.SegmentId = ic->Destination.SegmentId;
    f.Fill.Destination.SegmentAddress = ic->Destination.SegmentAddress;
    NTSTATUS st = build_fill(ad, &f);
    a->pDmaBuffer = f.pDmaBuffer;
    a->MultipassOffset = f.MultipassOffset;
    if (NT_SUCCESS(st))
        r->init_count++;
    return st;
}

/* DXGK_OPERATION_SPECIAL_LOCK_TRANSFER (DXGK_BUILDPAGINGBUFFER_OPERATION: the content moves
 * "from or to the alternate virtual address" of a UseAlternateVA lock): a TRANSFER of the
 * allocation (this GPU keeps it linear everywhere, so the copy is the same), and the range the
 * lock holds follows it (swizzle.c: the range shows the allocation wherever it lies). */
static NTSTATUS build_special_lock_transfer(struct swkmd_adapter *ad, DXGKARG_BUILDPAGINGBUFFER *a)
{
    const DXGK_BUILDPAGINGBUFFER_SPECIAL_LOCK_TRANSFER *x = &a->SpecialLockTransfer;
    if (!swkmd_swizzle_range_holds(ad, x->SwizzlingRangeId, x->hAllocation))
        return refuse("SPECIAL_LOCK_TRANSFER of an allocation its SwizzlingRangeId is not held for");
    DXGKARG_BUILDPAGINGBUFFER t = *a;
    t.Operation = DXGK_OPERATION_TRANSFER;
    memset(&t.Transfer, 0, sizeof t.Transfer);
    t.Transfer.hAllocation = x->hAllocation;
    t.Transfer.TransferOffset = x->TransferOffset;
    t.Transfer.TransferSize = x->TransferSize;
    t.Transfer.Source.SegmentId = x->Source.SegmentId;
    t.Transfer.Source.SegmentAddress = x->Source.SegmentAddress;
    t.Transfer.Destination.SegmentId = x->Destination.SegmentId;
    t.Transfer.Destination.SegmentAddress = x->Destination.SegmentAddress;
    t.Transfer.Flags = x->Flags;
    t.Transfer.MdlOffset = 0; /* the operation has none: an MDL side starts at its first page */
    NTSTATUS st = build_transfer(ad, &t);
    a->pDmaBuffer = t.pDmaBuffer;
    a->DmaSize = t.DmaSize;
    a->MultipassOffset = t.MultipassOffset;
    return st;
}

static NTSTATUS build_operation(struct swkmd_adapter *ad, DXGKARG_BUILDPAGINGBUFFER *a);

NTSTATUS APIENTRY SwKmdBuildPagingBuffer(const HANDLE hAdapter, DXGKARG_BUILDPAGINGBUFFER *a)
{
    struct swkmd_adapter *ad = swkmd_adapter_from(hAdapter);
    if (!ad || !a || !a->pDmaBuffer) {
        wddm_debug("kmd", "BuildPagingBuffer: bad adapter, NULL arguments or NULL DMA buffer");
        return STATUS_INVALID_PARAMETER;
    }
    NTSTATUS st = build_operation(ad, a);
    if (NT_SUCCESS(st))
        swkmd_swizzle_track(ad, a);
    return st;
}

static NTSTATUS build_operation(struct swkmd_adapter *ad, DXGKARG_BUILDPAGINGBUFFER *a)
{
    switch (a->Operation) {
    case DXGK_OPERATION_TRANSFER:
        /* The range would go on showing the old place: VidMm moves an allocation held through
         * one with SPECIAL_LOCK_TRANSFER (DXGK_BUILDPAGINGBUFFER_OPERATION). */
        if (a->Transfer.TransferSize && swkmd_swizzle_shown(ad, a->Transfer.hAllocation))
            return refuse("TRANSFER of an allocation a swizzling range shows: a move under the lock is a "
                          "SPECIAL_LOCK_TRANSFER");
        return build_transfer(ad, a);
    case DXGK_OPERATION_SPECIAL_LOCK_TRANSFER:
        return build_special_lock_transfer(ad, a);
    case DXGK_OPERATION_FILL:
        return build_fill(ad, a);
    case DXGK_OPERATION_DISCARD_CONTENT:
        /* The content is simply abandoned: nothing for the GPU to do (once it is idle). */
        return answer_busy(a->DiscardContent.Flags.AllocationIsIdle) ? STATUS_GRAPHICS_ALLOCATION_BUSY
                                                                      : STATUS_SUCCESS;
    case DXGK_OPERATION_MAP_APERTURE_SEGMENT: {
        NTSTATUS st = build_map_aperture(ad, a);
        /* A save area's GPU address is where the GPU keeps its preemption record (issue 4). */
        if (NT_SUCCESS(st))
            swkmd_context_resource_track_map(a->MapApertureSegment.hAllocation,
                                             SWGPU_SEGMENT_BASE(SWKMD_SEGMENT_APERTURE) +
                                                 (UINT64)a->MapApertureSegment.OffsetInPages * SWGPU_PAGE_SIZE);
        return st;
    }
    case DXGK_OPERATION_MAP_APERTURE_SEGMENT2: {
        NTSTATUS st = build_map_aperture2(ad, a);
        if (NT_SUCCESS(st))
            swkmd_context_resource_track_map(a->MapApertureSegment2.hAllocation,
                                             SWGPU_SEGMENT_BASE(SWKMD_SEGMENT_APERTURE) +
                                                 (UINT64)a->MapApertureSegment2.OffsetInPages * SWGPU_PAGE_SIZE);
        return st;
    }
    case DXGK_OPERATION_UNMAP_APERTURE_SEGMENT: {
        NTSTATUS st = build_unmap_aperture(ad, a);
        if (NT_SUCCESS(st))
            swkmd_context_resource_track_map(a->UnmapApertureSegment.hAllocation, 0);
        return st;
    }
    case DXGK_OPERATION_INIT_CONTEXT_RESOURCE:
        return swkmd_build_init_context_resource(ad, a);
    case DXGK_OPERATION_UPDATE_PAGE_TABLE:
        return swkmd_build_update_page_table(ad, a);
    case DXGK_OPERATION_FLUSH_TLB:
        return swkmd_build_flush_tlb(ad, a);
    default:
        wddm_debug("kmd", "BuildPagingBuffer: operation %d not supported by this GPU", (int)a->Operation);
        return STATUS_NOT_SUPPORTED;
    }
}
