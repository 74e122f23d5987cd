/*
 * query.c - ID3D11Query (ID3D11Asynchronous, ID3D11DeviceChild), ID3D11Device::CreateQuery and
 * ID3D11DeviceContext::Begin / End / GetData (issue 4 "D3D11_QUERY_EVENT on top"; issue 14:
 * D3D11_QUERY_TIMESTAMP and D3D11_QUERY_TIMESTAMP_DISJOINT).
 *
 * EVENT, TIMESTAMP and TIMESTAMP_DISJOINT exist (docs/rules/sched.md, docs/rules/runtime.md). The
 * runtime owns the driver handle memory (CalcPrivateQuerySize, then CreateQuery, as for
 * resources: seed 001 §3, docs/semantics.md §4.1); the UMD does the work (src/umd/query.c: the GPU
 * writes its clock when it reaches a TIMESTAMP's End). GetData maps the UMD's
 * DXGI_DDI_ERR_WASSTILLDRAWING (pfnSetErrorCb) to S_FALSE.
 *
 * States (ID3D11DeviceContext::Begin/End/GetData; Wine d3d11 tests, run on Windows:
 * test_timestamp_query, test_occlusion_query): a query never ended, or begun and not yet ended,
 * answers GetData with DXGI_ERROR_INVALID_CALL and leaves pData alone. EVENT and TIMESTAMP have
 * no Begin (ignored); TIMESTAMP_DISJOINT brackets an interval with Begin and End.
 *
 * Deferred contexts: GetData is immediate-context only (D3D11 docs: "you can only call GetData
 * on the immediate context"). End on a deferred context is recorded by the runtime (the query
 * referenced by the recording, then by the command list); ExecuteCommandList on the immediate
 * context ends the list's queries after the whole list has been submitted to the UMD, so TRUE
 * still means "everything before End completed" (docs/rules/sched.md).
 */
#include "runtime/runtime.h"
#include "runtime/api_stubs.h"
#include "common/alloc.h"

#include <stdlib.h>



/* GetDataSize per type (D3D11_QUERY: "BOOL", "UINT64", "D3D11_QUERY_DATA_TIMESTAMP_DISJOINT"). */
static UINT query_data_size(D3D11_QUERY type)
{
    switch (type) {
    case D3D11_QUERY_TIMESTAMP: return sizeof(UINT64);
    case D3D11_QUERY_TIMESTAMP_DISJOINT: return sizeof(D3D11_QUERY_DATA_TIMESTAMP_DISJOINT);
    default: return sizeof(BOOL);
    }
}


/* ID3D11Query's vtable with ID3D11Query1's own slot (GetDesc1) after it: one object answers both. */
static const struct query_vtbl {
    struct ID3D11QueryVtbl base;
    struct rt_own_ID3D11Query1 ext;
} query_vtbl;

static struct rt_query *rt_query_from_async(ID3D11Asynchronous *iface)
{
    if (!iface || (const void *)iface->lpVtbl != (const void *)&query_vtbl)
        return NULL;
    struct rt_query *q = (struct rt_query *)iface;
    return q->magic == RT_QUERY_MAGIC ? q : NULL;
}

static HRESULT STDMETHODCALLTYPE query_QueryInterface(ID3D11Query *iface, REFIID riid, void **ppv)
{
    if (!ppv)
        return E_POINTER;
    *ppv = NULL;
    if (!riid)
        return E_INVALIDARG;
    if (rt_iid_equal(riid, &IID_IUnknown) || rt_iid_equal(riid, &IID_ID3D11DeviceChild) ||
        rt_iid_equal(riid, &IID_ID3D11Asynchronous) || rt_iid_equal(riid, &IID_ID3D11Query) ||
        rt_iid_equal(riid, &IID_ID3D11Query1)) {
        ID3D11Query_AddRef(iface);
        *ppv = iface;
        return S_OK;
    }
    void *face = rt_d3d10_query_face((struct rt_query *)iface, riid); /* issue 15 §1: d3d10_query.c */
    if (face) {
        ID3D11Query_AddRef(iface);
        *ppv = face;
        return S_OK;
    }
    return E_NOINTERFACE;
}

