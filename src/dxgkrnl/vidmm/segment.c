/* Segments and their range allocator.
 *
 * Choice: first-fit over a free list kept sorted by offset, coalescing neighbours on free.
 * Allocation is O(free ranges), free is O(free ranges). It is simple, deterministic (tests can
 * predict offsets) and keeps low offsets dense, and VidMm places rarely: residency is lazy and
 * renamed instances are recycled, so no allocation in the steady state of a frame loop. Under
 * oversubscription (issue 3) placement is frequent: a placement that finds no hole evicts the
 * next victim and tries again (vidmm/placement.c), so holes are made where the LRU frees them,
 * not where they fit best. Fragmentation figure (`wddm soak 50000 4`: 224 allocations of 16 to
 * 128 KiB in eight classes over 4 MiB local + 4 MiB visible): at the end 0.3 of 4 MiB of the
 * local segment is free, in 12 ranges, the largest 128 KiB (7% unusable for a 256 KiB request).
 * A size-bucketed or tree allocator (best fit) and a victim choice that prefers neighbours of
 * existing holes are the upgrade path. Protected by adapter->lock.
 *
 * Directions and banks (vidmm/placement.c): the same free list serves a search inside a
 * window [lo, hi) (a bank of a UseBanking segment) from the bottom (lowest offset) or from the
 * top (highest offset). */
#include "dxgkrnl/dxgkrnl.h"
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
    s->free = wddm_malloc(sizeof *s->free);
    if (!s->free) {
        free(s->bank_end);
        s->bank_end = NULL;
        return false;
    }
    s->free->next = NULL;
    s->free->offset = 0;
    s->free->size = desc->Size;
    return true;
}

void vidmm_segment_fini(struct vidmm_segment *s)
{
    free(s->bank_end);
    s->bank_end = NULL;
    while (s->free) {
        struct vidmm_range *r = s->free;
        s->free = r->next;
        free(r);
    }
    while (s->spare) {
        struct vidmm_range *r = s->spare;
        s->spare = r->next;
        free(r);
    }
    s->spare_count = 0;
}

static void spare_push(struct vidmm_segment *s, struct vidmm_range *r)
{
    r->next = s->spare;
    s->spare = r;
    s->spare_count++;
}

static struct vidmm_range *spare_pop(struct vidmm_segment *s)
{
    struct vidmm_range *r = s->spare;
    s->spare = r->next;
    s->spare_count--;
    return r;
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
    struct vidmm_range **best = NULL;
    UINT64 best_start = 0;
    for (struct vidmm_range **pp = &s->free; *pp; pp = &(*pp)->next) {
        struct vidmm_range *r = *pp;
        UINT64 from = r->offset > lo ? r->offset : lo;
        UINT64 to = r->offset + r->size < hi ? r->offset + r->size : hi;
        if (from >= to || to - from < size)
            continue;
        UINT64 start;
        if (top_down) {
            start = (to - size) & ~(align - 1);
            if (start < from)
                continue;
        } else {
            start = (from + align - 1) & ~(align - 1);
            if (start < from || start > to || to - start < size)
                continue;
        }
        best = pp;
        best_start = start;
        if (!top_down)
            break; /* the list is sorted: the first fit is the lowest; from the top, the last */
    }
    if (!best)
        return false;
    struct vidmm_range *r = *best;
    UINT64 head = best_start - r->offset;
    UINT64 tail = r->size - head - size;
    /* The record this block's free may need is taken now, while failing changes nothing
     * (an exact fit hands over the free list's own record instead). */
    struct vidmm_range *spare = NULL;
    if ((head || tail) && s->spare_count <= s->blocks && !(spare = wddm_malloc(sizeof *spare)))
        return false;
    if (head && tail) {
        struct vidmm_range *t = wddm_malloc(sizeof *t);
        if (!t) {
            free(spare);
            return false;
        }
        t->offset = best_start + size;
        t->size = tail;
        t->next = r->next;
        r->next = t;
        r->size = head;
    } else if (head) {
        r->size = head;
    } else if (tail) {
        r->offset = best_start + size;
        r->size = tail;
    } else {
        *best = r->next;
        spare_push(s, r);
    }
    if (spare)
        spare_push(s, spare);
    s->blocks++;
    s->bytes_used += size;
    wddm_tl(WDDM_TL_SEGMENT_USED, s->timeline_track, s->bytes_used, 0);
    *offset = best_start;
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
    s->blocks--; /* a block is freed whole: the spare records outnumber the blocks left */
    struct vidmm_range *prev = NULL, *next = s->free;
    while (next && next->offset < offset) {
        prev = next;
        next = next->next;
    }
    bool merge_prev = prev && prev->offset + prev->size == offset;
    bool merge_next = next && offset + size == next->offset;
    if (merge_prev && merge_next) {
        prev->size += size + next->size;
        prev->next = next->next;
        spare_push(s, next);
    } else if (merge_prev) {
        prev->size += size;
    } else if (merge_next) {
        next->offset = offset;
        next->size += size;
    } else {
        struct vidmm_range *r = spare_pop(s); /* there is one: taken when the block was placed */
        r->offset = offset;
        r->size = size;
        r->next = next;
        if (prev)
            prev->next = r;
        else
            s->free = r;
    }
    /* Spares beyond one per block (and a few for the next placements) go back. */
    while (s->spare_count > s->blocks + 16)
        free(spare_pop(s));
}
