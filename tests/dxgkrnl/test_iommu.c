/* Issue 20 §5: the IoMmu model (WDDM 2.0) end to end on the reference KMD and the software GPU.
 * The CPU and the GPU share the process's address space: an allocation's
 * D3DDDI_ALLOCATIONINFO2.GpuVirtualAddress is the pointer a lock gives the CPU, a command buffer
 * names it, and the GPU's access goes through the platform's IOMMU under the process's PASID
 * (DXGKARG_CREATEPROCESS / DXGKARG_CREATEDEVICE). VidMm maps exactly what a device made resident:
 * an allocation never made resident, or evicted, page-faults with DXGK_PAGE_FAULT_IOMMU, and a
 * PASID translates only for the adapter it was made for. Order is proved by data and states,
 * never by time. Sources: MicrosoftDocs "IoMmu model" and "GPU virtual memory in WDDM 2.0";
 * the WDK pages of DXGKARG_CREATEPROCESS, DXGKARG_CREATEDEVICE, D3DDDI_ALLOCATIONINFO2 and
 * DXGK_PAGE_FAULT_FLAGS; docs/semantics.md §9.6. */
#include "real_env.h"

#include <unistd.h>

#include "kernel_peek.h"
#include "kmd/kmd.h"

#define BYTES 8192u

static struct renv e;

static void iommu_caps(void)
{
    renv_caps("DXGK_DRIVERCAPS.WDDMVersion = 0x2000\n"
              "DXGK_VIDMMCAPS.VirtualAddressingSupported = 1\n"
              "DXGK_VIDMMCAPS.IoMmuSupported = 1\n");
}

static int setup(void **state)
{
    (void)state;
    iommu_caps();
    renv_open(&e);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    renv_close(&e);
    unsetenv("WDDM_KMD_CAPS");
    return 0;
}

/* D3DKMTCreateAllocation2 of one allocation of `kind` on device; its address in *va. */
static D3DKMT_HANDLE alloc2(D3DKMT_HANDLE device, UINT32 kind, UINT64 size, D3DGPU_VIRTUAL_ADDRESS *va)
{
    struct swgpu_alloc_private p = renv_private(kind, size);
    D3DDDI_ALLOCATIONINFO2 ai = { .pPrivateDriverData = &p, .PrivateDriverDataSize = sizeof p };
    D3DKMT_CREATEALLOCATION ca = { .hDevice = device, .NumAllocations = 1, .pAllocationInfo2 = &ai };
    assert_int_equal(D3DKMTCreateAllocation2(&ca), STATUS_SUCCESS);
    *va = ai.GpuVirtualAddress;
    return ai.hAllocation;
}

/* A device's allocations for copies: cmd (the command buffer), src (UPLOAD, pattern(seed)), rb
 * (READBACK), made resident. */
struct idev {
    D3DKMT_HANDLE device, context;
    D3DKMT_HANDLE cmd, src, rb;
    D3DGPU_VIRTUAL_ADDRESS cmd_va, src_va, rb_va;
};

static void idev_open(struct idev *v, D3DKMT_HANDLE device, D3DKMT_HANDLE context, uint32_t seed)
{
    v->device = device;
    v->context = context;
    v->cmd = alloc2(device, SWGPU_ALLOC_UPLOAD, 4096, &v->cmd_va);
    v->src = alloc2(device, SWGPU_ALLOC_UPLOAD, BYTES, &v->src_va);
    v->rb = alloc2(device, SWGPU_ALLOC_READBACK, BYTES, &v->rb_va);
    D3DKMT_HANDLE list[3] = { v->cmd, v->src, v->rb };
    assert_true(NT_SUCCESS(renv_make_resident(device, list, 3)));
    renv_pattern(renv_lock2(device, v->src), BYTES, seed);
    renv_unlock2(device, v->src);
}

