/*
 * view_sruav.c - ID3D11ShaderResourceView and ID3D11UnorderedAccessView, their Create*
 * methods, and ClearUnorderedAccessViewUint (issue 5: views whose dependency rules are real
 * on deferred contexts).
 *
 * Dimensions implemented: buffers, Texture2D, Texture2DArray (the others answer E_INVALIDARG
 * with a line saying they are not implemented). A view holds a reference on its resource and
 * on the device, as render-target views do (view.c).
 */
#include "runtime/runtime.h"
#include "runtime/api_stubs.h"
#include "common/alloc.h"

#include <stdlib.h>

/* Each kind's vtable with its 11.3 interface's GetDesc1 after it: one object answers both. */
static const struct srv_vtbl {
    struct ID3D11ShaderResourceViewVtbl base;
    struct rt_own_ID3D11ShaderResourceView1 ext;
} srv_vtbl;
static const struct uav_vtbl {
    struct ID3D11UnorderedAccessViewVtbl base;
    struct rt_own_ID3D11UnorderedAccessView1 ext;
} uav_vtbl;

struct rt_sview *rt_uav_from_iface(ID3D11UnorderedAccessView *iface)
{
    if (!iface || iface->lpVtbl != &uav_vtbl.base)
        return NULL;
    struct rt_sview *v = (struct rt_sview *)iface;
    return v->magic == RT_VIEW_MAGIC ? v : NULL;
}

/* A shader-resource or an unordered-access view of ours behind an ID3D11View, else NULL. */
struct rt_sview *rt_sview_from_iface(ID3D11View *iface)
{
    if (!iface || (iface->lpVtbl != (const void *)&srv_vtbl && iface->lpVtbl != (const void *)&uav_vtbl))
        return NULL;
    struct rt_sview *v = (struct rt_sview *)iface;
    return v->magic == RT_VIEW_MAGIC ? v : NULL;
}

/* ---- COM methods shared by both kinds ---------------------------------------------------- */
static HRESULT view_qi(struct rt_sview *v, REFIID riid, void **ppv)
{
    if (!ppv)
        return E_POINTER;
    *ppv = NULL;
    if (!riid)
        return E_INVALIDARG;
    if (rt_iid_equal(riid, &IID_IUnknown) || rt_iid_equal(riid, &IID_ID3D11DeviceChild) ||
        rt_iid_equal(riid, &IID_ID3D11View) ||
        rt_iid_equal(riid, v->is_uav ? &IID_ID3D11UnorderedAccessView : &IID_ID3D11ShaderResourceView) ||
        rt_iid_equal(riid, v->is_uav ? &IID_ID3D11UnorderedAccessView1 : &IID_ID3D11ShaderResourceView1)) {
        atomic_fetch_add(&v->refs, 1);
        *ppv = v;
        return S_OK;
    }
    void *face = v->is_uav ? NULL : rt_d3d10_srv_face(v, riid); /* issue 15 §1: d3d10_view.c */
    if (face) {
        atomic_fetch_add(&v->refs, 1);
        *ppv = face;
        return S_OK;
    }
    return E_NOINTERFACE;
}

static ULONG view_release(struct rt_sview *v)
{
    ULONG n = atomic_fetch_sub(&v->refs, 1) - 1;
    if (n)
        return n;
    struct rt_device *dev = v->device;
    rt_private_clear(&v->private_data);
    rt_ddi_begin(dev);
    if (v->is_uav && dev->funcs.pfnDestroyUnorderedAccessView) {
        D3D11DDI_HUNORDEREDACCESSVIEW h = { v->drv };
        dev->funcs.pfnDestroyUnorderedAccessView(dev->drv_device, h);
    } else if (!v->is_uav && dev->funcs.pfnDestroyShaderResourceView) {
        D3D10DDI_HSHADERRESOURCEVIEW h = { v->drv };
        dev->funcs.pfnDestroyShaderResourceView(dev->drv_device, h);
    }
    HRESULT err = rt_ddi_end(dev);
    static const HRESULT allowed[] = { D3DDDIERR_DEVICEREMOVED };
    (void)rt_ddi_error_to_api(dev, err, allowed, 1, "pfnDestroy*View");
    free(v->drv_mem);
    struct rt_resource *res = v->resource;
    RT_LIVE_ADD(dev, v->is_uav ? RT_LIVE_UAV : RT_LIVE_SRV, -1);
    v->magic = 0;
    free(v);
    rt_resource_release(res);
    rt_device_release(dev);
    return 0;
}

