/* NT-handle sharing (src/dxgkrnl/objects/nt_handle.c; docs/architecture.md "NT handles"):
 * D3DKMTShareObjects and the thunks that open what an NT handle names, against the reference
 * KMD and the software GPU. The answers are the ones Windows gave to Wine's win32u d3dkmt tests
 * (test_D3DKMTShareObjects, test_D3DKMTCreateAllocation's NtSecuritySharing case), re-expressed
 * here; the data checks are ours: what one device writes, the device that opened the NT handle
 * reads, before and after the handle is closed and after the creator destroyed its own. */
/* rule: kernel.createshared-ntsecuritysharing-resource (`make_nt`; mutation-checked: publishing NT shares fails them) */
#include "real_env.h"

#include <pthread.h>

#include "dxgkrnl/objects/objects.h"

#define SIZE 8192u
#define JUNK 0x1eadbeedu

static const UINT8 runtime_data[4] = { 9, 8, 7, 6 };

static bool is_d3dkmt_form(HANDLE h)
{
    return ((uintptr_t)h & 0xC0000000u) != 0;
}

struct made {
    D3DKMT_HANDLE alloc, res;
};

/* A resource of one GPU_ONLY allocation with the given sharing flags. */
static NTSTATUS try_make(struct renv *e, bool shared, bool nt, struct made *out, D3DKMT_HANDLE *global)
{
    struct swgpu_alloc_private p = { .magic = SWGPU_PRIVATE_MAGIC, .version = SWGPU_PRIVATE_VERSION,
                                     .kind = SWGPU_ALLOC_GPU_ONLY, .size = SIZE, .dimension = 1, .width = SIZE,
                                     .height = 1, .depth = 1, .mip_levels = 1, .array_size = 1 };
    D3DDDI_ALLOCATIONINFO ai = { .pPrivateDriverData = &p, .PrivateDriverDataSize = sizeof p };
    D3DKMT_CREATEALLOCATION ca = { .hDevice = e->device, .NumAllocations = 1, .pAllocationInfo = &ai,
                                   .pPrivateRuntimeData = runtime_data,
                                   .PrivateRuntimeDataSize = sizeof runtime_data, .hGlobalShare = JUNK };
    ca.Flags.CreateResource = 1;
    ca.Flags.CreateShared = shared;
    ca.Flags.NtSecuritySharing = nt;
    NTSTATUS st = D3DKMTCreateAllocation(&ca);
    out->alloc = ai.hAllocation;
    out->res = ca.hResource;
    if (global)
        *global = ca.hGlobalShare;
    return st;
}

static struct made make_nt(struct renv *e)
{
    struct made m;
    D3DKMT_HANDLE global;
    assert_int_equal(try_make(e, true, true, &m, &global), STATUS_SUCCESS);
    assert_int_equal(global, 0); /* NtSecuritySharing: no global handle */
    return m;
}

static HANDLE share1(D3DKMT_HANDLE h, OBJECT_ATTRIBUTES *attr)
{
    HANDLE nt = (HANDLE)(uintptr_t)0xdeadbeef;
    assert_int_equal(D3DKMTShareObjects(1, &h, attr, STANDARD_RIGHTS_READ, &nt), STATUS_SUCCESS);
    assert_non_null(nt);
    assert_false(is_d3dkmt_form(nt));
    return nt;
}

/* D3DKMTQueryResourceInfoFromNtHandle then D3DKMTOpenResourceFromNtHandle on e's device. */
/* rule: kernel.d3dkmtqueryresourceinfofromnthandle (every open) */
static NTSTATUS try_open_nt(struct renv *e, HANDLE nt, struct made *out, D3DKMT_HANDLE *mutex, D3DKMT_HANDLE *sync)
{
    memset(out, 0, sizeof *out);
    D3DKMT_QUERYRESOURCEINFOFROMNTHANDLE q = { .hDevice = e->device, .hNtHandle = nt,
                                               .PrivateRuntimeDataSize = JUNK, .NumAllocations = JUNK };
    NTSTATUS st = D3DKMTQueryResourceInfoFromNtHandle(&q);
    if (!NT_SUCCESS(st))
        return st;
    assert_int_equal(q.NumAllocations, 1);
    assert_int_equal(q.PrivateRuntimeDataSize, sizeof runtime_data);
    assert_int_equal(q.TotalPrivateDriverDataSize, sizeof(struct swgpu_alloc_private));
    UINT8 total[sizeof(struct swgpu_alloc_private)], runtime[sizeof runtime_data] = { 0 };
    D3DDDI_OPENALLOCATIONINFO2 oi = { .hAllocation = JUNK };
    D3DKMT_OPENRESOURCEFROMNTHANDLE o = { .hDevice = e->device, .hNtHandle = nt, .NumAllocations = 1,
                                          .pOpenAllocationInfo2 = &oi, .pPrivateRuntimeData = runtime,
                                          .PrivateRuntimeDataSize = q.PrivateRuntimeDataSize,
                                          .pTotalPrivateDriverDataBuffer = total,
                                          .TotalPrivateDriverDataBufferSize = q.TotalPrivateDriverDataSize,
                                          .hResource = JUNK, .hKeyedMutex = JUNK, .hSyncObject = JUNK };
    st = D3DKMTOpenResourceFromNtHandle(&o);
    if (!NT_SUCCESS(st))
        return st;
    assert_memory_equal(runtime, runtime_data, sizeof runtime_data);
    assert_int_not_equal(o.hResource, JUNK);
    assert_int_not_equal(oi.hAllocation, JUNK);
    out->alloc = oi.hAllocation;
    out->res = o.hResource;
    if (mutex)
        *mutex = o.hKeyedMutex;
    else
        assert_int_equal(o.hKeyedMutex, 0);
    if (sync)
        *sync = o.hSyncObject;
    else
        assert_int_equal(o.hSyncObject, 0);
    return STATUS_SUCCESS;
}

static void destroy_res(struct renv *e, const struct made *m)
{
    D3DKMT_DESTROYALLOCATION da = { .hDevice = e->device, .hResource = m->res };
    assert_int_equal(D3DKMTDestroyAllocation(&da), STATUS_SUCCESS);
}

/* Both adapters stay started for the whole run: closing the last handle on an adapter stops it,
 * and an enumeration starts none while another runs. The process's teardown closes these. */
static int keep_adapters(void **state)
{
    (void)state;
    static D3DKMT_ADAPTERINFO kept[4];
    D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 4, .pAdapters = kept };
    return D3DKMTEnumAdapters2(&en) == STATUS_SUCCESS && en.NumAdapters == 2 ? 0 : -1;
}

