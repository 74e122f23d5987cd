/* The kernel's submission queues are bounded (issue 14 §4), read from the kernel's own state
 * while a process submits faster than a slowed GPU (wddm_swgpu_set_bandwidth) retires:
 *  - a context never has more than GSCHED_CONTEXT_QUEUE_DEPTH DMA buffers queued or in flight:
 *    D3DKMTSubmitCommand waits for the GPU instead (our choice of depth and rule,
 *    docs/rules/sched.md), and every copy still lands;
 *  - GpuMmu paging queues: D3DKMTMakeResident / D3DKMTMapGpuVirtualAddress wait once
 *    VIDMM_PAGING_QUEUE_DEPTH paging buffers are outstanding, so the paging pool stops growing.
 * The bounds are checked after every call; a few buffers more than the depth are allowed, as
 * one call may build several before the next call waits. */
/* rule: vidmm.choice-128-paging-buffers-outstanding */
#include "real_env.h"

#include "kernel_peek.h"

enum { SLACK = 8, BYTES = 4096 };

static struct renv e;

static int setup(void **state)
{
    (void)state;
    renv_gpummu_caps(NULL);
    renv_open(&e);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    wddm_swgpu_set_bandwidth(0);
    renv_close(&e);
    unsetenv("WDDM_KMD_CAPS");
    return 0;
}

static struct dxgk_adapter *adapter_of(D3DKMT_HANDLE device)
{
    struct dxgk_device *d = dxgk_device_get(device);
    assert_non_null(d);
    struct dxgk_adapter *a = d->adapter;
    dxgk_object_put(&d->obj);
    return a;
}

static UINT context_queued(D3DKMT_HANDLE context)
{
    struct dxgk_context *c = (struct dxgk_context *)dxgk_handle_get(context, DXGK_TYPE_CONTEXT);
    assert_non_null(c);
    UINT q = atomic_load(&c->queued);
    dxgk_object_put(&c->obj);
    return q;
}

/* 400 copies of 64 KiB through a GPU slowed to 64 MiB/s (1 ms each), submitted back to back. */
/* rule: sched.context-most-64-dma-buffers-queued (GpuMmu, read from the kernel after every call: at most 64; mutation-checked: 400 without the wait) */
static void a_context_waits_at_its_queue_depth_and_every_copy_lands(void **state)
{
    (void)state;
    enum { BIG = 64 * 1024, COPIES = 400 };
    D3DKMT_HANDLE cmd = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, 4096);
    D3DKMT_HANDLE src = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, BIG);
    D3DKMT_HANDLE rb = renv_alloc(&e, SWGPU_ALLOC_READBACK, BIG);
    D3DKMT_HANDLE list[3] = { cmd, src, rb };
    assert_true(NT_SUCCESS(renv_make_resident(e.device, list, 3)));
    D3DGPU_VIRTUAL_ADDRESS cmd_va = renv_map(e.device, cmd, 1, false);
    D3DGPU_VIRTUAL_ADDRESS src_va = renv_map(e.device, src, BIG / 4096, false);
    D3DGPU_VIRTUAL_ADDRESS rb_va = renv_map(e.device, rb, BIG / 4096, true);
    void *p = renv_lock2(e.device, src);
    renv_pattern(p, BIG, 9);
    renv_unlock2(e.device, src);
    p = renv_lock2(e.device, cmd);
    UINT len = renv_va_copy_cmd(p, rb_va, src_va, BIG);
    renv_unlock2(e.device, cmd);
    renv_finish(e.device, e.context);

    wddm_swgpu_set_bandwidth(64ull << 20);
    UINT most = 0;
    for (UINT i = 0; i < COPIES; i++) {
        assert_int_equal(renv_submit(e.context, cmd_va, len), STATUS_SUCCESS);
        UINT q = context_queued(e.context);
        if (q > most)
            most = q;
    }
    print_message("most DMA buffers of the context outstanding: %u (depth %u)\n", most, GSCHED_CONTEXT_QUEUE_DEPTH);
    assert_true(most <= GSCHED_CONTEXT_QUEUE_DEPTH + SLACK);
    assert_true(most >= GSCHED_CONTEXT_QUEUE_DEPTH / 2); /* the GPU did lag: the bound was reached */
    renv_finish(e.device, e.context);
    wddm_swgpu_set_bandwidth(0);
    UINT8 want[BIG];
    renv_pattern(want, BIG, 9);
    p = renv_lock2(e.device, rb);
    assert_memory_equal(p, want, BIG);
    renv_unlock2(e.device, rb);
}

/* 400 allocations made resident and mapped, then destroyed, through a GPU slowed to 64 MiB/s:
 * their paging buffers (first placement, page tables) pile up no further than the bound. */
/* rule: vidmm.paging-queue-call-waits-while-128 (400 allocations made resident and mapped through a GPU slowed to 64 MiB/s: at most 128 + a call's few; mutation-checked: 768 without the wait) */
static void paging_queue_calls_wait_at_the_paging_depth(void **state)
{
    (void)state;
    enum { ALLOCS = 400, TEST_BYTES = 64 * 1024 };
    struct dxgk_adapter *a = adapter_of(e.device);
    wddm_swgpu_set_bandwidth(64ull << 20);
    UINT most = 0;
    for (UINT i = 0; i < ALLOCS; i++) {
        D3DKMT_HANDLE h = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, TEST_BYTES);
        assert_true(NT_SUCCESS(renv_make_resident(e.device, &h, 1)));
        (void)renv_map(e.device, h, TEST_BYTES / 4096, true);
        UINT out = atomic_load(&a->paging_out);
        if (out > most)
            most = out;
        renv_free(&e, h);
    }
    wddm_swgpu_set_bandwidth(0);
    print_message("most paging buffers outstanding: %u (depth %u)\n", most, VIDMM_PAGING_QUEUE_DEPTH);
    assert_true(most <= VIDMM_PAGING_QUEUE_DEPTH + SLACK);
    assert_true(most >= VIDMM_PAGING_QUEUE_DEPTH / 2); /* the paging engine did lag */
    renv_finish(e.device, e.context);
    assert_int_equal(renv_exec_state(e.device), D3DKMT_DEVICEEXECUTION_ACTIVE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(a_context_waits_at_its_queue_depth_and_every_copy_lands, setup, teardown),
        cmocka_unit_test_setup_teardown(paging_queue_calls_wait_at_the_paging_depth, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
