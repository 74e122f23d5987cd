/* Every synchronization object type and sharing (issue 20 item 3, docs/semantics.md §8.5):
 * D3DKMTCreateSynchronizationObject(2), D3DKMTOpenSynchronizationObject, and the GPU waits and
 * signals of mutexes, semaphores, fences and CPU notifications
 * (D3DKMTWaitForSynchronizationObject(2), D3DKMTSignalSynchronizationObject(2)). The creation
 * answers are the ones Windows gives (observed on Windows by Wine's d3dkmt tests); the GPU
 * semantics are proved by held work and monitored fences the CPU reads, never by time. Against
 * the reference KMD and the software GPU. */
#include "real_env.h"

#define BYTES 4096u

static bool is_global(D3DKMT_HANDLE h)
{
    return (h & 0xC0000000u) == 0xC0000000u && (h & 0x3fu) == 2u;
}

static NTSTATUS destroy(D3DKMT_HANDLE h)
{
    D3DKMT_DESTROYSYNCHRONIZATIONOBJECT ds = { .hSyncObject = h };
    return D3DKMTDestroySynchronizationObject(&ds);
}

static D3DKMT_HANDLE create2(D3DKMT_HANDLE device, D3DDDI_SYNCHRONIZATIONOBJECTINFO2 info, D3DKMT_HANDLE *shared)
{
    D3DKMT_CREATESYNCHRONIZATIONOBJECT2 cs = { .hDevice = device, .Info = info };
    cs.Info.SharedHandle = 0x1eadbeed;
    assert_int_equal(D3DKMTCreateSynchronizationObject2(&cs), STATUS_SUCCESS);
    assert_int_not_equal(cs.hSyncObject, 0);
    assert_false(is_global(cs.hSyncObject));
    if (shared)
        *shared = cs.Info.SharedHandle;
    return cs.hSyncObject;
}

static D3DKMT_HANDLE mutex_new(D3DKMT_HANDLE device, BOOL owned)
{
    return create2(device, (D3DDDI_SYNCHRONIZATIONOBJECTINFO2){ .Type = D3DDDI_SYNCHRONIZATION_MUTEX,
                                                                .SynchronizationMutex.InitialState = owned }, NULL);
}

static D3DKMT_HANDLE monitored_new(D3DKMT_HANDLE device)
{
    return create2(device, (D3DDDI_SYNCHRONIZATIONOBJECTINFO2){ .Type = D3DDDI_MONITORED_FENCE }, NULL);
}

static NTSTATUS wait1(D3DKMT_HANDLE ctx, D3DKMT_HANDLE h)
{
    D3DKMT_WAITFORSYNCHRONIZATIONOBJECT w = { .hContext = ctx, .ObjectCount = 1, .ObjectHandleArray = { h } };
    return D3DKMTWaitForSynchronizationObject(&w);
}

static NTSTATUS signal1(D3DKMT_HANDLE ctx, D3DKMT_HANDLE h)
{
    D3DKMT_SIGNALSYNCHRONIZATIONOBJECT s = { .hContext = ctx, .ObjectCount = 1, .ObjectHandleArray = { h } };
    return D3DKMTSignalSynchronizationObject(&s);
}

static NTSTATUS wait_fence(D3DKMT_HANDLE ctx, D3DKMT_HANDLE h, UINT64 v)
{
    D3DKMT_WAITFORSYNCHRONIZATIONOBJECT2 w = { .hContext = ctx, .ObjectCount = 1, .ObjectHandleArray = { h } };
    w.Fence.FenceValue = v;
    return D3DKMTWaitForSynchronizationObject2(&w);
}

static NTSTATUS signal_fence(D3DKMT_HANDLE ctx, D3DKMT_HANDLE h, UINT64 v, bool rewind)
{
    D3DKMT_SIGNALSYNCHRONIZATIONOBJECT2 s = { .hContext = ctx, .ObjectCount = 1, .ObjectHandleArray = { h } };
    s.Fence.FenceValue = v;
    s.Flags.AllowFenceRewind = rewind;
    return D3DKMTSignalSynchronizationObject2(&s);
}

