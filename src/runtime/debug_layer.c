/*
 * debug_layer.c - the debug layer (issue 15 §4): where a refusal goes, and ID3D11Debug.
 *
 * An API call of a device runs inside a call scope (struct rt_api_call, opened by the wrappers
 * of traced.c): the device, and the category and message ID Windows' debug layer reports for
 * that method when it fails. A refusal (RT_REFUSE, RT_REFUSE_ID) is always kept in the thread's
 * last-refusal lines (common/debug.h); inside a scope of a device created with
 * D3D11_CREATE_DEVICE_DEBUG it also becomes a message of the device's ID3D11InfoQueue (severity
 * ERROR, the site's ID or the call's), which prints it under WDDM_DEBUG unless muted; otherwise
 * WDDM_DEBUG prints the line itself. The scope is a thread-local stack of caller-owned frames,
 * so nothing outlives the call that pushed it.
 *
 * A call through a D3D10 face (d3d10_*.c) opens its own scope with the D3D10 method's ID; the
 * D3D11 calls it makes inherit it, and a refusal inside reports an ID the D3D10 API names: the
 * site's or the inner call's when D3D10 has it (D3D10's IDs are D3D11's namesakes at the same
 * values), Map's and Unmap's per resource kind as D3D10 spells them, else the D3D10 method's.
 *
 * ID3D11Debug: the feature mask is kept and FLUSH_PER_RENDER_OP / FINISH_PER_RENDER_OP act
 * after every copy, update and clear (debug_render_op); ReportLiveDeviceObjects reports the
 * device and its live objects by kind as LIVE_* messages; the swap-chain and context-validation
 * methods answer as not implemented (no swap chains, no pipeline state to validate).
 * ID3D10Debug is the same settings under the D3D10 interface (its three feature bits); its
 * Validate answers S_OK: the pipeline state it checks cannot be set here, so nothing is invalid.
 * ID3D10SwitchToRef (a D3D10_CREATE_DEVICE_SWITCH_TO_REF device) has no reference rasterizer to
 * switch to and says so (below).
 */
#include "runtime/runtime.h"
#include "runtime/api_stubs.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

static _Thread_local struct rt_api_call *current_call;

void rt_call_begin(struct rt_api_call *c, struct rt_device *dev, D3D11_MESSAGE_ID id, D3D11_MESSAGE_CATEGORY category)
{
    c->device = dev;
    c->id = id;
    c->category = category;
    c->prev = current_call;
    c->d3d10 = current_call && current_call->device == dev ? current_call->d3d10 : NULL;
    current_call = c;
}

void rt_call_begin_d3d10(struct rt_api_call *c, struct rt_device *dev, D3D10_MESSAGE_ID id,
                         D3D10_MESSAGE_CATEGORY category)
{
    /* D3D10's categories and IDs are D3D11's namesakes, same values (api.slots checks each). */
    rt_call_begin(c, dev, (D3D11_MESSAGE_ID)id, (D3D11_MESSAGE_CATEGORY)category);
    c->d3d10 = c;
}

void rt_call_end(struct rt_api_call *c)
{
    current_call = c->prev;
}

/* D3D10 names a D3D11 ID up to D3D10_MESSAGES_END and in its 10L9 range, at the same value. */
static BOOL d3d10_names(D3D11_MESSAGE_ID id)
{
    UINT v = (UINT)id;
    return v <= (UINT)D3D10_MESSAGE_ID_D3D10_MESSAGES_END ||
           (v >= (UINT)D3D10_MESSAGE_ID_D3D10L9_MESSAGES_START && v <= (UINT)D3D10_MESSAGE_ID_D3D10L9_MESSAGES_END);
}

/* Map's and Unmap's IDs: one set for every resource in D3D11, one per resource kind in D3D10
 * (buffer, 1D, 2D, 3D texture; UNKNOWN where the kind has none: a buffer has no subresources). */
