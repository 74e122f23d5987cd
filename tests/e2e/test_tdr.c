/* Timeout detection and recovery end to end (issue 4 "TDR"; docs/semantics.md §8.3): a DMA buffer
 * of device A hangs on the software GPU (wddm_swgpu_inject_hang, include/wddm/swgpu.h); after
 * the TDR delay the kernel resets the engine through the KMD and puts A in error (HUNG). Then:
 *  - the Map(READ) that waited for A's copy returns DXGI_ERROR_DEVICE_REMOVED, creation on A
 *    fails with the same code, A's GetDeviceRemovedReason is DXGI_ERROR_DEVICE_HUNG (the runtime
 *    asks D3DKMTGetDeviceState, src/runtime/device.c);
 *  - device B, which shares the GPU, loses nothing: its data is intact, it keeps working, its
 *    GetDeviceRemovedReason is S_OK;
 *  - releasing everything of the lost device neither crashes nor leaks (ASan build);
 *  - an event query ended after the hang answers DXGI_ERROR_DEVICE_REMOVED, not S_FALSE forever;
 *  - GetDeviceRemovedReason reports the hang even before any call of the device failed.
 *
 * WDDM_TDR_DELAY_MS=200 (main) keeps each recovery short; the kernel reads it when the adapter
 * starts, i.e. at the first device. Every case builds its own pair of devices: one process runs
 * the whole file, and a lost device is never reused. No timing is asserted: that the Map was
 * answered by the recovery is read from the reset counters, and the only bound (RECOVERY_POLLS)
 * is a liveness guard against "S_FALSE forever". */
/* rule: kernel.lost-device-d3dkmtrender-d3dkmtlock */
/* rule: kernel.d3dkmtgetdevicestate-answers-d3dkmt (all three cases, through GetDeviceRemovedReason) */
/* rule: runtime.getdeviceremovedreason-comes-kernel-when (HUNG through the real stack) */
/* rule: runtime.getdeviceremovedreason-asks-kernel-while (B stays S_OK) */
#include "e2e/e2e.h"

#include <time.h>

#include <wddm/wddm.h>

enum { N = 64 * 1024, RECOVERY_POLLS = 60000 /* x 1 ms: a guard, far above the 200 ms delay */ };

static void sleep_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

struct dev {
    ID3D11Device *dev;
    ID3D11DeviceContext *ctx;
};

static void dev_create(struct dev *d)
{
    memset(d, 0, sizeof *d);
    assert_int_equal(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &d->dev,
                                       NULL, &d->ctx),
                     S_OK);
}

/* Releases the immediate context and the device; the device must be gone (every child of it
 * released before: a leak on the lost device shows up here, and in ASan's leak check). */
static void dev_release(struct dev *d)
{
    SAFE_RELEASE(d->ctx);
    if (d->dev) {
        assert_int_equal(ID3D11Device_Release(d->dev), 0);
        d->dev = NULL;
    }
}

/* A DEFAULT buffer holding `data` and a READ staging buffer, both resident and idle (one full
 * copy + Map round trip), so nothing of the device is pending when a hang is armed. */
struct pair {
    ID3D11Buffer *def, *stg;
};

static void check_copy(struct dev *d, struct pair *p, const uint8_t *expect)
{
    D3D11_MAPPED_SUBRESOURCE m;
    ID3D11DeviceContext_CopyResource(d->ctx, (ID3D11Resource *)p->stg, (ID3D11Resource *)p->def);
    assert_int_equal(ID3D11DeviceContext_Map(d->ctx, (ID3D11Resource *)p->stg, 0, D3D11_MAP_READ, 0, &m), S_OK);
    assert_memory_equal(m.pData, expect, N);
    ID3D11DeviceContext_Unmap(d->ctx, (ID3D11Resource *)p->stg, 0);
}

