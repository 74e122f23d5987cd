/* Device-level answers as Windows gives them (issue 14 §2). Sources: Wine's
 * dlls/d3d11/tests/d3d11.c, which runs on Windows - test_check_feature_support,
 * test_check_multisample_quality_levels, test_create_device, test_get_immediate_context,
 * test_device_removed_reason - and the D3D11 reference pages of CheckFeatureSupport and the
 * D3D11_FEATURE_DATA_* structures. Where a feature describes behaviour this stack has, the test
 * checks the answer against that behaviour. */
/* rule: runtime.sampledesc-quality-must-below (count loop) */
#include "conformance/d3d11_conf.h"

#include <d3d11_4.h> /* D3D11_FEATURE_DATA_D3D11_OPTIONS4 */

/* Every feature up to D3D11.4 (OPTIONS5) with its structure size. */
static const struct { D3D11_FEATURE f; UINT size; } features[] = {
    { D3D11_FEATURE_THREADING, sizeof(D3D11_FEATURE_DATA_THREADING) },
    { D3D11_FEATURE_DOUBLES, sizeof(D3D11_FEATURE_DATA_DOUBLES) },
    { D3D11_FEATURE_FORMAT_SUPPORT, sizeof(D3D11_FEATURE_DATA_FORMAT_SUPPORT) },
    { D3D11_FEATURE_FORMAT_SUPPORT2, sizeof(D3D11_FEATURE_DATA_FORMAT_SUPPORT2) },
    { D3D11_FEATURE_D3D10_X_HARDWARE_OPTIONS, sizeof(D3D11_FEATURE_DATA_D3D10_X_HARDWARE_OPTIONS) },
    { D3D11_FEATURE_D3D11_OPTIONS, sizeof(D3D11_FEATURE_DATA_D3D11_OPTIONS) },
    { D3D11_FEATURE_ARCHITECTURE_INFO, sizeof(D3D11_FEATURE_DATA_ARCHITECTURE_INFO) },
    { D3D11_FEATURE_D3D9_OPTIONS, sizeof(D3D11_FEATURE_DATA_D3D9_OPTIONS) },
    { D3D11_FEATURE_SHADER_MIN_PRECISION_SUPPORT, sizeof(D3D11_FEATURE_DATA_SHADER_MIN_PRECISION_SUPPORT) },
    { D3D11_FEATURE_D3D9_SHADOW_SUPPORT, sizeof(D3D11_FEATURE_DATA_D3D9_SHADOW_SUPPORT) },
    { D3D11_FEATURE_D3D11_OPTIONS1, sizeof(D3D11_FEATURE_DATA_D3D11_OPTIONS1) },
    { D3D11_FEATURE_D3D9_SIMPLE_INSTANCING_SUPPORT, sizeof(D3D11_FEATURE_DATA_D3D9_SIMPLE_INSTANCING_SUPPORT) },
    { D3D11_FEATURE_MARKER_SUPPORT, sizeof(D3D11_FEATURE_DATA_MARKER_SUPPORT) },
    { D3D11_FEATURE_D3D9_OPTIONS1, sizeof(D3D11_FEATURE_DATA_D3D9_OPTIONS1) },
    { D3D11_FEATURE_D3D11_OPTIONS2, sizeof(D3D11_FEATURE_DATA_D3D11_OPTIONS2) },
    { D3D11_FEATURE_D3D11_OPTIONS3, sizeof(D3D11_FEATURE_DATA_D3D11_OPTIONS3) },
    { D3D11_FEATURE_GPU_VIRTUAL_ADDRESS_SUPPORT, sizeof(D3D11_FEATURE_DATA_GPU_VIRTUAL_ADDRESS_SUPPORT) },
    { D3D11_FEATURE_D3D11_OPTIONS4, sizeof(D3D11_FEATURE_DATA_D3D11_OPTIONS4) },
    { D3D11_FEATURE_SHADER_CACHE, sizeof(D3D11_FEATURE_DATA_SHADER_CACHE) },
    { D3D11_FEATURE_D3D11_OPTIONS5, sizeof(D3D11_FEATURE_DATA_D3D11_OPTIONS5) },
};

static BOOL untouched(const BYTE *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != 0xef)
            return FALSE;
    return TRUE;
}

