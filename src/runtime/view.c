/*
 * view.c - ID3D11RenderTargetView and ID3D11Device::CreateRenderTargetView.
 *
 * A view holds a reference on its resource and on the device: the resource is destroyed only
 * after its views (docs/semantics.md §4.2: DestroyResource comes when all views are destroyed).
 */
#include "runtime/runtime.h"
#include "runtime/api_stubs.h"
#include "common/alloc.h"

#include <stdlib.h>

/* ID3D11RenderTargetView's vtable with ID3D11RenderTargetView1's GetDesc1 after it: one object. */
static const struct rtv_vtbl {
    struct ID3D11RenderTargetViewVtbl base;
    struct rt_own_ID3D11RenderTargetView1 ext;
} rtv_vtbl;

struct rt_rtv *rt_rtv_from_iface(ID3D11RenderTargetView *iface)
{
    if (!iface || iface->lpVtbl != &rtv_vtbl.base)
        return NULL;
    struct rt_rtv *v = (struct rt_rtv *)iface;
    return v->magic == RT_VIEW_MAGIC ? v : NULL;
}

static HRESULT STDMETHODCALLTYPE rtv_QueryInterface(ID3D11RenderTargetView *iface, REFIID riid, void **ppv)
{
    if (!ppv)
        return E_POINTER;
    *ppv = NULL;
    if (!riid)
        return E_INVALIDARG;
    if (rt_iid_equal(riid, &IID_IUnknown) || rt_iid_equal(riid, &IID_ID3D11DeviceChild) ||
        rt_iid_equal(riid, &IID_ID3D11View) || rt_iid_equal(riid, &IID_ID3D11RenderTargetView) ||
        rt_iid_equal(riid, &IID_ID3D11RenderTargetView1)) {
        ID3D11RenderTargetView_AddRef(iface);
        *ppv = iface;
        return S_OK;
    }
    void *face = rt_d3d10_rtv_face((struct rt_rtv *)iface, riid); /* issue 15 §1: d3d10_view.c */
    if (face) {
        ID3D11RenderTargetView_AddRef(iface);
        *ppv = face;
        return S_OK;
    }
    return E_NOINTERFACE;
}

static ULONG STDMETHODCALLTYPE rtv_AddRef(ID3D11RenderTargetView *iface)
{
    return atomic_fetch_add(&((struct rt_rtv *)iface)->refs, 1) + 1;
}

static ULONG STDMETHODCALLTYPE rtv_Release(ID3D11RenderTargetView *iface)
{
    struct rt_rtv *v = (struct rt_rtv *)iface;
    ULONG n = atomic_fetch_sub(&v->refs, 1) - 1;
    if (n)
        return n;
    struct rt_device *dev = v->device;
    rt_private_clear(&v->private_data);
    rt_ddi_begin(dev);
    if (dev->funcs.pfnDestroyRenderTargetView)
        dev->funcs.pfnDestroyRenderTargetView(dev->drv_device, v->drv);
    HRESULT err = rt_ddi_end(dev);
    static const HRESULT allowed[] = { D3DDDIERR_DEVICEREMOVED };
    (void)rt_ddi_error_to_api(dev, err, allowed, 1, "pfnDestroyRenderTargetView");
    free(v->drv_mem);
    struct rt_resource *res = v->resource;
    v->magic = 0;
    free(v);
    rt_resource_release(res);
    RT_LIVE_ADD(dev, RT_LIVE_RTV, -1);
    rt_device_release(dev);
    return 0;
}

static void STDMETHODCALLTYPE rtv_GetDevice(ID3D11RenderTargetView *iface, ID3D11Device **out)
{
    if (!out)
        return;
    struct rt_rtv *v = (struct rt_rtv *)iface;
    rt_device_addref(v->device);
    *out = &v->device->iface;
}

static void STDMETHODCALLTYPE rtv_GetResource(ID3D11RenderTargetView *iface, ID3D11Resource **out)
{
    if (!out)
        return;
    struct rt_rtv *v = (struct rt_rtv *)iface;
    rt_resource_addref(v->resource);
    *out = &v->resource->iface;
}

static void STDMETHODCALLTYPE rtv_GetDesc(ID3D11RenderTargetView *iface, D3D11_RENDER_TARGET_VIEW_DESC *desc)
{
    if (desc)
        *desc = ((struct rt_rtv *)iface)->desc;
}

static void STDMETHODCALLTYPE rtv_GetDesc1(ID3D11RenderTargetView1 *iface, D3D11_RENDER_TARGET_VIEW_DESC1 *desc)
{
    if (desc)
        rt_rtv_desc1(&((struct rt_rtv *)iface)->desc, desc);
}

