/* free_ranges.h - the free ranges of an address range, as a balanced tree (free_ranges.c): a
 * range allocator in the manner of Linux's drm_mm, used by VidMm for its segments.
 *
 * Which offsets are free, where a block of a given size and alignment goes inside a window, and
 * giving a block back. The answers are first fit's (the lowest fitting offset, or from the top
 * the highest), so placements are as predictable as with a sorted list, but each costs
 * O(log ranges) instead of O(ranges). Not thread-safe: the owner locks (for a segment,
 * adapter->lock). */
#ifndef WDDM_COMMON_FREE_RANGES_H
#define WDDM_COMMON_FREE_RANGES_H

#include <stdbool.h>
#include <wddm/wintypes.h>

struct free_range {
    struct free_range *left, *right; /* offsets below / above; `left` links the spare records */
    UINT64 offset, size;
    UINT64 largest;                  /* the largest size in this subtree: prunes the search */
    int height;                      /* AVL height of this subtree, 1 for a leaf */
};

struct free_ranges {
    struct free_range *root;
    UINT64 count;                    /* free ranges in the tree */
    UINT64 blocks;                   /* blocks taken and not given back */
    /* Spare records: with those in the tree at least blocks + 1, so that giving a block back
     * never needs memory (issue 14 §4: a free that cannot record its range would lose it). */
    struct free_range *spare;
    UINT64 spare_count;
};

/* One free range [0, size). False: no memory. */
bool free_ranges_init(struct free_ranges *h, UINT64 size);
void free_ranges_fini(struct free_ranges *h);
/* Takes `size` bytes at an offset that is a multiple of `align` (a power of two) inside
 * [lo, hi): the lowest such offset, or with top_down the highest. False (nothing changed): no
 * free range fits, or no memory for the record the block's return will need. */
bool free_ranges_take(struct free_ranges *h, UINT64 size, UINT64 align, UINT64 lo, UINT64 hi, bool top_down,
                      UINT64 *offset);
/* Gives back a block free_ranges_take returned, whole; coalesces with the free ranges beside it.
 * Never fails. */
void free_ranges_give(struct free_ranges *h, UINT64 offset, UINT64 size);
/* The largest free range (0 when none). */
static inline UINT64 free_ranges_largest(const struct free_ranges *h)
{
    return h->root ? h->root->largest : 0;
}
/* Calls fn on every free range, lowest offset first. */
void free_ranges_walk(const struct free_ranges *h, void (*fn)(UINT64 offset, UINT64 size, void *ctx), void *ctx);

#endif
