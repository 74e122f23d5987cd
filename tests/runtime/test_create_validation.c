/*
 * test_create_validation.c - resource creation rules of Direct3D 11, table-driven
 * (docs/semantics.md §5.1 usage x bind x CPU access; D3D11 limits for sizes, mips, arrays,
 * formats). Every invalid case must be refused with its documented HRESULT before the UMD
 * sees it (the mock UMD counts pfnCreateResource calls), and nothing may leak (ASan).
 */
/* rule: runtime.misc-shared-buffer-misc-shared (`buffer_shared` **changed** to `E_OUTOFMEMORY`) */
#include "runtime/mock_umd.h"

#define RT D3D11_BIND_RENDER_TARGET
#define SR D3D11_BIND_SHADER_RESOURCE
#define DS D3D11_BIND_DEPTH_STENCIL
#define UA D3D11_BIND_UNORDERED_ACCESS
#define VB D3D11_BIND_VERTEX_BUFFER
#define IB D3D11_BIND_INDEX_BUFFER
#define CB D3D11_BIND_CONSTANT_BUFFER
#define SO D3D11_BIND_STREAM_OUTPUT
#define CR D3D11_CPU_ACCESS_READ
#define CW D3D11_CPU_ACCESS_WRITE

static const UINT init_words[4096]; /* big enough initial data for every buffer case below */

/* ---- buffers ------------------------------------------------------------------------------ */
struct buffer_case {
    const char *name;
    D3D11_BUFFER_DESC desc;
    BOOL with_data;
    HRESULT expect;
};

