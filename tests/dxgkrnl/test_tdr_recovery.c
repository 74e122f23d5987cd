/* Timeout detection and recovery in the kernel (issue 4; docs/semantics.md §8.3, "TDR changes in
 * Windows 8"), through D3DKMT against the reference KMD and the software GPU: a hang injected
 * with wddm_swgpu_inject_hang is detected after WDDM_TDR_DELAY_MS (100 ms here), the engine is
 * reset, only the guilty device is lost, work queued behind it runs, monitored fences are
 * signalled to their maximum; a KMD whose ResetEngine fails gets an adapter reset instead.
 * Nothing here measures time: the tests wait for outcomes. */
/* rule: sched.gate-nothing-enters-node-hardware-queue (all, TSan) */
/* rule: runtime.counters-preemptions-engine-resets */
#include "sched_cmds.h"

#include "kmd/kmd.h"

#include <stdio.h>
#include <unistd.h>

/* Recovery finishes on the watchdog's thread after the waiters it released woke: wait (no
 * time limit asserted) until the counters show it done. */
static struct wddm_counters wait_recovered(const struct wddm_counters *before)
{
    for (;;) {
        struct wddm_counters c = renv_counters();
        if (c.engine_resets + c.adapter_resets > before->engine_resets + before->adapter_resets)
            return c;
        usleep(1000);
    }
}

static D3DKMT_HANDLE monitored_fence(D3DKMT_HANDLE device, bool no_max, const volatile UINT64 **value)
{
    D3DKMT_CREATESYNCHRONIZATIONOBJECT2 cs = { .hDevice = device };
    cs.Info.Type = D3DDDI_MONITORED_FENCE;
    cs.Info.Flags.NoSignalMaxValueOnTdr = no_max;
    cs.Info.MonitoredFence.InitialFenceValue = 5;
    assert_int_equal(D3DKMTCreateSynchronizationObject2(&cs), STATUS_SUCCESS);
    *value = cs.Info.MonitoredFence.FenceValueCPUVirtualAddress;
    return cs.hSyncObject;
}

