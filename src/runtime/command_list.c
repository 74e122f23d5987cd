/*
 * command_list.c - command lists (docs/semantics.md §4.5): FinishCommandList turns a deferred
 * context's recording into an ID3D11CommandList (the driver's list, or the runtime's emulated
 * one), which holds a reference on every object it names; ExecuteCommandList runs it on the
 * immediate context, or records it as a nested list on a deferred one.
 */
#include "runtime/deferred_internal.h"
#include "runtime/api_stubs.h"
#include "common/alloc.h"

#include <stdlib.h>

static const struct ID3D11CommandListVtbl cmdlist_vtbl;
static struct rt_cmdlist *cmdlist_from_iface(ID3D11CommandList *iface)
{
    return iface && iface->lpVtbl == &cmdlist_vtbl ? (struct rt_cmdlist *)iface : NULL;
}

/* ---- command list object -------------------------------------------------------------------- */
static HRESULT STDMETHODCALLTYPE cl_QueryInterface(ID3D11CommandList *iface, REFIID riid, void **ppv)
{
    if (!ppv)
        return E_POINTER;
    *ppv = NULL;
    if (!riid)
        return E_INVALIDARG;
    if (rt_iid_equal(riid, &IID_IUnknown) || rt_iid_equal(riid, &IID_ID3D11DeviceChild) ||
        rt_iid_equal(riid, &IID_ID3D11CommandList)) {
        ID3D11CommandList_AddRef(iface);
        *ppv = iface;
        return S_OK;
    }
    return E_NOINTERFACE;
}

static ULONG STDMETHODCALLTYPE cl_AddRef(ID3D11CommandList *iface)
{
    return atomic_fetch_add(&((struct rt_cmdlist *)iface)->refs, 1) + 1;
}

static ULONG STDMETHODCALLTYPE cl_Release(ID3D11CommandList *iface)
{
    struct rt_cmdlist *cl = (struct rt_cmdlist *)iface;
    ULONG n = atomic_fetch_sub(&cl->refs, 1) - 1;
    if (n)
        return n;
    struct rt_device *dev = cl->device;
    rt_private_clear(&cl->private_data);
    if (cl->drv_created) {
        rt_ddi_begin(dev);
        dev->funcs.pfnDestroyCommandList(dev->drv_device, cl->drv);
        (void)rt_ddi_end(dev);
    }
    for (UINT i = 0; i < cl->obj_count; i++)
        rt_local_obj_release(cl->objs[i].obj, cl->objs[i].type);
    free(cl->objs);
    rt_emu_free(&cl->emu);
    rt_query_ends_free(&cl->ends);
    free(cl->drv_mem);
    free(cl);
    RT_LIVE_ADD(dev, RT_LIVE_COMMANDLIST, -1);
    rt_device_release(dev);
    return 0;
}

static void STDMETHODCALLTYPE cl_GetDevice(ID3D11CommandList *iface, ID3D11Device **out)
{
    if (!out)
        return;
    struct rt_cmdlist *cl = (struct rt_cmdlist *)iface;
    rt_device_addref(cl->device);
    *out = &cl->device->iface;
}

static UINT STDMETHODCALLTYPE cl_GetContextFlags(ID3D11CommandList *iface)
{
    return ((struct rt_cmdlist *)iface)->flags;
}

RT_PRIVATE_DATA_METHODS(cl, ID3D11CommandList, &((struct rt_cmdlist *)This)->device->private_lock,
                        &((struct rt_cmdlist *)This)->private_data)

static const struct ID3D11CommandListVtbl cmdlist_vtbl = {
    RT_API_STUBS_ID3D11CommandList, /* every slot answers "not implemented" until named below */
    .QueryInterface = cl_QueryInterface,
    RT_PRIVATE_DATA_SLOTS(cl),
    .AddRef = cl_AddRef,
    .Release = cl_Release,
    .GetDevice = cl_GetDevice,
    .GetContextFlags = cl_GetContextFlags,
};

