/*
 * d3d10_device.c - D3D10CreateDevice / D3D10CreateDevice1 and the device's D3D10 faces
 * (issue 15 §1): ID3D10Device1 (its ID3D10Multithread face: multithread.c).
 *
 * A D3D10 device is the runtime's device object (device.c) opened through the D3D10 DDI:
 * D3D10CreateDevice drives the D3D10.0 DDI at feature level 10_0, D3D10CreateDevice1 the
 * D3D10.1 DDI at the level asked (ddi10.c; the UMD through OpenAdapter10). Like Windows 8 and
 * later, which layer D3D10 over the D3D11 core, the object also answers ID3D11Device
 * (GetFeatureLevel 10_0 for a D3D10CreateDevice device) and IDXGIDevice; the D3D10 methods
 * translate their arguments and call the D3D11 ones, so every rule and every timeline span is
 * the same. Methods of the 3D pipeline (shaders, states, Draw) are the generated stubs: an
 * HRESULT one answers E_NOTIMPL, a void one records a debug message (docs/api_surface.md).
 *
 * Multithreading (D3D10_CREATE_DEVICE_SINGLETHREADED, ID3D10Multithread): a D3D10 device is
 * thread-safe by default - each call through a D3D10 face runs in the device's critical
 * section, which ID3D10Multithread::Enter / Leave also take - unless created SINGLETHREADED or
 * switched off with SetMultithreadProtected(FALSE).
 *
 * The debug layer: each such call is also a call scope of its own (rt_d3d10_enter), so a
 * refusal in it - the D3D10 layer's or the D3D11 method's it calls - becomes a message with the
 * D3D10 method's category and an ID the D3D10 API names (debug_layer.c); a debug device answers
 * ID3D10Debug and ID3D10InfoQueue (rt_d3d10_device_face).
 */
#include "runtime/runtime.h"
#include "runtime/d3d10.h"
#include "runtime/api_stubs.h"

#include <stddef.h>

static struct rt_device *dev_of(void *face)
{
    return (struct rt_device *)((char *)face - offsetof(struct rt_device, d3d10));
}

static const struct ID3D10Device1Vtbl device10_vtbl;

struct rt_device *rt_device_from_d3d10(ID3D10Device *iface)
{
    return iface && (const void *)iface->lpVtbl == (const void *)&device10_vtbl ? dev_of(iface) : NULL;
}

void rt_d3d10_get_device(struct rt_device *dev, ID3D10Device **out)
{
    if (!out)
        return;
    rt_device_addref(dev);
    *out = (ID3D10Device *)&dev->d3d10;
}

void rt_d3d10_enter(struct rt_d3d10_call *c, struct rt_device *dev, D3D10_MESSAGE_ID id,
                    D3D10_MESSAGE_CATEGORY category)
{
    rt_call_begin_d3d10(&c->scope, dev, id, category);
    c->locked = rt_mt_enter(dev);
}

void rt_d3d10_leave(struct rt_d3d10_call *c)
{
    rt_mt_leave(c->scope.device, c->locked);
    rt_call_end(&c->scope);
}

/* The D3D11 resource behind a D3D10 one; NULL (which the D3D11 method refuses) if not ours. */
static ID3D11Resource *res11(ID3D10Resource *r)
{
    struct rt_resource *res = rt_resource_from_d3d10(r);
    return res ? (ID3D11Resource *)&res->iface : NULL;
}

/* ---- IUnknown ------------------------------------------------------------------------------- */

static HRESULT STDMETHODCALLTYPE dev10_QueryInterface(ID3D10Device1 *This, REFIID riid, void **ppv)
{
    return ID3D11Device_QueryInterface(&dev_of(This)->iface, riid, ppv);
}
static ULONG STDMETHODCALLTYPE dev10_AddRef(ID3D10Device1 *This)
{
    return ID3D11Device_AddRef(&dev_of(This)->iface);
}
static ULONG STDMETHODCALLTYPE dev10_Release(ID3D10Device1 *This)
{
    return ID3D11Device_Release(&dev_of(This)->iface);
}
RT_PRIVATE_DATA_METHODS(dev10, ID3D10Device1, &dev_of(This)->private_lock, &dev_of(This)->private_data)

