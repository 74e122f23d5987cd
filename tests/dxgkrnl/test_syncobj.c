/* Monitored fences (docs/semantics.md §8.5, issue 4): D3DKMTCreateSynchronizationObject2,
 * D3DKMTDestroySynchronizationObject, D3DKMTSignalSynchronizationObjectFromCpu,
 * D3DKMTWaitForSynchronizationObjectFromCpu (and the libwddm timeout variant),
 * D3DKMTSignalSynchronizationObjectFromGpu. Against the reference KMD and the software GPU.
 * No timed assertion: a wait with timeout 0 only looks; blocked waiters are joined. */
/* rule: sched.cpu-wait-time-limit (every `STATUS_TIMEOUT` assertion) */
#include "real_env.h"

#include <pthread.h>
#include <stdio.h>

static D3DKMT_HANDLE fence_create(D3DKMT_HANDLE device, UINT64 initial, const volatile UINT64 **cpu)
{
    D3DKMT_CREATESYNCHRONIZATIONOBJECT2 cs = { .hDevice = device };
    cs.Info.Type = D3DDDI_MONITORED_FENCE;
    cs.Info.MonitoredFence.InitialFenceValue = initial;
    assert_int_equal(D3DKMTCreateSynchronizationObject2(&cs), STATUS_SUCCESS);
    assert_non_null(cs.Info.MonitoredFence.FenceValueCPUVirtualAddress);
    assert_int_equal((uintptr_t)cs.Info.MonitoredFence.FenceValueCPUVirtualAddress % 8, 0);
    assert_int_equal(cs.Info.MonitoredFence.FenceValueGPUVirtualAddress, 0); /* the GPU signals it in software */
    if (cpu)
        *cpu = cs.Info.MonitoredFence.FenceValueCPUVirtualAddress;
    return cs.hSyncObject;
}

static void fence_destroy(D3DKMT_HANDLE h)
{
    D3DKMT_DESTROYSYNCHRONIZATIONOBJECT ds = { .hSyncObject = h };
    assert_int_equal(D3DKMTDestroySynchronizationObject(&ds), STATUS_SUCCESS);
}

static NTSTATUS cpu_signal(D3DKMT_HANDLE device, UINT n, const D3DKMT_HANDLE *h, const UINT64 *v)
{
    D3DKMT_SIGNALSYNCHRONIZATIONOBJECTFROMCPU s = { .hDevice = device, .ObjectCount = n, .ObjectHandleArray = h,
                                                    .FenceValueArray = v };
    return D3DKMTSignalSynchronizationObjectFromCpu(&s);
}

static NTSTATUS cpu_wait(D3DKMT_HANDLE device, UINT n, const D3DKMT_HANDLE *h, const UINT64 *v, bool any,
                         UINT timeout_ms)
{
    D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMCPU w = { .hDevice = device, .ObjectCount = n, .ObjectHandleArray = h,
                                                     .FenceValueArray = v };
    w.Flags.WaitAny = any;
    if (timeout_ms == WDDM_WAIT_INFINITE)
        return D3DKMTWaitForSynchronizationObjectFromCpu(&w);
    return wddm_wait_for_synchronization_object_from_cpu_timeout(&w, timeout_ms);
}

/* The protection of the page holding p, from /proc/self/maps ("r--p", "rw-p"...). */
static void page_perms(const volatile void *p, char perms[5])
{
    FILE *f = fopen("/proc/self/maps", "r");
    assert_non_null(f);
    char line[512];
    strcpy(perms, "????");
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        char pr[5];
        if (sscanf(line, "%lx-%lx %4s", &lo, &hi, pr) == 3 && (uintptr_t)p >= lo && (uintptr_t)p < hi) {
            memcpy(perms, pr, 5);
            break;
        }
    }
    fclose(f);
}

