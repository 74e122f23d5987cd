/* Deferred contexts and command lists end to end (seed 004, docs/semantics.md §4.5, §5.2):
 * every test runs twice, once with the reference UMD building command lists and once with its
 * command-list switch off so the runtime emulates them (WDDM_UMD_NO_COMMANDLISTS=1). */
/* rule: umd.checkfeaturesupport-reports-umd-caps-umd */
/* rule: umd.command-lists-resolve-va-resource */
#include "e2e/lists.h"

#include <pthread.h>

#include <wddm/wddm.h>

#define N 4096u /* bytes per test buffer */

static ID3D11Buffer *buffer(struct e2e *e, D3D11_USAGE usage, UINT bind, UINT cpu, const void *init)
{
    D3D11_BUFFER_DESC d = { .ByteWidth = N, .Usage = usage, .BindFlags = bind, .CPUAccessFlags = cpu };
    D3D11_SUBRESOURCE_DATA sd = { .pSysMem = init };
    ID3D11Buffer *b = NULL;
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &d, init ? &sd : NULL, &b), S_OK);
    return b;
}
#define DEFAULT_BUF(e) buffer(e, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0, NULL)
#define DYNAMIC_BUF(e) buffer(e, D3D11_USAGE_DYNAMIC, D3D11_BIND_VERTEX_BUFFER, D3D11_CPU_ACCESS_WRITE, NULL)

/* Read a buffer back through a STAGING copy on the immediate context. */
static void readback(struct e2e *e, ID3D11Buffer *src, BYTE *out)
{
    ID3D11Buffer *st = buffer(e, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ, NULL);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)st, (ID3D11Resource *)src);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)st, 0, D3D11_MAP_READ, 0, &m), S_OK);
    memcpy(out, m.pData, N);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)st, 0);
    SAFE_RELEASE(st);
}

static ID3D11DeviceContext *deferred(struct e2e *e)
{
    ID3D11DeviceContext *dc = NULL;
    assert_int_equal(ID3D11Device_CreateDeferredContext(e->dev, 0, &dc), S_OK);
    return dc;
}

static void map_write(ID3D11DeviceContext *c, ID3D11Buffer *b, D3D11_MAP type, const BYTE *data, UINT off, UINT n)
{
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(c, (ID3D11Resource *)b, 0, type, 0, &m), S_OK);
    memcpy((BYTE *)m.pData + off, data, n);
    ID3D11DeviceContext_Unmap(c, (ID3D11Resource *)b, 0);
}

/* GetType answers DEFERRED; FinishCommandList on the immediate context is DXGI_ERROR_INVALID_CALL. */
/* rule: runtime.createdeferredcontext-gettype-deferred */
static void test_deferred_context_type_and_finish_only_on_deferred(void **state)
{
    struct e2e *e = *state;
    ID3D11DeviceContext *dc = deferred(e);
    assert_int_equal(ID3D11DeviceContext_GetType(dc), D3D11_DEVICE_CONTEXT_DEFERRED);
    assert_int_equal(ID3D11DeviceContext_GetType(e->ctx), D3D11_DEVICE_CONTEXT_IMMEDIATE);
    ID3D11CommandList *cl = (ID3D11CommandList *)1;
    assert_int_equal(ID3D11DeviceContext_FinishCommandList(e->ctx, FALSE, &cl), DXGI_ERROR_INVALID_CALL);
    assert_null(cl);
    assert_int_equal(ID3D11DeviceContext_FinishCommandList(dc, FALSE, &cl), S_OK); /* an empty list is fine */
    assert_non_null(cl);
    ID3D11DeviceContext_ExecuteCommandList(e->ctx, cl, FALSE);
    SAFE_RELEASE(cl);
    ID3D11DeviceContext *bad = (ID3D11DeviceContext *)1;
    assert_int_equal(ID3D11Device_CreateDeferredContext(e->dev, 1, &bad), E_INVALIDARG);
    assert_null(bad);
    SAFE_RELEASE(dc);
}

/* CheckFeatureSupport(THREADING) reports what the UMD reported: command lists in the UMD mode,
 * none when the UMD's switch is off (the runtime then emulates them). */
/* rule: umd.checkfeaturesupport-reports-umd-caps-umd */
static void test_threading_feature_reports_umd_command_lists(void **state)
{
    struct e2e *e = *state;
    D3D11_FEATURE_DATA_THREADING t = { 7, 7 };
    assert_int_equal(ID3D11Device_CheckFeatureSupport(e->dev, D3D11_FEATURE_THREADING, &t, sizeof t), S_OK);
    assert_int_equal(t.DriverCommandLists, wddm_umd_command_lists_enabled() ? TRUE : FALSE);
    assert_int_equal(t.DriverConcurrentCreates, FALSE);
}

/* The calls recorded on a deferred context and executed on the immediate context give
 * byte-identical results to the same calls made on the immediate context. */
