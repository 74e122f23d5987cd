/*
 * deferred.c - deferred contexts, context-local handles and command lists in the runtime
 * (seed 004; wddm-semantics §4.5, §5.2).
 *
 * Two modes, chosen at device creation from the UMD's threading caps:
 *  - the UMD builds command lists (D3D11DDICAPS_COMMANDLISTS_BUILD_2): every deferred context
 *    (DC) has its own driver context (CreateDeferredContext) and context-local handles,
 *    created lazily on an object's first use in that DC (DC::pfnCreate* with a NULL or
 *    dependency-only description and the immediate-context driver handle where the runtime
 *    handle goes, seed 004); FinishCommandList = CreateCommandList; ExecuteCommandList =
 *    CommandListExecute on the immediate context (IC);
 *  - the UMD does not: the runtime records the API calls itself and replays them on the IC.
 *
 * Threading (D3D11 model): a DC is used by one thread at a time, so nothing in rt_deferred
 * is locked; DC DDI calls do not take the device lock (that is what lets two threads record at
 * once). The IC is entered (device lock, rt_ddi_begin) only for creating/destroying the DC's
 * driver context, CalcPrivateCommandListSize, and executing or destroying a list.
 *
 * Errors (seed 004 "Issues with pfnSetErrorCb"): the DC's pfnSetErrorCb lands in
 * rt_deferred.call_error; any error from a DC call removes the context locally: the partial
 * list is abandoned (pfnAbandonCommandList), later calls are accepted and dropped, and
 * FinishCommandList returns E_OUTOFMEMORY and starts a fresh recording.
 */
#include "runtime/runtime.h"
#include "runtime/api_stubs.h"
#include "common/alloc.h"

#include <stdlib.h>

/* ---- device creation: CheckDeferredContextHandleSizes double poll --------------------------- */
void rt_deferred_device_init(struct rt_device *dev)
{
    const D3D11DDI_DEVICEFUNCS *f = &dev->funcs;
    dev->drv_command_lists = (dev->threading_caps & (D3D11DDICAPS_COMMANDLISTS | D3D11DDICAPS_COMMANDLISTS_BUILD_2)) &&
                             f->pfnCheckDeferredContextHandleSizes && f->pfnCalcDeferredContextHandleSize &&
                             f->pfnCalcPrivateDeferredContextSize && f->pfnCreateDeferredContext &&
                             f->pfnCalcPrivateCommandListSize && dev->ctx_funcs.pfnCommandListExecute;
    if (!dev->drv_command_lists)
        return;
    /* seed 004 "Device Create": first poll = how many sizes, second = the sizes. */
    UINT n = 0;
    rt_ddi_begin(dev);
    f->pfnCheckDeferredContextHandleSizes(dev->drv_device, &n, NULL);
    if (n > RT_DC_MAX_SIZES) {
        RT_REFUSE("CheckDeferredContextHandleSizes: %u sizes; the runtime keeps the first %u", n, RT_DC_MAX_SIZES);
        n = RT_DC_MAX_SIZES;
    }
    UINT m = n;
    if (n)
        f->pfnCheckDeferredContextHandleSizes(dev->drv_device, &m, dev->dc_sizes);
    (void)rt_ddi_end(dev);
    dev->dc_size_count = m < n ? m : n;
}

SIZE_T rt_deferred_handle_size_locked(struct rt_device *dev, D3D11DDI_HANDLETYPE type, void *ic_object)
{
    if (!dev->drv_command_lists)
        return 0;
    SIZE_T s = dev->funcs.pfnCalcDeferredContextHandleSize(dev->drv_device, type, ic_object);
    for (UINT i = 0; i < dev->dc_size_count; i++)
        if (dev->dc_sizes[i].HandleType == type && dev->dc_sizes[i].DriverPrivateSize == s)
            return s;
    /* seed 004: "it is undefined for the driver to ever return a value from
     * CalcDeferredContextHandleSize that was not also correspondingly returned in the
     * CheckDeferredContextHandleSizes array". The runtime stays safe (the allocator serves
     * unlisted sizes from the heap) and says so. */
    atomic_fetch_add(&dev->dc_size_violations, 1);
    wddm_debug("verifier", "UMD bug: CalcDeferredContextHandleSize returned %zu bytes for handle type %u, a size "
               "CheckDeferredContextHandleSizes never listed (seed 004: undefined behaviour)", (size_t)s, (UINT)type);
    return s;
}

/* ---- objects ---------------------------------------------------------------------------------- */
/* One context-local handle (UMD mode) or one referenced object (both modes). */
struct rt_local {
    void *obj;                      /* rt_resource / rt_rtv / rt_cmdlist; NULL = free slot */
    UINT type;                      /* D3D11DDI_HANDLETYPE */
    void *mem;                      /* DC handle memory (UMD mode, resources and views) */
    INT size_class;                 /* index in dev->dc_sizes, -1 = heap */
    BOOL created;                   /* the DC's pfnCreate* succeeded: a pfnDestroy* is owed */
    BOOL discarded;                 /* a Map(WRITE_DISCARD) of it is in the list being recorded */
    BOOL mapped;
    UINT mapped_sub;
    BYTE *alias;                    /* emulation: the current discard alias (NO_OVERWRITE returns it) */
    UINT alias_row_pitch, alias_depth_pitch;
};

/* Free list + chunk per size class: the per-size handle allocator (seed 004 "the Direct3D API
 * must tune its CLS memory allocator"). Per DC, so two recording threads never share it. */
struct rt_free_block { struct rt_free_block *next; };
#define RT_ARENA_CHUNK 16384u
struct rt_arena_chunk { struct rt_arena_chunk *next; SIZE_T used, size; _Alignas(64) BYTE data[]; };

enum rt_emu_type {
    EMU_COPY = 1, EMU_COPY_REGION, EMU_UPDATE, EMU_CLEAR_RTV, EMU_DISCARD, EMU_EXECUTE, EMU_CLEAR_UAV,
    EMU_DISCARD_API, /* DiscardResource / DiscardView(1): data holds the rectangles */
};
struct rt_emu_op {
    UINT type;
    void *a, *b;                    /* rt objects (references held by the list's object table) */
    UINT dst_sub, src_sub, x, y, z, has_box;
    D3D11_BOX box;
    FLOAT color[4];
    UINT values[4];                 /* CLEAR_UAV */
    BYTE *data;                     /* UPDATE source copy / DISCARD alias (owned by the op) */
    UINT row_pitch, depth_pitch, row_bytes, rows, depth;
    UINT copy_flags;                /* COPY_REGION, UPDATE: D3D11_COPY_FLAGS */
    D3D11DDI_HANDLETYPE handle_type; /* DISCARD_API: what a is; rows holds the rectangle count */
};

struct rt_emu_list {
    struct rt_emu_op *ops;
    UINT count, cap;
};

struct rt_deferred {
    struct rt_context ctx;          /* first: the COM pointer; ctx.dc points back here */
    struct rt_device *device;
    UINT flags;                     /* ContextFlags */
    BOOL emulate;                   /* !device->drv_command_lists */

    /* UMD mode: the driver's deferred context */
    void *drv_mem;
    D3D10DDI_HDEVICE drv;
    BOOL drv_created;
    D3D11DDI_DEVICEFUNCS funcs;
    D3D11DDI_DEVICECONTEXTFUNCS ctx_funcs;
    D3D11_1DDI_DEVICECONTEXTFUNCS ctx_funcs1; /* as the device's: the UMD's 11.1 table (ddi11_1.c) */
    D3D11DDI_CORELAYER_DEVICECALLBACKS core_callbacks;
    HRESULT call_error;             /* this context's pfnSetErrorCb slot (first error wins) */

