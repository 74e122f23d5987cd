/* Shared resources opened on their own adapter (issue 6, docs/semantics.md §6.5): a resource
 * created with D3DKMT_CREATEALLOCATIONFLAGS.CreateShared is opened with D3DKMTOpenResource by
 * another device of the same adapter; the opener's allocation handle names the creator's
 * memory (one set of instances), which lives until the last handle goes. A shared resource
 * that is not cross-adapter opens only on its own adapter. Real stack: reference KMD, software
 * GPU, two adapters (WDDM_ADAPTER_COUNT=2). */
#include "real_env.h"

#include "dxgkrnl/objects/objects.h"

#define SIZE 8192u

/* Devices (each with a context) on the adapters `which[i]` of one enumeration; every side
 * closes its own adapter handle (renv_close), the unused handles are closed here. */
static void sides_open(struct renv *e, const int *which, int n)
{
    D3DKMT_HANDLE unused[4];
    for (int i = 0; i < n; i++) {
        D3DKMT_ADAPTERINFO info[4];
        D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 4, .pAdapters = info };
        assert_int_equal(D3DKMTEnumAdapters2(&en), STATUS_SUCCESS);
        /* Both adapters, or the one still running (adapter 0: listed first). */
        assert_true(en.NumAdapters > (UINT)which[i]);
        renv_open_on(&e[i], info[which[i]].hAdapter);
        unused[i] = en.NumAdapters == 2 ? info[!which[i]].hAdapter : 0; /* closed once every side holds its own */
    }
    for (int i = 0; i < n; i++) {
        D3DKMT_CLOSEADAPTER c = { .hAdapter = unused[i] };
        if (unused[i])
            assert_int_equal(D3DKMTCloseAdapter(&c), STATUS_SUCCESS);
    }
}

static void side_open(struct renv *e, int which)
{
    sides_open(e, &which, 1);
}

struct shared {
    D3DKMT_HANDLE alloc, res, share;
};

/* A shared resource of `n` allocations of `kind` (CreateShared + CreateResource). */
static NTSTATUS try_create_shared(struct renv *e, UINT32 kind, UINT n, struct shared *out)
{
    struct swgpu_alloc_private p = { .magic = SWGPU_PRIVATE_MAGIC, .version = SWGPU_PRIVATE_VERSION,
                                     .kind = kind, .size = SIZE, .dimension = 1, .width = SIZE,
                                     .height = 1, .depth = 1, .mip_levels = 1, .array_size = 1 };
    D3DDDI_ALLOCATIONINFO ai[2] = { { .pPrivateDriverData = &p, .PrivateDriverDataSize = sizeof p },
                                    { .pPrivateDriverData = &p, .PrivateDriverDataSize = sizeof p } };
    static const UINT8 runtime[24] = "runtime data of the app";
    D3DKMT_CREATEALLOCATION ca = { .hDevice = e->device, .NumAllocations = n, .pAllocationInfo = ai,
                                   .pPrivateRuntimeData = runtime, .PrivateRuntimeDataSize = sizeof runtime };
    ca.Flags.CreateShared = 1;
    ca.Flags.CreateResource = 1;
    memset(out, 0, sizeof *out);
    NTSTATUS st = D3DKMTCreateAllocation(&ca);
    out->alloc = ai[0].hAllocation;
    out->res = ca.hResource;
    out->share = ca.hGlobalShare;
    return st;
}

static struct shared create_shared(struct renv *e, UINT32 kind)
{
    struct shared s;
    assert_int_equal(try_create_shared(e, kind, 1, &s), STATUS_SUCCESS);
    assert_int_not_equal(s.share, 0);
    return s;
}