/* A device (and context) on adapter `which` of the two; the other adapter's handle is closed. */
static void side_open(struct renv *e, int which)
{
    D3DKMT_ADAPTERINFO info[4];
    D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 4, .pAdapters = info };
    assert_int_equal(D3DKMTEnumAdapters2(&en), STATUS_SUCCESS);
    assert_int_equal(en.NumAdapters, 2);
    renv_open_on(e, info[which].hAdapter);
    D3DKMT_CLOSEADAPTER c = { .hAdapter = info[!which].hAdapter };
    assert_int_equal(D3DKMTCloseAdapter(&c), STATUS_SUCCESS);
}

static void two_devices(struct renv *a, struct renv *b)
{
    side_open(a, 0);
    side_open(b, 0);
}

static NTSTATUS sync_create(D3DKMT_HANDLE device, bool shared, bool nt, D3DDDI_SYNCHRONIZATIONOBJECT_TYPE type,
                            D3DKMT_HANDLE *out)
{
    D3DKMT_CREATESYNCHRONIZATIONOBJECT2 c = { .hDevice = device };
    c.Info.Type = type;
    c.Info.Flags.Shared = shared;
    c.Info.Flags.NtSecuritySharing = nt;
    NTSTATUS st = D3DKMTCreateSynchronizationObject2(&c);
    *out = c.hSyncObject;
    return st;
}

static NTSTATUS sync_destroy(D3DKMT_HANDLE h)
{
    D3DKMT_DESTROYSYNCHRONIZATIONOBJECT d = { .hSyncObject = h };
    return D3DKMTDestroySynchronizationObject(&d);
}

static D3DKMT_HANDLE km_create2(bool nt, const void *data, UINT size)
{
    D3DKMT_CREATEKEYEDMUTEX2 c = { .pPrivateRuntimeData = (void *)data, .PrivateRuntimeDataSize = size };
    c.Flags.NtSecuritySharing = nt;
    assert_int_equal(D3DKMTCreateKeyedMutex2(&c), STATUS_SUCCESS);
    return c.hKeyedMutex;
}

static NTSTATUS km_destroy(D3DKMT_HANDLE h)
{
    D3DKMT_DESTROYKEYEDMUTEX d = { .hKeyedMutex = h };
    return D3DKMTDestroyKeyedMutex(&d);
}

/* ---- resources ----------------------------------------------------------------------------- */

/* A CreateShared + NtSecuritySharing resource has no global handle; its resource handle (not
 * its allocation handle) becomes an NT handle another device opens: the creator's GPU write is
 * read by the opener's GPU and the opener's write by the creator's. Closing the NT handle after
 * the open leaves the opened resource alive and readable. */
/* rule: kernel.d3dkmtshareobjects-takes-exactly-one (the allocation handle) */
/* rule: kernel.nt-handle-handle-process-never-d3dkmt */
static void a_resource_opens_from_its_nt_handle_on_another_device(void **state)
{
    (void)state;
    struct renv a1, a2;
    two_devices(&a1, &a2);
    struct made made = make_nt(&a1), opened;
    HANDLE nt = NULL;
    wddm_clear_refusals();
    assert_int_equal(D3DKMTShareObjects(1, &made.alloc, NULL, STANDARD_RIGHTS_READ, &nt), STATUS_INVALID_PARAMETER);
    renv_expect_refusal("only resources are shared");
    nt = share1(made.res, NULL);
    D3DKMT_HANDLE up1 = renv_alloc(&a1, SWGPU_ALLOC_UPLOAD, SIZE), rb1 = renv_alloc(&a1, SWGPU_ALLOC_READBACK, SIZE);
    D3DKMT_HANDLE up2 = renv_alloc(&a2, SWGPU_ALLOC_UPLOAD, SIZE), rb2 = renv_alloc(&a2, SWGPU_ALLOC_READBACK, SIZE);
    renv_gpu_write(&a1, made.alloc, up1, SIZE, 31);
    assert_int_equal(try_open_nt(&a2, nt, &opened, NULL, NULL), STATUS_SUCCESS);
    renv_gpu_check(&a2, opened.alloc, rb2, SIZE, 31);
    assert_true(CloseHandle(nt));
    renv_gpu_write(&a2, opened.alloc, up2, SIZE, 32);
    renv_gpu_check(&a1, made.alloc, rb1, SIZE, 32);
    renv_gpu_check(&a2, opened.alloc, rb2, SIZE, 32);
    /* The closed handle opens nothing and closes nothing any more. */
    wddm_clear_refusals();
    assert_int_equal(try_open_nt(&a2, nt, &opened, NULL, NULL), STATUS_INVALID_HANDLE);
    renv_expect_refusal("is not an open NT handle");
    SetLastError(0);
    assert_false(CloseHandle(nt));
    assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
    destroy_res(&a2, &opened);
    destroy_res(&a1, &made);
    renv_close(&a2);
    renv_close(&a1);
}

/* The NT handle holds the resource: after the creator destroyed its resource and its device,
 * the resource still opens from the NT handle with the creator's bytes (Windows: the resource
 * is queried and opened after every D3DKMT handle was destroyed). */
/* rule: kernel.nt-object-holds-names-until-last (mutation-checked: no orphan for an NT hold fails it) */
static void the_nt_handle_keeps_the_resource_after_its_creator_went(void **state)
{
    (void)state;
    struct renv a1, a2;
    two_devices(&a1, &a2);
    struct made made = make_nt(&a1), opened;
    D3DKMT_HANDLE up1 = renv_alloc(&a1, SWGPU_ALLOC_UPLOAD, SIZE);
    renv_gpu_write(&a1, made.alloc, up1, SIZE, 41);
    HANDLE nt = share1(made.res, NULL);
    destroy_res(&a1, &made);
    renv_close(&a1);
    assert_int_equal(try_open_nt(&a2, nt, &opened, NULL, NULL), STATUS_SUCCESS);
    D3DKMT_HANDLE rb2 = renv_alloc(&a2, SWGPU_ALLOC_READBACK, SIZE), up2 = renv_alloc(&a2, SWGPU_ALLOC_UPLOAD, SIZE);
    renv_gpu_check(&a2, opened.alloc, rb2, SIZE, 41);
    assert_true(CloseHandle(nt)); /* the open alone holds the memory now */
    renv_gpu_write(&a2, opened.alloc, up2, SIZE, 42);
    renv_gpu_check(&a2, opened.alloc, rb2, SIZE, 42);
    destroy_res(&a2, &opened);
    /* Closed without any open: the creator's memory goes with the NT handle (ASan: no leak). */
    struct renv a3;
    side_open(&a3, 0);
    struct made lone = make_nt(&a3);
    HANDLE nt2 = share1(lone.res, NULL);
    destroy_res(&a3, &lone);
    assert_true(CloseHandle(nt2));
    renv_close(&a3);
    renv_close(&a2);
}