static void record_ops(ID3D11DeviceContext *c, ID3D11Buffer *dyn, ID3D11Buffer *a, ID3D11Buffer *b, const BYTE *p1,
                       const BYTE *p2)
{
    D3D11_BOX box = { 100, 0, 0, 1100, 1, 1 };
    ID3D11DeviceContext_UpdateSubresource(c, (ID3D11Resource *)a, 0, NULL, p1, N, N);
    ID3D11DeviceContext_UpdateSubresource(c, (ID3D11Resource *)b, 0, &box, p2, 0, 0);
    map_write(c, dyn, D3D11_MAP_WRITE_DISCARD, p2 + 7, 0, N / 2);
    map_write(c, dyn, D3D11_MAP_WRITE_NO_OVERWRITE, p1 + 3, N / 2, N / 2);
    D3D11_BOX src = { 0, 0, 0, 512, 1, 1 };
    ID3D11DeviceContext_CopySubresourceRegion(c, (ID3D11Resource *)a, 0, 2048, 0, 0, (ID3D11Resource *)dyn, 0, &src);
    ID3D11DeviceContext_CopySubresourceRegion(c, (ID3D11Resource *)b, 0, 3000, 0, 0, (ID3D11Resource *)dyn, 0, &src);
}

struct rec_args {
    ID3D11DeviceContext *dc;
    ID3D11Buffer *dyn, *a, *b;
    const BYTE *p1, *p2;
    ID3D11CommandList *out;
};

static void *record_thread(void *p)
{
    struct rec_args *r = p;
    record_ops(r->dc, r->dyn, r->a, r->b, r->p1, r->p2);
    if (FAILED(ID3D11DeviceContext_FinishCommandList(r->dc, FALSE, &r->out)))
        r->out = NULL;
    return NULL;
}

static void *execute_thread(void *p)
{
    struct rec_args *r = p;
    ID3D11DeviceContext *ic = NULL;
    ID3D11Device *dev = NULL;
    ID3D11DeviceContext_GetDevice(r->dc, &dev);
    ID3D11Device_GetImmediateContext(dev, &ic);
    ID3D11DeviceContext_ExecuteCommandList(ic, r->out, TRUE);
    ID3D11DeviceContext_Release(ic);
    ID3D11Device_Release(dev);
    return NULL;
}

/* rule: runtime.recording-copyresource */
static void test_list_recorded_on_one_thread_executed_on_another_is_byte_identical(void **state)
{
    struct e2e *e = *state;
    BYTE *p1 = malloc(N), *p2 = malloc(N), *want_a = malloc(N), *want_b = malloc(N), *got = malloc(N);
    e2e_fill(p1, N, 1);
    e2e_fill(p2, N, 2);
    /* Reference: the calls on the immediate context. */
    ID3D11Buffer *dyn = DYNAMIC_BUF(e), *a = DEFAULT_BUF(e), *b = DEFAULT_BUF(e);
    record_ops(e->ctx, dyn, a, b, p1, p2);
    readback(e, a, want_a);
    readback(e, b, want_b);
    SAFE_RELEASE(dyn);
    SAFE_RELEASE(a);
    SAFE_RELEASE(b);

    struct rec_args r = { .dc = deferred(e), .dyn = DYNAMIC_BUF(e), .a = DEFAULT_BUF(e), .b = DEFAULT_BUF(e),
                          .p1 = p1, .p2 = p2 };
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, record_thread, &r), 0);
    pthread_join(t, NULL);
    assert_non_null(r.out);
    assert_int_equal(pthread_create(&t, NULL, execute_thread, &r), 0);
    pthread_join(t, NULL);
    readback(e, r.a, got);
    assert_memory_equal(got, want_a, N);
    readback(e, r.b, got);
    assert_memory_equal(got, want_b, N);
    SAFE_RELEASE(r.out);
    SAFE_RELEASE(r.dyn);
    SAFE_RELEASE(r.a);
    SAFE_RELEASE(r.b);
    SAFE_RELEASE(r.dc);
    free(p1); free(p2); free(want_a); free(want_b); free(got);
}

/* The hard case: a list with Map(WRITE_DISCARD) of a buffer and copies reading it, executed
 * several times on the immediate context (with the IC discarding the same buffer in between,
 * all queued behind a paused GPU) and from another deferred context: every execution gives
 * the first execution's result, because renaming happens per execution. */