static NTSTATUS try_open(struct renv *e, D3DKMT_HANDLE share, struct shared *out)
{
    memset(out, 0, sizeof *out);
    D3DKMT_QUERYRESOURCEINFO q = { .hDevice = e->device, .hGlobalShare = share };
    NTSTATUS st = D3DKMTQueryResourceInfo(&q);
    if (!NT_SUCCESS(st))
        return st;
    assert_int_equal(q.NumAllocations, 1);
    assert_int_equal(q.TotalPrivateDriverDataSize, sizeof(struct swgpu_alloc_private));
    assert_int_equal(q.PrivateRuntimeDataSize, 24);
    UINT8 total[sizeof(struct swgpu_alloc_private)], runtime[24] = { 0 };
    D3DDDI_OPENALLOCATIONINFO oi = { 0 };
    D3DKMT_OPENRESOURCE o = { .hDevice = e->device, .hGlobalShare = share, .NumAllocations = 1,
                              .pOpenAllocationInfo = &oi, .pTotalPrivateDriverDataBuffer = total,
                              .TotalPrivateDriverDataBufferSize = sizeof total, .pPrivateRuntimeData = runtime,
                              .PrivateRuntimeDataSize = sizeof runtime };
    st = D3DKMTOpenResource(&o);
    if (!NT_SUCCESS(st))
        return st;
    assert_string_equal((const char *)runtime, "runtime data of the app");
    assert_int_not_equal(oi.hAllocation, 0);
    assert_int_not_equal(o.hResource, 0);
    out->alloc = oi.hAllocation;
    out->res = o.hResource;
    out->share = share;
    return STATUS_SUCCESS;
}

static void destroy_res(struct renv *e, const struct shared *s)
{
    D3DKMT_DESTROYALLOCATION da = { .hDevice = e->device, .hResource = s->res };
    assert_int_equal(D3DKMTDestroyAllocation(&da), STATUS_SUCCESS);
}

/* ---- same memory ------------------------------------------------------------------------- */

/* Issue 6: the opener's handle names the creator's allocation (one VidMm object, the same
 * instances): the creator's GPU writes it, the opener's GPU and CPU read the bytes, and the
 * opener's GPU write is read back through the creator's handle. */
/* rule: kernel.d3dkmtopenresource-creator-adapter-new (mutation-checked) */
/* rule: kernel.every-d3dkmt-lookup-opened-handle-works */
/* rule: kernel.write-through-one-handle-read-through */
/* rule: kernel.opened-handle-belongs-opener-device */
static void same_adapter_open_names_the_creators_memory(void **state)
{
    (void)state;
    struct renv e[2];
    sides_open(e, (const int[]){ 0, 0 }, 2);
    struct renv a1 = e[0], a2 = e[1];
    struct shared made = create_shared(&a1, SWGPU_ALLOC_GPU_ONLY), opened;
    assert_int_equal(try_open(&a2, made.share, &opened), STATUS_SUCCESS);
    assert_int_not_equal(opened.alloc, made.alloc);

    struct dxgk_allocation *x = dxgk_allocation_get(made.alloc, NULL, NULL);
    struct dxgk_allocation *y = dxgk_allocation_get(opened.alloc, NULL, NULL);
    assert_non_null(x);
    assert_ptr_equal(x, y); /* one memory object behind both handles */
    dxgk_object_put(&x->obj);
    dxgk_object_put(&y->obj);

    D3DKMT_HANDLE up1 = renv_alloc(&a1, SWGPU_ALLOC_UPLOAD, SIZE), rb1 = renv_alloc(&a1, SWGPU_ALLOC_READBACK, SIZE);
    D3DKMT_HANDLE up2 = renv_alloc(&a2, SWGPU_ALLOC_UPLOAD, SIZE), rb2 = renv_alloc(&a2, SWGPU_ALLOC_READBACK, SIZE);
    renv_gpu_write(&a1, made.alloc, up1, SIZE, 11);
    renv_gpu_check(&a2, opened.alloc, rb2, SIZE, 11); /* a readback waits for the write (same instance) */
    renv_gpu_write(&a2, opened.alloc, up2, SIZE, 12);
    renv_gpu_check(&a1, made.alloc, rb1, SIZE, 12);
    /* The opener's handle is refused on the creator's device: it belongs to the opener's. */
    wddm_clear_refusals();
    assert_int_equal(renv_copy(&a1, rb1, opened.alloc, SIZE), STATUS_INVALID_PARAMETER);
    destroy_res(&a2, &opened);
    destroy_res(&a1, &made);
    renv_close(&a2);
    renv_close(&a1);
}