static ULONG STDMETHODCALLTYPE query_AddRef(ID3D11Query *iface)
{
    return atomic_fetch_add(&((struct rt_query *)iface)->refs, 1) + 1;
}

static ULONG STDMETHODCALLTYPE query_Release(ID3D11Query *iface)
{
    struct rt_query *q = (struct rt_query *)iface;
    ULONG n = atomic_fetch_sub(&q->refs, 1) - 1;
    if (n)
        return n;
    struct rt_device *dev = q->device;
    rt_private_clear(&q->private_data);
    rt_ddi_begin(dev);
    if (dev->funcs.pfnDestroyQuery)
        dev->funcs.pfnDestroyQuery(dev->drv_device, q->drv);
    HRESULT err = rt_ddi_end(dev);
    static const HRESULT allowed[] = { D3DDDIERR_DEVICEREMOVED };
    (void)rt_ddi_error_to_api(dev, err, allowed, 1, "pfnDestroyQuery");
    free(q->drv_mem);
    q->magic = 0;
    free(q);
    RT_LIVE_ADD(dev, RT_LIVE_QUERY, -1);
    rt_device_release(dev);
    return 0;
}

static void STDMETHODCALLTYPE query_GetDevice(ID3D11Query *iface, ID3D11Device **out)
{
    if (!out)
        return;
    struct rt_query *q = (struct rt_query *)iface;
    rt_device_addref(q->device);
    *out = &q->device->iface;
}

static UINT STDMETHODCALLTYPE query_GetDataSize(ID3D11Query *iface)
{
    return query_data_size(((struct rt_query *)iface)->desc.Query);
}

static void STDMETHODCALLTYPE query_GetDesc(ID3D11Query *iface, D3D11_QUERY_DESC *desc)
{
    if (desc)
        *desc = ((struct rt_query *)iface)->desc;
}

/* ID3D11Query1::GetDesc1: the description CreateQuery1 was given (CreateQuery: ContextType ALL). */
static void STDMETHODCALLTYPE query_GetDesc1(ID3D11Query1 *iface, D3D11_QUERY_DESC1 *desc)
{
    if (!desc)
        return;
    const struct rt_query *q = (const struct rt_query *)iface;
    *desc = (D3D11_QUERY_DESC1){ .Query = q->desc.Query, .MiscFlags = q->desc.MiscFlags, .ContextType = q->context_type };
}

RT_PRIVATE_DATA_METHODS(query, ID3D11Query, &((struct rt_query *)This)->device->private_lock,
                        &((struct rt_query *)This)->private_data)

static const struct query_vtbl query_vtbl = {
    .base = {
    RT_API_STUBS_ID3D11Query, /* every slot answers "not implemented" until named below */
    .QueryInterface = query_QueryInterface,
    RT_PRIVATE_DATA_SLOTS(query),
    .AddRef = query_AddRef,
    .Release = query_Release,
    .GetDevice = query_GetDevice,
    .GetDataSize = query_GetDataSize,
    .GetDesc = query_GetDesc,
    },
    .ext = { RT_API_OWN_STUBS_ID3D11Query1, .GetDesc1 = query_GetDesc1 },
};