static struct pair make_pair(struct dev *d, const uint8_t *data)
{
    struct pair p = { 0 };
    D3D11_BUFFER_DESC bd = { .ByteWidth = N, .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_VERTEX_BUFFER };
    assert_int_equal(ID3D11Device_CreateBuffer(d->dev, &bd, NULL, &p.def), S_OK);
    bd = (D3D11_BUFFER_DESC){ .ByteWidth = N, .Usage = D3D11_USAGE_STAGING, .CPUAccessFlags = D3D11_CPU_ACCESS_READ };
    assert_int_equal(ID3D11Device_CreateBuffer(d->dev, &bd, NULL, &p.stg), S_OK);
    ID3D11DeviceContext_UpdateSubresource(d->ctx, (ID3D11Resource *)p.def, 0, NULL, data, 0, 0);
    check_copy(d, &p, data);
    return p;
}

static void release_pair(struct pair *p)
{
    SAFE_RELEASE(p->def);
    SAFE_RELEASE(p->stg);
}

static UINT64 resets(void)
{
    struct wddm_counters c;
    assert_int_equal(wddm_get_counters(&c), STATUS_SUCCESS);
    return c.engine_resets + c.adapter_resets;
}

/* The recovery reset the engine (or the adapter) since the count r0 was read. The kernel puts
 * the guilty device in error before it resets (sched/tdr.c), so a caller can see its device
 * lost a moment before the counter moves: wait for it, bounded by the liveness guard only. */
static void assert_reset_since(UINT64 r0)
{
    for (int i = 0; i < RECOVERY_POLLS && resets() <= r0; i++)
        sleep_ms(1);
    assert_true(resets() > r0);
}

/* Arms the hang and makes A's next DMA buffer (a copy into its staging buffer, submitted by
 * the Map) the hung one; the Map waits for that copy, so it returns only after the recovery:
 * DXGI_ERROR_DEVICE_REMOVED. */
static void hang_a_with_blocked_map(struct dev *a, struct pair *pa)
{
    UINT64 r0 = resets();
    wddm_swgpu_inject_hang();
    ID3D11DeviceContext_CopyResource(a->ctx, (ID3D11Resource *)pa->stg, (ID3D11Resource *)pa->def);
    D3D11_MAPPED_SUBRESOURCE m = { .pData = (void *)1 };
    assert_int_equal(ID3D11DeviceContext_Map(a->ctx, (ID3D11Resource *)pa->stg, 0, D3D11_MAP_READ, 0, &m),
                     DXGI_ERROR_DEVICE_REMOVED);
    /* Answered by the recovery: an engine (or adapter) reset happened. */
    assert_reset_since(r0);
    /* A failed Map maps nothing: Unmap is refused by the runtime, not passed to the UMD. */
    ID3D11DeviceContext_Unmap(a->ctx, (ID3D11Resource *)pa->stg, 0);
}

/* (a) The guilty device is removed with DXGI_ERROR_DEVICE_HUNG; the other one loses nothing. */
/* rule: runtime.tdr-end-end-hung-dma-buffer */
static void tdr_hung_device_removed_other_device_keeps_its_data_and_works(void **state)
{
    (void)state;
    static uint8_t da[N], db[N], db2[N];
    e2e_fill(da, N, 1);
    e2e_fill(db, N, 2);
    e2e_fill(db2, N, 3);
    struct dev a, b;
    dev_create(&a);
    dev_create(&b);
    struct pair pa = make_pair(&a, da);
    struct pair pb = make_pair(&b, db); /* B uploaded and copied, all retired before the hang */

    hang_a_with_blocked_map(&a, &pa);

    assert_int_equal(ID3D11Device_GetDeviceRemovedReason(a.dev), DXGI_ERROR_DEVICE_HUNG);
    /* Creation on the lost device fails with DXGI_ERROR_DEVICE_REMOVED from now on. */
    ID3D11Buffer *buf = NULL;
    D3D11_BUFFER_DESC bd = { .ByteWidth = 256, .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_VERTEX_BUFFER };
    assert_int_equal(ID3D11Device_CreateBuffer(a.dev, &bd, NULL, &buf), DXGI_ERROR_DEVICE_REMOVED);
    assert_null(buf);
    D3D11_QUERY_DESC qd = { .Query = D3D11_QUERY_EVENT };
    ID3D11Query *q = NULL;
    assert_int_equal(ID3D11Device_CreateQuery(a.dev, &qd, &q), DXGI_ERROR_DEVICE_REMOVED);
    assert_null(q);
    /* Void methods are no-ops; Map keeps failing; the reason stays HUNG. */
    ID3D11DeviceContext_CopyResource(a.ctx, (ID3D11Resource *)pa.stg, (ID3D11Resource *)pa.def);
    ID3D11DeviceContext_Flush(a.ctx);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(a.ctx, (ID3D11Resource *)pa.stg, 0, D3D11_MAP_READ, 0, &m),
                     DXGI_ERROR_DEVICE_REMOVED);
    assert_int_equal(ID3D11Device_GetDeviceRemovedReason(a.dev), DXGI_ERROR_DEVICE_HUNG);

    /* B: not lost, the data written before the hang intact, and new work runs correctly. */
    assert_int_equal(ID3D11Device_GetDeviceRemovedReason(b.dev), S_OK);
    assert_int_equal(ID3D11DeviceContext_Map(b.ctx, (ID3D11Resource *)pb.stg, 0, D3D11_MAP_READ, 0, &m), S_OK);
    assert_memory_equal(m.pData, db, N);
    ID3D11DeviceContext_Unmap(b.ctx, (ID3D11Resource *)pb.stg, 0);
    check_copy(&b, &pb, db); /* the DEFAULT buffer (GPU-only memory) kept it too */
    ID3D11DeviceContext_UpdateSubresource(b.ctx, (ID3D11Resource *)pb.def, 0, NULL, db2, 0, 0);
    check_copy(&b, &pb, db2);
    assert_int_equal(ID3D11Device_GetDeviceRemovedReason(b.dev), S_OK);

    release_pair(&pa);
    release_pair(&pb);
    dev_release(&a);
    dev_release(&b);
}

