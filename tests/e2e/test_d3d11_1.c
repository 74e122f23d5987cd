/*
 * test_d3d11_1.c - the Direct3D 11.1 interfaces of the device and its contexts (issue 15 §4):
 * ID3D11Device1 and ID3D11DeviceContext1 are the same objects; CopySubresourceRegion1 and
 * UpdateSubresource1 copy with D3D11_COPY_NO_OVERWRITE or D3D11_COPY_DISCARD and refuse
 * anything else; the Discard methods keep the content (the driver sees no discards:
 * D3D11_OPTIONS). Windows' answers: the D3D11 API reference (ID3D11DeviceContext1::
 * CopySubresourceRegion1, ::DiscardResource, D3D11_COPY_FLAGS, D3D11_FEATURE_DATA_D3D11_OPTIONS).
 * Through the whole stack, on the immediate and on a deferred context. docs/rules.md §42.
 */
#include "e2e/e2e.h"

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

    /* Consistent with what the methods do: the driver sees neither discards nor copy flags. */
    D3D11_FEATURE_DATA_D3D11_OPTIONS o;
    memset(&o, 0xff, sizeof o);
    assert_int_equal(ID3D11Device_CheckFeatureSupport(e->dev, D3D11_FEATURE_D3D11_OPTIONS, &o, sizeof o), S_OK);
    assert_false(o.DiscardAPIsSeenByDriver);
    assert_false(o.FlagsForUpdateAndCopySeenByDriver);
}

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

    /* UpdateSubresource1 with NO_OVERWRITE, then CopySubresourceRegion1 with DISCARD. */
    ID3D11DeviceContext1_UpdateSubresource1(ctx1, (ID3D11Resource *)p.src, 0, NULL, a, 0, 0, D3D11_COPY_NO_OVERWRITE);
    ID3D11DeviceContext1_CopySubresourceRegion1(ctx1, (ID3D11Resource *)p.dst, 0, 0, 0, 0, (ID3D11Resource *)p.src, 0,
                                                NULL, D3D11_COPY_DISCARD);
    read_dst(e->ctx, &p, got);
    assert_memory_equal(got, a, BYTES);

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

    /* Discards keep the content; NULL is refused without harm. */
    ID3D11DeviceContext1_DiscardResource(ctx1, (ID3D11Resource *)p.dst);
    ID3D11DeviceContext1_DiscardResource(ctx1, NULL);
    ID3D11DeviceContext1_DiscardView(ctx1, NULL);
    ID3D11DeviceContext1_DiscardView1(ctx1, NULL, NULL, 0);
    read_dst(e->ctx, &p, got);
    assert_memory_equal(got, b + 1024, 1024);

    free_pair(&p);
    ID3D11DeviceContext1_Release(ctx1);
}

/* A deferred context made through ID3D11Device1 records the 11.1 copies like the others. */
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
    ID3D11DeviceContext1_UpdateSubresource1(dc, (ID3D11Resource *)p.src, 0, NULL, a, 0, 0, D3D11_COPY_DISCARD);
    ID3D11DeviceContext1_CopySubresourceRegion1(dc, (ID3D11Resource *)p.dst, 0, 0, 0, 0, (ID3D11Resource *)p.src, 0,
                                                NULL, D3D11_COPY_NO_OVERWRITE);
    ID3D11CommandList *list = NULL;
    assert_int_equal(ID3D11DeviceContext1_FinishCommandList(dc, FALSE, &list), S_OK);
    ID3D11DeviceContext_ExecuteCommandList(e->ctx, list, FALSE);
    read_dst(e->ctx, &p, got);
    assert_memory_equal(got, a, BYTES);
    ID3D11CommandList_Release(list);
    free_pair(&p);
    ID3D11DeviceContext1_Release(dc);
    ID3D11Device1_Release(dev1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(one_object_two_faces, e2e_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(copies_with_flags, e2e_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(deferred_context1_records_them, e2e_setup, e2e_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
