/* Resource creation as Windows answers it (issue 14 §2). Sources: Wine's
 * dlls/d3d11/tests/d3d11.c, which runs on Windows - test_resource_access (the usage x bind x
 * CPU-access matrix), test_create_texture2d / test_create_texture3d (format x bind tables, cube
 * array sizes, sample counts, MipLevels 0), test_create_buffer (buffer bind/misc table, constant
 * buffer sizes, StructureByteStride), and the D3D11 reference pages of CreateBuffer /
 * CreateTexture1D/2D/3D ("ppBuffer NULL: S_FALSE when the other inputs validate"). */
/* rule: runtime.usage-default-texture2d-misc-shared */
/* rule: runtime.d3d11-resource-misc-shared-nthandle-misc */
#include "conformance/d3d11_conf.h"

#define SR D3D11_BIND_SHADER_RESOURCE
#define RT D3D11_BIND_RENDER_TARGET
#define DS D3D11_BIND_DEPTH_STENCIL
#define UA D3D11_BIND_UNORDERED_ACCESS
#define VB D3D11_BIND_VERTEX_BUFFER
#define IB D3D11_BIND_INDEX_BUFFER
#define CB D3D11_BIND_CONSTANT_BUFFER
#define SO D3D11_BIND_STREAM_OUTPUT
#define CW D3D11_CPU_ACCESS_WRITE
#define CR D3D11_CPU_ACCESS_READ

/* The matrix (test_resource_access): which usage / bind pairs are valid at all, and which CPU
 * access flags each usage allows. DEFAULT and IMMUTABLE take none, DYNAMIC exactly WRITE, STAGING
 * any non-empty combination; IMMUTABLE and DYNAMIC need a bind flag and never an output bind;
 * STAGING takes no bind flag. The check is applied with initial data, as Windows ran it. */
static const struct { D3D11_USAGE usage; UINT bind; BOOL valid; UINT allowed_cpu; } matrix[] = {
    { D3D11_USAGE_DEFAULT, VB, TRUE, 0 }, { D3D11_USAGE_DEFAULT, IB, TRUE, 0 },
    { D3D11_USAGE_DEFAULT, CB, TRUE, 0 }, { D3D11_USAGE_DEFAULT, SR, TRUE, 0 },
    { D3D11_USAGE_DEFAULT, SO, TRUE, 0 }, { D3D11_USAGE_DEFAULT, RT, TRUE, 0 },
    { D3D11_USAGE_DEFAULT, DS, TRUE, 0 }, { D3D11_USAGE_DEFAULT, UA, TRUE, 0 },
    { D3D11_USAGE_IMMUTABLE, 0, FALSE, 0 }, { D3D11_USAGE_IMMUTABLE, VB, TRUE, 0 },
    { D3D11_USAGE_IMMUTABLE, IB, TRUE, 0 }, { D3D11_USAGE_IMMUTABLE, CB, TRUE, 0 },
    { D3D11_USAGE_IMMUTABLE, SR, TRUE, 0 }, { D3D11_USAGE_IMMUTABLE, SO, FALSE, 0 },
    { D3D11_USAGE_IMMUTABLE, RT, FALSE, 0 }, { D3D11_USAGE_IMMUTABLE, DS, FALSE, 0 },
    { D3D11_USAGE_IMMUTABLE, UA, FALSE, 0 },
    { D3D11_USAGE_DYNAMIC, 0, FALSE, CW }, { D3D11_USAGE_DYNAMIC, VB, TRUE, CW },
    { D3D11_USAGE_DYNAMIC, IB, TRUE, CW }, { D3D11_USAGE_DYNAMIC, CB, TRUE, CW },
    { D3D11_USAGE_DYNAMIC, SR, TRUE, CW }, { D3D11_USAGE_DYNAMIC, SO, FALSE, CW },
    { D3D11_USAGE_DYNAMIC, RT, FALSE, CW }, { D3D11_USAGE_DYNAMIC, DS, FALSE, CW },
    { D3D11_USAGE_DYNAMIC, UA, FALSE, CW },
    { D3D11_USAGE_STAGING, 0, TRUE, CW | CR }, { D3D11_USAGE_STAGING, VB, FALSE, 0 },
    { D3D11_USAGE_STAGING, IB, FALSE, 0 }, { D3D11_USAGE_STAGING, CB, FALSE, 0 },
    { D3D11_USAGE_STAGING, SR, FALSE, 0 }, { D3D11_USAGE_STAGING, SO, FALSE, 0 },
    { D3D11_USAGE_STAGING, RT, FALSE, 0 }, { D3D11_USAGE_STAGING, DS, FALSE, 0 },
    { D3D11_USAGE_STAGING, UA, FALSE, 0 },
};
static const UINT cpu_cases[] = { 0, CW, CR, CW | CR };

