/* D3DKMTCreateAllocation / D3DKMTCreateAllocation2 and D3DKMTDestroyAllocation /
 * D3DKMTDestroyAllocation2 answer as Windows does (issue 14 §3): the Wine win32u d3dkmt tests
 * (run on Windows; they create standard existing-heap allocations, these create the reference
 * KMD's own buffers) and the WDK pages. Real stack: reference KMD, software GPU; both driver
 * models (WDDM_KMD_CAPS). */
#include "conformance/d3dkmt_env.h"

#define SIZE 4096u
#define JUNK 0x1eadbeedu /* what Wine's tests leave in the outputs before a call */

struct one {
    struct swgpu_alloc_private priv;
    D3DDDI_ALLOCATIONINFO ai;
    D3DKMT_CREATEALLOCATION ca;
};

/* One allocation of device k, no resource, outputs preset to junk. */
static void one_init(struct one *o, const struct kmt *k)
{
    memset(o, 0, sizeof *o);
    o->priv = kmt_buffer_private(SIZE);
    o->ai = (D3DDDI_ALLOCATIONINFO){ .hAllocation = JUNK, .pPrivateDriverData = &o->priv,
                                     .PrivateDriverDataSize = sizeof o->priv };
    o->ca = (D3DKMT_CREATEALLOCATION){ .hDevice = k->device, .hGlobalShare = JUNK, .NumAllocations = 1,
                                       .pAllocationInfo = &o->ai,
                                       .hPrivateRuntimeResourceHandle = (HANDLE)(uintptr_t)0xdeadbeef };
}

static void destroy_list(const struct kmt *k, D3DKMT_HANDLE h, NTSTATUS want)
{
    D3DKMT_DESTROYALLOCATION da = { .hDevice = k->device, .phAllocationList = &h, .AllocationCount = 1 };
    assert_int_equal(D3DKMTDestroyAllocation(&da), want);
}

/* The allocation's priority, read back through D3DKMTGetAllocationPriority. */
static UINT priority_of(const struct kmt *k, D3DKMT_HANDLE h)
{
    UINT p = 0;
    D3DKMT_GETALLOCATIONPRIORITY g = { .hDevice = k->device, .phAllocationList = &h, .AllocationCount = 1,
                                       .pPriorities = &p };
    assert_int_equal(D3DKMTGetAllocationPriority(&g), STATUS_SUCCESS);
    return p;
}

static void destroy_resource(const struct kmt *k, D3DKMT_HANDLE res, NTSTATUS want)
{
    D3DKMT_DESTROYALLOCATION da = { .hDevice = k->device, .hResource = res };
    assert_int_equal(D3DKMTDestroyAllocation(&da), want);
}

/* Wine win32u d3dkmt tests, run on Windows: a zeroed D3DKMT_CREATEALLOCATION is refused. */
/* rule: kernel.d3dkmtcreateallocation-zeroed-structure */
static void create_allocation_zeroed_is_invalid_parameter(void **state)
{
    (void)state;
    D3DKMT_CREATEALLOCATION ca = { 0 };
    assert_int_equal(D3DKMTCreateAllocation(&ca), STATUS_INVALID_PARAMETER);
    assert_int_equal(D3DKMTCreateAllocation2(&ca), STATUS_INVALID_PARAMETER);
}

/* Wine win32u d3dkmt tests, run on Windows: without CreateShared / CreateResource, hGlobalShare
 * and hResource come back 0 (whatever they held), hAllocation is a new handle and
 * hPrivateRuntimeResourceHandle is left as it was. */
/* rule: kernel.d3dkmtcreateallocation-zeroed-structure */
static void create_allocation_writes_no_share_and_no_resource_as_zero(void **state)
{
    (void)state;
    struct kmt k;
    kmt_open(&k);
    struct one o;
    one_init(&o, &k);
    assert_int_equal(D3DKMTCreateAllocation(&o.ca), STATUS_SUCCESS);
    assert_int_equal(o.ca.hGlobalShare, 0);
    assert_int_equal(o.ca.hResource, 0);
    assert_int_not_equal(o.ai.hAllocation, 0);
    assert_int_not_equal(o.ai.hAllocation, JUNK);
    assert_ptr_equal(o.ca.hPrivateRuntimeResourceHandle, (HANDLE)(uintptr_t)0xdeadbeef);
    destroy_list(&k, o.ai.hAllocation, STATUS_SUCCESS);
    kmt_close(&k);
}

