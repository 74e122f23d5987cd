/* D3D11_QUERY_EVENT end to end (issue 4 "D3D11_QUERY_EVENT on top"; docs/rules/sched.md):
 * CreateQuery -> End -> GetData through the runtime, the UMD (a GPU WRITE of a
 * sequence number, read back with a DonotWait lock), the kernel and the software GPU. The GPU
 * is paused (include/wddm/swgpu.h) wherever the outcome would otherwise depend on timing. */
/* rule: runtime.ddi-d3d10ddiarg-createquery (all) */
/* rule: umd.command-lists-resolve-va-resource (`scripts/test.sh`) */
/* rule: umd.event-queries-gpummu-model-end-write (GpuMmu run) */
/* rule: runtime.d3d11-query-timestamp-d3d11-query (**changed**: its "every other type is refused" loop skips the two) */
#include "e2e/e2e.h"

#include <time.h>

enum { N = 16 * 1024, SPIN_MAX = 200000 };

static void sleep_us(long us)
{
    struct timespec ts = { us / 1000000, (us % 1000000) * 1000L };
    nanosleep(&ts, NULL);
}

static ID3D11Query *make_event(struct e2e *e)
{
    D3D11_QUERY_DESC qd = { .Query = D3D11_QUERY_EVENT };
    ID3D11Query *q = NULL;
    assert_int_equal(ID3D11Device_CreateQuery(e->dev, &qd, &q), S_OK);
    assert_non_null(q);
    return q;
}

/* Poll GetData (without DONOTFLUSH) until S_OK; fails if it never completes. */
static void spin_until_done(struct e2e *e, ID3D11Query *q)
{
    BOOL done = FALSE;
    HRESULT hr = S_FALSE;
    for (int i = 0; i < SPIN_MAX && hr == S_FALSE; i++) {
        hr = ID3D11DeviceContext_GetData(e->ctx, (ID3D11Asynchronous *)q, &done, sizeof done, 0);
        if (hr == S_FALSE)
            sleep_us(50);
    }
    assert_int_equal(hr, S_OK);
    assert_true(done == TRUE);
}

/* The query's allocation resident and idle before the GPU is paused (as make_pair in
 * test_staging_sync.c does for resources). */
static void warm(struct e2e *e, ID3D11Query *q)
{
    ID3D11DeviceContext_End(e->ctx, (ID3D11Asynchronous *)q);
    spin_until_done(e, q);
}

/* rule: runtime.getdata-s-false-while-command-issued */
static void query_event_getdata_false_while_gpu_paused_true_after_resume(void **state)
{
    struct e2e *e = *state;
    ID3D11Query *q = make_event(e);
    warm(e, q);
    wddm_swgpu_set_paused(1);
    ID3D11DeviceContext_End(e->ctx, (ID3D11Asynchronous *)q);
    BOOL done = 7;
    /* Without DONOTFLUSH GetData submits the End, but the paused GPU cannot run it. */
    for (int i = 0; i < 3; i++)
        assert_int_equal(ID3D11DeviceContext_GetData(e->ctx, (ID3D11Asynchronous *)q, &done, sizeof done, 0), S_FALSE);
    assert_int_equal(done, 7); /* S_FALSE leaves pData alone */
    assert_int_equal(ID3D11DeviceContext_GetData(e->ctx, (ID3D11Asynchronous *)q, NULL, 0, 0), S_FALSE);
    wddm_swgpu_set_paused(0);
    spin_until_done(e, q);
    assert_int_equal(ID3D11DeviceContext_GetData(e->ctx, (ID3D11Asynchronous *)q, NULL, 0, 0), S_OK);
    SAFE_RELEASE(q);
}

