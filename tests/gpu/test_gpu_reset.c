/* Injected hangs and engine reset on the software GPU (src/gpu/reset.c, include/wddm/swgpu.h
 * wddm_swgpu_inject_hang; docs/semantics.md §8.3): a hung buffer never completes and runs none of
 * its commands while the other engines keep working; a hung engine ignores preemption;
 * swgpu_reset_engine returns the abandoned fence (LastAbortedFenceId), drops the ring and
 * leaves the engine ready; paging buffers never take a hang. Assertions are on fences, data
 * and counters, never on time. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "gpu/gpu_test_util.h"

#include <pthread.h>
#include <time.h>
#include <wddm/swgpu.h>

#define MARK_A (1u << 20)
#define MARK_B (2u << 20)
#define MARK_C (3u << 20)

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static const BYTE *local(struct swgpu *gpu)
{
    return swgpu_segment_host(gpu, T_SEG_LOCAL);
}

/* A buffer that fills 4 KiB at `off` with `v`. */
static void mark_buffer(struct t_dma *d, UINT32 off, BYTE v)
{
    t_dma_init(d, 4096);
    t_fill(d, t_addr(T_SEG_LOCAL, off), 0, 0, 4096, 1, 1, &v, 1);
}

static void wait_hung(struct swgpu *gpu, UINT32 engine)
{
    while (!swgpu_engine_hung(gpu, engine))
        sleep_ms(1);
}

/* rule: gpu.wddm-swgpu-inject-hang-next-non */
static void hung_buffer_never_completes_while_other_engines_work(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    struct t_dma a, b;
    mark_buffer(&a, MARK_A, 0x11);
    mark_buffer(&b, MARK_B, 0x22);
    t_run(gpu, 0, &b, 1); /* fence 1 completes normally */
    UINT64 progress = swgpu_engine_progress(gpu, 0);

    wddm_swgpu_inject_hang();
    swgpu_submit(gpu, 0, a.buf, 0, a.len, 2, 0);
    wait_hung(gpu, 0);
    /* Engine 1 keeps working, many buffers. */
    for (UINT32 f = 1; f <= 20; f++)
        t_run(gpu, 1, &b, f);
    assert_int_equal(swgpu_last_completed_fence(gpu, 1), 20);
    assert_true(swgpu_engine_hung(gpu, 0));
    assert_int_equal(swgpu_last_completed_fence(gpu, 0), 1);
    assert_int_equal(swgpu_engine_progress(gpu, 0), progress); /* not one command ran */
    assert_int_equal(local(gpu)[MARK_A], 0);

    UINT32 aborted = 0;
    assert_int_equal(swgpu_reset_engine(gpu, 0, &aborted), 0);
    assert_int_equal(aborted, 2);
    assert_false(swgpu_engine_hung(gpu, 0));
    assert_int_equal(local(gpu)[MARK_A], 0); /* abandoned: never ran */
    free(a.buf);
    free(b.buf);
    swgpu_destroy(gpu);
}

/* rule: gpu.hung-engine-never-answers-preemption */
static void hung_engine_ignores_preemption(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    struct t_dma a, b;
    mark_buffer(&a, MARK_A, 0x11);
    mark_buffer(&b, MARK_B, 0x22);
    wddm_swgpu_inject_hang();
    swgpu_submit(gpu, 0, a.buf, 0, a.len, 1, 0);
    wait_hung(gpu, 0);

    swgpu_preempt(gpu, 0, 100, 1);
    swgpu_preempt(gpu, 0, 101, 0);
    /* Give the engine every chance to answer: an idle engine answers within one wake-up. */
    for (UINT32 f = 1; f <= 10; f++)
        t_run(gpu, 1, &b, f);
    sleep_ms(20);
    struct swgpu_preemption p;
    assert_false(swgpu_take_preemption(gpu, 0, &p));
    assert_true(swgpu_engine_hung(gpu, 0));

    /* The reset drops the pending requests with the work: still no answer afterwards. */
    UINT32 aborted = 0;
    swgpu_reset_engine(gpu, 0, &aborted);
    assert_int_equal(aborted, 1);
    t_run(gpu, 0, &b, 2);
    assert_false(swgpu_take_preemption(gpu, 0, &p));
    free(a.buf);
    free(b.buf);
    swgpu_destroy(gpu);
}