/* ---- commands: the immediate context's, under the critical section ---------------------------- */

#define IC(dev) (&(dev)->context.iface)

static void STDMETHODCALLTYPE dev10_CopySubresourceRegion(ID3D10Device1 *This, ID3D10Resource *dst, UINT dst_sub,
                                                          UINT x, UINT y, UINT z, ID3D10Resource *src, UINT src_sub,
                                                          const D3D10_BOX *box)
{
    _Static_assert(sizeof(D3D10_BOX) == sizeof(D3D11_BOX), "box layout");
    struct rt_device *dev = dev_of(This);
    D3D10_CALL(dev, COPYSUBRESOURCEREGION_INVALIDSOURCE, RESOURCE_MANIPULATION);
    ID3D11DeviceContext_CopySubresourceRegion(IC(dev), res11(dst), dst_sub, x, y, z, res11(src), src_sub,
                                              (const D3D11_BOX *)box);
    D3D10_DONE();
}

static void STDMETHODCALLTYPE dev10_CopyResource(ID3D10Device1 *This, ID3D10Resource *dst, ID3D10Resource *src)
{
    struct rt_device *dev = dev_of(This);
    D3D10_CALL(dev, COPYRESOURCE_INVALIDSOURCE, RESOURCE_MANIPULATION);
    ID3D11DeviceContext_CopyResource(IC(dev), res11(dst), res11(src));
    D3D10_DONE();
}

static void STDMETHODCALLTYPE dev10_UpdateSubresource(ID3D10Device1 *This, ID3D10Resource *dst, UINT sub,
                                                      const D3D10_BOX *box, const void *data, UINT row_pitch,
                                                      UINT depth_pitch)
{
    struct rt_device *dev = dev_of(This);
    D3D10_CALL(dev, UPDATESUBRESOURCE_INVALIDDESTINATIONSTATE, RESOURCE_MANIPULATION);
    ID3D11DeviceContext_UpdateSubresource(IC(dev), res11(dst), sub, (const D3D11_BOX *)box, data, row_pitch,
                                          depth_pitch);
    D3D10_DONE();
}

static void STDMETHODCALLTYPE dev10_ClearRenderTargetView(ID3D10Device1 *This, ID3D10RenderTargetView *view,
                                                          const FLOAT color[4])
{
    struct rt_device *dev = dev_of(This);
    struct rt_rtv *v = rt_rtv_from_d3d10(view);
    D3D10_CALL(dev, UNKNOWN, RESOURCE_MANIPULATION); /* D3D10 has no ID for a bad view to clear */
    ID3D11DeviceContext_ClearRenderTargetView(IC(dev), v ? &v->iface : NULL, color);
    D3D10_DONE();
}

static void STDMETHODCALLTYPE dev10_ClearState(ID3D10Device1 *This)
{
    struct rt_device *dev = dev_of(This);
    D3D10_CALL(dev, UNKNOWN, STATE_SETTING);
    ID3D11DeviceContext_ClearState(IC(dev));
    D3D10_DONE();
}

static void STDMETHODCALLTYPE dev10_Flush(ID3D10Device1 *This)
{
    struct rt_device *dev = dev_of(This);
    D3D10_CALL(dev, UNKNOWN, EXECUTION);
    ID3D11DeviceContext_Flush(IC(dev));
    D3D10_DONE();
}

/* ---- device state and queries ------------------------------------------------------------------ */

static HRESULT STDMETHODCALLTYPE dev10_GetDeviceRemovedReason(ID3D10Device1 *This)
{
    return ID3D11Device_GetDeviceRemovedReason(&dev_of(This)->iface);
}