/* E_INVALIDARG for NULL data, any size but the structure's, or an unknown feature - the data
 * untouched; the structure's exact size answers S_OK. The enumeration values are the SDK's. */
/* rule: runtime.checkfeaturesupport-answers-every-d3d11 */
static void test_check_feature_support_refuses_wrong_sizes_and_answers_every_feature(void **state)
{
    struct conf *c = *state;
    assert_int_equal(D3D11_FEATURE_D3D11_OPTIONS1, 10);
    assert_int_equal(D3D11_FEATURE_D3D9_OPTIONS1, 13);
    assert_int_equal(D3D11_FEATURE_D3D11_OPTIONS5, 19);
    BYTE buf[2 * 64];
    for (size_t i = 0; i < sizeof features / sizeof features[0]; i++) {
        UINT n = features[i].size;
        UINT wrong[] = { 0, n - 1, n / 2, n + 1, n * 2 };
        assert_int_equal(ID3D11Device_CheckFeatureSupport(c->dev, features[i].f, NULL, 0), E_INVALIDARG);
        assert_int_equal(ID3D11Device_CheckFeatureSupport(c->dev, features[i].f, NULL, n), E_INVALIDARG);
        for (size_t k = 0; k < sizeof wrong / sizeof wrong[0]; k++) {
            memset(buf, 0xef, sizeof buf);
            assert_int_equal(ID3D11Device_CheckFeatureSupport(c->dev, features[i].f, buf, wrong[k]), E_INVALIDARG);
            assert_true(untouched(buf, sizeof buf));
        }
        memset(buf, 0, sizeof buf);
        if (features[i].f == D3D11_FEATURE_FORMAT_SUPPORT || features[i].f == D3D11_FEATURE_FORMAT_SUPPORT2)
            *(DXGI_FORMAT *)buf = DXGI_FORMAT_R8G8B8A8_UNORM;
        memset(buf + n, 0xef, sizeof buf - n);
        assert_int_equal(ID3D11Device_CheckFeatureSupport(c->dev, features[i].f, buf, n), S_OK);
        assert_true(untouched(buf + n, sizeof buf - n)); /* nothing written past the structure */
    }
    memset(buf, 0xef, sizeof buf);
    assert_int_equal(ID3D11Device_CheckFeatureSupport(c->dev, (D3D11_FEATURE)0x7fff, buf, 4), E_INVALIDARG);
    assert_true(untouched(buf, sizeof buf));
}

/* The answers are this stack's truth: no shaders (every shader option FALSE, full precision
 * only), no D3D11.1 DDI, no tiled resources; what has behaviour behind it is checked against
 * that behaviour. */