/* rule: sched.tdr-detection-watchdog-adapter-node */
/* rule: sched.engine-reset-device-packet-engine-stuck (the other device's copy queued behind the hang runs, right; one engine reset; trace RESET names the guilty context) */
/* rule: kernel.lost-device-d3dkmtrender-d3dkmtlock */
/* rule: sched.after-recovery-lost-devices-monitored */
/* rule: sched.after-timeout-recovery-lost-device (monitored fences) */
static void test_hang_resets_the_engine_and_loses_only_the_guilty_device(void **state)
{
    (void)state;
    struct renv g, o; /* guilty, other */
    renv_open(&g);
    renv_add_context(&g, &o, true);
    D3DKMT_HANDLE gsrc = renv_alloc(&g, SWGPU_ALLOC_UPLOAD, 4096), gdst = renv_alloc(&g, SWGPU_ALLOC_READBACK, 4096);
    D3DKMT_HANDLE osrc = renv_alloc(&o, SWGPU_ALLOC_UPLOAD, 4096), odst = renv_alloc(&o, SWGPU_ALLOC_READBACK, 4096);
    renv_write(&g, gsrc, 4096, 1);
    renv_write(&o, osrc, 4096, 2);
    const volatile UINT64 *gv, *gkeep, *ov;
    monitored_fence(g.device, false, &gv);
    monitored_fence(g.device, true, &gkeep);
    monitored_fence(o.device, false, &ov);
    struct wddm_counters c0 = renv_counters();
    wddm_sched_trace_enable(1);
    wddm_sched_trace_clear();

    wddm_swgpu_inject_hang();
    assert_int_equal(renv_copy(&g, gdst, gsrc, 4096), STATUS_SUCCESS); /* hangs */
    assert_int_equal(renv_copy(&o, odst, osrc, 4096), STATUS_SUCCESS); /* queued behind it */
    /* The lock waits for the hung copy; recovery ends the wait with the device lost. */
    void *p = NULL;
    assert_int_equal(renv_lock(&g, gdst, LOCK_READONLY, &p), STATUS_DEVICE_REMOVED);
    assert_int_equal(renv_exec_state(g.device), D3DKMT_DEVICEEXECUTION_HUNG);
    /* The other device's copy ran after the reset, right. */
    assert_int_equal(renv_read_sum(&o, odst, 0, 4096), renv_read_sum(&o, osrc, 0, 4096));
    assert_int_equal(renv_exec_state(o.device), D3DKMT_DEVICEEXECUTION_ACTIVE);
    struct wddm_counters c1 = wait_recovered(&c0);
    assert_int_equal(c1.engine_resets - c0.engine_resets, 1);
    assert_int_equal(c1.adapter_resets, c0.adapter_resets);
    /* Monitored fences of the lost device: to the maximum, unless NoSignalMaxValueOnTdr (the
     * last step of the recovery). */
    while (*gv != UINT64_MAX)
        usleep(1000);
    assert_int_equal(*gkeep, 5);
    assert_int_equal(*ov, 5);
    /* The lost device refuses new work and new allocations. */
    assert_int_equal(renv_copy(&g, gdst, gsrc, 4096), STATUS_DEVICE_REMOVED);
    D3DKMT_HANDLE h = 0;
    assert_int_equal(renv_try_alloc(&g, SWGPU_ALLOC_UPLOAD, 4096, &h), STATUS_DEVICE_REMOVED);
    /* The other keeps working. */
    renv_write(&o, osrc, 4096, 3);
    assert_int_equal(renv_copy(&o, odst, osrc, 4096), STATUS_SUCCESS);
    assert_int_equal(renv_read_sum(&o, odst, 0, 4096), renv_read_sum(&o, osrc, 0, 4096));
    /* The trace names the guilty context at the reset. */
    static struct wddm_sched_event ev[1024];
    size_t n = wddm_sched_trace_read(ev, 1024), resets = 0;
    for (size_t i = 0; i < n; i++)
        if (ev[i].type == WDDM_SCHED_EVENT_RESET) {
            resets++;
            assert_int_equal(ev[i].node, 0);
            assert_int_equal(ev[i].context, g.context);
        }
    assert_int_equal(resets, 1);
    wddm_sched_trace_enable(0);
    D3DKMT_DESTROYDEVICE dd = { .hDevice = o.device };
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_SUCCESS);
    renv_close(&g); /* destroying a lost device works */
}

/* A lost device runs nothing more: a signal its second context queued behind a GPU wait is never
 * applied, even when another device releases that wait after the recovery - the lost device's
 * fence keeps the maximum value the recovery gave it. */
