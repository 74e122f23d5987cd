/*
 * device.c - D3D11CreateDevice and the ID3D11Device object.
 *
 * Device creation (docs/architecture.md "Process model and entry points"): the kernel side
 * through D3DKMT thunks (EnumAdapters2 -> first adapter, CreateDevice), then the UMD through
 * its OpenAdapter10_2 entry point: pfnGetSupportedVersions (D3D11.0 DDI), pfnGetCaps
 * (threading), pfnCalcPrivateDeviceSize + pfnCreateDevice into runtime-allocated memory
 * (seed 001 §3), which fills D3D11DDI_DEVICEFUNCS and D3D11DDI_DEVICEFUNCS.
 */
#include "runtime/runtime.h"
#include "runtime/api_stubs.h"
#include "common/alloc.h"

#include <stdlib.h>

/* ---- device state helpers ------------------------------------------------------------------- */

void rt_device_addref(struct rt_device *dev)
{
    atomic_fetch_add(&dev->refs, 1);
}

BOOL rt_device_is_removed(struct rt_device *dev)
{
    return atomic_load(&dev->removed_reason) != S_OK;
}

/* Why a device the kernel put in error is lost, as GetDeviceRemovedReason says it (DXGI_ERROR,
 * "GetDeviceRemovedReason" and "DXGI_ERROR" in the Direct3D 11 / DXGI documentation;
 * docs/semantics.md §8.3, §8.4):
 *
 *   kernel execution state (D3DKMTGetDeviceState)  GetDeviceRemovedReason
 *   ACTIVE                                          the runtime's own reason: DEVICE_REMOVED for a
 *                                                   DDI's D3DDDIERR_DEVICEREMOVED, DRIVER_INTERNAL_ERROR
 *                                                   for an error the DDI may not report (§4.3)
 *   HUNG            its own work timed out (TDR)    DXGI_ERROR_DEVICE_HUNG: "failed due to badly
 *                                                   formed commands sent by the application"
 *   ERROR_DMAFAULT, ERROR_DMAPAGEFAULT              DXGI_ERROR_DEVICE_HUNG: its own commands faulted,
 *                   (its DMA buffer faulted)        the same cause in DXGI's words; DEVICE_REMOVED
 *                                                   means the adapter went away, which it did not
 *   RESET           lost to another device's        DXGI_ERROR_DEVICE_RESET: failed "due to a badly
 *                   recovery (innocent)             formed command", a run-time issue: recreate
 *   ERROR_OUTOFMEMORY, STOPPED, anything else       DXGI_ERROR_DEVICE_REMOVED: lost, recreate; no
 *                                                   DXGI code names the cause better */
HRESULT rt_removed_reason_from_kernel(D3DKMT_DEVICEEXECUTION_STATE state, HRESULT local_reason)
{
    switch (state) {
    case D3DKMT_DEVICEEXECUTION_ACTIVE:
        return local_reason;
    case D3DKMT_DEVICEEXECUTION_HUNG:
    case D3DKMT_DEVICEEXECUTION_ERROR_DMAFAULT:
    case D3DKMT_DEVICEEXECUTION_ERROR_DMAPAGEFAULT:
        return DXGI_ERROR_DEVICE_HUNG;
    case D3DKMT_DEVICEEXECUTION_RESET:
        return DXGI_ERROR_DEVICE_RESET;
    default:
        return DXGI_ERROR_DEVICE_REMOVED;
    }
}

/* The kernel's execution state of the device; FALSE when it cannot say (no kernel device yet,
 * or the query refused). */
static BOOL kernel_execution_state(struct rt_device *dev, D3DKMT_DEVICEEXECUTION_STATE *state)
{
    if (!dev->km_device)
        return FALSE;
    D3DKMT_GETDEVICESTATE gs = { .hDevice = dev->km_device, .StateType = D3DKMT_DEVICESTATE_EXECUTION };
    if (!NT_SUCCESS(D3DKMTGetDeviceState(&gs)))
        return FALSE;
    *state = gs.ExecutionState;
    return TRUE;
}

void rt_device_set_removed(struct rt_device *dev, HRESULT reason)
{
    int expected = S_OK;
    if (atomic_load(&dev->removed_reason) != S_OK)
        return; /* already lost: the first reason stands, no kernel round trip */
    /* The one place the reason is decided: the kernel knows why when it put the device in
     * error (a TDR, a fault); ACTIVE means the runtime or the UMD lost it on its own. */
    D3DKMT_DEVICEEXECUTION_STATE state;
    if (kernel_execution_state(dev, &state))
        reason = rt_removed_reason_from_kernel(state, reason);
    /* The first reason sticks: GetDeviceRemovedReason answers why the device was lost. */
    if (atomic_compare_exchange_strong(&dev->removed_reason, &expected, reason)) {
        RT_REFUSE("device removed (reason 0x%08x): every later call fails with DXGI_ERROR_DEVICE_REMOVED",
                  (UINT)reason);
        rt_removed_events_fire(dev); /* ID3D11Device4::RegisterDeviceRemovedEvent's events */
    }
}

void rt_ddi_begin(struct rt_device *dev)
{
    pthread_mutex_lock(&dev->lock);
    dev->call_error = S_OK;
}

HRESULT rt_ddi_end(struct rt_device *dev)
{
    HRESULT hr = dev->call_error;
    dev->call_error = S_OK;
    pthread_mutex_unlock(&dev->lock);
    return hr;
}

HRESULT rt_ddi_error_to_api(struct rt_device *dev, HRESULT ddi_error, const HRESULT *allowed, UINT n_allowed,
                            const char *ddi_name)
{
    if (ddi_error == S_OK)
        return S_OK;
    /* D3DDDIERR_DEVICEREMOVED is allowed from every DDI (docs/semantics.md §4.2-4.4). */
    if (ddi_error == D3DDDIERR_DEVICEREMOVED) {
        rt_device_set_removed(dev, DXGI_ERROR_DEVICE_REMOVED);
        return DXGI_ERROR_DEVICE_REMOVED;
    }
    BOOL ok = FALSE;
    for (UINT i = 0; i < n_allowed; i++)
        ok |= allowed[i] == ddi_error;
    if (!ok) {
        /* docs/semantics.md §4.3: any error a DDI may not report is critical; the runtime logs it
         * and removes the device. */
        RT_REFUSE("%s reported 0x%08x, which that DDI may not report: device removed", ddi_name, (UINT)ddi_error);
        rt_device_set_removed(dev, DXGI_ERROR_DRIVER_INTERNAL_ERROR);
        return DXGI_ERROR_DEVICE_REMOVED;
    }
    if (ddi_error == DXGI_DDI_ERR_WASSTILLDRAWING)
        return DXGI_ERROR_WAS_STILL_DRAWING;
    if (ddi_error == DXGI_DDI_ERR_UNSUPPORTED)
        return DXGI_ERROR_UNSUPPORTED;
    return ddi_error; /* E_OUTOFMEMORY, E_INVALIDARG: same code at the API */
}

/* ---- destruction ---------------------------------------------------------------------------- */

