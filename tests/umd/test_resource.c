/* Resource creation of the reference UMD: seed 001 §4.3 (one allocation per resource, made
 * with pfnAllocateCb, private data kind by usage, initial data), §7 (linear layout, pitches),
 * docs/semantics.md §4.2 (errors only through pfnSetErrorCb; a failed create leaves nothing). */
#include "umd/umd_fake.h"

/* Map subresource `s` of a staging resource and return pitches and the offset from the base. */
static void map_layout(struct fake *f, struct fake_res *r, UINT s, UINT *offset, UINT *rp, UINT *dp)
{
    D3D10DDI_MAPPED_SUBRESOURCE m = { 0 };
    f->df.pfnStagingResourceMap(f->hDevice, r->h, s, D3D10_DDI_MAP_READ, 0, &m);
    assert_int_equal(f->n_errors, 0);
    *offset = (UINT)((BYTE *)m.pData - fake_mem(f, r)->mem);
    *rp = m.RowPitch;
    *dp = m.DepthPitch;
    f->df.pfnStagingResourceUnmap(f->hDevice, r->h, s);
}

/* Seed 001 §7.3 + brief: buffers have RowPitch = DepthPitch = ByteWidth (never 0). */
/* rule: umd.buffers-rowpitch-depthpitch-bytewidth */
static void test_layout_buffer_pitches_are_bytewidth(void **state)
{
    struct fake *f = fake_setup();
    struct fake_res *r = fake_buffer(f, D3D10_DDI_USAGE_STAGING, 100, D3D10_DDI_CPU_ACCESS_READ, NULL);
    UINT off, rp, dp;
    map_layout(f, r, 0, &off, &rp, &dp);
    assert_int_equal(off, 0);
    assert_int_equal(rp, 100);
    assert_int_equal(dp, 100);
    assert_int_equal(fake_mem(f, r)->size, 100);
    fake_res_destroy(f, r);
    fake_teardown(f);
}

/* Seed 001 §7.2: RowPitch = align(width * bpp, 256), DepthPitch = RowPitch * height, for
 * odd sizes 1x1, 3x5, 257x129. */
/* rule: umd.linear-layout-textures-rowpitch-align */
static void test_layout_texture_row_pitch_is_aligned_to_256(void **state)
{
    static const struct { UINT w, h, rp; } cases[] = { { 1, 1, 256 }, { 3, 5, 256 }, { 257, 129, 1280 }, { 64, 2, 256 },
                                                       { 65, 1, 512 } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct fake *f = fake_setup();
        struct fake_res *r = fake_tex2d(f, D3D10_DDI_USAGE_STAGING, DXGI_FORMAT_R8G8B8A8_UNORM, cases[i].w,
                                        cases[i].h, 1, 1, D3D10_DDI_CPU_ACCESS_READ);
        UINT off, rp, dp;
        map_layout(f, r, 0, &off, &rp, &dp);
        assert_int_equal(off, 0);
        assert_int_equal(rp, cases[i].rp);
        assert_int_equal(dp, cases[i].rp * cases[i].h);
        assert_int_equal(fake_mem(f, r)->size, (UINT64)cases[i].rp * cases[i].h);
        fake_res_destroy(f, r);
        fake_teardown(f);
    }
}

/* Subresource index = mip + slice * MipLevels; subresources follow each other in that order. */
/* rule: umd.subresources-d3d11calcsubresource-order */
static void test_layout_mips_and_array_slices_in_subresource_order(void **state)
{
    struct fake *f = fake_setup();
    /* 8x4, 3 mips (8x4, 4x2, 2x1), 2 slices, R32_FLOAT: every row pitch is 256 */
    struct fake_res *r = fake_tex2d(f, D3D10_DDI_USAGE_STAGING, DXGI_FORMAT_R32_FLOAT, 8, 4, 3, 2,
                                    D3D10_DDI_CPU_ACCESS_READ);
    UINT expect_off[6] = { 0, 1024, 1536, 1792, 2816, 3328 };
    UINT expect_dp[6] = { 1024, 512, 256, 1024, 512, 256 };
    for (UINT s = 0; s < 6; s++) {
        UINT off, rp, dp;
        map_layout(f, r, s, &off, &rp, &dp);
        assert_int_equal(off, expect_off[s]);
        assert_int_equal(rp, 256);
        assert_int_equal(dp, expect_dp[s]);
    }
    assert_int_equal(fake_mem(f, r)->size, 3584);
    fake_res_destroy(f, r);
    fake_teardown(f);
}

