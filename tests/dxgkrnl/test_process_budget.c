/* The process's budget and its notifications (issue 20 §4; vidmm/process_budget.c): other
 * processes' use of a segment group (the test control wddm_vidmm_set_external_usage) lowers the
 * budget D3DKMTQueryVideoMemoryInfo answers, never below the reservation; a change calls the
 * adapter's budget-change notifications with the new budget; a budget below the process's use
 * calls its trim notifications with the excess (TrimToBudget). Local 1 MiB, CPU-visible 1 MiB,
 * aperture 4 MiB, against the reference KMD. */
#include "real_env.h"

#define KIB 1024u
#define MIB (1024u * 1024u)
#define LOCAL D3DKMT_MEMORY_SEGMENT_GROUP_LOCAL
#define NON_LOCAL D3DKMT_MEMORY_SEGMENT_GROUP_NON_LOCAL

struct seen {
    int budget_calls, trim_calls;
    UINT64 budget, trim_bytes;
    UINT trim_flags;
    void *context;
    D3DKMT_UNREGISTERBUDGETCHANGENOTIFICATION unregister_inside; /* done by the callback if set */
    NTSTATUS unregister_status;
};

static void APIENTRY on_budget(D3DKMT_BUDGETCHANGENOTIFICATION *n)
{
    struct seen *s = n->Context;
    s->budget_calls++;
    s->budget = n->Budget;
    s->context = n->Context;
    if (s->unregister_inside.Handle)
        s->unregister_status = D3DKMTUnregisterBudgetChangeNotification(&s->unregister_inside);
}

static void APIENTRY on_trim(D3DKMT_TRIMNOTIFICATION *n)
{
    struct seen *s = n->Context;
    s->trim_calls++;
    s->trim_bytes = n->NumBytesToTrim;
    s->trim_flags = n->Flags.Value;
}

static D3DKMT_QUERYVIDEOMEMORYINFO query(struct renv *e, D3DKMT_MEMORY_SEGMENT_GROUP g)
{
    D3DKMT_QUERYVIDEOMEMORYINFO q = { .hAdapter = e->adapter, .MemorySegmentGroup = g };
    assert_int_equal(D3DKMTQueryVideoMemoryInfo(&q), STATUS_SUCCESS);
    return q;
}

static void *register_budget(struct renv *e, struct seen *s)
{
    D3DKMT_REGISTERBUDGETCHANGENOTIFICATION r = { .hDevice = e->device, .Callback = on_budget, .Context = s };
    assert_int_equal(D3DKMTRegisterBudgetChangeNotification(&r), STATUS_SUCCESS);
    assert_non_null(r.Handle);
    return r.Handle;
}

static void *register_trim(struct renv *e, struct seen *s)
{
    D3DKMT_ADAPTERINFO info[1];
    D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 1, .pAdapters = info };
    assert_int_equal(D3DKMTEnumAdapters2(&en), STATUS_SUCCESS);
    D3DKMT_REGISTERTRIMNOTIFICATION r = { .AdapterLuid = info[0].AdapterLuid, .hDevice = e->device,
                                          .Callback = on_trim, .Context = s };
    assert_int_equal(D3DKMTRegisterTrimNotification(&r), STATUS_SUCCESS);
    return r.Handle;
}

