/* GPU waits and signals between contexts and across nodes (docs/semantics.md §8.5 rule 4, issue 4):
 * D3DKMTWaitForSynchronizationObjectFromGpu holds the context's later DMA buffers until every
 * object reached its value, while other contexts run; D3DKMTSignalSynchronizationObjectFromGpu
 * signals when the context's previous work (held work included) completed. Against the
 * reference KMD and the software GPU; order is proved by data and fences, never by time. */
#include "real_env.h"

#include <pthread.h>
#include <unistd.h>

#define BYTES 4096u

static D3DKMT_HANDLE fence_create(D3DKMT_HANDLE device, UINT flags)
{
    D3DKMT_CREATESYNCHRONIZATIONOBJECT2 cs = { .hDevice = device };
    cs.Info.Type = D3DDDI_MONITORED_FENCE;
    cs.Info.Flags.Value = flags;
    assert_int_equal(D3DKMTCreateSynchronizationObject2(&cs), STATUS_SUCCESS);
    return cs.hSyncObject;
}

static void fence_destroy(D3DKMT_HANDLE h)
{
    D3DKMT_DESTROYSYNCHRONIZATIONOBJECT ds = { .hSyncObject = h };
    assert_int_equal(D3DKMTDestroySynchronizationObject(&ds), STATUS_SUCCESS);
}

static NTSTATUS gpu_wait(D3DKMT_HANDLE ctx, D3DKMT_HANDLE f, UINT64 value)
{
    D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMGPU w = { .hContext = ctx, .ObjectCount = 1, .ObjectHandleArray = &f,
                                                     .MonitoredFenceValueArray = &value };
    return D3DKMTWaitForSynchronizationObjectFromGpu(&w);
}

static NTSTATUS gpu_signal(D3DKMT_HANDLE ctx, D3DKMT_HANDLE f, UINT64 value)
{
    D3DKMT_SIGNALSYNCHRONIZATIONOBJECTFROMGPU s = { .hContext = ctx, .ObjectCount = 1, .ObjectHandleArray = &f,
                                                    .MonitoredFenceValueArray = &value };
    return D3DKMTSignalSynchronizationObjectFromGpu(&s);
}

static NTSTATUS cpu_signal(D3DKMT_HANDLE device, D3DKMT_HANDLE f, UINT64 v)
{
    D3DKMT_SIGNALSYNCHRONIZATIONOBJECTFROMCPU s = { .hDevice = device, .ObjectCount = 1, .ObjectHandleArray = &f,
                                                    .FenceValueArray = &v };
    return D3DKMTSignalSynchronizationObjectFromCpu(&s);
}

static NTSTATUS cpu_wait(D3DKMT_HANDLE device, D3DKMT_HANDLE f, UINT64 v, UINT timeout_ms)
{
    D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMCPU w = { .hDevice = device, .ObjectCount = 1, .ObjectHandleArray = &f,
                                                     .FenceValueArray = &v };
    return wddm_wait_for_synchronization_object_from_cpu_timeout(&w, timeout_ms);
}

struct env {
    struct renv a, b;           /* contexts A and B of one device */
    D3DKMT_HANDLE src1, src2, dst;
    uint64_t sum1, sum2;
};

static struct renv other_context(struct renv *base, UINT node)
{
    struct renv r = *base;
    r.cc = (D3DKMT_CREATECONTEXT){ .hDevice = base->device, .NodeOrdinal = node };
    assert_int_equal(D3DKMTCreateContext(&r.cc), STATUS_SUCCESS);
    r.context = r.cc.hContext;
    return r;
}

static D3DKMT_HANDLE filled(struct renv *e, uint32_t seed, uint64_t *sum)
{
    D3DKMT_HANDLE h = renv_alloc(e, SWGPU_ALLOC_UPLOAD, BYTES);
    void *p;
    assert_int_equal(renv_lock(e, h, LOCK_WRITEONLY, &p), STATUS_SUCCESS);
    renv_pattern(p, BYTES, seed);
    *sum = renv_checksum(p, BYTES);
    renv_unlock(e, h);
    return h;
}

