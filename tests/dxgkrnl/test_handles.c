/* dxgkrnl handles: a stale (destroyed), forged (never issued) or wrong-type handle at every
 * D3DKMT entry point returns STATUS_INVALID_PARAMETER and touches no freed memory (ASan). */
/* rule: kernel.handles-type-generation-slot-slot-0 (stale/forged/wrong-type) */
/* rule: kernel.d3dkmtcreateallocation-hresource-names (stale/forged/wrong-type hResource, changed from `STATUS_INVALID_PARAMETER`) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "mock_kmd.h"

enum slot { S_ADAPTER, S_DEVICE, S_CONTEXT, S_ALLOCATION, S_RESOURCE };

struct bad_set {
    D3DKMT_HANDLE h[5]; /* the bad handle to use where a handle of that kind is expected */
};

/* Every entry point, with one handle slot replaced by a bad one; the others are valid. */
static void expect_all_entries_refuse(struct mock_env *e, D3DKMT_HANDLE good_alloc, D3DKMT_HANDLE good_res,
                                      const struct bad_set *b)
{
    D3DKMT_QUERYADAPTERINFO q = { .hAdapter = b->h[S_ADAPTER], .Type = KMTQAITYPE_WDDM_COUNTERS };
    struct wddm_counters c;
    q.pPrivateDriverData = &c;
    q.PrivateDriverDataSize = sizeof c;
    assert_int_equal(D3DKMTQueryAdapterInfo(&q), STATUS_INVALID_PARAMETER);
    D3DKMT_CREATEDEVICE cd = { .hAdapter = b->h[S_ADAPTER] };
    assert_int_equal(D3DKMTCreateDevice(&cd), STATUS_INVALID_PARAMETER);
    D3DKMT_CLOSEADAPTER ca = { .hAdapter = b->h[S_ADAPTER] };
    assert_int_equal(D3DKMTCloseAdapter(&ca), STATUS_INVALID_PARAMETER);

    D3DKMT_CREATECONTEXT cc = { .hDevice = b->h[S_DEVICE] };
    assert_int_equal(D3DKMTCreateContext(&cc), STATUS_INVALID_PARAMETER);
    struct mock_alloc_priv p = { .magic = MOCK_ALLOC_MAGIC, .size = 4096 };
    D3DDDI_ALLOCATIONINFO ai = { .pPrivateDriverData = &p, .PrivateDriverDataSize = sizeof p };
    D3DKMT_CREATEALLOCATION cra = { .hDevice = b->h[S_DEVICE], .NumAllocations = 1, .pAllocationInfo = &ai };
    assert_int_equal(D3DKMTCreateAllocation(&cra), STATUS_INVALID_PARAMETER);
    cra.hDevice = e->device;
    cra.hResource = b->h[S_RESOURCE];
    if (cra.hResource) /* 0 means "no resource": legitimate; a bad one is an invalid handle (Wine
                        * win32u d3dkmt tests, run on Windows) */
        assert_int_equal(D3DKMTCreateAllocation(&cra), STATUS_INVALID_HANDLE);

    D3DKMT_HANDLE al = good_alloc;
    D3DKMT_DESTROYALLOCATION da = { .hDevice = b->h[S_DEVICE], .phAllocationList = &al, .AllocationCount = 1 };
    assert_int_equal(D3DKMTDestroyAllocation(&da), STATUS_INVALID_PARAMETER);
    D3DKMT_HANDLE bad_al = b->h[S_ALLOCATION];
    da = (D3DKMT_DESTROYALLOCATION){ .hDevice = e->device, .phAllocationList = &bad_al, .AllocationCount = 1 };
    assert_int_equal(D3DKMTDestroyAllocation(&da), STATUS_INVALID_PARAMETER);
    da = (D3DKMT_DESTROYALLOCATION){ .hDevice = e->device, .hResource = b->h[S_RESOURCE] };
    if (da.hResource) /* 0 with no list names nothing: success (Wine win32u d3dkmt tests, run on Windows) */
        assert_int_equal(D3DKMTDestroyAllocation(&da), STATUS_INVALID_PARAMETER);

    D3DKMT_LOCK l = { .hDevice = b->h[S_DEVICE], .hAllocation = good_alloc };
    assert_int_equal(D3DKMTLock(&l), STATUS_INVALID_PARAMETER);
    l = (D3DKMT_LOCK){ .hDevice = e->device, .hAllocation = b->h[S_ALLOCATION] };
    assert_int_equal(D3DKMTLock(&l), STATUS_INVALID_PARAMETER);
    D3DKMT_UNLOCK u = { .hDevice = b->h[S_DEVICE], .NumAllocations = 1, .phAllocations = &al };
    assert_int_equal(D3DKMTUnlock(&u), STATUS_INVALID_PARAMETER);
    u = (D3DKMT_UNLOCK){ .hDevice = e->device, .NumAllocations = 1, .phAllocations = &bad_al };
    assert_int_equal(D3DKMTUnlock(&u), STATUS_INVALID_PARAMETER);

    unsigned submits = atomic_load(&mock.renders);
    D3DKMT_RENDER r = { .hContext = b->h[S_CONTEXT], .CommandLength = 8 };
    assert_int_equal(D3DKMTRender(&r), STATUS_INVALID_PARAMETER);
    assert_int_equal(mock_render_write(e, b->h[S_ALLOCATION], 1, true), STATUS_INVALID_PARAMETER);
    assert_int_equal(atomic_load(&mock.renders), submits); /* nothing reached the KMD */

    D3DKMT_DESTROYCONTEXT dc = { .hContext = b->h[S_CONTEXT] };
    assert_int_equal(D3DKMTDestroyContext(&dc), STATUS_INVALID_PARAMETER);
    D3DKMT_DESTROYDEVICE dd = { .hDevice = b->h[S_DEVICE] };
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_INVALID_PARAMETER);
    (void)good_res;
}