static const struct buffer_case buffer_cases[] = {
    { "default_vb",                       { 256, D3D11_USAGE_DEFAULT, VB, 0, 0, 0 }, FALSE, S_OK },
    { "default_with_cpu_write",           { 256, D3D11_USAGE_DEFAULT, VB, CW, 0, 0 }, FALSE, E_INVALIDARG },
    { "default_with_cpu_read",            { 256, D3D11_USAGE_DEFAULT, VB, CR, 0, 0 }, FALSE, E_INVALIDARG },
    { "immutable_without_data",           { 256, D3D11_USAGE_IMMUTABLE, VB, 0, 0, 0 }, FALSE, E_INVALIDARG },
    { "immutable_with_data",              { 256, D3D11_USAGE_IMMUTABLE, VB, 0, 0, 0 }, TRUE, S_OK },
    { "immutable_with_cpu_write",         { 256, D3D11_USAGE_IMMUTABLE, VB, CW, 0, 0 }, TRUE, E_INVALIDARG },
    { "immutable_stream_output",          { 256, D3D11_USAGE_IMMUTABLE, SO, 0, 0, 0 }, TRUE, E_INVALIDARG },
    { "immutable_uav",                    { 256, D3D11_USAGE_IMMUTABLE, UA, 0, 0, 0 }, TRUE, E_INVALIDARG },
    { "dynamic_vb_cpu_write",             { 256, D3D11_USAGE_DYNAMIC, VB, CW, 0, 0 }, FALSE, S_OK },
    { "dynamic_without_cpu",              { 256, D3D11_USAGE_DYNAMIC, VB, 0, 0, 0 }, FALSE, E_INVALIDARG },
    { "dynamic_cpu_read",                 { 256, D3D11_USAGE_DYNAMIC, VB, CR, 0, 0 }, FALSE, E_INVALIDARG },
    { "dynamic_cpu_read_write",           { 256, D3D11_USAGE_DYNAMIC, VB, CR | CW, 0, 0 }, FALSE, E_INVALIDARG },
    { "dynamic_stream_output",            { 256, D3D11_USAGE_DYNAMIC, SO, CW, 0, 0 }, FALSE, E_INVALIDARG },
    { "dynamic_uav",                      { 256, D3D11_USAGE_DYNAMIC, UA, CW, 0, 0 }, FALSE, E_INVALIDARG },
    { "dynamic_render_target",            { 256, D3D11_USAGE_DYNAMIC, RT, CW, 0, 0 }, FALSE, E_INVALIDARG },
    { "staging_read",                     { 256, D3D11_USAGE_STAGING, 0, CR, 0, 0 }, FALSE, S_OK },
    { "staging_read_write",               { 256, D3D11_USAGE_STAGING, 0, CR | CW, 0, 0 }, FALSE, S_OK },
    { "staging_without_cpu",              { 256, D3D11_USAGE_STAGING, 0, 0, 0, 0 }, FALSE, E_INVALIDARG },
    { "staging_with_bind",                { 256, D3D11_USAGE_STAGING, VB, CR, 0, 0 }, FALSE, E_INVALIDARG },
    { "staging_with_shader_resource",     { 256, D3D11_USAGE_STAGING, SR, CW, 0, 0 }, FALSE, E_INVALIDARG },
    { "usage_out_of_range",               { 256, (D3D11_USAGE)4, VB, 0, 0, 0 }, FALSE, E_INVALIDARG },
    { "unknown_bind_bit",                 { 256, D3D11_USAGE_DEFAULT, 0x100, 0, 0, 0 }, FALSE, E_INVALIDARG },
    { "unknown_cpu_bit",                  { 256, D3D11_USAGE_STAGING, 0, CR | 0x1, 0, 0 }, FALSE, E_INVALIDARG },
    { "unknown_misc_bit",                 { 256, D3D11_USAGE_DEFAULT, VB, 0, D3D11_RESOURCE_MISC_TILED, 0 }, FALSE, E_INVALIDARG },
    { "zero_byte_width",                  { 0, D3D11_USAGE_DEFAULT, VB, 0, 0, 0 }, FALSE, E_INVALIDARG },
    { "buffer_depth_stencil",             { 256, D3D11_USAGE_DEFAULT, DS, 0, 0, 0 }, FALSE, E_INVALIDARG },
    { "buffer_texturecube",               { 256, D3D11_USAGE_DEFAULT, VB, 0, D3D11_RESOURCE_MISC_TEXTURECUBE, 0 }, FALSE, E_INVALIDARG },
    { "constant_buffer",                  { 256, D3D11_USAGE_DEFAULT, CB, 0, 0, 0 }, FALSE, S_OK },
    { "dynamic_constant_buffer",          { 64, D3D11_USAGE_DYNAMIC, CB, CW, 0, 0 }, FALSE, S_OK },
    { "constant_buffer_not_multiple_16",  { 100, D3D11_USAGE_DEFAULT, CB, 0, 0, 0 }, FALSE, E_INVALIDARG },
    { "constant_buffer_too_big",          { 65536 + 16, D3D11_USAGE_DEFAULT, CB, 0, 0, 0 }, FALSE, E_INVALIDARG },
    { "constant_buffer_max",              { 65536, D3D11_USAGE_DEFAULT, CB, 0, 0, 0 }, FALSE, S_OK },
    { "constant_buffer_with_vb",          { 256, D3D11_USAGE_DEFAULT, CB | VB, 0, 0, 0 }, FALSE, E_INVALIDARG },
    { "structured_ok",                    { 256, D3D11_USAGE_DEFAULT, SR, 0, D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, 16 }, FALSE, S_OK },
    { "structured_zero_stride",           { 256, D3D11_USAGE_DEFAULT, SR, 0, D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, 0 }, FALSE, E_INVALIDARG },
    { "structured_width_not_multiple",    { 250, D3D11_USAGE_DEFAULT, SR, 0, D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, 16 }, FALSE, E_INVALIDARG },
    { "structured_and_raw",               { 256, D3D11_USAGE_DEFAULT, SR, 0, D3D11_RESOURCE_MISC_BUFFER_STRUCTURED | D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS, 16 }, FALSE, E_INVALIDARG },
    { "raw_without_view_bind",            { 256, D3D11_USAGE_DEFAULT, VB, 0, D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS, 0 }, FALSE, E_INVALIDARG },
    { "raw_ok",                           { 256, D3D11_USAGE_DEFAULT, SR, 0, D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS, 0 }, FALSE, S_OK },
    /* Windows' REF/WARP answer (Wine test_create_buffer broken()); E_INVALIDARG before issue 14 */
    { "buffer_shared",                    { 256, D3D11_USAGE_DEFAULT, VB, 0, D3D11_RESOURCE_MISC_SHARED, 0 }, FALSE, E_OUTOFMEMORY },
};

