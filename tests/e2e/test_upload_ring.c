/* Small DYNAMIC buffers through the reference UMD's upload ring (src/umd/ring.c,
 * docs/rules/umd.md), in both driver models, through the D3D11 API. The ID3D11DeviceContext::Map reference,
 * D3D11_MAP_WRITE_DISCARD: the previous contents are undefined for the CPU, which writes new ones
 * while the GPU may still read the old; D3D11_MAP_WRITE_NO_OVERWRITE: the memory the GPU may be
 * using is not touched and the contents are kept. So:
 *  - with the GPU paused, hundreds of discards each followed by a queued copy (more than one
 *    chunk's worth) all keep their bytes: every copy reads what the CPU wrote before it;
 *  - with the GPU running, a stream of discards larger than the ring's bound goes round the ring
 *    and every byte still arrives;
 *  - a no-overwrite map after a discard keeps what the discard's map wrote. */
#include "e2e/e2e.h"

static ID3D11Buffer *make(struct e2e *e, D3D11_USAGE usage, UINT bytes)
{
    D3D11_BUFFER_DESC bd = {.ByteWidth = bytes, .Usage = usage};
    if (usage == D3D11_USAGE_DYNAMIC) {
        bd.BindFlags = D3D11_BIND_VERTEX_BUFFER;
        bd.CPUAccessFlags = D3D11_CPU_ACCESS_WRITE;
    } else if (usage == D3D11_USAGE_STAGING) {
        bd.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    } else {
        bd.BindFlags = D3D11_BIND_VERTEX_BUFFER;
    }
    ID3D11Buffer *b = NULL;
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, NULL, &b), S_OK);
    return b;
}

static uint8_t tag(UINT i, UINT k) { return (uint8_t)(i * 31u + k * 7u + (k >> 8)); }

/* Discard `dyn`, fill it with iteration i's pattern, copy it to dst at i * bytes. */
static void upload(struct e2e *e, ID3D11Buffer *dyn, ID3D11Buffer *dst, UINT bytes, UINT i)
{
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)dyn, 0, D3D11_MAP_WRITE_DISCARD, 0, &m), S_OK);
    for (UINT k = 0; k < bytes; k++)
        ((uint8_t *)m.pData)[k] = tag(i, k);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)dyn, 0);
    D3D11_BOX box = {0, 0, 0, bytes, 1, 1};
    ID3D11DeviceContext_CopySubresourceRegion(e->ctx, (ID3D11Resource *)dst, 0, i * bytes, 0, 0, (ID3D11Resource *)dyn,
                                              0, &box);
}

/* Every one of n uploads of `bytes` arrived at its place in dst. */
static void expect_uploads(struct e2e *e, ID3D11Buffer *dst, UINT bytes, UINT n)
{
    ID3D11Buffer *stg = make(e, D3D11_USAGE_STAGING, bytes * n);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)stg, (ID3D11Resource *)dst);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)stg, 0, D3D11_MAP_READ, 0, &m), S_OK);
    const uint8_t *p = m.pData;
    for (UINT i = 0; i < n; i++)
        for (UINT k = 0; k < bytes; k++)
            if (p[(size_t)i * bytes + k] != tag(i, k))
                fail_msg("upload %u, byte %u: 0x%02x, want 0x%02x", i, k, p[(size_t)i * bytes + k], tag(i, k));
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)stg, 0);
    SAFE_RELEASE(stg);
}

/* rule: umd.map-takes-next-slice-no-kernel */
static void discards_queued_behind_a_paused_gpu_keep_their_bytes(void **state)
{
    struct e2e *e = *state;
    enum { BYTES = 4096, N = 600 }; /* 2.4 MiB: three chunks of 1 MiB, below the ring's bound */
    ID3D11Buffer *dyn = make(e, D3D11_USAGE_DYNAMIC, BYTES), *dst = make(e, D3D11_USAGE_DEFAULT, BYTES * N);
    ID3D11DeviceContext_Flush(e->ctx);
    wddm_swgpu_set_paused(1);
    for (UINT i = 0; i < N; i++)
        upload(e, dyn, dst, BYTES, i);
    ID3D11DeviceContext_Flush(e->ctx);
    wddm_swgpu_set_paused(0);
    expect_uploads(e, dst, BYTES, N);
    SAFE_RELEASE(dyn);
    SAFE_RELEASE(dst);
}