/* rule: sched.lost-device-queued-signals-never-applied */
static void test_a_signal_queued_by_a_lost_device_is_never_applied(void **state)
{
    (void)state;
    struct renv g, g2, o;
    renv_open(&g);
    renv_add_context(&g, &g2, false); /* a second context of the guilty device */
    renv_add_context(&g, &o, true);   /* another device */
    D3DKMT_HANDLE src = renv_alloc(&g, SWGPU_ALLOC_UPLOAD, 4096), dst = renv_alloc(&g, SWGPU_ALLOC_READBACK, 4096);
    const volatile UINT64 *fv, *gatev;
    D3DKMT_HANDLE f = monitored_fence(g.device, false, &fv);
    /* The gate: shared, and kept through the recovery (NoSignalMaxValueOnTdr), so that only the
     * other device releases the wait. */
    D3DKMT_CREATESYNCHRONIZATIONOBJECT2 cs = { .hDevice = g.device };
    cs.Info.Type = D3DDDI_MONITORED_FENCE;
    cs.Info.Flags.Shared = 1;
    cs.Info.Flags.NoSignalMaxValueOnTdr = 1;
    cs.Info.MonitoredFence.InitialFenceValue = 5;
    assert_int_equal(D3DKMTCreateSynchronizationObject2(&cs), STATUS_SUCCESS);
    D3DKMT_HANDLE gate = cs.hSyncObject;
    gatev = cs.Info.MonitoredFence.FenceValueCPUVirtualAddress;
    D3DKMT_OPENSYNCHRONIZATIONOBJECT op = { .hSharedHandle = cs.Info.SharedHandle };
    assert_int_equal(D3DKMTOpenSynchronizationObject(&op), STATUS_SUCCESS);
    struct wddm_counters c0 = renv_counters();

    wddm_swgpu_inject_hang();
    assert_int_equal(renv_copy(&g, dst, src, 4096), STATUS_SUCCESS); /* hangs */
    UINT64 one = 1, six = 6;
    D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMGPU w = { .hContext = g2.context, .ObjectCount = 1,
                                                     .ObjectHandleArray = &gate, .MonitoredFenceValueArray = &six };
    assert_int_equal(D3DKMTWaitForSynchronizationObjectFromGpu(&w), STATUS_SUCCESS);
    D3DKMT_SIGNALSYNCHRONIZATIONOBJECTFROMGPU sg = { .hContext = g2.context, .ObjectCount = 1,
                                                     .ObjectHandleArray = &f, .MonitoredFenceValueArray = &one };
    assert_int_equal(D3DKMTSignalSynchronizationObjectFromGpu(&sg), STATUS_SUCCESS);
    (void)wait_recovered(&c0);
    while (*fv != UINT64_MAX)
        usleep(1000);
    assert_int_equal(*gatev, 5);
    /* The other device opens the gate; the lost device's queued signal stays unapplied. */
    D3DKMT_SIGNALSYNCHRONIZATIONOBJECTFROMCPU sc = { .hDevice = o.device, .ObjectCount = 1,
                                                     .ObjectHandleArray = &op.hSyncObject, .FenceValueArray = &six };
    assert_int_equal(D3DKMTSignalSynchronizationObjectFromCpu(&sc), STATUS_SUCCESS);
    assert_int_equal(*gatev, 6);
    for (int i = 0; i < 100; i++) { /* 100 ms for a signal that must never come */
        assert_true(*fv == UINT64_MAX);
        usleep(1000);
    }
    D3DKMT_DESTROYDEVICE dd = { .hDevice = o.device };
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_SUCCESS);
    renv_close(&g);
}

/* rule: sched.tdr-detection-watchdog-adapter-node (4× the delay, preempted and resumed, no reset) */
static void test_long_buffer_that_makes_progress_is_not_a_hang(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    enum { CHUNK = 64 * 1024, STEPS = 10 };
    D3DKMT_HANDLE src = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, CHUNK);
    D3DKMT_HANDLE dst = renv_alloc(&e, SWGPU_ALLOC_READBACK, CHUNK * STEPS);
    renv_write(&e, src, CHUNK, 9);
    struct wddm_counters c0 = renv_counters();
    /* ~40 ms per command, ~400 ms in all: four times the 100 ms TDR delay. */
    wddm_swgpu_set_bandwidth(1600ull * 1024);
    struct cmds b;
    cmds_begin(&b, &e);
    for (UINT i = 0; i < STEPS; i++)
        cmds_copy(&b, dst, i * CHUNK, src, 0, CHUNK);
    assert_int_equal(cmds_render(&b), STATUS_SUCCESS);
    uint64_t want = renv_read_sum(&e, src, 0, CHUNK);
    wddm_swgpu_set_bandwidth(0);
    for (UINT i = 0; i < STEPS; i++)
        assert_int_equal(renv_read_sum(&e, dst, (size_t)i * CHUNK, CHUNK), want);
    assert_int_equal(renv_exec_state(e.device), D3DKMT_DEVICEEXECUTION_ACTIVE);
    struct wddm_counters c1 = renv_counters();
    assert_int_equal(c1.engine_resets, c0.engine_resets);
    assert_int_equal(c1.adapter_resets, c0.adapter_resets);
    renv_close(&e);
}

