/* D3D11_QUERY_TIMESTAMP and D3D11_QUERY_TIMESTAMP_DISJOINT, and the GetData rules every query
 * shares, as Windows answers them (issue 14 §2). Sources: Wine's dlls/d3d11/tests/d3d11.c, which
 * runs on Windows - test_create_query, test_timestamp_query, test_occlusion_query (GetData
 * sizes), test_deferred_context_queries - and the D3D11 reference pages of D3D11_QUERY,
 * ID3D11DeviceContext::Begin / End / GetData and D3D11_QUERY_DATA_TIMESTAMP_DISJOINT. A
 * timestamp is written by the GPU when it reaches the End in its command stream, in ticks of the
 * clock whose rate the disjoint query reports. */
#include "conformance/d3d11_conf.h"

#include <time.h>
#include <wddm/swgpu.h>

static ID3D11Query *query(struct conf *c, D3D11_QUERY type)
{
    D3D11_QUERY_DESC d = { type, 0 };
    ID3D11Query *q = NULL;
    assert_int_equal(ID3D11Device_CreateQuery(c->dev, &d, &q), S_OK);
    return q;
}

/* Polls GetData(NULL, 0) until S_OK (bounded), then reads the data. */
static void wait_data(struct conf *c, ID3D11Query *q, void *data, UINT size)
{
    HRESULT hr = S_FALSE;
    for (int i = 0; i < 5000 && (hr = ID3D11DeviceContext_GetData(c->ctx, (ID3D11Asynchronous *)q, NULL, 0, 0)) == S_FALSE;
         i++) {
        struct timespec ts = { 0, 1000000 };
        nanosleep(&ts, NULL);
    }
    assert_int_equal(hr, S_OK);
    memset(data, 0xff, size);
    assert_int_equal(ID3D11DeviceContext_GetData(c->ctx, (ID3D11Asynchronous *)q, data, size, 0), S_OK);
}

/* rule: runtime.d3d11-query-timestamp-d3d11-query */
static void test_create_query_validates_and_reports_data_sizes(void **state)
{
    struct conf *c = *state;
    ID3D11Query *q = NULL;
    assert_int_equal(ID3D11Device_CreateQuery(c->dev, NULL, &q), E_INVALIDARG);
    static const struct { D3D11_QUERY type; UINT size; } t[] = {
        { D3D11_QUERY_EVENT, sizeof(BOOL) },
        { D3D11_QUERY_TIMESTAMP, sizeof(UINT64) },
        { D3D11_QUERY_TIMESTAMP_DISJOINT, sizeof(D3D11_QUERY_DATA_TIMESTAMP_DISJOINT) },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        D3D11_QUERY_DESC d = { t[i].type, 0 };
        ULONG before = conf_refs(c->dev);
        assert_int_equal(ID3D11Device_CreateQuery(c->dev, &d, NULL), S_FALSE); /* validate only */
        assert_int_equal(conf_refs(c->dev), before);
        q = query(c, t[i].type);
        assert_int_equal(ID3D11Query_GetDataSize(q), t[i].size);
        D3D11_QUERY_DESC back;
        ID3D11Query_GetDesc(q, &back);
        assert_int_equal(back.Query, t[i].type);
        assert_int_equal(back.MiscFlags, 0);
        ID3D11Device *tmp = NULL;
        ULONG with = conf_refs(c->dev);
        ID3D11Query_GetDevice(q, &tmp);
        assert_ptr_equal(tmp, c->dev);
        assert_int_equal(conf_refs(c->dev), with + 1);
        CONF_RELEASE(tmp);
        CONF_RELEASE(q);
    }
    assert_int_equal(sizeof(D3D11_QUERY_DATA_TIMESTAMP_DISJOINT), 16);
}

/* TIMESTAMP_DISJOINT: INVALID_CALL before its Begin and between Begin and End (data untouched);
 * after End, S_OK with the GPU clock's frequency and Disjoint FALSE; any size but 0 or
 * sizeof(D3D11_QUERY_DATA_TIMESTAMP_DISJOINT) is E_INVALIDARG and writes nothing; DONOTFLUSH on
 * a finished query answers the same data. */
