/*
 * test_d3d11_1.c - the Direct3D 11.1 interfaces of the device and its contexts over the D3D11.1
 * DDI (issue 15 §4): ID3D11Device1 and ID3D11DeviceContext1 are the same objects;
 * CopySubresourceRegion1 and UpdateSubresource1 copy with D3D11_COPY_NO_OVERWRITE or
 * D3D11_COPY_DISCARD, refuse anything else, and hand the flags to the UMD's 11.1 copies; the
 * Discard methods reach the UMD's Discard(D3D11_1) (DEFAULT / DYNAMIC only); D3D11_OPTIONS says
 * so, and the partial constant buffer update and NO_OVERWRITE of a dynamic constant buffer it
 * reports work. A UMD that lists only the 11.0 DDI gets an 11.0 device: every one of those
 * answers FALSE, the flags and the discards end in the runtime. Windows' answers: the D3D11
 * API reference (ID3D11DeviceContext1::CopySubresourceRegion1, ::DiscardResource,
 * D3D11_COPY_FLAGS, D3D11_FEATURE_DATA_D3D11_OPTIONS) and the WDK's (D3D11_1DDI_DEVICEFUNCS,
 * PFND3D11_1DDI_DISCARD). Through the whole stack, on the immediate and on a deferred context.
 * docs/rules/runtime.md.
 */
/* rule: d3d10.one-table-context-immediate-context (all) */
#include "e2e/e2e.h"
#include "e2e/shim_umd.h"
#include "umd/ddi11_1.h"
#include "e2e/lists.h"

#include <d3d11_1.h>

enum { BYTES = 4096 };

struct pair {
    ID3D11Buffer *src, *dst, *staging;
};

static void make_pair(ID3D11Device *dev, struct pair *p)
{
    D3D11_BUFFER_DESC bd = { .ByteWidth = BYTES, .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_SHADER_RESOURCE };
    assert_int_equal(ID3D11Device_CreateBuffer(dev, &bd, NULL, &p->src), S_OK);
    assert_int_equal(ID3D11Device_CreateBuffer(dev, &bd, NULL, &p->dst), S_OK);
    bd.Usage = D3D11_USAGE_STAGING;
    bd.BindFlags = 0;
    bd.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    assert_int_equal(ID3D11Device_CreateBuffer(dev, &bd, NULL, &p->staging), S_OK);
}

static void free_pair(struct pair *p)
{
    ID3D11Buffer_Release(p->staging);
    ID3D11Buffer_Release(p->dst);
    ID3D11Buffer_Release(p->src);
}

/* dst's bytes, read back through a staging copy. */
static void read_dst(ID3D11DeviceContext *ctx, struct pair *p, BYTE *out)
{
    ID3D11DeviceContext_CopyResource(ctx, (ID3D11Resource *)p->staging, (ID3D11Resource *)p->dst);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(ctx, (ID3D11Resource *)p->staging, 0, D3D11_MAP_READ, 0, &m), S_OK);
    memcpy(out, m.pData, BYTES);
    ID3D11DeviceContext_Unmap(ctx, (ID3D11Resource *)p->staging, 0);
}

static struct wddm_umd_ddi11_1_counters counters(void)
{
    struct wddm_umd_ddi11_1_counters c;
    wddm_umd_get_ddi11_1_counters(&c);
    return c;
}

/* What the UMD's 11.1 DDI was told since `before`: NO_OVERWRITE copies, DISCARD copies, discards. */
static void assert_told(struct wddm_umd_ddi11_1_counters before, UINT64 no_overwrite, UINT64 discard, UINT64 discards)
{
    struct wddm_umd_ddi11_1_counters now = counters();
    assert_int_equal(now.copies_no_overwrite - before.copies_no_overwrite, no_overwrite);
    assert_int_equal(now.copies_discard - before.copies_discard, discard);
    assert_int_equal(now.discards - before.discards, discards);
}