/* rule: runtime.checkfeaturesupport-answers-every-d3d11 */
/* rule: runtime.d3d11-options-answers-driver-ddi-lets */
/* rule: runtime.format-support2-unsupported-e-fail (DXGI_FORMAT_UNKNOWN) */
static void test_feature_answers_match_what_the_device_does(void **state)
{
    struct conf *c = *state;
    D3D11_FEATURE_DATA_THREADING th;
    memset(&th, 0xef, sizeof th);
    assert_int_equal(ID3D11Device_CheckFeatureSupport(c->dev, D3D11_FEATURE_THREADING, &th, sizeof th), S_OK);
    assert_true(th.DriverConcurrentCreates == TRUE || th.DriverConcurrentCreates == FALSE);
    assert_true(th.DriverCommandLists == TRUE || th.DriverCommandLists == FALSE);

    D3D11_FEATURE_DATA_DOUBLES dbl = { TRUE };
    assert_int_equal(ID3D11Device_CheckFeatureSupport(c->dev, D3D11_FEATURE_DOUBLES, &dbl, sizeof dbl), S_OK);
    assert_false(dbl.DoublePrecisionFloatShaderOps);
    D3D11_FEATURE_DATA_D3D10_X_HARDWARE_OPTIONS hw = { TRUE };
    assert_int_equal(ID3D11Device_CheckFeatureSupport(c->dev, D3D11_FEATURE_D3D10_X_HARDWARE_OPTIONS, &hw, sizeof hw),
                     S_OK);
    assert_false(hw.ComputeShaders_Plus_RawAndStructuredBuffers_Via_Shader_4_x);
    D3D11_FEATURE_DATA_ARCHITECTURE_INFO arch = { TRUE };
    assert_int_equal(ID3D11Device_CheckFeatureSupport(c->dev, D3D11_FEATURE_ARCHITECTURE_INFO, &arch, sizeof arch),
                     S_OK);
    assert_false(arch.TileBasedDeferredRenderer);
    D3D11_FEATURE_DATA_SHADER_MIN_PRECISION_SUPPORT mp = { 3, 3 };
    assert_int_equal(ID3D11Device_CheckFeatureSupport(c->dev, D3D11_FEATURE_SHADER_MIN_PRECISION_SUPPORT, &mp,
                                                      sizeof mp), S_OK);
    assert_int_equal(mp.PixelShaderMinPrecision, 0);
    assert_int_equal(mp.AllOtherShaderStagesMinPrecision, 0);
    D3D11_FEATURE_DATA_D3D9_SHADOW_SUPPORT sh = { TRUE };
    assert_int_equal(ID3D11Device_CheckFeatureSupport(c->dev, D3D11_FEATURE_D3D9_SHADOW_SUPPORT, &sh, sizeof sh), S_OK);
    assert_false(sh.SupportsDepthAsTextureWithLessEqualComparisonFilter);
    D3D11_FEATURE_DATA_D3D9_SIMPLE_INSTANCING_SUPPORT si = { TRUE };
    assert_int_equal(ID3D11Device_CheckFeatureSupport(c->dev, D3D11_FEATURE_D3D9_SIMPLE_INSTANCING_SUPPORT, &si,
                                                      sizeof si), S_OK);
    assert_false(si.SimpleInstancingSupported);
    D3D11_FEATURE_DATA_MARKER_SUPPORT mk = { TRUE };
    assert_int_equal(ID3D11Device_CheckFeatureSupport(c->dev, D3D11_FEATURE_MARKER_SUPPORT, &mk, sizeof mk), S_OK);
    assert_false(mk.Profile);

    /* D3D11_OPTIONS: what the driver's D3D11.1 DDI lets the runtime hand on is TRUE (discards,
     * copy flags, partial constant buffer updates, NO_OVERWRITE on dynamic constant and
     * shader-resource buffers), every other member FALSE; and Map does what it says. */
    D3D11_FEATURE_DATA_D3D11_OPTIONS o;
    memset(&o, 0xef, sizeof o);
    assert_int_equal(ID3D11Device_CheckFeatureSupport(c->dev, D3D11_FEATURE_D3D11_OPTIONS, &o, sizeof o), S_OK);
    D3D11_FEATURE_DATA_D3D11_OPTIONS want;
    memset(&want, 0, sizeof want);
    want.DiscardAPIsSeenByDriver = want.FlagsForUpdateAndCopySeenByDriver = want.ConstantBufferPartialUpdate = TRUE;
    want.MapNoOverwriteOnDynamicConstantBuffer = want.MapNoOverwriteOnDynamicBufferSRV = TRUE;
    assert_memory_equal(&o, &want, sizeof o);
    D3D11_MAPPED_SUBRESOURCE m;
    ID3D11Buffer *cb = conf_buffer(c->dev, 64, D3D11_USAGE_DYNAMIC, D3D11_BIND_CONSTANT_BUFFER, D3D11_CPU_ACCESS_WRITE,
                                   NULL);
    assert_int_equal(ID3D11DeviceContext_Map(c->ctx, (ID3D11Resource *)cb, 0, D3D11_MAP_WRITE_NO_OVERWRITE, 0, &m),
                     S_OK);
    ID3D11DeviceContext_Unmap(c->ctx, (ID3D11Resource *)cb, 0);
    ID3D11Buffer *srb = conf_buffer(c->dev, 64, D3D11_USAGE_DYNAMIC, D3D11_BIND_SHADER_RESOURCE,
                                    D3D11_CPU_ACCESS_WRITE, NULL);
    assert_int_equal(ID3D11DeviceContext_Map(c->ctx, (ID3D11Resource *)srb, 0, D3D11_MAP_WRITE_NO_OVERWRITE, 0, &m),
                     S_OK);
    ID3D11DeviceContext_Unmap(c->ctx, (ID3D11Resource *)srb, 0);

    /* D3D11_OPTIONS1: no tiled resources, no min/max filtering, no ClearView, no Map of a
     * DEFAULT buffer - which Map refuses. */
    D3D11_FEATURE_DATA_D3D11_OPTIONS1 o1;
    memset(&o1, 0xef, sizeof o1);
    assert_int_equal(ID3D11Device_CheckFeatureSupport(c->dev, D3D11_FEATURE_D3D11_OPTIONS1, &o1, sizeof o1), S_OK);
    assert_int_equal(o1.TiledResourcesTier, D3D11_TILED_RESOURCES_NOT_SUPPORTED);
    assert_false(o1.MinMaxFiltering);
    assert_false(o1.ClearViewAlsoSupportsDepthOnlyFormats);
    assert_false(o1.MapOnDefaultBuffers);
    ID3D11Buffer *def = conf_buffer(c->dev, 64, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0, NULL);
    assert_int_equal(ID3D11DeviceContext_Map(c->ctx, (ID3D11Resource *)def, 0, D3D11_MAP_WRITE, 0, &m), E_INVALIDARG);

    /* D3D9_OPTIONS(1): no power-of-two restriction - a 3x5 texture with its full mip chain. */
    D3D11_FEATURE_DATA_D3D9_OPTIONS o9 = { FALSE };
    assert_int_equal(ID3D11Device_CheckFeatureSupport(c->dev, D3D11_FEATURE_D3D9_OPTIONS, &o9, sizeof o9), S_OK);
    assert_true(o9.FullNonPow2TextureSupport == TRUE);
    D3D11_FEATURE_DATA_D3D9_OPTIONS1 o91;
    memset(&o91, 0xef, sizeof o91);
    assert_int_equal(ID3D11Device_CheckFeatureSupport(c->dev, D3D11_FEATURE_D3D9_OPTIONS1, &o91, sizeof o91), S_OK);
    assert_true(o91.FullNonPow2TextureSupported == TRUE);
    assert_false(o91.DepthAsTextureWithLessEqualComparisonFilterSupported);
    assert_false(o91.SimpleInstancingSupported);
    assert_false(o91.TextureCubeFaceRenderTargetWithNonCubeDepthStencilSupported);
    D3D11_TEXTURE2D_DESC npot = { 3, 5, 0, 1, DXGI_FORMAT_R8G8B8A8_UNORM, { 1, 0 }, D3D11_USAGE_DEFAULT,
                                  D3D11_BIND_SHADER_RESOURCE, 0, 0 };
    ID3D11Texture2D *t = NULL;
    assert_int_equal(ID3D11Device_CreateTexture2D(c->dev, &npot, NULL, &t), S_OK);
    CONF_RELEASE(t);

    /* FORMAT_SUPPORT is CheckFormatSupport; FORMAT_SUPPORT2 says SHAREABLE for the formats a
     * MISC_SHARED texture can be created with, and nothing else. */
    static const DXGI_FORMAT fmts[] = { DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_FORMAT_B8G8R8A8_UNORM,
                                        DXGI_FORMAT_R16G16B16A16_FLOAT, DXGI_FORMAT_R32_FLOAT };
    for (size_t i = 0; i < sizeof fmts / sizeof fmts[0]; i++) {
        UINT direct = 0;
        assert_int_equal(ID3D11Device_CheckFormatSupport(c->dev, fmts[i], &direct), S_OK);
        D3D11_FEATURE_DATA_FORMAT_SUPPORT fs = { fmts[i], 0 };
        assert_int_equal(ID3D11Device_CheckFeatureSupport(c->dev, D3D11_FEATURE_FORMAT_SUPPORT, &fs, sizeof fs), S_OK);
        assert_int_equal(fs.OutFormatSupport, direct);
        D3D11_FEATURE_DATA_FORMAT_SUPPORT2 fs2 = { fmts[i], 0xffffffff };
        assert_int_equal(ID3D11Device_CheckFeatureSupport(c->dev, D3D11_FEATURE_FORMAT_SUPPORT2, &fs2, sizeof fs2),
                         S_OK);
        assert_int_equal(fs2.OutFormatSupport2, D3D11_FORMAT_SUPPORT2_SHAREABLE);
        D3D11_TEXTURE2D_DESC sd = { 16, 16, 1, 1, fmts[i], { 1, 0 }, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE,
                                    0, D3D11_RESOURCE_MISC_SHARED };
        assert_int_equal(ID3D11Device_CreateTexture2D(c->dev, &sd, NULL, &t), S_OK);
        CONF_RELEASE(t);
    }
    D3D11_FEATURE_DATA_FORMAT_SUPPORT2 none = { DXGI_FORMAT_UNKNOWN, 0xffffffff };
    assert_int_equal(ID3D11Device_CheckFeatureSupport(c->dev, D3D11_FEATURE_FORMAT_SUPPORT2, &none, sizeof none),
                     E_FAIL);
    assert_int_equal(none.OutFormatSupport2, 0);

    CONF_RELEASE(def);
    CONF_RELEASE(srb);
    CONF_RELEASE(cb);
}

