/* What the kernel does when a KMD's DxgkDdiPatch or DxgkDdiSubmitCommand fails (they must not:
 * docs/semantics.md §8.1), and that Patch is also called on paging buffers (§2.4 says so, §8.1
 * says "not for paging buffers": docs/rules/sched.md). A wrapped reference KMD fails on
 * request; the packet is dropped with a verifier line, its fence accounting stays whole (a lock
 * waiting for it returns, later packets run and retire). */
#include "real_env.h"

#include "kmd/kmd.h"

static atomic_int fail_patch, fail_submit, paging_patches;

static NTSTATUS APIENTRY wrap_patch(const HANDLE a, const DXGKARG_PATCH *p)
{
    if (p->Flags.Paging)
        atomic_fetch_add(&paging_patches, 1);
    if (!p->Flags.Paging && atomic_exchange(&fail_patch, 0))
        return STATUS_UNSUCCESSFUL;
    return SwKmdPatch(a, p);
}

static NTSTATUS APIENTRY wrap_submit(const HANDLE a, const DXGKARG_SUBMITCOMMAND *s)
{
    if (!s->Flags.Paging && atomic_exchange(&fail_submit, 0))
        return STATUS_UNSUCCESSFUL;
    return SwKmdSubmitCommand(a, s);
}

static NTSTATUS wrap_entry(PDRIVER_OBJECT drv, PVOID reg)
{
    DRIVER_INITIALIZATION_DATA d;
    SwKmdGetDriverInitializationData(&d);
    d.DxgkDdiPatch = wrap_patch;
    d.DxgkDdiSubmitCommand = wrap_submit;
    return DxgkInitialize(drv, reg, &d);
}

static void open_wrapped(struct renv *e)
{
    wddm_set_kmd_entry(wrap_entry);
    renv_open_kmd(e);
}

static void close_wrapped(struct renv *e)
{
    renv_close(e);
    wddm_set_kmd_entry(NULL);
}

static uint64_t sum_of(struct renv *e, D3DKMT_HANDLE a)
{
    void *p;
    assert_int_equal(renv_lock(e, a, LOCK_READONLY, &p), STATUS_SUCCESS);
    uint64_t s = renv_checksum(p, 4096);
    renv_unlock(e, a);
    return s;
}

static void fill(struct renv *e, D3DKMT_HANDLE a, uint32_t seed)
{
    void *p;
    assert_int_equal(renv_lock(e, a, LOCK_WRITEONLY, &p), STATUS_SUCCESS);
    renv_pattern(p, 4096, seed);
    renv_unlock(e, a);
}

/* rule: sched.dxgkddisubmitcommand-must-not-fail (the packet never runs and is not counted as submitted, the lock waiting for it returns, later packets run) */
/* rule: sched.submitted-counter-before-submitcommand (a refused SubmitCommand takes its count back) */
static void test_failed_patch_or_submit_drops_the_packet_and_later_work_runs(void **state)
{
    (void)state;
    struct renv e;
    open_wrapped(&e);
    D3DKMT_HANDLE src = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, 4096), dst = renv_alloc(&e, SWGPU_ALLOC_READBACK, 4096);
    fill(&e, src, 1);
    assert_int_equal(renv_copy(&e, dst, src, 4096), STATUS_SUCCESS);
    uint64_t first = sum_of(&e, dst);
    assert_true(first == sum_of(&e, src));
    for (int which = 0; which < 2; which++) {
        fill(&e, src, 10 + (uint32_t)which);
        atomic_store(which ? &fail_submit : &fail_patch, 1);
        struct wddm_counters c0 = renv_counters();
        /* D3DKMTRender queued it; the KMD then refuses it (a verifier line, on whichever thread
         * submitted it): it never runs and is not counted as submitted; its device stays. */
        assert_int_equal(renv_copy(&e, dst, src, 4096), STATUS_SUCCESS);
        assert_true(sum_of(&e, dst) == first); /* the lock waited for the dropped packet: returns */
        assert_int_equal(renv_counters().dma_buffers_submitted, c0.dma_buffers_submitted);
        assert_int_equal(atomic_load(which ? &fail_submit : &fail_patch), 0); /* it was refused */
        /* The next packet runs and retires normally. */
        assert_int_equal(renv_copy(&e, dst, src, 4096), STATUS_SUCCESS);
        assert_true(sum_of(&e, dst) == sum_of(&e, src));
        first = sum_of(&e, dst);
    }
    close_wrapped(&e);
}

/* rule: sched.dxgkddipatch-also-called-paging-buffers (a GPU-only allocation's FILL reaches `DxgkDdiPatch` with `Flags.Paging`; the empty patch list: **no test yet**) */
static void test_patch_is_called_on_paging_buffers(void **state)
{
    (void)state;
    struct renv e;
    open_wrapped(&e);
    int before = atomic_load(&paging_patches);
    /* A GPU-only allocation's first use: its FILL is a paging buffer. */
    D3DKMT_HANDLE g = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, 4096), src = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, 4096);
    D3DKMT_HANDLE dst = renv_alloc(&e, SWGPU_ALLOC_READBACK, 4096);
    fill(&e, src, 5);
    assert_int_equal(renv_copy(&e, g, src, 4096), STATUS_SUCCESS);
    assert_int_equal(renv_copy(&e, dst, g, 4096), STATUS_SUCCESS);
    assert_true(sum_of(&e, dst) == sum_of(&e, src));
    assert_true(atomic_load(&paging_patches) > before);
    close_wrapped(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_failed_patch_or_submit_drops_the_packet_and_later_work_runs),
        cmocka_unit_test(test_patch_is_called_on_paging_buffers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