/* Wine win32u d3dkmt tests, run on Windows: a destroy naming nothing succeeds; a count with no
 * list is STATUS_INVALID_PARAMETER; an allocation destroyed twice is STATUS_INVALID_PARAMETER. */
/* rule: kernel.d3dkmtdestroyallocation-no-hresource */
static void destroy_allocation_of_nothing_succeeds(void **state)
{
    (void)state;
    struct kmt k;
    kmt_open(&k);
    struct one o;
    one_init(&o, &k);
    assert_int_equal(D3DKMTCreateAllocation(&o.ca), STATUS_SUCCESS);
    D3DKMT_DESTROYALLOCATION da = { .hDevice = k.device };
    assert_int_equal(D3DKMTDestroyAllocation(&da), STATUS_SUCCESS);
    da.AllocationCount = 1;
    assert_int_equal(D3DKMTDestroyAllocation(&da), STATUS_INVALID_PARAMETER);
    da.phAllocationList = &o.ai.hAllocation;
    assert_int_equal(D3DKMTDestroyAllocation(&da), STATUS_SUCCESS);
    assert_int_equal(D3DKMTDestroyAllocation(&da), STATUS_INVALID_PARAMETER);
    kmt_close(&k);
}

/* Wine win32u d3dkmt tests, run on Windows, and WDK: D3DKMTCreateAllocation2: the same call with
 * D3DDDI_ALLOCATIONINFO2 descriptions: a new hAllocation, hGlobalShare and hResource 0, the
 * input sizes left as they were; the GPU virtual address is 0 (nothing mapped at creation). The
 * allocation is an ordinary one: D3DKMTDestroyAllocation destroys it. */
/* rule: kernel.d3dkmtcreateallocation2-same-code (mutation-checked: GPU VA, priority override, priority 0) */
static void create_allocation2_answers_like_create_allocation(void **state)
{
    (void)state;
    struct kmt k;
    kmt_open(&k);
    struct swgpu_alloc_private p = kmt_buffer_private(SIZE);
    D3DDDI_ALLOCATIONINFO2 ai2 = { .hAllocation = JUNK, .pPrivateDriverData = &p,
                                   .PrivateDriverDataSize = sizeof p, .GpuVirtualAddress = 0x123456789000ull };
    D3DKMT_CREATEALLOCATION ca = { .hDevice = k.device, .hGlobalShare = JUNK, .NumAllocations = 1,
                                   .pAllocationInfo2 = &ai2 };
    assert_int_equal(D3DKMTCreateAllocation2(&ca), STATUS_SUCCESS);
    assert_int_equal(ca.hGlobalShare, 0);
    assert_int_equal(ca.hResource, 0);
    assert_int_not_equal(ai2.hAllocation, 0);
    assert_int_not_equal(ai2.hAllocation, JUNK);
    assert_int_equal(ca.PrivateRuntimeDataSize, 0);
    assert_int_equal(ca.PrivateDriverDataSize, 0);
    assert_int_equal(ai2.PrivateDriverDataSize, sizeof p);
    kmt_expect_gpu_va(&k, ai2.hAllocation, ai2.GpuVirtualAddress);
    /* rule: vidmm.d3dkmtgetallocationpriority-one-priority (`OverridePriority`) */
    UINT kmd_priority = priority_of(&k, ai2.hAllocation); /* without OverridePriority: the KMD's */
    assert_int_not_equal(kmd_priority, D3DDDI_ALLOCATIONPRIORITY_MAXIMUM);
    destroy_list(&k, ai2.hAllocation, STATUS_SUCCESS);
    /* WDK: D3DDDI_ALLOCATIONINFO2: with Flags.OverridePriority, Priority replaces the driver's;
     * it needs a priority (0 is none: docs/semantics.md §9.4). */
    ai2.Flags.OverridePriority = 1;
    ai2.Priority = 0;
    assert_int_equal(D3DKMTCreateAllocation2(&ca), STATUS_INVALID_PARAMETER);
    ai2.Priority = D3DDDI_ALLOCATIONPRIORITY_MAXIMUM;
    assert_int_equal(D3DKMTCreateAllocation2(&ca), STATUS_SUCCESS);
    assert_int_equal(priority_of(&k, ai2.hAllocation), D3DDDI_ALLOCATIONPRIORITY_MAXIMUM);
    destroy_list(&k, ai2.hAllocation, STATUS_SUCCESS);
    kmt_close(&k);
}

