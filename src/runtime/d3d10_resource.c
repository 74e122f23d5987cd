/*
 * d3d10_resource.c - the D3D10 faces of a resource (issue 15 §1): ID3D10Buffer,
 * ID3D10Texture1D / 2D / 3D, with Map and Unmap on the resource itself as the D3D10 API has
 * them. One object with its D3D11 face (as Windows 8 and later layer D3D10 over the D3D11
 * core): one reference count, one private-data store, QueryInterface reaches both. The faces
 * exist on the resources of a D3D10 device only (docs/api.md "Direct3D 10").
 *
 * Map: the D3D10 types and values are D3D11's (D3D10_MAP = D3D11_MAP, D3D10_MAP_FLAG_DO_NOT_WAIT
 * = D3D11_MAP_FLAG_DO_NOT_WAIT), so every rule of the immediate context's Map applies unchanged
 * (map.c; the UMD's map slot and D3DDDICB_LOCKFLAGS by seed 001 §6.3); a failed Map leaves
 * the out pointer NULL.
 */
#include "runtime/runtime.h"
#include "runtime/d3d10.h"
#include "runtime/api_stubs.h"

#include <stddef.h>

struct rt_resource *rt_resource_from_d3d10(ID3D10Resource *iface)
{
    if (!iface)
        return NULL;
    struct rt_resource *res = (struct rt_resource *)((char *)iface - offsetof(struct rt_resource, d3d10));
    const void *v = iface->lpVtbl;
    if (v != &rt_d3d10_buffer_vtbl && v != &rt_d3d10_texture1d_vtbl && v != &rt_d3d10_texture2d_vtbl &&
        v != &rt_d3d10_texture3d_vtbl)
        return NULL;
    return res->magic == RT_RESOURCE_MAGIC ? res : NULL;
}

static struct rt_resource *res_of(void *face)
{
    return (struct rt_resource *)((char *)face - offsetof(struct rt_resource, d3d10));
}

const void *rt_d3d10_resource_vtbl(D3D11_RESOURCE_DIMENSION dim)
{
    switch (dim) {
    case D3D11_RESOURCE_DIMENSION_BUFFER: return &rt_d3d10_buffer_vtbl;
    case D3D11_RESOURCE_DIMENSION_TEXTURE1D: return &rt_d3d10_texture1d_vtbl;
    case D3D11_RESOURCE_DIMENSION_TEXTURE2D: return &rt_d3d10_texture2d_vtbl;
    default: return &rt_d3d10_texture3d_vtbl;
    }
}

void *rt_d3d10_resource_face(struct rt_resource *res, REFIID riid)
{
    if (!rt_device_is_d3d10(res->device))
        return NULL;
    const IID *own;
    switch (res->dimension) {
    case D3D11_RESOURCE_DIMENSION_BUFFER: own = &IID_ID3D10Buffer; break;
    case D3D11_RESOURCE_DIMENSION_TEXTURE1D: own = &IID_ID3D10Texture1D; break;
    case D3D11_RESOURCE_DIMENSION_TEXTURE2D: own = &IID_ID3D10Texture2D; break;
    default: own = &IID_ID3D10Texture3D; break;
    }
    if (rt_iid_equal(riid, &IID_ID3D10DeviceChild) || rt_iid_equal(riid, &IID_ID3D10Resource) ||
        rt_iid_equal(riid, own))
        return &res->d3d10;
    return NULL;
}

/* ---- descriptions: D3D10 <-> D3D11 (the misc flags differ; the rest is the same layout) ------- */

static const struct { UINT d3d10, d3d11; } misc_map[] = {
    { D3D10_RESOURCE_MISC_GENERATE_MIPS, D3D11_RESOURCE_MISC_GENERATE_MIPS },
    { D3D10_RESOURCE_MISC_SHARED, D3D11_RESOURCE_MISC_SHARED },
    { D3D10_RESOURCE_MISC_TEXTURECUBE, D3D11_RESOURCE_MISC_TEXTURECUBE },
    { D3D10_RESOURCE_MISC_SHARED_KEYEDMUTEX, D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX },
    { D3D10_RESOURCE_MISC_GDI_COMPATIBLE, D3D11_RESOURCE_MISC_GDI_COMPATIBLE },
};