HRESULT STDMETHODCALLTYPE rt_device_CreateQuery(ID3D11Device *iface, const D3D11_QUERY_DESC *desc, ID3D11Query **out)
{
    const char *what = "CreateQuery";
    struct rt_device *dev = rt_device_from_iface(iface);
    if (out)
        *out = NULL;
    if (!desc) {
        RT_REFUSE("%s: pQueryDesc is NULL", what);
        return E_INVALIDARG;
    }
    if (desc->Query != D3D11_QUERY_EVENT && desc->Query != D3D11_QUERY_TIMESTAMP &&
        desc->Query != D3D11_QUERY_TIMESTAMP_DISJOINT) {
        /* docs/rules.md: occlusion, pipeline statistics and stream-output queries need shaders
         * and rasterisation this stack does not have; they are refused. */
        RT_REFUSE("%s: query type %u is not supported (EVENT, TIMESTAMP and TIMESTAMP_DISJOINT are)", what,
                  (UINT)desc->Query);
        return E_INVALIDARG;
    }
    if (desc->MiscFlags) {
        /* D3D11_QUERY_MISC_PREDICATEHINT applies to predicates only. */
        RT_REFUSE("%s: MiscFlags 0x%x invalid for query type %u", what, desc->MiscFlags, (UINT)desc->Query);
        return E_INVALIDARG;
    }
    if (!out)
        return S_FALSE; /* validate only, as every D3D11 Create* */
    if (rt_device_is_removed(dev)) {
        RT_REFUSE("%s on a removed device", what);
        return DXGI_ERROR_DEVICE_REMOVED;
    }
    if (!dev->funcs.pfnCalcPrivateQuerySize || !dev->funcs.pfnCreateQuery || !dev->funcs.pfnDestroyQuery ||
        !dev->funcs.pfnQueryEnd || !dev->funcs.pfnQueryGetData) {
        RT_REFUSE("%s: the UMD does not implement queries", what);
        return E_NOTIMPL;
    }
    struct rt_query *q = wddm_calloc(1, sizeof(*q));
    if (!q)
        return E_OUTOFMEMORY;
    q->iface.lpVtbl = &query_vtbl.base;
    q->d3d10.lpVtbl = &rt_d3d10_query_vtbl;
    q->magic = RT_QUERY_MAGIC;
    atomic_init(&q->refs, 1);
    q->device = dev;
    q->desc = *desc;
    /* D3D10DDI_QUERY has the numbers of D3D11_QUERY for these three. */
    D3D10DDIARG_CREATEQUERY args = { .Query = (D3D10DDI_QUERY)desc->Query, .MiscFlags = 0 };

    rt_ddi_begin(dev);
    SIZE_T size = dev->funcs.pfnCalcPrivateQuerySize(dev->drv_device, &args);
    q->drv_mem = wddm_calloc(1, size ? size : 1);
    if (!q->drv_mem) {
        (void)rt_ddi_end(dev);
        free(q);
        return E_OUTOFMEMORY;
    }
    q->drv.pDrvPrivate = q->drv_mem;
    D3D10DDI_HRTQUERY hrt = { .handle = q };
    dev->funcs.pfnCreateQuery(dev->drv_device, &args, q->drv, hrt);
    HRESULT err = rt_ddi_end(dev);
    if (err != S_OK) {
        /* An error makes the handle dead: no DestroyQuery follows (as for resources). */
        static const HRESULT allowed[] = { E_OUTOFMEMORY, DXGI_DDI_ERR_UNSUPPORTED };
        HRESULT hr = rt_ddi_error_to_api(dev, err, allowed, 2, "pfnCreateQuery");
        free(q->drv_mem);
        free(q);
        return hr == DXGI_ERROR_UNSUPPORTED ? E_INVALIDARG : hr;
    }
    rt_device_addref(dev);
    RT_LIVE_ADD(dev, RT_LIVE_QUERY, 1);
    *out = &q->iface;
    return S_OK;
}

/* ID3D11Device3::CreateQuery1: CreateQuery with the context type the query is for, recorded and
 * given back by GetDesc1 (one GPU queue here: every type is the one queue's). */
HRESULT STDMETHODCALLTYPE rt_device_CreateQuery1(ID3D11Device3 *iface, const D3D11_QUERY_DESC1 *desc,
                                                 ID3D11Query1 **out)
{
    if (out)
        *out = NULL;
    if (!desc) {
        RT_REFUSE("CreateQuery1: pQueryDesc1 is NULL");
        return E_INVALIDARG;
    }
    if ((UINT)desc->ContextType > D3D11_CONTEXT_TYPE_VIDEO) {
        RT_REFUSE("CreateQuery1: ContextType %u is not a D3D11_CONTEXT_TYPE", (UINT)desc->ContextType);
        return E_INVALIDARG;
    }
    const D3D11_QUERY_DESC d = { desc->Query, desc->MiscFlags };
    HRESULT hr = rt_traced_CreateQuery((ID3D11Device *)iface, &d, (ID3D11Query **)out);
    if (hr == S_OK)
        ((struct rt_query *)*out)->context_type = desc->ContextType; /* before anyone else sees it */
    return hr;
}