static void env_open(struct env *t, UINT node_b)
{
    renv_open(&t->a);
    t->b = other_context(&t->a, node_b);
    t->src1 = filled(&t->a, 1, &t->sum1);
    t->src2 = filled(&t->a, 2, &t->sum2);
    t->dst = renv_alloc(&t->a, SWGPU_ALLOC_READBACK, BYTES);
}

static uint64_t dst_sum(struct env *t)
{
    void *p;
    assert_int_equal(renv_lock(&t->a, t->dst, LOCK_READONLY, &p), STATUS_SUCCESS);
    uint64_t s = renv_checksum(p, BYTES);
    renv_unlock(&t->a, t->dst);
    return s;
}

/* rule: sched.d3dkmtwaitforsynchronizationobjectfromgpu (value below the target keeps it held; data checked after) */
/* rule: sched.gpu-signals-held-buffers-keep-order (the signal after the held copy comes after it: data checked) */
static void test_gpu_wait_holds_the_contexts_later_work_until_the_value_is_reached(void **state)
{
    (void)state;
    struct env t;
    env_open(&t, 0);
    D3DKMT_HANDLE f = fence_create(t.a.device, 0), done = fence_create(t.a.device, 0);
    struct wddm_counters c0 = renv_counters();
    assert_int_equal(gpu_wait(t.a.context, f, 2), STATUS_SUCCESS); /* returns at once */
    assert_int_equal(renv_copy(&t.a, t.dst, t.src1, BYTES), STATUS_SUCCESS);
    assert_int_equal(gpu_signal(t.a.context, done, 1), STATUS_SUCCESS);
    /* Held: not submitted, the signal after it not given. */
    assert_int_equal(renv_counters().dma_buffers_submitted - c0.dma_buffers_submitted, 0);
    assert_int_equal(cpu_wait(t.a.device, done, 1, 0), STATUS_TIMEOUT);
    assert_int_equal(cpu_signal(t.a.device, f, 1), STATUS_SUCCESS); /* 1 < 2: still held */
    assert_int_equal(cpu_wait(t.a.device, done, 1, 0), STATUS_TIMEOUT);
    assert_int_equal(renv_counters().dma_buffers_submitted - c0.dma_buffers_submitted, 0);
    assert_int_equal(cpu_signal(t.a.device, f, 2), STATUS_SUCCESS);
    assert_int_equal(cpu_wait(t.a.device, done, 1, WDDM_WAIT_INFINITE), STATUS_SUCCESS);
    assert_true(dst_sum(&t) == t.sum1); /* the held copy ran before the signal */
    assert_int_equal(renv_counters().dma_buffers_submitted - c0.dma_buffers_submitted, 1);
    fence_destroy(f);
    fence_destroy(done);
    renv_close(&t.a);
}

/* rule: sched.other-contexts-node-run-while-one */
static void test_other_contexts_run_while_one_is_held(void **state)
{
    (void)state;
    struct env t;
    env_open(&t, 0);
    D3DKMT_HANDLE f = fence_create(t.a.device, 0), done = fence_create(t.a.device, 0);
    D3DKMT_HANDLE dst_b = renv_alloc(&t.a, SWGPU_ALLOC_READBACK, BYTES);
    assert_int_equal(gpu_wait(t.a.context, f, 1), STATUS_SUCCESS);
    assert_int_equal(renv_copy(&t.a, t.dst, t.src1, BYTES), STATUS_SUCCESS);
    assert_int_equal(gpu_signal(t.a.context, done, 1), STATUS_SUCCESS);
    /* B on the same node is not behind A's wait. */
    assert_int_equal(renv_copy(&t.b, dst_b, t.src2, BYTES), STATUS_SUCCESS);
    void *p;
    assert_int_equal(renv_lock(&t.a, dst_b, LOCK_READONLY, &p), STATUS_SUCCESS);
    assert_true(renv_checksum(p, BYTES) == t.sum2);
    renv_unlock(&t.a, dst_b);
    assert_int_equal(cpu_wait(t.a.device, done, 1, 0), STATUS_TIMEOUT); /* A still held */
    /* B's GPU signal releases A: no deadlock between contexts of one node. */
    assert_int_equal(gpu_signal(t.b.context, f, 1), STATUS_SUCCESS);
    assert_int_equal(cpu_wait(t.a.device, done, 1, WDDM_WAIT_INFINITE), STATUS_SUCCESS);
    assert_true(dst_sum(&t) == t.sum1);
    fence_destroy(f);
    fence_destroy(done);
    renv_close(&t.a);
}