HRESULT rt_d3d10_misc_to_d3d11(UINT misc10, UINT *misc11)
{
    UINT out = 0, known = 0;
    for (size_t i = 0; i < sizeof misc_map / sizeof misc_map[0]; i++) {
        known |= misc_map[i].d3d10;
        if (misc10 & misc_map[i].d3d10)
            out |= misc_map[i].d3d11;
    }
    if (misc10 & ~known) {
        RT_REFUSE("D3D10: MiscFlags 0x%x has bits that are not D3D10_RESOURCE_MISC_FLAG values", misc10);
        return E_INVALIDARG;
    }
    *misc11 = out;
    return S_OK;
}

UINT rt_d3d10_misc_from_d3d11(UINT misc11)
{
    UINT out = 0;
    for (size_t i = 0; i < sizeof misc_map / sizeof misc_map[0]; i++)
        if (misc11 & misc_map[i].d3d11)
            out |= misc_map[i].d3d10;
    return out;
}

/* D3D10_BIND_FLAG: D3D11's values up to DEPTH_STENCIL, nothing above. */
#define D3D10_BIND_KNOWN (D3D10_BIND_VERTEX_BUFFER | D3D10_BIND_INDEX_BUFFER | D3D10_BIND_CONSTANT_BUFFER | \
                          D3D10_BIND_SHADER_RESOURCE | D3D10_BIND_STREAM_OUTPUT | D3D10_BIND_RENDER_TARGET | \
                          D3D10_BIND_DEPTH_STENCIL)

HRESULT rt_d3d10_check_bind(UINT bind)
{
    if (bind & ~(UINT)D3D10_BIND_KNOWN) {
        RT_REFUSE("D3D10: BindFlags 0x%x has bits that are not D3D10_BIND_FLAG values", bind);
        return E_INVALIDARG;
    }
    return S_OK;
}

/* ---- IUnknown, ID3D10DeviceChild, ID3D10Resource: shared by the four kinds ---------------------- */

#define D3D10_RESOURCE_METHODS(prefix, Iface)                                                                \
    static HRESULT STDMETHODCALLTYPE prefix##_QueryInterface(Iface *This, REFIID riid, void **ppv)           \
    { return rt_resource_query_interface(res_of(This), riid, ppv); }                                         \
    static ULONG STDMETHODCALLTYPE prefix##_AddRef(Iface *This) { return rt_resource_addref(res_of(This)); } \
    static ULONG STDMETHODCALLTYPE prefix##_Release(Iface *This) { return rt_resource_release(res_of(This)); } \
    static void STDMETHODCALLTYPE prefix##_GetDevice(Iface *This, ID3D10Device **out)                        \
    { rt_d3d10_get_device(res_of(This)->device, out); }                                                     \
    static void STDMETHODCALLTYPE prefix##_GetType(Iface *This, D3D10_RESOURCE_DIMENSION *dim)               \
    { if (dim) *dim = (D3D10_RESOURCE_DIMENSION)res_of(This)->dimension; }                                  \
    static void STDMETHODCALLTYPE prefix##_SetEvictionPriority(Iface *This, UINT prio)                       \
    { rt_resource_set_eviction_priority(res_of(This), prio); }                                               \
    static UINT STDMETHODCALLTYPE prefix##_GetEvictionPriority(Iface *This)                                  \
    { return res_of(This)->eviction_priority; }                                                              \
    RT_PRIVATE_DATA_METHODS(prefix, Iface, &res_of(This)->device->private_lock, &res_of(This)->private_data)

#define RT_D3D10_RESOURCE_SLOTS(prefix)                                                                     \
    .QueryInterface = prefix##_QueryInterface, .AddRef = prefix##_AddRef, .Release = prefix##_Release,   \
    .GetDevice = prefix##_GetDevice, RT_PRIVATE_DATA_SLOTS(prefix), .GetType = prefix##_GetType,         \
    .SetEvictionPriority = prefix##_SetEvictionPriority, .GetEvictionPriority = prefix##_GetEvictionPriority

D3D10_RESOURCE_METHODS(buf10, ID3D10Buffer)
D3D10_RESOURCE_METHODS(tex1d10, ID3D10Texture1D)
D3D10_RESOURCE_METHODS(tex2d10, ID3D10Texture2D)
D3D10_RESOURCE_METHODS(tex3d10, ID3D10Texture3D)

/* The D3D10 calls of a resource kind's Map and Unmap: D3D10 names their refusals per kind
 * (BUFFER_MAP_*, TEXTURE2D_UNMAP_* ...), which the debug layer derives from these (debug_layer.c). */