/* (b) Every kind of object of the lost device is released without a crash or a leak: buffers
 * (one still mapped when the device was lost), a texture and its view, a query, a deferred
 * context and a command list recorded before the hang. */
/* rule: runtime.everything-device-lost-tdr-releases (ASan build for leaks) */
static void tdr_release_of_everything_on_the_lost_device_is_clean(void **state)
{
    (void)state;
    static uint8_t da[N], db[N];
    e2e_fill(da, N, 4);
    e2e_fill(db, N, 5);
    struct dev a, b;
    dev_create(&a);
    dev_create(&b);
    struct pair pa = make_pair(&a, da);
    struct pair pb = make_pair(&b, db);

    D3D11_BUFFER_DESC bd = { .ByteWidth = 4096, .Usage = D3D11_USAGE_DYNAMIC, .BindFlags = D3D11_BIND_VERTEX_BUFFER,
                             .CPUAccessFlags = D3D11_CPU_ACCESS_WRITE };
    ID3D11Buffer *dyn = NULL;
    assert_int_equal(ID3D11Device_CreateBuffer(a.dev, &bd, NULL, &dyn), S_OK);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(a.ctx, (ID3D11Resource *)dyn, 0, D3D11_MAP_WRITE_DISCARD, 0, &m), S_OK);
    memset(m.pData, 0x5a, 4096); /* left mapped across the loss */

    D3D11_TEXTURE2D_DESC td = { 64, 64, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, { 1, 0 }, D3D11_USAGE_DEFAULT,
                                D3D11_BIND_RENDER_TARGET, 0, 0 };
    ID3D11Texture2D *tex = NULL;
    assert_int_equal(ID3D11Device_CreateTexture2D(a.dev, &td, NULL, &tex), S_OK);
    ID3D11RenderTargetView *rtv = NULL;
    assert_int_equal(ID3D11Device_CreateRenderTargetView(a.dev, (ID3D11Resource *)tex, NULL, &rtv), S_OK);
    D3D11_QUERY_DESC qd = { .Query = D3D11_QUERY_EVENT };
    ID3D11Query *q = NULL;
    assert_int_equal(ID3D11Device_CreateQuery(a.dev, &qd, &q), S_OK);
    ID3D11DeviceContext *dc = NULL;
    assert_int_equal(ID3D11Device_CreateDeferredContext(a.dev, 0, &dc), S_OK);
    ID3D11DeviceContext_CopyResource(dc, (ID3D11Resource *)pa.stg, (ID3D11Resource *)pa.def);
    ID3D11CommandList *cl = NULL;
    assert_int_equal(ID3D11DeviceContext_FinishCommandList(dc, FALSE, &cl), S_OK);

    hang_a_with_blocked_map(&a, &pa);
    assert_int_equal(ID3D11Device_GetDeviceRemovedReason(a.dev), DXGI_ERROR_DEVICE_HUNG);

    /* After the loss: the command list's execution is a no-op, recording on the deferred
     * context goes nowhere, and FinishCommandList fails with DXGI_ERROR_DEVICE_REMOVED. */
    ID3D11DeviceContext_ExecuteCommandList(a.ctx, cl, FALSE);
    ID3D11DeviceContext_CopyResource(dc, (ID3D11Resource *)pa.stg, (ID3D11Resource *)pa.def);
    ID3D11CommandList *cl2 = NULL;
    assert_int_equal(ID3D11DeviceContext_FinishCommandList(dc, FALSE, &cl2), DXGI_ERROR_DEVICE_REMOVED);
    assert_null(cl2);

    /* Release in an unfriendly order: the mapped buffer without Unmap, the resource before its
     * view, the device's children before and after the immediate context. */
    SAFE_RELEASE(dyn);
    SAFE_RELEASE(tex);
    SAFE_RELEASE(cl);
    SAFE_RELEASE(q);
    SAFE_RELEASE(a.ctx);
    SAFE_RELEASE(dc);
    SAFE_RELEASE(rtv);
    release_pair(&pa);
    dev_release(&a); /* asserts the device itself is gone */

    /* B unaffected by A's teardown. */
    check_copy(&b, &pb, db);
    assert_int_equal(ID3D11Device_GetDeviceRemovedReason(b.dev), S_OK);
    release_pair(&pb);
    dev_release(&b);
}