static HRESULT STDMETHODCALLTYPE dev10_SetExceptionMode(ID3D10Device1 *This, UINT flags)
{
    if (flags & ~(UINT)D3D10_RAISE_FLAG_DRIVER_INTERNAL_ERROR) {
        RT_REFUSE("ID3D10Device::SetExceptionMode: RaiseFlags 0x%x is not a D3D10_RAISE_FLAG", flags);
        return E_INVALIDARG;
    }
    /* Recorded and reported; nothing raises exceptions on Linux (docs/api.md). */
    atomic_store(&dev_of(This)->exception_mode, flags);
    return S_OK;
}

static UINT STDMETHODCALLTYPE dev10_GetExceptionMode(ID3D10Device1 *This)
{
    return atomic_load(&dev_of(This)->exception_mode);
}

static UINT STDMETHODCALLTYPE dev10_GetCreationFlags(ID3D10Device1 *This)
{
    return dev_of(This)->d3d10_flags;
}

static HRESULT STDMETHODCALLTYPE dev10_CheckFormatSupport(ID3D10Device1 *This, DXGI_FORMAT format, UINT *support)
{
    /* D3D10_FORMAT_SUPPORT is D3D11_FORMAT_SUPPORT up to D3D10.1's last bit, BACK_BUFFER_CAST
     * (0x400000); D3D11 adds only bits above it (typed UAVs, gather-compare, video). */
    HRESULT hr = ID3D11Device_CheckFormatSupport(&dev_of(This)->iface, format, support);
    if (SUCCEEDED(hr) && support)
        *support &= 0x007fffffu;
    return hr;
}

static HRESULT STDMETHODCALLTYPE dev10_CheckMultisampleQualityLevels(ID3D10Device1 *This, DXGI_FORMAT format,
                                                                     UINT count, UINT *levels)
{
    return ID3D11Device_CheckMultisampleQualityLevels(&dev_of(This)->iface, format, count, levels);
}

static void STDMETHODCALLTYPE dev10_CheckCounterInfo(ID3D10Device1 *This, D3D10_COUNTER_INFO *info)
{
    /* No device-dependent counters and no simultaneous counter slots: the counters are not
     * implemented (CreateCounter answers E_NOTIMPL). */
    if (info)
        memset(info, 0, sizeof *info);
}

static void STDMETHODCALLTYPE dev10_SetTextFilterSize(ID3D10Device1 *This, UINT w, UINT h)
{
    atomic_store(&dev_of(This)->text_filter_w, w);
    atomic_store(&dev_of(This)->text_filter_h, h);
}

static void STDMETHODCALLTYPE dev10_GetTextFilterSize(ID3D10Device1 *This, UINT *w, UINT *h)
{
    if (w)
        *w = atomic_load(&dev_of(This)->text_filter_w);
    if (h)
        *h = atomic_load(&dev_of(This)->text_filter_h);
}

static D3D10_FEATURE_LEVEL1 STDMETHODCALLTYPE dev10_GetFeatureLevel(ID3D10Device1 *This)
{
    return (D3D10_FEATURE_LEVEL1)dev_of(This)->feature_level;
}

/* ---- object creation: the D3D11 methods with the descriptions restated ------------------------- */

/* The D3D10 face of a resource the D3D11 method made (NULL when it made none). */
static void *face_of(void *res11_iface)
{
    return res11_iface ? &((struct rt_resource *)res11_iface)->d3d10 : NULL;
}

