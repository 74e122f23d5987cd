/* Seed 001 §9, end to end through every layer: data reaches a DEFAULT resource, a GPU copy
 * moves it to a STAGING resource, Flush, Map(READ) returns it byte for byte, read through the
 * RowPitch the UMD returns (seed 001 §7: RowPitch = align(row bytes, 256), DepthPitch =
 * RowPitch * rows, rows and row bytes counted in blocks for block-compressed formats). */
#include "e2e/e2e.h"

struct fmt {
    DXGI_FORMAT format;
    const char *name;
    UINT bytes; /* per element, or per 4x4 block */
    UINT block; /* 1, or 4 for BC */
};

static const struct fmt formats[] = {
    {DXGI_FORMAT_R8G8B8A8_TYPELESS, "R8G8B8A8_TYPELESS", 4, 1},
    {DXGI_FORMAT_R8G8B8A8_UNORM, "R8G8B8A8_UNORM", 4, 1},
    {DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, "R8G8B8A8_UNORM_SRGB", 4, 1},
    {DXGI_FORMAT_R8G8B8A8_UINT, "R8G8B8A8_UINT", 4, 1},
    {DXGI_FORMAT_R8G8B8A8_SNORM, "R8G8B8A8_SNORM", 4, 1},
    {DXGI_FORMAT_R8G8B8A8_SINT, "R8G8B8A8_SINT", 4, 1},
    {DXGI_FORMAT_B8G8R8A8_UNORM, "B8G8R8A8_UNORM", 4, 1},
    {DXGI_FORMAT_R32_FLOAT, "R32_FLOAT", 4, 1},
    {DXGI_FORMAT_R32G32B32A32_FLOAT, "R32G32B32A32_FLOAT", 16, 1},
    {DXGI_FORMAT_R16_UINT, "R16_UINT", 2, 1},
    {DXGI_FORMAT_R8_UNORM, "R8_UNORM", 1, 1},
    {DXGI_FORMAT_BC1_UNORM, "BC1_UNORM", 8, 4},
};

/* Uploads `seed` data into subresource `sub` (w x h x d texels) of `def`, copies the whole
 * resource to `stg`, maps it and compares row by row through the returned pitches. */
static void check_subresource(struct e2e *e, ID3D11Resource *stg, UINT sub, const struct fmt *f, UINT w, UINT h,
                              UINT d, const uint8_t *want, const char *what)
{
    UINT row_bytes = (w + f->block - 1) / f->block * f->bytes;
    UINT rows = (h + f->block - 1) / f->block;
    D3D11_MAPPED_SUBRESOURCE m;
    HRESULT hr = ID3D11DeviceContext_Map(e->ctx, stg, sub, D3D11_MAP_READ, 0, &m);
    if (FAILED(hr))
        fail_msg("%s: Map(READ) of subresource %u failed 0x%08x", what, sub, (unsigned)hr);
    assert_non_null(m.pData);
    if (m.RowPitch != e2e_align(row_bytes, 256))
        fail_msg("%s: RowPitch %u, want align(%u, 256) (seed 001 §7.2)", what, m.RowPitch, row_bytes);
    if (m.DepthPitch != m.RowPitch * rows)
        fail_msg("%s: DepthPitch %u, want RowPitch*rows = %u", what, m.DepthPitch, m.RowPitch * rows);
    for (UINT z = 0; z < d; z++)
        for (UINT y = 0; y < rows; y++) {
            const uint8_t *got = (const uint8_t *)m.pData + (size_t)z * m.DepthPitch + (size_t)y * m.RowPitch;
            const uint8_t *exp = want + ((size_t)z * rows + y) * row_bytes;
            if (memcmp(got, exp, row_bytes) != 0)
                fail_msg("%s: subresource %u slice %u row %u differs", what, sub, z, y);
        }
    ID3D11DeviceContext_Unmap(e->ctx, stg, sub);
}