/* rule: sched.d3dkmtcreatesynchronizationobject2-64 */
/* rule: sched.monitored-fence-gpu-address-zero (created: fence_create) */
static void test_monitored_fence_starts_at_its_initial_value_mapped_read_only(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    const volatile UINT64 *v;
    D3DKMT_HANDLE f = fence_create(e.device, 0x100000000ull + 7, &v);
    assert_true(*v == 0x100000000ull + 7); /* 64-bit */
    char perms[5];
    page_perms(v, perms);
    assert_int_equal(perms[0], 'r');
    assert_int_equal(perms[1], '-'); /* the application cannot write it (§8.5 rule 1) */
    fence_destroy(f);
    renv_close(&e);
}

/* rule: sched.d3dkmtcreatesynchronizationobject2-64 */
/* rule: sched.cpu-signal-writes-value-no-flags */
static void test_cpu_signal_writes_the_value_the_cpu_mapping_shows(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    const volatile UINT64 *v;
    D3DKMT_HANDLE f = fence_create(e.device, 0, &v);
    UINT64 x = 42;
    assert_int_equal(cpu_signal(e.device, 1, &f, &x), STATUS_SUCCESS);
    assert_true(*v == 42);
    /* As ID3D12Fence::Signal: the value as given, a lower one too (no rewind check). */
    x = 7;
    assert_int_equal(cpu_signal(e.device, 1, &f, &x), STATUS_SUCCESS);
    assert_true(*v == 7);
    /* Flags are for GPU signals: a CPU signal with any set is refused, the value unchanged. */
    D3DKMT_SIGNALSYNCHRONIZATIONOBJECTFROMCPU s = { .hDevice = e.device, .ObjectCount = 1, .ObjectHandleArray = &f,
                                                    .FenceValueArray = &x };
    x = 9;
    s.Flags.AllowFenceRewind = 1;
    RENV_REFUSED(D3DKMTSignalSynchronizationObjectFromCpu(&s), STATUS_INVALID_PARAMETER, "Flags");
    s.Flags.Value = 0;
    s.Flags.SignalAtSubmission = 1;
    assert_int_equal(D3DKMTSignalSynchronizationObjectFromCpu(&s), STATUS_INVALID_PARAMETER);
    assert_true(*v == 7);
    fence_destroy(f);
    renv_close(&e);
}

struct waiter {
    D3DKMT_HANDLE device;
    UINT n;
    D3DKMT_HANDLE h[4];
    UINT64 v[4];
    bool any;
    NTSTATUS st;
};

static void *waiter_main(void *arg)
{
    struct waiter *w = arg;
    w->st = cpu_wait(w->device, w->n, w->h, w->v, w->any, WDDM_WAIT_INFINITE);
    return NULL;
}

/* rule: sched.cpu-wait-blocking-released-when-value */
static void test_cpu_wait_blocks_until_a_signal_reaches_its_value(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    D3DKMT_HANDLE f = fence_create(e.device, 0, NULL);
    struct waiter w = { .device = e.device, .n = 1, .h = { f }, .v = { 10 }, .st = -1 };
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, waiter_main, &w), 0);
    UINT64 x = 9;
    assert_int_equal(cpu_signal(e.device, 1, &f, &x), STATUS_SUCCESS);
    assert_int_equal(cpu_wait(e.device, 1, &f, &w.v[0], false, 0), STATUS_TIMEOUT); /* 9 < 10 */
    x = 11; /* >= the target releases it */
    assert_int_equal(cpu_signal(e.device, 1, &f, &x), STATUS_SUCCESS);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_int_equal(w.st, STATUS_SUCCESS);
    fence_destroy(f);
    renv_close(&e);
}

