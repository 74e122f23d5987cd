/* Helpers of the VidMm tests that drive the D3DKMT entry points against the reference KMD and
 * the software GPU (the whole kernel-side stack): allocations of the KMD's kinds, GPU copies
 * built as real DMA buffers with patch locations, locks. Segment sizes come from the
 * WDDM_SEGMENT_*_MB environment variables, set by each test's main() before the adapter
 * starts. */
#ifndef WDDM_TESTS_DXGKRNL_REAL_ENV_H
#define WDDM_TESTS_DXGKRNL_REAL_ENV_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <wddm/d3dkmthk.h>
#include <wddm/swgpu.h>
#include <wddm/wddm.h>

#include "drv/swgpu_private.h"
#include "gpu/swgpu_isa.h"

#define LOCK_READONLY 0x1u
#define LOCK_WRITEONLY 0x2u
#define LOCK_DONOTWAIT 0x4u
#define LOCK_DISCARD 0x80u
#define LOCK_NOEXISTINGREFERENCE 0x100u

struct renv {
    D3DKMT_HANDLE adapter, device, context;
    D3DKMT_CREATECONTEXT cc;
};

/* A device, and a 3-D context of it, on `adapter` (the renv then owns that adapter handle). */
static inline void renv_open_on(struct renv *e, D3DKMT_HANDLE adapter)
{
    memset(e, 0, sizeof *e);
    e->adapter = adapter;
    D3DKMT_CREATEDEVICE cd = { .hAdapter = adapter };
    assert_int_equal(D3DKMTCreateDevice(&cd), STATUS_SUCCESS);
    e->device = cd.hDevice;
    e->cc = (D3DKMT_CREATECONTEXT){ .hDevice = e->device, .NodeOrdinal = 0 };
    assert_int_equal(D3DKMTCreateContext(&e->cc), STATUS_SUCCESS);
    e->context = e->cc.hContext;
}

/* The process's one adapter, started with whichever KMD wddm_set_kmd_entry named. */
static inline void renv_open_kmd(struct renv *e)
{
    D3DKMT_ADAPTERINFO info[4];
    D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 4, .pAdapters = info };
    assert_int_equal(D3DKMTEnumAdapters2(&en), STATUS_SUCCESS);
    assert_int_equal(en.NumAdapters, 1);
    renv_open_on(e, info[0].hAdapter);
}

/* ... with the built-in reference KMD. */
static inline void renv_open(struct renv *e)
{
    wddm_set_kmd_entry(NULL);
    renv_open_kmd(e);
}

/* WDDM_ADAPTER_COUNT=2: `a` on adapter 0, `b` on adapter 1 (one enumeration). */
static inline void renv_open_pair(struct renv *a, struct renv *b)
{
    D3DKMT_ADAPTERINFO info[4];
    D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 4, .pAdapters = info };
    assert_int_equal(D3DKMTEnumAdapters2(&en), STATUS_SUCCESS);
    assert_int_equal(en.NumAdapters, 2);
    renv_open_on(a, info[0].hAdapter);
    renv_open_on(b, info[1].hAdapter);
}

/* The last refusal lines name `needle`. */
static inline void renv_expect_refusal(const char *needle)
{
    char why[1100];
    wddm_last_refusals(why, sizeof why);
    if (!needle)
        fail_msg("a refusal was expected to name something");
    else if (!strstr(why, needle))
        fail_msg("the refusal does not name \"%s\":\n%s", needle, why);
}

/* `call` answers `status` and leaves a refusal naming `needle` (the lines before it forgotten). */
#define RENV_REFUSED(call, status, needle)                                                           \
    do {                                                                                           \
        wddm_clear_refusals();                                                                     \
        assert_int_equal((call), (status));                                                        \
        renv_expect_refusal(needle);                                                               \
    } while (0)

