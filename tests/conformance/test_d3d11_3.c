/* The Direct3D 11.2 - 11.4 faces of the D3D11.0 objects (issue 20 §3, docs/api.md "Direct3D 11.2
 * to 11.4"): textures, views and queries answer their 11.3 interface on the same pointer, whose
 * GetDesc1 gives the description with the 11.3 fields; ID3D11Device3's Create*1 methods make the
 * same objects, refuse what this stack does not have (a texture layout other than the driver's,
 * a plane other than 0) with E_INVALIDARG, and CheckFeatureSupport says so
 * (D3D11_FEATURE_DATA_D3D11_OPTIONS2: MapOnDefaultTextures / StandardSwizzle FALSE; OPTIONS5:
 * shared resource tier 1). Sources: the reference pages of ID3D11Device3 (CreateTexture2D1,
 * CreateQuery1, CreateShaderResourceView1 ...), D3D11_TEXTURE_LAYOUT ("Callers must query
 * D3D11_FEATURE_DATA_D3D11_OPTIONS2 to ensure that each option is supported"),
 * D3D11_*_VIEW_DESC1, D3D11_QUERY_DESC1, ID3D11Device2::CheckMultisampleQualityLevels1
 * (MicrosoftDocs sdk-api, d3d11_2 / d3d11_3). */
#include "conformance/d3d11_conf.h"

#include <d3d11_4.h>

static ID3D11Device3 *dev3(struct conf *c)
{
    ID3D11Device3 *d = NULL;
    assert_int_equal(ID3D11Device_QueryInterface(c->dev, &IID_ID3D11Device3, (void **)&d), S_OK);
    return d;
}

static D3D11_TEXTURE2D_DESC1 tex2d_desc1(D3D11_TEXTURE_LAYOUT layout)
{
    D3D11_TEXTURE2D_DESC1 d = { 64, 32, 1, 2, DXGI_FORMAT_R8G8B8A8_UNORM, { 1, 0 }, D3D11_USAGE_DEFAULT,
                                D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_RENDER_TARGET | D3D11_BIND_UNORDERED_ACCESS,
                                0, 0, layout };
    return d;
}