static HRESULT expected_for(size_t row, UINT cpu)
{
    BOOL needs_cpu = matrix[row].usage == D3D11_USAGE_DYNAMIC || matrix[row].usage == D3D11_USAGE_STAGING;
    if (!matrix[row].valid)
        return E_INVALIDARG;
    if (cpu == 0)
        return needs_cpu ? E_INVALIDARG : S_OK;
    return (cpu & ~matrix[row].allowed_cpu) ? E_INVALIDARG : S_OK;
}

/* rule: runtime.usage-bind-cpu-access-buffers-1 */
static void test_buffer_usage_bind_cpu_matrix_is_windows(void **state)
{
    struct conf *c = *state;
    static BYTE init[1024];
    D3D11_SUBRESOURCE_DATA data = { init, 0, 0 };
    for (size_t i = 0; i < sizeof matrix / sizeof matrix[0]; i++) {
        if (matrix[i].bind == DS)
            continue; /* never a buffer bind (the Wine test skips it too) */
        for (size_t k = 0; k < 4; k++) {
            D3D11_BUFFER_DESC d = { 1024, matrix[i].usage, matrix[i].bind, cpu_cases[k], 0, 0 };
            ID3D11Buffer *b = NULL;
            HRESULT hr = ID3D11Device_CreateBuffer(c->dev, &d, &data, &b);
            if (hr != expected_for(i, cpu_cases[k]))
                fail_msg("buffer usage %u bind 0x%x cpu 0x%x: 0x%08x", matrix[i].usage, matrix[i].bind, cpu_cases[k],
                         (unsigned)hr);
            CONF_RELEASE(b);
        }
    }
}

/* The same matrix for 1-D, 2-D and 3-D textures (4 texels a side, R8G8B8A8_UNORM; a depth
 * bind uses D16_UNORM, and only 2-D textures take it). */
/* rule: runtime.usage-bind-cpu-access-buffers-1 */
static void test_texture_usage_bind_cpu_matrix_is_windows(void **state)
{
    struct conf *c = *state;
    static BYTE init[4 * 4 * 4 * 4];
    D3D11_SUBRESOURCE_DATA data = { init, 16, 64 };
    for (size_t i = 0; i < sizeof matrix / sizeof matrix[0]; i++) {
        UINT bind = matrix[i].bind;
        if (bind & (VB | IB | CB | SO))
            continue;
        for (size_t k = 0; k < 4; k++) {
            HRESULT expect = expected_for(i, cpu_cases[k]), hr;
            DXGI_FORMAT fmt = bind == DS ? DXGI_FORMAT_D16_UNORM : DXGI_FORMAT_R8G8B8A8_UNORM;

            D3D11_TEXTURE2D_DESC t2 = { 4, 4, 1, 1, fmt, { 1, 0 }, matrix[i].usage, bind, cpu_cases[k], 0 };
            ID3D11Texture2D *tex2 = NULL;
            hr = ID3D11Device_CreateTexture2D(c->dev, &t2, &data, &tex2);
            if (hr != expect)
                fail_msg("2D usage %u bind 0x%x cpu 0x%x: 0x%08x", matrix[i].usage, bind, cpu_cases[k], (unsigned)hr);
            CONF_RELEASE(tex2);
            if (bind == DS)
                continue;

            D3D11_TEXTURE1D_DESC t1 = { 4, 1, 1, fmt, matrix[i].usage, bind, cpu_cases[k], 0 };
            ID3D11Texture1D *tex1 = NULL;
            hr = ID3D11Device_CreateTexture1D(c->dev, &t1, &data, &tex1);
            if (hr != expect)
                fail_msg("1D usage %u bind 0x%x cpu 0x%x: 0x%08x", matrix[i].usage, bind, cpu_cases[k], (unsigned)hr);
            CONF_RELEASE(tex1);

            D3D11_TEXTURE3D_DESC t3 = { 4, 4, 4, 1, fmt, matrix[i].usage, bind, cpu_cases[k], 0 };
            ID3D11Texture3D *tex3 = NULL;
            hr = ID3D11Device_CreateTexture3D(c->dev, &t3, &data, &tex3);
            if (hr != expect)
                fail_msg("3D usage %u bind 0x%x cpu 0x%x: 0x%08x", matrix[i].usage, bind, cpu_cases[k], (unsigned)hr);
            CONF_RELEASE(tex3);
        }
    }
}