/* (c) An event query ended after the hang (its write is in the hung DMA buffer) answers
 * DXGI_ERROR_DEVICE_REMOVED once the recovery ran, never S_FALSE forever. */
/* rule: runtime.event-query-ended-hung-dma-buffer */
static void tdr_event_query_after_the_hang_answers_device_removed(void **state)
{
    (void)state;
    static uint8_t da[N], db[N];
    e2e_fill(da, N, 6);
    e2e_fill(db, N, 7);
    struct dev a, b;
    dev_create(&a);
    dev_create(&b);
    struct pair pa = make_pair(&a, da);
    struct pair pb = make_pair(&b, db);
    D3D11_QUERY_DESC qd = { .Query = D3D11_QUERY_EVENT };
    ID3D11Query *q = NULL;
    assert_int_equal(ID3D11Device_CreateQuery(a.dev, &qd, &q), S_OK);
    /* Warm: the query's allocation resident and written once, so no creation work is pending. */
    ID3D11DeviceContext_End(a.ctx, (ID3D11Asynchronous *)q);
    HRESULT hr = S_FALSE;
    for (int i = 0; i < RECOVERY_POLLS && hr == S_FALSE; i++) {
        hr = ID3D11DeviceContext_GetData(a.ctx, (ID3D11Asynchronous *)q, NULL, 0, 0);
        if (hr == S_FALSE)
            sleep_ms(1);
    }
    assert_int_equal(hr, S_OK);

    UINT64 r0 = resets();
    wddm_swgpu_inject_hang();
    ID3D11DeviceContext_CopyResource(a.ctx, (ID3D11Resource *)pa.stg, (ID3D11Resource *)pa.def);
    ID3D11DeviceContext_End(a.ctx, (ID3D11Asynchronous *)q);
    ID3D11DeviceContext_Flush(a.ctx); /* the copy and the End: the hung DMA buffer */
    BOOL done = 7;
    hr = S_FALSE;
    int polls = 0;
    for (; polls < RECOVERY_POLLS && hr == S_FALSE; polls++) {
        hr = ID3D11DeviceContext_GetData(a.ctx, (ID3D11Asynchronous *)q, &done, sizeof done, 0);
        if (hr == S_FALSE)
            sleep_ms(1);
    }
    assert_int_equal(hr, DXGI_ERROR_DEVICE_REMOVED); /* S_FALSE here: "S_FALSE forever" */
    assert_int_equal(done, 7);                       /* a failed GetData writes nothing */
    assert_reset_since(r0);
    assert_int_equal(ID3D11Device_GetDeviceRemovedReason(a.dev), DXGI_ERROR_DEVICE_HUNG);
    /* It stays so, with or without DONOTFLUSH. */
    assert_int_equal(ID3D11DeviceContext_GetData(a.ctx, (ID3D11Asynchronous *)q, NULL, 0, 0),
                     DXGI_ERROR_DEVICE_REMOVED);
    assert_int_equal(ID3D11DeviceContext_GetData(a.ctx, (ID3D11Asynchronous *)q, NULL, 0,
                                                 D3D11_ASYNC_GETDATA_DONOTFLUSH),
                     DXGI_ERROR_DEVICE_REMOVED);

    /* B keeps answering its own queries. */
    ID3D11Query *qb = NULL;
    assert_int_equal(ID3D11Device_CreateQuery(b.dev, &qd, &qb), S_OK);
    ID3D11DeviceContext_CopyResource(b.ctx, (ID3D11Resource *)pb.stg, (ID3D11Resource *)pb.def);
    ID3D11DeviceContext_End(b.ctx, (ID3D11Asynchronous *)qb);
    hr = S_FALSE;
    for (int i = 0; i < RECOVERY_POLLS && hr == S_FALSE; i++) {
        hr = ID3D11DeviceContext_GetData(b.ctx, (ID3D11Asynchronous *)qb, &done, sizeof done, 0);
        if (hr == S_FALSE)
            sleep_ms(1);
    }
    assert_int_equal(hr, S_OK);
    assert_true(done == TRUE);
    check_copy(&b, &pb, db);
    assert_int_equal(ID3D11Device_GetDeviceRemovedReason(b.dev), S_OK);

    SAFE_RELEASE(qb);
    SAFE_RELEASE(q);
    release_pair(&pa);
    release_pair(&pb);
    dev_release(&a);
    dev_release(&b);
}

