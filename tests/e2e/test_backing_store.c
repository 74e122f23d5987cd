/* Issue 6, sharing the backing store with the KMD (seed 002, docs/semantics.md §7), the whole flow
 * at the D3DKMT boundary: the caller plays the UMD (D3DKMTCreateAllocation with CreateShared and
 * the driver package's private data asking for sharing), the reference KMD sets
 * Flags2.ShareBackingStoreWithKmd, the kernel verifies it and hands the KMD the backing store
 * (DxgkDdiSetAllocationBackingStore), D3DKMTLock2 gives the caller the same memory, and the
 * KMD's escape (src/kmd/escape.c) reads and writes it through its pointer.
 *
 * A KMD that wraps the reference one records the DDI calls and, for the verifier tests,
 * breaks the rules on purpose after the reference KMD described the allocation. */
/* rule: build.both-models-pass-same-end-end (both runs) */
/* rule: kernel.d3dkmtcreateallocation-createshared-2 */
#include "e2e/e2e.h"

#include <stdbool.h>

#include <wddm/d3dkmddi.h>
#include <wddm/d3dkmthk.h>
#include <wddm/wddm.h>

#include "drv/swgpu_private.h"
#include "gpu/swgpu_isa.h"
#include "kmd/kmd.h"

#define SIZE 8192u

enum misbehave { BEHAVE = 0, FORCE_SHARE_FLAG, ADD_LOCAL_SEGMENT };

static struct {
    enum misbehave mode;
    int set_backing_calls;
    void *backing;                  /* the last pointer the KMD was given */
    HANDLE backing_alloc;
    int destroyed_with_backing;     /* DestroyAllocation of the allocation that had it */
} rec;

static NTSTATUS APIENTRY wrap_create(const HANDLE a, DXGKARG_CREATEALLOCATION *args)
{
    NTSTATUS st = SwKmdCreateAllocation(a, args);
    if (!NT_SUCCESS(st))
        return st;
    for (UINT i = 0; i < args->NumAllocations; i++) {
        DXGK_ALLOCATIONINFO *info = &args->pAllocationInfo[i];
        if (rec.mode == FORCE_SHARE_FLAG)
            info->Flags2.ShareBackingStoreWithKmd = 1;
        if (rec.mode == ADD_LOCAL_SEGMENT) {
            info->SupportedReadSegmentSet |= 1u << (SWKMD_SEGMENT_VISIBLE - 1);
            info->SupportedWriteSegmentSet |= 1u << (SWKMD_SEGMENT_VISIBLE - 1);
        }
    }
    return st;
}

static NTSTATUS APIENTRY wrap_set_backing(const HANDLE a, const DXGKARG_SETALLOCATIONBACKINGSTORE *args)
{
    rec.set_backing_calls++;
    rec.backing = args->pBackingStore;
    rec.backing_alloc = args->hDriverAllocation;
    return SwKmdSetAllocationBackingStore(a, args);
}

static NTSTATUS APIENTRY wrap_destroy(const HANDLE a, const DXGKARG_DESTROYALLOCATION *args)
{
    for (UINT i = 0; i < args->NumAllocations; i++) {
        if (rec.backing && args->pAllocationList[i] == rec.backing_alloc) {
            /* The pointer is still valid here (seed 002 model: until DestroyAllocation). */
            volatile UINT8 *p = rec.backing;
            (void)p[0];
            (void)p[SIZE - 1];
            rec.destroyed_with_backing++;
        }
    }
    return SwKmdDestroyAllocation(a, args);
}

static NTSTATUS wrap_entry(PDRIVER_OBJECT drv, PVOID reg)
{
    DRIVER_INITIALIZATION_DATA d;
    SwKmdGetDriverInitializationData(&d);
    d.DxgkDdiCreateAllocation = wrap_create;
    d.DxgkDdiSetAllocationBackingStore = wrap_set_backing;
    d.DxgkDdiDestroyAllocation = wrap_destroy;
    return DxgkInitialize(drv, reg, &d);
}

static struct {
    D3DKMT_HANDLE adapter, device, context;
    D3DKMT_CREATECONTEXT cc;
} env;

