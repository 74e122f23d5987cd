/* DxgkDdiBuildPagingBuffer for the GpuMmu model's page tables (issue 6, docs/semantics.md §2.1 ops
 * 11 and 12, §2.3 UpdatePageTable / FlushTlb):
 *  - DXGK_OPERATION_UPDATE_PAGE_TABLE: VidMm's DXGK_PTEs become this GPU's entries
 *    (swgpu_isa.h) and the paging engine writes them at the table's GPU physical address
 *    (DXGK_PAGETABLEUPDATE_GPU_PHYSICAL): WRITE commands, or one 8-byte-pattern FILL for
 *    Flags.Repeat. Progress in entries is kept in MultipassOffset when the DMA space runs out
 *    (§2.4: STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER, VidMm calls again with a fresh buffer).
 *  - DXGK_OPERATION_FLUSH_TLB: SWGPU_OP_FLUSH_TLB for the root, so every engine drops the
 *    translations it cached from the old entries. */
#include "kmd/kmd.h"

#include "common/debug.h"

#include <string.h>

static NTSTATUS refuse(const char *what)
{
    wddm_debug("kmd", "BuildPagingBuffer: %s", what);
    return STATUS_INVALID_PARAMETER;
}

int swkmd_pte_to_gpu(const DXGK_PTE *pte, UINT32 level, UINT64 *out)
{
    if (!pte->Valid) {
        *out = 0; /* not present: the GPU faults on any access (common.md) */
        return 0;
    }
    if (pte->Segment > SWKMD_SEGMENT_COUNT)
        return -1;
    /* PageAddress / PageTableAddress are in 4 KiB units inside Segment; segment 0 is system
     * memory, whose GPU physical address is the host address (architecture.md). */
    UINT64 offset = (UINT64)pte->PageAddress << 12;
    if ((offset >> 12) != pte->PageAddress || offset > SWGPU_ADDR_OFFSET_MASK)
        return -1;
    UINT64 e = SWGPU_SEGMENT_BASE(pte->Segment) + offset;
    e |= SWGPU_PTE_VALID;
    /* ReadOnly: the mapping had no D3DDDIGPUVIRTUALADDRESS_PROTECTION_TYPE.Write. Only a leaf
     * entry maps a page; the bit means nothing in the root. */
    if (level > 0 && pte->ReadOnly)
        e |= SWGPU_PTE_READONLY;
    *out = e;
    return 0;
}

static NTSTATUS check_process(HANDLE hProcess)
{
    if (hProcess && !swkmd_process_from(hProcess))
        return refuse("hProcess is not a process of this KMD (DxgkDdiCreateProcess)");
    return STATUS_SUCCESS;
}