static NTSTATUS idev_copy(struct idev *v, D3DGPU_VIRTUAL_ADDRESS dst, D3DGPU_VIRTUAL_ADDRESS src)
{
    UINT8 *p = renv_lock2(v->device, v->cmd);
    UINT len = renv_va_copy_cmd(p, dst, src, BYTES);
    renv_unlock2(v->device, v->cmd);
    return renv_submit(v->context, v->cmd_va, len);
}

static void idev_check(struct idev *v, uint32_t seed)
{
    renv_check2(v->device, v->rb, BYTES, seed);
}

static void new_device(D3DKMT_HANDLE adapter, D3DKMT_HANDLE *device, D3DKMT_HANDLE *context)
{
    D3DKMT_CREATEDEVICE cd = { .hAdapter = adapter };
    assert_int_equal(D3DKMTCreateDevice(&cd), STATUS_SUCCESS);
    D3DKMT_CREATECONTEXT cc = { .hDevice = cd.hDevice };
    assert_int_equal(D3DKMTCreateContext(&cc), STATUS_SUCCESS);
    *device = cd.hDevice;
    *context = cc.hContext;
}

static void destroy_device(D3DKMT_HANDLE device)
{
    D3DKMT_DESTROYDEVICE dd = { .hDevice = device };
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_SUCCESS);
}

/* The page fault of a lost device: from the IOMMU, at a VA inside [lo, lo + BYTES). */
static void expect_iommu_fault(D3DKMT_HANDLE device, D3DGPU_VIRTUAL_ADDRESS lo)
{
    assert_int_equal(renv_wait_lost(device), D3DKMT_DEVICEEXECUTION_ERROR_DMAPAGEFAULT);
    D3DKMT_GETDEVICESTATE gs = { .hDevice = device, .StateType = D3DKMT_DEVICESTATE_PAGE_FAULT };
    assert_int_equal(D3DKMTGetDeviceState(&gs), STATUS_SUCCESS);
    assert_true(gs.PageFaultState.FaultedVirtualAddress >= lo && gs.PageFaultState.FaultedVirtualAddress < lo + BYTES);
    assert_int_equal(gs.PageFaultState.PageFaultFlags & DXGK_PAGE_FAULT_IOMMU, DXGK_PAGE_FAULT_IOMMU);
    assert_int_equal(gs.PageFaultState.FaultErrorCode.GeneralErrorCode, DXGK_GENERAL_ERROR_PAGE_FAULT);
}

/* The KMD got the process's PASID: in DxgkDdiCreateDevice, the one VidMm registered. */
static ULONG pasid_of(D3DKMT_HANDLE device)
{
    struct dxgk_device *d = (struct dxgk_device *)dxgk_handle_get(device, DXGK_TYPE_DEVICE);
    assert_non_null(d);
    ULONG kernel = vidmm_va_pasid(d->adapter);
    ULONG kmd = ((const struct swkmd_device *)d->kmd)->pasid;
    dxgk_object_put(&d->obj);
    assert_int_equal(kmd, kernel);
    return kernel;
}