static void device_teardown(struct rt_device *dev)
{
    rt_removed_events_stop(dev); /* first: its fence is the kernel device's */
    rt_private_clear(&dev->private_data);
    rt_private_clear(&dev->context.private_data);
    if (dev->drv_device_created && dev->funcs.pfnDestroyDevice) {
        rt_ddi_begin(dev);
        dev->funcs.pfnDestroyDevice(dev->drv_device);
        (void)rt_ddi_end(dev);
    }
    free(dev->drv_device_mem);
    if (dev->adapter_open && dev->adapter_funcs.pfnCloseAdapter)
        dev->adapter_funcs.pfnCloseAdapter(dev->drv_adapter);
    if (dev->km_device) {
        D3DKMT_DESTROYDEVICE dd = { .hDevice = dev->km_device };
        (void)D3DKMTDestroyDevice(&dd);
    }
    if (dev->km_adapter) {
        D3DKMT_CLOSEADAPTER ca = { .hAdapter = dev->km_adapter };
        (void)D3DKMTCloseAdapter(&ca);
    }
    rt_resource_cache_trim(dev);
    if (dev->adapter)
        dev->adapter->iface.lpVtbl->Release(&dev->adapter->iface);
    pthread_mutex_destroy(&dev->lock);
    pthread_mutex_destroy(&dev->private_lock);
    rt_multithread_fini(dev);
    rt_info_queue_destroy(dev->info_queue);
    free(dev);
}

void rt_device_release(struct rt_device *dev)
{
    if (atomic_fetch_sub(&dev->refs, 1) == 1)
        device_teardown(dev);
}

/* ---- ID3D11Device methods ------------------------------------------------------------------- */

static HRESULT STDMETHODCALLTYPE dev_QueryInterface(ID3D11Device *iface, REFIID riid, void **ppv)
{
    if (!ppv)
        return E_POINTER;
    *ppv = NULL;
    if (!riid)
        return E_INVALIDARG;
    if (rt_iid_equal(riid, &IID_IUnknown) || rt_iid_equal(riid, &IID_ID3D11Device) ||
        rt_iid_equal(riid, &IID_ID3D11Device1) || rt_iid_equal(riid, &IID_ID3D11Device2) ||
        rt_iid_equal(riid, &IID_ID3D11Device3) || rt_iid_equal(riid, &IID_ID3D11Device4) ||
        rt_iid_equal(riid, &IID_ID3D11Device5)) {
        rt_device_addref(rt_device_from_iface(iface));
        *ppv = iface;
        return S_OK;
    }
    struct rt_device *dev = rt_device_from_iface(iface);
    void *face = rt_d3d10_device_face(dev, riid); /* a D3D10 device (d3d10_device.c) */
    if (!face)
        face = rt_multithread_face(dev, riid); /* every device (multithread.c) */
    if (!face && dev->info_queue) { /* the debug layer's faces (debug_layer.c, info_queue.c) */
        if (rt_iid_equal(riid, &IID_ID3D11Debug))
            face = &dev->debug;
        else if (rt_iid_equal(riid, &IID_ID3D11InfoQueue))
            face = rt_info_queue_iface(dev->info_queue);
    }
    if (face) {
        rt_device_addref(rt_device_from_iface(iface));
        *ppv = face;
        return S_OK;
    }
    if (rt_dxgi_device_iid(riid)) { /* the same object's DXGI face (dxgi_device.c) */
        rt_device_addref(rt_device_from_iface(iface));
        *ppv = &rt_device_from_iface(iface)->dxgi;
        return S_OK;
    }
    return E_NOINTERFACE;
}

static ULONG STDMETHODCALLTYPE dev_AddRef(ID3D11Device *iface)
{
    return atomic_fetch_add(&rt_device_from_iface(iface)->refs, 1) + 1;
}

static ULONG STDMETHODCALLTYPE dev_Release(ID3D11Device *iface)
{
    struct rt_device *dev = rt_device_from_iface(iface);
    ULONG left = atomic_fetch_sub(&dev->refs, 1) - 1;
    if (left == 0)
        device_teardown(dev);
    return left;
}

static HRESULT STDMETHODCALLTYPE dev_CheckFormatSupport(ID3D11Device *iface, DXGI_FORMAT format, UINT *support)
{
    struct rt_device *dev = rt_device_from_iface(iface);
    if (!support) {
        RT_REFUSE("CheckFormatSupport: pFormatSupport is NULL");
        return E_INVALIDARG;
    }
    /* ID3D11Device::CheckFormatSupport: E_FAIL with 0 for a format the device does not support
     * (also a value that is no DXGI_FORMAT, ~0u; Wine d3d11 tests, run on Windows:
     * test_format_support); otherwise S_OK with a non-zero mask (format_support.c). */
    UINT caps = rt_format_support(dev, format);
    *support = caps;
    return caps ? S_OK : E_FAIL;
}

/* The highest DXGI_FORMAT value (DXGI_FORMAT_A4B4G4R4_UNORM = 191). Past it a value is not a
 * format at all: CheckMultisampleQualityLevels answers E_INVALIDARG there and leaves the output
 * alone (Wine d3d11 tests, run on Windows: format 65536), while a format the device merely does
 * not support (DXGI_FORMAT_UNKNOWN, BC3) answers S_OK with 0 levels. */
#define RT_DXGI_FORMAT_MAX 191u

static HRESULT STDMETHODCALLTYPE dev_CheckMultisampleQualityLevels(ID3D11Device *iface, DXGI_FORMAT format,
                                                                   UINT count, UINT *levels)
{
    /* ID3D11Device::CheckMultisampleQualityLevels, as Windows answers it (Wine d3d11 tests,
     * test_check_multisample_quality_levels): NULL output or a non-format -> E_INVALIDARG;
     * SampleCount 0 or above D3D11_MAX_MULTISAMPLE_SAMPLE_COUNT (32) -> E_FAIL with 0 levels;
     * any other count -> S_OK with the levels (0 when the pair is not supported). */
    if (!levels) {
        RT_REFUSE("CheckMultisampleQualityLevels: pNumQualityLevels is NULL");
        return E_INVALIDARG;
    }
    if ((UINT)format > RT_DXGI_FORMAT_MAX) {
        RT_REFUSE("CheckMultisampleQualityLevels: Format %u is not a DXGI_FORMAT value", (UINT)format);
        return E_INVALIDARG;
    }
    *levels = 0;
    if (count == 0 || count > D3D11_MAX_MULTISAMPLE_SAMPLE_COUNT) {
        RT_REFUSE("CheckMultisampleQualityLevels: SampleCount %u not in [1, %u]", count,
                  D3D11_MAX_MULTISAMPLE_SAMPLE_COUNT);
        return E_FAIL;
    }
    *levels = rt_msaa_quality_levels(rt_device_from_iface(iface), format, count);
    return S_OK;
}