/* A CPU-visible shared allocation: a lock through the opener's handle sees what the creator
 * wrote through its lock (the same instance), and the lock is the allocation's (one count). */
/* rule: kernel.every-d3dkmt-lookup-opened-handle-works */
/* rule: kernel.write-through-one-handle-read-through */
static void same_adapter_open_locks_the_same_instance(void **state)
{
    (void)state;
    struct renv e[2];
    sides_open(e, (const int[]){ 0, 0 }, 2);
    struct renv a1 = e[0], a2 = e[1];
    struct shared made = create_shared(&a1, SWGPU_ALLOC_READBACK), opened;
    assert_int_equal(try_open(&a2, made.share, &opened), STATUS_SUCCESS);
    void *p, *q;
    assert_int_equal(renv_lock(&a1, made.alloc, LOCK_WRITEONLY, &p), STATUS_SUCCESS);
    renv_pattern(p, SIZE, 5);
    renv_unlock(&a1, made.alloc);
    assert_int_equal(renv_lock(&a2, opened.alloc, LOCK_READONLY, &q), STATUS_SUCCESS);
    UINT8 want[SIZE];
    renv_pattern(want, SIZE, 5);
    assert_memory_equal(q, want, SIZE);
    renv_unlock(&a2, opened.alloc);
    /* Unlocking through the other handle after its own unlock: nothing is locked any more. */
    D3DKMT_UNLOCK u = { .hDevice = a2.device, .NumAllocations = 1, .phAllocations = &opened.alloc };
    wddm_clear_refusals();
    assert_int_equal(D3DKMTUnlock(&u), STATUS_INVALID_PARAMETER);
    renv_expect_refusal("not locked");
    renv_close(&a2); /* the device destruction takes the opened resource along */
    destroy_res(&a1, &made);
    renv_close(&a1);
}

/* ---- lifetime ---------------------------------------------------------------------------- */

/* The memory lives until the last handle goes: the creator destroys its resource and its
 * device; the opener still reads the content with its GPU and writes it again. After the
 * opener's handle goes too, the share is gone (ASan: no leak, no use after free). */
/* rule: kernel.memory-lives-until-last-handle-goes */
static void creator_gone_first_the_opener_keeps_the_memory(void **state)
{
    (void)state;
    struct renv e[2];
    sides_open(e, (const int[]){ 0, 0 }, 2);
    struct renv a1 = e[0], a2 = e[1];
    struct shared made = create_shared(&a1, SWGPU_ALLOC_GPU_ONLY), opened;
    D3DKMT_HANDLE up1 = renv_alloc(&a1, SWGPU_ALLOC_UPLOAD, SIZE);
    renv_gpu_write(&a1, made.alloc, up1, SIZE, 21);
    assert_int_equal(try_open(&a2, made.share, &opened), STATUS_SUCCESS);
    destroy_res(&a1, &made);
    renv_close(&a1);
    D3DKMT_HANDLE up2 = renv_alloc(&a2, SWGPU_ALLOC_UPLOAD, SIZE), rb2 = renv_alloc(&a2, SWGPU_ALLOC_READBACK, SIZE);
    renv_gpu_check(&a2, opened.alloc, rb2, SIZE, 21);
    /* The calls that walk a resource's allocations reach the creator's, whose device is gone:
     * they answer through the opener's adapter (ASan: no use of the freed device). */
    D3DKMT_ALLOCATIONRESIDENCYSTATUS rs = 0;
    D3DKMT_QUERYALLOCATIONRESIDENCY qr = { .hDevice = a2.device, .hResource = opened.res, .pResidencyStatus = &rs };
    assert_int_equal(D3DKMTQueryAllocationResidency(&qr), STATUS_SUCCESS);
    assert_int_equal(rs, D3DKMT_ALLOCATIONRESIDENCYSTATUS_RESIDENTINGPUMEMORY);
    /* Still an allocation VidMm places: evicted and made resident again, the bytes stay. */
    D3DKMT_HANDLE list[1] = { opened.alloc };
    assert_true(NT_SUCCESS(renv_make_resident(a2.device, list, 1)));
    assert_int_equal(renv_evict(a2.device, list, 1), STATUS_SUCCESS);
    renv_gpu_write(&a2, opened.alloc, up2, SIZE, 22);
    renv_gpu_check(&a2, opened.alloc, rb2, SIZE, 22);
    /* A second device opens it while the opener's handle lives. */
    struct renv a3;
    struct shared third;
    side_open(&a3, 0);
    assert_int_equal(try_open(&a3, made.share, &third), STATUS_SUCCESS);
    destroy_res(&a2, &opened);
    D3DKMT_HANDLE rb3 = renv_alloc(&a3, SWGPU_ALLOC_READBACK, SIZE);
    renv_gpu_check(&a3, third.alloc, rb3, SIZE, 22);
    destroy_res(&a3, &third);
    /* The last handle went: the global share handle names nothing. */
    wddm_clear_refusals();
    assert_int_equal(try_open(&a3, made.share, &third), STATUS_INVALID_PARAMETER);
    renv_expect_refusal("not a global share handle");
    renv_close(&a3);
    renv_close(&a2);
}

