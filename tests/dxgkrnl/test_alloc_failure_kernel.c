/* Issue 14 §4, allocation failure in the kernel's destroy paths (docs/rules/kernel.md), with the
 * test hook wddm_test_fail_alloc_after (<wddm/wddm.h>):
 *  - D3DKMTDestroyAllocation of an allocation the GPU still uses needs a deferred entry; without
 *    memory for it the call fails with STATUS_NO_MEMORY and destroys nothing: the handle still
 *    works and a later destroy succeeds (before, the handle was gone and the objects leaked);
 *  - freeing a segment range never allocates (a free that needed memory lost the range);
 *  - D3DKMTDestroyDevice with allocations left succeeds at every allocation that fails inside
 *    it (WDK: D3DKMTDestroyDevice releases everything the device still owns), and every
 *    allocation is destroyed;
 *  - the calls that list allocations (Set/GetAllocationPriority, QueryAllocationResidency,
 *    MakeResident, Evict) answer STATUS_NO_MEMORY when the list cannot be held, and change or
 *    write nothing. */
/* rule: common.every-allocation-library-goes-through */
#include "real_env.h"

#include <wddm/d3dkmddi.h>

#include "dxgkrnl/objects/objects.h"

enum { COPY_BYTES = 64 * 1024 };

static UINT64 live_allocations(void)
{
    struct wddm_counters c = renv_counters();
    return c.allocations_created - c.allocations_destroyed;
}

/* rule: kernel.d3dkmtdestroyallocation-takes-deferred (mutation-checked: the old order fails it) */
static void destroying_a_busy_allocation_without_memory_destroys_nothing(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    UINT64 live = live_allocations();
    D3DKMT_HANDLE up = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, COPY_BYTES), dst = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, COPY_BYTES);
    wddm_swgpu_set_paused(1); /* the copy stays queued: dst is busy */
    assert_int_equal(renv_copy(&e, dst, up, COPY_BYTES), STATUS_SUCCESS);
    D3DKMT_DESTROYALLOCATION da = { .hDevice = e.device, .phAllocationList = &dst, .AllocationCount = 1 };
    wddm_test_fail_alloc_after(0);
    NTSTATUS st = D3DKMTDestroyAllocation(&da);
    unsigned long long injected = wddm_test_alloc_failures_injected();
    wddm_test_fail_alloc_after(-1);
    assert_int_equal(injected, 1);
    assert_int_equal(st, STATUS_NO_MEMORY);
    /* Nothing was destroyed: the same handle is destroyed now. */
    assert_int_equal(D3DKMTDestroyAllocation(&da), STATUS_SUCCESS);
    wddm_swgpu_set_paused(0);
    renv_free(&e, up);
    renv_close(&e);
    assert_int_equal(live_allocations(), live);
}

/* One call with its first allocation failed: its status and whether a failure was injected. */
static NTSTATUS without_memory(NTSTATUS (*call)(void *), void *args)
{
    wddm_test_fail_alloc_after(0);
    NTSTATUS st = call(args);
    unsigned long long injected = wddm_test_alloc_failures_injected();
    wddm_test_fail_alloc_after(-1);
    assert_int_equal(injected, 1);
    return st;
}
static NTSTATUS call_set(void *a) { return D3DKMTSetAllocationPriority(a); }
static NTSTATUS call_get(void *a) { return D3DKMTGetAllocationPriority(a); }
static NTSTATUS call_query(void *a) { return D3DKMTQueryAllocationResidency(a); }
static NTSTATUS call_make_resident(void *a) { return D3DKMTMakeResident(a); }
static NTSTATUS call_evict(void *a) { return D3DKMTEvict(a); }