static void texture2d_roundtrip(struct e2e *e, const struct fmt *f, UINT w, UINT h)
{
    char what[96];
    snprintf(what, sizeof what, "%s %ux%u", f->name, w, h);
    D3D11_TEXTURE2D_DESC td = {.Width = w, .Height = h, .MipLevels = 1, .ArraySize = 1, .Format = f->format,
                               .SampleDesc = {1, 0}, .Usage = D3D11_USAGE_DEFAULT,
                               .BindFlags = f->format == DXGI_FORMAT_R8G8B8A8_TYPELESS ? 0 : D3D11_BIND_SHADER_RESOURCE};
    ID3D11Texture2D *def = NULL, *stg = NULL;
    HRESULT hr = ID3D11Device_CreateTexture2D(e->dev, &td, NULL, &def);
    if (FAILED(hr))
        fail_msg("%s: CreateTexture2D(DEFAULT) 0x%08x", what, (unsigned)hr);
    td.Usage = D3D11_USAGE_STAGING;
    td.BindFlags = 0;
    td.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    hr = ID3D11Device_CreateTexture2D(e->dev, &td, NULL, &stg);
    if (FAILED(hr))
        fail_msg("%s: CreateTexture2D(STAGING) 0x%08x", what, (unsigned)hr);

    UINT row_bytes = (w + f->block - 1) / f->block * f->bytes;
    UINT rows = (h + f->block - 1) / f->block;
    uint8_t *data = malloc((size_t)row_bytes * rows);
    e2e_fill(data, (size_t)row_bytes * rows, w * 31u + h + f->format);
    ID3D11DeviceContext_UpdateSubresource(e->ctx, (ID3D11Resource *)def, 0, NULL, data, row_bytes, 0);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)stg, (ID3D11Resource *)def);
    ID3D11DeviceContext_Flush(e->ctx);
    check_subresource(e, (ID3D11Resource *)stg, 0, f, w, h, 1, data, what);
    free(data);
    SAFE_RELEASE(stg);
    SAFE_RELEASE(def);
}

/* rule: umd.linear-layout-textures-rowpitch-align */
/* rule: umd.block-compressed-formats-count-rows-row */
/* rule: e2e.copy-default-staging-flush-map-returns */
static void seed001_s9_texture2d_readback_every_format_odd_sizes(void **state)
{
    static const UINT sizes[][2] = {{1, 1}, {3, 5}, {257, 129}};
    static const UINT bc_sizes[][2] = {{4, 4}, {12, 8}, {260, 132}}; /* BC: multiples of 4 */
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        for (size_t s = 0; s < 3; s++) {
            const UINT *sz = formats[i].block == 4 ? bc_sizes[s] : sizes[s];
            texture2d_roundtrip(*state, &formats[i], sz[0], sz[1]);
        }
}

/* rule: runtime.returned-pitches-never-0 */
/* rule: umd.copies-updates-clears-flush-real-dma */
/* rule: e2e.copy-default-staging-flush-map-returns */
static void seed001_s9_buffer_readback(void **state)
{
    struct e2e *e = *state;
    static const UINT sizes[] = {1, 3, 4096 + 7, 65536};
    for (size_t i = 0; i < 4; i++) {
        UINT n = sizes[i];
        D3D11_BUFFER_DESC bd = {.ByteWidth = n, .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_VERTEX_BUFFER};
        ID3D11Buffer *def = NULL, *stg = NULL;
        assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, NULL, &def), S_OK);
        bd = (D3D11_BUFFER_DESC){.ByteWidth = n, .Usage = D3D11_USAGE_STAGING, .CPUAccessFlags = D3D11_CPU_ACCESS_READ};
        assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, NULL, &stg), S_OK);
        uint8_t *data = malloc(n);
        e2e_fill(data, n, n);
        ID3D11DeviceContext_UpdateSubresource(e->ctx, (ID3D11Resource *)def, 0, NULL, data, 0, 0);
        ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)stg, (ID3D11Resource *)def);
        ID3D11DeviceContext_Flush(e->ctx);
        D3D11_MAPPED_SUBRESOURCE m;
        assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)stg, 0, D3D11_MAP_READ, 0, &m), S_OK);
        /* Buffers: both pitches non-zero and at least the byte size (docs/semantics.md §4.3). */
        assert_true(m.RowPitch >= n && m.DepthPitch >= n);
        assert_memory_equal(m.pData, data, n);
        ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)stg, 0);
        free(data);
        SAFE_RELEASE(stg);
        SAFE_RELEASE(def);
    }
}

/* IMMUTABLE with initial data, and DYNAMIC -> DEFAULT -> STAGING: the other two usages on
 * the same path. */