    BOOL lost;                      /* removed locally (seed 004): calls dropped until Finish */
    struct rt_local *locals;        /* open-addressing table keyed by obj */
    UINT local_cap, local_count;
    struct rt_free_block *free_lists[RT_DC_MAX_SIZES];
    struct rt_arena_chunk *chunks;
    struct rt_emu_list emu;         /* emulation mode: the list being recorded */
    void **scratch;                 /* Map buffers handed out while lost */
    UINT scratch_count;
    struct rt_query_ends ends;      /* event-query Ends recorded (issue 4, query.c) */
};

/* A finished list: immutable after FinishCommandList (any thread may execute it, the IC's
 * device lock serialises executions); only refs changes, atomically. */
struct rt_cmdlist {
    ID3D11CommandList iface;        /* first */
    atomic_uint refs;
    struct rt_device *device;       /* holds one device reference */
    struct rt_private_data private_data;
    UINT flags;
    void *drv_mem;                  /* UMD mode: CalcPrivateCommandListSize bytes */
    D3D11DDI_HCOMMANDLIST drv;
    BOOL drv_created;
    struct rt_local *objs;          /* objects the list references (one API reference each) */
    UINT obj_count;
    struct rt_emu_list emu;         /* emulation mode */
    struct rt_query_ends ends;      /* event-query Ends, issued after the list runs (query.c) */
};

static const struct ID3D11CommandListVtbl cmdlist_vtbl;
static struct rt_cmdlist *cmdlist_from_iface(ID3D11CommandList *iface)
{
    return iface && iface->lpVtbl == &cmdlist_vtbl ? (struct rt_cmdlist *)iface : NULL;
}

static void obj_addref(void *obj, UINT type)
{
    if (type == D3D10DDI_HT_RESOURCE)
        rt_resource_addref(obj);
    else if (type == D3D10DDI_HT_RENDERTARGETVIEW)
        ID3D11RenderTargetView_AddRef(&((struct rt_rtv *)obj)->iface);
    else if (type == D3D11DDI_HT_UNORDEREDACCESSVIEW || type == D3D10DDI_HT_SHADERRESOURCEVIEW)
        atomic_fetch_add(&((struct rt_sview *)obj)->refs, 1);
    else
        ID3D11CommandList_AddRef(&((struct rt_cmdlist *)obj)->iface);
}

static void obj_release(void *obj, UINT type)
{
    if (type == D3D10DDI_HT_RESOURCE)
        rt_resource_release(obj);
    else if (type == D3D10DDI_HT_RENDERTARGETVIEW)
        ID3D11RenderTargetView_Release(&((struct rt_rtv *)obj)->iface);
    else if (type == D3D11DDI_HT_UNORDEREDACCESSVIEW)
        ID3D11UnorderedAccessView_Release((ID3D11UnorderedAccessView *)obj);
    else if (type == D3D10DDI_HT_SHADERRESOURCEVIEW)
        ID3D11ShaderResourceView_Release((ID3D11ShaderResourceView *)obj);
    else
        ID3D11CommandList_Release(&((struct rt_cmdlist *)obj)->iface);
}

/* ---- per-size handle allocator --------------------------------------------------------------- */
static INT size_class_of(const struct rt_device *dev, UINT type, SIZE_T size)
{
    for (UINT i = 0; i < dev->dc_size_count; i++)
        if (dev->dc_sizes[i].HandleType == (D3D11DDI_HANDLETYPE)type && dev->dc_sizes[i].DriverPrivateSize == size)
            return (INT)i;
    return -1;
}

static void *handle_alloc(struct rt_deferred *dc, INT cls, SIZE_T size)
{
    if (cls < 0)
        return wddm_calloc(1, size ? size : 1); /* unlisted size (verifier reported it) */
    struct rt_free_block *b = dc->free_lists[cls];
    if (b) {
        dc->free_lists[cls] = b->next;
        memset(b, 0, size);
        return b;
    }
    SIZE_T need = (size + 15) & ~(SIZE_T)15;
    if (need < sizeof(struct rt_free_block))
        need = sizeof(struct rt_free_block);
    struct rt_arena_chunk *c = dc->chunks;
    if (!c || c->used + need > c->size) {
        SIZE_T sz = need > RT_ARENA_CHUNK ? need : RT_ARENA_CHUNK;
        c = wddm_aligned_alloc(64, (sizeof *c + sz + 63) & ~(SIZE_T)63);
        if (!c)
            return NULL;
        c->used = 0;
        c->size = sz;
        c->next = dc->chunks;
        dc->chunks = c;
    }
    void *p = c->data + c->used;
    c->used += need;
    memset(p, 0, size);
    return p;
}

static void handle_free(struct rt_deferred *dc, INT cls, void *p)
{
    if (!p)
        return;
    if (cls < 0) {
        free(p);
        return;
    }
    struct rt_free_block *b = p;
    b->next = dc->free_lists[cls];
    dc->free_lists[cls] = b;
}

/* ---- local table --------------------------------------------------------------------------- */
static UINT hash_ptr(const void *p, UINT cap)
{
    uintptr_t v = (uintptr_t)p;
    v ^= v >> 17;
    v *= 0x9E3779B97F4A7C15ull;
    return (UINT)(v >> 32) & (cap - 1);
}

static struct rt_local *local_find(struct rt_deferred *dc, const void *obj)
{
    if (!dc->local_cap)
        return NULL;
    for (UINT i = hash_ptr(obj, dc->local_cap);; i = (i + 1) & (dc->local_cap - 1)) {
        if (dc->locals[i].obj == obj)
            return &dc->locals[i];
        if (!dc->locals[i].obj)
            return NULL;
    }
}

static BOOL local_grow(struct rt_deferred *dc)
{
    UINT cap = dc->local_cap ? dc->local_cap * 2 : 64;
    struct rt_local *n = wddm_calloc(cap, sizeof *n);
    if (!n)
        return FALSE;
    for (UINT i = 0; i < dc->local_cap; i++) {
        if (!dc->locals[i].obj)
            continue;
        UINT j = hash_ptr(dc->locals[i].obj, cap);
        while (n[j].obj)
            j = (j + 1) & (cap - 1);
        n[j] = dc->locals[i];
    }
    free(dc->locals);
    dc->locals = n;
    dc->local_cap = cap;
    return TRUE;
}

/* A new entry holding one reference on obj. NULL on out of memory. */
static struct rt_local *local_insert(struct rt_deferred *dc, void *obj, UINT type)
{
    if ((dc->local_count + 1) * 2 > dc->local_cap && !local_grow(dc))
        return NULL;
    UINT i = hash_ptr(obj, dc->local_cap);
    while (dc->locals[i].obj)
        i = (i + 1) & (dc->local_cap - 1);
    struct rt_local *l = &dc->locals[i];
    memset(l, 0, sizeof *l);
    l->obj = obj;
    l->type = type;
    l->size_class = -1;
    dc->local_count++;
    obj_addref(obj, type);
    return l;
}

/* ---- local removal and handle closing ------------------------------------------------------ */
static void dc_mark_lost(struct rt_deferred *dc, HRESULT why, const char *what)
{
    if (dc->lost)
        return;
    dc->lost = TRUE;
    RT_REFUSE("%s on a deferred context failed (0x%08x): context removed locally, the partial command list is "
              "dropped and FinishCommandList will return E_OUTOFMEMORY (seed 004)", what, (UINT)why);
    if (!dc->emulate && dc->drv_created && dc->funcs.pfnAbandonCommandList)
        dc->funcs.pfnAbandonCommandList(dc->drv);
}

/* Begin/end of a DC DDI call: the DC's error slot. */
static inline void dc_call_begin(struct rt_deferred *dc) { dc->call_error = S_OK; }
static inline BOOL dc_call_end(struct rt_deferred *dc, const char *what)
{
    HRESULT hr = dc->call_error;
    dc->call_error = S_OK;
    if (hr == S_OK)
        return TRUE;
    if (hr == D3DDDIERR_DEVICEREMOVED)
        rt_device_set_removed(dc->device, DXGI_ERROR_DEVICE_REMOVED);
    dc_mark_lost(dc, hr, what);
    return FALSE;
}

