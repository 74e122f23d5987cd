/* The reference KMD's GpuMmu model (WDDM 2.0, issue 6): the caps VidMm builds the page tables
 * from (DXGKQAITYPE_GPUMMUCAPS, DXGKQAITYPE_PAGETABLELEVELDESC), the root page table of each
 * context (DxgkDdiGetRootPageTableSize, DxgkDdiSetRootPageTable) and the process objects
 * (DxgkDdiCreateProcess / DxgkDdiDestroyProcess). The values are common.md "GpuMmu caps of the
 * reference KMD"; the page-table format the GPU walks is in src/gpu/swgpu_isa.h.
 *
 * The model is on only when the caps select it (WDDMVersion >= DXGKDDI_WDDMv2 +
 * VirtualAddressingSupported + GpuMmuSupported, e.g. configs/gpummu.caps); otherwise every
 * entry point here answers STATUS_NOT_SUPPORTED and the KMD is the WDDM 1.3 one. */
#include "kmd/kmd.h"
#include "common/alloc.h"

#include "common/debug.h"

#include <stdlib.h>
#include <string.h>

bool swkmd_caps_gpummu(const DXGK_DRIVERCAPS *caps)
{
    return caps->WDDMVersion >= DXGKDDI_WDDMv2 && caps->MemoryManagementCaps.VirtualAddressingSupported &&
           caps->MemoryManagementCaps.GpuMmuSupported;
}

/* The IoMmu model (WDDM 2.0): no page tables of the KMD's; the platform's IOMMU translates. */
bool swkmd_caps_iommu(const DXGK_DRIVERCAPS *caps)
{
    return caps->WDDMVersion >= DXGKDDI_WDDMv2 && caps->MemoryManagementCaps.VirtualAddressingSupported &&
           caps->MemoryManagementCaps.IoMmuSupported;
}

NTSTATUS swkmd_query_gpummu_caps(struct swkmd_adapter *a, const DXGKARG_QUERYADAPTERINFO *q)
{
    if (!a->gpummu) {
        wddm_debug("kmd", "QueryAdapterInfo(GPUMMUCAPS): the caps do not select the GpuMmu model "
                          "(DXGK_VIDMMCAPS.VirtualAddressingSupported + GpuMmuSupported, WDDMVersion >= 0x2000)");
        return STATUS_NOT_SUPPORTED;
    }
    if (q->pInputData && q->InputDataSize >= sizeof(DXGK_QUERYGPUMMUCAPSIN) &&
        ((const DXGK_QUERYGPUMMUCAPSIN *)q->pInputData)->PhysicalAdapterIndex != 0) {
        wddm_debug("kmd", "QueryAdapterInfo(GPUMMUCAPS): PhysicalAdapterIndex %u, this adapter has one (0)",
                   ((const DXGK_QUERYGPUMMUCAPSIN *)q->pInputData)->PhysicalAdapterIndex);
        return STATUS_INVALID_PARAMETER;
    }
    if (q->OutputDataSize < sizeof(DXGK_GPUMMUCAPS)) {
        wddm_debug("kmd", "QueryAdapterInfo(GPUMMUCAPS): OutputDataSize %u < sizeof(DXGK_GPUMMUCAPS)", q->OutputDataSize);
        return STATUS_BUFFER_TOO_SMALL;
    }
    DXGK_GPUMMUCAPS *c = q->pOutputData;
    memset(c, 0, sizeof *c);
    /* The GPU honours SWGPU_PTE_READONLY (a write faults); nothing else optional. */
    c->ReadOnlyMemorySupported = 1;
    /* The paging engine writes the tables at their GPU physical address (WRITE / FILL). */
    c->PageTableUpdateMode = DXGK_PAGETABLEUPDATE_GPU_PHYSICAL;
    c->VirtualAddressBitCount = SWGPU_VA_BITS;
    c->PageTableLevelCount = SWKMD_GPUMMU_LEVELS; /* 2: the root is resizable */
    c->LeafPageTableSizeFor64KPagesInBytes = 0;   /* no 64 KiB pages */
    return STATUS_SUCCESS;
}