/* Wine win32u d3dkmt tests, run on Windows, and WDK: D3DKMTDestroyAllocation2 destroys like
 * D3DKMTDestroyAllocation (twice: STATUS_INVALID_PARAMETER); its reserved flag bits are 0. */
/* rule: kernel.d3dkmtdestroyallocation2-same-code (mutation-checked) */
/* rule: kernel.destroyallocation2-flags-change-nothing (AssumeNotInUse: the handle is gone on return) */
static void destroy_allocation2_destroys_like_destroy_allocation(void **state)
{
    (void)state;
    struct kmt k;
    kmt_open(&k);
    struct one o;
    one_init(&o, &k);
    assert_int_equal(D3DKMTCreateAllocation(&o.ca), STATUS_SUCCESS);
    D3DKMT_DESTROYALLOCATION2 d2 = { .hDevice = k.device, .AllocationCount = 1,
                                     .phAllocationList = &o.ai.hAllocation };
    d2.Flags.Reserved = 1;
    assert_int_equal(D3DKMTDestroyAllocation2(&d2), STATUS_INVALID_PARAMETER);
    d2.Flags.Value = 0;
    d2.Flags.AssumeNotInUse = 1;
    assert_int_equal(D3DKMTDestroyAllocation2(&d2), STATUS_SUCCESS);
    assert_int_equal(D3DKMTDestroyAllocation2(&d2), STATUS_INVALID_PARAMETER);
    assert_int_equal(D3DKMTDestroyAllocation2(NULL), STATUS_INVALID_PARAMETER);
    kmt_close(&k);
}

/* Wine win32u d3dkmt tests, run on Windows: no device, no allocation, or a resource to create
 * with no allocation: STATUS_INVALID_PARAMETER. */
/* rule: kernel.d3dkmtcreateallocation-zeroed-structure (mutation-checked: hGlobalShare left as it was fails; hResource: an equivalent mutant, see below) */
static void create_allocation_without_device_or_allocations_is_invalid_parameter(void **state)
{
    (void)state;
    struct kmt k;
    kmt_open(&k);
    struct one o;
    one_init(&o, &k);
    o.ca.hDevice = 0;
    assert_int_equal(D3DKMTCreateAllocation(&o.ca), STATUS_INVALID_PARAMETER);
    o.ca.hDevice = k.device;
    o.ca.NumAllocations = 0;
    assert_int_equal(D3DKMTCreateAllocation(&o.ca), STATUS_INVALID_PARAMETER);
    o.ca.Flags.CreateResource = 1;
    assert_int_equal(D3DKMTCreateAllocation(&o.ca), STATUS_INVALID_PARAMETER);
    kmt_close(&k);
}

/* Wine win32u d3dkmt tests, run on Windows: an hResource that is no resource is
 * STATUS_INVALID_HANDLE, with or without CreateResource (hResource is 0 when creating one); with
 * 0 the resource is created and returned. */
