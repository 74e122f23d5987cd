/* D3DKMTGetDeviceState and the context scheduling priority (objects/device_state.c) on the
 * real kernel with the reference KMD: what a runtime asks around recovery (docs/semantics.md §8.3:
 * a lost device says why) and the priority the scheduler reads (include/wddm/d3dkmthk.h:
 * -7..7, 0 at creation). Bad input is an error code, never a crash (docs/architecture.md "Errors and bad input"). */
/* rule: sched.contexts-scheduling-priority-7-7-0 (range) */
#include "dxgkrnl/real_env.h"

static NTSTATUS get_state(D3DKMT_HANDLE dev, D3DKMT_DEVICESTATE_TYPE type, D3DKMT_GETDEVICESTATE *out)
{
    memset(out, 0xab, sizeof *out); /* every answer must be written, not left over */
    out->hDevice = dev;
    out->StateType = type;
    return D3DKMTGetDeviceState(out);
}

static INT get_priority(D3DKMT_HANDLE ctx)
{
    D3DKMT_GETCONTEXTSCHEDULINGPRIORITY g = { .hContext = ctx, .Priority = 99 };
    assert_int_equal(D3DKMTGetContextSchedulingPriority(&g), STATUS_SUCCESS);
    return g.Priority;
}

static NTSTATUS set_priority(D3DKMT_HANDLE ctx, INT prio)
{
    D3DKMT_SETCONTEXTSCHEDULINGPRIORITY s = { .hContext = ctx, .Priority = prio };
    return D3DKMTSetContextSchedulingPriority(&s);
}

/* A device nothing went wrong with is ACTIVE (D3DKMT_DEVICEEXECUTION_STATE), also after work
 * ran on it. */
/* rule: kernel.d3dkmtgetdevicestate-answers-d3dkmt */
static void device_state_execution_is_active_on_a_healthy_device(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    D3DKMT_GETDEVICESTATE gs;
    assert_int_equal(get_state(e.device, D3DKMT_DEVICESTATE_EXECUTION, &gs), STATUS_SUCCESS);
    assert_int_equal(gs.ExecutionState, D3DKMT_DEVICEEXECUTION_ACTIVE);

    D3DKMT_HANDLE src = renv_alloc(&e, SWGPU_ALLOC_READBACK, 4096);
    D3DKMT_HANDLE dst = renv_alloc(&e, SWGPU_ALLOC_READBACK, 4096);
    assert_int_equal(renv_copy(&e, dst, src, 4096), STATUS_SUCCESS);
    void *p;
    assert_int_equal(renv_lock(&e, dst, LOCK_READONLY, &p), STATUS_SUCCESS); /* waits for the copy */
    renv_unlock(&e, dst);
    assert_int_equal(get_state(e.device, D3DKMT_DEVICESTATE_EXECUTION, &gs), STATUS_SUCCESS);
    assert_int_equal(gs.ExecutionState, D3DKMT_DEVICEEXECUTION_ACTIVE);
    renv_close(&e);
}

/* RESET answers its flags: no desktop here, so DesktopSwitched (and every bit) is 0. */
/* rule: kernel.d3dkmtgetdevicestate-answers-resetstate */
static void device_state_reset_answers_no_flags(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    D3DKMT_GETDEVICESTATE gs;
    assert_int_equal(get_state(e.device, D3DKMT_DEVICESTATE_RESET, &gs), STATUS_SUCCESS);
    assert_int_equal(gs.ResetState.Value, 0);
    renv_close(&e);
}

/* The states this kernel does not model are STATUS_NOT_SUPPORTED; NULL arguments and handles
 * that are not a live device (forged, of another type, destroyed) STATUS_INVALID_PARAMETER. */
/* rule: kernel.every-other-d3dkmt-devicestate-type */
/* rule: kernel.d3dkmtgetdevicestate-status-not-found */
static void device_state_refuses_unknown_types_and_bad_handles(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    D3DKMT_GETDEVICESTATE gs;
    static const D3DKMT_DEVICESTATE_TYPE unsupported[] = {
        D3DKMT_DEVICESTATE_PRESENT, D3DKMT_DEVICESTATE_PRESENT_DWM,
        D3DKMT_DEVICESTATE_PRESENT_QUEUE, (D3DKMT_DEVICESTATE_TYPE)0, (D3DKMT_DEVICESTATE_TYPE)77,
    };
    for (size_t i = 0; i < sizeof unsupported / sizeof unsupported[0]; i++)
        assert_int_equal(get_state(e.device, unsupported[i], &gs), STATUS_NOT_SUPPORTED);
    /* PAGE_FAULT is modelled (issue 6, test_gpummu_exec.c): a device without a fault has none. */
    assert_int_equal(get_state(e.device, D3DKMT_DEVICESTATE_PAGE_FAULT, &gs), STATUS_NOT_FOUND);

    assert_int_equal(D3DKMTGetDeviceState(NULL), STATUS_INVALID_PARAMETER);
    assert_int_equal(get_state(0, D3DKMT_DEVICESTATE_EXECUTION, &gs), STATUS_INVALID_PARAMETER);
    assert_int_equal(get_state(0x7fff1234u, D3DKMT_DEVICESTATE_EXECUTION, &gs), STATUS_INVALID_PARAMETER);
    /* A context handle is not a device handle. */
    assert_int_equal(get_state(e.context, D3DKMT_DEVICESTATE_EXECUTION, &gs), STATUS_INVALID_PARAMETER);
    /* A destroyed device's handle is stale. */
    D3DKMT_CREATEDEVICE cd = { .hAdapter = e.adapter };
    assert_int_equal(D3DKMTCreateDevice(&cd), STATUS_SUCCESS);
    assert_int_equal(get_state(cd.hDevice, D3DKMT_DEVICESTATE_EXECUTION, &gs), STATUS_SUCCESS);
    D3DKMT_DESTROYDEVICE dd = { .hDevice = cd.hDevice };
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_SUCCESS);
    assert_int_equal(get_state(cd.hDevice, D3DKMT_DEVICESTATE_EXECUTION, &gs), STATUS_INVALID_PARAMETER);
    /* The refusals did not touch the live device. */
    assert_int_equal(get_state(e.device, D3DKMT_DEVICESTATE_EXECUTION, &gs), STATUS_SUCCESS);
    assert_int_equal(gs.ExecutionState, D3DKMT_DEVICEEXECUTION_ACTIVE);
    renv_close(&e);
}