NTSTATUS swkmd_query_page_table_level(struct swkmd_adapter *a, const DXGKARG_QUERYADAPTERINFO *q)
{
    if (!a->gpummu) {
        wddm_debug("kmd", "QueryAdapterInfo(PAGETABLELEVELDESC): the caps do not select the GpuMmu model");
        return STATUS_NOT_SUPPORTED;
    }
    if (!q->pInputData || q->InputDataSize < sizeof(DXGK_QUERYPAGETABLELEVELIN)) {
        wddm_debug("kmd", "QueryAdapterInfo(PAGETABLELEVELDESC): no DXGK_QUERYPAGETABLELEVELIN input");
        return STATUS_INVALID_PARAMETER;
    }
    UINT level = ((const DXGK_QUERYPAGETABLELEVELIN *)q->pInputData)->PageTableLevel;
    if (level >= SWKMD_GPUMMU_LEVELS) {
        wddm_debug("kmd", "QueryAdapterInfo(PAGETABLELEVELDESC): level %u >= PageTableLevelCount %u", level,
                   SWKMD_GPUMMU_LEVELS);
        return STATUS_INVALID_PARAMETER;
    }
    if (q->OutputDataSize < sizeof(DXGK_PAGE_TABLE_LEVEL_DESC)) {
        wddm_debug("kmd", "QueryAdapterInfo(PAGETABLELEVELDESC): OutputDataSize %u too small", q->OutputDataSize);
        return STATUS_BUFFER_TOO_SMALL;
    }
    DXGK_PAGE_TABLE_LEVEL_DESC *d = q->pOutputData;
    memset(d, 0, sizeof *d);
    d->PageTableSegmentId = SWKMD_PAGE_TABLE_SEGMENT;
    d->PagingProcessPageTableSegmentId = SWKMD_PAGE_TABLE_SEGMENT;
    d->PageTableAlignmentInBytes = SWGPU_PAGE_SIZE;
    if (level == 0) {
        /* The root: resizable (two levels), sized by DxgkDdiGetRootPageTableSize; at most
         * 2^19 entries (VA bits 39..21). */
        d->PageTableIndexBitCount = SWGPU_PT_ROOT_MAX_BITS;
        d->PageTableSizeInBytes = 0;
    } else {
        d->PageTableIndexBitCount = SWGPU_PT_LEAF_BITS; /* 512 entries: VA bits 20..12 */
        d->PageTableSizeInBytes = (D3DGPU_SIZE_T)SWGPU_PT_LEAF_ENTRIES * SWGPU_PT_ENTRY_BYTES;
    }
    return STATUS_SUCCESS;
}

SIZE_T APIENTRY SwKmdGetRootPageTableSize(const HANDLE hAdapter, DXGKARG_GETROOTPAGETABLESIZE *args)
{
    struct swkmd_adapter *a = swkmd_adapter_from(hAdapter);
    if (!a || !args || !a->gpummu) {
        wddm_debug("kmd", "GetRootPageTableSize: bad adapter, NULL arguments or not in the GpuMmu model");
        return 0;
    }
    /* No rounding is needed: an entry is 8 bytes and the root needs no particular count. More
     * entries than the VA bits can index would never be used: the count is capped there. */
    if (args->NumberOfPte > SWGPU_PT_ROOT_MAX_ENTRIES) {
        wddm_debug("kmd", "GetRootPageTableSize: %u entries asked, the root has at most %u", args->NumberOfPte,
                   SWGPU_PT_ROOT_MAX_ENTRIES);
        args->NumberOfPte = SWGPU_PT_ROOT_MAX_ENTRIES;
    }
    return (SIZE_T)args->NumberOfPte * SWGPU_PT_ENTRY_BYTES;
}