/* rule: umd.without-d3d11-async-getdata-donotflush (GPU DMA-buffer count unchanged) */
static void query_event_donotflush_does_not_submit_an_unflushed_end(void **state)
{
    struct e2e *e = *state;
    ID3D11Query *q = make_event(e);
    warm(e, q);
    struct wddm_swgpu_stats s0, s1;
    wddm_swgpu_get_stats(&s0);
    ID3D11DeviceContext_End(e->ctx, (ID3D11Asynchronous *)q); /* queued, not submitted */
    BOOL done = FALSE;
    for (int i = 0; i < 20; i++) {
        assert_int_equal(ID3D11DeviceContext_GetData(e->ctx, (ID3D11Asynchronous *)q, &done, sizeof done,
                                                     D3D11_ASYNC_GETDATA_DONOTFLUSH),
                         S_FALSE);
        sleep_us(1000); /* a running GPU had time to run it, had it been submitted */
    }
    wddm_swgpu_get_stats(&s1);
    assert_int_equal(s1.dma_buffers_executed, s0.dma_buffers_executed); /* nothing reached the GPU */
    spin_until_done(e, q); /* without the flag GetData flushes: the spin terminates */
    SAFE_RELEASE(q);
}

/* rule: runtime.id3d11device-createquery-only-d3d11 */
/* rule: runtime.id3d11query-id3d11asynchronous */
/* rule: runtime.getdata-datasize-must-0-sizeof-pdata */
/* rule: runtime.deferred-contexts-getdata-dxgi-error */
/* rule: sched.getdata-never-ended-invalid-call */
static void query_event_invalid_types_sizes_and_calls_refused(void **state)
{
    struct e2e *e = *state;
    ID3D11Query *q = (ID3D11Query *)(uintptr_t)1;
    for (UINT t = D3D11_QUERY_OCCLUSION; t <= D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM3; t++) {
        if (t == D3D11_QUERY_TIMESTAMP || t == D3D11_QUERY_TIMESTAMP_DISJOINT)
            continue; /* implemented since issue 14 (tests/conformance/test_d3d11_queries.c) */
        D3D11_QUERY_DESC qd = { .Query = (D3D11_QUERY)t };
        q = (ID3D11Query *)(uintptr_t)1;
        assert_int_equal(ID3D11Device_CreateQuery(e->dev, &qd, &q), E_INVALIDARG);
        assert_null(q);
    }
    D3D11_QUERY_DESC bad_misc = { .Query = D3D11_QUERY_EVENT, .MiscFlags = D3D11_QUERY_MISC_PREDICATEHINT };
    assert_int_equal(ID3D11Device_CreateQuery(e->dev, &bad_misc, &q), E_INVALIDARG);
    assert_int_equal(ID3D11Device_CreateQuery(e->dev, NULL, &q), E_INVALIDARG);
    D3D11_QUERY_DESC qd = { .Query = D3D11_QUERY_EVENT };
    assert_int_equal(ID3D11Device_CreateQuery(e->dev, &qd, NULL), S_FALSE); /* validate only */

    q = make_event(e);
    assert_int_equal(ID3D11Query_GetDataSize(q), sizeof(BOOL));
    D3D11_QUERY_DESC got = { .Query = 99, .MiscFlags = 5 };
    ID3D11Query_GetDesc(q, &got);
    assert_int_equal(got.Query, D3D11_QUERY_EVENT);
    assert_int_equal(got.MiscFlags, 0);
    ID3D11Asynchronous *as = NULL;
    assert_int_equal(ID3D11Query_QueryInterface(q, &IID_ID3D11Asynchronous, (void **)&as), S_OK);
    assert_ptr_equal(as, q);
    assert_int_equal(ID3D11Asynchronous_GetDataSize(as), sizeof(BOOL));
    SAFE_RELEASE(as);
    ID3D11Device *d = NULL;
    ID3D11Query_GetDevice(q, &d);
    assert_ptr_equal(d, e->dev);
    SAFE_RELEASE(d);

    ID3D11Asynchronous *a = (ID3D11Asynchronous *)q;
    BOOL done = FALSE;
    /* Never ended: DXGI_ERROR_INVALID_CALL (docs/rules.md). Begin is ignored for an event query. */
    assert_int_equal(ID3D11DeviceContext_GetData(e->ctx, a, &done, sizeof done, 0), DXGI_ERROR_INVALID_CALL);
    ID3D11DeviceContext_Begin(e->ctx, a);
    assert_int_equal(ID3D11DeviceContext_GetData(e->ctx, a, &done, sizeof done, 0), DXGI_ERROR_INVALID_CALL);
    ID3D11DeviceContext_End(e->ctx, a);
    UINT64 big = 0;
    assert_int_equal(ID3D11DeviceContext_GetData(e->ctx, a, &big, 1, 0), E_INVALIDARG);
    assert_int_equal(ID3D11DeviceContext_GetData(e->ctx, a, &big, sizeof big, 0), E_INVALIDARG);
    assert_int_equal(ID3D11DeviceContext_GetData(e->ctx, a, NULL, sizeof(BOOL), 0), E_INVALIDARG);
    assert_int_equal(ID3D11DeviceContext_GetData(e->ctx, a, &done, sizeof done, 0x2), E_INVALIDARG);
    assert_int_equal(ID3D11DeviceContext_GetData(e->ctx, NULL, &done, sizeof done, 0), E_INVALIDARG);
    assert_int_equal(ID3D11DeviceContext_GetData(e->ctx, (ID3D11Asynchronous *)e->ctx, &done, sizeof done, 0),
                     E_INVALIDARG);
    assert_int_equal(big, 0);
    spin_until_done(e, q);

    /* A deferred context never answers GetData; an End recorded there and never finished is
     * dropped with the context (its query reference too: ASan). */
    ID3D11DeviceContext *dc = NULL;
    assert_int_equal(ID3D11Device_CreateDeferredContext(e->dev, 0, &dc), S_OK);
    ID3D11DeviceContext_End(dc, a);
    assert_int_equal(ID3D11DeviceContext_GetData(dc, a, &done, sizeof done, 0), DXGI_ERROR_INVALID_CALL);
    SAFE_RELEASE(dc);
    assert_int_equal(ID3D11Device_GetDeviceRemovedReason(e->dev), S_OK); /* nothing above was critical */
    SAFE_RELEASE(q);
}