/* rule: sched.cpu-wait-blocking-released-when-value */
static void test_cpu_wait_all_needs_every_object_and_wait_any_one(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    D3DKMT_HANDLE f[2] = { fence_create(e.device, 0, NULL), fence_create(e.device, 0, NULL) };
    UINT64 target[2] = { 5, 5 }, five = 5;
    assert_int_equal(cpu_wait(e.device, 2, f, target, false, 0), STATUS_TIMEOUT);
    assert_int_equal(cpu_wait(e.device, 2, f, target, true, 0), STATUS_TIMEOUT);
    assert_int_equal(cpu_signal(e.device, 1, &f[1], &five), STATUS_SUCCESS);
    assert_int_equal(cpu_wait(e.device, 2, f, target, false, 0), STATUS_TIMEOUT);
    assert_int_equal(cpu_wait(e.device, 2, f, target, true, 0), STATUS_SUCCESS);
    /* A blocked WaitAll is released only by the last object. */
    struct waiter w = { .device = e.device, .n = 2, .h = { f[0], f[1] }, .v = { 5, 5 }, .st = -1 };
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, waiter_main, &w), 0);
    assert_int_equal(cpu_signal(e.device, 1, &f[0], &five), STATUS_SUCCESS);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_int_equal(w.st, STATUS_SUCCESS);
    fence_destroy(f[0]);
    fence_destroy(f[1]);
    renv_close(&e);
}

/* rule: sched.cpu-wait-blocking-released-when-value */
static void test_wait_for_a_value_already_reached_returns_at_once(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    D3DKMT_HANDLE f = fence_create(e.device, 20, NULL);
    UINT64 t = 15;
    assert_int_equal(cpu_wait(e.device, 1, &f, &t, false, WDDM_WAIT_INFINITE), STATUS_SUCCESS);
    t = 20;
    assert_int_equal(cpu_wait(e.device, 1, &f, &t, false, 0), STATUS_SUCCESS);
    fence_destroy(f);
    renv_close(&e);
}

/* rule: sched.typed-generation-checked-handles-wrong */
/* rule: sched.cpu-wait-hasyncevent-returns-once-sets */
/* rule: sched.signalbykmd-broadcast-refused-crossadapter-shared (CrossAdapter without Shared refused) */
static void test_bad_handles_and_arguments_are_refused(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    D3DKMT_CREATEDEVICE cd = { .hAdapter = e.adapter };
    assert_int_equal(D3DKMTCreateDevice(&cd), STATUS_SUCCESS);
    D3DKMT_HANDLE f = fence_create(e.device, 0, NULL);
    D3DKMT_HANDLE other = fence_create(cd.hDevice, 0, NULL);
    UINT64 v[D3DDDI_MAX_OBJECT_WAITED_ON + 1] = { 0 };
    D3DKMT_HANDLE hs[D3DDDI_MAX_OBJECT_WAITED_ON + 1];
    for (UINT i = 0; i <= D3DDDI_MAX_OBJECT_WAITED_ON; i++)
        hs[i] = f;
    /* Wrong type (a context handle), another device's fence, forged, counts, NULL arrays. */
    assert_int_equal(cpu_signal(e.device, 1, &e.context, v), STATUS_INVALID_PARAMETER);
    assert_int_equal(cpu_wait(e.device, 1, &e.context, v, false, 0), STATUS_INVALID_PARAMETER);
    assert_int_equal(cpu_signal(e.device, 1, &other, v), STATUS_INVALID_PARAMETER);
    D3DKMT_HANDLE forged = f ^ 0x00100000u;
    assert_int_equal(cpu_wait(e.device, 1, &forged, v, false, 0), STATUS_INVALID_PARAMETER);
    assert_int_equal(cpu_wait(e.device, 0, hs, v, false, 0), STATUS_INVALID_PARAMETER);
    assert_int_equal(cpu_wait(e.device, D3DDDI_MAX_OBJECT_WAITED_ON + 1, hs, v, false, 0), STATUS_INVALID_PARAMETER);
    assert_int_equal(cpu_wait(e.device, D3DDDI_MAX_OBJECT_WAITED_ON, hs, v, false, 0), STATUS_SUCCESS);
    assert_int_equal(cpu_signal(e.device, 1, hs, NULL), STATUS_INVALID_PARAMETER);
    assert_int_equal(cpu_signal(e.context, 1, &f, v), STATUS_INVALID_PARAMETER); /* not a device */
    assert_int_equal(D3DKMTSignalSynchronizationObjectFromCpu(NULL), STATUS_INVALID_PARAMETER);
    assert_int_equal(D3DKMTWaitForSynchronizationObjectFromCpu(NULL), STATUS_INVALID_PARAMETER);
    D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMCPU w = { .hDevice = e.device, .ObjectCount = 1, .ObjectHandleArray = &f,
                                                     .FenceValueArray = v, .hAsyncEvent = (HANDLE)1 };
    assert_int_equal(D3DKMTWaitForSynchronizationObjectFromCpu(&w), STATUS_INVALID_HANDLE); /* not an event */
    /* Creation: NoSignal with NoWait; cross-adapter not supported (the other types and sharing:
     * dxgkrnl.test_syncobj_types). */
    D3DKMT_CREATESYNCHRONIZATIONOBJECT2 cs = { .hDevice = e.device };
    cs.Info.Type = D3DDDI_MONITORED_FENCE;
    cs.Info.Flags.NoSignal = 1;
    cs.Info.Flags.NoWait = 1;
    assert_int_equal(D3DKMTCreateSynchronizationObject2(&cs), STATUS_INVALID_PARAMETER);
    cs.Info.Flags.Value = 0x4; /* CrossAdapter */
    assert_int_equal(D3DKMTCreateSynchronizationObject2(&cs), STATUS_INVALID_PARAMETER);
    cs.Info.Flags.Value = 0;
    cs.hDevice = e.context;
    assert_int_equal(D3DKMTCreateSynchronizationObject2(&cs), STATUS_INVALID_PARAMETER);
    /* Destroyed: stale handle; destroying twice. */
    fence_destroy(other);
    D3DKMT_DESTROYSYNCHRONIZATIONOBJECT ds = { .hSyncObject = other };
    assert_int_equal(D3DKMTDestroySynchronizationObject(&ds), STATUS_INVALID_PARAMETER);
    assert_int_equal(cpu_signal(cd.hDevice, 1, &other, v), STATUS_INVALID_PARAMETER);
    ds.hSyncObject = e.device; /* wrong type */
    assert_int_equal(D3DKMTDestroySynchronizationObject(&ds), STATUS_INVALID_PARAMETER);
    /* Nothing was damaged: the good fence still works. */
    v[0] = 3;
    assert_int_equal(cpu_signal(e.device, 1, &f, v), STATUS_SUCCESS);
    assert_int_equal(cpu_wait(e.device, 1, &f, v, false, 0), STATUS_SUCCESS);
    fence_destroy(f);
    D3DKMT_DESTROYDEVICE dd = { .hDevice = cd.hDevice };
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_SUCCESS);
    renv_close(&e);
}