/* A cube (TEXTURECUBE) takes ArraySize 6 below feature level 10_1 and any ArraySize from 6 up
 * at 10_1 and above: 7, 10 and 12 succeed there, not only multiples of 6; 1, 3 and 5 never. */
static void check_cube_sizes(D3D_FEATURE_LEVEL fl)
{
    struct conf c;
    assert_int_equal(conf_open(&c, fl), 0);
    assert_int_equal(c.fl, fl);
    static const UINT sizes[] = { 1, 3, 5, 6, 7, 9, 10, 12 };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        BOOL ok = sizes[i] == 6 || (sizes[i] > 6 && fl >= D3D_FEATURE_LEVEL_10_1);
        D3D11_TEXTURE2D_DESC d = { 64, 64, 1, sizes[i], DXGI_FORMAT_R32_TYPELESS, { 1, 0 }, D3D11_USAGE_DEFAULT, SR,
                                   0, D3D11_RESOURCE_MISC_TEXTURECUBE };
        ID3D11Texture2D *t = NULL;
        HRESULT hr = ID3D11Device_CreateTexture2D(c.dev, &d, NULL, &t);
        if (hr != (ok ? S_OK : E_INVALIDARG))
            fail_msg("feature level 0x%x cube ArraySize %u: 0x%08x", fl, sizes[i], (unsigned)hr);
        if (t) {
            D3D11_TEXTURE2D_DESC back;
            ID3D11Texture2D_GetDesc(t, &back);
            assert_int_equal(back.ArraySize, sizes[i]);
        }
        CONF_RELEASE(t);
    }
    conf_close(&c);
}

/* rule: runtime.d3d11-resource-misc-texturecube (11_0, 10_1, 10_0) */
static void test_cube_array_sizes_follow_the_feature_level(void **state)
{
    (void)state;
    check_cube_sizes(D3D_FEATURE_LEVEL_11_0);
    check_cube_sizes(D3D_FEATURE_LEVEL_10_1);
    check_cube_sizes(D3D_FEATURE_LEVEL_10_0);
}

/* Format x bind (test_create_texture2d, test_create_texture3d rows whose formats this stack
 * knows): buffer binds are never texture binds; depth formats bind only DEPTH_STENCIL; colour
 * formats never DEPTH_STENCIL; TYPELESS formats with a depth layout take DEPTH_STENCIL. */