/* What is not made for NT-handle sharing is refused with STATUS_INVALID_PARAMETER: a resource
 * not shared, or shared by global handle only; a sync object of the first creation form, or
 * without Shared + NtSecuritySharing; a keyed mutex alone (either form); every combination but
 * resource, keyed mutex, sync object in that order (Windows' answers in Wine's tests); and the
 * malformed calls. */
/* rule: kernel.d3dkmtshareobjects-takes-exactly-one (mutation-checked: taking the mutex and the sync object in either order fails it) */
/* rule: kernel.nt-keyed-mutex-shared-with-resource (a keyed mutex alone is refused) */
static void what_is_not_made_for_nt_sharing_is_refused(void **state)
{
    (void)state;
    struct renv a;
    side_open(&a, 0);
    HANDLE nt = NULL;
    struct made plain, global_only;
    D3DKMT_HANDLE global;
    assert_int_equal(try_make(&a, false, false, &plain, NULL), STATUS_SUCCESS);
    assert_int_equal(try_make(&a, true, false, &global_only, &global), STATUS_SUCCESS);
    assert_int_not_equal(global, 0);
    const D3DKMT_HANDLE refused[] = { plain.res, plain.alloc, global_only.res, global_only.alloc, global, 0, JUNK };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        assert_int_equal(D3DKMTShareObjects(1, &refused[i], NULL, GENERIC_ALL, &nt), STATUS_INVALID_PARAMETER);

    D3DKMT_CREATESYNCHRONIZATIONOBJECT c1 = { .hDevice = a.device };
    c1.Info.Type = D3DDDI_SYNCHRONIZATION_MUTEX;
    assert_int_equal(D3DKMTCreateSynchronizationObject(&c1), STATUS_SUCCESS);
    D3DKMT_HANDLE s_none, s_shared, s_nt;
    assert_int_equal(sync_create(a.device, false, false, D3DDDI_SYNCHRONIZATION_MUTEX, &s_none), STATUS_SUCCESS);
    assert_int_equal(sync_create(a.device, true, false, D3DDDI_SYNCHRONIZATION_MUTEX, &s_shared), STATUS_SUCCESS);
    assert_int_equal(sync_create(a.device, true, true, D3DDDI_FENCE, &s_nt), STATUS_SUCCESS);
    const D3DKMT_HANDLE syncs[] = { c1.hSyncObject, s_none, s_shared };
    for (size_t i = 0; i < 3; i++)
        assert_int_equal(D3DKMTShareObjects(1, &syncs[i], NULL, GENERIC_ALL, &nt), STATUS_INVALID_PARAMETER);

    D3DKMT_CREATEKEYEDMUTEX k1 = { 0 };
    assert_int_equal(D3DKMTCreateKeyedMutex(&k1), STATUS_SUCCESS);
    D3DKMT_HANDLE k_nt = km_create2(true, NULL, 0);
    const D3DKMT_HANDLE mutexes[] = { k1.hKeyedMutex, k1.hSharedHandle, k_nt };
    for (size_t i = 0; i < 3; i++)
        assert_int_equal(D3DKMTShareObjects(1, &mutexes[i], NULL, GENERIC_ALL, &nt), STATUS_INVALID_PARAMETER);

    struct made res = make_nt(&a);
    const D3DKMT_HANDLE combos[][4] = {
        { res.res, res.res, res.res }, { res.res, k_nt }, { res.res, s_nt }, { k_nt, s_nt },
        { res.res, k_nt, s_nt, s_nt }, { res.res, s_nt, k_nt }, { res.res, k1.hKeyedMutex, s_nt },
        { res.res, k_nt, s_shared },
    };
    const UINT counts[] = { 3, 2, 2, 2, 4, 3, 3, 3 };
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        assert_int_equal(D3DKMTShareObjects(counts[i], combos[i], NULL, GENERIC_ALL, &nt), STATUS_INVALID_PARAMETER);
    /* Malformed: no objects, no array, no output. */
    assert_int_equal(D3DKMTShareObjects(0, &res.res, NULL, GENERIC_ALL, &nt), STATUS_INVALID_PARAMETER);
    assert_int_equal(D3DKMTShareObjects(1, NULL, NULL, GENERIC_ALL, &nt), STATUS_INVALID_PARAMETER);
    assert_int_equal(D3DKMTShareObjects(1, &res.res, NULL, GENERIC_ALL, NULL), STATUS_INVALID_PARAMETER);
    /* The right combination is taken. */
    const D3DKMT_HANDLE three[3] = { res.res, k_nt, s_nt };
    assert_int_equal(D3DKMTShareObjects(3, three, NULL, GENERIC_ALL, &nt), STATUS_SUCCESS);
    assert_true(CloseHandle(nt));

    assert_int_equal(km_destroy(k1.hKeyedMutex), STATUS_SUCCESS);
    assert_int_equal(km_destroy(k_nt), STATUS_SUCCESS);
    const D3DKMT_HANDLE all[] = { c1.hSyncObject, s_none, s_shared, s_nt };
    for (size_t i = 0; i < 4; i++)
        assert_int_equal(sync_destroy(all[i]), STATUS_SUCCESS);
    destroy_res(&a, &res);
    destroy_res(&a, &global_only);
    destroy_res(&a, &plain);
    renv_close(&a);
}

/* ---- resource + keyed mutex + sync object ------------------------------------------------- */

/* The three objects shared as one NT handle open as three new handles, with the mutex's runtime
 * data; after every creator handle is destroyed they still open, and the mutex handed over
 * through one device's handle is acquired through the other's with its fence value. */