static inline void renv_close(struct renv *e)
{
    wddm_swgpu_set_paused(0);
    D3DKMT_DESTROYDEVICE dd = { .hDevice = e->device };
    assert_int_equal(D3DKMTDestroyDevice(&dd), STATUS_SUCCESS); /* takes everything along */
    D3DKMT_CLOSEADAPTER ca = { .hAdapter = e->adapter };
    assert_int_equal(D3DKMTCloseAdapter(&ca), STATUS_SUCCESS);
}

/* The reference KMD's private data of a linear allocation of `kind` and `size`. */
static inline struct swgpu_alloc_private renv_private(UINT32 kind, UINT64 size)
{
    return (struct swgpu_alloc_private){ .magic = SWGPU_PRIVATE_MAGIC, .version = SWGPU_PRIVATE_VERSION,
                                         .kind = kind, .size = size, .dimension = 1, .width = (UINT32)size,
                                         .height = 1, .depth = 1, .mip_levels = 1, .array_size = 1 };
}

static inline NTSTATUS renv_try_alloc(struct renv *e, UINT32 kind, UINT64 size, D3DKMT_HANDLE *out)
{
    struct swgpu_alloc_private p = renv_private(kind, size);
    D3DDDI_ALLOCATIONINFO ai = { .pPrivateDriverData = &p, .PrivateDriverDataSize = sizeof p };
    D3DKMT_CREATEALLOCATION ca = { .hDevice = e->device, .NumAllocations = 1, .pAllocationInfo = &ai };
    NTSTATUS st = D3DKMTCreateAllocation(&ca);
    *out = ai.hAllocation;
    return st;
}

static inline D3DKMT_HANDLE renv_alloc(struct renv *e, UINT32 kind, UINT64 size)
{
    D3DKMT_HANDLE h = 0;
    assert_int_equal(renv_try_alloc(e, kind, size, &h), STATUS_SUCCESS);
    return h;
}

/* A resource of two allocations of `kind` and `size` (CreateResource); its allocations in alloc. */
static inline D3DKMT_HANDLE renv_resource(struct renv *e, UINT32 kind, UINT64 size, D3DKMT_HANDLE alloc[2])
{
    struct swgpu_alloc_private p = { .magic = SWGPU_PRIVATE_MAGIC, .version = SWGPU_PRIVATE_VERSION,
                                     .kind = kind, .size = size, .dimension = 1, .width = (UINT32)size,
                                     .height = 1, .depth = 1, .mip_levels = 1, .array_size = 1 };
    D3DDDI_ALLOCATIONINFO ai[2] = { { .pPrivateDriverData = &p, .PrivateDriverDataSize = sizeof p },
                                    { .pPrivateDriverData = &p, .PrivateDriverDataSize = sizeof p } };
    D3DKMT_CREATEALLOCATION ca = { .hDevice = e->device, .NumAllocations = 2, .pAllocationInfo = ai };
    ca.Flags.CreateResource = 1;
    assert_int_equal(D3DKMTCreateAllocation(&ca), STATUS_SUCCESS);
    alloc[0] = ai[0].hAllocation;
    alloc[1] = ai[1].hAllocation;
    return ca.hResource;
}

static inline void renv_free(struct renv *e, D3DKMT_HANDLE a)
{
    D3DKMT_DESTROYALLOCATION da = { .hDevice = e->device, .phAllocationList = &a, .AllocationCount = 1 };
    assert_int_equal(D3DKMTDestroyAllocation(&da), STATUS_SUCCESS);
}