/* A marker in ctx's stream: the monitored fence `m` goes to v when ctx reaches this point. */
static void mark(D3DKMT_HANDLE ctx, D3DKMT_HANDLE m, UINT64 v)
{
    D3DKMT_SIGNALSYNCHRONIZATIONOBJECTFROMGPU s = { .hContext = ctx, .ObjectCount = 1, .ObjectHandleArray = &m,
                                                    .MonitoredFenceValueArray = &v };
    assert_int_equal(D3DKMTSignalSynchronizationObjectFromGpu(&s), STATUS_SUCCESS);
}

/* Has ctx passed the marker (timeout 0: only looks), or, with `block`, wait until it has. */
static bool reached(D3DKMT_HANDLE device, D3DKMT_HANDLE m, UINT64 v, bool block)
{
    D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMCPU w = { .hDevice = device, .ObjectCount = 1, .ObjectHandleArray = &m,
                                                     .FenceValueArray = &v };
    NTSTATUS st = wddm_wait_for_synchronization_object_from_cpu_timeout(&w, block ? WDDM_WAIT_INFINITE : 0);
    assert_true(st == STATUS_SUCCESS || st == STATUS_TIMEOUT);
    return st == STATUS_SUCCESS;
}

static struct renv second_context(struct renv *base)
{
    struct renv r = *base;
    r.cc = (D3DKMT_CREATECONTEXT){ .hDevice = base->device, .NodeOrdinal = 0 };
    assert_int_equal(D3DKMTCreateContext(&r.cc), STATUS_SUCCESS);
    r.context = r.cc.hContext;
    return r;
}

