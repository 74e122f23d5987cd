/* DMA-buffer splitting (issue 3; docs/semantics.md §9.1 "if the whole working set of one DMA buffer
 * does not fit, VidMm splits the DMA buffer"), against the reference KMD and the software GPU.
 * main() makes the GPU-only segments 1 MiB each (local + CPU-visible window), so one DMA buffer
 * that copies between four 768 KiB GPU-only allocations needs 3 MiB at once, while each of its
 * commands needs 1.5 MiB. */
#include "sched_cmds.h"

#define SZ (768u * 1024u)
#define MAX_EVENTS 1024u

static struct wddm_sched_event ev[MAX_EVENTS];

/* GPU-only allocation filled from an upload allocation with pattern `seed`. */
static D3DKMT_HANDLE gpu_filled(struct renv *e, D3DKMT_HANDLE up, uint32_t seed)
{
    D3DKMT_HANDLE g = renv_alloc(e, SWGPU_ALLOC_GPU_ONLY, SZ);
    renv_write(e, up, SZ, seed);
    assert_int_equal(renv_copy(e, g, up, SZ), STATUS_SUCCESS);
    return g;
}

/* Checksum of a GPU-only allocation, read back through a copy. */
static uint64_t gpu_sum(struct renv *e, D3DKMT_HANDLE g, D3DKMT_HANDLE rb)
{
    assert_int_equal(renv_copy(e, rb, g, SZ), STATUS_SUCCESS);
    return renv_read_sum(e, rb, 0, SZ);
}

/* rule: vidmm.dma-buffer-splitting-packet-whose (3 MiB of GPU-only allocations in one buffer, 2 MiB of segments: 3 parts, every byte right, device active) */
static void test_dma_buffer_whose_allocations_do_not_fit_together_is_split_and_loses_nothing(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    D3DKMT_HANDLE up = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, SZ), rb = renv_alloc(&e, SWGPU_ALLOC_READBACK, SZ);
    D3DKMT_HANDLE a = gpu_filled(&e, up, 1);
    uint64_t want_a = renv_read_sum(&e, up, 0, SZ);
    D3DKMT_HANDLE c = gpu_filled(&e, up, 2);
    uint64_t want_c = renv_read_sum(&e, up, 0, SZ);
    D3DKMT_HANDLE b = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, SZ), d = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, SZ);
    struct wddm_counters c0 = renv_counters();
    wddm_sched_trace_enable(1);
    wddm_sched_trace_clear();
    /* One DMA buffer: B = A, D = C, then A = C (the last command reads what no part before
     * it wrote, and writes what the first part read: each part must run in order). */
    struct cmds k;
    cmds_begin(&k, &e);
    cmds_copy(&k, b, 0, a, 0, SZ);
    cmds_copy(&k, d, 0, c, 0, SZ);
    cmds_copy(&k, a, 0, c, 0, SZ);
    assert_int_equal(cmds_render(&k), STATUS_SUCCESS);
    assert_int_equal(gpu_sum(&e, b, rb), want_a);
    assert_int_equal(gpu_sum(&e, d, rb), want_c);
    assert_int_equal(gpu_sum(&e, a, rb), want_c);
    assert_int_equal(gpu_sum(&e, c, rb), want_c);
    struct wddm_counters c1 = renv_counters();
    assert_int_equal(c1.dma_buffer_splits - c0.dma_buffer_splits, 1);
    assert_int_equal(renv_exec_state(e.device), D3DKMT_DEVICEEXECUTION_ACTIVE); /* not lost, as before splitting */
    /* The trace shows the parts: several SUBMITs of the context before the read-back copies,
     * growing fences, and only the last part retires as the packet. */
    size_t n = wddm_sched_trace_read(ev, MAX_EVENTS), submits = 0;
    UINT64 last = 0;
    for (size_t i = 0; i < n; i++)
        if (ev[i].type == WDDM_SCHED_EVENT_SUBMIT && ev[i].context == e.context) {
            assert_true(ev[i].fence > last);
            last = ev[i].fence;
            submits++;
        }
    wddm_sched_trace_enable(0);
    assert_true(submits >= 2 + 4); /* >= 2 parts, then the four read-back copies */
    renv_close(&e);
}

/* rule: vidmm.dma-buffer-splitting-packet-whose */
static void test_dma_buffer_that_fits_is_not_split(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    D3DKMT_HANDLE up = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, SZ), rb = renv_alloc(&e, SWGPU_ALLOC_READBACK, SZ);
    D3DKMT_HANDLE a = gpu_filled(&e, up, 3);
    uint64_t want = renv_read_sum(&e, up, 0, SZ);
    D3DKMT_HANDLE b = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, SZ);
    struct wddm_counters c0 = renv_counters();
    struct cmds k;
    cmds_begin(&k, &e);
    cmds_copy(&k, b, 0, a, 0, SZ);
    cmds_fill(&k, a, 0, SZ, 0x5a);
    assert_int_equal(cmds_render(&k), STATUS_SUCCESS);
    assert_int_equal(gpu_sum(&e, b, rb), want);
    struct wddm_counters c1 = renv_counters();
    assert_int_equal(c1.dma_buffer_splits, c0.dma_buffer_splits);
    renv_close(&e);
}

int main(void)
{
    setenv("WDDM_SEGMENT_LOCAL_MB", "1", 1);
    setenv("WDDM_SEGMENT_VISIBLE_MB", "1", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dma_buffer_whose_allocations_do_not_fit_together_is_split_and_loses_nothing),
        cmocka_unit_test(test_dma_buffer_that_fits_is_not_split),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