static int open_env(void **state)
{
    (void)state;
    memset(&rec, 0, sizeof rec);
    memset(&env, 0, sizeof env);
    wddm_set_kmd_entry(wrap_entry);
    D3DKMT_ADAPTERINFO ai[2];
    D3DKMT_ENUMADAPTERS2 e = {.NumAdapters = 2, .pAdapters = ai};
    if (!NT_SUCCESS(D3DKMTEnumAdapters2(&e)))
        return -1;
    env.adapter = ai[0].hAdapter;
    D3DKMT_CREATEDEVICE cd = {.hAdapter = env.adapter};
    if (!NT_SUCCESS(D3DKMTCreateDevice(&cd)))
        return -1;
    env.device = cd.hDevice;
    env.cc = (D3DKMT_CREATECONTEXT){.hDevice = env.device, .NodeOrdinal = SWKMD_NODE_3D};
    if (!NT_SUCCESS(D3DKMTCreateContext(&env.cc)))
        return -1;
    env.context = env.cc.hContext;
    return 0;
}

static int close_env(void **state)
{
    (void)state;
    wddm_swgpu_set_paused(0);
    D3DKMT_DESTROYDEVICE dd = {.hDevice = env.device};
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_SUCCESS);
    D3DKMT_CLOSEADAPTER ca = {.hAdapter = env.adapter};
    assert_int_equal(D3DKMTCloseAdapter(&ca), STATUS_SUCCESS);
    wddm_set_kmd_entry(NULL);
    unsetenv("WDDM_FEATURES");
    return 0;
}

static NTSTATUS create(UINT32 kind, UINT32 flags, bool shared, D3DKMT_HANDLE *out)
{
    struct swgpu_alloc_private p = {.magic = SWGPU_PRIVATE_MAGIC, .version = SWGPU_PRIVATE_VERSION,
                                    .kind = kind, .size = SIZE, .dimension = 1, .width = SIZE,
                                    .height = 1, .depth = 1, .mip_levels = 1, .array_size = 1, .flags = flags};
    D3DDDI_ALLOCATIONINFO ai = {.pPrivateDriverData = &p, .PrivateDriverDataSize = sizeof p};
    D3DKMT_CREATEALLOCATION ca = {.hDevice = env.device, .NumAllocations = 1, .pAllocationInfo = &ai};
    ca.Flags.CreateShared = shared ? 1 : 0;
    ca.Flags.CreateResource = shared ? 1 : 0; /* WDK: CreateShared needs CreateResource (Windows refuses it alone) */
    NTSTATUS st = D3DKMTCreateAllocation(&ca);
    *out = ai.hAllocation;
    return st;
}

static D3DKMT_HANDLE create_shared(void)
{
    D3DKMT_HANDLE h = 0;
    assert_int_equal(create(SWGPU_ALLOC_READBACK, SWGPU_ALLOC_FLAG_SHARE_BACKING_STORE_WITH_KMD, true, &h),
                     STATUS_SUCCESS);
    return h;
}

static void destroy(D3DKMT_HANDLE h)
{
    D3DKMT_DESTROYALLOCATION da = {.hDevice = env.device, .phAllocationList = &h, .AllocationCount = 1};
    assert_int_equal(D3DKMTDestroyAllocation(&da), STATUS_SUCCESS);
}

static UINT8 *lock2(D3DKMT_HANDLE h)
{
    D3DKMT_LOCK2 l = {.hDevice = env.device, .hAllocation = h};
    assert_int_equal(D3DKMTLock2(&l), STATUS_SUCCESS);
    assert_non_null(l.pData);
    return l.pData;
}

static void unlock2(D3DKMT_HANDLE h)
{
    D3DKMT_UNLOCK2 u = {.hDevice = env.device, .hAllocation = h};
    assert_int_equal(D3DKMTUnlock2(&u), STATUS_SUCCESS);
}