/* CheckMultisampleQualityLevels (test_check_multisample_quality_levels): NULL output ->
 * E_INVALIDARG; a value that is no DXGI_FORMAT -> E_INVALIDARG, output untouched;
 * DXGI_FORMAT_UNKNOWN or a block-compressed format -> S_OK, 0; count 0 or above 32 -> E_FAIL, 0;
 * count 1 -> S_OK, 1; an unsupported count (15, 32) -> S_OK, 0. And what it answers is what
 * CreateTexture2D accepts. */
/* rule: runtime.id3d11device */
/* rule: runtime.msaa-quality-levels-not-format */
static void test_multisample_quality_levels_answer_as_windows(void **state)
{
    struct conf *c = *state;
    UINT q;
    assert_int_equal(ID3D11Device_CheckMultisampleQualityLevels(c->dev, DXGI_FORMAT_R8G8B8A8_UNORM, 0, NULL),
                     E_INVALIDARG);
    assert_int_equal(ID3D11Device_CheckMultisampleQualityLevels(c->dev, DXGI_FORMAT_R8G8B8A8_UNORM, 2, NULL),
                     E_INVALIDARG);
    q = 0xdeadbeef;
    assert_int_equal(ID3D11Device_CheckMultisampleQualityLevels(c->dev, (DXGI_FORMAT)65536, 2, &q), E_INVALIDARG);
    assert_int_equal(q, 0xdeadbeef);
    q = 0xdeadbeef;
    assert_int_equal(ID3D11Device_CheckMultisampleQualityLevels(c->dev, DXGI_FORMAT_UNKNOWN, 2, &q), S_OK);
    assert_int_equal(q, 0);
    q = 0xdeadbeef;
    assert_int_equal(ID3D11Device_CheckMultisampleQualityLevels(c->dev, DXGI_FORMAT_R8G8B8A8_UNORM, 0, &q), E_FAIL);
    assert_int_equal(q, 0);
    q = 0xdeadbeef;
    assert_int_equal(ID3D11Device_CheckMultisampleQualityLevels(c->dev, DXGI_FORMAT_R8G8B8A8_UNORM, 1, &q), S_OK);
    assert_int_equal(q, 1);
    q = 0xdeadbeef;
    assert_int_equal(ID3D11Device_CheckMultisampleQualityLevels(c->dev, DXGI_FORMAT_R8G8B8A8_UNORM, 15, &q), S_OK);
    assert_int_equal(q, 0);
    assert_int_equal(ID3D11Device_CheckMultisampleQualityLevels(c->dev, DXGI_FORMAT_R8G8B8A8_UNORM, 32, &q), S_OK);
    q = 0xdeadbeef;
    assert_int_equal(ID3D11Device_CheckMultisampleQualityLevels(c->dev, DXGI_FORMAT_R8G8B8A8_UNORM, 33, &q), E_FAIL);
    assert_int_equal(q, 0);
    q = 0xdeadbeef;
    assert_int_equal(ID3D11Device_CheckMultisampleQualityLevels(c->dev, DXGI_FORMAT_R8G8B8A8_UNORM, 64, &q), E_FAIL);
    assert_int_equal(q, 0);
    q = 0xdeadbeef;
    assert_int_equal(ID3D11Device_CheckMultisampleQualityLevels(c->dev, DXGI_FORMAT_BC3_UNORM, 2, &q), S_OK);
    assert_int_equal(q, 0);
    for (UINT count = 2; count <= 8; count *= 2) {
        assert_int_equal(ID3D11Device_CheckMultisampleQualityLevels(c->dev, DXGI_FORMAT_R8G8B8A8_UNORM, count, &q),
                         S_OK);
        D3D11_TEXTURE2D_DESC d = { 64, 64, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, { count, 0 }, D3D11_USAGE_DEFAULT,
                                   D3D11_BIND_RENDER_TARGET, 0, 0 };
        ID3D11Texture2D *t = NULL;
        assert_int_equal(ID3D11Device_CreateTexture2D(c->dev, &d, NULL, &t), q ? S_OK : E_INVALIDARG);
        CONF_RELEASE(t);
    }
}