/* D3D11_FORMAT_SUPPORT2 of a format: this stack has no UAV atomics, typed UAV loads/stores
 * from shaders, logic ops, tiled resources or overlays; a Texture2D of any format it supports
 * can be created D3D11_RESOURCE_MISC_SHARED (validate.c, share.c), hence SHAREABLE. */
static HRESULT format_support2(ID3D11Device *iface, DXGI_FORMAT format, UINT *out)
{
    UINT support = 0;
    *out = 0;
    HRESULT hr = ID3D11Device_CheckFormatSupport(iface, format, &support);
    if (FAILED(hr))
        return hr;
    if (support & D3D11_FORMAT_SUPPORT_TEXTURE2D)
        *out = D3D11_FORMAT_SUPPORT2_SHAREABLE;
    return S_OK;
}

static HRESULT STDMETHODCALLTYPE dev_CheckFeatureSupport(ID3D11Device *iface, D3D11_FEATURE feature, void *data,
                                                         UINT size)
{
    struct rt_device *dev = rt_device_from_iface(iface);
    /* ID3D11Device::CheckFeatureSupport: E_INVALIDARG for NULL data, a size that is not the
     * feature's structure, or a feature this runtime does not know; the data is then untouched
     * (Wine d3d11 tests, run on Windows: test_check_feature_support). Every D3D11_FEATURE up to
     * D3D11.4 (OPTIONS5) is answered with what this stack does (no shaders: every shader-related
     * option is FALSE). */
    static const UINT sizes[] = {
        [D3D11_FEATURE_THREADING] = sizeof(D3D11_FEATURE_DATA_THREADING),
        [D3D11_FEATURE_DOUBLES] = sizeof(D3D11_FEATURE_DATA_DOUBLES),
        [D3D11_FEATURE_FORMAT_SUPPORT] = sizeof(D3D11_FEATURE_DATA_FORMAT_SUPPORT),
        [D3D11_FEATURE_FORMAT_SUPPORT2] = sizeof(D3D11_FEATURE_DATA_FORMAT_SUPPORT2),
        [D3D11_FEATURE_D3D10_X_HARDWARE_OPTIONS] = sizeof(D3D11_FEATURE_DATA_D3D10_X_HARDWARE_OPTIONS),
        [D3D11_FEATURE_D3D11_OPTIONS] = sizeof(D3D11_FEATURE_DATA_D3D11_OPTIONS),
        [D3D11_FEATURE_ARCHITECTURE_INFO] = sizeof(D3D11_FEATURE_DATA_ARCHITECTURE_INFO),
        [D3D11_FEATURE_D3D9_OPTIONS] = sizeof(D3D11_FEATURE_DATA_D3D9_OPTIONS),
        [D3D11_FEATURE_SHADER_MIN_PRECISION_SUPPORT] = sizeof(D3D11_FEATURE_DATA_SHADER_MIN_PRECISION_SUPPORT),
        [D3D11_FEATURE_D3D9_SHADOW_SUPPORT] = sizeof(D3D11_FEATURE_DATA_D3D9_SHADOW_SUPPORT),
        [D3D11_FEATURE_D3D11_OPTIONS1] = sizeof(D3D11_FEATURE_DATA_D3D11_OPTIONS1),
        [D3D11_FEATURE_D3D9_SIMPLE_INSTANCING_SUPPORT] = sizeof(D3D11_FEATURE_DATA_D3D9_SIMPLE_INSTANCING_SUPPORT),
        [D3D11_FEATURE_MARKER_SUPPORT] = sizeof(D3D11_FEATURE_DATA_MARKER_SUPPORT),
        [D3D11_FEATURE_D3D9_OPTIONS1] = sizeof(D3D11_FEATURE_DATA_D3D9_OPTIONS1),
        [D3D11_FEATURE_D3D11_OPTIONS2] = sizeof(D3D11_FEATURE_DATA_D3D11_OPTIONS2),
        [D3D11_FEATURE_D3D11_OPTIONS3] = sizeof(D3D11_FEATURE_DATA_D3D11_OPTIONS3),
        [D3D11_FEATURE_GPU_VIRTUAL_ADDRESS_SUPPORT] = sizeof(D3D11_FEATURE_DATA_GPU_VIRTUAL_ADDRESS_SUPPORT),
        [D3D11_FEATURE_D3D11_OPTIONS4] = sizeof(D3D11_FEATURE_DATA_D3D11_OPTIONS4),
        [D3D11_FEATURE_SHADER_CACHE] = sizeof(D3D11_FEATURE_DATA_SHADER_CACHE),
        [D3D11_FEATURE_D3D11_OPTIONS5] = sizeof(D3D11_FEATURE_DATA_D3D11_OPTIONS5),
    };
    if ((UINT)feature >= sizeof(sizes) / sizeof(sizes[0])) {
        RT_REFUSE("CheckFeatureSupport: feature %u is not a D3D11_FEATURE this runtime knows", (UINT)feature);
        return E_INVALIDARG;
    }
    if (!data) {
        RT_REFUSE("CheckFeatureSupport: pFeatureSupportData is NULL");
        return E_INVALIDARG;
    }
    if (size != sizes[feature]) {
        RT_REFUSE("CheckFeatureSupport(%u): FeatureSupportDataSize %u is not the size of its structure (%u)",
                  (UINT)feature, size, sizes[feature]);
        return E_INVALIDARG;
    }
    switch (feature) {
    case D3D11_FEATURE_THREADING: {
        D3D11_FEATURE_DATA_THREADING *t = data;
        /* What the UMD reported through pfnGetCaps(D3D11DDICAPS_THREADING). */
        t->DriverConcurrentCreates = (dev->threading_caps & D3D11DDICAPS_FREETHREADED) ? TRUE : FALSE;
        t->DriverCommandLists =
            (dev->threading_caps & (D3D11DDICAPS_COMMANDLISTS | D3D11DDICAPS_COMMANDLISTS_BUILD_2)) ? TRUE : FALSE;
        return S_OK;
    }
    case D3D11_FEATURE_FORMAT_SUPPORT: {
        D3D11_FEATURE_DATA_FORMAT_SUPPORT *f = data;
        return dev_CheckFormatSupport(iface, f->InFormat, &f->OutFormatSupport);
    }
    case D3D11_FEATURE_FORMAT_SUPPORT2: {
        D3D11_FEATURE_DATA_FORMAT_SUPPORT2 *f = data;
        return format_support2(iface, f->InFormat, &f->OutFormatSupport2);
    }
    case D3D11_FEATURE_D3D9_OPTIONS:
        /* No power-of-two restriction on any texture size or mip chain (validate.c). */
        ((D3D11_FEATURE_DATA_D3D9_OPTIONS *)data)->FullNonPow2TextureSupport = TRUE;
        return S_OK;
    case D3D11_FEATURE_D3D9_OPTIONS1: {
        D3D11_FEATURE_DATA_D3D9_OPTIONS1 *o = data;
        memset(o, 0, sizeof *o);
        o->FullNonPow2TextureSupported = TRUE; /* as D3D9_OPTIONS */
        return S_OK;
    }
    case D3D11_FEATURE_D3D11_OPTIONS: {
        /* What the driver's DDI lets the runtime hand on (ddi11_1.c); the rest - logic ops,
         * UAV-only rendering, ClearView, overlapping copies, constant buffer offsetting,
         * forced sample counts, SAD4 / double instructions, extended sharing - FALSE. */
        D3D11_FEATURE_DATA_D3D11_OPTIONS *o = data;
        memset(o, 0, sizeof *o);
        BOOL ddi11_1 = rt_device_funcs1(rt_device_from_iface(iface)) != NULL;
        o->DiscardAPIsSeenByDriver = ddi11_1;
        o->FlagsForUpdateAndCopySeenByDriver = ddi11_1;
        o->ConstantBufferPartialUpdate = ddi11_1;
        o->MapNoOverwriteOnDynamicConstantBuffer = ddi11_1;
        o->MapNoOverwriteOnDynamicBufferSRV = ddi11_1;
        return S_OK;
    }
    case D3D11_FEATURE_D3D11_OPTIONS5: {
        /* Shared resources: NT handles, keyed mutexes, fences and the D3D11.1 formats (share.c,
         * fence.c); no tiled resources to share, so not TIER_2 (D3D11_SHARED_RESOURCE_TIER). */
        ((D3D11_FEATURE_DATA_D3D11_OPTIONS5 *)data)->SharedResourceTier = D3D11_SHARED_RESOURCE_TIER_1;
        return S_OK;
    }
    case D3D11_FEATURE_D3D11_OPTIONS1:
        /* TiledResourcesTier NOT_SUPPORTED (0), no min/max filtering, no ClearView, and no Map of
         * a USAGE_DEFAULT buffer (map.c refuses it): all zero. */
    case D3D11_FEATURE_D3D11_OPTIONS2:
        /* No stencil reference from shaders, typed UAV loads, ROVs, conservative rasterization or
         * tiled resources; no Map of a DEFAULT texture and no standard swizzle (CreateTexture2D1
         * takes the driver's layout only, texture.c); UnifiedMemoryArchitecture FALSE: the
         * reference adapter has its own video memory segments. */
    case D3D11_FEATURE_D3D11_OPTIONS3:
    case D3D11_FEATURE_D3D11_OPTIONS4: /* ExtendedNV12SharedTextureSupported: no NV12 textures */
    case D3D11_FEATURE_GPU_VIRTUAL_ADDRESS_SUPPORT: /* no GPU address reaches the API: 0 bits */
    case D3D11_FEATURE_SHADER_CACHE: /* no shaders: D3D11_SHADER_CACHE_SUPPORT_NONE */
    default:
        /* DOUBLES, D3D10_X_HARDWARE_OPTIONS, ARCHITECTURE_INFO (not a tile-based deferred
         * renderer), SHADER_MIN_PRECISION_SUPPORT (full precision only: 0), D3D9_SHADOW_SUPPORT,
         * D3D9_SIMPLE_INSTANCING_SUPPORT, MARKER_SUPPORT: FALSE / 0 throughout. */
        memset(data, 0, size);
        return S_OK;
    }
}

