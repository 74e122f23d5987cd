/* A segment's free ranges (common/free_ranges.c; issue 17 aim 7, docs/rules/common.md):
 *  - every placement is first-fit's answer: the lowest offset (from the top, the highest) that is
 *    a multiple of the alignment and whose pages are all free inside the window; checked against
 *    a page map over thousands of random takes and gives in windows, both directions, four
 *    alignments, with the hole count, the largest hole and the walk's ranges compared after
 *    each step;
 *  - the tree stays balanced and its "largest below" figures true;
 *  - a take that cannot get the record it needs changes nothing, and a give never allocates. */
/* rule: common.first-fit-range-allocator-free-ranges (every answer against a page map, 12,000 random takes and gives in windows, both directions, four alignments; tree balanced, figures true) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <wddm/wddm.h>

#include "common/free_ranges.h"

#define PAGES 1024u
#define PAGE 4096u
#define LIVE 256u

static unsigned char used[PAGES]; /* the model: 1 = taken */
static unsigned run[PAGES + 1];   /* free pages from p on */

static uint32_t rnd(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

/* The model's answer: pages of the first (or last) aligned start whose `size` pages are free and
 * inside [lo, hi); -1 for none. */
static long model_fit(unsigned size, unsigned align, unsigned lo, unsigned hi, bool top_down)
{
    run[PAGES] = 0;
    for (unsigned p = PAGES; p-- > 0;)
        run[p] = used[p] ? 0 : run[p + 1] + 1;
    long found = -1;
    for (unsigned p = lo; p + size <= hi; p++)
        if (p % align == 0 && run[p] >= size) {
            found = p;
            if (!top_down)
                break;
        }
    return found;
}

struct walk_state {
    unsigned next_page; /* where the model's next free run is looked for */
    unsigned ranges;
};

static void check_range(UINT64 offset, UINT64 size, void *ctx)
{
    struct walk_state *w = ctx;
    unsigned p = w->next_page;
    while (p < PAGES && used[p])
        p++;
    unsigned end = p;
    while (end < PAGES && !used[end])
        end++;
    assert_int_equal(offset, (UINT64)p * PAGE);
    assert_int_equal(size, (UINT64)(end - p) * PAGE);
    w->next_page = end;
    w->ranges++;
}

/* Height and largest of the subtree, checked on the way: ordered, not overlapping, never
 * touching (coalesced), balanced, figures true. */
static int check_subtree(const struct free_range *n, UINT64 lo, UINT64 hi, UINT64 *largest)
{
    if (!n) {
        *largest = 0;
        return 0;
    }
    assert_true(n->size > 0);
    assert_true(n->offset > lo || (lo == 0 && n->offset == 0));
    assert_true(n->offset + n->size < hi);
    UINT64 ll, lr;
    int hl = check_subtree(n->left, lo, n->offset, &ll);
    int hr = check_subtree(n->right, n->offset + n->size, hi, &lr);
    assert_true(hl - hr <= 1 && hr - hl <= 1);
    int h = 1 + (hl > hr ? hl : hr);
    assert_int_equal(n->height, h);
    UINT64 m = n->size > ll ? n->size : ll;
    m = m > lr ? m : lr;
    assert_int_equal(n->largest, m);
    *largest = m;
    return h;
}

static void check_against_model(const struct free_ranges *h)
{
    struct walk_state w = {0};
    free_ranges_walk(h, check_range, &w);
    unsigned p = w.next_page;
    while (p < PAGES && used[p])
        p++;
    assert_int_equal(p, PAGES); /* no free page after the last range walked */
    assert_int_equal(h->count, w.ranges);
    UINT64 largest;
    check_subtree(h->root, 0, (UINT64)PAGES * PAGE + 1, &largest);
    assert_int_equal(free_ranges_largest(h), largest);
    unsigned longest = 0;
    for (unsigned i = 0, r = 0; i < PAGES; i++) {
        r = used[i] ? 0 : r + 1;
        longest = r > longest ? r : longest;
    }
    assert_int_equal(largest, (UINT64)longest * PAGE);
}

/* rule: common.segment-placement-first-fit-answer (12,000 random takes and gives against a page map; mutated: a top-down search returning the lowest fit, a stale "largest below") */
static void placements_are_first_fit_answers(void **state)
{
    (void)state;
    static const unsigned aligns[] = {1, 2, 4, 16};
    struct free_ranges h;
    assert_true(free_ranges_init(&h, (UINT64)PAGES * PAGE));
    memset(used, 0, sizeof used);
    struct { UINT64 offset, size; } live[LIVE];
    unsigned n_live = 0, misses = 0, tops = 0;
    uint64_t s = 7;
    for (int op = 0; op < 12000; op++) {
        /* Fill to about three quarters of the slots, then churn. */
        bool take = n_live < LIVE && (n_live < LIVE * 3 / 4 || rnd(&s) % 2);
        if (!take) {
            unsigned i = rnd(&s) % n_live;
            free_ranges_give(&h, live[i].offset, live[i].size);
            for (UINT64 p = live[i].offset / PAGE; p < (live[i].offset + live[i].size) / PAGE; p++)
                used[p] = 0;
            live[i] = live[--n_live];
        } else {
            unsigned size = 1 + rnd(&s) % 12, align = aligns[rnd(&s) % 4];
            unsigned lo = 0, hi = PAGES;
            if (rnd(&s) % 3 == 0) { /* a window, as a bank is */
                lo = rnd(&s) % PAGES;
                hi = lo + 1 + rnd(&s) % (PAGES - lo);
            }
            bool top_down = rnd(&s) % 2;
            tops += top_down;
            long want = model_fit(size, align, lo, hi, top_down);
            UINT64 got;
            bool ok = free_ranges_take(&h, (UINT64)size * PAGE, (UINT64)align * PAGE, (UINT64)lo * PAGE,
                                       (UINT64)hi * PAGE, top_down, &got);
            if (want < 0) {
                assert_false(ok);
                misses++;
            } else {
                assert_true(ok);
                assert_int_equal(got, (UINT64)want * PAGE);
                for (unsigned p = 0; p < size; p++)
                    used[want + p] = 1;
                live[n_live].offset = got;
                live[n_live++].size = (UINT64)size * PAGE;
            }
        }
        check_against_model(&h);
    }
    /* The run reached what it is meant to: both directions, refusals, a fragmented segment. */
    assert_true(misses > 100 && tops > 1000 && h.count > 20);
    while (n_live) {
        n_live--;
        free_ranges_give(&h, live[n_live].offset, live[n_live].size);
    }
    assert_int_equal(h.count, 1);
    assert_int_equal(free_ranges_largest(&h), (UINT64)PAGES * PAGE);
    free_ranges_fini(&h);
}

/* rule: common.freeing-segment-range-never-allocates */
/* rule: common.placement-cannot-get-records-needs */
static void a_take_without_memory_changes_nothing_and_a_give_never_allocates(void **state)
{
    (void)state;
    struct free_ranges h;
    assert_true(free_ranges_init(&h, 64 * PAGE));
    /* A block in the middle of the only hole splits it: the take needs a record for the hole
     * above and the reserve for its own give. With none to be had it fails and changes nothing. */
    UINT64 got = 0;
    wddm_test_fail_alloc_after(0);
    bool ok = free_ranges_take(&h, PAGE, PAGE, 10 * PAGE, 64 * PAGE, false, &got);
    unsigned long long injected = wddm_test_alloc_failures_injected();
    wddm_test_fail_alloc_after(-1);
    assert_false(ok);
    assert_int_equal(injected, 1);
    assert_int_equal(h.count, 1);
    assert_int_equal(h.blocks, 0);
    assert_int_equal(free_ranges_largest(&h), 64 * PAGE);
    /* Every other page taken: 32 holes between 32 blocks. */
    UINT64 off[32];
    for (unsigned i = 0; i < 32; i++) {
        assert_true(free_ranges_take(&h, PAGE, PAGE, 2 * i * PAGE, 64 * PAGE, false, &off[i]));
        assert_int_equal(off[i], 2 * i * PAGE);
    }
    assert_int_equal(h.count, 32);
    /* Gives that merge on both sides, then the rest, with every allocation refused. */
    wddm_test_fail_alloc_after(0);
    for (unsigned i = 1; i < 32; i += 2)
        free_ranges_give(&h, off[i], PAGE);
    for (unsigned i = 0; i < 32; i += 2)
        free_ranges_give(&h, off[i], PAGE);
    injected = wddm_test_alloc_failures_injected();
    wddm_test_fail_alloc_after(-1);
    assert_int_equal(injected, 0);
    assert_int_equal(h.count, 1);
    assert_int_equal(h.blocks, 0);
    assert_int_equal(free_ranges_largest(&h), 64 * PAGE);
    free_ranges_fini(&h);
}

/* rule: common.freeing-segment-range-never-allocates */
/* rule: common.placement-cannot-get-records-needs (mutated: no reserve) */
static void blocks_given_back_in_an_order_that_leaves_holes_apart_need_no_memory(void **state)
{
    (void)state;
    /* Blocks packed from offset 0, then every other one given back: each give stands alone
     * (a new hole with a block on both sides), the case that needs a record from the reserve. */
    struct free_ranges h;
    assert_true(free_ranges_init(&h, 64 * PAGE));
    UINT64 off[64];
    for (unsigned i = 0; i < 64; i++)
        assert_true(free_ranges_take(&h, PAGE, PAGE, 0, 64 * PAGE, false, &off[i]));
    assert_int_equal(h.count, 0);
    wddm_test_fail_alloc_after(0);
    for (unsigned i = 1; i < 64; i += 2)
        free_ranges_give(&h, off[i], PAGE);
    unsigned long long injected = wddm_test_alloc_failures_injected();
    wddm_test_fail_alloc_after(-1);
    assert_int_equal(injected, 0);
    assert_int_equal(h.count, 32);
    for (unsigned i = 0; i < 64; i += 2)
        free_ranges_give(&h, off[i], PAGE);
    assert_int_equal(h.count, 1);
    free_ranges_fini(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(placements_are_first_fit_answers),
        cmocka_unit_test(a_take_without_memory_changes_nothing_and_a_give_never_allocates),
        cmocka_unit_test(blocks_given_back_in_an_order_that_leaves_holes_apart_need_no_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
