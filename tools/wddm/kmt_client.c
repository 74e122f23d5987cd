/* The tools' client at the D3DKMT boundary: see kmt_client.h. */
#include "kmt_client.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "drv/swgpu_private.h"
#include "gpu/swgpu_isa.h"

int wddm_kmt_open(struct wddm_kmt *k)
{
    memset(k, 0, sizeof *k);
    D3DKMT_ADAPTERINFO info[4];
    D3DKMT_ENUMADAPTERS2 en = { .NumAdapters = 4, .pAdapters = info };
    if (D3DKMTEnumAdapters2(&en) != STATUS_SUCCESS || !en.NumAdapters)
        return 0;
    for (ULONG i = 1; i < en.NumAdapters; i++) {
        D3DKMT_CLOSEADAPTER c = { .hAdapter = info[i].hAdapter };
        D3DKMTCloseAdapter(&c);
    }
    k->adapter = info[0].hAdapter;
    D3DKMT_CREATEDEVICE cd = { .hAdapter = k->adapter };
    if (D3DKMTCreateDevice(&cd) == STATUS_SUCCESS) {
        k->device = cd.hDevice;
        k->cc = (D3DKMT_CREATECONTEXT){ .hDevice = k->device, .NodeOrdinal = 0 };
        if (D3DKMTCreateContext(&k->cc) == STATUS_SUCCESS) {
            k->context = k->cc.hContext;
            if (k->cc.pCommandBuffer)
                return 1;
            /* The client writes DMA buffers with allocation and patch lists (WDDM 1.x); a GpuMmu
             * adapter gives a context no command buffer (D3DKMTSubmitCommand only, issue 6). */
            fprintf(stderr, "wddm: this tool drives the WDDM 1.x submission path; the adapter runs the "
                            "GpuMmu model (WDDM_KMD_CAPS): skipped\n");
            wddm_kmt_close(k);
            return -1;
        }
    }
    wddm_kmt_close(k);
    return 0;
}

void wddm_kmt_close(struct wddm_kmt *k)
{
    if (k->device) {
        D3DKMT_DESTROYDEVICE dd = { .hDevice = k->device };
        D3DKMTDestroyDevice(&dd);
    }
    if (k->adapter) {
        D3DKMT_CLOSEADAPTER ca = { .hAdapter = k->adapter };
        D3DKMTCloseAdapter(&ca);
    }
    memset(k, 0, sizeof *k);
}

D3DKMT_HANDLE wddm_kmt_alloc(struct wddm_kmt *k, UINT32 kind, UINT64 size)
{
    struct swgpu_alloc_private p = { .magic = SWGPU_PRIVATE_MAGIC, .version = SWGPU_PRIVATE_VERSION,
                                     .kind = kind, .size = size, .dimension = 1, .width = (UINT32)size,
                                     .height = 1, .depth = 1, .mip_levels = 1, .array_size = 1 };
    D3DDDI_ALLOCATIONINFO ai = { .pPrivateDriverData = &p, .PrivateDriverDataSize = sizeof p };
    D3DKMT_CREATEALLOCATION ca = { .hDevice = k->device, .NumAllocations = 1, .pAllocationInfo = &ai };
    return D3DKMTCreateAllocation(&ca) == STATUS_SUCCESS ? ai.hAllocation : 0;
}

NTSTATUS wddm_kmt_copy(struct wddm_kmt *k, D3DKMT_HANDLE dst, D3DKMT_HANDLE src, UINT32 bytes)
{
    return wddm_kmt_copy_many(k, dst, &src, 1, bytes);
}