#define PER_KIND(what)                                                                                      \
    { D3D10_MESSAGE_ID_BUFFER_##what, D3D10_MESSAGE_ID_TEXTURE1D_##what, D3D10_MESSAGE_ID_TEXTURE2D_##what, \
      D3D10_MESSAGE_ID_TEXTURE3D_##what }
#define TEXTURES(what)                                                                                       \
    { D3D10_MESSAGE_ID_UNKNOWN, D3D10_MESSAGE_ID_TEXTURE1D_##what, D3D10_MESSAGE_ID_TEXTURE2D_##what,          \
      D3D10_MESSAGE_ID_TEXTURE3D_##what }
static const struct { D3D11_MESSAGE_ID d3d11; D3D10_MESSAGE_ID d3d10[4]; } map_ids[] = {
    { D3D11_MESSAGE_ID_RESOURCE_MAP_INVALIDMAPTYPE, PER_KIND(MAP_INVALIDMAPTYPE) },
    { D3D11_MESSAGE_ID_RESOURCE_MAP_INVALIDSUBRESOURCE, TEXTURES(MAP_INVALIDSUBRESOURCE) },
    { D3D11_MESSAGE_ID_RESOURCE_MAP_INVALIDFLAGS, PER_KIND(MAP_INVALIDFLAGS) },
    { D3D11_MESSAGE_ID_RESOURCE_MAP_ALREADYMAPPED, PER_KIND(MAP_ALREADYMAPPED) },
    { D3D11_MESSAGE_ID_RESOURCE_MAP_DEVICEREMOVED_RETURN, PER_KIND(MAP_DEVICEREMOVED_RETURN) },
    { D3D11_MESSAGE_ID_RESOURCE_UNMAP_INVALIDSUBRESOURCE, TEXTURES(UNMAP_INVALIDSUBRESOURCE) },
    { D3D11_MESSAGE_ID_RESOURCE_UNMAP_NOTMAPPED, PER_KIND(UNMAP_NOTMAPPED) },
};
#define MAP_ROWS (sizeof map_ids / sizeof map_ids[0])

/* The resource kind (column of map_ids) whose Map or Unmap the D3D10 call is: a resource's
 * Map and Unmap open their calls with their kind's IDs (d3d10_resource.c); -1 for any other. */
static int map_kind(D3D11_MESSAGE_ID call10)
{
    for (size_t r = 0; r < MAP_ROWS; r++)
        for (int k = 0; k < 4; k++)
            if (call10 != D3D11_MESSAGE_ID_UNKNOWN && (D3D11_MESSAGE_ID)map_ids[r].d3d10[k] == call10)
                return k;
    return -1;
}

/* The ID a refusal inside a D3D10 call reports (the call's own ID is one D3D10 names). */
static D3D11_MESSAGE_ID d3d10_id(D3D11_MESSAGE_ID id, D3D11_MESSAGE_ID call10)
{
    if (d3d10_names(id))
        return id;
    int k = map_kind(call10);
    for (size_t r = 0; k >= 0 && r < MAP_ROWS; r++)
        if (map_ids[r].d3d11 == id && map_ids[r].d3d10[k] != D3D10_MESSAGE_ID_UNKNOWN)
            return (D3D11_MESSAGE_ID)map_ids[r].d3d10[k];
    return call10;
}

void rt_refuse(D3D11_MESSAGE_ID id, const char *fmt, ...)
{
    char text[224];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    const struct rt_api_call *c = current_call;
    if (c && c->device->info_queue) {
        wddm_debug_note("runtime", text); /* the info queue prints it (info_queue.c) */
        D3D11_MESSAGE_ID mid = id ? id : c->id;
        if (c->d3d10)
            mid = d3d10_id(mid, c->d3d10->id);
        rt_info_queue_add(c->device, c->category, D3D11_MESSAGE_SEVERITY_ERROR, mid, text);
    } else {
        wddm_debug("runtime", "%s", text);
    }
}

/* ---- ID3D11Debug ---------------------------------------------------------------------------------- */

static struct rt_device *dbg_dev(ID3D11Debug *iface)
{
    return (struct rt_device *)((char *)iface - offsetof(struct rt_device, debug));
}

static HRESULT STDMETHODCALLTYPE dbg_QueryInterface(ID3D11Debug *This, REFIID riid, void **ppv)
{
    return ID3D11Device_QueryInterface(&dbg_dev(This)->iface, riid, ppv);
}
static ULONG STDMETHODCALLTYPE dbg_AddRef(ID3D11Debug *This)
{
    return ID3D11Device_AddRef(&dbg_dev(This)->iface);
}
static ULONG STDMETHODCALLTYPE dbg_Release(ID3D11Debug *This)
{
    return ID3D11Device_Release(&dbg_dev(This)->iface);
}

#define FEATURES_KNOWN (D3D11_DEBUG_FEATURE_FLUSH_PER_RENDER_OP | D3D11_DEBUG_FEATURE_FINISH_PER_RENDER_OP | \
                        D3D11_DEBUG_FEATURE_PRESENT_PER_RENDER_OP |                                          \
                        D3D11_DEBUG_FEATURE_ALWAYS_DISCARD_OFFERED_RESOURCE |                                \
                        D3D11_DEBUG_FEATURE_NEVER_DISCARD_OFFERED_RESOURCE | \
                        D3D11_DEBUG_FEATURE_AVOID_BEHAVIOR_CHANGING_DEBUG_AIDS | \
                        D3D11_DEBUG_FEATURE_DISABLE_TILED_RESOURCE_MAPPING_TRACKING_AND_VALIDATION)

/* SetFeatureMask of either face: `api` is "D3D11" or "D3D10", `known` its feature bits. */
static HRESULT set_features(struct rt_device *dev, UINT mask, UINT known, const char *api)
{
    if (mask & ~known) {
        RT_REFUSE("I%sDebug::SetFeatureMask: mask 0x%x has bits that are not %s_DEBUG_FEATURE_*", api, mask, api);
        return E_INVALIDARG;
    }
    atomic_store(&dev->debug_features, mask);
    return S_OK;
}

static HRESULT STDMETHODCALLTYPE dbg_SetFeatureMask(ID3D11Debug *This, UINT mask)
{
    return set_features(dbg_dev(This), mask, FEATURES_KNOWN, "D3D11");
}

static UINT STDMETHODCALLTYPE dbg_GetFeatureMask(ID3D11Debug *This)
{
    return atomic_load(&dbg_dev(This)->debug_features);
}

static HRESULT STDMETHODCALLTYPE dbg_SetPresentPerRenderOpDelay(ID3D11Debug *This, UINT ms)
{
    atomic_store(&dbg_dev(This)->debug_present_delay, ms); /* kept: nothing is presented here */
    return S_OK;
}

static UINT STDMETHODCALLTYPE dbg_GetPresentPerRenderOpDelay(ID3D11Debug *This)
{
    return atomic_load(&dbg_dev(This)->debug_present_delay);
}

static const struct { D3D11_MESSAGE_ID id; const char *name; } live_kinds[RT_LIVE_KINDS] = {
    [RT_LIVE_BUFFER] = { D3D11_MESSAGE_ID_LIVE_BUFFER, "ID3D11Buffer" },
    [RT_LIVE_TEXTURE1D] = { D3D11_MESSAGE_ID_LIVE_TEXTURE1D, "ID3D11Texture1D" },
    [RT_LIVE_TEXTURE2D] = { D3D11_MESSAGE_ID_LIVE_TEXTURE2D, "ID3D11Texture2D" },
    [RT_LIVE_TEXTURE3D] = { D3D11_MESSAGE_ID_LIVE_TEXTURE3D, "ID3D11Texture3D" },
    [RT_LIVE_SRV] = { D3D11_MESSAGE_ID_LIVE_SHADERRESOURCEVIEW, "ID3D11ShaderResourceView" },
    [RT_LIVE_RTV] = { D3D11_MESSAGE_ID_LIVE_RENDERTARGETVIEW, "ID3D11RenderTargetView" },
    [RT_LIVE_UAV] = { D3D11_MESSAGE_ID_LIVE_UNORDEREDACCESSVIEW, "ID3D11UnorderedAccessView" },
    [RT_LIVE_QUERY] = { D3D11_MESSAGE_ID_LIVE_QUERY, "ID3D11Query" },
    [RT_LIVE_CONTEXT] = { D3D11_MESSAGE_ID_LIVE_CONTEXT, "ID3D11DeviceContext (deferred)" },
    [RT_LIVE_COMMANDLIST] = { D3D11_MESSAGE_ID_LIVE_COMMANDLIST, "ID3D11CommandList" },
};

/* The device (with its reference count) and the number of live objects of each kind, as
 * LIVE_* messages: WARNING for what is still alive, INFO for the summary. One report serves
 * ID3D11Debug::ReportLiveDeviceObjects and IDXGIDebug::ReportLiveObjects (dxgi_debug.c). */
void rt_debug_report_live(struct rt_device *dev, BOOL detail)
{
    char line[160];
    /* The caller's reference to this face is one of the device's. */
    snprintf(line, sizeof line, "Live ID3D11Device at %p, Refcount: %u", (void *)dev, atomic_load(&dev->refs));
    rt_info_queue_add(dev, D3D11_MESSAGE_CATEGORY_STATE_CREATION, D3D11_MESSAGE_SEVERITY_WARNING,
                      D3D11_MESSAGE_ID_LIVE_DEVICE, line);
    UINT total = 0;
    for (int k = 0; k < RT_LIVE_KINDS; k++) {
        UINT n = atomic_load(&dev->live[k]);
        total += n;
        if (!n || !detail)
            continue;
        snprintf(line, sizeof line, "Live %s objects: %u", live_kinds[k].name, n);
        rt_info_queue_add(dev, D3D11_MESSAGE_CATEGORY_STATE_CREATION, D3D11_MESSAGE_SEVERITY_WARNING,
                          live_kinds[k].id, line);
    }
    snprintf(line, sizeof line, "Live device objects: %u besides the device", total);
    rt_info_queue_add(dev, D3D11_MESSAGE_CATEGORY_STATE_CREATION, D3D11_MESSAGE_SEVERITY_INFO,
                      D3D11_MESSAGE_ID_LIVE_OBJECT_SUMMARY, line);
}

static HRESULT STDMETHODCALLTYPE dbg_ReportLiveDeviceObjects(ID3D11Debug *This, D3D11_RLDO_FLAGS flags)
{
    if (flags & ~(UINT)(D3D11_RLDO_SUMMARY | D3D11_RLDO_DETAIL | D3D11_RLDO_IGNORE_INTERNAL)) {
        RT_REFUSE("ID3D11Debug::ReportLiveDeviceObjects: Flags 0x%x has unknown bits", (UINT)flags);
        return E_INVALIDARG;
    }
    rt_debug_report_live(dbg_dev(This), (flags & D3D11_RLDO_DETAIL) ? TRUE : FALSE);
    return S_OK;
}

const struct ID3D11DebugVtbl rt_debug_vtbl = {
    RT_API_STUBS_ID3D11Debug, /* SetSwapChain / GetSwapChain / ValidateContext(ForDispatch): not implemented */
    .QueryInterface = dbg_QueryInterface,
    .AddRef = dbg_AddRef,
    .Release = dbg_Release,
    .SetFeatureMask = dbg_SetFeatureMask,
    .GetFeatureMask = dbg_GetFeatureMask,
    .SetPresentPerRenderOpDelay = dbg_SetPresentPerRenderOpDelay,
    .GetPresentPerRenderOpDelay = dbg_GetPresentPerRenderOpDelay,
    .ReportLiveDeviceObjects = dbg_ReportLiveDeviceObjects,
};

/* ---- ID3D10Debug: the same settings, D3D10's interface ------------------------------------------- */

static struct rt_device *dbg10_dev(ID3D10Debug *iface)
{
    return (struct rt_device *)((char *)iface - offsetof(struct rt_device, debug10));
}

static HRESULT STDMETHODCALLTYPE dbg10_QueryInterface(ID3D10Debug *This, REFIID riid, void **ppv)
{
    return dbg_QueryInterface(&dbg10_dev(This)->debug, riid, ppv);
}
static ULONG STDMETHODCALLTYPE dbg10_AddRef(ID3D10Debug *This)
{
    return dbg_AddRef(&dbg10_dev(This)->debug);
}
static ULONG STDMETHODCALLTYPE dbg10_Release(ID3D10Debug *This)
{
    return dbg_Release(&dbg10_dev(This)->debug);
}

#define FEATURES10_KNOWN (D3D10_DEBUG_FEATURE_FLUSH_PER_RENDER_OP | D3D10_DEBUG_FEATURE_FINISH_PER_RENDER_OP | \
                          D3D10_DEBUG_FEATURE_PRESENT_PER_RENDER_OP)