/* The opener goes first: the creator's memory is untouched. */
/* rule: kernel.memory-lives-until-last-handle-goes (ASan: no leak, no use after free; mutation-checked) */
static void opener_gone_first_the_creator_keeps_the_memory(void **state)
{
    (void)state;
    struct renv e[2];
    sides_open(e, (const int[]){ 0, 0 }, 2);
    struct renv a1 = e[0], a2 = e[1];
    struct shared made = create_shared(&a1, SWGPU_ALLOC_GPU_ONLY), opened;
    assert_int_equal(try_open(&a2, made.share, &opened), STATUS_SUCCESS);
    D3DKMT_HANDLE up2 = renv_alloc(&a2, SWGPU_ALLOC_UPLOAD, SIZE);
    renv_gpu_write(&a2, opened.alloc, up2, SIZE, 31);
    renv_close(&a2);
    D3DKMT_HANDLE rb1 = renv_alloc(&a1, SWGPU_ALLOC_READBACK, SIZE);
    renv_gpu_check(&a1, made.alloc, rb1, SIZE, 31);
    destroy_res(&a1, &made);
    renv_close(&a1);
}

/* ---- refusals ---------------------------------------------------------------------------- */

/* Issue 6 / seed 003: a shared resource that is not cross-adapter is not reachable from another
 * adapter's device; bad and non-share handles, and a resource of two allocations, are refused. */
/* rule: kernel.non-shared-allocation-handle-forged */
/* rule: kernel.d3dkmtcreateallocation-createshared */
static void opens_refused_with_a_line(void **state)
{
    (void)state;
    struct renv e[2];
    sides_open(e, (const int[]){ 0, 1 }, 2);
    struct renv a1 = e[0], b = e[1];
    struct shared made = create_shared(&a1, SWGPU_ALLOC_GPU_ONLY), x;
    wddm_clear_refusals();
    assert_int_equal(try_open(&b, made.share, &x), STATUS_NOT_SUPPORTED);
    renv_expect_refusal("opens only on the adapter that created it");
    wddm_clear_refusals();
    assert_int_equal(try_open(&a1, made.alloc, &x), STATUS_INVALID_PARAMETER);
    renv_expect_refusal("not a global share handle");
    struct shared two;
    assert_int_equal(try_create_shared(&a1, SWGPU_ALLOC_GPU_ONLY, 2, &two), STATUS_SUCCESS);
    wddm_clear_refusals();
    assert_int_equal(try_open(&a1, two.share, &x), STATUS_NOT_SUPPORTED);
    renv_expect_refusal("2 allocations");
    renv_close(&b);
    renv_close(&a1);
}