/* rule: kernel.nt-object-holds-names-until-last (mutation-checked: the mutex hold not counted fails it) */
/* rule: kernel.d3dkmtqueryresourceinfofromnthandle */
/* rule: kernel.nt-keyed-mutex-shared-with-resource (shared with its resource) */
static void keyed_mutex_and_fence_open_with_their_resource(void **state)
{
    (void)state;
    struct renv a1, a2;
    two_devices(&a1, &a2);
    static const UINT8 km_data[20] = "mutex runtime data";
    struct made res = make_nt(&a1), opened;
    D3DKMT_HANDLE mutex = km_create2(true, km_data, sizeof km_data), fence;
    assert_int_equal(sync_create(a1.device, true, true, D3DDDI_FENCE, &fence), STATUS_SUCCESS);
    const D3DKMT_HANDLE three[3] = { res.res, mutex, fence };
    HANDLE nt = NULL;
    assert_int_equal(D3DKMTShareObjects(3, three, NULL, GENERIC_ALL, &nt), STATUS_SUCCESS);
    /* The creator acquires and releases to key 1 with a fence value. */
    D3DKMT_ACQUIREKEYEDMUTEX acq = { .hKeyedMutex = mutex, .Key = 0 };
    assert_int_equal(D3DKMTAcquireKeyedMutex(&acq), STATUS_SUCCESS);
    D3DKMT_RELEASEKEYEDMUTEX rel = { .hKeyedMutex = mutex, .Key = 1, .FenceValue = 77 };
    assert_int_equal(D3DKMTReleaseKeyedMutex(&rel), STATUS_SUCCESS);
    /* Every creator handle goes; the NT handle still opens all three. */
    assert_int_equal(km_destroy(mutex), STATUS_SUCCESS);
    assert_int_equal(sync_destroy(fence), STATUS_SUCCESS);
    destroy_res(&a1, &res);
    D3DKMT_HANDLE m2 = 0, f2 = 0;
    assert_int_equal(try_open_nt(&a2, nt, &opened, &m2, &f2), STATUS_SUCCESS);
    assert_true(m2 && f2 && m2 != JUNK && f2 != JUNK);
    UINT8 got[sizeof km_data] = { 0 };
    LARGE_INTEGER zero = { .QuadPart = 0 };
    D3DKMT_ACQUIREKEYEDMUTEX2 acq2 = { .hKeyedMutex = m2, .Key = 1, .pTimeout = &zero, .pPrivateRuntimeData = got,
                                       .PrivateRuntimeDataSize = sizeof got };
    assert_int_equal(D3DKMTAcquireKeyedMutex2(&acq2), STATUS_SUCCESS);
    assert_int_equal(acq2.FenceValue, 77);
    assert_memory_equal(got, km_data, sizeof km_data);
    D3DKMT_RELEASEKEYEDMUTEX rel2 = { .hKeyedMutex = m2, .Key = 2 };
    assert_int_equal(D3DKMTReleaseKeyedMutex(&rel2), STATUS_SUCCESS);
    assert_true(CloseHandle(nt));
    assert_int_equal(km_destroy(m2), STATUS_SUCCESS);
    assert_int_equal(sync_destroy(f2), STATUS_SUCCESS);
    destroy_res(&a2, &opened);
    renv_close(&a2);
    renv_close(&a1);
}

/* ---- sync objects -------------------------------------------------------------------------- */

/* A Shared + NtSecuritySharing monitored fence shared by NT handle: the NT handle value is not a
 * sync object handle (destroying it is refused); after the creator's handle is destroyed the
 * object opens from the NT handle, in both forms, and a CPU signal through one handle is read
 * through the other's mapping. OpenSyncObjectFromNtHandle2 checks its device first. */
/* rule: kernel.nt-handle-handle-process-never-d3dkmt */
/* rule: kernel.nt-object-holds-names-until-last */
/* rule: kernel.value-no-open-nt-handle-status */
/* rule: kernel.d3dkmtopensyncobjectfromnthandle-gives (mutation-checked: the handle looked up before the device fails it) */
/* rule: kernel.other-kind-handle-type-mismatch (both directions) */
/* rule: sched.monitored-fence-gpu-address-zero (opened from an NT handle) */
static void a_sync_object_opens_from_its_nt_handle(void **state)
{
    (void)state;
    struct renv a;
    side_open(&a, 0);
    D3DKMT_CREATESYNCHRONIZATIONOBJECT2 c = { .hDevice = a.device };
    c.Info.Type = D3DDDI_MONITORED_FENCE;
    c.Info.Flags.Shared = 1;
    c.Info.Flags.NtSecuritySharing = 1;
    assert_int_equal(D3DKMTCreateSynchronizationObject2(&c), STATUS_SUCCESS);
    HANDLE nt = share1(c.hSyncObject, NULL);
    assert_int_equal(sync_destroy((D3DKMT_HANDLE)(uintptr_t)nt), STATUS_INVALID_PARAMETER);
    assert_int_equal(sync_destroy(c.hSyncObject), STATUS_SUCCESS);

    D3DKMT_OPENSYNCOBJECTFROMNTHANDLE o1 = { 0 };
    assert_int_equal(D3DKMTOpenSyncObjectFromNtHandle(&o1), STATUS_INVALID_HANDLE);
    o1.hNtHandle = nt;
    o1.hSyncObject = JUNK;
    assert_int_equal(D3DKMTOpenSyncObjectFromNtHandle(&o1), STATUS_SUCCESS);
    assert_int_not_equal(o1.hSyncObject, JUNK);

    D3DKMT_OPENSYNCOBJECTFROMNTHANDLE2 o2 = { 0 };
    assert_int_equal(D3DKMTOpenSyncObjectFromNtHandle2(&o2), STATUS_INVALID_PARAMETER);
    o2.hNtHandle = nt;
    assert_int_equal(D3DKMTOpenSyncObjectFromNtHandle2(&o2), STATUS_INVALID_PARAMETER); /* no device */
    o2.hDevice = a.device;
    o2.hSyncObject = JUNK;
    assert_int_equal(D3DKMTOpenSyncObjectFromNtHandle2(&o2), STATUS_SUCCESS);
    assert_int_not_equal(o2.hSyncObject, JUNK);
    assert_int_equal(o2.Flags.Shared, 0); /* [in]: never written */
    assert_non_null(o2.MonitoredFence.FenceValueCPUVirtualAddress);
    assert_int_equal(o2.MonitoredFence.FenceValueGPUVirtualAddress, 0);

    UINT64 value = 5;
    D3DKMT_SIGNALSYNCHRONIZATIONOBJECTFROMCPU sig = { .hDevice = a.device, .ObjectCount = 1,
                                                      .ObjectHandleArray = &o1.hSyncObject,
                                                      .FenceValueArray = &value };
    assert_int_equal(D3DKMTSignalSynchronizationObjectFromCpu(&sig), STATUS_SUCCESS);
    assert_int_equal(*(const volatile UINT64 *)o2.MonitoredFence.FenceValueCPUVirtualAddress, 5);

    /* An object opened from the NT handle is shared again; a resource NT handle is the wrong kind. */
    HANDLE again = share1(o2.hSyncObject, NULL);
    struct made res = make_nt(&a);
    HANDLE res_nt = share1(res.res, NULL);
    o1.hNtHandle = res_nt;
    assert_int_equal(D3DKMTOpenSyncObjectFromNtHandle(&o1), STATUS_OBJECT_TYPE_MISMATCH);
    struct made junk;
    assert_int_equal(try_open_nt(&a, nt, &junk, NULL, NULL), STATUS_OBJECT_TYPE_MISMATCH);
    assert_true(CloseHandle(res_nt));
    assert_true(CloseHandle(again));
    assert_true(CloseHandle(nt));
    o2.hNtHandle = nt;
    assert_int_equal(D3DKMTOpenSyncObjectFromNtHandle2(&o2), STATUS_INVALID_HANDLE); /* closed */
    destroy_res(&a, &res);
    renv_close(&a); /* the device's handle (o2's) goes with it; o1's has no device */
    assert_int_equal(sync_destroy(o1.hSyncObject), STATUS_SUCCESS);
}