/* rule: vidmm.process-budget-segment-group-group-size */
/* rule: vidmm.d3dkmtregisterbudgetchangenotification */
/* rule: vidmm.budget-notification-carries-group-budget */
static void test_other_processes_lower_the_budget_and_each_change_is_notified(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    struct seen s = { 0 };
    void *h = register_budget(&e, &s);
    assert_int_equal(query(&e, LOCAL).Budget, 2 * MIB);
    assert_int_equal(wddm_vidmm_set_external_usage(e.adapter, LOCAL, 512 * KIB), STATUS_SUCCESS);
    D3DKMT_QUERYVIDEOMEMORYINFO q = query(&e, LOCAL);
    assert_int_equal(q.Budget, 2 * MIB - 512 * KIB);
    assert_int_equal(q.AvailableForReservation, q.Budget / 2);
    assert_int_equal(query(&e, NON_LOCAL).Budget, 4 * MIB); /* the other group is untouched */
    assert_int_equal(s.budget_calls, 1);
    assert_int_equal(s.budget, 2 * MIB - 512 * KIB);
    assert_ptr_equal(s.context, &s);
    /* The same use again changes nothing: no call. */
    assert_int_equal(wddm_vidmm_set_external_usage(e.adapter, LOCAL, 512 * KIB), STATUS_SUCCESS);
    assert_int_equal(s.budget_calls, 1);
    /* The budget never goes below the reservation. */
    D3DKMT_CHANGEVIDEOMEMORYRESERVATION cr = { .hAdapter = e.adapter, .MemorySegmentGroup = LOCAL,
                                               .Reservation = 256 * KIB };
    assert_int_equal(D3DKMTChangeVideoMemoryReservation(&cr), STATUS_SUCCESS);
    assert_int_equal(wddm_vidmm_set_external_usage(e.adapter, LOCAL, 2 * MIB), STATUS_SUCCESS);
    assert_int_equal(query(&e, LOCAL).Budget, 256 * KIB);
    assert_int_equal(s.budget_calls, 2);
    assert_int_equal(s.budget, 256 * KIB);
    /* Unregistered: no more calls; a second unregistration is refused. */
    D3DKMT_UNREGISTERBUDGETCHANGENOTIFICATION u = { .Handle = h };
    assert_int_equal(D3DKMTUnregisterBudgetChangeNotification(&u), STATUS_SUCCESS);
    assert_int_equal(wddm_vidmm_set_external_usage(e.adapter, LOCAL, 0), STATUS_SUCCESS);
    assert_int_equal(s.budget_calls, 2);
    assert_int_equal(query(&e, LOCAL).Budget, 2 * MIB);
    assert_int_equal(D3DKMTUnregisterBudgetChangeNotification(&u), STATUS_INVALID_PARAMETER);
    cr.Reservation = 0;
    assert_int_equal(D3DKMTChangeVideoMemoryReservation(&cr), STATUS_SUCCESS);
    renv_close(&e);
}

/* rule: vidmm.d3dkmtregistertrimnotification-budget */
static void test_a_budget_below_the_processs_use_asks_it_to_trim_the_excess(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    struct seen s = { 0 };
    void *h = register_trim(&e, &s);
    D3DKMT_HANDLE a = renv_alloc(&e, SWGPU_ALLOC_GPU_ONLY, 768 * KIB);
    D3DDDI_MAKERESIDENT mr = { .hPagingQueue = e.device, .NumAllocations = 1, .AllocationList = &a };
    NTSTATUS st = D3DKMTMakeResident(&mr);
    assert_true(st == STATUS_SUCCESS || st == STATUS_PENDING);
    UINT64 use = query(&e, LOCAL).CurrentUsage;
    assert_true(use >= 768 * KIB);
    /* Still within the budget: no trim. */
    assert_int_equal(wddm_vidmm_set_external_usage(e.adapter, LOCAL, 2 * MIB - use), STATUS_SUCCESS);
    assert_int_equal(s.trim_calls, 0);
    /* Below the use: trim the excess. */
    assert_int_equal(wddm_vidmm_set_external_usage(e.adapter, LOCAL, 2 * MIB - use + 128 * KIB), STATUS_SUCCESS);
    assert_int_equal(s.trim_calls, 1);
    assert_int_equal(s.trim_bytes, 128 * KIB);
    D3DDDI_TRIMRESIDENCYSET_FLAGS want = { .TrimToBudget = 1 };
    assert_int_equal(s.trim_flags, want.Value);
    /* The process evicts: its use is within the budget again. */
    D3DKMT_EVICT ev = { .hDevice = e.device, .NumAllocations = 1, .AllocationList = &a };
    assert_int_equal(D3DKMTEvict(&ev), STATUS_SUCCESS);
    assert_true(query(&e, LOCAL).CurrentUsage <= query(&e, LOCAL).Budget);
    /* A rising budget asks for nothing. */
    assert_int_equal(wddm_vidmm_set_external_usage(e.adapter, LOCAL, 0), STATUS_SUCCESS);
    assert_int_equal(s.trim_calls, 1);
    D3DKMT_UNREGISTERTRIMNOTIFICATION u = { .Handle = h, .Callback = on_trim };
    assert_int_equal(D3DKMTUnregisterTrimNotification(&u), STATUS_SUCCESS);
    renv_close(&e);
}

