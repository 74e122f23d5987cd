/* Issue 3: a working set larger than local video memory through D3D11, in both driver models
 * (scripts/test.sh runs the e2e suite twice). WDDM 1.x: VidMm evicts and restores by the DMA
 * buffers' allocation lists. WDDM 2.x GpuMmu: the residency list is the only control
 * (docs/semantics.md §9.2), so the UMD trims its own list when MakeResident fails and makes a
 * trimmed resource resident again when a command names it (src/umd/gpuva.c). Either way no byte
 * is lost. Local memory 2 + 2 MiB (set before the adapter starts); 12 DEFAULT buffers of 512 KiB. */
#include "e2e.h"

#include <wddm/wddm.h>

enum { COUNT = 12, BUF_BYTES = 512 * 1024 };

static ID3D11Buffer *make(struct e2e *e, D3D11_USAGE usage, UINT cpu, const void *init)
{
    D3D11_BUFFER_DESC bd = { .ByteWidth = BUF_BYTES, .Usage = usage, .CPUAccessFlags = cpu };
    if (usage == D3D11_USAGE_DEFAULT)
        bd.BindFlags = D3D11_BIND_VERTEX_BUFFER;
    D3D11_SUBRESOURCE_DATA sd = { .pSysMem = init };
    ID3D11Buffer *b = NULL;
    assert_true(SUCCEEDED(ID3D11Device_CreateBuffer(e->dev, &bd, init ? &sd : NULL, &b)));
    return b;
}

static void check(struct e2e *e, ID3D11Buffer *src, ID3D11Buffer *stg, uint32_t seed, uint8_t *want)
{
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)stg, (ID3D11Resource *)src);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_true(SUCCEEDED(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)stg, 0, D3D11_MAP_READ, 0, &m)));
    e2e_fill(want, BUF_BYTES, seed);
    assert_memory_equal(m.pData, want, BUF_BYTES);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)stg, 0);
}

/* rule: umd.gpummu-umd-owns-residency-when (both models; mutation-checked: no trimming fails it in GpuMmu) */
static void working_set_of_three_times_local_memory_loses_no_byte(void **state)
{
    struct e2e *e = *state;
    uint8_t *data = malloc(BUF_BYTES);
    assert_non_null(data);
    struct wddm_counters c0;
    wddm_get_counters(&c0);
    ID3D11Buffer *b[COUNT];
    for (int i = 0; i < COUNT; i++) {
        e2e_fill(data, BUF_BYTES, 100 + (uint32_t)i);
        b[i] = make(e, D3D11_USAGE_DEFAULT, 0, data); /* initial data: a GPU write into it */
    }
    ID3D11Buffer *stg = make(e, D3D11_USAGE_STAGING, D3D11_CPU_ACCESS_READ, NULL);
    /* Two passes, forward then backward: each buffer is named again after others pushed it
     * out. Every one reads back what it was created with. */
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < COUNT; k++) {
            int i = pass ? COUNT - 1 - k : k;
            check(e, b[i], stg, 100 + (uint32_t)i, data);
        }
    struct wddm_counters c1;
    wddm_get_counters(&c1);
    assert_true(c1.evictions > c0.evictions); /* 6 MiB through 4 MiB of local memory */
    assert_int_equal(ID3D11Device_GetDeviceRemovedReason(e->dev), S_OK);
    SAFE_RELEASE(stg);
    for (int i = 0; i < COUNT; i++)
        SAFE_RELEASE(b[i]);
    free(data);
}

int main(void)
{
    setenv("WDDM_SEGMENT_LOCAL_MB", "2", 1);
    setenv("WDDM_SEGMENT_VISIBLE_MB", "2", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(working_set_of_three_times_local_memory_loses_no_byte, e2e_setup,
                                        e2e_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
