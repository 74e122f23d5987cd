/* The reference UMD's event query (src/umd/query.c, issue 4), observed at the runtime-callback
 * boundary with the fake kernel (umd_fake.h): one 16-byte READBACK allocation per query, End =
 * one patched SWGPU_OP_WRITE of an increasing sequence number, GetData = a ReadOnly|DonotWait
 * lock, DXGI_DDI_ERR_WASSTILLDRAWING through pfnSetErrorCb while not complete, no flush with
 * D3D10_DDI_GET_DATA_DO_NOT_FLUSH, and the allocation freed by DestroyQuery even while pending. */
/* rule: runtime.ddi-d3d10ddiarg-createquery (all) */
/* rule: gpu.timestamp-written-gpu-when-reaches-end (**changed**: reads the sequence at offset 8) */
#include "umd/umd_fake.h"

struct fake_query {
    D3D10DDI_HQUERY h;
    void *mem;
};

static struct fake_query fake_query_new(struct fake *f, D3D10DDI_QUERY type)
{
    D3D10DDIARG_CREATEQUERY args = { .Query = type };
    SIZE_T size = f->df.pfnCalcPrivateQuerySize(f->hDevice, &args);
    assert_true(size > 0);
    struct fake_query q = { .mem = calloc(1, size) };
    q.h.pDrvPrivate = q.mem;
    D3D10DDI_HRTQUERY rt = { q.mem };
    f->df.pfnCreateQuery(f->hDevice, &args, q.h, rt);
    return q;
}

static UINT64 query_value(struct fake *f)
{
    /* The only live allocation besides none: the query's (tests create nothing else). Its
     * bytes 8..15 hold the last End's sequence number (bytes 0..7 a TIMESTAMP's clock value,
     * src/umd/query.c since issue 14). */
    for (int i = 0; i < FAKE_MAX_ALLOCS; i++)
        if (f->allocs[i].live) {
            UINT64 v;
            memcpy(&v, (const BYTE *)f->allocs[i].mem + 8, sizeof v);
            return v;
        }
    fail();
    return 0;
}

/* rule: umd.query-one-readback-allocation */
/* rule: umd.without-d3d11-async-getdata-donotflush */
/* rule: sched.event-query-no-kernel-object (one READBACK allocation, a ReadOnly+DonotWait lock, the sequence compared) */
static void test_query_event_end_writes_increasing_sequence_getdata_locks_donotwait(void **state)
{
    struct fake *f = fake_setup();
    struct fake_query q = fake_query_new(f, D3D10DDI_QUERY_EVENT);
    assert_int_equal(f->n_errors, 0);
    assert_int_equal(f->live_allocs, 1);
    assert_int_equal(f->allocs[0].priv.kind, SWGPU_ALLOC_READBACK);

    f->df.pfnQueryEnd(f->hDevice, q.h);
    int renders = f->render_calls;
    BOOL done = FALSE;
    /* DO_NOT_FLUSH with the End still queued: still drawing, nothing submitted, no lock. */
    f->df.pfnQueryGetData(f->hDevice, q.h, &done, sizeof done, D3D10_DDI_GET_DATA_DO_NOT_FLUSH);
    assert_int_equal(f->n_errors, 1);
    assert_int_equal(f->errors[0], DXGI_DDI_ERR_WASSTILLDRAWING);
    assert_int_equal(f->render_calls, renders);
    assert_int_equal(f->lock_calls, 0);
    assert_false(done);
    /* Without the flag: flushed (the fake runs it at once), locked ReadOnly|DonotWait, TRUE. */
    f->df.pfnQueryGetData(f->hDevice, q.h, &done, sizeof done, 0);
    assert_int_equal(f->n_errors, 1);
    assert_int_equal(f->render_calls, renders + 1);
    assert_int_equal(f->lock_calls, 1);
    assert_true(f->lock_log[0].ReadOnly && f->lock_log[0].DonotWait && !f->lock_log[0].WriteOnly);
    assert_int_equal(f->unlock_calls, 1);
    assert_true(done == TRUE);
    assert_int_equal(query_value(f), 1);
    /* The kernel says still drawing: WASSTILLDRAWING again, pData untouched. */
    f->df.pfnQueryEnd(f->hDevice, q.h);
    fake_flush(f);
    assert_int_equal(query_value(f), 2);
    f->lock_result = D3DDDIERR_WASSTILLDRAWING;
    f->lock_fail_count = 1;
    done = FALSE;
    f->df.pfnQueryGetData(f->hDevice, q.h, &done, sizeof done, 0);
    assert_int_equal(f->n_errors, 2);
    assert_int_equal(f->errors[1], DXGI_DDI_ERR_WASSTILLDRAWING);
    assert_false(done);
    f->df.pfnQueryGetData(f->hDevice, q.h, NULL, 0, D3D10_DDI_GET_DATA_DO_NOT_FLUSH);
    assert_int_equal(f->n_errors, 2); /* done, status only */

    f->df.pfnDestroyQuery(f->hDevice, q.h);
    assert_int_equal(f->live_allocs, 0);
    free(q.mem);
    fake_teardown(f);
}

/* rule: umd.query-released-while-end-pending (allocation freed, End submitted first) */
static void test_query_event_destroyed_while_pending_frees_its_allocation(void **state)
{
    struct fake *f = fake_setup();
    struct fake_query q = fake_query_new(f, D3D10DDI_QUERY_EVENT);
    f->df.pfnQueryEnd(f->hDevice, q.h); /* queued, not submitted */
    int renders = f->render_calls;
    f->df.pfnDestroyQuery(f->hDevice, q.h);
    assert_int_equal(f->render_calls, renders + 1); /* submitted before the allocation dies */
    assert_int_equal(f->deallocate_calls, 1);
    assert_int_equal(f->live_allocs, 0);
    assert_int_equal(f->n_errors, 0);
    free(q.mem);
    fake_teardown(f);
}

/* rule: umd.query-one-readback-allocation */
static void test_query_other_types_unsupported_without_allocation(void **state)
{
    struct fake *f = fake_setup();
    struct fake_query q = fake_query_new(f, D3D10DDI_QUERY_OCCLUSION);
    assert_int_equal(f->n_errors, 1);
    assert_int_equal(f->errors[0], DXGI_DDI_ERR_UNSUPPORTED);
    assert_int_equal(f->allocate_calls, 0);
    assert_int_equal(f->live_allocs, 0);
    free(q.mem); /* a failed create has no Destroy (docs/semantics.md §4.2) */
    fake_teardown(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_query_event_end_writes_increasing_sequence_getdata_locks_donotwait),
        cmocka_unit_test(test_query_event_destroyed_while_pending_frees_its_allocation),
        cmocka_unit_test(test_query_other_types_unsupported_without_allocation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