NTSTATUS swkmd_build_update_page_table(struct swkmd_adapter *ad, DXGKARG_BUILDPAGINGBUFFER *a)
{
    const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u = &a->UpdatePageTable;
    if (!ad->gpummu) { /* a WDDM 1.x adapter has no page tables: as any unknown operation */
        wddm_debug("kmd", "BuildPagingBuffer: UPDATE_PAGE_TABLE without the GpuMmu model");
        return STATUS_NOT_SUPPORTED;
    }
    if (u->UpdateMode != DXGK_PAGETABLEUPDATE_GPU_PHYSICAL)
        return refuse("UPDATE_PAGE_TABLE UpdateMode is not DXGK_PAGETABLEUPDATE_GPU_PHYSICAL (DXGK_GPUMMUCAPS)");
    if (u->PageTableLevel >= SWKMD_GPUMMU_LEVELS)
        return refuse("UPDATE_PAGE_TABLE PageTableLevel >= PageTableLevelCount");
    if (u->Flags.Use64KBPages)
        return refuse("UPDATE_PAGE_TABLE Use64KBPages: DXGK_GPUMMUCAPS reports no 64 KiB pages");
    NTSTATUS st = check_process(u->hProcess);
    if (!NT_SUCCESS(st))
        return st;
    UINT64 count = u->NumPageTableEntries;
    UINT64 limit = u->PageTableLevel == 0 ? SWGPU_PT_ROOT_MAX_ENTRIES : SWGPU_PT_LEAF_ENTRIES;
    if ((UINT64)u->StartIndex + count > limit)
        return refuse("UPDATE_PAGE_TABLE entries beyond the table (StartIndex + NumPageTableEntries)");
    if (count && !u->pPageTableEntries)
        return refuse("UPDATE_PAGE_TABLE without pPageTableEntries");
    UINT64 table = u->PageTableAddress.GpuPhysical;
    UINT32 id = (UINT32)(table >> SWGPU_ADDR_SEGMENT_SHIFT);
    UINT64 first = (table & SWGPU_ADDR_OFFSET_MASK) + (UINT64)u->StartIndex * SWGPU_PT_ENTRY_BYTES;
    if ((table & 7u) || id == 0 || id > SWKMD_SEGMENT_COUNT || id == SWKMD_SEGMENT_APERTURE ||
        first + count * SWGPU_PT_ENTRY_BYTES > ad->segment_size[id])
        return refuse("UPDATE_PAGE_TABLE table address is not inside a memory segment");
    UINT64 done = a->MultipassOffset;
    if (done > count)
        return refuse("UPDATE_PAGE_TABLE MultipassOffset beyond NumPageTableEntries");
    UINT64 base = table + (UINT64)u->StartIndex * SWGPU_PT_ENTRY_BYTES;

    if (u->Flags.Repeat) {
        /* One entry for the whole range: a FILL with the 8-byte entry as pattern. */
        if (done == count)
            return STATUS_SUCCESS;
        UINT64 e;
        if (swkmd_pte_to_gpu(&u->pPageTableEntries[0], u->PageTableLevel, &e))
            return refuse("UPDATE_PAGE_TABLE entry names a segment this GPU does not have");
        if (a->DmaSize < sizeof(struct swgpu_cmd_fill))
            return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER; /* nothing written: MultipassOffset stays */
        /* <= 2^19 * 8 bytes: fits */
        struct swgpu_cmd_fill c = swgpu_cmd_fill_bytes((UINT32)(count * SWGPU_PT_ENTRY_BYTES), &e, SWGPU_PT_ENTRY_BYTES);
        c.dst.addr = base;
        memcpy(a->pDmaBuffer, &c, sizeof c);
        a->pDmaBuffer = (BYTE *)a->pDmaBuffer + sizeof c;
        a->DmaSize -= sizeof c;
        a->MultipassOffset = 0;
        return STATUS_SUCCESS;
    }

    const UINT32 head = sizeof(struct swgpu_cmd_write);
    while (done < count) {
        if (a->DmaSize < head + SWGPU_PT_ENTRY_BYTES) {
            a->MultipassOffset = (UINT)done;
            return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
        }
        UINT64 n = count - done;
        UINT64 fit = (a->DmaSize - head) / SWGPU_PT_ENTRY_BYTES;
        if (n > fit)
            n = fit;
        BYTE *p = a->pDmaBuffer;
        for (UINT64 i = 0; i < n; i++) {
            UINT64 e;
            if (swkmd_pte_to_gpu(&u->pPageTableEntries[done + i], u->PageTableLevel, &e))
                return refuse("UPDATE_PAGE_TABLE entry names a segment this GPU does not have");
            memcpy(p + head + i * SWGPU_PT_ENTRY_BYTES, &e, sizeof e);
        }
        struct swgpu_cmd_write c;
        memset(&c, 0, sizeof c);
        c.hdr.opcode = SWGPU_OP_WRITE;
        c.hdr.size_bytes = head + (UINT32)n * SWGPU_PT_ENTRY_BYTES;
        c.dst.addr = base + done * SWGPU_PT_ENTRY_BYTES;
        c.row_bytes = (UINT32)n * SWGPU_PT_ENTRY_BYTES;
        c.rows = 1;
        c.slices = 1;
        memcpy(p, &c, sizeof c);
        a->pDmaBuffer = p + c.hdr.size_bytes;
        a->DmaSize -= c.hdr.size_bytes;
        done += n;
    }
    a->MultipassOffset = 0;
    return STATUS_SUCCESS;
}

NTSTATUS swkmd_build_flush_tlb(struct swkmd_adapter *ad, DXGKARG_BUILDPAGINGBUFFER *a)
{
    const DXGK_BUILDPAGINGBUFFER_FLUSHTLB *f = &a->FlushTlb;
    if (!ad->gpummu) { /* a WDDM 1.x adapter has no page tables: as any unknown operation */
        wddm_debug("kmd", "BuildPagingBuffer: FLUSH_TLB without the GpuMmu model");
        return STATUS_NOT_SUPPORTED;
    }
    NTSTATUS st = check_process(f->hProcess);
    if (!NT_SUCCESS(st))
        return st;
    if (f->RootPageTableAddress & (SWGPU_PAGE_SIZE - 1))
        return refuse("FLUSH_TLB RootPageTableAddress is not a 4 KiB-aligned root page table");
    if (a->DmaSize < sizeof(struct swgpu_cmd_flush_tlb))
        return STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
    struct swgpu_cmd_flush_tlb c;
    memset(&c, 0, sizeof c);
    c.hdr.opcode = SWGPU_OP_FLUSH_TLB;
    c.hdr.size_bytes = sizeof c;
    /* RootPageTableAddress 0 reaches the GPU as "every root". */
    c.root = f->RootPageTableAddress;
    memcpy(a->pDmaBuffer, &c, sizeof c);
    a->pDmaBuffer = (BYTE *)a->pDmaBuffer + sizeof c;
    a->DmaSize -= sizeof c;
    return STATUS_SUCCESS;
}