_Static_assert(D3D10_DEBUG_FEATURE_FLUSH_PER_RENDER_OP == D3D11_DEBUG_FEATURE_FLUSH_PER_RENDER_OP &&
                   D3D10_DEBUG_FEATURE_FINISH_PER_RENDER_OP == D3D11_DEBUG_FEATURE_FINISH_PER_RENDER_OP &&
                   D3D10_DEBUG_FEATURE_PRESENT_PER_RENDER_OP == D3D11_DEBUG_FEATURE_PRESENT_PER_RENDER_OP,
               "one feature mask serves both faces");

static HRESULT STDMETHODCALLTYPE dbg10_SetFeatureMask(ID3D10Debug *This, UINT mask)
{
    return set_features(dbg10_dev(This), mask, FEATURES10_KNOWN, "D3D10");
}
static UINT STDMETHODCALLTYPE dbg10_GetFeatureMask(ID3D10Debug *This)
{
    return dbg_GetFeatureMask(&dbg10_dev(This)->debug);
}
static HRESULT STDMETHODCALLTYPE dbg10_SetPresentPerRenderOpDelay(ID3D10Debug *This, UINT ms)
{
    return dbg_SetPresentPerRenderOpDelay(&dbg10_dev(This)->debug, ms);
}
static UINT STDMETHODCALLTYPE dbg10_GetPresentPerRenderOpDelay(ID3D10Debug *This)
{
    return dbg_GetPresentPerRenderOpDelay(&dbg10_dev(This)->debug);
}

