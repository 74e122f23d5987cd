/* UpdateSubresource through the upload buffer (issue 17 aim 3, docs/rules/common.md): from 64 KiB the
 * UMD copies the data into a CPU-visible upload buffer, a piece at a time, and the GPU copies each
 * piece into the resource. With the GPU paused, so nothing depends on timing:
 *  - every piece of an update the GPU has not run yet keeps its bytes (each piece maps the
 *    upload buffer with Discard: a fresh instance while the previous piece's copy is queued),
 *    and the application's memory may change as soon as the call returns (the
 *    ID3D11DeviceContext::UpdateSubresource reference, Remarks: the data is copied to temporary
 *    storage before the method returns);
 *  - updates and reads of the same texture run in the order they were issued. */
#include "e2e/e2e.h"

enum { W = 1024, H = 1024, BYTES = W * H * 4 }; /* 4 MiB: four pieces */

static ID3D11Texture2D *make_tex(struct e2e *e, D3D11_USAGE usage)
{
    D3D11_TEXTURE2D_DESC td = {.Width = W, .Height = H, .MipLevels = 1, .ArraySize = 1,
                               .Format = DXGI_FORMAT_R8G8B8A8_UNORM, .SampleDesc = {1, 0}, .Usage = usage};
    if (usage == D3D11_USAGE_DEFAULT)
        td.BindFlags = D3D11_BIND_SHADER_RESOURCE;
    else
        td.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    ID3D11Texture2D *t = NULL;
    assert_int_equal(ID3D11Device_CreateTexture2D(e->dev, &td, NULL, &t), S_OK);
    return t;
}

static void expect(struct e2e *e, ID3D11Texture2D *stg, const uint8_t *want)
{
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)stg, 0, D3D11_MAP_READ, 0, &m), S_OK);
    for (UINT y = 0; y < H; y++)
        if (memcmp((const uint8_t *)m.pData + (size_t)y * m.RowPitch, want + (size_t)y * W * 4, W * 4) != 0)
            fail_msg("row %u differs", y);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)stg, 0);
}

/* rule: umd.updatesubresource-least-64-kib-goes (mutated: no-overwrite maps instead of Discard → row 0 differs) */
static void pieces_queued_behind_a_paused_gpu_keep_their_bytes(void **state)
{
    struct e2e *e = *state;
    ID3D11Texture2D *tex = make_tex(e, D3D11_USAGE_DEFAULT), *stg[3];
    for (int i = 0; i < 3; i++)
        stg[i] = make_tex(e, D3D11_USAGE_STAGING);
    uint8_t *data = malloc(BYTES), *want[3];
    for (int i = 0; i < 3; i++) {
        want[i] = malloc(BYTES);
        e2e_fill(want[i], BYTES, 100 + (uint32_t)i);
    }
    /* Everything resident and idle before the pause. */
    ID3D11DeviceContext_UpdateSubresource(e->ctx, (ID3D11Resource *)tex, 0, NULL, want[2], W * 4, 0);
    for (int i = 0; i < 3; i++)
        ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)stg[i], (ID3D11Resource *)tex);
    expect(e, stg[2], want[2]);

    wddm_swgpu_set_paused(1);
    for (int i = 0; i < 2; i++) {
        memcpy(data, want[i], BYTES);
        ID3D11DeviceContext_UpdateSubresource(e->ctx, (ID3D11Resource *)tex, 0, NULL, data, W * 4, 0);
        memset(data, 0xA5, BYTES); /* the call returned: the application may reuse its memory */
        ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)stg[i], (ID3D11Resource *)tex);
    }
    ID3D11DeviceContext_Flush(e->ctx);
    wddm_swgpu_set_paused(0);
    expect(e, stg[0], want[0]);
    expect(e, stg[1], want[1]);

    for (int i = 0; i < 3; i++) {
        SAFE_RELEASE(stg[i]);
        free(want[i]);
    }
    SAFE_RELEASE(tex);
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(pieces_queued_behind_a_paused_gpu_keep_their_bytes, e2e_setup, e2e_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