/* One DMA buffer: COPY of `bytes` from src to dst, both patched by the KMD. */
static inline NTSTATUS renv_copy(struct renv *e, D3DKMT_HANDLE dst, D3DKMT_HANDLE src, UINT32 bytes)
{
    struct swgpu_cmd_copy c = swgpu_cmd_copy_bytes(bytes);
    memcpy(e->cc.pCommandBuffer, &c, sizeof c);
    e->cc.pAllocationList[0] = (D3DDDI_ALLOCATIONLIST){ .hAllocation = dst };
    e->cc.pAllocationList[0].WriteOperation = 1;
    e->cc.pAllocationList[1] = (D3DDDI_ALLOCATIONLIST){ .hAllocation = src };
    e->cc.pPatchLocationList[0] = (D3DDDI_PATCHLOCATIONLIST){
        .AllocationIndex = 0, .PatchOffset = (UINT)offsetof(struct swgpu_cmd_copy, dst.addr) };
    e->cc.pPatchLocationList[1] = (D3DDDI_PATCHLOCATIONLIST){
        .AllocationIndex = 1, .PatchOffset = (UINT)offsetof(struct swgpu_cmd_copy, src.addr) };
    D3DKMT_RENDER r = { .hContext = e->context, .CommandLength = sizeof c, .AllocationCount = 2,
                        .PatchLocationCount = 2 };
    return D3DKMTRender(&r);
}

static inline NTSTATUS renv_lock(struct renv *e, D3DKMT_HANDLE a, UINT flags, void **p)
{
    D3DKMT_LOCK l = { .hDevice = e->device, .hAllocation = a };
    l.Flags.Value = flags;
    NTSTATUS st = D3DKMTLock(&l);
    *p = l.pData;
    return st;
}

static inline void renv_unlock(struct renv *e, D3DKMT_HANDLE a)
{
    D3DKMT_UNLOCK u = { .hDevice = e->device, .NumAllocations = 1, .phAllocations = &a };
    assert_int_equal(D3DKMTUnlock(&u), STATUS_SUCCESS);
}

static inline struct wddm_counters renv_counters(void)
{
    struct wddm_counters c;
    assert_int_equal(wddm_get_counters(&c), STATUS_SUCCESS);
    return c;
}

/* Deterministic content and its checksum (FNV-1a 64). */
static inline void renv_pattern(void *p, size_t n, uint32_t seed)
{
    uint8_t *b = p;
    uint32_t x = seed * 2654435761u + 1u;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        b[i] = (uint8_t)x;
    }
}

