/* Seed 001 §8: implicit synchronisation at pfnLockCb, observed from the API with the GPU
 * paused (include/wddm/swgpu.h), so the outcome does not depend on timing:
 *  - Map(READ) after Copy + Flush blocks until the copy retired, then returns the data;
 *  - D3D11_MAP_FLAG_DO_NOT_WAIT on a busy staging resource returns
 *    DXGI_ERROR_WAS_STILL_DRAWING at once, and succeeds once the GPU has finished;
 *  - Map(WRITE_DISCARD) of a busy DYNAMIC buffer never waits and does not disturb the data
 *    the GPU has yet to read (seed 001 §4.3 "should not stall on GPU reads"). */
#include "e2e/e2e.h"

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

enum { N = 64 * 1024 };

struct pair {
    ID3D11Buffer *def, *stg;
};

static struct pair make_pair(struct e2e *e, const uint8_t *data)
{
    struct pair p = {0};
    D3D11_BUFFER_DESC bd = {.ByteWidth = N, .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_VERTEX_BUFFER};
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, NULL, &p.def), S_OK);
    bd = (D3D11_BUFFER_DESC){.ByteWidth = N, .Usage = D3D11_USAGE_STAGING, .CPUAccessFlags = D3D11_CPU_ACCESS_READ};
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, NULL, &p.stg), S_OK);
    ID3D11DeviceContext_UpdateSubresource(e->ctx, (ID3D11Resource *)p.def, 0, NULL, data, 0, 0);
    /* Make both resident and idle before the GPU is paused. */
    D3D11_MAPPED_SUBRESOURCE m;
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)p.stg, (ID3D11Resource *)p.def);
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)p.stg, 0, D3D11_MAP_READ, 0, &m), S_OK);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)p.stg, 0);
    return p;
}

struct mapper {
    struct e2e *e;
    ID3D11Buffer *stg;
    HRESULT hr;
    uint8_t copy[N];
    atomic_int done;
};

/* A DYNAMIC vertex buffer of N bytes the CPU writes with Map(WRITE_DISCARD). */
static ID3D11Buffer *make_dynamic(struct e2e *e)
{
    ID3D11Buffer *dyn = NULL;
    D3D11_BUFFER_DESC bd = {.ByteWidth = N, .Usage = D3D11_USAGE_DYNAMIC, .BindFlags = D3D11_BIND_VERTEX_BUFFER,
                            .CPUAccessFlags = D3D11_CPU_ACCESS_WRITE};
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, NULL, &dyn), S_OK);
    return dyn;
}

static void *map_read_thread(void *arg)
{
    struct mapper *m = arg;
    D3D11_MAPPED_SUBRESOURCE ms;
    m->hr = ID3D11DeviceContext_Map(m->e->ctx, (ID3D11Resource *)m->stg, 0, D3D11_MAP_READ, 0, &ms);
    if (SUCCEEDED(m->hr)) {
        memcpy(m->copy, ms.pData, N);
        ID3D11DeviceContext_Unmap(m->e->ctx, (ID3D11Resource *)m->stg, 0);
    }
    atomic_store(&m->done, 1);
    return NULL;
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* rule: vidmm.lock-without-donotwait-blocks-until-last */
/* rule: e2e.map-after-copy-flush-blocks-until */
static void seed001_s8_map_read_blocks_until_copy_retired(void **state)
{
    struct e2e *e = *state;
    static uint8_t a[N], b[N];
    e2e_fill(a, N, 1);
    e2e_fill(b, N, 2);
    struct pair p = make_pair(e, a);

    wddm_swgpu_set_paused(1);
    ID3D11DeviceContext_UpdateSubresource(e->ctx, (ID3D11Resource *)p.def, 0, NULL, b, 0, 0);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)p.stg, (ID3D11Resource *)p.def);
    ID3D11DeviceContext_Flush(e->ctx);

    static struct mapper m;
    memset(&m, 0, sizeof m);
    m.e = e;
    m.stg = p.stg;
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, map_read_thread, &m), 0);
    /* The GPU is paused, so the copy cannot retire: the map must still be waiting. */
    sleep_ms(100);
    assert_int_equal(atomic_load(&m.done), 0);
    wddm_swgpu_set_paused(0);
    pthread_join(t, NULL);
    assert_int_equal(m.hr, S_OK);
    assert_memory_equal(m.copy, b, N); /* the copy's result, not the old content */
    SAFE_RELEASE(p.def);
    SAFE_RELEASE(p.stg);
}