#define VIEW_METHODS(prefix, Iface, Desc, field)                                                          \
    static HRESULT STDMETHODCALLTYPE prefix##_QueryInterface(Iface *This, REFIID riid, void **ppv)         \
    { return view_qi((struct rt_sview *)This, riid, ppv); }                                              \
    static ULONG STDMETHODCALLTYPE prefix##_AddRef(Iface *This)                                          \
    { return atomic_fetch_add(&((struct rt_sview *)This)->refs, 1) + 1; }                                \
    static ULONG STDMETHODCALLTYPE prefix##_Release(Iface *This)                                         \
    { return view_release((struct rt_sview *)This); }                                                    \
    static void STDMETHODCALLTYPE prefix##_GetDevice(Iface *This, ID3D11Device **out)                    \
    { if (out) { struct rt_sview *v = (struct rt_sview *)This; rt_device_addref(v->device);              \
                 *out = &v->device->iface; } }                                                           \
    static void STDMETHODCALLTYPE prefix##_GetResource(Iface *This, ID3D11Resource **out)                \
    { if (out) { struct rt_sview *v = (struct rt_sview *)This; rt_resource_addref(v->resource);          \
                 *out = &v->resource->iface; } }                                                         \
    static void STDMETHODCALLTYPE prefix##_GetDesc(Iface *This, Desc *d)                                 \
    { if (d) *d = ((struct rt_sview *)This)->desc.field; }                                               \
    RT_PRIVATE_DATA_METHODS(prefix, Iface, &((struct rt_sview *)This)->device->private_lock,            \
                            &((struct rt_sview *)This)->private_data)
VIEW_METHODS(srv, ID3D11ShaderResourceView, D3D11_SHADER_RESOURCE_VIEW_DESC, srv)
VIEW_METHODS(uav, ID3D11UnorderedAccessView, D3D11_UNORDERED_ACCESS_VIEW_DESC, uav)

static void STDMETHODCALLTYPE srv_GetDesc1(ID3D11ShaderResourceView1 *This, D3D11_SHADER_RESOURCE_VIEW_DESC1 *d)
{
    if (d)
        rt_srv_desc1(&((struct rt_sview *)This)->desc.srv, d);
}
static void STDMETHODCALLTYPE uav_GetDesc1(ID3D11UnorderedAccessView1 *This, D3D11_UNORDERED_ACCESS_VIEW_DESC1 *d)
{
    if (d)
        rt_uav_desc1(&((struct rt_sview *)This)->desc.uav, d);
}

static const struct srv_vtbl srv_vtbl = {
    .base = {
    RT_API_STUBS_ID3D11ShaderResourceView, /* every slot answers "not implemented" until named below */
    .QueryInterface = srv_QueryInterface,
    RT_PRIVATE_DATA_SLOTS(srv),
    .AddRef = srv_AddRef,
    .Release = srv_Release,
    .GetDevice = srv_GetDevice,
    .GetResource = srv_GetResource,
    .GetDesc = srv_GetDesc,
    },
    .ext = { RT_API_OWN_STUBS_ID3D11ShaderResourceView1, .GetDesc1 = srv_GetDesc1 },
};
static const struct uav_vtbl uav_vtbl = {
    .base = {
    RT_API_STUBS_ID3D11UnorderedAccessView, /* every slot answers "not implemented" until named below */
    .QueryInterface = uav_QueryInterface,
    RT_PRIVATE_DATA_SLOTS(uav),
    .AddRef = uav_AddRef,
    .Release = uav_Release,
    .GetDevice = uav_GetDevice,
    .GetResource = uav_GetResource,
    .GetDesc = uav_GetDesc,
    },
    .ext = { RT_API_OWN_STUBS_ID3D11UnorderedAccessView1, .GetDesc1 = uav_GetDesc1 },
};

/* ---- validation: the parts both kinds share ------------------------------------------------ */
struct view_range {
    UINT is_buffer;
    DXGI_FORMAT format;
    UINT first_element, num_elements;
    UINT mip, mip_count, first_slice, slice_count;
};