/* The state Validate checks (shaders, input layout, bound views against a Draw) cannot be set
 * on this device (those methods are not implemented): nothing is invalid. */
static HRESULT STDMETHODCALLTYPE dbg10_Validate(ID3D10Debug *This)
{
    (void)This;
    return S_OK;
}

const struct ID3D10DebugVtbl rt_debug10_vtbl = {
    RT_API_STUBS_ID3D10Debug, /* SetSwapChain / GetSwapChain: not implemented, as ID3D11Debug's */
    .QueryInterface = dbg10_QueryInterface,
    .AddRef = dbg10_AddRef,
    .Release = dbg10_Release,
    .SetFeatureMask = dbg10_SetFeatureMask,
    .GetFeatureMask = dbg10_GetFeatureMask,
    .SetPresentPerRenderOpDelay = dbg10_SetPresentPerRenderOpDelay,
    .GetPresentPerRenderOpDelay = dbg10_GetPresentPerRenderOpDelay,
    .Validate = dbg10_Validate,
};

/* ---- ID3D10SwitchToRef: asked for, nothing to switch to ------------------------------------------- */

/* A device created with D3D10_CREATE_DEVICE_SWITCH_TO_REF answers ID3D10SwitchToRef
 * (d3d10_device.c). The D3D10_CREATE_DEVICE_FLAG page says such a device is made "both a
 * software (REF) and hardware (HAL)"; here there is one device, on the software GPU, and no
 * reference rasterizer to switch to. So the interface answers honestly: GetUseRef is FALSE (the
 * device runs on its adapter, never on a REF device); SetUseRef returns the previous value of
 * UseRef as the ID3D10SwitchToRef::SetUseRef page says, which is GetUseRef's FALSE (a setting
 * that never took effect is not reported as one), changes nothing observable, and asking for
 * TRUE is a WARNING message of the debug layer's queue (on a debug device; the refusal line
 * under WDDM_DEBUG otherwise) naming why. */
