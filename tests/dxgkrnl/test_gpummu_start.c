/* Issue 6, the GpuMmu model at adapter start and the mode switch: with the GpuMmu caps
 * (WDDMVersion 0x2000 + VirtualAddressingSupported + GpuMmuSupported) the reference KMD starts
 * in the GpuMmu model; a KMD that lacks one of the five GpuMmu DDIs, reports a bad
 * DXGK_GPUMMUCAPS or DXGK_PAGE_TABLE_LEVEL_DESC, or asks for the IoMmu model or a WDDM 1.x
 * version is refused with a line naming the member; a 1.x adapter refuses every 2.x thunk and
 * a GpuMmu adapter every 1.x-only one (D3DKMTRender, Lock Discard). */
/* rule: kernel.start-time-checks-name-each-missing */
#include "real_env.h"

#include "kmd/kmd.h"

enum breakage { NONE, NO_SET_ROOT, NO_CREATE_PROCESS, BAD_LEVEL_SIZE, BAD_UPDATE_MODE, BAD_LEVEL_SEGMENT };
static enum breakage breakage;
static atomic_int create_process_calls, destroy_process_calls, set_root_calls;
static PDXGKDDI_QUERYADAPTERINFO real_query;
static PDXGKDDI_CREATEPROCESS real_create_process;
static PDXGKDDI_DESTROYPROCESS real_destroy_process;
static PDXGKDDI_SETROOTPAGETABLE real_set_root;

static NTSTATUS APIENTRY wrap_query(const HANDLE a, const DXGKARG_QUERYADAPTERINFO *q)
{
    NTSTATUS st = real_query(a, q);
    if (!NT_SUCCESS(st))
        return st;
    if (q->Type == DXGKQAITYPE_GPUMMUCAPS && breakage == BAD_UPDATE_MODE)
        ((DXGK_GPUMMUCAPS *)q->pOutputData)->PageTableUpdateMode = DXGK_PAGETABLEUPDATE_CPU_VIRTUAL;
    if (q->Type == DXGKQAITYPE_PAGETABLELEVELDESC) {
        DXGK_PAGE_TABLE_LEVEL_DESC *l = q->pOutputData;
        if (breakage == BAD_LEVEL_SIZE && l->PageTableSizeInBytes)
            l->PageTableSizeInBytes = 3000;
        if (breakage == BAD_LEVEL_SEGMENT)
            l->PageTableSegmentId = 9;
    }
    return st;
}

static NTSTATUS APIENTRY wrap_create_process(const PVOID a, DXGKARG_CREATEPROCESS *args)
{
    atomic_fetch_add(&create_process_calls, 1);
    return real_create_process(a, args);
}

static NTSTATUS APIENTRY wrap_destroy_process(const PVOID a, HANDLE p)
{
    atomic_fetch_add(&destroy_process_calls, 1);
    return real_destroy_process(a, p);
}

static VOID APIENTRY wrap_set_root(const HANDLE a, const DXGKARG_SETROOTPAGETABLE *r)
{
    atomic_fetch_add(&set_root_calls, 1);
    real_set_root(a, r);
}

static NTSTATUS wrap_entry(PDRIVER_OBJECT drv, PVOID reg)
{
    DRIVER_INITIALIZATION_DATA d;
    SwKmdGetDriverInitializationData(&d);
    real_query = d.DxgkDdiQueryAdapterInfo;
    real_create_process = d.DxgkDdiCreateProcess;
    real_destroy_process = d.DxgkDdiDestroyProcess;
    real_set_root = d.DxgkDdiSetRootPageTable;
    d.DxgkDdiQueryAdapterInfo = wrap_query;
    d.DxgkDdiCreateProcess = wrap_create_process;
    d.DxgkDdiDestroyProcess = wrap_destroy_process;
    d.DxgkDdiSetRootPageTable = wrap_set_root;
    if (breakage == NO_SET_ROOT)
        d.DxgkDdiSetRootPageTable = NULL;
    if (breakage == NO_CREATE_PROCESS)
        d.DxgkDdiCreateProcess = NULL;
    return DxgkInitialize(drv, reg, &d);
}