/* rule: vidmm.iommu-one-address-cpu-and-gpu */
/* rule: kernel.iommu-pasid-to-process-and-devices */
/* rule: kmd.iommu-model-caps */
static void an_allocation_has_one_address_for_the_cpu_and_the_gpu(void **state)
{
    (void)state;
    assert_int_not_equal(pasid_of(e.device), 0);
    /* rule: kernel.wddm-2-0-caps-name-the-model */
    D3DKMT_WDDM_2_0_CAPS c2 = renv_wddm_2_0_caps(e.adapter);
    assert_true(c2.IoMmuSupported && !c2.GpuMmuSupported);
    assert_null(e.cc.pCommandBuffer); /* a WDDM 2.0 model: D3DKMTSubmitCommand, no lists */
    struct idev v;
    idev_open(&v, e.device, e.context, 7);
    assert_int_not_equal(v.src_va, 0);
    assert_int_equal(v.src_va % 4096, 0);
    assert_ptr_equal(renv_lock2(e.device, v.src), (void *)(uintptr_t)v.src_va);
    renv_unlock2(e.device, v.src);
    /* src -> mid (GPU_ONLY: in system memory too, the GPU reaching nothing else) -> rb. */
    D3DGPU_VIRTUAL_ADDRESS mid_va;
    D3DKMT_HANDLE mid = alloc2(e.device, SWGPU_ALLOC_GPU_ONLY, BYTES, &mid_va);
    assert_true(NT_SUCCESS(renv_make_resident(e.device, &mid, 1)));
    assert_int_equal(idev_copy(&v, mid_va, v.src_va), STATUS_SUCCESS);
    renv_finish(e.device, e.context);
    assert_int_equal(idev_copy(&v, v.rb_va, mid_va), STATUS_SUCCESS);
    renv_finish(e.device, e.context);
    idev_check(&v, 7);
    /* What the GPU wrote is at the CPU's pointer: the same memory, not a copy of it. */
    UINT8 want[BYTES];
    renv_pattern(want, BYTES, 7);
    assert_memory_equal((const void *)(uintptr_t)mid_va, want, BYTES);
    assert_int_equal(renv_exec_state(e.device), D3DKMT_DEVICEEXECUTION_ACTIVE);
}

/* rule: vidmm.iommu-no-gpu-va-services */
static void the_gpummu_address_services_are_refused(void **state)
{
    (void)state;
    D3DGPU_VIRTUAL_ADDRESS va;
    D3DKMT_HANDLE al = alloc2(e.device, SWGPU_ALLOC_UPLOAD, 4096, &va);
    D3DDDI_RESERVEGPUVIRTUALADDRESS rv = { .hAdapter = e.adapter, .Size = 1 << 20 };
    RENV_REFUSED(D3DKMTReserveGpuVirtualAddress(&rv), STATUS_NOT_SUPPORTED, "IoMmu model");
    D3DDDI_MAPGPUVIRTUALADDRESS mp = { .hPagingQueue = e.device, .hAllocation = al, .SizeInPages = 1 };
    RENV_REFUSED(D3DKMTMapGpuVirtualAddress(&mp), STATUS_NOT_SUPPORTED, "IoMmu model");
    D3DKMT_FREEGPUVIRTUALADDRESS fr = { .hAdapter = e.adapter, .BaseAddress = va, .Size = 4096 };
    RENV_REFUSED(D3DKMTFreeGpuVirtualAddress(&fr), STATUS_NOT_SUPPORTED, "IoMmu model");
}

/* rule: vidmm.iommu-maps-only-resident */
/* rule: kmd.page-fault-iommu-flag */
static void an_allocation_never_made_resident_faults_from_the_iommu(void **state)
{
    (void)state;
    struct idev v;
    idev_open(&v, e.device, e.context, 9);
    D3DGPU_VIRTUAL_ADDRESS ghost_va;
    (void)alloc2(e.device, SWGPU_ALLOC_GPU_ONLY, BYTES, &ghost_va);
    assert_int_equal(idev_copy(&v, v.rb_va, ghost_va), STATUS_SUCCESS);
    expect_iommu_fault(e.device, ghost_va);
}

/* Evict unmaps (once the work its device queued before retired), MakeResident maps again; the
 * content stays where the CPU sees it. Devices of one adapter share the process's PASID, so a
 * second device reads the first one's allocation by its address. */
