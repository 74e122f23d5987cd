/* D3DKMTQueryResourceInfo, D3DKMTOpenResource and D3DKMTOpenResource2 answer as Windows does
 * (issue 14 §3): the Wine win32u d3dkmt tests (run on Windows) and the WDK pages. A shared
 * resource of the reference KMD is opened by a second device of the same adapter. Real stack:
 * reference KMD, software GPU; both driver models (WDDM_KMD_CAPS). */
#include "conformance/d3dkmt_env.h"

#define SIZE 4096u

static const UINT8 runtime_data[4] = { 7, 8, 9, 10 };

struct made {
    D3DKMT_HANDLE alloc, res, share;
};

/* A shared (global handle) or plain resource of one buffer, with 4 bytes of runtime data. */
static struct made create(const struct kmt *k, bool shared)
{
    struct swgpu_alloc_private p = kmt_buffer_private(SIZE);
    D3DDDI_ALLOCATIONINFO ai = { .pPrivateDriverData = &p, .PrivateDriverDataSize = sizeof p };
    D3DKMT_CREATEALLOCATION ca = { .hDevice = k->device, .NumAllocations = 1, .pAllocationInfo = &ai,
                                   .pPrivateRuntimeData = runtime_data,
                                   .PrivateRuntimeDataSize = sizeof runtime_data };
    ca.Flags.CreateResource = 1;
    ca.Flags.CreateShared = shared;
    assert_int_equal(D3DKMTCreateAllocation(&ca), STATUS_SUCCESS);
    assert_true(!shared || ca.hGlobalShare);
    return (struct made){ .alloc = ai.hAllocation, .res = ca.hResource, .share = ca.hGlobalShare };
}

static void destroy_resource(const struct kmt *k, D3DKMT_HANDLE res)
{
    D3DKMT_DESTROYALLOCATION da = { .hDevice = k->device, .hResource = res };
    assert_int_equal(D3DKMTDestroyAllocation(&da), STATUS_SUCCESS);
}

/* The sizes D3DKMTQueryResourceInfo answers for `share`. */
static D3DKMT_QUERYRESOURCEINFO query(const struct kmt *k, D3DKMT_HANDLE share)
{
    D3DKMT_QUERYRESOURCEINFO q = { .hDevice = k->device, .hGlobalShare = share };
    assert_int_equal(D3DKMTQueryResourceInfo(&q), STATUS_SUCCESS);
    return q;
}

/* Wine win32u d3dkmt tests, run on Windows: a local resource handle is no global share handle:
 * D3DKMTQueryResourceInfo and D3DKMTOpenResource refuse it with STATUS_INVALID_PARAMETER. */
/* rule: kernel.d3dkmtqueryresourceinfo-2 */
static void query_and_open_need_a_global_handle(void **state)
{
    (void)state;
    struct kmt k;
    kmt_open(&k);
    struct made m = create(&k, false);
    assert_int_equal(m.share, 0);
    D3DKMT_QUERYRESOURCEINFO q = { .hDevice = k.device, .hGlobalShare = m.res };
    assert_int_equal(D3DKMTQueryResourceInfo(&q), STATUS_INVALID_PARAMETER);
    D3DKMT_OPENRESOURCE o = { .hDevice = k.device, .hGlobalShare = m.res };
    assert_int_equal(D3DKMTOpenResource(&o), STATUS_INVALID_PARAMETER);
    destroy_resource(&k, m.res);
    kmt_close(&k);
}

/* Wine win32u d3dkmt tests, run on Windows: D3DKMTQueryResourceInfo answers the sizes (the
 * creator's runtime data size, a driver-data total below the caller's buffer, no resource
 * driver data, one allocation) and writes nothing into pPrivateRuntimeData. */
/* rule: kernel.d3dkmtqueryresourceinfo-answers-sizes (mutation-checked: copying fails) */
static void query_resource_info_answers_sizes_and_writes_no_data(void **state)
{
    (void)state;
    struct kmt k, o;
    kmt_open(&k);
    kmt_open(&o);
    struct made m = create(&k, true);
    UINT8 buf[0x100];
    memset(buf, 0xcd, sizeof buf);
    D3DKMT_QUERYRESOURCEINFO q = { .hDevice = o.device, .hGlobalShare = m.share, .pPrivateRuntimeData = buf,
                                   .PrivateRuntimeDataSize = sizeof buf };
    assert_int_equal(D3DKMTQueryResourceInfo(&q), STATUS_SUCCESS);
    assert_int_equal(q.PrivateRuntimeDataSize, sizeof runtime_data);
    assert_int_equal(q.TotalPrivateDriverDataSize, sizeof(struct swgpu_alloc_private));
    assert_int_equal(q.ResourcePrivateDriverDataSize, 0);
    assert_int_equal(q.NumAllocations, 1);
    for (size_t i = 0; i < sizeof buf; i++)
        assert_int_equal(buf[i], 0xcd);
    destroy_resource(&k, m.res);
    kmt_close(&o);
    kmt_close(&k);
}