/* rule: runtime.usage-bind-cpu-access-matrix-default */
/* rule: runtime.staging-without-cpu-access-bit-e (`staging_without_cpu`) */
/* rule: runtime.unknown-usage-bind-cpu-misc-bits */
/* rule: runtime.constant-buffers-multiple-16-bytes-most */
/* rule: runtime.structured-buffers-need-non-zero-stride */
/* rule: runtime.refused-creation-nulls-ppresource-pp */
/* rule: runtime.staging-without-cpu-access-e-invalidarg */
static void buffer_creation_rules(void **state)
{
    struct mock_env *env = *state;
    D3D11_SUBRESOURCE_DATA data = { init_words, 0, 0 };
    for (size_t i = 0; i < sizeof(buffer_cases) / sizeof(buffer_cases[0]); i++) {
        const struct buffer_case *c = &buffer_cases[i];
        int before = mock.create_resource;
        ID3D11Buffer *buf = (ID3D11Buffer *)(uintptr_t)1;
        HRESULT hr = ID3D11Device_CreateBuffer(env->dev, &c->desc, c->with_data ? &data : NULL, &buf);
        if (hr != c->expect)
            fail_msg("%s: CreateBuffer returned 0x%08x, expected 0x%08x", c->name, (UINT)hr, (UINT)c->expect);
        if (FAILED(c->expect)) {
            if (buf != NULL)
                fail_msg("%s: *ppBuffer not NULL after a refusal", c->name);
            if (mock.create_resource != before)
                fail_msg("%s: refused call reached the UMD", c->name);
        } else {
            assert_non_null(buf);
            D3D11_BUFFER_DESC got;
            ID3D11Buffer_GetDesc(buf, &got);
            assert_memory_equal(&got, &c->desc, sizeof(got));
            ID3D11Buffer_Release(buf);
        }
    }
}

/* rule: runtime.initial-data-needs-one-non-null */
/* rule: runtime.refused-creation-nulls-ppresource-pp */
/* rule: runtime.api-ddi-translation-dimension-usage */
/* rule: runtime.mapflags-cpu-access-bitmask-not-d3d10 */
static void buffer_ddi_arguments_follow_seed_001(void **state)
{
    struct mock_env *env = *state;
    D3D11_BUFFER_DESC bd = { 512, D3D11_USAGE_STAGING, 0, CR | CW, 0, 0 };
    ID3D11Buffer *buf;
    assert_int_equal(ID3D11Device_CreateBuffer(env->dev, &bd, NULL, &buf), S_OK);
    assert_int_equal(mock.last_create.ResourceDimension, D3D10DDIRESOURCE_BUFFER);
    assert_int_equal(mock.last_create.Usage, D3D10_DDI_USAGE_STAGING);
    assert_int_equal(mock.last_create.MapFlags, D3D10_DDI_CPU_ACCESS_READ | D3D10_DDI_CPU_ACCESS_WRITE);
    assert_int_equal(mock.last_create.MipLevels, 1);
    assert_int_equal(mock.last_create.ArraySize, 1);
    assert_int_equal(mock.last_mip0.TexelWidth, 512);
    assert_null(mock.last_create.pInitialDataUP);
    ID3D11Buffer_Release(buf);

    /* API UNORDERED_ACCESS (0x80) is DDI 0x100. */
    D3D11_BUFFER_DESC ua = { 256, D3D11_USAGE_DEFAULT, UA | SR, 0, D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS, 0 };
    assert_int_equal(ID3D11Device_CreateBuffer(env->dev, &ua, NULL, &buf), S_OK);
    assert_int_equal(mock.last_create.BindFlags, D3D11_DDI_BIND_UNORDERED_ACCESS | D3D10_DDI_BIND_SHADER_RESOURCE);
    assert_int_equal(mock.last_create.MiscFlags, D3D11_DDI_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS);
    ID3D11Buffer_Release(buf);

    /* ppBuffer NULL: validation only, S_FALSE, nothing created. */
    int before = mock.create_resource;
    assert_int_equal(ID3D11Device_CreateBuffer(env->dev, &bd, NULL, NULL), S_FALSE);
    assert_int_equal(mock.create_resource, before);
    assert_int_equal(ID3D11Device_CreateBuffer(env->dev, NULL, NULL, &buf), E_INVALIDARG);
    D3D11_SUBRESOURCE_DATA null_mem = { NULL, 0, 0 };
    D3D11_BUFFER_DESC imm = { 256, D3D11_USAGE_IMMUTABLE, VB, 0, 0, 0 };
    assert_int_equal(ID3D11Device_CreateBuffer(env->dev, &imm, &null_mem, &buf), E_INVALIDARG);
}