/* A cross-adapter resource opened on its own adapter is the same kind of open: one memory. */
/* rule: kernel.cross-adapter-resource-opened-own */
static void cross_adapter_resource_opens_on_its_own_adapter(void **state)
{
    (void)state;
    struct renv e[2];
    sides_open(e, (const int[]){ 0, 0 }, 2);
    struct renv a1 = e[0], a2 = e[1];
    struct swgpu_alloc_private p = { .magic = SWGPU_PRIVATE_MAGIC, .version = SWGPU_PRIVATE_VERSION,
                                     .kind = SWGPU_ALLOC_CROSS_ADAPTER, .format = 87 /* B8G8R8A8_UNORM */,
                                     .dimension = 3, .width = 64, .height = 32, .depth = 1, .mip_levels = 1,
                                     .array_size = 1, .xa_usage = SWGPU_XA_USAGE_COPY, .xa_bytes_per_pixel = 4 };
    D3DDDI_ALLOCATIONINFO ai = { .pPrivateDriverData = &p, .PrivateDriverDataSize = sizeof p };
    D3DKMT_CREATEALLOCATION ca = { .hDevice = a1.device, .NumAllocations = 1, .pAllocationInfo = &ai };
    ca.Flags.CreateShared = ca.Flags.CreateResource = ca.Flags.CrossAdapter = 1;
    assert_int_equal(D3DKMTCreateAllocation(&ca), STATUS_SUCCESS);
    D3DKMT_QUERYRESOURCEINFO q = { .hDevice = a2.device, .hGlobalShare = ca.hGlobalShare };
    assert_int_equal(D3DKMTQueryResourceInfo(&q), STATUS_SUCCESS);
    UINT8 total[sizeof p];
    D3DDDI_OPENALLOCATIONINFO oi = { 0 };
    D3DKMT_OPENRESOURCE o = { .hDevice = a2.device, .hGlobalShare = ca.hGlobalShare, .NumAllocations = 1,
                              .pOpenAllocationInfo = &oi, .pTotalPrivateDriverDataBuffer = total,
                              .TotalPrivateDriverDataBufferSize = sizeof total };
    assert_int_equal(D3DKMTOpenResource(&o), STATUS_SUCCESS);
    struct dxgk_allocation *x = dxgk_allocation_get(ai.hAllocation, NULL, NULL);
    struct dxgk_allocation *y = dxgk_allocation_get(oi.hAllocation, NULL, NULL);
    assert_ptr_equal(x, y);
    dxgk_object_put(&x->obj);
    dxgk_object_put(&y->obj);
    memcpy(&p, total, sizeof p);
    UINT32 size = (UINT32)p.size;
    D3DKMT_HANDLE up1 = renv_alloc(&a1, SWGPU_ALLOC_UPLOAD, size), rb2 = renv_alloc(&a2, SWGPU_ALLOC_READBACK, size);
    renv_gpu_write(&a1, ai.hAllocation, up1, size, 41);
    renv_gpu_check(&a2, oi.hAllocation, rb2, size, 41);
    renv_close(&a1);
    renv_gpu_check(&a2, oi.hAllocation, rb2, size, 41);
    renv_close(&a2);
}

/* ---- GpuMmu ------------------------------------------------------------------------------ */

static void gpu_va_copy(struct renv *e, D3DKMT_HANDLE cmd, D3DGPU_VIRTUAL_ADDRESS cmd_va, D3DGPU_VIRTUAL_ADDRESS dst,
                        D3DGPU_VIRTUAL_ADDRESS src)
{
    void *p = renv_lock2(e->device, cmd);
    UINT len = renv_va_copy_cmd(p, dst, src, SIZE);
    renv_unlock2(e->device, cmd);
    assert_int_equal(renv_submit(e->context, cmd_va, len), STATUS_SUCCESS);
    renv_finish(e->device, e->context);
}

/* Issue 6, GpuMmu model: the opener maps its handle (the creator's memory) in the process's GPU
 * VA space and reads through it what the creator's GPU wrote through its own mapping. */