/* rule: umd.initial-data-uploaded-gpu-write-commands */
/* rule: e2e.immutable-dynamic-reach-staging-same */
static void seed001_immutable_and_dynamic_reach_staging(void **state)
{
    struct e2e *e = *state;
    enum { N = 3000 };
    uint8_t a[N], b[N];
    e2e_fill(a, N, 1);
    e2e_fill(b, N, 2);
    D3D11_SUBRESOURCE_DATA init = {.pSysMem = a};
    D3D11_BUFFER_DESC bd = {.ByteWidth = N, .Usage = D3D11_USAGE_IMMUTABLE, .BindFlags = D3D11_BIND_VERTEX_BUFFER};
    ID3D11Buffer *imm = NULL, *dyn = NULL, *def = NULL, *stg = NULL;
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, &init, &imm), S_OK);
    bd = (D3D11_BUFFER_DESC){.ByteWidth = N, .Usage = D3D11_USAGE_DYNAMIC, .BindFlags = D3D11_BIND_VERTEX_BUFFER,
                             .CPUAccessFlags = D3D11_CPU_ACCESS_WRITE};
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, NULL, &dyn), S_OK);
    bd = (D3D11_BUFFER_DESC){.ByteWidth = N, .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_VERTEX_BUFFER};
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, NULL, &def), S_OK);
    bd = (D3D11_BUFFER_DESC){.ByteWidth = N, .Usage = D3D11_USAGE_STAGING, .CPUAccessFlags = D3D11_CPU_ACCESS_READ};
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, NULL, &stg), S_OK);

    D3D11_MAPPED_SUBRESOURCE m;
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)stg, (ID3D11Resource *)imm);
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)stg, 0, D3D11_MAP_READ, 0, &m), S_OK);
    assert_memory_equal(m.pData, a, N);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)stg, 0);

    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)dyn, 0, D3D11_MAP_WRITE_DISCARD, 0, &m), S_OK);
    memcpy(m.pData, b, N);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)dyn, 0);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)def, (ID3D11Resource *)dyn);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)stg, (ID3D11Resource *)def);
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)stg, 0, D3D11_MAP_READ, 0, &m), S_OK);
    assert_memory_equal(m.pData, b, N);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)stg, 0);
    SAFE_RELEASE(imm);
    SAFE_RELEASE(dyn);
    SAFE_RELEASE(def);
    SAFE_RELEASE(stg);
}

/* Mip chains (MipLevels = 0 is the full chain) and arrays: every subresource lands where
 * D3D11CalcSubresource says. */
/* rule: umd.subresources-d3d11calcsubresource-order */
static void seed001_mips_and_arrays_roundtrip_per_subresource(void **state)
{
    struct e2e *e = *state;
    const struct fmt *f = &formats[1]; /* R8G8B8A8_UNORM */
    D3D11_TEXTURE2D_DESC td = {.Width = 37, .Height = 19, .MipLevels = 0, .ArraySize = 3, .Format = f->format,
                               .SampleDesc = {1, 0}, .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_SHADER_RESOURCE};
    ID3D11Texture2D *def = NULL, *stg = NULL;
    assert_int_equal(ID3D11Device_CreateTexture2D(e->dev, &td, NULL, &def), S_OK);
    D3D11_TEXTURE2D_DESC got;
    ID3D11Texture2D_GetDesc(def, &got);
    assert_int_equal(got.MipLevels, 6); /* 37x19 -> 18x9 -> 9x4 -> 4x2 -> 2x1 -> 1x1 */
    td.MipLevels = got.MipLevels;
    td.Usage = D3D11_USAGE_STAGING;
    td.BindFlags = 0;
    td.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    assert_int_equal(ID3D11Device_CreateTexture2D(e->dev, &td, NULL, &stg), S_OK);

    uint8_t *data[18];
    for (UINT a = 0; a < 3; a++)
        for (UINT mip = 0; mip < 6; mip++) {
            UINT w = 37u >> mip ? 37u >> mip : 1u, h = 19u >> mip ? 19u >> mip : 1u;
            UINT sub = D3D11CalcSubresource(mip, a, 6);
            data[sub] = malloc((size_t)w * h * 4u);
            e2e_fill(data[sub], (size_t)w * h * 4u, 100u + sub);
            ID3D11DeviceContext_UpdateSubresource(e->ctx, (ID3D11Resource *)def, sub, NULL, data[sub], w * 4u, 0);
        }
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)stg, (ID3D11Resource *)def);
    for (UINT a = 0; a < 3; a++)
        for (UINT mip = 0; mip < 6; mip++) {
            UINT w = 37u >> mip ? 37u >> mip : 1u, h = 19u >> mip ? 19u >> mip : 1u;
            UINT sub = D3D11CalcSubresource(mip, a, 6);
            char what[64];
            snprintf(what, sizeof what, "mip %u slice %u", mip, a);
            check_subresource(e, (ID3D11Resource *)stg, sub, f, w, h, 1, data[sub], what);
            free(data[sub]);
        }
    SAFE_RELEASE(stg);
    SAFE_RELEASE(def);
}