/* ---- 2D textures --------------------------------------------------------------------------- */
struct tex2d_case {
    const char *name;
    D3D11_TEXTURE2D_DESC desc;
    BOOL with_data;
    HRESULT expect;
};

#define T2(w, h, mips, arr, fmt, cnt, usage, bind, cpu, misc) \
    { w, h, mips, arr, DXGI_FORMAT_##fmt, { cnt, 0 }, D3D11_USAGE_##usage, bind, cpu, misc }

static const struct tex2d_case tex2d_cases[] = {
    { "rt_rgba8",                  T2(64, 64, 1, 1, R8G8B8A8_UNORM, 1, DEFAULT, RT | SR, 0, 0), FALSE, S_OK },
    { "full_mip_chain_zero",       T2(64, 32, 0, 1, R8G8B8A8_UNORM, 1, DEFAULT, SR, 0, 0), FALSE, S_OK },
    { "too_many_mips",             T2(64, 64, 8, 1, R8G8B8A8_UNORM, 1, DEFAULT, SR, 0, 0), FALSE, E_INVALIDARG },
    { "zero_width",                T2(0, 64, 1, 1, R8G8B8A8_UNORM, 1, DEFAULT, SR, 0, 0), FALSE, E_INVALIDARG },
    { "zero_height",               T2(64, 0, 1, 1, R8G8B8A8_UNORM, 1, DEFAULT, SR, 0, 0), FALSE, E_INVALIDARG },
    { "too_wide",                  T2(16385, 1, 1, 1, R8G8B8A8_UNORM, 1, DEFAULT, SR, 0, 0), FALSE, E_INVALIDARG },
    { "zero_array",                T2(64, 64, 1, 0, R8G8B8A8_UNORM, 1, DEFAULT, SR, 0, 0), FALSE, E_INVALIDARG },
    { "array_too_big",             T2(4, 4, 1, 2049, R8G8B8A8_UNORM, 1, DEFAULT, SR, 0, 0), FALSE, E_INVALIDARG },
    { "format_unknown",            T2(64, 64, 1, 1, UNKNOWN, 1, DEFAULT, SR, 0, 0), FALSE, E_INVALIDARG },
    { "format_video_unsupported",  T2(64, 64, 1, 1, NV12, 1, DEFAULT, SR, 0, 0), FALSE, E_INVALIDARG },
    { "depth_ds",                  T2(64, 64, 1, 1, D24_UNORM_S8_UINT, 1, DEFAULT, DS, 0, 0), FALSE, S_OK },
    { "depth_with_shader_resource", T2(64, 64, 1, 1, D24_UNORM_S8_UINT, 1, DEFAULT, DS | SR, 0, 0), FALSE, E_INVALIDARG },
    { "depth_with_render_target",  T2(64, 64, 1, 1, D32_FLOAT, 1, DEFAULT, RT, 0, 0), FALSE, E_INVALIDARG },
    { "typeless_depth_ds_sr",      T2(64, 64, 1, 1, R24G8_TYPELESS, 1, DEFAULT, DS | SR, 0, 0), FALSE, S_OK },
    { "color_as_depth",            T2(64, 64, 1, 1, R8G8B8A8_UNORM, 1, DEFAULT, DS, 0, 0), FALSE, E_INVALIDARG },
    { "bc1_rt",                    T2(64, 64, 1, 1, BC1_UNORM, 1, DEFAULT, RT, 0, 0), FALSE, E_INVALIDARG },
    { "bc1_sr",                    T2(64, 64, 0, 1, BC1_UNORM, 1, DEFAULT, SR, 0, 0), FALSE, S_OK },
    { "bc1_not_multiple_of_4",     T2(62, 64, 1, 1, BC1_UNORM, 1, DEFAULT, SR, 0, 0), FALSE, E_INVALIDARG },
    { "texture_vertex_buffer",     T2(64, 64, 1, 1, R8G8B8A8_UNORM, 1, DEFAULT, VB, 0, 0), FALSE, E_INVALIDARG },
    { "texture_constant_buffer",   T2(64, 64, 1, 1, R8G8B8A8_UNORM, 1, DEFAULT, CB, 0, 0), FALSE, E_INVALIDARG },
    { "texture_structured",        T2(64, 64, 1, 1, R8G8B8A8_UNORM, 1, DEFAULT, SR, 0, D3D11_RESOURCE_MISC_BUFFER_STRUCTURED), FALSE, E_INVALIDARG },
    { "dynamic_single",            T2(64, 64, 1, 1, R8G8B8A8_UNORM, 1, DYNAMIC, SR, CW, 0), FALSE, S_OK },
    { "dynamic_mips",              T2(64, 64, 2, 1, R8G8B8A8_UNORM, 1, DYNAMIC, SR, CW, 0), FALSE, E_INVALIDARG },
    { "dynamic_full_chain",        T2(64, 64, 0, 1, R8G8B8A8_UNORM, 1, DYNAMIC, SR, CW, 0), FALSE, E_INVALIDARG },
    { "dynamic_array",             T2(64, 64, 1, 2, R8G8B8A8_UNORM, 1, DYNAMIC, SR, CW, 0), FALSE, E_INVALIDARG },
    { "dynamic_render_target",     T2(64, 64, 1, 1, R8G8B8A8_UNORM, 1, DYNAMIC, RT, CW, 0), FALSE, E_INVALIDARG },
    { "dynamic_read",              T2(64, 64, 1, 1, R8G8B8A8_UNORM, 1, DYNAMIC, SR, CR, 0), FALSE, E_INVALIDARG },
    { "staging_read",              T2(64, 64, 1, 1, R8G8B8A8_UNORM, 1, STAGING, 0, CR, 0), FALSE, S_OK },
    { "staging_depth_format",      T2(64, 64, 1, 1, D32_FLOAT, 1, STAGING, 0, CR, 0), FALSE, S_OK },
    { "staging_bound",             T2(64, 64, 1, 1, R8G8B8A8_UNORM, 1, STAGING, SR, CR, 0), FALSE, E_INVALIDARG },
    { "staging_no_cpu",            T2(64, 64, 1, 1, R8G8B8A8_UNORM, 1, STAGING, 0, 0, 0), FALSE, E_INVALIDARG },
    { "default_cpu_read",          T2(64, 64, 1, 1, R8G8B8A8_UNORM, 1, DEFAULT, SR, CR, 0), FALSE, E_INVALIDARG },
    { "immutable_without_data",    T2(4, 4, 1, 1, R8G8B8A8_UNORM, 1, IMMUTABLE, SR, 0, 0), FALSE, E_INVALIDARG },
    { "immutable_with_data",       T2(4, 4, 1, 1, R8G8B8A8_UNORM, 1, IMMUTABLE, SR, 0, 0), TRUE, S_OK },
    { "immutable_render_target",   T2(4, 4, 1, 1, R8G8B8A8_UNORM, 1, IMMUTABLE, RT, 0, 0), TRUE, E_INVALIDARG },
    { "cube",                      T2(32, 32, 1, 6, R8G8B8A8_UNORM, 1, DEFAULT, SR, 0, D3D11_RESOURCE_MISC_TEXTURECUBE), FALSE, S_OK },
    { "cube_array_not_multiple_6", T2(32, 32, 1, 5, R8G8B8A8_UNORM, 1, DEFAULT, SR, 0, D3D11_RESOURCE_MISC_TEXTURECUBE), FALSE, E_INVALIDARG },
    { "cube_not_square",           T2(32, 16, 1, 6, R8G8B8A8_UNORM, 1, DEFAULT, SR, 0, D3D11_RESOURCE_MISC_TEXTURECUBE), FALSE, E_INVALIDARG },
    { "msaa_4x_rt",                T2(64, 64, 1, 1, R8G8B8A8_UNORM, 4, DEFAULT, RT, 0, 0), FALSE, S_OK },
    { "msaa_3x",                   T2(64, 64, 1, 1, R8G8B8A8_UNORM, 3, DEFAULT, RT, 0, 0), FALSE, E_INVALIDARG },
    { "msaa_with_mips",            T2(64, 64, 2, 1, R8G8B8A8_UNORM, 4, DEFAULT, RT, 0, 0), FALSE, E_INVALIDARG },
    { "msaa_staging",              T2(64, 64, 1, 1, R8G8B8A8_UNORM, 4, STAGING, 0, CR, 0), FALSE, E_INVALIDARG },
    { "sample_count_zero",         T2(64, 64, 1, 1, R8G8B8A8_UNORM, 0, DEFAULT, RT, 0, 0), FALSE, E_INVALIDARG },
    { "generate_mips_ok",          T2(64, 64, 0, 1, R8G8B8A8_UNORM, 1, DEFAULT, RT | SR, 0, D3D11_RESOURCE_MISC_GENERATE_MIPS), FALSE, S_OK },
    { "generate_mips_without_rt",  T2(64, 64, 0, 1, R8G8B8A8_UNORM, 1, DEFAULT, SR, 0, D3D11_RESOURCE_MISC_GENERATE_MIPS), FALSE, E_INVALIDARG },
    { "too_large_total",           T2(16384, 16384, 1, 2048, R32G32B32A32_FLOAT, 1, DEFAULT, SR, 0, 0), FALSE, E_OUTOFMEMORY },
};

/* rule: runtime.usage-bind-cpu-access-matrix-default */
/* rule: runtime.staging-without-cpu-access-bit-e (`staging_no_cpu`) */
/* rule: runtime.dynamic-textures-one-subresource-only (`dynamic_mips`, `dynamic_full_chain`, `dynamic_array`) */
/* rule: runtime.texture-limits-width-height-depth-array */
/* rule: runtime.resource-larger-d3d11-size-limit-e (`too_large_total`) */
/* rule: runtime.largest-resource-2-gib-larger-e (`too_large_total`) */
/* rule: runtime.shader-resource-bind-generate-mips-accepted (`bc1_sr`, `typeless_depth_ds_sr`, `generate_mips_ok`) */
static void texture2d_creation_rules(void **state)
{
    struct mock_env *env = *state;
    static const BYTE texels[64 * 64 * 4];
    D3D11_SUBRESOURCE_DATA data[1] = { { texels, 16, 0 } };
    for (size_t i = 0; i < sizeof(tex2d_cases) / sizeof(tex2d_cases[0]); i++) {
        const struct tex2d_case *c = &tex2d_cases[i];
        int before = mock.create_resource;
        ID3D11Texture2D *tex = (ID3D11Texture2D *)(uintptr_t)1;
        HRESULT hr = ID3D11Device_CreateTexture2D(env->dev, &c->desc, c->with_data ? data : NULL, &tex);
        if (hr != c->expect)
            fail_msg("%s: CreateTexture2D returned 0x%08x, expected 0x%08x", c->name, (UINT)hr, (UINT)c->expect);
        if (FAILED(c->expect)) {
            if (tex != NULL)
                fail_msg("%s: *ppTexture2D not NULL after a refusal", c->name);
            if (mock.create_resource != before)
                fail_msg("%s: refused call reached the UMD", c->name);
        } else {
            assert_non_null(tex);
            ID3D11Texture2D_Release(tex);
        }
    }
}

/* rule: runtime.texture-limits-width-height-depth-array */
/* rule: runtime.initial-data-needs-one-non-null */
/* rule: runtime.api-ddi-translation-dimension-usage */
static void texture_mip_levels_zero_means_full_chain(void **state)
{
    struct mock_env *env = *state;
    D3D11_TEXTURE2D_DESC td = T2(64, 16, 0, 3, R8G8B8A8_UNORM, 1, DEFAULT, SR, 0, 0);
    ID3D11Texture2D *tex;
    assert_int_equal(ID3D11Device_CreateTexture2D(env->dev, &td, NULL, &tex), S_OK);
    D3D11_TEXTURE2D_DESC got;
    ID3D11Texture2D_GetDesc(tex, &got);
    assert_int_equal(got.MipLevels, 7); /* 64 -> 1: seven levels */
    assert_int_equal(mock.last_create.MipLevels, 7);
    assert_int_equal(mock.last_create.ArraySize, 3);
    assert_int_equal(mock.last_create.ResourceDimension, D3D10DDIRESOURCE_TEXTURE2D);
    ID3D11Texture2D_Release(tex);

    /* BC: physical sizes rounded to whole blocks in pMipInfoList. */
    D3D11_TEXTURE2D_DESC bc = T2(4, 4, 0, 1, BC1_UNORM, 1, DEFAULT, SR, 0, 0);
    assert_int_equal(ID3D11Device_CreateTexture2D(env->dev, &bc, NULL, &tex), S_OK);
    assert_int_equal(mock.last_create.MipLevels, 3);
    ID3D11Texture2D_Release(tex);

    /* Cube: TEXTURECUBE dimension at the DDI, the misc bit does not go down. */
    D3D11_TEXTURE2D_DESC cube = T2(8, 8, 1, 6, R8G8B8A8_UNORM, 1, DEFAULT, SR, 0, D3D11_RESOURCE_MISC_TEXTURECUBE);
    assert_int_equal(ID3D11Device_CreateTexture2D(env->dev, &cube, NULL, &tex), S_OK);
    assert_int_equal(mock.last_create.ResourceDimension, D3D10DDIRESOURCE_TEXTURECUBE);
    assert_int_equal(mock.last_create.MiscFlags, 0);
    ID3D11Texture2D_Release(tex);

    /* Initial data needs one non-NULL entry per subresource. */
    static const BYTE texels[64 * 64 * 4];
    D3D11_SUBRESOURCE_DATA two[2] = { { texels, 256, 0 }, { NULL, 128, 0 } };
    D3D11_TEXTURE2D_DESC imm = T2(64, 64, 2, 1, R8G8B8A8_UNORM, 1, IMMUTABLE, SR, 0, 0);
    assert_int_equal(ID3D11Device_CreateTexture2D(env->dev, &imm, two, &tex), E_INVALIDARG);
    two[1].pSysMem = texels;
    assert_int_equal(ID3D11Device_CreateTexture2D(env->dev, &imm, two, &tex), S_OK);
    assert_non_null(mock.last_create.pInitialDataUP);
    ID3D11Texture2D_Release(tex);
}

/* ---- 1D and 3D textures ------------------------------------------------------------------- */
/* rule: runtime.texture-limits-width-height-depth-array */
/* rule: runtime.api-ddi-translation-dimension-usage */
static void texture1d_and_3d_creation_rules(void **state)
{
    struct mock_env *env = *state;
    ID3D11Texture1D *t1 = NULL;
    ID3D11Texture3D *t3 = NULL;
    int before = mock.create_resource;

    D3D11_TEXTURE1D_DESC d1 = { 256, 1, 1, DXGI_FORMAT_R32_FLOAT, D3D11_USAGE_DEFAULT, RT, 0, 0 };
    assert_int_equal(ID3D11Device_CreateTexture1D(env->dev, &d1, NULL, &t1), S_OK);
    assert_int_equal(mock.last_create.ResourceDimension, D3D10DDIRESOURCE_TEXTURE1D);
    ID3D11Texture1D_Release(t1);
    d1.Format = DXGI_FORMAT_BC1_UNORM; /* no 1D block-compressed textures */
    d1.BindFlags = SR;
    assert_int_equal(ID3D11Device_CreateTexture1D(env->dev, &d1, NULL, &t1), E_INVALIDARG);
    d1.Format = DXGI_FORMAT_R8_UNORM;
    d1.Width = 16385;
    assert_int_equal(ID3D11Device_CreateTexture1D(env->dev, &d1, NULL, &t1), E_INVALIDARG);
    assert_int_equal(mock.create_resource, before + 1);

    D3D11_TEXTURE3D_DESC d3 = { 32, 32, 32, 0, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DEFAULT, SR | RT, 0, 0 };
    assert_int_equal(ID3D11Device_CreateTexture3D(env->dev, &d3, NULL, &t3), S_OK);
    D3D11_TEXTURE3D_DESC got;
    ID3D11Texture3D_GetDesc(t3, &got);
    assert_int_equal(got.MipLevels, 6);
    ID3D11Texture3D_Release(t3);
    before = mock.create_resource;
    d3.Depth = 2049;
    assert_int_equal(ID3D11Device_CreateTexture3D(env->dev, &d3, NULL, &t3), E_INVALIDARG);
    d3.Depth = 4;
    d3.Format = DXGI_FORMAT_D32_FLOAT; /* no 3D depth textures */
    d3.BindFlags = DS;
    assert_int_equal(ID3D11Device_CreateTexture3D(env->dev, &d3, NULL, &t3), E_INVALIDARG);
    d3.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    d3.BindFlags = SR;
    d3.MiscFlags = D3D11_RESOURCE_MISC_TEXTURECUBE;
    assert_int_equal(ID3D11Device_CreateTexture3D(env->dev, &d3, NULL, &t3), E_INVALIDARG);
    d3.MiscFlags = 0;
    d3.Usage = D3D11_USAGE_DYNAMIC;
    d3.CPUAccessFlags = CW;
    d3.MipLevels = 1;
    assert_int_equal(ID3D11Device_CreateTexture3D(env->dev, &d3, NULL, &t3), S_OK);
    ID3D11Texture3D_Release(t3);
    assert_int_equal(mock.create_resource, before + 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(buffer_creation_rules, mock_setup, mock_teardown),
        cmocka_unit_test_setup_teardown(buffer_ddi_arguments_follow_seed_001, mock_setup, mock_teardown),
        cmocka_unit_test_setup_teardown(texture2d_creation_rules, mock_setup, mock_teardown),
        cmocka_unit_test_setup_teardown(texture_mip_levels_zero_means_full_chain, mock_setup, mock_teardown),
        cmocka_unit_test_setup_teardown(texture1d_and_3d_creation_rules, mock_setup, mock_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