static struct rt_device *str_dev(ID3D10SwitchToRef *iface)
{
    return (struct rt_device *)((char *)iface - offsetof(struct rt_device, switch_to_ref));
}

static HRESULT STDMETHODCALLTYPE str_QueryInterface(ID3D10SwitchToRef *This, REFIID riid, void **ppv)
{
    return ID3D11Device_QueryInterface(&str_dev(This)->iface, riid, ppv);
}
static ULONG STDMETHODCALLTYPE str_AddRef(ID3D10SwitchToRef *This)
{
    return ID3D11Device_AddRef(&str_dev(This)->iface);
}
static ULONG STDMETHODCALLTYPE str_Release(ID3D10SwitchToRef *This)
{
    return ID3D11Device_Release(&str_dev(This)->iface);
}

static BOOL STDMETHODCALLTYPE str_SetUseRef(ID3D10SwitchToRef *This, BOOL use_ref)
{
    struct rt_device *dev = str_dev(This);
    if (use_ref) {
        static const char text[] = "ID3D10SwitchToRef::SetUseRef(TRUE): there is no reference rasterizer here; the "
                                   "device stays on its adapter (GetUseRef answers FALSE)";
        if (dev->info_queue)
            rt_info_queue_add(dev, D3D11_MESSAGE_CATEGORY_MISCELLANEOUS, D3D11_MESSAGE_SEVERITY_WARNING,
                              D3D11_MESSAGE_ID_UNKNOWN, text);
        else
            wddm_debug("runtime", "%s", text);
    }
    return FALSE; /* the previous value: the device was never on a reference device */
}