/* need: the format support bit the view's format must have (CheckFormatSupport, §30): a typed
 * buffer SRV needs BUFFER, a typed UAV TYPED_UNORDERED_ACCESS_VIEW; 0 for a texture SRV. */
static HRESULT check_range(const struct rt_resource *res, struct view_range *r, BOOL raw, UINT need,
                           const char *what)
{
    if (!raw && need && !(rt_format_support(res->device, r->format) & need)) {
        RT_REFUSE("%s: view format %u lacks the %s support this view needs on this device", what, (UINT)r->format,
                  need == WDDM_FMT_SUPPORT_BUFFER ? "BUFFER" : "TYPED_UNORDERED_ACCESS_VIEW");
        return E_INVALIDARG;
    }
    if (r->is_buffer) {
        UINT elem = 4;
        if (!raw) {
            const struct wddm_format_info *fi = wddm_format_info(r->format);
            if (!fi || fi->is_typeless || fi->is_compressed) {
                RT_REFUSE("%s: a buffer view needs a typed element format", what);
                return E_INVALIDARG;
            }
            elem = fi->bytes_per_elem;
        } else if (r->format != DXGI_FORMAT_R32_TYPELESS) {
            RT_REFUSE("%s: a RAW buffer view must use DXGI_FORMAT_R32_TYPELESS", what);
            return E_INVALIDARG;
        }
        if (!r->num_elements || ((UINT64)r->first_element + r->num_elements) * elem > res->width) {
            RT_REFUSE("%s: elements [%u, +%u) of %u bytes exceed ByteWidth %u", what, r->first_element,
                      r->num_elements, elem, res->width);
            return E_INVALIDARG;
        }
        return S_OK;
    }
    const struct wddm_format_info *fi = wddm_format_info(r->format), *rf = wddm_format_info(res->format);
    if (!fi || fi->is_typeless || !rf || !wddm_formats_copy_compatible(r->format, res->format)) {
        RT_REFUSE("%s: the view format must be a typed format of the resource's typeless group", what);
        return E_INVALIDARG;
    }
    if (r->mip >= res->mip_levels || r->mip_count == 0 || r->mip_count > res->mip_levels - r->mip ||
        r->slice_count == 0 || r->first_slice >= res->array_size || r->slice_count > res->array_size - r->first_slice) {
        RT_REFUSE("%s: mips [%u, +%u) / array slices [%u, +%u) out of range", what, r->mip, r->mip_count,
                  r->first_slice, r->slice_count);
        return E_INVALIDARG;
    }
    return S_OK;
}

static struct rt_resource *view_resource(struct rt_device *dev, ID3D11Resource *iface, UINT bind, const char *what)
{
    struct rt_resource *res = rt_resource_from_iface(iface);
    if (!res || res->device != dev) {
        RT_REFUSE("%s: pResource is NULL, not a resource, or of another device", what);
        return NULL;
    }
    if (!(res->bind_flags & bind)) {
        RT_REFUSE("%s: the resource was not created with D3D11_BIND_%s", what,
                  bind == D3D11_BIND_UNORDERED_ACCESS ? "UNORDERED_ACCESS" : "SHADER_RESOURCE");
        return NULL;
    }
    if (res->dimension != D3D11_RESOURCE_DIMENSION_BUFFER && res->dimension != D3D11_RESOURCE_DIMENSION_TEXTURE2D) {
        RT_REFUSE("%s: views of 1-D and 3-D textures are not implemented in this model", what);
        return NULL;
    }
    return res;
}

static D3D10DDIRESOURCE_TYPE ddi_dim(const struct rt_resource *res)
{
    return res->dimension == D3D11_RESOURCE_DIMENSION_BUFFER ? D3D10DDIRESOURCE_BUFFER : D3D10DDIRESOURCE_TEXTURE2D;
}