/* rule: runtime.bind-depth-stencil-bind-render-target */
static void test_texture_format_bind_table_is_windows(void **state)
{
    struct conf *c = *state;
    static const struct { DXGI_FORMAT fmt; UINT array; UINT bind; BOOL ok; } t2[] = {
        { DXGI_FORMAT_R32G32B32A32_TYPELESS, 1, VB, FALSE }, { DXGI_FORMAT_R32G32B32A32_TYPELESS, 1, IB, FALSE },
        { DXGI_FORMAT_R32G32B32A32_TYPELESS, 1, CB, FALSE }, { DXGI_FORMAT_R32G32B32A32_TYPELESS, 0, SR, FALSE },
        { DXGI_FORMAT_R32G32B32A32_TYPELESS, 1, SR, TRUE }, { DXGI_FORMAT_R32G32B32A32_TYPELESS, 2, SR, TRUE },
        { DXGI_FORMAT_R32G32B32A32_TYPELESS, 0, RT, FALSE }, { DXGI_FORMAT_R32G32B32A32_TYPELESS, 9, RT, TRUE },
        { DXGI_FORMAT_R32G32B32A32_TYPELESS, 1, DS, FALSE }, { DXGI_FORMAT_R32G32B32A32_UINT, 1, RT, TRUE },
        { DXGI_FORMAT_R16G16B16A16_TYPELESS, 1, RT, TRUE }, { DXGI_FORMAT_R32_TYPELESS, 9, SR | DS, TRUE },
        { DXGI_FORMAT_R32_TYPELESS, 1, RT | DS, FALSE }, { DXGI_FORMAT_R32_TYPELESS, 1, DS, TRUE },
        { DXGI_FORMAT_R32_TYPELESS, 1, DS | UA, FALSE }, { DXGI_FORMAT_R24G8_TYPELESS, 1, DS, TRUE },
        { DXGI_FORMAT_R24G8_TYPELESS, 1, SR, TRUE }, { DXGI_FORMAT_R24G8_TYPELESS, 1, UA, FALSE },
        { DXGI_FORMAT_R8G8B8A8_UNORM, 1, RT, TRUE }, { DXGI_FORMAT_R8G8B8A8_UNORM, 1, DS, FALSE },
        { DXGI_FORMAT_D24_UNORM_S8_UINT, 1, SR, FALSE }, { DXGI_FORMAT_D24_UNORM_S8_UINT, 1, RT, FALSE },
        { DXGI_FORMAT_D32_FLOAT, 1, SR, FALSE }, { DXGI_FORMAT_D32_FLOAT, 1, SR | DS, FALSE },
        { DXGI_FORMAT_D32_FLOAT, 1, RT, FALSE }, { DXGI_FORMAT_D32_FLOAT, 1, DS, TRUE },
        { DXGI_FORMAT_R16_TYPELESS, 1, DS, TRUE }, { DXGI_FORMAT_R8G8_UNORM, 1, RT, TRUE },
    };
    for (size_t i = 0; i < sizeof t2 / sizeof t2[0]; i++) {
        D3D11_TEXTURE2D_DESC d = { 512, 512, 1, t2[i].array, t2[i].fmt, { 1, 0 }, D3D11_USAGE_DEFAULT, t2[i].bind, 0, 0 };
        ID3D11Texture2D *t = NULL;
        HRESULT hr = ID3D11Device_CreateTexture2D(c->dev, &d, NULL, &t);
        if (hr != (t2[i].ok ? S_OK : E_INVALIDARG))
            fail_msg("2D row %zu (format %u, array %u, bind 0x%x): 0x%08x", i, t2[i].fmt, t2[i].array, t2[i].bind,
                     (unsigned)hr);
        CONF_RELEASE(t);
    }
    static const struct { DXGI_FORMAT fmt; UINT bind; BOOL ok; } t3[] = {
        { DXGI_FORMAT_R32G32B32A32_TYPELESS, VB, FALSE }, { DXGI_FORMAT_R32G32B32A32_TYPELESS, CB, FALSE },
        { DXGI_FORMAT_R32G32B32A32_TYPELESS, SR, TRUE }, { DXGI_FORMAT_R16G16B16A16_TYPELESS, SR, TRUE },
        { DXGI_FORMAT_R8G8B8A8_UNORM, DS, FALSE }, { DXGI_FORMAT_D24_UNORM_S8_UINT, RT, FALSE },
        { DXGI_FORMAT_D32_FLOAT, RT, FALSE },
    };
    for (size_t i = 0; i < sizeof t3 / sizeof t3[0]; i++) {
        D3D11_TEXTURE3D_DESC d = { 64, 64, 64, 1, t3[i].fmt, D3D11_USAGE_DEFAULT, t3[i].bind, 0, 0 };
        ID3D11Texture3D *t = NULL;
        HRESULT hr = ID3D11Device_CreateTexture3D(c->dev, &d, NULL, &t);
        if (hr != (t3[i].ok ? S_OK : E_INVALIDARG))
            fail_msg("3D row %zu (format %u, bind 0x%x): 0x%08x", i, t3[i].fmt, t3[i].bind, (unsigned)hr);
        CONF_RELEASE(t);
    }
}