/* rule: umd.hard-case-list-map-copies-reading */
/* rule: runtime.executecommandlist-deferred-context-recorded (a second deferred context records the list's execution; the outer list gives the inner one's bytes) */
static void test_discard_list_executed_many_times_renames_per_execution(void **state)
{
    struct e2e *e = *state;
    BYTE p[N], q[N], got[N];
    e2e_fill(p, N, 11);
    e2e_fill(q, N, 12);
    ID3D11Buffer *dyn = DYNAMIC_BUF(e), *dst = DEFAULT_BUF(e), *a = DEFAULT_BUF(e), *bq = DEFAULT_BUF(e),
                 *b = DEFAULT_BUF(e), *c = DEFAULT_BUF(e);
    ID3D11DeviceContext *dc = deferred(e);
    map_write(dc, dyn, D3D11_MAP_WRITE_DISCARD, p, 0, N);
    ID3D11DeviceContext_CopyResource(dc, (ID3D11Resource *)dst, (ID3D11Resource *)dyn);
    ID3D11CommandList *list = NULL;
    assert_int_equal(ID3D11DeviceContext_FinishCommandList(dc, FALSE, &list), S_OK);

    /* Another deferred context records the execution of that list. */
    ID3D11DeviceContext *dc2 = deferred(e);
    ID3D11DeviceContext_ExecuteCommandList(dc2, list, FALSE);
    ID3D11CommandList *outer = NULL;
    assert_int_equal(ID3D11DeviceContext_FinishCommandList(dc2, FALSE, &outer), S_OK);

    wddm_swgpu_set_paused(1);
    ID3D11DeviceContext_ExecuteCommandList(e->ctx, list, FALSE);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)a, (ID3D11Resource *)dst);
    map_write(e->ctx, dyn, D3D11_MAP_WRITE_DISCARD, q, 0, N); /* the IC renames the same buffer */
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)bq, (ID3D11Resource *)dyn);
    ID3D11DeviceContext_ExecuteCommandList(e->ctx, list, TRUE);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)b, (ID3D11Resource *)dst);
    ID3D11DeviceContext_UpdateSubresource(e->ctx, (ID3D11Resource *)dst, 0, NULL, q, N, N);
    ID3D11DeviceContext_ExecuteCommandList(e->ctx, outer, FALSE);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)c, (ID3D11Resource *)dst);
    wddm_swgpu_set_paused(0);

    readback(e, a, got);
    assert_memory_equal(got, p, N);
    readback(e, bq, got);
    assert_memory_equal(got, q, N);
    readback(e, b, got);
    assert_memory_equal(got, p, N);
    readback(e, c, got);
    assert_memory_equal(got, p, N);
    SAFE_RELEASE(outer);
    SAFE_RELEASE(list);
    SAFE_RELEASE(dc2);
    SAFE_RELEASE(dc);
    SAFE_RELEASE(dyn); SAFE_RELEASE(dst); SAFE_RELEASE(a); SAFE_RELEASE(bq); SAFE_RELEASE(b); SAFE_RELEASE(c);
}

/* docs/semantics.md §5.2: on a deferred context only WRITE_DISCARD, and WRITE_NO_OVERWRITE after
 * a DISCARD of the same buffer in the same list, on DYNAMIC resources; else E_INVALIDARG, except
 * a NO_OVERWRITE before the list's first DISCARD of the buffer, which Windows answers with
 * D3D11_ERROR_DEFERRED_CONTEXT_MAP_WITHOUT_INITIAL_DISCARD (Wine d3d11 tests, run on Windows:
 * test_deferred_context_map; this test asserted E_INVALIDARG before issue 14). */
/* rule: runtime.map-dc-only-dynamic-cpu-access */
/* rule: runtime.deferred-context-read-read-write-write (**changed**: it asserted `E_INVALIDARG` for the initial-discard case) */
static void test_deferred_map_accepts_only_discard_then_nooverwrite_on_dynamic(void **state)
{
    struct e2e *e = *state;
    ID3D11DeviceContext *dc = deferred(e);
    ID3D11Buffer *dyn = DYNAMIC_BUF(e), *def = DEFAULT_BUF(e);
    ID3D11Buffer *st = buffer(e, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE, NULL);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(dc, (ID3D11Resource *)def, 0, D3D11_MAP_WRITE_DISCARD, 0, &m),
                     E_INVALIDARG);
    assert_int_equal(ID3D11DeviceContext_Map(dc, (ID3D11Resource *)st, 0, D3D11_MAP_READ, 0, &m), E_INVALIDARG);
    assert_int_equal(ID3D11DeviceContext_Map(dc, (ID3D11Resource *)st, 0, D3D11_MAP_WRITE, 0, &m), E_INVALIDARG);
    assert_int_equal(ID3D11DeviceContext_Map(dc, (ID3D11Resource *)dyn, 0, D3D11_MAP_WRITE, 0, &m), E_INVALIDARG);
    assert_int_equal(ID3D11DeviceContext_Map(dc, (ID3D11Resource *)dyn, 0, D3D11_MAP_WRITE_NO_OVERWRITE, 0, &m),
                     D3D11_ERROR_DEFERRED_CONTEXT_MAP_WITHOUT_INITIAL_DISCARD); /* no DISCARD of it in this list yet */
    assert_int_equal(ID3D11DeviceContext_Map(dc, (ID3D11Resource *)dyn, 0, D3D11_MAP_WRITE_DISCARD,
                                             D3D11_MAP_FLAG_DO_NOT_WAIT, &m), E_INVALIDARG);
    assert_int_equal(ID3D11DeviceContext_Map(dc, (ID3D11Resource *)dyn, 0, D3D11_MAP_WRITE_DISCARD, 0, &m), S_OK);
    assert_non_null(m.pData);
    assert_int_equal(ID3D11DeviceContext_Map(dc, (ID3D11Resource *)dyn, 0, D3D11_MAP_WRITE_DISCARD, 0, &m),
                     E_INVALIDARG); /* already mapped */
    ID3D11DeviceContext_Unmap(dc, (ID3D11Resource *)dyn, 0);
    assert_int_equal(ID3D11DeviceContext_Map(dc, (ID3D11Resource *)dyn, 0, D3D11_MAP_WRITE_NO_OVERWRITE, 0, &m), S_OK);
    ID3D11DeviceContext_Unmap(dc, (ID3D11Resource *)dyn, 0);
    ID3D11CommandList *cl = NULL;
    assert_int_equal(ID3D11DeviceContext_FinishCommandList(dc, FALSE, &cl), S_OK);
    /* A new list: NO_OVERWRITE needs a new DISCARD first. */
    assert_int_equal(ID3D11DeviceContext_Map(dc, (ID3D11Resource *)dyn, 0, D3D11_MAP_WRITE_NO_OVERWRITE, 0, &m),
                     D3D11_ERROR_DEFERRED_CONTEXT_MAP_WITHOUT_INITIAL_DISCARD);
    SAFE_RELEASE(cl);
    SAFE_RELEASE(st); SAFE_RELEASE(dyn); SAFE_RELEASE(def);
    SAFE_RELEASE(dc);
}