/* rule: umd.query-released-while-end-pending (64 pending queries, ASan) */
static void query_event_released_while_pending_does_not_leak(void **state)
{
    struct e2e *e = *state;
    ID3D11Query *keep = make_event(e);
    warm(e, keep);
    wddm_swgpu_set_paused(1);
    /* Fewer DMA buffers than the context's queue depth (sched/queue.c): with the GPU paused, one
     * more submission would wait for it (docs/rules/gpu.md). */
    for (int i = 0; i < 24; i++) {
        ID3D11Query *q = make_event(e);
        ID3D11DeviceContext_End(e->ctx, (ID3D11Asynchronous *)q);
        if (i & 1)
            ID3D11DeviceContext_Flush(e->ctx); /* half submitted, half still queued */
        SAFE_RELEASE(q); /* pending: the UMD submits, VidMm frees after the GPU wrote */
    }
    ID3D11DeviceContext_End(e->ctx, (ID3D11Asynchronous *)keep);
    assert_int_equal(ID3D11DeviceContext_GetData(e->ctx, (ID3D11Asynchronous *)keep, NULL, 0, 0), S_FALSE);
    wddm_swgpu_set_paused(0);
    spin_until_done(e, keep); /* the writes into released queries' memory ran without a fault */
    SAFE_RELEASE(keep);
    /* ASan's leak check proves the runtime's and UMD's memory; tests/umd/test_query.c proves the
     * allocation is freed (pfnDeallocateCb) even while pending. No critical error on the way: */
    assert_int_equal(ID3D11Device_GetDeviceRemovedReason(e->dev), S_OK);
}

