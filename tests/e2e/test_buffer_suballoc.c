/* Issue 3, "Create+destroy of 4 KiB buffers": the reference UMD puts small DEFAULT buffers in
 * slots of pooled allocations (src/umd/suballoc.c, docs/rules/umd.md). Through every layer and
 * the real GPU, in both driver models: every buffer reads back its own bytes while buffers are
 * released and their slots reused at once with work on them still queued or running; copies
 * between two buffers of one chunk; and the chunks survive being evicted and brought back.
 * Local memory 2 + 2 MiB (set before the adapter starts). */
#include "e2e.h"

#include <wddm/wddm.h>

static ID3D11Buffer *buffer(struct e2e *e, D3D11_USAGE usage, UINT bytes, const void *init)
{
    D3D11_BUFFER_DESC bd = { .ByteWidth = bytes, .Usage = usage,
                             .BindFlags = usage == D3D11_USAGE_DEFAULT ? D3D11_BIND_VERTEX_BUFFER : 0,
                             .CPUAccessFlags = usage == D3D11_USAGE_STAGING ? D3D11_CPU_ACCESS_READ : 0 };
    D3D11_SUBRESOURCE_DATA sd = { .pSysMem = init };
    ID3D11Buffer *b = NULL;
    assert_true(SUCCEEDED(ID3D11Device_CreateBuffer(e->dev, &bd, init ? &sd : NULL, &b)));
    return b;
}

/* staging's first `bytes` equal e2e_fill(seed). */
static void expect_bytes(struct e2e *e, ID3D11Buffer *staging, UINT bytes, uint32_t seed)
{
    uint8_t *want = malloc(bytes);
    assert_non_null(want);
    e2e_fill(want, bytes, seed);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)staging, 0, D3D11_MAP_READ, 0, &m), S_OK);
    assert_memory_equal(m.pData, want, bytes);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)staging, 0);
    free(want);
}

enum { N = 48, ROUNDS = 4 };
static const UINT sizes[] = { 16, 256, 1000, 4096, 5000, 65536 };

/* Each round creates N buffers with their own bytes, queues a copy of each into a staging
 * buffer, and releases every other buffer right after its copy is queued, so the next buffer of
 * that size class takes the slot with the copy still queued (or, after the flush every 8, on
 * the GPU). Every staging buffer must hold the bytes of the buffer it was copied from. */
/* rule: umd.freed-slot-reused-once-no-wait (both models, 192 buffers of 6 sizes, flushes every 8) */
static void released_slots_are_reused_while_work_on_them_is_in_flight(void **state)
{
    struct e2e *e = *state;
    ID3D11Buffer *kept[ROUNDS * N] = { 0 }, *stg[ROUNDS * N];
    uint8_t *data = malloc(65536);
    assert_non_null(data);
    for (int r = 0; r < ROUNDS; r++)
        for (int i = 0; i < N; i++) {
            int k = r * N + i;
            UINT bytes = sizes[k % 6];
            e2e_fill(data, bytes, 1000u + (uint32_t)k);
            ID3D11Buffer *b = buffer(e, D3D11_USAGE_DEFAULT, bytes, data);
            stg[k] = buffer(e, D3D11_USAGE_STAGING, bytes, NULL);
            ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)stg[k], (ID3D11Resource *)b);
            if (k & 1)
                SAFE_RELEASE(b); /* its slot is the next one's of its class */
            else
                kept[k] = b;
            if (i % 8 == 7)
                ID3D11DeviceContext_Flush(e->ctx);
        }
    for (int k = 0; k < ROUNDS * N; k++) {
        expect_bytes(e, stg[k], sizes[k % 6], 1000u + (uint32_t)k);
        SAFE_RELEASE(stg[k]);
        SAFE_RELEASE(kept[k]);
    }
    assert_int_equal(ID3D11Device_GetDeviceRemovedReason(e->dev), S_OK);
    free(data);
}

/* CopyResource and CopySubresourceRegion between two buffers of one chunk (both 4 KiB, created
 * one after the other, so neighbours) move exactly the bytes named. */