/* rule: sched.destroying-fence-releases-blocked-cpu */
static void test_destroying_a_fence_releases_its_blocked_waiters_with_an_error(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    D3DKMT_HANDLE f = fence_create(e.device, 0, NULL);
    struct waiter w = { .device = e.device, .n = 1, .h = { f }, .v = { 1 }, .st = -1 };
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, waiter_main, &w), 0);
    fence_destroy(f);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_int_equal(w.st, STATUS_INVALID_PARAMETER); /* never hangs */
    renv_close(&e);
}

/* The kernel's device teardown hook (sched/syncobj.c; D3DKMTDestroyDevice calls it). */
void dxgk_syncobj_destroy_device(D3DKMT_HANDLE device);

/* rule: sched.device-teardown-destroys-device-fences (the hook itself) */
static void test_device_teardown_destroys_its_fences_and_releases_waiters(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    D3DKMT_CREATEDEVICE cd = { .hAdapter = e.adapter };
    assert_int_equal(D3DKMTCreateDevice(&cd), STATUS_SUCCESS);
    D3DKMT_HANDLE f = fence_create(e.device, 0, NULL), other = fence_create(cd.hDevice, 0, NULL);
    struct waiter w = { .device = e.device, .n = 1, .h = { f }, .v = { 1 }, .st = -1 };
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, waiter_main, &w), 0);
    dxgk_syncobj_destroy_device(e.device);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_int_equal(w.st, STATUS_INVALID_PARAMETER);
    UINT64 one = 1;
    assert_int_equal(cpu_signal(e.device, 1, &f, &one), STATUS_INVALID_PARAMETER); /* gone */
    assert_int_equal(cpu_signal(cd.hDevice, 1, &other, &one), STATUS_SUCCESS);    /* untouched */
    fence_destroy(other);
    D3DKMT_DESTROYDEVICE dd = { .hDevice = cd.hDevice };
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_SUCCESS);
    renv_close(&e);
}