static VOID APIENTRY dc_SetErrorCb(D3D10DDI_HRTCORELAYER h, HRESULT hr)
{
    struct rt_deferred *dc = h.handle;
    /* Called from inside this DC's DDI call, on its thread (seed 004: errors go to the
     * context that made the call). */
    if (dc && dc->call_error == S_OK)
        dc->call_error = hr;
}

static void emu_free(struct rt_emu_list *l)
{
    for (UINT i = 0; i < l->count; i++)
        free(l->ops[i].data);
    free(l->ops);
    memset(l, 0, sizeof *l);
}

/* Close every context-local handle: views before their resources (seed 004 ordering), then
 * drop the references (the IC handle outlives them: it is destroyed last). If `keep` is not
 * NULL the references move to it instead of being dropped. */
static void dc_close_handles(struct rt_deferred *dc, struct rt_cmdlist *keep)
{
    for (int pass = 0; pass < 2; pass++) {
        for (UINT i = 0; i < dc->local_cap; i++) {
            struct rt_local *l = &dc->locals[i];
            if (!l->obj || !l->created)
                continue;
            BOOL view = l->type == D3D10DDI_HT_RENDERTARGETVIEW || l->type == D3D11DDI_HT_UNORDEREDACCESSVIEW ||
                        l->type == D3D10DDI_HT_SHADERRESOURCEVIEW;
            if ((pass == 0) != view)
                continue;
            if (l->type == D3D10DDI_HT_RENDERTARGETVIEW) {
                D3D10DDI_HRENDERTARGETVIEW h = { l->mem };
                dc->funcs.pfnDestroyRenderTargetView(dc->drv, h);
            } else if (l->type == D3D11DDI_HT_UNORDEREDACCESSVIEW) {
                D3D11DDI_HUNORDEREDACCESSVIEW h = { l->mem };
                dc->funcs.pfnDestroyUnorderedAccessView(dc->drv, h);
            } else if (l->type == D3D10DDI_HT_SHADERRESOURCEVIEW) {
                D3D10DDI_HSHADERRESOURCEVIEW h = { l->mem };
                dc->funcs.pfnDestroyShaderResourceView(dc->drv, h);
            } else if (l->type == D3D10DDI_HT_RESOURCE) {
                D3D10DDI_HRESOURCE h = { l->mem };
                dc->funcs.pfnDestroyResource(dc->drv, h);
            }
            l->created = FALSE;
        }
    }
    UINT n = 0;
    for (UINT i = 0; i < dc->local_cap; i++) {
        struct rt_local *l = &dc->locals[i];
        if (!l->obj)
            continue;
        handle_free(dc, l->size_class, l->mem);
        l->mem = NULL;
        if (keep) {
            keep->objs[n++] = *l;
        } else {
            obj_release(l->obj, l->type);
        }
        l->obj = NULL;
    }
    if (keep)
        keep->obj_count = n;
    dc->local_count = 0;
    for (UINT i = 0; i < dc->scratch_count; i++)
        free(dc->scratch[i]);
    free(dc->scratch);
    dc->scratch = NULL;
    dc->scratch_count = 0;
}

/* ---- driver context lifetime ------------------------------------------------------------ */
static HRESULT dc_driver_create(struct rt_deferred *dc)
{
    struct rt_device *dev = dc->device;
    D3D11DDIARG_CALCPRIVATEDEFERREDCONTEXTSIZE cs = { .Flags = dc->flags };
    D3D11DDIARG_CREATEDEFERREDCONTEXT a = { 0 };
    rt_ddi_begin(dev);
    if (!dc->drv_mem) {
        SIZE_T size = dev->funcs.pfnCalcPrivateDeferredContextSize(dev->drv_device, &cs);
        dc->drv_mem = wddm_calloc(1, size ? size : 1);
        if (!dc->drv_mem) {
            (void)rt_ddi_end(dev);
            return E_OUTOFMEMORY;
        }
    }
    dc->drv.pDrvPrivate = dc->drv_mem;
    a.p11ContextFuncs = &dc->funcs;
    if (rt_device_ctx_funcs1(dev))
        a.p11_1DeviceContextFuncs = &dc->ctx_funcs1;
    else
        a.p11DeviceContextFuncs = &dc->ctx_funcs;
    a.hDrvContext = dc->drv;
    a.hRTCoreLayer.handle = dc;
    a.p11UMCallbacks = &dc->core_callbacks;
    a.Flags = dc->flags;
    dev->funcs.pfnCreateDeferredContext(dev->drv_device, &a);
    HRESULT err = rt_ddi_end(dev);
    if (err != S_OK) {
        static const HRESULT allowed[] = { E_OUTOFMEMORY };
        return rt_ddi_error_to_api(dev, err, allowed, 1, "pfnCreateDeferredContext");
    }
    if (rt_device_ctx_funcs1(dev))
        rt_ddi11_1_adopt(&dc->ctx_funcs, &dc->ctx_funcs1);
    dc->drv_created = TRUE;
    return S_OK;
}

static void dc_driver_destroy(struct rt_deferred *dc)
{
    if (dc->drv_created && dc->funcs.pfnDestroyDevice)
        dc->funcs.pfnDestroyDevice(dc->drv);
    dc->drv_created = FALSE;
}

/* Start a fresh recording after Finish (wddm-semantics §4.5 rule 7: close the DC's handles,
 * destroy the DC and create it again). */
static void dc_reset(struct rt_deferred *dc, struct rt_cmdlist *keep)
{
    dc_close_handles(dc, keep);
    emu_free(&dc->emu);
    rt_query_ends_free(&dc->ends); /* moved to `keep` on success; dropped with a failed list */
    if (!dc->emulate) {
        dc_driver_destroy(dc);
        if (FAILED(dc_driver_create(dc)))
            dc->lost = TRUE; /* the next Finish reports it */
        else
            dc->lost = FALSE;
    } else {
        dc->lost = FALSE;
    }
}

/* ---- lazy creation of context-local handles (seed 004) --------------------------------------- */
static struct rt_local *dc_use_resource(struct rt_deferred *dc, struct rt_resource *res)
{
    struct rt_local *l = local_find(dc, res);
    if (l)
        return l;
    l = local_insert(dc, res, D3D10DDI_HT_RESOURCE);
    if (!l) {
        dc_mark_lost(dc, E_OUTOFMEMORY, "context-local handle table");
        return NULL;
    }
    if (dc->emulate)
        return l;
    l->size_class = size_class_of(dc->device, D3D10DDI_HT_RESOURCE, res->dc_handle_size);
    l->mem = handle_alloc(dc, l->size_class, res->dc_handle_size);
    if (!l->mem) {
        dc_mark_lost(dc, E_OUTOFMEMORY, "context-local handle memory");
        return NULL;
    }
    /* seed 004 "Deferred Context Resource Usage": DC::pfnCreateResource(hDC, NULL, pDCRHandle, pICRHandle). */
    D3D10DDI_HRESOURCE h = { l->mem };
    D3D10DDI_HRTRESOURCE ic = { res->drv.pDrvPrivate };
    dc_call_begin(dc);
    dc->funcs.pfnCreateResource(dc->drv, NULL, h, ic);
    if (!dc_call_end(dc, "CreateResource (context-local handle)"))
        return NULL; /* dead handle: no destroy follows (wddm-semantics §4.2) */
    l->created = TRUE;
    return l;
}