struct opening {
    UINT8 runtime[0x100], driver[0x1000], resource[0x100];
    D3DDDI_OPENALLOCATIONINFO oi;
    D3DDDI_OPENALLOCATIONINFO2 oi2;
    D3DKMT_OPENRESOURCE o;
};

/* An open of `share` by device k with the sizes D3DKMTQueryResourceInfo answered, the buffers
 * filled with 0xcd (the total driver-data buffer larger than needed, as Wine's is). */
static void opening_init(struct opening *op, const struct kmt *k, D3DKMT_HANDLE share)
{
    D3DKMT_QUERYRESOURCEINFO q = query(k, share);
    memset(op, 0xcd, sizeof *op);
    memset(&op->oi, 0, sizeof op->oi);
    memset(&op->oi2, 0, sizeof op->oi2);
    op->o = (D3DKMT_OPENRESOURCE){ .hDevice = k->device, .hGlobalShare = share, .NumAllocations = 1,
                                   .pOpenAllocationInfo = &op->oi, .pPrivateRuntimeData = op->runtime,
                                   .PrivateRuntimeDataSize = q.PrivateRuntimeDataSize,
                                   .pResourcePrivateDriverData = op->resource,
                                   .ResourcePrivateDriverDataSize = q.ResourcePrivateDriverDataSize,
                                   .pTotalPrivateDriverDataBuffer = op->driver,
                                   .TotalPrivateDriverDataBufferSize = sizeof op->driver, .hResource = 0x1eadbeed };
}

/* Wine win32u d3dkmt tests, run on Windows: D3DKMTOpenResource copies the runtime data, answers
 * the driver data it wrote (TotalPrivateDriverDataBufferSize, the allocation's private data
 * inside the buffer), leaves the resource driver-data buffer (0 bytes) and hGlobalShare alone,
 * and returns new resource and allocation handles. */
/* rule: kernel.d3dkmtopenresource-numallocations */
static void open_resource_copies_runtime_data_and_answers_sizes(void **state)
{
    (void)state;
    struct kmt k, o;
    kmt_open(&k);
    kmt_open(&o);
    struct made m = create(&k, true);
    struct opening op;
    opening_init(&op, &o, m.share);
    assert_int_equal(D3DKMTOpenResource(&op.o), STATUS_SUCCESS);
    assert_int_equal(op.o.hGlobalShare, m.share);
    assert_int_not_equal(op.o.hResource, 0);
    assert_int_not_equal(op.o.hResource, 0x1eadbeed);
    assert_int_equal(op.o.PrivateRuntimeDataSize, sizeof runtime_data);
    assert_int_equal(op.o.TotalPrivateDriverDataBufferSize, sizeof(struct swgpu_alloc_private));
    assert_int_equal(op.o.ResourcePrivateDriverDataSize, 0);
    assert_int_equal(op.o.NumAllocations, 1);
    assert_int_not_equal(op.oi.hAllocation, 0);
    assert_int_equal(op.oi.PrivateDriverDataSize, sizeof(struct swgpu_alloc_private));
    assert_ptr_equal(op.oi.pPrivateDriverData, op.driver);
    assert_memory_equal(op.runtime, runtime_data, sizeof runtime_data);
    assert_int_not_equal(op.driver[0], 0xcd);
    assert_int_equal(op.resource[0], 0xcd);
    destroy_resource(&o, op.o.hResource);
    destroy_resource(&k, m.res);
    kmt_close(&o);
    kmt_close(&k);
}

/* Wine win32u d3dkmt tests, run on Windows: NumAllocations 0, a runtime or resource driver-data
 * size one byte off, a NULL runtime buffer, a NULL allocation array or a NULL driver-data buffer
 * are STATUS_INVALID_PARAMETER; a driver-data buffer one byte short is STATUS_NO_MEMORY. Nothing
 * is opened by a refused call: the exact call then succeeds. */