void STDMETHODCALLTYPE rt_context_Begin(ID3D11DeviceContext *iface, ID3D11Asynchronous *async)
{
    struct rt_context *ctx = rt_context_from_iface(iface);
    struct rt_query *q = rt_query_from_async(async);
    if (!q) {
        RT_REFUSE("Begin: pAsync is NULL or not a query");
        return;
    }
    struct rt_device *dev = ctx->device;
    if (q->device != dev) {
        RT_REFUSE("Begin: the query belongs to another device");
        return;
    }
    if (q->desc.Query != D3D11_QUERY_TIMESTAMP_DISJOINT) {
        /* ID3D11DeviceContext::Begin: "Begin is disabled" for EVENT and TIMESTAMP queries; the
         * call is invalid and ignored (only End). */
        RT_REFUSE("Begin: query type %u takes only End (ignored)", (UINT)q->desc.Query);
        return;
    }
    if (ctx->dc) {
        /* docs/rules/runtime.md: the interval a deferred Begin opens starts when the command list
         * executes, where its End is issued; the clock never stops, so nothing is recorded. */
        return;
    }
    if (rt_device_is_removed(dev)) {
        RT_REFUSE("Begin on a removed device (ignored)");
        return;
    }
    rt_ddi_begin(dev);
    if (dev->funcs.pfnQueryBegin)
        dev->funcs.pfnQueryBegin(dev->drv_device, q->drv);
    HRESULT err = dev->call_error;
    if (err == S_OK)
        q->state = RT_QUERY_BUILDING; /* GetData: INVALID_CALL until the End (Wine test_timestamp_query) */
    err = rt_ddi_end(dev);
    static const HRESULT allowed[] = { E_OUTOFMEMORY };
    (void)rt_ddi_error_to_api(dev, err, allowed, 1, "pfnQueryBegin");
}

void STDMETHODCALLTYPE rt_context_End(ID3D11DeviceContext *iface, ID3D11Asynchronous *async)
{
    struct rt_context *ctx = rt_context_from_iface(iface);
    struct rt_query *q = rt_query_from_async(async);
    if (!q) {
        RT_REFUSE("End: pAsync is NULL or not a query");
        return;
    }
    struct rt_device *dev = ctx->device;
    if (q->device != dev) {
        RT_REFUSE("End: the query belongs to another device");
        return;
    }
    if (ctx->dc) {
        struct rt_query_ends *ends = rt_dc_query_ends(ctx->dc);
        if (!ends) {
            RT_REFUSE("End: the deferred context was removed locally (dropped until FinishCommandList)");
            return;
        }
        if (!rt_query_ends_add(ends, &q->iface))
            RT_REFUSE("End: out of memory recording the query on a deferred context (dropped)");
        return;
    }
    if (rt_device_is_removed(dev)) {
        RT_REFUSE("End on a removed device (ignored)");
        return;
    }
    /* A TIMESTAMP_DISJOINT ended without a Begin brackets an empty interval (docs/rules/runtime.md). */
    rt_ddi_begin(dev);
    dev->funcs.pfnQueryEnd(dev->drv_device, q->drv);
    HRESULT err = dev->call_error;
    if (err == S_OK)
        q->state = RT_QUERY_ENDED;
    err = rt_ddi_end(dev);
    static const HRESULT allowed[] = { E_OUTOFMEMORY };
    (void)rt_ddi_error_to_api(dev, err, allowed, 1, "pfnQueryEnd");
}

