/* Issue 3: when even the backing stores cannot be committed (system-memory budget
 * WDDM_SYSMEM_BUDGET_MB, vidmm/budget.c), the failing call returns E_OUTOFMEMORY at the API
 * (STATUS_NO_MEMORY below) and every other object keeps working. Through every layer: D3D11
 * API, runtime, UMD, kernel, KMD, software GPU. Budget 64 MiB. */
#include "e2e.h"

#include <unistd.h>

static ID3D11Buffer *buffer(struct e2e *e, UINT size, D3D11_USAGE usage, UINT cpu, const void *init)
{
    D3D11_BUFFER_DESC bd = { .ByteWidth = size, .Usage = usage, .CPUAccessFlags = cpu };
    if (usage == D3D11_USAGE_DEFAULT)
        bd.BindFlags = D3D11_BIND_VERTEX_BUFFER;
    D3D11_SUBRESOURCE_DATA sd = { .pSysMem = init };
    ID3D11Buffer *b = NULL;
    HRESULT hr = ID3D11Device_CreateBuffer(e->dev, &bd, init ? &sd : NULL, &b);
    return SUCCEEDED(hr) ? b : NULL;
}

static HRESULT texture(struct e2e *e, ID3D11Texture2D **t)
{
    D3D11_TEXTURE2D_DESC td = { .Width = 2048, .Height = 2048, .MipLevels = 1, .ArraySize = 1,
                                .Format = DXGI_FORMAT_R8G8B8A8_UNORM, .SampleDesc = { 1, 0 },
                                .Usage = D3D11_USAGE_DEFAULT, .BindFlags = D3D11_BIND_SHADER_RESOURCE };
    *t = NULL;
    return ID3D11Device_CreateTexture2D(e->dev, &td, NULL, t);
}

static void check_buffer(struct e2e *e, ID3D11Buffer *src, ID3D11Buffer *stg, const uint8_t *want, size_t n)
{
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)stg, (ID3D11Resource *)src);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)stg, 0, D3D11_MAP_READ, 0, &m), S_OK);
    assert_memory_equal(m.pData, want, n);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)stg, 0);
}

/* rule: vidmm.system-memory-budget-past */
static void test_backing_store_budget_exceeded_returns_out_of_memory_and_others_keep_working(void **state)
{
    struct e2e *e = *state;
    const size_t n = 1u << 20;
    uint8_t *data = malloc(n);
    e2e_fill(data, n, 31);
    ID3D11Buffer *keep = buffer(e, (UINT)n, D3D11_USAGE_DEFAULT, 0, data);
    ID3D11Buffer *stg = buffer(e, (UINT)n, D3D11_USAGE_STAGING, D3D11_CPU_ACCESS_READ, NULL);
    assert_non_null(keep);
    assert_non_null(stg);
    check_buffer(e, keep, stg, data, n);
    /* 16 MiB textures until the 64 MiB budget is gone. */
    ID3D11Texture2D *big[8] = { 0 };
    int made = 0;
    HRESULT hr = S_OK;
    while (made < 8 && SUCCEEDED(hr = texture(e, &big[made])))
        made++;
    assert_int_equal(hr, E_OUTOFMEMORY);
    assert_null(big[made]);
    assert_true(made >= 1 && made < 4);
    /* Every other object keeps working: the device is not removed, the buffer still copies. */
    assert_int_equal(ID3D11Device_GetDeviceRemovedReason(e->dev), S_OK);
    check_buffer(e, keep, stg, data, n);
    /* Memory given back makes room again (destruction is deferred until the GPU is done). */
    SAFE_RELEASE(big[made - 1]);
    made--;
    ID3D11DeviceContext_Flush(e->ctx);
    ID3D11Texture2D *again = NULL;
    for (int i = 0; i < 2000 && FAILED(texture(e, &again)); i++)
        usleep(1000);
    assert_non_null(again);
    SAFE_RELEASE(again);
    for (int i = 0; i < made; i++)
        SAFE_RELEASE(big[i]);
    SAFE_RELEASE(stg);
    SAFE_RELEASE(keep);
    free(data);
}

int main(void)
{
    setenv("WDDM_SYSMEM_BUDGET_MB", "64", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_backing_store_budget_exceeded_returns_out_of_memory_and_others_keep_working,
                                        e2e_setup, e2e_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