/* rule: sched.gpu-wait-signal-across-nodes-3d */
static void test_gpu_signal_and_wait_order_work_across_nodes(void **state)
{
    (void)state;
    struct env t;
    env_open(&t, 1); /* B on the copy node */
    D3DKMT_HANDLE f = fence_create(t.a.device, 0), done = fence_create(t.a.device, 0);
    D3DKMT_HANDLE mid = renv_alloc(&t.a, SWGPU_ALLOC_GPU_ONLY, BYTES);
    /* A (3D node) reads `mid` only after B (copy node) wrote it: B copies src1 -> mid, signals
     * f = 1; A waits f >= 1, copies mid -> dst, signals done. Submitted in the opposite order. */
    wddm_swgpu_set_paused(1);
    assert_int_equal(gpu_wait(t.a.context, f, 1), STATUS_SUCCESS);
    assert_int_equal(renv_copy(&t.a, t.dst, mid, BYTES), STATUS_SUCCESS);
    assert_int_equal(gpu_signal(t.a.context, done, 1), STATUS_SUCCESS);
    assert_int_equal(renv_copy(&t.b, mid, t.src1, BYTES), STATUS_SUCCESS);
    assert_int_equal(gpu_signal(t.b.context, f, 1), STATUS_SUCCESS);
    assert_int_equal(cpu_wait(t.a.device, f, 1, 0), STATUS_TIMEOUT); /* B's copy cannot complete */
    wddm_swgpu_set_paused(0);
    assert_int_equal(cpu_wait(t.a.device, done, 1, WDDM_WAIT_INFINITE), STATUS_SUCCESS);
    assert_true(dst_sum(&t) == t.sum1); /* A saw B's result */
    fence_destroy(f);
    fence_destroy(done);
    renv_close(&t.a);
}

/* rule: sched.gpu-wait-already-satisfied-holds-nothing */
static void test_gpu_wait_already_satisfied_holds_nothing(void **state)
{
    (void)state;
    struct env t;
    env_open(&t, 0);
    D3DKMT_HANDLE f = fence_create(t.a.device, 0);
    assert_int_equal(cpu_signal(t.a.device, f, 5), STATUS_SUCCESS);
    assert_int_equal(gpu_wait(t.a.context, f, 5), STATUS_SUCCESS);
    assert_int_equal(renv_copy(&t.a, t.dst, t.src2, BYTES), STATUS_SUCCESS);
    assert_true(dst_sum(&t) == t.sum2); /* the lock's wait covers it: it was queued normally */
    fence_destroy(f);
    renv_close(&t.a);
}

/* rule: sched.gpu-wait-already-satisfied-holds-nothing */
static void test_gpu_wait_refuses_bad_handles_and_nowait_fences(void **state)
{
    (void)state;
    struct env t;
    env_open(&t, 0);
    D3DKMT_HANDLE nowait = fence_create(t.a.device, 0x20 /* NoWait */);
    assert_int_equal(gpu_wait(t.a.context, nowait, 1), STATUS_ACCESS_DENIED);
    assert_int_equal(gpu_wait(t.a.device, nowait, 1), STATUS_INVALID_PARAMETER);     /* not a context */
    assert_int_equal(gpu_wait(t.a.context, t.a.context, 1), STATUS_INVALID_PARAMETER); /* not a fence */
    D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMGPU w = { .hContext = t.a.context, .ObjectCount = 0 };
    assert_int_equal(D3DKMTWaitForSynchronizationObjectFromGpu(&w), STATUS_INVALID_PARAMETER);
    assert_int_equal(D3DKMTWaitForSynchronizationObjectFromGpu(NULL), STATUS_INVALID_PARAMETER);
    /* Nothing is held after the refusals. */
    assert_int_equal(renv_copy(&t.a, t.dst, t.src1, BYTES), STATUS_SUCCESS);
    assert_true(dst_sum(&t) == t.sum1);
    fence_destroy(nowait);
    renv_close(&t.a);
}