/* Multisampling: Quality must be below CheckMultisampleQualityLevels' answer; a count the
 * device answers 0 for (15) is refused; and multisampled textures create only for a count the
 * device reports. */
/* rule: runtime.sampledesc-quality-must-below */
static void test_sample_desc_is_bounded_by_the_quality_level_answer(void **state)
{
    struct conf *c = *state;
    UINT levels = 0;
    assert_int_equal(ID3D11Device_CheckMultisampleQualityLevels(c->dev, DXGI_FORMAT_R8G8B8A8_UNORM, 2, &levels), S_OK);
    D3D11_TEXTURE2D_DESC d = { 512, 512, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, { 2, 0 }, D3D11_USAGE_DEFAULT, RT, 0, 0 };
    ID3D11Texture2D *t = NULL;
    HRESULT hr = ID3D11Device_CreateTexture2D(c->dev, &d, NULL, &t);
    if (levels) {
        assert_int_equal(hr, S_OK);
        CONF_RELEASE(t);
        d.SampleDesc.Quality = levels;
        hr = ID3D11Device_CreateTexture2D(c->dev, &d, NULL, &t);
    }
    assert_int_equal(hr, E_INVALIDARG);
    assert_null(t);
    d.SampleDesc.Count = 15;
    d.SampleDesc.Quality = 0;
    assert_int_equal(ID3D11Device_CheckMultisampleQualityLevels(c->dev, d.Format, 15, &levels), S_OK);
    assert_int_equal(levels, 0);
    assert_int_equal(ID3D11Device_CreateTexture2D(c->dev, &d, NULL, &t), E_INVALIDARG);
    d.SampleDesc.Count = 1;
    d.SampleDesc.Quality = 1; /* Count 1 has one level: Quality 0 only */
    assert_int_equal(ID3D11Device_CreateTexture2D(c->dev, &d, NULL, &t), E_INVALIDARG);
}

/* Buffers (test_create_buffer): every bind alone is valid on a DEFAULT buffer, raw views need a
 * shader-resource or unordered-access bind, a structured buffer needs a stride that is a
 * multiple of 4 (bind 0 allowed), raw and structured exclude each other; a stride given without
 * STRUCTURED is ignored and reads back 0; a constant buffer is a non-zero multiple of 16 bytes. */
