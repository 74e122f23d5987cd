/* The TDR limits (issue 20 item 7; WDK "TDR registry keys": TdrLimitCount, TdrLimitTime): more
 * than WDDM_TDR_LIMIT_COUNT adapter timeouts within WDDM_TDR_LIMIT_TIME_S and the adapter is
 * stopped instead of recovered (Windows bug-checks 0x116 VIDEO_TDR_FAILURE): every device lost
 * (the guilty HUNG, the others STOPPED), waiters released, no new device or context. Engine
 * timeouts do not count ("Timeout detection and recovery": they "don't contribute to the GPU hang
 * count").
 *
 * Hangs come from wddm_swgpu_inject_hang with WDDM_TDR_DELAY_MS=100; a caps file without
 * SupportPerEngineTDR makes every timeout an adapter timeout. Nothing measures time: the tests
 * wait for outcomes, the window is made to pass with wddm_test_tdr_clock_advance (never by
 * sleeping), and "within the window" means within WDDM_TDR_LIMIT_TIME_S=3600 s (or the default
 * 60 s, once), which a few 100 ms hangs never reach. */
#include "sched_cmds.h"

#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#define NO_ENGINE_RESET "DXGK_DRIVERCAPS.SupportPerEngineTDR = 0\n"

static UINT64 actions(const struct wddm_counters *c)
{
    return c->engine_resets + c->adapter_resets + c->adapter_stops;
}

/* The watchdog finishes on its own thread after the waiters it released woke: wait (no time
 * limit asserted) until the counters show its action. */
static struct wddm_counters wait_acted(const struct wddm_counters *before)
{
    for (;;) {
        struct wddm_counters c = renv_counters();
        if (actions(&c) > actions(before))
            return c;
        usleep(1000);
    }
}

/* The process's one adapter (the caller closes the handle). */
static D3DKMT_HANDLE open_adapter(void)
{
    D3DKMT_ADAPTERINFO info[4];
    D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 4, .pAdapters = info };
    assert_int_equal(D3DKMTEnumAdapters2(&en), STATUS_SUCCESS);
    assert_int_equal(en.NumAdapters, 1);
    return info[0].hAdapter;
}

static void close_adapter(D3DKMT_HANDLE adapter)
{
    D3DKMT_CLOSEADAPTER ca = { .hAdapter = adapter };
    assert_int_equal(D3DKMTCloseAdapter(&ca), STATUS_SUCCESS);
}

static void destroy_device(D3DKMT_HANDLE device)
{
    D3DKMT_DESTROYDEVICE dd = { .hDevice = device };
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_SUCCESS);
}

/* A new device on `adapter` whose copy hangs its engine: the lock waiting for the copy returns
 * STATUS_DEVICE_REMOVED once the watchdog acted and the device is HUNG (recovered or stopped
 * alike). Destroys the device; returns the counters after the watchdog's action. */
static struct wddm_counters hang_one(D3DKMT_HANDLE adapter)
{
    struct renv e;
    renv_open_on(&e, adapter);
    D3DKMT_HANDLE src = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, 4096), dst = renv_alloc(&e, SWGPU_ALLOC_READBACK, 4096);
    struct wddm_counters c0 = renv_counters();
    wddm_swgpu_inject_hang();
    assert_int_equal(renv_copy(&e, dst, src, 4096), STATUS_SUCCESS);
    void *p = NULL;
    assert_int_equal(renv_lock(&e, dst, LOCK_READONLY, &p), STATUS_DEVICE_REMOVED);
    struct wddm_counters c1 = wait_acted(&c0);
    assert_int_equal(renv_exec_state(e.device), D3DKMT_DEVICEEXECUTION_HUNG);
    destroy_device(e.device);
    return c1;
}

/* One hang that must be recovered with an adapter reset, the adapter still taking devices. */
static void hang_recovered(D3DKMT_HANDLE adapter)
{
    struct wddm_counters c0 = renv_counters();
    struct wddm_counters c1 = hang_one(adapter);
    assert_int_equal(c1.adapter_resets - c0.adapter_resets, 1);
    assert_int_equal(c1.adapter_stops, c0.adapter_stops);
}

