/* D3DKMTEscape with D3DKMT_ESCAPE_TDRDBGCTRL (issue 19 §4; the D3DKMT_TDRDBGCTRLTYPE reference:
 * "for testing purposes only"): FORCETDR makes the kernel recover the adapter as from a timeout no
 * device caused - every device lost RESET, the KMD's DxgkDdiResetFromTimeout and
 * DxgkDdiRestartFromTimeout called, one adapter reset counted - and the adapter then works; the
 * request returns at once. ENGINETDR (a D3DKMT_TDRDBGCTRL_ESCAPE naming the node) is a timeout of
 * that engine seen now: the packet it runs names the guilty device (HUNG), the engine alone is
 * reset through DxgkDdiResetEngine (the reference KMD has per-engine TDR), an idle engine's
 * reset loses nobody. A malformed request or another control is refused. */
#include "real_env.h"

#include <time.h>

static NTSTATUS escape(D3DKMT_HANDLE adapter, const void *data, UINT size)
{
    D3DKMT_ESCAPE e = { .hAdapter = adapter, .Type = D3DKMT_ESCAPE_TDRDBGCTRL, .pPrivateDriverData = (void *)data,
                        .PrivateDriverDataSize = size };
    return D3DKMTEscape(&e);
}

/* rule: kernel.d3dkmtescape-d3dkmt-escape-tdrdbgctrl (mutation-checked: a request that is never carried out fails it) */
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

static NTSTATUS engine_tdr(D3DKMT_HANDLE adapter, UINT node)
{
    D3DKMT_TDRDBGCTRL_ESCAPE r = { .TdrControl = D3DKMT_TDRDBGCTRLTYPE_ENGINETDR, .NodeOrdinal = node };
    return escape(adapter, &r, sizeof r);
}

static void wait_engine_resets(UINT64 want)
{
    for (int i = 0; i < 1000 && renv_counters().engine_resets < want; i++) {
        struct timespec ts = { 0, 5000000 };
        nanosleep(&ts, NULL);
    }
    assert_int_equal(renv_counters().engine_resets, want);
}

/* b shares a's adapter handle: only its device goes. */
static void close_second(struct renv *b)
{
    D3DKMT_DESTROYDEVICE dd = { .hDevice = b->device };
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_SUCCESS);
}

/* A GPU round trip on e: the engine works. */
static void gpu_round_trip(struct renv *e, uint32_t seed)
{
    D3DKMT_HANDLE up = renv_alloc(e, SWGPU_ALLOC_UPLOAD, 64u << 10);
    D3DKMT_HANDLE gpu = renv_alloc(e, SWGPU_ALLOC_GPU_ONLY, 64u << 10);
    D3DKMT_HANDLE rb = renv_alloc(e, SWGPU_ALLOC_READBACK, 64u << 10);
    renv_gpu_write(e, gpu, up, 64u << 10, seed);
    renv_gpu_check(e, gpu, rb, 64u << 10, seed);
    renv_free(e, up);
    renv_free(e, gpu);
    renv_free(e, rb);
}

/* rule: kernel.d3dkmtescape-d3dkmt-escape-tdrdbgctrl-2 */
static void engine_tdr_on_an_idle_engine_resets_it_and_loses_nobody(void **state)
{
    (void)state;
    struct renv a, b;
    renv_open(&a);
    renv_open_on(&b, a.adapter);
    gpu_round_trip(&a, 5); /* the engine ran a's work, and is idle again */
    struct wddm_counters before = renv_counters();
    assert_int_equal(engine_tdr(a.adapter, 0), STATUS_SUCCESS);
    wait_engine_resets(before.engine_resets + 1);
    assert_int_equal(renv_counters().adapter_resets, before.adapter_resets);
    assert_int_equal(renv_exec_state(a.device), D3DKMT_DEVICEEXECUTION_ACTIVE);
    assert_int_equal(renv_exec_state(b.device), D3DKMT_DEVICEEXECUTION_ACTIVE);
    gpu_round_trip(&a, 6);
    gpu_round_trip(&b, 7);
    close_second(&b);
    renv_close(&a);
}