/* ClearRenderTargetView recorded on a deferred context fills on the GPU when executed. */
/* rule: runtime.recording-copyresource */
static void test_deferred_clear_render_target_view_fills_when_executed(void **state)
{
    struct e2e *e = *state;
    D3D11_TEXTURE2D_DESC td = { .Width = 16, .Height = 8, .MipLevels = 1, .ArraySize = 1,
                                .Format = DXGI_FORMAT_R8G8B8A8_UNORM, .SampleDesc = { 1, 0 },
                                .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_RENDER_TARGET };
    ID3D11Texture2D *tex = NULL, *st = NULL;
    assert_int_equal(ID3D11Device_CreateTexture2D(e->dev, &td, NULL, &tex), S_OK);
    td.Usage = D3D11_USAGE_STAGING;
    td.BindFlags = 0;
    td.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    assert_int_equal(ID3D11Device_CreateTexture2D(e->dev, &td, NULL, &st), S_OK);
    ID3D11RenderTargetView *rtv = NULL;
    assert_int_equal(ID3D11Device_CreateRenderTargetView(e->dev, (ID3D11Resource *)tex, NULL, &rtv), S_OK);
    ID3D11DeviceContext *dc = deferred(e);
    const FLOAT color[4] = { 1.0f, 0.5f, 0.0f, 1.0f };
    ID3D11DeviceContext_ClearRenderTargetView(dc, rtv, color);
    ID3D11CommandList *cl = NULL;
    assert_int_equal(ID3D11DeviceContext_FinishCommandList(dc, FALSE, &cl), S_OK);
    SAFE_RELEASE(rtv); /* the list keeps the view and its texture alive */
    ID3D11DeviceContext_ExecuteCommandList(e->ctx, cl, FALSE);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)st, (ID3D11Resource *)tex);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)st, 0, D3D11_MAP_READ, 0, &m), S_OK);
    for (UINT y = 0; y < 8; y++)
        for (UINT x = 0; x < 16; x++) {
            const BYTE *px = (const BYTE *)m.pData + y * m.RowPitch + x * 4;
            assert_int_equal(px[0], 255);
            assert_int_equal(px[1], 128);
            assert_int_equal(px[2], 0);
            assert_int_equal(px[3], 255);
        }
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)st, 0);
    SAFE_RELEASE(cl);
    SAFE_RELEASE(dc);
    SAFE_RELEASE(st);
    SAFE_RELEASE(tex);
}

/* Map(WRITE_DISCARD) of a DYNAMIC texture on a DC: the data, written through RowPitch, is what
 * a copy in the same list reads when the list executes. */
