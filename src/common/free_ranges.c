/* free_ranges.c - free ranges ("holes") as an AVL tree keyed by offset, each node knowing the
 * largest hole below it (the augmented tree of Linux's drm_mm, which finds the lowest fitting
 * hole the same way).
 *
 * Why a tree: placements were first-fit over a sorted list, O(holes) per placement and per free;
 * with 10^5 live blocks a placement cost a walk over ~27,000 holes (`wddm bench A1`, issue 17
 * aim 7). Why still first-fit: the answers stay exactly those of the list (the lowest fitting
 * offset; from the top, the highest), so placement stays deterministic, tests keep predicting
 * offsets, and low offsets stay dense. A subtree whose largest hole is smaller than the request
 * is skipped whole; so is one wholly outside the window. An alignment larger than a page can
 * make a hole that is large enough not fit; the search then goes on past it, so a segment full
 * of such near misses costs more than log(holes) (none of VidMm's workloads does that: its
 * alignments are a page or the KMD's few larger ones).
 *
 * Records never come from the allocator on a give: the tree plus the spare list hold at least
 * blocks + 1 records (a give that creates a hole has blocks on both sides, so fewer than blocks
 * holes exist then and a spare is there). Recursion depth is the tree's height, at most
 * 1.44 log2(holes + 2). */
#include "common/free_ranges.h"
#include "common/alloc.h"

#include <stdlib.h>

#define SPARE_SLACK 16 /* spares kept beyond the reserve, for the next takes */

static int height(const struct free_range *n)
{
    return n ? n->height : 0;
}

static UINT64 largest(const struct free_range *n)
{
    return n ? n->largest : 0;
}

static void pull(struct free_range *n)
{
    int hl = height(n->left), hr = height(n->right);
    n->height = 1 + (hl > hr ? hl : hr);
    UINT64 m = n->size;
    if (largest(n->left) > m)
        m = largest(n->left);
    if (largest(n->right) > m)
        m = largest(n->right);
    n->largest = m;
}

static struct free_range *rotate_right(struct free_range *y)
{
    struct free_range *x = y->left;
    y->left = x->right;
    x->right = y;
    pull(y);
    pull(x);
    return x;
}

static struct free_range *rotate_left(struct free_range *x)
{
    struct free_range *y = x->right;
    x->right = y->left;
    y->left = x;
    pull(x);
    pull(y);
    return y;
}

static struct free_range *balance(struct free_range *n)
{
    pull(n);
    int bf = height(n->left) - height(n->right);
    if (bf > 1) {
        if (height(n->left->left) < height(n->left->right))
            n->left = rotate_left(n->left);
        return rotate_right(n);
    }
    if (bf < -1) {
        if (height(n->right->right) < height(n->right->left))
            n->right = rotate_right(n->right);
        return rotate_left(n);
    }
    return n;
}

static struct free_range *insert(struct free_range *n, struct free_range *node)
{
    if (!n) {
        node->left = node->right = NULL;
        pull(node);
        return node;
    }
    if (node->offset < n->offset)
        n->left = insert(n->left, node);
    else
        n->right = insert(n->right, node);
    return balance(n);
}

static struct free_range *unlink_lowest(struct free_range *n, struct free_range **lowest)
{
    if (!n->left) {
        *lowest = n;
        return n->right;
    }
    n->left = unlink_lowest(n->left, lowest);
    return balance(n);
}

/* Unlinks the hole at `offset` (it exists). */
static struct free_range *erase(struct free_range *n, UINT64 offset)
{
    if (offset < n->offset) {
        n->left = erase(n->left, offset);
    } else if (offset > n->offset) {
        n->right = erase(n->right, offset);
    } else {
        struct free_range *l = n->left, *r = n->right, *m;
        if (!r)
            return l;
        r = unlink_lowest(r, &m);
        m->left = l;
        m->right = r;
        return balance(m);
    }
    return balance(n);
}

/* Gives the hole at `offset` (it exists) a new place and size that keep its rank among the
 * holes, and refreshes `largest` on the way back up. */
static void resize(struct free_range *n, UINT64 offset, UINT64 new_offset, UINT64 new_size)
{
    if (offset < n->offset) {
        resize(n->left, offset, new_offset, new_size);
    } else if (offset > n->offset) {
        resize(n->right, offset, new_offset, new_size);
    } else {
        n->offset = new_offset;
        n->size = new_size;
    }
    pull(n);
}

struct fit {
    UINT64 size, align, lo, hi;
    UINT64 start; /* out */
};

/* Whether n holds the block inside the window; sets f->start (the lowest or highest start). */
static bool fits(const struct free_range *n, struct fit *f, bool top_down)
{
    UINT64 from = n->offset > f->lo ? n->offset : f->lo;
    UINT64 to = n->offset + n->size < f->hi ? n->offset + n->size : f->hi;
    if (from >= to || to - from < f->size)
        return false;
    UINT64 start;
    if (top_down) {
        start = (to - f->size) & ~(f->align - 1);
        if (start < from)
            return false;
    } else {
        start = (from + f->align - 1) & ~(f->align - 1);
        if (start < from || start > to || to - start < f->size)
            return false;
    }
    f->start = start;
    return true;
}

/* The lowest hole that fits. Holes to the left of n end before n->offset; those to the right
 * start after n's end. */
