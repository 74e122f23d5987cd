/* Segments: what the KMD described, the banks, the bytes placed, and the free ranges
 * (common/free_ranges.c: first-fit answers from a balanced tree, O(log holes) per placement and free).
 * Fragmentation figure (`wddm soak 50000 4`: 224 allocations of 16 to 128 KiB in eight classes
 * over 4 MiB local + 4 MiB visible): at the end 0.3 of 4 MiB of the local segment is free, in 12
 * ranges, the largest 128 KiB (7% unusable for a 256 KiB request); the holes are those first-fit
 * leaves, whatever structure finds them. Placement under oversubscription evicts the next victim
 * and tries again (vidmm/placement.c), so holes are made where the LRU frees them, not where they
 * fit best; a victim choice that prefers neighbours of existing holes is the upgrade path.
 * Protected by adapter->lock.
 *
 * Directions and banks (vidmm/placement.c): a search inside a window [lo, hi) (a bank of a
 * UseBanking segment) from the bottom (lowest offset) or from the top (highest offset). */
#include "dxgkrnl/vidmm/vidmm.h"
#include "common/alloc.h"
#include "common/timeline.h"

#include <stdlib.h>
#include <string.h>

bool vidmm_segment_init(struct vidmm_segment *s, UINT id, const DXGK_SEGMENTDESCRIPTOR *desc)
{
    memset(s, 0, sizeof *s);
    s->id = id;
    s->desc = *desc;
    s->aperture = desc->Flags.Aperture;
    s->cpu_accessible = s->aperture || desc->Flags.CpuVisible;
    if (!s->aperture && desc->Flags.CpuVisible)
        s->cpu_base = (UINT8 *)(uintptr_t)desc->CpuTranslatedAddress.QuadPart;
    s->limit = desc->Size;
    if (s->aperture && desc->CommitLimit && desc->CommitLimit < desc->Size)
        s->limit = desc->CommitLimit;
    /* The bank table is the KMD's memory, valid during the query only (the verifier checked it:
     * ascending, inside the segment). */
    s->desc.pBankRangeTable = NULL;
    if (desc->Flags.UseBanking && desc->NbOfBanks) {
        s->bank_count = desc->NbOfBanks;
        s->bank_end = wddm_calloc(desc->NbOfBanks, sizeof *s->bank_end);
        if (!s->bank_end)
            return false;
        for (UINT b = 0; b + 1 < desc->NbOfBanks; b++)
            s->bank_end[b] = desc->pBankRangeTable[b];
        s->bank_end[desc->NbOfBanks - 1] = desc->Size;
    }
    if (!free_ranges_init(&s->holes, desc->Size)) {
        free(s->bank_end);
        s->bank_end = NULL;
        return false;
    }
    return true;
}

void vidmm_segment_fini(struct vidmm_segment *s)
{
    free(s->bank_end);
    s->bank_end = NULL;
    free_ranges_fini(&s->holes);
}

bool vidmm_segment_bank(const struct vidmm_segment *s, UINT bank, UINT64 *lo, UINT64 *hi)
{
    if (bank == 0 || bank > s->bank_count)
        return false;
    *lo = bank == 1 ? 0 : s->bank_end[bank - 2];
    *hi = s->bank_end[bank - 1];
    return true;
}

bool vidmm_segment_alloc_in_locked(struct vidmm_segment *s, UINT64 size, UINT64 align, UINT64 lo, UINT64 hi,
                                   bool top_down, UINT64 *offset)
{
    if (align < DXGK_PAGE_SIZE)
        align = DXGK_PAGE_SIZE;
    size = (size + DXGK_PAGE_SIZE - 1) & ~(UINT64)(DXGK_PAGE_SIZE - 1);
    if (s->bytes_used + size > s->limit) /* an aperture's CommitLimit */
        return false;
    if (!free_ranges_take(&s->holes, size, align, lo, hi, top_down, offset))
        return false;
    s->bytes_used += size;
    wddm_tl(WDDM_TL_SEGMENT_USED, s->timeline_track, s->bytes_used, 0);
    return true;
}

bool vidmm_segment_alloc_locked(struct vidmm_segment *s, UINT64 size, UINT64 align, UINT64 *offset)
{
    return vidmm_segment_alloc_in_locked(s, size, align, 0, s->desc.Size, false, offset);
}

void vidmm_segment_free_locked(struct vidmm_segment *s, UINT64 offset, UINT64 size)
{
    size = (size + DXGK_PAGE_SIZE - 1) & ~(UINT64)(DXGK_PAGE_SIZE - 1);
    s->bytes_used -= size;
    wddm_tl(WDDM_TL_SEGMENT_USED, s->timeline_track, s->bytes_used, 0);
    free_ranges_give(&s->holes, offset, size);
}

void vidmm_segment_holes(const struct vidmm_segment *s, UINT64 *count, UINT64 *largest)
{
    *count = s->holes.count;
    *largest = free_ranges_largest(&s->holes);
}