static D3D_FEATURE_LEVEL STDMETHODCALLTYPE dev_GetFeatureLevel(ID3D11Device *iface)
{
    return rt_device_from_iface(iface)->feature_level;
}

static UINT STDMETHODCALLTYPE dev_GetCreationFlags(ID3D11Device *iface)
{
    return rt_device_from_iface(iface)->create_flags;
}

static HRESULT STDMETHODCALLTYPE dev_GetDeviceRemovedReason(ID3D11Device *iface)
{
    struct rt_device *dev = rt_device_from_iface(iface);
    /* A device the kernel lost (TDR, docs/semantics.md §8.3) is removed even before one of its
     * calls failed: ask the kernel while the runtime still believes it alive. */
    D3DKMT_DEVICEEXECUTION_STATE state;
    if (atomic_load(&dev->removed_reason) == S_OK && kernel_execution_state(dev, &state) &&
        state != D3DKMT_DEVICEEXECUTION_ACTIVE)
        rt_device_set_removed(dev, DXGI_ERROR_DEVICE_REMOVED);
    return atomic_load(&dev->removed_reason);
}

static void STDMETHODCALLTYPE dev_GetImmediateContext(ID3D11Device *iface, ID3D11DeviceContext **out)
{
    if (!out)
        return;
    struct rt_device *dev = rt_device_from_iface(iface);
    ID3D11DeviceContext_AddRef(&dev->context.iface);
    *out = &dev->context.iface;
}

RT_PRIVATE_DATA_METHODS(dev, ID3D11Device, &rt_device_from_iface(This)->private_lock, &rt_device_from_iface(This)->private_data)

/* ID3D11Device1: the same contexts, seen as ID3D11DeviceContext1 (their vtables carry its slots). */
static void STDMETHODCALLTYPE dev_GetImmediateContext1(ID3D11Device1 *iface, ID3D11DeviceContext1 **out)
{
    dev_GetImmediateContext((ID3D11Device *)iface, (ID3D11DeviceContext **)out);
}

static HRESULT STDMETHODCALLTYPE dev_CreateDeferredContext1(ID3D11Device1 *iface, UINT flags, ID3D11DeviceContext1 **out)
{
    return rt_traced_CreateDeferredContext((ID3D11Device *)iface, flags, (ID3D11DeviceContext **)out);
}

/* ID3D11Device2 / 3: the same contexts again, as ID3D11DeviceContext2 / 3 (docs/api.md "Direct3D
 * 11.2 to 11.4"). */
static void STDMETHODCALLTYPE dev_GetImmediateContext2(ID3D11Device2 *iface, ID3D11DeviceContext2 **out)
{
    dev_GetImmediateContext((ID3D11Device *)iface, (ID3D11DeviceContext **)out);
}

static HRESULT STDMETHODCALLTYPE dev_CreateDeferredContext2(ID3D11Device2 *iface, UINT flags, ID3D11DeviceContext2 **out)
{
    return rt_traced_CreateDeferredContext((ID3D11Device *)iface, flags, (ID3D11DeviceContext **)out);
}

static void STDMETHODCALLTYPE dev_GetImmediateContext3(ID3D11Device3 *iface, ID3D11DeviceContext3 **out)
{
    dev_GetImmediateContext((ID3D11Device *)iface, (ID3D11DeviceContext **)out);
}

static HRESULT STDMETHODCALLTYPE dev_CreateDeferredContext3(ID3D11Device3 *iface, UINT flags, ID3D11DeviceContext3 **out)
{
    return rt_traced_CreateDeferredContext((ID3D11Device *)iface, flags, (ID3D11DeviceContext **)out);
}

/* ID3D11Device2::CheckMultisampleQualityLevels1: Flags 0 is CheckMultisampleQualityLevels; with
 * D3D11_CHECK_MULTISAMPLE_QUALITY_LEVELS_TILED_RESOURCE it asks about tiled resources, which this
 * stack does not have (TiledResourcesTier NOT_SUPPORTED): 0 levels; any other bit is refused. */