static NTSTATUS escape(UINT32 op, D3DKMT_HANDLE h, UINT32 offset, UINT32 size, UINT8 *data)
{
    struct swgpu_escape e = {.magic = SWGPU_PRIVATE_MAGIC, .version = SWGPU_PRIVATE_VERSION, .op = op,
                             .hAllocation = h, .offset = offset, .size = size};
    if (op == SWGPU_ESCAPE_WRITE_BACKING_STORE)
        memcpy(e.data, data, size);
    D3DKMT_ESCAPE esc = {.hAdapter = env.adapter, .hDevice = env.device, .Type = D3DKMT_ESCAPE_DRIVERPRIVATE,
                         .pPrivateDriverData = &e, .PrivateDriverDataSize = sizeof e};
    NTSTATUS st = D3DKMTEscape(&esc);
    if (NT_SUCCESS(st) && op == SWGPU_ESCAPE_READ_BACKING_STORE)
        memcpy(data, e.data, size);
    return st;
}

static void expect_refusal_names(const char *what)
{
    char why[1100];
    wddm_last_refusals(why, sizeof why);
    if (!strstr(why, what))
        fail_msg("the refusal does not name \"%s\":\n%s", what, why);
}

/* rule: kernel.kernel-commits-backing-store-creation */
/* rule: vidmm.d3dkmtlock2-d3dkmtunlock2-cpu-pointer-no */
static void seed002_kernel_gives_the_kmd_the_backing_store_once_before_create_returns(void **state)
{
    (void)state;
    D3DKMT_HANDLE h = create_shared();
    assert_int_equal(rec.set_backing_calls, 1);
    assert_non_null(rec.backing);
    assert_int_equal((uintptr_t)rec.backing % 4096u, 0);
    /* Lock2 gives the caller a pointer to that same memory. */
    UINT8 *p = lock2(h);
    assert_ptr_equal(p, rec.backing);
    unlock2(h);
    destroy(h);
    /* The destruction may wait for the GPU's MAP of the allocation: destroying the device
     * drains it. A new device keeps the fixture whole. */
    D3DKMT_DESTROYDEVICE dd = {.hDevice = env.device};
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_SUCCESS);
    D3DKMT_CREATEDEVICE cd = {.hAdapter = env.adapter};
    assert_int_equal(D3DKMTCreateDevice(&cd), STATUS_SUCCESS);
    env.device = cd.hDevice;
    /* No second call (no NULL notification), and the pointer was valid in DestroyAllocation. */
    assert_int_equal(rec.set_backing_calls, 1);
    assert_int_equal(rec.destroyed_with_backing, 1);
}

/* rule: kernel.d3dkmtescape-dxgkddiescape-d3dkmt-escape */
static void seed002_umd_writes_and_the_kmd_reads_through_its_pointer(void **state)
{
    (void)state;
    D3DKMT_HANDLE h = create_shared();
    UINT8 *p = lock2(h);
    e2e_fill(p, SIZE, 21);
    UINT8 want[SWGPU_ESCAPE_DATA_MAX], got[SWGPU_ESCAPE_DATA_MAX];
    memcpy(want, p + 4000, sizeof want);
    unlock2(h);
    memset(got, 0, sizeof got);
    assert_int_equal(escape(SWGPU_ESCAPE_READ_BACKING_STORE, h, 4000, sizeof got, got), STATUS_SUCCESS);
    assert_memory_equal(got, want, sizeof want);
    destroy(h);
}

/* rule: vidmm.vidmm-never-renames-discards-re-commits */
/* rule: kernel.d3dkmtescape-dxgkddiescape-d3dkmt-escape */
static void seed002_kmd_writes_and_the_umd_reads_through_lock2(void **state)
{
    (void)state;
    D3DKMT_HANDLE h = create_shared();
    UINT8 data[SWGPU_ESCAPE_DATA_MAX];
    e2e_fill(data, sizeof data, 22);
    /* Before any lock or residency: the first placement must keep what the KMD wrote. */
    assert_int_equal(escape(SWGPU_ESCAPE_WRITE_BACKING_STORE, h, SIZE - sizeof data, sizeof data, data),
                     STATUS_SUCCESS);
    UINT8 *p = lock2(h);
    assert_memory_equal(p + SIZE - sizeof data, data, sizeof data);
    for (UINT i = 0; i < SIZE - sizeof data; i++)
        assert_int_equal(p[i], 0); /* the rest is the zeroed fresh backing store */
    /* And again while the caller holds the lock. */
    e2e_fill(data, sizeof data, 23);
    assert_int_equal(escape(SWGPU_ESCAPE_WRITE_BACKING_STORE, h, 0, sizeof data, data), STATUS_SUCCESS);
    assert_memory_equal(p, data, sizeof data);
    unlock2(h);
    destroy(h);
}

