/* A resource larger than every segment it may live in fails at creation with E_OUTOFMEMORY
 * (ID3D11Device::CreateBuffer / CreateTexture2D return codes: "E_OUTOFMEMORY if there is
 * insufficient memory to create the resource"); it is never created and then lost on first use
 * (issue 14 §2). main() shrinks the adapter's segments before the first device: local 4 MiB,
 * CPU-visible window 4 MiB, aperture 8 MiB. The reference KMD places GPU-only resources in
 * local or visible memory (sampled-only textures also in the aperture), dynamic ones in visible
 * or aperture, staging ones in the aperture only (src/kmd/allocation.c). */
/* rule: kmd.resource-larger-every-segment-may-live (segments 4/4/8 MiB; both models) */
#include "conformance/d3d11_conf.h"

#define MIB (1024u * 1024u)

static void expect_tex(struct conf *c, UINT w, UINT h, D3D11_USAGE usage, UINT bind, UINT cpu, HRESULT expect)
{
    D3D11_TEXTURE2D_DESC d = { w, h, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, { 1, 0 }, usage, bind, cpu, 0 };
    ID3D11Texture2D *t = (ID3D11Texture2D *)(uintptr_t)1;
    HRESULT hr = ID3D11Device_CreateTexture2D(c->dev, &d, NULL, &t);
    if (hr != expect)
        fail_msg("%ux%u usage %u bind 0x%x: 0x%08x, expected 0x%08x", w, h, usage, bind, (unsigned)hr, (unsigned)expect);
    if (FAILED(hr))
        assert_null(t);
    CONF_RELEASE(t);
}

static void expect_buf(struct conf *c, UINT size, D3D11_USAGE usage, UINT bind, UINT cpu, HRESULT expect)
{
    D3D11_BUFFER_DESC d = { size, usage, bind, cpu, 0, 0 };
    ID3D11Buffer *b = (ID3D11Buffer *)(uintptr_t)1;
    HRESULT hr = ID3D11Device_CreateBuffer(c->dev, &d, NULL, &b);
    if (hr != expect)
        fail_msg("buffer %u bytes usage %u: 0x%08x, expected 0x%08x", size, usage, (unsigned)hr, (unsigned)expect);
    if (FAILED(hr))
        assert_null(b);
    CONF_RELEASE(b);
}

static void test_resource_larger_than_its_segments_fails_creation_with_out_of_memory(void **state)
{
    struct conf *c = *state;
    /* 6 MiB render target: local and visible are 4 MiB each. */
    expect_tex(c, 1536, 1024, D3D11_USAGE_DEFAULT, D3D11_BIND_RENDER_TARGET, 0, E_OUTOFMEMORY);
    /* 6 MiB sampled-only texture: the 8 MiB aperture may hold it. */
    expect_tex(c, 1536, 1024, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0, S_OK);
    /* 10 MiB sampled-only texture: larger than the aperture too. */
    expect_tex(c, 2560, 1024, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0, E_OUTOFMEMORY);
    /* Staging lives in the aperture only; dynamic in visible or aperture. */
    expect_buf(c, 12 * MIB, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ, E_OUTOFMEMORY);
    expect_buf(c, 6 * MIB, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ, S_OK);
    expect_buf(c, 12 * MIB, D3D11_USAGE_DYNAMIC, D3D11_BIND_VERTEX_BUFFER, D3D11_CPU_ACCESS_WRITE, E_OUTOFMEMORY);
    expect_buf(c, 6 * MIB, D3D11_USAGE_DYNAMIC, D3D11_BIND_VERTEX_BUFFER, D3D11_CPU_ACCESS_WRITE, S_OK);
    expect_buf(c, 6 * MIB, D3D11_USAGE_DEFAULT, D3D11_BIND_UNORDERED_ACCESS, 0, E_OUTOFMEMORY);
    expect_buf(c, 3 * MIB, D3D11_USAGE_DEFAULT, D3D11_BIND_UNORDERED_ACCESS, 0, S_OK);

    /* The refusals lost nothing: the device works, and a resource that fits its segments does
     * its job (written by the GPU, read back). */
    assert_int_equal(ID3D11Device_GetDeviceRemovedReason(c->dev), S_OK);
    const UINT size = 3 * MIB;
    BYTE *src = malloc(size);
    assert_non_null(src);
    for (UINT i = 0; i < size; i++)
        src[i] = (BYTE)(i * 7 + 3);
    D3D11_BUFFER_DESC d = { size, D3D11_USAGE_DEFAULT, D3D11_BIND_UNORDERED_ACCESS, 0, 0, 0 };
    D3D11_SUBRESOURCE_DATA init = { src, 0, 0 };
    ID3D11Buffer *b = NULL;
    assert_int_equal(ID3D11Device_CreateBuffer(c->dev, &d, &init, &b), S_OK);
    BYTE *back = conf_read_buffer(c, b, size);
    assert_memory_equal(back, src, size);
    free(back);
    free(src);
    CONF_RELEASE(b);
    assert_int_equal(ID3D11Device_GetDeviceRemovedReason(c->dev), S_OK);
}

int main(void)
{
    setenv("WDDM_SEGMENT_LOCAL_MB", "4", 1);
    setenv("WDDM_SEGMENT_VISIBLE_MB", "4", 1);
    setenv("WDDM_SEGMENT_APERTURE_MB", "8", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_resource_larger_than_its_segments_fails_creation_with_out_of_memory,
                                        conf_setup, conf_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