/* rule: runtime.id3d11device1-id3d11devicecontext1 */
static void one_object_two_faces(void **state)
{
    struct e2e *e = *state;
    ID3D11Device1 *dev1 = NULL;
    assert_int_equal(ID3D11Device_QueryInterface(e->dev, &IID_ID3D11Device1, (void **)&dev1), S_OK);
    assert_ptr_equal(dev1, e->dev);
    ID3D11DeviceContext1 *ctx1 = NULL;
    ID3D11Device1_GetImmediateContext1(dev1, &ctx1);
    assert_ptr_equal(ctx1, e->ctx);
    ID3D11DeviceContext1 *again = NULL;
    assert_int_equal(ID3D11DeviceContext_QueryInterface(e->ctx, &IID_ID3D11DeviceContext1, (void **)&again), S_OK);
    assert_ptr_equal(again, ctx1);
    ID3D11DeviceContext1_Release(again);
    ID3D11DeviceContext1_Release(ctx1);
    ID3D11Device1_Release(dev1);

    /* The reference UMD has the 11.1 DDI: the driver sees discards and copy flags. */
    D3D11_FEATURE_DATA_D3D11_OPTIONS o;
    memset(&o, 0, sizeof o);
    assert_int_equal(ID3D11Device_CheckFeatureSupport(e->dev, D3D11_FEATURE_D3D11_OPTIONS, &o, sizeof o), S_OK);
    assert_true(o.DiscardAPIsSeenByDriver);
    assert_true(o.FlagsForUpdateAndCopySeenByDriver);
    assert_true(o.ConstantBufferPartialUpdate);
    assert_true(o.MapNoOverwriteOnDynamicConstantBuffer);
}