static struct rt_local *dc_use_rtv(struct rt_deferred *dc, struct rt_rtv *rtv)
{
    struct rt_local *l = local_find(dc, rtv);
    if (l)
        return l;
    /* The dependency first: the resource's context-local handle exists before the view's. */
    struct rt_local *rl = dc_use_resource(dc, rtv->resource);
    if (!rl)
        return NULL;
    void *res_mem = rl->mem;
    l = local_insert(dc, rtv, D3D10DDI_HT_RENDERTARGETVIEW);
    if (!l) {
        dc_mark_lost(dc, E_OUTOFMEMORY, "context-local handle table");
        return NULL;
    }
    if (dc->emulate)
        return l;
    l->size_class = size_class_of(dc->device, D3D10DDI_HT_RENDERTARGETVIEW, rtv->dc_handle_size);
    l->mem = handle_alloc(dc, l->size_class, rtv->dc_handle_size);
    if (!l->mem) {
        dc_mark_lost(dc, E_OUTOFMEMORY, "context-local handle memory");
        return NULL;
    }
    /* Dependency-only description: hDrvResource is the context-local resource handle, the rest zero. */
    D3D10DDIARG_CREATERENDERTARGETVIEW args;
    memset(&args, 0, sizeof args);
    args.hDrvResource.pDrvPrivate = res_mem;
    D3D10DDI_HRENDERTARGETVIEW h = { l->mem };
    D3D10DDI_HRTRENDERTARGETVIEW ic = { rtv->drv.pDrvPrivate };
    dc_call_begin(dc);
    dc->funcs.pfnCreateRenderTargetView(dc->drv, &args, h, ic);
    if (!dc_call_end(dc, "CreateRenderTargetView (context-local handle)"))
        return NULL;
    l->created = TRUE;
    return l;
}

/* A shader-resource or unordered-access view's context-local handle. */
static struct rt_local *dc_use_sview(struct rt_deferred *dc, struct rt_sview *v)
{
    struct rt_local *l = local_find(dc, v);
    if (l)
        return l;
    struct rt_local *rl = dc_use_resource(dc, v->resource); /* dependency first (seed 004) */
    if (!rl)
        return NULL;
    void *res_mem = rl->mem;
    D3D11DDI_HANDLETYPE type = v->is_uav ? D3D11DDI_HT_UNORDEREDACCESSVIEW : D3D10DDI_HT_SHADERRESOURCEVIEW;
    l = local_insert(dc, v, type);
    if (!l) {
        dc_mark_lost(dc, E_OUTOFMEMORY, "context-local handle table");
        return NULL;
    }
    if (dc->emulate)
        return l;
    l->size_class = size_class_of(dc->device, type, v->dc_handle_size);
    l->mem = handle_alloc(dc, l->size_class, v->dc_handle_size);
    if (!l->mem) {
        dc_mark_lost(dc, E_OUTOFMEMORY, "context-local handle memory");
        return NULL;
    }
    dc_call_begin(dc); /* dependency-only descriptions: hDrvResource, the rest zero */
    if (v->is_uav) {
        D3D11DDIARG_CREATEUNORDEREDACCESSVIEW args;
        memset(&args, 0, sizeof args);
        args.hDrvResource.pDrvPrivate = res_mem;
        D3D11DDI_HUNORDEREDACCESSVIEW h = { l->mem };
        D3D11DDI_HRTUNORDEREDACCESSVIEW ic = { v->drv };
        dc->funcs.pfnCreateUnorderedAccessView(dc->drv, &args, h, ic);
    } else {
        D3D11DDIARG_CREATESHADERRESOURCEVIEW args;
        memset(&args, 0, sizeof args);
        args.hDrvResource.pDrvPrivate = res_mem;
        D3D10DDI_HSHADERRESOURCEVIEW h = { l->mem };
        D3D10DDI_HRTSHADERRESOURCEVIEW ic = { v->drv };
        dc->funcs.pfnCreateShaderResourceView(dc->drv, &args, h, ic);
    }
    if (!dc_call_end(dc, v->is_uav ? "CreateUnorderedAccessView (context-local handle)"
                                   : "CreateShaderResourceView (context-local handle)"))
        return NULL;
    l->created = TRUE;
    return l;
}

/* The deferred context's 11.1 table, NULL below 11.1 (ddi11_1.c). */
static const D3D11_1DDI_DEVICECONTEXTFUNCS *dc_ctx_funcs1(const struct rt_deferred *dc)
{
    return rt_device_ctx_funcs1(dc->device) ? &dc->ctx_funcs1 : NULL;
}

/* ---- emulation recording --------------------------------------------------------------------- */
static struct rt_emu_op *emu_add(struct rt_deferred *dc, UINT type)
{
    struct rt_emu_list *e = &dc->emu;
    if (e->count == e->cap) {
        UINT cap = e->cap ? e->cap * 2 : 64;
        struct rt_emu_op *n = wddm_realloc(e->ops, cap * sizeof *n);
        if (!n) {
            dc_mark_lost(dc, E_OUTOFMEMORY, "command list recording");
            return NULL;
        }
        e->ops = n;
        e->cap = cap;
    }
    struct rt_emu_op *op = &e->ops[e->count++];
    memset(op, 0, sizeof *op);
    op->type = type;
    return op;
}

/* Tight layout of one subresource as the runtime lays out its own copies. */
static void tight_layout(const struct rt_resource *res, UINT sub, const D3D11_BOX *box, UINT *row_bytes, UINT *rows,
                         UINT *depth)
{
    UINT w, h, d;
    rt_subresource_dims(res, sub, &w, &h, &d);
    if (box) {
        w = box->right - box->left;
        h = box->bottom - box->top;
        d = box->back - box->front;
    }
    if (res->dimension == D3D11_RESOURCE_DIMENSION_BUFFER) {
        *row_bytes = w;
        *rows = 1;
        *depth = 1;
    } else {
        *row_bytes = wddm_format_row_bytes(res->format, w);
        *rows = wddm_format_rows(res->format, h);
        *depth = d;
    }
}

/* ---- recording entry points (copy.c calls these after its API checks) ------------------------- */
void rt_dc_copy_resource(struct rt_deferred *dc, struct rt_resource *dst, struct rt_resource *src)
{
    if (dc->lost)
        return;
    struct rt_local *d = dc_use_resource(dc, dst), *s = d ? dc_use_resource(dc, src) : NULL;
    if (!d || !s)
        return;
    if (dc->emulate) {
        struct rt_emu_op *op = emu_add(dc, EMU_COPY);
        if (op) {
            op->a = dst;
            op->b = src;
        }
        return;
    }
    D3D10DDI_HRESOURCE hd = { d->mem }, hs = { s->mem };
    dc_call_begin(dc);
    dc->ctx_funcs.pfnResourceCopy(dc->drv, hd, hs);
    (void)dc_call_end(dc, "ResourceCopy");
}

void rt_dc_copy_region(struct rt_deferred *dc, struct rt_resource *dst, UINT dst_sub, UINT x, UINT y, UINT z,
                       struct rt_resource *src, UINT src_sub, const D3D11_BOX *box, UINT flags)
{
    if (dc->lost)
        return;
    struct rt_local *d = dc_use_resource(dc, dst), *s = d ? dc_use_resource(dc, src) : NULL;
    if (!d || !s)
        return;
    if (dc->emulate) {
        struct rt_emu_op *op = emu_add(dc, EMU_COPY_REGION);
        if (op) {
            op->a = dst;
            op->b = src;
            op->dst_sub = dst_sub;
            op->src_sub = src_sub;
            op->copy_flags = flags;
            op->x = x;
            op->y = y;
            op->z = z;
            if (box) {
                op->has_box = 1;
                op->box = *box;
            }
        }
        return;
    }
    D3D10DDI_HRESOURCE hd = { d->mem }, hs = { s->mem };
    D3D10_DDI_BOX db;
    if (box) {
        db = (D3D10_DDI_BOX){ (INT)box->left, (INT)box->top, (INT)box->front, (INT)box->right, (INT)box->bottom,
                              (INT)box->back };
    }
    dc_call_begin(dc);
    rt_ddi_copy_region(&dc->ctx_funcs, dc_ctx_funcs1(dc), dc->drv, hd, dst_sub, x, y, z, hs, src_sub, box ? &db : NULL,
                       flags);
    (void)dc_call_end(dc, "ResourceCopyRegion");
}