static inline uint64_t renv_checksum(const void *p, size_t n)
{
    const uint8_t *b = p;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

/* A GPU_ONLY allocation written by a GPU copy from an UPLOAD buffer holding pattern(seed). */
static inline void renv_gpu_write(struct renv *e, D3DKMT_HANDLE dst, D3DKMT_HANDLE upload, UINT32 size, uint32_t seed)
{
    void *p;
    /* Nothing queued names the upload: an idle instance may be reused (docs/semantics.md §3.3). */
    assert_int_equal(renv_lock(e, upload, LOCK_DISCARD | LOCK_NOEXISTINGREFERENCE | LOCK_WRITEONLY, &p), STATUS_SUCCESS);
    renv_pattern(p, size, seed);
    renv_unlock(e, upload);
    assert_int_equal(renv_copy(e, dst, upload, size), STATUS_SUCCESS);
}

/* Copies src into the READBACK buffer on the GPU and compares every byte with pattern(seed). */
static inline void renv_gpu_check(struct renv *e, D3DKMT_HANDLE src, D3DKMT_HANDLE readback, UINT32 size,
                                  uint32_t seed)
{
    assert_int_equal(renv_copy(e, readback, src, size), STATUS_SUCCESS);
    void *p;
    assert_int_equal(renv_lock(e, readback, LOCK_READONLY, &p), STATUS_SUCCESS);
    UINT8 *want = malloc(size);
    assert_non_null(want);
    renv_pattern(want, size, seed);
    assert_memory_equal(p, want, size);
    free(want);
    renv_unlock(e, readback);
}

/* D3DKMTGetDeviceState(EXECUTION) of a device. */
static inline D3DKMT_DEVICEEXECUTION_STATE renv_exec_state(D3DKMT_HANDLE device)
{
    D3DKMT_GETDEVICESTATE gs = { .hDevice = device, .StateType = D3DKMT_DEVICESTATE_EXECUTION };
    assert_int_equal(D3DKMTGetDeviceState(&gs), STATUS_SUCCESS);
    return gs.ExecutionState;
}

/* ---- GpuMmu model (issue 6): the reference KMD started with the GpuMmu caps ----------------- */
#include <stdio.h>
#include <unistd.h>

/* This process's caps file. */
static inline const char *renv_caps_path(void)
{
    static char path[64];
    if (!path[0])
        snprintf(path, sizeof path, "/tmp/wddm-test-%d.caps", (int)getpid());
    return path;
}

/* The next adapter start reads `lines` as its caps file (WDDM_KMD_CAPS); NULL: the KMD's own. */
static inline void renv_caps(const char *lines)
{
    if (!lines) {
        unsetenv("WDDM_KMD_CAPS");
        return;
    }
    FILE *f = fopen(renv_caps_path(), "w");
    assert_non_null(f);
    fputs(lines, f);
    fclose(f);
    setenv("WDDM_KMD_CAPS", renv_caps_path(), 1);
}

/* Back to the KMD's own caps, and the file removed. */
static inline void renv_caps_remove(void)
{
    unsetenv("WDDM_KMD_CAPS");
    unlink(renv_caps_path());
}

/* The three caps lines of the GpuMmu model (plus `extra`) for the next adapter start. */
static inline void renv_gpummu_caps(const char *extra)
{
    char text[2048];
    snprintf(text, sizeof text,
             "DXGK_DRIVERCAPS.WDDMVersion = 0x2000\n"
             "DXGK_VIDMMCAPS.VirtualAddressingSupported = 1\n"
             "DXGK_VIDMMCAPS.GpuMmuSupported = 1\n%s", extra ? extra : "");
    renv_caps(text);
}

/* KMTQAITYPE_WDDM_2_0_CAPS of an adapter: the addressing model it runs. */
static inline D3DKMT_WDDM_2_0_CAPS renv_wddm_2_0_caps(D3DKMT_HANDLE adapter)
{
    D3DKMT_WDDM_2_0_CAPS c = { .Value = 0 };
    D3DKMT_QUERYADAPTERINFO q = { .hAdapter = adapter, .Type = KMTQAITYPE_WDDM_2_0_CAPS,
                                  .pPrivateDriverData = &c, .PrivateDriverDataSize = sizeof c };
    assert_int_equal(D3DKMTQueryAdapterInfo(&q), STATUS_SUCCESS);
    return c;
}

/* Maps pages of an allocation at a VA VidMm picks (Protection.Write as asked). */
static inline D3DGPU_VIRTUAL_ADDRESS renv_map(D3DKMT_HANDLE queue_or_device, D3DKMT_HANDLE alloc, UINT64 pages,
                                              bool write)
{
    D3DDDI_MAPGPUVIRTUALADDRESS m = { .hPagingQueue = queue_or_device, .hAllocation = alloc, .SizeInPages = pages };
    m.Protection.Write = write;
    NTSTATUS st = D3DKMTMapGpuVirtualAddress(&m);
    assert_true(st == STATUS_SUCCESS || st == STATUS_PENDING);
    assert_int_not_equal(m.VirtualAddress, 0);
    return m.VirtualAddress;
}

static inline NTSTATUS renv_make_resident(D3DKMT_HANDLE device, D3DKMT_HANDLE *list, UINT n)
{
    D3DDDI_MAKERESIDENT mr = { .hPagingQueue = device, .NumAllocations = n, .AllocationList = list };
    return D3DKMTMakeResident(&mr);
}

static inline NTSTATUS renv_evict(D3DKMT_HANDLE device, D3DKMT_HANDLE *list, UINT n)
{
    D3DKMT_EVICT ev = { .hDevice = device, .NumAllocations = n, .AllocationList = list };
    return D3DKMTEvict(&ev);
}

/* A CPU pointer with D3DKMTLock2 (no renaming, no synchronisation: WDDM 2.x). */
static inline void *renv_lock2(D3DKMT_HANDLE device, D3DKMT_HANDLE alloc)
{
    D3DKMT_LOCK2 l = { .hDevice = device, .hAllocation = alloc };
    assert_int_equal(D3DKMTLock2(&l), STATUS_SUCCESS);
    return l.pData;
}

static inline void renv_unlock2(D3DKMT_HANDLE device, D3DKMT_HANDLE alloc)
{
    D3DKMT_UNLOCK2 u = { .hDevice = device, .hAllocation = alloc };
    assert_int_equal(D3DKMTUnlock2(&u), STATUS_SUCCESS);
}

/* The allocation holds `bytes` of pattern `seed` (read through pfnLock2Cb's pointer). */
static inline void renv_check2(D3DKMT_HANDLE device, D3DKMT_HANDLE alloc, size_t bytes, uint32_t seed)
{
    UINT8 *want = malloc(bytes);
    assert_non_null(want);
    renv_pattern(want, bytes, seed);
    void *p = renv_lock2(device, alloc);
    assert_memory_equal(p, want, bytes);
    renv_unlock2(device, alloc);
    free(want);
}

/* The device's execution state once its fault arrived: waited for (bounded, 20 s) while the GPU
 * runs the faulting buffer. */
static inline D3DKMT_DEVICEEXECUTION_STATE renv_wait_lost(D3DKMT_HANDLE device)
{
    for (int i = 0; i < 20000 && renv_exec_state(device) == D3DKMT_DEVICEEXECUTION_ACTIVE; i++)
        usleep(1000);
    return renv_exec_state(device);
}

/* One COPY command with GPU virtual addresses (no patching in the GpuMmu model). */
static inline UINT renv_va_copy_cmd(void *at, D3DGPU_VIRTUAL_ADDRESS dst, D3DGPU_VIRTUAL_ADDRESS src, UINT32 bytes)
{
    struct swgpu_cmd_copy c = swgpu_cmd_copy_bytes(bytes);
    c.dst.addr = dst;
    c.src.addr = src;
    memcpy(at, &c, sizeof c);
    return (UINT)sizeof c;
}

static inline NTSTATUS renv_submit(D3DKMT_HANDLE context, D3DGPU_VIRTUAL_ADDRESS cmds, UINT length)
{
    D3DKMT_SUBMITCOMMAND s = { .Commands = cmds, .CommandLength = length, .BroadcastContextCount = 1 };
    s.BroadcastContext[0] = context;
    return D3DKMTSubmitCommand(&s);
}

/* Waits until the context's work submitted so far completed: a monitored fence signalled by
 * the GPU after it (the GpuMmu model has no allocation list a lock could wait on). */
static inline void renv_finish(D3DKMT_HANDLE device, D3DKMT_HANDLE context)
{
    D3DKMT_CREATESYNCHRONIZATIONOBJECT2 cs = { .hDevice = device };
    cs.Info.Type = D3DDDI_MONITORED_FENCE;
    assert_int_equal(D3DKMTCreateSynchronizationObject2(&cs), STATUS_SUCCESS);
    UINT64 v = 1;
    D3DKMT_SIGNALSYNCHRONIZATIONOBJECTFROMGPU sg = { .hContext = context, .ObjectCount = 1,
                                                     .ObjectHandleArray = &cs.hSyncObject,
                                                     .MonitoredFenceValueArray = &v };
    assert_int_equal(D3DKMTSignalSynchronizationObjectFromGpu(&sg), STATUS_SUCCESS);
    D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMCPU w = { .hDevice = device, .ObjectCount = 1,
                                                     .ObjectHandleArray = &cs.hSyncObject, .FenceValueArray = &v };
    assert_int_equal(wddm_wait_for_synchronization_object_from_cpu_timeout(&w, 20000), STATUS_SUCCESS);
    D3DKMT_DESTROYSYNCHRONIZATIONOBJECT ds = { .hSyncObject = cs.hSyncObject };
    assert_int_equal(D3DKMTDestroySynchronizationObject(&ds), STATUS_SUCCESS);
}

#endif
