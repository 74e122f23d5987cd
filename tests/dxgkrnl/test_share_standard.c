/* Kernel-created cross-adapter resources (issue 6, seed 003: "might be created as a standard
 * allocation from kernel mode and later opened by the UMD"): dxgk_create_standard_cross_adapter
 * asks the KMD for a D3DKMDT_GDISURFACE_TEXTURE_CROSSADAPTER GDI surface
 * (DxgkDdiGetStandardAllocationDriverData), creates it through D3DKMTCreateAllocation and
 * returns a global share handle that another adapter opens like a UMD-made one. Real stack:
 * two reference adapters, their KMDs and software GPUs. */
#include "real_env.h"

#include <dxgiformat.h>
#include <stdio.h>
#include <unistd.h>

#include "dxgkrnl/objects/objects.h"
#include "kmd/kmd.h"

struct opened {
    D3DKMT_HANDLE alloc, res;
    struct swgpu_alloc_private priv;
};

static NTSTATUS try_open(struct renv *e, D3DKMT_HANDLE share, struct opened *out)
{
    D3DKMT_QUERYRESOURCEINFO q = { .hDevice = e->device, .hGlobalShare = share };
    NTSTATUS st = D3DKMTQueryResourceInfo(&q);
    if (!NT_SUCCESS(st))
        return st;
    assert_int_equal(q.NumAllocations, 1);
    assert_int_equal(q.TotalPrivateDriverDataSize, sizeof out->priv);
    assert_int_equal(q.PrivateRuntimeDataSize, 0); /* no runtime made it */
    D3DDDI_OPENALLOCATIONINFO oi = { 0 };
    D3DKMT_OPENRESOURCE o = { .hDevice = e->device, .hGlobalShare = share, .NumAllocations = 1,
                              .pOpenAllocationInfo = &oi, .pTotalPrivateDriverDataBuffer = &out->priv,
                              .TotalPrivateDriverDataBufferSize = sizeof out->priv };
    st = D3DKMTOpenResource(&o);
    out->alloc = oi.hAllocation;
    out->res = o.hResource;
    return st;
}

/* Issue 6: the kernel's surface on A, opened on B; A's GPU writes it, B's GPU reads it. The
 * KMD's layout is the cross-adapter one (pitch a multiple of 128, returned in Pitch). */
/* rule: kernel.kernel-created-cross-adapter-resource */
static void kernel_created_surface_is_opened_and_read_on_the_other_adapter(void **state)
{
    (void)state;
    struct renv a, b;
    renv_open_pair(&a, &b);
    D3DKMT_HANDLE share = 0, res = 0, alloc = 0;
    UINT pitch = 0;
    assert_int_equal(dxgk_create_standard_cross_adapter(a.device, 100, 30, D3DDDIFMT_A8R8G8B8, NULL, 0, &share, &res, &alloc,
                                                        &pitch),
                     STATUS_SUCCESS);
    assert_int_not_equal(share, 0);
    assert_int_equal(pitch, 512); /* 100 * 4 = 400 bytes, rounded up to 128 */
    struct opened o;
    assert_int_equal(try_open(&b, share, &o), STATUS_SUCCESS);
    assert_int_equal(o.priv.kind, SWGPU_ALLOC_CROSS_ADAPTER);
    assert_int_equal(o.priv.format, DXGI_FORMAT_B8G8R8A8_UNORM);
    assert_int_equal(o.priv.xa_row_pitch, pitch);
    assert_int_equal(o.priv.xa_height, 32);
    UINT32 size = (UINT32)o.priv.size;
    assert_int_equal(size, 512 * 32);
    D3DKMT_HANDLE up = renv_alloc(&a, SWGPU_ALLOC_UPLOAD, size), rb = renv_alloc(&b, SWGPU_ALLOC_READBACK, size);
    renv_gpu_write(&a, alloc, up, size, 61);
    void *p;
    assert_int_equal(renv_lock(&a, alloc, LOCK_READONLY, &p), STATUS_SUCCESS); /* waits for A's copy */
    renv_unlock(&a, alloc);
    renv_gpu_check(&b, o.alloc, rb, size, 61);
    /* The kernel's resource goes first; the opener still reads its pages. */
    D3DKMT_DESTROYALLOCATION da = { .hDevice = a.device, .hResource = res };
    assert_int_equal(D3DKMTDestroyAllocation(&da), STATUS_SUCCESS);
    renv_gpu_check(&b, o.alloc, rb, size, 61);
    renv_close(&a);
    renv_close(&b);
}