/* Texture1D and Texture3D take the same path (a 3-D mip level is one subresource holding
 * every depth slice, DepthPitch apart). */
/* rule: umd.subresources-d3d11calcsubresource-order */
static void seed001_texture1d_and_texture3d_roundtrip(void **state)
{
    struct e2e *e = *state;
    const struct fmt *f = &formats[1];
    enum { W = 33, H = 7, D = 5 };
    uint8_t data[W * H * D * 4];
    e2e_fill(data, sizeof data, 77);

    D3D11_TEXTURE3D_DESC t3 = {.Width = W, .Height = H, .Depth = D, .MipLevels = 1, .Format = f->format,
                               .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_SHADER_RESOURCE};
    ID3D11Texture3D *d3 = NULL, *s3 = NULL;
    assert_int_equal(ID3D11Device_CreateTexture3D(e->dev, &t3, NULL, &d3), S_OK);
    t3.Usage = D3D11_USAGE_STAGING;
    t3.BindFlags = 0;
    t3.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    assert_int_equal(ID3D11Device_CreateTexture3D(e->dev, &t3, NULL, &s3), S_OK);
    ID3D11DeviceContext_UpdateSubresource(e->ctx, (ID3D11Resource *)d3, 0, NULL, data, W * 4, W * H * 4);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)s3, (ID3D11Resource *)d3);
    check_subresource(e, (ID3D11Resource *)s3, 0, f, W, H, D, data, "Texture3D 33x7x5");

    D3D11_TEXTURE1D_DESC t1 = {.Width = W, .MipLevels = 1, .ArraySize = 1, .Format = f->format,
                               .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_SHADER_RESOURCE};
    ID3D11Texture1D *d1 = NULL, *s1 = NULL;
    assert_int_equal(ID3D11Device_CreateTexture1D(e->dev, &t1, NULL, &d1), S_OK);
    t1.Usage = D3D11_USAGE_STAGING;
    t1.BindFlags = 0;
    t1.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    assert_int_equal(ID3D11Device_CreateTexture1D(e->dev, &t1, NULL, &s1), S_OK);
    ID3D11DeviceContext_UpdateSubresource(e->ctx, (ID3D11Resource *)d1, 0, NULL, data, 0, 0);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)s1, (ID3D11Resource *)d1);
    check_subresource(e, (ID3D11Resource *)s1, 0, f, W, 1, 1, data, "Texture1D 33");
    SAFE_RELEASE(d3);
    SAFE_RELEASE(s3);
    SAFE_RELEASE(d1);
    SAFE_RELEASE(s1);
}