RT_PRIVATE_DATA_METHODS(rtv, ID3D11RenderTargetView, &((struct rt_rtv *)This)->device->private_lock,
                        &((struct rt_rtv *)This)->private_data)

static const struct rtv_vtbl rtv_vtbl = {
    .base = {
    RT_API_STUBS_ID3D11RenderTargetView, /* every slot answers "not implemented" until named below */
    .QueryInterface = rtv_QueryInterface,
    RT_PRIVATE_DATA_SLOTS(rtv),
    .AddRef = rtv_AddRef,
    .Release = rtv_Release,
    .GetDevice = rtv_GetDevice,
    .GetResource = rtv_GetResource,
    .GetDesc = rtv_GetDesc,
    },
    .ext = { RT_API_OWN_STUBS_ID3D11RenderTargetView1, .GetDesc1 = rtv_GetDesc1 },
};

/* The view a NULL description means: the whole resource, mip 0, in the resource's format. */
static HRESULT default_desc(const struct rt_resource *res, D3D11_RENDER_TARGET_VIEW_DESC *d)
{
    memset(d, 0, sizeof(*d));
    d->Format = res->format;
    switch (res->dimension) {
    case D3D11_RESOURCE_DIMENSION_BUFFER:
        RT_REFUSE("CreateRenderTargetView: a buffer view needs a description (format and element range)");
        return E_INVALIDARG;
    case D3D11_RESOURCE_DIMENSION_TEXTURE1D:
        if (res->array_size > 1) {
            d->ViewDimension = D3D11_RTV_DIMENSION_TEXTURE1DARRAY;
            d->Texture1DArray.ArraySize = res->array_size;
        } else {
            d->ViewDimension = D3D11_RTV_DIMENSION_TEXTURE1D;
        }
        break;
    case D3D11_RESOURCE_DIMENSION_TEXTURE2D:
        if (res->sample_count > 1) {
            if (res->array_size > 1) {
                d->ViewDimension = D3D11_RTV_DIMENSION_TEXTURE2DMSARRAY;
                d->Texture2DMSArray.ArraySize = res->array_size;
            } else {
                d->ViewDimension = D3D11_RTV_DIMENSION_TEXTURE2DMS;
            }
        } else if (res->array_size > 1) {
            d->ViewDimension = D3D11_RTV_DIMENSION_TEXTURE2DARRAY;
            d->Texture2DArray.ArraySize = res->array_size;
        } else {
            d->ViewDimension = D3D11_RTV_DIMENSION_TEXTURE2D;
        }
        break;
    case D3D11_RESOURCE_DIMENSION_TEXTURE3D:
        d->ViewDimension = D3D11_RTV_DIMENSION_TEXTURE3D;
        d->Texture3D.WSize = res->depth;
        break;
    default:
        return E_INVALIDARG;
    }
    return S_OK;
}

static BOOL array_range_ok(const struct rt_resource *res, UINT first, UINT size)
{
    return size >= 1 && first < res->array_size && size <= res->array_size - first;
}