/* rule: runtime.copysubresourceregion1 (GPU readback and the UMD's count of each flag; mutation-checked: accepting both flags together fails it) */
/* rule: runtime.discardresource-discardview-discardview1 (the UMD's count of discards: one per accepted call, none for STAGING / NULL / missing rectangles) */
static void copies_with_flags(void **state)
{
    struct e2e *e = *state;
    ID3D11DeviceContext1 *ctx1 = NULL;
    assert_int_equal(ID3D11DeviceContext_QueryInterface(e->ctx, &IID_ID3D11DeviceContext1, (void **)&ctx1), S_OK);
    struct pair p;
    make_pair(e->dev, &p);
    BYTE a[BYTES], b[BYTES], got[BYTES];
    e2e_fill(a, BYTES, 1);
    e2e_fill(b, BYTES, 2);

    /* UpdateSubresource1 with NO_OVERWRITE, then CopySubresourceRegion1 with DISCARD: each flag
     * reaches the UMD's 11.1 copy once, and the bytes arrive. */
    struct wddm_umd_ddi11_1_counters c0 = counters();
    ID3D11DeviceContext1_UpdateSubresource1(ctx1, (ID3D11Resource *)p.src, 0, NULL, a, 0, 0, D3D11_COPY_NO_OVERWRITE);
    assert_told(c0, 1, 0, 0);
    ID3D11DeviceContext1_CopySubresourceRegion1(ctx1, (ID3D11Resource *)p.dst, 0, 0, 0, 0, (ID3D11Resource *)p.src, 0,
                                                NULL, D3D11_COPY_DISCARD);
    assert_told(c0, 1, 1, 0);
    read_dst(e->ctx, &p, got);
    assert_memory_equal(got, a, BYTES);
    assert_told(c0, 1, 1, 0); /* the plain copies of read_dst carry no flag */

    /* Refused flags copy nothing: an unknown bit (dst keeps a), the two together (src holds b
     * by then: a copy would show). */
    ID3D11DeviceContext1_UpdateSubresource1(ctx1, (ID3D11Resource *)p.dst, 0, NULL, b, 0, 0, 0x4);
    read_dst(e->ctx, &p, got);
    assert_memory_equal(got, a, BYTES);
    ID3D11DeviceContext1_UpdateSubresource1(ctx1, (ID3D11Resource *)p.src, 0, NULL, b, 0, 0, D3D11_COPY_DISCARD);
    ID3D11DeviceContext1_CopySubresourceRegion1(ctx1, (ID3D11Resource *)p.dst, 0, 0, 0, 0, (ID3D11Resource *)p.src, 0,
                                                NULL, D3D11_COPY_NO_OVERWRITE | D3D11_COPY_DISCARD);
    read_dst(e->ctx, &p, got);
    assert_memory_equal(got, a, BYTES);

    /* A region with NO_OVERWRITE: bytes 1024..2047 of src land at 0. */
    D3D11_BOX box = { .left = 1024, .right = 2048, .top = 0, .bottom = 1, .front = 0, .back = 1 };
    ID3D11DeviceContext1_CopySubresourceRegion1(ctx1, (ID3D11Resource *)p.dst, 0, 0, 0, 0, (ID3D11Resource *)p.src, 0,
                                                &box, D3D11_COPY_NO_OVERWRITE);
    read_dst(e->ctx, &p, got);
    assert_memory_equal(got, b + 1024, 1024);
    assert_memory_equal(got + 1024, a + 1024, BYTES - 1024);

    /* Discards reach the UMD (which keeps the content); a STAGING resource's or a NULL one is
     * dropped by the runtime. */
    c0 = counters();
    ID3D11DeviceContext1_DiscardResource(ctx1, (ID3D11Resource *)p.dst);
    assert_told(c0, 0, 0, 1);
    ID3D11DeviceContext1_DiscardResource(ctx1, (ID3D11Resource *)p.staging);
    ID3D11DeviceContext1_DiscardResource(ctx1, NULL);
    ID3D11DeviceContext1_DiscardView(ctx1, NULL);
    ID3D11DeviceContext1_DiscardView1(ctx1, NULL, NULL, 0);
    assert_told(c0, 0, 0, 1);
    ID3D11ShaderResourceView *srv = NULL;
    D3D11_SHADER_RESOURCE_VIEW_DESC sd = { .Format = DXGI_FORMAT_R32_UINT, .ViewDimension = D3D11_SRV_DIMENSION_BUFFER,
                                           .Buffer = { .FirstElement = 0, .NumElements = BYTES / 4 } };
    assert_int_equal(ID3D11Device_CreateShaderResourceView(e->dev, (ID3D11Resource *)p.dst, &sd, &srv), S_OK);
    ID3D11DeviceContext1_DiscardView(ctx1, (ID3D11View *)srv);
    D3D11_RECT r = { 0, 0, 16, 1 };
    ID3D11DeviceContext1_DiscardView1(ctx1, (ID3D11View *)srv, &r, 1);
    ID3D11DeviceContext1_DiscardView1(ctx1, (ID3D11View *)srv, NULL, 1); /* rectangles missing: dropped */
    assert_told(c0, 0, 0, 3);
    ID3D11ShaderResourceView_Release(srv);
    read_dst(e->ctx, &p, got);
    assert_memory_equal(got, b + 1024, 1024);

    free_pair(&p);
    ID3D11DeviceContext1_Release(ctx1);
}

