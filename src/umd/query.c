/* query.c - queries (issue 4 "D3D11_QUERY_EVENT on top"; issue 14: TIMESTAMP and
 * TIMESTAMPDISJOINT): CalcPrivateQuerySize, CreateQuery, DestroyQuery, QueryBegin, QueryEnd,
 * QueryGetData.
 *
 * Design (docs/architecture.md "Event queries"): no kernel object. Each query owns one small
 * CPU-readable allocation (SWGPU_ALLOC_READBACK, 16 bytes) made with pfnAllocateCb: bytes 0..7
 * the GPU's timestamp (TIMESTAMP only), bytes 8..15 the sequence number of the last End.
 * QueryEnd queues, for a TIMESTAMP, a SWGPU_OP_TIMESTAMP into bytes 0..7 - the engine writes
 * its clock when it reaches that command, after every command queued before it - and then, for
 * every type, a SWGPU_OP_WRITE of the query's next sequence number into bytes 8..15, patched
 * like every other command (cmdbuf.c); the device's one rendering context runs its commands in
 * order, so the sequence lands only after the timestamp and after every command queued before
 * End. QueryGetData locks the allocation with DonotWait (docs/semantics.md §3.2): WASSTILLDRAWING
 * while the write is pending, else it answers from the allocation: EVENT TRUE, TIMESTAMP the
 * GPU's clock, TIMESTAMPDISJOINT the frequency that clock runs at (SWGPU_TIMESTAMP_FREQUENCY,
 * the GPU's own) and Disjoint FALSE (the clock never stops or changes rate).
 *
 * Handle memory (runtime-owned, CalcPrivateQuerySize bytes): struct umd_query, then an
 * embedded struct umd_resource with one subresource describing the allocation, so the
 * command-buffer helpers (umd_emit_write, umd_is_queued) treat it like any resource.
 * Threading: immediate context only, serialised by the runtime's device lock (umd.h). */
#include "umd/umd.h"

#include <string.h>

#define UMD_QUERY_ALLOC_BYTES 16u
#define UMD_QUERY_STAMP_OFFSET 0u /* TIMESTAMP: the GPU's clock */
#define UMD_QUERY_SEQ_OFFSET 8u   /* every type: the last End's sequence number */

struct umd_query {
    struct umd_device *device;
    D3D10DDI_QUERY type;    /* EVENT, TIMESTAMP or TIMESTAMPDISJOINT */
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
    q->type = args ? args->Query : D3D10DDI_QUERY_EVENT;
    if (!args || (args->Query != D3D10DDI_QUERY_EVENT && args->Query != D3D10DDI_QUERY_TIMESTAMP &&
                  args->Query != D3D10DDI_QUERY_TIMESTAMPDISJOINT)) {
        UMD_REFUSE("CreateQuery: query type %u not supported (EVENT, TIMESTAMP and TIMESTAMPDISJOINT only)",
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
    /* TIMESTAMPDISJOINT: the interval starts; the clock it brackets never stops or changes
     * rate, so nothing needs recording on the GPU. EVENT and TIMESTAMP have no Begin (the
     * runtime filters it; nothing to do if one arrives). */
    (void)hDevice;
    if (umd_query(hQuery)->type != D3D10DDI_QUERY_TIMESTAMPDISJOINT)
        UMD_REFUSE("QueryBegin: an event or timestamp query has no Begin (ignored)");
}

/* SWGPU_OP_TIMESTAMP into bytes `offset`..+7 of res (swgpu_isa.h). FALSE after reporting. */
static BOOL umd_emit_timestamp(struct umd_device *dev, struct umd_resource *res, UINT offset)
{
    struct swgpu_cmd_timestamp *t = umd_cmd_begin(dev, sizeof *t, 1, 1);
    if (!t)
        return FALSE;
    t->hdr.opcode = SWGPU_OP_TIMESTAMP;
    t->hdr.size_bytes = sizeof *t;
    umd_cmd_address(dev, t, &t->dst.addr, res, offset, TRUE);
    t->dst.row_pitch = 8;
    t->dst.slice_pitch = 8;
    umd_cmd_end(dev, t);
    return TRUE;
}

VOID APIENTRY umd_QueryEnd(D3D10DDI_HDEVICE hDevice, D3D10DDI_HQUERY hQuery)
{
    struct umd_device *dev = umd_device(hDevice);
    struct umd_query *q = umd_query(hQuery);
    if (!q->created) {
        UMD_REFUSE("QueryEnd: the query was not created");
        return;
    }
    /* The GPU writes its clock when it reaches the End in its command stream. */
    if (q->type == D3D10DDI_QUERY_TIMESTAMP && !umd_emit_timestamp(dev, q->res, UMD_QUERY_STAMP_OFFSET))
        return; /* error reported */
    UINT64 seq = q->issued + 1;
    /* The GPU writes seq after every command queued before it (one context, in order). */
    if (!umd_emit_write(dev, q->res, UMD_QUERY_SEQ_OFFSET, UMD_QUERY_ALLOC_BYTES, UMD_QUERY_ALLOC_BYTES, sizeof seq,
                        1, 1, (const BYTE *)&seq, sizeof seq, sizeof seq))
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
    BYTE mem[UMD_QUERY_ALLOC_BYTES];
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
        memcpy(mem, l2.pData, sizeof mem);
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
    memcpy(mem, lock.pData, sizeof mem);
    D3DDDICB_UNLOCK u = { .NumAllocations = 1, .phAllocations = &q->res->hAllocation };
    (void)dev->kt.pfnUnlockCb(dev->hRTDevice.handle, &u);
compare:;
    UINT64 done;
    memcpy(&done, mem + UMD_QUERY_SEQ_OFFSET, sizeof done);
    if (done < q->issued) {
        umd_set_error(dev, DXGI_DDI_ERR_WASSTILLDRAWING);
        return;
    }
    if (!pData)
        return;
    switch (q->type) {
    case D3D10DDI_QUERY_TIMESTAMP:
        if (DataSize >= sizeof(UINT64))
            memcpy(pData, mem + UMD_QUERY_STAMP_OFFSET, sizeof(UINT64));
        break;
    case D3D10DDI_QUERY_TIMESTAMPDISJOINT:
        if (DataSize >= sizeof(D3D10_DDI_QUERY_DATA_TIMESTAMP_DISJOINT)) {
            D3D10_DDI_QUERY_DATA_TIMESTAMP_DISJOINT d = { .Frequency = SWGPU_TIMESTAMP_FREQUENCY, .Disjoint = FALSE };
            memcpy(pData, &d, sizeof d);
        }
        break;
    default:
        if (DataSize >= sizeof(BOOL)) {
            BOOL t = TRUE;
            memcpy(pData, &t, sizeof t);
        }
        break;
    }
}