/* rule: sched.d3dkmtcreatesynchronizationobject */
/* rule: sched.d3dkmtcreatesynchronizationobject2 */
static void test_creation_answers_are_windows_answers(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    /* First form: mutexes and semaphores, a valid device. */
    D3DKMT_CREATESYNCHRONIZATIONOBJECT c1 = { 0 };
    assert_int_equal(D3DKMTCreateSynchronizationObject(NULL), STATUS_INVALID_PARAMETER);
    assert_int_equal(D3DKMTCreateSynchronizationObject(&c1), STATUS_INVALID_PARAMETER);
    c1.hDevice = e.device; /* type 0 */
    assert_int_equal(D3DKMTCreateSynchronizationObject(&c1), STATUS_INVALID_PARAMETER);
    c1 = (D3DKMT_CREATESYNCHRONIZATIONOBJECT){ .Info.Type = D3DDDI_SYNCHRONIZATION_MUTEX };
    assert_int_equal(D3DKMTCreateSynchronizationObject(&c1), STATUS_INVALID_PARAMETER); /* no device */
    c1.hDevice = e.device;
    assert_int_equal(D3DKMTCreateSynchronizationObject(&c1), STATUS_SUCCESS);
    D3DKMT_HANDLE m1 = c1.hSyncObject;
    assert_int_equal(D3DKMTCreateSynchronizationObject(&c1), STATUS_SUCCESS);
    assert_int_not_equal(c1.hSyncObject, m1);
    assert_int_equal(destroy(m1), STATUS_SUCCESS);
    assert_int_equal(destroy(m1), STATUS_INVALID_PARAMETER); /* twice */
    assert_int_equal(destroy(c1.hSyncObject), STATUS_SUCCESS);
    c1.Info.Type = D3DDDI_SEMAPHORE;
    assert_int_equal(D3DKMTCreateSynchronizationObject(&c1), STATUS_SUCCESS);
    assert_int_equal(destroy(c1.hSyncObject), STATUS_SUCCESS);
    c1.Info.Type = D3DDDI_FENCE;
    assert_int_equal(D3DKMTCreateSynchronizationObject(&c1), STATUS_INVALID_PARAMETER);
    renv_expect_refusal("mutexes and semaphores only");

    /* Second form: every type; a CPU notification needs an event. */
    D3DKMT_CREATESYNCHRONIZATIONOBJECT2 c2 = { 0 };
    assert_int_equal(D3DKMTCreateSynchronizationObject2(NULL), STATUS_INVALID_PARAMETER);
    assert_int_equal(D3DKMTCreateSynchronizationObject2(&c2), STATUS_INVALID_PARAMETER);
    c2.hDevice = e.device;
    assert_int_equal(D3DKMTCreateSynchronizationObject2(&c2), STATUS_INVALID_PARAMETER);
    c2 = (D3DKMT_CREATESYNCHRONIZATIONOBJECT2){ .Info.Type = D3DDDI_SYNCHRONIZATION_MUTEX };
    assert_int_equal(D3DKMTCreateSynchronizationObject2(&c2), STATUS_INVALID_PARAMETER);
    const D3DDDI_SYNCHRONIZATIONOBJECT_TYPE types[] = { D3DDDI_SYNCHRONIZATION_MUTEX, D3DDDI_SEMAPHORE, D3DDDI_FENCE,
                                                        D3DDDI_MONITORED_FENCE };
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        assert_int_equal(destroy(create2(e.device, (D3DDDI_SYNCHRONIZATIONOBJECTINFO2){ .Type = types[i] }, NULL)),
                         STATUS_SUCCESS);
    c2 = (D3DKMT_CREATESYNCHRONIZATIONOBJECT2){ .hDevice = e.device, .Info.Type = D3DDDI_CPU_NOTIFICATION };
    assert_int_equal(D3DKMTCreateSynchronizationObject2(&c2), STATUS_INVALID_HANDLE);
    c2.Info.CPUNotification.Event = (HANDLE)(uintptr_t)0x12345678; /* not an event */
    assert_int_equal(D3DKMTCreateSynchronizationObject2(&c2), STATUS_INVALID_HANDLE);
    c2.Info.CPUNotification.Event = CreateEventW(NULL, FALSE, FALSE, NULL);
    assert_int_equal(D3DKMTCreateSynchronizationObject2(&c2), STATUS_SUCCESS);
    assert_int_equal(destroy(c2.hSyncObject), STATUS_SUCCESS);
    assert_true(CloseHandle(c2.Info.CPUNotification.Event));

    /* What the types refuse. */
    c2 = (D3DKMT_CREATESYNCHRONIZATIONOBJECT2){ .hDevice = e.device, .Info.Type = D3DDDI_SEMAPHORE };
    c2.Info.Semaphore.MaxCount = 1;
    c2.Info.Semaphore.InitialCount = 2;
    assert_int_equal(D3DKMTCreateSynchronizationObject2(&c2), STATUS_INVALID_PARAMETER);
    renv_expect_refusal("above MaxCount");
    c2 = (D3DKMT_CREATESYNCHRONIZATIONOBJECT2){ .hDevice = e.device, .Info.Type = D3DDDI_SYNCHRONIZATION_MUTEX };
    c2.Info.Flags.NoSignal = 1;
    assert_int_equal(D3DKMTCreateSynchronizationObject2(&c2), STATUS_INVALID_PARAMETER);
    renv_expect_refusal("monitored fences only");
    c2 = (D3DKMT_CREATESYNCHRONIZATIONOBJECT2){ .hDevice = e.device, .Info.Type = D3DDDI_PERIODIC_MONITORED_FENCE };
    assert_int_equal(D3DKMTCreateSynchronizationObject2(&c2), STATUS_NOT_SUPPORTED);
    renv_expect_refusal("vertical blanks");
    c2.Info.Type = (D3DDDI_SYNCHRONIZATIONOBJECT_TYPE)99;
    assert_int_equal(D3DKMTCreateSynchronizationObject2(&c2), STATUS_INVALID_PARAMETER);
    renv_close(&e);
}