static D3DKMT_HANDLE make_resource(struct mock_env *e, D3DKMT_HANDLE *out_alloc)
{
    struct mock_alloc_priv p = { .magic = MOCK_ALLOC_MAGIC, .size = 4096 };
    D3DDDI_ALLOCATIONINFO ai = { .pPrivateDriverData = &p, .PrivateDriverDataSize = sizeof p };
    D3DKMT_CREATEALLOCATION ca = { .hDevice = e->device, .NumAllocations = 1, .pAllocationInfo = &ai };
    ca.Flags.CreateResource = 1;
    assert_int_equal(D3DKMTCreateAllocation(&ca), STATUS_SUCCESS);
    assert_int_not_equal(ca.hResource, 0);
    if (out_alloc)
        *out_alloc = ai.hAllocation;
    return ca.hResource;
}

/* rule: kernel.handles-typed-generation-checked-stale */
static void test_stale_handles_are_invalid_parameter(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE alloc = mock_alloc(&e, 4096, true, 0, 0, 0, NULL);
    D3DKMT_HANDLE res = make_resource(&e, NULL);
    struct bad_set b;
    /* adapter: a second handle, closed (the adapter stays open through the first) */
    D3DKMT_OPENADAPTERFROMLUID ol = { 0 };
    D3DKMT_ADAPTERINFO info[2];
    D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 2, .pAdapters = info };
    assert_int_equal(D3DKMTEnumAdapters2(&en), STATUS_SUCCESS);
    ol.AdapterLuid = info[0].AdapterLuid;
    D3DKMT_CLOSEADAPTER ca = { .hAdapter = info[0].hAdapter };
    assert_int_equal(D3DKMTCloseAdapter(&ca), STATUS_SUCCESS);
    b.h[S_ADAPTER] = info[0].hAdapter;
    /* device, context, allocation, resource: created and destroyed */
    D3DKMT_CREATEDEVICE cd = { .hAdapter = e.adapter };
    assert_int_equal(D3DKMTCreateDevice(&cd), STATUS_SUCCESS);
    D3DKMT_CREATECONTEXT cc = { .hDevice = cd.hDevice };
    assert_int_equal(D3DKMTCreateContext(&cc), STATUS_SUCCESS);
    D3DKMT_DESTROYCONTEXT dc = { .hContext = cc.hContext };
    assert_int_equal(D3DKMTDestroyContext(&dc), STATUS_SUCCESS);
    D3DKMT_DESTROYDEVICE dd = { .hDevice = cd.hDevice };
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_SUCCESS);
    b.h[S_DEVICE] = cd.hDevice;
    b.h[S_CONTEXT] = cc.hContext;
    D3DKMT_HANDLE dead = mock_alloc(&e, 4096, true, 0, 0, 0, NULL);
    assert_int_equal(mock_free(&e, dead), STATUS_SUCCESS);
    b.h[S_ALLOCATION] = dead;
    D3DKMT_HANDLE dead_res = make_resource(&e, NULL);
    D3DKMT_DESTROYALLOCATION da = { .hDevice = e.device, .hResource = dead_res };
    assert_int_equal(D3DKMTDestroyAllocation(&da), STATUS_SUCCESS);
    b.h[S_RESOURCE] = dead_res;
    /* destroying twice is a stale use too */
    assert_int_equal(mock_free(&e, dead), STATUS_INVALID_PARAMETER);
    assert_int_equal(D3DKMTDestroyAllocation(&da), STATUS_INVALID_PARAMETER);
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_INVALID_PARAMETER);
    expect_all_entries_refuse(&e, alloc, res, &b);
    (void)ol;
    mock_close(&e);
}

/* rule: kernel.handles-typed-generation-checked-stale */
static void test_forged_handles_are_invalid_parameter(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE alloc = mock_alloc(&e, 4096, true, 0, 0, 0, NULL);
    D3DKMT_HANDLE res = make_resource(&e, NULL);
    const D3DKMT_HANDLE forged[] = { 0, 0xFFFFFFFFu, 0x12345678u, alloc ^ (1u << 18), /* wrong generation */
                                     (alloc & 0xFFFC0000u) | 0x3FFFFu /* slot never issued */ };
    for (size_t i = 0; i < sizeof forged / sizeof forged[0]; i++) {
        struct bad_set b;
        for (int k = 0; k < 5; k++)
            b.h[k] = forged[i];
        expect_all_entries_refuse(&e, alloc, res, &b);
    }
    mock_close(&e);
}