/* CheckFormatSupport: NULL output -> E_INVALIDARG; a format the device does not support ->
 * E_FAIL with 0; a supported one's bits say what creation accepts (2-D texture, render target,
 * depth-stencil). */
/* rule: runtime.checkformatsupport-null-e-invalidarg */
static void test_format_support_bits_match_creation(void **state)
{
    struct conf *c = *state;
    UINT s = 0xdeadbeef;
    assert_int_equal(ID3D11Device_CheckFormatSupport(c->dev, DXGI_FORMAT_R8G8B8A8_UNORM, NULL), E_INVALIDARG);
    assert_int_equal(ID3D11Device_CheckFormatSupport(c->dev, DXGI_FORMAT_UNKNOWN, &s), E_FAIL);
    assert_int_equal(s, 0);
    static const DXGI_FORMAT fmts[] = { DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_FORMAT_B8G8R8A8_UNORM, DXGI_FORMAT_D32_FLOAT,
                                        DXGI_FORMAT_D24_UNORM_S8_UINT, DXGI_FORMAT_R16G16B16A16_FLOAT,
                                        DXGI_FORMAT_BC1_UNORM, DXGI_FORMAT_R32_FLOAT };
    for (size_t i = 0; i < sizeof fmts / sizeof fmts[0]; i++) {
        if (FAILED(ID3D11Device_CheckFormatSupport(c->dev, fmts[i], &s)))
            continue;
        struct { UINT bit, bind; } pairs[] = {
            { D3D11_FORMAT_SUPPORT_TEXTURE2D, 0 },
            { D3D11_FORMAT_SUPPORT_RENDER_TARGET, D3D11_BIND_RENDER_TARGET },
            { D3D11_FORMAT_SUPPORT_DEPTH_STENCIL, D3D11_BIND_DEPTH_STENCIL },
        };
        for (size_t k = 0; k < 3; k++) {
            D3D11_TEXTURE2D_DESC d = { 16, 16, 1, 1, fmts[i], { 1, 0 }, D3D11_USAGE_DEFAULT, pairs[k].bind, 0, 0 };
            ID3D11Texture2D *t = NULL;
            HRESULT hr = ID3D11Device_CreateTexture2D(c->dev, &d, NULL, &t);
            if ((hr == S_OK) != ((s & pairs[k].bit) != 0))
                fail_msg("format %u support 0x%x bit 0x%x: CreateTexture2D(bind 0x%x) 0x%08x", fmts[i], s, pairs[k].bit,
                         pairs[k].bind, (unsigned)hr);
            CONF_RELEASE(t);
        }
    }
}

