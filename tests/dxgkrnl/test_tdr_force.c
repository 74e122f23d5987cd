/* D3DKMTEscape with D3DKMT_ESCAPE_TDRDBGCTRL (issue 19 §4; the D3DKMT_TDRDBGCTRLTYPE reference:
 * "for testing purposes only"): FORCETDR makes the kernel recover the adapter as from a timeout no
 * device caused - every device lost RESET, the KMD's DxgkDdiResetFromTimeout and
 * DxgkDdiRestartFromTimeout called, one adapter reset counted - and the adapter then works; the
 * request returns at once. A malformed request or another control is refused. */
#include "real_env.h"

#include <time.h>

static NTSTATUS escape(D3DKMT_HANDLE adapter, const void *data, UINT size)
{
    D3DKMT_ESCAPE e = { .hAdapter = adapter, .Type = D3DKMT_ESCAPE_TDRDBGCTRL, .pPrivateDriverData = (void *)data,
                        .PrivateDriverDataSize = size };
    return D3DKMTEscape(&e);
}

static void force_tdr_loses_every_device_reset_and_the_adapter_recovers(void **state)
{
    (void)state;
    struct renv a, b;
    renv_open(&a);
    renv_open_on(&b, a.adapter);
    struct wddm_counters before = renv_counters();
    D3DKMT_TDRDBGCTRLTYPE t = D3DKMT_TDRDBGCTRLTYPE_FORCETDR;
    assert_int_equal(escape(a.adapter, &t, sizeof t), STATUS_SUCCESS);
    /* The devices are lost first, the reset is counted when the recovery ends: wait for both. */
    for (int i = 0; i < 1000 && (renv_exec_state(a.device) == D3DKMT_DEVICEEXECUTION_ACTIVE ||
                                 renv_exec_state(b.device) == D3DKMT_DEVICEEXECUTION_ACTIVE ||
                                 renv_counters().adapter_resets == before.adapter_resets); i++) {
        struct timespec ts = { 0, 5000000 };
        nanosleep(&ts, NULL);
    }
    /* No guilty device: both innocent. */
    assert_int_equal(renv_exec_state(a.device), D3DKMT_DEVICEEXECUTION_RESET);
    assert_int_equal(renv_exec_state(b.device), D3DKMT_DEVICEEXECUTION_RESET);
    struct wddm_counters after = renv_counters();
    assert_int_equal(after.adapter_resets, before.adapter_resets + 1);
    /* A device made after the recovery runs GPU work. */
    D3DKMT_HANDLE adapter = a.adapter;
    D3DKMT_DESTROYDEVICE dd = { .hDevice = b.device };
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_SUCCESS);
    dd.hDevice = a.device;
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_SUCCESS);
    struct renv c;
    renv_open_on(&c, adapter);
    D3DKMT_HANDLE up = renv_alloc(&c, SWGPU_ALLOC_UPLOAD, 64u << 10);
    D3DKMT_HANDLE gpu = renv_alloc(&c, SWGPU_ALLOC_GPU_ONLY, 64u << 10);
    D3DKMT_HANDLE rb = renv_alloc(&c, SWGPU_ALLOC_READBACK, 64u << 10);
    renv_gpu_write(&c, gpu, up, 64u << 10, 77);
    renv_gpu_check(&c, gpu, rb, 64u << 10, 77);
    renv_free(&c, up);
    renv_free(&c, gpu);
    renv_free(&c, rb);
    renv_close(&c);
}

static void malformed_or_other_controls_are_refused(void **state)
{
    (void)state;
    struct renv a;
    renv_open(&a);
    D3DKMT_TDRDBGCTRLTYPE t = D3DKMT_TDRDBGCTRLTYPE_FORCETDR;
    assert_int_equal(escape(a.adapter, &t, sizeof t - 1), STATUS_INVALID_PARAMETER);
    assert_int_equal(escape(a.adapter, NULL, sizeof t), STATUS_INVALID_PARAMETER);
    assert_int_equal(escape(0, &t, sizeof t), STATUS_INVALID_PARAMETER);
    t = D3DKMT_TDRDBGCTRLTYPE_ENGINETDR;
    assert_int_equal(escape(a.adapter, &t, sizeof t), STATUS_NOT_SUPPORTED);
    renv_expect_refusal("type 8 is not modelled");
    /* Nothing happened to the device. */
    assert_int_equal(renv_exec_state(a.device), D3DKMT_DEVICEEXECUTION_ACTIVE);
    renv_close(&a);
}

int main(void)
{
    unsetenv("WDDM_KMD_CAPS");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(force_tdr_loses_every_device_reset_and_the_adapter_recovers),
        cmocka_unit_test(malformed_or_other_controls_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