/* rule: runtime.buffers-every-bind-alone-valid-default */
/* rule: runtime.misc-shared-buffer-misc-shared */
static void test_buffer_bind_misc_table_is_windows(void **state)
{
    struct conf *c = *state;
    /* misc 0x20 = MISC_BUFFER_ALLOW_RAW_VIEWS, 0x40 = MISC_BUFFER_STRUCTURED, 0x60 both */
    static const struct { UINT bind, misc, stride; BOOL ok; } rows[] = {
        { VB, 0, 0, TRUE }, { IB, 0, 0, TRUE }, { CB, 0, 0, TRUE }, { SR, 0, 0, TRUE }, { SO, 0, 0, TRUE },
        { RT, 0, 0, TRUE }, { UA, 0, 0, TRUE }, { 0, D3D11_RESOURCE_MISC_DRAWINDIRECT_ARGS, 0, TRUE },
        { VB, 0x20, 0, FALSE }, { IB, 0x20, 0, FALSE }, { CB, 0x20, 0, FALSE }, { SR, 0x20, 0, TRUE },
        { SO, 0x20, 0, FALSE }, { RT, 0x20, 0, FALSE }, { UA, 0x20, 0, TRUE }, { 0, 0x20, 0, FALSE },
        { 0, 0x40, 16, TRUE }, { SR, 0x40, 16, TRUE }, { SR, 0x40, ~0u, FALSE }, { SR, 0x40, 0, FALSE },
        { SR, 0x40, 1, FALSE }, { SR, 0x40, 2, FALSE }, { SR, 0x40, 3, FALSE }, { SR, 0x40, 4, TRUE },
        { SR, 0x40, 5, FALSE }, { SR, 0x40, 8, TRUE }, { SR, 0x40, 512, TRUE }, { SR, 0x40, 513, FALSE },
        { SR, 0x40, 1024, TRUE }, { 0, 0, 513, TRUE }, { CB, 0, 513, TRUE }, { SR, 0, 513, TRUE },
        { UA, 0, 513, TRUE }, { 0, 0x60, 16, FALSE }, { SR, 0x60, 16, FALSE },
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        D3D11_BUFFER_DESC d = { 1024, D3D11_USAGE_DEFAULT, rows[i].bind, 0, rows[i].misc, rows[i].stride };
        ID3D11Buffer *b = NULL;
        HRESULT hr = ID3D11Device_CreateBuffer(c->dev, &d, NULL, &b);
        if (hr != (rows[i].ok ? S_OK : E_INVALIDARG))
            fail_msg("buffer row %zu (bind 0x%x misc 0x%x stride %u): 0x%08x", i, rows[i].bind, rows[i].misc,
                     rows[i].stride, (unsigned)hr);
        if (b) {
            D3D11_BUFFER_DESC back;
            ID3D11Buffer_GetDesc(b, &back);
            assert_int_equal(back.ByteWidth, 1024);
            assert_int_equal(back.BindFlags, rows[i].bind);
            assert_int_equal(back.MiscFlags, rows[i].misc);
            assert_int_equal(back.StructureByteStride, (rows[i].misc & 0x40) ? rows[i].stride : 0);
        }
        CONF_RELEASE(b);
    }
    /* Shared flavours this stack cannot share (a MISC_SHARED or keyed-mutex buffer, by global or
     * NT handle): Windows creates them; its REF and WARP devices, which cannot share them either,
     * answer E_OUTOFMEMORY (test_create_buffer, test_texture2d_interfaces: broken(E_OUTOFMEMORY)). */
    static const UINT unshareable[] = { D3D11_RESOURCE_MISC_SHARED, D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX,
                                        D3D11_RESOURCE_MISC_SHARED | D3D11_RESOURCE_MISC_SHARED_NTHANDLE };
    for (size_t i = 0; i < 3; i++) {
        D3D11_BUFFER_DESC d = { 1024, D3D11_USAGE_DEFAULT, 0, 0, unshareable[i], 0 };
        ID3D11Buffer *b = (ID3D11Buffer *)(uintptr_t)1;
        assert_int_equal(ID3D11Device_CreateBuffer(c->dev, &d, NULL, &b), E_OUTOFMEMORY);
        assert_null(b);
    }
    /* NT-handle textures (conformance.test_d3d11_nt_sharing shares them): the flag goes with
     * MISC_SHARED or MISC_SHARED_KEYEDMUTEX; alone it is E_INVALIDARG. */
    D3D11_TEXTURE2D_DESC km = { 64, 64, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, { 1, 0 }, D3D11_USAGE_DEFAULT, SR, 0,
                                D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX | D3D11_RESOURCE_MISC_SHARED_NTHANDLE };
    ID3D11Texture2D *kt = NULL;
    assert_int_equal(ID3D11Device_CreateTexture2D(c->dev, &km, NULL, &kt), S_OK);
    CONF_RELEASE(kt);
    km.MiscFlags = D3D11_RESOURCE_MISC_SHARED_NTHANDLE;
    kt = (ID3D11Texture2D *)(uintptr_t)1;
    assert_int_equal(ID3D11Device_CreateTexture2D(c->dev, &km, NULL, &kt), E_INVALIDARG);
    assert_null(kt);
    for (UINT size = 0; size <= 32; size++) {
        D3D11_BUFFER_DESC d = { size, D3D11_USAGE_DEFAULT, CB, 0, 0, 0 };
        ID3D11Buffer *b = NULL;
        HRESULT hr = ID3D11Device_CreateBuffer(c->dev, &d, NULL, &b);
        assert_int_equal(hr, (size && size % 16 == 0) ? S_OK : E_INVALIDARG);
        CONF_RELEASE(b);
    }
}