/* The KMD refuses what it does not model, each with a line; the kernel refuses bad input. */
/* rule: kmd.reference-kmd-describes-cross-adapter */
static void refusals_name_the_rule(void **state)
{
    (void)state;
    struct renv a, b;
    renv_open_pair(&a, &b);
    D3DKMT_HANDLE share = 0;
    wddm_clear_refusals();
    assert_int_equal(dxgk_create_standard_cross_adapter(a.device, 16, 16, D3DDDIFMT_A8, NULL, 0, &share, NULL, NULL, NULL),
                     STATUS_INVALID_PARAMETER);
    renv_expect_refusal("DxgkDdiGetStandardAllocationDriverData");
    wddm_clear_refusals();
    assert_int_equal(dxgk_create_standard_cross_adapter(0x1234, 16, 16, D3DDDIFMT_A8R8G8B8, NULL, 0, &share, NULL, NULL, NULL),
                     STATUS_INVALID_PARAMETER);
    renv_expect_refusal("invalid device handle");
    assert_int_equal(dxgk_create_standard_cross_adapter(a.device, 0, 16, D3DDDIFMT_A8R8G8B8, NULL, 0, &share, NULL, NULL, NULL),
                     STATUS_INVALID_PARAMETER);
    assert_int_equal(dxgk_create_standard_cross_adapter(a.device, 16, 16, D3DDDIFMT_A8R8G8B8, NULL, 0, NULL, NULL, NULL, NULL),
                     STATUS_INVALID_PARAMETER);
    /* The KMD's DDI itself: only the cross-adapter GDI surface, and enough room for its data. */
    struct dxgk_adapter *ad = dxgk_adapter_get(a.adapter);
    assert_non_null(ad);
    D3DKMDT_GDISURFACEDATA g = { .Width = 16, .Height = 16, .Format = D3DDDIFMT_A8R8G8B8,
                                 .Type = D3DKMDT_GDISURFACE_TEXTURE };
    DXGKARG_GETSTANDARDALLOCATIONDRIVERDATA q = { .StandardAllocationType = D3DKMDT_STANDARDALLOCATION_GDISURFACE,
                                                  .pCreateGdiSurfaceData = &g };
    assert_int_equal(SwKmdGetStandardAllocationDriverData(ad->miniport, &q), STATUS_NOT_SUPPORTED);
    g.Type = D3DKMDT_GDISURFACE_TEXTURE_CROSSADAPTER;
    q.StandardAllocationType = D3DKMDT_STANDARDALLOCATION_SHADOWSURFACE;
    assert_int_equal(SwKmdGetStandardAllocationDriverData(ad->miniport, &q), STATUS_NOT_SUPPORTED);
    q.StandardAllocationType = D3DKMDT_STANDARDALLOCATION_GDISURFACE;
    assert_int_equal(SwKmdGetStandardAllocationDriverData(ad->miniport, &q), STATUS_SUCCESS);
    assert_int_equal(q.AllocationPrivateDriverDataSize, sizeof(struct swgpu_alloc_private));
    assert_int_equal(g.Pitch, 0); /* the sizes-only call writes nothing else */
    UINT8 small[8];
    q.pAllocationPrivateDriverData = small;
    q.AllocationPrivateDriverDataSize = sizeof small;
    assert_int_equal(SwKmdGetStandardAllocationDriverData(ad->miniport, &q), STATUS_INVALID_PARAMETER);
    dxgk_adapter_put(ad);
    renv_close(&a);
    renv_close(&b);
}

/* Seed 003 tier 0: an adapter without DXGK_VIDMMCAPS.CrossAdapterResource makes none. */
/* rule: kmd.reference-kmd-describes-cross-adapter (mutation-checked: no Pitch → fails) */
static void tier_0_kmd_refuses_the_kernel_surface(void **state)
{
    (void)state;
    renv_caps("DXGK_VIDMMCAPS.CrossAdapterResource = 0\n");
    struct renv a, b;
    renv_open_pair(&a, &b);
    D3DKMT_HANDLE share = 0;
    wddm_clear_refusals();
    assert_int_equal(dxgk_create_standard_cross_adapter(a.device, 16, 16, D3DDDIFMT_X8R8G8B8, NULL, 0, &share, NULL, NULL, NULL),
                     STATUS_NOT_SUPPORTED);
    renv_expect_refusal("DxgkDdiGetStandardAllocationDriverData");
    renv_close(&a);
    renv_close(&b);
    renv_caps_remove();
}

int main(void)
{
    setenv("WDDM_ADAPTER_COUNT", "2", 1);
    setenv("WDDM_SEGMENT_LOCAL_MB", "1", 1);
    setenv("WDDM_SEGMENT_VISIBLE_MB", "1", 1);
    setenv("WDDM_SEGMENT_APERTURE_MB", "4", 1);
    unsetenv("WDDM_KMD_CAPS");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kernel_created_surface_is_opened_and_read_on_the_other_adapter),
        cmocka_unit_test(refusals_name_the_rule),
        cmocka_unit_test(tier_0_kmd_refuses_the_kernel_surface),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    renv_caps_remove(); /* also after a failed assertion left a caps file */
    return rc;
}