NTSTATUS wddm_kmt_copy_many(struct wddm_kmt *k, D3DKMT_HANDLE dst, const D3DKMT_HANDLE *srcs, UINT count,
                            UINT32 bytes)
{
    /* The allocation list names each allocation once (a UMD merges repeated references); entry
     * 0 is dst, written by every copy. */
    UINT lists = 1;
    k->cc.pAllocationList[0] = (D3DDDI_ALLOCATIONLIST){ .hAllocation = dst };
    k->cc.pAllocationList[0].WriteOperation = 1;
    if ((size_t)count * sizeof(struct swgpu_cmd_copy) > k->cc.CommandBufferSize ||
        count + 1 > k->cc.AllocationListSize || 2 * count > k->cc.PatchLocationListSize)
        return STATUS_INVALID_PARAMETER;
    for (UINT i = 0; i < count; i++) {
        UINT index = 0;
        while (index < lists && k->cc.pAllocationList[index].hAllocation != srcs[i])
            index++;
        if (index == lists)
            k->cc.pAllocationList[lists++] = (D3DDDI_ALLOCATIONLIST){ .hAllocation = srcs[i] };
        struct swgpu_cmd_copy c = swgpu_cmd_copy_bytes(bytes);
        UINT at = i * (UINT)sizeof c;
        memcpy((char *)k->cc.pCommandBuffer + at, &c, sizeof c);
        /* Address fields hold 0; the KMD patches allocation address + AllocationOffset in. */
        k->cc.pPatchLocationList[2 * i] = (D3DDDI_PATCHLOCATIONLIST){
            .AllocationIndex = 0, .PatchOffset = at + (UINT)offsetof(struct swgpu_cmd_copy, dst.addr) };
        k->cc.pPatchLocationList[2 * i + 1] = (D3DDDI_PATCHLOCATIONLIST){
            .AllocationIndex = index, .PatchOffset = at + (UINT)offsetof(struct swgpu_cmd_copy, src.addr) };
    }
    D3DKMT_RENDER r = { .hContext = k->context, .CommandLength = count * (UINT)sizeof(struct swgpu_cmd_copy),
                        .AllocationCount = lists, .PatchLocationCount = 2 * count };
    NTSTATUS st = D3DKMTRender(&r);
    if (st == STATUS_SUCCESS) { /* the next DMA buffer is written where the kernel says */
        k->cc.pCommandBuffer = r.pNewCommandBuffer;
        k->cc.CommandBufferSize = r.NewCommandBufferSize;
        k->cc.pAllocationList = r.pNewAllocationList;
        k->cc.AllocationListSize = r.NewAllocationListSize;
        k->cc.pPatchLocationList = r.pNewPatchLocationList;
        k->cc.PatchLocationListSize = r.NewPatchLocationListSize;
    }
    return st;
}

NTSTATUS wddm_kmt_lock(struct wddm_kmt *k, D3DKMT_HANDLE a, UINT flags, void **p)
{
    D3DKMT_LOCK l = { .hDevice = k->device, .hAllocation = a };
    l.Flags.Value = flags;
    NTSTATUS st = D3DKMTLock(&l);
    *p = l.pData;
    return st;
}

void wddm_kmt_unlock(struct wddm_kmt *k, D3DKMT_HANDLE a)
{
    D3DKMT_UNLOCK u = { .hDevice = k->device, .NumAllocations = 1, .phAllocations = &a };
    D3DKMTUnlock(&u);
}

#define KMT_WAIT_CHUNK 8 /* fences per CPU wait, below the 32 a wait may name */

D3DKMT_HANDLE wddm_kmt_fence_create(D3DKMT_HANDLE device)
{
    D3DKMT_CREATESYNCHRONIZATIONOBJECT2 c = { .hDevice = device };
    c.Info.Type = D3DDDI_MONITORED_FENCE;
    return D3DKMTCreateSynchronizationObject2(&c) == STATUS_SUCCESS ? c.hSyncObject : 0;
}

void wddm_kmt_fence_destroy(D3DKMT_HANDLE h)
{
    D3DKMT_DESTROYSYNCHRONIZATIONOBJECT d = { .hSyncObject = h };
    D3DKMTDestroySynchronizationObject(&d);
}

NTSTATUS wddm_kmt_gpu_signal(D3DKMT_HANDLE context, D3DKMT_HANDLE fence, UINT64 value)
{
    D3DKMT_SIGNALSYNCHRONIZATIONOBJECTFROMGPU s = { .hContext = context, .ObjectCount = 1,
                                                     .ObjectHandleArray = &fence };
    s.MonitoredFenceValueArray = &value;
    return D3DKMTSignalSynchronizationObjectFromGpu(&s);
}

NTSTATUS wddm_kmt_cpu_signal(D3DKMT_HANDLE device, D3DKMT_HANDLE fence, UINT64 value)
{
    D3DKMT_SIGNALSYNCHRONIZATIONOBJECTFROMCPU s = { .hDevice = device, .ObjectCount = 1,
                                                     .ObjectHandleArray = &fence, .FenceValueArray = &value };
    return D3DKMTSignalSynchronizationObjectFromCpu(&s);
}

NTSTATUS wddm_kmt_cpu_wait(D3DKMT_HANDLE device, const D3DKMT_HANDLE *fences, const UINT64 *values, UINT n)
{
    NTSTATUS st = STATUS_SUCCESS;
    for (UINT i = 0; i < n && st == STATUS_SUCCESS; i += KMT_WAIT_CHUNK) {
        UINT count = n - i < KMT_WAIT_CHUNK ? n - i : KMT_WAIT_CHUNK;
        D3DKMT_WAITFORSYNCHRONIZATIONOBJECTFROMCPU w = { .hDevice = device, .ObjectCount = count,
                                                          .ObjectHandleArray = fences + i, .FenceValueArray = values + i };
        st = D3DKMTWaitForSynchronizationObjectFromCpu(&w);
    }
    return st;
}