/* MipLevels 0 means the full chain and GetDesc reports the count (512x512: 10, 64^3: 7, 1-D 256:
 * 9); creating takes one device reference and GetDevice one more; initial data whose pSysMem is
 * NULL is refused; a NULL output pointer validates only (S_FALSE, nothing created). */
/* rule: runtime.miplevels-0-full-chain-reported-getdesc */
static void test_getdesc_refcounts_and_validate_only_calls(void **state)
{
    struct conf *c = *state;
    ULONG before = conf_refs(c->dev);
    D3D11_TEXTURE2D_DESC d2 = { 512, 512, 0, 1, DXGI_FORMAT_R8G8B8A8_UNORM, { 1, 0 }, D3D11_USAGE_DEFAULT, RT, 0, 0 };
    ID3D11Texture2D *t2 = NULL;
    assert_int_equal(ID3D11Device_CreateTexture2D(c->dev, &d2, NULL, &t2), S_OK);
    assert_true(conf_refs(c->dev) >= before + 1);
    ULONG with = conf_refs(c->dev);
    ID3D11Device *tmp = NULL;
    ID3D11Texture2D_GetDevice(t2, &tmp);
    assert_ptr_equal(tmp, c->dev);
    assert_int_equal(conf_refs(c->dev), with + 1);
    CONF_RELEASE(tmp);
    D3D11_TEXTURE2D_DESC back2;
    ID3D11Texture2D_GetDesc(t2, &back2);
    assert_int_equal(back2.MipLevels, 10);
    assert_int_equal(back2.Width, 512);
    assert_int_equal(back2.ArraySize, 1);
    assert_int_equal(back2.BindFlags, RT);
    CONF_RELEASE(t2);
    assert_int_equal(conf_refs(c->dev), before);

    D3D11_TEXTURE3D_DESC d3 = { 64, 64, 64, 0, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DEFAULT, RT, 0, 0 };
    ID3D11Texture3D *t3 = NULL;
    assert_int_equal(ID3D11Device_CreateTexture3D(c->dev, &d3, NULL, &t3), S_OK);
    D3D11_TEXTURE3D_DESC back3;
    ID3D11Texture3D_GetDesc(t3, &back3);
    assert_int_equal(back3.MipLevels, 7);
    CONF_RELEASE(t3);

    D3D11_TEXTURE1D_DESC d1 = { 256, 0, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DEFAULT, SR, 0, 0 };
    ID3D11Texture1D *t1 = NULL;
    assert_int_equal(ID3D11Device_CreateTexture1D(c->dev, &d1, NULL, &t1), S_OK);
    D3D11_TEXTURE1D_DESC back1;
    ID3D11Texture1D_GetDesc(t1, &back1);
    assert_int_equal(back1.MipLevels, 9);
    CONF_RELEASE(t1);

    D3D11_SUBRESOURCE_DATA empty = { NULL, 0, 0 };
    d2.MipLevels = 1;
    assert_int_equal(ID3D11Device_CreateTexture2D(c->dev, &d2, &empty, &t2), E_INVALIDARG);
    d3.MipLevels = 1;
    assert_int_equal(ID3D11Device_CreateTexture3D(c->dev, &d3, &empty, &t3), E_INVALIDARG);
    D3D11_BUFFER_DESC bd = { 1024, D3D11_USAGE_DEFAULT, UA, 0, 0, 0 };
    ID3D11Buffer *b = NULL;
    assert_int_equal(ID3D11Device_CreateBuffer(c->dev, &bd, &empty, &b), E_INVALIDARG);

    before = conf_refs(c->dev);
    assert_int_equal(ID3D11Device_CreateBuffer(c->dev, &bd, NULL, NULL), S_FALSE);
    assert_int_equal(ID3D11Device_CreateTexture1D(c->dev, &d1, NULL, NULL), S_FALSE);
    assert_int_equal(ID3D11Device_CreateTexture2D(c->dev, &d2, NULL, NULL), S_FALSE);
    assert_int_equal(ID3D11Device_CreateTexture3D(c->dev, &d3, NULL, NULL), S_FALSE);
    bd.ByteWidth = 0;
    assert_int_equal(ID3D11Device_CreateBuffer(c->dev, &bd, NULL, NULL), E_INVALIDARG);
    assert_int_equal(conf_refs(c->dev), before);
}