#define WAITERS 8
/* rule: sched.cpu-wait-blocking-released-when-value (8 threads, TSan) */
static void test_many_waiters_are_each_released_at_their_value(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    D3DKMT_HANDLE f = fence_create(e.device, 0, NULL);
    struct waiter w[WAITERS];
    pthread_t t[WAITERS];
    for (int i = 0; i < WAITERS; i++) {
        w[i] = (struct waiter){ .device = e.device, .n = 1, .h = { f }, .v = { (UINT64)(i + 1) * 100 }, .st = -1 };
        assert_int_equal(pthread_create(&t[i], NULL, waiter_main, &w[i]), 0);
    }
    for (UINT64 x = 1; x <= WAITERS * 100; x++)
        assert_int_equal(cpu_signal(e.device, 1, &f, &x), STATUS_SUCCESS);
    for (int i = 0; i < WAITERS; i++) {
        assert_int_equal(pthread_join(t[i], NULL), 0);
        assert_int_equal(w[i].st, STATUS_SUCCESS);
    }
    fence_destroy(f);
    renv_close(&e);
}

/* ---- GPU signal ---- */

static NTSTATUS gpu_signal(D3DKMT_HANDLE ctx, D3DKMT_HANDLE f, UINT64 value)
{
    D3DKMT_SIGNALSYNCHRONIZATIONOBJECTFROMGPU s = { .hContext = ctx, .ObjectCount = 1, .ObjectHandleArray = &f,
                                                    .MonitoredFenceValueArray = &value };
    return D3DKMTSignalSynchronizationObjectFromGpu(&s);
}

/* rule: sched.d3dkmtsignalsynchronizationobjectfromgpu (GPU paused: not signalled; resumed: signalled, copy checked) */
static void test_gpu_signal_happens_when_the_contexts_previous_work_completes(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    const volatile UINT64 *v;
    D3DKMT_HANDLE f = fence_create(e.device, 0, &v);
    D3DKMT_HANDLE src = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, 4096);
    D3DKMT_HANDLE dst = renv_alloc(&e, SWGPU_ALLOC_READBACK, 4096);
    void *p;
    assert_int_equal(renv_lock(&e, src, LOCK_WRITEONLY, &p), STATUS_SUCCESS);
    renv_pattern(p, 4096, 77);
    uint64_t sum = renv_checksum(p, 4096);
    renv_unlock(&e, src);
    wddm_swgpu_set_paused(1); /* the copy cannot complete until resumed */
    assert_int_equal(renv_copy(&e, dst, src, 4096), STATUS_SUCCESS);
    assert_int_equal(gpu_signal(e.context, f, 1), STATUS_SUCCESS); /* returns at once */
    UINT64 one = 1;
    assert_int_equal(cpu_wait(e.device, 1, &f, &one, false, 0), STATUS_TIMEOUT);
    assert_true(*v == 0);
    wddm_swgpu_set_paused(0);
    assert_int_equal(cpu_wait(e.device, 1, &f, &one, false, WDDM_WAIT_INFINITE), STATUS_SUCCESS);
    assert_true(*v == 1);
    /* The copy before the signal is complete: its data is there without waiting. */
    assert_int_equal(renv_lock(&e, dst, LOCK_READONLY | LOCK_DONOTWAIT, &p), STATUS_SUCCESS);
    assert_true(renv_checksum(p, 4096) == sum);
    renv_unlock(&e, dst);
    fence_destroy(f);
    renv_close(&e);
}

/* Two GPU signals of one context behind the same work retire in one DPC: they are applied in
 * the order they were issued, so the fence ends at the later value (§8.5 rule 4: a GPU signal
 * writes its value when the work before it completed). */