static void expect_start_refused(const char *must_name)
{
    wddm_clear_refusals();
    D3DKMT_ADAPTERINFO info[4];
    D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 4, .pAdapters = info };
    assert_false(NT_SUCCESS(D3DKMTEnumAdapters2(&en)));
    char why[1100];
    wddm_last_refusals(why, sizeof why);
    if (!strstr(why, must_name))
        fail_msg("the refusal does not name %s:\n%s", must_name, why);
}

static int teardown(void **state)
{
    (void)state;
    breakage = NONE;
    wddm_set_kmd_entry(NULL);
    unsetenv("WDDM_KMD_CAPS");
    return 0;
}

/* rule: vidmm.one-kmd-process-adapter */
/* rule: kernel.dxgkddisetrootpagetable-every-context */
/* rule: kernel.gpummu-adapter-d3dkmtcreatecontext-gives */
/* rule: vidmm.gpummu-adapter-vidmm-never-renames */
static void gpummu_caps_start_one_process_and_a_root_per_context(void **state)
{
    (void)state;
    renv_gpummu_caps(NULL);
    atomic_store(&create_process_calls, 0);
    atomic_store(&destroy_process_calls, 0);
    atomic_store(&set_root_calls, 0);
    breakage = NONE;
    wddm_set_kmd_entry(wrap_entry);
    D3DKMT_ADAPTERINFO info[4];
    D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 4, .pAdapters = info };
    assert_int_equal(D3DKMTEnumAdapters2(&en), STATUS_SUCCESS);
    assert_int_equal(atomic_load(&create_process_calls), 1); /* one process (one VA space) per adapter */
    /* rule: kernel.wddm-2-0-caps-name-the-model */
    D3DKMT_WDDM_2_0_CAPS c2 = renv_wddm_2_0_caps(info[0].hAdapter);
    assert_true(c2.GpuMmuSupported && !c2.IoMmuSupported);
    D3DKMT_CREATEDEVICE cd = { .hAdapter = info[0].hAdapter };
    assert_int_equal(D3DKMTCreateDevice(&cd), STATUS_SUCCESS);
    D3DKMT_CREATECONTEXT cc = { .hDevice = cd.hDevice };
    assert_int_equal(D3DKMTCreateContext(&cc), STATUS_SUCCESS);
    D3DKMT_CREATECONTEXT cc2 = { .hDevice = cd.hDevice };
    assert_int_equal(D3DKMTCreateContext(&cc2), STATUS_SUCCESS);
    /* DxgkDdiSetRootPageTable before any submission, for every context. */
    assert_int_equal(atomic_load(&set_root_calls), 2);
    /* No DMA buffer, no lists: the UMD writes its commands in GPU-virtual memory. */
    assert_null(cc.pCommandBuffer);
    assert_int_equal(cc.CommandBufferSize, 0);
    assert_null(cc.pAllocationList);
    assert_null(cc.pPatchLocationList);
    /* 1.x-only paths are refused with a line saying what to use. */
    wddm_clear_refusals();
    D3DKMT_RENDER r = { .hContext = cc.hContext };
    assert_int_equal(D3DKMTRender(&r), STATUS_NOT_SUPPORTED);
    char why[1100];
    wddm_last_refusals(why, sizeof why);
    assert_non_null(strstr(why, "D3DKMTSubmitCommand"));
    struct renv e = { .adapter = info[0].hAdapter, .device = cd.hDevice };
    D3DKMT_HANDLE up = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, 4096);
    void *p;
    wddm_clear_refusals();
    assert_int_equal(renv_lock(&e, up, LOCK_DISCARD | LOCK_WRITEONLY, &p), STATUS_NOT_SUPPORTED);
    wddm_last_refusals(why, sizeof why);
    assert_non_null(strstr(why, "does not rename"));
    /* D3DKMTLock2 works (docs/semantics.md §3.3). */
    p = renv_lock2(cd.hDevice, up);
    assert_non_null(p);
    memset(p, 0x5a, 4096);
    renv_unlock2(cd.hDevice, up);
    renv_close(&e);
    assert_int_equal(atomic_load(&destroy_process_calls), 1); /* at stop */
}