/* rule: vidmm.donotwait-busy-allocation-status */
static void seed001_s8_do_not_wait_on_busy_staging_returns_was_still_drawing(void **state)
{
    struct e2e *e = *state;
    static uint8_t a[N], b[N];
    e2e_fill(a, N, 3);
    e2e_fill(b, N, 4);
    struct pair p = make_pair(e, a);

    wddm_swgpu_set_paused(1);
    ID3D11DeviceContext_UpdateSubresource(e->ctx, (ID3D11Resource *)p.def, 0, NULL, b, 0, 0);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)p.stg, (ID3D11Resource *)p.def);
    ID3D11DeviceContext_Flush(e->ctx);
    D3D11_MAPPED_SUBRESOURCE m;
    /* Returns at once while the GPU is paused (a blocking call would hang the test here). */
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)p.stg, 0, D3D11_MAP_READ,
                                             D3D11_MAP_FLAG_DO_NOT_WAIT, &m),
                     DXGI_ERROR_WAS_STILL_DRAWING);
    /* Nothing is mapped after the refusal: a second attempt is refused the same way. */
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)p.stg, 0, D3D11_MAP_READ,
                                             D3D11_MAP_FLAG_DO_NOT_WAIT, &m),
                     DXGI_ERROR_WAS_STILL_DRAWING);
    wddm_swgpu_set_paused(0);
    HRESULT hr;
    int tries = 0;
    while ((hr = ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)p.stg, 0, D3D11_MAP_READ,
                                         D3D11_MAP_FLAG_DO_NOT_WAIT, &m)) == DXGI_ERROR_WAS_STILL_DRAWING &&
           tries++ < 10000)
        sleep_ms(1);
    assert_int_equal(hr, S_OK);
    assert_memory_equal(m.pData, b, N);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)p.stg, 0);
    SAFE_RELEASE(p.def);
    SAFE_RELEASE(p.stg);
}

/* rule: vidmm.discard-busy-instance-renames-without */
static void seed001_s4_3_write_discard_on_busy_dynamic_never_waits(void **state)
{
    struct e2e *e = *state;
    static uint8_t a[N], b[N], zero[N];
    e2e_fill(a, N, 5);
    e2e_fill(b, N, 6);
    struct pair p1 = make_pair(e, zero), p2 = make_pair(e, zero);
    ID3D11Buffer *dyn = make_dynamic(e);

    wddm_swgpu_set_paused(1);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)dyn, 0, D3D11_MAP_WRITE_DISCARD, 0, &m), S_OK);
    memcpy(m.pData, a, N);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)dyn, 0);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)p1.def, (ID3D11Resource *)dyn);
    ID3D11DeviceContext_Flush(e->ctx);
    /* The copy above cannot run (GPU paused) and still reads `dyn`: the discard must hand out
     * other memory at once, or this call would hang. */
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)dyn, 0, D3D11_MAP_WRITE_DISCARD, 0, &m), S_OK);
    memcpy(m.pData, b, N);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)dyn, 0);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)p2.def, (ID3D11Resource *)dyn);
    wddm_swgpu_set_paused(0);

    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)p1.stg, (ID3D11Resource *)p1.def);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)p2.stg, (ID3D11Resource *)p2.def);
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)p1.stg, 0, D3D11_MAP_READ, 0, &m), S_OK);
    assert_memory_equal(m.pData, a, N); /* the first copy saw the first write, not the second */
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)p1.stg, 0);
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)p2.stg, 0, D3D11_MAP_READ, 0, &m), S_OK);
    assert_memory_equal(m.pData, b, N);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)p2.stg, 0);
    SAFE_RELEASE(dyn);
    SAFE_RELEASE(p1.def);
    SAFE_RELEASE(p1.stg);
    SAFE_RELEASE(p2.def);
    SAFE_RELEASE(p2.stg);
}