static void test_deferred_discard_of_dynamic_texture_visible_when_executed(void **state)
{
    struct e2e *e = *state;
    D3D11_TEXTURE2D_DESC td = { .Width = 37, .Height = 5, .MipLevels = 1, .ArraySize = 1,
                                .Format = DXGI_FORMAT_R8G8B8A8_UNORM, .SampleDesc = { 1, 0 },
                                .Usage = D3D11_USAGE_DYNAMIC, .BindFlags = D3D11_BIND_SHADER_RESOURCE,
                                .CPUAccessFlags = D3D11_CPU_ACCESS_WRITE };
    ID3D11Texture2D *dyn = NULL, *def = NULL, *st = NULL;
    assert_int_equal(ID3D11Device_CreateTexture2D(e->dev, &td, NULL, &dyn), S_OK);
    td.Usage = D3D11_USAGE_DEFAULT;
    td.CPUAccessFlags = 0;
    assert_int_equal(ID3D11Device_CreateTexture2D(e->dev, &td, NULL, &def), S_OK);
    td.Usage = D3D11_USAGE_STAGING;
    td.BindFlags = 0;
    td.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    assert_int_equal(ID3D11Device_CreateTexture2D(e->dev, &td, NULL, &st), S_OK);
    ID3D11DeviceContext *dc = deferred(e);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(dc, (ID3D11Resource *)dyn, 0, D3D11_MAP_WRITE_DISCARD, 0, &m), S_OK);
    assert_true(m.RowPitch >= 37 * 4);
    for (UINT y = 0; y < 5; y++)
        for (UINT x = 0; x < 37 * 4; x++)
            ((BYTE *)m.pData)[y * m.RowPitch + x] = (BYTE)(x * 7 + y * 31);
    ID3D11DeviceContext_Unmap(dc, (ID3D11Resource *)dyn, 0);
    assert_int_equal(ID3D11DeviceContext_Map(dc, (ID3D11Resource *)dyn, 0, D3D11_MAP_WRITE_NO_OVERWRITE, 0, &m),
                     E_INVALIDARG); /* never on dynamic textures (docs/semantics.md §5.2) */
    ID3D11DeviceContext_CopyResource(dc, (ID3D11Resource *)def, (ID3D11Resource *)dyn);
    ID3D11CommandList *cl = NULL;
    assert_int_equal(ID3D11DeviceContext_FinishCommandList(dc, FALSE, &cl), S_OK);
    ID3D11DeviceContext_ExecuteCommandList(e->ctx, cl, FALSE);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)st, (ID3D11Resource *)def);
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)st, 0, D3D11_MAP_READ, 0, &m), S_OK);
    for (UINT y = 0; y < 5; y++)
        for (UINT x = 0; x < 37 * 4; x++)
            assert_int_equal(((const BYTE *)m.pData)[y * m.RowPitch + x], (BYTE)(x * 7 + y * 31));
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)st, 0);
    SAFE_RELEASE(cl); SAFE_RELEASE(dc); SAFE_RELEASE(st); SAFE_RELEASE(def); SAFE_RELEASE(dyn);
}

/* ClearUnorderedAccessViewUint, on the IC and recorded on a DC, fills the view's elements on the
 * GPU with each UINT's low bits per channel; only the view's range changes. */
/* rule: runtime.clearunorderedaccessviewuint-ic-recorded */
static void test_clear_uav_uint_fills_view_range_on_immediate_and_deferred(void **state)
{
    struct e2e *e = *state;
    D3D11_BUFFER_DESC bd = { .ByteWidth = N, .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_UNORDERED_ACCESS };
    ID3D11Buffer *b1 = NULL, *b2 = NULL;
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, NULL, &b1), S_OK);
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, NULL, &b2), S_OK);
    D3D11_UNORDERED_ACCESS_VIEW_DESC ud = { .Format = DXGI_FORMAT_R32_UINT, .ViewDimension = D3D11_UAV_DIMENSION_BUFFER,
                                            .Buffer = { .FirstElement = 16, .NumElements = 100 } };
    ID3D11UnorderedAccessView *u1 = NULL, *u2 = NULL;
    assert_int_equal(ID3D11Device_CreateUnorderedAccessView(e->dev, (ID3D11Resource *)b1, &ud, &u1), S_OK);
    assert_int_equal(ID3D11Device_CreateUnorderedAccessView(e->dev, (ID3D11Resource *)b2, &ud, &u2), S_OK);
    const UINT vals[4] = { 0xA1B2C3D4u, 1, 2, 3 };
    ID3D11DeviceContext_ClearUnorderedAccessViewUint(e->ctx, u1, vals);
    ID3D11DeviceContext *dc = deferred(e);
    ID3D11DeviceContext_ClearUnorderedAccessViewUint(dc, u2, vals);
    ID3D11CommandList *cl = NULL;
    assert_int_equal(ID3D11DeviceContext_FinishCommandList(dc, FALSE, &cl), S_OK);
    ID3D11DeviceContext_ExecuteCommandList(e->ctx, cl, FALSE);
    BYTE want[N], got[N];
    memset(want, 0, N);
    for (UINT i = 16; i < 116; i++)
        memcpy(want + i * 4, &vals[0], 4);
    readback(e, b1, got);
    assert_memory_equal(got, want, N);
    readback(e, b2, got);
    assert_memory_equal(got, want, N);

    /* Texture2D RGBA8_UINT: the low 8 bits of each value, per channel. */
    D3D11_TEXTURE2D_DESC td = { .Width = 8, .Height = 4, .MipLevels = 1, .ArraySize = 1,
                                .Format = DXGI_FORMAT_R8G8B8A8_UINT, .SampleDesc = { 1, 0 },
                                .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_UNORDERED_ACCESS };
    ID3D11Texture2D *tex = NULL, *st = NULL;
    assert_int_equal(ID3D11Device_CreateTexture2D(e->dev, &td, NULL, &tex), S_OK);
    td.Usage = D3D11_USAGE_STAGING;
    td.BindFlags = 0;
    td.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    assert_int_equal(ID3D11Device_CreateTexture2D(e->dev, &td, NULL, &st), S_OK);
    ID3D11UnorderedAccessView *ut = NULL;
    assert_int_equal(ID3D11Device_CreateUnorderedAccessView(e->dev, (ID3D11Resource *)tex, NULL, &ut), S_OK);
    const UINT tv[4] = { 0x101, 0x202, 0x3FF, 0x44 };
    ID3D11DeviceContext_ClearUnorderedAccessViewUint(dc, ut, tv);
    ID3D11CommandList *cl2 = NULL;
    assert_int_equal(ID3D11DeviceContext_FinishCommandList(dc, FALSE, &cl2), S_OK);
    ID3D11DeviceContext_ExecuteCommandList(e->ctx, cl2, FALSE);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)st, (ID3D11Resource *)tex);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)st, 0, D3D11_MAP_READ, 0, &m), S_OK);
    for (UINT y = 0; y < 4; y++)
        for (UINT x = 0; x < 8; x++) {
            const BYTE *px = (const BYTE *)m.pData + y * m.RowPitch + x * 4;
            assert_int_equal(px[0], 0x01);
            assert_int_equal(px[1], 0x02);
            assert_int_equal(px[2], 0xFF);
            assert_int_equal(px[3], 0x44);
        }
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)st, 0);
    SAFE_RELEASE(cl2); SAFE_RELEASE(ut); SAFE_RELEASE(st); SAFE_RELEASE(tex);
    SAFE_RELEASE(cl); SAFE_RELEASE(dc); SAFE_RELEASE(u1); SAFE_RELEASE(u2); SAFE_RELEASE(b1); SAFE_RELEASE(b2);
}