/* rule: runtime.texture-layout-driver-only */
static void textures_take_the_drivers_layout_only(void **state)
{
    struct conf *c = *state;
    D3D11_FEATURE_DATA_D3D11_OPTIONS2 o2;
    memset(&o2, 0xef, sizeof o2);
    assert_int_equal(ID3D11Device_CheckFeatureSupport(c->dev, D3D11_FEATURE_D3D11_OPTIONS2, &o2, sizeof o2), S_OK);
    assert_false(o2.MapOnDefaultTextures);
    assert_false(o2.StandardSwizzle);
    assert_int_equal(o2.TiledResourcesTier, D3D11_TILED_RESOURCES_NOT_SUPPORTED);
    ID3D11Device3 *d = dev3(c);
    ID3D11Texture2D1 *t = NULL;
    D3D11_TEXTURE2D_DESC1 want = tex2d_desc1(D3D11_TEXTURE_LAYOUT_ROW_MAJOR);
    assert_int_equal(ID3D11Device3_CreateTexture2D1(d, &want, NULL, &t), E_INVALIDARG);
    assert_null(t);
    want.TextureLayout = D3D11_TEXTURE_LAYOUT_64K_STANDARD_SWIZZLE;
    assert_int_equal(ID3D11Device3_CreateTexture2D1(d, &want, NULL, &t), E_INVALIDARG);
    assert_int_equal(ID3D11Device3_CreateTexture2D1(d, NULL, NULL, &t), E_INVALIDARG);
    want.TextureLayout = D3D11_TEXTURE_LAYOUT_UNDEFINED;
    assert_int_equal(ID3D11Device3_CreateTexture2D1(d, &want, NULL, NULL), S_FALSE); /* validate only */
    assert_int_equal(ID3D11Device3_CreateTexture2D1(d, &want, NULL, &t), S_OK);
    D3D11_TEXTURE2D_DESC1 got;
    memset(&got, 0xef, sizeof got);
    ID3D11Texture2D1_GetDesc1(t, &got);
    assert_memory_equal(&got, &want, sizeof got);
    /* The same object as ID3D11Texture2D, and a plain texture answers ID3D11Texture2D1. */
    void *p = NULL;
    assert_int_equal(ID3D11Texture2D1_QueryInterface(t, &IID_ID3D11Texture2D, &p), S_OK);
    assert_ptr_equal(p, t);
    IUnknown_Release((IUnknown *)p);
    ID3D11Texture2D *plain = NULL;
    D3D11_TEXTURE2D_DESC pd;
    memcpy(&pd, &want, sizeof pd);
    assert_int_equal(ID3D11Device_CreateTexture2D(c->dev, &pd, NULL, &plain), S_OK);
    ID3D11Texture2D1 *plain1 = NULL;
    assert_int_equal(ID3D11Texture2D_QueryInterface(plain, &IID_ID3D11Texture2D1, (void **)&plain1), S_OK);
    ID3D11Texture2D1_GetDesc1(plain1, &got);
    assert_int_equal(got.TextureLayout, D3D11_TEXTURE_LAYOUT_UNDEFINED);
    assert_int_equal(got.Width, 64);
    CONF_RELEASE(plain1);
    CONF_RELEASE(plain);
    CONF_RELEASE(t);

    D3D11_TEXTURE3D_DESC1 w3 = { 16, 8, 4, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DEFAULT,
                                 D3D11_BIND_SHADER_RESOURCE, 0, 0, D3D11_TEXTURE_LAYOUT_ROW_MAJOR };
    ID3D11Texture3D1 *t3 = NULL;
    assert_int_equal(ID3D11Device3_CreateTexture3D1(d, &w3, NULL, &t3), E_INVALIDARG);
    w3.TextureLayout = D3D11_TEXTURE_LAYOUT_UNDEFINED;
    assert_int_equal(ID3D11Device3_CreateTexture3D1(d, &w3, NULL, &t3), S_OK);
    D3D11_TEXTURE3D_DESC1 g3;
    memset(&g3, 0xef, sizeof g3);
    ID3D11Texture3D1_GetDesc1(t3, &g3);
    assert_memory_equal(&g3, &w3, sizeof g3);
    CONF_RELEASE(t3);
    CONF_RELEASE(d);
}