/* rule: sched.gpu-signals-one-context-retire-same */
static void test_gpu_signals_retiring_together_apply_in_issue_order(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    const volatile UINT64 *v;
    D3DKMT_HANDLE f = fence_create(e.device, 0, &v);
    D3DKMT_HANDLE src = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, 4096);
    D3DKMT_HANDLE dst = renv_alloc(&e, SWGPU_ALLOC_READBACK, 4096);
    assert_int_equal(renv_copy(&e, dst, src, 4096), STATUS_SUCCESS); /* resident, paging done */
    UINT64 one = 1;
    assert_int_equal(gpu_signal(e.context, f, 1), STATUS_SUCCESS);
    assert_int_equal(cpu_wait(e.device, 1, &f, &one, false, WDDM_WAIT_INFINITE), STATUS_SUCCESS);
    wddm_swgpu_set_paused(1);
    assert_int_equal(renv_copy(&e, dst, src, 4096), STATUS_SUCCESS);
    for (UINT64 x = 2; x <= 5; x++)
        assert_int_equal(gpu_signal(e.context, f, x), STATUS_SUCCESS); /* all behind the copy */
    wddm_swgpu_set_paused(0);
    UINT64 five = 5;
    assert_int_equal(cpu_wait(e.device, 1, &f, &five, false, 10000), STATUS_SUCCESS);
    /* Drain the node: nothing later may write an older value. */
    void *p;
    assert_int_equal(renv_lock(&e, dst, LOCK_READONLY, &p), STATUS_SUCCESS);
    renv_unlock(&e, dst);
    assert_true(*v == 5);
    fence_destroy(f);
    renv_close(&e);
}

/* rule: sched.d3dkmtsignalsynchronizationobjectfromgpu */
static void test_gpu_signal_of_an_idle_context_is_immediate(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    const volatile UINT64 *v;
    D3DKMT_HANDLE f = fence_create(e.device, 0, &v);
    assert_int_equal(gpu_signal(e.context, f, 3), STATUS_SUCCESS);
    assert_true(*v == 3);
    fence_destroy(f);
    renv_close(&e);
}

/* rule: sched.gpu-signal-nosignal-fence-status-access */
static void test_gpu_signal_of_a_nosignal_fence_is_denied(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    D3DKMT_CREATESYNCHRONIZATIONOBJECT2 cs = { .hDevice = e.device };
    cs.Info.Type = D3DDDI_MONITORED_FENCE;
    cs.Info.Flags.NoSignal = 1;
    assert_int_equal(D3DKMTCreateSynchronizationObject2(&cs), STATUS_SUCCESS);
    assert_int_equal(gpu_signal(e.context, cs.hSyncObject, 1), STATUS_ACCESS_DENIED);
    assert_int_equal(gpu_signal(e.device, cs.hSyncObject, 1), STATUS_INVALID_PARAMETER); /* not a context */
    assert_int_equal(gpu_signal(e.context, e.context, 1), STATUS_INVALID_PARAMETER);     /* not a fence */
    fence_destroy(cs.hSyncObject);
    renv_close(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_monitored_fence_starts_at_its_initial_value_mapped_read_only),
        cmocka_unit_test(test_cpu_signal_writes_the_value_the_cpu_mapping_shows),
        cmocka_unit_test(test_cpu_wait_blocks_until_a_signal_reaches_its_value),
        cmocka_unit_test(test_cpu_wait_all_needs_every_object_and_wait_any_one),
        cmocka_unit_test(test_wait_for_a_value_already_reached_returns_at_once),
        cmocka_unit_test(test_bad_handles_and_arguments_are_refused),
        cmocka_unit_test(test_destroying_a_fence_releases_its_blocked_waiters_with_an_error),
        cmocka_unit_test(test_many_waiters_are_each_released_at_their_value),
        cmocka_unit_test(test_device_teardown_destroys_its_fences_and_releases_waiters),
        cmocka_unit_test(test_gpu_signal_happens_when_the_contexts_previous_work_completes),
        cmocka_unit_test(test_gpu_signals_retiring_together_apply_in_issue_order),
        cmocka_unit_test(test_gpu_signal_of_an_idle_context_is_immediate),
        cmocka_unit_test(test_gpu_signal_of_a_nosignal_fence_is_denied),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