/* rule: kernel.d3dkmtopenresource-numallocations (mutation-checked: `<` for `!=`, INVALID_PARAMETER for NO_MEMORY, no size written back) */
/* rule: kernel.openresource-short-driver-data-no-memory */
static void open_resource_sizes_must_match(void **state)
{
    (void)state;
    struct kmt k, o;
    kmt_open(&k);
    kmt_open(&o);
    struct made m = create(&k, true);
    struct opening op;
    opening_init(&op, &o, m.share);
    D3DKMT_OPENRESOURCE good = op.o;
    op.o.NumAllocations = 0;
    assert_int_equal(D3DKMTOpenResource(&op.o), STATUS_INVALID_PARAMETER);
    op.o = good;
    op.o.PrivateRuntimeDataSize += 1;
    assert_int_equal(D3DKMTOpenResource(&op.o), STATUS_INVALID_PARAMETER);
    op.o = good;
    op.o.PrivateRuntimeDataSize -= 1;
    assert_int_equal(D3DKMTOpenResource(&op.o), STATUS_INVALID_PARAMETER);
    op.o = good;
    op.o.ResourcePrivateDriverDataSize += 1;
    assert_int_equal(D3DKMTOpenResource(&op.o), STATUS_INVALID_PARAMETER);
    op.o = good;
    op.o.pPrivateRuntimeData = NULL;
    assert_int_equal(D3DKMTOpenResource(&op.o), STATUS_INVALID_PARAMETER);
    op.o = good;
    op.o.pOpenAllocationInfo = NULL;
    assert_int_equal(D3DKMTOpenResource2(&op.o), STATUS_INVALID_PARAMETER);
    op.o = good;
    op.o.pTotalPrivateDriverDataBuffer = NULL;
    assert_int_equal(D3DKMTOpenResource(&op.o), STATUS_INVALID_PARAMETER);
    op.o = good;
    op.o.TotalPrivateDriverDataBufferSize = sizeof(struct swgpu_alloc_private) - 1;
    assert_int_equal(D3DKMTOpenResource(&op.o), STATUS_NO_MEMORY);
    op.o = good;
    op.o.TotalPrivateDriverDataBufferSize = sizeof(struct swgpu_alloc_private);
    assert_int_equal(D3DKMTOpenResource(&op.o), STATUS_SUCCESS);
    destroy_resource(&o, op.o.hResource);
    destroy_resource(&k, m.res);
    kmt_close(&o);
    kmt_close(&k);
}

/* Wine win32u d3dkmt tests, run on Windows, and WDK: D3DKMTOpenResource2 opens as
 * D3DKMTOpenResource does, describing the allocation in D3DDDI_OPENALLOCATIONINFO2 (its GPU
 * virtual address 0: an open maps nothing). */
/* rule: kernel.d3dkmtopenresource2-same-code (mutation-checked) */
static void open_resource2_fills_open_allocation_info2(void **state)
{
    (void)state;
    struct kmt k, o;
    kmt_open(&k);
    kmt_open(&o);
    struct made m = create(&k, true);
    struct opening op;
    opening_init(&op, &o, m.share);
    op.oi2 = (D3DDDI_OPENALLOCATIONINFO2){ .hAllocation = 0x1eadbeed, .GpuVirtualAddress = 0x5000 };
    op.o.pOpenAllocationInfo2 = &op.oi2;
    assert_int_equal(D3DKMTOpenResource2(&op.o), STATUS_SUCCESS);
    assert_int_equal(op.o.hGlobalShare, m.share);
    assert_int_not_equal(op.o.hResource, 0x1eadbeed);
    assert_int_equal(op.o.PrivateRuntimeDataSize, sizeof runtime_data);
    assert_int_equal(op.o.TotalPrivateDriverDataBufferSize, sizeof(struct swgpu_alloc_private));
    assert_int_not_equal(op.oi2.hAllocation, 0);
    assert_int_not_equal(op.oi2.hAllocation, 0x1eadbeed);
    assert_int_equal(op.oi2.PrivateDriverDataSize, sizeof(struct swgpu_alloc_private));
    assert_ptr_equal(op.oi2.pPrivateDriverData, op.driver);
    kmt_expect_gpu_va(&o, op.oi2.hAllocation, op.oi2.GpuVirtualAddress);
    assert_memory_equal(op.runtime, runtime_data, sizeof runtime_data);
    /* The opened allocation is a real one of the opener: destroyed with its resource. */
    destroy_resource(&o, op.o.hResource);
    D3DKMT_DESTROYALLOCATION da = { .hDevice = o.device, .phAllocationList = &op.oi2.hAllocation,
                                    .AllocationCount = 1 };
    assert_int_equal(D3DKMTDestroyAllocation(&da), STATUS_INVALID_PARAMETER);
    destroy_resource(&k, m.res);
    kmt_close(&o);
    kmt_close(&k);
}

int main(void)
{
    unsetenv("WDDM_ADAPTER_COUNT"); /* the one adapter of a process */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(query_and_open_need_a_global_handle),
        cmocka_unit_test(query_resource_info_answers_sizes_and_writes_no_data),
        cmocka_unit_test(open_resource_copies_runtime_data_and_answers_sizes),
        cmocka_unit_test(open_resource_sizes_must_match),
        cmocka_unit_test(open_resource2_fills_open_allocation_info2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