/* rule: sched.tdr-detection-watchdog-adapter-node */
/* rule: sched.queue-cap-priorities-tdr-model-choices (a paused GPU is responsive: no reset) */
static void test_paused_gpu_is_not_a_hang(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    D3DKMT_HANDLE src = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, 4096), dst = renv_alloc(&e, SWGPU_ALLOC_READBACK, 4096);
    assert_int_equal(renv_copy(&e, dst, src, 4096), STATUS_SUCCESS); /* resident, paging done */
    (void)renv_read_sum(&e, dst, 0, 4096);
    struct wddm_counters c0 = renv_counters();
    wddm_swgpu_set_paused(1);
    assert_int_equal(renv_copy(&e, dst, src, 4096), STATUS_SUCCESS);
    usleep(400 * 1000); /* four TDR delays with work queued and nothing completing */
    wddm_swgpu_set_paused(0);
    assert_int_equal(renv_read_sum(&e, dst, 0, 4096), renv_read_sum(&e, src, 0, 4096));
    struct wddm_counters c1 = renv_counters();
    assert_int_equal(c1.engine_resets, c0.engine_resets);
    assert_int_equal(c1.adapter_resets, c0.adapter_resets);
    assert_int_equal(renv_exec_state(e.device), D3DKMT_DEVICEEXECUTION_ACTIVE);
    renv_close(&e);
}

/* ---- escalation: a KMD whose engine reset fails -------------------------------------------- */

static atomic_int reset_engine_calls, reset_from_timeout_calls;

static NTSTATUS APIENTRY failing_reset_engine(const HANDLE hAdapter, DXGKARG_RESETENGINE *args)
{
    (void)hAdapter;
    (void)args;
    atomic_fetch_add(&reset_engine_calls, 1);
    return STATUS_UNSUCCESSFUL;
}

static PDXGKDDI_RESETFROMTIMEOUT real_reset_from_timeout;

static NTSTATUS APIENTRY counting_reset_from_timeout(const PVOID adapter)
{
    atomic_fetch_add(&reset_from_timeout_calls, 1);
    return real_reset_from_timeout(adapter);
}

static NTSTATUS failing_entry(PDRIVER_OBJECT drv, PVOID reg)
{
    DRIVER_INITIALIZATION_DATA d;
    SwKmdGetDriverInitializationData(&d);
    d.DxgkDdiResetEngine = failing_reset_engine;
    real_reset_from_timeout = d.DxgkDdiResetFromTimeout;
    d.DxgkDdiResetFromTimeout = counting_reset_from_timeout;
    return DxgkInitialize(drv, reg, &d);
}