/* Allocate, create in the UMD, ask the DC handle size (seed 004). */
static HRESULT view_create(struct rt_device *dev, struct rt_resource *res, struct rt_sview *v, const void *args)
{
    v->magic = RT_VIEW_MAGIC;
    atomic_init(&v->refs, 1);
    v->device = dev;
    v->resource = res;
    rt_ddi_begin(dev);
    SIZE_T size = v->is_uav ? dev->funcs.pfnCalcPrivateUnorderedAccessViewSize(dev->drv_device, args)
                            : rt_ddi_calc_srv_size(dev, args);
    v->drv_mem = wddm_calloc(1, size ? size : 1);
    if (!v->drv_mem) {
        (void)rt_ddi_end(dev);
        return E_OUTOFMEMORY;
    }
    v->drv = v->drv_mem;
    if (v->is_uav) {
        D3D11DDI_HUNORDEREDACCESSVIEW h = { v->drv };
        D3D11DDI_HRTUNORDEREDACCESSVIEW rt = { v };
        dev->funcs.pfnCreateUnorderedAccessView(dev->drv_device, args, h, rt);
    } else {
        D3D10DDI_HSHADERRESOURCEVIEW h = { v->drv };
        D3D10DDI_HRTSHADERRESOURCEVIEW rt = { v };
        rt_ddi_create_srv(dev, args, h, rt);
    }
    if (dev->call_error == S_OK)
        v->dc_handle_size = rt_deferred_handle_size_locked(
            dev, v->is_uav ? D3D11DDI_HT_UNORDEREDACCESSVIEW : D3D10DDI_HT_SHADERRESOURCEVIEW, v->drv_mem);
    HRESULT err = rt_ddi_end(dev);
    if (err != S_OK) {
        static const HRESULT allowed[] = { E_OUTOFMEMORY };
        free(v->drv_mem);
        return rt_ddi_error_to_api(dev, err, allowed, 1, v->is_uav ? "pfnCreateUnorderedAccessView"
                                                                    : "pfnCreateShaderResourceView");
    }
    rt_resource_addref(res);
    rt_device_addref(dev);
    RT_LIVE_ADD(dev, v->is_uav ? RT_LIVE_UAV : RT_LIVE_SRV, 1);
    return S_OK;
}

HRESULT STDMETHODCALLTYPE rt_device_CreateShaderResourceView(ID3D11Device *iface, ID3D11Resource *resource,
                                                             const D3D11_SHADER_RESOURCE_VIEW_DESC *desc,
                                                             ID3D11ShaderResourceView **out)
{
    const char *what = "CreateShaderResourceView";
    struct rt_device *dev = rt_device_from_iface(iface);
    if (out)
        *out = NULL;
    struct rt_resource *res = view_resource(dev, resource, D3D11_BIND_SHADER_RESOURCE, what);
    if (!res)
        return E_INVALIDARG;
    D3D11_SHADER_RESOURCE_VIEW_DESC d;
    if (desc) {
        d = *desc;
    } else {
        if (res->dimension == D3D11_RESOURCE_DIMENSION_BUFFER) {
            RT_REFUSE("%s: a buffer view needs a description", what);
            return E_INVALIDARG;
        }
        memset(&d, 0, sizeof d);
        d.Format = res->format;
        d.ViewDimension = res->array_size > 1 ? D3D11_SRV_DIMENSION_TEXTURE2DARRAY : D3D11_SRV_DIMENSION_TEXTURE2D;
        d.Texture2DArray.MipLevels = res->mip_levels;
        d.Texture2DArray.ArraySize = res->array_size;
    }
    struct view_range r = { .format = d.Format, .mip_count = 1, .slice_count = 1 };
    D3D11DDIARG_CREATESHADERRESOURCEVIEW args;
    memset(&args, 0, sizeof args);
    switch (d.ViewDimension) {
    case D3D11_SRV_DIMENSION_BUFFER:
        r.is_buffer = 1;
        r.first_element = d.Buffer.FirstElement;
        r.num_elements = d.Buffer.NumElements;
        break;
    case D3D11_SRV_DIMENSION_TEXTURE2D:
        r.mip = d.Texture2D.MostDetailedMip;
        r.mip_count = d.Texture2D.MipLevels == (UINT)-1 ? res->mip_levels - r.mip : d.Texture2D.MipLevels;
        break;
    case D3D11_SRV_DIMENSION_TEXTURE2DARRAY:
        r.mip = d.Texture2DArray.MostDetailedMip;
        r.mip_count = d.Texture2DArray.MipLevels == (UINT)-1 ? res->mip_levels - r.mip : d.Texture2DArray.MipLevels;
        r.first_slice = d.Texture2DArray.FirstArraySlice;
        r.slice_count = d.Texture2DArray.ArraySize;
        break;
    default:
        RT_REFUSE("%s: ViewDimension %u is not implemented in this model (buffer, Texture2D, Texture2DArray)", what,
                  (UINT)d.ViewDimension);
        return E_INVALIDARG;
    }
    if (r.is_buffer != (res->dimension == D3D11_RESOURCE_DIMENSION_BUFFER)) {
        RT_REFUSE("%s: ViewDimension %u does not match the resource type", what, (UINT)d.ViewDimension);
        return E_INVALIDARG;
    }
    HRESULT hr = check_range(res, &r, FALSE, r.is_buffer ? WDDM_FMT_SUPPORT_BUFFER : 0, what);
    if (FAILED(hr))
        return hr;
    if (!out)
        return S_FALSE;
    if (rt_device_is_removed(dev))
        return DXGI_ERROR_DEVICE_REMOVED;
    if (!rt_ddi_has_srv_functions(dev)) {
        RT_REFUSE("%s: the UMD does not implement shader resource views", what);
        return E_NOTIMPL;
    }
    args.hDrvResource = res->drv;
    args.Format = d.Format;
    args.ResourceDimension = ddi_dim(res);
    if (r.is_buffer) {
        args.Buffer.FirstElement = r.first_element;
        args.Buffer.NumElements = r.num_elements;
    } else {
        args.Tex2D.MostDetailedMip = r.mip;
        args.Tex2D.MipLevels = r.mip_count;
        args.Tex2D.FirstArraySlice = r.first_slice;
        args.Tex2D.ArraySize = r.slice_count;
    }
    struct rt_sview *v = wddm_calloc(1, sizeof *v);
    if (!v)
        return E_OUTOFMEMORY;
    v->iface = (void *)&srv_vtbl.base;
    v->d3d10.lpVtbl = &rt_d3d10_srv_vtbl;
    v->desc.srv = d;
    hr = view_create(dev, res, v, &args);
    if (FAILED(hr)) {
        free(v);
        return hr;
    }
    *out = (ID3D11ShaderResourceView *)v;
    return S_OK;
}