/* A context starts at priority 0; every value of -7..7 set is read back; -8 and 8 are refused
 * and leave the stored value as it was. */
/* rule: kernel.context-scheduling-priority-0-creation */
/* rule: kernel.priority-outside-7-7-status-invalid */
static void context_priority_defaults_to_zero_and_round_trips_within_range(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    assert_int_equal(get_priority(e.context), 0);
    for (INT p = -7; p <= 7; p++) {
        assert_int_equal(set_priority(e.context, p), STATUS_SUCCESS);
        assert_int_equal(get_priority(e.context), p);
    }
    assert_int_equal(set_priority(e.context, -3), STATUS_SUCCESS);
    static const INT bad[] = { -8, 8, -1000, 1000, (INT)0x80000000 };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(set_priority(e.context, bad[i]), STATUS_INVALID_PARAMETER);
        assert_int_equal(get_priority(e.context), -3);
    }
    /* A second context of the same device has its own priority. */
    D3DKMT_CREATECONTEXT cc = { .hDevice = e.device, .NodeOrdinal = 0 };
    assert_int_equal(D3DKMTCreateContext(&cc), STATUS_SUCCESS);
    assert_int_equal(get_priority(cc.hContext), 0);
    assert_int_equal(set_priority(cc.hContext, 7), STATUS_SUCCESS);
    assert_int_equal(get_priority(e.context), -3);
    assert_int_equal(get_priority(cc.hContext), 7);
    D3DKMT_DESTROYCONTEXT dc = { .hContext = cc.hContext };
    assert_int_equal(D3DKMTDestroyContext(&dc), STATUS_SUCCESS);
    renv_close(&e);
}

/* NULL arguments and handles that are not a live context are refused by both calls. */
/* rule: kernel.priority-outside-7-7-status-invalid */
static void context_priority_refuses_bad_context_handles(void **state)
{
    (void)state;
    struct renv e;
    renv_open(&e);
    assert_int_equal(D3DKMTSetContextSchedulingPriority(NULL), STATUS_INVALID_PARAMETER);
    assert_int_equal(D3DKMTGetContextSchedulingPriority(NULL), STATUS_INVALID_PARAMETER);
    const D3DKMT_HANDLE bad[] = { 0, 0x7fff1234u, e.device /* a device is not a context */ };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(set_priority(bad[i], 1), STATUS_INVALID_PARAMETER);
        D3DKMT_GETCONTEXTSCHEDULINGPRIORITY g = { .hContext = bad[i], .Priority = 42 };
        assert_int_equal(D3DKMTGetContextSchedulingPriority(&g), STATUS_INVALID_PARAMETER);
        assert_int_equal(g.Priority, 42);
    }
    /* A destroyed context's handle is stale. */
    D3DKMT_CREATECONTEXT cc = { .hDevice = e.device, .NodeOrdinal = 0 };
    assert_int_equal(D3DKMTCreateContext(&cc), STATUS_SUCCESS);
    D3DKMT_DESTROYCONTEXT dc = { .hContext = cc.hContext };
    assert_int_equal(D3DKMTDestroyContext(&dc), STATUS_SUCCESS);
    assert_int_equal(set_priority(cc.hContext, 1), STATUS_INVALID_PARAMETER);
    D3DKMT_GETCONTEXTSCHEDULINGPRIORITY g = { .hContext = cc.hContext };
    assert_int_equal(D3DKMTGetContextSchedulingPriority(&g), STATUS_INVALID_PARAMETER);
    assert_int_equal(get_priority(e.context), 0); /* untouched */
    renv_close(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(device_state_execution_is_active_on_a_healthy_device),
        cmocka_unit_test(device_state_reset_answers_no_flags),
        cmocka_unit_test(device_state_refuses_unknown_types_and_bad_handles),
        cmocka_unit_test(context_priority_defaults_to_zero_and_round_trips_within_range),
        cmocka_unit_test(context_priority_refuses_bad_context_handles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
