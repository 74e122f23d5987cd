/* Issue 3, placement: a DEFAULT texture the GPU only samples may live in system memory. The
 * reference UMD marks it SWGPU_ALLOC_FLAG_SAMPLED_TEXTURE, the reference KMD adds the aperture
 * segment after local and visible memory (PreferredSegment 1, 2, 3), and VidMm places it there
 * when video memory is full instead of evicting (it tries every supported segment in preference
 * order before it evicts: docs/semantics.md §6.4, §9.5). A texture bound as a render target stays in
 * video memory and is evicted and restored instead. Both in both driver models, every texel
 * right. Local memory 2 + 2 MiB (set before the adapter starts); textures of 1 MiB. */
/* rule: umd.sampled-textures-may-live-system-memory */
/* rule: umd.sampled-texture-may-live-system-memory (8 MiB through 4 MiB of video memory: sampled textures take no eviction and live in the aperture, render targets are evicted; every texel right; both driver models) */
#include "e2e.h"

#include <wddm/wddm.h>

enum { COUNT = 8, W = 512, H = 512, TEST_BYTES = W * H * 4 };

static ID3D11Texture2D *texture(struct e2e *e, D3D11_USAGE usage, UINT bind, UINT cpu, const void *init)
{
    D3D11_TEXTURE2D_DESC td = { .Width = W, .Height = H, .MipLevels = 1, .ArraySize = 1,
                                .Format = DXGI_FORMAT_R8G8B8A8_UNORM, .SampleDesc = { 1, 0 }, .Usage = usage,
                                .BindFlags = bind, .CPUAccessFlags = cpu };
    D3D11_SUBRESOURCE_DATA sd = { .pSysMem = init, .SysMemPitch = W * 4 };
    ID3D11Texture2D *t = NULL;
    assert_true(SUCCEEDED(ID3D11Device_CreateTexture2D(e->dev, &td, init ? &sd : NULL, &t)));
    return t;
}

/* Bytes of the NON_LOCAL segment group (the aperture) in use, as D3DKMTQueryVideoMemoryInfo
 * reports them. */
static UINT64 aperture_usage(void)
{
    D3DKMT_ADAPTERINFO ai[1];
    D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 1, .pAdapters = ai };
    assert_int_equal(D3DKMTEnumAdapters2(&en), STATUS_SUCCESS);
    D3DKMT_QUERYVIDEOMEMORYINFO q = { .hAdapter = ai[0].hAdapter,
                                      .MemorySegmentGroup = D3DKMT_MEMORY_SEGMENT_GROUP_NON_LOCAL };
    assert_int_equal(D3DKMTQueryVideoMemoryInfo(&q), STATUS_SUCCESS);
    D3DKMT_CLOSEADAPTER ca = { .hAdapter = ai[0].hAdapter };
    (void)D3DKMTCloseAdapter(&ca);
    return q.CurrentUsage;
}

/* Creates COUNT textures with `bind`, reads each back twice (forward, then backward, so each is
 * named again after the others), checks every byte, and returns the evictions it took;
 * *aperture_growth (if not NULL): how much the aperture's usage grew meanwhile. */
static UINT64 cycle(struct e2e *e, UINT bind, int64_t *aperture_growth)
{
    uint8_t *data = malloc(TEST_BYTES);
    assert_non_null(data);
    struct wddm_counters c0, c1;
    wddm_get_counters(&c0);
    UINT64 u0 = aperture_growth ? aperture_usage() : 0;
    ID3D11Texture2D *stg = texture(e, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ, NULL);
    ID3D11Texture2D *t[COUNT];
    for (int i = 0; i < COUNT; i++) {
        e2e_fill(data, TEST_BYTES, 300 + (uint32_t)i);
        t[i] = texture(e, D3D11_USAGE_DEFAULT, bind, 0, data); /* initial data: a GPU write */
    }
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < COUNT; k++) {
            int i = pass ? COUNT - 1 - k : k;
            ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)stg, (ID3D11Resource *)t[i]);
            D3D11_MAPPED_SUBRESOURCE m;
            assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)stg, 0, D3D11_MAP_READ, 0, &m), S_OK);
            e2e_fill(data, TEST_BYTES, 300 + (uint32_t)i);
            for (UINT y = 0; y < H; y++)
                assert_memory_equal((const uint8_t *)m.pData + (size_t)y * m.RowPitch, data + (size_t)y * W * 4, W * 4);
            ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)stg, 0);
        }
    /* The aperture's usage with every texture still alive (the staging texture's is in the
     * difference too: one texture's worth). Signed: the previous test's objects, whose
     * destruction waits for the GPU, may leave the aperture meanwhile. */
    if (aperture_growth)
        *aperture_growth = (int64_t)(aperture_usage() - u0);
    wddm_get_counters(&c1);
    assert_int_equal(ID3D11Device_GetDeviceRemovedReason(e->dev), S_OK);
    for (int i = 0; i < COUNT; i++)
        SAFE_RELEASE(t[i]);
    SAFE_RELEASE(stg);
    free(data);
    return c1.evictions - c0.evictions;
}

static void sampled_textures_beyond_video_memory_live_in_the_aperture_without_eviction(void **state)
{
    int64_t growth = 0;
    assert_int_equal(cycle(*state, D3D11_BIND_SHADER_RESOURCE, &growth), 0);
    /* 8 MiB of textures through 4 MiB of video memory: at least 4 live in the aperture, plus
     * the staging texture. */
    assert_true(growth >= 5 * TEST_BYTES);
}

static void render_target_textures_beyond_video_memory_are_evicted_instead(void **state)
{
    assert_true(cycle(*state, D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_RENDER_TARGET, NULL) > 0);
}

int main(void)
{
    setenv("WDDM_SEGMENT_LOCAL_MB", "2", 1);
    setenv("WDDM_SEGMENT_VISIBLE_MB", "2", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(sampled_textures_beyond_video_memory_live_in_the_aperture_without_eviction,
                                        e2e_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(render_target_textures_beyond_video_memory_are_evicted_instead, e2e_setup,
                                        e2e_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