/* rule: umd.full-chunk-submits-open-command-buffer (mutated: no idle check → bytes overwritten) */
static void a_stream_beyond_the_bound_goes_round_the_ring(void **state)
{
    struct e2e *e = *state;
    enum { BYTES = 48 * 1024, N = 400 }; /* 18.75 MiB: past eight chunks of 1 MiB, twice */
    ID3D11Buffer *dyn = make(e, D3D11_USAGE_DYNAMIC, BYTES), *dst = make(e, D3D11_USAGE_DEFAULT, BYTES * N);
    for (UINT i = 0; i < N; i++)
        upload(e, dyn, dst, BYTES, i);
    expect_uploads(e, dst, BYTES, N);
    SAFE_RELEASE(dyn);
    SAFE_RELEASE(dst);
}

/* rule: umd.map-takes-next-slice-no-kernel (mutated: a discard keeping its slice; a no-overwrite map taking a new one) */
static void no_overwrite_after_discard_keeps_the_bytes_written(void **state)
{
    struct e2e *e = *state;
    enum { BYTES = 2048 };
    ID3D11Buffer *dyn = make(e, D3D11_USAGE_DYNAMIC, BYTES), *dst = make(e, D3D11_USAGE_DEFAULT, BYTES * 2);
    D3D11_MAPPED_SUBRESOURCE m;
    wddm_swgpu_set_paused(1);
    /* Frame 0 fills the first half by discard, frame 1 the second by no-overwrite; each copies
     * the whole buffer out after its map. */
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)dyn, 0, D3D11_MAP_WRITE_DISCARD, 0, &m), S_OK);
    for (UINT k = 0; k < BYTES / 2; k++)
        ((uint8_t *)m.pData)[k] = tag(0, k);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)dyn, 0);
    D3D11_BOX half = {0, 0, 0, BYTES / 2, 1, 1};
    ID3D11DeviceContext_CopySubresourceRegion(e->ctx, (ID3D11Resource *)dst, 0, 0, 0, 0, (ID3D11Resource *)dyn, 0, &half);
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)dyn, 0, D3D11_MAP_WRITE_NO_OVERWRITE, 0, &m), S_OK);
    for (UINT k = BYTES / 2; k < BYTES; k++)
        ((uint8_t *)m.pData)[k] = tag(0, k);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)dyn, 0);
    ID3D11DeviceContext_CopySubresourceRegion(e->ctx, (ID3D11Resource *)dst, 0, BYTES, 0, 0, (ID3D11Resource *)dyn, 0,
                                              NULL);
    ID3D11DeviceContext_Flush(e->ctx);
    wddm_swgpu_set_paused(0);
    /* dst = [first half][whole buffer]: its second copy holds both halves. */
    ID3D11Buffer *stg = make(e, D3D11_USAGE_STAGING, BYTES * 2);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)stg, (ID3D11Resource *)dst);
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)stg, 0, D3D11_MAP_READ, 0, &m), S_OK);
    const uint8_t *p = m.pData;
    for (UINT k = 0; k < BYTES / 2; k++)
        assert_int_equal(p[k], tag(0, k));
    for (UINT k = 0; k < BYTES; k++)
        if (p[BYTES + k] != tag(0, k))
            fail_msg("byte %u of the copy after the no-overwrite map: 0x%02x, want 0x%02x", k, p[BYTES + k], tag(0, k));
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)stg, 0);
    SAFE_RELEASE(stg);
    SAFE_RELEASE(dyn);
    SAFE_RELEASE(dst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(discards_queued_behind_a_paused_gpu_keep_their_bytes, e2e_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(a_stream_beyond_the_bound_goes_round_the_ring, e2e_setup, e2e_teardown),
        cmocka_unit_test_setup_teardown(no_overwrite_after_discard_keeps_the_bytes_written, e2e_setup, e2e_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
