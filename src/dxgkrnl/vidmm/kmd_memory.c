/* A KMD's own system memory for its GPU (IOMMU-based GPU isolation, WDDM 2.4; MicrosoftDocs
 * "IOMMU-based GPU isolation", "Memory allocation and mapping to IOMMU"; issue 20 §5).
 *
 * Under isolation the GPU reaches only what the IOMMU maps, so a KMD gets memory it hands its GPU
 * from the kernel, which allocates and maps in one step: DxgkCbAllocatePagesForMdl (an MDL of
 * locked pages) and DxgkCbAllocateContiguousMemory (one contiguous block), each mapped for its
 * lifetime; and for an MDL of its own, DxgkCbMapMdlToIoMmu until DxgkCbUnmapMdlFromIoMmu (the MDL
 * must outlive the mapping). The kernel tracks every block by the handle it returns, so a free
 * of anything else is refused, and a block the KMD left at the adapter's stop is a leak the
 * verifier names (Isolation.MemoryLeak) before the kernel frees it. Without isolation the calls
 * work the same and map nothing (the device reaches system memory directly). */
#include "dxgkrnl/vidmm/vidmm.h"
#include "common/alloc.h"

#include <stdlib.h>
#include <string.h>

enum kmd_block_kind { KMD_PAGES, KMD_CONTIGUOUS, KMD_MAPPED_MDL };

struct dxgk_kmd_block {
    struct dxgk_kmd_block *next;     /* adapter->kmd_blocks; adapter->lock */
    enum kmd_block_kind kind;
    void *mem;                       /* pages / contiguous: the kernel's allocation */
    size_t size;
    PFN_NUMBER *pfn;                 /* pages: the MDL's page array */
    MDL mdl;                         /* pages: the MDL handed out */
    const MDL *mapped;               /* mapped MDL: the KMD's own */
};

static const char *const kind_name[] = { "DxgkCbAllocatePagesForMdl", "DxgkCbAllocateContiguousMemory",
                                         "DxgkCbMapMdlToIoMmu" };

static const void *mdl_page(const MDL *m, SIZE_T i)
{
    return (const void *)(uintptr_t)((UINT64)m->PfnArray[i] << 12);
}

/* The pages of an MDL in the adapter's IOMMU domain (map) or out of it; false (nothing mapped) if
 * the domain had no memory for a page's tables. */
static bool mdl_map(struct dxgk_adapter *a, const MDL *m, bool map)
{
    for (SIZE_T i = 0; i < m->PageCount; i++)
        if (!dxgk_iommu_kernel_map(a, mdl_page(m, i), DXGK_PAGE_SIZE, map)) {
            while (i--)
                (void)dxgk_iommu_kernel_map(a, mdl_page(m, i), DXGK_PAGE_SIZE, false);
            return false;
        }
    return true;
}

static void block_release(struct dxgk_adapter *a, struct dxgk_kmd_block *b)
{
    if (b->kind == KMD_MAPPED_MDL) {
        (void)mdl_map(a, b->mapped, false);
    } else if (b->kind == KMD_CONTIGUOUS) {
        dxgk_iommu_kernel_map(a, b->mem, b->size, false);
        free(b->mem);
    } else {
        dxgk_page_free(a, b->mem, b->size); /* unmaps it */
        free(b->pfn);
    }
    free(b);
}

static void track(struct dxgk_adapter *a, struct dxgk_kmd_block *b)
{
    pthread_mutex_lock(&a->lock);
    b->next = a->kmd_blocks;
    a->kmd_blocks = b;
    pthread_mutex_unlock(&a->lock);
}

/* The block `h` of that kind, taken off the adapter's list; NULL (a line) if it is none. */
static struct dxgk_kmd_block *untrack(struct dxgk_adapter *a, HANDLE h, enum kmd_block_kind kind, const char *who)
{
    pthread_mutex_lock(&a->lock);
    struct dxgk_kmd_block **pp = &a->kmd_blocks;
    while (*pp && (*pp != (struct dxgk_kmd_block *)h || (*pp)->kind != kind))
        pp = &(*pp)->next;
    struct dxgk_kmd_block *b = *pp;
    if (b)
        *pp = b->next;
    pthread_mutex_unlock(&a->lock);
    if (!b)
        dxgk_refuse("%s: hMemoryHandle %p is not a handle %s returned and not freed yet", who, h, kind_name[kind]);
    return b;
}