/* D3D11CreateDevice and the device getters (test_create_device, test_get_immediate_context,
 * test_device_removed_reason). */
/* rule: runtime.createdeferredcontext-singlethreaded */
/* rule: runtime.d3d11createdevice-no-output-pointers-s */
static void test_device_creation_and_getters_answer_as_windows(void **state)
{
    (void)state;
    D3D_FEATURE_LEVEL fl = (D3D_FEATURE_LEVEL)0xdeadbeef;
    /* No output pointers: S_FALSE, the level that would be chosen still reported. */
    assert_int_equal(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, NULL, NULL,
                                       NULL), S_FALSE);
    assert_int_equal(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, NULL, &fl,
                                       NULL), S_FALSE);
    assert_int_equal(fl, D3D_FEATURE_LEVEL_11_0);
    /* A failure clears every output. */
    ID3D11Device *dev = (ID3D11Device *)(uintptr_t)0xdeadbeef;
    ID3D11DeviceContext *ctx = (ID3D11DeviceContext *)(uintptr_t)0xdeadbeef;
    fl = (D3D_FEATURE_LEVEL)0xdeadbeef;
    assert_int_equal(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_UNKNOWN, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &dev, &fl,
                                       &ctx), E_INVALIDARG);
    assert_null(dev);
    assert_null(ctx);
    assert_int_equal(fl, 0);
    /* Only the immediate context asked: it holds the one device reference. */
    assert_int_equal(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, NULL, NULL,
                                       &ctx), S_OK);
    assert_int_equal(conf_refs(ctx), 1);
    ID3D11DeviceContext_GetDevice(ctx, &dev);
    assert_int_equal(ID3D11Device_Release(dev), 1);
    assert_int_equal(ID3D11DeviceContext_Release(ctx), 0);

    /* GetImmediateContext: the same object each time, one device reference while held. */
    const UINT flags = D3D11_CREATE_DEVICE_SINGLETHREADED | D3D11_CREATE_DEVICE_BGRA_SUPPORT;
    const D3D_FEATURE_LEVEL want = D3D_FEATURE_LEVEL_10_1;
    assert_int_equal(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, flags, &want, 1, D3D11_SDK_VERSION, &dev,
                                       &fl, NULL), S_OK);
    assert_int_equal(fl, want);
    assert_int_equal(ID3D11Device_GetFeatureLevel(dev), want);
    assert_int_equal(ID3D11Device_GetCreationFlags(dev), flags);
    ULONG expect = conf_refs(dev) + 1;
    ID3D11DeviceContext *a = NULL, *b = NULL;
    ID3D11Device_GetImmediateContext(dev, &a);
    assert_int_equal(conf_refs(dev), expect);
    ID3D11Device_GetImmediateContext(dev, &b);
    assert_ptr_equal(a, b);
    assert_int_equal(conf_refs(dev), expect);
    assert_int_equal(ID3D11DeviceContext_Release(a), 1);
    assert_int_equal(ID3D11DeviceContext_Release(b), 0);
    assert_int_equal(conf_refs(dev), expect - 1);
    assert_int_equal(ID3D11Device_GetDeviceRemovedReason(dev), S_OK);
    assert_int_equal(ID3D11Device_GetDeviceRemovedReason(dev), S_OK);
    /* A SINGLETHREADED device creates no deferred context (test_create_deferred_context). */
    ID3D11DeviceContext *dc = (ID3D11DeviceContext *)(uintptr_t)1;
    assert_int_equal(ID3D11Device_CreateDeferredContext(dev, 0, &dc), DXGI_ERROR_INVALID_CALL);
    assert_null(dc);
    assert_int_equal(ID3D11Device_Release(dev), 0);

    /* A deferred context holds one device reference and starts with one of its own; the
     * immediate context has ContextFlags 0 and records no command list (test_immediate_context,
     * test_create_deferred_context). */
    assert_int_equal(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0, D3D11_SDK_VERSION, &dev, NULL,
                                       &ctx), S_OK);
    expect = conf_refs(dev) + 1;
    assert_int_equal(ID3D11Device_CreateDeferredContext(dev, 0, &dc), S_OK);
    assert_int_equal(conf_refs(dev), expect);
    assert_int_equal(conf_refs(dc), 1);
    assert_int_equal(ID3D11DeviceContext_GetType(dc), D3D11_DEVICE_CONTEXT_DEFERRED);
    assert_int_equal(ID3D11DeviceContext_GetType(ctx), D3D11_DEVICE_CONTEXT_IMMEDIATE);
    assert_int_equal(ID3D11DeviceContext_GetContextFlags(ctx), 0);
    ID3D11CommandList *cl = (ID3D11CommandList *)(uintptr_t)1;
    assert_int_equal(ID3D11DeviceContext_FinishCommandList(ctx, FALSE, &cl), DXGI_ERROR_INVALID_CALL);
    assert_null(cl);
    assert_int_equal(ID3D11DeviceContext_Release(dc), 0);
    assert_int_equal(conf_refs(dev), expect - 1);
    assert_int_equal(ID3D11DeviceContext_Release(ctx), 0); /* its own count; the device lives on */
    assert_int_equal(ID3D11Device_Release(dev), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_check_feature_support_refuses_wrong_sizes_and_answers_every_feature,
                                        conf_setup, conf_teardown),
        cmocka_unit_test_setup_teardown(test_feature_answers_match_what_the_device_does, conf_setup, conf_teardown),
        cmocka_unit_test_setup_teardown(test_multisample_quality_levels_answer_as_windows, conf_setup, conf_teardown),
        cmocka_unit_test_setup_teardown(test_format_support_bits_match_creation, conf_setup, conf_teardown),
        cmocka_unit_test(test_device_creation_and_getters_answer_as_windows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
