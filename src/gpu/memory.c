/* GPU memory: segment mappings and address translation (docs/architecture.md "Memory and
 * addresses"). Every access goes through swgpu_mem_span, which range-checks it: a bad
 * address is a GPU fault, never a host crash. */
#include "gpu/gpu_internal.h"
#include "common/alloc.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

int swgpu_memory_init(struct swgpu *gpu, const struct swgpu_config *config)
{
    gpu->segment_count = config->segment_count;
    for (UINT32 i = 0; i < config->segment_count; i++) {
        struct swgpu_segment *seg = &gpu->segments[i];
        const struct swgpu_segment_desc *d = &config->segments[i];
        if (d->size == 0 || (d->size % SWGPU_PAGE_SIZE) != 0 || d->size > SWGPU_ADDR_OFFSET_MASK)
            return -1;
        seg->size = d->size;
        seg->kind = d->kind;
        if (d->kind == SWGPU_SEGMENT_APERTURE) {
            seg->pages = d->size / SWGPU_PAGE_SIZE;
            /* calloc: an all-zero entry is "never mapped". */
            seg->gart = wddm_calloc(seg->pages, sizeof(*seg->gart));
            if (!seg->gart)
                return -1;
            if (gpu->aperture_id == 0)
                gpu->aperture_id = i + 1;
        } else {
            /* One lazily committed mapping per memory segment: pages cost nothing until the
             * GPU (or the CPU through the BAR) touches them. */
            void *p = mmap(NULL, d->size, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            if (p == MAP_FAILED)
                return -1;
            seg->host = p;
        }
    }
    return 0;
}

void swgpu_memory_fini(struct swgpu *gpu)
{
    for (UINT32 i = 0; i < gpu->segment_count; i++) {
        struct swgpu_segment *seg = &gpu->segments[i];
        if (seg->host)
            munmap(seg->host, seg->size);
        free(seg->gart);
        seg->host = NULL;
        seg->gart = NULL;
    }
}

UINT64 swgpu_mem_iommu_reach(struct swgpu *gpu, UINT64 addr, UINT64 n)
{
    if (!gpu->iommu)
        return n;
    UINT64 done = 0;
    while (done < n) {
        UINT64 a = addr + done, phys;
        /* WDDM 2.4 isolation remaps 1:1: the logical address is the physical one. */
        if (gpu->iommu(gpu->iommu_context, 0, a, 0, &phys) || phys != a)
            break;
        done += SWGPU_PAGE_SIZE - (a % SWGPU_PAGE_SIZE);
    }
    return done < n ? done : n;
}

BYTE *swgpu_mem_span(struct swgpu *gpu, UINT64 addr, UINT64 want, UINT64 *avail)
{
    UINT32 id = (UINT32)(addr >> SWGPU_ADDR_SEGMENT_SHIFT);
    UINT64 off = addr & SWGPU_ADDR_OFFSET_MASK;

    if (id == 0) {
        /* System memory is identity-mapped: the address is the host address. Only the KMD
         * writes system addresses (MDL pages in paging buffers, fences); the GPU can check
         * nothing but the null guard and wrap-around. */
        if (addr < SWGPU_SYSTEM_NULL_GUARD || addr + want < addr)
            return NULL;
        UINT64 reach = swgpu_mem_iommu_reach(gpu, addr, want ? want : 1);
        if (!reach)
            return NULL;
        *avail = reach < want ? reach : want;
        return (BYTE *)(uintptr_t)addr;
    }
    if (id > gpu->segment_count)
        return NULL;
    struct swgpu_segment *seg = &gpu->segments[id - 1];
    if (off > seg->size || want > seg->size - off)
        return NULL;
    if (seg->kind == SWGPU_SEGMENT_MEMORY) {
        *avail = want;
        return seg->host + off;
    }
    if (want == 0) {
        *avail = 0;
        return NULL;
    }
    UINT64 entry = atomic_load_explicit(&seg->gart[off / SWGPU_PAGE_SIZE], memory_order_acquire);
    if (entry == 0)
        return NULL;
    UINT64 in_page = off % SWGPU_PAGE_SIZE;
    UINT64 n = SWGPU_PAGE_SIZE - in_page;
    /* Extend the span over following pages that map the next host page: an allocation's
     * backing store is one contiguous block, so a copy through the aperture runs as one
     * memmove instead of one per page. (off + want <= size was checked above, so every page
     * looked at is inside the GART.) */
    for (UINT64 page = off / SWGPU_PAGE_SIZE + 1, next = entry + SWGPU_PAGE_SIZE; n < want;
         page++, next += SWGPU_PAGE_SIZE) {
        if (atomic_load_explicit(&seg->gart[page], memory_order_acquire) != next)
            break;
        n += SWGPU_PAGE_SIZE;
    }
    /* The GART's pages are system memory: behind an IOMMU, the device reaches them through it. */
    UINT64 reach = swgpu_mem_iommu_reach(gpu, entry + in_page, n < want ? n : want);
    if (!reach)
        return NULL;
    *avail = reach;
    return (BYTE *)(uintptr_t)(entry + in_page);
}

UINT64 swgpu_mem_back_span(const struct swgpu *gpu, UINT64 end_addr, UINT64 limit)
{
    UINT32 id = (UINT32)(end_addr >> SWGPU_ADDR_SEGMENT_SHIFT);
    if (id == 0 || id > gpu->segment_count || gpu->segments[id - 1].kind == SWGPU_SEGMENT_MEMORY)
        return limit;
    UINT64 off = end_addr & SWGPU_ADDR_OFFSET_MASK;
    UINT64 in_page = off % SWGPU_PAGE_SIZE;
    UINT64 n = in_page ? in_page : SWGPU_PAGE_SIZE;
    return n < limit ? n : limit;
}

UINT32 swgpu_segment_count(const struct swgpu *gpu)
{
    return gpu ? gpu->segment_count : 0;
}

UINT64 swgpu_segment_size(const struct swgpu *gpu, UINT32 segment_id)
{
    if (!gpu || segment_id == 0 || segment_id > gpu->segment_count)
        return 0;
    return gpu->segments[segment_id - 1].size;
}

void *swgpu_segment_host(const struct swgpu *gpu, UINT32 segment_id)
{
    if (!gpu || segment_id == 0 || segment_id > gpu->segment_count)
        return NULL;
    return gpu->segments[segment_id - 1].host;
}

int swgpu_mem_copy(struct swgpu *gpu, UINT64 addr, void *host, UINT64 n, int write)
{
    UINT64 done = 0;
    while (done < n) {
        UINT64 avail = 0;
        BYTE *p = swgpu_mem_span(gpu, addr + done, n - done, &avail);
        if (!p || avail == 0)
            return -1;
        if (avail > n - done)
            avail = n - done;
        if (write)
            memcpy(p, (BYTE *)host + done, avail);
        else
            memcpy((BYTE *)host + done, p, avail);
        done += avail;
    }
    return 0;
}