/* A device on the adapter copies and reads back right: the adapter works. */
static void adapter_works(D3DKMT_HANDLE adapter)
{
    struct renv e;
    renv_open_on(&e, adapter);
    D3DKMT_HANDLE src = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, 4096), dst = renv_alloc(&e, SWGPU_ALLOC_READBACK, 4096);
    renv_write(&e, src, 4096, 7);
    assert_int_equal(renv_copy(&e, dst, src, 4096), STATUS_SUCCESS);
    assert_int_equal(renv_read_sum(&e, dst, 0, 4096), renv_read_sum(&e, src, 0, 4096));
    assert_int_equal(renv_exec_state(e.device), D3DKMT_DEVICEEXECUTION_ACTIVE);
    destroy_device(e.device);
}

static D3DKMT_HANDLE monitored_fence(D3DKMT_HANDLE device, const volatile UINT64 **value)
{
    D3DKMT_CREATESYNCHRONIZATIONOBJECT2 cs = { .hDevice = device };
    cs.Info.Type = D3DDDI_MONITORED_FENCE;
    cs.Info.MonitoredFence.InitialFenceValue = 5;
    assert_int_equal(D3DKMTCreateSynchronizationObject2(&cs), STATUS_SUCCESS);
    *value = cs.Info.MonitoredFence.FenceValueCPUVirtualAddress;
    return cs.hSyncObject;
}

struct cpu_wait {
    D3DKMT_HANDLE device, fence;
    UINT64 value;
    NTSTATUS status;
};

static void *cpu_wait_main(void *arg)
{
    struct cpu_wait *w = arg;
    D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMCPU wait = { .hDevice = w->device, .ObjectCount = 1,
                                                        .ObjectHandleArray = &w->fence,
                                                        .FenceValueArray = &w->value };
    w->status = D3DKMTWaitForSynchronizationObjectFromCpu(&wait);
    return NULL;
}