/* Validate the description against the resource and fill the DDI arguments. */
static HRESULT validate_rtv(const struct rt_resource *res, D3D11_RENDER_TARGET_VIEW_DESC *d,
                            D3D10DDIARG_CREATERENDERTARGETVIEW *a)
{
    const char *what = "CreateRenderTargetView";
    if (d->Format == DXGI_FORMAT_UNKNOWN)
        d->Format = res->format;
    const struct wddm_format_info *fi = wddm_format_info(d->Format);
    if (!fi || fi->is_typeless || !(fi->support & WDDM_FMT_SUPPORT_RENDER_TARGET)) {
        RT_REFUSE("%s: view format %s is not a typed render-target format", what, fi ? fi->name : "(unsupported)");
        return E_INVALIDARG;
    }
    if (res->dimension != D3D11_RESOURCE_DIMENSION_BUFFER && !wddm_formats_copy_compatible(d->Format, res->format)) {
        RT_REFUSE("%s: view format %s is not in the resource format's typeless group", what, fi->name);
        return E_INVALIDARG;
    }
    a->Format = d->Format;
    switch (d->ViewDimension) {
    case D3D11_RTV_DIMENSION_BUFFER: {
        if (res->dimension != D3D11_RESOURCE_DIMENSION_BUFFER)
            break;
        UINT64 end = ((UINT64)d->Buffer.FirstElement + d->Buffer.NumElements) * fi->bytes_per_elem;
        if (d->Buffer.NumElements == 0 || end > res->width) {
            RT_REFUSE("%s: buffer elements [%u, +%u) of %u bytes exceed ByteWidth %u", what, d->Buffer.FirstElement,
                      d->Buffer.NumElements, fi->bytes_per_elem, res->width);
            return E_INVALIDARG;
        }
        a->ResourceDimension = D3D10DDIRESOURCE_BUFFER;
        a->Buffer.FirstElement = d->Buffer.FirstElement;
        a->Buffer.NumElements = d->Buffer.NumElements;
        return S_OK;
    }
    case D3D11_RTV_DIMENSION_TEXTURE1D:
    case D3D11_RTV_DIMENSION_TEXTURE1DARRAY: {
        if (res->dimension != D3D11_RESOURCE_DIMENSION_TEXTURE1D)
            break;
        BOOL arr = d->ViewDimension == D3D11_RTV_DIMENSION_TEXTURE1DARRAY;
        UINT mip = arr ? d->Texture1DArray.MipSlice : d->Texture1D.MipSlice;
        UINT first = arr ? d->Texture1DArray.FirstArraySlice : 0, size = arr ? d->Texture1DArray.ArraySize : 1;
        if (mip >= res->mip_levels || !array_range_ok(res, first, size)) {
            RT_REFUSE("%s: MipSlice %u / array slices [%u, +%u) out of range", what, mip, first, size);
            return E_INVALIDARG;
        }
        a->ResourceDimension = D3D10DDIRESOURCE_TEXTURE1D;
        a->Tex1D.MipSlice = mip;
        a->Tex1D.FirstArraySlice = first;
        a->Tex1D.ArraySize = size;
        return S_OK;
    }
    case D3D11_RTV_DIMENSION_TEXTURE2D:
    case D3D11_RTV_DIMENSION_TEXTURE2DARRAY:
    case D3D11_RTV_DIMENSION_TEXTURE2DMS:
    case D3D11_RTV_DIMENSION_TEXTURE2DMSARRAY: {
        if (res->dimension != D3D11_RESOURCE_DIMENSION_TEXTURE2D)
            break;
        BOOL ms = d->ViewDimension == D3D11_RTV_DIMENSION_TEXTURE2DMS ||
                  d->ViewDimension == D3D11_RTV_DIMENSION_TEXTURE2DMSARRAY;
        if (ms != (res->sample_count > 1)) {
            RT_REFUSE("%s: a multisampled view dimension needs a multisampled resource and vice versa", what);
            return E_INVALIDARG;
        }
        UINT mip = 0, first = 0, size = 1;
        switch (d->ViewDimension) {
        case D3D11_RTV_DIMENSION_TEXTURE2D: mip = d->Texture2D.MipSlice; break;
        case D3D11_RTV_DIMENSION_TEXTURE2DARRAY:
            mip = d->Texture2DArray.MipSlice;
            first = d->Texture2DArray.FirstArraySlice;
            size = d->Texture2DArray.ArraySize;
            break;
        case D3D11_RTV_DIMENSION_TEXTURE2DMSARRAY:
            first = d->Texture2DMSArray.FirstArraySlice;
            size = d->Texture2DMSArray.ArraySize;
            break;
        default: break;
        }
        if (mip >= res->mip_levels || !array_range_ok(res, first, size)) {
            RT_REFUSE("%s: MipSlice %u / array slices [%u, +%u) out of range", what, mip, first, size);
            return E_INVALIDARG;
        }
        if (res->misc_flags & D3D11_RESOURCE_MISC_TEXTURECUBE) {
            a->ResourceDimension = D3D10DDIRESOURCE_TEXTURECUBE;
            a->TexCube.MipSlice = mip;
            a->TexCube.FirstArraySlice = first;
            a->TexCube.ArraySize = size;
        } else {
            a->ResourceDimension = D3D10DDIRESOURCE_TEXTURE2D;
            a->Tex2D.MipSlice = mip;
            a->Tex2D.FirstArraySlice = first;
            a->Tex2D.ArraySize = size;
        }
        return S_OK;
    }
    case D3D11_RTV_DIMENSION_TEXTURE3D: {
        if (res->dimension != D3D11_RESOURCE_DIMENSION_TEXTURE3D)
            break;
        UINT mip = d->Texture3D.MipSlice;
        if (mip >= res->mip_levels) {
            RT_REFUSE("%s: MipSlice %u out of range (%u levels)", what, mip, res->mip_levels);
            return E_INVALIDARG;
        }
        UINT depth = rt_mip_dim(res->depth, mip);
        UINT first = d->Texture3D.FirstWSlice;
        UINT size = d->Texture3D.WSize == (UINT)-1 && first < depth ? depth - first : d->Texture3D.WSize;
        if (size == 0 || first >= depth || size > depth - first) {
            RT_REFUSE("%s: W slices [%u, +%u) exceed the depth %u of mip %u", what, first, d->Texture3D.WSize, depth, mip);
            return E_INVALIDARG;
        }
        a->ResourceDimension = D3D10DDIRESOURCE_TEXTURE3D;
        a->Tex3D.MipSlice = mip;
        a->Tex3D.FirstW = first;
        a->Tex3D.WSize = size;
        return S_OK;
    }
    default:
        RT_REFUSE("%s: ViewDimension %u is not a D3D11_RTV_DIMENSION", what, (UINT)d->ViewDimension);
        return E_INVALIDARG;
    }
    RT_REFUSE("%s: ViewDimension %u does not match the resource type", what, (UINT)d->ViewDimension);
    return E_INVALIDARG;
}

