/* Process-wide test control (include/wddm/swgpu.h): pause holds completion, bandwidth slows
 * data movement, counters add up over every GPU. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "gpu/gpu_test_util.h"

#include <time.h>
#include <wddm/swgpu.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* rule: gpu.wddm-swgpu-set-paused-nothing-completes */
static void paused_gpus_finish_nothing_until_resumed(void **state)
{
    struct swgpu *a = t_gpu_create(), *b = t_gpu_create();
    struct t_dma d;
    t_dma_init(&d, 4096);
    const UINT32 v = 0x1234;
    t_write(&d, t_addr(T_SEG_LOCAL, 0), 0, 0, 4, 1, 1, &v);

    wddm_swgpu_set_paused(1);
    /* Many buffers queued while paused: the ring grows, nothing completes. */
    for (UINT32 i = 1; i <= 300; i++) {
        swgpu_submit(a, 0, d.buf, 0, d.len, i, 0);
        swgpu_submit(b, 1, d.buf, 0, d.len, i, 0);
    }
    sleep_ms(30);
    assert_int_equal(swgpu_last_completed_fence(a, 0), 0);
    assert_int_equal(swgpu_last_completed_fence(b, 1), 0);
    UINT32 got;
    memcpy(&got, swgpu_segment_host(b, T_SEG_LOCAL), 4);
    /* Engines may have started one buffer each but complete none of them. */
    wddm_swgpu_set_paused(0);
    swgpu_wait_fence(a, 0, 300);
    swgpu_wait_fence(b, 1, 300);
    assert_int_equal(swgpu_last_completed_fence(a, 0), 300);
    assert_int_equal(swgpu_last_completed_fence(b, 1), 300);
    memcpy(&got, swgpu_segment_host(b, T_SEG_LOCAL), 4);
    assert_int_equal(got, v);
    free(d.buf);
    swgpu_destroy(a);
    swgpu_destroy(b);
}

/* rule: gpu.wddm-swgpu-set-paused-nothing-completes */
static void destroy_while_paused_does_not_hang(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    wddm_swgpu_set_paused(1);
    swgpu_submit(gpu, 0, NULL, 0, 0, 1, 0);
    swgpu_destroy(gpu);
    wddm_swgpu_set_paused(0);
}

/* rule: gpu.wddm-swgpu-set-bandwidth-slows-data */
static void bandwidth_limit_slows_copies(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    struct t_dma d;
    t_dma_init(&d, 4096);
    /* 1 MiB at 10 MiB/s takes at least 100 ms. */
    t_copy(&d, t_addr(T_SEG_LOCAL, 0), 0, 0, t_addr(T_SEG_LOCAL, 4u << 20), 0, 0, 1u << 20, 1, 1);
    wddm_swgpu_set_bandwidth(10ull << 20);
    double t0 = now_s();
    t_run(gpu, 0, &d, 1);
    double slow = now_s() - t0;
    wddm_swgpu_set_bandwidth(0);
    t0 = now_s();
    t_run(gpu, 0, &d, 2);
    double fast = now_s() - t0;
    assert_true(slow >= 0.095);
    assert_true(fast < slow);
    free(d.buf);
    swgpu_destroy(gpu);
}

/* rule: gpu.wddm-swgpu-get-stats-counts-engines */
static void stats_count_what_engines_executed(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    struct wddm_swgpu_stats s0, s1;
    wddm_swgpu_get_stats(&s0);
    struct t_dma d;
    t_dma_init(&d, 4096);
    BYTE page[1] = {0};
    BYTE *sys = aligned_alloc(4096, 4096);
    UINT64 pages[1] = {(UINT64)(uintptr_t)sys};
    (void)page;
    t_gart_map(&d, 0, 1, pages);
    t_copy(&d, t_addr(T_SEG_LOCAL, 0), 0, 0, t_addr(T_SEG_LOCAL, 8192), 0, 0, 1000, 1, 1);
    const UINT32 pat = 7;
    t_fill(&d, t_addr(T_SEG_LOCAL, 0), 0, 0, 300, 1, 1, &pat, 4);
    t_write(&d, t_addr(T_SEG_LOCAL, 0), 0, 0, 4, 1, 1, &pat);
    t_run(gpu, 1, &d, 1);
    wddm_swgpu_get_stats(&s1);
    assert_true(s1.dma_buffers_executed - s0.dma_buffers_executed >= 1);
    assert_true(s1.commands_executed - s0.commands_executed >= 4);
    assert_true(s1.bytes_copied - s0.bytes_copied >= 1000);
    assert_true(s1.bytes_filled - s0.bytes_filled >= 300);
    assert_true(s1.bytes_written - s0.bytes_written >= 4);
    assert_true(s1.pages_mapped - s0.pages_mapped >= 1);
    assert_true(s1.interrupts - s0.interrupts >= 1);
    wddm_swgpu_get_stats(NULL); /* harmless */
    free(sys);
    free(d.buf);
    swgpu_destroy(gpu);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(paused_gpus_finish_nothing_until_resumed),
        cmocka_unit_test(destroy_while_paused_does_not_hang),
        cmocka_unit_test(bandwidth_limit_slows_copies),
        cmocka_unit_test(stats_count_what_engines_executed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