/* One DMA buffer: COPY of `bytes` from src to dst, both patched by the KMD. */
static NTSTATUS gpu_copy(D3DKMT_HANDLE dst, D3DKMT_HANDLE src, UINT32 bytes)
{
    struct swgpu_cmd_copy c = swgpu_cmd_copy_bytes(bytes);
    if (!env.cc.pCommandBuffer) {
        /* GpuMmu adapter (issue 6): contexts get no command buffer and D3DKMTRender is refused. */
        D3DKMT_RENDER r = {.hContext = env.context, .CommandLength = sizeof c};
        return D3DKMTRender(&r);
    }
    memcpy(env.cc.pCommandBuffer, &c, sizeof c);
    env.cc.pAllocationList[0] = (D3DDDI_ALLOCATIONLIST){.hAllocation = dst};
    env.cc.pAllocationList[0].WriteOperation = 1;
    env.cc.pAllocationList[1] = (D3DDDI_ALLOCATIONLIST){.hAllocation = src};
    env.cc.pPatchLocationList[0] = (D3DDDI_PATCHLOCATIONLIST){
        .AllocationIndex = 0, .PatchOffset = (UINT)offsetof(struct swgpu_cmd_copy, dst.addr)};
    env.cc.pPatchLocationList[1] = (D3DDDI_PATCHLOCATIONLIST){
        .AllocationIndex = 1, .PatchOffset = (UINT)offsetof(struct swgpu_cmd_copy, src.addr)};
    D3DKMT_RENDER r = {.hContext = env.context, .CommandLength = sizeof c, .AllocationCount = 2,
                       .PatchLocationCount = 2};
    return D3DKMTRender(&r);
}

/* rule: vidmm.d3dkmtlock2-d3dkmtunlock2-cpu-pointer-no */
static void seed002_make_resident_works_and_the_gpu_sees_what_the_kmd_wrote(void **state)
{
    (void)state;
    D3DKMT_HANDLE h = create_shared();
    D3DKMT_HANDLE dst = 0;
    assert_int_equal(create(SWGPU_ALLOC_READBACK, 0, false, &dst), STATUS_SUCCESS);
    D3DDDI_MAKERESIDENT mr = {.hPagingQueue = env.device, .NumAllocations = 1, .AllocationList = &h};
    NTSTATUS st = D3DKMTMakeResident(&mr);
    assert_true(st == STATUS_SUCCESS || st == STATUS_PENDING); /* PENDING: a paging fence to wait for */
    UINT8 data[SWGPU_ESCAPE_DATA_MAX];
    e2e_fill(data, sizeof data, 24);
    assert_int_equal(escape(SWGPU_ESCAPE_WRITE_BACKING_STORE, h, 0, sizeof data, data), STATUS_SUCCESS);
    if (e2e_gpummu() == 1) {
        /* WDDM 1.x-only copy (allocation + patch list): in the GpuMmu model D3DKMTRender is
         * refused; MakeResident of the shared backing store (above) and Lock2 still hold. */
        assert_int_equal(gpu_copy(dst, h, sizeof data), STATUS_NOT_SUPPORTED);
        assert_ptr_equal(lock2(h), rec.backing);
        unlock2(h);
        destroy(dst);
        destroy(h);
        return;
    }
    assert_int_equal(gpu_copy(dst, h, sizeof data), STATUS_SUCCESS);
    D3DKMT_LOCK l = {.hDevice = env.device, .hAllocation = dst};
    l.Flags.ReadOnly = 1; /* waits for the copy */
    assert_int_equal(D3DKMTLock(&l), STATUS_SUCCESS);
    assert_memory_equal(l.pData, data, sizeof data);
    D3DKMT_UNLOCK u = {.hDevice = env.device, .NumAllocations = 1, .phAllocations = &dst};
    assert_int_equal(D3DKMTUnlock(&u), STATUS_SUCCESS);
    /* The backing store the KMD holds is still the allocation's memory. */
    assert_ptr_equal(lock2(h), rec.backing);
    unlock2(h);
    destroy(dst);
    destroy(h);
}