void rt_dc_update(struct rt_deferred *dc, struct rt_resource *dst, UINT dst_sub, const D3D11_BOX *box,
                  const void *data, UINT row_pitch, UINT depth_pitch, UINT flags)
{
    if (dc->lost)
        return;
    struct rt_local *d = dc_use_resource(dc, dst);
    if (!d)
        return;
    if (dc->emulate) {
        UINT rb, rows, depth;
        tight_layout(dst, dst_sub, box, &rb, &rows, &depth);
        UINT64 bytes = (UINT64)rb * rows * depth;
        struct rt_emu_op *op = emu_add(dc, EMU_UPDATE);
        if (!op)
            return;
        op->data = bytes ? wddm_malloc(bytes) : NULL;
        if (bytes && !op->data) {
            dc->emu.count--;
            dc_mark_lost(dc, E_OUTOFMEMORY, "UpdateSubresource");
            return;
        }
        /* Copy the caller's bytes now (it may reuse its memory), repacked tight. */
        for (UINT zz = 0; zz < depth; zz++)
            for (UINT yy = 0; yy < rows; yy++)
                memcpy(op->data + ((UINT64)zz * rows + yy) * rb,
                       (const BYTE *)data + (SIZE_T)zz * depth_pitch + (SIZE_T)yy * row_pitch, rb);
        op->a = dst;
        op->dst_sub = dst_sub;
        if (box) {
            op->has_box = 1;
            op->box = *box;
        }
        op->row_pitch = rb;
        op->depth_pitch = rb * rows;
        op->copy_flags = flags;
        return;
    }
    D3D10DDI_HRESOURCE hd = { d->mem };
    D3D10_DDI_BOX db;
    if (box) {
        db = (D3D10_DDI_BOX){ (INT)box->left, (INT)box->top, (INT)box->front, (INT)box->right, (INT)box->bottom,
                              (INT)box->back };
    }
    dc_call_begin(dc);
    rt_ddi_update(&dc->ctx_funcs, dc_ctx_funcs1(dc), (dst->bind_flags & D3D11_BIND_CONSTANT_BUFFER) != 0, dc->drv, hd,
                  dst_sub, box ? &db : NULL, data, row_pitch, depth_pitch, flags);
    (void)dc_call_end(dc, "ResourceUpdateSubresourceUP");
}

void rt_dc_clear_rtv(struct rt_deferred *dc, struct rt_rtv *rtv, const FLOAT color[4])
{
    if (dc->lost)
        return;
    struct rt_local *v = dc_use_rtv(dc, rtv);
    if (!v)
        return;
    if (dc->emulate) {
        struct rt_emu_op *op = emu_add(dc, EMU_CLEAR_RTV);
        if (op) {
            op->a = rtv;
            memcpy(op->color, color, sizeof op->color);
        }
        return;
    }
    FLOAT c[4] = { color[0], color[1], color[2], color[3] };
    D3D10DDI_HRENDERTARGETVIEW h = { v->mem };
    dc_call_begin(dc);
    dc->ctx_funcs.pfnClearRenderTargetView(dc->drv, h, c);
    (void)dc_call_end(dc, "ClearRenderTargetView");
}

void rt_dc_clear_uav(struct rt_deferred *dc, struct rt_sview *uav, const UINT values[4])
{
    if (dc->lost)
        return;
    struct rt_local *v = dc_use_sview(dc, uav);
    if (!v)
        return;
    if (dc->emulate) {
        struct rt_emu_op *op = emu_add(dc, EMU_CLEAR_UAV);
        if (op) {
            op->a = uav;
            memcpy(op->values, values, sizeof op->values);
        }
        return;
    }
    UINT vals[4] = { values[0], values[1], values[2], values[3] };
    D3D11DDI_HUNORDEREDACCESSVIEW h = { v->mem };
    dc_call_begin(dc);
    dc->ctx_funcs.pfnClearUnorderedAccessViewUint(dc->drv, h, vals);
    (void)dc_call_end(dc, "ClearUnorderedAccessViewUint");
}

/* A discard the API accepted (context1.c), recorded: replayed through the immediate context when
 * the runtime emulates the list, else handed to the driver's deferred context with the object's
 * context-local handle. Only an 11.1 driver is given one (context1.c ends it otherwise). */
void rt_dc_discard(struct rt_deferred *dc, const struct rt_discard *d)
{
    if (dc->lost || (!dc->emulate && !dc_ctx_funcs1(dc)))
        return;
    struct rt_local *l;
    if (d->type == D3D10DDI_HT_RESOURCE)
        l = dc_use_resource(dc, d->object);
    else if (d->type == D3D10DDI_HT_RENDERTARGETVIEW)
        l = dc_use_rtv(dc, d->object);
    else
        l = dc_use_sview(dc, d->object);
    if (!l)
        return;
    if (dc->emulate) {
        struct rt_emu_op *op = emu_add(dc, EMU_DISCARD_API);
        if (!op)
            return;
        SIZE_T bytes = (SIZE_T)d->rect_count * sizeof(D3D11_RECT);
        op->data = bytes ? wddm_malloc(bytes) : NULL;
        if (bytes && !op->data) {
            dc->emu.count--;
            dc_mark_lost(dc, E_OUTOFMEMORY, "DiscardView1");
            return;
        }
        if (bytes)
            memcpy(op->data, d->rects, bytes);
        op->a = d->object;
        op->handle_type = d->type;
        op->rows = d->rect_count;
        return;
    }
    const D3D11_1DDI_DEVICECONTEXTFUNCS *f1 = dc_ctx_funcs1(dc);
    if (!f1->pfnDiscard)
        return;
    dc_call_begin(dc);
    f1->pfnDiscard(dc->drv, d->type, l->mem, (const D3D10_DDI_RECT *)d->rects, d->rect_count);
    (void)dc_call_end(dc, "Discard");
}

/* ---- Map / Unmap on a deferred context (wddm-semantics §5.2 "Deferred context") ---------------- */
/* The deferred Map's rules, in the order Windows checks them. */
static HRESULT deferred_map_check(struct rt_deferred *dc, const struct rt_resource *res, UINT sub, D3D11_MAP type,
                                  UINT flags, const D3D11_MAPPED_SUBRESOURCE *mapped)
{
    if (!res || res->device != dc->device) {
        RT_REFUSE("Map (deferred): pResource is NULL, not a resource, or of another device");
        return E_INVALIDARG;
    }
    if (res->usage != D3D11_USAGE_DYNAMIC || !(res->cpu_access & D3D11_CPU_ACCESS_WRITE)) {
        RT_REFUSE("Map (deferred): only USAGE_DYNAMIC resources with CPU_ACCESS_WRITE (wddm-semantics 5.2)");
        return E_INVALIDARG;
    }
    if (type != D3D11_MAP_WRITE_DISCARD && type != D3D11_MAP_WRITE_NO_OVERWRITE) {
        /* Wine d3d11 tests (run on Windows), test_deferred_context_map: READ, READ_WRITE and
         * WRITE answer E_INVALIDARG on a deferred context, first map or not. */
        RT_REFUSE("Map (deferred): map type %u; a deferred context accepts only WRITE_DISCARD and WRITE_NO_OVERWRITE",
                  (UINT)type);
        return E_INVALIDARG;
    }
    if (flags) {
        RT_REFUSE("Map (deferred): MapFlags 0x%x (DO_NOT_WAIT cannot be combined with DISCARD/NO_OVERWRITE)", flags);
        return E_INVALIDARG;
    }
    if (sub >= res->subresource_count || !mapped) {
        RT_REFUSE("Map (deferred): Subresource %u out of range or pMappedResource NULL", sub);
        return E_INVALIDARG;
    }
    /* The immediate context's rule first (map.c). */
    if (type == D3D11_MAP_WRITE_NO_OVERWRITE && !rt_map_no_overwrite_allowed(dc->device, res, "Map (deferred)"))
        return E_INVALIDARG;
    struct rt_local *known = local_find(dc, res);
    if (type == D3D11_MAP_WRITE_NO_OVERWRITE && (!known || !known->discarded)) {
        /* D3D11 return codes: "The first call to ID3D11DeviceContext::Map after either
         * ID3D11Device::CreateDeferredContext or ID3D11DeviceContext::FinishCommandList per
         * Resource was not D3D11_MAP_WRITE_DISCARD" (Wine test_deferred_context_map). */
        RT_REFUSE("Map (deferred): the first map of a resource in a command list must be WRITE_DISCARD "
                  "(D3D11_ERROR_DEFERRED_CONTEXT_MAP_WITHOUT_INITIAL_DISCARD)");
        return D3D11_ERROR_DEFERRED_CONTEXT_MAP_WITHOUT_INITIAL_DISCARD;
    }
    if (known && known->mapped) {
        RT_REFUSE("Map (deferred): subresource %u is already mapped in this context", known->mapped_sub);
        return E_INVALIDARG;
    }
    return S_OK;
}