/* ---- names ---------------------------------------------------------------------------------- */

static UNICODE_STRING ustr(const WCHAR *s)
{
    USHORT n = 0;
    while (s[n])
        n++;
    return (UNICODE_STRING){ .Length = (USHORT)(n * 2), .MaximumLength = (USHORT)(n * 2 + 2), .Buffer = (WCHAR *)s };
}

/* A name given to D3DKMTShareObjects opens new NT handles of its kind whatever the case (Windows
 * found the lower-case spelling), refuses dwDesiredAccess 0 (STATUS_ACCESS_DENIED), an unknown
 * name (STATUS_OBJECT_NAME_NOT_FOUND) and the other kind (STATUS_OBJECT_TYPE_MISMATCH); a second
 * object cannot take it (STATUS_OBJECT_NAME_COLLISION); it goes with the last NT handle, after
 * which the object (still alive through its D3DKMT handle) is shared under it again. */
/* rule: kernel.pobjectattributes-objectname-names-nt (mutation-checked: a name kept after the last close fails it) */
/* rule: kernel.access-rights-recorded-not-enforced (access 0 refused; a write right opens) */
/* rule: kernel.names-compare-without-case (another spelling; one namespace for both kinds) */
/* rule: kernel.other-kind-handle-type-mismatch (by name) */
static void names_open_until_the_last_nt_handle_is_closed(void **state)
{
    (void)state;
    struct renv a;
    side_open(&a, 0);
    UNICODE_STRING name = ustr(u"\\BaseNamedObjects\\libwddm_Share_Test");
    UNICODE_STRING lower = ustr(u"\\basenamedobjects\\LIBWDDM_share_test");
    UNICODE_STRING other = ustr(u"\\BaseNamedObjects\\libwddm_absent");
    OBJECT_ATTRIBUTES attr, attr_lower, attr_other;
    InitializeObjectAttributes(&attr, &name, 0, NULL, NULL);
    InitializeObjectAttributes(&attr_lower, &lower, 0, NULL, NULL);
    InitializeObjectAttributes(&attr_other, &other, 0, NULL, NULL);
    D3DKMT_HANDLE sync;
    assert_int_equal(sync_create(a.device, true, true, D3DDDI_SYNCHRONIZATION_MUTEX, &sync), STATUS_SUCCESS);
    HANDLE nt = share1(sync, &attr);

    D3DKMT_OPENSYNCOBJECTNTHANDLEFROMNAME by = { 0 };
    assert_int_equal(D3DKMTOpenSyncObjectNtHandleFromName(&by), STATUS_INVALID_PARAMETER);
    by.pObjAttrib = &attr_other;
    assert_int_equal(D3DKMTOpenSyncObjectNtHandleFromName(&by), STATUS_OBJECT_NAME_NOT_FOUND);
    by.pObjAttrib = &attr_lower;
    assert_int_equal(D3DKMTOpenSyncObjectNtHandleFromName(&by), STATUS_ACCESS_DENIED);
    by.dwDesiredAccess = STANDARD_RIGHTS_WRITE;
    assert_int_equal(D3DKMTOpenSyncObjectNtHandleFromName(&by), STATUS_SUCCESS);
    assert_false(is_d3dkmt_form(by.hNtHandle));
    assert_ptr_not_equal(by.hNtHandle, nt);
    D3DKMT_OPENNTHANDLEFROMNAME res_by = { .dwDesiredAccess = GENERIC_ALL, .pObjAttrib = &attr };
    assert_int_equal(D3DKMTOpenNtHandleFromName(&res_by), STATUS_OBJECT_TYPE_MISMATCH);

    /* The name is taken while any NT handle on its object is open. */
    struct made res = make_nt(&a);
    HANDLE h = NULL;
    assert_int_equal(D3DKMTShareObjects(1, &res.res, &attr_lower, GENERIC_ALL, &h), STATUS_OBJECT_NAME_COLLISION);
    assert_true(CloseHandle(nt));
    D3DKMT_OPENSYNCOBJECTFROMNTHANDLE o = { .hNtHandle = by.hNtHandle };
    assert_int_equal(D3DKMTOpenSyncObjectFromNtHandle(&o), STATUS_SUCCESS); /* the handle opened by name */
    assert_int_equal(D3DKMTShareObjects(1, &res.res, &attr, GENERIC_ALL, &h), STATUS_OBJECT_NAME_COLLISION);
    assert_true(CloseHandle(by.hNtHandle));
    assert_int_equal(D3DKMTOpenSyncObjectNtHandleFromName(&by), STATUS_OBJECT_NAME_NOT_FOUND);

    /* Free again: the resource takes the name, and opens by it. */
    assert_int_equal(D3DKMTShareObjects(1, &res.res, &attr, GENERIC_ALL, &h), STATUS_SUCCESS);
    res_by.pObjAttrib = &attr_lower;
    assert_int_equal(D3DKMTOpenNtHandleFromName(&res_by), STATUS_SUCCESS);
    struct made opened;
    assert_int_equal(try_open_nt(&a, res_by.hNtHandle, &opened, NULL, NULL), STATUS_SUCCESS);
    assert_true(CloseHandle(res_by.hNtHandle));
    assert_true(CloseHandle(h));
    /* A malformed name: odd length, empty. */
    UNICODE_STRING odd = name;
    odd.Length = 3;
    attr.ObjectName = &odd;
    assert_int_equal(D3DKMTShareObjects(1, &res.res, &attr, GENERIC_ALL, &h), STATUS_OBJECT_NAME_INVALID);
    odd.Length = 0;
    assert_int_equal(D3DKMTShareObjects(1, &res.res, &attr, GENERIC_ALL, &h), STATUS_OBJECT_NAME_INVALID);

    destroy_res(&a, &opened);
    destroy_res(&a, &res);
    assert_int_equal(sync_destroy(o.hSyncObject), STATUS_SUCCESS);
    assert_int_equal(sync_destroy(sync), STATUS_SUCCESS);
    renv_close(&a);
}

/* Values that are no open NT handle are refused by every thunk that takes one with
 * STATUS_INVALID_HANDLE (NULL, forged, an event's handle); CloseHandle answers FALSE with
 * ERROR_INVALID_HANDLE for the forged one and still closes events. NT handles left open are
 * closed by the process's teardown (ASan: nothing leaks). */
