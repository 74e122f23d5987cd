/* The aperture's GART: one entry per 4 KiB aperture page, pointing at a system page
 * (docs/semantics.md §6.4 "Aperture": content is mapped, never copied). Updated only by
 * SWGPU_OP_GART_MAP / SWGPU_OP_GART_UNMAP in paging buffers (docs/semantics.md §2.1 ops 5, 6). */
#include "gpu/gpu_internal.h"

#include <string.h>

int swgpu_gart_map(struct swgpu *gpu, UINT32 first_page, UINT32 count, const BYTE *addrs)
{
    if (gpu->aperture_id == 0)
        return -1;
    struct swgpu_segment *seg = &gpu->segments[gpu->aperture_id - 1];
    if ((UINT64)first_page + count > seg->pages)
        return -1;
    /* Check every page address before changing anything: a bad command maps nothing. */
    for (UINT32 i = 0; i < count; i++) {
        UINT64 a;
        memcpy(&a, addrs + 8ull * i, sizeof a);
        if (a == 0 || (a % SWGPU_PAGE_SIZE) != 0)
            return -1;
    }
    for (UINT32 i = 0; i < count; i++) {
        UINT64 a;
        memcpy(&a, addrs + 8ull * i, sizeof a);
        atomic_store_explicit(&seg->gart[first_page + i], a, memory_order_release);
    }
    swgpu_stat_add(SWGPU_STAT_PAGES_MAPPED, count);
    return 0;
}

int swgpu_gart_unmap(struct swgpu *gpu, UINT32 first_page, UINT32 count, UINT64 dummy_page)
{
    if (gpu->aperture_id == 0)
        return -1;
    struct swgpu_segment *seg = &gpu->segments[gpu->aperture_id - 1];
    if ((UINT64)first_page + count > seg->pages || (dummy_page % SWGPU_PAGE_SIZE) != 0)
        return -1;
    /* docs/semantics.md §2.3 UnmapApertureSegment: the range is redirected to DummyPage and stays
     * GPU-accessible, so stray accesses corrupt only the dummy page. A zero dummy page leaves
     * the pages unmapped: accesses fault. */
    for (UINT32 i = 0; i < count; i++)
        atomic_store_explicit(&seg->gart[first_page + i], dummy_page, memory_order_release);
    return 0;
}