/* CopySubresourceRegion moves exactly the box, to the offset, and nothing else. */
/* rule: umd.resourcecopyregion-box-texels-null-box */
static void seed001_copy_subresource_region_moves_only_the_box(void **state)
{
    struct e2e *e = *state;
    enum { W = 40, H = 30 };
    D3D11_TEXTURE2D_DESC td = {.Width = W, .Height = H, .MipLevels = 1, .ArraySize = 1,
                               .Format = DXGI_FORMAT_R8G8B8A8_UNORM, .SampleDesc = {1, 0},
                               .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_SHADER_RESOURCE};
    ID3D11Texture2D *src = NULL, *dst = NULL, *stg = NULL;
    assert_int_equal(ID3D11Device_CreateTexture2D(e->dev, &td, NULL, &src), S_OK);
    assert_int_equal(ID3D11Device_CreateTexture2D(e->dev, &td, NULL, &dst), S_OK);
    td.Usage = D3D11_USAGE_STAGING;
    td.BindFlags = 0;
    td.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    assert_int_equal(ID3D11Device_CreateTexture2D(e->dev, &td, NULL, &stg), S_OK);
    static uint32_t a[W * H], b[W * H];
    e2e_fill(a, sizeof a, 5);
    e2e_fill(b, sizeof b, 6);
    ID3D11DeviceContext_UpdateSubresource(e->ctx, (ID3D11Resource *)src, 0, NULL, a, W * 4, 0);
    ID3D11DeviceContext_UpdateSubresource(e->ctx, (ID3D11Resource *)dst, 0, NULL, b, W * 4, 0);
    D3D11_BOX box = {3, 4, 0, 3 + 11, 4 + 9, 1};
    ID3D11DeviceContext_CopySubresourceRegion(e->ctx, (ID3D11Resource *)dst, 0, 20, 15, 0, (ID3D11Resource *)src, 0, &box);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)stg, (ID3D11Resource *)dst);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)stg, 0, D3D11_MAP_READ, 0, &m), S_OK);
    for (UINT y = 0; y < H; y++)
        for (UINT x = 0; x < W; x++) {
            uint32_t got = ((const uint32_t *)((const uint8_t *)m.pData + (size_t)y * m.RowPitch))[x];
            int in = x >= 20 && x < 31 && y >= 15 && y < 24;
            uint32_t want = in ? a[(y - 15 + 4) * W + (x - 20 + 3)] : b[y * W + x];
            if (got != want)
                fail_msg("texel (%u,%u): got %08x want %08x", x, y, got, want);
        }
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)stg, 0);
    SAFE_RELEASE(src);
    SAFE_RELEASE(dst);
    SAFE_RELEASE(stg);
}

/* ClearRenderTargetView runs on the GPU as a fill with the colour in the view's format. */
/* rule: umd.copies-updates-clears-flush-real-dma */
/* rule: umd.clearrendertargetview-converts-colour */
static void clear_render_target_view_is_a_gpu_fill(void **state)
{
    struct e2e *e = *state;
    D3D11_TEXTURE2D_DESC td = {.Width = 19, .Height = 7, .MipLevels = 1, .ArraySize = 1,
                               .Format = DXGI_FORMAT_R8G8B8A8_UNORM, .SampleDesc = {1, 0},
                               .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_RENDER_TARGET};
    ID3D11Texture2D *rt = NULL, *stg = NULL;
    ID3D11RenderTargetView *rtv = NULL;
    assert_int_equal(ID3D11Device_CreateTexture2D(e->dev, &td, NULL, &rt), S_OK);
    assert_int_equal(ID3D11Device_CreateRenderTargetView(e->dev, (ID3D11Resource *)rt, NULL, &rtv), S_OK);
    td.Usage = D3D11_USAGE_STAGING;
    td.BindFlags = 0;
    td.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    assert_int_equal(ID3D11Device_CreateTexture2D(e->dev, &td, NULL, &stg), S_OK);
    struct wddm_swgpu_stats s0, s1;
    wddm_swgpu_get_stats(&s0);
    const FLOAT color[4] = {1.0f, 0.25f, 0.0f, 0.2f};
    ID3D11DeviceContext_ClearRenderTargetView(e->ctx, rtv, color);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)stg, (ID3D11Resource *)rt);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)stg, 0, D3D11_MAP_READ, 0, &m), S_OK);
    wddm_swgpu_get_stats(&s1);
    assert_true(s1.bytes_filled - s0.bytes_filled >= 19u * 7u * 4u); /* the GPU did the fill */
    /* UNORM: round(c * 255): 255, 64, 0, 51 (no ties). */
    for (UINT y = 0; y < 7; y++)
        for (UINT x = 0; x < 19; x++)
            assert_int_equal(((const uint32_t *)((const uint8_t *)m.pData + (size_t)y * m.RowPitch))[x], 0x330040ffu);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)stg, 0);
    SAFE_RELEASE(rtv);
    SAFE_RELEASE(rt);
    SAFE_RELEASE(stg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(seed001_s9_texture2d_readback_every_format_odd_sizes, e2e_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(seed001_s9_buffer_readback, e2e_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(seed001_immutable_and_dynamic_reach_staging, e2e_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(seed001_mips_and_arrays_roundtrip_per_subresource, e2e_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(seed001_texture1d_and_texture3d_roundtrip, e2e_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(seed001_copy_subresource_region_moves_only_the_box, e2e_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(clear_render_target_view_is_a_gpu_fill, e2e_setup, e2e_teardown),
    };
    return cmocka_run_group_tests_name("e2e.seed001_flow", tests, NULL, NULL);
}