/* rule: sched.escalation-no-engine-tdr-failed */
/* rule: sched.queue-cap-priorities-tdr-model-choices (adapter reset: the guilty device HUNG, the other RESET) */
static void test_failed_engine_reset_escalates_to_adapter_reset_and_loses_every_device(void **state)
{
    (void)state;
    struct renv g, o;
    /* Every adapter handle of the earlier tests is closed: the next enumeration starts the
     * adapter again, with this KMD. */
    wddm_set_kmd_entry(failing_entry);
    D3DKMT_ADAPTERINFO info[4];
    D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 4, .pAdapters = info };
    assert_int_equal(D3DKMTEnumAdapters2(&en), STATUS_SUCCESS);
    memset(&g, 0, sizeof g);
    g.adapter = info[0].hAdapter;
    D3DKMT_CREATEDEVICE cd = { .hAdapter = g.adapter };
    assert_int_equal(D3DKMTCreateDevice(&cd), STATUS_SUCCESS);
    g.device = cd.hDevice;
    g.cc = (D3DKMT_CREATECONTEXT){ .hDevice = g.device, .NodeOrdinal = 0 };
    assert_int_equal(D3DKMTCreateContext(&g.cc), STATUS_SUCCESS);
    g.context = g.cc.hContext;
    renv_add_context(&g, &o, true);
    D3DKMT_HANDLE src = renv_alloc(&g, SWGPU_ALLOC_UPLOAD, 4096), dst = renv_alloc(&g, SWGPU_ALLOC_READBACK, 4096);
    struct wddm_counters c0 = renv_counters();
    wddm_swgpu_inject_hang();
    assert_int_equal(renv_copy(&g, dst, src, 4096), STATUS_SUCCESS);
    void *p = NULL;
    assert_int_equal(renv_lock(&g, dst, LOCK_READONLY, &p), STATUS_DEVICE_REMOVED);
    struct wddm_counters c1 = wait_recovered(&c0);
    assert_true(atomic_load(&reset_engine_calls) >= 1);
    assert_int_equal(atomic_load(&reset_from_timeout_calls), 1);
    assert_int_equal(c1.adapter_resets - c0.adapter_resets, 1);
    assert_int_equal(c1.engine_resets, c0.engine_resets);
    /* Every device of the adapter is lost: the guilty HUNG, the other RESET. */
    assert_int_equal(renv_exec_state(g.device), D3DKMT_DEVICEEXECUTION_HUNG);
    assert_int_equal(renv_exec_state(o.device), D3DKMT_DEVICEEXECUTION_RESET);
    /* A new device on the recovered adapter works. */
    struct renv n;
    renv_add_context(&g, &n, true);
    D3DKMT_HANDLE ns = renv_alloc(&n, SWGPU_ALLOC_UPLOAD, 4096), nd = renv_alloc(&n, SWGPU_ALLOC_READBACK, 4096);
    renv_write(&n, ns, 4096, 4);
    assert_int_equal(renv_copy(&n, nd, ns, 4096), STATUS_SUCCESS);
    assert_int_equal(renv_read_sum(&n, nd, 0, 4096), renv_read_sum(&n, ns, 0, 4096));
    D3DKMT_DESTROYDEVICE dd = { .hDevice = n.device };
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_SUCCESS);
    dd.hDevice = o.device;
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_SUCCESS);
    renv_close(&g);
    wddm_set_kmd_entry(NULL);
}

/* ---- caps that promise DDIs ---------------------------------------------------------------- */

static int missing; /* 0: PreemptCommand, 1: ResetEngine */

static NTSTATUS missing_ddi_entry(PDRIVER_OBJECT drv, PVOID reg)
{
    DRIVER_INITIALIZATION_DATA d;
    SwKmdGetDriverInitializationData(&d);
    if (missing == 0)
        d.DxgkDdiPreemptCommand = NULL;     /* while DXGK_VIDSCHCAPS.PreemptionAware = 1 */
    else
        d.DxgkDdiResetEngine = NULL;        /* while DXGK_DRIVERCAPS.SupportPerEngineTDR = 1 */
    return DxgkInitialize(drv, reg, &d);
}

/* rule: kernel.caps-promise-ddis-preemptionaware */
static void test_caps_promising_a_missing_ddi_fail_the_start(void **state)
{
    (void)state;
    for (missing = 0; missing < 2; missing++) {
        wddm_set_kmd_entry(missing_ddi_entry);
        wddm_clear_refusals();
        D3DKMT_ADAPTERINFO info[4];
        D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 4, .pAdapters = info };
        assert_false(NT_SUCCESS(D3DKMTEnumAdapters2(&en)));
        char why[1100];
        wddm_last_refusals(why, sizeof why);
        assert_non_null(strstr(why, missing == 0 ? "DxgkDdiPreemptCommand" : "DxgkDdiResetEngine"));
    }
    wddm_set_kmd_entry(NULL);
}

int main(void)
{
    setenv("WDDM_TDR_DELAY_MS", "100", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hang_resets_the_engine_and_loses_only_the_guilty_device),
        cmocka_unit_test(test_a_signal_queued_by_a_lost_device_is_never_applied),
        cmocka_unit_test(test_long_buffer_that_makes_progress_is_not_a_hang),
        cmocka_unit_test(test_paused_gpu_is_not_a_hang),
        cmocka_unit_test(test_failed_engine_reset_escalates_to_adapter_reset_and_loses_every_device),
        cmocka_unit_test(test_caps_promising_a_missing_ddi_fail_the_start),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