static HRESULT create_buffer(struct rt_device *dev, const D3D10_BUFFER_DESC *desc,
                             const D3D10_SUBRESOURCE_DATA *data, ID3D10Buffer **out)
{
    _Static_assert(sizeof(D3D10_SUBRESOURCE_DATA) == sizeof(D3D11_SUBRESOURCE_DATA), "initial data layout");
    if (out)
        *out = NULL;
    if (!desc) {
        RT_REFUSE("ID3D10Device::CreateBuffer: pDesc is NULL");
        return E_INVALIDARG;
    }
    D3D11_BUFFER_DESC d = { desc->ByteWidth, (D3D11_USAGE)desc->Usage, desc->BindFlags, desc->CPUAccessFlags, 0, 0 };
    HRESULT hr = rt_d3d10_check_bind(desc->BindFlags);
    if (SUCCEEDED(hr))
        hr = rt_d3d10_misc_to_d3d11(desc->MiscFlags, &d.MiscFlags);
    if (FAILED(hr))
        return hr;
    ID3D11Buffer *b = NULL;
    hr = ID3D11Device_CreateBuffer(&dev->iface, &d, (const D3D11_SUBRESOURCE_DATA *)data, out ? &b : NULL);
    if (out)
        *out = face_of(b);
    return hr;
}

static HRESULT STDMETHODCALLTYPE dev10_CreateBuffer(ID3D10Device1 *This, const D3D10_BUFFER_DESC *desc,
                                                    const D3D10_SUBRESOURCE_DATA *data, ID3D10Buffer **out)
{
    D3D10_CALL(dev_of(This), CREATEBUFFER_INVALIDARG_RETURN, STATE_CREATION);
    HRESULT hr = create_buffer(dev_of(This), desc, data, out);
    D3D10_DONE();
    return hr;
}