static BOOL STDMETHODCALLTYPE str_GetUseRef(ID3D10SwitchToRef *This)
{
    (void)This;
    return FALSE; /* never on a reference device: see above */
}

const struct ID3D10SwitchToRefVtbl rt_switch_to_ref_vtbl = {
    RT_API_STUBS_ID3D10SwitchToRef,
    .QueryInterface = str_QueryInterface,
    .AddRef = str_AddRef,
    .Release = str_Release,
    .SetUseRef = str_SetUseRef,
    .GetUseRef = str_GetUseRef,
};

/* After a copy, update or clear on the immediate context (traced.c): FLUSH_PER_RENDER_OP
 * submits it, FINISH_PER_RENDER_OP also waits until the GPU has done it (an event query). */
void rt_debug_render_op(struct rt_device *dev, ID3D11DeviceContext *ctx)
{
    UINT mask = atomic_load_explicit(&dev->debug_features, memory_order_relaxed);
    if (!(mask & (D3D11_DEBUG_FEATURE_FLUSH_PER_RENDER_OP | D3D11_DEBUG_FEATURE_FINISH_PER_RENDER_OP)) ||
        ctx != &dev->context.iface)
        return;
    if (!(mask & D3D11_DEBUG_FEATURE_FINISH_PER_RENDER_OP)) {
        ID3D11DeviceContext_Flush(ctx);
        return;
    }
    D3D11_QUERY_DESC qd = { D3D11_QUERY_EVENT, 0 };
    ID3D11Query *q = NULL;
    if (FAILED(ID3D11Device_CreateQuery(&dev->iface, &qd, &q)))
        return;
    ID3D11DeviceContext_End(ctx, (ID3D11Asynchronous *)q);
    BOOL done = FALSE;
    /* GetData without DONOTFLUSH flushes, so the loop ends; a removed device answers an error. */
    while (ID3D11DeviceContext_GetData(ctx, (ID3D11Asynchronous *)q, &done, sizeof done, 0) == S_FALSE)
        ;
    ID3D11Query_Release(q);
}