/* rule: sched.held-dma-buffer-whose-allocation */
static void test_destroying_a_held_context_or_its_allocations_never_hangs(void **state)
{
    (void)state;
    struct env t;
    env_open(&t, 0);
    D3DKMT_HANDLE f = fence_create(t.a.device, 0), done = fence_create(t.a.device, 0);
    /* B holds a copy into a scratch allocation that is destroyed before the wait is satisfied:
     * the copy is dropped when released, the signal after it still comes. */
    D3DKMT_HANDLE scratch = renv_alloc(&t.a, SWGPU_ALLOC_READBACK, BYTES);
    assert_int_equal(gpu_wait(t.b.context, f, 1), STATUS_SUCCESS);
    assert_int_equal(renv_copy(&t.b, scratch, t.src1, BYTES), STATUS_SUCCESS);
    assert_int_equal(gpu_signal(t.b.context, done, 1), STATUS_SUCCESS);
    renv_free(&t.a, scratch);
    assert_int_equal(cpu_signal(t.a.device, f, 1), STATUS_SUCCESS);
    assert_int_equal(cpu_wait(t.a.device, done, 1, WDDM_WAIT_INFINITE), STATUS_SUCCESS);
    /* A held forever: destroying the context drops its held work and returns. */
    assert_int_equal(gpu_wait(t.a.context, f, 100), STATUS_SUCCESS);
    assert_int_equal(renv_copy(&t.a, t.dst, t.src1, BYTES), STATUS_SUCCESS);
    D3DKMT_DESTROYCONTEXT dc = { .hContext = t.a.context };
    assert_int_equal(D3DKMTDestroyContext(&dc), STATUS_SUCCESS);
    fence_destroy(f);
    fence_destroy(done);
    renv_close(&t.a); /* the device goes with B still holding nothing */
}

/* Two threads, two contexts on two nodes, each waiting on the GPU for the other's signal:
 * 50 rounds of ping-pong end with both fences at their last value (the TSan test). */
#define ROUNDS 50u
struct player {
    struct renv *r;
    D3DKMT_HANDLE dst, src, mine, theirs;
    UINT64 first_wait;
};

static void *player_main(void *arg)
{
    struct player *p = arg;
    for (UINT64 i = 0; i < ROUNDS; i++) {
        if (gpu_wait(p->r->context, p->theirs, p->first_wait + i) != STATUS_SUCCESS ||
            renv_copy(p->r, p->dst, p->src, 256) != STATUS_SUCCESS ||
            gpu_signal(p->r->context, p->mine, i + 1) != STATUS_SUCCESS)
            return (void *)1;
    }
    return NULL;
}

/* rule: sched.gpu-wait-signal-across-nodes-3d (2 threads × 50 rounds, TSan) */
static void test_gpu_ping_pong_between_threads_and_nodes_completes(void **state)
{
    (void)state;
    struct env t;
    env_open(&t, 1);
    D3DKMT_HANDLE fa = fence_create(t.a.device, 0), fb = fence_create(t.a.device, 0);
    D3DKMT_HANDLE mid = renv_alloc(&t.a, SWGPU_ALLOC_GPU_ONLY, BYTES);
    struct player pa = { .r = &t.a, .dst = t.dst, .src = mid, .mine = fa, .theirs = fb, .first_wait = 0 };
    struct player pb = { .r = &t.b, .dst = mid, .src = t.src1, .mine = fb, .theirs = fa, .first_wait = 1 };
    /* A's round i waits for B's signal i (0 at once); B's round i waits for A's signal i + 1. */
    pthread_t ta, tb;
    assert_int_equal(pthread_create(&ta, NULL, player_main, &pa), 0);
    assert_int_equal(pthread_create(&tb, NULL, player_main, &pb), 0);
    void *ra, *rb;
    assert_int_equal(pthread_join(ta, &ra), 0);
    assert_int_equal(pthread_join(tb, &rb), 0);
    assert_null(ra);
    assert_null(rb);
    assert_int_equal(cpu_wait(t.a.device, fa, ROUNDS, WDDM_WAIT_INFINITE), STATUS_SUCCESS);
    assert_int_equal(cpu_wait(t.a.device, fb, ROUNDS, WDDM_WAIT_INFINITE), STATUS_SUCCESS);
    /* A's last copy read `mid` after B's copy of src1 into it: dst starts with src1's bytes. */
    static uint8_t want[BYTES];
    renv_pattern(want, BYTES, 1);
    void *p;
    assert_int_equal(renv_lock(&t.a, t.dst, LOCK_READONLY, &p), STATUS_SUCCESS);
    assert_memory_equal(p, want, 256);
    renv_unlock(&t.a, t.dst);
    fence_destroy(fa);
    fence_destroy(fb);
    renv_close(&t.a);
}