/* rule: kernel.calls-list-allocations (mutation-checked: the list's allocation failure answered as INVALID_PARAMETER) */
static void listing_allocations_without_memory_answers_no_memory(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    D3DKMT_HANDLE h[2] = { renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, COPY_BYTES),
                           renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, COPY_BYTES) };
    UINT before[2], out[2] = { 77, 77 };
    D3DKMT_GETALLOCATIONPRIORITY g = { .hDevice = e.device, .phAllocationList = h, .AllocationCount = 2,
                                       .pPriorities = before };
    assert_int_equal(D3DKMTGetAllocationPriority(&g), STATUS_SUCCESS);
    const UINT low[2] = { D3DDDI_ALLOCATIONPRIORITY_LOW, D3DDDI_ALLOCATIONPRIORITY_LOW };
    D3DKMT_SETALLOCATIONPRIORITY s = { .hDevice = e.device, .phAllocationList = h, .AllocationCount = 2,
                                       .pPriorities = low };
    assert_int_equal(without_memory(call_set, &s), STATUS_NO_MEMORY);
    g.pPriorities = out;
    assert_int_equal(without_memory(call_get, &g), STATUS_NO_MEMORY);
    assert_int_equal(out[0], 77); /* nothing written */
    assert_int_equal(D3DKMTGetAllocationPriority(&g), STATUS_SUCCESS);
    assert_int_equal(out[0], before[0]); /* nothing changed */
    assert_int_equal(out[1], before[1]);
    D3DKMT_ALLOCATIONRESIDENCYSTATUS rs[2] = { 77, 77 };
    D3DKMT_QUERYALLOCATIONRESIDENCY q = { .hDevice = e.device, .phAllocationList = h, .AllocationCount = 2,
                                          .pResidencyStatus = rs };
    assert_int_equal(without_memory(call_query, &q), STATUS_NO_MEMORY);
    assert_int_equal(rs[0], 77);
    D3DDDI_MAKERESIDENT mr = { .hPagingQueue = e.device, .NumAllocations = 2, .AllocationList = h };
    assert_int_equal(without_memory(call_make_resident, &mr), STATUS_NO_MEMORY);
    D3DKMT_EVICT ev = { .hDevice = e.device, .NumAllocations = 2, .AllocationList = h };
    assert_int_equal(without_memory(call_evict, &ev), STATUS_NO_MEMORY);
    /* Nothing was made resident, so an Evict now has no reference to drop. */
    assert_int_equal(D3DKMTEvict(&ev), STATUS_INVALID_PARAMETER);
    renv_close(&e);
}

/* rule: common.freeing-segment-range-never-allocates (mutation-checked: a free that allocates fails it) */
static void freeing_a_segment_range_never_allocates(void **state)
{
    (void)state;
    struct vidmm_segment s;
    DXGK_SEGMENTDESCRIPTOR desc = { .Size = 16 * DXGK_PAGE_SIZE };
    assert_true(vidmm_segment_init(&s, 1, &desc));
    UINT64 off[3];
    for (int i = 0; i < 3; i++)
        assert_true(vidmm_segment_alloc_locked(&s, DXGK_PAGE_SIZE, DXGK_PAGE_SIZE, &off[i]));
    /* The middle block touches no free range: its free needs a record of its own. */
    wddm_test_fail_alloc_after(0);
    vidmm_segment_free_locked(&s, off[1], DXGK_PAGE_SIZE);
    unsigned long long injected = wddm_test_alloc_failures_injected();
    wddm_test_fail_alloc_after(-1);
    assert_int_equal(injected, 0);
    vidmm_segment_free_locked(&s, off[0], DXGK_PAGE_SIZE);
    vidmm_segment_free_locked(&s, off[2], DXGK_PAGE_SIZE);
    /* Every page came back, as one range. */
    UINT64 all;
    assert_true(vidmm_segment_alloc_locked(&s, desc.Size, DXGK_PAGE_SIZE, &all));
    assert_int_equal(all, 0);
    vidmm_segment_free_locked(&s, all, desc.Size);
    vidmm_segment_fini(&s);
}

/* rule: kernel.d3dkmtdestroydevice-releases-every (swept; mutation-checked: without the fallback 12 allocations outlive the device) */
static void destroying_a_device_releases_everything_at_every_allocation_failure(void **state)
{
    (void)state;
    for (long long n = 0;; n++) {
        struct renv e;
        renv_open(&e);
        UINT64 live = live_allocations();
        D3DKMT_HANDLE up = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, COPY_BYTES);
        for (int i = 0; i < 10; i++) /* more than fit the caller's stack entry */
            (void)renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, COPY_BYTES);
        D3DKMT_HANDLE dst = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, COPY_BYTES);
        assert_int_equal(renv_copy(&e, dst, up, COPY_BYTES), STATUS_SUCCESS);
        D3DKMT_DESTROYDEVICE dd = { .hDevice = e.device };
        wddm_test_fail_alloc_after(n);
        NTSTATUS st = D3DKMTDestroyDevice(&dd);
        unsigned long long injected = wddm_test_alloc_failures_injected();
        wddm_test_fail_alloc_after(-1);
        if (st != STATUS_SUCCESS)
            fail_msg("N=%lld: D3DKMTDestroyDevice answered 0x%08x", n, (unsigned)st);
        if (live_allocations() != live)
            fail_msg("N=%lld: %llu allocations outlived their device", n,
                     (unsigned long long)(live_allocations() - live));
        D3DKMT_CLOSEADAPTER ca = { .hAdapter = e.adapter };
        assert_int_equal(D3DKMTCloseAdapter(&ca), STATUS_SUCCESS);
        if (!injected)
            break;
        assert_true(n < 1000);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(destroying_a_busy_allocation_without_memory_destroys_nothing),
        cmocka_unit_test(freeing_a_segment_range_never_allocates),
        cmocka_unit_test(listing_allocations_without_memory_answers_no_memory),
        cmocka_unit_test(destroying_a_device_releases_everything_at_every_allocation_failure),
    };
    return cmocka_run_group_tests_name("dxgkrnl.alloc_failure_kernel", tests, NULL, NULL);
}