/* rule: vidmm.gpummu-opener-maps-handle-own-va */
static void gpummu_opener_reads_through_its_mapping(void **state)
{
    (void)state;
    renv_gpummu_caps(NULL);
    struct renv e[2];
    sides_open(e, (const int[]){ 0, 0 }, 2);
    struct renv a1 = e[0], a2 = e[1];
    struct shared made = create_shared(&a1, SWGPU_ALLOC_GPU_ONLY), opened;
    assert_int_equal(try_open(&a2, made.share, &opened), STATUS_SUCCESS);
    D3DKMT_HANDLE cmd1 = renv_alloc(&a1, SWGPU_ALLOC_UPLOAD, 4096), src = renv_alloc(&a1, SWGPU_ALLOC_UPLOAD, SIZE);
    D3DKMT_HANDLE l1[3] = { cmd1, src, made.alloc };
    assert_true(NT_SUCCESS(renv_make_resident(a1.device, l1, 3)));
    D3DGPU_VIRTUAL_ADDRESS cmd1_va = renv_map(a1.device, cmd1, 1, false);
    D3DGPU_VIRTUAL_ADDRESS src_va = renv_map(a1.device, src, SIZE / 4096, false);
    D3DGPU_VIRTUAL_ADDRESS made_va = renv_map(a1.device, made.alloc, SIZE / 4096, true);
    void *p = renv_lock2(a1.device, src);
    renv_pattern(p, SIZE, 51);
    renv_unlock2(a1.device, src);
    gpu_va_copy(&a1, cmd1, cmd1_va, made_va, src_va);

    D3DKMT_HANDLE cmd2 = renv_alloc(&a2, SWGPU_ALLOC_UPLOAD, 4096), rb = renv_alloc(&a2, SWGPU_ALLOC_READBACK, SIZE);
    D3DKMT_HANDLE l2[3] = { cmd2, rb, opened.alloc };
    assert_true(NT_SUCCESS(renv_make_resident(a2.device, l2, 3)));
    D3DGPU_VIRTUAL_ADDRESS cmd2_va = renv_map(a2.device, cmd2, 1, false);
    D3DGPU_VIRTUAL_ADDRESS rb_va = renv_map(a2.device, rb, SIZE / 4096, true);
    D3DGPU_VIRTUAL_ADDRESS opened_va = renv_map(a2.device, opened.alloc, SIZE / 4096, false);
    assert_int_not_equal(opened_va, made_va); /* two mappings of one memory */
    gpu_va_copy(&a2, cmd2, cmd2_va, rb_va, opened_va);
    UINT8 want[SIZE];
    renv_pattern(want, SIZE, 51);
    p = renv_lock2(a2.device, rb);
    assert_memory_equal(p, want, SIZE);
    renv_unlock2(a2.device, rb);
    assert_int_equal(renv_exec_state(a1.device), D3DKMT_DEVICEEXECUTION_ACTIVE);
    assert_int_equal(renv_exec_state(a2.device), D3DKMT_DEVICEEXECUTION_ACTIVE);
    /* The creator goes first; the opener's mapping still reads the memory. */
    renv_close(&a1);
    memset(want, 0, sizeof want);
    p = renv_lock2(a2.device, rb);
    memset(p, 0, SIZE);
    renv_unlock2(a2.device, rb);
    gpu_va_copy(&a2, cmd2, cmd2_va, rb_va, opened_va);
    renv_pattern(want, SIZE, 51);
    p = renv_lock2(a2.device, rb);
    assert_memory_equal(p, want, SIZE);
    renv_unlock2(a2.device, rb);
    assert_int_equal(renv_exec_state(a2.device), D3DKMT_DEVICEEXECUTION_ACTIVE);
    renv_close(&a2);
    unsetenv("WDDM_KMD_CAPS");
}

int main(void)
{
    setenv("WDDM_ADAPTER_COUNT", "2", 1);
    setenv("WDDM_SEGMENT_LOCAL_MB", "1", 1);
    setenv("WDDM_SEGMENT_VISIBLE_MB", "1", 1);
    setenv("WDDM_SEGMENT_APERTURE_MB", "4", 1);
    unsetenv("WDDM_KMD_CAPS");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_adapter_open_names_the_creators_memory),
        cmocka_unit_test(same_adapter_open_locks_the_same_instance),
        cmocka_unit_test(creator_gone_first_the_opener_keeps_the_memory),
        cmocka_unit_test(opener_gone_first_the_creator_keeps_the_memory),
        cmocka_unit_test(opens_refused_with_a_line),
        cmocka_unit_test(cross_adapter_resource_opens_on_its_own_adapter),
        cmocka_unit_test(gpummu_opener_reads_through_its_mapping),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