/* rule: umd.every-address-pooled-buffer-names-chunk (both models; mutation-checked: without the slot offset, or with every buffer in slot 0, they fail) */
static void copies_between_buffers_of_one_chunk_move_the_named_bytes(void **state)
{
    struct e2e *e = *state;
    uint8_t a_bytes[4096], want[4096];
    e2e_fill(a_bytes, sizeof a_bytes, 7);
    e2e_fill(want, sizeof want, 8);
    ID3D11Buffer *a = buffer(e, D3D11_USAGE_DEFAULT, 4096, a_bytes);
    ID3D11Buffer *b = buffer(e, D3D11_USAGE_DEFAULT, 4096, want);
    ID3D11Buffer *stg = buffer(e, D3D11_USAGE_STAGING, 4096, NULL);
    D3D11_BOX box = { .left = 16, .right = 116, .top = 0, .bottom = 1, .front = 0, .back = 1 };
    ID3D11DeviceContext_CopySubresourceRegion(e->ctx, (ID3D11Resource *)b, 0, 1000, 0, 0, (ID3D11Resource *)a, 0, &box);
    memcpy(want + 1000, a_bytes + 16, 100);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)stg, (ID3D11Resource *)b);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)stg, 0, D3D11_MAP_READ, 0, &m), S_OK);
    assert_memory_equal(m.pData, want, sizeof want);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)stg, 0);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)a, (ID3D11Resource *)b);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)stg, (ID3D11Resource *)a);
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)stg, 0, D3D11_MAP_READ, 0, &m), S_OK);
    assert_memory_equal(m.pData, want, sizeof want);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)stg, 0);
    SAFE_RELEASE(a);
    SAFE_RELEASE(b);
    SAFE_RELEASE(stg);
}

/* 64 buffers of 4 KiB (four chunks), then 8 MiB of render targets through 4 MiB of video memory:
 * evictions happen (VidMm's in WDDM 1.x, the UMD's trims in the GpuMmu model), and every buffer
 * still reads back its own bytes. */
/* rule: umd.chunks-evicted-restored-like-allocation (both models; 64 buffers, 8 MiB of render targets through 4 MiB) */
static void pooled_buffers_keep_their_bytes_through_evictions(void **state)
{
    struct e2e *e = *state;
    enum { B = 64, T = 8, W = 512 };
    ID3D11Buffer *b[B];
    uint8_t data[4096];
    for (int i = 0; i < B; i++) {
        e2e_fill(data, sizeof data, 2000u + (uint32_t)i);
        b[i] = buffer(e, D3D11_USAGE_DEFAULT, sizeof data, data);
    }
    struct wddm_counters c0, c1;
    wddm_get_counters(&c0);
    D3D11_TEXTURE2D_DESC td = { .Width = W, .Height = W, .MipLevels = 1, .ArraySize = 1,
                                .Format = DXGI_FORMAT_R8G8B8A8_UNORM, .SampleDesc = { 1, 0 },
                                .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_RENDER_TARGET };
    ID3D11Texture2D *t[T];
    for (int i = 0; i < T; i++) {
        assert_true(SUCCEEDED(ID3D11Device_CreateTexture2D(e->dev, &td, NULL, &t[i])));
        ID3D11RenderTargetView *rtv = NULL;
        assert_true(SUCCEEDED(ID3D11Device_CreateRenderTargetView(e->dev, (ID3D11Resource *)t[i], NULL, &rtv)));
        const FLOAT red[4] = { 1, 0, 0, 1 };
        ID3D11DeviceContext_ClearRenderTargetView(e->ctx, rtv, red);
        SAFE_RELEASE(rtv);
        ID3D11DeviceContext_Flush(e->ctx);
    }
    ID3D11Buffer *stg = buffer(e, D3D11_USAGE_STAGING, sizeof data, NULL);
    for (int i = 0; i < B; i++) {
        ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)stg, (ID3D11Resource *)b[i]);
        expect_bytes(e, stg, sizeof data, 2000u + (uint32_t)i);
    }
    wddm_get_counters(&c1);
    assert_true(c1.evictions > c0.evictions);
    assert_int_equal(ID3D11Device_GetDeviceRemovedReason(e->dev), S_OK);
    for (int i = 0; i < T; i++)
        SAFE_RELEASE(t[i]);
    for (int i = 0; i < B; i++)
        SAFE_RELEASE(b[i]);
    SAFE_RELEASE(stg);
}

int main(void)
{
    setenv("WDDM_SEGMENT_LOCAL_MB", "2", 1);
    setenv("WDDM_SEGMENT_VISIBLE_MB", "2", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(released_slots_are_reused_while_work_on_them_is_in_flight, e2e_setup,
                                        e2e_teardown),
        cmocka_unit_test_setup_teardown(copies_between_buffers_of_one_chunk_move_the_named_bytes, e2e_setup,
                                        e2e_teardown),
        cmocka_unit_test_setup_teardown(pooled_buffers_keep_their_bytes_through_evictions, e2e_setup, e2e_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