/* rule: kernel.nt-handle-handle-process-never-d3dkmt */
/* rule: kernel.value-no-open-nt-handle-status */
/* rule: kernel.process-teardown-closes-nt-handles-left (leaves one open; ASan) */
static void bogus_nt_handles_are_refused(void **state)
{
    (void)state;
    struct renv a;
    side_open(&a, 0);
    HANDLE ev = CreateEventW(NULL, TRUE, FALSE, NULL);
    assert_non_null(ev);
    const HANDLE bogus[] = { NULL, (HANDLE)(uintptr_t)0xdeadbeef, (HANDLE)(uintptr_t)0x30000004u, ev };
    for (size_t i = 0; i < 4; i++) {
        D3DKMT_QUERYRESOURCEINFOFROMNTHANDLE q = { .hDevice = a.device, .hNtHandle = bogus[i] };
        assert_int_equal(D3DKMTQueryResourceInfoFromNtHandle(&q), STATUS_INVALID_HANDLE);
        struct made m;
        D3DKMT_OPENRESOURCEFROMNTHANDLE o = { .hDevice = a.device, .hNtHandle = bogus[i] };
        assert_int_equal(D3DKMTOpenResourceFromNtHandle(&o), STATUS_INVALID_HANDLE);
        (void)m;
        D3DKMT_OPENSYNCOBJECTFROMNTHANDLE s = { .hNtHandle = bogus[i] };
        assert_int_equal(D3DKMTOpenSyncObjectFromNtHandle(&s), STATUS_INVALID_HANDLE);
    }
    SetLastError(0);
    assert_false(CloseHandle((HANDLE)(uintptr_t)0x30000004u));
    assert_int_equal(GetLastError(), ERROR_INVALID_HANDLE);
    assert_true(CloseHandle(ev));
    /* Left open on purpose: process teardown closes it. */
    struct made res = make_nt(&a);
    (void)share1(res.res, NULL);
    renv_close(&a);
}

/* D3DKMTOpenResourceFromNtHandle's buffers follow D3DKMTOpenResource2's rules: no
 * pOpenAllocationInfo2, NumAllocations 0, a NULL runtime-data buffer of a non-zero size, a size
 * one byte off, no driver-data buffer, a keyed-mutex data size without a buffer →
 * STATUS_INVALID_PARAMETER; a driver-data buffer one byte short → STATUS_NO_MEMORY (Wine d3dkmt
 * tests, test_D3DKMTShareObjects); nothing is left open by a refused call. */
/* rule: kernel.d3dkmtqueryresourceinfofromnthandle (mutation-checked: the keyed-mutex data check removed fails it; no pOpenAllocationInfo2, NumAllocations 0, NULL runtime buffer, size one off, no driver-data buffer, mutex data size without buffer, a bad device → `STATUS_INVALID_PARAMETER`; one byte short → `STATUS_NO_MEMORY`) */
static void open_from_nt_handle_checks_its_buffers(void **state)
{
    (void)state;
    struct renv a;
    side_open(&a, 0);
    struct made res = make_nt(&a);
    HANDLE nt = share1(res.res, NULL);
    UINT8 total[sizeof(struct swgpu_alloc_private)], runtime[sizeof runtime_data];
    D3DDDI_OPENALLOCATIONINFO2 oi = { 0 };
    const D3DKMT_OPENRESOURCEFROMNTHANDLE good = { .hDevice = a.device, .hNtHandle = nt, .NumAllocations = 1,
                                                   .pOpenAllocationInfo2 = &oi, .pPrivateRuntimeData = runtime,
                                                   .PrivateRuntimeDataSize = sizeof runtime,
                                                   .pTotalPrivateDriverDataBuffer = total,
                                                   .TotalPrivateDriverDataBufferSize = sizeof total };
    D3DKMT_OPENRESOURCEFROMNTHANDLE o = good;
    o.pOpenAllocationInfo2 = NULL;
    assert_int_equal(D3DKMTOpenResourceFromNtHandle(&o), STATUS_INVALID_PARAMETER);
    o = good;
    o.NumAllocations = 0;
    assert_int_equal(D3DKMTOpenResourceFromNtHandle(&o), STATUS_INVALID_PARAMETER);
    o = good;
    o.pPrivateRuntimeData = NULL;
    assert_int_equal(D3DKMTOpenResourceFromNtHandle(&o), STATUS_INVALID_PARAMETER);
    o = good;
    o.PrivateRuntimeDataSize += 1;
    assert_int_equal(D3DKMTOpenResourceFromNtHandle(&o), STATUS_INVALID_PARAMETER);
    o = good;
    o.pTotalPrivateDriverDataBuffer = NULL;
    assert_int_equal(D3DKMTOpenResourceFromNtHandle(&o), STATUS_INVALID_PARAMETER);
    o = good;
    o.KeyedMutexPrivateRuntimeDataSize = 4;
    assert_int_equal(D3DKMTOpenResourceFromNtHandle(&o), STATUS_INVALID_PARAMETER);
    o = good;
    o.TotalPrivateDriverDataBufferSize -= 1;
    assert_int_equal(D3DKMTOpenResourceFromNtHandle(&o), STATUS_NO_MEMORY);
    o = good;
    o.hDevice = JUNK;
    assert_int_equal(D3DKMTOpenResourceFromNtHandle(&o), STATUS_INVALID_PARAMETER);
    D3DKMT_QUERYRESOURCEINFOFROMNTHANDLE q = { .hDevice = JUNK, .hNtHandle = nt };
    assert_int_equal(D3DKMTQueryResourceInfoFromNtHandle(&q), STATUS_INVALID_PARAMETER);
    o = good;
    assert_int_equal(D3DKMTOpenResourceFromNtHandle(&o), STATUS_SUCCESS);
    assert_int_equal(o.TotalPrivateDriverDataBufferSize, sizeof total);
    struct made opened = { .alloc = oi.hAllocation, .res = o.hResource };
    assert_true(CloseHandle(nt));
    destroy_res(&a, &opened);
    destroy_res(&a, &res);
    renv_close(&a);
}

/* ---- threads -------------------------------------------------------------------------------- */

#define RACERS 4
#define ROUNDS 40

struct racer {
    struct renv dev;
    D3DKMT_HANDLE res;  /* the creator's resource, shared by every racer */
    OBJECT_ATTRIBUTES *attr;
};

/* Each round: a new NT handle on the shared resource, an open of it on the racer's own device,
 * the handle closed, an open by name, the opened resources destroyed. */