/* View creation rules: SRV needs BIND_SHADER_RESOURCE, UAV needs BIND_UNORDERED_ACCESS; ranges
 * inside the resource; RAW needs R32_TYPELESS and MISC_BUFFER_ALLOW_RAW_VIEWS; a buffer view
 * needs a description. */
/* rule: runtime.createshaderresourceview */
static void test_srv_uav_creation_checks_bind_flags_ranges_and_raw(void **state)
{
    struct e2e *e = *state;
    D3D11_BUFFER_DESC bd = { .ByteWidth = 256, .Usage = D3D11_USAGE_DEFAULT,
                             .BindFlags = D3D11_BIND_SHADER_RESOURCE };
    ID3D11Buffer *srvbuf = NULL;
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, NULL, &srvbuf), S_OK);
    D3D11_SHADER_RESOURCE_VIEW_DESC sd = { .Format = DXGI_FORMAT_R32_UINT, .ViewDimension = D3D11_SRV_DIMENSION_BUFFER,
                                           .Buffer = { .FirstElement = 0, .NumElements = 64 } };
    ID3D11ShaderResourceView *srv = NULL;
    assert_int_equal(ID3D11Device_CreateShaderResourceView(e->dev, (ID3D11Resource *)srvbuf, &sd, &srv), S_OK);
    ID3D11Resource *back = NULL;
    ID3D11ShaderResourceView_GetResource(srv, &back);
    assert_ptr_equal(back, (ID3D11Resource *)srvbuf);
    back->lpVtbl->Release(back);
    SAFE_RELEASE(srv);
    sd.Buffer.NumElements = 65; /* 260 bytes > 256 */
    assert_int_equal(ID3D11Device_CreateShaderResourceView(e->dev, (ID3D11Resource *)srvbuf, &sd, &srv), E_INVALIDARG);
    assert_int_equal(ID3D11Device_CreateShaderResourceView(e->dev, (ID3D11Resource *)srvbuf, NULL, &srv), E_INVALIDARG);
    D3D11_UNORDERED_ACCESS_VIEW_DESC ud = { .Format = DXGI_FORMAT_R32_UINT, .ViewDimension = D3D11_UAV_DIMENSION_BUFFER,
                                            .Buffer = { .FirstElement = 0, .NumElements = 4 } };
    ID3D11UnorderedAccessView *uav = NULL;
    assert_int_equal(ID3D11Device_CreateUnorderedAccessView(e->dev, (ID3D11Resource *)srvbuf, &ud, &uav), E_INVALIDARG);
    bd.BindFlags = D3D11_BIND_UNORDERED_ACCESS;
    ID3D11Buffer *ub = NULL;
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, NULL, &ub), S_OK);
    ud.Format = DXGI_FORMAT_R32_TYPELESS;
    ud.Buffer.Flags = D3D11_BUFFER_UAV_FLAG_RAW;
    assert_int_equal(ID3D11Device_CreateUnorderedAccessView(e->dev, (ID3D11Resource *)ub, &ud, &uav), E_INVALIDARG);
    assert_null(uav);
    SAFE_RELEASE(ub);
    bd.MiscFlags = D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS;
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, NULL, &ub), S_OK);
    assert_int_equal(ID3D11Device_CreateUnorderedAccessView(e->dev, (ID3D11Resource *)ub, &ud, &uav), S_OK);
    SAFE_RELEASE(uav);
    SAFE_RELEASE(ub);
    SAFE_RELEASE(srvbuf);
}

/* This test's own UMD: the reference UMD with a fault on the deferred context's n-th recording
 * call (UpdateSubresourceUP, ResourceCopy, DynamicIABufferMapDiscard, DynamicIABufferUnmap),
 * reported through that context's pfnSetErrorCb as a UMD does when its recording runs out of
 * memory; a failed map hands out nothing. */