/* rule: kernel.flags-shared-gives-object-global-handle */
static void test_a_shared_object_opens_by_its_global_handle_until_its_last_local_handle_goes(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    D3DDDI_SYNCHRONIZATIONOBJECTINFO2 info = { .Type = D3DDDI_SYNCHRONIZATION_MUTEX, .Flags.Shared = 1 };
    D3DKMT_HANDLE g1, g2;
    D3DKMT_HANDLE h1 = create2(e.device, info, &g1), h2 = create2(e.device, info, &g2);
    assert_true(is_global(g1) && is_global(g2) && g1 != g2);
    assert_int_equal(destroy(g2), STATUS_INVALID_PARAMETER); /* a global handle is not destroyed */
    assert_int_equal(destroy(h1), STATUS_SUCCESS);

    D3DKMT_OPENSYNCHRONIZATIONOBJECT op = { .hSharedHandle = 0x1eadbeed };
    assert_int_equal(D3DKMTOpenSynchronizationObject(NULL), STATUS_INVALID_PARAMETER);
    assert_int_equal(D3DKMTOpenSynchronizationObject(&op), STATUS_INVALID_PARAMETER);
    op.hSharedHandle = 0;
    assert_int_equal(D3DKMTOpenSynchronizationObject(&op), STATUS_INVALID_PARAMETER);
    op.hSharedHandle = h2; /* a local handle */
    assert_int_equal(D3DKMTOpenSynchronizationObject(&op), STATUS_INVALID_PARAMETER);
    op.hSharedHandle = g1; /* its only local handle is gone */
    assert_int_equal(D3DKMTOpenSynchronizationObject(&op), STATUS_INVALID_PARAMETER);
    op.hSharedHandle = g2;
    assert_int_equal(D3DKMTOpenSynchronizationObject(&op), STATUS_SUCCESS);
    D3DKMT_HANDLE o1 = op.hSyncObject;
    assert_true(o1 && o1 != h2 && !is_global(o1));
    assert_int_equal(destroy(o1), STATUS_SUCCESS);
    assert_int_equal(destroy(o1), STATUS_INVALID_PARAMETER);
    assert_int_equal(D3DKMTOpenSynchronizationObject(&op), STATUS_SUCCESS); /* h2 still lives */
    D3DKMT_HANDLE o2 = op.hSyncObject;
    assert_int_equal(destroy(h2), STATUS_SUCCESS);
    assert_int_equal(D3DKMTOpenSynchronizationObject(&op), STATUS_SUCCESS); /* o2 still lives */
    assert_int_equal(destroy(op.hSyncObject), STATUS_SUCCESS);
    assert_int_equal(destroy(o2), STATUS_SUCCESS);
    assert_int_equal(D3DKMTOpenSynchronizationObject(&op), STATUS_INVALID_PARAMETER); /* the last one went */

    /* NtSecuritySharing needs Shared, and then hands out no global handle. */
    info.Flags.Shared = 0;
    info.Flags.NtSecuritySharing = 1;
    D3DKMT_CREATESYNCHRONIZATIONOBJECT2 cs = { .hDevice = e.device, .Info = info };
    assert_int_equal(D3DKMTCreateSynchronizationObject2(&cs), STATUS_INVALID_PARAMETER);
    info.Flags.Shared = 1;
    D3DKMT_HANDLE nt = create2(e.device, info, &g1);
    assert_int_equal(g1, 0);
    assert_int_equal(destroy(nt), STATUS_SUCCESS);
    renv_close(&e);
}

/* rule: sched.gpu-wait-holds-context-later-dma (a wait that did not take the mutex lets the second context through: fails) */
/* rule: sched.gpu-mutex-signal-frees-any-owner (B frees the mutex owned since its creation) */
static void test_a_gpu_wait_takes_a_mutex_and_a_gpu_signal_frees_it(void **state)
{
    (void)state;
    struct renv a;
    renv_open(&a);
    struct renv b = second_context(&a);
    D3DKMT_HANDLE mu = mutex_new(a.device, TRUE), m = monitored_new(a.device);
    assert_int_equal(wait1(a.context, mu), STATUS_SUCCESS); /* owned at creation: held */
    mark(a.context, m, 1);
    assert_false(reached(a.device, m, 1, false));
    assert_int_equal(signal1(b.context, mu), STATUS_SUCCESS); /* B frees it: A's wait takes it */
    assert_true(reached(a.device, m, 1, true));
    /* Taken by A's wait: B's own wait is held until A frees it. */
    assert_int_equal(wait1(b.context, mu), STATUS_SUCCESS);
    mark(b.context, m, 2);
    assert_false(reached(a.device, m, 2, false));
    assert_int_equal(signal1(a.context, mu), STATUS_SUCCESS);
    assert_true(reached(a.device, m, 2, true));
    renv_close(&a);
}