static const D3D10_MESSAGE_ID map_calls[4][2] = {
    { D3D10_MESSAGE_ID_BUFFER_MAP_INVALIDMAPTYPE, D3D10_MESSAGE_ID_BUFFER_UNMAP_NOTMAPPED },
    { D3D10_MESSAGE_ID_TEXTURE1D_MAP_INVALIDMAPTYPE, D3D10_MESSAGE_ID_TEXTURE1D_UNMAP_NOTMAPPED },
    { D3D10_MESSAGE_ID_TEXTURE2D_MAP_INVALIDMAPTYPE, D3D10_MESSAGE_ID_TEXTURE2D_UNMAP_NOTMAPPED },
    { D3D10_MESSAGE_ID_TEXTURE3D_MAP_INVALIDMAPTYPE, D3D10_MESSAGE_ID_TEXTURE3D_UNMAP_NOTMAPPED },
};
#define MAP_CALL(res, unmap) map_calls[(res)->dimension - D3D11_RESOURCE_DIMENSION_BUFFER][unmap]

/* Map through the immediate context, in the D3D10 call of the resource's Map; `out` is the
 * method's output pointer, `what` names it for the refusal when it is NULL. */
static HRESULT map(struct rt_resource *res, UINT sub, D3D10_MAP type, UINT flags, const void *out, const char *what,
                   D3D11_MAPPED_SUBRESOURCE *m)
{
    struct rt_device *dev = res->device;
    struct rt_d3d10_call call;
    rt_d3d10_enter(&call, dev, MAP_CALL(res, 0), D3D10_MESSAGE_CATEGORY_RESOURCE_MANIPULATION);
    HRESULT hr = E_INVALIDARG;
    if (!out)
        RT_REFUSE("%s is NULL", what);
    else
        hr = ID3D11DeviceContext_Map(&dev->context.iface, (ID3D11Resource *)&res->iface, sub, (D3D11_MAP)type, flags,
                                     m);
    rt_d3d10_leave(&call);
    if (FAILED(hr))
        m->pData = NULL;
    return hr;
}

static void unmap(struct rt_resource *res, UINT sub)
{
    struct rt_device *dev = res->device;
    struct rt_d3d10_call call;
    rt_d3d10_enter(&call, dev, MAP_CALL(res, 1), D3D10_MESSAGE_CATEGORY_RESOURCE_MANIPULATION);
    ID3D11DeviceContext_Unmap(&dev->context.iface, (ID3D11Resource *)&res->iface, sub);
    rt_d3d10_leave(&call);
}

static HRESULT STDMETHODCALLTYPE buf10_Map(ID3D10Buffer *This, D3D10_MAP type, UINT flags, void **data)
{
    D3D11_MAPPED_SUBRESOURCE m = { 0 };
    HRESULT hr = map(res_of(This), 0, type, flags, data, "ID3D10Buffer::Map: ppData", &m);
    if (data)
        *data = m.pData;
    return hr;
}

static void STDMETHODCALLTYPE buf10_Unmap(ID3D10Buffer *This)
{
    unmap(res_of(This), 0);
}

static void STDMETHODCALLTYPE buf10_GetDesc(ID3D10Buffer *This, D3D10_BUFFER_DESC *desc)
{
    if (!desc)
        return;
    const D3D11_BUFFER_DESC *d = &res_of(This)->desc.buffer;
    desc->ByteWidth = d->ByteWidth;
    desc->Usage = (D3D10_USAGE)d->Usage;
    desc->BindFlags = d->BindFlags;
    desc->CPUAccessFlags = d->CPUAccessFlags;
    desc->MiscFlags = rt_d3d10_misc_from_d3d11(d->MiscFlags);
}

static HRESULT STDMETHODCALLTYPE tex1d10_Map(ID3D10Texture1D *This, UINT sub, D3D10_MAP type, UINT flags, void **data)
{
    D3D11_MAPPED_SUBRESOURCE m = { 0 };
    HRESULT hr = map(res_of(This), sub, type, flags, data, "ID3D10Texture1D::Map: ppData", &m);
    if (data)
        *data = m.pData;
    return hr;
}

static void STDMETHODCALLTYPE tex1d10_Unmap(ID3D10Texture1D *This, UINT sub)
{
    unmap(res_of(This), sub);
}

static HRESULT STDMETHODCALLTYPE tex2d10_Map(ID3D10Texture2D *This, UINT sub, D3D10_MAP type, UINT flags,
                                             D3D10_MAPPED_TEXTURE2D *out)
{
    D3D11_MAPPED_SUBRESOURCE m = { 0 };
    HRESULT hr = map(res_of(This), sub, type, flags, out, "ID3D10Texture2D::Map: pMappedTex2D", &m);
    if (out) {
        out->pData = m.pData;
        if (SUCCEEDED(hr))
            out->RowPitch = m.RowPitch;
    }
    return hr;
}