static PFND3D10DDI_CREATEDEVICE oom_real_create_device;
static PFND3D11DDI_CREATEDEFERREDCONTEXT oom_real_create_dc;
static D3D11DDI_DEVICEFUNCS oom_dc_real;
static D3D10DDI_HRTCORELAYER oom_dc_core;
static PFND3D10DDI_SETERROR_CB oom_set_error;
static int oom_countdown = -1; /* the call that fails: 0 = the next one; -1 none */
static int oom_injected;

static BOOL oom_now(void)
{
    if (oom_countdown < 0 || oom_countdown-- != 0)
        return FALSE;
    oom_injected++;
    oom_set_error(oom_dc_core, E_OUTOFMEMORY);
    return TRUE;
}
static VOID APIENTRY oom_update(D3D10DDI_HDEVICE d, D3D10DDI_HRESOURCE r, UINT sub, const D3D10_DDI_BOX *box,
                                const VOID *data, UINT rp, UINT dp)
{
    if (!oom_now())
        oom_dc_real.pfnResourceUpdateSubresourceUP(d, r, sub, box, data, rp, dp);
}
static VOID APIENTRY oom_copy(D3D10DDI_HDEVICE d, D3D10DDI_HRESOURCE dst, D3D10DDI_HRESOURCE src)
{
    if (!oom_now())
        oom_dc_real.pfnResourceCopy(d, dst, src);
}
static VOID APIENTRY oom_map(D3D10DDI_HDEVICE d, D3D10DDI_HRESOURCE r, UINT sub, D3D10_DDI_MAP type, UINT flags,
                             D3D10DDI_MAPPED_SUBRESOURCE *out)
{
    if (oom_now())
        memset(out, 0, sizeof *out);
    else
        oom_dc_real.pfnDynamicIABufferMapDiscard(d, r, sub, type, flags, out);
}
static VOID APIENTRY oom_unmap(D3D10DDI_HDEVICE d, D3D10DDI_HRESOURCE r, UINT sub)
{
    if (!oom_now())
        oom_dc_real.pfnDynamicIABufferUnmap(d, r, sub);
}
static VOID APIENTRY oom_create_dc(D3D10DDI_HDEVICE d, const D3D11DDIARG_CREATEDEFERREDCONTEXT *a)
{
    oom_real_create_dc(d, a);
    oom_dc_real = *a->p11ContextFuncs;
    oom_dc_core = a->hRTCoreLayer;
    oom_set_error = a->p11UMCallbacks->pfnSetErrorCb;
    a->p11ContextFuncs->pfnResourceUpdateSubresourceUP = oom_update;
    a->p11ContextFuncs->pfnResourceCopy = oom_copy;
    a->p11ContextFuncs->pfnDynamicIABufferMapDiscard = oom_map;
    a->p11ContextFuncs->pfnDynamicIABufferUnmap = oom_unmap;
}
static HRESULT APIENTRY oom_create_device(D3D10DDI_HADAPTER ad, D3D10DDIARG_CREATEDEVICE *a)
{
    HRESULT hr = oom_real_create_device(ad, a);
    oom_real_create_dc = a->p11DeviceFuncs->pfnCreateDeferredContext;
    a->p11DeviceFuncs->pfnCreateDeferredContext = oom_create_dc;
    return hr;
}
static HRESULT APIENTRY oom_open_adapter(D3D10DDIARG_OPENADAPTER *a)
{
    HRESULT hr = OpenAdapter10_2(a);
    oom_real_create_device = a->pAdapterFuncs_2->pfnCreateDevice;
    a->pAdapterFuncs_2->pfnCreateDevice = oom_create_device;
    return hr;
}
static int oom_setup(void **state)
{
    wddm_set_umd_entry(oom_open_adapter);
    return e2e_setup_umd_lists(state);
}
static int oom_teardown(void **state)
{
    oom_countdown = -1;
    int r = e2e_teardown_lists(state);
    wddm_set_umd_entry(NULL);
    return r;
}

/* seed 004: a deferred context may report E_OUTOFMEMORY from any call; the runtime removes the
 * context locally, drops the partial list, keeps accepting calls, and FinishCommandList returns
 * E_OUTOFMEMORY; the next recording works again. (UMD mode: the fault is injected by this test's
 * UMD, at each of the context's first five calls.) */
