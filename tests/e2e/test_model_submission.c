/* Issue 6, both models: the same D3D11 work reaches the GPU through the submission path of the
 * model the adapter runs, with byte-exact results. Under the WDDM 1.x KMD (default) every
 * command buffer goes through pfnRenderCb (allocation + patch-location lists) and nothing is
 * mapped; under configs/gpummu.caps (WDDM 2.x GpuMmu, scripts/test.sh's second run) the UMD
 * maps every allocation to a GPU VA, submits only with pfnSubmitCommandCb, and never calls
 * pfnRenderCb — so every byte checked below travelled through VAs and the GPU's MMU. Under
 * configs/iommu.caps (IoMmu) the same, with the CPU's addresses through the platform's IOMMU.
 * The shim UMD (shim_umd.h) counts the callbacks at the UMD's boundary. */
/* rule: runtime.wddm-2-0-gpummu-runtime-callbacks */
/* rule: umd.gpummu-adapter-umd-gives-every */
/* rule: umd.gpummu-commands-carry-resource-va-offset (0 pfnRenderCb, >0 pfnSubmitCommandCb, bytes exact) */
/* rule: umd.iommu-address-from-lock (scripts/test.sh's IoMmu run: no pfnMapGpuVirtualAddressCb, bytes exact) */
#include "e2e/shim_umd.h"

enum { N = 3000 };

static void model_copies_updates_maps_and_queries_go_through_the_models_submission(void **state)
{
    struct e2e *e = *state;
    int gpummu = e2e_gpummu();
    assert_true(gpummu == 0 || gpummu == 1);
    UINT renders = shim_sub.renders, submits = shim_sub.submits, maps_va = shim_sub.maps_va;
    static uint8_t a[N], b[N], c[64], out[N];
    e2e_fill(a, N, 61);
    e2e_fill(b, N, 62);
    e2e_fill(c, sizeof c, 63);

    /* IMMUTABLE source (read-only mapping in GpuMmu), DEFAULT middle, DYNAMIC upload, STAGING. */
    D3D11_BUFFER_DESC bd = { .ByteWidth = N, .Usage = D3D11_USAGE_IMMUTABLE, .BindFlags = D3D11_BIND_VERTEX_BUFFER };
    D3D11_SUBRESOURCE_DATA init = { .pSysMem = a };
    ID3D11Buffer *imm = NULL, *def = NULL, *dyn = NULL, *stg = NULL;
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, &init, &imm), S_OK);
    bd.Usage = D3D11_USAGE_DEFAULT;
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, NULL, &def), S_OK);
    bd = (D3D11_BUFFER_DESC){ .ByteWidth = sizeof c, .Usage = D3D11_USAGE_DYNAMIC,
                              .BindFlags = D3D11_BIND_VERTEX_BUFFER, .CPUAccessFlags = D3D11_CPU_ACCESS_WRITE };
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, NULL, &dyn), S_OK);
    bd = (D3D11_BUFFER_DESC){ .ByteWidth = N, .Usage = D3D11_USAGE_STAGING, .CPUAccessFlags = D3D11_CPU_ACCESS_READ };
    assert_int_equal(ID3D11Device_CreateBuffer(e->dev, &bd, NULL, &stg), S_OK);

    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)def, (ID3D11Resource *)imm);
    D3D11_BOX box = { .left = 100, .right = 1100, .top = 0, .bottom = 1, .front = 0, .back = 1 };
    ID3D11DeviceContext_UpdateSubresource(e->ctx, (ID3D11Resource *)def, 0, &box, b + 100, 0, 0);
    D3D11_MAPPED_SUBRESOURCE m;
    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)dyn, 0, D3D11_MAP_WRITE_DISCARD, 0, &m), S_OK);
    memcpy(m.pData, c, sizeof c);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)dyn, 0);
    D3D11_BOX all = { .left = 0, .right = sizeof c, .top = 0, .bottom = 1, .front = 0, .back = 1 };
    ID3D11DeviceContext_CopySubresourceRegion(e->ctx, (ID3D11Resource *)def, 0, 2000, 0, 0, (ID3D11Resource *)dyn, 0,
                                              &all);
    ID3D11DeviceContext_CopyResource(e->ctx, (ID3D11Resource *)stg, (ID3D11Resource *)def);
    D3D11_QUERY_DESC qd = { .Query = D3D11_QUERY_EVENT };
    ID3D11Query *q = NULL;
    assert_int_equal(ID3D11Device_CreateQuery(e->dev, &qd, &q), S_OK);
    ID3D11DeviceContext_End(e->ctx, (ID3D11Asynchronous *)q);
    BOOL done = FALSE;
    while (ID3D11DeviceContext_GetData(e->ctx, (ID3D11Asynchronous *)q, &done, sizeof done, 0) == S_FALSE)
        ;
    assert_true(done);

    assert_int_equal(ID3D11DeviceContext_Map(e->ctx, (ID3D11Resource *)stg, 0, D3D11_MAP_READ, 0, &m), S_OK);
    memcpy(out, m.pData, N);
    ID3D11DeviceContext_Unmap(e->ctx, (ID3D11Resource *)stg, 0);
    memcpy(a + 100, b + 100, 1000);
    memcpy(a + 2000, c, sizeof c);
    assert_memory_equal(out, a, N);

    if (gpummu) {
        assert_int_equal(shim_sub.renders, renders);       /* never the 1.x path */
        assert_true(shim_sub.submits > submits);           /* pfnSubmitCommandCb, commands at VAs */
        if (e2e_iommu())
            assert_int_equal(shim_sub.maps_va, maps_va);   /* IoMmu: the CPU's addresses, nothing mapped */
        else
            assert_true(shim_sub.maps_va >= maps_va + 5);  /* 4 buffers + the query, at least */
    } else {
        assert_true(shim_sub.renders > renders);
        assert_int_equal(shim_sub.submits, submits);
        assert_int_equal(shim_sub.maps_va, maps_va);
    }
    assert_int_equal(ID3D11Device_GetDeviceRemovedReason(e->dev), S_OK);
    SAFE_RELEASE(q);
    SAFE_RELEASE(imm);
    SAFE_RELEASE(def);
    SAFE_RELEASE(dyn);
    SAFE_RELEASE(stg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(model_copies_updates_maps_and_queries_go_through_the_models_submission,
                                        shim_setup, e2e_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