HRESULT STDMETHODCALLTYPE rt_device_CreateRenderTargetView(ID3D11Device *iface, ID3D11Resource *resource,
                                                           const D3D11_RENDER_TARGET_VIEW_DESC *desc,
                                                           ID3D11RenderTargetView **out)
{
    const char *what = "CreateRenderTargetView";
    struct rt_device *dev = rt_device_from_iface(iface);
    if (out)
        *out = NULL;
    struct rt_resource *res = rt_resource_from_iface(resource);
    if (!res) {
        RT_REFUSE("%s: pResource is NULL or not a resource", what);
        return E_INVALIDARG;
    }
    if (res->device != dev) {
        RT_REFUSE("%s: pResource belongs to another device", what);
        return E_INVALIDARG;
    }
    if (!(res->bind_flags & D3D11_BIND_RENDER_TARGET)) {
        RT_REFUSE("%s: the resource was not created with D3D11_BIND_RENDER_TARGET", what);
        return E_INVALIDARG;
    }
    D3D11_RENDER_TARGET_VIEW_DESC d;
    HRESULT hr;
    if (desc) {
        d = *desc;
    } else if ((hr = default_desc(res, &d)) != S_OK) {
        return hr;
    }
    D3D10DDIARG_CREATERENDERTARGETVIEW args;
    memset(&args, 0, sizeof(args));
    if ((hr = validate_rtv(res, &d, &args)) != S_OK)
        return hr;
    if (!out)
        return S_FALSE; /* validate only */
    if (rt_device_is_removed(dev)) {
        RT_REFUSE("%s on a removed device", what);
        return DXGI_ERROR_DEVICE_REMOVED;
    }
    if (!dev->funcs.pfnCalcPrivateRenderTargetViewSize || !dev->funcs.pfnCreateRenderTargetView) {
        RT_REFUSE("%s: the UMD does not implement render target views", what);
        return E_NOTIMPL;
    }
    args.hDrvResource = res->drv;

    struct rt_rtv *v = wddm_calloc(1, sizeof(*v));
    if (!v)
        return E_OUTOFMEMORY;
    v->iface.lpVtbl = &rtv_vtbl.base;
    v->d3d10.lpVtbl = &rt_d3d10_rtv_vtbl;
    v->magic = RT_VIEW_MAGIC;
    atomic_init(&v->refs, 1);
    v->device = dev;
    v->resource = res;
    v->desc = d;

    rt_ddi_begin(dev);
    SIZE_T size = dev->funcs.pfnCalcPrivateRenderTargetViewSize(dev->drv_device, &args);
    v->drv_mem = wddm_calloc(1, size ? size : 1);
    if (!v->drv_mem) {
        (void)rt_ddi_end(dev);
        free(v);
        return E_OUTOFMEMORY;
    }
    v->drv.pDrvPrivate = v->drv_mem;
    D3D10DDI_HRTRENDERTARGETVIEW hrt = { .handle = v };
    dev->funcs.pfnCreateRenderTargetView(dev->drv_device, &args, v->drv, hrt);
    if (dev->call_error == S_OK) /* seed 004: the DC handle size, right after creation */
        v->dc_handle_size = rt_deferred_handle_size_locked(dev, D3D10DDI_HT_RENDERTARGETVIEW, v->drv_mem);
    HRESULT err = rt_ddi_end(dev);
    if (err != S_OK) {
        /* As for resources: an error makes the handle dead, no Destroy follows. */
        static const HRESULT allowed[] = { E_OUTOFMEMORY };
        hr = rt_ddi_error_to_api(dev, err, allowed, 1, "pfnCreateRenderTargetView");
        free(v->drv_mem);
        free(v);
        return hr;
    }
    rt_resource_addref(res);
    rt_device_addref(dev);
    RT_LIVE_ADD(dev, RT_LIVE_RTV, 1);
    *out = &v->iface;
    return S_OK;
}