/* The three texture kinds: D3D11's description layout with the misc flags restated. */
#define CREATE_TEXTURE(kind, Desc10, Desc11, Iface10, Iface11)                                                  \
    static HRESULT create_texture##kind(struct rt_device *dev, const Desc10 *desc,                             \
                                        const D3D10_SUBRESOURCE_DATA *data, Iface10 **out)                     \
    {                                                                                                          \
        _Static_assert(sizeof(Desc10) == sizeof(Desc11), "texture desc layout");                               \
        if (out)                                                                                               \
            *out = NULL;                                                                                       \
        if (!desc) {                                                                                           \
            RT_REFUSE("ID3D10Device::CreateTexture" #kind ": pDesc is NULL");                                  \
            return E_INVALIDARG;                                                                               \
        }                                                                                                      \
        Desc11 d;                                                                                              \
        memcpy(&d, desc, sizeof d);                                                                            \
        HRESULT hr = rt_d3d10_check_bind(desc->BindFlags);                                                     \
        if (SUCCEEDED(hr))                                                                                     \
            hr = rt_d3d10_misc_to_d3d11(desc->MiscFlags, &d.MiscFlags);                                        \
        if (FAILED(hr))                                                                                        \
            return hr;                                                                                         \
        Iface11 *t = NULL;                                                                                     \
        hr = ID3D11Device_CreateTexture##kind(&dev->iface, &d, (const D3D11_SUBRESOURCE_DATA *)data,          \
                                             out ? &t : NULL);                                                 \
        if (out)                                                                                               \
            *out = face_of(t);                                                                                 \
        return hr;                                                                                             \
    }                                                                                                          \
    static HRESULT STDMETHODCALLTYPE dev10_CreateTexture##kind(ID3D10Device1 *This, const Desc10 *desc,         \
                                                               const D3D10_SUBRESOURCE_DATA *data, Iface10 **out) \
    {                                                                                                          \
        D3D10_CALL(dev_of(This), CREATETEXTURE##kind##_INVALIDARG_RETURN, STATE_CREATION);                      \
        HRESULT hr = create_texture##kind(dev_of(This), desc, data, out);                                      \
        D3D10_DONE();                                                                                          \
        return hr;                                                                                             \
    }
CREATE_TEXTURE(1D, D3D10_TEXTURE1D_DESC, D3D11_TEXTURE1D_DESC, ID3D10Texture1D, ID3D11Texture1D)
CREATE_TEXTURE(2D, D3D10_TEXTURE2D_DESC, D3D11_TEXTURE2D_DESC, ID3D10Texture2D, ID3D11Texture2D)
CREATE_TEXTURE(3D, D3D10_TEXTURE3D_DESC, D3D11_TEXTURE3D_DESC, ID3D10Texture3D, ID3D11Texture3D)

static HRESULT STDMETHODCALLTYPE dev10_CreateRenderTargetView(ID3D10Device1 *This, ID3D10Resource *resource,
                                                              const D3D10_RENDER_TARGET_VIEW_DESC *desc,
                                                              ID3D10RenderTargetView **out)
{
    if (out)
        *out = NULL;
    struct rt_device *dev = dev_of(This);
    ID3D11RenderTargetView *v = NULL;
    D3D10_CALL(dev, CREATERENDERTARGETVIEW_INVALIDARG_RETURN, STATE_CREATION);
    HRESULT hr = ID3D11Device_CreateRenderTargetView(&dev->iface, res11(resource),
                                                     (const D3D11_RENDER_TARGET_VIEW_DESC *)desc, out ? &v : NULL);
    D3D10_DONE();
    if (out && v)
        *out = &((struct rt_rtv *)v)->d3d10;
    return hr;
}

/* Both SRV methods: the D3D10 / 10.1 descriptions are D3D11's first members. */
static HRESULT create_srv(struct rt_device *dev, ID3D10Resource *resource, const void *desc, size_t desc_size,
                          ID3D10ShaderResourceView1 **out)
{
    if (out)
        *out = NULL;
    D3D11_SHADER_RESOURCE_VIEW_DESC d;
    memset(&d, 0, sizeof d);
    if (desc)
        memcpy(&d, desc, desc_size);
    ID3D11ShaderResourceView *v = NULL;
    D3D10_CALL(dev, CREATESHADERRESOURCEVIEW_INVALIDARG_RETURN, STATE_CREATION);
    HRESULT hr = ID3D11Device_CreateShaderResourceView(&dev->iface, res11(resource), desc ? &d : NULL,
                                                       out ? &v : NULL);
    D3D10_DONE();
    if (out && v)
        *out = &((struct rt_sview *)v)->d3d10;
    return hr;
}

static HRESULT STDMETHODCALLTYPE dev10_CreateShaderResourceView(ID3D10Device1 *This, ID3D10Resource *resource,
                                                                const D3D10_SHADER_RESOURCE_VIEW_DESC *desc,
                                                                ID3D10ShaderResourceView **out)
{
    return create_srv(dev_of(This), resource, desc, sizeof *desc, (ID3D10ShaderResourceView1 **)out);
}

static HRESULT STDMETHODCALLTYPE dev10_CreateShaderResourceView1(ID3D10Device1 *This, ID3D10Resource *resource,
                                                                 const D3D10_SHADER_RESOURCE_VIEW_DESC1 *desc,
                                                                 ID3D10ShaderResourceView1 **out)
{
    return create_srv(dev_of(This), resource, desc, sizeof *desc, out);
}

static HRESULT STDMETHODCALLTYPE dev10_CreateQuery(ID3D10Device1 *This, const D3D10_QUERY_DESC *desc,
                                                   ID3D10Query **out)
{
    struct rt_device *dev = dev_of(This);
    D3D10_CALL(dev, CREATEQUERYORPREDICATE_INVALIDQUERY, STATE_CREATION);
    HRESULT hr = rt_d3d10_create_query(dev, desc, out);
    D3D10_DONE();
    return hr;
}

static HRESULT open_shared(struct rt_device *dev, HANDLE handle, REFIID riid, void **out)
{
    if (!out) {
        RT_REFUSE("ID3D10Device::OpenSharedResource: ppResource is NULL");
        return E_INVALIDARG;
    }
    *out = NULL;
    ID3D11Resource *r = NULL;
    HRESULT hr = ID3D11Device_OpenSharedResource(&dev->iface, handle, &IID_ID3D11Resource, (void **)&r);
    if (FAILED(hr))
        return hr;
    hr = ID3D11Resource_QueryInterface(r, riid, out); /* the D3D10 faces answer too */
    ID3D11Resource_Release(r);
    return hr;
}

static HRESULT STDMETHODCALLTYPE dev10_OpenSharedResource(ID3D10Device1 *This, HANDLE handle, REFIID riid,
                                                          void **out)
{
    D3D10_CALL(dev_of(This), DEVICE_OPEN_SHARED_RESOURCE_INVALIDARG_RETURN, STATE_CREATION);
    HRESULT hr = open_shared(dev_of(This), handle, riid, out);
    D3D10_DONE();
    return hr;
}

static const struct ID3D10Device1Vtbl device10_vtbl = {
    RT_API_STUBS_ID3D10Device1, /* the 3D pipeline: E_NOTIMPL / a debug message (docs/api_surface.md) */
    .QueryInterface = dev10_QueryInterface,
    .AddRef = dev10_AddRef,
    .Release = dev10_Release,
    RT_PRIVATE_DATA_SLOTS(dev10),
    .CopySubresourceRegion = dev10_CopySubresourceRegion,
    .CopyResource = dev10_CopyResource,
    .UpdateSubresource = dev10_UpdateSubresource,
    .ClearRenderTargetView = dev10_ClearRenderTargetView,
    .GetDeviceRemovedReason = dev10_GetDeviceRemovedReason,
    .SetExceptionMode = dev10_SetExceptionMode,
    .GetExceptionMode = dev10_GetExceptionMode,
    .ClearState = dev10_ClearState,
    .Flush = dev10_Flush,
    .CreateBuffer = dev10_CreateBuffer,
    .CreateTexture1D = dev10_CreateTexture1D,
    .CreateTexture2D = dev10_CreateTexture2D,
    .CreateTexture3D = dev10_CreateTexture3D,
    .CreateShaderResourceView = dev10_CreateShaderResourceView,
    .CreateRenderTargetView = dev10_CreateRenderTargetView,
    .CreateQuery = dev10_CreateQuery,
    .CheckFormatSupport = dev10_CheckFormatSupport,
    .CheckMultisampleQualityLevels = dev10_CheckMultisampleQualityLevels,
    .CheckCounterInfo = dev10_CheckCounterInfo,
    .GetCreationFlags = dev10_GetCreationFlags,
    .OpenSharedResource = dev10_OpenSharedResource,
    .SetTextFilterSize = dev10_SetTextFilterSize,
    .GetTextFilterSize = dev10_GetTextFilterSize,
    .CreateShaderResourceView1 = dev10_CreateShaderResourceView1,
    .GetFeatureLevel = dev10_GetFeatureLevel,
};

void rt_d3d10_device_init(struct rt_device *dev)
{
    dev->d3d10.lpVtbl = &device10_vtbl;
}

/* The device's QueryInterface answer for the D3D10 IIDs (device.c), NULL for any other. */
void *rt_d3d10_device_face(struct rt_device *dev, REFIID riid)
{
    if (!rt_device_is_d3d10(dev))
        return NULL;
    if (rt_iid_equal(riid, &IID_ID3D10Device) || rt_iid_equal(riid, &IID_ID3D10Device1))
        return &dev->d3d10;
    if (dev->info_queue && rt_iid_equal(riid, &IID_ID3D10Debug)) /* D3D10_CREATE_DEVICE_DEBUG (debug_layer.c) */
        return &dev->debug10;
    if (dev->info_queue && rt_iid_equal(riid, &IID_ID3D10InfoQueue))
        return rt_info_queue_iface10(dev->info_queue);
    /* The ID3D10SwitchToRef page: obtained by QueryInterface from a device created with
     * D3D10_CREATE_DEVICE_SWITCH_TO_REF; without the flag the device has none (debug_layer.c). */
    if (dev->switch_to_ref.lpVtbl && rt_iid_equal(riid, &IID_ID3D10SwitchToRef))
        return &dev->switch_to_ref;
    return NULL;
}

/* ---- D3D10CreateDevice / D3D10CreateDevice1 ------------------------------------------------------ */

/* D3D10_CREATE_DEVICE_* -> the D3D11 flags the runtime keeps (ALLOW_NULL_FROM_MAP and
 * STRICT_VALIDATION have no D3D11 counterpart: accepted, no effect). */
static UINT d3d11_flags(UINT f)
{
    UINT out = f & (D3D10_CREATE_DEVICE_SINGLETHREADED | D3D10_CREATE_DEVICE_DEBUG | D3D10_CREATE_DEVICE_SWITCH_TO_REF |
                    D3D10_CREATE_DEVICE_PREVENT_INTERNAL_THREADING_OPTIMIZATIONS | D3D10_CREATE_DEVICE_BGRA_SUPPORT |
                    D3D10_CREATE_DEVICE_PREVENT_ALTERING_LAYER_SETTINGS_FROM_REGISTRY);
    if (f & D3D10_CREATE_DEVICE_DEBUGGABLE)
        out |= D3D11_CREATE_DEVICE_DEBUGGABLE;
    return out;
}

#define D3D10_FLAGS_KNOWN (D3D10_CREATE_DEVICE_SINGLETHREADED | D3D10_CREATE_DEVICE_DEBUG | \
                           D3D10_CREATE_DEVICE_SWITCH_TO_REF | \
                           D3D10_CREATE_DEVICE_PREVENT_INTERNAL_THREADING_OPTIMIZATIONS | \
                           D3D10_CREATE_DEVICE_ALLOW_NULL_FROM_MAP | D3D10_CREATE_DEVICE_BGRA_SUPPORT | \
                           D3D10_CREATE_DEVICE_PREVENT_ALTERING_LAYER_SETTINGS_FROM_REGISTRY | \
                           D3D10_CREATE_DEVICE_STRICT_VALIDATION | D3D10_CREATE_DEVICE_DEBUGGABLE)

