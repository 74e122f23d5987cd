/*
 * d3d10_query.c - ID3D10Query (ID3D10Asynchronous), the D3D10 face of a query (issue 15 §1).
 * D3D10 has no contexts: Begin, End and GetData are the query's own methods, and go to the
 * immediate context's (query.c), whose rules they share: D3D10_QUERY and D3D10_QUERY_DESC
 * have D3D11's values and layout for the kinds D3D10 has, and D3D10_ASYNC_GETDATA_DONOTFLUSH
 * is D3D11_ASYNC_GETDATA_DONOTFLUSH.
 */
#include "runtime/runtime.h"
#include "runtime/d3d10.h"
#include "runtime/api_stubs.h"

#include <stddef.h>

static struct rt_query *query_of(void *face)
{
    return (struct rt_query *)((char *)face - offsetof(struct rt_query, d3d10));
}

void *rt_d3d10_query_face(struct rt_query *q, REFIID riid)
{
    if (!rt_device_is_d3d10(q->device))
        return NULL;
    if (rt_iid_equal(riid, &IID_ID3D10DeviceChild) || rt_iid_equal(riid, &IID_ID3D10Asynchronous) ||
        rt_iid_equal(riid, &IID_ID3D10Query))
        return &q->d3d10;
    return NULL;
}

HRESULT rt_d3d10_create_query(struct rt_device *dev, const D3D10_QUERY_DESC *desc, ID3D10Query **out)
{
    _Static_assert(sizeof(D3D10_QUERY_DESC) == sizeof(D3D11_QUERY_DESC), "query desc layout");
    if (!desc) {
        RT_REFUSE("ID3D10Device::CreateQuery: pQueryDesc is NULL");
        return E_INVALIDARG;
    }
    if ((UINT)desc->Query > (UINT)D3D10_QUERY_SO_OVERFLOW_PREDICATE) {
        RT_REFUSE("ID3D10Device::CreateQuery: Query %u is not a D3D10_QUERY", (UINT)desc->Query);
        return E_INVALIDARG;
    }
    ID3D11Query *q11 = NULL;
    HRESULT hr = ID3D11Device_CreateQuery(&dev->iface, (const D3D11_QUERY_DESC *)desc, out ? &q11 : NULL);
    if (out)
        *out = SUCCEEDED(hr) && q11 ? &((struct rt_query *)q11)->d3d10 : NULL;
    return hr;
}

static ID3D11Query *q11(ID3D10Query *This)
{
    return &query_of(This)->iface;
}

static HRESULT STDMETHODCALLTYPE query10_QueryInterface(ID3D10Query *This, REFIID riid, void **ppv)
{
    return ID3D11Query_QueryInterface(q11(This), riid, ppv);
}
static ULONG STDMETHODCALLTYPE query10_AddRef(ID3D10Query *This)
{
    return ID3D11Query_AddRef(q11(This));
}
static ULONG STDMETHODCALLTYPE query10_Release(ID3D10Query *This)
{
    return ID3D11Query_Release(q11(This));
}
static void STDMETHODCALLTYPE query10_GetDevice(ID3D10Query *This, ID3D10Device **out)
{
    rt_d3d10_get_device(query_of(This)->device, out);
}
RT_PRIVATE_DATA_METHODS(query10, ID3D10Query, &query_of(This)->device->private_lock, &query_of(This)->private_data)

static void STDMETHODCALLTYPE query10_Begin(ID3D10Query *This)
{
    struct rt_device *dev = query_of(This)->device;
    D3D10_CALL(dev, QUERY_BEGIN_UNSUPPORTED, EXECUTION);
    ID3D11DeviceContext_Begin(&dev->context.iface, (ID3D11Asynchronous *)q11(This));
    D3D10_DONE();
}

static void STDMETHODCALLTYPE query10_End(ID3D10Query *This)
{
    struct rt_device *dev = query_of(This)->device;
    D3D10_CALL(dev, QUERY_END_WITHOUT_BEGIN, EXECUTION);
    ID3D11DeviceContext_End(&dev->context.iface, (ID3D11Asynchronous *)q11(This));
    D3D10_DONE();
}

static HRESULT STDMETHODCALLTYPE query10_GetData(ID3D10Query *This, void *data, UINT size, UINT flags)
{
    struct rt_device *dev = query_of(This)->device;
    D3D10_CALL(dev, QUERY_GETDATA_INVALID_CALL, EXECUTION);
    HRESULT hr = ID3D11DeviceContext_GetData(&dev->context.iface, (ID3D11Asynchronous *)q11(This), data, size, flags);
    D3D10_DONE();
    return hr;
}

static UINT STDMETHODCALLTYPE query10_GetDataSize(ID3D10Query *This)
{
    return ID3D11Query_GetDataSize(q11(This));
}

static void STDMETHODCALLTYPE query10_GetDesc(ID3D10Query *This, D3D10_QUERY_DESC *desc)
{
    if (desc)
        memcpy(desc, &query_of(This)->desc, sizeof *desc);
}

const struct ID3D10QueryVtbl rt_d3d10_query_vtbl = {
    RT_API_STUBS_ID3D10Query,
    .QueryInterface = query10_QueryInterface,
    .AddRef = query10_AddRef,
    .Release = query10_Release,
    .GetDevice = query10_GetDevice,
    RT_PRIVATE_DATA_SLOTS(query10),
    .Begin = query10_Begin,
    .End = query10_End,
    .GetData = query10_GetData,
    .GetDataSize = query10_GetDataSize,
    .GetDesc = query10_GetDesc,
};