/* (d) A device lost in the kernel is removed at the API even before one of its calls failed:
 * GetDeviceRemovedReason asks the kernel (src/runtime/device.c) and turns HUNG once the
 * recovery put the device in error; creation fails from then on. */
static void tdr_removed_reason_reports_the_hang_before_any_call_failed(void **state)
{
    (void)state;
    static uint8_t da[N], db[N];
    e2e_fill(da, N, 8);
    e2e_fill(db, N, 9);
    struct dev a, b;
    dev_create(&a);
    dev_create(&b);
    struct pair pa = make_pair(&a, da);
    struct pair pb = make_pair(&b, db);
    UINT64 r0 = resets();
    wddm_swgpu_inject_hang();
    ID3D11DeviceContext_CopyResource(a.ctx, (ID3D11Resource *)pa.stg, (ID3D11Resource *)pa.def);
    ID3D11DeviceContext_Flush(a.ctx); /* the hung DMA buffer; nothing of A waits for it */
    HRESULT hr = S_OK;
    for (int i = 0; i < RECOVERY_POLLS && hr == S_OK; i++) {
        hr = ID3D11Device_GetDeviceRemovedReason(a.dev);
        if (hr == S_OK)
            sleep_ms(1);
    }
    assert_int_equal(hr, DXGI_ERROR_DEVICE_HUNG);
    assert_reset_since(r0);
    ID3D11Buffer *buf = NULL;
    D3D11_BUFFER_DESC bd = { .ByteWidth = 256, .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_VERTEX_BUFFER };
    assert_int_equal(ID3D11Device_CreateBuffer(a.dev, &bd, NULL, &buf), DXGI_ERROR_DEVICE_REMOVED);
    assert_null(buf);
    assert_int_equal(ID3D11Device_GetDeviceRemovedReason(b.dev), S_OK);
    check_copy(&b, &pb, db);
    release_pair(&pa);
    release_pair(&pb);
    dev_release(&a);
    dev_release(&b);
}

int main(void)
{
    /* Before the first device: the kernel reads it when the adapter starts (default 2000 ms). */
    setenv("WDDM_TDR_DELAY_MS", "200", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tdr_hung_device_removed_other_device_keeps_its_data_and_works),
        cmocka_unit_test(tdr_release_of_everything_on_the_lost_device_is_clean),
        cmocka_unit_test(tdr_event_query_after_the_hang_answers_device_removed),
        cmocka_unit_test(tdr_removed_reason_reports_the_hang_before_any_call_failed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