/* rule: gpu.swgpu-reset-engine-abandons-executing */
static void reset_returns_the_hung_fence_drops_the_ring_and_takes_new_work(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    struct t_dma a, b, c, ok;
    mark_buffer(&a, MARK_A, 0x11);
    mark_buffer(&b, MARK_B, 0x22);
    mark_buffer(&c, MARK_C, 0x33);
    mark_buffer(&ok, 0, 0x44);
    t_run(gpu, 0, &ok, 4);

    wddm_swgpu_inject_hang();
    swgpu_submit(gpu, 0, a.buf, 0, a.len, 5, 0);
    swgpu_submit(gpu, 0, b.buf, 0, b.len, 6, 0);
    swgpu_submit(gpu, 0, c.buf, 0, c.len, 7, 0);
    wait_hung(gpu, 0);
    assert_int_equal(swgpu_last_completed_fence(gpu, 0), 4);

    UINT32 aborted = 0;
    assert_int_equal(swgpu_reset_engine(gpu, 0, &aborted), 0);
    assert_int_equal(aborted, 5);                            /* the abandoned buffer's fence */
    assert_int_equal(swgpu_last_completed_fence(gpu, 0), 5); /* the register equals it */
    swgpu_wait_idle(gpu, 0);                                 /* idle at once: ring dropped */

    /* New work runs; in-order completion proves 6 and 7 are gone, not just late. */
    t_run(gpu, 0, &ok, 8);
    assert_int_equal(swgpu_last_completed_fence(gpu, 0), 8);
    assert_int_equal(local(gpu)[MARK_A], 0);
    assert_int_equal(local(gpu)[MARK_B], 0);
    assert_int_equal(local(gpu)[MARK_C], 0);
    assert_int_equal(local(gpu)[0], 0x44);
    free(a.buf);
    free(b.buf);
    free(c.buf);
    free(ok.buf);
    swgpu_destroy(gpu);
}

/* rule: gpu.wddm-swgpu-inject-hang-next-non */
static void paging_buffers_never_take_the_hang(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    struct t_dma a, b;
    mark_buffer(&a, MARK_A, 0x11);
    mark_buffer(&b, MARK_B, 0x22);
    wddm_swgpu_inject_hang();
    /* Paging buffers go by. */
    for (UINT32 f = 1; f <= 3; f++) {
        swgpu_submit(gpu, 1, a.buf, 0, a.len, f, 1);
        swgpu_wait_fence(gpu, 1, f);
    }
    assert_int_equal(swgpu_last_completed_fence(gpu, 1), 3);
    assert_false(swgpu_engine_hung(gpu, 1));
    /* The first non-paging one takes it. */
    swgpu_submit(gpu, 1, b.buf, 0, b.len, 4, 0);
    wait_hung(gpu, 1);
    UINT32 aborted = 0;
    swgpu_reset_engine(gpu, 1, &aborted);
    assert_int_equal(aborted, 4);
    assert_int_equal(local(gpu)[MARK_B], 0);
    /* One call armed one hang: the next buffer completes. */
    t_run(gpu, 1, &b, 5);
    assert_int_equal(local(gpu)[MARK_B], 0x22);
    free(a.buf);
    free(b.buf);
    swgpu_destroy(gpu);
}

/* rule: gpu.swgpu-reset-engine-abandons-executing */
static void reset_of_an_idle_engine_returns_the_last_completed_fence(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    struct t_dma a;
    mark_buffer(&a, MARK_A, 0x11);
    t_run(gpu, 0, &a, 7);
    swgpu_wait_idle(gpu, 0);
    UINT32 aborted = 0;
    assert_int_equal(swgpu_reset_engine(gpu, 0, &aborted), 0);
    assert_int_equal(aborted, 7);
    assert_int_equal(swgpu_last_completed_fence(gpu, 0), 7);
    assert_int_equal(swgpu_reset_engine(gpu, 5, &aborted), -1); /* no engine 5 */
    t_run(gpu, 0, &a, 8);
    free(a.buf);
    swgpu_destroy(gpu);
}