static HRESULT STDMETHODCALLTYPE dev_CheckMultisampleQualityLevels1(ID3D11Device2 *iface, DXGI_FORMAT format,
                                                                    UINT count, UINT flags, UINT *levels)
{
    if (flags & ~(UINT)D3D11_CHECK_MULTISAMPLE_QUALITY_LEVELS_TILED_RESOURCE) {
        RT_REFUSE("CheckMultisampleQualityLevels1: Flags 0x%x has bits "
                  "D3D11_CHECK_MULTISAMPLE_QUALITY_LEVELS_FLAG does not define", flags);
        if (levels)
            *levels = 0;
        return E_INVALIDARG;
    }
    HRESULT hr = dev_CheckMultisampleQualityLevels((ID3D11Device *)iface, format, count, levels);
    if (SUCCEEDED(hr) && flags)
        *levels = 0;
    return hr;
}

/* ID3D11Device's vtable, then the own slots of ID3D11Device1 to 5: one object. */
static const struct {
    struct ID3D11DeviceVtbl base;
    struct rt_own_ID3D11Device1 ext;
    struct rt_own_ID3D11Device2 ext2;
    struct rt_own_ID3D11Device3 ext3;
    struct rt_own_ID3D11Device4 ext4;
    struct rt_own_ID3D11Device5 ext5;
} device_vtbl = {
    .base = {
        RT_API_STUBS_ID3D11Device, /* every slot answers "not implemented" until named below */
        .QueryInterface = dev_QueryInterface,
        RT_PRIVATE_DATA_SLOTS(dev),
        .AddRef = dev_AddRef,
        .Release = dev_Release,
        .CreateBuffer = rt_traced_CreateBuffer,
        .CreateTexture1D = rt_traced_CreateTexture1D,
        .CreateTexture2D = rt_traced_CreateTexture2D,
        .CreateTexture3D = rt_traced_CreateTexture3D,
        .CreateRenderTargetView = rt_traced_CreateRenderTargetView,
        .CheckFormatSupport = dev_CheckFormatSupport,
        .CheckMultisampleQualityLevels = dev_CheckMultisampleQualityLevels,
        .CheckFeatureSupport = dev_CheckFeatureSupport,
        .GetFeatureLevel = dev_GetFeatureLevel,
        .GetCreationFlags = dev_GetCreationFlags,
        .GetDeviceRemovedReason = dev_GetDeviceRemovedReason,
        .GetImmediateContext = dev_GetImmediateContext,
        .CreateDeferredContext = rt_traced_CreateDeferredContext,
        .CreateShaderResourceView = rt_traced_CreateShaderResourceView,
        .CreateUnorderedAccessView = rt_traced_CreateUnorderedAccessView,
        .CreateQuery = rt_traced_CreateQuery,
        .OpenSharedResource = rt_traced_OpenSharedResource,
    },
    .ext = {
        RT_API_OWN_STUBS_ID3D11Device1,
        .GetImmediateContext1 = dev_GetImmediateContext1,
        .CreateDeferredContext1 = dev_CreateDeferredContext1,
        .OpenSharedResource1 = rt_traced_OpenSharedResource1,
        .OpenSharedResourceByName = rt_traced_OpenSharedResourceByName,
    },
    .ext2 = {
        RT_API_OWN_STUBS_ID3D11Device2,
        .GetImmediateContext2 = dev_GetImmediateContext2,
        .CreateDeferredContext2 = dev_CreateDeferredContext2,
        .CheckMultisampleQualityLevels1 = dev_CheckMultisampleQualityLevels1,
    },
    .ext3 = {
        RT_API_OWN_STUBS_ID3D11Device3,
        .GetImmediateContext3 = dev_GetImmediateContext3,
        .CreateDeferredContext3 = dev_CreateDeferredContext3,
        .CreateTexture2D1 = rt_device_CreateTexture2D1,
        .CreateTexture3D1 = rt_device_CreateTexture3D1,
        .CreateQuery1 = rt_device_CreateQuery1,
        .CreateShaderResourceView1 = rt_device_CreateShaderResourceView1,
        .CreateRenderTargetView1 = rt_device_CreateRenderTargetView1,
        .CreateUnorderedAccessView1 = rt_device_CreateUnorderedAccessView1,
    },
    .ext4 = {
        RT_API_OWN_STUBS_ID3D11Device4,
        .RegisterDeviceRemovedEvent = rt_device_RegisterDeviceRemovedEvent,
        .UnregisterDeviceRemoved = rt_device_UnregisterDeviceRemoved,
    },
    .ext5 = {
        RT_API_OWN_STUBS_ID3D11Device5,
        .CreateFence = rt_device_CreateFence,
        .OpenSharedFence = rt_device_OpenSharedFence,
    },
};

/* ---- D3D11CreateDevice ---------------------------------------------------------------------- */

#define CREATE_FLAGS_KNOWN (D3D11_CREATE_DEVICE_SINGLETHREADED | D3D11_CREATE_DEVICE_DEBUG | \
                            D3D11_CREATE_DEVICE_SWITCH_TO_REF | \
                            D3D11_CREATE_DEVICE_PREVENT_INTERNAL_THREADING_OPTIMIZATIONS | \
                            D3D11_CREATE_DEVICE_BGRA_SUPPORT | D3D11_CREATE_DEVICE_DEBUGGABLE | \
                            D3D11_CREATE_DEVICE_PREVENT_ALTERING_LAYER_SETTINGS_FROM_REGISTRY | \
                            D3D11_CREATE_DEVICE_DISABLE_GPU_TIMEOUT | D3D11_CREATE_DEVICE_VIDEO_SUPPORT)

/* The D3D11.0 DDI serves feature levels up to 11_0; D3D11CreateDevice's default list
 * (pFeatureLevels == NULL) is 11_0, 10_1, 10_0, 9_3, 9_2, 9_1. */
static BOOL feature_level_supported(D3D_FEATURE_LEVEL fl)
{
    switch (fl) {
    case D3D_FEATURE_LEVEL_9_1:
    case D3D_FEATURE_LEVEL_9_2:
    case D3D_FEATURE_LEVEL_9_3:
    case D3D_FEATURE_LEVEL_10_0:
    case D3D_FEATURE_LEVEL_10_1:
    case D3D_FEATURE_LEVEL_11_0:
        return TRUE;
    default:
        return FALSE;
    }
}

static BOOL feature_level_known(D3D_FEATURE_LEVEL fl)
{
    return feature_level_supported(fl) || fl == D3D_FEATURE_LEVEL_11_1 || fl == D3D_FEATURE_LEVEL_12_0 ||
           fl == D3D_FEATURE_LEVEL_12_1 || fl == D3D_FEATURE_LEVEL_1_0_CORE;
}

/* Kernel side: the adapter (the DXGI adapter given, or the default one), opened by its LUID, and
 * a kernel device on it. */