/* rule: umd.end-orders-after-every-earlier-command */
static void query_event_end_orders_after_earlier_copies(void **state)
{
    struct e2e *e = *state;
    static uint8_t a[N], b[N];
    e2e_fill(a, N, 11);
    e2e_fill(b, N, 12);
    ID3D11Buffer *def = NULL, *stg = NULL;
    D3D11_BUFFER_DESC bd = { .ByteWidth = N, .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_VERTEX_BUFFER };
    D3D11_SUBRESOURCE_DATA init = { .pSysMem = a };
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, &init, &def), S_OK);
    bd = (D3D11_BUFFER_DESC){ .ByteWidth = N, .Usage = D3D11_USAGE_STAGING, .CPUAccessFlags = D3D11_CPU_ACCESS_READ };
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, NULL, &stg), S_OK);
    ID3D11Query *q = make_event(e);
    /* Everything resident and idle first. */
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)stg, (ID3D11Resource *)def);
    warm(e, q);

    wddm_swgpu_set_paused(1);
    ID3D11DeviceContext_UpdateSubresource(e->ctx, (ID3D11Resource *)def, 0, NULL, b, 0, 0);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)stg, (ID3D11Resource *)def);
    ID3D11DeviceContext_End(e->ctx, (ID3D11Asynchronous *)q);
    assert_int_equal(ID3D11DeviceContext_GetData(e->ctx, (ID3D11Asynchronous *)q, NULL, 0, 0), S_FALSE);
    wddm_swgpu_set_paused(0);
    spin_until_done(e, q);
    /* TRUE means the copy before End retired: a map that refuses to wait succeeds, with b. */
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)stg, 0, D3D11_MAP_READ,
                                             D3D11_MAP_FLAG_DO_NOT_WAIT, &m),
                     S_OK);
    assert_memory_equal(m.pData, b, N);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)stg, 0);
    SAFE_RELEASE(q);
    SAFE_RELEASE(stg);
    SAFE_RELEASE(def);
}

/* rule: runtime.deferred-contexts-getdata-dxgi-error (query released while the list holds it, list executed twice) */
static void query_event_end_in_a_command_list_takes_effect_when_executed(void **state)
{
    struct e2e *e = *state;
    static uint8_t a[N], b[N];
    e2e_fill(a, N, 21);
    e2e_fill(b, N, 22);
    ID3D11Buffer *def = NULL, *stg = NULL;
    D3D11_BUFFER_DESC bd = { .ByteWidth = N, .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_VERTEX_BUFFER };
    D3D11_SUBRESOURCE_DATA init = { .pSysMem = a };
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, &init, &def), S_OK);
    bd = (D3D11_BUFFER_DESC){ .ByteWidth = N, .Usage = D3D11_USAGE_STAGING, .CPUAccessFlags = D3D11_CPU_ACCESS_READ };
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, NULL, &stg), S_OK);
    ID3D11Query *q = make_event(e);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)stg, (ID3D11Resource *)def);
    warm(e, q);

    ID3D11DeviceContext *dc = NULL;
    ID3D11CommandList *cl = NULL;
    assert_int_equal(ID3D11Device_CreateDeferredContext(e->dev, 0, &dc), S_OK);
    ID3D11DeviceContext_UpdateSubresource(dc, (ID3D11Resource *)def, 0, NULL, b, 0, 0);
    ID3D11DeviceContext_CopyResource(dc, (ID3D11Resource *)stg, (ID3D11Resource *)def);
    ID3D11DeviceContext_End(dc, (ID3D11Asynchronous *)q);
    assert_int_equal(ID3D11DeviceContext_FinishCommandList(dc, FALSE, &cl), S_OK);
    /* Recorded, not executed: the query's last End on the IC completed long ago, and the
     * list's End has not happened (it would otherwise be pending below). */
    wddm_swgpu_set_paused(1);
    ID3D11DeviceContext_ExecuteCommandList(e->ctx, cl, FALSE);
    assert_int_equal(ID3D11DeviceContext_GetData(e->ctx, (ID3D11Asynchronous *)q, NULL, 0, 0), S_FALSE);
    SAFE_RELEASE(q); /* the command list keeps its own reference */
    ID3D11DeviceContext_ExecuteCommandList(e->ctx, cl, FALSE); /* twice: ends it again */
    SAFE_RELEASE(cl);
    wddm_swgpu_set_paused(0);
    ID3D11DeviceContext_Flush(e->ctx);
    /* A fresh query behind the list proves it ran; the list's copy is then in place. */
    q = make_event(e);
    ID3D11DeviceContext_End(e->ctx, (ID3D11Asynchronous *)q);
    spin_until_done(e, q);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)stg, 0, D3D11_MAP_READ,
                                             D3D11_MAP_FLAG_DO_NOT_WAIT, &m),
                     S_OK);
    assert_memory_equal(m.pData, b, N);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)stg, 0);
    SAFE_RELEASE(q);
    SAFE_RELEASE(dc);
    SAFE_RELEASE(stg);
    SAFE_RELEASE(def);
}

