/* Cross-adapter monitored fences (issue 20 §3, "across devices and adapters"): a monitored
 * fence created Shared + CrossAdapter on adapter A is opened by its global handle and used by
 * a context of adapter B: B's GPU work waits for A's signal. Without CrossAdapter an opened
 * handle serves only devices of its own adapter. WDDM_ADAPTER_COUNT=2, reference KMDs. */
/* rule: sched.shared-crossadapter-monitored-fence (two adapters; fails when the opened handle is kept to its adapter, or when the NT-handle open skips the adapter check) */
#include "real_env.h"

static D3DKMT_HANDLE fence(D3DKMT_HANDLE device, UINT flags, D3DKMT_HANDLE *global)
{
    D3DKMT_CREATESYNCHRONIZATIONOBJECT2 cs = { .hDevice = device };
    cs.Info.Type = D3DDDI_MONITORED_FENCE;
    cs.Info.Flags.Value = flags;
    assert_int_equal(D3DKMTCreateSynchronizationObject2(&cs), STATUS_SUCCESS);
    if (global)
        *global = cs.Info.SharedHandle;
    return cs.hSyncObject;
}

static D3DKMT_HANDLE open_global(D3DKMT_HANDLE global)
{
    D3DKMT_OPENSYNCHRONIZATIONOBJECT op = { .hSharedHandle = global };
    assert_int_equal(D3DKMTOpenSynchronizationObject(&op), STATUS_SUCCESS);
    return op.hSyncObject;
}

static NTSTATUS gpu_wait(D3DKMT_HANDLE ctx, D3DKMT_HANDLE f, UINT64 v)
{
    D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMGPU w = { .hContext = ctx, .ObjectCount = 1, .ObjectHandleArray = &f,
                                                     .MonitoredFenceValueArray = &v };
    return D3DKMTWaitForSynchronizationObjectFromGpu(&w);
}

static void gpu_signal(D3DKMT_HANDLE ctx, D3DKMT_HANDLE f, UINT64 v)
{
    D3DKMT_SIGNALSYNCHRONIZATIONOBJECTFROMGPU s = { .hContext = ctx, .ObjectCount = 1, .ObjectHandleArray = &f,
                                                    .MonitoredFenceValueArray = &v };
    assert_int_equal(D3DKMTSignalSynchronizationObjectFromGpu(&s), STATUS_SUCCESS);
}

static bool reached(D3DKMT_HANDLE device, D3DKMT_HANDLE f, UINT64 v, bool block)
{
    D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMCPU w = { .hDevice = device, .ObjectCount = 1, .ObjectHandleArray = &f,
                                                     .FenceValueArray = &v };
    NTSTATUS st = wddm_wait_for_synchronization_object_from_cpu_timeout(&w, block ? WDDM_WAIT_INFINITE : 0);
    assert_true(st == STATUS_SUCCESS || st == STATUS_TIMEOUT);
    return st == STATUS_SUCCESS;
}

static void test_a_cross_adapter_fence_orders_work_on_the_other_adapter(void **state)
{
    (void)state;
    struct renv a, b;
    renv_open_pair(&a, &b);
    D3DKMT_HANDLE global;
    D3DKMT_HANDLE f = fence(a.device, 0x1 | 0x4, &global); /* Shared | CrossAdapter */
    D3DKMT_HANDLE fb = open_global(global);
    D3DKMT_HANDLE mark = fence(b.device, 0, NULL);
    /* b's context waits for a's value 1, then marks: held until a's GPU signals. */
    assert_int_equal(gpu_wait(b.context, fb, 1), STATUS_SUCCESS);
    gpu_signal(b.context, mark, 1);
    assert_false(reached(b.device, mark, 1, false));
    gpu_signal(a.context, f, 1);
    assert_true(reached(b.device, mark, 1, true));
    /* And the other way: a waits for b's signal through its own handle. */
    assert_int_equal(gpu_wait(a.context, f, 2), STATUS_SUCCESS);
    D3DKMT_HANDLE mark_a = fence(a.device, 0, NULL);
    gpu_signal(a.context, mark_a, 1);
    assert_false(reached(a.device, mark_a, 1, false));
    gpu_signal(b.context, fb, 2);
    assert_true(reached(a.device, mark_a, 1, true));
    assert_true(reached(b.device, fb, 2, false)); /* b's CPU reads the same value */
    renv_close(&b);
    renv_close(&a);
}

