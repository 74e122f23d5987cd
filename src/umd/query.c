/* query.c - D3D10DDI_QUERY_EVENT (issue 4 "D3D11_QUERY_EVENT on top"): CalcPrivateQuerySize,
 * CreateQuery, DestroyQuery, QueryBegin, QueryEnd, QueryGetData.
 *
 * Design (docs/architecture.md "Event queries"): no kernel object. Each query owns one small
 * CPU-readable allocation (SWGPU_ALLOC_READBACK, 8 bytes) made with pfnAllocateCb. QueryEnd
 * queues a SWGPU_OP_WRITE of the query's next sequence number into it, patched like every
 * other command (cmdbuf.c); the device's one rendering context runs its commands in order, so
 * the write completes only after every command queued before End. QueryGetData locks the
 * allocation with DonotWait (wddm-semantics §3.2): WASSTILLDRAWING while the write is pending,
 * else it reads the value and compares it with the sequence End issued.
 *
 * Handle memory (runtime-owned, CalcPrivateQuerySize bytes): struct umd_query, then an
 * embedded struct umd_resource with one subresource describing the allocation, so the
 * command-buffer helpers (umd_emit_write, umd_is_queued) treat it like any resource.
 * Threading: immediate context only, serialised by the runtime's device lock (umd.h). */
#include "umd/umd.h"

#include <string.h>

#define UMD_QUERY_ALLOC_BYTES 8u

struct umd_query {
    struct umd_device *device;
    D3D10DDI_HRTQUERY hRTQuery;
    UINT64 issued;          /* sequence number the last QueryEnd wrote; 0 = never ended */
    BOOL created;           /* the allocation exists (CreateQuery succeeded) */
    struct umd_resource *res; /* the allocation, described as a one-subresource buffer */
};

static SIZE_T umd_query_res_offset(void)
{
    return (sizeof(struct umd_query) + 15u) & ~(SIZE_T)15u;
}

static struct umd_query *umd_query(D3D10DDI_HQUERY h) { return (struct umd_query *)h.pDrvPrivate; }

SIZE_T APIENTRY umd_CalcPrivateQuerySize(D3D10DDI_HDEVICE hDevice, const D3D10DDIARG_CREATEQUERY *args)
{
    (void)hDevice;
    (void)args;
    return umd_query_res_offset() + sizeof(struct umd_resource) + sizeof(struct umd_subresource);
}

VOID APIENTRY umd_CreateQuery(D3D10DDI_HDEVICE hDevice, const D3D10DDIARG_CREATEQUERY *args, D3D10DDI_HQUERY hQuery,
                              D3D10DDI_HRTQUERY hRTQuery)
{
    struct umd_device *dev = umd_device(hDevice);
    struct umd_query *q = umd_query(hQuery);
    memset(q, 0, sizeof *q);
    q->device = dev;
    q->hRTQuery = hRTQuery;
    q->res = (struct umd_resource *)((BYTE *)q + umd_query_res_offset());
    if (!args || args->Query != D3D10DDI_QUERY_EVENT) {
        UMD_REFUSE("CreateQuery: query type %u not supported (only D3D10DDI_QUERY_EVENT)",
                   args ? (unsigned)args->Query : 0u);
        umd_set_error(dev, DXGI_DDI_ERR_UNSUPPORTED);
        return;
    }
    /* CPU-visible, cached (SWGPU_ALLOC_READBACK): read by QueryGetData. */
    HRESULT hr = umd_own_buffer_create(dev, q->res, UMD_QUERY_ALLOC_BYTES, SWGPU_ALLOC_READBACK,
                                       D3D10_DDI_USAGE_STAGING, D3D10_DDI_CPU_ACCESS_READ, FALSE);
    if (FAILED(hr)) {
        umd_set_error(dev, hr);
        return;
    }
    q->created = TRUE;
}

VOID APIENTRY umd_DestroyQuery(D3D10DDI_HDEVICE hDevice, D3D10DDI_HQUERY hQuery)
{
    struct umd_device *dev = umd_device(hDevice);
    struct umd_query *q = umd_query(hQuery);
    if (!q->created)
        return;
    /* A queued End names the allocation: umd_own_buffer_destroy submits it first, and VidMm
     * defers the destruction until that work retires, so a query released while pending leaks
     * nothing and the GPU never writes freed memory. */
    umd_own_buffer_destroy(dev, q->res);
    q->created = FALSE;
}