/* BC formats count 4x4 blocks: BC1 257x129 = 65 x 33 blocks of 8 bytes. */
/* rule: umd.block-compressed-formats-count-rows-row */
static void test_layout_bc1_counts_blocks(void **state)
{
    struct fake *f = fake_setup();
    struct fake_res *r = fake_tex2d(f, D3D10_DDI_USAGE_STAGING, DXGI_FORMAT_BC1_UNORM, 257, 129, 2, 1,
                                    D3D10_DDI_CPU_ACCESS_READ);
    UINT off, rp, dp;
    map_layout(f, r, 0, &off, &rp, &dp);
    assert_int_equal(rp, 768); /* align(65 * 8 = 520, 256) */
    assert_int_equal(dp, 768 * 33);
    map_layout(f, r, 1, &off, &rp, &dp); /* 128x64 -> 32 x 16 blocks = 256 bytes */
    assert_int_equal(off, 768 * 33);
    assert_int_equal(rp, 256);
    assert_int_equal(dp, 256 * 16);
    fake_res_destroy(f, r);
    fake_teardown(f);
}

/* Texture1D arrays: one row per subresource (height 1), slices in subresource order. */
/* rule: umd.subresources-d3d11calcsubresource-order */
static void test_layout_texture1d_array_has_one_row_per_subresource(void **state)
{
    struct fake *f = fake_setup();
    struct fake_res *r = fake_res_new(D3D10DDIRESOURCE_TEXTURE1D, D3D10_DDI_USAGE_STAGING,
                                      DXGI_FORMAT_R16G16B16A16_FLOAT, 40, 1, 1, 1, 3, D3D10_DDI_CPU_ACCESS_READ);
    assert_true(fake_res_create(f, r, NULL));
    UINT off, rp, dp;
    map_layout(f, r, 2, &off, &rp, &dp);
    assert_int_equal(rp, 512); /* align(320, 256) */
    assert_int_equal(dp, 512);
    assert_int_equal(off, 1024);
    fake_res_destroy(f, r);
    fake_teardown(f);
}

/* A 3-D mip is one subresource of TexelDepth slices, DepthPitch apart. */
/* rule: umd.subresources-d3d11calcsubresource-order */
static void test_layout_texture3d_mip_holds_all_depth_slices(void **state)
{
    struct fake *f = fake_setup();
    struct fake_res *r = fake_res_new(D3D10DDIRESOURCE_TEXTURE3D, D3D10_DDI_USAGE_STAGING,
                                      DXGI_FORMAT_R8G8B8A8_UNORM, 4, 4, 3, 2, 1, D3D10_DDI_CPU_ACCESS_READ);
    assert_true(fake_res_create(f, r, NULL));
    UINT off, rp, dp;
    map_layout(f, r, 1, &off, &rp, &dp);
    assert_int_equal(off, 3 * 1024); /* mip 0: 3 slices of 256 * 4 */
    assert_int_equal(rp, 256);
    assert_int_equal(dp, 512);
    assert_int_equal(fake_mem(f, r)->size, 3 * 1024 + 512);
    fake_res_destroy(f, r);
    fake_teardown(f);
}

/* Seed 001 §4.3: one pfnAllocateCb per resource with hResource = hRTResource and the private
 * data kind by usage; DestroyResource frees it with pfnDeallocateCb. */