/* ---- FinishCommandList --------------------------------------------------------------------- */
HRESULT STDMETHODCALLTYPE rt_deferred_FinishCommandList(ID3D11DeviceContext *iface, BOOL restore,
                                                       ID3D11CommandList **out)
{
    struct rt_deferred *dc = rt_context_from_iface(iface)->dc;
    struct rt_device *dev = dc->device;
    if (out)
        *out = NULL;
    if (!out) {
        RT_REFUSE("FinishCommandList: ppCommandList is NULL");
        return E_INVALIDARG;
    }
    /* Anything still mapped is unmapped first (docs/semantics.md §4.5 rule 6). */
    for (UINT i = 0; i < dc->local_cap; i++)
        if (dc->locals[i].obj && dc->locals[i].mapped)
            rt_dc_unmap_entry(dc, &dc->locals[i]);
    if (dc->lost) {
        /* seed 004: the partial list was tossed out at the failure; Finish reports it. */
        rt_dc_reset(dc, NULL);
        RT_REFUSE("FinishCommandList: the context was removed locally after an out-of-memory error");
        return E_OUTOFMEMORY;
    }
    if (rt_device_is_removed(dev)) {
        rt_dc_reset(dc, NULL);
        return DXGI_ERROR_DEVICE_REMOVED;
    }
    struct rt_cmdlist *cl = wddm_calloc(1, sizeof *cl);
    struct rt_local *objs = wddm_calloc(dc->local_count ? dc->local_count : 1, sizeof *objs);
    if (!cl || !objs) {
        free(cl);
        free(objs);
        rt_dc_mark_lost(dc, E_OUTOFMEMORY, "FinishCommandList");
        rt_dc_reset(dc, NULL);
        return E_OUTOFMEMORY;
    }
    cl->iface.lpVtbl = &cmdlist_vtbl;
    atomic_init(&cl->refs, 1);
    cl->device = dev;
    cl->flags = dc->flags;
    cl->objs = objs;
    if (!dc->emulate) {
        D3D11DDIARG_CREATECOMMANDLIST args = { .hDeferredContext = dc->drv };
        rt_ddi_begin(dev); /* pfnCalcPrivate* exist only on the IC's table (docs/semantics.md §4.5 rule 3) */
        SIZE_T size = dev->funcs.pfnCalcPrivateCommandListSize(dev->drv_device, &args);
        (void)rt_ddi_end(dev);
        cl->drv_mem = wddm_calloc(1, size ? size : 1);
        if (!cl->drv_mem) {
            free(objs);
            free(cl);
            rt_dc_mark_lost(dc, E_OUTOFMEMORY, "FinishCommandList");
            rt_dc_reset(dc, NULL);
            return E_OUTOFMEMORY;
        }
        cl->drv.pDrvPrivate = cl->drv_mem;
        D3D11DDI_HRTCOMMANDLIST hrt = { cl };
        rt_dc_call_begin(dc);
        dc->funcs.pfnCreateCommandList(dc->drv, &args, cl->drv, hrt);
        if (!rt_dc_call_end(dc, "CreateCommandList")) {
            /* docs/semantics.md §4.5 rule 9: the handle is invalid; no DestroyCommandList. */
            free(cl->drv_mem);
            free(objs);
            free(cl);
            rt_dc_reset(dc, NULL);
            return E_OUTOFMEMORY;
        }
        cl->drv_created = TRUE;
    } else {
        cl->emu = dc->emu;
        memset(&dc->emu, 0, sizeof dc->emu);
    }
    cl->ends = dc->ends;
    memset(&dc->ends, 0, sizeof dc->ends);
    /* The list keeps every object it names alive; the DC's handles close (views first). */
    rt_dc_reset(dc, cl);
    rt_device_addref(dev);
    RT_LIVE_ADD(dev, RT_LIVE_COMMANDLIST, 1);
    *out = &cl->iface;
    return S_OK;
}

/* ---- ExecuteCommandList ---------------------------------------------------------------------- */
void STDMETHODCALLTYPE rt_context_ExecuteCommandList(ID3D11DeviceContext *iface, ID3D11CommandList *list_iface,
                                                     BOOL restore)
{
    struct rt_context *ctx = rt_context_from_iface(iface);
    struct rt_device *dev = ctx->device;
    struct rt_cmdlist *cl = cmdlist_from_iface(list_iface);
    if (!cl || cl->device != dev) {
        RT_REFUSE("ExecuteCommandList: pCommandList is NULL, not a command list, or of another device");
        return;
    }
    /* The model has no pipeline state (no Set* calls): CommandListExecute leaves the IC
     * cleared and RestoreContextState re-binds nothing; both give the same data results
     * (docs/semantics.md §4.5 rule 8). */
    (void)restore;
    struct rt_deferred *dc = ctx->dc;
    if (dc) {
        /* A deferred context records the execution (the list stays alive with this one). */
        if (dc->lost)
            return;
        struct rt_local *l = rt_local_find(dc, cl);
        if (!l && !(l = rt_local_insert(dc, cl, D3D11DDI_HT_COMMANDLIST))) {
            rt_dc_mark_lost(dc, E_OUTOFMEMORY, "ExecuteCommandList");
            return;
        }
        /* The nested list's event-query Ends become this recording's (issued after it runs). */
        if (!rt_query_ends_append(&dc->ends, &cl->ends)) {
            rt_dc_mark_lost(dc, E_OUTOFMEMORY, "ExecuteCommandList");
            return;
        }
        if (dc->emulate) {
            struct rt_emu_op *op = rt_emu_add(dc, EMU_EXECUTE);
            if (op)
                op->a = cl;
            return;
        }
        rt_dc_call_begin(dc);
        dc->funcs.pfnCommandListExecute(dc->drv, cl->drv);
        (void)rt_dc_call_end(dc, "CommandListExecute");
        return;
    }
    if (cl->drv_created) {
        static const HRESULT allowed[] = { E_OUTOFMEMORY };
        rt_ddi_begin(dev);
        if (rt_device_is_removed(dev)) {
            (void)rt_ddi_end(dev);
            return;
        }
        dev->funcs.pfnCommandListExecute(dev->drv_device, cl->drv);
        HRESULT err = rt_ddi_end(dev);
        (void)rt_ddi_error_to_api(dev, err, allowed, 1, "pfnCommandListExecute");
    } else {
        rt_emu_replay(dev, &cl->emu);
    }
    /* Event queries ended in the list: End on the IC after the whole list (docs/rules.md). */
    rt_query_ends_issue(iface, &cl->ends);
}