static void *race(void *arg)
{
    struct racer *r = arg;
    for (int i = 0; i < ROUNDS; i++) {
        HANDLE nt = NULL;
        if (D3DKMTShareObjects(1, &r->res, NULL, GENERIC_ALL, &nt) != STATUS_SUCCESS)
            return (void *)1;
        struct made m1, m2;
        NTSTATUS st = try_open_nt(&r->dev, nt, &m1, NULL, NULL);
        if (!CloseHandle(nt) || st != STATUS_SUCCESS)
            return (void *)2;
        D3DKMT_OPENNTHANDLEFROMNAME by = { .dwDesiredAccess = GENERIC_ALL, .pObjAttrib = r->attr };
        if (D3DKMTOpenNtHandleFromName(&by) != STATUS_SUCCESS)
            return (void *)3;
        st = try_open_nt(&r->dev, by.hNtHandle, &m2, NULL, NULL);
        if (!CloseHandle(by.hNtHandle) || st != STATUS_SUCCESS)
            return (void *)4;
        D3DKMT_DESTROYALLOCATION d1 = { .hDevice = r->dev.device, .hResource = m1.res };
        D3DKMT_DESTROYALLOCATION d2 = { .hDevice = r->dev.device, .hResource = m2.res };
        if (D3DKMTDestroyAllocation(&d1) != STATUS_SUCCESS || D3DKMTDestroyAllocation(&d2) != STATUS_SUCCESS)
            return (void *)5;
    }
    return NULL;
}

/* Sharing, opening by handle and by name, and closing, from several threads at once on one
 * resource: every call succeeds, and nothing leaks (ASan) or races (TSan). */
/* rule: kernel.sharing-opening-handle-name-closing (TSan and ASan builds) */
static void threads_share_open_and_close_at_once(void **state)
{
    (void)state;
    struct renv a;
    side_open(&a, 0);
    struct made res = make_nt(&a);
    UNICODE_STRING name = ustr(u"\\BaseNamedObjects\\libwddm_race");
    OBJECT_ATTRIBUTES attr;
    InitializeObjectAttributes(&attr, &name, 0, NULL, NULL);
    HANDLE named = share1(res.res, &attr);
    struct racer r[RACERS];
    pthread_t t[RACERS];
    for (int i = 0; i < RACERS; i++) {
        side_open(&r[i].dev, 0);
        r[i].res = res.res;
        r[i].attr = &attr;
    }
    for (int i = 0; i < RACERS; i++)
        assert_int_equal(pthread_create(&t[i], NULL, race, &r[i]), 0);
    for (int i = 0; i < RACERS; i++) {
        void *rc = (void *)-1;
        assert_int_equal(pthread_join(t[i], &rc), 0);
        assert_null(rc);
    }
    assert_true(CloseHandle(named));
    for (int i = 0; i < RACERS; i++)
        renv_close(&r[i].dev);
    destroy_res(&a, &res);
    renv_close(&a);
}

/* ---- two adapters --------------------------------------------------------------------------- */

/* A cross-adapter resource (seed 003) shared by NT handle opens on the other adapter, over the
 * same pages, also after its creator destroyed it; a resource that is not cross-adapter opens
 * only on its own adapter (STATUS_NOT_SUPPORTED elsewhere), as with global handles. */
/* rule: kernel.nt-shared-resource-opens-another-adapter (mutation-checked: the open without the check fails it) */
static void a_cross_adapter_resource_opens_on_the_other_adapter(void **state)
{
    (void)state;
    struct renv a, b;
    side_open(&a, 0);
    side_open(&b, 1);
    struct swgpu_alloc_private p = { .magic = SWGPU_PRIVATE_MAGIC, .version = SWGPU_PRIVATE_VERSION,
                                     .kind = SWGPU_ALLOC_CROSS_ADAPTER, .format = 87 /* B8G8R8A8_UNORM */,
                                     .dimension = 3, .width = 64, .height = 32, .depth = 1, .mip_levels = 1,
                                     .array_size = 1, .xa_usage = SWGPU_XA_USAGE_COPY, .xa_bytes_per_pixel = 4 };
    D3DDDI_ALLOCATIONINFO ai = { .pPrivateDriverData = &p, .PrivateDriverDataSize = sizeof p };
    D3DKMT_CREATEALLOCATION ca = { .hDevice = a.device, .NumAllocations = 1, .pAllocationInfo = &ai };
    ca.Flags.CreateShared = ca.Flags.CreateResource = ca.Flags.CrossAdapter = ca.Flags.NtSecuritySharing = 1;
    assert_int_equal(D3DKMTCreateAllocation(&ca), STATUS_SUCCESS);
    assert_int_equal(ca.hGlobalShare, 0);
    HANDLE nt = share1(ca.hResource, NULL);
    UINT32 size = 128u * 32u; /* the KMD's cross-adapter pitch (128-aligned) x height (4-aligned) */
    D3DKMT_HANDLE up = renv_alloc(&a, SWGPU_ALLOC_UPLOAD, size);
    renv_gpu_write(&a, ai.hAllocation, up, size, 61);
    void *cpu; /* a lock of the written allocation waits for a's GPU copy into it */
    assert_int_equal(renv_lock(&a, ai.hAllocation, LOCK_READONLY, &cpu), STATUS_SUCCESS);
    renv_unlock(&a, ai.hAllocation);
    struct made made = { .alloc = ai.hAllocation, .res = ca.hResource };
    destroy_res(&a, &made);
    D3DKMT_QUERYRESOURCEINFOFROMNTHANDLE q = { .hDevice = b.device, .hNtHandle = nt };
    assert_int_equal(D3DKMTQueryResourceInfoFromNtHandle(&q), STATUS_SUCCESS);
    UINT8 total[sizeof p];
    D3DDDI_OPENALLOCATIONINFO2 oi = { 0 };
    D3DKMT_OPENRESOURCEFROMNTHANDLE o = { .hDevice = b.device, .hNtHandle = nt, .NumAllocations = 1,
                                          .pOpenAllocationInfo2 = &oi, .pTotalPrivateDriverDataBuffer = total,
                                          .TotalPrivateDriverDataBufferSize = q.TotalPrivateDriverDataSize };
    assert_int_equal(D3DKMTOpenResourceFromNtHandle(&o), STATUS_SUCCESS);
    D3DKMT_HANDLE rb = renv_alloc(&b, SWGPU_ALLOC_READBACK, size);
    renv_gpu_check(&b, oi.hAllocation, rb, size, 61);
    assert_true(CloseHandle(nt));
    renv_gpu_check(&b, oi.hAllocation, rb, size, 61);
    struct made opened = { .alloc = oi.hAllocation, .res = o.hResource };
    destroy_res(&b, &opened);
    /* Not cross-adapter: refused on b, with a line. */
    struct made local = make_nt(&a);
    HANDLE nt2 = share1(local.res, NULL);
    struct made junk;
    wddm_clear_refusals();
    assert_int_equal(try_open_nt(&b, nt2, &junk, NULL, NULL), STATUS_NOT_SUPPORTED);
    renv_expect_refusal("opens only on the adapter that created it");
    /* The open refuses it too, with the buffers the creator's adapter answers for. */
    UINT8 total2[sizeof(struct swgpu_alloc_private)], runtime2[sizeof runtime_data];
    D3DDDI_OPENALLOCATIONINFO2 oi2 = { 0 };
    D3DKMT_OPENRESOURCEFROMNTHANDLE o2 = { .hDevice = b.device, .hNtHandle = nt2, .NumAllocations = 1,
                                           .pOpenAllocationInfo2 = &oi2, .pPrivateRuntimeData = runtime2,
                                           .PrivateRuntimeDataSize = sizeof runtime2,
                                           .pTotalPrivateDriverDataBuffer = total2,
                                           .TotalPrivateDriverDataBufferSize = sizeof total2 };
    wddm_clear_refusals();
    assert_int_equal(D3DKMTOpenResourceFromNtHandle(&o2), STATUS_NOT_SUPPORTED);
    renv_expect_refusal("opens only on the adapter that created it");
    assert_true(CloseHandle(nt2));
    destroy_res(&a, &local);
    renv_close(&b);
    renv_close(&a);
}