HRESULT STDMETHODCALLTYPE rt_device_CreateUnorderedAccessView(ID3D11Device *iface, ID3D11Resource *resource,
                                                              const D3D11_UNORDERED_ACCESS_VIEW_DESC *desc,
                                                              ID3D11UnorderedAccessView **out)
{
    const char *what = "CreateUnorderedAccessView";
    struct rt_device *dev = rt_device_from_iface(iface);
    if (out)
        *out = NULL;
    struct rt_resource *res = view_resource(dev, resource, D3D11_BIND_UNORDERED_ACCESS, what);
    if (!res)
        return E_INVALIDARG;
    D3D11_UNORDERED_ACCESS_VIEW_DESC d;
    if (desc) {
        d = *desc;
    } else {
        if (res->dimension == D3D11_RESOURCE_DIMENSION_BUFFER) {
            RT_REFUSE("%s: a buffer view needs a description", what);
            return E_INVALIDARG;
        }
        memset(&d, 0, sizeof d);
        d.Format = res->format;
        d.ViewDimension = res->array_size > 1 ? D3D11_UAV_DIMENSION_TEXTURE2DARRAY : D3D11_UAV_DIMENSION_TEXTURE2D;
        d.Texture2DArray.ArraySize = res->array_size;
    }
    struct view_range r = { .format = d.Format, .mip_count = 1, .slice_count = 1 };
    BOOL raw = FALSE;
    switch (d.ViewDimension) {
    case D3D11_UAV_DIMENSION_BUFFER:
        r.is_buffer = 1;
        r.first_element = d.Buffer.FirstElement;
        r.num_elements = d.Buffer.NumElements;
        if (d.Buffer.Flags & ~(UINT)D3D11_BUFFER_UAV_FLAG_RAW) {
            RT_REFUSE("%s: APPEND/COUNTER buffer UAVs are not implemented in this model", what);
            return E_INVALIDARG;
        }
        raw = (d.Buffer.Flags & D3D11_BUFFER_UAV_FLAG_RAW) != 0;
        if (raw && !(res->misc_flags & D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS)) {
            RT_REFUSE("%s: a RAW view needs D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS", what);
            return E_INVALIDARG;
        }
        break;
    case D3D11_UAV_DIMENSION_TEXTURE2D:
        r.mip = d.Texture2D.MipSlice;
        break;
    case D3D11_UAV_DIMENSION_TEXTURE2DARRAY:
        r.mip = d.Texture2DArray.MipSlice;
        r.first_slice = d.Texture2DArray.FirstArraySlice;
        r.slice_count = d.Texture2DArray.ArraySize;
        break;
    default:
        RT_REFUSE("%s: ViewDimension %u is not implemented in this model (buffer, Texture2D, Texture2DArray)", what,
                  (UINT)d.ViewDimension);
        return E_INVALIDARG;
    }
    if (r.is_buffer != (res->dimension == D3D11_RESOURCE_DIMENSION_BUFFER)) {
        RT_REFUSE("%s: ViewDimension %u does not match the resource type", what, (UINT)d.ViewDimension);
        return E_INVALIDARG;
    }
    HRESULT hr = check_range(res, &r, raw, WDDM_FMT_SUPPORT_TYPED_UNORDERED_ACCESS_VIEW, what);
    if (FAILED(hr))
        return hr;
    if (!out)
        return S_FALSE;
    if (rt_device_is_removed(dev))
        return DXGI_ERROR_DEVICE_REMOVED;
    if (!dev->funcs.pfnCreateUnorderedAccessView || !dev->funcs.pfnCalcPrivateUnorderedAccessViewSize) {
        RT_REFUSE("%s: the UMD does not implement unordered access views", what);
        return E_NOTIMPL;
    }
    D3D11DDIARG_CREATEUNORDEREDACCESSVIEW args;
    memset(&args, 0, sizeof args);
    args.hDrvResource = res->drv;
    args.Format = d.Format;
    args.ResourceDimension = ddi_dim(res);
    if (r.is_buffer) {
        args.Buffer.FirstElement = r.first_element;
        args.Buffer.NumElements = r.num_elements;
        args.Buffer.Flags = d.Buffer.Flags;
    } else {
        args.Tex2D.MipSlice = r.mip;
        args.Tex2D.FirstArraySlice = r.first_slice;
        args.Tex2D.ArraySize = r.slice_count;
    }
    struct rt_sview *v = wddm_calloc(1, sizeof *v);
    if (!v)
        return E_OUTOFMEMORY;
    v->iface = (void *)&uav_vtbl.base;
    v->is_uav = TRUE;
    v->desc.uav = d;
    hr = view_create(dev, res, v, &args);
    if (FAILED(hr)) {
        free(v);
        return hr;
    }
    *out = (ID3D11UnorderedAccessView *)v;
    return S_OK;
}