/* rule: sched.gpu-wait-holds-context-later-dma */
/* rule: sched.gpu-mutex-signal-frees-any-owner (the signal at MaxCount succeeds and is dropped) */
static void test_a_semaphore_counts_waits_and_signals_up_to_its_maximum(void **state)
{
    (void)state;
    struct renv a;
    renv_open(&a);
    struct renv b = second_context(&a);
    D3DDDI_SYNCHRONIZATIONOBJECTINFO2 info = { .Type = D3DDDI_SEMAPHORE };
    info.Semaphore.MaxCount = 2;
    info.Semaphore.InitialCount = 1;
    D3DKMT_HANDLE sem = create2(a.device, info, NULL), m = monitored_new(a.device);
    assert_int_equal(wait1(a.context, sem), STATUS_SUCCESS); /* takes the one count */
    mark(a.context, m, 1);
    assert_true(reached(a.device, m, 1, true));
    assert_int_equal(wait1(a.context, sem), STATUS_SUCCESS); /* none left: held */
    mark(a.context, m, 2);
    assert_false(reached(a.device, m, 2, false));
    /* Four signals: the held wait takes the first; the count then stops at MaxCount (2), the
     * fourth is dropped: two more waits pass, a third is held. */
    for (int i = 0; i < 4; i++)
        assert_int_equal(signal1(b.context, sem), STATUS_SUCCESS);
    assert_true(reached(a.device, m, 2, true));
    for (UINT64 v = 3; v <= 4; v++) {
        assert_int_equal(wait1(a.context, sem), STATUS_SUCCESS);
        mark(a.context, m, v);
        assert_true(reached(a.device, m, v, true));
    }
    assert_int_equal(wait1(a.context, sem), STATUS_SUCCESS);
    mark(a.context, m, 5);
    assert_false(reached(a.device, m, 5, false));
    assert_int_equal(signal1(b.context, sem), STATUS_SUCCESS);
    assert_true(reached(a.device, m, 5, true));
    renv_close(&a);
}

/* rule: sched.fence-second-forms-fence-fencevalue-gpu */
static void test_a_fence_holds_waits_below_its_value_and_rewinds_only_when_allowed(void **state)
{
    (void)state;
    struct renv a;
    renv_open(&a);
    struct renv b = second_context(&a);
    D3DDDI_SYNCHRONIZATIONOBJECTINFO2 info = { .Type = D3DDDI_FENCE };
    info.Fence.FenceValue = 2;
    D3DKMT_HANDLE f = create2(a.device, info, NULL), m = monitored_new(a.device);
    assert_int_equal(wait_fence(a.context, f, 2), STATUS_SUCCESS); /* the initial value */
    mark(a.context, m, 1);
    assert_true(reached(a.device, m, 1, true));
    assert_int_equal(wait_fence(a.context, f, 5), STATUS_SUCCESS);
    mark(a.context, m, 2);
    assert_false(reached(a.device, m, 2, false));
    assert_int_equal(signal_fence(b.context, f, 4, false), STATUS_SUCCESS);
    assert_false(reached(a.device, m, 2, false));
    assert_int_equal(signal_fence(b.context, f, 5, false), STATUS_SUCCESS);
    assert_true(reached(a.device, m, 2, true));
    /* A lower value does not lower the fence without AllowFenceRewind... */
    assert_int_equal(signal_fence(b.context, f, 3, false), STATUS_SUCCESS);
    assert_int_equal(wait_fence(a.context, f, 4), STATUS_SUCCESS);
    mark(a.context, m, 3);
    assert_true(reached(a.device, m, 3, true));
    /* ...and does with it. */
    assert_int_equal(signal_fence(b.context, f, 3, true), STATUS_SUCCESS);
    assert_int_equal(wait_fence(a.context, f, 4), STATUS_SUCCESS); /* B is idle: applied at once */
    mark(a.context, m, 4);
    assert_false(reached(a.device, m, 4, false));
    assert_int_equal(signal_fence(b.context, f, 4, false), STATUS_SUCCESS);
    assert_true(reached(a.device, m, 4, true));
    renv_close(&a);
}