/* rule: runtime.deferred-contexts-getdata-dxgi-error (S_FALSE while paused after Execute, then TRUE with the list's copy in place) */
/* rule: sched.list-query-end-after-whole-list (S_FALSE while paused, TRUE only with the copy ahead of the End in place) */
static void query_event_ended_in_a_command_list_completes_with_its_copy(void **state)
{
    struct e2e *e = *state;
    static uint8_t a[N], b[N];
    e2e_fill(a, N, 31);
    e2e_fill(b, N, 32);
    ID3D11Buffer *def = NULL, *stg = NULL;
    D3D11_BUFFER_DESC bd = { .ByteWidth = N, .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_VERTEX_BUFFER };
    D3D11_SUBRESOURCE_DATA init = { .pSysMem = a };
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, &init, &def), S_OK);
    bd = (D3D11_BUFFER_DESC){ .ByteWidth = N, .Usage = D3D11_USAGE_STAGING, .CPUAccessFlags = D3D11_CPU_ACCESS_READ };
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, NULL, &stg), S_OK);
    ID3D11Query *q = make_event(e);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)stg, (ID3D11Resource *)def);
    warm(e, q);
    ID3D11DeviceContext *dc = NULL;
    ID3D11CommandList *cl = NULL;
    assert_int_equal(ID3D11Device_CreateDeferredContext(e->dev, 0, &dc), S_OK);
    ID3D11DeviceContext_UpdateSubresource(dc, (ID3D11Resource *)def, 0, NULL, b, 0, 0);
    ID3D11DeviceContext_CopyResource(dc, (ID3D11Resource *)stg, (ID3D11Resource *)def);
    ID3D11DeviceContext_End(dc, (ID3D11Asynchronous *)q);
    assert_int_equal(ID3D11DeviceContext_FinishCommandList(dc, FALSE, &cl), S_OK);
    wddm_swgpu_set_paused(1);
    ID3D11DeviceContext_ExecuteCommandList(e->ctx, cl, FALSE);
    assert_int_equal(ID3D11DeviceContext_GetData(e->ctx, (ID3D11Asynchronous *)q, NULL, 0, 0), S_FALSE);
    wddm_swgpu_set_paused(0);
    spin_until_done(e, q); /* the End recorded in the list, issued by ExecuteCommandList */
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)stg, 0, D3D11_MAP_READ,
                                             D3D11_MAP_FLAG_DO_NOT_WAIT, &m),
                     S_OK);
    assert_memory_equal(m.pData, b, N);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)stg, 0);
    SAFE_RELEASE(cl);
    SAFE_RELEASE(dc);
    SAFE_RELEASE(q);
    SAFE_RELEASE(stg);
    SAFE_RELEASE(def);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(query_event_getdata_false_while_gpu_paused_true_after_resume, e2e_setup,
                                        e2e_teardown),
        cmocka_unit_test_setup_teardown(query_event_donotflush_does_not_submit_an_unflushed_end, e2e_setup,
                                        e2e_teardown),
        cmocka_unit_test_setup_teardown(query_event_invalid_types_sizes_and_calls_refused, e2e_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(query_event_released_while_pending_does_not_leak, e2e_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(query_event_end_orders_after_earlier_copies, e2e_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(query_event_end_in_a_command_list_takes_effect_when_executed, e2e_setup,
                                        e2e_teardown),
        cmocka_unit_test_setup_teardown(query_event_ended_in_a_command_list_completes_with_its_copy, e2e_setup,
                                        e2e_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