/* On a context removed locally the call is accepted (the application keeps recording); it
 * writes to scratch memory that no list will ever read. */
static HRESULT deferred_map_scratch(struct rt_deferred *dc, UINT rb, UINT rows, UINT depth,
                                    D3D11_MAPPED_SUBRESOURCE *mapped)
{
    void **n = wddm_realloc(dc->scratch, (dc->scratch_count + 1) * sizeof *n);
    void *p = wddm_calloc(1, (SIZE_T)rb * rows * depth + 1);
    if (!n || !p) {
        free(p);
        if (n)
            dc->scratch = n;
        return E_OUTOFMEMORY;
    }
    dc->scratch = n;
    dc->scratch[dc->scratch_count++] = p;
    mapped->pData = p;
    mapped->RowPitch = rb;
    mapped->DepthPitch = rb * rows;
    return S_OK;
}

/* The runtime's emulated list: a DISCARD records fresh memory the replay copies in; a
 * NO_OVERWRITE hands out the same memory again. False: the context was lost meanwhile. */
static bool deferred_map_emulated(struct rt_deferred *dc, struct rt_local *l, struct rt_resource *res, UINT sub,
                                  D3D11_MAP type, UINT rb, UINT rows, UINT depth, D3D11_MAPPED_SUBRESOURCE *mapped)
{
    if (type == D3D11_MAP_WRITE_DISCARD) {
        struct rt_emu_op *op = emu_add(dc, EMU_DISCARD);
        if (!op)
            return false;
        op->data = wddm_calloc(1, (SIZE_T)rb * rows * depth + 1);
        if (!op->data) {
            dc->emu.count--;
            dc_mark_lost(dc, E_OUTOFMEMORY, "Map(WRITE_DISCARD)");
            return false;
        }
        op->a = res;
        op->dst_sub = sub;
        op->row_bytes = rb;
        op->rows = rows;
        op->depth = depth;
        op->row_pitch = rb;
        op->depth_pitch = rb * rows;
        l->alias = op->data;
        l->alias_row_pitch = rb;
        l->alias_depth_pitch = rb * rows;
    }
    mapped->pData = l->alias;
    mapped->RowPitch = l->alias_row_pitch;
    mapped->DepthPitch = l->alias_depth_pitch;
    return true;
}

/* The driver's command list: the dynamic-map DDI that fits the resource's binding. False: the
 * context was lost. */
static bool deferred_map_ddi(struct rt_deferred *dc, struct rt_local *l, const struct rt_resource *res, UINT sub,
                             D3D11_MAP type, D3D11_MAPPED_SUBRESOURCE *mapped)
{
    UINT ia = D3D11_BIND_VERTEX_BUFFER | D3D11_BIND_INDEX_BUFFER;
    PFND3D10DDI_RESOURCEMAP fn;
    if (type == D3D11_MAP_WRITE_NO_OVERWRITE && res->bind_flags == D3D11_BIND_CONSTANT_BUFFER && dc_ctx_funcs1(dc) &&
        dc->ctx_funcs1.pfnDynamicConstantBufferMapNoOverwrite)
        fn = dc->ctx_funcs1.pfnDynamicConstantBufferMapNoOverwrite; /* 11.1 only (rt_map_no_overwrite_allowed) */
    else if (type == D3D11_MAP_WRITE_NO_OVERWRITE)
        fn = dc->ctx_funcs.pfnDynamicIABufferMapNoOverwrite; /* a DC's one other NO_OVERWRITE slot */
    else if (res->bind_flags && !(res->bind_flags & ~ia))
        fn = dc->ctx_funcs.pfnDynamicIABufferMapDiscard;
    else if (res->bind_flags == D3D11_BIND_CONSTANT_BUFFER)
        fn = dc->ctx_funcs.pfnDynamicConstantBufferMapDiscard;
    else
        fn = dc->ctx_funcs.pfnDynamicResourceMapDiscard;
    D3D10DDI_HRESOURCE h = { l->mem };
    D3D10DDI_MAPPED_SUBRESOURCE m = { 0 };
    dc_call_begin(dc);
    fn(dc->drv, h, sub, type == D3D11_MAP_WRITE_DISCARD ? D3D10_DDI_MAP_WRITE_DISCARD : D3D10_DDI_MAP_WRITE_NOOVERWRITE,
       0, &m);
    if (!dc_call_end(dc, "Map") || !m.pData)
        return false;
    mapped->pData = m.pData;
    mapped->RowPitch = m.RowPitch;
    mapped->DepthPitch = m.DepthPitch;
    return true;
}

HRESULT STDMETHODCALLTYPE rt_deferred_Map(ID3D11DeviceContext *iface, ID3D11Resource *resource, UINT sub,
                                        D3D11_MAP type, UINT flags, D3D11_MAPPED_SUBRESOURCE *mapped)
{
    struct rt_deferred *dc = rt_context_from_iface(iface)->dc;
    /* As on the immediate context (map.c): a failed Map sets pData to NULL and leaves the
     * pitches alone (Wine d3d11 tests (run on Windows), test_deferred_context_map). */
    if (mapped)
        mapped->pData = NULL;
    struct rt_resource *res = rt_resource_from_iface(resource);
    HRESULT hr = deferred_map_check(dc, res, sub, type, flags, mapped);
    if (FAILED(hr))
        return hr;
    UINT rb, rows, depth;
    tight_layout(res, sub, NULL, &rb, &rows, &depth);
    if (dc->lost)
        return deferred_map_scratch(dc, rb, rows, depth, mapped);
    struct rt_local *l = dc_use_resource(dc, res);
    if (!l)
        return dc->lost ? rt_deferred_Map(iface, resource, sub, type, flags, mapped) : E_OUTOFMEMORY;
    bool ok = dc->emulate ? deferred_map_emulated(dc, l, res, sub, type, rb, rows, depth, mapped)
                          : deferred_map_ddi(dc, l, res, sub, type, mapped);
    if (!ok) /* lost meanwhile: asked again, on a lost context (scratch) */
        return rt_deferred_Map(iface, resource, sub, type, flags, mapped);
    if (type == D3D11_MAP_WRITE_DISCARD)
        l->discarded = TRUE;
    l->mapped = TRUE;
    l->mapped_sub = sub;
    return S_OK;
}