/* rule: sched.tdr-limits-wddm-tdr-limit-count (count 2: two recovered, the third stops; mutation-checked: never stopping fails it) */
/* rule: sched.stop-adapter-marked-first-under-lock (an innocent device STOPPED, the lock on its copy queued behind the hang returns, its CPU waiter returns, its fence at `UINT64_MAX`; Render, CreateAllocation, CreateContext, CreateDevice refused; everything destroyed, reopened it works; mutation-checked: without the CreateDevice check it fails; ASan and TSan builds clean) */
/* rule: sched.tdr-limit-model-choices (the guilty device HUNG, the innocent STOPPED) */
static void test_third_adapter_timeout_within_the_time_stops_the_adapter(void **state)
{
    (void)state;
    renv_caps(NO_ENGINE_RESET);
    D3DKMT_HANDLE adapter = open_adapter();
    hang_recovered(adapter);
    hang_recovered(adapter);
    adapter_works(adapter);

    /* An innocent device: a copy queued behind the hang, a lock waiting for it, a CPU waiter
     * on its monitored fence. */
    struct renv o;
    renv_open_on(&o, adapter);
    D3DKMT_HANDLE osrc = renv_alloc(&o, SWGPU_ALLOC_UPLOAD, 4096), odst = renv_alloc(&o, SWGPU_ALLOC_READBACK, 4096);
    const volatile UINT64 *ov;
    struct cpu_wait w = { .device = o.device, .fence = monitored_fence(o.device, &ov), .value = 6,
                          .status = STATUS_PENDING };
    pthread_t waiter;
    assert_int_equal(pthread_create(&waiter, NULL, cpu_wait_main, &w), 0);
    struct renv g;
    renv_open_on(&g, adapter);
    D3DKMT_HANDLE gsrc = renv_alloc(&g, SWGPU_ALLOC_UPLOAD, 4096), gdst = renv_alloc(&g, SWGPU_ALLOC_READBACK, 4096);
    struct wddm_counters c0 = renv_counters();
    wddm_swgpu_inject_hang();
    assert_int_equal(renv_copy(&g, gdst, gsrc, 4096), STATUS_SUCCESS);   /* hangs */
    assert_int_equal(renv_copy(&o, odst, osrc, 4096), STATUS_SUCCESS);   /* queued behind it */
    void *p = NULL;
    assert_int_equal(renv_lock(&o, odst, LOCK_READONLY, &p), STATUS_DEVICE_REMOVED);
    struct wddm_counters c1 = wait_acted(&c0);
    /* The third adapter timeout within the time: stopped, not recovered. */
    assert_int_equal(c1.adapter_stops - c0.adapter_stops, 1);
    assert_int_equal(c1.adapter_resets, c0.adapter_resets);
    assert_int_equal(renv_exec_state(g.device), D3DKMT_DEVICEEXECUTION_HUNG);
    assert_int_equal(renv_exec_state(o.device), D3DKMT_DEVICEEXECUTION_STOPPED);
    /* Nothing waits for ever: the monitored fence goes to its maximum (the last step of the
     * stop), the CPU waiter returns. */
    while (*ov != UINT64_MAX)
        usleep(1000);
    assert_int_equal(pthread_join(waiter, NULL), 0);
    assert_true(w.status == STATUS_SUCCESS || w.status == STATUS_DEVICE_REMOVED);
    /* Nothing new: no device, no context, no work, no allocation. */
    wddm_clear_refusals();
    D3DKMT_CREATEDEVICE cd = { .hAdapter = adapter };
    assert_int_equal(D3DKMTCreateDevice(&cd), STATUS_DEVICE_REMOVED);
    renv_expect_refusal("WDDM_TDR_LIMIT_COUNT=2");
    D3DKMT_CREATECONTEXT cc = { .hDevice = o.device, .NodeOrdinal = 0 };
    assert_int_equal(D3DKMTCreateContext(&cc), STATUS_DEVICE_REMOVED);
    renv_expect_refusal("D3DKMTCreateContext");
    assert_int_equal(renv_copy(&o, odst, osrc, 4096), STATUS_DEVICE_REMOVED);
    D3DKMT_HANDLE h = 0;
    assert_int_equal(renv_try_alloc(&o, SWGPU_ALLOC_UPLOAD, 4096, &h), STATUS_DEVICE_REMOVED);
    /* Everything of the stopped adapter is destroyed (no hang; ASan: no leak)... */
    D3DKMT_DESTROYSYNCHRONIZATIONOBJECT ds = { .hSyncObject = w.fence };
    assert_int_equal(D3DKMTDestroySynchronizationObject(&ds), STATUS_SUCCESS);
    destroy_device(g.device);
    destroy_device(o.device);
    close_adapter(adapter);
    /* ... and started anew (every handle closed) it counts from nothing and works. */
    adapter = open_adapter();
    adapter_works(adapter);
    hang_recovered(adapter);
    close_adapter(adapter);
    renv_caps_remove();
}

/* rule: sched.tdr-limits-wddm-tdr-limit-count (`wddm_test_tdr_clock_advance` past the window: two more recovered, then the stop; mutation-checked: ignoring the time fails it) */
/* rule: sched.tdr-limit-model-choices (`wddm_test_tdr_clock_advance` moves the window) */
static void test_adapter_timeouts_older_than_the_time_are_forgotten(void **state)
{
    (void)state;
    renv_caps(NO_ENGINE_RESET);
    D3DKMT_HANDLE adapter = open_adapter();
    hang_recovered(adapter);
    hang_recovered(adapter);
    /* Both fall out of the 3600 s window... */
    wddm_test_tdr_clock_advance(3601);
    /* ... so two more are recovered, */
    hang_recovered(adapter);
    hang_recovered(adapter);
    /* and the next one is the third within the window. */
    struct wddm_counters c0 = renv_counters();
    struct wddm_counters c1 = hang_one(adapter);
    assert_int_equal(c1.adapter_stops - c0.adapter_stops, 1);
    assert_int_equal(c1.adapter_resets, c0.adapter_resets);
    close_adapter(adapter);
    renv_caps_remove();
}