/* rule: vidmm.iommu-maps-only-resident */
static void evict_unmaps_and_make_resident_maps_again(void **state)
{
    (void)state;
    struct idev a, b;
    D3DKMT_HANDLE bdev, bctx;
    new_device(e.adapter, &bdev, &bctx);
    assert_int_equal(pasid_of(bdev), pasid_of(e.device));
    idev_open(&a, e.device, e.context, 21);
    idev_open(&b, bdev, bctx, 22);
    assert_int_equal(idev_copy(&b, b.rb_va, a.src_va), STATUS_SUCCESS); /* a's memory, b's work */
    renv_finish(bdev, bctx);
    idev_check(&b, 21);
    assert_int_equal(renv_evict(e.device, &a.src, 1), STATUS_SUCCESS);
    assert_int_equal(idev_copy(&b, b.rb_va, a.src_va), STATUS_SUCCESS);
    expect_iommu_fault(bdev, a.src_va);
    destroy_device(bdev);
    /* Back: the same address reads the same bytes. */
    assert_true(NT_SUCCESS(renv_make_resident(e.device, &a.src, 1)));
    assert_int_equal(idev_copy(&a, a.rb_va, a.src_va), STATUS_SUCCESS);
    renv_finish(e.device, e.context);
    idev_check(&a, 21);
    assert_int_equal(renv_exec_state(e.device), D3DKMT_DEVICEEXECUTION_ACTIVE);
}

/* Each adapter registers the process with the IOMMU for itself: its PASID translates only for
 * its device, and only what its own VidMm mapped. */
/* rule: kernel.iommu-pasid-bound-to-device */
static void a_pasid_translates_only_for_its_adapter(void **state)
{
    (void)state;
    renv_close(&e);
    setenv("WDDM_ADAPTER_COUNT", "2", 1);
    struct renv x, y;
    renv_open_pair(&x, &y);
    ULONG px = pasid_of(x.device), py = pasid_of(y.device);
    assert_int_not_equal(px, py);
    struct idev a, b;
    idev_open(&a, x.device, x.context, 31);
    idev_open(&b, y.device, y.context, 32);
    /* The platform's answer to adapter x's device asking with y's PASID, then with its own. */
    struct dxgk_device *dx = (struct dxgk_device *)dxgk_handle_get(x.device, DXGK_TYPE_DEVICE);
    assert_non_null(dx);
    UINT64 phys = 0;
    assert_int_equal(WddmIoMmuTranslate(&dx->adapter->pdo, py, b.src_va, 0, &phys), STATUS_INVALID_PARAMETER);
    assert_int_equal(WddmIoMmuTranslate(&dx->adapter->pdo, px, a.src_va + 5, 0, &phys), STATUS_SUCCESS);
    assert_int_equal(phys, a.src_va + 5);
    assert_int_equal(WddmIoMmuTranslate(&dx->adapter->pdo, px, b.src_va, 0, &phys), STATUS_ACCESS_VIOLATION);
    dxgk_object_put(&dx->obj);
    /* x's GPU reading y's resident allocation: not mapped for x's process. */
    assert_int_equal(idev_copy(&a, a.rb_va, b.src_va), STATUS_SUCCESS);
    expect_iommu_fault(x.device, b.src_va);
    /* y is untouched. */
    assert_int_equal(idev_copy(&b, b.rb_va, b.src_va), STATUS_SUCCESS);
    renv_finish(y.device, y.context);
    idev_check(&b, 32);
    renv_close(&x);
    renv_close(&y);
    unsetenv("WDDM_ADAPTER_COUNT");
    renv_open(&e);
}

/* A KMD that describes every allocation in local memory only (segment 1), not in the aperture. */
static PDXGKDDI_CREATEALLOCATION real_create;

static NTSTATUS APIENTRY local_only_create(const HANDLE a, DXGKARG_CREATEALLOCATION *args)
{
    NTSTATUS st = real_create(a, args);
    for (UINT i = 0; NT_SUCCESS(st) && i < args->NumAllocations; i++) {
        DXGK_ALLOCATIONINFO *info = &args->pAllocationInfo[i];
        info->SupportedReadSegmentSet = info->SupportedWriteSegmentSet = 1u << (SWKMD_SEGMENT_LOCAL - 1);
        info->PreferredSegment.Value = 0;
        info->PreferredSegment.SegmentId0 = SWKMD_SEGMENT_LOCAL;
        info->Flags.CpuVisible = 0;
    }
    return st;
}