static void dc_unmap_locked_entry(struct rt_deferred *dc, struct rt_local *l)
{
    struct rt_resource *res = l->obj;
    l->mapped = FALSE;
    if (dc->emulate || dc->lost || !l->created)
        return;
    UINT ia = D3D11_BIND_VERTEX_BUFFER | D3D11_BIND_INDEX_BUFFER;
    PFND3D10DDI_RESOURCEUNMAP fn;
    if (res->bind_flags && !(res->bind_flags & ~ia))
        fn = dc->ctx_funcs.pfnDynamicIABufferUnmap;
    else if (res->bind_flags == D3D11_BIND_CONSTANT_BUFFER)
        fn = dc->ctx_funcs.pfnDynamicConstantBufferUnmap;
    else
        fn = dc->ctx_funcs.pfnDynamicResourceUnmap;
    D3D10DDI_HRESOURCE h = { l->mem };
    dc_call_begin(dc);
    fn(dc->drv, h, l->mapped_sub);
    (void)dc_call_end(dc, "Unmap");
}

void STDMETHODCALLTYPE rt_deferred_Unmap(ID3D11DeviceContext *iface, ID3D11Resource *resource, UINT sub)
{
    struct rt_deferred *dc = rt_context_from_iface(iface)->dc;
    struct rt_resource *res = rt_resource_from_iface(resource);
    struct rt_local *l = res ? local_find(dc, res) : NULL;
    if (!l || !l->mapped || l->mapped_sub != sub) {
        if (!dc->lost)
            RT_REFUSE("Unmap (deferred): subresource %u is not mapped in this context", sub);
        return;
    }
    dc_unmap_locked_entry(dc, l);
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
        obj_release(cl->objs[i].obj, cl->objs[i].type);
    free(cl->objs);
    emu_free(&cl->emu);
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
    /* Anything still mapped is unmapped first (wddm-semantics §4.5 rule 6). */
    for (UINT i = 0; i < dc->local_cap; i++)
        if (dc->locals[i].obj && dc->locals[i].mapped)
            dc_unmap_locked_entry(dc, &dc->locals[i]);
    if (dc->lost) {
        /* seed 004: the partial list was tossed out at the failure; Finish reports it. */
        dc_reset(dc, NULL);
        RT_REFUSE("FinishCommandList: the context was removed locally after an out-of-memory error");
        return E_OUTOFMEMORY;
    }
    if (rt_device_is_removed(dev)) {
        dc_reset(dc, NULL);
        return DXGI_ERROR_DEVICE_REMOVED;
    }
    struct rt_cmdlist *cl = wddm_calloc(1, sizeof *cl);
    struct rt_local *objs = wddm_calloc(dc->local_count ? dc->local_count : 1, sizeof *objs);
    if (!cl || !objs) {
        free(cl);
        free(objs);
        dc_mark_lost(dc, E_OUTOFMEMORY, "FinishCommandList");
        dc_reset(dc, NULL);
        return E_OUTOFMEMORY;
    }
    cl->iface.lpVtbl = &cmdlist_vtbl;
    atomic_init(&cl->refs, 1);
    cl->device = dev;
    cl->flags = dc->flags;
    cl->objs = objs;
    if (!dc->emulate) {
        D3D11DDIARG_CREATECOMMANDLIST args = { .hDeferredContext = dc->drv };
        rt_ddi_begin(dev); /* pfnCalcPrivate* exist only on the IC's table (wddm-semantics §4.5 rule 3) */
        SIZE_T size = dev->funcs.pfnCalcPrivateCommandListSize(dev->drv_device, &args);
        (void)rt_ddi_end(dev);
        cl->drv_mem = wddm_calloc(1, size ? size : 1);
        if (!cl->drv_mem) {
            free(objs);
            free(cl);
            dc_mark_lost(dc, E_OUTOFMEMORY, "FinishCommandList");
            dc_reset(dc, NULL);
            return E_OUTOFMEMORY;
        }
        cl->drv.pDrvPrivate = cl->drv_mem;
        D3D11DDI_HRTCOMMANDLIST hrt = { cl };
        dc_call_begin(dc);
        dc->funcs.pfnCreateCommandList(dc->drv, &args, cl->drv, hrt);
        if (!dc_call_end(dc, "CreateCommandList")) {
            /* wddm-semantics §4.5 rule 9: the handle is invalid; no DestroyCommandList. */
            free(cl->drv_mem);
            free(objs);
            free(cl);
            dc_reset(dc, NULL);
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
    dc_reset(dc, cl);
    rt_device_addref(dev);
    RT_LIVE_ADD(dev, RT_LIVE_COMMANDLIST, 1);
    *out = &cl->iface;
    return S_OK;
}

/* ---- ExecuteCommandList ---------------------------------------------------------------------- */
static void emu_replay(struct rt_device *dev, const struct rt_emu_list *e)
{
    ID3D11DeviceContext *ic = &dev->context.iface;
    for (UINT i = 0; i < e->count; i++) {
        const struct rt_emu_op *op = &e->ops[i];
        switch (op->type) {
        case EMU_COPY:
            rt_context_CopyResource(ic, &((struct rt_resource *)op->a)->iface, &((struct rt_resource *)op->b)->iface);
            break;
        case EMU_COPY_REGION:
            rt_context_copy_region(ic, &((struct rt_resource *)op->a)->iface, op->dst_sub, op->x, op->y, op->z,
                                   &((struct rt_resource *)op->b)->iface, op->src_sub, op->has_box ? &op->box : NULL,
                                   op->copy_flags, op->copy_flags ? "CopySubresourceRegion1" : "CopySubresourceRegion");
            break;
        case EMU_UPDATE:
            rt_context_update(ic, &((struct rt_resource *)op->a)->iface, op->dst_sub, op->has_box ? &op->box : NULL,
                              op->data ? (const void *)op->data : "", op->row_pitch, op->depth_pitch, op->copy_flags,
                              op->copy_flags ? "UpdateSubresource1" : "UpdateSubresource");
            break;
        case EMU_CLEAR_RTV:
            rt_context_ClearRenderTargetView(ic, &((struct rt_rtv *)op->a)->iface, op->color);
            break;
        case EMU_DISCARD: {
            /* Renamed on each execution: a fresh IC Map(WRITE_DISCARD) every time. */
            ID3D11Resource *r = &((struct rt_resource *)op->a)->iface;
            D3D11_MAPPED_SUBRESOURCE m;
            if (FAILED(rt_context_Map(ic, r, op->dst_sub, D3D11_MAP_WRITE_DISCARD, 0, &m)))
                break;
            for (UINT z = 0; z < op->depth; z++)
                for (UINT y = 0; y < op->rows; y++)
                    memcpy((BYTE *)m.pData + (SIZE_T)z * m.DepthPitch + (SIZE_T)y * m.RowPitch,
                           op->data + (SIZE_T)z * op->depth_pitch + (SIZE_T)y * op->row_pitch, op->row_bytes);
            rt_context_Unmap(ic, r, op->dst_sub);
            break;
        }
        case EMU_DISCARD_API: {
            struct rt_discard d = { .type = op->handle_type, .object = op->a, .rect_count = op->rows,
                                    .rects = (const D3D11_RECT *)op->data };
            rt_context_discard(ic, &d);
            break;
        }
        case EMU_CLEAR_UAV:
            rt_context_ClearUnorderedAccessViewUint(ic, (ID3D11UnorderedAccessView *)op->a, op->values);
            break;
        case EMU_EXECUTE:
            emu_replay(dev, &((struct rt_cmdlist *)op->a)->emu);
            break;
        default:
            break;
        }
    }
}

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
     * (wddm-semantics §4.5 rule 8). */
    (void)restore;
    struct rt_deferred *dc = ctx->dc;
    if (dc) {
        /* A deferred context records the execution (the list stays alive with this one). */
        if (dc->lost)
            return;
        struct rt_local *l = local_find(dc, cl);
        if (!l && !(l = local_insert(dc, cl, D3D11DDI_HT_COMMANDLIST))) {
            dc_mark_lost(dc, E_OUTOFMEMORY, "ExecuteCommandList");
            return;
        }
        /* The nested list's event-query Ends become this recording's (issued after it runs). */
        if (!rt_query_ends_append(&dc->ends, &cl->ends)) {
            dc_mark_lost(dc, E_OUTOFMEMORY, "ExecuteCommandList");
            return;
        }
        if (dc->emulate) {
            struct rt_emu_op *op = emu_add(dc, EMU_EXECUTE);
            if (op)
                op->a = cl;
            return;
        }
        dc_call_begin(dc);
        dc->ctx_funcs.pfnCommandListExecute(dc->drv, cl->drv);
        (void)dc_call_end(dc, "CommandListExecute");
        return;
    }
    if (cl->drv_created) {
        static const HRESULT allowed[] = { E_OUTOFMEMORY };
        rt_ddi_begin(dev);
        if (rt_device_is_removed(dev)) {
            (void)rt_ddi_end(dev);
            return;
        }
        dev->ctx_funcs.pfnCommandListExecute(dev->drv_device, cl->drv);
        HRESULT err = rt_ddi_end(dev);
        (void)rt_ddi_error_to_api(dev, err, allowed, 1, "pfnCommandListExecute");
    } else {
        emu_replay(dev, &cl->emu);
    }
    /* Event queries ended in the list: End on the IC after the whole list (docs/rules.md). */
    rt_query_ends_issue(iface, &cl->ends);
}

struct rt_query_ends *rt_dc_query_ends(struct rt_deferred *dc)
{
    return dc->lost ? NULL : &dc->ends;
}

void STDMETHODCALLTYPE rt_context_ClearState(ID3D11DeviceContext *iface)
{
    /* No pipeline state exists in this model (no Set* methods), so there is nothing to
     * unbind; a deferred context starts "as the IC after ClearState" trivially. */
}

/* ---- the deferred context object ---------------------------------------------------------- */
static ULONG STDMETHODCALLTYPE dc_AddRef(ID3D11DeviceContext *iface)
{
    return atomic_fetch_add(&rt_context_from_iface(iface)->refs, 1) + 1;
}

static ULONG STDMETHODCALLTYPE dc_Release(ID3D11DeviceContext *iface)
{
    struct rt_deferred *dc = rt_context_from_iface(iface)->dc;
    ULONG n = atomic_fetch_sub(&dc->ctx.refs, 1) - 1;
    if (n)
        return n;
    struct rt_device *dev = dc->device;
    rt_private_clear(&dc->ctx.private_data);
    if (!dc->emulate && dc->drv_created && !dc->lost && dc->funcs.pfnAbandonCommandList)
        dc->funcs.pfnAbandonCommandList(dc->drv); /* an unfinished recording is dropped */
    dc_close_handles(dc, NULL);
    emu_free(&dc->emu);
    rt_query_ends_free(&dc->ends);
    dc_driver_destroy(dc);
    for (struct rt_arena_chunk *c = dc->chunks; c;) {
        struct rt_arena_chunk *next = c->next;
        free(c);
        c = next;
    }
    free(dc->locals);
    free(dc->drv_mem);
    free(dc);
    RT_LIVE_ADD(dev, RT_LIVE_CONTEXT, -1);
    rt_device_release(dev);
    return 0;
}

static void STDMETHODCALLTYPE dc_GetDevice(ID3D11DeviceContext *iface, ID3D11Device **out)
{
    if (!out)
        return;
    struct rt_device *dev = rt_context_from_iface(iface)->device;
    rt_device_addref(dev);
    *out = &dev->iface;
}

static void STDMETHODCALLTYPE dc_Flush(ID3D11DeviceContext *iface)
{
    /* Flush is an immediate-context operation (pfnFlush is excluded from a DC's table). */
}

static D3D11_DEVICE_CONTEXT_TYPE STDMETHODCALLTYPE dc_GetType(ID3D11DeviceContext *iface)
{
    return D3D11_DEVICE_CONTEXT_DEFERRED;
}

static UINT STDMETHODCALLTYPE dc_GetContextFlags(ID3D11DeviceContext *iface)
{
    return rt_context_from_iface(iface)->dc->flags;
}

/* As the immediate context's (context.c): the base vtable, then ID3D11DeviceContext1's slots. */
static const struct {
    struct ID3D11DeviceContextVtbl base;
    struct rt_own_ID3D11DeviceContext1 ext;
} deferred_vtbl = {
    .base = {
        RT_API_STUBS_ID3D11DeviceContext, /* every slot answers "not implemented" until named below */
        .QueryInterface = rt_context_QueryInterface,
        RT_PRIVATE_DATA_SLOTS(rt_context),
        .AddRef = dc_AddRef,
        .Release = dc_Release,
        .GetDevice = dc_GetDevice,
        .Map = rt_traced_Map,
        .Unmap = rt_traced_Unmap,
        .CopySubresourceRegion = rt_traced_CopySubresourceRegion,
        .CopyResource = rt_traced_CopyResource,
        .UpdateSubresource = rt_traced_UpdateSubresource,
        .ClearRenderTargetView = rt_traced_ClearRenderTargetView,
        .Flush = dc_Flush,
        .GetType = dc_GetType,
        .ClearState = rt_context_ClearState,
        .ExecuteCommandList = rt_traced_ExecuteCommandList,
        .FinishCommandList = rt_traced_FinishCommandList,
        .GetContextFlags = dc_GetContextFlags,
        .ClearUnorderedAccessViewUint = rt_traced_ClearUnorderedAccessViewUint,
        .Begin = rt_traced_Begin,
        .End = rt_traced_End,
        .GetData = rt_traced_GetData,
    },
    .ext = { RT_API_OWN_STUBS_ID3D11DeviceContext1, RT_CONTEXT1_SLOTS },
};

HRESULT STDMETHODCALLTYPE rt_device_CreateDeferredContext(ID3D11Device *iface, UINT flags,
                                                          ID3D11DeviceContext **out)
{
    struct rt_device *dev = rt_device_from_iface(iface);
    if (out)
        *out = NULL;
    if (flags) {
        RT_REFUSE("CreateDeferredContext: ContextFlags must be 0");
        return E_INVALIDARG;
    }
    if (dev->create_flags & D3D11_CREATE_DEVICE_SINGLETHREADED) {
        /* D3D11: a single-threaded device cannot create deferred contexts. */
        RT_REFUSE("CreateDeferredContext: the device was created with D3D11_CREATE_DEVICE_SINGLETHREADED");
        return DXGI_ERROR_INVALID_CALL;
    }
    if (!out)
        return S_FALSE; /* validate only */
    if (rt_device_is_removed(dev))
        return DXGI_ERROR_DEVICE_REMOVED;
    struct rt_deferred *dc = wddm_calloc(1, sizeof *dc);
    if (!dc)
        return E_OUTOFMEMORY;
    dc->ctx.iface.lpVtbl = &deferred_vtbl.base;
    atomic_init(&dc->ctx.refs, 1);
    dc->ctx.device = dev;
    dc->ctx.dc = dc;
    dc->device = dev;
    dc->flags = flags;
    dc->emulate = !dev->drv_command_lists;
    dc->core_callbacks.pfnSetErrorCb = dc_SetErrorCb;
    if (!dc->emulate) {
        HRESULT hr = dc_driver_create(dc);
        if (FAILED(hr)) {
            free(dc->drv_mem);
            free(dc);
            return hr;
        }
    }
    rt_device_addref(dev);
    RT_LIVE_ADD(dev, RT_LIVE_CONTEXT, 1);
    *out = &dc->ctx.iface;
    return S_OK;
}