/* rule: runtime.getdata-datasize-0-exactly-getdatasize */
static void test_timestamp_disjoint_brackets_an_interval_and_reports_the_frequency(void **state)
{
    struct conf *c = *state;
    ID3D11Query *dq = query(c, D3D11_QUERY_TIMESTAMP_DISJOINT);
    ID3D11Asynchronous *a = (ID3D11Asynchronous *)dq;
    D3D11_QUERY_DATA_TIMESTAMP_DISJOINT d = { 0xdeadbeef, 0xdeadbeef }, prev;
    assert_int_equal(ID3D11DeviceContext_GetData(c->ctx, a, NULL, 0, 0), DXGI_ERROR_INVALID_CALL);
    assert_int_equal(ID3D11DeviceContext_GetData(c->ctx, a, &d, sizeof d, 0), DXGI_ERROR_INVALID_CALL);
    ID3D11DeviceContext_Begin(c->ctx, a);
    assert_int_equal(ID3D11DeviceContext_GetData(c->ctx, a, NULL, 0, 0), DXGI_ERROR_INVALID_CALL);
    assert_int_equal(ID3D11DeviceContext_GetData(c->ctx, a, &d, sizeof d, 0), DXGI_ERROR_INVALID_CALL);
    assert_true(d.Frequency == 0xdeadbeef && d.Disjoint == (BOOL)0xdeadbeef);
    ID3D11DeviceContext_End(c->ctx, a);
    wait_data(c, dq, &d, sizeof d);
    assert_true(d.Frequency != 0 && d.Frequency != ~(UINT64)0);
    assert_int_equal(d.Disjoint, FALSE);
    prev = d;

    UINT wrong[] = { sizeof d - 1, sizeof d + 1, sizeof d / 2, sizeof d * 2 };
    for (size_t i = 0; i < 4; i++) {
        d.Frequency = 0xdeadbeef;
        d.Disjoint = 0xff;
        assert_int_equal(ID3D11DeviceContext_GetData(c->ctx, a, &d, wrong[i], 0), E_INVALIDARG);
        assert_true(d.Frequency == 0xdeadbeef && d.Disjoint == 0xff);
    }
    assert_int_equal(ID3D11DeviceContext_GetData(c->ctx, a, NULL, sizeof d, 0), E_INVALIDARG);
    assert_int_equal(ID3D11DeviceContext_GetData(c->ctx, a, NULL, 0, 0), S_OK);
    assert_int_equal(ID3D11DeviceContext_GetData(c->ctx, a, &d, sizeof d, D3D11_ASYNC_GETDATA_DONOTFLUSH), S_OK);
    assert_true(d.Frequency == prev.Frequency && d.Disjoint == prev.Disjoint);
    /* A new Begin opens a new interval: building again until its End. */
    ID3D11DeviceContext_Begin(c->ctx, a);
    assert_int_equal(ID3D11DeviceContext_GetData(c->ctx, a, NULL, 0, 0), DXGI_ERROR_INVALID_CALL);
    ID3D11DeviceContext_End(c->ctx, a);
    wait_data(c, dq, &d, sizeof d);
    assert_true(d.Frequency == prev.Frequency && d.Disjoint == FALSE);
    CONF_RELEASE(dq);
}

/* TIMESTAMP: only End (a Begin is ignored: the query stays never-ended, INVALID_CALL); after
 * End, S_OK with a 64-bit value; wrong sizes E_INVALIDARG, data untouched. A TIMESTAMP need not
 * sit inside a TIMESTAMP_DISJOINT. */
/* rule: runtime.getdata-datasize-0-exactly-getdatasize */
static void test_timestamp_takes_only_end_and_checks_sizes(void **state)
{
    struct conf *c = *state;
    ID3D11Query *tq = query(c, D3D11_QUERY_TIMESTAMP);
    ID3D11Asynchronous *a = (ID3D11Asynchronous *)tq;
    UINT64 ts = ~(UINT64)0;
    assert_int_equal(ID3D11DeviceContext_GetData(c->ctx, a, &ts, sizeof ts, 0), DXGI_ERROR_INVALID_CALL);
    ID3D11DeviceContext_Begin(c->ctx, a);
    assert_int_equal(ID3D11DeviceContext_GetData(c->ctx, a, NULL, 0, 0), DXGI_ERROR_INVALID_CALL);
    assert_true(ts == ~(UINT64)0);
    ID3D11DeviceContext_End(c->ctx, a);
    wait_data(c, tq, &ts, sizeof ts);
    assert_true(ts != ~(UINT64)0);
    UINT64 v = 0xdeadbeef;
    UINT wrong[] = { sizeof v - 1, sizeof v + 1, sizeof v / 2, sizeof v * 2 };
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(ID3D11DeviceContext_GetData(c->ctx, a, &v, wrong[i], 0), E_INVALIDARG);
        assert_true(v == 0xdeadbeef);
    }
    assert_int_equal(ID3D11DeviceContext_GetData(c->ctx, a, &v, sizeof v, 0), S_OK);
    assert_true(v == ts);
    CONF_RELEASE(tq);
}

/* The GPU writes the timestamp when it reaches the End, in ticks of the frequency the disjoint
 * query reports: with the GPU paused, two Ends issued 200 ms apart by the CPU land within a
 * moment of each other (both written after the GPU resumes), while a timestamp the GPU wrote
 * before the pause is at least 200 ms (in ticks / frequency) older than them. The clock never
 * runs backwards. */