/* A deferred context made through ID3D11Device1 records the 11.1 copies like the others. */
/* rule: runtime.id3d11device1-id3d11devicecontext1 */
/* rule: runtime.copysubresourceregion1 (the UMD is told at execution, not at recording) */
/* rule: runtime.discardresource-discardview-discardview1 */
static void deferred_context1_records_them(void **state)
{
    struct e2e *e = *state;
    ID3D11Device1 *dev1 = NULL;
    assert_int_equal(ID3D11Device_QueryInterface(e->dev, &IID_ID3D11Device1, (void **)&dev1), S_OK);
    ID3D11DeviceContext1 *dc = NULL;
    assert_int_equal(ID3D11Device1_CreateDeferredContext1(dev1, 0, &dc), S_OK);
    assert_int_equal(ID3D11DeviceContext1_GetType(dc), D3D11_DEVICE_CONTEXT_DEFERRED);
    struct pair p;
    make_pair(e->dev, &p);
    BYTE a[BYTES], got[BYTES];
    e2e_fill(a, BYTES, 3);
    struct wddm_umd_ddi11_1_counters c0 = counters();
    ID3D11DeviceContext1_UpdateSubresource1(dc, (ID3D11Resource *)p.src, 0, NULL, a, 0, 0, D3D11_COPY_DISCARD);
    ID3D11DeviceContext1_CopySubresourceRegion1(dc, (ID3D11Resource *)p.dst, 0, 0, 0, 0, (ID3D11Resource *)p.src, 0,
                                                NULL, D3D11_COPY_NO_OVERWRITE);
    ID3D11DeviceContext1_DiscardResource(dc, (ID3D11Resource *)p.staging); /* dropped: STAGING */
    ID3D11DeviceContext1_DiscardResource(dc, (ID3D11Resource *)p.src);
    ID3D11ShaderResourceView *srv = NULL; /* a view's discard: through its context-local handle */
    D3D11_SHADER_RESOURCE_VIEW_DESC sd = { .Format = DXGI_FORMAT_R32_UINT, .ViewDimension = D3D11_SRV_DIMENSION_BUFFER,
                                           .Buffer = { .FirstElement = 0, .NumElements = BYTES / 4 } };
    assert_int_equal(ID3D11Device_CreateShaderResourceView(e->dev, (ID3D11Resource *)p.src, &sd, &srv), S_OK);
    D3D11_RECT r = { 0, 0, 8, 1 };
    ID3D11DeviceContext1_DiscardView1(dc, (ID3D11View *)srv, &r, 1);
    /* NO_OVERWRITE of a dynamic constant buffer after the list's DISCARD of it (D3D11_OPTIONS'
     * MapNoOverwriteOnDynamicConstantBuffer): the same bytes, then the list carries both writes. */
    enum { CB = 256 };
    D3D11_BUFFER_DESC cbd = { .ByteWidth = CB, .Usage = D3D11_USAGE_DYNAMIC, .BindFlags = D3D11_BIND_CONSTANT_BUFFER,
                              .CPUAccessFlags = D3D11_CPU_ACCESS_WRITE };
    ID3D11Buffer *cb = NULL, *cb_st = NULL;
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &cbd, NULL, &cb), S_OK);
    cbd.Usage = D3D11_USAGE_STAGING;
    cbd.BindFlags = 0;
    cbd.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &cbd, NULL, &cb_st), S_OK);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext1_Map(dc, (ID3D11Resource *)cb, 0, D3D11_MAP_WRITE_DISCARD, 0, &m), S_OK);
    memcpy(m.pData, a, CB);
    ID3D11DeviceContext1_Unmap(dc, (ID3D11Resource *)cb, 0);
    assert_int_equal(ID3D11DeviceContext1_Map(dc, (ID3D11Resource *)cb, 0, D3D11_MAP_WRITE_NO_OVERWRITE, 0, &m), S_OK);
    assert_memory_equal(m.pData, a, CB);
    memcpy((BYTE *)m.pData + CB / 2, a + CB, CB / 2);
    ID3D11DeviceContext1_Unmap(dc, (ID3D11Resource *)cb, 0);
    ID3D11DeviceContext1_CopyResource(dc, (ID3D11Resource *)cb_st, (ID3D11Resource *)cb);
    ID3D11CommandList *list = NULL;
    assert_int_equal(ID3D11DeviceContext1_FinishCommandList(dc, FALSE, &list), S_OK);
    assert_told(c0, 0, 0, 0); /* recorded, not yet executed */
    ID3D11DeviceContext_ExecuteCommandList(e->ctx, list, FALSE);
    assert_told(c0, 1, 1, 2); /* each flag and both discards reach the UMD on execution */
    ID3D11ShaderResourceView_Release(srv);
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)cb_st, 0, D3D11_MAP_READ, 0, &m), S_OK);
    assert_memory_equal(m.pData, a, CB / 2);
    assert_memory_equal((BYTE *)m.pData + CB / 2, a + CB, CB / 2);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)cb_st, 0);
    ID3D11Buffer_Release(cb_st);
    ID3D11Buffer_Release(cb);
    read_dst(e->ctx, &p, got);
    assert_memory_equal(got, a, BYTES);
    ID3D11CommandList_Release(list);
    free_pair(&p);
    ID3D11DeviceContext1_Release(dc);
    ID3D11Device1_Release(dev1);
}