/* rule: sched.only-adapter-timeouts-count-engine (count 0: three engine resets and the adapter works; without per-engine reset the first timeout stops it; mutation-checked: checking the limit before the engine reset fails it) */
/* rule: sched.tdr-limit-model-choices (count 0: the first adapter timeout stops the adapter) */
static void test_engine_timeouts_do_not_count(void **state)
{
    (void)state;
    /* Not even one adapter timeout allowed, and the reference KMD resets engines alone. */
    setenv("WDDM_TDR_LIMIT_COUNT", "0", 1);
    D3DKMT_HANDLE adapter = open_adapter();
    for (int i = 0; i < 3; i++) {
        struct wddm_counters c0 = renv_counters();
        struct wddm_counters c1 = hang_one(adapter);
        assert_int_equal(c1.engine_resets - c0.engine_resets, 1);
        assert_int_equal(c1.adapter_resets + c1.adapter_stops, c0.adapter_resets + c0.adapter_stops);
    }
    adapter_works(adapter);
    close_adapter(adapter);
    /* With per-engine reset gone, the first timeout stops the adapter. */
    renv_caps(NO_ENGINE_RESET);
    adapter = open_adapter();
    struct wddm_counters c0 = renv_counters();
    struct wddm_counters c1 = hang_one(adapter);
    assert_int_equal(c1.adapter_stops - c0.adapter_stops, 1);
    D3DKMT_CREATEDEVICE cd = { .hAdapter = adapter };
    assert_int_equal(D3DKMTCreateDevice(&cd), STATUS_DEVICE_REMOVED);
    close_adapter(adapter);
    renv_caps_remove();
    setenv("WDDM_TDR_LIMIT_COUNT", "2", 1);
}

/* rule: sched.tdr-limits-wddm-tdr-limit-count (five recovered, the sixth stops; 60 s) */
/* rule: sched.tdr-limit-model-choices (a time of 0 and a count of 65 refused) */
static void test_bad_values_are_refused_and_the_defaults_used(void **state)
{
    (void)state;
    renv_caps(NO_ENGINE_RESET);
    /* A bad count: a line and the default, 5. */
    setenv("WDDM_TDR_LIMIT_COUNT", "five", 1);
    wddm_clear_refusals();
    D3DKMT_HANDLE adapter = open_adapter();
    renv_expect_refusal("WDDM_TDR_LIMIT_COUNT=\"five\"");
    for (int i = 0; i < 5; i++)
        hang_recovered(adapter);
    struct wddm_counters c0 = renv_counters();
    struct wddm_counters c1 = hang_one(adapter);
    assert_int_equal(c1.adapter_stops - c0.adapter_stops, 1);
    close_adapter(adapter);
    /* A bad time: a line and the default, 60 s (one timeout allowed here). */
    setenv("WDDM_TDR_LIMIT_COUNT", "1", 1);
    setenv("WDDM_TDR_LIMIT_TIME_S", "0", 1);
    wddm_clear_refusals();
    adapter = open_adapter();
    renv_expect_refusal("WDDM_TDR_LIMIT_TIME_S=\"0\"");
    hang_recovered(adapter);
    wddm_test_tdr_clock_advance(61); /* past 60 s: forgotten */
    hang_recovered(adapter);
    c0 = renv_counters();
    c1 = hang_one(adapter); /* the second within 60 s */
    assert_int_equal(c1.adapter_stops - c0.adapter_stops, 1);
    close_adapter(adapter);
    /* Out of range and signed values are refused too. */
    setenv("WDDM_TDR_LIMIT_COUNT", "65", 1);
    setenv("WDDM_TDR_LIMIT_TIME_S", "-5", 1);
    wddm_clear_refusals();
    adapter = open_adapter();
    char why[1100];
    wddm_last_refusals(why, sizeof why);
    assert_non_null(strstr(why, "WDDM_TDR_LIMIT_COUNT=\"65\""));
    assert_non_null(strstr(why, "WDDM_TDR_LIMIT_TIME_S=\"-5\""));
    close_adapter(adapter);
    setenv("WDDM_TDR_LIMIT_COUNT", "2", 1);
    setenv("WDDM_TDR_LIMIT_TIME_S", "3600", 1);
    renv_caps_remove();
}

int main(void)
{
    setenv("WDDM_TDR_DELAY_MS", "100", 1);
    setenv("WDDM_TDR_LIMIT_COUNT", "2", 1);
    setenv("WDDM_TDR_LIMIT_TIME_S", "3600", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_third_adapter_timeout_within_the_time_stops_the_adapter),
        cmocka_unit_test(test_adapter_timeouts_older_than_the_time_are_forgotten),
        cmocka_unit_test(test_engine_timeouts_do_not_count),
        cmocka_unit_test(test_bad_values_are_refused_and_the_defaults_used),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