/* rule: kernel.handles-typed-generation-checked-stale */
/* rule: sched.typed-handles-not-windows-numbers (wrong-type handles refused by every entry point) */
static void test_wrong_type_handles_are_invalid_parameter(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE alloc = mock_alloc(&e, 4096, true, 0, 0, 0, NULL);
    D3DKMT_HANDLE res = make_resource(&e, NULL);
    struct bad_set b = { .h = { [S_ADAPTER] = e.device, [S_DEVICE] = e.context, [S_CONTEXT] = alloc,
                                [S_ALLOCATION] = e.device, [S_RESOURCE] = alloc } };
    expect_all_entries_refuse(&e, alloc, res, &b);
    /* Everything still works afterwards: nothing was damaged. */
    assert_int_equal(mock_free(&e, alloc), STATUS_SUCCESS);
    D3DKMT_DESTROYALLOCATION da = { .hDevice = e.device, .hResource = res };
    assert_int_equal(D3DKMTDestroyAllocation(&da), STATUS_SUCCESS);
    mock_close(&e);
}

/* rule: vidmm.allocation-another-device-status-invalid */
static void test_allocation_of_another_device_is_invalid_parameter(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    D3DKMT_HANDLE alloc = mock_alloc(&e, 4096, true, 0, 0, 0, NULL);
    D3DKMT_CREATEDEVICE cd = { .hAdapter = e.adapter };
    assert_int_equal(D3DKMTCreateDevice(&cd), STATUS_SUCCESS);
    D3DKMT_LOCK l = { .hDevice = cd.hDevice, .hAllocation = alloc };
    assert_int_equal(D3DKMTLock(&l), STATUS_INVALID_PARAMETER);
    D3DKMT_DESTROYALLOCATION da = { .hDevice = cd.hDevice, .phAllocationList = &alloc, .AllocationCount = 1 };
    assert_int_equal(D3DKMTDestroyAllocation(&da), STATUS_INVALID_PARAMETER);
    D3DKMT_DESTROYDEVICE dd = { .hDevice = cd.hDevice };
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_SUCCESS);
    mock_close(&e);
}

/* rule: kernel.destroying-device-destroys-contexts */
static void test_teardown_frees_everything_left_behind(void **state)
{
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS);
    for (int i = 0; i < 8; i++) {
        D3DKMT_HANDLE h = mock_alloc(&e, 8192, i & 1, 0, 0, 0, NULL);
        assert_int_not_equal(h, 0);
        assert_int_equal(mock_render_write(&e, h, (UINT32)i, true), STATUS_SUCCESS);
    }
    make_resource(&e, NULL);
    /* Closing the adapter handle alone leaves the device (it holds the adapter). */
    D3DKMT_CLOSEADAPTER ca = { .hAdapter = e.adapter };
    assert_int_equal(D3DKMTCloseAdapter(&ca), STATUS_SUCCESS);
    assert_int_equal(atomic_load(&mock.live_adapters), 1);
    /* Destroying the device takes its contexts and allocations, then the adapter stops. */
    D3DKMT_DESTROYDEVICE dd = { .hDevice = e.device };
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_SUCCESS);
    assert_int_equal(atomic_load(&mock.live_allocations), 0);
    assert_int_equal(atomic_load(&mock.live_contexts), 0);
    assert_int_equal(atomic_load(&mock.live_devices), 0);
    assert_int_equal(atomic_load(&mock.live_adapters), 0);
}

/* rule: kernel.first-d3dkmtenumadapters2-starts-kmd */
/* rule: kernel.verifier-gpummu-iommu-exclusive-adapter */
static void test_failed_start_fails_the_open(void **state)
{
    atomic_store(&mock.gpu_mmu_and_io_mmu, 1);
    wddm_set_kmd_entry(mock_driver_entry);
    D3DKMT_ADAPTERINFO info[2];
    D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 2, .pAdapters = info };
    assert_false(NT_SUCCESS(D3DKMTEnumAdapters2(&en)));
    atomic_store(&mock.gpu_mmu_and_io_mmu, 0);
    assert_int_equal(atomic_load(&mock.live_adapters), 0);
    struct mock_env e;
    assert_int_equal(mock_open(&e), STATUS_SUCCESS); /* the next open starts afresh */
    mock_close(&e);
}

static int reset(void **state)
{
    mock_reset();
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_stale_handles_are_invalid_parameter, reset),
        cmocka_unit_test_setup(test_forged_handles_are_invalid_parameter, reset),
        cmocka_unit_test_setup(test_wrong_type_handles_are_invalid_parameter, reset),
        cmocka_unit_test_setup(test_allocation_of_another_device_is_invalid_parameter, reset),
        cmocka_unit_test_setup(test_teardown_frees_everything_left_behind, reset),
        cmocka_unit_test_setup(test_failed_start_fails_the_open, reset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