/* rule: runtime.errors-dc-ddis-go-dc-own (the test's own UMD wrapper fails each of the DC's first 5 calls) */
/* rule: runtime.after-createcommandlist-dc-handles (after a failed list the context records again) */
static void test_deferred_out_of_memory_drops_list_and_finish_reports_it(void **state)
{
    struct e2e *e = *state;
    BYTE p[N], got[N], zero[N] = { 0 };
    e2e_fill(p, N, 21);
    ID3D11Buffer *a = DEFAULT_BUF(e), *b = DEFAULT_BUF(e), *dyn = DYNAMIC_BUF(e);
    for (int fail_at = 0; fail_at < 5; fail_at++) {
        ID3D11DeviceContext *dc = deferred(e);
        oom_countdown = fail_at;
        oom_injected = 0;
        ID3D11DeviceContext_UpdateSubresource(dc, (ID3D11Resource *)a, 0, NULL, p, N, N);
        ID3D11DeviceContext_CopyResource(dc, (ID3D11Resource *)b, (ID3D11Resource *)a);
        map_write(dc, dyn, D3D11_MAP_WRITE_DISCARD, p, 0, N); /* still accepted after the failure */
        ID3D11DeviceContext_CopyResource(dc, (ID3D11Resource *)b, (ID3D11Resource *)dyn);
        ID3D11DeviceContext_UpdateSubresource(dc, (ID3D11Resource *)a, 0, NULL, p, N, N);
        ID3D11CommandList *cl = (ID3D11CommandList *)1;
        assert_int_equal(ID3D11DeviceContext_FinishCommandList(dc, FALSE, &cl), E_OUTOFMEMORY);
        assert_null(cl);
        assert_int_equal(oom_injected, 1);
        oom_countdown = -1;
        readback(e, b, got);
        assert_memory_equal(got, zero, N); /* nothing of the dropped list ever ran */
        /* The context records again. */
        ID3D11DeviceContext_UpdateSubresource(dc, (ID3D11Resource *)a, 0, NULL, p, N, N);
        assert_int_equal(ID3D11DeviceContext_FinishCommandList(dc, FALSE, &cl), S_OK);
        SAFE_RELEASE(cl);
        SAFE_RELEASE(dc);
    }
    SAFE_RELEASE(a); SAFE_RELEASE(b); SAFE_RELEASE(dyn);
}

/* Two threads record into their own deferred contexts at the same time (ThreadSanitizer build
 * proves no race); the main thread executes both lists on the immediate context. */
struct par { ID3D11DeviceContext *dc; ID3D11Buffer *dst, *src, *dyn; BYTE seed; ID3D11CommandList *out; };
static void *par_thread(void *p)
{
    struct par *r = p;
    BYTE data[N];
    for (int i = 0; i < 50; i++) {
        memset(data, r->seed + i, N);
        ID3D11DeviceContext_UpdateSubresource(r->dc, (ID3D11Resource *)r->src, 0, NULL, data, N, N);
        map_write(r->dc, r->dyn, D3D11_MAP_WRITE_DISCARD, data, 0, N);
        ID3D11DeviceContext_CopyResource(r->dc, (ID3D11Resource *)r->dst, (ID3D11Resource *)r->src);
    }
    if (FAILED(ID3D11DeviceContext_FinishCommandList(r->dc, FALSE, &r->out)))
        r->out = NULL;
    return NULL;
}

/* rule: runtime.two-threads-record-own-dcs-once (TSan build) */
static void test_two_threads_record_concurrently_into_own_deferred_contexts(void **state)
{
    struct e2e *e = *state;
    struct par r[2];
    pthread_t t[2];
    for (int i = 0; i < 2; i++) {
        r[i] = (struct par){ deferred(e), DEFAULT_BUF(e), DEFAULT_BUF(e), DYNAMIC_BUF(e), (BYTE)(16 + i * 100), NULL };
        assert_int_equal(pthread_create(&t[i], NULL, par_thread, &r[i]), 0);
    }
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    BYTE got[N], want[N];
    for (int i = 0; i < 2; i++) {
        assert_non_null(r[i].out);
        ID3D11DeviceContext_ExecuteCommandList(e->ctx, r[i].out, FALSE);
        readback(e, r[i].dst, got);
        memset(want, r[i].seed + 49, N);
        assert_memory_equal(got, want, N);
        SAFE_RELEASE(r[i].out); SAFE_RELEASE(r[i].dc); SAFE_RELEASE(r[i].dst); SAFE_RELEASE(r[i].src);
        SAFE_RELEASE(r[i].dyn);
    }
}

#define BOTH(f) cmocka_unit_test_setup_teardown(f, e2e_setup_umd_lists, e2e_teardown_lists), \
                cmocka_unit_test_setup_teardown(f, e2e_setup_emulated_lists, e2e_teardown_lists)

int main(void)
{
    const struct CMUnitTest tests[] = {
        BOTH(test_deferred_context_type_and_finish_only_on_deferred),
        BOTH(test_threading_feature_reports_umd_command_lists),
        BOTH(test_list_recorded_on_one_thread_executed_on_another_is_byte_identical),
        BOTH(test_discard_list_executed_many_times_renames_per_execution),
        BOTH(test_deferred_map_accepts_only_discard_then_nooverwrite_on_dynamic),
        BOTH(test_deferred_clear_render_target_view_fills_when_executed),
        BOTH(test_deferred_discard_of_dynamic_texture_visible_when_executed),
        BOTH(test_clear_uav_uint_fills_view_range_on_immediate_and_deferred),
        BOTH(test_srv_uav_creation_checks_bind_flags_ranges_and_raw),
        cmocka_unit_test_setup_teardown(test_deferred_out_of_memory_drops_list_and_finish_reports_it,
                                        oom_setup, oom_teardown),
        BOTH(test_two_threads_record_concurrently_into_own_deferred_contexts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