/* rule: kernel.d3dkmtcreateallocation-hresource-names (mutation-checked both) */
/* rule: kernel.createresource-existing-resource-invalid-handle */
static void create_allocation_bogus_resource_is_invalid_handle(void **state)
{
    (void)state;
    struct kmt k;
    kmt_open(&k);
    struct one o;
    one_init(&o, &k);
    o.ca.hResource = JUNK;
    assert_int_equal(D3DKMTCreateAllocation(&o.ca), STATUS_INVALID_HANDLE);
    o.ca.Flags.CreateResource = 1;
    o.ca.hResource = JUNK;
    assert_int_equal(D3DKMTCreateAllocation(&o.ca), STATUS_INVALID_HANDLE);
    o.ca.hResource = 0;
    assert_int_equal(D3DKMTCreateAllocation(&o.ca), STATUS_SUCCESS);
    assert_int_not_equal(o.ca.hResource, 0);
    assert_int_equal(o.ca.hGlobalShare, 0);
    assert_int_not_equal(o.ai.hAllocation, 0);
    assert_ptr_equal(o.ca.hPrivateRuntimeResourceHandle, (HANDLE)(uintptr_t)0xdeadbeef);
    /* With CreateResource, even a resource that exists is refused like a bogus handle (ours:
     * the Wine test shows only that a non-zero hResource fails). */
    D3DKMT_HANDLE made = o.ca.hResource;
    struct one again;
    one_init(&again, &k);
    again.ca.Flags.CreateResource = 1;
    again.ca.hResource = made;
    assert_int_equal(D3DKMTCreateAllocation(&again.ca), STATUS_INVALID_HANDLE);
    destroy_resource(&k, made, STATUS_SUCCESS);
    kmt_close(&k);
}

/* WDK: D3DKMT_CREATEALLOCATION ("If you set CreateShared, you must also set CreateResource") and
 * Wine win32u d3dkmt tests, run on Windows: CreateShared alone is STATUS_INVALID_PARAMETER. */
/* rule: kernel.d3dkmtcreateallocation-createshared-2 (mutation-checked) */
static void create_shared_without_resource_is_invalid_parameter(void **state)
{
    (void)state;
    struct kmt k;
    kmt_open(&k);
    struct one o;
    one_init(&o, &k);
    o.ca.Flags.CreateShared = 1;
    assert_int_equal(D3DKMTCreateAllocation(&o.ca), STATUS_INVALID_PARAMETER);
    kmt_close(&k);
}

/* Wine win32u d3dkmt tests, run on Windows: destroying a resource's allocation leaves the
 * resource (destroyed after, once; twice is STATUS_INVALID_PARAMETER); destroying the resource
 * destroys its allocations (their handles are then STATUS_INVALID_PARAMETER). */
/* rule: kernel.d3dkmtdestroyallocation-no-hresource (mutation-checked) */
static void resource_and_allocation_destruction(void **state)
{
    (void)state;
    struct kmt k;
    kmt_open(&k);
    struct one o;
    one_init(&o, &k);
    o.ca.Flags.CreateResource = 1;
    assert_int_equal(D3DKMTCreateAllocation(&o.ca), STATUS_SUCCESS);
    destroy_list(&k, o.ai.hAllocation, STATUS_SUCCESS);
    destroy_resource(&k, o.ca.hResource, STATUS_SUCCESS);
    destroy_resource(&k, o.ca.hResource, STATUS_INVALID_PARAMETER);

    one_init(&o, &k);
    o.ca.Flags.CreateResource = 1;
    assert_int_equal(D3DKMTCreateAllocation(&o.ca), STATUS_SUCCESS);
    destroy_resource(&k, o.ca.hResource, STATUS_SUCCESS);
    destroy_list(&k, o.ai.hAllocation, STATUS_INVALID_PARAMETER);
    kmt_close(&k);
}

int main(void)
{
    unsetenv("WDDM_ADAPTER_COUNT"); /* the one adapter of a process */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(create_allocation_zeroed_is_invalid_parameter),
        cmocka_unit_test(create_allocation_writes_no_share_and_no_resource_as_zero),
        cmocka_unit_test(destroy_allocation_of_nothing_succeeds),
        cmocka_unit_test(create_allocation2_answers_like_create_allocation),
        cmocka_unit_test(destroy_allocation2_destroys_like_destroy_allocation),
        cmocka_unit_test(create_allocation_without_device_or_allocations_is_invalid_parameter),
        cmocka_unit_test(create_allocation_bogus_resource_is_invalid_handle),
        cmocka_unit_test(create_shared_without_resource_is_invalid_parameter),
        cmocka_unit_test(resource_and_allocation_destruction),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
