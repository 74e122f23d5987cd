/* The kernel's two system services (issue 16 §1: the base every room uses): page-aligned,
 * zeroed system memory for DMA buffers, command buffers and aperture backing stores, and the
 * monotonic clock in nanoseconds. */
#include "dxgkrnl/dxgkrnl.h"
#include "common/alloc.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

/* System memory for DMA buffers, command buffers and aperture backing stores: page aligned
 * and zeroed. Large buffers are anonymous mappings (zero pages committed lazily, so a 256 KiB
 * DMA buffer costs no page faults until the KMD writes it); small ones come from the heap. */
#define DXGK_MMAP_THRESHOLD (256u << 10)

static size_t page_round(size_t size)
{
    size = (size + DXGK_PAGE_SIZE - 1) & ~(size_t)(DXGK_PAGE_SIZE - 1);
    return size ? size : DXGK_PAGE_SIZE;
}

/* Pages for adapter a's device: in its isolation domain while they exist (iommu.c). */
void *dxgk_page_alloc(struct dxgk_adapter *a, size_t size)
{
    size = page_round(size);
    void *p;
    if (size >= DXGK_MMAP_THRESHOLD) {
        p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            p = NULL;
    } else {
        p = wddm_aligned_alloc(DXGK_PAGE_SIZE, size);
        if (p)
            memset(p, 0, size);
    }
    if (p && !dxgk_iommu_kernel_map(a, p, size, true)) { /* unreachable pages are no pages */
        if (size >= DXGK_MMAP_THRESHOLD)
            munmap(p, size);
        else
            free(p);
        p = NULL;
    }
    return p;
}

void dxgk_page_free(struct dxgk_adapter *a, void *p, size_t size)
{
    if (!p)
        return;
    size = page_round(size);
    dxgk_iommu_kernel_map(a, p, size, false);
    if (size >= DXGK_MMAP_THRESHOLD)
        munmap(p, size);
    else
        free(p);
}

UINT64 dxgk_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (UINT64)ts.tv_sec * 1000000000ull + (UINT64)ts.tv_nsec;
}