static HRESULT open_kernel_side(struct rt_device *dev)
{
    /* An explicit DXGI adapter names its LUID; otherwise the default adapter is the first, or
     * the WDDM_D3D11_ADAPTER-th (issue 6: a device on the other adapter of a hybrid system). */
    if (!dev->adapter) {
        LUID *luids = NULL;
        UINT count = 0;
        HRESULT hr = rt_adapters_enum(&luids, &count);
        if (FAILED(hr))
            return hr;
        UINT pick = 0;
        const char *v = getenv("WDDM_D3D11_ADAPTER");
        if (v && *v) {
            char *end = NULL;
            unsigned long k = strtoul(v, &end, 10);
            if (*end || k >= count) {
                RT_REFUSE("%s: WDDM_D3D11_ADAPTER=\"%s\" is not an adapter index below %u", rt_device_creator(dev), v,
                          count);
                free(luids);
                return E_INVALIDARG;
            }
            pick = (UINT)k;
        }
        dev->adapter_luid = luids[pick];
        free(luids);
    } else {
        dev->adapter_luid = dev->adapter->luid;
    }
    D3DKMT_OPENADAPTERFROMLUID oa = { .AdapterLuid = dev->adapter_luid };
    NTSTATUS st = D3DKMTOpenAdapterFromLuid(&oa);
    if (!NT_SUCCESS(st)) {
        RT_REFUSE("%s: the adapter is gone (D3DKMTOpenAdapterFromLuid 0x%08x)", rt_device_creator(dev), (UINT)st);
        return st == STATUS_INVALID_PARAMETER || st == STATUS_NOT_FOUND ? DXGI_ERROR_UNSUPPORTED
                                                                         : rt_ntstatus_to_hresult(st);
    }
    dev->km_adapter = oa.hAdapter;

    D3DKMT_CREATEDEVICE cd = { .hAdapter = dev->km_adapter };
    cd.Flags.DisableGpuTimeout = (dev->create_flags & D3D11_CREATE_DEVICE_DISABLE_GPU_TIMEOUT) ? 1 : 0;
    st = D3DKMTCreateDevice(&cd);
    if (!NT_SUCCESS(st)) {
        RT_REFUSE("%s: D3DKMTCreateDevice failed (0x%08x)", rt_device_creator(dev), (UINT)st);
        return rt_ntstatus_to_hresult(st);
    }
    dev->km_device = cd.hDevice;
    return S_OK;
}

/* The UMD's adapter: a D3D11 device opens it through OpenAdapter10_2, a D3D10 one through
 * OpenAdapter10 with the D3D10.0 / 10.1 interface, whose three-member table is kept in the
 * first members of the _2 one (issue 15 §1). */
static HRESULT open_umd_adapter(struct rt_device *dev)
{
    BOOL ddi10 = rt_device_is_d3d10(dev);
    PFND3D10DDI_OPENADAPTER open;
    HRESULT hr = rt_umd_entry_for(dev, ddi10, &open);
    if (FAILED(hr))
        return hr;
    D3D10DDIARG_OPENADAPTER oa = { 0 };
    D3D10DDI_ADAPTERFUNCS funcs10 = { 0 };
    oa.hRTAdapter.handle = dev;
    oa.Interface = dev->ddi_interface;
    oa.Version = rt_ddi_build_version(dev->ddi_interface);
    oa.pAdapterCallbacks = &dev->adapter_callbacks;
    if (ddi10)
        oa.pAdapterFuncs = &funcs10;
    else
        oa.pAdapterFuncs_2 = &dev->adapter_funcs;
    hr = open(&oa);
    if (FAILED(hr)) {
        RT_REFUSE("%s: the UMD's %s failed (0x%08x)", rt_device_creator(dev),
                  ddi10 ? "OpenAdapter10" : "OpenAdapter10_2", (UINT)hr);
        return hr;
    }
    if (ddi10) {
        dev->adapter_funcs.pfnCalcPrivateDeviceSize = funcs10.pfnCalcPrivateDeviceSize;
        dev->adapter_funcs.pfnCreateDevice = funcs10.pfnCreateDevice;
        dev->adapter_funcs.pfnCloseAdapter = funcs10.pfnCloseAdapter;
    }
    dev->drv_adapter = oa.hAdapter;
    dev->adapter_open = TRUE;
    if (!dev->adapter_funcs.pfnCalcPrivateDeviceSize || !dev->adapter_funcs.pfnCreateDevice) {
        RT_REFUSE("%s: the UMD's adapter table lacks pfnCalcPrivateDeviceSize/pfnCreateDevice", rt_device_creator(dev));
        return DXGI_ERROR_DRIVER_INTERNAL_ERROR;
    }
    return S_OK;
}