/* docs/semantics.md §3.3, pfnLockCb remarks: WRITE_DISCARDs with copies between them and no Flush
 * (the UMD does not submit before a Discard lock; each copy names the instance its Map
 * returned). The GPU is paused, so no map may wait; every copy must still see its own write. */
/* rule: umd.except-discard-lock-no-flush-queued (GPU paused: no map waits; 6 copies read back right) */
static void discards_between_unsubmitted_copies_keep_every_copy_s_data(void **state)
{
    struct e2e *e = *state;
    enum { K = 6 };
    static uint8_t data[K][N], zero[N];
    struct pair p[K];
    for (int k = 0; k < K; k++) {
        e2e_fill(data[k], N, 40u + (uint32_t)k);
        p[k] = make_pair(e, zero);
    }
    ID3D11Buffer *dyn = make_dynamic(e);
    wddm_swgpu_set_paused(1);
    D3D11_MAPPED_SUBRESOURCE m;
    for (int k = 0; k < K; k++) {
        assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)dyn, 0, D3D11_MAP_WRITE_DISCARD, 0, &m), S_OK);
        memcpy(m.pData, data[k], N);
        ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)dyn, 0);
        ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)p[k].def, (ID3D11Resource *)dyn);
    }
    wddm_swgpu_set_paused(0);
    for (int k = 0; k < K; k++)
        ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)p[k].stg, (ID3D11Resource *)p[k].def);
    for (int k = 0; k < K; k++) {
        assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)p[k].stg, 0, D3D11_MAP_READ, 0, &m), S_OK);
        assert_memory_equal(m.pData, data[k], N);
        ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)p[k].stg, 0);
    }
    SAFE_RELEASE(dyn);
    for (int k = 0; k < K; k++) {
        SAFE_RELEASE(p[k].def);
        SAFE_RELEASE(p[k].stg);
    }
}

/* The device lives as long as anything references it (COM rules, issue 2). */
/* rule: runtime.children-hold-device-device-destroyed */
static void device_outlives_its_last_reference(void **state)
{
    struct e2e *e = *state;
    ID3D11Buffer *b = NULL;
    D3D11_BUFFER_DESC bd = {.ByteWidth = 16, .Usage = D3D11_USAGE_STAGING, .CPUAccessFlags = D3D11_CPU_ACCESS_WRITE};
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, NULL, &b), S_OK);
    SAFE_RELEASE(e->ctx);
    SAFE_RELEASE(e->dev);
    ID3D11Device *dev = NULL;
    ID3D11Buffer_GetDevice(b, &dev);
    assert_non_null(dev);
    ID3D11DeviceContext *ctx = NULL;
    ID3D11Device_GetImmediateContext(dev, &ctx);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(ctx, (ID3D11Resource *)b, 0, D3D11_MAP_WRITE, 0, &m), S_OK);
    memset(m.pData, 7, 16);
    ID3D11DeviceContext_Unmap(ctx, (ID3D11Resource *)b, 0);
    ID3D11DeviceContext_Release(ctx);
    ID3D11Device_Release(dev);
    ID3D11Buffer_Release(b); /* the last reference: the device goes with it (ASan checks leaks) */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(seed001_s8_map_read_blocks_until_copy_retired, e2e_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(seed001_s8_do_not_wait_on_busy_staging_returns_was_still_drawing, e2e_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(seed001_s4_3_write_discard_on_busy_dynamic_never_waits, e2e_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(discards_between_unsubmitted_copies_keep_every_copy_s_data, e2e_setup,
                                        e2e_teardown),
        cmocka_unit_test_setup_teardown(device_outlives_its_last_reference, e2e_setup, e2e_teardown),
    };
    return cmocka_run_group_tests_name("e2e.staging_sync", tests, NULL, NULL);
}