/* rule: sched.cpu-notification-gpu-signal-sets-event (GPU paused: not set; resumed: set, a DonotWait lock finds the copy) */
static void test_a_cpu_notification_sets_its_event_after_the_contexts_earlier_work(void **state)
{
    (void)state;
    struct renv a;
    renv_open(&a);
    HANDLE ev = CreateEventW(NULL, FALSE, FALSE, NULL);
    assert_non_null(ev);
    D3DKMT_HANDLE n = create2(a.device, (D3DDDI_SYNCHRONIZATIONOBJECTINFO2){
                                            .Type = D3DDDI_CPU_NOTIFICATION, .CPUNotification.Event = ev }, NULL);
    D3DKMT_HANDLE src = renv_alloc(&a, SWGPU_ALLOC_UPLOAD, BYTES), dst = renv_alloc(&a, SWGPU_ALLOC_READBACK, BYTES);
    void *p;
    assert_int_equal(renv_lock(&a, src, LOCK_WRITEONLY, &p), STATUS_SUCCESS);
    renv_pattern(p, BYTES, 7);
    uint64_t sum = renv_checksum(p, BYTES);
    renv_unlock(&a, src);
    wddm_swgpu_set_paused(1); /* the copy cannot finish before the signal is queued */
    assert_int_equal(renv_copy(&a, dst, src, BYTES), STATUS_SUCCESS);
    assert_int_equal(signal1(a.context, n), STATUS_SUCCESS);
    assert_int_equal(WaitForSingleObject(ev, 0), WAIT_TIMEOUT);
    wddm_swgpu_set_paused(0);
    assert_int_equal(WaitForSingleObject(ev, INFINITE), WAIT_OBJECT_0);
    /* Set after the copy completed: a DO_NOT_WAIT lock finds it idle, with the data. */
    assert_int_equal(renv_lock(&a, dst, LOCK_READONLY | LOCK_DONOTWAIT, &p), STATUS_SUCCESS);
    assert_true(renv_checksum(p, BYTES) == sum);
    renv_unlock(&a, dst);
    /* EnqueueCpuEvent: the second form sets an event at the same point, with no object. */
    HANDLE ev2 = CreateEventW(NULL, TRUE, FALSE, NULL);
    D3DKMT_SIGNALSYNCHRONIZATIONOBJECT2 s = { .hContext = a.context };
    s.Flags.EnqueueCpuEvent = 1;
    s.CpuEventHandle = ev2;
    assert_int_equal(D3DKMTSignalSynchronizationObject2(&s), STATUS_SUCCESS);
    assert_int_equal(WaitForSingleObject(ev2, INFINITE), WAIT_OBJECT_0);
    /* The kernel holds its own reference: the application may close its handle first. */
    assert_int_equal(signal1(a.context, n), STATUS_SUCCESS);
    assert_true(CloseHandle(ev2));
    assert_int_equal(destroy(n), STATUS_SUCCESS);
    assert_true(CloseHandle(ev));
    renv_close(&a);
}