VOID APIENTRY umd_QueryBegin(D3D10DDI_HDEVICE hDevice, D3D10DDI_HQUERY hQuery)
{
    /* An event query has no Begin (the runtime filters it; nothing to do if one arrives). */
    (void)hDevice;
    (void)hQuery;
    UMD_REFUSE("QueryBegin: an event query has no Begin (ignored)");
}

VOID APIENTRY umd_QueryEnd(D3D10DDI_HDEVICE hDevice, D3D10DDI_HQUERY hQuery)
{
    struct umd_device *dev = umd_device(hDevice);
    struct umd_query *q = umd_query(hQuery);
    if (!q->created) {
        UMD_REFUSE("QueryEnd: the query was not created");
        return;
    }
    UINT64 seq = q->issued + 1;
    /* The GPU writes seq after every command queued before it (one context, in order). */
    if (!umd_emit_write(dev, q->res, 0, UMD_QUERY_ALLOC_BYTES, UMD_QUERY_ALLOC_BYTES, sizeof seq, 1, 1,
                        (const BYTE *)&seq, sizeof seq, sizeof seq))
        return; /* error reported */
    q->issued = seq;
}

VOID APIENTRY umd_QueryGetData(D3D10DDI_HDEVICE hDevice, D3D10DDI_HQUERY hQuery, VOID *pData, UINT DataSize,
                               UINT Flags)
{
    struct umd_device *dev = umd_device(hDevice);
    struct umd_query *q = umd_query(hQuery);
    if (!q->created || q->issued == 0) {
        UMD_REFUSE("QueryGetData: the query was never ended");
        umd_set_error(dev, E_INVALIDARG);
        return;
    }
    if (umd_is_queued(dev, q->res)) {
        /* The End is still in the unsubmitted buffer: it can never complete there. */
        if (Flags & D3D10_DDI_GET_DATA_DO_NOT_FLUSH) {
            umd_set_error(dev, DXGI_DDI_ERR_WASSTILLDRAWING);
            return;
        }
        HRESULT hr = umd_flush(dev);
        if (FAILED(hr)) {
            umd_set_error(dev, hr);
            return;
        }
    }
    UINT64 done;
    if (dev->gpuva) {
        /* GpuMmu (issue 6): no lock synchronises with a VA submission; the device's monitored
         * fence says whether End's generation retired (rename.c), then pfnLock2Cb reads it. */
        if (umd_rename_busy(dev, q->res)) {
            umd_set_error(dev, DXGI_DDI_ERR_WASSTILLDRAWING);
            return;
        }
        D3DDDICB_LOCK2 l2 = { .hAllocation = q->res->hAllocation };
        HRESULT hr = dev->kt.pfnLock2Cb(dev->hRTDevice.handle, &l2);
        if (FAILED(hr)) {
            UMD_REFUSE("QueryGetData: pfnLock2Cb failed (0x%08x)", (unsigned)hr);
            umd_set_error(dev, hr == D3DDDIERR_WASSTILLDRAWING ? DXGI_DDI_ERR_WASSTILLDRAWING : hr);
            return;
        }
        memcpy(&done, l2.pData, sizeof done);
        D3DDDICB_UNLOCK2 u2 = { .hAllocation = q->res->hAllocation };
        (void)dev->kt.pfnUnlock2Cb(dev->hRTDevice.handle, &u2);
        goto compare;
    }
    D3DDDICB_LOCK lock = { .hAllocation = q->res->hAllocation, .Flags = { .ReadOnly = 1, .DonotWait = 1 } };
    HRESULT hr = dev->kt.pfnLockCb(dev->hRTDevice.handle, &lock);
    if (hr == D3DDDIERR_WASSTILLDRAWING) {
        umd_set_error(dev, DXGI_DDI_ERR_WASSTILLDRAWING);
        return;
    }
    if (FAILED(hr)) {
        UMD_REFUSE("QueryGetData: pfnLockCb failed (0x%08x)", (unsigned)hr);
        umd_set_error(dev, hr);
        return;
    }
    memcpy(&done, lock.pData, sizeof done);
    D3DDDICB_UNLOCK u = { .NumAllocations = 1, .phAllocations = &q->res->hAllocation };
    (void)dev->kt.pfnUnlockCb(dev->hRTDevice.handle, &u);
compare:
    if (done < q->issued) {
        umd_set_error(dev, DXGI_DDI_ERR_WASSTILLDRAWING);
        return;
    }
    if (pData && DataSize >= sizeof(BOOL)) {
        BOOL t = TRUE;
        memcpy(pData, &t, sizeof t);
    }
}
