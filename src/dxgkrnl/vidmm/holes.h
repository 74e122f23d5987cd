/* holes.h - the free ranges ("holes") of one segment, as a balanced tree (vidmm/holes.c).
 *
 * A segment's range allocator: which offsets are free, where a block of a given size and
 * alignment goes inside a window, and giving a block back. The answers are first-fit's (the
 * lowest fitting offset, or from the top the highest), so placements are as predictable as with
 * a sorted list, but each costs O(log holes) instead of O(holes). Every call needs the owner's
 * lock (for a segment, adapter->lock). */
#ifndef WDDM_DXGKRNL_VIDMM_HOLES_H
#define WDDM_DXGKRNL_VIDMM_HOLES_H

#include <stdbool.h>
#include <wddm/wintypes.h>

struct vidmm_hole {
    struct vidmm_hole *left, *right; /* offsets below / above; `left` links the spare records */
    UINT64 offset, size;
    UINT64 largest;                  /* the largest size in this subtree: prunes the search */
    int height;                      /* AVL height of this subtree, 1 for a leaf */
};

struct vidmm_holes {
    struct vidmm_hole *root;
    UINT64 count;                    /* holes in the tree */
    UINT64 blocks;                   /* blocks taken and not given back */
    /* Spare records: with those in the tree at least blocks + 1, so that giving a block back
     * never needs memory (issue 14 §4: a free that cannot record its range would lose it). */
    struct vidmm_hole *spare;
    UINT64 spare_count;
};

/* One hole [0, size). False: no memory. */
bool vidmm_holes_init(struct vidmm_holes *h, UINT64 size);
void vidmm_holes_fini(struct vidmm_holes *h);
/* Takes `size` bytes at an offset that is a multiple of `align` (a power of two) inside
 * [lo, hi): the lowest such offset, or with top_down the highest. False (nothing changed): no
 * hole fits, or no memory for the record the block's return will need. */
bool vidmm_holes_take(struct vidmm_holes *h, UINT64 size, UINT64 align, UINT64 lo, UINT64 hi, bool top_down,
                      UINT64 *offset);
/* Gives back a block vidmm_holes_take returned, whole; coalesces with the holes beside it.
 * Never fails. */
void vidmm_holes_give(struct vidmm_holes *h, UINT64 offset, UINT64 size);
/* The largest hole (0 when none). */
static inline UINT64 vidmm_holes_largest(const struct vidmm_holes *h)
{
    return h->root ? h->root->largest : 0;
}
/* Calls fn on every hole, lowest offset first. */
void vidmm_holes_walk(const struct vidmm_holes *h, void (*fn)(UINT64 offset, UINT64 size, void *ctx), void *ctx);

#endif