/* rule: umd.one-allocation-resource-made */
/* rule: umd.recipe-usage-default-immutable-gpu-only */
/* rule: umd.wddm-umd-suballoc-0-gives-every (with the pools off, as in every UMD test but `umd.test_suballoc`) */
static void test_create_allocates_one_allocation_with_kind_by_usage(void **state)
{
    static const struct { UINT usage, cpu, kind; } cases[] = {
        { D3D10_DDI_USAGE_DEFAULT, 0, SWGPU_ALLOC_GPU_ONLY },
        { D3D10_DDI_USAGE_IMMUTABLE, 0, SWGPU_ALLOC_GPU_ONLY },
        { D3D10_DDI_USAGE_DYNAMIC, D3D10_DDI_CPU_ACCESS_WRITE, SWGPU_ALLOC_UPLOAD },
        { D3D10_DDI_USAGE_STAGING, D3D10_DDI_CPU_ACCESS_READ, SWGPU_ALLOC_READBACK },
    };
    BYTE init[4096] = { 0 };
    for (size_t i = 0; i < 4; i++) {
        struct fake *f = fake_setup();
        struct fake_res *r = fake_buffer(f, cases[i].usage, 4096, cases[i].cpu,
                                         cases[i].usage == D3D10_DDI_USAGE_IMMUTABLE ? init : NULL);
        assert_int_equal(f->allocate_calls, 1);
        struct fake_alloc *a = fake_mem(f, r);
        assert_ptr_equal(a->hResource, r->rt.handle);
        assert_int_equal(a->priv.kind, cases[i].kind);
        assert_int_equal(a->priv.usage, cases[i].usage);
        assert_int_equal(a->priv.size, 4096);
        assert_int_equal(a->priv.version, SWGPU_PRIVATE_VERSION);
        assert_int_equal(a->priv.dimension, D3D10DDIRESOURCE_BUFFER);
        fake_res_destroy(f, r);
        assert_int_equal(f->deallocate_calls, 1);
        assert_int_equal(f->live_allocs, 0);
        assert_int_equal(f->n_errors, 0);
        fake_teardown(f);
    }
}

/* swgpu_private.h SWGPU_ALLOC_FLAG_SAMPLED_TEXTURE: only a DEFAULT or IMMUTABLE texture the GPU
 * only samples (no render-target, depth-stencil or UAV binding, not shared) may live in system
 * memory; buffers, written surfaces and CPU-visible kinds never carry the flag. */