/* rule: gpu.timestamp-written-gpu-when-reaches-end (both models) */
static void test_timestamps_are_the_gpu_clock_when_it_reaches_end(void **state)
{
    struct conf *c = *state;
    ID3D11Query *dq = query(c, D3D11_QUERY_TIMESTAMP_DISJOINT);
    ID3D11Query *t0 = query(c, D3D11_QUERY_TIMESTAMP), *t1 = query(c, D3D11_QUERY_TIMESTAMP),
                *t2 = query(c, D3D11_QUERY_TIMESTAMP);
    ID3D11DeviceContext_Begin(c->ctx, (ID3D11Asynchronous *)dq);
    ID3D11DeviceContext_End(c->ctx, (ID3D11Asynchronous *)t0);
    UINT64 v0, v1, v2;
    wait_data(c, t0, &v0, sizeof v0);

    wddm_swgpu_set_paused(1);
    ID3D11DeviceContext_End(c->ctx, (ID3D11Asynchronous *)t1);
    ID3D11DeviceContext_Flush(c->ctx);
    struct timespec ts = { 0, 200 * 1000000 };
    nanosleep(&ts, NULL);
    ID3D11DeviceContext_End(c->ctx, (ID3D11Asynchronous *)t2);
    ID3D11DeviceContext_Flush(c->ctx);
    assert_int_equal(ID3D11DeviceContext_GetData(c->ctx, (ID3D11Asynchronous *)t1, NULL, 0,
                                                 D3D11_ASYNC_GETDATA_DONOTFLUSH), S_FALSE); /* not reached yet */
    wddm_swgpu_set_paused(0);
    wait_data(c, t1, &v1, sizeof v1);
    wait_data(c, t2, &v2, sizeof v2);
    ID3D11DeviceContext_End(c->ctx, (ID3D11Asynchronous *)dq);
    D3D11_QUERY_DATA_TIMESTAMP_DISJOINT d;
    wait_data(c, dq, &d, sizeof d);
    assert_int_equal(d.Disjoint, FALSE);

    assert_true(v0 <= v1 && v1 <= v2);
    double paused = (double)(v1 - v0) / (double)d.Frequency, between = (double)(v2 - v1) / (double)d.Frequency;
    if (!(paused >= 0.2 && paused < 30.0 && between < 0.15))
        fail_msg("t1 - t0 = %.3f s (expected >= 0.2), t2 - t1 = %.3f s (expected < 0.15), frequency %llu", paused,
                 between, (unsigned long long)d.Frequency);
    CONF_RELEASE(t2);
    CONF_RELEASE(t1);
    CONF_RELEASE(t0);
    CONF_RELEASE(dq);
}

/* Deferred contexts (test_deferred_context_queries): GetData there is INVALID_CALL; an End
 * recorded in a command list leaves the query never-ended on the immediate context until the
 * list executes. */
/* rule: runtime.deferred-contexts-getdata-there-dxgi */
static void test_timestamp_ended_in_a_command_list_completes_when_executed(void **state)
{
    struct conf *c = *state;
    ID3D11DeviceContext *dc = NULL;
    assert_int_equal(ID3D11Device_CreateDeferredContext(c->dev, 0, &dc), S_OK);
    ID3D11Query *tq = query(c, D3D11_QUERY_TIMESTAMP);
    ID3D11Asynchronous *a = (ID3D11Asynchronous *)tq;
    UINT64 v = 0;
    assert_int_equal(ID3D11DeviceContext_GetData(dc, a, NULL, 0, 0), DXGI_ERROR_INVALID_CALL);
    ID3D11DeviceContext_End(dc, a);
    assert_int_equal(ID3D11DeviceContext_GetData(dc, a, &v, sizeof v, 0), DXGI_ERROR_INVALID_CALL);
    assert_int_equal(ID3D11DeviceContext_GetData(c->ctx, a, &v, sizeof v, 0), DXGI_ERROR_INVALID_CALL);
    ID3D11CommandList *cl = NULL;
    assert_int_equal(ID3D11DeviceContext_FinishCommandList(dc, FALSE, &cl), S_OK);
    assert_int_equal(ID3D11DeviceContext_GetData(c->ctx, a, &v, sizeof v, 0), DXGI_ERROR_INVALID_CALL);
    ID3D11DeviceContext_ExecuteCommandList(c->ctx, cl, FALSE);
    assert_int_equal(ID3D11DeviceContext_GetData(dc, a, NULL, 0, 0), DXGI_ERROR_INVALID_CALL);
    wait_data(c, tq, &v, sizeof v);
    assert_true(v != ~(UINT64)0);
    CONF_RELEASE(cl);
    CONF_RELEASE(tq);
    CONF_RELEASE(dc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_create_query_validates_and_reports_data_sizes, conf_setup, conf_teardown),
        cmocka_unit_test_setup_teardown(test_timestamp_disjoint_brackets_an_interval_and_reports_the_frequency,
                                        conf_setup, conf_teardown),
        cmocka_unit_test_setup_teardown(test_timestamp_takes_only_end_and_checks_sizes, conf_setup, conf_teardown),
        cmocka_unit_test_setup_teardown(test_timestamps_are_the_gpu_clock_when_it_reaches_end, conf_setup,
                                        conf_teardown),
        cmocka_unit_test_setup_teardown(test_timestamp_ended_in_a_command_list_completes_when_executed, conf_setup,
                                        conf_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