/* rule: vidmm.vidmm-never-renames-discards-re-commits */
static void seed002_a_shared_backing_store_is_never_renamed(void **state)
{
    (void)state;
    D3DKMT_HANDLE h = create_shared();
    D3DKMT_HANDLE dst = 0;
    assert_int_equal(create(SWGPU_ALLOC_READBACK, 0, false, &dst), STATUS_SUCCESS);
    if (e2e_gpummu() == 1) {
        /* GpuMmu model (issue 6): VidMm never renames any allocation there — D3DKMTLock with
         * Discard is refused outright and Lock2 hands out the one backing store. */
        D3DKMT_LOCK dl = {.hDevice = env.device, .hAllocation = h};
        dl.Flags.Discard = 1;
        assert_int_equal(D3DKMTLock(&dl), STATUS_NOT_SUPPORTED);
        assert_ptr_equal(lock2(h), rec.backing);
        unlock2(h);
        destroy(dst);
        destroy(h);
        assert_int_equal(rec.set_backing_calls, 1);
        return;
    }
    /* The GPU reads the allocation while paused: busy. A Discard lock of a renamable
     * allocation would get a new instance; this one waits and keeps its memory. */
    wddm_swgpu_set_paused(1);
    assert_int_equal(gpu_copy(dst, h, 64), STATUS_SUCCESS);
    D3DKMT_LOCK l = {.hDevice = env.device, .hAllocation = h};
    l.Flags.Discard = 1;
    l.Flags.DonotWait = 1;
    assert_int_equal(D3DKMTLock(&l), STATUS_GRAPHICS_ALLOCATION_BUSY);
    wddm_swgpu_set_paused(0);
    l.Flags.DonotWait = 0;
    l.pData = NULL;
    assert_int_equal(D3DKMTLock(&l), STATUS_SUCCESS);
    assert_ptr_equal(l.pData, rec.backing);
    D3DKMT_UNLOCK u = {.hDevice = env.device, .NumAllocations = 1, .phAllocations = &h};
    assert_int_equal(D3DKMTUnlock(&u), STATUS_SUCCESS);
    destroy(dst);
    destroy(h);
    assert_int_equal(rec.set_backing_calls, 1);
}

/* rule: kmd.umd-asks-sharing-private-data-kmd */
static void seed002_kmd_refuses_the_request_when_the_feature_is_disabled(void **state)
{
    /* A fresh start with the feature off: the KMD remembered the answer at StartDevice. */
    close_env(state);
    setenv("WDDM_FEATURES", "SHARE_BACKING_STORE_WITH_KMD=0", 1);
    assert_int_equal(open_env(state), 0);
    D3DKMT_HANDLE h = 0;
    wddm_clear_refusals();
    assert_int_equal(create(SWGPU_ALLOC_READBACK, SWGPU_ALLOC_FLAG_SHARE_BACKING_STORE_WITH_KMD, true, &h),
                     STATUS_NOT_SUPPORTED);
    expect_refusal_names("DXGK_FEATURE_SHARE_BACKING_STORE_WITH_KMD is not enabled");
    assert_int_equal(rec.set_backing_calls, 0);
}

/* rule: kernel.verifier-sharebackingstorewithkmd */
static void seed002_verifier_refuses_the_flag_when_the_feature_is_disabled(void **state)
{
    close_env(state);
    setenv("WDDM_FEATURES", "SHARE_BACKING_STORE_WITH_KMD=0", 1);
    assert_int_equal(open_env(state), 0);
    rec.mode = FORCE_SHARE_FLAG; /* a KMD that sets it anyway */
    D3DKMT_HANDLE h = 0;
    wddm_clear_refusals();
    assert_int_equal(create(SWGPU_ALLOC_READBACK, 0, true, &h), STATUS_INVALID_PARAMETER);
    expect_refusal_names("is not enabled");
    assert_int_equal(rec.set_backing_calls, 0);
}