/* rule: umd.sampled-texture-may-live-system-memory */
static void test_only_a_texture_the_gpu_only_samples_is_marked_sampled(void **state)
{
    static const struct { UINT dim, usage, bind, misc, cpu; int sampled; } cases[] = {
        { D3D10DDIRESOURCE_TEXTURE2D, D3D10_DDI_USAGE_DEFAULT, D3D10_DDI_BIND_SHADER_RESOURCE, 0, 0, 1 },
        { D3D10DDIRESOURCE_TEXTURE3D, D3D10_DDI_USAGE_DEFAULT, D3D10_DDI_BIND_SHADER_RESOURCE, 0, 0, 1 },
        { D3D10DDIRESOURCE_TEXTURE1D, D3D10_DDI_USAGE_IMMUTABLE, D3D10_DDI_BIND_SHADER_RESOURCE, 0, 0, 1 },
        { D3D10DDIRESOURCE_TEXTURE2D, D3D10_DDI_USAGE_DEFAULT, 0, 0, 0, 1 },
        { D3D10DDIRESOURCE_TEXTURE2D, D3D10_DDI_USAGE_DEFAULT,
          D3D10_DDI_BIND_SHADER_RESOURCE | D3D10_DDI_BIND_RENDER_TARGET, 0, 0, 0 },
        { D3D10DDIRESOURCE_TEXTURE2D, D3D10_DDI_USAGE_DEFAULT, D3D10_DDI_BIND_DEPTH_STENCIL, 0, 0, 0 },
        { D3D10DDIRESOURCE_TEXTURE2D, D3D10_DDI_USAGE_DEFAULT,
          D3D10_DDI_BIND_SHADER_RESOURCE | D3D11_DDI_BIND_UNORDERED_ACCESS, 0, 0, 0 },
        { D3D10DDIRESOURCE_TEXTURE2D, D3D10_DDI_USAGE_DEFAULT, D3D10_DDI_BIND_SHADER_RESOURCE,
          D3D10_DDI_RESOURCE_MISC_SHARED, 0, 0 },
        { D3D10DDIRESOURCE_TEXTURE2D, D3D10_DDI_USAGE_DYNAMIC, D3D10_DDI_BIND_SHADER_RESOURCE, 0,
          D3D10_DDI_CPU_ACCESS_WRITE, 0 },
        { D3D10DDIRESOURCE_TEXTURE2D, D3D10_DDI_USAGE_STAGING, 0, 0, D3D10_DDI_CPU_ACCESS_READ, 0 },
        { D3D10DDIRESOURCE_BUFFER, D3D10_DDI_USAGE_DEFAULT, D3D10_DDI_BIND_SHADER_RESOURCE, 0, 0, 0 },
    };
    BYTE init[64 * 64 * 4] = { 0 };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct fake *f = fake_setup();
        BOOL buffer = cases[i].dim == D3D10DDIRESOURCE_BUFFER;
        struct fake_res *r = fake_res_new(cases[i].dim, cases[i].usage,
                                          buffer ? DXGI_FORMAT_UNKNOWN : DXGI_FORMAT_R8G8B8A8_UNORM, buffer ? 4096 : 16,
                                          buffer ? 1 : 16, 1, 1, 1, cases[i].cpu);
        r->args.BindFlags = cases[i].bind;
        r->args.MiscFlags = cases[i].misc;
        D3D10_DDIARG_SUBRESOURCE_UP up = { .pSysMem = init, .SysMemPitch = 64, .SysMemSlicePitch = sizeof init };
        assert_true(fake_res_create(f, r, cases[i].usage == D3D10_DDI_USAGE_IMMUTABLE ? &up : NULL));
        struct fake_alloc *a = fake_mem(f, r);
        assert_int_equal(a->priv.flags & SWGPU_ALLOC_FLAG_SAMPLED_TEXTURE,
                         cases[i].sampled ? SWGPU_ALLOC_FLAG_SAMPLED_TEXTURE : 0);
        fake_res_destroy(f, r);
        assert_int_equal(f->n_errors, 0);
        fake_teardown(f);
    }
}

/* docs/semantics.md §4.2: a failed pfnAllocateCb is reported (E_OUTOFMEMORY / DEVICEREMOVED). */
/* rule: umd.createresource-errors-only-through */
static void test_create_allocation_failure_is_reported(void **state)
{
    HRESULT in[] = { E_OUTOFMEMORY, D3DERR_OUTOFVIDEOMEMORY, D3DDDIERR_DEVICEREMOVED };
    HRESULT out[] = { E_OUTOFMEMORY, E_OUTOFMEMORY, D3DDDIERR_DEVICEREMOVED };
    for (int i = 0; i < 3; i++) {
        struct fake *f = fake_setup();
        f->allocate_result = in[i];
        struct fake_res *r = fake_res_new(D3D10DDIRESOURCE_BUFFER, D3D10_DDI_USAGE_DEFAULT, DXGI_FORMAT_UNKNOWN, 64,
                                          1, 1, 1, 1, 0);
        assert_false(fake_res_create(f, r, NULL));
        assert_int_equal(f->errors[0], out[i]);
        assert_int_equal(f->live_allocs, 0);
        free(r->h.pDrvPrivate);
        free(r);
        fake_teardown(f);
    }
}

/* docs/semantics.md §4.2 lists DXGI_DDI_ERR_UNSUPPORTED among CreateResource's errors: the
 * reference UMD has no multisampled resources, and says so without allocating anything. */