static void STDMETHODCALLTYPE tex2d10_Unmap(ID3D10Texture2D *This, UINT sub)
{
    unmap(res_of(This), sub);
}

static HRESULT STDMETHODCALLTYPE tex3d10_Map(ID3D10Texture3D *This, UINT sub, D3D10_MAP type, UINT flags,
                                             D3D10_MAPPED_TEXTURE3D *out)
{
    D3D11_MAPPED_SUBRESOURCE m = { 0 };
    HRESULT hr = map(res_of(This), sub, type, flags, out, "ID3D10Texture3D::Map: pMappedTex3D", &m);
    if (out) {
        out->pData = m.pData;
        if (SUCCEEDED(hr)) {
            out->RowPitch = m.RowPitch;
            out->DepthPitch = m.DepthPitch;
        }
    }
    return hr;
}

static void STDMETHODCALLTYPE tex3d10_Unmap(ID3D10Texture3D *This, UINT sub)
{
    unmap(res_of(This), sub);
}

/* The texture descriptions have D3D11's layout; only the misc flags are spelt differently. */
static void STDMETHODCALLTYPE tex1d10_GetDesc(ID3D10Texture1D *This, D3D10_TEXTURE1D_DESC *desc)
{
    if (!desc)
        return;
    const D3D11_TEXTURE1D_DESC *d = &res_of(This)->desc.tex1d;
    *desc = (D3D10_TEXTURE1D_DESC){ d->Width, d->MipLevels, d->ArraySize, d->Format, (D3D10_USAGE)d->Usage,
                                    d->BindFlags, d->CPUAccessFlags, rt_d3d10_misc_from_d3d11(d->MiscFlags) };
}

static void STDMETHODCALLTYPE tex2d10_GetDesc(ID3D10Texture2D *This, D3D10_TEXTURE2D_DESC *desc)
{
    if (!desc)
        return;
    const D3D11_TEXTURE2D_DESC *d = &res_of(This)->desc.tex2d;
    *desc = (D3D10_TEXTURE2D_DESC){ d->Width, d->Height, d->MipLevels, d->ArraySize, d->Format, d->SampleDesc,
                                    (D3D10_USAGE)d->Usage, d->BindFlags, d->CPUAccessFlags,
                                    rt_d3d10_misc_from_d3d11(d->MiscFlags) };
}

static void STDMETHODCALLTYPE tex3d10_GetDesc(ID3D10Texture3D *This, D3D10_TEXTURE3D_DESC *desc)
{
    if (!desc)
        return;
    const D3D11_TEXTURE3D_DESC *d = &res_of(This)->desc.tex3d;
    *desc = (D3D10_TEXTURE3D_DESC){ d->Width, d->Height, d->Depth, d->MipLevels, d->Format, (D3D10_USAGE)d->Usage,
                                    d->BindFlags, d->CPUAccessFlags, rt_d3d10_misc_from_d3d11(d->MiscFlags) };
}

const struct ID3D10BufferVtbl rt_d3d10_buffer_vtbl = {
    RT_API_STUBS_ID3D10Buffer,
    RT_D3D10_RESOURCE_SLOTS(buf10),
    .Map = buf10_Map,
    .Unmap = buf10_Unmap,
    .GetDesc = buf10_GetDesc,
};
const struct ID3D10Texture1DVtbl rt_d3d10_texture1d_vtbl = {
    RT_API_STUBS_ID3D10Texture1D,
    RT_D3D10_RESOURCE_SLOTS(tex1d10),
    .Map = tex1d10_Map,
    .Unmap = tex1d10_Unmap,
    .GetDesc = tex1d10_GetDesc,
};
const struct ID3D10Texture2DVtbl rt_d3d10_texture2d_vtbl = {
    RT_API_STUBS_ID3D10Texture2D,
    RT_D3D10_RESOURCE_SLOTS(tex2d10),
    .Map = tex2d10_Map,
    .Unmap = tex2d10_Unmap,
    .GetDesc = tex2d10_GetDesc,
};
const struct ID3D10Texture3DVtbl rt_d3d10_texture3d_vtbl = {
    RT_API_STUBS_ID3D10Texture3D,
    RT_D3D10_RESOURCE_SLOTS(tex3d10),
    .Map = tex3d10_Map,
    .Unmap = tex3d10_Unmap,
    .GetDesc = tex3d10_GetDesc,
};