static void seed002_verifier_refuses_the_flag_on_an_allocation_not_created_shared(void **state)
{
    (void)state;
    D3DKMT_HANDLE h = 0;
    wddm_clear_refusals();
    assert_int_equal(create(SWGPU_ALLOC_READBACK, SWGPU_ALLOC_FLAG_SHARE_BACKING_STORE_WITH_KMD, false, &h),
                     STATUS_INVALID_PARAMETER);
    expect_refusal_names("must be created as shared");
    assert_int_equal(rec.set_backing_calls, 0);
}

static void seed002_verifier_refuses_the_flag_outside_the_aperture_segment(void **state)
{
    (void)state;
    rec.mode = ADD_LOCAL_SEGMENT;
    D3DKMT_HANDLE h = 0;
    wddm_clear_refusals();
    assert_int_equal(create(SWGPU_ALLOC_UPLOAD, SWGPU_ALLOC_FLAG_SHARE_BACKING_STORE_WITH_KMD, true, &h),
                     STATUS_INVALID_PARAMETER);
    expect_refusal_names("system memory segment only");
    assert_int_equal(rec.set_backing_calls, 0);
}

static void seed002_verifier_refuses_the_flag_with_existing_system_memory(void **state)
{
    (void)state;
    struct swgpu_alloc_private p = {.magic = SWGPU_PRIVATE_MAGIC, .version = SWGPU_PRIVATE_VERSION,
                                    .kind = SWGPU_ALLOC_READBACK, .size = SIZE, .dimension = 1, .width = SIZE,
                                    .height = 1, .depth = 1, .mip_levels = 1, .array_size = 1,
                                    .flags = SWGPU_ALLOC_FLAG_SHARE_BACKING_STORE_WITH_KMD};
    void *mem = aligned_alloc(4096, SIZE);
    assert_non_null(mem);
    D3DDDI_ALLOCATIONINFO ai = {.pSystemMem = mem, .pPrivateDriverData = &p, .PrivateDriverDataSize = sizeof p};
    D3DKMT_CREATEALLOCATION ca = {.hDevice = env.device, .NumAllocations = 1, .pAllocationInfo = &ai};
    ca.Flags.CreateShared = 1;
    ca.Flags.CreateResource = 1; /* WDK: CreateShared needs CreateResource */
    wddm_clear_refusals();
    assert_int_equal(D3DKMTCreateAllocation(&ca), STATUS_INVALID_PARAMETER);
    expect_refusal_names("cannot use existing system memory");
    ai.pSystemMem = NULL;
    ca.Flags.ExistingSysMem = 1;
    wddm_clear_refusals();
    assert_int_equal(D3DKMTCreateAllocation(&ca), STATUS_INVALID_PARAMETER);
    expect_refusal_names("cannot use existing system memory");
    free(mem);
    assert_int_equal(rec.set_backing_calls, 0);
}

/* Issue 6: any allocation may be shared (tests/dxgkrnl/test_share.c opens them); without the
 * flag the KMD gets no backing-store address. */
/* rule: kernel.createshared-allocation-kmd-not-mark */
/* rule: kernel.d3dkmtcreateallocation-createshared */
static void shared_allocations_without_a_kmd_backing_store_get_no_backing_store_call(void **state)
{
    (void)state;
    D3DKMT_HANDLE h = 0;
    int calls = rec.set_backing_calls;
    assert_int_equal(create(SWGPU_ALLOC_READBACK, 0, true, &h), STATUS_SUCCESS);
    assert_int_equal(rec.set_backing_calls, calls);
    destroy(h);
}