/* rule: gpu.swgpu-reset-engine-abandons-executing */
static void reset_stops_a_running_buffer_at_a_command_boundary(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    struct t_dma d, ok;
    t_dma_init(&d, 8192);
    mark_buffer(&ok, 0, 0x44);
    /* 16 slow fills (64 KiB at 4 MiB/s each), the last one marks MARK_C. */
    for (UINT32 i = 0; i < 15; i++) {
        BYTE v = (BYTE)(i + 1);
        t_fill(&d, t_addr(T_SEG_LOCAL, MARK_A), 0, 0, 64u * 1024u, 1, 1, &v, 1);
    }
    BYTE last = 0x55;
    t_fill(&d, t_addr(T_SEG_LOCAL, MARK_C), 0, 0, 64u * 1024u, 1, 1, &last, 1);

    t_run(gpu, 0, &ok, 1);
    wddm_swgpu_set_bandwidth(4ull << 20);
    UINT64 p0 = swgpu_engine_progress(gpu, 0);
    swgpu_submit(gpu, 0, d.buf, 0, d.len, 2, 0);
    while (swgpu_engine_progress(gpu, 0) < p0 + 2)
        sleep_ms(1);
    UINT32 aborted = 0;
    swgpu_reset_engine(gpu, 0, &aborted);
    wddm_swgpu_set_bandwidth(0);
    assert_int_equal(aborted, 2);
    assert_int_equal(swgpu_last_completed_fence(gpu, 0), 2);
    UINT64 ran = swgpu_engine_progress(gpu, 0) - p0;
    assert_true(ran >= 2 && ran < 16);         /* stopped between commands, buffer not finished */
    assert_int_equal(local(gpu)[MARK_C], 0);   /* its last command never ran */
    t_run(gpu, 0, &ok, 3);
    free(d.buf);
    free(ok.buf);
    swgpu_destroy(gpu);
}

struct waiter {
    struct swgpu *gpu;
    UINT32 fence;
};

static void *wait_thread(void *arg)
{
    struct waiter *w = arg;
    swgpu_wait_fence(w->gpu, 0, w->fence);
    return NULL;
}

/* rule: gpu.swgpu-wait-fence-returns-when-reset */
static void waiters_do_not_hang_around_a_reset(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    struct t_dma a;
    mark_buffer(&a, MARK_A, 0x11);
    wddm_swgpu_inject_hang();
    swgpu_submit(gpu, 0, a.buf, 0, a.len, 1, 0);
    swgpu_submit(gpu, 0, a.buf, 0, a.len, 2, 0); /* dropped by the reset: never completes */
    wait_hung(gpu, 0);
    pthread_t t;
    struct waiter w = {gpu, 2};
    pthread_create(&t, NULL, wait_thread, &w);
    sleep_ms(10);
    UINT32 aborted = 0;
    swgpu_reset_engine(gpu, 0, &aborted);
    pthread_join(t, NULL); /* returns: the reset ended the wait */
    swgpu_wait_idle(gpu, 0);
    assert_int_equal(aborted, 1);
    assert_int_equal(swgpu_last_completed_fence(gpu, 0), 1);
    free(a.buf);
    swgpu_destroy(gpu);
}

/* rule: gpu.swgpu-force-completed-fence-sets-one */
static void forced_fence_sets_the_register(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    swgpu_force_completed_fence(gpu, 1, 42);
    assert_int_equal(swgpu_last_completed_fence(gpu, 1), 42);
    swgpu_wait_fence(gpu, 1, 42); /* satisfied */
    assert_int_equal(swgpu_last_completed_fence(gpu, 0), 0);
    swgpu_destroy(gpu);
}

/* rule: gpu.swgpu-wait-fence-returns-when-reset */
static void destroying_a_hung_gpu_does_not_hang(void **state)
{
    struct swgpu *gpu = t_gpu_create();
    wddm_swgpu_inject_hang();
    swgpu_submit(gpu, 0, NULL, 0, 0, 1, 0);
    wait_hung(gpu, 0);
    swgpu_destroy(gpu);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hung_buffer_never_completes_while_other_engines_work),
        cmocka_unit_test(hung_engine_ignores_preemption),
        cmocka_unit_test(reset_returns_the_hung_fence_drops_the_ring_and_takes_new_work),
        cmocka_unit_test(paging_buffers_never_take_the_hang),
        cmocka_unit_test(reset_of_an_idle_engine_returns_the_last_completed_fence),
        cmocka_unit_test(reset_stops_a_running_buffer_at_a_command_boundary),
        cmocka_unit_test(waiters_do_not_hang_around_a_reset),
        cmocka_unit_test(forced_fence_sets_the_register),
        cmocka_unit_test(destroying_a_hung_gpu_does_not_hang),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