HRESULT STDMETHODCALLTYPE rt_context_GetData(ID3D11DeviceContext *iface, ID3D11Asynchronous *async, void *data,
                                             UINT size, UINT flags)
{
    const char *what = "GetData";
    struct rt_context *ctx = rt_context_from_iface(iface);
    struct rt_device *dev = ctx->device;
    if (ctx->dc) {
        RT_REFUSE("%s: only the immediate context answers queries (D3D11 GetData remarks)", what);
        return DXGI_ERROR_INVALID_CALL;
    }
    struct rt_query *q = rt_query_from_async(async);
    if (!q || q->device != dev) {
        RT_REFUSE("%s: pAsync is NULL, not a query or of another device", what);
        return E_INVALIDARG;
    }
    /* ID3D11DeviceContext::GetData: DataSize is 0 (only ask whether the query is done) or
     * exactly GetDataSize; anything else, or data NULL with a size, is E_INVALIDARG and pData is
     * not touched (Wine d3d11 tests, run on Windows: test_occlusion_query, test_timestamp_query). */
    UINT need = query_data_size(q->desc.Query);
    if ((size != 0 && size != need) || (!data && size != 0)) {
        RT_REFUSE("%s: DataSize %u with pData %s (this query takes 0 or %u)", what, size, data ? "set" : "NULL",
                  need);
        return E_INVALIDARG;
    }
    if (flags & ~(UINT)D3D11_ASYNC_GETDATA_DONOTFLUSH) {
        RT_REFUSE("%s: GetDataFlags 0x%x not a D3D11_ASYNC_GETDATA_FLAG", what, flags);
        return E_INVALIDARG;
    }
    if (rt_device_is_removed(dev)) {
        RT_REFUSE("%s on a removed device", what);
        return DXGI_ERROR_DEVICE_REMOVED;
    }
    union {
        BOOL event;
        UINT64 timestamp;
        D3D10_DDI_QUERY_DATA_TIMESTAMP_DISJOINT disjoint;
    } result;
    memset(&result, 0, sizeof result);
    rt_ddi_begin(dev);
    if (q->state != RT_QUERY_ENDED) {
        (void)rt_ddi_end(dev);
        /* docs/rules.md: the D3D11 runtime answers a query not (yet) ended with an invalid call. */
        RT_REFUSE("%s: the query %s", what,
                  q->state == RT_QUERY_BUILDING ? "was begun and not ended yet" : "was never ended (End must come first)");
        return DXGI_ERROR_INVALID_CALL;
    }
    dev->funcs.pfnQueryGetData(dev->drv_device, q->drv, &result, need,
                                   (flags & D3D11_ASYNC_GETDATA_DONOTFLUSH) ? D3D10_DDI_GET_DATA_DO_NOT_FLUSH : 0);
    HRESULT err = rt_ddi_end(dev);
    if (err == DXGI_DDI_ERR_WASSTILLDRAWING)
        return S_FALSE; /* not complete yet (docs/semantics.md §4: the allowed QueryGetData error) */
    if (err != S_OK) {
        static const HRESULT allowed[] = { E_OUTOFMEMORY };
        return rt_ddi_error_to_api(dev, err, allowed, 1, "pfnQueryGetData");
    }
    if (q->desc.Query == D3D11_QUERY_TIMESTAMP_DISJOINT) {
        /* The API's D3D11_QUERY_DATA_TIMESTAMP_DISJOINT from the DDI's, field by field. */
        D3D11_QUERY_DATA_TIMESTAMP_DISJOINT d;
        memset(&d, 0, sizeof d); /* the padding too: the caller gets no stack bytes */
        d.Frequency = result.disjoint.Frequency;
        d.Disjoint = result.disjoint.Disjoint;
        if (data && size)
            memcpy(data, &d, sizeof d);
        return S_OK;
    }
    if (data && size)
        memcpy(data, &result, need);
    return S_OK;
}

/* ---- Ends recorded in deferred contexts and command lists ------------------------------------ */
BOOL rt_query_ends_add(struct rt_query_ends *l, ID3D11Query *q)
{
    if (l->count == l->cap) {
        UINT cap = l->cap ? l->cap * 2 : 4;
        ID3D11Query **n = wddm_realloc(l->q, cap * sizeof *n);
        if (!n)
            return FALSE;
        l->q = n;
        l->cap = cap;
    }
    ID3D11Query_AddRef(q);
    l->q[l->count++] = q;
    return TRUE;
}

BOOL rt_query_ends_append(struct rt_query_ends *dst, const struct rt_query_ends *src)
{
    for (UINT i = 0; i < src->count; i++)
        if (!rt_query_ends_add(dst, src->q[i]))
            return FALSE;
    return TRUE;
}

void rt_query_ends_issue(ID3D11DeviceContext *ic, const struct rt_query_ends *l)
{
    for (UINT i = 0; i < l->count; i++)
        rt_context_End(ic, (ID3D11Asynchronous *)l->q[i]);
}

void rt_query_ends_free(struct rt_query_ends *l)
{
    for (UINT i = 0; i < l->count; i++)
        ID3D11Query_Release(l->q[i]);
    free(l->q);
    memset(l, 0, sizeof *l);
}