VOID APIENTRY SwKmdSetRootPageTable(const HANDLE hAdapter, const DXGKARG_SETROOTPAGETABLE *args)
{
    struct swkmd_adapter *a = swkmd_adapter_from(hAdapter);
    struct swkmd_context *c = args ? swkmd_context_from(args->hContext) : NULL;
    if (!a || !c || !a->gpummu) {
        wddm_debug("kmd", "SetRootPageTable: bad adapter or context, or not in the GpuMmu model");
        return;
    }
    /* A VOID DDI: a root the GPU could not walk is logged and not installed, so the context's
     * submissions are refused instead of faulting somewhere unexpected. */
    UINT64 addr = args->Address;
    UINT32 id = (UINT32)(addr >> SWGPU_ADDR_SEGMENT_SHIFT);
    UINT64 off = addr & SWGPU_ADDR_OFFSET_MASK;
    if (addr == 0 || (addr & (SWGPU_PAGE_SIZE - 1)) || id == 0 || id > SWKMD_SEGMENT_COUNT ||
        id == SWKMD_SEGMENT_APERTURE || args->NumEntries == 0 || args->NumEntries > SWGPU_PT_ROOT_MAX_ENTRIES ||
        off + (UINT64)args->NumEntries * SWGPU_PT_ENTRY_BYTES > a->segment_size[id]) {
        wddm_debug("kmd", "SetRootPageTable: root 0x%llx with %u entries is not a 4 KiB-aligned table inside a memory "
                   "segment (at most %u entries)", (unsigned long long)addr, args->NumEntries, SWGPU_PT_ROOT_MAX_ENTRIES);
        return;
    }
    atomic_store_explicit(&c->root_entries, args->NumEntries, memory_order_relaxed);
    atomic_store_explicit(&c->root_page_table, addr, memory_order_release);
}

struct swkmd_process *swkmd_process_from(HANDLE h)
{
    struct swkmd_process *p = h;
    return (p && p->magic == SWKMD_MAGIC_PROCESS) ? p : NULL;
}

NTSTATUS APIENTRY SwKmdCreateProcess(const PVOID MiniportDeviceContext, DXGKARG_CREATEPROCESS *args)
{
    struct swkmd_adapter *a = swkmd_adapter_from(MiniportDeviceContext);
    if (!a || !args) {
        wddm_debug("kmd", "CreateProcess: bad adapter or NULL arguments");
        return STATUS_INVALID_PARAMETER;
    }
    if (!a->gpummu && !a->iommu) {
        wddm_debug("kmd", "CreateProcess: not in a WDDM 2.0 virtual addressing model (GpuMmu or IoMmu)");
        return STATUS_NOT_SUPPORTED;
    }
    if (a->iommu && (!args->NumPasid || !args->pPasid || !args->pPasid[0])) {
        wddm_debug("kmd", "CreateProcess: IoMmu model without a PASID for the process (NumPasid %u)", args->NumPasid);
        return STATUS_INVALID_PARAMETER;
    }
    struct swkmd_process *p = wddm_calloc(1, sizeof *p);
    if (!p)
        return STATUS_NO_MEMORY;
    p->magic = SWKMD_MAGIC_PROCESS;
    p->kernel_process = args->hDxgkProcess;
    p->flags = args->Flags;
    args->hKmdProcess = p;
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY SwKmdDestroyProcess(const PVOID MiniportDeviceContext, HANDLE KmdProcessHandle)
{
    struct swkmd_adapter *a = swkmd_adapter_from(MiniportDeviceContext);
    struct swkmd_process *p = swkmd_process_from(KmdProcessHandle);
    if (!a || !p) {
        wddm_debug("kmd", "DestroyProcess: bad adapter or not a process handle of this KMD");
        return STATUS_INVALID_PARAMETER;
    }
    p->magic = 0;
    free(p);
    return STATUS_SUCCESS;
}