/* rule: kernel.d3dkmtescape-d3dkmt-escape-tdrdbgctrl-2 (mutation-checked: an ENGINETDR carried out as an adapter reset fails both) */
static void engine_tdr_on_a_busy_engine_blames_the_packet_it_runs(void **state)
{
    (void)state;
    struct renv a, b;
    renv_open(&a);
    renv_open_on(&b, a.adapter);
    D3DKMT_HANDLE up = renv_alloc(&a, SWGPU_ALLOC_UPLOAD, 64u << 10);
    D3DKMT_HANDLE gpu = renv_alloc(&a, SWGPU_ALLOC_GPU_ONLY, 64u << 10);
    D3DKMT_HANDLE rb = renv_alloc(&a, SWGPU_ALLOC_READBACK, 64u << 10);
    /* Both resident already: the copy below needs no paging operation to start. */
    renv_gpu_write(&a, gpu, up, 64u << 10, 8);
    renv_gpu_check(&a, gpu, rb, 64u << 10, 8);
    struct wddm_counters before = renv_counters();
    wddm_swgpu_set_paused(1); /* a's copy stays on the engine */
    assert_int_equal(renv_copy(&a, gpu, up, 64u << 10), STATUS_SUCCESS);
    /* On the engine: handed to the KMD's DxgkDdiSubmitCommand. */
    for (int i = 0; i < 1000 && renv_counters().dma_buffers_submitted == before.dma_buffers_submitted; i++) {
        struct timespec ts = { 0, 1000000 };
        nanosleep(&ts, NULL);
    }
    assert_int_equal(engine_tdr(a.adapter, 0), STATUS_SUCCESS);
    wait_engine_resets(before.engine_resets + 1);
    wddm_swgpu_set_paused(0);
    assert_int_equal(renv_counters().adapter_resets, before.adapter_resets);
    assert_int_equal(renv_exec_state(a.device), D3DKMT_DEVICEEXECUTION_HUNG);
    assert_int_equal(renv_exec_state(b.device), D3DKMT_DEVICEEXECUTION_ACTIVE);
    gpu_round_trip(&b, 9);
    close_second(&b);
    renv_close(&a);
}

/* rule: kernel.d3dkmtescape-d3dkmt-escape-tdrdbgctrl */
/* rule: kernel.d3dkmtescape-d3dkmt-escape-tdrdbgctrl-2 */
static void malformed_or_other_controls_are_refused(void **state)
{
    (void)state;
    struct renv a;
    renv_open(&a);
    D3DKMT_TDRDBGCTRLTYPE t = D3DKMT_TDRDBGCTRLTYPE_FORCETDR;
    assert_int_equal(escape(a.adapter, &t, sizeof t - 1), STATUS_INVALID_PARAMETER);
    assert_int_equal(escape(a.adapter, NULL, sizeof t), STATUS_INVALID_PARAMETER);
    assert_int_equal(escape(0, &t, sizeof t), STATUS_INVALID_PARAMETER);
    t = D3DKMT_TDRDBGCTRLTYPE_VSYNCTDR;
    assert_int_equal(escape(a.adapter, &t, sizeof t), STATUS_NOT_SUPPORTED);
    renv_expect_refusal("type 4 is not modelled");
    /* ENGINETDR names its node, one of the adapter's. */
    t = D3DKMT_TDRDBGCTRLTYPE_ENGINETDR;
    assert_int_equal(escape(a.adapter, &t, sizeof t), STATUS_INVALID_PARAMETER);
    renv_expect_refusal("ENGINETDR needs a D3DKMT_TDRDBGCTRL_ESCAPE");
    assert_int_equal(engine_tdr(a.adapter, 64), STATUS_INVALID_PARAMETER);
    renv_expect_refusal("NodeOrdinal 64 is not a node");
    D3DKMT_TDRDBGCTRL_ESCAPE r = { .TdrControl = D3DKMT_TDRDBGCTRLTYPE_ENGINETDR };
    assert_int_equal(escape(a.adapter, &r, sizeof r + 1), STATUS_INVALID_PARAMETER);
    /* Nothing happened to the device. */
    assert_int_equal(renv_exec_state(a.device), D3DKMT_DEVICEEXECUTION_ACTIVE);
    renv_close(&a);
}

int main(void)
{
    unsetenv("WDDM_KMD_CAPS");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(force_tdr_loses_every_device_reset_and_the_adapter_recovers),
        cmocka_unit_test(engine_tdr_on_an_idle_engine_resets_it_and_loses_nobody),
        cmocka_unit_test(engine_tdr_on_a_busy_engine_blames_the_packet_it_runs),
        cmocka_unit_test(malformed_or_other_controls_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