/* UMD side: the adapter, version check, caps, device creation (seed 001 §3). */
static HRESULT open_umd_side(struct rt_device *dev)
{
    HRESULT hr = open_umd_adapter(dev);
    if (FAILED(hr))
        return hr;

    /* The UMD must list the DDI the device drives among its supported versions (OpenAdapter10's
     * table has no such query). A D3D11 device takes D3D11.1 when listed, else D3D11.0 (a UMD
     * written before the 11.1 DDI; ddi11_1.c). */
    if (dev->adapter_funcs.pfnGetSupportedVersions) {
        UINT32 count = 0;
        hr = dev->adapter_funcs.pfnGetSupportedVersions(dev->drv_adapter, &count, NULL);
        if (SUCCEEDED(hr) && count > 0 && count < 1024) {
            UINT64 *versions = wddm_calloc(count, sizeof(*versions));
            if (!versions)
                return E_OUTOFMEMORY;
            hr = dev->adapter_funcs.pfnGetSupportedVersions(dev->drv_adapter, &count, versions);
            BOOL found = FALSE, has11_0 = FALSE;
            for (UINT32 i = 0; SUCCEEDED(hr) && i < count; i++) {
                found |= (versions[i] >> 32) == dev->ddi_interface;
                has11_0 |= (versions[i] >> 32) == D3D11_0_DDI_INTERFACE_VERSION;
            }
            free(versions);
            if (!found && dev->ddi_interface == D3D11_1_DDI_INTERFACE_VERSION && has11_0) {
                dev->ddi_interface = D3D11_0_DDI_INTERFACE_VERSION;
                found = TRUE;
            }
            if (!found) {
                RT_REFUSE("%s: the UMD does not list DDI interface 0x%08x among its versions", rt_device_creator(dev),
                          dev->ddi_interface);
                return DXGI_ERROR_UNSUPPORTED;
            }
        }
    } else if (dev->ddi_interface == D3D11_1_DDI_INTERFACE_VERSION) {
        dev->ddi_interface = D3D11_0_DDI_INTERFACE_VERSION; /* no version query: the oldest D3D11 DDI */
    }

    /* Threading caps (CheckFeatureSupport(THREADING) answers what the UMD reports). */
    if (dev->adapter_funcs.pfnGetCaps) {
        D3D11DDI_THREADING_CAPS tc = { 0 };
        D3D10_2DDIARG_GETCAPS gc = { .Type = D3D11DDICAPS_THREADING, .pInfo = NULL, .pData = &tc,
                                     .DataSize = sizeof(tc) };
        if (SUCCEEDED(dev->adapter_funcs.pfnGetCaps(dev->drv_adapter, &gc)))
            dev->threading_caps = tc.Caps;
    }

    D3D10DDIARG_CALCPRIVATEDEVICESIZE cs = { .Interface = dev->ddi_interface,
                                             .Version = rt_ddi_build_version(dev->ddi_interface),
                                             .Flags = dev->create_flags };
    SIZE_T size = dev->adapter_funcs.pfnCalcPrivateDeviceSize(dev->drv_adapter, &cs);
    dev->drv_device_mem = wddm_calloc(1, size ? size : 1);
    if (!dev->drv_device_mem)
        return E_OUTOFMEMORY;
    dev->drv_device.pDrvPrivate = dev->drv_device_mem;

    D3D10DDIARG_CREATEDEVICE cd = { 0 };
    cd.hRTDevice.handle = dev;
    cd.Interface = dev->ddi_interface;
    cd.Version = rt_ddi_build_version(dev->ddi_interface);
    cd.pKTCallbacks = &dev->kt_callbacks;
    cd.hDrvDevice = dev->drv_device;
    cd.hRTCoreLayer.handle = dev;
    cd.Flags = dev->create_flags;
    if (dev->ddi_interface == D3D11_1_DDI_INTERFACE_VERSION) {
        cd.p11_1DeviceFuncs = &dev->funcs1;
        cd.p11UMCallbacks = &dev->core_callbacks;
    } else if (dev->ddi_interface == D3D11_0_DDI_INTERFACE_VERSION) {
        cd.p11DeviceFuncs = &dev->funcs;
        cd.p11UMCallbacks = &dev->core_callbacks;
    } else {
        cd.pDeviceFuncs = &dev->funcs10.f10; /* p10_1DeviceFuncs: the same storage (ddi10.c) */
        cd.pUMCallbacks = &dev->core_callbacks10;
    }
    /* DXGI's table and D3D11.1's sub-object function: storage the UMD may fill, never called
     * (presentation goes through the runtime's own thunks; include/wddm/dxgiddi.h). */
    cd.DXGIBaseDDI.pDXGIBaseCallbacks = &dev->dxgi_callbacks;
    cd.DXGIBaseDDI.pDXGIDDIBaseFunctions3 = &dev->dxgi_funcs;
    cd.ppfnRetrieveSubObject = &dev->retrieve_subobject;
    rt_ddi_begin(dev);
    hr = dev->adapter_funcs.pfnCreateDevice(dev->drv_adapter, &cd);
    HRESULT cb_err = rt_ddi_end(dev);
    if (FAILED(hr) || FAILED(cb_err)) {
        RT_REFUSE("%s: the UMD's pfnCreateDevice failed (0x%08x / 0x%08x)", rt_device_creator(dev), (UINT)hr,
                  (UINT)cb_err);
        if (hr == D3DDDIERR_DEVICEREMOVED || cb_err == D3DDDIERR_DEVICEREMOVED)
            return DXGI_ERROR_DEVICE_REMOVED;
        return FAILED(hr) ? hr : cb_err;
    }
    dev->drv_device_created = TRUE;
    if (rt_device_is_d3d10(dev))
        rt_ddi10_adopt(dev); /* the shared members into the tables the runtime calls (ddi10.c) */
    else if (dev->ddi_interface == D3D11_1_DDI_INTERFACE_VERSION)
        rt_ddi11_1_adopt(&dev->funcs, &dev->funcs1); /* (ddi11_1.c) */
    if (!rt_ddi_has_resource_functions(dev) || !dev->funcs.pfnDestroyResource) {
        RT_REFUSE("%s: the UMD's device table lacks the resource functions", rt_device_creator(dev));
        return DXGI_ERROR_DRIVER_INTERNAL_ERROR;
    }
    rt_deferred_device_init(dev); /* CheckDeferredContextHandleSizes double poll (seed 004) */
    return S_OK;
}

/* A device object on the adapter (NULL: the default one), opened in the kernel and in the UMD
 * through the given DDI (D3D11.0, or D3D10.0 / 10.1 for D3D10CreateDevice(1)). */
HRESULT rt_device_create(struct rt_adapter *adapter, UINT flags, D3D_FEATURE_LEVEL feature_level, UINT ddi_interface,
                         struct rt_device **out)
{
    *out = NULL;
    struct rt_device *dev = wddm_calloc(1, sizeof(*dev));
    if (!dev)
        return E_OUTOFMEMORY;
    dev->iface.lpVtbl = &device_vtbl.base;
    dev->dxgi.lpVtbl = &rt_dxgi_device_vtbl;
    dev->ddi_interface = ddi_interface;
    /* D3D10's immediate context is protected by default, D3D11's is not (multithread.c). */
    rt_multithread_init(dev, rt_device_is_d3d10(dev));
    if (rt_device_is_d3d10(dev))
        rt_d3d10_device_init(dev); /* the ID3D10Device1 face (d3d10_device.c) */
    dev->max_frame_latency = 3; /* IDXGIDevice1::GetMaximumFrameLatency's default */
    if (adapter) {
        atomic_fetch_add(&adapter->refs, 1);
        dev->adapter = adapter;
    }
    atomic_init(&dev->refs, 1);
    atomic_init(&dev->removed_reason, S_OK);
    dev->create_flags = flags;
    dev->feature_level = feature_level;
    pthread_mutex_init(&dev->lock, NULL);
    pthread_mutex_init(&dev->private_lock, NULL);
    rt_callbacks_init(dev);
    rt_context_init(&dev->context, dev);

    HRESULT hr = S_OK;
    if (flags & D3D11_CREATE_DEVICE_DEBUG) { /* the debug layer: ID3D11Debug, ID3D11InfoQueue (and D3D10's) */
        dev->debug.lpVtbl = &rt_debug_vtbl;
        dev->debug10.lpVtbl = &rt_debug10_vtbl;
        hr = rt_info_queue_create(dev);
    }
    if (SUCCEEDED(hr))
        hr = open_kernel_side(dev);
    if (SUCCEEDED(hr))
        hr = open_umd_side(dev);
    if (FAILED(hr)) {
        device_teardown(dev);
        return hr;
    }
    *out = dev;
    return S_OK;
}

