/* Kernel bugs found by the fuzzers (fuzz/fuzz_kmt.c, README "Fuzzing"), each pinned by the
 * smallest call that showed it. The crashing inputs are in fuzz/corpus/kmt/ too. These are
 * memory-safety bugs: the ASan+UBSan run of the suite is what catches a regression. */
#include "real_env.h"

/* D3DKMTCreateAllocation refused with more than 4 allocations before it allocated its per-call
 * arrays: the failure path walked n entries of its 4-entry stack array (ASan: stack-buffer-
 * overflow in D3DKMTCreateAllocation). Every early refusal must fail cleanly and name its rule
 * (WDK: D3DKMTCreateAllocation returns STATUS_INVALID_PARAMETER for bad parameters). */
/* rule: kernel.existing-sysmem-protected-allocations (`CreateProtected`) */
/* rule: kernel.d3dkmtcreateallocation-refused-before (mutation-checked: without the fix ASan reports the overflow) */
static void early_refusals_of_many_allocations_fail_cleanly(void **state)
{
    struct renv e;
    renv_open(&e);
    enum { N = 9 };
    struct swgpu_alloc_private p = { .magic = SWGPU_PRIVATE_MAGIC, .version = SWGPU_PRIVATE_VERSION,
                                     .kind = SWGPU_ALLOC_READBACK, .size = 4096, .dimension = 1, .width = 4096,
                                     .height = 1, .depth = 1, .mip_levels = 1, .array_size = 1 };
    for (UINT why = 0; why < 4; why++) {
        D3DDDI_ALLOCATIONINFO ai[N];
        for (UINT i = 0; i < N; i++)
            ai[i] = (D3DDDI_ALLOCATIONINFO){ .pPrivateDriverData = &p, .PrivateDriverDataSize = sizeof p };
        D3DKMT_CREATEALLOCATION ca = { .hDevice = e.device, .NumAllocations = N, .pAllocationInfo = ai };
        const char *rule = NULL;
        NTSTATUS expected = STATUS_INVALID_PARAMETER;
        if (why == 0) { /* an allocation's private data size without the data */
            ai[N - 1].pPrivateDriverData = NULL;
            rule = "with NULL data";
        } else if (why == 1) { /* reserved allocation flags */
            ai[0].Flags.Value = 0x4;
            rule = "reserved bits must be 0";
        } else if (why == 2) { /* the resource's private data size without the data */
            ca.PrivateDriverDataSize = 16;
            rule = "with NULL pPrivateDriverData";
        } else { /* protected allocations are not modelled */
            ca.Flags.CreateProtected = 1;
            rule = "CreateProtected not supported";
            expected = STATUS_NOT_SUPPORTED;
        }
        wddm_clear_refusals();
        assert_int_equal(D3DKMTCreateAllocation(&ca), expected);
        renv_expect_refusal(rule);
        for (UINT i = 0; i < N; i++)
            assert_int_equal(ai[i].hAllocation, 0);
    }
    /* The device still creates the same allocations once they are valid. */
    D3DDDI_ALLOCATIONINFO ai[N];
    for (UINT i = 0; i < N; i++)
        ai[i] = (D3DDDI_ALLOCATIONINFO){ .pPrivateDriverData = &p, .PrivateDriverDataSize = sizeof p };
    D3DKMT_CREATEALLOCATION ca = { .hDevice = e.device, .NumAllocations = N, .pAllocationInfo = ai };
    assert_int_equal(D3DKMTCreateAllocation(&ca), STATUS_SUCCESS);
    for (UINT i = 0; i < N; i++)
        assert_int_not_equal(ai[i].hAllocation, 0);
    renv_close(&e);
}

/* fuzz.kmt found: an allocation of a resource destroyed on its own while the GPU still used it
 * (its deferred entry waits), then the resource destroyed while its other allocation was idle
 * (freed at once, the resource with it): the deferred entry, freed later by the node worker,
 * unlinked its allocation from the freed resource (ASan: heap-use-after-free in
 * release_locked). A destroyed allocation leaves its resource at once (docs/semantics.md §3.5:
 * its handle is gone when the call returns). */
/* rule: kernel.allocation-destruction-deferred-until (ASan; mutation-checked: unlinking at the deferred free is a use after free) */
static void an_allocation_outlived_by_its_resource_frees_cleanly(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    struct swgpu_alloc_private p = { .magic = SWGPU_PRIVATE_MAGIC, .version = SWGPU_PRIVATE_VERSION,
                                     .kind = SWGPU_ALLOC_READBACK, .size = 4096, .dimension = 1, .width = 4096,
                                     .height = 1, .depth = 1, .mip_levels = 1, .array_size = 1 };
    D3DDDI_ALLOCATIONINFO ai[2] = { { .pPrivateDriverData = &p, .PrivateDriverDataSize = sizeof p },
                                    { .pPrivateDriverData = &p, .PrivateDriverDataSize = sizeof p } };
    D3DKMT_CREATEALLOCATION ca = { .hDevice = e.device, .NumAllocations = 2, .pAllocationInfo = ai };
    ca.Flags.CreateResource = 1;
    assert_int_equal(D3DKMTCreateAllocation(&ca), STATUS_SUCCESS);
    D3DKMT_HANDLE src = renv_alloc(&e, SWGPU_ALLOC_READBACK, 4096);
    wddm_swgpu_set_paused(1);
    assert_int_equal(renv_copy(&e, ai[0].hAllocation, src, 4096), STATUS_SUCCESS); /* ai[0] busy */
    renv_free(&e, ai[0].hAllocation); /* deferred: the GPU has not run the copy */
    D3DKMT_DESTROYALLOCATION dr = { .hDevice = e.device, .hResource = ca.hResource };
    assert_int_equal(D3DKMTDestroyAllocation(&dr), STATUS_SUCCESS); /* ai[1] idle: freed now */
    wddm_swgpu_set_paused(0);
    renv_free(&e, src);
    renv_close(&e); /* waits for the deferred entry */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(early_refusals_of_many_allocations_fail_cleanly),
        cmocka_unit_test(an_allocation_outlived_by_its_resource_frees_cleanly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