/* rule: sched.each-call-takes-only-types-fromcpu */
/* rule: sched.signalbykmd-broadcast-refused-crossadapter-shared (a broadcast: STATUS_NOT_SUPPORTED) */
static void test_each_call_takes_only_its_types_and_refuses_the_rest(void **state)
{
    (void)state;
    struct renv a;
    renv_open(&a);
    D3DKMT_HANDLE mu = mutex_new(a.device, FALSE), m = monitored_new(a.device);
    D3DKMT_HANDLE f = create2(a.device, (D3DDDI_SYNCHRONIZATIONOBJECTINFO2){ .Type = D3DDDI_FENCE }, NULL);
    HANDLE ev = CreateEventW(NULL, FALSE, FALSE, NULL);
    D3DKMT_HANDLE n = create2(a.device, (D3DDDI_SYNCHRONIZATIONOBJECTINFO2){
                                            .Type = D3DDDI_CPU_NOTIFICATION, .CPUNotification.Event = ev }, NULL);
    UINT64 one = 1;
    D3DKMT_SIGNALSYNCHRONIZATIONOBJECTFROMCPU cs = { .hDevice = a.device, .ObjectCount = 1, .ObjectHandleArray = &mu,
                                                     .FenceValueArray = &one };
    assert_int_equal(D3DKMTSignalSynchronizationObjectFromCpu(&cs), STATUS_INVALID_PARAMETER);
    renv_expect_refusal("is a mutex");
    assert_int_equal(signal1(a.context, m), STATUS_INVALID_PARAMETER); /* monitored: FromGpu only */
    renv_expect_refusal("is a monitored fence");
    assert_int_equal(wait1(a.context, f), STATUS_INVALID_PARAMETER);   /* fences: second form */
    assert_int_equal(signal1(a.context, f), STATUS_INVALID_PARAMETER);
    assert_int_equal(wait1(a.context, n), STATUS_INVALID_PARAMETER);   /* nothing waits on one */
    assert_int_equal(wait_fence(a.context, n, 0), STATUS_INVALID_PARAMETER);
    D3DKMT_SIGNALSYNCHRONIZATIONOBJECT s1 = { .hContext = a.context, .ObjectCount = 1, .ObjectHandleArray = { mu } };
    s1.Flags.SignalAtSubmission = 1;
    assert_int_equal(D3DKMTSignalSynchronizationObject(&s1), STATUS_INVALID_PARAMETER);
    renv_expect_refusal("SignalAtSubmission");
    D3DKMT_SIGNALSYNCHRONIZATIONOBJECT2 s2 = { .hContext = a.context, .ObjectCount = 1, .ObjectHandleArray = { mu },
                                               .BroadcastContextCount = 1, .BroadcastContext = { a.context } };
    assert_int_equal(D3DKMTSignalSynchronizationObject2(&s2), STATUS_NOT_SUPPORTED);
    s2 = (D3DKMT_SIGNALSYNCHRONIZATIONOBJECT2){ .hContext = a.context };
    assert_int_equal(D3DKMTSignalSynchronizationObject2(&s2), STATUS_INVALID_PARAMETER); /* nothing to signal */
    s2.Flags.EnqueueCpuEvent = 1;
    assert_int_equal(D3DKMTSignalSynchronizationObject2(&s2), STATUS_INVALID_HANDLE);   /* no event */
    D3DKMT_WAITFORSYNCHRONIZATIONOBJECT w = { .hContext = a.context, .ObjectCount = 0 };
    assert_int_equal(D3DKMTWaitForSynchronizationObject(&w), STATUS_INVALID_PARAMETER);
    w.ObjectCount = D3DDDI_MAX_OBJECT_WAITED_ON + 1;
    assert_int_equal(D3DKMTWaitForSynchronizationObject(&w), STATUS_INVALID_PARAMETER);
    assert_int_equal(wait1(0x1234, mu), STATUS_INVALID_PARAMETER);
    assert_int_equal(wait1(a.context, 0x1234), STATUS_INVALID_PARAMETER);
    /* NoGPUAccess: neither GPU call takes it. */
    D3DKMT_HANDLE ng = create2(a.device, (D3DDDI_SYNCHRONIZATIONOBJECTINFO2){
                                             .Type = D3DDDI_SYNCHRONIZATION_MUTEX, .Flags.NoGPUAccess = 1 }, NULL);
    assert_int_equal(wait1(a.context, ng), STATUS_ACCESS_DENIED);
    assert_int_equal(signal1(a.context, ng), STATUS_ACCESS_DENIED);
    /* Nothing refused above changed the mutex: a wait still takes it at once. */
    assert_int_equal(wait1(a.context, mu), STATUS_SUCCESS);
    mark(a.context, m, 1);
    assert_true(reached(a.device, m, 1, true));
    assert_true(CloseHandle(ev));
    renv_close(&a); /* destroys the objects with the device */
}

/* rule: sched.opened-handle-belongs-no-device-device */
static void test_an_opened_handle_works_from_another_device_of_the_adapter(void **state)
{
    (void)state;
    struct renv a, b;
    renv_open(&a);
    renv_open_on(&b, a.adapter);
    D3DKMT_HANDLE g;
    D3DKMT_HANDLE mu = create2(a.device, (D3DDDI_SYNCHRONIZATIONOBJECTINFO2){
                                             .Type = D3DDDI_SYNCHRONIZATION_MUTEX, .Flags.Shared = 1,
                                             .SynchronizationMutex.InitialState = TRUE }, &g);
    D3DKMT_OPENSYNCHRONIZATIONOBJECT op = { .hSharedHandle = g };
    assert_int_equal(D3DKMTOpenSynchronizationObject(&op), STATUS_SUCCESS);
    assert_int_equal(wait1(b.context, mu), STATUS_INVALID_PARAMETER); /* the creator's handle is a's */
    D3DKMT_HANDLE m = monitored_new(b.device);
    assert_int_equal(wait1(b.context, op.hSyncObject), STATUS_SUCCESS);
    mark(b.context, m, 1);
    assert_false(reached(b.device, m, 1, false));
    assert_int_equal(signal1(a.context, mu), STATUS_SUCCESS); /* one object under both handles */
    assert_true(reached(b.device, m, 1, true));
    /* Destroying the creator's device leaves the opened handle working. */
    D3DKMT_DESTROYDEVICE dd = { .hDevice = a.device };
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_SUCCESS);
    assert_int_equal(signal1(b.context, op.hSyncObject), STATUS_SUCCESS);
    assert_int_equal(wait1(b.context, op.hSyncObject), STATUS_SUCCESS);
    mark(b.context, m, 2);
    assert_true(reached(b.device, m, 2, true));
    assert_int_equal(destroy(op.hSyncObject), STATUS_SUCCESS);
    renv_close(&b);
}