/* rule: runtime.views-plane-zero */
static void views_see_plane_zero_and_describe_it(void **state)
{
    struct conf *c = *state;
    ID3D11Device3 *d = dev3(c);
    D3D11_TEXTURE2D_DESC1 td = tex2d_desc1(D3D11_TEXTURE_LAYOUT_UNDEFINED);
    ID3D11Texture2D1 *t = NULL;
    assert_int_equal(ID3D11Device3_CreateTexture2D1(d, &td, NULL, &t), S_OK);
    ID3D11Resource *r = (ID3D11Resource *)t;

    D3D11_SHADER_RESOURCE_VIEW_DESC1 sd = { DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_SRV_DIMENSION_TEXTURE2DARRAY };
    sd.Texture2DArray = (D3D11_TEX2D_ARRAY_SRV1){ 0, 1, 1, 1, 1 };
    ID3D11ShaderResourceView1 *srv = NULL;
    assert_int_equal(ID3D11Device3_CreateShaderResourceView1(d, r, &sd, &srv), E_INVALIDARG); /* plane 1 */
    assert_null(srv);
    sd.Texture2DArray.PlaneSlice = 0;
    assert_int_equal(ID3D11Device3_CreateShaderResourceView1(d, r, &sd, &srv), S_OK);
    D3D11_SHADER_RESOURCE_VIEW_DESC1 sg;
    memset(&sg, 0xef, sizeof sg);
    ID3D11ShaderResourceView1_GetDesc1(srv, &sg);
    assert_memory_equal(&sg, &sd, sizeof sg);
    D3D11_SHADER_RESOURCE_VIEW_DESC s0;
    ID3D11ShaderResourceView1_GetDesc(srv, &s0);
    assert_int_equal(s0.Texture2DArray.FirstArraySlice, 1);
    assert_int_equal(s0.Texture2DArray.ArraySize, 1);

    D3D11_RENDER_TARGET_VIEW_DESC1 rd = { DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_RTV_DIMENSION_TEXTURE2DARRAY };
    rd.Texture2DArray = (D3D11_TEX2D_ARRAY_RTV1){ 0, 0, 2, 3 };
    ID3D11RenderTargetView1 *rtv = NULL;
    assert_int_equal(ID3D11Device3_CreateRenderTargetView1(d, r, &rd, &rtv), E_INVALIDARG);
    rd.Texture2DArray.PlaneSlice = 0;
    assert_int_equal(ID3D11Device3_CreateRenderTargetView1(d, r, &rd, &rtv), S_OK);
    D3D11_RENDER_TARGET_VIEW_DESC1 rg;
    memset(&rg, 0xef, sizeof rg);
    ID3D11RenderTargetView1_GetDesc1(rtv, &rg);
    assert_memory_equal(&rg, &rd, sizeof rg);
    ID3D11RenderTargetView1 *rtv_null = NULL; /* no description: the whole resource */
    assert_int_equal(ID3D11Device3_CreateRenderTargetView1(d, r, NULL, &rtv_null), S_OK);
    ID3D11RenderTargetView1_GetDesc1(rtv_null, &rg);
    assert_int_equal(rg.ViewDimension, D3D11_RTV_DIMENSION_TEXTURE2DARRAY);
    assert_int_equal(rg.Texture2DArray.ArraySize, 2);
    assert_int_equal(rg.Texture2DArray.PlaneSlice, 0);

    D3D11_UNORDERED_ACCESS_VIEW_DESC1 ud = { DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_UAV_DIMENSION_TEXTURE2DARRAY };
    ud.Texture2DArray = (D3D11_TEX2D_ARRAY_UAV1){ 0, 1, 1, 2 };
    ID3D11UnorderedAccessView1 *uav = NULL;
    assert_int_equal(ID3D11Device3_CreateUnorderedAccessView1(d, r, &ud, &uav), E_INVALIDARG);
    ud.Texture2DArray.PlaneSlice = 0;
    assert_int_equal(ID3D11Device3_CreateUnorderedAccessView1(d, r, &ud, &uav), S_OK);
    D3D11_UNORDERED_ACCESS_VIEW_DESC1 ug;
    memset(&ug, 0xef, sizeof ug);
    ID3D11UnorderedAccessView1_GetDesc1(uav, &ug);
    assert_memory_equal(&ug, &ud, sizeof ug);

    /* A D3D11.0 view answers its 11.3 interface on the same pointer. */
    ID3D11ShaderResourceView *plain = NULL;
    assert_int_equal(ID3D11Device_CreateShaderResourceView(c->dev, r, NULL, &plain), S_OK);
    ID3D11ShaderResourceView1 *plain1 = NULL;
    assert_int_equal(ID3D11ShaderResourceView_QueryInterface(plain, &IID_ID3D11ShaderResourceView1, (void **)&plain1),
                     S_OK);
    assert_ptr_equal(plain1, plain);
    ID3D11ShaderResourceView1_GetDesc1(plain1, &sg);
    assert_int_equal(sg.Texture2DArray.PlaneSlice, 0);
    assert_int_equal(sg.Texture2DArray.ArraySize, 2);
    CONF_RELEASE(plain1);
    CONF_RELEASE(plain);
    CONF_RELEASE(uav);
    CONF_RELEASE(rtv_null);
    CONF_RELEASE(rtv);
    CONF_RELEASE(srv);
    CONF_RELEASE(t);
    CONF_RELEASE(d);
}

