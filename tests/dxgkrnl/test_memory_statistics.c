/* Memory statistics (issue 18 §2, include/wddm/wddm.h wddm_query_memory_statistics) against the
 * reference KMD and the software GPU: per segment what is placed, free and how fragmented; per
 * device its allocations and how much is resident or evicted. Small segments: local 1 MiB,
 * CPU-visible 1 MiB, aperture 4 MiB, a 64 MiB backing-store budget (set before the adapter starts). */
#include "real_env.h"

#define KIB 1024u
#define MIB (1024u * 1024u)
#define LOCAL 1u

static struct wddm_memory_statistics stats(const struct renv *e, D3DKMT_HANDLE device)
{
    struct wddm_memory_statistics s;
    memset(&s, 0xCD, sizeof s);
    assert_int_equal(wddm_query_memory_statistics(e->adapter, device, &s), STATUS_SUCCESS);
    return s;
}

/* Every segment's figures agree with each other, whatever the moment. */
static void check_segments(const struct wddm_memory_statistics *s)
{
    assert_int_equal(s->segment_count, 3);
    for (UINT i = 0; i < s->segment_count; i++) {
        const struct wddm_segment_statistics *g = &s->segment[i];
        assert_int_equal(g->id, i + 1);
        assert_true(g->used <= g->size);
        assert_true(g->free == g->size - g->used);
        assert_true(g->largest_free <= g->free);
        assert_true(g->free == 0 || (g->free_ranges >= 1 && g->largest_free > 0));
        assert_true(g->used == 0 || g->instances >= 1);
    }
    assert_false(s->segment[0].aperture);
    assert_true(s->segment[2].aperture);
    assert_true(s->segment[2].cpu_visible);
}

/* rule: vidmm.wddm-query-memory-statistics-answers-one (3 MiB through 2 MiB: local full with 4 instances and no free range, resident + evicted = all, charged ≥ the device's bytes; mutation-checked) */
static void statistics_follow_placements_frees_and_evictions(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    struct wddm_memory_statistics s0 = stats(&e, e.device);
    check_segments(&s0);
    assert_int_equal(s0.device.hDevice, e.device);
    assert_int_equal(s0.segment[0].size, 1 * MIB);

    const UINT32 sz = 256 * KIB;
    enum { N = 12 }; /* 3 MiB of GPU_ONLY through 2 MiB of local + visible memory */
    D3DKMT_HANDLE up = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, sz), a[N];
    for (int i = 0; i < N; i++) {
        a[i] = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, sz);
        renv_gpu_write(&e, a[i], up, sz, 40 + i);
    }
    renv_finish(e.device, e.context); /* every copy ran: each allocation was placed once */
    struct wddm_memory_statistics s1 = stats(&e, e.device);
    check_segments(&s1);
    assert_int_equal(s1.device.allocations, s0.device.allocations + N + 1);
    /* By kind: the upload allocation is CPU-visible, the GPU-only ones are not; none is a primary
     * or shared (issue 18 §2). */
    assert_int_equal(s1.device.kinds.cpu_visible, s0.device.kinds.cpu_visible + 1);
    assert_int_equal(s1.device.kinds.primary, s0.device.kinds.primary);
    assert_int_equal(s1.device.kinds.shared, s0.device.kinds.shared);
    assert_int_equal(s1.device.kinds.opened, s0.device.kinds.opened);
    assert_true(s1.device.bytes == s0.device.bytes + (UINT64)(N + 1) * sz);
    /* Local memory is full of GPU_ONLY allocations: four of 256 KiB, one range-free tail or none. */
    assert_int_equal(s1.segment[LOCAL - 1].used, 1 * MIB);
    assert_int_equal(s1.segment[LOCAL - 1].instances, 4);
    assert_int_equal(s1.segment[LOCAL - 1].largest_free, 0);
    /* 3 MiB of GPU_ONLY through 2 MiB of local and CPU-visible memory: some were evicted to their
     * backing stores, the others are resident, and the figures add up. */
    if (!s1.device.evicted_allocations)
        fail_msg("no eviction: resident %u of %u; segments used %llu %llu %llu", s1.device.resident_allocations,
                 s1.device.allocations, (unsigned long long)s1.segment[0].used, (unsigned long long)s1.segment[1].used,
                 (unsigned long long)s1.segment[2].used);
    assert_int_equal(s1.device.resident_allocations + s1.device.evicted_allocations, s1.device.allocations);
    assert_true(s1.device.resident_bytes <= s1.segment[0].used + s1.segment[1].used + s1.segment[2].used);
    /* Every allocation charged its backing store against the budget at creation (vidmm/budget.c). */
    assert_int_equal(s1.backing_budget, 64ull * MIB);
    assert_true(s1.backing_committed >= s1.device.bytes);

    /* Freeing every other resident one leaves holes: free ranges appear, each no larger than
     * one allocation. */
    for (int i = 0; i < N; i += 2)
        renv_free(&e, a[i]);
    renv_finish(e.device, e.context);
    struct wddm_memory_statistics s2 = stats(&e, e.device);
    check_segments(&s2);
    assert_int_equal(s2.device.allocations, s1.device.allocations - N / 2);
    const struct wddm_segment_statistics *l = &s2.segment[LOCAL - 1];
    if (l->free)
        assert_true(l->largest_free <= l->free);
    for (int i = 1; i < N; i += 2)
        renv_free(&e, a[i]);
    renv_free(&e, up);
    renv_close(&e);
}