static void test_without_cross_adapter_an_opened_fence_stays_on_its_adapter(void **state)
{
    (void)state;
    struct renv a, b;
    renv_open_pair(&a, &b);
    D3DKMT_HANDLE global;
    (void)fence(a.device, 0x1, &global); /* Shared only */
    D3DKMT_HANDLE fb = open_global(global);
    assert_int_equal(gpu_wait(b.context, fb, 1), STATUS_INVALID_PARAMETER);
    renv_expect_refusal("invalid synchronization object handle");
    /* CrossAdapter needs Shared and a monitored fence. */
    D3DKMT_CREATESYNCHRONIZATIONOBJECT2 cs = { .hDevice = a.device };
    cs.Info.Type = D3DDDI_MONITORED_FENCE;
    cs.Info.Flags.CrossAdapter = 1;
    assert_int_equal(D3DKMTCreateSynchronizationObject2(&cs), STATUS_INVALID_PARAMETER);
    cs.Info.Type = D3DDDI_SYNCHRONIZATION_MUTEX;
    cs.Info.Flags.Shared = 1;
    assert_int_equal(D3DKMTCreateSynchronizationObject2(&cs), STATUS_INVALID_PARAMETER);
    renv_expect_refusal("CrossAdapter needs Shared and a monitored fence");
    D3DKMT_DESTROYSYNCHRONIZATIONOBJECT ds = { .hSyncObject = fb };
    assert_int_equal(D3DKMTDestroySynchronizationObject(&ds), STATUS_SUCCESS);
    renv_close(&b);
    renv_close(&a);
}

/* An NT handle opened for a device (D3DKMTOpenSyncObjectFromNtHandle2) gives that device's handle:
 * the adapter rule is checked at the open. */
static D3DKMT_HANDLE share_nt(D3DKMT_HANDLE f)
{
    HANDLE h = NULL;
    OBJECT_ATTRIBUTES oa;
    InitializeObjectAttributes(&oa, NULL, 0, NULL, NULL);
    assert_int_equal(D3DKMTShareObjects(1, &f, &oa, GENERIC_ALL, &h), STATUS_SUCCESS);
    return (D3DKMT_HANDLE)(uintptr_t)h;
}

static NTSTATUS open_nt(D3DKMT_HANDLE device, D3DKMT_HANDLE nt, D3DKMT_HANDLE *out)
{
    D3DKMT_OPENSYNCOBJECTFROMNTHANDLE2 o = { .hNtHandle = (HANDLE)(uintptr_t)nt, .hDevice = device };
    NTSTATUS st = D3DKMTOpenSyncObjectFromNtHandle2(&o);
    *out = o.hSyncObject;
    return st;
}

static void test_an_nt_handle_opens_on_another_adapter_only_cross_adapter(void **state)
{
    (void)state;
    struct renv a, b;
    renv_open_pair(&a, &b);
    D3DKMT_HANDLE local = 0;
    D3DKMT_HANDLE plain = share_nt(fence(a.device, 0x1 | 0x2, NULL)); /* Shared | NtSecuritySharing */
    assert_int_equal(open_nt(b.device, plain, &local), STATUS_INVALID_PARAMETER);
    renv_expect_refusal("created on another adapter and is not CrossAdapter");
    assert_int_equal(open_nt(a.device, plain, &local), STATUS_SUCCESS); /* its own adapter: any device */
    D3DKMT_HANDLE cross = share_nt(fence(a.device, 0x1 | 0x2 | 0x4, NULL)); /* ... | CrossAdapter */
    D3DKMT_HANDLE fb = 0;
    assert_int_equal(open_nt(b.device, cross, &fb), STATUS_SUCCESS);
    assert_int_equal(gpu_wait(b.context, fb, 0), STATUS_SUCCESS);
    CloseHandle((HANDLE)(uintptr_t)plain);
    CloseHandle((HANDLE)(uintptr_t)cross);
    renv_close(&b);
    renv_close(&a);
}

int main(void)
{
    setenv("WDDM_ADAPTER_COUNT", "2", 1);
    unsetenv("WDDM_KMD_CAPS");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_cross_adapter_fence_orders_work_on_the_other_adapter),
        cmocka_unit_test(test_without_cross_adapter_an_opened_fence_stays_on_its_adapter),
        cmocka_unit_test(test_an_nt_handle_opens_on_another_adapter_only_cross_adapter),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