void STDMETHODCALLTYPE rt_context_ClearUnorderedAccessViewUint(ID3D11DeviceContext *iface,
                                                               ID3D11UnorderedAccessView *uav_iface,
                                                               const UINT values[4])
{
    const char *what = "ClearUnorderedAccessViewUint";
    struct rt_context *ctx = rt_context_from_iface(iface);
    struct rt_device *dev = ctx->device;
    struct rt_sview *v = rt_uav_from_iface(uav_iface);
    if (!v || v->device != dev) {
        RT_REFUSE("%s: pUnorderedAccessView is NULL, not a UAV, or of another device", what);
        return;
    }
    if (!values) {
        RT_REFUSE("%s: Values is NULL", what);
        return;
    }
    if (ctx->dc) {
        rt_dc_clear_uav(ctx->dc, v, values);
        return;
    }
    UINT vals[4] = { values[0], values[1], values[2], values[3] };
    static const HRESULT allowed[] = { D3DDDIERR_DEVICEREMOVED };
    rt_ddi_begin(dev);
    if (rt_device_is_removed(dev) || !dev->funcs.pfnClearUnorderedAccessViewUint) {
        (void)rt_ddi_end(dev);
        return;
    }
    D3D11DDI_HUNORDEREDACCESSVIEW h = { v->drv };
    dev->funcs.pfnClearUnorderedAccessViewUint(dev->drv_device, h, vals);
    HRESULT err = rt_ddi_end(dev);
    (void)rt_ddi_error_to_api(dev, err, allowed, 1, "pfnClearUnorderedAccessViewUint");
}