static void *unpause_later(void *arg)
{
    (void)arg;
    usleep(20000); /* the lock below has (almost certainly) started waiting: not asserted */
    wddm_swgpu_set_paused(0);
    return NULL;
}

/* A lock of an allocation named by a DMA buffer held behind a GPU wait waits for that buffer
 * (it has no ticket yet, and takes the allocation when released): DonotWait says busy, a
 * waiting lock returns the buffer's result. The GPU is paused while the lock starts, so a lock
 * that did not wait could only read the old content. */
/* rule: vidmm.lock-allocation-named-dma-buffer-held (GPU paused while the lock starts: a lock that did not wait could only read the old content) */
static void test_lock_waits_for_a_dma_buffer_held_behind_a_gpu_wait(void **state)
{
    (void)state;
    struct env t;
    env_open(&t, 0);
    D3DKMT_HANDLE f = fence_create(t.a.device, 0);
    void *p;
    assert_int_equal(renv_copy(&t.a, t.dst, t.src2, BYTES), STATUS_SUCCESS); /* dst = src2, resident */
    assert_int_equal(renv_lock(&t.a, t.dst, LOCK_READONLY, &p), STATUS_SUCCESS);
    renv_unlock(&t.a, t.dst);
    wddm_swgpu_set_paused(1);
    assert_int_equal(gpu_wait(t.a.context, f, 1), STATUS_SUCCESS);
    assert_int_equal(renv_copy(&t.a, t.dst, t.src1, BYTES), STATUS_SUCCESS); /* held: dst = src1 */
    assert_int_equal(renv_copy(&t.b, t.src2, t.src2, BYTES), STATUS_SUCCESS); /* B's work, paused */
    assert_int_equal(gpu_signal(t.b.context, f, 1), STATUS_SUCCESS);            /* after it */
    assert_int_equal(renv_lock(&t.a, t.dst, LOCK_READONLY | LOCK_DONOTWAIT, &p), STATUS_GRAPHICS_ALLOCATION_BUSY);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, unpause_later, NULL), 0);
    assert_int_equal(renv_lock(&t.a, t.dst, LOCK_READONLY, &p), STATUS_SUCCESS);
    uint64_t got = renv_checksum(p, BYTES);
    renv_unlock(&t.a, t.dst);
    pthread_join(th, NULL);
    assert_true(got == t.sum1);
    fence_destroy(f);
    renv_close(&t.a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpu_wait_holds_the_contexts_later_work_until_the_value_is_reached),
        cmocka_unit_test(test_other_contexts_run_while_one_is_held),
        cmocka_unit_test(test_lock_waits_for_a_dma_buffer_held_behind_a_gpu_wait),
        cmocka_unit_test(test_gpu_signal_and_wait_order_work_across_nodes),
        cmocka_unit_test(test_gpu_wait_already_satisfied_holds_nothing),
        cmocka_unit_test(test_gpu_wait_refuses_bad_handles_and_nowait_fences),
        cmocka_unit_test(test_destroying_a_held_context_or_its_allocations_never_hangs),
        cmocka_unit_test(test_gpu_ping_pong_between_threads_and_nodes_completes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