HRESULT WINAPI D3D11CreateDevice(IDXGIAdapter *pAdapter, D3D_DRIVER_TYPE DriverType, HMODULE Software, UINT Flags,
                                 const D3D_FEATURE_LEVEL *pFeatureLevels, UINT FeatureLevels, UINT SDKVersion,
                                 ID3D11Device **ppDevice, D3D_FEATURE_LEVEL *pFeatureLevel,
                                 ID3D11DeviceContext **ppImmediateContext)
{
    static const D3D_FEATURE_LEVEL default_levels[] = {
        D3D_FEATURE_LEVEL_11_0, D3D_FEATURE_LEVEL_10_1, D3D_FEATURE_LEVEL_10_0,
        D3D_FEATURE_LEVEL_9_3,  D3D_FEATURE_LEVEL_9_2,  D3D_FEATURE_LEVEL_9_1,
    };

    if (ppDevice)
        *ppDevice = NULL;
    if (ppImmediateContext)
        *ppImmediateContext = NULL;
    if (pFeatureLevel)
        *pFeatureLevel = 0; /* Wine d3d11 tests (run on Windows), test_create_device: 0 on failure */
    if (Flags & D3D11_CREATE_DEVICE_DEBUG)
        wddm_debug_set(1); /* debug.h: the D3D11 debug flag turns the refusal lines on */

    if (SDKVersion != D3D11_SDK_VERSION) {
        RT_REFUSE("D3D11CreateDevice: SDKVersion %u is not D3D11_SDK_VERSION (%u)", SDKVersion, D3D11_SDK_VERSION);
        return E_INVALIDARG;
    }
    if (Flags & ~(UINT)CREATE_FLAGS_KNOWN) {
        RT_REFUSE("D3D11CreateDevice: Flags 0x%x has unknown bits", Flags);
        return E_INVALIDARG;
    }
    /* An explicit adapter goes with D3D_DRIVER_TYPE_UNKNOWN, and only with it (D3D11CreateDevice
     * reference): HARDWARE and the others name an adapter themselves. */
    struct rt_adapter *adapter = NULL;
    if (pAdapter) {
        if (DriverType != D3D_DRIVER_TYPE_UNKNOWN) { /* refused before the pointer is looked at */
            RT_REFUSE("D3D11CreateDevice: with pAdapter, DriverType must be D3D_DRIVER_TYPE_UNKNOWN (not %u)",
                      (UINT)DriverType);
            return E_INVALIDARG;
        }
        adapter = rt_adapter_from_iface(pAdapter);
        if (!adapter) {
            RT_REFUSE("D3D11CreateDevice: pAdapter is not an adapter of libwddm's DXGI (IDXGIFactory::EnumAdapters)");
            return E_INVALIDARG;
        }
    }
    switch (DriverType) {
    case D3D_DRIVER_TYPE_HARDWARE:
    case D3D_DRIVER_TYPE_REFERENCE:
    case D3D_DRIVER_TYPE_WARP:
        break; /* all served by the software GPU adapter */
    case D3D_DRIVER_TYPE_UNKNOWN:
        if (adapter)
            break;
        RT_REFUSE("D3D11CreateDevice: D3D_DRIVER_TYPE_UNKNOWN requires a non-NULL pAdapter");
        return E_INVALIDARG;
    case D3D_DRIVER_TYPE_SOFTWARE:
        if (!Software) {
            RT_REFUSE("D3D11CreateDevice: D3D_DRIVER_TYPE_SOFTWARE requires a Software module");
            return E_INVALIDARG;
        }
        RT_REFUSE("D3D11CreateDevice: D3D_DRIVER_TYPE_SOFTWARE rasterizer modules are not supported");
        return DXGI_ERROR_UNSUPPORTED;
    case D3D_DRIVER_TYPE_NULL:
        RT_REFUSE("D3D11CreateDevice: D3D_DRIVER_TYPE_NULL is not supported");
        return DXGI_ERROR_UNSUPPORTED;
    default:
        RT_REFUSE("D3D11CreateDevice: DriverType %u is not a D3D_DRIVER_TYPE", (UINT)DriverType);
        return E_INVALIDARG;
    }
    if (Software && DriverType != D3D_DRIVER_TYPE_SOFTWARE) {
        RT_REFUSE("D3D11CreateDevice: Software must be NULL unless DriverType is SOFTWARE");
        return E_INVALIDARG;
    }

    const D3D_FEATURE_LEVEL *levels = pFeatureLevels;
    UINT n_levels = FeatureLevels;
    if (!levels) {
        if (n_levels) {
            RT_REFUSE("D3D11CreateDevice: FeatureLevels is %u but pFeatureLevels is NULL", n_levels);
            return E_INVALIDARG;
        }
        levels = default_levels;
        n_levels = sizeof(default_levels) / sizeof(default_levels[0]);
    } else if (n_levels == 0) {
        RT_REFUSE("D3D11CreateDevice: pFeatureLevels given with FeatureLevels 0");
        return E_INVALIDARG;
    }
    D3D_FEATURE_LEVEL chosen = 0;
    for (UINT i = 0; i < n_levels; i++) {
        if (!feature_level_known(levels[i])) {
            RT_REFUSE("D3D11CreateDevice: pFeatureLevels[%u] = 0x%x is not a D3D_FEATURE_LEVEL", i, (UINT)levels[i]);
            return E_INVALIDARG;
        }
        if (!chosen && feature_level_supported(levels[i]))
            chosen = levels[i];
    }
    if (!chosen) {
        RT_REFUSE("D3D11CreateDevice: none of the requested feature levels is supported (maximum 11_0)");
        return E_INVALIDARG;
    }

    struct rt_device *dev = NULL;
    HRESULT hr = rt_device_create(adapter, Flags, chosen, D3D11_1_DDI_INTERFACE_VERSION, &dev);
    if (FAILED(hr))
        return hr;

    if (pFeatureLevel)
        *pFeatureLevel = chosen;
    if (!ppDevice && !ppImmediateContext) {
        /* D3D11: with no output pointers the call only reports whether creation would work. */
        device_teardown(dev);
        return S_FALSE;
    }
    if (ppImmediateContext)
        dev_GetImmediateContext(&dev->iface, ppImmediateContext);
    if (ppDevice)
        *ppDevice = &dev->iface;          /* the creation reference */
    else
        dev_Release(&dev->iface);         /* only the context was asked for: it holds the device */
    return S_OK;
}

HRESULT WINAPI D3D11CreateDeviceAndSwapChain(IDXGIAdapter *pAdapter, D3D_DRIVER_TYPE DriverType, HMODULE Software,
                                             UINT Flags, const D3D_FEATURE_LEVEL *pFeatureLevels, UINT FeatureLevels,
                                             UINT SDKVersion, const DXGI_SWAP_CHAIN_DESC *pSwapChainDesc,
                                             IDXGISwapChain **ppSwapChain, ID3D11Device **ppDevice,
                                             D3D_FEATURE_LEVEL *pFeatureLevel, ID3D11DeviceContext **ppImmediateContext)
{
    if (ppSwapChain || pSwapChainDesc) {
        /* Refused before anything is made: no device to leak, no half-done answer. */
        if (ppSwapChain)
            *ppSwapChain = NULL;
        if (ppDevice)
            *ppDevice = NULL;
        if (ppImmediateContext)
            *ppImmediateContext = NULL;
        RT_REFUSE("D3D11CreateDeviceAndSwapChain: swap chains are not implemented (nothing is presented on a "
                  "screen; docs/api.md): pass no swap chain, or call D3D11CreateDevice");
        return E_NOTIMPL;
    }
    return D3D11CreateDevice(pAdapter, DriverType, Software, Flags, pFeatureLevels, FeatureLevels, SDKVersion,
                             ppDevice, pFeatureLevel, ppImmediateContext);
}