/* What the 11.1 options report works: a box into a constant buffer, NO_OVERWRITE on a dynamic
 * constant buffer (after a DISCARD, the bytes it wrote are there to add to). */
/* rule: runtime.d3d11-options-answers-driver-ddi-lets (the bytes after a partial constant-buffer update and after NO_OVERWRITE) */
static void options_hold(void **state)
{
    struct e2e *e = *state;
    ID3D11DeviceContext1 *ctx1 = NULL;
    assert_int_equal(ID3D11DeviceContext_QueryInterface(e->ctx, &IID_ID3D11DeviceContext1, (void **)&ctx1), S_OK);
    enum { CB = 256 };
    D3D11_BUFFER_DESC bd = { .ByteWidth = CB, .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_CONSTANT_BUFFER };
    BYTE a[CB], b[CB], got[CB];
    e2e_fill(a, CB, 7);
    e2e_fill(b, CB, 8);
    D3D11_SUBRESOURCE_DATA init = { .pSysMem = a };
    ID3D11Buffer *cb = NULL, *st = NULL;
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, &init, &cb), S_OK);
    D3D11_BUFFER_DESC sd = { .ByteWidth = CB, .Usage = D3D11_USAGE_STAGING, .CPUAccessFlags = D3D11_CPU_ACCESS_READ };
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &sd, NULL, &st), S_OK);
    D3D11_BOX box = { .left = 64, .right = 128, .top = 0, .bottom = 1, .front = 0, .back = 1 };
    ID3D11DeviceContext1_UpdateSubresource1(ctx1, (ID3D11Resource *)cb, 0, &box, b, 0, 0, 0);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)st, (ID3D11Resource *)cb);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)st, 0, D3D11_MAP_READ, 0, &m), S_OK);
    memcpy(got, m.pData, CB);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)st, 0);
    assert_memory_equal(got, a, 64);
    assert_memory_equal(got + 64, b, 64);
    assert_memory_equal(got + 128, a + 128, CB - 128);

    bd.Usage = D3D11_USAGE_DYNAMIC;
    bd.CPUAccessFlags = D3D11_CPU_ACCESS_WRITE;
    ID3D11Buffer *dyn = NULL;
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, NULL, &dyn), S_OK);
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)dyn, 0, D3D11_MAP_WRITE_DISCARD, 0, &m), S_OK);
    memcpy(m.pData, a, CB);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)dyn, 0);
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)dyn, 0, D3D11_MAP_WRITE_NO_OVERWRITE, 0, &m),
                     S_OK);
    assert_memory_equal(m.pData, a, CB); /* the same memory the DISCARD handed out */
    memcpy((BYTE *)m.pData + 128, b, 64);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)dyn, 0);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)st, (ID3D11Resource *)dyn);
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)st, 0, D3D11_MAP_READ, 0, &m), S_OK);
    memcpy(got, m.pData, CB);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)st, 0);
    assert_memory_equal(got, a, 128);
    assert_memory_equal(got + 128, b, 64);
    ID3D11Buffer_Release(dyn);
    ID3D11Buffer_Release(st);
    ID3D11Buffer_Release(cb);
    ID3D11DeviceContext1_Release(ctx1);
}

/* A UMD that lists only the D3D11.0 DDI: the runtime drives it through 11.0, the options say
 * FALSE, flags and discards end in the runtime (the copies still happen), and what the options
 * deny is refused. */