/* rule: runtime.query1-context-type */
static void queries_keep_their_context_type(void **state)
{
    struct conf *c = *state;
    ID3D11Device3 *d = dev3(c);
    D3D11_QUERY_DESC1 qd = { D3D11_QUERY_EVENT, 0, D3D11_CONTEXT_TYPE_COPY };
    ID3D11Query1 *q = NULL;
    assert_int_equal(ID3D11Device3_CreateQuery1(d, &qd, &q), S_OK);
    D3D11_QUERY_DESC1 got;
    memset(&got, 0xef, sizeof got);
    ID3D11Query1_GetDesc1(q, &got);
    assert_memory_equal(&got, &qd, sizeof got);
    /* It is a working event query. */
    ID3D11DeviceContext_End(c->ctx, (ID3D11Asynchronous *)q);
    BOOL done = FALSE;
    HRESULT hr;
    while ((hr = ID3D11DeviceContext_GetData(c->ctx, (ID3D11Asynchronous *)q, &done, sizeof done, 0)) == S_FALSE)
        ;
    assert_int_equal(hr, S_OK);
    assert_true(done);
    CONF_RELEASE(q);
    qd.ContextType = (D3D11_CONTEXT_TYPE)5;
    assert_int_equal(ID3D11Device3_CreateQuery1(d, &qd, &q), E_INVALIDARG);
    assert_null(q);
    qd = (D3D11_QUERY_DESC1){ D3D11_QUERY_OCCLUSION, 0, D3D11_CONTEXT_TYPE_ALL }; /* CreateQuery's rules */
    assert_int_equal(ID3D11Device3_CreateQuery1(d, &qd, &q), E_INVALIDARG);
    /* A D3D11.0 query: ContextType ALL. */
    D3D11_QUERY_DESC q0 = { D3D11_QUERY_TIMESTAMP, 0 };
    ID3D11Query *plain = NULL;
    assert_int_equal(ID3D11Device_CreateQuery(c->dev, &q0, &plain), S_OK);
    ID3D11Query1 *plain1 = NULL;
    assert_int_equal(ID3D11Query_QueryInterface(plain, &IID_ID3D11Query1, (void **)&plain1), S_OK);
    ID3D11Query1_GetDesc1(plain1, &got);
    assert_int_equal(got.Query, D3D11_QUERY_TIMESTAMP);
    assert_int_equal(got.ContextType, D3D11_CONTEXT_TYPE_ALL);
    CONF_RELEASE(plain1);
    CONF_RELEASE(plain);
    CONF_RELEASE(d);
}

/* rule: runtime.multisample-quality-levels1 */
static void multisample_quality_levels1_without_tiled_resources(void **state)
{
    struct conf *c = *state;
    ID3D11Device2 *d = NULL;
    assert_int_equal(ID3D11Device_QueryInterface(c->dev, &IID_ID3D11Device2, (void **)&d), S_OK);
    UINT plain = 0xdead, one = 0xdead;
    assert_int_equal(ID3D11Device_CheckMultisampleQualityLevels(c->dev, DXGI_FORMAT_R8G8B8A8_UNORM, 1, &plain), S_OK);
    assert_int_equal(ID3D11Device2_CheckMultisampleQualityLevels1(d, DXGI_FORMAT_R8G8B8A8_UNORM, 1, 0, &one), S_OK);
    assert_int_equal(one, plain);
    assert_true(plain >= 1);
    assert_int_equal(ID3D11Device2_CheckMultisampleQualityLevels1(
                         d, DXGI_FORMAT_R8G8B8A8_UNORM, 1, D3D11_CHECK_MULTISAMPLE_QUALITY_LEVELS_TILED_RESOURCE, &one),
                     S_OK);
    assert_int_equal(one, 0); /* no tiled resources */
    assert_int_equal(ID3D11Device2_CheckMultisampleQualityLevels1(d, DXGI_FORMAT_R8G8B8A8_UNORM, 1, 2, &one),
                     E_INVALIDARG);
    D3D11_FEATURE_DATA_D3D11_OPTIONS5 o5 = { (D3D11_SHARED_RESOURCE_TIER)7 };
    assert_int_equal(ID3D11Device_CheckFeatureSupport(c->dev, D3D11_FEATURE_D3D11_OPTIONS5, &o5, sizeof o5), S_OK);
    assert_int_equal(o5.SharedResourceTier, D3D11_SHARED_RESOURCE_TIER_1);
    CONF_RELEASE(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(textures_take_the_drivers_layout_only, conf_setup, conf_teardown),
        cmocka_unit_test_setup_teardown(views_see_plane_zero_and_describe_it, conf_setup, conf_teardown),
        cmocka_unit_test_setup_teardown(queries_keep_their_context_type, conf_setup, conf_teardown),
        cmocka_unit_test_setup_teardown(multisample_quality_levels1_without_tiled_resources, conf_setup,
                                        conf_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