static struct free_range *lowest_fit(struct free_range *n, struct fit *f)
{
    while (n && n->largest >= f->size) {
        if (n->offset > f->lo) {
            struct free_range *l = lowest_fit(n->left, f);
            if (l)
                return l;
        }
        if (n->offset >= f->hi)
            return NULL;
        if (fits(n, f, false))
            return n;
        n = n->right;
    }
    return NULL;
}

static struct free_range *highest_fit(struct free_range *n, struct fit *f)
{
    while (n && n->largest >= f->size) {
        if (n->offset + n->size < f->hi) {
            struct free_range *r = highest_fit(n->right, f);
            if (r)
                return r;
        }
        if (n->offset + n->size <= f->lo)
            return NULL;
        if (fits(n, f, true))
            return n;
        n = n->left;
    }
    return NULL;
}

/* The holes just below and just above `offset` (a block's start: no hole starts there), or NULL,
 * in one descent. */
static void neighbours(struct free_range *n, UINT64 offset, struct free_range **below, struct free_range **above)
{
    *below = *above = NULL;
    while (n) {
        if (n->offset < offset) {
            *below = n;
            n = n->right;
        } else {
            *above = n;
            n = n->left;
        }
    }
}

static void spare_push(struct free_ranges *h, struct free_range *r)
{
    r->left = h->spare;
    h->spare = r;
    h->spare_count++;
}

static struct free_range *spare_pop(struct free_ranges *h)
{
    struct free_range *r = h->spare;
    h->spare = r->left;
    h->spare_count--;
    return r;
}

bool free_ranges_init(struct free_ranges *h, UINT64 size)
{
    *h = (struct free_ranges){0};
    struct free_range *n = wddm_malloc(sizeof *n);
    if (!n)
        return false;
    n->offset = 0;
    n->size = size;
    h->root = insert(NULL, n);
    h->count = 1;
    return true;
}

static void free_subtree(struct free_range *n)
{
    while (n) {
        free_subtree(n->left);
        struct free_range *r = n->right;
        free(n);
        n = r;
    }
}

void free_ranges_fini(struct free_ranges *h)
{
    free_subtree(h->root);
    while (h->spare)
        free(spare_pop(h));
    *h = (struct free_ranges){0};
}

bool free_ranges_take(struct free_ranges *h, UINT64 size, UINT64 align, UINT64 lo, UINT64 hi, bool top_down,
                      UINT64 *offset)
{
    struct fit f = {.size = size, .align = align, .lo = lo, .hi = hi};
    struct free_range *n = top_down ? highest_fit(h->root, &f) : lowest_fit(h->root, &f);
    if (!n)
        return false;
    UINT64 head = f.start - n->offset, tail = n->size - head - size;
    /* The records this take needs (one for a split) and the reserve for the block's give are
     * found now, while failing changes nothing. */
    UINT64 need = h->count + h->spare_count < h->blocks + 2 ? 1 : 0;
    if (head && tail && !h->spare_count && !need)
        need = 1;
    if (need) {
        struct free_range *r = wddm_malloc(sizeof *r);
        if (!r)
            return false;
        spare_push(h, r);
    }
    if (head && tail) {
        resize(h->root, n->offset, n->offset, head);
        struct free_range *t = spare_pop(h);
        t->offset = f.start + size;
        t->size = tail;
        h->root = insert(h->root, t);
        h->count++;
    } else if (head) {
        resize(h->root, n->offset, n->offset, head);
    } else if (tail) {
        resize(h->root, n->offset, f.start + size, tail);
    } else {
        h->root = erase(h->root, n->offset);
        h->count--;
        spare_push(h, n);
    }
    h->blocks++;
    *offset = f.start;
    return true;
}

void free_ranges_give(struct free_ranges *h, UINT64 offset, UINT64 size)
{
    h->blocks--;
    struct free_range *prev, *next;
    neighbours(h->root, offset, &prev, &next);
    bool merge_prev = prev && prev->offset + prev->size == offset;
    bool merge_next = next && offset + size == next->offset;
    if (merge_prev && merge_next) {
        UINT64 total = prev->size + size + next->size;
        h->root = erase(h->root, next->offset);
        h->count--;
        spare_push(h, next);
        resize(h->root, prev->offset, prev->offset, total);
    } else if (merge_prev) {
        resize(h->root, prev->offset, prev->offset, prev->size + size);
    } else if (merge_next) {
        resize(h->root, next->offset, offset, next->size + size);
    } else {
        struct free_range *r = spare_pop(h); /* there is one: see the file comment */
        r->offset = offset;
        r->size = size;
        h->root = insert(h->root, r);
        h->count++;
    }
    while (h->spare_count > SPARE_SLACK && h->count + h->spare_count > h->blocks + 1 + SPARE_SLACK)
        free(spare_pop(h));
}

static void walk(const struct free_range *n, void (*fn)(UINT64, UINT64, void *), void *ctx)
{
    while (n) {
        walk(n->left, fn, ctx);
        fn(n->offset, n->size, ctx);
        n = n->right;
    }
}

void free_ranges_walk(const struct free_ranges *h, void (*fn)(UINT64 offset, UINT64 size, void *ctx), void *ctx)
{
    walk(h->root, fn, ctx);
}
