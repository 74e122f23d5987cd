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
 * ID3D11Debug: the feature mask is kept and FLUSH_PER_RENDER_OP / FINISH_PER_RENDER_OP act
 * after every copy, update and clear (debug_render_op); ReportLiveDeviceObjects reports the
 * device and its live objects by kind as LIVE_* messages; the swap-chain and context-validation
 * methods answer as not implemented (no swap chains, no pipeline state to validate).
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
    current_call = c;
}

void rt_call_end(struct rt_api_call *c)
{
    current_call = c->prev;
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
        rt_info_queue_add(c->device, c->category, D3D11_MESSAGE_SEVERITY_ERROR, id ? id : c->id, text);
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

static HRESULT STDMETHODCALLTYPE dbg_SetFeatureMask(ID3D11Debug *This, UINT mask)
{
    if (mask & ~(UINT)FEATURES_KNOWN) {
        RT_REFUSE("ID3D11Debug::SetFeatureMask: mask 0x%x has bits that are not D3D11_DEBUG_FEATURE_*", mask);
        return E_INVALIDARG;
    }
    atomic_store(&dbg_dev(This)->debug_features, mask);
    return S_OK;
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
 * LIVE_* messages: WARNING for what is still alive, INFO for the summary. */
static HRESULT STDMETHODCALLTYPE dbg_ReportLiveDeviceObjects(ID3D11Debug *This, D3D11_RLDO_FLAGS flags)
{
    struct rt_device *dev = dbg_dev(This);
    if (flags & ~(UINT)(D3D11_RLDO_SUMMARY | D3D11_RLDO_DETAIL | D3D11_RLDO_IGNORE_INTERNAL)) {
        RT_REFUSE("ID3D11Debug::ReportLiveDeviceObjects: Flags 0x%x has unknown bits", (UINT)flags);
        return E_INVALIDARG;
    }
    char line[160];
    /* The caller's reference to this face is one of the device's. */
    snprintf(line, sizeof line, "Live ID3D11Device at %p, Refcount: %u", (void *)dev, atomic_load(&dev->refs));
    rt_info_queue_add(dev, D3D11_MESSAGE_CATEGORY_STATE_CREATION, D3D11_MESSAGE_SEVERITY_WARNING,
                      D3D11_MESSAGE_ID_LIVE_DEVICE, line);
    UINT total = 0;
    for (int k = 0; k < RT_LIVE_KINDS; k++) {
        UINT n = atomic_load(&dev->live[k]);
        total += n;
        if (!n || !(flags & D3D11_RLDO_DETAIL))
            continue;
        snprintf(line, sizeof line, "Live %s objects: %u", live_kinds[k].name, n);
        rt_info_queue_add(dev, D3D11_MESSAGE_CATEGORY_STATE_CREATION, D3D11_MESSAGE_SEVERITY_WARNING,
                          live_kinds[k].id, line);
    }
    snprintf(line, sizeof line, "Live device objects: %u besides the device", total);
    rt_info_queue_add(dev, D3D11_MESSAGE_CATEGORY_STATE_CREATION, D3D11_MESSAGE_SEVERITY_INFO,
                      D3D11_MESSAGE_ID_LIVE_OBJECT_SUMMARY, line);
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