/* rule: umd.multisampled-resources-dxgi-ddi-err */
static void test_a_multisampled_texture_is_unsupported(void **state)
{
    (void)state;
    struct fake *f = fake_setup();
    struct fake_res *r = fake_res_new(D3D10DDIRESOURCE_TEXTURE2D, D3D10_DDI_USAGE_DEFAULT, DXGI_FORMAT_R8G8B8A8_UNORM,
                                      64, 64, 1, 1, 1, 0);
    r->args.SampleDesc.Count = 4;
    assert_false(fake_res_create(f, r, NULL));
    assert_int_equal(f->errors[0], DXGI_DDI_ERR_UNSUPPORTED);
    assert_int_equal(f->live_allocs, 0);
    free(r->h.pDrvPrivate);
    free(r);
    fake_teardown(f);
}

/* After an error the runtime never calls DestroyResource: a create that fails after its
 * allocation exists (initial-data upload cannot be submitted) frees it itself. */
/* rule: umd.create-fails-after-allocation-exists */
static void test_create_failing_after_allocation_frees_it(void **state)
{
    struct fake *f = fake_setup_sized(1024, 64, 64);
    f->render_result = D3DDDIERR_DEVICEREMOVED;
    static BYTE init[8192];
    struct fake_res *r = fake_res_new(D3D10DDIRESOURCE_BUFFER, D3D10_DDI_USAGE_IMMUTABLE, DXGI_FORMAT_UNKNOWN, 8192,
                                      1, 1, 1, 1, 0);
    D3D10_DDIARG_SUBRESOURCE_UP up = { init, 8192, 8192 };
    assert_false(fake_res_create(f, r, &up));
    assert_int_equal(f->errors[0], D3DDDIERR_DEVICEREMOVED);
    assert_int_equal(f->allocate_calls, 1);
    assert_int_equal(f->live_allocs, 0);
    free(r->h.pDrvPrivate);
    free(r);
    f->render_result = S_OK;
    fake_teardown(f);
}

/* Initial data (required for IMMUTABLE) reaches the allocation through SWGPU_OP_WRITE, row by
 * row with the application's pitch, into the 256-aligned layout. */
/* rule: umd.initial-data-uploaded-gpu-write-commands */
static void test_initial_data_is_uploaded_with_write_commands(void **state)
{
    struct fake *f = fake_setup();
    UINT src[5][3];
    for (UINT y = 0; y < 5; y++)
        for (UINT x = 0; x < 3; x++)
            src[y][x] = 0x01000000u * y + x + 1;
    struct fake_res *r = fake_res_new(D3D10DDIRESOURCE_TEXTURE2D, D3D10_DDI_USAGE_IMMUTABLE,
                                      DXGI_FORMAT_R8G8B8A8_UNORM, 3, 5, 1, 1, 1, 0);
    D3D10_DDIARG_SUBRESOURCE_UP up = { src, sizeof src[0], sizeof src };
    assert_true(fake_res_create(f, r, &up));
    assert_int_equal(f->render_calls, 0);
    fake_flush(f);
    assert_int_equal(f->render_calls, 1);
    BYTE *mem = fake_mem(f, r)->mem;
    for (UINT y = 0; y < 5; y++)
        assert_memory_equal(mem + 256 * y, src[y], 12);
    fake_res_destroy(f, r);
    fake_teardown(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout_buffer_pitches_are_bytewidth),
        cmocka_unit_test(test_layout_texture_row_pitch_is_aligned_to_256),
        cmocka_unit_test(test_layout_mips_and_array_slices_in_subresource_order),
        cmocka_unit_test(test_layout_bc1_counts_blocks),
        cmocka_unit_test(test_layout_texture1d_array_has_one_row_per_subresource),
        cmocka_unit_test(test_layout_texture3d_mip_holds_all_depth_slices),
        cmocka_unit_test(test_create_allocates_one_allocation_with_kind_by_usage),
        cmocka_unit_test(test_only_a_texture_the_gpu_only_samples_is_marked_sampled),
        cmocka_unit_test(test_create_allocation_failure_is_reported),
        cmocka_unit_test(test_a_multisampled_texture_is_unsupported),
        cmocka_unit_test(test_create_failing_after_allocation_frees_it),
        cmocka_unit_test(test_initial_data_is_uploaded_with_write_commands),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