static HRESULT create(const char *fn, IDXGIAdapter *pAdapter, D3D10_DRIVER_TYPE type, HMODULE software, UINT flags,
                      D3D_FEATURE_LEVEL level, UINT ddi, ID3D10Device1 **out)
{
    if (flags & D3D10_CREATE_DEVICE_DEBUG)
        wddm_debug_set(1); /* as D3D11_CREATE_DEVICE_DEBUG: the refusal lines on (debug.h) */
    if (flags & ~(UINT)D3D10_FLAGS_KNOWN) {
        RT_REFUSE("%s: Flags 0x%x has unknown bits", fn, flags);
        return E_INVALIDARG;
    }
    struct rt_adapter *adapter = NULL;
    if (pAdapter) {
        /* D3D10: an explicit adapter goes with a hardware device (D3D10CreateDevice reference). */
        if (type != D3D10_DRIVER_TYPE_HARDWARE) {
            RT_REFUSE("%s: with pAdapter, DriverType must be D3D10_DRIVER_TYPE_HARDWARE (not %u)", fn, (UINT)type);
            return E_INVALIDARG;
        }
        if (!(adapter = rt_adapter_from_iface(pAdapter))) {
            RT_REFUSE("%s: pAdapter is not an adapter of libwddm's DXGI (IDXGIFactory::EnumAdapters)", fn);
            return E_INVALIDARG;
        }
    }
    switch (type) {
    case D3D10_DRIVER_TYPE_HARDWARE:
    case D3D10_DRIVER_TYPE_REFERENCE:
    case D3D10_DRIVER_TYPE_WARP:
        break; /* all served by the software GPU adapter, as for D3D11 */
    case D3D10_DRIVER_TYPE_SOFTWARE:
        if (!software) {
            RT_REFUSE("%s: D3D10_DRIVER_TYPE_SOFTWARE requires a Software module", fn);
            return E_INVALIDARG;
        }
        RT_REFUSE("%s: D3D10_DRIVER_TYPE_SOFTWARE rasterizer modules are not supported", fn);
        return DXGI_ERROR_UNSUPPORTED;
    case D3D10_DRIVER_TYPE_NULL:
        RT_REFUSE("%s: D3D10_DRIVER_TYPE_NULL is not supported", fn);
        return DXGI_ERROR_UNSUPPORTED;
    default:
        RT_REFUSE("%s: DriverType %u is not a D3D10_DRIVER_TYPE", fn, (UINT)type);
        return E_INVALIDARG;
    }
    if (software) {
        RT_REFUSE("%s: Software must be NULL unless DriverType is SOFTWARE", fn);
        return E_INVALIDARG;
    }
    struct rt_device *dev = NULL;
    HRESULT hr = rt_device_create(adapter, d3d11_flags(flags), level, ddi, &dev);
    if (FAILED(hr))
        return hr;
    dev->d3d10_flags = flags;
    if (flags & D3D10_CREATE_DEVICE_SWITCH_TO_REF)
        dev->switch_to_ref.lpVtbl = &rt_switch_to_ref_vtbl;
    atomic_store(&dev->mt_protected, (flags & D3D10_CREATE_DEVICE_SINGLETHREADED) ? FALSE : TRUE);
    if (!out) {
        rt_device_release(dev); /* as D3D11CreateDevice: no output pointer only asks whether it works */
        return S_FALSE;
    }
    *out = &dev->d3d10;
    return S_OK;
}