static LUID adapter_luid(int which)
{
    D3DKMT_ADAPTERINFO info[4];
    D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 4, .pAdapters = info };
    assert_int_equal(D3DKMTEnumAdapters2(&en), STATUS_SUCCESS);
    for (ULONG i = 0; i < en.NumAdapters; i++) {
        D3DKMT_CLOSEADAPTER c = { .hAdapter = info[i].hAdapter };
        assert_int_equal(D3DKMTCloseAdapter(&c), STATUS_SUCCESS);
    }
    return info[which].AdapterLuid;
}

static bool luid_is(LUID got, LUID want)
{
    return got.LowPart == want.LowPart && got.HighPart == want.HighPart;
}

/* D3DKMTGetSharedResourceAdapterLuid (WDK d3dkmthk.h): the adapter a shared resource was created
 * on, named by its global share handle or by an NT handle to it - exactly one; a resource of
 * the second adapter names the second adapter. Anything else is refused: both or neither, a
 * handle that names no share, a closed NT handle, an NT handle to a sync object. */
/* rule: kernel.shared-resource-adapter-luid */
static void a_shared_resource_names_the_adapter_it_was_created_on(void **state)
{
    (void)state;
    struct renv a, b;
    side_open(&a, 0);
    side_open(&b, 1);
    LUID la = adapter_luid(0), lb = adapter_luid(1);
    assert_false(luid_is(la, lb));
    struct made global_made, nt_made;
    D3DKMT_HANDLE global = 0;
    assert_int_equal(try_make(&b, true, false, &global_made, &global), STATUS_SUCCESS);
    assert_int_not_equal(global, 0);
    nt_made = make_nt(&a);
    HANDLE nt = share1(nt_made.res, NULL);
    D3DKMT_GETSHAREDRESOURCEADAPTERLUID q = { .hGlobalShare = global };
    assert_int_equal(D3DKMTGetSharedResourceAdapterLuid(&q), STATUS_SUCCESS);
    assert_true(luid_is(q.AdapterLuid, lb));
    q = (D3DKMT_GETSHAREDRESOURCEADAPTERLUID){ .hNtHandle = nt };
    assert_int_equal(D3DKMTGetSharedResourceAdapterLuid(&q), STATUS_SUCCESS);
    assert_true(luid_is(q.AdapterLuid, la));
    q = (D3DKMT_GETSHAREDRESOURCEADAPTERLUID){ .hGlobalShare = global, .hNtHandle = nt };
    assert_int_equal(D3DKMTGetSharedResourceAdapterLuid(&q), STATUS_INVALID_PARAMETER);
    q = (D3DKMT_GETSHAREDRESOURCEADAPTERLUID){ 0 };
    assert_int_equal(D3DKMTGetSharedResourceAdapterLuid(&q), STATUS_INVALID_PARAMETER);
    assert_int_equal(D3DKMTGetSharedResourceAdapterLuid(NULL), STATUS_INVALID_PARAMETER);
    q = (D3DKMT_GETSHAREDRESOURCEADAPTERLUID){ .hGlobalShare = global_made.res }; /* a local handle */
    assert_int_equal(D3DKMTGetSharedResourceAdapterLuid(&q), STATUS_INVALID_PARAMETER);
    D3DKMT_CREATESYNCHRONIZATIONOBJECT2 cs = { .hDevice = a.device };
    cs.Info.Type = D3DDDI_MONITORED_FENCE;
    cs.Info.Flags.Shared = cs.Info.Flags.NtSecuritySharing = 1;
    assert_int_equal(D3DKMTCreateSynchronizationObject2(&cs), STATUS_SUCCESS);
    HANDLE sync_nt = share1(cs.hSyncObject, NULL);
    q = (D3DKMT_GETSHAREDRESOURCEADAPTERLUID){ .hNtHandle = sync_nt };
    assert_int_equal(D3DKMTGetSharedResourceAdapterLuid(&q), STATUS_OBJECT_TYPE_MISMATCH);
    assert_true(CloseHandle(sync_nt));
    assert_true(CloseHandle(nt));
    q = (D3DKMT_GETSHAREDRESOURCEADAPTERLUID){ .hNtHandle = nt };
    assert_int_equal(D3DKMTGetSharedResourceAdapterLuid(&q), STATUS_INVALID_HANDLE);
    D3DKMT_DESTROYSYNCHRONIZATIONOBJECT ds = { .hSyncObject = cs.hSyncObject };
    assert_int_equal(D3DKMTDestroySynchronizationObject(&ds), STATUS_SUCCESS);
    destroy_res(&a, &nt_made);
    destroy_res(&b, &global_made);
    renv_close(&b);
    renv_close(&a);
}

int main(void)
{
    setenv("WDDM_SEGMENT_LOCAL_MB", "1", 1);
    setenv("WDDM_SEGMENT_VISIBLE_MB", "1", 1);
    setenv("WDDM_SEGMENT_APERTURE_MB", "4", 1);
    setenv("WDDM_ADAPTER_COUNT", "2", 1);
    unsetenv("WDDM_KMD_CAPS");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_resource_opens_from_its_nt_handle_on_another_device),
        cmocka_unit_test(the_nt_handle_keeps_the_resource_after_its_creator_went),
        cmocka_unit_test(what_is_not_made_for_nt_sharing_is_refused),
        cmocka_unit_test(keyed_mutex_and_fence_open_with_their_resource),
        cmocka_unit_test(a_sync_object_opens_from_its_nt_handle),
        cmocka_unit_test(names_open_until_the_last_nt_handle_is_closed),
        cmocka_unit_test(bogus_nt_handles_are_refused),
        cmocka_unit_test(open_from_nt_handle_checks_its_buffers),
        cmocka_unit_test(threads_share_open_and_close_at_once),
        cmocka_unit_test(a_cross_adapter_resource_opens_on_the_other_adapter),
        cmocka_unit_test(a_shared_resource_names_the_adapter_it_was_created_on),
    };
    return cmocka_run_group_tests(tests, keep_adapters, NULL);
}