/* rule: vidmm.callback-may-unregister-itself */
/* rule: vidmm.budget-advice-notifications-synchronous (delivered before the call returns; the callback calls the kernel) */
static void test_a_callback_may_unregister_itself_and_device_destruction_drops_them(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    struct seen s = { 0 }, t = { 0 };
    s.unregister_inside.Handle = register_budget(&e, &s);
    (void)register_budget(&e, &t); /* left registered: goes with the device */
    assert_int_equal(wddm_vidmm_set_external_usage(e.adapter, NON_LOCAL, MIB), STATUS_SUCCESS);
    assert_int_equal(s.unregister_status, STATUS_SUCCESS);
    assert_int_equal(s.budget_calls, 1);
    assert_int_equal(t.budget_calls, 1);
    assert_int_equal(wddm_vidmm_set_external_usage(e.adapter, NON_LOCAL, 0), STATUS_SUCCESS);
    assert_int_equal(s.budget_calls, 1); /* it unregistered itself */
    assert_int_equal(t.budget_calls, 2);
    D3DKMT_DESTROYDEVICE dd = { .hDevice = e.device };
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_SUCCESS);
    assert_int_equal(wddm_vidmm_set_external_usage(e.adapter, NON_LOCAL, MIB), STATUS_SUCCESS);
    assert_int_equal(t.budget_calls, 2); /* dropped with its device */
    assert_int_equal(wddm_vidmm_set_external_usage(e.adapter, NON_LOCAL, 0), STATUS_SUCCESS);
    D3DKMT_CLOSEADAPTER ca = { .hAdapter = e.adapter };
    assert_int_equal(D3DKMTCloseAdapter(&ca), STATUS_SUCCESS);
}

/* rule: vidmm.null-arguments-callback-handle-no-device */
static void test_bad_registrations_and_controls_are_refused(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    struct seen s = { 0 };
    D3DKMT_REGISTERBUDGETCHANGENOTIFICATION rb = { .hDevice = e.device, .Context = &s };
    assert_int_equal(D3DKMTRegisterBudgetChangeNotification(NULL), STATUS_INVALID_PARAMETER);
    assert_int_equal(D3DKMTRegisterBudgetChangeNotification(&rb), STATUS_INVALID_PARAMETER); /* no callback */
    rb.Callback = on_budget;
    rb.hDevice = e.context; /* not a device */
    assert_int_equal(D3DKMTRegisterBudgetChangeNotification(&rb), STATUS_INVALID_PARAMETER);
    D3DKMT_REGISTERTRIMNOTIFICATION rt = { .hDevice = e.device, .Callback = on_trim, .Context = &s };
    rt.AdapterLuid.LowPart = 0x7777; /* not the device's adapter */
    assert_int_equal(D3DKMTRegisterTrimNotification(&rt), STATUS_INVALID_PARAMETER);
    D3DKMT_UNREGISTERBUDGETCHANGENOTIFICATION ub = { .Handle = &s }; /* never registered */
    assert_int_equal(D3DKMTUnregisterBudgetChangeNotification(&ub), STATUS_INVALID_PARAMETER);
    void *h = register_budget(&e, &s);
    D3DKMT_UNREGISTERTRIMNOTIFICATION ut = { .Handle = h, .Callback = on_trim }; /* a budget one */
    assert_int_equal(D3DKMTUnregisterTrimNotification(&ut), STATUS_INVALID_PARAMETER);
    assert_int_equal(wddm_vidmm_set_external_usage(e.adapter, 2, 0), STATUS_INVALID_PARAMETER);
    assert_int_equal(wddm_vidmm_set_external_usage(0x1234, LOCAL, 0), STATUS_INVALID_PARAMETER);
    assert_int_equal(wddm_vidmm_set_external_usage(e.adapter, LOCAL, 3 * MIB), STATUS_INVALID_PARAMETER);
    assert_int_equal(s.budget_calls, 0); /* nothing refused changed the budget */
    ub.Handle = h;
    assert_int_equal(D3DKMTUnregisterBudgetChangeNotification(&ub), STATUS_SUCCESS);
    renv_close(&e);
}

int main(void)
{
    setenv("WDDM_SEGMENT_LOCAL_MB", "1", 1);
    setenv("WDDM_SEGMENT_VISIBLE_MB", "1", 1);
    setenv("WDDM_SEGMENT_APERTURE_MB", "4", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_other_processes_lower_the_budget_and_each_change_is_notified),
        cmocka_unit_test(test_a_budget_below_the_processs_use_asks_it_to_trim_the_excess),
        cmocka_unit_test(test_a_callback_may_unregister_itself_and_device_destruction_drops_them),
        cmocka_unit_test(test_bad_registrations_and_controls_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