/* rule: vidmm.d3dkmtlock2-d3dkmtunlock2-cpu-pointer-no */
/* rule: kernel.d3dkmtescape-dxgkddiescape-d3dkmt-escape */
static void escape_and_lock2_refuse_bad_input(void **state)
{
    (void)state;
    D3DKMT_HANDLE h = create_shared();
    D3DKMT_HANDLE plain = 0;
    assert_int_equal(create(SWGPU_ALLOC_READBACK, 0, false, &plain), STATUS_SUCCESS);
    UINT8 data[SWGPU_ESCAPE_DATA_MAX] = {0};
    /* Outside the allocation, an allocation without a shared backing store, a bad handle. */
    assert_int_equal(escape(SWGPU_ESCAPE_READ_BACKING_STORE, h, SIZE - 8, 16, data), STATUS_INVALID_PARAMETER);
    assert_int_equal(escape(SWGPU_ESCAPE_READ_BACKING_STORE, plain, 0, 16, data), STATUS_INVALID_PARAMETER);
    assert_int_equal(escape(SWGPU_ESCAPE_READ_BACKING_STORE, 0x12345, 0, 16, data), STATUS_INVALID_PARAMETER);
    assert_int_equal(escape(99, h, 0, 16, data), STATUS_INVALID_PARAMETER);
    /* The kernel's own checks. */
    assert_int_equal(D3DKMTEscape(NULL), STATUS_INVALID_PARAMETER);
    D3DKMT_ESCAPE esc = {.hAdapter = env.adapter, .Type = D3DKMT_ESCAPE_DRIVERPRIVATE,
                         .pPrivateDriverData = data, .PrivateDriverDataSize = 0};
    assert_int_equal(D3DKMTEscape(&esc), STATUS_INVALID_PARAMETER);
    esc.PrivateDriverDataSize = sizeof data;
    esc.hAdapter = 0x777;
    assert_int_equal(D3DKMTEscape(&esc), STATUS_INVALID_PARAMETER);
    esc.hAdapter = env.adapter;
    esc.hDevice = 0x777;
    assert_int_equal(D3DKMTEscape(&esc), STATUS_INVALID_PARAMETER);
    esc.hDevice = 0;
    assert_int_equal(D3DKMTEscape(&esc), STATUS_INVALID_PARAMETER); /* the KMD: not a swgpu_escape */
    /* Lock2: reserved flags, bad handle, unlock of what is not locked. */
    assert_int_equal(D3DKMTLock2(NULL), STATUS_INVALID_PARAMETER);
    D3DKMT_LOCK2 l = {.hDevice = env.device, .hAllocation = h};
    l.Flags.Value = 1;
    assert_int_equal(D3DKMTLock2(&l), STATUS_INVALID_PARAMETER);
    l.Flags.Value = 0;
    l.hAllocation = 0x777;
    assert_int_equal(D3DKMTLock2(&l), STATUS_INVALID_PARAMETER);
    D3DKMT_UNLOCK2 u = {.hDevice = env.device, .hAllocation = h};
    assert_int_equal(D3DKMTUnlock2(&u), STATUS_INVALID_PARAMETER);
    assert_int_equal(D3DKMTUnlock2(NULL), STATUS_INVALID_PARAMETER);
    destroy(plain);
    destroy(h);
}

int main(void)
{
    setenv("WDDM_SEGMENT_LOCAL_MB", "16", 1);
    setenv("WDDM_SEGMENT_VISIBLE_MB", "8", 1);
    setenv("WDDM_SEGMENT_APERTURE_MB", "32", 1);
#define T(f) cmocka_unit_test_setup_teardown(f, open_env, close_env)
    const struct CMUnitTest tests[] = {
        T(seed002_kernel_gives_the_kmd_the_backing_store_once_before_create_returns),
        T(seed002_umd_writes_and_the_kmd_reads_through_its_pointer),
        T(seed002_kmd_writes_and_the_umd_reads_through_lock2),
        T(seed002_make_resident_works_and_the_gpu_sees_what_the_kmd_wrote),
        T(seed002_a_shared_backing_store_is_never_renamed),
        T(seed002_kmd_refuses_the_request_when_the_feature_is_disabled),
        T(seed002_verifier_refuses_the_flag_when_the_feature_is_disabled),
        T(seed002_verifier_refuses_the_flag_on_an_allocation_not_created_shared),
        T(seed002_verifier_refuses_the_flag_outside_the_aperture_segment),
        T(seed002_verifier_refuses_the_flag_with_existing_system_memory),
        T(shared_allocations_without_a_kmd_backing_store_get_no_backing_store_call),
        T(escape_and_lock2_refuse_bad_input),
    };
    return cmocka_run_group_tests_name("e2e.backing_store", tests, NULL, NULL);
}
