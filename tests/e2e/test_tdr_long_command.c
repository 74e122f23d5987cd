/* Timeout detection and recovery of one long command, end to end (issue 14 §4; docs/semantics.md
 * §8.3). Device A copies 1 MiB through a GPU slowed to 4 KiB/s (wddm_swgpu_set_bandwidth): one
 * COPY command that would run for over four minutes, far past WDDM_TDR_DELAY_MS (200 ms here).
 * Device B has a copy queued behind it on the same engine. The kernel's watchdog sees no
 * progress (an unfinished command is none), the KMD's DxgkDdiResetEngine resets the engine, and
 * the engine leaves the command in the middle (src/gpu/exec.c looks for a reset every MiB and
 * inside the bandwidth wait). Then:
 *  - A's Map(READ) that waited for its copy returns DXGI_ERROR_DEVICE_REMOVED and A's
 *    GetDeviceRemovedReason is DXGI_ERROR_DEVICE_HUNG (as tests/e2e/test_tdr.c for a hang);
 *  - B's queued copy is resubmitted and lands with the right bytes; B keeps working (S_OK).
 * Runs in both driver models (scripts/test.sh sets WDDM_KMD_CAPS for GpuMmu).
 * Bounded: a watchdog ends the process with a failure after BOUND_S seconds — without the
 * in-command check the reset never returns and the Map would wait for minutes. */
#include "e2e/e2e.h"
#include "watchdog.h"

#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include <wddm/wddm.h>

/* B's copy is small enough to finish well within the TDR delay even at the slowed rate (its
 * resubmission may start before the test lifts the limit): 256 B at 4 KiB/s = 62 ms. */
enum { N = 1 << 20, SMALL = 256, BOUND_S = 60 };

struct dev {
    ID3D11Device *dev;
    ID3D11DeviceContext *ctx;
    ID3D11Buffer *def, *stg;
};

static void dev_create(struct dev *d, const uint8_t *data, UINT bytes)
{
    memset(d, 0, sizeof *d);
    assert_int_equal(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &d->dev,
                                       NULL, &d->ctx),
                     S_OK);
    D3D11_BUFFER_DESC bd = { .ByteWidth = bytes, .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_VERTEX_BUFFER };
    D3D11_SUBRESOURCE_DATA sd = { data, 0, 0 };
    assert_int_equal(ID3D11Device_CreateBuffer(d->dev, &bd, &sd, &d->def), S_OK);
    bd = (D3D11_BUFFER_DESC){ .ByteWidth = bytes, .Usage = D3D11_USAGE_STAGING, .CPUAccessFlags = D3D11_CPU_ACCESS_READ };
    assert_int_equal(ID3D11Device_CreateBuffer(d->dev, &bd, NULL, &d->stg), S_OK);
}

static HRESULT map_and_compare(struct dev *d, const uint8_t *expect, UINT bytes)
{
    D3D11_MAPPED_SUBRESOURCE m;
    HRESULT hr = ID3D11DeviceContext_Map(d->ctx, (ID3D11Resource *)d->stg, 0, D3D11_MAP_READ, 0, &m);
    if (hr == S_OK) {
        assert_memory_equal(m.pData, expect, bytes);
        ID3D11DeviceContext_Unmap(d->ctx, (ID3D11Resource *)d->stg, 0);
    }
    return hr;
}

static void dev_release(struct dev *d)
{
    SAFE_RELEASE(d->def);
    SAFE_RELEASE(d->stg);
    SAFE_RELEASE(d->ctx);
    if (d->dev) {
        assert_int_equal(ID3D11Device_Release(d->dev), 0);
        d->dev = NULL;
    }
}

static UINT64 resets(void)
{
    struct wddm_counters c;
    assert_int_equal(wddm_get_counters(&c), STATUS_SUCCESS);
    return c.engine_resets + c.adapter_resets;
}

/* rule: sched.tdr-through-whole-stack-ends-single (WDDM_TDR_DELAY_MS=200; mutation-checked: without the in-command check and the interruptible bandwidth wait, its 60 s watchdog fails it) */
static void tdr_ends_a_copy_slowed_to_minutes_and_the_other_device_keeps_its_work(void **state)
{
    (void)state;
    static uint8_t da[N], db[SMALL];
    e2e_fill(da, N, 41);
    e2e_fill(db, SMALL, 42);
    struct dev a, b;
    dev_create(&a, da, N);
    dev_create(&b, db, SMALL);
    /* Both resident and idle: one full round trip each before the GPU is slowed. */
    ID3D11DeviceContext_CopyResource(a.ctx, (ID3D11Resource *)a.stg, (ID3D11Resource *)a.def);
    assert_int_equal(map_and_compare(&a, da, N), S_OK);
    ID3D11DeviceContext_CopyResource(b.ctx, (ID3D11Resource *)b.stg, (ID3D11Resource *)b.def);
    assert_int_equal(map_and_compare(&b, db, SMALL), S_OK);

    assert_int_equal(watchdog_start("the recovery ending the long command (the engine does not look for a reset "
                                    "inside a command)", BOUND_S), 0);
    UINT64 r0 = resets();
    wddm_swgpu_set_bandwidth(4096); /* 1 MiB: 256 s */
    ID3D11DeviceContext_CopyResource(a.ctx, (ID3D11Resource *)a.stg, (ID3D11Resource *)a.def);
    ID3D11DeviceContext_Flush(a.ctx);
    ID3D11DeviceContext_CopyResource(b.ctx, (ID3D11Resource *)b.stg, (ID3D11Resource *)b.def);
    ID3D11DeviceContext_Flush(b.ctx);
    /* Waits for A's copy: only the recovery answers it. */
    assert_int_equal(map_and_compare(&a, da, N), DXGI_ERROR_DEVICE_REMOVED);
    wddm_swgpu_set_bandwidth(0);
    /* The guilty device is lost before the engine is reset (sched/tdr.c): the counter moves
     * a moment after the Map returned (the watchdog bounds this wait). */
    while (resets() <= r0) {
        struct timespec ms = { 0, 1000000L };
        nanosleep(&ms, NULL);
    }
    watchdog_stop();

    assert_int_equal(ID3D11Device_GetDeviceRemovedReason(a.dev), DXGI_ERROR_DEVICE_HUNG);
    /* B: its queued copy ran after the reset with the right bytes, and it keeps working. */
    assert_int_equal(map_and_compare(&b, db, SMALL), S_OK);
    assert_int_equal(ID3D11Device_GetDeviceRemovedReason(b.dev), S_OK);
    static uint8_t db2[SMALL];
    e2e_fill(db2, SMALL, 43);
    ID3D11DeviceContext_UpdateSubresource(b.ctx, (ID3D11Resource *)b.def, 0, NULL, db2, 0, 0);
    ID3D11DeviceContext_CopyResource(b.ctx, (ID3D11Resource *)b.stg, (ID3D11Resource *)b.def);
    assert_int_equal(map_and_compare(&b, db2, SMALL), S_OK);
    dev_release(&a);
    dev_release(&b);
}

static int teardown(void **state)
{
    (void)state;
    wddm_swgpu_set_bandwidth(0);
    return 0;
}

int main(void)
{
    /* Read by the kernel when the adapter starts (the first device). */
    setenv("WDDM_TDR_DELAY_MS", "200", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(tdr_ends_a_copy_slowed_to_minutes_and_the_other_device_keeps_its_work, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