/* rule: vidmm.null-output-bad-adapter-status-invalid */
static void statistics_refuse_bad_arguments(void **state)
{
    (void)state;
    struct renv e, other;
    renv_open(&e);
    struct wddm_memory_statistics s;
    assert_int_equal(wddm_query_memory_statistics(e.adapter, 0, NULL), STATUS_INVALID_PARAMETER);
    assert_int_equal(wddm_query_memory_statistics(0, 0, &s), STATUS_INVALID_PARAMETER);
    assert_int_equal(wddm_query_memory_statistics(e.device, 0, &s), STATUS_INVALID_PARAMETER); /* not an adapter */
    assert_int_equal(wddm_query_memory_statistics(e.adapter, e.context, &s), STATUS_INVALID_HANDLE);
    assert_int_equal(wddm_query_memory_statistics(e.adapter, 0x12345678u, &s), STATUS_INVALID_HANDLE);
    /* Without a device: the segments only. */
    assert_int_equal(wddm_query_memory_statistics(e.adapter, 0, &s), STATUS_SUCCESS);
    assert_int_equal(s.device.hDevice, 0);
    assert_int_equal(s.device.allocations, 0);
    check_segments(&s);
    /* A second device of the same adapter counts only its own allocations. */
    renv_open_on(&other, e.adapter);
    D3DKMT_HANDLE mine = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, 64 * KIB);
    struct wddm_memory_statistics so = stats(&other, other.device);
    assert_int_equal(so.device.allocations, 0);
    renv_free(&e, mine);
    D3DKMT_DESTROYCONTEXT dc = { .hContext = other.context };
    assert_int_equal(D3DKMTDestroyContext(&dc), STATUS_SUCCESS);
    D3DKMT_DESTROYDEVICE dd = { .hDevice = other.device };
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_SUCCESS);
    renv_close(&e);
}

int main(void)
{
    setenv("WDDM_SEGMENT_LOCAL_MB", "1", 1);
    setenv("WDDM_SEGMENT_VISIBLE_MB", "1", 1);
    setenv("WDDM_SEGMENT_APERTURE_MB", "4", 1);
    setenv("WDDM_SYSMEM_BUDGET_MB", "64", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(statistics_follow_placements_frees_and_evictions),
        cmocka_unit_test(statistics_refuse_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