/* rule: kernel.gpummu-caps-need-dxgkddisetrootpagetable */
/* rule: kernel.dxgk-gpummucaps-dxgk-page-table-level */
static void gpummu_start_refuses_missing_ddis_and_bad_levels(void **state)
{
    (void)state;
    renv_gpummu_caps(NULL);
    wddm_set_kmd_entry(wrap_entry);
    breakage = NO_SET_ROOT;
    expect_start_refused("DxgkDdiSetRootPageTable");
    breakage = NO_CREATE_PROCESS;
    expect_start_refused("DxgkDdiCreateProcess");
    breakage = BAD_LEVEL_SIZE;
    expect_start_refused("PageTableSizeInBytes");
    breakage = BAD_UPDATE_MODE;
    expect_start_refused("DXGK_PAGETABLEUPDATE_GPU_PHYSICAL");
    breakage = BAD_LEVEL_SEGMENT;
    expect_start_refused("PageTableSegmentId");
    breakage = NONE;
    wddm_set_kmd_entry(NULL);
}

/* rule: kernel.virtualaddressingsupported-needs */
/* rule: kernel.iommusupported-needs-virtual-addressing */
static void gpummu_needs_wddm2_and_iommu_needs_virtual_addressing(void **state)
{
    (void)state;
    wddm_set_kmd_entry(NULL);
    renv_gpummu_caps("DXGK_DRIVERCAPS.WDDMVersion = 0x1300\n"); /* a later line wins */
    expect_start_refused("WDDMVersion");
    renv_gpummu_caps("DXGK_VIDMMCAPS.GpuMmuSupported = 0\nDXGK_VIDMMCAPS.VirtualAddressingSupported = 0\n"
                     "DXGK_VIDMMCAPS.IoMmuSupported = 1\n");
    expect_start_refused("DXGK_VIDMMCAPS.IoMmuSupported is set without DXGK_VIDMMCAPS.VirtualAddressingSupported");
}

/* rule: vidmm.wddm-1-x-adapter-refuses-d3dkmtreserve */
/* rule: kernel.d3dkmtgetdevicestate-status-not-found */
static void wddm1_adapter_refuses_the_2x_thunks(void **state)
{
    (void)state;
    unsetenv("WDDM_KMD_CAPS");
    struct renv e;
    renv_open(&e);
    assert_non_null(e.cc.pCommandBuffer); /* 1.x: the kernel's command buffer as before */
    /* rule: kernel.wddm-2-0-caps-name-the-model */
    assert_int_equal(renv_wddm_2_0_caps(e.adapter).Value, 0);
    D3DKMT_HANDLE al = renv_alloc(&e, SWGPU_ALLOC_UPLOAD, 4096);
    D3DDDI_RESERVEGPUVIRTUALADDRESS rv = { .hAdapter = e.adapter, .Size = 1 << 20 };
    assert_int_equal(D3DKMTReserveGpuVirtualAddress(&rv), STATUS_NOT_SUPPORTED);
    D3DDDI_MAPGPUVIRTUALADDRESS mp = { .hPagingQueue = e.device, .hAllocation = al, .SizeInPages = 1 };
    assert_int_equal(D3DKMTMapGpuVirtualAddress(&mp), STATUS_NOT_SUPPORTED);
    D3DKMT_FREEGPUVIRTUALADDRESS fr = { .hAdapter = e.adapter, .BaseAddress = 1 << 20, .Size = 4096 };
    assert_int_equal(D3DKMTFreeGpuVirtualAddress(&fr), STATUS_NOT_SUPPORTED);
    assert_int_equal(renv_submit(e.context, 1 << 20, 64), STATUS_NOT_SUPPORTED);
    D3DKMT_GETDEVICESTATE gs = { .hDevice = e.device, .StateType = D3DKMT_DEVICESTATE_PAGE_FAULT };
    assert_int_equal(D3DKMTGetDeviceState(&gs), STATUS_NOT_FOUND); /* no fault recorded */
    renv_close(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(gpummu_caps_start_one_process_and_a_root_per_context, teardown),
        cmocka_unit_test_teardown(gpummu_start_refuses_missing_ddis_and_bad_levels, teardown),
        cmocka_unit_test_teardown(gpummu_needs_wddm2_and_iommu_needs_virtual_addressing, teardown),
        cmocka_unit_test_teardown(wddm1_adapter_refuses_the_2x_thunks, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