/* Every dimension with every bind it takes, DEFAULT usage, 64 texels a side, one mip or the
 * full chain (Wine test_dxgi_resources, where each creation must succeed): buffer-only binds
 * on buffers, DEPTH_STENCIL (D24_UNORM_S8_UINT) on 1-D and 2-D textures. */
/* rule: runtime.every-dimension-creates-each-bind-takes */
static void test_every_dimension_creates_with_each_bind_it_takes(void **state)
{
    struct conf *c = *state;
    static const UINT binds[] = { 0, SR, RT, DS, UA, SR | RT, SR | UA, CB, VB, IB, SO };
    for (size_t i = 0; i < sizeof binds / sizeof binds[0]; i++) {
        UINT b = binds[i];
        BOOL buffer_only = (b & (CB | VB | IB | SO)) != 0;
        DXGI_FORMAT fmt = (b & DS) ? DXGI_FORMAT_D24_UNORM_S8_UINT : DXGI_FORMAT_R8G8B8A8_UNORM;
        if (!(b & DS)) {
            D3D11_BUFFER_DESC bd = { 64 * 4, D3D11_USAGE_DEFAULT, b, 0, 0, 0 };
            ID3D11Buffer *buf = NULL;
            if (ID3D11Device_CreateBuffer(c->dev, &bd, NULL, &buf) != S_OK)
                fail_msg("buffer bind 0x%x refused", b);
            CONF_RELEASE(buf);
        }
        if (buffer_only)
            continue;
        for (UINT mips = 0; mips <= 1; mips++) {
            D3D11_TEXTURE1D_DESC d1 = { 64, mips, 1, fmt, D3D11_USAGE_DEFAULT, b, 0, 0 };
            ID3D11Texture1D *t1 = NULL;
            if (ID3D11Device_CreateTexture1D(c->dev, &d1, NULL, &t1) != S_OK)
                fail_msg("1-D bind 0x%x mips %u refused", b, mips);
            CONF_RELEASE(t1);
            D3D11_TEXTURE2D_DESC d2 = { 64, 64, mips, 1, fmt, { 1, 0 }, D3D11_USAGE_DEFAULT, b, 0, 0 };
            ID3D11Texture2D *t2 = NULL;
            if (ID3D11Device_CreateTexture2D(c->dev, &d2, NULL, &t2) != S_OK)
                fail_msg("2-D bind 0x%x mips %u refused", b, mips);
            CONF_RELEASE(t2);
            if (b & DS)
                continue;
            D3D11_TEXTURE3D_DESC d3 = { 64, 64, 1, mips, fmt, D3D11_USAGE_DEFAULT, b, 0, 0 };
            ID3D11Texture3D *t3 = NULL;
            if (ID3D11Device_CreateTexture3D(c->dev, &d3, NULL, &t3) != S_OK)
                fail_msg("3-D bind 0x%x mips %u refused", b, mips);
            CONF_RELEASE(t3);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_buffer_usage_bind_cpu_matrix_is_windows, conf_setup, conf_teardown),
        cmocka_unit_test_setup_teardown(test_texture_usage_bind_cpu_matrix_is_windows, conf_setup, conf_teardown),
        cmocka_unit_test(test_cube_array_sizes_follow_the_feature_level),
        cmocka_unit_test_setup_teardown(test_texture_format_bind_table_is_windows, conf_setup, conf_teardown),
        cmocka_unit_test_setup_teardown(test_sample_desc_is_bounded_by_the_quality_level_answer, conf_setup,
                                        conf_teardown),
        cmocka_unit_test_setup_teardown(test_buffer_bind_misc_table_is_windows, conf_setup, conf_teardown),
        cmocka_unit_test_setup_teardown(test_getdesc_refcounts_and_validate_only_calls, conf_setup, conf_teardown),
        cmocka_unit_test_setup_teardown(test_every_dimension_creates_with_each_bind_it_takes, conf_setup,
                                        conf_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