static NTSTATUS local_only_entry(PDRIVER_OBJECT drv, PVOID reg)
{
    DRIVER_INITIALIZATION_DATA d;
    SwKmdGetDriverInitializationData(&d);
    real_create = d.DxgkDdiCreateAllocation;
    d.DxgkDdiCreateAllocation = local_only_create;
    return DxgkInitialize(drv, reg, &d);
}

/* This kernel keeps an IoMmu allocation in its system-memory backing store, placed in apertures:
 * one the KMD describes in local memory only is refused as unsupported, with the reason. */
/* rule: kernel.iommu-limits-aperture-placement (the allocation half) */
static void an_allocation_outside_the_aperture_is_refused(void **state)
{
    (void)state;
    renv_close(&e);
    wddm_set_kmd_entry(local_only_entry);
    D3DKMT_ADAPTERINFO info[4];
    D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 4, .pAdapters = info };
    assert_int_equal(D3DKMTEnumAdapters2(&en), STATUS_SUCCESS);
    renv_open_on(&e, info[0].hAdapter);
    D3DKMT_HANDLE h = 0;
    wddm_clear_refusals();
    assert_false(NT_SUCCESS(renv_try_alloc(&e, SWGPU_ALLOC_GPU_ONLY, BYTES, &h)));
    renv_expect_refusal("IoMmu.SystemMemoryOnly");
    renv_close(&e);
    wddm_set_kmd_entry(NULL);
    renv_open(&e);
}

/* A KMD whose segments hold no aperture: its aperture reported as a plain memory segment. */
static PDXGKDDI_QUERYADAPTERINFO real_query;

static NTSTATUS APIENTRY no_aperture_query(const HANDLE h, const DXGKARG_QUERYADAPTERINFO *q)
{
    NTSTATUS st = real_query(h, q);
    DXGK_QUERYSEGMENTOUT *o = q->pOutputData;
    if (NT_SUCCESS(st) && q->Type == DXGKQAITYPE_QUERYSEGMENT && o->pSegmentDescriptor)
        for (UINT i = 0; i < o->NbSegment; i++)
            if (o->pSegmentDescriptor[i].Flags.Aperture) {
                o->pSegmentDescriptor[i].Flags.Value = 0;
                o->pSegmentDescriptor[i].CommitLimit = o->pSegmentDescriptor[i].Size;
            }
    return st;
}

static NTSTATUS no_aperture_entry(PDRIVER_OBJECT drv, PVOID reg)
{
    DRIVER_INITIALIZATION_DATA d;
    SwKmdGetDriverInitializationData(&d);
    real_query = d.DxgkDdiQueryAdapterInfo;
    d.DxgkDdiQueryAdapterInfo = no_aperture_query;
    return DxgkInitialize(drv, reg, &d);
}

/* rule: kernel.iommu-limits-aperture-placement (the adapter half) */
static void an_adapter_without_an_aperture_is_not_started(void **state)
{
    (void)state;
    renv_close(&e);
    wddm_set_kmd_entry(no_aperture_entry);
    wddm_clear_refusals();
    D3DKMT_ADAPTERINFO info[4];
    D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 4, .pAdapters = info };
    assert_false(NT_SUCCESS(D3DKMTEnumAdapters2(&en)));
    renv_expect_refusal("IoMmu.ApertureSegment");
    wddm_set_kmd_entry(NULL);
    renv_open(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(an_allocation_has_one_address_for_the_cpu_and_the_gpu, setup, teardown),
        cmocka_unit_test_setup_teardown(the_gpummu_address_services_are_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(an_allocation_never_made_resident_faults_from_the_iommu, setup, teardown),
        cmocka_unit_test_setup_teardown(evict_unmaps_and_make_resident_maps_again, setup, teardown),
        cmocka_unit_test_setup_teardown(a_pasid_translates_only_for_its_adapter, setup, teardown),
        cmocka_unit_test_setup_teardown(an_allocation_outside_the_aperture_is_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(an_adapter_without_an_aperture_is_not_started, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