HRESULT WINAPI D3D10CreateDevice(IDXGIAdapter *pAdapter, D3D10_DRIVER_TYPE DriverType, HMODULE Software, UINT Flags,
                                 UINT SDKVersion, ID3D10Device **ppDevice)
{
    if (ppDevice)
        *ppDevice = NULL;
    if (SDKVersion != D3D10_SDK_VERSION) {
        RT_REFUSE("D3D10CreateDevice: SDKVersion %u is not D3D10_SDK_VERSION (%u)", SDKVersion, D3D10_SDK_VERSION);
        return E_INVALIDARG;
    }
    return create("D3D10CreateDevice", pAdapter, DriverType, Software, Flags, D3D_FEATURE_LEVEL_10_0,
                  D3D10_0_DDI_INTERFACE_VERSION, (ID3D10Device1 **)ppDevice);
}

HRESULT WINAPI D3D10CreateDevice1(IDXGIAdapter *pAdapter, D3D10_DRIVER_TYPE DriverType, HMODULE Software, UINT Flags,
                                  D3D10_FEATURE_LEVEL1 HardwareLevel, UINT SDKVersion, ID3D10Device1 **ppDevice)
{
    if (ppDevice)
        *ppDevice = NULL;
    if (SDKVersion != D3D10_1_SDK_VERSION) {
        RT_REFUSE("D3D10CreateDevice1: SDKVersion %u is not D3D10_1_SDK_VERSION (%u)", SDKVersion,
                  D3D10_1_SDK_VERSION);
        return E_INVALIDARG;
    }
    switch (HardwareLevel) {
    case D3D10_FEATURE_LEVEL_10_1:
    case D3D10_FEATURE_LEVEL_10_0:
    case D3D10_FEATURE_LEVEL_9_3:
    case D3D10_FEATURE_LEVEL_9_2:
    case D3D10_FEATURE_LEVEL_9_1:
        break;
    default:
        RT_REFUSE("D3D10CreateDevice1: HardwareLevel 0x%x is not a D3D10_FEATURE_LEVEL1", (UINT)HardwareLevel);
        return E_INVALIDARG;
    }
    return create("D3D10CreateDevice1", pAdapter, DriverType, Software, Flags, (D3D_FEATURE_LEVEL)HardwareLevel,
                  D3D10_1_DDI_INTERFACE_VERSION, ppDevice);
}
