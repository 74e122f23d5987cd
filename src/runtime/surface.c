/*
 * surface.c - a 2D texture's IDXGISurface / IDXGISurface1 face (issue 15 §3): its description,
 * and Map / Unmap of its only subresource through the device's immediate context.
 *
 * Windows' answers (DXGI reference; Wine's d3d11 and dxgi tests, run on Windows): only a 2D
 * texture of one mip level and one array slice has the face (others: E_NOINTERFACE); its
 * parent is the device's IDXGIDevice; Map's flags are DXGI_MAP_READ, DXGI_MAP_WRITE (together a
 * read-write map) or DXGI_MAP_DISCARD (a write-discard map); no flag or an unknown bit →
 * E_INVALIDARG; the rest is the D3D11 Map's answer (a texture the CPU cannot reach is refused
 * there). GetDC / ReleaseDC answer E_NOTIMPL: there is no GDI here.
 */
#include "runtime/runtime.h"
#include "runtime/api_stubs.h"

static struct rt_resource *surface_from(IDXGISurface1 *iface)
{
    return (struct rt_resource *)((char *)iface - offsetof(struct rt_resource, surface));
}

BOOL rt_resource_is_surface(const struct rt_resource *res)
{
    /* One mip, one slice, 1D or 2D (Wine's d3d10core tests, run on Windows: a 1D texture of one
     * level has the face too, test_create_texture1d). */
    return (res->dimension == D3D11_RESOURCE_DIMENSION_TEXTURE2D ||
            res->dimension == D3D11_RESOURCE_DIMENSION_TEXTURE1D) &&
           res->mip_levels == 1 && res->array_size == 1;
}

static HRESULT STDMETHODCALLTYPE surface_QueryInterface(IDXGISurface1 *This, REFIID riid, void **out)
{
    return rt_resource_query_interface(surface_from(This), riid, out);
}

static ULONG STDMETHODCALLTYPE surface_AddRef(IDXGISurface1 *This)
{
    return rt_resource_addref(surface_from(This));
}

static ULONG STDMETHODCALLTYPE surface_Release(IDXGISurface1 *This)
{
    return rt_resource_release(surface_from(This));
}

RT_PRIVATE_DATA_METHODS(surface, IDXGISurface1, &surface_from(This)->device->private_lock,
                        &surface_from(This)->private_data)

static HRESULT STDMETHODCALLTYPE surface_GetParent(IDXGISurface1 *This, REFIID riid, void **parent)
{
    return rt_resource_dxgi_parent(surface_from(This), riid, parent);
}

static HRESULT STDMETHODCALLTYPE surface_GetDevice(IDXGISurface1 *This, REFIID riid, void **device)
{
    return rt_resource_dxgi_device(surface_from(This), riid, device);
}

static HRESULT STDMETHODCALLTYPE surface_GetDesc(IDXGISurface1 *This, DXGI_SURFACE_DESC *desc)
{
    if (!desc)
        return E_INVALIDARG;
    const struct rt_resource *res = surface_from(This);
    desc->Width = res->width;
    desc->Height = res->height; /* 1 for a 1D texture */
    desc->Format = res->format;
    desc->SampleDesc.Count = res->sample_count;
    desc->SampleDesc.Quality = res->sample_quality;
    return S_OK;
}

static HRESULT STDMETHODCALLTYPE surface_Map(IDXGISurface1 *This, DXGI_MAPPED_RECT *rect, UINT flags)
{
    if (!rect) {
        RT_REFUSE_DXGI(SURFACE, "IDXGISurface::Map: pLockedRect is NULL");
        return E_INVALIDARG;
    }
    D3D11_MAP type;
    switch (flags) {
    case DXGI_MAP_READ: type = D3D11_MAP_READ; break;
    case DXGI_MAP_WRITE: type = D3D11_MAP_WRITE; break;
    case DXGI_MAP_READ | DXGI_MAP_WRITE: type = D3D11_MAP_READ_WRITE; break;
    case DXGI_MAP_DISCARD:
    case DXGI_MAP_DISCARD | DXGI_MAP_WRITE: type = D3D11_MAP_WRITE_DISCARD; break;
    default:
        RT_REFUSE_DXGI(SURFACE, "IDXGISurface::Map: MapFlags 0x%x is not READ, WRITE, READ|WRITE or DISCARD", flags);
        return E_INVALIDARG;
    }
    struct rt_resource *res = surface_from(This);
    ID3D11DeviceContext *ctx = &res->device->context.iface;
    D3D11_MAPPED_SUBRESOURCE m;
    HRESULT hr = ctx->lpVtbl->Map(ctx, (ID3D11Resource *)res, 0, type, 0, &m);
    if (FAILED(hr))
        return hr;
    rect->Pitch = (INT)m.RowPitch;
    rect->pBits = m.pData;
    return S_OK;
}

static HRESULT STDMETHODCALLTYPE surface_Unmap(IDXGISurface1 *This)
{
    struct rt_resource *res = surface_from(This);
    ID3D11DeviceContext *ctx = &res->device->context.iface;
    ctx->lpVtbl->Unmap(ctx, (ID3D11Resource *)res, 0);
    return S_OK;
}

const struct IDXGISurface1Vtbl rt_dxgi_surface_vtbl = {
    RT_API_STUBS_IDXGISurface1, /* every slot answers "not implemented" until named below */
    .QueryInterface = surface_QueryInterface,
    .AddRef = surface_AddRef,
    .Release = surface_Release,
    RT_PRIVATE_DATA_SLOTS(surface),
    .GetParent = surface_GetParent,
    .GetDevice = surface_GetDevice,
    .GetDesc = surface_GetDesc,
    .Map = surface_Map,
    .Unmap = surface_Unmap,
};