NTSTATUS APIENTRY dxgk_cb_allocate_pages_for_mdl(const HANDLE hAdapter, DXGKARGCB_ALLOCATEPAGESFORMDL *args)
{
    struct dxgk_adapter *a = hAdapter;
    if (!a || !args || !args->TotalBytes || args->SkipBytes.QuadPart % DXGK_PAGE_SIZE) {
        dxgk_refuse("DxgkCbAllocatePagesForMdl: NULL arguments, TotalBytes 0 or SkipBytes not a page multiple");
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_kmd_block *b = wddm_calloc(1, sizeof *b);
    size_t pages = (args->TotalBytes + DXGK_PAGE_SIZE - 1) / DXGK_PAGE_SIZE;
    if (b) {
        b->kind = KMD_PAGES;
        b->size = pages * DXGK_PAGE_SIZE;
        b->mem = dxgk_page_alloc(a, b->size); /* mapped in the IOMMU for its lifetime */
        b->pfn = wddm_calloc(pages, sizeof *b->pfn);
    }
    if (!b || !b->mem || !b->pfn) {
        if (b && b->mem)
            dxgk_page_free(a, b->mem, b->size);
        if (b)
            free(b->pfn);
        free(b);
        return STATUS_NO_MEMORY;
    }
    b->mdl = vidmm_mdl_of(b->mem, args->TotalBytes, b->pfn);
    track(a, b);
    args->pMdl = &b->mdl;
    args->hMemoryHandle = b;
    return STATUS_SUCCESS;
}

/* The free or unmap (`who`) of block `h` of that kind: untracked and released, or refused. */
static NTSTATUS give_back(HANDLE hAdapter, bool args, HANDLE h, enum kmd_block_kind kind, const char *who)
{
    struct dxgk_kmd_block *b = hAdapter && args ? untrack(hAdapter, h, kind, who) : NULL;
    if (!b)
        return STATUS_INVALID_PARAMETER;
    block_release(hAdapter, b);
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY dxgk_cb_free_pages_from_mdl(const HANDLE hAdapter, const DXGKARGCB_FREEPAGESFROMMDL *args)
{
    return give_back(hAdapter, args != NULL, args ? args->hMemoryHandle : NULL, KMD_PAGES, "DxgkCbFreePagesFromMdl");
}

NTSTATUS APIENTRY dxgk_cb_allocate_contiguous_memory(const HANDLE hAdapter, DXGKARGCB_ALLOCATECONTIGUOUSMEMORY *args)
{
    struct dxgk_adapter *a = hAdapter;
    UINT64 boundary = args ? (UINT64)args->BoundaryAddressMultiple.QuadPart : 0;
    if (!a || !args || !args->NumberOfBytes || (boundary & (boundary - 1))) {
        dxgk_refuse("DxgkCbAllocateContiguousMemory: NULL arguments, NumberOfBytes 0 or a BoundaryAddressMultiple "
                    "that is no power of two");
        return STATUS_INVALID_PARAMETER;
    }
    size_t size = (args->NumberOfBytes + DXGK_PAGE_SIZE - 1) / DXGK_PAGE_SIZE * DXGK_PAGE_SIZE;
    if (boundary && (size > boundary || boundary % DXGK_PAGE_SIZE)) {
        dxgk_refuse("DxgkCbAllocateContiguousMemory: %zu bytes cannot lie inside one %llu-byte boundary window", size,
                    (unsigned long long)boundary);
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_kmd_block *b = wddm_calloc(1, sizeof *b);
    if (b) {
        b->kind = KMD_CONTIGUOUS;
        b->size = size;
        /* Aligned to the boundary (or a page): a block no larger never crosses a multiple of it.
         * aligned_alloc takes a size that is a multiple of the alignment. */
        size_t align = boundary > DXGK_PAGE_SIZE ? (size_t)boundary : DXGK_PAGE_SIZE;
        b->mem = wddm_aligned_alloc(align, (size + align - 1) / align * align);
    }
    if (!b || !b->mem) {
        free(b);
        return STATUS_NO_MEMORY;
    }
    memset(b->mem, 0, size);
    if (!dxgk_iommu_kernel_map(a, b->mem, size, true)) { /* for its lifetime */
        free(b->mem);
        free(b);
        return STATUS_NO_MEMORY;
    }
    track(a, b);
    args->pMemory = b->mem;
    args->hMemoryHandle = b;
    return STATUS_SUCCESS;
}

NTSTATUS APIENTRY dxgk_cb_free_contiguous_memory(const HANDLE hAdapter, const DXGKARGCB_FREECONTIGUOUSMEMORY *args)
{
    return give_back(hAdapter, args != NULL, args ? args->hMemoryHandle : NULL, KMD_CONTIGUOUS,
                     "DxgkCbFreeContiguousMemory");
}

NTSTATUS APIENTRY dxgk_cb_map_mdl_to_iommu(const HANDLE hAdapter, DXGKARGCB_MAPMDLTOIOMMU *args)
{
    struct dxgk_adapter *a = hAdapter;
    if (!a || !args || !args->pMdl || !args->pMdl->PageCount || !args->pMdl->PfnArray) {
        dxgk_refuse("DxgkCbMapMdlToIoMmu: NULL arguments, or an MDL without pages");
        return STATUS_INVALID_PARAMETER;
    }
    struct dxgk_kmd_block *b = wddm_calloc(1, sizeof *b);
    if (!b)
        return STATUS_NO_MEMORY;
    b->kind = KMD_MAPPED_MDL;
    b->mapped = args->pMdl;
    if (!mdl_map(a, b->mapped, true)) {
        free(b);
        return STATUS_INSUFFICIENT_RESOURCES;
    }
    track(a, b);
    args->hMemoryHandle = b;
    return STATUS_SUCCESS;
}

VOID APIENTRY dxgk_cb_unmap_mdl_from_iommu(const HANDLE hAdapter, const DXGKARGCB_UNMAPMDLFROMIOMMU *args)
{
    (void)give_back(hAdapter, args != NULL, args ? args->hMemoryHandle : NULL, KMD_MAPPED_MDL,
                    "DxgkCbUnmapMdlFromIoMmu");
}

void vidmm_kmd_memory_stop(struct dxgk_adapter *a)
{
    while (a->kmd_blocks) {
        struct dxgk_kmd_block *b = a->kmd_blocks;
        a->kmd_blocks = b->next;
        dxgk_verifier_report(a, kind_name[b->kind], "Isolation.MemoryLeak", false,
                             "a block the KMD never gave back (%zu bytes) is left at the adapter's stop",
                             b->kind == KMD_MAPPED_MDL ? (size_t)(b->mapped->PageCount * DXGK_PAGE_SIZE) : b->size);
        block_release(a, b);
    }
}