/* rule: sched.cpu-wait-hasyncevent-returns-once-sets */
static void test_a_cpu_wait_with_an_event_returns_at_once_and_sets_it_when_satisfied(void **state)
{
    (void)state;
    struct renv a;
    renv_open(&a);
    D3DKMT_HANDLE f = monitored_new(a.device), g = monitored_new(a.device);
    HANDLE ev = CreateEventW(NULL, TRUE, FALSE, NULL);
    D3DKMT_HANDLE hs[2] = { f, g };
    UINT64 vs[2] = { 2, 1 };
    D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMCPU w = { .hDevice = a.device, .ObjectCount = 2, .ObjectHandleArray = hs,
                                                     .FenceValueArray = vs, .hAsyncEvent = ev };
    assert_int_equal(D3DKMTWaitForSynchronizationObjectFromCpu(&w), STATUS_SUCCESS); /* does not block */
    UINT64 one = 1, two = 2;
    D3DKMT_SIGNALSYNCHRONIZATIONOBJECTFROMCPU s = { .hDevice = a.device, .ObjectCount = 1, .ObjectHandleArray = &f,
                                                    .FenceValueArray = &one };
    assert_int_equal(D3DKMTSignalSynchronizationObjectFromCpu(&s), STATUS_SUCCESS);
    s.ObjectHandleArray = &g;
    assert_int_equal(D3DKMTSignalSynchronizationObjectFromCpu(&s), STATUS_SUCCESS);
    assert_int_equal(WaitForSingleObject(ev, 0), WAIT_TIMEOUT); /* f at 1 of 2: not all reached */
    s.ObjectHandleArray = &f;
    s.FenceValueArray = &two;
    assert_int_equal(D3DKMTSignalSynchronizationObjectFromCpu(&s), STATUS_SUCCESS);
    assert_int_equal(WaitForSingleObject(ev, 0), WAIT_OBJECT_0);
    /* Already satisfied: set at once. WaitAny: one object is enough. */
    assert_true(ResetEvent(ev));
    assert_int_equal(D3DKMTWaitForSynchronizationObjectFromCpu(&w), STATUS_SUCCESS);
    assert_int_equal(WaitForSingleObject(ev, 0), WAIT_OBJECT_0);
    assert_true(ResetEvent(ev));
    vs[0] = 9;
    w.Flags.WaitAny = 1;
    assert_int_equal(D3DKMTWaitForSynchronizationObjectFromCpu(&w), STATUS_SUCCESS);
    assert_int_equal(WaitForSingleObject(ev, 0), WAIT_OBJECT_0);
    /* A destroyed object ends the wait: its event is set rather than never. */
    assert_true(ResetEvent(ev));
    w.Flags.WaitAny = 0;
    assert_int_equal(D3DKMTWaitForSynchronizationObjectFromCpu(&w), STATUS_SUCCESS);
    assert_int_equal(WaitForSingleObject(ev, 0), WAIT_TIMEOUT);
    assert_int_equal(destroy(f), STATUS_SUCCESS);
    assert_int_equal(WaitForSingleObject(ev, 0), WAIT_OBJECT_0);
    assert_true(CloseHandle(ev));
    renv_close(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_creation_answers_are_windows_answers),
        cmocka_unit_test(test_a_shared_object_opens_by_its_global_handle_until_its_last_local_handle_goes),
        cmocka_unit_test(test_a_gpu_wait_takes_a_mutex_and_a_gpu_signal_frees_it),
        cmocka_unit_test(test_a_semaphore_counts_waits_and_signals_up_to_its_maximum),
        cmocka_unit_test(test_a_fence_holds_waits_below_its_value_and_rewinds_only_when_allowed),
        cmocka_unit_test(test_a_cpu_notification_sets_its_event_after_the_contexts_earlier_work),
        cmocka_unit_test(test_each_call_takes_only_its_types_and_refuses_the_rest),
        cmocka_unit_test(test_an_opened_handle_works_from_another_device_of_the_adapter),
        cmocka_unit_test(test_a_cpu_wait_with_an_event_returns_at_once_and_sets_it_when_satisfied),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