/* rule: runtime.d3d11-device-drives-umd-through-d3d11 (a UMD listing only 11.0 gets 11.0) */
/* rule: runtime.copysubresourceregion1 */
/* rule: runtime.discardresource-discardview-discardview1 */
/* rule: runtime.d3d11-options-answers-driver-ddi-lets */
static void umd_without_the_11_1_ddi(void **state)
{
    (void)state;
    memset(&shim, 0, sizeof shim);
    shim.hide_11_1 = TRUE;
    wddm_set_umd_entry(shim_open_adapter);
    ID3D11Device *dev = NULL;
    ID3D11DeviceContext *ctx = NULL;
    assert_int_equal(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &dev, NULL,
                                       &ctx), S_OK);
    wddm_set_umd_entry(NULL);
    assert_int_equal(shim.device_interface, D3D11_0_DDI_INTERFACE_VERSION);
    D3D11_FEATURE_DATA_D3D11_OPTIONS o;
    memset(&o, 0xff, sizeof o);
    assert_int_equal(ID3D11Device_CheckFeatureSupport(dev, D3D11_FEATURE_D3D11_OPTIONS, &o, sizeof o), S_OK);
    D3D11_FEATURE_DATA_D3D11_OPTIONS zero;
    memset(&zero, 0, sizeof zero);
    assert_memory_equal(&o, &zero, sizeof o);

    ID3D11DeviceContext1 *ctx1 = NULL;
    assert_int_equal(ID3D11DeviceContext_QueryInterface(ctx, &IID_ID3D11DeviceContext1, (void **)&ctx1), S_OK);
    struct pair p;
    make_pair(dev, &p);
    BYTE a[BYTES], got[BYTES];
    e2e_fill(a, BYTES, 9);
    struct wddm_umd_ddi11_1_counters c0 = counters();
    ID3D11DeviceContext1_UpdateSubresource1(ctx1, (ID3D11Resource *)p.src, 0, NULL, a, 0, 0, D3D11_COPY_DISCARD);
    ID3D11DeviceContext1_CopySubresourceRegion1(ctx1, (ID3D11Resource *)p.dst, 0, 0, 0, 0, (ID3D11Resource *)p.src, 0,
                                                NULL, D3D11_COPY_NO_OVERWRITE);
    ID3D11DeviceContext1_DiscardResource(ctx1, (ID3D11Resource *)p.src);
    assert_told(c0, 0, 0, 0);
    read_dst(ctx, &p, got);
    assert_memory_equal(got, a, BYTES);

    D3D11_BUFFER_DESC bd = { .ByteWidth = 64, .Usage = D3D11_USAGE_DYNAMIC, .BindFlags = D3D11_BIND_CONSTANT_BUFFER,
                             .CPUAccessFlags = D3D11_CPU_ACCESS_WRITE };
    ID3D11Buffer *dyn = NULL;
    assert_int_equal(ID3D11Device_CreateBuffer(dev, &bd, NULL, &dyn), S_OK);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(ctx, (ID3D11Resource *)dyn, 0, D3D11_MAP_WRITE_NO_OVERWRITE, 0, &m),
                     E_INVALIDARG);
    ID3D11Buffer_Release(dyn);
    free_pair(&p);
    ID3D11DeviceContext1_Release(ctx1);
    ID3D11DeviceContext_Release(ctx);
    assert_int_equal(ID3D11Device_Release(dev), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(one_object_two_faces, e2e_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(copies_with_flags, e2e_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(deferred_context1_records_them, e2e_setup_umd_lists, e2e_teardown_lists),
        cmocka_unit_test_setup_teardown(deferred_context1_records_them, e2e_setup_emulated_lists, e2e_teardown_lists),
        cmocka_unit_test_setup_teardown(options_hold, e2e_setup, e2e_teardown),
        cmocka_unit_test(umd_without_the_11_1_ddi),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
